// clear_untouched (untouched.hpp): which parts of a clear are written, on memory in every state
// the kernel can leave it in: never faulted, written, dropped, swapped out of reach (file,
// shared, read-only, userfaultfd), past its mapping, in a forked child, without the pagemap.
#include "tests/support/support.hpp"

#include "jit/pages/untouched.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace cjit::detail::test {
namespace {

constexpr size_t kPage = 4096;

// The ranges clear_untouched asked to be written, as offsets from `base`; and whether to write.
struct Recorded {
  std::vector<std::pair<size_t, size_t>> runs; // (offset, bytes)
  uintptr_t base = 0;
  bool write = true;
};
Recorded recorded;

void record(void *dst, size_t n) {
  recorded.runs.emplace_back(reinterpret_cast<uintptr_t>(dst) - recorded.base, n);
  if (recorded.write) std::memset(dst, 0, n);
}

using Runs = std::vector<std::pair<size_t, size_t>>;

// An anonymous mapping of `n` bytes, unmapped at the end; 4 KiB pages only, whatever the
// host's transparent huge page setting, so that touching one page faults in that page alone.
struct Map {
  char *p = nullptr;
  size_t n = 0;
  Map(size_t bytes, int prot = PROT_READ | PROT_WRITE, int flags = MAP_PRIVATE | MAP_ANONYMOUS,
      int fd = -1)
      : n(bytes) {
    void *m = mmap(nullptr, n, prot, flags, fd, 0);
    EXPECT_NE(m, MAP_FAILED) << std::strerror(errno);
    p = m == MAP_FAILED ? nullptr : static_cast<char *>(m);
    if (p) madvise(p, n, MADV_NOHUGEPAGE);
    recorded = Recorded{{}, reinterpret_cast<uintptr_t>(p), true};
    forget_in_use(); // a mapping at the place and of the size of an earlier test's is new
  }
  ~Map() {
    if (p) munmap(p, n);
  }
  Map(const Map &) = delete;
  Map &operator=(const Map &) = delete;
  bool all_zero() const { return first_nonzero(reinterpret_cast<const uint8_t *>(p), n) == n; }
};

TEST(untouched, NeverFaultedPagesAreLeftAlone) {
  Map m(8 << 20);
  ASSERT_TRUE(m.p);
  errno = 1234;
  EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), m.n);
  EXPECT_EQ(errno, 1234) << "errno is the caller's";
  EXPECT_EQ(recorded.runs, Runs{});
  EXPECT_EQ(clear_untouched(record, m.p + 100, m.n - 300, 0), m.n - 300) << "unaligned ends";
  EXPECT_EQ(recorded.runs, Runs{});
  EXPECT_TRUE(m.all_zero());
}

TEST(untouched, WrittenPagesAreWrittenExactly) {
  Map m(4 << 20);
  ASSERT_TRUE(m.p);
  const size_t pages = m.n / kPage;
  for (size_t page : {size_t(3), size_t(10), size_t(11), size_t(12), pages - 1})
    m.p[page * kPage + 7] = char(0xab);
  EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), m.n - 5 * kPage);
  EXPECT_EQ(recorded.runs,
            (Runs{{3 * kPage, kPage}, {10 * kPage, 3 * kPage}, {m.n - kPage, kPage}}));
  EXPECT_TRUE(m.all_zero());
}

// all_zero reads every page, which maps the zero page in: a fresh mapping for each case.
TEST(untouched, UnalignedEndsCutTheRuns) {
  Map m(4 << 20);
  ASSERT_TRUE(m.p);
  for (size_t page : {size_t(3), size_t(10), size_t(11), size_t(12), m.n / kPage - 1})
    m.p[page * kPage + 100] = char(0xcd);
  // The start in an untouched page, the end inside a written one.
  const size_t from = 2 * kPage + 17, to = m.n - 5;
  const Runs runs{{3 * kPage, kPage}, {10 * kPage, 3 * kPage}, {m.n - kPage, to - (m.n - kPage)}};
  size_t written = 0;
  for (const auto &run : runs)
    written += run.second;
  EXPECT_EQ(clear_untouched(record, m.p + from, to - from, 0), to - from - written);
  EXPECT_EQ(recorded.runs, runs);
  EXPECT_EQ(m.p[3 * kPage + 100], 0);
  EXPECT_EQ(m.p[m.n - kPage + 100], 0);
}

TEST(untouched, DroppedPagesReadZeroAndAreLeftAlone) {
  Map m(4 << 20); // 1024 pages, 8 lookups of 128
  ASSERT_TRUE(m.p);
  std::memset(m.p, 0x5a, m.n);
  ASSERT_EQ(madvise(m.p, 768 * kPage, MADV_DONTNEED), 0);
  EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), 768 * kPage);
  EXPECT_EQ(recorded.runs, (Runs{{768 * kPage, 256 * kPage}}));
  EXPECT_TRUE(m.all_zero());
}

TEST(untouched, MemoryMostlyInUseIsWrittenWithoutLookingFurther) {
  Map m(4 << 20);
  ASSERT_TRUE(m.p);
  std::memset(m.p + 300 * kPage, 0x5a, m.n - 300 * kPage); // pages 0..299 untouched
  ASSERT_EQ(madvise(m.p + 600 * kPage, 100 * kPage, MADV_DONTNEED), 0);
  // The third lookup (pages 256..383) finds 44 of 128 untouched: the rest is one call.
  EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), 300 * kPage);
  EXPECT_EQ(recorded.runs, (Runs{{300 * kPage, m.n - 300 * kPage}}));
  EXPECT_TRUE(m.all_zero());
}

TEST(untouched, FirstPagesMostlyInUseMeanOneCall) {
  Map m(4 << 20);
  ASSERT_TRUE(m.p);
  std::memset(m.p + 2 * kPage, 0x5a, m.n - 2 * kPage); // all but pages 0 and 1
  EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), 0u);
  EXPECT_EQ(recorded.runs, (Runs{{0, m.n}}));
  EXPECT_TRUE(m.all_zero());
}

// A heap chunk: its header written in the first page, the rest new.
TEST(untouched, AWrittenFirstPageIsWrittenAlone) {
  Map m(4 << 20);
  ASSERT_TRUE(m.p);
  m.p[20] = 1;
  EXPECT_EQ(clear_untouched(record, m.p + 16, m.n - 16, 0), m.n - kPage);
  EXPECT_EQ(recorded.runs, (Runs{{16, kPage - 16}}));
  EXPECT_TRUE(m.all_zero());
}

// The range last found in use is written whole when cleared again, without a look: here its
// pages were dropped meanwhile, and still every byte is written. Another range is looked at.
TEST(untouched, ARangeFoundInUseIsWrittenAgainWithoutALook) {
  Map m(4 << 20);
  ASSERT_TRUE(m.p);
  std::memset(m.p, 1, m.n);
  EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), 0u);
  ASSERT_EQ(madvise(m.p, m.n, MADV_DONTNEED), 0);
  recorded.runs.clear();
  EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), 0u);
  EXPECT_EQ(recorded.runs, (Runs{{0, m.n}}));
  ASSERT_EQ(madvise(m.p, m.n, MADV_DONTNEED), 0);
  recorded.runs.clear();
  EXPECT_EQ(clear_untouched(record, m.p, m.n - kPage, 0), m.n - kPage) << "another range";
  EXPECT_EQ(recorded.runs, Runs{});
}

TEST(untouched, BelowTheMinimumOneCall) {
  Map m(4 << 20);
  ASSERT_TRUE(m.p);
  EXPECT_EQ(clear_untouched(record, m.p, m.n), 0u) << "4 MiB is below kUntouchedMin";
  EXPECT_EQ(recorded.runs, (Runs{{0, m.n}}));
  recorded.runs.clear();
  EXPECT_EQ(clear_untouched(record, m.p, 0, 0), 0u);
  EXPECT_EQ(recorded.runs, (Runs{{0, 0}}));
}

// A private mapping of a file: a page not in the page table holds the file's bytes.
TEST(untouched, APrivateFileMappingIsWritten) {
  const int fd = memfd_create("clearjit-untouched", MFD_CLOEXEC);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  const size_t n = 1 << 20;
  std::vector<char> bytes(n, char(0xcd));
  ASSERT_EQ(write(fd, bytes.data(), n), ssize_t(n));
  {
    Map m(n, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd);
    ASSERT_TRUE(m.p);
    EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), 0u);
    EXPECT_EQ(recorded.runs, (Runs{{0, n}}));
    EXPECT_TRUE(m.all_zero());
  }
  close(fd);
}

// Shared anonymous memory keeps a dropped page's bytes in the page cache.
TEST(untouched, SharedAnonymousMemoryIsWritten) {
  Map m(1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS);
  ASSERT_TRUE(m.p);
  std::memset(m.p, 0xee, m.n);
  ASSERT_EQ(madvise(m.p, m.n, MADV_DONTNEED), 0);
  EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), 0u);
  EXPECT_EQ(recorded.runs, (Runs{{0, m.n}}));
  EXPECT_TRUE(m.all_zero());
}

// Read-only memory: memset would fault, so must the clear (zero is asked to write it all).
TEST(untouched, ReadOnlyMemoryIsPassedOn) {
  Map m(1 << 20, PROT_READ);
  ASSERT_TRUE(m.p);
  recorded.write = false;
  EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), 0u);
  EXPECT_EQ(recorded.runs, (Runs{{0, m.n}}));
}

// Under userfaultfd's missing mode a handler supplies a missing page's contents.
TEST(untouched, MemoryUnderUserfaultfdIsPassedOn) {
  Map m(1 << 20);
  ASSERT_TRUE(m.p);
  recorded.write = false; // a write would wait for a handler that is not there
  const int uffd = int(syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK));
  if (uffd < 0) GTEST_SKIP() << "userfaultfd refused here: " << std::strerror(errno);
  uffdio_api api{};
  api.api = UFFD_API;
  ASSERT_EQ(ioctl(uffd, UFFDIO_API, &api), 0) << std::strerror(errno);
  uffdio_register reg{};
  reg.range.start = reinterpret_cast<uintptr_t>(m.p);
  reg.range.len = m.n;
  reg.mode = UFFDIO_REGISTER_MODE_MISSING;
  ASSERT_EQ(ioctl(uffd, UFFDIO_REGISTER, &reg), 0) << std::strerror(errno);
  Mapping at;
  ASSERT_TRUE(mapping_at(reinterpret_cast<uintptr_t>(m.p), at));
  EXPECT_FALSE(at.zero_fill);
  EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), 0u);
  EXPECT_EQ(recorded.runs, (Runs{{0, m.n}}));
  close(uffd);
}

// Locked memory: memset commits its pages (here locked on fault), so every page is written.
TEST(untouched, LockedMemoryIsWritten) {
  Map m(1 << 20);
  ASSERT_TRUE(m.p);
  if (syscall(SYS_mlock2, m.p, m.n, MLOCK_ONFAULT) != 0)
    GTEST_SKIP() << "mlock2 refused here: " << std::strerror(errno);
  EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), 0u);
  EXPECT_EQ(recorded.runs, (Runs{{0, m.n}}));
  munlock(m.p, m.n);
}

// A protection key may deny writes, where memset faults: every page is passed on.
TEST(untouched, MemoryWithAProtectionKeyIsPassedOn) {
  Map m(1 << 20);
  ASSERT_TRUE(m.p);
  const int key = pkey_alloc(0, 0);
  if (key < 0) GTEST_SKIP() << "no protection keys here: " << std::strerror(errno);
  ASSERT_EQ(pkey_mprotect(m.p, m.n, PROT_READ | PROT_WRITE, key), 0) << std::strerror(errno);
  Mapping at;
  ASSERT_TRUE(mapping_at(reinterpret_cast<uintptr_t>(m.p), at));
  EXPECT_FALSE(at.zero_fill);
  recorded.write = false;
  EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), 0u);
  EXPECT_EQ(recorded.runs, (Runs{{0, m.n}}));
  pkey_free(key);
}

// A range that wraps around the address space is passed on whole, to fault as in memset.
TEST(untouched, AWrappingRangeIsPassedOn) {
  Map m(1 << 20);
  ASSERT_TRUE(m.p);
  recorded.write = false;
  const size_t n = SIZE_MAX - reinterpret_cast<uintptr_t>(m.p) + 2 * kPage;
  EXPECT_EQ(clear_untouched(record, m.p, n, 0), 0u);
  EXPECT_EQ(recorded.runs, (Runs{{0, n}}));
}

// Past the mapping that holds the start, everything is written: the next one is not looked at.
TEST(untouched, PastTheMappingEverythingIsWritten) {
  Map m(8 << 20);
  ASSERT_TRUE(m.p);
  ASSERT_EQ(madvise(m.p + m.n / 2, m.n / 2, MADV_DONTFORK), 0); // two mappings now
  recorded.write = false;
  EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), m.n / 2);
  EXPECT_EQ(recorded.runs, (Runs{{m.n / 2, m.n / 2}}));
}

TEST(untouched, MappingAtReadsSmaps) {
  Map anon(1 << 20);
  ASSERT_TRUE(anon.p);
  Mapping at;
  ASSERT_TRUE(mapping_at(reinterpret_cast<uintptr_t>(anon.p) + 5000, at));
  EXPECT_TRUE(at.zero_fill);
  EXPECT_LE(at.begin, reinterpret_cast<uintptr_t>(anon.p));
  EXPECT_GE(at.end, reinterpret_cast<uintptr_t>(anon.p) + anon.n);
  EXPECT_FALSE(mapping_at(kPage, at)) << "nothing is mapped at 4096";
  ASSERT_TRUE(mapping_at(reinterpret_cast<uintptr_t>(&record), at));
  EXPECT_FALSE(at.zero_fill) << "code: not writable";
}

// A file whose path is longer than a line of smaps is read in: the line is cut, the parse holds.
TEST(untouched, MappingAtSurvivesLongPaths) {
  std::string dir = ::testing::TempDir() + "clearjit-untouched-" + std::to_string(getpid());
  ASSERT_EQ(mkdir(dir.c_str(), 0700), 0) << dir << ": " << std::strerror(errno);
  std::vector<std::string> made{dir};
  while (dir.size() < 900) {
    dir += "/" + std::string(100, 'd');
    ASSERT_EQ(mkdir(dir.c_str(), 0700), 0) << dir << ": " << std::strerror(errno);
    made.push_back(dir);
  }
  const std::string file = dir + "/f";
  const int fd = open(file.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  ASSERT_EQ(ftruncate(fd, kPage), 0);
  // The file right below an anonymous mapping, so smaps shows the long line first.
  Map anon(2 * kPage);
  ASSERT_TRUE(anon.p);
  ASSERT_EQ(munmap(anon.p, kPage), 0);
  void *f = mmap(anon.p, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0);
  ASSERT_EQ(f, anon.p);
  Mapping at;
  EXPECT_TRUE(mapping_at(reinterpret_cast<uintptr_t>(anon.p), at));
  EXPECT_FALSE(at.zero_fill) << "a private writable mapping of a file";
  ASSERT_TRUE(mapping_at(reinterpret_cast<uintptr_t>(anon.p) + kPage, at));
  EXPECT_TRUE(at.zero_fill);
  EXPECT_EQ(at.begin, reinterpret_cast<uintptr_t>(anon.p) + kPage);
  close(fd);
  unlink(file.c_str());
  for (auto d = made.rbegin(); d != made.rend(); ++d)
    rmdir(d->c_str());
}

// A child looks at its own page table: pages it wrote after fork are written.
TEST(untouched, AForkedChildLooksAtItsOwnPages) {
  Map m(4 << 20);
  ASSERT_TRUE(m.p);
  EXPECT_EQ(in_child([&]() -> std::string {
              m.p[1 * kPage] = 1;
              m.p[5 * kPage + 9] = 2;
              recorded.runs.clear();
              const size_t skipped = clear_untouched(record, m.p, m.n, 0);
              if (skipped != m.n - 2 * kPage) return "skipped " + std::to_string(skipped);
              if (recorded.runs != Runs{{kPage, kPage}, {5 * kPage, kPage}})
                return "not the two written pages";
              return m.all_zero() ? "" : "not cleared";
            }),
            "");
  EXPECT_EQ(clear_untouched(record, m.p, m.n, 0), m.n) << "the parent's pages are untouched";
}

// seccomp_filtered sees a filter (here one that allows everything) once it is installed.
TEST(untouched, SeccompFilteredSeesAFilter) {
  EXPECT_FALSE(seccomp_filtered()) << "the tests run without a filter";
  EXPECT_EQ(in_child([]() -> std::string {
              sock_filter allow[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
              if (!install_filter(allow, 1)) return "cannot install the filter";
              return seccomp_filtered() ? "" : "the filter is not seen";
            }),
            "");
}

// Where the pagemap cannot be opened (a sandbox refuses it), everything is written.
TEST(untouched, WithoutThePagemapEverythingIsWritten) {
  Map m(4 << 20);
  ASSERT_TRUE(m.p);
  EXPECT_EQ(in_child([&]() -> std::string {
              // openat fails with EPERM from now on; everything else is allowed.
              sock_filter deny_open[] = {
                  BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
                  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 1),
                  BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
                  BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
              if (!install_filter(deny_open, 4)) return "cannot install the filter";
              recorded.runs.clear();
              errno = 77;
              if (clear_untouched(record, m.p, m.n, 0) != 0) return "pages left unwritten";
              if (errno != 77) return "errno changed";
              return recorded.runs == Runs{{0, m.n}} ? "" : "not one call over the whole range";
            }),
            "");
}

} // namespace
} // namespace cjit::detail::test
