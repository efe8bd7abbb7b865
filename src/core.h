/* Internal base: allocation through the world's allocator, a per-step arena, error
 * records and assertions. Nothing here is installed; only src/ includes it. */
#ifndef RT_CORE_H
#define RT_CORE_H

#include "rout/rout.h"

#include <stdarg.h>
#include <string.h>

#define RT_COOKIE 0x52545431u /* "RTT1": marks a def filled by its _default() */

/* Assertions for programmer bugs; compiled out with NDEBUG. The handler can be
 * replaced (tests count failures instead of aborting). */
typedef void rt_assert_fn(const char *condition, const char *file, int line);
void rt__set_assert_handler(rt_assert_fn *handler);
void rt__assert_failed(const char *condition, const char *file, int line);
#ifdef NDEBUG
#define RT_ASSERT(c) ((void)0)
#else
#define RT_ASSERT(c) ((c) ? (void)0 : rt__assert_failed(#c, __FILE__, __LINE__))
#endif

/* Fills err (if not NULL) and returns code. */
rt_status rt__fail(rt_error *err, rt_status code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
rt_status rt__fail_at(rt_error *err, rt_status code, const char *file, int line, int column,
		      const char *field, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
void rt__error_clear(rt_error *err);

void *rt__alloc(const rt_allocator *a, size_t size);
void *rt__calloc(const rt_allocator *a, size_t count, size_t size);
void rt__free(const rt_allocator *a, void *p, size_t size);
/* Grows (or shrinks) a block; on failure returns NULL and leaves the old block intact. */
void *rt__realloc(const rt_allocator *a, void *p, size_t old_size, size_t new_size);
/* count * size with overflow check: returns 0 on overflow. */
size_t rt__bytes(size_t count, size_t size);

/* A bump arena for per-step scratch, reset at the start of every step. Its blocks come
 * from the allocator when it is reserved, never during a step. */
typedef struct rt_arena {
	unsigned char *base;
	size_t capacity, used;
} rt_arena;

rt_status rt__arena_reserve(rt_arena *arena, const rt_allocator *a, size_t capacity);
void rt__arena_release(rt_arena *arena, const rt_allocator *a);
void *rt__arena_push(rt_arena *arena, size_t size); /* 64-byte aligned; NULL when full */
static inline void rt__arena_reset(rt_arena *arena) { arena->used = 0; }

static inline double rt__clamp(double v, double lo, double hi) { return v < lo ? lo : (v > hi ? hi : v); }


#endif
