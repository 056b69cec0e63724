#include "smallpath.hpp"

#include "codegen.hpp"
#include "format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <sstream>

namespace cjit {
namespace {

constexpr Mix kMixes[] = {Mix::log_uniform, Mix::objects};

//! Geometric mean of ns per call of `label` over the given cases (repeated measurements of a
//! case are averaged first); 0 when any case is missing.
double score(const std::vector<Measurement> &ms, Intent intent, const std::string &label,
             const std::vector<uint64_t> &sizes, bool mixes) {
  std::set<uint64_t> fixed(sizes.begin(), sizes.end());
  std::map<std::pair<int, uint64_t>, std::pair<double, int>> cases; // log sum, count
  for (const Measurement &m : ms) {
    if (m.spec != label || m.intent != intent || !m.warm || m.ns <= 0) continue;
    if (m.mix == Mix::fixed ? !fixed.count(m.size) : !mixes) continue;
    auto &c = cases[{int(m.mix), m.size}];
    c.first += std::log(m.ns);
    c.second += 1;
  }
  if (cases.empty() || cases.size() != sizes.size() + (mixes ? std::size(kMixes) : 0)) return 0;
  double logs = 0;
  for (auto &[key, c] : cases)
    logs += c.first / c.second;
  return std::exp(logs / double(cases.size()));
}

std::string padded(const std::string &s, int width) {
  char b[128];
  std::snprintf(b, sizeof b, "%*s", width, s.c_str());
  return b;
}

} // namespace

std::string small_label(const SmallPath &p) {
  return "small:" + std::string(info(p.strategy).name) + ":" + std::to_string(p.max);
}

std::vector<uint64_t> small_strategy_sizes() {
  return {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 65, 96, 128, 160, 200, 256};
}

std::vector<uint64_t> small_max_sizes() { return {160, 256, 320, 384, 512, 640, 768, 1024}; }

SmallPath choose_small(const std::vector<Measurement> &ms, Intent intent, SmallPath fallback) {
  SmallPath best = fallback;
  double best_score = 0;
  for (const SmallInfo &s : small_strategies()) {
    double v = score(ms, intent, small_label({s.strategy, 256}), small_strategy_sizes(), true);
    if (v > 0 && (best_score == 0 || v < best_score)) best_score = v, best = {s.strategy, 256};
  }
  if (best_score == 0) return fallback;
  double best_max = 0;
  for (unsigned max : kSmallMaxes) {
    double v = score(ms, intent, small_label({best.strategy, max}), small_max_sizes(), false);
    if (v > 0 && (best_max == 0 || v < best_max)) best_max = v, best.max = max;
  }
  return best;
}

SmallStudy study_small(Bench &bench, const Profile &profile, const CpuInfo &cpu,
                       const MeasureOptions &options) {
  SmallStudy out;
  std::map<std::pair<Intent, SmallPath>, std::unique_ptr<GeneratedCode>> codes;
  auto dispatcher = [&](Intent i, SmallPath p) {
    auto &code = codes[{i, p}];
    if (!code) {
      auto g =
          generate([&](asmjit::x86::Assembler &a) { emit_dispatcher(a, profile.table(i), p, cpu); },
                   small_label(p));
      if (!g) throw std::runtime_error(small_label(p) + ": " + g.error);
      code = std::move(*g.value);
    }
    return code->fn;
  };
  auto add = [](std::vector<Job> &jobs, std::string label, Call call, Intent i, uint64_t size,
                Mix mix, ClearFn fn) { jobs.push_back(warm_job(label, call, i, size, mix, fn)); };

  // Stage 1: every strategy at max 256, with memset beside.
  std::vector<Job> jobs;
  for (Intent i : kIntents) {
    for (uint64_t size : small_strategy_sizes())
      add(jobs, "memset", Call::memset, i, size, Mix::fixed, nullptr);
    for (Mix mix : kMixes)
      add(jobs, "memset", Call::memset, i, 0, mix, nullptr);
    for (const SmallInfo &s : small_strategies()) {
      if (!small_unsupported_reason(s.strategy, cpu).empty()) continue;
      const SmallPath p{s.strategy, 256};
      for (uint64_t size : small_strategy_sizes())
        add(jobs, small_label(p), Call::kernel, i, size, Mix::fixed, dispatcher(i, p));
      for (Mix mix : kMixes)
        add(jobs, small_label(p), Call::kernel, i, 0, mix, dispatcher(i, p));
    }
  }
  MeasureOptions o = options;
  o.label = "small path: strategies";
  out.measurements = bench.run(jobs, o);
  SmallPath chosen[2] = {
      choose_small(out.measurements, Intent::reuse, default_small(cpu, Intent::reuse)),
      choose_small(out.measurements, Intent::stream, default_small(cpu, Intent::stream))};

  // Stage 2: the chosen strategy at every max, over sizes around and above 256.
  jobs.clear();
  for (Intent i : kIntents) {
    for (uint64_t size : small_max_sizes())
      add(jobs, "memset", Call::memset, i, size, Mix::fixed, nullptr);
    for (unsigned max : kSmallMaxes) {
      const SmallPath p{chosen[size_t(i)].strategy, max};
      for (uint64_t size : small_max_sizes())
        add(jobs, small_label(p), Call::kernel, i, size, Mix::fixed, dispatcher(i, p));
    }
  }
  o.label = "small path: limits";
  for (Measurement &m : bench.run(jobs, o))
    out.measurements.push_back(std::move(m));
  out.reuse = choose_small(out.measurements, Intent::reuse, chosen[0]);
  out.stream = choose_small(out.measurements, Intent::stream, chosen[1]);
  return out;
}

std::string small_study_text(const SmallStudy &s) {
  std::ostringstream t;
  for (Intent i : kIntents) {
    const SmallPath chosen = i == Intent::reuse ? s.reuse : s.stream;
    t << "\nsmall path, " << intent_name(i) << ": ns per call (warm), memset beside; chosen "
      << describe(chosen) << "\n";
    // Rows: cases; columns: labels in order of first appearance.
    std::vector<std::string> labels;
    std::map<std::pair<int, uint64_t>, std::map<std::string, double>> rows; // (mix, size)
    for (const Measurement &m : s.measurements) {
      if (m.intent != i) continue;
      if (std::find(labels.begin(), labels.end(), m.spec) == labels.end()) labels.push_back(m.spec);
      rows[{int(m.mix), m.size}][m.spec] = m.ns;
    }
    t << "  " << padded("size", -22);
    for (const std::string &l : labels)
      t << " " << padded(l.substr(l.rfind("small:", 0) == 0 ? 6 : 0), 17);
    t << "\n";
    for (auto &[key, row] : rows) {
      const std::string what = key.first == int(Mix::fixed) ? human_bytes(key.second)
                                                            : std::string(mix_name(Mix(key.first)));
      t << "  " << padded(what, -22);
      for (const std::string &l : labels)
        t << " " << (row.count(l) ? fmt("%17.2f", row[l]) : padded("-", 17));
      t << "\n";
    }
  }
  return t.str();
}

} // namespace cjit
