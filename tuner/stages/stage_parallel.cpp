// The parallel stage (parallel_stage.hpp): clearjit_clear_parallel at 1..N threads on the
// verified tables; it chooses the [parallel.<intent>] tables.
#include "jit/runtime/pool.hpp"
#include "tuner/stages/parallel_stage.hpp"
#include "tuner/stages/stage.hpp"
#include "tuner/stages/tune.hpp"
#include "tuner/text/format.hpp"
#include "tuner/text/html.hpp"

#include <algorithm>

#include <sstream>

#include <stdexcept>

namespace cjit::detail {
namespace {

// One intent's table of the parallel stage: GB/s by size and thread count, and the count chosen.
std::string parallel_table(const ParallelStudy &ps, Intent i) {
  const std::optional<ParallelTable> &t = i == Intent::reuse ? ps.reuse : ps.stream;
  std::ostringstream h;
  h << "<p><strong>" << intent_name(i) << "</strong>: "
    << (t && t->from() ? "threads pay from " + esc(human_bytes(t->from()))
                       : std::string("more threads never paid"))
    << "</p>\n<table>\n<tr><th>size</th><th class=\"n\">memset</th>";
  for (unsigned c : ps.counts)
    h << "<th class=\"n\">" << c << (c == 1 ? " thread" : " threads") << "</th>";
  h << "<th class=\"n\">chosen</th></tr>\n";
  for (uint64_t size : ps.sizes) {
    h << "<tr><td>" << esc(human_bytes(size)) << "</td><td class=\"n\">"
      << fmt("%.1f", parallel_gbps(ps, i, size, 0)) << "</td>";
    for (unsigned c : ps.counts) // not raced below two 2 MiB boundaries: "-"
      if (const double g = parallel_gbps(ps, i, size, c); g > 0)
        h << "<td class=\"n\">" << fmt("%.1f", g) << "</td>";
      else
        h << "<td class=\"n\">&ndash;</td>";
    h << "<td class=\"n\">" << (t ? t->at(size) : 1u) << "</td></tr>\n";
  }
  h << "</table>\n";
  return h.str();
}

// Several threads: what the parallel stage measured and the counts it wrote; nothing where it
// did not run.
std::string parallel_html(const TuneResult &r) {
  if (!r.parallel || !r.parallel->skipped.empty()) return {};
  const ParallelStudy &ps = *r.parallel;
  std::ostringstream h;
  h << "<h2>Several threads</h2>\n<div class=\"card\">\n<p><code>clearjit_clear_parallel"
       "</code> through the verified tables at 1.."
    << ps.cpus
    << " threads (the CPUs this process could use), scattered destinations, GB/s medians. "
       "The profile's count at a size is the fewest threads within 5% of the fastest, where "
       "that is at least 10% faster than one thread; else one.</p>\n";
  for (Intent i : kIntents)
    h << parallel_table(ps, i);
  h << "</div>\n";
  return h.str();
}

class ParallelStage final : public Stage {
public:
  std::string_view name() const override { return "parallel"; }
  std::string_view measures() const override {
    return "clearjit_clear_parallel at 1..N threads: the [parallel.<intent>] tables";
  }
  double seconds(const StageContext &c) const override {
    return parallel_seconds(c.meter, c.race_measure(), c.plan.max_rounds, c.cpus, c.min_size,
                            c.max_size);
  }
  // The thread-count races: a few seconds, one clear per sample at 1 GiB.
  void run(const StageContext &c, TuneResult &r) const override {
    if (!r.small) throw std::logic_error("the parallel stage runs after the small path's");
    Profile tables;
    tables.reuse = r.reuse;
    tables.stream = r.stream;
    tables.small_reuse = r.small->reuse;
    tables.small_stream = r.small->stream;
    tables.host = profile_host(c.cpu);
    const double budget = c.seconds_left ? std::max(*c.seconds_left, seconds(c)) : 0;
    r.parallel = study_parallel(c.meter, tables, c.cpu, c.cpus, c.race_options, c.race_measure(),
                                c.min_size, c.max_size, budget);
    r.races.insert(r.races.end(), r.parallel->races.begin(), r.parallel->races.end());
    r.race_records.insert(r.race_records.end(), r.parallel->records.begin(),
                          r.parallel->records.end());
    for (const Measurement &m : r.parallel->measurements) // memset's stay in the study: its
      if (m.threads) r.measurements.push_back(m);         // own run, not the report's curves
  }
  void profile(const TuneResult &r, Profile &p) const override {
    if (!r.parallel || !r.parallel->skipped.empty()) return;
    p.parallel_cpus = std::min(r.parallel->cpus, kMaxThreads); // informational; the reader's bound
    p.parallel_reuse = r.parallel->reuse;
    p.parallel_stream = r.parallel->stream;
  }
  std::string report_html(const TuneResult &r) const override { return parallel_html(r); }
  std::string summary(const TuneResult &r) const override {
    return r.parallel ? parallel_text(*r.parallel) : "";
  }
};

} // namespace

const Stage &parallel_stage() {
  static const ParallelStage stage;
  return stage;
}

} // namespace cjit::detail
