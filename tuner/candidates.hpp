// Which kernels the tuner measures at each level; also what `clearjit list` prints.
#pragma once

#include "spec.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace cjit {

enum class Level : uint8_t { quick, default_, exhaustive };

std::optional<Level> level_by_name(std::string_view name);
std::string_view level_name(Level l);

//! Every spec the tuner considers at `level`, for every method (runnable or not), without
//! duplicates, in method-table order.
std::vector<Spec> candidates(Level level);

} // namespace cjit
