// Golden dispatchers: the listing of each profile in tests/profiles/runtime is the code byte for
// byte and routes like class_for (test_golden.cpp matches their class trees to tests/golden/tree).
#include "clearjit/clearjit.h"
#include "clearjit/clearjit.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace cjit::detail {
namespace {

namespace fs = std::filesystem;
using namespace test;

struct GoldenCase {
  const char *profile; // tests/profiles/runtime/<profile>.toml
  Intent intent;
  bool avx;
  std::string stem() const { return std::string(profile) + "_" + std::string(intent_name(intent)); }
};
void PrintTo(const GoldenCase &c, std::ostream *os) { *os << c.stem(); }

// libc stays out of these profiles: its listing embeds memset's address, which ASLR moves.
const GoldenCase kGoldenCases[] = {
    {"golden_avx", Intent::reuse, true},
    {"golden_avx", Intent::stream, true},
    {"golden_sse", Intent::reuse, false},
};

class golden_Dispatch : public ::testing::TestWithParam<GoldenCase> {
protected:
  void SetUp() override {
    const GoldenCase &c = GetParam();
    // Loaded for a fake CPU so the listing is the same on every machine; without AVX the
    // minimal CPU makes the loader refuse any AVX kernel.
    profile_ = load_or_throw(kRuntimeProfiles / (std::string(c.profile) + ".toml"),
                             c.avx ? full_cpu() : minimal_cpu());
    table_ = &profile_.table(c.intent);
    for (const SizeClass &cls : *table_)
      ASSERT_NE(cls.kernel.method, Method::libc) << "libc has no stable listing";
    code_ = make_dispatcher(*table_, c.avx ? full_cpu() : minimal_cpu());
  }
  Profile profile_;
  const std::vector<SizeClass> *table_ = nullptr;
  std::unique_ptr<GeneratedCode> code_;
};

// The listing describes the code byte for byte, and the tree in the code routes like class_for.
TEST_P(golden_Dispatch, ListingIsTheCodeAndRoutesLikeClassFor) {
  EXPECT_EQ(listing_vs_code(code_->listing, code_bytes(*code_)), "");
  EXPECT_EQ(check_routing(*code_, *table_), "");
}

INSTANTIATE_TEST_SUITE_P(Profiles, golden_Dispatch, ::testing::ValuesIn(kGoldenCases),
                         [](const auto &info) { return info.param.stem(); });

// Bounds above INT32_MAX cannot be a sign-extended imm32: they go through r11.
TEST(golden_DispatchFiles, WideBoundsCompareThroughR11) {
  const Profile p = load_or_throw(kRuntimeProfiles / "golden_avx.toml", full_cpu());
  for (Intent i : kIntents) {
    auto g = make_dispatcher(p.table(i), full_cpu());
    EXPECT_NE(g->listing.find("cmp rsi, r11"), std::string::npos) << intent_name(i) << "\n"
                                                                  << g->listing;
  }
}

} // namespace
} // namespace cjit::detail
