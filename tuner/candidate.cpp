#include "candidate.hpp"

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
  return std::string(info(p.strategy).name) + ":" + std::to_string(p.max);
}

Candidate memset_candidate() { return default_spec(Method::libc); }

} // namespace cjit::detail
