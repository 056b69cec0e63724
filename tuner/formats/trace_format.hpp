// What a program clears, as `clearjit trace` records it: the records libclearjit-preload.so
// appends in counting mode, the histogram by octave, its text and its JSON file.
#pragma once

#include "jit/model/spec.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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
//! "0 B", "1 B", "[2 B, 4 B)": the sizes octave k holds, as the tables print them.
std::string octave_range(int k);

//! Adds the records the preload appends at exit ("pid P", "zero K CALLS BYTES", "fill CALLS
//! BYTES", "end") to `h`. A truncated or malformed record is an error naming its line.
std::string add_trace_records(Histogram &h, const std::string &text);

//! The histogram as `clearjit trace` prints it: one row per octave with calls, then the share of
//! calls below 256 B and the totals.
std::string histogram_text(const Histogram &h);

//! {"format":"clearjit-trace","version":1,"command":[...],"processes":N,"octaves":[{"min":..,
//! "max":..,"calls":..,"bytes":..}...],"total_calls":..,"total_bytes":..,"calls_below_256":..,
//! "fill_calls":..,"fill_bytes":..}: the octaves with calls, indented by 2. Arguments that are not
//! UTF-8 are written with U+FFFD in place of their bad bytes.
std::string histogram_json(const Histogram &h, const std::vector<std::string> &command);

//! The most a trace file may hold: a few KiB but for the command, whose arguments Linux bounds
//! by the stack limit (a quarter of 8 MiB by default).
constexpr size_t kTraceJsonMaxBytes = size_t(16) << 20;

//! Reads what histogram_json wrote (its "format", "octaves", "processes" and fill counts; the
//! totals and "max" are derived, and not read). Every octave needs "min" (0 or a power of two),
//! "calls" and "bytes" (non-negative integers; bytes / calls inside the octave), and the calls
//! and bytes must add up to less than 2^64. Errors start with `name` and say where: "t.json: byte
//! 12: ..." for bad JSON, "t.json: octaves[3].calls: ..." for a bad trace. Never throws.
Result<Histogram> histogram_from_json(std::string_view text, std::string_view name);

} // namespace cjit::detail
