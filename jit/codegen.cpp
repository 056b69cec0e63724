#include "codegen.hpp"

namespace clearjit {
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

std::string error_text(Error e) { return DebugUtils::errorAsString(e); }

} // namespace

GeneratedCode::~GeneratedCode() {
  if (fn)
    runtime().release(fn);
}

Result<std::unique_ptr<GeneratedCode>> generate(const EmitFn &emit) {
  using R = Result<std::unique_ptr<GeneratedCode>>;
  JitRuntime &rt = runtime();
  CodeHolder code;
  if (Error e = code.init(rt.environment()))
    return R::fail("code generation failed: " + error_text(e));
  StringLogger logger;
  logger.addFlags(FormatFlags::kMachineCode);
  code.setLogger(&logger);

  // Errors are collected, not thrown: the first one is reported.
  struct : ErrorHandler {
    Error first = kErrorOk;
    std::string message;
    void handleError(Error err, const char *msg, BaseEmitter *) override {
      if (first == kErrorOk) {
        first = err;
        message = msg;
      }
    }
  } errors;
  code.setErrorHandler(&errors);

  x86::Assembler a(&code);
  emit(a);
  if (errors.first != kErrorOk)
    return R::fail("code generation failed: " + errors.message);

  auto out = std::make_unique<GeneratedCode>();
  void *fn = nullptr;
  if (Error e = rt.add(&fn, &code))
    return R::fail("cannot map generated code: " + error_text(e));
  out->fn = reinterpret_cast<ClearFn>(fn);
  out->size = code.codeSize();
  out->listing = logger.data();
  return {std::move(out), {}};
}

Result<std::unique_ptr<GeneratedCode>> compile_kernel(const Spec &s, const CpuInfo &cpu) {
  if (std::string why = unsupported_reason(s, cpu); !why.empty())
    return Result<std::unique_ptr<GeneratedCode>>::fail(std::move(why));
  return generate([&](x86::Assembler &a) { emit_kernel(a, s); });
}

} // namespace clearjit
