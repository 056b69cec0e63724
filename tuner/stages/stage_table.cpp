// The stages after the races (stage.hpp), in the order they run.
#include "tuner/stages/stage.hpp"

namespace cjit::detail {

const Stage &small_path_stage();   // stage_small_path.cpp
const Stage &verification_stage(); // stage_verification.cpp
const Stage &parallel_stage();     // stage_parallel.cpp
const Stage &untouched_stage();    // stage_untouched.cpp

std::span<const Stage *const> tune_stages() {
  static const Stage *const table[] = {
      &small_path_stage(),
      &verification_stage(),
      // After the verification: it races the verified last classes with and without the look, and
      // may give them untouched=skip, which nothing verifies against memset after it.
      &untouched_stage(),
      // Last: through the tables and small paths as clearjit_open makes them (the untouched stage
      // is the last that changes the tables).
      &parallel_stage(),
  };
  return table;
}

} // namespace cjit::detail
