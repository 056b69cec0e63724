// The small paths as jit/emit/emit_small.cpp emits them: every strategy at every max clears every
// n in 0..1024 at every offset 0..63, flush against guard pages and across a page boundary; and
// on the synthetic CPUs of tests/support/golden_cases.hpp, each path's listing is its golden file
// (tests/golden/small/) and what Zydis decodes, alone and in a dispatcher, with every leaf
// returning itself.
#include "jit/emit/emit.hpp"
#include "jit/model/small.hpp"
#include "tests/support/golden_cases.hpp"
#include "tests/support/support.hpp"
#include "tests/support/zydis_check.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cjit::detail::test {
namespace {

// ---------------------------------------------------------------------------------------------
// Exact clears, on this CPU with and without AVX

struct Case {
  Small strategy;
  unsigned max;
  bool avx; // false: this CPU without AVX (legacy SSE encodings, 16-byte vectors)
  std::string name() const {
    return std::string(info(strategy).name) + "_" + std::to_string(max) + (avx ? "" : "_noavx");
  }
};

void PrintTo(const Case &c, std::ostream *os) { *os << c.name(); }

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const SmallInfo &i : small_strategies())
    for (unsigned max : kSmallMaxes)
      for (bool avx : {true, false})
        out.push_back({i.strategy, max, avx});
  return out;
}

constexpr size_t kMaxN = 1024, kSlack = 64;

class emit_small_Clear : public ::testing::TestWithParam<Case> {
protected:
  void SetUp() override {
    const Case &c = GetParam();
    cpu_ = host_like(c.avx);
    if (std::string why = small_unsupported_reason(c.strategy, cpu_); !why.empty())
      GTEST_SKIP() << why;
    // One class above the small path: what sizes above max reach.
    const std::vector<SizeClass> table{{0, default_spec(Method::stosb), 0}};
    auto code = generate(
        [&](asmjit::x86::Assembler &a) {
          emit_dispatcher(a, table, {c.strategy, c.max}, cpu_);
        },
        "small_" + c.name());
    ASSERT_TRUE(code) << code.error;
    code_ = std::move(*code.value);
  }

  //! Clears [base+off, base+off+n) of a patterned window of `win` bytes and checks it.
  void check(uint8_t *base, size_t win, size_t off, size_t n, const char *where) {
    fill_pattern(base, win);
    code_->fn(base + off, n);
    std::string why;
    if (size_t i = first_nonzero(base + off, n); i != n)
      why = "byte " + std::to_string(i) + " of the range is not zero";
    else if (first_pattern_mismatch(base, off) != off)
      why = "a byte before the range changed";
    else if (size_t i = first_pattern_mismatch(base + off + n, win - off - n, off + n);
             i != win - off - n)
      why = "byte " + std::to_string(i) + " after the range changed";
    if (!why.empty() && ++failures_ <= 8)
      ADD_FAILURE() << GetParam().name() << ": n=" << n << " " << where << " " << off << ": "
                    << why;
  }

  CpuInfo cpu_;
  std::unique_ptr<GeneratedCode> code_;
  int failures_ = 0;
};

TEST_P(emit_small_Clear, EverySizeUpTo1024AtEveryOffset) {
  GuardedBuffer buf(kMaxN + 2 * kSlack);
  for (size_t n = 0; n <= kMaxN; ++n)
    for (size_t off = 0; off < 64; ++off)
      check(buf.begin(), off + n + kSlack, off, n, "at offset");
  EXPECT_EQ(failures_, 0);
}

// A store before dst faults on the low guard page, one at or past dst + n on the high one.
TEST_P(emit_small_Clear, FlushAgainstBothGuardPages) {
  GuardedBuffer buf(kMaxN + kSlack);
  for (size_t n = 0; n <= kMaxN; ++n) {
    check(buf.begin(), n + kSlack, 0, n, "flush low");
    check(buf.end() - n - kSlack, n + kSlack, kSlack, n, "flush high");
  }
  EXPECT_EQ(failures_, 0);
}

// Destinations 1..64 bytes before a page boundary: the masked store's page-cross guard and
// ranges that straddle two pages.
TEST_P(emit_small_Clear, AcrossAPageBoundary) {
  const size_t page = page_size();
  GuardedBuffer buf(2 * page + kMaxN);
  for (size_t n = 0; n <= 300; ++n)
    for (size_t back = 1; back <= 64; ++back)
      check(buf.begin() + page - back - kSlack, kSlack + back + n + kSlack, kSlack, n, "page-");
  EXPECT_EQ(failures_, 0);
}

// n == 0 touches nothing: dst may be NULL.
TEST_P(emit_small_Clear, ZeroLengthAtNull) { code_->fn(nullptr, 0); }

INSTANTIATE_TEST_SUITE_P(Strategies, emit_small_Clear, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return info.param.name(); });

// ---------------------------------------------------------------------------------------------
// Listings, on synthetic CPUs

class emit_small_Listing : public ::testing::TestWithParam<SmallCase> {};

// Golden files for max = 256 (the other maxes change only the rungs' bounds); every case is
// cross-checked against Zydis, alone and in a dispatcher.
TEST_P(emit_small_Listing, ListingMatchesFileAndZydis) {
  const SmallCase &c = GetParam();
  auto code = small_path(c);
  std::string report = cross_check(code_bytes(*code), code->listing);
  EXPECT_TRUE(report.empty()) << c.stem() << "\n" << report;
  const std::vector<SizeClass> table{{0, default_spec(Method::stosb), 0}};
  auto whole = generated(
      [&](asmjit::x86::Assembler &a) {
        emit_dispatcher(a, table, {c.strategy, c.max}, small_cpu(c.cpu));
      },
      "dispatch_" + c.stem());
  report = cross_check(code_bytes(*whole), whole->listing);
  EXPECT_TRUE(report.empty()) << c.stem() << " in a dispatcher\n" << report;
  // libc's listing holds memset's address, which ASLR moves: no golden file.
  if (c.max != 256 || c.strategy == Small::libc) return;
  report = check_golden(golden_dir() / small_file(c), code->listing);
  EXPECT_TRUE(report.empty()) << c.stem() << " " << report;
}

// The dispatcher's promised shapes: no jump to a shared exit or to a jump (every leaf returns),
// vzeroupper only where ymm0 was stored from, and nothing but general registers below 16 B in
// the ladder.
TEST_P(emit_small_Listing, EveryLeafReturnsItself) {
  const SmallCase &c = GetParam();
  const std::string small = small_path(c)->listing;
  // memset's path is one tail call, its only leaf.
  const size_t jmp = small.find("jmp");
  if (c.strategy == Small::libc) {
    ASSERT_NE(jmp, std::string::npos) << small;
    EXPECT_EQ(small.find("call"), std::string::npos) << small;
    EXPECT_EQ(small.find("jmp", jmp + 1), std::string::npos) << small;
  } else {
    EXPECT_EQ(jmp, std::string::npos) << c.stem() << "\n" << small;
  }
  if (std::string_view(c.cpu) == "avx512") {
    EXPECT_EQ(small.find("vzeroupper"), std::string::npos) << "EVEX registers 16-31 need none";
  }
  // Every label in the small path starts a compare or a leaf, never a jump.
  auto lines = split_lines(small);
  for (size_t i = 0; i + 1 < lines.size(); ++i)
    if (!lines[i].empty() && lines[i][0] == 'L' && lines[i].back() == ':') {
      EXPECT_NE(lines[i + 1].rfind("j", 0), 0u)
          << c.stem() << ": " << lines[i] << " " << lines[i + 1];
    }
}

INSTANTIATE_TEST_SUITE_P(Strategies, emit_small_Listing, ::testing::ValuesIn(small_cases()),
                         [](const auto &info) { return info.param.stem(); });

} // namespace
} // namespace cjit::detail::test
