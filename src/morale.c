/* Morale: each man's will to stay, moving toward his own baseline and pushed down by
 * what he sees (DESIGN.md "Morale"; phenomena M1-M5). Below a threshold he routs; a
 * routing man far enough from the enemy whose morale has come back rallies.
 *
 *   dm/dt = (m_base - m) / tau - s_e (k_threat (1 + k_rear behind) threat + k_contagion routing_share
 *                                     + k_death deaths_seen + k_fire fire_seen)
 *
 * m_base is his experience's baseline spread a little per man, lowered by his corps'
 * hunger (M9: m_base - hunger_baseline_loss hunger); s_e his experience's sensitivity
 * (green men lose morale faster: M1), times (1 + darkness_loss_factor darkness) at night
 * (E1: darkness 0 in daylight, 1 at or below the dark illuminance, log-linear between);
 * threat, routing_share and deaths_seen come from the sense phase's local picture;
 * fire_seen is the share of the map cells round him within view_radius_m whose flames
 * stop men (E4, fire.c: fear of fire);
 * behind is 1 when his nearest enemy is behind him (rt__behind, combat "Facing"). A
 * guard bound to his commander (M8, guard.c) loses guard_loss_factor x as much and does
 * not rout. A man marching off after his commander left whose commander is not within
 * leader_reach_m of him (ridden ahead, fallen, taken or within walls) returns to a
 * baseline leaderless_baseline_loss lower (M3, M4: "弃了本部人马"; the ranks hold while
 * the general is with them, and a hungry column left behind breaks up). Parallel over
 * men who decide this step, each writing only his own slot; the step length is his
 * update period. */
#include "world.h"

#include <math.h>

void rt__morale(rt_world *w)
{
	rt_agents *a = &w->agents;
	const rt_morale_params *m = &w->def.morale;
	const int n = a->count;
	const uint64_t seed = w->def.seed, step = (uint64_t)w->step;
	int64_t routed = 0, rallied = 0, armour = 0, weapons = 0, knelt = 0, desperate = 0;
	/* "no way out": enemies on every side within what he can see */
	const double trapped_radius = fmin(w->def.combat.sense_range_m, w->env.detection_range_m);
	double darkness = 0.0;
	if (w->env.set) {
		const rt_light_params *lp = &w->environment.light;
		const double lux = fmax(w->env.illuminance_lux, 1e-12);
		darkness = rt__clamp(log(lp->daylight_lux / lux) / log(lp->daylight_lux / lp->dark_lux), 0.0, 1.0);
	}
	const double dark_gain = 1.0 + m->darkness_loss_factor * darkness;
	/* C5 in the dark: a caught man cannot see whether the rider on him would take his
	 * surrender, and seldom kneels (E1) */
	const double kneel_rate = m->kneel_rate_per_s * (1.0 - darkness * (1.0 - m->dark_kneel_factor));
	const double guard_loss = w->def.command.guard_loss_factor;
	const bool fire_fear = m->fire_fear_rate_per_s > 0.0 && rt__fire_seen_anywhere(w);
	/* who is routing as the phase begins: "no way out" reads it of his enemies, whose own
	 * states this loop may change meanwhile (on other threads) */
	uint8_t *routing = rt__arena_push(&w->arena, (size_t)n + 1);
	RT_ASSERT(routing != NULL); /* reserved by the step (world.c) */
	/* M3/M4: where each corps' commander stands while he can lead (x, y, and 1 when he
	 * is in the field and alive and free), read before the loop, which may change states */
	const bool leaderless = m->leaderless_baseline_loss > 0.0 && w->corps_count > 0;
	double *leader = leaderless ? rt__arena_push(&w->arena, 3 * (size_t)w->corps_count * sizeof(double)) : NULL;
	RT_ASSERT(!leaderless || leader != NULL);
	if (leader) {
		for (int c = 0; c < w->corps_count; ++c) {
			const rt_corps *k = &w->corps[c];
			const int t = k->commander >= 0 ? (int)w->slot_of_id[k->commander] : -1;
			const bool here = t >= 0 && t < n && rt__active(a->state[t]);
			leader[3 * c] = here ? a->x[t] : 0.0;
			leader[3 * c + 1] = here ? a->y[t] : 0.0;
			leader[3 * c + 2] = here ? 1.0 : 0.0;
		}
	}
	const double reach2 = m->leader_reach_m * m->leader_reach_m;
	if (routing) {
		RT_PARALLEL_FOR(RT_PARALLEL(n), (schedule(static) num_threads(w->threads)),
		for (int s = 0; s < n; ++s) routing[s] = a->state[s] == RT_STATE_ROUTING;
		);
	}
	RT_PARALLEL_FOR(RT_PARALLEL(n), (schedule(static) num_threads(w->threads) reduction(+ : routed, rallied, armour, weapons, knelt, desperate)),
	for (int s = 0; s < n; ++s) {
		const uint8_t state = a->state[s];
		const bool steady = state == RT_STATE_FORMED || state == RT_STATE_MARCHING || state == RT_STATE_ENGAGED;
		const bool sheltered = state == RT_STATE_SHELTERED;
		if ((!steady && state != RT_STATE_ROUTING && !sheltered) || !rt__agent_due(w, s)) continue;
		const double dt = w->def.dt_s * (double)(1 << a->level[s]);
		const double sens = m->sensitivity[a->experience[s]] * dark_gain;
		const int corps = a->corps[s];
		double base = a->morale_base[s] - (corps >= 0 ? m->hunger_baseline_loss * w->corps[corps].def.hunger : 0.0);
		/* M3/M4: left behind by the general who led them off, the ranks lose heart */
		if (leader && state == RT_STATE_MARCHING && rt__marching_off(w, s) && !rt__with_commander(w, s)) {
			const double *l = leader + 3 * corps;
			const double dx = l[0] - a->x[s], dy = l[1] - a->y[s];
			if (l[2] == 0.0 || dx * dx + dy * dy > reach2) base -= m->leaderless_baseline_loss;
		}
		if (sheltered) {
			/* within walls he sees no enemy: his morale comes back toward his baseline (the
			 * hunger of his corps still weighs on it), and a sortie finds him steady (Q9) */
			const double back = a->morale[s] + (base - a->morale[s]) / m->recovery_time_s * dt;
			a->morale[s] = (float)rt__clamp(back, 0.0, 1.0);
			continue;
		}
		/* an enemy behind him frightens more than one in front (flank and rear) */
		double rear = 1.0;
		if (a->enemy[s] >= 0) {
			const int t = (int)w->slot_of_id[a->enemy[s]];
			if (rt__behind(w, s, a->x[t] - a->x[s], a->y[t] - a->y[s])) rear += m->rear_threat_factor;
		}
		/* E4: flames round him that stop men frighten him, the more of what he sees they fill */
		const double fire = fire_fear ? rt__fire_seen(w, a->x[s], a->y[s], m->view_radius_m, NULL, NULL) : 0.0;
		double loss = sens * (m->threat_rate_per_s * rear * a->threat[s] + m->contagion_rate_per_s * a->routing_share[s] +
				      m->death_shock * a->deaths_seen[s] + m->fire_fear_rate_per_s * fire);
		/* M8: a guard bound to his commander loses heart slower and does not break */
		bool bound = false;
		if (corps >= 0 && a->stance[s] == RT_STANCE_GUARD && w->corps[corps].guarded) {
			bound = true;
			loss *= guard_loss;
		}
		double morale = a->morale[s];
		morale += ((base - morale) / m->recovery_time_s - loss) * dt;
		morale = rt__clamp(morale, 0.0, 1.0);
		a->morale[s] = (float)morale;
		if (bound) {
			/* he stays with his commander */
		} else if (steady && morale < m->rout_threshold && rt__surrounded(w, s, trapped_radius, routing)) {
			/* M7: with no way out he does not run; he fights harder */
			a->state[s] = RT_STATE_DESPERATE;
			a->level[s] = 0;
			desperate++;
		} else if (steady && morale < m->rout_threshold) {
			a->state[s] = RT_STATE_ROUTING;
			a->level[s] = 0;
			routed++;
			/* C3: a man who runs throws off what slows him */
			rt_random4 r = rt_random_bits(seed, a->id[s], step, RT_STREAM_MORALE);
			if ((a->equipment[s] & RT_EQUIP_ARMOUR) && (double)r.v[0] * (1.0 / 4294967296.0) < m->drop_armour_prob) {
				a->equipment[s] &= (uint8_t)~RT_EQUIP_ARMOUR;
				armour++;
			}
			if ((a->equipment[s] & RT_EQUIP_WEAPON) && (double)r.v[1] * (1.0 / 4294967296.0) < m->drop_weapon_prob) {
				a->equipment[s] &= (uint8_t)~RT_EQUIP_WEAPON;
				weapons++;
			}
		} else if (state == RT_STATE_ROUTING && a->enemy_dist[s] <= m->kneel_distance_m &&
			   rt_random_uniform(seed, a->id[s], step, RT_STREAM_MORALE + 16) < kneel_rate * rt__spent(w, s) * dt) {
			/* C5: caught and spent ("跑不动"), he throws down his weapon and kneels; a man
			 * with legs (or a horse) under him runs on */
			a->state[s] = RT_STATE_SURRENDERED;
			a->level[s] = 0;
			a->vx[s] = a->vy[s] = 0.0;
			if (a->equipment[s] & RT_EQUIP_WEAPON) weapons++;
			a->equipment[s] &= (uint8_t)~RT_EQUIP_WEAPON;
			knelt++;
		} else if (state == RT_STATE_ROUTING && morale > m->rally_threshold && a->enemy_dist[s] > m->rally_enemy_distance_m) {
			a->state[s] = RT_STATE_FORMED; /* M4: he stops running and stands again */
			a->level[s] = 0;
			rallied++;
		}
	});
	w->routed += routed;
	w->rallied += rallied;
	w->armour_dropped += armour;
	w->weapons_dropped += weapons;
	w->knelt += knelt;
	w->desperate += desperate;
}
