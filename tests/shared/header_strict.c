/* clearjit.h in a strict caller's build (tests/CMakeLists.txt compiles this as C99 and, through
 * header_strict.cpp, as C++ with old-style casts warned, every warning an error): the inline
 * calls, with variable and constant sizes, add no warning. Compiled only. */
#include <clearjit/clearjit.h>

void header_strict_clears(const clearjit *cj, char *p, size_t n);
void header_strict_clears(const clearjit *cj, char *p, size_t n) {
  clearjit_clear(cj, p, n);
  clearjit_clear(cj, p, 7);
  clearjit_clear(cj, p, 3);
  clearjit_clear(cj, p, 4096);
  clearjit_clear_stream(cj, p, n);
  clearjit_clear_stream(cj, p, 16);
}
