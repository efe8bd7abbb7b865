/* Cannon and the cavalry charge: a battery of guns served by their crews, whose roundshot
 * cuts files of men at long range and whose canister sweeps the ground near; and riders
 * who strike home at a gallop, whose first blow tells and shakes the men they charge,
 * less so formed foot or men behind wagons (M5). */
#include "test.h"

#include <string.h>

#define ATTACKERS 300
#define GUNS 10

typedef struct assault {
	bool broke;          /* half the attackers routing, kneeling or down before one reached the guns */
	double reached_s;    /* when the first attacker came within 10 m of the battery (-1 never) */
	int down;            /* attackers dead at the end */
	int64_t cannon_shots;
} assault;

/* ATTACKERS trained foot attack from 600 m across open ground toward a line of GUNS crews
 * with their guns (or without) and 40 more crew men; ten minutes at most. */
static bool attack_battery(uint64_t seed, bool guns, assault *out)
{
	memset(out, 0, sizeof *out);
	out->reached_s = -1.0;
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.dt_s = 0.2;
	d.bounds_min = (rt_vec2){ -100, -150 };
	d.bounds_max = (rt_vec2){ 700, 150 };
	d.combat.sense_range_m = 700.0; /* by day, on open ground */
	d.combat.sense_cell_m = 50.0;
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return false;
	rt_goal_def g = rt_goal_def_default();
	g.target_min = (rt_vec2){ -20, -150 };
	g.target_max = (rt_vec2){ 0, 150 };
	g.straight = true;
	rt_goal_id battery;
	bool ok = rt_world_add_goal(w, &g, &battery, &err) == RT_OK;
	rt_agent_def crew = rt_agent_def_default();
	crew.kind = RT_KIND_CREW;
	for (int i = 0; i < GUNS + 40 && ok; ++i) {
		crew.equipment = (uint8_t)(RT_EQUIP_WEAPON | ((guns && i < GUNS) ? RT_EQUIP_CANNON : 0));
		crew.position = i < GUNS ? (rt_vec2){ 0.0, -45.0 + 10.0 * i } : (rt_vec2){ -4.0 - 2.0 * ((i - GUNS) / 20), -40.0 + 4.0 * ((i - GUNS) % 20) };
		ok = rt_world_add_agent(w, &crew, NULL, &err) == RT_OK;
	}
	rt_agent_def man = rt_agent_def_default();
	man.side = 1;
	man.state = RT_STATE_MARCHING;
	man.stance = RT_STANCE_ADVANCE;
	man.goal = battery;
	man.heading = (rt_vec2){ -1.0, 0.0 };
	rt_agent_id first = 0;
	for (int i = 0; i < ATTACKERS && ok; ++i) { /* a block 45 m wide, 20 ranks deep */
		man.position = (rt_vec2){ 600.0 + 1.5 * (i / 30), -22.0 + 1.5 * (i % 30) };
		ok = rt_world_add_agent(w, &man, i == 0 ? &first : NULL, &err) == RT_OK;
	}
	for (int step = 0; step < 3000 && ok; ++step) { /* ten minutes */
		ok = rt_world_step(w, &err) == RT_OK;
		int out_of_it = 0;
		bool there = false;
		for (int id = (int)first; id < (int)first + ATTACKERS; ++id) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)id, &v);
			out_of_it += v.state == RT_STATE_ROUTING || v.state == RT_STATE_SURRENDERED || !rt_state_is_active(v.state);
			there |= rt_state_is_active(v.state) && v.state != RT_STATE_ROUTING && v.position.x < 10.0;
		}
		if (there && out->reached_s < 0.0) out->reached_s = (step + 1) * d.dt_s;
		if (out->reached_s < 0.0 && 2 * out_of_it >= ATTACKERS) out->broke = true;
		if (out->reached_s >= 0.0 || out->broke) break;
	}
	for (int id = (int)first; id < (int)first + ATTACKERS; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		out->down += v.state == RT_STATE_DEAD_COMBAT;
	}
	rt_world_stats st;
	rt_world_get_stats(w, &st);
	out->cannon_shots = st.cannon_shots;
	if (!ok) rt_test_note("battery: %s", err.message);
	rt_world_destroy(w);
	return ok;
}

TEST(cannon_battery_breaks_a_foot_attack)
{
	const int seeds = rt_test_seeds(16); /* as many as run in about ten seconds */
	int broke[2] = { 0, 0 }, down[2] = { 0, 0 }, reached[2] = { 0, 0 };
	int64_t shots = 0;
	for (int seed = 1; seed <= seeds; ++seed)
		for (int guns = 0; guns <= 1; ++guns) {
			assault a;
			CHECK(attack_battery((uint64_t)seed, guns == 1, &a));
			broke[guns] += a.broke;
			reached[guns] += a.reached_s >= 0.0;
			down[guns] += a.down;
			if (guns) shots += a.cannon_shots;
			else CHECK(a.cannon_shots == 0);
		}
	rt_test_note("300 foot attacking across 600 m, %d seeds: against %d guns the attack broke in %d and reached the battery in %d (%.0f shots, %.1f attackers killed per attack); against the crews without guns it broke in %d and reached them in %d",
		     seeds, GUNS, broke[1], reached[1], (double)shots / seeds, (double)down[1] / seeds, broke[0], reached[0]);
	CHECK(broke[0] == 0 && reached[0] == seeds);
	CHECK_RATE(broke[1] * 10 >= seeds * 8);
	CHECK_RATE(down[1] > 10 * seeds);
}

typedef enum target_kind { TARGET_GUNNERS = 0, TARGET_FORMED_FOOT, TARGET_BEHIND_WAGONS } target_kind;

/* Thirty riders ride at sixty men standing in a knot from 120 m: at their charge pace (a
 * 3.5 m/s trot, the last 100 m at the gallop) or at a walk (1 m/s). Did the sixty break
 * (half of them routing, desperate, kneeling or down) within 20 s of the first blow? */
#define BREAK_WINDOW_STEPS 200
static bool charge(uint64_t seed, bool at_speed, target_kind target, bool *broke, int64_t *charges)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.bounds_min = (rt_vec2){ -60, -60 };
	d.bounds_max = (rt_vec2){ 180, 60 };
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return false;
	bool ok = true;
	if (target == TARGET_BEHIND_WAGONS) /* 16 wagons, 2.5 m x 1.2 m, end to end round a circle of 8 m */
		for (int k = 0; k < 16 && ok; ++k) {
			double a0 = 6.283185307179586 * k / 16.0, c = cos(a0), s = sin(a0);
			double r0 = 8.0, r1 = 9.2, half = 1.6;
			rt_vec2 p[4] = { { r0 * c - half * s, r0 * s + half * c }, { r1 * c - half * s, r1 * s + half * c },
					 { r1 * c + half * s, r1 * s - half * c }, { r0 * c + half * s, r0 * s - half * c } };
			ok = rt_world_add_obstacle(w, p, 4, &err) == RT_OK;
		}
	rt_agent_def man = rt_agent_def_default();
	man.kind = target == TARGET_FORMED_FOOT ? RT_KIND_FOOT : RT_KIND_GUNNER;
	man.ammunition = 0; /* the question is the shock, not the volley */
	for (int i = 0; i < 60 && ok; ++i) { /* a knot 14 m across */
		double r = 1.5 + 5.5 * ((i % 4) / 3.0), angle = 6.283185307179586 * (i / 4) / 15.0 + 0.3 * (i % 4);
		man.position = (rt_vec2){ r * cos(angle), r * sin(angle) };
		ok = rt_world_add_agent(w, &man, NULL, &err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.stance = RT_STANCE_ADVANCE;
	horse.experience = RT_EXPERIENCE_VETERAN;
	horse.free_speed_mps = at_speed ? 0.0 : 1.0;
	for (int i = 0; i < 30 && ok; ++i) {
		horse.position = (rt_vec2){ 120.0 + 3.0 * (i / 15), -21.0 + 3.0 * (i % 15) };

		ok = rt_world_add_agent(w, &horse, NULL, &err) == RT_OK;
	}
	*broke = false;
	int contact = -1; /* the step the first man came to blows */
	for (int step = 0; step < 1500 && ok && !*broke && (contact < 0 || step < contact + BREAK_WINDOW_STEPS); ++step) {
		ok = rt_world_step(w, &err) == RT_OK;
		int gone = 0; /* routing, desperate (no way out), kneeling, taken or down */
		for (int id = 0; id < 60; ++id) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)id, &v);
			gone += v.state == RT_STATE_ROUTING || v.state == RT_STATE_DESPERATE || v.state == RT_STATE_SURRENDERED ||
				!rt_state_is_active(v.state);
			if (contact < 0 && (v.state == RT_STATE_ENGAGED || !rt_state_is_active(v.state))) contact = step;
		}
		*broke = contact >= 0 && 2 * gone >= 60;
	}
	rt_world_stats st;
	rt_world_get_stats(w, &st);
	*charges = st.charges;
	rt_world_destroy(w);
	return ok;
}

TEST(charge_at_speed_breaks_more_often_than_a_walk)
{
	const int seeds = rt_test_seeds(50);
	int galloped = 0, walked = 0, formed = 0, wagons = 0;
	int64_t charges_fast = 0, charges_walk = 0, charges_formed = 0, charges_wagons = 0;
	for (int seed = 1; seed <= seeds; ++seed) {
		bool broke;
		int64_t n;
		CHECK(charge((uint64_t)seed, true, TARGET_GUNNERS, &broke, &n));
		galloped += broke;
		charges_fast += n;
		CHECK(charge((uint64_t)seed, false, TARGET_GUNNERS, &broke, &n));
		walked += broke;
		charges_walk += n;
		CHECK(charge((uint64_t)seed, true, TARGET_FORMED_FOOT, &broke, &n));
		formed += broke;
		charges_formed += n;
		CHECK(charge((uint64_t)seed, true, TARGET_BEHIND_WAGONS, &broke, &n));
		wagons += broke;
		charges_wagons += n;
	}
	rt_test_note("30 riders against 60 men, %d seeds: a charge broke gunners in %d (%.1f riders struck home at a charge), a walk-in in %d (%.1f); formed foot charged broke in %d (%.1f), gunners behind wagons in %d (%.1f)",
		     seeds, galloped, (double)charges_fast / seeds, walked, (double)charges_walk / seeds, formed,
		     (double)charges_formed / seeds, wagons, (double)charges_wagons / seeds);
	CHECK(charges_walk == 0);
	CHECK_RATE(charges_fast > 10 * seeds);
	CHECK_RATE(galloped >= walked + seeds / 4);
	CHECK_RATE(formed < galloped);
	CHECK_RATE(wagons < galloped);
}
