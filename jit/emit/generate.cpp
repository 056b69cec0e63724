#include "jit/emit/emit.hpp"

#include "jit/profile/files.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <system_error>

namespace cjit::detail {
namespace {

using namespace asmjit;

constexpr uint8_t kInt3 = 0xCC; // fills a function's pages around it

std::atomic<CodeMap> code_map_in_use{CodeMap::private_pages};

std::string system_error(const char *call, int err) {
  return std::string(call) + ": " + std::generic_category().message(err);
}

size_t page_size() {
  static const size_t page = size_t(sysconf(_SC_PAGESIZE));
  return page;
}

size_t page_rounded(size_t n) { return (n + page_size() - 1) / page_size() * page_size(); }

// Where in its pages a function of `size` bytes starts: functions generated one after another
// at consecutive 64-byte-aligned offsets modulo the page, as one code heap lays them out. A warm
// call's time depends on where its code lies, so copies of one function generated to be
// measured at several places (docs/design/measuring.md) must not all share one offset.
size_t next_offset(size_t size) {
  static std::atomic<size_t> cursor{0};
  return cursor.fetch_add((size + 63) & ~size_t(63), std::memory_order_relaxed) % page_size();
}

// Writes the flattened code at `offset` of the `length` bytes at `p`, relocated to run there,
// with int3 around it; empty or what went wrong.
std::string fill(CodeHolder &code, uint8_t *p, size_t offset, size_t length, size_t &size) {
  if (asmjit::Error e = code.relocateToBase(uintptr_t(p + offset)))
    return "code generation failed: " + std::string(DebugUtils::errorAsString(e));
  size = code.codeSize();
  if (size > length - offset) return "code generation failed: relocated code grew";
  std::memset(p, kInt3, offset);
  if (asmjit::Error e =
          code.copyFlattenedData(p + offset, size, CopySectionFlags::kPadSectionBuffer))
    return "code generation failed: " + std::string(DebugUtils::errorAsString(e));
  std::memset(p + offset + size, kInt3, length - offset - size);
  return {};
}

struct Mapped {
  uint8_t *rx = nullptr;   // the mapping (the function is at its offset)
  std::string error;       // set when nothing is mapped
  bool code_error = false; // the code is at fault (relocation), not the system
};

// Replaces the private pages at `p`, whose bytes are the relocated code, by a memfd of its own
// mapped at the same address read+execute only (so the code stays relocated), written with
// pwrite and sealed against writes (Linux 5.1 and later). No writable view of it ever exists, and
// the descriptor, close-on-exec, is closed before returning: a child after fork sees the code
// unchanged, an exec'ed program does not get it. Empty or what went wrong (`p` then unchanged
// or unmapped).
std::string replace_by_memfd(uint8_t *p, size_t length) {
  constexpr unsigned kExec = 0x10; // MFD_EXEC (Linux 6.3): executable even where memfds are not
  const unsigned flags = MFD_CLOEXEC | MFD_ALLOW_SEALING;
  int fd = ::memfd_create("clearjit-code", flags | kExec);
  if (fd < 0 && errno == EINVAL) fd = ::memfd_create("clearjit-code", flags); // older kernels
  if (fd < 0) return system_error("memfd_create", errno);
  std::string error;
  if (::ftruncate(fd, off_t(length)) != 0) error = system_error("ftruncate", errno);
  for (size_t done = 0; error.empty() && done < length;) {
    const ssize_t wrote = ::pwrite(fd, p + done, length - done, off_t(done));
    if (wrote > 0)
      done += size_t(wrote);
    else if (wrote == 0 || errno != EINTR)
      error = wrote == 0 ? "pwrite: wrote nothing" : system_error("pwrite", errno);
  }
  if (error.empty()) // best effort: the descriptor is closed next, never shared
    (void)::fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE);
  if (error.empty() &&
      ::mmap(p, length, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
    error = system_error("mmap PROT_EXEC", errno);
  ::close(fd);
  return error;
}

// Maps the code, relocated once: written into private anonymous pages, which then become
// read+execute (copied on write after fork; no descriptor), or, where the system refuses that
// (EACCES, EPERM: SELinux deny_execmem, a seccomp filter), are replaced by a memfd
// (replace_by_memfd), which the process then keeps to. Every mapping is the code's own:
// releasing it unmaps it.
Mapped map_code(CodeHolder &code, size_t offset, size_t length, size_t &size) {
  void *m = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return {nullptr, system_error("mmap", errno), false};
  auto *p = static_cast<uint8_t *>(m);
  if (std::string e = fill(code, p, offset, length, size); !e.empty()) {
    ::munmap(p, length);
    return {nullptr, e, true};
  }
  std::string refusal;
  if (code_map_in_use.load(std::memory_order_relaxed) == CodeMap::private_pages) {
    if (::mprotect(p, length, PROT_READ | PROT_EXEC) == 0) return {p, {}, false};
    const int err = errno;
    refusal = system_error("mprotect PROT_EXEC", err) + "; ";
    if (err != EACCES && err != EPERM) {
      ::munmap(p, length);
      return {nullptr, refusal.substr(0, refusal.size() - 2), false};
    }
  }
  if (std::string e = replace_by_memfd(p, length); !e.empty()) {
    ::munmap(p, length);
    return {nullptr, refusal + e, false};
  }
  code_map_in_use.store(CodeMap::memfd_pages, std::memory_order_relaxed);
  return {p, {}, false};
}

std::string error_text(asmjit::Error e) { return DebugUtils::errorAsString(e); }

// Debug aids. They never fail code generation, but a problem is said once on stderr: the
// user asked for the files and would otherwise look for them in vain.
struct DebugAids {
  bool perf_map = clearjit_env_switch("CLEARJIT_PERF_MAP", false);
  std::string dump_dir = clearjit_env("CLEARJIT_DUMP");
};

void say_once(std::atomic<bool> &said, const std::string &what) {
  if (!said.exchange(true)) std::fprintf(stderr, "clearjit: %s\n", what.c_str());
}

// Writes one debug file; false (with the reason said once) when it could not.
void write_debug_file(const std::string &path, bool append, std::string_view bytes) {
  static std::atomic<bool> said{false};
  std::string error;
  const int fd = open_debug_output(path, append, error);
  if (fd < 0) return say_once(said, error + " (debug output skipped)");
  if (!write_all(fd, bytes)) say_once(said, path + ": write failed (debug output incomplete)");
  ::close(fd);
}

void publish(const GeneratedCode &code, const std::string &name, const DebugAids &aids) {
  if (!aids.perf_map && aids.dump_dir.empty()) return;
  static std::mutex mutex; // kernels may be generated from several threads
  std::lock_guard lock(mutex);
  if (aids.perf_map) {
    char line[512];
    std::snprintf(line, sizeof line, "%lx %zx %s\n", reinterpret_cast<unsigned long>(code.fn),
                  code.size, name.c_str());
    write_debug_file("/tmp/perf-" + std::to_string(getpid()) + ".map", true, line);
  }
  if (!aids.dump_dir.empty()) {
    struct stat st {};
    if (::stat(aids.dump_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      static std::atomic<bool> said{false};
      return say_once(said, "CLEARJIT_DUMP=" + aids.dump_dir + ": not a directory; nothing dumped");
    }
    std::string base = aids.dump_dir + "/";
    for (char c : name) // a spec's ':' ',' '=' make awkward file names
      base += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    write_debug_file(base + ".bin", false, {reinterpret_cast<const char *>(code.fn), code.size});
    write_debug_file(base + ".asm", false, "; " + name + "\n" + code.listing);
  }
}

} // namespace

GeneratedCode::~GeneratedCode() {
  if (fn)
    ::munmap(reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(fn) & ~(page_size() - 1)),
             mapped);
}

CodeMap code_map() { return code_map_in_use.load(std::memory_order_relaxed); }

void use_code_map(CodeMap m) { code_map_in_use.store(m, std::memory_order_relaxed); }

namespace {

Result<std::unique_ptr<GeneratedCode>> assemble_and_map(const EmitFn &emit, const std::string &name,
                                                        Listing listing) {
  using R = Result<std::unique_ptr<GeneratedCode>>;
  Environment env = Environment::host();
  env.setObjectFormat(ObjectFormat::kJIT);
  CodeHolder code;
  if (asmjit::Error e = code.init(env)) return R::fail("code generation failed: " + error_text(e));
  // Read at every generation (cheap beside it), so a change of the environment takes effect.
  const DebugAids aids;
  // The listing costs time and memory (a 15,000-class dispatcher's was 68 MB): only on request.
  const bool log = listing == Listing::keep || !aids.dump_dir.empty();
  StringLogger logger;
  logger.addFlags(FormatFlags::kMachineCode);
  if (log) {
    // AsmJit's String grows from its first small buffer straight to 16 MiB (alignUp to
    // Globals::kGrowThreshold): reserved first (a buffer assigned, then cleared, which keeps
    // it), a listing up to 128 KiB (a kernel's, tens of instructions) never allocates that.
    if (!logger.content().prepare(String::ModifyOp::kAssign, size_t(64) << 10))
      throw std::bad_alloc();
    logger.content().clear();
    code.setLogger(&logger);
  }

  // Errors are collected, not thrown: the first one is reported.
  struct : ErrorHandler {
    asmjit::Error first = kErrorOk;
    std::string message;
    void handleError(asmjit::Error err, const char *msg, BaseEmitter *) override {
      if (first == kErrorOk) {
        first = err;
        message = msg;
      }
    }
  } errors;
  code.setErrorHandler(&errors);

  x86::Assembler a(&code);
  emit(a);
  if (errors.first == kErrorOutOfMemory) throw std::bad_alloc();
  if (errors.first != kErrorOk) return R::fail("code generation failed: " + errors.message);
  asmjit::Error linked = code.flatten();
  if (linked == kErrorOk) linked = code.resolveUnresolvedLinks();
  if (linked != kErrorOk) return R::fail("code generation failed: " + error_text(linked));
  if (code.codeSize() == 0) return R::fail("code generation failed: no code");

  auto out = std::make_unique<GeneratedCode>();
  const size_t offset = next_offset(code.codeSize());
  out->mapped = page_rounded(offset + code.codeSize());
  const Mapped m = map_code(code, offset, out->mapped, out->size);
  if (!m.rx) return R::fail(m.code_error ? m.error : std::string(kNoCodeMemory) + ": " + m.error);
  out->fn = reinterpret_cast<ClearFn>(m.rx + offset);
  if (log) out->listing = logger.data();
  publish(*out, name, aids);
  if (listing == Listing::if_dumped) out->listing = {};
  return {std::move(out), {}};
}

} // namespace

Result<std::unique_ptr<GeneratedCode>> generate(const EmitFn &emit, const std::string &name,
                                                Listing listing) {
  try {
    return assemble_and_map(emit, name, listing);
  } catch (const std::bad_alloc &) {
    return Result<std::unique_ptr<GeneratedCode>>::fail(std::string(kNoCodeMemory) +
                                                        ": out of memory");
  }
}

Result<std::unique_ptr<GeneratedCode>> compile_kernel(const Spec &s, const CpuInfo &cpu) {
  if (std::string why = unsupported_reason(s, cpu); !why.empty())
    return Result<std::unique_ptr<GeneratedCode>>::fail(std::move(why));
  return generate([&](x86::Assembler &a) { emit_kernel(a, s); }, format_spec(s));
}

} // namespace cjit::detail
