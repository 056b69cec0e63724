// The tuner's verification stage (verify.hpp): which points it measures, what counts as a loss
// and how a confirmed loss is repaired, on synthetic profiles and measurements.
#include "tests/support/cpu_kinds.hpp"
#include "tests/support/support.hpp"

#include "tests/support/synthetic_meter.hpp"
#include "tuner/report/outputs.hpp"
#include "tuner/stages/verify.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

namespace cjit::detail::test {
namespace {

using cjit::test::SyntheticMeter;

Spec spec(const char *text) { return *parse_spec(text).value; }

// reuse: avx2 below 16 KiB, stosb above; stream: ntavx512 from 64 KiB.
Profile two_tables() {
  Profile p;
  p.host = profile_host(full_cpu());
  p.reuse = {{16384, spec("avx2:unroll=4")}, {0, spec("stosb")}};
  p.stream = {{65536, spec("libc")}, {0, spec("ntavx512")}};
  p.small_reuse = SmallPath{Small::stosb, 256};
  p.small_stream = SmallPath{Small::masked, 512};
  return p;
}

TEST(verify, PointsLieOnBothSidesOfEveryBoundaryInBothPatterns) {
  const Profile p = two_tables();
  const auto points = verify_points(p, full_cpu(), 4096, 1ull << 30);
  auto has = [&](Intent i, uint64_t size, Pattern pattern) {
    return std::find(points.begin(), points.end(),
                     VerifyPoint{i, size, Mix::fixed, false, pattern}) != points.end();
  };
  for (Pattern pattern : kPatterns) {
    EXPECT_TRUE(has(Intent::reuse, 13120, pattern)) << "0.8x 16 KiB, rounded to 64 B";
    EXPECT_TRUE(has(Intent::reuse, 20480, pattern)) << "1.25x 16 KiB";
    EXPECT_TRUE(has(Intent::stream, 52416, pattern));
    EXPECT_TRUE(has(Intent::stream, 81920, pattern));
  }
  // Warm points: the verification's own sizes and both mixes, per intent; none of the
  // small-path study's sizes but 64.
  for (uint64_t size : verify_warm_sizes()) {
    EXPECT_NE(std::find(points.begin(), points.end(),
                        VerifyPoint{Intent::stream, size, Mix::fixed, true}),
              points.end());
    const auto study = small_strategy_sizes();
    EXPECT_TRUE(size == 64 || std::find(study.begin(), study.end(), size) == study.end()) << size;
  }
  EXPECT_NE(
      std::find(points.begin(), points.end(), VerifyPoint{Intent::reuse, 0, Mix::objects, true}),
      points.end());
  // Nothing below the tuned range or at the small path's sizes as a large point.
  const auto few = verify_points(p, full_cpu(), 32768, 1ull << 30);
  EXPECT_EQ(std::count_if(few.begin(), few.end(),
                          [](const VerifyPoint &x) { return !x.warm && x.size == 13120; }),
            0);
}

TEST(verify, LossesBeyondTheNoiseOnly) {
  const VerifyPoint warm{Intent::stream, 48, Mix::fixed, true};
  const VerifyPoint cold{Intent::reuse, 20480, Mix::fixed, false, Pattern::scattered};
  EXPECT_FALSE(loses(warm, 1.05));
  EXPECT_TRUE(loses(warm, 1.051));
  EXPECT_FALSE(loses(cold, 0.97));
  EXPECT_TRUE(loses(cold, 0.969));
  EXPECT_FALSE(loses(cold, 1.5));
}

TEST(verify, ALosingClassGoesToMemsetAndMergesWithItsNeighbour) {
  // stream's ntavx512 class loses at 81920 B consecutive in both measurements: it becomes libc,
  // and the two libc classes make one table of one class.
  const Profile p = two_tables();
  std::map<Intent, std::vector<SmallPath>> tried;
  const Repair r =
      repair(p, {{{Intent::stream, 81920, Mix::fixed, false, Pattern::consecutive}, {0.91, 0.93}}},
             {}, tried, full_cpu());
  ASSERT_EQ(r.done.size(), 1u);
  EXPECT_EQ(r.done[0].second,
            "stream 64 KiB .. up: ntavx512 -> libc (stream 80 KiB consecutive: 0.91x, "
            "0.93x memset's speed)");
  ASSERT_EQ(r.profile.stream.size(), 1u);
  EXPECT_EQ(r.profile.stream[0].kernel.method, Method::libc);
  EXPECT_EQ(r.profile.reuse, p.reuse) << "the other intent is untouched";
  EXPECT_TRUE(r.left.empty());
}

TEST(verify, StreamWithoutItsOwnTableGetsOneAndReuseKeepsItsOwn) {
  Profile p = two_tables();
  p.stream.clear(); // stream uses reuse's table
  std::map<Intent, std::vector<SmallPath>> tried;
  const Repair r =
      repair(p, {{{Intent::stream, 20480, Mix::fixed, false, Pattern::scattered}, {0.80, 0.85}}},
             {}, tried, full_cpu());
  ASSERT_EQ(r.done.size(), 1u);
  EXPECT_EQ(r.profile.reuse, p.reuse);
  ASSERT_EQ(r.profile.stream.size(), 2u);
  EXPECT_EQ(format_spec(r.profile.stream[0].kernel), "avx2:unroll=4");
  EXPECT_EQ(r.profile.stream[1].kernel.method, Method::libc);
}

TEST(verify, BothPatternsLosingInOneClassRepairItOnce) {
  // The scattered loss repairs the class; the consecutive one finds it repaired, not "noise".
  const Profile p = two_tables();
  std::map<Intent, std::vector<SmallPath>> tried;
  const Repair r =
      repair(p,
             {{{Intent::stream, 81920, Mix::fixed, false, Pattern::scattered}, {0.90, 0.92}},
              {{Intent::stream, 81920, Mix::fixed, false, Pattern::consecutive}, {0.91, 0.93}}},
             {}, tried, full_cpu());
  EXPECT_EQ(r.done.size(), 1u);
  EXPECT_TRUE(r.left.empty()) << r.left.front().second;
}

TEST(verify, AMemsetClassIsNoiseAndLeft) {
  const Profile p = two_tables();
  std::map<Intent, std::vector<SmallPath>> tried;
  const Repair r =
      repair(p, {{{Intent::stream, 52416, Mix::fixed, false, Pattern::scattered}, {0.92, 0.95}}},
             {}, tried, full_cpu());
  EXPECT_TRUE(r.done.empty());
  ASSERT_EQ(r.left.size(), 1u);
  EXPECT_NE(r.left[0].second.find("memset itself, so noise"), std::string::npos)
      << r.left[0].second;
  EXPECT_EQ(r.profile, p);
}

TEST(verify, ALosingSmallPathTakesTheNextStrategyOnce) {
  // Stream loses warm at 48 B and on a mix, in both measurements: masked is replaced by the
  // next of the ranking (masked itself is skipped), once for the intent however many points
  // lost; reuse keeps stosb.
  const Profile p = two_tables();
  std::map<Intent, std::vector<SmallPath>> ranking{
      {Intent::stream, {{Small::masked, 256}, {Small::vec, 256}, {Small::tree, 256}}}};
  std::map<Intent, std::vector<SmallPath>> tried;
  const std::map<VerifyPoint, std::vector<double>> losses{
      {{Intent::stream, 48, Mix::fixed, true}, {1.09, 1.08}},
      {{Intent::stream, 0, Mix::log_uniform, true}, {1.07, 1.06}}};
  Repair r = repair(p, losses, ranking, tried, full_cpu());
  ASSERT_EQ(r.done.size(), 1u) << "one change per intent and round";
  EXPECT_EQ(r.done[0].second,
            "stream small path masked, up to 512 B -> vec, up to 512 B (stream log-uniform 1..256 "
            "B warm: 1.07x, 1.06x memset's time)")
      << "the first loss in the points' order (a mix before the fixed sizes)";
  EXPECT_EQ(*r.profile.small_stream, (SmallPath{Small::vec, 512})) << "the same max";
  EXPECT_EQ(*r.profile.small_reuse, (SmallPath{Small::stosb, 256}));
  // vec loses too: the next is tree, not masked again.
  r = repair(r.profile, losses, ranking, tried, full_cpu());
  EXPECT_EQ(*r.profile.small_stream, (SmallPath{Small::tree, 512}));
  // tree loses: nothing left to try, said.
  r = repair(r.profile, losses, ranking, tried, full_cpu());
  EXPECT_TRUE(r.done.empty());
  ASSERT_EQ(r.left.size(), 2u);
  EXPECT_NE(r.left[0].second.find("no other small-path strategy left"), std::string::npos);
}

TEST(verify, ChangingOneIntentsSmallPathPinsTheOthers) {
  // Without [small.stream], stream takes reuse's small path: replacing reuse's must not move
  // stream's.
  Profile p = two_tables();
  p.small_stream.reset();
  std::map<Intent, std::vector<SmallPath>> ranking{
      {Intent::reuse, {{Small::stosb, 256}, {Small::tree, 256}}}};
  std::map<Intent, std::vector<SmallPath>> tried;
  const Repair r =
      repair(p, {{{Intent::reuse, 20, Mix::fixed, true}, {1.2, 1.2}}}, ranking, tried, full_cpu());
  EXPECT_EQ(*r.profile.small_reuse, (SmallPath{Small::tree, 256}));
  EXPECT_EQ(*r.profile.small_stream, (SmallPath{Small::stosb, 256}));
}

TEST(verify, TheProfileRecordsTheVerificationAndStillLoads) {
  Verification v;
  v.measured = "92 points against memset";
  v.seconds = 31.25;
  v.rounds = 3;
  v.worst_warm = {{Intent::reuse, 0.81}, {Intent::stream, 1.04}};
  v.worst_cold = {{Intent::reuse, 0.98}, {Intent::stream, 0.99}};
  v.repaired = {"stream 64 KiB .. up: ntavx512 -> libc (\"quoted\")"};
  const std::string toml = verification_toml(v);
  EXPECT_NE(toml.find("\n[verification]\nmeasured = \"92 points against memset\"\nseconds = "
                      "31.2\nrounds = 3\nrepaired = [\"stream 64 KiB .. up: ntavx512 -> libc "
                      "(\\\"quoted\\\")\"]\nleft = []\ntried = []\n"),
            std::string::npos)
      << toml;
  EXPECT_NE(toml.find("[verification.stream]\nworst_warm = 1.04 # time / memset's\nworst_cold = "
                      "0.99 # speed / memset's\n"),
            std::string::npos)
      << toml;
  // A tune's profile with the table reads back to the same tables; one without it still loads.
  TuneResult r;
  r.reuse = two_tables().reuse;
  r.stream = two_tables().stream;
  r.level = "quick";
  r.date = "2026-12-01T00:00:00Z";
  r.verification = v;
  const CpuInfo cpu = full_cpu();
  auto with = parse_profile(profile_toml(r, cpu), "with.toml", cpu);
  ASSERT_TRUE(with) << with.error;
  EXPECT_EQ(with.value->reuse, r.reuse);
  EXPECT_TRUE(with.value->warnings.empty());
  r.verification = {};
  const std::string without = profile_toml(r, cpu);
  EXPECT_EQ(without.find("[verification]"), std::string::npos);
  EXPECT_TRUE(parse_profile(without, "without.toml", cpu));
}

// movnti for reuse at 4 KiB..64 KiB between memset classes, memset for stream (its own table,
// else stream would use reuse's), tree small paths up to 256 B: the planted profile below.
Profile planted_movnti(const CpuInfo &cpu) {
  Profile p;
  p.host = profile_host(cpu);
  p.reuse = {{4096, spec("libc")}, {65536, spec("movnti")}, {0, spec("libc")}};
  p.stream = {{0, spec("libc")}};
  p.small_reuse = p.small_stream = SmallPath{Small::tree, 256};
  return p;
}

// Reuse: `kernel` below `below`, memset above; stream: memset; both small paths `small`.
Profile one_reuse_class(const CpuInfo &cpu, uint64_t below, const char *kernel, SmallPath small) {
  Profile p;
  p.host = profile_host(cpu);
  p.reuse = {{below, spec(kernel)}, {0, spec("libc")}};
  p.stream = {{0, spec("libc")}};
  p.small_reuse = p.small_stream = small;
  return p;
}

// Everything a verification said: repaired, tried, left, noise, a line each.
std::string all_said(const Verification &v) {
  std::string said;
  for (const auto *list : {&v.repaired, &v.undone, &v.left, &v.noise})
    for (const std::string &t : *list)
      said += t + "\n";
  return said;
}

TEST(verify, WithoutRepairsALosingClassIsSaidAndTheProfileKept) {
  // `clearjit verify`'s run on a planted loss: movnti for reuse at 4 KiB..64 KiB, losing 2x at
  // the points inside that class (5 KiB and 51 KiB, 1.25x and 0.8x its boundaries) on a Meter of
  // synthetic timings; the dispatcher matches memset everywhere else.
  const CpuInfo &cpu = cpu_kind("IntelEmeraldRapids"); // synthetic: never run here
  Profile p = planted_movnti(cpu);
  const Profile planted = p;
  SyntheticMeter bench(0.01, 3);
  for (uint64_t inside : {5120u, 52416u})
    bench.set_at("verified", inside, 0.5);
  const Verification v = verify(bench, p, cpu, {.repetitions = 3, .min_time = 0.001}, RaceOptions{},
                                {}, 4096, 1u << 30, /*repairs_allowed=*/false);
  EXPECT_EQ(p, planted) << "nothing repaired";
  EXPECT_TRUE(v.repaired.empty());
  std::string left;
  for (const std::string &l : v.left)
    left += l + "\n";
  for (const char *point : {"reuse 5 KiB scattered", "reuse 5 KiB consecutive",
                            "reuse 51.2 KiB scattered", "reuse 51.2 KiB consecutive"})
    EXPECT_NE(left.find(point), std::string::npos) << point << " in:\n" << left;
  EXPECT_EQ(v.left.size(), 4u) << left;
  EXPECT_EQ(v.lost.size(), 4u);
  EXPECT_NEAR(v.worst_cold.at(Intent::reuse), 0.5, 0.05);
  // `clearjit verify` names the class they lie in.
  const std::vector<std::string> parts = losing_parts(p, cpu, v);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_TRUE(parts[0].starts_with("reuse 4 KiB .. 64 KiB: movnti (reuse ")) << parts[0];

  // A loss in memset's own class, where memset measured again beside itself loses as much (the
  // host, not the code): said as noise, with both measurements, and not counted.
  SyntheticMeter noise(0.01, 3);
  // 1.25x the 64 KiB boundary: the libc class above it.
  noise.set_at("verified", 81920, 0.5);
  noise.set_at("memset, again", 81920, 0.5);
  Profile q = planted;
  const Verification w = verify(noise, q, cpu, {.repetitions = 3, .min_time = 0.001}, RaceOptions{},
                                {}, 4096, 1u << 30, /*repairs_allowed=*/false);
  EXPECT_TRUE(w.left.empty()) << w.left.front();
  EXPECT_TRUE(w.lost.empty());
  ASSERT_EQ(w.noise.size(), 2u);
  for (const std::string &n : w.noise)
    EXPECT_TRUE(std::regex_match(
        n, std::regex("reuse 80 KiB (scattered|consecutive): 0.5.x .*; raced again over \\d+ "
                      "rounds beside memset measured twice: memset 0.(49|5.)x its own speed, the "
                      "point (0.9.|1.0.)x \\(at most 1.0.x\\) memset's second speed: "
                      "memset's own class, inside its noise")))
        << n;
  EXPECT_NE(verification_toml(w).find("\nnoise = [\"reuse 80 KiB "), std::string::npos);

  // There, the dispatcher alone slower than memset measured beside it: what it costs to reach
  // memset is a loss, left and counted.
  SyntheticMeter route(0.01, 3);
  route.set_at("verified", 81920, 0.5);
  Profile r = planted;
  const Verification x = verify(route, r, cpu, {.repetitions = 3, .min_time = 0.001}, RaceOptions{},
                                {}, 4096, 1u << 30, /*repairs_allowed=*/false);
  EXPECT_TRUE(x.noise.empty());
  ASSERT_EQ(x.left.size(), 2u);
  EXPECT_EQ(x.lost.size(), 2u);
  EXPECT_TRUE(x.left[0].ends_with("memset through the dispatcher loses beyond the noise"))
      << x.left[0];

  // The same run with repairs gives the class to memset.
  SyntheticMeter again(0.01, 3);
  for (uint64_t inside : {5120u, 52416u})
    again.set_at("verified", inside, 0.5);
  Profile repaired = planted;
  verify(again, repaired, cpu, {.repetitions = 3, .min_time = 0.001}, RaceOptions{}, {}, 4096,
         1u << 30);
  ASSERT_EQ(repaired.reuse.size(), 1u);
  EXPECT_EQ(repaired.reuse[0].kernel.method, Method::libc);
}

// `clearjit verify` repairs nothing, so a loss of the profile's own code is judged as a loss
// at a point memset serves is: raced once more beside memset measured twice. Where memset
// against itself strays as far below (the host, not the code), said as noise and not counted;
// where it does not, left and counted. Issue 60: a quick profile's masked small path at 0.96x
// (at most 0.97x) memset cold, in one process of two.
TEST(verify, WithoutRepairsALossInsideMemsetsOwnNoiseIsNoise) {
  const CpuInfo &cpu = cpu_kind("IntelEmeraldRapids"); // synthetic: never run here
  for (const bool memset_strays : {true, false}) {
    SCOPED_TRACE(memset_strays ? "memset strays as far" : "memset holds");
    Profile p = planted_movnti(cpu);
    SyntheticMeter bench(0.01, 3);
    for (uint64_t inside : {5120u, 52416u}) {
      bench.set_at("verified", inside, 0.9);
      if (memset_strays) bench.set_at("memset, again", inside, 0.9);
    }
    const Verification v = verify(bench, p, cpu, {.repetitions = 3, .min_time = 0.001},
                                  RaceOptions{}, {}, 4096, 1u << 30, /*repairs_allowed=*/false);
    const std::string said = all_said(v);
    EXPECT_TRUE(v.repaired.empty()) << said;
    const std::vector<std::string> &judged = memset_strays ? v.noise : v.left;
    EXPECT_TRUE((memset_strays ? v.left : v.noise).empty()) << said;
    ASSERT_EQ(judged.size(), 4u) << said;
    for (const std::string &line : judged) {
      EXPECT_TRUE(std::regex_match(line, std::regex("reuse (5|51.2) KiB (scattered|consecutive): "
                                                    "0.9.x .*; raced again over \\d+ rounds "
                                                    "beside memset measured twice: .*")))
          << line;
      EXPECT_TRUE(line.ends_with(memset_strays ? ": inside memset's own noise there"
                                               : ": loses beyond the noise"))
          << line;
    }
    EXPECT_EQ(v.lost.size(), memset_strays ? 0u : 4u) << said;
    EXPECT_EQ(verification_toml(v).find("\nleft = []\n") != std::string::npos, memset_strays);
  }
}

// What a repair hands to memset stays with memset, however the intent measures after it:
// memset cannot lose to itself. The run of issue 60 (a default tune on Zen 5): a class given to
// memset was taken back because the intent's worst point, elsewhere, measured no better. Here
// that point is a warm loss nothing repairs (3x memset's time at 40 B, no other small-path
// strategy ranked), worse than the class's cold losses (0.5x at 5 KiB and 51.2 KiB).
TEST(verify, WhatGoesToMemsetIsNeverTakenBack) {
  const CpuInfo &cpu = cpu_kind("IntelEmeraldRapids"); // synthetic: never run here
  Profile p = planted_movnti(cpu);
  SyntheticMeter bench(0, 3); // no noise: the warm loss measures the same after the repair
  for (uint64_t inside : {5120u, 52416u})
    bench.set_at("verified", inside, 0.5);
  bench.set_at("verified", 40, 1.0 / 3); // warm: 3x memset's time
  const Verification v = verify(bench, p, cpu, {.repetitions = 3, .min_time = 0.001}, RaceOptions{},
                                {}, 4096, 1u << 30);
  std::string said;
  for (const std::string &t : v.undone)
    said += "undone: " + t + "\n";
  for (const std::string &t : v.repaired)
    said += "repaired: " + t + "\n";
  EXPECT_TRUE(v.undone.empty()) << said;
  ASSERT_EQ(p.reuse.size(), 1u) << said;
  EXPECT_EQ(p.reuse[0].kernel.method, Method::libc);
  ASSERT_EQ(v.repaired.size(), 1u) << said;
  EXPECT_TRUE(v.repaired[0].starts_with("reuse 4 KiB .. 64 KiB: movnti -> libc (")) << said;
  // The warm loss is left, said, in both intents: the repair had nothing to try there.
  std::string left;
  for (const std::string &l : v.left)
    left += l + "\n";
  EXPECT_NE(left.find("reuse 40 B warm"), std::string::npos) << left;
  EXPECT_NE(left.find("stream 40 B warm"), std::string::npos) << left;
  // Each said once, judged against memset measured again (reuse's after its class's repair
  // raced it again; up to this test, the repair's line was said in each round), and counted.
  for (const std::string point : {"reuse 40 B warm", "stream 40 B warm"}) {
    size_t times = 0;
    for (const auto *list : {&v.left, &v.noise})
      for (const std::string &l : *list)
        times += l.starts_with(point + ": ");
    EXPECT_EQ(times, 1u) << point << " in:\n" << left;
    EXPECT_EQ(std::count_if(v.lost.begin(), v.lost.end(),
                            [&](const VerifyPoint &x) { return point_name(x) == point; }),
              1)
        << point;
  }
  for (const std::string &l : v.left)
    EXPECT_TRUE(l.ends_with(": loses beyond the noise")) << l;
}

// Issue 60's default tune on Zen 5 (L3 32 MiB), as a synthetic host: reuse's small path (stosb
// up to 1 KiB) and its first class (avx512:unroll=4 below 5.7 KiB) lose cold, at 48 B and
// 4.6 KiB scattered; the repair hands that band and that class to memset, after which the host
// still measures the band's point below memset, and memset measured a second time there as much
// below its first: the host's noise there, not the code. The tune took the repairs back
// (645be8d); then kept them and left the point (9166de0). It is memset's, so it is said as
// memset's noise, and nothing is left.
TEST(verify, WhatMemsetServesAndStillLosesIsItsOwnNoise) {
  const CpuInfo &cpu = cpu_kind("Zen5NoMovdir64b"); // synthetic: never run here
  Profile p = one_reuse_class(cpu, 5824, "avx512:unroll=4", {Small::stosb, 1024});
  p.small_stream = SmallPath{Small::libc, 256};
  SyntheticMeter bench(0.01, 5);
  const uint64_t below_class = 4672; // 0.8x 5824, to 64 B: "4.6 KiB"
  bench.set_model([=](const Job &j) -> std::optional<double> {
    const bool at = !j.warm && j.intent == Intent::reuse && j.pattern == Pattern::scattered &&
                    (j.size == 48 || j.size == below_class);
    if (at && (j.candidate.name() == "verified" || j.candidate.name() == "memset, again"))
      return 0.85;
    return std::nullopt;
  });
  const Verification v = verify(bench, p, cpu, {.repetitions = 3, .min_time = 0.001}, RaceOptions{},
                                {}, 4096, 1u << 30);
  const std::string said = all_said(v);
  EXPECT_TRUE(v.undone.empty()) << said;
  EXPECT_TRUE(v.left.empty()) << said;
  EXPECT_TRUE(v.lost.empty()) << said;
  ASSERT_EQ(v.repaired.size(), 2u) << said;
  ASSERT_EQ(p.reuse.size(), 1u) << said;
  EXPECT_EQ(p.reuse[0].kernel.method, Method::libc);
  EXPECT_EQ(describe(p.small(Intent::reuse, cpu)),
            "stosb below 16 B, libc below 64 B, stosb, up to 1024 B");
  // The class merged with memset's above it: its boundary, and the points beside it, are gone.
  ASSERT_EQ(v.noise.size(), 1u) << said;
  EXPECT_TRUE(v.noise[0].starts_with("reuse 48 B scattered: ")) << said;
  EXPECT_TRUE(v.noise[0].ends_with("memset's own band of the small path, inside its noise"))
      << said;
  EXPECT_NE(verification_toml(v).find("\nleft = []\n"), std::string::npos);
}

// A small path given another strategy is judged by the points it serves. Here reuse's tree
// loses warm at 40 B (3x memset's time) and the next strategy of the ranking, masked, does not
// (or takes 4x: taken back);
// a libc class's points (80 KiB) measure 0.25x memset's speed throughout, memset's noise on this
// synthetic host (memset measured again there as slow). Judged by the intent's worst point, the
// 80 KiB one, masked measured no better and was taken back (9166de0).
TEST(verify, ASmallPathIsJudgedByThePointsItServes) {
  const CpuInfo &cpu = cpu_kind("IntelEmeraldRapids"); // synthetic: never run here
  const Profile p = one_reuse_class(cpu, 65536, "avx2:unroll=4", {Small::tree, 256});
  const std::map<Intent, std::vector<SmallPath>> ranking{
      {Intent::reuse, {SmallPath{Small::tree, 256}, SmallPath{Small::masked, 256}}}};
  for (double masked_time : {1.0, 4.0}) {
    SCOPED_TRACE(masked_time == 1 ? "masked wins" : "masked worse");
    Profile q = p;
    SyntheticMeter bench(0.01, 6);
    bench.set_model([&](const Job &j) -> std::optional<double> {
      const std::string &who = j.candidate.name();
      if (!j.warm && j.size == 81920 && (who == "verified" || who == "memset, again")) return 0.25;
      if (j.warm && j.size == 40 && j.intent == Intent::reuse && who == "verified")
        return q.small(Intent::reuse, cpu).strategy == Small::tree ? 1 / 3.0 : 1 / masked_time;
      return std::nullopt;
    });
    const Verification v = verify(bench, q, cpu, {.repetitions = 3, .min_time = 0.001},
                                  RaceOptions{}, ranking, 4096, 1u << 30);
    const std::string said = all_said(v);
    EXPECT_EQ(v.noise.size(), 2u) << said; // 80 KiB, both patterns
    const std::string change = "reuse small path tree, up to 256 B -> masked, up to 256 B (";
    if (masked_time == 1) {
      EXPECT_EQ(q.small(Intent::reuse, cpu).strategy, Small::masked) << said;
      ASSERT_EQ(v.repaired.size(), 1u) << said;
      EXPECT_TRUE(v.repaired[0].starts_with(change)) << said;
      EXPECT_TRUE(v.undone.empty()) << said;
      EXPECT_TRUE(v.left.empty()) << said;
      EXPECT_TRUE(v.lost.empty()) << said;
    } else {
      // Taken back: tree again, repaired no further, its loss left and counted.
      EXPECT_EQ(q.small(Intent::reuse, cpu), (SmallPath{Small::tree, 256})) << said;
      EXPECT_TRUE(v.repaired.empty()) << said;
      ASSERT_EQ(v.undone.size(), 1u) << said;
      EXPECT_TRUE(v.undone[0].starts_with(change)) << said;
      EXPECT_NE(v.undone[0].find(", taken back: its worst point at "), std::string::npos);
      ASSERT_EQ(v.left.size(), 1u) << said;
      EXPECT_TRUE(v.left[0].starts_with("reuse 40 B warm: ")) << said;
      ASSERT_EQ(v.lost.size(), 1u);
      EXPECT_EQ(point_name(v.lost[0]), "reuse 40 B warm");
      EXPECT_GT(v.ratios.at(v.lost[0]), 2.5) << "its measurements before the repair";
    }
    EXPECT_EQ(q.reuse, p.reuse) << "the table, which lost nowhere, as it was";
  }
}

// A memset-served point's judgement holds for the profile it was made on: where a repair then
// gives the point another strategy that settles it, it is not left. Reuse's path is masked with
// memset below 64 B; the route to memset costs 3x memset's time at 40 B (memset measured again
// there: 1x), masked 3x at 80 B; tree, next in the ranking, settles both.
TEST(verify, AJudgementOfMemsetsPointGoesWithTheRepairedPath) {
  const CpuInfo &cpu = cpu_kind("IntelEmeraldRapids"); // synthetic: never run here
  Profile p =
      one_reuse_class(cpu, 65536, "avx2:unroll=4", {Small::masked, 256, {{64, Small::libc}}});
  const std::map<Intent, std::vector<SmallPath>> ranking{
      {Intent::reuse, {SmallPath{Small::masked, 256}, SmallPath{Small::tree, 256}}}};
  SyntheticMeter bench(0.01, 7);
  bench.set_model([&](const Job &j) -> std::optional<double> {
    if (!j.warm || j.intent != Intent::reuse || j.candidate.name() != "verified" ||
        (j.size != 40 && j.size != 80))
      return std::nullopt;
    return p.small(Intent::reuse, cpu).strategy == Small::tree ? 1.0 : 1 / 3.0;
  });
  const Verification v = verify(bench, p, cpu, {.repetitions = 3, .min_time = 0.001}, RaceOptions{},
                                ranking, 4096, 1u << 30);
  const std::string said = all_said(v);
  EXPECT_EQ(p.small(Intent::reuse, cpu), (SmallPath{Small::tree, 256})) << said;
  ASSERT_EQ(v.repaired.size(), 1u) << said;
  EXPECT_TRUE(v.left.empty()) << said;
  EXPECT_TRUE(v.lost.empty()) << said;
  EXPECT_TRUE(v.noise.empty()) << said;
  // The 40 B point was judged against memset measured again, on the path before the repair.
  EXPECT_TRUE(std::any_of(v.measurements.begin(), v.measurements.end(), [](const Measurement &m) {
    return m.candidate.name() == "memset, again" && m.size == 40;
  }));
}

// `clearjit verify` races each memset class's stand-in against memset just inside both ends of
// the class; classes that are not memset's, or have no stand-in, are not raced.
TEST(verify_StandIns, EachMemsetClassRacesItsStandInAtBothEnds) {
  const CpuInfo &cpu = cpu_kind("IntelEmeraldRapids"); // synthetic: never run here
  Profile p;
  p.host = profile_host(cpu);
  p.libc = "glibc 2.36";
  p.reuse = {{65536, spec("libc")}, {1 << 20, spec("movnti")}, {0, spec("libc")}};
  p.reuse[0].stand_in = spec("avx2");
  p.reuse[2].stand_in = spec("stosb");
  p.stream = {{0, spec("libc")}}; // no stand-in: not raced
  SyntheticMeter bench(0.01, 5);
  bench.set("avx2", 0.8);
  bench.set("stosb", 2.5);
  const std::vector<StandInSpeed> speeds = stand_in_speeds(
      bench, p, cpu, {.repetitions = 3, .min_time = 0.001}, RaceOptions{}, 4096, 64 << 20);
  std::vector<std::pair<uint64_t, std::string>> raced;
  for (const StandInSpeed &s : speeds) {
    EXPECT_EQ(s.intent, Intent::reuse);
    raced.push_back({s.size, format_spec(s.stand_in)});
    // Synthetic speeds: avx2 at 0.8x memset's, stosb at 2.5x.
    EXPECT_NEAR(s.score.median, s.stand_in.method == Method::stosb ? 2.5 : 0.8, 0.1) << s.size;
    EXPECT_NEAR(s.stand_in_gbps / s.memset_gbps, s.score.median, 0.1) << s.size;
  }
  // 1.25x 4 KiB and 0.8x 64 KiB - 1, then 1.25x 1 MiB and 0.8x 64 MiB, rounded down to 64 B.
  EXPECT_EQ(raced, (std::vector<std::pair<uint64_t, std::string>>{
                       {5120, "avx2"}, {52416, "avx2"}, {1310720, "stosb"}, {53687040, "stosb"}}));
  const std::string text = stand_in_text(speeds, "glibc 2.41");
  EXPECT_NE(text.find("against glibc 2.41's memset"), std::string::npos) << text;
  EXPECT_NE(text.find("reuse   1 MiB .. up"), std::string::npos) << text;
  EXPECT_EQ(stand_in_text({}, "glibc 2.41"), "");
}

TEST(verify, ALossInsideTheNoiseIsNotCounted) {
  // The planted class at 0.98x memset's speed under 5% noise: inside the floor's 3%, so no
  // seed's bound puts it below, while 0.80x is caught at every seed.
  const CpuInfo &cpu = cpu_kind("IntelEmeraldRapids"); // synthetic: never run here
  Profile p = planted_movnti(cpu);
  RaceOptions race;
  race.confidence = 0.95;
  race.max_rounds = 14;
  for (uint64_t seed = 1; seed <= 10; ++seed)
    for (double factor : {0.98, 0.80}) {
      SyntheticMeter bench(0.05, seed);
      for (uint64_t inside : {5120u, 52416u})
        bench.set_at("verified", inside, factor);
      Profile q = p;
      const Verification v = verify(bench, q, cpu, {.repetitions = 3, .min_time = 0.001}, race, {},
                                    4096, 1u << 30, /*repairs_allowed=*/false);
      if (factor > 0.97)
        EXPECT_TRUE(v.lost.empty()) << "seed " << seed << ": " << v.left.front();
      else
        EXPECT_EQ(v.lost.size(), 4u) << "seed " << seed;
    }
}

TEST(verify, WritingItBackReplacesOnlyTheVerificationTables) {
  TuneResult r;
  r.reuse = two_tables().reuse;
  r.stream = two_tables().stream;
  r.level = "quick";
  r.date = "2026-12-01T00:00:00Z";
  r.verification.measured = "the tuner's";
  r.verification.worst_cold = {{Intent::reuse, 0.99}};
  const CpuInfo cpu = full_cpu();
  const std::string tuned = profile_toml(r, cpu);
  Verification later;
  later.measured = "clearjit verify's";
  later.worst_cold = {{Intent::stream, 1.01}};
  later.left = {"stream 5 KiB consecutive: 0.50x, 0.51x memset's speed"};
  const std::string written = with_verification(tuned, later);
  EXPECT_EQ(written.find("the tuner's"), std::string::npos) << written;
  EXPECT_EQ(written.find("worst_cold = 0.99"), std::string::npos) << written;
  EXPECT_TRUE(written.ends_with(verification_toml(later))) << written;
  // Every line but the old verification's is kept, in order.
  std::string kept;
  bool in_verification = false;
  for (const std::string &line : split_lines(tuned)) {
    if (line.starts_with("[")) in_verification = line.starts_with("[verification");
    if (!in_verification) kept += line + "\n";
  }
  while (kept.ends_with("\n\n"))
    kept.pop_back();
  EXPECT_TRUE(written.starts_with(kept)) << written;
  auto back = parse_profile(written, "written.toml", cpu);
  ASSERT_TRUE(back) << back.error;
  EXPECT_EQ(back.value->reuse, r.reuse);
  EXPECT_EQ(with_verification(written, later), written) << "idempotent";
  // A header with blanks around it and its name is the same table to TOML, and replaced too.
  std::string spaced = tuned;
  const size_t at = spaced.find("[verification]\n");
  ASSERT_NE(at, std::string::npos);
  spaced.replace(at, 15, "  [ verification ]  # by hand\n");
  const std::string respaced = with_verification(spaced, later);
  EXPECT_EQ(respaced.find("the tuner's"), std::string::npos) << respaced;
  EXPECT_TRUE(parse_profile(respaced, "respaced.toml", cpu)) << respaced;
}

} // namespace
} // namespace cjit::detail::test

namespace cjit::detail::test {
namespace {

// A cold small loss gives that point's band back to memset, the rest of the path staying: the
// repair tried on a masked path losing at 16 and 48 B scattered is masked with memset for
// 16..63 B. (The synthetic bench times the label "verified", not the code, so the repaired
// profile loses as before; what it tried is the subject here.)
TEST(verify_Small, AColdLossGivesItsBandToMemset) {
  const CpuInfo &cpu = cpu_kind("IntelEmeraldRapids"); // synthetic: never run here
  Profile p;
  p.host = profile_host(cpu);
  p.reuse = {{0, *parse_spec("libc").value}};
  p.stream = p.reuse;
  p.small_reuse = p.small_stream = SmallPath{Small::masked, 256};
  SyntheticMeter bench(0.01, 4);
  for (uint64_t n : {16u, 48u})
    bench.set_at("verified", n, 0.7);
  const Verification v = verify(bench, p, cpu, {.repetitions = 3, .min_time = 0.001}, RaceOptions{},
                                {}, 4096, 1u << 30);
  std::string tried;
  for (const std::string &t : v.undone)
    tried += t + "\n";
  for (const std::string &t : v.repaired)
    tried += t + "\n";
  EXPECT_NE(tried.find("small path masked, up to 256 B -> masked below 16 B, libc below 64 B, "
                       "masked, up to 256 B"),
            std::string::npos)
      << tried;
}

} // namespace
// The profile names the memset it was measured against: the tune's, then the last verification's
// (`clearjit verify -o` under another C library), which is what `which` and `check` compare with.
TEST(verify, TheProfileNamesTheMemsetItWasMeasuredAgainst) {
  TuneResult r;
  r.reuse = two_tables().reuse;
  r.stream = two_tables().stream;
  r.level = "quick";
  r.date = "2026-12-05T00:00:00Z";
  r.libc = "glibc 2.41";
  const CpuInfo cpu = full_cpu();
  const std::string tuned = profile_toml(r, cpu);
  EXPECT_EQ(recorded_libc(tuned), "glibc 2.41") << tuned;
  Verification later;
  later.measured = "clearjit verify's";
  later.libc = "glibc 2.36";
  EXPECT_EQ(recorded_libc(with_verification(tuned, later)), "glibc 2.36");
  EXPECT_EQ(recorded_libc("format = 1\n"), "");
  EXPECT_EQ(recorded_libc("[tuning]\nlibc = 3\n"), ""); // not a string: not recorded
}

} // namespace cjit::detail::test
