// `clearjit bench --mix`: memset and the dispatcher on a recorded trace's sizes.
#include "tuner/bench/mix.hpp"

#include "clearjit/clearjit.h"
#include "tuner/measure/measure.hpp" // median, as every other measurement takes it
#include "tuner/text/format.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>

namespace cjit::detail {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

} // namespace

MixResult measure_mix(const Histogram &h, const clearjit *cj, uint64_t l2, uint64_t l3,
                      int repetitions) {
  MixResult r;
  r.source = clearjit_profile_source(cj);
  uint64_t largest = 0;
  for (int k = 1; k < Histogram::kOctaves; ++k)
    if (h.calls[k]) {
      MixRow row;
      row.octave = k;
      row.calls = h.calls[k];
      row.bytes = h.bytes[k];
      row.size = std::max<uint64_t>(1, (row.bytes + row.calls / 2) / row.calls);
      row.warm = row.size < l2;
      largest = std::max(largest, row.size);
      r.rows.push_back(row);
    }
  // Cold sizes rotate through an arena of at least 4x the L3 (64 MiB when the L3 is unknown).
  const uint64_t page = 4096, slot_max = (largest + page - 1) / page * page;
  const bool any_cold = std::any_of(r.rows.begin(), r.rows.end(), [](auto &w) { return !w.warm; });
  const uint64_t arena_size =
      any_cold ? std::max<uint64_t>(std::max<uint64_t>(4 * l3, 64 << 20), 2 * slot_max)
               : slot_max + page;
  void *arena = mmap(nullptr, arena_size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (arena == MAP_FAILED)
    throw std::runtime_error("cannot map a " + human_bytes(arena_size) + " arena");
  auto *base = static_cast<unsigned char *>(arena);
  std::memset(base, 1, arena_size);
  using Fn = void (*)(const clearjit *, void *, size_t);
  Fn libc = [](const clearjit *, void *p, size_t n) { std::memset(p, 0, n); };
  Fn tuned = [](const clearjit *c, void *p, size_t n) { clearjit_clear(c, p, n); };
  for (MixRow &row : r.rows) {
    const uint64_t slot = (row.size + page - 1) / page * page, slots = arena_size / slot;
    uint64_t next = 0;
    auto run = [&](Fn f, uint64_t calls) {
      auto t0 = Clock::now();
      for (uint64_t c = 0; c < calls; ++c) {
        unsigned char *p = row.warm ? base : base + (next++ % slots) * slot;
        f(cj, p, row.size);
        asm volatile("" : : "r"(p) : "memory");
      }
      return seconds_since(t0) * 1e9 / double(calls);
    };
    uint64_t calls = 1;
    while (run(libc, calls) * double(calls) < 2e6 && calls < (uint64_t(1) << 30))
      calls *= 2;
    calls = std::max<uint64_t>(1, calls * 5); // about 10 ms
    std::vector<double> a, b;
    for (int i = 0; i < repetitions; ++i) {
      a.push_back(run(libc, calls));
      b.push_back(run(tuned, calls));
    }
    row.memset_ns = median(a);
    row.tuned_ns = median(b);
  }
  munmap(arena, arena_size);
  return r;
}

std::string mix_text(const MixResult &r) {
  std::ostringstream o;
  o << "the recorded mix: memset against the dispatcher (" << r.source
    << "), ns per call at each octave's mean size, medians\n";
  char line[200];
  std::snprintf(line, sizeof line, "  %-22s %10s %5s %12s %12s %12s %8s\n", "size", "mean", "",
                "calls", "memset ns", "clearjit ns", "vs mem");
  o << line;
  double all_memset = 0, all_tuned = 0, preload = 0;
  for (const MixRow &row : r.rows) {
    std::snprintf(line, sizeof line, "  %-22s %10llu %5s %12llu %12.1f %12.1f %7.2fx\n",
                  octave_range(row.octave).c_str(), (unsigned long long)row.size,
                  row.warm ? "warm" : "cold", (unsigned long long)row.calls, row.memset_ns,
                  row.tuned_ns, row.tuned_ns > 0 ? row.memset_ns / row.tuned_ns : 0.0);
    o << line;
    all_memset += double(row.calls) * row.memset_ns;
    all_tuned += double(row.calls) * row.tuned_ns;
    preload += double(row.calls) * (row.size >= r.preload_min ? row.tuned_ns : row.memset_ns);
  }
  if (all_memset <= 0) return o.str() + "no zero fills above 0 bytes in the trace\n";
  o << "weighted by the recorded calls: memset " << fmt("%.3f", all_memset / 1e6)
    << " ms, every call through clearjit " << fmt("%.3f", all_tuned / 1e6) << " ms ("
    << fmt("%.2fx", all_memset / all_tuned) << "), as the preload does it (libc below "
    << human_bytes(r.preload_min) << ") " << fmt("%.3f", preload / 1e6) << " ms ("
    << fmt("%.2fx", all_memset / preload) << ")\n";
  return o.str();
}

} // namespace cjit::detail
