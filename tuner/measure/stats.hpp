// The statistics every stage, the verification, the report and the bench take their numbers
// from: medians, geometric means, spreads, and the distribution-free confidence bounds the
// tuner decides by. Timings on a shared VM are not normal (preemptions make long tails), so a
// decision rests on the median and an order-statistic interval, as benchstat's does, not on a
// mean and a t-test.
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
  //! False when too few values bound the median at the confidence asked: lower and upper are
  //! then the smallest and largest value, which do not hold at that confidence.
  bool bounded = false;
};

//! The median of `v` with bounds from its order statistics: `lower` is the k-th smallest value
//! and `upper` the k-th largest, k the largest rank with P(Binomial(n, 1/2) < k) <= 1 -
//! `confidence`. Each bound holds alone at `confidence` (one-sided), whatever the
//! distribution, for independent values: so "lower > 1" is a one-sided sign test at level
//! 1 - confidence. n = 4 values bound the median at 0.90 (1/16), n = 5 at 0.95 (1/32).
Interval median_interval(std::vector<double> v, double confidence);

//! The fewest values median_interval() bounds at `confidence`.
size_t fewest_for(double confidence);

//! Paired ratios, round by round: a[j] / b[j] (a and b measured in the same round of an
//! interleaved measurement), NaN where either is missing (not positive), so that the rounds of
//! several series stay aligned; as long as the shorter of the two.
std::vector<double> round_ratios(const std::vector<double> &a, const std::vector<double> &b);

//! Per round, the geometric mean over several round_ratios series (a candidate's speed over
//! memset's in each destination state, as one score): NaN where a series lacks that round.
std::vector<double> round_geomeans(const std::vector<std::vector<double>> &series);

//! The finite values of `v`, in order.
std::vector<double> present(const std::vector<double> &v);

} // namespace cjit::detail
