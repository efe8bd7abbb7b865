/* `rout bench crowd`: agent-steps per second on the shared crowd scene, with the split
 * by phase. The first step is excluded; the best of --repeat runs is reported. */
#include "rout/rout.h"
#include "args.h"

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

int rout_bench(int argc, char **argv)
{
	if (argc < 1 || strcmp(argv[0], "crowd") != 0) {
		fprintf(stderr, "rout bench: the benchmark is 'crowd' (rout bench crowd --agents N --steps S --threads T)\n");
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
	printf("%-8s %10s %6s\n", "phase", "ms/step", "share");
	double total = 0.0;
	for (int p = 0; p < RT_PHASE_COUNT; ++p) total += best.phase_seconds[p];
	for (int p = 0; p < RT_PHASE_COUNT; ++p) {
		if (best.phase_seconds[p] <= 0.0) continue;
		printf("%-8s %10.3f %5.1f%%\n", rt_phase_name(p), 1e3 * best.phase_seconds[p] / (double)steps,
		       100.0 * best.phase_seconds[p] / total);
	}
	printf("wall time %.3f s for %ld steps\n", best_seconds, steps);
	if (csv) {
		FILE *f = fopen(csv, "a");
		if (!f) {
			fprintf(stderr, "rout bench: cannot open %s\n", csv);
			return 1;
		}
		fprintf(f, "crowd,%ld,%ld,%d,%.1f,%.0f\n", agents, steps, best.threads, density, best_rate);
		fclose(f);
	}
	printf("agent-steps/s: %.0f\n", best_rate);
	return 0;
}
