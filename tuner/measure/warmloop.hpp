// The caller of warm measurements: one generated timing loop, copied to random places, from which
// every contender (memset, a kernel, a dispatcher) is called at the same addresses.
//
// Why: a warm call takes 2-3 ns, and where the *calling* loop lies moves that by a cycle or two.
// Compiled C++ loops are one instantiation per contender, each at its own address: on Zen 5
// glibc's memset took 1.72..2.33 ns per call from `clearjit bench`'s compiled loop and 2.18..2.49
// ns from this loop minutes later, and the same tree dispatcher went from 1.17x..1.52x of memset
// to 0.93x..1.24x (docs/results/amd-family26-model2/warm-caller.txt). Comparing from different
// loops measured the loops' luck, not the clearing code.
#pragma once

#include "tuner/measure/measure.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace cjit::detail {

//! A generated timing loop: `count` calls of `calls[i % kWarmCalls]` on `buf`, each through
//! `*slot` (a memory-indirect call, as a call through a function pointer or the GOT is).
//! Arguments per call:
//!  - pointer form: (buf + off, n & arg, n): with arg = 0 that is memset(dst, 0, n); with arg = ~0
//!    a ClearFn(dst, n) (it ignores the third register), so both run the same bytes;
//!  - exported form: (arg, buf + off, n), i.e. clearjit_clear(cj, dst, n) with arg = cj.
//! Reuse loops read the first and last byte back after each call. Returns the bytes read summed.
using WarmLoopFn = uint64_t (*)(const WarmCall *calls, uint8_t *buf, uint64_t count,
                                const void *const *slot, uint64_t arg);

//! The argument that makes the pointer form call memset(dst, 0, n) or a ClearFn(dst, n).
constexpr uint64_t kMemsetArg = 0, kClearFnArg = ~uint64_t(0);

//! How many places WarmLoops holds.
constexpr int kWarmLoopPlaces = 1024;

//! Timing loops at random places of one executable region, made on first use of a place. Place p
//! holds every form of the loop at the same offset modulo 4 KiB, so contenders of a place differ
//! only in what they call.
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
