// The parallel clear under ThreadSanitizer (the CLEARJIT_TSAN build, run by scripts/test.sh):
// callers on several threads share one handle whose workers their first calls start, each
// clearing its own region on 2 and 3 threads and reading every byte back after the call. The
// profile's kernel is `libc`, so the pieces are cleared by memset, whose stores the sanitizer
// sees: a piece that does not happen before the call's return is a reported race, and so is a
// race in starting the workers, in the handle's dispatch or in closing it.
#include <clearjit/clearjit.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

int failed = 0, passed = 0;

void check(bool ok, const std::string &what) {
  ok ? ++passed : ++failed;
  if (!ok) std::fprintf(stderr, "FAILED: %s\n", what.c_str());
}

// A region with 3 cuts at 2 MiB boundaries, so that 2 and 3 threads are used as asked.
constexpr size_t kRegion = (size_t(8) << 20) + 12345;

bool cleared(const unsigned char *p, size_t off, size_t n) {
  for (size_t i = 0; i < off; ++i)
    if (p[i] != 0xA5) return false;
  for (size_t i = off; i < off + n; ++i)
    if (p[i]) return false;
  return p[off + n] == 0xA5;
}

} // namespace

int main() {
  char path[] = "/tmp/clearjit-parallel-tsan-XXXXXX";
  int fd = mkstemp(path);
  const char profile[] = "format = 1\n[host]\nvendor = \"AuthenticAMD\"\nfamily = 0\nmodel = 0\n"
                         "[[dispatch.reuse]]\nkernel = \"libc\"\n"
                         "[[dispatch.stream]]\nkernel = \"libc\"\n";
  if (fd < 0 || write(fd, profile, sizeof profile - 1) != ssize_t(sizeof profile - 1)) {
    std::perror("clearjit-parallel-tsan: the profile");
    return 1;
  }
  close(fd);
  char error[512] = "";
  clearjit *cj = clearjit_open(path, error, sizeof error);
  unlink(path);
  if (!cj) {
    std::fprintf(stderr, "clearjit_open: %s\n", error);
    return 1;
  }
  std::vector<std::thread> callers;
  std::vector<int> ok(4, 1);
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&, t] {
      const size_t off = 64 * size_t(t) + size_t(t), n = kRegion - 4096;
      std::unique_ptr<unsigned char[]> buf(new unsigned char[kRegion + 64]);
      for (int round = 0; round < 4; ++round) {
        std::memset(buf.get(), 0xA5, kRegion + 64);
        const clearjit_intent intent = (t + round) % 2 ? CLEARJIT_STREAM : CLEARJIT_REUSE;
        clearjit_clear_parallel(cj, intent, buf.get() + off, n, unsigned(2 + (round % 2)));
        ok[size_t(t)] &= cleared(buf.get(), off, n);
      }
    });
  for (std::thread &t : callers)
    t.join();
  for (int t = 0; t < 4; ++t)
    check(ok[size_t(t)] != 0, "caller " + std::to_string(t) + " found its region cleared");
  clearjit_close(cj); // joins the workers
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
