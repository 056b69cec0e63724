// Small-path strategies (small.hpp's table), composed from the block library (emitter.hpp):
// sizes 0..max cleared by a dispatcher itself, each leaf returning on its own (no shared exit,
// no jump to a jump).
#include "jit/emit/emitter.hpp"

#include "jit/emit/emit.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace cjit::detail {

using namespace asmjit;
using namespace asmjit::x86;

// A whole leaf for n in [s, 2s] (s == 0: n == 0, nothing to store): head_tail in stores up to
// `unit` wide, then ret.
void Emitter::head_tail_leaf(unsigned s, unsigned unit) {
  if (s == 0) return leave(false);
  const unsigned w = std::min(s, unit);
  if (w >= 16) zero_vector();
  head_tail(s, w, ptr(rdi, rsi));
  leave(w >= 32 && !z_.high);
}

// n in [0, 2 * top] by a balanced tree over the octaves 1, 2, 4, .. top (log2 compares). Leaf s
// takes (s, 2s], so a power of two is the top of the smaller octave: 2 stores of 128 bytes for
// n = 256, not 2 of 256.
void Emitter::octave_tree(unsigned top, unsigned unit, unsigned align) {
  std::vector<unsigned> sizes{0}; // leaf i clears n in [sizes[i], 2 * sizes[i]]
  std::vector<uint64_t> lower{0}; // the first n leaf i takes
  for (unsigned s = 1; s <= top; s *= 2) {
    lower.push_back(2 * sizes.back() + 1);
    sizes.push_back(s);
  }
  branch_tree(
      lower, [&](size_t i) { head_tail_leaf(sizes[i], unit); }, nullptr, align);
}

// Where sizes above `upto` go: straight to the classes when upto is max, else to the rungs
// rungs_above() emits last.
Label Emitter::above(const SmallFrame &f, unsigned upto) {
  return upto == f.max ? f.big : a_.newLabel();
}

// The octave rungs from `from` (see rungs()), bound at `l`; nothing when `l` is big.
void Emitter::rungs_above(const SmallFrame &f, const Label &l, unsigned from, unsigned unit) {
  if (l.id() == f.big.id()) return;
  bind_aligned(l, f.target_align);
  rungs(f, from, unit);
}

// Octave rungs in increasing order from `from` (a power of two, or 0): rung s clears (s, 2s]
// with head_tail_leaf(s) (n == 0 for s == 0); the last rung ends at max and sizes above go to
// big.
void Emitter::rungs(const SmallFrame &f, unsigned from, unsigned unit) {
  for (unsigned s = from; s < f.max; s = s ? 2 * s : 1) {
    const bool last = 2 * s >= f.max;
    Label next = a_.newLabel();
    cmp_n(last ? f.max + 1 : 2 * s + 1);
    last ? a_.jae(f.big) : a_.jae(next);
    head_tail_leaf(s, unit);
    if (last) return;
    bind_aligned(next, f.target_align);
  }
}

// The head of a masked store's path (masked, branchless): a prefetch of dst (a masked store
// waits for a missing line, a prefetch does not; see strategy_masked), then to `cross` when the 64
// bytes from dst cross a page, where masked stores are slow.
void Emitter::prefetch_or_cross(const Label &cross) {
  a_.prefetcht0(byte_ptr(rdi));
  a_.mov(eax, edi);
  a_.and_(eax, 4095);
  a_.cmp(eax, 4096 - 64);
  a_.ja(cross);
}

// k1 = the low min(n, 64) bits, for n up to `most`.
void Emitter::mask_low_n(unsigned most) {
  a_.mov(rax, -1);
  if (most >= 256) { // bzhi reads the low 8 bits of its index: 256 would read as 0
    a_.mov(ecx, 255);
    a_.cmp(esi, ecx);
    a_.cmovb(ecx, esi);
    a_.bzhi(rax, rax, rcx);
  } else {
    a_.bzhi(rax, rax, rsi); // an index of 64 or more keeps every bit
  }
  a_.kmovq(k1, rax);
}

// Today's shape: one compare against max, then a balanced tree of octaves (about log2(max)
// compares for every size), stores up to 32 bytes.
void Emitter::strategy_tree(const SmallFrame &f) {
  cmp_n(f.max + 1);
  a_.jae(f.big);
  octave_tree(f.max / 2, std::min(32u, f.widest), f.target_align);
}

// LLVM libc's inline_memset ladder: `if (n < 2) ... if (n < 4) ...` in increasing order, so the
// smallest (most common) sizes take the fewest branches; general registers below 16 bytes, then
// vector stores up to 32 bytes (a load of bytes just stored from a zmm register forwards
// slowly on AMD family 26 model 2 (Zen 5): 64-byte stores cost a caller that reads back; vec and
// masked use them).
void Emitter::strategy_ladder(const SmallFrame &f) { rungs(f, 0, std::min(32u, f.widest)); }

// glibc's memset-vec-unaligned shape: below one vector (V = 64, 32 or 16 bytes) a balanced tree
// of narrower head/tail stores; from V, one branch-free head/tail rung per octave of V-wide
// stores (2, 4, 8 .. stores covering [V, 2V], [2V, 4V], ..).
void Emitter::strategy_vec(const SmallFrame &f) {
  const unsigned v = f.widest;
  Label above = a_.newLabel();
  cmp_n(v);
  a_.jae(above);
  octave_tree(v / 2, v / 2, f.target_align);
  bind_aligned(above, f.target_align);
  rungs(f, v, v);
}

// glibc's AVX-512 memset (memset-vec-unaligned-erms, 2.36), its layout too: [64, 128] (two
// zmm stores, the head/tail pair) is the fall-through of both compares; below 64 bytes one
// masked store (bzhi builds the low-n-bits mask, kmovq, vmovdqu8 zmm{k1}; masked-out bytes are
// never written and cannot fault). Its one branch avoids a 64-byte window crossing a page,
// where masked stores are slow: those few go through a tree. Above 128 bytes, octave rungs of
// zmm head/tail stores.
// One addition: a prefetch of dst before the masked store. On AMD family 26 model 2 (Zen 5) a
// masked store to a line not in the cache holds up the stores after it until the line arrives; a
// prefetch issued just before starts the fill, and the masked store then costs what a plain one
// does (docs/design/small-path.md, masked's prefetch). It never faults and writes nothing, so
// n == 0 and any dst stay safe.
void Emitter::strategy_masked(const SmallFrame &f) {
  Label less = a_.newLabel(), more = above(f, 128), cross = a_.newLabel();
  cmp_n(64);
  a_.jb(less);
  cmp_n(128);
  a_.ja(more);

  head_tail_leaf(64, 64);
  bind_aligned(less, f.target_align);
  prefetch_or_cross(cross);
  mask_low_n(63);
  zero_vector();
  a_.k(k1).vmovdqu8(zmmword_ptr(rdi), zmm16);
  leave(false);
  bind_aligned(cross, f.target_align);
  octave_tree(32, 32, f.target_align);
  rungs_above(f, more, 128, 64);
}

// One `rep stosb` below 128 bytes: with FSRM (fast short rep mov; AMD Zen 3 and later also make
// short rep stosb fast) the microcode start-up is a few cycles, and there are no branches to
// mispredict on a mix of sizes. From 128 bytes rep stosb takes a slower microcode path, so
// 128..256 bytes take one leaf of head/tail stores of at most 32 bytes (which a load right after
// them can forward from), and larger sizes octave rungs of them. Exactly 64 bytes takes a
// head/tail leaf of them too: a load right after a 64-byte rep stosb waits for it. Few calls of a
// mix take that branch, so a mix pays little for it (docs/design/small-path.md, stosb).
void Emitter::strategy_stosb(const SmallFrame &f) {
  const unsigned unit = std::min(32u, f.widest), leaf_max = std::min(f.max, 256u);
  Label strings_end = a_.newLabel(), line = a_.newLabel(), more = above(f, leaf_max);
  cmp_n(128);
  a_.jae(strings_end);
  cmp_n(64);
  a_.je(line);
  a_.mov(rcx, rsi);
  a_.xor_(eax, eax);
  a_.rep().stosb();
  leave(false);
  bind_aligned(line, f.target_align);
  head_tail_leaf(32, unit); // n == 64
  bind_aligned(strings_end, f.target_align);
  cmp_n(leaf_max + 1);
  a_.jae(more);
  head_tail_leaf(128, unit); // n in [128, 256]
  rungs_above(f, more, 256, unit);
}

// Up to 256 bytes (128 with max 128) without a branch on n: zmm stores at dst + 0, p1, p2 and o3,
// all masked to the low min(n, 64) bytes, where
//   o3 = max(n - 64, 0)
//   p1 = o3 * 86 >> 8    (o3 / 3, rounded so that no gap exceeds 64)
//   p2 = o3 - p1
// Below 64 bytes every store is the same masked store at dst; from 64 every mask is full and the
// stores overlap inside [dst, dst + n):
//   n = 200: [0, 64) [45, 109) [91, 155) [136, 200)
// A branch on n mispredicts on a mix of sizes; these stores take the same time at every n: faster
// than memset on a mix, slower at most fixed sizes (docs/design/small-path.md, tried, not kept).
// Masked stores wait for a missing line (see masked), so each line is prefetched first: the
// stores' starts and the last byte are at most 64 bytes apart. Masked-out bytes reach 64 bytes
// past dst at most: a 64-byte window crossing a page goes to a tree, as in masked. Above the
// window, octave rungs of zmm head/tail stores.
void Emitter::strategy_branchless(const SmallFrame &f) {
  const unsigned window = std::min(f.max, 256u);
  Label cross = a_.newLabel(), more = above(f, window);
  cmp_n(window + 1);
  a_.jae(more);
  prefetch_or_cross(cross);
  mask_low_n(window);
  a_.xor_(edx, edx);
  a_.lea(rcx, ptr(rsi, -64));
  a_.cmp(rsi, 64);
  a_.cmovb(rcx, rdx); // o3
  zero_vector();
  a_.prefetcht0(byte_ptr(rdi, rsi, 0, -1));
  a_.k(k1).vmovdqu8(zmmword_ptr(rdi), zmm16);
  if (window == 256) {
    a_.imul(r8, rcx, 86);
    a_.shr(r8, 8); // p1
    a_.mov(r9, rcx);
    a_.sub(r9, r8); // p2
    a_.prefetcht0(byte_ptr(rdi, r8));
    a_.prefetcht0(byte_ptr(rdi, r9));
    a_.k(k1).vmovdqu8(zmmword_ptr(rdi, r8), zmm16);
    a_.k(k1).vmovdqu8(zmmword_ptr(rdi, r9), zmm16);
  }
  a_.prefetcht0(byte_ptr(rdi, rcx));
  a_.k(k1).vmovdqu8(zmmword_ptr(rdi, rcx), zmm16);
  leave(false);
  bind_aligned(cross, f.target_align);
  octave_tree(window / 2, 64, f.target_align);
  rungs_above(f, more, window, 64);
}

// memset itself: sizes up to max by a tail call (n == 0 too: memset writes nothing then, and the
// C library's memset is what every dispatcher's libc class calls as well).
void Emitter::strategy_libc(const SmallFrame &f) {
  cmp_n(f.max + 1);
  a_.jae(f.big);
  memset_jump();
}

// memset(dst, 0, n) by a direct jump (AsmJit goes through an address table where memset lies
// beyond a rel32 of the code): one indirect branch fewer than memset_tail_call on the path of
// the smallest sizes, where a dispatcher's own cost is most of a clear's.
void Emitter::memset_jump() {
  a_.mov(rdx, rsi);
  a_.xor_(esi, esi);
  a_.jmp(Imm(reinterpret_cast<uint64_t>(memset_target))); // the C library's under the preload
}

// The strategy's emitter. No default: -Werror=switch refuses a new row of small.cpp's table
// until it has its case here.
void Emitter::small_path(Small strategy, const SmallFrame &f) {
  switch (strategy) {
  case Small::tree: return strategy_tree(f);
  case Small::ladder: return strategy_ladder(f);
  case Small::vec: return strategy_vec(f);
  case Small::masked: return strategy_masked(f);
  case Small::stosb: return strategy_stosb(f);
  case Small::branchless: return strategy_branchless(f);
  case Small::libc: return strategy_libc(f);
  }
}

// With bands, a compare per band first (n below the band's end: to its strategy), then the
// path's own strategy; each strategy is emitted once, whole, for n up to max (the sizes its bands
// send are a part of those), so every strategy keeps its own shape and its own leaves.
void emit_small(Assembler &a, const SmallPath &p, const CpuInfo &cpu, const Label &big,
                unsigned target_align) {
  const unsigned widest = cpu.has(Feature::avx512f) ? 64 : cpu.has(Feature::avx) ? 32 : 16;
  Emitter e(a, Emitter::for_small(cpu));
  const SmallFrame f{p.max, big, target_align, widest};
  std::vector<std::pair<Small, Label>> entries; // a band's strategy's first instruction
  auto entry = [&](Small s) {
    for (const auto &[strategy, label] : entries)
      if (strategy == s) return label;
    entries.push_back({s, a.newLabel()});
    return entries.back().second;
  };
  for (const SmallBand &b : p.bands) {
    e.cmp_n(b.below);
    a.jb(entry(b.strategy));
  }
  for (const auto &[strategy, label] : entries)
    if (strategy == p.strategy) a.bind(label); // a band of the path's own strategy
  e.small_path(p.strategy, f);
  for (const auto &[strategy, label] : entries)
    if (strategy != p.strategy) {
      e.bind_aligned(label, target_align);
      // memset's band needs no bound of its own: every n its compare sends is below max.
      strategy == Small::libc ? e.memset_jump() : e.small_path(strategy, f);
    }
}

} // namespace cjit::detail
