// The last stage of every tune: the profile about to be written, opened as an application opens
// it, raced against memset at points the other stages did not use, and repaired where it loses.
#pragma once

#include "tuner/measure/measure.hpp"
#include "tuner/race/race.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cjit::detail {

//! One point the verification measures: warm (ns per call, a fixed size or a mix, destination
//! in L1) or cold (GB/s at a destination pattern).
struct VerifyPoint {
  Intent intent = Intent::reuse;
  uint64_t size = 0; //!< 0 for a mix
  Mix mix = Mix::fixed;
  bool warm = false;
  Pattern pattern = Pattern::consecutive; //!< cold points only
  auto operator<=>(const VerifyPoint &) const = default;
};
//! "stream 48 B warm", "reuse 16 KiB consecutive", "stream log-uniform 1..256 B warm".
std::string point_name(const VerifyPoint &p);

//! Warm sizes, none the small-path study's but 64 (where strategies change stores); both mixes.
std::vector<uint64_t> verify_warm_sizes();
//! Cold small sizes (scattered and consecutive): other than the study's 8, 32, 64 and 256 B.
std::vector<uint64_t> verify_cold_sizes();

//! Every point for `p`: warm and cold small points per intent (both patterns), and each class
//! boundary at 0.8x and 1.25x (rounded to 64 B, in [min, max], above the small path) scattered and
//! consecutive.
std::vector<VerifyPoint> verify_points(const Profile &p, const CpuInfo &cpu, uint64_t min_size,
                                       uint64_t max_size);

//! Whether memset itself clears `p`'s point: a fixed size in a `libc` band of the small path or
//! a `libc` class above it; a mix where every size it draws is.
bool served_by_memset(const Profile &p, const CpuInfo &cpu, const VerifyPoint &point);

//! A point loses beyond the noise (kWarmNoise, kColdFloor: race.hpp).
//! `ratio`: warm, time / memset's; cold, speed / memset's.
bool loses(const VerifyPoint &p, double ratio);

//! What a repair changed (per intent, said) and what it could not.
struct Repair {
  Profile profile;
  std::vector<std::pair<Intent, std::string>> done;
  //! The losses it could not repair, each with why (a verification judges them itself).
  std::vector<std::pair<VerifyPoint, std::string>> left;
  std::vector<Intent> small_changed; //!< intents whose small path was replaced
  //! Per intent, the change in `done` that gave its small path another strategy than memset:
  //! the one a verification keeps only where the intent measures better. Every other change
  //! hands sizes to memset, which cannot lose to itself, and is kept.
  std::map<Intent, size_t> to_strategy;
};
//! Repairs every confirmed loss (point, its ratio per measurement): a class not memset becomes
//! `libc` (merged with libc neighbours); a small path takes `ranking`'s next strategy not in
//! `tried`, same max. A `libc` class's loss is noise, said in `left`.
Repair repair(const Profile &p, const std::map<VerifyPoint, std::vector<double>> &losses,
              const std::map<Intent, std::vector<SmallPath>> &ranking,
              std::map<Intent, std::vector<SmallPath>> &tried, const CpuInfo &cpu);

struct Verification {
  std::string measured;                //!< what was measured, in a line
  std::string libc;                    //!< whose memset: "glibc 2.41"
  std::map<Intent, double> worst_warm; //!< time / memset's, the worst warm point
  std::map<Intent, double> worst_cold; //!< speed / memset's, the worst cold point
  std::vector<std::string> repaired, left;
  std::vector<std::string> undone; //!< repairs measured no better, taken back
  //! Confirmed losses no repair settles that, raced again against memset measured beside
  //! itself, were memset's own noise there: said with both measurements, not counted.
  std::vector<std::string> noise;
  //! The confirmed losses left in the profile (said in `left`).
  std::vector<VerifyPoint> lost;
  std::map<VerifyPoint, double> ratios; //!< the final ratio of every point
  //! Per intent, the small paths the repairs replaced (a confirmed loss of theirs).
  std::map<Intent, std::vector<SmallPath>> small_tried;
  std::vector<Measurement> measurements;
  double seconds = 0;
  int rounds = 0; //!< race rounds (the first races and the repaired profile's)
};

//! Code places (the profile opened this many times) each warm point is measured at.
constexpr int kVerifyPlaces = 4;

//! Whether `x` is one of the points intent i's small path serves, up to `small_max`: the fixed
//! sizes up to small_max, warm or cold, and the mixes (their smaller sizes at least).
bool on_small_path(const VerifyPoint &x, Intent i, unsigned small_max);

//! The worst point of intent i's small path (on_small_path) against the noise bound (above 1:
//! a loss): the largest of warm ratio / kWarmNoise and kColdFloor / cold ratio, each the
//! geometric mean of its measurements.
double small_path_badness(const std::map<VerifyPoint, std::vector<double>> &history, Intent i,
                          unsigned small_max);

//! Races every point of `p` against memset (race.hpp) and repairs its losses in place, racing the
//! changed intent again: what a repair hands to memset is kept; a small path given another
//! strategy whose own points measure no better (small_path_badness) is taken back and repaired
//! no further; at most kRepairRounds.
//! `ranking`: small-path strategies, best first. Without `repairs_allowed`
//! (`clearjit verify`), nothing is repaired. A loss no repair settles is raced again beside
//! memset measured twice: said in `noise` where memset against itself strays as far, else in
//! `left`.
Verification verify(Meter &bench, Profile &p, const CpuInfo &cpu, const MeasureOptions &options,
                    const RaceOptions &race,
                    const std::map<Intent, std::vector<SmallPath>> &ranking, uint64_t min_size,
                    uint64_t max_size, bool repairs_allowed = true);

//! What verify() will take for `boundaries` class boundaries per intent: the rounds that bound a
//! median at `confidence`, twice.
double verify_seconds(const Meter &bench, const CpuInfo &cpu, const MeasureOptions &options,
                      double confidence, int boundaries);

//! The [verification] table of a profile (informational: the runtime reads it not).
std::string verification_toml(const Verification &v);
//! For the tune's summary.
std::string verification_text(const Verification &v);
//! Where each confirmed loss of `v` lies in `p`, one line per class or small path with its
//! points: "reuse 4 KiB .. 64 KiB: movnti", "stream small path: masked, up to 256 B".
std::vector<std::string> losing_parts(const Profile &p, const CpuInfo &cpu, const Verification &v);
//! One of a profile's memset classes: its stand-in raced against this process's memset at a size
//! inside it (docs/design/profile-format.md, stand-ins). `score`: the stand-in's per-round speed
//! over memset's, over the race's states; `gbps`: each one's median, scattered.
struct StandInSpeed {
  Intent intent = Intent::reuse;
  uint64_t lower = 0, below = 0; //!< the class, below 0: up
  Spec stand_in;
  uint64_t size = 0;
  Interval score;
  double memset_gbps = 0, stand_in_gbps = 0;
};
//! For each memset class of `p` with a stand-in (its own tables, before any routing), a race of
//! the stand-in against memset just inside each end of the class within [min_size, max_size]
//! (1.25x its lower bound, 0.8x its upper; one size where they meet), scattered and, where the
//! arena holds four destinations, consecutive.
std::vector<StandInSpeed> stand_in_speeds(Meter &bench, const Profile &p, const CpuInfo &cpu,
                                          const MeasureOptions &options, const RaceOptions &race,
                                          uint64_t min_size, uint64_t max_size);
//! The table `clearjit verify` prints of them, one line a size, "" for none.
std::string stand_in_text(const std::vector<StandInSpeed> &speeds, const std::string &libc);

//! `profile` (a profile file's text) with its [verification] tables, if any, replaced by `v`'s
//! at the end: every other line as it was.
std::string with_verification(std::string_view profile, const Verification &v);

} // namespace cjit::detail
