// Counts heap allocations for hapbench by interposing the allocator entry points in the
// executable: the dynamic linker resolves libswiftCore's and our own calls to these
// definitions, which count and forward to glibc's implementations.
#include "CAllocationCounter.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAPSCOPE_UNDER_ADDRESS_SANITIZER 1
#endif
#endif

#ifdef HAPSCOPE_UNDER_ADDRESS_SANITIZER
// AddressSanitizer owns the allocator; replacing it would abort every process at start. The
// count is then unavailable, and hapbench reports allocations as zero.
uint64_t hapscope_allocation_count(void) { return 0; }
#else
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static _Atomic uint64_t allocations;

static inline void count_one(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

void *malloc(size_t size) { count_one(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { count_one(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { count_one(); return __libc_realloc(pointer, size); }
void free(void *pointer) { __libc_free(pointer); }

void *aligned_alloc(size_t alignment, size_t size) { count_one(); return __libc_memalign(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    count_one();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

uint64_t hapscope_allocation_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
#endif
