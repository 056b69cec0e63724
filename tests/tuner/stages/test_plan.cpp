// The levels' plans and the size grid (tuner/stages/plan.cpp): the levels differ in resolution
// and confidence, each finer level at least as fine in every respect, within the time the
// README promises; the grid's sizes per octave and rounding.
#include "tuner/stages/plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace cjit::detail {
namespace {

TEST(plan, FinerLevelsAreFinerInEveryRespect) {
  const LevelPlan quick = plan_for(Level::quick), full = plan_for(Level::default_),
                  exhaustive = plan_for(Level::exhaustive);
  for (auto [coarse, fine] : {std::pair{quick, full}, std::pair{full, exhaustive}}) {
    EXPECT_LE(coarse.steps_per_octave, fine.steps_per_octave);
    EXPECT_LE(coarse.repetitions, fine.repetitions);
    EXPECT_LE(coarse.min_time, fine.min_time);
    EXPECT_LE(coarse.race_min_time, fine.race_min_time);
    EXPECT_LE(coarse.confidence, fine.confidence);
    EXPECT_LE(coarse.max_rounds, fine.max_rounds);
    EXPECT_LE(coarse.all_methods, fine.all_methods);
    EXPECT_LE(coarse.variants, fine.variants);
  }
  for (const LevelPlan &p : {quick, full, exhaustive}) {
    EXPECT_GT(p.confidence, 0.5);
    EXPECT_LT(p.confidence, 1.0);
    EXPECT_GE(p.max_rounds, 6) << "fewer rounds cannot bound a median (the sign test)";
  }
}

// The README's promise: quick under 60 s, default under 5 min; their budgets leave room for
// what runs outside them (opening the arena, writing the outputs). Exhaustive has none.
TEST(plan, BudgetsFitTheLevelsPromises) {
  EXPECT_GT(plan_for(Level::quick).budget, 0);
  EXPECT_LT(plan_for(Level::quick).budget, 60);
  EXPECT_GT(plan_for(Level::default_).budget, 0);
  EXPECT_LT(plan_for(Level::default_).budget, 300);
  EXPECT_EQ(plan_for(Level::exhaustive).budget, 0);
}

TEST(plan, SizeGridOneAndTwoStepsPerOctave) {
  EXPECT_EQ(size_grid(4096, 65536, 1), (std::vector<uint64_t>{4096, 8192, 16384, 32768, 65536}));
  // Two per octave: the geometric middles rounded to 4 KiB (11585 -> 12 KiB, 23170 -> 24 KiB);
  // 5793 rounds to 4 KiB, which the grid has already.
  EXPECT_EQ(size_grid(4096, 32768, 2),
            (std::vector<uint64_t>{4096, 8192, 12288, 16384, 24576, 32768}));
}

TEST(plan, SizeGridEndsAtTheTopAndIncreases) {
  for (int steps : {1, 2, 4}) {
    const std::vector<uint64_t> g = size_grid(4096, 3u << 20, steps);
    ASSERT_FALSE(g.empty());
    EXPECT_EQ(g.front(), 4096u);
    EXPECT_EQ(g.back(), 3u << 20) << "the top is in the grid even off the octaves";
    EXPECT_TRUE(std::is_sorted(g.begin(), g.end()));
    EXPECT_EQ(std::adjacent_find(g.begin(), g.end()), g.end()) << "no size twice";
    for (uint64_t s : g)
      EXPECT_EQ(s % 4096, 0u) << s;
  }
}

} // namespace
} // namespace cjit::detail
