// The last stage of every tune: the dispatcher generated from the profile about to be written,
// measured against memset independently of the measurements that chose it (other sizes, other
// draws of the warm call sequences, called through a clearjit handle as an application calls
// it, at several code places), and repaired where it loses beyond the noise.
#pragma once

#include "tuner/choose/race.hpp"
#include "tuner/measure/measure.hpp"

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

//! Warm sizes: none of them a size the small-path study chose on, but 64 (where strategies
//! change stores); with both mixes.
std::vector<uint64_t> verify_warm_sizes();
//! Cold small sizes (consecutive destinations): other than the study's 8, 32, 64 and 256 B.
std::vector<uint64_t> verify_cold_sizes();

//! Every point for `p`'s tables: warm sizes and mixes and cold small sizes per intent, and each
//! class boundary from both sides (0.8x and 1.25x, rounded to 64 bytes, within [min, max] and
//! above the small path's max) at scattered and consecutive destinations.
std::vector<VerifyPoint> verify_points(const Profile &p, const CpuInfo &cpu, uint64_t min_size,
                                       uint64_t max_size);

//! A point's measured ratio loses beyond the noise: warm, more than kWarmNoise of memset's time
//! (one warm case moves by about 5% between runs); cold, under kColdFloor of memset's speed (the
//! promise's floor, within the few percent code placement moves a call by).
constexpr double kWarmNoise = 1.05, kColdFloor = 0.97;
//! `ratio`: warm, time / memset's; cold, speed / memset's.
bool loses(const VerifyPoint &p, double ratio);

//! What a repair changed (per intent, said) and what it could not.
struct Repair {
  Profile profile;
  std::vector<std::pair<Intent, std::string>> done;
  std::vector<std::string> left;
  std::vector<Intent> small_changed; //!< intents whose small path was replaced
};
//! Repairs every confirmed loss (point, its ratio in each measurement): a size class that is not
//! memset becomes memset (`libc`, merged with libc neighbours); a small path, warm or cold, takes
//! the next strategy of `ranking` (best first; the ones in `tried` skipped) at the same max. A
//! loss of memset itself (a `libc` class) is noise and is left, said in `left`.
Repair repair(const Profile &p, const std::map<VerifyPoint, std::vector<double>> &losses,
              const std::map<Intent, std::vector<SmallPath>> &ranking,
              std::map<Intent, std::vector<SmallPath>> &tried, const CpuInfo &cpu);

struct Verification {
  std::string measured;                //!< what was measured, in a line
  std::map<Intent, double> worst_warm; //!< time / memset's, the worst warm point
  std::map<Intent, double> worst_cold; //!< speed / memset's, the worst cold point
  std::vector<std::string> repaired, left;
  std::vector<std::string> undone; //!< repairs measured no better, taken back
  //! The confirmed losses left in the profile; a memset class's, noise, are in `left` alone.
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

//! How far an intent's worst point is from the noise: the largest of a warm point's ratio over
//! kWarmNoise and kColdFloor over a cold point's ratio (above 1: a loss), each point the
//! geometric mean of its measurements.
double badness(const std::map<VerifyPoint, std::vector<double>> &history, Intent i);

//! Measures `p` (repairing it in place) against memset: every point is a race (race.hpp) of the
//! dispatcher against memset in paired rounds, at `race`'s confidence and rounds, and loses where
//! the bound of its ratio is beyond the noise (kWarmNoise, kColdFloor); a loss is repaired and
//! the changed intent's points raced again. A repair whose intent measures no better than before
//! (badness) is undone, and that intent is repaired no further; at most kRepairRounds rounds.
//! `ranking`: each intent's small-path strategies, best first. Without `repairs_allowed`
//! (`clearjit verify`), losses are only said, in `left`, and `p` stays as it is.
Verification verify(Bench &bench, Profile &p, const CpuInfo &cpu, const MeasureOptions &options,
                    const RaceOptions &race,
                    const std::map<Intent, std::vector<SmallPath>> &ranking, uint64_t min_size,
                    uint64_t max_size, bool repairs_allowed = true);

//! What verify() will take for a profile of `boundaries` class boundaries per intent (the tuner
//! reserves it before its first stage): the rounds that bound a median at `confidence`, twice.
double verify_seconds(const Bench &bench, const CpuInfo &cpu, const MeasureOptions &options,
                      double confidence, int boundaries);

//! The [verification] table of a profile (informational: the runtime reads it not).
std::string verification_toml(const Verification &v);
//! For the tune's summary.
std::string verification_text(const Verification &v);
//! Where each confirmed loss of `v` lies in `p`: "reuse 4 KiB .. 64 KiB: movnti" (a class) or
//! "stream small path: masked, up to 256 B", with its points, one line per class or small path.
std::vector<std::string> losing_parts(const Profile &p, const CpuInfo &cpu, const Verification &v);
//! `profile` (a profile file's text) with its [verification] tables, if any, replaced by `v`'s
//! at the end: every other line as it was.
std::string with_verification(std::string_view profile, const Verification &v);

} // namespace cjit::detail
