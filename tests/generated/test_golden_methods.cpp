// Every method's generated code holds its own defining instruction, decoded by Zydis (not read
// from AsmJit's listing): a method row that fell through to another method's emitter would
// emit that method's stores and fail here. Kernels are generated for every method whatever this
// CPU has (they are decoded, never run).
#include "jit/emit/emit.hpp"

#include <Zydis/Zydis.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace cjit::detail {
namespace {

//! The instruction that makes a method what it is, with the width of what it stores.
struct Defining {
  ZydisMnemonic mnemonic;
  unsigned bits; //!< size of the stored operand (0: no memory operand, e.g. clzero)
  bool rep;      //!< carries a rep prefix
  bool in_loop;  //!< must sit in the main loop (a backward branch's range), not only anywhere
  const char *text;
};

// One entry per method, written here rather than read from the table, so that the table and
// the emitters are checked against an independent statement of what each method is.
const std::map<Method, Defining> &defining() {
  static const std::map<Method, Defining> m{
      {Method::stosb, {ZYDIS_MNEMONIC_STOSB, 0, true, false, "rep stosb"}},
      {Method::stosq, {ZYDIS_MNEMONIC_STOSQ, 0, true, false, "rep stosq"}},
      {Method::mov, {ZYDIS_MNEMONIC_MOV, 64, false, true, "mov qword ptr [m], rax"}},
      {Method::sse, {ZYDIS_MNEMONIC_MOVDQU, 128, false, true, "movdqu xmmword ptr [m], xmm0"}},
      {Method::avx2, {ZYDIS_MNEMONIC_VMOVDQU, 256, false, true, "vmovdqu ymmword ptr [m], ymm0"}},
      {Method::avx512,
       {ZYDIS_MNEMONIC_VMOVDQU64, 512, false, true, "vmovdqu64 zmmword ptr [m], zmm0"}},
      {Method::movnti, {ZYDIS_MNEMONIC_MOVNTI, 64, false, true, "movnti qword ptr [m], rax"}},
      {Method::ntsse, {ZYDIS_MNEMONIC_MOVNTDQ, 128, false, true, "movntdq xmmword ptr [m], xmm0"}},
      {Method::ntavx2,
       {ZYDIS_MNEMONIC_VMOVNTDQ, 256, false, true, "vmovntdq ymmword ptr [m], ymm0"}},
      {Method::ntavx512,
       {ZYDIS_MNEMONIC_VMOVNTDQ, 512, false, true, "vmovntdq zmmword ptr [m], zmm0"}},
      {Method::clzero, {ZYDIS_MNEMONIC_CLZERO, 0, false, true, "clzero"}},
      {Method::movdir64b,
       {ZYDIS_MNEMONIC_MOVDIR64B, 512, false, true, "movdir64b rax, zmmword ptr [rcx]"}},
      {Method::libc, {ZYDIS_MNEMONIC_JMP, 0, false, false, "jmp rax (a tail call to memset)"}},
  };
  return m;
}

struct Decoded {
  size_t offset;
  ZydisDecodedInstruction insn;
  std::vector<ZydisDecodedOperand> ops; //!< the visible operands
  std::string text;
};

std::vector<Decoded> decode(const GeneratedCode &g) {
  ZydisDecoder decoder;
  ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
  ZydisFormatter formatter;
  ZydisFormatterInit(&formatter, ZYDIS_FORMATTER_STYLE_INTEL);
  const auto *code = reinterpret_cast<const uint8_t *>(g.fn);
  std::vector<Decoded> out;
  for (size_t pos = 0; pos < g.size;) {
    Decoded d{pos, {}, {}, {}};
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, code + pos, g.size - pos, &d.insn, ops)))
      throw std::runtime_error("Zydis cannot decode offset " + std::to_string(pos));
    d.ops.assign(ops, ops + d.insn.operand_count_visible);
    char buf[256];
    ZydisFormatterFormatInstruction(&formatter, &d.insn, ops, d.insn.operand_count_visible, buf,
                                    sizeof buf, pos, nullptr);
    d.text = buf;
    pos += d.insn.length;
    out.push_back(std::move(d));
  }
  return out;
}

//! Whether `d` writes memory (a store, not a lea or a compare).
bool stores_memory(const Decoded &d) {
  for (const ZydisDecodedOperand &op : d.ops)
    if (op.type == ZYDIS_OPERAND_TYPE_MEMORY && (op.actions & ZYDIS_OPERAND_ACTION_MASK_WRITE))
      return true;
  // clzero's memory operand is implicit; movdir64b's destination is the address in a register.
  return d.insn.mnemonic == ZYDIS_MNEMONIC_CLZERO || d.insn.mnemonic == ZYDIS_MNEMONIC_MOVDIR64B;
}

bool is(const Decoded &d, const Defining &want) {
  if (d.insn.mnemonic != want.mnemonic) return false;
  if (want.rep != bool(d.insn.attributes & ZYDIS_ATTRIB_HAS_REP)) return false;
  if (want.mnemonic == ZYDIS_MNEMONIC_JMP) // jmp rax: through a register
    return d.ops.size() == 1 && d.ops[0].type == ZYDIS_OPERAND_TYPE_REGISTER;
  if (want.bits == 0) return true;
  for (const ZydisDecodedOperand &op : d.ops)
    if (op.type == ZYDIS_OPERAND_TYPE_MEMORY && op.size == want.bits) return true;
  return false;
}

//! Instructions [target, branch] of every backward conditional branch: the store loops.
std::vector<std::vector<const Decoded *>> loops(const std::vector<Decoded> &code) {
  std::vector<std::vector<const Decoded *>> out;
  for (const Decoded &d : code) {
    if (d.insn.meta.category != ZYDIS_CATEGORY_COND_BR) continue;
    ZyanU64 target = 0;
    if (!ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&d.insn, &d.ops[0], d.offset, &target)) ||
        target >= d.offset)
      continue;
    std::vector<const Decoded *> body;
    for (const Decoded &e : code)
      if (e.offset >= target && e.offset <= d.offset) body.push_back(&e);
    out.push_back(std::move(body));
  }
  return out;
}

std::string listing(const std::vector<Decoded> &code) {
  std::string out;
  for (const Decoded &d : code)
    out += "  " + std::to_string(d.offset) + ": " + d.text + "\n";
  return out;
}

std::unique_ptr<GeneratedCode> kernel(const Spec &s) {
  auto g = generate([&](asmjit::x86::Assembler &a) { emit_kernel(a, s); }, "method_test");
  if (!g) throw std::runtime_error(g.error);
  return std::move(*g.value);
}

TEST(golden_MethodInstruction, EveryMethodHasAnEntry) {
  for (const MethodInfo &mi : methods())
    EXPECT_TRUE(defining().count(mi.method))
        << mi.name << ": add its defining instruction to defining() in " << __FILE__;
}

class golden_EachMethod : public ::testing::TestWithParam<Method> {};

// The main loop of a loop method stores only with the method's instruction, and holds it; a
// string method or libc holds its instruction outside any loop.
TEST_P(golden_EachMethod, MainPathHasTheDefiningInstruction) {
  const Spec s = default_spec(GetParam());
  ASSERT_TRUE(defining().count(s.method));
  const Defining &want = defining().at(s.method);
  const auto code = decode(*kernel(s));
  const std::string where = format_spec(s) + " wants " + want.text + " in:\n" + listing(code);
  const auto main_loops = loops(code);
  if (!want.in_loop) {
    EXPECT_TRUE(main_loops.empty()) << where;
    EXPECT_TRUE(std::any_of(code.begin(), code.end(), [&](auto &d) { return is(d, want); }))
        << where;
    return;
  }
  ASSERT_FALSE(main_loops.empty()) << "no loop: " << where;
  for (const auto &loop : main_loops) {
    bool found = false;
    for (const Decoded *d : loop) {
      if (!stores_memory(*d)) continue;
      EXPECT_TRUE(is(*d, want)) << "loop store " << d->text << ": " << where;
      found = found || is(*d, want);
    }
    EXPECT_TRUE(found) << where;
  }
}

// Options that change the code's shape keep the method's instruction: unrolled, chunked.
TEST_P(golden_EachMethod, OptionsKeepTheDefiningInstruction) {
  const MethodInfo &mi = info(GetParam());
  for (const char *opts : {"unroll=4", "chunk=4K"}) {
    auto s = parse_spec(std::string(mi.name) + ":" + opts);
    if (!s) continue; // an option this method does not take
    const Defining &want = defining().at(mi.method);
    const auto code = decode(*kernel(*s));
    EXPECT_TRUE(std::any_of(code.begin(), code.end(), [&](auto &d) { return is(d, want); }))
        << format_spec(*s) << " wants " << want.text << " in:\n"
        << listing(code);
  }
}

// With head=SIZE the code falls through from the method's main path over the far part to the
// head method's over the head: after the method's last store instruction come its end fence and
// then the head method's stores (its store loop, or its rep instruction), which end the code.
TEST(golden_MethodHotHead, TheHeadMethodStoresLastAfterTheFence) {
  for (const MethodInfo &mi : methods()) {
    if (!mi.takes(kHead)) continue;
    Spec s = default_spec(mi.method);
    s.head = 8192;
    const Defining &far = defining().at(mi.method), &hot = defining().at(mi.head_method);
    const auto code = decode(*kernel(s));
    const std::string where = format_spec(s) + " wants " + far.text + ", sfence, then " + hot.text +
                              " in:\n" + listing(code);
    size_t last_far = 0, fence = 0, hot_at = 0;
    for (const Decoded &d : code) {
      if (is(d, far)) last_far = d.offset;
      if (d.insn.mnemonic == ZYDIS_MNEMONIC_SFENCE) fence = d.offset;
    }
    if (hot.in_loop) {
      const auto all = loops(code);
      ASSERT_FALSE(all.empty()) << where;
      for (const Decoded *d : all.back())
        if (stores_memory(*d)) {
          EXPECT_TRUE(is(*d, hot)) << d->text << ": " << where;
          hot_at = d->offset;
        }
    } else {
      for (const Decoded &d : code)
        if (is(d, hot)) hot_at = d.offset;
    }
    EXPECT_GT(last_far, 0u) << where;
    EXPECT_GT(fence, last_far) << where;
    EXPECT_GT(hot_at, fence) << where;
  }
}

std::vector<Method> all_methods() {
  std::vector<Method> out;
  for (const MethodInfo &mi : methods())
    out.push_back(mi.method);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Methods, golden_EachMethod, ::testing::ValuesIn(all_methods()),
                         [](const auto &info) {
                           return std::string(cjit::detail::info(info.param).name);
                         });

} // namespace
} // namespace cjit::detail
