// Kernel code generation from shared blocks: store, cover, head_tail, small ladder, align head,
// body (string instruction or store loop), chunk loop, tail and exits.
//
// Register contract inside a kernel:
//   rdi  cursor (dst on entry)      rsi  bytes left (n on entry)     r8  end = dst + n
//   rdx  bytes for this chunk       rcx  rep count / scratch          r9  loop end, r10 chunk size
//   rax  zero (stos source; clzero uses it as its address, after which only vector stores follow)
//   xmm0/ymm0/zmm0  zero
// Only caller-saved registers are touched and no stack is used, so kernels need no frame.
#include "codegen.hpp"

#include <algorithm>
#include <cstring>

namespace clearjit {
namespace {

using namespace asmjit;
using namespace asmjit::x86;

class KernelEmitter {
public:
  KernelEmitter(Assembler &a, const Spec &s) : a_(a), s_(s), mi_(s.info()) {
    vex_ = mi_.feature == Feature::avx || mi_.feature == Feature::avx512f;
    vector_zero_ = std::max(mi_.width, mi_.tail_width) >= 16;
  }

  void emit() {
    if (s_.method == Method::libc)
      return emit_libc();
    exit_plain_ = a_.newLabel();
    Label main = a_.newLabel();

    a_.lea(r8, ptr(rdi, rsi));
    a_.xor_(eax, eax);
    if (vector_zero_)
      vex_ ? a_.vpxor(xmm0, xmm0, xmm0) : a_.pxor(xmm0, xmm0);

    // Up to 2*S bytes: overlapping head/tail stores, no loop set-up. S is at least the alignment
    // and the main store width, so the main path below always has room for its head and tail.
    unsigned s = std::max({mi_.tail_width, s_.align, mi_.width});
    a_.cmp(rsi, 2 * s);
    a_.ja(main);
    small_ladder(s);

    a_.bind(main);
    if (s_.align)
      align_head();
    chunks();
    tail();
    if (s_.fence != Fence::none)
      a_.sfence();
    exit_plain();
  }

private:
  // One temporal or non-temporal store of `width` zero bytes at m.
  void store(Mem m, unsigned width, bool nt) {
    m.setSize(width);
    switch (width) {
    case 1: a_.mov(m, al); break;
    case 2: a_.mov(m, ax); break;
    case 4: a_.mov(m, eax); break;
    case 8: nt ? a_.movnti(m, rax) : a_.mov(m, rax); break;
    case 16:
      if (nt)
        vex_ ? a_.vmovntdq(m, xmm0) : a_.movntdq(m, xmm0);
      else
        vex_ ? a_.vmovdqu(m, xmm0) : a_.movdqu(m, xmm0);
      break;
    case 32: nt ? a_.vmovntdq(m, ymm0) : a_.vmovdqu(m, ymm0); break;
    case 64: nt ? a_.vmovntdq(m, zmm0) : a_.vmovdqu64(m, zmm0); break;
    }
  }

  // The method's own store of one main-loop unit at m (clzero: the line at m, which is aligned).
  void main_store(const Mem &m) {
    if (s_.method == Method::clzero) {
      a_.lea(rax, m);
      a_.clzero();
    } else {
      store(m, mi_.width, mi_.nontemporal);
    }
  }

  // Temporal stores covering `bytes` from base+disp, each min(bytes, tail_width) wide.
  void cover(const Gp &base, int32_t disp, unsigned bytes) {
    unsigned unit = std::min(bytes, mi_.tail_width);
    for (unsigned off = 0; off < bytes; off += unit)
      store(ptr(base, disp + int32_t(off)), unit, false);
  }

  // For n in [size, 2*size]: the first and the last `size` bytes, overlapping in the middle.
  //   [HHHHHHHH________]     head at dst
  //   [________TTTTTTTT]     tail at end - size
  void head_tail(unsigned size) {
    cover(rdi, 0, size);
    cover(r8, -int32_t(size), size);
  }

  // n in [0, 2*s]: try sizes s, s/2, ..., 1 and use head_tail of the first that fits.
  void small_ladder(unsigned s) {
    for (unsigned size = s; size >= 1; size /= 2) {
      Label next = a_.newLabel();
      a_.cmp(rsi, size);
      a_.jb(size == 1 ? exit_plain_ : next); // n == 0 touches nothing
      head_tail(size);
      a_.jmp(exit_plain_);
      a_.bind(next);
    }
  }

  // Covers [dst, dst+align) with head stores, then moves the cursor to the next boundary.
  void align_head() {
    cover(rdi, 0, s_.align);
    a_.add(rdi, s_.align - 1);
    a_.and_(rdi, -int32_t(s_.align));
    a_.mov(rsi, r8);
    a_.sub(rsi, rdi);
  }

  // Splits [rdi, r8) into chunks of s_.chunk bytes (one string instruction or loop run each).
  void chunks() {
    if (!s_.chunk) {
      a_.mov(rdx, rsi);
      body();
      return;
    }
    Label next = a_.newLabel(), done = a_.newLabel();
    a_.mov(r10, s_.chunk);
    a_.bind(next);
    a_.mov(rdx, rsi);
    a_.cmp(rdx, r10);
    a_.cmova(rdx, r10);
    a_.sub(rsi, rdx);
    body();
    a_.test(rsi, rsi);
    a_.jz(done);
    if (s_.fence == Fence::chunk)
      a_.sfence();
    a_.jmp(next);
    a_.bind(done);
  }

  // Clears rdx bytes from rdi, advancing rdi; loop methods leave rdx mod width for tail().
  void body() {
    if (mi_.string_op) {
      a_.mov(rcx, rdx);
      if (s_.method == Method::stosq) {
        a_.shr(rcx, 3);
        a_.rep().stosq();
      } else {
        a_.rep().stosb();
      }
      return;
    }
    const unsigned w = mi_.width, block = w * s_.unroll;
    store_loop(block, 0);
    if (s_.unroll > 1)
      store_loop(w, block - 1); // what the unrolled loop left, one unit per iteration
  }

  // Stores `block` bytes per iteration over rdx (or rdx & mask when mask is set), rounded
  // down to whole blocks; r9 is where the loop ends.
  void store_loop(unsigned block, uint32_t mask) {
    Label loop = a_.newLabel(), done = a_.newLabel();
    a_.mov(r9, rdx);
    a_.and_(r9, mask ? int32_t(mask & -block) : -int32_t(block));
    a_.add(r9, rdi);
    a_.cmp(rdi, r9);
    a_.je(done);
    a_.bind(loop);
    for (unsigned off = 0; off < block; off += mi_.width)
      main_store(ptr(rdi, int32_t(off)));
    a_.add(rdi, block);
    a_.cmp(rdi, r9);
    a_.jne(loop);
    a_.bind(done);
  }

  // Bytes a loop could not store (less than one unit) end the range: cover the last unit,
  // overlapping already-cleared bytes. n > width is guaranteed by the small ladder.
  void tail() {
    if (s_.method == Method::stosb)
      return;
    Label done = a_.newLabel();
    a_.cmp(rdi, r8);
    a_.je(done);
    cover(r8, -int32_t(mi_.width), mi_.width);
    a_.bind(done);
  }

  void exit_plain() {
    a_.bind(exit_plain_);
    if (vex_)
      a_.vzeroupper();
    a_.ret();
  }

  // memset(dst, 0, n) as a tail call; n == 0 returns without calling (dst may be NULL).
  void emit_libc() {
    Label done = a_.newLabel();
    a_.test(rsi, rsi);
    a_.jz(done);
    a_.mov(rdx, rsi);
    a_.xor_(esi, esi);
    a_.mov(rax, reinterpret_cast<uint64_t>(static_cast<void *(*)(void *, int, size_t)>(&std::memset)));
    a_.jmp(rax);
    a_.bind(done);
    a_.ret();
  }

  Assembler &a_;
  const Spec &s_;
  const MethodInfo &mi_;
  bool vex_ = false, vector_zero_ = false;
  Label exit_plain_;
};

} // namespace

void emit_kernel(Assembler &a, const Spec &s) { KernelEmitter(a, s).emit(); }

} // namespace clearjit
