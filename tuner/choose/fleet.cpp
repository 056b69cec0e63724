#include "tuner/choose/fleet.hpp"

#include "jit/runtime/pool.hpp"
#include "tuner/choose/choose.hpp"
#include "tuner/report/format.hpp"
#include "tuner/stages/parallel_stage.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace cjit::detail {
namespace {

// A race as one host ran it, judged again.
struct Judged {
  const RaceRecord *record;
  RaceOutcome outcome;
};

// Per host, its races by name.
using HostRaces = std::map<std::string, Judged>;

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
    for (const RawTune &t : runs) {
      HostRaces &races = hosts_.emplace_back();
      for (const RaceRecord &r : t.races) // the studies' findings are each host's own
        if (r.decides != "study")
          races[r.race.name] = {&r, replay_race(r.race, r.samples, options_for(t, r))};
    }
  }

  // The race `name` merged over the hosts, or none where a host did not run it (or ran another
  // decision under that name), or the hosts measured no state in common.
  std::optional<RacedSize> merged(const std::string &name, std::string *text = nullptr) {
    std::vector<const Judged *> per_host;
    for (const HostRaces &h : hosts_) {
      auto it = h.find(name);
      if (it == h.end()) return std::nullopt;
      const RaceRecord &r = *it->second.record;
      if (!per_host.empty()) {
        const RaceRecord &r0 = *per_host.front()->record;
        if (r.decides != r0.decides || r.intent != r0.intent || r.size != r0.size)
          return std::nullopt;
      }
      per_host.push_back(&it->second);
    }
    const Race &first = per_host[0]->record->race;
    // The states every host measured, in the first host's order; their index per host.
    RacedSize rs{.size = per_host[0]->record->size};
    std::vector<std::vector<size_t>> state_at(per_host.size());
    for (size_t k = 0; k < first.conditions.size(); ++k) {
      const Pattern p = first.conditions[k].job.pattern;
      std::vector<size_t> at;
      for (const Judged *j : per_host) {
        const auto &cs = j->record->race.conditions;
        auto it = std::find_if(cs.begin(), cs.end(),
                               [&](const Condition &c) { return c.job.pattern == p; });
        if (it == cs.end()) break;
        at.push_back(size_t(it - cs.begin()));
      }
      if (at.size() < per_host.size()) continue;
      rs.patterns.push_back(p);
      for (size_t h = 0; h < per_host.size(); ++h)
        state_at[h].push_back(at[h]);
    }
    if (rs.patterns.empty()) return std::nullopt;
    const double min_gain = first.min_gain;
    RaceOutcome &o = rs.outcome;
    o.winner = first.incumbent;
    o.settled = true;
    o.rounds = INT32_MAX;
    for (const Judged *j : per_host) {
      o.settled = o.settled && j->outcome.settled;
      o.rounds = std::min(o.rounds, j->outcome.rounds);
    }
    Race shown = first;
    shown.candidates.clear();
    for (const Candidate &c : first.candidates) {
      if (!runs_on(c, fleet_)) continue;
      // Each host's standing of `c`, where it was judged (a race of no rounds judges none).
      std::vector<const Standing *> st;
      for (const Judged *j : per_host)
        for (const Standing &s : j->outcome.field)
          if (s.candidate == c && s.states.size() == j->record->race.conditions.size()) {
            st.push_back(&s);
            break;
          }
      if (st.size() < per_host.size()) continue; // a host did not race it
      Standing m{.candidate = c};
      std::vector<Interval> scores;
      m.beats = m.eligible = true;
      m.rounds = INT32_MAX;
      for (size_t h = 0; h < st.size(); ++h) {
        scores.push_back(st[h]->score);
        m.beats = m.beats && st[h]->beats;
        m.eligible = m.eligible && st[h]->eligible;
        m.rounds = std::min(m.rounds, st[h]->rounds);
        if (m.out.empty() && !st[h]->out.empty())
          m.out = (per_host.size() > 1 ? runs_[h].name + ": " : std::string()) + st[h]->out;
      }
      m.score = worst(scores);
      for (size_t k = 0; k < rs.patterns.size(); ++k) {
        std::vector<Interval> states;
        for (size_t h = 0; h < st.size(); ++h)
          states.push_back(st[h]->states.at(state_at[h][k]));
        m.states.push_back(worst(states));
      }
      o.field.push_back(std::move(m));
      shown.candidates.push_back(c);
    }
    // The winner as Racing judges it: the simplest of the eligible, then the best median.
    const RaceOptions options = options_for(runs_[0], *per_host[0]->record);
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
    // Each contender's median GB/s in the first state: the slowest host's.
    for (const Candidate &c : contenders(shown)) {
      double g = 0;
      bool first_host = true;
      for (size_t h = 0; h < per_host.size(); ++h) {
        const std::vector<Candidate> cs = contenders(per_host[h]->record->race);
        auto it = std::find(cs.begin(), cs.end(), c);
        if (it == cs.end()) continue;
        const double v =
            median(per_host[h]->record->samples[size_t(it - cs.begin())][state_at[h][0]]);
        g = first_host ? v : std::min(g, v);
        first_host = false;
      }
      rs.gbps[c] = g;
    }
    if (text) *text = race_text(shown, o);
    return rs;
  }

  // A size's decision is read from its variants' race where every host read it there (it ran
  // the rounds that bound a median, and raced the same kernels), else from its first race.
  std::string source(const std::string &name) const {
    const std::string variants = name + " variants";
    std::optional<std::vector<Candidate>> same;
    for (size_t h = 0; h < hosts_.size(); ++h) {
      auto it = hosts_[h].find(variants);
      if (it == hosts_[h].end() ||
          it->second.outcome.rounds < int(fewest_for(runs_[h].options.confidence)))
        return name;
      if (same && *same != it->second.record->race.candidates) return name;
      same = it->second.record->race.candidates;
    }
    return variants;
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

  // The races (not studies) some host ran and the first did not.
  std::set<std::string> not_on_the_first_host() const {
    std::set<std::string> out;
    for (size_t h = 1; h < hosts_.size(); ++h)
      for (auto &[name, j] : hosts_[h]) // a variants' race follows a host's own first choice
        if (j.record->decides != "variants" && !hosts_[0].count(name)) out.insert(name);
    return out;
  }

  // The first host's races that decide `kinds`, in its order.
  std::vector<const RaceRecord *> first_host(std::initializer_list<std::string_view> kinds) const {
    std::vector<const RaceRecord *> out;
    for (const RaceRecord &r : runs_[0].races)
      if (std::find(kinds.begin(), kinds.end(), r.decides) != kinds.end()) out.push_back(&r);
    return out;
  }

  const std::vector<RawTune> &runs_;
  const CpuInfo &fleet_;
  std::vector<HostRaces> hosts_;

private:
  int complexity(const Candidate &c) const {
    auto it = complexity_.find(c);
    if (it == complexity_.end())
      it = complexity_.emplace(c, c.kernel() ? kernel_complexity(*c.kernel()) : 0).first;
    return it->second;
  }
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

// A size no candidate was raced at: the incumbent's (memset, or one thread).
RacedSize incumbent_only(const RaceRecord &r) {
  RacedSize rs{.size = r.size};
  rs.outcome.winner = r.race.incumbent;
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

std::string model_of(const RawTune &t) {
  return t.name + " is " + t.host.vendor + " family " + std::to_string(t.host.family) + " model " +
         std::to_string(t.host.model);
}

} // namespace

Result<FleetChoice> choose_fleet(const std::vector<RawTune> &runs) {
  if (runs.empty()) return Result<FleetChoice>::fail("no raw measurements given");
  FleetChoice c;
  ProfileHost &h = c.profile.host;
  h = runs[0].host;
  for (const RawTune &t : runs) {
    c.files.push_back(t.name);
    if (t.host.vendor != h.vendor || t.host.family != h.family || t.host.model != h.model)
      return Result<FleetChoice>::fail("hosts of different CPU models: " + model_of(runs[0]) +
                                       ", " + model_of(t) + "; a profile is chosen for one model");
    std::erase_if(h.features, [&](const std::string &f) {
      return std::find(t.host.features.begin(), t.host.features.end(), f) == t.host.features.end();
    });
    if (t.host.brand != h.brand || t.host.stepping != h.stepping) h.brand = "", h.stepping = 0;
    h.l1d = std::min(h.l1d, t.host.l1d);
    h.l2 = std::min(h.l2, t.host.l2);
    h.l3 = std::min(h.l3, t.host.l3);
    h.hypervisor = h.hypervisor || t.host.hypervisor;
  }
  h.hosts = int64_t(runs.size());
  const CpuInfo &fleet = c.cpu = fleet_cpu(h);
  Chooser chooser(runs, fleet);

  // The tables, from the merged races of each size.
  std::map<std::string_view, std::vector<RacedSize>> at;
  std::map<std::string_view, std::map<uint64_t, double>> memset_speed;
  double min_gain = RaceOptions{}.min_gain;
  for (const RaceRecord *r : chooser.first_host({"reuse", "stream", "batch"})) {
    std::string text;
    std::optional<RacedSize> rs = chooser.merged(chooser.source(r->race.name), &text);
    if (!rs) { // memset's size: a race of memset alone
      c.notes.push_back(r->race.name + ": not raced on every host in a state all measured: memset");
      rs = incumbent_only(*r);
    } else {
      c.races.push_back(text);
    }
    min_gain = r->race.min_gain;
    if (std::optional<RacedSize> own = chooser.merged(r->race.name))
      memset_speed[r->decides][r->size] = own->gbps[r->race.incumbent];
    at[r->decides].push_back(*rs);
    if (r->decides == "stream" && r->size >= kBatchBytes) at["batch"].push_back(std::move(*rs));
  }
  for (const std::string &name : chooser.not_on_the_first_host())
    c.notes.push_back(name + ": raced on another host but not on " + runs[0].name + ": left out");
  Profile &p = c.profile;
  p.reuse = table_from_races(at["reuse"], min_gain);
  p.stream = table_from_races(at["stream"], min_gain);
  p.batch = table_from_races(at["batch"], min_gain);
  if (p.reuse.empty())
    return Result<FleetChoice>::fail("no size of the reuse table was raced in the files (" +
                                     runs[0].name + " has no reuse race)");
  // Where non-temporal stores won, from the tables before the repairs, as the tuner says it.
  c.nontemporal_reuse = nontemporal_from(p.reuse);
  c.nontemporal_stream = nontemporal_from(p.stream);
  // A loss the verification found on any host is repaired where the choice runs that kernel.
  for (const RawTune &t : runs)
    for (const MemsetRepair &m : t.memset_repairs) {
      std::vector<SizeClass> &table = m.intent == Intent::reuse ? p.reuse : p.stream;
      table = to_memset(table, m);
    }
  for (Intent i : kIntents) {
    uint64_t lower = 0;
    for (SizeClass &k : i == Intent::reuse ? p.reuse : p.stream) {
      if (k.kernel.method == Method::libc)
        k.gbps = memset_over_class(memset_speed[intent_name(i)], lower, k.below);
      lower = k.below;
    }
  }

  // The small paths: the hosts' own where they agree (at the smallest max), else the strategy
  // with the best worst-host score of every host's ranking, at the smallest max tuned.
  for (Intent i : kIntents) {
    std::optional<SmallPath> &small = i == Intent::reuse ? p.small_reuse : p.small_stream;
    small = runs[0].small.at(i);
    for (const RawTune &t : runs)
      if (t.small.at(i).strategy != small->strategy) {
        small.reset();
        break;
      } else {
        small->max = std::min(small->max, t.small.at(i).max);
      }
    if (small && small_unsupported_reason(small->strategy, fleet).empty()) continue;
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
        ": the hosts chose different strategies, or one the features every host has do not run; " +
        (small ? std::string(info(small->strategy).name) + ", the best worst-host "
                                                           "score, up to 256 B"
               : "none ranked on every host: the CPU's default"));
  }

  // The thread counts, where every host raced them.
  std::vector<const RaceRecord *> parallel = chooser.first_host({"parallel"});
  for (const RaceRecord *r : parallel) {
    std::string text;
    std::optional<RacedSize> rs = chooser.merged(r->race.name, &text);
    if (!rs) {
      c.notes.push_back(r->race.name + ": not raced on every host: one thread");
      rs = incumbent_only(*r);
    } else {
      c.races.push_back(text);
    }
    add_parallel_size(r->intent == Intent::reuse ? p.parallel_reuse : p.parallel_stream, r->size,
                      rs->outcome);
  }
  if (!parallel.empty()) {
    p.parallel_cpus = kMaxThreads;
    for (const RawTune &t : runs)
      p.parallel_cpus = std::min(p.parallel_cpus, t.cpus);
  }

  // The no-allocate step: where every host found one within an octave of each other, the
  // largest (each host's had it from there); else none.
  std::vector<uint64_t> steps;
  for (const RawTune &t : runs)
    if (t.stosb_no_allocate.size) steps.push_back(*t.stosb_no_allocate.size);
  if (runs.size() == 1) {
    c.stosb_no_allocate = runs[0].stosb_no_allocate;
  } else if (steps.size() < runs.size()) {
    c.stosb_no_allocate.reason = std::to_string(runs.size() - steps.size()) + " of " +
                                 std::to_string(runs.size()) + " hosts found none";
  } else {
    const auto [lo, hi] = std::minmax_element(steps.begin(), steps.end());
    if (*hi <= 2 * *lo) {
      c.stosb_no_allocate.size = *hi;
      c.stosb_no_allocate.reason = "every host found it, at " + human_bytes(*lo) + " .. " +
                                   human_bytes(*hi) + ": the largest";
    } else {
      c.stosb_no_allocate.reason =
          "the hosts disagree by more than an octave: " + human_bytes(*lo) + " .. " +
          human_bytes(*hi);
    }
  }
  if (std::string missing = missing_features(p, fleet); !missing.empty())
    return Result<FleetChoice>::fail("the files disagree with their hosts' features: the choice " +
                                     missing);
  return {std::move(c), {}};
}

std::string fleet_toml(const FleetChoice &c) {
  std::ostringstream t;
  t << "\n[tuning]\ntool = \"clearjit " CLEARJIT_VERSION " choose\"\nfiles = [";
  for (size_t k = 0; k < c.files.size(); ++k)
    t << (k ? ", " : "") << toml_string(c.files[k]);
  t << "]\n";
  for (const std::string &n : c.notes)
    t << "# " << n << "\n";
  t << "\n[findings]\n";
  if (c.stosb_no_allocate.size) t << "stosb_no_allocate = " << *c.stosb_no_allocate.size << "\n";
  t << "stosb_no_allocate_note = " << toml_string(c.stosb_no_allocate.reason) << "\n";
  if (c.nontemporal_reuse) t << "nontemporal_reuse = " << *c.nontemporal_reuse << "\n";
  if (c.nontemporal_stream) t << "nontemporal_stream = " << *c.nontemporal_stream << "\n";
  return format_profile(c.profile, {"# Written by `clearjit choose`; sizes are bytes.\n", t.str()});
}

} // namespace cjit::detail
