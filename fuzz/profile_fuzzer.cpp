// libFuzzer target for the profile loader: any bytes must give a profile or an error message,
// never a crash, a leak or undefined behaviour.
#include "jit/profile/profile.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const cjit::detail::CpuInfo cpu = [] {
    cjit::detail::CpuInfo c; // every feature: kernels are parsed and checked, never run here
    c.vendor = "AuthenticAMD";
    c.features.fill(true);
    return c;
  }();
  auto p = cjit::detail::parse_profile(std::string_view(reinterpret_cast<const char *>(data), size),
                                       "fuzz.toml", cpu);
  if (p) {
    // A loaded profile must be usable: every size maps to a class.
    (void)cjit::detail::class_for(p->reuse, 0);
    (void)cjit::detail::class_for(p->table(cjit::detail::Intent::stream), ~uint64_t(0));
  } else if (p.error.empty()) {
    __builtin_trap(); // a refusal always says why
  }
  return 0;
}
