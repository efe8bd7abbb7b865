/* Shared by the libFuzzer harnesses (docs/fuzzing.md): a counting allocator for the
 * library's rt_allocator that
 *   - keeps the size of every block in a header and aborts when `free` is told another
 *     size (the library promises to pass back the size it asked for),
 *   - counts the bytes held, so a harness can abort when an input leaves any behind,
 *   - can be told to refuse its k-th allocation, so every input also walks one
 *     out-of-memory path.
 * An abort is what libFuzzer counts as a crash: it saves the input under
 * build/fuzz/artifacts/ and stops. Memory the library takes outside its allocator
 * (jansson's parse tree, stdio) is watched by LeakSanitizer instead. */
#ifndef RT_FUZZ_H
#define RT_FUZZ_H

#include "rout/rout.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_HEADER 16 /* keeps blocks 16-byte aligned */

static size_t fuzz_bytes_held;
static long fuzz_allocations;
static long fuzz_fail_at = -1;

static void *fuzz_alloc(size_t size, void *context)
{
	(void)context;
	const long k = fuzz_allocations++;
	if (k == fuzz_fail_at) return NULL;
	if (size > SIZE_MAX - FUZZ_HEADER) return NULL;
	unsigned char *p = malloc(size + FUZZ_HEADER);
	if (!p) return NULL;
	memcpy(p, &size, sizeof size);
	fuzz_bytes_held += size;
	return p + FUZZ_HEADER;
}

static void fuzz_free(void *pointer, size_t size, void *context)
{
	(void)context;
	if (!pointer) return;
	unsigned char *p = (unsigned char *)pointer - FUZZ_HEADER;
	size_t allocated;
	memcpy(&allocated, p, sizeof allocated);
	if (allocated != size) {
		fprintf(stderr, "fuzz: a block of %zu bytes was freed as %zu bytes\n", allocated, size);
		abort();
	}
	fuzz_bytes_held -= size;
	free(p);
}

static inline rt_allocator fuzz_allocator(void)
{
	rt_allocator a = { fuzz_alloc, fuzz_free, NULL };
	return a;
}

/* Starts one run of an input; fail_at >= 0 makes that allocation (counted from 0) fail. */
static inline void fuzz_begin(long fail_at)
{
	fuzz_bytes_held = 0;
	fuzz_allocations = 0;
	fuzz_fail_at = fail_at;
}

/* Ends the run: every byte must be back. */
static inline void fuzz_end(const char *what)
{
	if (fuzz_bytes_held != 0) {
		fprintf(stderr, "fuzz: %s left %zu bytes held after %ld allocations%s\n", what, fuzz_bytes_held,
			fuzz_allocations, fuzz_fail_at >= 0 ? " (with one refused)" : "");
		abort();
	}
	fuzz_fail_at = -1;
}

/* Aborts with a message when an invariant of the library's answer does not hold. */
#define FUZZ_CHECK(cond, ...)                                                   \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "fuzz: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                           \
			fprintf(stderr, "\n");                                  \
			abort();                                                \
		}                                                               \
	} while (0)

/* An error record as the library promises it: its code is the status returned, and
 * the message and names are terminated text, the message not empty. */
static inline void fuzz_check_error(rt_status s, const rt_error *err)
{
	FUZZ_CHECK(err->code == s, "status %s but err.code %s", rt_status_name(s), rt_status_name(err->code));
	FUZZ_CHECK(memchr(err->message, 0, sizeof err->message) && err->message[0], "an empty or unterminated message");
	FUZZ_CHECK(memchr(err->file, 0, sizeof err->file) && memchr(err->field, 0, sizeof err->field),
		   "unterminated file or field");
	FUZZ_CHECK(err->line >= 0 && err->column >= 0, "line %d, column %d", err->line, err->column);
}

/* Which allocation to refuse on the second run of an input: a pure function of the
 * input, so a crash replays. */
static inline long fuzz_pick(const uint8_t *data, size_t size, long allocations)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
	return allocations > 0 ? (long)(h % (uint64_t)allocations) : -1;
}

#endif
