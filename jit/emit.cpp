// Kernel code generation from shared blocks: store, cover, head_tail, small ladder, the head
// option's split, align head, body (string instruction or store loop), chunk loop, tail and exits.
//
// Register contract inside a kernel and a dispatcher's main paths:
//   rdi  cursor (dst on entry)      rsi  bytes left (n on entry)     r8  end = dst + n
//   rdx  bytes for this chunk       rcx  rep count / scratch          r9  loop end, r10 chunk size
//   rax  zero (stos source; clzero and movdir64b use it as their address, after which only
//        vector stores follow, or with head=SIZE rax zeroed again for the hot part's rep stosb);
//        rcx also movdir64b's source, a line of zeros in the red zone
//   r11  a dispatcher's class bound above INT32_MAX (cmp takes no imm64); in a main path with
//        head=SIZE, dst while the far part is cleared
//   xmm0/ymm0/zmm0  zero
// A dispatcher's small path (small.cpp) uses rax, rcx, rdx, r8, r9 and k1 besides
// (before any class code runs: it returns or jumps to the classes with rsi and rdi intact), and
// xmm16..zmm16.
// Only caller-saved registers are touched and no stack is used (but movdir64b's 64 bytes of the
// red zone, below rsp), so kernels need no frame.
#include "emit.hpp"

#include "codegen.hpp"
#include "profile.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace cjit::detail {
namespace {

using namespace asmjit;
using namespace asmjit::x86;

// Shared emit blocks. A kernel is prologue, small ladder, main path; a dispatcher is prologue,
// small ladder, a branch tree on n, and one main path per size class.
class Emitter {
public:
  Emitter(Assembler &a, bool vex) : a_(a), vex_(vex) {}

  // end = dst + n, zero registers.
  void prologue(bool vector_zero) {
    a_.lea(r8, ptr(rdi, rsi));
    a_.xor_(eax, eax);
    if (vector_zero) vex_ ? a_.vpxor(xmm0, xmm0, xmm0) : a_.pxor(xmm0, xmm0);
  }

  // n in [0, 2*s]: head_tail of the largest power of two <= n, with stores up to `unit` wide,
  // found by a balanced branch tree (4 compares for 0..256 bytes, not 8 in a row); jumps to
  // `exit` when done. With `stub_rungs` each leaf's stores are a listing comment instead
  // (emit_block's Block::ladder: the leaves have listings of their own, Block::rung).
  void small_ladder(unsigned s, unsigned unit, const Label &exit, bool stub_rungs = false) {
    unit_ = unit;
    std::vector<unsigned> sizes; // leaf i clears n in [sizes[i], 2 * sizes[i]]
    for (unsigned size = 1; size <= s; size *= 2)
      sizes.push_back(size);
    // Leaves lo..hi, where leaf -1 is n == 0 (nothing to touch).
    auto tree = [&](auto &&self, int lo, int hi) -> void {
      if (lo == hi) {
        if (lo >= 0 && stub_rungs) {
          const unsigned size = sizes[size_t(lo)];
          a_.comment(("; n in [" + std::to_string(size) + ", " + std::to_string(2 * size) +
                      "]: " + std::to_string(size) + " bytes at each end")
                         .c_str());
        } else if (lo >= 0) {
          head_tail(sizes[size_t(lo)]);
        }
        a_.jmp(exit);
        return;
      }
      int mid = (lo + hi + 1) / 2;
      a_.cmp(rsi, sizes[size_t(mid)]);
      if (lo == -1 && mid == 0) { // the left side is n == 0 alone
        a_.jb(exit);
      } else {
        Label upper = a_.newLabel();
        a_.jae(upper);
        self(self, lo, mid - 1);
        a_.bind(upper);
      }
      self(self, mid, hi);
    };
    tree(tree, -1, int(sizes.size()) - 1);
  }

  // Sizes above what the caller's small sizes took (more than twice the widest store and the
  // alignment, so there is room for head and tail): the method's stores over the extent, in the
  // blocks emit_block emits alone. Ends before the exit (vzeroupper, ret), which the caller
  // emits, except memset's, which ends in a tail call (memset returns to our caller), after
  // which nothing may follow.
  void main_path(const Spec &s) {
    use(s);
    if (mi_->store == Store::memset) return body(); // no extent of its own: the call clears it
    if (s_->head) return hot(true);
    extent();
  }

  // One block of the main path alone (emit_block); `chunks` leaves out the body (a comment).
  void block(Block b, const Spec &s) {
    use(s);
    switch (b) {
    case Block::frame:
    case Block::ladder:
    case Block::rung: break; // kernel()'s, not the main path's
    case Block::hot:
      if (s_->head) hot(false);
      break;
    case Block::head:
      if (s_->align) align_head();
      break;
    case Block::chunks: chunks([&] { a_.comment("; the body: one chunk's stores"); }); break;
    case Block::body: body(); break;
    case Block::tail: tail(); break;
    }
  }

  // One leaf of the small ladder alone: n in [size, 2*size], stores up to `unit` wide.
  void rung(unsigned size, unsigned unit) {
    unit_ = unit;
    head_tail(size);
  }

  void exit() {
    if (vex_) a_.vzeroupper();
    a_.ret();
  }

  // memset(dst, 0, n) as a tail call (callers that used a ymm register run vzeroupper first).
  void libc_tail_call() {
    a_.mov(rdx, rsi);
    a_.xor_(esi, esi);
    a_.mov(rax,
           reinterpret_cast<uint64_t>(static_cast<void *(*)(void *, int, size_t)>(&std::memset)));
    a_.jmp(rax);
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

  // Temporal stores covering `bytes` from base+disp, each min(bytes, unit_) wide.
  void cover(const Gp &base, int32_t disp, unsigned bytes) {
    unsigned unit = std::min(bytes, unit_);
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

  // The method's stores over [rdi, r8), rsi = r8 - rdi bytes, more than twice the ladder's S:
  // the align head, the chunks of the body, the tail and its fence.
  void extent() {
    if (s_->align) align_head();
    chunks([&] { body(); });
    tail();
  }

  // The head option, after the small sizes (which are all below a head): for n <= head the
  // head method's main path over the whole extent. Otherwise the far part [dst+head, end) by the
  // method's main path (extent: its align, chunks, tail and fence), then the hot part
  // [dst, dst+head) by the head method's, last, so that it is in cache on return and ordered
  // after the far part's fence. A far part of 2*S bytes or fewer (S the ladder's, kernel()'s)
  // starts 2*S+1 bytes before the end instead, in the hot part, which the temporal stores then
  // clear again: the main path needs more than 2*S bytes. r11 keeps dst meanwhile; rax is zeroed
  // again after the stores that use it as their address. Without `parts` the two main paths are
  // listing comments (Block::hot).
  void hot(bool parts) {
    const Spec &s = *s_;
    const MethodInfo &mi = *mi_;
    const Spec t = default_spec(mi.head_method);
    const uint32_t head = uint32_t(s.head); // at most kMaxHead: an imm32
    const uint32_t min_far = 2 * std::max({mi.tail_width, s.align, mi.width}) + 1;
    Label hot = a_.newLabel();
    a_.cmp(rsi, head);
    a_.jbe(hot);
    a_.mov(r11, rdi);
    a_.sub(rsi, head); // the far part's bytes: n - head, or min_far when that is fewer
    a_.mov(ecx, min_far);
    a_.cmp(rsi, rcx);
    a_.cmovb(rsi, rcx);
    a_.mov(rdi, r8);
    a_.sub(rdi, rsi);
    if (parts)
      extent();
    else
      a_.comment("; the far part: the method's main path");
    a_.mov(rdi, r11);
    a_.lea(r8, ptr(r11, int32_t(head)));
    a_.mov(esi, head);
    if (mi.store == Store::clzero || mi.store == Store::movdir64b) a_.xor_(eax, eax);
    a_.bind(hot);
    if (parts)
      main_path(t);
    else
      a_.comment(("; the hot part: the main path of " + format_spec(t)).c_str());
  }

  // Covers [dst, dst+align) with head stores, then moves the cursor to the next boundary.
  void align_head() {
    cover(rdi, 0, s_->align);
    a_.add(rdi, s_->align - 1);
    a_.and_(rdi, -int32_t(s_->align));
    a_.mov(rsi, r8);
    a_.sub(rsi, rdi);
  }

  void use(const Spec &s) {
    s_ = &s;
    mi_ = &s.info();
    unit_ = mi_->tail_width;
  }

  // The method's stores over rdx bytes from rdi (memset: the whole extent, by a tail call).
  // The one place a store kind becomes code. No default: -Werror=switch refuses a new kind
  // until it has its case here.
  void body() {
    switch (mi_->store) {
    case Store::rep_stosb:
      a_.mov(rcx, rdx);
      a_.rep().stosb();
      return;
    case Store::rep_stosq:
      a_.mov(rcx, rdx);
      a_.shr(rcx, 3);
      a_.rep().stosq();
      return;
    case Store::move: loops([&](const Mem &m) { store(m, mi_->width, mi_->nontemporal); }); return;
    case Store::clzero: // the line at m, which is aligned
      loops([&](const Mem &m) {
        a_.lea(rax, m);
        a_.clzero();
      });
      return;
    case Store::movdir64b: // the line at m, which is aligned, from the line of zeros at rcx
      // The source: a line of zeros in the red zone (the 128 bytes below rsp that the System V
      // ABI leaves to a leaf function), aligned, so the code holds no address and the line is
      // in L1.
      a_.lea(rcx, ptr(rsp, -65));
      a_.and_(rcx, -64);
      for (int32_t off = 0; off < 64; off += 16)
        store(ptr(rcx, off), 16, false);
      loops([&](const Mem &m) {
        a_.lea(rax, m);
        a_.movdir64b(ptr(rax), ptr(rcx));
      });
      return;
    case Store::memset: libc_tail_call(); return;
    }
  }

  // Splits [rdi, r8) into chunks of s_->chunk bytes; `body` clears rdx bytes from rdi,
  // advancing rdi (loops leave rdx mod width for tail()).
  void chunks(const auto &body) {
    if (!s_->chunk) {
      a_.mov(rdx, rsi);
      body();
      return;
    }
    Label next = a_.newLabel(), done = a_.newLabel();
    a_.mov(r10, s_->chunk);
    a_.bind(next);
    a_.mov(rdx, rsi);
    a_.cmp(rdx, r10);
    a_.cmova(rdx, r10);
    a_.sub(rsi, rdx);
    body();
    a_.test(rsi, rsi);
    a_.jz(done);
    if (s_->fence == Fence::chunk) a_.sfence();
    a_.jmp(next);
    a_.bind(done);
  }

  // Store loops over rdx bytes, `unit(m)` storing one main-store width at m.
  void loops(const auto &unit) {
    const unsigned w = mi_->width, block = w * s_->unroll;
    store_loop(block, 0, unit);
    if (s_->unroll > 1)
      store_loop(w, block - 1, unit); // what the unrolled loop left, one unit per iteration
  }

  // Stores `block` bytes per iteration over rdx (or rdx & mask when mask is set), rounded
  // down to whole blocks; r9 is where the loop ends.
  void store_loop(unsigned block, uint32_t mask, const auto &unit) {
    Label loop = a_.newLabel(), done = a_.newLabel();
    a_.mov(r9, rdx);
    a_.and_(r9, mask ? int32_t(mask & -block) : -int32_t(block));
    a_.add(r9, rdi);
    a_.cmp(rdi, r9);
    a_.je(done);
    a_.bind(loop);
    for (unsigned off = 0; off < block; off += mi_->width)
      unit(ptr(rdi, int32_t(off)));
    a_.add(rdi, block);
    a_.cmp(rdi, r9);
    a_.jne(loop);
    a_.bind(done);
  }

  // Bytes a body could not store (less than one main store) end the range: cover the last
  // unit, overlapping already-cleared bytes. n > width is guaranteed by the small sizes.
  // A width of 1 (rep stosb) leaves none. Then the end fence, after the last store.
  void tail() {
    if (mi_->width != 1) {
      Label done = a_.newLabel();
      a_.cmp(rdi, r8);
      a_.je(done);
      cover(r8, -int32_t(mi_->width), mi_->width);
      a_.bind(done);
    }
    if (s_->fence != Fence::none) a_.sfence();
  }

  Assembler &a_;
  bool vex_;
  const Spec *s_ = nullptr;
  const MethodInfo *mi_ = nullptr;
  unsigned unit_ = 8;
};

bool uses_avx(const MethodInfo &mi) {
  return mi.feature == Feature::avx || mi.feature == Feature::avx512f;
}

// Whether the method's heads, tails or main stores come from the vector register.
bool vector_stores(const MethodInfo &mi) {
  return mi.store != Store::memset && std::max(mi.width, mi.tail_width) >= 16;
}

// Which parts of a kernel kernel() emits: all for emit_kernel; emit_block takes them apart, each
// part left out a listing comment (no bytes) where it would be.
struct Parts {
  bool frame = true;     // end pointer and zero registers, the exit (vzeroupper, ret)
  bool ladder = true;    // the size check and the small ladder's branch tree
  bool rungs = true;     // the ladder's leaves (the tree without them is Block::ladder)
  bool main_path = true; // sizes above the ladder's
};

void kernel(Assembler &a, const Spec &s, Parts p) {
  const MethodInfo &mi = s.info();
  Emitter e(a, uses_avx(mi));
  Label exit = a.newLabel();
  if (mi.store == Store::memset) { // n == 0 returns without calling (dst may be NULL)
    a.test(rsi, rsi);
    a.jz(exit);
    if (p.main_path) e.main_path(s);
    a.bind(exit);
    a.ret();
    return;
  }
  if (p.frame) e.prologue(vector_stores(mi));
  // Up to 2*S bytes: overlapping head/tail stores, no loop set-up. S is at least the alignment
  // and the main store width, so the main path always has room for its head and tail.
  Label main = a.newLabel();
  if (p.ladder) {
    unsigned limit = std::max({mi.tail_width, s.align, mi.width});
    a.cmp(rsi, 2 * limit);
    a.ja(main);
    e.small_ladder(limit, mi.tail_width, exit, !p.rungs);
  } else {
    a.comment("; the small ladder: n up to 2*S, else on to the main path");
  }
  a.bind(main);
  if (p.main_path)
    e.main_path(s);
  else if (p.frame)
    a.comment("; the main path");
  a.bind(exit);
  if (p.frame) e.exit();
}

} // namespace

void emit_kernel(Assembler &a, const Spec &s) { kernel(a, s, {}); }

void emit_block(Assembler &a, Block b, const Spec &s, unsigned rung_size) {
  switch (b) {
  case Block::frame: return kernel(a, s, {.ladder = false, .main_path = false});
  case Block::ladder: return kernel(a, s, {.frame = false, .rungs = false, .main_path = false});
  case Block::rung: return Emitter(a, uses_avx(s.info())).rung(rung_size, s.info().tail_width);
  case Block::hot:
  case Block::head:
  case Block::chunks:
  case Block::body:
  case Block::tail: return Emitter(a, uses_avx(s.info())).block(b, s); // no jump leaves these
  }
}

void emit_class_tree(Assembler &a, const std::vector<SizeClass> &table, unsigned small_max,
                     const CpuInfo &cpu, Leaf leaf) {
  // With AVX every class uses VEX encodings (SSE classes too), so no kernel mixes legacy SSE
  // and AVX state; without it no class can need AVX (the loader refused such profiles).
  const bool avx = cpu.has(Feature::avx);
  Emitter e(a, avx);

  // Classes n > small_max can reach, with their lower bounds.
  std::vector<const SizeClass *> live;
  for (const SizeClass &c : table)
    if (!c.below || c.below > small_max + 1) live.push_back(&c);

  // A balanced branch tree on n over the class boundaries: log2(classes) compares, no table,
  // no indirect jump; each leaf is its class's main path, inline, ending in its own ret.
  auto tree = [&](auto &&self, size_t lo, size_t hi) -> void {
    if (lo == hi) {
      const Spec &kernel = live[lo]->kernel;
      const MethodInfo &mi = kernel.info();
      // The vector register is zeroed, and vzeroupper run, only where the kernel stores from it.
      const bool vector = vector_stores(mi);
      if (vector) avx ? a.vpxor(xmm0, xmm0, xmm0) : a.pxor(xmm0, xmm0);
      if (leaf == Leaf::stub)
        a.comment(("; main path of " + format_spec(kernel)).c_str());
      else
        e.main_path(kernel);
      if (mi.store == Store::memset) return; // a tail call: nothing follows
      if (vector && avx) a.vzeroupper();
      a.ret();
      return;
    }
    size_t mid = (lo + hi + 1) / 2;
    uint64_t bound = live[mid - 1]->below;
    Label upper = a.newLabel();
    if (bound <= uint64_t(INT32_MAX)) {
      a.cmp(rsi, int32_t(bound));
    } else {
      a.mov(r11, bound);
      a.cmp(rsi, r11);
    }
    a.jae(upper);
    self(self, lo, mid - 1);
    a.bind(upper);
    self(self, mid, hi);
  };
  // end = dst + n and rax = 0 (the stos source), for every main path.
  a.lea(r8, ptr(rdi, rsi));
  a.xor_(eax, eax);
  tree(tree, 0, live.size() - 1);
}

void emit_dispatcher(Assembler &a, const std::vector<SizeClass> &table, const SmallPath &small,
                     const CpuInfo &cpu) {
  // Sizes up to small.max: the small path, each of its leaves returning on its own.
  Label big = a.newLabel();
  emit_small(a, small, cpu, big);
  a.bind(big);
  emit_class_tree(a, table, small.max, cpu);
}

} // namespace cjit::detail
