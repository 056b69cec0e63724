#include "tuner/text/html.hpp"

#include "tuner/text/format.hpp"

namespace cjit::detail {

std::string esc(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    default: out += c;
    }
  }
  return out;
}

std::string time_ratio_cell(std::optional<double> x) {
  if (!x) return std::string("<td class=\"n\">&ndash;</td>");
  const char *c = *x >= 1.02 ? " class=\"down\"" : *x <= 0.98 ? " class=\"up\"" : "";
  return "<td class=\"n\"><span" + std::string(c) + ">" + fmt("%.2f&times;", *x) + "</span></td>";
}

} // namespace cjit::detail
