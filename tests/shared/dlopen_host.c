/* Loads each plugin given on the command line with dlopen, clears a buffer through it and checks
 * every byte. Exit 0 when all plugins cleared correctly. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef const char *(*plugin_clear_fn)(unsigned char *, size_t, char *, size_t);

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s PLUGIN.so...\n", argv[0]);
    return 2;
  }
  int failed = 0;
  for (int i = 1; i < argc; ++i) {
    void *h = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      fprintf(stderr, "dlopen %s: %s\n", argv[i], dlerror());
      ++failed;
      continue;
    }
    plugin_clear_fn clear = (plugin_clear_fn)dlsym(h, "plugin_clear");
    if (!clear) {
      fprintf(stderr, "%s: no plugin_clear: %s\n", argv[i], dlerror());
      ++failed;
      continue;
    }
    const size_t sizes[] = {1, 255, 4097, 1 << 20, (3 << 20) + 7};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
      size_t n = sizes[s];
      unsigned char *buf = malloc(n + 2);
      if (!buf) return 1;
      memset(buf, 0xA5, n + 2);
      char err[512] = "";
      const char *spec = clear(buf + 1, n, err, sizeof err);
      size_t bad = 0;
      for (size_t j = 1; j <= n; ++j)
        bad += buf[j] != 0;
      if (!spec || bad || buf[0] != 0xA5 || buf[n + 1] != 0xA5) {
        fprintf(stderr, "%s: %zu bytes: %s, %zu bytes not cleared%s\n", argv[i], n,
                spec ? spec : err, bad,
                buf[0] != 0xA5 || buf[n + 1] != 0xA5 ? ", bytes outside written" : "");
        ++failed;
      } else {
        printf("%s: %zu bytes cleared (%s)\n", argv[i], n, spec);
      }
      free(buf);
    }
    /* Not dlclosed: the plugin called clearjit_zero, whose process-wide default lives until the
     * process exits; unloading the plugin would drop the only pointer to it (LeakSanitizer). */
  }
  return failed != 0;
}
