// Small-path strategies: sizes 0..max cleared by a dispatcher itself, each leaf returning on
// its own (no shared exit, no jump to a jump).
//
// Registers: rdi = dst, rsi = n (System V); rax, rcx, rdx, r8, r9 and k1 are scratch
// (caller-saved). Vector stores use
// xmm16/ymm16/zmm16 where the CPU has AVX512VL: registers 16-31 have no legacy-SSE alias, so
// using them leaves the upper halves of ymm0-15 alone and no vzeroupper is needed (glibc's EVEX
// memsets do the same). Otherwise xmm0/ymm0, with vzeroupper after a ymm store.
// General-register stores are `mov [m], 0` (an immediate: no register to zero first).
#include "small.hpp"

#include <algorithm>
#include <vector>

namespace cjit::detail {
namespace {

using namespace asmjit;
using namespace asmjit::x86;

class Gen {
public:
  explicit Gen(SmallContext &c)
      : a(c.a), max(c.max), big(c.big), target_align(c.target_align), avx(c.cpu.has(Feature::avx)),
        avx512(c.cpu.has(Feature::avx512f)), evex(avx512 && c.cpu.has(Feature::avx512vl)) {}

  Assembler &a;
  const unsigned max;
  const Label big;
  const unsigned target_align;
  const bool avx, avx512, evex;

  //! The widest vector store this CPU has.
  unsigned widest() const { return avx512 ? 64 : avx ? 32 : 16; }

  void zero_vector() {
    if (evex)
      a.vpxord(xmm16, xmm16, xmm16);
    else if (avx)
      a.vpxor(xmm0, xmm0, xmm0);
    else
      a.pxor(xmm0, xmm0);
  }

  void store(Mem m, unsigned width) {
    m.setSize(std::min(width, 8u));
    switch (width) {
    case 1:
    case 2:
    case 4:
    case 8: a.mov(m, 0); break;
    case 16:
      m.setSize(16), evex ? a.vmovdqu64(m, xmm16) : avx ? a.vmovdqu(m, xmm0) : a.movdqu(m, xmm0);
      break;
    case 32: m.setSize(32), evex ? a.vmovdqu64(m, ymm16) : a.vmovdqu(m, ymm0); break;
    case 64: m.setSize(64), a.vmovdqu64(m, evex ? zmm16 : zmm0); break;
    }
  }

  //! Returns from a leaf; vzeroupper only where this leaf stored from ymm0/zmm0.
  void ret_after(unsigned widest_store) {
    if (widest_store >= 32 && !evex) a.vzeroupper();
    a.ret();
  }

  //! A whole leaf for n in [s, 2s] (s == 0: n == 0, nothing to store): the first and the last s
  //! bytes, overlapping in the middle, in stores up to `unit` wide, then ret.
  //!   [HHHHHHHH________]     head at dst
  //!   [________TTTTTTTT]     tail at dst + n - s
  void head_tail_leaf(unsigned s, unsigned unit) {
    if (s == 0) {
      a.ret();
      return;
    }
    const unsigned w = std::min(s, unit);
    if (w >= 16) zero_vector();
    for (unsigned off = 0; off < s; off += w)
      store(ptr(rdi, int32_t(off)), w);
    for (unsigned off = 0; off < s; off += w)
      store(ptr(rdi, rsi, 0, int32_t(off) - int32_t(s)), w);
    ret_after(w);
  }

  void cmp_n(uint32_t bound) { a.cmp(rsi, int32_t(bound)); }

  //! Binds a branch target at a target_align boundary (kSmallTargetAlign says why). Every
  //! target follows a ret, so the padding never runs.
  void bind_aligned(const Label &l) {
    if (target_align > 1) a.align(AlignMode::kCode, target_align);
    a.bind(l);
  }

  //! n in [0, 2 * top] by a balanced tree over the octaves 1, 2, 4, .. top (log2 compares).
  //! Leaf s takes (s, 2s], so a power of two is the top of the smaller octave: 2 stores of
  //! 128 bytes for n = 256, not 2 of 256.
  void tree(unsigned top, unsigned unit) {
    std::vector<unsigned> sizes{0}; // leaf i clears n in [sizes[i], 2 * sizes[i]]
    for (unsigned s = 1; s <= top; s *= 2)
      sizes.push_back(s);
    auto node = [&](auto &&self, size_t lo, size_t hi) -> void {
      if (lo == hi) return head_tail_leaf(sizes[lo], unit);
      size_t mid = (lo + hi + 1) / 2;
      Label upper = a.newLabel();
      cmp_n(2 * sizes[mid - 1] + 1); // the first n leaf mid - 1 cannot take
      a.jae(upper);
      self(self, lo, mid - 1);
      bind_aligned(upper);
      self(self, mid, hi);
    };
    node(node, 0, sizes.size() - 1);
  }

  //! Where sizes above `upto` go: straight to the classes when upto is max, else to the rungs
  //! rungs_above() emits last.
  Label above(unsigned upto) { return upto == max ? big : a.newLabel(); }

  //! The octave rungs from `from` (see rungs()), bound at `l`; nothing when `l` is big.
  void rungs_above(const Label &l, unsigned from, unsigned unit) {
    if (l.id() == big.id()) return;
    bind_aligned(l);
    rungs(from, unit);
  }

  //! The head of a masked store's path (masked, branchless): a prefetch of dst (a masked store
  //! waits for a missing line, a prefetch does not; see emit_masked), then to `cross` when the
  //! 64 bytes from dst cross a page, where masked stores are slow.
  void prefetch_or_cross(const Label &cross) {
    a.prefetcht0(byte_ptr(rdi));
    a.mov(eax, edi);
    a.and_(eax, 4095);
    a.cmp(eax, 4096 - 64);
    a.ja(cross);
  }

  //! k1 = the low min(n, 64) bits, for n up to `most`.
  void mask_low_n(unsigned most) {
    a.mov(rax, -1);
    if (most >= 256) { // bzhi reads the low 8 bits of its index: 256 would read as 0
      a.mov(ecx, 255);
      a.cmp(esi, ecx);
      a.cmovb(ecx, esi);
      a.bzhi(rax, rax, rcx);
    } else {
      a.bzhi(rax, rax, rsi); // an index of 64 or more keeps every bit
    }
    a.kmovq(k1, rax);
  }

  //! Octave rungs in increasing order from `from` (a power of two, or 0): rung s clears
  //! (s, 2s] with head_tail_leaf(s) (n == 0 for s == 0); the last rung ends at max and sizes
  //! above go to big.
  void rungs(unsigned from, unsigned unit) {
    for (unsigned s = from; s < max; s = s ? 2 * s : 1) {
      const bool last = 2 * s >= max;
      Label next = a.newLabel();
      cmp_n(last ? max + 1 : 2 * s + 1);
      last ? a.jae(big) : a.jae(next);
      head_tail_leaf(s, unit);
      if (last) return;
      bind_aligned(next);
    }
  }
};

// Today's shape: one compare against max, then a balanced tree of octaves (about log2(max)
// compares for every size), stores up to 32 bytes.
void emit_tree(SmallContext &c) {
  Gen g(c);
  g.cmp_n(c.max + 1);
  g.a.jae(c.big);
  g.tree(c.max / 2, std::min(32u, g.widest()));
}

// LLVM libc's inline_memset ladder: `if (n < 2) ... if (n < 4) ...` in increasing order, so the
// smallest (most common) sizes take the fewest branches; general registers below 16 bytes, then
// vector stores up to 32 bytes (a load of bytes just stored from a zmm register forwards
// slowly on Zen 5: 64-byte stores cost a caller that reads back; vec and masked use them).
void emit_ladder(SmallContext &c) {
  Gen g(c);
  g.rungs(0, std::min(32u, g.widest()));
}

// glibc's memset-vec-unaligned shape: below one vector (V = 64, 32 or 16 bytes) a balanced tree
// of narrower head/tail stores; from V, one branch-free head/tail rung per octave of V-wide
// stores (2, 4, 8 .. stores covering [V, 2V], [2V, 4V], ..).
void emit_vec(SmallContext &c) {
  Gen g(c);
  const unsigned v = g.widest();
  Label above = g.a.newLabel();
  g.cmp_n(v);
  g.a.jae(above);
  g.tree(v / 2, v / 2);
  g.bind_aligned(above);
  g.rungs(v, v);
}

// glibc's AVX-512 memset (memset-vec-unaligned-erms, 2.36), its layout too: [64, 128] (two
// zmm stores, the head/tail pair) is the fall-through of both compares; below 64 bytes one
// masked store (bzhi builds the low-n-bits mask, kmovq, vmovdqu8 zmm{k1}; masked-out bytes are
// never written and cannot fault). Its one branch avoids a 64-byte window crossing a page,
// where masked stores are slow: those few go through a tree. Above 128 bytes, octave rungs of
// zmm head/tail stores.
// One addition: a prefetch of dst before the masked store. On Zen 5 a masked store to a line
// not in the cache holds up the stores after it until the line arrives; a prefetch issued just
// before starts the fill, and the masked store then costs what a plain one does (`clearjit
// bench`, stream, 8 B at cold consecutive destinations: 2.9 and 3.2 ns against memset's 7.2 and
// 9.2, the same masked store without it;
// docs/results/amd-family26-model2/bench-small-masked-prefetch.txt). It never faults and writes
// nothing, so n == 0 and any dst stay safe.
void emit_masked(SmallContext &c) {
  Gen g(c);
  Assembler &a = g.a;
  Label less = a.newLabel(), more = g.above(128), cross = a.newLabel();
  g.cmp_n(64);
  a.jb(less);
  g.cmp_n(128);
  a.ja(more);

  g.head_tail_leaf(64, 64);
  g.bind_aligned(less);
  g.prefetch_or_cross(cross);
  g.mask_low_n(63);
  g.zero_vector();
  a.k(k1).vmovdqu8(zmmword_ptr(rdi), zmm16);
  a.ret();
  g.bind_aligned(cross);
  g.tree(32, 32);
  g.rungs_above(more, 128, 64);
}

// One `rep stosb` below 128 bytes: with FSRM (fast short rep mov; AMD Zen 3 and later also make
// short rep stosb fast) the microcode start-up is a few cycles, and there are no branches to
// mispredict on a mix of sizes. From 128 bytes rep stosb takes another microcode path (on Zen 5
// 13.8 ns per call warm at 128 B, stream, against 2.9 at 96 B;
// docs/results/amd-family26-model2/tune-stosb-128.txt), so 128..256 bytes take one leaf of
// head/tail stores of at most 32 bytes (which a load right after them can forward from), and larger
// sizes octave rungs of them. Exactly 64 bytes takes a head/tail leaf of them too: a load right
// after a 64-byte rep stosb waits for it (on Zen 5, reuse, 1.05x memset's time at 64 B against
// 0.66..0.75x at 32..63 and 65..96 B; docs/results/amd-family26-model2/small-stosb-64.txt). Few
// calls of a mix take the branch (5% of the objects mix, which measured about 8% slower for it).
void emit_stosb(SmallContext &c) {
  Gen g(c);
  Assembler &a = g.a;
  const unsigned unit = std::min(32u, g.widest()), leaf_max = std::min(c.max, 256u);
  Label strings_end = a.newLabel(), line = a.newLabel(), more = g.above(leaf_max);
  g.cmp_n(128);
  a.jae(strings_end);
  g.cmp_n(64);
  a.je(line);
  a.mov(rcx, rsi);
  a.xor_(eax, eax);
  a.rep().stosb();
  a.ret();
  g.bind_aligned(line);
  g.head_tail_leaf(32, unit); // n == 64
  g.bind_aligned(strings_end);
  g.cmp_n(leaf_max + 1);
  a.jae(more);
  g.head_tail_leaf(128, unit); // n in [128, 256]
  g.rungs_above(more, 256, unit);
}

// Up to 256 bytes (128 with max 128) without a branch on n: zmm stores at dst + 0, p1, p2 and o3,
// all masked to the low min(n, 64) bytes, where
//   o3 = max(n - 64, 0)
//   p1 = o3 * 86 >> 8    (o3 / 3, rounded so that no gap exceeds 64)
//   p2 = o3 - p1
// Below 64 bytes every store is the same masked store at dst; from 64 every mask is full and the
// stores overlap inside [dst, dst + n):
//   n = 200: [0, 64) [45, 109) [91, 155) [136, 200)
// A branch on n mispredicts on a mix of sizes (on Zen 5 the tree took 2.4x memset's time on
// the log-uniform mix, 65536 calls); these stores take the same time at every n, about half
// memset's there, but at fixed sizes more than memset's in most runs
// (docs/results/amd-family26-model2/bench-small-branchless.txt). Masked stores
// wait for a missing line (see masked), so each line is prefetched first: the stores' starts
// and the last byte are at most 64 bytes apart. Masked-out bytes reach 64 bytes past dst at
// most: a 64-byte window crossing a page goes to a tree, as in masked. Above the window, octave
// rungs of zmm head/tail stores.
void emit_branchless(SmallContext &c) {
  Gen g(c);
  Assembler &a = g.a;
  const unsigned window = std::min(c.max, 256u);
  Label cross = a.newLabel(), more = g.above(window);
  g.cmp_n(window + 1);
  a.jae(more);
  g.prefetch_or_cross(cross);
  g.mask_low_n(window);
  a.xor_(edx, edx);
  a.lea(rcx, ptr(rsi, -64));
  a.cmp(rsi, 64);
  a.cmovb(rcx, rdx); // o3
  g.zero_vector();
  a.prefetcht0(byte_ptr(rdi, rsi, 0, -1));
  a.k(k1).vmovdqu8(zmmword_ptr(rdi), zmm16);
  if (window == 256) {
    a.imul(r8, rcx, 86);
    a.shr(r8, 8); // p1
    a.mov(r9, rcx);
    a.sub(r9, r8); // p2
    a.prefetcht0(byte_ptr(rdi, r8));
    a.prefetcht0(byte_ptr(rdi, r9));
    a.k(k1).vmovdqu8(zmmword_ptr(rdi, r8), zmm16);
    a.k(k1).vmovdqu8(zmmword_ptr(rdi, r9), zmm16);
  }
  a.prefetcht0(byte_ptr(rdi, rcx));
  a.k(k1).vmovdqu8(zmmword_ptr(rdi, rcx), zmm16);
  a.ret();
  g.bind_aligned(cross);
  g.tree(window / 2, 64);
  g.rungs_above(more, window, 64);
}

constexpr Feature N = Feature::none;

constexpr SmallInfo kStrategies[] = {
    {Small::tree,
     "tree",
     "a balanced branch tree of octaves, head/tail stores up to 32 bytes",
     {Feature::sse2, N, N, N},
     emit_tree},
    {Small::ladder,
     "ladder",
     "octave rungs in increasing order (smallest sizes fewest branches), general registers "
     "below 16 bytes, then vector stores up to 32 bytes",
     {Feature::sse2, N, N, N},
     emit_ladder},
    {Small::vec,
     "vec",
     "a tree below one vector, then branch-free head/tail rungs of the widest vector",
     {Feature::sse2, N, N, N},
     emit_vec},
    {Small::masked,
     "masked",
     "one AVX-512 masked store up to 64 bytes (page-cross guard), then zmm head/tail rungs",
     {Feature::avx512f, Feature::avx512bw, Feature::avx512vl, Feature::bmi2},
     emit_masked},
    {Small::stosb,
     "stosb",
     "one rep stosb below 128 bytes except at 64 (fast short strings), then head/tail stores up "
     "to 32 bytes",
     {Feature::erms, Feature::fsrm, N, N},
     emit_stosb},
    {Small::branchless,
     "branchless",
     "no branch on n up to 256 bytes: four overlapping AVX-512 stores masked to min(n, 64) bytes "
     "(page-cross guard), then zmm head/tail rungs",
     {Feature::avx512f, Feature::avx512bw, Feature::avx512vl, Feature::bmi2},
     emit_branchless},
};

} // namespace

std::span<const SmallInfo> small_strategies() { return kStrategies; }

const SmallInfo &info(Small s) { return kStrategies[size_t(s)]; }

std::optional<Small> small_by_name(std::string_view name) {
  for (const SmallInfo &i : kStrategies)
    if (i.name == name) return i.strategy;
  return std::nullopt;
}

bool valid_small_max(uint64_t max) {
  return std::find(std::begin(kSmallMaxes), std::end(kSmallMaxes), max) != std::end(kSmallMaxes);
}

std::string small_unsupported_reason(Small s, const CpuInfo &cpu) {
  for (Feature f : info(s).needs)
    if (!cpu.has(f))
      return "small path " + std::string(info(s).name) + " needs " + std::string(feature_name(f)) +
             ", which this CPU lacks";
  return "";
}

std::string describe(const SmallPath &p) {
  return std::string(info(p.strategy).name) + ", up to " + std::to_string(p.max) + " B";
}

void emit_small(Assembler &a, const SmallPath &p, const CpuInfo &cpu, const Label &big,
                unsigned target_align) {
  SmallContext c{a, cpu, p.max, big, target_align};
  info(p.strategy).emit(c);
}

} // namespace cjit::detail
