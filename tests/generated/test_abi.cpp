// System V ABI conformance of every kernel in the representative set, observed by a generated
// trampoline: callee-saved registers, rsp, the direction flag, MXCSR and the x87 control word
// survive the call, and kernels that use AVX leave the upper halves of ymm0-15 zero (vzeroupper).
#include "jit/emit/emit.hpp"
#include "jit/model/cpu.hpp"
#include "jit/model/small.hpp"
#include "jit/model/spec.hpp"
#include "tests/support/specs.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>
#include <xmmintrin.h> // _mm_getcsr

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cjit::detail::test {
namespace {

using namespace asmjit;

constexpr size_t kCalleeSaved = 6;
const char *const kCalleeSavedNames[kCalleeSaved] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};
const x86::Gp kCalleeSavedRegs[kCalleeSaved] = {x86::rbx, x86::rbp, x86::r12,
                                                x86::r13, x86::r14, x86::r15};
//! Loaded into the callee-saved registers before the call; distinct and unlike any address.
constexpr uint64_t kRegPatterns[kCalleeSaved] = {0xB0B1B2B3B4B5B6B7, 0xBEEF0001DEAD0002,
                                                 0x1212343456567878, 0x1313A5A55A5AC3C3,
                                                 0x1414F00F0FF07EE7, 0x15158001C0DE9009};
constexpr uint64_t kDirectionFlag = uint64_t(1) << 10;

//! What the trampoline saw. Plain uint64_t fields so the generated code addresses them by offset.
struct AbiSnapshot {
  uint64_t regs[kCalleeSaved];        //!< rbx, rbp, r12-r15 after the call
  uint64_t rsp_delta;                 //!< rsp after the call minus rsp before it
  uint64_t rflags;                    //!< right after the call
  uint64_t mxcsr_before, mxcsr_after; //!< low 32 bits used
  uint64_t x87cw_before, x87cw_after; //!< low 16 bits used
  //! Bits 128..511 of zmm0-15 after the call: [i][0..1] = ymm upper half (AVX), [i][2..5] =
  //! zmm bits 256..511 (AVX-512 only). Zero-initialised, so absent parts read as clean.
  uint64_t vec_upper[16][6];
};

//! Where the trampoline keeps what it needs after the call. Static, because a kernel that breaks
//! rsp or every register leaves nothing else to find it by (the tests are single-threaded).
struct TrampolineScratch {
  uint64_t rsp_before;
  uint64_t rsp_after;
  AbiSnapshot *out;
};
TrampolineScratch g_scratch;

//! Nonzero in every byte: loaded into zmm/ymm0-15 before the call so that an upper half the
//! kernel fails to zero (no vzeroupper) is still nonzero afterwards.
alignas(64) const std::array<uint8_t, 64> kDirtyVector = [] {
  std::array<uint8_t, 64> bytes{};
  bytes.fill(0xA5);
  return bytes;
}();

using TrampolineFn = uint64_t (*)(ClearFn kernel, void *dst, size_t n, AbiSnapshot *out);

//! A field offset as an AsmJit displacement.
int32_t disp(size_t offset) { return int32_t(offset); }

// The upper-half check reads register values, not XINUSE: vzeroupper architecturally zeroes
// bits 128 and up of ymm/zmm0-15, and vextractf128/vextracti64x4 read them exactly, whereas
// xgetbv(1) may report a component "in use" even when it is in its initial state. Dirtying all
// sixteen registers first makes a missing vzeroupper visible in every one the kernel left alone.
void emit_trampoline(x86::Assembler &a, bool avx, bool avx512, bool dirty = true) {
  using namespace x86;
  // rdi = kernel, rsi = dst, rdx = n, rcx = out.
  for (const Gp &r : kCalleeSavedRegs)
    a.push(r);
  a.sub(rsp, 8); // entry rsp % 16 == 8; six pushes and this make the call site 16-aligned
  a.stmxcsr(dword_ptr(rcx, disp(offsetof(AbiSnapshot, mxcsr_before))));
  a.fnstcw(word_ptr(rcx, disp(offsetof(AbiSnapshot, x87cw_before))));
  a.mov(rax, reinterpret_cast<uint64_t>(&g_scratch));
  a.mov(qword_ptr(rax, disp(offsetof(TrampolineScratch, out))), rcx);
  a.mov(qword_ptr(rax, disp(offsetof(TrampolineScratch, rsp_before))), rsp);
  a.mov(r11, rdi);
  a.mov(rdi, rsi);
  a.mov(rsi, rdx);
  if (avx && dirty) {
    a.mov(rax, reinterpret_cast<uint64_t>(kDirtyVector.data()));
    for (uint32_t i = 0; i < 16; ++i)
      avx512 ? a.vmovdqu64(zmm(i), zmmword_ptr(rax)) : a.vmovdqu(ymm(i), ymmword_ptr(rax));
  }
  for (size_t i = 0; i < kCalleeSaved; ++i)
    a.mov(kCalleeSavedRegs[i], kRegPatterns[i]);
  a.call(r11);

  // Nothing before pushfq may change flags or vector registers; mov changes neither.
  a.mov(rax, reinterpret_cast<uint64_t>(&g_scratch));
  a.mov(qword_ptr(rax, disp(offsetof(TrampolineScratch, rsp_after))), rsp);
  a.mov(rsp, qword_ptr(rax, disp(offsetof(TrampolineScratch, rsp_before))));
  a.pushfq();
  a.pop(rcx);
  a.mov(rdx, qword_ptr(rax, disp(offsetof(TrampolineScratch, out))));
  a.mov(qword_ptr(rdx, disp(offsetof(AbiSnapshot, rflags))), rcx);
  for (size_t i = 0; i < kCalleeSaved; ++i)
    a.mov(qword_ptr(rdx, disp(offsetof(AbiSnapshot, regs) + 8 * i)), kCalleeSavedRegs[i]);
  a.mov(r8, qword_ptr(rax, disp(offsetof(TrampolineScratch, rsp_after))));
  a.sub(r8, qword_ptr(rax, disp(offsetof(TrampolineScratch, rsp_before))));
  a.mov(qword_ptr(rdx, disp(offsetof(AbiSnapshot, rsp_delta))), r8);
  a.stmxcsr(dword_ptr(rdx, disp(offsetof(AbiSnapshot, mxcsr_after))));
  a.fnstcw(word_ptr(rdx, disp(offsetof(AbiSnapshot, x87cw_after))));
  if (avx) {
    for (uint32_t i = 0; i < 16; ++i) {
      const size_t at = offsetof(AbiSnapshot, vec_upper) + i * sizeof(AbiSnapshot::vec_upper[0]);
      a.vextractf128(xmmword_ptr(rdx, disp(at)), ymm(i), 1);
      if (avx512) a.vextracti64x4(ymmword_ptr(rdx, disp(at + 16)), zmm(i), 1);
    }
  }

  // Undo whatever a bad kernel did, so one failing check cannot poison the rest of the process.
  a.ldmxcsr(dword_ptr(rdx, disp(offsetof(AbiSnapshot, mxcsr_before))));
  a.fldcw(word_ptr(rdx, disp(offsetof(AbiSnapshot, x87cw_before))));
  a.cld();
  if (avx) a.vzeroupper();
  a.mov(rax, rcx); // returns rflags
  a.add(rsp, 8);
  for (size_t i = kCalleeSaved; i-- > 0;)
    a.pop(kCalleeSavedRegs[i]);
  a.ret();
}

bool host_has_avx() { return host_cpu().has(Feature::avx); }
bool host_has_avx512() { return host_cpu().has(Feature::avx512f); }

//! `dirty`: ymm/zmm0-15 hold nonzero upper halves before the call (a kernel that must run
//! vzeroupper); otherwise they are clean before and must still be clean after (a path that
//! stores only from general registers need not clean up after its caller).
TrampolineFn trampoline(bool dirty = true) {
  static std::unique_ptr<GeneratedCode> codes[2];
  std::unique_ptr<GeneratedCode> &code = codes[dirty];
  if (!code) {
    auto r = generate(
        [&](x86::Assembler &a) { emit_trampoline(a, host_has_avx(), host_has_avx512(), dirty); });
    if (!r) throw std::runtime_error("trampoline: " + r.error);
    code = std::move(r.value.value());
  }
  // Generated code has whatever signature we emitted; go through void* to say so.
  return reinterpret_cast<TrampolineFn>(reinterpret_cast<void *>(code->fn));
}

//! Calls `kernel` through the trampoline; returns every ABI rule it broke, one line each.
//! `uses_avx`: the kernel must leave the upper halves of ymm0-15 (and zmm0-15) zero.
std::vector<std::string> abi_violations(ClearFn kernel, void *dst, size_t n, bool uses_avx,
                                        bool dirty = true) {
  AbiSnapshot s{};
  const uint64_t rflags = trampoline(dirty)(kernel, dst, n, &s);
  std::vector<std::string> out;
  auto hex = [](uint64_t v) {
    char b[24];
    snprintf(b, sizeof b, "0x%016llx", (unsigned long long)v);
    return std::string(b);
  };
  if (rflags != s.rflags)
    out.push_back("trampoline returned rflags " + hex(rflags) + " but stored " + hex(s.rflags));
  for (size_t i = 0; i < kCalleeSaved; ++i)
    if (s.regs[i] != kRegPatterns[i])
      out.push_back(std::string(kCalleeSavedNames[i]) + " changed from " + hex(kRegPatterns[i]) +
                    " to " + hex(s.regs[i]));
  if (s.rsp_delta != 0) out.push_back("rsp moved by " + std::to_string(int64_t(s.rsp_delta)));
  if (s.rflags & kDirectionFlag) out.push_back("direction flag set (rflags " + hex(s.rflags) + ")");
  if (uint32_t(s.mxcsr_after) != uint32_t(s.mxcsr_before))
    out.push_back("MXCSR changed from " + hex(uint32_t(s.mxcsr_before)) + " to " +
                  hex(uint32_t(s.mxcsr_after)));
  if (uint16_t(s.x87cw_after) != uint16_t(s.x87cw_before))
    out.push_back("x87 control word changed from " + hex(uint16_t(s.x87cw_before)) + " to " +
                  hex(uint16_t(s.x87cw_after)));
  if (uses_avx)
    for (int i = 0; i < 16; ++i)
      for (int q = 0; q < 6; ++q)
        if (s.vec_upper[i][q]) {
          out.push_back("upper bits of ymm" + std::to_string(i) + " not zero (no vzeroupper?)");
          break;
        }
  return out;
}

uint16_t x87_control_word() {
  uint16_t cw;
  __asm__ volatile("fnstcw %0" : "=m"(cw));
  return cw;
}

std::string joined(const std::vector<std::string> &lines) {
  std::string out;
  for (const std::string &l : lines)
    out += "\n  " + l;
  return out;
}

// ---- The trampoline catches what it claims to catch ---------------------------------------------
// Each bad kernel breaks exactly one rule; a check that passed these would be worthless.

std::unique_ptr<GeneratedCode> make_kernel(const EmitFn &emit) {
  auto r = generate(emit);
  if (!r) throw std::runtime_error(r.error);
  return std::move(r.value.value());
}

bool mentions(const std::vector<std::string> &violations, const std::string &what) {
  for (const std::string &v : violations)
    if (v.find(what) != std::string::npos) return true;
  return false;
}

TEST(abi_Trampoline, AcceptsAKernelThatOnlyReturns) {
  auto k = make_kernel([](x86::Assembler &a) { a.ret(); });
  const auto v = abi_violations(k->fn, nullptr, 0, false);
  EXPECT_TRUE(v.empty()) << joined(v);
}

TEST(abi_Trampoline, DetectsEachClobberedCalleeSavedRegister) {
  for (size_t i = 0; i < kCalleeSaved; ++i) {
    auto k = make_kernel([i](x86::Assembler &a) {
      a.mov(kCalleeSavedRegs[i], 0xBAD);
      a.ret();
    });
    const auto v = abi_violations(k->fn, nullptr, 0, false);
    ASSERT_EQ(v.size(), 1u) << kCalleeSavedNames[i] << joined(v);
    EXPECT_TRUE(mentions(v, std::string(kCalleeSavedNames[i]) + " changed")) << joined(v);
  }
}

TEST(abi_Trampoline, DetectsSetDirectionFlag) {
  auto k = make_kernel([](x86::Assembler &a) {
    a.std();
    a.ret();
  });
  const auto v = abi_violations(k->fn, nullptr, 0, false);
  ASSERT_EQ(v.size(), 1u) << joined(v);
  EXPECT_TRUE(mentions(v, "direction flag")) << joined(v);
}

TEST(abi_Trampoline, DetectsUnbalancedStack) {
  // Returns by jumping to the popped return address with rsp 16 bytes too low.
  auto k = make_kernel([](x86::Assembler &a) {
    a.pop(x86::rcx);
    a.sub(x86::rsp, 16);
    a.jmp(x86::rcx);
  });
  const auto v = abi_violations(k->fn, nullptr, 0, false);
  ASSERT_EQ(v.size(), 1u) << joined(v);
  EXPECT_TRUE(mentions(v, "rsp moved by -16")) << joined(v);
}

TEST(abi_Trampoline, DetectsChangedMxcsrAndX87ControlWord) {
  // Rounding toward zero in each, written through the red zone (a leaf may use it).
  auto mxcsr = make_kernel([](x86::Assembler &a) {
    a.stmxcsr(x86::dword_ptr(x86::rsp, -8));
    a.or_(x86::dword_ptr(x86::rsp, -8), 0x6000);
    a.ldmxcsr(x86::dword_ptr(x86::rsp, -8));
    a.ret();
  });
  auto x87 = make_kernel([](x86::Assembler &a) {
    a.fnstcw(x86::word_ptr(x86::rsp, -8));
    a.or_(x86::word_ptr(x86::rsp, -8), 0x0C00);
    a.fldcw(x86::word_ptr(x86::rsp, -8));
    a.ret();
  });
  const uint32_t mxcsr_before = _mm_getcsr();
  const uint16_t x87cw_before = x87_control_word();
  auto v = abi_violations(mxcsr->fn, nullptr, 0, false);
  EXPECT_TRUE(v.size() == 1 && mentions(v, "MXCSR")) << joined(v);
  v = abi_violations(x87->fn, nullptr, 0, false);
  EXPECT_TRUE(v.size() == 1 && mentions(v, "x87 control word")) << joined(v);
  // The trampoline undid both, or every later floating-point result in this process would differ.
  EXPECT_EQ(_mm_getcsr(), mxcsr_before);
  EXPECT_EQ(x87_control_word(), x87cw_before);
}

TEST(abi_Trampoline, DetectsMissingVzeroupper) {
  if (!host_has_avx()) GTEST_SKIP() << "this CPU has no AVX, so there are no upper halves to check";
  auto without = make_kernel([](x86::Assembler &a) {
    a.vpxor(x86::xmm0, x86::xmm0, x86::xmm0); // like a kernel's zero register
    a.ret();
  });
  auto with = make_kernel([](x86::Assembler &a) {
    a.vpxor(x86::xmm0, x86::xmm0, x86::xmm0);
    a.vzeroupper();
    a.ret();
  });
  const auto v = abi_violations(without->fn, nullptr, 0, true);
  // ymm0's upper half is zeroed by the VEX vpxor; the fifteen others still hold the dirt.
  EXPECT_EQ(v.size(), 15u) << joined(v);
  EXPECT_TRUE(mentions(v, "ymm15")) << joined(v);
  const auto clean = abi_violations(with->fn, nullptr, 0, true);
  EXPECT_TRUE(clean.empty()) << joined(clean);
}

// ---- Every kernel in the representative set -----------------------------------------------------

class abi_Kernel : public ::testing::TestWithParam<std::string> {};

TEST_P(abi_Kernel, PreservesCalleeSavedStateAndCleansUpAvx) {
  auto parsed = parse_spec(GetParam());
  ASSERT_TRUE(parsed) << parsed.error;
  if (std::string why = unsupported_reason(*parsed, host_cpu()); !why.empty())
    GTEST_SKIP() << "cannot run " << GetParam() << " here: " << why;
  auto code = compile_kernel(*parsed, host_cpu());
  ASSERT_TRUE(code) << code.error;
  const ClearFn fn = (*code)->fn;
  const Feature needs = parsed->info().feature; // VEX/EVEX stores: vzeroupper is required
  const bool uses_avx =
      needs == Feature::avx || needs == Feature::avx2 || needs == Feature::avx512f;

  const auto at_null = abi_violations(fn, nullptr, 0, uses_avx);
  EXPECT_TRUE(at_null.empty()) << "n=0 dst=NULL" << joined(at_null);

  std::vector<size_t> sizes{0, 1, 7, 64, 100, 4096 + 13, (size_t(1) << 20) + 3};
  if (const size_t head = parsed->head) // temporal stores alone, and the far part then the head
    sizes.insert(sizes.end(), {head, head + 1, head + 4096 + 13});
  GuardedBuffer buf(*std::max_element(sizes.begin(), sizes.end()) + 64);
  for (size_t offset : {0, 5}) // aligned and not: the align head and tail paths differ
    for (size_t n : sizes) {
      uint8_t *dst = buf.begin() + offset;
      std::memset(dst, 0xEE, n);
      const auto v = abi_violations(fn, dst, n, uses_avx);
      EXPECT_TRUE(v.empty()) << "n=" << n << " offset=" << offset << joined(v);
      EXPECT_EQ(first_nonzero(dst, n), n)
          << "n=" << n << " offset=" << offset << ": the call through the trampoline did not clear";
    }
}

INSTANTIATE_TEST_SUITE_P(Specs, abi_Kernel, ::testing::ValuesIn(representative_specs()),
                         [](const auto &info) { return spec_test_name(info.param); });

// ---- A head spec as a dispatcher's class: its main path in the class tree ---------------------

//! Head specs whose main path in a dispatcher holds every register and vector case: 8-byte
//! stores (no vector register), SSE, AVX and AVX-512, clzero (rax zeroed again for rep stosb).
const char *const kHeadClasses[] = {"movnti:head=4K", "ntsse:align=16,head=64K", "ntavx2:head=8K",
                                    "ntavx512:head=4K", "clzero:chunk=4K,fence=chunk,head=8K"};

TEST(abi_HeadClass, PreservesCalleeSavedStateAndCleansUpAvx) {
  for (bool avx : {true, false})
    for (const char *text : kHeadClasses) {
      const CpuInfo cpu = host_like(avx);
      const std::vector<SizeClass> table = size_classes({{0, text}});
      if (!unsupported_reason(table[0].kernel, cpu).empty()) continue;
      SCOPED_TRACE(std::string(text) + (avx ? "" : " without AVX"));
      auto code = make_dispatcher(table, cpu);
      const ClearFn fn = code->fn;
      const size_t head = table[0].kernel.head;
      GuardedBuffer buf(head + 4096 + 13 + 64);
      for (size_t offset : {0, 5})
        for (size_t n : {size_t(300), head, head + 1, head + 4096 + 13}) {
          uint8_t *dst = buf.begin() + offset;
          std::memset(dst, 0xEE, n);
          // As abi_Small: a dispatcher's class runs vzeroupper only where it stored from a
          // vector register, so clean vector state before the call must be clean after it.
          const auto v = abi_violations(fn, dst, n, host_has_avx(), false);
          EXPECT_TRUE(v.empty()) << "n=" << n << " offset=" << offset << joined(v);
          EXPECT_EQ(first_nonzero(dst, n), n) << "n=" << n << " offset=" << offset;
        }
    }
}

// ---- Every small-path strategy, as a dispatcher (one stosb class above it) ---------------------

struct SmallAbiCase {
  Small strategy;
  unsigned max;
  bool avx; // false: generated for this CPU without AVX (legacy SSE encodings)
};

void PrintTo(const SmallAbiCase &c, std::ostream *os) {
  *os << info(c.strategy).name << " " << c.max << (c.avx ? "" : " without AVX");
}

std::vector<SmallAbiCase> small_abi_cases() {
  std::vector<SmallAbiCase> out;
  for (const SmallInfo &i : small_strategies())
    for (unsigned max : kSmallMaxes)
      for (bool avx : {true, false})
        out.push_back({i.strategy, max, avx});
  return out;
}

class abi_Small : public ::testing::TestWithParam<SmallAbiCase> {};

TEST_P(abi_Small, PreservesCalleeSavedStateAndCleansUpAvx) {
  const SmallAbiCase &c = GetParam();
  CpuInfo cpu = host_cpu();
  if (!c.avx)
    for (Feature f :
         {Feature::avx, Feature::avx2, Feature::avx512f, Feature::avx512bw, Feature::avx512vl})
      cpu.set(f, false);
  if (std::string why = small_unsupported_reason(c.strategy, cpu); !why.empty())
    GTEST_SKIP() << why;
  const std::vector<SizeClass> table{{0, default_spec(Method::stosb), 0}};
  auto code = generate([&](x86::Assembler &a) {
    emit_dispatcher(a, table, {c.strategy, c.max}, cpu);
  });
  ASSERT_TRUE(code) << code.error;
  const ClearFn fn = (*code)->fn;
  // Clean vector state before the call must be clean after it, whatever path n takes.
  const auto at_null = abi_violations(fn, nullptr, 0, host_has_avx(), false);
  EXPECT_TRUE(at_null.empty()) << "n=0 dst=NULL" << joined(at_null);
  GuardedBuffer buf(2 * page_size());
  for (size_t offset : {size_t(0), size_t(5), page_size() - 40}) // the last crosses a page
    for (size_t n = 0; n <= c.max + 1; n += n < 80 ? 1 : 13) {
      uint8_t *dst = buf.begin() + offset;
      std::memset(dst, 0xEE, n);
      const auto v = abi_violations(fn, dst, n, host_has_avx(), false);
      EXPECT_TRUE(v.empty()) << "n=" << n << " offset=" << offset << joined(v);
      EXPECT_EQ(first_nonzero(dst, n), n) << "n=" << n << " offset=" << offset;
    }
}

INSTANTIATE_TEST_SUITE_P(Strategies, abi_Small, ::testing::ValuesIn(small_abi_cases()),
                         [](const auto &info) {
                           return std::string(cjit::detail::info(info.param.strategy).name) + "_" +
                                  std::to_string(info.param.max) + (info.param.avx ? "" : "_noavx");
                         });

} // namespace
} // namespace cjit::detail::test
