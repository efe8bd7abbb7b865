/* The `rout` command: the only code that prints or exits. */
#include "rout/rout.h"
#include "cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rout_bench(int argc, char **argv);
int rout_scene(int argc, char **argv, const char *default_scene, const char *default_out);
int rout_run(int argc, char **argv, const char *default_scenario, const char *default_out);
int rout_check(int argc, char **argv);
int rout_sweep(int argc, char **argv);
int rout_fit(int argc, char **argv);
int rout_render(int argc, char **argv);
int rout_where(int argc, char **argv);

static void usage(FILE *f)
{
	fprintf(f,
		"rout %s - soldier-by-soldier simulation of pre-modern battles and routs\n"
		"\n"
		"usage:\n"
		"  rout bench crowd [--agents N] [--steps S] [--threads T] [--repeat R] [--density D] [--csv FILE]\n"
		"  rout bench scenario SCENARIO [--until TIME] [--seed N] [--scale K] [--threads T] [--repeat R] [--csv FILE]\n"
		"  rout scene NAME [--agents N] [--width M] [--density D] [--seconds S] [--seed N]\n"
		"                  [--threads T] [--out DIR] [--trace-every K]\n"
		"        NAME: corridor, periodic, bottleneck, corner, crowd\n"
		"  rout run SCENARIO [--seed N] [--scale K] [--until TIME] [--threads T] [--out DIR]\n"
		"                    [--set key.path=value ...] [--runs N [--jobs J]] [--trace-every S] [--quiet] [--no-pictures]\n"
		"                    [--checkpoint-every DURATION] [--checkpoint FILE] [--resume FILE]\n"
		"        SCENARIO: a scenario.yaml or its folder (scenarios/songjin-1641)\n"
		"  rout sweep SCENARIO [--vary key.path=value,value,... ...] [--runs N] [--jobs J] [--seed N] [--scale K]\n"
		"                      [--until TIME] [--threads T] [--set key.path=value ...] [--out DIR] [--quiet]\n"
		"        one value changed at a time over the same seeds (without --vary: every declared free\n"
		"        parameter at both ends of its range); sweep.md sets each beside the record\n"
		"  rout fit SCENARIO [--fit key.path ...] [--evals E] [--steps S] [--runs N] [--jobs J] [--seed N]\n"
		"                    [--scale K] [--until TIME] [--threads T] [--set key.path=value ...] [--out DIR] [--quiet]\n"
		"        moves the declared free parameters (or those named) within their ranges to bring the\n"
		"        history figures' medians nearest the record; fit.md names the best point\n"
		"        run --runs, sweep and fit under mpirun -np R: the R ranks share the runs, rank 0 writes the tables\n"
		"  rout check SCENARIO [--set key.path=value ...]   validate only\n"
		"  rout check MAP.geojson | TRACE.bin                validate a map or a trace\n"
		"  rout demo [--out DIR]      the largest crowd scene, with pictures and a trace\n"
		"  rout render RUN_FOLDER [--at TIME] [--format png|svg] [--out FILE] [--width PX]\n"
		"        draws a moment of a run again; TIME: 20:40, 1641-09-25T20:40, 90min, 5400s, 1.5h,\n"
		"        start or end (the default)\n"
		"  rout where RUN_FOLDER [--every DURATION] [--from TIME] [--to TIME] [--corps ID,...] [--units] [--csv FILE]\n"
		"        where each corps was, every hour (or DURATION), from the run's trace\n"
		"  rout version\n",
		RT_VERSION_STRING);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "bench") == 0) return rout_bench(argc - 2, argv + 2);
	if (strcmp(cmd, "scene") == 0) {
		if (argc < 3) {
			fprintf(stderr, "rout scene: which scene? (corridor, periodic, bottleneck, corner, crowd)\n");
			return 2;
		}
		return rout_scene(argc - 3, argv + 3, argv[2], NULL);
	}
	if (strcmp(cmd, "run") == 0 || strcmp(cmd, "sweep") == 0 || strcmp(cmd, "fit") == 0) {
		/* the commands that run ensembles, which a cluster shares out (cluster.h) */
		int rc = cluster_start();
		if (rc) return rc;
		rc = cmd[0] == 'r' ? rout_run(argc - 2, argv + 2, NULL, NULL) : cmd[0] == 's' ? rout_sweep(argc - 2, argv + 2) : rout_fit(argc - 2, argv + 2);
		cluster_end(rc);
		return rc;
	}
	if (strcmp(cmd, "check") == 0) return rout_check(argc - 2, argv + 2);
	if (strcmp(cmd, "render") == 0) return rout_render(argc - 2, argv + 2);
	if (strcmp(cmd, "where") == 0) return rout_where(argc - 2, argv + 2);
	if (strcmp(cmd, "demo") == 0) return rout_scene(argc - 2, argv + 2, "crowd", "out/demo");
	if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
		printf("rout %s\n", RT_VERSION_STRING);
		return 0;
	}
	if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "rout: unknown command '%s'\n\n", cmd);
	usage(stderr);
	return 2;
}
