/* Option parsing for the command line. */
#include "args.h"
#include "rout/env.h"

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

/* "6h", "90m", "3600s", "3600" or a sum of them in that order, "3h30m", "1h2m5s": a
 * duration in simulated seconds. */
bool duration_seconds(const char *text, double *out)
{
	static const struct { char unit; double seconds; } units[] = { { 'h', 3600.0 }, { 'm', 60.0 }, { 's', 1.0 } };
	const char *p = text;
	double total = 0.0;
	int next = 0; /* the first unit still allowed: h, then m, then s */
	while (*p) {
		char *end;
		if (!(*p >= '0' && *p <= '9') && *p != '.') return false;
		const double v = strtod(p, &end);
		if (end == p || !isfinite(v) || v < 0.0) return false;
		if (*end == '\0' && p == text) { /* a bare number: seconds */
			total = v;
			p = end;
			break;
		}
		int u = next;
		while (u < 3 && units[u].unit != *end) ++u;
		if (u == 3) return false;
		total += v * units[u].seconds;
		next = u + 1;
		p = end + 1;
	}
	if (!(total > 0.0) || !isfinite(total)) return false;
	*out = total;
	return true;
}

/* "6h", "90m", "3h30m", "3600s", "3600" (after the start) or a local time
 * "1641-09-26T12:00" of the scenario. */
bool until_seconds(const rt_scenario *sc, const char *text, double *out)
{
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	int y, mo, d, h, mi, used = 0;
	char sep;
	if (sscanf(text, "%d-%d-%d%c%d:%d", &y, &mo, &d, &sep, &h, &mi) == 6 && (sep == 'T' || sep == ' ')) {
		double jd = rt_julian_day_from_civil(y, mo, d, h, mi, 0.0, info.utc_offset_h);
		*out = (jd - info.start_jd_ut) * 86400.0;
	} else if (sscanf(text, "%d:%d%n", &h, &mi, &used) == 2 && text[used] == '\0' && h >= 0 && h <= 23 && mi >= 0 && mi <= 59 &&
		   strchr(text, '-') == NULL) {
		/* HH:MM on the run's clock: the first such moment after the start (as `rout render --at`) */
		const rt_civil_time c = rt_civil_from_julian_day(info.start_jd_ut, info.utc_offset_h);
		*out = (h * 3600.0 + mi * 60.0) - (c.hour * 3600.0 + c.minute * 60.0 + c.second);
		if (*out <= 0.0) *out += 86400.0;
	} else if (!duration_seconds(text, out)) {
		return false;
	}
	*out = floor(*out * 1000.0 + 0.5) / 1000.0;
	return *out > 0.0 && *out <= info.duration_s + 1e-6;
}

void until_error(const char *cmd, const char *text)
{
	fprintf(stderr, "rout %s: --until %s: expected a local time within the run (like 1641-09-26T06:00), a time on its clock (like 06:00: "
			"the first such moment after the start) or a duration after the start (6h, 90m, 3h30m, 3600s)\n",
		cmd, text);
}

/* A folder stands for the scenario.yaml inside it. */
const char *scenario_file(const char *path, char *buf, size_t size)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(buf, size, "%s/scenario.yaml", path);
		return buf;
	}
	return path;
}

void cli_print_error(const char *what, const rt_error *err)
{
	if (err->file[0] && err->line > 0)
		fprintf(stderr, "%s:%d:%d: %s\n", err->file, err->line, err->column, err->message);
	else if (err->file[0])
		fprintf(stderr, "%s: %s\n", err->file, err->message);
	else
		fprintf(stderr, "rout %s: %s\n", what, err->message);
}

int cli_exit_code(rt_status s)
{
	return s == RT_ERR_PARSE || s == RT_ERR_INVALID || s == RT_ERR_CAPACITY || s == RT_ERR_IO ? 2 : 1;
}
