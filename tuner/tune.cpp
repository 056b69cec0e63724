// A tuning run: the measuring stages of Tuner::stages(), each fitted to the time budget, then
// the tables chosen (choose.hpp) and the stages of Tuner::last_stages() on the chosen tables.
#include "tune.hpp"

#include "format.hpp"
#include "plan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <set>
#include <span>
#include <tuple>

namespace cjit::detail {
namespace {

using Clock = std::chrono::steady_clock;

// Repetitions of a cached measurement.
constexpr int kCachedReps = 3;

// What the stages that keep a table robust (consecutive destinations, noisy points) shrink to
// when the time limit is short, rather than being dropped: the fewest repetitions a median is
// taken from, and the fewest noisy jobs measured again.
constexpr int kFewestReps = 3;
constexpr size_t kFewestNoisy = 16;

// Class boundaries per intent the verification's time is reserved for, before the tables exist:
// the installed Zen 5 profile has 2 for reuse and 4 for stream (profiles/amd-family26-model2.toml).
constexpr int kTypicalBoundaries = 5;

class Tuner;

// One way to run a stage: its jobs at `repetitions` (0: the plan's), and what was narrowed to
// fit the time limit, for the notes.
struct Fit {
  std::vector<Job> jobs = {};
  int repetitions = 0;
  std::vector<std::string> notes = {};
};

constexpr int once(const LevelPlan &) { return 1; }

// A measuring stage. Its ladder holds its ways to run, widest first, built from what the stages
// before it measured: run() measures the first that fits the time left, else the last (a stage
// that is never dropped ends with its narrowest jobs; one that may be skipped, with none). A
// round that measures nothing ends the stage. A new stage is a row of stages() and its ladder.
struct Stage {
  std::string_view name;                   // the progress line's label
  std::string_view measures;               // what and why, for the reader of the table
  int (*rounds)(const LevelPlan &) = once; // 0: not at this level
  std::vector<Fit> (Tuner::*ladder)(int round);
  void (Tuner::*measured)(const std::vector<Job> &) = nullptr; // what later stages keep of it
};

// A stage on the chosen tables, after choosing: its time is set aside before the measuring
// stages start, and it is never skipped.
struct LastStage {
  std::string_view name;
  std::string_view measures;
  double (Tuner::*seconds)() const;                           // estimated before any stage runs
  void (Tuner::*run)(TuneResult &, const std::string &label); // label: the row's name
};

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
    reserve_last_stages();
    grid_ = size_grid(o_.min_size, o_.max_size, plan_.steps_per_octave);
    for (const Stage &stage : stages())
      for (int round = 0; round < stage.rounds(plan_); ++round) {
        const std::vector<Fit> ladder = (this->*stage.ladder)(round);
        if (ladder.empty()) break;
        const Fit &fit = *std::find_if(ladder.begin(), ladder.end() - 1,
                                       [&](const Fit &f) { return fits(f.jobs, f.repetitions); });
        append(notes_, fit.notes);
        if (fit.jobs.empty()) break;
        measure(fit.jobs, std::string(stage.name), fit.repetitions);
        if (stage.measured) (this->*stage.measured)(fit.jobs);
      }
    TuneResult r;
    r.level = std::string(level_name(o_.level));
    choose(r);
    for (const LastStage &stage : last_stages())
      (this->*stage.run)(r, std::string(stage.name));
    r.measurements = all_;
    for (const Measurement &m : r.parallel->measurements) // memset's stay in the study: its
      if (m.threads) r.measurements.push_back(m);         // own run, not the report's curves
    r.notes = notes_;
    r.seconds = elapsed();
    std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    r.date = date;
    return r;
  }

private:
  // The measuring stages, in the order they run.
  static std::span<const Stage> stages() {
    static constexpr Stage table[] = {
        {.name = "grid",
         .measures = "every method's default spec at every grid size, both intents, and the "
                     "findings' sweeps (no-allocate step, chunks, fences), interleaved",
         .ladder = &Tuner::grid_ladder},
        {.name = "variants",
         .measures = "the unroll, align, fence and head variants of the methods within 10% of "
                     "the best default at each size",
         .rounds = [](const LevelPlan &p) { return int(p.variants); },
         .ladder = &Tuner::variant_ladder,
         .measured = &Tuner::keep_variants},
        // Before the consecutive ones, as a cached call lost 3..5x here where a cold one gained
        // 1.2x (docs/results/amd-family26-model2/bench-cached-veto.txt); a cached clear varies
        // less than a cold one, so kCachedReps repetitions do (a few seconds).
        {.name = "cached destinations",
         .measures = "stream's contenders with a cached destination, up to the L2's size, so "
                     "that a non-temporal class pays for the memory traffic memset saves there "
                     "(robust_measurements)",
         .ladder = &Tuner::cached_ladder},
        // This and the batches come before the bisections: a robust table matters more than
        // where exactly its boundaries fall.
        {.name = "consecutive destinations",
         .measures = "the contenders again with consecutive destinations, so that no class "
                     "loses to memset in either pattern",
         .ladder = &Tuner::consecutive_ladder},
        {.name = "batched stream clears",
         .measures = "batch_candidates() in batches of stream clears below kBatchBytes, in each "
                     "pattern: the batch table",
         .ladder = &Tuner::batch_ladder},
        {.name = "refinement",
         .measures = "both winners and memset at the geometric middle of every crossover (in "
                     "every pattern measured), and around the no-allocate step",
         .rounds = [](const LevelPlan &p) { return p.refine_rounds; },
         .ladder = &Tuner::refinement_ladder},
        {.name = "noisy points",
         .measures = "the winners whose cv is above 5% again, with memset beside them",
         .ladder = &Tuner::noisy_ladder},
    };
    return table;
  }

  // After choosing, in the order they run: each is measured on the tables the one before left.
  static std::span<const LastStage> last_stages() {
    static constexpr LastStage table[] = {
        {.name = "small path",
         .measures = "whole dispatchers over the chosen tables at small sizes, warm: the "
                     "small paths",
         .seconds = &Tuner::small_path_seconds,
         .run = &Tuner::small_path},
        {.name = "verification",
         .measures = "the profile about to be written against memset, apart from what chose "
                     "it; repairs the classes and small paths where it loses",
         .seconds = &Tuner::verification_seconds,
         .run = &Tuner::verification},
        // Last: through the verified tables and small paths as clearjit_open makes them (the
        // verification is the last stage that changes those).
        {.name = "parallel",
         .measures = "clearjit_clear_parallel at 1..N threads: the [parallel.<intent>] tables",
         .seconds = &Tuner::parallel_study_seconds,
         .run = &Tuner::parallel},
    };
    return table;
  }

  // The last stages' time is set aside first. A limit they nearly fill alone still leaves the
  // measuring stages a tenth (budget_ <= 0 means none).
  void reserve_last_stages() {
    if (budget_ <= 0) return;
    double last = 0;
    std::string names;
    for (const LastStage &stage : last_stages()) {
      last += (this->*stage.seconds)();
      names += (names.empty() ? "" : ", ") + std::string(stage.name);
    }
    if (last > 0.9 * budget_)
      notes_.push_back("the stages on the chosen tables (" + names + ") alone take about " +
                       fmt("%.0f", last) + " s of the " + fmt("%.0f", budget_) + " s limit");
    budget_ = std::max(budget_ - last, 0.1 * budget_);
  }

  std::vector<Fit> grid_ladder(int) {
    std::vector<Job> jobs = grid_jobs(), sweep = studies_.no_allocate_jobs();
    std::vector<std::string> notes = fit_grid(jobs, sweep);
    append(jobs, sweep);
    append(jobs, studies_.chunk_jobs());
    append(jobs, studies_.fence_jobs());
    return {{.jobs = jobs, .notes = notes}};
  }

  // Variants of the methods within 10% of the best at each size, or of the leading one only.
  std::vector<Fit> variant_ladder(int) {
    const std::vector<Measurement> base = table_measurements();
    return {{.jobs = variants_within(0.9, base)},
            {.jobs = variants_within(1.0, base),
             .notes = {"variants measured only for the leading method at each size, to fit the "
                       "time limit"}},
            {.notes = {"variants skipped to fit the time limit"}}};
  }
  void keep_variants(const std::vector<Job> &jobs) {
    for (const Job &j : jobs)
      variants_.insert(j.candidate);
  }

  std::vector<Fit> cached_ladder(int) {
    std::vector<Job> cached = contender_jobs(1, Pattern::cached);
    if (cached.empty()) return {}; // no size below the L2 tuned (--min-size)
    return {{.jobs = cached, .repetitions = kCachedReps},
            {.notes = {"cached destinations not measured, to fit the time limit: stream's "
                       "non-temporal classes are chosen from cold destinations alone"}}};
  }

  // Every size if that fits, else every second or fourth (the others are chosen from scattered
  // destinations alone). Never dropped: a table chosen from scattered destinations alone lost
  // to memset consecutively (docs/results/intel-family6-model207/tune-default.txt skipped
  // them). At the least, every fourth size at the fewest repetitions.
  std::vector<Fit> consecutive_ladder(int) {
    auto every = [](std::string_view nth, const std::string &reps = "") {
      return "consecutive destinations measured at every " + std::string(nth) + " size" + reps +
             " to fit the time limit";
    };
    const std::vector<Job> fourth = contender_jobs(4, Pattern::consecutive);
    return {{.jobs = contender_jobs(1, Pattern::consecutive)},
            {.jobs = contender_jobs(2, Pattern::consecutive), .notes = {every("second")}},
            {.jobs = fourth, .notes = {every("fourth")}},
            {.jobs = fourth,
             .repetitions = kFewestReps,
             .notes = {every("fourth", " with " + std::to_string(kFewestReps) + " repetitions")}}};
  }

  std::vector<Fit> batch_ladder(int) {
    return {{.jobs = batch_jobs()},
            {.notes = {"batched stream clears not measured, to fit the time limit: batches use "
                       "the stream table"}}};
  }

  std::vector<Fit> refinement_ladder(int round) {
    std::vector<Job> refine = crossover_jobs();
    append(refine, studies_.step_jobs(all_));
    if (refine.empty()) return {};
    return {{.jobs = refine},
            {.notes = {"refinement stopped after " + std::to_string(round) +
                       " rounds to fit the time limit"}}};
  }

  // Never dropped: at the least the noisiest few at the fewest repetitions.
  std::vector<Fit> noisy_ladder(int) {
    std::vector<Job> again = noisy_jobs();
    if (again.empty()) return {};
    return {{.jobs = again}, noisiest(again)};
  }

  // The noisiest prefix of noisy_jobs() that fits at the fewest repetitions.
  Fit noisiest(std::vector<Job> again) const {
    const size_t all = again.size();
    while (again.size() > kFewestNoisy && !fits(again, kFewestReps))
      again.resize(again.size() * 3 / 4);
    // The cut must not leave a point without memset beside it.
    std::set<std::tuple<Intent, uint64_t, Pattern>> points, beside;
    for (const Job &j : again)
      (j.candidate.is_memset() ? beside : points).insert({j.intent, j.size, j.pattern});
    for (const auto &[intent, size, pattern] : points)
      if (!beside.count({intent, size, pattern}))
        again.push_back(in_pattern({default_spec(Method::libc), size, intent}, pattern));
    return {.jobs = again,
            .repetitions = kFewestReps,
            .notes = {"noisy points: the " + std::to_string(again.size()) + " noisiest of " +
                      std::to_string(all) + " measured again with " + std::to_string(kFewestReps) +
                      " repetitions, to fit the time limit"}};
  }

  double small_path_seconds() const { return small_study_seconds(bench_, cpu_, options("")); }
  double verification_seconds() const {
    return verify_seconds(bench_, cpu_, options(""), kTypicalBoundaries);
  }
  double parallel_study_seconds() const {
    return parallel_seconds(bench_, options(""), usable_cpus(), o_.min_size, o_.max_size);
  }

  // Its candidates are whole dispatchers over the chosen tables.
  void small_path(TuneResult &r, const std::string &label) {
    Profile tables;
    tables.reuse = r.reuse;
    tables.stream = r.stream;
    r.small = study_small(bench_, tables, cpu_, options(label));
  }

  // The profile about to be written, measured against memset apart from what chose it, and
  // repaired where it loses; the result's tables become the repaired ones.
  void verification(TuneResult &r, const std::string &label) {
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
    r.verification = verify(bench_, p, cpu_, options(label), ranking, o_.min_size, o_.max_size);
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

  // A few seconds: one clear per repetition at 1 GiB.
  void parallel(TuneResult &r, const std::string &label) {
    Profile tables;
    tables.reuse = r.reuse;
    tables.stream = r.stream;
    tables.small_reuse = r.small->reuse;
    tables.small_stream = r.small->stream;
    tables.host = profile_host(cpu_);
    r.parallel = study_parallel(bench_, tables, cpu_, options(label), o_.min_size, o_.max_size);
  }

  template <class T> static void append(std::vector<T> &to, const std::vector<T> &from) {
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

  // The grid must leave room for the rest: narrow it, then the repetitions, until it takes at
  // most half of the budget. The time limit narrows the search; it never fails it.
  std::vector<std::string> fit_grid(std::vector<Job> &jobs, std::vector<Job> &sweep) {
    std::vector<std::string> notes;
    auto est = [&] {
      std::vector<Job> all = jobs;
      append(all, sweep);
      return bench_.estimate_seconds(all, options(""));
    };
    while (budget_ > 0 && est() > 0.5 * budget_) {
      if (plan_.steps_per_octave > 1) {
        plan_.steps_per_octave /= 2;
        grid_ = size_grid(o_.min_size, o_.max_size, plan_.steps_per_octave);
        notes.push_back("size grid narrowed to " + std::to_string(plan_.steps_per_octave) +
                        " step(s) per octave to fit the time limit");
      } else if (plan_.repetitions > 3) {
        plan_.repetitions = 3;
        notes.push_back("repetitions reduced to 3 to fit the time limit");
      } else if (grid_.size() > 4) {
        std::vector<uint64_t> fewer;
        for (size_t i = 0; i < grid_.size(); i += 2)
          fewer.push_back(grid_[i]);
        if (fewer.back() != grid_.back()) fewer.push_back(grid_.back());
        grid_ = fewer;
        notes.push_back("every other grid size dropped to fit the time limit");
      } else if (!sweep.empty()) {
        sweep.clear();
        notes.push_back("no-allocate sweep skipped to fit the time limit");
      } else {
        break;
      }
      jobs = grid_jobs();
    }
    return notes;
  }

  // The chooser's options for one intent's table: the crossover bisections are its partial sizes.
  ChooseOptions choose_options(Intent intent) const {
    ChooseOptions o;
    for (const auto &[i, size] : bisections_)
      if (i == intent) o.partial.insert(size);
    return o;
  }

  ComplexityMap complexity() {
    for (const Measurement &m : all_)
      if (const Spec *kernel = m.candidate.kernel(); kernel && !complexity_.count(m.candidate))
        complexity_[m.candidate] = kernel_complexity(*kernel);
    return complexity_;
  }

  // Grid-stage measurements of one intent (the tables are chosen from these plus refinements;
  // the studies' extra kernels do not compete).
  std::vector<Measurement> table_measurements() const {
    std::set<Candidate> contenders(methods_.begin(), methods_.end());
    contenders.insert(variants_.begin(), variants_.end());
    // Only sizes where every contender was measured: the grid and the crossover bisections
    // (the findings' sweeps measure two kernels, which must not win a class by default).
    std::vector<Measurement> out;
    for (const Measurement &m : all_)
      if (contenders.count(m.candidate) && plain(m) &&
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
      for (const auto &[size, by_candidate] : pooled_medians(ms, intent)) {
        if (index++ % stride) continue;
        if (pattern == Pattern::cached && !measured_cached(intent, size)) continue;
        double best = 0;
        std::map<std::string_view, std::pair<double, const Spec *>> family_best;
        for (const auto &[candidate, g] : by_candidate) {
          best = std::max(best, g);
          auto &fb = family_best[candidate.kernel()->info().family];
          if (g > fb.first) fb = {g, candidate.kernel()};
        }
        std::set<Candidate> picked{memset_candidate()};
        for (const auto &[candidate, g] : by_candidate)
          if (g >= 0.9 * best) picked.insert(candidate);
        for (const auto &[family, fb] : family_best)
          picked.insert(*fb.second);
        for (const Candidate &candidate : picked)
          if (by_candidate.count(candidate))
            jobs.push_back(in_pattern({*candidate.kernel(), size, intent}, pattern));
      }
    }
    return jobs;
  }

  // Every 2 * steps_per_octave-th grid size (one per two octaves, 4, 16, 64, 256 KiB, 1 MiB
  // from 4 KiB, unless the grid was thinned to fit): a batch's choice changes slowly with the
  // piece size, and the stage must fit beside the others.
  std::vector<Job> batch_jobs() const {
    std::vector<Job> jobs;
    const size_t stride = size_t(2 * plan_.steps_per_octave);
    for (size_t k = 0; k < grid_.size() && grid_[k] < kBatchBytes; k += stride)
      for (const Spec &s : batch_candidates(cpu_)) {
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
    const std::vector<Spec> candidates = batch_candidates(cpu_);
    const std::set<Candidate> kernels(candidates.begin(), candidates.end());
    std::vector<Measurement> out = select(all_, Intent::stream, p, true);
    for (const Measurement &m : select(all_, Intent::stream, p))
      if (m.size >= kBatchBytes && kernels.count(m.candidate) &&
          std::binary_search(grid_.begin(), grid_.end(), m.size))
        out.push_back(m);
    return out;
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
        Method method = m.candidate.kernel()->method;
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

  // Both winners and memset at the geometric middle of every pair of sizes where the winner
  // changes, with consecutive and cached destinations too where those were measured.
  std::vector<Job> crossover_jobs() {
    std::vector<Job> jobs;
    for (Intent intent : kIntents) {
      const std::vector<Winner> ws = current_winners(intent);
      const size_t first = jobs.size();
      for (size_t i = 1; i < ws.size(); ++i) {
        if (ws[i].candidate == ws[i - 1].candidate ||
            double(ws[i].size) / double(ws[i - 1].size) < 1.2)
          continue;
        uint64_t mid = round_boundary(std::sqrt(double(ws[i - 1].size) * double(ws[i].size)));
        if (mid <= ws[i - 1].size || mid >= ws[i].size) continue;
        for (const Winner *w : {&ws[i - 1], &ws[i]})
          jobs.push_back({*w->candidate.kernel(), mid, intent});
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
          if (m.intent == intent && m.size == w.size && m.candidate == w.candidate && !m.batched &&
              m.cv > 0.05)
            noisy.push_back({m.cv, in_pattern({*m.candidate.kernel(), m.size, intent}, m.pattern)});
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
      append(r.disagreements, disagreements(intent_name(intent), intent, grid_, s, c, w, table, cx,
                                            choose_options(intent)));
      (intent == Intent::reuse ? r.memset_reuse : r.memset_stream) =
          pooled_gbps(from, intent, memset_candidate());
    }
    // Sizes without consecutive measurements (from kBatchBytes on, those the consecutive stage
    // left out) are chosen from their scattered ones (robust_measurements).
    if (std::vector<Measurement> bs = batch_measurements(Pattern::scattered),
        bc = batch_measurements(Pattern::consecutive);
        !select(all_, Intent::stream, Pattern::scattered, true).empty()) {
      // Cached: the batched measurements only (a batch of one clear, from kBatchBytes on, is
      // not measured cached as a batch candidate).
      const std::vector<Measurement> bw = select(all_, Intent::stream, Pattern::cached, true);
      const std::vector<Measurement> from = chosen_from(bs, bc, bw);
      r.batch = dispatch_table(winners(from, Intent::stream, cx));
      append(r.disagreements, disagreements("batch", Intent::stream, grid_, bs, bc, bw, r.batch, cx,
                                            choose_options(Intent::stream)));
      r.memset_batch = pooled_gbps(from, Intent::stream, memset_candidate());
    }
    r.findings = studies_.findings(all_, r.reuse, r.stream);
  }

  const TuneOptions &o_;
  const CpuInfo &cpu_;
  LevelPlan plan_;
  HostBench bench_;
  Studies studies_;
  double budget_ = 0;
  Clock::time_point start_;
  std::vector<uint64_t> grid_;
  std::vector<Spec> methods_, pool_;
  std::set<Candidate> variants_;
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
