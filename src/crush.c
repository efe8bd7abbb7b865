/* Crowd crush and trampling (C2: "骑兵干脆纵马直冲，硬往前闯。于是马步兵自相践踏").
 *
 * After the move, every man on foot whom the crowd held, at his last decision, to less than
 * held_speed_share of the pace he wanted (the decide phase's RT_CRUSH_PRESSED: about the
 * crawl of a crowd of 3.7 per m2 on Weidmann's curve) measures the crowd round him as
 * Helbing, Johansson & Al-Abideen (2007) measure it from video:
 *
 *   K_ij  = exp(-d_ij^2 / R_i^2) / (pi R_i^2 (1 - e^-2.25))    for d_ij < 1.5 R_i, else 0
 *   rho_i = sum_j w_j K_ij                                    (men per m2, j = i included)
 *   V_i   = sum_j w_j K_ij v_j / sum_j w_j K_ij,  Var_i = sum_j w_j K_ij |v_j - V_i|^2 / sum_j w_j K_ij
 *   P_i   = rho_i Var_i                                       (crowd pressure, 1/s2)
 *
 * where w_j = (r_j / r_foot)^2 is j's body area in men (a rider's horse counts as the nine
 * men of ground it covers; an agent standing for k men, drawn sqrt(k) wider, as k men)
 * and R_i = R (r_i / r_kind) is the kernel of a man of i's size (R sqrt(k) at scale k), so
 * densities are in men per m2 at any scale; and the push round him
 *
 *   U_i = sum_j w_j K_ij m_j h_j / sum_j w_j K_ij,   h_j = pace_j - |v_j| for pressed men, else 0
 *
 * (m/s: the speed the pressed men want and cannot have; m_j = rider_mass_factor for a
 * rider, else 1; pace_j his free speed, x flight_speed_factor x his own pace (section 9) when routing, x his horse's
 * stamina factor, x the dark pace g of E1 as in the decide phase: g = 1 by day). He is knocked down at the rate
 *
 *   lambda_fall = f s(rho_i) P_i / (P_i + P_c) min(U_i / (g v_walk) - 1, q_max)
 *                 (1 + k_fatigue fatigue)(1 + k_dark darkness)(1 + k_mud mud_loss)
 *   s(rho) = clamp((rho - rho_onset) / (rho_critical - rho_onset), 0, 1)
 *
 * so a crowd pushing no harder than walking men held up knocks nobody down: it takes men
 * running, or horses, forcing their way.
 *
 * A man down (RT_CRUSH_DOWN) stands still and is left out of the neighbour grid: the crowd
 * walks over him. Every upright man j whose body overlaps his adds to his death rate
 *
 *   lambda_die = sum_j o_ij m_j (pile + trample |v_j| / v_walk),  o_ij = 1 - d_ij / (r_i + r_j)
 *
 * (m_j = rider_mass_factor for a rider, else 1): a horse ridden over him at a canter kills
 * him far sooner than men stepping over him. With nobody on him he gets up at rise_rate.
 * Riders are neither knocked down nor trampled: they sit above the press.
 *
 * Parallel over men, each writing only his outcome (none, falls, rises, dies) into
 * scratch; the outcomes are applied serially in slot order, so the result is the same at
 * any thread count. Draws: Philox(seed, id, step, RT_STREAM_CRUSH). */
#include "world.h"

#include <math.h>

enum { OUTCOME_NONE = 0, OUTCOME_FALL, OUTCOME_RISE, OUTCOME_DIE };

#define KERNEL_CUT 1.5                 /* the Gaussian is cut at 1.5 R ... */
#define KERNEL_NORM 0.89460077543814      /* ... keeping 1 - exp(-1.5^2) of its weight */
#define MAX_RUN_ROWS (2 * 8 + 1)
#define PI 3.14159265358979323846

rt_crush_params rt_crush_params_default(void)
{
	/* sources in docs/model.md section 13 */
	rt_crush_params p;
	p.density_radius_m = 0.7;          /* Helbing, Johansson & Al-Abideen 2007 */
	p.held_speed_share = 0.15;         /* Weidmann 1993: the pace of a crowd of ~3.7 per m2 */
	p.density_onset_per_m2 = 4.0;      /* Still: at 4 per m2 a moving crowd is at risk of falls */
	p.density_critical_per_m2 = 5.4;   /* Weidmann 1993: the jam density (section 3) */
	p.pressure_critical_per_s2 = 0.02; /* Helbing et al. 2007: turbulent flow at Mina */
	p.fall_rate_per_s = 0.05;          /* estimate (E) */
	p.fatigue_fall_factor = 1.0;       /* estimate (E) */
	p.darkness_fall_factor = 1.0;      /* estimate (E): E1 */
	p.mud_fall_factor = 2.0;           /* estimate (E) */
	p.trample_rate_per_s = 0.05;       /* estimate (E) */
	p.pile_rate_per_s = 0.01;          /* estimate (E) */
	p.push_max_factor = 10.0;          /* estimate (E) */
	p.rider_mass_factor = 5.0;         /* a steppe horse of ~300 kg and its rider against a man of ~75 kg */
	p.walk_speed_mps = 1.34;           /* Weidmann 1993 */
	p.rise_rate_per_s = 0.2;           /* estimate (E): up in about five seconds */
	return p;
}

/* The grid cells within `reach` of (x, y), as runs of grid positions [lo, hi). */
static int cells_near(const rt_grid *g, double x, double y, double reach, int *lo, int *hi)
{
	const int cx = rt__grid_cell_x(g, x), cy = rt__grid_cell_y(g, y);
	int rc = (int)ceil(reach * g->inv_cell);
	const int limit = ((g->hx < g->hy ? g->hx : g->hy) - 1) / 2;
	rc = rc > limit ? limit : (rc > 8 ? 8 : rc);
	int runs = 0;
	for (int dy = -rc; dy <= rc; ++dy) {
		const int row = rt__grid_wrap(cy + dy, g->hy) * g->hx;
		for (int dx = -rc; dx <= rc; ++dx) {
			const int b = row + rt__grid_wrap(cx + dx, g->hx);
			if (g->start[b + 1] <= g->start[b]) continue;
			lo[runs] = g->start[b];
			hi[runs] = g->start[b + 1];
			runs++;
		}
	}
	return runs;
}

/* Whether eight men's crush flags from `flags` on are all clear (one load, not eight) */
static inline bool eight_clear(const uint8_t *flags)
{
	uint64_t word;
	memcpy(&word, flags, sizeof word);
	return (word & (0x0101010101010101ull * RT_CRUSH_MASK)) == 0; /* RT_CRUSH_STOOD is not the crush's */
}

typedef struct crush_ctx {
	const rt_world *w;
	const rt_crush_params *p;
	double r_foot, margin, dt, darkness, dark_pace;
	bool periodic;
	double period, inv_period;
} crush_ctx;

static inline double wrap_dx(const crush_ctx *c, double dx)
{
	if (c->periodic) dx -= c->period * nearbyint(dx * c->inv_period);
	return dx;
}

/* The crowd round the man in slot s (who need not be in the grid): density (men per m2),
 * crowd pressure (1/s2) and push (m/s: the kernel mean of the speed pressed men want and
 * cannot have, a rider's counting rider_mass_factor times). */
static void measure(const crush_ctx *c, int s, double *density, double *pressure, double *push)
{
	const rt_world *w = c->w;
	const rt_agents *a = &w->agents;
	const rt_grid *g = &w->grid;
	const rt_crush_params *p = c->p;
	const double x = a->x[s], y = a->y[s];
	const double R = p->density_radius_m * (double)a->radius[s] / w->def.kinds[rt__body_kind(a->kind[s], a->mount[s])].radius_m;
	const double cut = KERNEL_CUT * R, cut2 = cut * cut, inv_R2 = 1.0 / (R * R);
	const double inv_foot2 = 1.0 / (c->r_foot * c->r_foot);
	int lo[MAX_RUN_ROWS * MAX_RUN_ROWS], hi[MAX_RUN_ROWS * MAX_RUN_ROWS];
	const int runs = cells_near(g, x, y, cut + c->margin, lo, hi);
	double sw = 0.0, svx = 0.0, svy = 0.0, sv2 = 0.0, spush = 0.0;
	for (int r = 0; r < runs; ++r)
		for (int k = lo[r]; k < hi[r]; ++k) {
			const int t = g->order[k];
			const double dx = wrap_dx(c, a->x[t] - x), dy = a->y[t] - y;
			const double d2 = dx * dx + dy * dy;
			if (d2 >= cut2 || !rt__active(a->state[t]) || (a->crush[t] & RT_CRUSH_DOWN)) continue;
			const double weight = (double)a->radius[t] * (double)a->radius[t] * inv_foot2 * exp(-d2 * inv_R2);
			const double vx = a->vx[t], vy = a->vy[t];
			sw += weight;
			svx += weight * vx;
			svy += weight * vy;
			sv2 += weight * (vx * vx + vy * vy);
			if ((a->crush[t] & RT_CRUSH_PRESSED)) {
				/* the pace he wants and cannot have, pushed with the weight he has */
				const bool rider = a->mount[t];
				double pace = (double)a->free_speed[t] * rt__run_factor(w, t);
				pace *= rider ? rt__stamina_factor(w, a->horse_fatigue[t]) : rt__legs_factor(w, a->fatigue[t]);
				pace *= c->dark_pace;
				const double held = pace - sqrt(vx * vx + vy * vy);
				if (held > 0.0) spush += weight * (rider ? p->rider_mass_factor : 1.0) * held;
			}
		}
	*density = sw / (PI * R * R * KERNEL_NORM);
	if (sw > 0.0) {
		const double mx = svx / sw, my = svy / sw;
		*pressure = *density * fmax(0.0, sv2 / sw - (mx * mx + my * my));
		*push = spush / sw;
	} else {
		*pressure = *push = 0.0;
	}
}

/* What becomes of an upright man pressed in the crowd: knocked down or not. */
static int upright(const crush_ctx *c, int s)
{
	const rt_world *w = c->w;
	const rt_agents *a = &w->agents;
	const rt_crush_params *p = c->p;
	double density, pressure, push;
	measure(c, s, &density, &pressure, &push);
	pressure /= c->dark_pace * c->dark_pace; /* E1: the turbulence of a crowd slowed by the dark, at the day's pace */
	const double ramp = (density - p->density_onset_per_m2) / (p->density_critical_per_m2 - p->density_onset_per_m2);
	/* against men held up at tonight's walking pace (E1: darkness slows the wanted pace and
	 * the walk alike) */
	const double shove = fmin(push / (p->walk_speed_mps * c->dark_pace) - 1.0, p->push_max_factor);
	if (!(ramp > 0.0) || !(shove > 0.0)) return OUTCOME_NONE;
	double rate = p->fall_rate_per_s * fmin(ramp, 1.0) * pressure / (pressure + p->pressure_critical_per_s2) * shove;
	rate *= 1.0 + p->fatigue_fall_factor * (double)a->fatigue[s];
	rate *= 1.0 + p->darkness_fall_factor * c->darkness;
	if (w->mud_on) rate *= 1.0 + p->mud_fall_factor * (1.0 - rt__mud_factor(w, rt__terrain_cell(w, a->x[s], a->y[s])));
	if (!(rate > 0.0)) return OUTCOME_NONE;
	const double u = rt_random_uniform(w->def.seed, a->id[s], (uint64_t)w->step, RT_STREAM_CRUSH);
	return u < -expm1(-rate * c->dt) ? OUTCOME_FALL : OUTCOME_NONE;
}

/* What becomes of a man down: trampled, up again, or still down. */
static int down(const crush_ctx *c, int s)
{
	const rt_world *w = c->w;
	const rt_agents *a = &w->agents;
	const rt_grid *g = &w->grid;
	const rt_crush_params *p = c->p;
	const double x = a->x[s], y = a->y[s], ri = a->radius[s];
	int lo[MAX_RUN_ROWS * MAX_RUN_ROWS], hi[MAX_RUN_ROWS * MAX_RUN_ROWS];
	const int runs = cells_near(g, x, y, ri + w->max_radius + c->margin, lo, hi);
	double rate = 0.0;
	bool on_him = false;
	for (int r = 0; r < runs; ++r)
		for (int k = lo[r]; k < hi[r]; ++k) {
			const int t = g->order[k];
			if (t == s || !rt__active(a->state[t]) || (a->crush[t] & RT_CRUSH_DOWN)) continue;
			const double dx = wrap_dx(c, a->x[t] - x), dy = a->y[t] - y;
			const double l = ri + (double)a->radius[t], d2 = dx * dx + dy * dy;
			if (d2 >= l * l) continue;
			on_him = true;
			const double overlap = 1.0 - sqrt(d2) / l;
			const double mass = a->mount[t] ? p->rider_mass_factor : 1.0;
			const double speed = sqrt(a->vx[t] * a->vx[t] + a->vy[t] * a->vy[t]);
			rate += overlap * mass * (p->pile_rate_per_s + p->trample_rate_per_s * speed / p->walk_speed_mps);
		}
	const double u = rt_random_uniform(w->def.seed, a->id[s], (uint64_t)w->step, RT_STREAM_CRUSH);
	if (on_him) return rate > 0.0 && u < -expm1(-rate * c->dt) ? OUTCOME_DIE : OUTCOME_NONE;
	return u < -expm1(-p->rise_rate_per_s * c->dt) ? OUTCOME_RISE : OUTCOME_NONE;
}

static crush_ctx context(const rt_world *w)
{
	crush_ctx c;
	c.w = w;
	c.p = &w->def.crush;
	c.r_foot = w->def.kinds[RT_KIND_FOOT].radius_m;
	c.dt = w->def.dt_s;
	/* how far a man can have gone since the grid was built (the positions read are the
	 * moved ones) */
	c.margin = w->max_speed * rt__max_run_factor(&w->def.morale) * c.dt;
	c.darkness = rt__darkness(w);
	c.dark_pace = rt__dark_pace(w, c.darkness); /* E1, as the decide phase */
	c.periodic = w->def.periodic_x;
	c.period = w->def.bounds_max.x - w->def.bounds_min.x;
	c.inv_period = 1.0 / c.period;
	return c;
}

bool rt_world_crowd_sample(const rt_world *w, rt_agent_id id, rt_crowd_sample *out)
{
	if (!w || !out || id >= (uint32_t)w->agents.count || w->grid.count == 0) return false;
	const crush_ctx c = context(w);
	measure(&c, (int)w->slot_of_id[id], &out->density_per_m2, &out->pressure_per_s2, &out->push_mps);
	return true;
}

rt_status rt__crush(rt_world *w, rt_error *err)
{
	rt_agents *a = &w->agents;
	const int n = a->count;
	if (n == 0) return RT_OK;
	const crush_ctx c = context(w);
	uint8_t *outcome = rt__arena_push(&w->arena, (size_t)n);
	if (!outcome) return rt__fail(err, RT_ERR_NOMEM, "step scratch exhausted in the crush");
	/* most men are neither pressed nor down: a serial look at their flags, eight at a
	 * time, finds whether anyone is (and clears the flags of the dead and the gone, which
	 * nobody reads); only then do the threads start, and only flagged men get an outcome
	 * (the serial pass below reads no other) */
	const int blocks = (n + 7) / 8;
	int flagged = 0;
	int64_t lying = 0; /* the men down now */
	for (int b = 0; b < blocks; ++b) {
		const int s0 = 8 * b, s1 = s0 + 8 < n ? s0 + 8 : n;
		if (s1 - s0 == 8 && eight_clear(a->crush + s0)) continue;
		for (int s = s0; s < s1; ++s) {
			if (!(a->crush[s] & RT_CRUSH_MASK)) continue;
			if (!rt__active(a->state[s])) {
				a->crush[s] = 0;
				continue;
			}
			flagged++;
			lying += (a->crush[s] & RT_CRUSH_DOWN) != 0;
		}
	}
	w->lying = lying;
	if (flagged == 0) return RT_OK; /* nobody pressed, nobody down */
	int events = 0;
	RT_PARALLEL_FOR(RT_PARALLEL(8 * flagged), (schedule(dynamic, 256) num_threads(w->threads) reduction(+ : events)),
	for (int b = 0; b < blocks; ++b) {
		const int s0 = 8 * b, s1 = s0 + 8 < n ? s0 + 8 : n;
		if (s1 - s0 == 8 && eight_clear(a->crush + s0)) continue;
		for (int s = s0; s < s1; ++s) {
			const uint8_t flags = a->crush[s] & RT_CRUSH_MASK;
			if (!flags) continue;
			int o = OUTCOME_NONE;
			if (!a->mount[s]) { /* a man on horseback is not knocked down */
				if (flags & RT_CRUSH_DOWN) o = down(&c, s);
				else if (a->state[s] != RT_STATE_SURRENDERED) o = upright(&c, s);
			}
			outcome[s] = (uint8_t)o;
			events += o != OUTCOME_NONE;
		}
	});
	for (int s = 0; s < n && events > 0; ++s) {
		if (!(a->crush[s] & RT_CRUSH_MASK)) continue;
		switch (outcome[s]) {
		case OUTCOME_FALL:
			a->crush[s] = RT_CRUSH_DOWN;
			a->vx[s] = a->vy[s] = 0.0;
			a->level[s] = 0;
			w->falls++;
			w->lying++;
			break;
		case OUTCOME_RISE:
			a->crush[s] = 0;
			a->level[s] = 0;
			w->lying--;
			break;
		case OUTCOME_DIE: {
			a->state[s] = RT_STATE_DEAD_TRAMPLED;
			a->crush[s] = 0;
			w->lying--;
			a->vx[s] = a->vy[s] = 0.0;
			rt_status st = rt__remember_death(w, s, err); /* by those who saw him go under */
			if (st != RT_OK) return st;
			break;
		}
		default:
			break;
		}
	}
	return RT_OK;
}
