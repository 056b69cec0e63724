// Tuning the small path: every strategy the CPU runs, as a whole dispatcher over the profile's
// tables, raced against memset warm and cold; docs/design/small-path.md has why.
#pragma once

#include "tuner/measure/measure.hpp"
#include "tuner/race/race.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cjit::detail {

//! Sizes the strategy is chosen on (with both mixes): 1..256 B.
std::vector<uint64_t> small_strategy_sizes();
//! The smallest max the tuner chooses: the small path serves up to 256 B, since a class kernel
//! at 129..256 B is as fast warm but not cold (docs/design/small-path.md, `max`).
constexpr unsigned kSmallTunedFrom = 256;

//! Code places each warm case is measured at, memset too, scored by their geometric mean:
//! placement alone moves a warm call beyond the noise (docs/design/measuring.md, noise).
constexpr int kSmallPlacements = 3;

//! Sizes the max is chosen on, for the chosen strategy: 160 B..1 KiB.
std::vector<uint64_t> small_max_sizes();

//! Sizes each strategy is also measured at cold destinations, consecutive and scattered (stage 1).
std::vector<uint64_t> small_cold_sizes();

//! The cold veto's confidence, fixed whatever the level (the quick level's), so that every reader
//! of the measurements (the race, the ranking, the report, the raw file) judges alike.
constexpr double kSmallColdConfidence = 0.90;

//! The cold points' weight w among the strategies left: score = worst_band^(1 - w) * cold^w,
//! cold the geometric mean of time over memset's at the consecutive cold points. 0.1 assumes one
//! small clear in ten is cold (a choice, not measured), so a cold loss weighs little.
constexpr double kColdWeight = 0.1;

//! Cold: median ns per call per candidate, pattern and size (`measured`; memset's under
//! memset_candidate()); the candidates confidently below kColdFloor of memset's speed at a point,
//! consecutive or scattered, with the worst such point (`out`: "8 B scattered: 0.87x (at most
//! 0.89x) memset's speed over 8 rounds"); each candidate's worst median speed over memset's at a
//! point with enough rounds for a bound (`worst`); and its cold ratio, time over memset's, over
//! the consecutive points (`ratio`). Speed ratios are paired: the k-th measurement of a strategy
//! and of memset at a point are one round of the race (one sample each).
struct SmallCold {
  std::map<Candidate, std::map<std::pair<Pattern, uint64_t>, double>> measured;
  std::map<Candidate, std::string> out;
  //! The sizes at which each candidate is confidently below kColdFloor, either pattern.
  std::map<Candidate, std::set<uint64_t>> out_at;
  std::map<Candidate, double> worst;
  std::map<Candidate, double> ratio;
};
SmallCold small_cold(const std::vector<Measurement> &ms, Intent intent);

//! `c`'s ns per call / memset's, measured beside it, in each case of stage 1: key (mix,
//! size), size 0 for a mix. Empty when a case of either is missing.
std::map<std::pair<int, uint64_t>, double> ratios_to_memset(const std::vector<Measurement> &ms,
                                                            Intent intent, const Candidate &c);

//! The worst band of ratios_to_memset(), each band the geometric mean of its ratios: sizes
//! 1..3, 4..15, 16..63, 64..128 and 129..256 B, and each mix alone; 0 when there are none. Bands,
//! not single cases: one case's ratio moves with the run (docs/design/small-path.md, tried, not
//! kept).
double worst_ratio_to_memset(const std::vector<Measurement> &ms, Intent intent, const Candidate &c);
//! The same from ratios already taken (ratios_to_memset()).
double worst_band(const std::map<std::pair<int, uint64_t>, double> &ratios);

//! The strategies measured at max 256 for `intent`: those that keep the promise (not out cold,
//! worst band within kWarmNoise) best first by worst band and cold ratio (kColdWeight), then the
//! others, the smallest loss (warm band or cold point) first. What the verification tries when
//! the chosen one loses.
std::vector<SmallPath> rank_small(const std::vector<Measurement> &ms, Intent intent);
//! A strategy's place in the ranking: `kept` (it keeps the promise) with its score, else its
//! worst loss; both time over memset's, lower is better.
struct SmallScore {
  SmallPath path;
  double score = 0;
  bool kept = false;
};
//! rank_small's strategies with their scores, best first.
std::vector<SmallScore> small_scores(const std::vector<Measurement> &ms, Intent intent);

//! The size bands a small path is judged and banded on, as worst_band's: [0, 4), [4, 16),
//! [16, 64), [64, 129) and from 129 up; each band's end a `below` a banded path may have.
constexpr unsigned kSmallBandEnds[] = {4, 16, 64, 129};
constexpr size_t kSmallBands = std::size(kSmallBandEnds) + 1;
size_t small_band(uint64_t n);

//! The strategy of each band of `p` (at the band's first size), and the path of such picks:
//! adjacent equal picks merged, the last band the path's own strategy.
std::array<Small, kSmallBands> band_picks(const SmallPath &p);
SmallPath from_band_picks(const std::array<Small, kSmallBands> &picks, unsigned max);

//! memset is the incumbent of every band, and a path holds at most one strategy beside it (a
//! path through several would pay their branches on a mix, which nothing measured). `chosen`
//! (the ranking's first) keeps a band where it keeps the promise there: warm within kWarmNoise of
//! memset's time on the band and on both mixes, not out cold at a point in it (the band below 4 B
//! goes with the band at 8 B, the smallest cold point); elsewhere memset (libc, measured through
//! the dispatcher like the others) takes the band where it keeps the promise. Where `chosen` is
//! memset, the strategy that keeps the promise and beats memset beyond the noise (time below 1 /
//! kWarmNoise of memset's) on the most bands takes those bands: the warm gain, where it is safe.
SmallPath band_small(const std::vector<Measurement> &ms, Intent intent, const SmallPath &chosen);

//! Stage 1, a pure function: the first of rank_small(), banded (band_small) (the worst band, not an
//! average: the promise holds per size). Stage 2: that strategy's max with the lowest geometric
//! mean over small_max_sizes(). `fallback` without measurements.
SmallPath choose_small(const std::vector<Measurement> &ms, Intent intent, SmallPath fallback);

//! Stage 2 alone, from kSmallTunedFrom up; `chosen` as it is without measurements.
SmallPath choose_small_max(const std::vector<Measurement> &ms, Intent intent, SmallPath chosen);

struct SmallStudy {
  std::vector<Measurement> measurements;
  SmallPath reuse, stream;
  int rounds = 0;                        //!< stage 1's race rounds, both intents
  std::map<Intent, int> settled_at = {}; //!< the round each intent's race stopped at
  //! Per intent, the strategies that left stage 1's race and why ("tree out at round 5: behind
  //! stosb: 1.90x (at least 1.70x) its worst band"), and those still in at its end.
  std::map<Intent, std::vector<std::string>> dropped = {};
  std::map<Intent, std::vector<Small>> remaining = {};
  //! The intents whose race stopped because no strategy still in kept the promise.
  std::map<Intent, bool> none_kept = {};
  //! measurements[0, stage1) are stage 1's, the ones the strategy was chosen on (stage 2 measures
  //! memset and the chosen strategy again at 160 and 256 B); all of them when larger.
  size_t stage1 = SIZE_MAX;
  std::vector<Measurement> stage1_measurements() const {
    return {measurements.begin(), measurements.begin() + std::min(stage1, measurements.size())};
  }
};

//! Races the strategies (stage 1, at `race`'s confidence, rounds and tie band) for `profile`'s
//! tables, then measures the chosen one's maxes (stage 2), and chooses per intent.
SmallStudy study_small(Meter &bench, const Profile &profile, const CpuInfo &cpu,
                       const MeasureOptions &options, const RaceOptions &race);

//! What study_small will take, estimated before it runs (for the tuner's time limit): stage 1's
//! fewest rounds at `confidence` and stage 2.
double small_study_seconds(const Meter &bench, const CpuInfo &cpu, const MeasureOptions &options,
                           double confidence);

//! Stage 1's race of `intent` in a line: "small path reuse, 6 rounds: stosb; tree out at round
//! 5: behind stosb: ...; still in: masked".
std::string small_race_text(const SmallStudy &s, Intent intent);

//! A table: strategy x size, ns per call, memset beside; the choice per intent.
std::string small_study_text(const SmallStudy &s);

} // namespace cjit::detail
