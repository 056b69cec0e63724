#include "tuner/stages/candidates.hpp"

#include <algorithm>

namespace cjit::detail {

std::optional<Level> level_by_name(std::string_view name) {
  if (name == "quick") return Level::quick;
  if (name == "default") return Level::default_;
  if (name == "exhaustive") return Level::exhaustive;
  return std::nullopt;
}

std::string_view level_name(Level l) {
  constexpr std::string_view names[] = {"quick", "default", "exhaustive"};
  return names[size_t(l)];
}

Spec fenced_per_chunk(Spec s) {
  s.chunk = 4096;
  s.fence = Fence::chunk;
  return s;
}

std::vector<Spec> candidates(Level level) {
  std::vector<Spec> out;
  auto add = [&](Spec s) {
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  };
  for (const MethodInfo &mi : methods()) {
    const Spec d = default_spec(mi.method);
    add(d);
    if (level == Level::quick) continue;
    if (mi.loop)
      for (unsigned u : kUnrolls)
        if (level == Level::exhaustive || (u >= d.unroll / 2 && u <= d.unroll * 4)) {
          Spec s = d;
          s.unroll = u;
          add(s);
        }
    if (mi.string_op)
      for (uint64_t c : kStudyChunks) { // 0 is d, already there
        Spec s = d;
        s.chunk = c;
        add(s);
      }
    if (mi.nontemporal) add(fenced_per_chunk(d)); // the fence study
    if (mi.takes(kHead))
      for (uint64_t h : kHotHeads) {
        Spec s = d;
        s.head = h;
        add(s);
      }
    if (mi.method != Method::libc && d.align == 0) {
      Spec s = d;
      s.align = 64;
      add(s);
    }
    if (level == Level::exhaustive && mi.method != Method::libc) {
      for (unsigned a : kAligns)
        for (uint64_t c : {uint64_t(0), uint64_t(4096), uint64_t(2) << 20}) {
          if (a < mi.min_align) continue;
          Spec s = d;
          s.align = a;
          s.chunk = c;
          add(s);
        }
    }
  }
  return out;
}

std::optional<Spec> widest_runnable(const CpuInfo &cpu,
                                    const std::function<bool(const MethodInfo &)> &admits) {
  const MethodInfo *best = nullptr;
  for (const MethodInfo &mi : methods())
    if (admits(mi) && unsupported_reason(default_spec(mi.method), cpu).empty() &&
        (!best || mi.width > best->width))
      best = &mi;
  if (!best) return std::nullopt;
  return default_spec(best->method);
}

std::vector<Spec> batch_candidates(const CpuInfo &cpu) {
  std::vector<Spec> out{default_spec(Method::libc)}, lines;
  std::optional<Spec> string; // the first string op
  for (const MethodInfo &mi : methods()) {
    const Spec d = default_spec(mi.method);
    if (mi.store == Store::memset || !unsupported_reason(d, cpu).empty()) continue;
    if (mi.string_op && !string) string = d;
    if (!mi.string_op && mi.store != Store::move) lines.push_back(d);
  }
  const auto moves = [](bool nt) {
    return [nt](const MethodInfo &mi) { return mi.store == Store::move && mi.nontemporal == nt; };
  };
  for (const std::optional<Spec> &s :
       {string, widest_runnable(cpu, moves(false)), widest_runnable(cpu, moves(true))})
    if (s) out.push_back(*s);
  out.insert(out.end(), lines.begin(), lines.end());
  return out;
}

} // namespace cjit::detail
