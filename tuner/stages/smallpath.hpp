// Tuning the small path: every strategy this CPU runs, generated as a whole dispatcher over the
// profile's tables, raced warm (ns per call) at fixed sizes and mixes and cold against memset;
// the ranking is a pure function of the measurements.
#pragma once

#include "tuner/choose/race.hpp"
#include "tuner/measure/measure.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cjit::detail {

//! Sizes the strategy is chosen on (with both mixes): 1..256 B.
std::vector<uint64_t> small_strategy_sizes();
//! The smallest max the tuner chooses: up to 256 B the small path serves, as it always did.
//! Warm, a class kernel at 129..256 B is as fast (tree:128 3.68 ns against tree:256 3.51 at
//! 256 B on Zen 5), but cold it is not: avx2:unroll=4 took 121 ns against memset's 103 at
//! 256 B, scattered, where the small path's head/tail stores take memset's time.
constexpr unsigned kSmallTunedFrom = 256;

//! Each warm case of a candidate is measured with its code at this many places (copies generated
//! one after another), each called from its own place of the timing loop (warmloop.hpp; memset
//! too), and scored by their geometric mean: on Zen 5 the same code's warm time ranged
//! 0.77x..1.03x of memset's over 24 places (docs/results/amd-family26-model2/small-placement.txt,
//! vec aligned, 8 B).
constexpr int kSmallPlacements = 3;

//! Sizes the max is chosen on, for the chosen strategy: 160 B..1 KiB.
std::vector<uint64_t> small_max_sizes();

//! Sizes each strategy is also measured at cold destinations, consecutive and scattered (stage 1).
std::vector<uint64_t> small_cold_sizes();

//! A strategy more than this factor slower cold than memset, the promise's reference, at any
//! consecutive point of small_cold_sizes(), in every measurement of that point (at least two),
//! is out however fast it is warm. Against memset, not the other strategies: on an Intel Xeon
//! (family 6 model 207) masked took 10.25 and 11.10 ns at 32 B cold consecutive in two tunes,
//! against median strategies of 7.24 and 7.85, and was put out by the median rule, while a
//! separate measurement had it faster than memset cold (26.4 ns against 29.4 at 32 B, one clear
//! per 4 KiB page) and 0.90x memset's time warm; ladder, chosen instead, took 1.9x memset's time
//! on the warm mix (docs/results/intel-family6-model207/README.md). Repeated, because single
//! cold points are noisy: on Zen 5 two lucky points of the strategies put every one but ladder
//! out against the fastest (docs/results/amd-family26-model2/small-cold-band-median.txt).
constexpr double kColdBand = 1.25;

//! How much the cold points weigh against the warm ones among the strategies left: the score
//! is worst_band^(1 - w) * cold^w, cold the geometric mean of the strategy's time over memset's
//! at the consecutive cold points. Most small clears are warm (a buffer reused, a struct on a
//! hot stack); the share is not measured, so w = 0.1 says one in ten finds its line cold, and
//! cold speed decides only between strategies within a few percent warm: a strategy at the
//! veto's bound (1.25x memset cold) pays 2.3% of its score.
constexpr double kColdWeight = 0.1;

//! Cold: each candidate's median ns per call at small_cold_sizes() in each pattern over every
//! measurement (`measured`; memset's under memset_candidate()), each consecutive point's median per
//! measurement in order (`rounds`), the candidates out by kColdBand (`out`, with why: "32 B: 10.25,
//! 11.10 ns against memset's 8.40, 8.61") and each one's cold ratio to memset (`ratio`, the
//! geometric mean over the consecutive points). Scattered points are shown, not used: on Zen 5
//! they matter (reuse: rep stosb below 128 B took 89..100 ns per call against the tree's 67..80
//! at 11..15 repetitions, docs/results/amd-family26-model2/small-stosb-cold.txt), but at the
//! study's repetitions single points were up to 2.4x their neighbours
//! (docs/results/amd-family26-model2/small-cold-scattered.txt).
struct SmallCold {
  std::map<Candidate, std::map<std::pair<Pattern, uint64_t>, double>> measured;
  std::map<Candidate, std::map<uint64_t, std::vector<double>>> rounds;
  std::map<Candidate, std::string> out;
  std::map<Candidate, double> ratio;
  //! The consecutive points (candidate, size) where a strategy lost to memset by kColdBand in its
  //! latest measurement: what the study measures again before anything is put out.
  std::vector<std::pair<Candidate, uint64_t>> suspects;
};
SmallCold small_cold(const std::vector<Measurement> &ms, Intent intent);

//! `c`'s ns per call / memset's, measured beside it, in each case of stage 1: key (mix,
//! size), size 0 for a mix. Empty when a case of either is missing.
std::map<std::pair<int, uint64_t>, double> ratios_to_memset(const std::vector<Measurement> &ms,
                                                            Intent intent, const Candidate &c);

//! The worst band of ratios_to_memset(), each band the geometric mean of its ratios: neighbouring
//! sizes 1..3, 4..15, 16..63, 64..128 and 129..256 B (64 and 128 are where glibc's memset, vec
//! and masked change stores), and each mix alone. 0 when there are none. Bands, not single
//! sizes: one case's ratio moves by ±5% from run to run, and the largest of 20 such is a draw
//! between strategies at parity (on Zen 5 a tune chose vec over masked by 1.08x to 1.09x, the
//! latter on one 32 B case, where every `clearjit bench` run put vec's mixes at 1.05..1.14x and
//! masked's at 0.95..1.01x); a loss over a band of sizes or on a mix is systematic.
double worst_ratio_to_memset(const std::vector<Measurement> &ms, Intent intent, const Candidate &c);
//! The same from ratios already taken (ratios_to_memset()).
double worst_band(const std::map<std::pair<int, uint64_t>, double> &ratios);

//! The strategies measured at max 256 for `intent` and not out by kColdBand, best first: by
//! worst_ratio_to_memset() weighed with the cold ratio (kColdWeight). What the tuner's
//! verification tries next when the chosen one loses.
std::vector<SmallPath> rank_small(const std::vector<Measurement> &ms, Intent intent);
//! rank_small's strategies with their scores (time over memset's, lower is better), best first.
std::vector<std::pair<SmallPath, double>> small_scores(const std::vector<Measurement> &ms,
                                                       Intent intent);

//! Stage 1, a pure function: the first of rank_small(). The promise is "never slower
//! than memset" at every size and mix, so the worst case chooses: on Zen 5 a strategy of four
//! overlapping stores per size range won an average (mixes 0.92x memset) while taking 1.3x
//! memset's time at 64..128 B.
//! Stage 2: for that strategy, the max with the lowest geometric mean over small_max_sizes()
//! (sizes above a max are the classes' kernels). Falls back to `fallback` without measurements.
SmallPath choose_small(const std::vector<Measurement> &ms, Intent intent, SmallPath fallback);

//! Stage 2 alone: `chosen`'s strategy at the max with the lowest geometric mean over
//! small_max_sizes() (from kSmallTunedFrom up); `chosen` as it is without measurements.
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
  //! measurements[0, stage1) are stage 1's, the ones the strategy was chosen on (stage 2 measures
  //! memset and the chosen strategy again at 160 and 256 B); all of them when larger.
  size_t stage1 = SIZE_MAX;
  std::vector<Measurement> stage1_measurements() const {
    return {measurements.begin(), measurements.begin() + std::min(stage1, measurements.size())};
  }
};

//! Races the strategies (stage 1, at `race`'s confidence, rounds and tie band) for `profile`'s
//! tables, then measures the chosen one's maxes (stage 2), and chooses per intent.
SmallStudy study_small(Bench &bench, const Profile &profile, const CpuInfo &cpu,
                       const MeasureOptions &options, const RaceOptions &race);

//! What study_small will take, estimated before it runs (for the tuner's time limit): stage 1's
//! fewest rounds at `confidence` and stage 2.
double small_study_seconds(const Bench &bench, const CpuInfo &cpu, const MeasureOptions &options,
                           double confidence);

//! Stage 1's race of `intent` in a line: "small path reuse, 6 rounds: stosb; tree out at round
//! 5: behind stosb: ...; still in: masked".
std::string small_race_text(const SmallStudy &s, Intent intent);

//! A table: strategy x size, ns per call, memset beside; the choice per intent.
std::string small_study_text(const SmallStudy &s);

} // namespace cjit::detail
