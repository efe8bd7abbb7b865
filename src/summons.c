/* The summons to surrender (M7: "各旗离明军保持五百步的距离…劝降"): a ring that has halted
 * out of reach and holds asks the men inside to give themselves up.
 *
 * Every command round (decision_interval_s), for each side with a corps whose definition
 * says summon and whose commander is still at his post (active, not gone), serially:
 *
 *   the ring    the side's steady men of stance contain who see an enemy, but for those
 *               who keep the ground they held when the halt came (keep, run.c);
 *   it holds    when their mean |d - D| / D <= summons_hold_tolerance, d the distance to
 *               their nearest enemy and D contain_distance_m;
 *   its centre  E, the mean position of the enemies they see;
 *   it is shut  when each of eight 45-degree sectors round E holds one of its men or one
 *               of those keeping their ground (a ford held shuts its side);
 *   inside      every enemy (active, not kneeling) nearer E than the nearest man of the ring.
 *
 * The first round the ring holds, is shut and has someone inside, its commander summons
 * (summons_at_s): a ring shut round nobody (a few strays scattered) summons nobody. From
 * then on, in every round it still holds and is shut, each man inside whose morale is
 * below summons_morale — or who is desperate or routing — kneels (surrenders) with
 * probability 1 - exp(-lambda interval), where
 *
 *   lambda = lambda_0 exp(w_hunger hunger + w_time hours_since_summons + w_gone gone)
 *            x (summons_desperate_factor if he is desperate)          (per hour)
 *
 * hunger being his corps' (M9), gone 1 when his own commander has left, fallen or been
 * taken (or he has none). Draws are Philox(seed, id, round, RT_STREAM_SUMMONS); men are
 * taken in slot order, so the result is the same at any thread count. Parameters:
 * rt_command_params, docs/model.md section 10c. */
#include "world.h"

#include <math.h>

#define SECTORS 8

static bool steady(uint8_t st) { return st == RT_STATE_FORMED || st == RT_STATE_MARCHING || st == RT_STATE_ENGAGED; }

/* Whether the men of corps c have lost their commander (left, fallen, taken, or none). */
static bool commander_gone(const rt_world *w, int c)
{
	if (c < 0) return true;
	const rt_corps *k = &w->corps[c];
	if (k->left || k->commander < 0) return true;
	const uint8_t st = w->agents.state[w->slot_of_id[k->commander]];
	return !rt__active(st) || st == RT_STATE_SURRENDERED;
}

static void summon_side(rt_world *w, int side, int64_t round)
{
	rt_agents *a = &w->agents;
	const rt_command_params *p = &w->def.command;
	const double contain = w->def.combat.contain_distance_m;
	const int n = a->count;
	/* the ring: how well it keeps its distance, and where the men it contains stand */
	int ring = 0;
	double miss = 0.0, ex = 0.0, ey = 0.0;
	for (int s = 0; s < n; ++s) {
		if (a->side[s] != side || a->stance[s] != RT_STANCE_CONTAIN || a->keep[s] || !steady(a->state[s]) || a->enemy[s] < 0) continue;
		const int t = (int)w->slot_of_id[a->enemy[s]];
		miss += fabs((double)a->enemy_dist[s] - contain);
		ex += a->x[t];
		ey += a->y[t];
		ring++;
	}
	bool holds = ring > 0 && contain > 0.0 && miss / ring <= p->summons_hold_tolerance * contain;
	unsigned sectors = 0;
	double inner = INFINITY;
	if (holds) {
		ex /= ring;
		ey /= ring;
		for (int s = 0; s < n; ++s) {
			if (a->side[s] != side || a->stance[s] != RT_STANCE_CONTAIN || !steady(a->state[s]) || a->enemy[s] < 0) continue;
			const double dx = a->x[s] - ex, dy = a->y[s] - ey;
			const double angle = atan2(dy, dx); /* -pi .. pi */
			int k = (int)floor((angle + 3.14159265358979323846) * (SECTORS / (2.0 * 3.14159265358979323846)));
			k = k < 0 ? 0 : (k >= SECTORS ? SECTORS - 1 : k);
			sectors |= 1u << k;
			if (!a->keep[s]) inner = fmin(inner, sqrt(dx * dx + dy * dy));
		}
		holds = sectors == (1u << SECTORS) - 1u;
	}
	/* who is inside: a ring shut round nobody summons nobody */
	int inside = 0;
	if (holds) {
		for (int s = 0; s < n; ++s) {
			const uint8_t st = a->state[s];
			if (a->side[s] == side || !rt__active(st) || st == RT_STATE_SURRENDERED) continue;
			const double dx = a->x[s] - ex, dy = a->y[s] - ey;
			inside += dx * dx + dy * dy < inner * inner;
		}
		holds = inside > 0;
	}
	/* the summoners: corps of this side that summon, their commander at his post */
	bool summoned = false;
	double since = INFINITY;
	for (int c = 0; c < w->corps_count; ++c) {
		rt_corps *k = &w->corps[c];
		if (k->def.side != side || !k->def.summon) continue;
		k->encircled = 0;
		if (commander_gone(w, c) || !holds) continue;
		if (k->summons_at_s < 0.0) k->summons_at_s = w->time_s; /* his summons goes out */
		since = fmin(since, k->summons_at_s);
		summoned = true;
	}
	if (!summoned) return;
	const double interval_h = p->decision_interval_s / 3600.0;
	const double hours = (w->time_s - since) / 3600.0;
	int64_t gave_up = 0, weapons = 0;
	for (int s = 0; s < n; ++s) {
		const uint8_t st = a->state[s];
		if (a->side[s] == side || !rt__active(st) || st == RT_STATE_SURRENDERED) continue;
		const double dx = a->x[s] - ex, dy = a->y[s] - ey;
		if (dx * dx + dy * dy >= inner * inner) continue;
		const bool desperate = st == RT_STATE_DESPERATE;
		if (!(desperate || st == RT_STATE_ROUTING || a->morale[s] < p->summons_morale)) continue;
		const int c = a->corps[s];
		const double hunger = c >= 0 ? w->corps[c].def.hunger : 0.0;
		const double log_rate = log(fmax(p->summons_rate_per_h, 1e-300)) + p->summons_hunger_weight * hunger +
					p->summons_time_weight_per_h * hours + p->summons_gone_weight * (commander_gone(w, c) ? 1.0 : 0.0);
		const double rate = exp(fmin(log_rate, 50.0)) * (desperate ? p->summons_desperate_factor : 1.0);
		const double probability = 1.0 - exp(-rate * interval_h);
		if (rt_random_uniform(w->def.seed, a->id[s], (uint64_t)round, RT_STREAM_SUMMONS) >= probability) continue;
		/* he throws down his weapon and kneels */
		a->state[s] = RT_STATE_SURRENDERED;
		a->level[s] = 0;
		a->vx[s] = a->vy[s] = 0.0;
		if (a->equipment[s] & RT_EQUIP_WEAPON) weapons++;
		a->equipment[s] &= (uint8_t)~RT_EQUIP_WEAPON;
		gave_up++;
	}
	for (int c = 0; c < w->corps_count; ++c)
		if (w->corps[c].def.side == side && w->corps[c].def.summon && !commander_gone(w, c)) w->corps[c].encircled = inside;
	w->summoned += gave_up;
	w->knelt += gave_up;
	w->weapons_dropped += weapons;
}

void rt__summons(rt_world *w, int64_t round)
{
	unsigned sides = 0;
	for (int c = 0; c < w->corps_count; ++c)
		if (w->corps[c].def.summon) sides |= 1u << w->corps[c].def.side;
	for (int side = 0; side < RT_MAX_SIDES; ++side)
		if (sides & (1u << side)) summon_side(w, side, round);
}
