// Sizes in text, both ways, for every layer. Specs, profiles, command lines, sysfs and
// CLEARJIT_PRELOAD_MIN share one grammar (size_text.hpp: 4096, 4K, 4k, 4KiB, powers of 1024);
// text for people says "4 KiB".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cjit::detail {

//! A size in the grammar of size_text.hpp, in bytes; nullopt for anything else, and then `*why`
//! (when given) says why as size_read_why does: a clause to follow "<text> is not a size: ".
std::optional<uint64_t> parse_size(std::string_view text, std::string *why = nullptr);

//! "2M" for a power of two of at least 1K (what specs write), plain digits otherwise: what
//! parse_size reads back.
std::string format_size(uint64_t bytes);

//! For people: "32 MiB", "48 KiB", "1000 B" in the largest unit that divides exactly; a size
//! that no unit from KiB up divides but is at least 1 KiB gets one decimal ("1.5 MiB") unless
//! `exact`, which keeps the exact form ("1280 KiB").
std::string human_bytes(uint64_t bytes, bool exact = false);

} // namespace cjit::detail
