// What a program clears (`clearjit trace`, recorded by libclearjit-preload.so in counting mode)
// and what clearjit would do on that mix of sizes (`clearjit bench --mix`).
#pragma once

#include "spec.hpp"

#include <cstdint>
#include <string>
#include <vector>

struct clearjit;

namespace cjit::detail {

//! Zero fills by octave of the size n: bucket k holds 2^(k-1) <= n < 2^k, bucket 0 holds n == 0.
struct Histogram {
  static constexpr int kOctaves = 65;
  uint64_t calls[kOctaves] = {}, bytes[kOctaves] = {};
  uint64_t fill_calls = 0, fill_bytes = 0; //!< memset with a non-zero value (passed to libc)
  uint64_t processes = 0;                  //!< processes that wrote a record
  uint64_t total_calls() const;
  uint64_t total_bytes() const;
  uint64_t calls_below(uint64_t size) const; //!< exact for powers of two
};

//! Smallest size of octave k (0 for k == 0).
uint64_t octave_min(int k);

//! Adds the records the preload appends at exit ("pid P", "zero K CALLS BYTES", "fill CALLS
//! BYTES", "end") to `h`. A truncated or malformed record is an error naming its line.
std::string add_trace_records(Histogram &h, const std::string &text);

//! The histogram as `clearjit trace` prints it: one row per octave with calls, then the share of
//! calls below 256 B and the totals.
std::string histogram_text(const Histogram &h);

//! {"format":"clearjit-trace","version":1,"command":[...],"processes":N,"octaves":[{"min":..,
//! "max":..,"calls":..,"bytes":..}...],"total_calls":..,"total_bytes":..,"calls_below_256":..,
//! "fill_calls":..,"fill_bytes":..}
std::string histogram_json(const Histogram &h, const std::vector<std::string> &command);

//! Reads what histogram_json wrote (only its "octaves" and fill counts are used).
Result<Histogram> histogram_from_json(const std::string &text);

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
