// What the caller does with the memory it clears, which names the table a size is looked up in.
#pragma once

#include <cstdint>

namespace cjit::detail {

//! reuse: the caller touches the memory soon (cost = clear + one read pass); stream: it does
//! not (cost = the clear alone). The values are the C API's clearjit_intent (CLEARJIT_REUSE,
//! CLEARJIT_STREAM), which the C++ API's cjit::Intent takes too; jit/runtime/runtime.cpp checks.
enum class Intent : uint8_t { reuse = 0, stream = 1 };

} // namespace cjit::detail
