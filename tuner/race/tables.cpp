#include "tuner/race/tables.hpp"

#include "jit/model/size.hpp"
#include "jit/profile/profile.hpp"
#include "tuner/text/format.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

namespace cjit::detail {
int kernel_complexity(const Spec &s) {
  int penalty = s.info().nontemporal ? 1000 : 0;
  CpuInfo all;
  all.features.fill(true);
  auto code = compile_kernel(s, all);
  if (!code) return penalty + 999;
  const std::string &l = code.value.value()->listing;
  int lines = 0;
  for (char c : l)
    lines += c == '\n';
  return penalty + lines;
}

std::map<uint64_t, std::map<Candidate, double>> pooled_medians(const std::vector<Measurement> &ms,
                                                               Intent intent) {
  std::map<uint64_t, std::map<Candidate, std::vector<double>>> samples;
  for (const Measurement &m : ms)
    if (m.intent == intent) {
      std::vector<double> &v = samples[m.size][m.candidate];
      v.insert(v.end(), m.samples.begin(), m.samples.end());
    }
  std::map<uint64_t, std::map<Candidate, double>> out;
  for (auto &[size, by_candidate] : samples)
    for (auto &[candidate, v] : by_candidate)
      if (!v.empty()) out[size][candidate] = median(v);
  return out;
}

std::map<uint64_t, double> pooled_gbps(const std::vector<Measurement> &ms, Intent intent,
                                       const Candidate &c) {
  std::map<uint64_t, double> out;
  for (const auto &[size, by_candidate] : pooled_medians(ms, intent))
    if (auto it = by_candidate.find(c); it != by_candidate.end()) out[size] = it->second;
  return out;
}

uint64_t round_boundary(double bytes) {
  uint64_t unit = bytes < 65536 ? 64 : 4096;
  return std::max<uint64_t>(unit, uint64_t(std::llround(bytes / double(unit))) * unit);
}

namespace {

// Between two measured sizes a < b: their geometric middle, rounded, where that still parts
// them; else b.
uint64_t boundary_between(uint64_t a, uint64_t b) {
  const uint64_t middle = round_boundary(std::sqrt(double(a) * double(b)));
  return middle > a && middle <= b ? middle : b;
}

} // namespace

std::vector<SizeClass> dispatch_table(const std::vector<Winner> &ws) {
  std::vector<SizeClass> out;
  std::vector<double> gbps; // of the current class's points
  auto close = [&](uint64_t below) {
    out.back().gbps = std::round(geomean(gbps) * 10) / 10;
    out.back().below = below;
    gbps.clear();
  };
  for (size_t i = 0; i < ws.size(); ++i) {
    if (i == 0 || ws[i].candidate != ws[i - 1].candidate) {
      if (i > 0) close(boundary_between(ws[i - 1].size, ws[i].size));
      // Tables are chosen from kernels' measurements: anything else is a bug.
      const Spec *kernel = ws[i].candidate.kernel();
      if (!kernel)
        throw std::invalid_argument("dispatch_table: not a kernel: " + ws[i].candidate.name());
      out.push_back({0, *kernel, 0});
    }
    gbps.push_back(ws[i].gbps);
  }
  if (!out.empty()) close(0);
  return out;
}

NoAllocate find_no_allocate(const std::vector<Measurement> &stosb,
                            const std::vector<Measurement> &temporal, double step_ratio) {
  std::map<uint64_t, std::vector<double>> s, t;
  for (const Measurement &m : stosb)
    s[m.size].insert(s[m.size].end(), m.samples.begin(), m.samples.end());
  for (const Measurement &m : temporal)
    t[m.size].insert(t[m.size].end(), m.samples.begin(), m.samples.end());
  std::vector<std::pair<uint64_t, double>> ratio;
  for (auto &[size, v] : s)
    if (t.count(size) && median(t[size]) > 0) ratio.push_back({size, median(v) / median(t[size])});
  NoAllocate out;
  if (ratio.size() < 3) {
    out.reason = "too few sizes measured to find a step";
    return out;
  }
  // Median of each point and its neighbours, so one outlier neither makes nor hides a step.
  std::vector<double> smooth(ratio.size());
  for (size_t i = 0; i < ratio.size(); ++i) {
    std::vector<double> w{ratio[i].second};
    if (i > 0) w.push_back(ratio[i - 1].second);
    if (i + 1 < ratio.size()) w.push_back(ratio[i + 1].second);
    smooth[i] = median(w);
  }
  // A step, not a level: rep stosb may be ahead of temporal stores everywhere (no read for
  // ownership on some CPUs); the no-allocate step multiplies that lead once more.
  const double threshold = std::max(step_ratio, kStepOverLead * smooth[0]);
  size_t step = ratio.size();
  while (step > 0 && smooth[step - 1] >= threshold)
    --step;
  auto [best_size, best] = *std::max_element(ratio.begin(), ratio.end(),
                                             [](auto &a, auto &b) { return a.second < b.second; });
  if (step == ratio.size()) {
    char buf[300];
    std::snprintf(
        buf, sizeof buf,
        "rep stosb never stayed %.2fx faster than temporal stores (%.1fx its lead of %.2fx at %llu "
        "bytes) up to %llu bytes; best ratio %.2fx at %llu bytes",
        threshold, kStepOverLead, smooth[0], (unsigned long long)ratio.front().first,
        (unsigned long long)ratio.back().first, best, (unsigned long long)best_size);
    out.reason = buf;
    return out;
  }
  // The raw point may sit just past the step with a low neighbour: take the first raw point at
  // or after the smoothed step whose own ratio is high.
  while (step < ratio.size() && ratio[step].second < threshold)
    ++step;
  if (step == ratio.size()) {
    out.reason = "no measured size past the step was itself above the ratio";
    return out;
  }
  std::vector<double> below, above;
  for (size_t i = 0; i < ratio.size(); ++i)
    (i < step ? below : above).push_back(ratio[i].second);
  out.size = ratio[step].first;
  out.ratio_below = median(below);
  out.ratio_above = median(above);
  char buf[200];
  std::snprintf(buf, sizeof buf, "rep stosb / temporal stores: %.2fx below, %.2fx from here on",
                out.ratio_below, out.ratio_above);
  out.reason = buf;
  return out;
}

std::optional<uint64_t> nontemporal_from(const std::vector<SizeClass> &table) {
  std::optional<uint64_t> from;
  uint64_t lower = 0;
  for (const SizeClass &c : table) {
    if (c.kernel.info().nontemporal) {
      if (!from) from = lower;
    } else {
      from.reset();
    }
    lower = c.below;
  }
  return from;
}

std::vector<NontemporalRun> nontemporal_runs(const std::vector<SizeClass> &table,
                                             std::optional<uint64_t> step) {
  std::vector<NontemporalRun> out;
  uint64_t lower = 0;
  bool open = false; // the last class was in the last run
  for (const SizeClass &c : table) {
    // Past the step one rep stosb stops allocating: a stosb class, or memset's standing in so.
    const bool stand_in_stosb = c.stand_in && c.stand_in->method == Method::stosb;
    const bool past_step =
        step && lower >= *step &&
        (c.kernel.method == Method::stosb || (c.kernel.method == Method::libc && stand_in_stosb));
    if (c.kernel.info().nontemporal || past_step) {
      if (!open) out.push_back({lower, 0, {}});
      out.back().below = c.below;
      out.back().kernels.push_back(
          format_spec(c.kernel) +
          (past_step && c.stand_in ? ", stand-in " + format_spec(*c.stand_in) : ""));
      open = true;
    } else {
      open = false;
    }
    lower = c.below;
  }
  return out;
}

std::string nontemporal_text(const std::vector<NontemporalRun> &runs) {
  std::string t;
  for (const NontemporalRun &r : runs) {
    std::string kernels;
    for (const std::string &k : r.kernels)
      kernels += (kernels.empty() ? "" : "; ") + k;
    t += (t.empty() ? "" : ", ") + class_range(r.lower, r.below) + " (" + kernels + ")";
  }
  return t.empty() ? "never wins" : t;
}

std::string nontemporal_toml(const std::string &key, const std::vector<NontemporalRun> &runs) {
  if (runs.empty()) return "";
  std::string t = key + " = [";
  for (const NontemporalRun &r : runs) {
    t += std::string(&r == &runs.front() ? "" : ", ") + "{ from = " + std::to_string(r.lower);
    if (r.below) t += ", below = " + std::to_string(r.below);
    t += ", kernels = [";
    for (const std::string &k : r.kernels)
      t += std::string(&k == &r.kernels.front() ? "" : ", ") + toml_string(k);
    t += "] }";
  }
  return t + "]\n";
}

std::optional<uint64_t> smallest_good_chunk(const std::map<uint64_t, double> &gbps,
                                            double fraction) {
  auto whole = gbps.find(0);
  if (whole == gbps.end() || whole->second <= 0) return std::nullopt;
  for (const auto &[chunk, g] : gbps) // ascending; chunk 0 comes first and is skipped
    if (chunk && g >= fraction * whole->second) return chunk;
  return 0;
}

std::string class_range(uint64_t lower, uint64_t below) {
  return human_bytes(lower) + " .. " + (below ? human_bytes(below) : std::string("up"));
}

double memset_over_class(const std::map<uint64_t, double> &memset, uint64_t lower, uint64_t below) {
  std::vector<double> inside;
  for (auto &[size, gbps] : memset)
    if (size >= lower && (!below || size < below) && gbps > 0) inside.push_back(gbps);
  return geomean(inside);
}

} // namespace cjit::detail

namespace cjit::detail {

void stand_in_past_step(std::initializer_list<std::vector<SizeClass> *> tables,
                        std::optional<uint64_t> step) {
  if (step)
    for (std::vector<SizeClass> *table : tables)
      stand_in_past_step(*table, *step);
}

void stand_in_past_step(std::vector<SizeClass> &table, uint64_t step) {
  const Spec stosb = *parse_spec("stosb");
  uint64_t lower = 0;
  for (size_t k = 0; k < table.size(); ++k) {
    SizeClass &c = table[k];
    const bool memset = c.kernel.method == Method::libc;
    if (memset && lower < step && (!c.below || c.below > step) && table.size() < kMaxClasses) {
      // Across the step: memset below it, with its stand-in; memset from it up, with stosb.
      SizeClass from_step = c;
      c.below = step;
      from_step.stand_in = stosb;
      table.insert(table.begin() + ptrdiff_t(k) + 1, from_step);
    } else if (memset && lower >= step) {
      c.stand_in = stosb;
    }
    lower = table[k].below;
  }
  // A memset class past the step beside one that already had stosb: one class.
  std::vector<SizeClass> merged;
  for (const SizeClass &c : table)
    append_class(merged, c);
  table = std::move(merged);
}

bool decided_alone(std::string_view table, uint64_t size) {
  if (table == "batch" && size == kSubpageBytes) return true;
  return (table == "stream" || table == "batch") &&
         std::find(std::begin(kHugePages), std::end(kHugePages), size) != std::end(kHugePages);
}

std::vector<SizeClass> table_from_races(std::vector<RacedSize> at, double min_gain) {
  std::sort(at.begin(), at.end(),
            [](const RacedSize &a, const RacedSize &b) { return a.size < b.size; });
  // The last class serves every size above the largest raced: it takes the kernel that won there.
  if (!at.empty() && !at.back().outcome.winner.is_memset()) at.back().alone = true;
  auto eligible = [&](size_t i, const Candidate &c) {
    const std::vector<Standing> &field = at[i].outcome.field;
    double best = 0;
    for (const Standing &st : field)
      if (st.beats) best = std::max(best, st.score.median);
    for (const Standing &st : field)
      if (st.candidate == c) return st.beats && st.score.median >= (1 - kJoinBand) * best;
    return false;
  };
  auto beaten = [&](size_t k) {
    const std::vector<Standing> &f = at[k].outcome.field;
    return std::any_of(f.begin(), f.end(), [](const Standing &st) { return st.beats; });
  };
  // Whether `c` may serve size k: memset where no candidate beats it; a size alone, its winner.
  auto serves = [&](size_t k, const Candidate &c) {
    if (at[k].alone) return c == at[k].outcome.winner;
    return c.is_memset() ? !beaten(k) : eligible(k, c);
  };
  std::vector<Winner> ws;
  Candidate previous = memset_candidate();
  for (size_t i = 0; i < at.size();) {
    const RaceOutcome &o = at[i].outcome;
    Candidate best = memset_candidate();
    size_t best_run = 0;
    std::vector<Candidate> order{previous, o.winner, memset_candidate()};
    for (const Standing &st : o.field)
      order.push_back(st.candidate);
    for (const Candidate &c : order) {
      if (!serves(i, c)) continue;
      size_t run = 1;
      while (i + run < at.size() && serves(i + run, c))
        ++run;
      if (run > best_run) best = c, best_run = run;
    }
    best_run = std::max<size_t>(best_run, 1);
    for (size_t k = i; k < i + best_run; ++k) {
      auto g = at[k].gbps.find(best);
      ws.push_back({at[k].size, best, g == at[k].gbps.end() ? 0 : g->second});
    }
    previous = best;
    i += best_run;
  }
  std::vector<SizeClass> classes = dispatch_table(ws);
  // Each class's bound over memset: the smallest of its sizes', in the states all of them held.
  uint64_t lower = 0;
  for (SizeClass &c : classes) {
    if (c.kernel.method == Method::libc) {
      lower = c.below;
      continue;
    }
    bool first = true;
    for (const RacedSize &rs : at) {
      if (rs.size < lower || (c.below && rs.size >= c.below)) continue;
      for (const Standing &st : rs.outcome.field) {
        if (!(st.candidate == Candidate(c.kernel))) continue;
        std::vector<std::string> held;
        for (size_t k = 0; k < st.states.size() && k < rs.patterns.size(); ++k)
          if (st.states[k].bounded && st.states[k].lower > min_gain)
            held.push_back(std::string(pattern_name(rs.patterns[k])));
        if (first) c.gain = st.score.lower, c.states = held;
        c.gain = std::min(c.gain, st.score.lower);
        std::erase_if(c.states, [&](const std::string &s) {
          return std::find(held.begin(), held.end(), s) == held.end();
        });
        first = false;
      }
    }
    lower = c.below;
  }
  return classes;
}

} // namespace cjit::detail
