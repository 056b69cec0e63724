#include "tuner/bench/bench.hpp"

#include "tuner/measure/c_library.hpp"
#include "tuner/stages/parallel_stage.hpp"

#include "tuner/formats/raw.hpp"
#include "tuner/text/format.hpp"

#include "clearjit/clearjit.h"
#include "jit/emit/emit.hpp"
#include "jit/runtime/runtime.hpp"
#include "tuner/stages/smallpath.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace cjit::detail {
namespace {

clearjit *open_or_throw(const std::string &path) {
  char err[8192];
  clearjit *cj = clearjit_open(path.empty() ? nullptr : path.c_str(), err, sizeof err);
  if (!cj) throw std::runtime_error(err);
  return cj;
}

// Puts one pooled measurement of a row's point into its column.
// `small`: the small path per intent, which serves sizes up to its max whatever the class.
void fill_row(BenchRow &row, const Measurement &x, const clearjit *cj, const SmallPath *small) {
  row.size = x.size;
  row.intent = x.intent;
  if (x.candidate == kTuned) {
    row.tuned = x.gbps;
    row.tuned_cv = x.cv;
    const SmallPath &sp = small[size_t(x.intent)];
    row.tuned_kernel = x.size <= sp.max ? "small: " + std::string(info(sp.strategy).name)
                       : x.batched
                           ? std::string(clearjit_kernel_for(cj, CLEARJIT_STREAM_BATCH, x.size))
                           : clearjit_kernel_for(cj, clearjit_intent(x.intent), x.size);
    return;
  }
  if (x.candidate.is_memset()) {
    row.memset = x.gbps;
    row.memset_cv = x.cv;
  }
  if (row.batched) {
    if (x.candidate == kTunedPerCall) row.oracle = x.gbps, row.oracle_kernel = x.candidate.name();
    return;
  }
  if (x.gbps > row.oracle) {
    row.oracle = x.gbps;
    row.oracle_kernel = x.candidate.name();
  }
}

} // namespace

MeasureOptions measure_options(const BenchOptions &o, const char *label) {
  return {.repetitions = o.repetitions,
          .min_time = o.min_time,
          .benchmark_flags = o.benchmark_flags,
          .progress = o.progress,
          .label = label};
}

std::vector<uint64_t> default_bench_sizes() {
  const uint64_t K = 1024, M = K * K;
  return {8, 64,    256,    4 * K,  16 * K, 64 * K,  256 * K,
          M, 4 * M, 16 * M, 32 * M, 64 * M, 256 * M, 1024 * M};
}

std::vector<uint64_t> default_warm_sizes() {
  return {1,  2,  3,  4,  7,  8,   12,  15,  16,  24,  31,  32,  33,
          48, 63, 64, 65, 96, 100, 127, 128, 129, 160, 200, 255, 256};
}

BenchPlan plan_bench(const BenchOptions &o, const CpuInfo &cpu) {
  BenchPlan c;
  c.opened.reset(open_or_throw(o.profile), clearjit_close);
  const clearjit *cj = c.opened.get();
  c.source = clearjit_profile_source(cj);
  std::set<Candidate> kernels;
  for (const MethodInfo &mi : methods())
    if (unsupported_reason(default_spec(mi.method), cpu).empty())
      kernels.insert(default_spec(mi.method));
  // The profile's own kernels: what the tuner chose must also be measured alone.
  const Profile &profile = opened_profile(cj);
  for (uint64_t size : o.sizes)
    for (Intent i : o.intents)
      kernels.insert(class_for(profile.table(i), size).kernel);
  c.kernels.assign(kernels.begin(), kernels.end());
  for (Pattern p : o.patterns)
    for (uint64_t size : o.sizes)
      for (Intent i : o.intents) {
        if (p == Pattern::cached && size > cpu.l2_bytes()) continue;
        if (p == Pattern::hot && size > hot_limit(cpu)) continue; // the tuner's limit too
        c.jobs.push_back(in_pattern({kTuned, cj, size, i}, p));
        for (const Candidate &k : c.kernels)
          if (p == Pattern::scattered || k.is_memset())
            c.jobs.push_back(in_pattern({*k.kernel(), size, i}, p));
      }
  // Huge regions on several threads, scattered, with one thread and memset beside.
  const unsigned cpus = usable_cpus();
  for (uint64_t size : o.sizes)
    for (Intent i : o.intents)
      if (size >= o.parallel_from &&
          std::find(o.patterns.begin(), o.patterns.end(), Pattern::scattered) != o.patterns.end()) {
        c.parallel_jobs.push_back({default_spec(Method::libc), size, i});
        c.parallel_jobs.push_back(parallel_job(kParallelOne, cj, size, i, 1));
        c.parallel_jobs.push_back(parallel_job(kParallelTuned, cj, size, i, 0));
        if (cpus > 1) c.parallel_jobs.push_back(parallel_job(kParallelAll, cj, size, i, cpus));
      }
  // Batches: the dispatcher per call is in the rows above when the size is; here it is
  // measured again beside its batched self, with memset, in both cold patterns and cached.
  for (Pattern p : {Pattern::scattered, Pattern::consecutive, Pattern::cached})
    for (uint64_t size : o.batch_sizes) {
      if (p == Pattern::cached && size > cpu.l2_bytes()) continue;
      c.jobs.push_back(in_pattern({kTuned, cj, size, Intent::stream}, p, true));
      c.jobs.push_back(in_pattern({kTuned, cj, size, Intent::stream}, p));
      c.jobs.push_back(in_pattern({default_spec(Method::libc), size, Intent::stream}, p));
    }
  if (o.warm) {
    std::vector<std::pair<uint64_t, Mix>> cases;
    for (uint64_t size : o.warm_sizes.empty() ? default_warm_sizes() : o.warm_sizes)
      cases.push_back({size, Mix::fixed});
    cases.push_back({0, Mix::log_uniform});
    cases.push_back({0, Mix::objects});
    std::vector<const clearjit *> handles{cj};
    while (handles.size() < size_t(kWarmPlacements)) {
      c.placements.emplace_back(open_or_throw(o.profile), clearjit_close);
      handles.push_back(c.placements.back().get());
    }
    for (Intent i : o.intents)
      for (auto [size, mix] : cases) {
        for (int place = 0; place < kWarmPlacements; ++place) {
          const clearjit *h = handles[size_t(place)];
          c.jobs.push_back(warm_job(kTuned, Call::exported, i, size, mix, nullptr, h, place));
          c.jobs.push_back(warm_job(kTunedInline, Call::inlined, i, size, mix, nullptr, h, place));
          c.jobs.push_back(
              warm_job(memset_candidate(), Call::memset, i, size, mix, nullptr, nullptr, place));
        }
      }
  }
  return c;
}

namespace {

// clearjit_open with code generation, as an application pays it once: ms, the median of 21.
double median_open_ms(const std::string &profile) {
  std::vector<double> ms;
  for (int i = 0; i < 21; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    clearjit_close(open_or_throw(profile));
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return median(ms);
}

using RowKey = std::tuple<bool, Pattern, Intent, uint64_t>; // batched, pattern, intent, size
using WarmKey = std::tuple<Intent, Mix, uint64_t>;

// A run's measurements by the row they belong to.
struct RowMeasurements {
  std::map<RowKey, std::vector<Measurement>> cold;
  std::map<WarmKey, WarmRow> warm; // the rows, their times filled in by warm_rows
  // ns per call of each placement, per (case, candidate): geometric means in warm_rows
  std::map<std::pair<WarmKey, Candidate>, std::vector<double>> warm_ns;
};

// The batch section's per-call and memset measurements repeat points of the main table, so they
// are put into both.
RowMeasurements sort_by_row(const std::vector<Measurement> &ms, const BenchOptions &o) {
  RowMeasurements out;
  for (const Measurement &x : ms) {
    if (x.warm) {
      WarmRow &w = out.warm[{x.intent, x.mix, x.size}];
      w.intent = x.intent;
      w.mix = x.mix;
      w.size = x.size;
      if (x.ns > 0) out.warm_ns[{{x.intent, x.mix, x.size}, x.candidate}].push_back(x.ns);
      continue;
    }
    // The batch section's per-call rows join the main tables only where those were asked for.
    const bool asked = std::find(o.sizes.begin(), o.sizes.end(), x.size) != o.sizes.end() &&
                       std::find(o.intents.begin(), o.intents.end(), x.intent) != o.intents.end();
    if (x.batched || asked) out.cold[{x.batched, x.pattern, x.intent, x.size}].push_back(x);
    if (x.batched) continue;
    if (std::find(o.batch_sizes.begin(), o.batch_sizes.end(), x.size) != o.batch_sizes.end() &&
        x.intent == Intent::stream)
      out.cold[{true, x.pattern, x.intent, x.size}].push_back(x);
  }
  return out;
}

// The cold and batch rows, in key order: scattered first, then consecutive, then cached, then
// the batches; by intent and size within each.
std::vector<BenchRow> cold_rows(const std::map<RowKey, std::vector<Measurement>> &cold,
                                const clearjit *cj, const SmallPath *small) {
  std::map<RowKey, BenchRow> rows;
  for (const auto &[key, xs] : cold) {
    // One pooled measurement per candidate; in a batched row the tuned one is the batched one.
    std::map<Candidate, Measurement> pooled;
    for (const Measurement &x : xs) {
      // In a batch row the per-call dispatcher stands where the fastest kernel does elsewhere.
      const bool per_call = std::get<0>(key) && x.candidate == kTuned && !x.batched;
      const Candidate &as = per_call ? kTunedPerCall : x.candidate;
      Measurement &m = pooled[as];
      add_samples(m, x);
      m.candidate = as;
    }
    BenchRow &row = rows[key];
    row.batched = std::get<0>(key);
    row.pattern = std::get<1>(key);
    for (auto &[candidate, x] : pooled) {
      summarize(x);
      fill_row(row, x, cj, small);
    }
  }
  std::vector<BenchRow> out;
  for (const auto &[key, row] : rows)
    out.push_back(row);
  return out;
}

// The warm rows, each time the geometric mean over its placements: intents, then fixed sizes in
// order, then the mixes.
std::vector<WarmRow> warm_rows(RowMeasurements &m) {
  for (const auto &[key, ns] : m.warm_ns) {
    WarmRow &w = m.warm[key.first];
    (key.second == kTuned         ? w.tuned
     : key.second == kTunedInline ? w.inlined
                                  : w.memset) = geomean(ns);
  }
  std::vector<WarmRow> out;
  for (auto &[key, w] : m.warm)
    out.push_back(w);
  return out;
}

// The parallel jobs in their own run (kParallelRepetitions), as rows by intent and size; their
// measurements are appended to `measurements`.
std::vector<ParallelRow> measure_parallel(Meter &bench, const BenchPlan &c, const BenchOptions &o,
                                          std::vector<Measurement> &measurements) {
  MeasureOptions po = measure_options(o, "bench, several threads");
  po.repetitions = std::max(po.repetitions, kParallelRepetitions);
  po.min_time = std::max(po.min_time, kParallelMinTime);
  std::map<std::pair<Intent, uint64_t>, ParallelRow> parallel;
  for (const Measurement &x : bench.run(c.parallel_jobs, po)) {
    ParallelRow &p = parallel[{x.intent, x.size}];
    p.intent = x.intent;
    p.size = x.size;
    p.tuned_threads = clearjit_threads_for(c.opened.get(), clearjit_intent(x.intent), x.size);
    (x.candidate == kParallelOne     ? p.one
     : x.candidate == kParallelTuned ? p.tuned
     : x.candidate == kParallelAll   ? p.all
                                     : p.memset) = x.gbps;
    if (x.candidate == kParallelAll) p.all_threads = x.threads;
    measurements.push_back(x);
  }
  std::vector<ParallelRow> out;
  for (auto &[key, p] : parallel)
    out.push_back(p);
  return out;
}

} // namespace

BenchResult run_bench(const BenchOptions &o, const CpuInfo &cpu) {
  BenchResult r;
  if (o.sizes.empty() && !o.warm) throw std::invalid_argument("no sizes to measure");
  uint64_t largest = o.sizes.empty() ? 4096 : *std::max_element(o.sizes.begin(), o.sizes.end());
  for (uint64_t b : o.batch_sizes)
    largest = std::max(largest, b);
  HostMeter bench(cpu, largest);
  BenchPlan c = plan_bench(o, cpu);
  r.source = c.source;
  r.libc = running_c_library().name;
  r.open_ms = median_open_ms(o.profile);

  r.measurements = bench.run(c.jobs, measure_options(o, "bench"));
  const Profile &profile = opened_profile(c.opened.get());
  const SmallPath small[2] = {profile.small(Intent::reuse, cpu),
                              profile.small(Intent::stream, cpu)};
  r.small_reuse = describe(small[0]);
  r.small_stream = describe(small[1]);
  // Sorted before the parallel run appends its measurements, which make no cold or warm row.
  RowMeasurements rows = sort_by_row(r.measurements, o);
  r.rows = cold_rows(rows.cold, c.opened.get(), small);
  if (!c.parallel_jobs.empty()) r.parallel = measure_parallel(bench, c, o, r.measurements);
  r.warm = warm_rows(rows);
  return r;
}

namespace {

// The range the summary's means and worst cases cover (the large-size rows of the README).
constexpr uint64_t kSummaryFrom = 4096, kSummaryTo = 64ull << 20;

using Group = std::tuple<Pattern, Intent>;

// What the summary at the end of bench_text quotes, gathered from the tables above it.
struct BenchSummary {
  std::map<Group, std::vector<double>> vs_memset; // kSummaryFrom .. kSummaryTo
  std::map<Group, double> worst_oracle;
  // The fastest kernel measured at each size against memset: what any table could reach here.
  std::map<Group, std::vector<double>> best_vs_memset;
  std::map<Pattern, double> batched_4k; // batched 4 KiB stream clears against memset
};

// The heading and column names of a group of cold rows.
std::string cold_group_header(Pattern pattern, Intent intent) {
  const bool scattered = pattern == Pattern::scattered;
  std::ostringstream s;
  s << "\n"
    << intent_name(intent)
    << (intent == Intent::reuse ? " (clear, then one read pass)" : " (clear only)") << ", "
    << pattern_name(pattern) << " destinations"
    << (pattern == Pattern::cached
            ? " (half the L2 cleared piece by piece, round and round: in cache, up to the L2's "
              "size)"
        : pattern == Pattern::hot
            ? " (one buffer the caller wrote and read just before each clear, up to the L3's "
              "size)"
            : "")
    << "; below 4 KiB: ns per call, else GB/s\n";
  char h[256];
  std::snprintf(h, sizeof h, "  %-8s %-26s %9s %9s %8s %-28s %9s\n", "size", "tuned kernel",
                "tuned", "memset", "vs mem", scattered ? "fastest kernel here" : "",
                scattered ? "vs best" : "");
  s << h;
  return s.str();
}

// The rows measured a clear per call, a table per pattern and intent; their ratios in the
// summary's range go into `sum`.
std::string cold_text(const BenchResult &r, BenchSummary &sum) {
  std::ostringstream s;
  std::optional<Group> current;
  for (const BenchRow &row : r.rows) {
    if (row.batched) continue;
    const Group g{row.pattern, row.intent};
    const bool scattered = row.pattern == Pattern::scattered;
    if (current != g) {
      current = g;
      s << cold_group_header(row.pattern, row.intent);
      sum.worst_oracle[g] = 1e9;
    }
    if (!row.tuned || !row.memset) continue;
    bool small = row.size < 4096;
    auto show = [&](double gbps) {
      return small ? fmt("%.1f ns", double(row.size) / gbps) : fmt("%.1f", gbps);
    };
    double vs_mem = row.tuned / row.memset, vs_best = row.tuned / std::max(row.oracle, row.tuned);
    char line[400];
    std::snprintf(line, sizeof line, "  %-8s %-26s %9s %9s %7.2fx %-28s %9s\n",
                  human_bytes(row.size).c_str(), row.tuned_kernel.c_str(), show(row.tuned).c_str(),
                  show(row.memset).c_str(), vs_mem, scattered ? row.oracle_kernel.c_str() : "",
                  scattered ? fmt("%.2fx", vs_best).c_str() : "");
    s << line;
    if (row.size < kSummaryFrom || row.size > kSummaryTo) continue;
    if (scattered) {
      sum.worst_oracle[g] = std::min(sum.worst_oracle[g], vs_best);
      sum.best_vs_memset[g].push_back(std::max(row.oracle, row.tuned) / row.memset);
    }
    sum.vs_memset[g].push_back(vs_mem);
  }
  return s.str();
}

// Huge regions on several threads; empty where none was measured.
std::string parallel_text(const BenchResult &r) {
  if (r.parallel.empty()) return {};
  std::ostringstream s;
  s << "\nhuge regions on several threads (clearjit_clear_parallel), scattered destinations; "
       "GB/s\n";
  char h[256];
  std::snprintf(h, sizeof h, "  %-7s %-8s %8s %9s %14s %14s %8s %8s\n", "intent", "size", "memset",
                "1 thread", "tuned", "all CPUs", "tuned/1", "tuned/mem");
  s << h;
  for (const ParallelRow &p : r.parallel) {
    if (!p.one || !p.tuned || !p.memset) continue;
    char line[300];
    std::snprintf(
        line, sizeof line, "  %-7s %-8s %8.1f %9.1f %14s %14s %7.2fx %8.2fx\n",
        std::string(intent_name(p.intent)).c_str(), human_bytes(p.size).c_str(), p.memset, p.one,
        (fmt("%.1f", p.tuned) + " (" + std::to_string(p.tuned_threads) + ")").c_str(),
        p.all ? (fmt("%.1f", p.all) + " (" + std::to_string(p.all_threads) + ")").c_str() : "-",
        p.tuned / p.one, p.tuned / p.memset);
    s << line;
  }
  if (const ParallelRow *w = worst_parallel(r))
    s << "  worst tuned/1 thread: " << fmt("%.2fx", w->tuned / w->one) << " ("
      << intent_name(w->intent) << ", " << human_bytes(w->size) << ")\n";
  return s.str();
}

// Stream clears in batches against one call each; the 4 KiB ratios go into `sum`. Empty where
// no batch row was measured.
std::string batch_text(const BenchResult &r, BenchSummary &sum) {
  std::ostringstream s;
  bool batch_header = false;
  for (const BenchRow &row : r.rows) {
    if (!row.batched || !row.tuned || !row.memset) continue;
    if (!batch_header) {
      batch_header = true;
      s << "\nstream clears in batches (clearjit_batch_*: one sfence per 2 MiB of pieces) against "
           "one call each; GB/s\n";
      char h[256];
      std::snprintf(h, sizeof h, "  %-8s %-12s %-26s %9s %9s %9s %9s %9s\n", "size", "pattern",
                    "batch kernel", "batched", "per call", "memset", "batch/mem", "call/mem");
      s << h;
    }
    char line[400];
    std::snprintf(line, sizeof line, "  %-8s %-12s %-26s %9.1f %9.1f %9.1f %8.2fx %8.2fx\n",
                  human_bytes(row.size).c_str(), std::string(pattern_name(row.pattern)).c_str(),
                  row.tuned_kernel.c_str(), row.tuned, row.oracle, row.memset,
                  row.tuned / row.memset, row.oracle / row.memset);
    s << line;
    if (row.size == 4096) sum.batched_4k[row.pattern] = row.tuned / row.memset;
  }
  return s.str();
}

// The heading and column names of an intent's warm rows.
std::string warm_header(const BenchResult &r, Intent intent) {
  std::ostringstream s;
  s << "\n"
    << intent_name(intent)
    << (intent == Intent::reuse ? " (clear, then read the first and last byte)" : " (clear only)")
    << ", small path " << (intent == Intent::reuse ? r.small_reuse : r.small_stream) << "\n";
  char h[256];
  std::snprintf(h, sizeof h, "  %-22s %9s %9s %8s %9s %8s\n", "size", "memset", "clearjit",
                "vs mem", "exported", "vs mem");
  s << h;
  return s.str();
}

// The warm rows' worst and mean times over memset's, inlined and through the exported function.
struct WarmVerdict {
  double worst = 0, worst_exported = 0;
  std::string worst_what, worst_exported_what;
  std::vector<double> vs_inline, vs_exported;
  int slower = 0, rows = 0;

  void add(const std::string &tag, double inlined, double exported) {
    vs_inline.push_back(inlined);
    vs_exported.push_back(exported);
    ++rows;
    slower += inlined > 1.0;
    if (inlined > worst) worst = inlined, worst_what = tag;
    if (exported > worst_exported) worst_exported = exported, worst_exported_what = tag;
  }

  std::string text() const {
    std::ostringstream s;
    s << "\nverdict: warm small sizes and mixes, clearjit_clear time / memset time: "
      << (worst <= 1.0 ? "never slower than memset"
                       : "slower than memset in " + std::to_string(slower) + " of " +
                             std::to_string(rows) + " rows")
      << " (worst " << fmt("%.2fx", worst) << " at " << worst_what << ", geometric mean "
      << fmt("%.2fx", geomean(vs_inline)) << "; through the exported function: worst "
      << fmt("%.2fx", worst_exported) << " at " << worst_exported_what << ", geometric mean "
      << fmt("%.2fx", geomean(vs_exported)) << ")\n";
    return s.str();
  }
};

// Warm small sizes and mixes, a table per intent, and the verdict; empty where none was measured.
std::string warm_text(const BenchResult &r) {
  if (r.warm.empty()) return {};
  std::ostringstream s;
  s << "\nwarm (destination in L1, 64-byte lines at random, offsets 0..63), ns per call (thread "
       "CPU time), medians;\nclearjit_clear as the header inlines it (load cj->clear, call) "
       "and the exported function (call, indirect jump), memset called through a pointer;\n"
       "each the geometric mean over "
    << kWarmPlacements << " places: the profile opened " << kWarmPlacements
    << " times, and one generated timing loop copied to as many places, from which memset and "
       "clearjit are called alike\n";
  std::optional<Intent> current;
  WarmVerdict verdict;
  for (const WarmRow &w : r.warm) {
    if (current != w.intent) {
      current = w.intent;
      s << warm_header(r, w.intent);
    }
    if (!w.tuned || !w.memset || !w.inlined) continue;
    std::string what = w.mix == Mix::fixed ? human_bytes(w.size) : std::string(mix_name(w.mix));
    double a = w.inlined / w.memset, b = w.tuned / w.memset;
    char line[256];
    std::snprintf(line, sizeof line, "  %-22s %9.2f %9.2f %7.2fx %9.2f %7.2fx\n", what.c_str(),
                  w.memset, w.inlined, a, w.tuned, b);
    s << line;
    verdict.add(std::string(intent_name(w.intent)) + " " + what, a, b);
  }
  return s.str() + verdict.text();
}

// The summary: means and worst cases over kSummaryFrom .. kSummaryTo, and the batched 4 KiB.
std::string bench_summary_text(const BenchSummary &sum) {
  std::ostringstream s;
  s << "\nsummary (" << human_bytes(kSummaryFrom) << " .. " << human_bytes(kSummaryTo) << ")\n";
  std::map<Intent, std::vector<double>> both;
  for (auto &[g, v] : sum.vs_memset) {
    const auto &[pattern, intent] = g;
    if (pattern == Pattern::scattered || pattern == Pattern::consecutive) // the two cold ones
      both[intent].insert(both[intent].end(), v.begin(), v.end());
    s << "  " << intent_name(intent) << ", " << pattern_name(pattern)
      << ": geometric mean vs memset " << fmt("%.2fx", geomean(v)) << ", worst vs memset "
      << fmt("%.2fx", *std::min_element(v.begin(), v.end()));
    if (pattern == Pattern::scattered)
      s << ", worst vs the fastest kernel " << fmt("%.2fx", sum.worst_oracle.at(g))
        << "; the fastest kernel at each size: geometric mean "
        << fmt("%.2fx", geomean(sum.best_vs_memset.at(g))) << " memset";
    s << "\n";
  }
  for (auto &[intent, v] : both)
    s << "  " << intent_name(intent) << ", both patterns: geometric mean vs memset "
      << fmt("%.2fx", geomean(v)) << "\n";
  for (auto &[pattern, x] : sum.batched_4k)
    s << "  batched 4 KiB stream clears, " << pattern_name(pattern) << ": " << fmt("%.2fx", x)
      << " memset\n";
  return s.str();
}

} // namespace

const ParallelRow *worst_parallel(const BenchResult &r) {
  const ParallelRow *worst = nullptr;
  for (const ParallelRow &p : r.parallel)
    if (p.one && p.tuned && (!worst || p.tuned / p.one < worst->tuned / worst->one)) worst = &p;
  return worst;
}

std::string bench_text(const BenchResult &r) {
  BenchSummary sum;
  std::ostringstream s;
  s << "profile: " << r.source << (r.libc.empty() ? "" : "\nmemset: " + r.libc + "'s")
    << "\nclearjit_open (with code generation): " << fmt("%.2f", r.open_ms)
    << " ms (median of 21)\n";
  s << cold_text(r, sum);
  s << parallel_text(r);
  s << batch_text(r, sum);
  s << warm_text(r);
  s << bench_summary_text(sum);
  return s.str();
}

// The same keys and types as ever, written by nlohmann::json (indented by 2). GB/s, ns and ms are
// rounded to 3 decimals and cv to 4, as the file always had them. The parallel rows are not in it
// (they never were); their measurements are, in "measurements".
std::string bench_json(const BenchResult &r, const CpuInfo &cpu) {
  using nlohmann::ordered_json;
  ordered_json rows = ordered_json::array(), warm = ordered_json::array(),
               measurements = ordered_json::array();
  for (const BenchRow &x : r.rows)
    rows.push_back({{"size", x.size},
                    {"intent", std::string(intent_name(x.intent))},
                    {"pattern", std::string(pattern_name(x.pattern))},
                    {"batched", x.batched},
                    {"tuned_kernel", x.tuned_kernel},
                    {"tuned_gbps", round_to(x.tuned, 3)},
                    {"memset_gbps", round_to(x.memset, 3)},
                    {"oracle_kernel", x.oracle_kernel},
                    {"oracle_gbps", round_to(x.oracle, 3)}});
  for (const WarmRow &w : r.warm)
    warm.push_back({{"intent", std::string(intent_name(w.intent))},
                    {"mix", std::string(mix_name(w.mix))},
                    {"size", w.size},
                    {"tuned_ns", round_to(w.tuned, 3)},
                    {"inline_ns", round_to(w.inlined, 3)},
                    {"memset_ns", round_to(w.memset, 3)}});
  for (const Measurement &m : r.measurements) {
    nlohmann::ordered_json row = measurement_row(m);
    row["warm"] = m.warm;
    row["mix"] = std::string(mix_name(m.mix));
    row["ns"] = round_to(m.ns, 3);
    measurements.push_back(std::move(row));
  }
  return json_text({{"cpu", {{"vendor", cpu.vendor}, {"family", cpu.family}, {"model", cpu.model}}},
                    {"profile", r.source},
                    {"libc", r.libc},
                    {"open_ms", round_to(r.open_ms, 3)},
                    {"rows", std::move(rows)},
                    {"warm", std::move(warm)},
                    {"small", {{"reuse", r.small_reuse}, {"stream", r.small_stream}}},
                    {"measurements", std::move(measurements)}});
}

std::string small_study(const CpuInfo &cpu, const BenchOptions &o) {
  HostMeter bench(cpu, 4096);
  std::shared_ptr<clearjit> opened(open_or_throw(o.profile), clearjit_close);
  SmallStudy s = study_small(bench, opened_profile(opened.get()), cpu, measure_options(o, "small"),
                             RaceOptions{});
  return "profile: " + std::string(clearjit_profile_source(opened.get())) + "\n" +
         small_study_text(s);
}

} // namespace cjit::detail
