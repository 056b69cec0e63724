// libFuzzer target for the raw measurements' reader (`clearjit choose RAW.json`): any bytes must
// give a tune's record or an error naming the file, never a crash, a leak or undefined
// behaviour; every race read has as many samples as contenders and conditions.
#include "tuner/formats/raw.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace cjit::detail;
  // No stage's own check: the built-in sections are read by read_raw itself, and the stage
  // table would link the whole tuner into the fuzzer.
  auto t = read_raw(std::string_view(reinterpret_cast<const char *>(data), size), "fuzz.json", {});
  if (!t) {
    if (!std::string_view(t.error).starts_with("fuzz.json: ")) __builtin_trap();
    return 0;
  }
  for (const RaceRecord &r : t->races) {
    if (r.samples.size() != 1 + r.race.candidates.size() + r.race.beside.size()) __builtin_trap();
    for (const auto &per_condition : r.samples)
      if (per_condition.size() != r.race.conditions.size()) __builtin_trap();
  }
  return 0;
}
