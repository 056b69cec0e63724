// The parallel stage: clearjit_clear_parallel through the chosen tables at 1..N threads (N: the
// CPUs this process may use), sizes 2 MiB..1 GiB, both intents, one race per size and intent
// (race.hpp): the profile's [parallel.<intent>] tables.
#pragma once

#include "tuner/measure/measure.hpp"
#include "tuner/race/race.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cjit::detail {

//! Several threads pay at a size where the count raced there is confidently at least this much
//! faster than one thread: above the run-to-run noise of a cold large clear
//! (docs/design/parallel.md).
constexpr double kParallelGain = 1.10;

//! The sizes measured: every octave from 2 MiB to 1 GiB within [min_size, max_size]; none when
//! max_size leaves no 2 MiB boundary to split at (clearjit_clear_parallel's single-thread call).
std::vector<uint64_t> parallel_sizes(uint64_t min_size, uint64_t max_size);
//! The thread counts measured on `cpus` CPUs: 1..4, then about two per octave, and `cpus`.
std::vector<unsigned> parallel_counts(unsigned cpus);

//! Adds a size's race to a [parallel.<intent>] table: its winner's count and speedup.
void add_parallel_size(std::optional<ParallelTable> &table, uint64_t size, const RaceOutcome &o);

struct ParallelStudy {
  unsigned cpus = 0;            //!< CPUs this process could use
  std::vector<unsigned> counts; //!< thread counts measured
  std::vector<uint64_t> sizes;  //!< sizes measured
  std::optional<ParallelTable> reuse, stream;
  std::vector<Measurement> measurements; //!< GB/s; Measurement::threads says the count
  std::vector<std::string> races;        //!< each size's race in a line (race_text)
  std::vector<RaceRecord> records;       //!< each size's race, for the raw measurements
  double seconds = 0;
  std::string skipped; //!< why nothing was measured (one usable CPU), else empty
};

//! The thread-count races on `cj`'s dispatchers: at each size and intent, every count of
//! `counts` above one against one thread, the incumbent (what the verified tables do alone),
//! with memset measured beside. A count replaces one thread where it is confidently
//! kParallelGain faster; of counts tied with the leader the fewest wins, the count that
//! saturates the memory. Sizes below kFewestParallelBytes (no piece to cut) are one thread,
//! measured but not raced. `options`: the level's confidence and rounds; `seconds`: the time
//! the races may take (<= 0: no limit), undecided then meaning one thread.
ParallelStudy race_threads(Meter &bench, const clearjit *cj, const std::vector<uint64_t> &sizes,
                           const std::vector<unsigned> &counts, RaceOptions options,
                           const MeasureOptions &o, double seconds);
//! The estimated seconds of `rounds` rounds of the races, for the tuner's budget.
double parallel_seconds(const Meter &bench, const MeasureOptions &o, int rounds, unsigned cpus,
                        uint64_t min_size, uint64_t max_size);
//! Races `p`'s dispatchers (opened as an application opens them) on this host at 1..`cpus` threads.
ParallelStudy study_parallel(Meter &bench, const Profile &p, const CpuInfo &cpu, unsigned cpus,
                             const RaceOptions &options, const MeasureOptions &o, uint64_t min_size,
                             uint64_t max_size, double seconds);
//! The median GB/s measured at (intent, size) with `threads` threads; 0 threads: memset's.
double parallel_gbps(const ParallelStudy &s, Intent intent, uint64_t size, unsigned threads);
//! For the tune summary.
std::string parallel_text(const ParallelStudy &s);

} // namespace cjit::detail
