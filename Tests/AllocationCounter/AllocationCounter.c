#include "AllocationCounter.h"
#ifdef __linux__
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern ssize_t __read(int fd, void *buffer, size_t count);
extern ssize_t __write(int fd, const void *buffer, size_t count);

static __thread int counting = 0;
static __thread allocation_counts counts = {0, 0, 0};

void allocation_counter_start(void) {
    counts = (allocation_counts){0, 0, 0};
    counting = 1;
}

allocation_counts allocation_counter_stop(void) {
    counting = 0;
    return counts;
}

void *malloc(size_t size) {
    if (counting) counts.allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    if (counting) counts.allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    if (counting) counts.allocations++;
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    if (counting) counts.allocations++;
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (counting) counts.allocations++;
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (counting) counts.allocations++;
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return 12;  // ENOMEM
    *result = pointer;
    return 0;
}

// glibc's own, found once when the test executable loads (one thread then; a lock taken
// while dlsym looks it up is granted at once).
static int (*real_mutex_lock)(pthread_mutex_t *) = 0;

__attribute__((constructor)) static void find_real_mutex_lock(void) {
    real_mutex_lock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_lock");
}

int pthread_mutex_lock(pthread_mutex_t *mutex) {
    if (counting) counts.locks++;
    return real_mutex_lock ? real_mutex_lock(mutex) : 0;
}

ssize_t read(int fd, void *buffer, size_t count) {
    if (counting) counts.inputOutput++;
    return __read(fd, buffer, count);
}

ssize_t write(int fd, const void *buffer, size_t count) {
    if (counting) counts.inputOutput++;
    return __write(fd, buffer, count);
}
#else
void allocation_counter_start(void) {}
allocation_counts allocation_counter_stop(void) { return (allocation_counts){-1, -1, -1}; }
#endif
