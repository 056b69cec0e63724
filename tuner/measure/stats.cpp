#include "tuner/measure/stats.hpp"

#include <boost/math/distributions/binomial.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cjit::detail {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double geomean(const std::vector<double> &v) {
  double logsum = 0;
  for (double x : v)
    logsum += std::log(x);
  return v.empty() ? 0 : std::exp(logsum / double(v.size()));
}

double cv(const std::vector<double> &v) {
  if (v.size() < 2) return 0;
  const double n = double(v.size()), mean = std::accumulate(v.begin(), v.end(), 0.0) / n;
  if (mean <= 0) return 0;
  double var = 0;
  for (double x : v)
    var += (x - mean) * (x - mean);
  return std::sqrt(var / (n - 1)) / mean;
}

namespace {
// The largest rank k (1-based) with P(Binomial(n, 1/2) <= k - 1) <= alpha; 0 when even k = 1
// (all n values on one side of the median, probability 2^-n) exceeds alpha.
size_t bound_rank(size_t n, double alpha) {
  if (n == 0) return 0;
  const boost::math::binomial_distribution<double> b(double(n), 0.5);
  size_t k = 0;
  while (k < n / 2 && boost::math::cdf(b, double(k)) <= alpha)
    ++k;
  return k;
}
} // namespace

Interval median_interval(std::vector<double> v, double confidence) {
  Interval out;
  out.n = v.size();
  if (v.empty()) return out;
  std::sort(v.begin(), v.end());
  out.median = median(v);
  const size_t k = bound_rank(v.size(), 1 - confidence);
  out.bounded = k > 0;
  const size_t r = std::max<size_t>(k, 1);
  out.lower = v[r - 1];
  out.upper = v[v.size() - r];
  return out;
}

size_t fewest_for(double confidence) {
  size_t n = 1;
  while (bound_rank(n, 1 - confidence) == 0 && n < 64)
    ++n;
  return n;
}

std::vector<double> round_ratios(const std::vector<double> &a, const std::vector<double> &b) {
  std::vector<double> out(std::min(a.size(), b.size()));
  for (size_t j = 0; j < out.size(); ++j)
    out[j] = a[j] > 0 && b[j] > 0 ? a[j] / b[j] : NAN;
  return out;
}

std::vector<double> present(const std::vector<double> &v) {
  std::vector<double> out;
  for (double x : v)
    if (std::isfinite(x)) out.push_back(x);
  return out;
}

std::vector<double> round_geomeans(const std::vector<std::vector<double>> &series) {
  std::vector<double> out;
  if (series.empty()) return out;
  for (size_t j = 0; j < series[0].size(); ++j) {
    std::vector<double> row;
    for (const auto &r : series)
      if (j < r.size() && std::isfinite(r[j])) row.push_back(r[j]);
    out.push_back(row.size() == series.size() ? geomean(row) : NAN);
  }
  return out;
}

} // namespace cjit::detail
