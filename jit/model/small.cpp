// Small-path strategies: the table (their emitters are emit_small.cpp's).
#include "jit/model/small.hpp"

#include <algorithm>
#include <iterator>

namespace cjit::detail {
namespace {

constexpr Feature N = Feature::none;

constexpr SmallInfo kStrategies[] = {
    {Small::tree,
     "tree",
     "a balanced branch tree of octaves, head/tail stores up to 32 bytes",
     {Feature::sse2, N, N, N}},
    {Small::ladder,
     "ladder",
     "octave rungs in increasing order (smallest sizes fewest branches), general registers "
     "below 16 bytes, then vector stores up to 32 bytes",
     {Feature::sse2, N, N, N}},
    {Small::vec,
     "vec",
     "a tree below one vector, then branch-free head/tail rungs of the widest vector",
     {Feature::sse2, N, N, N}},
    {Small::masked,
     "masked",
     "one AVX-512 masked store up to 64 bytes (page-cross guard), then zmm head/tail rungs",
     {Feature::avx512f, Feature::avx512bw, Feature::avx512vl, Feature::bmi2}},
    {Small::stosb,
     "stosb",
     "one rep stosb below 128 bytes except at 64 (fast short strings), then head/tail stores up "
     "to 32 bytes",
     {Feature::erms, Feature::fsrm, N, N}},
    {Small::branchless,
     "branchless",
     "no branch on n up to 256 bytes: four overlapping AVX-512 stores masked to min(n, 64) bytes "
     "(page-cross guard), then zmm head/tail rungs",
     {Feature::avx512f, Feature::avx512bw, Feature::avx512vl, Feature::bmi2}},
    {Small::libc,
     "libc",
     "the C library's memset itself (one compare, then a tail call): the incumbent, which every "
     "other strategy must beat",
     {N, N, N, N}},
};

// info(s) is kStrategies[s], and emit_small.cpp's switch names every Small.
constexpr bool rows_in_enum_order() {
  for (size_t i = 0; i < std::size(kStrategies); ++i)
    if (size_t(kStrategies[i].strategy) != i) return false;
  return true;
}
static_assert(rows_in_enum_order());

} // namespace

std::span<const SmallInfo> small_strategies() { return kStrategies; }

const SmallInfo &info(Small s) { return kStrategies[size_t(s)]; }

std::optional<Small> small_by_name(std::string_view name) {
  for (const SmallInfo &i : kStrategies)
    if (i.name == name) return i.strategy;
  return std::nullopt;
}

bool valid_small_max(uint64_t max) {
  return std::find(std::begin(kSmallMaxes), std::end(kSmallMaxes), max) != std::end(kSmallMaxes);
}

std::string small_unsupported_reason(Small s, const CpuInfo &cpu) {
  for (Feature f : info(s).needs)
    if (!cpu.has(f))
      return "small path " + std::string(info(s).name) + " needs " + std::string(feature_name(f)) +
             ", which this CPU lacks";
  return "";
}

std::string small_unsupported_reason(const SmallPath &p, const CpuInfo &cpu) {
  for (Small s : strategies_of(p))
    if (std::string why = small_unsupported_reason(s, cpu); !why.empty()) return why;
  return "";
}

std::string small_bands_error(const SmallPath &p, size_t *band) {
  unsigned last = 0;
  for (size_t k = 0; k < p.bands.size(); ++k) {
    if (band) *band = k;
    if (k == kSmallMaxBands)
      return "at most " + std::to_string(kSmallMaxBands) + " bands, got " +
             std::to_string(p.bands.size());
    const SmallBand &b = p.bands[k];
    const std::string at = "band " + std::to_string(k + 1) + ": ";
    if (b.below <= last)
      return at + "below = " + std::to_string(b.below) + " is not above " +
             (k ? "the band before it (" + std::to_string(last) + ")" : std::string("0"));
    if (b.below > p.max)
      return at + "below = " + std::to_string(b.below) + " is above max (" + std::to_string(p.max) +
             ")";
    const Small next = k + 1 < p.bands.size() ? p.bands[k + 1].strategy : p.strategy;
    if (b.strategy == next)
      return at + std::string(info(b.strategy).name) + " again in the band above it (one band)";
    last = b.below;
  }
  return "";
}

std::vector<Small> strategies_of(const SmallPath &p) {
  std::vector<Small> out;
  for (const SmallBand &b : p.bands)
    out.push_back(b.strategy);
  out.push_back(p.strategy);
  return out;
}

std::string describe(const SmallPath &p) {
  std::string t;
  for (const SmallBand &b : p.bands)
    t += std::string(info(b.strategy).name) + " below " + std::to_string(b.below) + " B, ";
  return t + std::string(info(p.strategy).name) + ", up to " + std::to_string(p.max) + " B";
}

} // namespace cjit::detail
