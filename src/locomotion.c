/* Crowd locomotion: the collision-free speed model (Tordeux, Chraibi & Seyfried 2016).
 *
 * decide (parallel over agents in grid order, each writes only its own slot):
 *   e_i = normalise(e0_i + sum_j a exp((l_ij - d_ij) / D) (x_i - x_j) / d_ij
 *                        + sum_walls a_w exp((r_i - d_iw) / D_w) n_iw)
 *   s_i = min over neighbours ahead (e_i . (x_j - x_i) > 0, lateral offset <= l_ij) of
 *         d_ij - l_ij, and over walls ahead of d_iw - r_i
 *   v_i = e_i * clamp(s_i / T, 0, v0_i)
 * e0 comes from the agent's goal (flow field) or fixed heading. l_ij = r_i + r_j. The
 * few men of the guard stances (guards, a carried commander, a rearguard: guard.c) take
 * e0 and pace from their commander, in a short pass after the rest of their batch, so
 * that the hot path stays as it was.
 * The agent's next update period is chosen here too (multi-rate stepping).
 * Men are taken in batches of consecutive grid positions, each pass of the model over
 * the whole batch before the next (pace and e0, then the neighbour sums in neighbours.c,
 * then direction, spacing, speed), so that the long chains of square roots and
 * divisions of one man overlap those of the next. Every sum keeps the grid order.
 *
 * move (parallel over slots): x += v dt, under a hard wall constraint: a move whose
 * path would bring the centre nearer a wall than clearance = factor * r slides along the
 * wall, or is dropped, so nobody ever stands inside a wall. Impassable ground and the
 * flames of a head fire stop a move the same way, one axis at a time. Arrivals are
 * resolved here.
 *
 * Weather (weather.c, fire.c): wet ground slows a man by the mud factor of the ground
 * under him; a man in the flames of a head fire, or on grass beside them, runs for the
 * nearest safe ground.
 *
 * Horses (stamina.c) slow a rider by 1 - speed_loss x horse_fatigue, and his own legs a
 * man on foot by 1 - foot_speed_loss x fatigue; a routing man who
 * takes lights ahead for the enemy runs from them (torch.c); a man whom the crowd holds
 * to less than held_speed_share of the pace he wants is marked `pressed` for the crush
 * (crush.c). Men down in the crush are not in the grid: the others walk over them. */
#include "world.h"

#include <math.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define MAX_WALLS 16   /* walls remembered between the direction and spacing passes */
#define BLOCKED_SPACING_M 0.02 /* below this free distance a man counts as blocked */

static inline double wrap_dx(double dx, bool periodic, double period, double inv_period)
{
	if (periodic) dx -= period * nearbyint(dx * inv_period);
	return dx;
}

/* Free distance along direction (ex, ey): the nearest neighbour ahead whose body
 * overlaps the path (lateral offset <= l_ij), and likewise the walls' nearest points.
 * Neighbours are the batch's kept ones [first, first + count) (neighbours.c). */
static double spacing_along(double ex, double ey, double ri, const rt_nb_batch *nb, int first, int count, bool simd,
			    const double *wall_px, const double *wall_py, const double *wall_d, int wall_cached)
{
	double spacing = rt__spacing(nb, first, count, ex, ey, simd);
	for (int m = 0; m < wall_cached; ++m) {
		const double ahead = ex * wall_px[m] + ey * wall_py[m];
		if (ahead <= 0.0) continue;
		const double lateral = fabs(ex * wall_py[m] - ey * wall_px[m]);
		if (lateral > ri) continue;
		const double sp = wall_d[m] - ri;
		if (sp < spacing) spacing = sp;
	}
	return spacing;
}

/* What every batch of the decide phase reads. */
typedef struct decide_ctx {
	rt_world *w;
	const rt_grid *g;
	const rt_geometry *geo;
	double T, inv_T, rep_range, neighbor_range;
	double Aw, inv_Dw, wall_rep_range;
	double push_gain, push_max, flight_factor, dt, max_speed, max_radius;
	double dark_pace; /* E1: 1 - darkness (1 - dark_pace_factor): the share of his pace a man keeps tonight */
	bool periodic;
	double period, inv_period;
	int max_level, rc_limit;
	bool simd;
	bool mud, fire; /* wet ground somewhere; a head fire burning somewhere */
	bool fire_fear;     /* E4: ... and men fear it (morale's fire_fear_rate_per_s > 0) */
	double view_radius; /* ... as far round them as they take in (morale's view_radius_m) */
	double path_cos, wind_x, wind_y, path_head; /* E4: out of a head fire's path (out_of_the_path); wind 0: off */
	bool water;     /* a map with a sea or rivers: men not in flight wade out of deep water */
	double charge_run_up, charge_pace; /* combat: a rider this near the enemy he closes with gallops */
	double pursuit_pace;               /* command: a rider after a man in flight gallops (Q2) */
	double sight, torch_sight;         /* how far a man sees another, and one carrying a torch, m */
	bool torch;     /* lights in the dark may be taken for the enemy (alarms are on) */
	double held;    /* held_speed_share: pressed when held to less than this share of his pace */
	double barred_range, barred_men; /* E5, C2: the way barred (way_barred); range 0: off this step */
	rt_nb_params nbp;
} decide_ctx;

#define RETINUE (-2) /* desired_direction: a guard, carried commander or rearguard, decided after the batch */

/* E5: a man with a post in the place his order sent him to (run.c, spread_over), once
 * inside its target, walks straight to the post and stands on it: false while he is
 * still outside (the goal's field takes him there), or when his goal is not his order's
 * (sent by the pursuit) or he has no post. He slows over the last two body radii. */
static inline bool post_direction(const rt_world *w, int s, int32_t goal, double xi, double yi, double *e0x, double *e0y,
				  double *pace)
{
	const rt_agents *a = &w->agents;
	if (!a->posted[s] || goal != a->order_goal[s] || !rt__goal_reached(&w->goals[goal], xi, yi)) return false;
	const double ex = (double)a->post_x[s] - xi, ey = (double)a->post_y[s] - yi;
	const double en = sqrt(ex * ex + ey * ey), r = (double)a->radius[s];
	if (en > 0.5 * r) {
		*e0x = ex / en;
		*e0y = ey / en;
		if (en < 2.0 * r) *pace *= en / (2.0 * r);
	}
	return true;
}

static bool held_direction(const decide_ctx *c, int s, int32_t goal, double xi, double yi, double *e0x, double *e0y);

/* The slot of the man his quarry names whom man s (at xi, yi) sees (in this light, or by
 * his torch), while that man is in flight (Q2: the man his corps' pursuit sent him after
 * this round, command.c) or, hunting, at large (Q10); -1 none. Out of his sight he rides
 * toward where he was last known (his heading, command.c): the night hides a fugitive
 * from his pursuer as from anyone. */
static inline int followed(const decide_ctx *c, int s, double xi, double yi, bool hunting)
{
	const rt_world *w = c->w;
	const int32_t q = w->agents.quarry[s];
	if (q < 0) return -1;
	const int t = (int)w->slot_of_id[q];
	if (hunting ? !rt__at_large(w->agents.state[t]) : !rt__in_flight(w, t)) return -1;
	const double ex = wrap_dx(w->agents.x[t] - xi, c->periodic, c->period, c->inv_period), ey = w->agents.y[t] - yi;
	const double seen = (w->agents.equipment[t] & RT_EQUIP_TORCH) ? c->torch_sight : c->sight;
	return ex * ex + ey * ey <= seen * seen ? t : -1;
}

/* Q9: a man on the ring round the fort his corps besieges (command.c) walks round it to
 * his station, never across the fort: toward the point of the ring at most
 * acos(r_fort / R) round from where he stands (R the ring's radius, r_fort the half
 * diagonal of the fort's box; the chord to it passes outside the fort), and straight to
 * his station once it is within that arc, slowing over the last two body radii. */
static inline void siege_direction(const rt_world *w, int s, double xi, double yi, double *e0x, double *e0y, double *pace)
{
	const rt_agents *a = &w->agents;
	const int corps = a->corps[s];
	const int f = corps >= 0 ? w->corps[corps].besieging : -1;
	double tx = a->post_x[s], ty = a->post_y[s];
	bool station = true;
	if (f >= 0 && w->fort_box) {
		const double *b = w->fort_box + 4 * f;
		const double cx = 0.5 * (b[0] + b[2]), cy = 0.5 * (b[1] + b[3]);
		const double r_fort = 0.5 * hypot(b[2] - b[0], b[3] - b[1]);
		const double radius = hypot(tx - cx, ty - cy);
		const double from = atan2(yi - cy, xi - cx), to = atan2(ty - cy, tx - cx);
		const double pi = 3.14159265358979323846;
		double turn = to - from;
		if (turn > pi) turn -= 2.0 * pi;
		if (turn < -pi) turn += 2.0 * pi;
		const double arc = radius > r_fort ? acos(r_fort / radius) : 0.0;
		if (fabs(turn) > arc) {
			const double at = from + copysign(arc, turn);
			tx = cx + radius * cos(at);
			ty = cy + radius * sin(at);
			station = false;
		}
	}
	const double ex = tx - xi, ey = ty - yi, en = sqrt(ex * ex + ey * ey), r = (double)a->radius[s];
	if (en > 0.5 * r) {
		*e0x = ex / en;
		*e0y = ey / en;
		if (station && en < 2.0 * r) *pace *= en / (2.0 * r);
	}
}

/* His desired direction e0 (a unit vector, or zero to stand), from his state, stance,
 * enemy and goal, and his pace v0 where that changes it (a rider's charge). Returns his
 * goal when e0 is the goal's direction, left for the caller to take from the flow field
 * (rt__goal_directions, for many men at once); RETINUE for a man of the guard stances
 * (M8, C6, M6: guard.c), whom the caller decides apart, unless retinue_done; else -1. */
static inline __attribute__((always_inline)) int32_t desired_direction(const decide_ctx *c, int s, double xi, double yi, double *e0x, double *e0y, double *pace,
					bool retinue_done)
{
	const rt_world *w = c->w;
	const rt_agents *a = &w->agents;
	const bool periodic = c->periodic;
	const double period = c->period, inv_period = c->inv_period;
	const double advance_range = w->def.combat.advance_range_m;
	const double contain_distance = w->def.combat.contain_distance_m;
	*e0x = *e0y = 0.0;
	int32_t goal = a->goal[s];
	const int32_t enemy = a->enemy[s];
	const bool routing = a->state[s] == RT_STATE_ROUTING;
	if (routing) {
		if (!retinue_done && a->stance[s] == RT_STANCE_CARRIED) return RETINUE; /* carried even in flight */
		/* flight: from lights ahead he takes for the enemy (E2); else to his refuge while it
		 * is open, else along his side's flight field to the nearest open refuge (flight.c),
		 * else to his refuge all the same, else straight away from the enemy */
		const int32_t flee = a->flee_goal[s];
		if (c->torch && a->alarm[s] >= 0) {
			const int t = (int)w->slot_of_id[a->alarm[s]];
			const double ex = wrap_dx(xi - a->x[t], periodic, period, inv_period), ey = yi - a->y[t];
			const double en = sqrt(ex * ex + ey * ey);
			if (en > 1e-9) {
				*e0x = ex / en;
				*e0y = ey / en;
			}
		} else if (flee >= 0 && !rt__goal_closed(w, flee, s)) {
			/* by his side's road there if a commander has chosen one (M3) */
			if (!rt__goal_direction(rt__way_field(w, s, flee), xi, yi, e0x, e0y)) *e0x = *e0y = 0.0;
		} else if (rt__flight_direction(w, a->side[s], xi, yi, e0x, e0y)) {
			/* the nearest open refuge */
		} else if (flee >= 0) {
			if (!rt__goal_direction(rt__way_field(w, s, flee), xi, yi, e0x, e0y)) *e0x = *e0y = 0.0;
		} else if (enemy >= 0) {
			const int t = (int)w->slot_of_id[enemy];
			const double ex = wrap_dx(xi - a->x[t], periodic, period, inv_period), ey = yi - a->y[t];
			const double en = sqrt(ex * ex + ey * ey);
			if (en > 1e-9) {
				*e0x = ex / en;
				*e0y = ey / en;
			}
		} else {
			const double vn = sqrt(a->vx[s] * a->vx[s] + a->vy[s] * a->vy[s]);
			if (vn > 1e-9) {
				*e0x = a->vx[s] / vn;
				*e0y = a->vy[s] / vn;
			}
		}
	} else if (a->state[s] == RT_STATE_SURRENDERED) {
		/* kneeling: he does not move */
	} else if (!retinue_done && rt__retinue_stance(a->stance[s])) {
		return RETINUE;
	} else if (a->stance[s] == RT_STANCE_CONTAIN && a->keep[s]) {
		/* M7: he keeps the ground he held when the halt came, or goes on to the place he
		 * was sent to and keeps it (run.c), at his post if he has one */
		if (goal >= 0) return post_direction(w, s, goal, xi, yi, e0x, e0y, pace) ? -1 : goal;
	} else if (a->stance[s] == RT_STANCE_CONTAIN && enemy >= 0) {
		/* M7: close in to the containing distance, give back inside it, else stand; but
		 * he gives no ground to a man coming at him (a breakout is met, combat.c) */
		const int t = (int)w->slot_of_id[enemy];
		const double ex = wrap_dx(a->x[t] - xi, periodic, period, inv_period), ey = a->y[t] - yi;
		const double en = sqrt(ex * ex + ey * ey);
		const double band = 0.03 * contain_distance;
		if (en > 1e-9 && fabs(en - contain_distance) > band) {
			const double sign = en > contain_distance ? 1.0 : -1.0;
			const bool closing = -(w->decide_vx[t] * ex + w->decide_vy[t] * ey) / en > w->def.combat.facing_speed_mps;
			if (sign > 0.0 || !closing) {
				*e0x = sign * ex / en;
				*e0y = sign * ey / en;
			}
		}
	} else if (a->stance[s] == RT_STANCE_HUNT && a->quarry[s] >= 0 && rt__at_large(a->state[w->slot_of_id[a->quarry[s]]])) {
		/* Q10: after the man he hunts, straight at him while he sees him, else toward where
		 * he was last known (his heading, command.c), a rider at the gallop of the charge
		 * (his horse tiring, C4), a man on foot at the run; whoever stands in his way he strikes in passing (combat.c) or must
		 * get round: the crowd about his quarry is what holds him off. His man gone (fallen,
		 * taken, away), he rides on his heading (the last branch) until the decision round
		 * ends the hunt (command.c) */
		const int t = followed(c, s, xi, yi, true);
		if (t >= 0) {
			const double ex = wrap_dx(a->x[t] - xi, periodic, period, inv_period), ey = a->y[t] - yi;
			const double en = sqrt(ex * ex + ey * ey);
			if (en > 1e-9) {
				*e0x = ex / en;
				*e0y = ey / en;
			}
		} else {
			*e0x = a->heading_x[s];
			*e0y = a->heading_y[s];
		}
		*pace *= a->mount[s] ? c->charge_pace : w->def.morale.flight_speed_factor;
	} else if (a->stance[s] == RT_STANCE_ADVANCE &&
		   (a->prize[s] >= 0 || (enemy >= 0 && a->enemy_dist[s] < advance_range) || followed(c, s, xi, yi, false) >= 0)) {
		/* Q2: sent after a man in flight, he rides after him, unless an enemy who is not in
		 * flight is within his advance range (a man who stands is met first); else he closes
		 * with the nearest enemy; with none near, he goes to collect the kneeling */
		const bool fight = enemy >= 0 && a->enemy_dist[s] < advance_range;
		const int near = fight ? (int)w->slot_of_id[enemy] : -1;
		const int quarry = followed(c, s, xi, yi, false);
		const bool chase = quarry >= 0 && !(fight && !rt__in_flight(w, near));
		const int t = chase ? quarry : fight ? near : (int)w->slot_of_id[a->prize[s]];
		const double ex = wrap_dx(a->x[t] - xi, periodic, period, inv_period), ey = a->y[t] - yi;
		const double en = sqrt(ex * ex + ey * ey);
		if (en > 1e-9) {
			*e0x = ex / en;
			*e0y = ey / en;
		}
		/* the charge: a rider near the enemy he closes with puts his horse to the gallop;
		 * and after a man in flight, at any distance (Q2: a trot never comes up with a
		 * fugitive on horseback, and a man on foot is overtaken the sooner) */
		if (a->mount[s]) {
			double gallop = t == near && a->enemy_dist[s] <= c->charge_run_up ? c->charge_pace : 1.0;
			if (rt__in_flight(w, t)) gallop = fmax(gallop, c->pursuit_pace);
			*pace *= gallop;
		}
	} else if (goal >= 0) {
		/* a general marching on an order waits for his column (command.c) */
		const int corps = a->corps[s];
		if (corps >= 0 && w->corps[corps].waits && w->corps[corps].commander == (int32_t)a->id[s]) return -1;
		/* M5: withdrawing in order, with an enemy upon him he gives ground no faster than a
		 * man who keeps his face to the enemy (Facing) */
		if (rt__withdrawing_faced(w, s)) *pace = fmin(*pace, w->def.combat.facing_speed_mps);
		/* marching off after his commander left, he finds his corps' refuge full: on to
		 * the nearest open one */
		if (w->flights && (rt__marching_off(w, s) || a->stance[s] == RT_STANCE_WITHDRAW) && rt__goal_closed(w, goal, s) &&
		    rt__flight_direction(w, a->side[s], xi, yi, e0x, e0y))
			return -1;
		/* attacking a place, he goes on to the enemy holding it (Q6, M5) */
		if (a->stance[s] == RT_STANCE_ADVANCE && w->held_on && held_direction(c, s, goal, xi, yi, e0x, e0y)) return -1;
		if (post_direction(w, s, goal, xi, yi, e0x, e0y, pace)) return -1;
		/* marching off, by his side's road there if a commander has chosen one (M3) */
		if (w->road_count > 0) {
			const rt_goal *way = rt__way_field(w, s, goal);
			if (way != &w->goals[goal]) {
				if (!rt__goal_direction(way, xi, yi, e0x, e0y)) *e0x = *e0y = 0.0;
				return -1;
			}
		}
		return goal;
	} else if (a->posted[s] == RT_POST_SIEGE && a->stance[s] == RT_STANCE_HOLD) {
		siege_direction(w, s, xi, yi, e0x, e0y, pace);
	} else {
		*e0x = a->heading_x[s];
		*e0y = a->heading_y[s];
		/* sent after a man in flight whom he does not see, or who is no longer to be
		 * followed (taken, down, in a fort), he rides on toward where the corps last knew
		 * him, or the fleeing, at the gallop */
		if (a->mount[s] && a->quarry[s] >= 0 && a->stance[s] == RT_STANCE_ADVANCE) *pace *= c->pursuit_pace;
	}
	return -1;
}

/* a > b ? a : b, without a branch: in a crowd the sign of a push is a coin toss, and
 * compilers keep the branch for the plain C form (for its signed zeros) */
static inline double larger(double a, double b)
{
#ifdef __SSE2__
	return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(a), _mm_set_sd(b))); /* maxsd: a > b ? a : b */
#else
	return a > b ? a : b;
#endif
}

/* Blocked: a man held fast in a crowd shuffles aside; he tries one direction turned from
 * (ex, ey) by a random angle (20-90 degrees, either side), taken if it is freer. This
 * breaks the standing deadlocks of first-order models at narrow openings. */
static void sidestep(const rt_world *w, uint32_t id, double ex, double ey, double *tx, double *ty)
{
	rt_random4 r = rt_random_bits(w->def.seed, id, (uint64_t)w->step, RT_STREAM_SHUFFLE);
	double angle = (0.35 + 1.22 * (double)(r.v[0] >> 8) * (1.0 / 16777216.0)) * ((r.v[1] & 1u) ? 1.0 : -1.0);
	double c = cos(angle), sn = sin(angle);
	*tx = c * ex - sn * ey;
	*ty = sn * ex + c * ey;
}

/* A man on foot in flight (routing, or marching off after his commander), not of a
 * general's party: whom the way barred stops (E5, C2). */
static inline bool foot_in_flight(const rt_world *w, int s)
{
	const rt_agents *a = &w->agents;
	return !a->mount[s] && !rt__retinue_stance(a->stance[s]) && (a->state[s] == RT_STATE_ROUTING || rt__marching_off(w, s));
}

/* E5, C2: the way barred ("明军的溃兵冲到小凌河后，发现前方已经有金军骑兵在拦阻时，全部惶然
 * 不知所措，最终所有的明军全部汇集在一起", seed 000). A man on foot in flight (routing, or
 * marching off after his commander) looks along the way he would go, a lane barred_cell_m
 * wide, out to barred_range_m or as far as the light lets him see (section 7): where a
 * cell of it holds barred_men or more of the enemy standing ready to fight (formed,
 * marching, engaged or at bay, not in flight, not moving faster than facing_speed_mps;
 * a rider counts horse_threat_weight), his way is barred and he stops where he is: he
 * does not run on into them, and so does not press the men ahead of him on toward them
 * (crush.c: a man who wants to stand pushes no one). Pursuers riding after him do not
 * bar his way; a flight field that leads round the enemy (flight.c) is not barred. */
static inline bool way_barred(const decide_ctx *c, int s, double xi, double yi, double e0x, double e0y)
{
	const rt_world *w = c->w;
	const int side = w->agents.side[s], stride = w->bar_stride, nx = w->bar_nx, ny = w->bar_ny;
	const double cell = w->bar_cell, inv_cell = 1.0 / cell;
	for (double along = 0.5 * cell; along <= c->barred_range; along += cell) {
		double px = xi + along * e0x;
		if (c->periodic) px -= c->period * floor((px - w->bar_ox) * c->inv_period); /* across the seam */
		int ix = rt__floor_int((px - w->bar_ox) * inv_cell);
		if (c->periodic && ix >= nx) ix = nx - 1; /* the period need not be whole cells */
		const int iy = rt__floor_int((yi + along * e0y - w->bar_oy) * inv_cell);
		if (ix < 0 || iy < 0 || ix >= nx || iy >= ny) return false; /* off the ground the grid covers */
		const float *men = w->bar_men + ((size_t)iy * (size_t)nx + (size_t)ix) * (size_t)stride;
		double enemy = 0.0;
		for (int k = 0; k < stride; ++k) enemy += k != side ? (double)men[k] : 0.0;
		if (enemy >= c->barred_men) return true;
	}
	return false;
}

/* E5, C2: the men ahead stand ("最终所有的明军全部汇集在一起", seed 000). A man on foot in
 * flight who comes up behind men in flight standing of their own will (the way barred
 * them, or the men ahead of them) stops behind them instead of pushing them on: the word
 * passes back through a column a rank a decision. "Behind": one of them stands within a
 * body width (2 r) of the point halted_ahead_radii r (3 r: a pace) ahead of him on his way. */
static inline bool behind_the_halted(const decide_ctx *c, int s, int k, double e0x, double e0y)
{
	const rt_world *w = c->w;
	const rt_grid *g = c->g;
	const uint8_t *halted = w->decide_halted;
	const double ahead = w->def.morale.halted_ahead_radii;
	if (!halted || !(ahead > 0.0)) return false;
	const double r = (double)g->sr[k];
	const double px = g->sx[k] + ahead * r * e0x, py = g->sy[k] + ahead * r * e0y, reach = 2.0 * r;
	const int x0 = rt__grid_cell_x(g, px - reach), x1 = rt__grid_cell_x(g, px + reach);
	const int y0 = rt__grid_cell_y(g, py - reach), y1 = rt__grid_cell_y(g, py + reach);
	for (int cy = y0; cy <= y1; ++cy)
		for (int cx = x0; cx <= x1; ++cx) {
			const int b = rt__grid_wrap(cy, g->hy) * g->hx + rt__grid_wrap(cx, g->hx);
			for (int q = g->start[b]; q < g->start[b + 1]; ++q) {
				const int t = g->order[q];
				if (t == s || !halted[t] || w->agents.side[t] != w->agents.side[s]) continue;
				const double dx = wrap_dx(g->sx[q] - px, c->periodic, c->period, c->inv_period), dy = g->sy[q] - py;
				if (dx * dx + dy * dy <= reach * reach) return true;
			}
		}
	return false;
}

/* Per man of a batch, beside the neighbour kernel's batch (the same index i). */
typedef struct batch_men {
	double pace[RT_NB_BATCH];                          /* v0, m/s */
	double head_x[RT_NB_BATCH], head_y[RT_NB_BATCH];   /* desired direction e0 */
	double dir_x[RT_NB_BATCH], dir_y[RT_NB_BATCH];     /* direction e */
	double spacing[RT_NB_BATCH];                       /* free distance along e, m */
	bool spacing_left[RT_NB_BATCH];                    /* e and spacing are left for the passes after walls */
	bool stood[RT_NB_BATCH];                           /* E5, C2: he stands, his way barred */
} batch_men;

/* E4: out of a head fire's path. a is the unit direction away from the flames a man sees;
 * when it lies within fire_path_deg of the way the wind blows (the flames upwind of him)
 * he stands where the fire's head runs. A man going before it faster than it runs (his
 * velocity along the wind at least the head's rate) keeps a: he outruns it. One who does
 * not (held against a palisade or a river, in a crowd, or slower than the head) makes his
 * way out across the wind, whatever his order: a' = normalise(a + s w_perp), 45 deg off
 * the wind when the flames lie straight upwind, s the side he is already going
 * (his velocity across the wind, beyond PATH_GOING_MPS), else the side a leans to (the
 * side the flames lie less on). True when he is so turned out of the path. */
#define PATH_GOING_MPS 0.25
static bool out_of_the_path(const decide_ctx *c, double vx, double vy, double *ax, double *ay)
{
	if (*ax * c->wind_x + *ay * c->wind_y <= c->path_cos) return false;
	if (vx * c->wind_x + vy * c->wind_y >= c->path_head) return false; /* he outruns it */
	const double px = -c->wind_y, py = c->wind_x; /* the wind's left */
	const double going = vx * px + vy * py;
	const double s = fabs(going) > PATH_GOING_MPS ? (going < 0.0 ? -1.0 : 1.0) : (*ax * px + *ay * py < 0.0 ? -1.0 : 1.0);
	const double hx = *ax + s * px, hy = *ay + s * py, n = sqrt(hx * hx + hy * hy);
	*ax = hx / n;
	*ay = hy / n;
	return true;
}

/* Pass 1: the due men of grid positions [k0, k1), their pace, reach and desired direction;
 * the flow-field directions of those who follow a goal, a run of men of one goal at a time. */
static void pace_and_heading(const decide_ctx *c, rt_nb_batch *nb, batch_men *bm, int k0, int k1)
{
	const rt_world *w = c->w;
	const rt_agents *a = &w->agents;
	const rt_grid *g = c->g;
	const int64_t step = w->step;
	double goal_x[RT_NB_BATCH], goal_y[RT_NB_BATCH];
	int32_t goal_of[RT_NB_BATCH];
	int goal_man[RT_NB_BATCH], goal_men = 0;
	int retinue_man[RT_NB_BATCH], retinue_men = 0;
	nb->men = 0;
	for (int k = k0; k < k1; ++k) {
		const int s = g->order[k];
		const int level = a->level[s];
		if (level > 0 && (step & ((1ll << level) - 1)) != 0) continue; /* not due */
		const double xi = g->sx[k], yi = g->sy[k];
		/* his pace: free speed, running at his own pace if he routs, times the ground and water under him,
		 * and the mud when the ground is wet */
		double v0 = a->free_speed[s] * rt__run_factor(w, s) *
			    (w->map ? rt__terrain_speed(w, rt__terrain_cell(w, xi, yi)) : 1.0);
		if (c->mud) v0 *= rt__mud_factor(w, rt__terrain_cell(w, xi, yi));
		v0 *= a->mount[s] ? rt__stamina_factor(w, a->horse_fatigue[s]) /* C4: a tired horse */
				  : rt__legs_factor(w, a->fatigue[s]);    /* ... or tired legs */
		v0 *= c->dark_pace; /* E1: in the dark he feels his way (exactly 1 by day or without a sky) */
		const int i = nb->men++;
		nb->k[i] = k;
		const int32_t goal = desired_direction(c, s, xi, yi, &bm->head_x[i], &bm->head_y[i], &v0, false);
		bm->pace[i] = v0;
		if (goal == RETINUE) retinue_man[retinue_men++] = i;
		if (goal >= 0) {
			goal_of[goal_men] = goal;
			goal_man[goal_men] = i;
			goal_x[goal_men] = xi;
			goal_y[goal_men] = yi;
			goal_men++;
		}
	}
	for (int q = 0; q < goal_men;) {
		int r = q + 1;
		while (r < goal_men && goal_of[r] == goal_of[q]) r++;
		double ex[RT_NB_BATCH], ey[RT_NB_BATCH];
		rt__goal_directions(&w->goals[goal_of[q]], r - q, goal_x + q, goal_y + q, ex, ey, c->simd);
		for (int m = q; m < r; ++m) {
			bm->head_x[goal_man[m]] = ex[m - q];
			bm->head_y[goal_man[m]] = ey[m - q];
		}
		q = r;
	}
	/* M8, C6, M6: the few men of the guard stances (guard.c), one at a time */
	for (int m = 0; m < retinue_men; ++m) {
		const int i = retinue_man[m], k = nb->k[i], s = g->order[k];
		const double xi = g->sx[k], yi = g->sy[k];
		double ex = 0.0, ey = 0.0, pace = bm->pace[i];
		bool handled;
		int32_t to = rt__retinue_direction(w, s, xi, yi, &ex, &ey, &pace, &handled);
		if (!handled) to = desired_direction(c, s, xi, yi, &ex, &ey, &pace, true);
		if (to >= 0 && !rt__goal_direction(rt__way_field(w, s, to), xi, yi, &ex, &ey)) ex = ey = 0.0;
		bm->head_x[i] = ex;
		bm->head_y[i] = ey;
		bm->pace[i] = pace;
	}
	/* E5, C2: a man on foot in flight whose way the enemy bars stops (way_barred), and so
	 * does one who comes up behind men in flight standing (behind_the_halted); a rider
	 * tries to force it ("张洪谟率部冲了几次，都没能过河", seed 000; C2 "骑兵干脆纵马直冲，硬往
	 * 前闯", seed 003); a general's guards, rearguard and bearers go with the general */
	for (int i = 0; i < nb->men; ++i) bm->stood[i] = false;
	if (c->barred_range > 0.0)
		for (int i = 0; i < nb->men; ++i) {
			const int s = g->order[nb->k[i]];
			if ((bm->head_x[i] == 0.0 && bm->head_y[i] == 0.0) || !foot_in_flight(w, s)) continue;
			if (way_barred(c, s, g->sx[nb->k[i]], g->sy[nb->k[i]], bm->head_x[i], bm->head_y[i]) ||
			    behind_the_halted(c, s, nb->k[i], bm->head_x[i], bm->head_y[i])) {
				bm->head_x[i] = bm->head_y[i] = 0.0;
				bm->stood[i] = true;
			}
		}
	for (int i = 0; i < nb->men; ++i) {
		const int k = nb->k[i];
		/* E4: a man in the flames of a head fire, or on grass beside them, runs for the
		 * nearest safe ground */
		if (c->fire || c->fire_fear || c->water) {
			const uint8_t state = a->state[g->order[k]];
			double ax, ay;
			if (c->fire && rt__fire_flight(w, g->sx[k], g->sy[k], &bm->head_x[i], &bm->head_y[i])) {
				if (state != RT_STATE_ROUTING) bm->pace[i] *= c->flight_factor;
			}
			/* E4: a man who sees flames round him, or farther off (fire_sight_m), gives
			 * ground from them: broken, he runs from them first; else he drops what of his
			 * way runs at them and steps away (a kneeling man stays where he knelt, C5) */
			else if (c->fire_fear && state != RT_STATE_SURRENDERED &&
				 ((rt__fire_seen(w, g->sx[k], g->sy[k], c->view_radius, &ax, &ay) > 0.0 && (ax != 0.0 || ay != 0.0)) ||
				  rt__fire_seen_afar(w, g->sx[k], g->sy[k], &ax, &ay))) {
				const bool in_path = out_of_the_path(c, w->decide_vx[g->order[k]], w->decide_vy[g->order[k]], &ax, &ay);
				if (state == RT_STATE_ROUTING || in_path) {
					bm->head_x[i] = ax;
					bm->head_y[i] = ay;
				} else {
					const double toward = fmin(0.0, bm->head_x[i] * ax + bm->head_y[i] * ay);
					const double hx = bm->head_x[i] - toward * ax + ax, hy = bm->head_y[i] - toward * ay + ay;
					const double hn = sqrt(hx * hx + hy * hy);
					bm->head_x[i] = hn > 1e-9 ? hx / hn : 0.0;
					bm->head_y[i] = hn > 1e-9 ? hy / hn : 0.0;
				}
			}
			/* E3: a man not in flight feels the water rise round him and wades out toward
			 * the shallows; a routing man in the dark runs where his flight takes him */
			else if (c->water && state != RT_STATE_ROUTING && state != RT_STATE_SURRENDERED)
				rt__water_flight(w, g->sx[k], g->sy[k], &bm->head_x[i], &bm->head_y[i]);
		}
		/* neighbours within the interaction range */
		const double vT = bm->pace[i] * c->T;
		const double cutoff = g->sr[k] + c->max_radius + (vT >= c->rep_range ? vT : c->rep_range); /* fmax */
		const double rcv = cutoff * g->inv_cell - 1e-9;
		int rc = (int)rcv;
		rc += (double)rc < rcv; /* ceil */
		nb->rc[i] = rc > c->rc_limit ? c->rc_limit : rc;
		nb->cutoff[i] = cutoff;
	}
}

/* Pass 3, after the neighbour sums of men [from, to): the walls' repulsion, and the
 * direction e = normalise(e0 + repulsion); a man near walls gets his whole spacing here,
 * the others theirs after, in one more short pass. */
static void directions(const decide_ctx *c, rt_nb_batch *nb, batch_men *bm, int from, int to)
{
	const rt_world *w = c->w;
	const rt_grid *g = c->g;
	const rt_geometry *geo = c->geo;
	for (int i = from; i < to; ++i) {
		const int k = nb->k[i];
		const double xi = g->sx[k], yi = g->sy[k], ri = g->sr[k];
		const double v0 = bm->pace[i], cutoff = nb->cutoff[i];
		const double e0x = bm->head_x[i], e0y = bm->head_y[i];
		const bool wants_to_move = (e0x != 0.0 || e0y != 0.0) && v0 > 0.0;
		bm->spacing_left[i] = false;

		/* neighbours: repulsion, and those kept for the spacing pass */
		double rx = nb->rx[i], ry = nb->ry[i], nearest_gap = nb->nearest_gap[i];
		const int first = nb->first[i], cached = nb->count[i] < RT_NB_KEEP ? nb->count[i] : RT_NB_KEEP;

		/* walls: repulsion now, spacing below */
		int wall_n = 0;
		const int *walls = rt__geometry_near(geo, xi, yi, &wall_n);
		double wall_px[MAX_WALLS], wall_py[MAX_WALLS], wall_d[MAX_WALLS];
		int wall_cached = 0;
		for (int m = 0; m < wall_n; ++m) {
			double nx, ny;
			const rt_segment *seg = &geo->walls[walls[m]];
			double px = xi, py = yi;
			if (c->periodic) {
				/* measure to the wall's nearest periodic image */
				double mid = 0.5 * (seg->ax + seg->bx);
				px = mid + wrap_dx(xi - mid, true, c->period, c->inv_period);
				if (fabs(seg->bx - seg->ax) >= 0.5 * c->period) px = xi;
			}
			const double dist = rt__segment_point_distance(seg, px, py, &nx, &ny);
			const double gap = dist - ri;
			if (gap < nearest_gap) nearest_gap = gap;
			if (gap < c->wall_rep_range) {
				const double f = c->Aw * exp(-gap * c->inv_Dw);
				rx += f * nx;
				ry += f * ny;
			}
			if (wall_cached < MAX_WALLS && dist < cutoff) {
				wall_px[wall_cached] = -nx * dist; /* vector from agent to the wall's nearest point */
				wall_py[wall_cached] = -ny * dist;
				wall_d[wall_cached] = dist;
				wall_cached++;
			}
		}
		nb->rx[i] = rx;
		nb->ry[i] = ry;
		nb->nearest_gap[i] = nearest_gap;
		if (!wants_to_move) continue;

		double ex = e0x + rx, ey = e0y + ry;
		double en = sqrt(ex * ex + ey * ey);
		if (en > 1e-9) {
			ex /= en;
			ey /= en;
		} else {
			ex = e0x;
			ey = e0y;
		}
		if (wall_cached == 0) {
			bm->dir_x[i] = ex;
			bm->dir_y[i] = ey;
			bm->spacing_left[i] = true;
			continue;
		}
		/* a wall in contact is hard: a crowd pressing a man against it turns him along
		 * the wall, never into it (else he would stand, spacing zero, for good) */
		for (int m = 0; m < wall_cached; ++m) {
			if (wall_d[m] - ri > c->wall_rep_range) continue;
			const double wnx = wall_px[m] / wall_d[m], wny = wall_py[m] / wall_d[m];
			const double into = ex * wnx + ey * wny;
			if (into <= 0.0) continue;
			double tx = ex - into * wnx, ty = ey - into * wny;
			double tn = sqrt(tx * tx + ty * ty);
			if (tn > 1e-9) {
				ex = tx / tn;
				ey = ty / tn;
			}
		}
		double spacing = spacing_along(ex, ey, ri, nb, first, cached, c->simd, wall_px, wall_py, wall_d, wall_cached);
		if (spacing < BLOCKED_SPACING_M) {
			double tx, ty;
			sidestep(w, w->agents.id[g->order[k]], ex, ey, &tx, &ty);
			double sp = spacing_along(tx, ty, ri, nb, first, cached, c->simd, wall_px, wall_py, wall_d, wall_cached);
			if (sp > spacing) {
				ex = tx;
				ey = ty;
				spacing = sp;
			}
		}
		bm->dir_x[i] = ex;
		bm->dir_y[i] = ey;
		bm->spacing[i] = spacing;
	}
	for (int i = from; i < to; ++i) {
		if (!bm->spacing_left[i]) continue;
		const int first = nb->first[i], cached = nb->count[i] < RT_NB_KEEP ? nb->count[i] : RT_NB_KEEP;
		bm->spacing[i] = rt__spacing(nb, first, cached, bm->dir_x[i], bm->dir_y[i], c->simd);
	}
}

/* Pass 4: each man's speed and velocity, and his next update period. */
static void speeds(const decide_ctx *c, const rt_nb_batch *nb, const batch_men *bm, int from, int to)
{
	rt_world *w = c->w;
	rt_agents *a = &w->agents;
	const rt_grid *g = c->g;
	const int max_level = c->max_level;
	for (int i = from; i < to; ++i) {
		const int k = nb->k[i], s = g->order[k];
		const int level = a->level[s];
		const double v0 = bm->pace[i];
		const double e0x = bm->head_x[i], e0y = bm->head_y[i];
		const bool wants_to_move = (e0x != 0.0 || e0y != 0.0) && v0 > 0.0;
		const double rx = nb->rx[i], ry = nb->ry[i];
		double vx = 0.0, vy = 0.0;
		bool pressed = false;
		if (wants_to_move) {
			double ex = bm->dir_x[i], ey = bm->dir_y[i], spacing = bm->spacing[i];
			if (bm->spacing_left[i] && spacing < BLOCKED_SPACING_M) {
				const int first = nb->first[i], cached = nb->count[i] < RT_NB_KEEP ? nb->count[i] : RT_NB_KEEP;
				double tx, ty;
				sidestep(w, a->id[s], ex, ey, &tx, &ty);
				double sp = rt__spacing(nb, first, cached, tx, ty, c->simd);
				if (sp > spacing) {
					ex = tx;
					ey = ty;
					spacing = sp;
				}
			}
			/* pushed from behind, a man closes up on the man ahead: the net push along his
			 * desired direction shortens his time gap, T / (1 + k push), at most by
			 * push_max_factor. This is what lets a pressing crowd zip through an opening
			 * faster than the corridor's capacity (Seyfried et al. 2009). The clamps are
			 * maxsd, not branches (1 + k 0 is exactly 1; a spacing, a difference of
			 * positive lengths, is never -0, so neither is the speed) */
			const double push = rx * e0x + ry * e0y;
			double factor = 1.0 + c->push_gain * larger(push, 0.0);
			factor = factor > c->push_max ? c->push_max : factor;
			double speed = spacing * c->inv_T * factor;
			speed = larger(speed, 0.0);
			speed = speed > v0 ? v0 : speed; /* v0 > 0 */
			vx = ex * speed;
			vy = ey * speed;
			pressed = speed < c->held * v0;
		}
		a->vx[s] = vx;
		a->vy[s] = vy;
		/* a man who decides is not down (crush.c); one who stands with his way barred is
		 * marked so for the men behind him (behind_the_halted), unless the fire or the
		 * water moved him after all */
		a->crush[s] = (uint8_t)((pressed ? RT_CRUSH_PRESSED : 0) | (bm->stood[i] && !wants_to_move ? RT_CRUSH_STOOD : 0));

		/* next update period: an agent that stands still with room around it, or moves
		 * with a wide margin to everything it can see, may decide less often */
		int next = 0;
		if (max_level > 0) {
			double speed = sqrt(vx * vx + vy * vy);
			double margin = nb->nearest_gap[i] - 2.0 * c->neighbor_range;
			if (margin > 0.0) {
				double allowed = !wants_to_move && speed == 0.0 ? INFINITY : 0.5 * margin / (speed + c->max_speed);
				next = level + 1 > max_level ? max_level : level + 1;
				while (next > 0 && c->dt * (double)(1 << next) > allowed) next--;
			}
		}
		a->level[s] = (uint8_t)next;
	}
}

/* The velocities the decide phase reads of other men (rt_world.decide_vx): a copy made
 * before it when some man reads them (a guard, a rearguard, a carried commander's man, or
 * one containing), else the live arrays, which nobody then reads across. */
/* ---- E5, C2: the men standing ready to fight, per coarse cell (way_barred) ---- */
#define BAR_MAX_CELLS (16ll << 20) /* at most 64 MB a side */

/* The grid's cell: barred_cell_m, doubled until the bounds take at most BAR_MAX_CELLS (a
 * function of the bounds and the parameters alone, so a resumed run lays it out alike) */
static double bar_cell_for(const rt_world *w)
{
	const double width = w->def.bounds_max.x - w->def.bounds_min.x, height = w->def.bounds_max.y - w->def.bounds_min.y;
	double cell = w->def.morale.barred_cell_m;
	while (ceil(width / cell) * ceil(height / cell) > (double)BAR_MAX_CELLS) cell *= 2.0;
	return cell;
}

void rt__barred_free(rt_world *w)
{
	rt__free(&w->allocator, w->bar_men, (size_t)w->bar_nx * (size_t)w->bar_ny * (size_t)w->bar_stride * sizeof(float));
	rt__free(&w->allocator, w->bar_touched, (size_t)w->bar_touched_cap * sizeof(int));
	w->bar_men = NULL;
	w->bar_touched = NULL;
	w->bar_nx = w->bar_ny = w->bar_stride = w->bar_touched_n = w->bar_touched_cap = 0;
	w->bar_on = false;
}

rt_status rt__barred_prepare(rt_world *w, rt_error *err)
{
	const rt_agents *a = &w->agents;
	const rt_morale_params *m = &w->def.morale;
	const int n = a->count;
	/* last step's cells cleared, whatever this step needs */
	for (int i = 0; i < w->bar_touched_n; ++i)
		memset(w->bar_men + (size_t)w->bar_touched[i] * (size_t)w->bar_stride, 0, (size_t)w->bar_stride * sizeof(float));
	w->bar_touched_n = 0;
	w->bar_on = false;
	if (!(m->barred_range_m > 0.0)) return RT_OK;
	const double cell = w->bar_stride > 0 ? w->bar_cell : bar_cell_for(w);
	if (!(fmin(m->barred_range_m, w->env.detection_range_m) >= 0.5 * cell)) return RT_OK; /* he sees no cell ahead */
	bool flight = false;
	int sides = 0;
	for (int s = 0; s < n; ++s) {
		if (!rt__active(a->state[s])) continue;
		sides = a->side[s] + 1 > sides ? a->side[s] + 1 : sides;
		flight = flight || foot_in_flight(w, s);
	}
	if (!flight || sides < 2) return RT_OK;
	if (sides > w->bar_stride) { /* laid out at the first use, and again if a side is added */
		rt__barred_free(w);
		const double width = w->def.bounds_max.x - w->def.bounds_min.x, height = w->def.bounds_max.y - w->def.bounds_min.y;
		const int nx = (int)fmax(1.0, ceil(width / cell)), ny = (int)fmax(1.0, ceil(height / cell));
		w->bar_men = rt__calloc(&w->allocator, (size_t)nx * (size_t)ny * (size_t)sides, sizeof(float));
		if (!w->bar_men) return rt__fail(err, RT_ERR_NOMEM, "out of memory for the way-barred grid (%d x %d cells)", nx, ny);
		w->bar_nx = nx;
		w->bar_ny = ny;
		w->bar_stride = sides;
		w->bar_cell = cell;
		w->bar_ox = w->def.bounds_min.x;
		w->bar_oy = w->def.bounds_min.y;
	}
	if (w->bar_touched_cap < n) {
		int *t = rt__realloc(&w->allocator, w->bar_touched, (size_t)w->bar_touched_cap * sizeof(int), (size_t)n * sizeof(int));
		if (!t) return rt__fail(err, RT_ERR_NOMEM, "out of memory for the way-barred grid's cells");
		w->bar_touched = t;
		w->bar_touched_cap = n;
	}
	const double rider = m->horse_threat_weight;
	const double inv_cell = 1.0 / w->bar_cell;
	for (int s = 0; s < n; ++s) {
		if (!rt__ready_to_fight(w, s) || rt__on_the_move(w, s)) continue;
		const int ix = rt__floor_int((a->x[s] - w->bar_ox) * inv_cell), iy = rt__floor_int((a->y[s] - w->bar_oy) * inv_cell);
		if (ix < 0 || iy < 0 || ix >= w->bar_nx || iy >= w->bar_ny) continue;
		const int c = iy * w->bar_nx + ix;
		float *men = w->bar_men + (size_t)c * (size_t)w->bar_stride;
		bool empty = true;
		for (int k = 0; k < w->bar_stride; ++k) empty = empty && men[k] == 0.0f;
		if (empty) w->bar_touched[w->bar_touched_n++] = c;
		men[a->side[s]] += (float)(a->mount[s] ? rider : 1.0);
	}
	w->bar_on = true;
	return RT_OK;
}

/* Q6, M5: an attack on a place is an attack on whoever holds it ("直杀入皇太极的御营", seed
 * 003; the wagon battalion fought in its camp, seed 000). A man attacking a place who is
 * within it and senses no enemy within advance_range_m goes on to the enemy standing in
 * it: for every goal some man attacks this step, the man of each side standing ready to
 * fight within its target nearest its centre (formed, marching, engaged or at bay, not
 * marching off: the way-barred predicate without its speed limit; ties by id). Serial,
 * before the decide phase; nothing here is state (a checkpoint rebuilds it at the next
 * step). */
void rt__held_free(rt_world *w)
{
	const size_t cap = (size_t)w->held_cap;
	rt__free(&w->allocator, w->held, cap * RT_MAX_SIDES * 3 * sizeof(double));
	rt__free(&w->allocator, w->held_id, cap * RT_MAX_SIDES * sizeof(uint32_t));
	rt__free(&w->allocator, w->held_attacked, cap);
	rt__free(&w->allocator, w->held_list, cap * sizeof(int));
	w->held = NULL;
	w->held_id = NULL;
	w->held_attacked = NULL;
	w->held_list = NULL;
	w->held_cap = 0;
	w->held_on = false;
}

/* a man on his feet, not in flight, attacking a place (stance advance with a goal) and within it */
static inline bool attacks_within(const rt_world *w, int s, int goals)
{
	const rt_agents *a = &w->agents;
	const int32_t g = a->goal[s];
	return a->stance[s] == RT_STANCE_ADVANCE && g >= 0 && g < goals && rt__active(a->state[s]) &&
	       a->state[s] != RT_STATE_ROUTING && rt__goal_reached(&w->goals[g], a->x[s], a->y[s]);
}

/* the arrays for every goal, cleared: at the first attacker of the step within his place */
static rt_status held_begin(rt_world *w, int goals, rt_error *err)
{
	if (w->held_cap < goals) {
		rt__held_free(w);
		const size_t cap = (size_t)(w->goal_capacity > goals ? w->goal_capacity : goals);
		w->held = rt__alloc(&w->allocator, cap * RT_MAX_SIDES * 3 * sizeof(double));
		w->held_id = rt__alloc(&w->allocator, cap * RT_MAX_SIDES * sizeof(uint32_t));
		w->held_attacked = rt__alloc(&w->allocator, cap);
		w->held_list = rt__alloc(&w->allocator, cap * sizeof(int));
		w->held_cap = (int)cap;
		if (!w->held || !w->held_id || !w->held_attacked || !w->held_list) {
			rt__held_free(w);
			return rt__fail(err, RT_ERR_NOMEM, "out of memory for the places attacked (%d goals)", goals);
		}
	}
	memset(w->held_attacked, 0, (size_t)goals);
	for (int i = 0; i < goals * RT_MAX_SIDES; ++i) {
		w->held[3 * i + 2] = INFINITY;
		w->held_id[i] = UINT32_MAX;
	}
	return RT_OK;
}

rt_status rt__held_prepare(rt_world *w, rt_error *err)
{
	const rt_agents *a = &w->agents;
	const int n = a->count, goals = w->goal_count;
	w->held_on = false;
	/* only a man already within the place he attacks looks for its holders (held_direction),
	 * so only such men's places are searched: on the way there is nothing to find */
	int count = 0;
	for (int s = 0; s < n; ++s) {
		if (!attacks_within(w, s, goals)) continue;
		if (!w->held_on) {
			rt_status st = held_begin(w, goals, err);
			if (st != RT_OK) return st;
			w->held_on = true;
		}
		const int32_t g = a->goal[s];
		if (w->held_attacked[g]) continue;
		w->held_attacked[g] = 1;
		w->held_list[count++] = g;
	}
	for (int s = 0; s < n && count > 0; ++s) {
		if (!rt__ready_to_fight(w, s)) continue;
		const double x = a->x[s], y = a->y[s];
		for (int k = 0; k < count; ++k) {
			const rt_goal *goal = &w->goals[w->held_list[k]];
			if (!rt__goal_reached(goal, x, y)) continue;
			const double cx = 0.5 * (goal->def.target_min.x + goal->def.target_max.x) - x;
			const double cy = 0.5 * (goal->def.target_min.y + goal->def.target_max.y) - y;
			const double d2 = cx * cx + cy * cy;
			const int i = w->held_list[k] * RT_MAX_SIDES + a->side[s];
			if (d2 < w->held[3 * i + 2] || (d2 == w->held[3 * i + 2] && a->id[s] < w->held_id[i])) {
				w->held[3 * i] = x;
				w->held[3 * i + 1] = y;
				w->held[3 * i + 2] = d2;
				w->held_id[i] = a->id[s];
			}
		}
	}
	return RT_OK;
}

/* Q6, M5: the way on to the nearest of the enemy sides' men holding the place he attacks,
 * once he is within it (rt__held_prepare), in a straight line; false if none holds it, or
 * the one found is beyond what he can see in this light */
static bool held_direction(const decide_ctx *c, int s, int32_t goal, double xi, double yi, double *e0x, double *e0y)
{
	const rt_world *w = c->w;
	if (goal >= w->goal_count || !w->held_attacked[goal] || !rt__goal_reached(&w->goals[goal], xi, yi)) return false;
	const int side = w->agents.side[s];
	double best = INFINITY, bx = 0.0, by = 0.0;
	for (int k = 0; k < RT_MAX_SIDES; ++k) {
		const int i = goal * RT_MAX_SIDES + k;
		if (k == side || !isfinite(w->held[3 * i + 2])) continue;
		/* both within the one rectangle: the straight way between them stays in it, so no
		 * wrap across a periodic seam (which the place and its field do not wrap either) */
		const double ex = w->held[3 * i] - xi, ey = w->held[3 * i + 1] - yi;
		const double d2 = ex * ex + ey * ey;
		if (d2 < best) {
			best = d2;
			bx = ex;
			by = ey;
		}
	}
	/* he goes on to what he can see: not past the light's detection range (section 7) */
	const double sight = w->env.detection_range_m;
	if (!(best > 1e-18) || !isfinite(best) || best > sight * sight) return false;
	const double en = sqrt(best);
	*e0x = bx / en;
	*e0y = by / en;
	return true;
}

static void snapshot_velocities(rt_world *w)
{
	rt_agents *a = &w->agents;
	const int n = a->count;
	w->decide_vx = a->vx;
	w->decide_vy = a->vy;
	w->decide_halted = NULL;
	const bool flight = w->bar_on; /* a man on foot in flight, the rule on, the light enough (rt__barred_prepare) */
	bool reads = flight;
	for (int s = 0; s < n && !reads; ++s) reads = a->stance[s] == RT_STANCE_CONTAIN || rt__retinue_stance(a->stance[s]);
	if (!reads) return;
	double *v = rt__arena_push(&w->arena, 2 * (size_t)n * sizeof(double));
	RT_ASSERT(v != NULL); /* reserved by the step (world.c) */
	if (!v) return;
	memcpy(v, a->vx, (size_t)n * sizeof(double));
	memcpy(v + n, a->vy, (size_t)n * sizeof(double));
	w->decide_vx = v;
	w->decide_vy = v + n;
	if (!flight) return;
	/* who stood in flight of his own will at his last decision (RT_CRUSH_STOOD) and is in
	 * flight still: not a man who has just broken from his ranks, nor one a wall stopped */
	uint8_t *h = rt__arena_push(&w->arena, (size_t)n);
	RT_ASSERT(h != NULL); /* reserved by the step (world.c) */
	if (!h) return;
	for (int s = 0; s < n; ++s)
		h[s] = (a->crush[s] & RT_CRUSH_STOOD) && rt__active(a->state[s]) && foot_in_flight(w, s);
	w->decide_halted = h;
}

void rt__locomotion_decide(rt_world *w)
{
	const rt_grid *g = &w->grid;
	const rt_locomotion_params *p = &w->def.locomotion;
	const int count = g->count;
	snapshot_velocities(w);
	decide_ctx c;
	c.w = w;
	c.g = g;
	c.geo = &w->geometry;
	c.periodic = w->def.periodic_x;
	c.period = w->def.bounds_max.x - w->def.bounds_min.x;
	c.inv_period = 1.0 / c.period;
	c.T = p->time_gap_s;
	c.inv_T = 1.0 / c.T;
	c.neighbor_range = p->neighbor_range_m;
	c.rep_range = 8.0 * p->neighbor_range_m; /* beyond, exp(-8) is negligible */
	c.Aw = p->wall_strength;
	c.inv_Dw = 1.0 / p->wall_range_m;
	c.wall_rep_range = 8.0 * p->wall_range_m;
	c.push_gain = p->push_gain;
	c.push_max = p->push_max_factor;
	c.flight_factor = w->def.morale.flight_speed_factor;
	c.dark_pace = rt__dark_pace(w, rt__darkness(w));
	c.dt = w->def.dt_s;
	c.max_level = w->def.max_period_level;
	c.max_speed = w->max_speed;
	c.max_radius = w->max_radius;
	/* never search a bucket twice, never more than the run buffers hold */
	c.rc_limit = ((g->hx < g->hy ? g->hx : g->hy) - 1) / 2;
	c.rc_limit = c.rc_limit < 1 ? 1 : (c.rc_limit > 8 ? 8 : c.rc_limit);
	c.simd = rt__neighbours_simd();
	c.mud = w->mud_on;
	c.fire = rt__fire_hot_anywhere(w);
	c.fire_fear = rt__fire_seen_anywhere(w) && w->def.morale.fire_fear_rate_per_s > 0.0;
	c.view_radius = w->def.morale.view_radius_m;
	{
		const double wind = hypot(w->env.wind_mps.x, w->env.wind_mps.y), path = w->def.morale.fire_path_deg;
		const bool on = c.fire_fear && path > 0.0 && wind > 0.0;
		c.path_cos = cos(path * (3.14159265358979323846 / 180.0));
		c.wind_x = on ? w->env.wind_mps.x / wind : 0.0;
		c.wind_y = on ? w->env.wind_mps.y / wind : 0.0;
		c.path_head = w->env.fire_head_rate_mps;
	}
	c.water = w->map != NULL;
	c.charge_run_up = w->def.combat.charge_run_up_m;
	c.charge_pace = w->def.combat.charge_pace_factor;
	c.pursuit_pace = w->def.command.pursuit_pace_factor;
	c.sight = fmin(w->def.combat.sense_range_m, w->env.detection_range_m);
	c.torch_sight = fmax(c.sight, fmin(w->def.combat.sense_range_m, w->env.torch_detection_range_m));
	c.torch = w->torch_on;
	c.held = w->def.crush.held_speed_share;
	c.barred_range = w->bar_on ? fmin(w->def.morale.barred_range_m, w->env.detection_range_m) : 0.0;
	/* a band per lane cell of barred_cell_m; a coarser grid (a very wide map) holds more */
	c.barred_men = w->def.morale.barred_men * (w->bar_on ? (w->bar_cell / w->def.morale.barred_cell_m) * (w->bar_cell / w->def.morale.barred_cell_m) : 1.0);
	c.nbp = (rt_nb_params){ p->neighbor_strength, 1.0 / p->neighbor_range_m, c.rep_range, c.max_level > 0,
				c.periodic, c.period, c.inv_period };
	const int batches = (count + RT_NB_BATCH - 1) / RT_NB_BATCH;
	int64_t updates = 0;

	/* Men go in batches of RT_NB_BATCH grid positions, each pass over the whole batch
	 * before the next. Every man still writes only his own slot. */
	rt_nb_batch *scratch = rt__arena_push(&w->arena, (size_t)w->threads * sizeof(rt_nb_batch)); /* one per thread */
	RT_ASSERT(scratch != NULL); /* reserved by the step (world.c) */
	if (!scratch) return;
	RT_PARALLEL_REGION(RT_PARALLEL(count), (num_threads(w->threads) reduction(+ : updates)),
	{
		rt_nb_batch *nb = scratch + rt__thread_num();
		batch_men bm;
		/* handed out a few at a time: a thread slowed by others' work on its core does less */
		_Pragma("omp for schedule(dynamic, 8)")
		for (int batch = 0; batch < batches; ++batch) {
			const int k0 = batch * RT_NB_BATCH, k1 = k0 + RT_NB_BATCH < count ? k0 + RT_NB_BATCH : count;
			pace_and_heading(&c, nb, &bm, k0, k1);
			updates += nb->men;
			for (int from = 0; from < nb->men;) {
				const int to = rt__neighbours(g, &c.nbp, nb, from, c.simd); /* pass 2 */
				directions(&c, nb, &bm, from, to);
				speeds(&c, nb, &bm, from, to);
				from = to;
			}
		}
	});
	w->agent_updates += updates;
}

/* The move phase's barriers: whether man s may step from (x, y) to (tx, ty). */
typedef bool (*step_open)(const rt_world *w, int s, double x, double y, double tx, double ty);
static bool fort_open(const rt_world *w, int s, double x, double y, double tx, double ty)
{
	(void)x;
	(void)y;
	return rt__fort_admits(w, s, tx, ty);
}
static bool ground_open(const rt_world *w, int s, double x, double y, double tx, double ty)
{
	(void)s;
	(void)x;
	(void)y;
	return rt__terrain_passable(w, tx, ty);
}
static bool fire_open(const rt_world *w, int s, double x, double y, double tx, double ty)
{
	(void)s;
	(void)x;
	(void)y;
	return !rt__fire_hot(w, rt__terrain_cell(w, tx, ty));
}
static bool water_open(const rt_world *w, int s, double x, double y, double tx, double ty)
{
	return !rt__deeper_water(w, x, y, tx, ty, w->agents.mount[s]);
}

/* A step to (nx, ny) that a barrier refuses: keep only its x part, or else only its y
 * part, if the barrier lets that through; else stay. */
static inline void slide(const rt_world *w, int s, double x, double y, double *nx, double *ny, double *vx, double *vy,
			 step_open open)
{
	if (open(w, s, x, y, *nx, y)) {
		*ny = y;
		*vy = 0.0;
	} else if (open(w, s, x, y, x, *ny)) {
		*nx = x;
		*vx = 0.0;
	} else {
		*nx = x;
		*ny = y;
		*vx = *vy = 0.0;
	}
}

void rt__locomotion_move(rt_world *w)
{
	rt_agents *a = &w->agents;
	const rt_geometry *geo = &w->geometry;
	const int n = a->count;
	const double dt = w->def.dt_s;
	const double factor = w->def.locomotion.wall_clearance_factor;
	const bool periodic = w->def.periodic_x;
	const double x_min = w->def.bounds_min.x, period = w->def.bounds_max.x - w->def.bounds_min.x;
	const bool fire = rt__fire_hot_anywhere(w);
	int64_t clamps = 0;

	RT_PARALLEL_FOR(RT_PARALLEL(n), (schedule(static) num_threads(w->threads) reduction(+ : clamps)),
	for (int s = 0; s < n; ++s) {
		if (!rt__active(a->state[s])) continue;
		if (w->prev_x) { /* where he stood, should a full fort turn him back */
			w->prev_x[s] = a->x[s];
			w->prev_y[s] = a->y[s];
		}
		double vx = a->vx[s], vy = a->vy[s];
		if (vx == 0.0 && vy == 0.0) continue;
		const double x = a->x[s], y = a->y[s];
		const double clearance = factor * a->radius[s];
		int wall_n = 0;
		const int *walls = rt__geometry_near(geo, x, y, &wall_n);
		double nx = x + vx * dt, ny = y + vy * dt;
		for (int attempt = 0; attempt < 3 && wall_n > 0; ++attempt) {
			int hit = -1;
			double hit_nx = 0.0, hit_ny = 0.0;
			for (int m = 0; m < wall_n; ++m) {
				const rt_segment *seg = &geo->walls[walls[m]];
				rt_segment local = *seg;
				if (periodic && fabs(seg->bx - seg->ax) < 0.5 * period) {
					double shift = period * nearbyint((x - 0.5 * (seg->ax + seg->bx)) / period);
					local.ax += shift;
					local.bx += shift;
				}
				if (rt__segment_segment_distance(&local, x, y, nx, ny) < clearance) {
					hit = walls[m];
					rt__segment_point_distance(&local, x, y, &hit_nx, &hit_ny);
					break;
				}
			}
			if (hit < 0) break;
			clamps++;
			if (attempt == 2) {
				nx = x; /* no safe move this step */
				ny = y;
				vx = vy = 0.0;
				break;
			}
			/* slide: drop the part of the velocity that goes into the wall */
			const double into = vx * hit_nx + vy * hit_ny;
			if (into < 0.0) {
				vx -= into * hit_nx;
				vy -= into * hit_ny;
			}
			nx = x + vx * dt;
			ny = y + vy * dt;
			if (into >= 0.0) { /* moving away yet too near: stay */
				nx = x;
				ny = y;
				vx = vy = 0.0;
				break;
			}
		}
		/* a fort not his own, or full, is a wall to him: he slides along it one axis at a
		 * time, or stays (a man turned from a full fort's corner goes round it); inside a
		 * fort (leaving it on a sortie) he walks within its walls to the gate */
		if (w->fort_side && !rt__fort_admits(w, s, nx, ny) && rt__fort_at(w, x, y) != rt__fort_at(w, nx, ny))
			slide(w, s, x, y, &nx, &ny, &vx, &vy, fort_open);
		/* impassable ground (a river away from its fords, a deep trench, the sea's
		 * impassable features): slide along it one axis at a time, or stay */
		if (w->map && !rt__terrain_passable(w, nx, ny)) {
			slide(w, s, x, y, &nx, &ny, &vx, &vy, ground_open);
			clamps++;
		}
		/* E4: the flames of a head fire are a wall to a man outside them; a man caught in
		 * them may cross them to get out */
		if (fire && !rt__fire_hot(w, rt__terrain_cell(w, x, y)) && rt__fire_hot(w, rt__terrain_cell(w, nx, ny)))
			slide(w, s, x, y, &nx, &ny, &vx, &vy, fire_open);
		/* E3: a man going after an enemy (advancing, containing) does not follow him into
		 * water over his depth; a man on the march (or withdrawing, M5) keeps to his planned
		 * way in the dark, and a routing man runs where he runs (the flooded flats of
		 * Song-Jin drowned the fleeing, not the pursuers) */
		if (w->map && a->state[s] != RT_STATE_ROUTING && a->stance[s] != RT_STANCE_HOLD && a->stance[s] != RT_STANCE_WITHDRAW &&
		    rt__deeper_water(w, x, y, nx, ny, a->mount[s]))
			slide(w, s, x, y, &nx, &ny, &vx, &vy, water_open);
		if (periodic) nx = x_min + (nx - x_min) - period * floor((nx - x_min) / period);
		a->x[s] = nx;
		a->y[s] = ny;
		a->vx[s] = vx;
		a->vy[s] = vy;
		int32_t goal = a->goal[s];
		if (goal >= 0 && w->goals[goal].def.arrival == RT_ARRIVAL_LEAVE && rt__goal_reached(&w->goals[goal], nx, ny)) {
			a->state[s] = RT_STATE_ESCAPED;
			a->vx[s] = a->vy[s] = 0.0;
		}
	});
	w->wall_clamps += clamps;
}
