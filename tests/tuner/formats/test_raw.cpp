// The raw measurements of `clearjit tune --json` (tuner/formats/raw.cpp): every key, its type
// and its rounding, read back with nlohmann::json; strings that are not UTF-8 never throw.
#include "tests/support/json_outputs.hpp"
#include "tuner/formats/raw.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace cjit::detail::test {
namespace {

using nlohmann::ordered_json;

TEST(raw_Write, ParsesBackWithEveryKeyTypeAndRounding) {
  TuneResult r;
  r.level = "quick";
  r.date = "2026-12-03T12:00:00Z";
  r.seconds = 12.34;
  r.libc = "glibc 2.41";
  r.measurements = {json_measurement(), json_measurement()};
  std::string text;
  ASSERT_NO_THROW(text = measurements_json(r, json_cpu()));
  const ordered_json j = ordered_json::parse(text);
  EXPECT_EQ(json_keys(j),
            (std::vector<std::string>{"format", "host", "level", "date", "libc", "seconds",
                                      "race_options", "races", "memset_repairs", "small",
                                      "stosb_no_allocate", "measurements"}));
  EXPECT_EQ(j["format"], kRawFormat);
  EXPECT_EQ(j["libc"], "glibc 2.41");
  const ordered_json &h = j["host"];
  EXPECT_EQ(json_keys(h),
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
  EXPECT_EQ(json_keys(m), (std::vector<std::string>{"kernel", "size", "intent", "pattern",
                                                    "batched", "gbps", "cv", "samples"}));
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

TEST(raw_Write, NoMeasurementsAndNotANumber) {
  TuneResult r;
  r.level = "default";
  r.date = "d";
  EXPECT_EQ(ordered_json::parse(measurements_json(r, json_cpu()))["measurements"],
            ordered_json::array());
  Measurement m = json_measurement();
  m.gbps = std::numeric_limits<double>::quiet_NaN(); // JSON has no NaN: null, not "nan"
  m.cv = std::numeric_limits<double>::infinity();
  r.measurements = {m};
  const ordered_json j = ordered_json::parse(measurements_json(r, json_cpu()));
  EXPECT_TRUE(j["measurements"][0]["gbps"].is_null());
  EXPECT_TRUE(j["measurements"][0]["cv"].is_null());
}

} // namespace
} // namespace cjit::detail::test
