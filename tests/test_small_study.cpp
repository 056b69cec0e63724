// The small-path study's race (smallpath.hpp, study_small) on a Bench of synthetic timings:
// who leaves, when the race stops and what is chosen. No timing is measured or asserted; the
// dispatchers are generated for this CPU but never run.
#include "smallpath.hpp"
#include "support.hpp"
#include "synthetic_bench.hpp"

#include <gtest/gtest.h>

namespace cjit::detail::test {
namespace {

using cjit::test::SyntheticBench;

Profile memset_tables() {
  Profile p;
  p.host = profile_host(host_cpu());
  p.reuse = {{0, *parse_spec("libc").value}};
  p.stream = p.reuse;
  return p;
}

// Every strategy this CPU runs at `factor` times memset's speed, warm and cold, but those named
// in `faster` at their own factor.
SyntheticBench bench_with(double noise, uint64_t seed, double factor,
                          const std::map<std::string, double> &faster) {
  SyntheticBench b(noise, seed);
  for (const SmallInfo &s : small_strategies()) {
    const std::string name = Candidate(SmallPath{s.strategy, 256}).name();
    auto it = faster.find(std::string(s.name));
    b.set(name, it == faster.end() ? factor : it->second);
  }
  return b;
}

RaceOptions race(int max_rounds = 12) {
  RaceOptions o;
  o.confidence = 0.95;
  o.max_rounds = max_rounds;
  return o;
}

const MeasureOptions kOptions{.repetitions = 3, .min_time = 0.001};

TEST(SmallStudy, AClearLeaderWinsAndTheOthersLeaveEarly) {
  // tree 1.25x memset's speed; every other strategy at half its speed, warm and cold.
  SyntheticBench b = bench_with(0.03, 1, 0.5, {{"tree", 1.25}});
  const SmallStudy s = study_small(b, memset_tables(), host_cpu(), kOptions, race());
  EXPECT_EQ(s.reuse.strategy, Small::tree);
  EXPECT_EQ(s.stream.strategy, Small::tree);
  EXPECT_EQ(s.rounds, int(fewest_for(0.95))) << "stops at the first round that bounds a median";
  for (Intent i : kIntents) {
    EXPECT_EQ(s.remaining.at(i), (std::vector<Small>{Small::tree}));
    const std::string line = small_race_text(s, i);
    EXPECT_NE(line.find(std::to_string(fewest_for(0.95)) + " rounds, settled: tree, up to"),
              std::string::npos)
        << line;
    for (const std::string &why : s.dropped.at(i))
      EXPECT_NE(why.find(" out at round "), std::string::npos) << why;
  }
}

TEST(SmallStudy, TiedStrategiesStopTheRaceAndTheRankingChooses) {
  // tree and ladder alike (1.25x), the rest at half: the race stops with both in, and
  // rank_small chooses between them over every round.
  SyntheticBench b = bench_with(0.02, 2, 0.5, {{"tree", 1.25}, {"ladder", 1.25}});
  const SmallStudy s = study_small(b, memset_tables(), host_cpu(), kOptions, race());
  EXPECT_LT(s.rounds, 12);
  for (Intent i : kIntents) {
    EXPECT_EQ(s.remaining.at(i), (std::vector<Small>{Small::tree, Small::ladder}))
        << small_race_text(s, i);
    const Small chosen = i == Intent::reuse ? s.reuse.strategy : s.stream.strategy;
    EXPECT_TRUE(chosen == Small::tree || chosen == Small::ladder);
    EXPECT_EQ(chosen, rank_small(s.stage1_measurements(), i).front().strategy);
  }
}

TEST(SmallStudy, ALeaderTheColdVetoPutsOutLeadsNoOneOut) {
  // vec is the fastest warm (3x memset) but 3x slower cold at consecutive destinations: the cold
  // veto puts it out, and tree (1.25x everywhere) must not leave as "behind vec".
  SyntheticBench b = bench_with(0.02, 4, 0.5, {{"tree", 1.25}});
  const std::string vec = Candidate(SmallPath{Small::vec, 256}).name();
  b.set(vec, 3.0);
  b.set(vec, Pattern::consecutive, 0.33);
  const SmallStudy s = study_small(b, memset_tables(), host_cpu(), kOptions, race());
  for (Intent i : kIntents) {
    EXPECT_EQ(i == Intent::reuse ? s.reuse.strategy : s.stream.strategy, Small::tree)
        << small_race_text(s, i);
    bool vec_out_cold = false;
    for (const std::string &why : s.dropped.at(i)) {
      EXPECT_EQ(why.find("behind vec"), std::string::npos) << why;
      vec_out_cold |= why.starts_with("vec ") && why.find(": cold: ") != std::string::npos;
    }
    EXPECT_TRUE(vec_out_cold) << small_race_text(s, i);
  }
}

TEST(SmallStudy, NearEqualsRunToTheLastRound) {
  // Alike under 10% noise: neither confidently behind nor bounded within 5% in 6 rounds.
  SyntheticBench b = bench_with(0.10, 3, 0.5, {{"tree", 1.25}, {"ladder", 1.25}});
  const SmallStudy s = study_small(b, memset_tables(), host_cpu(), kOptions, race(6));
  EXPECT_EQ(s.rounds, 6);
  for (Intent i : kIntents)
    EXPECT_NE(small_race_text(s, i).find("6 rounds, at its last: "), std::string::npos)
        << small_race_text(s, i);
}

} // namespace
} // namespace cjit::detail::test
