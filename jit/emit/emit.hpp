// The emit API: generated code (the JIT runtime), kernels, dispatchers and small paths, and the
// building blocks kernels and dispatchers are made of, each of which can be emitted alone so that
// it has one golden listing (tests/generated/test_golden.cpp) and a change to one block rewrites
// one file. emitter.hpp is the block library behind it, private to jit/emit/.
#pragma once

#include "jit/model/small.hpp"
#include "jit/model/spec.hpp"
#include "jit/model/table.hpp"

#include <asmjit/x86.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cjit::detail {

//! Register contract of every generated function: rdi = dst, rsi = n (System V).
using ClearFn = void (*)(void *dst, size_t n);

//! A generated function in executable pages of its own (`mapped` bytes from the page that holds
//! fn); unmapped when destroyed. The code never changes while mapped, in this process or in a
//! child after fork.
struct GeneratedCode {
  ClearFn fn = nullptr;
  size_t size = 0;
  size_t mapped = 0;
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

//! How generated code is mapped, for the whole process. private_pages: anonymous pages written,
//! then made read+execute (copied on write after fork; no descriptor). memfd_pages, where the
//! system refuses the first (SELinux deny_execmem): a close-on-exec memfd per function, mapped
//! read+execute only, written with pwrite, then sealed. Chosen at the first refusal; tests may
//! set it.
enum class CodeMap { private_pages, memfd_pages };
CodeMap code_map();
void use_code_map(CodeMap m);

//! What generate's error begins with when code cannot be placed in executable memory here (no
//! executable pages allowed, out of memory): the environment's failure, not the code's, where
//! the C API falls back to memset.
inline constexpr std::string_view kNoCodeMemory = "cannot map generated code";

//! Assembles what `emit` writes and maps it executable (never writable at the same address).
//! `name` labels it for debug aids: CLEARJIT_PERF_MAP=1 appends it to /tmp/perf-<pid>.map;
//! CLEARJIT_DUMP=DIR writes DIR/<name>.bin (raw bytes, for objdump -b binary) and <name>.asm.
//! Both are opened without following links and only if they are this user's regular files;
//! both variables are ignored in set-uid and set-gid processes.
Result<std::unique_ptr<GeneratedCode>> generate(const EmitFn &emit,
                                                const std::string &name = "clearjit_code",
                                                Listing listing = Listing::keep);

//! The memset that `libc` kernels tail-call: std::memset, the program's. The preload, whose own
//! memset that is, points it at the C library's before it generates anything.
extern void *(*memset_target)(void *dst, int c, size_t n);

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
//! or je; so a size above max takes only those (tests/support/support.hpp's tree_landing follows
//! them). Branch targets start at `target_align`-byte boundaries (padding that never runs: every
//! target follows a ret).
void emit_small(asmjit::x86::Assembler &a, const SmallPath &p, const CpuInfo &cpu,
                const asmjit::Label &big, unsigned target_align = kSmallTargetAlign);

//! Parses nothing, checks the CPU, generates: the C++ core of clearjit_kernel_compile.
Result<std::unique_ptr<GeneratedCode>> compile_kernel(const Spec &s, const CpuInfo &cpu);

//! Copies `msg` into a caller's buffer, NUL-terminated and truncated (the C API's convention).
void write_error(char *err, size_t err_len, std::string_view msg);

// The building blocks, each emitted alone (golden listings).

//! A kernel's parts, in the order emit_kernel writes them.
enum class Block : uint8_t {
  frame,      //!< end pointer and zero registers, then (left out) the short tree and the main
              //!< path, then the exit (vzeroupper, ret)
  short_tree, //!< the size check and the short tree's branches (n up to 2*S), its leaves left out
  short_leaf, //!< one leaf of the short tree: head and tail stores for n in [size, 2*size]
  hot_head,   //!< the hot head (head=SIZE; none without it): n <= head straight to the hot part;
              //!< else the far part's bounds, then (left out) the method's main path over it,
              //!< then the hot part's bounds, then (left out) the head method's main path over it
  prologue,   //!< the alignment prologue (align=A): stores up to the boundary (none without it)
  chunks, //!< the extent split into chunks (chunk and fence options), each chunk's body left out
  body,   //!< the method's stores over one chunk: rep stos, or the store loops (unroll option)
  tail,   //!< the last store, overlapping what the body left, and the end fence
};

//! Emits block `b` of the kernel for `s` (with that kernel's encodings) alone, each part it
//! leaves out a listing comment (no bytes) where it would be. Labels it jumps to outside itself
//! (the exit, the main path) are bound at its end. Block::short_leaf takes the leaf's `leaf_size`,
//! a power of two up to S.
void emit_block(asmjit::x86::Assembler &a, Block b, const Spec &s, unsigned leaf_size = 0);

//! What emit_class_tree writes at each leaf, where a size class's main path goes.
enum class Leaf : uint8_t {
  main_path, //!< the class's main path (emit_dispatcher)
  stub,      //!< a listing comment naming the class's kernel instead (golden listings)
};

//! The dispatcher's part after its small path: end pointer and zero register, then a balanced
//! branch tree on n over the classes of `table` that sizes above `small_max` reach, each leaf
//! its class's main path with its own ret. emit_dispatcher binds the small path's `big` here.
void emit_class_tree(asmjit::x86::Assembler &a, const std::vector<SizeClass> &table,
                     unsigned small_max, const CpuInfo &cpu, Leaf leaf = Leaf::main_path);

} // namespace cjit::detail
