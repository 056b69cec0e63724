/* A plugin (a shared object loaded with dlopen) that clears through clearjit. Built twice: linked
 * with libclearjit.so, and with libclearjit.a (position-independent since AsmJit is built here). */
#include <clearjit/clearjit.h>

#include <stddef.h>
#include <string.h>

/* Clears buf with a dispatcher of the default lookup and with clearjit_zero; returns the spec
 * chosen for n bytes, or NULL (with the reason in err) when the profile does not open. */
const char *plugin_clear(unsigned char *buf, size_t n, char *err, size_t err_len) {
  static char spec[128];
  clearjit *cj = clearjit_open(NULL, err, err_len);
  if (!cj) return NULL;
  clearjit_clear(cj, buf, n / 2);
  clearjit_zero(buf + n / 2, n - n / 2);
  strncpy(spec, clearjit_kernel_for(cj, CLEARJIT_REUSE, n), sizeof spec - 1);
  clearjit_close(cj);
  return spec;
}
