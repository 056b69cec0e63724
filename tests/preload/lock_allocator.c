/* An allocator of the kind the preload must survive: LD_PRELOAD it beside libclearjit-preload.so
 * (in either order) and its calloc zero-fills through the `memset` symbol while it holds its own
 * lock, which its malloc takes too. A zero fill that re-entered the allocator from there (the
 * preload generating its code, which allocates) would find the lock taken by its own thread: this
 * allocator then says so and aborts, where a real one would hang. Memory comes from one mmap'd
 * arena, bump-allocated with a size header; free keeps nothing. Built with -fno-builtin. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { kArena = 1 << 30, kAlign = 64 };
static char *arena, *next_free;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t owner;
static volatile int owned;

static void take(void) {
  if (owned && pthread_equal(owner, pthread_self())) {
    static const char msg[] = "lock_allocator: re-entered with its lock held\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    abort();
  }
  pthread_mutex_lock(&lock);
  owner = pthread_self();
  owned = 1;
}
static void give(void) {
  owned = 0;
  pthread_mutex_unlock(&lock);
}

/* With the lock held. */
static void *bump(size_t n, size_t align) {
  if (!arena) {
    arena = mmap(NULL, kArena, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
    if (arena == MAP_FAILED) return arena = NULL;
    next_free = arena;
  }
  if (align < kAlign) align = kAlign;
  uintptr_t p = ((uintptr_t)next_free + sizeof(size_t) + align - 1) & ~(uintptr_t)(align - 1);
  if (n > kArena || p + n > (uintptr_t)arena + kArena) return NULL;
  ((size_t *)p)[-1] = n;
  next_free = (char *)(p + n);
  return (void *)p;
}

static void *allocate(size_t n, size_t align) {
  take();
  void *p = bump(n, align);
  give();
  if (!p) errno = ENOMEM;
  return p;
}

void *malloc(size_t n) { return allocate(n, kAlign); }
void free(void *p) { (void)p; }
void *calloc(size_t k, size_t n) {
  if (n && k > SIZE_MAX / n) return errno = ENOMEM, NULL;
  take();
  void *p = bump(k * n, kAlign);
  if (p) memset(p, 0, k * n); /* with the lock held: the case under test */
  give();
  if (!p) errno = ENOMEM;
  return p;
}
void *realloc(void *old, size_t n) {
  void *p = malloc(n);
  if (p && old) {
    size_t had = ((size_t *)old)[-1];
    memcpy(p, old, had < n ? had : n);
  }
  return p;
}
void *memalign(size_t align, size_t n) { return allocate(n, align); }
void *aligned_alloc(size_t align, size_t n) { return allocate(n, align); }
int posix_memalign(void **out, size_t align, size_t n) {
  void *p = allocate(n, align);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
void *valloc(size_t n) { return allocate(n, 4096); }
void *pvalloc(size_t n) { return allocate((n + 4095) & ~(size_t)4095, 4096); }
size_t malloc_usable_size(void *p) { return p ? ((size_t *)p)[-1] : 0; }
