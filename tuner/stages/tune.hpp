// The tuner: measures in stages what the level's plan (plan.hpp) allows, chooses the tables and
// makes the studies (findings.hpp); outputs.hpp writes the result.
#pragma once

#include "tuner/measure/measure.hpp"
#include "tuner/race/tables.hpp"
#include "tuner/stages/candidates.hpp"
#include "tuner/stages/findings.hpp"
#include "tuner/stages/glibc_tunables.hpp"
#include "tuner/stages/parallel_stage.hpp"
#include "tuner/stages/smallpath.hpp"
#include "tuner/stages/stage.hpp"
#include "tuner/stages/verify.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cjit::detail {

struct TuneOptions {
  Level level = Level::default_;
  uint64_t min_size = 4096;
  uint64_t max_size = 1ull << 30;
  double time_limit = 0; //!< seconds; 0: the level's own budget
  std::vector<std::string> benchmark_flags;
  bool progress = true;
  unsigned cpus = 0; //!< CPUs the parallel stage races up to; 0: those this process may use
  //! The stages after the races; empty: tune_stages(). They must outlive the TuneResult, which
  //! points to them.
  std::vector<const Stage *> stages;
};

//! A class the verification gave to memset: [lower, below) of `intent`'s table, and the kernel
//! it had.
struct MemsetRepair {
  Intent intent = Intent::reuse;
  uint64_t lower = 0, below = 0; //!< below 0: up
  Spec kernel;
  bool operator==(const MemsetRepair &) const = default;
};

struct TuneResult {
  //! The stages after the races, in order, that the outputs ask for their parts: those that ran
  //! (a result built otherwise has tune_stages(); each writes nothing it did not measure).
  std::vector<const Stage *> stages{tune_stages().begin(), tune_stages().end()};
  //! Each stage's own result, under its name, where no other stage reads it by type (the small
  //! path, verification and parallel stages keep theirs in the typed fields below).
  std::map<std::string, std::shared_ptr<const StageResult>, std::less<>> stage_results;
  unsigned cpus = 0; //!< CPUs the run could use (0: not recorded; the raw file says this process's)
  std::vector<Measurement> measurements; //!< everything measured, for --json and --report
  std::vector<SizeClass> reuse, stream;
  std::vector<SizeClass> batch; //!< stream clears in batches; empty when not measured
  //! libc GB/s per grid size, as the tables' gbps (both patterns where both were measured)
  std::map<uint64_t, double> memset_reuse, memset_stream, memset_batch;
  //! The small-path study (warm, ns per call) and its choice per intent; written as [small.*].
  std::optional<SmallStudy> small;
  Findings findings;
  double seconds = 0;
  std::string level;
  std::string date; //!< UTC, RFC 3339
  std::string libc; //!< the C library whose memset was the incumbent, e.g. "glibc 2.41"
  std::vector<std::string> notes; //!< what was narrowed to fit the time limit
  //! Every decision's race, a line each: its outcome, the winner's bound over memset and the
  //! states it held in, and why each other candidate left (race_text).
  std::vector<std::string> races;
  //! clearjit_clear_parallel measured at 1..N threads on the chosen tables, and the
  //! [parallel.<intent>] tables chosen; empty when not run (cpus < 2, or max_size < 4 MiB).
  std::optional<ParallelStudy> parallel;
  //! The races' confidence and tie band (each race's min_gain is in its record).
  RaceOptions race_options;
  //! Every race, the thread counts' too, as the raw measurements keep it: what `clearjit choose`
  //! judges again.
  std::vector<RaceRecord> race_records;
  //! The classes the verification gave to memset.
  std::vector<MemsetRepair> memset_repairs;
  //! The last stage: the profile's dispatchers against memset, and what it repaired (the
  //! tables and small paths above are the repaired ones). Empty `measured` when not run.
  Verification verification;
  //! `--glibc-tunables`: the lines tried for glibc's memset thresholds and their check; none
  //! when not asked.
  std::optional<TunablesStudy> glibc_tunables;
};

//! Measures on this host and chooses. Throws std::runtime_error when it cannot measure at all.
TuneResult tune(const TuneOptions &options, const CpuInfo &cpu);
//! The same with `bench` measuring (a test's synthetic timings).
TuneResult tune(const TuneOptions &options, const CpuInfo &cpu, Meter &bench);

} // namespace cjit::detail
