// Choosing from measurements: pure functions, unit-tested on synthetic data.
#pragma once

#include "measure.hpp"
#include "profile.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cjit::detail {

struct ChooseOptions {
  //! Kernels within max(noise_floor, 2 * cv) of the best at a size are tied, up to max_band.
  //! 10%: on the VM tuned here, identical code measures up to 10% apart at single sizes
  //! (clearjit bench, memset against the dispatcher's libc classes).
  double noise_floor = 0.03;
  double max_band = 0.10;
  //! A lone winner between two sizes won by the same kernel is an outlier when that kernel is
  //! within this fraction of it.
  double outlier_band = 0.10;
  //! A kernel more than this fraction slower than memset in either destination pattern is out of
  //! play at that size (robust_measurements), however noisy: clearjit's promise is never to be
  //! slower than memset, and a class must keep 0.97x of memset's speed in each pattern. Ties then
  //! go to memset itself.
  double memset_floor = 0.03;
  //! Sizes measured only partly: crossover bisections, which measured the two neighbouring
  //! winners and memset. They neither end a class nor admit a kernel they did not measure.
  std::set<uint64_t> partial;
};

//! Lower is simpler; ties go to the simpler kernel.
using ComplexityMap = std::map<Candidate, int>;

//! A kernel's complexity: the lines of its listing, non-temporal kernels after every temporal
//! one (on a tie they cost the caller its cache contents for nothing).
int kernel_complexity(const Spec &s);

//! The winner at one measured size.
struct Winner {
  uint64_t size = 0;
  Candidate candidate;
  double gbps = 0;
};

//! Per measured size of `intent` (ascending): the simplest kernel within the noise band of the
//! fastest, with lone outliers smoothed away and same-family runs joined (a run takes a
//! neighbour run's kernel when that is within outlier_band of the best at each of its sizes;
//! memset is never smoothed or joined away). Repeated measurements of a point are pooled.
std::vector<Winner> winners(const std::vector<Measurement> &ms, Intent intent,
                            const ComplexityMap &complexity, const ChooseOptions &options = {});

//! One measurement per (size, kernel) measured in both patterns, for winners(): its samples are
//! the geometric means of every pair of its scattered and consecutive samples, so a kernel
//! ranks by both patterns at once. A kernel that loses to memset (memset_candidate()) in either
//! pattern by more than options.memset_floor, or was not measured in both, is out of
//! play at that size (kept at 0 GB/s, so it ends a run there): a class never wins one pattern
//! by losing the other to memset. A size with no consecutive measurement at all (the tuner
//! measured every other size to fit its time) keeps its scattered ones as they are.
//! `cached` (half the L2 cleared piece by piece, measured up to the L2's size) only vetoes: at a
//! size where memset was measured cached, a kernel whose cold time (at both patterns'
//! geometric-mean speed, or the scattered one's where consecutive was not measured) plus cached
//! time exceeds memset's two by more than options.memset_floor, or that was not measured cached
//! there, is out of play too. Cold and cached calls count as equally likely. Cleared back to back,
//! memset's lines stay in cache while a non-temporal kernel sends every line to memory on every
//! call (Zen 5, 8..16 KiB: 3.0..4.0x memset's time,
//! docs/results/amd-family26-model2/bench-cached-veto.txt), which a cold gain of a few percent does
//! not pay back, and a large cold gain does. `scattered`, `consecutive` and `cached` hold one
//! intent each (the tuner selects them).
std::vector<Measurement> robust_measurements(const std::vector<Measurement> &scattered,
                                             const std::vector<Measurement> &consecutive,
                                             const std::vector<Measurement> &cached = {},
                                             const ChooseOptions &options = {});

//! What a table is chosen from: robust_measurements of the patterns where consecutive or cached
//! destinations were measured, the scattered ones alone where neither was.
std::vector<Measurement> chosen_from(const std::vector<Measurement> &scattered,
                                     const std::vector<Measurement> &consecutive,
                                     const std::vector<Measurement> &cached);

//! Below this fraction of memset's speed with consecutive destinations a scattered-only pick is
//! worth reporting (the promise's floor: no class under 0.97x memset in either pattern).
constexpr double kConsecutiveFloor = 0.97;

//! Where scattered destinations alone (winners with `options`) would have chosen a kernel of
//! another family than the `chosen` table, or one under kConsecutiveFloor of memset with
//! consecutive destinations (what the robust choice exists for), at the `grid` sizes measured
//! consecutive or cached: one line per run of adjacent such sizes with the same two picks, quoted
//! at the first, prefixed by `table` and with each pick's speed against memset in each pattern.
//! None when neither consecutive nor cached destinations were measured.
std::vector<std::string>
disagreements(std::string_view table, Intent intent, const std::vector<uint64_t> &grid,
              const std::vector<Measurement> &scattered,
              const std::vector<Measurement> &consecutive, const std::vector<Measurement> &cached,
              const std::vector<SizeClass> &chosen, const ComplexityMap &complexity,
              const ChooseOptions &options = {});

//! Median GB/s per size and kernel for `intent`, every repetition of every measurement pooled.
std::map<uint64_t, std::map<Candidate, double>> pooled_medians(const std::vector<Measurement> &ms,
                                                               Intent intent);

//! Median GB/s of `c` per size for `intent`, every repetition of every measurement pooled.
std::map<uint64_t, double> pooled_gbps(const std::vector<Measurement> &ms, Intent intent,
                                       const Candidate &c);

//! Contiguous size classes from 0 to unbounded: adjacent sizes with the same winner merged, each
//! boundary at the geometric middle of the two measured sizes where the winner changes.
std::vector<SizeClass> dispatch_table(const std::vector<Winner> &ws);

//! Rounds a class boundary: to 64 bytes below 64 KiB, to 4 KiB above.
uint64_t round_boundary(double bytes);

//! Zen's no-allocate step: the smallest size from which one rep stosb over the whole extent
//! runs clearly faster than temporal stores (at least step_ratio, and kStepOverLead times its
//! lead at the smallest size measured), at that size and every larger one.
//! 1.4: rep stosb may lead temporal stores everywhere (no read for ownership); the step
//! multiplies that lead once more, by ~2.5x on Zen 3-5, and noise moves it by less than 1.2x.
constexpr double kStepOverLead = 1.4;
struct NoAllocate {
  std::optional<uint64_t> size;
  std::string reason;     //!< why it is absent, or how it was found
  double ratio_below = 0; //!< median stosb/temporal ratio below the step
  double ratio_above = 0; //!< median ratio from the step on
};
NoAllocate find_no_allocate(const std::vector<Measurement> &stosb,
                            const std::vector<Measurement> &temporal, double step_ratio = 1.3);

//! The size from which every class of `table` is non-temporal (or clzero), if any.
std::optional<uint64_t> nontemporal_from(const std::vector<SizeClass> &table);

//! Smallest chunk whose GB/s reaches `fraction` of the whole-extent (chunk 0) GB/s.
std::optional<uint64_t> smallest_good_chunk(const std::map<uint64_t, double> &gbps_by_chunk,
                                            double fraction = 0.9);

//! Several threads pay at a size when the count chosen there is at least this much faster
//! than one thread (the median of each): above the noise of a cold large clear, which moved a
//! class's ratio to memset by 0.92..1.09x between runs of `clearjit bench` on Zen 5
//! (docs/results/amd-family26-model2/), so a count is never chosen for a gain the noise makes.
constexpr double kParallelGain = 1.10;
//! Of the counts within this fraction of the fastest, the fewest: the count that saturates the
//! memory, not always the most.
constexpr double kParallelSaturated = 0.95;
//! The [parallel.<intent>] table from clearjit_clear_parallel measurements of one intent
//! (Measurement::threads 1..N; repetitions pooled): per measured size the fewest threads within
//! kParallelSaturated of the fastest count, if that is kParallelGain faster than one thread,
//! else 1; speedup, that count's median over one thread's. Below kFewestParallelBytes, where
//! clearjit_clear_parallel cuts no pieces, 1. Sizes without a one-thread measurement are left
//! out; nullopt when none is left.
std::optional<ParallelTable> choose_parallel(const std::vector<Measurement> &ms, Intent intent);

//! choose_parallel over both rounds of the parallel stage, where the second re-measured every
//! count at the sizes the first gave more than one thread: such a size keeps more than one
//! thread only if the second round alone also gives it more than one, else it gets 1.
std::optional<ParallelTable> choose_parallel_confirmed(const std::vector<Measurement> &first,
                                                       const std::vector<Measurement> &second,
                                                       Intent intent);

//! "4 KiB .. 64 KiB", "64 KiB .. up": the sizes a class serves, as summaries print them.
std::string class_range(uint64_t lower, uint64_t below);
//! memset's speed over a class [lower, below) (below 0: up): the geometric mean of its GB/s
//! at the grid sizes inside; 0 when none is.
double memset_over_class(const std::map<uint64_t, double> &memset, uint64_t lower, uint64_t below);

} // namespace cjit::detail
