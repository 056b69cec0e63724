// Sizes in text, both ways, for every layer. Kernel specs, sysfs and command lines write "4K"
// (K, M and G are powers of 1024); profiles write "4KiB", where "K" could be read as 1000; text
// for people says "4 KiB".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cjit::detail {

enum class SizeSuffixes : uint8_t {
  short_, //!< K, M, G
  iec,    //!< KiB, MiB, GiB, TiB
};

//! Digits with at most one suffix of `suffixes` after them, in bytes; nullopt for anything else,
//! and for more than 64 bits (then `*overflow` is set, when given).
std::optional<uint64_t> parse_size(std::string_view text,
                                   SizeSuffixes suffixes = SizeSuffixes::short_,
                                   bool *overflow = nullptr);

//! "2M" for a power of two of at least 1K (what specs write), plain digits otherwise: what
//! parse_size reads back.
std::string format_size(uint64_t bytes);

//! For people: "32 MiB", "48 KiB", "1000 B" in the largest unit that divides exactly; a size
//! that no unit from KiB up divides but is at least 1 KiB gets one decimal ("1.5 MiB") unless
//! `exact`, which keeps the exact form ("1280 KiB").
std::string human_bytes(uint64_t bytes, bool exact = false);

} // namespace cjit::detail
