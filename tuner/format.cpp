#include "format.hpp"

#include <cmath>
#include <cstdio>

namespace cjit {

std::string fmt(const char *format, double value) {
  char b[64];
  std::snprintf(b, sizeof b, format, value);
  return b;
}

std::string human_bytes(uint64_t bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  double v = double(bytes);
  while (u < 3 && v >= 1024 && std::fmod(v, 1024) == 0) {
    v /= 1024;
    ++u;
  }
  if (u < 3 && v >= 1024) { // not exact: one decimal in the largest unit
    while (u < 3 && v >= 1024) {
      v /= 1024;
      ++u;
    }
    return fmt("%.1f ", v) + units[u];
  }
  return fmt("%.0f ", v) + units[u];
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", unsigned(c));
      out += b;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

} // namespace cjit
