// The hot head (head=SIZE): a huge reuse clear whose far part goes to memory by non-temporal
// stores and whose first SIZE bytes are cleared last with temporal stores, so that the read
// pass the reuse intent makes afterwards finds them in cache (Linux's "mm: folio_zero_user:
// cache neighbouring pages"). Measured as the tuner measures reuse (the clear, then one read
// pass over the region), interleaved, at scattered and consecutive destinations, beside memset
// and the same kernel without a head.
//
// Usage: clearjit_hot_head [KERNEL [SIZES...]]   (default: the widest non-temporal kernel this
// CPU runs; sizes 8M 16M 32M 64M 256M). Heads: 1M, 2M, 4M, 8M and 16M, where below the size.
// Output: GB/s medians and ratios to memset's speed and to the kernel alone.
#include "jit/model/cpu.hpp"
#include "jit/model/size.hpp"
#include "tuner/measure/measure.hpp"

#include <cstdio>
#include <string>
#include <vector>

using namespace cjit;
using namespace cjit::detail;

int main(int argc, char **argv) {
  const CpuInfo cpu = detect_cpu();
  std::string kernel = argc > 1 ? argv[1] : "";
  if (kernel.empty())
    for (const char *k : {"ntavx512", "ntavx2", "ntsse", "movnti"})
      if (unsupported_reason(*parse_spec(k), cpu).empty()) {
        kernel = k;
        break;
      }
  const auto base = parse_spec(kernel);
  if (!base || !base->info().takes(kHead)) {
    std::fprintf(stderr, "clearjit_hot_head: %s: %s\n", kernel.c_str(),
                 base ? "takes no head= option" : base.error.c_str());
    return 2;
  }
  if (std::string why = unsupported_reason(*base, cpu); !why.empty()) {
    std::fprintf(stderr, "clearjit_hot_head: %s\n", why.c_str());
    return 2;
  }
  std::vector<uint64_t> sizes;
  for (int i = 2; i < argc; ++i) {
    auto s = parse_size(argv[i]);
    if (!s || *s < 4096 || *s > (4ull << 30)) {
      std::fprintf(stderr, "clearjit_hot_head: size '%s': 4K..4G expected\n", argv[i]);
      return 2;
    }
    sizes.push_back(*s);
  }
  if (sizes.empty()) sizes = {8u << 20, 16u << 20, 32u << 20, 64u << 20, 256u << 20};
  const std::vector<uint64_t> heads = {1u << 20, 2u << 20, 4u << 20, 8u << 20, 16u << 20};

  std::vector<Job> jobs;
  uint64_t largest = 0;
  for (Pattern p : kPatterns)
    for (uint64_t size : sizes) {
      largest = std::max(largest, size);
      jobs.push_back(in_pattern({default_spec(Method::libc), size, Intent::reuse}, p));
      jobs.push_back(in_pattern({*base, size, Intent::reuse}, p));
      for (uint64_t h : heads)
        if (h < size) {
          Spec s = *base;
          s.head = h;
          jobs.push_back(in_pattern({s, size, Intent::reuse}, p));
        }
    }
  HostMeter bench(cpu, largest);
  const std::vector<Measurement> ms = bench.run(jobs, {.repetitions = 9,
                                                       .min_time = 0.02,
                                                       .benchmark_flags = {},
                                                       .progress = true,
                                                       .label = "hot head"});
  std::printf("%s, reuse (clear, then one read pass), 9 interleaved repetitions; GB/s medians\n",
              cpu.brand.c_str());
  auto gbps = [&](const std::string &spec, uint64_t size, Pattern p) {
    for (const Measurement &m : ms)
      if (m.candidate.name() == spec && m.size == size && m.pattern == p) return m.gbps;
    return 0.0;
  };
  for (Pattern p : kPatterns) {
    std::printf("\n%s destinations\n  %-8s %-26s %8s %9s %9s\n",
                std::string(pattern_name(p)).c_str(), "size", "kernel", "GB/s", "vs memset",
                "vs alone");
    for (uint64_t size : sizes) {
      const double mem = gbps("libc", size, p), alone = gbps(format_spec(*base), size, p);
      for (const Measurement &m : ms)
        if (m.size == size && m.pattern == p)
          std::printf("  %-8s %-26s %8.1f %8.2fx %8.2fx\n", human_bytes(size).c_str(),
                      m.candidate.name().c_str(), m.gbps, mem > 0 ? m.gbps / mem : 0,
                      alone > 0 ? m.gbps / alone : 0);
    }
  }
  return 0;
}
