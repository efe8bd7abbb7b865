/* The map under a world: passability and speed of the ground, water from rivers and
 * from the sea over low ground, and drowning (E3). The sea level comes from the env
 * phase (tide and surge); a cell is under the sea when the level stands above its
 * elevation. */
#include "world.h"

#include <math.h>
#include <string.h>

rt_water_params rt_water_params_default(void)
{
	rt_water_params p;
	p.foot_drown_depth_m = 1.3;   /* chest-deep on a man of 1.65 m, in armour: estimate (E) */
	p.horse_drown_depth_m = 2.2;  /* a horse swims with its rider a while longer: estimate (E) */
	p.drown_rate_per_s = 0.1;     /* in water over his depth a man lasts ~10 s: estimate (E) */
	p.wading_loss_per_m = 0.6;    /* knee-deep costs a third of his speed: estimate (E) */
	p.wade_out_depth_m = 0.5;     /* above the knee a man feels the sea take him: estimate (E) */
	p.cookie = RT_COOKIE;
	return p;
}

rt_status rt_world_set_water(rt_world *w, const rt_water_params *p, rt_error *err)
{
	rt__error_clear(err);
	if (!w || !p || p->cookie != RT_COOKIE)
		return rt__fail(err, RT_ERR_INVALID, "water parameters were not made by rt_water_params_default()");
	if (!(p->foot_drown_depth_m > 0.0 && p->foot_drown_depth_m <= 10.0 && p->horse_drown_depth_m > 0.0 &&
	      p->horse_drown_depth_m <= 10.0 && p->drown_rate_per_s >= 0.0 && p->drown_rate_per_s <= 10.0 &&
	      p->wading_loss_per_m >= 0.0 && p->wading_loss_per_m <= 10.0 && p->wade_out_depth_m >= 0.0 &&
	      p->wade_out_depth_m <= 10.0))
		return rt__fail(err, RT_ERR_INVALID, "water: drown depths 0..10 m, drown rate 0..10 /s, wading loss 0..10 /m, wade-out depth 0..10 m");
	w->water = *p;
	return RT_OK;
}

rt_status rt_world_set_map(rt_world *w, const rt_map *map, rt_error *err)
{
	rt__error_clear(err);
	if (!w || !map) return rt__fail(err, RT_ERR_INVALID, "no world or no map");
	if (w->step > 0 || w->goal_count > 0 || w->refuge_count > 0)
		return rt__fail(err, RT_ERR_STATE, "the map must be set before the first step and before any goal or refuge is added");
	if (w->fire)
		return rt__fail(err, RT_ERR_STATE, "the environment already sets fires on the map laid before; set the map first");
	int nx, ny;
	double cell;
	rt_vec2 origin;
	rt_map_size(map, &nx, &ny, &cell, &origin);
	if (nx <= 0 || ny <= 0 || !(cell > 0.0))
		return rt__fail(err, RT_ERR_INVALID, "the map has no raster");
	w->map = map;
	w->map_nx = nx;
	w->map_ny = ny;
	w->map_cell = cell;
	w->map_inv_cell = 1.0 / cell;
	w->map_ox = origin.x;
	w->map_oy = origin.y;
	w->map_passable = rt_map_layer_passable(map);
	w->map_speed = rt_map_layer_speed_factor(map);
	w->map_elevation = rt_map_layer_elevation_m(map);
	w->map_water = rt_map_layer_water_depth_m(map);
	w->map_feature = rt_map_layer_feature_id(map);
	/* forts: their sides are bound by name later; until then a named side admits nobody */
	rt__terrain_free(w);
	const int features = rt_map_feature_count(map);
	int forts = 0;
	for (int f = 0; f < features; ++f) {
		rt_map_feature_view v;
		if (rt_map_feature_info(map, f, &v) && v.kind == RT_MAP_FORT) forts++;
	}
	if (forts > 0) {
		w->fort_side = rt__alloc(&w->allocator, (size_t)features * sizeof(int));
		w->fort_capacity = rt__alloc(&w->allocator, (size_t)features * sizeof(int));
		w->fort_sheltered = rt__calloc(&w->allocator, (size_t)features, sizeof(int));
		w->fort_box = rt__calloc(&w->allocator, 4 * (size_t)features, sizeof(double));
		if (!w->fort_side || !w->fort_capacity || !w->fort_sheltered || !w->fort_box) {
			rt__terrain_free(w);
			w->map = NULL;
			return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the fort table");
		}
		w->feature_count = features;
		for (int f = 0; f < features; ++f) {
			rt_map_feature_view v;
			bool fort = rt_map_feature_info(map, f, &v) && v.kind == RT_MAP_FORT;
			w->fort_side[f] = !fort ? -3 : (v.side && v.side[0] ? -2 : -1);
			w->fort_capacity[f] = fort ? v.capacity : 0;
			if (fort) {
				w->fort_box[4 * f + 0] = v.bbox_min.x;
				w->fort_box[4 * f + 1] = v.bbox_min.y;
				w->fort_box[4 * f + 2] = v.bbox_max.x;
				w->fort_box[4 * f + 3] = v.bbox_max.y;
			}
		}
	}
	return RT_OK;
}

void rt__terrain_free(rt_world *w)
{
	size_t n = (size_t)w->feature_count;
	if (w->fort_side) rt__free(&w->allocator, w->fort_side, n * sizeof(int));
	if (w->fort_capacity) rt__free(&w->allocator, w->fort_capacity, n * sizeof(int));
	if (w->fort_sheltered) rt__free(&w->allocator, w->fort_sheltered, n * sizeof(int));
	if (w->fort_box) rt__free(&w->allocator, w->fort_box, 4 * n * sizeof(double));
	w->fort_side = w->fort_capacity = w->fort_sheltered = NULL;
	w->fort_box = NULL;
	w->feature_count = 0;
	size_t p = (size_t)w->prev_capacity;
	if (w->prev_x) rt__free(&w->allocator, w->prev_x, p * sizeof(double));
	if (w->prev_y) rt__free(&w->allocator, w->prev_y, p * sizeof(double));
	w->prev_x = w->prev_y = NULL;
	w->prev_capacity = 0;
	if (w->wet_level) rt__free(&w->allocator, w->wet_level, w->wet_level_cells * sizeof(float));
	w->wet_level = NULL;
	w->wet_level_cells = 0;
}

rt_status rt_world_bind_side_name(rt_world *w, const char *name, uint8_t side, rt_error *err)
{
	rt__error_clear(err);
	if (!w || !name || !w->map) return rt__fail(err, RT_ERR_STATE, "bind side names after rt_world_set_map");
	if (side >= RT_MAX_SIDES) return rt__fail(err, RT_ERR_INVALID, "side %d; sides are 0..%d", side, RT_MAX_SIDES - 1);
	int bound = 0;
	for (int f = 0; f < w->feature_count; ++f) {
		rt_map_feature_view v;
		if (w->fort_side[f] == -3 || !rt_map_feature_info(w->map, f, &v) || !v.side) continue;
		if (strcmp(v.side, name) == 0) {
			w->fort_side[f] = side;
			bound++;
		}
	}
	if (bound == 0) return rt__fail(err, RT_ERR_INVALID, "no fort of the map has side \"%s\"", name);
	return RT_OK;
}

int rt_world_fort_sheltered(const rt_world *w, int feature)
{
	if (!w || feature < 0 || feature >= w->feature_count || w->fort_side[feature] == -3) return -1;
	return w->fort_sheltered[feature];
}

/* Keeps room for every man's position before the move, which the admission pass needs
 * to turn back a man a full fort cannot take. */
rt_status rt__forts_prepare(rt_world *w, rt_error *err)
{
	if (!w->fort_side || w->prev_capacity >= w->agents.capacity) return RT_OK;
	size_t cap = (size_t)w->agents.capacity;
	double *x = rt__alloc(&w->allocator, cap * sizeof(double)), *y = rt__alloc(&w->allocator, cap * sizeof(double));
	if (!x || !y) {
		rt__free(&w->allocator, x, cap * sizeof(double));
		rt__free(&w->allocator, y, cap * sizeof(double));
		return rt__fail(err, RT_ERR_NOMEM, "cannot allocate positions for the fort gates");
	}
	size_t old = (size_t)w->prev_capacity;
	if (w->prev_x) rt__free(&w->allocator, w->prev_x, old * sizeof(double));
	if (w->prev_y) rt__free(&w->allocator, w->prev_y, old * sizeof(double));
	w->prev_x = x;
	w->prev_y = y;
	w->prev_capacity = (int)cap;
	return RT_OK;
}

/* The fort a man at (x, y) would stand in, or -1. */
int rt__fort_at(const rt_world *w, double x, double y)
{
	if (!w->fort_side) return -1;
	const int cell = rt__terrain_cell(w, x, y);
	if (cell < 0) return -1;
	const int f = w->map_feature[cell];
	return f >= 0 && f < w->feature_count && w->fort_side[f] != -3 ? f : -1;
}

void rt__fort_leave(rt_world *w, int s)
{
	if (!w->fort_side || w->agents.state[s] != RT_STATE_SHELTERED) return;
	const int f = rt__fort_at(w, w->agents.x[s], w->agents.y[s]);
	if (f >= 0 && w->fort_sheltered[f] > 0) w->fort_sheltered[f]--;
}

/* Whether the fort lets a man of `side` in: only through a gate (its walls are
 * impassable cells), only its own side. Capacity is decided in the admission pass. */
bool rt__fort_admits(const rt_world *w, int s, double x, double y)
{
	if (!w->fort_side) return true;
	const int f = rt__fort_at(w, x, y);
	if (f < 0) return true;
	const int own = w->fort_side[f];
	return (own == -1 || own == w->agents.side[s]) && (rt__opens_when_full(&w->agents, s) || w->fort_sheltered[f] < w->fort_capacity[f]);
}

/* Serial, in slot order: a man who stepped into a fort is sheltered while there is
 * room; the rest are turned back to where they stood. A man who stood in the fort
 * already is on his way out (rt__fort_leave) and is let be. */
void rt__forts_admit(rt_world *w)
{
	if (!w->fort_side) return;
	rt_agents *a = &w->agents;
	for (int s = 0; s < a->count; ++s) {
		if (!rt__active(a->state[s])) continue;
		const int f = rt__fort_at(w, a->x[s], a->y[s]);
		if (f < 0) continue;
		/* a man who stood in this fort before the move is leaving it (a sortie) */
		if (rt__fort_at(w, w->prev_x[s], w->prev_y[s]) == f) continue;
		/* a man marching to a place beyond the fort is not taken in on his way: he passes
		 * through it by its gates if it is his side's; a routing man takes any fort open
		 * to him */
		bool wanted = true;
		if (a->state[s] != RT_STATE_ROUTING && a->goal[s] >= 0) {
			const rt_goal_def *g = &w->goals[a->goal[s]].def;
			wanted = rt__fort_at(w, 0.5 * (g->target_min.x + g->target_max.x), 0.5 * (g->target_min.y + g->target_max.y)) == f;
		}
		const bool own = w->fort_side[f] == -1 || w->fort_side[f] == a->side[s];
		if (wanted && (rt__opens_when_full(a, s) || w->fort_sheltered[f] < w->fort_capacity[f]) && own) {
			w->fort_sheltered[f]++;
			a->state[s] = RT_STATE_SHELTERED;
		} else if (!wanted && own && a->state[s] == RT_STATE_MARCHING) {
			/* on his way through: the road runs in at one gate and out at another; he takes
			 * no place, and walks through within the walls (as a man on a sortie) */
			continue;
		} else {
			a->x[s] = w->prev_x[s];
			a->y[s] = w->prev_y[s];
		}
		a->vx[s] = a->vy[s] = 0.0;
	}
}

static double depth_at(const rt_world *w, int cell)
{
	if (cell < 0) return 0.0;
	const double sea = w->env.set ? w->env.sea_level_m : 0.0;
	const double flood = sea - (double)w->map_elevation[cell];
	return (double)w->map_water[cell] + (flood > 0.0 ? flood : 0.0);
}

/* The sea's water at a cell: its depth where the sea stands over the ground, 0 where it
 * does not (a river or ford inland, at its usual depth, is not the sea rising: E3). */
static double sea_depth_at(const rt_world *w, int cell)
{
	if (cell < 0) return 0.0;
	const double sea = w->env.set ? w->env.sea_level_m : 0.0;
	const double flood = sea - (double)w->map_elevation[cell];
	return flood > 0.0 ? (double)w->map_water[cell] + flood : 0.0;
}

bool rt__deeper_water(const rt_world *w, double x, double y, double nx, double ny, bool rider)
{
	const int to = rt__terrain_cell(w, nx, ny);
	if (to < 0) return false;
	const double limit = rider ? w->water.horse_drown_depth_m : w->water.foot_drown_depth_m;
	const double there = depth_at(w, to);
	return there > limit && there > depth_at(w, rt__terrain_cell(w, x, y));
}

/* A cell c has the sea's water over the wade-out depth D when the sea stands above its
 * elevation and above elevation + D - water (sea_depth_at). The level kept for a cell is
 * the least of that over the 7 x 7 cells round it (the cells rt__water_flight looks at
 * for "wet" lie at most two away; three allows for rounding), less a millimetre, so a
 * sea at or below it leaves every one of them without the sea's water over D: the man
 * is dry, as the full look would find. */
rt_status rt__water_prepare(rt_world *w, rt_error *err)
{
	if (!w->map) return RT_OK;
	const double wade = w->water.wade_out_depth_m;
	if (w->wet_level && w->wet_level_wade == wade) return RT_OK;
	const int nx = w->map_nx, ny = w->map_ny, R = 3;
	const size_t cells = (size_t)nx * (size_t)ny;
	if (!w->wet_level) {
		w->wet_level = rt__alloc(&w->allocator, cells * sizeof(float));
		if (!w->wet_level) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the map's wet levels");
		w->wet_level_cells = cells;
	}
	float *row = rt__alloc(&w->allocator, (size_t)(nx > ny ? nx : ny) * sizeof(float));
	if (!row) {
		rt__free(&w->allocator, w->wet_level, cells * sizeof(float));
		w->wet_level = NULL;
		w->wet_level_cells = 0;
		return rt__fail(err, RT_ERR_NOMEM, "cannot allocate a row of the map's wet levels");
	}
	for (size_t c = 0; c < cells; ++c) {
		const double water = (double)w->map_water[c];
		w->wet_level[c] = (float)((double)w->map_elevation[c] + fmax(0.0, wade - water) - 1e-3);
	}
	/* the least over 2R + 1 cells along x, then along y */
	for (int y = 0; y < ny; ++y) {
		float *v = w->wet_level + (size_t)y * (size_t)nx;
		for (int x = 0; x < nx; ++x) {
			float m = INFINITY;
			for (int i = x - R; i <= x + R; ++i)
				if (i >= 0 && i < nx && v[i] < m) m = v[i];
			row[x] = m;
		}
		memcpy(v, row, (size_t)nx * sizeof(float));
	}
	for (int x = 0; x < nx; ++x) {
		for (int y = 0; y < ny; ++y) {
			float m = INFINITY;
			for (int j = y - R; j <= y + R; ++j) {
				if (j < 0 || j >= ny) continue;
				const float l = w->wet_level[(size_t)j * (size_t)nx + (size_t)x];
				if (l < m) m = l;
			}
			row[y] = m;
		}
		for (int y = 0; y < ny; ++y) w->wet_level[(size_t)y * (size_t)nx + (size_t)x] = row[y];
	}
	rt__free(&w->allocator, row, (size_t)(nx > ny ? nx : ny) * sizeof(float));
	w->wet_level_wade = wade;
	return RT_OK;
}

bool rt__water_flight(const rt_world *w, double x, double y, double *ex, double *ey)
{
	const int here = rt__terrain_cell(w, x, y);
	if (here < 0) return false;
	/* far from any water deeper than the wade-out depth: nothing to wade out of */
	if (w->wet_level && (w->env.set ? w->env.sea_level_m : 0.0) <= (double)w->wet_level[here]) return false;
	static const double dirs[8][2] = { { 1, 0 }, { 0.70710678118654752, 0.70710678118654752 }, { 0, 1 },
					   { -0.70710678118654752, 0.70710678118654752 }, { -1, 0 },
					   { -0.70710678118654752, -0.70710678118654752 }, { 0, -1 },
					   { 0.70710678118654752, -0.70710678118654752 } };
	static const double reach[3] = { 2.0, 5.0, 12.0 };
	const double cell = w->map_cell, wade = w->water.wade_out_depth_m;
	/* he wades when the sea's water round him (his cell, or two cells out on any side) is over
	 * the wading depth: so he keeps going a little past the waterline */
	bool wet = sea_depth_at(w, here) > wade;
	double mean[8];
	bool open[8];
	for (int d = 0; d < 8; ++d) {
		double sum = 0.0;
		open[d] = true;
		for (int r = 0; r < 3; ++r) {
			const int c = rt__terrain_cell(w, x + dirs[d][0] * reach[r] * cell, y + dirs[d][1] * reach[r] * cell);
			if (c < 0 || !w->map_passable[c]) {
				open[d] = false;
				continue;
			}
			const double dep = depth_at(w, c);
			if (r == 0 && sea_depth_at(w, c) > wade) wet = true;
			sum += dep;
		}
		mean[d] = sum / 3.0;
	}
	if (!wet) return false;
	/* the shallowest open ray; among equals, the one most nearly opposite the deepest */
	int deepest = 0;
	for (int d = 1; d < 8; ++d)
		if (mean[d] > mean[deepest]) deepest = d;
	int pick = -1;
	for (int d = 0; d < 8; ++d) {
		if (!open[d]) continue;
		if (pick < 0 || mean[d] < mean[pick] ||
		    (mean[d] == mean[pick] && dirs[d][0] * dirs[deepest][0] + dirs[d][1] * dirs[deepest][1] <
						     dirs[pick][0] * dirs[deepest][0] + dirs[pick][1] * dirs[deepest][1]))
			pick = d;
	}
	if (pick < 0 || mean[pick] >= mean[deepest]) return false; /* water alike all round: nowhere better */
	*ex = dirs[pick][0];
	*ey = dirs[pick][1];
	return true;
}

double rt__planning_depth(const rt_world *w, int cell)
{
	if (cell < 0 || !w->map) return 0.0;
	const double mean = w->env.set ? w->environment.tide.mean_level_m : 0.0;
	const double flood = mean - (double)w->map_elevation[cell];
	return (double)w->map_water[cell] + (flood > 0.0 ? flood : 0.0);
}

double rt_world_water_depth_m(const rt_world *w, rt_vec2 p)
{
	return depth_at(w, rt__terrain_cell(w, p.x, p.y));
}

double rt__terrain_speed(const rt_world *w, int cell)
{
	if (cell < 0) return 1.0;
	double f = w->map_speed[cell];
	const double depth = depth_at(w, cell);
	if (depth > 0.0) f *= fmax(0.2, 1.0 - w->water.wading_loss_per_m * depth);
	return f;
}

bool rt__terrain_passable(const rt_world *w, double x, double y)
{
	const int cell = rt__terrain_cell(w, x, y);
	return cell < 0 || w->map_passable[cell] != 0;
}

void rt__drown(rt_world *w)
{
	if (!w->map) return;
	rt_agents *a = &w->agents;
	const double dt = w->def.dt_s, rate = w->water.drown_rate_per_s;
	const uint64_t seed = w->def.seed, step = (uint64_t)w->step;
	int64_t drowned = 0;
	RT_PARALLEL_FOR(RT_PARALLEL(a->count), (schedule(static) num_threads(w->threads) reduction(+ : drowned)),
	for (int s = 0; s < a->count; ++s) {
		if (!rt__active(a->state[s])) continue;
		const double depth = depth_at(w, rt__terrain_cell(w, a->x[s], a->y[s]));
		if (depth <= (a->mount[s] ? w->water.horse_drown_depth_m : w->water.foot_drown_depth_m)) continue;
		if (rt_random_uniform(seed, a->id[s], step, RT_STREAM_DROWN) < rate * dt) {
			a->state[s] = RT_STATE_DEAD_DROWNED;
			a->vx[s] = a->vy[s] = 0.0;
			drowned++;
		}
	});
	w->drowned += drowned;
}
