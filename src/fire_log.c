/* fire.bin: the cells a run's grass fire caught (fire_log.h, docs/run-folder.md).
 *
 * Why a log of cells and not the fire at each trace frame: a cell catches once, and when
 * it catches the fire already knows how long it will flame (flame residence plus the
 * time the front takes to cross it), so one record a cell - 13 bytes - gives the flames
 * and the burnt ground at every moment of the run, not only at the trace's frames, and a
 * run whose fire never starts writes no file at all. Smoke is not kept: it is a field
 * the wind moves every second, and a frame drawn again goes without it.
 *
 * Layout (little-endian, no padding):
 *   header  "RTFIRE1\0" | u32 version (1) | u32 nx | u32 ny | u32 count | f64 cell_m
 *           | f64 origin_x | f64 origin_y                                    (48 bytes)
 *   cell    i32 cell (iy * nx + ix) | f32 ignition_s | f32 out_s | u8 flags (13 bytes)
 *   end     u32 checksum: FNV-1a over every byte before it */
#include "world.h"
#include "atomic.h"
#include "fire_log.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>

#define FIRE_LOG_VERSION 1u
#define FIRE_LOG_HEADER_BYTES 48
#define FIRE_LOG_CELL_BYTES 13
#define FIRE_LOG_MAX_CELLS ((int64_t)1 << 31)

static uint32_t fnv32(uint32_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
	return h;
}

rt_status rt__fire_log_write(const char *path, int nx, int ny, double cell_m, double origin_x, double origin_y,
			     const rt_fire_log_cell *cells, size_t count, rt_error *err)
{
	rt_atomic_file f;
	rt_status s = rt__atomic_open(&f, path, err);
	if (s != RT_OK) return s;
	unsigned char head[FIRE_LOG_HEADER_BYTES];
	const uint32_t version = FIRE_LOG_VERSION, unx = (uint32_t)nx, uny = (uint32_t)ny, n = (uint32_t)count;
	memcpy(head, "RTFIRE1", 8); /* with its terminating zero */
	memcpy(head + 8, &version, 4);
	memcpy(head + 12, &unx, 4);
	memcpy(head + 16, &uny, 4);
	memcpy(head + 20, &n, 4);
	memcpy(head + 24, &cell_m, 8);
	memcpy(head + 32, &origin_x, 8);
	memcpy(head + 40, &origin_y, 8);
	uint32_t h = fnv32(2166136261u, head, sizeof head);
	rt__atomic_write(&f, head, sizeof head);
	unsigned char rec[FIRE_LOG_CELL_BYTES * 256];
	size_t used = 0;
	for (size_t i = 0; i < count; ++i) {
		unsigned char *r = rec + used;
		memcpy(r, &cells[i].cell, 4);
		memcpy(r + 4, &cells[i].ignition_s, 4);
		memcpy(r + 8, &cells[i].out_s, 4);
		r[12] = cells[i].flags;
		used += FIRE_LOG_CELL_BYTES;
		if (used == sizeof rec || i + 1 == count) {
			h = fnv32(h, rec, used);
			rt__atomic_write(&f, rec, used);
			used = 0;
		}
	}
	rt__atomic_write(&f, &h, 4);
	return rt__atomic_commit(&f, err);
}

void rt__fire_log_state_at(const rt_fire_log *log, double t, uint8_t *state, int64_t *burning, int64_t *burnt)
{
	memset(state, RT_FIRE_CELL_NONE, (size_t)log->nx * (size_t)log->ny);
	int64_t flames = 0, black = 0;
	for (size_t i = 0; i < log->count; ++i) {
		const rt_fire_log_cell *c = &log->cells[i];
		/* a cell the front reaches in a fire update starting at t is caught at the end of
		 * it, though its ignition time is t: it shows after t, not at t */
		if (!((double)c->ignition_s < t)) continue;
		if ((double)c->out_s > t) {
			state[c->cell] = (c->flags & RT_FIRE_LOG_HOT) ? RT_FIRE_CELL_HOT : RT_FIRE_CELL_BURNING;
			flames++;
		} else {
			state[c->cell] = RT_FIRE_CELL_BURNT;
			black++;
		}
	}
	if (burning) *burning = flames;
	if (burnt) *burnt = black;
}

/* ---- reading ---- */
static rt_status refuse(rt_error *err, const char *path, const char *field, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static rt_status refuse(rt_error *err, const char *path, const char *field, const char *fmt, ...)
{
	char message[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	return rt__fail_at(err, RT_ERR_PARSE, path, 0, 0, field, "%s", message);
}

void rt_fire_log_destroy(rt_fire_log *log)
{
	if (!log) return;
	rt_allocator a = log->allocator;
	rt__free(&a, log->cells, (log->count ? log->count : 1) * sizeof *log->cells);
	rt__free(&a, log, sizeof *log);
}

rt_status rt_fire_log_read(const char *path, const rt_allocator *allocator, rt_fire_log **out, rt_error *err)
{
	rt__error_clear(err);
	if (!out) return rt__fail(err, RT_ERR_INVALID, "rt_fire_log_read needs somewhere to put the log");
	*out = NULL;
	if (!path) return rt__fail(err, RT_ERR_INVALID, "no fire log path");
	const rt_allocator a = allocator && allocator->alloc && allocator->free ? *allocator : rt_allocator_default();
	FILE *f = fopen(path, "rb");
	if (!f) return rt__fail_at(err, RT_ERR_IO, path, 0, 0, NULL, "cannot open the fire log: %s", strerror(errno));
	struct stat st;
	const long long size = fstat(fileno(f), &st) == 0 ? (long long)st.st_size : -1;
	unsigned char head[FIRE_LOG_HEADER_BYTES];
	rt_status s = RT_OK;
	rt_fire_log *log = NULL;
	if (size < FIRE_LOG_HEADER_BYTES + 4 || fread(head, 1, sizeof head, f) != sizeof head || memcmp(head, "RTFIRE1", 8) != 0) {
		s = refuse(err, path, "header", "not a rout fire log (expected the RTFIRE1 header)");
		goto done;
	}
	uint32_t version, nx, ny, count;
	double cell_m, ox, oy;
	memcpy(&version, head + 8, 4);
	memcpy(&nx, head + 12, 4);
	memcpy(&ny, head + 16, 4);
	memcpy(&count, head + 20, 4);
	memcpy(&cell_m, head + 24, 8);
	memcpy(&ox, head + 32, 8);
	memcpy(&oy, head + 40, 8);
	if (version != FIRE_LOG_VERSION) {
		s = refuse(err, path, "version", "fire log version %u; this build reads version %u", version, FIRE_LOG_VERSION);
		goto done;
	}
	if (nx < 1 || ny < 1 || (int64_t)nx * ny > FIRE_LOG_MAX_CELLS || nx > INT32_MAX || ny > INT32_MAX) {
		s = refuse(err, path, "nx", "a grid of %u x %u cells; expected 1 to 2^31 cells", nx, ny);
		goto done;
	}
	if (!(isfinite(cell_m) && cell_m > 0.0 && cell_m < 1e6) || !(fabs(ox) < 1e12) || !(fabs(oy) < 1e12)) {
		s = refuse(err, path, "cell_m", "cells of %g m from (%g, %g); expected a finite cell size and origin", cell_m, ox, oy);
		goto done;
	}
	const long long expected = FIRE_LOG_HEADER_BYTES + (long long)count * FIRE_LOG_CELL_BYTES + 4;
	if (size != expected || (int64_t)count > (int64_t)nx * ny) {
		s = refuse(err, path, "count", "%u cells caught of a grid of %u x %u in %lld bytes; expected %lld bytes and no more cells than the grid's",
			   count, nx, ny, size, expected);
		goto done;
	}
	log = rt__calloc(&a, 1, sizeof *log);
	if (log) log->cells = rt__alloc(&a, (count ? count : 1) * sizeof *log->cells);
	if (!log || !log->cells) {
		if (log) rt__free(&a, log, sizeof *log);
		log = NULL;
		s = rt__fail_at(err, RT_ERR_NOMEM, path, 0, 0, NULL, "cannot allocate a fire log of %u cells", count);
		goto done;
	}
	log->allocator = a;
	log->nx = (int)nx;
	log->ny = (int)ny;
	log->cell_m = cell_m;
	log->origin_x = ox;
	log->origin_y = oy;
	log->count = count;
	uint32_t h = fnv32(2166136261u, head, sizeof head), sum;
	for (uint32_t i = 0; i < count; ++i) {
		unsigned char r[FIRE_LOG_CELL_BYTES];
		if (fread(r, 1, sizeof r, f) != sizeof r) {
			s = rt__fail_at(err, RT_ERR_IO, path, 0, 0, "cells", "cannot read cell %u of the fire log", i);
			goto done;
		}
		h = fnv32(h, r, sizeof r);
		rt_fire_log_cell *c = &log->cells[i];
		memcpy(&c->cell, r, 4);
		memcpy(&c->ignition_s, r + 4, 4);
		memcpy(&c->out_s, r + 8, 4);
		c->flags = r[12];
		if (c->cell < 0 || (int64_t)c->cell >= (int64_t)nx * ny || !isfinite(c->ignition_s) || !isfinite(c->out_s) ||
		    c->out_s < c->ignition_s || c->flags > RT_FIRE_LOG_HOT) {
			s = refuse(err, path, "cells", "cell record %u: cell %d, %g to %g s, flags %u; expected a cell of the %u x %u grid, "
				   "finite times, flames going out no earlier than they start, flags 0 or 1",
				   i, (int)c->cell, (double)c->ignition_s, (double)c->out_s, c->flags, nx, ny);
			goto done;
		}
	}
	if (fread(&sum, 1, 4, f) != 4 || sum != h) {
		s = refuse(err, path, "checksum", "the fire log fails its checksum");
		goto done;
	}
done:
	fclose(f);
	if (s != RT_OK) {
		rt_fire_log_destroy(log);
		return s;
	}
	*out = log;
	return RT_OK;
}
