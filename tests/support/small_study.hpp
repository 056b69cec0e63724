// Test helpers for the small-path study's measurements (tuner/stages/smallpath.hpp): a
// strategy's warm stage 1 and a cold point, as the study records them.
#pragma once

#include "tests/support/candidate_text.hpp"
#include "tuner/stages/smallpath.hpp"

#include <map>
#include <string>
#include <vector>

namespace cjit::detail::test {

//! The small-path study's stage 1 for one strategy (or memset), warm (stream): `fixed_ns` per
//! call at every size of small_strategy_sizes() but those in `except`, `mix_ns` on both mixes.
inline void add_warm_study(std::vector<Measurement> &ms, const std::string &label, double fixed_ns,
                           double mix_ns, const std::map<uint64_t, double> &except = {},
                           Intent intent = Intent::stream) {
  auto add = [&](uint64_t size, Mix mix, double ns) {
    if (except.count(size)) ns = except.at(size);
    Measurement m{candidate(label), size, intent, {ns}, 0, ns, 0};
    m.warm = true;
    m.mix = mix;
    ms.push_back(m);
  };
  for (uint64_t size : small_strategy_sizes())
    add(size, Mix::fixed, fixed_ns);
  for (Mix mix : {Mix::log_uniform, Mix::objects})
    add(0, mix, mix_ns);
}

//! A cold clear of `size` bytes at `pattern` destinations taking `ns` per call: one round.
inline Measurement cold_point(const std::string &label, uint64_t size, double ns, Intent intent,
                              Pattern pattern = Pattern::consecutive) {
  Measurement m = point(label, size, double(size) / ns, intent);
  m.samples = {m.gbps}; // one round of the race: one sample
  m.pattern = pattern;
  return m;
}

//! Rounds of cold points: label -> ns in each round at one size and pattern.
inline void add_cold_rounds(std::vector<Measurement> &ms, uint64_t size,
                            const std::map<std::string, std::vector<double>> &rounds, Intent intent,
                            Pattern pattern = Pattern::consecutive) {
  for (const auto &[label, ns] : rounds)
    for (double t : ns)
      ms.push_back(cold_point(label, size, t, intent, pattern));
}

} // namespace cjit::detail::test
