// Tests only: counts, on the calling thread, the heap allocations (malloc, calloc, realloc,
// aligned_alloc, posix_memalign, memalign), mutex locks (pthread_mutex_lock) and reads and
// writes (read, write) made between allocation_counter_start() and allocation_counter_stop().
// Linked into the test executable, whose definitions of these functions take the place of
// libc's for the whole process; they hand on to glibc's own (__libc_malloc, ...) and count
// only on a thread that has started counting. Linux (glibc) only.
#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

typedef struct {
    long allocations;
    long locks;
    long inputOutput;
} allocation_counts;

void allocation_counter_start(void);
allocation_counts allocation_counter_stop(void);

#endif
