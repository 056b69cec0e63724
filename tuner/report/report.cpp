// `clearjit tune --report`: one self-contained HTML page (inline CSS and SVG, no scripts, no
// external resources), so it can be attached to an issue or opened offline years later.
#include "tuner/report/outputs.hpp"

#include "tuner/race/race.hpp"
#include "tuner/text/format.hpp"
#include "tuner/text/html.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>

namespace cjit::detail {
namespace {

// `--glibc-tunables`: the lines tried, and the rows of the chosen one (or the first) with and
// without it.
std::string tunables_html(const TunablesStudy &s) {
  std::ostringstream h;
  h << "<h2>GLIBC_TUNABLES for " << esc(s.libc) << "'s memset</h2>\n<div class=\"card\"><p>";
  if (!s.error.empty())
    h << "The check could not run: " << esc(s.error);
  else if (s.chosen)
    h << "Written: <code>GLIBC_TUNABLES=" << esc(s.tried[*s.chosen].line.text()) << "</code>";
  else
    h << "No line written: " << esc(s.note);
  h << " <span class=\"muted\">(" << s.rounds << " rounds, " << fmt("%.1f", s.seconds)
    << " s)</span></p>\n<ul>\n";
  for (const LineCheck &c : s.tried)
    h << "<li><code>" << esc(c.line.text()) << "</code>: " << esc(c.verdict) << " <span "
      << "class=\"muted\">(" << esc(c.line.why) << ")</span></li>\n";
  h << "</ul>\n";
  const LineCheck *shown = s.chosen          ? &s.tried[*s.chosen]
                           : s.tried.empty() ? nullptr
                                             : &s.tried.front();
  if (shown) {
    h << "<table>\n<tr><th>size</th><th>intent</th><th>state</th><th class=\"n\">with, GB/s</th>"
      << "<th class=\"n\">without</th><th class=\"n\">ratio</th><th class=\"n\">bounds</th>"
      << "<th>path</th></tr>\n";
    for (const RowCheck &c : shown->rows)
      h << "<tr" << (c.won ? " class=\"pick\"" : "") << "><td>" << esc(human_bytes(c.row.size))
        << "</td><td>" << intent_name(c.row.intent) << "</td><td>" << pattern_name(c.row.pattern)
        << "</td><td class=\"n\">" << fmt("%.1f", c.with_gbps) << "</td><td class=\"n\">"
        << fmt("%.1f", c.without_gbps) << "</td><td class=\"n\">"
        << fmt("%.2f&times;", c.ratio.median) << "</td><td class=\"n\">"
        << fmt("%.2f", c.ratio.lower) << "..." << fmt("%.2f", c.ratio.upper) << "</td><td>"
        << (c.changed ? (c.lost  ? "changed, loses"
                         : c.won ? "changed, wins"
                                 : "changed")
                      : "same path")
        << "</td></tr>\n";
    h << "</table>\n<p class=\"muted\">memset under <code>" << esc(shown->line.text())
      << "</code> against memset without GLIBC_TUNABLES, one process each per round, "
      << "alternated. Rows on the same path are memset against itself: they judge nothing.</p>\n";
  }
  h << "</div>\n";
  return h.str();
}

using Curve = std::map<uint64_t, double>;                                 // size -> GB/s
using Pooled = std::map<std::tuple<Intent, Candidate, uint64_t>, double>; // GB/s medians

// Repeated measurements of one point are pooled into one median, as tables.cpp does. The
// charts show scattered destinations, one fence per clear: what every kernel was measured in.
Pooled pooled(const std::vector<Measurement> &ms) {
  std::map<std::tuple<Intent, Candidate, uint64_t>, Measurement> pool;
  for (const Measurement &m : ms) {
    if (m.pattern != Pattern::scattered || m.batched) continue;
    Measurement &p = pool[{m.intent, m.candidate, m.size}];
    p.samples.insert(p.samples.end(), m.samples.begin(), m.samples.end());
    if (m.samples.empty()) // a result without samples keeps its median
      p.samples.push_back(m.gbps);
  }
  Pooled out;
  for (auto &[key, m] : pool) {
    summarize(m);
    out[key] = m.gbps;
  }
  return out;
}

// A method's colour is its place in table order among the temporal methods (mostly cool
// colours) or among the non-temporal ones (mostly warm), so that a new row has one without an
// edit; the palettes repeat past their ends. memset is black.
constexpr const char *kTemporalColours[] = {"#1f77b4", "#6baed6", "#8c564b", "#a6a21b",
                                            "#2ca02c", "#17becf", "#393b79", "#74c476"};
constexpr const char *kNontemporalColours[] = {"#ff7f0e", "#e377c2", "#d62728", "#9467bd",
                                               "#7f7f7f", "#bcbd22", "#8c2d04", "#fdae6b"};

const char *method_colour(Method m) {
  const MethodInfo &mine = info(m);
  if (mine.store == Store::memset) return "#000000";
  size_t place = 0;
  for (const MethodInfo &mi : methods()) {
    if (mi.method == m) break;
    place += mi.nontemporal == mine.nontemporal && mi.store != Store::memset;
  }
  if (mine.nontemporal) return kNontemporalColours[place % std::size(kNontemporalColours)];
  return kTemporalColours[place % std::size(kTemporalColours)];
}

constexpr const char *kEnvelope = "#f2b705"; // a highlighter under the lines
constexpr const char *kFinding = "#b3261e";

struct Series {
  std::string name, colour;
  Curve points;
  double width = 1.8;
  std::string dash{}; // SVG stroke-dasharray, empty for solid
  double opacity = 1;
  bool dots = true;
};

//! A vertical line across the plot: a cache size (grey) or a finding of the tuner (red).
struct Marker {
  uint64_t size;
  std::string label;
  bool finding;
  const char *colour() const { return finding ? kFinding : "#6b7785"; }
  const char *dash() const { return finding ? "2 3" : "5 4"; }
};

struct Chart {
  std::vector<Series> series; // drawn in order: the first is at the back
  std::vector<Marker> markers;
  std::vector<uint64_t> boundaries; // class boundaries, drawn as ticks on the x axis
  int width = 1160, height = 460;
};

// 1, 2, 2.5 or 5 times a power of ten, so about `n` ticks cover [0, top].
double nice_step(double top, int n) {
  double raw = std::max(top, 1e-9) / n, p = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0})
    if (raw <= m * p) return m * p;
  return 10 * p;
}

// The plot area and its scales: whole octaves of size on x (log scale), GB/s from 0 on y.
struct Axes {
  double L, T, R, B; // the plot area
  int e0, e1;        // the octaves at the ends of the x axis
  double step, ymax; // the GB/s between gridlines, and at the top
  double X(double size) const { return L + (std::log2(size) - e0) / (e1 - e0) * (R - L); }
  double Y(double g) const { return B - g / ymax * (B - T); }
  bool in_range(uint64_t size) const {
    return size >= (1ull << e0) && std::log2(double(size)) <= e1;
  }
};

// The axes that hold every point of the chart; none when it has no point.
std::optional<Axes> axes_for(const Chart &c) {
  // Plot area; the legend sits to the right of it so it never covers a line.
  const double L = 64, T = 58, R = c.width - 200, B = c.height - 48;
  uint64_t lo = UINT64_MAX, hi = 0;
  double top = 0;
  for (const Series &s : c.series)
    for (auto [size, g] : s.points) {
      lo = std::min(lo, size);
      hi = std::max(hi, size);
      top = std::max(top, g);
    }
  if (hi == 0) return std::nullopt;
  // Whole octaves, so the axis starts and ends on a labelled power of two.
  int e0 = int(std::floor(std::log2(double(lo)))), e1 = int(std::ceil(std::log2(double(hi))));
  if (e1 == e0) ++e1;
  double step = nice_step(top * 1.04, 6), ymax = std::ceil(top * 1.04 / step) * step;
  return Axes{L, T, R, B, e0, e1, step, ymax};
}

// Gridlines: every nice GB/s step, every octave; labels on every first, second or fourth. Then
// the frame and the axis titles.
void grid_svg(std::ostream &o, const Chart &c, const Axes &a) {
  for (double g = 0; g <= a.ymax + a.step / 2; g += a.step)
    o << "<line class=\"grid\" x1=\"" << a.L << "\" x2=\"" << a.R << "\" y1=\""
      << fmt("%.1f", a.Y(g)) << "\" y2=\"" << fmt("%.1f", a.Y(g)) << "\"/><text class=\"tick\" x=\""
      << a.L - 8 << "\" y=\"" << fmt("%.1f", a.Y(g) + 4) << "\" text-anchor=\"end\">"
      << fmt(a.step < 1 ? "%.1f" : "%.0f", g) << "</text>\n";
  int every = a.e1 - a.e0 <= 10 ? 1 : a.e1 - a.e0 <= 20 ? 2 : 4;
  for (int e = a.e0; e <= a.e1; ++e) {
    double x = a.X(std::ldexp(1.0, e));
    o << "<line class=\"grid\" x1=\"" << fmt("%.1f", x) << "\" x2=\"" << fmt("%.1f", x)
      << "\" y1=\"" << a.T << "\" y2=\"" << a.B << "\"/>";
    if (e % every == 0)
      o << "<text class=\"tick\" x=\"" << fmt("%.1f", x) << "\" y=\"" << a.B + 17
        << "\" text-anchor=\"middle\">" << esc(format_size(1ull << e)) << "</text>";
    o << "\n";
  }
  o << "<rect class=\"frame\" x=\"" << a.L << "\" y=\"" << a.T << "\" width=\"" << a.R - a.L
    << "\" height=\"" << a.B - a.T << "\"/>\n";
  o << "<text class=\"axis\" x=\"" << (a.L + a.R) / 2 << "\" y=\"" << c.height - 8
    << "\" text-anchor=\"middle\">size (bytes, log scale)</text>\n";
  o << "<text class=\"axis\" transform=\"translate(16 " << (a.T + a.B) / 2
    << ") rotate(-90)\" text-anchor=\"middle\">GB/s</text>\n";
}

// Vertical markers, their labels above the plot in rows so that neighbours do not collide; then
// the class boundaries as ticks on the x axis.
void markers_svg(std::ostream &o, const Chart &c, const Axes &a) {
  std::vector<double> row_end(3, -1e9);
  for (const Marker &m : c.markers) {
    if (!a.in_range(m.size)) continue;
    double x = a.X(double(m.size)), w = 6.2 * double(m.label.size()) + 6;
    size_t row = 0;
    while (row + 1 < row_end.size() && row_end[row] > x - w / 2)
      ++row;
    row_end[row] = x + w / 2;
    double ly = a.T - 8 - 15 * double(row);
    o << "<line x1=\"" << fmt("%.1f", x) << "\" x2=\"" << fmt("%.1f", x) << "\" y1=\"" << ly + 3
      << "\" y2=\"" << a.B << "\" stroke=\"" << m.colour()
      << "\" stroke-width=\"1.2\" stroke-dasharray=\"" << m.dash() << "\"><title>" << esc(m.label)
      << ": " << esc(human_bytes(m.size)) << "</title></line>"
      << "<text class=\"mark\" x=\"" << fmt("%.1f", x) << "\" y=\"" << ly << "\" fill=\""
      << m.colour() << "\" text-anchor=\"middle\">" << esc(m.label) << "</text>\n";
  }
  for (uint64_t b : c.boundaries)
    if (a.in_range(b))
      o << "<line x1=\"" << fmt("%.1f", a.X(double(b))) << "\" x2=\"" << fmt("%.1f", a.X(double(b)))
        << "\" y1=\"" << a.B << "\" y2=\"" << a.B - 10
        << "\" stroke=\"#8a6d00\" stroke-width=\"2.5\">"
        << "<title>class boundary: " << esc(human_bytes(b)) << "</title></line>\n";
}

// Each series as a line, with a dot per point that names its value on hover.
void series_svg(std::ostream &o, const Chart &c, const Axes &a) {
  for (const Series &s : c.series) {
    o << "<g><title>" << esc(s.name) << "</title><polyline fill=\"none\" stroke=\"" << s.colour
      << "\" stroke-width=\"" << s.width << "\" stroke-opacity=\"" << s.opacity
      << "\" stroke-linejoin=\"round\" stroke-linecap=\"round\"";
    if (!s.dash.empty()) o << " stroke-dasharray=\"" << s.dash << "\"";
    o << " points=\"";
    for (auto [size, g] : s.points)
      o << fmt("%.1f", a.X(double(size))) << "," << fmt("%.1f", a.Y(g)) << " ";
    o << "\"/>";
    if (s.dots)
      for (auto [size, g] : s.points)
        o << "<circle cx=\"" << fmt("%.1f", a.X(double(size))) << "\" cy=\"" << fmt("%.1f", a.Y(g))
          << "\" r=\"2.4\" fill=\"" << s.colour << "\"><title>" << esc(s.name) << ", "
          << esc(human_bytes(size)) << ": " << fmt("%.1f", g) << " GB/s</title></circle>";
    o << "</g>\n";
  }
}

// The legend: the series, then the kinds of marker present.
void legend_svg(std::ostream &o, const Chart &c, const Axes &a) {
  double ly = a.T + 6;
  auto entry = [&](const std::string &label, const std::string &swatch) {
    o << "<g transform=\"translate(" << a.R + 22 << " " << ly << ")\">" << swatch
      << "<text class=\"legend\" x=\"38\" y=\"4\">" << esc(label) << "</text></g>\n";
    ly += 20;
  };
  for (const Series &s : c.series) {
    std::ostringstream sw;
    sw << "<line x1=\"0\" x2=\"28\" y1=\"0\" y2=\"0\" stroke=\"" << s.colour << "\" stroke-width=\""
       << s.width << "\" stroke-opacity=\"" << s.opacity << "\""
       << (s.dash.empty() ? "" : " stroke-dasharray=\"" + s.dash + "\"") << "/>";
    entry(s.name, sw.str());
  }
  ly += 8;
  for (bool finding : {false, true})
    for (const Marker &m : c.markers)
      if (m.finding == finding && a.in_range(m.size)) {
        entry(finding ? "finding" : "cache size",
              "<line x1=\"14\" x2=\"14\" y1=\"-8\" y2=\"8\" stroke=\"" + std::string(m.colour()) +
                  "\" stroke-width=\"1.2\" stroke-dasharray=\"" + m.dash() + "\"/>");
        break;
      }
  if (std::any_of(c.boundaries.begin(), c.boundaries.end(),
                  [&](uint64_t b) { return a.in_range(b); }))
    entry("class boundary",
          "<line x1=\"14\" x2=\"14\" y1=\"8\" y2=\"-2\" stroke=\"#8a6d00\" stroke-width=\"2.5\"/>");
}

std::string svg_chart(const Chart &c) {
  const std::optional<Axes> a = axes_for(c);
  if (!a) return "<p class=\"empty\">Nothing measured.</p>\n";
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << c.width << " " << c.height
    << "\" role=\"img\">\n";
  grid_svg(o, c, *a);
  markers_svg(o, c, *a);
  series_svg(o, c, *a);
  legend_svg(o, c, *a);
  o << "</svg>\n";
  return o.str();
}

const char *kStyle = R"(
:root { color-scheme: light; }
body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
       sans-serif; color: #1d2733; background: #f4f6f8; margin: 0; }
main { max-width: 1200px; margin: 0 auto; padding: 28px 32px 48px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 36px 0 6px; padding-bottom: 6px; border-bottom: 2px solid #d5dbe2; }
h3 { font-size: 15px; margin: 20px 0 6px; }
.sub { color: #5a6878; margin: 0 0 18px; }
.card { background: #fff; border: 1px solid #dde3ea; border-radius: 8px; padding: 16px 20px;
        margin: 12px 0; box-shadow: 0 1px 2px rgba(0,0,0,.04); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; margin: 0; }
dl.facts dt { color: #5a6878; }
dl.facts dd { margin: 0; }
.notes { background: #fff8e1; border-color: #f0d98c; }
.notes ul { margin: 4px 0 0; padding-left: 20px; }
svg { width: 100%; height: auto; display: block; }
svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
svg .grid { stroke: #e6eaef; stroke-width: 1; }
svg .frame { fill: none; stroke: #9aa5b1; stroke-width: 1; }
svg .tick { font-size: 11px; fill: #4a5664; }
svg .axis { font-size: 12px; fill: #2d3a48; font-weight: 600; }
svg .mark { font-size: 10.5px; font-weight: 600; }
svg .legend { font-size: 12px; fill: #1d2733; }
table { border-collapse: collapse; margin: 6px 0; font-variant-numeric: tabular-nums; }
th, td { padding: 5px 12px; border-bottom: 1px solid #e3e8ee; text-align: left; }
th { background: #eef2f6; font-weight: 600; font-size: 13px; }
td.n, th.n { text-align: right; }
tr.pick td { font-weight: 600; }
code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #eef2f6;
       padding: 1px 5px; border-radius: 4px; }
.up { color: #1e7b34; } .down { color: #b3261e; }
.track { width: 140px; height: 10px; background: #eef2f6; border-radius: 2px; }
.bar { height: 100%; background: #6baed6; border-radius: 2px; }
.studies { display: flex; flex-wrap: wrap; gap: 12px 40px; }
.empty, .muted { color: #6b7785; }
)";

const char *intent_text(Intent i) {
  return i == Intent::reuse ? "clear, then one read pass over the memory"
                            : "clear only; nothing reads the memory soon";
}

// The page up to its content: the title and the style sheet.
std::string page_head(const CpuInfo &cpu) {
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    << "<title>clearjit tuning report: " << esc(cpu.brand) << "</title>\n<style>" << kStyle
    << "</style>\n</head>\n<body>\n<main>\n";
  return h.str();
}

// "L1d 48 KiB &middot; L2 ...", each cache with the cores that share it where known.
std::string cache_list(const CpuInfo &cpu) {
  std::string caches;
  for (auto [name, c] : {std::pair{"L1d", cpu.l1d}, {"L2", cpu.l2}, {"L3", cpu.l3}}) {
    caches += caches.empty() ? "" : " &middot; ";
    caches += std::string(name) + " " + (c.size ? esc(human_bytes(c.size)) : "unknown");
    if (c.shared_by)
      caches += " <span class=\"muted\">(shared by " + std::to_string(c.shared_by) + ")</span>";
  }
  return caches;
}

// The CPU's features the kernels use, by name, space-separated.
std::string feature_list(const CpuInfo &cpu) {
  std::string features;
  for (size_t i = 1; i < size_t(Feature::count_); ++i)
    if (cpu.has(Feature(i))) {
      if (!features.empty()) features += ' ';
      features += feature_name(Feature(i));
    }
  return features;
}

// Header: the host and the run, and the notes on what was narrowed.
std::string host_html(const TuneResult &r, const CpuInfo &cpu) {
  std::ostringstream h;
  h << "<h1>clearjit tuning report</h1>\n<p class=\"sub\">" << esc(cpu.brand) << "</p>\n";
  const std::string features = feature_list(cpu);
  char fms[96];
  std::snprintf(fms, sizeof fms, "%u / %u / %u <span class=\"muted\">(0x%x / 0x%x / 0x%x)</span>",
                cpu.family, cpu.model, cpu.stepping, cpu.family, cpu.model, cpu.stepping);
  h << "<div class=\"card\"><dl class=\"facts\">\n"
    << "<dt>CPU</dt><dd>" << esc(cpu.brand) << "</dd>\n"
    << "<dt>Vendor</dt><dd>" << esc(cpu.vendor) << (cpu.hypervisor ? " (under a hypervisor)" : "")
    << "</dd>\n<dt>Family / model / stepping</dt><dd>" << fms << "</dd>\n"
    << "<dt>Caches</dt><dd>" << cache_list(cpu) << "</dd>\n";
  if (!cpu.cache_note.empty()) h << "<dt>Cache note</dt><dd>" << esc(cpu.cache_note) << "</dd>\n";
  h << "<dt>Features</dt><dd>" << (features.empty() ? "none" : esc(features)) << "</dd>\n"
    << "<dt>Level</dt><dd>" << esc(r.level) << "</dd>\n"
    << "<dt>Date</dt><dd>" << esc(r.date) << "</dd>\n"
    << "<dt>Duration</dt><dd>" << fmt("%.1f", r.seconds) << " s, " << r.measurements.size()
    << " measurements</dd>\n</dl></div>\n";
  if (!r.notes.empty()) {
    h << "<div class=\"card notes\"><strong>Notes</strong><ul>\n";
    for (const std::string &n : r.notes)
      h << "<li>" << esc(n) << "</li>\n";
    h << "</ul></div>\n";
  }
  return h.str();
}

// The cache sizes, marked on every chart.
std::vector<Marker> cache_markers(const CpuInfo &cpu) {
  std::vector<Marker> marks;
  for (auto [name, c] : {std::pair{"L1d", cpu.l1d}, {"L2", cpu.l2}, {"L3", cpu.l3}})
    if (c.size) marks.push_back({c.size, std::string(name) + " " + human_bytes(c.size), false});
  return marks;
}

// A pooled point's GB/s; none where it was not measured.
std::optional<double> pooled_at(const Pooled &gbps, Intent intent, const Candidate &c,
                                uint64_t size) {
  auto it = gbps.find({intent, c, size});
  return it == gbps.end() ? std::nullopt : std::optional(it->second);
}

// memset's curve for an intent (scattered, as the other curves).
Curve memset_curve(const Pooled &gbps, Intent intent) {
  Curve memset;
  for (auto &[key, g] : gbps)
    if (std::get<0>(key) == intent && std::get<1>(key).is_memset()) memset[std::get<2>(key)] = g;
  return memset;
}

// An intent's chart: the chosen table's envelope at the back, a line per method, memset, and
// the caches, findings and class boundaries marked.
Chart intent_chart(const TuneResult &r, Intent intent, const Pooled &gbps, const Curve &memset,
                   const std::vector<Marker> &caches) {
  const auto &table = intent == Intent::reuse ? r.reuse : r.stream;
  const Findings &f = r.findings;
  // One line per method: its best spec at each size, so the variants do not clutter the chart.
  std::map<Method, Curve> family;
  Curve envelope;
  for (auto &[key, g] : gbps) {
    auto &[i, candidate, size] = key;
    const Spec *s = candidate.kernel();
    if (i != intent || !s || s->method == Method::libc) continue;
    double &best = family[s->method][size];
    best = std::max(best, g);
  }
  for (auto &[key, g] : gbps)
    if (std::get<0>(key) == intent && !table.empty()) {
      uint64_t size = std::get<2>(key);
      if (auto k = pooled_at(gbps, intent, class_for(table, size).kernel, size))
        envelope[size] = *k;
    }

  Chart c;
  c.series.push_back({.name = "chosen (dispatch table)",
                      .colour = kEnvelope,
                      .points = envelope,
                      .width = 12,
                      .opacity = 0.45,
                      .dots = false});
  for (auto &[m, curve] : family)
    c.series.push_back(
        {.name = std::string(info(m).name), .colour = method_colour(m), .points = curve});
  if (!memset.empty())
    c.series.push_back({.name = "memset (libc)",
                        .colour = method_colour(Method::libc),
                        .points = memset,
                        .width = 2,
                        .dash = "7 4",
                        .dots = false});
  c.markers = caches;
  if (intent == Intent::stream && f.stosb_no_allocate.size)
    c.markers.push_back({*f.stosb_no_allocate.size, "stosb no-allocate", true});
  if (auto nt = intent == Intent::reuse ? f.nontemporal_reuse : f.nontemporal_stream)
    c.markers.push_back({*nt, "non-temporal from " + human_bytes(*nt), true});
  for (const SizeClass &sc : table)
    if (sc.below) c.boundaries.push_back(sc.below);
  return c;
}

// The dispatch table, with the gain over memset measured at the sizes inside each class.
std::string size_classes_html(const TuneResult &r, Intent intent, const Pooled &gbps,
                              const Curve &memset) {
  const auto &table = intent == Intent::reuse ? r.reuse : r.stream;
  std::ostringstream h;
  h << "<h3>Size classes</h3>\n<table>\n<tr><th>sizes</th><th>kernel</th><th class=\"n\">GB/s "
    << "(scattered)</th><th class=\"n\">vs memset (scattered)</th><th class=\"n\">at least "
       "(the race's bound)</th><th>in states</th></tr>\n";
  uint64_t lower = 0;
  for (const SizeClass &sc : table) {
    std::string spec = format_spec(sc.kernel);
    std::vector<double> vs_memset;
    for (auto [size, m] : memset)
      if (size >= lower && (!sc.below || size < sc.below) && m > 0)
        if (auto k = pooled_at(gbps, intent, sc.kernel, size)) vs_memset.push_back(*k / m);
    std::string gain = "&ndash;";
    if (!vs_memset.empty()) {
      double x = geomean(vs_memset);
      gain = "<span class=\"" +
             std::string(x >= 1.02   ? "up"
                         : x <= 0.98 ? "down"
                                     : "") +
             "\">" + fmt("%.2f&times;", x) + "</span>";
    }
    h << "<tr><td>" << esc(human_bytes(lower)) << " &ndash; "
      << (sc.below ? esc(human_bytes(sc.below)) : "&infin;") << "</td><td><code>" << esc(spec)
      << "</code></td><td class=\"n\">" << fmt("%.1f", sc.gbps) << "</td><td class=\"n\">" << gain
      << "</td><td class=\"n\">" << (sc.gain > 0 ? fmt("%.2f&times;", sc.gain) : "&ndash;")
      << "</td><td>" << esc(join(sc.states, ", ")) << "</td></tr>\n";
    lower = sc.below;
  }
  if (table.empty()) h << "<tr><td colspan=\"4\" class=\"muted\">no classes chosen</td></tr>\n";
  h << "</table>\n";
  return h.str();
}

// An intent's section: its chart, then its size classes.
std::string intent_html(const TuneResult &r, Intent intent, const Pooled &gbps,
                        const std::vector<Marker> &caches) {
  const Curve memset = memset_curve(gbps, intent);
  std::ostringstream h;
  h << "<h2>" << intent_name(intent) << " <span class=\"muted\" style=\"font-weight:400;"
    << "font-size:15px\">&mdash; " << intent_text(intent) << "</span></h2>\n"
    << "<div class=\"card\">" << svg_chart(intent_chart(r, intent, gbps, memset, caches))
    << "</div>\n";
  h << size_classes_html(r, intent, gbps, memset);
  return h.str();
}

// The batch table: stream clears in batches, by size class.
std::string batch_table_html(const std::vector<SizeClass> &batch) {
  std::ostringstream h;
  h << "<h3>batch: stream clears, one fence per 2 MiB of pieces</h3>\n<table>\n<tr><th>"
       "sizes</th><th>kernel</th><th class=\"n\">GB/s (scattered)</th></tr>\n";
  uint64_t lower = 0;
  for (const SizeClass &sc : batch) {
    h << "<tr><td>" << esc(human_bytes(lower)) << " &ndash; "
      << (sc.below ? esc(human_bytes(sc.below)) : "&infin;") << "</td><td><code>"
      << esc(format_spec(sc.kernel)) << "</code></td><td class=\"n\">" << fmt("%.1f", sc.gbps)
      << "</td></tr>\n";
    lower = sc.below;
  }
  h << "</table>\n";
  return h.str();
}

// The races and the batch table; nothing where there are neither.
std::string races_html(const TuneResult &r) {
  if (r.batch.empty() && r.races.empty()) return {};
  std::ostringstream h;
  h << "<h2>Races and batches</h2>\n<div class=\"card\">\n<p>Every decision is a race with "
       "memset as the incumbent: each round measures the candidates still in, with memset "
       "beside them, at scattered, consecutive and hot destinations (one buffer the caller "
       "wrote and read just before the clear, up to the L3's size). A kernel replaces memset "
       "only where the lower confidence bound of its speed over memset's is above "
    << fmt("%.2fx", RaceOptions{}.min_gain)
    << " in every required state (reuse: all three; stream: scattered and consecutive, with "
       "hot weighed into the score) and over all states; undecided means memset (the charts "
       "above show scattered destinations).</p>\n";
  if (!r.races.empty()) {
    h << "<ul>\n";
    for (const std::string &line : r.races)
      h << "<li>" << esc(line) << "</li>\n";
    h << "</ul>\n";
  }
  if (!r.batch.empty()) h << batch_table_html(r.batch);
  h << "</div>\n";
  return h.str();
}

// The findings: the stosb no-allocate step and where non-temporal stores win.
std::string findings_html(const Findings &f) {
  std::ostringstream h;
  h << "<h2>Findings</h2>\n<div class=\"card\"><dl class=\"facts\">\n<dt>stosb no-allocate "
       "step</dt><dd>";
  const NoAllocate &na = f.stosb_no_allocate;
  if (na.size)
    h << "<strong>" << esc(human_bytes(*na.size)) << "</strong> &mdash; " << esc(na.reason)
      << " <span class=\"muted\">(against <code>" << esc(format_spec(f.no_allocate_reference))
      << "</code>, stream)</span>";
  else
    h << "none &mdash; " << esc(na.reason);
  h << "</dd>\n";
  for (auto [name, runs] : {std::pair{"non-temporal, reuse", &f.nontemporal_reuse_runs},
                            {"non-temporal, stream", &f.nontemporal_stream_runs}})
    h << "<dt>" << name << "</dt><dd>" << esc(nontemporal_text(*runs)) << "</dd>\n";
  h << "</dl></div>\n";
  return h.str();
}

// The no-allocate sweep: where one rep stosb stops pulling lines into the cache; nothing where
// fewer than two points of each line were measured.
std::string no_allocate_sweep_html(const Findings &f, const Pooled &gbps, const CpuInfo &cpu,
                                   const std::vector<Marker> &caches) {
  const uint64_t l3 = cpu.l3_bytes();
  Curve stosb, reference;
  for (auto &[key, g] : gbps) {
    auto &[i, candidate, size] = key;
    if (i == Intent::stream && size >= l3 / 4) {
      if (candidate == default_spec(Method::stosb))
        stosb[size] = g;
      else if (candidate == f.no_allocate_reference)
        reference[size] = g;
    }
  }
  if (stosb.size() < 2 || reference.size() < 2) return {};
  const NoAllocate &na = f.stosb_no_allocate;
  Chart c;
  c.height = 340;
  c.series.push_back({.name = format_spec(f.no_allocate_reference),
                      .colour = method_colour(f.no_allocate_reference.method),
                      .points = reference});
  c.series.push_back({.name = "stosb", .colour = method_colour(Method::stosb), .points = stosb});
  c.markers = caches;
  if (na.size) c.markers.push_back({*na.size, "step " + human_bytes(*na.size), true});
  std::ostringstream h;
  h << "<h3>No-allocate sweep <span class=\"muted\" style=\"font-weight:400\">(stream, from a "
    << "quarter of the L3)</span></h3>\n<div class=\"card\">" << svg_chart(c) << "</div>\n";
  return h.str();
}

// A chunk study: GB/s by chunk size against the whole extent, and the smallest chunk at 90%.
std::string chunk_study_html(const ChunkStudy &cs) {
  double whole = cs.gbps.count(0) ? cs.gbps.at(0) : 0, top = 0;
  for (auto [chunk, g] : cs.gbps)
    top = std::max(top, g);
  std::ostringstream h;
  h << "<div><h3>Chunk study: " << esc(cs.method) << " over " << esc(human_bytes(cs.size))
    << " <span class=\"muted\" style=\"font-weight:400\">(stream)</span></h3>\n<table>\n"
    << "<tr><th>chunk</th><th class=\"n\">GB/s</th><th class=\"n\">of whole</th><th></th></tr>\n";
  // Chunk 0 (the whole extent) last: it is what the others are compared with.
  auto row = [&](uint64_t chunk, double g) {
    bool pick = cs.smallest_90 && *cs.smallest_90 == chunk && chunk;
    h << "<tr" << (pick ? " class=\"pick\"" : "") << "><td>"
      << (chunk ? esc(format_size(chunk)) : "whole extent")
      << (pick ? " &#9664; smallest at 90%" : "") << "</td><td class=\"n\">" << fmt("%.1f", g)
      << "</td><td class=\"n\">" << (whole ? fmt("%.0f%%", 100 * g / whole) : "&ndash;")
      << "</td><td><div class=\"track\">"
      << "<div class=\"bar\" style=\"width:" << fmt("%.0f", top ? 100 * g / top : 0)
      << "%\"></div></div></td></tr>\n";
  };
  for (auto [chunk, g] : cs.gbps)
    if (chunk) row(chunk, g);
  if (cs.gbps.count(0)) row(0, whole);
  h << "</table>\n<p class=\"muted\">Smallest chunk at 90% of the whole extent: "
    << (!cs.smallest_90   ? "not found"
        : *cs.smallest_90 ? esc(format_size(*cs.smallest_90))
                          : "none")
    << "</p></div>\n";
  return h.str();
}

// The fence study: an sfence after every chunk against one at the end.
std::string fence_study_html(const FenceStudy &fence) {
  std::ostringstream h;
  h << "<div><h3>Fence study <span class=\"muted\" "
       "style=\"font-weight:400\">(stream)</span></h3>\n"
    << "<table>\n<tr><th>size</th><th class=\"n\"><code>" << esc(fence.per_chunk)
    << "</code></th><th class=\"n\"><code>" << esc(fence.at_end)
    << "</code></th><th class=\"n\">ratio</th></tr>\n";
  for (auto [size, g] : fence.gbps)
    h << "<tr><td>" << esc(human_bytes(size)) << "</td><td class=\"n\">" << fmt("%.1f", g.first)
      << "</td><td class=\"n\">" << fmt("%.1f", g.second) << "</td><td class=\"n\">"
      << (g.second > 0 ? fmt("%.2f&times;", g.first / g.second) : "&ndash;") << "</td></tr>\n";
  h << "</table>\n<p class=\"muted\">GB/s with an sfence after every 4 KiB chunk against one "
    << "at the end.</p></div>\n";
  return h.str();
}

// The chunk and fence studies side by side; nothing where neither ran.
std::string studies_html(const Findings &f) {
  if (f.chunks.empty() && !f.fence) return {};
  std::string h = "<div class=\"studies\">\n";
  for (const ChunkStudy &cs : f.chunks)
    h += chunk_study_html(cs);
  if (f.fence) h += fence_study_html(*f.fence);
  return h + "</div>\n";
}

} // namespace

std::string report_html(const TuneResult &r, const CpuInfo &cpu) {
  const Pooled gbps = pooled(r.measurements);
  const std::vector<Marker> caches = cache_markers(cpu);
  std::string h = page_head(cpu) + host_html(r, cpu);
  for (Intent intent : kIntents)
    h += intent_html(r, intent, gbps, caches);
  h += races_html(r);
  for (const Stage *stage : r.stages)
    h += stage->report_html(r);
  h += findings_html(r.findings) + no_allocate_sweep_html(r.findings, gbps, cpu, caches) +
       studies_html(r.findings);
  if (r.glibc_tunables) h += tunables_html(*r.glibc_tunables);
  h += "<p class=\"muted\" style=\"margin-top:32px\">Generated by <code>clearjit tune</code>. "
       "GB/s is 10<sup>9</sup> bytes per second, the median of the repetitions; hover a point for "
       "its value.</p>\n</main>\n</body>\n</html>\n";
  return h;
}

} // namespace cjit::detail
