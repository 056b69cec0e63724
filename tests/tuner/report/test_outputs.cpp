// The JSON files of `clearjit tune --json` and `clearjit bench --json`: every key, its type and
// its rounding, read back with nlohmann::json; strings that are not UTF-8 never throw.
#include "tuner/bench/bench.hpp"
#include "tuner/report/outputs.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace cjit::detail {
namespace {

using nlohmann::ordered_json;

CpuInfo synthetic_cpu() {
  CpuInfo cpu;
  cpu.vendor = "AuthenticAMD";
  cpu.brand = "Test \"CPU\"\n\xff\xfe"; // a quote, a control character, bytes that are not UTF-8
  cpu.family = 26;
  cpu.model = 2;
  cpu.stepping = 1;
  cpu.l1d.size = 48 << 10;
  cpu.l2.size = 1 << 20;
  cpu.l3.size = 32 << 20;
  cpu.hypervisor = true;
  return cpu;
}

Measurement measurement() {
  Measurement m;
  m.candidate = Candidate::labelled("avx2:unroll=4");
  m.size = 4096;
  m.intent = Intent::stream;
  m.pattern = Pattern::consecutive;
  m.batched = true;
  m.samples = {1.23456, 2.0, 30.0004};
  m.gbps = 12.34567;
  m.cv = 0.01236;
  m.ns = 3.14159;
  m.warm = true;
  m.mix = Mix::objects;
  return m;
}

std::vector<std::string> keys(const ordered_json &object) {
  std::vector<std::string> k;
  for (const auto &[key, value] : object.items())
    k.push_back(key);
  return k;
}

TEST(outputs_TuneJson, ParsesBackWithEveryKeyTypeAndRounding) {
  TuneResult r;
  r.level = "quick";
  r.date = "2026-12-03T12:00:00Z";
  r.seconds = 12.34;
  r.measurements = {measurement(), measurement()};
  std::string text;
  ASSERT_NO_THROW(text = measurements_json(r, synthetic_cpu()));
  const ordered_json j = ordered_json::parse(text);
  EXPECT_EQ(keys(j), (std::vector<std::string>{"host", "level", "date", "seconds", "race_options",
                                               "races", "memset_repairs", "small",
                                               "stosb_no_allocate", "measurements"}));
  const ordered_json &h = j["host"];
  EXPECT_EQ(keys(h),
            (std::vector<std::string>{"vendor", "family", "model", "stepping", "brand", "l1d", "l2",
                                      "l3", "hypervisor", "features", "cpus"}));
  EXPECT_EQ(h["vendor"], "AuthenticAMD");
  EXPECT_EQ(h["brand"], "Test \"CPU\"\n\xEF\xBF\xBD\xEF\xBF\xBD"); // U+FFFD for each bad byte
  EXPECT_TRUE(h["family"].is_number_integer());
  EXPECT_EQ(h["family"], 26);
  EXPECT_EQ(h["model"], 2);
  EXPECT_EQ(h["stepping"], 1);
  EXPECT_EQ(h["l1d"], 48 << 10);
  EXPECT_EQ(h["l2"], 1 << 20);
  EXPECT_EQ(h["l3"], 32 << 20);
  EXPECT_EQ(h["hypervisor"], true);
  EXPECT_EQ(j["level"], "quick");
  EXPECT_EQ(j["date"], "2026-12-03T12:00:00Z");
  EXPECT_EQ(j["seconds"], 12.3);
  ASSERT_EQ(j["measurements"].size(), 2u);
  const ordered_json &m = j["measurements"][0];
  EXPECT_EQ(keys(m), (std::vector<std::string>{"kernel", "size", "intent", "pattern", "batched",
                                               "gbps", "cv", "samples"}));
  EXPECT_EQ(m["kernel"], "avx2:unroll=4");
  EXPECT_TRUE(m["size"].is_number_unsigned());
  EXPECT_EQ(m["size"], 4096);
  EXPECT_EQ(m["intent"], "stream");
  EXPECT_EQ(m["pattern"], "consecutive");
  EXPECT_EQ(m["batched"], true);
  EXPECT_EQ(m["gbps"], 12.346);
  EXPECT_EQ(m["cv"], 0.0124);
  EXPECT_EQ(m["samples"], ordered_json::parse("[1.235, 2.0, 30.0]"));
}

TEST(outputs_TuneJson, NoMeasurementsAndNotANumber) {
  TuneResult r;
  r.level = "default";
  r.date = "d";
  EXPECT_EQ(ordered_json::parse(measurements_json(r, synthetic_cpu()))["measurements"],
            ordered_json::array());
  Measurement m = measurement();
  m.gbps = std::numeric_limits<double>::quiet_NaN(); // JSON has no NaN: null, not "nan"
  m.cv = std::numeric_limits<double>::infinity();
  r.measurements = {m};
  const ordered_json j = ordered_json::parse(measurements_json(r, synthetic_cpu()));
  EXPECT_TRUE(j["measurements"][0]["gbps"].is_null());
  EXPECT_TRUE(j["measurements"][0]["cv"].is_null());
}

TEST(outputs_BenchJson, ParsesBackWithEveryKeyTypeAndRounding) {
  CompareResult r;
  r.source = "profiles/\xff.toml";
  r.small_reuse = "stosb, up to 256 B";
  r.small_stream = "masked, up to 512 B";
  r.open_ms = 1.23456;
  CompareRow row;
  row.size = 65536;
  row.intent = Intent::reuse;
  row.pattern = Pattern::cached;
  row.batched = false;
  row.tuned_kernel = "avx512:unroll=2";
  row.oracle_kernel = "memset";
  row.tuned = 100.12345;
  row.memset = 90.5;
  row.oracle = 101.0004;
  r.rows = {row};
  r.warm.push_back({Intent::stream, 0, Mix::log_uniform, 9.12345, 4.5, 5.0});
  r.measurements = {measurement()};
  r.parallel.push_back({Intent::reuse, 1 << 30, 4, 8, 10, 11, 12, 13});
  std::string text;
  ASSERT_NO_THROW(text = compare_json(r, synthetic_cpu()));
  const ordered_json j = ordered_json::parse(text);
  EXPECT_EQ(keys(j), (std::vector<std::string>{"cpu", "profile", "open_ms", "rows", "warm", "small",
                                               "measurements"}));
  EXPECT_EQ(j["cpu"],
            ordered_json::parse(R"({"vendor": "AuthenticAMD", "family": 26, "model": 2})"));
  EXPECT_EQ(j["profile"], "profiles/\xEF\xBF\xBD.toml");
  EXPECT_EQ(j["open_ms"], 1.235);
  EXPECT_EQ(j["rows"], ordered_json::parse(R"([{"size": 65536, "intent": "reuse",
    "pattern": "cached", "batched": false, "tuned_kernel": "avx512:unroll=2", "tuned_gbps": 100.123,
    "memset_gbps": 90.5, "oracle_kernel": "memset", "oracle_gbps": 101.0}])"));
  EXPECT_EQ(j["warm"], ordered_json::parse(R"([{"intent": "stream", "mix": "log-uniform 1..256 B",
    "size": 0, "tuned_ns": 9.123, "inline_ns": 4.5, "memset_ns": 5.0}])"))
      << j["warm"].dump();
  EXPECT_EQ(j["small"], ordered_json::parse(R"({"reuse": "stosb, up to 256 B",
    "stream": "masked, up to 512 B"})"));
  EXPECT_EQ(j["measurements"], ordered_json::parse(R"([{"kernel": "avx2:unroll=4", "size": 4096,
    "intent": "stream", "pattern": "consecutive", "batched": true, "gbps": 12.346, "cv": 0.0124,
    "warm": true, "mix": "objects 1..256 B", "ns": 3.142}])"));
  EXPECT_TRUE(j["rows"][0]["size"].is_number_unsigned());
}

} // namespace
} // namespace cjit::detail
