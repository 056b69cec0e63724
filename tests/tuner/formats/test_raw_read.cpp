// Reading a tune's raw measurements back (tuner/formats/raw_read.cpp): what measurements_json
// writes reads back the same, and what `clearjit choose` could not judge is refused with the
// file and the key path.
#include "jit/profile/files.hpp"
#include "tests/support/support.hpp"
#include "tuner/formats/raw.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <functional>

namespace cjit::detail::test {
namespace {

// A tune's result with one of everything the raw file carries: a race with a candidate beside
// it and two conditions, a repair, both small paths (one strategy tried and taken back) and the
// no-allocate step.
TuneResult everything() {
  TuneResult r;
  r.level = "default";
  r.date = "2026-12-04T10:00:00Z";
  r.race_options.confidence = 0.9;
  r.race_options.tied = 0.04;
  RaceRecord rec;
  rec.race.name = "stream 1 MiB";
  rec.decides = "stream";
  rec.intent = Intent::stream;
  rec.size = 1 << 20;
  rec.race.min_gain = 1.07;
  Job job(default_spec(Method::libc), rec.size, Intent::stream);
  rec.race.conditions = {{job, true}, {in_pattern(job, Pattern::hot, true), false}};
  rec.race.candidates = {*parse_spec("ntavx2"), *parse_spec("stosb:chunk=4K")};
  rec.race.beside = {*parse_spec("avx2:unroll=2")};
  // [contender][condition][round], unrounded: 1/3 keeps its 17 digits.
  rec.samples = {{{10.0, 1.0 / 3}, {20.5, 20.0}},
                 {{15.25, 16.0}, {12.0, 12.5}},
                 {{11.0}, {21.0}}, // left after one round
                 {{9.0, 9.5}, {19.0, 19.5}}};
  r.race_records = {rec};
  r.memset_repairs = {{Intent::reuse, 8192, 65536, *parse_spec("avx2")},
                      {Intent::stream, 1 << 20, 0, *parse_spec("ntavx2")}};
  r.small = SmallStudy{{}, {Small::stosb, 512}, {Small::vec, 128}};
  r.verification.small_tried[Intent::stream] = {{Small::masked, 256}};
  r.findings.stosb_no_allocate.size = uint64_t(32) << 20;
  r.findings.stosb_no_allocate.reason = "from 32 MiB";
  r.cpus = 3; // the run's, which the parallel stage raced up to
  ParallelStudy p;
  p.cpus = 3;
  r.parallel = p;
  return r;
}

TEST(raw_read, WhatMeasurementsJsonWritesReadsBack) {
  const TuneResult r = everything();
  const CpuInfo cpu = full_cpu();
  Result<RawTune> back = read_raw(measurements_json(r, cpu), "t.json");
  ASSERT_TRUE(back) << back.error;
  const RawTune &t = *back.value;
  EXPECT_EQ(t.name, "t.json");
  EXPECT_EQ(t.host, profile_host(cpu));
  EXPECT_EQ(t.cpus, 3u);
  EXPECT_EQ(t.level, "default");
  EXPECT_EQ(t.date, "2026-12-04T10:00:00Z");
  EXPECT_EQ(t.options.confidence, 0.9);
  EXPECT_EQ(t.options.tied, 0.04);
  ASSERT_EQ(t.races.size(), 1u);
  const RaceRecord &want = r.race_records[0], &got = t.races[0];
  EXPECT_EQ(got.race.name, want.race.name);
  EXPECT_EQ(got.decides, "stream");
  EXPECT_EQ(got.intent, Intent::stream);
  EXPECT_EQ(got.size, want.size);
  EXPECT_EQ(got.race.incumbent, memset_candidate());
  EXPECT_EQ(got.race.candidates, want.race.candidates);
  EXPECT_EQ(got.race.beside, want.race.beside);
  EXPECT_EQ(got.race.min_gain, 1.07);
  ASSERT_EQ(got.race.conditions.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(got.race.conditions[k].job.pattern, want.race.conditions[k].job.pattern) << k;
    EXPECT_EQ(got.race.conditions[k].job.batched, want.race.conditions[k].job.batched) << k;
    EXPECT_EQ(got.race.conditions[k].required, want.race.conditions[k].required) << k;
    EXPECT_EQ(got.race.conditions[k].job.size, want.size) << k;
    EXPECT_EQ(got.race.conditions[k].job.intent, Intent::stream) << k;
  }
  EXPECT_EQ(got.samples, want.samples) << "every sample, unrounded";
  EXPECT_EQ(t.memset_repairs, r.memset_repairs);
  EXPECT_EQ(t.small.at(Intent::reuse), (SmallPath{Small::stosb, 512}));
  EXPECT_EQ(t.small.at(Intent::stream), (SmallPath{Small::vec, 128}));
  EXPECT_FALSE(t.small_rejected.contains(Intent::reuse));
  EXPECT_EQ(t.small_rejected.at(Intent::stream), std::vector<Small>{Small::masked});
  EXPECT_TRUE(t.small_ranking.at(Intent::reuse).empty()) << "no stage 1 measured";
  EXPECT_EQ(t.stosb_no_allocate.size, uint64_t(32) << 20);
  EXPECT_EQ(t.stosb_no_allocate.reason, "from 32 MiB");
  // No step found: null, read back as none.
  TuneResult none = r;
  none.findings.stosb_no_allocate = {};
  back = read_raw(measurements_json(none, cpu), "n.json");
  ASSERT_TRUE(back) << back.error;
  EXPECT_FALSE(back->stosb_no_allocate.size);
}

TEST(raw_read, TheReaderRefusesWhatTheChooserCouldNotJudge) {
  const std::string path = CLEARJIT_SOURCE_DIR "/tests/fleet/zen5-one-race.json";
  Result<std::string> text = read_small_file(path, {.max_bytes = kRawJsonMaxBytes});
  ASSERT_TRUE(text) << text.error;
  // Written before the format key: it reads as format 1.
  ASSERT_TRUE(read_raw(*text, "ok.json")) << read_raw(*text, "ok.json").error;
  const nlohmann::json good = nlohmann::json::parse(*text);
  struct Bad {
    std::function<void(nlohmann::json &)> change;
    std::string error;
  };
  const Bad cases[] = {
      {[](nlohmann::json &j) { j["races"][0]["incumbent"] = "movnti"; },
       "races[0].incumbent: \"movnti\", not \"libc\""},
      {[](nlohmann::json &j) { j["races"][1]["incumbent"] = "libc"; },
       "races[1].incumbent: \"libc\" is not a thread count's label"},
      {[](nlohmann::json &j) { j["races"][0]["candidates"][1] = "avx2"; },
       "races[0]: \"avx2\" is a contender twice"},
      {[](nlohmann::json &j) { j["races"][1]["name"] = "reuse 64 KiB"; },
       "races[1].name: \"reuse 64 KiB\" twice"},
      {[](nlohmann::json &j) { // a size's race is found by its table and size
         j["races"].push_back(j["races"][0]);
         j["races"][2]["name"] = "reuse 64K";
       },
       "races[2]: a second race deciding reuse at 65536 bytes, after races[0]"},
      {[](nlohmann::json &j) { j["races"][0]["samples"][0][0] = std::vector<double>(65, 1.0); },
       "races[0].samples[0][0]: more than 64 rounds"},
      {[](nlohmann::json &j) { j["races"][0]["samples"].erase(2); },
       "races[0].samples: 2 contenders, not 3"},
      {[](nlohmann::json &j) { j["small"]["reuse"]["rejected"] = {"nothing"}; },
       "small.reuse.rejected[0]: no small-path strategy"},
      // The format key: a later format, or not a number (a file without it reads as format 1).
      {[](nlohmann::json &j) { j["format"] = 2; },
       "format: 2, where this reader understands the integer 1 (or none: files before "
       "2026-12-07)"},
      {[](nlohmann::json &j) { j["format"] = "1"; },
       "format: string, where this reader understands the integer 1"},
      {[](nlohmann::json &j) { j["format"] = 1.0; },
       "format: 1.0, where this reader understands the integer 1"},
      {[](nlohmann::json &j) { j["level"] = "turbo"; },
       "level: \"turbo\" is not quick, default or exhaustive"},
      // The C library, which `clearjit choose` writes to a profile's [tuning] libc.
      {[](nlohmann::json &j) { j["libc"] = "glibc\n2.41"; },
       "libc: at most 64 printable ASCII characters"},
      {[](nlohmann::json &j) { j["libc"] = std::string(65, 'g'); },
       "libc: at most 64 printable ASCII characters"},
      // Rounds as Racing runs them (the incumbent ran 3): a candidate with none, one condition
      // of the incumbent with a round more, a candidate with more than the incumbent.
      {[](nlohmann::json &j) { j["races"][0]["samples"][1][0] = nlohmann::json::array(); },
       "races[0].samples[1][0]: 0 rounds, where races[0].samples[0][0] has 3"},
      {[](nlohmann::json &j) { j["races"][0]["samples"][0][1].push_back(1.0); },
       "races[0].samples[0][1]: 4 rounds, where races[0].samples[0][0] has 3"},
      {[](nlohmann::json &j) {
         j["races"][0]["samples"][2][0].push_back(1.0);
         j["races"][0]["samples"][2][0].push_back(1.0);
       },
       "races[0].samples[2][0]: 4 rounds, where races[0].samples[0][0] has 3"},
  };
  for (const Bad &b : cases) {
    nlohmann::json j = good;
    b.change(j);
    Result<RawTune> r = read_raw(j.dump(), "x.json");
    ASSERT_FALSE(r) << b.error;
    EXPECT_NE(r.error.find("x.json: " + b.error), std::string::npos) << r.error;
  } // A race of no rounds (a tune cut short by its time limit) has every array empty.
  nlohmann::json cut = good;
  for (auto &per_contender : cut["races"][0]["samples"])
    for (auto &rounds : per_contender)
      rounds = nlohmann::json::array();
  EXPECT_TRUE(read_raw(cut.dump(), "cut.json")) << read_raw(cut.dump(), "cut.json").error;
}

TEST(raw_read, ABrokenRawFileIsRefusedWithItsPlace) {
  Result<RawTune> r = read_raw("{\"host\": 3}", "x.json");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error.find("x.json: host: must be an object"), std::string::npos) << r.error;
  r = read_raw("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "deep.json");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error.find("deep.json: nested deeper"), std::string::npos) << r.error;
  r = read_raw("{\"host\": 1e400}", "big.json"); // found by the fuzzer: an exception, once
  ASSERT_FALSE(r);
  EXPECT_NE(r.error.find("big.json: number overflow"), std::string::npos) << r.error;
  r = read_raw("{\"host\":", "cut.json");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error.find("cut.json: byte"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find("TOML"), std::string::npos) << r.error;
  // A profile given for a raw file: the parser's error, and a hint.
  r = read_raw("# clearjit profile\nformat = 1\n", "p.toml");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error.find("p.toml: byte 1: "), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("; this looks like a TOML profile; choose reads the raw JSON of "
                         "`clearjit tune --json`"),
            std::string::npos)
      << r.error;
}

// A file from before "scored" is judged by today's rule: a stream race's hot state is recorded,
// not scored; a reuse race's stays scored; written files say it for every state.
TEST(raw_Read, OlderFilesScoreStateAsTheTunerDoesToday) {
  TuneResult r = everything();
  r.race_records.clear();
  for (Intent intent : {Intent::reuse, Intent::stream}) {
    RaceRecord rec;
    rec.race.name = std::string(intent_name(intent)) + " 2 MiB";
    for (Pattern p : {Pattern::scattered, Pattern::hot})
      rec.race.conditions.push_back({in_pattern({default_spec(Method::libc), 2 << 20, intent}, p),
                                     p != Pattern::hot || intent == Intent::reuse,
                                     p != Pattern::hot || intent == Intent::reuse});
    rec.race.candidates = {default_spec(Method::stosb)};
    rec.race.min_gain = 1.03;
    rec.samples = {{{1.0}, {1.0}}, {{1.1}, {1.1}}};
    rec.decides = intent == Intent::reuse ? "reuse" : "stream";
    rec.intent = intent;
    rec.size = 2 << 20;
    r.race_records.push_back(rec);
  }
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(measurements_json(r, full_cpu()));
  for (auto &race : j["races"])
    for (auto &c : race["conditions"]) {
      EXPECT_TRUE(c.contains("scored"));
      c.erase("scored"); // as files before 2026-12-05
    }
  const Result<RawTune> back = read_raw(j.dump(), "old.json");
  ASSERT_TRUE(back) << back.error;
  const RawTune &t = *back.value;
  ASSERT_EQ(t.races.size(), 2u);
  EXPECT_TRUE(t.races[0].race.conditions[1].scored) << "reuse hot";
  EXPECT_FALSE(t.races[1].race.conditions[1].scored) << "stream hot";
  EXPECT_TRUE(t.races[1].race.conditions[0].scored);
}

} // namespace
} // namespace cjit::detail::test
