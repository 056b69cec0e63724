// Tables: the size classes of one intent's table, which the profile stores, the dispatcher
// branches over and the tuner chooses.
#pragma once

#include "jit/model/intent.hpp"
#include "jit/model/spec.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cjit::detail {

constexpr Intent kIntents[] = {Intent::reuse, Intent::stream};
std::string_view intent_name(Intent i);

//! One size class: sizes from the previous class's `below` (or 0) up to `below` (exclusive);
//! the last class has below == 0 and is unbounded.
struct SizeClass {
  uint64_t below = 0;
  Spec kernel;
  double gbps = 0; //!< measured, informational
  //! The tuner's race, informational: the lower confidence bound of the kernel's speed over
  //! memset's (0: not raced, or memset itself) and the destination states where it held.
  double gain = 0;
  std::vector<std::string> states = {};
  //! On a memset (libc) class only: the generated kernel that serves it where the running C
  //! library is not the one the profile was tuned under, so the class means the same code
  //! under every C library (docs/design/profile-format.md, stand-ins).
  std::optional<Spec> stand_in = {};
  bool operator==(const SizeClass &) const = default;
};

//! The class of `table` that holds size n (table non-empty and well-formed).
const SizeClass &class_for(const std::vector<SizeClass> &table, uint64_t n);
//! Appends `c` to `table`, or widens the last class when it has the same kernel and stand-in:
//! adjacent classes with one kernel are one class (one copy of its code, one branch less).
void append_class(std::vector<SizeClass> &table, SizeClass c);

//! Every size from `size` up leaves untouched pages to the kernel (untouched=skip): the classes
//! above take the option, and the class holding `size` splits there (`table` well-formed). The
//! table may grow by one class; where it has kMaxClasses already and would, nothing changes and
//! the result is false.
bool leave_untouched_from(std::vector<SizeClass> &table, uint64_t size);
//! No class leaves untouched pages alone: every kernel takes untouched=write. Returns whether
//! one did.
bool write_untouched(std::vector<SizeClass> &table);

//! Most classes one intent's table may have (a tuned profile has a handful): bounds the code,
//! the branch tree and the time one clearjit_open spends on a profile.
constexpr size_t kMaxClasses = 64;

//! x86-64's huge pages. Clearing one is a case of its own: the tuner races it at its own size
//! and serves it by that race's winner, never by a neighbouring size's (docs/design/tuner.md).
constexpr uint64_t kHugePages[] = {2ull << 20, 1ull << 30};

} // namespace cjit::detail
