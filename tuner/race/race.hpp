// Racing: every decision of the tuner is a race among candidates, memset the incumbent. A round
// measures each open race's remaining candidates once, interleaved; a candidate leaves when
// confidently not enough faster or behind the leader. Undecided means the incumbent
// (docs/design/tuner.md).
#pragma once

#include "tuner/measure/measure.hpp"
#include "tuner/measure/stats.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cjit::detail {

//! The promise's noise: a kernel or small path loses to memset beyond it where it takes more than
//! kWarmNoise of memset's time warm, or less than kColdFloor of its speed cold: a single case's
//! ratio moves by about this much from run to run (docs/design/measuring.md, noise). The
//! verification and the small path's cold veto judge by them.
constexpr double kWarmNoise = 1.05, kColdFloor = 0.97;

struct RaceOptions {
  //! One-sided confidence of each bound (stats.hpp, median_interval).
  double confidence = 0.95;
  //! Rounds a race runs at most; undecided then means the incumbent.
  int max_rounds = 12;
  //! A candidate replaces the incumbent only where the lower bound of its speed ratio exceeds
  //! this, in each required state and overall: the bias of code placement (a few percent).
  double min_gain = 1.03;
  //! Candidates bounded within 1 -/+ this of the leader are tied: the simplest of them wins.
  double tied = 0.05;
  //! Orders tied candidates: true when a is simpler than b. None: by name.
  std::function<bool(const Candidate &a, const Candidate &b)> simpler;
};

//! A destination state a race measures in (its Job's candidate replaced by each contender).
//! `required`: a candidate must beat the incumbent in it alone; else it only weighs in the score.
//! Not `scored`: measured for the record (reports, raw files) and judged nowhere.
struct Condition {
  Job job;
  bool required = true;
  bool scored = true;
};

struct Race {
  std::string name; //!< "reuse 64 KiB", for notes and reports
  std::vector<Condition> conditions;
  std::vector<Candidate> candidates; //!< without the incumbent
  Candidate incumbent = memset_candidate();
  int max_rounds = 0; //!< 0: RaceOptions::max_rounds
  //! Measured every round for the record, never judged (memset when it is not the incumbent).
  std::vector<Candidate> beside = {};
  //! A contender's job in a condition; none: the condition's job with the contender in it.
  std::function<Job(const Job &condition, const Candidate &contender)> job_for = {};
  //! The race's own RaceOptions::min_gain (0: the options'); below 1 (the verification's) it
  //! asks whether a candidate is confidently slower.
  double min_gain = 0;
};

//! A contender's standing: its speed over the incumbent's per state and over all (score).
struct Standing {
  Candidate candidate;
  std::vector<Interval> states = {}; //!< per condition, the per-round speed ratios to the incumbent
  Interval score = {};               //!< per round, their geometric mean over the conditions
  std::string out = {};              //!< why it left the race; empty while in
  //! The leader it left the race behind, where that was why (`clearjit choose` asks whether
  //! that leader runs on every host).
  std::optional<Candidate> behind = {};
  //! Confidently min_gain faster than the incumbent overall and in one required state (where the
  //! race has one), and confidently not slower (beyond 1/min_gain) in every required state (also
  //! after leaving behind the leader).
  bool beats = false;
  //! In the race and beats: what may win it.
  bool eligible = false;
  int rounds = 0; //!< rounds it was measured in
};

struct RaceOutcome {
  Candidate winner;     //!< the incumbent when no candidate is confidently faster
  bool settled = false; //!< stopped before its max rounds, the outcome clear
  int rounds = 0;
  //! The winner's lower bound of its score over the incumbent's (1 for the incumbent itself)
  //! and the conditions (their patterns) where its own lower bound beat min_gain.
  double gain = 1;
  std::vector<Pattern> held;
  std::vector<Standing> field; //!< every candidate, in the order given
};

//! A race's samples, [contender][condition][round], speeds (contenders() order); a contender
//! that left has only its rounds.
using RaceSamples = std::vector<std::vector<std::vector<double>>>;

//! The incumbent, the candidates, then those measured beside: RaceSamples' order.
inline std::vector<Candidate> contenders(const Race &race) {
  std::vector<Candidate> out{race.incumbent};
  out.insert(out.end(), race.candidates.begin(), race.candidates.end());
  out.insert(out.end(), race.beside.begin(), race.beside.end());
  return out;
}

//! Judges a race after a round: each candidate's standing from `samples`, who leaves (`in` is
//! updated), the winner, and whether it is settled. `o.rounds` is the caller's.
void judge_race(const Race &race, const RaceSamples &samples, const RaceOptions &options,
                std::vector<bool> &in, RaceOutcome &o);

//! A race's outcome judged again round by round from its samples, as Racing judged it
//! (clearjit choose): the same samples and options give the same outcome.
RaceOutcome replay_race(const Race &race, const RaceSamples &samples, const RaceOptions &options);

//! A race as the raw measurements keep it (tune --json): enough to judge it again elsewhere.
//! `race.min_gain` is the one it was judged with; its conditions keep their job's pattern.
struct RaceRecord {
  Race race;
  RaceSamples samples;
  //! What it decides: "reuse", "stream", "batch" (a size of that table), "variants" (of the race
  //! named without " variants"), "study" (a finding's), "parallel" (threads).
  std::string decides;
  Intent intent = Intent::reuse;
  uint64_t size = 0;
};

//! Speed of one sample: GB/s for a cold job, calls per ns for a warm one (higher is faster).
double speed(const Measurement &m, double sample);

//! A race in a line: "reuse 64 KiB, 5 rounds, settled: avx512 (at least 1.21x memset in
//! scattered, consecutive, hot); clzero out: hot: 0.31x (at most 0.40x) memset's speed".
std::string race_text(const Race &race, const RaceOutcome &o);
//! A race_text for a terminal: the outcome on the first line, then each other candidate on its
//! own, indented; every line starts with `prefix` and ends with a newline.
std::string race_lines(const std::string &race_text, const std::string &prefix);

//! The races of one decision stage, run together.
class Racing {
public:
  Racing(Meter &bench, RaceOptions options, MeasureOptions measure);

  //! Adds a race; returns its index.
  size_t add(Race race);

  //! Runs rounds until every race is settled or at its max, or the next round's estimate exceeds
  //! `seconds` (<= 0: none), fewest-rounds races first. Returns the rounds run.
  int run(double seconds);

  const RaceOutcome &outcome(size_t race) const { return races_[race].outcome; }
  const Race &race(size_t index) const { return races_[index].race; }
  size_t size() const { return races_.size(); }
  //! Races still open (not settled and below their max rounds).
  size_t open() const;

  //! The median of `who`'s samples in condition `condition` of race `race`, in the Meter's units
  //! (GB/s; ns per call warm); 0 when it has none.
  double median_of(size_t race, const Candidate &who, size_t condition) const;

  //! Race `race`'s samples so far (RaceSamples), for the raw measurements.
  const RaceSamples &samples(size_t race) const { return races_[race].samples; }

  //! Race `race` as the raw measurements keep it.
  RaceRecord record(size_t race, std::string decides, Intent intent, uint64_t size) const;

  //! Every sample so far: one Measurement per race, contender and condition, its samples in
  //! round order (GB/s, or ns per call for warm jobs), summarized.
  std::vector<Measurement> measurements() const;

private:
  struct State {
    Race race;
    RaceSamples samples;
    std::vector<bool> in; // per contender (0: the incumbent, always in)
    std::vector<Measurement> raw;
    RaceOutcome outcome;
    int max_rounds = 0;
  };
  bool is_open(const State &s) const;
  Meter &bench_;
  RaceOptions options_;
  MeasureOptions measure_;
  std::vector<State> races_;
};

} // namespace cjit::detail
