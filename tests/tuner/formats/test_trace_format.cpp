// The trace file of `clearjit trace --json` and `clearjit bench --mix`: what histogram_json
// writes reads back the same, and every malformed file is refused with a message that names the
// file and the place, never an exception.
#include "tuner/formats/trace_format.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

namespace cjit::detail {
namespace {

Histogram sample() {
  Histogram h;
  h.calls[0] = 5; // memset(p, 0, 0)
  h.calls[7] = 3, h.bytes[7] = 300;
  h.calls[13] = 2, h.bytes[13] = 10000;
  h.calls[64] = 1, h.bytes[64] = (uint64_t(1) << 63) + 7; // the last octave: [2^63, 2^64)
  h.fill_calls = 4, h.fill_bytes = 123;
  h.processes = 2;
  return h;
}

void expect_same(const Histogram &a, const Histogram &b) {
  for (int k = 0; k < Histogram::kOctaves; ++k) {
    EXPECT_EQ(a.calls[k], b.calls[k]) << "octave " << k;
    EXPECT_EQ(a.bytes[k], b.bytes[k]) << "octave " << k;
  }
  EXPECT_EQ(a.fill_calls, b.fill_calls);
  EXPECT_EQ(a.fill_bytes, b.fill_bytes);
  EXPECT_EQ(a.processes, b.processes);
}

TEST(trace_format_Json, WritesEveryKey) {
  Histogram h;
  h.calls[7] = 3, h.bytes[7] = 300;
  h.calls[13] = 2, h.bytes[13] = 10000;
  h.fill_calls = 1, h.fill_bytes = 300;
  h.processes = 1;
  const std::string text = histogram_json(h, {"prog", "--name=\"a b\"", "tab\there"});
  const auto j = nlohmann::ordered_json::parse(text);
  EXPECT_EQ(j, nlohmann::ordered_json::parse(R"({"format": "clearjit-trace", "version": 1,
    "command": ["prog", "--name=\"a b\"", "tab\there"], "processes": 1,
    "octaves": [{"min": 64, "max": 127, "calls": 3, "bytes": 300},
                {"min": 4096, "max": 8191, "calls": 2, "bytes": 10000}],
    "total_calls": 5, "total_bytes": 10300, "calls_below_256": 3, "fill_calls": 1,
    "fill_bytes": 300})"))
      << text;
  EXPECT_TRUE(text.ends_with("}\n")) << text;
}

TEST(trace_format_Json, RoundTrips) {
  const Histogram h = sample();
  const std::string text = histogram_json(h, {"zstd", "-19", "\xff\xfe not UTF-8"});
  const auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["command"][2], "\xEF\xBF\xBD\xEF\xBF\xBD not UTF-8");
  EXPECT_EQ(j["octaves"][0], nlohmann::json::parse(R"({"min": 0, "max": 0, "calls": 5,
    "bytes": 0})"));
  EXPECT_EQ(j["octaves"][3]["min"], uint64_t(1) << 63);
  EXPECT_EQ(j["octaves"][3]["max"], ~uint64_t(0));
  auto back = histogram_from_json(text, "t.json");
  ASSERT_TRUE(back) << back.error;
  expect_same(*back, h);
  // The last octave, [2^63, 2^64), is never below a size, and its range does not wrap.
  EXPECT_EQ(h.calls_below(~uint64_t(0)), h.total_calls() - h.calls[64]);
  EXPECT_EQ(octave_range(64), "[8589934592 GiB, 17179869184 GiB)");
  // An empty histogram too.
  auto empty = histogram_from_json(histogram_json(Histogram{}, {}), "t.json");
  ASSERT_TRUE(empty) << empty.error;
  expect_same(*empty, Histogram{});
}

TEST(trace_format_Json, ReadsWhatItNeedsAndSkipsTheRest) {
  auto h = histogram_from_json(R"({"octaves": [{"bytes": 20, "extra": [{"x": null}], "calls": 2,
    "min": 8}, {"min": 8, "calls": 1, "bytes": 15}], "unknown": {"a": [1, -2.5, "s"]},
    "format": "clearjit-trace"})",
                               "t.json");
  ASSERT_TRUE(h) << h.error;
  EXPECT_EQ(h->calls[4], 3u); // octaves of one min add up
  EXPECT_EQ(h->bytes[4], 35u);
  EXPECT_EQ(h->processes, 0u);
}

struct Bad {
  std::string text, error;
};

std::string trace(const std::string &octaves, const std::string &more = "") {
  return R"({"format": "clearjit-trace", )" + more + R"("octaves": [)" + octaves + "]}";
}

TEST(trace_format_Json, RefusesMalformedFilesNamingThePlace) {
  const std::string good = trace(R"({"min": 64, "calls": 1, "bytes": 100})");
  const std::vector<Bad> cases = {
      {"", "t.json: byte 1: "},
      {"garbage", "t.json: byte 1: "},
      {good.substr(0, 40), "t.json: byte 41: "},                               // truncated
      {good + " x", "t.json: byte " + std::to_string(good.size() + 2) + ": "}, // trailing garbage
      {good + "{}", "t.json: byte " + std::to_string(good.size() + 1) + ": "},
      {R"({"format": "clearjit-trace", "octaves": [{"min": 64, "calls": 1, "bytes": 100},]})",
       "t.json: byte 80: "},
      {"{\"format\": \"clearjit-\xff\"}", "t.json: byte 22: "}, // not UTF-8
      {"[]", "t.json: the top level must be an object, not array"},
      {"3", "t.json: the top level must be an object, not number"},
      {"null", "t.json: the top level must be an object, not null"},
      {R"({"octaves": []})", R"(t.json: no "format": "clearjit-trace")"},
      {R"({"format": "x", "octaves": []})", R"(t.json: format: must be "clearjit-trace")"},
      {R"({"format": 1, "octaves": []})", R"(t.json: format: must be "clearjit-trace")"},
      {R"({"format": "clearjit-trace"})", R"(t.json: no "octaves")"},
      {R"({"format": "clearjit-trace", "octaves": {}})",
       "t.json: octaves: must be an array, not object"},
      {trace("3"), "t.json: octaves[0]: must be an object, not number"},
      {trace(R"({"calls": 1, "bytes": 100})"), R"(t.json: octaves[0]: no "min")"},
      {trace(R"({"min": 64, "bytes": 100})"), R"(t.json: octaves[0]: no "calls")"},
      {trace(R"({"min": 64, "calls": 1})"), R"(t.json: octaves[0]: no "bytes")"},
      {trace(R"({"min": 64, "calls": 1, "bytes": 100}, {"min": 64, "calls": "1", "bytes": 100})"),
       "t.json: octaves[1].calls: must be a non-negative integer"},
      {trace(R"({"min": 64, "calls": -1, "bytes": 100})"),
       "t.json: octaves[0].calls: must be a non-negative integer"},
      {trace(R"({"min": 64, "calls": 1.5, "bytes": 100})"),
       "t.json: octaves[0].calls: must be a non-negative integer"},
      {trace(R"({"min": 64, "calls": 1, "bytes": 1e2})"),
       "t.json: octaves[0].bytes: must be a non-negative integer"},
      {trace(R"({"min": 64, "calls": true, "bytes": 100})"),
       "t.json: octaves[0].calls: must be a non-negative integer"},
      {trace(R"({"min": -64, "calls": 1, "bytes": 100})"),
       "t.json: octaves[0].min: must be a non-negative integer"},
      {trace(R"({"min": 64, "calls": 1, "bytes": 99999999999999999999999})"),
       "t.json: octaves[0].bytes: must be a non-negative integer below 2^64"},
      {trace(R"({"min": 18446744073709551616, "calls": 1, "bytes": 1})"),
       "t.json: octaves[0].min: must be a non-negative integer below 2^64"},
      {trace(R"({"min": 3, "calls": 1, "bytes": 3})"),
       "t.json: octaves[0].min: 3 is not 0 or a power of two"},
      {trace(R"({"min": 64, "calls": 1, "bytes": 3})"),
       "t.json: octaves[0]: bytes / calls (3 / 1) is outside the octave from 64"},
      {trace(R"({"min": 64, "calls": 2, "bytes": 255})"), // a mean of 127.5: above 127
       "t.json: octaves[0]: bytes / calls (255 / 2) is outside the octave from 64"},
      {trace(R"({"min": 0, "calls": 2, "bytes": 1})"),
       "t.json: octaves[0]: bytes / calls (1 / 2) is outside the octave from 0"},
      {trace(R"({"min": 64, "calls": 0, "bytes": 100})"),
       "t.json: octaves[0]: bytes without calls"},
      {trace(R"({"min": 9223372036854775808, "calls": 1, "bytes": 18446744073709551615},
                {"min": 9223372036854775808, "calls": 1, "bytes": 9223372036854775808})"),
       "t.json: octaves[1]: the octaves' bytes add up to 2^64 or more"},
      {trace(R"({"min": 0, "calls": 18446744073709551615, "bytes": 0},
                {"min": 1, "calls": 1, "bytes": 1})"),
       "t.json: octaves[1]: the octaves' calls add up to 2^64 or more"},
      {trace("", R"("processes": -1, )"), "t.json: processes: must be a non-negative integer"},
      {trace("", R"("fill_calls": "2", )"), "t.json: fill_calls: must be a non-negative integer"},
      {trace("", R"("fill_bytes": 1e30, )"),
       "t.json: fill_bytes: must be a non-negative integer below 2^64"},
      {std::string(100, '[') + std::string(100, ']'), "t.json: nested deeper than 32 levels"},
      {trace("", R"("x": )" + std::string(40, '[') + std::string(40, ']') + ", "),
       "t.json: nested deeper than 32 levels"},
      {std::string(kTraceJsonMaxBytes + 1, ' '),
       "t.json: 16777217 bytes, more than a clearjit trace"},
  };
  for (const Bad &b : cases) {
    Result<Histogram> h;
    ASSERT_NO_THROW(h = histogram_from_json(b.text, "t.json")) << b.text;
    ASSERT_FALSE(h) << b.text;
    EXPECT_EQ(h.error.substr(0, b.error.size()), b.error) << b.text.substr(0, 200);
  }
}

} // namespace
} // namespace cjit::detail
