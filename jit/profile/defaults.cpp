// The built-in profile and the default small path; docs/design/small-path.md and
// docs/design/tuner.md (the built-in profile) give the measurements that chose them.
#include "jit/profile/defaults.hpp"

#include "jit/profile/profile.hpp"

#include <algorithm>

namespace cjit::detail {
namespace {

SizeClass cls(uint64_t below, const char *spec) { return {below, *parse_spec(spec), 0}; }

bool runs(Small s, const CpuInfo &cpu) { return small_unsupported_reason(s, cpu).empty(); }

} // namespace

SmallPath default_small(const CpuInfo &cpu, Intent) { // both intents alike
  // memset is the incumbent: a strategy serves a band only where a CPU of this kind measured it
  // keeping the promise warm and cold (docs/design/small-path.md, the default small path).
  if (!runs(Small::masked, cpu)) return {Small::libc, 256};
  if (cpu.vendor == "AuthenticAMD") return {Small::masked, 256};
  // Elsewhere (measured on Intel family 6 model 207) masked loses cold below 64 bytes.
  return {Small::masked, 256, {{64, Small::libc}}};
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
  // non-temporal one is several times slower than memset (docs/design/tuner.md, the cached veto). A
  // huge page is non-temporal whatever the L2: stream's contract is that the caller's cache does
  // not hold the destination.
  const uint64_t temporal_below = std::clamp<uint64_t>(cpu.l2_bytes() / 2, 4096, kHugePages[0]);
  p.stream = {cls(2048, vec), cls(temporal_below, bulk), cls(0, nt)};
  // A batch is pages cleared for later (a huge page's 4 KiB subpages, one fence at the end): no
  // caller of a batch holds its pieces in cache, so from a page on they skip the read for
  // ownership.
  p.batch = {cls(2048, vec), cls(4096, bulk), cls(0, nt)};
  return p;
}

} // namespace cjit::detail
