// What a job measures and what the choosers choose among, as one value: a kernel, a small path,
// or a label for what no chooser chooses (a dispatcher, a bench row).
#pragma once

#include "jit/model/small.hpp"
#include "jit/model/spec.hpp"

#include <compare>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <variant>

namespace cjit::detail {

//! A kernel's Spec (memset is the Spec of Method::libc), a small path (strategy and max), or a
//! label. name() is its text in every output: format_spec for a kernel, "small:masked:256" for a
//! small path, the label itself. Candidates order by name, then by value: every table, listing
//! and tie-break keeps the order it had when measurements were keyed by that text.
class Candidate {
public:
  Candidate() : Candidate(labelled("")) {}
  // Implicit: a kernel's Spec and a SmallPath are candidates as they are.
  Candidate(const Spec &kernel);
  Candidate(const SmallPath &small);
  //! What measures neither a kernel nor a small path: "tuned", "parallel 1 thread".
  static Candidate labelled(std::string label);

  const Spec *kernel() const { return std::get_if<Spec>(&what_); }
  const SmallPath *small() const { return std::get_if<SmallPath>(&what_); }
  bool is_memset() const { return kernel() && kernel()->method == Method::libc; }
  const std::string &name() const { return name_; }

  bool operator==(const Candidate &o) const { return what_ == o.what_; }
  std::strong_ordering operator<=>(const Candidate &o) const;

private:
  Candidate(std::variant<Spec, SmallPath, std::string> what, std::string name)
      : what_(std::move(what)), name_(std::move(name)) {}
  std::variant<Spec, SmallPath, std::string> what_;
  std::string name_; //!< derived from what_ once: maps compare it often
};

//! "masked:256": a small path as the small-path study's table heads its column; with bands
//! "libc<64,masked:256" (memset below 64 bytes).
std::string small_path_name(const SmallPath &p);

//! A thread count as a race's candidate ("clearjit_clear_parallel threads=2"), and back (0 when
//! `c` is none).
Candidate parallel_label(unsigned threads);
unsigned threads_of(const Candidate &c);

//! memset, as measured beside every kernel: the method table's libc row at its defaults.
Candidate memset_candidate();

} // namespace cjit::detail

template <> struct std::hash<cjit::detail::Candidate> {
  size_t operator()(const cjit::detail::Candidate &c) const noexcept {
    return std::hash<std::string>()(c.name());
  }
};
