// `clearjit bench --markdown FILE`: the run's results as the Markdown tables the README quotes,
// each headed by what produced it (date, commit, CPU, command), so that anyone can rerun it.
#include "tuner/bench/bench.hpp"

#include "clearjit_commit.h"
#include "jit/model/spec.hpp"
#include "tuner/text/format.hpp"

#include <algorithm>
#include <ctime>
#include <map>
#include <sstream>
#include <vector>

namespace cjit::detail {

namespace {

std::string utc_now() {
  char date[32];
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return date;
}

std::string ratio(double x) { return x > 0 ? fmt("%.2fx", x) : "-"; }

// The cold rows of one size, by intent and pattern.
struct ColdCells {
  std::map<std::pair<Intent, Pattern>, const BenchRow *> at;
  const BenchRow *get(Intent i, Pattern p) const {
    auto it = at.find({i, p});
    return it == at.end() ? nullptr : it->second;
  }
};

// Speed against memset's: above 1 is faster.
std::string speed(const BenchRow *r) {
  return r && r->tuned > 0 && r->memset > 0 ? ratio(r->tuned / r->memset) : "-";
}

std::string kernel(const ColdCells &c, Intent i) {
  for (Pattern p : {Pattern::scattered, Pattern::consecutive, Pattern::cached})
    if (const BenchRow *r = c.get(i, p)) return "`" + r->tuned_kernel + "`";
  return "-";
}

void warm_table(std::ostringstream &s, const BenchResult &r, double &worst, int &slower,
                int &rows) {
  // One line per fixed size or mix, reuse and stream side by side.
  std::map<std::pair<int, uint64_t>, std::map<Intent, const WarmRow *>> lines;
  for (const WarmRow &w : r.warm)
    if (w.inlined > 0 && w.memset > 0)
      lines[{w.mix == Mix::fixed ? 0 : 1 + int(w.mix), w.size}][w.intent] = &w;
  if (lines.empty()) return;
  s << "\n**Small sizes, warm** (destination in L1, ns per call, the geometric mean over "
    << kWarmPlacements
    << " code places; `x` = clearjit's time / memset's, below 1 is faster). Small paths: reuse "
    << r.small_reuse << "; stream " << r.small_stream << ".\n\n"
    << "| size | reuse memset | reuse clearjit | reuse x | stream memset | stream clearjit | "
       "stream x |\n| --- | --- | --- | --- | --- | --- | --- |\n";
  for (auto &[key, by_intent] : lines) {
    const WarmRow &any = *by_intent.begin()->second;
    s << "| " << (any.mix == Mix::fixed ? human_bytes(any.size) : std::string(mix_name(any.mix)));
    for (Intent i : {Intent::reuse, Intent::stream}) {
      auto it = by_intent.find(i);
      if (it == by_intent.end()) {
        s << " | - | - | -";
        continue;
      }
      const WarmRow &w = *it->second;
      double x = w.inlined / w.memset;
      worst = std::max(worst, x);
      slower += x > 1.0;
      ++rows;
      s << " | " << fmt("%.2f", w.memset) << " | " << fmt("%.2f", w.inlined) << " | " << ratio(x);
    }
    s << " |\n";
  }
}

void cold_table(std::ostringstream &s, const BenchResult &r, std::map<Intent, double> &worst) {
  std::map<uint64_t, ColdCells> sizes;
  for (const BenchRow &row : r.rows)
    if (!row.batched) sizes[row.size].at[{row.intent, row.pattern}] = &row;
  if (sizes.empty()) return;
  s << "\n**Cold and large sizes** (destination not in cache: scattered over an arena of at least "
       "4x "
       "the L3, or consecutive pieces of one region; hot: one buffer the caller wrote and read "
       "just before each clear, sizes up to the L3's; cached: half the L2 piece by piece, sizes "
       "up to the L2's; medians; `x` = clearjit's speed / memset's, above 1 is faster)\n\n"
    << "| size | reuse kernel | reuse scattered x | reuse consecutive x | reuse hot x | stream "
       "kernel | stream scattered x | stream consecutive x | stream hot x | stream cached x |\n"
    << "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  const std::string &memset_name = memset_spec();
  bool memset_class = false;
  for (auto &[size, c] : sizes) {
    for (auto &[key, row] : c.at)
      memset_class |= row->tuned_kernel == memset_name;
    s << "| " << human_bytes(size) << " | " << kernel(c, Intent::reuse) << " | "
      << speed(c.get(Intent::reuse, Pattern::scattered)) << " | "
      << speed(c.get(Intent::reuse, Pattern::consecutive)) << " | "
      << speed(c.get(Intent::reuse, Pattern::hot)) << " | " << kernel(c, Intent::stream) << " | "
      << speed(c.get(Intent::stream, Pattern::scattered)) << " | "
      << speed(c.get(Intent::stream, Pattern::consecutive)) << " | "
      << speed(c.get(Intent::stream, Pattern::hot)) << " | "
      << speed(c.get(Intent::stream, Pattern::cached)) << " |\n";
    if (size < 4096 || size > (64ull << 20)) continue; // the summary's range, as in the text
    for (auto &[key, row] : c.at)
      if (key.second != Pattern::cached && row->tuned > 0 && row->memset > 0)
        worst[key.first] =
            std::min(worst.count(key.first) ? worst[key.first] : 1e9, row->tuned / row->memset);
  }
  if (memset_class)
    s << "\nA `" << memset_name
      << "` class is the dispatcher calling memset itself: its ratios are the noise of identical "
         "code in this run.\n";
}

void batch_table(std::ostringstream &s, const BenchResult &r) {
  bool header = false;
  for (const BenchRow &row : r.rows) {
    if (!row.batched || row.tuned <= 0 || row.memset <= 0) continue;
    if (!header) {
      header = true;
      s << "\n**Stream clears in batches** (`clearjit_batch_*`: one `sfence` per 2 MiB of pieces; "
           "`x` = speed / memset's)\n\n"
        << "| size | pattern | batch kernel | batched x | one call each x |\n"
        << "| --- | --- | --- | --- | --- |\n";
    }
    s << "| " << human_bytes(row.size) << " | " << pattern_name(row.pattern) << " | `"
      << row.tuned_kernel << "` | " << ratio(row.tuned / row.memset) << " | "
      << ratio(row.oracle / row.memset) << " |\n";
  }
}

// GB/s, as the README's parallel table quotes them: one row per size, both intents.
void parallel_table(std::ostringstream &s, const BenchResult &r) {
  std::map<uint64_t, std::map<Intent, const ParallelRow *>> sizes;
  for (const ParallelRow &p : r.parallel)
    if (p.one > 0 && p.tuned > 0 && p.memset > 0) sizes[p.size][p.intent] = &p;
  if (sizes.empty()) return;
  s << "\n**Huge regions on several threads** (`clearjit_clear_parallel`, scattered "
       "destinations; GB/s, medians; the thread count in brackets: the profile's for `tuned`, "
       "every usable CPU for `all`)\n\n"
    << "| size | reuse memset | reuse 1 thread | reuse tuned | reuse all | stream memset | "
       "stream 1 thread | stream tuned | stream all |\n"
    << "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const auto &[size, by_intent] : sizes) {
    s << "| " << human_bytes(size);
    for (Intent i : kIntents) {
      auto it = by_intent.find(i);
      if (it == by_intent.end()) {
        s << " | - | - | - | -";
        continue;
      }
      const ParallelRow &p = *it->second;
      s << " | " << fmt("%.1f", p.memset) << " | " << fmt("%.1f", p.one) << " | "
        << fmt("%.1f", p.tuned) << " (" << p.tuned_threads << ") | "
        << (p.all > 0 ? fmt("%.1f", p.all) + " (" + std::to_string(p.all_threads) + ")"
                      : std::string("-"));
    }
    s << " |\n";
  }
}

} // namespace

std::string bench_markdown(const BenchResult &r, const CpuInfo &cpu, const std::string &command) {
  std::ostringstream s;
  s << "### " << cpu.brand << " (" << cpu.vendor << " family " << cpu.family << " model "
    << cpu.model << " stepping " << cpu.stepping << (cpu.hypervisor ? ", a VM guest" : "")
    << ")\n\n"
    << "Measured " << utc_now() << " at commit " << CLEARJIT_COMMIT << " with `" << command
    << "`; profile: " << r.source << (r.libc.empty() ? "" : "; memset: " + r.libc + "'s") << ".\n";
  double worst_warm = 0;
  int slower = 0, rows = 0;
  warm_table(s, r, worst_warm, slower, rows);
  std::map<Intent, double> worst_cold;
  cold_table(s, r, worst_cold);
  batch_table(s, r);
  parallel_table(s, r);
  std::vector<std::string> verdict;
  if (rows)
    verdict.push_back("warm, " + std::to_string(slower) + " of " + std::to_string(rows) +
                      " rows slower than memset (worst " + ratio(worst_warm) + " memset's time)");
  for (auto &[intent, x] : worst_cold)
    verdict.push_back(std::string(intent_name(intent)) + " 4 KiB..64 MiB, worst " + ratio(x) +
                      " memset's speed");
  if (const ParallelRow *w = worst_parallel(r))
    verdict.push_back("several threads, worst " + ratio(w->tuned / w->one) +
                      " the single-thread call's speed (" + std::string(intent_name(w->intent)) +
                      ", " + human_bytes(w->size) + ")");
  for (size_t i = 0; i < verdict.size(); ++i)
    s << (i ? "; " : "\nVerdict: ") << verdict[i] << (i + 1 == verdict.size() ? ".\n" : "");
  return s.str();
}

} // namespace cjit::detail
