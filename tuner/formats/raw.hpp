// The raw measurements of a tune (`clearjit tune --json`): every measurement, and every race as
// it ran, with what the stages after the races decided, so that `clearjit choose` (fleet.hpp)
// judges the races again, on the files of several hosts.
#pragma once

#include "tuner/stages/tune.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cjit::detail {

//! The largest raw file read: a default tune's is a few MiB.
constexpr size_t kRawJsonMaxBytes = size_t(64) << 20;
//! The raw file's "format", its first key: what a reader must understand to read it. Files
//! written before the key (up to 2026-12-07) have none, and read as format 1.
constexpr int kRawFormat = 1;

//! One tune's raw file, as read back.
struct RawTune {
  std::string name; //!< the file, for messages
  ProfileHost host;
  unsigned cpus = 0; //!< CPUs the tune could use
  std::string level, date;
  std::string libc;    //!< whose memset was the incumbent; empty in files before 2026-12-05
  RaceOptions options; //!< confidence and tie band (each race keeps its min_gain)
  std::vector<RaceRecord> races;
  std::vector<MemsetRepair> memset_repairs;
  //! Per intent, the small path the tune chose, stage 1's ranking (small_scores), and the
  //! strategies the verification replaced (a confirmed loss on this host).
  std::map<Intent, SmallPath> small;
  std::map<Intent, std::vector<std::pair<SmallPath, double>>> small_ranking;
  std::map<Intent, std::vector<Small>> small_rejected;
  NoAllocate stosb_no_allocate;
  //! The sections of the stages that read their own back (Stage::check_raw), by their names.
  std::map<std::string, nlohmann::json, std::less<>> stage_sections;
};

//! The raw file of a tune: the host, every measurement, every race's samples, the verification's
//! repairs, the small paths and the no-allocate step.
std::string measurements_json(const TuneResult &r, const CpuInfo &cpu);

//! A measurement's row as every JSON output has it: kernel, size, intent, pattern, batched, gbps
//! (rounded to 3 decimals) and cv (to 4); each output adds its own keys.
nlohmann::ordered_json measurement_row(const Measurement &m);

//! Reads a raw file (`name` in messages); every error names the file and the key path. Each of
//! `stages` checks its own section.
Result<RawTune> read_raw(std::string_view text, std::string_view name,
                         std::span<const Stage *const> stages = tune_stages());

} // namespace cjit::detail
