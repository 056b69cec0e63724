// The parallel stage (parallel_stage.hpp): clearjit_clear_parallel at 1..N threads on the
// verified tables; it chooses the [parallel.<intent>] tables.
#include "jit/runtime/pool.hpp"
#include "tuner/stages/parallel_stage.hpp"
#include "tuner/stages/stage.hpp"
#include "tuner/stages/tune.hpp"

#include <algorithm>

namespace cjit::detail {
namespace {

class ParallelStage final : public Stage {
public:
  std::string_view name() const override { return "parallel"; }
  std::string_view measures() const override {
    return "clearjit_clear_parallel at 1..N threads: the [parallel.<intent>] tables";
  }
  double seconds(const StageContext &c) const override {
    return parallel_seconds(c.meter, c.race_measure(), c.plan.max_rounds, c.cpus, c.min_size,
                            c.max_size);
  }
  // The thread-count races: a few seconds, one clear per sample at 1 GiB.
  void run(const StageContext &c, TuneResult &r) const override {
    Profile tables;
    tables.reuse = r.reuse;
    tables.stream = r.stream;
    tables.small_reuse = r.small->reuse;
    tables.small_stream = r.small->stream;
    tables.host = profile_host(c.cpu);
    const double budget = c.seconds_left ? std::max(*c.seconds_left, seconds(c)) : 0;
    r.parallel = study_parallel(c.meter, tables, c.cpu, c.cpus, c.race_options, c.race_measure(),
                                c.min_size, c.max_size, budget);
    r.races.insert(r.races.end(), r.parallel->races.begin(), r.parallel->races.end());
    r.race_records.insert(r.race_records.end(), r.parallel->records.begin(),
                          r.parallel->records.end());
    for (const Measurement &m : r.parallel->measurements) // memset's stay in the study: its
      if (m.threads) r.measurements.push_back(m);         // own run, not the report's curves
  }
  void profile(const TuneResult &r, Profile &p) const override {
    if (!r.parallel || !r.parallel->skipped.empty()) return;
    p.parallel_cpus = std::min(r.parallel->cpus, kMaxThreads); // informational; the reader's bound
    p.parallel_reuse = r.parallel->reuse;
    p.parallel_stream = r.parallel->stream;
  }
  std::string summary(const TuneResult &r) const override {
    return r.parallel ? parallel_text(*r.parallel) : "";
  }
};

} // namespace

const Stage &parallel_stage() {
  static const ParallelStage stage;
  return stage;
}

} // namespace cjit::detail
