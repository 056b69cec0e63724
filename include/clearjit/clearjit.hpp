// C++ interface to clearjit: RAII wrappers over the C API.
#pragma once

#include "clearjit.h"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace clearjit {

//! Thrown by the throwing constructors; what() is the library's message.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

//! A generated clearing kernel. Movable, not copyable.
class Kernel {
public:
  //! Compiles `spec` for this CPU; throws clearjit::Error with the reason on failure.
  explicit Kernel(std::string_view spec) {
    std::string error;
    if (auto k = compile(spec, &error))
      *this = std::move(*k);
    else
      throw Error(error);
  }

  //! Compiles `spec`; on failure returns nullopt and, when `error` is set, the reason.
  static std::optional<Kernel> compile(std::string_view spec, std::string *error = nullptr) {
    char buf[512];
    clearjit_kernel *k = clearjit_kernel_compile(std::string(spec).c_str(), buf, sizeof buf);
    if (!k) {
      if (error)
        *error = buf;
      return std::nullopt;
    }
    return Kernel(k);
  }

  void clear(void *dst, size_t n) const { clearjit_kernel_clear(k_.get(), dst, n); }
  void operator()(void *dst, size_t n) const { clear(dst, n); }
  std::string_view spec() const { return clearjit_kernel_spec(k_.get()); }
  std::string_view listing() const { return clearjit_kernel_asm(k_.get()); }
  const clearjit_kernel *get() const { return k_.get(); }

private:
  explicit Kernel(clearjit_kernel *k) : k_(k) {}
  struct Free {
    void operator()(clearjit_kernel *k) const { clearjit_kernel_free(k); }
  };
  std::unique_ptr<clearjit_kernel, Free> k_;
};

} // namespace clearjit
