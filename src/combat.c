/* Sense, fight and resolve: who each man sees as his nearest enemy, the blow or shot he
 * makes, and what it does.
 *
 * sense (parallel over men who decide this step): men who can be seen and fought
 *   (active, not kneeling) are counting-sorted by (side, coarse cell); each man searches
 *   rings of cells outward from his own until no nearer enemy can exist, up to the
 *   sense range. His local picture (morale: friends, routing friends, enemy weight,
 *   deaths seen within the view radius) is summed over fine cells of sense_cell_m kept
 *   in a hash table of the cells anyone stands in, so that it does not grow with the
 *   coarse grid on a wide map.
 * fight (parallel, each man writes only his own slot): a man in reach of his enemy
 *   strikes with probability rate * dt * hit * (1 - armour); else a man with a missile
 *   weapon and ammunition shoots at him if he is in range, with probability rate * dt,
 *   hitting with probability hit * (1 - armour); a gunner's shot fails first with the
 *   misfire probability of the rain and damp (weather.c). The chosen victim is written
 *   in the attacker's slot.
 * resolve (serial, in slot order, which is the same at any thread count): every hit
 *   takes one unit of health from its victim; men at zero health are dead (combat).
 * Random draws are Philox(seed, id, step, RT_STREAM_FIGHT): pure functions. */
#include "world.h"

#include <math.h>

static bool can_be_targeted(uint8_t state)
{
	return rt__active(state) && state != RT_STATE_SURRENDERED;
}

static bool can_fight(uint8_t state)
{
	return state == RT_STATE_FORMED || state == RT_STATE_MARCHING || state == RT_STATE_ENGAGED ||
	       state == RT_STATE_DESPERATE;
}

/* A man going under this speed (m/s) stands: a gun is unlimbered, a man beside a kneeling
 * enemy is not riding past him (C5) */
#define STANDING_SPEED_MPS 0.1

static bool standing_still(const rt_agents *a, int i)
{
	return a->vx[i] * a->vx[i] + a->vy[i] * a->vy[i] < STANDING_SPEED_MPS * STANDING_SPEED_MPS;
}

static void fine_free(rt_world *w)
{
	rt_sense_grid *g = &w->sense;
	const size_t n = g->fine_allocated, per_side = n * (size_t)g->fine_sides;
	rt__free(&w->allocator, g->fine_key, n * sizeof(uint64_t));
	rt__free(&w->allocator, g->fine_men, per_side * sizeof(int));
	rt__free(&w->allocator, g->fine_routing, per_side * sizeof(int));
	rt__free(&w->allocator, g->fine_weight, per_side * sizeof(float));
	rt__free(&w->allocator, g->fine_deaths, per_side * sizeof(float));
	g->fine_key = NULL;
	g->fine_men = g->fine_routing = NULL;
	g->fine_weight = g->fine_deaths = NULL;
	g->fine_allocated = 0;
	g->fine_sides = 0;
}

void rt__sense_free(rt_world *w)
{
	rt_sense_grid *g = &w->sense;
	if (g->start) rt__free(&w->allocator, g->start, (g->allocated + 1) * sizeof(int));
	rt__free(&w->allocator, g->order, (size_t)g->capacity * sizeof(int));
	fine_free(w);
	if (g->sight_max) rt__free(&w->allocator, g->sight_max, g->sight_allocated * sizeof(float));
	memset(g, 0, sizeof *g);
	rt__free(&w->allocator, w->deaths, (size_t)w->death_capacity * sizeof(rt_death_event));
	w->deaths = NULL;
	w->death_count = w->death_capacity = 0;
}

/* Lays the grid over the box (x0, y0)-(x1, y1) for `sides` sides and `men` men. */
static rt_status sense_prepare(rt_world *w, double x0, double y0, double x1, double y1, int sides, int men, rt_error *err)
{
	rt_sense_grid *g = &w->sense;
	const double max_cells = fmax(4096.0, 2.0 * men);
	double width = fmax(x1 - x0, 1.0), height = fmax(y1 - y0, 1.0);
	double cell = fmax(w->def.combat.sense_cell_m, sqrt(width * height / max_cells));
	while ((floor(width / cell) + 1.0) * (floor(height / cell) + 1.0) > max_cells) cell *= 1.05;
	g->origin_x = x0;
	g->origin_y = y0;
	g->cell = cell;
	g->inv_cell = 1.0 / cell;
	g->nx = (int)floor(width / cell) + 1;
	g->ny = (int)floor(height / cell) + 1;
	g->cells = g->nx * g->ny;
	g->sides = sides;
	return rt__sense_reserve(w, 2 * (size_t)sides * (size_t)g->cells /* fightable and kneeling, per side */, err);
}

rt_status rt__sense_reserve(rt_world *w, size_t need, rt_error *err)
{
	rt_sense_grid *g = &w->sense;
	if (need > g->allocated) {
		size_t grow = need + need / 2;
		int *start = rt__alloc(&w->allocator, (grow + 1) * sizeof(int));
		if (!start) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the sense grid (%zu cells)", grow);
		if (g->start) {
			/* what the grid holds is kept: a checkpoint restores into it */
			memcpy(start, g->start, (g->allocated + 1) * sizeof(int));
			rt__free(&w->allocator, g->start, (g->allocated + 1) * sizeof(int));
		}
		g->start = start;
		g->allocated = grow;
	}
	if (g->capacity < w->agents.capacity) {
		int *order = rt__alloc(&w->allocator, (size_t)w->agents.capacity * sizeof(int));
		if (!order) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the sense order for %d men", w->agents.capacity);
		if (g->order) memcpy(order, g->order, (size_t)g->capacity * sizeof(int));
		rt__free(&w->allocator, g->order, (size_t)g->capacity * sizeof(int));
		g->order = order;
		g->capacity = w->agents.capacity;
	}
	return RT_OK;
}

/* The fine table of the local picture: room for `entries` cells of `sides` sides, at
 * most half full, emptied. */
static rt_status fine_prepare(rt_world *w, size_t entries, int sides, rt_error *err)
{
	rt_sense_grid *g = &w->sense;
	size_t capacity = 64;
	while (capacity < 2 * entries) capacity *= 2;
	if (capacity > g->fine_allocated || sides > g->fine_sides) {
		const size_t alloc = capacity > g->fine_allocated ? capacity : g->fine_allocated;
		const int stride = sides > g->fine_sides ? sides : g->fine_sides;
		fine_free(w);
		const size_t per_side = alloc * (size_t)stride;
		g->fine_key = rt__alloc(&w->allocator, alloc * sizeof(uint64_t));
		g->fine_men = rt__alloc(&w->allocator, per_side * sizeof(int));
		g->fine_routing = rt__alloc(&w->allocator, per_side * sizeof(int));
		g->fine_weight = rt__alloc(&w->allocator, per_side * sizeof(float));
		g->fine_deaths = rt__alloc(&w->allocator, per_side * sizeof(float));
		g->fine_allocated = alloc;
		g->fine_sides = stride;
		if (!g->fine_key || !g->fine_men || !g->fine_routing || !g->fine_weight || !g->fine_deaths) {
			fine_free(w);
			return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the local picture (%zu cells)", alloc);
		}
	}
	g->fine_capacity = capacity;
	g->fine_cell = w->def.combat.sense_cell_m;
	g->fine_inv = 1.0 / g->fine_cell;
	memset(g->fine_key, 0xff, capacity * sizeof(uint64_t));
	return RT_OK;
}

/* (cx, cy) in one word, the sign bits flipped so that no cell near the grid (cx = -1,
 * cy = -1 among them) packs to RT_FINE_EMPTY; only cx = cy = INT32_MAX would. */
static inline uint64_t fine_pack(int cx, int cy)
{
	return ((uint64_t)(uint32_t)cx | ((uint64_t)(uint32_t)cy << 32)) ^ 0x8000000080000000ull;
}

/* Fibonacci hashing: the top bits of the product, where both halves of the key (cx and
 * cy) have a say. (Until December 2026 it took bits 17 and up, which below 2^15 entries
 * came from cx alone: a column's cells fell on one run of the table, and the probes of
 * the local picture took a fifth of a Dalinghe run.) */
static inline size_t fine_hash(const rt_sense_grid *g, uint64_t key)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - __builtin_ctzll((unsigned long long)g->fine_capacity)));
}

/* The entry of cell key, -1 when nobody is in it. */
static inline ptrdiff_t fine_find(const rt_sense_grid *g, uint64_t key)
{
	for (size_t i = fine_hash(g, key);; i = (i + 1) & (g->fine_capacity - 1)) {
		if (g->fine_key[i] == key) return (ptrdiff_t)i;
		if (g->fine_key[i] == RT_FINE_EMPTY) return -1;
	}
}

/* The entry of cell key, claimed (its sums zeroed) when new. */
static size_t fine_claim(rt_sense_grid *g, uint64_t key)
{
	size_t i = fine_hash(g, key);
	while (g->fine_key[i] != key && g->fine_key[i] != RT_FINE_EMPTY) i = (i + 1) & (g->fine_capacity - 1);
	if (g->fine_key[i] == RT_FINE_EMPTY) {
		g->fine_key[i] = key;
		const size_t at = i * (size_t)g->fine_sides;
		for (int side = 0; side < g->fine_sides; ++side) {
			g->fine_men[at + side] = g->fine_routing[at + side] = 0;
			g->fine_weight[at + side] = g->fine_deaths[at + side] = 0.0f;
		}
	}
	return i;
}

static inline uint64_t fine_key_of(const rt_sense_grid *g, double x, double y)
{
	return fine_pack(rt__floor_int((x - g->origin_x) * g->fine_inv), rt__floor_int((y - g->origin_y) * g->fine_inv));
}

static inline int sense_cell(const rt_sense_grid *g, double x, double y)
{
	int cx = rt__floor_int((x - g->origin_x) * g->inv_cell), cy = rt__floor_int((y - g->origin_y) * g->inv_cell);
	cx = cx < 0 ? 0 : (cx >= g->nx ? g->nx - 1 : cx);
	cy = cy < 0 ? 0 : (cy >= g->ny ? g->ny - 1 : cy);
	return cy * g->nx + cx;
}

/* The nearest man of group `base + side` (side != own, in `mask`) within `range` of
 * (x, y): rings of cells outward over the union of those groups' boxes, until no nearer
 * man can exist. Ties go to the lower id. Returns a slot or -1. */
static int nearest_of(const rt_world *w, int base, unsigned mask, int own, double x, double y, double range,
		      const float *hidden_beyond, const float *cell_sight, double *dist)
{
	const rt_agents *a = &w->agents;
	const rt_sense_grid *g = &w->sense;
	const int cells = g->cells, nx = g->nx;
	const double cell = g->cell;
	const int max_ring = (int)ceil(range * g->inv_cell) + 1;
	const int cx = rt__floor_int((x - g->origin_x) * g->inv_cell), cy = rt__floor_int((y - g->origin_y) * g->inv_cell);
	double best2 = range * range;
	int best = -1;
	int ex0 = INT32_MAX, ey0 = INT32_MAX, ex1 = -1, ey1 = -1;
	for (int side = 0; side < g->sides; ++side) {
		const int *box = g->box[base + side];
		if (side == own || !(mask & (1u << side)) || box[2] < 0) continue;
		ex0 = box[0] < ex0 ? box[0] : ex0;
		ey0 = box[1] < ey0 ? box[1] : ey0;
		ex1 = box[2] > ex1 ? box[2] : ex1;
		ey1 = box[3] > ey1 ? box[3] : ey1;
	}
	if (ex1 < 0) return -1;
	/* rings from the nearest to the farthest cell of that box (Chebyshev) */
	const int gx = ex0 > cx ? ex0 - cx : (cx > ex1 ? cx - ex1 : 0);
	const int gy = ey0 > cy ? ey0 - cy : (cy > ey1 ? cy - ey1 : 0);
	const int first = gx > gy ? gx : gy;
	const int fx = cx - ex0 > ex1 - cx ? cx - ex0 : ex1 - cx, fy = cy - ey0 > ey1 - cy ? cy - ey0 : ey1 - cy;
	int last = fx > fy ? fx : fy;
	last = last < max_ring ? last : max_ring;
	for (int ring = first; ring <= last; ++ring) {
		/* every man in ring r is at least (r - 1) cells away */
		const double near = (ring - 1) * cell;
		if (ring > 1 && near * near > best2) break;
		const int ylo = cy - ring < ey0 ? ey0 : cy - ring, yhi = cy + ring > ey1 ? ey1 : cy + ring;
		const int xlo = cx - ring < ex0 ? ex0 : cx - ring, xhi = cx + ring > ex1 ? ex1 : cx + ring;
		for (int yy = ylo; yy <= yhi; ++yy) {
			const bool edge_row = yy == cy - ring || yy == cy + ring;
			/* the ring's cells only: whole top and bottom rows, two cells in between */
			for (int xx = edge_row ? xlo : cx - ring; xx <= (edge_row ? xhi : cx + ring);
			     xx += edge_row ? 1 : (ring > 0 ? 2 * ring : 1)) {
				if (xx < ex0 || xx > ex1) continue;
				/* in smoke, a cell none of whose men can be seen from here is passed over */
				double cell_gap = 0.0;
				if (cell_sight) {
					const double cx0 = g->origin_x + xx * cell, cy0 = g->origin_y + yy * cell;
					const double gx_ = x < cx0 ? cx0 - x : (x > cx0 + cell ? x - cx0 - cell : 0.0);
					const double gy_ = y < cy0 ? cy0 - y : (y > cy0 + cell ? y - cy0 - cell : 0.0);
					cell_gap = sqrt(gx_ * gx_ + gy_ * gy_);
				}
				for (int side = 0; side < g->sides; ++side) {
					if (side == own || !(mask & (1u << side))) continue;
					const int b = (base + side) * cells + yy * nx + xx;
					if (cell_sight && cell_gap > (double)cell_sight[b]) continue;
					for (int k = g->start[b]; k < g->start[b + 1]; ++k) {
						const int t = g->order[k];
						const double ex = a->x[t] - x, ey = a->y[t] - y;
						const double d2 = ex * ex + ey * ey;
						/* in smoke a man is seen only as near as the smoke round him allows */
						if (hidden_beyond && d2 > (double)hidden_beyond[t] * (double)hidden_beyond[t]) continue;
						if (d2 < best2 || (d2 == best2 && best >= 0 && a->id[t] < a->id[best])) {
							best2 = d2;
							best = t;
						}
					}
				}
			}
		}
	}
	*dist = best >= 0 ? sqrt(best2) : INFINITY;
	return best;
}

/* The local picture of every man who decides this step: friends and routing friends,
 * enemy strength and recent deaths within view_radius_m (M1-M4, contagion); at night,
 * the lights he takes for the enemy (E2, torch.c). */
static void local_picture(rt_world *w, const rt_lights *lights)
{
	rt_agents *a = &w->agents;
	const rt_sense_grid *g = &w->sense;
	const rt_morale_params *m = &w->def.morale;
	const int n = a->count, stride = g->fine_sides;
	const int reach = (int)ceil(m->view_radius_m * g->fine_inv - 0.5);
	const double memory = m->death_memory_s;
	int64_t alarms = 0;
	/* The sums over the square depend on the man's cell and side alone: men are taken in
	 * chunks of slots (stored in the crowd grid's order, so that a chunk's men stand
	 * together), and each chunk keeps the sums of the last cells and sides it summed, a
	 * small table by the cell's hash; a man whose cell and side are in it takes them. The
	 * same bits as summing again, at any thread count: the chunks do not depend on the
	 * threads, and a sum is only ever reused whole. */
	enum { CHUNK = 256, MEMO = 64 };
	const int chunks = (n + CHUNK - 1) / CHUNK;
	RT_PARALLEL_FOR(RT_PARALLEL(n), (schedule(static) num_threads(w->threads) reduction(+ : alarms)),
	for (int chunk = 0; chunk < chunks; ++chunk) {
		uint64_t memo_key[MEMO];
		int memo_own[MEMO];
		double memo_sum[MEMO][4];
		for (int k = 0; k < MEMO; ++k) memo_own[k] = -1;
		const int end = chunk * CHUNK + CHUNK < n ? chunk * CHUNK + CHUNK : n;
		for (int s = chunk * CHUNK; s < end; ++s) {
			if (!rt__active(a->state[s]) || !rt__agent_due(w, s)) continue;
			const int own = a->side[s];
			const int cx = rt__floor_int((a->x[s] - g->origin_x) * g->fine_inv), cy = rt__floor_int((a->y[s] - g->origin_y) * g->fine_inv);
			const uint64_t key = fine_pack(cx, cy);
			const int slot = (int)(((key + (uint64_t)own) * 0x9E3779B97F4A7C15ull) >> 58); /* MEMO = 2^6 */
			double *sum = memo_sum[slot];
			if (memo_own[slot] != own || memo_key[slot] != key) {
				double f = 0.0, r = 0.0, en = 0.0, de = 0.0;
				for (int yy = cy - reach; yy <= cy + reach; ++yy)
					for (int xx = cx - reach; xx <= cx + reach; ++xx) {
						const ptrdiff_t e = fine_find(g, fine_pack(xx, yy));
						if (e < 0) continue;
						const size_t at = (size_t)e * (size_t)stride;
						for (int side = 0; side < g->sides; ++side) {
							if (side == own) {
								f += g->fine_men[at + side];
								r += g->fine_routing[at + side];
								de += g->fine_deaths[at + side];
							} else {
								en += g->fine_weight[at + side];
							}
						}
					}
				memo_key[slot] = key;
				memo_own[slot] = own;
				sum[0] = f;
				sum[1] = r;
				sum[2] = en;
				sum[3] = de;
			}
			double friends = sum[0], routing = sum[1], enemy = sum[2], deaths = sum[3];
			if (lights) {
				int light = -1;
				enemy += rt__lights_feared(w, lights, s, &light);
				const int32_t alarm = light >= 0 ? (int32_t)a->id[light] : -1;
				alarms += alarm >= 0 && a->alarm[s] < 0;
				a->alarm[s] = alarm;
			}
			friends = friends > 1.0 ? friends - 1.0 : 0.0; /* not himself */
			if (a->state[s] == RT_STATE_ROUTING && routing >= 1.0) routing -= 1.0;
			a->threat[s] = (float)(enemy / (friends + 1.0));
			a->routing_share[s] = friends > 0.0 ? (float)(routing / friends) : 0.0f;
			a->deaths_seen[s] = (float)(deaths / memory); /* deaths a second, as remembered */
		}
	});
	w->torch_alarms += alarms;
}

bool rt__surrounded(const rt_world *w, int slot, double radius, const uint8_t *routing)
{
	/* enemies (men who can fight) in all four quarters round him within the radius:
	 * rings of the sense grid outward until every quarter has one */
	const rt_sense_grid *g = &w->sense;
	const rt_agents *a = &w->agents;
	if (!g->start || g->cells == 0) return false;
	const double x = a->x[slot], y = a->y[slot];
	const int own = a->side[slot], nx = g->nx, ny = g->ny;
	const int cx = rt__floor_int((x - g->origin_x) * g->inv_cell), cy = rt__floor_int((y - g->origin_y) * g->inv_cell);
	const int rings = (int)ceil(radius * g->inv_cell);
	unsigned quarters = 0;
	for (int ring = 0; ring <= rings && quarters != 15u; ++ring)
		for (int yy = cy - ring; yy <= cy + ring; ++yy) {
			if (yy < 0 || yy >= ny) continue;
			const bool edge_row = yy == cy - ring || yy == cy + ring;
			for (int xx = cx - ring; xx <= cx + ring; xx += edge_row ? 1 : (ring > 0 ? 2 * ring : 1)) {
				if (xx < 0 || xx >= nx) continue;
				for (int side = 0; side < g->sides; ++side) {
					if (side == own) continue;
					const int b = side * g->cells + yy * nx + xx;
					for (int k = g->start[b]; k < g->start[b + 1]; ++k) {
						const int t = g->order[k];
						if (routing ? routing[t] != 0 : a->state[t] == RT_STATE_ROUTING) continue;
						const double dx = a->x[t] - x, dy = a->y[t] - y;
						if (dx * dx + dy * dy > radius * radius) continue;
						quarters |= 1u << ((dx >= 0.0 ? 1 : 0) | (dy >= 0.0 ? 2 : 0));
					}
				}
			}
		}
	return quarters == 15u;
}

rt_status rt__sense(rt_world *w, rt_error *err)
{
	rt_agents *a = &w->agents;
	const int n = a->count;
	/* which sides are present, where, and is anyone routing? with one side, nobody
	 * routing and no death in mind there is nothing to sense */
	unsigned present = 0, kneeling = 0;
	int routing_anywhere = 0;
	int men = 0, top_side = 0;
	double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
	/* or, min and max do not depend on the order: the same result at any thread count */
	RT_PARALLEL_FOR(RT_PARALLEL(n), (schedule(static) num_threads(w->threads) reduction(| : present, kneeling, routing_anywhere) reduction(+ : men) reduction(max : top_side, x1, y1) reduction(min : x0, y0)),
	for (int s = 0; s < n; ++s) {
		if (!rt__active(a->state[s])) continue;
		if (a->state[s] == RT_STATE_SURRENDERED) kneeling |= 1u << a->side[s];
		else present |= 1u << a->side[s];
		routing_anywhere |= a->state[s] == RT_STATE_ROUTING;
		top_side = a->side[s] > top_side ? a->side[s] : top_side;
		x0 = a->x[s] < x0 ? a->x[s] : x0;
		y0 = a->y[s] < y0 ? a->y[s] : y0;
		x1 = a->x[s] > x1 ? a->x[s] : x1;
		y1 = a->y[s] > y1 ? a->y[s] : y1;
		men++;
	});
	/* forget the dead of long ago */
	const double memory = w->def.morale.death_memory_s, dt = w->def.dt_s;
	int kept = 0;
	for (int i = 0; i < w->death_count; ++i)
		if ((double)(w->step - w->deaths[i].step) * dt < memory) w->deaths[kept++] = w->deaths[i];
	w->death_count = kept;
	/* E2: at night, lights that may be taken for the enemy */
	rt_lights lights;
	rt_status st = rt__lights_prepare(w, &lights, err);
	if (st != RT_OK) return st;
	w->torch_on = lights.count > 0;
	const bool several_sides = ((present | kneeling) & ((present | kneeling) - 1)) != 0;
	if (men == 0 || (!several_sides && !routing_anywhere && w->death_count == 0 && !w->torch_on)) {
		/* nothing to sense: clear what men knew, once */
		if (w->sense_idle_count == n) return RT_OK;
		w->sense_idle_count = n;
		for (int s = 0; s < n; ++s) {
			a->enemy[s] = -1;
			a->enemy_dist[s] = INFINITY;
			a->threat[s] = a->routing_share[s] = a->deaths_seen[s] = 0.0f;
			a->prize[s] = -1;
		}
		return RT_OK;
	}
	w->sense_idle_count = -1;
	st = sense_prepare(w, x0, y0, x1, y1, top_side + 1, men, err);
	if (st != RT_OK) return st;
	rt_sense_grid *g = &w->sense;
	const int cells = g->cells;
	/* groups: 0..sides-1 the men who can be fought, sides..2 sides-1 the kneeling */
	const int groups = 2 * g->sides;
	const size_t all = (size_t)groups * (size_t)cells;
	int *start = g->start;
	int *bucket = rt__arena_push(&w->arena, (size_t)n * sizeof(int));
	if (!bucket) return rt__fail(err, RT_ERR_NOMEM, "step scratch exhausted in sense");
	memset(start, 0, (all + 1) * sizeof(int));
	if ((st = fine_prepare(w, (size_t)men + (size_t)w->death_count, g->sides, err)) != RT_OK) return st;
	const int stride = g->fine_sides;
	const float horse = (float)w->def.morale.horse_threat_weight;
	for (int group = 0; group < 2 * RT_MAX_SIDES; ++group) {
		g->box[group][0] = g->box[group][1] = INT32_MAX;
		g->box[group][2] = g->box[group][3] = -1;
	}
	for (int s = 0; s < n; ++s) {
		const int group = a->side[s] + (a->state[s] == RT_STATE_SURRENDERED ? g->sides : 0);
		bucket[s] = rt__active(a->state[s]) ? group * cells + sense_cell(g, a->x[s], a->y[s]) : -1;
		if (bucket[s] < 0) continue;
		start[bucket[s] + 1]++;
		{
			const int c = bucket[s] - group * cells, cx = c % g->nx, cy = c / g->nx;
			int *box = g->box[group];
			box[0] = cx < box[0] ? cx : box[0];
			box[1] = cy < box[1] ? cy : box[1];
			box[2] = cx > box[2] ? cx : box[2];
			box[3] = cy > box[3] ? cy : box[3];
		}
		if (a->state[s] == RT_STATE_SURRENDERED) continue;
		/* the local picture: a routing man threatens nobody, nor one marching off after
		 * his commander (his back is turned); a rider threatens most */
		const size_t at = fine_claim(g, fine_key_of(g, a->x[s], a->y[s])) * (size_t)stride + (size_t)a->side[s];
		g->fine_men[at]++;
		if (a->state[s] == RT_STATE_ROUTING) g->fine_routing[at]++;
		else if (!rt__marching_off(w, s)) g->fine_weight[at] += a->mount[s] ? horse : 1.0f;
	}
	/* deaths in mind, fading linearly with age */
	for (int i = 0; i < w->death_count; ++i) {
		const rt_death_event *e = &w->deaths[i];
		if (e->side >= g->sides || e->x < g->origin_x || e->y < g->origin_y || e->x >= g->origin_x + g->nx * g->cell ||
		    e->y >= g->origin_y + g->ny * g->cell)
			continue; /* no man stands near enough to have seen it */
		const double age = (double)(w->step - e->step) * dt;
		g->fine_deaths[fine_claim(g, fine_key_of(g, e->x, e->y)) * (size_t)stride + e->side] += (float)(1.0 - age / memory);
	}
	const int buckets = groups * cells;
	for (int b = 0; b < buckets; ++b) start[b + 1] += start[b];
	/* stable fill: walk slots in order, writing at the running start (then restore) */
	for (int s = 0; s < n; ++s)
		if (bucket[s] >= 0) g->order[start[bucket[s]]++] = s;
	for (int b = buckets; b > 0; --b) start[b] = start[b - 1];
	start[0] = 0;

	local_picture(w, w->torch_on ? &lights : NULL);
	if (!several_sides) {
		for (int s = 0; s < n; ++s) {
			a->enemy[s] = -1;
			a->enemy_dist[s] = INFINITY;
		}
		return RT_OK;
	}

	/* a man sees no farther than the light allows (E1), nor through smoke (E4): sight
	 * in the smoke round each man, which bounds both what he sees and who sees him */
	const double range = fmin(w->def.combat.sense_range_m, w->env.detection_range_m);
	const double advance_range = w->def.combat.advance_range_m;
	const double watch = fmin(w->def.combat.contain_watch_m, w->env.detection_range_m);
	const int kneel_base = g->sides;
	float *sight = NULL;
	if (rt__smoke_anywhere(w)) {
		sight = rt__arena_push(&w->arena, (size_t)n * sizeof(float));
		if (!sight) return rt__fail(err, RT_ERR_NOMEM, "step scratch exhausted in sense");
		RT_PARALLEL_FOR(RT_PARALLEL(n), (schedule(static) num_threads(w->threads)),
		for (int s = 0; s < n; ++s) sight[s] = (float)fmin(range, rt__smoke_detection_m(w, a->x[s], a->y[s]));
		);
		/* per (side, cell), the farthest its men can be seen from: whole cells of men
		 * hidden in smoke are skipped in the search */
		const size_t fightable = (size_t)g->sides * (size_t)cells;
		if (g->sight_allocated < fightable) {
			float *grown = rt__alloc(&w->allocator, fightable * sizeof(float));
			if (!grown) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate sight in smoke for %zu cells", fightable);
			if (g->sight_max) rt__free(&w->allocator, g->sight_max, g->sight_allocated * sizeof(float));
			g->sight_max = grown;
			g->sight_allocated = fightable;
		}
		memset(g->sight_max, 0, fightable * sizeof(float));
		for (int s = 0; s < n; ++s)
			if (bucket[s] >= 0 && (size_t)bucket[s] < fightable && sight[s] > g->sight_max[bucket[s]]) g->sight_max[bucket[s]] = sight[s];
	}
	RT_PARALLEL_FOR(RT_PARALLEL(n), (schedule(static) num_threads(w->threads)),
	for (int s = 0; s < n; ++s) {
		if (!rt__active(a->state[s]) || !rt__agent_due(w, s)) continue;
		double d = INFINITY, dk = INFINITY;
		/* M7: a man of the ring watches the men he contains out past the ring's distance,
		 * as far as the light lets him (not through smoke) */
		const double own_range = sight ? (double)sight[s]
					       : (a->stance[s] == RT_STANCE_CONTAIN ? fmax(range, watch) : range);
		const int best = nearest_of(w, 0, present, a->side[s], a->x[s], a->y[s], own_range, sight, sight ? g->sight_max : NULL, &d);
		a->enemy[s] = best >= 0 ? (int32_t)a->id[best] : -1;
		a->enemy_dist[s] = (float)d;
		/* C5: with no one to fight near, an advancing man goes to collect the kneeling */
		int prize = -1;
		if (kneeling && a->stance[s] == RT_STANCE_ADVANCE && can_fight(a->state[s]) && d > advance_range)
			prize = nearest_of(w, kneel_base, kneeling, a->side[s], a->x[s], a->y[s], w->def.combat.collect_range_m, NULL, NULL, &dk);
		a->prize[s] = prize >= 0 ? (int32_t)a->id[prize] : -1;
	});
	return RT_OK;
}

#define COVER_REACH_M 20.0 /* a wall farther than this from the target shelters him no more */

/* Whether a wall or wagon within COVER_REACH_M of the target stands between him and the
 * shooter: the line of fire is walked back from the target a wall-grid cell at a time. */
static bool covered(const rt_world *w, double sx, double sy, double tx, double ty)
{
	const rt_geometry *g = &w->geometry;
	if (g->item_count == 0) return false;
	const double dx = sx - tx, dy = sy - ty, len = sqrt(dx * dx + dy * dy);
	if (len <= 0.0) return false;
	const double reach = fmin(len, COVER_REACH_M);
	for (double along = 0.0; along <= reach + g->cell; along += g->cell) {
		const double f = fmin(along, reach) / len;
		int count = 0;
		const int *walls = rt__geometry_near(g, tx + f * dx, ty + f * dy, &count);
		for (int m = 0; m < count; ++m)
			if (rt__segment_segment_distance(&g->walls[walls[m]], sx, sy, tx, ty) == 0.0) return true;
	}
	return false;
}

/* What a man did to his enemy this step, in his victim slot: the enemy's id and these
 * flags. Resolve applies them in slot order and leaves the id alone. */
#define BLOW_ID 0x0fffffff
#define BLOW_HIT (1 << 28)    /* a disabling blow or shot */
#define BLOW_CHARGE (1 << 29) /* a rider's first blow at a charge: the man charged is shaken */
#define BLOW_CANNON (1 << 30) /* a gun fired at him: resolve follows the ball or canister */
_Static_assert(BLOW_ID >= (1 << 28) - 1, "agent ids fit below the flags");

/* What the fight phase reads, once per step. */
typedef struct fight_ctx {
	double dt, armour, desperate, cover, misfire, charge_span, rear_hit;
	float fade;
	uint64_t seed, step;
	bool any_riders, any_guns, any_corps;
} fight_ctx;

/* One man's blow or shot (the fight phase's loop body). `special`: riders, guns or corps
 * are in the world; without, the phase reads only what plain fighting needs. */
static inline __attribute__((always_inline)) void fight_one(rt_world *w, const fight_ctx *c, int s, bool special, int64_t *shots, int64_t *misfires,
			     int64_t *cannon_shots)
{
	rt_agents *a = &w->agents;
	const rt_combat_params *cp = &w->def.combat;
	const double dt = c->dt, armour = c->armour, desperate = c->desperate, cover = c->cover, misfire = c->misfire;
	const double charge_span = c->charge_span;
	const float fade = c->fade;
	const uint64_t seed = c->seed, step = c->step;
	const bool any_riders = special && c->any_riders, any_guns = special && c->any_guns, any_corps = special && c->any_corps;
	a->victim[s] = -1;
	const bool rides = any_riders && a->mount[s]; /* only riders are told apart here */
	if (rides) {
		/* the charge: the speed a rider carries into contact, fading as he slows */
		const float speed = (float)sqrt(a->vx[s] * a->vx[s] + a->vy[s] * a->vy[s]);
		const float kept = a->impetus[s] * fade;
		a->impetus[s] = speed > kept ? speed : kept;
	}
	const bool gun = any_guns && (a->equipment[s] & RT_EQUIP_CANNON) != 0;
	if (gun && a->reload[s] > 0.0f) a->reload[s] = (float)fmax(0.0, a->reload[s] - dt); /* the crew loads */
	if (!can_fight(a->state[s]) || a->stance[s] == RT_STANCE_CARRIED) return;
	/* M4: a man marching off after his fled commander is in flight, not in battle: he
	 * strikes no one, even one standing in his way ("几乎是引颈受戮", seed 003; the Qing
	 * lost none killed, HISTORY.md). Cornered he turns desperate and fights (M7); his
	 * commander's guards and rearguard fight for him (M6, M8) */
	if (any_corps && !rt__retinue_stance(a->stance[s]) && rt__marching_off(w, s)) return;
	/* C6: a guard with his commander on his shoulders strikes no one */
	if (any_corps && a->stance[s] == RT_STANCE_GUARD && a->corps[s] >= 0 && w->corps[a->corps[s]].carrier == (int32_t)a->id[s])
		return;
	/* engaged only while an enemy is in reach */
	const bool was_engaged = a->state[s] == RT_STATE_ENGAGED;
	if (was_engaged) a->state[s] = RT_STATE_FORMED;
	if (a->enemy[s] < 0) return;
	const int t = (int)w->slot_of_id[a->enemy[s]];
	if (!can_be_targeted(a->state[t])) return; /* he fell or knelt since he was sensed */
	const rt_kind_params *kp = &w->def.kinds[a->kind[s]];
	const double ex = a->x[t] - a->x[s], ey = a->y[t] - a->y[s];
	const double dist = sqrt(ex * ex + ey * ey);
	const double protect = (a->equipment[t] & RT_EQUIP_ARMOUR) ? 1.0 - armour : 1.0;
	const rt_random4 r = rt_random_bits(seed, a->id[s], step, RT_STREAM_FIGHT);
	const double u0 = (double)r.v[0] * (1.0 / 4294967296.0), u1 = (double)r.v[1] * (1.0 / 4294967296.0);
	const double gap = dist - a->radius[s] - a->radius[t];
	/* facing: a man going away from his enemy does not strike or shoot at him; a man
	 * whose back is to his attacker is struck unguarded. No man's marching or routing
	 * changes in this phase (a marching man who strikes is engaged in resolve), so the
	 * target's state read here is the same at any thread count. */
	if (rt__behind(w, s, ex, ey)) return;
	/* M7: a man of the ring shoots at no one and strikes only who comes within his reach */
	if (a->stance[s] == RT_STANCE_CONTAIN && !((a->equipment[s] & RT_EQUIP_WEAPON) && gap <= kp->melee_reach_m)) return;
	const double rear = rt__behind(w, t, -ex, -ey) ? c->rear_hit : 1.0;
	if ((a->equipment[s] & RT_EQUIP_WEAPON) && gap <= kp->melee_reach_m) {
		if (a->state[s] == RT_STATE_FORMED) a->state[s] = RT_STATE_ENGAGED;
		const double fury = a->state[s] == RT_STATE_DESPERATE ? desperate : 1.0; /* M7 */
		double p = kp->melee_rate_per_s * dt * fmin(1.0, kp->melee_hit_prob * fury * rear) * protect;
		int32_t blow = 0;
		if (rides && !was_engaged && a->impetus[s] > cp->charge_walk_mps) {
			/* the charge: his first blow carries his horse's weight; formed foot (spear
			 * and sword men in their ranks, not on horseback) and a wagon or wall between
			 * blunt it. The strength is left (negated) in his impetus for resolve, which
			 * shakes the man charged */
			double strength = fmin(1.0, (a->impetus[s] - cp->charge_walk_mps) / charge_span);
			const uint8_t ts = a->state[t];
			if ((a->kind[t] == RT_KIND_FOOT || a->kind[t] == RT_KIND_GUARD) && !a->mount[t] &&
			    (ts == RT_STATE_FORMED || ts == RT_STATE_ENGAGED ||
			     (ts == RT_STATE_MARCHING && a->stance[t] == RT_STANCE_WITHDRAW))) /* M5: in order */
				strength *= cp->charge_formed_factor;
			if (covered(w, a->x[s], a->y[s], a->x[t], a->y[t])) strength = 0.0;
			if (strength > 0.0) {
				p = fmax(p, strength * cp->charge_hit_prob * protect);
				blow = BLOW_CHARGE;
				a->impetus[s] = (float)-strength;
			}
		}
		if (u0 < p) blow |= BLOW_HIT;
		a->victim[s] = a->enemy[s] | blow; /* hit or not: resolve engages a marching man who struck */
	} else if (gun) {
		/* a gun: loaded, unlimbered (standing), with rounds left and the enemy in range */
		if (a->reload[s] <= 0.0f && standing_still(a, s) && a->ammunition[s] > 0 && dist <= cp->cannon_range_m) {
			a->ammunition[s]--;
			a->reload[s] = (float)cp->cannon_reload_s;
			if (misfire > 0.0 && (double)r.v[2] * (1.0 / 4294967296.0) < misfire) {
				(*misfires)++; /* wet powder */
			} else {
				(*cannon_shots)++;
				a->victim[s] = a->enemy[s] | BLOW_CANNON;
			}
		}
	} else if (kp->missile_range_m > 0.0 && a->ammunition[s] > 0 && dist <= kp->missile_range_m) {
		if (u0 < kp->missile_rate_per_s * dt) {
			a->ammunition[s]--;
			(*shots)++;
			const double shelter = covered(w, a->x[s], a->y[s], a->x[t], a->y[t]) ? 1.0 - cover : 1.0; /* M5 */
			if (misfire > 0.0 && a->kind[s] == RT_KIND_GUNNER &&
			    (double)r.v[2] * (1.0 / 4294967296.0) < misfire) (*misfires)++; /* wet powder, dead match */
			else if (u1 < fmin(1.0, kp->missile_hit_prob * rear) * protect * shelter) a->victim[s] = a->enemy[s] | BLOW_HIT;
		}
	}
}

void rt__fight(rt_world *w)
{
	const int n = w->agents.count;
	const rt_combat_params *cp = &w->def.combat;
	fight_ctx c;
	c.dt = w->def.dt_s;
	c.armour = cp->armour_protection;
	c.desperate = cp->desperate_factor;
	c.cover = cp->cover;
	c.rear_hit = cp->rear_hit_factor;
	c.misfire = w->env.misfire_probability; /* rain and damp (weather.c); 0 in dry weather */
	c.fade = (float)exp(-c.dt / cp->charge_memory_s);
	c.charge_span = cp->charge_full_mps - cp->charge_walk_mps;
	c.seed = w->def.seed;
	c.step = (uint64_t)w->step;
	c.any_riders = w->riders > 0;
	c.any_guns = w->guns > 0;
	c.any_corps = w->corps_count > 0;
	int64_t shots = 0, misfires = 0, cannon_shots = 0;
	const bool special = c.any_riders || c.any_guns || c.any_corps;
	RT_PARALLEL_REGION(RT_PARALLEL(n), (num_threads(w->threads) reduction(+ : shots, misfires, cannon_shots)),
	{
		const fight_ctx own = c; /* each thread's copy: nothing the loop writes can alias it */
		if (special) {
			_Pragma("omp for schedule(static)")
			for (int s = 0; s < n; ++s) fight_one(w, &own, s, true, &shots, &misfires, &cannon_shots);
		} else {
			_Pragma("omp for schedule(static)")
			for (int s = 0; s < n; ++s) fight_one(w, &own, s, false, &shots, &misfires, &cannon_shots);
		}
	});
	w->shots += shots;
	w->misfires += misfires;
	w->cannon_shots += cannon_shots;
}

/* A disabling blow or shot: one unit of health; a commander, with probability
 * wound_share, is felled but not killed the first time (C6: he must be carried). */
static void disable(rt_world *w, int t)
{
	rt_agents *a = &w->agents;
	if (a->kind[t] == RT_KIND_COMMANDER && a->health[t] >= 1.0f &&
	    rt_random_uniform(w->def.seed, a->id[t], (uint64_t)w->step, RT_STREAM_WOUND) < w->def.command.wound_share) {
		a->health[t] = 0.5f;
		w->wounded++;
		return;
	}
	a->health[t] -= 1.0f;
}

/* A charge strikes home on the man in slot t: he and the men of his side within
 * charge_shock_radius_m of him (as the sense grid holds them) lose `shock` of morale. */
static void charge_shock(rt_world *w, int t, double shock)
{
	rt_agents *a = &w->agents;
	const rt_sense_grid *g = &w->sense;
	const double radius = w->def.combat.charge_shock_radius_m;
	a->morale[t] = (float)fmax(0.0, a->morale[t] - shock);
	if (radius <= 0.0 || !g->start || g->cells == 0 || a->side[t] >= g->sides) return;
	const double x = a->x[t], y = a->y[t];
	const int x0 = rt__floor_int((x - radius - g->origin_x) * g->inv_cell), x1 = rt__floor_int((x + radius - g->origin_x) * g->inv_cell);
	const int y0 = rt__floor_int((y - radius - g->origin_y) * g->inv_cell), y1 = rt__floor_int((y + radius - g->origin_y) * g->inv_cell);
	for (int cy = y0 < 0 ? 0 : y0; cy <= (y1 < g->ny ? y1 : g->ny - 1); ++cy)
		for (int cx = x0 < 0 ? 0 : x0; cx <= (x1 < g->nx ? x1 : g->nx - 1); ++cx) {
			const int b = a->side[t] * g->cells + cy * g->nx + cx;
			for (int k = g->start[b]; k < g->start[b + 1]; ++k) {
				const int f = g->order[k];
				if (f == t || !rt__active(a->state[f])) continue;
				const double dx = a->x[f] - x, dy = a->y[f] - y;
				if (dx * dx + dy * dy <= radius * radius) a->morale[f] = (float)fmax(0.0, a->morale[f] - shock);
			}
		}
}

#define GUN_MEN_MAX 256 /* men a ball or canister can reach in one shot, nearest first */

typedef struct gun_line {
	double gx, gy, ux, uy;  /* the gun and the unit direction of the shot */
	double length;          /* how far along it men are looked at, m */
	double half_width;      /* beside the line at the muzzle, m */
	double spread;          /* ... widening by this per metre along (canister: tan of its half-angle) */
	int side;               /* the gun's side: its men are not hit */
} gun_line;

typedef struct gun_target {
	double along, beside;
	int slot;
} gun_target;

/* Calls visit(slot, along, beside) for every enemy of the gun who can be fought (active,
 * not kneeling) within the band of the line: 0 < along <= length and |beside| <= half_width
 * + spread along. Men are found in the sense grid's cells over the band's box, where they
 * stood at the sense phase (a cell of slack covers what they moved since). */
static void gun_band(const rt_world *w, const gun_line *l, void (*visit)(void *, int, double, double), void *context)
{
	const rt_sense_grid *g = &w->sense;
	const rt_agents *a = &w->agents;
	if (!g->start || g->cells == 0) return;
	const double reach = l->half_width + l->spread * l->length + g->cell;
	const double ex = l->gx + l->ux * l->length, ey = l->gy + l->uy * l->length;
	const int x0 = rt__floor_int((fmin(l->gx, ex) - reach - g->origin_x) * g->inv_cell);
	const int x1 = rt__floor_int((fmax(l->gx, ex) + reach - g->origin_x) * g->inv_cell);
	const int y0 = rt__floor_int((fmin(l->gy, ey) - reach - g->origin_y) * g->inv_cell);
	const int y1 = rt__floor_int((fmax(l->gy, ey) + reach - g->origin_y) * g->inv_cell);
	for (int cy = y0 < 0 ? 0 : y0; cy <= (y1 < g->ny ? y1 : g->ny - 1); ++cy)
		for (int cx = x0 < 0 ? 0 : x0; cx <= (x1 < g->nx ? x1 : g->nx - 1); ++cx) {
			/* cells whose centre lies far off the band are passed over */
			const double mx = g->origin_x + (cx + 0.5) * g->cell - l->gx, my = g->origin_y + (cy + 0.5) * g->cell - l->gy;
			const double c_along = mx * l->ux + my * l->uy, c_beside = fabs(mx * l->uy - my * l->ux);
			if (c_along < -g->cell || c_along > l->length + g->cell ||
			    c_beside > l->half_width + l->spread * fmax(0.0, c_along) + g->cell)
				continue;
			for (int side = 0; side < g->sides; ++side) {
				if (side == l->side) continue;
				const int b = side * g->cells + cy * g->nx + cx;
				for (int k = g->start[b]; k < g->start[b + 1]; ++k) {
					const int t = g->order[k];
					if (!can_be_targeted(a->state[t])) continue;
					const double dx = a->x[t] - l->gx, dy = a->y[t] - l->gy;
					const double along = dx * l->ux + dy * l->uy, beside = fabs(dx * l->uy - dy * l->ux);
					if (along <= 0.0 || along > l->length || beside > l->half_width + l->spread * along + a->radius[t]) continue;
					visit(context, t, along, beside);
				}
			}
		}
}

typedef struct gun_nearest {
	gun_target men[GUN_MEN_MAX];
	int count;
	const rt_world *w;
	double lane; /* roundshot: only men whose body the line crosses */
} gun_nearest;

/* Keeps the GUN_MEN_MAX nearest along the line (ties by id), sorted. */
static void keep_nearest(void *context, int t, double along, double beside)
{
	gun_nearest *n = context;
	const rt_agents *a = &n->w->agents;
	if (n->lane >= 0.0 && beside > a->radius[t] + n->lane) return;
	int at = n->count;
	while (at > 0 && (n->men[at - 1].along > along || (n->men[at - 1].along == along && a->id[n->men[at - 1].slot] > a->id[t]))) at--;
	if (at >= GUN_MEN_MAX) return;
	const int last = n->count < GUN_MEN_MAX ? n->count : GUN_MEN_MAX - 1;
	for (int k = last; k > at; --k) n->men[k] = n->men[k - 1];
	n->men[at] = (gun_target){ along, beside, t };
	if (n->count < GUN_MEN_MAX) n->count++;
}

typedef struct gun_shock {
	rt_world *w;
	double shock;
} gun_shock;

static void shake(void *context, int t, double along, double beside)
{
	(void)along;
	(void)beside;
	gun_shock *g = context;
	float *m = &g->w->agents.morale[t];
	*m = (float)fmax(0.0, *m - g->shock);
}

/* A gun in slot s fires at the man with id target: roundshot along a line that may
 * strike several men, or canister in a cone when he is near; the men near its path are
 * shaken (docs/model.md section 8). Serial (resolve). */
static void gunshot(rt_world *w, int s, int32_t target, int64_t *hits)
{
	rt_agents *a = &w->agents;
	const rt_combat_params *cp = &w->def.combat;
	const int t = (int)w->slot_of_id[target];
	const double dx = a->x[t] - a->x[s], dy = a->y[t] - a->y[s], d = sqrt(dx * dx + dy * dy);
	if (d <= 0.0) return;
	const rt_random4 r = rt_random_bits(w->def.seed, a->id[s], (uint64_t)w->step, RT_STREAM_CANNON);
	const double pi = 3.14159265358979323846;
	const double error = cp->cannon_aim_error_deg * pi / 180.0 * ((double)r.v[0] * (1.0 / 4294967296.0) * 2.0 - 1.0);
	const double ce = cos(error), se = sin(error);
	const double ux = (dx * ce - dy * se) / d, uy = (dx * se + dy * ce) / d;
	const bool canister = d <= cp->canister_range_m;
	gun_line line = { a->x[s], a->y[s], ux, uy, canister ? cp->canister_range_m : cp->cannon_range_m, 0.0,
			  canister ? tan(cp->canister_half_angle_deg * pi / 180.0) : 0.0, a->side[s] };
	gun_nearest nearest; /* 6 KiB on the stack of the serial resolve */
	gun_nearest *near = &nearest;
	near->count = 0;
	near->w = w;
	near->lane = canister ? -1.0 : 0.0;
	gun_band(w, &line, keep_nearest, near);
	const double cover = cp->cover;
	double balls = cp->canister_balls, reached = line.length;
	int crossed = 0;
	for (int k = 0; k < near->count; ++k) {
		const gun_target *m = &near->men[k];
		const double u = (double)rt_random_bits(w->def.seed, a->id[s], (uint64_t)w->step, RT_STREAM_CANNON + 1 + (k >> 2)).v[k & 3] *
				 (1.0 / 4294967296.0);
		const double shelter = covered(w, line.gx, line.gy, a->x[m->slot], a->y[m->slot]) ? 1.0 - cover : 1.0;
		double p;
		if (canister) {
			/* balls spread evenly over the cone's width here; the share his body covers
			 * strike him, and stop there */
			const double width = fmax(2.0 * a->radius[m->slot], 2.0 * line.spread * m->along);
			const double share = fmin(1.0, 2.0 * a->radius[m->slot] / width);
			p = 1.0 - pow(1.0 - share * cp->canister_ball_hit_prob, balls);
			balls -= balls * share;
		} else {
			p = cp->cannon_ball_hit_prob;
			if (++crossed >= (int)cp->cannon_ball_men) reached = m->along; /* the ball is spent */
		}
		if (u < p * shelter) {
			disable(w, m->slot);
			(*hits)++;
		}
		if (!canister && crossed >= (int)cp->cannon_ball_men) break;
	}
	/* the fright of it: everyone near its path */
	gun_shock shock = { w, cp->cannon_morale_shock };
	line.length = reached;
	line.half_width = cp->cannon_shock_radius_m;
	if (shock.shock > 0.0 && line.half_width > 0.0) gun_band(w, &line, shake, &shock);
}

rt_status rt__resolve(rt_world *w, rt_error *err)
{
	rt_agents *a = &w->agents;
	const int n = a->count;
	int64_t hits = 0;
	int64_t charges = 0;
	/* serial, in slot order: the same order at any thread count */
	for (int s = 0; s < n; ++s) {
		const int32_t blow = a->victim[s];
		if (blow < 0) continue;
		const int32_t id = blow & BLOW_ID;
		a->victim[s] = id;
		if (a->state[s] == RT_STATE_MARCHING && !(blow & BLOW_CANNON)) {
			/* a marching man who struck in melee (not one who shot) is engaged */
			const int t = (int)w->slot_of_id[id];
			const double gap = hypot(a->x[t] - a->x[s], a->y[t] - a->y[s]) - a->radius[s] - a->radius[t];
			if ((a->equipment[s] & RT_EQUIP_WEAPON) && gap <= w->def.kinds[a->kind[s]].melee_reach_m) a->state[s] = RT_STATE_ENGAGED;
		}
		if (blow & BLOW_CANNON) {
			gunshot(w, s, id, &hits);
			continue;
		}
		const int t = (int)w->slot_of_id[id];
		if ((blow & BLOW_HIT) && a->stance[s] == RT_STANCE_HUNT && a->quarry[s] == id && rt__at_large(a->state[t])) {
			/* Q10: the hunter's blow on the man he hunts takes him alive ("恨不得亲手擒住张春") */
			a->state[t] = RT_STATE_CAPTURED;
			a->vx[t] = a->vy[t] = 0.0;
			w->captured++;
			hits++;
		} else if (blow & BLOW_HIT) {
			disable(w, t);
			hits++;
		}
		if (blow & BLOW_CHARGE) { /* the man charged and those beside him are shaken, hit or not */
			charge_shock(w, t, -(double)a->impetus[s] * w->def.combat.charge_morale_shock);
			a->impetus[s] = 0.0f;
			charges++;
		}
	}
	w->hits += hits;
	w->charges += charges;
	/* C5: a kneeling man is taken by an enemy beside him who is not riding past him after
	 * others: one with no one left to chase or fight near him, or one standing still
	 * (under 0.1 m/s, as a gun unlimbered) — a man stopped beside a kneeling enemy takes
	 * him, whoever else is about (before 2026-12-03 he never did while an enemy was within
	 * advance_range_m: at Dalinghe some 5,000 of Song Wei's men knelt round 200 of their
	 * own still running in their midst, and the Jin horse standing beside them took none
	 * from 11:00 to the end of the day). The taker's corps gives quarter to its share of
	 * them; the others are cut down where they kneel */
	const double capture = w->def.morale.capture_distance_m, chase = w->def.combat.advance_range_m;
	for (int s = 0; s < n; ++s) {
		if (a->state[s] != RT_STATE_SURRENDERED || a->enemy[s] < 0 || a->enemy_dist[s] > capture) continue;
		const int t = (int)w->slot_of_id[a->enemy[s]];
		const uint8_t taker = a->state[t];
		const bool riding_past = a->enemy_dist[t] <= chase && !standing_still(a, t);
		if ((taker == RT_STATE_FORMED || taker == RT_STATE_MARCHING) && !riding_past) {
			const int32_t tc = a->corps[t];
			const double quarter = tc >= 0 && tc < w->corps_count ? w->corps[tc].def.quarter : 1.0;
			if (quarter < 1.0 && rt_random_uniform(w->def.seed, a->id[s], (uint64_t)w->step, RT_STREAM_QUARTER) >= quarter) {
				a->health[s] = 0.0f; /* no quarter: dead below, seen by those about */
				a->vx[s] = a->vy[s] = 0.0;
				continue;
			}
			a->state[s] = RT_STATE_CAPTURED;
			a->vx[s] = a->vy[s] = 0.0;
			w->captured++;
		}
	}
	for (int s = 0; s < n; ++s) {
		if (a->health[s] > 0.0f || !rt__active(a->state[s])) continue;
		a->state[s] = RT_STATE_DEAD_COMBAT;
		a->vx[s] = a->vy[s] = 0.0;
		rt_status st = rt__remember_death(w, s, err); /* by those who saw him fall */
		if (st != RT_OK) return st;
	}
	return RT_OK;
}

rt_status rt__remember_death(rt_world *w, int s, rt_error *err)
{
	if (w->death_count == w->death_capacity) {
		int cap = w->death_capacity ? 2 * w->death_capacity : 256;
		rt_death_event *d = rt__realloc(&w->allocator, w->deaths, (size_t)w->death_capacity * sizeof(rt_death_event),
						(size_t)cap * sizeof(rt_death_event));
		if (!d) return rt__fail(err, RT_ERR_NOMEM, "cannot grow the memory of deaths to %d", cap);
		w->deaths = d;
		w->death_capacity = cap;
	}
	w->deaths[w->death_count++] = (rt_death_event){ w->agents.x[s], w->agents.y[s], w->step, w->agents.side[s] };
	return RT_OK;
}
