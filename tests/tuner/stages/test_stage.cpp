// A stage added through the Stage interface alone (stage.hpp): a stage that measures nothing and
// changes nothing is run in its turn, keeps its section of the raw file, reads it back and
// merges it for `clearjit choose`, and every other output stays byte for byte what a tune
// without it writes. No timing is measured or asserted.
#include "tests/support/cpu_kinds.hpp"
#include "tests/support/synthetic_meter.hpp"
#include "tuner/choose/fleet.hpp"
#include "tuner/formats/raw.hpp"
#include "tuner/report/outputs.hpp"
#include "tuner/stages/tune.hpp"
#include "tuner/text/json_read.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

using namespace cjit::detail;
using cjit::detail::test::synthetic_zen3;
using cjit::test::SyntheticMeter;

namespace {

// Measures nothing and changes nothing; it counts what the tuner, the raw file and the fleet
// asked of it, keeps a result of its own and one key in the raw file.
struct NothingResult final : StageResult {
  int calls = 1;
};

class NothingStage final : public Stage {
public:
  mutable int runs = 0, checks = 0, merges = 0;
  mutable std::vector<nlohmann::json> merged_sections; // null where a host had none
  mutable std::vector<std::string> stages_before;      // what had run when it ran

  std::string_view name() const override { return "nothing"; }
  std::string_view measures() const override { return "nothing"; }
  double seconds(const StageContext &) const override { return 0; }
  void run(const StageContext &c, TuneResult &r) const override {
    ++runs;
    EXPECT_EQ(c.measure.label, "nothing");
    for (const Stage *s : r.stages)
      stages_before.emplace_back(s->name());
    r.stage_results["nothing"] = std::make_shared<NothingResult>();
  }
  void raw(const TuneResult &, nlohmann::ordered_json &doc) const override {
    doc["nothing"] = {{"ran", true}};
  }
  void check_raw(const nlohmann::json &section, const std::string &path) const override {
    ++checks;
    if (!section.is_object() || !section.contains("ran")) throw SchemaError{path + ".ran: missing"};
  }
  void merge(StageMerge &m) const override {
    ++merges;
    for (const nlohmann::json *section : m.sections)
      merged_sections.push_back(section ? *section : nlohmann::json());
  }
};

TuneResult tune_with(const std::vector<const Stage *> &stages) {
  SyntheticMeter meter(0.03, 9);
  meter.set("ntavx2", Pattern::scattered, 2.0);
  TuneOptions o;
  o.level = Level::quick;
  o.max_size = 64 << 20;
  o.time_limit = 1e6; // rounds, never the wall clock, end the races
  o.progress = false;
  o.cpus = 2;
  o.stages = stages;
  TuneResult r = tune(o, synthetic_zen3(), meter);
  r.seconds = 1;
  r.date = "2026-12-05T00:00:00Z";
  r.verification.seconds = 1;
  if (r.parallel) r.parallel->seconds = 1;
  return r;
}

std::vector<const Stage *> with(const Stage &extra) {
  std::vector<const Stage *> stages(tune_stages().begin(), tune_stages().end());
  stages.push_back(&extra);
  return stages;
}

} // namespace

TEST(stage, AStageThatDoesNothingRunsLastAndChangesNoOtherOutput) {
  const NothingStage nothing;
  const TuneResult plain = tune_with({}), added = tune_with(with(nothing));
  EXPECT_EQ(nothing.runs, 1);
  ASSERT_TRUE(added.stage_results.count("nothing"));
  const auto *own = dynamic_cast<const NothingResult *>(added.stage_results.at("nothing").get());
  ASSERT_NE(own, nullptr);
  EXPECT_EQ(own->calls, 1);
  EXPECT_FALSE(plain.stage_results.count("nothing"));
  EXPECT_EQ(added.stage_results.size(), plain.stage_results.size() + 1);
  ASSERT_EQ(nothing.stages_before.size(), tune_stages().size() + 1); // itself included
  for (size_t k = 0; k < tune_stages().size(); ++k)
    EXPECT_EQ(nothing.stages_before[k], tune_stages()[k]->name());
  const CpuInfo cpu = synthetic_zen3();
  EXPECT_EQ(profile_toml(added, cpu), profile_toml(plain, cpu));
  EXPECT_EQ(summary_text(added), summary_text(plain));
  EXPECT_EQ(report_html(added, cpu), report_html(plain, cpu));
  // The raw file gains its section alone, before the measurements.
  const std::string raw = measurements_json(added, cpu), before = measurements_json(plain, cpu);
  const nlohmann::json a = nlohmann::json::parse(raw), b = nlohmann::json::parse(before);
  EXPECT_EQ(a["nothing"], nlohmann::json({{"ran", true}}));
  nlohmann::json without = a;
  without.erase("nothing");
  EXPECT_EQ(without, b);
  EXPECT_LT(raw.find("\"nothing\""), raw.find("\"measurements\""));
}

TEST(stage, ItsSectionIsReadBackCheckedAndMerged) {
  const NothingStage nothing;
  const std::vector<const Stage *> stages = with(nothing);
  const std::string raw = measurements_json(tune_with(stages), synthetic_zen3());
  Result<RawTune> t = read_raw(raw, "a.json", stages);
  ASSERT_TRUE(t) << t.error;
  EXPECT_EQ(nothing.checks, 1);
  ASSERT_TRUE(t->stage_sections.count("nothing"));
  // A second host: the same tune under another date, so that it is not the same tune twice.
  std::string other = raw;
  other.replace(other.find("2026-12-05T00:00:00Z"), 20, "2026-12-06T00:00:00Z");
  Result<RawTune> u = read_raw(other, "b.json", stages);
  ASSERT_TRUE(u) << u.error;
  Result<FleetChoice> c = choose_fleet({*t, *u}, stages);
  ASSERT_TRUE(c) << c.error;
  EXPECT_EQ(nothing.merges, 1);
  ASSERT_EQ(nothing.merged_sections.size(), 2u);
  for (const nlohmann::json &section : nothing.merged_sections)
    EXPECT_EQ(section, nlohmann::json({{"ran", true}}));
  // Its own check refuses a broken section, naming the file and its key.
  std::string broken = raw;
  broken.replace(broken.find("\"ran\""), 5, "\"ran_\"");
  Result<RawTune> bad = read_raw(broken, "broken.json", stages);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error.find("broken.json"), std::string::npos) << bad.error;
  EXPECT_NE(bad.error.find("nothing.ran: missing"), std::string::npos) << bad.error;
  // A file without its section reads, and merges as none.
  Result<RawTune> plain =
      read_raw(measurements_json(tune_with({}), synthetic_zen3()), "c.json", stages);
  ASSERT_TRUE(plain) << plain.error;
  EXPECT_FALSE(plain->stage_sections.count("nothing"));
}
