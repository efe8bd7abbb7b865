/* Grass fire and smoke (E4: "a change of wind turns the battle"): fires the scenario
 * sets spread over the map's cells downwind, stop where nothing burns, stop men and burn
 * those who stay in the hot flames of a head fire, and send smoke downwind that hides
 * men from each other.
 *
 * Why it is built this way:
 * - The rate of spread is an empirical grassland model (Cheney, Gould & Catchpole 1998,
 *   the CSIRO model behind Australia's grass fire meters): head fire rate from the 10-m
 *   wind, dead fuel moisture and curing. The rest of the perimeter follows the ellipse
 *   whose length-to-breadth ratio the wind sets (Taylor 1997's fit), each piece of front
 *   moving along its normal at the ellipse's normal speed (Richards 1990): so a point
 *   fire grows into the ellipse, and a long line fire under an oblique wind keeps most
 *   of its speed (a rule along rays from cell to cell, the ellipse seen from its focus,
 *   all but stops such a front on an 8-neighbour grid).
 * - The cellular rule is by arrival time: an unburnt cell beside the front is reached,
 *   from each caught neighbour within 45 degrees of the local normal, at that
 *   neighbour's ignition time + (distance between their centres along the normal) /
 *   (normal speed now), times a threshold 1 +- threshold_spread drawn per cell (Philox,
 *   keyed by the cell): the unevenness of real grass. The normal comes from where its
 *   caught neighbours lie. Speeds are those of the wind of the moment, so a wind change
 *   acts at once on the whole perimeter - what was the slow back becomes the head.
 * - A cell flames from when the front reaches it for the flame residence time plus the
 *   time the front takes to cross it; its fireline intensity (Byram) decides whether it
 *   stops men. A backing fire (a few hundred kW/m) is stepped over; a head fire is not.
 * - Serial and in a fixed order (the front list, then the cells beside it by index; a
 *   cell caught in a sub-step hands the fire on only from the next): the fire is the
 *   same at any thread count. It advances every update_interval_s, in sub-steps in
 *   which a head fire crosses at most half a cell.
 * - Smoke: emitted by burning cells (fuel burnt x yield, mixed through a layer),
 *   carried by the wind semi-Lagrangian (exact for any wind and step), thinning with a
 *   lifetime; sight in it is Jin's visibility constant over the extinction coefficient.
 *   It lives on a coarser grid over the box of cells that hold any.
 * - Nothing is allocated or visited unless the environment sets a fire.
 */
#include "world.h"
#include "map_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PI 3.14159265358979323846
#define SMOKE_FLOOR_G_PER_M3 1e-6f /* thinner smoke is dropped: 340 km of visibility */
#define IGNITION_REACH_CELLS 0.7072 /* a set fire catches cells whose centre is this near */
#define ESCAPE_REACH_CELLS 3        /* a man in flames looks this far for a way out */
#define MAX_SUBSTEPS 256

rt_fire_params rt_fire_params_default(void)
{
	rt_fire_params p;
	p.update_interval_s = 1.0;
	p.open_ground_fuel_kg_m2 = 0.45;        /* Cheney & Sullivan 2008: natural pasture 4-6 t/ha */
	p.grass = RT_GRASS_NATURAL;
	p.curing_pct = 100.0;                   /* late autumn: fully cured */
	p.threshold_spread = 0.1;               /* estimate (E); more makes wide fronts run fast (model.md) */
	p.flame_residence_s = 15.0;             /* grass flames ~15 s (U. Toronto fire lab field data) */
	p.heat_of_combustion_kj_per_kg = 18600.0; /* Byram 1959; CSIRO grassland model */
	p.block_intensity_kw_per_m = 350.0;     /* 1.2 m flames: the hand-tool limit (NWCG hauling chart) */
	p.burn_death_rate_per_s = 0.15;         /* estimate (E) */
	p.smoke_cell_m = 20.0;
	p.smoke_yield_g_per_kg = 8.3;           /* Andreae & Merlet 2001: savanna and grassland TPM */
	p.smoke_mixing_height_m = 20.0;         /* estimate (E) */
	p.smoke_lifetime_s = 120.0;             /* estimate (E) */
	p.smoke_extinction_m2_per_g = 8.7;      /* Mulholland & Croarkin 2000 */
	p.smoke_detection_constant = 3.0;       /* Jin 1978: 2-4 for lit, reflecting objects */
	p.smoke_identification_constant = 1.2;  /* estimate (E): 30 % contrast, -ln 0.3 */
	return p;
}

/* ---- the spread model (pure) ---------------------------------------------------------- */

/* Cheney et al. 1998, table of coefficients (km/h): below 5 km/h R = a + b U, above it
 * R = c + d (U - 5)^0.844; natural, grazed (cut), eaten out. */
static const double grass_coefficients[3][4] = {
	{ 0.054, 0.269, 1.4, 0.838 },
	{ 0.054, 0.209, 1.1, 0.715 },
	{ 0.027, 0.1045, 0.55, 0.3575 },
};

static const rt_fire_params *fire_params_or_default(const rt_fire_params *p, rt_fire_params *storage)
{
	if (p) return p;
	*storage = rt_fire_params_default();
	return storage;
}

double rt_fire_head_rate_mps(const rt_fire_params *params, double wind_mps, double fuel_moisture_pct)
{
	rt_fire_params storage;
	const rt_fire_params *p = fire_params_or_default(params, &storage);
	const double u = isnan(wind_mps) ? 0.0 : fmax(0.0, wind_mps) * 3.6; /* km/h */
	const double mc = isnan(fuel_moisture_pct) ? 100.0 : fmax(0.0, fuel_moisture_pct);
	double moisture;
	if (mc < 12.0) moisture = exp(-0.108 * mc);
	else if (u <= 10.0) moisture = 0.684 - 0.0342 * mc;
	else moisture = 0.547 - 0.0228 * mc;
	if (moisture <= 0.0) return 0.0;
	/* Cruz et al. 2015, curing function */
	const double c = p->curing_pct;
	if (!(c >= 20.0)) return 0.0;
	const double curing = 1.036 / (1.0 + 103.989 * exp(-0.0996 * (c - 20.0)));
	const int g = (unsigned)p->grass < 3u ? (int)p->grass : 0;
	const double *k = grass_coefficients[g];
	const double kmh = u < 5.0 ? k[0] + k[1] * u : k[2] + k[3] * pow(u - 5.0, 0.844);
	return kmh * moisture * curing / 3.6;
}

double rt_fire_length_to_breadth(double wind_mps)
{
	const double u = isnan(wind_mps) ? 0.0 : fmax(0.0, wind_mps) * 3.6;
	static const double at5 = 2.2054; /* 1.1 * 5^0.464 */
	if (u >= 5.0) return 1.1 * pow(u, 0.464);
	return 1.0 + (at5 - 1.0) * u / 5.0;
}

/* ---- cells -------------------------------------------------------------------------------- */

/* The fuel of a cell as its topmost feature says, with `open` on open ground. */
static double cell_fuel(const rt_world *w, int cell, double open)
{
	if (cell < 0 || !w->map) return 0.0;
	if (!w->map_passable[cell] || w->map_water[cell] > 0.0f) return 0.0;
	const int f = w->map_feature[cell];
	if (f < 0) return open;
	const rt_map_feature *feature = &w->map->features[f];
	switch (feature->kind) {
	case RT_MAP_HILL: return open;
	case RT_MAP_GRASS: return isnan(feature->value[RT_MAPV_FUEL]) ? open : feature->value[RT_MAPV_FUEL];
	default: return 0.0;
	}
}

double rt__fire_fuel(const rt_world *w, int cell)
{
	return w->fire ? cell_fuel(w, cell, w->fire->params.open_ground_fuel_kg_m2) : 0.0;
}

/* Under the sea of the moment: nothing burns there. */
static bool flooded(const rt_world *w, int cell)
{
	return w->env.set && w->env.sea_level_m > (double)w->map_elevation[cell];
}

static double threshold_of(const rt_world *w, int cell)
{
	const uint32_t bits = rt_random_bits(w->def.seed, (uint32_t)cell, 0, RT_STREAM_FIRE).v[0];
	const double u = (double)bits * (1.0 / 4294967296.0);
	return 1.0 + w->fire->params.threshold_spread * (2.0 * u - 1.0);
}

/* Grows a list to hold one more entry; false when memory runs out. */
static bool reserve(rt_world *w, void **items, int *capacity, int count, size_t size)
{
	if (count < *capacity) return true;
	const int grown = *capacity ? 2 * *capacity : 256;
	void *p = rt__realloc(&w->allocator, *items, (size_t)*capacity * size, (size_t)grown * size);
	if (!p) return false;
	*items = p;
	*capacity = grown;
	return true;
}

/* Grows a list to hold `need` entries (a loaded checkpoint's); false when memory runs out. */
static bool grow_to(rt_world *w, void **items, int *capacity, int need, size_t size)
{
	if (need <= *capacity) return true;
	int64_t grown = *capacity ? *capacity : 256;
	while (grown < need) grown *= 2;
	if (grown > INT32_MAX) grown = need;
	void *p = rt__realloc(&w->allocator, *items, (size_t)*capacity * size, (size_t)grown * size);
	if (!p) return false;
	*items = p;
	*capacity = (int)grown;
	return true;
}

/* The cell catches at t_s, reached at rate_mps. */
static rt_status catch_fire(rt_world *w, int cell, double t_s, double rate_mps, rt_error *err)
{
	rt_fire *f = w->fire;
	if (!reserve(w, (void **)&f->burning, &f->burning_capacity, f->burning_count, sizeof *f->burning) ||
	    !reserve(w, (void **)&f->front, &f->front_capacity, f->front_count, sizeof *f->front))
		return rt__fail(err, RT_ERR_NOMEM, "cannot grow the fire's lists past %d cells", f->burning_count);
	const double fuel = rt__fire_fuel(w, cell);
	const double crossing_s = rate_mps > 0.0 ? f->cell_m / rate_mps : 0.0;
	const double intensity = f->params.heat_of_combustion_kj_per_kg * fuel * rate_mps;
	const bool hot = intensity >= f->params.block_intensity_kw_per_m;
	f->state[cell] = hot ? RT_FIRE_CELL_HOT : RT_FIRE_CELL_BURNING;
	f->hot_count += hot;
	f->time_s[cell] = (float)t_s;
	f->burning[f->burning_count++] = (rt_fire_burning){ cell, (float)t_s, (float)(t_s + f->params.flame_residence_s + crossing_s),
							  (float)intensity, (float)fuel };
	f->front[f->front_count++] = cell;
	return RT_OK;
}

/* ---- building ----------------------------------------------------------------------------- */

static double segment_distance(double px, double py, rt_vec2 a, rt_vec2 b)
{
	const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
	double t = len2 > 0.0 ? ((px - a.x) * dx + (py - a.y) * dy) / len2 : 0.0;
	t = rt__clamp(t, 0.0, 1.0);
	return hypot(px - (a.x + t * dx), py - (a.y + t * dy));
}

/* Calls visit(cell) for every map cell whose centre lies within reach of the
 * ignition's point or line; stops early when visit returns false. */
typedef bool ignition_visit(rt_world *w, int cell, void *context);
static bool for_ignition_cells(rt_world *w, const rt_ignition *g, ignition_visit *visit, void *context)
{
	const double reach = IGNITION_REACH_CELLS * w->map_cell;
	const int x0 = rt__floor_int((fmin(g->from_m.x, g->to_m.x) - reach - w->map_ox) * w->map_inv_cell);
	const int x1 = rt__floor_int((fmax(g->from_m.x, g->to_m.x) + reach - w->map_ox) * w->map_inv_cell);
	const int y0 = rt__floor_int((fmin(g->from_m.y, g->to_m.y) - reach - w->map_oy) * w->map_inv_cell);
	const int y1 = rt__floor_int((fmax(g->from_m.y, g->to_m.y) + reach - w->map_oy) * w->map_inv_cell);
	for (int iy = y0 < 0 ? 0 : y0; iy <= y1 && iy < w->map_ny; ++iy)
		for (int ix = x0 < 0 ? 0 : x0; ix <= x1 && ix < w->map_nx; ++ix) {
			const double cx = w->map_ox + (ix + 0.5) * w->map_cell, cy = w->map_oy + (iy + 0.5) * w->map_cell;
			if (segment_distance(cx, cy, g->from_m, g->to_m) > reach) continue;
			if (!visit(w, iy * w->map_nx + ix, context)) return false;
		}
	return true;
}

typedef struct fuel_search {
	double open_fuel;
	bool found;
} fuel_search;

static bool find_fuel(rt_world *w, int cell, void *context)
{
	fuel_search *search = context;
	if (cell_fuel(w, cell, search->open_fuel) > 0.0) {
		search->found = true;
		return false;
	}
	return true;
}

static rt_status fire_field_fail(rt_error *err, const char *field, double value, const char *expected)
{
	char path[128];
	snprintf(path, sizeof path, "fire.%s", field);
	return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, path, "%s is %g; expected %s", path, value, expected);
}

rt_status rt__fire_validate(const rt_world *w, const rt_fire_def *d, rt_error *err)
{
	char field[96];
	if (d->ignition_count < 0)
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "fire.ignition_count", "fire.ignition_count is %d; expected >= 0",
				   d->ignition_count);
	const rt_fire_params *p = &d->params;
	const struct {
		const char *name;
		double value, lo, hi;
	} ranges[] = {
		{ "params.update_interval_s", p->update_interval_s, 0.01, 60.0 },
		{ "params.open_ground_fuel_kg_m2", p->open_ground_fuel_kg_m2, 0.0, 3.0 },
		{ "params.curing_pct", p->curing_pct, 0.0, 100.0 },
		{ "params.threshold_spread", p->threshold_spread, 0.0, 0.9 },
		{ "params.flame_residence_s", p->flame_residence_s, 0.1, 3600.0 },
		{ "params.heat_of_combustion_kj_per_kg", p->heat_of_combustion_kj_per_kg, 1000.0, 50000.0 },
		{ "params.block_intensity_kw_per_m", p->block_intensity_kw_per_m, 0.0, 1e6 },
		{ "params.burn_death_rate_per_s", p->burn_death_rate_per_s, 0.0, 10.0 },
		{ "params.smoke_cell_m", p->smoke_cell_m, 1.0, 1000.0 },
		{ "params.smoke_yield_g_per_kg", p->smoke_yield_g_per_kg, 0.0, 1000.0 },
		{ "params.smoke_mixing_height_m", p->smoke_mixing_height_m, 1.0, 5000.0 },
		{ "params.smoke_lifetime_s", p->smoke_lifetime_s, 1.0, 1e6 },
		{ "params.smoke_extinction_m2_per_g", p->smoke_extinction_m2_per_g, 0.0, 100.0 },
		{ "params.smoke_detection_constant", p->smoke_detection_constant, 0.01, 100.0 },
		{ "params.smoke_identification_constant", p->smoke_identification_constant, 0.01, 100.0 },
	};
	for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; ++i) {
		if (!(ranges[i].value >= ranges[i].lo && ranges[i].value <= ranges[i].hi)) {
			char expected[64];
			snprintf(expected, sizeof expected, "%g to %g", ranges[i].lo, ranges[i].hi);
			return fire_field_fail(err, ranges[i].name, ranges[i].value, expected);
		}
	}
	if ((unsigned)p->grass > (unsigned)RT_GRASS_EATEN_OUT)
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "fire.params.grass",
				   "fire.params.grass is %d; expected RT_GRASS_NATURAL, RT_GRASS_GRAZED or RT_GRASS_EATEN_OUT", (int)p->grass);
	if (!(p->smoke_identification_constant <= p->smoke_detection_constant))
		return fire_field_fail(err, "params.smoke_identification_constant", p->smoke_identification_constant,
				       "at most smoke_detection_constant");
	if (d->ignition_count == 0) return RT_OK;
	if (!d->ignitions)
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "fire.ignitions", "fire.ignitions is NULL but ignition_count is %d",
				   d->ignition_count);
	if (!w->map)
		return rt__fail_at(err, RT_ERR_STATE, NULL, 0, 0, "fire.ignitions",
				   "fires burn the map's grass: call rt_world_set_map before an environment with fire.ignitions");
	const double x0 = w->map_ox, y0 = w->map_oy, x1 = x0 + w->map_nx * w->map_cell, y1 = y0 + w->map_ny * w->map_cell;
	for (int i = 0; i < d->ignition_count; ++i) {
		const rt_ignition *g = &d->ignitions[i];
		if (!(isfinite(g->time_s) && g->time_s >= 0.0)) {
			snprintf(field, sizeof field, "ignitions[%d].time_s", i);
			return fire_field_fail(err, field, g->time_s, "a finite time >= 0 s after step 0");
		}
		const rt_vec2 ends[2] = { g->from_m, g->to_m };
		for (int e = 0; e < 2; ++e) {
			snprintf(field, sizeof field, "fire.ignitions[%d].%s", i, e ? "to_m" : "from_m");
			if (!(isfinite(ends[e].x) && isfinite(ends[e].y)))
				return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, field, "%s is (%g, %g); expected finite metres", field,
						   ends[e].x, ends[e].y);
			if (!(ends[e].x >= x0 && ends[e].x < x1 && ends[e].y >= y0 && ends[e].y < y1))
				return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, field,
						   "%s is (%.1f, %.1f) m, outside the map (x %.1f to %.1f, y %.1f to %.1f m)", field,
						   ends[e].x, ends[e].y, x0, x1, y0, y1);
		}
		fuel_search search = { p->open_ground_fuel_kg_m2, false };
		for_ignition_cells((rt_world *)w, g, find_fuel, &search);
		if (!search.found) {
			snprintf(field, sizeof field, "fire.ignitions[%d]", i);
			return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, field,
					   "%s at (%.1f, %.1f) m touches nothing that burns (water, road, bare ground or a feature without fuel)",
					   field, g->from_m.x, g->from_m.y);
		}
	}
	return RT_OK;
}

void rt__fire_destroy(rt_world *w, rt_fire *f, rt_ignition *ignitions, int ignition_count)
{
	const rt_allocator *a = &w->allocator;
	if (ignitions) rt__free(a, ignitions, (size_t)ignition_count * sizeof(rt_ignition));
	if (!f) return;
	rt__free(a, f->state, f->cells);
	rt__free(a, f->time_s, f->cells * sizeof(float));
	rt__free(a, f->burning, (size_t)f->burning_capacity * sizeof *f->burning);
	rt__free(a, f->front, (size_t)f->front_capacity * sizeof *f->front);
	rt__free(a, f->touch, (size_t)f->touch_capacity * sizeof *f->touch);
	const size_t smoke = (size_t)f->snx * (size_t)f->sny * sizeof(float);
	rt__free(a, f->smoke, smoke);
	rt__free(a, f->smoke_next, smoke);
	rt__free(a, f->source, smoke);
	const size_t sight = (size_t)f->sight_nx * (size_t)f->sight_ny * sizeof(float);
	rt__free(a, f->sight_x, sight);
	rt__free(a, f->sight_y, sight);
	if (f->edge) rt__free(a, f->edge, f->cells);
	rt__free(a, f->edge_cells, (size_t)f->edge_capacity * sizeof *f->edge_cells);
	rt__free(a, f, sizeof *f);
}

static int compare_ignitions(const void *pa, const void *pb)
{
	const rt_ignition *a = pa, *b = pb;
	return (a->time_s > b->time_s) - (a->time_s < b->time_s);
}

rt_status rt__fire_build(rt_world *w, const rt_fire_def *d, rt_fire **out, rt_ignition **ignitions_out, rt_error *err)
{
	*out = NULL;
	*ignitions_out = NULL;
	if (d->ignition_count == 0) return RT_OK;
	const rt_allocator *a = &w->allocator;
	const size_t n = (size_t)d->ignition_count;
	rt_ignition *ignitions = rt__alloc(a, n * sizeof *ignitions);
	rt_fire *f = rt__calloc(a, 1, sizeof *f);
	if (!ignitions || !f) {
		rt__free(a, ignitions, n * sizeof *ignitions);
		rt__free(a, f, sizeof *f);
		return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the fire");
	}
	memcpy(ignitions, d->ignitions, n * sizeof *ignitions);
	/* by time; equal times keep their order (insertion sort: a scenario sets few fires) */
	for (size_t i = 1; i < n; ++i)
		for (size_t j = i; j > 0 && compare_ignitions(&ignitions[j - 1], &ignitions[j]) > 0; --j) {
			rt_ignition t = ignitions[j];
			ignitions[j] = ignitions[j - 1];
			ignitions[j - 1] = t;
		}
	f->params = d->params;
	f->nx = w->map_nx;
	f->ny = w->map_ny;
	f->cells = (size_t)f->nx * (size_t)f->ny;
	f->cell_m = w->map_cell;
	f->inv_cell = w->map_inv_cell;
	f->ox = w->map_ox;
	f->oy = w->map_oy;
	f->k = (int)ceil(d->params.smoke_cell_m / w->map_cell - 1e-9);
	if (f->k < 1) f->k = 1;
	f->smoke_cell_m = f->k * w->map_cell;
	f->snx = (f->nx + f->k - 1) / f->k;
	f->sny = (f->ny + f->k - 1) / f->k;
	const size_t smoke = (size_t)f->snx * (size_t)f->sny;
	f->state = rt__alloc(a, f->cells);
	f->time_s = rt__calloc(a, f->cells, sizeof(float));
	f->smoke = rt__calloc(a, smoke, sizeof(float));
	f->smoke_next = rt__calloc(a, smoke, sizeof(float));
	f->source = rt__calloc(a, smoke, sizeof(float));
	/* E4: flames seen from afar, when men fear fire and look beyond their local picture;
	 * sight cells of about a quarter of the reach */
	const rt_morale_params *m = &w->def.morale;
	f->sight_box[0] = f->sight_box[1] = 0;
	f->sight_box[2] = f->sight_box[3] = -1;
	f->seen_at_s = -1.0;
	bool sight_ok = true;
	if (m->fire_fear_rate_per_s > 0.0) { /* the fire's edge, seen as flames */
		f->edge = rt__calloc(a, f->cells, 1);
		sight_ok = f->edge != NULL;
	}
	if (m->fire_fear_rate_per_s > 0.0 && m->fire_sight_m > m->view_radius_m && sight_ok) {
		f->sight_m = m->fire_sight_m;
		f->sight_k = (int)floor(m->fire_sight_m / (4.0 * w->map_cell));
		if (f->sight_k < 1) f->sight_k = 1;
		f->sight_cell_m = f->sight_k * w->map_cell;
		f->sight_nx = (f->nx + f->sight_k - 1) / f->sight_k;
		f->sight_ny = (f->ny + f->sight_k - 1) / f->sight_k;
		const size_t sight = (size_t)f->sight_nx * (size_t)f->sight_ny;
		f->sight_x = rt__calloc(a, sight, sizeof(float));
		f->sight_y = rt__calloc(a, sight, sizeof(float));
		sight_ok = f->sight_x && f->sight_y;
	}
	if (!f->state || !f->time_s || !f->smoke || !f->smoke_next || !f->source || !sight_ok) {
		const size_t cells = f->cells;
		rt__fire_destroy(w, f, ignitions, d->ignition_count);
		return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the fire grid of %zu cells", cells);
	}
	for (size_t c = 0; c < f->cells; ++c)
		f->state[c] = cell_fuel(w, (int)c, f->params.open_ground_fuel_kg_m2) > 0.0 ? RT_FIRE_CELL_FUEL : RT_FIRE_CELL_NONE;
	*out = f;
	f->box[0] = f->box[1] = f->source_box[0] = f->source_box[1] = 0;
	f->box[2] = f->box[3] = f->source_box[2] = f->source_box[3] = -1;
	f->next_update_s = f->params.update_interval_s;
	*ignitions_out = ignitions;
	return RT_OK;
}

/* ---- the fire's step ------------------------------------------------------------------- */

typedef struct light_context {
	double time_s, rate_mps;
	rt_status status;
	rt_error *err;
} light_context;

static bool light_cell(rt_world *w, int cell, void *context)
{
	light_context *c = context;
	if (w->fire->state[cell] != RT_FIRE_CELL_FUEL || flooded(w, cell)) return true;
	c->status = catch_fire(w, cell, c->time_s, c->rate_mps, c->err);
	return c->status == RT_OK;
}

/* State flag used inside spread() only: caught in this very sub-step, so it hands the
 * fire on from the next (the fire never runs ahead within a sub-step in the order the
 * cells happen to be visited). */
#define CAUGHT_NOW 0x80u

static int compare_cells(const void *pa, const void *pb)
{
	const int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
	return (a > b) - (a < b);
}

/* The ellipse's normal-flow coefficients (Richards 1990): a front whose outward normal
 * makes cosine wdot with the direction the wind blows to advances at
 * head x (g wdot + sqrt(h^2 + (f^2 - h^2) wdot^2)). */
typedef struct ellipse {
	double f, g, h;
} ellipse;

static ellipse ellipse_of(double length_to_breadth)
{
	const double lb = length_to_breadth > 1.0 ? length_to_breadth : 1.0;
	const double c = sqrt(1.0 - 1.0 / (lb * lb));
	const double back = (1.0 - c) / (1.0 + c); /* back rate / head rate */
	ellipse e = { 0.5 * (1.0 + back), 0.5 * (1.0 - back), 0.5 * (1.0 + back) / lb };
	return e;
}

static double normal_fraction(const ellipse *e, double wdot)
{
	return e->g * wdot + sqrt(e->h * e->h + (e->f * e->f - e->h * e->h) * wdot * wdot);
}

double rt_fire_rate_mps(const rt_fire_params *params, double wind_mps, double fuel_moisture_pct, double angle_deg)
{
	const double head = rt_fire_head_rate_mps(params, wind_mps, fuel_moisture_pct);
	const ellipse el = ellipse_of(rt_fire_length_to_breadth(wind_mps));
	return head * normal_fraction(&el, cos(angle_deg * (PI / 180.0)));
}

/* Caught before this sub-step: burning or burnt. */
static bool source_state(uint8_t st)
{
	return st == RT_FIRE_CELL_BURNING || st == RT_FIRE_CELL_HOT || st == RT_FIRE_CELL_BURNT;
}

static const int neighbour_dirs[8][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 } };

/* The front's outward unit normal at the unburnt cell (jx, jy): from its caught
 * neighbours toward it (ringed by fire: the way the wind blows, or east in a calm). */
static void front_normal(const rt_fire *f, int jx, int jy, double wx, double wy, double *nx_out, double *ny_out)
{
	double nx = 0.0, ny = 0.0;
	for (int d = 0; d < 8; ++d) {
		const int ix = jx - neighbour_dirs[d][0], iy = jy - neighbour_dirs[d][1];
		if (ix < 0 || iy < 0 || ix >= f->nx || iy >= f->ny || !source_state(f->state[iy * f->nx + ix])) continue;
		const double len = d < 4 ? 1.0 : 1.4142135623730951;
		nx += neighbour_dirs[d][0] / len;
		ny += neighbour_dirs[d][1] / len;
	}
	double norm = sqrt(nx * nx + ny * ny);
	if (norm < 1e-9) {
		nx = wx;
		ny = wy;
		norm = sqrt(nx * nx + ny * ny);
		if (norm < 1e-9) {
			nx = 1.0;
			norm = 1.0;
		}
	}
	*nx_out = nx / norm;
	*ny_out = ny / norm;
}

/* The front over [a, b]. Every unburnt cell beside it would be reached, from each caught
 * neighbour, at that neighbour's ignition time + threshold x (distance between their
 * centres along the front's normal) / (the front's normal speed now); it catches when
 * the earliest of these falls within the sub-step (or before: then at a). */
static rt_status spread(rt_world *w, double a, double b, double head_mps, const ellipse *el, double wx, double wy, rt_error *err)
{
	rt_fire *f = w->fire;
	/* the unburnt cells beside the front; front cells with none left drop out */
	f->touch_count = 0;
	int kept = 0;
	for (int k = 0; k < f->front_count; ++k) {
		const int i = f->front[k], ix = i % f->nx, iy = i / f->nx;
		bool open = false;
		for (int d = 0; d < 8; ++d) {
			const int jx = ix + neighbour_dirs[d][0], jy = iy + neighbour_dirs[d][1];
			if (jx < 0 || jy < 0 || jx >= f->nx || jy >= f->ny) continue;
			const int j = jy * f->nx + jx;
			if (f->state[j] != RT_FIRE_CELL_FUEL) continue;
			open = true; /* a flooded cell may burn when the sea falls */
			if (flooded(w, j) || head_mps <= 0.0) continue;
			if (!reserve(w, (void **)&f->touch, &f->touch_capacity, f->touch_count, sizeof *f->touch))
				return rt__fail(err, RT_ERR_NOMEM, "cannot grow the fire's scratch past %d entries", f->touch_count);
			f->touch[f->touch_count++] = j;
		}
		if (open) f->front[kept++] = i;
	}
	f->front_count = kept;
	if (f->touch_count == 0) return RT_OK;
	qsort(f->touch, (size_t)f->touch_count, sizeof *f->touch, compare_cells);
	const int count = f->touch_count; /* catching appends to the front, not to this list */
	rt_status status = RT_OK;
	for (int k = 0; k < count; ++k) {
		const int j = f->touch[k];
		if (k > 0 && f->touch[k - 1] == j) continue;
		const int jx = j % f->nx, jy = j / f->nx;
		double nx, ny;
		front_normal(f, jx, jy, wx, wy, &nx, &ny);
		const double rate = head_mps * normal_fraction(el, nx * wx + ny * wy);
		if (!(rate > 0.0)) continue;
		const double threshold = threshold_of(w, j);
		/* sources more than 45 degrees off the normal say little of when the front comes;
		 * they count only when there is no other (a cell between two burnt ones) */
		double arrival = INFINITY;
		for (int pass = 0; pass < 2 && arrival == INFINITY; ++pass) {
			const double min_cosine = pass == 0 ? 0.7071 : 0.25;
			for (int d = 0; d < 8; ++d) {
				const int ix = jx - neighbour_dirs[d][0], iy = jy - neighbour_dirs[d][1];
				if (ix < 0 || iy < 0 || ix >= f->nx || iy >= f->ny) continue;
				const int i = iy * f->nx + ix;
				if (!source_state(f->state[i])) continue;
				const double len = d < 4 ? 1.0 : 1.4142135623730951;
				const double along = (neighbour_dirs[d][0] * nx + neighbour_dirs[d][1] * ny) * f->cell_m;
				if (along < min_cosine * len * f->cell_m - 1e-9) continue;
				const double t = (double)f->time_s[i] + threshold * along / rate;
				arrival = t < arrival ? t : arrival;
			}
		}
		if (!(arrival <= b)) continue;
		if ((status = catch_fire(w, j, arrival > a ? arrival : a, rate, err)) != RT_OK) break;
		f->state[j] |= CAUGHT_NOW;
	}
	for (int k = kept; k < f->front_count; ++k) f->state[f->front[k]] &= (uint8_t)~CAUGHT_NOW;
	return status;
}

static void burn_out(rt_fire *f, double t_s)
{
	int kept = 0;
	for (int k = 0; k < f->burning_count; ++k) {
		const rt_fire_burning *b = &f->burning[k];
		if ((double)b->out_s > t_s) {
			f->burning[kept++] = *b;
			continue;
		}
		if (f->state[b->cell] == RT_FIRE_CELL_HOT) f->hot_count--;
		f->state[b->cell] = RT_FIRE_CELL_BURNT;
		f->burnt_count++;
	}
	f->burning_count = kept;
}

static void box_add(int *box, int x, int y)
{
	if (box[2] < box[0]) {
		box[0] = box[2] = x;
		box[1] = box[3] = y;
		return;
	}
	box[0] = x < box[0] ? x : box[0];
	box[1] = y < box[1] ? y : box[1];
	box[2] = x > box[2] ? x : box[2];
	box[3] = y > box[3] ? y : box[3];
}

static inline float smoke_sample(const rt_fire *f, int x, int y)
{
	if (x < f->box[0] || y < f->box[1] || x > f->box[2] || y > f->box[3]) return 0.0f;
	return f->smoke[(size_t)y * (size_t)f->snx + (size_t)x];
}

/* Smoke over [t0, t1]: emitted by the burning cells, carried by the wind (semi-Lagrangian,
 * bilinear), thinned with its lifetime. */
static void smoke_step(rt_world *w, double h, rt_vec2 wind)
{
	rt_fire *f = w->fire;
	const rt_fire_params *p = &f->params;
	const double cell_area = f->cell_m * f->cell_m, smoke_volume = f->smoke_cell_m * f->smoke_cell_m * p->smoke_mixing_height_m;
	for (int k = 0; k < f->burning_count; ++k) {
		const rt_fire_burning *b = &f->burning[k];
		const double burn_s = fmax(1e-3, (double)b->out_s - (double)b->ignition_s);
		const double grams_per_s = p->smoke_yield_g_per_kg * (double)b->fuel_kg_m2 * cell_area / burn_s;
		const int sx = (b->cell % f->nx) / f->k, sy = (b->cell / f->nx) / f->k;
		f->source[(size_t)sy * (size_t)f->snx + (size_t)sx] += (float)(grams_per_s / smoke_volume);
		box_add(f->source_box, sx, sy);
	}
	const bool had_smoke = f->box[2] >= f->box[0], sources = f->source_box[2] >= f->source_box[0];
	if (!had_smoke && !sources) {
		f->smoke_max = 0.0f;
		return;
	}
	/* where smoke may be after the step */
	int nb[4] = { 0, 0, -1, -1 };
	if (had_smoke) {
		const int reach = (int)ceil(hypot(wind.x, wind.y) * h / f->smoke_cell_m) + 1;
		nb[0] = f->box[0] - reach;
		nb[1] = f->box[1] - reach;
		nb[2] = f->box[2] + reach;
		nb[3] = f->box[3] + reach;
	}
	if (sources) {
		box_add(nb, f->source_box[0], f->source_box[1]);
		box_add(nb, f->source_box[2], f->source_box[3]);
	}
	nb[0] = nb[0] < 0 ? 0 : nb[0];
	nb[1] = nb[1] < 0 ? 0 : nb[1];
	nb[2] = nb[2] >= f->snx ? f->snx - 1 : nb[2];
	nb[3] = nb[3] >= f->sny ? f->sny - 1 : nb[3];
	const double decay = exp(-h / p->smoke_lifetime_s);
	const double shift_x = wind.x * h / f->smoke_cell_m, shift_y = wind.y * h / f->smoke_cell_m;
	for (int y = nb[1]; y <= nb[3]; ++y) {
		const double sy = y - shift_y;
		const int y0 = (int)floor(sy);
		const double ty = sy - y0;
		for (int x = nb[0]; x <= nb[2]; ++x) {
			const double sx = x - shift_x;
			const int x0 = (int)floor(sx);
			const double tx = sx - x0;
			const double carried = (1.0 - ty) * ((1.0 - tx) * smoke_sample(f, x0, y0) + tx * smoke_sample(f, x0 + 1, y0)) +
					       ty * ((1.0 - tx) * smoke_sample(f, x0, y0 + 1) + tx * smoke_sample(f, x0 + 1, y0 + 1));
			const size_t c = (size_t)y * (size_t)f->snx + (size_t)x;
			f->smoke_next[c] = (float)(carried * decay + (double)f->source[c] * h);
		}
	}
	/* the old field is cleared where it could hold smoke, and the two swap */
	for (int y = f->box[1]; had_smoke && y <= f->box[3]; ++y)
		memset(f->smoke + (size_t)y * (size_t)f->snx + (size_t)f->box[0], 0, (size_t)(f->box[2] - f->box[0] + 1) * sizeof(float));
	for (int y = f->source_box[1]; sources && y <= f->source_box[3]; ++y)
		memset(f->source + (size_t)y * (size_t)f->snx + (size_t)f->source_box[0], 0,
		       (size_t)(f->source_box[2] - f->source_box[0] + 1) * sizeof(float));
	f->source_box[0] = f->source_box[1] = 0;
	f->source_box[2] = f->source_box[3] = -1;
	float *t = f->smoke;
	f->smoke = f->smoke_next;
	f->smoke_next = t;
	/* shrink the box to the smoke that is left; what is too thin to matter goes */
	int kept[4] = { 0, 0, -1, -1 };
	float top = 0.0f;
	for (int y = nb[1]; y <= nb[3]; ++y)
		for (int x = nb[0]; x <= nb[2]; ++x) {
			const float v = f->smoke[(size_t)y * (size_t)f->snx + (size_t)x];
			if (v > SMOKE_FLOOR_G_PER_M3) {
				box_add(kept, x, y);
				top = v > top ? v : top;
			}
		}
	for (int y = nb[1]; y <= nb[3]; ++y)
		for (int x = nb[0]; x <= nb[2]; ++x)
			if (x < kept[0] || x > kept[2] || y < kept[1] || y > kept[3]) f->smoke[(size_t)y * (size_t)f->snx + (size_t)x] = 0.0f;
	memcpy(f->box, kept, sizeof kept);
	f->smoke_max = top;
}

/* Advances the fire over [t0, t1]. */
static rt_status fire_advance(rt_world *w, double t0, double t1, rt_error *err)
{
	rt_fire *f = w->fire;
	const rt_environment_state *e = &w->env;
	const double wind = e->wind_speed_mps;
	const double head = rt_fire_head_rate_mps(&f->params, wind, e->fuel_moisture_pct);
	const ellipse el = ellipse_of(rt_fire_length_to_breadth(wind));
	const double wx = wind > 0.0 ? e->wind_mps.x / wind : 0.0, wy = wind > 0.0 ? e->wind_mps.y / wind : 0.0;
	const double h = t1 - t0;
	int substeps = (int)ceil(head * h / (0.5 * f->cell_m));
	substeps = substeps < 1 ? 1 : (substeps > MAX_SUBSTEPS ? MAX_SUBSTEPS : substeps);
	for (int k = 0; k < substeps; ++k) {
		const double a = t0 + h * k / substeps, b = k + 1 == substeps ? t1 : t0 + h * (k + 1) / substeps;
		rt_status s = spread(w, a, b, head, &el, wx, wy, err);
		if (s != RT_OK) return s;
		/* fires the scenario sets by now: they spread from the next sub-step on, from
		 * the time they were set */
		while (f->next_ignition < w->ignition_count && w->ignitions[f->next_ignition].time_s <= b) {
			const rt_ignition *g = &w->ignitions[f->next_ignition++];
			light_context c = { fmax(g->time_s, a), head, RT_OK, err };
			for_ignition_cells(w, g, light_cell, &c);
			if (c.status != RT_OK) return c.status;
		}
		burn_out(f, b);
	}
	smoke_step(w, h, e->wind_mps);
	return RT_OK;
}

rt_status rt__fire_phase(rt_world *w, rt_error *err)
{
	rt_fire *f = w->fire;
	if (!f) return RT_OK;
	const double interval = f->params.update_interval_s;
	while (f->next_update_s <= w->time_s + 1e-9 * interval) {
		rt_status s = fire_advance(w, f->next_update_s - interval, f->next_update_s, err);
		if (s != RT_OK) return s;
		f->next_update_s += interval;
	}
	rt__fire_env(w);
	return RT_OK;
}

void rt__fire_env(rt_world *w)
{
	const rt_fire *f = w->fire;
	if (!f) return;
	rt_environment_state *e = &w->env;
	e->fire_head_rate_mps = rt_fire_head_rate_mps(&f->params, e->wind_speed_mps, e->fuel_moisture_pct);
	e->fire_burning_cells = f->burning_count;
	e->fire_blocking_cells = f->hot_count;
	e->fire_burnt_cells = f->burnt_count;
	e->smoke_max_g_per_m3 = f->smoke_max;
}

void rt__fire_reset(rt_world *w)
{
	rt_fire *f = w->fire;
	if (!f) return;
	for (size_t c = 0; c < f->cells; ++c)
		f->state[c] = cell_fuel(w, (int)c, f->params.open_ground_fuel_kg_m2) > 0.0 ? RT_FIRE_CELL_FUEL : RT_FIRE_CELL_NONE;
	memset(f->time_s, 0, f->cells * sizeof(float));
	const size_t smoke = (size_t)f->snx * (size_t)f->sny * sizeof(float);
	memset(f->smoke, 0, smoke);
	memset(f->smoke_next, 0, smoke);
	memset(f->source, 0, smoke);
	f->burning_count = f->front_count = f->touch_count = 0;
	f->next_ignition = 0;
	f->next_update_s = f->params.update_interval_s;
	f->hot_count = f->burnt_count = 0;
	f->box[0] = f->box[1] = f->source_box[0] = f->source_box[1] = 0;
	f->box[2] = f->box[3] = f->source_box[2] = f->source_box[3] = -1;
	f->smoke_max = 0.0f;
	for (int k = 0; k < f->edge_count; ++k) f->edge[f->edge_cells[k]] = 0;
	f->edge_count = 0;
	f->seen_at_s = -1.0;
}

rt_status rt__fire_reserve(rt_world *w, int burning, int front, rt_error *err)
{
	rt_fire *f = w->fire;
	if (!f) return RT_OK;
	if (!grow_to(w, (void **)&f->burning, &f->burning_capacity, burning, sizeof *f->burning) ||
	    !grow_to(w, (void **)&f->front, &f->front_capacity, front, sizeof *f->front))
		return rt__fail(err, RT_ERR_NOMEM, "cannot make room for a fire of %d burning cells and %d on its front", burning, front);
	return RT_OK;
}

/* ---- what men meet -------------------------------------------------------------------- */

/* Flames of a head fire on a cell next to (i, j), or on it. */
static bool hot_near(const rt_fire *f, int i, int j)
{
	for (int y = j - 1; y <= j + 1; ++y)
		for (int x = i - 1; x <= i + 1; ++x)
			if (x >= 0 && y >= 0 && x < f->nx && y < f->ny && f->state[y * f->nx + x] == RT_FIRE_CELL_HOT) return true;
	return false;
}

bool rt__fire_flight(const rt_world *w, double x, double y, double *dx, double *dy)
{
	const rt_fire *f = w->fire;
	const int ix = rt__floor_int((x - f->ox) * f->inv_cell), iy = rt__floor_int((y - f->oy) * f->inv_cell);
	if (ix < 0 || iy < 0 || ix >= f->nx || iy >= f->ny) return false;
	const uint8_t here = f->state[iy * f->nx + ix];
	const bool in_flames = here == RT_FIRE_CELL_HOT;
	/* burnt ground and ground with nothing to burn are safe; grass next to flames is not */
	if (!in_flames && !((here == RT_FIRE_CELL_FUEL || here == RT_FIRE_CELL_BURNING) && hot_near(f, ix, iy))) return false;
	double best = INFINITY, bx = 0.0, by = 0.0;
	for (int j = iy - ESCAPE_REACH_CELLS; j <= iy + ESCAPE_REACH_CELLS; ++j) {
		if (j < 0 || j >= f->ny) continue;
		for (int i = ix - ESCAPE_REACH_CELLS; i <= ix + ESCAPE_REACH_CELLS; ++i) {
			if (i < 0 || i >= f->nx) continue;
			const int c = j * f->nx + i;
			const uint8_t st = f->state[c];
			if (st == RT_FIRE_CELL_HOT || !w->map_passable[c]) continue;
			/* outside the flames a man does not run through them */
			const int mi = (ix + i) / 2, mj = (iy + j) / 2;
			if (!in_flames && f->state[mj * f->nx + mi] == RT_FIRE_CELL_HOT) continue;
			const double cx = f->ox + (i + 0.5) * f->cell_m, cy = f->oy + (j + 0.5) * f->cell_m;
			/* burnt ground and ground without fuel are safe; grass may catch, the more
			 * so beside the flames */
			const bool grass = st == RT_FIRE_CELL_FUEL || st == RT_FIRE_CELL_BURNING;
			const double cost = hypot(cx - x, cy - y) + (grass ? f->cell_m : 0.0) + (grass && hot_near(f, i, j) ? 2.0 * f->cell_m : 0.0);
			if (cost < best) {
				best = cost;
				bx = cx - x;
				by = cy - y;
			}
		}
	}
	double n = hypot(bx, by);
	if (!(best < INFINITY) || n <= 1e-9) {
		/* nothing near: into the wind, where the fire has been */
		bx = -w->env.wind_mps.x;
		by = -w->env.wind_mps.y;
		n = hypot(bx, by);
		if (n <= 1e-9) return false;
	}
	*dx = bx / n;
	*dy = by / n;
	return true;
}

/* Where the flames of map cell c stand, from the grid's origin: a hot cell's at its
 * centre; the fire's edge at the cell's side toward the front (its centre less half a
 * cell along the front's outward normal there), where its line of flames stands. */
static void flames_at(const rt_fire *f, int c, double *fx, double *fy)
{
	const int i = c % f->nx, j = c / f->nx;
	*fx = (i + 0.5) * f->cell_m;
	*fy = (j + 0.5) * f->cell_m;
	if (f->state[c] == RT_FIRE_CELL_HOT) return;
	/* (a cell the fire rings round has no normal: the calm's east, not the wind's way, so
	 * that where the flames stand is a function of the fire's state alone) */
	double nx, ny;
	front_normal(f, i, j, 0.0, 0.0, &nx, &ny);
	*fx -= 0.5 * f->cell_m * nx;
	*fy -= 0.5 * f->cell_m * ny;
}

/* E4, fear of fire: the share of the map cells round (x, y) within `radius_m` (a square
 * of the cells within max(1, ceil(radius / cell - 1/2)) of his own, as the local picture
 * is drawn, section 9) whose flames stop men, and, when any do, the unit direction away
 * from them (the sum of the unit vectors from each such cell to him, weighted by the
 * inverse of its distance; from his own cell, into the wind). 0 and no direction when
 * none burns there. */
double rt__fire_seen(const rt_world *w, double x, double y, double radius_m, double *ax, double *ay)
{
	const rt_fire *f = w->fire;
	if (ax) *ax = 0.0;
	if (ay) *ay = 0.0;
	if (!f || (f->hot_count <= 0 && f->edge_count <= 0)) return 0.0;
	const int ix = rt__floor_int((x - f->ox) * f->inv_cell), iy = rt__floor_int((y - f->oy) * f->inv_cell);
	int r = (int)ceil(radius_m * f->inv_cell - 0.5);
	if (r < 1) r = 1;
	int hot = 0;
	double sx = 0.0, sy = 0.0;
	for (int j = iy - r; j <= iy + r; ++j)
		for (int i = ix - r; i <= ix + r; ++i) {
			if (i < 0 || j < 0 || i >= f->nx || j >= f->ny) continue;
			const int c = j * f->nx + i;
			if (f->state[c] != RT_FIRE_CELL_HOT && !(f->edge && f->edge[c])) continue;
			hot++;
			double fx, fy;
			flames_at(f, c, &fx, &fy);
			const double dx = x - (f->ox + fx), dy = y - (f->oy + fy);
			const double d2 = dx * dx + dy * dy;
			if (d2 > 1e-12) {
				sx += dx / d2;
				sy += dy / d2;
			} else {
				sx -= w->env.wind_mps.x;
				sy -= w->env.wind_mps.y;
			}
		}
	if (hot == 0) return 0.0;
	const double n = hypot(sx, sy);
	if (n > 1e-12 && ax && ay) {
		*ax = sx / n;
		*ay = sy / n;
	}
	return (double)hot / (double)((2 * r + 1) * (2 * r + 1));
}

/* Adds to the sight sums the flames of map cell `cell`: the unit vector from them to each
 * sight cell's centre within sight_m, over its distance. */
static void sight_add(rt_world *w, int cell)
{
	rt_fire *f = w->fire;
	const double reach = f->sight_m, reach2 = reach * reach, s = f->sight_cell_m;
	const int r = (int)ceil(reach / s) + 1;
	double hx, hy; /* from the grid's origin */
	flames_at(f, cell, &hx, &hy);
	const int si = (cell % f->nx) / f->sight_k, sj = (cell / f->nx) / f->sight_k;
	const int x0 = si - r < 0 ? 0 : si - r, x1 = si + r >= f->sight_nx ? f->sight_nx - 1 : si + r;
	const int y0 = sj - r < 0 ? 0 : sj - r, y1 = sj + r >= f->sight_ny ? f->sight_ny - 1 : sj + r;
	for (int y = y0; y <= y1; ++y)
		for (int x = x0; x <= x1; ++x) {
			const double dx = (x + 0.5) * s - hx, dy = (y + 0.5) * s - hy, d2 = dx * dx + dy * dy;
			if (d2 > reach2 || d2 < 1e-12) continue;
			const size_t c = (size_t)y * (size_t)f->sight_nx + (size_t)x;
			f->sight_x[c] += (float)(dx / d2);
			f->sight_y[c] += (float)(dy / d2);
		}
	box_add(f->sight_box, x0, y0);
	box_add(f->sight_box, x1, y1);
}

/* E4, what men who fear fire see of it, rebuilt every step (serially, in the front's and
 * the burning list's order, so the same at any thread count):
 * - the fire's edge: each unburnt cell beside the front (not under the sea, and with no
 *   cell beside it still aflame, whose flames show the line already) into which the front
 *   now runs, with the wind of this step, at an intensity H w R(n) that stops men.
 *   A cell's flames last its residence time and the time the front takes to cross it at
 *   the rate that reached it; where the front runs on more slowly than it came (a flank,
 *   a corner of the fire), the cell it left may be burnt out long before the next catches,
 *   though the line of flames stands between them all the while (on the 20-m cells of the
 *   scenarios a flank at 0.15 m/s catches a row every two minutes). Men see that line.
 * - the flames seen from afar: the sum, at each sight cell's centre, of the unit vectors
 *   from the hot cells and the edge within sight_m to it over their distance. */
rt_status rt__fire_seen_refresh(rt_world *w, rt_error *err)
{
	rt_fire *f = w->fire;
	if (!f || !f->edge || f->seen_at_s == w->time_s) return RT_OK;
	/* the sight grid is rebuilt when the fire has moved on, or the edge is no longer the
	 * same cells in the same order (the wind has turned, the sea risen); else it holds */
	bool changed = f->seen_at_s < 0.0 || f->seen_update_s != f->next_update_s;
	const int old_count = f->edge_count;
	for (int k = 0; k < old_count; ++k) f->edge[f->edge_cells[k]] = 0;
	int count = 0;
	const rt_environment_state *e = &w->env;
	const double wind = e->wind_speed_mps;
	const double head = rt_fire_head_rate_mps(&f->params, wind, e->fuel_moisture_pct);
	const ellipse el = ellipse_of(rt_fire_length_to_breadth(wind));
	const double wx = wind > 0.0 ? e->wind_mps.x / wind : 0.0, wy = wind > 0.0 ? e->wind_mps.y / wind : 0.0;
	const double block = f->params.block_intensity_kw_per_m, heat = f->params.heat_of_combustion_kj_per_kg;
	for (int k = 0; head > 0.0 && k < f->front_count; ++k) {
		const int i = f->front[k], ix = i % f->nx, iy = i / f->nx;
		for (int d = 0; d < 8; ++d) {
			const int jx = ix + neighbour_dirs[d][0], jy = iy + neighbour_dirs[d][1];
			if (jx < 0 || jy < 0 || jx >= f->nx || jy >= f->ny) continue;
			const int j = jy * f->nx + jx;
			/* where a cell beside it still flames, those flames show the line */
			if (f->state[j] != RT_FIRE_CELL_FUEL || f->edge[j] || flooded(w, j) || hot_near(f, jx, jy)) continue;
			double nx, ny;
			front_normal(f, jx, jy, wx, wy, &nx, &ny);
			const double rate = head * normal_fraction(&el, nx * wx + ny * wy);
			if (!(heat * rt__fire_fuel(w, j) * rate >= block)) continue;
			/* until the first difference the list is rewritten over itself, entry by entry */
			if (!changed && (count >= old_count || f->edge_cells[count] != j)) changed = true;
			if (!reserve(w, (void **)&f->edge_cells, &f->edge_capacity, count, sizeof *f->edge_cells)) {
				f->edge_count = 0; /* the flags of this pass are set: clear them with the list */
				for (int q = 0; q < count; ++q) f->edge[f->edge_cells[q]] = 0;
				f->seen_at_s = -1.0;
				return rt__fail(err, RT_ERR_NOMEM, "cannot grow the fire's edge past %d cells", count);
			}
			f->edge[j] = 1;
			f->edge_cells[count++] = j;
		}
	}
	changed = changed || count != old_count;
	f->edge_count = count;
	f->seen_update_s = f->next_update_s;
	if (f->sight_x && changed) {
		int *box = f->sight_box;
		for (int y = box[1]; y <= box[3]; ++y)
			for (int x = box[0]; x <= box[2]; ++x) {
				f->sight_x[(size_t)y * (size_t)f->sight_nx + (size_t)x] = 0.0f;
				f->sight_y[(size_t)y * (size_t)f->sight_nx + (size_t)x] = 0.0f;
			}
		box[0] = box[1] = 0;
		box[2] = box[3] = -1;
		for (int k = 0; k < f->burning_count; ++k) {
			const int cell = f->burning[k].cell;
			if (f->state[cell] == RT_FIRE_CELL_HOT) sight_add(w, cell);
		}
		for (int k = 0; k < f->edge_count; ++k) sight_add(w, f->edge_cells[k]);
	}
	f->seen_at_s = w->time_s;
	return RT_OK;
}

bool rt__fire_seen_afar(const rt_world *w, double x, double y, double *ax, double *ay)
{
	const rt_fire *f = w->fire;
	if (!f || !f->sight_x || (f->hot_count <= 0 && f->edge_count <= 0)) return false;
	const int i = rt__floor_int((x - f->ox) * f->inv_cell), j = rt__floor_int((y - f->oy) * f->inv_cell);
	if (i < 0 || j < 0 || i >= f->nx || j >= f->ny) return false;
	const size_t c = (size_t)(j / f->sight_k) * (size_t)f->sight_nx + (size_t)(i / f->sight_k);
	const double sx = f->sight_x[c], sy = f->sight_y[c], n = hypot(sx, sy);
	if (!(n > 1e-12)) return false;
	*ax = sx / n;
	*ay = sy / n;
	return true;
}

static double smoke_at(const rt_world *w, double x, double y)
{
	const rt_fire *f = w->fire;
	if (!f || f->smoke_max <= 0.0f) return 0.0;
	const int ix = rt__floor_int((x - f->ox) * f->inv_cell), iy = rt__floor_int((y - f->oy) * f->inv_cell);
	if (ix < 0 || iy < 0 || ix >= f->nx || iy >= f->ny) return 0.0;
	return smoke_sample(f, ix / f->k, iy / f->k);
}

double rt__smoke_detection_m(const rt_world *w, double x, double y)
{
	const double c = smoke_at(w, x, y);
	const double extinction = w->fire ? w->fire->params.smoke_extinction_m2_per_g * c : 0.0;
	return extinction > 0.0 ? w->fire->params.smoke_detection_constant / extinction : INFINITY;
}

void rt__fire_burn(rt_world *w)
{
	if (!rt__fire_hot_anywhere(w)) return;
	rt_agents *a = &w->agents;
	const double chance = w->fire->params.burn_death_rate_per_s * w->def.dt_s;
	const uint64_t seed = w->def.seed, step = (uint64_t)w->step;
	int64_t burned = 0;
	RT_PARALLEL_FOR(RT_PARALLEL(a->count), (schedule(static) num_threads(w->threads) reduction(+ : burned)),
	for (int s = 0; s < a->count; ++s) {
		if (!rt__active(a->state[s]) || !rt__fire_hot(w, rt__terrain_cell(w, a->x[s], a->y[s]))) continue;
		if (rt_random_uniform(seed, a->id[s], step, RT_STREAM_BURN) < chance) {
			a->state[s] = RT_STATE_DEAD_BURNED;
			a->vx[s] = a->vy[s] = 0.0;
			burned++;
		}
	});
	w->burned += burned;
}

/* ---- queries ------------------------------------------------------------------------------- */

bool rt_world_fire_cell(const rt_world *w, rt_vec2 p, rt_fire_cell *out)
{
	if (!w || !w->fire || !out) return false;
	const int cell = rt__terrain_cell(w, p.x, p.y);
	if (cell < 0) return false;
	const rt_fire *f = w->fire;
	const uint8_t st = f->state[cell];
	memset(out, 0, sizeof *out);
	out->fuel_kg_m2 = rt__fire_fuel(w, cell);
	out->ignition_time_s = out->burn_out_time_s = NAN;
	out->smoke_g_per_m3 = smoke_at(w, p.x, p.y);
	switch (st) {
	case RT_FIRE_CELL_NONE: out->state = RT_FIRE_NO_FUEL; break;
	case RT_FIRE_CELL_FUEL: out->state = RT_FIRE_UNBURNT; break;
	case RT_FIRE_CELL_BURNT: out->state = RT_FIRE_BURNT; break;
	default: out->state = RT_FIRE_BURNING; break;
	}
	if (st == RT_FIRE_CELL_BURNING || st == RT_FIRE_CELL_HOT || st == RT_FIRE_CELL_BURNT) out->ignition_time_s = f->time_s[cell];
	out->blocks = st == RT_FIRE_CELL_HOT;
	/* only a cell in flames is on the burning list, once */
	if (st == RT_FIRE_CELL_BURNING || st == RT_FIRE_CELL_HOT)
		for (int k = 0; k < f->burning_count; ++k)
			if (f->burning[k].cell == cell) {
				out->burn_out_time_s = f->burning[k].out_s;
				out->intensity_kw_per_m = f->burning[k].intensity_kw_m;
				break;
			}
	return true;
}

void rt_world_sight_m(const rt_world *w, rt_vec2 p, double *detection_m, double *identification_m)
{
	double detection = INFINITY, identification = INFINITY;
	if (w && w->env.set) {
		detection = w->env.detection_range_m;
		identification = w->env.identification_range_m;
	}
	if (w && w->fire) {
		const double extinction = w->fire->params.smoke_extinction_m2_per_g * smoke_at(w, p.x, p.y);
		if (extinction > 0.0) {
			detection = fmin(detection, w->fire->params.smoke_detection_constant / extinction);
			identification = fmin(identification, w->fire->params.smoke_identification_constant / extinction);
		}
	}
	if (detection_m) *detection_m = detection;
	if (identification_m) *identification_m = identification;
}
