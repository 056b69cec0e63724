// A tuning run: every decision raced against memset (race.hpp) in one set of interleaved rounds,
// the tables built from the races' outcomes, then the stages after the races (stage.hpp) on the
// chosen tables.
#include "tuner/stages/tune.hpp"

#include "jit/runtime/runtime.hpp"
#include "tuner/measure/c_library.hpp"
#include "tuner/race/race.hpp"
#include "tuner/stages/plan.hpp"
#include "tuner/text/format.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <set>
#include <span>

namespace cjit::detail {
namespace {

using Clock = std::chrono::steady_clock;

// The tables a race decides a size of: batch is stream clears in batches below kBatchBytes.
enum class Table : uint8_t { reuse, stream, batch };
// What a race of the table `decides`, in the raw measurements.
std::string_view table_name(Table t) {
  return t == Table::reuse ? "reuse" : t == Table::stream ? "stream" : "batch";
}

class Tuner {
public:
  Tuner(const TuneOptions &o, const CpuInfo &cpu, Meter &bench)
      : o_(o), cpu_(cpu), plan_(plan_for(o.level)), bench_(bench),
        studies_(cpu, o.min_size, o.max_size) {
    if (o.stages.empty())
      stages_.assign(tune_stages().begin(), tune_stages().end());
    else
      stages_ = o.stages;
    budget_ = o.time_limit > 0 ? o.time_limit : plan_.budget;
    for (const Spec &s : plan_.all_methods ? candidates(Level::quick) : batch_candidates(cpu))
      if (unsupported_reason(s, cpu).empty() && s.method != Method::libc) field_.push_back(s);
    for (const Spec &s : batch_candidates(cpu))
      if (unsupported_reason(s, cpu).empty() && s.method != Method::libc) batch_field_.push_back(s);
    for (const Spec &s : candidates(o.level))
      if (unsupported_reason(s, cpu).empty()) variant_specs_.push_back(s);
  }

  TuneResult run() {
    start_ = Clock::now();
    race_options_.confidence = plan_.confidence;
    race_options_.max_rounds = plan_.max_rounds;
    race_options_.simpler = [this](const Candidate &a, const Candidate &b) {
      return std::pair(complexity(a), a.name()) < std::pair(complexity(b), b.name());
    };
    reserve_stage_time();
    Racing racing(bench_, race_options_, options("races", 1, plan_.race_min_time)),
        variants(bench_, race_options_, options("variant races", 1, plan_.race_min_time));
    add_races(racing);
    // The variants' races get what the first ones leave, and at least a quarter.
    const int rounds = racing.run(budget_ > 0 ? remaining() * (plan_.variants ? 0.75 : 1.0) : 0);
    note_races(racing, rounds, "races");
    if (plan_.variants) {
      add_variant_races(racing, variants);
      note_races(variants, variants.run(budget_ > 0 ? remaining() : 0), "variant races");
    }
    TuneResult r;
    r.level = std::string(level_name(o_.level));
    r.race_options = race_options_;
    r.measurements = racing.measurements();
    append(r.measurements, variants.measurements());
    for (const Point &p : points_) {
      r.races.push_back(race_text(racing.race(p.race), racing.outcome(p.race)));
      if (p.variants != kNone)
        r.races.push_back(race_text(variants.race(p.variants), variants.outcome(p.variants)));
    }
    choose(racing, variants, r);
    record(racing, variants, r);
    r.cpus = cpus();
    r.stages.clear();
    for (const Stage *stage : stages_) {
      r.stages.push_back(stage);
      stage->run(context(*stage), r);
    }
    r.notes = notes_;
    r.seconds = elapsed();
    std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    r.date = date;
    return r;
  }

private:
  // The stages' time is set aside first; the races keep at least a third of the budget.
  void reserve_stage_time() {
    if (budget_ <= 0) return;
    double last = 0;
    for (const Stage *stage : stages_)
      last += stage->seconds(context(*stage));
    budget_ = std::max(budget_ - last, budget_ / 3);
  }

  // The destination states a size is raced in. Scattered and consecutive are required of
  // every candidate. Consecutive is left out where the arena holds fewer than four destinations
  // of the size: scattered ones are then the same few regions one after another. Hot up to the
  // L3's size (beyond it no caller's buffer is in cache): required for reuse, whose caller reads
  // what was cleared; for stream and batches measured for the record and not scored: their
  // contract is that the caller's cache does not hold the destination (clearjit.h).
  std::vector<Condition> conditions(uint64_t size, Intent intent, bool batched) const {
    Job base(default_spec(Method::libc), size, intent);
    std::vector<Condition> out{{in_pattern(base, Pattern::scattered, batched), true}};
    if (4 * size <= arena_bytes_for(cpu_, o_.max_size))
      out.push_back({in_pattern(base, Pattern::consecutive, batched), true});
    if (size <= hot_limit(cpu_))
      out.push_back({in_pattern(base, Pattern::hot, batched), intent == Intent::reuse,
                     intent == Intent::reuse});
    return out;
  }

  // Every decision's race, and the studies' (which decide nothing: they run the fewest rounds
  // that bound a median and are read as medians).
  void add_races(Racing &racing) {
    grid_ = size_grid(o_.min_size, o_.max_size, plan_.steps_per_octave);
    const std::vector<Candidate> field(field_.begin(), field_.end()),
        batch(batch_field_.begin(), batch_field_.end());
    auto add = [&](Table table, uint64_t size, const std::vector<Candidate> &candidates) {
      const Intent intent = table == Table::reuse ? Intent::reuse : Intent::stream;
      Race race{.name = std::string(table_name(table)) + " " + human_bytes(size),
                .conditions = conditions(size, intent, table == Table::batch),
                .candidates = candidates};
      points_.push_back({table, size, racing.add(std::move(race))});
    };
    auto in_range = [&](uint64_t size) { return size >= o_.min_size && size <= o_.max_size; };
    for (uint64_t size : grid_) {
      add(Table::reuse, size, field);
      add(Table::stream, size, field);
    }
    // A huge page cleared in one call per page: raced at its own size, on the grid or not.
    for (uint64_t page : kHugePages)
      if (in_range(page) && !std::binary_search(grid_.begin(), grid_.end(), page))
        add(Table::stream, page, field);
    // Batches: below kBatchBytes one size per two octaves (4, 16, 64, 256 KiB, 1 MiB from 4 KiB),
    // and a huge page's subpage; from kBatchBytes a batch is one clear, and the stream races
    // serve.
    std::set<uint64_t> batches;
    for (size_t k = 0; k < grid_.size() && grid_[k] < kBatchBytes;
         k += size_t(2 * plan_.steps_per_octave))
      batches.insert(grid_[k]);
    if (in_range(kSubpageBytes)) batches.insert(kSubpageBytes);
    for (uint64_t size : batches)
      add(Table::batch, size, batch);
    const int study_rounds = int(fewest_for(plan_.confidence));
    auto study = [&](const std::vector<Job> &jobs) {
      // Jobs in pairs or groups of one size: the first of each size is the incumbent.
      std::map<uint64_t, std::vector<Candidate>> by_size;
      for (const Job &j : jobs)
        by_size[j.size].push_back(j.candidate);
      for (auto &[size, cs] : by_size) {
        Race race{.name = "study " + human_bytes(size),
                  .conditions = {{{*cs[0].kernel(), size, Intent::stream}, true}},
                  .candidates = {cs.begin() + 1, cs.end()},
                  .incumbent = cs[0],
                  .max_rounds = study_rounds};
        racing.add(std::move(race));
      }
    };
    // The no-allocate sweep: the temporal reference first, so that it is the incumbent.
    std::vector<Job> sweep = studies_.no_allocate_jobs(plan_.steps_per_octave * 2);
    for (size_t k = 0; k + 1 < sweep.size(); k += 2)
      std::swap(sweep[k], sweep[k + 1]);
    study(sweep);
    study(studies_.chunk_jobs());
    study(studies_.fence_jobs());
  }

  // A table from its points' races (table_from_races); the batch table takes the stream
  // races from kBatchBytes on, where a batch is one clear.
  std::vector<SizeClass> table(const Racing &racing, const Racing *variants, Table which) const {
    std::vector<RacedSize> at;
    for (const Point &p : points_)
      if (p.table == which ||
          (which == Table::batch && p.table == Table::stream && p.size >= kBatchBytes)) {
        const Source src = source(p, racing, variants);
        RacedSize rs{.size = p.size,
                     .outcome = src.outcome(),
                     .alone = decided_alone(table_name(which), p.size)};
        for (const Condition &c : src.racing->race(src.race).conditions)
          rs.patterns.push_back(c.job.pattern);
        for (const Candidate &c : contenders(src.racing->race(src.race)))
          rs.gbps[c] = src.racing->median_of(src.race, c, 0);
        at.push_back(std::move(rs));
      }
    return table_from_races(std::move(at), race_options_.min_gain);
  }

  // Every race as the raw measurements keep it: a table's size, its variants, or a study's.
  void record(const Racing &racing, const Racing &variants, TuneResult &r) const {
    std::vector<bool> of_point(racing.size());
    for (const Point &p : points_) {
      const Intent intent = p.table == Table::reuse ? Intent::reuse : Intent::stream;
      r.race_records.push_back(
          racing.record(p.race, std::string(table_name(p.table)), intent, p.size));
      if (p.variants != kNone)
        r.race_records.push_back(variants.record(p.variants, "variants", intent, p.size));
      of_point[p.race] = true;
    }
    for (size_t k = 0; k < racing.size(); ++k)
      if (!of_point[k])
        r.race_records.push_back(
            racing.record(k, "study", Intent::stream, racing.race(k).conditions[0].job.size));
  }

  // memset's median GB/s (scattered) per size of a table, for the summary's ratios.
  std::map<uint64_t, double> memset_speeds(const Racing &racing, Table which) const {
    std::map<uint64_t, double> out;
    for (const Point &p : points_)
      if (p.table == which) out[p.size] = racing.median_of(p.race, memset_candidate(), 0);
    return out;
  }

  void choose(const Racing &racing, const Racing &variants, TuneResult &r) {
    r.reuse = table(racing, &variants, Table::reuse);
    r.stream = table(racing, &variants, Table::stream);
    r.batch = table(racing, &variants, Table::batch);
    r.memset_reuse = memset_speeds(racing, Table::reuse);
    r.memset_stream = memset_speeds(racing, Table::stream);
    r.memset_batch = memset_speeds(racing, Table::batch);
    for (const auto &[size, g] : r.memset_stream)
      if (size >= kBatchBytes) r.memset_batch[size] = g;
    r.findings = studies_.findings(r.measurements, r.reuse, r.stream);
    const std::optional<uint64_t> step = r.findings.stosb_no_allocate.size;
    stand_in_past_step({&r.reuse, &r.stream, &r.batch}, step);
    r.findings.nontemporal_reuse_runs = nontemporal_runs(r.reuse, step);
    r.findings.nontemporal_stream_runs = nontemporal_runs(r.stream, step);
  }

  // The level's variants (unroll, align, head) of the kernel each point's table chose, with that
  // kernel, against memset in the same states: a second race where the first chose a kernel.
  void add_variant_races(const Racing &racing, Racing &variants) {
    const std::vector<SizeClass> reuse = table(racing, nullptr, Table::reuse),
                                 stream = table(racing, nullptr, Table::stream);
    for (Point &p : points_) {
      if (p.table == Table::batch) continue;
      const Intent intent = p.table == Table::reuse ? Intent::reuse : Intent::stream;
      const Spec &chosen = class_for(intent == Intent::reuse ? reuse : stream, p.size).kernel;
      if (chosen.method == Method::libc) continue;
      std::vector<Candidate> field{chosen};
      for (const Spec &v : variant_specs_)
        // Chunked and unfenced specs are the studies'; a hot head serves a reader, and only a
        // minority part of the region.
        if (v.method == chosen.method && !(v == chosen) && !v.chunk &&
            !(v.info().nontemporal && v.fence == Fence::none) &&
            !(v.head && (intent != Intent::reuse || p.size <= 2 * v.head)))
          field.push_back(v);
      if (field.size() < 2) continue;
      p.variants = variants.add({.name = racing.race(p.race).name + " variants",
                                 .conditions = racing.race(p.race).conditions,
                                 .candidates = field});
    }
  }

  void note_races(const Racing &racing, int rounds, const std::string &what) {
    notes_.push_back(std::to_string(racing.size()) + " " + what + " in " + std::to_string(rounds) +
                     " rounds at " + fmt("%.0f", plan_.confidence * 100) + "% confidence, " +
                     std::to_string(plan_.steps_per_octave) + " size(s) per octave");
    if (const size_t open = racing.open())
      notes_.push_back(std::to_string(open) + " " + what +
                       " still open at the time limit: memset kept where no candidate was "
                       "confidently faster yet");
  }

  template <class T> static void append(std::vector<T> &to, const std::vector<T> &from) {
    to.insert(to.end(), from.begin(), from.end());
  }

  int complexity(const Candidate &c) {
    auto it = complexity_.find(c);
    if (it != complexity_.end()) return it->second;
    const int cx = c.kernel() ? kernel_complexity(*c.kernel()) : 0;
    complexity_[c] = cx;
    return cx;
  }

  // What a stage measures with; its label is its name.
  StageContext context(const Stage &stage) const {
    return {.meter = bench_,
            .cpu = cpu_,
            .plan = plan_,
            .race_options = race_options_,
            .measure = options(std::string(stage.name())),
            .min_size = o_.min_size,
            .max_size = o_.max_size,
            .cpus = cpus(),
            .seconds_left = budget_ > 0 ? std::optional(remaining()) : std::nullopt};
  }

  MeasureOptions options(const std::string &label, int repetitions = 0, double min_time = 0) const {
    return {.repetitions = repetitions > 0 ? repetitions : plan_.repetitions,
            .min_time = min_time > 0 ? min_time : plan_.min_time,
            .benchmark_flags = o_.benchmark_flags,
            .progress = o_.progress,
            .label = label};
  }

  unsigned cpus() const { return o_.cpus ? o_.cpus : usable_cpus(); }
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  double remaining() const { return budget_ - elapsed(); }

  static constexpr size_t kNone = SIZE_MAX;
  // A raced size of a table: its race, and its variants' race where one was added.
  struct Point {
    Table table;
    uint64_t size;
    size_t race;
    size_t variants = kNone;
  };
  // Where a point's decision is read: its variants' race where that ran the rounds that bound a
  // median (it holds the first race's choice too), else its own.
  struct Source {
    const Racing *racing;
    size_t race;
    const RaceOutcome &outcome() const { return racing->outcome(race); }
  };
  Source source(const Point &p, const Racing &racing, const Racing *variants) const {
    if (variants && p.variants != kNone &&
        variants->outcome(p.variants).rounds >= int(fewest_for(plan_.confidence)))
      return {variants, p.variants};
    return {&racing, p.race};
  }

  const TuneOptions &o_;
  const CpuInfo &cpu_;
  LevelPlan plan_;
  Meter &bench_;
  Studies studies_;
  double budget_ = 0;
  Clock::time_point start_;
  std::vector<uint64_t> grid_;
  std::vector<Spec> field_, batch_field_, variant_specs_;
  std::vector<const Stage *> stages_;
  std::vector<Point> points_;
  std::map<Candidate, int> complexity_;
  RaceOptions race_options_;
  std::vector<std::string> notes_;
};

} // namespace

TuneResult tune(const TuneOptions &options, const CpuInfo &cpu, Meter &bench) {
  TuneResult r = Tuner(options, cpu, bench).run();
  r.libc = running_memset(); // the memset the races were against
  return r;
}

TuneResult tune(const TuneOptions &options, const CpuInfo &cpu) {
  HostMeter bench(cpu, options.max_size);
  return tune(options, cpu, bench);
}

} // namespace cjit::detail
