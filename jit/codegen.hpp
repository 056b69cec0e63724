// Turning emitted instructions into callable code: the JIT runtime and generated functions.
#pragma once

#include "profile.hpp"
#include "small.hpp"
#include "spec.hpp"

#include <asmjit/x86.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace cjit::detail {

//! Register contract of every generated function: rdi = dst, rsi = n (System V).
using ClearFn = void (*)(void *dst, size_t n);

//! A generated function in executable memory; released when destroyed.
struct GeneratedCode {
  ClearFn fn = nullptr;
  size_t size = 0;
  std::string listing; //!< one instruction per line, with its encoded bytes

  GeneratedCode() = default;
  GeneratedCode(const GeneratedCode &) = delete;
  GeneratedCode &operator=(const GeneratedCode &) = delete;
  ~GeneratedCode();
};

using EmitFn = std::function<void(asmjit::x86::Assembler &)>;

//! Whether GeneratedCode::listing is filled: always (kernels, whose listing the API returns),
//! or only while CLEARJIT_DUMP needs it (dispatchers, which may be large and many).
enum class Listing { keep, if_dumped };

//! Assembles what `emit` writes and maps it executable (never writable at the same address).
//! `name` labels it for debug aids: CLEARJIT_PERF_MAP=1 appends it to /tmp/perf-<pid>.map;
//! CLEARJIT_DUMP=DIR writes DIR/<name>.bin (raw bytes, for objdump -b binary) and <name>.asm.
//! Both are opened without following links and only if they are this user's regular files;
//! both variables are ignored in set-uid and set-gid processes.
Result<std::unique_ptr<GeneratedCode>> generate(const EmitFn &emit,
                                                const std::string &name = "clearjit_code",
                                                Listing listing = Listing::keep);

//! Emits the body of the kernel described by `s` (feature checks are the caller's).
void emit_kernel(asmjit::x86::Assembler &a, const Spec &s);

//! Emits one function that clears with `table`'s kernels: sizes up to small.max by the small
//! path (small.hpp), then a balanced branch tree on n with each class's kernel inline, every
//! leaf ending in its own ret. `table` is non-empty and validated (every kernel runs on `cpu`),
//! and so is `small`.
void emit_dispatcher(asmjit::x86::Assembler &a, const std::vector<SizeClass> &table,
                     const SmallPath &small, const CpuInfo &cpu);

//! Emits: sizes 0..p.max cleared and returned from (every leaf ends in its own ret), larger sizes
//! jump to `big`. The first instruction is a cmp of rsi; on the way to `big` every instruction is
//! `cmp rsi, imm` or an unsigned conditional branch on it, jae or, before the first jae, jb, ja
//! or je; so a size above max takes only those (tests/support.hpp's tree_landing follows them).
//! Branch targets start at `target_align`-byte boundaries (padding that never runs: every
//! target follows a ret).
void emit_small(asmjit::x86::Assembler &a, const SmallPath &p, const CpuInfo &cpu,
                const asmjit::Label &big, unsigned target_align = kSmallTargetAlign);

//! Parses nothing, checks the CPU, generates: the C++ core of clearjit_kernel_compile.
Result<std::unique_ptr<GeneratedCode>> compile_kernel(const Spec &s, const CpuInfo &cpu);

//! Copies `msg` into a caller's buffer, NUL-terminated and truncated (the C API's convention).
void write_error(char *err, size_t err_len, const std::string &msg);

} // namespace cjit::detail
