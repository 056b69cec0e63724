// Choosing from measurements: pure functions, unit-tested on synthetic data.
#pragma once

#include "jit/profile/profile.hpp"
#include "tuner/measure/measure.hpp"
#include "tuner/race/race.hpp"

#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cjit::detail {

//! A kernel's complexity: the lines of its listing, non-temporal kernels after every temporal
//! one (on a tie they cost the caller its cache contents for nothing).
int kernel_complexity(const Spec &s);

//! The winner at one measured size.
struct Winner {
  uint64_t size = 0;
  Candidate candidate;
  double gbps = 0;
};

//! Median GB/s per size and kernel for `intent`, every repetition of every measurement pooled.
std::map<uint64_t, std::map<Candidate, double>> pooled_medians(const std::vector<Measurement> &ms,
                                                               Intent intent);

//! Median GB/s of `c` per size for `intent`, every repetition of every measurement pooled.
std::map<uint64_t, double> pooled_gbps(const std::vector<Measurement> &ms, Intent intent,
                                       const Candidate &c);

//! Contiguous size classes from 0 to unbounded: adjacent sizes with the same winner merged, each
//! boundary at the geometric middle of the two measured sizes where the winner changes, rounded
//! (round_boundary) but never past either: every size is in its own winner's class.
std::vector<SizeClass> dispatch_table(const std::vector<Winner> &ws);

//! Candidates whose median speed over memset's is within this fraction of the best one's at a
//! size may serve it, so near-equals (code placement moves a call by a few percent) make one class.
constexpr double kJoinBand = 0.10;

//! The piece of a huge page that a batch clears it in: the batch table's race at this size
//! decides the kernel of a 2 MiB page cleared as 512 subpages, one fence after the last.
constexpr uint64_t kSubpageBytes = 4096;

//! Whether `size` of `table` ("reuse", "stream", "batch": what a raw race `decides`) is served
//! by its own race's winner, whatever its neighbours won: stream's and batch's huge pages
//! (kHugePages), and batch's subpage (kSubpageBytes).
bool decided_alone(std::string_view table, uint64_t size);

//! A raced size of a table: its race's outcome (every state's bound over memset), the pattern
//! of each of the race's conditions, and each contender's median GB/s in the first (scattered).
//! `alone` (decided_alone): the size takes its race's winner, not a neighbour's run.
struct RacedSize {
  uint64_t size = 0;
  RaceOutcome outcome = {};
  std::vector<Pattern> patterns = {};
  std::map<Candidate, double> gbps = {};
  bool alone = false;
};

//! A table from its sizes' races: from each size, the longest run where one candidate beats
//! memset (Standing::beats) within kJoinBand of the best; ties to the previous class's kernel,
//! then the race's winner; else memset. A size `alone` is its race's winner's, and a run of
//! another candidate stops before it. The largest size is alone where a kernel won its race:
//! its class is the last, which serves every size above it, unmeasured, so it takes the kernel
//! that won there, not one that only tied it on a run from below. (Where none won, memset or,
//! in a fleet whose hosts disagree, the run rule serves it, as any size.) Each class keeps its
//! sizes' smallest lower bound (`gain`) and the states where every size's bound beat `min_gain`.
std::vector<SizeClass> table_from_races(std::vector<RacedSize> at, double min_gain);

//! A memset class's stand-in, what serves it under another C library than the one tuned against
//! (docs/design/profile-format.md, stand-ins): past Zen's no-allocate step (`step`), `stosb`,
//! which is what memset that ties rep stosb there gets; none elsewhere, where another C
//! library's memset may be faster than a kernel that tied this one. A memset class across the
//! step is cut there (while the table stays within kMaxClasses), the classes from the step up
//! take `stosb`, and neighbours that then have one kernel and stand-in are one class.
void stand_in_past_step(std::vector<SizeClass> &table, uint64_t step);
//! stand_in_past_step on each of a profile's tables, where a step was found.
void stand_in_past_step(std::initializer_list<std::vector<SizeClass> *> tables,
                        std::optional<uint64_t> step);

//! Rounds a class boundary: to 64 bytes below 64 KiB, to 4 KiB above.
uint64_t round_boundary(double bytes);

//! Zen's no-allocate step: the smallest size from which one rep stosb over the whole extent runs
//! faster than temporal stores by step_ratio and by kStepOverLead times its lead at the smallest
//! size measured, at every larger size too (the step: ~2.5x on Zen 3-5; noise: under 1.2x).
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

//! A run of neighbouring classes of a table that store past the caches: non-temporal kernels
//! (clzero included), and from Zen's no-allocate step on, `stosb` classes and memset's classes
//! whose stand-in is `stosb` (one rep stosb stops allocating there). below 0: up.
struct NontemporalRun {
  uint64_t lower = 0, below = 0;
  std::vector<std::string> kernels; //!< each class's, in order: "ntavx512", "libc, stand-in stosb"
  bool operator==(const NontemporalRun &) const = default;
};
//! Every such run of `table`, in order; `step`: the no-allocate step, if found.
std::vector<NontemporalRun> nontemporal_runs(const std::vector<SizeClass> &table,
                                             std::optional<uint64_t> step);
//! "5.7 KiB .. 11.3 KiB (ntavx512), 32 MiB .. up (libc, stand-in stosb)"; "never wins" for none.
std::string nontemporal_text(const std::vector<NontemporalRun> &runs);
//! The [findings] line `key = [{ from = 5824, below = 11584, kernels = ["ntavx512"] }, ...]`
//! (below left out: up), "" for no run.
std::string nontemporal_toml(const std::string &key, const std::vector<NontemporalRun> &runs);

//! Smallest chunk whose GB/s reaches `fraction` of the whole-extent (chunk 0) GB/s.
std::optional<uint64_t> smallest_good_chunk(const std::map<uint64_t, double> &gbps_by_chunk,
                                            double fraction = 0.9);

//! "4 KiB .. 64 KiB", "64 KiB .. up": the sizes a class serves, as summaries print them.
std::string class_range(uint64_t lower, uint64_t below);
//! memset's speed over a class [lower, below) (below 0: up): the geometric mean of its GB/s
//! at the grid sizes inside; 0 when none is.
double memset_over_class(const std::map<uint64_t, double> &memset, uint64_t lower, uint64_t below);

} // namespace cjit::detail
