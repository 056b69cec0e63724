#include "jit/model/spec.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>

namespace cjit::detail {
namespace {

// clang-format off
// Defaults: loop methods store one 64-byte line per iteration; non-temporal stores and clzero
// start on a line boundary because write-combining buffers drain whole lines.
// Head methods (head=SIZE): the same stores without the non-temporal hint where there are such
// (movnti's 8-byte mov, movntdq's movdqu, vmovntdq's vmovdqu/vmovdqu64: the same registers,
// width and feature); clzero and movdir64b have none, so rep stosb, which needs no feature and
// allocates the lines it writes below Zen's no-allocate size (about the L3's; a head is meant
// to be a few MiB).
constexpr uint8_t U = kUntouched;            // every method may leave untouched pages alone
constexpr uint8_t E = kExtent | U;           // a method clearing the extent itself
constexpr uint8_t L = kUnroll | E;           // a store loop takes every option
constexpr uint8_t N = L | kHead;             // and a non-temporal one also a temporal head
constexpr std::array<MethodInfo, 13> kMethods{{
  //  method          name        stores                                  feature          store            w tail nt    options unroll align min_align head method
  {Method::stosb,    "stosb",    "rep stosb",                             Feature::none,   Store::rep_stosb, 1,  8, false, E,       0,  0,  0, Method::stosb},
  {Method::stosq,    "stosq",    "rep stosq, then one 8-byte tail store", Feature::none,   Store::rep_stosq, 8,  8, false, E,       0,  0,  0, Method::stosq},
  {Method::mov,      "mov",      "8-byte mov from a zeroed register",     Feature::none,   Store::move,      8,  8, false, L,       8,  0,  0, Method::mov},
  {Method::sse,      "sse",      "movdqu, 16 bytes",                      Feature::sse2,   Store::move,     16, 16, false, L,       4,  0,  0, Method::sse},
  {Method::avx2,     "avx2",     "vmovdqu, 32 bytes",                     Feature::avx2,   Store::move,     32, 32, false, L,       2,  0,  0, Method::avx2},
  {Method::avx512,   "avx512",   "vmovdqu64, 64 bytes",                   Feature::avx512f,Store::move,     64, 64, false, L,       1,  0,  0, Method::avx512},
  {Method::movnti,   "movnti",   "movnti, 8 bytes, non-temporal",         Feature::sse2,   Store::move,      8,  8, true,  N,       8, 64,  0, Method::mov},
  {Method::ntsse,    "ntsse",    "movntdq, 16 bytes, non-temporal",       Feature::sse2,   Store::move,     16, 16, true,  N,       4, 64, 16, Method::sse},
  {Method::ntavx2,   "ntavx2",   "vmovntdq, 32 bytes, non-temporal",      Feature::avx2,   Store::move,     32, 32, true,  N,       2, 64, 32, Method::avx2},
  {Method::ntavx512, "ntavx512", "vmovntdq, 64 bytes, non-temporal",      Feature::avx512f,Store::move,     64, 64, true,  N,       1, 64, 64, Method::avx512},
  {Method::clzero,   "clzero",   "clzero, one aligned 64-byte line",      Feature::clzero, Store::clzero,   64, 16, true,  N,       1, 64, 64, Method::stosb},
  {Method::movdir64b,"movdir64b","movdir64b, an aligned line from zeros", Feature::movdir64b, Store::movdir64b, 64, 16, true, N,    1, 64, 64, Method::stosb},
  {Method::libc,     "libc",     "the C library's memset(dst, 0, n)",     Feature::none,   Store::memset,    1,  8, false, U,       0,  0,  0, Method::libc},
}};
// clang-format on

// What the emitters and the parser rely on, checked for every row.
constexpr bool row_ok(const MethodInfo &mi, size_t index) {
  return size_t(mi.method) == index // info(m) is kMethods[m]
         && mi.takes(kUnroll) == mi.loop && (mi.default_unroll != 0) == mi.loop // unroll: loops
         && mi.takes(kUntouched)                                 // every method takes untouched
         && (mi.store == Store::memset) == (mi.options == U)     // memset nothing else
         && mi.default_align >= mi.min_align                     // defaults are valid specs
         && (mi.store != Store::clzero || mi.min_align == 64)    // clzero clears whole lines
         && (mi.store != Store::movdir64b || mi.min_align == 64) // movdir64b faults unaligned
         && (mi.store != Store::rep_stosb || mi.width == 1)      // no tail after rep stosb
         && mi.takes(kHead) == mi.nontemporal                    // head: non-temporal methods
         && (mi.takes(kHead) || mi.head_method == mi.method);    // the others name themselves
}
// A head method's main path follows the far part's in one function (emit.cpp): it stores
// temporally, clears the extent itself, needs no feature the method lacks (so unsupported_reason
// needs no rule of its own for head), stores from the vector register only if the method zeroed
// it, and its main path needs no more bytes than the method's (the small sizes leave it enough).
constexpr bool head_ok(const MethodInfo &mi) {
  if (!mi.takes(kHead)) return true;
  const MethodInfo &h = kMethods[size_t(mi.head_method)];
  auto vector = [](const MethodInfo &m) { return std::max(m.width, m.tail_width) >= 16; };
  return !h.nontemporal && !h.takes(kHead) && h.store != Store::memset &&
         (h.feature == Feature::none || h.feature == mi.feature) && (!vector(h) || vector(mi)) &&
         std::max({h.tail_width, h.default_align, h.width}) <= std::max(mi.tail_width, mi.width);
}
constexpr bool rows_ok() {
  for (size_t i = 0; i < kMethods.size(); ++i)
    if (!row_ok(kMethods[i], i) || !head_ok(kMethods[i])) return false;
  return true;
}
static_assert(rows_ok(), "a row of kMethods breaks a rule of row_ok or head_ok");

constexpr std::array<std::string_view, 3> kFenceNames{"none", "end", "chunk"};
constexpr std::array<std::string_view, 2> kUntouchedNames{"write", "skip"};

bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

std::optional<uint64_t> parse_uint(std::string_view t) {
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
  return v;
}

template <class Seq> std::string join(const Seq &seq) {
  std::string out;
  for (const auto &v : seq) {
    if (!out.empty()) out += ',';
    if constexpr (std::is_arithmetic_v<std::decay_t<decltype(v)>>)
      out += std::to_string(v);
    else
      out += v;
  }
  return out;
}

} // namespace

std::span<const MethodInfo> methods() { return kMethods; }

const MethodInfo &info(Method m) { return kMethods[size_t(m)]; }

std::optional<Method> method_by_name(std::string_view name) {
  for (const auto &mi : kMethods)
    if (mi.name == name) return mi.method;
  return std::nullopt;
}

const std::string &memset_spec() {
  static const std::string name = format_spec(default_spec(Method::libc));
  return name;
}

Spec default_spec(Method m) {
  const MethodInfo &mi = info(m);
  Spec s;
  s.method = m;
  s.unroll = mi.default_unroll;
  s.fence = mi.nontemporal ? Fence::end : Fence::none;
  s.align = mi.default_align;
  return s;
}

std::string quoted(std::string_view text, char quote) {
  constexpr size_t kMax = 40; // a spec is a few words; echo a long one in part, once
  const std::string q = quote ? std::string(1, quote) : "";
  size_t cut = std::min(text.size(), kMax);
  while (cut < text.size() && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
    --cut; // not inside a UTF-8 sequence
  std::string out = q;
  for (char c : text.substr(0, cut)) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) { // nothing for the terminal to obey
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", unsigned(static_cast<unsigned char>(c)));
      out += b;
    } else {
      out += c;
    }
  }
  if (cut == text.size()) return out + q;
  return out + "..." + q + " (" + std::to_string(text.size()) + " bytes)";
}

Result<Spec> parse_spec(std::string_view text) {
  using R = Result<Spec>;
  auto colon = text.find(':');
  std::string_view name = text.substr(0, colon);
  auto m = method_by_name(name);
  if (!m)
    return R::fail(name.empty() ? "empty method name in spec " + quoted(text)
                                : "unknown method " + quoted(name));
  const MethodInfo &mi = info(*m);
  Spec s = default_spec(*m);
  if (colon == std::string_view::npos) return {s, {}};

  std::string_view rest = text.substr(colon + 1);
  // Grammar order; option i is the bit 1 << i of MethodInfo::options (Option).
  const std::string_view order[] = {"unroll", "chunk", "fence", "align", "head", "untouched"};
  static_assert(kUnroll == 1 << 0 && kChunk == 1 << 1 && kFence == 1 << 2 && kAlign == 1 << 3 &&
                kHead == 1 << 4 && kUntouched == 1 << 5);
  constexpr size_t kOptions = std::size(order);
  bool seen[kOptions] = {};
  while (true) {
    auto comma = rest.find(',');
    std::string_view opt = rest.substr(0, comma);
    auto eq = opt.find('=');
    if (opt.empty()) return R::fail("empty option in spec " + quoted(text));
    if (eq == std::string_view::npos)
      return R::fail("option " + quoted(opt) + " needs a value (name=value)");
    std::string_view key = opt.substr(0, eq), val = opt.substr(eq + 1);
    size_t idx = 0;
    while (idx < kOptions && order[idx] != key)
      ++idx;
    if (idx == kOptions) return R::fail("unknown option " + quoted(key));
    if (seen[idx]) return R::fail("option " + quoted(key) + " given twice");
    seen[idx] = true;
    const std::string v = quoted(val, 0);
    if (!mi.takes(Option(1 << idx)))
      return R::fail(std::string(key) + " does not apply to " + std::string(mi.name) +
                     (key == "head" && mi.store != Store::memset
                          ? " (its stores are temporal; only the "
                            "non-temporal methods take a head)"
                          : ""));

    if (key == "unroll") {
      auto n = parse_uint(val);
      if (!n || std::find(kUnrolls.begin(), kUnrolls.end(), *n) == kUnrolls.end())
        return R::fail("unroll must be one of " + join(kUnrolls) + ", got " + v);
      s.unroll = unsigned(*n);
    } else if (key == "chunk") {
      std::string why;
      auto n = parse_size(val, &why);
      if (!n) return R::fail("chunk " + quoted(val) + " is not a size: " + why);
      if (*n != 0 && (!is_pow2(*n) || *n < 64))
        return R::fail("chunk must be 0 or a power of two >= 64, got " + v);
      s.chunk = *n;
    } else if (key == "fence") {
      auto f = std::find(kFenceNames.begin(), kFenceNames.end(), val);
      if (f == kFenceNames.end()) return R::fail("fence must be one of none,end,chunk, got " + v);
      s.fence = Fence(f - kFenceNames.begin());
    } else if (key == "head") {
      std::string why;
      auto n = parse_size(val, &why);
      if (!n) return R::fail("head " + quoted(val) + " is not a size: " + why);
      if (*n % kHeadUnit != 0 || *n > kMaxHead)
        return R::fail("head must be 0 or a multiple of 4K up to 1G, got " + v);
      s.head = *n;
    } else if (key == "untouched") {
      auto u = std::find(kUntouchedNames.begin(), kUntouchedNames.end(), val);
      if (u == kUntouchedNames.end())
        return R::fail("untouched must be one of write,skip, got " + v);
      s.untouched = Untouched(u - kUntouchedNames.begin());
    } else { // align
      auto n = parse_uint(val);
      if (!n || std::find(kAligns.begin(), kAligns.end(), *n) == kAligns.end())
        return R::fail("align must be one of " + join(kAligns) + ", got " + v);
      if (*n < mi.min_align)
        return R::fail(std::string(mi.name) + " needs align >= " + std::to_string(mi.min_align) +
                       " (its stores require aligned addresses), got " + v);
      s.align = unsigned(*n);
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (s.fence == Fence::chunk && s.chunk == 0)
    return R::fail("fence=chunk needs a chunk size (chunk=SIZE)");
  return {s, {}};
}

std::string format_spec(const Spec &s) {
  const MethodInfo &mi = s.info();
  Spec d = default_spec(s.method);
  std::string out(mi.name);
  char sep = ':';
  auto add = [&](std::string opt) {
    out += sep;
    out += opt;
    sep = ',';
  };
  if (s.unroll != d.unroll) add("unroll=" + std::to_string(s.unroll));
  if (s.chunk != d.chunk) add("chunk=" + format_size(s.chunk));
  if (s.fence != d.fence) add("fence=" + std::string(kFenceNames[size_t(s.fence)]));
  if (s.align != d.align) add("align=" + std::to_string(s.align));
  if (s.head != d.head) add("head=" + format_size(s.head));
  if (s.untouched != d.untouched)
    add("untouched=" + std::string(kUntouchedNames[size_t(s.untouched)]));
  return out;
}

std::string unsupported_reason(const Spec &s, const CpuInfo &cpu) {
  // A head's temporal stores need nothing more than the method (head_ok), so only its feature.
  const MethodInfo &mi = s.info();
  if (cpu.has(mi.feature)) return {};
  return std::string(mi.name) + " needs " + std::string(feature_name(mi.feature)) +
         ", which this CPU lacks";
}

} // namespace cjit::detail
