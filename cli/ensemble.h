/* What `rout run --runs`, `rout sweep` and `rout fit` share (cli/run.c): the options, the
 * scenario loader with --set values, the ensemble runner and its table, and Ctrl-C. */
#ifndef ROUT_ENSEMBLE_H
#define ROUT_ENSEMBLE_H

#include "rout/scenario.h"

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#define MAX_SETS 256

typedef struct run_options {
	const char *scenario_path;
	const char *out;
	long seed, threads, runs, jobs;
	double scale;
	const char *until;
	const char *sets[MAX_SETS];
	int set_count;
	bool quiet, no_pictures;
	double trace_every_s;
	double checkpoint_every_s;  /* simulated seconds between checkpoints; 0 none */
	const char *checkpoint;     /* where they go; NULL: DIR/checkpoint.rtck */
	const char *resume;         /* a checkpoint to go on from */
} run_options;

/* Set by Ctrl-C (SIGINT) or SIGTERM once catch_stop_signals() has run. */
extern volatile sig_atomic_t stop_requested;
void catch_stop_signals(void);

/* The common options (--seed, --runs, --jobs, --set, --until, --out, ...) and the scenario
 * path; unknown options are errors (2). */
int parse_options(int argc, char **argv, run_options *o, const char *cmd);
/* The scenario with o's --set values and extra_count more after them. */
int load(const run_options *o, const char *const *extra, int extra_count, bool with_map, const char *cmd, rt_scenario **sc);
/* o->runs seeds from o->seed, each in o->out/seed-N, and o->out/ensemble.{md,json};
 * values (room for o->runs x (history figures + 1)) and seeds get the finished runs in
 * seed order. Under MPI every rank calls it alike and gets the whole table (cluster.h). */
int ensemble(const rt_scenario *sc, const run_options *o, double *values, long *seeds, int *done);

int compare_doubles(const void *a, const void *b);
/* The q-quantile of n sorted values (linear interpolation); NaN when n is 0. */
double quantile(const double *v, int n, double q);
/* Opens o->out/NAME.md.tmp for writing (tmp gets its path), or says why not (NULL). */
FILE *open_table(const run_options *o, const char *name, const char *cmd, char *tmp, size_t size);
/* Closes f (written to tmp) as o->out/NAME.md and writes root as o->out/NAME.json, each
 * whole or not at all; root is released. */
int finish_table(FILE *f, const char *tmp, json_t *root, const run_options *o, const char *name, const char *cmd);

#endif
