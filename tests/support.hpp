// Test helpers: buffers bounded by PROT_NONE guard pages, pattern fills and checks.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cjit::test {

inline size_t page_size() { return size_t(sysconf(_SC_PAGESIZE)); }

//! `usable` bytes (rounded up to pages) between two PROT_NONE pages: an access one byte
//! before begin() or at end() faults.
class GuardedBuffer {
public:
  explicit GuardedBuffer(size_t usable) {
    const size_t page = page_size();
    usable_ = (usable + page - 1) / page * page;
    total_ = usable_ + 2 * page;
    void *p = mmap(nullptr, total_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap failed");
    base_ = static_cast<uint8_t *>(p);
    if (mprotect(base_ + page, usable_, PROT_READ | PROT_WRITE) != 0)
      throw std::runtime_error("mprotect failed");
  }
  ~GuardedBuffer() { munmap(base_, total_); }
  GuardedBuffer(const GuardedBuffer &) = delete;
  GuardedBuffer &operator=(const GuardedBuffer &) = delete;

  uint8_t *begin() const { return base_ + page_size(); }
  uint8_t *end() const { return begin() + usable_; }
  size_t size() const { return usable_; }

private:
  uint8_t *base_ = nullptr;
  size_t usable_ = 0, total_ = 0;
};

//! A byte that is never zero and differs with position, so a misplaced store shows.
inline uint8_t pattern_byte(size_t i) { return uint8_t(0x5A ^ (i * 131)) | 1; }

inline void fill_pattern(uint8_t *p, size_t n, size_t phase = 0) {
  for (size_t i = 0; i < n; ++i)
    p[i] = pattern_byte(i + phase);
}

//! First index in [0, n) where p differs from the pattern, or n.
inline size_t first_pattern_mismatch(const uint8_t *p, size_t n, size_t phase = 0) {
  for (size_t i = 0; i < n; ++i)
    if (p[i] != pattern_byte(i + phase)) return i;
  return n;
}

//! First nonzero index in [0, n), or n.
inline size_t first_nonzero(const uint8_t *p, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (w) break;
  }
  for (; i < n; ++i)
    if (p[i]) return i;
  return n;
}

} // namespace cjit::test
