#include "jit/runtime/pool.hpp"

#include <pthread.h>
#include <signal.h>

#include <algorithm>

namespace cjit::detail {

struct Pool::Call {
  size_t left; // pieces not yet cleared, under m
  std::mutex m;
  std::condition_variable done;
};

std::vector<std::pair<char *, size_t>> split_pieces(void *dst, size_t n, unsigned threads) {
  char *const begin = static_cast<char *>(dst), *const end = begin + n;
  threads = std::clamp(threads, 1u, kMaxThreads);
  std::vector<std::pair<char *, size_t>> out;
  char *at = begin;
  for (unsigned i = 1; i < threads; ++i) {
    // Piece i ends at its even share, moved up to the next boundary.
    const unsigned __int128 even =
        reinterpret_cast<uintptr_t>(begin) + (unsigned __int128)n * i / threads;
    const uint64_t up = (uint64_t(even) + kPieceAlign - 1) & ~(kPieceAlign - 1);
    char *cut = reinterpret_cast<char *>(up);
    if (cut <= at || cut >= end) continue; // no boundary inside: one piece fewer
    out.push_back({at, size_t(cut - at)});
    at = cut;
  }
  if (at < end) out.push_back({at, size_t(end - at)});
  return out;
}

namespace {

// Forks since the process started, counted in the child: a pool made before a fork is not the
// child's (its workers were not copied), which a pid alone cannot tell once pids are reused.
std::atomic<unsigned> fork_generation{0};

unsigned generation_now() {
  static const bool registered = [] {
    pthread_atfork(nullptr, nullptr, [] { fork_generation.fetch_add(1); });
    return true;
  }();
  (void)registered;
  return fork_generation.load();
}

} // namespace

Pool::Pool() : generation_(generation_now()) {}

Pool::~Pool() {
  {
    std::lock_guard<std::mutex> l(m_);
    stopping_ = true;
  }
  more_.notify_all();
  for (std::thread &t : threads_)
    t.join();
}

bool Pool::forked() const { return generation_now() != generation_; }

unsigned Pool::workers() const {
  std::lock_guard<std::mutex> l(m_);
  return unsigned(threads_.size());
}

void Pool::ensure_workers(unsigned wanted) {
  // Called with m_ held.
  while (threads_.size() < wanted) {
    try {
      threads_.emplace_back([this] { work(); });
    } catch (...) { // no thread, or no memory for one: the callers clear what is left
      return;
    }
  }
}

void Pool::run(const Task &t) {
  t.clear(t.dst, t.n);
  // Counted under the call's mutex, which orders the piece's stores before the caller's return
  // and keeps the call (on the caller's stack) alive until this thread is done with it.
  std::lock_guard<std::mutex> l(t.call->m);
  if (--t.call->left == 0) t.call->done.notify_all();
}

void Pool::work() {
  // Signals go to the application's own threads, not to clearing workers.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  for (;;) {
    Task t;
    {
      std::unique_lock<std::mutex> l(m_);
      more_.wait(l, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return; // stopping, and nothing left to do
      t = queue_.front();
      queue_.pop_front();
    }
    run(t);
  }
}

void Pool::clear(ClearPiece clear, void *dst, size_t n, unsigned threads) noexcept {
  Call call;
  std::vector<Task> tasks;
  try {
    for (const auto &[at, bytes] : split_pieces(dst, n, threads))
      tasks.push_back({clear, at, bytes, &call});
  } catch (...) { // no memory for the pieces: the single-thread call
    tasks.clear();
  }
  if (tasks.size() <= 1) {
    if (n) clear(dst, n);
    return;
  }
  call.left = tasks.size();
  bool queued = false;
  {
    std::lock_guard<std::mutex> l(m_);
    ensure_workers(unsigned(tasks.size()) - 1); // the caller is one of the threads
    try { // at the end of a deque: all of them or, if it throws, none
      queue_.insert(queue_.end(), tasks.begin() + 1, tasks.end());
      queued = true;
    } catch (...) {
    }
  }
  if (!queued) return clear(dst, n);
  more_.notify_all();
  run(tasks[0]);
  // The caller then takes its own pieces that no worker has started (none started, or fewer
  // than asked for), so the call finishes without any worker at all.
  for (;;) {
    Task t{};
    bool mine = false;
    {
      std::lock_guard<std::mutex> l(m_);
      auto it = std::find_if(queue_.begin(), queue_.end(),
                             [&](const Task &q) { return q.call == &call; });
      if (it != queue_.end()) {
        t = *it;
        queue_.erase(it);
        mine = true;
      }
    }
    if (!mine) break;
    run(t);
  }
  std::unique_lock<std::mutex> l(call.m);
  call.done.wait(l, [&] { return call.left == 0; });
}

} // namespace cjit::detail
