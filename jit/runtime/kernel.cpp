// The C API for single kernels.
#include "clearjit/clearjit.h"
#include "jit/emit/emit.hpp"

#include <cstring>
#include <new>

using namespace cjit;
using namespace cjit::detail;

struct clearjit_kernel {
  std::string spec;
  std::unique_ptr<GeneratedCode> code;
};

namespace cjit::detail {
void write_error(char *err, size_t err_len, std::string_view msg) {
  if (!err || err_len == 0) return;
  size_t n = std::min(msg.size(), err_len - 1);
  std::memcpy(err, msg.data(), n);
  err[n] = '\0';
}
} // namespace cjit::detail

extern "C" {

clearjit_kernel *clearjit_kernel_compile(const char *spec, char *err, size_t err_len) {
  if (!spec) {
    write_error(err, err_len, "spec is NULL");
    return nullptr;
  }
  try {
    auto parsed = parse_spec(spec);
    if (!parsed) {
      write_error(err, err_len, parsed.error);
      return nullptr;
    }
    auto code = compile_kernel(*parsed, host_cpu());
    if (!code) {
      write_error(err, err_len, code.error);
      return nullptr;
    }
    return new clearjit_kernel{format_spec(*parsed), std::move(code.value.value())};
  } catch (const std::bad_alloc &) {
    write_error(err, err_len, "out of memory");
  } catch (const std::exception &e) {    // none is expected; none may cross the C API
    write_error(err, err_len, e.what()); // nothing that allocates here
  } catch (...) {
    write_error(err, err_len, "internal error");
  }
  return nullptr;
}

void clearjit_kernel_clear(const clearjit_kernel *k, void *dst, size_t n) { k->code->fn(dst, n); }

const char *clearjit_kernel_spec(const clearjit_kernel *k) { return k->spec.c_str(); }

const char *clearjit_kernel_asm(const clearjit_kernel *k) { return k->code->listing.c_str(); }

void clearjit_kernel_free(clearjit_kernel *k) { delete k; }

} // extern "C"
