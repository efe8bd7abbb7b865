/* Personal guards (M8) and the carrying of a wounded commander (C6): the guard keeps by
 * his commander, screens him from the pursuit, does not break while he stands, and
 * carries him when he is felled. */
#include "test.h"
#include "builders.h"
#include "rout/scenario.h"

#include <string.h>

#define REFUGE_X 300.0

typedef struct flight {
	bool escaped;       /* the commander reached his refuge */
	double seconds;     /* when (or the time limit) */
	int guards_routed;  /* guards who broke while he stood */
	int carriers;       /* different guards who carried him */
	bool wounded;       /* he was felled but not killed */
} flight;

typedef struct flight_scene {
	uint64_t seed;
	int guards;
	int horse;          /* pursuers, 40 m behind him */
	float health;       /* 1: whole; 0.5: wounded from the start */
	double refuge_x;
	double limit_s;
	double kill_carrier_at_s; /* the carrier falls then (< 0: never) */
	int rearguard;      /* foot 10-16 m behind him, of his corps ... */
	bool rearguard_turns; /* ... ordered to counter-charge (M6), or marching off with him */
	bool mounted;       /* he and his guards ride, as a scenario's `mounted: true` makes them */
} flight_scene;

/* A commander walks to a refuge (leaving: he goes, his goal a refuge he escapes into),
 * with `guards` guards round him and `horse` riders advancing on him from behind. */
static bool run_flight(const flight_scene *sc, flight *out)
{
	memset(out, 0, sizeof *out);
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = sc->seed;
	d.bounds_min = (rt_vec2){ -100, -60 };
	d.bounds_max = (rt_vec2){ sc->refuge_x + 20.0, 60 };
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return false;
	rt_goal_def g = rt_goal_def_default();
	g.target_min = (rt_vec2){ sc->refuge_x, -60 };
	g.target_max = (rt_vec2){ sc->refuge_x + 10.0, 60 };
	g.straight = true;
	g.arrival = RT_ARRIVAL_LEAVE;
	rt_goal_id refuge;
	bool ok = rt_world_add_goal(w, &g, &refuge, &err) == RT_OK;
	rt_corps_def cd = rt_corps_def_default();
	cd.refuge = refuge;
	rt_corps_id corps = 0;
	ok = ok && rt_world_add_corps(w, &cd, &corps, &err) == RT_OK;
	rt_agent_def man = rt_agent_def_default();
	man.kind = RT_KIND_COMMANDER;
	man.corps = corps;
	man.experience = RT_EXPERIENCE_VETERAN;
	man.state = RT_STATE_MARCHING;
	man.goal = refuge;
	man.flee_goal = refuge;
	man.health = sc->health;
	if (sc->mounted) { /* as run.c makes a mounted commander: he rides, with a horse's body and pace */
		man.mounted = true;
		man.radius_m = d.kinds[RT_KIND_HORSE].radius_m;
		man.free_speed_mps = d.kinds[RT_KIND_HORSE].free_speed_mps;
	}
	rt_agent_id commander = 0;
	ok = ok && rt_world_add_agent(w, &man, &commander, &err) == RT_OK;
	ok = ok && rt_world_set_corps_commander(w, corps, commander, &err) == RT_OK;
	man.kind = sc->mounted ? RT_KIND_HORSE : RT_KIND_GUARD;
	man.mounted = false; /* his guards ride as their kind does */
	man.radius_m = 0.0;
	man.free_speed_mps = 0.0;
	man.stance = RT_STANCE_GUARD;
	man.goal = RT_NO_GOAL;
	man.health = 1.0f;
	for (int i = 0; i < sc->guards && ok; ++i) {
		const double angle = 6.283185307179586 * i / sc->guards;
		man.position = (rt_vec2){ 2.5 * cos(angle), 2.5 * sin(angle) };
		ok = rt_world_add_agent(w, &man, NULL, &err) == RT_OK;
	}
	man.kind = RT_KIND_FOOT;
	man.radius_m = 0.0;
	man.free_speed_mps = 0.0;
	man.stance = sc->rearguard_turns ? RT_STANCE_REARGUARD : RT_STANCE_HOLD;
	man.state = sc->rearguard_turns ? RT_STATE_FORMED : RT_STATE_MARCHING;
	man.goal = sc->rearguard_turns ? RT_NO_GOAL : refuge;
	for (int i = 0; i < sc->rearguard && ok; ++i) {
		man.position = (rt_vec2){ -10.0 - 1.5 * (i / 5), -3.0 + 1.5 * (i % 5) };
		ok = rt_world_add_agent(w, &man, NULL, &err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.stance = RT_STANCE_ADVANCE;
	horse.experience = RT_EXPERIENCE_VETERAN;
	for (int i = 0; i < sc->horse && ok; ++i) {
		horse.position = (rt_vec2){ -40.0 - 2.0 * (i / 4), -3.0 + 2.0 * (i % 4) };
		ok = ok && rt_world_add_agent(w, &horse, NULL, &err) == RT_OK;
	}
	int32_t last_carrier = -1;
	bool killed = false;
	const int steps = (int)(sc->limit_s / d.dt_s);
	out->seconds = sc->limit_s;
	for (int step = 0; step < steps && ok; ++step) {
		ok = rt_world_step(w, &err) == RT_OK;
		rt_agent_view c;
		rt_world_get_agent(w, commander, &c);
		out->wounded |= c.health > 0.0f && c.health < 1.0f;
		rt_corps_view cv;
		rt_world_get_corps(w, corps, &cv);
		if (cv.carrier >= 0 && cv.carrier != last_carrier) {
			out->carriers++;
			last_carrier = cv.carrier;
		}
		if (!killed && sc->kill_carrier_at_s >= 0.0 && (step + 1) * d.dt_s >= sc->kill_carrier_at_s && cv.carrier >= 0) {
			ok = rt_world_set_agent_state(w, (rt_agent_id)cv.carrier, RT_STATE_DEAD_COMBAT, &err) == RT_OK;
			killed = true;
		}
		if (rt_state_is_active(c.state)) {
			for (int i = 1; i <= sc->guards; ++i) {
				rt_agent_view v;
				rt_world_get_agent(w, (rt_agent_id)i, &v);
				out->guards_routed += v.state == RT_STATE_ROUTING;
			}
		}
		if (c.state == RT_STATE_ESCAPED) {
			out->escaped = true;
			out->seconds = (step + 1) * d.dt_s;
			break;
		}
		if (!rt_state_is_active(c.state)) break;
	}
	if (!ok) rt_test_note("flight: %s", err.message);
	rt_world_destroy(w);
	return ok;
}

/* M8: a commander walking 300 m to safety with eight riders after him gets away far more
 * often with twelve guards round him than alone. */
TEST(guard_guards_get_their_commander_away)
{
	const int seeds = 50;
	int with = 0, without = 0, routed = 0;
	double with_s = 0.0;
	for (int seed = 1; seed <= seeds; ++seed) {
		flight f;
		flight_scene sc = { (uint64_t)seed, 12, 8, 1.0f, REFUGE_X, 400.0, -1.0, 0, false, false };
		CHECK(run_flight(&sc, &f));
		with += f.escaped;
		routed += f.guards_routed;
		if (f.escaped) with_s += f.seconds;
		sc.guards = 0;
		CHECK(run_flight(&sc, &f));
		without += f.escaped;
	}
	rt_test_note("8 riders after a commander walking 300 m: he gets away in %d of %d seeds with 12 guards (after %.0f s on average), in %d alone; guard-steps routing while he stood: %d",
		     with, seeds, with > 0 ? with_s / with : 0.0, without, routed);
	CHECK(with >= without + seeds / 2);
	CHECK(routed == 0);
}

/* C6: a commander wounded from the start, with six guards and nobody after him, is
 * carried to his refuge 150 m off: slower than when he is whole, much faster than he
 * could limp alone; when his carrier falls on the way another guard takes him up. */
TEST(guard_wounded_commander_is_carried)
{
	flight whole, carried, alone, relay;
	flight_scene sc = { 1, 6, 0, 1.0f, 150.0, 900.0, -1.0, 0, false, false };
	CHECK(run_flight(&sc, &whole));
	sc.health = 0.5f;
	CHECK(run_flight(&sc, &carried));
	sc.kill_carrier_at_s = 40.0;
	CHECK(run_flight(&sc, &relay));
	sc.kill_carrier_at_s = -1.0;
	sc.guards = 0;
	CHECK(run_flight(&sc, &alone));
	rt_test_note("150 m to safety: whole %.0f s; wounded and carried %.0f s (%d carrier); carrier killed at 40 s: %.0f s (%d carriers); wounded alone %.0f s (%s)",
		     whole.seconds, carried.seconds, carried.carriers, relay.seconds, relay.carriers, alone.seconds,
		     alone.escaped ? "got there" : "not there");
	CHECK(whole.escaped && carried.escaped && relay.escaped);
	CHECK(carried.seconds > 1.3 * whole.seconds);      /* slower */
	CHECK(carried.carriers == 1 && relay.carriers == 2); /* one man, then another */
	CHECK(relay.seconds >= carried.seconds);
	CHECK(alone.seconds > 1.5 * carried.seconds);     /* limping alone he would be much longer */
}

/* M8: ten guards and ten foot of the same steadiness stand with their commander, with
 * thirty riders 15 m off: the foot break, the guards do not. */
TEST(guard_guards_hold_while_he_stands)
{
	int broke[2] = { 0, 0 };
	for (int guards = 0; guards <= 1; ++guards) {
		rt_world_def d = rt_world_def_default();
		d.allocator = rt_test_allocator();
		d.bounds_min = (rt_vec2){ -60, -60 };
		d.bounds_max = (rt_vec2){ 60, 60 };
		rt_error err;
		rt_world *w = rt_world_create(&d, &err);
		CHECK(w);
		rt_corps_def cd = rt_corps_def_default();
		rt_corps_id corps;
		CHECK_OK(rt_world_add_corps(w, &cd, &corps, &err), err);
		rt_agent_def man = rt_agent_def_default();
		man.corps = corps;
		man.kind = RT_KIND_COMMANDER;
		man.experience = RT_EXPERIENCE_VETERAN;
		rt_agent_id commander;
		CHECK_OK(rt_world_add_agent(w, &man, &commander, &err), err);
		CHECK_OK(rt_world_set_corps_commander(w, corps, commander, &err), err);
		man.kind = guards ? RT_KIND_GUARD : RT_KIND_FOOT;
		man.stance = guards ? RT_STANCE_GUARD : RT_STANCE_HOLD;
		man.experience = RT_EXPERIENCE_TRAINED;
		for (int i = 0; i < 10; ++i) {
			const double angle = 6.283185307179586 * i / 10.0;
			man.position = (rt_vec2){ 2.5 * cos(angle), 2.5 * sin(angle) };
			CHECK_OK(rt_world_add_agent(w, &man, NULL, &err), err);
		}
		rt_agent_def horse = rt_agent_def_default();
		horse.kind = RT_KIND_HORSE;
		horse.side = 1;
		for (int i = 0; i < 30; ++i) {
			horse.position = (rt_vec2){ 15.0 + 2.0 * (i / 10), -9.0 + 2.0 * (i % 10) };
			CHECK_OK(rt_world_add_agent(w, &horse, NULL, &err), err);
		}
		for (int step = 0; step < 1800; ++step) CHECK_OK(rt_world_step(w, &err), err); /* three minutes */
		for (int i = 1; i <= 10; ++i) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)i, &v);
			broke[guards] += v.state == RT_STATE_ROUTING;
		}
		rt_world_destroy(w);
	}
	rt_test_note("thirty riders 15 m off for three minutes: %d of 10 foot broke, %d of 10 guards", broke[0], broke[1]);
	CHECK(broke[0] >= 5);
	CHECK(broke[1] == 0);
}

/* The scenario's words for these mechanisms reach the world: a corps' guards keep by
 * him (stance guard), a unit ordered to guard or to counter-charge takes the stance, a
 * corps that summons says so, and a crew unit's guns are men with the gun bit. (The mini
 * scenario, with --set.) */
TEST(guard_scenario_guards_guns_and_summons_reach_the_world)
{
	const char *sets[] = { "corps.red_two.units.two_guns.kind=crew", "corps.red_two.units.two_guns.guns=6",
			       "corps.red_two.units.two_foot.order=guard", "corps.blue_horse.summon=true",
			       "corps.red_one.units.one_foot.order=counter_charge" };
	rt_scenario *sc;
	rt_run *run;
	CHECK(mini_run(sets, 5, &sc, &run));
	rt_world *w = rt_run_world(run);
	int guns = 0, guarding = 0, guards = 0, crew = 0, summoning = 0, rearguard = 0;
	for (int c = 0; c < rt_world_corps_count(w); ++c) {
		rt_corps_view cv;
		rt_world_get_corps(w, c, &cv);
		summoning += cv.summon ? 1 + 10 * c : 0;
	}
	for (int id = 0; id < rt_world_agent_count(w); ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		guns += (v.equipment & RT_EQUIP_CANNON) != 0;
		crew += v.kind == RT_KIND_CREW;
		guarding += v.stance == RT_STANCE_GUARD;
		rearguard += v.stance == RT_STANCE_REARGUARD;
		guards += v.kind == RT_KIND_GUARD && v.stance == RT_STANCE_GUARD;
	}
	rt_run_destroy(run);
	rt_scenario_destroy(sc);
	rt_test_note("mini at scale 2: %d guns among %d crew; %d men of stance guard, %d of them the commanders' own guard", guns, crew,
		     guarding, guards);
	CHECK(summoning == 1 + 10 * 2);        /* blue_horse, the third corps, alone */
	CHECK(crew == 30 && guns == 3);        /* 60 men, 6 guns, 2 men an agent */
	CHECK(guards == 5);                    /* red_one's 10 guards */
	CHECK(guarding == guards + 150);       /* and two_foot's 300 men */
	CHECK(rearguard == 150);               /* one_foot's 300, ordered to counter-charge */
}

/* M6: a commander walking 300 m to safety with eight riders after him and no guard; fifteen
 * foot 10-16 m behind him either turn on the riders (counter-charge) or march off with
 * him. The counter-charge buys him the time to get away far more often than nothing, and
 * more often than the same men marching with him. */
TEST(guard_rearguard_counter_charge_buys_time)
{
	const int seeds = 50;
	int turned = 0, marched = 0, alone = 0;
	for (int seed = 1; seed <= seeds; ++seed) {
		flight f;
		flight_scene sc = { (uint64_t)seed, 0, 8, 1.0f, REFUGE_X, 400.0, -1.0, 15, true, false };
		CHECK(run_flight(&sc, &f));
		turned += f.escaped;
		sc.rearguard_turns = false;
		CHECK(run_flight(&sc, &f));
		marched += f.escaped;
		sc.rearguard = 0;
		CHECK(run_flight(&sc, &f));
		alone += f.escaped;
	}
	rt_test_note("8 riders after a commander walking 300 m: he gets away in %d of %d seeds when 15 foot counter-charge, in %d when they march off with him, in %d alone",
		     turned, seeds, marched, alone);
	CHECK(turned >= alone + seeds / 2);
	CHECK(turned > marched);
}

/* M8: a general and his 家丁 on horseback get away from riders on their heels far more
 * often than the same men on foot: a commander 300 m from his refuge, two guards by
 * him, sixteen horse 40 m behind (30 seeds). */
TEST(guard_a_mounted_commander_rides_away)
{
	const int seeds = 30;
	int mounted = 0, on_foot = 0;
	double mounted_s = 0.0;
	for (int seed = 1; seed <= seeds; ++seed) {
		flight f;
		flight_scene sc = { (uint64_t)seed, 2, 16, 1.0f, REFUGE_X, 400.0, -1.0, 0, false, true };
		CHECK(run_flight(&sc, &f));
		mounted += f.escaped;
		mounted_s += f.escaped ? f.seconds : 0.0;
		sc.mounted = false;
		CHECK(run_flight(&sc, &f));
		on_foot += f.escaped;
	}
	rt_test_note("16 riders 40 m behind a commander and 2 guards, 300 m from safety: mounted he gets away in %d of %d seeds (in %.0f s on average), on foot in %d",
		     mounted, seeds, mounted ? mounted_s / mounted : 0.0, on_foot);
	CHECK(mounted * 10 >= seeds * 8);
	CHECK(mounted >= on_foot + seeds / 3);
}

/* The scenario's `mounted: true` reaches the world: the commander rides, with a horse's
 * pace and body, his guards are riders keeping the guard's stance (the mini scenario, with
 * --set). */
TEST(guard_scenario_mounted_commander)
{
	for (int m = 0; m < 2; ++m) {
		const char *sets[] = { m ? "corps.red_one.mounted=true" : "corps.red_one.mounted=false" };
		rt_scenario *sc;
		rt_run *run;
		CHECK(mini_run(sets, 1, &sc, &run));
		rt_world *w = rt_run_world(run);
		rt_corps_view cv;
		rt_world_get_corps(w, 0, &cv);
		rt_agent_view c;
		rt_world_get_agent(w, cv.commander, &c);
		const rt_kind_params horse = rt_kind_params_default(RT_KIND_HORSE);
		int riders = 0, foot_guards = 0;
		for (int id = 0; id < rt_world_agent_count(w); ++id) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)id, &v);
			if (v.stance != RT_STANCE_GUARD || v.side != 0) continue; /* red_one alone has guards */
			riders += v.kind == RT_KIND_HORSE;
			foot_guards += v.kind == RT_KIND_GUARD;
		}
		rt_test_note("red_one %s: commander %.6f m/s, %.4f m wide; guards: %d riders, %d on foot", m ? "mounted" : "on foot",
			     c.free_speed_mps, 2.0 * c.radius_m, riders, foot_guards);
		CHECK(c.mounted == (m == 1)); /* he rides: a rider to the charge, the crush, stamina, the report */
		CHECK_NEAR(c.free_speed_mps, m ? horse.free_speed_mps : 1.34, 1e-6);
		CHECK_NEAR(c.radius_m, (m ? horse.radius_m : 0.2) * sqrt(2.0), 1e-6); /* scale 2 */
		CHECK(riders == (m ? 5 : 0));      /* red_one's 10 guards, 2 men an agent */
		CHECK(foot_guards == (m ? 0 : 5));
		rt_run_destroy(run);
		rt_scenario_destroy(sc);
	}
}

/* tests/data/scenarios/gallop: a corps sent at the gallop has its general go at its pace
 * (docs/model.md section 10, "A general rides with his column"). 200 horse and their
 * mounted general, sent a minute in to a place 1.5 km west at the gallop: 90 s later he
 * rides at their speed and is no farther behind the head of the column than the column
 * lead. Before 2026-12-02 he trotted after them and fell 227 m behind (Yoto at Dalinghe,
 * "岳托立即率领"). */
TEST(guard_a_general_leads_a_gallop_at_the_gallop)
{
	rt_scenario *sc;
	rt_run *run;
	CHECK(scenario_run("tests/data/scenarios/gallop/scenario.yaml", NULL, 0, &sc, &run));
	rt_world *w = rt_run_world(run);
	CHECK(run_to(run, 150.0));
	rt_corps_view cv;
	rt_world_get_corps(w, 1, &cv);
	rt_agent_view g;
	CHECK(rt_world_get_agent(w, cv.commander, &g));
	double head = INFINITY, rider_speed = 0.0;
	for (int id = 0; id < rt_world_agent_count(w); ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		if (v.side != 1 || v.kind != RT_KIND_HORSE || v.stance == RT_STANCE_GUARD) continue;
		head = fmin(head, v.position.x);
		rider_speed = v.free_speed_mps;
	}
	const double gap = g.position.x - head; /* west is -x: positive, he is behind the head */
	rt_test_note("90 s after the order: the general rides at %.2f m/s, his riders at %.2f m/s; he is %.0f m behind the "
		     "head of the column",
		     g.free_speed_mps, rider_speed, gap);
	CHECK(rider_speed > rt_kind_params_default(RT_KIND_HORSE).free_speed_mps); /* they gallop */
	CHECK_NEAR(g.free_speed_mps, rider_speed, 1e-6);
	CHECK(gap < 60.0); /* column_lead_m, 50 m, and a rider's spacing at scale 2 */
	rt_run_destroy(run);
	rt_scenario_destroy(sc);
	CHECK(rt_test_bytes_held() == 0);
}

/* The decide phase writes velocities in place while a guard reads his commander's and a
 * man containing reads his enemy's: they read them as they stood before the phase, so a
 * world large enough to decide in parallel (over 4,096 men) gives the same result at one
 * and two threads. 16 generals with 150 guards each march east past a line of 1,000 men
 * of the other side who contain them, among 1,000 foot of their own side. (Dalinghe seed
 * 1 parted at 1 and 2 threads 786 s in, at a guard of Wu Xiang's, before this.) */
static uint64_t escorts_and_ring(int threads, double *east)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = 7;
	d.threads = threads;
	d.bounds_min = (rt_vec2){ -200, -700 };
	d.bounds_max = (rt_vec2){ 2600, 700 };
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return 0;
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = (rt_vec2){ 2400, -650 };
	gd.target_max = (rt_vec2){ 2500, 650 };
	gd.straight = true;
	rt_goal_id goal = RT_NO_GOAL;
	bool ok = rt_world_add_goal(w, &gd, &goal, &err) == RT_OK;
	for (int k = 0; k < 16 && ok; ++k) {
		rt_corps_def cd = rt_corps_def_default();
		rt_corps_id corps = -1;
		ok = rt_world_add_corps(w, &cd, &corps, &err) == RT_OK;
		rt_agent_def man = rt_agent_def_default();
		man.corps = corps;
		man.state = RT_STATE_MARCHING;
		man.goal = goal;
		man.kind = RT_KIND_COMMANDER;
		man.position = (rt_vec2){ 0.0, -600.0 + 80.0 * k };
		rt_agent_id general = 0;
		ok = ok && rt_world_add_agent(w, &man, &general, &err) == RT_OK &&
		     rt_world_set_corps_commander(w, corps, general, &err) == RT_OK;
		man.kind = RT_KIND_GUARD;
		man.stance = RT_STANCE_GUARD;
		man.goal = RT_NO_GOAL;
		for (int i = 0; i < 150 && ok; ++i) {
			man.position = (rt_vec2){ -6.0 - 1.2 * (i / 10), -600.0 + 80.0 * k - 6.0 + 1.2 * (i % 10) };
			ok = rt_world_add_agent(w, &man, NULL, &err) == RT_OK;
		}
	}
	rt_agent_def foot = rt_agent_def_default();
	foot.state = RT_STATE_MARCHING;
	foot.goal = goal;
	for (int i = 0; i < 1000 && ok; ++i) {
		foot.position = (rt_vec2){ -60.0 - 1.4 * (i / 50), -637.0 + 26.0 * (i % 50) };
		ok = rt_world_add_agent(w, &foot, NULL, &err) == RT_OK;
	}
	rt_agent_def ring = rt_agent_def_default();
	ring.side = 1;
	ring.stance = RT_STANCE_CONTAIN;
	for (int i = 0; i < 1000 && ok; ++i) {
		ring.position = (rt_vec2){ 700.0 + 1.5 * (i / 100), -650.0 + 13.0 * (i % 100) };
		ok = rt_world_add_agent(w, &ring, NULL, &err) == RT_OK;
	}
	for (int s = 0; s < 240 && ok; ++s) ok = rt_world_step(w, &err) == RT_OK;
	rt_agent_view v;
	*east = ok && rt_world_get_agent(w, 0, &v) ? v.position.x : NAN;
	const uint64_t h = ok ? rt_world_hash(w) : 0;
	rt_world_destroy(w);
	return h;
}

TEST(guard_escorts_and_a_ring_decide_alike_at_any_thread_count)
{
	double east1, east2;
	const uint64_t one = escorts_and_ring(1, &east1), two = escorts_and_ring(2, &east2);
	rt_test_note("2 minutes of 16 escorted generals and a ring of 1,000 (5,416 men): hash %016llx at 1 thread, %016llx at 2; the first general %.0f m east",
		     (unsigned long long)one, (unsigned long long)two, east1);
	CHECK(one != 0);
	CHECK_MSG(one == two, "hash %016llx at 1 thread, %016llx at 2", (unsigned long long)one, (unsigned long long)two);
	CHECK(east1 > 10.0); /* they marched */
	CHECK(rt_test_bytes_held() == 0);
}
