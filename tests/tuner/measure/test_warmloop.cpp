// The generated caller of warm measurements (tuner/measure/warmloop.hpp): every form passes each
// call of the sequence to the function in its slot with the documented arguments, wraps the
// sequence, reads back what a reuse caller reads, and keeps every place's forms at the same page
// offset.
#include "tuner/measure/measure.hpp"
#include "tuner/measure/warmloop.hpp"

#include <gtest/gtest.h>

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
    EXPECT_EQ(loops.at(0, false, false)(calls.data(), buf.data(), count, slot(), arg), 0u);
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
  loops.at(1, true, false)(calls.data(), buf.data(), 100, slot(), 0x0dd0);
  ASSERT_EQ(g_seen.size(), 100u);
  for (size_t k = 0; k < 100; ++k) {
    EXPECT_EQ(g_seen[k].a, 0x0dd0u);
    EXPECT_EQ(g_seen[k].b, reinterpret_cast<uint64_t>(buf.data() + calls[k].off));
    EXPECT_EQ(g_seen[k].c, calls[k].n);
  }
}

TEST_F(warmloop_Loop, ReuseReadsTheFirstAndLastByte) {
  // record() writes 3 and 5; a 1-byte call's first byte is its last: 5 twice.
  uint64_t want = 0;
  for (size_t k = 0; k < 300; ++k)
    want += calls[k].n == 1 ? 10 : 8;
  EXPECT_EQ(loops.at(0, false, true)(calls.data(), buf.data(), 300, slot(), kClearFnArg), want);
  EXPECT_EQ(loops.at(0, true, true)(calls.data(), buf.data(), 300, slot(), 0x0dd0), want);
  EXPECT_EQ(loops.at(0, false, false)(calls.data(), buf.data(), 300, slot(), kClearFnArg), 0u);
}

TEST_F(warmloop_Loop, CalleeSavedRegistersComeBack) {
  for (bool exported : {false, true})
    for (bool reuse : {false, true})
      EXPECT_EQ(warm_loop_abi_probe(loops.at(3, exported, reuse), calls.data(), buf.data(), 50,
                                    slot(), exported ? 0x0dd0 : kClearFnArg),
                0u)
          << "exported " << exported << ", reuse " << reuse;
  EXPECT_EQ(g_seen.size(), 200u);
}

TEST_F(warmloop_Loop, ZeroCallsCallNothing) {
  EXPECT_EQ(loops.at(0, false, true)(calls.data(), buf.data(), 0, slot(), kClearFnArg), 0u);
  EXPECT_TRUE(g_seen.empty());
}

TEST_F(warmloop_Loop, MemsetThroughThePointerFormClears) {
  void *(*const memset_slot)(void *, int, size_t) = &std::memset;
  loops.at(2, false, false)(calls.data(), buf.data(), kWarmCalls,
                            reinterpret_cast<const void *const *>(&memset_slot), kMemsetArg);
  for (const WarmCall &c : calls)
    for (uint32_t k = 0; k < c.n; ++k)
      ASSERT_EQ(buf[c.off + k], 0) << "offset " << c.off + k;
}

TEST_F(warmloop_Loop, PlacesDifferAndFormsShareAPageOffset) {
  std::vector<uintptr_t> seen;
  for (int p = 0; p < 16; ++p) {
    const auto at = [&](bool e, bool r) { return reinterpret_cast<uintptr_t>(loops.at(p, e, r)); };
    for (bool e : {false, true})
      for (bool r : {false, true})
        EXPECT_EQ(at(e, r) % 4096, at(false, false) % 4096) << "place " << p;
    for (uintptr_t s : seen)
      EXPECT_NE(s, at(false, false)) << "place " << p;
    seen.push_back(at(false, false));
    EXPECT_EQ(at(false, false), reinterpret_cast<uintptr_t>(loops.at(p, false, false)));
  }
  // Earlier places still run after later ones were written.
  EXPECT_EQ(loops.at(0, false, true)(calls.data(), buf.data(), 10, slot(), kClearFnArg) > 0, true);
  EXPECT_THROW(loops.at(-1, false, false), std::out_of_range);
}

} // namespace
} // namespace cjit::detail::test
