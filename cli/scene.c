/* `rout scene NAME` and `rout demo`: run one of the shared scenes and write its outputs
 * into a folder: start.png, middle.png, end.png, trace.bin, replay.html,
 * plot-states.png and summary.json. Each file is written under a temporary name and renamed, so a file that
 * exists is whole. */
#include "rout/rout.h"
#include "rout/replay.h"
#include "args.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int rout_scene(int argc, char **argv, const char *name, const char *default_out);

static int draw(const rt_world *w, const char *dir, const char *file, const char *scene)
{
	char path[1100], title[200];
	rt_world_stats st;
	rt_world_get_stats(w, &st);
	snprintf(path, sizeof path, "%s/%s", dir, file);
	snprintf(title, sizeof title, "rout: %s scene, %d men, t = %.1f s, %d still walking", scene, st.agents, st.time_s,
		 st.active);
	rt_picture_def pd = rt_picture_def_default();
	pd.path = path;
	pd.title = title;
	pd.width_px = 1600;
	rt_error err;
	if (rt_world_draw_png(w, &pd, &err) != RT_OK) {
		fprintf(stderr, "rout: %s: %s\n", path, err.message);
		return -1;
	}
	return 0;
}

static int write_summary(const rt_world *w, const char *dir, const char *scene, long seed, double wall_seconds)
{
	rt_world_stats st;
	rt_world_get_stats(w, &st);
	json_t *root = json_object();
	json_t *states = json_object();
	for (int s = 0; s < RT_STATE_COUNT; ++s) json_object_set_new(states, rt_state_name((rt_state)s), json_integer(st.by_state[s]));
	json_object_set_new(root, "scene", json_string(scene));
	json_object_set_new(root, "seed", json_integer(seed));
	json_object_set_new(root, "agents", json_integer(st.agents));
	json_object_set_new(root, "steps", json_integer(st.step));
	json_object_set_new(root, "simulated_s", json_real(st.time_s));
	json_object_set_new(root, "wall_clock_s", json_real(wall_seconds));
	json_object_set_new(root, "agent_updates", json_integer(st.agent_updates));
	json_object_set_new(root, "wall_violations", json_integer(rt_world_count_wall_violations(w)));
	json_object_set_new(root, "state_hash", json_sprintf("%016llx", (unsigned long long)rt_world_hash(w)));
	json_object_set_new(root, "by_state", states);
	char path[1100], temp[1200];
	snprintf(path, sizeof path, "%s/summary.json", dir);
	snprintf(temp, sizeof temp, "%s.tmp", path);
	int rc = json_dump_file(root, temp, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	if (rc != 0 || rename(temp, path) != 0) {
		remove(temp);
		fprintf(stderr, "rout: cannot write %s\n", path);
		return -1;
	}
	return 0;
}

static int write_replay(const rt_world *w, const char *dir, const char *trace_path, const char *scene)
{
	int walls = rt_world_wall_count(w);
	rt_vec2 *a = calloc((size_t)walls + 1, sizeof *a), *b = calloc((size_t)walls + 1, sizeof *b);
	if (!a || !b) {
		free(a);
		free(b);
		fprintf(stderr, "rout: out of memory for the replay's walls\n");
		return -1;
	}
	for (int i = 0; i < walls; ++i) rt_world_get_wall(w, i, &a[i], &b[i]);
	char path[1100], title[200];
	snprintf(path, sizeof path, "%s/replay.html", dir);
	snprintf(title, sizeof title, "rout: %s scene", scene);
	rt_replay_def rd = rt_replay_def_default();
	rd.title = title;
	rd.wall_a = a;
	rd.wall_b = b;
	rd.wall_count = walls;
	rt_world_get_bounds(w, &rd.bounds_min, &rd.bounds_max);
	rt_error err;
	rt_status s = rt_replay_write(trace_path, path, &rd, &err);
	free(a);
	free(b);
	if (s != RT_OK) {
		fprintf(stderr, "rout: %s: %s\n", path, err.message);
		return -1;
	}
	return 0;
}

int rout_scene(int argc, char **argv, const char *name, const char *default_out)
{
	rt_scene_kind kind = rt_scene_from_name(name);
	if (kind == RT_SCENE_COUNT) {
		fprintf(stderr, "rout scene: unknown scene '%s' (corridor, periodic, bottleneck, corner, crowd)\n", name);
		return 2;
	}
	rt_scene_def sd = rt_scene_def_default(kind);
	if (kind == RT_SCENE_CROWD) sd.agents = 20000; /* the demonstration size: seconds, not minutes */
	const char *out = default_out ? default_out : "out/scene";
	double seconds = kind == RT_SCENE_CROWD ? 300.0 : 60.0; /* long enough for the head of the crowd to arrive */
	long agents = sd.agents, seed = 1, threads = 0, trace_every = 10;
	double width = sd.width_m, density = sd.density_per_m2;
	for (int i = 0; i < argc; ++i) {
		if (arg_long(argc, argv, &i, "--agents", &agents, 1, 1L << 26)) continue;
		if (arg_long(argc, argv, &i, "--seed", &seed, 0, 1L << 62)) continue;
		if (arg_long(argc, argv, &i, "--threads", &threads, 0, 1024)) continue;
		if (arg_long(argc, argv, &i, "--trace-every", &trace_every, 1, 1000000)) continue;
		if (arg_double(argc, argv, &i, "--seconds", &seconds, 0.1, 1e7)) continue;
		if (arg_double(argc, argv, &i, "--width", &width, 0.0, 1e5)) continue;
		if (arg_double(argc, argv, &i, "--density", &density, 0.0, 6.0)) continue;
		if (arg_string(argc, argv, &i, "--out", &out)) continue;
		if (arg_error) return 2;
		fprintf(stderr, "rout scene: unknown option '%s'\n", argv[i]);
		return 2;
	}
	sd.agents = (int)agents;
	sd.seed = (uint64_t)seed;
	sd.threads = (int)threads;
	sd.width_m = width;
	sd.density_per_m2 = density;
	if (make_dirs(out) != 0) {
		fprintf(stderr, "rout: cannot create the folder %s: %s\n", out, strerror(errno));
		return 1;
	}
	rt_error err;
	rt_world *w = rt_scene_create(&sd, &err);
	if (!w) {
		fprintf(stderr, "rout: %s\n", err.message);
		return 1;
	}
	char trace_path[1100];
	snprintf(trace_path, sizeof trace_path, "%s/trace.bin", out);
	rt_trace_writer *trace = rt_trace_open(w, trace_path, (int)trace_every, &err);
	if (!trace) {
		fprintf(stderr, "rout: %s: %s\n", trace_path, err.message);
		rt_world_destroy(w);
		return 1;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = draw(w, out, "start.png", name);
	long steps = (long)(seconds / 0.1 + 0.5);
	for (long s = 0; s < steps && rc == 0; ++s) {
		if (rt_world_step(w, &err) != RT_OK || rt_trace_record(trace, w, &err) != RT_OK) {
			fprintf(stderr, "rout: step %ld: %s\n", s, err.message);
			rc = -1;
		}
		if (rc == 0 && s == steps / 2) rc = draw(w, out, "middle.png", name);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	if (rc == 0) rc = draw(w, out, "end.png", name);
	if (rc == 0) rc = write_summary(w, out, name, seed, wall);
	if (rc == 0) {
		if (rt_trace_close(trace, &err) != RT_OK) {
			fprintf(stderr, "rout: %s\n", err.message);
			rc = -1;
		}
	} else {
		rt_trace_abort(trace);
	}
	if (rc == 0) rc = write_replay(w, out, trace_path, name);
	if (rc == 0) {
		char plot[1100], title[200];
		snprintf(plot, sizeof plot, "%s/plot-states.png", out);
		snprintf(title, sizeof title, "rout: %s scene, men by side and fate", name);
		if (rt_plot_trace_states(trace_path, plot, title, NULL, &err) != RT_OK) {
			fprintf(stderr, "rout: %s: %s\n", plot, err.message);
			rc = -1;
		}
	}
	if (rc == 0) {
		rt_world_stats st;
		rt_world_get_stats(w, &st);
		printf("%s: %d men, %.0f s simulated in %.1f s; %d arrived; outputs in %s/\n", name, st.agents, st.time_s, wall,
		       st.by_state[RT_STATE_ESCAPED], out);
	}
	rt_world_destroy(w);
	return rc == 0 ? 0 : 1;
}
