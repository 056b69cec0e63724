// The JSON file of `clearjit bench --json`: every key, its type and its rounding, read back with
// nlohmann::json; strings that are not UTF-8 never throw (the tune's raw file is
// tests/tuner/formats/test_raw.cpp's).
#include "tests/support/json_outputs.hpp"
#include "tuner/bench/bench.hpp"
#include "tuner/report/outputs.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace cjit::detail::test {
namespace {

using nlohmann::ordered_json;

TEST(outputs_BenchJson, ParsesBackWithEveryKeyTypeAndRounding) {
  BenchResult r;
  r.source = "profiles/\xff.toml";
  r.small_reuse = "stosb, up to 256 B";
  r.small_stream = "masked, up to 512 B";
  r.open_ms = 1.23456;
  BenchRow row;
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
  r.measurements = {json_measurement()};
  r.parallel.push_back({Intent::reuse, 1 << 30, 4, 8, 10, 11, 12, 13});
  std::string text;
  ASSERT_NO_THROW(text = bench_json(r, json_cpu()));
  const ordered_json j = ordered_json::parse(text);
  EXPECT_EQ(json_keys(j), (std::vector<std::string>{"cpu", "profile", "libc", "open_ms", "rows",
                                                    "warm", "small", "measurements"}));
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
} // namespace cjit::detail::test
