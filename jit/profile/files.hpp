// Files as attack surface: bounded, non-blocking reads; outputs that never write through a
// link or replace what is not a regular file; debug files in shared directories such as /tmp.
#pragma once

#include "jit/model/spec.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace cjit::detail {

struct ReadLimits {
  size_t max_bytes = 1u << 20;
  bool allow_pipe = false; //!< pipes and FIFOs (`clearjit check <(generate)`), read for at most:
  int pipe_timeout_ms = 5000;
  std::string_view what = "a profile file"; //!< what the caller reads, for its messages
};

//! The whole content of a regular file (or a pipe when allowed), at most `max_bytes`. Never
//! blocks: the open is non-blocking, a pipe must deliver everything and close within the
//! timeout, and files of /proc, /sys and other kernel interfaces (/proc/kmsg looks like a
//! regular file and blocks, or loses the kernel's messages) are refused unread.
//! Errors read "<path>: <why>".
Result<std::string> read_small_file(const std::string &path, const ReadLimits &limits = {});

//! Empty when write_file_atomically(path) can be expected to succeed: the directory exists, is
//! a directory and takes a new file (one is created and removed to be sure), and the target is
//! absent or a regular file this user owns. Outputs are checked before minutes of measuring,
//! not after.
std::string check_output_path(const std::string &path);

//! Writes `text` to a new temporary file in path's directory (created exclusively, so a planted
//! link is never followed), syncs it, renames it over `path` and syncs the folder. Refuses a
//! target that exists and is not a regular file (a device, a FIFO, a symbolic link, a
//! directory) or that another user owns; a replaced file's mode and group are kept.
std::string write_file_atomically(const std::string &path, std::string_view text);

//! Opens a debug output (the perf map, a dump) for writing without following a link, and only
//! if it is a regular file owned by this user: /tmp/perf-<pid>.map is a predictable name in a
//! shared directory. `append` keeps what is there; otherwise it is truncated once checked.
//! Returns -1 with `error` set on refusal.
int open_debug_output(const std::string &path, bool append, std::string &error);

//! Writes all of `bytes` to `fd`, retrying short writes and EINTR; false on an error (errno).
bool write_all(int fd, std::string_view bytes);

//! A clearjit environment variable ("" when unset), ignored in set-uid and set-gid processes
//! (secure_getenv) so that their callers cannot steer files or profiles through it.
std::string clearjit_env(const char *name);

//! A clearjit on/off variable as clearjit_env reads it: 0/1, off/on, no/yes, false/true in any
//! case (switch_word, jit/profile/env_switch.hpp); unset or empty gives `fallback`, and so does
//! anything else, said once per variable on stderr ("clearjit: CLEARJIT_VERBOSE=maybe is not on
//! or off ..."): a value that means nothing must not pass unnoticed.
bool clearjit_env_switch(const char *name, bool fallback);
//! Whatever `name` holds, clearjit_env_switch no longer says it (another reader said it first:
//! libclearjit-preload.so reads CLEARJIT_VERBOSE before its generator loads this library).
void env_switch_said(const char *name);

} // namespace cjit::detail
