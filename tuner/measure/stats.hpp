// The statistics the tuner, the report and the bench take their numbers from. Timings have long
// tails (preemptions), so decisions rest on medians and order-statistic bounds, not a t-test.
#pragma once

#include <cstddef>
#include <vector>

namespace cjit::detail {

//! The median (0 for none).
double median(std::vector<double> v);

//! The geometric mean (0 for none; every value must be positive).
double geomean(const std::vector<double> &v);

//! Standard deviation over mean, with n - 1 (0 for fewer than two values or a mean of 0).
double cv(const std::vector<double> &v);

//! A median and its distribution-free confidence bounds.
struct Interval {
  double lower = 0, median = 0, upper = 0;
  size_t n = 0;
  //! False when too few values bound the median at that confidence (lower, upper: min, max).
  bool bounded = false;
};

//! The median of `v`; `lower`/`upper` the k-th smallest/largest value, k the largest rank with
//! P(Binomial(n, 1/2) < k) <= 1 - `confidence`: each a one-sided bound for independent values
//! (a sign test). n = 4 values bound the median at 0.90 (1/16), n = 5 at 0.95 (1/32).
Interval median_interval(std::vector<double> v, double confidence);

//! The fewest values median_interval() bounds at `confidence`.
size_t fewest_for(double confidence);

//! Paired ratios a[j] / b[j] (the same round of an interleaved measurement), NaN where either is
//! not positive, so several series' rounds stay aligned; as long as the shorter.
std::vector<double> round_ratios(const std::vector<double> &a, const std::vector<double> &b);

//! Per round, the geometric mean over several round_ratios series; NaN where one lacks it.
std::vector<double> round_geomeans(const std::vector<std::vector<double>> &series);

//! The finite values of `v`, in order.
std::vector<double> present(const std::vector<double> &v);

} // namespace cjit::detail
