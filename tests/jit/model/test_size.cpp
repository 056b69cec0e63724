// Sizes in text (jit/model/size.cpp): the specs' and command lines' "4K", the profiles' "4KiB",
// and text for people.
#include "jit/model/size.hpp"

#include <gtest/gtest.h>

namespace cjit::detail {
namespace {

TEST(size, ParseAndFormat) {
  EXPECT_EQ(parse_size("0"), 0u);
  EXPECT_EQ(parse_size("4K"), 4096u);
  EXPECT_EQ(parse_size("2M"), 2u << 20);
  EXPECT_EQ(parse_size("3G"), 3ull << 30);
  EXPECT_EQ(parse_size("17179869183G"), 17179869183ull << 30); // the largest that fits
  EXPECT_EQ(parse_size("17179869184G"), std::nullopt);         // 2^64
  EXPECT_EQ(parse_size("18446744073709551616"), std::nullopt);
  for (const char *bad : {"", "K", "4k", "4KB", "-1", "+1", "1.5M", " 4K", "0x10"})
    EXPECT_EQ(parse_size(bad), std::nullopt) << bad;
  EXPECT_EQ(format_size(0), "0");
  EXPECT_EQ(format_size(64), "64");
  EXPECT_EQ(format_size(4096), "4K");
  EXPECT_EQ(format_size(3 << 20), "3145728") << "only powers of two get a suffix";
  EXPECT_EQ(format_size(1ull << 63), "8589934592G");
}

// The profile's spelling (KiB ...) through the same parser, and whether it overflowed.
TEST(size, IecSuffixesAndOverflow) {
  bool overflow = false;
  EXPECT_EQ(parse_size("32KiB", SizeSuffixes::iec), 32u << 10);
  EXPECT_EQ(parse_size("16TiB", SizeSuffixes::iec), 16ull << 40);
  for (const char *bad : {"32K", "32KB", "KiB", "-1KiB"}) {
    EXPECT_EQ(parse_size(bad, SizeSuffixes::iec, &overflow), std::nullopt) << bad;
    EXPECT_FALSE(overflow) << bad;
  }
  EXPECT_EQ(parse_size("16777216TiB", SizeSuffixes::iec, &overflow), std::nullopt); // 2^64
  EXPECT_TRUE(overflow);
}

TEST(size, HumanBytes) {
  EXPECT_EQ(human_bytes(0), "0 B");
  EXPECT_EQ(human_bytes(1000), "1000 B");
  EXPECT_EQ(human_bytes(48 << 10), "48 KiB");
  EXPECT_EQ(human_bytes(3ull << 30), "3 GiB");
  EXPECT_EQ(human_bytes(1536), "1.5 KiB");
  EXPECT_EQ(human_bytes(1280 << 10), "1.2 MiB");
  EXPECT_EQ(human_bytes(1280 << 10, true), "1280 KiB") << "exact: two close sizes stay apart";
}

} // namespace
} // namespace cjit::detail
