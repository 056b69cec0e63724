#include "tuner/measure/candidate.hpp"

namespace cjit::detail {

Candidate::Candidate(const Spec &kernel) : Candidate(kernel, format_spec(kernel)) {}

Candidate::Candidate(const SmallPath &small)
    : Candidate(small, "small:" + small_path_name(small)) {}

Candidate Candidate::labelled(std::string label) {
  std::string name = label;
  return Candidate(std::move(label), std::move(name));
}

std::strong_ordering Candidate::operator<=>(const Candidate &o) const {
  if (auto by_name = name_ <=> o.name_; by_name != 0) return by_name;
  return what_ <=> o.what_;
}

std::string small_path_name(const SmallPath &p) {
  std::string t;
  for (const SmallBand &b : p.bands)
    t += std::string(info(b.strategy).name) + "<" + std::to_string(b.below) + ",";
  return t + std::string(info(p.strategy).name) + ":" + std::to_string(p.max);
}

Candidate memset_candidate() { return default_spec(Method::libc); }

Candidate parallel_label(unsigned threads) {
  return Candidate::labelled("clearjit_clear_parallel threads=" + std::to_string(threads));
}

unsigned threads_of(const Candidate &c) {
  const std::string &n = c.name();
  const std::string_view prefix = "clearjit_clear_parallel threads=";
  if (!n.starts_with(prefix) || n.size() == prefix.size() || n.size() > prefix.size() + 3) return 0;
  unsigned t = 0;
  for (char ch : n.substr(prefix.size())) {
    if (ch < '0' || ch > '9') return 0;
    t = t * 10 + unsigned(ch - '0');
  }
  return t;
}

} // namespace cjit::detail
