/* The neighbour grid: every step, active agents are counting-sorted by bucket and their
 * positions copied into contiguous arrays, so the decide phase reads neighbours from a
 * few short runs of memory. Buckets tile the world (see world.h); a row of neighbouring
 * cells is one contiguous run unless it wraps. The sort is stable (by slot), so the
 * order - and every result - is the same at any thread count. */
#include "world.h"

#include <math.h>

#define MIN_TILE 8 /* buckets per axis at least, so a search never visits a bucket twice */
#define MAX_SORTERS 64 /* threads that share the counting sort */

/* Lays the grid out for `men` men: cell, tiling and buckets. All or nothing: on failure
 * the grid is as it was. */
static rt_status grid_lay(rt_world *w, long long men, rt_error *err)
{
	rt_grid *g = &w->grid;
	const rt_world_def *d = &w->def;
	double cell = d->cell_size_m;
	if (cell <= 0.0) {
		/* a default man (r 0.2 m, v0 1.34 m/s) is influenced up to 2r + max(v0 T, 8 D)
		 * (locomotion.c); half that makes the 5 x 5 cells searched hug his circle of
		 * interaction closer than 3 x 3 cells would, so fewer candidates are tested */
		cell = 0.5 * (0.4 + fmax(1.34 * d->locomotion.time_gap_s, 8.0 * d->locomotion.neighbor_range_m) + 0.01);
	}
	double width = d->bounds_max.x - d->bounds_min.x;
	double height = d->bounds_max.y - d->bounds_min.y;
	long long hx, hy;
	if (d->periodic_x) {
		hx = (long long)floor(width / cell);
		if (hx < 3)
			return rt__fail(err, RT_ERR_INVALID,
					"periodic world is %g m wide; it must span at least 3 neighbour cells (%g m)",
					width, 3.0 * cell);
		cell = width / (double)hx; /* the period is a whole number of cells */
	} else {
		hx = (long long)ceil(width / cell) + 1;
	}
	hy = (long long)ceil(height / cell) + 1;
	/* buckets in proportion to the men (4 each, at least 4096, at most 4 Mi): a few
	 * hundred men in a large world must not pay for every cell of it each step */
	long long cap = 4 * men;
	cap = cap < 4096 ? 4096 : (cap > (1ll << 22) ? (1ll << 22) : cap);
	if (hx * hy > cap) {
		if (d->periodic_x) {
			hy = cap / hx;
			if (hy < MIN_TILE)
				return rt__fail(err, RT_ERR_CAPACITY, "periodic world is too wide for the neighbour grid");
		} else {
			long long side = (long long)sqrt((double)cap);
			if (hx > side && hy > side) hx = hy = side;
			else if (hx > side) hx = cap / hy;
			else hy = cap / hx;
		}
	}
	if (!d->periodic_x && hx < MIN_TILE) hx = MIN_TILE;
	if (hy < MIN_TILE) hy = MIN_TILE;
	const int buckets = (int)(hx * hy);
	int *start = rt__calloc(&w->allocator, (size_t)buckets + 2, sizeof(int)); /* one spare: see rt__grid_build */
	if (!start) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate a neighbour grid of %d buckets", buckets);
	if (g->start) rt__free(&w->allocator, g->start, ((size_t)g->buckets + 2) * sizeof(int));
	g->target_agents = (int)men;
	g->origin_x = d->bounds_min.x;
	g->origin_y = d->bounds_min.y;
	g->cell = cell;
	g->inv_cell = 1.0 / cell;
	g->hx = (int)hx;
	g->hy = (int)hy;
	g->buckets = buckets;
	g->start = start;
	return RT_OK;
}

static long long grid_men(const rt_world *w)
{
	return w->agents.count > w->def.agent_capacity ? w->agents.count : w->def.agent_capacity;
}

rt_status rt__grid_init(rt_world *w, rt_error *err)
{
	return grid_lay(w, grid_men(w), err);
}

rt_status rt__grid_fit(rt_world *w, rt_error *err)
{
	/* on failure the old grid stays: still correct, only slower */
	if (w->agents.count <= 2 * w->grid.target_agents) return RT_OK;
	return grid_lay(w, grid_men(w), err);
}

rt_status rt__grid_set_target(rt_world *w, int target_agents, rt_error *err)
{
	if (target_agents == w->grid.target_agents && w->grid.start) return RT_OK;
	return grid_lay(w, target_agents, err);
}

rt_status rt__grid_reserve(rt_world *w, int capacity)
{
	rt_grid *g = &w->grid;
	if (capacity <= g->capacity) return RT_OK;
	size_t cap = (size_t)capacity, padded = cap + RT_GRID_PAD;
	int *order = rt__alloc(&w->allocator, cap * sizeof(int));
	int *bucket_of = rt__alloc(&w->allocator, cap * sizeof(int));
	double *sx = rt__calloc(&w->allocator, padded, sizeof(double));
	double *sy = rt__calloc(&w->allocator, padded, sizeof(double));
	float *sr = rt__calloc(&w->allocator, padded, sizeof(float));
	uint8_t *sside = rt__alloc(&w->allocator, cap * sizeof(uint8_t));
	if (!order || !bucket_of || !sx || !sy || !sr || !sside) {
		rt__free(&w->allocator, order, cap * sizeof(int));
		rt__free(&w->allocator, bucket_of, cap * sizeof(int));
		rt__free(&w->allocator, sx, padded * sizeof(double));
		rt__free(&w->allocator, sy, padded * sizeof(double));
		rt__free(&w->allocator, sr, padded * sizeof(float));
		rt__free(&w->allocator, sside, cap * sizeof(uint8_t));
		return RT_ERR_NOMEM;
	}
	size_t old = (size_t)g->capacity, old_padded = old + RT_GRID_PAD;
	rt__free(&w->allocator, g->order, old * sizeof(int));
	rt__free(&w->allocator, g->bucket_of, old * sizeof(int));
	rt__free(&w->allocator, g->sx, old_padded * sizeof(double));
	rt__free(&w->allocator, g->sy, old_padded * sizeof(double));
	rt__free(&w->allocator, g->sr, old_padded * sizeof(float));
	rt__free(&w->allocator, g->sside, old * sizeof(uint8_t));
	g->order = order;
	g->bucket_of = bucket_of;
	g->sx = sx;
	g->sy = sy;
	g->sr = sr;
	g->sside = sside;
	g->capacity = capacity;
	g->count = 0; /* contents are rebuilt at the next step */
	return RT_OK;
}

void rt__grid_free(rt_world *w)
{
	rt_grid *g = &w->grid;
	rt__free(&w->allocator, g->start, ((size_t)g->buckets + 2) * sizeof(int));
	g->start = NULL;
	g->buckets = 0;
	size_t cap = (size_t)g->capacity, padded = cap + RT_GRID_PAD;
	rt__free(&w->allocator, g->order, cap * sizeof(int));
	rt__free(&w->allocator, g->bucket_of, cap * sizeof(int));
	rt__free(&w->allocator, g->sx, padded * sizeof(double));
	rt__free(&w->allocator, g->sy, padded * sizeof(double));
	rt__free(&w->allocator, g->sr, padded * sizeof(float));
	rt__free(&w->allocator, g->sside, cap * sizeof(uint8_t));
	g->capacity = 0;
}

void rt__grid_build(rt_world *w)
{
	rt_grid *g = &w->grid;
	const rt_agents *a = &w->agents;
	int n = a->count;

	/* bucket of every slot: parallel, each writes its own entry */
	int *bucket_of = g->bucket_of;
	const int hx = g->hx, hy = g->hy;
	const double ox = g->origin_x, oy = g->origin_y, inv = g->inv_cell;
	const bool any_lying = w->lying > 0;
	RT_PARALLEL_FOR(RT_PARALLEL(n), (schedule(static) num_threads(w->threads)),
	for (int s = 0; s < n; ++s) {
		if (!rt__active(a->state[s]) || (any_lying && (a->crush[s] & RT_CRUSH_DOWN))) { /* men down in the crush are walked over (crush.c) */
			bucket_of[s] = -1;
			continue;
		}
		int cx = rt__floor_int((a->x[s] - ox) * inv);
		int cy = rt__floor_int((a->y[s] - oy) * inv);
		bucket_of[s] = rt__grid_wrap(cy, hy) * hx + rt__grid_wrap(cx, hx);
	});

	/* The counting sort, its buckets split among the threads: each reads every slot and
	 * counts, then places, those of its own buckets, in slot order - the same order a
	 * single thread gives - and copies their positions and radii. Bucket b's men are
	 * counted at start[b + 2], so that the running sum leaves start[b + 1] where bucket
	 * b begins, and the placing moves it on to where b ends: start[b + 1] is then where
	 * bucket b + 1 begins, as it should be, with no pass to shift it. */
	const int buckets = g->buckets;
	int *start = g->start, *order_out = g->order;
	double *sx = g->sx, *sy = g->sy;
	float *sr = g->sr;
	uint8_t *sside = g->sside;
	int sorters = RT_PARALLEL(n) ? w->threads : 1;
	sorters = sorters > MAX_SORTERS ? MAX_SORTERS : sorters;
	int placed[MAX_SORTERS + 1] = { 0 };
	RT_PARALLEL_REGION(sorters > 1, (num_threads(sorters)),
	{
		const int t = rt__thread_num(), threads = rt__thread_count();
		const int b0 = (int)((long long)buckets * t / threads), b1 = (int)((long long)buckets * (t + 1) / threads);
		memset(start + b0 + 2, 0, (size_t)(b1 - b0) * sizeof(int));
		if (t == 0) start[0] = 0;
		int mine = 0;
		for (int s = 0; s < n; ++s) {
			const int b = bucket_of[s];
			if (b >= b0 && b < b1) {
				start[b + 2]++;
				mine++;
			}
		}
		placed[t + 1] = mine;
		/* the next thread writes where its first bucket begins over this thread's last
		 * count: read it first */
		const int last = b1 > b0 ? start[b1 + 1] : 0;
		_Pragma("omp barrier")
		int running = 0;
		for (int u = 0; u <= t; ++u) running += placed[u];
		for (int b = b0; b < b1; ++b) {
			const int c = b + 1 < b1 ? start[b + 2] : last;
			start[b + 1] = running;
			running += c;
		}
		for (int s = 0; s < n; ++s) {
			const int b = bucket_of[s];
			if (b >= b0 && b < b1) {
				/* his place in grid order, and the copies the neighbour search reads */
				const int k = start[b + 1]++;
				order_out[k] = s;
				sx[k] = a->x[s];
				sy[k] = a->y[s];
				sr[k] = a->radius[s];
				sside[k] = a->side[s];
			}
		}
	});
	g->count = start[buckets];
}
