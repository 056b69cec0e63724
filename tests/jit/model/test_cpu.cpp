// CPUID decoding on recorded leaves of CPUs the test does not run on: family and model from the
// extended fields, each feature from the bit the vendors' manuals give it (Intel SDM vol. 2A
// CPUID; AMD APM vol. 3 appendix E), vector features only where XCR0 says the OS saves their
// registers, no leaf read beyond the highest, and the caches from CPUID against sysfs.
#include "jit/model/cpu.hpp"

#include <gtest/gtest.h>

#include <map>
#include <utility>

namespace cjit::detail {
namespace {

// A CPU's CPUID as a table of leaves. Like real CPUs, a leaf above the highest basic leaf
// answers with the highest basic leaf's data (never zeros), so that reading one shows.
struct Leaves {
  std::map<std::pair<uint32_t, uint32_t>, CpuidRegs> regs;
  CpuidRegs &at(uint32_t leaf, uint32_t sub = 0) { return regs[{leaf, sub}]; }

  CpuSource source(uint64_t xcr0 = kAllVectorStates) const {
    CpuSource s;
    s.cpuid = [regs = regs](uint32_t leaf, uint32_t sub) {
      auto it = regs.find({leaf, sub});
      if (it != regs.end()) return it->second;
      const uint32_t max_basic = regs.count({0, 0}) ? regs.at({0, 0}).eax : 0;
      auto highest = regs.find({max_basic, 0});
      return leaf < 0x80000000u && leaf > max_basic && highest != regs.end() ? highest->second
                                                                             : CpuidRegs{};
    };
    s.xcr0 = xcr0;
    return s;
  }
  static constexpr uint64_t kAllVectorStates = 0xe7; // x87, SSE, AVX, opmask, ZMM 0-15, 16-31
};

constexpr uint32_t bit(unsigned n) { return 1u << n; }

// Leaf 1's eax for a display family and model, as Intel and AMD encode them.
uint32_t signature(uint32_t family, uint32_t model, uint32_t stepping) {
  const uint32_t base_family = family >= 0xf ? 0xf : family;
  const uint32_t ext_family = family >= 0xf ? family - 0xf : 0;
  const bool extended_model = base_family == 6 || base_family == 0xf;
  const uint32_t base_model = extended_model ? model & 0xf : model;
  const uint32_t ext_model = extended_model ? model >> 4 : 0;
  return ext_family << 20 | ext_model << 16 | base_family << 8 | base_model << 4 | stepping;
}

void set_vendor(Leaves &l, const char (&vendor)[13]) {
  auto word = [&](int i) {
    uint32_t w = 0;
    for (int b = 3; b >= 0; --b)
      w = w << 8 | uint8_t(vendor[4 * i + b]);
    return w;
  };
  CpuidRegs &r = l.at(0);
  r.ebx = word(0), r.edx = word(1), r.ecx = word(2);
}

// A CPU with leaves 0, 1 and 7 (subleaves 0 and 1) and extended leaves up to 0x80000008.
Leaves basic_cpu(uint32_t family, uint32_t model, uint32_t stepping) {
  Leaves l;
  l.at(0).eax = 7;
  set_vendor(l, "AuthenticAMD");
  l.at(1).eax = signature(family, model, stepping);
  l.at(1).ecx = bit(27); // OSXSAVE
  l.at(7).eax = 1;       // subleaf 1 exists
  l.at(7, 1);
  l.at(0x80000000u).eax = 0x80000008u;
  l.at(0x80000008u);
  return l;
}

// One deterministic cache parameters subleaf (leaf 4 and 0x8000001D share the layout).
CpuidRegs cache_leaf(uint32_t type, uint32_t level, uint32_t ways, uint32_t sets,
                     uint32_t shared_by) {
  CpuidRegs r;
  r.eax = type | level << 5 | (shared_by - 1) << 14;
  r.ebx = (ways - 1) << 22 | 0u << 12 | (64 - 1); // one partition, 64-byte lines
  r.ecx = sets - 1;
  return r;
}

TEST(cpu_Decode, FamilyModelAndSteppingFromTheExtendedFields) {
  struct Case {
    uint32_t family, model, stepping;
  };
  // Emerald Rapids (6, 207), Zen 3 (25, 1), Zen 4 (25, 17), Zen 5 (26, 2), and a family below 6
  // whose model has no extended field.
  for (Case c : {Case{6, 207, 2}, Case{25, 1, 1}, Case{25, 17, 1}, Case{26, 2, 1}, Case{5, 4, 3}}) {
    const CpuInfo cpu = decode_cpu(basic_cpu(c.family, c.model, c.stepping).source());
    EXPECT_EQ(cpu.family, c.family);
    EXPECT_EQ(cpu.model, c.model);
    EXPECT_EQ(cpu.stepping, c.stepping);
  }
  // The extended fields of a base family that has none are not added (family 5, model bits in
  // the extended field set by mistake).
  Leaves l = basic_cpu(5, 4, 3);
  l.at(1).eax |= 0xa << 20 | 0x3 << 16;
  const CpuInfo cpu = decode_cpu(l.source());
  EXPECT_EQ(cpu.family, 5u);
  EXPECT_EQ(cpu.model, 4u);
}

TEST(cpu_Decode, VendorBrandAndHypervisor) {
  Leaves l = basic_cpu(6, 207, 2);
  set_vendor(l, "GenuineIntel");
  l.at(1).ecx |= bit(31);
  const char brand[49] = "  INTEL(R) XEON(R) PLATINUM 8581C CPU @ 2.30GHz ";
  for (uint32_t leaf = 0; leaf < 3; ++leaf) {
    uint32_t w[4] = {};
    for (int i = 0; i < 16; ++i)
      w[i / 4] |= uint32_t(uint8_t(brand[16 * leaf + i])) << 8 * (i % 4);
    l.at(0x80000002u + leaf) = {w[0], w[1], w[2], w[3]};
  }
  const CpuInfo cpu = decode_cpu(l.source());
  EXPECT_EQ(cpu.vendor, "GenuineIntel");
  EXPECT_EQ(cpu.brand, "INTEL(R) XEON(R) PLATINUM 8581C CPU @ 2.30GHz");
  EXPECT_TRUE(cpu.hypervisor);
  EXPECT_FALSE(decode_cpu(basic_cpu(6, 207, 2).source()).hypervisor);
}

TEST(cpu_Decode, EachFeatureFromItsOwnBit) {
  struct Bit {
    Feature feature;
    uint32_t leaf, sub;
    uint32_t CpuidRegs::*reg;
    unsigned n;
  };
  const Bit bits[] = {
      {Feature::sse2, 1, 0, &CpuidRegs::edx, 26},
      {Feature::avx, 1, 0, &CpuidRegs::ecx, 28},
      {Feature::avx2, 7, 0, &CpuidRegs::ebx, 5},
      {Feature::bmi2, 7, 0, &CpuidRegs::ebx, 8},
      {Feature::erms, 7, 0, &CpuidRegs::ebx, 9},
      {Feature::avx512f, 7, 0, &CpuidRegs::ebx, 16},
      {Feature::avx512bw, 7, 0, &CpuidRegs::ebx, 30},
      {Feature::avx512vl, 7, 0, &CpuidRegs::ebx, 31},
      {Feature::movdir64b, 7, 0, &CpuidRegs::ecx, 28},
      {Feature::fsrm, 7, 0, &CpuidRegs::edx, 4},
      {Feature::fzrm, 7, 1, &CpuidRegs::eax, 10},
      {Feature::fsrs, 7, 1, &CpuidRegs::eax, 11},
      {Feature::clzero, 0x80000008u, 0, &CpuidRegs::ebx, 0},
  };
  static_assert(std::size(bits) == size_t(Feature::count_) - 1, "a feature without its bit here");
  for (const Bit &b : bits) {
    Leaves l = basic_cpu(25, 17, 1);
    l.at(b.leaf, b.sub).*b.reg |= bit(b.n);
    const CpuInfo cpu = decode_cpu(l.source());
    for (size_t f = 1; f < size_t(Feature::count_); ++f)
      EXPECT_EQ(cpu.has(Feature(f)), Feature(f) == b.feature)
          << feature_name(b.feature) << "'s bit set; " << feature_name(Feature(f));
  }
}

TEST(cpu_Decode, VectorFeaturesOnlyWhereTheOsSavesTheirRegisters) {
  Leaves l = basic_cpu(25, 17, 1);
  l.at(1).ecx |= bit(28);                                       // AVX
  l.at(7).ebx |= bit(5) | bit(16) | bit(30) | bit(31) | bit(8); // AVX2, AVX512F/BW/VL, BMI2
  auto has = [&](uint64_t xcr0, Feature f) { return decode_cpu(l.source(xcr0)).has(f); };
  for (Feature f :
       {Feature::avx, Feature::avx2, Feature::avx512f, Feature::avx512bw, Feature::avx512vl}) {
    EXPECT_TRUE(has(0xe7, f)) << feature_name(f);
    EXPECT_FALSE(has(0x3, f)) << feature_name(f) << " with x87 and SSE state only";
  }
  // YMM saved, ZMM not (an OS, or a hypervisor, that leaves AVX-512 off): AVX and AVX2 only.
  EXPECT_TRUE(has(0x7, Feature::avx));
  EXPECT_TRUE(has(0x7, Feature::avx2));
  for (Feature f : {Feature::avx512f, Feature::avx512bw, Feature::avx512vl})
    EXPECT_FALSE(has(0x7, f)) << feature_name(f);
  EXPECT_FALSE(has(0x67, Feature::avx512f)) << "opmask and ZMM 0-15 without ZMM 16-31";
  // Not vector state: BMI2 whatever XCR0 says.
  EXPECT_TRUE(has(0x3, Feature::bmi2));
  // Without OSXSAVE, XCR0 is not read (xgetbv would fault): no vector feature.
  l.at(1).ecx &= ~bit(27);
  EXPECT_FALSE(has(0xe7, Feature::avx));
  EXPECT_FALSE(has(0xe7, Feature::avx512f));
}

TEST(cpu_Decode, NoLeafIsReadBeyondTheHighest) {
  // Highest basic leaf 1: leaf 7 answers with leaf 1's data, all ones in ebx and edx, which
  // would decode as AVX2, ERMS, AVX512F, FSRM, ...; it may not be read.
  Leaves l = basic_cpu(6, 207, 2);
  l.at(0).eax = 1;
  l.regs.erase({7, 0});
  l.regs.erase({7, 1});
  l.at(1).ebx = 0xffffffffu;
  l.at(1).edx = 0xffffffffu;
  l.at(0x80000000u).eax = 0x80000004u; // no leaf 0x80000008: CLZERO not read
  l.at(0x80000008u).ebx = bit(0);
  const CpuInfo cpu = decode_cpu(l.source());
  EXPECT_TRUE(cpu.has(Feature::sse2)); // leaf 1 is within range
  for (Feature f : {Feature::avx2, Feature::erms, Feature::fsrm, Feature::avx512f,
                    Feature::movdir64b, Feature::clzero})
    EXPECT_FALSE(cpu.has(f)) << feature_name(f);
  // No CPUID leaf at all: everything unknown.
  Leaves none;
  const CpuInfo empty = decode_cpu(none.source());
  EXPECT_EQ(empty.vendor, "");
  EXPECT_EQ(empty.family, 0u);
  EXPECT_FALSE(empty.has(Feature::sse2));
}

TEST(cpu_Caches, IntelLeaf4AndAmdLeaf8000001d) {
  auto with_caches = [](Leaves l, uint32_t leaf) {
    l.at(leaf, 0) = cache_leaf(1, 1, 12, 64, 2);     // L1d 48 KiB
    l.at(leaf, 1) = cache_leaf(2, 1, 8, 64, 2);      // L1i: not a data cache
    l.at(leaf, 2) = cache_leaf(3, 2, 16, 2048, 2);   // L2 2 MiB
    l.at(leaf, 3) = cache_leaf(3, 3, 16, 32768, 64); // L3 32 MiB
    return l;
  };
  Leaves intel = basic_cpu(6, 207, 2);
  set_vendor(intel, "GenuineIntel");
  intel.at(0).eax = 7;
  Leaves amd = basic_cpu(25, 17, 1);
  amd.at(0x80000000u).eax = 0x8000001du;
  amd.at(0x80000001u).ecx = bit(22); // TOPOEXT
  for (const CpuInfo &cpu : {decode_cpu(with_caches(intel, 4).source()),
                             decode_cpu(with_caches(amd, 0x8000001du).source())}) {
    EXPECT_EQ(cpu.l1d.size, 48u << 10) << cpu.vendor;
    EXPECT_EQ(cpu.l1d.shared_by, 2u);
    EXPECT_EQ(cpu.l2.size, 2u << 20);
    EXPECT_EQ(cpu.l3.size, 32u << 20);
    EXPECT_EQ(cpu.l3.shared_by, 64u);
    EXPECT_EQ(cpu.cache_note, "");
  }
  // Leaf 4 (Intel's) on an AMD CPU is not read: without TOPOEXT, the legacy descriptors.
  Leaves legacy = with_caches(basic_cpu(25, 17, 1), 4);
  legacy.at(0x80000000u).eax = 0x80000008u;
  legacy.at(0x80000005u).ecx = 32u << 24;  // L1d 32 KiB
  legacy.at(0x80000006u).ecx = 512u << 16; // L2 512 KiB
  legacy.at(0x80000006u).edx = 64u << 18;  // L3 64 x 512 KiB
  const CpuInfo cpu = decode_cpu(legacy.source());
  EXPECT_EQ(cpu.l1d.size, 32u << 10);
  EXPECT_EQ(cpu.l2.size, 512u << 10);
  EXPECT_EQ(cpu.l3.size, 32u << 20);
  EXPECT_EQ(cpu.l3.shared_by, 0u);
}

TEST(cpu_Caches, CpuidFirstAndWhereSysfsDisagreesANote) {
  Leaves l = basic_cpu(26, 2, 1);
  l.at(0x80000000u).eax = 0x8000001du;
  l.at(0x80000001u).ecx = bit(22);
  l.at(0x8000001du, 0) = cache_leaf(1, 1, 12, 64, 2);    // L1d 48 KiB
  l.at(0x8000001du, 1) = cache_leaf(3, 3, 16, 32768, 2); // L3 32 MiB; no L2 in CPUID
  CpuSource s = l.source();
  s.sysfs[1] = {48u << 10, 2};
  s.sysfs[2] = {1u << 20, 2};
  s.sysfs[3] = {256u << 20, 2}; // a hypervisor's sysfs against CPUID's 32 MiB
  const CpuInfo cpu = decode_cpu(s);
  EXPECT_EQ(cpu.l1d.size, 48u << 10);
  EXPECT_EQ(cpu.l2.size, 1u << 20) << "sysfs where CPUID says nothing";
  EXPECT_EQ(cpu.l3.size, 32u << 20) << "CPUID over sysfs";
  EXPECT_EQ(cpu.cache_note, "L2: CPUID gives nothing, sysfs says 1 MiB; using sysfs. "
                            "L3: CPUID says 32 MiB, sysfs says 256 MiB; using CPUID.");
}

} // namespace
} // namespace cjit::detail
