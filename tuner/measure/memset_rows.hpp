// memset alone at a list of (size, intent, destination state) rows, in a process of its own: a
// GLIBC_TUNABLES value is read when a process starts, so memset under one and memset without it
// are measured by two processes (`clearjit memset-rows`, hidden) that the caller alternates.
#pragma once

#include "tuner/measure/c_library.hpp"
#include "tuner/measure/measure.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cjit::detail {

//! One memset measurement: a size, an intent (reuse adds its read pass) and a destination state.
struct MemsetRow {
  uint64_t size = 0;
  Intent intent = Intent::reuse;
  Pattern pattern = Pattern::scattered;
  bool operator==(const MemsetRow &) const = default;
};

//! The rows of a tunables check: one size per octave from `min_size` to `max_size` (and
//! `max_size`), both intents, scattered; consecutive where the arena holds four destinations of
//! the size; hot up to hot_limit(cpu): the states the tuner races in.
std::vector<MemsetRow> memset_rows(const CpuInfo &cpu, uint64_t min_size, uint64_t max_size);

//! "4096:reuse:hot,65536:stream:scattered": the rows as the child's argument.
std::string rows_text(const std::vector<MemsetRow> &rows);
//! The rows from rows_text; an error naming the first bad row.
Result<std::vector<MemsetRow>> parse_rows(const std::string &text);

//! In the child: measures memset at `rows` on this host (HostMeter, memset's Job in each state)
//! and returns the JSON the parent reads: the C library, the GLIBC_TUNABLES it ran with, and
//! one GB/s median per row.
std::string measure_memset_rows(const std::vector<MemsetRow> &rows, const MeasureOptions &o);

//! memset's GB/s at `rows`, with `tunables` as GLIBC_TUNABLES (none: without any): what the
//! tunables check measures, behind an interface so that a test gives synthetic timings.
class MemsetRowsBench {
public:
  virtual ~MemsetRowsBench() = default;
  //! One GB/s per row, in order; an error where the measurement could not be made.
  virtual Result<std::vector<double>> run(const std::vector<MemsetRow> &rows,
                                          const std::optional<std::string> &tunables) = 0;
  //! Seconds one run is expected to take.
  virtual double estimate_seconds(const std::vector<MemsetRow> &rows) const = 0;
};

//! Runs `command` + the rows' arguments (`clearjit memset-rows` under the running C library's
//! loader, by default) with GLIBC_TUNABLES set or removed, and reads its JSON: an error where
//! it does not start, fails, times out, prints something else, or ran another C library or
//! other tunables than asked.
class ProcessMemsetRows final : public MemsetRowsBench {
public:
  ProcessMemsetRows(std::vector<std::string> command, std::string libc, MeasureOptions o,
                    double timeout_s);
  //! clearjit itself under the running C library's loader.
  static std::vector<std::string> self_command();

  Result<std::vector<double>> run(const std::vector<MemsetRow> &rows,
                                  const std::optional<std::string> &tunables) override;
  double estimate_seconds(const std::vector<MemsetRow> &rows) const override;

private:
  std::vector<std::string> command_;
  std::string libc_;
  MeasureOptions options_;
  double timeout_s_;
};

//! The result a child printed, read: GB/s per row. `libc` and `tunables` must be what it ran.
Result<std::vector<double>> read_memset_rows(const std::string &json, size_t rows,
                                             const std::string &libc,
                                             const std::optional<std::string> &tunables);

} // namespace cjit::detail
