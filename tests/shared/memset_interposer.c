// A memset defined outside the C library and LD_PRELOADed, as AOCL-LibMem is: clearjit must see
// that memset classes call it, not the C library's. Byte stores through a volatile pointer, so
// that the compiler turns the loop into no call to memset itself.
#include <stddef.h>

void *memset(void *dst, int c, size_t n) {
  volatile unsigned char *p = dst;
  for (size_t i = 0; i < n; ++i)
    p[i] = (unsigned char)c;
  return dst;
}
