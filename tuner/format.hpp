// Text shared by the tuner's outputs: the summary, the report, `clearjit bench` and JSON.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cjit {

//! printf of one number, e.g. fmt("%.2fx", ratio).
std::string fmt(const char *format, double value);

//! "32 MiB", "48 KiB", "1.5 MiB", "1000 B": the exact unit when it divides, else one decimal.
std::string human_bytes(uint64_t bytes);

//! A JSON string literal, quotes included.
std::string json_string(std::string_view s);

} // namespace cjit
