// The untouched stage (stage_untouched.cpp) on a synthetic meter: a table's last class takes
// untouched=skip where the option wins on memory just mapped and keeps up on memory in use, from
// the size raced; its raw section reads back, and `clearjit choose` takes the option where every
// host did. No timing is measured or asserted.
#include "tests/support/cpu_kinds.hpp"
#include "tests/support/synthetic_meter.hpp"
#include "tuner/stages/stage.hpp"
#include "tuner/stages/tune.hpp"
#include "tuner/text/json_read.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace cjit::detail;
using cjit::detail::test::synthetic_zen3;
using cjit::test::SyntheticMeter;

namespace {

constexpr uint64_t MiB = 1 << 20;

const Stage &stage() {
  for (const Stage *s : tune_stages())
    if (s->name() == "untouched") return *s;
  throw std::logic_error("no untouched stage");
}

SizeClass cls(uint64_t below, const char *spec, const char *stand_in = nullptr) {
  SizeClass c{below, *parse_spec(spec)};
  if (stand_in) c.stand_in = *parse_spec(stand_in);
  return c;
}

std::vector<std::string> kernels(const std::vector<SizeClass> &table) {
  std::vector<std::string> out;
  for (const SizeClass &c : table)
    out.push_back((c.below ? std::to_string(c.below / MiB) + "M " : "up ") + format_spec(c.kernel));
  return out;
}

struct Tables {
  SyntheticMeter meter{0.02, 11};
  TuneResult r;
  Tables() {
    r.reuse = {cls(MiB, "avx2"), cls(0, "stosb")};
    r.stream = {cls(0, "ntavx2")};
  }
  void run(uint64_t max_size = uint64_t(1) << 30) {
    const LevelPlan plan = plan_for(Level::quick);
    const RaceOptions options;
    const StageContext c{meter, synthetic_zen3(), plan, options,     MeasureOptions{},
                         4096,  max_size,         1,    std::nullopt};
    stage().run(c, r);
  }
};

TEST(untouched_stage, TakenFromTheSizeRacedWhereItWinsAndKeepsUpInUse) {
  Tables t;
  t.meter.set("stosb:untouched=skip", Pattern::untouched, 1.5);
  t.run();
  EXPECT_EQ(kernels(t.r.reuse),
            (std::vector<std::string>{"1M avx2", "64M stosb", "up stosb:untouched=skip"}));
  EXPECT_EQ(kernels(t.r.stream), (std::vector<std::string>{"up ntavx2"})); // a tie: written
  const std::string summary = stage().summary(t.r);
  EXPECT_NE(summary.find("reuse: left to the kernel from 64 MiB"), std::string::npos) << summary;
  EXPECT_NE(summary.find("stream: written, as by ntavx2"), std::string::npos) << summary;
}

TEST(untouched_stage, KeptWhereTheLookCostsOnMemoryInUse) {
  Tables t;
  t.meter.set("stosb:untouched=skip", Pattern::untouched, 1.5);
  t.meter.set("stosb:untouched=skip", Pattern::scattered, 0.9);
  t.run();
  EXPECT_EQ(kernels(t.r.reuse), (std::vector<std::string>{"1M avx2", "up stosb"}));
}

TEST(untouched_stage, RacedFromTheLastClassesLowerBoundAndKeepsItsStandIn) {
  Tables t;
  t.r.reuse = {cls(128 * MiB, "avx2"), cls(0, "libc", "stosb")};
  t.meter.set("libc:untouched=skip", Pattern::untouched, 1.5);
  t.run();
  EXPECT_EQ(kernels(t.r.reuse), (std::vector<std::string>{"128M avx2", "up libc:untouched=skip"}));
  ASSERT_TRUE(t.r.reuse.back().stand_in);
  EXPECT_EQ(format_spec(*t.r.reuse.back().stand_in), "stosb");
}

TEST(untouched_stage, NotRacedWhereTheTuneStopsBelow) {
  Tables t;
  t.meter.set("stosb:untouched=skip", Pattern::untouched, 1.5);
  t.run(16 * MiB);
  EXPECT_EQ(kernels(t.r.reuse), (std::vector<std::string>{"1M avx2", "up stosb"}));
  EXPECT_NE(stage().summary(t.r).find("reuse: the tune stops at 16 MiB, below 64 MiB: not raced"),
            std::string::npos)
      << stage().summary(t.r);
  EXPECT_EQ(t.meter.jobs_run, 0u);
}

// The raw section reads back; `choose` takes the option where every host took it.
TEST(untouched_stage, ChooseTakesItWhereEveryHostDid) {
  Tables took, kept;
  took.meter.set("stosb:untouched=skip", Pattern::untouched, 1.5);
  took.run();
  kept.run();
  nlohmann::ordered_json a, b;
  stage().raw(took.r, a);
  stage().raw(kept.r, b);
  const nlohmann::json sa = nlohmann::json::parse(a["untouched"].dump()),
                       sb = nlohmann::json::parse(b["untouched"].dump());
  stage().check_raw(sa, "untouched");
  stage().check_raw(sb, "untouched");
  EXPECT_THROW(stage().check_raw(nlohmann::json{{"decisions", {{{"intent", "up"}}}}}, "untouched"),
               SchemaError);
  auto merged = [&](std::vector<const nlohmann::json *> sections, uint64_t last = MiB) {
    Profile p;
    p.reuse = {cls(last, "avx2"), cls(0, "stosb")};
    std::vector<std::string> notes;
    StageMerge m{sections, synthetic_zen3(), p, notes};
    stage().merge(m);
    return kernels(p.reuse);
  };
  EXPECT_EQ(merged({&sa, &sa}),
            (std::vector<std::string>{"1M avx2", "64M stosb", "up stosb:untouched=skip"}));
  EXPECT_EQ(merged({&sa, &sb}), (std::vector<std::string>{"1M avx2", "up stosb"}));
  EXPECT_EQ(merged({&sa, nullptr}), (std::vector<std::string>{"1M avx2", "up stosb"}));
  // The merged last class starts above the size raced: it takes the option whole, and the class
  // below it, which no host raced with it, keeps writing.
  EXPECT_EQ(merged({&sa, &sa}, 128 * MiB),
            (std::vector<std::string>{"128M avx2", "up stosb:untouched=skip"}));
}

} // namespace
