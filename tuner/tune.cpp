// A tuning run's stages: the grid, variants, cached and consecutive destinations, batches,
// bisections and noisy points, each fitted to the time budget; then the tables are chosen, the
// studies read and the small path studied on the chosen tables.
#include "tune.hpp"

#include "format.hpp"
#include "plan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <set>
#include <tuple>

namespace cjit::detail {
namespace {

using Clock = std::chrono::steady_clock;

// Below this fraction of memset's speed with consecutive destinations a scattered-only pick is
// worth reporting (the promise's floor: no class under 0.97x memset in either pattern).
constexpr double kConsecutiveFloor = 0.97;

// Repetitions of a cached measurement (stage 3a).
constexpr int kCachedReps = 3;

// What the stages that keep a table robust (consecutive destinations, noisy points) shrink to
// when the time limit is short, rather than being dropped: the fewest repetitions a median is
// taken from, and the fewest noisy jobs measured again.
constexpr int kFewestReps = 3;
constexpr size_t kFewestNoisy = 16;

// Class boundaries per intent the verification's time is reserved for, before the tables exist:
// the installed Zen 5 profile has 2 for reuse and 4 for stream (profiles/amd-family26-model2.toml).
constexpr int kTypicalBoundaries = 5;

class Tuner {
public:
  Tuner(const TuneOptions &o, const CpuInfo &cpu)
      : o_(o), cpu_(cpu), plan_(plan_for(o.level)), bench_(cpu, o.max_size),
        studies_(cpu, o.min_size, o.max_size) {
    budget_ = o.time_limit > 0 ? o.time_limit : plan_.budget;
    for (const Spec &s : candidates(Level::quick))
      if (unsupported_reason(s, cpu).empty()) methods_.push_back(s);
    for (const Spec &s : candidates(o.level))
      if (unsupported_reason(s, cpu).empty()) pool_.push_back(s);
  }

  TuneResult run() {
    start_ = Clock::now();
    TuneResult r;
    // The small-path study and the verification run last, on the chosen tables: their time is
    // set aside first, and neither is ever skipped. A limit they nearly fill alone still leaves
    // the stages a tenth (budget_ <= 0 means none).
    if (budget_ > 0) {
      const double last =
          small_study_seconds(bench_, cpu_, options("")) +
          parallel_seconds(bench_, options(""), usable_cpus(), o_.min_size, o_.max_size) +
          verify_seconds(bench_, cpu_, options(""), kTypicalBoundaries);
      if (last > 0.9 * budget_)
        notes_.push_back("the small-path study, the parallel stage and the verification alone "
                         "take about " +
                         fmt("%.0f", last) + " s of the " + fmt("%.0f", budget_) + " s limit");
      budget_ = std::max(budget_ - last, 0.1 * budget_);
    }
    r.level = std::string(level_name(o_.level));
    grid_ = size_grid(o_.min_size, o_.max_size, plan_.steps_per_octave);

    // Stage 1: every method's default spec on the grid, plus the findings' sweeps, interleaved.
    std::vector<Job> jobs = grid_jobs();
    std::vector<Job> sweep = studies_.no_allocate_jobs(), chunk = studies_.chunk_jobs(),
                     fence = studies_.fence_jobs();
    fit_stage_one(jobs, sweep);
    append(jobs, sweep);
    append(jobs, chunk);
    append(jobs, fence);
    measure(jobs, "measuring");

    // Stage 2: variants of the methods that lead somewhere.
    if (plan_.variants) measure(variant_jobs(), "variants");
    // Stage 3a: stream's contenders with a cached destination, up to the L2's size, so that a
    // non-temporal class pays for the memory traffic that memset saves there
    // (robust_measurements). First, as a cached call lost 3..5x here where a cold one gained
    // 1.2x (docs/results/amd-family26-model2/bench-cached-veto.txt); a cached clear varies less
    // than a cold one, so 3 repetitions do (a few seconds).
    if (std::vector<Job> cached = contender_jobs(1, Pattern::cached); cached.empty())
      ; // no size below the L2 tuned (--min-size)
    else if (fits(cached, kCachedReps))
      measure(cached, "cached destinations", kCachedReps);
    else
      notes_.push_back("cached destinations not measured, to fit the time limit: stream's "
                       "non-temporal classes are chosen from cold destinations alone");
    // Stage 3: the contenders again with consecutive destinations, so no class loses to memset
    // in either pattern; stage 4: stream clears in batches, both patterns. Both come before
    // the bisections: a robust table matters more than where exactly its boundaries fall.
    // Every size if that fits, else every second or fourth (the others are chosen from
    // scattered destinations alone).
    // Never dropped: a table chosen from scattered destinations alone lost to memset
    // consecutively (docs/results/intel-family6-model207/tune-default.txt skipped them). At
    // the least, every fourth size at the fewest repetitions.
    std::vector<Job> consecutive;
    int consecutive_reps = 0;
    for (size_t stride : {1, 2, 4})
      if (consecutive = contender_jobs(stride, Pattern::consecutive);
          fits(consecutive) || stride == 4) {
        if (!fits(consecutive)) consecutive_reps = kFewestReps;
        if (stride > 1)
          notes_.push_back(
              "consecutive destinations measured at every " +
              std::string(stride == 2 ? "second" : "fourth") + " size" +
              (consecutive_reps ? " with " + std::to_string(kFewestReps) + " repetitions" : "") +
              " to fit the time limit");
        break;
      }
    measure(consecutive, "consecutive destinations", consecutive_reps);
    if (std::vector<Job> batched = batch_jobs(); fits(batched))
      measure(batched, "batched stream clears");
    else
      notes_.push_back("batched stream clears not measured, to fit the time limit: batches use "
                       "the stream table");
    // Stage 5: bisection around every crossover (in both patterns where stage 3 ran), and
    // around the no-allocate step.
    for (int round = 0; round < plan_.refine_rounds; ++round) {
      std::vector<Job> refine = crossover_jobs();
      append(refine, studies_.step_jobs(all_));
      if (refine.empty()) break;
      if (!fits(refine)) {
        r.notes.push_back("refinement stopped after " + std::to_string(round) +
                          " rounds to fit the time limit");
        break;
      }
      measure(refine, "refining");
    }
    // Stage 6: points whose winner is uncertain (high cv) are measured again: never dropped,
    // at the least the noisiest few at the fewest repetitions.
    if (std::vector<Job> again = noisy_jobs(); !again.empty()) {
      if (fits(again)) {
        measure(again, "re-measuring noisy points");
      } else {
        const size_t all = again.size();
        while (again.size() > kFewestNoisy && !fits(again, kFewestReps))
          again.resize(again.size() * 3 / 4);
        // The cut must not leave a point without memset beside it.
        std::set<std::tuple<Intent, uint64_t, Pattern>> points, beside;
        for (const Job &j : again)
          (j.spec.method == Method::libc ? beside : points).insert({j.intent, j.size, j.pattern});
        for (const auto &[intent, size, pattern] : points)
          if (!beside.count({intent, size, pattern}))
            again.push_back(in_pattern({default_spec(Method::libc), size, intent}, pattern));
        notes_.push_back("noisy points: the " + std::to_string(again.size()) + " noisiest of " +
                         std::to_string(all) + " measured again with " +
                         std::to_string(kFewestReps) + " repetitions, to fit the time limit");
        measure(again, "re-measuring noisy points", kFewestReps);
      }
    }

    choose(r);
    // The small path last: its candidates are whole dispatchers over the chosen tables.
    Profile tables;
    tables.reuse = r.reuse;
    tables.stream = r.stream;
    r.small = study_small(bench_, tables, cpu_, options("small path"));
    verify_last(r);
    // Then the thread counts, through the verified tables and small paths as clearjit_open
    // makes them (the verification is the last stage that changes those); never skipped (a
    // few seconds: one clear per repetition at 1 GiB).
    tables.reuse = r.reuse;
    tables.stream = r.stream;
    tables.small_reuse = r.small->reuse;
    tables.small_stream = r.small->stream;
    tables.host = profile_host(cpu_);
    r.parallel =
        study_parallel(bench_, tables, cpu_, options("parallel"), o_.min_size, o_.max_size);
    r.measurements = all_;
    for (const Measurement &m : r.parallel->measurements) // memset's stay in the study: its
      if (m.threads) r.measurements.push_back(m);         // own run, not the report's curves
    r.notes.insert(r.notes.begin(), notes_.begin(), notes_.end());
    r.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    r.date = date;
    return r;
  }

private:
  // The verification: the profile about to be written, measured against memset apart from
  // what chose it, and repaired where it loses; the result's tables become the repaired ones.
  void verify_last(TuneResult &r) {
    Profile p;
    p.host = profile_host(cpu_);
    p.reuse = r.reuse;
    p.stream = r.stream;
    p.batch = r.batch;
    p.small_reuse = r.small->reuse;
    p.small_stream = r.small->stream;
    std::map<Intent, std::vector<SmallPath>> ranking;
    const std::vector<Measurement> stage1 = r.small->stage1_measurements();
    for (Intent i : kIntents)
      ranking[i] = rank_small(stage1, i);
    r.verification =
        verify(bench_, p, cpu_, options("verification"), ranking, o_.min_size, o_.max_size);
    r.reuse = p.reuse;
    r.stream = p.stream;
    r.small->reuse = *p.small_reuse;
    r.small->stream = *p.small_stream;
    // A class the verification gave to memset: memset's own speed over it, as the tables say.
    for (auto [table, memset] :
         {std::pair{&r.reuse, &r.memset_reuse}, {&r.stream, &r.memset_stream}}) {
      uint64_t lower = 0;
      for (SizeClass &c : *table) {
        if (c.gbps == 0 && c.kernel.method == Method::libc)
          c.gbps = memset_over_class(*memset, lower, c.below);
        lower = c.below;
      }
    }
  }

  static void append(std::vector<Job> &to, const std::vector<Job> &from) {
    to.insert(to.end(), from.begin(), from.end());
  }

  MeasureOptions options(const std::string &label, int repetitions = 0) const {
    return {.repetitions =
                repetitions > 0 ? std::min(repetitions, plan_.repetitions) : plan_.repetitions,
            .min_time = plan_.min_time,
            .benchmark_flags = o_.benchmark_flags,
            .progress = o_.progress,
            .label = label};
  }

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  double remaining() const { return budget_ > 0 ? budget_ - elapsed() : 1e30; }
  bool fits(const std::vector<Job> &jobs, int repetitions = 0) const {
    return bench_.estimate_seconds(jobs, options("", repetitions)) <= remaining();
  }

  void measure(const std::vector<Job> &jobs, const std::string &label, int repetitions = 0) {
    if (jobs.empty()) return;
    auto ms = bench_.run(jobs, options(label, repetitions));
    all_.insert(all_.end(), ms.begin(), ms.end());
  }

  std::vector<Job> grid_jobs() const {
    std::vector<Job> jobs;
    for (const Spec &s : methods_)
      for (uint64_t size : grid_)
        for (Intent i : kIntents)
          jobs.push_back({s, size, i});
    return jobs;
  }

  // Stage one must leave room for the rest: narrow the grid, then the repetitions, until it
  // takes at most half of the budget. The time limit narrows the search; it never fails it.
  void fit_stage_one(std::vector<Job> &jobs, std::vector<Job> &sweep) {
    auto est = [&] {
      std::vector<Job> all = jobs;
      append(all, sweep);
      return bench_.estimate_seconds(all, options(""));
    };
    while (budget_ > 0 && est() > 0.5 * budget_) {
      if (plan_.steps_per_octave > 1) {
        plan_.steps_per_octave /= 2;
        grid_ = size_grid(o_.min_size, o_.max_size, plan_.steps_per_octave);
        notes_.push_back("size grid narrowed to " + std::to_string(plan_.steps_per_octave) +
                         " step(s) per octave to fit the time limit");
      } else if (plan_.repetitions > 3) {
        plan_.repetitions = 3;
        notes_.push_back("repetitions reduced to 3 to fit the time limit");
      } else if (grid_.size() > 4) {
        std::vector<uint64_t> fewer;
        for (size_t i = 0; i < grid_.size(); i += 2)
          fewer.push_back(grid_[i]);
        if (fewer.back() != grid_.back()) fewer.push_back(grid_.back());
        grid_ = fewer;
        notes_.push_back("every other grid size dropped to fit the time limit");
      } else if (!sweep.empty()) {
        sweep.clear();
        notes_.push_back("no-allocate sweep skipped to fit the time limit");
      } else {
        break;
      }
      jobs = grid_jobs();
    }
  }

  bool runs(Method m) const { return unsupported_reason(default_spec(m), cpu_).empty(); }

  // The chooser's options for one intent's table: the crossover bisections are its partial sizes.
  ChooseOptions choose_options(Intent intent) const {
    ChooseOptions o;
    for (const auto &[i, size] : bisections_)
      if (i == intent) o.partial.insert(size);
    return o;
  }

  ComplexityMap complexity() {
    for (const Measurement &m : all_)
      if (!complexity_.count(m.spec)) complexity_[m.spec] = kernel_complexity(*parse_spec(m.spec));
    return complexity_;
  }

  // Grid-stage measurements of one intent (the tables are chosen from these plus refinements;
  // the studies' extra kernels do not compete).
  std::vector<Measurement> table_measurements() const {
    std::set<std::string> contenders;
    for (const Spec &s : methods_)
      contenders.insert(format_spec(s));
    for (const std::string &s : variants_)
      contenders.insert(s);
    // Only sizes where every contender was measured: the grid and the crossover bisections
    // (the findings' sweeps measure two kernels, which must not win a class by default).
    std::vector<Measurement> out;
    for (const Measurement &m : all_)
      if (contenders.count(m.spec) && plain(m) &&
          (std::binary_search(grid_.begin(), grid_.end(), m.size) ||
           bisections_.count({m.intent, m.size})))
        out.push_back(m);
    return out;
  }

  // Cached destinations are measured up to the L2's size, where the L2 holds the pieces cleared
  // round and round (beyond, they spill to the L3, whose size CPUID misstates on a VM: 508 MiB
  // here). Only stream and its batches are measured cached: reuse's read pass already makes a
  // non-temporal class pay for the lines it sent to memory.
  bool measured_cached(Intent intent, uint64_t size) const {
    return intent == Intent::stream && size <= cpu_.l2_bytes();
  }

  // At every point: the kernels within 10% of the best scattered there, the best of each
  // family (string, temporal, non-temporal) and memset, in another pattern: consecutive at
  // every `stride`-th size, or cached where measured_cached says.
  std::vector<Job> contender_jobs(size_t stride, Pattern pattern) const {
    std::vector<Job> jobs;
    const std::vector<Measurement> ms = table_measurements();
    for (Intent intent : kIntents) {
      size_t index = 0;
      for (const auto &[size, by_spec] : pooled_medians(ms, intent)) {
        if (index++ % stride) continue;
        if (pattern == Pattern::cached && !measured_cached(intent, size)) continue;
        double best = 0;
        std::map<std::string, std::pair<double, std::string>> family_best;
        for (const auto &[spec, g] : by_spec) {
          best = std::max(best, g);
          auto &fb = family_best[std::string(parse_spec(spec)->info().family)];
          if (g > fb.first) fb = {g, spec};
        }
        std::set<std::string> picked{memset_spec()};
        for (const auto &[spec, g] : by_spec)
          if (g >= 0.9 * best) picked.insert(spec);
        for (const auto &[family, fb] : family_best)
          picked.insert(fb.second);
        for (const std::string &spec : picked)
          if (by_spec.count(spec))
            jobs.push_back(in_pattern({*parse_spec(spec), size, intent}, pattern));
      }
    }
    return jobs;
  }

  // The candidates for batches: the widest non-temporal stores, clzero and movdir64b (which pay
  // their fence once per batch here), rep stosb, memset and the widest temporal stores, below
  // kBatchBytes, both patterns. From kBatchBytes on a batch is one clear: the stream
  // measurements serve. The narrower non-temporal methods are left out to fit the default
  // level's five minutes: without their fence they only add stores per line.
  std::vector<Spec> batch_candidates() const {
    std::vector<Spec> out{default_spec(Method::libc), default_spec(Method::stosb),
                          temporal_reference(cpu_)};
    for (Method m : {Method::ntavx512, Method::ntavx2, Method::ntsse})
      if (runs(m)) {
        out.push_back(default_spec(m));
        break;
      }
    for (Method m : {Method::clzero, Method::movdir64b})
      if (runs(m)) out.push_back(default_spec(m));
    return out;
  }
  // Every 2 * steps_per_octave-th grid size (one per two octaves, 4, 16, 64, 256 KiB, 1 MiB
  // from 4 KiB, unless stage 1 thinned the grid): a batch's choice changes slowly with the
  // piece size, and the stage must fit beside the others.
  std::vector<Job> batch_jobs() const {
    std::vector<Job> jobs;
    const size_t stride = size_t(2 * plan_.steps_per_octave);
    for (size_t k = 0; k < grid_.size() && grid_[k] < kBatchBytes; k += stride)
      for (const Spec &s : batch_candidates()) {
        for (Pattern p : kPatterns)
          jobs.push_back(in_pattern({s, grid_[k], Intent::stream}, p, true));
        if (measured_cached(Intent::stream, grid_[k]))
          jobs.push_back(in_pattern({s, grid_[k], Intent::stream}, Pattern::cached, true));
      }
    return jobs;
  }

  // The batch table's measurements in one pattern: batched ones below kBatchBytes, the stream
  // ones of the same kernels from there on.
  std::vector<Measurement> batch_measurements(Pattern p) const {
    std::set<std::string> kernels;
    for (const Spec &s : batch_candidates())
      kernels.insert(format_spec(s));
    std::vector<Measurement> out = select(all_, Intent::stream, p, true);
    for (const Measurement &m : select(all_, Intent::stream, p))
      if (m.size >= kBatchBytes && kernels.count(m.spec) &&
          std::binary_search(grid_.begin(), grid_.end(), m.size))
        out.push_back(m);
    return out;
  }

  // Where scattered destinations alone would have chosen a kernel of another family than both
  // patterns together, or one that loses to memset with consecutive destinations (what the
  // robust choice exists for), with each one's speed against memset in each pattern. Adjacent
  // sizes with the same two picks are one line, quoted at the first of them.
  void note_disagreements(TuneResult &r, const std::string &table, Intent intent,
                          const std::vector<Measurement> &scattered,
                          const std::vector<Measurement> &consecutive,
                          const std::vector<Measurement> &cached,
                          const std::vector<SizeClass> &chosen, const ComplexityMap &cx) const {
    if (consecutive.empty() && cached.empty()) return;
    const auto s = pooled_medians(scattered, intent), c = pooled_medians(consecutive, intent),
               in_cache = pooled_medians(cached, intent);
    auto vs_memset = [](const std::map<std::string, double> &at, const std::string &spec) {
      auto k = at.find(spec), m = at.find(memset_spec());
      return k == at.end() || m == at.end() || m->second <= 0 ? 0.0 : k->second / m->second;
    };
    // Against memset in one pattern at one size (0: not measured there).
    auto in = [&](const auto &pattern, uint64_t size, const std::string &spec) {
      auto at = pattern.find(size);
      return at == pattern.end() ? 0.0 : vs_memset(at->second, spec);
    };
    auto shown = [](double x) { return x > 0 ? fmt("%.2fx", x) : std::string("not measured"); };
    // ", 0.05x cached" where the size was measured cached (the veto's evidence)
    auto cached_part = [&](uint64_t size, const std::string &spec) {
      return in_cache.count(size) ? ", " + shown(in(in_cache, size, spec)) + " cached"
                                  : std::string();
    };
    struct Line {
      uint64_t first, last;
      std::string alone, pick, text;
    };
    std::vector<Line> lines;
    for (const Winner &w : winners(scattered, intent, cx, choose_options(intent))) {
      if (!std::binary_search(grid_.begin(), grid_.end(), w.size) ||
          (!c.count(w.size) && !in_cache.count(w.size)))
        continue;
      const std::string pick = format_spec(class_for(chosen, w.size).kernel);
      const double alone_c = in(c, w.size, w.spec);
      const bool other_family =
          parse_spec(pick)->info().family != parse_spec(w.spec)->info().family;
      if (pick == w.spec || (!other_family && !(alone_c > 0 && alone_c < kConsecutiveFloor)))
        continue;
      if (!lines.empty() && lines.back().alone == w.spec && lines.back().pick == pick) {
        lines.back().last = w.size;
        continue;
      }
      lines.push_back({w.size, w.size, w.spec, pick,
                       "scattered alone picks " + w.spec + " (" + shown(in(s, w.size, w.spec)) +
                           " memset scattered, " + shown(alone_c) + " consecutive" +
                           cached_part(w.size, w.spec) + "); chosen " + pick + " (" +
                           shown(in(s, w.size, pick)) + ", " + shown(in(c, w.size, pick)) +
                           cached_part(w.size, pick) + ")"});
    }
    for (const Line &l : lines)
      r.disagreements.push_back(table + " " + human_bytes(l.first) +
                                (l.last != l.first ? " .. " + human_bytes(l.last) + " (quoted at " +
                                                         human_bytes(l.first) + ")"
                                                   : std::string()) +
                                ": " + l.text);
  }

  // For every grid point, the variants of each method within 10% of the best default there.
  // The variants of every method whose default reached `fraction` of the best default at a size
  // (1.0: the leading method only), at that size.
  std::vector<Job> variants_within(double fraction, const std::vector<Measurement> &base) const {
    std::vector<Job> jobs;
    for (Intent intent : kIntents) {
      std::map<uint64_t, double> best;
      for (const Measurement &m : base)
        if (m.intent == intent) best[m.size] = std::max(best[m.size], m.gbps);
      for (const Measurement &m : base) {
        if (m.intent != intent || m.gbps < fraction * best[m.size]) continue;
        Method method = parse_spec(m.spec)->method;
        for (const Spec &v : pool_)
          // Chunked and unfenced variants are the studies' business, not dispatch candidates.
          if (v.method == method && !v.chunk && !(v == default_spec(method)) &&
              !(v.info().nontemporal && v.fence == Fence::none) &&
              // A hot head serves a reader, and only a minority part of the region.
              !(v.head && (intent != Intent::reuse || m.size <= 2 * v.head)))
            jobs.push_back({v, m.size, intent});
      }
    }
    return jobs;
  }

  // Variants of the methods within 10% of the best at each size; fewer if the time limit says so.
  std::vector<Job> variant_jobs() {
    std::vector<Measurement> base = table_measurements();
    std::vector<Job> jobs = variants_within(0.9, base);
    if (!fits(jobs)) {
      notes_.push_back(
          "variants measured only for the leading method at each size, to fit the time limit");
      jobs = variants_within(1.0, base);
      if (!fits(jobs)) {
        notes_.back() = "variants skipped to fit the time limit";
        jobs.clear();
      }
    }
    for (const Job &j : jobs)
      variants_.insert(format_spec(j.spec));
    return jobs;
  }

  // Both winners and memset at the geometric middle of every pair of sizes where the winner
  // changes, with consecutive and cached destinations too where those were measured.
  std::vector<Job> crossover_jobs() {
    std::vector<Job> jobs;
    for (Intent intent : kIntents) {
      const std::vector<Winner> ws = current_winners(intent);
      const size_t first = jobs.size();
      for (size_t i = 1; i < ws.size(); ++i) {
        if (ws[i].spec == ws[i - 1].spec || double(ws[i].size) / double(ws[i - 1].size) < 1.2)
          continue;
        uint64_t mid = round_boundary(std::sqrt(double(ws[i - 1].size) * double(ws[i].size)));
        if (mid <= ws[i - 1].size || mid >= ws[i].size) continue;
        for (const std::string &s : {ws[i - 1].spec, ws[i].spec})
          jobs.push_back({*parse_spec(s), mid, intent});
        bisections_.insert({intent, mid});
        // memset is measured everywhere the table is, so every class is compared with it.
        jobs.push_back({default_spec(Method::libc), mid, intent});
      }
      const bool consecutive = !select(all_, intent, Pattern::consecutive).empty(),
                 cached = !select(all_, intent, Pattern::cached).empty();
      for (size_t k = first, end = jobs.size(); k < end; ++k) {
        if (consecutive) jobs.push_back(in_pattern(jobs[k], Pattern::consecutive));
        if (cached && measured_cached(intent, jobs[k].size))
          jobs.push_back(in_pattern(jobs[k], Pattern::cached));
      }
    }
    return jobs;
  }

  // Noisy winners (cv above 5%) get more samples, in each pattern where they were noisy, and
  // memset beside them there: the robust choice compares the two.
  std::vector<Job> noisy_jobs() {
    // Noisiest first, each with memset beside it (once per point), so that a prefix of the
    // list is what to measure when not all of it fits.
    std::vector<std::pair<double, Job>> noisy;
    for (Intent intent : kIntents)
      for (const Winner &w : current_winners(intent))
        for (const Measurement &m : all_)
          if (m.intent == intent && m.size == w.size && m.spec == w.spec && !m.batched &&
              m.cv > 0.05)
            noisy.push_back({m.cv, in_pattern({*parse_spec(m.spec), m.size, intent}, m.pattern)});
    std::stable_sort(noisy.begin(), noisy.end(),
                     [](const auto &a, const auto &b) { return a.first > b.first; });
    std::vector<Job> jobs;
    std::set<std::tuple<Intent, uint64_t, Pattern>> beside;
    for (auto &[cv, job] : noisy) {
      jobs.push_back(job);
      if (beside.insert({job.intent, job.size, job.pattern}).second)
        jobs.push_back(in_pattern({default_spec(Method::libc), job.size, job.intent}, job.pattern));
    }
    return jobs;
  }

  // What a table is chosen from: both cold patterns together where the consecutive one was
  // measured, scattered destinations alone otherwise; cached destinations veto.
  static std::vector<Measurement> chosen_from(const std::vector<Measurement> &scattered,
                                              const std::vector<Measurement> &consecutive,
                                              const std::vector<Measurement> &cached) {
    return consecutive.empty() && cached.empty()
               ? scattered
               : robust_measurements(scattered, consecutive, cached);
  }

  // The winner at every size of one intent's table as the measurements so far choose it.
  std::vector<Winner> current_winners(Intent intent) {
    return winners(chosen_from(select(table_measurements(), intent, Pattern::scattered),
                               select(all_, intent, Pattern::consecutive),
                               select(all_, intent, Pattern::cached)),
                   intent, complexity(), choose_options(intent));
  }

  void choose(TuneResult &r) {
    ComplexityMap cx = complexity();
    std::vector<Measurement> ms = table_measurements();
    for (Intent intent : kIntents) {
      std::vector<Measurement> s = select(ms, intent, Pattern::scattered),
                               c = select(all_, intent, Pattern::consecutive),
                               w = select(all_, intent, Pattern::cached);
      const std::vector<Measurement> from = chosen_from(s, c, w);
      std::vector<SizeClass> &table = intent == Intent::reuse ? r.reuse : r.stream;
      table = dispatch_table(winners(from, intent, cx, choose_options(intent)));
      note_disagreements(r, std::string(intent_name(intent)), intent, s, c, w, table, cx);
      (intent == Intent::reuse ? r.memset_reuse : r.memset_stream) =
          pooled_gbps(from, intent, memset_spec());
    }
    // Sizes without consecutive measurements (from kBatchBytes on, without stage 3) are chosen
    // from their scattered ones (robust_measurements).
    if (std::vector<Measurement> bs = batch_measurements(Pattern::scattered),
        bc = batch_measurements(Pattern::consecutive);
        !select(all_, Intent::stream, Pattern::scattered, true).empty()) {
      // Cached: the batched measurements only (a batch of one clear, from kBatchBytes on, is
      // not measured cached as a batch candidate).
      const std::vector<Measurement> bw = select(all_, Intent::stream, Pattern::cached, true);
      const std::vector<Measurement> from = chosen_from(bs, bc, bw);
      r.batch = dispatch_table(winners(from, Intent::stream, cx));
      note_disagreements(r, "batch", Intent::stream, bs, bc, bw, r.batch, cx);
      r.memset_batch = pooled_gbps(from, Intent::stream, memset_spec());
    }
    r.findings = studies_.findings(all_, r.reuse, r.stream);
  }

  const TuneOptions &o_;
  const CpuInfo &cpu_;
  LevelPlan plan_;
  Bench bench_;
  Studies studies_;
  double budget_ = 0;
  Clock::time_point start_;
  std::vector<uint64_t> grid_;
  std::vector<Spec> methods_, pool_;
  std::set<std::string> variants_;
  std::set<std::pair<Intent, uint64_t>> bisections_;
  std::vector<Measurement> all_;
  ComplexityMap complexity_;
  std::vector<std::string> notes_;
};

} // namespace

TuneResult tune(const TuneOptions &options, const CpuInfo &cpu) {
  return Tuner(options, cpu).run();
}

} // namespace cjit::detail
