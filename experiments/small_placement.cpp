// How much a small clear's time depends on where its code lies, and what aligning the small
// path's branch targets buys. Each small-path strategy (max 256), with targets unaligned and
// aligned to 64 bytes, is copied to the same random 64-byte-aligned places in a 64 MiB region
// and called warm beside memset on the tuner's and `clearjit bench`'s call sequences
// (warm_calls: 8 KiB buffer, random lines, offsets 0..63 in turn). A caller's code and the clearing
// code share the branch predictors, so one placement can be lucky or unlucky by a cycle or two:
// medians over many places say what a program gets on average.
//
// Every call, memset's included, comes from the generated timing loop (tuner/measure/warmloop.hpp),
// at one of its places per code place: the caller's own place moves a warm call as much as the
// callee's, so memset and the candidates must share it.
//
// Control: glibc's own memset bytes, copied to the same places (sizes up to 128 B only: above,
// glibc reads a threshold rip-relative, which a copy breaks). Its ratio is what placement
// alone costs or gains against memset where the loader put it.
//
// Usage: clearjit_small_placement [PLACES [SIZES...]]   (default 24 places, at most 1024; sizes 1 8
// 33 ..) Output: per size, intent, strategy and alignment: time / memset's time, median [min..max]
// over the places (each place: median of 5 interleaved pairs).
#include "jit/emit/emit.hpp"
#include "jit/model/cpu.hpp"
#include "jit/model/small.hpp"
#include "tuner/measure/measure.hpp"
#include "tuner/measure/warmloop.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace cjit;
using namespace cjit::detail;

constexpr size_t kRegion = size_t(64) << 20;
constexpr int kPairs = 5, kRounds = 200'000;

alignas(4096) uint8_t g_buf[kWarmBytes];
const void *const c_memset = reinterpret_cast<const void *>(&std::memset);

// ns per call of `*slot` called from the timing loop at `place` (warmloop.hpp): memset and every
// candidate run from the same caller bytes at the same address.
double ns_per_call(WarmLoops &loops, int place, const std::vector<WarmCall> &calls, bool reuse,
                   const void *fn, uint64_t arg) {
  const void *const slot[1] = {fn};
  WarmLoopFn loop = loops.at(place, false, reuse);
  auto t0 = std::chrono::steady_clock::now();
  uint64_t sink = loop(calls.data(), g_buf, kRounds, slot, arg);
  asm volatile("" : : "r"(sink));
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
         kRounds;
}

struct Contender {
  std::string name;
  const void *code;
  size_t size;
  bool is_memset; //!< called as memset(d, 0, n), sizes <= 128 only
};

constexpr size_t kMemsetCopy = 4096; // glibc's entry and every path it takes up to 128 B

} // namespace

int main(int argc, char **argv) {
  const int places = argc > 1 ? std::clamp(std::atoi(argv[1]), 1, kWarmLoopPlaces) : 24;
  std::vector<uint32_t> sizes;
  for (int i = 2; i < argc; ++i)
    sizes.push_back(uint32_t(std::clamp(std::atoi(argv[i]), 0, 256)));
  if (sizes.empty()) sizes = {1, 3, 8, 16, 33, 64, 65, 100, 128, 160, 256, 0};

  const CpuInfo &cpu = host_cpu();
  std::vector<std::unique_ptr<GeneratedCode>> codes;
  std::vector<Contender> cands{{"memset's code", c_memset, kMemsetCopy, true}};
  for (const SmallInfo &s : small_strategies()) {
    if (!small_unsupported_reason(s.strategy, cpu).empty()) continue;
    for (unsigned align : {1u, kSmallTargetAlign}) {
      auto g = generate(
          [&](asmjit::x86::Assembler &a) {
            asmjit::Label big = a.newLabel();
            emit_small(a, {s.strategy, 256}, cpu, big, align);
            a.bind(big); // never reached: every size here is <= 256
            a.ret();
          },
          "placement");
      if (!g) return std::fprintf(stderr, "%s\n", g.error.c_str()), 1;
      codes.push_back(std::move(*g.value));
      cands.push_back(
          {std::string(s.name) + (align > 1 ? "/align" + std::to_string(align) : "/unaligned"),
           reinterpret_cast<const void *>(codes.back()->fn), codes.back()->size, false});
    }
  }
  auto *region = static_cast<uint8_t *>(
      mmap(nullptr, kRegion, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  if (region == MAP_FAILED) return std::perror("mmap"), 1;

  std::printf("%s; warm; time / memset's time, median [min..max] over %d code placements\n",
              cpu.brand.c_str(), places);
  WarmLoops loops; // place p calls everything measured at code place p
  std::mt19937_64 rng(7);
  for (uint32_t n : sizes) {
    const Mix mix = n ? Mix::fixed : Mix::log_uniform;
    const std::vector<WarmCall> calls = warm_calls(mix, n);
    for (bool reuse : {false, true}) {
      std::printf("%s, %s\n", n ? (std::to_string(n) + " B").c_str() : mix_name(mix).data(),
                  reuse ? "reuse (clear, read first and last byte)" : "stream (clear only)");
      std::vector<std::vector<double>> ratios(cands.size());
      for (int p = 0; p < places; ++p) {
        const size_t at = rng() % (kRegion / 64 - 64) * 64;
        for (size_t k = 0; k < cands.size(); ++k) {
          const Contender &c = cands[k];
          if (at + c.size > kRegion || (c.is_memset && (n == 0 || n > 128))) continue;
          mprotect(region, kRegion, PROT_READ | PROT_WRITE);
          std::memcpy(region + at, c.code, c.size);
          mprotect(region, kRegion, PROT_READ | PROT_EXEC);
          const uint64_t arg = c.is_memset ? kMemsetArg : kClearFnArg;
          std::vector<double> pair;
          for (int i = 0; i < kPairs; ++i) {
            double m = ns_per_call(loops, p, calls, reuse, c_memset, kMemsetArg);
            double t = ns_per_call(loops, p, calls, reuse, region + at, arg);
            pair.push_back(t / m);
          }
          std::sort(pair.begin(), pair.end());
          ratios[k].push_back(pair[kPairs / 2]);
        }
      }
      for (size_t k = 0; k < cands.size(); ++k) {
        std::vector<double> &r = ratios[k];
        if (r.empty()) continue;
        std::sort(r.begin(), r.end());
        std::printf("  %-18s %.2f [%.2f..%.2f]\n", cands[k].name.c_str(), r[r.size() / 2],
                    r.front(), r.back());
      }
    }
  }
}
