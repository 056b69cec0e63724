#include "jit/model/size.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <span>
#include <utility>

namespace cjit::detail {
namespace {

constexpr std::pair<std::string_view, unsigned> kShort[] = {{"K", 10}, {"M", 20}, {"G", 30}};
constexpr std::pair<std::string_view, unsigned> kIec[] = {
    {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};

} // namespace

std::optional<uint64_t> parse_size(std::string_view text, SizeSuffixes suffixes, bool *overflow) {
  std::span<const std::pair<std::string_view, unsigned>> table = kShort;
  if (suffixes == SizeSuffixes::iec) table = kIec;
  std::string_view digits = text;
  unsigned shift = 0;
  for (auto [suffix, s] : table)
    if (digits.size() > suffix.size() && digits.ends_with(suffix)) {
      digits.remove_suffix(suffix.size());
      shift = s;
      break;
    }
  if (digits.empty() ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || p != digits.data() + digits.size() || (shift && v >> (64 - shift))) {
    if (overflow) *overflow = true;
    return std::nullopt;
  }
  return v << shift;
}

std::string format_size(uint64_t b) {
  if (b && (b & (b - 1)) == 0)
    for (auto [suffix, shift] : {std::pair{'G', 30}, {'M', 20}, {'K', 10}})
      if (b >= (1ull << shift)) return std::to_string(b >> shift) + suffix;
  return std::to_string(b);
}

std::string human_bytes(uint64_t bytes, bool exact) {
  const char *units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  double v = double(bytes);
  while (u < 3 && v >= 1024 && std::fmod(v, 1024) == 0) {
    v /= 1024;
    ++u;
  }
  char b[64];
  if (!exact && u < 3 && v >= 1024) { // not exact: one decimal in the largest unit
    while (u < 3 && v >= 1024) {
      v /= 1024;
      ++u;
    }
    std::snprintf(b, sizeof b, "%.1f %s", v, units[u]);
  } else {
    std::snprintf(b, sizeof b, "%.0f %s", v, units[u]);
  }
  return b;
}

} // namespace cjit::detail
