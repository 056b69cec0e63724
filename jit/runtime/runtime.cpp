// The application API: profiles, generated dispatchers, the process-wide default.
#include "jit/runtime/runtime.hpp"

#include "clearjit/clearjit.h"
#include "jit/emit/emit.hpp"
#include "jit/pages/untouched.hpp"
#include "jit/profile/files.hpp"
#include "jit/runtime/pool.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

#ifndef CLEARJIT_PROFILES_DIR
#define CLEARJIT_PROFILES_DIR "/usr/local/share/clearjit/profiles"
#endif

// The model's Intent is the C API's clearjit_intent, whose values cjit::Intent takes too.
static_assert(int(cjit::detail::Intent::reuse) == CLEARJIT_REUSE &&
              int(cjit::detail::Intent::stream) == CLEARJIT_STREAM);

namespace cjit::detail {
namespace {

bool exists(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

std::string env(const char *name) { return clearjit_env(name); }

} // namespace

namespace {

// How far a profile's host is from `cpu`: the features one has and the other lacks. Of two
// installed profiles of one model (measured with and without AVX-512 exposed), the nearer.
size_t feature_distance(const ProfileHost &host, const CpuInfo &cpu) {
  const std::vector<std::string> mine = profile_host(cpu).features;
  size_t d = 0;
  for (const std::string &f : host.features)
    d += std::find(mine.begin(), mine.end(), f) == mine.end();
  for (const std::string &f : mine)
    d += std::find(host.features.begin(), host.features.end(), f) == host.features.end();
  return d;
}

} // namespace

Lookup default_lookup(const CpuInfo &cpu) {
  Lookup out;
  // Profiles of this CPU model passed over because this CPU lacks a feature they need (a
  // hypervisor that hides AVX-512): said in the chosen profile's warnings.
  std::vector<std::string> skipped;
  auto choose = [&](LookupStep s, Result<Profile> p) {
    s.chosen = true;
    out.steps.push_back(std::move(s));
    p.value->warnings.insert(p.value->warnings.begin(), skipped.begin(), skipped.end());
    out.profile = std::move(p);
  };
  // `explicit_choice`: $CLEARJIT_PROFILE names one file on purpose, so a file measured on
  // another CPU is used (with the warning clearjit_open gives any such file), not skipped, and
  // one this CPU cannot run is an error.
  auto consider = [&](const std::string &step, const std::string &path,
                      bool explicit_choice = false) -> bool {
    LookupStep s{step, path, "", false};
    if (path.empty()) {
      s.result = "not set";
    } else if (!exists(path)) {
      s.result = "not found";
    } else if (auto p = explicit_choice ? load_profile(path, cpu, /*allow_pipe=*/false)
                                        : load_profile_for_any_cpu(path);
               !p) {
      s.result = "invalid: " + p.error;
      out.steps.push_back(s);
      out.profile = Result<Profile>::fail(p.error);
      return true;
    } else if (!same_cpu(p->host, cpu) && !explicit_choice) {
      s.result = "skipped: measured on another CPU (" + other_cpu_text(p->host) + ")";
    } else if (std::string why = missing_features(*p, cpu); !why.empty()) {
      s.result = "skipped: " + why;
      skipped.push_back(path + ": skipped: " + why);
    } else {
      s.result = same_cpu(p->host, cpu)
                     ? "chosen"
                     : "chosen, though measured on another CPU (" + other_cpu_text(p->host) + ")";
      choose(std::move(s), std::move(p));
      return true;
    }
    out.steps.push_back(s);
    return false;
  };

  if (consider("$CLEARJIT_PROFILE", env("CLEARJIT_PROFILE"), true)) return out;
  std::string xdg = env("XDG_CONFIG_HOME"), home = env("HOME");
  if (!xdg.empty() && xdg[0] != '/') {
    // The XDG Base Directory spec: a relative path is invalid and ignored. Said, not silent.
    out.steps.push_back({"$XDG_CONFIG_HOME", xdg,
                         "ignored: not an absolute path (the XDG spec says to ignore it)", false});
    xdg.clear();
  }
  std::string user = !xdg.empty()    ? xdg + "/clearjit/profile.toml"
                     : !home.empty() ? home + "/.config/clearjit/profile.toml"
                                     : "";
  if (consider(!xdg.empty() ? "$XDG_CONFIG_HOME/clearjit/profile.toml"
                            : "~/.config/clearjit/profile.toml",
               user))
    return out;
  if (consider("/etc/clearjit/profile.toml", "/etc/clearjit/profile.toml")) return out;

  // Installed profiles: of those measured on this CPU model that it runs, the one measured with
  // the nearest features (then the first by name); others are passed over quietly, and invalid
  // files too (a package's files are not the user's to fix).
  std::string dir = CLEARJIT_PROFILES_DIR;
  std::vector<std::string> files;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d)) {
      std::string name = e->d_name;
      if (name.size() > 5 && name.compare(name.size() - 5, 5, ".toml") == 0)
        files.push_back(dir + "/" + name);
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  InstalledChoice installed = choose_installed(files, cpu);
  for (const std::string &why : installed.skipped)
    skipped.push_back(why);
  LookupStep step{"installed profiles", dir, "", false};
  if (installed.profile) {
    step.path = installed.profile->source;
    step.result = "chosen";
    for (const std::string &why : installed.skipped)
      step.result += "; " + why;
    choose(std::move(step), std::move(installed.profile));
    return out;
  }
  step.result = files.empty()
                    ? "none installed"
                    : "none for this CPU (" + std::to_string(files.size()) + " looked at)";
  for (const std::string &why : installed.skipped)
    step.result += "; " + why;
  out.steps.push_back(step);
  choose({"built-in default", "", "chosen", false}, {builtin_profile(cpu), {}});
  return out;
}

InstalledChoice choose_installed(const std::vector<std::string> &files, const CpuInfo &cpu) {
  InstalledChoice out;
  size_t best = SIZE_MAX;
  for (const std::string &f : files) {
    auto p = load_profile_for_any_cpu(f);
    if (!p || !same_cpu(p->host, cpu)) continue;
    if (std::string why = missing_features(*p, cpu); !why.empty()) {
      out.skipped.push_back(f + ": skipped: " + why);
      continue;
    }
    if (const size_t d = feature_distance(p->host, cpu); d < best) {
      best = d;
      out.profile = std::move(p);
    }
  }
  return out;
}

} // namespace cjit::detail

using namespace cjit;
using namespace cjit::detail;

namespace {

// The public struct clearjit (clearjit.h: the two entry points) and what only the library sees.
struct State : clearjit {
  Profile profile;
  std::unique_ptr<GeneratedCode> reuse, stream; // stream null: the reuse table serves both
  std::unique_ptr<GeneratedCode> batch;         // the batch table without fences
  ClearFn batch_fn = nullptr;
  mutable std::atomic<size_t> open_batches{0};
  std::string warnings;
  std::string no_code; //!< why its entry points call memset; empty: they are generated code
  std::vector<std::string> reuse_specs, stream_specs, batch_specs; // canonical, one per class
  //! clearjit_clear_parallel's workers, made on first use; one made by a parent process is
  //! left alone in a child (its threads are not there), which makes its own.
  mutable std::atomic<Pool *> pool{nullptr};

  ~State() {
    if (Pool *p = pool.load(); p && !p->forked()) delete p; // stops and joins its workers
  }
};

// The handle's pool for this process, made on first use.
Pool &pool_of(const State &st) {
  for (;;) {
    Pool *p = st.pool.load(std::memory_order_acquire);
    if (p && !p->forked()) return *p;
    auto fresh = std::make_unique<Pool>();
    // A parent's pool, in a child, is leaked: destroying it would join threads that are not here.
    if (st.pool.compare_exchange_strong(p, fresh.get(), std::memory_order_acq_rel))
      return *fresh.release();
  }
}

const State &state(const clearjit *cj) { return *static_cast<const State *>(cj); }

// Every clear by the C library's memset: the entry points of a handle without generated code.
void memset_clear(void *dst, size_t n) { memset_target(dst, 0, n); }

// Where no code can be mapped (`why`): `cj`'s entry points call memset, and `p`, which it
// keeps, says so in its tables (one libc class) and warnings. Said once per process under
// CLEARJIT_VERBOSE=1.
void without_code(State &cj, Profile &p, const std::string &why) {
  cj.reuse.reset();
  cj.stream.reset();
  cj.batch.reset();
  cj.clear = cj.clear_stream = cj.batch_fn = memset_clear;
  p.reuse = {{0, default_spec(Method::libc)}};
  p.stream.clear();
  p.batch.clear();
  for (std::optional<SmallPath> *small : {&p.small_reuse, &p.small_stream}) // memset too
    *small = SmallPath{Small::libc, *small ? (*small)->max : SmallPath{}.max};
  p.parallel_reuse.reset(); // their counts were measured for generated kernels
  p.parallel_stream.reset();
  const std::string what = "no generated code here (" + why + "): every clear calls memset";
  cj.no_code = what;
  cj.warnings += p.source + ": " + what + "\n";
  static std::atomic<bool> said{false};
  if (clearjit_env_switch("CLEARJIT_VERBOSE", false) && !said.exchange(true))
    std::fprintf(stderr, "clearjit: %s\n", what.c_str());
}

} // namespace

std::string cjit::detail::running_memset() {
  const void *target = reinterpret_cast<const void *>(memset_target);
  Dl_info at{}, libc_at{};
  void *sym_entry = nullptr; // the ElfW(Sym) of the symbol found
  // Another object's memset: a symbol defined there (not the PLT stub of a program built
  // without PIE, an undefined symbol at the stub's address), in another object than the C
  // library (the one that defines gnu_get_libc_version; no dlopen, which leaks a little under
  // a loader started as a program).
  if (!dladdr1(target, &at, &sym_entry, RTLD_DL_SYMENT) || !sym_entry ||
      static_cast<const ElfW(Sym) *>(sym_entry)->st_shndx == SHN_UNDEF || at.dli_saddr != target ||
      !dladdr(reinterpret_cast<const void *>(&gnu_get_libc_version), &libc_at) ||
      at.dli_fbase == libc_at.dli_fbase)
    return running_libc();
  // A sanitizer's runtime intercepts memset and calls the C library's: that is the C library's.
  for (const char *init : {"__asan_init", "__tsan_init", "__msan_init", "__hwasan_init"}) {
    Dl_info runtime{};
    if (void *f = dlsym(RTLD_DEFAULT, init);
        f && dladdr(f, &runtime) && runtime.dli_fbase == at.dli_fbase)
      return running_libc();
  }
  // The object's file name as a profile's [tuning] libc holds it: printable ASCII, and the
  // whole at most kMaxLibcName characters.
  const std::string under = " under " + running_libc(), of = "memset of ";
  std::string name = at.dli_fname && *at.dli_fname ? at.dli_fname : "the program";
  name = name.substr(name.rfind('/') + 1);
  const size_t room = kMaxLibcName - std::min(kMaxLibcName - 8, of.size() + under.size());
  if (name.size() > room) name.resize(room);
  for (char &c : name)
    if (c < ' ' || c > '~') c = '?';
  return (of + name + under).substr(0, kMaxLibcName);
}

namespace {

// Under a seccomp filter, untouched=skip's look (an open and reads of /proc/self files) might be
// refused or fatal: every class writes its untouched pages there, as the preload does
// (untouched.hpp, seccomp_filtered). Says which classes, or "".
std::string write_untouched_if_filtered(Profile &p) {
  const std::pair<const char *, std::vector<SizeClass> *> tables[] = {
      {"reuse", &p.reuse}, {"stream", &p.stream}, {"batch", &p.batch}};
  std::string classes; // "reuse stosb, stream ntavx2": each skipping class, as it will be
  for (auto [name, table] : tables)
    for (const SizeClass &c : *table)
      if (c.kernel.untouched == Untouched::skip) {
        Spec written = c.kernel;
        written.untouched = Untouched::write;
        classes += (classes.empty() ? " " : ", ") + std::string(name) + " " + format_spec(written);
      }
  if (classes.empty() || !seccomp_filtered()) return {};
  for (auto [name, table] : tables)
    write_untouched(*table);
  return "this process runs under a seccomp filter, so untouched pages are written "
         "(untouched=write) in" +
         classes;
}

} // namespace

clearjit *cjit::detail::open_profile(Profile p, const CpuInfo &cpu, std::string &error,
                                     std::string_view libc, SeccompCheck seccomp) {
  auto cj = std::make_unique<State>();
  for (const std::string &w : p.warnings)
    cj->warnings += w + "\n";
  const StandInRouting routing = route_to_stand_ins(p, libc);
  if (seccomp == SeccompCheck::ask)
    if (std::string left = write_untouched_if_filtered(p); !left.empty())
      cj->warnings += p.source + ": " + left + "\n";
  if (p.source != "built-in" && !same_cpu(p.host, cpu))
    cj->warnings += p.source + ": measured on " + other_cpu_text(p.host) + ", this CPU is " +
                    other_cpu_text(profile_host(cpu)) +
                    "; its choices may not be the fastest here\n";
  // A small path this CPU cannot run is the profile's fault, whether code can be mapped or not.
  for (Intent i : {Intent::reuse, Intent::stream})
    if (std::string why = small_unsupported_reason(p.small(i, cpu), cpu); !why.empty()) {
      error = why;
      return nullptr;
    }
  // One dispatcher: its code kept in `slot`, its entry returned (nullptr with `error` set).
  auto dispatcher = [&](const std::vector<SizeClass> &table, Intent intent, const char *name,
                        std::unique_ptr<GeneratedCode> &slot) -> ClearFn {
    const SmallPath small = p.small(intent, cpu); // checked above
    auto code = generate([&](asmjit::x86::Assembler &a) { emit_dispatcher(a, table, small, cpu); },
                         name, Listing::if_dumped);
    if (!code) {
      error = code.error;
      return nullptr;
    }
    slot = std::move(code.value.value());
    return slot->fn;
  };
  // Stream gets its own dispatcher when its table or its small path differs from reuse's.
  // Batches fence once at their end, so their pieces are cleared without any fence.
  std::vector<SizeClass> unfenced = p.batch_table();
  for (SizeClass &c : unfenced)
    c.kernel.fence = Fence::none;
  const bool own_stream =
      !p.stream.empty() || p.small(Intent::stream, cpu) != p.small(Intent::reuse, cpu);
  const bool made =
      (cj->clear = cj->clear_stream =
           dispatcher(p.reuse, Intent::reuse, "clearjit_dispatch_reuse", cj->reuse)) &&
      (!own_stream || (cj->clear_stream = dispatcher(p.table(Intent::stream), Intent::stream,
                                                     "clearjit_dispatch_stream", cj->stream))) &&
      (cj->batch_fn = dispatcher(unfenced, Intent::stream, "clearjit_dispatch_batch", cj->batch));
  if (!made) {
    if (!error.starts_with(kNoCodeMemory)) return nullptr;
    without_code(*cj, p, error);
  } else if (routing.other_libc) {
    cj->warnings += p.source + ": " + routing.note + "\n";
  }
  auto specs = [](const std::vector<SizeClass> &table) {
    std::vector<std::string> out;
    for (const SizeClass &c : table)
      out.push_back(format_spec(c.kernel));
    return out;
  };
  cj->reuse_specs = specs(p.reuse);
  cj->stream_specs = specs(p.table(Intent::stream));
  cj->batch_specs = specs(p.batch_table());
  cj->profile = std::move(p);
  return cj.release();
}

bool cjit::detail::has_generated_code(const clearjit *cj) { return state(cj).no_code.empty(); }

clearjit *cjit::detail::open_generated(const Profile &p, const CpuInfo &cpu, std::string &error) {
  clearjit *cj = open_profile(p, cpu, error);
  if (cj && !has_generated_code(cj)) {
    error = state(cj).no_code;
    clearjit_close(cj);
    return nullptr;
  }
  return cj;
}

clearjit *cjit::detail::open_default(const char *user, const std::function<void(Profile &)> &rule,
                                     SeccompCheck seccomp) {
  const CpuInfo &cpu = host_cpu();
  bool verbose = clearjit_env_switch("CLEARJIT_VERBOSE", false);
  Lookup l = default_lookup(cpu);
  std::string error, why;
  clearjit *cj = nullptr;
  auto ruled = [&](Profile p) {
    if (rule) rule(p);
    return p;
  };
  if (l.profile) {
    cj = open_profile(ruled(*l.profile), cpu, error, running_memset(), seccomp);
    why =
        l.steps.back().step + (l.steps.back().path.empty() ? "" : " (" + l.steps.back().path + ")");
  } else {
    error = l.profile.error;
  }
  if (!cj) {
    std::string builtin_error;
    cj = open_profile(ruled(builtin_profile(cpu)), cpu, builtin_error, running_memset(), seccomp);
    why = "built-in default, because " + error;
  }
  if (verbose) std::fprintf(stderr, "clearjit: %s uses %s\n", user, why.c_str());
  return cj;
}

const Profile &cjit::detail::opened_profile(const clearjit *cj) { return state(cj).profile; }

clearjit *cjit::detail::open_lookup(const CpuInfo &cpu, std::string &error) {
  Result<Profile> p = default_lookup(cpu).profile;
  if (!p) {
    error = p.error;
    return nullptr;
  }
  return open_profile(std::move(*p.value), cpu, error);
}

extern "C" {

clearjit *clearjit_open(const char *profile_path, char *err, size_t err_len) {
  try {
    const CpuInfo &cpu = host_cpu();
    std::string error;
    clearjit *cj = nullptr;
    if (!profile_path) {
      cj = open_lookup(cpu, error);
    } else if (Result<Profile> p = load_profile(profile_path, cpu); !p) {
      error = p.error;
    } else {
      cj = open_profile(std::move(*p.value), cpu, error);
    }
    if (!cj) write_error(err, err_len, error);
    return cj;
  } catch (const std::bad_alloc &) {
    write_error(err, err_len, "out of memory");
  } catch (const std::exception &e) {    // none is expected; none may cross the C API
    write_error(err, err_len, e.what()); // nothing that allocates here
  } catch (...) {
    write_error(err, err_len, "internal error");
  }
  return nullptr;
}

// The exported symbols stay for callers that take their address or were built against an
// older header; the header's inline versions do the same (one load, one indirect call).
void(clearjit_clear)(const clearjit *cj, void *dst, size_t n) { cj->clear(dst, n); }

void(clearjit_clear_stream)(const clearjit *cj, void *dst, size_t n) { cj->clear_stream(dst, n); }

const char *clearjit_kernel_for(const clearjit *cj, clearjit_intent intent, size_t n) {
  if (!cj) return "";
  const State &st = state(cj);
  const std::vector<SizeClass> &table =
      intent == CLEARJIT_STREAM_BATCH
          ? st.profile.batch_table()
          : st.profile.table(intent == CLEARJIT_STREAM ? Intent::stream : Intent::reuse);
  const auto &specs = intent == CLEARJIT_STREAM_BATCH ? st.batch_specs
                      : intent == CLEARJIT_STREAM     ? st.stream_specs
                                                      : st.reuse_specs;
  return specs[size_t(&class_for(table, n) - table.data())].c_str();
}

namespace {

Intent parallel_intent(clearjit_intent intent) {
  return intent == CLEARJIT_REUSE ? Intent::reuse : Intent::stream;
}

// The count for n bytes: `threads` as asked (a caller's explicit count is honoured), or for 0
// the table's choice, which is 1 below its `from`, capped at the CPUs the calling thread may use
// now; 1 wherever the region has no 2 MiB boundary to cut at.
unsigned threads_for(const State &st, Intent intent, size_t n, unsigned threads) {
  if (n < kFewestParallelBytes) return 1;
  if (threads) return std::min(threads, kMaxThreads);
  const ParallelTable *table = st.profile.parallel(intent);
  const unsigned chosen = table ? table->at(n) : 1;
  return chosen > 1 ? std::min(chosen, usable_cpus()) : 1;
}

} // namespace

unsigned clearjit_threads_for(const clearjit *cj, clearjit_intent intent, size_t n) {
  return cj ? threads_for(state(cj), parallel_intent(intent), n, 0) : 1;
}

void clearjit_clear_parallel(const clearjit *cj, clearjit_intent intent, void *dst, size_t n,
                             unsigned threads) {
  const ClearFn clear = intent == CLEARJIT_REUSE ? cj->clear : cj->clear_stream;
  const State &st = state(cj);
  threads = threads_for(st, parallel_intent(intent), n, threads);
  if (threads == 1) return clear(dst, n);
  Pool *pool = nullptr;
  try {
    pool = &pool_of(st);
  } catch (...) { // no memory for a pool: the single-thread call
    return clear(dst, n);
  }
  pool->clear(clear, dst, n, threads);
}

const char *clearjit_profile_source(const clearjit *cj) {
  return cj ? state(cj).profile.source.c_str() : "";
}

const char *clearjit_warnings(const clearjit *cj) { return cj ? state(cj).warnings.c_str() : ""; }

void clearjit_batch_begin(clearjit_batch *b, const clearjit *cj) {
  b->cj = cj;
  b->pieces = 0;
  b->open = cj != nullptr; // NULL: not opened; its pieces go to clearjit_zero, fenced
  if (cj) state(cj).open_batches.fetch_add(1, std::memory_order_relaxed);
}

void(clearjit_batch_clear)(clearjit_batch *b, void *dst, size_t n) {
  if (b->open != 1) { // the caller's debug build asserts; here the piece is cleared, fenced
    if (b->cj)
      b->cj->clear_stream(dst, n); // ended
    else
      clearjit_zero(dst, n); // never begun (zero-initialised): the process-wide default
    return;
  }
  state(b->cj).batch_fn(dst, n);
  ++b->pieces;
}

size_t(clearjit_batch_end)(clearjit_batch *b) {
  if (b->open != 1) return 0;
  asm volatile("sfence" ::: "memory"); // orders every non-temporal store of the batch
  // Saturating: ending a copy of an ended batch must not wrap the count.
  std::atomic<size_t> &count = state(b->cj).open_batches;
  size_t open = count.load(std::memory_order_relaxed);
  while (open && !count.compare_exchange_weak(open, open - 1, std::memory_order_relaxed))
    ;
  b->open = 0;
  return b->pieces;
}

size_t clearjit_batches_open(const clearjit *cj) {
  return cj ? state(cj).open_batches.load(std::memory_order_relaxed) : 0;
}

void(clearjit_close)(clearjit *cj) { delete static_cast<State *>(cj); }

void clearjit_zero(void *dst, size_t n) {
  // A function-local static: initialised once, thread-safe, also when many threads call first.
  // NULL (no memory even for a handle calling memset): memset, and no second try.
  static const clearjit *cj = [] {
    try {
      return open_default("clearjit_zero");
    } catch (...) {
      return static_cast<clearjit *>(nullptr);
    }
  }();
  if (cj)
    cj->clear(dst, n);
  else
    memset_target(dst, 0, n);
}

} // extern "C"
