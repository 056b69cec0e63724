// The representative kernel set shared by the correctness and ABI tests: every method at its
// defaults plus enough variants that every option value and the risky combinations are generated.
#pragma once

#include "jit/model/spec.hpp"

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace cjit::detail::test {

//! Canonical spec texts (format_spec form, so each names a distinct kernel): every method of the
//! table at its defaults, then the variants below.
inline const std::vector<std::string> &representative_specs() {
  // clang-format off
  static const std::vector<std::string> variants = {
      // unroll: all values on mov (default 8), the extremes on the vector and nt methods.
      "mov:unroll=1", "mov:unroll=2", "mov:unroll=4", "mov:unroll=16",
      "sse:unroll=1", "sse:unroll=16", "avx2:unroll=1", "avx2:unroll=16",
      "avx512:unroll=4", "avx512:unroll=16", "movnti:unroll=1", "ntsse:unroll=16",
      "ntavx2:unroll=8", "ntavx512:unroll=2", "ntavx512:unroll=16",
      "clzero:unroll=4", "clzero:unroll=16", "movdir64b:unroll=4",
      // chunk: 64, 4K and 2M on the string methods, a loop method and clzero, plus odd ones.
      "stosb:chunk=64", "stosb:chunk=256", "stosb:chunk=4K", "stosb:chunk=2M",
      "stosq:chunk=64", "stosq:chunk=4K", "stosq:chunk=2M",
      "mov:chunk=64", "mov:chunk=4K", "mov:chunk=2M",
      "clzero:chunk=64", "clzero:chunk=4K", "clzero:chunk=2M", "ntavx2:chunk=128",
      "ntavx512:chunk=64",
      // A chunk smaller than one unrolled block: only the single-unit loop runs per chunk.
      "mov:unroll=16,chunk=64", "avx512:unroll=16,chunk=64", "clzero:unroll=16,chunk=64",
      // fence: end on temporal methods, none on nt methods, chunk on both. No nt kernel has
      // chunk=64 with fence=chunk: an sfence per line drains the write-combining buffers, ~0.2 s
      // per 64 MiB, and its code differs from mov:chunk=64,fence=chunk only in the stores.
      "stosb:fence=end", "mov:fence=end", "stosq:chunk=4K,fence=chunk",
      "mov:chunk=64,fence=chunk", "avx2:chunk=4K,fence=chunk",
      "movnti:fence=none", "ntavx2:fence=none", "clzero:fence=none",
      "ntsse:chunk=4K,fence=chunk", "clzero:chunk=4K,fence=chunk", "movdir64b:fence=none",
      "movdir64b:chunk=4K,fence=chunk",
      // align: every value the method accepts (nt methods have a minimum).
      "stosb:align=16", "stosb:align=64", "stosq:align=32",
      "mov:align=16", "mov:align=32", "mov:align=64", "sse:align=16", "sse:align=64",
      "avx2:align=32", "avx2:align=64", "avx512:align=16", "avx512:align=64",
      "movnti:align=0", "movnti:align=16", "movnti:align=32",
      "ntsse:align=16", "ntsse:align=32", "ntavx2:align=32",
      // Everything at once.
      "avx2:unroll=4,chunk=4K,fence=chunk,align=32",
      "ntsse:unroll=8,chunk=4K,fence=chunk,align=16",
      "movnti:unroll=2,chunk=2M,align=16",
      // head: every method that takes it (correctness_Head clears every size across the head),
      // with the far part's own options (chunks fenced per chunk, align, unroll, no fence) and
      // heads of one page, an odd number of pages and 64 KiB.
      "movnti:head=4K", "movnti:chunk=4K,fence=chunk,head=4K", "ntsse:align=16,head=64K",
      "ntavx2:head=4K", "ntavx2:head=8K", "ntavx2:unroll=4,chunk=4K,fence=chunk,align=32,head=12288",
      "ntavx512:head=8K", "ntavx512:unroll=4,fence=none,head=4K", "clzero:head=4K",
      "clzero:chunk=4K,fence=chunk,head=8K", "movdir64b:head=4K",
  };
  // clang-format on
  static const std::vector<std::string> specs = [] {
    std::vector<std::string> out;
    for (const MethodInfo &mi : methods())
      out.push_back(format_spec(default_spec(mi.method)));
    out.insert(out.end(), variants.begin(), variants.end());
    return out;
  }();
  return specs;
}

//! A gtest-safe test name for a spec: "mov:unroll=16,chunk=64" -> "mov_unroll_16_chunk_64".
inline std::string spec_test_name(std::string_view spec) {
  std::string out;
  for (char c : spec)
    out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

} // namespace cjit::detail::test
