// `clearjit tune`: measure here, write the profile, the measurements and the report.
#include "commands.hpp"

#include "jit/model/cpu.hpp"
#include "jit/profile/files.hpp"
#include "tuner/report/format.hpp"
#include "tuner/report/outputs.hpp"
#include "tuner/stages/candidates.hpp"
#include "tuner/stages/tune.hpp"

#include <algorithm>
#include <iostream>

namespace cjit::cli {

using namespace cjit::detail;

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

  TuneResult r;
  try {
    r = tune(o, cpu);
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
  return rc;
}

} // namespace cjit::cli
