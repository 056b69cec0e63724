// `clearjit tune`: measure here, write the profile, the measurements and the report.
#include "commands.hpp"

#include "jit/model/cpu.hpp"
#include "jit/profile/files.hpp"
#include "tuner/measure/c_library.hpp"
#include "tuner/measure/memset_rows.hpp"
#include "tuner/report/outputs.hpp"
#include "tuner/stages/candidates.hpp"
#include "tuner/stages/glibc_tunables.hpp"
#include "tuner/stages/plan.hpp"
#include "tuner/stages/tune.hpp"
#include "tuner/text/format.hpp"

#include <algorithm>
#include <iostream>

namespace cjit::cli {

using namespace cjit::detail;

namespace {

// Lines the check races at most, and a child's time limit.
constexpr size_t kMaxLines = 3;
constexpr double kChildTimeout = 300;

// What `--glibc-tunables` needs, found before the tune starts: the running glibc's own
// thresholds, the rows and the child process that measures them.
struct TunablesPlan {
  Tunables defaults;
  std::vector<MemsetRow> rows;
  TunablesCheckOptions check;
  std::unique_ptr<ProcessMemsetRows> bench;
  double seconds = 0; // the check's estimate
};

// Checks everything the check needs before any measuring: the path, the C library, its
// tunables, and one tiny run of the child with a line and without. nullopt: said, exit 2.
std::optional<TunablesPlan> plan_tunables(const std::string &path, const TuneOptions &o) {
  const auto fail = [](const std::string &e) {
    std::cerr << "clearjit tune: --glibc-tunables: " << e << "\n";
    return std::nullopt;
  };
  if (std::string e = check_output_path(path); !e.empty()) return fail(e);
  const CLibrary &lib = running_c_library();
  Result<Tunables> listed = list_tunables(lib);
  if (!listed) return fail(listed.error);
  if (std::string e = tunables_unsupported(lib.name, *listed); !e.empty()) return fail(e);
  TunablesPlan p;
  for (const char *name : {kMemsetNonTemporal, kRepStosb})
    if (listed->contains(name)) p.defaults[name] = listed->at(name);
  const LevelPlan level = plan_for(o.level);
  p.check = tunables_check_options(level.confidence);
  p.rows = memset_rows(host_cpu(), o.min_size, o.max_size);
  const MeasureOptions measure{
      .repetitions = 1, .min_time = level.race_min_time, .progress = false};
  p.bench = std::make_unique<ProcessMemsetRows>(ProcessMemsetRows::self_command(), lib.name,
                                                measure, kChildTimeout);
  // A line of the glibc's own values changes nothing: the child must run with it and without.
  TunablesLine own;
  own.values = p.defaults;
  for (const std::optional<std::string> &value :
       {std::optional<std::string>(), std::optional(own.text())})
    if (Result<std::vector<double>> r =
            p.bench->run({{65536, Intent::reuse, Pattern::scattered}}, value);
        !r)
      return fail(
          "the tunables check cannot run: memset " +
          (value ? "under GLIBC_TUNABLES=" + *value : std::string("without GLIBC_TUNABLES")) +
          ": " + r.error);
  p.seconds = p.check.rounds * double(kMaxLines + 1) * p.bench->estimate_seconds(p.rows);
  return p;
}

// The check of the lines the tune's findings give, into r.glibc_tunables.
void check_tunables(TunablesPlan &p, const TuneOptions &o, TuneResult &r) {
  std::string why;
  std::vector<TunablesLine> lines =
      candidate_lines(r.findings, p.defaults, hot_limit(host_cpu()), o.max_size, why);
  // glibc ignores a value out of its range: each line must read back as written.
  std::erase_if(lines, [&](const TunablesLine &l) {
    Result<Tunables> read = list_tunables(running_c_library(), l.text());
    if (!read) {
      why = read.error;
      return true;
    }
    for (const auto &[name, value] : l.values)
      if (!read->contains(name) || read->at(name) != value) return true;
    return false;
  });
  if (lines.size() > kMaxLines) lines.resize(kMaxLines);
  TunablesStudy s;
  if (lines.empty()) {
    s.libc = running_c_library().name;
    s.defaults = p.defaults;
    s.note = why.empty() ? "no line the glibc reads as written" : why;
  } else {
    std::cerr << "clearjit tune: checking " << lines.size()
              << " GLIBC_TUNABLES line(s) against memset without, about "
              << fmt("%.0f", p.seconds * double(lines.size() + 1) / double(kMaxLines + 1))
              << " s\n";
    s = check_lines(*p.bench, p.rows, lines, p.defaults, running_c_library().name, p.check);
  }
  r.glibc_tunables = std::move(s);
}

// Writes the line where the check chose one. 0 written; 1 no line or the check failed; 2 the
// file could not be written.
int save_tunables(const std::string &path, const TuneResult &r, const CpuInfo &cpu) {
  const TunablesStudy &s = *r.glibc_tunables;
  if (!s.error.empty() || !s.chosen) {
    std::cerr << "clearjit tune: --glibc-tunables: nothing written to " << path << ": "
              << (s.error.empty() ? s.note : "the check could not run: " + s.error) << "\n";
    return 1;
  }
  if (std::string e = write_file_atomically(path, tunables_file(s, cpu.brand, r.date));
      !e.empty()) {
    std::cerr << "clearjit tune: " << e << "\n";
    return 2;
  }
  std::cout << "glibc tunables: " << path << "\n";
  return 0;
}

} // namespace

int cmd_memset_rows(const MemsetRowsArgs &a) {
  Result<std::vector<MemsetRow>> rows = parse_rows(a.rows);
  if (!rows) {
    std::cerr << "clearjit memset-rows: --rows: " << rows.error << "\n";
    return 2;
  }
  try {
    std::cout << measure_memset_rows(
        *rows, {.repetitions = a.repetitions, .min_time = a.min_time, .progress = false});
  } catch (const std::exception &e) {
    std::cerr << "clearjit memset-rows: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

int cmd_tune(const TuneArgs &a, const std::vector<std::string> &extras) {
  TuneOptions o;
  auto level = level_by_name(a.level);
  if (!level) {
    std::cerr << "clearjit tune: unknown level '" << a.level << "' (quick, default, exhaustive)\n";
    return 2;
  }
  o.level = *level;
  std::string why;
  for (const std::string *t : {&a.min_size, &a.max_size})
    if (!parse_size_arg(*t, why)) {
      std::cerr << "clearjit tune: " << (t == &a.min_size ? "--min-size" : "--max-size") << " '"
                << *t << "' is not a size: " << why << "\n";
      return 2;
    }
  auto lo = parse_size_arg(a.min_size, why), hi = parse_size_arg(a.max_size, why);
  if (*lo < 64 || *lo > *hi) {
    std::cerr << "clearjit tune: --min-size must be at least 64 and at most --max-size, got "
              << a.min_size << " and " << a.max_size << "\n";
    return 2;
  }
  if (!only_benchmark_flags("tune", extras)) return 2;
  o.benchmark_flags = extras;
  o.min_size = *lo;
  o.max_size = *hi;
  const CpuInfo &cpu = host_cpu();
  // The destination arena is at least the largest size: keep it within a quarter of free memory.
  uint64_t cap = available_memory() / 4;
  if (o.max_size > cap) {
    uint64_t p = 1;
    while (p * 2 <= cap)
      p *= 2;
    std::cerr << "clearjit tune: --max-size capped at " << format_size(p)
              << " (a quarter of available memory)\n";
    o.max_size = std::max(p, o.min_size);
  }
  o.time_limit = a.time_limit;
  o.progress = true;
  std::string output = a.output.empty() ? default_profile_name(cpu) : a.output;
  for (const std::string &path : {output, a.json, a.report})
    if (!path.empty())
      if (std::string e = check_output_path(path); !e.empty()) {
        std::cerr << "clearjit tune: " << e << "\n";
        return 2;
      }
  std::optional<TunablesPlan> tunables;
  if (!a.glibc_tunables.empty()) {
    if (!(tunables = plan_tunables(a.glibc_tunables, o))) return 2;
    // The check is part of the level's time: the tune gets the rest, at least half.
    const double budget = o.time_limit > 0 ? o.time_limit : plan_for(o.level).budget;
    if (budget > 0) o.time_limit = std::max(budget - tunables->seconds, budget / 2);
  }

  TuneResult r;
  try {
    r = tune(o, cpu);
    if (tunables) check_tunables(*tunables, o, r);
  } catch (const std::exception &e) {
    std::cerr << "clearjit tune: " << e.what() << "\n";
    return 1;
  }
  std::cout << summary_text(r);
  int rc = 0;
  auto save = [&](const std::string &path, const std::string &text, const char *what) {
    if (path.empty()) return;
    if (std::string e = write_file_atomically(path, text); !e.empty()) {
      std::cerr << "clearjit tune: " << e << "\n";
      rc = 2; // an unwritable output, as check_output_path would have said
    } else {
      std::cout << what << ": " << path << "\n";
    }
  };
  std::cout << "\n";
  save(output, profile_toml(r, cpu), "profile");
  save(a.json, measurements_json(r, cpu), "measurements");
  save(a.report, report_html(r, cpu), "report");
  if (tunables) rc = std::max(rc, save_tunables(a.glibc_tunables, r, cpu));
  return rc;
}

} // namespace cjit::cli
