// untouched=skip in generated code: a kernel, and a dispatcher's class, clear exactly and leave
// the pages never touched unfaulted (from kUntouchedFloor up); under a seccomp filter a handle
// writes them. Which pages clear_untouched leaves alone, in every state memory can be in, is
// tests/jit/pages/test_untouched.cpp's.
#include "tests/support/support.hpp"

#include "jit/pages/untouched.hpp"
#include "jit/runtime/runtime.hpp"

#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace cjit::detail::test {
namespace {

constexpr size_t kPage = 4096;

// A private anonymous mapping of 4 KiB pages (whatever the host's transparent huge pages), its
// pages `touched` filled with 0xAA, unmapped at the end.
struct Fresh {
  uint8_t *p = nullptr;
  size_t n = 0;
  Fresh(size_t bytes, const std::set<size_t> &touched = {}) : n(bytes) {
    void *m = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(m, MAP_FAILED) << std::strerror(errno);
    if (m == MAP_FAILED) throw std::runtime_error("mmap failed");
    p = static_cast<uint8_t *>(m);
    madvise(p, n, MADV_NOHUGEPAGE);
    for (size_t page : touched)
      std::memset(p + page * kPage, 0xAA, kPage);
    forget_in_use(); // a mapping at an earlier test's place and size is new
  }
  ~Fresh() { munmap(p, n); }
  Fresh(const Fresh &) = delete;
  Fresh &operator=(const Fresh &) = delete;
  // The pages in memory (mincore), by index: ask before reading the memory, which maps the
  // zero page where a page was never written.
  std::set<size_t> resident() const {
    std::vector<unsigned char> in((n + kPage - 1) / kPage);
    EXPECT_EQ(mincore(p, n, in.data()), 0) << std::strerror(errno);
    std::set<size_t> out;
    for (size_t i = 0; i < in.size(); ++i)
      if (in[i] & 1) out.insert(i);
    return out;
  }
  // "" when [from, to) reads zero and every other byte of the touched pages still 0xAA.
  std::string cleared_exactly(size_t from, size_t to, const std::set<size_t> &touched) const {
    if (size_t z = first_nonzero(p + from, to - from); z != to - from)
      return "byte " + std::to_string(from + z) + " is not zero";
    for (size_t page : touched)
      for (size_t i = page * kPage; i < (page + 1) * kPage; ++i)
        if ((i < from || i >= to) && p[i] != 0xAA)
          return "byte " + std::to_string(i) + " outside the range was written";
    return "";
  }
};

std::set<size_t> all_pages(size_t n) {
  std::set<size_t> out;
  for (size_t i = 0; i < n / kPage; ++i)
    out.insert(i);
  return out;
}

Spec skipping(Method m) {
  Spec s = default_spec(m);
  s.untouched = Untouched::skip;
  return s;
}

// Every method's kernel: the range is zero, nothing around it is written, and the pages it
// did not find in use are still not in memory.
TEST(untouched_skip, EveryKernelLeavesUntouchedPagesAlone) {
  const size_t n = 8 << 20, last = n / kPage - 1;
  const std::set<size_t> touched = {0, 3, 200, 201, last};
  for (const MethodInfo &mi : methods()) {
    const Spec s = skipping(mi.method);
    if (!unsupported_reason(s, host_cpu()).empty()) continue;
    SCOPED_TRACE(format_spec(s));
    auto k = compile_kernel(s, host_cpu());
    ASSERT_TRUE(k) << k.error;
    Fresh m(n, touched);
    (*k.value)->fn(m.p + 100, n - 200);
    EXPECT_EQ(m.resident(), touched);
    EXPECT_EQ(m.cleared_exactly(100, n - 100, touched), "");
  }
}

// Below kUntouchedFloor there is no look: every page is written, as without the option.
TEST(untouched_skip, BelowTheFloorEveryPageIsWritten) {
  auto k = compile_kernel(skipping(Method::stosb), host_cpu());
  ASSERT_TRUE(k) << k.error;
  const size_t n = kUntouchedFloor - kPage;
  Fresh m(n);
  (*k.value)->fn(m.p, n);
  EXPECT_EQ(m.resident(), all_pages(n));
  EXPECT_EQ(m.cleared_exactly(0, n, {}), "");
}

// A dispatcher: each class with the option leaves untouched pages alone, the others write them.
TEST(untouched_skip, DispatcherClassesLeaveUntouchedPagesAlone) {
  const auto table = size_classes(
      {{2 << 20, "mov"}, {4 << 20, "stosb:untouched=skip"}, {0, "libc:untouched=skip"}});
  auto d = make_dispatcher(table, host_cpu());
  const std::set<size_t> touched = {1, 7};
  for (size_t n : {size_t{1} << 20, size_t{3} << 20, size_t{16} << 20}) {
    SCOPED_TRACE(n);
    Fresh m(n, touched);
    d->fn(m.p, n);
    EXPECT_EQ(m.resident(), n < (2 << 20) ? all_pages(n) : touched);
    EXPECT_EQ(m.cleared_exactly(0, n, touched), "");
  }
}

// Under a seccomp filter the look's system calls might be refused or fatal: a handle opened
// there writes every page, and says so.
TEST(untouched_skip, UnderASeccompFilterAHandleWritesEveryPage) {
  EXPECT_EQ(in_child([]() -> std::string {
              sock_filter allow[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
              if (!install_filter(allow, 1)) return "cannot install the filter";
              Profile p;
              p.host = profile_host(host_cpu());
              p.reuse = size_classes({{0, "stosb:untouched=skip"}});
              std::string error;
              clearjit *cj = open_profile(p, host_cpu(), error);
              if (!cj) return "open: " + error;
              const std::string warnings = clearjit_warnings(cj);
              const size_t n = 8 << 20;
              Fresh m(n);
              clearjit_clear(cj, m.p, n);
              clearjit_close(cj);
              if (warnings.find("seccomp filter, so untouched pages are written (untouched=write) "
                                "in reuse stosb") == std::string::npos)
                return "warnings: " + warnings;
              if (m.resident() != all_pages(n)) return "untouched pages were left alone";
              return m.cleared_exactly(0, n, {});
            }),
            "");
}

// Without a filter the same handle leaves them alone and says nothing of it.
TEST(untouched_skip, AHandleLeavesUntouchedPagesAlone) {
  Profile p;
  p.host = profile_host(host_cpu());
  p.reuse = size_classes({{0, "stosb:untouched=skip"}});
  std::string error;
  std::unique_ptr<clearjit, decltype(&clearjit_close)> cj(open_profile(p, host_cpu(), error),
                                                          clearjit_close);
  ASSERT_TRUE(cj) << error;
  EXPECT_EQ(std::string(clearjit_warnings(cj.get())).find("seccomp"), std::string::npos);
  const size_t n = 8 << 20;
  Fresh m(n, {2});
  clearjit_clear(cj.get(), m.p, n);
  EXPECT_EQ(m.resident(), std::set<size_t>{2});
  EXPECT_EQ(m.cleared_exactly(0, n, {2}), "");
}

} // namespace
} // namespace cjit::detail::test
