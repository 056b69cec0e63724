// What a job measures and what the choosers choose among, as one value: a kernel, a small path,
// or a label for what no chooser chooses (a dispatcher, a bench row).
#pragma once

#include "jit/model/small.hpp"
#include "jit/model/spec.hpp"

#include <compare>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace cjit::detail {

//! A thread count of clearjit_clear_parallel, as a race's candidate.
struct ThreadCount {
  unsigned threads = 0;
  auto operator<=>(const ThreadCount &) const = default;
};

//! A kernel's Spec (memset is the Spec of Method::libc), a small path (strategy and max), or a
//! label. name() is its text in every output: format_spec for a kernel, "small:masked:256" for a
//! small path, "clearjit_clear_parallel threads=2" for a thread count, the label itself. Candidates
//! order by name, then by value: every table, listing and tie-break keeps the order it had when
//! measurements were keyed by that text.
class Candidate {
public:
  Candidate() : Candidate(labelled("")) {}
  // Implicit: a kernel's Spec and a SmallPath are candidates as they are.
  Candidate(const Spec &kernel);
  Candidate(const SmallPath &small);
  Candidate(ThreadCount count);
  //! What measures neither a kernel nor a small path: "tuned", "parallel 1 thread".
  static Candidate labelled(std::string label);

  const Spec *kernel() const { return std::get_if<Spec>(&what_); }
  const SmallPath *small() const { return std::get_if<SmallPath>(&what_); }
  const ThreadCount *thread_count() const { return std::get_if<ThreadCount>(&what_); }
  bool is_memset() const { return kernel() && kernel()->method == Method::libc; }
  const std::string &name() const { return name_; }

  bool operator==(const Candidate &o) const { return what_ == o.what_; }
  std::strong_ordering operator<=>(const Candidate &o) const;

private:
  using What = std::variant<Spec, SmallPath, ThreadCount, std::string>;
  Candidate(What what, std::string name) : what_(std::move(what)), name_(std::move(name)) {}
  What what_;
  std::string name_; //!< derived from what_ once: maps compare it often
};

//! "masked:256": a small path as the small-path study's table heads its column; with bands
//! "libc<64,masked:256" (memset below 64 bytes).
std::string small_path_name(const SmallPath &p);

//! A thread count as a race's candidate, and back (0 when `c` is none).
Candidate parallel_label(unsigned threads);
unsigned threads_of(const Candidate &c);
//! The thread count a candidate's name says ("clearjit_clear_parallel threads=2", as the raw
//! file keeps it): 1..999, else none.
std::optional<Candidate> thread_count_named(std::string_view name);

//! memset, as measured beside every kernel: the method table's libc row at its defaults.
Candidate memset_candidate();

} // namespace cjit::detail

template <> struct std::hash<cjit::detail::Candidate> {
  size_t operator()(const cjit::detail::Candidate &c) const noexcept {
    return std::hash<std::string>()(c.name());
  }
};
