// The Zydis cross-check of generated code: Zydis decodes the emitted bytes, which must agree
// with AsmJit's listing instruction by instruction (tests/generated/test_golden.cpp checks the
// checker). A binary that includes this links Zydis (tests/CMakeLists.txt).
#pragma once

#include "tests/support/support.hpp"

#include <Zydis/Zydis.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace cjit::detail::test {

inline std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
  return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

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
inline const std::map<std::string, std::string> &condition_aliases() {
  static const std::map<std::string, std::string> m{
      {"o", "o"},   {"no", "no"}, {"b", "b"},   {"c", "b"},   {"nae", "b"}, {"ae", "ae"},
      {"nb", "ae"}, {"nc", "ae"}, {"e", "e"},   {"z", "e"},   {"ne", "ne"}, {"nz", "ne"},
      {"be", "be"}, {"na", "be"}, {"a", "a"},   {"nbe", "a"}, {"s", "s"},   {"ns", "ns"},
      {"p", "p"},   {"pe", "p"},  {"np", "np"}, {"po", "np"}, {"l", "l"},   {"nge", "l"},
      {"ge", "ge"}, {"nl", "ge"}, {"le", "le"}, {"ng", "le"}, {"g", "g"},   {"nle", "g"}};
  return m;
}

inline std::string canonical_mnemonic(const std::string &m) {
  for (std::string_view prefix : {"cmov", "set", "j"}) {
    if (m.size() > prefix.size() && m.compare(0, prefix.size(), prefix) == 0) {
      auto it = condition_aliases().find(m.substr(prefix.size()));
      if (it != condition_aliases().end()) return std::string(prefix) + it->second;
    }
  }
  return m;
}

//! Number token (decimal or 0x-hex) as signed 64-bit decimal text; nullopt when not a number.
inline std::optional<std::string> decimal(std::string_view tok) {
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

inline Normalised normalise(std::string_view text, const std::map<std::string, uint64_t> &labels) {
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

inline std::string hex_bytes(std::span<const uint8_t> bytes) {
  static const char digits[] = "0123456789ABCDEF";
  std::string out;
  for (uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

//! Two columns, for reports.
inline std::string side_by_side(std::string_view left, std::string_view right) {
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

inline bool is_label(std::string_view line) {
  if (line.size() < 3 || line.front() != 'L' || line.back() != ':') return false;
  return std::all_of(line.begin() + 1, line.end() - 1,
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

//! Labels and instructions of an AsmJit listing ("text   ; HEX" or "Ln:"); on a line that is
//! neither, nullopt and `error` says which.
inline std::optional<std::vector<ListingEntry>> parse_listing(std::string_view listing,
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
inline std::string cross_check(std::span<const uint8_t> code, std::string_view listing) {
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
  size_t relocated = 0; // relocated_jump()s seen
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

    if (relocated_jump(e.text, e.hex)) {
      if (insn.mnemonic != ZYDIS_MNEMONIC_JMP || insn.length != 6)
        return where + "not a 6-byte jump\n" + side_by_side(listed, decoded);
      pos += insn.length;
      ++relocated;
      continue;
    }
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
  pos = past_address_table(pos, code.size(), relocated);
  if (pos != code.size())
    return "the listing covers " + std::to_string(pos) + " bytes but the code has " +
           std::to_string(code.size()) + "; next undescribed bytes: " +
           hex_bytes(code.subspan(pos, std::min<size_t>(15, code.size() - pos))) + "\n";
  return {};
}

} // namespace cjit::detail::test
