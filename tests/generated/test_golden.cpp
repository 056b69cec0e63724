// Golden listings, one file per building block, and an independent check of every kernel's
// encoding: Zydis decodes the emitted bytes and must agree with AsmJit's listing.
//
// tests/golden/ holds AsmJit's listing (text and bytes per instruction) of each block once, so a
// change to one block rewrites one file; CLEARJIT_UPDATE_GOLDEN=1 writes them. The blocks are
// enumerated from the method table (every method at its defaults, libc aside) and the option
// variants below, from the small-path table, and from the golden profiles, so a new method or
// strategy gets its files by running with CLEARJIT_UPDATE_GOLDEN=1. A file's name says what its
// block depends on, and kernels that share a block share its file. A part a listing leaves out
// is a comment line ("; the main path") where it would be; put together there, the blocks are
// the kernel (golden_BlockFiles.KernelIsItsBlocks). <isa> is gp (general registers),
// sse (xmm0, legacy encodings) or avx (VEX); <unit> the widest head or tail store.
//   frame/<isa>.asm               a kernel's end pointer and zero registers, then its short
//                                 tree and main path (left out), then its exit
//   short_tree/<2S>.asm           the size check and the short tree's branches for n up
//                                 to 2S, its leaves left out
//   short_leaf/<size>_<width>_<isa>.asm  one leaf of the short tree: n in [size, 2*size] by head
//                                 and tail stores <width> bytes wide
//   hot_head/<head>_far<F>_<method>[_rax].asm  the hot head's split (head=SIZE): n <= head on to
//                                 the hot part; else the far part's bounds (at least F bytes), its
//                                 main path (left out), the hot part's bounds ([dst, dst+head),
//                                 _rax: rax zeroed again), then <method>'s main path (left out)
//   prologue/align<A>_<unit>_<isa>.asm  the alignment prologue's stores, cursor to the boundary
//   chunks/4K[_fence].asm         the chunk loop, its body left out (any size: only the
//                                 immediate differs); chunks/whole.asm: no chunks
//   body/<method>[_unroll_<u>].asm  the method's stores over one chunk: rep stos or store loops
//   tail/<width>_<unit>_<isa>[_sfence].asm  the last store over what the body left, end fence
//   tree/<profile>_<intent>.asm   a dispatcher's class tree for tests/profiles/runtime/<profile>,
//                                 each class's main path a "; main path of <spec>" comment
//   small/<strategy>_256_<cpus>.asm  a dispatcher's small path alone, on the synthetic CPUs
//                                 (sse, avx, avx512) on which it is that listing
// Every block, every kernel the tuner may
// consider, every small path and every golden dispatcher is cross-checked against Zydis.
#include "jit/emit/emit.hpp"
#include "jit/model/small.hpp"
#include "jit/profile/profile.hpp"
#include "tests/support/support.hpp"
#include "tuner/stages/candidates.hpp"

#include <Zydis/Zydis.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace cjit::detail {

// Parameterised tests name a Spec by its canonical text rather than its bytes.
void PrintTo(const Spec &s, std::ostream *os) { *os << format_spec(s); }

namespace {

namespace fs = std::filesystem;
using test::alignment_of;
using test::check_golden;
using test::code_bytes;
using test::first_difference;
using test::golden_dir;
using test::split_lines;

// ---------------------------------------------------------------------------------------------
// Helpers

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

// "movnti:chunk=4K,fence=chunk" -> "movnti_chunk_4K_fence_chunk": a file name and a gtest name.
std::string file_stem(std::string_view spec) {
  std::string out(spec);
  for (char &c : out)
    if (c == ':' || c == ',' || c == '=') c = '_';
  return out;
}

// Code that is decoded here, never run: generated whatever this CPU has.
std::unique_ptr<GeneratedCode> generated(const EmitFn &emit, const std::string &name) {
  auto code = generate(emit, name);
  if (!code) throw std::runtime_error(code.error);
  return std::move(*code.value);
}

std::unique_ptr<GeneratedCode> compile_or_throw(std::string_view text) {
  auto spec = parse_spec(text);
  if (!spec) throw std::runtime_error(spec.error);
  auto code = compile_kernel(*spec, host_cpu());
  if (!code) throw std::runtime_error(code.error);
  return std::move(*code.value);
}

// ---------------------------------------------------------------------------------------------
// The golden files' checker

TEST(golden_Diff, ReportsFirstDifferingLine) {
  EXPECT_EQ(first_difference("a\nb\n", "a\nb\n"), "");
  EXPECT_EQ(first_difference("a\nb\nc\n", "a\nx\nc\n"),
            "first difference at line 2 (expected 3 lines, got 3)\n"
            "  expected: b\n"
            "  actual:   x\n");
  EXPECT_EQ(first_difference("a\n", "a\nextra\n"),
            "first difference at line 2 (expected 1 lines, got 2)\n"
            "  expected: <end of file>\n"
            "  actual:   extra\n");
}

// ---------------------------------------------------------------------------------------------
// Zydis cross-check

// Texts are compared after normalisation, because the two disassemblers print the same
// instruction differently in ways that carry no meaning:
//  - case and spacing: lowercase, whitespace collapsed, none around , [ ] + - *;
//  - branch size: AsmJit writes "short jne" for rel8 jumps, Zydis prints no size;
//  - condition-code aliases: "ja"/"jnbe", "je"/"jz", "jb"/"jc"/"jnae", "cmova"/"cmovnbe"...
//    are one encoding, so each is mapped to one spelling;
//  - numbers: AsmJit prints decimal, Zydis hex ("0x20"); both become signed 64-bit decimal
//    (Zydis is told to print immediates signed, as AsmJit does: "and r9, -128");
//  - branch targets: AsmJit prints labels ("L3"), Zydis absolute addresses; with Zydis'
//    runtime address 0 the address is the code offset, so labels are replaced by the offset
//    at which the listing binds them, which also checks every patched displacement;
//  - implicit operands: AsmJit writes "rep stos qword ptr [rdi], rax" where Zydis writes
//    "rep stosq", and Zydis writes "clzero rax" where AsmJit writes "clzero"; both become
//    the bare mnemonic ("rep stosq", "clzero"), the width kept in the stos suffix;
//  - movdir64b: AsmJit writes "movdir64b [rax], [rcx]", Zydis "movdir64b rax, zmmword ptr
//    [rcx]"; both become "movdir64b rax, [rcx]";
//  - memory size and scale: Zydis is told to always print "qword ptr" (as AsmJit does) and
//    to omit "*1" (as AsmJit does), so those need no text rewriting.
const std::map<std::string, std::string> &condition_aliases() {
  static const std::map<std::string, std::string> m{
      {"o", "o"},   {"no", "no"}, {"b", "b"},   {"c", "b"},   {"nae", "b"}, {"ae", "ae"},
      {"nb", "ae"}, {"nc", "ae"}, {"e", "e"},   {"z", "e"},   {"ne", "ne"}, {"nz", "ne"},
      {"be", "be"}, {"na", "be"}, {"a", "a"},   {"nbe", "a"}, {"s", "s"},   {"ns", "ns"},
      {"p", "p"},   {"pe", "p"},  {"np", "np"}, {"po", "np"}, {"l", "l"},   {"nge", "l"},
      {"ge", "ge"}, {"nl", "ge"}, {"le", "le"}, {"ng", "le"}, {"g", "g"},   {"nle", "g"}};
  return m;
}

std::string canonical_mnemonic(const std::string &m) {
  for (std::string_view prefix : {"cmov", "set", "j"}) {
    if (m.size() > prefix.size() && m.compare(0, prefix.size(), prefix) == 0) {
      auto it = condition_aliases().find(m.substr(prefix.size()));
      if (it != condition_aliases().end()) return std::string(prefix) + it->second;
    }
  }
  return m;
}

//! Number token (decimal or 0x-hex) as signed 64-bit decimal text; nullopt when not a number.
std::optional<std::string> decimal(std::string_view tok) {
  uint64_t v = 0;
  const bool hex = tok.size() > 2 && tok[0] == '0' && tok[1] == 'x';
  std::string_view digits = hex ? tok.substr(2) : tok;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, hex ? 16 : 10);
  if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size())
    return std::nullopt;
  return std::to_string(int64_t(v));
}

struct Normalised {
  std::string mnemonic; //!< with its prefixes, e.g. "rep stosq"
  std::string operands;
  bool operator==(const Normalised &) const = default;
  std::string str() const { return operands.empty() ? mnemonic : mnemonic + " " + operands; }
};

Normalised normalise(std::string_view text, const std::map<std::string, uint64_t> &labels) {
  std::string s;
  for (char c : text)
    s += char(std::tolower(static_cast<unsigned char>(c)));

  // Tokens: words (mnemonics, registers, numbers, labels) and single punctuation characters.
  std::vector<std::string> toks;
  for (size_t i = 0; i < s.size();) {
    if (std::isspace(static_cast<unsigned char>(s[i]))) {
      ++i;
    } else if (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_') {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_'))
        ++j;
      toks.push_back(s.substr(i, j - i));
      i = j;
    } else {
      toks.push_back(s.substr(i, 1));
      ++i;
    }
  }
  if (!toks.empty() && (toks[0] == "short" || toks[0] == "near")) toks.erase(toks.begin());
  if (toks.empty()) return {};

  Normalised out;
  // Prefixes such as "rep" belong to the mnemonic.
  size_t i = 0;
  for (; i + 1 < toks.size() && (toks[i] == "rep" || toks[i] == "lock"); ++i)
    out.mnemonic += toks[i] + " ";
  std::string m = canonical_mnemonic(toks[i++]);
  if (m.starts_with("stos")) {
    // Implicit operands ([rdi], al..rax) that AsmJit prints: keep only the width.
    static const std::map<std::string, char> suffix{
        {"byte", 'b'}, {"word", 'w'}, {"dword", 'd'}, {"qword", 'q'}};
    if (m == "stos" && i < toks.size() && suffix.count(toks[i])) m += suffix.at(toks[i]);
    i = toks.size();
  } else if (m == "clzero") {
    i = toks.size(); // its implicit rax, which Zydis prints and AsmJit does not
  } else if (m == "movdir64b") {
    // The destination address: AsmJit prints it as memory ("[rax]"), Zydis as the register;
    // the source's size, which Zydis prints ("zmmword ptr"), is fixed.
    std::vector<std::string> rest;
    for (size_t k = i; k < toks.size(); ++k)
      if (toks[k] == "zmmword" && k + 1 < toks.size() && toks[k + 1] == "ptr")
        ++k;
      else
        rest.push_back(toks[k]);
    if (rest.size() >= 3 && rest[0] == "[" && rest[2] == "]")
      rest.erase(rest.begin() + 2), rest.erase(rest.begin());
    toks.resize(i);
    toks.insert(toks.end(), rest.begin(), rest.end());
  }
  out.mnemonic += m;

  for (; i < toks.size(); ++i) {
    std::string t = toks[i];
    if (auto it = labels.find(t); it != labels.end())
      t = std::to_string(it->second);
    else if (auto d = decimal(t))
      t = *d;
    const bool punct = t.size() == 1 && std::strchr(",[]+-*:", t[0]);
    const bool prev_punct = !out.operands.empty() && std::strchr(",[]+-*:", out.operands.back());
    if (!out.operands.empty() && !punct && !prev_punct) out.operands += ' ';
    out.operands += t;
  }
  return out;
}

std::string hex_bytes(std::span<const uint8_t> bytes) {
  static const char digits[] = "0123456789ABCDEF";
  std::string out;
  for (uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

//! Two columns, for reports.
std::string side_by_side(std::string_view left, std::string_view right) {
  std::string l(left);
  if (l.size() < 56) l.resize(56, ' ');
  return "  asmjit: " + l + " | zydis: " + std::string(right) + "\n";
}

struct ListingEntry {
  size_t line = 0;   //!< 1-based line in the listing
  std::string label; //!< set for "L3:" lines, which carry no bytes
  std::string text;  //!< instruction as AsmJit printed it
  std::string hex;   //!< its bytes; '.' is a nibble AsmJit had not resolved when logging
  size_t align = 0;  //!< set for "align N" lines: NOPs up to the next N-byte boundary follow
};

bool is_label(std::string_view line) {
  if (line.size() < 3 || line.front() != 'L' || line.back() != ':') return false;
  return std::all_of(line.begin() + 1, line.end() - 1,
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

//! Labels and instructions of an AsmJit listing ("text   ; HEX" or "Ln:"); on a line that is
//! neither, nullopt and `error` says which.
std::optional<std::vector<ListingEntry>> parse_listing(std::string_view listing,
                                                       std::string &error) {
  std::vector<ListingEntry> entries;
  size_t line_no = 0;
  for (const std::string &raw : split_lines(listing)) {
    ++line_no;
    const std::string line = trim(raw);
    if (line.empty()) continue;
    if (is_label(line)) {
      entries.push_back({line_no, line.substr(0, line.size() - 1), {}, {}});
      continue;
    }
    if (size_t n = alignment_of(line)) {
      entries.push_back({line_no, {}, {}, {}, n});
      continue;
    }
    const size_t semi = line.rfind(';');
    const std::string text = semi == std::string::npos ? "" : trim(line.substr(0, semi));
    const std::string hex = semi == std::string::npos ? "" : trim(line.substr(semi + 1));
    const bool hex_ok = !hex.empty() && hex.size() % 2 == 0 &&
                        hex.find_first_not_of("0123456789ABCDEF.") == std::string::npos;
    if (text.empty() || !hex_ok) {
      error = "listing line " + std::to_string(line_no) +
              " is neither a label nor an instruction with its bytes: '" + raw + "'\n";
      return std::nullopt;
    }
    entries.push_back({line_no, {}, text, hex});
  }
  return entries;
}

//! "" when every listed instruction matches what Zydis decodes from `code`, in order and
//! covering it exactly; otherwise a report of the first disagreement.
std::string cross_check(std::span<const uint8_t> code, std::string_view listing) {
  std::string error;
  const auto entries = parse_listing(listing, error);
  if (!entries) return error;
  // Where each label is bound, as normalise() sees label names (lowercase).
  std::map<std::string, uint64_t> labels;
  uint64_t offset = 0;
  for (const ListingEntry &e : *entries) {
    if (e.align) {
      offset = (offset + e.align - 1) / e.align * e.align;
      continue;
    }
    if (e.label.empty()) {
      offset += e.hex.size() / 2;
      continue;
    }
    std::string name = e.label;
    for (char &c : name)
      c = char(std::tolower(static_cast<unsigned char>(c)));
    labels[name] = offset;
  }

  ZydisDecoder decoder;
  ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
  ZydisFormatter formatter;
  ZydisFormatterInit(&formatter, ZYDIS_FORMATTER_STYLE_INTEL);
  ZydisFormatterSetProperty(&formatter, ZYDIS_FORMATTER_PROP_IMM_SIGNEDNESS,
                            ZYDIS_SIGNEDNESS_SIGNED);
  // AsmJit always names the memory operand's size ("qword ptr"); Zydis only when ambiguous.
  ZydisFormatterSetProperty(&formatter, ZYDIS_FORMATTER_PROP_FORCE_SIZE, ZYAN_TRUE);
  // AsmJit omits a scale of 1 ("[rdi+rsi]"); Zydis 4.0 prints "*1" unless told not to.
  ZydisFormatterSetProperty(&formatter, ZYDIS_FORMATTER_PROP_FORCE_SCALE_ONE, ZYAN_FALSE);

  size_t pos = 0;
  for (const ListingEntry &e : *entries) {
    if (!e.label.empty()) continue;
    const std::string where =
        "at offset " + std::to_string(pos) + " (listing line " + std::to_string(e.line) + "): ";
    if (e.align) { // the padding: NOPs only, ending exactly at the boundary
      const size_t end = (pos + e.align - 1) / e.align * e.align;
      while (pos < end) {
        ZydisDecodedInstruction insn;
        if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&decoder, nullptr, code.data() + pos,
                                                        code.size() - pos, &insn)) ||
            insn.mnemonic != ZYDIS_MNEMONIC_NOP)
          return where + "padding of 'align " + std::to_string(e.align) +
                 "' is not NOPs: " + hex_bytes(code.subspan(pos, std::min<size_t>(15, end - pos)));
        pos += insn.length;
      }
      if (pos != end) return where + "a NOP runs past the alignment boundary";
      continue;
    }
    const std::string listed = e.text + " ; " + e.hex;
    if (pos >= code.size())
      return where + "the listing goes on past the end of the code (" +
             std::to_string(code.size()) + " bytes)\n" + side_by_side(listed, "<end of code>");

    ZydisDecodedInstruction insn;
    ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
    const size_t left = code.size() - pos;
    if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, code.data() + pos, left, &insn, ops)))
      return where + "Zydis cannot decode the bytes\n" +
             side_by_side(listed, hex_bytes(code.subspan(pos, std::min<size_t>(15, left))));
    char buf[256];
    ZydisFormatterFormatInstruction(&formatter, &insn, ops, insn.operand_count_visible, buf,
                                    sizeof buf, /*runtime_address=*/pos, nullptr);
    const std::string decoded_bytes = hex_bytes(code.subspan(pos, insn.length));
    const std::string decoded = std::string(buf) + " ; " + decoded_bytes;

    bool bytes_ok = e.hex.size() == decoded_bytes.size();
    for (size_t i = 0; bytes_ok && i < e.hex.size(); ++i)
      bytes_ok = e.hex[i] == '.' || e.hex[i] == decoded_bytes[i];
    if (!bytes_ok) return where + "bytes differ\n" + side_by_side(listed, decoded);

    const Normalised a = normalise(e.text, labels), z = normalise(buf, {});
    if (a.mnemonic != z.mnemonic)
      return where + "mnemonics differ\n" + side_by_side(listed, decoded) +
             side_by_side(a.str(), z.str());
    if (a != z)
      return where + "operands differ\n" + side_by_side(listed, decoded) +
             side_by_side(a.str(), z.str());
    pos += insn.length;
  }
  if (pos != code.size())
    return "the listing covers " + std::to_string(pos) + " bytes but the code has " +
           std::to_string(code.size()) + "; next undescribed bytes: " +
           hex_bytes(code.subspan(pos, std::min<size_t>(15, code.size() - pos))) + "\n";
  return {};
}

std::string spec_name(const ::testing::TestParamInfo<Spec> &info) {
  return file_stem(format_spec(info.param));
}

class golden_ZydisCrossCheck : public ::testing::TestWithParam<Spec> {};

TEST_P(golden_ZydisCrossCheck, ListingMatchesDecodedBytes) {
  const Spec &spec = GetParam(); // any method: decoded, never run
  auto code = generated([&](asmjit::x86::Assembler &a) { emit_kernel(a, spec); }, "kernel");
  const GeneratedCode &g = *code;
  ASSERT_GT(g.size, 0u);
  std::string report = cross_check(code_bytes(g), g.listing);
  EXPECT_TRUE(report.empty()) << format_spec(spec) << "\n" << report;
}

INSTANTIATE_TEST_SUITE_P(Exhaustive, golden_ZydisCrossCheck,
                         ::testing::ValuesIn(candidates(Level::exhaustive)), spec_name);

//! Every exhaustive candidate of a method that takes head=SIZE, with a head of two pages; and
//! its defaults with the largest head (the immediates at their widest).
std::vector<Spec> head_candidates() {
  std::vector<Spec> out;
  for (Spec s : candidates(Level::exhaustive)) {
    if (!s.info().takes(kHead) || s.head) continue; // a candidate's own head: in Exhaustive
    if (s == default_spec(s.method)) {
      s.head = kMaxHead;
      out.push_back(s);
    }
    s.head = 2 * kHeadUnit;
    out.push_back(s);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Head, golden_ZydisCrossCheck, ::testing::ValuesIn(head_candidates()),
                         spec_name);

// ---------------------------------------------------------------------------------------------
// Golden listings per block (the layout is described at the top of this file)

//! "gp", "sse" or "avx": the encodings a kernel's blocks use (emit.cpp: VEX for AVX methods,
//! xmm0 only where heads, tails or main stores are 16 bytes or wider).
std::string isa(const MethodInfo &mi) {
  if (mi.feature == Feature::avx2 || mi.feature == Feature::avx512f) return "avx";
  return std::max(mi.width, mi.tail_width) >= 16 ? "sse" : "gp";
}

// Options that change a block's code, on top of every method at its defaults.
const char *const kOptionSpecs[] = {
    "avx2:unroll=4",   "stosb:chunk=2M",    "movnti:chunk=4K,fence=chunk", "sse:align=64",
    "clzero:unroll=4", "ntavx512:unroll=2", "stosq:chunk=4K,align=16",     "mov:unroll=1,fence=end",
    "ntavx2:head=8K",
};

//! The kernels whose blocks have golden files. libc is left out: its listing embeds the
//! address of memset, which ASLR moves (golden_LibcListing.Shape covers it).
std::vector<Spec> block_specs() {
  std::vector<Spec> out;
  for (const MethodInfo &mi : methods())
    if (mi.store != Store::memset) out.push_back(default_spec(mi.method));
  for (const char *text : kOptionSpecs)
    out.push_back(*parse_spec(text));
  return out;
}

struct BlockCase {
  Block block;
  Spec spec;         //!< the first kernel in block_specs() with this block
  unsigned size = 0; //!< Block::short_leaf's
  std::string file;  //!< "" when the block emits nothing for `spec`
};
void PrintTo(const BlockCase &c, std::ostream *os) { *os << c.file; }

//! The blocks of kernel `s`, each with its golden file, named by what the block depends on.
std::vector<BlockCase> blocks_of(const Spec &s) {
  const MethodInfo &mi = s.info();
  const std::string unit_isa = std::to_string(mi.tail_width) + "_" + isa(mi);
  const unsigned limit = std::max({mi.tail_width, s.align, mi.width}); // S, as emit_kernel's
  std::vector<BlockCase> out;
  auto add = [&](Block b, std::string file, unsigned size = 0) {
    out.push_back({b, s, size, file.empty() ? file : file + ".asm"});
  };
  add(Block::frame, "frame/" + isa(mi));
  add(Block::short_tree, "short_tree/" + std::to_string(2 * limit));
  // Stores up to 8 bytes are general-register moves whatever the method's encodings.
  for (unsigned size = 1; size <= limit; size *= 2) {
    const unsigned w = std::min(size, mi.tail_width);
    add(Block::short_leaf,
        "short_leaf/" + std::to_string(size) + "_" + std::to_string(w) + "_" +
            (w < 16 ? "gp" : isa(mi)),
        size);
  }
  const bool rax = mi.store == Store::clzero || mi.store == Store::movdir64b; // its address
  add(Block::hot_head, s.head ? "hot_head/" + format_size(s.head) + "_far" +
                                    std::to_string(2 * limit + 1) + "_" +
                                    std::string(info(mi.head_method).name) + (rax ? "_rax" : "")
                              : "");
  add(Block::prologue, s.align ? "prologue/align" + std::to_string(s.align) + "_" + unit_isa : "");
  // Every chunk size is listed at 4K: the size is only the immediate of the loop's first mov.
  add(Block::chunks, s.chunk ? std::string("chunks/4K") + (s.fence == Fence::chunk ? "_fence" : "")
                             : "chunks/whole");
  if (s.chunk) out.back().spec.chunk = 4096;
  Spec loop = default_spec(s.method);
  loop.unroll = s.unroll;
  add(Block::body, "body/" + file_stem(format_spec(loop)));
  const bool no_tail = mi.width == 1 && s.fence == Fence::none; // rep stosb leaves none
  add(Block::tail, no_tail ? ""
                           : "tail/" + std::to_string(mi.width) + "_" + unit_isa +
                                 (s.fence != Fence::none ? "_sfence" : ""));
  return out;
}

//! One case per golden block file.
std::vector<BlockCase> block_cases() {
  std::vector<BlockCase> out;
  std::set<std::string> seen;
  for (const Spec &s : block_specs())
    for (const BlockCase &c : blocks_of(s))
      if (!c.file.empty() && seen.insert(c.file).second) out.push_back(c);
  return out;
}

std::unique_ptr<GeneratedCode> block_code(const BlockCase &c) {
  return generated([&](asmjit::x86::Assembler &a) { emit_block(a, c.block, c.spec, c.size); },
                   "block_" + file_stem(format_spec(c.spec)));
}

//! The listing without its comment lines, which stand for parts left out and carry no bytes.
std::string without_comments(std::string_view listing) {
  std::string out;
  for (const std::string &line : split_lines(listing))
    if (!line.starts_with(";")) out += line + "\n";
  return out;
}

class golden_Block : public ::testing::TestWithParam<BlockCase> {};

TEST_P(golden_Block, MatchesFileAndZydis) {
  const BlockCase &c = GetParam();
  auto code = block_code(c);
  std::string report = cross_check(code_bytes(*code), without_comments(code->listing));
  EXPECT_TRUE(report.empty()) << c.file << "\n" << report;
  report = check_golden(golden_dir() / c.file, code->listing);
  EXPECT_TRUE(report.empty()) << format_spec(c.spec) << " " << report;
}

INSTANTIATE_TEST_SUITE_P(Blocks, golden_Block, ::testing::ValuesIn(block_cases()),
                         [](const auto &info) {
                           std::string name = info.param.file;
                           name.resize(name.size() - 4); // ".asm"
                           for (char &ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

//! What `emit` writes, as generate() lists it, without mapping it (a block may be empty).
std::string listing_of(const std::function<void(asmjit::x86::Assembler &)> &emit) {
  asmjit::CodeHolder code;
  code.init(asmjit::Environment::host());
  asmjit::StringLogger logger;
  logger.addFlags(asmjit::FormatFlags::kMachineCode);
  code.setLogger(&logger);
  asmjit::x86::Assembler a(&code);
  emit(a);
  return logger.data();
}

// A file's name must say everything its block depends on: every kernel that shares the file
// emits the same listing (else which one wrote the file would decide the test).
TEST(golden_BlockFiles, KernelsSharingAFileShareItsListing) {
  std::map<std::string, std::pair<std::string, std::string>> first; // file -> spec, listing
  for (const Spec &s : block_specs())
    for (const BlockCase &c : blocks_of(s)) {
      if (c.file.empty()) { // then the block emits nothing, which generate() refuses to map
        EXPECT_EQ(listing_of([&](asmjit::x86::Assembler &a) { emit_block(a, c.block, s, c.size); }),
                  "")
            << format_spec(s) << ": a block without a file";
        continue;
      }
      const std::string listing = block_code(c)->listing;
      auto [it, inserted] = first.try_emplace(c.file, format_spec(s), listing);
      if (!inserted) {
        EXPECT_EQ(first_difference(it->second.second, listing), "")
            << c.file << " is " << it->second.first << "'s and " << format_spec(s) << "'s";
      }
    }
}

//! A listing's lines as the comparison of a kernel with its blocks sees them: no labels (each
//! listing numbers its own), and a jump as its mnemonic alone (its target is a label, and its
//! distance changes with the parts a block leaves out).
std::vector<std::string> comparable(const std::vector<std::string> &lines) {
  std::vector<std::string> out;
  for (std::string line : lines) {
    line = trim(line);
    if (line.empty() || is_label(line)) continue;
    if (line.starts_with("short ")) line.erase(0, 6);
    if (line.starts_with("j")) line = line.substr(0, line.find(' '));
    out.push_back(line);
  }
  return out;
}

// The golden blocks are the kernel: each kernel's listing is its blocks' listings, each put where
// the comment of the block that leaves it out stands. So the files, read together, show every
// kernel, and emit_kernel cannot put its blocks together otherwise unseen.
// With head=SIZE the main path is the hot block, in which the far part is the kernel's own
// blocks and the hot part the head method's, at its defaults.
TEST(golden_BlockFiles, KernelIsItsBlocks) {
  for (const Spec &s : block_specs()) {
    auto block = [&](Block b, const Spec &k, unsigned size = 0) {
      return listing_of([&](asmjit::x86::Assembler &a) { emit_block(a, b, k, size); });
    };
    auto extent = [&](const Spec &k) {
      return block(Block::prologue, k) + block(Block::chunks, k) + block(Block::tail, k);
    };
    const Spec hot = default_spec(s.info().head_method);
    std::vector<std::string> composed;
    // `k`: the kernel whose blocks the listing's comments stand for.
    auto put = [&](auto &&self, const std::string &listing, const Spec &k) -> void {
      for (const std::string &line : split_lines(listing)) {
        if (line.starts_with("; the short tree")) {
          self(self, block(Block::short_tree, k), k);
        } else if (line.starts_with("; n in [")) { // a short leaf: "; n in [8, 16]: ..."
          self(self, block(Block::short_leaf, k, unsigned(std::stoul(line.substr(8)))), k);
        } else if (line.starts_with("; the main path")) {
          self(self, k.head ? block(Block::hot_head, k) : extent(k), k);
        } else if (line.starts_with("; the far part")) {
          self(self, extent(k), k);
        } else if (line.starts_with("; the hot part")) {
          self(self, extent(hot), hot);
        } else if (line.starts_with("; the body")) {
          self(self, block(Block::body, k), k);
        } else {
          composed.push_back(line);
        }
      }
    };
    put(put, block(Block::frame, s), s);
    const std::string kernel = listing_of([&](asmjit::x86::Assembler &a) { emit_kernel(a, s); });
    const auto want = comparable(split_lines(kernel)), got = comparable(composed);
    EXPECT_EQ(got, want) << format_spec(s) << "\nkernel:\n" << kernel;
  }
}

// ---------------------------------------------------------------------------------------------
// Dispatchers: the class tree of tests/profiles/runtime/golden_*.toml (test_runtime's golden
// profiles) with each class's main path a comment, and the whole dispatcher against Zydis.

struct TreeCase {
  const char *profile; // tests/profiles/runtime/<profile>.toml
  Intent intent;
  bool avx;
  std::string stem() const { return std::string(profile) + "_" + std::string(intent_name(intent)); }
  // Loaded for a synthetic CPU so the listing is the same on every machine; without AVX the
  // minimal CPU makes the loader refuse any AVX kernel.
  CpuInfo cpu() const { return avx ? test::full_cpu() : test::minimal_cpu(); }
  std::vector<SizeClass> table() const {
    const fs::path file = fs::path(CLEARJIT_SOURCE_DIR) / "tests" / "profiles" / "runtime" /
                          (std::string(profile) + ".toml");
    auto p = load_profile(file.string(), cpu());
    if (!p) throw std::runtime_error(p.error);
    return p->table(intent);
  }
};
void PrintTo(const TreeCase &c, std::ostream *os) { *os << c.stem(); }

const TreeCase kTreeCases[] = {
    {"golden_avx", Intent::reuse, true},
    {"golden_avx", Intent::stream, true},
    {"golden_sse", Intent::reuse, false},
};

class golden_Tree : public ::testing::TestWithParam<TreeCase> {};

TEST_P(golden_Tree, MatchesFileAndZydis) {
  const TreeCase &c = GetParam();
  auto code = generated(
      [&](asmjit::x86::Assembler &a) {
        emit_class_tree(a, c.table(), SmallPath{}.max, c.cpu(), Leaf::stub);
      },
      "tree_" + c.stem());
  std::string report = cross_check(code_bytes(*code), without_comments(code->listing));
  EXPECT_TRUE(report.empty()) << c.stem() << "\n" << report;
  report = check_golden(golden_dir() / "tree" / (c.stem() + ".asm"), code->listing);
  EXPECT_TRUE(report.empty()) << c.stem() << " " << report;
}

TEST_P(golden_Tree, WholeDispatcherMatchesZydis) {
  const TreeCase &c = GetParam();
  const std::vector<SizeClass> table = c.table();
  for (const SmallInfo &i : small_strategies()) {
    if (!small_unsupported_reason(i.strategy, c.cpu()).empty()) continue;
    auto code = generated(
        [&](asmjit::x86::Assembler &a) {
          emit_dispatcher(a, table, {i.strategy, 256}, c.cpu());
        },
        "dispatch_" + c.stem());
    const std::string report = cross_check(code_bytes(*code), code->listing);
    EXPECT_TRUE(report.empty()) << c.stem() << " with small path " << i.name << "\n" << report;
  }
}

INSTANTIATE_TEST_SUITE_P(Profiles, golden_Tree, ::testing::ValuesIn(kTreeCases),
                         [](const auto &info) { return info.param.stem(); });

// ---------------------------------------------------------------------------------------------
// Small-path strategies, generated for synthetic CPUs so the listing is the same on every
// machine: the small path alone has a golden file, and a dispatcher made of it and one class
// (stosb) is cross-checked against Zydis.

CpuInfo synthetic_cpu(std::string_view kind) {
  CpuInfo c;
  c.vendor = "AuthenticAMD";
  c.family = 26;
  c.model = 2;
  for (Feature f : {Feature::sse2, Feature::erms, Feature::fsrm})
    c.set(f);
  if (kind != "sse")
    for (Feature f : {Feature::avx, Feature::avx2})
      c.set(f);
  if (kind == "avx512")
    for (Feature f : {Feature::avx512f, Feature::avx512bw, Feature::avx512vl, Feature::bmi2})
      c.set(f);
  return c;
}

struct SmallCase {
  Small strategy;
  unsigned max;
  const char *cpu; // sse, avx, avx512
  std::string stem() const {
    return std::string(info(strategy).name) + "_" + std::to_string(max) + "_" + cpu;
  }
};

std::vector<SmallCase> small_cases() {
  std::vector<SmallCase> out;
  for (const SmallInfo &i : small_strategies())
    for (unsigned max : kSmallMaxes)
      for (const char *cpu : {"sse", "avx", "avx512"})
        if (small_unsupported_reason(i.strategy, synthetic_cpu(cpu)).empty())
          out.push_back({i.strategy, max, cpu});
  return out;
}

//! The small path alone; sizes above max jump to the label bound at its end.
std::unique_ptr<GeneratedCode> small_path(const SmallCase &c) {
  return generated(
      [&](asmjit::x86::Assembler &a) {
        asmjit::Label big = a.newLabel();
        emit_small(a, {c.strategy, c.max}, synthetic_cpu(c.cpu), big);
        a.bind(big);
      },
      "small_" + c.stem());
}

void PrintTo(const SmallCase &c, std::ostream *os) { *os << c.stem(); }

//! The golden file of case `c`: small/<strategy>_<max>_<cpus>.asm, where <cpus> names every
//! synthetic CPU on which the strategy's listing is the same as on c's (one file serves every
//! CPU a strategy emits the same code for).
fs::path small_file(const SmallCase &c) {
  const std::string listing = small_path(c)->listing;
  std::string cpus;
  for (const SmallCase &o : small_cases())
    if (o.strategy == c.strategy && o.max == c.max && small_path(o)->listing == listing)
      cpus += std::string("_") + o.cpu;
  return fs::path("small") /
         (std::string(info(c.strategy).name) + "_" + std::to_string(c.max) + cpus + ".asm");
}

class golden_Small : public ::testing::TestWithParam<SmallCase> {};

// Golden files for max = 256 (the other maxes change only the rungs' bounds); every case is
// cross-checked against Zydis, alone and in a dispatcher.
TEST_P(golden_Small, ListingMatchesFileAndZydis) {
  const SmallCase &c = GetParam();
  auto code = small_path(c);
  std::string report = cross_check(code_bytes(*code), code->listing);
  EXPECT_TRUE(report.empty()) << c.stem() << "\n" << report;
  const std::vector<SizeClass> table{{0, default_spec(Method::stosb), 0}};
  auto whole = generated(
      [&](asmjit::x86::Assembler &a) {
        emit_dispatcher(a, table, {c.strategy, c.max}, synthetic_cpu(c.cpu));
      },
      "dispatch_" + c.stem());
  report = cross_check(code_bytes(*whole), whole->listing);
  EXPECT_TRUE(report.empty()) << c.stem() << " in a dispatcher\n" << report;
  if (c.max != 256) return;
  report = check_golden(golden_dir() / small_file(c), code->listing);
  EXPECT_TRUE(report.empty()) << c.stem() << " " << report;
}

// The dispatcher's promised shapes: no jump to a shared exit or to a jump (every leaf returns),
// vzeroupper only where ymm0 was stored from, and nothing but general registers below 16 B in
// the ladder.
TEST_P(golden_Small, EveryLeafReturnsItself) {
  const SmallCase &c = GetParam();
  const std::string small = small_path(c)->listing;
  EXPECT_EQ(small.find("jmp"), std::string::npos) << c.stem() << "\n" << small;
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

INSTANTIATE_TEST_SUITE_P(Strategies, golden_Small, ::testing::ValuesIn(small_cases()),
                         [](const auto &info) { return info.param.stem(); });

// Every golden file is one some test above writes, so a renamed block, profile or strategy
// cannot leave a stale file.
TEST(golden_Files, NoStaleFiles) {
  std::set<fs::path> wanted;
  for (const BlockCase &c : block_cases())
    wanted.insert(c.file);
  for (const TreeCase &c : kTreeCases)
    wanted.insert(fs::path("tree") / (c.stem() + ".asm"));
  for (const SmallCase &c : small_cases())
    if (c.max == 256) wanted.insert(small_file(c));
  if (!fs::exists(golden_dir())) GTEST_SKIP() << "no golden directory yet";
  for (auto it = fs::recursive_directory_iterator(golden_dir());
       it != fs::recursive_directory_iterator(); ++it) {
    const fs::path rel = fs::relative(it->path(), golden_dir());
    if (it->is_regular_file()) {
      EXPECT_TRUE(wanted.count(rel)) << "stale golden file " << rel;
    }
  }
}

// The checker must catch a wrong encoding, a wrong operand and a listing that stops early.
class golden_CrossCheckNegative : public ::testing::Test {
protected:
  void SetUp() override {
    g_ = compile_or_throw("avx2:unroll=4");
    bytes_.assign(code_bytes(*g_).begin(), code_bytes(*g_).end());
    std::string report = cross_check(bytes_, g_->listing);
    ASSERT_TRUE(report.empty()) << report;
  }
  //! The listing with the first occurrence of `from` replaced by `to`.
  std::string listing_with(std::string_view from, std::string_view to) const {
    std::string l = g_->listing;
    size_t at = l.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? l : l.replace(at, from.size(), to);
  }
  std::unique_ptr<GeneratedCode> g_;
  std::vector<uint8_t> bytes_;
};

TEST_F(golden_CrossCheckNegative, AlteredListingByte) {
  // vmovdqu [rdi+32] listed with disp8 0x21: the bytes no longer agree.
  std::string report = cross_check(bytes_, listing_with("; C5FE7F4720", "; C5FE7F4721"));
  EXPECT_NE(report.find("bytes differ"), std::string::npos) << report;
  EXPECT_NE(report.find("C5FE7F4721"), std::string::npos) << report;
}

TEST_F(golden_CrossCheckNegative, AlteredCodeByte) {
  // The same disagreement seen from the other side: the code holds a wrong displacement.
  const uint8_t needle[] = {0xC5, 0xFE, 0x7F, 0x47, 0x20};
  auto it = std::search(bytes_.begin(), bytes_.end(), std::begin(needle), std::end(needle));
  ASSERT_NE(it, bytes_.end());
  it[4] = 0x21;
  std::string report = cross_check(bytes_, g_->listing);
  EXPECT_NE(report.find("bytes differ"), std::string::npos) << report;
}

// The small path's "align 64" padding must be NOPs ending at the boundary: an int3 in it, or
// the listing's alignment changed, is caught (and the listing as generated passes).
TEST(golden_CrossCheckAlign, PaddingIsCheckedToo) {
  auto g = small_path({Small::tree, 256, "avx512"});
  std::vector<uint8_t> bytes(code_bytes(*g).begin(), code_bytes(*g).end());
  ASSERT_EQ(cross_check(bytes, g->listing), "");
  const size_t at = g->listing.find("align 64");
  ASSERT_NE(at, std::string::npos);
  std::string listing = g->listing;
  EXPECT_NE(cross_check(bytes, listing.replace(at, 8, "align 128")), "");
  // The first padding byte: after the instructions listed before the first "align".
  size_t pos = 0;
  for (const std::string &line : split_lines(g->listing.substr(0, at)))
    if (size_t semi = line.rfind(';'); semi != std::string::npos)
      pos += trim(line.substr(semi + 1)).size() / 2;
  ASSERT_NE(pos % 64, 0u) << "no padding before the first target";
  bytes[pos] = 0xCC;
  EXPECT_NE(cross_check(bytes, g->listing).find("is not NOPs"), std::string::npos);
}

TEST_F(golden_CrossCheckNegative, WrongOperandText) {
  std::string report = cross_check(bytes_, listing_with("[rdi+32], ymm0", "[rdi+33], ymm0"));
  EXPECT_NE(report.find("operands differ"), std::string::npos) << report;
}

TEST_F(golden_CrossCheckNegative, WrongMnemonic) {
  std::string report = cross_check(
      bytes_, listing_with("vmovdqu ymmword ptr [rdi+32]", "vmovdqa ymmword ptr [rdi+32]"));
  EXPECT_NE(report.find("mnemonics differ"), std::string::npos) << report;
}

TEST_F(golden_CrossCheckNegative, WrongBranchTarget) {
  // "ja L1" aimed at another label: its bytes are wildcards, but the decoded target is not.
  std::string report = cross_check(bytes_, listing_with("ja L1 ", "ja L2 "));
  EXPECT_NE(report.find("operands differ"), std::string::npos) << report;
}

TEST_F(golden_CrossCheckNegative, ListingStopsEarly) {
  std::string listing = g_->listing;
  listing.erase(listing.rfind("ret"));
  std::string report = cross_check(bytes_, listing);
  EXPECT_NE(report.find("the listing covers"), std::string::npos) << report;
}

TEST_F(golden_CrossCheckNegative, ListingGoesOn) {
  std::string report = cross_check(bytes_, g_->listing + "ret ; C3\n");
  EXPECT_NE(report.find("past the end of the code"), std::string::npos) << report;
}

TEST_F(golden_CrossCheckNegative, UnparsableLine) {
  std::string report = cross_check(bytes_, "; a comment\n" + g_->listing);
  EXPECT_NE(report.find("neither a label nor an instruction"), std::string::npos) << report;
}

TEST(golden_CrossCheckNormalise, Aliases) {
  auto same = [](std::string_view asmjit, std::map<std::string, uint64_t> labels,
                 std::string_view zydis) {
    EXPECT_EQ(normalise(asmjit, labels).str(), normalise(zydis, {}).str()) << asmjit;
  };
  same("short jne L8", {{"l8", 10}}, "jnz 0xA");
  same("ja L1", {{"l1", 26}}, "jnbe 0x1A");
  same("jb L2", {{"l2", 1}}, "jc 1");
  same("cmova rdx, r10", {}, "cmovnbe rdx, r10");
  same("and r9, -128", {}, "and r9, -0x80");
  same("mov qword ptr [r8-8], rax", {}, "mov qword ptr [r8-0x08], rax");
  same("rep stos qword ptr [rdi], rax", {}, "rep stosq");
  same("clzero", {}, "clzero rax");
  same("movdir64b [rax], [rcx]", {}, "movdir64b rax, zmmword ptr [rcx]");
  EXPECT_NE(normalise("jmp L1", {{"l1", 1}}), normalise("jmp 2", {}));
  EXPECT_NE(normalise("rep stos byte ptr [rdi], al", {}), normalise("rep stosq", {}));
}

// libc tail-calls memset through an absolute address, which ASLR moves, so it has no golden
// file: check the shape, and that the address is this process's memset.
TEST(golden_LibcListing, Shape) {
  auto code = compile_or_throw("libc");
  std::string error;
  auto entries = parse_listing(code->listing, error);
  ASSERT_TRUE(entries) << error;
  const std::pair<std::string, std::string> expected[] = {{"test rsi, rsi", "4885F6"},
                                                          {"jz L0", "0F84........"},
                                                          {"mov rdx, rsi", "4889F2"},
                                                          {"xor esi, esi", "31F6"},
                                                          {"mov rax, *", "48B8*"},
                                                          {"jmp rax", "FFE0"},
                                                          {"L0:", ""},
                                                          {"ret", "C3"}};
  ASSERT_EQ(entries->size(), std::size(expected)) << code->listing;
  const auto memset_address =
      reinterpret_cast<uint64_t>(static_cast<void *(*)(void *, int, size_t)>(&std::memset));
  for (size_t i = 0; i < entries->size(); ++i) {
    const ListingEntry &e = (*entries)[i];
    const auto &[text, hex] = expected[i];
    if (!e.label.empty()) {
      EXPECT_EQ(e.label + ":", text);
    } else if (text == "mov rax, *") {
      // The address, printed in decimal and encoded as a little-endian imm64.
      ASSERT_TRUE(e.text.starts_with("mov rax, ")) << e.text;
      EXPECT_EQ(std::stoull(e.text.substr(9)), memset_address) << e.text;
      ASSERT_EQ(e.hex.size(), 20u) << e.hex;
      EXPECT_EQ(e.hex.substr(0, 4), "48B8");
      uint64_t from_bytes = 0;
      for (int b = 7; b >= 0; --b)
        from_bytes = from_bytes << 8 | std::stoull(e.hex.substr(4 + size_t(b) * 2, 2), nullptr, 16);
      EXPECT_EQ(from_bytes, memset_address);
    } else {
      EXPECT_EQ(e.text, text);
      EXPECT_EQ(e.hex, hex) << e.text;
    }
  }
}

} // namespace
} // namespace cjit::detail
