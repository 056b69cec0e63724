#include "tuner/measure/warmloop.hpp"

#include "jit/emit/emit.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>

namespace cjit::detail {
namespace {

using namespace asmjit::x86;

constexpr int kForms = 4;                      // pointer/exported x stream/reuse
constexpr size_t kQuarter = size_t(256) << 10; // one form's share of the region
constexpr size_t kSlot = 256;                  // a place's room: more than a loop's bytes
constexpr size_t kSlots = kQuarter / kSlot;    // places the region can hold
constexpr size_t kRegion = kQuarter * kForms;
static_assert(kSlots == size_t(kWarmLoopPlaces));

int form(bool exported, bool reuse) { return int(exported) * 2 + int(reuse); }

// Callee-saved registers hold the loop's state across the call; the clearing code may clobber
// every other one (System V).
void emit_warm_loop(Assembler &a, bool exported, bool reuse) {
  const Gp calls = rbx, buf = rbp, count = r12, slot = r13, arg = r14, i = r15;
  for (const Gp &r : {rbx, rbp, r12, r13, r14, r15})
    a.push(r);
  a.sub(rsp, 8);            // six pushes and the return address: the call needs rsp 16-aligned
  a.mov(qword_ptr(rsp), 0); // sum of the bytes read back
  a.mov(calls, rdi);
  a.mov(buf, rsi);
  a.mov(count, rdx);
  a.mov(slot, rcx);
  a.mov(arg, r8);
  a.xor_(i.r32(), i.r32());
  asmjit::Label top = a.newLabel(), done = a.newLabel();
  a.test(count, count);
  a.jz(done);
  a.bind(top);
  auto load_call = [&](const Gp &dst, const Gp &n) { // dst = buf + calls[i].off, n = calls[i].n
    a.mov(eax, i.r32());
    a.and_(eax, uint32_t(kWarmCalls - 1));
    a.mov(dst.r32(), dword_ptr(calls, rax, 3));
    a.mov(n.r32(), dword_ptr(calls, rax, 3, 4));
    a.add(dst, buf);
  };
  load_call(rdi, rdx);
  if (exported) {
    a.mov(rsi, rdi);
    a.mov(rdi, arg);
  } else {
    a.mov(rsi, rdx);
    a.and_(rsi, arg);
  }
  a.call(qword_ptr(slot));
  if (reuse) { // what a caller that reuses the memory does at the least
    load_call(rcx, rdx);
    a.movzx(eax, byte_ptr(rcx));
    a.movzx(edx, byte_ptr(rcx, rdx, 0, -1));
    a.add(eax, edx);
    a.add(qword_ptr(rsp), rax);
  }
  a.inc(i);
  a.cmp(i, count);
  a.jne(top);
  a.bind(done);
  a.mov(rax, qword_ptr(rsp));
  a.add(rsp, 8);
  for (const Gp &r : {r15, r14, r13, r12, rbp, rbx})
    a.pop(r);
  a.ret();
}

} // namespace

struct WarmLoops::Impl {
  std::unique_ptr<GeneratedCode> forms[kForms];
  size_t longest = 0; // bytes of the longest form
  uint8_t *region = nullptr;
  std::vector<size_t> places; // byte offset of each place within a quarter
  std::vector<bool> taken = std::vector<bool>(kSlots);
  std::mt19937_64 rng{0x100b5};
};

WarmLoops::WarmLoops() : impl_(std::make_unique<Impl>()) {
  for (bool exported : {false, true})
    for (bool reuse : {false, true}) {
      auto g =
          generate([&](Assembler &a) { emit_warm_loop(a, exported, reuse); }, "clearjit_warm_loop");
      if (!g) throw std::runtime_error("cannot generate the warm timing loop: " + g.error);
      if ((*g.value)->size > kSlot) throw std::logic_error("the warm timing loop outgrew its slot");
      impl_->longest = std::max(impl_->longest, (*g.value)->size);
      impl_->forms[form(exported, reuse)] = std::move(*g.value);
    }
  void *p = mmap(nullptr, kRegion, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    throw std::runtime_error(std::string("cannot map the warm timing loops: ") +
                             std::strerror(errno));
  impl_->region = static_cast<uint8_t *>(p);
}

WarmLoops::~WarmLoops() { munmap(impl_->region, kRegion); }

WarmLoopFn WarmLoops::at(int place, bool exported, bool reuse) {
  Impl &m = *impl_;
  if (place < 0 || size_t(place) >= kSlots) throw std::out_of_range("no such warm loop place");
  while (m.places.size() <= size_t(place)) {
    // A free slot at random, and any byte offset in it: call sites lie anywhere in real code.
    size_t s;
    do
      s = m.rng() % kSlots;
    while (m.taken[s]);
    m.taken[s] = true;
    const size_t at = s * kSlot + m.rng() % (kSlot - m.longest + 1);
    if (mprotect(m.region, kRegion, PROT_READ | PROT_WRITE) != 0)
      throw std::runtime_error("cannot place a warm timing loop: mprotect failed");
    for (int f = 0; f < kForms; ++f) {
      const GeneratedCode &code = *m.forms[f];
      std::memcpy(m.region + f * kQuarter + at, reinterpret_cast<const void *>(code.fn), code.size);
    }
    if (mprotect(m.region, kRegion, PROT_READ | PROT_EXEC) != 0)
      throw std::runtime_error("cannot place a warm timing loop: mprotect failed");
    m.places.push_back(at);
  }
  return reinterpret_cast<WarmLoopFn>(m.region + form(exported, reuse) * kQuarter +
                                      m.places[size_t(place)]);
}

} // namespace cjit::detail
