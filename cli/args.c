/* Option parsing for the command line. */
#include "args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool arg_error = false;

static const char *value_of(int argc, char **argv, int *i, const char *name)
{
	if (strcmp(argv[*i], name) != 0) return NULL;
	if (*i + 1 >= argc) {
		fprintf(stderr, "rout: option %s needs a value\n", name);
		arg_error = true;
		return NULL;
	}
	return argv[++*i];
}

bool arg_long(int argc, char **argv, int *i, const char *name, long *out, long lo, long hi)
{
	const char *v = value_of(argc, argv, i, name);
	if (!v) return false;
	char *end;
	errno = 0;
	long x = strtol(v, &end, 10);
	if (errno || *end || end == v || x < lo || x > hi) {
		fprintf(stderr, "rout: option %s: '%s' is not a whole number from %ld to %ld\n", name, v, lo, hi);
		arg_error = true;
		return false;
	}
	*out = x;
	return true;
}

bool arg_double(int argc, char **argv, int *i, const char *name, double *out, double lo, double hi)
{
	const char *v = value_of(argc, argv, i, name);
	if (!v) return false;
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	if (errno || *end || end == v || !isfinite(x) || x < lo || x > hi) {
		fprintf(stderr, "rout: option %s: '%s' is not a number from %g to %g\n", name, v, lo, hi);
		arg_error = true;
		return false;
	}
	*out = x;
	return true;
}

bool arg_string(int argc, char **argv, int *i, const char *name, const char **out)
{
	const char *v = value_of(argc, argv, i, name);
	if (!v) return false;
	*out = v;
	return true;
}

/* mkdir -p: 0, or -1 with errno set. */
int make_dirs(const char *path)
{
	char buf[1024];
	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return -1;
	for (char *p = buf + 1; *p; ++p) {
		if (*p != '/') continue;
		*p = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

