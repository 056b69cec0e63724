#include "tuner/stages/findings.hpp"

#include "tuner/stages/candidates.hpp"
#include "tuner/stages/plan.hpp"

#include <algorithm>
#include <cmath>

namespace cjit::detail {
namespace {

// widest_runnable (candidates.hpp), or the narrowest method the rows `admit` where the CPU runs
// none of them.
template <class Admits> Spec widest(const CpuInfo &cpu, Admits admits) {
  if (std::optional<Spec> s = widest_runnable(cpu, admits)) return *s;
  const MethodInfo *narrowest = nullptr;
  for (const MethodInfo &mi : methods())
    if (admits(mi) && (!narrowest || mi.width < narrowest->width)) narrowest = &mi;
  return default_spec(narrowest->method);
}

// The fence study's stores are at most this wide: it has always measured ntavx2 wherever AVX
// runs, AVX-512 or not (the hand list this replaced), so its findings compare with earlier
// profiles'. Whether ntavx512 should take its place where it runs was never measured.
constexpr unsigned kFenceStudyWidth = 32;

// The methods with one string instruction per chunk (rep stos): the chunk study's.
std::vector<Method> string_ops() {
  std::vector<Method> out;
  for (const MethodInfo &mi : methods())
    if (mi.string_op) out.push_back(mi.method);
  return out;
}

} // namespace

Spec temporal_reference(const CpuInfo &cpu) {
  return widest(cpu,
                [](const MethodInfo &mi) { return mi.store == Store::move && !mi.nontemporal; });
}

Studies::Studies(const CpuInfo &cpu, uint64_t min_size, uint64_t max_size)
    : cpu_(cpu), min_size_(min_size), max_size_(max_size), l3_(cpu.l3_bytes()) {}

uint64_t Studies::sweep_from() const {
  return std::max(min_size_, std::min(l3_ / 4, cpu_.l2_bytes()));
}

std::vector<Job> Studies::no_allocate_jobs(int steps) const {
  std::vector<Job> jobs;
  uint64_t lo = sweep_from(), hi = std::min(max_size_, 8 * l3_);
  if (lo >= hi) return jobs;
  for (uint64_t size : size_grid(lo, hi, steps)) {
    jobs.push_back({default_spec(Method::stosb), size, Intent::stream});
    jobs.push_back({temporal_reference(cpu_), size, Intent::stream});
  }
  return jobs;
}

std::vector<Job> Studies::chunk_jobs() const {
  std::vector<Job> jobs;
  for (Method m : string_ops())
    for (uint64_t c : kStudyChunks) {
      if (c >= max_size_) continue;
      Spec s = default_spec(m);
      s.chunk = c;
      jobs.push_back({s, max_size_, Intent::stream});
    }
  return jobs;
}

Spec Studies::fence_at_end() const {
  return widest(cpu_, [](const MethodInfo &mi) {
    return mi.store == Store::move && mi.nontemporal && mi.width <= kFenceStudyWidth;
  });
}

std::vector<uint64_t> Studies::fence_sizes() const {
  std::vector<uint64_t> out;
  for (uint64_t s : {uint64_t(64) << 10, uint64_t(2) << 20, uint64_t(64) << 20})
    if (s >= min_size_ && s <= max_size_) out.push_back(s);
  return out;
}

std::vector<Job> Studies::fence_jobs() const {
  std::vector<Job> jobs;
  const Spec at_end = fence_at_end(), per_chunk = fenced_per_chunk(at_end);
  for (uint64_t size : fence_sizes()) {
    jobs.push_back({at_end, size, Intent::stream});
    jobs.push_back({per_chunk, size, Intent::stream});
  }
  return jobs;
}

// The no-allocate sweep so far: rep stosb and the temporal reference, clearing only, from
// sweep_from() up.
Studies::Sweep Studies::no_allocate_sweep(const std::vector<Measurement> &all) const {
  Sweep sw;
  const Candidate stosb = default_spec(Method::stosb), ref = temporal_reference(cpu_);
  for (const Measurement &m : all) {
    if (m.intent != Intent::stream || m.size < sweep_from() || !plain(m)) continue;
    if (m.candidate == stosb)
      sw.stosb.push_back(m);
    else if (m.candidate == ref)
      sw.temporal.push_back(m);
  }
  return sw;
}

Findings Studies::findings(const std::vector<Measurement> &all, const std::vector<SizeClass> &reuse,
                           const std::vector<SizeClass> &stream) const {
  std::vector<Measurement> plain_ones;
  for (const Measurement &m : all)
    if (plain(m)) plain_ones.push_back(m);

  Findings f;
  f.no_allocate_reference = temporal_reference(cpu_);
  Sweep sw = no_allocate_sweep(all);
  f.stosb_no_allocate = find_no_allocate(sw.stosb, sw.temporal);
  if (sw.stosb.empty())
    f.stosb_no_allocate.reason = "the largest size tuned is below the sweep's first, " +
                                 std::to_string(sweep_from()) + " bytes";

  for (Method method : string_ops()) {
    ChunkStudy c;
    c.method = std::string(info(method).name);
    c.size = max_size_;
    for (uint64_t chunk : kStudyChunks) {
      Spec s = default_spec(method);
      s.chunk = chunk;
      auto g = pooled_gbps(plain_ones, Intent::stream, s);
      if (auto it = g.find(max_size_); it != g.end()) c.gbps[chunk] = it->second;
    }
    c.smallest_90 = smallest_good_chunk(c.gbps);
    if (!c.gbps.empty()) f.chunks.push_back(c);
  }

  FenceStudy fs;
  fs.at_end = format_spec(fence_at_end());
  fs.per_chunk = format_spec(fenced_per_chunk(fence_at_end()));
  auto per_chunk = pooled_gbps(plain_ones, Intent::stream, fenced_per_chunk(fence_at_end())),
       at_end = pooled_gbps(plain_ones, Intent::stream, fence_at_end());
  for (uint64_t size : fence_sizes())
    if (per_chunk.count(size) && at_end.count(size))
      fs.gbps[size] = {per_chunk[size], at_end[size]};
  if (!fs.gbps.empty()) f.fence = fs;
  f.nontemporal_reuse = nontemporal_from(reuse);
  f.nontemporal_stream = nontemporal_from(stream);
  return f;
}

} // namespace cjit::detail
