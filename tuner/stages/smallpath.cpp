#include "tuner/stages/smallpath.hpp"

#include "jit/emit/emit.hpp"
#include "tuner/race/race.hpp"
#include "tuner/text/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <tuple>

namespace cjit::detail {
namespace {

constexpr Mix kMixes[] = {Mix::log_uniform, Mix::objects};

using Case = std::pair<int, uint64_t>; // (mix, size): size 0 for a mix

//! ns per call of `c` in each case: the fixed sizes listed and, with `mixes`, both mixes
//! (repeated measurements of a case, one per code place, averaged geometrically). Empty when
//! any case is missing.
std::map<Case, double> cases(const std::vector<Measurement> &ms, Intent intent, const Candidate &c,
                             const std::vector<uint64_t> &sizes, bool mixes) {
  std::set<uint64_t> fixed(sizes.begin(), sizes.end());
  std::map<Case, std::vector<double>> ns;
  for (const Measurement &m : ms) {
    if (m.candidate != c || m.intent != intent || !m.warm || m.ns <= 0) continue;
    if (m.mix == Mix::fixed ? !fixed.count(m.size) : !mixes) continue;
    ns[{int(m.mix), m.size}].push_back(m.ns);
  }
  std::map<Case, double> out;
  if (ns.size() != sizes.size() + (mixes ? std::size(kMixes) : 0)) return out;
  for (auto &[key, v] : ns)
    out[key] = geomean(v);
  return out;
}

//! The geometric mean of `c`'s ns per call over the sizes; 0 when any is missing.
double score(const std::vector<Measurement> &ms, Intent intent, const Candidate &c,
             const std::vector<uint64_t> &sizes) {
  std::vector<double> v;
  for (const auto &[key, ns] : cases(ms, intent, c, sizes, false))
    v.push_back(ns);
  return v.empty() ? 0 : geomean(v);
}

} // namespace

std::map<std::pair<int, uint64_t>, double> ratios_to_memset(const std::vector<Measurement> &ms,
                                                            Intent intent, const Candidate &c) {
  const auto mine = cases(ms, intent, c, small_strategy_sizes(), true);
  const auto memset = cases(ms, intent, memset_candidate(), small_strategy_sizes(), true);
  std::map<Case, double> out;
  if (mine.empty() || memset.empty()) return out;
  for (const auto &[key, ns] : mine) {
    auto m = memset.find(key);
    if (m == memset.end()) return {}; // not the same cases: no ratio for this candidate
    out[key] = ns / m->second;
  }
  return out;
}

size_t small_band(uint64_t n) {
  size_t b = 0;
  while (b < std::size(kSmallBandEnds) && n >= kSmallBandEnds[b])
    ++b;
  return b;
}

std::array<Small, kSmallBands> band_picks(const SmallPath &p) {
  std::array<Small, kSmallBands> picks;
  for (size_t b = 0; b < kSmallBands; ++b) {
    const uint64_t first = b ? kSmallBandEnds[b - 1] : 0;
    picks[b] = p.strategy;
    for (auto it = p.bands.rbegin(); it != p.bands.rend(); ++it)
      if (first < it->below) picks[b] = it->strategy;
  }
  return picks;
}

SmallPath from_band_picks(const std::array<Small, kSmallBands> &picks, unsigned max) {
  SmallPath p{picks.back(), max};
  for (size_t b = 0; b + 1 < kSmallBands; ++b)
    if (picks[b] != picks[b + 1]) p.bands.push_back({kSmallBandEnds[b], picks[b]});
  return p;
}

double worst_band(const std::map<std::pair<int, uint64_t>, double> &ratios) {
  // Bands: small_band's, then one per mix (smallpath.hpp: why).
  auto band = [](const Case &c) {
    return c.first != int(Mix::fixed) ? kSmallBands + c.first : small_band(c.second);
  };
  std::map<int, std::vector<double>> bands;
  for (const auto &[key, r] : ratios)
    bands[band(key)].push_back(r);
  double worst = 0;
  for (const auto &[b, rs] : bands)
    worst = std::max(worst, geomean(rs));
  return worst;
}

double worst_ratio_to_memset(const std::vector<Measurement> &ms, Intent intent,
                             const Candidate &c) {
  return worst_band(ratios_to_memset(ms, intent, c));
}

namespace {

std::string padded(const std::string &s, int width) {
  char b[128];
  std::snprintf(b, sizeof b, "%*s", width, s.c_str());
  return b;
}

// What the study's table calls a candidate: memset's word, a small path without "small:".
std::string column_name(const Candidate &c) {
  if (c.is_memset()) return "memset";
  return c.small() ? small_path_name(*c.small()) : c.name();
}

} // namespace

std::vector<uint64_t> small_strategy_sizes() {
  return {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 65, 96, 128, 160, 200, 256};
}

std::vector<uint64_t> small_max_sizes() { return {160, 256, 320, 384, 512, 640, 768, 1024}; }

// 32 B lies between 8 and 64 on masked's masked-store path, whose cold cost grows with the
// bytes written (a masked store waits for a missing line: see Emitter::strategy_masked).
std::vector<uint64_t> small_cold_sizes() { return {8, 32, 64, 256}; }

SmallCold small_cold(const std::vector<Measurement> &ms, Intent intent) {
  SmallCold c;
  // ns per call, one per Measurement (the race measures one sample a round); NaN for a failed
  // one, which present() and round_ratios skip without shifting the rounds after it.
  std::map<Candidate, std::map<std::pair<Pattern, uint64_t>, std::vector<double>>> samples;
  for (const Measurement &m : ms)
    if (!m.warm && m.intent == intent &&
        (m.pattern == Pattern::consecutive || m.pattern == Pattern::scattered)) {
      std::vector<double> &ns = samples[m.candidate][{m.pattern, m.size}];
      if (m.samples.empty()) ns.push_back(NAN);
      for (double gbps : m.samples)
        ns.push_back(gbps > 0 ? double(m.size) / gbps : NAN);
    }
  for (const auto &[candidate, by_point] : samples)
    for (const auto &[point, ns] : by_point)
      if (const std::vector<double> v = present(ns); !v.empty())
        c.measured[candidate][point] = median(v);
  // Every point counts, scattered ones too: a strategy confidently below kColdFloor of memset's
  // speed at one loses cold: a strategy may lose at scattered points alone, as rep stosb did at
  // small sizes (docs/design/small-path.md). One slow round bounds nothing; a strategy at parity
  // can still lose every round at one of the points by chance, which the verification's second
  // race catches.
  const auto memset = samples.find(memset_candidate());
  if (memset == samples.end()) return c;
  for (const auto &[candidate, by_point] : samples) {
    if (candidate.is_memset()) continue;
    std::vector<double> consecutive;
    double worst_bound = kColdFloor;
    for (const auto &[point, ns] : by_point) {
      const auto ref = memset->second.find(point);
      if (ref == memset->second.end()) continue;
      const std::vector<double> speed = present(round_ratios(ref->second, ns));
      if (speed.empty()) continue;
      const Interval iv = median_interval(speed, kSmallColdConfidence);
      if (point.first == Pattern::consecutive) consecutive.push_back(1 / iv.median);
      if (!iv.bounded) continue;
      auto w = c.worst.find(candidate);
      if (w == c.worst.end() || iv.median < w->second) c.worst[candidate] = iv.median;
      if (iv.upper >= kColdFloor) continue;
      c.out_at[candidate].insert(point.second);
      if (iv.upper >= worst_bound) continue;
      worst_bound = iv.upper;
      c.out[candidate] = human_bytes(point.second) + " " + std::string(pattern_name(point.first)) +
                         ": " + fmt("%.2fx", iv.median) + " (at most " + fmt("%.2fx", iv.upper) +
                         ") memset's speed over " + std::to_string(speed.size()) + " rounds";
    }
    if (!consecutive.empty()) c.ratio[candidate] = geomean(consecutive);
  }
  return c;
}

std::vector<SmallScore> small_scores(const std::vector<Measurement> &ms, Intent intent) {
  const SmallCold cold = small_cold(ms, intent);
  // Those that keep the promise (not out cold, worst band within kWarmNoise) first, by their
  // score; then the others by their worst loss, warm or cold (a large warm loss outranks a small
  // one at one cold point).
  std::vector<SmallScore> kept, beyond;
  for (const SmallInfo &s : small_strategies()) {
    const SmallPath p{s.strategy, 256};
    const double warm = worst_ratio_to_memset(ms, intent, p);
    if (warm <= 0) continue;
    if (cold.out.count(p) || warm > kWarmNoise) {
      const auto w = cold.worst.find(p);
      beyond.push_back({p, std::max(warm, w == cold.worst.end() ? 0 : 1 / w->second), false});
      continue;
    }
    auto c = cold.ratio.find(p);
    kept.push_back({p,
                    c == cold.ratio.end()
                        ? warm
                        : std::pow(warm, 1 - kColdWeight) * std::pow(c->second, kColdWeight),
                    true});
  }
  for (auto *v : {&kept, &beyond})
    std::stable_sort(v->begin(), v->end(),
                     [](const SmallScore &a, const SmallScore &b) { return a.score < b.score; });
  kept.insert(kept.end(), beyond.begin(), beyond.end());
  return kept;
}

std::vector<SmallPath> rank_small(const std::vector<Measurement> &ms, Intent intent) {
  std::vector<SmallPath> out;
  for (const SmallScore &s : small_scores(ms, intent))
    out.push_back(s.path);
  return out;
}

SmallPath band_small(const std::vector<Measurement> &ms, Intent intent, const SmallPath &chosen) {
  const SmallCold cold = small_cold(ms, intent);
  // Per strategy measured at 256 (unbanded): its time over memset's on each band, and whether it
  // keeps the promise there.
  struct Judged {
    std::array<double, kSmallBands> warm{};
    std::array<bool, kSmallBands> keeps{};
  };
  std::map<Small, Judged> judged;
  for (const SmallInfo &info : small_strategies()) {
    const SmallPath p{info.strategy, 256};
    const auto ratios = ratios_to_memset(ms, intent, p);
    if (ratios.empty()) continue;
    std::array<std::vector<double>, kSmallBands> by_band;
    bool mixes_kept = true; // a strategy slower than memset on a mix joins no band
    for (const auto &[c, r] : ratios)
      if (c.first == int(Mix::fixed))
        by_band[small_band(c.second)].push_back(r);
      else
        mixes_kept &= r <= kWarmNoise;
    std::array<bool, kSmallBands> out_cold{};
    if (auto it = cold.out_at.find(p); it != cold.out_at.end())
      for (uint64_t n : it->second)
        out_cold[small_band(n)] = true;
    out_cold[0] = out_cold[0] || out_cold[small_band(small_cold_sizes().front())];
    Judged &j = judged[info.strategy];
    for (size_t b = 0; b < kSmallBands; ++b) {
      j.warm[b] = by_band[b].empty() ? INFINITY : geomean(by_band[b]);
      j.keeps[b] = mixes_kept && !out_cold[b] && j.warm[b] <= kWarmNoise;
    }
  }
  // Two strategies at most, memset one of them: a path through several others would pay their
  // branches on a mix, and no measurement here has seen such a path.
  const auto libc = judged.find(Small::libc);
  if (!chosen.bands.empty() || libc == judged.end() || !judged.count(chosen.strategy))
    return chosen;
  const bool incumbent = chosen.strategy == Small::libc;
  // Where `chosen` is memset: the strategy that keeps the promise and beats memset beyond the
  // noise on the most bands (the lowest time over them on a tie).
  auto gains = [&](const Judged &j, size_t b) { return j.keeps[b] && j.warm[b] < 1 / kWarmNoise; };
  Small other = chosen.strategy;
  if (incumbent) {
    std::pair<int, double> best{0, 0};
    for (const auto &[st, j] : judged) {
      std::pair<int, double> mine{0, 0};
      for (size_t b = 0; b < kSmallBands; ++b)
        if (gains(j, b)) mine.first++, mine.second -= std::log(j.warm[b]);
      if (st != Small::libc && mine > best) best = mine, other = st;
    }
  }
  const Judged &o = judged.at(other);
  std::array<Small, kSmallBands> picks;
  for (size_t b = 0; b < kSmallBands; ++b)
    picks[b] = incumbent ? (gains(o, b) ? other : Small::libc)
                         : (o.keeps[b] || !libc->second.keeps[b] ? other : Small::libc);
  SmallPath banded = from_band_picks(picks, chosen.max);
  return banded.bands.size() <= kSmallMaxBands ? banded : chosen;
}

SmallPath choose_small(const std::vector<Measurement> &ms, Intent intent, SmallPath fallback) {
  const std::vector<SmallPath> ranked = rank_small(ms, intent);
  if (ranked.empty()) return fallback;
  return choose_small_max(ms, intent, band_small(ms, intent, ranked.front()));
}

SmallPath choose_small_max(const std::vector<Measurement> &ms, Intent intent, SmallPath chosen) {
  double best_max = 0;
  for (unsigned max : kSmallMaxes) {
    if (max < kSmallTunedFrom) continue;
    double v = score(ms, intent, SmallPath{chosen.strategy, max}, small_max_sizes());
    if (v > 0 && (best_max == 0 || v < best_max)) best_max = v, chosen.max = max;
  }
  return chosen;
}

namespace {

// The study's jobs with memset beside. Stage 1: every strategy the CPU runs at max 256, over
// small_strategy_sizes() and both mixes; stage 2: each intent's `chosen` strategy at every max,
// over small_max_sizes(). Warm jobs run each candidate's code at kSmallPlacements places (copies
// generated one after another): a warm call's time depends on where its code lies by up to a
// quarter (experiments/small_placement.cpp), and one place's luck must not choose. `code(i, p,
// copy)` gives a candidate's dispatcher (null when the jobs are only planned, for an estimate).
template <class Code>
std::vector<Job> study_jobs(int stage, const CpuInfo &cpu, const SmallPath chosen[2], Code code,
                            const std::map<Intent, std::set<Small>> *only = nullptr) {
  std::vector<Job> jobs;
  auto add = [&](const Candidate &c, Call call, Intent i, uint64_t size, Mix mix, ClearFn fn,
                 int place) {
    jobs.push_back(warm_job(c, call, i, size, mix, fn, nullptr, place));
  };
  const std::vector<uint64_t> sizes = stage == 1 ? small_strategy_sizes() : small_max_sizes();
  for (Intent i : kIntents) {
    std::vector<SmallPath> candidates;
    if (stage == 1) {
      for (const SmallInfo &s : small_strategies())
        if (small_unsupported_reason(s.strategy, cpu).empty() &&
            (!only || only->at(i).count(s.strategy)))
          candidates.push_back({s.strategy, 256});
    } else {
      for (unsigned max : kSmallMaxes)
        if (max >= kSmallTunedFrom) candidates.push_back({chosen[size_t(i)].strategy, max});
    }
    for (int copy = 0; copy < kSmallPlacements; ++copy) {
      for (uint64_t size : sizes)
        add(memset_candidate(), Call::memset, i, size, Mix::fixed, nullptr, copy);
      if (stage == 1)
        for (Mix mix : kMixes)
          add(memset_candidate(), Call::memset, i, 0, mix, nullptr, copy);
    }
    if (stage == 1) // memset cold too: the cold veto's reference
      for (Pattern pattern : kPatterns)
        for (uint64_t size : small_cold_sizes())
          jobs.push_back(in_pattern({default_spec(Method::libc), size, i}, pattern));
    for (const SmallPath &p : candidates) {
      for (int copy = 0; copy < kSmallPlacements; ++copy) {
        for (uint64_t size : sizes)
          add(p, Call::kernel, i, size, Mix::fixed, code(i, p, copy), copy);
        if (stage == 1)
          for (Mix mix : kMixes)
            add(p, Call::kernel, i, 0, mix, code(i, p, copy), copy);
      }
      if (stage == 1)
        for (Pattern pattern : kPatterns)
          for (uint64_t size : small_cold_sizes())
            jobs.push_back(in_pattern(Job(p, code(i, p, 0), size, i), pattern));
    }
  }
  return jobs;
}

// Stage 1's race (study_small), judged round by round per intent: the strategies still in, each
// one's per-round score (its worst band against memset), and what `out` says of them.
struct StrategyRace {
  SmallStudy &out;
  const RaceOptions &race;
  // The fewest rounds that bound a median: no strategy leaves before.
  const int fewest = int(fewest_for(race.confidence));
  std::map<Intent, std::set<Small>> in;
  std::map<Intent, std::map<Small, std::vector<double>>> scores; // per round
  std::map<Intent, bool> settled;

  StrategyRace(SmallStudy &study, const RaceOptions &options, const CpuInfo &cpu)
      : out(study), race(options) {
    for (Intent i : kIntents)
      for (const SmallInfo &info : small_strategies())
        if (small_unsupported_reason(info.strategy, cpu).empty()) in[i].insert(info.strategy);
  }

  void drop(Intent i, Small st, int round, const std::string &why) {
    out.dropped[i].push_back(std::string(info(st).name) + " out at round " + std::to_string(round) +
                             ": " + why);
    in[i].erase(st);
  }

  double median_score(Intent i, Small st) {
    const std::vector<double> v = present(scores[i][st]);
    return v.empty() ? INFINITY : median(v);
  }

  void settle(Intent i, int round) {
    settled[i] = true;
    out.settled_at[i] = round;
  }

  // Judges round `round` (its measurements `ms`, already in out.measurements) of every intent
  // still racing. Returns whether one still is.
  bool judge_round(const std::vector<Measurement> &ms, int round) {
    bool open = false;
    for (Intent i : kIntents) {
      if (settled[i]) continue;
      judge(i, ms, round);
      open |= !settled[i];
    }
    return open;
  }

  void judge(Intent i, const std::vector<Measurement> &ms, int round) {
    for (Small st : in[i]) {
      const double w = worst_ratio_to_memset(ms, i, SmallPath{st, 256});
      scores[i][st].push_back(w > 0 ? w : NAN);
    }
    // The cold veto first: the leader is chosen among those it leaves.
    if (round >= fewest && !veto_cold(i, round)) {
      settle(i, round); // no warm leader either: the ranking chooses by the worst loss
      out.none_kept[i] = true;
      return;
    }
    if (round < fewest || in[i].size() < 2) {
      if (in[i].size() < 2) settle(i, round);
      return;
    }
    const bool tied = drop_behind_leader(i, round);
    if (in[i].size() < 2 || tied) settle(i, round);
  }

  // Puts out the strategies small_cold finds below memset cold (over every round so far), only
  // where a strategy still in keeps the promise (not out cold, within kWarmNoise warm by its
  // median score); returns whether one does. Where none does, the race stops with all still in,
  // and rank_small orders them by their worst loss (a strategy just below memset cold beats one
  // far slower warm): a warm leader must not put out the smallest loss.
  bool veto_cold(Intent i, int round) {
    const SmallCold cold = small_cold(out.measurements, i);
    const bool one_kept = std::any_of(in[i].begin(), in[i].end(), [&](Small st) {
      return !cold.out.count(SmallPath{st, 256}) && median_score(i, st) <= kWarmNoise;
    });
    if (!one_kept) return false;
    for (Small st : std::set<Small>(in[i]))
      if (auto c = cold.out.find(SmallPath{st, 256}); c != cold.out.end())
        drop(i, st, round, "cold: " + c->second);
    return true;
  }

  // The leader: the lowest median score. Out: those whose per-round score over the leader's is
  // confidently above 1 (slower). Returns whether those left are tied within race.tied.
  bool drop_behind_leader(Intent i, int round) {
    Small leader = *in[i].begin();
    for (Small st : in[i])
      if (median_score(i, st) < median_score(i, leader)) leader = st;
    bool tied = true;
    for (Small st : std::set<Small>(in[i])) {
      if (st == leader) continue;
      std::vector<double> r;
      const std::vector<double> &mine = scores[i][st], &theirs = scores[i][leader];
      for (size_t k = 0; k < std::min(mine.size(), theirs.size()); ++k)
        if (std::isfinite(mine[k]) && std::isfinite(theirs[k]) && theirs[k] > 0)
          r.push_back(mine[k] / theirs[k]);
      const Interval iv = median_interval(r, race.confidence);
      if (iv.bounded && iv.lower > 1)
        drop(i, st, round,
             "behind " + std::string(info(leader).name) + ": " + fmt("%.2fx", iv.median) +
                 " (at least " + fmt("%.2fx", iv.lower) + ") its worst band");
      else if (!(iv.bounded && iv.lower > 1 - race.tied && iv.upper < 1 + race.tied))
        tied = false;
    }
    return tied;
  }

  // Per intent, rank_small's first (over every round) of the strategies still in, with its
  // bands; `chosen` where none is measured. What is still in goes to out.remaining.
  void choose(SmallPath chosen[2]) {
    for (Intent i : kIntents) {
      for (const SmallPath &p : rank_small(out.measurements, i))
        if (in[i].count(p.strategy)) {
          chosen[size_t(i)] = band_small(out.measurements, i, p);
          break;
        }
      out.remaining[i] = {in[i].begin(), in[i].end()};
    }
  }
};

} // namespace

double small_study_seconds(const Meter &bench, const CpuInfo &cpu, const MeasureOptions &options,
                           double confidence) {
  const SmallPath chosen[2] = {default_small(cpu, Intent::reuse),
                               default_small(cpu, Intent::stream)};
  auto none = [](Intent, SmallPath, int) -> ClearFn { return nullptr; };
  MeasureOptions one = options;
  one.repetitions = 1;
  // Stage 1: the fewest rounds that bound a median, every strategy in each; stage 2 once.
  return double(fewest_for(confidence)) *
             bench.estimate_seconds(study_jobs(1, cpu, chosen, none), one) +
         bench.estimate_seconds(study_jobs(2, cpu, chosen, none), options);
}

SmallStudy study_small(Meter &bench, const Profile &profile, const CpuInfo &cpu,
                       const MeasureOptions &options, const RaceOptions &race) {
  SmallStudy out;
  std::map<std::tuple<Intent, SmallPath, int>, std::unique_ptr<GeneratedCode>> codes;
  auto dispatcher = [&](Intent i, SmallPath p, int copy) {
    auto &code = codes[{i, p, copy}];
    if (!code) {
      auto g =
          generate([&](asmjit::x86::Assembler &a) { emit_dispatcher(a, profile.table(i), p, cpu); },
                   Candidate(p).name());
      if (!g) throw std::runtime_error(Candidate(p).name() + ": " + g.error);
      code = std::move(*g.value);
    }
    return code->fn;
  };

  // The CPU's defaults, kept only where stage 1 has no warm measurement to choose by (choose_small
  // returns its fallback then, without the cold veto).
  SmallPath chosen[2] = {default_small(cpu, Intent::reuse), default_small(cpu, Intent::stream)};
  // Stage 1 is a race per intent: every round measures each strategy still in, at every case
  // and code place, with memset beside, one sample each. A round's score of a strategy is its
  // worst band against memset in that round. From the fewest rounds that bound a median, a
  // strategy leaves when its per-round score over the leader's is confidently above 1 (slower),
  // or when the cold veto puts it out (small_cold, over every round so far) while another keeps
  // the promise. The race stops when one strategy is left, or all left are tied within
  // race.tied, or none keeps the promise, or at race.max_rounds; the choice is then rank_small's
  // first of those left.
  StrategyRace stage1(out, race, cpu);
  MeasureOptions o = options;
  o.label = "small path: strategies";
  o.repetitions = 1;
  for (int round = 1; round <= std::max(race.max_rounds, stage1.fewest); ++round) {
    const std::vector<Measurement> ms =
        bench.run(study_jobs(1, cpu, chosen, dispatcher, &stage1.in), o);
    out.measurements.insert(out.measurements.end(), ms.begin(), ms.end());
    ++out.rounds;
    if (!stage1.judge_round(ms, round)) break;
  }
  out.stage1 = out.measurements.size();
  stage1.choose(chosen);

  o.label = "small path: limits";
  o.repetitions = options.repetitions;
  for (Measurement &m : bench.run(study_jobs(2, cpu, chosen, dispatcher), o))
    out.measurements.push_back(std::move(m));
  // Stage 2 chose only the max: stage 2's measurements at max 256 must not reopen the strategy.
  out.reuse = choose_small_max(out.measurements, Intent::reuse, chosen[0]);
  out.stream = choose_small_max(out.measurements, Intent::stream, chosen[1]);
  return out;
}

std::string small_race_text(const SmallStudy &s, Intent intent) {
  const SmallPath chosen = intent == Intent::reuse ? s.reuse : s.stream;
  auto at = s.settled_at.find(intent);
  std::string t = "small path " + std::string(intent_name(intent)) + ", " +
                  (at != s.settled_at.end() ? std::to_string(at->second) + " rounds, settled"
                                            : std::to_string(s.rounds) + " rounds, at its last") +
                  ": " + describe(chosen);
  if (auto d = s.dropped.find(intent); d != s.dropped.end())
    for (const std::string &why : d->second)
      t += "; " + why;
  if (auto r = s.remaining.find(intent); r != s.remaining.end() && r->second.size() > 1) {
    t += s.none_kept.count(intent) ? "; none keeps the promise, so none left; ranked by the worst "
                                     "loss, warm or cold:"
                                   : "; still in, in the ranking's order:";
    for (const SmallPath &p : rank_small(s.stage1_measurements(), intent))
      if (std::count(r->second.begin(), r->second.end(), p.strategy))
        t += " " + std::string(info(p.strategy).name);
  }
  return t;
}

std::string small_study_text(const SmallStudy &s) {
  std::ostringstream t;
  const std::vector<Measurement> stage1 = s.stage1_measurements(); // what chose the strategy
  for (Intent i : kIntents) {
    const SmallPath chosen = i == Intent::reuse ? s.reuse : s.stream;
    t << "\nsmall path, " << intent_name(i)
      << ": ns per call (warm; each strategy the geometric mean of " << kSmallPlacements
      << " code placements), memset beside; chosen " << describe(chosen) << "\n";
    // Rows: cases; columns: candidates in order of first appearance.
    std::vector<Candidate> labels;
    // (mix, size) -> candidate -> ns of each placement
    std::map<std::pair<int, uint64_t>, std::map<Candidate, std::vector<double>>> rows;
    for (const Measurement &m : s.measurements) {
      if (m.intent != i || !m.warm || m.ns <= 0) continue;
      if (std::find(labels.begin(), labels.end(), m.candidate) == labels.end())
        labels.push_back(m.candidate);
      rows[{int(m.mix), m.size}][m.candidate].push_back(m.ns);
    }
    t << "  " << padded("size", -22);
    for (const Candidate &l : labels)
      t << " " << padded(column_name(l), 17);
    t << "\n";
    for (auto &[key, row] : rows) {
      const std::string what = key.first == int(Mix::fixed) ? human_bytes(key.second)
                                                            : std::string(mix_name(Mix(key.first)));
      t << "  " << padded(what, -22);
      for (const Candidate &l : labels)
        t << " " << (row.count(l) ? fmt("%17.2f", geomean(row[l])) : padded("-", 17));
      t << "\n";
    }
    t << "  " << padded("worst band vs memset", -22); // what stage 1 chooses by
    for (const Candidate &l : labels) {
      const double w = l.is_memset() ? 0 : worst_ratio_to_memset(stage1, i, l);
      t << " " << (w > 0 ? fmt("%16.2fx", w) : padded("-", 17));
    }
    t << "\n";
    const SmallCold cold = small_cold(s.measurements, i);
    for (Pattern pattern : {Pattern::consecutive, Pattern::scattered})
      for (uint64_t size : small_cold_sizes()) {
        t << "  "
          << padded(human_bytes(size) + " cold, " + std::string(pattern_name(pattern)), -22);
        for (const Candidate &l : labels) {
          auto it = cold.measured.find(l);
          const bool has = it != cold.measured.end() && it->second.count({pattern, size});
          t << " " << (has ? fmt("%17.2f", it->second.at({pattern, size})) : padded("-", 17));
        }
        t << "\n";
      }
    for (const auto &[candidate, why] : cold.out)
      t << "  below memset cold: " << column_name(candidate) << ", under "
        << fmt("%.2f", kColdFloor) << "x its speed at " << fmt("%.0f%%", 100 * kSmallColdConfidence)
        << " confidence (" << why << ")\n";
  }
  return t.str();
}

} // namespace cjit::detail
