#include "jit/model/size.hpp"
#include "jit/model/size_text.hpp"

#include <cmath>
#include <cstdio>
#include <utility>

namespace cjit::detail {
std::optional<uint64_t> parse_size(std::string_view text, std::string *why) {
  uint64_t v = 0;
  const SizeRead r = read_size(text.data(), text.size(), &v);
  if (r == SizeRead::ok) return v;
  if (why) *why = size_read_why(r);
  return std::nullopt;
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
