#include "tuner/stages/glibc_tunables.hpp"

#include "tuner/race/race.hpp"
#include "tuner/text/format.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <set>
#include <sstream>

namespace cjit::detail {
namespace {

// glibc's smallest x86_memset_non_temporal_threshold (its --list-tunables "min: 0x4040"): a
// value below it is ignored, silently.
constexpr uint64_t kNonTemporalMin = 0x4040;

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string short_name(const std::string &tunable) {
  return tunable.substr(tunable.rfind('.') + 1);
}

std::string row_name(const MemsetRow &r) {
  return human_bytes(r.size) + " " + std::string(intent_name(r.intent)) + " " +
         std::string(pattern_name(r.pattern));
}

std::string ratio_text(const RowCheck &c) {
  return fmt("%.2fx", c.ratio.median) + " (" + fmt("%.2fx", c.ratio.lower) + ".." +
         fmt("%.2fx", c.ratio.upper) + ")";
}

// The line at `nt` for the non-temporal path, with rep stosb's threshold lowered to it where
// that path is reached only through rep stosb and glibc's own lies above.
TunablesLine nontemporal_line(uint64_t nt, const Tunables &defaults, const std::string &why) {
  TunablesLine line;
  line.values[kMemsetNonTemporal] = nt;
  if (defaults.contains(kRepStosb) && defaults.at(kRepStosb) >= nt) line.values[kRepStosb] = nt;
  line.why = why;
  return line;
}

// The lowest threshold a line sets: where it starts to change memset.
uint64_t lowest(const TunablesLine &line) {
  uint64_t out = UINT64_MAX;
  for (const auto &[name, value] : line.values)
    out = std::min(out, value);
  return out;
}

// True where `a` and `b` send every size up to `max_size` the same way: the paths change only at
// their thresholds, so those and the sizes just above them decide.
bool same_paths(const TunablesLine &a, const TunablesLine &b, const Tunables &defaults,
                uint64_t max_size) {
  const Tunables ta = a.over(defaults), tb = b.over(defaults);
  std::set<uint64_t> probes{max_size};
  for (const Tunables *t : {&ta, &tb})
    for (const auto &[name, value] : *t)
      if (value <= max_size) probes.insert({value, value + 1});
  for (uint64_t s : probes)
    if (memset_path(s, ta) != memset_path(s, tb)) return false;
  return true;
}

} // namespace

std::string tunables_unsupported(const std::string &libc, const Tunables &listed) {
  if (!libc.starts_with("glibc ")) return libc + " is not glibc: GLIBC_TUNABLES is glibc's";
  if (!listed.contains(kMemsetNonTemporal) && !listed.contains(kRepStosb))
    return libc + " has neither " + kMemsetNonTemporal + " nor " + kRepStosb +
           " (its loader's --list-tunables): no memset threshold to set";
  return {};
}

MemsetPath memset_path(uint64_t size, const Tunables &t) {
  const auto rs = t.find(kRepStosb);
  if (rs == t.end() || size <= rs->second) return MemsetPath::temporal;
  const auto nt = t.find(kMemsetNonTemporal);
  return nt != t.end() && size >= nt->second ? MemsetPath::nontemporal : MemsetPath::stosb;
}

std::string_view path_name(MemsetPath p) {
  switch (p) {
  case MemsetPath::temporal: return "temporal stores";
  case MemsetPath::stosb: return "rep stosb";
  case MemsetPath::nontemporal: return "non-temporal stores";
  }
  return "?";
}

std::string TunablesLine::text() const {
  std::string out;
  for (const auto &[name, value] : values)
    out += (out.empty() ? "" : ":") + name + "=" + hex(value);
  return out;
}

Tunables TunablesLine::over(const Tunables &defaults) const {
  Tunables t = defaults;
  for (const auto &[name, value] : values)
    t[name] = value;
  return t;
}

namespace {

// Where reuse with a hot buffer stops preferring temporal stores (never, in the tune: above the
// largest hot size measured), and why.
struct HotSafe {
  uint64_t size;
  std::string why;
};

// The non-temporal threshold's lines, or the reason for none.
void nontemporal_lines(const Findings &f, const Tunables &defaults, const HotSafe &hot,
                       uint64_t max_size, std::vector<TunablesLine> &out,
                       std::vector<std::string> &reasons) {
  if (!defaults.contains(kMemsetNonTemporal)) {
    reasons.push_back("this glibc has no x86_memset_non_temporal_threshold (its memset never "
                      "stores non-temporally)");
    return;
  }
  if (!f.nontemporal_stream) {
    reasons.push_back("non-temporal stores did not win for stream in this tune");
    return;
  }
  const uint64_t base = std::max({hot.size, *f.nontemporal_stream, kNonTemporalMin});
  // Where glibc's own memset goes non-temporal (never on AMD Zen 3+ under 2.40+, whose rep
  // stosb threshold is SIZE_MAX): a line only ever lowers it.
  const uint64_t rs0 = defaults.contains(kRepStosb) ? defaults.at(kRepStosb) : UINT64_MAX;
  const uint64_t own =
      rs0 == UINT64_MAX ? UINT64_MAX : std::max(defaults.at(kMemsetNonTemporal), rs0 + 1);
  const std::string stream = *f.nontemporal_stream ? "from " + human_bytes(*f.nontemporal_stream)
                                                   : std::string("at every size tuned");
  for (uint64_t k : {1, 2, 4}) {
    const uint64_t nt = base * k;
    if (nt > max_size || nt >= own) break;
    out.push_back(nontemporal_line(nt, defaults,
                                   hot.why + "; stream non-temporal " + stream +
                                       (k > 1 ? "; " + std::to_string(k) + "x above" : "")));
  }
  if (base > max_size || base >= own)
    reasons.push_back("the non-temporal threshold the findings give, " + human_bytes(base) +
                      (base > max_size ? ", is above the sizes tuned"
                                       : ", is not below where glibc's own memset goes "
                                         "non-temporal, " +
                                             human_bytes(own)));
}

// rep stosb's threshold alone at the no-allocate step (at least the hot buffers' safe size),
// or the reason for none.
void stosb_line(const Findings &f, const Tunables &defaults, const HotSafe &hot, uint64_t max_size,
                std::vector<TunablesLine> &out, std::vector<std::string> &reasons) {
  if (!defaults.contains(kRepStosb)) return;
  if (!f.stosb_no_allocate.size) {
    reasons.push_back("rep stosb showed no no-allocate step");
    return;
  }
  const uint64_t rs = std::max(*f.stosb_no_allocate.size, hot.size);
  if (rs > max_size || rs >= defaults.at(kRepStosb)) {
    reasons.push_back("rep stosb's threshold from its no-allocate step, " + human_bytes(rs) +
                      (rs > max_size
                           ? ", is above the sizes tuned"
                           : ", is not below glibc's own, " + human_bytes(defaults.at(kRepStosb)) +
                                 " (its memset runs rep stosb from there already)"));
    return;
  }
  TunablesLine line;
  line.values[kRepStosb] = rs;
  line.why =
      "rep stosb stops allocating from " + human_bytes(*f.stosb_no_allocate.size) + "; " + hot.why;
  out.push_back(line);
}

} // namespace

std::vector<TunablesLine> candidate_lines(const Findings &f, const Tunables &defaults,
                                          uint64_t hot_limit, uint64_t max_size, std::string &why) {
  const HotSafe hot =
      f.nontemporal_reuse
          ? HotSafe{*f.nontemporal_reuse, "reuse is non-temporal from " +
                                              human_bytes(*f.nontemporal_reuse) +
                                              ", hot buffers included"}
          : HotSafe{std::bit_ceil(hot_limit + 1),
                    "hot reuse kept temporal stores up to " + human_bytes(hot_limit) + " (the L3)"};
  std::vector<TunablesLine> out;
  std::vector<std::string> reasons;
  nontemporal_lines(f, defaults, hot, max_size, out, reasons);
  stosb_line(f, defaults, hot, max_size, out, reasons);
  const size_t proposed = out.size();
  std::erase_if(out, [&](const TunablesLine &l) {
    return same_paths(l, TunablesLine{}, defaults, max_size); // glibc's own, line or not
  });
  if (out.size() < proposed) reasons.push_back("a line would change memset's path at no size");
  // Lines that send every size the same way are one: the first stays (the non-temporal lines
  // come first and name both thresholds, whatever glibc's own).
  for (size_t k = 0; k < out.size(); ++k)
    for (size_t j = k + 1; j < out.size();)
      if (same_paths(out[k], out[j], defaults, max_size))
        out.erase(out.begin() + std::ptrdiff_t(j));
      else
        ++j;
  // What each line does: memset's path above its lowest threshold.
  for (TunablesLine &l : out) {
    const uint64_t from = lowest(l) + 1;
    l.why += "; memset above " + human_bytes(lowest(l)) + ": " +
             std::string(path_name(memset_path(from, l.over(defaults)))) + " (was " +
             std::string(path_name(memset_path(from, defaults))) + ")";
  }
  std::stable_sort(out.begin(), out.end(), [](const TunablesLine &a, const TunablesLine &b) {
    return lowest(a) < lowest(b);
  });
  if (out.empty()) why = join(reasons, "; ");
  return out;
}

LineCheck judge_line(const TunablesLine &line, const Tunables &defaults,
                     const std::vector<MemsetRow> &rows,
                     const std::vector<std::vector<double>> &with,
                     const std::vector<std::vector<double>> &without, double confidence,
                     double min_gain) {
  LineCheck out{.line = line};
  const Tunables under = line.over(defaults);
  size_t wins = 0, losses = 0;
  const RowCheck *worst = nullptr;
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<double> w, wo;
    for (size_t k = 0; k < with.size() && k < without.size(); ++k) {
      w.push_back(with[k][i]);
      wo.push_back(without[k][i]);
    }
    RowCheck c{.row = rows[i]};
    c.changed = memset_path(rows[i].size, under) != memset_path(rows[i].size, defaults);
    c.ratio = median_interval(present(round_ratios(w, wo)), confidence);
    c.with_gbps = median(w);
    c.without_gbps = median(wo);
    c.lost = c.changed && c.ratio.median < kColdFloor;
    c.won = c.changed && c.ratio.bounded && c.ratio.lower > min_gain;
    wins += c.won;
    losses += c.lost;
    out.rows.push_back(c);
  }
  for (const RowCheck &c : out.rows)
    if (c.changed && (!worst || c.ratio.median < worst->ratio.median)) worst = &c;
  out.passes = wins > 0 && losses == 0;
  if (!worst)
    out.verdict = "changes memset's path at no size measured";
  else
    out.verdict = std::string(out.passes ? "passes" : "refused") + ": wins at " +
                  std::to_string(wins) + " rows, loses at " + std::to_string(losses) +
                  " (median below " + fmt("%.2fx", kColdFloor) + "); worst " +
                  row_name(worst->row) + " " + ratio_text(*worst);
  return out;
}

TunablesCheckOptions tunables_check_options(double confidence) {
  return {.rounds = int(fewest_for(confidence)), .confidence = confidence};
}

TunablesStudy check_lines(MemsetRowsBench &bench, const std::vector<MemsetRow> &rows,
                          const std::vector<TunablesLine> &lines, const Tunables &defaults,
                          const std::string &libc, const TunablesCheckOptions &o) {
  const auto start = std::chrono::steady_clock::now();
  TunablesStudy s{.libc = libc, .defaults = defaults};
  std::erase_if(s.defaults, [](const auto &tunable) {
    return tunable.first != kMemsetNonTemporal && tunable.first != kRepStosb;
  });
  // [line][round][row]; the last "line" is memset without any.
  std::vector<std::vector<std::vector<double>>> speeds(lines.size() + 1);
  // Without any line first, then each line; the other way round every other round.
  std::vector<size_t> order{lines.size()};
  for (size_t k = 0; k < lines.size(); ++k)
    order.push_back(k);
  for (int round = 0; round < o.rounds; ++round) {
    for (size_t k = 0; k <= lines.size(); ++k) {
      const size_t who = round % 2 ? order[lines.size() - k] : order[k];
      const std::optional<std::string> value =
          who == lines.size() ? std::nullopt : std::optional(lines[who].text());
      Result<std::vector<double>> r = bench.run(rows, value);
      if (!r) {
        s.error = "memset " +
                  (value ? "under GLIBC_TUNABLES=" + *value : "without GLIBC_TUNABLES") + ": " +
                  r.error;
        return s;
      }
      speeds[who].push_back(*r);
    }
    s.rounds = round + 1;
  }
  for (size_t k = 0; k < lines.size(); ++k) {
    s.tried.push_back(
        judge_line(lines[k], s.defaults, rows, speeds[k], speeds.back(), o.confidence, o.min_gain));
    if (!s.chosen && s.tried.back().passes) s.chosen = k;
  }
  if (!s.chosen)
    s.note = lines.empty() ? "no line to check" : "no line wins somewhere and loses nowhere";
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

std::string tunables_file(const TunablesStudy &s, const std::string &cpu, const std::string &date) {
  const LineCheck &c = s.tried.at(*s.chosen);
  std::ostringstream f;
  f << "# GLIBC_TUNABLES for " << s.libc << "'s memset on " << cpu << "\n"
    << "# Written by `clearjit tune --glibc-tunables` on " << date << ".\n"
    << "# Why these thresholds: " << c.line.why << ".\n"
    << "# Checked: memset under this line against memset without it, " << s.rounds
    << " rounds of one process each, alternated (" << fmt("%.1f", s.seconds) << " s); " << c.verdict
    << ".\n"
    << "# Where the line changes memset's path, speed with / without it (median, bounds):\n";
  for (const RowCheck &r : c.rows)
    if (r.changed)
      f << "#   " << row_name(r.row) << ": " << fmt("%.1f", r.with_gbps) << " / "
        << fmt("%.1f", r.without_gbps) << " GB/s, " << ratio_text(r) << "\n";
  for (const auto &[name, value] : s.defaults)
    f << "# " << s.libc << "'s own " << short_name(name) << ": " << hex(value) << "\n";
  f << "# Use: systemd EnvironmentFile=THIS_FILE; a shell: set -a; . THIS_FILE; set +a.\n"
    << "# It replaces any GLIBC_TUNABLES the program had: merge by hand (':' between).\n"
    << "GLIBC_TUNABLES=" << c.line.text() << "\n";
  return f.str();
}

std::string tunables_text(const TunablesStudy &s) {
  std::ostringstream t;
  t << "glibc tunables (" << s.libc << ", " << s.rounds << " rounds, " << fmt("%.1f", s.seconds)
    << " s): ";
  if (!s.error.empty())
    t << "the check could not run: " << s.error << "\n";
  else if (s.chosen)
    t << "GLIBC_TUNABLES=" << s.tried[*s.chosen].line.text() << "\n";
  else
    t << "no line written: " << s.note << "\n";
  for (const LineCheck &c : s.tried)
    t << "  " << c.line.text() << " (" << c.line.why << "): " << c.verdict << "\n";
  const LineCheck *shown = s.chosen ? &s.tried[*s.chosen] : s.tried.empty() ? nullptr : &s.tried[0];
  if (!shown) return t.str();
  t << "  rows, " << shown->line.text() << ": GB/s with / without, ratio (bounds), path\n";
  for (const RowCheck &r : shown->rows) {
    char line[160];
    std::snprintf(line, sizeof line, "    %-26s %7.1f / %7.1f  %s%s\n", row_name(r.row).c_str(),
                  r.with_gbps, r.without_gbps, ratio_text(r).c_str(),
                  r.changed ? (r.lost  ? "  changed, loses"
                               : r.won ? "  changed, wins"
                                       : "  changed")
                            : "  same path");
    t << line;
  }
  return t.str();
}

} // namespace cjit::detail
