// The C library whose memset is every race's incumbent: the one this process runs, or another
// glibc's unpacked tree (`--libc DIR`, scripts/fetch-libc.sh), under whose loader clearjit runs
// itself again so that `memset` in the new process is that library's.
#pragma once

#include "jit/model/spec.hpp"

#include <map>
#include <string>
#include <vector>

namespace cjit::detail {

struct CLibrary {
  std::string name;        //!< "glibc 2.41": what profiles, reports and `which` name
  std::string loader;      //!< absolute path of its ld-linux-x86-64.so.2
  std::string library_dir; //!< the directory of its libc.so.6, searched before the system's
  //! The loader c_library_in checked, open for the life of the process and run from this
  //! descriptor, never again by its path; -1 for the running C library's.
  int loader_fd = -1;
};

//! The C library of this process: its version, and the loader and libc.so.6 mapped into it.
const CLibrary &running_c_library();

//! The glibc unpacked under `dir` (a libc6 package's tree, or a folder holding the loader and
//! libc.so.6). Both files must be regular files inside `dir`, and they and every folder from /
//! down to them owned by this user or root and writable by nobody else (a folder above `dir`
//! may be writable by all if sticky, as /tmp is); only then is the loader opened, checked again
//! on its descriptor, started from it with --version, and must say it is glibc. The error names
//! `dir` and what is wrong.
Result<CLibrary> c_library_in(const std::string &dir);

//! The command line that runs `program` with `args` under `lib`'s loader, `lib`'s directory
//! searched first and the system's after (for libstdc++ and the rest).
std::vector<std::string> command_under(const CLibrary &lib, const std::string &program,
                                       const std::vector<std::string> &args);

//! This executable's path: /proc/self/exe, or, in the process run_self_under started (whose
//! /proc/self/exe is the loader), the path its parent gave on its command line.
std::string self_executable();

//! Replaces this process with clearjit under `lib`'s loader, with `args` (argv without argv[0])
//! after leading arguments that tell the new process this path, `lib.name` (which it checks:
//! libc_mismatch), `lib.library_dir` and `dir`, the --libc the user gave (libc_dir_given).
//! Returns only on failure, with the error.
std::string run_self_under(const CLibrary &lib, const std::string &dir,
                           const std::vector<std::string> &args);

//! Called by main first: takes run_self_under's leading arguments off argv (returns the new
//! argc; -1 with `error` set where they are incomplete), and removes the variables in which
//! clearjit once passed them, so that neither a value set by hand nor a stale one steers this
//! process or its children.
int take_re_execution(int argc, char **argv, std::string &error);

//! In the process run_self_under started: the --libc DIR its parent was given; else empty.
std::string libc_dir_given();

//! Empty where this process was not started by run_self_under, or runs the C library its parent
//! meant; else what it runs instead, e.g. when the loader found the system's libc.so.6 first.
std::string libc_mismatch();

//! `loader --list-tunables` of `lib`: name -> current value (e.g.
//! "glibc.cpu.x86_rep_stosb_threshold" -> 2048). An error where the loader does not list them.
//! With `tunables`, the values under that GLIBC_TUNABLES (glibc ignores one out of its range);
//! without, the library's own (the caller's GLIBC_TUNABLES removed).
Result<std::map<std::string, uint64_t>> list_tunables(const CLibrary &lib,
                                                      const std::string &tunables = {});

//! Runs `argv` with `env` added to this environment, at most `timeout_s` seconds; its stdout
//! (at most `max_bytes`), or an error naming how it failed (could not start, exit status,
//! signal, time out, too much output). With `program_fd` (a CLibrary's loader_fd), the file
//! open there runs, argv[0] only naming it.
Result<std::string> run_capture(const std::vector<std::string> &argv,
                                const std::vector<std::string> &env, double timeout_s,
                                size_t max_bytes = 1 << 20, int program_fd = -1);

} // namespace cjit::detail
