// clearjit choose: races judged again from raw files (replay_race), merged over hosts, and the
// tables chosen from the merged standings. A whole tune on a Meter of synthetic timings gives
// the raw file of the single-host case, on each kind of CPU of cpu_kinds.hpp (and this host);
// hand-made races give hosts that disagree. No timing is measured or asserted.
#include "tests/support/cpu_kinds.hpp"
#include "tests/support/support.hpp"
#include "tests/support/synthetic_meter.hpp"
#include "tuner/choose/fleet.hpp"
#include "tuner/report/outputs.hpp"

#include <gtest/gtest.h>

using namespace cjit;
using namespace cjit::detail;
using cjit::test::huge_page_machine;
using cjit::test::SyntheticMeter;
using namespace cjit::detail::test;

namespace {

// A one-size race of the reuse table at 64 KiB, scattered: memset at 10 GB/s and each
// candidate at its factor, over 12 rounds with a deterministic spread of +-1%.
RaceRecord reuse_race(const std::vector<std::pair<std::string, double>> &factors,
                      uint64_t size = 64 << 10) {
  RaceRecord r;
  r.race.name = "reuse " + human_bytes(size);
  r.decides = "reuse";
  r.intent = Intent::reuse;
  r.size = size;
  r.race.min_gain = RaceOptions{}.min_gain;
  Job job(default_spec(Method::libc), size, Intent::reuse);
  r.race.conditions = {{job, true}};
  auto rounds = [](double speed) {
    std::vector<double> v;
    for (int j = 0; j < 12; ++j)
      v.push_back(speed * (1 + 0.01 * ((j * 7) % 5 - 2) / 2));
    return v;
  };
  r.samples.push_back({rounds(10)});
  for (auto &[spec, factor] : factors) {
    r.race.candidates.push_back(*parse_spec(spec));
    r.samples.push_back({rounds(10 * factor)});
  }
  return r;
}

RawTune host(const std::string &name, std::vector<RaceRecord> races,
             const CpuInfo &cpu = full_cpu()) {
  RawTune t;
  t.name = name;
  t.level = "quick";
  t.date = "2026-12-04T12:00:00Z, " + name; // each a tune of its own (choose refuses one twice)
  t.host = profile_host(cpu);
  t.cpus = 2;
  t.options.confidence = 0.95;
  t.races = std::move(races);
  for (Intent i : kIntents)
    t.small[i] = SmallPath{Small::tree, 256};
  return t;
}

Spec kernel_at(const std::vector<SizeClass> &table, uint64_t size) {
  return class_for(table, size).kernel;
}

FleetChoice choose_or_fail(const std::vector<RawTune> &runs) {
  Result<FleetChoice> c = choose_fleet(runs);
  EXPECT_TRUE(c) << c.error;
  return c ? *c.value : FleetChoice{};
}

} // namespace

TEST(fleet, ReplayingARaceGivesTheOutcomeRacingGave) {
  SyntheticMeter bench(0.05, 7);
  bench.set("avx2", 1.3);
  bench.set("avx512", 1.35);
  RaceOptions options;
  Racing racing(bench, options, {});
  Job job(default_spec(Method::libc), 1 << 20, Intent::reuse);
  racing.add({.name = "reuse 1 MiB",
              .conditions = {{job, true}, {in_pattern(job, Pattern::hot), true}},
              .candidates = {*parse_spec("avx2"), *parse_spec("avx512"), *parse_spec("movnti")}});
  racing.run(0);
  const RaceRecord r = racing.record(0, "reuse", Intent::reuse, 1 << 20);
  const RaceOutcome replayed = replay_race(r.race, r.samples, options);
  const RaceOutcome &o = racing.outcome(0);
  EXPECT_EQ(replayed.winner, o.winner);
  EXPECT_EQ(replayed.rounds, o.rounds);
  EXPECT_EQ(replayed.settled, o.settled);
  ASSERT_EQ(replayed.field.size(), o.field.size());
  for (size_t k = 0; k < o.field.size(); ++k) {
    EXPECT_EQ(replayed.field[k].out, o.field[k].out);
    EXPECT_EQ(replayed.field[k].beats, o.field[k].beats);
    EXPECT_EQ(replayed.field[k].score.lower, o.field[k].score.lower);
  }
}

namespace {

// The CPUs the whole-tune tests run over: every kind of cpu_kinds.hpp, and this host, whose
// assertions hold on any CPU.
std::vector<std::string> cpu_names() {
  std::vector<std::string> out;
  for (const CpuKind &k : cpu_kinds())
    out.push_back(k.name);
  out.push_back("Host");
  return out;
}

const CpuInfo &cpu_named(const std::string &name) {
  return name == "Host" ? host_cpu() : cpu_kind(name);
}

// Synthetic timings under which kernels win on every kind of CPU, at different sizes: the
// widest temporal vector kernel the CPU has (the tuner races only that one) below 64 MiB, and
// rep stosb, which every CPU runs, from there; clzero, where the CPU has it, cold only.
void kernels_win_on_every_cpu(SyntheticMeter &bench) {
  for (const char *vec : {"sse", "avx2", "avx512"}) {
    bench.set(vec, 1.3);
    bench.set(vec, Pattern::hot, 1.2);
  }
  bench.set_from("stosb", 64 << 20, 1.6);
  bench.set("clzero", Pattern::scattered, 1.4);
  bench.set("clzero", Pattern::consecutive, 1.4);
  bench.set("clzero", Pattern::hot, 0.5);
  bench.set_at("clearjit_clear_parallel threads=2", 256 << 20, 1.5);
}

} // namespace

// The raw file of a whole tune, read back and chosen from alone, gives the profile that tune
// wrote: its tables, small paths, thread counts and no-allocate step. On every kind of CPU, at
// every level (default reads sizes from their variants' races), and cut short by a time limit
// (races of no rounds).
using OneHostCase = std::tuple<std::string, std::pair<Level, double>>;
std::string case_name(const testing::TestParamInfo<OneHostCase> &i) {
  const std::pair<Level, double> run = std::get<1>(i.param);
  return std::get<0>(i.param) + "_" + std::string(level_name(run.first)) +
         (run.second > 0 ? "_cut" : "");
}
class fleet_OneHost : public testing::TestWithParam<OneHostCase> {};
INSTANTIATE_TEST_SUITE_P(Fleet, fleet_OneHost,
                         testing::Combine(testing::ValuesIn(cpu_names()),
                                          testing::Values(std::pair{Level::quick, 0.0},
                                                          std::pair{Level::default_, 0.0},
                                                          std::pair{Level::quick, 0.2})),
                         case_name);
TEST_P(fleet_OneHost, FileGivesTheProfileItsTuneWrote) {
  const auto &[cpu_name, run] = GetParam();
  SyntheticMeter bench(0.03, 11);
  kernels_win_on_every_cpu(bench);
  TuneOptions o;
  o.level = run.first;
  o.time_limit = run.second;
  o.max_size = 512 << 20;
  o.progress = false;
  const CpuInfo &cpu = cpu_named(cpu_name);
  const TuneResult r = tune(o, cpu, bench);
  Result<RawTune> raw = read_raw(measurements_json(r, cpu), "tune.json");
  ASSERT_TRUE(raw) << raw.error;
  const FleetChoice c = choose_or_fail({*raw.value});
  EXPECT_EQ(c.profile.reuse, r.reuse);
  EXPECT_EQ(c.profile.stream, r.stream);
  EXPECT_EQ(c.profile.batch, r.batch);
  ASSERT_TRUE(r.small);
  EXPECT_EQ(c.profile.small_reuse, r.small->reuse);
  EXPECT_EQ(c.profile.small_stream, r.small->stream);
  ASSERT_TRUE(r.parallel);
  EXPECT_EQ(c.profile.parallel_reuse, r.parallel->reuse);
  EXPECT_EQ(c.profile.parallel_stream, r.parallel->stream);
  EXPECT_EQ(c.stosb_no_allocate.size, r.findings.stosb_no_allocate.size);
  EXPECT_EQ(c.profile.host, profile_host(cpu));
  EXPECT_EQ(c.nontemporal_reuse, r.findings.nontemporal_reuse);
  EXPECT_EQ(c.nontemporal_stream, r.findings.nontemporal_stream);
  // Not a vacuous comparison: the synthetic timings make kernels win, and the winner change
  // with the size, on every CPU.
  if (o.time_limit == 0) {
    EXPECT_GT(r.reuse.size() + r.stream.size(), 2u);
  }
  if (o.level == Level::default_) {
    size_t variants = 0;
    for (const RaceRecord &rec : r.race_records)
      variants += rec.decides == "variants";
    EXPECT_GT(variants, 0u);
  }
}

// `clearjit choose` reads a huge page's races as the tuner does: decided alone. The raw file of
// a tune on the huge-page machine, whose grid (from 3 KiB, up to 1.5 GiB) has neither huge page,
// gives its tune's tables: exactly 2 MiB and 1 GiB to ntavx512 in stream and batch, and
// batched 4 KiB pieces.
TEST(fleet, HugePagesAreDecidedAloneAsTheTunerDecidedThem) {
  SyntheticMeter bench(0.02, 41);
  bench.set_model(huge_page_machine);
  TuneOptions o;
  o.level = Level::quick;
  o.min_size = 3 << 10;
  o.max_size = 1536ull << 20;
  o.progress = false;
  const CpuInfo &cpu = cpu_kind("IntelEmeraldRapids");
  const TuneResult r = tune(o, cpu, bench);
  Result<RawTune> raw = read_raw(measurements_json(r, cpu), "tune.json");
  ASSERT_TRUE(raw) << raw.error;
  const FleetChoice c = choose_or_fail({*raw.value});
  EXPECT_EQ(c.profile.stream, r.stream);
  EXPECT_EQ(c.profile.batch, r.batch);
  for (const std::vector<SizeClass> *t : {&c.profile.stream, &c.profile.batch})
    for (uint64_t size : kHugePages) {
      EXPECT_EQ(kernel_at(*t, size).method, Method::ntavx512) << size;
      EXPECT_EQ(kernel_at(*t, size / 2).method, Method::libc) << size / 2;
      EXPECT_EQ(kernel_at(*t, size * 2).method, Method::libc) << size * 2;
    }
  EXPECT_EQ(kernel_at(c.profile.batch, 4 << 10).method, Method::ntavx512);
}

// The raw files of a default tune (two sizes per octave, variants' races) and a quick one (one
// per octave) give tables where no kernel serves two separated ranges, and every class has a
// speed: each host judges the sizes it did not race by its raced sizes around them. On every
// kind of CPU.
class fleet_TwoLevels : public testing::TestWithParam<std::string> {};
INSTANTIATE_TEST_SUITE_P(Fleet, fleet_TwoLevels, testing::ValuesIn(cpu_names()),
                         [](const testing::TestParamInfo<std::string> &i) { return i.param; });
TEST_P(fleet_TwoLevels, NoKernelServesTwoSeparatedRanges) {
  const CpuInfo &cpu = cpu_named(GetParam());
  std::vector<RawTune> runs;
  for (auto [level, seed] : {std::pair{Level::default_, 11}, {Level::quick, 12}}) {
    SyntheticMeter bench(0.03, seed); // two hosts: two draws of the noise
    kernels_win_on_every_cpu(bench);
    TuneOptions o;
    o.level = level;
    o.max_size = 512 << 20;
    o.progress = false;
    Result<RawTune> raw = read_raw(measurements_json(tune(o, cpu, bench), cpu),
                                   std::string(level_name(level)) + ".json");
    ASSERT_TRUE(raw) << raw.error;
    runs.push_back(*raw.value);
  }
  const FleetChoice c = choose_or_fail(runs);
  for (const std::vector<SizeClass> *t : {&c.profile.reuse, &c.profile.stream, &c.profile.batch}) {
    std::set<Spec> kernels;
    for (const SizeClass &k : *t) {
      EXPECT_TRUE(kernels.insert(k.kernel).second) << format_spec(k.kernel) << " twice";
      EXPECT_GT(k.gbps, 0) << format_spec(k.kernel);
    }
  }
  // Not vacuous: kernels win in the choice, and the quick file's sizes were not all the default's.
  EXPECT_GT(c.profile.reuse.size(), 1u);
  EXPECT_TRUE(std::any_of(c.notes.begin(), c.notes.end(), [](const std::string &n) {
    return n.starts_with("quick.json (quick): ") && n.find("judged by the worse") != n.npos;
  }));
}

TEST(fleet, TheWorstHostDecides) {
  // avx512 is far ahead on one host and barely ahead on the other: avx2, ahead on both.
  const RawTune a = host("a.json", {reuse_race({{"avx2", 1.3}, {"avx512", 1.6}})});
  const RawTune b = host("b.json", {reuse_race({{"avx2", 1.3}, {"avx512", 1.08}})});
  EXPECT_EQ(kernel_at(choose_or_fail({a}).profile.reuse, 64 << 10), *parse_spec("avx512"));
  const FleetChoice both = choose_or_fail({a, b});
  EXPECT_EQ(kernel_at(both.profile.reuse, 64 << 10), *parse_spec("avx2"));
  EXPECT_EQ(both.profile.host.hosts, 2);
  // Slower than memset on one host: memset, though 1.6x on the other.
  const RawTune c = host("c.json", {reuse_race({{"avx2", 0.9}, {"avx512", 0.9}})});
  EXPECT_EQ(kernel_at(choose_or_fail({a, c}).profile.reuse, 64 << 10).method, Method::libc);
}

TEST(fleet, FeaturesAreThoseEveryHostHas) {
  // Host b lacks AVX-512 but its file says avx512 raced (a hand-made file): the intersection
  // of the features still excludes it.
  RawTune a = host("a.json", {reuse_race({{"avx2", 1.3}, {"avx512", 1.6}})});
  RawTune b =
      host("b.json", {reuse_race({{"avx2", 1.3}, {"avx512", 1.6}})}, cpu_without(Feature::avx512f));
  a.host.l3 = 64 << 20;
  b.host.l3 = 32 << 20;
  const FleetChoice c = choose_or_fail({a, b});
  EXPECT_EQ(c.profile.host.l3, 32 << 20); // the smallest: what every host has
  EXPECT_EQ(kernel_at(c.profile.reuse, 64 << 10), *parse_spec("avx2"));
  const auto &f = c.profile.host.features;
  EXPECT_EQ(std::find(f.begin(), f.end(), "avx512f"), f.end());
  EXPECT_NE(std::find(f.begin(), f.end(), "avx2"), f.end());
}

TEST(fleet, AKernelOnlyOneHostRanIsExcluded) {
  // Both hosts run AVX-512; b did not race avx512 (a narrower tune): it has no standing there.
  const RawTune a = host("a.json", {reuse_race({{"avx2", 1.3}, {"avx512", 1.6}})});
  const RawTune b = host("b.json", {reuse_race({{"avx2", 1.3}})});
  const FleetChoice c = choose_or_fail({a, b});
  EXPECT_EQ(kernel_at(c.profile.reuse, 64 << 10), *parse_spec("avx2"));
}

TEST(fleet, ASizeAHostDidNotRaceIsJudgedByItsRacedSizesAround) {
  // a raced 1..8 MiB twice per octave, b 1..4 MiB once per octave (a quick tune beside a default
  // one). avx2 is 1.3x memset on a everywhere; on b 0.9x at 1 MiB, 1.3x at 2 and 4 MiB.
  constexpr uint64_t M = 1 << 20;
  auto race = [](double avx2, uint64_t size) { return reuse_race({{"avx2", avx2}}, size); };
  std::vector<RaceRecord> a_races;
  for (uint64_t size : {M, 3 * M / 2, 2 * M, 3 * M, 4 * M, 6 * M, 8 * M})
    a_races.push_back(race(1.3, size));
  const RawTune a = host("a.json", a_races);
  const RawTune b = host("b.json", {race(0.9, M), race(1.3, 2 * M), race(1.3, 4 * M)});
  const FleetChoice c = choose_or_fail({a, b});
  // 1.5 MiB: b's worse neighbour (1 MiB) loses; 3 MiB: both of b's beat; 6 and 8 MiB are beyond
  // b's sizes, where it has no evidence: memset.
  const std::vector<SizeClass> &t = c.profile.reuse;
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].kernel.method, Method::libc);
  EXPECT_EQ(t[0].below, round_boundary(std::sqrt(1.5 * 2) * M));
  EXPECT_EQ(t[1].kernel, *parse_spec("avx2"));
  EXPECT_EQ(t[1].below, round_boundary(std::sqrt(4.0 * 6) * M));
  EXPECT_EQ(t[2].kernel.method, Method::libc);
  for (const SizeClass &k : t)
    EXPECT_GT(k.gbps, 0);
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_NE(
      c.notes[0].find("b.json (quick): 2 races at sizes it did not race (1.5 MiB .. 3 MiB) judged "
                      "by the worse of its raced sizes on either side; 2 races beyond the "
                      "sizes it raced (6 MiB .. 8 MiB)"),
      std::string::npos)
      << c.notes[0];
}

TEST(fleet, ARaceOfNoRoundsOrNoStateInCommonIsMemsets) {
  // b's race at 64 KiB ran no rounds (a tune cut short): no evidence there.
  RaceRecord empty = reuse_race({{"avx2", 1.3}});
  for (auto &per_contender : empty.samples)
    for (auto &rounds : per_contender)
      rounds.clear();
  const RawTune a = host("a.json", {reuse_race({{"avx2", 1.3}})});
  const RawTune b = host("b.json", {empty});
  EXPECT_EQ(kernel_at(choose_or_fail({a}).profile.reuse, 64 << 10), *parse_spec("avx2"));
  EXPECT_EQ(kernel_at(choose_or_fail({a, b}).profile.reuse, 64 << 10).method, Method::libc);
  // Hosts that measured no state in common: memset too.
  RawTune d = host("d.json", {reuse_race({{"avx2", 1.3}})});
  d.races[0].race.conditions[0].job.pattern = Pattern::consecutive;
  EXPECT_EQ(kernel_at(choose_or_fail({a, d}).profile.reuse, 64 << 10).method, Method::libc);
}

TEST(fleet, HostsOfDifferentModelsAreRefusedByName) {
  CpuInfo other = full_cpu();
  other.model = 17;
  const RawTune a = host("a.json", {reuse_race({{"avx2", 1.3}})});
  const RawTune b = host("b.json", {reuse_race({{"avx2", 1.3}})}, other);
  Result<FleetChoice> c = choose_fleet({a, b});
  ASSERT_FALSE(c);
  EXPECT_NE(c.error.find("a.json is AuthenticAMD family 25 model 1"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("b.json is AuthenticAMD family 25 model 17"), std::string::npos)
      << c.error;
}

TEST(fleet, FindingsAreTheConservativeValueOrNone) {
  RawTune a = host("a.json", {reuse_race({{"avx2", 1.3}})});
  RawTune b = host("b.json", {reuse_race({{"avx2", 1.3}})});
  a.stosb_no_allocate.size = 32 << 20;
  b.stosb_no_allocate.size = 64 << 20;
  EXPECT_EQ(choose_or_fail({a, b}).stosb_no_allocate.size, uint64_t(64) << 20);
  b.stosb_no_allocate.size = 256 << 20; // beyond an octave: the hosts disagree
  EXPECT_FALSE(choose_or_fail({a, b}).stosb_no_allocate.size);
  b.stosb_no_allocate.size.reset();
  EXPECT_FALSE(choose_or_fail({a, b}).stosb_no_allocate.size);
  // Small paths: the one both chose at the smaller max; where they differ, the best worst host.
  a.small[Intent::reuse] = {Small::stosb, 1024};
  b.small[Intent::reuse] = {Small::stosb, 512};
  EXPECT_EQ(choose_or_fail({a, b}).profile.small_reuse, (SmallPath{Small::stosb, 512}));
  b.small[Intent::reuse] = {Small::vec, 512};
  a.small_ranking[Intent::reuse] = {{{Small::stosb, 256}, 0.90}, {{Small::vec, 256}, 0.95}};
  b.small_ranking[Intent::reuse] = {{{Small::vec, 256}, 0.92}, {{Small::stosb, 256}, 1.20}};
  EXPECT_EQ(choose_or_fail({a, b}).profile.small_reuse, (SmallPath{Small::vec, 256}));
}

TEST(fleet, AVerificationRepairOnAnyHostIsKept) {
  RawTune a = host("a.json", {reuse_race({{"avx2", 1.3}})});
  RawTune b = host("b.json", {reuse_race({{"avx2", 1.3}})});
  b.memset_repairs.push_back({Intent::reuse, 0, 0, *parse_spec("avx2")});
  EXPECT_EQ(kernel_at(choose_or_fail({a}).profile.reuse, 64 << 10), *parse_spec("avx2"));
  EXPECT_EQ(kernel_at(choose_or_fail({a, b}).profile.reuse, 64 << 10).method, Method::libc);
  // A repair of a part: only that part, and only where the choice runs that kernel.
  b.memset_repairs = {{Intent::reuse, 32 << 10, 128 << 10, *parse_spec("avx2")},
                      {Intent::reuse, 0, 8 << 10, *parse_spec("avx512")}};
  const std::vector<SizeClass> t = choose_or_fail({a, b}).profile.reuse;
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].below, 32u << 10);
  EXPECT_EQ(t[0].kernel, *parse_spec("avx2"));
  EXPECT_EQ(t[1].below, 128u << 10);
  EXPECT_EQ(t[1].kernel.method, Method::libc);
  EXPECT_EQ(t[2].below, 0u);
  EXPECT_EQ(t[2].kernel, *parse_spec("avx2"));
  // memset's class gets memset's speed at 64 KiB (10 GB/s): inside it, or, where a repair cut
  // the class between raced sizes (32..48 KiB), the nearest.
  EXPECT_NEAR(t[1].gbps, 10, 0.1);
  b.memset_repairs = {{Intent::reuse, 32 << 10, 48 << 10, *parse_spec("avx2")}};
  const std::vector<SizeClass> cut = choose_or_fail({a, b}).profile.reuse;
  ASSERT_EQ(cut.size(), 3u);
  EXPECT_EQ(cut[1].kernel.method, Method::libc);
  EXPECT_EQ(cut[1].below, 48u << 10);
  EXPECT_NEAR(cut[1].gbps, 10, 0.1);
}

TEST(fleet, OneTuneGivenTwiceIsRefusedNamingBoth) {
  const RawTune a = host("a.json", {reuse_race({{"avx2", 1.3}})});
  RawTune copy = a;
  copy.name = "copy.json";
  for (const RawTune &second : {a, copy}) {
    Result<FleetChoice> c =
        choose_fleet({a, host("b.json", {reuse_race({{"avx2", 1.2}})}), second});
    ASSERT_FALSE(c);
    EXPECT_NE(c.error.find("a.json and " + second.name + " are one tune (the same host, date " +
                           a.date + " and samples): each host counts once"),
              std::string::npos)
        << c.error;
  }
  // Two hosts of one model tuned at the same second: their samples differ.
  RawTune twin = host("twin.json", {reuse_race({{"avx2", 1.31}})});
  twin.date = a.date;
  EXPECT_EQ(choose_or_fail({a, twin}).profile.host.hosts, 2);
}

TEST(fleet, HowTheHostsDifferIsSaidAndEachHostKept) {
  CpuInfo other = cpu_without(Feature::avx512f);
  other.stepping = 2;
  other.brand = "Test CPU B";
  RawTune a = host("a.json", {reuse_race({{"avx2", 1.3}})});
  RawTune b = host("b.json", {reuse_race({{"avx2", 1.2}})}, other);
  a.host.l3 = 64 << 20;
  b.host.l3 = 32 << 20;
  b.cpus = 4;
  a.libc = "glibc 2.36";
  b.libc = "glibc 2.41";
  const FleetChoice c = choose_or_fail({a, b});
  const std::vector<std::string> said = {
      "the hosts differ in brand: \"Test CPU\" (a.json), \"Test CPU B\" (b.json); [host] "
      "leaves it empty, [[host.each]] has each",
      "the hosts differ in stepping: 1 (a.json), 2 (b.json); [host] says 0, [[host.each]] has "
      "each",
      "the hosts differ in l3: 64 MiB (a.json), 32 MiB (b.json); [host] says the smallest",
      "the hosts differ in CPUs: 2 (a.json), 4 (b.json); [parallel] cpus is the fewest",
      "the hosts differ in C library: glibc 2.36 (a.json), glibc 2.41 (b.json); each race's "
      "incumbent was its host's memset; [tuning] names none",
      "the hosts differ in feature avx512f: has it (a.json), lacks it (b.json); [host] lists "
      "those every host has: nothing chosen needs avx512f"};
  for (const std::string &n : said)
    EXPECT_NE(std::find(c.notes.begin(), c.notes.end(), n), c.notes.end()) << n;
  EXPECT_EQ(c.profile.host.brand, "");
  EXPECT_EQ(c.profile.host.stepping, 0);
  // Each host's [host] in [[host.each]]; the loader reads the profile as before.
  const std::string toml = fleet_toml(c);
  EXPECT_NE(toml.find("\n[[host.each]]\nfile = \"a.json\"\nlevel = \"quick\"\ndate = \"" + a.date +
                      "\"\nlibc = \"glibc 2.36\"\ncpus = 2\n" + format_host(a.host)),
            std::string::npos)
      << toml;
  EXPECT_NE(toml.find("\ncpus = 4\n" + format_host(b.host)), std::string::npos) << toml;
  EXPECT_EQ(recorded_libc(toml), "") << "hosts measured against different memsets";
  EXPECT_NE(format_host(b.host).find("\nstepping = 2\nbrand = \"Test CPU B\"\n"),
            std::string::npos);
  Result<Profile> back = parse_profile(toml, "chosen.toml", c.cpu);
  ASSERT_TRUE(back) << back.error;
  Profile read = *back.value;
  read.source.clear();
  EXPECT_EQ(read, c.profile);
  EXPECT_TRUE(back->warnings.empty());
  // Only the brands differ: the stepping stays.
  RawTune renamed = host("renamed.json", {reuse_race({{"avx2", 1.2}})});
  renamed.host.brand = "Test CPU B";
  EXPECT_EQ(choose_or_fail({a, renamed}).profile.host.stepping, 1);
  // One host: no differences, and no [[host.each]] (its [host] says it all).
  const FleetChoice one = choose_or_fail({a});
  EXPECT_EQ(fleet_toml(one).find("[[host.each]]"), std::string::npos);
}

TEST(fleet, SmallPathsAndThreadCountsEveryHostRuns) {
  // Both chose stosb, which needs FSRM; b lacks it: the ranking chooses among what both run,
  // leaving out what a verification replaced.
  RawTune a = host("a.json", {reuse_race({{"avx2", 1.3}})});
  RawTune b = host("b.json", {reuse_race({{"avx2", 1.3}})}, cpu_without(Feature::fsrm));
  a.cpus = 8;
  for (RawTune *t : {&a, &b}) {
    t->small[Intent::reuse] = {Small::stosb, 512};
    t->small_ranking[Intent::reuse] = {
        {{Small::stosb, 256}, 0.8}, {{Small::masked, 256}, 0.9}, {{Small::vec, 256}, 0.95}};
  }
  EXPECT_EQ(choose_or_fail({a, b}).profile.small_reuse, (SmallPath{Small::masked, 256}));
  b.small_rejected[Intent::reuse] = {Small::masked};
  const FleetChoice c = choose_or_fail({a, b});
  EXPECT_EQ(c.profile.small_reuse, (SmallPath{Small::vec, 256}));
  EXPECT_EQ(c.profile.parallel_cpus, 0u); // no thread races: no [parallel]
}
