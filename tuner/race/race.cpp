#include "tuner/race/race.hpp"

#include "tuner/text/format.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace cjit::detail {
namespace {

using Clock = std::chrono::steady_clock;

std::string ratio_text(const Interval &i, bool upper) {
  return fmt("%.2fx", i.median) + (upper ? " (at most " : " (at least ") +
         fmt("%.2fx", upper ? i.upper : i.lower) + ")";
}

// Contender c of a race: 0 the incumbent, then the candidates, then those measured beside.
const Candidate &contender(const Race &race, size_t c) {
  if (c == 0) return race.incumbent;
  return c <= race.candidates.size() ? race.candidates[c - 1]
                                     : race.beside[c - 1 - race.candidates.size()];
}

} // namespace

std::string race_text(const Race &race, const RaceOutcome &o) {
  std::string t = race.name + ", " + std::to_string(o.rounds) + " rounds" +
                  (o.settled ? ", settled: " : ", at its last round: ") + o.winner.name();
  if (!(o.winner == race.incumbent)) {
    t += " (at least " + fmt("%.2fx", o.gain) + " " + race.incumbent.name() + " over all states";
    for (size_t k = 0; k < o.held.size(); ++k)
      t += std::string(k ? ", " : "; held in ") + std::string(pattern_name(o.held[k]));
    t += ")";
  }
  for (const Standing &st : o.field)
    if (!(st.candidate == o.winner))
      t += "; " + st.candidate.name() +
           (st.out.empty() ? " in, " + fmt("%.2fx", st.score.median) + " over all states"
                           : " out at round " + std::to_string(st.rounds) + ": " + st.out);
  return t;
}

std::string race_lines(const std::string &text, const std::string &prefix) {
  std::string out = prefix;
  int depth = 0; // "; held in" is inside the winner's parentheses: not a candidate
  for (size_t k = 0; k < text.size(); ++k) {
    depth += text[k] == '(' ? 1 : text[k] == ')' ? -1 : 0;
    if (depth == 0 && text.compare(k, 2, "; ") == 0) {
      out += "\n" + prefix + "    ";
      ++k;
      continue;
    }
    out += text[k];
  }
  return out + "\n";
}

double speed(const Measurement &m, double sample) {
  if (sample <= 0) return 0;
  return m.warm ? 1 / sample : sample;
}

Racing::Racing(Meter &bench, RaceOptions options, MeasureOptions measure)
    : bench_(bench), options_(std::move(options)), measure_(std::move(measure)) {
  measure_.repetitions = 1; // a round is one sample of each contender
}

size_t Racing::add(Race race) {
  State s;
  const size_t contenders = 1 + race.candidates.size() + race.beside.size(),
               conditions = race.conditions.size();
  s.samples.assign(contenders, std::vector<std::vector<double>>(conditions));
  s.in.assign(contenders, true);
  s.raw.resize(contenders * conditions);
  s.max_rounds = race.max_rounds > 0 ? race.max_rounds : options_.max_rounds;
  s.outcome.winner = race.incumbent;
  for (const Candidate &c : race.candidates)
    s.outcome.field.push_back({.candidate = c});
  s.race = std::move(race);
  races_.push_back(std::move(s));
  return races_.size() - 1;
}

bool Racing::is_open(const State &s) const {
  return !s.outcome.settled && s.outcome.rounds < s.max_rounds && !s.race.conditions.empty();
}

size_t Racing::open() const {
  return size_t(
      std::count_if(races_.begin(), races_.end(), [&](const State &s) { return is_open(s); }));
}

int Racing::run(double seconds) {
  // A round is charged what it took, or its estimate where that is more (a Meter of synthetic
  // timings takes no time).
  double spent = 0;
  int rounds = 0;
  for (;;) {
    std::vector<State *> open;
    for (State &s : races_)
      if (is_open(s)) open.push_back(&s);
    if (open.empty()) break;
    std::stable_sort(open.begin(), open.end(), [](const State *a, const State *b) {
      return a->outcome.rounds < b->outcome.rounds;
    });
    // The jobs of a round, race by race; where each result goes.
    struct Slot {
      State *race;
      size_t contender, condition;
    };
    std::vector<Job> jobs;
    std::vector<Slot> slots;
    size_t fitting = 0;
    for (State *s : open) {
      const size_t first = jobs.size();
      for (size_t c = 0; c < s->in.size(); ++c) {
        if (!s->in[c]) continue;
        const Candidate &who = contender(s->race, c);
        for (size_t k = 0; k < s->race.conditions.size(); ++k) {
          if (s->race.job_for) {
            jobs.push_back(s->race.job_for(s->race.conditions[k].job, who));
          } else {
            jobs.push_back(s->race.conditions[k].job);
            jobs.back().candidate = who;
          }
          slots.push_back({s, c, k});
        }
      }
      if (seconds > 0 && bench_.estimate_seconds(jobs, measure_) > seconds - spent) {
        jobs.resize(first);
        slots.resize(first);
        break;
      }
      ++fitting;
    }
    if (fitting == 0) break;
    const double estimate = bench_.estimate_seconds(jobs, measure_);
    const auto start = Clock::now();
    const std::vector<Measurement> ms = bench_.run(jobs, measure_);
    spent += std::max(estimate, std::chrono::duration<double>(Clock::now() - start).count());
    for (size_t i = 0; i < ms.size(); ++i) {
      const Slot &at = slots[i];
      const Measurement &m = ms[i];
      at.race->samples[at.contender][at.condition].push_back(
          m.samples.empty() ? 0 : speed(m, m.samples.front()));
      add_samples(at.race->raw[at.contender * at.race->race.conditions.size() + at.condition], m);
    }
    for (size_t r = 0; r < fitting; ++r) {
      ++open[r]->outcome.rounds;
      judge_race(open[r]->race, open[r]->samples, options_, open[r]->in, open[r]->outcome);
    }
    ++rounds;
  }
  return rounds;
}

namespace {

// One judgement of a race (judge_race): its thresholds, and the steps that read and change the
// outcome. Contender c is the incumbent at 0, candidate c - 1 (its standing o.field[c - 1]) after.
struct Judging {
  const Race &race;
  const RaceOptions &options;
  std::vector<bool> &in;
  RaceOutcome &o;
  const size_t conditions = race.conditions.size();
  const size_t judged = 1 + race.candidates.size(); // the incumbent and the candidates
  const double conf = options.confidence;
  const double gain = race.min_gain > 0 ? race.min_gain : options.min_gain;
  // A required state asks that the candidate be not slower than the incumbent, beyond the same
  // band (1/gain); the gain itself is asked of the score over all states and of one required
  // state. A state where every candidate ties the incumbent then does not keep it where it
  // loses elsewhere. Below 1 (the verification's) the gain is itself that floor.
  const double floor = std::min(gain, 1 / gain);
  std::vector<std::vector<double>> scores; // per contender, per round: score()'s

  Judging(const Race &race, const RaceOptions &options, std::vector<bool> &in, RaceOutcome &o)
      : race(race), options(options), in(in), o(o) {}

  Standing &standing(size_t c) { return o.field[c - 1]; }

  // Every candidate's ratios to the incumbent per state and its score over the scored states.
  void score(const RaceSamples &samples) {
    scores.assign(judged, {});
    for (size_t c = 1; c < judged; ++c) {
      Standing &st = standing(c);
      st.eligible = st.beats = false;
      std::vector<std::vector<double>> per_condition;
      st.states.clear();
      for (size_t k = 0; k < conditions; ++k) {
        per_condition.push_back(round_ratios(samples[c][k], samples[0][k]));
        st.states.push_back(median_interval(present(per_condition.back()), conf));
      }
      std::vector<std::vector<double>> scored;
      for (size_t k = 0; k < conditions; ++k)
        if (race.conditions[k].scored) scored.push_back(per_condition[k]);
      scores[c] = round_geomeans(scored);
      st.score = median_interval(present(scores[c]), conf);
      st.rounds = int(samples[c][0].size());
    }
  }

  // Out: confidently slower than the incumbent in a required state, or confidently not min_gain
  // faster overall.
  void drop_slower_than_incumbent() {
    for (size_t c = 1; c < judged; ++c) {
      if (!in[c]) continue;
      Standing &st = standing(c);
      for (size_t k = 0; k < conditions && st.out.empty(); ++k)
        if (race.conditions[k].required && st.states[k].bounded && st.states[k].upper < floor)
          st.out = std::string(pattern_name(race.conditions[k].job.pattern)) + ": " +
                   ratio_text(st.states[k], true) + " " + race.incumbent.name() + "'s speed";
      if (st.out.empty() && st.score.bounded && st.score.upper < gain)
        st.out =
            "all states: " + ratio_text(st.score, true) + " " + race.incumbent.name() + "'s speed";
      if (!st.out.empty()) in[c] = false;
    }
  }

  // The leader: the best median score. Out: confidently behind it. Returns whether those left
  // are tied with it (true where none is in).
  bool drop_behind_leader() {
    size_t leader = 0;
    for (size_t c = 1; c < judged; ++c)
      if (in[c] && (leader == 0 || standing(c).score.median > standing(leader).score.median))
        leader = c;
    bool tied = true;
    for (size_t c = 1; c < judged && leader; ++c) {
      if (!in[c] || c == leader) continue;
      const Interval t = median_interval(present(round_ratios(scores[c], scores[leader])), conf);
      if (t.bounded && t.upper < 1) {
        standing(c).out = "behind " + race.candidates[leader - 1].name() + ": " +
                          ratio_text(t, true) + " its speed";
        standing(c).behind = race.candidates[leader - 1];
        in[c] = false;
      } else if (!(t.bounded && t.lower > 1 - options.tied && t.upper < 1 + options.tied)) {
        tied = false;
      }
    }
    return tied;
  }

  // Beats the incumbent: confidently min_gain faster overall and in a required state, and not
  // slower in any required state.
  bool beats(const Standing &st) const {
    if (!st.score.bounded || st.score.lower <= gain) return false;
    bool required = false, faster_somewhere = false;
    for (size_t k = 0; k < conditions; ++k) {
      if (!race.conditions[k].required) continue;
      if (!(st.states[k].bounded && st.states[k].lower > floor)) return false;
      required = true;
      faster_somewhere |= st.states[k].lower > gain;
    }
    return faster_somewhere || !required; // without a required state, the score alone
  }

  // The winner among those in that beat the incumbent: the simplest, then the best median score.
  // Settled where none is in, or every one in beats the incumbent and they are `tied`.
  void choose_winner(bool tied) {
    for (size_t c = 1; c < judged; ++c)
      standing(c).beats = beats(standing(c));
    size_t alive = 0, ready = 0, winner = 0;
    for (size_t c = 1; c < judged; ++c) {
      if (!in[c]) continue;
      ++alive;
      if (!(standing(c).eligible = standing(c).beats)) continue;
      ++ready;
      const Candidate &a = race.candidates[c - 1];
      if (winner == 0) {
        winner = c;
        continue;
      }
      const Candidate &w = race.candidates[winner - 1];
      const bool simpler = options.simpler ? options.simpler(a, w) : a < w,
                 simpler_w = options.simpler ? options.simpler(w, a) : w < a;
      if (simpler || (!simpler_w && standing(c).score.median > standing(winner).score.median))
        winner = c;
    }
    o.settled = alive == 0 || (ready == alive && tied);
    o.winner = winner ? race.candidates[winner - 1] : race.incumbent;
    o.gain = 1;
    o.held.clear();
    if (winner) {
      const Standing &st = standing(winner);
      o.gain = st.score.lower;
      for (size_t k = 0; k < conditions; ++k)
        if (st.states[k].bounded && st.states[k].lower > gain)
          o.held.push_back(race.conditions[k].job.pattern);
    }
  }
};

} // namespace

void judge_race(const Race &race, const RaceSamples &samples, const RaceOptions &options,
                std::vector<bool> &in, RaceOutcome &o) {
  Judging j(race, options, in, o);
  j.score(samples);
  j.drop_slower_than_incumbent();
  const bool tied = j.drop_behind_leader();
  j.choose_winner(tied);
}

RaceOutcome replay_race(const Race &race, const RaceSamples &samples, const RaceOptions &options) {
  RaceOutcome o;
  o.winner = race.incumbent;
  for (const Candidate &c : race.candidates)
    o.field.push_back({.candidate = c});
  std::vector<bool> in(samples.size(), true);
  size_t rounds = 0;
  for (const auto &per_contender : samples)
    for (const auto &per_condition : per_contender)
      rounds = std::max(rounds, per_condition.size());
  RaceSamples upto(samples.size());
  for (size_t r = 1; r <= rounds; ++r) {
    for (size_t c = 0; c < samples.size(); ++c) {
      upto[c].resize(samples[c].size());
      for (size_t k = 0; k < samples[c].size(); ++k)
        upto[c][k].assign(samples[c][k].begin(),
                          samples[c][k].begin() + std::min(r, samples[c][k].size()));
    }
    o.rounds = int(r);
    judge_race(race, upto, options, in, o);
  }
  return o;
}

RaceRecord Racing::record(size_t race, std::string decides, Intent intent, uint64_t size) const {
  const State &s = races_[race];
  RaceRecord r{.race = s.race,
               .samples = s.samples,
               .decides = std::move(decides),
               .intent = intent,
               .size = size};
  r.race.job_for = {};
  if (r.race.min_gain <= 0) r.race.min_gain = options_.min_gain;
  return r;
}

double Racing::median_of(size_t race, const Candidate &who, size_t condition) const {
  const State &s = races_[race];
  for (size_t c = 0; c < s.in.size(); ++c)
    if (contender(s.race, c) == who)
      return median(s.raw[c * s.race.conditions.size() + condition].samples);
  return 0;
}

std::vector<Measurement> Racing::measurements() const {
  std::vector<Measurement> out;
  for (const State &s : races_)
    for (Measurement m : s.raw)
      if (!m.samples.empty()) {
        summarize(m);
        out.push_back(std::move(m));
      }
  return out;
}

} // namespace cjit::detail
