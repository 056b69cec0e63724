#include "tuner/report/outputs.hpp"

#include "tuner/race/race.hpp"
#include "tuner/race/tables.hpp"
#include "tuner/text/format.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace cjit::detail {
namespace {

std::string num(double v) { return fmt("%.1f", v); }

} // namespace

std::string default_profile_name(const CpuInfo &cpu) {
  std::string vendor = cpu.vendor == "AuthenticAMD"   ? "amd"
                       : cpu.vendor == "GenuineIntel" ? "intel"
                                                      : "cpu";
  return vendor + "-family" + std::to_string(cpu.family) + "-model" + std::to_string(cpu.model) +
         ".toml";
}

std::string profile_toml(const TuneResult &r, const CpuInfo &cpu) {
  Profile p;
  p.host = profile_host(cpu);
  p.reuse = r.reuse;
  p.stream = r.stream;
  p.batch = r.batch;
  for (const Stage *stage : r.stages)
    stage->profile(r, p);
  // A class the verification gave back to memset past the step stands in as stosb too.
  stand_in_past_step({&p.reuse, &p.stream, &p.batch}, r.findings.stosb_no_allocate.size);
  // [tuning] and [findings]: what the run was and what it found, for people and tools; the
  // runtime reads [tuning] libc alone (the memset the races were against).
  p.libc = r.libc;
  std::ostringstream tuning, t;
  tuning << "tool = \"clearjit " CLEARJIT_VERSION "\"\ndate = " << r.date
         << "\nlevel = " << toml_string(r.level) << "\nseconds = " << num(r.seconds) << "\n";
  for (const std::string &n : r.notes)
    tuning << "# " << n << "\n";

  const Findings &f = r.findings;
  t << "\n[findings]\n";
  if (f.stosb_no_allocate.size) t << "stosb_no_allocate = " << *f.stosb_no_allocate.size << "\n";
  t << "stosb_no_allocate_note = " << toml_string(f.stosb_no_allocate.reason) << "\n";
  if (f.nontemporal_reuse) t << "nontemporal_reuse = " << *f.nontemporal_reuse << "\n";
  if (f.nontemporal_stream) t << "nontemporal_stream = " << *f.nontemporal_stream << "\n";
  t << nontemporal_toml("nontemporal_reuse_runs", f.nontemporal_reuse_runs)
    << nontemporal_toml("nontemporal_stream_runs", f.nontemporal_stream_runs);
  for (const ChunkStudy &c : f.chunks) {
    t << "\n[findings.chunk." << c.method << "]\nsize = " << c.size << "\n";
    // 0: no chunk below the whole extent reached 90% of its speed.
    if (c.smallest_90) t << "smallest_chunk_at_90_percent = " << *c.smallest_90 << "\n";
    t << "gbps = { ";
    bool first = true;
    for (auto &[chunk, g] : c.gbps) {
      t << (first ? "" : ", ") << (chunk ? "chunk_" + format_size(chunk) : std::string("whole"))
        << " = " << num(g);
      first = false;
    }
    t << " }\n";
  }
  if (f.fence) {
    t << "\n[findings.fence]\nper_chunk = " << toml_string(f.fence->per_chunk)
      << "\nat_end = " << toml_string(f.fence->at_end) << "\n";
    for (auto &[size, g] : f.fence->gbps)
      t << "gbps_" << format_size(size) << " = { per_chunk = " << num(g.first)
        << ", at_end = " << num(g.second) << " }\n";
  }
  for (const Stage *stage : r.stages)
    t << stage->profile_toml(r);
  return format_profile(p, {.comments = "# Written by `clearjit tune`; sizes are bytes.\n",
                            .host = {},
                            .tuning = tuning.str(),
                            .tables = t.str()});
}

std::string summary_text(const TuneResult &r) {
  std::ostringstream s;
  s << "clearjit tune --level " << r.level << ": " << fmt("%.1f", r.seconds) << " s, "
    << r.measurements.size() << " measurements\n";
  for (const std::string &n : r.notes)
    s << "note: " << n << "\n";
  struct Table {
    const char *title;
    const std::vector<SizeClass> &classes;
    const std::map<uint64_t, double> &memset;
  };
  const Table tables[] = {
      {"reuse (clear, then one read pass)", r.reuse, r.memset_reuse},
      {"stream (clear only)", r.stream, r.memset_stream},
      {"batch (stream clears, one fence per 2 MiB of pieces)", r.batch, r.memset_batch}};
  for (const Table &tb : tables) {
    const auto &table = tb.classes;
    const auto &memset = tb.memset;
    if (table.empty()) continue;
    s << "\n" << tb.title << "\n";
    s << "  sizes                    kernel                          GB/s   vs memset\n";
    uint64_t lower = 0;
    for (const SizeClass &c : table) {
      const double mem = memset_over_class(memset, lower, c.below);
      char line[200];
      std::snprintf(line, sizeof line, "  %-24s %-28s %7.1f   %s\n",
                    class_range(lower, c.below).c_str(), format_spec(c.kernel).c_str(), c.gbps,
                    mem > 0 ? fmt("%.2fx", c.gbps / mem).c_str() : "-");
      s << line;
      lower = c.below;
    }
  }
  if (!r.races.empty())
    s << "\n(GB/s: medians at scattered destinations; a kernel's class is raced in every state, "
         "its bound is in the profile's gain)\n";
  if (!r.races.empty()) {
    s << "\nraces (speed over memset's per round, bounds at the level's confidence)\n";
    for (const std::string &line : r.races)
      s << race_lines(line, "  ");
  }
  const Findings &f = r.findings;
  for (const Stage *stage : r.stages)
    s << stage->summary(r);
  s << "\nfindings\n  stosb_no_allocate: "
    << (f.stosb_no_allocate.size
            ? human_bytes(*f.stosb_no_allocate.size) + " (" + f.stosb_no_allocate.reason +
                  ", against " + format_spec(f.no_allocate_reference) + ")"
            : "none: " + f.stosb_no_allocate.reason)
    << "\n";
  s << "  nontemporal_reuse: " << nontemporal_text(f.nontemporal_reuse_runs)
    << "\n  nontemporal_stream: " << nontemporal_text(f.nontemporal_stream_runs) << "\n";
  for (const ChunkStudy &c : f.chunks) {
    s << "  chunk study, " << c.method << " over " << human_bytes(c.size) << ":";
    for (auto &[chunk, g] : c.gbps)
      s << " " << (chunk ? format_size(chunk) : std::string("whole")) << " " << fmt("%.1f", g);
    s << " GB/s";
    if (c.smallest_90)
      s << "; smallest chunk at 90% of whole: "
        << (*c.smallest_90 ? format_size(*c.smallest_90) : "none smaller than the whole extent");
    s << "\n";
  }
  if (f.fence) {
    s << "  fence study, " << f.fence->per_chunk << " vs " << f.fence->at_end << ":";
    for (auto &[size, g] : f.fence->gbps)
      s << " " << human_bytes(size) << " " << fmt("%.1f", g.first) << " vs "
        << fmt("%.1f", g.second);
    s << " GB/s\n";
  }
  if (r.glibc_tunables) s << tunables_text(*r.glibc_tunables);
  return s.str();
}

} // namespace cjit::detail
