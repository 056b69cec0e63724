#include "tuner/stages/parallel_stage.hpp"

#include "jit/runtime/pool.hpp"
#include "jit/runtime/runtime.hpp"
#include "tuner/race/race.hpp"
#include "tuner/race/tables.hpp"
#include "tuner/text/format.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace cjit::detail {
namespace {

constexpr uint64_t kFirstSize = 2u << 20, kLastSize = 1ull << 30;
Candidate label(unsigned threads) { return parallel_label(threads); }

} // namespace

void add_parallel_size(std::optional<ParallelTable> &table, uint64_t size, const RaceOutcome &o) {
  if (!table) table.emplace();
  table->sizes.push_back(size);
  table->threads.push_back(threads_of(o.winner));
  double speedup = 1;
  for (const Standing &st : o.field)
    if (st.candidate == o.winner) speedup = std::round(st.score.median * 100) / 100;
  table->speedup.push_back(speedup); // as the profile writes it
}

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

ParallelStudy race_threads(Meter &bench, const clearjit *cj, const std::vector<uint64_t> &sizes,
                           const std::vector<unsigned> &counts, RaceOptions options,
                           const MeasureOptions &o, double seconds) {
  const auto start = std::chrono::steady_clock::now();
  ParallelStudy s;
  s.sizes = sizes;
  s.counts = counts;
  options.min_gain = kParallelGain;
  options.simpler = [](const Candidate &a, const Candidate &b) {
    return threads_of(a) < threads_of(b);
  };
  MeasureOptions measure = o;
  measure.label = o.label.empty() ? "parallel" : o.label;
  Racing racing(bench, options, measure);
  std::vector<std::pair<Intent, uint64_t>> at; // per race
  for (Intent intent : kIntents)
    for (uint64_t size : sizes) {
      Race race{.name = "parallel " + std::string(intent_name(intent)) + " " + human_bytes(size),
                .conditions = {{parallel_job(label(1), cj, size, intent, 1), true}},
                .candidates = {},
                .incumbent = label(1),
                .max_rounds = 0,
                .beside = {memset_candidate()},
                .job_for = [cj, size, intent](const Job &, const Candidate &who) {
                  return who.is_memset() ? Job(default_spec(Method::libc), size, intent)
                                         : parallel_job(who, cj, size, intent, threads_of(who));
                }};
      // Below two 2 MiB boundaries clearjit_clear_parallel cuts no pieces: one thread, unraced.
      if (size >= kFewestParallelBytes)
        for (unsigned threads : counts)
          if (threads > 1) race.candidates.push_back(label(threads));
      racing.add(std::move(race));
      at.push_back({intent, size});
    }
  racing.run(seconds);
  for (size_t k = 0; k < at.size(); ++k) {
    const RaceOutcome &outcome = racing.outcome(k);
    add_parallel_size(at[k].first == Intent::reuse ? s.reuse : s.stream, at[k].second, outcome);
    s.races.push_back(race_text(racing.race(k), outcome));
    s.records.push_back(racing.record(k, "parallel", at[k].first, at[k].second));
  }
  s.measurements = racing.measurements();
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

double parallel_seconds(const Meter &bench, const MeasureOptions &o, int rounds, unsigned cpus,
                        uint64_t min_size, uint64_t max_size) {
  if (cpus < 2) return 0;
  // One round: every count and memset at every size and intent, one sample each.
  std::vector<Job> jobs;
  for (Intent intent : kIntents)
    for (uint64_t size : parallel_sizes(min_size, max_size)) {
      jobs.push_back({default_spec(Method::libc), size, intent});
      for (unsigned threads : parallel_counts(cpus))
        jobs.push_back(parallel_job(label(threads), nullptr, size, intent, threads));
    }
  MeasureOptions one = o;
  one.repetitions = 1;
  return rounds * bench.estimate_seconds(jobs, one);
}

ParallelStudy study_parallel(Meter &bench, const Profile &p, const CpuInfo &cpu, unsigned cpus,
                             const RaceOptions &options, const MeasureOptions &o, uint64_t min_size,
                             uint64_t max_size, double seconds) {
  const std::vector<uint64_t> sizes = parallel_sizes(min_size, max_size);
  ParallelStudy none;
  none.cpus = cpus;
  none.sizes = sizes;
  if (cpus < 2) {
    none.skipped = "one usable CPU: nothing to measure";
    return none;
  }
  if (sizes.empty()) {
    none.skipped = "no size of 2 MiB..1 GiB in the tuned range, or none above 4 MiB";
    return none;
  }
  const std::vector<unsigned> counts = parallel_counts(cpus);
  std::string error;
  std::unique_ptr<clearjit, void (*)(clearjit *)> cj(open_generated(p, cpu, error), clearjit_close);
  if (!cj) throw std::runtime_error("parallel stage: " + error);
  // The workers start before anything is timed, as in a program that has cleared before.
  {
    const size_t n = size_t(2 * kFirstSize) * counts.back();
    auto warm = std::make_unique_for_overwrite<unsigned char[]>(n); // the clear writes it
    clearjit_clear_parallel(cj.get(), CLEARJIT_STREAM, warm.get(), n, counts.back());
  }
  ParallelStudy s = race_threads(bench, cj.get(), sizes, counts, options, o, seconds);
  s.cpus = cpus;
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
      for (unsigned c : s.counts) { // not raced below two 2 MiB boundaries: "-"
        if (gbps(c) > 0)
          std::snprintf(cell, sizeof cell, "  %11.1f", gbps(c));
        else
          std::snprintf(cell, sizeof cell, "  %11s", "-");
        t << cell;
      }
      t << "   " << (table ? table->at(size) : 1u) << "\n";
    }
  }
  return t.str();
}

} // namespace cjit::detail
