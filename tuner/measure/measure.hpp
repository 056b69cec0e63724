// Measuring kernels with Google Benchmark on cold destinations. Measuring only: choosing is
// tables.hpp's job, on the Measurements this returns.
#pragma once

#include "clearjit/clearjit.h"
#include "jit/emit/emit.hpp"
#include "jit/model/spec.hpp"
#include "jit/profile/profile.hpp"
#include "tuner/measure/candidate.hpp"
#include "tuner/measure/stats.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cjit::detail {

//! Where one timed clear after another lands: scattered over the arena in a shuffled order (no
//! prefetcher helps, every destination is cold), or consecutive: one region cleared piece by
//! piece, as the kernel's clear_pages over a huge page or an allocator recycling a slab. Or
//! cached: a region of half the L2 cleared piece by piece, round and round (one piece, cleared
//! again and again, when the size is larger), so up to the L2's size memset finds each piece in
//! cache (an allocator scrubbing objects it has just freed), while a non-temporal kernel finds it
//! where its previous round sent it, in memory, and sends every line there again
//! (experiments/nt_cached.cpp times single clears of lines truly in cache).
//! Hot: one region, which the caller wrote and read just before each clear (one buffer cycled,
//! as an allocator recycles the block it just took or an arena is reset per request); only the
//! clear (and reuse's read pass) is timed.
//! Untouched: a new private anonymous mapping for each clear, never touched before it (a table
//! just allocated); timed are the clear and the caller's first use after it, one store per 4 KiB
//! page (which faults in what the clear left to the kernel), then reuse's read pass. The
//! untouched stage races untouched=skip in it (docs/design/fresh-memory.md).
enum class Pattern : uint8_t { scattered, consecutive, cached, hot, untouched };
//! The cold patterns (the tuner races these and `hot`; `cached` is what `clearjit bench` shows
//! of back-to-back clears in cache, the harsher view of a non-temporal kernel).
constexpr Pattern kPatterns[] = {Pattern::scattered, Pattern::consecutive};
//! Every pattern with its name, as outputs write it and the raw reader reads it.
constexpr std::pair<Pattern, std::string_view> kPatternNames[] = {
    {Pattern::scattered, "scattered"},
    {Pattern::consecutive, "consecutive"},
    {Pattern::cached, "cached"},
    {Pattern::hot, "hot"},
    {Pattern::untouched, "untouched"}};
constexpr std::string_view pattern_name(Pattern p) {
  for (const auto &[pattern, name] : kPatternNames)
    if (pattern == p) return name;
  return "?";
}

//! A batch of stream clears is fenced once per this many bytes, a 2 MiB huge page's subpages
//! (as Linux clears the subpages of a huge page with streaming stores and one sfence); pieces of
//! 2 MiB and more are fenced each.
constexpr uint64_t kBatchBytes = 2u << 20;
inline uint64_t batch_pieces(uint64_t size) { return size >= kBatchBytes ? 1 : kBatchBytes / size; }

//! How warm jobs draw their sizes: one fixed size, or a random mix (measure.cpp documents them).
//! Every mix draws sizes in 1..kMixMaxBytes.
constexpr uint32_t kMixMaxBytes = 256;
enum class Mix : uint8_t {
  fixed,       //!< Job::size every call
  log_uniform, //!< 1..256 B, log-uniform (every octave equally likely)
  objects,     //!< 1..256 B, a synthetic small-object distribution (measure.cpp, README)
};
std::string_view mix_name(Mix m);

//! Warm measurements: a buffer that stays in L1 and a fixed sequence of calls, the same for
//! every contender of a (size or mix, seed). 65536 calls (512 KiB, read in order): a short
//! sequence is learnt by the branch predictors (docs/design/measuring.md, warm measurements).
constexpr size_t kWarmCalls = 65536; //!< a power of two: the index wraps with a mask
constexpr size_t kWarmLines = 128;   //!< 8 KiB of destinations: in L1 everywhere, two pages
constexpr size_t kWarmBytes = kWarmLines * 64 + 64 + 1024;

struct WarmCall {
  uint32_t off, n; //!< destination offset in the warm buffer, bytes to clear
};

//! The calls of a warm job: a random line of the buffer, offsets 0..63 in turn (fixed) or at
//! random (mixes), so some calls cross the page boundary in the middle of the buffer; sizes
//! drawn from `mix` (`size` for Mix::fixed). `draw` picks another random sequence, for a
//! measurement independent of the one that chose (the tuner's verification).
std::vector<WarmCall> warm_calls(Mix mix, uint64_t size, unsigned draw = 0);

//! How a warm job calls: what an application does.
enum class Call : uint8_t {
  kernel,   //!< Job::fn or the kernel of Job::candidate
  exported, //!< clearjit_clear / clearjit_clear_stream (the exported functions)
  inlined,  //!< cj->clear / cj->clear_stream (the header-inline form: one load, one call)
  memset,   //!< memset(dst, 0, n) through a function pointer the compiler cannot see through
};

//! One (candidate, size, intent, pattern) to measure.
struct Job {
  Job() = default;
  //! The kernel of `s`, compiled by the Meter.
  Job(const Spec &s, uint64_t bytes, Intent i) : candidate(s), size(bytes), intent(i) {}
  //! `f`, measured as `c` (a small path's dispatcher, ...).
  Job(Candidate c, ClearFn f, uint64_t bytes, Intent i)
      : candidate(std::move(c)), size(bytes), intent(i), fn(f) {}
  //! A profile's dispatcher, called as an application calls it: clearjit_clear (reuse) or
  //! clearjit_clear_stream (stream), directly from the timing loop.
  Job(Candidate c, const clearjit *opened, uint64_t bytes, Intent i)
      : candidate(std::move(c)), size(bytes), intent(i), cj(opened) {}

  //! What is measured, and what the Measurement is of. Without `fn` or `cj`, a kernel's Spec.
  Candidate candidate;
  uint64_t size = 0;
  Intent intent = Intent::reuse;
  Pattern pattern = Pattern::scattered;
  //! Stream clears in batches: the kernel runs without its fence and one sfence closes every
  //! batch_pieces(size) clears (a dispatcher: through clearjit_batch_*).
  bool batched = false;
  //! Set to measure something that is not a single kernel (a dispatcher): `fn` is called
  //! instead of the candidate's kernel.
  ClearFn fn = nullptr;
  const clearjit *cj = nullptr;
  //! Warm: the destination is in L1 (one 8 KiB buffer, random 64-byte lines, offsets 0..63
  //! within the line), sizes by `mix`; measured in ns per call. Reuse reads the first and last
  //! byte back after each clear (store forwarding), stream does not.
  bool warm = false;
  Mix mix = Mix::fixed;
  Call call = Call::kernel;
  //! Warm: which place of the generated timing loop calls it (warmloop.hpp). Contenders to be
  //! compared share a place: the caller's own place moves a warm call's time by a cycle or two.
  int place = 0;
  //! Warm: which random sequence of calls (warm_calls); contenders to be compared share one.
  unsigned draw = 0;
  //! With `cj`: clearjit_clear_parallel with `threads` threads (0: the profile's choice).
  bool parallel = false;
  unsigned threads = 0;
};

//! A warm job: `call` through `fn`/`cj` (as the Call says) at a fixed `size` or a mix.
Job warm_job(Candidate candidate, Call call, Intent i, uint64_t size, Mix mix = Mix::fixed,
             ClearFn fn = nullptr, const clearjit *cj = nullptr, int place = 0);

//! The result of one Job: GB/s per repetition, their median and coefficient of variation.
struct Measurement {
  Candidate candidate; //!< Job::candidate
  uint64_t size = 0;
  Intent intent = Intent::reuse;
  std::vector<double> samples; //!< GB/s (1e9 bytes per second) of each repetition; warm: ns
                               //!< per call
  double gbps = 0;             //!< median of samples (warm: 0)
  double ns = 0;               //!< warm: median ns per call
  double cv = 0;               //!< stddev / mean of samples
  Pattern pattern = Pattern::scattered;
  bool batched = false;
  bool warm = false;
  Mix mix = Mix::fixed;
  unsigned threads = 0; //!< Job::threads (a parallel job)
};

//! A clearjit_clear_parallel job on `cj` with `threads` threads (0: the profile's choice).
Job parallel_job(Candidate candidate, const clearjit *cj, uint64_t size, Intent i,
                 unsigned threads);

//! Scattered, one fence per clear: what the tuner's grid, variants and studies measure.
inline bool plain(const Measurement &m) { return m.pattern == Pattern::scattered && !m.batched; }

//! A copy of `job` in another pattern, or batched.
Job in_pattern(Job job, Pattern p, bool batched = false);

//! The measurements of one intent, pattern and batching, e.g. what a table is chosen from.
std::vector<Measurement> select(const std::vector<Measurement> &ms, Intent intent, Pattern pattern,
                                bool batched = false);

//! Recomputes gbps and cv from samples.
void summarize(Measurement &m);

//! Adds `m`'s samples to `pooled`, which takes m whole while it has none; summarize() after.
void add_samples(Measurement &pooled, const Measurement &m);

struct MeasureOptions {
  int repetitions = 3;
  double min_time = 0.005;                       //!< seconds per repetition
  std::vector<std::string> benchmark_flags = {}; //!< passed through to Google Benchmark
  bool progress = true;                          //!< progress on stderr
  std::string label = {};                        //!< what the progress line says is running
};

//! "" when Google Benchmark takes every one of `flags` as measuring reads them; otherwise why
//! not ("Google Benchmark does not take '--benchmark_bogus' ..."). Cheap: commands call it before
//! any work, so a wrong flag is a usage error at once. It sets Google Benchmark's flags, as every
//! run does again.
std::string benchmark_flags_error(const std::vector<std::string> &flags);

//! The destination arena a HostMeter for sizes up to `max_size` maps: at least 4x the L3 and
//! 512 MiB, so no timed clear finds its destination in cache, in 2 MiB pages.
uint64_t arena_bytes_for(const CpuInfo &cpu, uint64_t max_size);

//! The largest size measured hot: the L3's (the L2's where no L3 is known); beyond it no
//! caller's buffer is in cache.
inline uint64_t hot_limit(const CpuInfo &cpu) {
  return cpu.l3_bytes() ? cpu.l3_bytes() : cpu.l2_bytes();
}

//! What measures jobs: the tuner, its stages and the bench take one by reference, so that a test
//! can give them a Meter of synthetic timings (tests/support/synthetic_meter.hpp) and drive them
//! without measuring anything.
class Meter {
public:
  virtual ~Meter() = default;
  //! Runs every job (random interleaving, `repetitions` each) and returns one Measurement per job.
  virtual std::vector<Measurement> run(const std::vector<Job> &jobs,
                                       const MeasureOptions &options) = 0;
  //! Estimated seconds `run` will take for these jobs, for planning under a time limit.
  virtual double estimate_seconds(const std::vector<Job> &jobs,
                                  const MeasureOptions &options) const = 0;
};

//! The Meter of this host: owns the destination arena and the compiled kernels and measures with
//! Google Benchmark.
class HostMeter final : public Meter {
public:
  //! `max_size`: the largest size any job will use. The arena is at least 4x the L3 and
  //! 512 MiB, so no timed clear finds its destination in cache.
  HostMeter(const CpuInfo &cpu, uint64_t max_size);
  ~HostMeter() override;

  std::vector<Measurement> run(const std::vector<Job> &jobs,
                               const MeasureOptions &options) override;
  double estimate_seconds(const std::vector<Job> &jobs,
                          const MeasureOptions &options) const override;

  //! Registers the jobs with Google Benchmark without running them, for a binary that uses
  //! Google Benchmark's own reporters; `out` receives results only through run().
  void register_jobs(const std::vector<Job> &jobs, const MeasureOptions &options);

  uint64_t arena_bytes() const;

private:
  void register_with(const std::vector<Job> &jobs, const MeasureOptions &options,
                     class Progress *progress);
  void register_warm(const Job &job, size_t index, const MeasureOptions &options,
                     class Progress *progress);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace cjit::detail
