#include "jit/model/cpu.hpp"

#include "jit/model/size.hpp"

#include <cpuid.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <optional>

namespace cjit::detail {
namespace {

constexpr std::array<std::string_view, size_t(Feature::count_)> kNames{
    "",     "SSE2", "AVX",    "AVX2",      "AVX512F",  "ERMS",     "FSRM",
    "FZRM", "FSRS", "CLZERO", "MOVDIR64B", "AVX512BW", "AVX512VL", "BMI2"};
constexpr std::array<std::string_view, size_t(Feature::count_)> kKeys{
    "",     "sse2", "avx",    "avx2",      "avx512f",  "erms",     "fsrm",
    "fzrm", "fsrs", "clzero", "movdir64b", "avx512bw", "avx512vl", "bmi2"};

using Regs = CpuidRegs;

bool bit(uint32_t v, unsigned n) { return (v >> n) & 1u; }

//! CPUID that never reads past the highest supported leaf: beyond it, CPUs return the data of
//! the highest basic leaf instead of zeros, which would decode as nonsense.
class Cpuid {
public:
  explicit Cpuid(const std::function<Regs(uint32_t, uint32_t)> &raw) : raw_(raw) {
    max_basic_ = raw_(0, 0).eax;
    max_ext_ = raw_(0x80000000u, 0).eax;
    if (max_ext_ < 0x80000000u) max_ext_ = 0; // no extended leaves
  }
  Regs operator()(uint32_t leaf, uint32_t sub = 0) const {
    uint32_t max = leaf >= 0x80000000u ? max_ext_ : max_basic_;
    return leaf <= max && max != 0 ? raw_(leaf, sub) : Regs{};
  }
  uint32_t max_basic() const { return max_basic_; }
  uint32_t max_ext() const { return max_ext_; }

private:
  const std::function<Regs(uint32_t, uint32_t)> &raw_;
  uint32_t max_basic_ = 0, max_ext_ = 0;
};

//! XCR0: which register states the OS saves on context switch. Only valid when OSXSAVE is set.
uint64_t xcr0() {
  uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0u));
  return (uint64_t(hi) << 32) | lo;
}

void append_regs(std::string &s, std::initializer_list<uint32_t> regs) {
  for (uint32_t r : regs) {
    char b[4];
    std::memcpy(b, &r, 4);
    s.append(b, 4);
  }
}

std::string trim(std::string s) {
  auto keep = [](char c) { return c != ' ' && c != '\0' && c != '\t'; };
  size_t b = 0, e = s.size();
  while (b < e && !keep(s[b]))
    ++b;
  while (e > b && !keep(s[e - 1]))
    --e;
  return s.substr(b, e - b);
}

// Deterministic cache parameters: leaf 4 (Intel) and 0x8000001D (AMD) share this layout.
// Cap on sub-leaves guards against a hypervisor that never reports the terminating type 0.
void read_cache_leaf(const Cpuid &cpuid, uint32_t leaf, CacheLevel (&levels)[4]) {
  for (uint32_t sub = 0; sub < 16; ++sub) {
    Regs r = cpuid(leaf, sub);
    uint32_t type = r.eax & 0x1f; // 0 none, 1 data, 2 instruction, 3 unified
    if (type == 0) break;
    uint32_t level = (r.eax >> 5) & 0x7;
    if (type == 2 || level < 1 || level > 3 || levels[level].size) continue;
    uint64_t ways = ((r.ebx >> 22) & 0x3ff) + 1;
    uint64_t partitions = ((r.ebx >> 12) & 0x3ff) + 1;
    uint64_t line = (r.ebx & 0xfff) + 1;
    uint64_t sets = uint64_t(r.ecx) + 1;
    levels[level].size = ways * partitions * line * sets;
    levels[level].shared_by = ((r.eax >> 14) & 0xfff) + 1;
  }
}

// AMD's older fixed-format descriptors: sizes only, no sharing information.
void read_amd_legacy(const Cpuid &cpuid, CacheLevel (&levels)[4]) {
  if (cpuid.max_ext() >= 0x80000005u) levels[1].size = uint64_t(cpuid(0x80000005u).ecx >> 24) << 10;
  if (cpuid.max_ext() >= 0x80000006u) {
    Regs r = cpuid(0x80000006u);
    levels[2].size = uint64_t(r.ecx >> 16) << 10;
    levels[3].size = uint64_t(r.edx >> 18) * (512u << 10);
  }
}

std::optional<std::string> read_line(const std::string &path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return trim(line);
}

std::optional<uint64_t> parse_u64(std::string_view s, size_t *used = nullptr) {
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc()) return std::nullopt;
  if (used)
    *used = size_t(p - s.data());
  else if (p != s.data() + s.size())
    return std::nullopt;
  return v;
}

//! Counts CPUs in a list such as "0-3,8,10-11".
uint32_t count_cpu_list(std::string_view s) {
  uint32_t n = 0;
  while (!s.empty()) {
    size_t comma = s.find(',');
    std::string_view item = s.substr(0, comma);
    s = comma == std::string_view::npos ? std::string_view{} : s.substr(comma + 1);
    size_t dash = item.find('-');
    auto lo = parse_u64(item.substr(0, dash));
    auto hi = dash == std::string_view::npos ? lo : parse_u64(item.substr(dash + 1));
    if (!lo || !hi || *hi < *lo) return 0;
    n += uint32_t(*hi - *lo + 1);
  }
  return n;
}

void read_sysfs_caches(CacheLevel (&levels)[4]) {
  for (int i = 0; i < 16; ++i) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    auto level_s = read_line(dir + "level");
    if (!level_s) break;
    auto type = read_line(dir + "type");
    auto level = parse_u64(*level_s);
    if (!type || !level || *level < 1 || *level > 3 || *type == "Instruction" ||
        levels[*level].size)
      continue;
    auto size_s = read_line(dir + "size");
    auto size = size_s ? parse_size(*size_s) : std::nullopt; // "48K", "32768K"
    if (!size) continue;
    auto cpus = read_line(dir + "shared_cpu_list");
    levels[*level] = {*size, cpus ? count_cpu_list(*cpus) : 0};
  }
}

// A cache size for people, exact: CPUID's and sysfs's may differ by little.
std::string cache_size(uint64_t bytes) { return bytes ? human_bytes(bytes, true) : "unknown"; }

std::string hex(uint32_t v) {
  char buf[16];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v, 16);
  (void)ec;
  return "0x" + std::string(buf, p);
}

} // namespace

std::string_view feature_name(Feature f) {
  return size_t(f) < kNames.size() ? kNames[size_t(f)] : "";
}

std::string_view feature_key(Feature f) { return size_t(f) < kKeys.size() ? kKeys[size_t(f)] : ""; }

CpuInfo detect_cpu() {
  CpuSource host;
  host.cpuid = [](uint32_t leaf, uint32_t sub) {
    Regs r;
    __cpuid_count(leaf, sub, r.eax, r.ebx, r.ecx, r.edx);
    return r;
  };
  if (__get_cpuid_max(0, nullptr) >= 1 && bit(host.cpuid(1, 0).ecx, 27)) host.xcr0 = xcr0();
  CacheLevel sysfs[4];
  read_sysfs_caches(sysfs);
  std::copy(std::begin(sysfs), std::end(sysfs), host.sysfs.begin());
  return decode_cpu(host);
}

CpuInfo decode_cpu(const CpuSource &source) {
  CpuInfo cpu;
  const Cpuid cpuid(source.cpuid);
  if (cpuid.max_basic() == 0) return cpu; // no CPUID at all; everything stays unknown

  Regs r0 = cpuid(0);
  append_regs(cpu.vendor, {r0.ebx, r0.edx, r0.ecx});

  if (cpuid.max_ext() >= 0x80000004u) {
    std::string brand;
    for (uint32_t leaf = 0x80000002u; leaf <= 0x80000004u; ++leaf) {
      Regs r = cpuid(leaf);
      append_regs(brand, {r.eax, r.ebx, r.ecx, r.edx});
    }
    cpu.brand = trim(brand.substr(0, brand.find('\0')));
  }

  Regs r1 = cpuid(1);
  uint32_t base_family = (r1.eax >> 8) & 0xf;
  uint32_t base_model = (r1.eax >> 4) & 0xf;
  cpu.family = base_family == 0xf ? base_family + ((r1.eax >> 20) & 0xff) : base_family;
  cpu.model = base_family == 6 || base_family == 0xf ? base_model + (((r1.eax >> 16) & 0xf) << 4)
                                                     : base_model;
  cpu.stepping = r1.eax & 0xf;
  cpu.hypervisor = bit(r1.ecx, 31);

  // A CPUID bit only says the CPU has the registers; the OS must also save them (XCR0),
  // or the first vector instruction faults.
  uint64_t xcr = bit(r1.ecx, 27) ? source.xcr0 : 0;
  bool ymm_os = (xcr & 0x6) == 0x6;
  bool zmm_os = ymm_os && (xcr & 0xe0) == 0xe0;

  Regs r7 = cpuid(7, 0);
  Regs r71 = r7.eax >= 1 ? cpuid(7, 1) : Regs{};
  cpu.set(Feature::sse2, bit(r1.edx, 26));
  cpu.set(Feature::avx, bit(r1.ecx, 28) && ymm_os);
  cpu.set(Feature::avx2, bit(r7.ebx, 5) && ymm_os);
  cpu.set(Feature::avx512f, bit(r7.ebx, 16) && zmm_os);
  cpu.set(Feature::erms, bit(r7.ebx, 9));
  cpu.set(Feature::fsrm, bit(r7.edx, 4));
  cpu.set(Feature::fzrm, bit(r71.eax, 10));
  cpu.set(Feature::fsrs, bit(r71.eax, 11));
  cpu.set(Feature::movdir64b, bit(r7.ecx, 28));
  cpu.set(Feature::avx512bw, bit(r7.ebx, 30) && zmm_os);
  cpu.set(Feature::avx512vl, bit(r7.ebx, 31) && zmm_os);
  cpu.set(Feature::bmi2, bit(r7.ebx, 8));
  cpu.set(Feature::clzero, cpuid.max_ext() >= 0x80000008u && bit(cpuid(0x80000008u).ebx, 0));

  // Caches: CPUID first; glibc's view is not trusted (it reports 256 MiB shared for a 32 MiB L3
  // on an AMD family 26 model 2 guest). Index 0 unused so levels[n] is Ln.
  CacheLevel from_cpuid[4];
  const std::array<CacheLevel, 4> &from_sysfs = source.sysfs;
  if (cpu.vendor == "GenuineIntel") {
    read_cache_leaf(cpuid, 4, from_cpuid);
  } else if (cpu.vendor == "AuthenticAMD" || cpu.vendor == "HygonGenuine") {
    bool topoext = bit(cpuid(0x80000001u).ecx, 22);
    if (topoext && cpuid.max_ext() >= 0x8000001du)
      read_cache_leaf(cpuid, 0x8000001du, from_cpuid);
    else
      read_amd_legacy(cpuid, from_cpuid);
  }

  CacheLevel *out[4] = {nullptr, &cpu.l1d, &cpu.l2, &cpu.l3};
  const char *label[4] = {"", "L1d", "L2", "L3"};
  for (int n = 1; n <= 3; ++n) {
    const CacheLevel &c = from_cpuid[n], &s = from_sysfs[n];
    std::string msg;
    if (c.size) {
      *out[n] = c;
      if (!c.shared_by) out[n]->shared_by = s.shared_by; // legacy descriptors carry no sharing info
      if (s.size && s.size != c.size)
        msg = std::string(label[n]) + ": CPUID says " + cache_size(c.size) + ", sysfs says " +
              cache_size(s.size) + "; using CPUID.";
    } else if (s.size) {
      *out[n] = s;
      msg = std::string(label[n]) + ": CPUID gives nothing, sysfs says " + cache_size(s.size) +
            "; using sysfs.";
    }
    if (!msg.empty()) cpu.cache_note += (cpu.cache_note.empty() ? "" : " ") + msg;
  }
  return cpu;
}

const CpuInfo &host_cpu() {
  static const CpuInfo cpu = detect_cpu();
  return cpu;
}

std::string describe(const CpuInfo &cpu) {
  std::string out;
  auto line = [&out](std::string_view label, const std::string &value) {
    out += label;
    out.append(label.size() < 12 ? 12 - label.size() : 1, ' ');
    out += value;
    out += '\n';
  };
  auto cache = [](const CacheLevel &c) {
    std::string s = cache_size(c.size);
    if (c.size && c.shared_by)
      s += ", shared by " + std::to_string(c.shared_by) +
           (c.shared_by == 1 ? " thread" : " threads");
    return s;
  };

  line("vendor", cpu.vendor.empty() ? "unknown" : cpu.vendor);
  line("brand", cpu.brand.empty() ? "unknown" : cpu.brand);
  line("family", std::to_string(cpu.family) + " (" + hex(cpu.family) + "), model " +
                     std::to_string(cpu.model) + " (" + hex(cpu.model) + "), stepping " +
                     std::to_string(cpu.stepping));
  line("hypervisor", cpu.hypervisor ? "yes" : "no");
  line("L1d", cache(cpu.l1d));
  line("L2", cache(cpu.l2));
  line("L3", cache(cpu.l3));

  std::string have, missing;
  for (size_t i = 1; i < size_t(Feature::count_); ++i) {
    std::string &list = cpu.features[i] ? have : missing;
    if (!list.empty()) list += ' ';
    list += feature_name(Feature(i));
  }
  line("features", have.empty() ? "-" : have);
  line("missing", missing.empty() ? "-" : missing);
  if (!cpu.cache_note.empty()) line("note", cpu.cache_note);
  return out;
}

unsigned usable_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return unsigned(std::max(CPU_COUNT(&set), 1));
  // A mask wider than cpu_set_t (more than 1024 CPUs): the online count.
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? unsigned(std::min(online, long(1) << 20)) : 1;
}

} // namespace cjit::detail
