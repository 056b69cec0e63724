#include "tuner/bench/seeds.hpp"

#include "tuner/text/format.hpp"

#include <cstdio>
#include <map>
#include <sstream>
#include <vector>

namespace cjit::detail {

std::string run_seeds(const CpuInfo &cpu, const BenchOptions &o) {
  const uint64_t G = 1ull << 30;
  HostMeter bench(cpu, G);
  std::vector<Job> jobs;
  const char *seed1[] = {"stosq:chunk=4K", "stosq:chunk=2M", "stosq",
                         "stosb:chunk=4K", "stosb:chunk=2M", "stosb"};
  for (const char *s : seed1)
    jobs.emplace_back(*parse_spec(s), G, Intent::stream);
  jobs.emplace_back(*parse_spec("movnti"), G, Intent::stream);
  auto ms = bench.run(jobs, measure_options(o, "seeds"));
  std::map<std::string, double> g;
  for (const Measurement &x : ms)
    g[x.candidate.name()] = x.gbps;
  std::ostringstream s;
  s << "Linux's clear_pages() posting (x86/clear_page): perf bench mem memset -f x86-64-stosq "
       "-s 4GB on AMD Milan;\n"
    << "here one 1 GiB extent cleared in chunks, one string instruction per chunk (" << cpu.vendor
    << " family " << cpu.family << " model " << cpu.model << ", medians of " << o.repetitions
    << "):\n"
    << "  chunk      published stosq   stosq here   stosb here\n";
  const char *chunks[] = {"4K", "2M", "1G"};
  const double published[] = {13.7, 15.1, 38.1};
  for (int i = 0; i < 3; ++i) {
    char line[200];
    std::snprintf(line, sizeof line, "  %-10s %10.1f GB/s %8.1f GB/s %8.1f GB/s\n", chunks[i],
                  published[i], g[seed1[i]], g[seed1[i + 3]]);
    s << line;
  }
  s << "  (1G is the whole extent: one rep stos for all of it)\n";
  s << "  whole/4K ratio: published " << fmt("%.1fx", 38.1 / 13.7) << ", here stosq "
    << fmt("%.1fx", g["stosq"] / g["stosq:chunk=4K"]) << ", stosb "
    << fmt("%.1fx", g["stosb"] / g["stosb:chunk=4K"]) << "\n\n";
  s << "Linux's \"clear 1G pages with streaming stores\" posting: movnti loop + sfence against "
       "rep stosb over 1 GiB\n"
    << "  published (Broadwell): 67 ms/GiB against 261 ms/GiB, 3.9x faster\n"
    << "  here: movnti " << fmt("%.1f", 1e3 * 1.073741824 / g["movnti"]) << " ms/GiB ("
    << fmt("%.1f GB/s", g["movnti"]) << "), rep stosb "
    << fmt("%.1f", 1e3 * 1.073741824 / g["stosb"]) << " ms/GiB (" << fmt("%.1f GB/s", g["stosb"])
    << "): movnti is " << fmt("%.2fx", g["movnti"] / g["stosb"]) << " as fast\n";
  return s.str();
}

} // namespace cjit::detail
