// Where generated code lives (generate.cpp's code memory), through the C API: a parent and its
// child each generate code after fork and both keep clearing correctly with every handle,
// inherited or their own; a program started while code is being generated holds no descriptor of
// the code; and under seccomp filters such as sandboxes install (no memfd_create, no PROT_EXEC
// pages) clearjit_zero and clearjit_open(NULL) still clear correctly, through memset where no
// code can be mapped, and CLEARJIT_VERBOSE=1 says why once. Both ways of mapping code (CodeMap)
// are run: the process's own pages, and a memfd per function where the system refuses those.
#include "clearjit/clearjit.h"
#include "jit/emit/emit.hpp"
#include "jit/runtime/runtime.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace cjit::detail {
namespace {

using namespace test;
using Handle = std::unique_ptr<clearjit, decltype(&clearjit_close)>;

constexpr uint8_t kFill = 0xA5;
constexpr size_t kSlack = 64;
// Around every class boundary of the profiles below, and inside the small paths.
constexpr size_t kSizes[] = {0,    1,    7,    63,   64,   255,  256,   257,   1000,  1023,
                             1024, 4095, 4096, 4097, 8191, 8192, 65599, 65600, 65601, 70000};
// The 1000 rounds; a quarter under the sanitizers (their fork is 8x slower), where the
// test is for memory errors.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kForkRounds = 250;
#else
constexpr int kForkRounds = 1000;
#endif

// Whether this system lets a process map code `m`'s way (a hardened one may not: SELinux
// deny_execmem, vm.memfd_noexec = 2); the tests of that way are skipped where not.
bool system_allows(CodeMap m) {
  const size_t page = page_size();
  if (m == CodeMap::private_pages) {
    void *p = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    const bool ok = mprotect(p, page, PROT_READ | PROT_EXEC) == 0;
    munmap(p, page);
    return ok;
  }
  const int fd = memfd_create("clearjit-probe", MFD_CLOEXEC);
  if (fd < 0) return false;
  void *p = ftruncate(fd, off_t(page)) == 0
                ? mmap(nullptr, page, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0)
                : MAP_FAILED;
  close(fd);
  if (p == MAP_FAILED) return false;
  munmap(p, page);
  return true;
}

class CodeMapTest : public ::testing::TestWithParam<CodeMap> {
protected:
  void SetUp() override {
    if (!system_allows(GetParam())) GTEST_SKIP() << "this system does not map code this way";
    use_code_map(GetParam());
  }
  void TearDown() override { use_code_map(CodeMap::private_pages); }
  TempDir dir;

  // Three profiles whose dispatchers differ in size, so that code laid out at the same place
  // by a parent and its child would not line up.
  Handle open(const char *name) {
    std::vector<ClassText> reuse, stream;
    if (name[0] == 'A') {
      reuse = {{4096, "avx2:unroll=4"}, {0, "stosb"}};
      stream = {{65600, "sse"}, {0, "ntavx2"}};
    } else if (name[0] == 'B') {
      reuse = {{256, "sse"}, {1024, "avx2"}, {8192, "stosq"}, {0, "stosb"}};
      stream = {{4096, "avx2:unroll=2"}, {0, "movnti:chunk=4K,fence=chunk"}};
    } else {
      reuse = {{1024, "stosb"}, {0, "avx2:unroll=2"}};
      stream = {{8192, "stosb"}, {65600, "sse:unroll=2"}, {0, "ntsse"}};
    }
    const std::string path = dir / (std::string(name) + ".toml");
    write_file(path, profile_text(host_cpu(), runnable_all(reuse), runnable_all(stream)));
    return Handle(clearjit_open(path.c_str(), nullptr, 0), clearjit_close);
  }
};

// Every entry point of `cj` on kSizes at two alignments; "" or the first failure. Each clear
// gets a window of kFill around its range, which must be left as it was.
std::string check_clears(const clearjit *cj, const char *name) {
  if (!cj) return std::string(name) + ": not opened";
  if (!has_generated_code(cj)) return std::string(name) + ": " + clearjit_warnings(cj);
  std::vector<uint8_t> buf(70000 + 2 * kSlack + 16);
  for (int entry = 0; entry < 3; ++entry)
    for (size_t n : kSizes)
      for (size_t off : {size_t(0), size_t(13)}) {
        const size_t window = off + n + 2 * kSlack;
        std::memset(buf.data(), kFill, window);
        uint8_t *dst = buf.data() + kSlack + off;
        if (entry == 0) {
          clearjit_clear(cj, dst, n);
        } else if (entry == 1) {
          clearjit_clear_stream(cj, dst, n);
        } else {
          clearjit_batch b;
          clearjit_batch_begin(&b, cj);
          clearjit_batch_clear(&b, dst, n);
          clearjit_batch_end(&b);
        }
        bool ok = first_nonzero(dst, n) == n;
        for (const uint8_t *p = buf.data(); ok && p < dst; ++p)
          ok = *p == kFill;
        for (const uint8_t *p = dst + n; ok && p < buf.data() + window; ++p)
          ok = *p == kFill;
        if (!ok)
          return std::string(name) + ": entry " + std::to_string(entry) +
                 " n=" + std::to_string(n) + " off=" + std::to_string(off) + " cleared wrongly";
      }
  return {};
}

// What is read from `fd` until end of file; `fd` is closed.
std::string read_to_end(int fd) {
  std::string text;
  char buf[512];
  for (ssize_t got; (got = read(fd, buf, sizeof buf)) > 0;)
    text.append(buf, size_t(got));
  close(fd);
  return text;
}

// Open A, fork; the child opens B while the parent opens C (after the child, so that a shared
// code heap would put C where B is); both then clear with each handle.
TEST_P(CodeMapTest, ParentAndChildGenerateAfterForkAndBothClearCorrectly) {
  Handle a = open("A");
  ASSERT_TRUE(a);
  ASSERT_EQ(check_clears(a.get(), "A"), "");
  for (int round = 0; round < kForkRounds; ++round) {
    int to_parent[2], to_child[2];
    ASSERT_EQ(pipe(to_parent), 0);
    ASSERT_EQ(pipe(to_child), 0);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    char byte = 0;
    if (pid == 0) {
      Handle b = open("B");
      (void)!write(to_parent[1], "b", 1);
      (void)!read(to_child[0], &byte, 1); // the parent has opened C
      std::string error = check_clears(a.get(), "A in the child");
      if (error.empty()) error = check_clears(b.get(), "B in the child");
      if (!error.empty()) (void)!write(to_parent[1], error.data(), error.size());
      _exit(error.empty() ? 0 : 1);
    }
    close(to_parent[1]);
    close(to_child[0]);
    ASSERT_EQ(read(to_parent[0], &byte, 1), 1) << "round " << round << ": the child died";
    Handle c = open("C");
    (void)!write(to_child[1], "c", 1);
    close(to_child[1]);
    std::string parent_error = check_clears(a.get(), "A in the parent");
    if (parent_error.empty()) parent_error = check_clears(c.get(), "C in the parent");
    const std::string child_error = read_to_end(to_parent[0]);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_EQ(parent_error, "") << "round " << round;
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "round " << round << ": child "
        << (WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                : child_error);
  }
}

// The descriptors of memfds a program started with fork and exec holds, as `find` lists them.
std::string memfds_of_an_execed_program() {
  int out[2];
  if (pipe(out) != 0) return "pipe failed";
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    execl("/usr/bin/find", "find", "/proc/self/fd/", "-lname", "*memfd:*", nullptr);
    _exit(127);
  }
  close(out[1]);
  const std::string text = read_to_end(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) == 127) return "find did not run";
  return text;
}

TEST_P(CodeMapTest, AProgramExecedWhileCodeIsGeneratedHoldsNoDescriptorOfIt) {
  std::atomic<bool> stop{false};
  std::atomic<int> generated{0};
  std::thread generator([&] {
    const Spec s = *parse_spec("stosb");
    while (!stop.load()) {
      auto code = compile_kernel(s, host_cpu());
      if (!code) return;
      generated.fetch_add(1);
    }
  });
  std::string leaked;
  for (int round = 0; round < 300 && leaked.empty(); ++round)
    leaked = memfds_of_an_execed_program();
  stop = true;
  generator.join();
  EXPECT_GT(generated.load(), 0) << "no code was generated meanwhile";
  EXPECT_EQ(leaked, "");
}

TEST_P(CodeMapTest, CodeIsNeverWritableAndExecutableAtOnce) {
  auto code = compile_kernel(*parse_spec("stosb"), host_cpu());
  ASSERT_TRUE(code) << code.error;
  const auto at = reinterpret_cast<uintptr_t>((*code.value)->fn);
  std::ifstream maps("/proc/self/maps");
  bool found = false;
  for (std::string line; std::getline(maps, line);) {
    unsigned long begin = 0, end = 0;
    char perms[8] = {};
    if (std::sscanf(line.c_str(), "%lx-%lx %7s", &begin, &end, perms) != 3) continue;
    if (begin <= at && at < end) {
      found = true;
      EXPECT_EQ(std::string(perms).substr(0, 3), "r-x") << line;
      EXPECT_EQ(line.find("memfd:") != std::string::npos, GetParam() == CodeMap::memfd_pages)
          << line;
    }
  }
  EXPECT_TRUE(found);
}

// Copies generated one after another are measured as different places of the code: they must
// not all start at one offset in their pages (as the functions of one code heap would not).
TEST_P(CodeMapTest, FunctionsGeneratedInTurnStartAtDifferentOffsetsInTheirPages) {
  std::set<uintptr_t> offsets;
  std::vector<std::unique_ptr<GeneratedCode>> codes;
  for (int copy = 0; copy < 3; ++copy) {
    auto code = compile_kernel(*parse_spec("stosb"), host_cpu());
    ASSERT_TRUE(code) << code.error;
    const auto at = reinterpret_cast<uintptr_t>((*code.value)->fn);
    EXPECT_EQ(at % 64, 0u);
    offsets.insert(at % page_size());
    codes.push_back(std::move(*code.value));
  }
  EXPECT_EQ(offsets.size(), 3u);
}

INSTANTIATE_TEST_SUITE_P(generate_Fork, CodeMapTest,
                         ::testing::Values(CodeMap::private_pages, CodeMap::memfd_pages),
                         [](const auto &info) {
                           return info.param == CodeMap::private_pages ? "PrivatePages"
                                                                       : "MemfdPages";
                         });

// ---------------------------------------------------------------------------------------------
// Sandboxes

constexpr const char *kNoCode = "no generated code here (cannot map generated code";

// What the filter denies (with EPERM): calls by number, or by number when their third argument
// (prot) asks for PROT_EXEC.
struct Denied {
  std::vector<int> calls;
  std::vector<int> exec_calls;
};

std::string install_filter(const Denied &d) {
  std::vector<sock_filter> f;
  auto load = [&](size_t offset) {
    f.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, uint32_t(offset)));
  };
  const sock_filter deny =
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA));
  load(offsetof(seccomp_data, arch));
  f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
  f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  for (int nr : d.calls) {
    load(offsetof(seccomp_data, nr));
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, uint32_t(nr), 0, 1));
    f.push_back(deny);
  }
  for (int nr : d.exec_calls) {
    load(offsetof(seccomp_data, nr));
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, uint32_t(nr), 0, 3));
    load(offsetof(seccomp_data, args[2])); // the low half, on little-endian x86-64
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1));
    f.push_back(deny);
  }
  f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  sock_fprog prog{static_cast<unsigned short>(f.size()), f.data()};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return "PR_SET_NO_NEW_PRIVS failed";
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) return "seccomp filter refused";
  return {};
}

// Clears buffers of sizes across the profile's classes with `clear`; "" or the first failure.
std::string clears_correctly(const std::function<void(void *, size_t)> &clear, const char *what) {
  std::vector<uint8_t> buf(size_t(9) << 20); // past kFewestParallelBytes: the workers clear too
  for (size_t n :
       {size_t(0), size_t(1), size_t(100), size_t(4096), size_t(70000), buf.size() - 3}) {
    fill_pattern(buf.data(), buf.size());
    clear(buf.data() + 3, n);
    if (first_nonzero(buf.data() + 3, n) != n || first_pattern_mismatch(buf.data(), 3) != 3 ||
        first_pattern_mismatch(buf.data() + 3 + n, buf.size() - 3 - n, 3 + n) != buf.size() - 3 - n)
      return std::string(what) + ": n=" + std::to_string(n) + " cleared wrongly";
  }
  return {};
}

size_t count(const std::string &text, const std::string &part) {
  size_t k = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++k;
  return k;
}

struct Expect {
  bool generated; // code is still generated (the filter leaves one way to map it)
  CodeMap map;    // and mapped this way
};

// In a forked child, which installs the filter (it cannot be removed) and makes the process's
// first clearjit_zero call: the filter, then clearjit_zero, clearjit_open(NULL) twice and a kernel,
// all under CLEARJIT_VERBOSE=1 with stderr kept; "" or what went wrong.
std::string run_sandboxed(const std::string &profile, const Denied &denied, Expect expect) {
  return in_child([&]() -> std::string {
    setenv("CLEARJIT_PROFILE", profile.c_str(), 1);
    setenv("CLEARJIT_VERBOSE", "1", 1);
    FILE *log = std::tmpfile();
    if (!log || dup2(fileno(log), STDERR_FILENO) < 0) return "cannot keep stderr";
    if (std::string e = install_filter(denied); !e.empty()) return e;

    std::string error = clears_correctly(clearjit_zero, "clearjit_zero");
    char err[256] = "";
    clearjit *a = clearjit_open(nullptr, err, sizeof err);
    clearjit *b = clearjit_open(nullptr, err, sizeof err);
    if (!a || !b) return std::string("clearjit_open(NULL) failed: ") + err;
    for (clearjit *cj : {a, b}) {
      if (error.empty())
        error = clears_correctly([&](void *p, size_t n) { clearjit_clear(cj, p, n); }, "clear");
      if (error.empty())
        error = clears_correctly([&](void *p, size_t n) { clearjit_clear_stream(cj, p, n); },
                                 "clear_stream");
      if (error.empty())
        error = clears_correctly(
            [&](void *p, size_t n) { clearjit_clear_parallel(cj, CLEARJIT_STREAM, p, n, 2); },
            "clear_parallel");
    }
    const bool warned = std::string(clearjit_warnings(a)).find(kNoCode) != std::string::npos;
    const std::string kernel = clearjit_kernel_for(a, CLEARJIT_REUSE, 4096);
    const bool generated = has_generated_code(a);
    clearjit_close(a);
    clearjit_close(b);
    clearjit_kernel *k = clearjit_kernel_compile("stosb", err, sizeof err);
    const bool kernel_made = k != nullptr;
    clearjit_kernel_free(k);

    std::fflush(stderr);
    std::string said;
    std::rewind(log);
    for (int c; (c = std::fgetc(log)) != EOF;)
      said += char(c);
    if (!error.empty()) return error;
    if (generated != expect.generated || warned == expect.generated)
      return std::string("the handles ") + (generated ? "have" : "lack") + " generated code" +
             (warned ? ", and say they lack it" : "") + "; stderr:\n" + said;
    if (generated && code_map() != expect.map) return "code mapped the other way";
    if (!generated &&
        (kernel != "libc" || kernel_made || !std::string(err).starts_with(kNoCodeMemory)))
      return "kernel for 4 KiB: " + kernel + ", a kernel " + (kernel_made ? "made" : err);
    if (count(said, "clearjit: " + std::string(kNoCode)) != (expect.generated ? 0u : 1u))
      return "stderr says it " + std::to_string(count(said, kNoCode)) + " times:\n" + said;
    return {};
  });
}

class generate_Sandbox : public ::testing::Test {
protected:
  void SetUp() override {
    write_file(path, profile_text(host_cpu(), runnable_all({{4096, "avx2:unroll=4"}, {0, "stosb"}}),
                                  runnable_all({{65600, "sse"}, {0, "ntavx2"}})));
  }
  TempDir dir;
  const std::string path = dir / "profile.toml";
};

TEST_F(generate_Sandbox, NoMemfdStillGeneratesCodeInPrivatePages) {
  if (!system_allows(CodeMap::private_pages)) GTEST_SKIP() << "no executable private pages here";
  EXPECT_EQ(run_sandboxed(path, {{SYS_memfd_create}, {}}, {true, CodeMap::private_pages}), "");
}

TEST_F(generate_Sandbox, NoExecutablePrivatePagesMapsAMemfd) {
  if (!system_allows(CodeMap::memfd_pages)) GTEST_SKIP() << "no executable memfds here";
  EXPECT_EQ(run_sandboxed(path, {{}, {SYS_mprotect}}, {true, CodeMap::memfd_pages}), "");
}

TEST_F(generate_Sandbox, NoPROT_EXECAtAllClearsThroughMemset) {
  EXPECT_EQ(run_sandboxed(path, {{}, {SYS_mmap, SYS_mprotect}}, {false, {}}), "");
}

TEST_F(generate_Sandbox, NoMemfdAndNoExecutablePrivatePagesClearsThroughMemset) {
  EXPECT_EQ(run_sandboxed(path, {{SYS_memfd_create}, {SYS_mprotect}}, {false, {}}), "");
}

} // namespace
} // namespace cjit::detail
