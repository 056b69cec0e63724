// Racing: every decision of the tuner (the kernel of a size, the batch kernel, ...) is a race
// among candidates with memset as the incumbent, as irace's F-race and successive halving do.
// Every round measures each race's remaining candidates once, with the incumbent beside them,
// interleaved at random in one run of the Bench; a candidate leaves when it is confidently not
// enough faster than the incumbent, or confidently behind the leader; a race stops when its
// outcome is settled, and the rounds go to the races still open. Undecided means the incumbent.
#pragma once

#include "tuner/measure/measure.hpp"
#include "tuner/measure/stats.hpp"

#include <functional>
#include <string>
#include <vector>

namespace cjit::detail {

struct RaceOptions {
  //! One-sided confidence of each bound (stats.hpp, median_interval).
  double confidence = 0.95;
  //! Rounds a race runs at most; undecided then means the incumbent.
  int max_rounds = 12;
  //! A candidate replaces the incumbent only where the lower bound of its speed over the
  //! incumbent's exceeds this, in each required state and over all states: code placement alone
  //! moves a warm or cold call by a few percent, and that bias does not average out over rounds.
  double min_gain = 1.03;
  //! Candidates whose ratio to the leader is bounded within 1 -/+ this are tied: the race
  //! stops, and the simplest of them wins.
  double tied = 0.05;
  //! Orders tied candidates: true when a is simpler than b. None: by name.
  std::function<bool(const Candidate &a, const Candidate &b)> simpler;
};

//! A destination state a race measures its contenders in: a Job whose candidate is replaced by
//! each contender's. `required`: a candidate must beat the incumbent here alone; otherwise the
//! state only weighs in the score (the geometric mean of a round's ratios over all states).
struct Condition {
  Job job;
  bool required = true;
};

struct Race {
  std::string name; //!< "reuse 64 KiB", for notes and reports
  std::vector<Condition> conditions;
  std::vector<Candidate> candidates; //!< without the incumbent
  Candidate incumbent = memset_candidate();
  int max_rounds = 0; //!< 0: RaceOptions::max_rounds
  //! Measured every round beside the contenders, for the record, and never judged: memset
  //! beside a race whose incumbent is not memset.
  std::vector<Candidate> beside = {};
  //! A contender's job in a condition. None: the condition's job with the contender as its
  //! candidate; a race of thread counts sets the count too.
  std::function<Job(const Job &condition, const Candidate &contender)> job_for = {};
  //! The race's own RaceOptions::min_gain (0: the options'): a floor below 1 asks whether a
  //! candidate is confidently slower than the incumbent (the verification's).
  double min_gain = 0;
};

//! A contender's standing: its speed over the incumbent's per state and over all (score).
struct Standing {
  Candidate candidate;
  std::vector<Interval> states = {}; //!< per condition, the per-round speed ratios to the incumbent
  Interval score = {};               //!< per round, their geometric mean over the conditions
  std::string out = {};              //!< why it left the race; empty while in
  //! Confidently min_gain faster than the incumbent in every required state and overall, from
  //! the rounds it was measured in (a candidate that left behind the leader may still be).
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

//! A race's samples: [contender][condition][round], each a speed (higher is faster); contender 0
//! is the incumbent, then the candidates, then those measured beside. A contender that left has
//! only the rounds it was in.
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

//! The outcome of a race run before, from its samples: judged again round by round, as Racing
//! judged it, so the same samples and options give the same outcome (clearjit choose).
RaceOutcome replay_race(const Race &race, const RaceSamples &samples, const RaceOptions &options);

//! A race as the raw measurements keep it (tune --json): enough to judge it again elsewhere.
//! `race.min_gain` is the one it was judged with; its conditions keep their job's pattern.
struct RaceRecord {
  Race race;
  RaceSamples samples;
  //! What it decides: "reuse", "stream" or "batch" (a size of that table), "variants" (of the
  //! race named like it without " variants"), "study" (a finding's), "parallel" (threads).
  std::string decides;
  Intent intent = Intent::reuse;
  uint64_t size = 0;
};

//! Speed of one sample: GB/s for a cold job, calls per ns for a warm one (higher is faster).
double speed(const Measurement &m, double sample);

//! A race in a line: "reuse 64 KiB, 5 rounds, settled: avx512 (at least 1.21x memset in
//! scattered, consecutive, hot); clzero out: hot: 0.31x (at most 0.40x) memset's speed".
std::string race_text(const Race &race, const RaceOutcome &o);

//! The races of one decision stage, run together.
class Racing {
public:
  Racing(Bench &bench, RaceOptions options, MeasureOptions measure);

  //! Adds a race; returns its index.
  size_t add(Race race);

  //! Runs rounds until every race is settled or at its max rounds, or the next round's estimate
  //! exceeds `seconds` (<= 0: no limit). Returns the rounds run. A round that does not fit
  //! whole runs the races with the fewest rounds first.
  int run(double seconds);

  const RaceOutcome &outcome(size_t race) const { return races_[race].outcome; }
  const Race &race(size_t index) const { return races_[index].race; }
  size_t size() const { return races_.size(); }
  //! Races still open (not settled and below their max rounds).
  size_t open() const;

  //! The median of `who`'s samples in condition `condition` of race `race`, in the Bench's units
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
  Bench &bench_;
  RaceOptions options_;
  MeasureOptions measure_;
  std::vector<State> races_;
};

} // namespace cjit::detail
