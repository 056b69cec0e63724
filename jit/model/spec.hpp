// The kernel model: a method table and the spec grammar `method[:option,...]`.
#pragma once

#include "jit/model/cpu.hpp"
#include "jit/model/size.hpp"

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cjit::detail {

enum class Method : uint8_t {
  stosb,
  stosq,
  mov,
  sse,
  avx2,
  avx512,
  movnti,
  ntsse,
  ntavx2,
  ntavx512,
  clzero,
  movdir64b,
  libc
};

enum class Fence : uint8_t { none, end, chunk };

//! How a method's main path stores: each kind is one case of the exhaustive switch in
//! emit.cpp (Emitter::body), so a new kind does not compile until it has its code.
enum class Store : uint8_t {
  rep_stosb, //!< one `rep stosb` per chunk
  rep_stosq, //!< one `rep stosq` per chunk; the bytes it leaves by one overlapping 8-byte store
  move,      //!< a loop of `width`-byte moves from a zeroed register (movnt* when non-temporal)
  clzero,    //!< a loop of `clzero`, one aligned 64-byte line per instruction
  movdir64b, //!< a loop of `movdir64b`, one aligned 64-byte line per instruction, copied from a
             //!< line of zeros in memory (a direct store: write-combining, like movnt*)
  memset,    //!< a tail call to the C library's memset: no loop, no options
};

//! The spec options a method takes, as bits of MethodInfo::options.
enum Option : uint8_t {
  kUnroll = 1,     //!< stores per loop iteration
  kChunk = 2,      //!< clear in chunks of SIZE
  kFence = 4,      //!< where the sfence goes
  kAlign = 8,      //!< the alignment prologue: stores to an N-byte boundary first
  kHead = 16,      //!< the first SIZE bytes by temporal stores, last
  kUntouched = 32, //!< whether pages never touched are written or left to the kernel (any method)
  kExtent = kChunk | kFence | kAlign, //!< what every method clearing the extent itself takes
};

//! untouched=write (the default): every byte is stored. untouched=skip: from kUntouchedFloor
//! (jit/pages/untouched.hpp) up, the kernel stores only to the pages the kernel does not
//! guarantee to read as zero; the pages of private anonymous memory never faulted in are left
//! for the kernel to zero at their first touch (docs/design/fresh-memory.md).
enum class Untouched : uint8_t { write, skip };

//! How a method stores; one row per method drives parsing, emitting, listing, tuning and tests.
//! Adding a method is one row in spec.cpp (and, for a new Store kind, one case in emit.cpp).
struct MethodInfo {
  Method method;
  std::string_view name;
  std::string_view stores; //!< what the main loop or instruction stores, for `clearjit list`
  Feature feature;         //!< what the CPU must have (Feature::none: any x86-64)
  Store store;             //!< how the main path stores
  unsigned width;          //!< bytes per main store (1 for stosb, 8 for stosq, a line for clzero)
  unsigned tail_width;     //!< widest temporal store used for heads, tails and small sizes
  bool nontemporal;        //!< stores bypass the cache: fence defaults to end
  uint8_t options;         //!< the Option bits it takes
  unsigned default_unroll; //!< one 64-byte line per iteration
  unsigned default_align;
  unsigned min_align; //!< stores that fault or misbehave below this alignment
  //! The temporal method whose main path, at its defaults, clears the first head=SIZE bytes
  //! after the far part (the methods taking kHead); the method itself where it takes no head.
  Method head_method;
  // Derived from `store`, kept as fields for their readers (the tuner's candidates, the
  // studies' reference kernels, the batch candidates).
  bool string_op = store == Store::rep_stosb || store == Store::rep_stosq; //!< rep per chunk
  bool loop = store == Store::move || store == Store::clzero ||
              store == Store::movdir64b; //!< a store loop: takes unroll
  constexpr bool takes(Option o) const { return options & o; }
};

std::span<const MethodInfo> methods();
const MethodInfo &info(Method m);
std::optional<Method> method_by_name(std::string_view name);

//! The values unroll=N and align=N may take (the parser's, the tuner's candidates', the
//! tests'); a method's min_align narrows align.
constexpr std::array<unsigned, 5> kUnrolls{1, 2, 4, 8, 16};
constexpr std::array<unsigned, 4> kAligns{0, 16, 32, 64};

//! head=SIZE: whole pages, at most 1 GiB (an immediate of the kernel's code).
constexpr uint64_t kHeadUnit = 4096, kMaxHead = uint64_t(1) << 30;

struct Spec {
  Method method = Method::stosb;
  unsigned unroll = 0; //!< 0 only for methods without a loop
  uint64_t chunk = 0;  //!< 0: the whole extent
  Fence fence = Fence::none;
  unsigned align = 0;
  //! 0: none. Else, for n > head, [dst+head, dst+n) by the method first (its other options
  //! apply to it), then [dst, dst+min(head, n)) by info().head_method's temporal stores, last,
  //! so that what the caller reads first is in cache; a multiple of kHeadUnit up to kMaxHead.
  uint64_t head = 0;
  Untouched untouched = Untouched::write;

  auto operator<=>(const Spec &) const = default;
  const MethodInfo &info() const { return cjit::detail::info(method); }
};

//! The spec with every option at its default for `m`.
Spec default_spec(Method m);
//! The canonical spec text of the method table's libc row ("libc"), for what compares text from
//! the C API (the tuner's measurements carry memset_candidate(), tuner/measure/candidate.hpp).
const std::string &memset_spec();

//! A value or a message naming what is wrong.
template <class T> struct Result {
  std::optional<T> value;
  std::string error;
  explicit operator bool() const { return value.has_value(); }
  const T &operator*() const { return *value; }
  const T *operator->() const { return &*value; }
  static Result fail(std::string e) { return {std::nullopt, std::move(e)}; }
};

Result<Spec> parse_spec(std::string_view text);
//! `text` in quotes for a message: 'avx2:unroll=3', or its first 40 bytes and its length
//! ('xxxx...' (912345 bytes)) so that a long input is not echoed whole; control characters as
//! \xHH, so that it cannot drive a terminal. quote 0: no quotes.
std::string quoted(std::string_view text, char quote = '\'');
//! Canonical form: options in grammar order, defaults omitted.
std::string format_spec(const Spec &s);

//! Empty when `cpu` can run `s`; otherwise why not, e.g. "ntavx512 needs AVX512F, which this CPU
//! lacks".
std::string unsupported_reason(const Spec &s, const CpuInfo &cpu);

} // namespace cjit::detail
