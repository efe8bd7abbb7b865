/* Static geometry: walls (segments) and obstacles (closed polygons whose edges are
 * walls). Before the first step the walls are registered in a lookup grid so that an
 * agent finds every wall within `reach` of its position in one bucket. The hard wall
 * constraint of the move phase relies on that: reach covers the body, the clearance
 * and the longest move of one step. */
#include "world.h"

#include <math.h>
#include <float.h>

#define RT_MAX_WALLS (1 << 24)

static rt_status grow(rt_world *w, void **p, int *capacity, int need, size_t item, rt_error *err)
{
	if (need <= *capacity) return RT_OK;
	if (need > RT_MAX_WALLS) return rt__fail(err, RT_ERR_CAPACITY, "more than %d walls or obstacle points", RT_MAX_WALLS);
	int cap = *capacity ? *capacity : 16;
	while (cap < need) cap *= 2;
	void *q = rt__realloc(&w->allocator, *p, (size_t)*capacity * item, (size_t)cap * item);
	if (!q) return rt__fail(err, RT_ERR_NOMEM, "cannot grow geometry storage to %d items", cap);
	*p = q;
	*capacity = cap;
	return RT_OK;
}

static rt_status check_mutable(rt_world *w, rt_error *err)
{
	if (!w) return rt__fail(err, RT_ERR_INVALID, "no world");
	if (w->geometry.built) return rt__fail(err, RT_ERR_STATE, "geometry must be added before the first step");
	return RT_OK;
}

rt_status rt_world_add_wall(rt_world *w, rt_vec2 a, rt_vec2 b, rt_error *err)
{
	rt__error_clear(err);
	rt_status s = check_mutable(w, err);
	if (s != RT_OK) return s;
	if (!isfinite(a.x) || !isfinite(a.y) || !isfinite(b.x) || !isfinite(b.y))
		return rt__fail(err, RT_ERR_INVALID, "wall end points must be finite");
	if (a.x == b.x && a.y == b.y) return rt__fail(err, RT_ERR_INVALID, "wall (%g, %g) has zero length", a.x, a.y);
	rt_geometry *g = &w->geometry;
	if ((s = grow(w, (void **)&g->walls, &g->wall_capacity, g->wall_count + 1, sizeof(rt_segment), err)) != RT_OK) return s;
	g->walls[g->wall_count++] = (rt_segment){ a.x, a.y, b.x, b.y };
	return RT_OK;
}

static double cross(double ax, double ay, double bx, double by) { return ax * by - ay * bx; }

/* Proper or touching intersection of segments p1p2 and q1q2. */
static bool segments_intersect(double p1x, double p1y, double p2x, double p2y, double q1x, double q1y, double q2x, double q2y)
{
	double d1 = cross(q2x - q1x, q2y - q1y, p1x - q1x, p1y - q1y);
	double d2 = cross(q2x - q1x, q2y - q1y, p2x - q1x, p2y - q1y);
	double d3 = cross(p2x - p1x, p2y - p1y, q1x - p1x, q1y - p1y);
	double d4 = cross(p2x - p1x, p2y - p1y, q2x - p1x, q2y - p1y);
	if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
	return d1 == 0 || d2 == 0 || d3 == 0 || d4 == 0 ? (d1 == 0 && d2 == 0 && d3 == 0 && d4 == 0 ?
		!(fmax(p1x, p2x) < fmin(q1x, q2x) || fmax(q1x, q2x) < fmin(p1x, p2x) ||
		  fmax(p1y, p2y) < fmin(q1y, q2y) || fmax(q1y, q2y) < fmin(p1y, p2y)) : false) : false;
}

rt_status rt_world_add_obstacle(rt_world *w, const rt_vec2 *pts, int n, rt_error *err)
{
	rt__error_clear(err);
	rt_status s = check_mutable(w, err);
	if (s != RT_OK) return s;
	if (!pts || n < 3) return rt__fail(err, RT_ERR_INVALID, "an obstacle needs at least 3 points, got %d", n);
	double area2 = 0.0;
	for (int i = 0; i < n; ++i) {
		if (!isfinite(pts[i].x) || !isfinite(pts[i].y)) return rt__fail(err, RT_ERR_INVALID, "obstacle point %d is not finite", i);
		const rt_vec2 *p = &pts[i], *q = &pts[(i + 1) % n];
		area2 += cross(p->x, p->y, q->x, q->y);
	}
	if (fabs(area2) < 1e-9) return rt__fail(err, RT_ERR_INVALID, "obstacle has zero area");
	for (int i = 0; i < n; ++i) {
		const rt_vec2 *a = &pts[i], *b = &pts[(i + 1) % n];
		for (int j = i + 2; j < n; ++j) {
			if (i == 0 && j == n - 1) continue; /* adjacent through the closing edge */
			const rt_vec2 *c = &pts[j], *d = &pts[(j + 1) % n];
			if (segments_intersect(a->x, a->y, b->x, b->y, c->x, c->y, d->x, d->y))
				return rt__fail(err, RT_ERR_INVALID, "obstacle edges %d and %d intersect", i, j);
		}
	}
	rt_geometry *g = &w->geometry;
	if ((s = grow(w, (void **)&g->points, &g->point_capacity, g->point_count + n, sizeof(rt_vec2), err)) != RT_OK) return s;
	if ((s = grow(w, (void **)&g->obstacles, &g->obstacle_capacity, g->obstacle_count + 1, sizeof(rt_polygon), err)) != RT_OK) return s;
	if ((s = grow(w, (void **)&g->walls, &g->wall_capacity, g->wall_count + n, sizeof(rt_segment), err)) != RT_OK) return s;
	g->obstacles[g->obstacle_count++] = (rt_polygon){ g->point_count, n };
	for (int i = 0; i < n; ++i) {
		g->points[g->point_count++] = pts[i];
		const rt_vec2 *a = &pts[i], *b = &pts[(i + 1) % n];
		if (a->x != b->x || a->y != b->y) g->walls[g->wall_count++] = (rt_segment){ a->x, a->y, b->x, b->y };
	}
	return RT_OK;
}

double rt__segment_point_distance(const rt_segment *s, double px, double py, double *nx, double *ny)
{
	double ex = s->bx - s->ax, ey = s->by - s->ay;
	double len2 = ex * ex + ey * ey;
	double t = len2 > 0.0 ? ((px - s->ax) * ex + (py - s->ay) * ey) / len2 : 0.0;
	t = rt__clamp(t, 0.0, 1.0);
	double dx = px - (s->ax + t * ex), dy = py - (s->ay + t * ey);
	double d = sqrt(dx * dx + dy * dy);
	if (nx) {
		if (d > 0.0) {
			*nx = dx / d;
			*ny = dy / d;
		} else {
			*nx = *ny = 0.0;
		}
	}
	return d;
}

double rt__segment_segment_distance(const rt_segment *s, double ax, double ay, double bx, double by)
{
	if (segments_intersect(s->ax, s->ay, s->bx, s->by, ax, ay, bx, by)) return 0.0;
	rt_segment m = { ax, ay, bx, by };
	double d = rt__segment_point_distance(s, ax, ay, NULL, NULL);
	d = fmin(d, rt__segment_point_distance(s, bx, by, NULL, NULL));
	d = fmin(d, rt__segment_point_distance(&m, s->ax, s->ay, NULL, NULL));
	d = fmin(d, rt__segment_point_distance(&m, s->bx, s->by, NULL, NULL));
	return d;
}

bool rt__inside_obstacle(const rt_world *w, double px, double py)
{
	const rt_geometry *g = &w->geometry;
	for (int o = 0; o < g->obstacle_count; ++o) {
		const rt_vec2 *p = g->points + g->obstacles[o].first;
		int n = g->obstacles[o].count;
		bool inside = false;
		for (int i = 0, j = n - 1; i < n; j = i++) {
			if ((p[i].y > py) != (p[j].y > py) &&
			    px < (p[j].x - p[i].x) * (py - p[i].y) / (p[j].y - p[i].y) + p[i].x)
				inside = !inside;
		}
		if (inside) return true;
	}
	return false;
}

static void register_wall(rt_geometry *g, int i, int pass, int *cursor, int *last, bool periodic)
{
	const rt_segment *s = &g->walls[i];
	double reach = g->reach, half_diag = 0.5 * g->cell * sqrt(2.0);
	int x0 = (int)floor((fmin(s->ax, s->bx) - reach - g->origin_x) * g->inv_cell);
	int x1 = (int)floor((fmax(s->ax, s->bx) + reach - g->origin_x) * g->inv_cell);
	int y0 = (int)floor((fmin(s->ay, s->by) - reach - g->origin_y) * g->inv_cell);
	int y1 = (int)floor((fmax(s->ay, s->by) + reach - g->origin_y) * g->inv_cell);
	/* cells beyond the world bounds hold no agents */
	x0 = x0 < -1 ? -1 : x0;
	y0 = y0 < -1 ? -1 : y0;
	x1 = x1 > g->cells_x ? g->cells_x : x1;
	y1 = y1 > g->cells_y ? g->cells_y : y1;
	for (int cy = y0; cy <= y1; ++cy) {
		for (int cx = x0; cx <= x1; ++cx) {
			double mx = g->origin_x + (cx + 0.5) * g->cell, my = g->origin_y + (cy + 0.5) * g->cell;
			if (!periodic && rt__segment_point_distance(s, mx, my, NULL, NULL) > reach + half_diag) continue;
			int b = rt__grid_wrap(cy, g->hy) * g->hx + rt__grid_wrap(cx, g->hx);
			if (last[b] == i) continue;
			last[b] = i;
			if (pass == 0) g->start[b]++;
			else g->items[cursor[b]++] = i;
		}
	}
}

rt_status rt__geometry_build(rt_world *w, rt_error *err)
{
	/* reach: body + clearance + the longest move of one step, with room to spare */
	return rt__geometry_build_reach(w, 2.0 * w->max_radius + fmax(2.0, rt__max_run_factor(&w->def.morale)) * w->max_speed * w->def.dt_s + 1.0, err);
}

static void lookup_free(rt_world *w, rt_geometry *g)
{
	if (g->start) rt__free(&w->allocator, g->start, (size_t)g->buckets * sizeof(int) + sizeof(int));
	if (g->items) rt__free(&w->allocator, g->items, (size_t)(g->item_count ? g->item_count : 1) * sizeof(int));
	g->start = g->items = NULL;
	g->item_count = 0;
	g->buckets = 0;
}

void rt__geometry_unbuild(rt_world *w)
{
	lookup_free(w, &w->geometry);
	w->geometry.built = false;
}

rt_status rt__geometry_build_reach(rt_world *w, double reach, rt_error *err)
{
	/* built in a copy, installed only when whole: a failure leaves the world as it was */
	rt_geometry copy = w->geometry, *g = &copy;
	g->start = g->items = NULL;
	g->item_count = 0;
	const rt_world_def *d = &w->def;
	double cell = fmax(2.0, reach);
	double width = d->bounds_max.x - d->bounds_min.x, height = d->bounds_max.y - d->bounds_min.y;
	long long hx = (long long)ceil(width / cell) + 1, hy = (long long)ceil(height / cell) + 1;
	long long cap = 1ll << 20;
	if (d->periodic_x) {
		/* a periodic world tiles walls by its period too */
		hx = (long long)floor(width / cell);
		if (hx < 1) hx = 1;
		cell = width / (double)hx;
		hy = (long long)ceil(height / cell) + 1;
	}
	if (hx * hy > cap) {
		long long side = (long long)sqrt((double)cap);
		if (!d->periodic_x) hx = hx > side ? side : hx;
		hy = cap / hx;
		if (hy < 1) hy = 1;
	}
	g->origin_x = d->bounds_min.x;
	g->origin_y = d->bounds_min.y;
	g->cell = cell;
	g->inv_cell = 1.0 / cell;
	g->reach = reach;
	g->cells_x = (int)ceil(width / cell) + 1;
	g->cells_y = (int)ceil(height / cell) + 1;
	g->hx = (int)hx;
	g->hy = (int)hy;
	g->buckets = (int)(hx * hy);
	g->start = rt__calloc(&w->allocator, (size_t)g->buckets + 1, sizeof(int));
	if (!g->start) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the wall grid");
	/* count, then fill: a bucket lists a wall when the wall comes within reach of any
	 * point of one of its cells; `last` keeps a tiled bucket from listing a wall twice */
	int *cursor = rt__alloc(&w->allocator, (size_t)g->buckets * sizeof(int));
	int *last = rt__alloc(&w->allocator, (size_t)g->buckets * sizeof(int));
	if (!cursor || !last) {
		rt__free(&w->allocator, cursor, (size_t)g->buckets * sizeof(int));
		rt__free(&w->allocator, last, (size_t)g->buckets * sizeof(int));
		lookup_free(w, g);
		return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the wall grid");
	}
	for (int pass = 0; pass < 2; ++pass) {
		for (int b = 0; b < g->buckets; ++b) last[b] = -1;
		if (pass == 1) {
			int total = 0;
			for (int b = 0; b < g->buckets; ++b) {
				int c = g->start[b];
				g->start[b] = cursor[b] = total;
				total += c;
			}
			g->start[g->buckets] = total;
			g->items = rt__alloc(&w->allocator, (size_t)(total ? total : 1) * sizeof(int));
			if (!g->items) {
				rt__free(&w->allocator, cursor, (size_t)g->buckets * sizeof(int));
				rt__free(&w->allocator, last, (size_t)g->buckets * sizeof(int));
				lookup_free(w, g);
				return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the wall grid (%d entries)", total);
			}
			g->item_count = total;
		}
		for (int i = 0; i < g->wall_count; ++i)
			register_wall(g, i, pass, cursor, last, d->periodic_x);
	}
	rt__free(&w->allocator, cursor, (size_t)g->buckets * sizeof(int));
	rt__free(&w->allocator, last, (size_t)g->buckets * sizeof(int));
	lookup_free(w, &w->geometry);
	g->built = true;
	w->geometry = copy;
	return RT_OK;
}

void rt__geometry_free(rt_world *w)
{
	rt_geometry *g = &w->geometry;
	rt__free(&w->allocator, g->walls, (size_t)g->wall_capacity * sizeof(rt_segment));
	rt__free(&w->allocator, g->points, (size_t)g->point_capacity * sizeof(rt_vec2));
	rt__free(&w->allocator, g->obstacles, (size_t)g->obstacle_capacity * sizeof(rt_polygon));
	lookup_free(w, g);
	memset(g, 0, sizeof *g);
}

double rt_world_wall_distance(const rt_world *w, rt_vec2 p)
{
	const rt_geometry *g = &w->geometry;
	double best = DBL_MAX;
	for (int i = 0; i < g->wall_count; ++i) best = fmin(best, rt__segment_point_distance(&g->walls[i], p.x, p.y, NULL, NULL));
	if (rt__inside_obstacle(w, p.x, p.y)) best = -best;
	return best;
}

int rt_world_count_wall_violations(const rt_world *w)
{
	int n = 0;
	const rt_agents *a = &w->agents;
	for (int s = 0; s < a->count; ++s) {
		if (!rt__active(a->state[s])) continue;
		double clearance = w->def.locomotion.wall_clearance_factor * a->radius[s];
		double d = rt_world_wall_distance(w, (rt_vec2){ a->x[s], a->y[s] });
		if (d < clearance * (1.0 - 1e-9)) n++;
	}
	return n;
}

int rt_world_wall_count(const rt_world *w) { return w ? w->geometry.wall_count : 0; }

void rt_world_get_wall(const rt_world *w, int i, rt_vec2 *a, rt_vec2 *b)
{
	const rt_segment *s = &w->geometry.walls[i];
	*a = (rt_vec2){ s->ax, s->ay };
	*b = (rt_vec2){ s->bx, s->by };
}
