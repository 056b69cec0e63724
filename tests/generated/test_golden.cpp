// The golden listings and the Zydis cross-check as a whole: the files' checker, the cross-check
// catching what it claims to catch, every kernel the tuner may consider decoded by Zydis and
// agreeing with AsmJit's listing, and no golden file that no test writes.
//
// The golden files' layout and cases are tests/support/golden_cases.hpp's; each is checked by the
// tests of the module that emits it: tests/jit/emit/test_emit.cpp (blocks, class trees) and
// tests/jit/emit/test_emit_small.cpp (small paths). CLEARJIT_UPDATE_GOLDEN=1 writes them.
#include "jit/emit/emit.hpp"
#include "jit/model/small.hpp"
#include "tests/support/golden_cases.hpp"
#include "tests/support/support.hpp"
#include "tests/support/zydis_check.hpp"
#include "tuner/stages/candidates.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cjit::detail {

// Parameterised tests name a Spec by its canonical text rather than its bytes.
void PrintTo(const Spec &s, std::ostream *os) { *os << format_spec(s); }

namespace {

using namespace test;

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
// Every kernel against Zydis

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
// The files and the checker

// Every golden file is one that test_emit or test_emit_small writes (the cases of
// tests/support/golden_cases.hpp), or test_tune_golden's, so a renamed block, profile or strategy
// cannot leave a stale file.
TEST(golden_Files, NoStaleFiles) {
  std::set<std::filesystem::path> wanted;
  for (const BlockCase &c : block_cases())
    wanted.insert(c.file);
  for (const TreeCase &c : kTreeCases)
    wanted.insert(std::filesystem::path("tree") / (c.stem() + ".asm"));
  for (const SmallCase &c : small_cases())
    if (c.max == 256) wanted.insert(small_file(c));
  for (const char *level : {"quick", "default"}) // test_tune_golden's
    for (const char *kind : {".toml", ".json"})
      wanted.insert(std::filesystem::path("tune") / (std::string(level) + kind));
  wanted.insert("tune/quick.txt");
  wanted.insert("tune/quick.html");
  if (!std::filesystem::exists(golden_dir())) GTEST_SKIP() << "no golden directory yet";
  for (auto it = std::filesystem::recursive_directory_iterator(golden_dir());
       it != std::filesystem::recursive_directory_iterator(); ++it) {
    const std::filesystem::path rel = std::filesystem::relative(it->path(), golden_dir());
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

} // namespace
} // namespace cjit::detail
