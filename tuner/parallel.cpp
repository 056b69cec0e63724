#include "parallel.hpp"

#include "choose.hpp"
#include "format.hpp"
#include "pool.hpp"
#include "runtime.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace cjit::detail {
namespace {

constexpr uint64_t kFirstSize = 2u << 20, kLastSize = 1ull << 30;
// Repetitions per measurement at the least: at 3, two identical single-thread calls of 2 MiB
// (reuse) measured 22.1 and 32.9 GB/s in one quick tune here (Zen 5, docs/design/parallel.md).
constexpr int kFewestRepetitions = 7;

Candidate label(unsigned threads) {
  return Candidate::labelled("clearjit_clear_parallel threads=" + std::to_string(threads));
}

} // namespace

std::vector<uint64_t> parallel_sizes(uint64_t min_size, uint64_t max_size) {
  std::vector<uint64_t> out;
  if (max_size < 2 * kFirstSize) return out; // no boundary to split at: one thread only
  for (uint64_t s = kFirstSize; s <= std::min(max_size, kLastSize); s *= 2)
    if (s >= min_size) out.push_back(s);
  return out;
}

std::vector<unsigned> parallel_counts(unsigned cpus) {
  cpus = std::clamp(cpus, 1u, kMaxThreads);
  std::vector<unsigned> out;
  for (unsigned c = 1; c <= std::min(cpus, 4u); ++c)
    out.push_back(c);
  for (unsigned c = 6; c < cpus; c = c % 3 == 0 ? c / 3 * 4 : c / 4 * 6) // 6, 8, 12, 16, 24, ...
    out.push_back(c);
  if (out.back() != cpus) out.push_back(cpus);
  return out;
}

std::vector<Job> parallel_jobs(const clearjit *cj, const std::vector<uint64_t> &sizes,
                               const std::vector<unsigned> &counts) {
  std::vector<Job> jobs;
  for (Intent intent : kIntents)
    for (uint64_t size : sizes) {
      jobs.push_back({default_spec(Method::libc), size, intent}); // memset beside, for the summary
      for (unsigned threads : counts) {
        jobs.push_back(parallel_job(label(threads), cj, size, intent, threads));
      }
    }
  return jobs;
}

double parallel_seconds(const Bench &bench, const MeasureOptions &o, unsigned cpus,
                        uint64_t min_size, uint64_t max_size) {
  if (cpus < 2) return 0;
  MeasureOptions more = o;
  more.repetitions = std::max(2 * o.repetitions, kFewestRepetitions);
  // One round: the estimate assumes 24 GB/s, where a stream clear of 1 GiB runs at ~90 here (a
  // quick tune's parallel stage was estimated at 12.0 s and took 3.9), which leaves room for a
  // confirming round where more threads won.
  return bench.estimate_seconds(
      parallel_jobs(nullptr, parallel_sizes(min_size, max_size), parallel_counts(cpus)), more);
}

ParallelStudy study_parallel(Bench &bench, const Profile &p, const CpuInfo &cpu,
                             const MeasureOptions &o, uint64_t min_size, uint64_t max_size) {
  const auto start = std::chrono::steady_clock::now();
  ParallelStudy s;
  s.cpus = usable_cpus();
  s.sizes = parallel_sizes(min_size, max_size);
  if (s.cpus < 2) {
    s.skipped = "one usable CPU: nothing to measure";
    return s;
  }
  if (s.sizes.empty()) {
    s.skipped = "no size of 2 MiB..1 GiB in the tuned range, or none above 4 MiB";
    return s;
  }
  s.counts = parallel_counts(s.cpus);
  std::string error;
  std::unique_ptr<clearjit, void (*)(clearjit *)> cj(open_profile(p, cpu, error), clearjit_close);
  if (!cj) throw std::runtime_error("parallel stage: " + error);
  // The workers start before anything is timed, as in a program that has cleared before.
  {
    const size_t n = size_t(2 * kFirstSize) * s.counts.back();
    auto warm = std::make_unique_for_overwrite<unsigned char[]>(n); // the clear writes it
    clearjit_clear_parallel(cj.get(), CLEARJIT_STREAM, warm.get(), n, s.counts.back());
  }
  // Twice the level's repetitions (a cold large clear is noisy and this stage is cheap); then
  // every count again at each size where more threads won, so that a count is written only
  // where the second round alone agrees (choose_parallel_confirmed).
  MeasureOptions more = o;
  more.repetitions = std::max(2 * o.repetitions, kFewestRepetitions);
  const std::vector<Measurement> first =
      bench.run(parallel_jobs(cj.get(), s.sizes, s.counts), more);
  std::vector<Job> again;
  for (Intent intent : kIntents)
    if (auto t = choose_parallel(first, intent))
      for (size_t i = 0; i < t->sizes.size(); ++i)
        if (t->threads[i] > 1)
          for (unsigned threads : s.counts)
            again.push_back(parallel_job(label(threads), cj.get(), t->sizes[i], intent, threads));
  std::vector<Measurement> second;
  if (!again.empty()) {
    more.label = "parallel, confirming";
    second = bench.run(again, more);
  }
  s.reuse = choose_parallel_confirmed(first, second, Intent::reuse);
  s.stream = choose_parallel_confirmed(first, second, Intent::stream);
  s.measurements = first;
  s.measurements.insert(s.measurements.end(), second.begin(), second.end());
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

double parallel_gbps(const ParallelStudy &s, Intent intent, uint64_t size, unsigned threads) {
  std::vector<double> v;
  for (const Measurement &m : s.measurements)
    if (m.intent == intent && m.size == size && m.threads == threads &&
        (threads || m.candidate.is_memset()))
      v.insert(v.end(), m.samples.begin(), m.samples.end());
  return median(v);
}

std::string parallel_text(const ParallelStudy &s) {
  std::ostringstream t;
  t << "\nparallel (clearjit_clear_parallel, " << s.cpus << " usable CPUs";
  if (!s.skipped.empty()) return t.str() + "): not measured, " + s.skipped + "\n";
  t << ", " << fmt("%.1f", s.seconds) << " s; GB/s, medians)\n";
  for (Intent intent : kIntents) {
    const std::optional<ParallelTable> &table = intent == Intent::reuse ? s.reuse : s.stream;
    t << "  " << intent_name(intent) << ": "
      << (table && table->from() ? "threads pay from " + human_bytes(table->from())
                                 : std::string("more threads never paid"))
      << "\n    size         memset";
    char cell[64];
    for (unsigned c : s.counts) {
      std::snprintf(cell, sizeof cell, "  %3u thread%s", c, c == 1 ? " " : "s");
      t << cell;
    }
    t << "   chosen\n";
    for (uint64_t size : s.sizes) {
      auto gbps = [&](unsigned threads) { return parallel_gbps(s, intent, size, threads); };
      std::snprintf(cell, sizeof cell, "    %-10s %7.1f", human_bytes(size).c_str(), gbps(0));
      t << cell;
      for (unsigned c : s.counts) {
        std::snprintf(cell, sizeof cell, "  %11.1f", gbps(c));
        t << cell;
      }
      t << "   " << (table ? table->at(size) : 1u) << "\n";
    }
  }
  return t.str();
}

} // namespace cjit::detail
