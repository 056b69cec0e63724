#include "codegen.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace cjit {
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

// Debug aids, best effort: a failure to write them never fails code generation.
void publish(const GeneratedCode &code, const std::string &name) {
  static std::mutex mutex; // kernels may be generated from several threads
  const char *perf = std::getenv("CLEARJIT_PERF_MAP");
  const char *dump = std::getenv("CLEARJIT_DUMP");
  if (!(perf && std::string(perf) == "1") && !(dump && *dump)) return;
  std::lock_guard lock(mutex);
  if (perf && std::string(perf) == "1") {
    std::string path = "/tmp/perf-" + std::to_string(getpid()) + ".map";
    if (FILE *f = std::fopen(path.c_str(), "a")) {
      std::fprintf(f, "%lx %zx %s\n", reinterpret_cast<unsigned long>(code.fn), code.size,
                   name.c_str());
      std::fclose(f);
    }
  }
  if (dump && *dump) {
    std::string base = std::string(dump) + "/";
    for (char c : name) // a spec's ':' ',' '=' make awkward file names
      base += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (FILE *f = std::fopen((base + ".bin").c_str(), "wb")) {
      std::fwrite(reinterpret_cast<const void *>(code.fn), 1, code.size, f);
      std::fclose(f);
    }
    if (FILE *f = std::fopen((base + ".asm").c_str(), "w")) {
      std::fprintf(f, "; %s\n%s", name.c_str(), code.listing.c_str());
      std::fclose(f);
    }
  }
}

} // namespace

GeneratedCode::~GeneratedCode() {
  if (fn) runtime().release(fn);
}

Result<std::unique_ptr<GeneratedCode>> generate(const EmitFn &emit, const std::string &name) {
  using R = Result<std::unique_ptr<GeneratedCode>>;
  JitRuntime &rt = runtime();
  CodeHolder code;
  if (asmjit::Error e = code.init(rt.environment()))
    return R::fail("code generation failed: " + error_text(e));
  StringLogger logger;
  logger.addFlags(FormatFlags::kMachineCode);
  code.setLogger(&logger);

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
  out->listing = logger.data();
  publish(*out, name);
  return {std::move(out), {}};
}

Result<std::unique_ptr<GeneratedCode>> compile_kernel(const Spec &s, const CpuInfo &cpu) {
  if (std::string why = unsupported_reason(s, cpu); !why.empty())
    return Result<std::unique_ptr<GeneratedCode>>::fail(std::move(why));
  return generate([&](x86::Assembler &a) { emit_kernel(a, s); }, format_spec(s));
}

} // namespace cjit
