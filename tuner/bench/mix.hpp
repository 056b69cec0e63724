// What clearjit would do on a recorded mix of sizes (`clearjit bench --mix`): memset and the
// dispatcher per call at each octave of a trace (trace_format.hpp).
#pragma once

#include "tuner/formats/trace_format.hpp"

#include <cstdint>
#include <string>
#include <vector>

struct clearjit;

namespace cjit::detail {

//! One octave of the mix, measured at its mean size.
struct MixRow {
  int octave = 0;
  uint64_t size = 0, calls = 0, bytes = 0;
  bool warm = true;                   //!< below the L2 size: cleared in one warm buffer
  double memset_ns = 0, tuned_ns = 0; //!< medians per call
};

struct MixResult {
  std::string source; //!< the profile measured
  std::vector<MixRow> rows;
  uint64_t preload_min = 0;
};

//! Times memset and the dispatcher (clearjit_clear) per call at each octave's mean size,
//! alternating, `repetitions` rounds of about 10 ms each; medians. Sizes below the L2 are
//! cleared again and again in one buffer (warm); larger ones go to the next slot of a pool of at
//! least 4x the L3 (cold), as a program that clears fresh buffers sees them.
MixResult measure_mix(const Histogram &h, const clearjit *cj, uint64_t l2, uint64_t l3,
                      int repetitions);

//! Per-octave table and the totals weighted by the recorded calls: all calls through the
//! dispatcher, and as the preload does it (libc below `preload_min`).
std::string mix_text(const MixResult &r);

} // namespace cjit::detail
