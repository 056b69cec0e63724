// Differential libFuzzer target: a random profile (its classes' kernels drawn from the method
// table with random options, its small paths from the strategy table) loaded for this CPU, then
// random clears through every entry point: each must leave the bytes memset leaves. A clear
// runs in a window of the buffer with no access on either side (a store past it faults), and
// the whole window is compared with memset's result (a stray store inside it is found). A kernel
// this CPU cannot run must be refused or replaced, never run (a SIGILL is a crash here).
#include "jit/model/small.hpp"
#include "jit/model/spec.hpp"
#include "jit/profile/profile.hpp"
#include "jit/runtime/runtime.hpp"

#include <clearjit/clearjit.h>

#include <fuzzer/FuzzedDataProvider.h>
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace cjit::detail;

constexpr size_t kPage = 4096;
constexpr size_t kRegion = size_t(8) << 20; // the largest window; room for a parallel clear's cuts

// [no access][kRegion bytes][no access], the bytes a window holds before a clear, and memset's
// result.
struct Buffers {
  uint8_t *region = nullptr;
  std::vector<uint8_t> before = std::vector<uint8_t>(kRegion), expected = before;
  Buffers() {
    for (size_t i = 0; i < kRegion; ++i)
      before[i] = uint8_t(0xa5 ^ (i * 131));
    void *m = mmap(nullptr, kRegion + 2 * kPage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) __builtin_trap();
    region = static_cast<uint8_t *>(m) + kPage;
  }
};

// A size the tables' edges are made of: around a power of two, or any value up to `max`.
uint64_t size_near(FuzzedDataProvider &in, uint64_t max) {
  if (in.ConsumeBool()) return in.ConsumeIntegralInRange<uint64_t>(0, max);
  uint64_t p = uint64_t(1) << in.ConsumeIntegralInRange<unsigned>(0, 63 - __builtin_clzll(max));
  int64_t delta = in.ConsumeIntegralInRange<int64_t>(-2, 2);
  return delta < 0 && p < uint64_t(-delta) ? 0 : std::min(max, p + delta);
}

// A spec from the method table: every option the method takes, at one of its values, now and
// then one a method does not take or an alignment below its minimum (which must be refused).
std::string random_spec(FuzzedDataProvider &in) {
  const auto ms = methods();
  const MethodInfo &m = ms[in.ConsumeIntegralInRange<size_t>(0, ms.size() - 1)];
  Spec s = default_spec(m.method);
  if (m.takes(kUnroll)) s.unroll = in.PickValueInArray(kUnrolls);
  if (m.takes(kChunk) && in.ConsumeBool())
    s.chunk = in.PickValueInArray<uint64_t>({kPage, 16 * kPage, 64 * 1024, 1 << 20, 2 << 20});
  if (m.takes(kFence))
    s.fence = s.chunk ? in.PickValueInArray({Fence::none, Fence::end, Fence::chunk})
                      : in.PickValueInArray({Fence::none, Fence::end});
  if (m.takes(kAlign)) s.align = in.PickValueInArray(kAligns);
  if (m.takes(kHead) && in.ConsumeBool())
    s.head = in.PickValueInArray<uint64_t>({kPage, 16 * kPage, 1 << 20});
  std::string text = format_spec(s);
  if (in.ConsumeIntegralInRange<unsigned>(0, 63) == 63) // not 0: what an exhausted input gives
    text += in.PickValueInArray({":unroll=2", ":align=8", ":head=4K", ",chunk=4K", ":fence=end"});
  return text;
}

// One table of a profile: 1 to 4 classes, their bounds increasing.
void add_table(std::string &toml, FuzzedDataProvider &in, const char *table) {
  unsigned classes = in.ConsumeIntegralInRange<unsigned>(1, 4);
  uint64_t below = 0;
  for (unsigned i = 0; i < classes; ++i) {
    toml += std::string("[[dispatch.") + table + "]]\n";
    if (i + 1 < classes) {
      below += 1 + size_near(in, kRegion / 2);
      toml += "below = " + std::to_string(below) + "\n";
    }
    toml += "kernel = \"" + random_spec(in) + "\"\n";
  }
}

// A small path from the strategy table, with up to two bands below it.
void add_small(std::string &toml, FuzzedDataProvider &in, const char *intent) {
  const auto ss = small_strategies();
  auto pick = [&] {
    return std::string(ss[in.ConsumeIntegralInRange<size_t>(0, ss.size() - 1)].name);
  };
  toml += std::string("[small.") + intent + "]\nstrategy = \"" + pick() + "\"\n";
  toml += "max = " + std::to_string(in.PickValueInArray({128, 256, 512, 1024})) + "\n";
  unsigned bands = in.ConsumeIntegralInRange<unsigned>(0, 2);
  if (bands == 0) return;
  toml += "bands = [";
  unsigned below = 0;
  for (unsigned i = 0; i < bands; ++i) {
    below += in.ConsumeIntegralInRange<unsigned>(1, 128);
    toml += std::string(i ? ", " : "") + "{ below = " + std::to_string(below) + ", strategy = \"" +
            pick() + "\" }";
  }
  toml += "]\n";
}

std::string random_profile(FuzzedDataProvider &in, const CpuInfo &cpu) {
  std::string toml = "format = 1\n[host]\nvendor = \"" + cpu.vendor +
                     "\"\nfamily = " + std::to_string(cpu.family) +
                     "\nmodel = " + std::to_string(cpu.model) + "\n";
  add_table(toml, in, "reuse");
  if (in.ConsumeBool()) add_table(toml, in, "stream");
  if (in.ConsumeBool()) add_table(toml, in, "batch");
  if (in.ConsumeBool()) add_small(toml, in, "reuse");
  if (in.ConsumeBool()) add_small(toml, in, "stream");
  return toml;
}

enum class Entry { clear, stream, batch, parallel, kernel };

// Clears [off, off+n) of a window of `window` bytes against the region's start or its end by
// `entry`, then compares the whole window with memset's result.
void clear_and_compare(Buffers &b, const clearjit *cj, const clearjit_kernel *k, Entry entry,
                       size_t off, size_t n, bool at_end, unsigned threads) {
  size_t window = (off + n + kPage - 1) / kPage * kPage + kPage;
  if (window > kRegion) window = kRegion;
  uint8_t *w = at_end ? b.region + kRegion - window : b.region;
  if (mprotect(w, window, PROT_READ | PROT_WRITE) != 0) __builtin_trap();
  std::memcpy(w, b.before.data(), window);
  std::memcpy(b.expected.data(), b.before.data(), window);
  std::memset(b.expected.data() + off, 0, n);
  uint8_t *dst = w + off;
  switch (entry) {
  case Entry::clear: (clearjit_clear)(cj, dst, n); break;
  case Entry::stream: (clearjit_clear_stream)(cj, dst, n); break;
  case Entry::batch: {
    clearjit_batch batch;
    clearjit_batch_begin(&batch, cj);
    size_t half = n / 2; // two pieces, one fence
    clearjit_batch_clear(&batch, dst, half);
    clearjit_batch_clear(&batch, dst + half, n - half);
    clearjit_batch_end(&batch);
    break;
  }
  case Entry::parallel:
    clearjit_clear_parallel(cj, threads % 2 ? CLEARJIT_REUSE : CLEARJIT_STREAM, dst, n, threads);
    break;
  case Entry::kernel: clearjit_kernel_clear(k, dst, n); break;
  }
  if (std::memcmp(w, b.expected.data(), window) != 0) __builtin_trap();
  if (mprotect(w, window, PROT_NONE) != 0) __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static Buffers buffers;
  const CpuInfo &cpu = host_cpu();
  FuzzedDataProvider in(data, size);

  auto profile = parse_profile(random_profile(in, cpu), "fuzz.toml", cpu);
  if (!profile) {
    if (profile.error.empty()) __builtin_trap(); // a refusal always says why
    return 0;
  }
  std::string error;
  clearjit *cj = open_profile(*profile, cpu, error);
  if (!cj) {
    if (error.empty()) __builtin_trap();
    return 0;
  }
  char kernel_error[256] = "";
  clearjit_kernel *k =
      clearjit_kernel_compile(random_spec(in).c_str(), kernel_error, sizeof kernel_error);
  if (!k && !kernel_error[0]) __builtin_trap();

  for (unsigned ops = in.ConsumeIntegralInRange<unsigned>(1, 8); ops--;) {
    Entry entry = in.PickValueInArray(
        {Entry::clear, Entry::stream, Entry::batch, Entry::parallel, Entry::kernel});
    if (entry == Entry::kernel && !k) entry = Entry::clear;
    size_t off = in.ConsumeIntegralInRange<size_t>(0, 127);
    if (in.ConsumeBool()) off += in.ConsumeIntegralInRange<size_t>(0, 3) * kPage;
    size_t n = in.ConsumeBool() ? in.ConsumeIntegralInRange<size_t>(0, 1024)
                                : size_near(in, kRegion - kPage - off);
    clear_and_compare(buffers, cj, k, entry, off, n, in.ConsumeBool(),
                      in.ConsumeIntegralInRange<unsigned>(0, 3));
  }
  clearjit_kernel_free(k);
  clearjit_close(cj);
  return 0;
}
