// `clearjit choose`: one profile from the raw measurements of several hosts of one CPU model
// (raw.hpp). Every race is judged again on each host's samples (replay_race), the standings are
// merged host by host (a candidate beats memset where it does on every host; its bounds are the
// worst host's), and the tuner's own rules build the tables from them.
#pragma once

#include "tuner/formats/raw.hpp"

#include <span>
#include <string>
#include <vector>

namespace cjit::detail {

//! One host as its file describes it: the profile keeps each in [[host.each]].
struct FleetHost {
  std::string file, level, date, libc;
  ProfileHost host;
  unsigned cpus = 0;
};

struct FleetChoice {
  //! [host]: the model, the features every host has, the smallest caches, `hosts`; brand and
  //! stepping where every host has the same, else empty and 0 (each host's in `each`).
  Profile profile;
  NoAllocate stosb_no_allocate;
  std::optional<uint64_t> nontemporal_reuse, nontemporal_stream;
  std::vector<NontemporalRun> nontemporal_reuse_runs, nontemporal_stream_runs;
  std::vector<std::string> races; //!< every merged decision in a line (race_text)
  std::vector<std::string> notes; //!< how the hosts differ, what was judged how, and why
  std::vector<FleetHost> each;    //!< every host, in the order given
  CpuInfo cpu; //!< what every host has: the features of the intersection, the smallest caches
};

//! Chooses one profile from `runs` (at least one; one run gives the profile its tune wrote,
//! without the [verification] table). Fails, naming them, where the runs are of different CPU
//! models, or two of them are one tune (one file given twice, or a copy).
//! Each of `stages` merges its own section of the files (Stage::merge).
Result<FleetChoice> choose_fleet(const std::vector<RawTune> &runs,
                                 std::span<const Stage *const> stages = tune_stages());

//! The profile file of a choice, with its [tuning] (the files, the notes) and [findings] tables.
std::string fleet_toml(const FleetChoice &c);

} // namespace cjit::detail
