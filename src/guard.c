/* Personal guards (M8: "幸亏二人都有重金豢养的彪悍内丁") and the carrying of a wounded
 * commander through the rout (C6: "被董开国扛在肩上的张春").
 *
 * A guard is a man of stance RT_STANCE_GUARD; he serves the commander of his corps.
 * What he does each time he decides is chosen in the decide phase (locomotion.c,
 * guard_direction below): he keeps a station a guard_distance_m gap from his commander,
 * on the side of the commander's nearest enemy (a screen; round him when no enemy is
 * seen), hurrying to keep up when the commander moves, goes at any enemy who comes within
 * guard_engage_m of him, and follows him to his refuge once he has got away. While his
 * commander stands, leaves or flees he is bound to him (rt__bound): he loses morale at
 * guard_loss_factor x the rate and does not rout (morale.c). When the commander falls or
 * is taken the bond is broken and he is a man like any other.
 *
 * A commander who is wounded (0 < health < 1: a disabling hit that, with probability
 * wound_share, felled him without killing him; combat.c) or exhausted (fatigue 1) cannot
 * go on alone at more than wounded_speed_factor x his pace: his stance becomes
 * RT_STANCE_CARRIED. Each step, serially in corps order, the corps keeps the guard who
 * carries him while that guard is steady and within carry_pickup_m (body gap) of him;
 * else it names the nearest steady guard of the corps within carry_pickup_m (ties by
 * id), found in the neighbour grid. The carrier goes to him (farther than carry_touch_m)
 * and then takes him where he was going — his goal, else his refuge, else away from
 * the enemy — at carry_speed_factor x his running pace, striking no one; the commander
 * moves with him. If the carrier falls, the next step another guard takes him up.
 * Parameters: rt_command_params, docs/model.md section 10b. */
#include "world.h"

#include <math.h>

/* Whether the man in slot g can carry the commander of corps c: a steady guard of it. */
static bool can_carry(const rt_agents *a, int g, int c)
{
	const uint8_t st = a->state[g];
	return a->corps[g] == c && a->stance[g] == RT_STANCE_GUARD &&
	       (st == RT_STATE_FORMED || st == RT_STATE_MARCHING || st == RT_STATE_ENGAGED || st == RT_STATE_DESPERATE);
}

static double body_gap(const rt_agents *a, int s, int t)
{
	const double dx = a->x[t] - a->x[s], dy = a->y[t] - a->y[s];
	return sqrt(dx * dx + dy * dy) - a->radius[s] - a->radius[t];
}

/* The nearest man able to carry the commander in slot cs (corps c) within `reach`
 * (body gap), ties by id; -1 none. The neighbour grid's buckets round him, or every
 * man when the search would wrap round the grid's tiling. */
static int nearest_carrier(const rt_world *w, int cs, int c, double reach)
{
	const rt_agents *a = &w->agents;
	const rt_grid *g = &w->grid;
	const double range = reach + a->radius[cs] + w->max_radius;
	int best = -1;
	double best_gap = INFINITY;
	const int rc = (int)ceil(range * g->inv_cell);
	if (g->start && 2 * rc + 1 <= g->hx && 2 * rc + 1 <= g->hy && !w->def.periodic_x) {
		const int cx = rt__grid_cell_x(g, a->x[cs]), cy = rt__grid_cell_y(g, a->y[cs]);
		for (int yy = cy - rc; yy <= cy + rc; ++yy)
			for (int xx = cx - rc; xx <= cx + rc; ++xx) {
				const int b = rt__grid_wrap(yy, g->hy) * g->hx + rt__grid_wrap(xx, g->hx);
				for (int k = g->start[b]; k < g->start[b + 1]; ++k) {
					const int s = g->order[k];
					if (!can_carry(a, s, c)) continue;
					const double gap = body_gap(a, cs, s);
					if (gap > reach) continue;
					if (gap < best_gap || (gap == best_gap && a->id[s] < a->id[best])) {
						best_gap = gap;
						best = s;
					}
				}
			}
		return best;
	}
	for (int s = 0; s < a->count; ++s) {
		if (!can_carry(a, s, c)) continue;
		const double gap = body_gap(a, cs, s);
		if (gap > reach) continue;
		if (gap < best_gap || (gap == best_gap && a->id[s] < a->id[best])) {
			best_gap = gap;
			best = s;
		}
	}
	return best;
}

#define GOLDEN 0.6180339887498949 /* spreads stations by id: frac(id x golden) is even-ish */

/* A unit vector from (x, y) to (tx, ty) in (*ex, *ey); false when they coincide. */
static bool toward(double x, double y, double tx, double ty, double *ex, double *ey)
{
	const double dx = tx - x, dy = ty - y, d = sqrt(dx * dx + dy * dy);
	if (d <= 1e-9) return false;
	*ex = dx / d;
	*ey = dy / d;
	return true;
}

/* Where a wounded commander in slot p is going: the flow of his goal, else of his refuge,
 * at (x, y); else away from his nearest enemy. False: nowhere (he stays). */
static bool commander_way(const rt_world *w, int p, double x, double y, double *ex, double *ey)
{
	const rt_agents *a = &w->agents;
	const int32_t goal = a->goal[p] >= 0 ? a->goal[p] : a->flee_goal[p];
	if (goal >= 0) return rt__goal_direction(rt__way_field(w, p, goal), x, y, ex, ey);
	if (a->enemy[p] >= 0) {
		const int e = (int)w->slot_of_id[a->enemy[p]];
		return toward(a->x[e], a->y[e], x, y, ex, ey);
	}
	return false;
}

/* M6 ("薛大湖…百十多奋勇的明军"): a rearguard turns on the enemies closing on its
 * commander — his nearest enemy, or the man's own when that one is nearer — at a run (a
 * rider at the charge within the run-up), while the commander is within
 * rearguard_cover_m of him and still in the field; then it follows him to his refuge. */
static int32_t rearguard_direction(const rt_world *w, int s, int principal, double xi, double yi, double *e0x, double *e0y,
				   double *pace, bool *handled)
{
	const rt_agents *a = &w->agents;
	const rt_combat_params *cp = &w->def.combat;
	const uint8_t pst = a->state[principal];
	const double dx = a->x[principal] - xi, dy = a->y[principal] - yi;
	const bool covering = pst <= RT_STATE_DESPERATE && dx * dx + dy * dy <= w->def.command.rearguard_cover_m * w->def.command.rearguard_cover_m;
	*handled = true;
	*e0x = *e0y = 0.0;
	if (!covering) /* he is away (or gone): after him */
		return a->flee_goal[s] >= 0 ? a->flee_goal[s] : a->goal[s];
	int32_t target = a->enemy[principal];
	double range = a->enemy_dist[principal];
	if (a->enemy[s] >= 0 && (target < 0 || a->enemy_dist[s] < range)) {
		target = a->enemy[s];
		range = a->enemy_dist[s];
	}
	if (target < 0 || !(range <= cp->advance_range_m)) { /* nobody after him: keep by him */
		toward(xi, yi, a->x[principal], a->y[principal], e0x, e0y);
		return -1;
	}
	const int e = (int)w->slot_of_id[target];
	toward(xi, yi, a->x[e], a->y[e], e0x, e0y);
	const bool rider = a->mount[s];
	const double ex = a->x[e] - xi, ey = a->y[e] - yi;
	if (rider && ex * ex + ey * ey <= cp->charge_run_up_m * cp->charge_run_up_m) *pace *= cp->charge_pace_factor;
	else *pace *= w->def.morale.flight_speed_factor;
	return -1;
}

int32_t rt__retinue_direction(const rt_world *w, int s, double xi, double yi, double *e0x, double *e0y, double *pace,
			      bool *handled)
{
	const rt_agents *a = &w->agents;
	const rt_command_params *p = &w->def.command;
	const double run = w->def.morale.flight_speed_factor;
	*handled = false;
	const bool routing = a->state[s] == RT_STATE_ROUTING;
	if (a->state[s] == RT_STATE_SURRENDERED) return -1;
	const int c = a->corps[s];
	if (a->stance[s] == RT_STANCE_CARRIED && c >= 0) {
		/* C6: with his carrier by him he goes with him (fleeing or not); alone he limps
		 * his own way */
		const int32_t carrier = w->corps[c].carrier;
		if (carrier >= 0) {
			const int t = (int)w->slot_of_id[carrier];
			if (body_gap(a, s, t) <= p->carry_touch_m && toward(xi, yi, a->x[t], a->y[t], e0x, e0y)) {
				if (!routing) *pace *= run; /* as fast as he is borne: the gap to his carrier holds him back */
				*handled = true;
				return -1;
			}
		}
		*pace *= p->wounded_speed_factor;
		return -1;
	}
	if (routing) return -1;
	const int principal = rt__principal(w, s);
	if (principal < 0) return -1;
	const uint8_t pst = a->state[principal];
	if (a->stance[s] == RT_STANCE_REARGUARD) return rearguard_direction(w, s, principal, xi, yi, e0x, e0y, pace, handled);
	/* a guard (M8) */
	if (pst == RT_STATE_ESCAPED || pst == RT_STATE_SHELTERED) {
		/* he got away: after him, to his refuge */
		*handled = true;
		return a->flee_goal[s] >= 0 ? a->flee_goal[s] : a->goal[s];
	}
	if (!rt__bound(pst)) return -1; /* he fell or was taken: the bond is broken */
	*handled = true;
	*e0x = *e0y = 0.0;
	const double px = a->x[principal], py = a->y[principal];
	const double running = *pace * run;
	if (w->corps[c].carrier == (int32_t)a->id[s]) {
		/* C6: he carries him where he was going, or goes to take him up */
		if (body_gap(a, s, principal) > p->carry_touch_m) {
			toward(xi, yi, px, py, e0x, e0y);
			*pace = running;
		} else if (commander_way(w, principal, px, py, e0x, e0y)) {
			*pace = running * p->carry_speed_factor;
		}
		return -1;
	}
	/* an enemy closing on him is met */
	const int32_t threat = a->enemy[principal];
	if (threat >= 0 && a->enemy_dist[principal] <= p->guard_engage_m) {
		int32_t target = threat;
		if (a->enemy[s] >= 0) { /* his own nearest enemy, if he too is at the commander */
			const int e = (int)w->slot_of_id[a->enemy[s]];
			const double dx = a->x[e] - px, dy = a->y[e] - py;
			if (dx * dx + dy * dy <= 4.0 * p->guard_engage_m * p->guard_engage_m) target = a->enemy[s];
		}
		const int e = (int)w->slot_of_id[target];
		toward(xi, yi, a->x[e], a->y[e], e0x, e0y);
		*pace = running;
		return -1;
	}
	/* his station: between the commander and the enemy, spread over half a circle in three
	 * ranks; round him when no enemy is seen */
	const double spread = fmod((double)a->id[s] * GOLDEN, 1.0);
	const double radius = a->radius[principal] + a->radius[s] + p->guard_distance_m + 2.0 * a->radius[s] * (double)(a->id[s] % 3u);
	double ux = 1.0, uy = 0.0, angle = 2.0 * 3.14159265358979323846 * spread;
	if (threat >= 0) {
		const int e = (int)w->slot_of_id[threat];
		if (toward(px, py, a->x[e], a->y[e], &ux, &uy)) angle = 3.14159265358979323846 * (spread - 0.5);
	}
	const double ca = cos(angle), sa = sin(angle);
	const double sx = px + radius * (ca * ux - sa * uy), sy = py + radius * (sa * ux + ca * uy);
	const double dx = sx - xi, dy = sy - yi, d = sqrt(dx * dx + dy * dy);
	if (d < 0.1 * a->radius[s]) return -1; /* at his station */
	*e0x = dx / d;
	*e0y = dy / d;
	const double pvx = w->decide_vx[principal], pvy = w->decide_vy[principal]; /* his last step's */
	const double keep_up = d / p->guard_follow_s + sqrt(pvx * pvx + pvy * pvy);
	*pace = fmin(running, keep_up);
	return -1;
}

void rt__retinue(rt_world *w)
{
	rt_agents *a = &w->agents;
	const double reach = w->def.command.carry_pickup_m;
	for (int c = 0; c < w->corps_count; ++c) {
		rt_corps *k = &w->corps[c];
		if (k->commander < 0) {
			k->carrier = -1;
			k->guarded = false;
			continue;
		}
		const int cs = (int)w->slot_of_id[k->commander];
		const uint8_t st = a->state[cs];
		k->guarded = rt__bound(st); /* what the morale phase reads, not his state as it changes */
		if (!rt__active(st) || st == RT_STATE_SURRENDERED || !rt__disabled(w, cs)) {
			k->carrier = -1;
			continue;
		}
		if (a->stance[cs] != RT_STANCE_CARRIED) { /* he can no longer go on his own */
			a->stance[cs] = RT_STANCE_CARRIED;
			a->level[cs] = 0;
		}
		if (k->carrier >= 0) { /* his carrier keeps him while he is steady and by him */
			const int g = (int)w->slot_of_id[k->carrier];
			if (!can_carry(a, g, c) || body_gap(a, cs, g) > reach) k->carrier = -1;
		}
		if (k->carrier < 0) {
			const int g = nearest_carrier(w, cs, c, reach);
			if (g >= 0) {
				k->carrier = (int32_t)a->id[g];
				a->level[g] = 0;
				a->level[cs] = 0;
			}
		}
	}
}
