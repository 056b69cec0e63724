// Test helper: a Candidate from the text it prints as ("avx2:unroll=4", "small:masked:256",
// "tuned"), for synthetic measurements.
#pragma once

#include "candidate.hpp"

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
  return Candidate::labelled(std::string(text));
}

} // namespace cjit::detail
