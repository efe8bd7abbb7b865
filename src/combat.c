/* Sense, fight and resolve: who each man sees as his nearest enemy, the blow or shot he
 * makes, and what it does.
 *
 * sense (parallel over men who decide this step): men who can be seen and fought
 *   (active, not kneeling) are counting-sorted by (side, coarse cell); each man searches
 *   rings of cells outward from his own until no nearer enemy can exist, up to the
 *   sense range.
 * fight (parallel, each man writes only his own slot): a man in reach of his enemy
 *   strikes with probability rate * dt * hit * (1 - armour); else a man with a missile
 *   weapon and ammunition shoots at him if he is in range, with probability rate * dt,
 *   hitting with probability hit * (1 - armour). The chosen victim is written in the
 *   attacker's slot.
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

void rt__sense_free(rt_world *w)
{
	rt_sense_grid *g = &w->sense;
	if (g->start) rt__free(&w->allocator, g->start, ((size_t)RT_MAX_SIDES * (size_t)g->cells + 1) * sizeof(int));
	rt__free(&w->allocator, g->order, (size_t)g->capacity * sizeof(int));
	memset(g, 0, sizeof *g);
}

static rt_status sense_prepare(rt_world *w, rt_error *err)
{
	rt_sense_grid *g = &w->sense;
	if (!g->start) {
		const rt_world_def *d = &w->def;
		double width = d->bounds_max.x - d->bounds_min.x, height = d->bounds_max.y - d->bounds_min.y;
		double cell = d->combat.sense_cell_m;
		/* at most 1 Mi cells per side: a larger world gets coarser cells */
		const double max_cells = 1048576.0;
		if ((width / cell + 1.0) * (height / cell + 1.0) > max_cells) cell = sqrt(width * height / (max_cells * 0.9));
		g->origin_x = d->bounds_min.x;
		g->origin_y = d->bounds_min.y;
		g->cell = cell;
		g->inv_cell = 1.0 / cell;
		g->nx = (int)ceil(width / cell) + 1;
		g->ny = (int)ceil(height / cell) + 1;
		g->cells = g->nx * g->ny;
		g->start = rt__calloc(&w->allocator, (size_t)RT_MAX_SIDES * (size_t)g->cells + 1, sizeof(int));
		if (!g->start) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the sense grid (%d cells per side)", g->cells);
	}
	if (g->capacity < w->agents.capacity) {
		int *order = rt__alloc(&w->allocator, (size_t)w->agents.capacity * sizeof(int));
		if (!order) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the sense order for %d men", w->agents.capacity);
		rt__free(&w->allocator, g->order, (size_t)g->capacity * sizeof(int));
		g->order = order;
		g->capacity = w->agents.capacity;
	}
	return RT_OK;
}

static inline int sense_cell(const rt_sense_grid *g, double x, double y)
{
	int cx = rt__floor_int((x - g->origin_x) * g->inv_cell), cy = rt__floor_int((y - g->origin_y) * g->inv_cell);
	cx = cx < 0 ? 0 : (cx >= g->nx ? g->nx - 1 : cx);
	cy = cy < 0 ? 0 : (cy >= g->ny ? g->ny - 1 : cy);
	return cy * g->nx + cx;
}

rt_status rt__sense(rt_world *w, rt_error *err)
{
	rt_agents *a = &w->agents;
	const int n = a->count;
	/* which sides are present? with one side there is no enemy to sense */
	unsigned present = 0;
	for (int s = 0; s < n; ++s)
		if (can_be_targeted(a->state[s])) present |= 1u << a->side[s];
	if ((present & (present - 1)) == 0) {
		for (int s = 0; s < n; ++s) {
			a->enemy[s] = -1;
			a->enemy_dist[s] = INFINITY;
		}
		return RT_OK;
	}
	rt_status st = sense_prepare(w, err);
	if (st != RT_OK) return st;
	rt_sense_grid *g = &w->sense;
	const int cells = g->cells;
	int *start = g->start;
	int *bucket = rt__arena_push(&w->arena, (size_t)n * sizeof(int));
	if (!bucket) return rt__fail(err, RT_ERR_NOMEM, "step scratch exhausted in sense");
	memset(start, 0, ((size_t)RT_MAX_SIDES * (size_t)cells + 1) * sizeof(int));
	for (int s = 0; s < n; ++s) {
		bucket[s] = can_be_targeted(a->state[s]) ? a->side[s] * cells + sense_cell(g, a->x[s], a->y[s]) : -1;
		if (bucket[s] >= 0) start[bucket[s] + 1]++;
	}
	const int buckets = RT_MAX_SIDES * cells;
	for (int b = 0; b < buckets; ++b) start[b + 1] += start[b];
	/* stable fill: walk slots in order, writing at the running start (then restore) */
	for (int s = 0; s < n; ++s)
		if (bucket[s] >= 0) g->order[start[bucket[s]]++] = s;
	for (int b = buckets; b > 0; --b) start[b] = start[b - 1];
	start[0] = 0;

	/* a man sees no farther than the light allows (E1) */
	const double range = fmin(w->def.combat.sense_range_m, w->env.detection_range_m);
	const int max_ring = (int)ceil(range * g->inv_cell) + 1;
	const int nx = g->nx, ny = g->ny;
	const double cell = g->cell;
#pragma omp parallel for schedule(static) num_threads(w->threads)
	for (int s = 0; s < n; ++s) {
		if (!rt__active(a->state[s]) || !rt__agent_due(w, s)) continue;
		const double x = a->x[s], y = a->y[s];
		const int own = a->side[s];
		const int cx = rt__floor_int((x - g->origin_x) * g->inv_cell), cy = rt__floor_int((y - g->origin_y) * g->inv_cell);
		double best2 = range * range;
		int best = -1;
		for (int ring = 0; ring <= max_ring; ++ring) {
			/* every man in ring r is at least (r - 1) cells away */
			double near = (ring - 1) * cell;
			if (ring > 1 && near * near > best2) break;
			for (int dy = -ring; dy <= ring; ++dy) {
				const int yy = cy + dy;
				if (yy < 0 || yy >= ny) continue;
				const int step_x = (dy == -ring || dy == ring) ? 1 : 2 * ring; /* the ring's edge only */
				for (int dx = -ring; dx <= ring; dx += step_x > 0 ? step_x : 1) {
					const int xx = cx + dx;
					if (xx < 0 || xx >= nx) continue;
					for (int side = 0; side < RT_MAX_SIDES; ++side) {
						if (side == own || !(present & (1u << side))) continue;
						const int b = side * cells + yy * nx + xx;
						for (int k = start[b]; k < start[b + 1]; ++k) {
							const int t = g->order[k];
							const double ex = a->x[t] - x, ey = a->y[t] - y;
							const double d2 = ex * ex + ey * ey;
							if (d2 < best2 || (d2 == best2 && best >= 0 && a->id[t] < a->id[best])) {
								best2 = d2;
								best = t;
							}
						}
					}
					if (ring == 0) break;
				}
			}
		}
		a->enemy[s] = best >= 0 ? (int32_t)a->id[best] : -1;
		a->enemy_dist[s] = best >= 0 ? (float)sqrt(best2) : INFINITY;
	}
	return RT_OK;
}

void rt__fight(rt_world *w)
{
	rt_agents *a = &w->agents;
	const int n = a->count;
	const double dt = w->def.dt_s, armour = w->def.combat.armour_protection;
	const uint64_t seed = w->def.seed;
	const uint64_t step = (uint64_t)w->step;
	int64_t shots = 0;
#pragma omp parallel for schedule(static) num_threads(w->threads) reduction(+ : shots)
	for (int s = 0; s < n; ++s) {
		a->victim[s] = -1;
		if (!can_fight(a->state[s]) || a->enemy[s] < 0) continue;
		const int t = (int)w->slot_of_id[a->enemy[s]];
		if (!can_be_targeted(a->state[t])) continue; /* he fell or knelt since he was sensed */
		const rt_kind_params *kp = &w->def.kinds[a->kind[s]];
		const double ex = a->x[t] - a->x[s], ey = a->y[t] - a->y[s];
		const double dist = sqrt(ex * ex + ey * ey);
		const double protect = (a->equipment[t] & RT_EQUIP_ARMOUR) ? 1.0 - armour : 1.0;
		const rt_random4 r = rt_random_bits(seed, a->id[s], step, RT_STREAM_FIGHT);
		const double u0 = (double)r.v[0] * (1.0 / 4294967296.0), u1 = (double)r.v[1] * (1.0 / 4294967296.0);
		const double gap = dist - a->radius[s] - a->radius[t];
		if ((a->equipment[s] & RT_EQUIP_WEAPON) && gap <= kp->melee_reach_m) {
			if (a->state[s] == RT_STATE_FORMED || a->state[s] == RT_STATE_MARCHING) a->state[s] = RT_STATE_ENGAGED;
			if (u0 < kp->melee_rate_per_s * dt * kp->melee_hit_prob * protect) a->victim[s] = a->enemy[s];
		} else if (kp->missile_range_m > 0.0 && a->ammunition[s] > 0 && dist <= kp->missile_range_m) {
			if (u0 < kp->missile_rate_per_s * dt) {
				a->ammunition[s]--;
				shots++;
				if (u1 < kp->missile_hit_prob * protect) a->victim[s] = a->enemy[s];
			}
		}
	}
	w->shots += shots;
}

void rt__resolve(rt_world *w)
{
	rt_agents *a = &w->agents;
	const int n = a->count;
	int64_t hits = 0;
	/* serial, in slot order: the same order at any thread count */
	for (int s = 0; s < n; ++s) {
		if (a->victim[s] < 0) continue;
		const int t = (int)w->slot_of_id[a->victim[s]];
		a->health[t] -= 1.0f;
		hits++;
	}
	for (int s = 0; s < n; ++s) {
		if (a->health[s] <= 0.0f && rt__active(a->state[s])) {
			a->state[s] = RT_STATE_DEAD_COMBAT;
			a->vx[s] = a->vy[s] = 0.0;
		}
	}
	w->hits += hits;
}
