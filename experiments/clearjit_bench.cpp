// The comparisons of `clearjit bench` as a Google Benchmark binary, for people who use its flags
// and reporters (--benchmark_filter, --benchmark_format=json, --benchmark_repetitions, ...).
// Names: <kernel or "tuned">/<size>/<intent>#<index>; warm rows <label>/warm/<mix>/<size>/<intent>,
// where an iteration is 4096 calls and the per_call column is one call's time. CLEARJIT_PROFILE
// picks the profile.
#include "tuner/bench/bench.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  try {
    const cjit::detail::CpuInfo &cpu = cjit::detail::host_cpu();
    cjit::detail::BenchOptions o;
    o.sizes = cjit::detail::default_bench_sizes();
    o.repetitions = 1; // --benchmark_repetitions decides
    cjit::detail::HostMeter bench(cpu, o.sizes.back());
    cjit::detail::BenchPlan c = cjit::detail::plan_bench(o, cpu);
    std::fprintf(stderr, "profile: %s\n", c.source.c_str());
    cjit::detail::MeasureOptions m;
    m.repetitions = 1;
    m.min_time = 0.05;
    m.progress = false;
    bench.register_jobs(c.jobs, m);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "clearjit_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
