#ifndef HAPSCOPE_ALLOCATION_COUNTER_H
#define HAPSCOPE_ALLOCATION_COUNTER_H
#include <stdint.h>

/// The number of heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc) made by
/// the whole process since it started. Linked only into hapbench, which reports allocations per
/// operation; it interposes glibc's allocator entry points and forwards to glibc's own.
uint64_t hapscope_allocation_count(void);

#endif
