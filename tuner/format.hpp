// Text shared by the tuner's outputs: the summary, the report, `clearjit bench` and JSON.
#pragma once

#include "size.hpp" // human_bytes, which every output uses

#include <cstdint>
#include <string>
#include <string_view>

namespace cjit::detail {

//! printf of one number, e.g. fmt("%.2fx", ratio).
std::string fmt(const char *format, double value);

//! A JSON string literal, quotes included.
std::string json_string(std::string_view s);

} // namespace cjit::detail
