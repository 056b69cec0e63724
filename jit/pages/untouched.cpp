#include "jit/pages/untouched.hpp"

#include <fcntl.h>
#include <linux/prctl.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace cjit::detail {
namespace {

constexpr uintptr_t kPage = 4096;
constexpr int kPageShift = 12;

// pagemap entry bits (Documentation/admin-guide/mm/pagemap.rst). A page reads as zero without a
// write only with none of these: present, swapped, file page or shared anonymous, a guard
// region (Linux 6.15), write-protected by userfaultfd.
constexpr uint64_t kInUse = (uint64_t{1} << 63) | (uint64_t{1} << 62) | (uint64_t{1} << 61) |
                            (uint64_t{1} << 58) | (uint64_t{1} << 57);

// Pages looked up per read of the pagemap: 1 KiB of stack.
constexpr size_t kWindow = 128;

// Raw system calls: glibc's wrappers of open, read and close are cancellation points, and
// memset is not.
int open_read(const char *path) {
  return static_cast<int>(syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC));
}
long read_at(int fd, void *buf, size_t n, uint64_t offset) {
  return syscall(SYS_pread64, fd, buf, n, offset);
}
long read_some(int fd, void *buf, size_t n) { return syscall(SYS_read, fd, buf, n); }
void close_fd(int fd) { syscall(SYS_close, fd); }

// Lines of a file, each cut to the buffer's size (the rest of a longer line is dropped).
class Lines {
public:
  explicit Lines(int fd) : fd_(fd) {}
  // The next line without its '\n', or nullptr at the end or on an error. Valid until the next
  // call.
  const char *next() {
    for (;;) {
      if (char *nl = static_cast<char *>(memchr(buf_ + pos_, '\n', len_ - pos_))) {
        *nl = '\0';
        const char *line = buf_ + pos_;
        pos_ = static_cast<size_t>(nl - buf_) + 1;
        if (!dropping_) return line;
        dropping_ = false; // that was the tail of a long line
        continue;
      }
      if (pos_ == 0 && len_ == kCap) { // a full buffer and no end of line
        len_ = 0;
        if (dropping_) continue;
        dropping_ = true;
        buf_[kCap] = '\0';
        return buf_;
      }
      memmove(buf_, buf_ + pos_, len_ - pos_);
      len_ -= pos_;
      pos_ = 0;
      const long got = read_some(fd_, buf_ + len_, kCap - len_);
      if (got <= 0) return nullptr;
      len_ += static_cast<size_t>(got);
    }
  }

private:
  static constexpr size_t kCap = 256; // an smaps header's fields fit; a long path is cut
  int fd_;
  char buf_[kCap + 1];
  size_t len_ = 0, pos_ = 0;
  bool dropping_ = false;
};

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

// Reads hex digits at s into v; returns the first character after them, or nullptr if none.
const char *hex(const char *s, uintptr_t &v) {
  v = 0;
  const char *start = s;
  for (; is_hex(*s); ++s)
    v = v * 16 + static_cast<uintptr_t>(*s <= '9' ? *s - '0' : *s - 'a' + 10);
  return s == start ? nullptr : s;
}

// An smaps header, "begin-end perms offset major:minor inode [path]": the range, and whether
// it may be zero-fill memory (private, writable, no device, no inode).
bool header(const char *s, Mapping &m) {
  uintptr_t offset, major, minor;
  if (!(s = hex(s, m.begin)) || *s++ != '-' || !(s = hex(s, m.end)) || *s++ != ' ') return false;
  if (strlen(s) < 5) return false;
  const bool private_writable = s[1] == 'w' && s[3] == 'p' && s[4] == ' ';
  if (!(s = hex(s + 5, offset)) || *s++ != ' ' || !(s = hex(s, major)) || *s++ != ':' ||
      !(s = hex(s, minor)) || *s++ != ' ')
    return false;
  m.zero_fill =
      private_writable && major == 0 && minor == 0 && s[0] == '0' && (s[1] == ' ' || s[1] == '\0');
  return true;
}

// Whether an smaps VmFlags line names a flag under which a missing page may not read as zero,
// or under which memset's writes do more than zero: userfaultfd (missing, write-protect,
// minor), I/O or PFN or mixed maps, shared, a shadow stack (a write faults), locked (memset
// commits the pages, also where locked on fault).
bool flags_forbid(const char *s) {
  static const char kForbidden[][3] = {"um", "uw", "ui", "io", "pf", "mm", "sh", "ss", "lo", "lf"};
  for (s += strlen("VmFlags:"); *s; ++s) {
    if (*s == ' ') continue;
    for (const char *f : kForbidden)
      if (s[0] == f[0] && s[1] == f[1] && (s[2] == ' ' || s[2] == '\0')) return true;
    while (*s && *s != ' ')
      ++s;
    if (!*s) break;
  }
  return false;
}

// The last range whose first page was in use: cleared again (a table cleared for every game),
// it is written without a look. Only ever makes a clear write more, so a stale or torn pair
// (threads, a mapping replaced at the same place) costs a missed skip at most.
std::atomic<uintptr_t> in_use_dst{0};
std::atomic<size_t> in_use_n{0};

size_t scan(ZeroFn zero, char *dst, size_t n) {
  const uintptr_t begin = reinterpret_cast<uintptr_t>(dst), end = begin + n;
  // A range that wraps faults in memset: let it. Pages of another size are not the pagemap's.
  const int fd =
      end < begin || getauxval(AT_PAGESZ) != kPage ? -1 : open_read("/proc/thread-self/pagemap");
  if (fd < 0) {
    zero(dst, n);
    return 0;
  }
  uint64_t entry[kWindow];
  // The pagemap must say that this frame's page is present: an emulator that passes another
  // address space's pagemap through, or a descriptor that is not the pagemap, fails that.
  volatile char here = 1;
  const uintptr_t own = reinterpret_cast<uintptr_t>(&here);
  bool sane = read_at(fd, entry, 8, (own >> kPageShift) * 8) == 8 && (entry[0] >> 63) != 0;
  // The first pages mostly in use (a table cleared again; a heap chunk's header is in its first
  // page only, and does not count) mean the whole range is written, and remembered.
  const size_t first = ((end - (begin & ~(kPage - 1)) + kPage - 1) >> kPageShift);
  const size_t count = first < kWindow ? first : kWindow;
  sane = sane && read_at(fd, entry, count * 8, (begin >> kPageShift) * 8) == long(count * 8);
  size_t untouched = 0;
  for (size_t i = 0; sane && i < count; ++i)
    untouched += (entry[i] & kInUse) == 0;
  const bool in_use = sane && untouched * 2 < count;
  if (in_use) {
    in_use_dst.store(begin, std::memory_order_relaxed);
    in_use_n.store(n, std::memory_order_relaxed);
  }
  Mapping m;
  if (!sane || in_use || !mapping_at(begin, m) || !m.zero_fill) {
    close_fd(fd);
    zero(dst, n);
    return 0;
  }
  const uintptr_t limit = end < m.end ? end : m.end;
  size_t skipped = 0;
  uintptr_t pending = 0;                 // where the bytes to write start, 0 for none
  uintptr_t page = begin & ~(kPage - 1); // the next page to look up
  uintptr_t stop = limit;                // where looking stopped
  while (page < limit) {
    const size_t pages = ((limit - page + kPage - 1) >> kPageShift);
    const size_t count = pages < kWindow ? pages : kWindow;
    const long want = static_cast<long>(count * 8);
    if (read_at(fd, entry, count * 8, (page >> kPageShift) * 8) != want) {
      stop = page > begin ? page : begin;
      break;
    }
    size_t untouched = 0;
    for (size_t i = 0; i < count; ++i, page += kPage) {
      const uintptr_t from = page > begin ? page : begin;
      const uintptr_t to = page + kPage < limit ? page + kPage : limit;
      if (entry[i] & kInUse) {
        if (!pending) pending = from;
        continue;
      }
      if (pending) zero(reinterpret_cast<void *>(pending), from - pending);
      pending = 0;
      skipped += to - from;
      ++untouched;
    }
    if (untouched * 2 < count) { // mostly in use: write the rest without looking
      stop = page < limit ? page : limit;
      break;
    }
  }
  close_fd(fd);
  const uintptr_t rest = pending ? pending : stop;
  if (rest < end) zero(reinterpret_cast<void *>(rest), end - rest);
  return skipped;
}

} // namespace

bool mapping_at(uintptr_t address, Mapping &out) {
  const int fd = open_read("/proc/thread-self/smaps");
  if (fd < 0) return false;
  Lines lines(fd);
  bool found = false;
  for (const char *line; (line = lines.next());) {
    Mapping m;
    if (is_hex(line[0])) {
      if (found || !header(line, m)) break; // the holder had no VmFlags line: unknown
      if (m.begin > address) break;         // past it: not mapped
      if (address < m.end) {
        out = m;
        found = true;
      }
    } else if (found && strncmp(line, "ProtectionKey:", 14) == 0) {
      // A key other than 0 may deny writes (PKRU), where memset faults.
      const char *k = line + 14;
      while (*k == ' ')
        ++k;
      if (k[0] != '0' || k[1] != '\0') out.zero_fill = false;
    } else if (found && strncmp(line, "VmFlags:", 8) == 0) {
      if (flags_forbid(line)) out.zero_fill = false;
      close_fd(fd);
      return true;
    }
  }
  close_fd(fd);
  if (found) out.zero_fill = false; // its flags were not seen
  return found;
}

bool seccomp_filtered() {
  const int saved_errno = errno;
  const long mode = syscall(SYS_prctl, PR_GET_SECCOMP, 0, 0, 0, 0);
  // EINVAL: a kernel without seccomp, where no filter can be.
  const bool filtered = mode != 0 && !(mode == -1 && errno == EINVAL);
  errno = saved_errno;
  return filtered;
}

void forget_in_use() {
  in_use_dst.store(0, std::memory_order_relaxed);
  in_use_n.store(0, std::memory_order_relaxed);
}

size_t clear_untouched(ZeroFn zero, void *dst, size_t n, size_t min_size) {
  if (n < min_size || n == 0) {
    zero(dst, n);
    return 0;
  }
  if (in_use_dst.load(std::memory_order_relaxed) == reinterpret_cast<uintptr_t>(dst) &&
      in_use_n.load(std::memory_order_relaxed) == n) {
    zero(dst, n);
    return 0;
  }
  const int saved_errno = errno;
  const size_t skipped = scan(zero, static_cast<char *>(dst), n);
  errno = saved_errno;
  return skipped;
}

} // namespace cjit::detail
