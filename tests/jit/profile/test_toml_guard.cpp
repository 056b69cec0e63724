// What a profile's text must satisfy before toml++ sees it (jit/profile/toml_guard.cpp): UTF-8
// without NUL, nodes no deeper than kMaxTomlDepth, and none of the code points toml++ 3.3
// mishandles where it tests them. Each refusal names the file and the line.
#include "jit/profile/toml_guard.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cjit::detail {
namespace {

using test::repeat;

TEST(toml_guard, AProfilesTextPasses) {
  EXPECT_EQ(toml_guard("format = 1\n[host]\nvendor = \"AuthenticAMD\"\n"
                       "[[dispatch.reuse]]\nkernel = \"stosb\" # a comment: \xc2\xa1\n",
                       "p.toml"),
            "");
}

TEST(toml_guard, BytesThatAreNotUtf8AndNulAreRefusedWithTheirLine) {
  for (const std::string &bad :
       {std::string("x = 1\ny = \"\xff\"\n"), std::string("x = 1\ny = \"\xc3\"\n"),
        std::string("x = 1\ny = 2\0\n", 12)}) {
    const std::string why = toml_guard(bad, "p.toml");
    EXPECT_EQ(why.rfind("p.toml:2: not a text profile: ", 0), 0u) << why;
    EXPECT_NE(why.find("at column 6"), std::string::npos) << why;
  }
}

TEST(toml_guard, DepthIsBoundedBeforeParsing) {
  auto arrays = [](size_t depth) {
    return "x = " + repeat("[", depth) + repeat("]", depth) + "\n";
  };
  auto dotted = [](size_t parts) { return repeat("a", parts, ".") + " = 1\n"; };
  EXPECT_EQ(toml_guard(arrays(5), "p.toml"), "");
  EXPECT_EQ(toml_guard(dotted(5), "p.toml"), "");
  for (size_t n : {size_t(kMaxTomlDepth + 1), size_t(100000)}) {
    EXPECT_EQ(toml_guard(arrays(n), "p.toml").rfind("p.toml:1: nested too deep", 0), 0u) << n;
    EXPECT_EQ(toml_guard(dotted(n), "p.toml").rfind("p.toml:1: nested too deep", 0), 0u) << n;
  }
}

TEST(toml_guard, MishandledCodePointsAreRefusedWhereTomlTestsThem) {
  const std::string inverted_exclamation = "\xc2\xa1"; // U+00A1
  EXPECT_EQ(toml_guard("x = \"" + inverted_exclamation + "\"\n", "p.toml"), "")
      << "inside a string toml++ does not test it";
  EXPECT_EQ(toml_guard("x = 1" + inverted_exclamation + "\n", "p.toml")
                .rfind("p.toml:1: character U+00A1 at column 6 outside strings and comments", 0),
            0u);
  const std::string after_backslash = "x = \"\"\"\n\\" + inverted_exclamation + "\"\"\"\n";
  EXPECT_EQ(toml_guard(after_backslash, "p.toml").rfind("p.toml:2: ", 0), 0u);
}

TEST(toml_guard, TheMishandledRangesAndTheirEdges) {
  for (char32_t cp : {0xa1, 0x499, 0x2c5e, 0x2fff, 0x3001, 0x3057, 0xfb26, 0xfefe})
    EXPECT_TRUE(toml_mishandles(cp)) << code_point_name(cp);
  for (char32_t cp : {0x20, 0xa0, 0x49a, 0x2c5d, 0x3000, 0x3058, 0xfb25, 0xfeff})
    EXPECT_FALSE(toml_mishandles(cp)) << code_point_name(cp);
  EXPECT_EQ(code_point_name(0xe9), "U+00E9");
  EXPECT_EQ(code_point_name(0x1f600), "U+1F600");
}

} // namespace
} // namespace cjit::detail
