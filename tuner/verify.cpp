#include "verify.hpp"

#include "choose.hpp"
#include "format.hpp"
#include "runtime.hpp"

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
// How many times a repair may change the profile before what still loses is left, said.
constexpr int kRepairRounds = 2;
const Candidate kVerified = Candidate::labelled("verified");

uint64_t round64(double x) { return std::max<uint64_t>(64, uint64_t(std::llround(x / 64)) * 64); }

// A cold point above the small path in a class whose kernel is memset itself.
bool in_memset_class(const Profile &p, const CpuInfo &cpu, const VerifyPoint &point) {
  return !point.warm && point.size > p.small(point.intent, cpu).max &&
         class_for(p.table(point.intent), point.size).kernel.method == Method::libc;
}

std::string ratios_text(const std::vector<double> &rs, bool warm) {
  std::string s;
  for (double r : rs)
    s += (s.empty() ? "" : ", ") + fmt("%.2fx", r);
  return s + (warm ? " memset's time" : " memset's speed");
}

// The job list for `points`, with each job's point and role: a warm point's dispatcher and
// memset at every code place, a cold point's dispatcher and memset once.
struct PointJobs {
  std::vector<Job> jobs;
  std::vector<std::pair<VerifyPoint, bool>> of; // (point, is memset)
};
PointJobs point_jobs(const std::vector<VerifyPoint> &points,
                     const std::vector<const clearjit *> &handles) {
  PointJobs pj;
  auto add = [&](Job j, const VerifyPoint &p, bool memset) {
    pj.jobs.push_back(std::move(j));
    pj.of.push_back({p, memset});
  };
  for (const VerifyPoint &p : points) {
    if (p.warm) {
      for (int place = 0; place < int(handles.size()); ++place) {
        Job mine = warm_job(kVerified, Call::inlined, p.intent, p.size, p.mix, nullptr,
                            handles[size_t(place)], place);
        Job memset = warm_job(memset_candidate(), Call::memset, p.intent, p.size, p.mix, nullptr,
                              nullptr, place);
        mine.draw = memset.draw = kVerifyDraw;
        add(mine, p, false);
        add(memset, p, true);
      }
    } else {
      add(in_pattern({kVerified, handles.front(), p.size, p.intent}, p.pattern), p, false);
      add(in_pattern({default_spec(Method::libc), p.size, p.intent}, p.pattern), p, true);
    }
  }
  return pj;
}

// Each point's ratio in one measurement: warm, the geometric mean over places of the
// dispatcher's ns over memset's; cold, the dispatcher's GB/s over memset's.
std::map<VerifyPoint, double> point_ratios(const PointJobs &pj,
                                           const std::vector<Measurement> &ms) {
  std::map<VerifyPoint, std::pair<std::vector<double>, std::vector<double>>> v;
  for (size_t i = 0; i < ms.size(); ++i) {
    const auto &[p, memset] = pj.of[i];
    const double x = p.warm ? ms[i].ns : ms[i].gbps;
    if (x > 0) (memset ? v[p].second : v[p].first).push_back(x);
  }
  std::map<VerifyPoint, double> out;
  for (auto &[p, xs] : v)
    if (!xs.first.empty() && !xs.second.empty()) out[p] = geomean(xs.first) / geomean(xs.second);
  return out;
}

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
      points.insert({i, size, Mix::fixed, false, Pattern::consecutive});
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

bool loses(const VerifyPoint &p, double ratio) {
  return p.warm ? ratio > kWarmNoise : ratio < kColdFloor;
}

double badness(const std::map<VerifyPoint, std::vector<double>> &history, Intent i) {
  double worst = 0;
  for (const auto &[point, rs] : history) {
    if (point.intent != i || rs.empty()) continue;
    const double r = geomean(rs);
    worst = std::max(worst, point.warm ? r / kWarmNoise : kColdFloor / r);
  }
  return worst;
}

Repair repair(const Profile &p, const std::map<VerifyPoint, std::vector<double>> &losses,
              const std::map<Intent, std::vector<SmallPath>> &ranking,
              std::map<Intent, std::vector<SmallPath>> &tried, const CpuInfo &cpu) {
  Repair r{p, {}, {}, {}};
  Profile &q = r.profile;
  // Each intent its own table and small path, so that repairing one never moves the other.
  if (q.stream.empty()) q.stream = p.reuse;
  q.small_reuse = p.small(Intent::reuse, cpu);
  q.small_stream = p.small(Intent::stream, cpu);
  for (const auto &[point, ratios] : losses) {
    const std::string why = point_name(point) + ": " + ratios_text(ratios, point.warm);
    const Intent i = point.intent;
    const SmallPath small = q.small(i, cpu);
    if (point.warm || point.size <= small.max) {
      if (std::find(r.small_changed.begin(), r.small_changed.end(), i) != r.small_changed.end())
        continue; // replaced already in this round: the next measurement judges it
      std::vector<SmallPath> &seen = tried[i];
      if (std::find(seen.begin(), seen.end(), small) == seen.end()) seen.push_back(small);
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
        r.left.push_back(why + " (no other small-path strategy left to try)");
        continue;
      }
      const SmallPath replacement{next->strategy, small.max};
      (i == Intent::reuse ? q.small_reuse : q.small_stream) = replacement;
      r.small_changed.push_back(i);
      r.done.push_back({i, std::string(intent_name(i)) + " small path " + describe(small) + " -> " +
                               describe(replacement) + " (" + why + ")"});
      continue;
    }
    // A size class: to memset, which cannot lose to itself. A class that was memset before
    // this repair is noise; one repaired already in this round (its other pattern lost too)
    // is done.
    if (class_for(p.table(i), point.size).kernel.method == Method::libc) {
      r.left.push_back(why + " (a " + std::string(info(Method::libc).name) +
                       " class: memset itself, so noise)");
      continue;
    }
    std::vector<SizeClass> &table = i == Intent::reuse ? q.reuse : q.stream;
    const size_t k = size_t(&class_for(table, point.size) - table.data());
    if (table[k].kernel.method == Method::libc) continue;
    r.done.push_back({i, std::string(intent_name(i)) + " " +
                             class_range(k ? table[k - 1].below : 0, table[k].below) + ": " +
                             format_spec(table[k].kernel) + " -> " +
                             std::string(info(Method::libc).name) + " (" + why + ")"});
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

Verification verify(Bench &bench, Profile &p, const CpuInfo &cpu, const MeasureOptions &options,
                    const std::map<Intent, std::vector<SmallPath>> &ranking, uint64_t min_size,
                    uint64_t max_size, bool repairs_allowed) {
  const auto start = std::chrono::steady_clock::now();
  Verification v;
  std::vector<std::unique_ptr<clearjit, void (*)(clearjit *)>> opened;
  std::vector<const clearjit *> handles;
  auto open_all = [&] {
    opened.clear();
    handles.clear();
    for (int place = 0; place < kVerifyPlaces; ++place) {
      std::string error;
      clearjit *cj = open_profile(p, cpu, error);
      if (!cj) throw std::runtime_error("verification: " + error);
      opened.emplace_back(cj, clearjit_close);
      handles.push_back(cj);
    }
  };
  std::map<VerifyPoint, std::vector<double>> history; // every measurement of a point
  auto measure = [&](const std::vector<VerifyPoint> &points, const std::string &label) {
    MeasureOptions o = options;
    o.label = label;
    PointJobs pj = point_jobs(points, handles);
    std::vector<Measurement> ms = bench.run(pj.jobs, o);
    v.measurements.insert(v.measurements.end(), ms.begin(), ms.end());
    ++v.rounds;
    std::map<VerifyPoint, double> ratios = point_ratios(pj, ms);
    for (auto &[point, r] : ratios)
      history[point].push_back(r);
    return ratios;
  };

  open_all();
  std::vector<VerifyPoint> points = verify_points(p, cpu, min_size, max_size);
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
  v.measured = std::to_string(points.size()) +
               " points against memset, both intents: " + std::to_string(warm) + " warm (" +
               std::to_string(sizes.size()) + " sizes of " + std::to_string(sizes.front()) + ".." +
               std::to_string(sizes.back()) + " B and both mixes, another draw of their calls, " +
               std::to_string(kVerifyPlaces) + " code places, through the inline call), " +
               std::to_string(cold_small) + " cold small (" + cold_sizes + " B consecutive), " +
               std::to_string(points.size() - warm - cold_small) +
               " large (each class boundary from both sides, scattered and consecutive)";

  std::map<VerifyPoint, double> last = measure(points, "verifying the profile");
  std::map<Intent, std::vector<SmallPath>> tried;
  std::set<Intent> frozen; // a repair of theirs measured no better: left as they are
  for (int repairs = 0;; ++repairs) {
    std::vector<VerifyPoint> losing;
    for (auto &[point, r] : last)
      if (loses(point, r)) losing.push_back(point);
    if (losing.empty()) break;
    // A loss counts when a second measurement confirms it.
    std::map<VerifyPoint, std::vector<double>> to_repair;
    for (auto &[point, r] : measure(losing, "verifying again: points that lost")) {
      if (!loses(point, r)) continue;
      if (!repairs_allowed || frozen.count(point.intent) || repairs == kRepairRounds) {
        std::string line = point_name(point) + ": " + ratios_text({last[point], r}, point.warm);
        if (in_memset_class(p, cpu, point))
          line +=
              " (a " + std::string(info(Method::libc).name) + " class: memset itself, so noise)";
        else
          v.lost.push_back(point);
        v.left.push_back(line);
      } else
        to_repair[point] = {last[point], r};
    }
    if (to_repair.empty()) break;
    Repair r = repair(p, to_repair, ranking, tried, cpu);
    v.left.insert(v.left.end(), r.left.begin(), r.left.end());
    if (r.done.empty()) break;
    const Profile before = p;
    const auto history_before = history;
    p = r.profile;
    open_all();
    // The changed intents' points again, on the repaired profile: the old profile's
    // measurements no longer describe them.
    std::set<Intent> changed;
    for (auto &[i, what] : r.done)
      changed.insert(i);
    std::vector<VerifyPoint> again;
    for (const VerifyPoint &x : verify_points(p, cpu, min_size, max_size))
      if (changed.count(x.intent)) again.push_back(x);
    std::erase_if(history, [&](const auto &h) { return changed.count(h.first.intent) > 0; });
    last = measure(again, "verifying the repaired profile");
    // A repair is kept where its intent measures better than before; else it is taken back,
    // with the old measurements, and that intent is repaired no further.
    bool undone = false;
    for (Intent i : changed) {
      const double was = badness(history_before, i), now = badness(history, i);
      for (auto &[intent, what] : r.done)
        if (intent != i)
          continue;
        else if (now < was)
          v.repaired.push_back(what);
        else
          v.undone.push_back(what + ", taken back: its worst point at " + fmt("%.2f", now) +
                             "x the noise bound, against " + fmt("%.2f", was) + "x before");
      if (now < was) continue;
      undone = true;
      frozen.insert(i);
      // repair() gave each intent its own table and small path: restore this one's alone.
      if (i == Intent::reuse) {
        p.reuse = before.reuse;
        p.small_reuse = before.small(Intent::reuse, cpu);
      } else {
        p.stream = before.table(Intent::stream);
        p.small_stream = before.small(Intent::stream, cpu);
      }
      std::erase_if(history, [&](const auto &h) { return h.first.intent == i; });
      std::erase_if(last, [&](const auto &x) { return x.first.intent == i; });
      for (auto &[point, rs] : history_before)
        if (point.intent == i) {
          history[point] = rs;
          // Left: the losses both measurements showed, as before the repair.
          if (rs.size() >= 2 &&
              std::all_of(rs.begin(), rs.end(), [&](double x) { return loses(point, x); })) {
            v.left.push_back(point_name(point) + ": " + ratios_text(rs, point.warm));
            v.lost.push_back(point);
          }
        }
    }
    if (undone) open_all();
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
  v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return v;
}

double verify_seconds(const Bench &bench, const CpuInfo &cpu, const MeasureOptions &options,
                      int boundaries) {
  Profile typical = builtin_profile(cpu);
  std::vector<VerifyPoint> points = verify_points(typical, cpu, 0, 0); // warm and cold small
  // Large points: `boundaries` per intent, spread over 4 KiB .. 1 GiB, two sides, two patterns.
  for (Intent i : kIntents)
    for (int b = 0; b < boundaries; ++b)
      for (int side = 0; side < 2; ++side)
        for (Pattern pattern : kPatterns)
          points.push_back(
              {i, uint64_t(4096) << std::min(2 * b + side, 18), Mix::fixed, false, pattern});
  std::vector<const clearjit *> none(kVerifyPlaces, nullptr);
  return 2 * bench.estimate_seconds(point_jobs(points, none).jobs, options);
}

std::string verification_toml(const Verification &v) {
  std::ostringstream t;
  t << "\n[verification]\nmeasured = " << toml_string(v.measured)
    << "\nseconds = " << fmt("%.1f", v.seconds) << "\nrounds = " << v.rounds << "\nrepaired = [";
  for (size_t k = 0; k < v.repaired.size(); ++k)
    t << (k ? ", " : "") << toml_string(v.repaired[k]);
  t << "]\nleft = [";
  for (size_t k = 0; k < v.left.size(); ++k)
    t << (k ? ", " : "") << toml_string(v.left[k]);
  t << "]\ntried = [";
  for (size_t k = 0; k < v.undone.size(); ++k)
    t << (k ? ", " : "") << toml_string(v.undone[k]);
  t << "]\n";
  for (Intent i : kIntents) {
    t << "\n[verification." << intent_name(i) << "]\n";
    if (v.worst_warm.count(i))
      t << "worst_warm = " << fmt("%.2f", v.worst_warm.at(i)) << " # time / memset's\n";
    if (v.worst_cold.count(i))
      t << "worst_cold = " << fmt("%.2f", v.worst_cold.at(i)) << " # speed / memset's\n";
  }
  return t.str();
}

std::vector<std::string> losing_parts(const Profile &p, const CpuInfo &cpu, const Verification &v) {
  std::map<std::string, std::string> parts; // part -> its points
  for (const VerifyPoint &point : v.lost) {
    const SmallPath small = p.small(point.intent, cpu);
    std::string part = std::string(intent_name(point.intent)) + " ";
    if (point.warm || point.size <= small.max) {
      part += "small path: " + describe(small);
    } else {
      const std::vector<SizeClass> &table = p.table(point.intent);
      const size_t k = size_t(&class_for(table, point.size) - table.data());
      part += class_range(k ? table[k - 1].below : 0, table[k].below) + ": " +
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
    if (line.starts_with("[")) // a table header: the verification's, or another's
      dropping = line.starts_with("[verification]") || line.starts_with("[verification.");
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
  if (v.repaired.empty() && v.left.empty())
    s << "  nothing lost beyond the noise (" << fmt("%.2f", kWarmNoise) << "x memset's time warm, "
      << fmt("%.2f", kColdFloor) << "x its speed cold) in two measurements\n";
  return s.str();
}

} // namespace cjit::detail
