// `clearjit bench --seeds` (tuner/bench/seeds.cpp): the two published experiments rerun here,
// once, at the shortest measuring time (this binary maps and clears a 1 GiB arena). The speeds
// are not asserted, only that every kernel the text quotes was measured.
#include "tuner/bench/seeds.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <string>

namespace cjit::detail {
namespace {

TEST(seeds, EveryFigureBesideItsPublishedOneWasMeasured) {
  BenchOptions o;
  o.repetitions = 1;
  o.min_time = 0.001;
  o.progress = false;
  const CpuInfo &cpu = host_cpu();
  const std::string text = run_seeds(cpu, o);
  EXPECT_NE(text.find(cpu.vendor + " family " + std::to_string(cpu.family) + " model " +
                      std::to_string(cpu.model) + ", medians of 1):\n"),
            std::string::npos)
      << text;
  // Each chunk's row: the published stosq figure, then stosq and stosb here, neither 0.
  const std::regex row(
      R"(  (4K|2M|1G) +(13\.7|15\.1|38\.1) GB/s +([0-9.]+) GB/s +([0-9.]+) GB/s\n)");
  int rows = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), row); it != std::sregex_iterator();
       ++it, ++rows) {
    EXPECT_GT(std::stod((*it)[3]), 0) << it->str();
    EXPECT_GT(std::stod((*it)[4]), 0) << it->str();
  }
  EXPECT_EQ(rows, 3) << text;
  EXPECT_NE(text.find("whole/4K ratio: published 2.8x, here stosq "), std::string::npos) << text;
  const std::regex movnti(
      R"(here: movnti ([0-9.]+) ms/GiB \(([0-9.]+) GB/s\), rep stosb ([0-9.]+) )"
      R"(ms/GiB \(([0-9.]+) GB/s\): movnti is ([0-9.]+)x as fast\n)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, movnti)) << text;
  for (size_t k = 1; k < m.size(); ++k)
    EXPECT_GT(std::stod(m[k]), 0) << m[0];
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
  EXPECT_EQ(text.find("inf"), std::string::npos) << text;
}

} // namespace
} // namespace cjit::detail
