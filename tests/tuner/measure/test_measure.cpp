// What the tuner measures (tuner/measure/measure.cpp), without measuring: the warm calls' sizes
// and places, jobs and their copies, selecting and pooling measurements, the arena's size and
// the names outputs print. HostMeter's timings are the benchmarks' subject (experiments/), not a
// test's.
#include "tuner/measure/measure.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace cjit::detail {
namespace {

TEST(measure_WarmCalls, StayInTheBufferAndDrawTheirMix) {
  for (Mix mix : {Mix::fixed, Mix::log_uniform, Mix::objects}) {
    const uint64_t size = mix == Mix::fixed ? 200 : 0;
    const std::vector<WarmCall> calls = warm_calls(mix, size);
    ASSERT_EQ(calls.size(), kWarmCalls);
    for (size_t k = 0; k < calls.size(); ++k) {
      const WarmCall &c = calls[k];
      ASSERT_LE(c.off + c.n, kWarmBytes) << mix_name(mix) << ": call " << k;
      ASSERT_LT(c.off, kWarmLines * 64) << mix_name(mix) << ": call " << k;
      if (mix == Mix::fixed) {
        ASSERT_EQ(c.n, size) << k;
        ASSERT_EQ(c.off % 64, k % 64) << "offsets 0..63 in turn";
      } else {
        ASSERT_GE(c.n, 1u) << mix_name(mix) << ": call " << k;
        ASSERT_LE(c.n, 256u) << mix_name(mix) << ": call " << k;
      }
    }
  }
}

TEST(measure_WarmCalls, TheSameSequenceForTheSameDrawAndAnotherForAnother) {
  const auto same = [](const std::vector<WarmCall> &a, const std::vector<WarmCall> &b) {
    for (size_t k = 0; k < a.size(); ++k)
      if (a[k].off != b[k].off || a[k].n != b[k].n) return false;
    return a.size() == b.size();
  };
  const std::vector<WarmCall> a = warm_calls(Mix::objects, 0);
  EXPECT_TRUE(same(a, warm_calls(Mix::objects, 0)));
  EXPECT_FALSE(same(a, warm_calls(Mix::objects, 0, 1))) << "draw 1: the verification's";
  EXPECT_FALSE(same(a, warm_calls(Mix::log_uniform, 0)));
}

TEST(measure_WarmCalls, LogUniformGivesEveryOctaveItsShareAndObjectsMultiplesOfEight) {
  std::map<int, size_t> octaves; // floor(log2 n) for n in 1..255
  for (const WarmCall &c : warm_calls(Mix::log_uniform, 0))
    if (c.n < 256) ++octaves[int(std::log2(double(c.n)))];
  ASSERT_EQ(octaves.size(), 8u);
  for (const auto &[octave, calls] : octaves) {
    const double share = double(calls) / kWarmCalls; // log(2) / log(257): 0.125
    EXPECT_GT(share, 0.11) << "octave from " << (1 << octave);
    EXPECT_LT(share, 0.14) << "octave from " << (1 << octave);
  }
  size_t eights = 0, up_to_64 = 0; // objects: 40% 8..64 in eights, 20% 80..256 in sixteens
  for (const WarmCall &c : warm_calls(Mix::objects, 0)) {
    eights += c.n % 8 == 0;
    up_to_64 += c.n <= 64;
  }
  EXPECT_GT(double(eights) / kWarmCalls, 0.6);
  EXPECT_GT(double(up_to_64) / kWarmCalls, 0.75);
  EXPECT_LT(double(up_to_64) / kWarmCalls, 0.85);
}

Measurement of(const char *kernel, Intent i, Pattern p, bool batched,
               std::vector<double> samples = {1}) {
  Measurement m;
  m.candidate = *parse_spec(kernel);
  m.intent = i;
  m.pattern = p;
  m.batched = batched;
  m.samples = std::move(samples);
  return m;
}

TEST(measure, SelectKeepsOneIntentPatternAndBatching) {
  const std::vector<Measurement> ms{of("avx2", Intent::reuse, Pattern::scattered, false),
                                    of("sse", Intent::stream, Pattern::scattered, false),
                                    of("mov", Intent::stream, Pattern::scattered, true),
                                    of("stosb", Intent::stream, Pattern::hot, false),
                                    of("movnti", Intent::stream, Pattern::scattered, false)};
  const auto names = [](const std::vector<Measurement> &v) {
    std::vector<std::string> out;
    for (const Measurement &m : v)
      out.push_back(m.candidate.name());
    return out;
  };
  EXPECT_EQ(names(select(ms, Intent::stream, Pattern::scattered)),
            (std::vector<std::string>{"sse", "movnti"}));
  EXPECT_EQ(names(select(ms, Intent::stream, Pattern::scattered, true)),
            std::vector<std::string>{"mov"});
  EXPECT_EQ(names(select(ms, Intent::reuse, Pattern::scattered)), std::vector<std::string>{"avx2"});
  EXPECT_TRUE(select(ms, Intent::reuse, Pattern::hot).empty());
  EXPECT_TRUE(plain(ms[0]));
  EXPECT_FALSE(plain(ms[2])) << "batched";
  EXPECT_FALSE(plain(ms[3])) << "hot";
}

TEST(measure, SummarizeTakesTheMedianAndSpread) {
  Measurement m = of("avx2", Intent::reuse, Pattern::scattered, false, {3, 1, 2, 10, 4});
  summarize(m);
  EXPECT_EQ(m.gbps, 3);
  EXPECT_EQ(m.ns, 0) << "cold: GB/s";
  EXPECT_NEAR(m.cv, cv({3, 1, 2, 10, 4}), 1e-12);
  EXPECT_GT(m.cv, 0.5);
  Measurement w = m;
  w.warm = true;
  w.gbps = 0;
  summarize(w);
  EXPECT_EQ(w.ns, 3) << "warm: ns per call";
  EXPECT_EQ(w.gbps, 0);
  Measurement none = of("avx2", Intent::reuse, Pattern::scattered, false, {});
  none.gbps = 7;
  summarize(none);
  EXPECT_EQ(none.gbps, 7) << "no samples: left as it was";
}

TEST(measure, AddSamplesTakesTheFirstWholeThenItsSamples) {
  Measurement pooled;
  Measurement a = of("avx2", Intent::stream, Pattern::hot, true, {1, 2});
  add_samples(pooled, a);
  EXPECT_EQ(pooled.candidate.name(), "avx2");
  EXPECT_EQ(pooled.pattern, Pattern::hot);
  EXPECT_TRUE(pooled.batched);
  EXPECT_EQ(pooled.samples, (std::vector<double>{1, 2}));
  add_samples(pooled, of("sse", Intent::reuse, Pattern::scattered, false, {5}));
  EXPECT_EQ(pooled.samples, (std::vector<double>{1, 2, 5}));
  EXPECT_EQ(pooled.candidate.name(), "avx2") << "the first one's identity stays";
  summarize(pooled);
  EXPECT_EQ(pooled.gbps, 2);
}

TEST(measure, JobsAndTheirCopies) {
  const Job j(*parse_spec("avx2"), 4096, Intent::stream);
  const Job hot = in_pattern(j, Pattern::hot, true);
  EXPECT_EQ(hot.pattern, Pattern::hot);
  EXPECT_TRUE(hot.batched);
  EXPECT_EQ(hot.candidate, j.candidate);
  EXPECT_EQ(hot.size, 4096u);
  EXPECT_EQ(in_pattern(hot, Pattern::consecutive).batched, false) << "not batched unless asked";
  const Job w = warm_job(Candidate::labelled("tuned"), Call::exported, Intent::reuse, 0,
                         Mix::log_uniform, nullptr, nullptr, 3);
  EXPECT_TRUE(w.warm);
  EXPECT_EQ(w.call, Call::exported);
  EXPECT_EQ(w.mix, Mix::log_uniform);
  EXPECT_EQ(w.place, 3);
  EXPECT_EQ(w.intent, Intent::reuse);
  EXPECT_FALSE(w.parallel);
  const Job p = parallel_job(parallel_label(4), nullptr, 1 << 30, Intent::stream, 4);
  EXPECT_TRUE(p.parallel);
  EXPECT_EQ(p.threads, 4u);
  EXPECT_EQ(p.size, 1u << 30);
  EXPECT_FALSE(p.warm);
}

TEST(measure, TheArenaIsTheLargestOfItsFloorsInHugePages) {
  CpuInfo cpu;
  cpu.l3.size = 32 << 20;
  const uint64_t MiB = 1 << 20;
  EXPECT_EQ(arena_bytes_for(cpu, 4096), 512 * MiB) << "the floor";
  cpu.l3.size = 256 * MiB;
  EXPECT_EQ(arena_bytes_for(cpu, 4096), 1024 * MiB) << "four L3s";
  EXPECT_EQ(arena_bytes_for(cpu, 3000 * MiB + 1), 3002 * MiB) << "the size, in 2 MiB pages";
  EXPECT_EQ(hot_limit(cpu), 256 * MiB);
  cpu.l3.size = 0;
  cpu.l2.size = 2 * MiB;
  EXPECT_EQ(hot_limit(cpu), 32 * MiB) << "an unknown L3 is taken as 32 MiB";
}

TEST(measure, NamesAndBatches) {
  for (const auto &[pattern, name] : kPatternNames)
    EXPECT_EQ(pattern_name(pattern), name);
  EXPECT_EQ(pattern_name(Pattern::cached), "cached");
  EXPECT_EQ(mix_name(Mix::fixed), "fixed");
  EXPECT_EQ(mix_name(Mix::log_uniform), "log-uniform 1..256 B");
  EXPECT_EQ(mix_name(Mix::objects), "objects 1..256 B");
  EXPECT_EQ(batch_pieces(4096), 512u);
  EXPECT_EQ(batch_pieces(3000), 699u);
  EXPECT_EQ(batch_pieces(kBatchBytes), 1u);
  EXPECT_EQ(batch_pieces(3 * kBatchBytes), 1u);
}

TEST(measure_HostMeter, RefusesAnArenaBeyondAnyMachine) {
  const CpuInfo cpu;
  try {
    HostMeter bench(cpu, (uint64_t(1) << 40) + 1);
    FAIL() << "a 1 TiB arena was mapped";
  } catch (const std::invalid_argument &e) {
    EXPECT_NE(std::string(e.what()).find("too large for a destination arena"), std::string::npos)
        << e.what();
  }
}

} // namespace
} // namespace cjit::detail
