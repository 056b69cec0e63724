#include "plan.hpp"

#include "choose.hpp"

#include <cmath>
#include <set>

namespace cjit::detail {

LevelPlan plan_for(Level l) {
  switch (l) {
  case Level::quick: return {1, 5, 0.004, false, 1, 50};
  // The budget is what the stages plan for; a run overshoots it by its estimates' error, and
  // setting up (the destination pool) and writing come on top. On Zen 5 (2026-12-01) 270 s gave
  // 295-297 s of stages and 4:59 and 5:15 wall: 250 keeps default under its 5 minutes.
  case Level::default_: return {2, 7, 0.01, true, 2, 250};
  case Level::exhaustive: return {4, 7, 0.01, true, 3, 0};
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
