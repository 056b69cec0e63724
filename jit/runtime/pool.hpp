// The workers that clear huge regions on several threads (clearjit_clear_parallel): a small pool
// owned by one handle, started on first use, joined when the handle closes. It knows nothing of
// code generation (a clear is a function pointer), so it is tested alone, under ThreadSanitizer.
#pragma once

#include "jit/model/pieces.hpp"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace cjit::detail {

using ClearPiece = void (*)(void *dst, size_t n);

//! [dst, dst + n) cut into at most `threads` pieces on kPieceAlign boundaries, as even as those
//! allow; fewer (down to one) where the region holds fewer boundaries. Each piece (start, bytes).
std::vector<std::pair<char *, size_t>> split_pieces(void *dst, size_t n, unsigned threads);

class Pool {
public:
  Pool();
  ~Pool(); //!< stops and joins the workers; never for a forked() pool, whose threads are gone
  Pool(const Pool &) = delete;
  Pool &operator=(const Pool &) = delete;

  //! Clears [dst, dst + n) with `clear` on up to `threads` threads, the caller one of them, and
  //! returns when every piece is done: the workers' stores (and each piece's own fence) happen
  //! before the return. Starts workers as needed; a worker that cannot be started means fewer
  //! threads (the caller clears what no one takes), never an error; no memory for the pieces
  //! means the single-thread call. Reentrant: several callers may run at once. Workers block
  //! every signal.
  void clear(ClearPiece clear, void *dst, size_t n, unsigned threads) noexcept;

  //! Workers running now.
  unsigned workers() const;
  //! Whether this pool was made before a fork of this process (this one the child): its
  //! workers do not exist here, so it must be neither used nor joined.
  bool forked() const;

private:
  struct Call; // one clear_parallel call: its pieces left, and the caller waiting for them
  struct Task {
    ClearPiece clear;
    char *dst;
    size_t n;
    Call *call;
  };
  void ensure_workers(unsigned wanted);
  void work();
  static void run(const Task &t);

  const unsigned generation_; //!< forks counted when it was made
  mutable std::mutex m_;
  std::condition_variable more_; // tasks queued, or stopping
  std::deque<Task> queue_;
  std::vector<std::thread> threads_;
  bool stopping_ = false;
};

} // namespace cjit::detail
