/* `rout where <run folder> [--every DURATION] [--from TIME] [--to TIME] [--corps ID,...]
 * [--units] [--csv FILE]`: where each corps (or unit) of a finished run was, time by time, from its trace.bin,
 * run.json and map (rt_where_read, docs/run-folder.md). */
#include "rout/env.h"
#include "rout/picture.h"
#include "args.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rout_where(int argc, char **argv);

/* Whether the corps (or unit of a corps) is one the user named (all when none). */
static bool named(const char *list, const char *id)
{
	const size_t n = strlen(id);
	for (const char *p = list; *p;) {
		const char *end = strchr(p, ',');
		const size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && strncmp(p, id, n) == 0) return true;
		if (!end) break;
		p = end + 1;
	}
	return false;
}

static bool chosen(const char *list, const rt_where_corps *g)
{
	return !list || named(list, g->id) || (g->corps[0] && named(list, g->corps));
}

static void local_time(const rt_where_table *t, double time_s, char *out, size_t size)
{
	const rt_civil_time c = rt_civil_from_julian_day(t->start_jd_ut + (time_s + 0.5) / 86400.0, t->timezone_h);
	snprintf(out, size, "%04d-%02d-%02dT%02d:%02d:%02d", c.year, c.month, c.day, c.hour, c.minute, (int)floor(c.second));
}

/* "3.1 km SW of Xingshan, on the Western hills (40.95 N 121.01 E; spread 1.2 km)" for a
 * row with men in the field. */
static void where_text(const rt_where_table *t, const rt_where_row *w, char *out, size_t size)
{
	if (!(w->in_field > 0.0)) {
		snprintf(out, size, "-");
		return;
	}
	char words[300];
	rt_where_describe(t, w, words, sizeof words);
	snprintf(out, size, "%s (%.2f N %.2f E; spread %.1f km)", words, w->centre_lonlat.lat_deg, w->centre_lonlat.lon_deg, w->spread_m / 1000.0);
}

static double dead(const rt_where_row *w)
{
	return w->men[RT_STATE_DEAD_COMBAT] + w->men[RT_STATE_DEAD_TRAMPLED] + w->men[RT_STATE_DEAD_DROWNED] + w->men[RT_STATE_DEAD_BURNED];
}

static void print_table(const rt_where_table *t, const char *only)
{
	const int nc = t->corps_count;
	for (int r = 0; r < t->row_count; r += nc) {
		char when[32];
		local_time(t, t->rows[r].time_s, when, sizeof when);
		printf("%s\n", when);
		printf("  %-24s %7s %7s %7s %7s %7s %7s %7s %7s  %s\n", t->corps[0].corps[0] ? "unit" : "corps", "ranks", "routing", "kneel", "taken", "shelter", "escaped", "dead",
		       "drowned", "where the men in the field are");
		for (int c = 0; c < nc; ++c) {
			const rt_where_row *w = &t->rows[r + c];
			if (!chosen(only, &t->corps[c]) || !(t->corps[c].initial > 0.0)) continue;
			char text[400], shelter[160] = "";
			where_text(t, w, text, sizeof text);
			if (w->shelter >= 0) snprintf(shelter, sizeof shelter, "; %.0f in %s", w->shelter_men, t->places[w->shelter].name);
			printf("  %-24s %7.0f %7.0f %7.0f %7.0f %7.0f %7.0f %7.0f %7.0f  %s%s\n", t->corps[c].id,
			       w->men[RT_STATE_FORMED] + w->men[RT_STATE_MARCHING] + w->men[RT_STATE_ENGAGED],
			       w->men[RT_STATE_ROUTING] + w->men[RT_STATE_DESPERATE], w->men[RT_STATE_SURRENDERED], w->men[RT_STATE_CAPTURED],
			       w->men[RT_STATE_SHELTERED], w->men[RT_STATE_ESCAPED], dead(w), w->men[RT_STATE_DEAD_DROWNED], text, shelter);
		}
	}
}

static const char *csv_text(const char *s, char *buf, size_t size)
{
	/* ids and names are quoted; a quote inside is doubled */
	size_t o = 0;
	if (size < 3) return "";
	buf[o++] = '"';
	for (; *s && o + 3 < size; ++s) {
		if (*s == '"') buf[o++] = '"';
		buf[o++] = *s;
	}
	buf[o++] = '"';
	buf[o] = '\0';
	return buf;
}

/* The table as CSV, whole or not at all: written beside the file and renamed. */
static int write_csv(const rt_where_table *t, const char *only, const char *path)
{
	char tmp[1200];
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "rout where: cannot write %s\n", path);
		return 1;
	}
	fprintf(f, "time_s,time,corps,unit,kind,side,formed,marching,engaged,routing,desperate,surrendered,captured,sheltered,escaped,"
		   "dead_combat,dead_trampled,dead_drowned,dead_burned,in_field,x_m,y_m,lat,lon,spread_m,near,near_m,near_bearing_deg,"
		   "ground,shelter,shelter_men\n");
	for (int r = 0; r < t->row_count; ++r) {
		const rt_where_row *w = &t->rows[r];
		if (!chosen(only, &t->corps[w->corps])) continue;
		char when[32], a[200], b[200], c[200], d[200];
		local_time(t, w->time_s, when, sizeof when);
		const rt_where_corps *g = &t->corps[w->corps];
		char e[200], k[100];
		fprintf(f, "%.1f,%s,%s,%s,%s,%d", w->time_s, when, csv_text(g->corps[0] ? g->corps : g->id, a, sizeof a),
			g->corps[0] ? csv_text(g->id, e, sizeof e) : "", g->kind[0] ? csv_text(g->kind, k, sizeof k) : "", g->side);
		for (int s = 0; s < RT_STATE_COUNT; ++s) fprintf(f, ",%.0f", w->men[s]);
		fprintf(f, ",%.0f", w->in_field);
		if (w->in_field > 0.0)
			fprintf(f, ",%.1f,%.1f,%.6f,%.6f,%.1f", w->centre.x, w->centre.y, w->centre_lonlat.lat_deg, w->centre_lonlat.lon_deg, w->spread_m);
		else fprintf(f, ",,,,,");
		if (w->near >= 0 && w->in_field > 0.0)
			fprintf(f, ",%s,%.1f,%.1f", csv_text(t->places[w->near].id, b, sizeof b), w->near_m, w->near_bearing_deg);
		else fprintf(f, ",,,");
		fprintf(f, ",%s,%s,%.0f\n", w->ground >= 0 && w->in_field > 0.0 ? csv_text(t->places[w->ground].id, c, sizeof c) : "",
			w->shelter >= 0 ? csv_text(t->places[w->shelter].id, d, sizeof d) : "", w->shelter_men);
	}
	const bool ok = !ferror(f) && fflush(f) == 0 && fsync(fileno(f)) == 0;
	if (fclose(f) != 0 || !ok || rename(tmp, path) != 0) {
		remove(tmp);
		fprintf(stderr, "rout where: cannot write %s\n", path);
		return 1;
	}
	return 0;
}

int rout_where(int argc, char **argv)
{
	if (argc < 1 || argv[0][0] == '-') {
		fprintf(stderr, "rout where: which run folder? (rout where <run folder> [--every DURATION] [--from TIME] [--to TIME] "
				"[--corps ID,...] [--units] [--csv FILE])\n");
		return 2;
	}
	rt_where_def wd = rt_where_def_default();
	wd.run_folder = argv[0];
	const char *every = NULL, *only = NULL, *csv = NULL;
	for (int i = 1; i < argc; ++i) {
		if (arg_string(argc, argv, &i, "--every", &every)) continue;
		if (arg_string(argc, argv, &i, "--from", &wd.from)) continue;
		if (arg_string(argc, argv, &i, "--to", &wd.to)) continue;
		if (arg_string(argc, argv, &i, "--corps", &only)) continue;
		if (arg_string(argc, argv, &i, "--csv", &csv)) continue;
		if (strcmp(argv[i], "--units") == 0) {
			wd.units = true;
			continue;
		}
		if (arg_error) return 2;
		fprintf(stderr, "rout where: unknown option '%s'\n", argv[i]);
		return 2;
	}
	if (every && !duration_seconds(every, &wd.every_s)) {
		fprintf(stderr, "rout where: --every %s: expected a duration such as 30m, 1h or 600s\n", every);
		return 2;
	}
	rt_where_table *t = NULL;
	rt_error err;
	const rt_status s = rt_where_read(&wd, &t, &err);
	if (s != RT_OK) {
		cli_print_error("where", &err);
		return cli_exit_code(s);
	}
	int unknown = 0;
	for (const char *p = only; p && *p;) {
		const char *end = strchr(p, ',');
		const size_t len = end ? (size_t)(end - p) : strlen(p);
		bool found = false;
		for (int c = 0; c < t->corps_count && !found; ++c)
			found = (strlen(t->corps[c].id) == len && strncmp(t->corps[c].id, p, len) == 0) ||
				(strlen(t->corps[c].corps) == len && strncmp(t->corps[c].corps, p, len) == 0);
		if (!found) {
			fprintf(stderr, "rout where: --corps: the run has no %s '%.*s'\n", wd.units ? "corps or unit" : "corps", (int)len, p);
			unknown++;
		}
		p = end ? end + 1 : p + len;
	}
	if (unknown) {
		fprintf(stderr, "rout where: the run's %s:", wd.units ? "units" : "corps");
		for (int c = 0; c < t->corps_count; ++c) fprintf(stderr, " %s", t->corps[c].id);
		fprintf(stderr, "\n");
		rt_where_free(t);
		return 2;
	}
	int rc = 0;
	if (csv) rc = write_csv(t, only, csv);
	else print_table(t, only);
	rt_where_free(t);
	return rc;
}
