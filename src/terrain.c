/* The map under a world: passability and speed of the ground, water from rivers and
 * from the sea over low ground, and drowning (E3). The sea level comes from the env
 * phase (tide and surge); a cell is under the sea when the level stands above its
 * elevation. */
#include "world.h"

#include <math.h>

rt_water_params rt_water_params_default(void)
{
	rt_water_params p;
	p.foot_drown_depth_m = 1.3;   /* chest-deep on a man of 1.65 m, in armour: estimate (E) */
	p.horse_drown_depth_m = 2.2;  /* a horse swims with its rider a while longer: estimate (E) */
	p.drown_rate_per_s = 0.1;     /* in water over his depth a man lasts ~10 s: estimate (E) */
	p.wading_loss_per_m = 0.6;    /* knee-deep costs a third of his speed: estimate (E) */
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
	      p->wading_loss_per_m >= 0.0 && p->wading_loss_per_m <= 10.0))
		return rt__fail(err, RT_ERR_INVALID, "water: drown depths 0..10 m, drown rate 0..10 /s, wading loss 0..10 /m");
	w->water = *p;
	return RT_OK;
}

rt_status rt_world_set_map(rt_world *w, const rt_map *map, rt_error *err)
{
	rt__error_clear(err);
	if (!w || !map) return rt__fail(err, RT_ERR_INVALID, "no world or no map");
	if (w->step > 0 || w->goal_count > 0)
		return rt__fail(err, RT_ERR_STATE, "the map must be set before the first step and before any goal is added");
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
	return RT_OK;
}

static double depth_at(const rt_world *w, int cell)
{
	if (cell < 0) return 0.0;
	const double sea = w->env.set ? w->env.sea_level_m : 0.0;
	const double flood = sea - (double)w->map_elevation[cell];
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
#pragma omp parallel for schedule(static) num_threads(w->threads) reduction(+ : drowned) if (RT_PARALLEL(a->count))
	for (int s = 0; s < a->count; ++s) {
		if (!rt__active(a->state[s])) continue;
		const double depth = depth_at(w, rt__terrain_cell(w, a->x[s], a->y[s]));
		const bool rider = a->kind[s] == RT_KIND_HORSE || a->kind[s] == RT_KIND_HORSE_ARCHER;
		if (depth <= (rider ? w->water.horse_drown_depth_m : w->water.foot_drown_depth_m)) continue;
		if (rt_random_uniform(seed, a->id[s], step, RT_STREAM_DROWN) < rate * dt) {
			a->state[s] = RT_STATE_DEAD_DROWNED;
			a->vx[s] = a->vy[s] = 0.0;
			drowned++;
		}
	}
	w->drowned += drowned;
}
