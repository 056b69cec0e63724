#include "tuner/text/format.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

namespace cjit::detail {

std::string fmt(const char *format, double value) {
  char b[64];
  std::snprintf(b, sizeof b, format, value);
  return b;
}

std::string join(const std::vector<std::string> &parts, std::string_view separator) {
  std::string out;
  for (size_t k = 0; k < parts.size(); ++k)
    out += (k ? std::string(separator) : "") + parts[k];
  return out;
}

double round_to(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::isfinite(value) ? std::round(value * scale) / scale : value;
}

std::string json_text(const nlohmann::ordered_json &object) {
  return object.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

} // namespace cjit::detail
