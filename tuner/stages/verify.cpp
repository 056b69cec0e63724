#include "tuner/stages/verify.hpp"

#include "tuner/measure/c_library.hpp"

#include "jit/runtime/runtime.hpp"
#include "tuner/race/tables.hpp"
#include "tuner/stages/smallpath.hpp"
#include "tuner/text/format.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>

namespace cjit::detail {
namespace {

constexpr Mix kVerifyMixes[] = {Mix::log_uniform, Mix::objects};
// Not the draw the small-path study and `clearjit bench` replay (0): other call sequences.
constexpr unsigned kVerifyDraw = 1;
// How many times a repair may change the profile before what still loses is judged as it is.
constexpr int kRepairRounds = 2;
const Candidate kVerified = Candidate::labelled("verified");

uint64_t round64(double x) { return std::max<uint64_t>(64, uint64_t(std::llround(x / 64)) * 64); }

// memset measured a second time beside itself, the incumbent of an unsettled loss's race.
const Candidate kMemsetAgain = Candidate::labelled("memset, again");

std::string ratios_text(const std::vector<double> &rs, bool warm) {
  std::string s;
  for (double r : rs)
    s += (s.empty() ? "" : ", ") + fmt("%.2fx", r);
  return s + (warm ? " memset's time" : " memset's speed");
}

// A point's race: the dispatcher ("verified") against memset, one sample of each per round,
// paired. A warm point's conditions are its code places (each through its own handle and from
// its own place of the timing loop), weighed together; a cold point's is its pattern. It loses
// where the upper bound of its per-round speed over memset's is below the floor: kColdFloor
// cold, 1 / kWarmNoise warm (ns per call: kWarmNoise times memset's time).
Race point_race(const VerifyPoint &p, const std::vector<const clearjit *> &handles) {
  Race race{.name = point_name(p),
            .conditions = {},
            .candidates = {kVerified},
            .incumbent = memset_candidate(),
            .max_rounds = 0,
            .beside = {},
            .job_for = {},
            .min_gain = p.warm ? 1 / kWarmNoise : kColdFloor};
  if (p.warm) {
    for (int place = 0; place < int(handles.size()); ++place) {
      Job memset = warm_job(memset_candidate(), Call::memset, p.intent, p.size, p.mix, nullptr,
                            nullptr, place);
      memset.draw = kVerifyDraw;
      race.conditions.push_back({memset, false});
    }
    race.job_for = [handles](const Job &memset, const Candidate &who) {
      if (who.is_memset()) return memset;
      Job mine = warm_job(kVerified, Call::inlined, memset.intent, memset.size, memset.mix, nullptr,
                          handles[size_t(memset.place)], memset.place);
      mine.draw = kVerifyDraw;
      return mine;
    };
  } else {
    race.conditions.push_back(
        {in_pattern({default_spec(Method::libc), p.size, p.intent}, p.pattern), true});
    const clearjit *cj = handles.front();
    race.job_for = [cj](const Job &memset, const Candidate &who) {
      if (who.is_memset()) return memset;
      return in_pattern({kVerified, cj, memset.size, memset.intent}, memset.pattern);
    };
  }
  return race;
}

// A confirmed loss's race once more, where no repair settles it: the dispatcher against memset
// measured a second time ("memset, again", the same memset in the same place of the timing
// loop or the same walk), memset itself beside. Lost: the dispatcher is confidently slower than
// memset's second measurement, beyond the point's floor. `libc`: memset's kernel for cold jobs.
Race against_memset_race(const VerifyPoint &p, const std::vector<const clearjit *> &handles,
                         ClearFn libc) {
  Race race = point_race(p, handles);
  race.name += ", against memset again";
  race.incumbent = kMemsetAgain;
  race.beside = {memset_candidate()};
  race.job_for = [point = race.job_for, libc](const Job &memset, const Candidate &who) {
    if (!(who == kMemsetAgain)) return point(memset, who);
    Job again = memset.warm
                    ? memset
                    : in_pattern(Job(who, libc, memset.size, memset.intent), memset.pattern);
    again.candidate = who;
    return again;
  };
  return race;
}

// A point's outcome: its ratio to memset as the summary gives it (warm: time over memset's;
// cold: speed over memset's), the bound the decision took, and whether it lost.
struct PointResult {
  double ratio = 0, bound = 0;
  int rounds = 0;
  bool lost = false;
};

PointResult point_result(const VerifyPoint &p, const RaceOutcome &o) {
  const Standing &st = o.field.front();
  PointResult r;
  r.rounds = st.rounds;
  r.lost = !st.out.empty();
  if (st.score.median > 0) {
    r.ratio = p.warm ? 1 / st.score.median : st.score.median;
    r.bound = p.warm ? (st.score.upper > 0 ? 1 / st.score.upper : 0) : st.score.upper;
  }
  return r;
}

std::string result_text(const VerifyPoint &p, const PointResult &r) {
  return point_name(p) + ": " + fmt("%.2fx", r.ratio) + (p.warm ? " (at least " : " (at most ") +
         fmt("%.2fx", r.bound) + ") memset's " + (p.warm ? "time" : "speed") + " over " +
         std::to_string(r.rounds) + " rounds";
}

// What verify() says it measured, in a line.
std::string measured_text(const std::vector<VerifyPoint> &points, const Profile &p,
                          const CpuInfo &cpu) {
  size_t warm = 0, cold_small = 0;
  for (const VerifyPoint &x : points)
    if (x.warm)
      ++warm;
    else if (x.size <= p.small(x.intent, cpu).max)
      ++cold_small;
  const std::vector<uint64_t> sizes = verify_warm_sizes();
  std::string cold_sizes;
  for (uint64_t size : verify_cold_sizes())
    cold_sizes += (cold_sizes.empty() ? "" : ", ") + std::to_string(size);
  return std::to_string(points.size()) +
         " points against memset, both intents: " + std::to_string(warm) + " warm (" +
         std::to_string(sizes.size()) + " sizes of " + std::to_string(sizes.front()) + ".." +
         std::to_string(sizes.back()) + " B and both mixes, another draw of their calls, " +
         std::to_string(kVerifyPlaces) + " code places, through the inline call), " +
         std::to_string(cold_small) + " cold small (" + cold_sizes +
         " B, scattered and consecutive), " + std::to_string(points.size() - warm - cold_small) +
         " large (each class boundary from both sides, scattered and consecutive)";
}

using Ratios = std::map<VerifyPoint, std::vector<double>>; // per point, its races' ratios
using Results = std::map<VerifyPoint, PointResult>;

// verify()'s state over its rounds: the profile and its opened handles, the points' races, the
// repairs tried, and the Verification it says them in. One member function per step.
struct Verifier {
  Meter &bench;
  Profile &p;
  const CpuInfo &cpu;
  const MeasureOptions &options;
  const RaceOptions &race_options;
  const std::map<Intent, std::vector<SmallPath>> &ranking;
  const uint64_t min_size, max_size;
  const bool repairs_allowed;

  Verification v;
  std::vector<std::unique_ptr<clearjit, void (*)(clearjit *)>> opened;
  std::vector<const clearjit *> handles;
  Ratios history;    // every race of each point
  Results last;      // each point's latest race
  Results confirmed; // the losses a second race confirmed
  std::map<Intent, std::vector<SmallPath>> tried;
  // Intents whose small path, given another strategy, measured no better: left as it is (their
  // tables may still hand classes to memset).
  std::set<Intent> small_frozen;
  // Losses no repair settles, judged against memset (judge_against_memset): the line said, and
  // whether it is a loss (left) or memset's noise. Said at the end: a repair of the point's
  // intent measures it afresh (try_repair forgets these), a take-back restores them.
  struct Judgement {
    std::string line;
    bool lost = false;
  };
  std::map<VerifyPoint, Judgement> judged;
  std::unique_ptr<GeneratedCode> libc_kernel; // memset's, for judge_against_memset's cold jobs

  Verifier(Meter &bench, Profile &p, const CpuInfo &cpu, const MeasureOptions &options,
           const RaceOptions &race_options, const std::map<Intent, std::vector<SmallPath>> &ranking,
           uint64_t min_size, uint64_t max_size, bool repairs_allowed)
      : bench(bench), p(p), cpu(cpu), options(options), race_options(race_options),
        ranking(ranking), min_size(min_size), max_size(max_size), repairs_allowed(repairs_allowed) {
  }

  Verification run() {
    const auto start = std::chrono::steady_clock::now();
    open_all();
    const std::vector<VerifyPoint> points = verify_points(p, cpu, min_size, max_size);
    v.libc = running_memset(); // the memset the points were raced against
    v.measured = measured_text(points, p, cpu);
    last = measure(points, "verifying the profile");
    for (int repairs = 0;; ++repairs) {
      if (!confirm_losses()) break;
      const Ratios to_repair = repairable(repairs == kRepairRounds);
      if (to_repair.empty()) break;
      const Repair r = repair(p, to_repair, ranking, tried, cpu);
      say_unrepaired(r, to_repair);
      if (r.done.empty()) break;
      try_repair(r);
    }
    summarize();
    v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return v;
  }

  // kVerifyPlaces handles of `p`, each opened as an application opens it.
  void open_all() {
    opened.clear();
    handles.clear();
    for (int place = 0; place < kVerifyPlaces; ++place) {
      std::string error;
      clearjit *cj = open_generated(p, cpu, error);
      if (!cj) throw std::runtime_error("verification: " + error);
      opened.emplace_back(cj, clearjit_close);
      handles.push_back(cj);
    }
  }

  // Races `points` against memset, together; their ratios go to `history`.
  Results measure(const std::vector<VerifyPoint> &points, const std::string &label) {
    MeasureOptions o = options;
    o.label = label;
    Racing racing(bench, race_options, o);
    for (const VerifyPoint &point : points)
      racing.add(point_race(point, handles));
    v.rounds += racing.run(0);
    std::vector<Measurement> ms = racing.measurements();
    v.measurements.insert(v.measurements.end(), ms.begin(), ms.end());
    Results results;
    for (size_t k = 0; k < points.size(); ++k) {
      const PointResult r = point_result(points[k], racing.outcome(k));
      if (r.ratio > 0) history[points[k]].push_back(r.ratio);
      results[points[k]] = r;
    }
    return results;
  }

  // Races the points that lost in `last` again: those that lose again are `confirmed`. A loss
  // counts where a second race, on its own rounds, bounds it below the floor too: one race per
  // point, over the many points verified, puts some point inside the noise below the floor by
  // chance (tests/tuner/stages/test_verify.cpp, ALossInsideTheNoiseIsNotCounted). Returns false
  // where none lost.
  bool confirm_losses() {
    std::vector<VerifyPoint> flagged;
    for (auto &[point, r] : last)
      if (r.lost) flagged.push_back(point);
    if (flagged.empty()) return false;
    confirmed.clear();
    for (auto &[point, r] : measure(flagged, "verifying again: points that lost"))
      if (r.lost) confirmed[point] = r;
    return true;
  }

  // The confirmed losses a repair may take on, with their ratios. The others no repair settles:
  // those memset serves (memset cannot lose to itself), and every loss where no repair is
  // allowed, its small path is repaired no further or the repairs are spent (`last_round`).
  // Each of those is judged against memset measured again beside it.
  Ratios repairable(bool last_round) {
    Ratios to_repair;
    Results unsettled;
    for (auto &[point, r] : confirmed) {
      const bool small = on_small_path(point, point.intent, p.small(point.intent, cpu).max);
      if (served_by_memset(p, cpu, point) || !repairs_allowed ||
          (small && small_frozen.count(point.intent)) || last_round) {
        if (!judged.count(point)) unsettled[point] = r; // judged once a profile
      } else {
        to_repair[point] = {r.ratio};
      }
    }
    judge_against_memset(unsettled);
    return to_repair;
  }

  // Losses no repair settles (each with the race that confirmed it), raced once more against
  // memset measured again beside it. Confidently within the point's floor of that: the loss was
  // memset's own noise at the point, said in `noise` with both measurements; undecided, noise
  // too where memset against itself strayed as far below as the point did. Confidently slower,
  // or undecided and further below than memset strayed: a loss, left and counted. At a point
  // memset serves, that loss is what it costs to reach memset through the dispatcher.
  void judge_against_memset(const Results &losses) {
    if (losses.empty()) return;
    std::vector<VerifyPoint> points;
    for (auto &[point, r] : losses)
      points.push_back(point);
    if (!libc_kernel) {
      auto code = compile_kernel(default_spec(Method::libc), cpu);
      if (!code) throw std::runtime_error("verification: memset's kernel: " + code.error);
      libc_kernel = std::move(*code.value);
    }
    MeasureOptions o = options;
    o.label = "verifying again: losses against memset measured twice";
    Racing racing(bench, race_options, o);
    for (const VerifyPoint &point : points)
      racing.add(against_memset_race(point, handles, libc_kernel->fn));
    v.rounds += racing.run(0);
    std::vector<Measurement> ms = racing.measurements();
    v.measurements.insert(v.measurements.end(), ms.begin(), ms.end());
    for (size_t k = 0; k < points.size(); ++k) {
      const VerifyPoint &point = points[k];
      const PointResult again = point_result(point, racing.outcome(k));
      const Standing &st = racing.outcome(k).field.front(); // speed over memset's second
      // memset's second measurement over its first, per round over the same conditions.
      const RaceSamples &samples = racing.samples(k);
      std::vector<std::vector<double>> itself;
      for (size_t c = 0; c < samples[0].size(); ++c)
        itself.push_back(round_ratios(samples[0][c], samples[2][c]));
      const Interval i = median_interval(present(round_geomeans(itself)), race_options.confidence);
      const double memset_ratio = i.median > 0 ? (point.warm ? 1 / i.median : i.median) : 0;
      const std::string unit = point.warm ? "time" : "speed";
      std::string line = result_text(point, losses.at(point)) + "; raced again over " +
                         std::to_string(again.rounds) +
                         " rounds beside memset measured twice: " + "memset " +
                         fmt("%.2fx", memset_ratio) + " its own " + unit + ", the point " +
                         fmt("%.2fx", again.ratio) + (point.warm ? " (at least " : " (at most ") +
                         fmt("%.2fx", again.bound) + ") memset's second " + unit;
      // How far below 1 memset measured against itself went (either measurement the first).
      const double memset_low = i.upper > 0 ? std::min(i.lower, 1 / i.upper) : 0;
      const bool noise = st.beats || (!again.lost && st.score.median >= memset_low);
      const bool memset = served_by_memset(p, cpu, point);
      std::string verdict;
      if (noise)
        verdict = memset ? ": memset's " + served_by_text(point) + ", inside its noise"
                         : ": inside memset's own noise there";
      else if (again.lost)
        verdict = memset ? ": memset through the dispatcher loses beyond the noise"
                         : ": loses beyond the noise";
      else
        verdict = ": undecided, and further below than memset against itself: counted";
      judged[point] = Judgement{line + verdict, !noise};
    }
  }

  // "libc class" or "libc band of the small path": what serves a memset-served point.
  std::string served_by_text(const VerifyPoint &point) const {
    const bool small = on_small_path(point, point.intent, p.small(point.intent, cpu).max);
    return small ? "own band of the small path" : "own class";
  }

  // What repair() could not do (r.left: a small path with no strategy left to try): the losses
  // of intents it did not change stay in the profile, so no repair settles them, and each is
  // judged against memset (with this profile's handles, before try_repair). Those of changed
  // intents are raced again with the change.
  void say_unrepaired(const Repair &r, const Ratios &to_repair) {
    std::set<Intent> repaired_intents;
    for (auto &[i, what] : r.done)
      repaired_intents.insert(i);
    Results unsettled;
    for (auto &[point, ratios] : to_repair)
      if (!repaired_intents.count(point.intent) && !judged.count(point))
        unsettled[point] = confirmed.at(point);
    judge_against_memset(unsettled);
  }

  // What a repair may have to give back: the profile and the measurements before it.
  struct Before {
    Profile profile;
    Ratios history;
    Results confirmed;
    std::map<VerifyPoint, Judgement> judged;
  };

  // Puts `r` in the profile and races the changed intents' points again: the old profile's
  // measurements no longer describe them. What it hands to memset is kept: memset cannot lose to
  // itself, so a worse measurement there is noise. A small path given another strategy is kept
  // where the points it serves measure better than before (the table's, which it does not
  // serve, judge it not); else it is taken back.
  void try_repair(const Repair &r) {
    const Before before{p, history, confirmed, judged};
    p = r.profile;
    open_all();
    std::set<Intent> changed;
    for (auto &[i, what] : r.done)
      changed.insert(i);
    std::vector<VerifyPoint> again;
    for (const VerifyPoint &x : verify_points(p, cpu, min_size, max_size))
      if (changed.count(x.intent)) again.push_back(x);
    std::erase_if(history, [&](const auto &h) { return changed.count(h.first.intent) > 0; });
    std::erase_if(judged, [&](const auto &j) { return changed.count(j.first.intent) > 0; });
    last = measure(again, "verifying the repaired profile");
    bool undone = false;
    Results unsettled; // the losses of small paths taken back
    for (Intent i : changed) {
      const unsigned small_max = before.profile.small(i, cpu).max; // a repair keeps it
      const double was = small_path_badness(before.history, i, small_max),
                   now = small_path_badness(history, i, small_max);
      const auto strategy = r.to_strategy.find(i);
      const bool kept = strategy == r.to_strategy.end() || now < was;
      for (size_t k = 0; k < r.done.size(); ++k)
        if (r.done[k].first != i)
          continue;
        else if (kept || k != strategy->second)
          v.repaired.push_back(r.done[k].second);
        else
          v.undone.push_back(r.done[k].second + ", taken back: its worst point at " +
                             fmt("%.2f", now) + "x the noise bound, against " + fmt("%.2f", was) +
                             "x before");
      if (kept) continue;
      undone = true;
      unsettled.merge(take_back_small_path(i, before));
    }
    if (!undone) return;
    open_all();
    judge_against_memset(unsettled);
  }

  // Intent i's small path as before the repair, with its old measurements (its table keeps
  // what was handed to memset); that small path is repaired no further. The handles are the
  // caller's to open again. Returns its losses from before the repair that were not judged
  // then: no repair settles them now, so they are the caller's to judge against memset.
  Results take_back_small_path(Intent i, const Before &before) {
    small_frozen.insert(i);
    // repair() gave each intent its own small path: restore this one's alone.
    SmallPath &small = i == Intent::reuse ? p.small_reuse.emplace() : p.small_stream.emplace();
    small = before.profile.small(i, cpu);
    // The points the small path serves (warm ones, the mixes among them, all of it) get their
    // measurements before the repair back; the others keep the table's new ones.
    auto served = [&](const VerifyPoint &x) { return on_small_path(x, i, small.max); };
    std::erase_if(history, [&](const auto &h) { return served(h.first); });
    // The table's points keep their latest race: a loss there is confirmed and said as any.
    std::erase_if(last, [&](const auto &x) { return served(x.first); });
    for (auto &[point, rs] : before.history)
      if (served(point)) history[point] = rs;
    std::erase_if(judged, [&](const auto &j) { return served(j.first); });
    for (auto &[point, j] : before.judged)
      if (served(point)) judged[point] = j;
    // Its losses as before the repair, but those judged against memset then (restored above
    // with their verdicts).
    Results unsettled;
    for (auto &[point, r] : before.confirmed)
      if (served(point) && !before.judged.count(point)) unsettled[point] = r;
    return unsettled;
  }

  // Each point's ratio over all its races, each intent's worst, and the small paths tried.
  void summarize() {
    for (auto &[point, j] : judged) {
      (j.lost ? v.left : v.noise).push_back(j.line);
      if (j.lost) v.lost.push_back(point);
    }
    for (auto &[point, rs] : history) {
      const double r = geomean(rs);
      v.ratios[point] = r;
      auto &worst = point.warm ? v.worst_warm : v.worst_cold;
      if (!worst.count(point.intent))
        worst[point.intent] = r;
      else
        worst[point.intent] =
            point.warm ? std::max(worst[point.intent], r) : std::min(worst[point.intent], r);
    }
    v.small_tried = tried;
  }
};

} // namespace

std::string point_name(const VerifyPoint &p) {
  std::string what = p.mix == Mix::fixed ? human_bytes(p.size) : std::string(mix_name(p.mix));
  return std::string(intent_name(p.intent)) + " " + what + " " +
         (p.warm ? "warm" : std::string(pattern_name(p.pattern)));
}

std::vector<uint64_t> verify_warm_sizes() {
  return {5, 10, 20, 28, 40, 56, 64, 80, 112, 144, 192, 240};
}

std::vector<uint64_t> verify_cold_sizes() { return {16, 48, 128}; }

std::vector<VerifyPoint> verify_points(const Profile &p, const CpuInfo &cpu, uint64_t min_size,
                                       uint64_t max_size) {
  std::set<VerifyPoint> points;
  for (Intent i : kIntents) {
    for (uint64_t size : verify_warm_sizes())
      points.insert({i, size, Mix::fixed, true});
    for (Mix mix : kVerifyMixes)
      points.insert({i, 0, mix, true});
    for (uint64_t size : verify_cold_sizes())
      for (Pattern pattern : kPatterns)
        points.insert({i, size, Mix::fixed, false, pattern});
    const unsigned small_max = p.small(i, cpu).max;
    for (const SizeClass &c : p.table(i)) {
      if (!c.below) continue;
      for (double side : {0.8, 1.25}) {
        const uint64_t size = round64(double(c.below) * side);
        if (size <= small_max || size < min_size || size > max_size) continue;
        for (Pattern pattern : kPatterns)
          points.insert({i, size, Mix::fixed, false, pattern});
      }
    }
  }
  return {points.begin(), points.end()};
}

bool served_by_memset(const Profile &p, const CpuInfo &cpu, const VerifyPoint &point) {
  const SmallPath small = p.small(point.intent, cpu);
  auto by_memset = [&](uint64_t n) {
    if (n > small.max) return class_for(p.table(point.intent), n).kernel.method == Method::libc;
    for (const SmallBand &band : small.bands)
      if (n < band.below) return band.strategy == Small::libc;
    return small.strategy == Small::libc;
  };
  if (point.mix == Mix::fixed) return by_memset(point.size);
  for (uint64_t n = 1; n <= kMixMaxBytes; ++n)
    if (!by_memset(n)) return false;
  return true;
}

bool loses(const VerifyPoint &p, double ratio) {
  return p.warm ? ratio > kWarmNoise : ratio < kColdFloor;
}

bool on_small_path(const VerifyPoint &x, Intent i, unsigned small_max) {
  return x.intent == i && (x.mix != Mix::fixed || x.size <= small_max);
}

double small_path_badness(const std::map<VerifyPoint, std::vector<double>> &history, Intent i,
                          unsigned small_max) {
  double worst = 0;
  for (const auto &[point, rs] : history) {
    if (!on_small_path(point, i, small_max) || rs.empty()) continue;
    const double r = geomean(rs);
    worst = std::max(worst, point.warm ? r / kWarmNoise : kColdFloor / r);
  }
  return worst;
}

Repair repair(const Profile &p, const std::map<VerifyPoint, std::vector<double>> &losses,
              const std::map<Intent, std::vector<SmallPath>> &ranking,
              std::map<Intent, std::vector<SmallPath>> &tried, const CpuInfo &cpu) {
  Repair r{p, {}, {}, {}, {}};
  Profile &q = r.profile;
  // Each intent its own table and small path, so that repairing one never moves the other.
  if (q.stream.empty()) q.stream = p.reuse;
  q.small_reuse = p.small(Intent::reuse, cpu);
  q.small_stream = p.small(Intent::stream, cpu);
  for (const auto &[point, ratios] : losses) {
    const std::string why = point_name(point) + ": " + ratios_text(ratios, point.warm);
    const Intent i = point.intent;
    const SmallPath small = q.small(i, cpu);
    if (on_small_path(point, i, small.max)) {
      if (std::find(r.small_changed.begin(), r.small_changed.end(), i) != r.small_changed.end())
        continue; // replaced already in this round: the next measurement judges it
      std::vector<SmallPath> &seen = tried[i];
      if (std::find(seen.begin(), seen.end(), small) == seen.end()) seen.push_back(small);
      // A cold point: its band back to memset, the incumbent (the rest of the path stays); once
      // that was tried and taken back, the ranking's next strategy as for a warm point.
      if (!point.warm) {
        std::array<Small, kSmallBands> picks = band_picks(small);
        Small &serving = picks[small_band(point.size)];
        if (serving == Small::libc) {
          r.left.push_back({point, why + " (memset's own band: noise)"});
          continue;
        }
        serving = Small::libc;
        SmallPath replacement = from_band_picks(picks, small.max);
        if (replacement.bands.size() > kSmallMaxBands) replacement = {Small::libc, small.max};
        if (std::find(seen.begin(), seen.end(), replacement) == seen.end()) {
          (i == Intent::reuse ? q.small_reuse : q.small_stream) = replacement;
          r.small_changed.push_back(i);
          r.done.push_back({i, std::string(intent_name(i)) + " small path " + describe(small) +
                                   " -> " + describe(replacement) + " (" + why + ")"});
          continue;
        }
      }
      std::optional<SmallPath> next;
      auto it = ranking.find(i);
      if (it != ranking.end())
        for (const SmallPath &s : it->second)
          if (std::none_of(seen.begin(), seen.end(),
                           [&](const SmallPath &t) { return t.strategy == s.strategy; })) {
            next = s;
            break;
          }
      if (!next) {
        r.left.push_back({point, why + " (no other small-path strategy left to try)"});
        continue;
      }
      const SmallPath replacement{next->strategy, small.max};
      (i == Intent::reuse ? q.small_reuse : q.small_stream) = replacement;
      r.small_changed.push_back(i);
      if (replacement.strategy != Small::libc) r.to_strategy[i] = r.done.size();
      r.done.push_back({i, std::string(intent_name(i)) + " small path " + describe(small) + " -> " +
                               describe(replacement) + " (" + why + ")"});
      continue;
    }
    // A size class: to memset, which cannot lose to itself. A class that was memset before
    // this repair is noise; one repaired already in this round (its other pattern lost too)
    // is done.
    if (class_for(p.table(i), point.size).kernel.method == Method::libc) {
      r.left.push_back({point, why + " (a " + std::string(info(Method::libc).name) +
                                   " class: memset itself, so noise)"});
      continue;
    }
    std::vector<SizeClass> &table = i == Intent::reuse ? q.reuse : q.stream;
    const size_t k = size_t(&class_for(table, point.size) - table.data());
    if (table[k].kernel.method == Method::libc) continue;
    r.done.push_back({i, std::string(intent_name(i)) + " " +
                             class_range(k ? table[k - 1].below : 0, table[k].below) + ": " +
                             format_spec(table[k].kernel) + " -> " +
                             std::string(info(Method::libc).name) + " (" + why + ")"});
    // No stand-in: the kernel lost to memset, so no generated kernel is known to tie it here.
    table[k].stand_in.reset();
    table[k].kernel = default_spec(Method::libc);
    table[k].gbps = 0; // not measured as a class: the tuner fills in memset's (verify_last)
    table[k].gain = 0; // memset's class: no bound over itself
    table[k].states.clear();
    std::vector<SizeClass> merged;
    for (const SizeClass &c : table)
      append_class(merged, c);
    table = merged;
  }
  return r;
}

Verification verify(Meter &bench, Profile &p, const CpuInfo &cpu, const MeasureOptions &options,
                    const RaceOptions &race_options,
                    const std::map<Intent, std::vector<SmallPath>> &ranking, uint64_t min_size,
                    uint64_t max_size, bool repairs_allowed) {
  Verifier verifier(bench, p, cpu, options, race_options, ranking, min_size, max_size,
                    repairs_allowed);
  return verifier.run();
}

double verify_seconds(const Meter &bench, const CpuInfo &cpu, const MeasureOptions &options,
                      double confidence, int boundaries) {
  Profile typical = builtin_profile(cpu);
  std::vector<VerifyPoint> points = verify_points(typical, cpu, 0, 0); // warm and cold small
  // Large points: `boundaries` per intent, spread over 4 KiB .. 1 GiB, two sides, two patterns.
  for (Intent i : kIntents)
    for (int b = 0; b < boundaries; ++b)
      for (int side = 0; side < 2; ++side)
        for (Pattern pattern : kPatterns)
          points.push_back(
              {i, uint64_t(4096) << std::min(2 * b + side, 18), Mix::fixed, false, pattern});
  // The fewest rounds that bound a median, each point's jobs once per round; twice that for
  // repairs and the rounds of points near the floor.
  const std::vector<const clearjit *> none(kVerifyPlaces, nullptr);
  std::vector<Job> round;
  for (const VerifyPoint &point : points) {
    const Race race = point_race(point, none);
    for (const Condition &c : race.conditions) {
      round.push_back(c.job);
      round.push_back(race.job_for(c.job, kVerified));
    }
  }
  MeasureOptions one = options;
  one.repetitions = 1;
  return 2 * double(fewest_for(confidence)) * bench.estimate_seconds(round, one);
}

std::string verification_toml(const Verification &v) {
  std::ostringstream t;
  t << "\n[verification]\nmeasured = " << toml_string(v.measured);
  if (!v.libc.empty()) t << "\nlibc = " << toml_string(v.libc);
  t << "\nseconds = " << fmt("%.1f", v.seconds) << "\nrounds = " << v.rounds << "\n";
  for (const auto &[key, lines] : {std::pair{"repaired", &v.repaired},
                                   {"left", &v.left},
                                   {"tried", &v.undone},
                                   {"noise", &v.noise}}) {
    t << key << " = [";
    for (size_t k = 0; k < lines->size(); ++k)
      t << (k ? ", " : "") << toml_string((*lines)[k]);
    t << "]\n";
  }
  for (Intent i : kIntents) {
    t << "\n[verification." << intent_name(i) << "]\n";
    if (v.worst_warm.count(i))
      t << "worst_warm = " << fmt("%.2f", v.worst_warm.at(i)) << " # time / memset's\n";
    if (v.worst_cold.count(i))
      t << "worst_cold = " << fmt("%.2f", v.worst_cold.at(i)) << " # speed / memset's\n";
  }
  return t.str();
}

std::vector<StandInSpeed> stand_in_speeds(Meter &bench, const Profile &p, const CpuInfo &cpu,
                                          const MeasureOptions &options, const RaceOptions &race,
                                          uint64_t min_size, uint64_t max_size) {
  std::vector<StandInSpeed> out;
  Racing racing(bench, race, options);
  std::vector<size_t> races;
  for (Intent intent : kIntents) {
    if (intent == Intent::stream && p.stream.empty()) continue; // stream runs reuse's table
    uint64_t lower = 0;
    for (const SizeClass &c : p.table(intent)) {
      const uint64_t class_lower = lower;
      const uint64_t from = std::max(lower, min_size),
                     to = std::min(c.below ? c.below - 1 : max_size, max_size);
      lower = c.below;
      if (c.kernel.method != Method::libc || !c.stand_in || from > to) continue;
      std::set<uint64_t> sizes;
      for (double at : {double(from) * 1.25, double(to) * 0.8})
        sizes.insert(std::clamp(uint64_t(at) / 64 * 64, from, to));
      for (uint64_t size : sizes) {
        const Job base(default_spec(Method::libc), size, intent);
        Race r{.name = "stand-in " + std::string(intent_name(intent)) + " " + human_bytes(size),
               .conditions = {{in_pattern(base, Pattern::scattered), true}},
               .candidates = {*c.stand_in}};
        if (4 * size <= arena_bytes_for(cpu, max_size))
          r.conditions.push_back({in_pattern(base, Pattern::consecutive), true});
        races.push_back(racing.add(std::move(r)));
        out.push_back({.intent = intent,
                       .lower = class_lower,
                       .below = c.below,
                       .stand_in = *c.stand_in,
                       .size = size,
                       .score = {},
                       .memset_gbps = 0,
                       .stand_in_gbps = 0});
      }
    }
  }
  if (out.empty()) return out;
  racing.run(0);
  for (size_t k = 0; k < out.size(); ++k) {
    for (const Standing &st : racing.outcome(races[k]).field)
      if (st.candidate == Candidate(out[k].stand_in)) out[k].score = st.score;
    out[k].memset_gbps = racing.median_of(races[k], memset_candidate(), 0);
    out[k].stand_in_gbps = racing.median_of(races[k], out[k].stand_in, 0);
  }
  return out;
}

std::string stand_in_text(const std::vector<StandInSpeed> &speeds, const std::string &libc) {
  if (speeds.empty()) return "";
  std::string t = "\nmemset's classes and their stand-ins, against " + libc +
                  "'s memset (GB/s scattered, medians; then the stand-in's speed / memset's per "
                  "round over the states, its median and confidence bounds):\n";
  for (const StandInSpeed &s : speeds) {
    char row[256];
    std::snprintf(row, sizeof row,
                  "  %-7s %-26s %-22s at %-10s memset %6.1f  stand-in %6.1f  %5.2fx (%.2f..%.2f)\n",
                  std::string(intent_name(s.intent)).c_str(), class_range(s.lower, s.below).c_str(),
                  format_spec(s.stand_in).c_str(), human_bytes(s.size).c_str(), s.memset_gbps,
                  s.stand_in_gbps, s.score.median, s.score.lower, s.score.upper);
    t += row;
  }
  return t;
}

std::vector<std::string> losing_parts(const Profile &p, const CpuInfo &cpu, const Verification &v) {
  std::map<std::string, std::string> parts; // part -> its points
  for (const VerifyPoint &point : v.lost) {
    const SmallPath small = p.small(point.intent, cpu);
    std::string part = std::string(intent_name(point.intent)) + " ";
    if (on_small_path(point, point.intent, small.max)) {
      part += "small path: " + describe(small);
    } else {
      const std::vector<SizeClass> &table = p.table(point.intent);
      const size_t k = size_t(&class_for(table, point.size) - table.data());
      part += class_range(k ? table[k - 1].below : small.max + 1, table[k].below) + ": " +
              format_spec(table[k].kernel);
    }
    std::string &points = parts[part];
    points += (points.empty() ? "" : ", ") + point_name(point);
  }
  std::vector<std::string> out;
  for (const auto &[part, points] : parts)
    out.push_back(part + " (" + points + ")");
  return out;
}

std::string with_verification(std::string_view profile, const Verification &v) {
  std::string out;
  bool dropping = false;
  while (!profile.empty()) {
    const size_t nl = profile.find('\n');
    const std::string_view line = profile.substr(0, nl == profile.npos ? profile.size() : nl + 1);
    profile.remove_prefix(line.size());
    // A table header (TOML allows blanks around it and its name): the verification's or
    // another's. Blanks are never part of a bare key, so the name is compared without them.
    std::string header;
    for (char c : line.substr(0, line.find('#')))
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') header += c;
    if (header.starts_with("[") && !header.starts_with("[["))
      dropping = header == "[verification]" || header.starts_with("[verification.");
    else if (header.starts_with("[["))
      dropping = false;
    if (!dropping) out += line;
  }
  while (out.ends_with("\n\n"))
    out.pop_back();
  if (!out.empty() && !out.ends_with('\n')) out += '\n';
  return out + verification_toml(v);
}

std::string verification_text(const Verification &v) {
  std::ostringstream s;
  s << "\nverification (" << fmt("%.1f", v.seconds) << " s, " << v.rounds
    << " rounds): " << v.measured << "\n";
  for (Intent i : kIntents) {
    s << "  " << intent_name(i) << ":";
    if (v.worst_warm.count(i))
      s << " worst warm " << fmt("%.2fx", v.worst_warm.at(i)) << " memset's time;";
    if (v.worst_cold.count(i))
      s << " worst cold " << fmt("%.2fx", v.worst_cold.at(i)) << " memset's speed";
    s << "\n";
  }
  for (const std::string &r : v.repaired)
    s << "  repaired: " << r << "\n";
  for (const std::string &u : v.undone)
    s << "  tried: " << u << "\n";
  for (const std::string &l : v.left)
    s << "  left: " << l << "\n";
  for (const std::string &n : v.noise)
    s << "  noise: " << n << "\n";
  if (v.repaired.empty() && v.left.empty())
    s << "  nothing lost beyond the noise (" << fmt("%.2f", kWarmNoise) << "x memset's time warm, "
      << fmt("%.2f", kColdFloor) << "x its speed cold): "
      << (v.noise.empty() ? "no point's bound over paired rounds beyond them"
                          : "beyond them only points inside memset's own noise there")
      << "\n";
  return s.str();
}

} // namespace cjit::detail
