// `clearjit bench`: a profile's dispatcher against memset and every candidate kernel, side by
// side in one interleaved run; and the published clear_pages and 1 GiB streaming-store
// experiments rerun on this host.
#pragma once

#include "clearjit/clearjit.h"
#include "tuner/measure/measure.hpp"

#include <memory>
#include <string>
#include <vector>

namespace cjit::detail {

struct BenchOptions {
  std::string profile; //!< path, or "" for the default lookup
  std::vector<uint64_t> sizes;
  std::vector<Intent> intents{Intent::reuse, Intent::stream};
  //! Scattered: every kernel; consecutive and cached: the dispatcher and memset (the "fastest
  //! kernel" column is the scattered one's). Cached only at sizes up to the L2's.
  std::vector<Pattern> patterns{Pattern::scattered, Pattern::consecutive, Pattern::hot,
                                Pattern::cached};
  //! Stream clears per call against batched (clearjit_batch_*), both patterns, at these sizes.
  std::vector<uint64_t> batch_sizes{4096, 65536};
  int repetitions = 5;
  double min_time = 0.01;
  bool progress = true;
  std::vector<std::string> benchmark_flags;
  //! Warm small sizes and mixes (ns per call, memset beside), measured in the same run.
  bool warm = true;
  std::vector<uint64_t> warm_sizes;
  //! clearjit_clear_parallel (the profile's count, and every usable CPU) beside the single-thread
  //! call and memset, at the asked sizes from this one on.
  uint64_t parallel_from = 4u << 20;
};

//! Warm sizes: 1..256 B, every power of two and its neighbours and a few in between.
std::vector<uint64_t> default_warm_sizes();

//! The sizes the README's tables quote: 8, 64, 256 B, 4, 16, 64, 256 KiB, 1, 4, 16, 32, 64, 256
//! MiB, 1 GiB.
std::vector<uint64_t> default_bench_sizes();

//! The dispatcher's measurements ("tuned").
inline const Candidate kTuned = Candidate::labelled("tuned");
//! The dispatcher called the header-inline way (cj->clear).
inline const Candidate kTunedInline = Candidate::labelled("tuned-inline");
//! A batch row's dispatcher per call, where other rows have their fastest kernel.
inline const Candidate kTunedPerCall = Candidate::labelled("tuned per call");

//! Everything `clearjit bench` measures: for each size and intent, the dispatcher (through
//! clearjit_clear / clearjit_clear_stream, as an application calls it), memset (libc) and every
//! kernel of the profile plus each runnable method's default spec.
struct BenchPlan {
  std::shared_ptr<clearjit> opened; //!< the profile, open while its jobs are measured
  //! The same profile opened again, each with its own dispatchers elsewhere in memory: warm
  //! rows are measured with every one of these and `opened` (kWarmPlacements in all).
  std::vector<std::shared_ptr<clearjit>> placements;
  std::string source; //!< where the profile came from
  std::vector<Job> jobs;
  std::vector<Job> parallel_jobs; //!< measured in their own run (kParallelRepetitions)
  std::vector<Candidate> kernels; //!< each runnable method's default and the profile's
};
//! Opens the profile (throws std::runtime_error with the reason) and builds the job list.
BenchPlan plan_bench(const BenchOptions &o, const CpuInfo &cpu);

struct BenchRow {
  uint64_t size = 0;
  Intent intent = Intent::reuse;
  Pattern pattern = Pattern::scattered;
  bool batched = false; //!< the dispatcher through clearjit_batch_*; memset per call
  std::string tuned_kernel, oracle_kernel;
  double tuned = 0, memset = 0, oracle = 0; //!< GB/s medians
  double tuned_cv = 0, memset_cv = 0;
};

//! clearjit_clear_parallel with threads == 1, 0 (the profile's count) and every usable CPU.
inline const Candidate kParallelOne = Candidate::labelled("parallel 1 thread");
inline const Candidate kParallelTuned = Candidate::labelled("parallel tuned");
inline const Candidate kParallelAll = Candidate::labelled("parallel all CPUs");
//! The parallel rows' own run, more repetitions of longer: at bench's own minimum time a clear of
//! 1 GiB gets one iteration per repetition, and two identical single-thread calls then measured
//! far apart (docs/design/parallel.md, the tuned count).
constexpr int kParallelRepetitions = 11;
constexpr double kParallelMinTime = 0.03;

//! One huge region on several threads against one (the tuned row's dispatcher) and memset,
//! scattered destinations, GB/s medians.
struct ParallelRow {
  Intent intent = Intent::reuse;
  uint64_t size = 0;
  unsigned tuned_threads = 1, all_threads = 1; //!< clearjit_threads_for; the usable CPUs
  double memset = 0, one = 0, tuned = 0, all = 0;
};

//! One warm row: ns per call, medians.
//! Warm rows measure the dispatcher at this many places (the profile opened that many times),
//! each called from its own place of the timing loop, where memset is called too
//! (warmloop.hpp), and report the geometric mean: a warm call moves by a cycle or two with where
//! its code and its caller lie (docs/design/measuring.md, noise), and an application's code lands
//! where it cannot choose.
constexpr int kWarmPlacements = 8;

struct WarmRow {
  Intent intent = Intent::reuse;
  uint64_t size = 0; //!< fixed size; 0 for a mix
  Mix mix = Mix::fixed;
  double tuned = 0, inlined = 0, memset = 0;
};

struct BenchResult {
  std::string source;
  std::string libc;                      //!< whose memset the rows are against: "glibc 2.41"
  std::string small_reuse, small_stream; //!< the small paths, described
  std::vector<WarmRow> warm;
  std::vector<Measurement> measurements;
  std::vector<BenchRow> rows;
  std::vector<ParallelRow> parallel; //!< by intent, then size
  double open_ms = 0;                //!< median clearjit_open time, code generation included
};

BenchResult run_bench(const BenchOptions &o, const CpuInfo &cpu);
//! The parallel row where the profile's count does worst against one thread; null for none.
const ParallelRow *worst_parallel(const BenchResult &r);
std::string bench_text(const BenchResult &r);
std::string bench_json(const BenchResult &r, const CpuInfo &cpu);
//! The run as the Markdown tables the README quotes (warm small sizes, cold and large sizes,
//! batches), headed by the date, the commit, the CPU and `command`, the command line that ran.
std::string bench_markdown(const BenchResult &r, const CpuInfo &cpu, const std::string &command);

//! The measuring options of a bench run: its repetitions, time and pass-through flags.
MeasureOptions measure_options(const BenchOptions &o, const char *label);

//! The tuner's small-path study (smallpath.hpp) for the profile's tables, as text.
std::string small_study(const CpuInfo &cpu, const BenchOptions &o);

} // namespace cjit::detail
