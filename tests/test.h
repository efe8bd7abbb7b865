/* A small test harness: one binary, one function per behaviour, registered at load
 * time, run by name filter. Every test runs with a counting allocator; the harness
 * fails a test that ends with bytes still held. The last line is "N passed, N failed". */
#ifndef RT_TEST_H
#define RT_TEST_H

#include "rout/rout.h"

#include <math.h>
#include <stdio.h>

typedef void rt_test_fn(void);
void rt_test_register(const char *name, rt_test_fn *fn);
void rt_test_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void rt_test_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The counting allocator every test should hand to the library. */
rt_allocator rt_test_allocator(void);
size_t rt_test_bytes_held(void);
/* Makes the k-th allocation from now fail (k >= 0); -1 turns failure off. */
void rt_test_fail_allocation(long k);
long rt_test_allocations_made(void);

/* A path in /tmp for `name` ("rout-plot.png" gives "/tmp/rout-plot-<pid>.png"), unique to
 * this process, so tests running side by side (make check beside make sanitize, or -j)
 * never write the same file. The result lives until eight more calls. */
const char *rt_test_tmp(const char *name);
/* Whether a temporary file of an atomic write to `path` (path.tmp*) was left behind. */
bool rt_test_temp_left(const char *path);

/* Under AddressSanitizer and UndefinedBehaviorSanitizer (make sanitize) the tests look
 * for memory errors, leaks and undefined behaviour. A check of a rate over many seeds runs
 * there on a few of its seeds, which reach the same code, and leaves the rate itself to
 * make check: rt_test_seeds(n) is n, or 4 under the sanitizers, and CHECK_RATE is CHECK,
 * or nothing under the sanitizers. Every other CHECK of such a test still holds there. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define RT_TEST_SANITIZED 1
#else
#define RT_TEST_SANITIZED 0
#endif

static inline int rt_test_seeds(int n) { return RT_TEST_SANITIZED && n > 4 ? 4 : n; }

#define TEST(name)                                                              \
	static void test_##name(void);                                          \
	__attribute__((constructor)) static void register_##name(void)          \
	{                                                                       \
		rt_test_register(#name, test_##name);                           \
	}                                                                       \
	static void test_##name(void)

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (!(cond)) {                                                             \
			rt_test_fail(__FILE__, __LINE__, "%s", #cond);                     \
			return;                                                            \
		}                                                                          \
	} while (0)

#define CHECK_MSG(cond, ...)                                                               \
	do {                                                                               \
		if (!(cond)) {                                                             \
			rt_test_fail(__FILE__, __LINE__, __VA_ARGS__);                     \
			return;                                                            \
		}                                                                          \
	} while (0)

#define CHECK_OK(expr, err)                                                                \
	do {                                                                               \
		rt_status s_ = (expr);                                                     \
		if (s_ != RT_OK) {                                                         \
			rt_test_fail(__FILE__, __LINE__, "%s: %s", #expr, (err).message);  \
			return;                                                            \
		}                                                                          \
	} while (0)

#define CHECK_RATE(cond)                                                                   \
	do {                                                                               \
		if (!RT_TEST_SANITIZED) CHECK(cond);                                       \
	} while (0)

#define CHECK_NEAR(value, expected, tolerance)                                             \
	do {                                                                               \
		double v_ = (value), e_ = (expected), t_ = (tolerance);                    \
		if (!(fabs(v_ - e_) <= t_)) {                                              \
			rt_test_fail(__FILE__, __LINE__, "%s = %g, expected %g +- %g", #value, \
				     v_, e_, t_);                                          \
			return;                                                            \
		}                                                                          \
	} while (0)

#endif
