/* Base services: status names, error records, the default allocator, the arena and
 * the assertion handler. Kept apart so every other file depends on one small unit. */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>

const char *rt_status_name(rt_status status)
{
	switch (status) {
	case RT_OK: return "ok";
	case RT_ERR_NOMEM: return "out of memory";
	case RT_ERR_INVALID: return "invalid";
	case RT_ERR_CAPACITY: return "capacity";
	case RT_ERR_IO: return "input/output";
	case RT_ERR_PARSE: return "parse";
	case RT_ERR_STATE: return "state";
	}
	return "unknown";
}

static void default_assert(const char *condition, const char *file, int line)
{
	(void)condition; (void)file; (void)line;
	abort(); /* a programmer bug: the library does not print, the debugger shows where */
}

static rt_assert_fn *assert_handler = default_assert;

void rt__set_assert_handler(rt_assert_fn *handler) { assert_handler = handler ? handler : default_assert; }
void rt__assert_failed(const char *condition, const char *file, int line) { assert_handler(condition, file, line); }

void rt__error_clear(rt_error *err)
{
	if (err) memset(err, 0, sizeof *err);
}

static rt_status fail_v(rt_error *err, rt_status code, const char *file, int line, int column,
			const char *field, const char *fmt, va_list ap)
{
	if (!err) return code;
	memset(err, 0, sizeof *err);
	err->code = code;
	if (file) snprintf(err->file, sizeof err->file, "%s", file);
	err->line = line;
	err->column = column;
	if (field) snprintf(err->field, sizeof err->field, "%s", field);
	vsnprintf(err->message, sizeof err->message, fmt, ap);
	return code;
}

rt_status rt__fail(rt_error *err, rt_status code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rt_status s = fail_v(err, code, NULL, 0, 0, NULL, fmt, ap);
	va_end(ap);
	return s;
}

rt_status rt__fail_at(rt_error *err, rt_status code, const char *file, int line, int column,
		      const char *field, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rt_status s = fail_v(err, code, file, line, column, field, fmt, ap);
	va_end(ap);
	return s;
}

static void *default_alloc(size_t size, void *context)
{
	(void)context;
	return malloc(size);
}

static void default_free(void *p, size_t size, void *context)
{
	(void)size; (void)context;
	free(p);
}

rt_allocator rt_allocator_default(void)
{
	rt_allocator a = { default_alloc, default_free, NULL };
	return a;
}

size_t rt__bytes(size_t count, size_t size)
{
	if (size != 0 && count > SIZE_MAX / size) return 0;
	return count * size;
}

void *rt__alloc(const rt_allocator *a, size_t size)
{
	if (size == 0) size = 1;
	return a->alloc(size, a->context);
}

void *rt__calloc(const rt_allocator *a, size_t count, size_t size)
{
	size_t n = rt__bytes(count, size);
	if (n == 0 && count != 0 && size != 0) return NULL;
	void *p = rt__alloc(a, n);
	if (p) memset(p, 0, n == 0 ? 1 : n);
	return p;
}

void rt__free(const rt_allocator *a, void *p, size_t size)
{
	if (p) a->free(p, size == 0 ? 1 : size, a->context);
}

void *rt__realloc(const rt_allocator *a, void *p, size_t old_size, size_t new_size)
{
	void *q = rt__alloc(a, new_size);
	if (!q) return NULL;
	if (p) {
		memcpy(q, p, old_size < new_size ? old_size : new_size);
		rt__free(a, p, old_size);
	}
	return q;
}

rt_status rt__arena_reserve(rt_arena *arena, const rt_allocator *a, size_t capacity)
{
	if (capacity <= arena->capacity) return RT_OK;
	unsigned char *p = rt__alloc(a, capacity);
	if (!p) return RT_ERR_NOMEM;
	rt__free(a, arena->base, arena->capacity);
	arena->base = p;
	arena->capacity = capacity;
	arena->used = 0;
	return RT_OK;
}

void rt__arena_release(rt_arena *arena, const rt_allocator *a)
{
	rt__free(a, arena->base, arena->capacity);
	arena->base = NULL;
	arena->capacity = arena->used = 0;
}

void *rt__arena_push(rt_arena *arena, size_t size)
{
	size_t start = (arena->used + 63u) & ~(size_t)63u;
	uintptr_t addr = (uintptr_t)(arena->base + start);
	size_t pad = (64u - (addr & 63u)) & 63u; /* the block itself may not be aligned */
	start += pad;
	if (start > arena->capacity || size > arena->capacity - start) return NULL;
	arena->used = start + size;
	return arena->base + start;
}
