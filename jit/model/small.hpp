// The small path of a dispatcher: how sizes 0..max are cleared before any size class is
// consulted. One row per strategy drives parsing (profile key [small.<intent>]), emitting
// (emit_small.cpp's switch), listing, tuning and the tests. Data only: loading a profile needs
// no AsmJit.
#pragma once

#include "jit/model/cpu.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cjit::detail {

enum class Small : uint8_t { tree, ladder, vec, masked, stosb, branchless, libc };

//! Where the small path's branches land, as glibc's memset aligns its blocks: unaligned targets
//! made strategies measurably slower warm (docs/design/small-path.md, rules).
constexpr unsigned kSmallTargetAlign = 64;

struct SmallInfo {
  Small strategy;
  std::string_view name;
  std::string_view description; //!< for `clearjit list` and the README
  std::array<Feature, 4> needs; //!< Feature::none pads
};

std::span<const SmallInfo> small_strategies();
const SmallInfo &info(Small s);
std::optional<Small> small_by_name(std::string_view name);

//! Sizes below `below` (and above the band before it) cleared by `strategy`.
struct SmallBand {
  unsigned below = 0;
  Small strategy = Small::libc;
  auto operator<=>(const SmallBand &) const = default;
};

//! What a dispatcher clears itself: n in [0, max], by `strategy`, except the sizes of `bands`:
//! each band's strategy below its `below` (bands in increasing order, the first from 0), e.g.
//! memset below 64 bytes and masked from there. The tuner bands a path where a strategy keeps
//! the promise on some sizes only (memset, Small::libc, keeps it everywhere).
struct SmallPath {
  Small strategy = Small::tree;
  unsigned max = 256;
  std::vector<SmallBand> bands = {};
  auto operator<=>(const SmallPath &) const = default;
};

//! At most this many bands below a path's own strategy: each is one compare more for every size.
constexpr size_t kSmallMaxBands = 3;

//! Empty when `p`'s bands are in order (each `below` above the last, from 1 up to `max`), at
//! most kSmallMaxBands, and no band has the strategy of the band above it; else what is wrong.
//! `band`, where given, is set to the index of the first band at fault (checked in order: the
//! first beyond kSmallMaxBands, or one out of order or with the strategy of the band above it).
std::string small_bands_error(const SmallPath &p, size_t *band = nullptr);

//! Every strategy `p` runs: its bands' and its own.
std::vector<Small> strategies_of(const SmallPath &p);

//! The values max may take: powers of two from 128 (every class kernel's own head/tail limit is
//! at most 2 * 64, so sizes above 128 always suit its main path) to 1024.
constexpr unsigned kSmallMaxes[] = {128, 256, 512, 1024};
bool valid_small_max(uint64_t max);

//! Empty when `cpu` can run `s`, else why not ("small path masked needs AVX512BW, which this
//! CPU lacks").
std::string small_unsupported_reason(Small s, const CpuInfo &cpu);
//! The same for every strategy of `p` (its bands').
std::string small_unsupported_reason(const SmallPath &p, const CpuInfo &cpu);

//! "masked, up to 256 B" style text ("libc below 64 B, masked up to 256 B" with bands).
std::string describe(const SmallPath &p);

} // namespace cjit::detail
