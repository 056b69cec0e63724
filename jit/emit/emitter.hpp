// The one emitter of generated code: the block library kernels, class trees (emit.cpp) and small
// paths (emit_small.cpp) are composed from (docs/design/kernels.md).
//
// Register contract of all generated code (System V: only caller-saved registers, no stack but
// movdir64b's 64 bytes of the red zone below rsp, so no frame):
//   rdi  cursor (dst on entry)      rsi  bytes left (n on entry)     r8  end = dst + n
//   rdx  bytes for this chunk       rcx  rep count / scratch          r9  loop end, r10 chunk size
//   rax  zero (stos source; clzero and movdir64b use it as their address, after which only
//        vector stores follow, or with head=SIZE rax zeroed again for the hot part's rep stosb);
//        rcx also movdir64b's source, a line of zeros in the red zone
//   r11  a class bound above INT32_MAX (cmp takes no imm64); in a main path with head=SIZE, dst
//        while the far part is cleared
//   xmm0/ymm0/zmm0  zero
// A small path returns, or jumps to the classes with rdi and rsi intact; scratch rax, rcx, rdx,
// r8, r9, k1; immediates for general-register stores; vector zeros from xmm16/ymm16/zmm16 with
// AVX512VL (no vzeroupper), else xmm0/ymm0 and vzeroupper after a ymm store
// (docs/design/small-path.md).
#pragma once

#include "jit/emit/emit.hpp"
#include "jit/model/small.hpp"
#include "jit/model/spec.hpp"
#include "jit/model/table.hpp"

#include <asmjit/x86.h>

#include <cstdint>
#include <functional>
#include <span>

namespace cjit::detail {

//! Which registers an emitter's stores take their zeros from, and how they are encoded.
struct ZeroSource {
  bool vex = false;       //!< VEX encodings (no legacy SSE next to AVX code)
  bool high = false;      //!< vector zeros in xmm16/ymm16/zmm16 (EVEX), else xmm0/ymm0/zmm0
  bool immediate = false; //!< general-register stores as `mov [m], 0`, else from rax/eax/ax/al
};

//! Where a small path's sizes go: `big` is where sizes above max continue (the classes).
struct SmallFrame {
  unsigned max;
  asmjit::Label big;
  unsigned target_align; //!< branch targets' alignment (kSmallTargetAlign; 1: none)
  unsigned widest;       //!< the widest vector store the CPU has: 16, 32 or 64
};

//! Which parts of a kernel Emitter::kernel emits: all for emit_kernel; emit_block takes them
//! apart, each part left out a listing comment (no bytes) where it would be.
struct KernelParts {
  bool frame = true;        //!< end pointer and zero registers, the exit (vzeroupper, ret)
  bool short_tree = true;   //!< the size check and the short tree's branches
  bool short_leaves = true; //!< the short tree's leaves (the tree without them: Block::short_tree)
  bool main_path = true;    //!< sizes above the short tree's
};

class Emitter {
public:
  Emitter(asmjit::x86::Assembler &a, ZeroSource z) : a_(a), z_(z) {}
  //! For a kernel of method `mi`: VEX where the method needs AVX2 or AVX-512, zeros from rax and
  //! xmm0.
  static ZeroSource for_kernel(const MethodInfo &mi);
  //! For a dispatcher's classes: VEX wherever the CPU has AVX (so no kernel mixes legacy SSE
  //! and AVX state), zeros from rax and xmm0.
  static ZeroSource for_classes(const CpuInfo &cpu);
  //! For a small path: immediates, and xmm16.. where the CPU has AVX512VL.
  static ZeroSource for_small(const CpuInfo &cpu);

  // Blocks (emit.cpp).

  //! One store of `width` zero bytes at m (non-temporal: `nt`).
  void store(asmjit::x86::Mem m, unsigned width, bool nt = false);
  //! Temporal stores covering `bytes` from m, each min(bytes, unit) wide.
  void cover(const asmjit::x86::Mem &m, unsigned bytes, unsigned unit);
  //! For n in [size, 2*size]: the first and the last `size` bytes, overlapping in the middle, in
  //! stores up to `unit` wide; `end` addresses dst + n.
  //!   [HHHHHHHH________]     head at dst
  //!   [________TTTTTTTT]     tail at end - size
  void head_tail(unsigned size, unsigned unit, const asmjit::x86::Mem &end);
  //! Zeroes the vector register the stores use.
  void zero_vector();
  //! cmp rsi, bound (through r11 above INT32_MAX).
  void cmp_n(uint64_t bound);
  //! A balanced branch tree on n (rsi) over leaves 0..k-1, leaf i taking n in [lower[i],
  //! lower[i+1]): log2(k) compares, jae to the upper half. `leaf(i)` must not fall through. With
  //! `first_leaf_exit`, leaf 0 is one jb there. Upper halves start at `align`-byte boundaries.
  void branch_tree(std::span<const uint64_t> lower, const std::function<void(size_t)> &leaf,
                   const asmjit::Label *first_leaf_exit = nullptr, unsigned align = 1);
  //! Binds `l` at an `align`-byte boundary (the code before it never falls through).
  void bind_aligned(const asmjit::Label &l, unsigned align);
  //! The one leaf epilogue: vzeroupper where the leaf left ymm0-15's upper halves dirty, ret.
  void leave(bool dirty_upper);
  //! The one store fence: after a chunk of non-temporal stores, or at the end of a kernel's.
  void fence();

  // Kernels and dispatchers (emit.cpp).

  //! A whole kernel for `s`, or the parts `p` names.
  void kernel(const Spec &s, KernelParts p = {});
  //! untouched=skip's entry: a tail call of clear_untouched (untouched.hpp) that has the function
  //! at `inner`, the kernel without the option, write the pages that must be written.
  void untouched_call(const asmjit::Label &inner);
  //! Sizes above the small sizes: the method's stores over the extent, before the caller's exit;
  //! memset's ends in a tail call, after which nothing may follow.
  void main_path(const Spec &s);
  //! One block of the main path alone (emit_block); `chunks` leaves out the body (a comment).
  void block(Block b, const Spec &s);
  //! One leaf of a kernel's short tree alone: n in [size, 2*size], stores up to `unit` wide.
  void short_leaf(unsigned size, unsigned unit);
  //! A dispatcher's tree over its size classes, each leaf a main path (or a listing comment).
  void class_tree(const std::vector<SizeClass> &table, unsigned small_max, bool stub_leaves);

  // Small paths (emit_small.cpp): sizes 0..f.max cleared and returned from, larger ones to f.big.

  void small_path(Small strategy, const SmallFrame &f);
  //! memset(dst, 0, n) by a direct jump: the small path's libc leaf.
  void memset_jump();

private:
  // Kernel parts (emit.cpp).
  void short_tree(unsigned s, unsigned unit, const asmjit::Label &exit, bool stub_leaves);
  void extent();
  void hot(bool parts);
  void align_prologue();
  void use(const Spec &s);
  void body();
  void chunks(const std::function<void()> &body);
  void store_loops(const std::function<void(const asmjit::x86::Mem &)> &unit);
  void store_loop(unsigned block, uint32_t mask,
                  const std::function<void(const asmjit::x86::Mem &)> &unit);
  void tail();
  void memset_tail_call();

  // Small-path parts and strategies (emit_small.cpp).
  void head_tail_leaf(unsigned s, unsigned unit);
  void octave_tree(unsigned top, unsigned unit, unsigned align);
  asmjit::Label above(const SmallFrame &f, unsigned upto);
  void rungs_above(const SmallFrame &f, const asmjit::Label &l, unsigned from, unsigned unit);
  void rungs(const SmallFrame &f, unsigned from, unsigned unit);
  void prefetch_or_cross(const asmjit::Label &cross);
  void mask_low_n(unsigned most);
  void strategy_tree(const SmallFrame &f);
  void strategy_ladder(const SmallFrame &f);
  void strategy_vec(const SmallFrame &f);
  void strategy_masked(const SmallFrame &f);
  void strategy_stosb(const SmallFrame &f);
  void strategy_branchless(const SmallFrame &f);
  void strategy_libc(const SmallFrame &f);

  asmjit::x86::Assembler &a_;
  ZeroSource z_;
  const Spec *s_ = nullptr;
  const MethodInfo *mi_ = nullptr;
};

} // namespace cjit::detail
