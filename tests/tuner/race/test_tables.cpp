// The chooser is a pure function of measurements: tested here on synthetic data (and the
// reports written from them).
#include "tests/support/candidate_text.hpp"
#include "tuner/race/tables.hpp"
#include "tuner/report/outputs.hpp"
#include "tuner/stages/tune.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

using namespace cjit;
using namespace cjit::detail;

namespace {

const uint64_t KiB = 1024, MiB = 1024 * KiB;

} // namespace

TEST(tables, SummarizeMedianAndCv) {
  Measurement m{candidate("x"), 1, Intent::reuse, {10, 12, 11, 100, 9}, 0, 0};
  summarize(m);
  EXPECT_DOUBLE_EQ(m.gbps, 11); // the outlier does not move the median
  EXPECT_GT(m.cv, 0.5);
}

TEST(tables, DispatchTableMergesWinnersAndSplitsAtTheGeometricMiddle) {
  const std::vector<Winner> ws{{4 * KiB, candidate("avx2"), 50},
                               {16 * KiB, candidate("avx2"), 50},
                               {64 * KiB, candidate("ntavx2"), 60},
                               {256 * KiB, candidate("ntavx2"), 60}};
  auto table = dispatch_table(ws);
  ASSERT_EQ(table.size(), 2u);
  EXPECT_EQ(format_spec(table[0].kernel), "avx2");
  EXPECT_EQ(table[0].below, 32 * KiB); // sqrt(16K * 64K)
  EXPECT_EQ(format_spec(table[1].kernel), "ntavx2");
  EXPECT_EQ(table[1].below, 0u); // the last class is unbounded
  EXPECT_NEAR(table[1].gbps, 60, 0.1);
}

namespace {

// A raced size where each of `beat` beat memset with that median score (bounds 5% either side),
// and `winner` won its race (none: memset).
RacedSize raced(uint64_t size, const std::vector<std::pair<std::string, double>> &beat,
                const std::string &winner = "", bool alone = false) {
  RacedSize rs{.size = size, .alone = alone};
  for (const auto &[name, score] : beat) {
    Standing st{.candidate = candidate(name), .beats = true, .eligible = true};
    st.score = {
        .lower = score * 0.95, .median = score, .upper = score * 1.05, .n = 5, .bounded = true};
    rs.outcome.field.push_back(st);
  }
  rs.outcome.winner = winner.empty() ? memset_candidate() : candidate(winner);
  return rs;
}

std::string kernel_at(const std::vector<SizeClass> &table, uint64_t size) {
  return format_spec(class_for(table, size).kernel);
}

} // namespace

TEST(tables, HugePagesAndTheSubpageAreDecidedAlone) {
  EXPECT_TRUE(decided_alone("stream", 2 * MiB));
  EXPECT_TRUE(decided_alone("stream", 1024 * MiB));
  EXPECT_TRUE(decided_alone("batch", 2 * MiB));
  EXPECT_TRUE(decided_alone("batch", 1024 * MiB));
  EXPECT_TRUE(decided_alone("batch", 4 * KiB));
  EXPECT_FALSE(decided_alone("stream", 4 * KiB));
  EXPECT_FALSE(decided_alone("reuse", 2 * MiB));
  EXPECT_FALSE(decided_alone("stream", 4 * MiB));
}

// A size decided alone takes its race's winner: a neighbour's run of a near-equal kernel does
// not take it, nor does a boundary rounded onto it, nor a run of kernels past a memset winner.
TEST(tables, ASizeDecidedAloneKeepsItsRacesWinner) {
  const std::vector<std::pair<std::string, double>> avx512{{"avx512", 1.5}};
  // stosb won at 2 MiB; avx512, within the join band there, serves 1 and 4 MiB.
  std::vector<RacedSize> at{raced(MiB, avx512, "avx512"),
                            raced(2 * MiB, {{"avx512", 1.5}, {"stosb", 1.45}}, "stosb"),
                            raced(4 * MiB, avx512, "avx512")};
  EXPECT_EQ(kernel_at(table_from_races(at, 1.03), 2 * MiB), "avx512"); // one run, not alone
  at[1].alone = true;
  std::vector<SizeClass> t = table_from_races(at, 1.03);
  EXPECT_EQ(kernel_at(t, 2 * MiB), "stosb");
  EXPECT_EQ(kernel_at(t, MiB), "avx512");
  EXPECT_EQ(kernel_at(t, 4 * MiB), "avx512");
  // The middle of 2 MiB and 2 MiB + 4 KiB rounds to 2 MiB: the boundary goes above it.
  t = table_from_races(
      {raced(2 * MiB, {{"ntavx512", 2.4}}, "ntavx512", true), raced(2 * MiB + 4 * KiB, {})}, 1.03);
  EXPECT_EQ(kernel_at(t, 2 * MiB), "ntavx512");
  EXPECT_EQ(kernel_at(t, 2 * MiB + 4 * KiB), "libc");
  // memset won at 2 MiB although avx512 beat it there (it left the race behind a leader that
  // did not beat memset, say): memset's.
  at[1] = raced(2 * MiB, avx512, "", true);
  t = table_from_races(at, 1.03);
  EXPECT_EQ(kernel_at(t, 2 * MiB), "libc");
  EXPECT_EQ(kernel_at(t, MiB), "avx512");
  EXPECT_EQ(kernel_at(t, 4 * MiB), "avx512");
}

// The last class serves sizes above the largest raced, so that size's winner serves it: stosb
// won at 512 MiB and 1 GiB, where ntavx512 was a near-equal on its run from 32 MiB (stosb is
// more than the join band behind it below 512 MiB).
TEST(tables, TheLargestSizeTakesItsRacesWinner) {
  std::vector<RacedSize> at;
  for (uint64_t size = 32 * MiB; size <= 1024 * MiB; size *= 2)
    at.push_back(size < 512 * MiB ? raced(size, {{"ntavx512", 1.45}, {"stosb", 1.25}}, "ntavx512")
                                  : raced(size, {{"ntavx512", 1.44}, {"stosb", 1.47}}, "stosb"));
  std::vector<SizeClass> t = table_from_races(at, 1.03);
  EXPECT_EQ(kernel_at(t, 256 * MiB), "ntavx512");
  EXPECT_EQ(kernel_at(t, 1024 * MiB), "stosb");
  EXPECT_EQ(kernel_at(t, 4096 * MiB), "stosb");
  EXPECT_EQ(t.back().below, 0u);
  EXPECT_EQ(format_spec(t.back().kernel), "stosb");
  // Where no kernel won there (a fleet whose hosts disagree), the run rule serves it.
  at.back() = raced(1024 * MiB, {{"ntavx512", 1.44}});
  EXPECT_EQ(kernel_at(table_from_races(at, 1.03), 4096 * MiB), "ntavx512");
  at.back() = raced(1024 * MiB, {});
  EXPECT_EQ(kernel_at(table_from_races(at, 1.03), 4096 * MiB), "libc");
}

TEST(tables, BoundariesAreRounded) {
  EXPECT_EQ(round_boundary(1000), 1024u);
  EXPECT_EQ(round_boundary(10), 64u);
  EXPECT_EQ(round_boundary(100000), 98304u); // 4 KiB multiple above 64 KiB
}

TEST(tables, NontemporalFromNeedsEveryLaterClass) {
  std::vector<SizeClass> t{{4096, *parse_spec("avx2"), 0},
                           {65536, *parse_spec("ntavx2"), 0},
                           {1 << 20, *parse_spec("stosb"), 0},
                           {0, *parse_spec("clzero"), 0}};
  EXPECT_EQ(nontemporal_from(t), uint64_t(1 << 20));
}

namespace {

// stosb against temporal stores on a quarter-octave sweep, with a step at `step` (0: none).
void sweep(uint64_t step, std::vector<Measurement> &s, std::vector<Measurement> &t,
           double jitter = 0, double below = 16) {
  int i = 0;
  for (double x = 8; x <= 256; x *= std::pow(2.0, 0.25), ++i) {
    uint64_t size = uint64_t(std::llround(x)) * MiB;
    double noise = jitter * ((i % 3) - 1);
    s.push_back(point("stosb", size, (step && size >= step ? 45 : below) * (1 + noise)));
    t.push_back(point("avx512", size, 16));
  }
}

} // namespace

TEST(tables, NoAllocateStepIsFound) {
  std::vector<Measurement> s, t;
  sweep(32 * MiB, s, t);
  NoAllocate na = find_no_allocate(s, t);
  ASSERT_TRUE(na.size) << na.reason;
  EXPECT_EQ(*na.size, 32 * MiB);
  EXPECT_NEAR(na.ratio_below, 1.0, 0.01);
  EXPECT_NEAR(na.ratio_above, 45.0 / 16, 0.01);
}

TEST(tables, NoAllocateStepSurvivesOneOutlier) {
  std::vector<Measurement> s, t;
  sweep(32 * MiB, s, t, 0.05);
  // One spike well below the step, one dip well above it.
  s[2] = point("stosb", s[2].size, 40);
  s[s.size() - 3] = point("stosb", s[s.size() - 3].size, 15);
  NoAllocate na = find_no_allocate(s, t);
  ASSERT_TRUE(na.size) << na.reason;
  EXPECT_GE(*na.size, 27 * MiB);
  EXPECT_LE(*na.size, 39 * MiB);
}

TEST(tables, NoAllocateStepOnTopOfALead) {
  // rep stosb 1.3x ahead below the step already (as on AMD family 26 model 2, Zen 5), 2.8x above.
  std::vector<Measurement> s, t;
  sweep(32 * MiB, s, t, 0.03, 21);
  NoAllocate na = find_no_allocate(s, t);
  ASSERT_TRUE(na.size) << na.reason;
  EXPECT_EQ(*na.size, 32 * MiB);
}

TEST(tables, NoStepOnACpuWithout) {
  // Intel-like: rep stosb allocates at every size, so it never pulls away.
  std::vector<Measurement> s, t;
  sweep(0, s, t, 0.03);
  NoAllocate na = find_no_allocate(s, t);
  EXPECT_FALSE(na.size);
  EXPECT_NE(na.reason.find("never"), std::string::npos) << na.reason;
}

TEST(tables, SmallestGoodChunk) {
  std::map<uint64_t, double> g{{0, 40}, {4096, 13}, {2 << 20, 15}, {8 << 20, 37}, {32 << 20, 39}};
  EXPECT_EQ(smallest_good_chunk(g), uint64_t(8 << 20));
  g[8 << 20] = 30;
  EXPECT_EQ(smallest_good_chunk(g), uint64_t(32 << 20));
  EXPECT_FALSE(smallest_good_chunk({{4096, 10}}));
}

namespace {

std::vector<SizeClass>
classes(const std::vector<std::tuple<uint64_t, std::string, std::string>> &rows) {
  std::vector<SizeClass> out;
  for (const auto &[below, kernel, stand_in] : rows) {
    SizeClass c{below, *parse_spec(kernel)};
    if (!stand_in.empty()) c.stand_in = *parse_spec(stand_in);
    out.push_back(c);
  }
  return out;
}

std::string stand_in_at(const std::vector<SizeClass> &table, uint64_t size) {
  const SizeClass &c = class_for(table, size);
  return c.stand_in ? format_spec(*c.stand_in) : "none";
}

} // namespace

// Past Zen's no-allocate step a memset class's stand-in is stosb: a class across the step is cut
// there; one past it takes stosb whole; other classes keep what they had.
TEST(tables, PastTheNoAllocateStepMemsetsStandInIsStosb) {
  std::vector<SizeClass> t =
      classes({{8 * MiB, "libc", "avx2"}, {16 * MiB, "ntavx2", ""}, {0, "libc", "avx2"}});
  stand_in_past_step(t, 32 * MiB);
  EXPECT_EQ(t, classes({{8 * MiB, "libc", "avx2"},
                        {16 * MiB, "ntavx2", ""},
                        {32 * MiB, "libc", "avx2"},
                        {0, "libc", "stosb"}}));
  // The step on a boundary: nothing to cut; the class past it takes stosb.
  t = classes({{8 * MiB, "libc", "avx2"}, {16 * MiB, "ntavx2", ""}, {0, "libc", "avx2"}});
  stand_in_past_step(t, 16 * MiB);
  EXPECT_EQ(t,
            classes({{8 * MiB, "libc", "avx2"}, {16 * MiB, "ntavx2", ""}, {0, "libc", "stosb"}}));
  // A memset class cut at the step beside one that had stosb already: one class again.
  t = classes({{16 * MiB, "ntavx2", ""}, {64 * MiB, "libc", "avx2"}, {0, "libc", "stosb"}});
  stand_in_past_step(t, 32 * MiB);
  EXPECT_EQ(t,
            classes({{16 * MiB, "ntavx2", ""}, {32 * MiB, "libc", "avx2"}, {0, "libc", "stosb"}}));
  // A generated kernel across the step is the tuner's choice there, memset or not.
  t = classes({{8 * MiB, "libc", "avx2"}, {0, "clzero", ""}});
  const std::vector<SizeClass> before = t;
  stand_in_past_step(t, 32 * MiB);
  EXPECT_EQ(t, before);
  // A table of kMaxClasses classes is not cut: the class across the step keeps its stand-in.
  t.clear();
  for (size_t k = 0; k + 1 < kMaxClasses; ++k)
    t.push_back({(k + 1) * KiB, *parse_spec(k % 2 ? "libc" : "mov")});
  t.push_back(classes({{0, "libc", "avx2"}})[0]);
  stand_in_past_step(t, 32 * MiB);
  ASSERT_EQ(t.size(), kMaxClasses);
  EXPECT_EQ(stand_in_at(t, 64 * MiB), "avx2");
}

// Where non-temporal stores win is said as the runs of classes they win in, and a memset class
// past the no-allocate step with stosb as its stand-in is one of them: not one threshold that a
// memset class ends.
TEST(tables, NontemporalRunsAreEveryRunAndTheStepsClassByItsStandIn) {
  const std::vector<SizeClass> t = classes({{4 * KiB, "libc", "avx2"},
                                            {16 * KiB, "ntavx512", ""},
                                            {64 * KiB, "clzero", ""},
                                            {1 * MiB, "avx512", ""},
                                            {23 * MiB, "ntavx512", ""},
                                            {32 * MiB, "libc", "avx2"},
                                            {0, "libc", "stosb"}});
  const std::vector<NontemporalRun> runs = nontemporal_runs(t, 32 * MiB);
  EXPECT_EQ(runs, (std::vector<NontemporalRun>{{4 * KiB, 64 * KiB, {"ntavx512", "clzero"}},
                                               {1 * MiB, 23 * MiB, {"ntavx512"}},
                                               {32 * MiB, 0, {"libc, stand-in stosb"}}}));
  EXPECT_EQ(nontemporal_text(runs), "4 KiB .. 64 KiB (ntavx512; clzero), 1 MiB .. 23 MiB "
                                    "(ntavx512), 32 MiB .. up (libc, stand-in stosb)");
  EXPECT_EQ(nontemporal_toml("nontemporal_stream_runs", {runs[0], runs[2]}),
            "nontemporal_stream_runs = [{ from = 4096, below = 65536, kernels = [\"ntavx512\", "
            "\"clzero\"] }, { from = 33554432, kernels = [\"libc, stand-in stosb\"] }]\n");
  // A stosb class past the step stops allocating too.
  std::vector<SizeClass> own = t;
  own.back() = classes({{0, "stosb", ""}})[0];
  EXPECT_EQ(nontemporal_runs(own, 32 * MiB).back(), (NontemporalRun{32 * MiB, 0, {"stosb"}}));
  // Without a step, memset's class is memset's, whatever its stand-in.
  EXPECT_EQ(nontemporal_runs(t, std::nullopt).size(), 2u);
  EXPECT_EQ(nontemporal_text({}), "never wins");
  EXPECT_EQ(nontemporal_toml("nontemporal_reuse_runs", {}), "");
  // The threshold alone: memset's class past the step ends it.
  EXPECT_FALSE(nontemporal_from(t));
}
