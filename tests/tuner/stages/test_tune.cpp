// The tuner's stage loop (tune.cpp) on a Meter of synthetic timings and a synthetic CPU: every
// decision is a race at every level, a time limit takes rounds and never a stage, undecided means
// memset, and the no-allocate step is found at every level. No timing is measured or asserted.
#include "tests/support/cpu_kinds.hpp"
#include "tests/support/synthetic_meter.hpp"
#include "tuner/measure/c_library.hpp"
#include "tuner/stages/tune.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace cjit::detail;
using cjit::detail::test::cpu_kind;
using cjit::detail::test::synthetic_zen3;
using cjit::test::huge_page_machine;
using cjit::test::SyntheticMeter;

namespace {

TuneResult run(SyntheticMeter &bench, Level level, double time_limit = 0) {
  TuneOptions o;
  o.level = level;
  o.time_limit = time_limit;
  o.max_size = 256 << 20;
  o.progress = false;
  return tune(o, synthetic_zen3(), bench);
}

std::set<std::string> kinds(const TuneResult &r) {
  std::set<std::string> out;
  for (const RaceRecord &rec : r.race_records)
    out.insert(rec.decides);
  return out;
}

bool all_memset(const std::vector<SizeClass> &table) {
  for (const SizeClass &c : table)
    if (c.kernel.method != Method::libc) return false;
  return !table.empty();
}

} // namespace

// Every decision is raced at every level, cut short by a time limit or not; no note says that
// a stage was skipped or a state not measured; every stage after the races ran.
class tune_Levels : public testing::TestWithParam<std::pair<Level, double>> {};
INSTANTIATE_TEST_SUITE_P(Tune, tune_Levels,
                         testing::Values(std::pair{Level::quick, 0.0},
                                         std::pair{Level::default_, 0.0},
                                         std::pair{Level::quick, 0.2}));
TEST_P(tune_Levels, EveryDecisionIsRacedAndNoStageIsLeftOut) {
  SyntheticMeter bench(0.03, 7);
  bench.set("avx2", 1.2);
  const auto [level, limit] = GetParam();
  const TuneResult r = run(bench, level, limit);
  std::set<std::string> expected = {"reuse", "stream", "batch", "study"};
  if (usable_cpus() > 1) expected.insert("parallel");
  if (level == Level::default_ && limit == 0) expected.insert("variants");
  const std::set<std::string> raced = kinds(r);
  for (const std::string &k : expected)
    EXPECT_TRUE(raced.count(k)) << "no race decides " << k;
  for (const std::string &note : r.notes) {
    EXPECT_EQ(note.find("skipped"), std::string::npos) << note;
    EXPECT_EQ(note.find("not measured"), std::string::npos) << note;
  }
  ASSERT_TRUE(r.small);
  EXPECT_FALSE(r.verification.measured.empty());
  // The incumbent's C library is this process's, named by the tune and its verification.
  EXPECT_EQ(r.libc, running_c_library().name);
  EXPECT_EQ(r.verification.libc, running_c_library().name);
  EXPECT_FALSE(r.reuse.empty());
  EXPECT_FALSE(r.stream.empty());
  if (usable_cpus() > 1) {
    ASSERT_TRUE(r.parallel);
    EXPECT_EQ(r.parallel->skipped, "");
  }
}

// A time limit takes rounds, not stages: fewer jobs measured, the same kinds of race.
TEST(tune_Stages, ATimeLimitTakesRoundsNotStages) {
  SyntheticMeter full(0.03, 3), limited(0.03, 3);
  full.set("avx2", 1.2);
  limited.set("avx2", 1.2);
  const TuneResult a = run(full, Level::quick);
  const TuneResult b = run(limited, Level::quick, 0.2);
  EXPECT_LT(limited.jobs_run, full.jobs_run);
  EXPECT_EQ(kinds(a), kinds(b));
}

// The levels differ in resolution: the default level races more sizes than quick, and the
// same kinds of decision besides its variants.
TEST(tune_Stages, TheDefaultLevelRacesMoreSizesThanQuick) {
  SyntheticMeter q(0.03, 4), d(0.03, 4);
  const TuneResult quick = run(q, Level::quick), full = run(d, Level::default_);
  auto sizes = [](const TuneResult &r) {
    std::set<uint64_t> s;
    for (const RaceRecord &rec : r.race_records)
      if (rec.decides == "reuse") s.insert(rec.size);
    return s.size();
  };
  EXPECT_GT(sizes(full), sizes(quick));
  std::set<std::string> k = kinds(full);
  k.erase("variants");
  EXPECT_EQ(k, kinds(quick));
}

// Undecided means memset: where no candidate is faster than memset, every table is memset's and
// no thread count but one is chosen, whatever the noise made of a round.
TEST(tune_Stages, NothingFasterThanMemsetLeavesItEverything) {
  SyntheticMeter bench(0.05, 5);
  const TuneResult r = run(bench, Level::quick);
  EXPECT_TRUE(all_memset(r.reuse));
  EXPECT_TRUE(all_memset(r.stream)) << testing::PrintToString(r.races);
  EXPECT_FALSE(r.findings.stosb_no_allocate.size) << r.findings.stosb_no_allocate.reason;
  if (r.parallel) {
    for (const std::optional<ParallelTable> &t : {r.parallel->reuse, r.parallel->stream})
      EXPECT_EQ(t ? t->from() : 0u, 0u);
  }
}

// A kernel 30% faster than memset in every state wins its races and stays in the tables through
// the later stages: the verification, which measures the dispatcher apart from the races (at
// memset's speed here: its name is no kernel's), finds no loss and repairs nothing.
TEST(tune_Stages, TheRacesWinnerIsInTheTablesTheLaterStagesGet) {
  SyntheticMeter bench(0.02, 6);
  bench.set("avx2", 1.3);
  const TuneResult r = run(bench, Level::quick);
  bool avx2 = false;
  for (const SizeClass &c : r.reuse)
    avx2 |= c.kernel.method == Method::avx2;
  EXPECT_TRUE(avx2);
  EXPECT_TRUE(r.memset_repairs.empty());
}

// The no-allocate step is a finding of every level: rep stosb at 2x the temporal stores from
// 64 MiB (as on Zen, where it stops allocating), found within an octave of it.
TEST(tune_Stages, EveryLevelFindsTheNoAllocateStep) {
  for (Level level : {Level::quick, Level::default_}) {
    SyntheticMeter bench(0.03, 8);
    bench.set_from("stosb", 64 << 20, 2.0);
    const TuneResult r = run(bench, level);
    ASSERT_TRUE(r.findings.stosb_no_allocate.size) << r.findings.stosb_no_allocate.reason;
    // Below the step, memset's classes have none: avx2 is nearer memset there, yet another C
    // library's memset may be faster than it.
    for (const std::vector<SizeClass> *table : {&r.reuse, &r.stream}) {
      uint64_t lower = 0;
      for (const SizeClass &c : *table) {
        if (lower < *r.findings.stosb_no_allocate.size) {
          EXPECT_FALSE(c.stand_in) << lower;
        }
        lower = c.below;
      }
    }
    EXPECT_GE(*r.findings.stosb_no_allocate.size, uint64_t(32) << 20);
    EXPECT_LE(*r.findings.stosb_no_allocate.size, uint64_t(64) << 20);
  }
}

// Stream's contract is that the caller's cache does not hold the destination: a kernel 1.6x
// memset's speed at scattered and consecutive destinations and 10x slower at a hot one (a
// non-temporal kernel's shape) takes stream's sizes below the L3, where reuse, whose caller
// reads what it cleared, keeps memset. The hot measurements stay in the race's record.
TEST(tune_Stages, AHotDestinationDoesNotHoldStreamBack) {
  SyntheticMeter bench(0.02, 7);
  bench.set("ntavx2", 1.6);
  bench.set("ntavx2", Pattern::hot, 0.1);
  const TuneResult r = run(bench, Level::quick);
  auto nt_below_l3 = [](const std::vector<SizeClass> &table) {
    for (size_t k = 0; k < table.size(); ++k)
      if (table[k].kernel.method == Method::ntavx2 && (k ? table[k - 1].below : 0) < (16u << 20))
        return true;
    return false;
  };
  EXPECT_TRUE(nt_below_l3(r.stream));
  EXPECT_FALSE(nt_below_l3(r.reuse));
  size_t hot_recorded = 0;
  for (const RaceRecord &rec : r.race_records)
    for (const Condition &c : rec.race.conditions)
      if (rec.decides == "stream" && c.job.pattern == Pattern::hot) {
        EXPECT_FALSE(c.scored);
        ++hot_recorded;
      }
  EXPECT_GT(hot_recorded, 0u);
}

namespace {

constexpr uint64_t KiB = 1024, MiB = KiB * KiB, GiB = MiB * KiB;

// A table as a profile writes it, for a failure's message.
std::string table_text(const std::vector<SizeClass> &table) {
  Profile p;
  p.reuse = table;
  return format_profile(p);
}

struct HugeCase {
  Level level;
  uint64_t min_size, max_size;
};

std::string huge_case_text(const HugeCase &c) {
  return std::string(level_name(c.level)) + "_from_" + std::to_string(c.min_size) + "_to_" +
         std::to_string(c.max_size >> 20) + "M";
}
void PrintTo(const HugeCase &c, std::ostream *os) { *os << huge_case_text(c); }

bool nt(const std::vector<SizeClass> &table, uint64_t size) {
  return class_for(table, size).kernel.method == Method::ntavx512;
}
bool memset_at(const std::vector<SizeClass> &table, uint64_t size) {
  return class_for(table, size).kernel.method == Method::libc;
}

// The race that decides `size` of `table` in the raw records, or none.
const RaceRecord *race_at(const TuneResult &r, const std::string &table, uint64_t size) {
  for (const RaceRecord &rec : r.race_records)
    if (rec.decides == table && rec.size == size) return &rec;
  return nullptr;
}

// Whether `rec` requires a win in `pattern` (batched as `batched`).
bool must_win(const RaceRecord &rec, Pattern pattern, bool batched) {
  for (const Condition &c : rec.race.conditions)
    if (c.job.pattern == pattern && c.job.batched == batched) return c.required && c.scored;
  return false;
}

} // namespace

// A huge page is decided at its own size, never read off a neighbouring octave (issue 41): on
// huge_page_machine the stream and batch tables give exactly 2 MiB, 1 GiB and batched 4 KiB
// pieces to ntavx512 and their neighbours to memset, at each level, whether or not the level's
// grid has those sizes: from 3 KiB it races 1.5 and 3 MiB, 768 MiB and 1.5 GiB, and no batch at
// 4 KiB; from 4100 bytes it races 2 MiB + 4 KiB beside 2 MiB, whose boundary rounds to 2 MiB.
// Reuse, whose caller reads what it cleared, keeps memset at 2 MiB (hot is scored there).
class tune_HugePages : public testing::TestWithParam<HugeCase> {};
INSTANTIATE_TEST_SUITE_P(Tune, tune_HugePages,
                         testing::Values(HugeCase{Level::quick, 4 * KiB, GiB},
                                         HugeCase{Level::default_, 4 * KiB, GiB},
                                         HugeCase{Level::exhaustive, 4 * KiB, GiB},
                                         HugeCase{Level::quick, 3 * KiB, 1536 * MiB},
                                         HugeCase{Level::default_, 3 * KiB, 1536 * MiB},
                                         HugeCase{Level::quick, 4100, GiB}),
                         [](const auto &i) { return huge_case_text(i.param); });
TEST_P(tune_HugePages, StreamAndBatchGiveExactlyTheHugePagesToTheirWinner) {
  const HugeCase hc = GetParam();
  SyntheticMeter bench(0.02, 41);
  bench.set_model(huge_page_machine);
  TuneOptions o;
  o.level = hc.level;
  o.min_size = hc.min_size;
  o.max_size = hc.max_size;
  o.progress = false;
  const TuneResult r = tune(o, cpu_kind("IntelEmeraldRapids"), bench);
  for (const auto *table : {&r.stream, &r.batch}) {
    const char *name = table == &r.stream ? "stream" : "batch";
    EXPECT_TRUE(nt(*table, 2 * MiB)) << name;
    EXPECT_TRUE(nt(*table, GiB)) << name;
    for (uint64_t neighbour : {MiB, 4 * MiB, 512 * MiB})
      EXPECT_TRUE(memset_at(*table, neighbour)) << name << " " << neighbour;
  }
  EXPECT_TRUE(nt(r.batch, 4 * KiB));
  EXPECT_TRUE(memset_at(r.batch, 16 * KiB));
  EXPECT_TRUE(memset_at(r.stream, 4 * KiB));
  EXPECT_TRUE(memset_at(r.reuse, 2 * MiB));
  // Raced as such: one call per page at scattered destinations, and at consecutive ones where
  // the arena holds four pages (2 MiB); 512 subpages at a time, one after another, in a batch.
  const RaceRecord *page = race_at(r, "stream", 2 * MiB), *gib = race_at(r, "stream", GiB),
                   *subpage = race_at(r, "batch", 4 * KiB);
  ASSERT_TRUE(page && gib && subpage);
  EXPECT_TRUE(must_win(*page, Pattern::scattered, false));
  EXPECT_TRUE(must_win(*page, Pattern::consecutive, false));
  EXPECT_TRUE(must_win(*gib, Pattern::scattered, false));
  EXPECT_TRUE(must_win(*subpage, Pattern::scattered, true));
  EXPECT_TRUE(must_win(*subpage, Pattern::consecutive, true));
}

// Past Zen's step glibc 2.36's memset is rep stosb: memset ties stosb there, the class stays
// memset's, and its stand-in is stosb, so that the step stays where another C library's memset
// never takes it (glibc 2.41's on AMD never uses rep stosb). Below the step stosb is slow, and
// over the whole memset class avx2 is nearer memset: stosb by name all the same.
TEST(tune_StandIns, MemsetTyingStosbPastTheStepRecordsStosb) {
  SyntheticMeter bench(0.02, 7);
  bench.set_from("libc", 32 << 20, 2.5);
  bench.set("stosb", 0.5);
  bench.set_from("stosb", 32 << 20, 2.5);
  bench.set_from("avx2", 32 << 20, 1.5);
  const TuneResult r = run(bench, Level::quick);
  ASSERT_TRUE(r.findings.stosb_no_allocate.size) << r.findings.stosb_no_allocate.reason;
  for (const std::vector<SizeClass> *table : {&r.reuse, &r.stream})
    for (uint64_t size : {64ull << 20, 128ull << 20, 256ull << 20}) {
      const SizeClass &c = class_for(*table, size);
      EXPECT_EQ(c.kernel.method, Method::libc) << size << "\n" << table_text(*table);
      ASSERT_TRUE(c.stand_in) << size << "\n" << table_text(*table);
      EXPECT_EQ(format_spec(*c.stand_in), "stosb") << size;
    }
}

// Where no kernel beats memset and there is no step, every class stays memset's with no
// stand-in, though avx2 ties it: another C library's memset may be faster than a kernel that
// tied this one, and is never slower than memset.
TEST(tune_StandIns, BelowTheStepAMemsetClassHasNoStandIn) {
  SyntheticMeter bench(0.02, 8);
  bench.set("libc", 1.5);
  bench.set("avx2", 1.5);
  const TuneResult r = run(bench, Level::quick);
  for (const std::vector<SizeClass> *table : {&r.reuse, &r.stream}) {
    ASSERT_FALSE(table->empty());
    for (const SizeClass &c : *table)
      EXPECT_FALSE(c.stand_in) << table_text(*table);
  }
}
