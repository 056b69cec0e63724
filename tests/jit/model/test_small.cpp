// The small path's model (jit/model/small.cpp): its table, the strategies a CPU lacks features
// for refused, the CPU's default, and the profile key [small.<intent>] read, checked and
// defaulted. The generated small paths' clears are tests/jit/emit/test_emit_small.cpp's.
#include "jit/emit/emit.hpp"
#include "jit/model/small.hpp"
#include "jit/profile/profile.hpp"
#include "jit/runtime/runtime.hpp"
#include "tests/support/support.hpp"

#include "clearjit/clearjit.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace cjit::detail::test {
namespace {

// ---- The table and refusals ------------------------------------------------------------------

TEST(small_Table, NamesRoundTripAndRowsAreInEnumOrder) {
  size_t i = 0;
  for (const SmallInfo &s : small_strategies()) {
    EXPECT_EQ(size_t(s.strategy), i++);
    EXPECT_EQ(small_by_name(s.name), s.strategy);
    EXPECT_FALSE(s.description.empty());
  }
  EXPECT_FALSE(small_by_name("Masked"));
  EXPECT_FALSE(small_by_name(""));
}

CpuInfo avx512_cpu() {
  CpuInfo c;
  c.vendor = "AuthenticAMD";
  c.family = 26;
  c.model = 2;
  for (Feature f : {Feature::sse2, Feature::avx, Feature::avx2, Feature::avx512f, Feature::avx512bw,
                    Feature::avx512vl, Feature::bmi2, Feature::erms, Feature::fsrm})
    c.set(f);
  return c;
}

// masked needs AVX512F, AVX512BW, AVX512VL and BMI2; stosb needs ERMS and FSRM: take any one
// away and the strategy is refused with its name and the missing feature.
TEST(small_Refusal, EachMissingFeatureIsNamed) {
  for (const SmallInfo &s : small_strategies()) {
    EXPECT_EQ(small_unsupported_reason(s.strategy, avx512_cpu()), "") << s.name;
    for (Feature f : s.needs) {
      if (f == Feature::none) continue;
      CpuInfo c = avx512_cpu();
      c.set(f, false);
      const std::string why = small_unsupported_reason(s.strategy, c);
      EXPECT_NE(why.find(std::string(s.name)), std::string::npos) << why;
      EXPECT_NE(why.find(std::string(feature_name(f))), std::string::npos) << why;
    }
  }
  CpuInfo zen3 = avx512_cpu(); // Zen 3: AVX2, BMI2, ERMS, FSRM, no AVX-512
  for (Feature f : {Feature::avx512f, Feature::avx512bw, Feature::avx512vl})
    zen3.set(f, false);
  EXPECT_EQ(small_unsupported_reason(Small::masked, zen3),
            "small path masked needs AVX512F, which this CPU lacks");
  EXPECT_EQ(small_unsupported_reason(Small::stosb, zen3), "");
}

// masked wherever it runs, stosb for reuse on AMD family 26; the tree where masked cannot run.
TEST(small_Default, BestForTheCpuAndAlwaysRunnable) {
  const CpuInfo zen5 = avx512_cpu();
  // No rep stosb for reuse on family 26 since it lost at cold scattered destinations
  // (docs/results/amd-family26-model2/small-cold-stosb.txt): masked for both intents.
  EXPECT_EQ(default_small(zen5, Intent::reuse), (SmallPath{Small::masked, 256}));
  EXPECT_EQ(default_small(zen5, Intent::stream), (SmallPath{Small::masked, 256}));
  CpuInfo no_avx512bw = zen5, no_fsrm = zen5, zen4 = zen5, intel = zen5;
  no_avx512bw.set(Feature::avx512bw, false);
  EXPECT_EQ(default_small(no_avx512bw, Intent::reuse).strategy, Small::libc);
  EXPECT_EQ(default_small(no_avx512bw, Intent::stream).strategy, Small::libc);
  no_fsrm.set(Feature::fsrm, false);
  EXPECT_EQ(default_small(no_fsrm, Intent::reuse).strategy, Small::masked);
  EXPECT_EQ(default_small(no_fsrm, Intent::stream).strategy, Small::masked);
  CpuInfo family27 = zen5;
  zen4.family = 25;
  family27.family = 27;
  intel.vendor = "GenuineIntel";
  intel.family = 6;
  for (const CpuInfo &other : {zen4, family27})
    for (Intent i : kIntents)
      EXPECT_EQ(default_small(other, i), (SmallPath{Small::masked, 256}));
  // Elsewhere masked lost cold below 64 bytes (Intel family 6 model 207): memset there.
  for (Intent i : kIntents)
    EXPECT_EQ(default_small(intel, i), (SmallPath{Small::masked, 256, {{64, Small::libc}}}));
  for (Feature f : {Feature::avx512f, Feature::avx512bw, Feature::avx512vl, Feature::bmi2}) {
    CpuInfo without = intel;
    without.set(f, false);
    for (Intent i : kIntents)
      EXPECT_EQ(default_small(without, i), (SmallPath{Small::libc, 256}));
  }
  CpuInfo bare;
  bare.set(Feature::sse2);
  for (Intent i : kIntents) {
    EXPECT_EQ(small_unsupported_reason(default_small(bare, i).strategy, bare), "");
    EXPECT_EQ(small_unsupported_reason(default_small(host_cpu(), i).strategy, host_cpu()), "");
    EXPECT_TRUE(valid_small_max(default_small(host_cpu(), i).max));
  }
}

// ---- The profile key ---------------------------------------------------------------------------

//! `small` goes after [host] (tables), or first when it is a top-level key.
std::string profile_text(const std::string &small) {
  const bool key = small.rfind("small =", 0) == 0;
  return "format = 1\n" + (key ? small : "") +
         "[host]\nvendor = \"AuthenticAMD\"\nfamily = 26\nmodel = 2\n" + (key ? "" : small) +
         "\n[[dispatch.reuse]]\nkernel = \"stosb\"\n";
}

Result<Profile> parse(const std::string &small, const CpuInfo &cpu = avx512_cpu()) {
  return parse_profile(profile_text(small), "p.toml", cpu);
}

TEST(small_Profile, WithoutTheKeyTheCpuDefault) {
  auto p = parse("");
  ASSERT_TRUE(p) << p.error;
  EXPECT_FALSE(p->small_reuse);
  EXPECT_EQ(p->small(Intent::reuse, avx512_cpu()), default_small(avx512_cpu(), Intent::reuse));
  EXPECT_EQ(p->small(Intent::stream, avx512_cpu()), default_small(avx512_cpu(), Intent::stream));
}

TEST(small_Profile, ReadsBothIntentsAndStreamFallsBackToReuse) {
  auto p = parse("[small.reuse]\nstrategy = \"ladder\"\nmax = 512\n"
                 "[small.stream]\nstrategy = \"stosb\"\nmax = \"1KiB\"\n");
  ASSERT_TRUE(p) << p.error;
  EXPECT_EQ(p->small(Intent::reuse, avx512_cpu()), (SmallPath{Small::ladder, 512}));
  EXPECT_EQ(p->small(Intent::stream, avx512_cpu()), (SmallPath{Small::stosb, 1024}));
  auto q = parse("[small.reuse]\nstrategy = \"vec\"\nmax = 128\n");
  ASSERT_TRUE(q) << q.error;
  EXPECT_EQ(q->small(Intent::stream, avx512_cpu()), (SmallPath{Small::vec, 128}));
}

TEST(small_Profile, BadInputGetsAClearError) {
  struct Bad {
    const char *text, *expect;
  } bad[] = {
      {"small = 3\n", "p.toml:2: small: must be a table, got an integer"},
      {"[small]\nreuse = \"masked\"\n", "small.reuse: must be a table, got a string"},
      {"[small.reuse]\nmax = 256\n", "small.reuse.strategy: missing"},
      {"[small.reuse]\nstrategy = 1\nmax = 256\n", "small.reuse.strategy: must be a string"},
      {"[small.reuse]\nstrategy = \"fast\"\nmax = 256\n",
       "small.reuse.strategy: unknown strategy \"fast\" (known: tree, ladder, vec, masked, stosb, "
       "branchless, libc)"},
      {"[small.reuse]\nstrategy = \"tree\"\n", "small.reuse.max: missing"},
      {"[small.reuse]\nstrategy = \"tree\"\nmax = 300\n",
       "small.reuse.max: must be one of 128, 256, 512, 1024, got 300"},
      {"[small.reuse]\nstrategy = \"tree\"\nmax = -1\n", "small.reuse.max: must not be negative"},
      {"[small.reuse]\nstrategy = \"tree\"\nmax = \"2KB\"\n",
       "small.reuse.max: unreadable size \"2KB\": KB, MB and GB look decimal"},
  };
  for (const Bad &b : bad) {
    auto p = parse(b.text);
    EXPECT_FALSE(p) << b.text;
    EXPECT_NE(p.error.find(b.expect), std::string::npos) << b.text << "\n" << p.error;
  }
}

TEST(small_Profile, UnknownIntentIsRefused) {
  auto p = parse("[small.steam]\nstrategy = \"tree\"\nmax = 256\n");
  ASSERT_FALSE(p);
  EXPECT_NE(p.error.find("small.steam: unknown table `small.steam`; did you mean `small.stream`?"),
            std::string::npos)
      << p.error;
}

// A profile asking for masked on a CPU without AVX512BW is refused when loaded, naming it.
TEST(small_Profile, StrategyTheCpuLacksIsRefused) {
  CpuInfo no_bw = avx512_cpu();
  no_bw.set(Feature::avx512bw, false);
  auto p = parse("[small.reuse]\nstrategy = \"masked\"\nmax = 256\n", no_bw);
  ASSERT_FALSE(p);
  EXPECT_NE(p.error.find("p.toml:7: small.reuse.strategy: cannot run on this CPU: small path "
                         "masked needs AVX512BW, which this CPU lacks"),
            std::string::npos)
      << p.error;
}

// Through the C API: a profile with [small] opens, clears, and its inline entry points are the
// exported functions' targets.
TEST(small_Api, OpenedProfileUsesItsSmallPath) {
  const char *path = "/tmp/clearjit_small_api_test.toml";
  const CpuInfo &cpu = host_cpu();
  const std::string text = "format = 1\n[host]\nvendor = \"" + cpu.vendor +
                           "\"\nfamily = " + std::to_string(cpu.family) +
                           "\nmodel = " + std::to_string(cpu.model) +
                           "\n[small.reuse]\nstrategy = \"ladder\"\nmax = 512\n"
                           "[[dispatch.reuse]]\nkernel = \"stosb\"\n";
  FILE *f = std::fopen(path, "w");
  ASSERT_NE(f, nullptr);
  std::fputs(text.c_str(), f);
  std::fclose(f);
  char err[512];
  clearjit *cj = clearjit_open(path, err, sizeof err);
  std::remove(path);
  ASSERT_NE(cj, nullptr) << err;
  EXPECT_EQ(opened_profile(cj).small(Intent::reuse, cpu), (SmallPath{Small::ladder, 512}));
  ASSERT_NE(cj->clear, nullptr);
  ASSERT_NE(cj->clear_stream, nullptr);
  std::vector<uint8_t> buf(2000, 0xAB);
  for (size_t n : {size_t(0), size_t(1), size_t(100), size_t(512), size_t(513), size_t(1500)}) {
    std::fill(buf.begin(), buf.end(), 0xAB);
    clearjit_clear(cj, buf.data() + 3, n);
    EXPECT_EQ(first_nonzero(buf.data() + 3, n), n) << n;
    EXPECT_EQ(buf[2], 0xAB);
    EXPECT_EQ(buf[3 + n], 0xAB);
    std::fill(buf.begin(), buf.end(), 0xAB);
    cj->clear_stream(buf.data() + 3, n);
    EXPECT_EQ(first_nonzero(buf.data() + 3, n), n) << n;
    EXPECT_EQ(buf[3 + n], 0xAB);
  }
  clearjit_close(cj);
}

} // namespace
} // namespace cjit::detail::test
