#include "choose.hpp"

#include "format.hpp"
#include "pool.hpp"
#include "size.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

namespace cjit::detail {
namespace {

// A candidate's pooled speed at one size.
struct Contender {
  Candidate candidate;
  double gbps, cv;
};

// Pools repeated measurements of one (candidate, size) and groups them by size.
std::map<uint64_t, std::vector<Contender>> by_size(const std::vector<Measurement> &ms,
                                                   Intent intent) {
  std::map<std::pair<uint64_t, Candidate>, Measurement> pooled;
  for (const Measurement &m : ms) {
    if (m.intent != intent || m.samples.empty()) continue;
    Measurement &p = pooled[{m.size, m.candidate}];
    p.candidate = m.candidate;
    p.size = m.size;
    p.samples.insert(p.samples.end(), m.samples.begin(), m.samples.end());
  }
  std::map<uint64_t, std::vector<Contender>> out;
  for (auto &[key, m] : pooled) {
    summarize(m);
    out[key.first].push_back({m.candidate, m.gbps, m.cv});
  }
  return out;
}

const Contender *find(const std::vector<Contender> &cs, const Candidate &c) {
  for (const Contender &x : cs)
    if (x.candidate == c) return &x;
  return nullptr;
}

int complexity_of(const ComplexityMap &cm, const Candidate &c) {
  auto it = cm.find(c);
  return it == cm.end() ? 1 << 20 : it->second;
}

// A kernel's family ("string", "temporal", "nontemporal"); anything else is a family of its own.
std::string family_of(const Candidate &c) {
  return c.kernel() ? std::string(c.kernel()->info().family) : c.name();
}

} // namespace

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

std::vector<Winner> winners(const std::vector<Measurement> &ms, Intent intent,
                            const ComplexityMap &complexity, const ChooseOptions &o) {
  auto sizes = by_size(ms, intent);
  // Per size: the kernels measured there and those tied with the best (within the noise band).
  struct Point {
    uint64_t size;
    const std::vector<Contender> *cs;
    std::set<Candidate> tied, measured;
  };
  std::vector<Point> points;
  for (const auto &[size, cs] : sizes) {
    const Contender &best =
        *std::max_element(cs.begin(), cs.end(),
                          [](const Contender &a, const Contender &b) { return a.gbps < b.gbps; });
    Point p{size, &cs, {}, {}};
    for (const Contender &c : cs) {
      double band = std::min(o.max_band, std::max(o.noise_floor, 2 * std::max(best.cv, c.cv)));
      p.measured.insert(c.candidate);
      if (c.gbps >= best.gbps * (1 - band)) p.tied.insert(c.candidate);
    }
    points.push_back(std::move(p));
  }

  // Greedy classes: from each size, the longest run of sizes that one kernel serves, tied with
  // the best at every size of the run. A partial size (a bisection, which measured the two
  // neighbouring winners and memset only) neither ends a run nor admits a kernel it did not
  // measure. Fewest classes, and near-equal kernels do not flip classes with the noise. Within
  // a run: the previous class's family first (string, temporal, non-temporal), then the simplest.
  auto partial = [&](const Point &p) { return o.partial.count(p.size) > 0; };
  std::vector<Winner> out;
  std::vector<const std::vector<Contender> *> at;
  std::string prev_family;
  for (size_t i = 0; i < points.size();) {
    std::set<Candidate> alive = points[i].tied;
    size_t j = i + 1;
    for (; j < points.size(); ++j) {
      std::set<Candidate> next;
      for (const Candidate &s : alive)
        if (points[j].tied.count(s) || (partial(points[j]) && !points[j].measured.count(s)))
          next.insert(s);
      if (next.empty()) break;
      alive = std::move(next);
    }
    std::optional<Candidate> pick;
    auto better = [&](const Candidate &s) {
      if (!pick) return true;
      bool sf = family_of(s) == prev_family, pf = family_of(*pick) == prev_family;
      if (sf != pf) return sf;
      int sc = complexity_of(complexity, s), pc = complexity_of(complexity, *pick);
      if (sc != pc) return sc < pc;
      return find(*points[i].cs, s)->gbps > find(*points[i].cs, *pick)->gbps;
    };
    for (const Candidate &s : alive)
      if (better(s)) pick = s;
    for (size_t k = i; k < j; ++k) {
      // Where the pick was not measured (a bisection), the best measured speed stands in.
      const Contender *c = find(*points[k].cs, *pick);
      double gbps = c ? c->gbps : 0;
      if (!c)
        for (const Contender &x : *points[k].cs)
          gbps = std::max(gbps, x.gbps);
      out.push_back({points[k].size, *pick, gbps});
      at.push_back(points[k].cs);
    }
    prev_family = family_of(*pick);
    i = j;
  }
  // A lone winner between two sizes won by the same kernel, which is close to it here too, is
  // noise: one outlier must not move a boundary.
  // memset itself is never smoothed or joined away: ties already go to it.
  for (size_t i = 1; i + 1 < out.size(); ++i) {
    const Candidate around = out[i - 1].candidate;
    if (out[i].candidate == around || out[i + 1].candidate != around ||
        out[i].candidate.is_memset())
      continue;
    if (const Contender *c = find(*at[i], around);
        c && c->gbps >= out[i].gbps * (1 - o.outlier_band))
      out[i] = {out[i].size, around, c->gbps};
  }
  // A run whose kernel is of the same family as the run before (else after) it joins that run
  // when the neighbour's kernel is within outlier_band of it at every size of the run:
  // near-equal kernels of one family (ntavx512 and clzero, unroll=2 and unroll=4) make one
  // class, not several that alternate with the noise. Repeated until nothing joins; measured
  // against the best at each size, so joins never add up to more than the band.
  std::vector<double> best(out.size());
  for (size_t k = 0; k < out.size(); ++k)
    for (const Contender &c : *at[k])
      best[k] = std::max(best[k], c.gbps);
  auto serves = [&](const Candidate &candidate, size_t from, size_t to) {
    for (size_t k = from; k < to; ++k) {
      const Contender *c = find(*at[k], candidate);
      if (!c || c->gbps < best[k] * (1 - o.outlier_band)) return false;
    }
    return true;
  };
  for (bool joined = true; joined;) {
    joined = false;
    for (size_t i = 0; i < out.size();) {
      size_t j = i;
      while (j < out.size() && out[j].candidate == out[i].candidate)
        ++j;
      std::optional<Candidate> into;
      for (size_t n : {i, j}) { // the run before, then the run after
        if (into || out[i].candidate.is_memset() || (n == i && i == 0) ||
            (n == j && j == out.size()))
          continue;
        const Candidate &next = out[n == i ? i - 1 : j].candidate;
        if (family_of(next) == family_of(out[i].candidate) && serves(next, i, j)) into = next;
      }
      for (size_t k = i; into && k < j; ++k)
        out[k] = {out[k].size, *into, find(*at[k], *into)->gbps};
      joined |= into.has_value();
      i = j;
    }
  }
  return out;
}

std::vector<Measurement> robust_measurements(const std::vector<Measurement> &scattered,
                                             const std::vector<Measurement> &consecutive,
                                             const std::vector<Measurement> &cached,
                                             const ChooseOptions &o) {
  auto pool = [](const std::vector<Measurement> &ms) {
    std::map<std::pair<uint64_t, Candidate>, Measurement> out;
    for (const Measurement &m : ms)
      pool_into(out[{m.size, m.candidate}], m);
    for (auto &[key, m] : out)
      summarize(m);
    return out;
  };
  const auto s = pool(scattered), c = pool(consecutive), w = pool(cached);
  auto sizes_of = [](const auto &pooled) {
    std::set<uint64_t> out;
    for (const auto &[key, m] : pooled)
      out.insert(key.first);
    return out;
  };
  const std::set<uint64_t> consecutive_sizes = sizes_of(c), cached_sizes = sizes_of(w);
  const Candidate memset = memset_candidate();
  auto loses_to_memset = [&](const Measurement &k, const auto &pattern) {
    auto libc = pattern.find({k.size, memset});
    if (libc == pattern.end() || k.candidate == memset) return false;
    return k.gbps < libc->second.gbps * (1 - o.memset_floor);
  };
  // Kept as measured but never tied (0 GB/s): a size where it was left out must end its runs,
  // not look like a partly measured size that it may cross.
  auto out_of_play = [](Measurement m) {
    m.samples = {0.0};
    summarize(m);
    return m;
  };
  std::map<std::pair<uint64_t, Candidate>, Measurement> cold;
  for (const auto &[key, a] : s) {
    if (!consecutive_sizes.count(key.first)) { // a size without consecutive measurements
      cold[key] = a;
      continue;
    }
    auto b = c.find(key);
    if (b == c.end() || loses_to_memset(a, s) || loses_to_memset(b->second, c)) {
      cold[key] = out_of_play(a);
      continue;
    }
    Measurement m = a;
    m.samples.clear();
    for (double x : a.samples)
      for (double y : b->second.samples)
        m.samples.push_back(std::sqrt(x * y));
    summarize(m);
    cold[key] = std::move(m);
  }
  // The cached veto: cold and cached calls taken as equally likely, a kernel whose two calls
  // take longer than memset's two (beyond memset_floor) is out, whatever it gains cold.
  auto both_ns = [](const Measurement &cold_one, const Measurement &cached_one) {
    return double(cold_one.size) / cold_one.gbps + double(cached_one.size) / cached_one.gbps;
  };
  std::vector<Measurement> out;
  for (const auto &[key, m] : cold) { // copies: memset's entry is read at every size
    if (!cached_sizes.count(key.first) || m.candidate == memset || m.gbps <= 0) {
      out.push_back(m);
      continue;
    }
    auto k = w.find(key), libc = w.find({key.first, memset});
    auto libc_cold = cold.find({key.first, memset});
    if (libc == w.end() || libc_cold == cold.end() || libc->second.gbps <= 0 ||
        libc_cold->second.gbps <= 0) { // nothing to compare with: the cold choice stands
      out.push_back(m);
      continue;
    }
    const bool vetoed =
        k == w.end() || k->second.gbps <= 0 ||
        both_ns(m, k->second) > both_ns(libc_cold->second, libc->second) * (1 + o.memset_floor);
    out.push_back(vetoed ? out_of_play(m) : m);
  }
  return out;
}

std::vector<Measurement> chosen_from(const std::vector<Measurement> &scattered,
                                     const std::vector<Measurement> &consecutive,
                                     const std::vector<Measurement> &cached) {
  return consecutive.empty() && cached.empty()
             ? scattered
             : robust_measurements(scattered, consecutive, cached);
}

std::vector<std::string>
disagreements(std::string_view table, Intent intent, const std::vector<uint64_t> &grid,
              const std::vector<Measurement> &scattered,
              const std::vector<Measurement> &consecutive, const std::vector<Measurement> &cached,
              const std::vector<SizeClass> &chosen, const ComplexityMap &complexity,
              const ChooseOptions &options) {
  if (consecutive.empty() && cached.empty()) return {};
  const auto s = pooled_medians(scattered, intent), c = pooled_medians(consecutive, intent),
             in_cache = pooled_medians(cached, intent);
  const Candidate memset = memset_candidate();
  auto vs_memset = [&](const std::map<Candidate, double> &at, const Candidate &c) {
    auto k = at.find(c), m = at.find(memset);
    return k == at.end() || m == at.end() || m->second <= 0 ? 0.0 : k->second / m->second;
  };
  // Against memset in one pattern at one size (0: not measured there).
  auto in = [&](const auto &pattern, uint64_t size, const Candidate &c) {
    auto at = pattern.find(size);
    return at == pattern.end() ? 0.0 : vs_memset(at->second, c);
  };
  auto shown = [](double x) { return x > 0 ? fmt("%.2fx", x) : std::string("not measured"); };
  // ", 0.05x cached" where the size was measured cached (the veto's evidence)
  auto cached_part = [&](uint64_t size, const Candidate &c) {
    return in_cache.count(size) ? ", " + shown(in(in_cache, size, c)) + " cached" : std::string();
  };
  struct Line {
    uint64_t first, last;
    Candidate alone, pick;
    std::string text;
  };
  std::vector<Line> lines;
  for (const Winner &w : winners(scattered, intent, complexity, options)) {
    if (!std::binary_search(grid.begin(), grid.end(), w.size) ||
        (!c.count(w.size) && !in_cache.count(w.size)))
      continue;
    const Candidate pick = class_for(chosen, w.size).kernel, &alone = w.candidate;
    const double alone_c = in(c, w.size, alone);
    if (pick == alone ||
        (family_of(pick) == family_of(alone) && !(alone_c > 0 && alone_c < kConsecutiveFloor)))
      continue;
    if (!lines.empty() && lines.back().alone == alone && lines.back().pick == pick) {
      lines.back().last = w.size;
      continue;
    }
    lines.push_back({w.size, w.size, alone, pick,
                     "scattered alone picks " + alone.name() + " (" + shown(in(s, w.size, alone)) +
                         " memset scattered, " + shown(alone_c) + " consecutive" +
                         cached_part(w.size, alone) + "); chosen " + pick.name() + " (" +
                         shown(in(s, w.size, pick)) + ", " + shown(in(c, w.size, pick)) +
                         cached_part(w.size, pick) + ")"});
  }
  std::vector<std::string> out;
  for (const Line &l : lines)
    out.push_back(std::string(table) + " " + human_bytes(l.first) +
                  (l.last != l.first
                       ? " .. " + human_bytes(l.last) + " (quoted at " + human_bytes(l.first) + ")"
                       : std::string()) +
                  ": " + l.text);
  return out;
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
      if (i > 0) close(round_boundary(std::sqrt(double(ws[i - 1].size) * double(ws[i].size))));
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

std::optional<ParallelTable> choose_parallel(const std::vector<Measurement> &ms, Intent intent) {
  std::map<uint64_t, std::map<unsigned, std::vector<double>>> samples; // size -> count -> GB/s
  for (const Measurement &m : ms)
    if (m.intent == intent && m.threads > 0) {
      std::vector<double> &pooled = samples[m.size][m.threads];
      pooled.insert(pooled.end(), m.samples.begin(), m.samples.end());
    }
  ParallelTable t;
  for (const auto &[size, by_count] : samples) {
    auto one = by_count.find(1);
    if (one == by_count.end()) continue;
    if (size < kFewestParallelBytes) { // one piece: every count is the single-thread call
      t.sizes.push_back(size);
      t.threads.push_back(1);
      t.speedup.push_back(1);
      continue;
    }
    const double single = median(one->second);
    if (single <= 0) continue;
    double best = 0;
    for (const auto &[count, g] : by_count)
      best = std::max(best, median(g));
    unsigned chosen = 1;
    double speed = single;
    if (best >= kParallelGain * single)
      for (const auto &[count, g] : by_count) // ascending: the fewest first
        if (const double m = median(g); m >= kParallelSaturated * best) {
          chosen = count;
          speed = m;
          break;
        }
    if (speed < kParallelGain * single) { // the saturating count gains too little alone
      chosen = 1;
      speed = single;
    }
    t.sizes.push_back(size);
    t.threads.push_back(chosen);
    t.speedup.push_back(std::round(speed / single * 100) / 100); // as the profile writes it
  }
  if (t.sizes.empty()) return std::nullopt;
  return t;
}

std::optional<ParallelTable> choose_parallel_confirmed(const std::vector<Measurement> &first,
                                                       const std::vector<Measurement> &second,
                                                       Intent intent) {
  std::vector<Measurement> both = first;
  both.insert(both.end(), second.begin(), second.end());
  std::optional<ParallelTable> t = choose_parallel(both, intent);
  const std::optional<ParallelTable> alone = choose_parallel(second, intent);
  if (!t) return t;
  for (size_t i = 0; i < t->sizes.size(); ++i) {
    if (t->threads[i] == 1) continue;
    bool agrees = false;
    for (size_t k = 0; alone && k < alone->sizes.size(); ++k)
      agrees |= alone->sizes[k] == t->sizes[i] && alone->threads[k] > 1;
    if (!agrees) {
      t->threads[i] = 1;
      t->speedup[i] = 1;
    }
  }
  return t;
}

} // namespace cjit::detail
