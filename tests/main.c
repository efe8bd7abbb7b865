/* The test runner and the counting allocator.
 * Usage: tests [-j N] [name-substring ...]
 * With -j N (N > 1) each selected test runs in a child process of its own, at most N at a
 * time; each test's output is kept in a file until it ends, and printed in name order, so
 * the log reads the same whatever the order in which the tests finished. A test that
 * dies (a signal, a sanitizer's report) fails with what it printed and how it ended. */
#include "test.h"

#include <errno.h>
#include <glob.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

const char *rt_test_tmp(const char *name)
{
	static char paths[8][256];
	static int next;
	char *out = paths[next++ % 8];
	const char *dot = strchr(name, '.');
	const int stem = dot ? (int)(dot - name) : (int)strlen(name);
	snprintf(out, sizeof paths[0], "/tmp/%.*s-%ld%s", stem, name, (long)getpid(), dot ? dot : "");
	return out;
}

bool rt_test_temp_left(const char *path)
{
	char pattern[512];
	snprintf(pattern, sizeof pattern, "%s.tmp*", path);
	glob_t g;
	const int rc = glob(pattern, GLOB_NOSORT, NULL, &g);
	const bool left = rc == 0 && g.gl_pathc > 0;
	globfree(&g);
	return left;
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

/* Runs test i here; returns true when it passed. */
static bool run_one(int i)
{
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
	fflush(stdout);
	return !current_failed;
}

typedef struct {
	pid_t pid;      /* 0 before it starts and once it has ended */
	FILE *out;      /* what the test printed, stdout and stderr */
	int status;     /* from waitpid */
	bool done;
} job;

static void print_job(int i, job *j, int *passed, int *failed)
{
	rewind(j->out);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, j->out)) > 0) fwrite(buf, 1, n, stdout);
	fclose(j->out);
	j->out = NULL;
	const bool ok = WIFEXITED(j->status) && WEXITSTATUS(j->status) == 0;
	if (!WIFEXITED(j->status) || WEXITSTATUS(j->status) > 1) {
		/* It never reached its "ok"/"failed" line: say how it ended. */
		if (WIFSIGNALED(j->status))
			printf("    FAIL: %s died of signal %d\n", tests[i].name, WTERMSIG(j->status));
		else
			printf("    FAIL: %s exited with status %d\n", tests[i].name, WEXITSTATUS(j->status));
	}
	fflush(stdout);
	if (ok) (*passed)++;
	else (*failed)++;
}

/* Gives up on a parallel run: waits for the children still running, then frees. */
static int abandon(job *js, int count)
{
	while (wait(NULL) > 0) {
	}
	for (int k = 0; k < count; ++k)
		if (js[k].out) fclose(js[k].out);
	free(js);
	return -1;
}

/* Runs the selected tests in up to `jobs` child processes at once. */
static int run_parallel(const int *chosen, int count, int jobs, int *passed, int *failed)
{
	job *js = calloc((size_t)(count > 0 ? count : 1), sizeof *js);
	if (!js) {
		printf("tests: out of memory\n");
		return -1;
	}
	int next = 0, running = 0, printed = 0;
	while (printed < count) {
		while (running < jobs && next < count) {
			job *j = &js[next];
			j->out = tmpfile();
			if (!j->out) {
				printf("tests: cannot make a temporary file: %s\n", strerror(errno));
				return abandon(js, count);
			}
			fflush(stdout);
			fflush(stderr);
			pid_t pid = fork();
			if (pid < 0) {
				printf("tests: cannot fork: %s\n", strerror(errno));
				return abandon(js, count);
			}
			if (pid == 0) {
				dup2(fileno(j->out), STDOUT_FILENO);
				dup2(fileno(j->out), STDERR_FILENO);
				/* exit(), not _exit(): the leak checker runs at exit. */
				exit(run_one(chosen[next]) ? 0 : 1);
			}
			j->pid = pid;
			running++;
			next++;
		}
		int status;
		pid_t pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR) continue;
			printf("tests: waitpid: %s\n", strerror(errno));
			return abandon(js, count);
		}
		for (int k = 0; k < next; ++k)
			if (js[k].pid == pid) {
				js[k].pid = 0;
				js[k].status = status;
				js[k].done = true;
				running--;
			}
		while (printed < next && js[printed].done) {
			print_job(chosen[printed], &js[printed], passed, failed);
			printed++;
		}
	}
	free(js);
	return 0;
}

int main(int argc, char **argv)
{
	qsort(tests, (size_t)test_count, sizeof tests[0], cmp_tests);
	int jobs = 1, first = 1;
	if (argc >= 3 && strcmp(argv[1], "-j") == 0) {
		char *end;
		long j = strtol(argv[2], &end, 10);
		if (*end || j < 1 || j > 256) {
			printf("tests: -j expects a number of processes from 1 to 256, not \"%s\"\n", argv[2]);
			return 2;
		}
		jobs = (int)j;
		first = 3;
	}
	static int chosen[MAX_TESTS];
	int count = 0;
	for (int i = 0; i < test_count; ++i) {
		bool selected = argc <= first;
		for (int a = first; a < argc; ++a)
			if (strstr(tests[i].name, argv[a])) selected = true;
		if (selected) chosen[count++] = i;
	}
	int passed = 0, failed = 0;
	if (jobs > 1) {
		if (run_parallel(chosen, count, jobs, &passed, &failed) != 0) return 2;
	} else {
		for (int k = 0; k < count; ++k) {
			if (run_one(chosen[k])) passed++;
			else failed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
