/* The run folder read back (docs/run-folder.md): run.json's members that say where and
 * when the run is, and a time typed by a user on the run's clock. Shared by rout render
 * (src/render.c) and rout where (src/where.c). */
#ifndef ROUT_RUN_FOLDER_H
#define ROUT_RUN_FOLDER_H

#include "core.h"

#define MAX_COMMANDERS 4096
#define MAX_SIDE_NAMES 8

typedef struct rt__run_info {
	char folder[1024];
	char json_path[1100];
	char map_path[2200];
	char trace_path[2200];
	char fire_path[2200];        /* "" when the run had no fire */
	char title[256];
	double start_jd_ut, timezone_h;
	int side_count;
	char side_names[MAX_SIDE_NAMES][64];
	int commander_count;
	rt_agent_id *commanders;     /* allocated */
	char (*commander_names)[64]; /* allocated */
	int series_count;
	double *series_time, *series_sea, *series_lux; /* allocated, series_count each; sea and lux may be NULL */
	rt_allocator allocator;
} rt__run_info;


/* Reads <folder>/run.json; a bad member names the file and the field. */
rt_status rt__run_info_read(const char *folder, rt__run_info *ri, rt_error *err);
void rt__run_info_free(rt__run_info *ri);
/* The simulated time of what the user typed ("20:40", "1641-09-25T20:40", "90min",
 * "start", "end"): INFINITY for the end (or NULL), -INFINITY the start. */
rt_status rt__run_time_parse(const char *at, const rt__run_info *ri, double *t, rt_error *err);

#endif
