/* `rout bench crowd`: agent-steps per second on the shared crowd scene, with the split
 * by phase. The first step is excluded; the best of --repeat runs is reported.
 * `rout bench scenario`: the same for a battle, run from its start to --until (the
 * scenario's loading and the building of its world excluded): agent-steps are the men's
 * decisions (multi-rate aware: a man at rest decides less often), so a battle's figure is
 * comparable across commits, not with the crowd's. */
#include "rout/rout.h"
#include "rout/scenario.h"
#include "args.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int rout_bench(int argc, char **argv);

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* --csv FILE appends one row in the layout of the files under bench/results/MACHINE: the date
 * (UTC) and the commit measured first (ROUT_COMMIT from the environment, as `make bench`
 * sets it; "unknown" without it), and the header when the file is new or empty. */
static FILE *open_csv(const char *path, const char *header)
{
	FILE *f = fopen(path, "a");
	if (!f) {
		fprintf(stderr, "rout bench: cannot open %s for appending\n", path);
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) == 0 && ftell(f) == 0) fprintf(f, "%s\n", header);
	char day[16] = "unknown";
	const time_t t = time(NULL);
	struct tm tm;
	if (gmtime_r(&t, &tm)) strftime(day, sizeof day, "%Y-%m-%d", &tm);
	const char *commit = getenv("ROUT_COMMIT");
	fprintf(f, "%s,%s,", day, commit && commit[0] ? commit : "unknown");
	return f;
}

static int close_csv(FILE *f, const char *path)
{
	const bool bad = ferror(f) != 0;
	if (fclose(f) != 0 || bad) {
		fprintf(stderr, "rout bench: could not write %s\n", path);
		return 1;
	}
	return 0;
}

static void print_phases(const rt_world_stats *best, long steps)
{
	printf("%-8s %10s %6s\n", "phase", "ms/step", "share");
	double total = 0.0;
	for (int p = 0; p < RT_PHASE_COUNT; ++p) total += best->phase_seconds[p];
	for (int p = 0; p < RT_PHASE_COUNT; ++p) {
		if (best->phase_seconds[p] <= 0.0) continue;
		printf("%-8s %10.3f %5.1f%%\n", rt_phase_name(p), 1e3 * best->phase_seconds[p] / (double)steps,
		       100.0 * best->phase_seconds[p] / total);
	}
}

static int bench_scenario(int argc, char **argv)
{
	const char *path = NULL, *until = NULL, *csv = NULL;
	long seed = 1, threads = 0, repeat = 1;
	double scale = 0.0;
	for (int i = 1; i < argc; ++i) {
		const char *a = argv[i];
		if (arg_long(argc, argv, &i, "--seed", &seed, 0, 1L << 62)) continue;
		if (arg_long(argc, argv, &i, "--threads", &threads, 0, 1024)) continue;
		if (arg_long(argc, argv, &i, "--repeat", &repeat, 1, 100)) continue;
		if (arg_double(argc, argv, &i, "--scale", &scale, 1.0, 10000.0)) continue;
		if (arg_string(argc, argv, &i, "--until", &until)) continue;
		if (arg_string(argc, argv, &i, "--csv", &csv)) continue;
		if (arg_error) return 2;
		if (a[0] == '-' || path) {
			fprintf(stderr, "rout bench scenario: unknown option '%s'\n", a);
			return 2;
		}
		path = a;
	}
	if (!path) {
		fprintf(stderr, "rout bench scenario: which scenario? (a scenario.yaml, or a folder holding one)\n");
		return 2;
	}
	char file[1200];
	rt_scenario_def sd = rt_scenario_def_default();
	rt_scenario *sc = NULL;
	rt_error err;
	rt_status s = rt_scenario_load(scenario_file(path, file, sizeof file), &sd, &sc, &err);
	if (s != RT_OK) {
		cli_print_error("bench scenario", &err);
		return cli_exit_code(s);
	}
	rt_run_def rd = rt_run_def_default();
	rd.seed = (uint64_t)seed;
	rd.scale = scale;
	rd.threads = (int)threads;
	if (until && !until_seconds(sc, until, &rd.until_s)) {
		until_error("bench scenario", until);
		rt_scenario_destroy(sc);
		return 2;
	}
	double best_rate = 0.0, best_seconds = 0.0, simulated = 0.0;
	long steps = 0;
	int64_t updates = 0;
	rt_world_stats best;
	memset(&best, 0, sizeof best);
	uint64_t hash = 0;
	for (long r = 0; r < repeat; ++r) {
		rt_run *run = NULL;
		if ((s = rt_run_create(sc, &rd, &run, &err)) != RT_OK) {
			cli_print_error("bench scenario", &err);
			rt_scenario_destroy(sc);
			return cli_exit_code(s);
		}
		rt_world *w = rt_run_world(run);
		long n = 0;
		const double t0 = now();
		while (!rt_run_done(run)) {
			if (rt_run_step(run, &err) != RT_OK) {
				cli_print_error("bench scenario", &err);
				rt_run_destroy(run);
				rt_scenario_destroy(sc);
				return 1;
			}
			n++;
		}
		const double seconds = now() - t0;
		rt_world_stats st;
		rt_world_get_stats(w, &st);
		const double rate = (double)st.agent_updates / seconds;
		if (rate > best_rate) {
			best_rate = rate;
			best_seconds = seconds;
			best = st;
		}
		steps = n;
		updates = st.agent_updates;
		simulated = rt_run_time_s(run);
		hash = rt_world_hash(w);
		rt_run_destroy(run);
	}
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	printf("scenario %s: seed %ld, %d agents, %d threads, %.0f s simulated in %ld steps, best of %ld\n", info.name, seed,
	       best.agents, best.threads, simulated, steps, repeat);
	print_phases(&best, steps);
	printf("wall time %.3f s (%.0f simulated seconds a second); %lld agent decisions; state hash %016llx\n", best_seconds,
	       simulated / best_seconds, (long long)updates, (unsigned long long)hash);
	int code = 0;
	if (csv) {
		FILE *f = open_csv(csv, "date,commit,scenario,seed,until,threads,simulated_s,agent_steps_per_s,wall_s");
		if (!f) {
			code = 1;
		} else {
			fprintf(f, "%s,%ld,%s,%d,%.0f,%.0f,%.3f\n", info.name, seed, until ? until : "end", best.threads, simulated,
				best_rate, best_seconds);
			code = close_csv(f, csv);
		}
	}
	printf("agent-steps/s: %.0f\n", best_rate);
	rt_scenario_destroy(sc);
	return code;
}

int rout_bench(int argc, char **argv)
{
	if (argc >= 1 && strcmp(argv[0], "scenario") == 0) return bench_scenario(argc, argv);
	if (argc < 1 || strcmp(argv[0], "crowd") != 0) {
		fprintf(stderr, "rout bench: the benchmark is 'crowd' (rout bench crowd --agents N --steps S --threads T) or 'scenario' (rout bench scenario SCENARIO [--until TIME] [--seed N] [--scale K] [--threads T] [--repeat R])\n");
		return 2;
	}
	long agents = 100000, steps = 50, threads = 0, repeat = 3;
	double density = 2.0;
	const char *csv = NULL;
	for (int i = 1; i < argc; ++i) {
		const char *a = argv[i];
		if (arg_long(argc, argv, &i, "--agents", &agents, 1, 1L << 26)) continue;
		if (arg_long(argc, argv, &i, "--steps", &steps, 1, 1000000)) continue;
		if (arg_long(argc, argv, &i, "--threads", &threads, 0, 1024)) continue;
		if (arg_long(argc, argv, &i, "--repeat", &repeat, 1, 100)) continue;
		if (arg_double(argc, argv, &i, "--density", &density, 0.1, 6.0)) continue;
		if (arg_string(argc, argv, &i, "--csv", &csv)) continue;
		if (arg_error) return 2;
		fprintf(stderr, "rout bench: unknown option '%s'\n", a);
		return 2;
	}
	double best_rate = 0.0;
	rt_world_stats best;
	memset(&best, 0, sizeof best);
	double best_seconds = 0.0;
	for (long r = 0; r < repeat; ++r) {
		rt_scene_def sd = rt_scene_def_default(RT_SCENE_CROWD);
		sd.agents = (int)agents;
		sd.density_per_m2 = density;
		sd.threads = (int)threads;
		rt_error err;
		rt_world *w = rt_scene_create(&sd, &err);
		if (!w) {
			fprintf(stderr, "rout bench: %s\n", err.message);
			return 1;
		}
		if (rt_world_step(w, &err) != RT_OK) { /* warm-up, excluded */
			fprintf(stderr, "rout bench: %s\n", err.message);
			rt_world_destroy(w);
			return 1;
		}
		rt_world_stats before, after;
		rt_world_get_stats(w, &before);
		double t0 = now();
		for (long s = 0; s < steps; ++s) {
			if (rt_world_step(w, &err) != RT_OK) {
				fprintf(stderr, "rout bench: %s\n", err.message);
				rt_world_destroy(w);
				return 1;
			}
		}
		double seconds = now() - t0;
		rt_world_get_stats(w, &after);
		double rate = (double)agents * (double)steps / seconds;
		if (rate > best_rate) {
			best_rate = rate;
			best_seconds = seconds;
			best = after;
			for (int p = 0; p < RT_PHASE_COUNT; ++p) best.phase_seconds[p] -= before.phase_seconds[p];
		}
		rt_world_destroy(w);
	}
	printf("crowd: %ld agents, %ld steps, %d threads, density %.1f /m2, best of %ld\n", agents, steps, best.threads,
	       density, repeat);
	print_phases(&best, steps);
	printf("wall time %.3f s for %ld steps\n", best_seconds, steps);
	if (csv) {
		FILE *f = open_csv(csv, "date,commit,scene,agents,steps,threads,density_per_m2,agent_steps_per_s");
		if (!f) return 1;
		fprintf(f, "crowd,%ld,%ld,%d,%.1f,%.0f\n", agents, steps, best.threads, density, best_rate);
		if (close_csv(f, csv) != 0) return 1;
	}
	printf("agent-steps/s: %.0f\n", best_rate);
	return 0;
}
