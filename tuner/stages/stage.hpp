// A stage after the races, as one object: what it measures and for how long, its run on the
// tables the races chose, and all it writes and reads back: its part of the profile, its
// summary and report sections, its section of the raw file, and its merge for `clearjit choose`.
// A new stage is its class (stage_<name>.cpp here) and its row of tune_stages()
// (stage_table.cpp); the tune, its outputs, the raw file and `clearjit choose` call it through
// this interface and name no stage.
#pragma once

#include "jit/model/cpu.hpp"
#include "jit/profile/profile.hpp"
#include "tuner/measure/measure.hpp"
#include "tuner/race/race.hpp"
#include "tuner/stages/plan.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cjit::detail {

struct TuneResult;

//! What a stage measures with.
struct StageContext {
  Meter &meter;
  const CpuInfo &cpu;
  const LevelPlan &plan;
  const RaceOptions &race_options;
  MeasureOptions measure; //!< the plan's repetitions and time per repetition; the stage's label
  uint64_t min_size = 0, max_size = 0; //!< the tuned range
  unsigned cpus = 1;                   //!< CPUs a stage may run threads on
  std::optional<double> seconds_left;  //!< the run's budget left as it starts; none: no limit

  //! As races measure: one repetition of the races' time per sample.
  MeasureOptions race_measure() const {
    MeasureOptions o = measure;
    o.repetitions = 1;
    o.min_time = plan.race_min_time;
    return o;
  }
};

//! What `clearjit choose` gives a stage: each host's section of the raw file (null where a
//! file has none), what every host has, and the profile chosen so far.
struct StageMerge {
  std::vector<const nlohmann::json *> sections;
  const CpuInfo &fleet;
  Profile &profile;
  std::vector<std::string> &notes; //!< the profile's [tuning] comments
};

//! A stage's own result, kept in TuneResult::stage_results under its name.
struct StageResult {
  virtual ~StageResult() = default;
};

class Stage {
public:
  virtual ~Stage() = default;
  //! Progress shows it; it keys the stage's result.
  virtual std::string_view name() const = 0;
  //! The key of its section of the raw file, which check_raw and merge are given.
  virtual std::string_view raw_key() const { return name(); }
  virtual std::string_view measures() const = 0;
  //! Its time, estimated before any race runs: the races' budget sets it aside.
  virtual double seconds(const StageContext &c) const = 0;
  //! Runs on the tables the races and the stages before it left in `r`.
  virtual void run(const StageContext &c, TuneResult &r) const = 0;

  // What it writes; nothing unless it says.
  //! Its part of the profile that the runtime reads.
  virtual void profile(const TuneResult &, Profile &) const {}
  //! Its TOML tables after [findings], for people and tools.
  virtual std::string profile_toml(const TuneResult &) const { return {}; }
  virtual std::string summary(const TuneResult &) const { return {}; }
  virtual std::string report_html(const TuneResult &) const { return {}; }
  //! Its section of the raw file (raw.hpp) under raw_key(); never one of the file's own keys.
  virtual void raw(const TuneResult &, nlohmann::ordered_json &) const {}
  //! Checks its section of a raw file read back, `path` its key; throws SchemaError (json_read.hpp)
  //! naming what is wrong.
  virtual void check_raw(const nlohmann::json &, const std::string &) const {}
  //! `clearjit choose`: its part of the profile from every host's section.
  virtual void merge(StageMerge &) const {}
};

//! The stages after the races, in the order they run: each is measured on the tables the one
//! before it left.
std::span<const Stage *const> tune_stages();

} // namespace cjit::detail
