#include "tuner/measure/measure.hpp"

#include "clearjit/clearjit.h"
#include "jit/emit/emit.hpp"
#include "tuner/measure/warmloop.hpp"

#include <benchmark/benchmark.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <stdexcept>
#include <tuple>

namespace cjit::detail {
namespace {

// The kernel a job without a function or a dispatcher measures; a label or small path there is
// a caller's bug, not something to compile a default kernel for.
const Spec &kernel_of(const Job &j) {
  if (const Spec *s = j.candidate.kernel()) return *s;
  throw std::logic_error("job " + j.candidate.name() + " has no kernel, function or dispatcher");
}

using Clock = std::chrono::steady_clock;

// One read per cache line: what a caller that reuses the memory does at the least.
__attribute__((noinline)) uint64_t read_pass(const uint8_t *p, uint64_t n) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < n; i += 64)
    sum += *reinterpret_cast<const volatile uint64_t *>(p + i);
  return sum;
}

// The sizes of a mix.
//  log_uniform: every octave of 1..256 equally likely (n = floor(257^u), u uniform).
//  objects: a synthetic stand-in for zeroing small objects and buffers, biased to multiples of
//    8 as allocators and structs are: 40% 8..64 in steps of 8, 25% 1..32, 20% 80..256 in steps
//    of 16, 15% 1..8. It is a choice, not a measured trace.
uint32_t draw(Mix mix, std::mt19937_64 &rng, uint64_t fixed) {
  std::uniform_real_distribution<double> u(0, 1);
  switch (mix) {
  case Mix::fixed: return uint32_t(fixed);
  case Mix::log_uniform:
    return std::clamp(uint32_t(std::pow(kMixMaxBytes + 1.0, u(rng))), 1u, kMixMaxBytes);
  case Mix::objects: {
    double p = u(rng);
    auto uni = [&](uint32_t lo, uint32_t hi) {
      return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
    };
    if (p < 0.40) return 8 * uni(1, 8);
    if (p < 0.65) return uni(1, 32);
    if (p < 0.85) return 16 * uni(5, 16);
    return uni(1, 8);
  }
  }
  return 1;
}

std::string format_eta(double s) {
  char buf[32];
  int t = int(s + 0.5);
  std::snprintf(buf, sizeof buf, "%d:%02d", t / 60, t % 60);
  return buf;
}

} // namespace

std::vector<WarmCall> warm_calls(Mix mix, uint64_t size, unsigned sequence) {
  std::mt19937_64 rng(0x5eed0000 + size * 8 + uint64_t(mix) + (uint64_t(sequence) << 40));
  std::vector<WarmCall> calls(kWarmCalls);
  for (size_t i = 0; i < kWarmCalls; ++i) {
    uint32_t line = uint32_t(rng() % kWarmLines);
    uint32_t off = mix == Mix::fixed ? uint32_t(i % 64) : uint32_t(rng() % 64);
    calls[i] = {line * 64 + off, draw(mix, rng, size)};
  }
  return calls;
}

Job in_pattern(Job job, Pattern p, bool batched) {
  job.pattern = p;
  job.batched = batched;
  return job;
}

std::vector<Measurement> select(const std::vector<Measurement> &ms, Intent intent, Pattern pattern,
                                bool batched) {
  std::vector<Measurement> out;
  for (const Measurement &m : ms)
    if (m.intent == intent && m.pattern == pattern && m.batched == batched) out.push_back(m);
  return out;
}

std::string_view mix_name(Mix m) {
  switch (m) {
  case Mix::fixed: return "fixed";
  case Mix::log_uniform: return "log-uniform 1..256 B";
  case Mix::objects: return "objects 1..256 B";
  }
  return "?";
}

Job warm_job(Candidate candidate, Call call, Intent i, uint64_t size, Mix mix, ClearFn fn,
             const clearjit *cj, int place) {
  Job j(std::move(candidate), fn, size, i);
  j.cj = cj;
  j.warm = true;
  j.mix = mix;
  j.call = call;
  j.place = place;
  return j;
}

Job parallel_job(Candidate candidate, const clearjit *cj, uint64_t size, Intent i,
                 unsigned threads) {
  Job j(std::move(candidate), cj, size, i);
  j.parallel = true;
  j.threads = threads;
  return j;
}

void add_samples(Measurement &pooled, const Measurement &m) {
  if (pooled.samples.empty())
    pooled = m;
  else
    pooled.samples.insert(pooled.samples.end(), m.samples.begin(), m.samples.end());
}

void summarize(Measurement &m) {
  if (m.samples.empty()) return;
  (m.warm ? m.ns : m.gbps) = median(m.samples);
  m.cv = cv(m.samples);
}

uint64_t arena_bytes_for(const CpuInfo &cpu, uint64_t max_size) {
  const uint64_t bytes = std::max({uint64_t(512) << 20, 4 * cpu.l3_bytes(), max_size});
  return (bytes + (2u << 20) - 1) & ~uint64_t((2u << 20) - 1);
}

struct HostMeter::Impl {
  const CpuInfo &cpu;
  uint8_t *arena = nullptr;
  uint64_t arena_bytes = 0;
  std::map<std::string, std::unique_ptr<GeneratedCode>> kernels;
  struct Slots {
    std::vector<uint32_t> order; // visiting order (scattered); consecutive: slot k is k
    uint64_t count = 0;          // slots
    uint64_t stride = 0;         // bytes between slots
    size_t next = 0; // shared by every job of this size and pattern: each goes on where the
                     // last left off, so consecutive clears never revisit a fresh region
  };
  std::map<std::pair<uint64_t, Pattern>, Slots> slots;                       // per size and pattern
  std::map<std::tuple<Mix, uint64_t, unsigned>, std::vector<WarmCall>> warm; // (mix, size, draw)
  uint8_t *warm_buf = nullptr;
  std::unique_ptr<WarmLoops> warm_loops;               // made on the first warm job
  std::vector<std::unique_ptr<const void *>> fn_slots; // what kernel jobs' loops call through
  double calibration = 1; // measured seconds / raw estimate, learned from earlier batches

  Impl(const CpuInfo &c, uint64_t max_size) : cpu(c) {
    if (max_size > uint64_t(1) << 40) // far beyond any machine's memory; rounding would wrap
      throw std::invalid_argument("cannot measure " + std::to_string(max_size) +
                                  " bytes: too large for a destination arena");
    arena_bytes = arena_bytes_for(cpu, max_size);
    void *p =
        mmap(nullptr, arena_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      throw std::runtime_error("cannot map a " + std::to_string(arena_bytes >> 20) +
                               " MiB destination arena: " + std::strerror(errno));
    arena = static_cast<uint8_t *>(p);
    madvise(arena, arena_bytes, MADV_HUGEPAGE); // fewer TLB misses; a hint, failure is fine
    std::memset(arena, 1, arena_bytes);         // prefault before any timing
  }
  ~Impl() {
    munmap(arena, arena_bytes);
    std::free(warm_buf);
  }

  WarmLoops &loops() {
    if (!warm_loops) warm_loops = std::make_unique<WarmLoops>();
    return *warm_loops;
  }

  const std::vector<WarmCall> &warm_for(Mix mix, uint64_t size, unsigned draw) {
    if (!warm_buf) {
      warm_buf =
          static_cast<uint8_t *>(std::aligned_alloc(4096, (kWarmBytes + 4095) / 4096 * 4096));
      if (!warm_buf) throw std::runtime_error("cannot allocate the warm buffer");
      std::memset(warm_buf, 1, kWarmBytes);
    }
    auto &v = warm[{mix, mix == Mix::fixed ? size : 0, draw}];
    if (v.empty()) v = warm_calls(mix, size, draw);
    return v;
  }

  ClearFn kernel(const Spec &s) {
    std::string key = format_spec(s);
    auto it = kernels.find(key);
    if (it == kernels.end()) {
      auto code = compile_kernel(s, cpu);
      if (!code) throw std::runtime_error("cannot measure " + key + ": " + code.error);
      it = kernels.emplace(key, std::move(code.value.value())).first;
    }
    return it->second->fn;
  }

  // Destinations for `size`. Scattered: line-aligned slots spread over the whole arena (so
  // small sizes are cold too), visited in a shuffled order so prefetchers cannot run ahead.
  // Consecutive: adjacent pieces from the start of the arena on, wrapping at its end (the arena
  // is 4x the L3, so a wrapped region is cold again). Cached: below.
  Slots &slots_for(uint64_t size, Pattern pattern) {
    Slots &s = slots[{size, pattern}];
    if (s.count == 0) {
      const uint64_t piece = (size + 63) / 64 * 64;
      // Cached: half the L2 at the arena's end (far from where consecutive clears start), cleared
      // piece by piece, round and round: memset finds each piece in the L2, and no clear
      // repeats the one just before (clzero over lines it has just cleared waits for them,
      // experiments/nt_cached.cpp), unless one piece is all there is.
      if (pattern == Pattern::cached) {
        s.count = std::max<uint64_t>(1, cpu.l2_bytes() / 2 / piece);
        s.stride = piece;
        const uint64_t first = arena_bytes / piece - s.count;
        for (uint64_t k = 0; k < s.count; ++k)
          s.order.push_back(uint32_t(first + k));
        return s;
      }
      // Hot: one region at the arena's end, of one batch's pieces (a job that is not batched uses
      // the first), used by the caller before each clear.
      if (pattern == Pattern::hot) {
        s.count = batch_pieces(size);
        s.stride = piece;
        s.order.push_back(uint32_t(arena_bytes / piece - s.count));
        return s;
      }
      if (pattern == Pattern::consecutive) { // slot k at k * piece: no order to keep
        s.count = std::max<uint64_t>(1, arena_bytes / piece);
        s.stride = piece;
        return s;
      }
      s.count = std::max<uint64_t>(1, std::min<uint64_t>(arena_bytes / piece, 1u << 20));
      s.stride = arena_bytes / s.count / 64 * 64;
      s.order.resize(s.count);
      std::iota(s.order.begin(), s.order.end(), 0u);
      std::shuffle(s.order.begin(), s.order.end(), std::mt19937(uint32_t(size)));
    }
    return s;
  }
};

HostMeter::HostMeter(const CpuInfo &cpu, uint64_t max_size)
    : impl_(std::make_unique<Impl>(cpu, max_size)) {}
HostMeter::~HostMeter() = default;
uint64_t HostMeter::arena_bytes() const { return impl_->arena_bytes; }

namespace {
// A repetition takes about 1.2x min_time (Google Benchmark grows the iteration count in steps)
// or one clear at 24 GB/s, whichever is longer; reuse adds a read pass, untouched memory its
// faults. A first guess only:
// later batches calibrate it on the host.
double raw_estimate(const std::vector<Job> &jobs, const MeasureOptions &o) {
  double s = 0;
  for (const Job &j : jobs) {
    double one = j.warm ? 0 : double(j.size) * (j.intent == Intent::reuse ? 1.5 : 1) / 24e9;
    // Untouched memory: its page faults, guessed at 1.4 ns per byte until calibrated.
    if (j.pattern == Pattern::untouched) one += double(j.size) * 1.4e-9;
    s += o.repetitions * std::max(1.2 * o.min_time, one);
  }
  return s;
}
} // namespace

double HostMeter::estimate_seconds(const std::vector<Job> &jobs, const MeasureOptions &o) const {
  return raw_estimate(jobs, o) * impl_->calibration;
}

namespace {

// Collects every repetition's GB/s; Google Benchmark's own console output stays off.
class Collector : public benchmark::BenchmarkReporter {
public:
  explicit Collector(std::vector<Measurement> &out) : out_(out) {}
  bool ReportContext(const Context &) override { return true; }
  void ReportRuns(const std::vector<Run> &runs) override {
    for (const Run &r : runs) {
      if (r.run_type != Run::RT_Iteration || r.error_occurred || r.real_accumulated_time <= 0)
        continue;
      size_t idx =
          std::stoul(r.run_name.function_name.substr(r.run_name.function_name.rfind('#') + 1));
      Measurement &m = out_[idx];
      // Warm calls take a few ns: the thread's CPU time, so that a preemption by another process
      // on this shared machine does not count as the call's time (cold jobs keep wall time).
      if (m.warm) // an iteration is the whole call sequence
        m.samples.push_back(r.cpu_accumulated_time / double(r.iterations) / kWarmCalls * 1e9);
      else
        m.samples.push_back(double(m.size) * double(r.iterations) / r.real_accumulated_time / 1e9);
    }
  }

private:
  std::vector<Measurement> &out_;
};

} // namespace

// Progress on stderr: a bar with ETA on a terminal, a line per 10% otherwise.
class Progress {
public:
  Progress(bool on, std::string label, double total)
      : on_(on), label_(std::move(label)), total_(total) {
    tty_ = isatty(STDERR_FILENO);
    start_ = Clock::now();
  }
  ~Progress() {
    if (on_ && tty_) std::fprintf(stderr, "\r\033[K");
  }
  void add(double done) {
    if (!on_ || total_ <= 0) return;
    done_ += done;
    double f = std::min(done_ / total_, 0.99);
    double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    double eta = f > 0.02 ? elapsed * (1 - f) / f : 0;
    if (tty_) {
      int width = 30, fill = int(f * width);
      std::fprintf(stderr, "\r\033[K%s [%s%s] %3d%%  ETA %s", label_.c_str(),
                   std::string(fill, '#').c_str(), std::string(width - fill, '.').c_str(),
                   int(f * 100), format_eta(eta).c_str());
    } else if (int(f * 10) > last_decile_) {
      last_decile_ = int(f * 10);
      std::fprintf(stderr, "%s: %d%%, ETA %s\n", label_.c_str(), last_decile_ * 10,
                   format_eta(eta).c_str());
    }
  }

private:
  bool on_, tty_ = false;
  std::string label_;
  double total_, done_ = 0;
  int last_decile_ = 0;
  Clock::time_point start_;
};

void HostMeter::register_jobs(const std::vector<Job> &jobs, const MeasureOptions &o) {
  register_with(jobs, o, nullptr);
}

namespace {

// A warm repetition: each iteration runs the whole call sequence from the generated loop, which
// calls `*slot` with `arg` (warmloop.hpp); the contender is the only difference.
auto warm_body(WarmLoopFn loop, const std::vector<WarmCall> &calls, uint8_t *buf,
               const void *const *slot, uint64_t arg, Progress *progress, double rep_estimate,
               double min_time) {
  return [=, &calls](benchmark::State &st) {
    uint64_t sink = 0;
    auto t0 = Clock::now();
    for (auto _ : st)
      sink += loop(calls.data(), buf, kWarmCalls, slot, arg);
    benchmark::DoNotOptimize(sink);
    // Google Benchmark's own reporters (clearjit_bench) show an iteration, kWarmCalls calls: this
    // column is the time of one.
    st.counters["per_call"] =
        benchmark::Counter(double(st.iterations()) * kWarmCalls,
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    if (progress && std::chrono::duration<double>(Clock::now() - t0).count() >= 0.9 * min_time)
      progress->add(rep_estimate);
  };
}

// What the loops call through: a function's address in memory, as a GOT entry holds it.
void *(*const kMemsetSlot)(void *, int, size_t) = &std::memset;
void (*const kExportedSlot[2])(const clearjit *, void *, size_t) = {&clearjit_clear,
                                                                    &clearjit_clear_stream};

} // namespace

namespace {

// What a caller that used the destination just before clearing it leaves: every line written
// (dirty) and read, in L1, L2 or L3 by its size.
__attribute__((noinline)) uint64_t touch_pass(uint8_t *p, uint64_t n) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < n; i += 64) {
    *reinterpret_cast<volatile uint64_t *>(p + i) = i;
    sum += *reinterpret_cast<const volatile uint64_t *>(p + i);
  }
  return sum;
}

// The first use of memory just cleared: one store per 4 KiB page, which faults in a page the
// clear left to the kernel (untouched=skip) and finds the others in place.
__attribute__((noinline)) uint64_t first_use(uint8_t *p, uint64_t n) {
  for (uint64_t i = 0; i < n; i += 4096)
    *reinterpret_cast<volatile uint8_t *>(p + i) = 1;
  return n / 4096;
}

// One timed clear of a cold job, as the job says: a kernel, or a dispatcher called as an
// application calls it (directly, in a batch, or on several threads).
struct ClearOne {
  ClearFn fn;
  const clearjit *cj;
  bool reuse, batched, parallel;
  unsigned threads;
  void operator()(clearjit_batch &batch, uint8_t *dst, uint64_t size) const {
    if (!cj)
      fn(dst, size);
    else if (parallel)
      clearjit_clear_parallel(cj, reuse ? CLEARJIT_REUSE : CLEARJIT_STREAM, dst, size, threads);
    else if (batched)
      (clearjit_batch_clear)(&batch, dst, size);
    else if (reuse) // direct calls, as in an application
      clearjit_clear(cj, dst, size);
    else
      clearjit_clear_stream(cj, dst, size);
  }
  // Ends a batch (one sfence for all its pieces) and opens the next.
  void end_batch(clearjit_batch &batch, bool reopen) const {
    if (cj) {
      (clearjit_batch_end)(&batch);
      if (reopen) clearjit_batch_begin(&batch, cj);
    } else {
      asm volatile("sfence" ::: "memory");
    }
  }
};

using Done = std::function<void(benchmark::State &, uint64_t, Clock::time_point)>;

// Pattern::untouched: each clear on a new mapping, mapped and unmapped outside the timed part;
// timed are the clear, the first use and reuse's read pass.
benchmark::internal::Benchmark *register_untouched(const std::string &name, const ClearOne &clear,
                                                   uint64_t size, const Done &done) {
  if (clear.batched) throw std::logic_error("untouched destinations are not measured in batches");
  auto *b = benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State &st) {
    uint64_t sink = 0;
    clearjit_batch batch{};
    const auto t0 = Clock::now();
    for (auto _ : st) {
      void *m = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED) {
        st.SkipWithError("cannot map an untouched destination");
        break;
      }
      uint8_t *dst = static_cast<uint8_t *>(m);
      const auto start = Clock::now();
      clear(batch, dst, size);
      sink += first_use(dst, size);
      if (clear.reuse) sink += read_pass(dst, size);
      st.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
      munmap(m, size);
    }
    done(st, sink, t0);
  });
  b->UseManualTime();
  return b;
}

} // namespace

void HostMeter::register_with(const std::vector<Job> &jobs, const MeasureOptions &o,
                              Progress *progress) {
  benchmark::ClearRegisteredBenchmarks();
  impl_->fn_slots.clear(); // the benchmarks that called through them are gone
  for (size_t i = 0; i < jobs.size(); ++i) {
    const Job &j = jobs[i];
    if (j.warm) {
      register_warm(j, i, o, progress);
      continue;
    }
    ClearFn fn = j.fn;
    if (!fn && !j.cj) {
      Spec measured = kernel_of(j);
      if (j.batched) measured.fence = Fence::none; // the batch fences, not each clear
      fn = impl_->kernel(measured);
    }
    const ClearOne clear{fn, j.cj, j.intent == Intent::reuse, j.batched, j.parallel, j.threads};
    // Untouched maps its own destinations: the scattered slots, which it never uses.
    Impl::Slots &slots =
        impl_->slots_for(j.size, j.pattern == Pattern::untouched ? Pattern::scattered : j.pattern);
    const std::vector<uint32_t> &order = slots.order;
    const uint64_t stride = slots.stride, count = slots.count;
    size_t &next = slots.next;
    uint8_t *arena = impl_->arena;
    const uint64_t size = j.size;
    const bool reuse = clear.reuse, batched = j.batched;
    const uint64_t pieces = batch_pieces(size);
    const double rep_estimate = estimate_seconds({j}, o) / o.repetitions;
    std::string name = j.candidate.name() + "/" + std::to_string(size) + "/" +
                       std::string(intent_name(j.intent)) + "/" +
                       std::string(pattern_name(j.pattern)) + (batched ? "/batched" : "") + "#" +
                       std::to_string(i);
    const double min_time = o.min_time;
    auto done = [=](benchmark::State &st, uint64_t sink, Clock::time_point t0) {
      benchmark::DoNotOptimize(sink);
      st.SetBytesProcessed(int64_t(st.iterations() * size));
      // Only the final trial of a repetition runs for min_time; count it as one repetition.
      if (progress && std::chrono::duration<double>(Clock::now() - t0).count() >= 0.9 * min_time)
        progress->add(rep_estimate);
    };
    benchmark::internal::Benchmark *b;
    if (j.pattern == Pattern::untouched) {
      b = register_untouched(name, clear, size, done);
    } else if (j.pattern == Pattern::hot) {
      // Hot: one region of `pieces` destinations (one unless batched), used by the caller
      // (touch_pass) before it is cleared piece by piece, outside the timed part; each clear
      // (with reuse's read pass, and a batch's fence after its last piece) is timed on its own.
      const uint64_t in_region = batched ? pieces : 1, region = in_region * stride;
      uint8_t *base = arena + order[0] * stride;
      b = benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State &st) {
        uint64_t sink = 0, k = 0;
        clearjit_batch batch{};
        if (clear.cj && batched) clearjit_batch_begin(&batch, clear.cj);
        const auto t0 = Clock::now();
        for (auto _ : st) {
          if (k == 0) sink += touch_pass(base, region);
          const auto start = Clock::now();
          clear(batch, base + k * stride, size);
          if (reuse) sink += read_pass(base + k * stride, size);
          if (++k == in_region) {
            k = 0;
            if (batched) clear.end_batch(batch, true);
          }
          st.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
        }
        if (clear.cj && batched) (clearjit_batch_end)(&batch);
        done(st, sink, t0);
      });
      b->UseManualTime();
    } else {
      b = benchmark::RegisterBenchmark(name.c_str(), [=, &order, &next](benchmark::State &st) {
        uint64_t sink = 0, in_batch = 0;
        clearjit_batch batch{};
        if (clear.cj && batched) clearjit_batch_begin(&batch, clear.cj);
        const auto t0 = Clock::now();
        for (auto _ : st) {
          uint8_t *dst = arena + (order.empty() ? next : order[next]) * stride;
          next = next + 1 == count ? 0 : next + 1;
          clear(batch, dst, size);
          if (reuse) sink += read_pass(dst, size);
          if (batched && ++in_batch == pieces) {
            in_batch = 0;
            clear.end_batch(batch, true);
          }
        }
        // The last, partial batch is fenced outside the timed loop: one fence of many.
        if (batched) clear.end_batch(batch, false);
        done(st, sink, t0);
      });
      b->UseRealTime();
    }
    b->Repetitions(o.repetitions)->MinTime(o.min_time);
  }
}

void HostMeter::register_warm(const Job &j, size_t index, const MeasureOptions &o,
                              Progress *progress) {
  const std::vector<WarmCall> &calls = impl_->warm_for(j.mix, j.size, j.draw);
  uint8_t *buf = impl_->warm_buf;
  const bool reuse = j.intent == Intent::reuse;
  const double rep = estimate_seconds({j}, o) / o.repetitions;
  std::string name = j.candidate.name() + "/warm/" + std::string(mix_name(j.mix)) + "/" +
                     std::to_string(j.size) + "/" + std::string(intent_name(j.intent)) + "#" +
                     std::to_string(index);
  const clearjit *cj = j.cj;
  const void *const *slot = nullptr;
  uint64_t arg = kClearFnArg;
  switch (j.call) {
  case Call::kernel:
    impl_->fn_slots.push_back(std::make_unique<const void *>(
        reinterpret_cast<const void *>(j.fn ? j.fn : impl_->kernel(kernel_of(j)))));
    slot = impl_->fn_slots.back().get();
    break;
  case Call::exported:
    slot = reinterpret_cast<const void *const *>(&kExportedSlot[reuse ? 0 : 1]);
    arg = reinterpret_cast<uintptr_t>(cj);
    break;
  case Call::inlined:
    slot = reinterpret_cast<const void *const *>(reuse ? &cj->clear : &cj->clear_stream);
    break;
  case Call::memset:
    slot = reinterpret_cast<const void *const *>(&kMemsetSlot);
    arg = kMemsetArg;
    break;
  }
  WarmLoopFn loop = impl_->loops().at(j.place, j.call == Call::exported, reuse);
  auto body = warm_body(loop, calls, buf, slot, arg, progress, rep, o.min_time);
  benchmark::RegisterBenchmark(name.c_str(), body)
      ->Repetitions(o.repetitions)
      ->MinTime(o.min_time)
      ->UseRealTime();
}

std::string benchmark_flags_error(const std::vector<std::string> &flags) {
  // Google Benchmark answers a bad format with its usage and exit(0): refuse it here instead.
  for (const std::string &f : flags)
    for (std::string_view name : {"--benchmark_format=", "--benchmark_out_format="})
      if (f.starts_with(name) && f != std::string(name) + "console" &&
          f != std::string(name) + "json" && f != std::string(name) + "csv")
        return "Google Benchmark flag '" + f + "' takes console, json or csv";
  // Google Benchmark reads its flags once from argv: ours first, the caller's pass-through after
  // so they win.
  std::vector<std::string> args{"clearjit", "--benchmark_enable_random_interleaving=true"};
  args.insert(args.end(), flags.begin(), flags.end());
  std::vector<char *> argv;
  for (auto &a : args)
    argv.push_back(a.data());
  int argc = int(argv.size());
  benchmark::Initialize(&argc, argv.data());
  if (argc > 1)
    return std::string("Google Benchmark does not take '") + argv[1] +
           "' (an unknown flag or a bad value)";
  return {};
}

std::vector<Measurement> HostMeter::run(const std::vector<Job> &jobs, const MeasureOptions &o) {
  std::vector<Measurement> out(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i)
    out[i] = Measurement{jobs[i].candidate,
                         jobs[i].size,
                         jobs[i].intent,
                         {},
                         0,
                         0,
                         0,
                         jobs[i].pattern,
                         jobs[i].batched,
                         jobs[i].warm,
                         jobs[i].mix,
                         jobs[i].threads};

  if (std::string e = benchmark_flags_error(o.benchmark_flags); !e.empty())
    throw std::runtime_error(e);

  Progress progress(o.progress, o.label, estimate_seconds(jobs, o));
  register_with(jobs, o, &progress);
  Collector collector(out);
  auto t0 = Clock::now();
  benchmark::RunSpecifiedBenchmarks(&collector);
  // Large batches teach the estimator this machine's real speed (bounded: one odd batch must
  // not make the plan absurd).
  double raw = raw_estimate(jobs, o),
         took = std::chrono::duration<double>(Clock::now() - t0).count();
  if (raw > 0.5) impl_->calibration = std::clamp(took / raw, 0.5, 3.0);
  benchmark::ClearRegisteredBenchmarks();
  for (Measurement &m : out)
    summarize(m);
  return out;
}

} // namespace cjit::detail
