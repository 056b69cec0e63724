#include "format.hpp"

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

namespace {

// nlohmann's own text of `v` on one line: its pretty form with no indentation has a line break
// after every '{', '[' and ',' and before every '}' and ']', and nowhere else (a newline inside a
// string is written "\n"), so each break becomes a space after a comma and nothing elsewhere.
std::string one_line(const nlohmann::ordered_json &v) {
  const std::string text = v.dump(0, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char c : text)
    if (c != '\n')
      out += c;
    else if (!out.empty() && out.back() == ',')
      out += ' ';
  return out;
}

} // namespace

std::string json_text(const nlohmann::ordered_json &object) {
  std::string out = "{";
  const char *separator = "\n";
  for (const auto &[key, value] : object.items()) {
    out += separator;
    separator = ",\n";
    out += "  " + one_line(key) + ": ";
    if (value.is_array() && !value.empty() && value.front().is_object()) {
      out += "[";
      for (size_t i = 0; i < value.size(); ++i)
        out += (i ? ",\n    " : "\n    ") + one_line(value[i]);
      out += "\n  ]";
    } else {
      out += one_line(value);
    }
  }
  return out + "\n}\n";
}

} // namespace cjit::detail
