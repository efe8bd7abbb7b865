/* `rout run` and `rout check`: load a scenario, run it (or several seeds of it), write the
 * run folder — summary.json, report.md, series.csv, events.jsonl, trace.bin, replay.html,
 * pictures and plots — and, with --runs, the ensemble table. A progress line with the
 * simulated time and speed goes to a terminal only. Ctrl-C (SIGINT) or SIGTERM finishes
 * the current step, writes what the run has so far and exits with code 3.
 * Exit codes: 0 done, 1 a failure while running or writing, 2 bad input, 3 stopped. */
#include "rout/rout.h"
#include "rout/env.h"
#include "rout/picture.h"
#include "rout/replay.h"
#include "rout/scenario.h"
#include "args.h"
#include "cluster.h"
#include "ensemble.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int rout_run(int argc, char **argv, const char *default_scenario, const char *default_out);
int rout_check(int argc, char **argv);
int rout_sweep(int argc, char **argv);

volatile sig_atomic_t stop_requested = 0;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* Ctrl-C (SIGINT) and SIGTERM set stop_requested: the runs finish their step and write. */
void catch_stop_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Loads the scenario with the --set values and, for a sweep's or a fit's point, more
 * (extra, extra_count of them); an error is printed as `rout <cmd>`'s. */
int load(const run_options *o, const char *const *extra, int extra_count, bool with_map, const char *cmd, rt_scenario **sc)
{
	const char *sets[2 * MAX_SETS];
	int n = 0;
	for (int i = 0; i < o->set_count; ++i) sets[n++] = o->sets[i];
	for (int i = 0; i < extra_count && n < 2 * MAX_SETS; ++i) sets[n++] = extra[i];
	rt_scenario_def def = rt_scenario_def_default();
	def.sets = sets;
	def.set_count = n;
	def.load_map = with_map;
	rt_error err;
	rt_status s = rt_scenario_load(o->scenario_path, &def, sc, &err);
	if (s != RT_OK) {
		if (extra_count > 0) {
			fprintf(stderr, "rout %s: the point", cmd);
			for (int i = 0; i < extra_count; ++i) fprintf(stderr, " %s", extra[i]);
			fprintf(stderr, ":\n");
		}
		cli_print_error(cmd, &err);
		return cli_exit_code(s);
	}
	return 0;
}

static int draw(const rt_scenario *sc, rt_world *w, const char *dir, const char *file, const char *title)
{
	char path[1200];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	const char *sides[8];
	int n = 0;
	for (; n < info.side_count && n < 8; ++n) sides[n] = rt_scenario_side_name(sc, n);
	rt_picture_def pd = rt_picture_def_default();
	pd.path = path;
	pd.title = title;
	pd.width_px = 1600;
	pd.side_names = sides;
	pd.side_name_count = n;
	pd.utc_offset_h = info.utc_offset_h;
	rt_error err;
	if (rt_world_draw_picture(w, &pd, &err) != RT_OK) {
		fprintf(stderr, "rout: %s: %s\n", path, err.message);
		return -1;
	}
	return 0;
}

/* What the replay page says of each man, read from the run's run.json (docs/run-folder.md):
 * the tables point into root, so it is kept until the page is written. */
typedef struct who_tables {
	json_t *root;
	char (*side_names)[160];
	const char **side_ptrs;
	rt_replay_unit *units;
	char (*commanders)[160];
	int32_t *agent_unit;
	rt_replay_order *orders;
} who_tables;

static void free_who(who_tables *w)
{
	json_decref(w->root);
	free(w->side_names);
	free(w->side_ptrs);
	free(w->units);
	free(w->commanders);
	free(w->agent_unit);
	free(w->orders);
	memset(w, 0, sizeof *w);
}

/* Fills the replay definition's men_per_agent, side names, units, agents' units and orders
 * from run.json; leaves the defaults where it cannot (the page then counts dots and shows
 * sides by number). */
static void read_who(const char *dir, rt_replay_def *rd, who_tables *w)
{
	memset(w, 0, sizeof *w);
	char path[1200];
	snprintf(path, sizeof path, "%s/run.json", dir);
	json_error_t je;
	json_t *root = w->root = json_load_file(path, 0, &je);
	if (!root) return;
	const double scale = json_number_value(json_object_get(root, "scale"));
	if (scale >= 1.0) rd->men_per_agent = scale;
	json_t *sides = json_object_get(root, "sides"), *zh = json_object_get(root, "sides_zh");
	const size_t ns = json_array_size(sides);
	w->side_names = calloc(ns ? ns : 1, sizeof *w->side_names);
	w->side_ptrs = calloc(ns ? ns : 1, sizeof *w->side_ptrs);
	if (w->side_names && w->side_ptrs) {
		for (size_t i = 0; i < ns; ++i) {
			const char *name = json_string_value(json_array_get(sides, i)), *chinese = json_string_value(json_array_get(zh, i));
			snprintf(w->side_names[i], sizeof w->side_names[i], "%s%s%s", name ? name : "", chinese && *chinese ? " " : "",
				 chinese ? chinese : "");
			w->side_ptrs[i] = w->side_names[i];
		}
		rd->side_names = w->side_ptrs;
		rd->side_name_count = (int)ns;
	}
	json_t *corps = json_object_get(root, "corps"), *units = json_object_get(root, "units"), *orders = json_object_get(root, "orders");
	const size_t nu = json_array_size(units), nc = json_array_size(corps), no = json_array_size(orders);
	if (nu == 0 || nu > 65535) return;
	int64_t agents = 0;
	for (size_t u = 0; u < nu; ++u) {
		json_t *e = json_array_get(units, u);
		const int64_t end = json_integer_value(json_object_get(e, "first_agent")) + json_integer_value(json_object_get(e, "agents"));
		if (end > agents) agents = end;
	}
	if (agents > 100000000) return;
	w->units = calloc(nu, sizeof *w->units);
	w->commanders = calloc(nc ? nc : 1, sizeof *w->commanders);
	w->agent_unit = malloc((size_t)(agents ? agents : 1) * sizeof *w->agent_unit);
	w->orders = calloc(no ? no : 1, sizeof *w->orders);
	if (!w->units || !w->commanders || !w->agent_unit || !w->orders) return;
	for (size_t c = 0; c < nc; ++c) {
		json_t *e = json_array_get(corps, c);
		const char *name = json_string_value(json_object_get(e, "name")), *chinese = json_string_value(json_object_get(e, "name_zh"));
		snprintf(w->commanders[c], sizeof w->commanders[c], "%s%s%s", name ? name : "", chinese && *chinese ? " " : "", chinese ? chinese : "");
	}
	for (int64_t i = 0; i < agents; ++i) w->agent_unit[i] = -1;
	for (size_t u = 0; u < nu; ++u) {
		json_t *e = json_array_get(units, u);
		const json_int_t c = json_integer_value(json_object_get(e, "corps"));
		json_t *ce = c >= 0 && (size_t)c < nc ? json_array_get(corps, (size_t)c) : NULL;
		w->units[u].name = json_string_value(json_object_get(e, "id"));
		w->units[u].kind = json_string_value(json_object_get(e, "kind"));
		w->units[u].corps = ce ? json_string_value(json_object_get(ce, "id")) : NULL;
		w->units[u].commander = ce ? w->commanders[c] : NULL;
		w->units[u].commander_agent = ce ? (int32_t)json_integer_value(json_object_get(ce, "commander")) : -1;
		const int64_t first = json_integer_value(json_object_get(e, "first_agent")), count = json_integer_value(json_object_get(e, "agents"));
		for (int64_t i = first; i >= 0 && i < first + count && i < agents; ++i) w->agent_unit[i] = (int32_t)u;
	}
	size_t kept = 0;
	for (size_t k = 0; k < no; ++k) {
		json_t *e = json_array_get(orders, k);
		const json_int_t u = json_integer_value(json_object_get(e, "unit"));
		if (u < 0 || (size_t)u >= nu) continue;
		w->orders[kept++] = (rt_replay_order){ json_number_value(json_object_get(e, "t_s")), (int)u,
						       json_string_value(json_object_get(e, "order")) };
	}
	rd->units = w->units;
	rd->unit_count = (int)nu;
	rd->agent_unit = w->agent_unit;
	rd->agent_unit_count = (int)agents;
	rd->orders = w->orders;
	rd->order_count = (int)kept;
}

static int write_replay(rt_run *run, const char *dir, const char *trace_path, const char *title)
{
	rt_world *w = rt_run_world(run);
	char path[1200], ground[1200];
	snprintf(path, sizeof path, "%s/replay.html", dir);
	rt_replay_def rd = rt_replay_def_default();
	rd.title = title;
	rt_world_get_bounds(w, &rd.bounds_min, &rd.bounds_max);
	/* the ground under the men: the map with its names, no men (ground.png) */
	snprintf(ground, sizeof ground, "%s/ground.png", dir);
	rt_picture_def pd = rt_picture_def_default();
	pd.path = ground;
	pd.width_px = 2400;
	pd.legend = false;
	pd.info = false;
	pd.ground_only = true;
	pd.view_min = rd.bounds_min;
	pd.view_max = rd.bounds_max;
	rt_error gerr;
	if (rt_world_draw_picture(w, &pd, &gerr) == RT_OK) {
		rd.background_png = ground;
		rd.background_min = rd.bounds_min;
		rd.background_max = rd.bounds_max;
	} else {
		fprintf(stderr, "rout: %s: %s (the replay will have no ground)\n", ground, gerr.message);
	}
	/* the events of the report, clickable in the page */
	FILE *f = NULL;
	char events_path[1200];
	snprintf(events_path, sizeof events_path, "%s/events.jsonl", dir);
	f = fopen(events_path, "r");
	rt_replay_event *ev = NULL;
	char **texts = NULL;
	int n = 0, cap = 0;
	if (f) {
		char line[4096];
		while (fgets(line, sizeof line, f)) {
			json_error_t je;
			json_t *o = json_loads(line, 0, &je);
			if (!o) continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				rt_replay_event *e2 = realloc(ev, (size_t)cap * sizeof *ev);
				char **t2 = realloc(texts, (size_t)cap * 2 * sizeof *texts);
				if (e2) ev = e2;
				if (t2) texts = t2;
				if (!e2 || !t2) {
					json_decref(o);
					break;
				}
			}
			const char *type = json_string_value(json_object_get(o, "type"));
			const char *text = json_string_value(json_object_get(o, "text"));
			texts[2 * n] = strdup(type ? type : "");
			texts[2 * n + 1] = strdup(text ? text : "");
			ev[n].time_s = json_real_value(json_object_get(o, "t_s"));
			ev[n].type = texts[2 * n];
			ev[n].text = texts[2 * n + 1];
			n++;
			json_decref(o);
		}
		fclose(f);
	}
	rd.events = ev;
	rd.event_count = n;
	/* who the men are, from run.json: the scale, the sides' names, units, corps, orders */
	who_tables who;
	read_who(dir, &rd, &who);
	rt_error err;
	rt_status s = rt_replay_write(trace_path, path, &rd, &err);
	free_who(&who);
	for (int i = 0; i < 2 * n; ++i) free(texts[i]);
	free(texts);
	free(ev);
	if (s != RT_OK) {
		fprintf(stderr, "rout: %s: %s\n", path, err.message);
		return -1;
	}
	return 0;
}

/* Pictures of the run's key moments, drawn again from the trace (rt_run_key_moments:
 * at most RT_KEY_MOMENTS_MAX, the most telling first - the first commander to leave, the
 * rout at its height, the highest water, the first drowning ... - docs/run-folder.md),
 * named event-<local time>.png and titled with what happened. */
static void draw_key_moments(const rt_run *run, const char *dir, double frame_s, const char *title)
{
	const rt_scenario *sc = rt_run_scenario(run);
	rt_key_moment moments[RT_KEY_MOMENTS_MAX];
	int n = 0;
	rt_error err;
	if (rt_run_key_moments(run, frame_s, moments, RT_KEY_MOMENTS_MAX, &n, &err) != RT_OK) {
		fprintf(stderr, "rout: the key moments: %s\n", err.message);
		return;
	}
	for (int i = 0; i < n; ++i) {
		char when[40], stamp[32], at[48], out[1300], caption[600];
		rt_scenario_format_time(sc, moments[i].time_s, when, sizeof when);
		int k = 0;
		for (const char *c = when; *c && k < 31; ++c)
			if (*c != ':' && *c != '-') stamp[k++] = *c;
		stamp[k] = '\0';
		snprintf(out, sizeof out, "%s/event-%s.png", dir, stamp);
		snprintf(at, sizeof at, "%.3fs", moments[i].time_s);
		const char *clock = strchr(when, 'T');
		snprintf(caption, sizeof caption, "%s — %.5s %s", title, clock ? clock + 1 : when, moments[i].text);
		rt_render_def rd = rt_render_def_default();
		rd.run_folder = dir;
		rd.at = at;
		rd.out_path = out;
		rd.title = caption;
		if (rt_render_run(&rd, NULL, 0, NULL, &err) != RT_OK) fprintf(stderr, "rout: %s: %s\n", out, err.message);
	}
}

/* The pictures an earlier run left in dir (its map pictures, its key moments and its
 * replay page): a run folder never mixes two runs' pictures, nor keeps pictures of
 * another run when this one is drawn without any (--no-pictures). A resumed run keeps
 * its start.png, drawn when it began. */
static void remove_earlier_pictures(const char *dir, bool resumed)
{
	DIR *d = opendir(dir);
	if (!d) return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		const char *name = e->d_name;
		const size_t len = strlen(name);
		const bool event = strncmp(name, "event-", 6) == 0 && len > 10 && strcmp(name + len - 4, ".png") == 0;
		if (!event && strcmp(name, "end.png") != 0 && strcmp(name, "replay.html") != 0 && (resumed || strcmp(name, "start.png") != 0))
			continue;
		char path[1300];
		snprintf(path, sizeof path, "%s/%s", dir, name);
		if (unlink(path) != 0) fprintf(stderr, "rout: cannot remove %s, left by an earlier run: %s\n", path, strerror(errno));
	}
	closedir(d);
}

static void progress(const rt_run *run, double started, bool done)
{
	const rt_scenario *sc = rt_run_scenario(run);
	char when[40];
	const double t = rt_run_time_s(run), end = rt_run_end_s(run);
	rt_scenario_format_time(sc, t, when, sizeof when);
	const double wall = now_s() - started;
	const int width = 30, filled = (int)(width * t / end);
	char bar[64];
	for (int i = 0; i < width; ++i) bar[i] = i < filled ? '#' : '.';
	bar[width] = '\0';
	fprintf(stderr, "\r[%s] %s  %5.1f%%  %6.0fx real time  %5.0f s%s", bar, when, 100.0 * t / end,
		wall > 0 ? t / wall : 0.0, wall, done ? "\n" : "");
	fflush(stderr);
}

/* One run into dir. Returns the exit code; values (history figures) filled when asked. */
static int one_run(const rt_scenario *sc, const run_options *o, uint64_t seed, const char *dir, double *values,
		   int capacity)
{
	if (make_dirs(dir) != 0) {
		fprintf(stderr, "rout: cannot create the folder %s: %s\n", dir, strerror(errno));
		return 1;
	}
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	char trace_path[1200];
	snprintf(trace_path, sizeof trace_path, "%s/trace.bin", dir);
	rt_run_def rd = rt_run_def_default();
	rd.seed = seed;
	rd.scale = o->scale;
	rd.threads = (int)o->threads;
	rd.trace_every_s = o->trace_every_s;
	rd.trace_path = o->trace_every_s > 0.0 ? trace_path : NULL;
	if (o->until && !until_seconds(sc, o->until, &rd.until_s)) {
		until_error("run", o->until);
		return 2;
	}
	rt_error err;
	rt_run *run;
	rt_status s = rt_run_create(sc, &rd, &run, &err);
	if (s != RT_OK) {
		cli_print_error("run", &err);
		return cli_exit_code(s);
	}
	char checkpoint[1200];
	if (o->checkpoint) snprintf(checkpoint, sizeof checkpoint, "%s", o->checkpoint);
	else snprintf(checkpoint, sizeof checkpoint, "%s/checkpoint.rtck", dir);
	if (o->resume) {
		if ((s = rt_run_load_checkpoint(run, o->resume, &err)) != RT_OK) {
			cli_print_error("run", &err);
			rt_run_destroy(run);
			return cli_exit_code(s);
		}
		if (!o->quiet) {
			char when[40];
			rt_scenario_format_time(sc, rt_run_time_s(run), when, sizeof when);
			fprintf(stderr, "rout: resumed from %s at %s\n", o->resume, when);
		}
	}
	char title[300];
	snprintf(title, sizeof title, "%s — seed %llu", info.title[0] ? info.title : info.name, (unsigned long long)seed);
	remove_earlier_pictures(dir, o->resume != NULL);
	if (!o->no_pictures && !o->resume) draw(sc, rt_run_world(run), dir, "start.png", title);
	double next_checkpoint = o->checkpoint_every_s > 0.0 ? (floor(rt_run_time_s(run) / o->checkpoint_every_s) + 1.0) * o->checkpoint_every_s : INFINITY;
	const bool tty = !o->quiet && isatty(2);
	const double started = now_s();
	double last_print = 0.0;
	int code = 0;
	while (!rt_run_done(run)) {
		if (stop_requested) {
			code = 3;
			break;
		}
		if ((s = rt_run_step(run, &err)) != RT_OK) {
			cli_print_error("run", &err);
			code = 1;
			break;
		}
		if (rt_run_time_s(run) >= next_checkpoint - 1e-9 && !rt_run_done(run)) {
			next_checkpoint += o->checkpoint_every_s;
			if ((s = rt_run_save_checkpoint(run, checkpoint, &err)) != RT_OK) {
				cli_print_error("run", &err);
				code = 1;
				break;
			}
		}
		if (tty && now_s() - last_print > 0.5) {
			last_print = now_s();
			progress(run, started, false);
		}
	}
	if (tty) progress(run, started, true);
	if (code == 3) {
		/* stopped: keep the whole state, so the run can go on (--resume) */
		if ((s = rt_run_save_checkpoint(run, checkpoint, &err)) != RT_OK) cli_print_error("run", &err);
		else fprintf(stderr, "rout: checkpoint written to %s (go on with --resume %s)\n", checkpoint, checkpoint);
	}
	if ((s = rt_run_write_outputs(run, dir, &err)) != RT_OK) {
		cli_print_error("run", &err);
		code = code ? code : 1;
	} else if (!o->no_pictures) {
		draw(sc, rt_run_world(run), dir, "end.png", title);
		if (rd.trace_path) {
			write_replay(run, dir, trace_path, title);
			draw_key_moments(run, dir, o->trace_every_s, title);
		}
	}
	if (values) rt_run_history_values(run, values, capacity);
	if (code == 3) fprintf(stderr, "rout: stopped by a signal; the outputs in %s describe the run so far\n", dir);
	else if (!o->quiet) fprintf(stderr, "rout: %s written\n", dir);
	rt_run_destroy(run);
	return code;
}

int compare_doubles(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The q-quantile of n sorted values (linear interpolation). */
double quantile(const double *v, int n, double q)
{
	if (n == 0) return NAN;
	const double pos = q * (n - 1);
	const int i = (int)floor(pos);
	const double f = pos - i;
	return i + 1 < n ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

/* Seconds since the epoch-free origin for an ISO local time (only differences are used). */
static double iso_seconds(const char *t)
{
	int y, mo, d, h, mi, s;
	if (!t || sscanf(t, "%d-%d-%dT%d:%d:%d", &y, &mo, &d, &h, &mi, &s) != 6) return NAN;
	return rt_julian_day_from_civil(y, mo, d, h, mi, (double)s, 0.0) * 86400.0;
}

/* The summary.json of the run of one seed of an ensemble, or NULL when it cannot be read. */
static json_t *run_summary(const run_options *o, long seed)
{
	char path[1300];
	snprintf(path, sizeof path, "%s/seed-%ld/summary.json", o->out, seed);
	json_error_t je;
	return json_load_file(path, 0, &je);
}

/* One commander over the runs of an ensemble: in how many he left without orders and when,
 * his fate and the place he reached. */
typedef struct {
	json_t *id, *name, *side, *record; /* the first summary's (references held; record null when none) */
	int left, first;
	double *left_s; /* seconds after the start at which he left, one per run he left in */
	json_t *fates;  /* fate -> runs */
	json_t *reached; /* place -> runs */
} ensemble_commander;

/* An instant of the runs, seconds after the scenario's start, as local ISO time. */
static json_t *iso_after_start(const rt_scenario *sc, double t_s)
{
	char buf[40];
	rt_scenario_format_time(sc, floor(t_s + 0.5), buf, sizeof buf);
	return json_string(buf);
}

/* Adds one to the count of `key` in the object `counts`. */
static void count_up(json_t *counts, const char *key)
{
	json_t *c = json_object_get(counts, key);
	if (c) json_integer_set(c, json_integer_value(c) + 1);
	else json_object_set_new(counts, key, json_integer(1));
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The counts of `counts` in a fixed order, whatever order the runs met them in: first the
 * keys of `order` (NULL-terminated; may be NULL), then the rest by name. A new object. */
static json_t *ordered_counts(const json_t *counts, const char *const *order)
{
	json_t *out = json_object();
	for (int k = 0; order && order[k]; ++k) {
		json_t *v = json_object_get(counts, order[k]);
		if (v) json_object_set(out, order[k], v);
	}
	size_t rest = json_object_size(counts) - json_object_size(out), n = 0;
	const char **keys = rest ? malloc(rest * sizeof *keys) : NULL;
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)counts, key, v) if (!json_object_get(out, key) && keys && n < rest) keys[n++] = key;
	if (keys) qsort(keys, n, sizeof *keys, compare_strings);
	for (size_t i = 0; i < n; ++i) json_object_set(out, keys[i], json_object_get(counts, keys[i]));
	free(keys);
	return out;
}

/* "sheltered 5, dead 2" from a count object, into buf ("—" when empty). */
static void counts_text(const json_t *counts, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)counts, key, v) {
		int n = snprintf(buf + used, size - used, "%s%s %lld", used ? ", " : "", key, (long long)json_integer_value(v));
		if (n < 0 || (size_t)n >= size - used) {
			buf[used] = '\0'; /* no half entry */
			break;
		}
		used += (size_t)n;
	}
	if (!used) snprintf(buf, size, "—");
}

/* The commanders over the runs (M2): who left first in how many runs, and how many
 * others left within three hours of the first; then each commander: in how many runs he
 * left without orders, when (median and 90 % interval of the runs he left in), his fate
 * and the refuge he reached, so a run's commanders can be set beside the record's
 * (HISTORY.md: who fled, who held). Into the table and `out` ("commanders"; null when
 * the tally could not be made). */
static void ensemble_commanders(FILE *f, const rt_scenario *sc, const run_options *o, const long *seeds, int runs, json_t *out)
{
	static const char *const fate_order[] = { "in_field", "sheltered", "escaped", "captured", "dead", NULL };
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	/* a run's summary has the scenario's commanders, one per corps, in its order */
	const size_t max_c = info.corps_count > 0 ? (size_t)info.corps_count : 1;
	ensemble_commander *cs = calloc(max_c, sizeof *cs);
	double *times = malloc(max_c * (size_t)runs * sizeof *times);
	if (!cs || !times) {
		free(cs);
		free(times);
		fprintf(f, "\n## Commanders (M2)\n\nNot tallied: out of memory.\n");
		json_object_set_new(out, "commanders", json_null());
		return;
	}
	int count = 0, four_or_more = 0, any_left = 0, read = 0;
	int followers_total = 0;
	for (int r = 0; r < runs; ++r) {
		json_t *root = run_summary(o, seeds[r]);
		if (!root) continue;
		read++;
		const double t0 = iso_seconds(json_string_value(json_object_get(root, "start")));
		json_t *cmd = json_object_get(root, "commanders");
		double t_first = INFINITY;
		int who = -1;
		size_t n = json_array_size(cmd);
		for (size_t i = 0; i < n && i < max_c; ++i) {
			json_t *c = json_array_get(cmd, i);
			ensemble_commander *e = &cs[i];
			if ((int)i >= count) {
				for (size_t k = (size_t)count; k <= i; ++k) {
					json_t *ck = json_array_get(cmd, k);
					json_t *id = json_object_get(ck, "id"), *name = json_object_get(ck, "name"), *side = json_object_get(ck, "side");
					cs[k].id = json_is_string(id) ? json_incref(id) : json_string("?");
					cs[k].name = json_is_string(name) ? json_incref(name) : json_string("");
					cs[k].side = json_is_string(side) ? json_incref(side) : json_string("");
					json_t *rec = json_object_get(ck, "record");
					cs[k].record = json_is_string(rec) ? json_incref(rec) : json_null();
					cs[k].left_s = times + k * (size_t)runs;
					cs[k].fates = json_object();
					cs[k].reached = json_object();
				}
				count = (int)i + 1;
			}
			const double t = iso_seconds(json_string_value(json_object_get(c, "left_at")));
			if (isfinite(t)) {
				if (isfinite(t0)) e->left_s[e->left] = t - t0;
				else e->left_s[e->left] = NAN; /* no start: the times are not told */
				e->left++;
				if (t < t_first) {
					t_first = t;
					who = (int)i;
				}
			}
			const char *fate = json_string_value(json_object_get(c, "fate"));
			count_up(e->fates, fate ? fate : "unknown");
			const char *place = json_string_value(json_object_get(c, "reached"));
			if (place) count_up(e->reached, place);
		}
		if (who >= 0) {
			cs[who].first++;
			any_left++;
			int followers = 0;
			for (size_t i = 0; i < n; ++i) {
				const double t = iso_seconds(json_string_value(json_object_get(json_array_get(cmd, i), "left_at")));
				if ((int)i != who && isfinite(t) && t - t_first <= 3 * 3600.0) followers++;
			}
			followers_total += followers;
			four_or_more += followers >= 4;
		}
		json_decref(root);
	}
	fprintf(f, "\n## Commanders (M2)\n\nIn %d of %d runs a commander left without orders. Who left first:\n\n| corps | first in |\n|---|---|\n",
		any_left, runs);
	json_t *first = json_object();
	for (int i = 0; i < count; ++i)
		if (cs[i].first > 0) {
			fprintf(f, "| %s | %d of %d runs (%.0f %%) |\n", json_string_value(cs[i].id), cs[i].first, runs, 100.0 * cs[i].first / runs);
			json_object_set_new(first, json_string_value(cs[i].id), json_integer(cs[i].first));
		}
	fprintf(f, "\nAt least four other corps left within three hours of the first in %d of %d runs (%.0f %%); on average %.1f did.\n",
		four_or_more, runs, 100.0 * four_or_more / runs, any_left ? (double)followers_total / any_left : 0.0);
	fprintf(f, "\nEach commander over the %d runs: in how many he left without orders, and when (the median and 90 %% interval of "
		   "the runs he left in); how he ended (`fate` of summary.json), the refuge he reached, and what the record says he did (the scenario's `record`).\n\n"
		   "| corps | commander | side | left without orders | when | fate | reached | the record |\n|---|---|---|---|---|---|---|---|\n",
		read);
	json_t *list = json_array();
	for (int i = 0; i < count; ++i) {
		ensemble_commander *e = &cs[i];
		int timed = 0; /* the departures with a time (all, unless a summary had no start) */
		for (int k = 0; k < e->left; ++k)
			if (isfinite(e->left_s[k])) e->left_s[timed++] = e->left_s[k];
		qsort(e->left_s, (size_t)timed, sizeof *e->left_s, compare_doubles);
		json_t *j = json_object();
		json_object_set(j, "id", e->id);
		json_object_set(j, "name", e->name);
		json_object_set(j, "side", e->side);
		json_object_set_new(j, "left", json_integer(e->left));
		char when[160] = "—", fates[400], reached[400];
		if (timed > 0) {
			json_t *med = iso_after_start(sc, quantile(e->left_s, timed, 0.5));
			json_t *lo = iso_after_start(sc, quantile(e->left_s, timed, 0.05));
			json_t *hi = iso_after_start(sc, quantile(e->left_s, timed, 0.95));
			snprintf(when, sizeof when, "%s (%s – %s)", json_string_value(med), json_string_value(lo), json_string_value(hi));
			json_object_set_new(j, "left_at_median", med);
			json_object_set_new(j, "left_at_p05", lo);
			json_object_set_new(j, "left_at_p95", hi);
		} else {
			json_object_set_new(j, "left_at_median", json_null());
			json_object_set_new(j, "left_at_p05", json_null());
			json_object_set_new(j, "left_at_p95", json_null());
		}
		json_t *fate = ordered_counts(e->fates, fate_order), *place = ordered_counts(e->reached, NULL);
		counts_text(fate, fates, sizeof fates);
		counts_text(place, reached, sizeof reached);
		fprintf(f, "| %s | %s | %s | %d of %d runs | %s | %s | %s | ", json_string_value(e->id), json_string_value(e->name),
			json_string_value(e->side), e->left, read, when, fates, reached);
		const char *rec = json_string_value(e->record);
		if (!rec) fputs("—", f);
		for (; rec && *rec; ++rec) { /* a table's cell: '|' escaped, line breaks as spaces */
			if (*rec == '|') fputc('\\', f);
			fputc(*rec == '\n' || *rec == '\r' ? ' ' : *rec, f);
		}
		fputs(" |\n", f);
		json_object_set_new(j, "fate", fate);
		json_object_set_new(j, "reached", place);
		json_object_set(j, "record", e->record);
		json_array_append_new(list, j);
		json_decref(e->id);
		json_decref(e->name);
		json_decref(e->side);
		json_decref(e->record);
		json_decref(e->fates);
		json_decref(e->reached);
	}
	json_t *cmd = json_object();
	json_object_set_new(cmd, "runs_read", json_integer(read));
	json_object_set_new(cmd, "any_left", json_integer(any_left));
	json_object_set_new(cmd, "first", first);
	json_object_set_new(cmd, "four_or_more_within_3h", json_integer(four_or_more));
	json_object_set_new(cmd, "each", list);
	json_object_set_new(out, "commanders", cmd);
	free(times);
	free(cs);
}

/* The phenomena over the runs: in how many each occurred (PHENOMENA.md's order, as each
 * run's summary.json has them; "not recognised" for those the report does not watch for).
 * Into the table and `out` (ID: runs, or null). */
static void ensemble_phenomena(FILE *f, const run_options *o, const long *seeds, int runs, json_t *out)
{
	json_t *counts = NULL; /* ID -> runs in which it occurred, or null */
	int read = 0;
	for (int r = 0; r < runs; ++r) {
		json_t *root = run_summary(o, seeds[r]);
		const json_t *ph = json_object_get(root, "phenomena");
		if (!json_is_object(ph)) {
			json_decref(root);
			continue;
		}
		read++;
		if (!counts) counts = json_object();
		const char *id;
		json_t *v;
		json_object_foreach((json_t *)ph, id, v) {
			json_t *c = json_object_get(counts, id);
			if (!c) json_object_set_new(counts, id, json_is_null(v) ? json_null() : json_integer(json_is_true(v)));
			else if (json_is_integer(c) && json_is_true(v)) json_integer_set(c, json_integer_value(c) + 1);
		}
		json_decref(root);
	}
	fprintf(f, "\n## Phenomena (PHENOMENA.md)\n\nIn how many of the %d runs each occurred (docs/run-folder.md gives the rule the "
		   "report recognises each by).\n\n| ID | occurred in |\n|---|---|\n",
		read);
	const char *id;
	json_t *v;
	json_object_foreach(counts, id, v) {
		if (json_is_null(v)) fprintf(f, "| %s | not recognised by the report |\n", id);
		else fprintf(f, "| %s | %lld of %d runs |\n", id, (long long)json_integer_value(v), read);
	}
	json_object_set_new(out, "phenomena", counts ? counts : json_object());
}

/* Opens DIR/<name>.md.tmp for a table's markdown, or says why not (NULL). */
FILE *open_table(const run_options *o, const char *name, const char *cmd, char *tmp, size_t size)
{
	snprintf(tmp, size, "%s/%s.md.tmp", o->out, name);
	FILE *f = fopen(tmp, "w");
	if (!f) fprintf(stderr, "%s: cannot write %s/%s.md: %s\n", cmd, o->out, name, strerror(errno));
	return f;
}

/* Closes a table's markdown (written to tmp) and renames it DIR/<name>.md, then writes root
 * to DIR/<name>.json the same way: each whole or not at all. Takes root. */
int finish_table(FILE *f, const char *tmp, json_t *root, const run_options *o, const char *name, const char *cmd)
{
	char path[1200], jtmp[1300];
	snprintf(path, sizeof path, "%s/%s.md", o->out, name);
	bool ok = fclose(f) == 0 && rename(tmp, path) == 0;
	snprintf(path, sizeof path, "%s/%s.json", o->out, name);
	snprintf(jtmp, sizeof jtmp, "%s.tmp", path);
	ok = ok && json_dump_file(root, jtmp, JSON_INDENT(2)) == 0 && rename(jtmp, path) == 0;
	json_decref(root);
	if (!ok) {
		fprintf(stderr, "%s: cannot write the %s table in %s\n", cmd, name, o->out);
		return 1;
	}
	if (!o->quiet) fprintf(stderr, "rout: %s/%s.md written\n", o->out, name);
	return 0;
}

/* values: `figures` per run, the runs of `seeds` in that order (increasing). */
static int write_ensemble(const rt_scenario *sc, const run_options *o, const long *seeds, const double *values, int runs,
			  int figures)
{
	char tmp[1300];
	FILE *f = open_table(o, "ensemble", "rout", tmp, sizeof tmp);
	if (!f) return 1;
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	if (seeds[runs - 1] - seeds[0] == runs - 1)
		fprintf(f, "# %s — %d runs (seeds %ld to %ld)\n\n", info.title[0] ? info.title : info.name, runs, seeds[0],
			seeds[runs - 1]);
	else /* stopped: the runs that finished */
		fprintf(f, "# %s — %d runs (seeds %ld to %ld, not all of them)\n\n", info.title[0] ? info.title : info.name, runs,
			seeds[0], seeds[runs - 1]);
	fprintf(f, "Median and 90 %% interval (5th to 95th percentile) over the runs, beside the record.\n\n");
	fprintf(f, "| figure | recorded | grade | median | 90 %% interval | record inside the interval |\n|---|---|---|---|---|---|\n");
	json_t *root = json_object(), *arr = json_array();
	double *col = malloc((size_t)runs * sizeof *col);
	if (!col) {
		fclose(f);
		remove(tmp);
		return 1;
	}
	for (int h = 0; h < figures; ++h) {
		rt_history_figure hv;
		rt_scenario_get_history(sc, h, &hv);
		int n = 0;
		for (int r = 0; r < runs; ++r)
			if (isfinite(values[(size_t)r * (size_t)figures + h])) col[n++] = values[(size_t)r * (size_t)figures + h];
		qsort(col, (size_t)n, sizeof *col, compare_doubles);
		const double med = quantile(col, n, 0.5), lo = quantile(col, n, 0.05), hi = quantile(col, n, 0.95);
		const bool inside = n > 0 && hv.recorded_high >= lo && hv.recorded_low <= hi;
		if (hv.recorded_low == hv.recorded_high) fprintf(f, "| %s | %.0f | %s |", hv.figure, hv.recorded_low, hv.grade);
		else fprintf(f, "| %s | %.0f–%.0f | %s |", hv.figure, hv.recorded_low, hv.recorded_high, hv.grade);
		if (n == 0) fprintf(f, " — | — | not reached: the runs stopped before its time |\n");
		else fprintf(f, " %.0f | %.0f – %.0f | %s |\n", med, lo, hi, inside ? "yes" : "**no**");
		json_t *e = json_object();
		json_object_set_new(e, "figure", json_string(hv.figure));
		json_object_set_new(e, "recorded_low", json_real(hv.recorded_low));
		json_object_set_new(e, "recorded_high", json_real(hv.recorded_high));
		json_object_set_new(e, "grade", json_string(hv.grade));
		json_object_set_new(e, "median", n > 0 ? json_real(med) : json_null());
		json_object_set_new(e, "p05", n > 0 ? json_real(lo) : json_null());
		json_object_set_new(e, "p95", n > 0 ? json_real(hi) : json_null());
		json_t *all = json_array();
		for (int r = 0; r < runs; ++r) {
			const double v = values[(size_t)r * (size_t)figures + h];
			json_array_append_new(all, isfinite(v) ? json_real(v) : json_null()); /* null: not reached */
		}
		json_object_set_new(e, "runs", all);
		json_array_append_new(arr, e);
	}
	free(col);
	ensemble_commanders(f, sc, o, seeds, runs, root);
	ensemble_phenomena(f, o, seeds, runs, root);
	json_object_set_new(root, "scenario", json_string(info.name));
	json_object_set_new(root, "first_seed", json_integer(seeds[0]));
	json_t *seed_list = json_array();
	for (int r = 0; r < runs; ++r) json_array_append_new(seed_list, json_integer(seeds[r]));
	json_object_set_new(root, "seeds", seed_list);
	json_object_set_new(root, "runs", json_integer(runs));
	json_object_set_new(root, "figures", arr);
	return finish_table(f, tmp, root, o, "ensemble", "rout");
}

int parse_options(int argc, char **argv, run_options *o, const char *cmd)
{
	for (int i = 0; i < argc; ++i) {
		if (arg_long(argc, argv, &i, "--seed", &o->seed, 0, 1L << 62)) continue;
		if (arg_long(argc, argv, &i, "--threads", &o->threads, 0, 1024)) continue;
		if (arg_long(argc, argv, &i, "--runs", &o->runs, 1, 100000)) continue;
		if (arg_long(argc, argv, &i, "--jobs", &o->jobs, 1, 1024)) continue;
		if (arg_double(argc, argv, &i, "--scale", &o->scale, 1.0, 1000.0)) continue;
		if (arg_double(argc, argv, &i, "--trace-every", &o->trace_every_s, 0.0, 86400.0)) continue;
		if (arg_string(argc, argv, &i, "--until", &o->until)) continue;
		if (arg_string(argc, argv, &i, "--out", &o->out)) continue;
		if (arg_string(argc, argv, &i, "--checkpoint", &o->checkpoint)) continue;
		if (arg_string(argc, argv, &i, "--resume", &o->resume)) continue;
		const char *every = NULL;
		if (arg_string(argc, argv, &i, "--checkpoint-every", &every)) {
			if (!duration_seconds(every, &o->checkpoint_every_s)) {
				fprintf(stderr, "rout %s: --checkpoint-every %s: expected a simulated duration like 30m, 2h or 600s\n", cmd, every);
				return 2;
			}
			continue;
		}
		const char *set = NULL;
		if (arg_string(argc, argv, &i, "--set", &set)) {
			if (o->set_count == MAX_SETS) {
				fprintf(stderr, "rout %s: more than %d --set options\n", cmd, MAX_SETS);
				return 2;
			}
			o->sets[o->set_count++] = set;
			continue;
		}
		if (arg_error) return 2;
		if (strcmp(argv[i], "--quiet") == 0) {
			o->quiet = true;
			continue;
		}
		if (strcmp(argv[i], "--no-pictures") == 0) {
			o->no_pictures = true;
			continue;
		}
		if (argv[i][0] == '-' || o->scenario_path) {
			fprintf(stderr, "rout %s: unknown option '%s'\n", cmd, argv[i]);
			return 2;
		}
		o->scenario_path = argv[i];
	}
	if (!o->scenario_path) {
		fprintf(stderr, "rout %s: which scenario? (a scenario.yaml, or a folder holding one)\n", cmd);
		return 2;
	}
	if (cluster_size() > 1 && o->jobs > 1) {
		fprintf(stderr, "rout %s: --jobs is for one machine; under MPI each rank runs its share of the runs one after another "
				"(start a rank for each core: mpirun -np N)\n", cmd);
		return 2;
	}
	if (!cluster_lead()) o->quiet = true; /* rank 0 speaks for the job */
	return 0;
}

/* --runs N --jobs J: the seeds J at a time, each run in a process of its own (fork), which
 * sends back its exit code and its history figures through a pipe. The runs are the same
 * as one after another (each is its seed's run, at its --threads), only sooner. Ctrl-C
 * reaches every run (they share the terminal's process group) and each writes what it
 * has; no new run starts after it. A run that fails stops new ones; those under way end.
 * Returns the exit code as the serial loop would: the first failure's, else 3 if any run
 * was stopped, else 0. finished[r] is set for each run r that ran to its end. */
static int runs_in_processes(const rt_scenario *sc, const run_options *o, const run_options *each, int figures, double *values,
			     bool *finished)
{
	typedef struct child {
		pid_t pid;
		int fd;
		long r;
		double t0;
	} child;
	const long jobs = o->jobs < o->runs ? o->jobs : o->runs;
	child *kids = calloc((size_t)jobs, sizeof *kids);
	if (!kids) {
		fprintf(stderr, "rout run: out of memory for %ld processes\n", jobs);
		return 1;
	}
	int rc = 0, running = 0;
	long next = 0;
	bool failed = false, forwarded = false;
	const size_t bytes = sizeof(int) + (size_t)figures * sizeof(double);
	unsigned char *msg = malloc(bytes);
	if (!msg) {
		free(kids);
		fprintf(stderr, "rout run: out of memory\n");
		return 1;
	}
	for (;;) {
		/* start runs while there are slots, seeds and no reason to stop */
		while (running < jobs && next < o->runs && !stop_requested && !failed) {
			int fds[2];
			if (pipe(fds) != 0) {
				fprintf(stderr, "rout run: cannot make a pipe: %s\n", strerror(errno));
				failed = true;
				rc = rc ? rc : 1;
				break;
			}
			fflush(stdout);
			fflush(stderr);
			const pid_t pid = fork();
			if (pid < 0) {
				fprintf(stderr, "rout run: cannot start a process: %s\n", strerror(errno));
				close(fds[0]);
				close(fds[1]);
				failed = true;
				rc = rc ? rc : 1;
				break;
			}
			if (pid == 0) {
				close(fds[0]);
				char dir[1200];
				snprintf(dir, sizeof dir, "%s/seed-%ld", o->out, o->seed + next);
				double *v = (double *)(msg + sizeof(int));
				for (int h = 0; h < figures; ++h) v[h] = NAN;
				const int code = one_run(sc, each, (uint64_t)(o->seed + next), dir, v, figures);
				memcpy(msg, &code, sizeof code);
				size_t sent = 0;
				while (sent < bytes) {
					const ssize_t k = write(fds[1], msg + sent, bytes - sent);
					if (k <= 0 && errno != EINTR) break;
					if (k > 0) sent += (size_t)k;
				}
				_exit(sent == bytes ? (code & 0xff) : 1);
			}
			close(fds[1]);
			int slot = 0;
			while (kids[slot].pid != 0) slot++;
			kids[slot] = (child){ pid, fds[0], next, now_s() };
			running++;
			next++;
		}
		if (running == 0) break;
		/* a signal to this process alone (kill, not the terminal's Ctrl-C) goes on to the runs */
		if (stop_requested && !forwarded) {
			forwarded = true;
			for (long j = 0; j < jobs; ++j)
				if (kids[j].pid > 0) kill(kids[j].pid, SIGTERM);
		}
		/* wait for any run to end; a signal (Ctrl-C) interrupts the wait and is seen above */
		int status = 0;
		const pid_t pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR) continue;
			break;
		}
		int slot = 0;
		while (slot < jobs && kids[slot].pid != pid) slot++;
		if (slot == jobs) continue;
		child *k = &kids[slot];
		size_t got = 0;
		while (got < bytes) {
			const ssize_t n = read(k->fd, msg + got, bytes - got);
			if (n <= 0 && errno != EINTR) break;
			if (n > 0) got += (size_t)n;
		}
		close(k->fd);
		int code = 1;
		if (got == bytes) memcpy(&code, msg, sizeof code);
		else fprintf(stderr, "rout run: the run of seed %ld ended without its figures (%s)\n", o->seed + k->r,
			     WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "no report");
		if (code == 0) {
			memcpy(values + (size_t)k->r * (size_t)figures, msg + sizeof(int), (size_t)figures * sizeof(double));
			finished[k->r] = true;
		}
		if (code != 0 && code != 3) {
			failed = true;
			if (rc == 0 || rc == 3) rc = code;
		} else if (code == 3 && rc == 0) {
			rc = 3;
		}
		if (!o->quiet && code == 0)
			fprintf(stderr, "rout: run of seed %ld done in %.0f s (%ld of %ld started)\n", o->seed + k->r, now_s() - k->t0, next,
				o->runs);
		*k = (child){ 0, -1, 0, 0.0 };
		running--;
	}
	free(msg);
	free(kids);
	return rc;
}

/* The o->runs seeds from o->seed of a scenario, each in its folder o->out/seed-N, J at a
 * time (--jobs) or shared among the ranks of an MPI job (cluster.h), and the ensemble
 * table (ensemble.md, ensemble.json) of those that finished. values (room for o->runs x
 * (the history's figures + 1)) and seeds get the finished runs in seed order, *done their
 * count, on every rank. Returns the exit code: 0, 3 stopped (the table has the
 * runs that finished), else the first failure's. */
int ensemble(const rt_scenario *sc, const run_options *o, double *values, long *seeds, int *done)
{
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	const int figures = info.history_count;
	bool *finished = calloc((size_t)o->runs, sizeof *finished);
	if (!finished) {
		fprintf(stderr, "rout run: out of memory for %ld runs\n", o->runs);
		return 1;
	}
	int rc = 0;
	run_options each = *o;
	each.quiet = true;
	/* under MPI (cluster.h) run r is rank r mod N's, and the figures are gathered below */
	const long first = cluster_rank(), stride = cluster_size();
	if (o->jobs > 1) rc = runs_in_processes(sc, o, &each, figures, values, finished);
	else
		for (long r = first; r < o->runs && !stop_requested; r += stride) {
			char dir[1200];
			snprintf(dir, sizeof dir, "%s/seed-%ld", o->out, o->seed + r);
			const double t0 = now_s();
			rc = one_run(sc, &each, (uint64_t)(o->seed + r), dir, values + (size_t)r * (size_t)figures, figures);
			if (rc != 0 && rc != 3) break;
			finished[r] = rc == 0;
			if (!o->quiet) fprintf(stderr, "rout: run %ld of %ld (seed %ld) done in %.0f s%s\n", r + 1, o->runs, o->seed + r, now_s() - t0,
					       stride > 1 ? " on rank 0" : "");
		}
	if (stop_requested && rc == 0) rc = 3;
	if (stride > 1) {
		/* each run is one rank's: the others hold zeros in its row (a figure a run did not
		 * reach is NaN, and stays NaN in the sum); which finished, in the o->runs values
		 * after the table (the callers' arrays have room for them) */
		double *done_runs = values + (size_t)o->runs * (size_t)figures;
		for (long r = 0; r < o->runs; ++r) {
			done_runs[r] = finished[r] ? 1.0 : 0.0;
			if (r % stride != first) memset(values + (size_t)r * (size_t)figures, 0, (size_t)figures * sizeof *values);
		}
		rc = cluster_code(rc);
		cluster_sum(values, (size_t)o->runs * (size_t)(figures + 1));
		for (long r = 0; r < o->runs; ++r) finished[r] = done_runs[r] > 0.5;
	}
	/* the runs that finished, in seed order */
	*done = 0;
	for (long r = 0; r < o->runs; ++r) {
		if (!finished[r]) continue;
		memmove(values + (size_t)*done * (size_t)figures, values + (size_t)r * (size_t)figures, (size_t)figures * sizeof *values);
		seeds[(*done)++] = o->seed + r;
	}
	free(finished);
	if (*done > 0 && (rc == 0 || rc == 3)) {
		const int erc = cluster_code(cluster_lead() ? write_ensemble(sc, o, seeds, values, *done, figures) : 0);
		if (rc == 0) rc = erc;
	}
	return rc;
}

int rout_run(int argc, char **argv, const char *default_scenario, const char *default_out)
{
	run_options o;
	memset(&o, 0, sizeof o);
	o.seed = 1;
	o.runs = 1;
	o.jobs = 1;
	o.out = default_out;
	o.scenario_path = default_scenario;
	o.trace_every_s = 60.0;
	int rc = parse_options(argc, argv, &o, "run");
	if (rc) return rc;
	char buf[1100];
	o.scenario_path = scenario_file(o.scenario_path, buf, sizeof buf);
	rt_scenario *sc;
	if ((rc = load(&o, NULL, 0, true, "run", &sc)) != 0) return rc;
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	char out_default[300];
	if (!o.out) {
		snprintf(out_default, sizeof out_default, "out/%s", info.name);
		o.out = out_default;
	}
	catch_stop_signals();
	if (o.runs == 1 && cluster_size() > 1) {
		fprintf(stderr, "rout run: under MPI give --runs N: the ranks share the runs (one run is one rank's work)\n");
		rt_scenario_destroy(sc);
		return 2;
	}
	if (o.runs == 1) {
		rc = one_run(sc, &o, (uint64_t)o.seed, o.out, NULL, 0);
		rt_scenario_destroy(sc);
		return rc;
	}
	const int figures = info.history_count;
	double *values = calloc((size_t)o.runs * (size_t)(figures + 1), sizeof *values);
	long *seeds = calloc((size_t)o.runs, sizeof *seeds);
	if (!values || !seeds) {
		fprintf(stderr, "rout run: out of memory for %ld runs\n", o.runs);
		free(values);
		free(seeds);
		rt_scenario_destroy(sc);
		return 1;
	}
	int done = 0;
	rc = ensemble(sc, &o, values, seeds, &done);
	free(values);
	free(seeds);
	rt_scenario_destroy(sc);
	return rc;
}

/* ---- rout sweep ------------------------------------------------------------------------
 * One thing changed at a time: the scenario as set, then each point (a key at a value,
 * --set key=value over the rest as set), every point run over the same seeds (so a
 * difference between points is the value's, not the draws'), each point's runs and
 * ensemble table in a folder of its own, and sweep.md / sweep.json setting every point's
 * median and 90 % interval of each history figure beside the scenario as set and the
 * record. Without --vary, every declared free parameter (the `parameters:` block) at
 * both ends of its range. A sweep writes numbers: no pictures (run a point with
 * `rout run --set` for them), and no trace unless --trace-every is given. */
#define MAX_VARY 64
#define MAX_POINTS 1024

typedef struct sweep_point {
	char key[RT_SCENARIO_TEXT_SIZE];  /* "" for the scenario as set */
	char value[64];
	char set[RT_SCENARIO_TEXT_SIZE + 80];
	char folder[RT_SCENARIO_TEXT_SIZE + 80];
	double *values;                   /* runs x figures, the finished runs in seed order */
	long *seeds;
	int done;
} sweep_point;

static int add_point(sweep_point *p, int *count, const char *key, const char *value)
{
	if (*count == MAX_POINTS) {
		fprintf(stderr, "rout sweep: more than %d points\n", MAX_POINTS);
		return 2;
	}
	if (!*value || strlen(value) >= sizeof p->value || strpbrk(value, "/ \t")) {
		fprintf(stderr, "rout sweep: --vary %s: '%s' is no value (expected a number or word of at most %zu characters, no '/' or space)\n",
			key, value, sizeof p->value - 1);
		return 2;
	}
	sweep_point *q = &p[(*count)++];
	memset(q, 0, sizeof *q);
	snprintf(q->key, sizeof q->key, "%s", key);
	snprintf(q->value, sizeof q->value, "%s", value);
	snprintf(q->set, sizeof q->set, "%s=%s", key, value);
	snprintf(q->folder, sizeof q->folder, "%s=%s", key, value);
	return 0;
}

/* --vary key=v1,v2,...: a point for each value. */
static int vary_points(const char *text, sweep_point *p, int *count)
{
	const char *eq = strchr(text, '=');
	if (!eq || eq == text || !eq[1] || (size_t)(eq - text) >= RT_SCENARIO_TEXT_SIZE || memchr(text, '/', (size_t)(eq - text))) {
		fprintf(stderr, "rout sweep: --vary %s: expected key.path=value,value,... (like corps.wang_pu.courage=0.3,0.6)\n", text);
		return 2;
	}
	char key[RT_SCENARIO_TEXT_SIZE];
	snprintf(key, sizeof key, "%.*s", (int)(eq - text), text);
	const char *v = eq + 1;
	for (;;) {
		const char *comma = strchr(v, ',');
		const size_t len = comma ? (size_t)(comma - v) : strlen(v);
		char value[128];
		snprintf(value, sizeof value, "%.*s", (int)(len < sizeof value ? len : sizeof value - 1), v);
		const int rc = add_point(p, count, key, value);
		if (rc) return rc;
		if (!comma) return 0;
		v = comma + 1;
	}
}

static void sweep_label(const sweep_point *p, char *buf, size_t size)
{
	if (p->key[0]) snprintf(buf, size, "`%s` = %s", p->key, p->value);
	else snprintf(buf, size, "as set");
}

/* Median and 90 % interval of figure h over a point's finished runs (n 0: none). */
static void point_figure(const sweep_point *p, int figures, int h, double *work, int *n, double *med, double *lo, double *hi)
{
	*n = 0;
	for (int r = 0; r < p->done; ++r) {
		const double v = p->values[(size_t)r * (size_t)figures + h];
		if (isfinite(v)) work[(*n)++] = v;
	}
	qsort(work, (size_t)*n, sizeof *work, compare_doubles);
	*med = quantile(work, *n, 0.5);
	*lo = quantile(work, *n, 0.05);
	*hi = quantile(work, *n, 0.95);
}

static int write_sweep(const rt_scenario *sc, const run_options *o, const sweep_point *points, int count, bool stopped)
{
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	const int figures = info.history_count;
	char tmp[1300];
	double *work = malloc((size_t)(o->runs > 0 ? o->runs : 1) * sizeof *work);
	FILE *f = work ? open_table(o, "sweep", "rout sweep", tmp, sizeof tmp) : NULL;
	if (!f) {
		if (!work) fprintf(stderr, "rout sweep: out of memory for the sweep table\n");
		free(work);
		return 1;
	}
	fprintf(f, "# %s — sweep: %d points, %ld runs each (seeds %ld to %ld)%s\n\n", info.title[0] ? info.title : info.name, count,
		o->runs, o->seed, o->seed + o->runs - 1, stopped ? ", stopped before the end" : "");
	fprintf(f, "Each point is the scenario with one value changed (`--set key=value`), the rest as set%s%s; every point "
		   "runs the same seeds, so a difference between points is the value's and not the draws'. Median and 90 %% "
		   "interval (5th to 95th percentile) of each history figure over the runs; \"record inside\" says whether the "
		   "record falls inside the interval; \"change\" is the median's change from the scenario as set. Each point's "
		   "runs and ensemble table are in its folder.\n",
		o->set_count ? " (with the sweep's own --set values)" : "", o->until ? " (to --until)" : "");
	json_t *root = json_object(), *pts = json_array();
	for (int i = 0; i < count; ++i) {
		json_t *pj = json_object();
		json_object_set_new(pj, "key", points[i].key[0] ? json_string(points[i].key) : json_null());
		json_object_set_new(pj, "value", points[i].key[0] ? json_string(points[i].value) : json_null());
		json_object_set_new(pj, "folder", json_string(points[i].folder));
		json_object_set_new(pj, "runs", json_integer(points[i].done));
		json_object_set_new(pj, "figures", json_array());
		json_array_append_new(pts, pj);
	}
	for (int h = 0; h < figures; ++h) {
		rt_history_figure hv;
		rt_scenario_get_history(sc, h, &hv);
		if (hv.recorded_low == hv.recorded_high)
			fprintf(f, "\n## %s (recorded %.0f, grade %s)\n\n", hv.figure, hv.recorded_low, hv.grade);
		else fprintf(f, "\n## %s (recorded %.0f–%.0f, grade %s)\n\n", hv.figure, hv.recorded_low, hv.recorded_high, hv.grade);
		fprintf(f, "| point | runs | median | 90 %% interval | record inside | change |\n|---|---|---|---|---|---|\n");
		int n0;
		double base = NAN, lo0, hi0;
		if (count > 0) point_figure(&points[0], figures, h, work, &n0, &base, &lo0, &hi0);
		for (int i = 0; i < count; ++i) {
			int n;
			double med, lo, hi;
			point_figure(&points[i], figures, h, work, &n, &med, &lo, &hi);
			char label[RT_SCENARIO_TEXT_SIZE + 100];
			sweep_label(&points[i], label, sizeof label);
			const bool inside = n > 0 && hv.recorded_high >= lo && hv.recorded_low <= hi;
			if (n == 0) fprintf(f, "| %s | 0 | — | — | — | — |\n", label);
			else if (i == 0 || !isfinite(base)) fprintf(f, "| %s | %d | %.0f | %.0f – %.0f | %s | |\n", label, n, med, lo, hi, inside ? "yes" : "**no**");
			else fprintf(f, "| %s | %d | %.0f | %.0f – %.0f | %s | %+.0f |\n", label, n, med, lo, hi, inside ? "yes" : "**no**", med - base);
			json_t *e = json_object();
			json_object_set_new(e, "figure", json_string(hv.figure));
			json_object_set_new(e, "median", n > 0 ? json_real(med) : json_null());
			json_object_set_new(e, "p05", n > 0 ? json_real(lo) : json_null());
			json_object_set_new(e, "p95", n > 0 ? json_real(hi) : json_null());
			json_object_set_new(e, "record_inside", json_boolean(inside));
			json_t *all = json_array();
			for (int r = 0; r < points[i].done; ++r) {
				const double v = points[i].values[(size_t)r * (size_t)figures + h];
				json_array_append_new(all, isfinite(v) ? json_real(v) : json_null());
			}
			json_object_set_new(e, "values", all);
			json_array_append_new(json_object_get(json_array_get(pts, (size_t)i), "figures"), e);
		}
	}
	/* which key moves each figure most: the spread of its points' medians with the as-set one */
	if (count > 1 && figures > 0) {
		fprintf(f, "\n## Which value moves each figure\n\nFor each key, the spread (highest less lowest) of the medians over its "
			   "points and the scenario as set; the value as set and the range, for a declared free parameter.\n\n| key | as set | range |");
		for (int h = 0; h < figures; ++h) {
			rt_history_figure hv;
			rt_scenario_get_history(sc, h, &hv);
			fprintf(f, " %s |", hv.figure);
		}
		fprintf(f, "\n|---|---|---|");
		for (int h = 0; h < figures; ++h) fprintf(f, "---|");
		fprintf(f, "\n");
		for (int i = 1; i < count; ++i) {
			bool first = true;
			for (int j = 1; j < i; ++j) first = first && strcmp(points[j].key, points[i].key) != 0;
			if (!first) continue;
			fprintf(f, "| `%s` |", points[i].key);
			rt_scenario_info si;
			rt_scenario_get_info(sc, &si);
			int k = 0;
			rt_scenario_parameter par = { 0 };
			while (k < si.parameter_count && rt_scenario_get_parameter(sc, k, &par) && strcmp(par.key, points[i].key) != 0) k++;
			if (k < si.parameter_count) fprintf(f, " %.10g | %.10g – %.10g |", par.value, par.low, par.high);
			else fprintf(f, " — | not declared |");
			for (int h = 0; h < figures; ++h) {
				double top = -INFINITY, bottom = INFINITY;
				for (int j = 0; j < count; ++j) {
					if (j > 0 && strcmp(points[j].key, points[i].key) != 0) continue;
					int n;
					double med, lo, hi;
					point_figure(&points[j], figures, h, work, &n, &med, &lo, &hi);
					if (n == 0) continue;
					top = fmax(top, med);
					bottom = fmin(bottom, med);
				}
				if (isfinite(top)) fprintf(f, " %.0f |", top - bottom);
				else fprintf(f, " — |");
			}
			fprintf(f, "\n");
		}
	}
	free(work);
	json_object_set_new(root, "scenario", json_string(info.name));
	json_object_set_new(root, "first_seed", json_integer(o->seed));
	json_object_set_new(root, "runs", json_integer(o->runs));
	json_object_set_new(root, "stopped", json_boolean(stopped));
	json_object_set_new(root, "points", pts);
	return finish_table(f, tmp, root, o, "sweep", "rout sweep");
}

int rout_sweep(int argc, char **argv)
{
	run_options o;
	memset(&o, 0, sizeof o);
	o.seed = 1;
	o.runs = 11; /* odd: a median of an even number is the mean of the middle two */
	o.jobs = 1;
	const char *vary[MAX_VARY];
	int vary_count = 0;
	char **rest = calloc((size_t)argc + 1, sizeof *rest);
	if (!rest) return 1;
	int nrest = 0, rc = 0;
	for (int i = 0; i < argc; ++i) {
		if (strcmp(argv[i], "--vary") != 0) {
			rest[nrest++] = argv[i];
			continue;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "rout sweep: --vary needs key.path=value,value,...\n");
			rc = 2;
		} else if (vary_count == MAX_VARY) {
			fprintf(stderr, "rout sweep: more than %d --vary options\n", MAX_VARY);
			rc = 2;
		} else vary[vary_count++] = argv[++i];
		if (rc) break;
	}
	if (!rc) rc = parse_options(nrest, rest, &o, "sweep");
	free(rest);
	if (rc) return rc;
	if (o.resume || o.checkpoint || o.checkpoint_every_s > 0.0) {
		fprintf(stderr, "rout sweep: --resume, --checkpoint and --checkpoint-every are for `rout run`\n");
		return 2;
	}
	o.no_pictures = true;
	char buf[1100];
	o.scenario_path = scenario_file(o.scenario_path, buf, sizeof buf);
	rt_scenario *sc;
	if ((rc = load(&o, NULL, 0, true, "sweep", &sc)) != 0) return rc;
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	double until_s;
	if (o.until && !until_seconds(sc, o.until, &until_s)) {
		until_error("sweep", o.until);
		rt_scenario_destroy(sc);
		return 2;
	}
	sweep_point *points = calloc(MAX_POINTS, sizeof *points);
	if (!points) {
		rt_scenario_destroy(sc);
		return 1;
	}
	int count = 1;
	snprintf(points[0].folder, sizeof points[0].folder, "as-set");
	for (int v = 0; v < vary_count && !rc; ++v) rc = vary_points(vary[v], points, &count);
	if (vary_count == 0)
		for (int i = 0; i < info.parameter_count && !rc; ++i) {
			rt_scenario_parameter p;
			rt_scenario_get_parameter(sc, i, &p);
			const double ends[2] = { p.low, p.high };
			for (int e = 0; e < 2 && !rc; ++e) {
				if (ends[e] == p.value || (e == 1 && p.high == p.low)) continue; /* the scenario as set */
				char value[64];
				snprintf(value, sizeof value, "%.10g", ends[e]);
				rc = add_point(points, &count, p.key, value);
			}
		}
	if (!rc && count == 1) {
		fprintf(stderr, "rout sweep: nothing to vary: the scenario declares no free parameter (parameters:) and no --vary was given\n");
		rc = 2;
	}
	/* every point checked before any runs: a bad key or value is an error now, not hours on */
	for (int i = 1; i < count && !rc; ++i) {
		rt_scenario *check;
		if ((rc = load(&o, (const char *const[]){ points[i].set }, 1, false, "sweep", &check)) == 0) rt_scenario_destroy(check);
	}
	char out_default[300];
	if (!o.out) {
		snprintf(out_default, sizeof out_default, "out/%s-sweep", info.name);
		o.out = out_default;
	}
	if (!rc && make_dirs(o.out) != 0) {
		fprintf(stderr, "rout sweep: cannot create the folder %s: %s\n", o.out, strerror(errno));
		rc = 1;
	}
	catch_stop_signals();
	int ran = 0;
	const int figures = info.history_count;
	for (int i = 0; i < count && !rc; ++i) {
		if (cluster_any(stop_requested)) break; /* every rank stops at the same point */
		sweep_point *p = &points[i];
		p->values = calloc((size_t)o.runs * (size_t)(figures + 1), sizeof *p->values);
		p->seeds = calloc((size_t)o.runs, sizeof *p->seeds);
		if (!p->values || !p->seeds) {
			fprintf(stderr, "rout sweep: out of memory for %ld runs\n", o.runs);
			rc = 1;
			break;
		}
		char label[RT_SCENARIO_TEXT_SIZE + 100];
		sweep_label(p, label, sizeof label);
		if (!o.quiet) fprintf(stderr, "rout sweep: point %d of %d (%s), %ld runs\n", i + 1, count, label, o.runs);
		rt_scenario *psc = sc;
		if (i > 0 && (rc = load(&o, (const char *const[]){ p->set }, 1, true, "sweep", &psc)) != 0) break;
		char dir[1400];
		snprintf(dir, sizeof dir, "%s/%s", o.out, p->folder);
		run_options po = o;
		po.out = dir;
		po.quiet = true;
		rc = ensemble(psc, &po, p->values, p->seeds, &p->done);
		if (psc != sc) rt_scenario_destroy(psc);
		ran = i + 1;
		if (rc == 3) break;
	}
	const bool stopped = cluster_any(stop_requested);
	if (ran > 0 && (rc == 0 || rc == 3)) {
		const int wrc = cluster_code(cluster_lead() ? write_sweep(sc, &o, points, ran, rc == 3 || stopped) : 0);
		if (rc == 0) rc = stopped ? 3 : wrc;
	}
	for (int i = 0; i < count; ++i) {
		free(points[i].values);
		free(points[i].seeds);
	}
	free(points);
	rt_scenario_destroy(sc);
	return rc;
}

static bool ends_with(const char *s, const char *tail)
{
	const size_t n = strlen(s), k = strlen(tail);
	return n >= k && strcmp(s + n - k, tail) == 0;
}

/* rout check MAP.geojson / TRACE.bin: the map loader's or the trace reader's verdict. */
static int check_map_or_trace(const char *path)
{
	rt_error err;
	if (ends_with(path, ".geojson") || ends_with(path, ".json")) {
		rt_map_def md = rt_map_def_default();
		rt_map *map;
		rt_status s = rt_map_load(path, &md, &map, &err);
		if (s != RT_OK) {
			cli_print_error("check", &err);
			return cli_exit_code(s);
		}
		int nx, ny;
		double cell;
		rt_map_size(map, &nx, &ny, &cell, NULL);
		printf("%s: a map of %d features, %d x %d cells of %g m\n", path, rt_map_feature_count(map), nx, ny, cell);
		rt_map_destroy(map);
		return 0;
	}
	rt_allocator a = rt_allocator_default();
	rt_trace_reader *r = rt_trace_reader_open(path, &a, &err);
	if (!r) {
		cli_print_error("check", &err);
		return cli_exit_code(err.code);
	}
	rt_trace_frame f;
	int frames = 0;
	rt_status s;
	while ((s = rt_trace_reader_next(r, &f, &err)) == RT_OK) frames++;
	rt_trace_reader_close(r);
	if (s != RT_ERR_STATE) {
		cli_print_error("check", &err);
		return cli_exit_code(s);
	}
	printf("%s: a trace of %d frames\n", path, frames);
	return 0;
}

int rout_check(int argc, char **argv)
{
	run_options o;
	memset(&o, 0, sizeof o);
	int rc = parse_options(argc, argv, &o, "check");
	if (rc) return rc;
	if (ends_with(o.scenario_path, ".geojson") || ends_with(o.scenario_path, ".json") || ends_with(o.scenario_path, ".bin") ||
	    ends_with(o.scenario_path, ".trace"))
		return check_map_or_trace(o.scenario_path);
	char buf[1100];
	o.scenario_path = scenario_file(o.scenario_path, buf, sizeof buf);
	rt_scenario *sc;
	if ((rc = load(&o, NULL, 0, true, "run", &sc)) != 0) return rc;
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	/* build the world too: men must stand on dry, passable ground */
	rt_run_def rd = rt_run_def_default();
	rd.scale = o.scale;
	rt_run *run;
	rt_error err;
	rt_status s = rt_run_create(sc, &rd, &run, &err);
	if (s != RT_OK) {
		cli_print_error("check", &err);
		rt_scenario_destroy(sc);
		return cli_exit_code(s);
	}
	rt_run_destroy(run);
	printf("%s: %s — %d sides, %d corps, %d units, %lld men, %d places, %d triggers, %d history figures, %d free parameters; map %s\n",
	       o.scenario_path, info.name, info.side_count, info.corps_count, info.unit_count, (long long)info.men,
	       info.place_count, info.trigger_count, info.history_count, info.parameter_count, info.map_path);
	rt_scenario_destroy(sc);
	return 0;
}
