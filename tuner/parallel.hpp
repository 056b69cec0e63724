// The parallel stage: clearjit_clear_parallel through the chosen tables at 1..N threads (N: the
// CPUs this process may use), sizes 2 MiB..1 GiB, both intents; choose_parallel (choose.hpp)
// turns the measurements into the profile's [parallel.<intent>] tables.
#pragma once

#include "measure.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cjit::detail {

//! The sizes measured: every octave from 2 MiB to 1 GiB within [min_size, max_size]; none when
//! max_size leaves no 2 MiB boundary to split at (clearjit_clear_parallel's single-thread call).
std::vector<uint64_t> parallel_sizes(uint64_t min_size, uint64_t max_size);
//! The thread counts measured on `cpus` CPUs: 1..4, then about two per octave, and `cpus`.
std::vector<unsigned> parallel_counts(unsigned cpus);

struct ParallelStudy {
  unsigned cpus = 0;            //!< CPUs this process could use
  std::vector<unsigned> counts; //!< thread counts measured
  std::vector<uint64_t> sizes;  //!< sizes measured
  std::optional<ParallelTable> reuse, stream;
  std::vector<Measurement> measurements; //!< GB/s; Measurement::threads says the count
  double seconds = 0;
  std::string skipped; //!< why nothing was measured (one usable CPU), else empty
};

//! The jobs for `cj` (a profile's dispatchers): one per size, count and intent, memset beside.
std::vector<Job> parallel_jobs(const clearjit *cj, const std::vector<uint64_t> &sizes,
                               const std::vector<unsigned> &counts);
//! Its estimated seconds, for the tuner's budget.
double parallel_seconds(const Bench &bench, const MeasureOptions &o, unsigned cpus,
                        uint64_t min_size, uint64_t max_size);
//! Measures `p`'s dispatchers (opened as an application opens them) on this host and chooses.
ParallelStudy study_parallel(Bench &bench, const Profile &p, const CpuInfo &cpu,
                             const MeasureOptions &o, uint64_t min_size, uint64_t max_size);
//! The median GB/s measured at (intent, size) with `threads` threads; 0 threads: memset's.
double parallel_gbps(const ParallelStudy &s, Intent intent, uint64_t size, unsigned threads);
//! For the tune summary.
std::string parallel_text(const ParallelStudy &s);

} // namespace cjit::detail
