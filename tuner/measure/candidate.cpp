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

namespace {
constexpr std::string_view kThreadsPrefix = "clearjit_clear_parallel threads=";
} // namespace

Candidate::Candidate(ThreadCount count)
    : Candidate(count, std::string(kThreadsPrefix) + std::to_string(count.threads)) {}

Candidate parallel_label(unsigned threads) { return ThreadCount{threads}; }

unsigned threads_of(const Candidate &c) {
  const ThreadCount *t = c.thread_count();
  return t ? t->threads : 0;
}

std::optional<Candidate> thread_count_named(std::string_view name) {
  if (!name.starts_with(kThreadsPrefix) || name.size() == kThreadsPrefix.size() ||
      name.size() > kThreadsPrefix.size() + 3)
    return std::nullopt;
  unsigned t = 0;
  for (char ch : name.substr(kThreadsPrefix.size())) {
    if (ch < '0' || ch > '9') return std::nullopt;
    t = t * 10 + unsigned(ch - '0');
  }
  if (t == 0) return std::nullopt;
  return ThreadCount{t};
}

} // namespace cjit::detail
