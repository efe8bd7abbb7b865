/* Commanders: when a corps commander leaves without orders, and his corps with him.
 *
 * Every decision_interval_s each commander still at his post weighs leaving. His rate of
 * leaving (per hour) is
 *
 *   lambda = base * exp(- w_courage courage + w_pressure threat + w_hunger hunger
 *                       + w_cut cut_off + w_peer peers_gone)
 *
 * threat being the mean threat his corps' men see (the sense phase's local picture) or
 * the odds he sees coming on at his corps (out to watch_m, as far as the light allows:
 * Q7), whichever is the greater, peers_gone the number of his peers whose commanders have already left: blame shared
 * is blame halved (M2: "with Wang Pu running first, his own flight is no great crime").
 * His peers are the other corps of his side that answer to the same superior (or, for
 * a corps with none, the others with none): a general is not blamed the less because
 * his own subordinates ran, nor is a subordinate excused by his general's going. He
 * leaves in this round with probability 1 - exp(-lambda interval). Nothing in a
 * scenario names who leaves or when: the cascade comes out of the peers term.
 * When he leaves, every man of his corps who is still steady marches to the corps'
 * refuge and loses leave_morale_shock of morale.
 * A corps whose commander fell at his post comes under his nearest free superior
 * (to_the_banner: M4, M5).
 * Serial, in corps order, with every commander seeing the departures of earlier rounds
 * only, so no corps is favoured by its number; draws are Philox(seed, corps, round). */
#include "world.h"

#include <math.h>
#include <stdio.h>

rt_command_params rt_command_params_default(void)
{
	/* Estimates (grade E in docs/model.md), shaped so that a craven commander under
	 * pressure leaves within the hour, a steadfast one under the same pressure stays for
	 * days, and one peer gone makes a steadfast man's leaving likely within the hour. */
	rt_command_params c;
	c.decision_interval_s = 60.0;
	c.base_hazard_per_h = 2.0;
	c.courage_weight = 8.0;
	c.pressure_weight = 1.0;
	c.hunger_weight = 2.0;
	c.cut_off_weight = 1.5;
	c.peer_weight = 4.7;
	c.watch_m = 1600.0; /* E: as far as a ring watches the mass it keeps (combat.contain_watch_m) */
	c.leave_morale_shock = 0.15;
	/* M8, C6 (docs/model.md section 10b; estimates, grade E) */
	c.guard_distance_m = 1.5;
	c.guard_engage_m = 10.0;
	c.guard_follow_s = 1.0;
	c.guard_loss_factor = 0.25;
	c.wound_share = 0.5;
	c.wounded_speed_factor = 0.25;
	c.carry_speed_factor = 0.4;
	c.carry_pickup_m = 8.0;
	c.carry_touch_m = 1.0;
	c.rearguard_cover_m = 300.0;
	c.column_lead_m = 50.0; /* docs/model.md section 10: a general rides with his column */
	c.hearing_m = 300.0;    /* E: hooves and cries of a flight, heard as far as a man is known by day */
	c.besiege_m = 200.0;    /* E: out of bowshot of the walls (section 8: 60-120 m), "追到城下" */
	c.pursuit_pace_factor = 1.0; /* E: the trot; 1.6 (the charge's gallop) overshoots Song-Jin (docs/model.md section 10) */
	c.hesitation_s_per_bit = 120.0; /* E: two minutes a doubling of the routes (Q8, docs/model.md section 10) */
	c.route_cell_m = 50.0;          /* E: men within 50 m of each other run one route */
	c.route_share = 0.05;           /* E: a smaller group is stragglers, not a route */
	c.route_men = 100.0;            /* E: the doctrine's unit, "一百人逃跑就分兵一百人追击" (seed 004) */
	/* M7 (docs/model.md section 10c; estimates, grade E) */
	c.summons_hold_tolerance = 0.15;
	c.summons_morale = 0.5;
	c.summons_rate_per_h = 0.3;
	c.summons_hunger_weight = 1.5;
	c.summons_time_weight_per_h = 0.5;
	c.summons_gone_weight = 1.0;
	c.summons_desperate_factor = 0.3;
	return c;
}

rt_corps_def rt_corps_def_default(void)
{
	rt_corps_def d;
	memset(&d, 0, sizeof d);
	d.courage = 0.5;
	d.superior = -1;
	d.refuge = RT_NO_GOAL;
	d.ranks_refuge = RT_NO_GOAL;
	d.quarter = 1.0;
	d.cookie = RT_COOKIE;
	return d;
}

rt_status rt_world_add_corps(rt_world *w, const rt_corps_def *d, rt_corps_id *out, rt_error *err)
{
	rt__error_clear(err);
	if (!w || !d || d->cookie != RT_COOKIE)
		return rt__fail(err, RT_ERR_INVALID, "corps definition was not made by rt_corps_def_default()");
	if (d->side >= RT_MAX_SIDES) return rt__fail(err, RT_ERR_INVALID, "corps side %d; sides are 0..%d", d->side, RT_MAX_SIDES - 1);
	if (!(d->courage >= 0.0 && d->courage <= 1.0 && d->hunger >= 0.0 && d->hunger <= 1.0))
		return rt__fail(err, RT_ERR_INVALID, "corps courage and hunger must be within 0..1");
	if (!(d->pursue_ratio >= 0.0 && d->pursue_ratio <= 100.0) || d->all_out_threshold < 0)
		return rt__fail(err, RT_ERR_INVALID, "corps pursue_ratio must be 0..100 and all_out_threshold >= 0");
	if (!(d->quarter >= 0.0 && d->quarter <= 1.0))
		return rt__fail(err, RT_ERR_INVALID, "corps quarter is %g; expected the share of the kneeling taken prisoner, 0..1", d->quarter);
	if (d->pursue_limited && !(isfinite(d->pursue_limit.x) && isfinite(d->pursue_limit.y)))
		return rt__fail(err, RT_ERR_INVALID, "corps pursue_limit must be a finite point");
	if (d->refuge != RT_NO_GOAL && (d->refuge < 0 || d->refuge >= w->goal_count))
		return rt__fail(err, RT_ERR_INVALID, "corps refuge goal %d does not exist", (int)d->refuge);
	if (d->ranks_refuge != RT_NO_GOAL && (d->ranks_refuge < 0 || d->ranks_refuge >= w->goal_count))
		return rt__fail(err, RT_ERR_INVALID, "corps ranks_refuge goal %d does not exist", (int)d->ranks_refuge);
	if (d->ranks_refuge != RT_NO_GOAL && d->refuge == RT_NO_GOAL)
		return rt__fail(err, RT_ERR_INVALID, "corps ranks_refuge is set but refuge is not: a commander who cannot leave abandons no one");
	if (d->superior != -1 && (d->superior < 0 || d->superior >= w->corps_count))
		return rt__fail(err, RT_ERR_INVALID, "corps superior %d is not a corps added before this one (%d so far)",
				(int)d->superior, w->corps_count);
	if (d->superior != -1 && w->corps[d->superior].def.side != d->side)
		return rt__fail(err, RT_ERR_INVALID, "corps superior %d is of side %d, this corps of side %d", (int)d->superior,
				w->corps[d->superior].def.side, d->side);
	if (w->corps_count >= 1 << 20) return rt__fail(err, RT_ERR_CAPACITY, "more than %d corps", 1 << 20);
	if (w->corps_count == w->corps_capacity) {
		int cap = w->corps_capacity ? 2 * w->corps_capacity : 8;
		rt_corps *c = rt__realloc(&w->allocator, w->corps, (size_t)w->corps_capacity * sizeof(rt_corps), (size_t)cap * sizeof(rt_corps));
		if (!c) return rt__fail(err, RT_ERR_NOMEM, "cannot grow the corps table");
		w->corps = c;
		w->corps_capacity = cap;
	}
	rt_corps *c = &w->corps[w->corps_count];
	memset(c, 0, sizeof *c);
	c->def = *d;
	snprintf(c->name, sizeof c->name, "%s", d->name ? d->name : "");
	c->def.name = NULL; /* the copy in c->name is the one kept */
	c->commander = -1;
	c->left_at_s = -1.0;
	c->carrier = -1;
	c->summons_at_s = -1.0;
	c->besieging = -1;
	c->besieged_at_s = -1.0;
	c->hesitant_until_s = -1.0;
	c->hesitant_since_s = -1.0;
	if (out) *out = w->corps_count;
	w->corps_count++;
	return RT_OK;
}

static rt_status corps_check(const rt_world *w, rt_corps_id corps, rt_error *err)
{
	if (!w || corps < 0 || corps >= w->corps_count) return rt__fail(err, RT_ERR_INVALID, "corps %d does not exist", (int)corps);
	return RT_OK;
}

rt_status rt_world_set_corps_commander(rt_world *w, rt_corps_id corps, rt_agent_id commander, rt_error *err)
{
	rt__error_clear(err);
	rt_status s = corps_check(w, corps, err);
	if (s != RT_OK) return s;
	if (commander >= (uint32_t)w->agents.count) return rt__fail(err, RT_ERR_INVALID, "agent %u does not exist", commander);
	int slot = (int)w->slot_of_id[commander];
	if (w->agents.corps[slot] != corps)
		return rt__fail(err, RT_ERR_INVALID, "agent %u is not of corps %d: a commander serves in his own corps", commander, (int)corps);
	w->corps[corps].commander = (int32_t)commander;
	return RT_OK;
}

rt_status rt_world_set_corps_cut_off(rt_world *w, rt_corps_id corps, bool cut_off, rt_error *err)
{
	rt__error_clear(err);
	rt_status s = corps_check(w, corps, err);
	if (s != RT_OK) return s;
	w->corps[corps].def.cut_off = cut_off;
	return RT_OK;
}

int rt_world_corps_count(const rt_world *w) { return w ? w->corps_count : 0; }

bool rt_world_get_corps(const rt_world *w, rt_corps_id corps, rt_corps_view *o)
{
	if (!w || corps < 0 || corps >= w->corps_count) return false;
	const rt_corps *c = &w->corps[corps];
	o->id = corps;
	o->side = c->def.side;
	o->name = c->name;
	o->commander = c->commander;
	o->left = c->left;
	o->left_at_s = c->left_at_s;
	o->men = c->men;
	o->active = c->active;
	o->mean_threat = c->mean_threat;
	o->fleeing_seen = c->fleeing_seen;
	o->pursuers = c->pursuers;
	o->carrier = c->carrier;
	o->summon = c->def.summon;
	o->summons_at_s = c->summons_at_s;
	o->encircled = c->encircled;
	o->besieging = c->besieging;
	o->besiegers = c->besiegers;
	o->besieged_at_s = c->besieged_at_s;
	o->routes = c->routes;
	o->hesitant_until_s = c->hesitant_until_s;
	return true;
}

/* Sends the man in slot s to `goal` (a march, unless RT_NO_GOAL) with `stance` as his
 * order: no quarry, no post yet, decided on at once. */
static void send(rt_agents *a, int s, int32_t goal, uint8_t stance)
{
	a->quarry[s] = -1;
	a->goal[s] = a->order_goal[s] = goal;
	a->stance[s] = a->order_stance[s] = stance;
	a->posted[s] = 0;
	a->level[s] = 0;
	if (goal != RT_NO_GOAL) a->state[s] = RT_STATE_MARCHING;
}

static void leave(rt_world *w, int corps)
{
	rt_corps *c = &w->corps[corps];
	rt_agents *a = &w->agents;
	c->left = true;
	c->left_at_s = w->time_s;
	/* M3: he picks his road round the enemy his side knows of (flight.c, before the men
	 * decide this step) */
	c->road_wanted = w->flights && w->flight.enemy_interval_s > 0.0;
	const double shock = w->def.command.leave_morale_shock;
	for (int s = 0; s < a->count; ++s) {
		if (a->corps[s] != corps) continue;
		a->quarry[s] = -1; /* his corps pursues no more */
		const uint8_t st = a->state[s];
		if (st != RT_STATE_FORMED && st != RT_STATE_MARCHING && st != RT_STATE_ENGAGED) continue;
		/* he, his guards and his rearguard ride for his refuge; his men for theirs, the
		 * same place unless he abandons them; his guards keep by him, a wounded commander
		 * stays carried and a rearguard covers him (guard.c) */
		send(a, s, rt__with_commander(w, s) ? c->def.refuge : rt__ranks_refuge(&c->def),
		     rt__retinue_stance(a->stance[s]) ? a->stance[s] : (uint8_t)RT_STANCE_HOLD);
		a->morale[s] = (float)fmax(0.0, a->morale[s] - shock);
	}
}

/* Whether a commander in this state has fallen: killed, or taken (kneeling or led off). */
static bool fallen(uint8_t state)
{
	return state == RT_STATE_SURRENDERED || state == RT_STATE_CAPTURED || state >= RT_STATE_DEAD_COMBAT;
}

/* M4, M5: the banner passes up. A corps whose commander has fallen at his post (killed or
 * taken before he left) comes under the nearest superior up its chain who is still free
 * in the field (not fallen, nor within walls nor got away): its living men are his. Those
 * still steady go where he is: after him to his refuge if he has left ("随中军大旗撤走"),
 * else to his own order's place, to stand with him ("收拢溃兵向中军大旗靠过去"). Men in flight
 * or at bay stay as they are and are his too (he leads them off if he goes, and a man
 * who rallies rallies to him); the dead, the kneeling and the taken stay the fallen
 * corps'. A corps with no superior keeps its men where they are, as before: each fights
 * on until he breaks. Every decision round while such a corps has a man to pass. */
static void to_the_banner(rt_world *w)
{
	rt_agents *a = &w->agents;
	bool any = false;
	for (int c = 0; c < w->corps_count && !any; ++c) {
		const rt_corps *k = &w->corps[c];
		any = !k->left && k->def.superior >= 0 && k->commander >= 0 && fallen(a->state[w->slot_of_id[k->commander]]);
	}
	if (!any) return;
	int *to = rt__arena_push(&w->arena, (size_t)w->corps_count * sizeof(int));
	if (!to) return; /* no scratch: the next round (the arena is sized with room) */
	for (int c = 0; c < w->corps_count; ++c) {
		const rt_corps *k = &w->corps[c];
		to[c] = -1;
		if (k->left || k->commander < 0 || !fallen(a->state[w->slot_of_id[k->commander]])) continue;
		for (int up = k->def.superior; up >= 0; up = w->corps[up].def.superior) {
			const rt_corps *u = &w->corps[up];
			if (u->commander < 0) break;
			const uint8_t st = a->state[w->slot_of_id[u->commander]];
			if (st <= RT_STATE_DESPERATE) { /* free in the field, the banner with him */
				to[c] = up;
				break;
			}
			if (!fallen(st)) break; /* within walls or got away: no banner in the field */
		}
	}
	for (int s = 0; s < a->count; ++s) {
		const int c = a->corps[s];
		if (c < 0 || to[c] < 0 || a->state[s] > RT_STATE_DESPERATE) continue;
		const int up = to[c];
		const rt_corps *u = &w->corps[up];
		a->corps[s] = up;
		/* the fallen man's guards and rearguard are no one's: not the superior's party */
		if (rt__retinue_stance(a->stance[s])) a->stance[s] = a->order_stance[s] = RT_STANCE_HOLD;
		const uint8_t st = a->state[s];
		if (st != RT_STATE_FORMED && st != RT_STATE_MARCHING && st != RT_STATE_ENGAGED) continue;
		/* to the banner in order, their faces to the enemy (M5: "随中军大旗撤走"): after him if
		 * he has left (not in flight as his own men are who marched off when he did), or to
		 * the place his order holds; with no place in it they hold where they stand */
		const int t = (int)w->slot_of_id[u->commander];
		const int32_t goal = u->left ? rt__ranks_refuge(&u->def) : a->order_goal[t];
		send(a, s, goal, goal != RT_NO_GOAL ? (uint8_t)RT_STANCE_WITHDRAW : (uint8_t)RT_STANCE_HOLD);
	}
}

/* Whether the man in slot s takes part in his corps' pursuit: steady, and neither a
 * guard keeping by his commander, nor the wounded commander himself, nor a rearguard,
 * nor a man ordered to halt and contain (M7: "各旗停止追击"). */
static bool pursuit_candidate(const rt_agents *a, int s, int corps)
{
	return a->corps[s] == corps && rt__active(a->state[s]) && a->state[s] != RT_STATE_ROUTING &&
	       a->state[s] != RT_STATE_SURRENDERED && !rt__retinue_stance(a->stance[s]) && a->stance[s] != RT_STANCE_CONTAIN &&
	       a->stance[s] != RT_STANCE_WITHDRAW && a->stance[s] != RT_STANCE_HUNT;
}

/* Q7, M2: the odds a commander sees bearing down on his corps — the enemies within sight
 * of the box his steady men stand in (out to watch_m, no farther than a man is seen in
 * this light), not fleeing, coming toward the corps' centre faster than a man turns
 * (facing_speed_mps), riders weighted as in a man's threat (horse_threat_weight), over his
 * steady men + 1. A commander sees a charge coming before his front rank feels it; an
 * enemy standing in his lines, as he has for days, is not coming on. box: the corps'
 * steady men's x0, y0, x1, y1, their summed x and y, and their count (rt__command's pass
 * over the men). Serial. */
#define BOX 7
static double odds_coming_on(const rt_world *w, int corps, const double *box)
{
	const rt_agents *a = &w->agents;
	const int n = a->count, side = w->corps[corps].def.side;
	const double men = box[6], sight = fmin(w->def.command.watch_m, w->env.detection_range_m);
	if (men == 0.0 || sight <= 0.0) return 0.0;
	const double x0 = box[0], y0 = box[1], x1 = box[2], y1 = box[3], cx = box[4] / men, cy = box[5] / men;
	const double facing = w->def.combat.facing_speed_mps, rider = w->def.morale.horse_threat_weight;
	double weight = 0.0;
	for (int s = 0; s < n; ++s) {
		if (a->side[s] == side || !rt__active(a->state[s]) || a->state[s] == RT_STATE_SURRENDERED || rt__in_flight(w, s)) continue;
		const double dx = fmax(0.0, fmax(x0 - a->x[s], a->x[s] - x1)), dy = fmax(0.0, fmax(y0 - a->y[s], a->y[s] - y1));
		if (dx * dx + dy * dy > sight * sight) continue;
		const double ex = cx - a->x[s], ey = cy - a->y[s], d = hypot(ex, ey);
		if (d > 0.0 && (a->vx[s] * ex + a->vy[s] * ey) / d <= facing) continue; /* not coming on */
		weight += a->mount[s] ? rider : 1.0;
	}
	return weight / (men + 1.0);
}

/* A man ranked by a key (distance, angle), ties by id: the doctrine's sorts. */
typedef struct { double key; uint32_t id; int slot; } ranked;

/* Sorts men by key, ties by id, in place: a shell sort (no allocation, deterministic;
 * insertion by rank would be quadratic for large corps). */
static void rank_sort(ranked *list, int count)
{
	for (int gap = count / 2; gap > 0; gap /= 2)
		for (int i = gap; i < count; ++i) {
			ranked t = list[i];
			int j = i;
			while (j >= gap && (list[j - gap].key > t.key || (list[j - gap].key == t.key && list[j - gap].id > t.id))) {
				list[j] = list[j - gap];
				j -= gap;
			}
			list[j] = t;
		}
}

/* Q9: the fort of the enemy that the corps' pursuit ran up to: of the forts of another
 * side sheltering men, the one with a man of the corps (a candidate for pursuit) nearest
 * its outline's box, within sense_range_m of it (a fort is a landmark known in any
 * light), and not beyond the corps' pursuit limit; -1 if none. Serial. */
static int fort_reached(const rt_world *w, int corps, double lim_dx, double lim_dy)
{
	const rt_corps *c = &w->corps[corps];
	const rt_agents *a = &w->agents;
	const double reach = w->def.combat.sense_range_m;
	int best = -1;
	double best_d2 = reach * reach;
	for (int f = 0; f < w->feature_count; ++f) {
		if (w->fort_side[f] < 0 || w->fort_side[f] == (int)c->def.side || w->fort_sheltered[f] <= 0) continue;
		const double *b = w->fort_box + 4 * f;
		const double cx = 0.5 * (b[0] + b[2]), cy = 0.5 * (b[1] + b[3]);
		if ((lim_dx != 0.0 || lim_dy != 0.0) && (cx - c->def.pursue_limit.x) * lim_dx + (cy - c->def.pursue_limit.y) * lim_dy > 0.0)
			continue;
		for (int s = 0; s < a->count; ++s) {
			if (!pursuit_candidate(a, s, corps)) continue;
			const double dx = fmax(0.0, fmax(b[0] - a->x[s], a->x[s] - b[2])), dy = fmax(0.0, fmax(b[1] - a->y[s], a->y[s] - b[3]));
			if (dx * dx + dy * dy < best_d2) {
				best_d2 = dx * dx + dy * dy;
				best = f;
			}
		}
	}
	return best;
}

/* Q9: "将杏山城团团围住" (seed 003). The corps' men on the ring round fort f (posted
 * RT_POST_SIEGE) and not sent after anyone this round (slots[0..count)) are given
 * stations evenly round it, besiege_m beyond the corner of its outline's box, in
 * the order they stand round it (by angle from its centre, ties by id), so that each
 * walks the shortest way round to his. They hold there, striking whoever comes in reach
 * (locomotion.c walks them round the ring, never across the fort). Serial. */
static void man_the_ring(rt_world *w, int f, const int *slots, int count)
{
	rt_agents *a = &w->agents;
	const double *b = w->fort_box + 4 * f;
	const double cx = 0.5 * (b[0] + b[2]), cy = 0.5 * (b[1] + b[3]);
	const double radius = 0.5 * hypot(b[2] - b[0], b[3] - b[1]) + w->def.command.besiege_m;
	ranked *ring = rt__arena_push(&w->arena, (size_t)count * sizeof(ranked));
	if (!ring) return; /* no scratch this round: the stations stay as they were */
	for (int k = 0; k < count; ++k) {
		const int s = slots[k];
		ring[k] = (ranked){ atan2(a->y[s] - cy, a->x[s] - cx), a->id[s], s };
	}
	rank_sort(ring, count);
	const double pi = 3.14159265358979323846;
	for (int k = 0; k < count; ++k) {
		const int s = ring[k].slot;
		const double at = -pi + 2.0 * pi * (k + 0.5) / count;
		a->post_x[s] = (float)(cx + radius * cos(at));
		a->post_y[s] = (float)(cy + radius * sin(at));
	}
}

/* What a pursuing corps knows of: the box its candidates stand in, and how far a man is
 * seen, a torch seen and a flight heard from it (pursue). */
typedef struct { double x0, y0, x1, y1, sight, torch_sight, heard; int side; } knowledge;

/* Whether the corps knows of man s in flight (pursue): of another side, in flight, and
 * within sight of its box, or of his torch, or heard on the move. */
static bool known_in_flight(const rt_world *w, const knowledge *k, int s)
{
	const rt_agents *a = &w->agents;
	if (a->side[s] == k->side || !rt__in_flight(w, s)) return false;
	const double dx = fmax(0.0, fmax(k->x0 - a->x[s], a->x[s] - k->x1)), dy = fmax(0.0, fmax(k->y0 - a->y[s], a->y[s] - k->y1));
	double seen = (a->equipment[s] & RT_EQUIP_TORCH) ? k->torch_sight : k->sight;
	if (rt__on_the_move(w, s)) seen = fmax(seen, k->heard);
	return dx * dx + dy * dy <= seen * seen;
}

/* Q2, "一百人逃跑就分兵一百人追击": each man sent goes after a man of his own among
 * the fleeing the corps knows of, so that no man in flight goes unfollowed while riders
 * enough are sent. fleeing: how many men in flight the corps knows of (pursue counted
 * them); sent[0..count) are the men sent this round, nearest the fleeing first;
 * a->quarry holds each one's man of the last round (-1 none). A man sent keeps his man
 * while the corps still knows him in flight and no more than ceil(count / F) of those
 * sent follow him (one each when fewer are sent than flee); the others, in their order,
 * are given the men nobody follows, nearest the sent men's centre first (ties by id) —
 * one each, nearest to nearest, while there are as many of those, else spread over them
 * by rank (i F / n: several to a man, every one followed) — and when every man in flight
 * is followed, over all of them. Each is aimed at his man where the corps knows him
 * (his heading). O(n + F log F), serial, deterministic. */
static void assign_quarries(rt_world *w, const knowledge *k, int fleeing, const int *sent, int count)
{
	rt_agents *a = &w->agents;
	const int n = a->count;
	if (count == 0) return;
	double cx = 0.0, cy = 0.0;
	for (int i = 0; i < count; ++i) {
		cx += a->x[sent[i]];
		cy += a->y[sent[i]];
	}
	cx /= count;
	cy /= count;
	ranked *flight = fleeing > 0 ? rt__arena_push(&w->arena, (size_t)fleeing * sizeof(ranked)) : NULL;
	int *index = rt__arena_push(&w->arena, (size_t)n * sizeof(int));
	int *followers = fleeing > 0 ? rt__arena_push(&w->arena, (size_t)fleeing * sizeof(int)) : NULL;
	int *open = fleeing > 0 ? rt__arena_push(&w->arena, (size_t)fleeing * sizeof(int)) : NULL;
	int *idle = rt__arena_push(&w->arena, (size_t)count * sizeof(int));
	if (!flight || !index || !followers || !open || !idle) { /* nobody known, or no scratch: the nearest enemy */
		for (int i = 0; i < count; ++i) a->quarry[sent[i]] = -1;
		return;
	}
	int f = 0;
	for (int s = 0; s < n; ++s) {
		index[s] = -1;
		if (f < fleeing && known_in_flight(w, k, s)) { /* the same men pursue counted */
			const double dx = a->x[s] - cx, dy = a->y[s] - cy;
			flight[f++] = (ranked){ dx * dx + dy * dy, a->id[s], s };
		}
	}
	rank_sort(flight, f);
	for (int j = 0; j < f; ++j) {
		index[flight[j].slot] = j;
		followers[j] = 0;
	}
	/* who keeps his man */
	const int cap = count > f ? (count + f - 1) / f : 1;
	int free_men = 0;
	for (int i = 0; i < count; ++i) {
		const int s = sent[i];
		const int j = a->quarry[s] >= 0 ? index[w->slot_of_id[a->quarry[s]]] : -1;
		if (j >= 0 && followers[j] < cap) {
			followers[j]++;
			rt__aim(a, s, flight[j].slot);
		} else {
			a->quarry[s] = -1;
			idle[free_men++] = s;
		}
	}
	/* the others: the men nobody follows, or else all */
	int m = 0;
	for (int j = 0; j < f; ++j)
		if (followers[j] == 0) open[m++] = j;
	if (m == 0)
		for (int j = 0; j < f; ++j) open[m++] = j;
	for (int i = 0; i < free_men; ++i) {
		const int j = free_men <= m ? open[i] : open[(int)(((int64_t)i * m) / free_men)];
		a->quarry[idle[i]] = (int32_t)flight[j].id;
		rt__aim(a, idle[i], flight[j].slot);
	}
}

/* Q10, the hunt ("多尔衮恨不得亲手擒住张春"): each round a hunter whose quarry is at large
 * is aimed where he knows him now — seen (in this light, or by his torch) or heard on the
 * move, no farther than by day — and rides that way when he loses sight of him
 * (locomotion.c); once the quarry has fallen, been taken or got away the hunt is over and
 * the hunter falls on whoever is near (stance advance, his order now), as a pursuit by
 * doctrine may send him. Serial, O(n). */
static void hunts(rt_world *w)
{
	rt_agents *a = &w->agents;
	const double day = w->def.combat.sense_range_m;
	const double sight = fmin(day, w->env.detection_range_m);
	const double torch = fmax(sight, fmin(day, w->env.torch_detection_range_m));
	const double heard = fmin(day, w->def.command.hearing_m);
	for (int s = 0; s < a->count; ++s) {
		if (a->stance[s] != RT_STANCE_HUNT || !rt__active(a->state[s])) continue;
		const int t = a->quarry[s] >= 0 ? (int)w->slot_of_id[a->quarry[s]] : -1;
		if (t < 0 || !rt__at_large(a->state[t])) {
			a->quarry[s] = -1;
			a->stance[s] = a->order_stance[s] = RT_STANCE_ADVANCE;
			a->level[s] = 0;
			continue;
		}
		const double dx = a->x[t] - a->x[s], dy = a->y[t] - a->y[s], d2 = dx * dx + dy * dy;
		double known = (a->equipment[t] & RT_EQUIP_TORCH) ? torch : sight;
		if (rt__on_the_move(w, t)) known = fmax(known, heard);
		if (d2 <= known * known) rt__aim(a, s, t);
	}
}

/* Q8: the routes the flight a corps knows of runs by: the groups of the men it knows in
 * flight, two men being of one group when they stand in the same or touching cells of
 * route_cell_m (at a side or corner), or are joined so through other men of it — men within
 * route_cell_m of each other are always of one group, and no single link is longer than
 * the diagonal of two cells — of which those holding at least route_share of them and at
 * least route_men men (and a man) are routes: at most 1 / route_share. 0 when it knows of
 * no one in flight or only of stragglers, -1 when there is no scratch for the count. The men are sorted by cell and the cells joined to
 * their touching neighbours by union-find: O(F log F), serial, deterministic. */
static int route_root(int *parent, int u)
{
	while (parent[u] != u) u = parent[u] = parent[parent[u]];
	return u;
}

static int count_routes(rt_world *w, const knowledge *k, int fleeing)
{
	const rt_agents *a = &w->agents;
	if (fleeing <= 0) return 0;
	const size_t used = w->arena.used;
	ranked *men = rt__arena_push(&w->arena, (size_t)fleeing * sizeof(ranked));
	double *cell = rt__arena_push(&w->arena, (size_t)fleeing * sizeof(double));
	int *men_in = rt__arena_push(&w->arena, (size_t)fleeing * sizeof(int));
	int *parent = rt__arena_push(&w->arena, (size_t)fleeing * sizeof(int));
	if (!men || !cell || !men_in || !parent) {
		w->arena.used = used;
		return -1;
	}
	const double row = 2097152.0, half = 1048576.0; /* 2^21 cells a row, the origin at 2^20: 1,000 km either way at 1 m */
	const double cell_m = w->def.command.route_cell_m, share = w->def.command.route_share;
	int f = 0;
	for (int s = 0; s < a->count && f < fleeing; ++s) {
		if (!known_in_flight(w, k, s)) continue;
		const double ix = rt__clamp(floor(a->x[s] / cell_m), -half, half - 1.0) + half;
		const double iy = rt__clamp(floor(a->y[s] / cell_m), -half, half - 1.0) + half;
		men[f++] = (ranked){ ix * row + iy, a->id[s], s };
	}
	rank_sort(men, f);
	int cells = 0;
	for (int j = 0; j < f; ++j) {
		if (cells == 0 || cell[cells - 1] != men[j].key) {
			cell[cells] = men[j].key;
			men_in[cells] = 0;
			parent[cells] = cells;
			cells++;
		}
		men_in[cells - 1]++;
	}
	static const double touching[4] = { 1.0, 2097151.0, 2097152.0, 2097153.0 }; /* (0,+1), (+1,-1), (+1,0), (+1,+1) */
	for (int u = 0; u < cells; ++u)
		for (int t = 0; t < 4; ++t) {
			const double key = cell[u] + touching[t];
			int lo = u + 1, hi = cells - 1;
			while (lo <= hi) {
				const int mid = lo + (hi - lo) / 2;
				if (cell[mid] < key) lo = mid + 1;
				else if (cell[mid] > key) hi = mid - 1;
				else {
					const int ru = route_root(parent, u), rv = route_root(parent, mid);
					if (ru != rv) parent[rv > ru ? rv : ru] = rv > ru ? ru : rv;
					break;
				}
			}
		}
	for (int u = 0; u < cells; ++u) {
		const int r = route_root(parent, u);
		if (r != u) {
			men_in[r] += men_in[u];
			men_in[u] = 0;
		}
	}
	int routes = 0;
	const double least = w->def.command.route_men;
	for (int u = 0; u < cells; ++u) routes += men_in[u] > 0 && men_in[u] >= share * f && men_in[u] >= least;
	w->arena.used = used;
	return routes;
}

/* Q8, "松锦八总兵分了八个路线逃跑，一时间清军都不知道该追谁了" (seed 004): whether the
 * corps' pursuit hesitates this round. When the flight it knows of runs by more routes
 * than its pursuit has decided over since it last knew of no one in flight, it weighs the
 * new choice for hesitation_s_per_bit x log2(routes now / routes decided) (the Hick-Hyman
 * law: the time to choose grows with the log of the choices; one route, or none, is no
 * choice), longer if the flight splits further meanwhile; the choice made, those routes
 * are decided over. Routes that part, join and part again are not weighed twice (the
 * count decided over falls only when the flight is gone), nor are fewer weighed at all.
 * Serial. */
static bool hesitates(rt_world *w, rt_corps *c, const knowledge *k)
{
	const double per_bit = w->def.command.hesitation_s_per_bit;
	const int routes = count_routes(w, k, c->fleeing_seen);
	if (routes < 0) return c->hesitant_until_s >= 0.0; /* no scratch this round: as it was */
	c->routes = routes;
	if (routes == 0 || per_bit <= 0.0) {
		c->routes_known = routes;
		c->hesitant_until_s = -1.0;
		return false;
	}
	if (c->hesitant_until_s < 0.0) {
		const int known = c->routes_known > 1 ? c->routes_known : 1;
		if (routes <= known) return false;
		c->routes_from = c->routes_weighed = known;
		c->hesitant_until_s = c->hesitant_since_s = w->time_s;
	}
	if (routes > c->routes_weighed) {
		c->hesitant_until_s += per_bit * log2((double)routes / c->routes_weighed);
		c->routes_weighed = routes;
	}
	if (w->time_s < c->hesitant_until_s) return true;
	c->routes_known = c->routes_weighed;
	c->hesitant_until_s = -1.0;
	return false;
}

/* Pursuit by doctrine (Q2: "a hundred flee, a hundred follow; too many flee, all go").
 * The corps counts the enemies seen fleeing within sight of where its men stand, decides how many
 * men to send, and sends those nearest the fleeing (ties by id): each rides after a man
 * of the flight given him (assign_quarries), or on the nearest enemy; the rest hold, or
 * go on with the march or attack on a place they were ordered, and a pursuer no longer sent goes back to it (order_goal, order_stance).
 * Serial, deterministic. */
static void pursue(rt_world *w, int corps)
{
	rt_corps *c = &w->corps[corps];
	rt_agents *a = &w->agents;
	const int n = a->count;
	/* what the corps sees: within sight of the box its men stand in */
	double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
	int men = 0;
	for (int s = 0; s < n; ++s) {
		if (pursuit_candidate(a, s, corps)) {
			x0 = fmin(x0, a->x[s]);
			y0 = fmin(y0, a->y[s]);
			x1 = fmax(x1, a->x[s]);
			y1 = fmax(y1, a->y[s]);
			men++;
		} else if (a->corps[s] == corps && a->stance[s] != RT_STANCE_HUNT) {
			a->quarry[s] = -1; /* not of the pursuit (in flight, kneeling, a guard, halted); a hunter keeps his man (Q10) */
		}
	}
	const int was_sent = c->pursuers;
	c->fleeing_seen = c->pursuers = 0;
	if (men == 0) {
		c->routes = c->routes_known = 0;
		c->hesitant_until_s = -1.0;
		return;
	}
	/* the pursuit limit (Q2): a line through the limit point, square to the way from the post */
	double lim_dx = 0.0, lim_dy = 0.0;
	if (c->def.pursue_limited && c->home_set) {
		lim_dx = c->def.pursue_limit.x - c->home_x;
		lim_dy = c->def.pursue_limit.y - c->home_y;
	}
	/* what is seen: men within sight, torches farther at night (E2); what is heard: men
	 * in flight on the move, by the hooves and cries, whatever the light (E1); scouts
	 * report what the corps' outposts see and hear (Q7). Nothing is known farther than
	 * by day (sense_range_m). */
	const double day = w->def.combat.sense_range_m;
	const double sight = fmin(day, w->env.detection_range_m);
	const knowledge know = { x0, y0, x1, y1, sight, fmax(sight, fmin(day, w->env.torch_detection_range_m)),
				 fmin(day, w->def.command.hearing_m), c->def.side };
	double fx = 0.0, fy = 0.0;
	for (int s = 0; s < n; ++s) {
		if (!known_in_flight(w, &know, s)) continue;
		fx += a->x[s];
		fy += a->y[s];
		c->fleeing_seen++;
	}
	int send = 0;
	if (c->fleeing_seen > 0) {
		fx /= c->fleeing_seen;
		fy /= c->fleeing_seen;
		if (c->def.all_out_threshold > 0 && c->fleeing_seen >= c->def.all_out_threshold) send = men;
		else send = (int)fmin((double)men, floor(c->def.pursue_ratio * c->fleeing_seen + 0.5));
	}
	/* Q8: a flight split into more routes than the pursuit was decided over holds it up
	 * while the new choice is weighed: only men on the heels of a man the corps still
	 * knows in flight stay sent (below), no one is added */
	const bool hesitant = hesitates(w, c, &know);
	/* Q9, the siege: a pursuit that ran the fleeing up to a fort of theirs and lost them
	 * there (they went in) rings the fort with the corps' men it brought up to it (within
	 * sense_range_m of its box); the men of a later pursuit that ends there join them;
	 * they stand down when the fort shelters no one. An order to attack a place keeps its
	 * men. A corps besieges one fort at a time. */
	if (w->fort_side && w->def.command.besiege_m > 0.0) {
		if (c->besieging >= 0 && w->fort_sheltered[c->besieging] <= 0) {
			for (int s = 0; s < n; ++s)
				if (a->corps[s] == corps && a->posted[s] == RT_POST_SIEGE) a->posted[s] = 0;
			c->besieging = -1;
		}
		const int f = c->fleeing_seen == 0 && was_sent > 0 ? fort_reached(w, corps, lim_dx, lim_dy) : -1;
		if (f >= 0) {
			int joined = 0;
			const double *b = w->fort_box + 4 * f, reach = w->def.combat.sense_range_m;
			for (int s = 0; s < n; ++s) {
				const bool attack = a->order_stance[s] == RT_STANCE_ADVANCE && a->order_goal[s] != RT_NO_GOAL;
				const double dx = fmax(0.0, fmax(b[0] - a->x[s], a->x[s] - b[2]));
				const double dy = fmax(0.0, fmax(b[1] - a->y[s], a->y[s] - b[3]));
				if (pursuit_candidate(a, s, corps) && !attack && dx * dx + dy * dy <= reach * reach) {
					a->posted[s] = RT_POST_SIEGE;
					joined++;
				}
			}
			if (joined > 0 && c->besieging != f) {
				c->besieging = f;
				c->besieged_at_s = w->time_s;
			}
		}
	}
	int *ring = c->besieging >= 0 ? rt__arena_push(&w->arena, (size_t)men * sizeof(int)) : NULL;
	int ringed_men = 0;
	c->besiegers = 0;
	/* who goes: first the men already after a man the corps still knows in flight, nearest
	 * him first (a rider on a man's heels is not called off because the flight split and
	 * its centre lies elsewhere); then the men nearest the fleeing men's centre */
	ranked *list = rt__arena_push(&w->arena, (size_t)men * sizeof(ranked));
	int *gone = send > 0 ? rt__arena_push(&w->arena, (size_t)send * sizeof(int)) : NULL;
	if (!list || (send > 0 && !gone)) return; /* no scratch this round: the corps keeps its last orders */
	const double on_his_heels = -1e15; /* below any squared distance on a map (less than 30,000 km) */
	int k = 0;
	for (int s = 0; s < n; ++s)
		if (pursuit_candidate(a, s, corps)) {
			const int q = a->quarry[s] >= 0 ? (int)w->slot_of_id[a->quarry[s]] : -1;
			double dx = a->x[s] - fx, dy = a->y[s] - fy, key = 0.0;
			if (q >= 0 && known_in_flight(w, &know, q)) {
				dx = a->x[s] - a->x[q];
				dy = a->y[s] - a->y[q];
				key = on_his_heels;
			}
			list[k++] = (ranked){ key + dx * dx + dy * dy, a->id[s], s };
		}
	rank_sort(list, k);
	int sent = 0;
	for (int i = 0; i < k; ++i) {
		const int s = list[i].slot;
		const bool beyond = (lim_dx != 0.0 || lim_dy != 0.0) &&
				    (a->x[s] - c->def.pursue_limit.x) * lim_dx + (a->y[s] - c->def.pursue_limit.y) * lim_dy > 0.0;
		const bool go = sent < send && !beyond && (!hesitant || list[i].key < 0.0);
		if (go) gone[sent++] = s;
		else a->quarry[s] = -1; /* not sent: he follows nobody (a man sent keeps his, assign_quarries) */
		/* a man not sent keeps to his order's march or attack on a place, and a pursuer no
		 * longer sent goes back to it (Dalinghe: the main attack, all sent after Wu Xiang's
		 * fleeing men, stood where it had taken them all day instead of going on to Song
		 * Wei's camp as ordered). An order to fall on whoever is near (advance, a sprung
		 * ambush) is the doctrine's to govern while men flee in sight: those not sent hold */
		const bool attack = a->order_stance[s] == RT_STANCE_ADVANCE && a->order_goal[s] != RT_NO_GOAL;
		const uint8_t ordered = attack ? RT_STANCE_ADVANCE : RT_STANCE_HOLD;
		/* on the ring round the fort his corps besieges, and not sent: he holds his station */
		const bool on_ring = c->besieging >= 0 && a->posted[s] == RT_POST_SIEGE;
		const bool ringed = on_ring && !go && ring;
		c->besiegers += on_ring;
		if (ringed) ring[ringed_men++] = s;
		const uint8_t stance = go ? RT_STANCE_ADVANCE : ringed ? RT_STANCE_HOLD : ordered;
		/* a pursuer with nobody in sight rides toward where the fleeing were seen */
		float hx = 0.0f, hy = 0.0f;
		if (go) {
			const double ex = fx - a->x[s], ey = fy - a->y[s], en = sqrt(ex * ex + ey * ey);
			if (en > 1e-9) {
				hx = (float)(ex / en);
				hy = (float)(ey / en);
			}
		}
		a->heading_x[s] = hx;
		a->heading_y[s] = hy;
		/* sent, he leaves the march or attack he was on: his goal would otherwise take him
		 * on to its place whenever no enemy is within his own reach (locomotion.c), and the
		 * heading above would never be followed; not sent, he has his order's goal again */
		a->goal[s] = go || ringed ? RT_NO_GOAL : a->order_goal[s];
		if (a->stance[s] != stance) {
			a->stance[s] = stance;
			a->level[s] = 0;
		}
	}
	c->pursuers = sent;
	assign_quarries(w, &know, c->fleeing_seen, gone, sent);
	if (ringed_men > 0) man_the_ring(w, c->besieging, ring, ringed_men);
}

/* How far (x, y) is from the goal: *field its field's travel distance there (m at speed
 * factor 1; INFINITY off the field, on blocked ground or for a straight goal), *straight
 * the straight distance to its target. */
static void goal_distance(const rt_goal *g, double x, double y, double *field, double *straight)
{
	const double ex = rt__clamp(x, g->def.target_min.x, g->def.target_max.x) - x;
	const double ey = rt__clamp(y, g->def.target_min.y, g->def.target_max.y) - y;
	*straight = sqrt(ex * ex + ey * ey);
	*field = *straight > 0.0 ? INFINITY : 0.0;
	if (*straight > 0.0 && g->built && !g->def.straight && g->arrival_time) *field = rt__field_travel(g, x, y);
}

/* A general marching on an order rides with his column, not ahead of it: he waits while
 * the nearest man of his corps marching to his goal (his guards aside) is farther than
 * column_lead_m and none of them is nearer the goal than he is (by the goal's field where
 * it reaches him and any of them, those it does not reach left out; else in a straight
 * line). Behind his column, or in the midst of it
 * (sent after men who went on before him: the Plain Red at Dalinghe, gathered in the
 * pursuit), he rides on to its head. Serial, every step, over all men (each man's distance
 * to his commander), before the decide phase reads it. A commander riding for his refuge
 * after leaving without orders, or fighting, fleeing, or with no man marching with him,
 * does not wait; one who left and was later sent elsewhere by an order (a breakout) does. */
static void columns(rt_world *w)
{
	rt_agents *a = &w->agents;
	const double lead = w->def.command.column_lead_m;
	const size_t bytes = (size_t)w->corps_count * sizeof(double);
	double *near2 = rt__arena_push(&w->arena, bytes);
	double *head_field = rt__arena_push(&w->arena, bytes);    /* the least of his men's distances to the goal */
	double *head_straight = rt__arena_push(&w->arena, bytes);
	int *leader = rt__arena_push(&w->arena, (size_t)w->corps_count * sizeof(int));
	bool any = false;
	for (int c = 0; c < w->corps_count; ++c) {
		rt_corps *k = &w->corps[c];
		k->waits = false;
		if (!near2 || !head_field || !head_straight || !leader) continue;
		leader[c] = -1;
		near2[c] = head_field[c] = head_straight[c] = INFINITY;
		if (!(lead > 0.0) || k->commander < 0) continue;
		const int s = (int)w->slot_of_id[k->commander];
		/* on an order: not riding for the corps' refuge after leaving without one */
		if (a->state[s] != RT_STATE_MARCHING || a->goal[s] < 0 || rt__marching_off(w, s)) continue;
		leader[c] = s;
		any = true;
	}
	if (!any) return;
	for (int s = 0; s < a->count; ++s) {
		const int c = a->corps[s];
		if (c < 0 || leader[c] < 0 || s == leader[c] || a->stance[s] == RT_STANCE_GUARD) continue;
		const int k = leader[c];
		if (a->state[s] != RT_STATE_MARCHING || a->goal[s] != a->goal[k]) continue;
		const double dx = a->x[s] - a->x[k], dy = a->y[s] - a->y[k], d2 = dx * dx + dy * dy;
		if (d2 < near2[c]) near2[c] = d2;
		double f, l;
		goal_distance(&w->goals[a->goal[s]], a->x[s], a->y[s], &f, &l);
		head_field[c] = fmin(head_field[c], f); /* INFINITY for a man off the field: then in a straight line */
		head_straight[c] = fmin(head_straight[c], l);
	}
	for (int c = 0; c < w->corps_count; ++c) {
		if (leader[c] < 0 || !(near2[c] > lead * lead) || !isfinite(near2[c])) continue;
		const int k = leader[c];
		double f, l;
		goal_distance(&w->goals[a->goal[k]], a->x[k], a->y[k], &f, &l);
		const bool by_field = isfinite(f) && isfinite(head_field[c]);
		w->corps[c].waits = by_field ? f <= head_field[c] : l <= head_straight[c];
	}
}

/* M2: a corps' peer group: its side, its superior (-1: none) and its rank */
static uint64_t peer_key(const rt_corps_def *d)
{
	return ((uint64_t)d->side << 48) | ((uint64_t)d->rank << 40) | (uint64_t)(uint32_t)(d->superior + 1);
}

/* M2: for each corps, how many of its peers (the other corps of its peer group) have
 * left in earlier rounds, counted before anyone decides this round, so that no corps is
 * favoured by its number; in an open-addressed table of the groups (corps may be many).
 * Returns NULL when the arena has no room. */
static int *peers_gone(rt_world *w)
{
	size_t cap = 16;
	while (cap < 2 * (size_t)w->corps_count) cap *= 2;
	uint64_t *key = rt__arena_push(&w->arena, cap * sizeof(uint64_t));
	int *gone = rt__arena_push(&w->arena, cap * sizeof(int));
	int *slot = rt__arena_push(&w->arena, (size_t)w->corps_count * sizeof(int));
	if (!key || !gone || !slot) return NULL;
	for (size_t i = 0; i < cap; ++i) key[i] = UINT64_MAX;
	memset(gone, 0, cap * sizeof(int));
	for (int c = 0; c < w->corps_count; ++c) {
		const uint64_t k = peer_key(&w->corps[c].def);
		size_t i = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
		while (key[i] != UINT64_MAX && key[i] != k) i = (i + 1) & (cap - 1);
		key[i] = k;
		gone[i] += w->corps[c].left;
		slot[c] = (int)i;
	}
	for (int c = 0; c < w->corps_count; ++c) slot[c] = gone[slot[c]] - w->corps[c].left;
	return slot;
}

void rt__command(rt_world *w)
{
	if (w->corps_count > 0) {
		rt__retinue(w); /* every step: who carries a wounded commander (C6) */
		columns(w);     /* every step: which marching commanders wait for their men */
	}
	const rt_command_params *p = &w->def.command;
	const int64_t round = (int64_t)floor(w->time_s / p->decision_interval_s);
	if (round == w->last_decision) return;
	w->last_decision = round;
	hunts(w); /* Q10: a man may hunt in a world without corps (rt_world_set_agent_hunt) */
	if (w->corps_count == 0) return;
	/* what each commander knows: his corps' strength and the threat its men see */
	rt_agents *a = &w->agents;
	double *threat = rt__arena_push(&w->arena, (size_t)w->corps_count * sizeof(double));
	if (!threat) return; /* no scratch: no decisions this round (the arena is sized with room) */
	for (int c = 0; c < w->corps_count; ++c) {
		w->corps[c].men = w->corps[c].active = 0;
		threat[c] = 0.0;
	}
	double *hx = rt__arena_push(&w->arena, 2 * (size_t)w->corps_count * sizeof(double));
	/* the box of each corps' steady men, for what its commander sees coming (Q7) */
	double *box = rt__arena_push(&w->arena, BOX * (size_t)w->corps_count * sizeof(double));
	if (!hx || !box) return;
	memset(hx, 0, 2 * (size_t)w->corps_count * sizeof(double));
	for (int c = 0; c < w->corps_count; ++c) {
		double *b = box + BOX * c;
		b[0] = b[1] = INFINITY;
		b[2] = b[3] = -INFINITY;
		b[4] = b[5] = b[6] = 0.0;
	}
	for (int s = 0; s < a->count; ++s) {
		const int c = a->corps[s];
		if (c < 0) continue;
		w->corps[c].men++;
		hx[2 * c] += a->x[s];
		hx[2 * c + 1] += a->y[s];
		if (!rt__active(a->state[s])) continue;
		w->corps[c].active++;
		threat[c] += a->threat[s];
		const uint8_t st = a->state[s];
		if (st != RT_STATE_FORMED && st != RT_STATE_MARCHING && st != RT_STATE_ENGAGED) continue;
		double *b = box + BOX * c;
		b[0] = fmin(b[0], a->x[s]);
		b[1] = fmin(b[1], a->y[s]);
		b[2] = fmax(b[2], a->x[s]);
		b[3] = fmax(b[3], a->y[s]);
		b[4] += a->x[s];
		b[5] += a->y[s];
		b[6] += 1.0;
	}
	for (int c = 0; c < w->corps_count; ++c)
		if (!w->corps[c].home_set && w->corps[c].men > 0) {
			w->corps[c].home_set = true;
			w->corps[c].home_x = hx[2 * c] / w->corps[c].men;
			w->corps[c].home_y = hx[2 * c + 1] / w->corps[c].men;
		}
	/* M2: the corps gone in earlier rounds, counted among each corps' peers (a commander
	 * still deciding has not left) */
	const int *gone = peers_gone(w);
	if (!gone) return;
	const double interval_h = p->decision_interval_s / 3600.0;
	to_the_banner(w);
	for (int c = 0; c < w->corps_count; ++c)
		if (w->corps[c].def.pursue_ratio > 0.0 && !w->corps[c].left) {
			const size_t used = w->arena.used;
			pursue(w, c);
			w->arena.used = used; /* its scratch, given back for the next corps' round */
		} else {
			w->corps[c].hesitant_until_s = -1.0; /* Q8: a corps that pursues no more weighs nothing */
		}
	for (int c = 0; c < w->corps_count; ++c) {
		rt_corps *k = &w->corps[c];
		k->mean_threat = k->active > 0 ? threat[c] / k->active : 0.0;
		if (k->left || k->def.refuge < 0 || k->commander < 0) continue;
		if (!rt__active(a->state[w->slot_of_id[k->commander]])) continue; /* fallen or taken */
		const int n_gone = gone[c];
		/* his pressure: what his men feel, or what he sees coming on, whichever is the more */
		const double pressure = fmax(k->mean_threat, p->watch_m > 0.0 ? odds_coming_on(w, c, box + BOX * c) : 0.0);
		const double log_rate = log(fmax(p->base_hazard_per_h, 1e-300)) - p->courage_weight * k->def.courage +
					p->pressure_weight * pressure + p->hunger_weight * k->def.hunger +
					p->cut_off_weight * (k->def.cut_off ? 1.0 : 0.0) + p->peer_weight * n_gone;
		const double probability = 1.0 - exp(-exp(fmin(log_rate, 50.0)) * interval_h);
		const double u = rt_random_uniform(w->def.seed, (uint32_t)c, (uint64_t)round, RT_STREAM_COMMAND);
		if (u < probability) leave(w, c);
	}
	rt__summons(w, round); /* M7: rings that hold summon the encircled */
}
