// The preload's threshold, alone: libclearjit-preload.so includes it without the rest of clearjit.
#pragma once

#include <cstddef>

namespace cjit::detail {

//! libclearjit-preload.so sends zero fills from this size up through clearjit, smaller ones to
//! libc (CLEARJIT_PRELOAD_MIN overrides it). Below it libc's memset was faster, warm, on AMD
//! family 26 model 2 (Zen 5) (scripts/preload-sizes.sh: 2.5 against 7 ns per call up to 256 B,
//! even from 4 KiB; its rows are in docs/design/preload.md).
inline constexpr size_t kPreloadMin = 16384;

} // namespace cjit::detail
