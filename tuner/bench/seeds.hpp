// The published experiments clearjit grew from, rerun here beside their numbers
// (`clearjit bench --seeds`).
#pragma once

#include "tuner/bench/bench.hpp"

#include <string>

namespace cjit::detail {

//! Linux's clear_pages() posting (stosq and stosb over 1 GiB in 4K, 2M and 1G chunks) and
//! "clear 1G pages with streaming stores" (a movnti loop + sfence against rep stosb over
//! 1 GiB), measured here, as text beside the published figures.
std::string run_seeds(const CpuInfo &cpu, const BenchOptions &o);

} // namespace cjit::detail
