// The statistics module: medians, spreads and the order-statistic bounds the races decide by.
#include "tuner/measure/stats.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace cjit::detail;

TEST(stats, MedianGeomeanCv) {
  EXPECT_EQ(median({}), 0);
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(geomean({1, 4}), 2);
  EXPECT_EQ(geomean({}), 0);
  EXPECT_EQ(cv({5}), 0);
  EXPECT_NEAR(cv({9, 11}), 0.1414, 1e-4); // sd sqrt(2), mean 10
}

// The sign test's arithmetic: all n values below the median has probability 2^-n, so n = 4
// bounds it at 0.90 (1/16) and n = 5 at 0.95 (1/32), each bound the extreme value.
TEST(stats, FewestValuesThatBoundTheMedian) {
  EXPECT_EQ(fewest_for(0.90), 4u);
  EXPECT_EQ(fewest_for(0.95), 5u);
  EXPECT_EQ(fewest_for(0.99), 7u); // 1/128 < 0.01 < 1/64
  const Interval four = median_interval({1.1, 1.3, 1.2, 1.4}, 0.95);
  EXPECT_FALSE(four.bounded);
  EXPECT_EQ(four.lower, 1.1); // the extremes, which do not hold at 0.95
  const Interval five = median_interval({1.5, 1.1, 1.3, 1.2, 1.4}, 0.95);
  EXPECT_TRUE(five.bounded);
  EXPECT_EQ(five.lower, 1.1);
  EXPECT_EQ(five.median, 1.3);
  EXPECT_EQ(five.upper, 1.5);
}

// n = 20 at 0.95: P(B <= 5) = 0.0207 and P(B <= 6) = 0.0577 for B ~ Binomial(20, 1/2), so the
// bounds are the 6th smallest and 6th largest values.
TEST(stats, BoundsAreOrderStatistics) {
  std::vector<double> v;
  for (int i = 20; i >= 1; --i)
    v.push_back(i);
  const Interval i = median_interval(v, 0.95);
  EXPECT_TRUE(i.bounded);
  EXPECT_EQ(i.lower, 6);
  EXPECT_EQ(i.upper, 15);
  EXPECT_EQ(i.median, 10.5);
  EXPECT_EQ(i.n, 20u);
}

TEST(stats, RoundRatiosKeepRoundsAlignedAndMarkMissingOnes) {
  const std::vector<double> r = round_ratios({2, 0, 9}, {1, 5, 3});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0], 2);
  EXPECT_TRUE(std::isnan(r[1])); // a missing sample: the round stays, marked
  EXPECT_EQ(r[2], 3);
  EXPECT_EQ(present(r), (std::vector<double>{2, 3}));
  EXPECT_EQ(round_ratios({2, 4}, {1}).size(), 1u);
  // Per round over two states; a round one state lacks has no score.
  const std::vector<double> rows = round_geomeans({{1, 4, 2}, {4, 1, NAN}});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_DOUBLE_EQ(rows[0], 2);
  EXPECT_DOUBLE_EQ(rows[1], 2);
  EXPECT_TRUE(std::isnan(rows[2]));
}
