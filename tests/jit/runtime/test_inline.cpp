// clearjit.h's inline calls (clearjit_clear, clearjit_clear_stream): sizes up to the handle's
// inline_max are stored by the caller's own code, exactly and without a call; larger ones, and
// every size with inline_max 0, go to the handle's dispatcher.
#include "tests/support/support.hpp"

#include "jit/model/cpu.hpp"
#include "jit/profile/defaults.hpp"
#include "jit/runtime/runtime.hpp"

#include <clearjit/clearjit.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cjit::detail::test {
namespace {

using Handle = std::unique_ptr<clearjit, void (*)(clearjit *)>;

Handle open_builtin() {
  std::string error;
  clearjit *cj = open_profile(builtin_profile(host_cpu()), host_cpu(), error);
  EXPECT_TRUE(cj) << error;
  return Handle(cj, [](clearjit *c) { clearjit_close(c); });
}

// Clears [dst, dst + n) through the inline call of `intent`.
void inline_clear(const clearjit *cj, bool reuse, void *dst, size_t n) {
  if (reuse)
    clearjit_clear(cj, dst, n);
  else
    clearjit_clear_stream(cj, dst, n);
}

// Every size 0..64 at every offset 0..63 and against both guard pages (tests/support's Sweeper):
// zero inside, the pattern outside. Returns the failures, each reported.
int sweep_inline(const clearjit *cj, bool reuse) {
  Sweeper s(
      reuse ? "inline reuse" : "inline stream",
      [cj, reuse](void *dst, size_t n) { inline_clear(cj, reuse, dst, n); }, 64 + 64);
  for (size_t n = 0; n <= 64; ++n) {
    for (size_t off = 0; off < 64; ++off)
      s.at(n, off);
    s.low_guard(n);
    s.high_guard(n);
  }
  return s.failures();
}

TEST(inline_call, EveryHandleClearsTinySizesInline) {
  Handle cj = open_builtin();
  ASSERT_TRUE(cj);
  EXPECT_EQ(cj->inline_max, size_t{CLEARJIT_INLINE_MAX});
}

TEST(inline_call, EverySizeAndOffsetIsExact) {
  Handle cj = open_builtin();
  ASSERT_TRUE(cj);
  for (size_t inline_max : {size_t{CLEARJIT_INLINE_MAX}, size_t{0}})
    for (bool reuse : {true, false}) {
      cj->inline_max = inline_max;
      EXPECT_EQ(sweep_inline(cj.get(), reuse), 0) << "inline_max " << inline_max;
    }
}

// The dispatcher's calls, recorded in place of the handle's entry points.
std::vector<std::pair<void *, size_t>> g_calls;
void record(void *dst, size_t n) {
  g_calls.emplace_back(dst, n);
  std::memset(dst, 0, n);
}

TEST(inline_call, TinySizesNeverCallTheDispatcher) {
  Handle cj = open_builtin();
  ASSERT_TRUE(cj);
  const auto entries = std::make_pair(cj->clear, cj->clear_stream);
  cj->clear = cj->clear_stream = &record;
  uint8_t buf[128];
  for (size_t inline_max : {size_t{CLEARJIT_INLINE_MAX}, size_t{0}})
    for (bool reuse : {true, false}) {
      cj->inline_max = inline_max;
      g_calls.clear();
      for (size_t n = 0; n <= 64; ++n)
        inline_clear(cj.get(), reuse, buf + n % 8, n);
      // n == 0 is at most inline_max either way: never a call.
      ASSERT_EQ(g_calls.size(), 64 - inline_max) << "inline_max " << inline_max;
      for (size_t k = 0; k < g_calls.size(); ++k) {
        const size_t n = inline_max + 1 + k;
        EXPECT_EQ(g_calls[k], std::make_pair(static_cast<void *>(buf + n % 8), n));
      }
    }
  cj->clear = entries.first;
  cj->clear_stream = entries.second;
}

// Sizes the compiler knows: each constant folds its branches; every one still exact.
template <size_t N> std::string constant_size_exact(const clearjit *cj) {
  uint8_t buf[64 + N + 64];
  for (size_t off = 0; off < 8; ++off) {
    fill_pattern(buf, sizeof buf);
    clearjit_clear(cj, buf + 64 + off, N);
    if (first_nonzero(buf + 64 + off, N) != N ||
        first_pattern_mismatch(buf, 64 + off) != 64 + off ||
        first_pattern_mismatch(buf + 64 + off + N, 64 - off, 64 + off + N) != 64 - off)
      return "constant n " + std::to_string(N) + ", offset " + std::to_string(off);
  }
  return "";
}

template <size_t... N>
std::string constant_sizes_exact(const clearjit *cj, std::index_sequence<N...>) {
  std::string out;
  ((out += constant_size_exact<N>(cj)), ...);
  return out;
}

TEST(inline_call, ConstantSizesAreExact) {
  Handle cj = open_builtin();
  ASSERT_TRUE(cj);
  EXPECT_EQ(constant_sizes_exact(cj.get(), std::make_index_sequence<CLEARJIT_INLINE_MAX + 4>()),
            "");
}

} // namespace
} // namespace cjit::detail::test
