/* A man who rides is a rider whatever his kind (docs/model.md section 10b): a general on
 * his horse (kind commander, rt_agent_def.mounted, as a scenario's `mounted: true` makes
 * him) gallops at the charge and strikes home with his horse's weight, his horse tires,
 * he is not knocked down in a crush and weighs a horse in it, and his horse is counted
 * lost or taken with him. Each test sets him beside the same man on foot with a horse's
 * body and pace: what the world made of a mounted commander before he rode. */
#include "builders.h"
#include "rout/scenario.h"

#include <math.h>
#include <string.h>

/* ---- his horse tires (section 15) ---- */

#define TROTTERS 6 /* 0: a mounted commander; 1: a commander on foot with a horse's pace; 2..5: horse */

static bool trot_speeds(rt_world *w, double seconds, double speed[TROTTERS])
{
	rt_error err;
	const int steps = (int)floor(seconds / 0.5 + 0.5);
	for (int k = 0; k < TROTTERS; ++k) speed[k] = 0.0;
	for (int i = 0; i < steps; ++i) {
		if (rt_world_step(w, &err) != RT_OK) return false;
		for (int k = 0; k < TROTTERS; ++k) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)k, &v);
			speed[k] += hypot(v.velocity.x, v.velocity.y) / steps;
		}
	}
	return true;
}

/* A mounted commander, a commander on foot given a horse's pace, and four riders of kind
 * horse, 20 m apart, trot three hours toward a goal 59 km off. */
TEST(rides_a_mounted_commanders_horse_tires)
{
	rt_error err;
	rt_goal_id far = RT_NO_GOAL;
	rt_world *w = long_road_world(&far, &err);
	CHECK(w);
	if (!w) return;
	const rt_kind_params horse = rt_kind_params_default(RT_KIND_HORSE);
	for (int k = 0; k < TROTTERS; ++k) {
		rt_agent_def ad = rt_agent_def_default();
		ad.goal = far;
		ad.position = (rt_vec2){ 10.0, 10.0 + 20.0 * k };
		ad.kind = k < 2 ? RT_KIND_COMMANDER : RT_KIND_HORSE;
		ad.mounted = k == 0; /* his radius and pace left 0: a horse's */
		if (k == 1) {
			ad.radius_m = horse.radius_m;
			ad.free_speed_mps = horse.free_speed_mps;
		}
		CHECK_OK(rt_world_add_agent(w, &ad, NULL, &err), err);
	}
	rt_agent_view v;
	rt_world_get_agent(w, 0, &v);
	CHECK(v.mounted && v.kind == RT_KIND_COMMANDER);
	CHECK_NEAR(v.free_speed_mps, horse.free_speed_mps, 1e-6); /* a mounted man's default body and pace */
	CHECK_NEAR(v.radius_m, horse.radius_m, 1e-6);
	rt_world_get_agent(w, 1, &v);
	CHECK(!v.mounted);
	rt_world_get_agent(w, 2, &v);
	CHECK(v.mounted); /* a man of kind horse rides without being told */

	double fresh[TROTTERS], last[TROTTERS], skip[TROTTERS];
	CHECK(trot_speeds(w, 60.0, fresh));
	CHECK(trot_speeds(w, 3.0 * 3600.0 - 120.0, skip));
	CHECK(trot_speeds(w, 60.0, last)); /* the last minute of the third hour */
	float fatigue[TROTTERS], legs[TROTTERS];
	for (int k = 0; k < TROTTERS; ++k) {
		rt_world_get_agent(w, (rt_agent_id)k, &v);
		fatigue[k] = v.horse_fatigue;
		legs[k] = v.fatigue;
	}
	rt_world_destroy(w);
	double riders_drop = 0.0, riders_fatigue = 0.0;
	for (int k = 2; k < TROTTERS; ++k) {
		riders_drop += (1.0 - last[k] / fresh[k]) / (TROTTERS - 2);
		riders_fatigue += fatigue[k] / (TROTTERS - 2);
	}
	const double drop = 1.0 - last[0] / fresh[0], foot_drop = 1.0 - last[1] / fresh[1];
	rt_test_note("three hours at the trot: the mounted commander %.2f -> %.2f m/s (%.1f %% slower, horse fatigue %.2f); "
		     "the riders %.1f %% slower (fatigue %.2f); the commander on foot at a horse's pace %.2f -> %.2f m/s (horse fatigue "
		     "%.2f, his own legs' %.2f; the riders' legs %.2f)",
		     fresh[0], last[0], 100.0 * drop, fatigue[0], 100.0 * riders_drop, riders_fatigue, fresh[1], last[1], fatigue[1],
		     legs[1], legs[2]);
	CHECK_NEAR(fresh[0], horse.free_speed_mps, 0.01 * horse.free_speed_mps);
	CHECK_NEAR(fatigue[0], riders_fatigue, 0.005);   /* his horse tires as theirs do */
	CHECK_NEAR(drop, riders_drop, 0.005);            /* and slows him as much */
	CHECK(drop > 0.30 && drop < 0.40);               /* docs/model.md section 15: 35 % in three hours */
	/* the man on foot has no horse to tire, but his own legs tire (docs/model.md section 15):
	 * at 3.5 m/s, far above the run, he is spent and goes at half his pace; a rider's legs
	 * do not tire (his horse carries him) */
	CHECK(fatigue[1] == 0.0f && legs[1] > 0.99f && legs[2] == 0.0f);
	CHECK(foot_drop > 0.45 && foot_drop < rt_stamina_params_default().foot_speed_loss + 0.01); /* spent in his first minute */

	/* horse_fatigue is a rider's: refused for a man on foot, taken for a mounted commander */
	w = long_road_world(&far, &err);
	CHECK(w);
	rt_agent_def ad = rt_agent_def_default();
	ad.kind = RT_KIND_COMMANDER;
	ad.position = (rt_vec2){ 10.0, 10.0 };
	ad.heading = (rt_vec2){ 1.0, 0.0 };
	ad.horse_fatigue = 0.5f;
	CHECK(rt_world_add_agent(w, &ad, NULL, &err) == RT_ERR_INVALID);
	rt_test_note("horse_fatigue for a commander on foot: %s", err.message);
	CHECK(strstr(err.message, "commander has no horse") && strstr(err.message, "horse_fatigue must be 0"));
	ad.mounted = true;
	CHECK_OK(rt_world_add_agent(w, &ad, NULL, &err), err);
	CHECK_OK(rt_world_step(w, &err), err);
	rt_world_get_agent(w, 0, &v);
	const double tired = horse.free_speed_mps * (1.0 - rt_stamina_params_default().speed_loss * 0.5);
	rt_test_note("a mounted commander whose horse is half spent rides at %.3f m/s (model %.3f)", hypot(v.velocity.x, v.velocity.y), tired);
	CHECK_NEAR(hypot(v.velocity.x, v.velocity.y), tired, 0.01);
	rt_world_destroy(w);
}

/* ---- he charges (section 8) ---- */

typedef enum charger { CHARGER_MOUNTED = 0, CHARGER_ON_FOOT, CHARGER_HORSE, CHARGERS } charger;

typedef struct charge_result {
	double top_speed;   /* his fastest in the last 100 m before contact, m/s */
	int64_t charges;    /* riders who struck home at a charge */
	int shaken;         /* of the ten, routing or down 10 s after contact */
} charge_result;

/* One man of side 1, advancing, 80 m from ten gunners standing in a knot (no rounds: the
 * question is the shock). Two minutes at most. */
static bool ride_at(uint64_t seed, charger who, charge_result *out)
{
	memset(out, 0, sizeof *out);
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.bounds_min = (rt_vec2){ -40, -40 };
	d.bounds_max = (rt_vec2){ 120, 40 };
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return false;
	bool ok = true;
	rt_agent_def man = rt_agent_def_default();
	man.kind = RT_KIND_GUNNER;
	man.ammunition = 0;
	for (int i = 0; i < 10 && ok; ++i) {
		const double a = 6.283185307179586 * i / 10.0, r = i < 4 ? 1.0 : 2.5;
		man.position = (rt_vec2){ r * cos(a), r * sin(a) };
		ok = rt_world_add_agent(w, &man, NULL, &err) == RT_OK;
	}
	const rt_kind_params horse = rt_kind_params_default(RT_KIND_HORSE);
	rt_agent_def rider = rt_agent_def_default();
	rider.kind = who == CHARGER_HORSE ? RT_KIND_HORSE : RT_KIND_COMMANDER;
	rider.mounted = who == CHARGER_MOUNTED;
	rider.radius_m = horse.radius_m;
	rider.free_speed_mps = horse.free_speed_mps;
	rider.side = 1;
	rider.stance = RT_STANCE_ADVANCE;
	rider.experience = RT_EXPERIENCE_VETERAN;
	rider.position = (rt_vec2){ 80.0, 0.0 };
	rt_agent_id id = 0;
	ok = ok && rt_world_add_agent(w, &rider, &id, &err) == RT_OK;
	int contact = -1;
	for (int step = 0; step < 1200 && ok && (contact < 0 || step < contact + 100); ++step) {
		ok = rt_world_step(w, &err) == RT_OK;
		rt_agent_view v;
		rt_world_get_agent(w, id, &v);
		if (contact < 0) {
			const double speed = hypot(v.velocity.x, v.velocity.y);
			if (v.position.x < 100.0 && speed > out->top_speed) out->top_speed = speed;
			if (v.state == RT_STATE_ENGAGED || !rt_state_is_active(v.state)) contact = step;
			for (int k = 0; k < 10 && contact < 0; ++k) {
				rt_agent_view t;
				rt_world_get_agent(w, (rt_agent_id)k, &t);
				if (t.state != RT_STATE_FORMED) contact = step;
			}
		}
	}
	for (int k = 0; k < 10; ++k) {
		rt_agent_view t;
		rt_world_get_agent(w, (rt_agent_id)k, &t);
		out->shaken += t.state == RT_STATE_ROUTING || !rt_state_is_active(t.state);
	}
	rt_world_stats st;
	rt_world_get_stats(w, &st);
	out->charges = st.charges;
	if (!ok) rt_test_note("charge: %s", err.message);
	rt_world_destroy(w);
	return ok && contact >= 0;
}

/* A lone rider rides at ten gunners from 80 m, 30 seeds: a mounted commander, the same
 * commander on foot with a horse's body and pace, a man of kind horse. */
TEST(rides_a_mounted_commander_charges)
{
	const int seeds = 30;
	static const char *const names[CHARGERS] = { "mounted commander", "commander on foot at a horse's pace", "man of kind horse" };
	double top[CHARGERS] = { 0 };
	int64_t charges[CHARGERS] = { 0 };
	int shaken[CHARGERS] = { 0 }, struck[CHARGERS] = { 0 };
	for (int seed = 1; seed <= seeds; ++seed)
		for (int k = 0; k < CHARGERS; ++k) {
			charge_result r;
			CHECK(ride_at((uint64_t)seed, (charger)k, &r));
			top[k] += r.top_speed / seeds;
			charges[k] += r.charges;
			struck[k] += r.charges > 0;
			shaken[k] += r.shaken;
		}
	for (int k = 0; k < CHARGERS; ++k)
		rt_test_note("%s: top speed %.2f m/s on the run-up, struck home at a charge in %d of %d seeds, %d of %d gunners routing or down 10 s after contact",
			     names[k], top[k], struck[k], seeds, shaken[k], 10 * seeds);
	const rt_combat_params cp = rt_combat_params_default();
	const double gallop = rt_kind_params_default(RT_KIND_HORSE).free_speed_mps * cp.charge_pace_factor;
	CHECK_NEAR(top[CHARGER_MOUNTED], gallop, 0.05 * gallop); /* he puts his horse to the gallop */
	CHECK(struck[CHARGER_MOUNTED] == seeds);                  /* and strikes home at a charge every time */
	CHECK(charges[CHARGER_ON_FOOT] == 0);                      /* a man on foot never charges ... */
	CHECK(top[CHARGER_ON_FOOT] < 1.05 * rt_kind_params_default(RT_KIND_HORSE).free_speed_mps); /* ... nor gallops */
	CHECK(struck[CHARGER_HORSE] == seeds);
	CHECK(shaken[CHARGER_MOUNTED] > shaken[CHARGER_ON_FOOT]);  /* the charge shakes the men he rides into */
}

/* ---- the crush (section 14) ---- */

typedef struct crush_toll {
	int foot_trampled, foot_falls, rider_falls, rider_trampled;
} crush_toll;

/* 600 routing foot at 3 /m2 run for a road 4 m wide, 120 men with a horse's body behind
 * them: horse, mounted commanders or commanders on foot. 90 s. A fall is counted each
 * step a man who was standing is down. */
#define CRUSH_STEPS 900
static bool crush_with(uint64_t seed, int riders_kind, crush_toll *out)
{
	memset(out, 0, sizeof *out);
	const funnel_def f = { .seed = seed, .threads = 1, .men = 600, .riders = 120, .routing = true, .density_per_m2 = 3.0,
			       .front_m = 36.0, .commanders = riders_kind != 0, .commanders_ride = riders_kind == 1 };
	rt_error err;
	rt_world *w = funnel_world(&f, &err);
	if (!w) {
		rt_test_note("funnel: %s", err.message);
		return false;
	}
	bool down[720] = { false };
	bool ok = true;
	for (int step = 0; step < CRUSH_STEPS && ok; ++step) {
		ok = rt_world_step(w, &err) == RT_OK;
		for (int id = 0; id < 720; ++id) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)id, &v);
			if (v.fallen && !down[id]) {
				if (id < 600) out->foot_falls++;
				else out->rider_falls++;
			}
			down[id] = v.fallen;
			if (step == CRUSH_STEPS - 1 && v.state == RT_STATE_DEAD_TRAMPLED) {
				if (id < 600) out->foot_trampled++;
				else out->rider_trampled++;
			}
		}
	}
	if (!ok) rt_test_note("step: %s", err.message);
	rt_world_destroy(w);
	return ok;
}

/* C2 with mounted commanders in place of the horse (2 seeds): they are not knocked down
 * and they press through the foot with a horse's weight, as the horse do (the same toll);
 * the same men on foot are knocked down and trampled themselves. */
TEST(rides_mounted_commanders_in_a_crush)
{
	const int seeds = 2;
	crush_toll sum[3];
	memset(sum, 0, sizeof sum);
	for (int seed = 1; seed <= seeds; ++seed)
		for (int k = 0; k < 3; ++k) {
			crush_toll t;
			CHECK(crush_with((uint64_t)seed, k, &t));
			sum[k].foot_trampled += t.foot_trampled;
			sum[k].foot_falls += t.foot_falls;
			sum[k].rider_falls += t.rider_falls;
			sum[k].rider_trampled += t.rider_trampled;
		}
	static const char *const names[3] = { "120 horse", "120 mounted commanders", "120 commanders on foot at a horse's pace and bulk" };
	for (int k = 0; k < 3; ++k)
		rt_test_note("%s behind 600 routing foot, %d seeds: foot knocked down %d times, %d trampled; the %s knocked down %d times, %d trampled",
			     names[k], seeds, sum[k].foot_falls, sum[k].foot_trampled, k ? "commanders" : "riders", sum[k].rider_falls,
			     sum[k].rider_trampled);
	CHECK(sum[1].rider_falls == 0 && sum[1].rider_trampled == 0);   /* a man on horseback is not knocked down */
	CHECK(sum[1].foot_trampled == sum[0].foot_trampled);            /* he weighs a horse in the crush: the horse's toll */
	CHECK(sum[1].foot_falls == sum[0].foot_falls);
	CHECK(sum[2].rider_falls >= 10 && sum[2].rider_trampled > 0);  /* on foot, they go down themselves */
}

/* ---- horses lost and taken (the report) ---- */

/* The mini scenario (scale 2: an agent is two men) with both red commanders taken at the
 * start and one of red_one's guards cut down: red's horses lost and taken, as the report
 * counts them, with red_one mounted (he and his guards ride) and on foot. */
TEST(rides_a_mounted_commander_taken_loses_his_horse)
{
	double lost[2], taken[2];
	for (int m = 0; m < 2; ++m) {
		const char *sets[] = { m ? "corps.red_one.mounted=true" : "corps.red_one.mounted=false",
				       "history.1.measure=sides.red.horses_lost", "history.2.measure=sides.red.horses_taken",
				       "history.2.percent=false" };
		rt_scenario *sc;
		rt_run *run;
		CHECK(mini_run(sets, 4, &sc, &run));
		rt_world *w = rt_run_world(run);
		rt_error err;
		int guard = -1;
		for (int c = 0; c < 2; ++c) { /* red_one and red_two */
			rt_corps_view cv;
			rt_world_get_corps(w, c, &cv);
			CHECK_OK(rt_world_set_agent_state(w, (rt_agent_id)cv.commander, RT_STATE_CAPTURED, &err), err);
			if (c == 0) guard = cv.commander + 1; /* his guards are added after him */
		}
		rt_agent_view g;
		CHECK(rt_world_get_agent(w, (rt_agent_id)guard, &g) && g.stance == RT_STANCE_GUARD && g.mounted == (m == 1));
		CHECK_OK(rt_world_set_agent_state(w, (rt_agent_id)guard, RT_STATE_DEAD_COMBAT, &err), err);
		double values[3];
		CHECK(rt_run_history_values(run, values, 3) == 3);
		lost[m] = values[1];
		taken[m] = values[2];
		rt_run_destroy(run);
		rt_scenario_destroy(sc);
	}
	rt_test_note("red's commanders taken and one of red_one's guards cut down: horses lost %.0f and taken %.0f with red_one "
		     "mounted, %.0f and %.0f with him on foot (a commander on foot has no horse)",
		     lost[1], taken[1], lost[0], taken[0]);
	CHECK(lost[1] == 3.0 && taken[1] == 3.0); /* his one horse (a commander is one man at any scale) and his guard's, two men an agent */
	CHECK(lost[0] == 0.0 && taken[0] == 0.0); /* on foot: no horse, and red_two's commander walks */
}
