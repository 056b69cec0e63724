// The block library (emitter.hpp) and the kernels and dispatchers composed from it: store,
// cover, head_tail, branch_tree, leave; a kernel's short tree, the head option's split, align
// head, body (string instruction or store loop), chunk loop, tail and exits.
#include "jit/emit/emitter.hpp"

#include "jit/emit/emit.hpp"
#include "jit/pages/untouched.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace cjit::detail {

using namespace asmjit;
using namespace asmjit::x86;

void *(*memset_target)(void *, int, size_t) = &std::memset;

namespace {

bool uses_avx(const MethodInfo &mi) {
  return mi.feature == Feature::avx2 || mi.feature == Feature::avx512f;
}

// Whether the method's heads, tails or main stores come from the vector register.
bool vector_stores(const MethodInfo &mi) {
  return mi.store != Store::memset && std::max(mi.width, mi.tail_width) >= 16;
}

// The kernel of `s` without untouched=skip: what the option's call writes with.
Spec written(Spec s) {
  s.untouched = Untouched::write;
  return s;
}

} // namespace

ZeroSource Emitter::for_kernel(const MethodInfo &mi) { return {.vex = uses_avx(mi)}; }

ZeroSource Emitter::for_classes(const CpuInfo &cpu) { return {.vex = cpu.has(Feature::avx)}; }

ZeroSource Emitter::for_small(const CpuInfo &cpu) {
  return {.vex = cpu.has(Feature::avx),
          .high = cpu.has(Feature::avx512f) && cpu.has(Feature::avx512vl),
          .immediate = true};
}

// ---- Blocks ----

void Emitter::store(Mem m, unsigned width, bool nt) {
  m.setSize(width);
  if (width <= 8 && z_.immediate && !nt) {
    a_.mov(m, 0);
    return;
  }
  switch (width) {
  case 1: a_.mov(m, al); break;
  case 2: a_.mov(m, ax); break;
  case 4: a_.mov(m, eax); break;
  case 8: nt ? a_.movnti(m, rax) : a_.mov(m, rax); break;
  case 16:
    if (nt)
      z_.vex ? a_.vmovntdq(m, xmm0) : a_.movntdq(m, xmm0);
    else if (z_.high)
      a_.vmovdqu64(m, xmm16);
    else
      z_.vex ? a_.vmovdqu(m, xmm0) : a_.movdqu(m, xmm0);
    break;
  case 32:
    nt ? a_.vmovntdq(m, ymm0) : z_.high ? a_.vmovdqu64(m, ymm16) : a_.vmovdqu(m, ymm0);
    break;
  case 64: nt ? a_.vmovntdq(m, zmm0) : a_.vmovdqu64(m, z_.high ? zmm16 : zmm0); break;
  }
}

void Emitter::cover(const Mem &m, unsigned bytes, unsigned unit) {
  const unsigned w = std::min(bytes, unit);
  for (unsigned off = 0; off < bytes; off += w) {
    Mem at = m;
    at.addOffset(int64_t(off));
    store(at, w);
  }
}

void Emitter::head_tail(unsigned size, unsigned unit, const Mem &end) {
  cover(ptr(rdi), size, unit);
  Mem tail = end;
  tail.addOffset(-int64_t(size));
  cover(tail, size, unit);
}

void Emitter::zero_vector() {
  if (z_.high)
    a_.vpxord(xmm16, xmm16, xmm16);
  else
    z_.vex ? a_.vpxor(xmm0, xmm0, xmm0) : a_.pxor(xmm0, xmm0);
}

void Emitter::cmp_n(uint64_t bound) {
  if (bound <= uint64_t(INT32_MAX)) {
    a_.cmp(rsi, int32_t(bound));
  } else {
    a_.mov(r11, bound);
    a_.cmp(rsi, r11);
  }
}

void Emitter::branch_tree(std::span<const uint64_t> lower, const std::function<void(size_t)> &leaf,
                          const Label *first_leaf_exit, unsigned align) {
  auto node = [&](auto &&self, size_t lo, size_t hi) -> void {
    if (lo == hi) return leaf(lo);
    const size_t mid = (lo + hi + 1) / 2;
    cmp_n(lower[mid]);
    if (first_leaf_exit && lo == 0 && mid == 1) { // the lower half is leaf 0, a jump: one jb
      a_.jb(*first_leaf_exit);
    } else {
      Label upper = a_.newLabel();
      a_.jae(upper);
      self(self, lo, mid - 1);
      bind_aligned(upper, align);
    }
    self(self, mid, hi);
  };
  node(node, 0, lower.size() - 1);
}

void Emitter::bind_aligned(const Label &l, unsigned align) {
  if (align > 1) a_.align(AlignMode::kCode, align);
  a_.bind(l);
}

void Emitter::leave(bool dirty_upper) {
  if (dirty_upper) a_.vzeroupper();
  a_.ret();
}

void Emitter::fence() { a_.sfence(); }

// ---- Kernels ----

void Emitter::kernel(const Spec &s, KernelParts p) {
  const MethodInfo &mi = s.info();
  Label exit = a_.newLabel();
  if (mi.store == Store::memset) { // n == 0 returns without calling (dst may be NULL)
    a_.test(rsi, rsi);
    a_.jz(exit);
    if (p.main_path) main_path(s);
    a_.bind(exit);
    leave(false);
    return;
  }
  if (p.frame) { // end = dst + n, zero registers
    a_.lea(r8, ptr(rdi, rsi));
    a_.xor_(eax, eax);
    if (vector_stores(mi)) zero_vector();
  }
  // Up to 2*S bytes: overlapping head/tail stores, no loop set-up. S is at least the alignment
  // and the main store width, so the main path always has room for its head and tail.
  Label main = a_.newLabel();
  if (p.short_tree) {
    const unsigned limit = std::max({mi.tail_width, s.align, mi.width});
    a_.cmp(rsi, 2 * limit);
    a_.ja(main);
    short_tree(limit, mi.tail_width, exit, !p.short_leaves);
  } else {
    a_.comment("; the short tree: n up to 2*S, else on to the main path");
  }
  a_.bind(main);
  if (p.main_path)
    main_path(s);
  else if (p.frame)
    a_.comment("; the main path");
  a_.bind(exit);
  if (p.frame) leave(z_.vex);
}

// n in [0, 2*s]: head_tail of the largest power of two <= n, with stores up to `unit` wide, found
// by a balanced branch tree (4 compares for 0..256 bytes, not 8 in a row); jumps to `exit` when
// done. Leaf 0 is n == 0 (nothing to touch). With `stub_leaves` each leaf's stores are a listing
// comment instead (emit_block's Block::short_tree: the leaves have listings of their own).
void Emitter::short_tree(unsigned s, unsigned unit, const Label &exit, bool stub_leaves) {
  std::vector<uint64_t> lower{0}; // leaf i > 0 clears n in [lower[i], 2 * lower[i]]
  for (unsigned size = 1; size <= s; size *= 2)
    lower.push_back(size);
  branch_tree(
      lower,
      [&](size_t i) {
        const unsigned size = unsigned(lower[i]);
        if (i > 0 && stub_leaves)
          a_.comment(("; n in [" + std::to_string(size) + ", " + std::to_string(2 * size) +
                      "]: " + std::to_string(size) + " bytes at each end")
                         .c_str());
        else if (i > 0)
          head_tail(size, unit, ptr(r8));
        a_.jmp(exit);
      },
      &exit);
}

void Emitter::main_path(const Spec &s) {
  use(s);
  if (mi_->store == Store::memset) return body(); // no extent of its own: the call clears it
  if (s_->head) return hot(true);
  extent();
}

void Emitter::block(Block b, const Spec &s) {
  use(s);
  switch (b) {
  case Block::frame:
  case Block::short_tree:
  case Block::short_leaf: break; // kernel()'s, not the main path's
  case Block::hot_head:
    if (s_->head) hot(false);
    break;
  case Block::prologue:
    if (s_->align) align_prologue();
    break;
  case Block::chunks: chunks([&] { a_.comment("; the body: one chunk's stores"); }); break;
  case Block::body: body(); break;
  case Block::tail: tail(); break;
  }
}

void Emitter::short_leaf(unsigned size, unsigned unit) { head_tail(size, unit, ptr(r8)); }

// memset(dst, 0, n) as a tail call (callers that used a ymm register run vzeroupper first).
void Emitter::memset_tail_call() {
  a_.mov(rdx, rsi);
  a_.xor_(esi, esi);
  a_.mov(rax, reinterpret_cast<uint64_t>(memset_target));
  a_.jmp(rax);
}

// untouched=skip: clear_untouched(inner, dst, n, kUntouchedFloor) as a tail call, `inner` the
// kernel without the option (a function of this code, bound by the caller), called by it on the
// parts that must be written.
void Emitter::untouched_call(const Label &inner) {
  static_assert(kUntouchedFloor <= UINT32_MAX);
  a_.mov(rdx, rsi);
  a_.mov(rsi, rdi);
  a_.lea(rdi, ptr(inner));
  a_.mov(ecx, uint32_t(kUntouchedFloor));
  a_.mov(rax, reinterpret_cast<uint64_t>(&clear_untouched));
  a_.jmp(rax);
}

// The method's stores over [rdi, r8), rsi = r8 - rdi bytes, more than twice the short tree's S:
// the align head, the chunks of the body, the tail and its fence.
void Emitter::extent() {
  if (s_->align) align_prologue();
  chunks([&] { body(); });
  tail();
}

// The head option, after the small sizes (which are all below a head): for n <= head the
// head method's main path over the whole extent. Otherwise the far part [dst+head, end) by the
// method's main path (extent: its align, chunks, tail and fence), then the hot part
// [dst, dst+head) by the head method's, last, so that it is in cache on return and ordered
// after the far part's fence. A far part of 2*S bytes or fewer (S the short tree's, kernel()'s)
// starts 2*S+1 bytes before the end instead, in the hot part, which the temporal stores then
// clear again: the main path needs more than 2*S bytes. r11 keeps dst meanwhile; rax is zeroed
// again after the stores that use it as their address. Without `parts` the two main paths are
// listing comments (Block::hot_head).
void Emitter::hot(bool parts) {
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
  use(s); // not left pointing at `t`, which ends here
}

// Covers [dst, dst+align) with head stores, then moves the cursor to the next boundary.
void Emitter::align_prologue() {
  cover(ptr(rdi), s_->align, mi_->tail_width);
  a_.add(rdi, s_->align - 1);
  a_.and_(rdi, -int32_t(s_->align));
  a_.mov(rsi, r8);
  a_.sub(rsi, rdi);
}

void Emitter::use(const Spec &s) {
  s_ = &s;
  mi_ = &s.info();
}

// The method's stores over rdx bytes from rdi (memset: the whole extent, by a tail call).
// The one place a store kind becomes code. No default: -Werror=switch refuses a new kind
// until it has its case here.
void Emitter::body() {
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
  case Store::move:
    store_loops([&](const Mem &m) { store(m, mi_->width, mi_->nontemporal); });
    return;
  case Store::clzero: // the line at m, which is aligned
    store_loops([&](const Mem &m) {
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
      store(ptr(rcx, off), 16);
    store_loops([&](const Mem &m) {
      a_.lea(rax, m);
      a_.movdir64b(ptr(rax), ptr(rcx));
    });
    return;
  case Store::memset: memset_tail_call(); return;
  }
}

// Splits [rdi, r8) into chunks of s_->chunk bytes; `body` clears rdx bytes from rdi,
// advancing rdi (loops leave rdx mod width for tail()).
void Emitter::chunks(const std::function<void()> &body) {
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
  if (s_->fence == Fence::chunk) fence();
  a_.jmp(next);
  a_.bind(done);
}

// Store loops over rdx bytes, `unit(m)` storing one main-store width at m: the unrolled loop,
// then what it left one unit per iteration; tail() stores what is left after them.
void Emitter::store_loops(const std::function<void(const Mem &)> &unit) {
  const unsigned w = mi_->width, block = w * s_->unroll;
  store_loop(block, 0, unit);
  if (s_->unroll > 1) store_loop(w, block - 1, unit);
}

// Stores `block` bytes per iteration over rdx (or rdx & mask when mask is set), rounded
// down to whole blocks; r9 is where the loop ends.
void Emitter::store_loop(unsigned block, uint32_t mask,
                         const std::function<void(const Mem &)> &unit) {
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
void Emitter::tail() {
  if (mi_->width != 1) {
    Label done = a_.newLabel();
    a_.cmp(rdi, r8);
    a_.je(done);
    cover(ptr(r8, -int32_t(mi_->width)), mi_->width, mi_->tail_width);
    a_.bind(done);
  }
  if (s_->fence != Fence::none) fence();
}

// ---- Dispatchers ----

void Emitter::class_tree(const std::vector<SizeClass> &table, unsigned small_max,
                         bool stub_leaves) {
  // Classes n > small_max can reach, with their lower bounds.
  std::vector<const SizeClass *> live;
  std::vector<uint64_t> lower;
  for (const SizeClass &c : table)
    if (!c.below || c.below > small_max + 1) {
      lower.push_back(live.empty() ? small_max + 1 : live.back()->below);
      live.push_back(&c);
    }
  // end = dst + n and rax = 0 (the stos source), for every main path.
  a_.lea(r8, ptr(rdi, rsi));
  a_.xor_(eax, eax);
  // Each leaf is its class's main path, inline, ending in its own ret; or, with untouched=skip,
  // the call that leaves untouched pages alone, its kernel a function after the tree.
  std::vector<std::pair<Label, Spec>> called;
  branch_tree(lower, [&](size_t i) {
    const Spec &kernel = live[i]->kernel;
    const MethodInfo &mi = kernel.info();
    if (kernel.untouched == Untouched::skip && !stub_leaves) {
      called.emplace_back(a_.newLabel(), written(kernel));
      return untouched_call(called.back().first);
    }
    // The vector register is zeroed, and vzeroupper run, only where the kernel stores from it.
    const bool vector = vector_stores(mi);
    if (vector) zero_vector();
    if (stub_leaves)
      a_.comment(("; main path of " + format_spec(kernel)).c_str());
    else
      main_path(kernel);
    if (mi.store == Store::memset) return; // a tail call: nothing follows
    leave(vector && z_.vex);
  });
  for (const auto &[label, kernel] : called) {
    bind_aligned(label, 16);
    emit_kernel(a_, kernel);
  }
}

void emit_kernel(Assembler &a, const Spec &s) {
  Emitter e(a, Emitter::for_kernel(s.info()));
  if (s.untouched == Untouched::skip) {
    Label inner = a.newLabel();
    e.untouched_call(inner);
    e.bind_aligned(inner, 16);
    return emit_kernel(a, written(s));
  }
  e.kernel(s);
}

void emit_block(Assembler &a, Block b, const Spec &s, unsigned leaf_size) {
  Emitter e(a, Emitter::for_kernel(s.info()));
  switch (b) {
  case Block::frame: return e.kernel(s, {.short_tree = false, .main_path = false});
  case Block::short_tree:
    return e.kernel(s, {.frame = false, .short_leaves = false, .main_path = false});
  case Block::short_leaf: return e.short_leaf(leaf_size, s.info().tail_width);
  case Block::hot_head:
  case Block::prologue:
  case Block::chunks:
  case Block::body:
  case Block::tail: return e.block(b, s); // no jump leaves these
  }
}

void emit_class_tree(Assembler &a, const std::vector<SizeClass> &table, unsigned small_max,
                     const CpuInfo &cpu, Leaf leaf) {
  Emitter(a, Emitter::for_classes(cpu)).class_tree(table, small_max, leaf == Leaf::stub);
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
