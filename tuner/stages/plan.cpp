#include "tuner/stages/plan.hpp"

#include "tuner/race/tables.hpp"

#include <cmath>
#include <set>

namespace cjit::detail {

LevelPlan plan_for(Level l) {
  switch (l) {
  case Level::quick: return {1, 3, 0.002, 0.001, 0.90, 8, false, false, 50};
  case Level::default_: return {2, 5, 0.004, 0.002, 0.95, 14, true, true, 270};
  case Level::exhaustive: return {4, 7, 0.01, 0.005, 0.99, 30, true, true, 0};
  }
  return {};
}

std::vector<uint64_t> size_grid(uint64_t lo, uint64_t hi, int steps) {
  std::set<uint64_t> out;
  for (int i = 0;; ++i) {
    double s = double(lo) * std::pow(2.0, double(i) / steps);
    if (s > double(hi) * 1.0001) break;
    out.insert(s < 4096 ? round_boundary(s) : uint64_t(std::llround(s / 4096)) * 4096);
  }
  out.insert(hi);
  return {out.begin(), out.end()};
}

} // namespace cjit::detail
