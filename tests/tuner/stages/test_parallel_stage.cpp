// The parallel stage: its sizes and counts, the thread-count races on a Meter of synthetic
// timings (no timing is measured or asserted), and how the summary, the report and the profile
// show the counts.
#include "tests/support/synthetic_meter.hpp"
#include "tuner/report/outputs.hpp"
#include "tuner/stages/parallel_stage.hpp"
#include "tuner/stages/tune.hpp"

#include <gtest/gtest.h>

using namespace cjit;
using namespace cjit::detail;
using cjit::test::SyntheticMeter;

namespace {

const uint64_t MiB = 1024 * 1024;

const std::string kOne = "clearjit_clear_parallel threads=1";

std::string threads(unsigned n) { return "clearjit_clear_parallel threads=" + std::to_string(n); }

// Sets `count` threads at `factor` times one thread's speed at `size` (one thread runs at
// memset's unless set).
void set(SyntheticMeter &bench, unsigned count, uint64_t size, double factor) {
  bench.set_at(threads(count), size, factor);
}

RaceOptions options(int max_rounds = 20) {
  RaceOptions o;
  o.confidence = 0.95;
  o.max_rounds = max_rounds;
  return o;
}

MeasureOptions measure() { return {.repetitions = 1, .min_time = 0.001}; }

// A measurement of `candidate` at `gbps`, five samples.
Measurement point(const std::string &candidate, unsigned threads, uint64_t size, double gbps) {
  Measurement m{candidate == "libc"
                    ? memset_candidate()
                    : thread_count_named(candidate).value_or(Candidate::labelled(candidate)),
                size,
                Intent::stream,
                {},
                0,
                0};
  m.samples = {gbps, gbps, gbps, gbps, gbps};
  m.threads = threads;
  summarize(m);
  return m;
}

} // namespace

TEST(parallel_stage, ThreadsThatPayAreChosenWithTheirSpeedup) {
  // Shaped like the Intel Xeon family 6 model 207 host's ntavx512 over 1 GiB (19.5 GB/s on one
  // thread, 33.7..39.3 on two): 1.9x at 1 GiB, nothing at 8 MiB.
  SyntheticMeter bench(0.05, 7);
  set(bench, 2, 1024 * MiB, 1.9);
  const ParallelStudy s =
      race_threads(bench, nullptr, {8 * MiB, 1024 * MiB}, {1, 2}, options(), measure(), 0);
  ASSERT_TRUE(s.stream && s.reuse);
  EXPECT_EQ(s.stream->sizes, (std::vector<uint64_t>{8 * MiB, 1024 * MiB}));
  EXPECT_EQ(s.stream->threads, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(s.reuse->threads, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(s.stream->speedup[0], 1);
  EXPECT_NEAR(s.stream->speedup[1], 1.9, 0.1);
  EXPECT_EQ(s.stream->from(), 1024 * MiB);
  ASSERT_EQ(s.races.size(), 4u);
  EXPECT_NE(s.races[1].find("parallel reuse 1 GiB"), std::string::npos) << s.races[1];
  EXPECT_NE(s.races[1].find("settled: " + threads(2)), std::string::npos) << s.races[1];
}

TEST(parallel_stage, AGainInsideTheNoiseIsOneThread) {
  // Zen 5 (AMD family 26 model 2): 83.4 GB/s on one thread, 83.5 on two at 1 GiB stream. 5%
  // faster under 5% noise is below kParallelGain: one thread, for every seed.
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    SyntheticMeter bench(0.05, seed);
    set(bench, 2, 1024 * MiB, 1.05);
    const ParallelStudy s =
        race_threads(bench, nullptr, {1024 * MiB}, {1, 2}, options(), measure(), 0);
    EXPECT_EQ(s.stream->threads, (std::vector<unsigned>{1})) << "seed " << seed;
  }
}

TEST(parallel_stage, TheFewestCountThatSaturatesWins) {
  // Four CPUs that saturate the memory at two: 2, 3 and 4 threads run alike.
  SyntheticMeter bench(0.02, 3);
  for (unsigned n : {2u, 3u, 4u})
    set(bench, n, 256 * MiB, 2.0);
  const ParallelStudy s =
      race_threads(bench, nullptr, {256 * MiB}, {1, 2, 3, 4}, options(), measure(), 0);
  EXPECT_EQ(s.stream->threads, (std::vector<unsigned>{2}));
  EXPECT_EQ(s.reuse->threads, (std::vector<unsigned>{2}));
}

TEST(parallel_stage, BelowTwoBoundariesOneThreadUnraced) {
  // 2 MiB has no 2 MiB boundary to cut at: two threads are the same call, whatever it measures.
  SyntheticMeter bench(0.05, 1);
  set(bench, 2, 2 * MiB, 2.0);
  const ParallelStudy s = race_threads(bench, nullptr, {2 * MiB}, {1, 2}, options(), measure(), 0);
  EXPECT_EQ(s.stream->threads, (std::vector<unsigned>{1}));
  EXPECT_EQ(s.stream->speedup, (std::vector<double>{1}));
  ParallelStudy shown = s;
  shown.cpus = 2;
  const std::string text = parallel_text(shown);
  EXPECT_NE(text.find("            -   1\n"), std::string::npos)
      << "two threads not measured: " << text;
}

TEST(parallel_stage, MemsetIsMeasuredBesideEveryRound) {
  SyntheticMeter bench(0.05, 5);
  bench.set("libc", 0.5);
  const ParallelStudy s = race_threads(bench, nullptr, {64 * MiB}, {1, 2}, options(), measure(), 0);
  // Each race (one per intent) ran until two threads left it; memset (threads 0) was sampled
  // beside one thread in every round, and measured at half its speed.
  for (Intent intent : kIntents) {
    size_t memset_samples = 0, one_samples = 0;
    for (const Measurement &m : s.measurements) {
      if (m.intent != intent) continue;
      if (m.candidate.is_memset()) {
        EXPECT_EQ(m.threads, 0u);
        memset_samples += m.samples.size();
      }
      if (m.candidate.name() == kOne) one_samples += m.samples.size();
    }
    EXPECT_GE(one_samples, fewest_for(0.95));
    EXPECT_EQ(memset_samples, one_samples);
    EXPECT_NEAR(parallel_gbps(s, intent, 64 * MiB, 0), 5, 1);
    EXPECT_NEAR(parallel_gbps(s, intent, 64 * MiB, 1), 10, 2);
  }
}

TEST(parallel_stage, TheTimeLimitLeavesOneThread) {
  // No round fits: every size keeps one thread, however fast more threads would be.
  SyntheticMeter bench(0.05, 1);
  set(bench, 2, 1024 * MiB, 2.0);
  const ParallelStudy s =
      race_threads(bench, nullptr, {1024 * MiB}, {1, 2}, options(), measure(), 1e-6);
  EXPECT_EQ(s.stream->threads, (std::vector<unsigned>{1}));
  EXPECT_EQ(bench.jobs_run, 0u);
}

TEST(parallel_stage, SizesAndCounts) {
  EXPECT_EQ(parallel_sizes(4096, 1ull << 30).front(), 2 * MiB);
  EXPECT_EQ(parallel_sizes(4096, 1ull << 30).back(), 1024 * MiB);
  EXPECT_EQ(parallel_sizes(4096, 1ull << 30).size(), 10u);
  EXPECT_EQ(parallel_sizes(4096, 64ull << 30).size(), 10u) << "1 GiB at most";
  EXPECT_EQ(parallel_sizes(16 * MiB, 64 * MiB),
            (std::vector<uint64_t>{16 * MiB, 32 * MiB, 64 * MiB}));
  EXPECT_TRUE(parallel_sizes(4096, 4 * MiB - 1).empty()) << "nothing to split";
  EXPECT_EQ(parallel_counts(1), (std::vector<unsigned>{1}));
  EXPECT_EQ(parallel_counts(2), (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(parallel_counts(5), (std::vector<unsigned>{1, 2, 3, 4, 5}));
  EXPECT_EQ(parallel_counts(64), (std::vector<unsigned>{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}));
  EXPECT_EQ(parallel_counts(100).back(), 100u);
  EXPECT_EQ(parallel_counts(100000).back(), 256u) << "clearjit_clear_parallel's own bound";
}

TEST(parallel_stage, TheSummaryTheReportAndTheProfileShowTheCounts) {
  ParallelStudy s;
  s.cpus = 2;
  s.counts = {1, 2};
  s.sizes = {8 * MiB, 1024 * MiB};
  s.measurements = {point(kOne, 1, 8 * MiB, 30),      point(threads(2), 2, 8 * MiB, 31),
                    point(kOne, 1, 1024 * MiB, 19.5), point(threads(2), 2, 1024 * MiB, 37),
                    point("libc", 0, 8 * MiB, 20),    point("libc", 0, 1024 * MiB, 15)};
  s.stream = ParallelTable{.sizes = {8 * MiB, 1024 * MiB}, .threads = {1, 2}, .speedup = {1, 1.9}};
  const std::string text = parallel_text(s);
  EXPECT_NE(text.find("stream: threads pay from 1 GiB"), std::string::npos) << text;
  EXPECT_NE(text.find("reuse: more threads never paid"), std::string::npos) << text;
  EXPECT_NE(text.find("    1 GiB         15.0         19.5         37.0   2\n"), std::string::npos)
      << text;
  TuneResult r;
  r.parallel = s;
  const std::string html = report_html(r, CpuInfo{});
  EXPECT_NE(html.find("<h2>Several threads</h2>"), std::string::npos);
  EXPECT_NE(html.find("<tr><td>1 GiB</td><td class=\"n\">15.0</td><td class=\"n\">19.5</td><td "
                      "class=\"n\">37.0</td><td class=\"n\">2</td></tr>"),
            std::string::npos)
      << html;
  r.reuse = r.stream = {{0, default_spec(Method::libc), 10}};
  const std::string toml = profile_toml(r, CpuInfo{});
  EXPECT_NE(toml.find("[parallel]\ncpus = 2\n"), std::string::npos) << toml;
  EXPECT_NE(toml.find("[parallel.stream]\nfrom = 1073741824\nsizes = [8388608, 1073741824]\n"
                      "threads = [1, 2]\nspeedup = [1.00, 1.90]\n"),
            std::string::npos)
      << toml;
  EXPECT_EQ(toml.find("[parallel.reuse]"), std::string::npos) << "nothing measured for reuse";
  s.skipped = "one usable CPU: nothing to measure";
  r.parallel = s;
  EXPECT_EQ(profile_toml(r, CpuInfo{}).find("[parallel"), std::string::npos);
  EXPECT_EQ(report_html(r, CpuInfo{}).find("Several threads"), std::string::npos);
}
