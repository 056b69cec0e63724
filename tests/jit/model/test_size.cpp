// Sizes in text (jit/model/size.cpp, size_text.hpp): the one grammar of specs, profiles, command
// lines and CLEARJIT_PRELOAD_MIN, and text for people.
#include "jit/model/size.hpp"
#include "jit/model/size_text.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace cjit::detail {
namespace {

// One table for both readers: parse_size (the library, the CLI, specs, profiles) and read_size as
// libclearjit-preload.so calls it for CLEARJIT_PRELOAD_MIN.
struct SizeCase {
  const char *text;
  SizeRead read;
  uint64_t bytes; // when read is ok
};
constexpr SizeCase kSizes[] = {
    {"0", SizeRead::ok, 0},
    {"4096", SizeRead::ok, 4096},
    {"4K", SizeRead::ok, 4096},
    {"4k", SizeRead::ok, 4096},
    {"4KiB", SizeRead::ok, 4096},
    {"4kiB", SizeRead::ok, 4096},
    {"2M", SizeRead::ok, 2u << 20},
    {"2m", SizeRead::ok, 2u << 20},
    {"2MiB", SizeRead::ok, 2u << 20},
    {"3G", SizeRead::ok, 3ull << 30},
    {"3g", SizeRead::ok, 3ull << 30},
    {"3GiB", SizeRead::ok, 3ull << 30},
    {"16TiB", SizeRead::ok, 16ull << 40},
    {"0K", SizeRead::ok, 0},
    {"17179869183G", SizeRead::ok, 17179869183ull << 30}, // the largest G that fits
    {"18446744073709551615", SizeRead::ok, ~0ull},
    {"17179869184G", SizeRead::overflow, 0}, // 2^64
    {"16777216TiB", SizeRead::overflow, 0},
    {"18446744073709551616", SizeRead::overflow, 0},
    {"99999999999999999999K", SizeRead::overflow, 0},
    {"4KB", SizeRead::decimal, 0},
    {"4kB", SizeRead::decimal, 0},
    {"4kb", SizeRead::decimal, 0},
    {"2MB", SizeRead::decimal, 0},
    {"1GB", SizeRead::decimal, 0},
    {"", SizeRead::garbage, 0},
    {"K", SizeRead::garbage, 0},
    {"KiB", SizeRead::garbage, 0},
    {"-1", SizeRead::garbage, 0},
    {"+1", SizeRead::garbage, 0},
    {"1.5M", SizeRead::garbage, 0},
    {" 4K", SizeRead::garbage, 0},
    {"4K ", SizeRead::garbage, 0},
    {"0x10", SizeRead::garbage, 0},
    {"4KK", SizeRead::garbage, 0},
    {"4Ki", SizeRead::garbage, 0},
    {"4KIB", SizeRead::garbage, 0},
    {"4Kib", SizeRead::garbage, 0},
    {"4iB", SizeRead::garbage, 0},
    {"4P", SizeRead::garbage, 0},
    {"4B", SizeRead::garbage, 0},
    {"99999999999999999999x", SizeRead::garbage, 0}, // garbage first, however long the digits
};

TEST(size, OneGrammarForLibraryAndPreload) {
  for (const SizeCase &c : kSizes) {
    uint64_t v = 12345;
    EXPECT_EQ(read_size(c.text, std::strlen(c.text), &v), c.read) << c.text;
    EXPECT_EQ(v, c.read == SizeRead::ok ? c.bytes : 12345) << c.text;
    std::string why;
    const auto p = parse_size(c.text, &why);
    EXPECT_EQ(p, c.read == SizeRead::ok ? std::optional(c.bytes) : std::nullopt) << c.text;
    EXPECT_EQ(why.empty(), c.read == SizeRead::ok) << c.text;
  }
}

TEST(size, Reasons) {
  std::string why;
  EXPECT_FALSE(parse_size("4KB", &why));
  EXPECT_NE(why.find("write 4K or 4KiB: clearjit sizes are powers of 1024"), std::string::npos);
  EXPECT_FALSE(parse_size("17179869184G", &why));
  EXPECT_EQ(why, "does not fit in 64 bits");
  EXPECT_FALSE(parse_size("4x", &why));
  EXPECT_NE(why.find("digits with an optional K, M, G or T"), std::string::npos) << why;
  EXPECT_FALSE(parse_size(std::string_view("4K\0", 3), &why)) << "the length counts, not a NUL";
}

TEST(size, Format) {
  EXPECT_EQ(format_size(0), "0");
  EXPECT_EQ(format_size(64), "64");
  EXPECT_EQ(format_size(4096), "4K");
  EXPECT_EQ(format_size(3 << 20), "3145728") << "only powers of two get a suffix";
  EXPECT_EQ(format_size(1ull << 63), "8589934592G");
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
