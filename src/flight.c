/* Refuges, flight fields and boats (docs/model.md section 13; PHENOMENA.md E6, E7, Q9).
 *
 * A refuge is a side's: a fort of the map (open while it takes the side's men and has
 * room) or a way home (always open; a fleeing man who reaches it leaves the field). A
 * side with refuges has one flight field: the travel time to the nearest open refuge,
 * from a fast march (nav.c) out of every open refuge at once, each cell costed by the
 * ground and, with enemy costs on, by the danger of the enemy the side knows of:
 *
 *   cost(cell) = h / F × (1 + P),   P = P_max · D / (D + D_half)
 *
 * h the field cell (m), F the ground's speed factor, D the known enemy strength (men,
 * riders counted horse_threat_weight times) on the coarse cells within enemy_reach_m of
 * the cell. An enemy man is known to a side when one of its men stands within sight of
 * him (min(sense range, detection range); torches farther at night, as for pursuit), on
 * the coarse grid. The field is built when the side first has a man in flight, again
 * when a refuge has closed (at most every rebuild_min_s) and, with enemy costs, every
 * enemy_interval_s, and only while the side has men in flight. Everything here is
 * serial and in a fixed order; the field is a pure function of its inputs (which refuges
 * were open, the known enemy per coarse cell), which the checkpoint keeps.
 *
 * Boats: a landing's boats take the side's fleeing (or sent) men standing on it, in slot
 * order, each boat up to its capacity; a boat that took anyone casts off at the end of
 * the step and is back after its turnaround. */
#include "world.h"

#include <math.h>

#define RT_MAX_REFUGES 1024
#define RT_MAX_LANDINGS 1024
#define RT_MAX_KNOWN_CELLS (16ll << 20)

/* ---- definitions --------------------------------------------------------------------- */
rt_refuge_def rt_refuge_def_default(void)
{
	rt_refuge_def d;
	memset(&d, 0, sizeof d);
	d.cookie = RT_COOKIE;
	return d;
}

rt_flight_params rt_flight_params_default(void)
{
	rt_flight_params p;
	memset(&p, 0, sizeof p);
	p.field_cell_m = 0.0;          /* as goals: 0.25 m */
	p.rebuild_min_s = 30.0;        /* word of a full fort spreads within half a minute: estimate (E) */
	p.enemy_interval_s = 300.0;    /* scouts' reports by the few minutes (Q7): estimate (E) */
	p.enemy_cell_m = 0.0;          /* 4 x the field cell */
	p.enemy_reach_m = 200.0;       /* beyond a bow shot (section 8: 60-120 m) with room to spare: estimate (E) */
	p.enemy_cost_max = 20.0;       /* a man runs up to 21 times as far round a strong enemy as through him: estimate (E) */
	p.enemy_half_men = 20.0;       /* a band of 20 men within reach is half that fearsome: estimate (E) */
	p.fire_men = 1000.0;           /* flames within reach are nearly the most a cell may cost (P = 19.6): estimate (E) */
	p.cookie = RT_COOKIE;
	return p;
}

rt_boats_def rt_boats_def_default(void)
{
	rt_boats_def d;
	memset(&d, 0, sizeof d);
	d.boats = 1;
	d.capacity = 10;
	d.turnaround_s = 3600.0;
	d.goal = RT_NO_GOAL;
	d.cookie = RT_COOKIE;
	return d;
}

static bool finite_rect(rt_vec2 lo, rt_vec2 hi)
{
	return isfinite(lo.x) && isfinite(lo.y) && isfinite(hi.x) && isfinite(hi.y) && hi.x > lo.x && hi.y > lo.y;
}

rt_status rt_world_set_flight(rt_world *w, const rt_flight_params *p, rt_error *err)
{
	rt__error_clear(err);
	if (!w || !p || p->cookie != RT_COOKIE) return rt__fail(err, RT_ERR_INVALID, "flight parameters were not made by rt_flight_params_default()");
	if (w->step > 0) return rt__fail(err, RT_ERR_STATE, "set the flight parameters before the first step");
	if (!(p->field_cell_m >= 0.0 && p->field_cell_m <= 50.0))
		return rt__fail(err, RT_ERR_INVALID, "flight field_cell_m is %g; expected 0 (0.25 m) to 50 m", p->field_cell_m);
	if (!(p->rebuild_min_s >= 0.0 && p->rebuild_min_s <= 86400.0 && p->enemy_interval_s >= 0.0 && p->enemy_interval_s <= 86400.0))
		return rt__fail(err, RT_ERR_INVALID, "flight rebuild_min_s and enemy_interval_s must be 0..86400 s");
	if (!(p->enemy_cell_m >= 0.0 && p->enemy_cell_m <= 10000.0 && p->enemy_reach_m >= 0.0 && p->enemy_reach_m <= 20000.0))
		return rt__fail(err, RT_ERR_INVALID, "flight enemy_cell_m must be 0..10000 m and enemy_reach_m 0..20000 m");
	if (!(p->enemy_cost_max >= 0.0 && p->enemy_cost_max <= 1000.0 && p->enemy_half_men > 0.0 && p->enemy_half_men <= 1e8))
		return rt__fail(err, RT_ERR_INVALID, "flight enemy_cost_max must be 0..1000 and enemy_half_men above 0 (at most 1e8)");
	if (!(p->fire_men >= 0.0 && p->fire_men <= 1e8))
		return rt__fail(err, RT_ERR_INVALID, "flight fire_men is %g; expected 0..1e8 men", p->fire_men);
	const double cell = p->enemy_cell_m > 0.0 ? p->enemy_cell_m : 4.0 * (p->field_cell_m > 0.0 ? p->field_cell_m : 0.25);
	const double nx = ceil((w->def.bounds_max.x - w->def.bounds_min.x) / cell), ny = ceil((w->def.bounds_max.y - w->def.bounds_min.y) / cell);
	if (nx * ny > (double)RT_MAX_KNOWN_CELLS)
		return rt__fail(err, RT_ERR_CAPACITY, "the grid of the known enemy would have %.0f x %.0f cells of %g m, more than %lld; give a coarser enemy_cell_m",
				nx, ny, cell, RT_MAX_KNOWN_CELLS);
	w->flight = *p;
	return RT_OK;
}

static rt_status ensure_flights(rt_world *w, rt_error *err)
{
	if (w->flights) return RT_OK;
	w->flights = rt__calloc(&w->allocator, RT_MAX_SIDES, sizeof(rt_flight));
	if (!w->flights) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the flight fields");
	return RT_OK;
}

rt_status rt_world_add_refuge(rt_world *w, const rt_refuge_def *d, int *out, rt_error *err)
{
	rt__error_clear(err);
	if (!w || !d || d->cookie != RT_COOKIE) return rt__fail(err, RT_ERR_INVALID, "refuge definition was not made by rt_refuge_def_default()");
	if (w->step > 0) return rt__fail(err, RT_ERR_STATE, "add refuges before the first step");
	if (d->side >= RT_MAX_SIDES) return rt__fail(err, RT_ERR_INVALID, "refuge side %d; sides are 0..%d", d->side, RT_MAX_SIDES - 1);
	if (!finite_rect(d->target_min, d->target_max)) return rt__fail(err, RT_ERR_INVALID, "refuge area must be a finite rectangle with max > min");
	if (w->refuge_count >= RT_MAX_REFUGES) return rt__fail(err, RT_ERR_CAPACITY, "more than %d refuges", RT_MAX_REFUGES);
	rt_status s = ensure_flights(w, err);
	if (s != RT_OK) return s;
	if (w->refuge_count == w->refuge_capacity) {
		const int cap = w->refuge_capacity ? 2 * w->refuge_capacity : 8;
		rt_refuge *r = rt__realloc(&w->allocator, w->refuges, (size_t)w->refuge_capacity * sizeof(rt_refuge), (size_t)cap * sizeof(rt_refuge));
		if (!r) return rt__fail(err, RT_ERR_NOMEM, "cannot grow the refuge table");
		w->refuges = r;
		w->refuge_capacity = cap;
	}
	rt_refuge *r = &w->refuges[w->refuge_count];
	r->def = *d;
	r->fort = rt__fort_at(w, 0.5 * (d->target_min.x + d->target_max.x), 0.5 * (d->target_min.y + d->target_max.y));
	w->flights[d->side].used = true;
	if (out) *out = w->refuge_count;
	w->refuge_count++;
	return RT_OK;
}

rt_status rt_world_add_boats(rt_world *w, const rt_boats_def *d, int *out, rt_error *err)
{
	rt__error_clear(err);
	if (!w || !d || d->cookie != RT_COOKIE) return rt__fail(err, RT_ERR_INVALID, "boats definition was not made by rt_boats_def_default()");
	if (w->step > 0) return rt__fail(err, RT_ERR_STATE, "add boats before the first step");
	if (d->side >= RT_MAX_SIDES) return rt__fail(err, RT_ERR_INVALID, "boats side %d; sides are 0..%d", d->side, RT_MAX_SIDES - 1);
	if (!finite_rect(d->target_min, d->target_max)) return rt__fail(err, RT_ERR_INVALID, "the landing must be a finite rectangle with max > min");
	if (d->boats < 1 || d->boats > 10000 || d->capacity < 1 || d->capacity > 100000)
		return rt__fail(err, RT_ERR_INVALID, "boats: %d boats of %d men; expected 1..10000 boats of 1..100000 men", d->boats, d->capacity);
	if (!(d->turnaround_s > 0.0 && d->turnaround_s <= 30.0 * 86400.0))
		return rt__fail(err, RT_ERR_INVALID, "boats turnaround_s is %g; expected above 0, at most 30 days", d->turnaround_s);
	if (d->goal != RT_NO_GOAL && (d->goal < 0 || d->goal >= w->goal_count))
		return rt__fail(err, RT_ERR_INVALID, "boats goal %d does not exist", (int)d->goal);
	if (w->landing_count >= RT_MAX_LANDINGS) return rt__fail(err, RT_ERR_CAPACITY, "more than %d landings", RT_MAX_LANDINGS);
	if (w->landing_count == w->landing_capacity) {
		const int cap = w->landing_capacity ? 2 * w->landing_capacity : 4;
		rt_landing *l = rt__realloc(&w->allocator, w->landings, (size_t)w->landing_capacity * sizeof(rt_landing), (size_t)cap * sizeof(rt_landing));
		if (!l) return rt__fail(err, RT_ERR_NOMEM, "cannot grow the landing table");
		w->landings = l;
		w->landing_capacity = cap;
	}
	rt_landing *l = &w->landings[w->landing_count];
	memset(l, 0, sizeof *l);
	l->def = *d;
	l->back_s = rt__calloc(&w->allocator, (size_t)d->boats, sizeof(double)); /* all at the landing */
	if (!l->back_s) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate %d boats", d->boats);
	if (out) *out = w->landing_count;
	w->landing_count++;
	return RT_OK;
}

void rt__flight_free(rt_world *w)
{
	const rt_allocator *a = &w->allocator;
	if (w->flights) {
		for (int s = 0; s < RT_MAX_SIDES; ++s) {
			rt_flight *f = &w->flights[s];
			rt__free(a, f->open, (size_t)w->refuge_count);
			rt__free(a, f->known, (size_t)w->known_nx * (size_t)w->known_ny * sizeof(float));
			rt__free(a, f->memory, (size_t)w->known_nx * (size_t)w->known_ny * sizeof(float));
			rt__goal_free(w, &f->field);
		}
		rt__free(a, w->flights, RT_MAX_SIDES * sizeof(rt_flight));
	}
	rt__free(a, w->refuges, (size_t)w->refuge_capacity * sizeof(rt_refuge));
	for (int i = 0; i < w->landing_count; ++i) rt__free(a, w->landings[i].back_s, (size_t)w->landings[i].def.boats * sizeof(double));
	rt__free(a, w->landings, (size_t)w->landing_capacity * sizeof(rt_landing));
	for (int i = 0; i < w->road_capacity; ++i) {
		rt__free(a, w->roads[i].known, (size_t)w->known_nx * (size_t)w->known_ny * sizeof(float));
		rt__goal_free(w, &w->roads[i].field);
	}
	rt__free(a, w->roads, (size_t)w->road_capacity * sizeof(rt_road));
	w->roads = NULL;
	w->road_count = w->road_capacity = 0;
	w->flights = NULL;
	w->refuges = NULL;
	w->landings = NULL;
	w->refuge_count = w->refuge_capacity = w->landing_count = w->landing_capacity = 0;
}

/* ---- open and closed ----------------------------------------------------------------- */
static bool fort_takes(const rt_world *w, int fort, int side)
{
	const int own = w->fort_side[fort];
	return (own == -1 || own == side) && w->fort_sheltered[fort] < w->fort_capacity[fort];
}

static bool refuge_open(const rt_world *w, int r)
{
	const rt_refuge *g = &w->refuges[r];
	return g->fort < 0 || !w->fort_side || fort_takes(w, g->fort, g->def.side);
}

/* Whether the fort the man in slot s makes for would shut him out: not his side's, or
 * full and he no general nor his guard (rt__opens_when_full). */
static bool shuts_out(const rt_world *w, int fort, int s)
{
	const int own = w->fort_side[fort];
	if (own != -1 && own != w->agents.side[s]) return true;
	return !rt__opens_when_full(&w->agents, s) && !fort_takes(w, fort, own == -1 ? w->agents.side[s] : own);
}

bool rt__goal_closed(const rt_world *w, int32_t goal, int slot)
{
	if (!w->flights || !w->fort_side) return false;
	const rt_goal_def *d = &w->goals[goal].def;
	const int f = rt__fort_at(w, 0.5 * (d->target_min.x + d->target_max.x), 0.5 * (d->target_min.y + d->target_max.y));
	return f >= 0 && shuts_out(w, f, slot);
}

int rt_world_refuge_count(const rt_world *w) { return w ? w->refuge_count : 0; }

bool rt_world_get_refuge(const rt_world *w, int r, rt_refuge_view *o)
{
	if (!w || r < 0 || r >= w->refuge_count) return false;
	const rt_refuge *g = &w->refuges[r];
	o->side = g->def.side;
	o->target_min = g->def.target_min;
	o->target_max = g->def.target_max;
	o->fort = g->fort;
	o->open = refuge_open(w, r);
	return true;
}

/* ---- the known enemy and the danger he makes ------------------------------------------- */
void rt__known_dims(const rt_world *w, int *nx, int *ny, double *cell_m)
{
	const rt_flight_params *p = &w->flight;
	const double cell = p->enemy_cell_m > 0.0 ? p->enemy_cell_m : 4.0 * (p->field_cell_m > 0.0 ? p->field_cell_m : 0.25);
	*cell_m = cell;
	*nx = (int)fmax(1.0, ceil((w->def.bounds_max.x - w->def.bounds_min.x) / cell));
	*ny = (int)fmax(1.0, ceil((w->def.bounds_max.y - w->def.bounds_min.y) / cell));
}

static void known_layout(rt_world *w)
{
	if (w->known_nx > 0) return;
	rt__known_dims(w, &w->known_nx, &w->known_ny, &w->known_cell);
	w->known_ox = w->def.bounds_min.x;
	w->known_oy = w->def.bounds_min.y;
}

static int clamp_int(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

static int known_cell_of(const rt_world *w, double x, double y)
{
	const int ix = clamp_int(rt__floor_int((x - w->known_ox) / w->known_cell), 0, w->known_nx - 1);
	const int iy = clamp_int(rt__floor_int((y - w->known_oy) / w->known_cell), 0, w->known_ny - 1);
	return iy * w->known_nx + ix;
}

/* Summed-area table of v (nx x ny) into s ((nx + 1) x (ny + 1)), serial. */
static void summed_area(const float *v, const int *iv, int nx, int ny, double *s)
{
	const size_t sx = (size_t)nx + 1;
	for (int x = 0; x <= nx; ++x) s[x] = 0.0;
	for (int y = 0; y < ny; ++y) {
		double row = 0.0;
		s[(size_t)(y + 1) * sx] = 0.0;
		for (int x = 0; x < nx; ++x) {
			const size_t c = (size_t)y * (size_t)nx + (size_t)x;
			row += v ? (double)v[c] : (double)iv[c];
			s[(size_t)(y + 1) * sx + (size_t)x + 1] = s[(size_t)y * sx + (size_t)x + 1] + row;
		}
	}
}

/* The sum over the cells within r of (cx, cy) (a square, clipped to the grid). */
static double box_sum(const double *s, int nx, int ny, int cx, int cy, int r)
{
	const size_t sx = (size_t)nx + 1;
	const int x0 = clamp_int(cx - r, 0, nx), x1 = clamp_int(cx + r + 1, 0, nx);
	const int y0 = clamp_int(cy - r, 0, ny), y1 = clamp_int(cy + r + 1, 0, ny);
	return s[(size_t)y1 * sx + (size_t)x1] - s[(size_t)y0 * sx + (size_t)x1] - s[(size_t)y1 * sx + (size_t)x0] + s[(size_t)y0 * sx + (size_t)x0];
}

static int cells_within(double range_m, double cell)
{
	if (!(range_m > 0.0)) return 0;
	return (int)fmin(1e6, ceil(range_m / cell));
}

/* Whether fields and roads know a fire now (E4): flames burn and they are costed by them. */
static bool flames_known(const rt_world *w)
{
	return w->fire && w->fire->hot_count > 0 && w->flight.fire_men > 0.0;
}

/* Whether the roads are planned again as a fire moves (E4): flames burn, or have burnt,
 * and fields are costed by them (once the fire is out its flames leave what the roads
 * know at the next planning). */
static bool fire_replans(const rt_world *w)
{
	return w->fire && (w->fire->hot_count > 0 || w->fire->burnt_count > 0) && w->flight.fire_men > 0.0;
}

/* E4: adds to `known` fire_men on each coarse cell holding a map cell in flames (hot: the
 * fire's state, which the checkpoint keeps), once a cell, for every side and wherever it
 * burns: a grass fire's flames and smoke are seen for kilometres by day and its glow
 * farther by night. `mark`: the coarse grid's cells of scratch (ints), left zero. */
static void add_flames(const rt_world *w, float *known, int *mark)
{
	if (!flames_known(w)) return;
	const rt_fire *f = w->fire;
	const float men = (float)w->flight.fire_men;
	for (int k = 0; k < f->burning_count; ++k) {
		const int cell = f->burning[k].cell;
		if (f->state[cell] != RT_FIRE_CELL_HOT) continue;
		const double x = f->ox + ((cell % f->nx) + 0.5) * f->cell_m, y = f->oy + ((cell / f->nx) + 0.5) * f->cell_m;
		const int c = known_cell_of(w, x, y);
		if (mark[c]) continue;
		mark[c] = 1;
		known[c] += men;
	}
	for (int k = 0; k < f->burning_count; ++k) {
		const int cell = f->burning[k].cell;
		const double x = f->ox + ((cell % f->nx) + 0.5) * f->cell_m, y = f->oy + ((cell / f->nx) + 0.5) * f->cell_m;
		mark[known_cell_of(w, x, y)] = 0;
	}
}

/* The enemy of `side` its men can see now, per coarse cell: men who can fight (not
 * routing, kneeling or marching off), riders weighted as in the threat (section 9). With
 * `memory`, the side's memory is brought up to now: a cell within sight of its men takes
 * what is seen there (nothing, if the enemy has gone), a cell out of sight keeps what was
 * last seen there unless an enemy is seen in it now (a torch, seen from farther). Then
 * the flames of now are added to `known` (add_flames), not to the memory. */
static rt_status gather_known(rt_world *w, int side, float *known, float *memory, rt_error *err)
{
	const rt_agents *a = &w->agents;
	const int nx = w->known_nx, ny = w->known_ny;
	const size_t cells = (size_t)nx * (size_t)ny;
	int *ours = rt__calloc(&w->allocator, cells, sizeof(int));
	double *sat = rt__alloc(&w->allocator, ((size_t)nx + 1) * ((size_t)ny + 1) * sizeof(double));
	if (!ours || !sat) {
		rt__free(&w->allocator, ours, cells * sizeof(int));
		rt__free(&w->allocator, sat, ((size_t)nx + 1) * ((size_t)ny + 1) * sizeof(double));
		return rt__fail(err, RT_ERR_NOMEM, "out of memory counting the known enemy on %d x %d cells", nx, ny);
	}
	for (int s = 0; s < a->count; ++s)
		if (a->side[s] == side && rt__active(a->state[s])) ours[known_cell_of(w, a->x[s], a->y[s])]++;
	summed_area(NULL, ours, nx, ny, sat);
	const double sight = fmin(w->def.combat.sense_range_m, w->env.detection_range_m);
	const double torch_sight = fmax(sight, fmin(w->def.combat.sense_range_m, w->env.torch_detection_range_m));
	const int r_sight = cells_within(sight, w->known_cell), r_torch = cells_within(torch_sight, w->known_cell);
	const double rider = w->def.morale.horse_threat_weight;
	memset(known, 0, cells * sizeof(float));
	for (int s = 0; s < a->count; ++s) {
		if (a->side[s] == side || !rt__ready_to_fight(w, s)) continue;
		const int c = known_cell_of(w, a->x[s], a->y[s]);
		const int r = (a->equipment[s] & RT_EQUIP_TORCH) ? r_torch : r_sight;
		if (box_sum(sat, nx, ny, c % nx, c / nx, r) <= 0.0) continue;
		known[c] += (float)(a->mount[s] ? rider : 1.0);
	}
	if (memory)
		for (int y = 0; y < ny; ++y)
			for (int x = 0; x < nx; ++x) {
				const size_t c = (size_t)y * (size_t)nx + (size_t)x;
				if (known[c] != 0.0f || box_sum(sat, nx, ny, x, y, r_sight) > 0.0) memory[c] = known[c];
			}
	memset(ours, 0, cells * sizeof(int));
	add_flames(w, known, ours); /* not remembered: the flames are seen wherever they are */
	rt__free(&w->allocator, ours, cells * sizeof(int));
	rt__free(&w->allocator, sat, ((size_t)nx + 1) * ((size_t)ny + 1) * sizeof(double));
	return RT_OK;
}

/* P = P_max D / (D + D_half) per coarse cell, D the strength in `known` within reach,
 * into `danger`, which the field spec then costs its cells by. */
static void danger_of(const rt_world *w, const float *known, double *sat, float *danger, rt_field_spec *spec)
{
	const rt_flight_params *p = &w->flight;
	const int nx = w->known_nx, ny = w->known_ny;
	summed_area(known, NULL, nx, ny, sat);
	const int reach = cells_within(p->enemy_reach_m, w->known_cell);
	for (int y = 0; y < ny; ++y)
		for (int x = 0; x < nx; ++x) {
			const double d = box_sum(sat, nx, ny, x, y, reach);
			danger[(size_t)y * (size_t)nx + (size_t)x] = d > 0.0 ? (float)(p->enemy_cost_max * d / (d + p->enemy_half_men)) : 0.0f;
		}
	spec->danger = danger;
	spec->danger_nx = nx;
	spec->danger_ny = ny;
	spec->danger_ox = w->known_ox;
	spec->danger_oy = w->known_oy;
	spec->danger_inv_cell = 1.0 / w->known_cell;
}

/* The forts `side` may not enter: the other sides' (their sides are fixed before the
 * first step). NULL without features (or out of memory: *nomem). */
static uint8_t *forts_barred(rt_world *w, int side, bool *nomem)
{
	*nomem = false;
	if (w->feature_count <= 0) return NULL;
	uint8_t *blocked = rt__calloc(&w->allocator, (size_t)w->feature_count, 1);
	if (!blocked) {
		*nomem = true;
		return NULL;
	}
	for (int k = 0; k < w->feature_count; ++k) blocked[k] = w->fort_side[k] != -3 && w->fort_side[k] != -1 && w->fort_side[k] != side;
	return blocked;
}

/* The field of `side` from its saved inputs: its open refuges as targets, the danger of
 * the known enemy as costs. */
static rt_status make_field(rt_world *w, int side, rt_error *err)
{
	rt_flight *f = &w->flights[side];
	const rt_flight_params *p = &w->flight;
	rt_vec2 *lo = rt__alloc(&w->allocator, 2 * (size_t)w->refuge_count * sizeof(rt_vec2));
	if (!lo) return rt__fail(err, RT_ERR_NOMEM, "out of memory building a flight field");
	rt_vec2 *hi = lo + w->refuge_count;
	int targets = 0;
	for (int r = 0; r < w->refuge_count; ++r)
		if (w->refuges[r].def.side == side && f->open[r]) {
			lo[targets] = w->refuges[r].def.target_min;
			hi[targets] = w->refuges[r].def.target_max;
			targets++;
		}
	/* forts the side may not enter: the other sides' (their sides are fixed before the
	 * first step) and its refuges that were closed at the build */
	bool nomem;
	uint8_t *blocked = forts_barred(w, side, &nomem);
	if (nomem) {
		rt__free(&w->allocator, lo, 2 * (size_t)w->refuge_count * sizeof(rt_vec2));
		return rt__fail(err, RT_ERR_NOMEM, "out of memory building a flight field");
	}
	for (int r = 0; r < w->refuge_count; ++r)
		if (w->refuges[r].def.side == side && !f->open[r] && w->refuges[r].fort >= 0 && blocked) blocked[w->refuges[r].fort] = 1;
	rt_field_spec spec;
	memset(&spec, 0, sizeof spec);
	spec.cell = p->field_cell_m > 0.0 ? p->field_cell_m : 0.25;
	spec.fort_blocked = blocked;
	spec.quad_heap = true;
	spec.targets = targets;
	spec.target_min = lo;
	spec.target_max = hi;
	const int nx = w->known_nx, ny = w->known_ny;
	const size_t cells = (size_t)nx * (size_t)ny;
	float *danger = NULL;
	double *sat = NULL;
	rt_status s = RT_OK;
	if (f->known) {
		/* P = P_max D / (D + D_half), D the known strength within reach of the cell */
		danger = rt__alloc(&w->allocator, cells * sizeof(float));
		sat = rt__alloc(&w->allocator, ((size_t)nx + 1) * ((size_t)ny + 1) * sizeof(double));
		if (!danger || !sat) {
			s = rt__fail(err, RT_ERR_NOMEM, "out of memory costing a flight field by the known enemy");
			goto done;
		}
		danger_of(w, f->known, sat, danger, &spec);
	}
	f->field.def = rt_goal_def_default();
	f->field.def.field_cell_m = spec.cell;
	bool found = false;
	s = rt__field_build(w, &f->field, &spec, &found, err);
	if (s == RT_OK) {
		f->any_source = found;
		f->field_stale = false;
	}
done:
	rt__free(&w->allocator, blocked, (size_t)w->feature_count);
	rt__free(&w->allocator, lo, 2 * (size_t)w->refuge_count * sizeof(rt_vec2));
	rt__free(&w->allocator, danger, cells * sizeof(float));
	rt__free(&w->allocator, sat, ((size_t)nx + 1) * ((size_t)ny + 1) * sizeof(double));
	return s;
}

/* Room for a side's inputs (the open flags; the known enemy when fields are costed by
 * him); all or nothing. */
rt_status rt__flight_reserve(rt_world *w, int side, rt_error *err)
{
	rt_flight *f = &w->flights[side];
	known_layout(w);
	const size_t cells = (size_t)w->known_nx * (size_t)w->known_ny;
	uint8_t *open = f->open ? NULL : rt__calloc(&w->allocator, (size_t)w->refuge_count, 1);
	float *known = f->known || !(w->flight.enemy_interval_s > 0.0) ? NULL : rt__calloc(&w->allocator, cells, sizeof(float));
	if ((!f->open && !open) || (!f->known && w->flight.enemy_interval_s > 0.0 && !known)) {
		rt__free(&w->allocator, open, (size_t)w->refuge_count);
		rt__free(&w->allocator, known, cells * sizeof(float));
		return rt__fail(err, RT_ERR_NOMEM, "out of memory keeping a flight field's inputs");
	}
	if (open) f->open = open;
	if (known) f->known = known;
	return RT_OK;
}

/* ---- the commanders' roads (M3, Q7) --------------------------------------------------- */
static bool roads_on(const rt_world *w) { return w->flights && w->flight.enemy_interval_s > 0.0; }

rt_status rt__memory_reserve(rt_world *w, int side, rt_error *err)
{
	rt_flight *f = &w->flights[side];
	if (f->memory) return RT_OK;
	known_layout(w);
	f->memory = rt__calloc(&w->allocator, (size_t)w->known_nx * (size_t)w->known_ny, sizeof(float));
	if (!f->memory) return rt__fail(err, RT_ERR_NOMEM, "out of memory keeping what side %d knows of the enemy", side);
	return RT_OK;
}

rt_status rt__roads_reserve(rt_world *w, int count, rt_error *err)
{
	known_layout(w);
	if (count > w->road_capacity) {
		const int cap = count > 2 * w->road_capacity ? count : 2 * w->road_capacity;
		rt_road *r = rt__realloc(&w->allocator, w->roads, (size_t)w->road_capacity * sizeof(rt_road), (size_t)cap * sizeof(rt_road));
		if (!r) return rt__fail(err, RT_ERR_NOMEM, "cannot grow the table of roads to %d", cap);
		memset(r + w->road_capacity, 0, (size_t)(cap - w->road_capacity) * sizeof(rt_road));
		w->roads = r;
		w->road_capacity = cap;
	}
	const size_t cells = (size_t)w->known_nx * (size_t)w->known_ny;
	for (int i = 0; i < count; ++i)
		if (!w->roads[i].known && !(w->roads[i].known = rt__calloc(&w->allocator, cells, sizeof(float))))
			return rt__fail(err, RT_ERR_NOMEM, "out of memory keeping a road's knowledge of the enemy");
	return RT_OK;
}

/* A side's first look: the places of the enemy corps known before the run (Q7). */
static rt_status seed_memory(rt_world *w, int side, rt_error *err)
{
	rt_status s = rt__memory_reserve(w, side, err);
	if (s != RT_OK) return s;
	rt_flight *f = &w->flights[side];
	const rt_agents *a = &w->agents;
	const double rider = w->def.morale.horse_threat_weight;
	memset(f->memory, 0, (size_t)w->known_nx * (size_t)w->known_ny * sizeof(float));
	for (int q = 0; q < a->count; ++q) {
		const int c = a->corps[q];
		if (a->side[q] == side || c < 0 || !w->corps[c].def.known || !rt__ready_to_fight(w, q)) continue;
		f->memory[known_cell_of(w, a->x[q], a->y[q])] += (float)(a->mount[q] ? rider : 1.0);
	}
	f->memory_set = true;
	return RT_OK;
}

/* The road's field from its saved knowledge: to its goal's target over the ground, each
 * cell costed by the danger of the enemy remembered at the build. */
static rt_status road_make(rt_world *w, rt_road *r, rt_error *err)
{
	const rt_goal *g = &w->goals[r->goal];
	const int nx = w->known_nx, ny = w->known_ny;
	const size_t cells = (size_t)nx * (size_t)ny;
	float *danger = rt__alloc(&w->allocator, cells * sizeof(float));
	double *sat = rt__alloc(&w->allocator, ((size_t)nx + 1) * ((size_t)ny + 1) * sizeof(double));
	bool nomem;
	uint8_t *blocked = forts_barred(w, r->side, &nomem);
	rt_status s = RT_OK;
	if (!danger || !sat || nomem) {
		s = rt__fail(err, RT_ERR_NOMEM, "out of memory building a commander's road");
		goto done;
	}
	rt_field_spec spec;
	memset(&spec, 0, sizeof spec);
	danger_of(w, r->known, sat, danger, &spec);
	spec.cell = g->def.field_cell_m > 0.0 ? g->def.field_cell_m : 0.25;
	spec.fort_blocked = blocked;
	spec.quad_heap = true;
	spec.targets = 1;
	spec.target_min = &g->def.target_min;
	spec.target_max = &g->def.target_max;
	r->field.def = g->def; /* the same target: only the way there differs */
	bool found = false;
	s = rt__field_build(w, &r->field, &spec, &found, err);
	if (s == RT_OK) r->stale = false;
done:
	rt__free(&w->allocator, danger, cells * sizeof(float));
	rt__free(&w->allocator, sat, ((size_t)nx + 1) * ((size_t)ny + 1) * sizeof(double));
	rt__free(&w->allocator, blocked, (size_t)w->feature_count);
	return s;
}

/* The side looks now; into `now` (the known-enemy grid's cells) what a road of it knows:
 * the enemy it remembers, and the flames of now (E4). */
static rt_status road_knowledge(rt_world *w, int side, float *now, rt_error *err)
{
	rt_status s;
	if (!w->flights[side].memory_set && (s = seed_memory(w, side, err)) != RT_OK) return s;
	rt_flight *f = &w->flights[side];
	const size_t cells = (size_t)w->known_nx * (size_t)w->known_ny;
	int *mark = rt__calloc(&w->allocator, cells, sizeof(int));
	if (!mark) return rt__fail(err, RT_ERR_NOMEM, "out of memory counting the known enemy");
	s = gather_known(w, side, now, f->memory, err);
	if (s == RT_OK) {
		memcpy(now, f->memory, cells * sizeof(float));
		add_flames(w, now, mark);
	}
	rt__free(&w->allocator, mark, cells * sizeof(int));
	return s;
}

/* The side's road of `kind` to `goal` (made if it has none) from the knowledge `now`:
 * built again unless it was built from the very same (another general of the same
 * council leaving in the same round, the fire as it was). */
static rt_status road_update(rt_world *w, int side, int32_t goal, int kind, const float *now, rt_error *err)
{
	const size_t cells = (size_t)w->known_nx * (size_t)w->known_ny;
	int i = 0;
	while (i < w->road_count && !(w->roads[i].side == side && w->roads[i].goal == goal && w->roads[i].kind == kind)) i++;
	if (i == w->road_count) {
		rt_status s = rt__roads_reserve(w, w->road_count + 1, err);
		if (s != RT_OK) return s;
		w->roads[i].side = (uint8_t)side;
		w->roads[i].kind = (uint8_t)kind;
		w->roads[i].goal = goal;
		w->road_count++;
	}
	rt_road *r = &w->roads[i];
	r->idle = false;
	if (r->field.built && !r->stale && memcmp(r->known, now, cells * sizeof(float)) == 0) return RT_OK;
	memcpy(r->known, now, cells * sizeof(float));
	r->built_at_s = w->time_s;
	return road_make(w, r, err);
}

/* A commander of `side` sets out for `goal`: the side looks now, and its road there is
 * built again from all it knows. */
static rt_status road_build(rt_world *w, int side, int32_t goal, rt_error *err)
{
	if (w->goals[goal].def.straight) return RT_OK; /* no field: no road */
	const size_t cells = (size_t)w->known_nx * (size_t)w->known_ny;
	float *now = rt__alloc(&w->allocator, cells * sizeof(float));
	if (!now) return rt__fail(err, RT_ERR_NOMEM, "out of memory counting the known enemy");
	rt_status s = road_knowledge(w, side, now, err);
	if (s == RT_OK) s = road_update(w, side, goal, RT__ROAD_COMMANDERS, now, err);
	rt__free(&w->allocator, now, cells * sizeof(float));
	return s;
}

/* The side's commander's road to `goal` (built), or NULL. */
static const rt_road *commanders_road(const rt_world *w, int side, int32_t goal)
{
	for (int i = 0; i < w->road_count; ++i) {
		const rt_road *r = &w->roads[i];
		if (r->goal == goal && r->side == side && r->kind == RT__ROAD_COMMANDERS) return r->stale || !r->field.built ? NULL : r;
	}
	return NULL;
}

/* Whether man s marches to his goal on an order (not marching off after his commander). */
static bool ordered_march(const rt_world *w, int s)
{
	return w->agents.state[s] == RT_STATE_MARCHING && w->agents.goal[s] >= 0 && !rt__marching_off(w, s);
}

/* Whether the place's own field leads every man of `side` marching to `goal` on an order
 * clear of `danger` (a coarse cell's P above 0: within reach of flames) until he reaches
 * it: traced from each coarse cell holding such a man in steps of half a coarse cell.
 * `mark`: the coarse grid's cells of scratch, left zero. */
static bool route_clear(const rt_world *w, int side, int32_t goal, const float *danger, int *mark)
{
	const rt_agents *a = &w->agents;
	const rt_goal *field = &w->goals[goal];
	const double step = 0.5 * w->known_cell;
	const int max_steps = 4 * (w->known_nx + w->known_ny);
	bool clear = true;
	for (int q = 0; q < a->count && clear; ++q) {
		if (a->side[q] != side || a->goal[q] != goal || !ordered_march(w, q)) continue;
		const int c0 = known_cell_of(w, a->x[q], a->y[q]);
		if (mark[c0]) continue;
		mark[c0] = 1;
		double x = a->x[q], y = a->y[q];
		for (int k = 0; k < max_steps; ++k) {
			if (danger[known_cell_of(w, x, y)] > 0.0f) {
				clear = false;
				break;
			}
			double dx, dy;
			if (rt__goal_reached(field, x, y) || !rt__goal_direction(field, x, y, &dx, &dy)) break;
			x += step * dx;
			y += step * dy;
		}
	}
	for (int q = 0; q < a->count; ++q)
		if (a->side[q] == side && a->goal[q] == goal) mark[known_cell_of(w, a->x[q], a->y[q])] = 0;
	return clear;
}

/* E4: the ways of marches on orders round the fire. On each multiple of rebuild_min_s
 * while flames burn, for each side and each place a man of it marches to on an order (and
 * would not take a commander's road there: an attack, or no such road): if the place's
 * own field leads every such man clear of the flames' reach, no way is needed (an idle
 * one stays idle); else the side's way there is planned again from the flames of now
 * alone (the enemy he is sent against is no cost to him) if they have moved since its
 * last build. Every way once the flames are out stands idle (the place's own field
 * again). Serial, sides and goals in order. */
static rt_status fire_roads_phase(rt_world *w, bool tick, rt_error *err)
{
	rt_status s;
	if (!tick) return RT_OK;
	if (!flames_known(w)) {
		for (int i = 0; i < w->road_count; ++i)
			if (w->roads[i].kind == RT__ROAD_FIRE) w->roads[i].idle = true;
		return RT_OK;
	}
	known_layout(w);
	const rt_agents *a = &w->agents;
	const int nx = w->known_nx, ny = w->known_ny;
	const size_t wants = (size_t)RT_MAX_SIDES * (size_t)w->goal_count;
	const size_t cells = (size_t)nx * (size_t)ny, sat_bytes = ((size_t)nx + 1) * ((size_t)ny + 1) * sizeof(double);
	uint8_t *want = rt__calloc(&w->allocator, wants, 1);
	float *now = rt__calloc(&w->allocator, cells, sizeof(float));
	float *danger = rt__alloc(&w->allocator, cells * sizeof(float));
	double *sat = rt__alloc(&w->allocator, sat_bytes);
	int *mark = rt__calloc(&w->allocator, cells, sizeof(int));
	if (!want || !now || !danger || !sat || !mark) {
		s = rt__fail(err, RT_ERR_NOMEM, "out of memory planning marches round the fire");
		goto done;
	}
	for (int q = 0; q < a->count; ++q) {
		if (!ordered_march(w, q)) continue;
		const int32_t goal = a->goal[q];
		if (w->goals[goal].def.straight) continue;
		if (a->stance[q] != RT_STANCE_ADVANCE && commanders_road(w, a->side[q], goal)) continue;
		want[(size_t)a->side[q] * (size_t)w->goal_count + (size_t)goal] = 1;
	}
	add_flames(w, now, mark);
	rt_field_spec spec;
	memset(&spec, 0, sizeof spec);
	danger_of(w, now, sat, danger, &spec);
	s = RT_OK;
	for (int side = 0; side < RT_MAX_SIDES && s == RT_OK; ++side)
		for (int32_t goal = 0; goal < w->goal_count && s == RT_OK; ++goal) {
			uint8_t *wanted = &want[(size_t)side * (size_t)w->goal_count + (size_t)goal];
			if (!*wanted) continue;
			if (route_clear(w, side, goal, danger, mark))
				*wanted = 0; /* the place's own field keeps clear of the flames */
			else
				s = road_update(w, side, goal, RT__ROAD_FIRE, now, err);
		}
	for (int i = 0; s == RT_OK && i < w->road_count; ++i) {
		rt_road *r = &w->roads[i];
		if (r->kind == RT__ROAD_FIRE && !want[(size_t)r->side * (size_t)w->goal_count + (size_t)r->goal]) r->idle = true;
	}
done:
	rt__free(&w->allocator, want, wants);
	rt__free(&w->allocator, now, cells * sizeof(float));
	rt__free(&w->allocator, danger, cells * sizeof(float));
	rt__free(&w->allocator, sat, sat_bytes);
	rt__free(&w->allocator, mark, cells * sizeof(int));
	return s;
}

/* Before the decide phase: the sides' first looks, the roads of the commanders who left
 * this step, and roads to be built again after a load. Serial, corps in order. */
static rt_status roads_phase(rt_world *w, rt_error *err)
{
	rt_status s;
	for (int c = 0; c < w->corps_count; ++c) {
		const int side = w->corps[c].def.side;
		if (w->corps[c].def.refuge >= 0 && !w->flights[side].memory_set && (s = seed_memory(w, side, err)) != RT_OK) return s;
	}
	for (int i = 0; i < w->road_count; ++i)
		if (w->roads[i].stale && !w->roads[i].idle && (s = road_make(w, &w->roads[i], err)) != RT_OK) return s;
	/* E4: once a fire burns, every road is planned again each rebuild_min_s (on the
	 * multiples of it: no state to keep) from all its side knows then, if the flames or
	 * the enemy it remembers have moved since */
	const double every = w->flight.rebuild_min_s, t = w->time_s;
	const bool tick = fire_replans(w) && (!(every > 0.0) || floor(t / every) != floor((t - w->def.dt_s) / every));
	if (tick && w->road_count > 0)
		for (int side = 0; side < RT_MAX_SIDES; ++side) {
			/* one look for all the side's roads */
			int first = 0;
			while (first < w->road_count && !(w->roads[first].side == side && w->roads[first].kind == RT__ROAD_COMMANDERS)) first++;
			if (first == w->road_count) continue;
			const size_t cells = (size_t)w->known_nx * (size_t)w->known_ny;
			float *now = rt__alloc(&w->allocator, cells * sizeof(float));
			if (!now) return rt__fail(err, RT_ERR_NOMEM, "out of memory counting the known enemy");
			s = road_knowledge(w, side, now, err);
			for (int i = first; s == RT_OK && i < w->road_count; ++i)
				if (w->roads[i].side == side && w->roads[i].kind == RT__ROAD_COMMANDERS)
					s = road_update(w, side, w->roads[i].goal, RT__ROAD_COMMANDERS, now, err);
			rt__free(&w->allocator, now, cells * sizeof(float));
			if (s != RT_OK) return s;
		}
	if ((s = fire_roads_phase(w, tick, err)) != RT_OK) return s;
	for (int c = 0; c < w->corps_count; ++c) {
		rt_corps *k = &w->corps[c];
		if (!k->road_wanted) continue;
		k->road_wanted = false;
		if (k->def.refuge >= 0 && (s = road_build(w, k->def.side, k->def.refuge, err)) != RT_OK) return s;
		const int32_t ranks = rt__ranks_refuge(&k->def);
		if (ranks >= 0 && ranks != k->def.refuge && (s = road_build(w, k->def.side, ranks, err)) != RT_OK) return s;
	}
	return RT_OK;
}

rt_status rt_world_plan_road(rt_world *w, uint8_t side, rt_goal_id goal, rt_error *err)
{
	rt__error_clear(err);
	if (!w) return rt__fail(err, RT_ERR_INVALID, "no world");
	if (side >= RT_MAX_SIDES) return rt__fail(err, RT_ERR_INVALID, "side %d; sides are 0..%d", side, RT_MAX_SIDES - 1);
	if (goal < 0 || goal >= w->goal_count) return rt__fail(err, RT_ERR_INVALID, "goal %d does not exist", (int)goal);
	if (!roads_on(w) || !w->flights[side].used) return RT_OK;
	return road_build(w, side, goal, err);
}

/* A man of the side in flight to the goal (routing, or marching off after his commander
 * left), or marching there on an order (not to attack), follows his side's road to it if
 * one was planned; else a man marching there on an order, to attack or not, follows his
 * side's way there round the fire while it has one (E4). */
const rt_goal *rt__way_field(const rt_world *w, int s, int32_t goal)
{
	const rt_goal *g = &w->goals[goal];
	const rt_agents *a = &w->agents;
	if (w->road_count == 0) return g;
	const bool off = rt__marching_off(w, s);
	const bool ordered = a->state[s] == RT_STATE_MARCHING && a->goal[s] == goal && !off;
	const bool flight = a->state[s] == RT_STATE_ROUTING || off;
	if (!(flight || ordered)) return g;
	const rt_goal *fire = g;
	for (int i = 0; i < w->road_count; ++i) {
		const rt_road *r = &w->roads[i];
		if (r->goal != goal || r->side != a->side[s] || r->stale || !r->field.built) continue;
		if (r->kind == RT__ROAD_COMMANDERS) {
			if (flight || a->stance[s] != RT_STANCE_ADVANCE) return &r->field;
		} else if (ordered && !r->idle)
			fire = &r->field;
	}
	return fire;
}

static bool in_flight(const rt_world *w, int s)
{
	return w->agents.state[s] == RT_STATE_ROUTING || rt__marching_off(w, s);
}

/* Whether the man in slot s would follow his side's flight field now (locomotion.c): in
 * flight, and his own refuge (a routing man's flee goal, a man marching off his goal) is
 * none or a fort that does not take him. goal_fort: the fort under each goal's centre. */
static bool follows_field(const rt_world *w, int s, const int *goal_fort)
{
	const rt_agents *a = &w->agents;
	int32_t own;
	if (a->state[s] == RT_STATE_ROUTING) own = a->flee_goal[s];
	else if (rt__marching_off(w, s)) own = a->goal[s];
	else return false;
	if (own < 0) return a->state[s] == RT_STATE_ROUTING;
	const int f = goal_fort[own];
	return f >= 0 && shuts_out(w, f, s);
}

rt_status rt__flight_phase(rt_world *w, rt_error *err)
{
	if (!w->flights) return RT_OK;
	if (roads_on(w)) {
		rt_status s = roads_phase(w, err);
		if (s != RT_OK) return s;
	}
	const double t = w->time_s;
	const rt_flight_params *p = &w->flight;
	bool want[RT_MAX_SIDES] = { false }, any_want = false;
	for (int side = 0; side < RT_MAX_SIDES; ++side) {
		rt_flight *f = &w->flights[side];
		if (!f->used) continue;
		rt_status s;
		if (f->field_stale && (s = make_field(w, side, err)) != RT_OK) return s; /* after a load */
		bool changed = !f->built;
		for (int r = 0; r < w->refuge_count && !changed; ++r)
			if (w->refuges[r].def.side == side && (f->open[r] != 0) != refuge_open(w, r)) changed = true;
		/* looked at again every enemy_interval_s, and while flames burn every rebuild_min_s (E4) */
		const bool due = f->built && p->enemy_interval_s > 0.0 &&
				 t >= f->built_at_s + (flames_known(w) ? fmin(p->enemy_interval_s, p->rebuild_min_s) : p->enemy_interval_s);
		const bool may = !f->built || t >= f->built_at_s + p->rebuild_min_s;
		want[side] = (changed || due) && may;
		any_want |= want[side];
	}
	if (!any_want) return RT_OK;
	/* only while the side has men who would follow the field */
	const size_t goal_bytes = ((size_t)w->goal_count + 1) * sizeof(int);
	int *goal_fort = rt__alloc(&w->allocator, goal_bytes);
	if (!goal_fort) return rt__fail(err, RT_ERR_NOMEM, "out of memory looking at the refuges");
	for (int g = 0; g < w->goal_count; ++g) {
		const rt_goal_def *d = &w->goals[g].def;
		goal_fort[g] = w->fort_side ? rt__fort_at(w, 0.5 * (d->target_min.x + d->target_max.x), 0.5 * (d->target_min.y + d->target_max.y)) : -1;
	}
	bool needed[RT_MAX_SIDES] = { false };
	const rt_agents *a = &w->agents;
	for (int s = 0; s < a->count; ++s)
		if (want[a->side[s]] && !needed[a->side[s]] && follows_field(w, s, goal_fort)) needed[a->side[s]] = true;
	rt__free(&w->allocator, goal_fort, goal_bytes);
	for (int side = 0; side < RT_MAX_SIDES; ++side) {
		if (!want[side] || !needed[side]) continue;
		rt_flight *f = &w->flights[side];
		rt_status s = rt__flight_reserve(w, side, err);
		if (s != RT_OK) return s;
		bool changed = !f->built;
		for (int r = 0; r < w->refuge_count; ++r) {
			const uint8_t open = w->refuges[r].def.side == side && refuge_open(w, r);
			changed |= f->open[r] != open;
			f->open[r] = open;
		}
		if (f->known) {
			/* the known enemy of now; the field is built again only if he has moved */
			const size_t cells = (size_t)w->known_nx * (size_t)w->known_ny;
			float *now = rt__alloc(&w->allocator, cells * sizeof(float));
			if (!now) return rt__fail(err, RT_ERR_NOMEM, "out of memory counting the known enemy");
			s = gather_known(w, side, now, f->memory, err);
			if (s == RT_OK && memcmp(now, f->known, cells * sizeof(float)) != 0) {
				memcpy(f->known, now, cells * sizeof(float));
				changed = true;
			}
			rt__free(&w->allocator, now, cells * sizeof(float));
			if (s != RT_OK) return s;
		}
		f->built = true;
		f->built_at_s = t; /* looked at now: the next look comes an interval later */
		if (!changed) continue;
		if ((s = make_field(w, side, err)) != RT_OK) return s;
		f->builds++;
	}
	return RT_OK;
}

bool rt__flight_direction(const rt_world *w, int side, double x, double y, double *dx, double *dy)
{
	if (!w->flights) return false;
	const rt_flight *f = &w->flights[side];
	if (!f->built || !f->any_source || f->field_stale) return false;
	return rt__field_direction(&f->field, x, y, dx, dy);
}

bool rt_world_flight_direction(const rt_world *w, uint8_t side, rt_vec2 p, rt_vec2 *direction, double *travel_m)
{
	if (!w || side >= RT_MAX_SIDES) return false;
	double dx, dy;
	if (!rt__flight_direction(w, side, p.x, p.y, &dx, &dy)) return false;
	if (direction) *direction = (rt_vec2){ dx, dy };
	if (travel_m) *travel_m = rt__field_travel(&w->flights[side].field, p.x, p.y);
	return true;
}

int rt_world_flight_builds(const rt_world *w, uint8_t side)
{
	return w && w->flights && side < RT_MAX_SIDES ? w->flights[side].builds : 0;
}

/* ---- arriving ------------------------------------------------------------------------ */
static bool inside(rt_vec2 lo, rt_vec2 hi, double x, double y) { return x >= lo.x && x <= hi.x && y >= lo.y && y <= hi.y; }

/* A man in flight who stands in a way home of his side leaves the field. */
void rt__refuges_arrive(rt_world *w)
{
	if (!w->flights) return;
	bool any = false;
	for (int r = 0; r < w->refuge_count; ++r) any |= w->refuges[r].fort < 0;
	if (!any) return;
	rt_agents *a = &w->agents;
	const int n = a->count;
	RT_PARALLEL_FOR(RT_PARALLEL(n), (schedule(static) num_threads(w->threads)),
	for (int s = 0; s < n; ++s) {
		if (!in_flight(w, s)) continue;
		for (int r = 0; r < w->refuge_count; ++r) {
			const rt_refuge *g = &w->refuges[r];
			if (g->fort >= 0 || g->def.side != a->side[s] || !inside(g->def.target_min, g->def.target_max, a->x[s], a->y[s])) continue;
			a->state[s] = RT_STATE_ESCAPED;
			a->vx[s] = a->vy[s] = 0.0;
			break;
		}
	});
}

/* ---- boats --------------------------------------------------------------------------- */
static bool boards(const rt_world *w, const rt_landing *l, int s)
{
	const rt_agents *a = &w->agents;
	if (a->side[s] != l->def.side || !inside(l->def.target_min, l->def.target_max, a->x[s], a->y[s])) return false;
	const uint8_t st = a->state[s];
	if (st == RT_STATE_ROUTING || rt__marching_off(w, s)) return true;
	return l->def.goal >= 0 && a->goal[s] == l->def.goal &&
	       (st == RT_STATE_FORMED || st == RT_STATE_MARCHING || st == RT_STATE_ENGAGED);
}

/* Serial, landing by landing, men in slot order. */
void rt__boats_board(rt_world *w)
{
	if (w->landing_count == 0) return;
	rt_agents *a = &w->agents;
	const double t = w->time_s;
	for (int i = 0; i < w->landing_count; ++i) {
		rt_landing *l = &w->landings[i];
		int boat = 0, aboard = 0; /* the boat filling now, and the men in it */
		while (boat < l->def.boats && l->back_s[boat] > t) boat++;
		if (boat == l->def.boats) continue; /* all away */
		for (int s = 0; s < a->count && boat < l->def.boats; ++s) {
			if (!boards(w, l, s)) continue;
			a->state[s] = RT_STATE_ESCAPED;
			a->vx[s] = a->vy[s] = 0.0;
			l->carried++;
			if (++aboard == l->def.capacity) { /* full: she casts off; the next boat lying here fills */
				l->back_s[boat] = t + l->def.turnaround_s;
				l->trips++;
				aboard = 0;
				while (boat < l->def.boats && l->back_s[boat] > t) boat++;
			}
		}
		if (aboard > 0) { /* nobody else waits: she casts off with whom she has */
			l->back_s[boat] = t + l->def.turnaround_s;
			l->trips++;
		}
	}
}

int rt_world_boats_count(const rt_world *w) { return w ? w->landing_count : 0; }

bool rt_world_get_boats(const rt_world *w, int i, rt_boats_view *o)
{
	if (!w || i < 0 || i >= w->landing_count) return false;
	const rt_landing *l = &w->landings[i];
	o->side = l->def.side;
	o->boats = l->def.boats;
	o->capacity = l->def.capacity;
	o->at_landing = 0;
	for (int b = 0; b < l->def.boats; ++b) o->at_landing += l->back_s[b] <= w->time_s;
	o->carried = l->carried;
	o->trips = l->trips;
	return true;
}
