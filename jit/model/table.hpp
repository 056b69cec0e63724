// Tables: the size classes of one intent's table, which the profile stores, the dispatcher
// branches over and the tuner chooses; and the bounds of the parallel table's pieces.
#pragma once

#include "clearjit/clearjit.hpp"
#include "jit/model/spec.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cjit::detail {

// Intent (clearjit.hpp): reuse: the caller touches the memory soon (cost = clear + one read
// pass); stream: it does not (cost = the clear alone).
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
  bool operator==(const SizeClass &) const = default;
};

//! The class of `table` that holds size n (table non-empty and well-formed).
const SizeClass &class_for(const std::vector<SizeClass> &table, uint64_t n);
//! Appends `c` to `table`, or widens the last class when it has the same kernel: adjacent
//! classes with one kernel are one class (one copy of its code, one branch less).
void append_class(std::vector<SizeClass> &table, SizeClass c);

//! Most classes one intent's table may have (a tuned profile has a handful): bounds the code,
//! the branch tree and the time one clearjit_open spends on a profile.
constexpr size_t kMaxClasses = 64;

//! Huge pages are not shared between threads: pieces start and end on this boundary (but the
//! region's own start and end).
inline constexpr uint64_t kPieceAlign = 2u << 20;
//! Below this a region has no 2 MiB boundary to cut at (but its ends): one piece, one thread.
inline constexpr uint64_t kFewestParallelBytes = 2 * kPieceAlign;
//! The most threads one call uses (more are clamped): a bound on what a caller can start.
inline constexpr unsigned kMaxThreads = 256;

} // namespace cjit::detail
