#include "format.hpp"

#include <cstdio>

namespace cjit::detail {

std::string fmt(const char *format, double value) {
  char b[64];
  std::snprintf(b, sizeof b, format, value);
  return b;
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

std::string join(const std::vector<std::string> &parts, std::string_view separator) {
  std::string out;
  for (size_t k = 0; k < parts.size(); ++k)
    out += (k ? std::string(separator) : "") + parts[k];
  return out;
}

} // namespace cjit::detail
