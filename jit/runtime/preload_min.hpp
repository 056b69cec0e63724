// The preload's threshold, alone: libclearjit-preload.so includes it without the rest of clearjit.
#pragma once

#include <cstddef>

namespace cjit::detail {

//! libclearjit-preload.so sends zero fills from this size up through clearjit, smaller ones to
//! libc (CLEARJIT_PRELOAD_MIN overrides it). Below it libc's memset was faster warm, where a
//! call through the preload's indirection costs more than it saves (scripts/preload-sizes.sh
//! measures it; the rows are in docs/design/preload.md).
inline constexpr size_t kPreloadMin = 16384;

} // namespace cjit::detail
