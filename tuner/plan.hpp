// How much the tuner measures at each level: the size grid's density, the repetitions, which
// stages run, and the time budget they share.
#pragma once

#include "candidates.hpp"

#include <cstdint>
#include <vector>

namespace cjit::detail {

struct LevelPlan {
  int steps_per_octave; //!< size grid density
  int repetitions;
  double min_time;   //!< seconds per repetition
  bool variants;     //!< measure unroll/align/fence variants of the leading methods
  int refine_rounds; //!< bisection rounds around every crossover
  double budget;     //!< seconds, when --time-limit is not given
};

LevelPlan plan_for(Level l);

//! Sizes from lo to hi, `steps` per octave, rounded to 4 KiB (or 64 bytes below it).
std::vector<uint64_t> size_grid(uint64_t lo, uint64_t hi, int steps);

} // namespace cjit::detail
