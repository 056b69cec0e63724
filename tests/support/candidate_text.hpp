// Test helpers for synthetic measurements: a Candidate from the text it prints as ("avx2:unroll=4",
// "small:masked:256", "tuned"), and a measurement of one.
#pragma once

#include "tuner/measure/candidate.hpp"
#include "tuner/measure/measure.hpp"

#include <string>
#include <string_view>

namespace cjit::detail {

inline Candidate candidate(std::string_view text) {
  constexpr std::string_view kSmall = "small:";
  if (text.starts_with(kSmall)) {
    const std::string_view rest = text.substr(kSmall.size());
    const size_t colon = rest.find(':');
    if (auto s = small_by_name(rest.substr(0, colon)); s && colon != rest.npos)
      return SmallPath{*s, unsigned(std::stoul(std::string(rest.substr(colon + 1))))};
  }
  if (auto spec = parse_spec(text)) return *spec;
  if (auto threads = thread_count_named(text)) return *threads;
  return Candidate::labelled(std::string(text));
}

inline //! A measurement of `spec` with five samples spread by `spread` around `gbps`.
    Measurement
    point(const std::string &spec, uint64_t size, double gbps, Intent intent = Intent::stream,
          double spread = 0.0) {
  Measurement m{candidate(spec), size, intent, {}, 0, 0};
  for (double d : {-2.0, -1.0, 0.0, 1.0, 2.0})
    m.samples.push_back(gbps * (1 + d * spread / 2));
  summarize(m);
  return m;
}

} // namespace cjit::detail
