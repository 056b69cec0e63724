// Text shared by the tuner's outputs: the summary, the report, `clearjit bench` and JSON.
#pragma once

#include "size.hpp" // human_bytes, which every output uses

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cjit::detail {

//! printf of one number, e.g. fmt("%.2fx", ratio).
std::string fmt(const char *format, double value);

//! The parts with `separator` between them.
std::string join(const std::vector<std::string> &parts, std::string_view separator);

//! A JSON string literal, quotes included.
std::string json_string(std::string_view s);

} // namespace cjit::detail
