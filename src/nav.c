/* Goals and flow fields. A goal is a target rectangle; its flow field is the travel
 * distance to the target computed by first-order fast marching (Sethian 1996) on a
 * raster of the world, where cells within a body radius of a wall are blocked, so paths
 * keep a body's width off corners. Each free cell stores the unit
 * direction of steepest descent; an agent blends the four cells around it. The field is
 * built once per goal and shared by every agent going there. */
#include "world.h"

#include <math.h>

#define RT_MAX_FIELD_CELLS (64ll << 20)
#define WALL_MARGIN_M 0.2      /* cells whose centre is nearer a wall than this are blocked */

rt_goal_def rt_goal_def_default(void)
{
	rt_goal_def d;
	memset(&d, 0, sizeof d);
	d.arrival = RT_ARRIVAL_STOP;
	d.cookie = RT_COOKIE;
	return d;
}


typedef struct heap {
	int *cell;
	float *key;
	int count;
} heap;

static void heap_push(heap *h, int c, float k)
{
	int i = h->count++;
	while (i > 0) {
		int p = (i - 1) / 2;
		if (h->key[p] <= k) break;
		h->cell[i] = h->cell[p];
		h->key[i] = h->key[p];
		i = p;
	}
	h->cell[i] = c;
	h->key[i] = k;
}

static int heap_pop(heap *h)
{
	int top = h->cell[0];
	int c = h->cell[--h->count];
	float k = h->key[h->count];
	int i = 0;
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		float km = k;
		if (l < h->count && h->key[l] < km) { m = l; km = h->key[l]; }
		if (r < h->count && h->key[r] < km) { m = r; }
		if (m == i) break;
		h->cell[i] = h->cell[m];
		h->key[i] = h->key[m];
		i = m;
	}
	if (h->count > 0) {
		h->cell[i] = c;
		h->key[i] = k;
	}
	return top;
}

/* Flight fields are built again and again during a run, so they march with a 4-ary heap
 * of (key, cell) pairs: a third of the cache misses of the binary heap of two arrays
 * that goal fields keep (their results, which the scenarios are calibrated on, depend on
 * the order in which cells of equal time are accepted; a flight field's on nothing but
 * its own build). */
typedef struct qentry {
	float key;
	int cell;
} qentry;

typedef struct queue {
	heap h;     /* goals */
	qentry *q;  /* flight fields */
	int count;
	bool quad;
} queue;

static inline void queue_push(queue *Q, int c, float k)
{
	if (!Q->quad) {
		heap_push(&Q->h, c, k);
		Q->count = Q->h.count;
		return;
	}
	qentry *q = Q->q;
	int i = Q->count++;
	while (i > 0) {
		const int p = (i - 1) >> 2;
		if (q[p].key <= k) break;
		q[i] = q[p];
		i = p;
	}
	q[i] = (qentry){ k, c };
}

static inline int queue_pop(queue *Q)
{
	if (!Q->quad) {
		const int c = heap_pop(&Q->h);
		Q->count = Q->h.count;
		return c;
	}
	qentry *q = Q->q;
	const int top = q[0].cell;
	const qentry last = q[--Q->count];
	const int n = Q->count;
	int i = 0;
	for (;;) {
		const int first = 4 * i + 1;
		if (first >= n) break;
		const int end = first + 4 < n ? first + 4 : n;
		int m = first;
		float km = q[first].key;
		for (int j = first + 1; j < end; ++j)
			if (q[j].key < km) {
				m = j;
				km = q[j].key;
			}
		if (!(km < last.key)) break;
		q[i] = q[m];
		i = m;
	}
	if (n > 0) q[i] = last;
	return top;
}

/* Solves the eikonal update at cell (x, y) from accepted neighbours. */
static float eikonal(const float *t, const uint8_t *state, int nx, int ny, int x, int y, float h_cost)
{
	float a = INFINITY, b = INFINITY;
	if (x > 0 && state[y * nx + x - 1] == 2) a = t[y * nx + x - 1];
	if (x < nx - 1 && state[y * nx + x + 1] == 2) a = fminf(a, t[y * nx + x + 1]);
	if (y > 0 && state[(y - 1) * nx + x] == 2) b = t[(y - 1) * nx + x];
	if (y < ny - 1 && state[(y + 1) * nx + x] == 2) b = fminf(b, t[(y + 1) * nx + x]);
	if (a > b) { float s = a; a = b; b = s; }
	if (!isfinite(b) || b - a >= h_cost) return a + h_cost;
	float d = 2.0f * h_cost * h_cost - (b - a) * (b - a);
	return 0.5f * (a + b + sqrtf(d));
}

static bool in_targets(const rt_field_spec *spec, double x, double y)
{
	for (int i = 0; i < spec->targets; ++i)
		if (x >= spec->target_min[i].x && x <= spec->target_max[i].x && y >= spec->target_min[i].y && y <= spec->target_max[i].y)
			return true;
	return false;
}

/* The cost factor (1 + P) of the danger grid at (x, y); 1 off the grid. */
static double danger_factor(const rt_field_spec *spec, double x, double y)
{
	const int ix = rt__floor_int((x - spec->danger_ox) * spec->danger_inv_cell);
	const int iy = rt__floor_int((y - spec->danger_oy) * spec->danger_inv_cell);
	if (ix < 0 || iy < 0 || ix >= spec->danger_nx || iy >= spec->danger_ny) return 1.0;
	return 1.0 + (double)spec->danger[(size_t)iy * (size_t)spec->danger_nx + (size_t)ix];
}

rt_status rt__field_build(rt_world *w, rt_goal *goal, const rt_field_spec *spec, bool *found, rt_error *err)
{
	*found = false;
	const rt_world_def *wd = &w->def;
	double cell = spec->cell;
	double width = wd->bounds_max.x - wd->bounds_min.x, height = wd->bounds_max.y - wd->bounds_min.y;
	long long nx = (long long)ceil(width / cell), ny = (long long)ceil(height / cell);
	if (nx * ny > RT_MAX_FIELD_CELLS)
		return rt__fail(err, RT_ERR_CAPACITY,
				"flow field of %lld x %lld cells (%.0f MiB) exceeds the limit of %lld cells; use a coarser field_cell_m",
				nx, ny, (double)(nx * ny) * 17.0 / 1048576.0, RT_MAX_FIELD_CELLS);
	size_t n = (size_t)(nx * ny);
	if (goal->dir && ((size_t)goal->nx * (size_t)goal->ny != n || goal->cell != cell)) rt__goal_free(w, goal);
	goal->nx = (int)nx;
	goal->ny = (int)ny;
	goal->origin_x = wd->bounds_min.x;
	goal->origin_y = wd->bounds_min.y;
	goal->cell = cell;
	goal->inv_cell = 1.0 / cell;
	if (!goal->dir) goal->dir = rt__alloc(&w->allocator, 2 * n * sizeof(float));
	if (!goal->arrival_time) goal->arrival_time = rt__alloc(&w->allocator, n * sizeof(float));
	float *cost = rt__alloc(&w->allocator, n * sizeof(float));
	uint8_t *state = rt__calloc(&w->allocator, n, 1); /* 0 far, 1 trial, 2 accepted, 3 blocked */
	queue Q;
	memset(&Q, 0, sizeof Q);
	Q.quad = spec->quad_heap;
	if (Q.quad) Q.q = rt__alloc(&w->allocator, n * sizeof(qentry));
	else Q.h = (heap){ rt__alloc(&w->allocator, n * sizeof(int)), rt__alloc(&w->allocator, n * sizeof(float)), 0 };
	rt_status status = RT_OK;
	if (!goal->dir || !goal->arrival_time || !cost || !state || (Q.quad ? !Q.q : !Q.h.cell || !Q.h.key)) {
		status = rt__fail(err, RT_ERR_NOMEM,
				  "out of memory: a flow field of %zu cells (%.1f m) needs %.0f MB while it is built and %.0f MB after, for each place men go to",
				  n, cell, (double)n * 21.0 / 1e6, (double)n * 12.0 / 1e6);
		goto done;
	}
	float *t = goal->arrival_time;
	/* wall distance per cell, from each wall outwards over the cells it can affect */
	for (size_t i = 0; i < n; ++i) cost[i] = INFINITY; /* holds the wall distance first */
	const rt_geometry *geo = &w->geometry;
	double range = WALL_MARGIN_M + cell;
	for (int i = 0; i < geo->wall_count; ++i) {
		const rt_segment *s = &geo->walls[i];
		int x0 = (int)floor((fmin(s->ax, s->bx) - range - goal->origin_x) * goal->inv_cell);
		int x1 = (int)floor((fmax(s->ax, s->bx) + range - goal->origin_x) * goal->inv_cell);
		int y0 = (int)floor((fmin(s->ay, s->by) - range - goal->origin_y) * goal->inv_cell);
		int y1 = (int)floor((fmax(s->ay, s->by) + range - goal->origin_y) * goal->inv_cell);
		x0 = x0 < 0 ? 0 : x0; y0 = y0 < 0 ? 0 : y0;
		x1 = x1 >= nx ? (int)nx - 1 : x1; y1 = y1 >= ny ? (int)ny - 1 : y1;
		for (int y = y0; y <= y1; ++y)
			for (int x = x0; x <= x1; ++x) {
				double px = goal->origin_x + (x + 0.5) * cell, py = goal->origin_y + (y + 0.5) * cell;
				float dist = (float)rt__segment_point_distance(s, px, py, NULL, NULL);
				size_t c = (size_t)y * (size_t)nx + (size_t)x;
				if (dist < cost[c]) cost[c] = dist;
			}
	}
	for (long long y = 0; y < ny; ++y)
		for (long long x = 0; x < nx; ++x) {
			size_t c = (size_t)(y * nx + x);
			double px = goal->origin_x + ((double)x + 0.5) * cell, py = goal->origin_y + ((double)y + 0.5) * cell;
			float dist = cost[c];
			t[c] = INFINITY;
			if (dist < WALL_MARGIN_M || (geo->obstacle_count > 0 && rt__inside_obstacle(w, px, py))) {
				state[c] = 3;
				cost[c] = INFINITY;
				continue;
			}
			/* travel time per cell: the cell over the ground's speed factor (1 off the map);
			 * impassable ground is blocked */
			double factor = 1.0;
			const int mc = rt__terrain_cell(w, px, py);
			if (mc >= 0) {
				factor = w->map_passable[mc] ? (double)w->map_speed[mc] : 0.0;
				/* a flight field does not lead through forts that would not take the side */
				if (spec->fort_blocked && w->map_feature[mc] >= 0 && w->map_feature[mc] < w->feature_count &&
				    spec->fort_blocked[w->map_feature[mc]])
					factor = 0.0;
				/* men plan their way over ground as it lies at mean sea level: water
				 * over a man's depth is no way, shallower water is waded (section 11) */
				const double depth = rt__planning_depth(w, mc);
				if (depth > w->water.foot_drown_depth_m) factor = 0.0;
				else if (depth > 0.0) factor *= fmax(0.2, 1.0 - w->water.wading_loss_per_m * depth);
			}
			if (!(factor > 0.0)) {
				state[c] = 3;
				cost[c] = INFINITY;
				continue;
			}
			/* a flight field's cell costs (1 + P) times more where the known enemy is near */
			cost[c] = spec->danger ? (float)(cell / factor * danger_factor(spec, px, py)) : (float)(cell / factor);
			if (in_targets(spec, px, py)) {
				t[c] = 0.0f;
				state[c] = 2;
			}
		}
	/* seed the front: far neighbours of accepted target cells */
	for (long long y = 0; y < ny; ++y)
		for (long long x = 0; x < nx; ++x) {
			size_t c = (size_t)(y * nx + x);
			if (state[c] != 0) continue;
			bool touches = (x > 0 && state[c - 1] == 2) || (x < nx - 1 && state[c + 1] == 2) ||
				       (y > 0 && state[c - (size_t)nx] == 2) || (y < ny - 1 && state[c + (size_t)nx] == 2);
			if (!touches) continue;
			t[c] = eikonal(t, state, (int)nx, (int)ny, (int)x, (int)y, cost[c]);
			state[c] = 1;
			queue_push(&Q, (int)c, t[c]);
		}
	int found_target = 0;
	for (size_t c = 0; c < n; ++c) found_target |= t[c] == 0.0f;
	*found = found_target != 0;
	while (Q.count > 0) {
		int c = queue_pop(&Q);
		if (state[c] == 2) continue; /* a stale duplicate */
		state[c] = 2;
		int x = c % (int)nx, y = c / (int)nx;
		const int nbx[4] = { x - 1, x + 1, x, x };
		const int nby[4] = { y, y, y - 1, y + 1 };
		for (int k = 0; k < 4; ++k) {
			if (nbx[k] < 0 || nbx[k] >= nx || nby[k] < 0 || nby[k] >= ny) continue;
			int m = nby[k] * (int)nx + nbx[k];
			if (state[m] >= 2) continue;
			float tm = eikonal(t, state, (int)nx, (int)ny, nbx[k], nby[k], cost[m]);
			if (tm < t[m]) {
				t[m] = tm;
				state[m] = 1;
				if ((size_t)Q.count >= n) { status = rt__fail(err, RT_ERR_CAPACITY, "fast marching heap overflow"); goto done; }
				queue_push(&Q, m, tm);
			}
		}
	}
	/* steepest descent per cell, one-sided where a neighbour is blocked or unreachable */
	for (long long y = 0; y < ny; ++y)
		for (long long x = 0; x < nx; ++x) {
			size_t c = (size_t)(y * nx + x);
			goal->dir[2 * c] = goal->dir[2 * c + 1] = 0.0f;
			if (!isfinite(t[c]) || t[c] == 0.0f) continue;
			float l = x > 0 ? t[c - 1] : INFINITY, r = x < nx - 1 ? t[c + 1] : INFINITY;
			float b = y > 0 ? t[c - (size_t)nx] : INFINITY, u = y < ny - 1 ? t[c + (size_t)nx] : INFINITY;
			float gx, gy;
			if (isfinite(l) && isfinite(r)) gx = 0.5f * (r - l);
			else if (isfinite(r)) gx = fminf(r - t[c], 0.0f);
			else if (isfinite(l)) gx = fmaxf(t[c] - l, 0.0f);
			else gx = 0.0f;
			if (isfinite(b) && isfinite(u)) gy = 0.5f * (u - b);
			else if (isfinite(u)) gy = fminf(u - t[c], 0.0f);
			else if (isfinite(b)) gy = fmaxf(t[c] - b, 0.0f);
			else gy = 0.0f;
			float norm = sqrtf(gx * gx + gy * gy);
			if (norm > 0.0f) {
				goal->dir[2 * c] = -gx / norm;
				goal->dir[2 * c + 1] = -gy / norm;
			}
		}
	goal->built = true;
done:
	rt__free(&w->allocator, cost, n * sizeof(float));
	rt__free(&w->allocator, state, n);
	rt__free(&w->allocator, Q.h.cell, n * sizeof(int));
	rt__free(&w->allocator, Q.h.key, n * sizeof(float));
	rt__free(&w->allocator, Q.q, n * sizeof(qentry));
	return status;
}

rt_status rt__goal_build(rt_world *w, rt_goal *goal, rt_error *err)
{
	const rt_goal_def *d = &goal->def;
	if (d->straight) {
		goal->built = true;
		return RT_OK;
	}
	rt_field_spec spec;
	memset(&spec, 0, sizeof spec);
	spec.cell = d->field_cell_m > 0.0 ? d->field_cell_m : 0.25;
	spec.targets = 1;
	spec.target_min = &d->target_min;
	spec.target_max = &d->target_max;
	bool found = false;
	rt_status s = rt__field_build(w, goal, &spec, &found, err);
	if (s == RT_OK && !found) {
		goal->built = false;
		return rt__fail(err, RT_ERR_INVALID, "goal target (%g, %g)-(%g, %g) covers no free cell of the world",
				d->target_min.x, d->target_min.y, d->target_max.x, d->target_max.y);
	}
	return s;
}

void rt__goal_free(rt_world *w, rt_goal *goal)
{
	size_t n = (size_t)goal->nx * (size_t)goal->ny;
	rt__free(&w->allocator, goal->dir, 2 * n * sizeof(float));
	rt__free(&w->allocator, goal->arrival_time, n * sizeof(float));
	goal->dir = goal->arrival_time = NULL;
}

