// How much the tuner measures at each level: the size grid's density, the repetitions, which
// stages run, and the time budget they share.
#pragma once

#include "tuner/stages/candidates.hpp"

#include <cstdint>
#include <vector>

namespace cjit::detail {

//! The levels differ in resolution (sizes per octave, candidates, rounds) and confidence, never
//! in which decisions are raced.
struct LevelPlan {
  int steps_per_octave; //!< sizes raced per octave
  int repetitions;      //!< the last stages' (small path, verification, parallel)
  double min_time;      //!< seconds per repetition of the last stages
  double race_min_time; //!< seconds per sample of a race round
  double confidence;    //!< one-sided, of each bound a race decides by
  int max_rounds;       //!< of a race
  bool all_methods;     //!< every method's default races; else one move of each kind
  bool variants;        //!< then the level's variants of each chosen kernel race it
  double budget;        //!< seconds, when --time-limit is not given
};

LevelPlan plan_for(Level l);

//! Sizes from lo to hi, `steps` per octave, rounded to 4 KiB (or 64 bytes below it).
std::vector<uint64_t> size_grid(uint64_t lo, uint64_t hi, int steps);

} // namespace cjit::detail
