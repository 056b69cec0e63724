// The comparisons of `clearjit bench` as a Google Benchmark binary, for people who use its flags
// and reporters (--benchmark_filter, --benchmark_format=json, --benchmark_repetitions, ...).
// Names: <kernel or "tuned">/<size>/<intent>#<index>. CLEARJIT_PROFILE picks the profile.
#include "compare.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  try {
    const cjit::CpuInfo &cpu = cjit::host_cpu();
    cjit::CompareOptions o;
    o.sizes = cjit::default_compare_sizes();
    o.repetitions = 1; // --benchmark_repetitions decides
    cjit::Bench bench(cpu, o.sizes.back());
    cjit::Comparison c = cjit::plan_comparison(o, cpu);
    std::fprintf(stderr, "profile: %s\n", c.source.c_str());
    cjit::MeasureOptions m;
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
