// What a profile's text must satisfy before the TOML parser (toml++ 3.3) may see it.
#pragma once

#include <string>
#include <string_view>

namespace cjit::detail {

//! Deepest node a profile may describe, counting [header] parts (two levels each), dotted-key
//! parts, arrays and inline tables (the format needs 5); toml++ recurses per level
//! (docs/design/profile-format.md, Hardening the loader).
constexpr int kMaxTomlDepth = 32;

//! Empty when `text` may be handed to toml++; otherwise "<name>:<line>: <why>". Refuses bytes
//! that are not UTF-8 (and NUL), nodes deeper than kMaxTomlDepth, and toml_mishandles() code
//! points where toml++ tests them: outside strings and comments, and in a multi-line basic
//! string right after a backslash or a line-ending backslash.
std::string toml_guard(std::string_view text, const std::string &name);

//! The code points toml++ 3.3's is_non_ascii_horizontal_whitespace() reaches
//! __builtin_unreachable for: U+00A1..U+0499, U+2C5E..U+3057 but U+3000, U+FB26..U+FEFE.
bool toml_mishandles(char32_t cp);

//! "U+00E9".
std::string code_point_name(char32_t cp);

} // namespace cjit::detail
