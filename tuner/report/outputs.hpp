// What a tuning run writes: the profile (through the profile module), every measurement as
// JSON, the summary on stdout, and the HTML report (report.cpp).
#pragma once

#include "tuner/formats/raw.hpp" // measurements_json
#include "tuner/stages/tune.hpp"

#include <string>

namespace cjit::detail {

//! The profile TOML for a result, with the run's [tuning] and [findings] tables.
std::string profile_toml(const TuneResult &r, const CpuInfo &cpu);
//! The human summary printed on stdout.
std::string summary_text(const TuneResult &r);
//! "amd-family26-model2.toml"
std::string default_profile_name(const CpuInfo &cpu);
//! One self-contained HTML page with SVG charts of a tuning run (report.cpp).
std::string report_html(const TuneResult &r, const CpuInfo &cpu);

} // namespace cjit::detail
