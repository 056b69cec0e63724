// The small path of a dispatcher: how sizes 0..max are cleared before any size class is
// consulted. One row per strategy drives parsing (profile key [small.<intent>]), emitting,
// listing, tuning and the tests.
#pragma once

#include "clearjit/clearjit.hpp"
#include "cpu.hpp"

#include <asmjit/x86.h>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cjit::detail {

enum class Small : uint8_t { tree, ladder, vec, masked, stosb, branchless };

//! Where the small path's branches land: glibc's memset aligns its blocks to 64 bytes too. On
//! AMD family 26 (Zen 5) it made the tree 1.20x and vec 1.32x faster at 100 B and vec 1.14x at
//! 8 B (warm, ratio to memset, median over 48 code placements; bench/small_placement.cpp).
constexpr unsigned kSmallTargetAlign = 64;

//! Where the small path's code goes: `big` is where sizes above max continue (the size classes).
struct SmallContext {
  asmjit::x86::Assembler &a;
  const CpuInfo &cpu;
  unsigned max;
  asmjit::Label big;
  unsigned target_align = kSmallTargetAlign; //!< 1: no padding (bench/small_placement.cpp)
};

struct SmallInfo {
  Small strategy;
  std::string_view name;
  std::string_view description; //!< for `clearjit list` and the README
  std::array<Feature, 4> needs; //!< Feature::none pads
  void (*emit)(SmallContext &);
};

std::span<const SmallInfo> small_strategies();
const SmallInfo &info(Small s);
std::optional<Small> small_by_name(std::string_view name);

//! What a dispatcher clears itself: n in [0, max], by `strategy`.
struct SmallPath {
  Small strategy = Small::tree;
  unsigned max = 256;
  auto operator<=>(const SmallPath &) const = default;
};

//! The values max may take: powers of two from 128 (every class kernel's own head/tail limit is
//! at most 2 * 64, so sizes above 128 always suit its main path) to 1024.
constexpr unsigned kSmallMaxes[] = {128, 256, 512, 1024};
bool valid_small_max(uint64_t max);

//! Empty when `cpu` can run `s`, else why not ("small path masked needs AVX512BW, which this
//! CPU lacks").
std::string small_unsupported_reason(Small s, const CpuInfo &cpu);

//! "masked, up to 256 B" style text.
std::string describe(const SmallPath &p);

//! Emits: sizes 0..p.max cleared and returned from (every leaf ends in its own ret), larger sizes
//! jump to `big`. The first instruction is a cmp of rsi; on the way to `big` every instruction is
//! `cmp rsi, imm` or an unsigned conditional branch on it, jae or, before the first jae, jb, ja
//! or je; so a size above max takes only those (tests/support.hpp's tree_landing follows them).
//! Branch targets start at `target_align`-byte boundaries (padding that never runs: every
//! target follows a ret).
void emit_small(asmjit::x86::Assembler &a, const SmallPath &p, const CpuInfo &cpu,
                const asmjit::Label &big, unsigned target_align = kSmallTargetAlign);

} // namespace cjit::detail
