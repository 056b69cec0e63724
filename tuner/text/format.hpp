// Text shared by the tuner's outputs: the summary, the report, `clearjit bench` and JSON.
#pragma once

#include "jit/model/size.hpp" // human_bytes, which every output uses

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cjit::detail {

//! printf of one number, e.g. fmt("%.2fx", ratio).
std::string fmt(const char *format, double value);

//! The parts with `separator` between them.
std::string join(const std::vector<std::string> &parts, std::string_view separator);

//! `value` rounded to `decimals` decimal places, for JSON numbers that should not carry more
//! digits than they mean (GB/s to 3, a coefficient of variation to 4).
double round_to(double value, int decimals);

//! A JSON file's text: nlohmann::json's dump, indented by 2 (bytes that are not UTF-8 become
//! U+FFFD, never an exception; NaN and infinities null).
std::string json_text(const nlohmann::ordered_json &object);

} // namespace cjit::detail
