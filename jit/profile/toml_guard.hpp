// What a profile's text must satisfy before the TOML parser (toml++ 3.3) may see it.
#pragma once

#include <string>
#include <string_view>

namespace cjit::detail {

//! Deepest node a profile may describe: [header] parts (two levels each, since each may be an
//! array of tables), dotted-key parts, arrays and inline tables, counted together (the format
//! itself needs 5: [[dispatch.reuse]] is 4, its kernel key one more).
//! toml++ recurses once per level when it parses and again afterwards, so an unbounded depth
//! overflows the stack: 150,000 dotted-key parts (a 300 KB file) did on an 8 MiB stack.
constexpr int kMaxTomlDepth = 32;

//! Empty when `text` may be handed to toml++; otherwise "<name>:<line>: <why>". Refuses:
//! bytes that are not UTF-8 (and NUL), nodes deeper than kMaxTomlDepth, and the code points
//! toml++ 3.3 mishandles (toml_mishandles) wherever its parser would test them: outside
//! strings and comments, and in a multi-line basic string right after a backslash or after
//! a line-ending backslash. Inside comments and other strings they are accepted.
std::string toml_guard(std::string_view text, const std::string &name);

//! toml++ 3.3's is_non_ascii_horizontal_whitespace() reaches __builtin_unreachable (undefined
//! behaviour; the fuzzer found it) for the code points of three of its 1018-wide blocks that
//! it has no case for: U+00A1..U+0499 (Latin-1 letters such as U+00E9, Greek, Cyrillic),
//! U+2C5E..U+3057 but U+3000 (CJK punctuation, Hiragana) and U+FB26..U+FEFE (presentation
//! forms).
bool toml_mishandles(char32_t cp);

//! "U+00E9".
std::string code_point_name(char32_t cp);

} // namespace cjit::detail
