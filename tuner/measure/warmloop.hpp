// The caller of warm measurements: one generated timing loop, copied to random places, from which
// every contender (memset, a kernel, a dispatcher) is called at the same addresses, since where
// the calling loop lies moves a warm call (docs/design/measuring.md, one timing loop).
#pragma once

#include "tuner/measure/measure.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace cjit::detail {

//! A generated timing loop: `count` calls of `calls[i % kWarmCalls]` on `buf`, each through
//! `*slot` (memory-indirect). Pointer form: (buf + off, n & arg, n), memset(dst, 0, n) with
//! arg = 0, a ClearFn(dst, n) with arg = ~0; exported form: (arg, buf + off, n), arg = cj.
//! Reuse loops read the first and last byte after each call; returns the bytes read summed.
using WarmLoopFn = uint64_t (*)(const WarmCall *calls, uint8_t *buf, uint64_t count,
                                const void *const *slot, uint64_t arg);

//! The argument that makes the pointer form call memset(dst, 0, n) or a ClearFn(dst, n).
constexpr uint64_t kMemsetArg = 0, kClearFnArg = ~uint64_t(0);

//! How many places WarmLoops holds.
constexpr int kWarmLoopPlaces = 1024;

//! Timing loops at random places of one executable region, made on first use; a place holds
//! every form at the same offset modulo 4 KiB, so its contenders differ only in what they call.
class WarmLoops {
public:
  WarmLoops();
  ~WarmLoops();
  WarmLoops(const WarmLoops &) = delete;
  WarmLoops &operator=(const WarmLoops &) = delete;

  WarmLoopFn at(int place, bool exported, bool reuse);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace cjit::detail
