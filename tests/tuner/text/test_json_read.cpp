// Reading the JSON files clearjit writes (tuner/text/json_read.cpp): bounded in size and
// depth, every error naming the file and the place (the byte, or the key path), never an
// exception.
#include "tuner/text/json_read.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cjit::detail {
namespace {

using nlohmann::json;

// The SchemaError a reader throws, or "" when it returns.
template <class F> std::string schema_error(F &&read) {
  try {
    read();
  } catch (const SchemaError &e) {
    return e.what;
  }
  return "";
}

TEST(json_read, SyntaxErrorsSayWhatNlohmannSaw) {
  auto j = parse_json_file("{\"format\": \"clearjit-trace\", \"octaves\": [} ", "t.json", 1000,
                           "a clearjit trace");
  ASSERT_FALSE(j);
  // The place is clearjit's; the rest is nlohmann's wording, which may change between versions.
  EXPECT_TRUE(j.error.starts_with("t.json: byte 42: ")) << j.error;
  EXPECT_NE(j.error.find("'}'"), std::string::npos) << j.error;
}

TEST(json_read, TheDeepestDocumentIsRead) {
  // The parser counts depth from 0 at the top: an object holding 32 nested arrays is the deepest
  // read, 33 are refused (a trace's own schema, object, octaves, octave, is far from it).
  const auto nested = [](int arrays) {
    return "{\"x\": " + std::string(size_t(arrays), '[') + std::string(size_t(arrays), ']') + "}";
  };
  for (int arrays : {31, 32}) {
    auto j = parse_json_file(nested(arrays), "t.json", 1000, "a clearjit trace");
    EXPECT_TRUE(j) << arrays << ": " << j.error;
  }
  auto j = parse_json_file(nested(33), "t.json", 1000, "a clearjit trace");
  ASSERT_FALSE(j);
  EXPECT_EQ(j.error, "t.json: nested deeper than 32 levels (not a clearjit trace)");
}

TEST(json_read_Parse, ALargerFileIsRefusedBeforeParsing) {
  EXPECT_TRUE(parse_json_file("[1, 2]", "f.json", 6, "a thing")) << "at the limit";
  auto j = parse_json_file("[1, 2] ", "f.json", 6, "a thing");
  ASSERT_FALSE(j);
  EXPECT_EQ(j.error, "f.json: 7 bytes, more than a thing (6 B)");
}

TEST(json_read_Parse, ANumberBeyondADoubleIsAnError) {
  auto j = parse_json_file("{\"x\": 1e400}", "big.json", 100, "a thing");
  ASSERT_FALSE(j);
  EXPECT_TRUE(j.error.starts_with("big.json: number overflow")) << j.error;
  EXPECT_EQ(j.error.find("[json.exception"), std::string::npos) << "nlohmann's tag is cut";
}

TEST(json_read_Schema, MembersNameTheirPath) {
  const json doc = json::parse(R"({"a": {"b": 1}, "list": [1]})");
  EXPECT_EQ(json_member(json_member(doc, "a", ""), "b", "a"), 1);
  EXPECT_EQ(schema_error([&] { json_member(doc, "c", ""); }), "no \"c\"");
  EXPECT_EQ(schema_error([&] { json_member(doc["a"], "c", "a"); }), "a: no \"c\"");
  EXPECT_EQ(schema_error([&] { json_member(doc["list"], "c", "list"); }),
            "list: must be an object, not array");
  EXPECT_EQ(schema_error([&] { json_member(json::array(), "c", ""); }),
            "the top level: must be an object, not array");
}

TEST(json_read_Schema, WholeNumbers) {
  EXPECT_EQ(json_whole_number(json::parse("0"), "n"), 0u);
  EXPECT_EQ(json_whole_number(json::parse("-0"), "n"), 0u);
  EXPECT_EQ(json_whole_number(json::parse("18446744073709551615"), "n"), UINT64_MAX);
  for (const char *bad : {"-1", "1.5", "1e2", "\"3\"", "true", "null"})
    EXPECT_EQ(schema_error([&] { json_whole_number(json::parse(bad), "a.n"); }),
              "a.n: must be a non-negative integer")
        << bad;
  EXPECT_EQ(schema_error([&] { json_whole_number(json::parse("18446744073709551616"), "a.n"); }),
            "a.n: must be a non-negative integer below 2^64");
}

TEST(json_read_Schema, NumbersStringsAndArrays) {
  EXPECT_EQ(json_number(json::parse("-2.5"), "x"), -2.5);
  EXPECT_EQ(json_number(json::parse("7"), "x"), 7.0);
  EXPECT_EQ(schema_error([&] { json_number(json::parse("\"7\""), "x"); }),
            "x: must be a number, not string");
  EXPECT_EQ(json_string(json::parse("\"s\""), "s"), "s");
  EXPECT_EQ(schema_error([&] { json_string(json::parse("1"), "s"); }),
            "s: must be a string, not number");
  EXPECT_EQ(json_array(json::parse("[1, 2]"), "v").size(), 2u);
  EXPECT_EQ(schema_error([&] { json_array(json::parse("{}"), "v"); }),
            "v: must be an array, not object");
}

TEST(json_read_File, ASchemaErrorNamesTheFileAndTakesTheHint) {
  const auto read = [](const json &doc) {
    return int(json_whole_number(json_member(doc, "n", ""), "n"));
  };
  Result<int> r = read_json_file<int>(R"({"n": 5})", "f.json", 100, "a thing", read, " (a hint)");
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(*r, 5);
  r = read_json_file<int>(R"({"n": -5})", "f.json", 100, "a thing", read, " (a hint)");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error, "f.json: n: must be a non-negative integer (a hint)");
  // A syntax error is the parser's, without the schema's hint.
  r = read_json_file<int>("{", "f.json", 100, "a thing", read, " (a hint)");
  ASSERT_FALSE(r);
  EXPECT_TRUE(r.error.starts_with("f.json: byte 2: ")) << r.error;
  EXPECT_EQ(r.error.find("(a hint)"), std::string::npos) << r.error;
}

} // namespace
} // namespace cjit::detail
