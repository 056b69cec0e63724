// libclearjit-preload-generator.so: the part of the preload that makes code (CPU detection, the
// profile lookup, AsmJit, libstdc++ linked in), apart so that a process that never clears a large
// buffer does not even map it (preload/preload.cpp loads it).
#include "preload/generator.hpp"

#include "jit/emit/emit.hpp"
#include "jit/pages/untouched.hpp"
#include "jit/profile/files.hpp"
#include "jit/runtime/runtime.hpp"

extern "C" const clearjit *clearjit_preload_generate(void *(*libc_memset)(void *, int, size_t),
                                                     int untouched) noexcept {
  using namespace cjit::detail;
  memset_target = libc_memset;
  try {
    env_switch_said("CLEARJIT_VERBOSE"); // the preload has said what it makes of it
    auto rule = [untouched](Profile &p) {
      for (std::vector<SizeClass> *t : {&p.reuse, &p.stream, &p.batch})
        if (untouched)
          leave_untouched_from(*t, kUntouchedMin);
        else
          write_untouched(*t);
    };
    clearjit *cj = open_default("clearjit-preload", rule, SeccompCheck::decided);
    // A handle without generated code would only add a call before memset: none.
    if (cj && !has_generated_code(cj)) {
      clearjit_close(cj);
      return nullptr;
    }
    return cj;
  } catch (...) {
    return nullptr;
  }
}
