// The built-in profile and the default small path, with the measurements that chose them.
#include "jit/profile/defaults.hpp"

#include "jit/profile/profile.hpp"

#include <algorithm>

namespace cjit::detail {
namespace {

SizeClass cls(uint64_t below, const char *spec) { return {below, *parse_spec(spec), 0}; }

bool runs(Small s, const CpuInfo &cpu) { return small_unsupported_reason(s, cpu).empty(); }

} // namespace

SmallPath default_small(const CpuInfo &cpu, Intent) { // both intents alike since 2026-12-04
  // No rep stosb for reuse on AMD family 26 (Zen 5), though 0.61x..0.78x memset's time warm
  // (docs/results/amd-family26-model2/bench-default-profile.md): 0.84x..0.86x its speed at
  // 8..48 B cold scattered (docs/results/amd-family26-model2/small-cold-stosb.txt).
  // masked is glibc's AVX-512 sequence plus a prefetch: its worst band against memset was 1.02x
  // (both intents, --level quick) and 1.05x, 1.08x (reuse, stream, --level default) on the
  // Intel Xeon family 6 model 207, where the tree's was 1.44x..2.46x
  // (docs/results/intel-family6-model207/tune-quick.txt, tune-default.txt), and about 1.0x for
  // stream on AMD family 26 model 2 (Zen 5)
  // (docs/results/amd-family26-model2/small-path-study.txt).
  if (runs(Small::masked, cpu)) return {Small::masked, 256};
  // Without AVX-512 nothing else was measured: the tree runs everywhere.
  return {Small::tree, 256};
}

Profile builtin_profile(const CpuInfo &cpu) {
  Profile p;
  p.host = profile_host(cpu);
  p.source = "built-in";
  const bool avx2 = cpu.has(Feature::avx2), amd = cpu.vendor == "AuthenticAMD";
  const char *vec = avx2 ? "avx2:unroll=4" : "sse:unroll=4";
  const char *nt = avx2 ? "ntavx2" : "ntsse";
  const char *bulk = cpu.has(Feature::erms) ? "stosb" : vec;
  if (cpu.has(Feature::erms) && amd)
    p.reuse = {cls(2048, vec), cls(0, "stosb")};
  else
    p.reuse = {cls(2048, vec), cls(kReuseNontemporalFrom, bulk), cls(0, nt)};
  // Half the L2: a stream clear that small may find its destination in cache, where a
  // non-temporal one took 2x..5x memset's time (docs/design/tuner.md, the cached veto).
  p.stream = {cls(2048, vec), cls(std::max<uint64_t>(cpu.l2_bytes() / 2, 4096), bulk), cls(0, nt)};
  return p;
}

} // namespace cjit::detail
