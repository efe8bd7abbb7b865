/* The test runner and the counting allocator. Usage: tests [name-substring ...] */
#include "test.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_TESTS 512

static struct {
	const char *name;
	rt_test_fn *fn;
} tests[MAX_TESTS];
static int test_count;
static int current_failed;

static size_t bytes_held;
static long allocations;
static long fail_at = -1;

static void *counting_alloc(size_t size, void *context)
{
	(void)context;
	long k = allocations++;
	if (fail_at >= 0 && k == fail_at) return NULL;
	void *p = malloc(size);
	if (p) {
		#pragma omp atomic
		bytes_held += size;
	}
	return p;
}

static void counting_free(void *p, size_t size, void *context)
{
	(void)context;
	if (!p) return;
	#pragma omp atomic
	bytes_held -= size;
	free(p);
}

rt_allocator rt_test_allocator(void)
{
	rt_allocator a = { counting_alloc, counting_free, NULL };
	return a;
}

size_t rt_test_bytes_held(void) { return bytes_held; }
long rt_test_allocations_made(void) { return allocations; }

void rt_test_fail_allocation(long k)
{
	allocations = 0;
	fail_at = k;
}

void rt_test_register(const char *name, rt_test_fn *fn)
{
	if (test_count < MAX_TESTS) {
		tests[test_count].name = name;
		tests[test_count].fn = fn;
		test_count++;
	}
}

void rt_test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("    FAIL %s:%d: ", file, line);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	current_failed = 1;
}

void rt_test_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("    ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

static int cmp_tests(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	return strcmp(x, y);
}

int main(int argc, char **argv)
{
	qsort(tests, (size_t)test_count, sizeof tests[0], cmp_tests);
	int passed = 0, failed = 0;
	for (int i = 0; i < test_count; ++i) {
		bool selected = argc < 2;
		for (int a = 1; a < argc; ++a)
			if (strstr(tests[i].name, argv[a])) selected = true;
		if (!selected) continue;
		current_failed = 0;
		bytes_held = 0;
		rt_test_fail_allocation(-1);
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		printf("%s\n", tests[i].name);
		fflush(stdout);
		tests[i].fn();
		rt_test_fail_allocation(-1);
		if (!current_failed && bytes_held != 0) {
			printf("    FAIL: %zu bytes still held by the allocator after the test\n", bytes_held);
			current_failed = 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
		printf("    %s (%.2f s)\n", current_failed ? "failed" : "ok", sec);
		if (current_failed) failed++;
		else passed++;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
