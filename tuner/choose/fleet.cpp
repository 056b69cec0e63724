#include "tuner/choose/fleet.hpp"

#include "jit/profile/defaults.hpp"
#include "jit/runtime/pool.hpp"
#include "tuner/race/tables.hpp"
#include "tuner/stages/parallel_stage.hpp"
#include "tuner/text/format.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>

namespace cjit::detail {
namespace {

// A race as one host ran it, judged again.
struct Judged {
  const RaceRecord *record;
  RaceOutcome outcome;
  size_t host; //!< its run's index
};

// The grid a race is a size of: its table ("reuse", "stream", "batch") or its thread counts'
// ("parallel reuse", "parallel stream"); none for a variants' race or a study.
std::string grid_of(const RaceRecord &r) {
  if (r.decides == "reuse" || r.decides == "stream" || r.decides == "batch") return r.decides;
  if (r.decides == "parallel") return "parallel " + std::string(intent_name(r.intent));
  return "";
}

// One host's races, judged again: by name, and each grid's by size. The batch grid is read as
// the tuner reads its table: the batch races, and the stream races from kBatchBytes on.
struct Host {
  std::map<std::string, Judged> races;
  std::map<std::string, std::map<uint64_t, const Judged *>, std::less<>> grids;
};

// The worst of several hosts' intervals of one ratio (higher is faster).
Interval worst(const std::vector<Interval> &is) {
  Interval w = is.front();
  for (const Interval &i : is) {
    w.lower = std::min(w.lower, i.lower);
    w.median = std::min(w.median, i.median);
    w.upper = std::min(w.upper, i.upper);
    w.n = std::min(w.n, i.n);
    w.bounded = w.bounded && i.bounded;
  }
  return w;
}

// Whether the fleet's features run `c` (labels always run).
bool runs_on(const Candidate &c, const CpuInfo &fleet) {
  return !c.kernel() || unsupported_reason(*c.kernel(), fleet).empty();
}

class Chooser {
public:
  Chooser(const std::vector<RawTune> &runs, const CpuInfo &fleet) : runs_(runs), fleet_(fleet) {
    hosts_.reserve(runs.size()); // the grids point into each host's races
    for (size_t h = 0; h < runs.size(); ++h) {
      Host &host = hosts_.emplace_back();
      for (const RaceRecord &r : runs[h].races) { // the studies' findings are each host's own
        if (r.decides == "study") continue;
        const Judged &j = host.races[r.race.name] = {
            &r, replay_race(r.race, r.samples, options_for(runs[h], r)), h};
        if (const std::string g = grid_of(r); !g.empty()) host.grids[g][r.size] = &j;
        if (r.decides == "stream" && r.size >= kBatchBytes) host.grids["batch"][r.size] = &j;
      }
    }
  }

  // Every size of `grid` some host raced, in increasing order.
  std::vector<uint64_t> sizes(std::string_view grid) const {
    std::set<uint64_t> out;
    for (const Host &h : hosts_)
      if (auto g = h.grids.find(grid); g != h.grids.end())
        for (auto &[size, j] : g->second)
          out.insert(size);
    return {out.begin(), out.end()};
  }

  // What host `h` says of `size` in `grid`: its race there, else its two raced sizes around it
  // (the worse of them decides, by the merge below), else nothing (beyond the sizes it raced,
  // it has no evidence).
  std::vector<const Judged *> judged_at(size_t h, std::string_view grid, uint64_t size) const {
    auto g = hosts_[h].grids.find(grid);
    if (g == hosts_[h].grids.end()) return {};
    auto above = g->second.lower_bound(size);
    if (above != g->second.end() && above->first == size) return {above->second};
    if (above == g->second.end() || above == g->second.begin()) return {};
    return {std::prev(above)->second, above->second};
  }

  // `size` of `grid` merged over the hosts: each candidate's standing is the worst over every
  // host's race there, or, for a host that did not race the size, over its two raced sizes
  // around it. None where the size is beyond a host's sizes, or the races measured no state in
  // common (`why` says so).
  std::optional<RacedSize> merged(std::string_view grid, uint64_t size, std::string *text,
                                  std::string *why) const {
    std::vector<const Judged *> at; // every host's races that judge the size
    size_t between = 0;             // hosts judged by their raced neighbours
    for (size_t h = 0; h < hosts_.size(); ++h) {
      const std::vector<const Judged *> js = judged_at(h, grid, size);
      if (js.empty()) return std::nullopt; // said once per host (unraced_note)
      between += js.size() > 1;
      at.insert(at.end(), js.begin(), js.end());
    }
    if (!between) at = read_from(at);
    const Race &first = at[0]->record->race;
    RacedSize rs{.size = size};
    const std::vector<std::vector<size_t>> state_at = common_states(at, rs);
    if (rs.patterns.empty()) {
      if (why) *why = "its races measured no state in common";
      return std::nullopt;
    }
    RaceOutcome &o = rs.outcome;
    o.winner = first.incumbent;
    o.settled = true;
    o.rounds = INT32_MAX;
    for (const Judged *j : at) {
      o.settled = o.settled && j->outcome.settled;
      o.rounds = std::min(o.rounds, j->outcome.rounds);
    }
    Race shown = first;
    if (between)
      shown.name = std::string(grid) + " " + human_bytes(size) + " (on " + std::to_string(between) +
                   " of " + std::to_string(hosts_.size()) + " hosts between the sizes raced)";
    shown.candidates.clear();
    merge_field(at, state_at, size, rs, shown);
    choose_winner(*at[0], rs);
    // Each contender's median GB/s in the first state: the slowest race's that measured it.
    for (const Candidate &c : contenders(shown)) {
      std::vector<size_t> state;
      for (size_t e = 0; e < at.size(); ++e)
        state.push_back(state_at[e][0]);
      if (const double g = slowest(at, c, state)) rs.gbps[c] = g;
    }
    if (text) *text = race_text(shown, o);
    return rs;
  }

  // The states every race in `at` measured, in the first's order, into rs.patterns; their
  // index in each race.
  static std::vector<std::vector<size_t>> common_states(const std::vector<const Judged *> &at,
                                                        RacedSize &rs) {
    const Race &first = at[0]->record->race;
    std::vector<std::vector<size_t>> state_at(at.size());
    for (size_t k = 0; k < first.conditions.size(); ++k) {
      const Pattern p = first.conditions[k].job.pattern;
      std::vector<size_t> index;
      for (const Judged *j : at) {
        const auto &cs = j->record->race.conditions;
        auto it = std::find_if(cs.begin(), cs.end(),
                               [&](const Condition &c) { return c.job.pattern == p; });
        if (it == cs.end()) break;
        index.push_back(size_t(it - cs.begin()));
      }
      if (index.size() < at.size()) continue;
      rs.patterns.push_back(p);
      for (size_t e = 0; e < at.size(); ++e)
        state_at[e].push_back(index[e]);
    }
    return state_at;
  }

  // Each candidate every race in `at` judged, its standing the worst over them, into
  // rs.outcome.field and `shown`'s candidates.
  void merge_field(const std::vector<const Judged *> &at,
                   const std::vector<std::vector<size_t>> &state_at, uint64_t size, RacedSize &rs,
                   Race &shown) const {
    const Race &first = at[0]->record->race;
    RaceOutcome &o = rs.outcome;
    // Each candidate every host judged, with its standing in each race (a race of no rounds
    // judges none; a host that did not race it has none).
    std::vector<std::pair<Candidate, std::vector<const Standing *>>> judged;
    for (const Candidate &c : first.candidates) {
      if (!runs_on(c, fleet_)) continue;
      std::vector<const Standing *> st;
      for (const Judged *j : at)
        for (const Standing &s : j->outcome.field)
          if (s.candidate == c && s.states.size() == j->record->race.conditions.size()) {
            st.push_back(&s);
            break;
          }
      if (st.size() == at.size()) judged.push_back({c, std::move(st)});
    }
    // A host's leader that another host did not race cannot win here, so being behind it does
    // not keep a candidate from winning.
    auto eligible_here = [&](const Standing &s) {
      return s.eligible ||
             (s.beats && s.behind && std::none_of(judged.begin(), judged.end(), [&](auto &j) {
                return j.first == *s.behind;
              }));
    };
    for (const auto &[c, st] : judged) {
      Standing m{.candidate = c};
      std::vector<Interval> scores;
      m.beats = m.eligible = true;
      m.rounds = INT32_MAX;
      for (size_t e = 0; e < st.size(); ++e) {
        scores.push_back(st[e]->score);
        m.beats = m.beats && st[e]->beats;
        m.eligible = m.eligible && eligible_here(*st[e]);
        m.rounds = std::min(m.rounds, st[e]->rounds);
        if (m.out.empty() && !st[e]->out.empty()) m.out = where(*at[e], size) + st[e]->out;
      }
      m.score = worst(scores);
      for (size_t k = 0; k < rs.patterns.size(); ++k) {
        std::vector<Interval> states;
        for (size_t e = 0; e < st.size(); ++e)
          states.push_back(st[e]->states.at(state_at[e][k]));
        m.states.push_back(worst(states));
      }
      o.field.push_back(std::move(m));
      shown.candidates.push_back(c);
    }
  }

  // The winner among the merged field as Racing judges it, with its bound and the states it held.
  void choose_winner(const Judged &first_race, RacedSize &rs) const {
    RaceOutcome &o = rs.outcome;
    const double min_gain = first_race.record->race.min_gain;
    // The winner as Racing judges it: the simplest of the eligible, then the best median.
    const RaceOptions options = options_for(runs_[first_race.host], *first_race.record);
    const Standing *w = nullptr;
    for (const Standing &s : o.field) {
      if (!s.eligible) continue;
      if (!w || options.simpler(s.candidate, w->candidate) ||
          (!options.simpler(w->candidate, s.candidate) && s.score.median > w->score.median))
        w = &s;
    }
    if (w) {
      o.winner = w->candidate;
      o.gain = w->score.lower;
      for (size_t k = 0; k < rs.patterns.size(); ++k)
        if (w->states[k].bounded && w->states[k].lower > min_gain) o.held.push_back(rs.patterns[k]);
    }
  }

  // memset's median GB/s at `size` of `grid` in its races' first state (scattered): the slowest
  // of the hosts that raced the size, in the races the tuner reads it from (not the variants');
  // 0 where none measured it.
  double memset_gbps(std::string_view grid, uint64_t size) const {
    std::vector<const Judged *> at;
    for (size_t h = 0; h < hosts_.size(); ++h)
      if (const std::vector<const Judged *> js = judged_at(h, grid, size); js.size() == 1)
        at.push_back(js[0]);
    return slowest(at, memset_candidate(), std::vector<size_t>(at.size(), 0));
  }

  // The sizes host `h` raced in `grid`.
  std::vector<uint64_t> sizes_of(size_t h, std::string_view grid) const {
    std::vector<uint64_t> out;
    if (auto g = hosts_[h].grids.find(grid); g != hosts_[h].grids.end())
      for (auto &[size, j] : g->second)
        out.push_back(size);
    return out;
  }

  // A note of the races some host ran and host `h` did not ("" where none): judged from its
  // raced sizes around them, or beyond its sizes (no evidence).
  std::string unraced_note(size_t h) const {
    std::set<std::string> grids;
    for (const Host &host : hosts_)
      for (auto &[g, by_size] : host.grids)
        grids.insert(g);
    std::set<uint64_t> between, beyond;
    size_t n_between = 0, n_beyond = 0;
    for (const std::string &g : grids)
      for (uint64_t size : sizes(g)) {
        if (g == "batch" && size >= kBatchBytes) continue; // the stream races, counted there
        const size_t n = judged_at(h, g, size).size();
        if (n == 2) between.insert(size), ++n_between;
        if (n == 0) beyond.insert(size), ++n_beyond;
      }
    auto range = [](const std::set<uint64_t> &s) {
      return human_bytes(*s.begin()) + (s.size() > 1 ? " .. " + human_bytes(*s.rbegin()) : "");
    };
    std::string note;
    if (n_between)
      note += std::to_string(n_between) + " races at sizes it did not race (" + range(between) +
              ") judged by the worse of its raced sizes on either side";
    if (n_beyond)
      note += std::string(note.empty() ? "" : "; ") + std::to_string(n_beyond) +
              " races beyond the sizes it raced (" + range(beyond) + "): memset's, or one thread";
    if (note.empty()) return note;
    const std::string &level = runs_[h].level;
    return runs_[h].name + (level.empty() ? "" : " (" + level + ")") + ": " + note;
  }

private:
  // Where a standing's reason comes from: its host, and the size where that is another.
  std::string where(const Judged &j, uint64_t size) const {
    std::string w = runs_.size() > 1 ? runs_[j.host].name : "";
    if (j.record->size != size) w += (w.empty() ? "" : " ") + ("at " + human_bytes(j.record->size));
    return w.empty() ? w : w + ": ";
  }

  // The races to read a size's decision from: its variants' races where every host read it
  // there (they ran the rounds that bound a median, and raced the same kernels), else `at`.
  std::vector<const Judged *> read_from(const std::vector<const Judged *> &at) const {
    std::vector<const Judged *> out;
    for (const Judged *j : at) {
      auto it = hosts_[j->host].races.find(j->record->race.name + " variants");
      if (it == hosts_[j->host].races.end() ||
          it->second.outcome.rounds < int(fewest_for(runs_[j->host].options.confidence)) ||
          (!out.empty() && out[0]->record->race.candidates != it->second.record->race.candidates))
        return at;
      out.push_back(&it->second);
    }
    return out;
  }

  // `c`'s smallest median speed in state `state[e]` of each race `at[e]` that measured it; 0
  // where none did.
  static double slowest(const std::vector<const Judged *> &at, const Candidate &c,
                        const std::vector<size_t> &state) {
    double g = 0;
    for (size_t e = 0; e < at.size(); ++e) {
      const std::vector<Candidate> cs = contenders(at[e]->record->race);
      auto it = std::find(cs.begin(), cs.end(), c);
      if (it == cs.end()) continue;
      const double v = median(at[e]->record->samples[size_t(it - cs.begin())][state[e]]);
      if (v > 0) g = g > 0 ? std::min(g, v) : v;
    }
    return g;
  }

  // The options a race was judged with: its run's, ties to the fewest threads or the simplest
  // kernel, as the tuner orders them.
  RaceOptions options_for(const RawTune &t, const RaceRecord &r) const {
    RaceOptions o = t.options;
    if (r.decides == "parallel")
      o.simpler = [](const Candidate &a, const Candidate &b) {
        return threads_of(a) < threads_of(b);
      };
    else
      o.simpler = [this](const Candidate &a, const Candidate &b) {
        return std::pair(complexity(a), a.name()) < std::pair(complexity(b), b.name());
      };
    return o;
  }

  int complexity(const Candidate &c) const {
    auto it = complexity_.find(c);
    if (it == complexity_.end())
      it = complexity_.emplace(c, c.kernel() ? kernel_complexity(*c.kernel()) : 0).first;
    return it->second;
  }

  const std::vector<RawTune> &runs_;
  const CpuInfo &fleet_;
  std::vector<Host> hosts_;
  mutable std::map<Candidate, int> complexity_;
};

// `table` with the part of [lower, below) that `kernel` serves given to memset.
std::vector<SizeClass> to_memset(const std::vector<SizeClass> &table, const MemsetRepair &m) {
  std::vector<SizeClass> out;
  uint64_t lower = 0;
  auto end = [](uint64_t below) { return below ? below : UINT64_MAX; };
  for (const SizeClass &c : table) {
    const uint64_t from = std::max(lower, m.lower), to = std::min(end(c.below), end(m.below));
    if (c.kernel == m.kernel && from < to) {
      // No stand-in: the kernel lost to memset, so no generated kernel is known to tie it here.
      SizeClass before = c,
                memset{.below = to == UINT64_MAX ? 0 : to, .kernel = default_spec(Method::libc)};
      before.below = from;
      if (from > lower) append_class(out, before);
      append_class(out, memset);
      if (to < end(c.below)) append_class(out, c);
    } else {
      append_class(out, c);
    }
    lower = c.below;
  }
  return out;
}

// memset's speed over a class [lower, below) (below 0: up) from its speed per size: over the
// sizes inside, else (a class a repair cut between two sizes) at the nearest size measured.
double memset_speed_over(const std::map<uint64_t, double> &speed, uint64_t lower, uint64_t below) {
  if (const double g = memset_over_class(speed, lower, below); g > 0 || speed.empty()) return g;
  const auto above = speed.lower_bound(lower); // at or past `below`: none is inside
  if (above == speed.end()) return std::prev(above)->second;
  if (above == speed.begin()) return above->second;
  const auto under = std::prev(above); // nearest by ratio, as the grid is geometric
  return double(lower) / double(under->first) < double(above->first) / double(below)
             ? under->second
             : above->second;
}

// A size no host's evidence judges: the incumbent's (memset, or one thread).
RacedSize incumbent_only(uint64_t size, const Candidate &incumbent) {
  RacedSize rs{.size = size};
  rs.outcome.winner = incumbent;
  return rs;
}

CpuInfo fleet_cpu(const ProfileHost &h) {
  CpuInfo cpu;
  cpu.vendor = h.vendor;
  cpu.brand = h.brand;
  cpu.family = uint32_t(h.family);
  cpu.model = uint32_t(h.model);
  cpu.stepping = uint32_t(h.stepping);
  cpu.hypervisor = h.hypervisor;
  cpu.l1d.size = uint64_t(h.l1d);
  cpu.l2.size = uint64_t(h.l2);
  cpu.l3.size = uint64_t(h.l3);
  for (size_t f = size_t(Feature::none) + 1; f < size_t(Feature::count_); ++f)
    cpu.set(Feature(f), std::find(h.features.begin(), h.features.end(), feature_key(Feature(f))) !=
                            h.features.end());
  return cpu;
}

// Whether two files hold one tune (one file under two names, or a copy): the same host, date
// and samples of every race. Two hosts never measure the same samples.
bool same_tune(const RawTune &a, const RawTune &b) {
  if (!(a.host == b.host) || a.date != b.date || a.races.size() != b.races.size()) return false;
  for (size_t k = 0; k < a.races.size(); ++k)
    if (a.races[k].samples != b.races[k].samples) return false;
  return true;
}

// A note per [host] key the hosts differ in: each value with its files, and what the profile
// says. Features: those not every host has, with the hosts that have them.
std::vector<std::string> differences(const std::vector<RawTune> &runs) {
  std::vector<std::string> out;
  auto differ = [&](const std::string &key, const std::function<std::string(const RawTune &)> &of,
                    const std::string &says) {
    std::vector<std::pair<std::string, std::string>> values; // value, its files
    for (const RawTune &t : runs) {
      const std::string v = of(t);
      auto it = std::find_if(values.begin(), values.end(), [&](auto &p) { return p.first == v; });
      if (it == values.end())
        values.push_back({v, t.name});
      else
        it->second += ", " + t.name;
    }
    if (values.size() < 2) return;
    std::string n = "the hosts differ in " + key + ": ";
    for (size_t k = 0; k < values.size(); ++k)
      n += (k ? ", " : "") + values[k].first + " (" + values[k].second + ")";
    out.push_back(n + "; " + says);
  };
  auto bytes = [](int64_t ProfileHost::*f) {
    return [f](const RawTune &t) { return human_bytes(uint64_t(t.host.*f)); };
  };
  differ(
      "brand", [](const RawTune &t) { return toml_string(t.host.brand); },
      "[host] leaves it empty, [[host.each]] has each");
  differ(
      "stepping", [](const RawTune &t) { return std::to_string(t.host.stepping); },
      "[host] says 0, [[host.each]] has each");
  differ("l1d", bytes(&ProfileHost::l1d), "[host] says the smallest");
  differ("l2", bytes(&ProfileHost::l2), "[host] says the smallest");
  differ("l3", bytes(&ProfileHost::l3), "[host] says the smallest");
  differ(
      "hypervisor", [](const RawTune &t) { return t.host.hypervisor ? "yes" : "no"; },
      "[host] says yes");
  differ(
      "C library", [](const RawTune &t) { return t.libc.empty() ? "unrecorded" : t.libc; },
      "each race's incumbent was its host's memset; [tuning] names none");
  differ(
      "CPUs", [](const RawTune &t) { return std::to_string(t.cpus); },
      "[parallel] cpus is the fewest");
  std::set<std::string> all;
  for (const RawTune &t : runs)
    all.insert(t.host.features.begin(), t.host.features.end());
  for (const std::string &f : all)
    differ(
        "feature " + f,
        [&](const RawTune &t) {
          const auto &fs = t.host.features;
          return std::string(std::find(fs.begin(), fs.end(), f) != fs.end() ? "has it"
                                                                            : "lacks it");
        },
        "[host] lists those every host has: nothing chosen needs " + f);
  return out;
}

std::string model_of(const RawTune &t) {
  return t.name + " is " + t.host.vendor + " family " + std::to_string(t.host.family) + " model " +
         std::to_string(t.host.model);
}

// Fails where `runs` are no fleet: none, or one tune given twice.
std::string not_a_fleet(const std::vector<RawTune> &runs) {
  if (runs.empty()) return "no raw measurements given";
  for (size_t a = 0; a < runs.size(); ++a)
    for (size_t b = a + 1; b < runs.size(); ++b)
      if (same_tune(runs[a], runs[b]))
        return runs[a].name + " and " + runs[b].name + " are one tune (the same host, date " +
               runs[a].date + " and samples): each host counts once, give its tune once";
  return "";
}

// [host]: the model, the features every host has, the smallest caches; brand and stepping
// where every host has the same. Fails where the hosts are of different models.
std::string merge_hosts(const std::vector<RawTune> &runs, FleetChoice &c) {
  ProfileHost &h = c.profile.host;
  h = runs[0].host;
  for (const RawTune &t : runs) {
    c.each.push_back({t.name, t.level, t.date, t.libc, t.host, t.cpus});
    if (t.host.vendor != h.vendor || t.host.family != h.family || t.host.model != h.model)
      return "hosts of different CPU models: " + model_of(runs[0]) + ", " + model_of(t) +
             "; a profile is chosen for one model";
    std::erase_if(h.features, [&](const std::string &f) {
      return std::find(t.host.features.begin(), t.host.features.end(), f) == t.host.features.end();
    });
    if (t.host.brand != runs[0].host.brand) h.brand = ""; // each host's: [[host.each]]
    if (t.host.stepping != runs[0].host.stepping) h.stepping = 0;
    h.l1d = std::min(h.l1d, t.host.l1d);
    h.l2 = std::min(h.l2, t.host.l2);
    h.l3 = std::min(h.l3, t.host.l3);
    h.hypervisor = h.hypervisor || t.host.hypervisor;
  }
  h.hosts = int64_t(runs.size());
  return "";
}

// The tables, from the merged races of every size some host raced; the verification's
// repairs; memset's speed over its classes.
void merge_tables(const std::vector<RawTune> &runs, const Chooser &chooser, FleetChoice &c) {
  std::map<std::string, std::vector<RacedSize>, std::less<>> at;
  std::map<std::string, std::map<uint64_t, double>, std::less<>> memset_speed;
  for (const char *table : {"reuse", "stream", "batch"})
    for (uint64_t size : chooser.sizes(table)) {
      std::string text, why;
      std::optional<RacedSize> rs = chooser.merged(table, size, &text, &why);
      if (!rs) {
        if (!why.empty())
          c.notes.push_back(std::string(table) + " " + human_bytes(size) + ": " + why + ": memset");
        rs = incumbent_only(size, memset_candidate());
      } else if (std::string_view(table) != "batch" || size < kBatchBytes) {
        c.races.push_back(text); // the batch table's larger sizes are the stream races: once
      }
      if (const double g = chooser.memset_gbps(table, size)) memset_speed[table][size] = g;
      rs->alone = decided_alone(table, size);
      at[table].push_back(std::move(*rs));
    }
  for (size_t k = 0; k < runs.size(); ++k)
    if (std::string n = chooser.unraced_note(k); !n.empty()) c.notes.push_back(n);
  Profile &p = c.profile;
  double min_gain = RaceOptions{}.min_gain; // the races' own (every race of a tune has one)
  for (const RaceRecord &r : runs[0].races)
    if (r.decides == "reuse") min_gain = r.race.min_gain;
  p.reuse = table_from_races(at["reuse"], min_gain);
  p.stream = table_from_races(at["stream"], min_gain);
  p.batch = table_from_races(at["batch"], min_gain);
  // Where non-temporal stores won, from the tables before the repairs, as the tuner says it.
  c.nontemporal_reuse = nontemporal_from(p.reuse);
  c.nontemporal_stream = nontemporal_from(p.stream);
  // A loss the verification found on any host is repaired where the choice runs that kernel.
  for (const RawTune &t : runs)
    for (const MemsetRepair &m : t.memset_repairs) {
      std::vector<SizeClass> &table = m.intent == Intent::reuse ? p.reuse : p.stream;
      table = to_memset(table, m);
    }
  // memset's classes: memset's own speed over them, as the tuner's tables say it.
  for (auto [name, table] :
       {std::pair{"reuse", &p.reuse}, {"stream", &p.stream}, {"batch", &p.batch}}) {
    uint64_t lower = 0;
    for (SizeClass &k : *table) {
      if (k.kernel.method == Method::libc)
        k.gbps = memset_speed_over(memset_speed[name], lower, k.below);
      lower = k.below;
    }
  }
}

// Each intent's small path.
void merge_small_paths(const std::vector<RawTune> &runs, FleetChoice &c) {
  Profile &p = c.profile;
  const CpuInfo &fleet = c.cpu;
  // The small paths: the hosts' own where they agree (strategy and bands, at the smallest max)
  // and no host's verification left a loss on its own (it tried to replace it: `rejected`), else
  // the strategy with the best worst-host score of every host's ranking, at the smallest max
  // tuned, else the CPU's default.
  for (Intent i : kIntents) {
    std::optional<SmallPath> &small = i == Intent::reuse ? p.small_reuse : p.small_stream;
    small = runs[0].small.at(i);
    for (const RawTune &t : runs) {
      const SmallPath &own = t.small.at(i);
      const auto rejected = t.small_rejected.find(i);
      if (own.strategy != small->strategy || own.bands != small->bands ||
          (rejected != t.small_rejected.end() &&
           std::count(rejected->second.begin(), rejected->second.end(), own.strategy))) {
        small.reset();
        break;
      }
      small->max = std::min(small->max, own.max);
    }
    if (small && small_unsupported_reason(*small, fleet).empty()) continue;
    small.reset();
    // Scores of the strategies no host's verification replaced.
    std::map<Small, std::vector<double>> scores;
    std::set<Small> rejected;
    for (const RawTune &t : runs)
      if (auto it = t.small_rejected.find(i); it != t.small_rejected.end())
        rejected.insert(it->second.begin(), it->second.end());
    for (const RawTune &t : runs)
      if (auto it = t.small_ranking.find(i); it != t.small_ranking.end())
        for (auto &[sp, score] : it->second)
          if (!rejected.count(sp.strategy)) scores[sp.strategy].push_back(score);
    double best = 0;
    for (auto &[s, v] : scores)
      if (v.size() == runs.size() && small_unsupported_reason(s, fleet).empty()) {
        const double w = *std::max_element(v.begin(), v.end());
        if (!small || w < best) small = SmallPath{s, kSmallTunedFrom}, best = w;
      }
    c.notes.push_back(
        std::string("small path ") + std::string(intent_name(i)) +
        ": the hosts chose different strategies, or one a host's verification left losing, or "
        "one the features every host has do not run; " +
        (small ? std::string(info(small->strategy).name) + ", the best worst-host "
                                                           "score, up to 256 B"
               : "none ranked on every host: the CPU's default, " +
                     describe(default_small(fleet, i))));
    if (!small) small = default_small(fleet, i);
  }
}

// The [parallel.<intent>] tables.
void merge_parallel(const std::vector<RawTune> &runs, const Chooser &chooser, FleetChoice &c) {
  Profile &p = c.profile;
  // The thread counts, merged as the tables' sizes are (where a host has no evidence: one
  // thread).
  for (Intent i : kIntents) {
    const std::string grid = "parallel " + std::string(intent_name(i));
    for (uint64_t size : chooser.sizes(grid)) {
      std::string text, why;
      std::optional<RacedSize> rs = chooser.merged(grid, size, &text, &why);
      if (!rs) {
        if (!why.empty())
          c.notes.push_back(grid + " " + human_bytes(size) + ": " + why + ": one thread");
        rs = incumbent_only(size, parallel_label(1));
      } else {
        c.races.push_back(text);
      }
      add_parallel_size(i == Intent::reuse ? p.parallel_reuse : p.parallel_stream, size,
                        rs->outcome);
    }
  }
  if (p.parallel_reuse || p.parallel_stream) {
    p.parallel_cpus = kMaxThreads;
    for (const RawTune &t : runs)
      p.parallel_cpus = std::min(p.parallel_cpus, t.cpus);
  }
}

// The no-allocate step: where every host found one within an octave of each other, the largest
// (each host's had it from there); else none.
NoAllocate merge_no_allocate(const std::vector<RawTune> &runs) {
  NoAllocate step;
  std::vector<uint64_t> steps;
  for (const RawTune &t : runs)
    if (t.stosb_no_allocate.size) steps.push_back(*t.stosb_no_allocate.size);
  if (runs.size() == 1) {
    step = runs[0].stosb_no_allocate;
  } else if (steps.size() < runs.size()) {
    step.reason = std::to_string(runs.size() - steps.size()) + " of " +
                  std::to_string(runs.size()) + " hosts found none";
  } else {
    const auto [lo, hi] = std::minmax_element(steps.begin(), steps.end());
    if (*hi <= 2 * *lo) {
      step.size = *hi;
      step.reason = "every host found it, at " + human_bytes(*lo) + " .. " + human_bytes(*hi) +
                    ": the largest";
    } else {
      step.reason = "the hosts disagree by more than an octave: " + human_bytes(*lo) + " .. " +
                    human_bytes(*hi);
    }
  }
  return step;
}

// The stages that merge their own sections of the raw files.
void merge_stages(const std::vector<RawTune> &runs, std::span<const Stage *const> stages,
                  FleetChoice &c) {
  for (const Stage *stage : stages) {
    StageMerge m{.sections = {}, .fleet = c.cpu, .profile = c.profile, .notes = c.notes};
    for (const RawTune &t : runs) {
      auto it = t.stage_sections.find(stage->raw_key());
      m.sections.push_back(it == t.stage_sections.end() ? nullptr : &it->second);
    }
    stage->merge(m);
  }
}

} // namespace

Result<FleetChoice> choose_fleet(const std::vector<RawTune> &runs,
                                 std::span<const Stage *const> stages) {
  if (std::string why = not_a_fleet(runs); !why.empty()) return Result<FleetChoice>::fail(why);
  FleetChoice c;
  if (std::string why = merge_hosts(runs, c); !why.empty()) return Result<FleetChoice>::fail(why);
  c.notes = differences(runs);
  c.cpu = fleet_cpu(c.profile.host);
  Chooser chooser(runs, c.cpu);
  for (size_t k = 0; k < runs.size(); ++k)
    if (chooser.sizes_of(k, "reuse").empty())
      return Result<FleetChoice>::fail(runs[k].name + " has no race of the reuse table");
  merge_tables(runs, chooser, c);
  merge_small_paths(runs, c);
  merge_parallel(runs, chooser, c);
  c.stosb_no_allocate = merge_no_allocate(runs);
  const std::optional<uint64_t> step = c.stosb_no_allocate.size;
  stand_in_past_step({&c.profile.reuse, &c.profile.stream, &c.profile.batch}, step);
  c.nontemporal_reuse_runs = nontemporal_runs(c.profile.reuse, step);
  c.nontemporal_stream_runs = nontemporal_runs(c.profile.stream, step);
  merge_stages(runs, stages, c);
  if (std::string missing = missing_features(c.profile, c.cpu); !missing.empty())
    return Result<FleetChoice>::fail("the files disagree with their hosts' features: the choice " +
                                     missing);
  return {std::move(c), {}};
}

std::string fleet_toml(const FleetChoice &c) {
  // Each host's own [host] keys, with its file (what [host] cannot say of several), after
  // [host]'s keys.
  std::ostringstream each, tuning, t;
  if (c.each.size() > 1)
    for (const FleetHost &e : c.each)
      each << "\n[[host.each]]\nfile = " << toml_string(e.file)
           << "\nlevel = " << toml_string(e.level) << "\ndate = " << toml_string(e.date)
           << "\nlibc = " << toml_string(e.libc) << "\ncpus = " << e.cpus << "\n"
           << format_host(e.host);
  tuning << "tool = \"clearjit " CLEARJIT_VERSION " choose\"\nfiles = [";
  for (size_t k = 0; k < c.each.size(); ++k)
    tuning << (k ? ", " : "") << toml_string(c.each[k].file);
  tuning << "]\n";
  for (const std::string &n : c.notes)
    tuning << "# " << n << "\n";
  // The memset every race was against, where every host had the same.
  Profile p = c.profile;
  if (!c.each.empty() && !c.each[0].libc.empty() &&
      std::all_of(c.each.begin(), c.each.end(),
                  [&](const FleetHost &e) { return e.libc == c.each[0].libc; }))
    p.libc = c.each[0].libc;
  t << "\n[findings]\n";
  if (c.stosb_no_allocate.size) t << "stosb_no_allocate = " << *c.stosb_no_allocate.size << "\n";
  t << "stosb_no_allocate_note = " << toml_string(c.stosb_no_allocate.reason) << "\n";
  if (c.nontemporal_reuse) t << "nontemporal_reuse = " << *c.nontemporal_reuse << "\n";
  if (c.nontemporal_stream) t << "nontemporal_stream = " << *c.nontemporal_stream << "\n";
  t << nontemporal_toml("nontemporal_reuse_runs", c.nontemporal_reuse_runs)
    << nontemporal_toml("nontemporal_stream_runs", c.nontemporal_stream_runs);
  return format_profile(p, {.comments = "# Written by `clearjit choose`; sizes are bytes.\n",
                            .host = each.str(),
                            .tuning = tuning.str(),
                            .tables = t.str()});
}

} // namespace cjit::detail
