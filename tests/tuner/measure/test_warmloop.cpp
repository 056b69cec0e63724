// The generated caller of warm measurements (tuner/measure/warmloop.hpp): every form passes each
// call of the sequence to the function in its slot with the documented arguments, wraps the
// sequence, reads back what a reuse caller reads, and keeps every place's forms at the same page
// offset.
#include "tuner/measure/measure.hpp"
#include "tuner/measure/warmloop.hpp"

#include <gtest/gtest.h>

#include <clearjit/clearjit.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace cjit::detail::test {
namespace {

struct Seen {
  uint64_t a, b, c;
  bool aligned; // rsp was 16-byte aligned at the call (System V)
};
std::vector<Seen> g_seen;

// Records its three argument registers; as a clearing function it marks the first and last
// byte so that a reuse loop's read-back is known. noinline: its frame address is what the call
// left (the return address and the saved rbp sit on a 16-byte boundary after an aligned call).
__attribute__((noinline)) void record(uint64_t a, uint64_t b, uint64_t c) {
  const bool aligned = reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) % 16 == 0;
  g_seen.push_back({a, b, c, aligned});
  auto *dst = reinterpret_cast<uint8_t *>(a == 0x0dd0 ? b : a);
  const uint64_t n = c;
  dst[0] = 3;
  dst[n - 1] = 5;
}
void (*const g_record_slot)(uint64_t, uint64_t, uint64_t) = &record;

// Calls a loop with rbx, rbp and r12-r15 set to known values and returns the bits that differ
// afterwards, OR-ed together (0: every callee-saved register came back). rsp is checked by the
// call returning at all and by `record`'s alignment check.
extern "C" uint64_t warm_loop_abi_probe(WarmLoopFn loop, const WarmCall *calls, uint8_t *buf,
                                        uint64_t count, const void *const *slot, uint64_t arg);
asm(R"(
  .text
  .intel_syntax noprefix
  .p2align 4
warm_loop_abi_probe:
  push rbx
  push rbp
  push r12
  push r13
  push r14
  push r15
  sub rsp, 8
  mov rax, rdi
  mov rdi, rsi
  mov rsi, rdx
  mov rdx, rcx
  mov rcx, r8
  mov r8, r9
  movabs rbx, 0x1111111111111111
  movabs rbp, 0x2222222222222222
  movabs r12, 0x3333333333333333
  movabs r13, 0x4444444444444444
  movabs r14, 0x5555555555555555
  movabs r15, 0x6666666666666666
  call rax
  xor eax, eax
  movabs rcx, 0x1111111111111111
  xor rcx, rbx
  or rax, rcx
  movabs rcx, 0x2222222222222222
  xor rcx, rbp
  or rax, rcx
  movabs rcx, 0x3333333333333333
  xor rcx, r12
  or rax, rcx
  movabs rcx, 0x4444444444444444
  xor rcx, r13
  or rax, rcx
  movabs rcx, 0x5555555555555555
  xor rcx, r14
  or rax, rcx
  movabs rcx, 0x6666666666666666
  xor rcx, r15
  or rax, rcx
  add rsp, 8
  pop r15
  pop r14
  pop r13
  pop r12
  pop rbp
  pop rbx
  ret
  .att_syntax prefix
)");

const void *const *slot() { return reinterpret_cast<const void *const *>(&g_record_slot); }

// A handle whose entry points record (clearing functions: (dst, n, n) as the pointer form passes
// them); entry(reuse, inline_max) is the slot an inlined loop gets.
clearjit g_handle{};
void record_clear(void *dst, size_t n) { record(reinterpret_cast<uint64_t>(dst), n, n); }
const void *const *entry(bool reuse, size_t inline_max = CLEARJIT_INLINE_MAX) {
  g_handle.clear = g_handle.clear_stream = &record_clear;
  g_handle.inline_max = inline_max;
  return reinterpret_cast<const void *const *>(reuse ? &g_handle.clear : &g_handle.clear_stream);
}

struct warmloop_Loop : ::testing::Test {
  std::vector<WarmCall> calls = warm_calls(Mix::log_uniform, 0);
  std::vector<uint8_t> buf = std::vector<uint8_t>(kWarmBytes, 1);
  WarmLoops loops;
  void SetUp() override { g_seen.clear(); }
};

TEST_F(warmloop_Loop, PointerFormPassesDestinationAndSize) {
  const uint64_t count = kWarmCalls + 7; // wraps once
  for (uint64_t arg : {kClearFnArg, kMemsetArg}) {
    g_seen.clear();
    EXPECT_EQ(loops.at(0, LoopForm::pointer, false)(calls.data(), buf.data(), count, slot(), arg),
              0u);
    ASSERT_EQ(g_seen.size(), count);
    for (uint64_t k = 0; k < count; ++k) {
      const WarmCall &c = calls[k % kWarmCalls];
      ASSERT_EQ(g_seen[k].a, reinterpret_cast<uint64_t>(buf.data() + c.off)) << k;
      ASSERT_EQ(g_seen[k].b, c.n & arg) << k; // n for a ClearFn, memset's fill byte 0
      ASSERT_EQ(g_seen[k].c, c.n) << k;
      ASSERT_TRUE(g_seen[k].aligned) << k;
    }
  }
}

TEST_F(warmloop_Loop, ExportedFormPassesTheHandleFirst) {
  loops.at(1, LoopForm::exported, false)(calls.data(), buf.data(), 100, slot(), 0x0dd0);
  ASSERT_EQ(g_seen.size(), 100u);
  for (size_t k = 0; k < 100; ++k) {
    EXPECT_EQ(g_seen[k].a, 0x0dd0u);
    EXPECT_EQ(g_seen[k].b, reinterpret_cast<uint64_t>(buf.data() + calls[k].off));
    EXPECT_EQ(g_seen[k].c, calls[k].n);
  }
}

// The inlined form stores sizes up to the handle's inline_max itself, as clearjit.h does, and
// calls the entry point for the others; with inline_max 0 it calls for every size.
TEST_F(warmloop_Loop, InlinedFormStoresTinySizesItself) {
  // Sizes 1..32 twice, each call in its own 64 bytes at offsets 0..6 there.
  calls.assign(kWarmCalls, WarmCall{0, 1});
  for (size_t k = 0; k < 64; ++k)
    calls[k] = {uint32_t(k * 64 + k % 7), uint32_t(k % 32 + 1)};
  for (size_t inline_max : {size_t{CLEARJIT_INLINE_MAX}, size_t{0}})
    for (bool reuse : {false, true}) {
      g_seen.clear();
      std::fill(buf.begin(), buf.end(), 1);
      loops.at(5, LoopForm::inlined, reuse)(calls.data(), buf.data(), 64, entry(reuse, inline_max),
                                            kClearFnArg);
      size_t called = 0;
      for (size_t k = 0; k < 64; ++k) {
        const WarmCall &c = calls[k];
        if (c.n > inline_max) {
          ASSERT_LT(called, g_seen.size());
          EXPECT_EQ(g_seen[called].a, reinterpret_cast<uint64_t>(buf.data() + c.off)) << k;
          EXPECT_EQ(g_seen[called].c, c.n) << k;
          ++called;
          continue;
        }
        if (c.off > 0) {
          EXPECT_EQ(buf[c.off - 1], 1) << "before, call " << k;
        }
        for (uint32_t b = 0; b < c.n; ++b)
          ASSERT_EQ(buf[c.off + b], 0) << "call " << k << " byte " << b;
        EXPECT_EQ(buf[c.off + c.n], 1) << "after, call " << k;
      }
      EXPECT_EQ(called, g_seen.size()) << "inline_max " << inline_max << ", reuse " << reuse;
    }
}

TEST_F(warmloop_Loop, ReuseReadsTheFirstAndLastByte) {
  // record() writes 3 and 5; a 1-byte call's first byte is its last: 5 twice.
  uint64_t want = 0;
  for (size_t k = 0; k < 300; ++k)
    want += calls[k].n == 1 ? 10 : 8;
  EXPECT_EQ(
      loops.at(0, LoopForm::pointer, true)(calls.data(), buf.data(), 300, slot(), kClearFnArg),
      want);
  EXPECT_EQ(loops.at(0, LoopForm::exported, true)(calls.data(), buf.data(), 300, slot(), 0x0dd0),
            want);
  EXPECT_EQ(
      loops.at(0, LoopForm::pointer, false)(calls.data(), buf.data(), 300, slot(), kClearFnArg),
      0u);
}

TEST_F(warmloop_Loop, CalleeSavedRegistersComeBack) {
  for (LoopForm f : {LoopForm::pointer, LoopForm::exported, LoopForm::inlined})
    for (bool reuse : {false, true})
      EXPECT_EQ(warm_loop_abi_probe(loops.at(3, f, reuse), calls.data(), buf.data(), 50,
                                    f == LoopForm::inlined ? entry(reuse) : slot(),
                                    f == LoopForm::exported ? 0x0dd0 : kClearFnArg),
                0u)
          << "form " << int(f) << ", reuse " << reuse;
  // The inlined loops call for the sizes above their handle's inline_max only.
  size_t above = 0;
  for (size_t k = 0; k < 50; ++k)
    above += calls[k].n > CLEARJIT_INLINE_MAX;
  EXPECT_EQ(g_seen.size(), 200u + 2 * above);
}

TEST_F(warmloop_Loop, ZeroCallsCallNothing) {
  EXPECT_EQ(loops.at(0, LoopForm::pointer, true)(calls.data(), buf.data(), 0, slot(), kClearFnArg),
            0u);
  EXPECT_TRUE(g_seen.empty());
}

TEST_F(warmloop_Loop, MemsetThroughThePointerFormClears) {
  void *(*const memset_slot)(void *, int, size_t) = &std::memset;
  loops.at(2, LoopForm::pointer, false)(calls.data(), buf.data(), kWarmCalls,
                                        reinterpret_cast<const void *const *>(&memset_slot),
                                        kMemsetArg);
  for (const WarmCall &c : calls)
    for (uint32_t k = 0; k < c.n; ++k)
      ASSERT_EQ(buf[c.off + k], 0) << "offset " << c.off + k;
}

TEST_F(warmloop_Loop, PlacesDifferAndFormsShareAPageOffset) {
  std::vector<uintptr_t> seen;
  for (int p = 0; p < 16; ++p) {
    const auto at = [&](LoopForm f, bool r) {
      return reinterpret_cast<uintptr_t>(loops.at(p, f, r));
    };
    const uintptr_t first = at(LoopForm::pointer, false);
    for (LoopForm f : {LoopForm::pointer, LoopForm::exported, LoopForm::inlined})
      for (bool r : {false, true})
        EXPECT_EQ(at(f, r) % 4096, first % 4096) << "place " << p;
    for (uintptr_t s : seen)
      EXPECT_NE(s, first) << "place " << p;
    seen.push_back(first);
    EXPECT_EQ(first, reinterpret_cast<uintptr_t>(loops.at(p, LoopForm::pointer, false)));
  }
  // Earlier places still run after later ones were written.
  EXPECT_EQ(
      loops.at(0, LoopForm::pointer, true)(calls.data(), buf.data(), 10, slot(), kClearFnArg) > 0,
      true);
  EXPECT_THROW(loops.at(-1, LoopForm::pointer, false), std::out_of_range);
}

} // namespace
} // namespace cjit::detail::test
