#include "jit/emit/emit.hpp"

#include "jit/profile/files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdio>
#include <mutex>

namespace cjit::detail {
namespace {

using namespace asmjit;

// Dual mapping: code is written through an RW view and executed through a separate RX view,
// so no page is ever writable and executable at once (this AsmJit maps RWX otherwise).
JitRuntime &runtime() {
  static JitRuntime *rt = [] {
    JitAllocator::CreateParams params{};
    params.options = JitAllocatorOptions::kUseDualMapping;
    return new JitRuntime(&params); // lives as long as the process: kernels may outlive statics
  }();
  return *rt;
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
  if (fn) runtime().release(fn);
}

Result<std::unique_ptr<GeneratedCode>> generate(const EmitFn &emit, const std::string &name,
                                                Listing listing) {
  using R = Result<std::unique_ptr<GeneratedCode>>;
  JitRuntime &rt = runtime();
  CodeHolder code;
  if (asmjit::Error e = code.init(rt.environment()))
    return R::fail("code generation failed: " + error_text(e));
  // Read at every generation (cheap beside it), so a change of the environment takes effect.
  const DebugAids aids;
  // The listing costs time and memory (a 15,000-class dispatcher's was 68 MB): only on request.
  const bool log = listing == Listing::keep || !aids.dump_dir.empty();
  StringLogger logger;
  logger.addFlags(FormatFlags::kMachineCode);
  if (log) code.setLogger(&logger);

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
  if (errors.first != kErrorOk) return R::fail("code generation failed: " + errors.message);

  auto out = std::make_unique<GeneratedCode>();
  void *fn = nullptr;
  if (asmjit::Error e = rt.add(&fn, &code))
    return R::fail("cannot map generated code: " + error_text(e));
  out->fn = reinterpret_cast<ClearFn>(fn);
  out->size = code.codeSize();
  if (log) out->listing = logger.data();
  publish(*out, name, aids);
  if (listing == Listing::if_dumped) out->listing = {};
  return {std::move(out), {}};
}

Result<std::unique_ptr<GeneratedCode>> compile_kernel(const Spec &s, const CpuInfo &cpu) {
  if (std::string why = unsupported_reason(s, cpu); !why.empty())
    return Result<std::unique_ptr<GeneratedCode>>::fail(std::move(why));
  return generate([&](x86::Assembler &a) { emit_kernel(a, s); }, format_spec(s));
}

} // namespace cjit::detail
