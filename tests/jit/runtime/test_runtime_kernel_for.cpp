// kernel_for: the canonical spec of the right class, written out by hand, for both tables, a
// profile without a stream table, and the C++ wrapper.
#include "clearjit/clearjit.h"
#include "clearjit/clearjit.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace cjit::detail {
namespace {

using namespace test;

// Non-canonical spellings, bounds at odd places, at INT32_MAX, 2 GiB, 3 GiB and 1 TiB; kernels
// any x86-64 runs. Canonical forms are spelled out rather than computed with format_spec.
const std::vector<ClassText> kKernelForReuse = {
    {300, "mov:unroll=8"},
    {4096, "sse:align=0,unroll=2"},
    {65600, "stosq:chunk=4096"},
    {k1M64, "movnti:fence=end"},
    {uint64_t(INT32_MAX), "ntsse:fence=chunk,chunk=4K"},
    {k2G, "stosb:align=16"},
    {k3G, "libc"},
    {k1T, "stosq"},
    {0, "mov:unroll=1"},
};
const std::vector<std::string> kKernelForReuseCanonical = {"mov",
                                                           "sse:unroll=2",
                                                           "stosq:chunk=4K",
                                                           "movnti",
                                                           "ntsse:chunk=4K,fence=chunk",
                                                           "stosb:align=16",
                                                           "libc",
                                                           "stosq",
                                                           "mov:unroll=1"};
const std::vector<ClassText> kKernelForStream = {
    {4095, "stosb:chunk=0"},
    {k3G + 1, "ntsse:unroll=4"},
    {0, "movnti:align=64,unroll=4"},
};
const std::vector<std::string> kKernelForStreamCanonical = {"stosb", "ntsse", "movnti:unroll=4"};

void expect_kernel_for(const clearjit *cj, clearjit_intent intent,
                       const std::vector<ClassText> &classes,
                       const std::vector<std::string> &canonical) {
  ASSERT_EQ(classes.size(), canonical.size());
  const char *name = intent == CLEARJIT_STREAM ? "stream" : "reuse";
  EXPECT_STREQ(clearjit_kernel_for(cj, intent, 0), canonical.front().c_str()) << name << " n=0";
  EXPECT_STREQ(clearjit_kernel_for(cj, intent, SIZE_MAX), canonical.back().c_str())
      << name << " n=SIZE_MAX";
  for (size_t i = 0; i + 1 < classes.size(); ++i) {
    const uint64_t b = classes[i].below;
    EXPECT_STREQ(clearjit_kernel_for(cj, intent, b - 1), canonical[i].c_str())
        << name << " n=below-1=" << b - 1;
    EXPECT_STREQ(clearjit_kernel_for(cj, intent, b), canonical[i + 1].c_str())
        << name << " n=below=" << b;
    // below+1 may already be the next class's below (INT32_MAX, then 2 GiB).
    const size_t above = i + 2 < classes.size() && b + 1 >= classes[i + 1].below ? i + 2 : i + 1;
    EXPECT_STREQ(clearjit_kernel_for(cj, intent, b + 1), canonical[above].c_str())
        << name << " n=below+1=" << b + 1;
  }
}

class runtime_KernelFor : public ::testing::Test {
protected:
  clearjit *open(const std::vector<ClassText> &stream) {
    const std::string path = dir_ / "kernel_for.toml";
    write_file(path, profile_text(host_cpu(), kKernelForReuse, stream));
    std::vector<char> err(4096, '\0');
    clearjit *cj = clearjit_open(path.c_str(), err.data(), err.size());
    EXPECT_NE(cj, nullptr) << errbuf_text(err);
    return cj;
  }
  TempDir dir_;
};

TEST_F(runtime_KernelFor, BothTables) {
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(open(kKernelForStream), clearjit_close);
  ASSERT_TRUE(cj);
  expect_kernel_for(cj.get(), CLEARJIT_REUSE, kKernelForReuse, kKernelForReuseCanonical);
  expect_kernel_for(cj.get(), CLEARJIT_STREAM, kKernelForStream, kKernelForStreamCanonical);
  // The returned text stays valid (and the same) until close.
  const char *first = clearjit_kernel_for(cj.get(), CLEARJIT_STREAM, 4095);
  clearjit_kernel_for(cj.get(), CLEARJIT_REUSE, 4095);
  EXPECT_STREQ(first, "ntsse");
}

TEST_F(runtime_KernelFor, WithoutStreamTheStreamIntentUsesReuse) {
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(open({}), clearjit_close);
  ASSERT_TRUE(cj);
  expect_kernel_for(cj.get(), CLEARJIT_REUSE, kKernelForReuse, kKernelForReuseCanonical);
  expect_kernel_for(cj.get(), CLEARJIT_STREAM, kKernelForReuse, kKernelForReuseCanonical);
  // And the stream dispatcher clears like the reuse one (its table is reuse's; its small path may
  // differ, see default_small).
  const std::vector<uint64_t> sizes = {0, 1, 255, 256, 299, 300, 4095, 4096, 65599, 65600};
  const clearjit *c = cj.get();
  EXPECT_EQ(
      sweep_sizes(
          "reuse-only stream", [c](void *d, size_t n) { clearjit_clear_stream(c, d, n); }, sizes),
      0);
}

// The C++ wrapper reports the same names.
TEST_F(runtime_KernelFor, ClearerWrapper) {
  const std::string path = dir_ / "kernel_for.toml";
  write_file(path, profile_text(host_cpu(), kKernelForReuse, kKernelForStream));
  Clearer c(path);
  EXPECT_EQ(c.kernel_for(Intent::reuse, 65600), "movnti");
  EXPECT_EQ(c.kernel_for(Intent::stream, 65600), "ntsse");
  EXPECT_EQ(c.source(), path);
  EXPECT_EQ(c.warnings(), "");
}

} // namespace
} // namespace cjit::detail
