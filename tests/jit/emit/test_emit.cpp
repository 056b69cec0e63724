// The kernels' and dispatchers' code as jit/emit/emit.cpp emits it, block by block: each block's
// listing is its golden file (tests/golden/, laid out as tests/support/golden_cases.hpp says) and
// what Zydis decodes from its bytes; the blocks put together are the kernel; a class tree is its
// golden file and the whole dispatcher Zydis'; libc's tail call has the shape it must.
#include "jit/emit/emit.hpp"
#include "tests/support/golden_cases.hpp"
#include "tests/support/support.hpp"
#include "tests/support/zydis_check.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace cjit::detail::test {
namespace {

// ---------------------------------------------------------------------------------------------
// Golden listings per block

class emit_Block : public ::testing::TestWithParam<BlockCase> {};

TEST_P(emit_Block, MatchesFileAndZydis) {
  const BlockCase &c = GetParam();
  auto code = block_code(c);
  std::string report = cross_check(code_bytes(*code), without_comments(code->listing));
  EXPECT_TRUE(report.empty()) << c.file << "\n" << report;
  report = check_golden(golden_dir() / c.file, code->listing);
  EXPECT_TRUE(report.empty()) << format_spec(c.spec) << " " << report;
}

INSTANTIATE_TEST_SUITE_P(Blocks, emit_Block, ::testing::ValuesIn(block_cases()),
                         [](const auto &info) {
                           std::string name = info.param.file;
                           name.resize(name.size() - 4); // ".asm"
                           for (char &ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

// A file's name must say everything its block depends on: every kernel that shares the file
// emits the same listing (else which one wrote the file would decide the test).
TEST(emit_BlockFiles, KernelsSharingAFileShareItsListing) {
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
TEST(emit_BlockFiles, KernelIsItsBlocks) {
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
// Dispatchers: the class tree of tests/profiles/runtime/golden_*.toml with each class's main path a
// comment, and the whole dispatcher against Zydis

class emit_Tree : public ::testing::TestWithParam<TreeCase> {};

TEST_P(emit_Tree, MatchesFileAndZydis) {
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

TEST_P(emit_Tree, WholeDispatcherMatchesZydis) {
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

INSTANTIATE_TEST_SUITE_P(Profiles, emit_Tree, ::testing::ValuesIn(kTreeCases),
                         [](const auto &info) { return info.param.stem(); });

// ---------------------------------------------------------------------------------------------
// libc

// libc tail-calls memset through an absolute address, which ASLR moves, so it has no golden
// file: check the shape, and that the address is this process's memset.
TEST(emit_Libc, ListingShape) {
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
} // namespace cjit::detail::test
