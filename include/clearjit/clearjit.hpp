// C++ interface to clearjit: RAII wrappers over the C API. The namespace is cjit because the
// C API's `struct clearjit` owns the global name `clearjit`. The library's internals live in
// cjit::detail, which nothing here exposes.
#pragma once

#include "clearjit.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cjit {

//! Thrown by the throwing constructors; what() is the library's message.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

//! A generated clearing kernel. Movable, not copyable.
class Kernel {
public:
  //! Compiles `spec` for this CPU; throws cjit::Error with the reason on failure.
  explicit Kernel(std::string_view spec) {
    std::string error;
    if (auto k = compile(spec, &error))
      *this = std::move(*k);
    else
      throw Error(error);
  }

  //! Compiles `spec`; on failure returns nullopt and, when `error` is set, the reason.
  static std::optional<Kernel> compile(std::string_view spec, std::string *error = nullptr) {
    // Messages quote at most the spec, so this buffer holds any of them whole.
    std::string buf(spec.size() + 512, '\0');
    clearjit_kernel *k = clearjit_kernel_compile(std::string(spec).c_str(), buf.data(), buf.size());
    if (!k) {
      if (error) *error = buf.c_str();
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

//! What the caller does after clearing: touches the memory soon (reuse) or not (stream).
enum class Intent : uint8_t { reuse = CLEARJIT_REUSE, stream = CLEARJIT_STREAM };

//! A loaded profile and its generated dispatchers. Movable, not copyable; clear() and
//! clear_stream() are reentrant and async-signal-safe.
class Clearer {
public:
  //! Opens the profile at `path`, or the default lookup when empty; throws cjit::Error.
  explicit Clearer(const std::string &path = {}) {
    std::string error;
    if (auto c = open(path, &error))
      *this = std::move(*c);
    else
      throw Error(error);
  }

  //! Opens as the constructor does; on failure returns nullopt and, when `error` is set, the
  //! reason. Never throws for a bad profile.
  static std::optional<Clearer> open(const std::string &path = {}, std::string *error = nullptr) {
    // Messages quote the path and a line of the file at most.
    std::string buf(path.size() + 8192, '\0');
    clearjit *cj = clearjit_open(path.empty() ? nullptr : path.c_str(), buf.data(), buf.size());
    if (!cj) {
      if (error) *error = buf.c_str();
      return std::nullopt;
    }
    return Clearer(cj);
  }

  void clear(void *dst, size_t n) const { clearjit_clear(cj_.get(), dst, n); }
  void clear_stream(void *dst, size_t n) const { clearjit_clear_stream(cj_.get(), dst, n); }
  //! Huge regions on several threads (0: the profile's choice); see clearjit_clear_parallel.
  void clear_parallel(void *dst, size_t n, unsigned threads = 0,
                      Intent intent = Intent::reuse) const {
    clearjit_clear_parallel(cj_.get(), clearjit_intent(intent), dst, n, threads);
  }
  unsigned threads_for(Intent intent, size_t n) const {
    return clearjit_threads_for(cj_.get(), clearjit_intent(intent), n);
  }
  std::string_view kernel_for(Intent intent, size_t n) const {
    return clearjit_kernel_for(cj_.get(), clearjit_intent(intent), n);
  }
  std::string_view source() const { return clearjit_profile_source(cj_.get()); }
  std::string_view warnings() const { return clearjit_warnings(cj_.get()); }
  const clearjit *get() const { return cj_.get(); }

private:
  explicit Clearer(clearjit *cj) : cj_(cj) {}
  struct Close {
    void operator()(clearjit *cj) const { clearjit_close(cj); }
  };
  std::unique_ptr<clearjit, Close> cj_;
};

//! Stream clears fenced once: the destructor (or end()) issues the sfence, so it cannot be
//! forgotten. Not copyable or movable: it lives in one scope of one thread.
class StreamBatch {
public:
  explicit StreamBatch(const Clearer &c) { clearjit_batch_begin(&b_, c.get()); }
  explicit StreamBatch(Clearer &&) = delete; // the handle must outlive the batch
  explicit StreamBatch(const clearjit *cj) { clearjit_batch_begin(&b_, cj); }
  StreamBatch(const StreamBatch &) = delete;
  StreamBatch &operator=(const StreamBatch &) = delete;
  ~StreamBatch() { end(); }

  void clear(void *dst, size_t n) { clearjit_batch_clear(&b_, dst, n); }
  //! Fences now; later calls to end() do nothing. Returns the pieces cleared.
  size_t end() { return b_.open ? (clearjit_batch_end)(&b_) : 0; }

private:
  clearjit_batch b_{};
};

//! The process-wide default (intent reuse); never fails.
inline void zero(void *dst, size_t n) { clearjit_zero(dst, n); }

} // namespace cjit
