/* A run's grass fire as a log of the cells it caught (fire.bin, docs/run-folder.md): for
 * each cell, when the front reached it, when its flames went out, and whether they were
 * a head fire's that stop men. The fire of any moment follows from it: a cell is in
 * flames after its ignition until its flames go out, and burnt ground from then on. The run
 * writes the log (report.c), `rout render` reads it (render.c) and draws the fire of
 * the frame's moment (picture.c). Internal. */
#ifndef RT_FIRE_LOG_H
#define RT_FIRE_LOG_H

#include "core.h"
#include "rout/picture.h"

#define RT_FIRE_LOG_HOT 1u /* flags: a head fire's flames, which stop men */

typedef struct rt_fire_log_cell {
	int32_t cell;            /* iy * nx + ix on the map's grid */
	float ignition_s;        /* simulated seconds */
	float out_s;             /* the flames are out (burnt ground from then on) */
	uint8_t flags;           /* RT_FIRE_LOG_HOT */
} rt_fire_log_cell;

struct rt_fire_log {
	rt_allocator allocator;
	int nx, ny;
	double cell_m, origin_x, origin_y;
	rt_fire_log_cell *cells;
	size_t count;
};

/* Writes the log to path (whole or not at all). */
rt_status rt__fire_log_write(const char *path, int nx, int ny, double cell_m, double origin_x, double origin_y,
			     const rt_fire_log_cell *cells, size_t count, rt_error *err);

/* The fire at time_s on the log's grid: state (nx * ny bytes) gets RT_FIRE_CELL_HOT or
 * _BURNING for cells in flames, _BURNT for burnt ground, _NONE elsewhere; the counts of
 * cells in flames and burnt are returned through burning and burnt (may be NULL). */
void rt__fire_log_state_at(const rt_fire_log *log, double time_s, uint8_t *state, int64_t *burning, int64_t *burnt);

#endif
