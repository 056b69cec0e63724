// The text every output shares (tuner/text/format.cpp): one number printed, parts joined,
// JSON numbers rounded, and a JSON file's text that never throws on bytes that are not UTF-8.
#include "tuner/text/format.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace cjit::detail {
namespace {

TEST(format, FmtPrintsOneNumber) {
  EXPECT_EQ(fmt("%.2fx", 1.005 + 1e-9), "1.01x");
  EXPECT_EQ(fmt("%.0f%%", 99.6), "100%");
  EXPECT_EQ(fmt("%5.1f", 2.25), "  2.2") << "printf's rounding, half to even in binary";
  EXPECT_EQ(fmt("%.1f GB/s", 38.15), "38.1 GB/s");
}

TEST(format, JoinPutsTheSeparatorBetween) {
  EXPECT_EQ(join({}, ", "), "");
  EXPECT_EQ(join({"a"}, ", "), "a");
  EXPECT_EQ(join({"a", "", "c"}, ", "), "a, , c");
  EXPECT_EQ(join({"x", "y"}, ""), "xy");
}

TEST(format, RoundToKeepsWhatANumberMeans) {
  EXPECT_EQ(round_to(12.34567, 3), 12.346);
  EXPECT_EQ(round_to(0.01236, 4), 0.0124);
  EXPECT_EQ(round_to(-2.5, 0), -3.0) << "halves away from zero";
  EXPECT_EQ(round_to(1234.5, -2), 1200.0);
  EXPECT_TRUE(std::isnan(round_to(std::numeric_limits<double>::quiet_NaN(), 3)));
  EXPECT_EQ(round_to(std::numeric_limits<double>::infinity(), 3),
            std::numeric_limits<double>::infinity());
}

TEST(format, JsonTextIsIndentedAndNeverThrows) {
  nlohmann::ordered_json j{{"b", 1}, {"a", {1.5, nullptr}}, {"s", "\xff ok"}};
  std::string text;
  ASSERT_NO_THROW(text = json_text(j));
  EXPECT_EQ(
      text,
      "{\n  \"b\": 1,\n  \"a\": [\n    1.5,\n    null\n  ],\n  \"s\": \"\xEF\xBF\xBD ok\"\n}\n");
  j = {{"nan", std::numeric_limits<double>::quiet_NaN()}};
  EXPECT_EQ(json_text(j), "{\n  \"nan\": null\n}\n");
}

} // namespace
} // namespace cjit::detail
