// HTML text: what the report and the stages' sections of it share.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cjit::detail {

//! `s` with &, <, >, " and ' escaped for HTML text and attribute values.
std::string esc(std::string_view s);

//! A time over memset's as a table cell: green where below 0.98, red where above 1.02; a dash
//! where there is none.
std::string time_ratio_cell(std::optional<double> x);

} // namespace cjit::detail
