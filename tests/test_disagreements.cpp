// Where scattered destinations alone would have chosen otherwise (disagreements, choose.hpp),
// on synthetic measurements.
#include "candidate_text.hpp"
#include "choose.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <span>

using namespace cjit;
using namespace cjit::detail;

namespace {

const uint64_t KiB = 1024;

Measurement point(const std::string &spec, uint64_t size, double gbps,
                  Pattern pattern = Pattern::scattered, Intent intent = Intent::stream) {
  Measurement m{candidate(spec), size, intent, {gbps, gbps, gbps}, 0, 0};
  m.pattern = pattern;
  summarize(m);
  return m;
}

const ComplexityMap kComplexity{{candidate("libc"), 7},
                                {candidate("avx2"), 60},
                                {candidate("avx2:unroll=4"), 70},
                                {candidate("ntavx2"), 1060}};

// One class serving every size.
std::vector<SizeClass> only(const std::string &spec) { return {{0, *parse_spec(spec), 0}}; }

struct Row {
  const char *spec;
  double scattered, consecutive; // GB/s
};
// ntavx2 leads scattered (60 GB/s, memset 45) but loses to memset consecutively (24 against 48),
// where avx2 (50, 50) holds up in both.
constexpr Row kNontemporalLosesConsecutively[] = {
    {"ntavx2", 60, 24}, {"avx2", 50, 50}, {"libc", 45, 48}};

struct Patterns {
  std::vector<Measurement> scattered, consecutive, cached;
  void add(uint64_t size, std::span<const Row> rows = kNontemporalLosesConsecutively) {
    for (const Row &r : rows) {
      scattered.push_back(point(r.spec, size, r.scattered));
      consecutive.push_back(point(r.spec, size, r.consecutive, Pattern::consecutive));
    }
  }
  std::vector<std::string> lines(const std::vector<uint64_t> &grid = {64 * KiB},
                                 const std::vector<SizeClass> &chosen = only("avx2")) const {
    return disagreements("stream", Intent::stream, grid, scattered, consecutive, cached, chosen,
                         kComplexity);
  }
};

} // namespace

TEST(Disagreements, AScatteredOnlyPickOfAnotherFamilyGetsALine) {
  Patterns p;
  p.add(64 * KiB);
  EXPECT_EQ(p.lines(),
            std::vector<std::string>{"stream 64 KiB: scattered alone picks ntavx2 (1.33x memset "
                                     "scattered, 0.50x consecutive); chosen avx2 (1.11x, 1.04x)"});
}

TEST(Disagreements, AdjacentSizesWithTheSameTwoPicksAreOneLine) {
  Patterns p;
  for (uint64_t size : {64 * KiB, 128 * KiB, 256 * KiB})
    p.add(size);
  const std::vector<std::string> lines = p.lines({64 * KiB, 128 * KiB, 256 * KiB});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].substr(0, lines[0].find(':')), "stream 64 KiB .. 256 KiB (quoted at 64 KiB)");
}

TEST(Disagreements, AnotherChosenKernelStartsAnotherLine) {
  Patterns p;
  for (uint64_t size : {64 * KiB, 128 * KiB})
    p.add(size);
  // libc from 96 KiB on: the second size has other picks.
  const std::vector<SizeClass> chosen{{96 * KiB, *parse_spec("avx2"), 0},
                                      {0, *parse_spec("libc"), 0}};
  const std::vector<std::string> lines = p.lines({64 * KiB, 128 * KiB}, chosen);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("stream 64 KiB: scattered alone picks ntavx2"), std::string::npos);
  EXPECT_NE(lines[1].find("stream 128 KiB: scattered alone picks ntavx2"), std::string::npos);
  EXPECT_NE(lines[1].find("chosen libc (1.00x, 1.00x)"), std::string::npos);
}

TEST(Disagreements, NoConsecutiveOrCachedMeasurementsGiveNoLines) {
  Patterns p;
  p.add(64 * KiB);
  p.consecutive.clear();
  EXPECT_TRUE(p.lines().empty());
}

TEST(Disagreements, TheChosenKernelItselfGivesNoLine) {
  Patterns p;
  p.add(64 * KiB);
  EXPECT_TRUE(p.lines({64 * KiB}, only("ntavx2")).empty());
}

TEST(Disagreements, OnlyGridSizesCount) {
  // A crossover bisection is measured in every pattern, but reported nowhere.
  Patterns p;
  p.add(96 * KiB);
  EXPECT_TRUE(p.lines({64 * KiB, 128 * KiB}).empty());
}

TEST(Disagreements, TheSameFamilyCountsOnlyWhenItLosesConsecutively) {
  Patterns holds, loses;
  holds.add(64 * KiB,
            std::vector<Row>{{"avx2:unroll=4", 60, 48}, {"avx2", 50, 50}, {"libc", 45, 48}});
  EXPECT_TRUE(holds.lines().empty()); // 1.00x memset consecutively
  loses.add(64 * KiB,
            std::vector<Row>{{"avx2:unroll=4", 60, 40}, {"avx2", 50, 50}, {"libc", 45, 48}});
  EXPECT_EQ(loses.lines(),
            std::vector<std::string>{"stream 64 KiB: scattered alone picks avx2:unroll=4 (1.33x "
                                     "memset scattered, 0.83x consecutive); chosen avx2 (1.11x, "
                                     "1.04x)"});
}

TEST(Disagreements, CachedMeasurementsAreQuotedWhereMeasured) {
  // Cached destinations alone make a size count, and show the veto's evidence.
  Patterns p;
  p.add(64 * KiB);
  p.consecutive.clear();
  for (auto [spec, g] : {std::pair{"ntavx2", 10.0}, {"avx2", 40.0}, {"libc", 40.0}})
    p.cached.push_back(point(spec, 64 * KiB, g, Pattern::cached));
  EXPECT_EQ(p.lines(),
            std::vector<std::string>{"stream 64 KiB: scattered alone picks ntavx2 (1.33x memset "
                                     "scattered, not measured consecutive, 0.25x cached); chosen "
                                     "avx2 (1.11x, not measured, 1.00x cached)"});
}

TEST(ChosenFrom, ScatteredAloneWhereNoOtherPatternWasMeasured) {
  Patterns p;
  p.add(64 * KiB);
  const std::vector<Measurement> alone = chosen_from(p.scattered, {}, {});
  ASSERT_EQ(alone.size(), p.scattered.size());
  for (size_t i = 0; i < alone.size(); ++i)
    EXPECT_EQ(alone[i].samples, p.scattered[i].samples);
  // With consecutive destinations, ntavx2 loses to memset there and is out of play (0 GB/s).
  const std::vector<Measurement> robust = chosen_from(p.scattered, p.consecutive, {});
  auto nt = std::find_if(robust.begin(), robust.end(),
                         [](const Measurement &m) { return m.candidate.name() == "ntavx2"; });
  ASSERT_NE(nt, robust.end());
  EXPECT_EQ(nt->gbps, 0);
}
