/* Men at war, first mechanisms: sensing the nearest enemy, aimed fire and melee. The
 * two laws of Lanchester (1916) are the benchmarks (issue 4, acceptance 1 and 2): aimed
 * fire in which every man can shoot makes losses go with the enemy's number (square
 * law); melee limited by a frontage makes them go with the frontage (linear law). */
#include "builders.h"
#include "rout/env.h"

#include <stdlib.h>
#include <string.h>

typedef struct battle {
	int survivors[2];
	int initial[2];
	int by_state[2][RT_STATE_COUNT];
	double seconds;
} battle;

static void count(rt_world *w, battle *b)
{
	memset(b->by_state, 0, sizeof b->by_state);
	b->survivors[0] = b->survivors[1] = 0;
	int n = rt_world_agent_count(w);
	for (int id = 0; id < n; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		b->by_state[v.side][v.state]++;
		if (rt_state_is_active(v.state)) b->survivors[v.side]++;
	}
}

static bool run_until_one_side_left(rt_world *w, battle *b, int max_steps)
{
	rt_error err;
	for (int step = 0; step < max_steps; ++step) {
		if (rt_world_step(w, &err) != RT_OK) return false;
		count(w, b);
		if (b->survivors[0] == 0 || b->survivors[1] == 0) {
			rt_world_stats st;
			rt_world_get_stats(w, &st);
			b->seconds = st.time_s;
			return true;
		}
	}
	return false;
}

/* Two lines of archers 50 m apart, 1,000 against 800, equal weapons, all in range. */
static bool fire_fight(uint64_t seed, battle *b)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.bounds_min = (rt_vec2){ 0, 0 };
	d.bounds_max = (rt_vec2){ 1020, 80 };
	d.combat.sense_range_m = 1200.0;
	d.combat.sense_cell_m = 25.0;
	d.morale.rout_threshold = 0.0; /* Lanchester's men fight to the end */
	rt_kind_params *k = &d.kinds[RT_KIND_ARCHER];
	k->missile_range_m = 1200.0;
	k->missile_rate_per_s = 0.5;
	k->missile_hit_prob = 0.1;
	k->ammunition = 100000;
	k->melee_rate_per_s = 0.0;
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return false;
	rt_agent_def ad = rt_agent_def_default();
	ad.kind = RT_KIND_ARCHER;
	ad.equipment = RT_EQUIP_WEAPON | RT_EQUIP_MISSILE; /* no armour */
	const int sizes[2] = { 1000, 800 };
	for (int side = 0; side < 2; ++side) {
		ad.side = (uint8_t)side;
		for (int i = 0; i < sizes[side]; ++i) {
			ad.position = (rt_vec2){ 10.0 + 1000.0 * (i + 0.5) / sizes[side], side == 0 ? 15.0 : 65.0 };
			if (rt_world_add_agent(w, &ad, NULL, &err) != RT_OK) {
				rt_world_destroy(w);
				return false;
			}
		}
		b->initial[side] = sizes[side];
	}
	bool ok = run_until_one_side_left(w, b, 5000);
	rt_world_destroy(w);
	return ok;
}

/* Two columns of foot in a corridor 20 m wide close and fight hand to hand. */
static bool melee_fight(uint64_t seed, battle *b)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.bounds_min = (rt_vec2){ -1, -1 };
	d.bounds_max = (rt_vec2){ 120, 21 };
	d.morale.rout_threshold = 0.0; /* Lanchester's men fight to the end */
	rt_kind_params *k = &d.kinds[RT_KIND_FOOT];
	k->melee_rate_per_s = 1.0;
	k->melee_hit_prob = 0.5;
	/* swords: 0.3 m past body contact, so only the front rank fights - the frontage limit.
	 * With the default 0.8 m the second rank strikes past the first, and the deeper side,
	 * pressed closer, ends with 221 +- 6 instead of 200. */
	k->melee_reach_m = 0.3;
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return false;
	rt_world_add_wall(w, (rt_vec2){ -1, 0 }, (rt_vec2){ 120, 0 }, &err);
	rt_world_add_wall(w, (rt_vec2){ -1, 20 }, (rt_vec2){ 120, 20 }, &err);
	rt_agent_def ad = rt_agent_def_default();
	ad.kind = RT_KIND_FOOT;
	ad.stance = RT_STANCE_ADVANCE;
	ad.equipment = RT_EQUIP_WEAPON;
	const int sizes[2] = { 1000, 800 };
	for (int side = 0; side < 2; ++side) {
		ad.side = (uint8_t)side;
		/* ranks of 28 men, 0.7 m apart, facing each other across 4 m */
		for (int i = 0; i < sizes[side]; ++i) {
			int rank = i / 28, file = i % 28;
			double x = side == 0 ? 58.0 - 0.7 * rank : 62.0 + 0.7 * rank;
			ad.position = (rt_vec2){ x, 0.55 + 0.7 * file };
			if (rt_world_add_agent(w, &ad, NULL, &err) != RT_OK) {
				rt_world_destroy(w);
				return false;
			}
		}
		b->initial[side] = sizes[side];
	}
	bool ok = run_until_one_side_left(w, b, 6000);
	rt_world_destroy(w);
	return ok;
}

/* Runs `seeds` battles; checks conservation in each; returns mean and standard error of
 * the larger side's survivors. */
static bool survivors(bool (*fight)(uint64_t, battle *), int seeds, double *mean, double *se, double *seconds)
{
	double sum = 0.0, sum2 = 0.0, time = 0.0;
	for (int s = 1; s <= seeds; ++s) {
		battle b;
		memset(&b, 0, sizeof b);
		if (!fight((uint64_t)s, &b)) return false;
		for (int side = 0; side < 2; ++side) { /* conservation: every man is in some state */
			int total = 0;
			for (int st = 0; st < RT_STATE_COUNT; ++st) total += b.by_state[side][st];
			if (total != b.initial[side]) return false;
		}
		sum += b.survivors[0];
		sum2 += (double)b.survivors[0] * b.survivors[0];
		time += b.seconds;
	}
	*mean = sum / seeds;
	double var = (sum2 - sum * sum / seeds) / (seeds - 1);
	*se = sqrt(var / seeds);
	*seconds = time / seeds;
	return true;
}

TEST(combat_lanchester_square_law_aimed_fire)
{
	double mean, se, seconds;
	const int seeds = rt_test_seeds(50);
	CHECK(survivors(fire_fight, seeds, &mean, &se, &seconds));
	rt_test_note("1,000 v 800 archers: the larger side ends with %.1f +- %.1f (SE, %d seeds) after %.0f s; square law 600",
		     mean, se, seeds, seconds);
	if (!RT_TEST_SANITIZED) CHECK_NEAR(mean, 600.0, 3.0 * se);
}

TEST(combat_lanchester_linear_law_frontage_melee)
{
	double mean, se, seconds;
	const int seeds = rt_test_seeds(50);
	CHECK(survivors(melee_fight, seeds, &mean, &se, &seconds));
	rt_test_note("1,000 v 800 in a 20 m front: the larger side ends with %.1f +- %.1f (SE, %d seeds) after %.0f s; linear law 200",
		     mean, se, seeds, seconds);
	if (!RT_TEST_SANITIZED) CHECK_NEAR(mean, 200.0, 3.0 * se);
}

TEST(combat_kneeling_men_are_not_targets)
{
	/* a man who surrenders is passed over: nobody senses him as an enemy (C5) */
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	CHECK(w);
	rt_agent_def ad = rt_agent_def_default();
	ad.side = 0;
	ad.position = (rt_vec2){ 10, 10 };
	rt_agent_id hunter;
	CHECK_OK(rt_world_add_agent(w, &ad, &hunter, &err), err);
	ad.side = 1;
	ad.state = RT_STATE_SURRENDERED;
	ad.position = (rt_vec2){ 12, 10 };
	CHECK_OK(rt_world_add_agent(w, &ad, NULL, &err), err);
	ad.state = RT_STATE_ROUTING;
	ad.position = (rt_vec2){ 30, 10 };
	rt_agent_id runner;
	CHECK_OK(rt_world_add_agent(w, &ad, &runner, &err), err);
	CHECK_OK(rt_world_step(w, &err), err);
	rt_agent_view v;
	rt_world_get_agent(w, hunter, &v);
	rt_world_destroy(w);
	CHECK_MSG(v.enemy == (int32_t)runner, "the hunter senses %d, expected the runner %u", v.enemy, runner);
	CHECK_NEAR(v.enemy_distance_m, 20.0, 1e-4);
}

/* The skirmish of builders.h, for determinism and out-of-memory checks. */
static rt_status skirmish(int threads, int steps, uint64_t *hash)
{
	rt_error err;
	rt_world *w = skirmish_world(threads, &err);
	if (!w) return err.code;
	rt_status s = RT_OK;
	for (int i = 0; i < steps && s == RT_OK; ++i) s = rt_world_step(w, &err);
	if (hash) *hash = rt_world_hash(w);
	rt_world_destroy(w);
	return s;
}

/* The state hash of the skirmish after 400 steps, every phase at work (sense, morale,
 * decide, move, fight, resolve). It changes only when the model changes on purpose;
 * then update it here and say why in the commit. */
#define SKIRMISH_HASH 0x5839ed5394f038f1ull

TEST(combat_determinism_all_phases)
{
	uint64_t one = 0, two = 0, again = 0;
	CHECK(skirmish(1, 400, &one) == RT_OK);
	CHECK(skirmish(2, 400, &two) == RT_OK);
	CHECK(skirmish(2, 400, &again) == RT_OK);
	rt_test_note("skirmish of 600 after 400 steps: %016llx at 1 thread, %016llx at 2, %016llx again", (unsigned long long)one,
		     (unsigned long long)two, (unsigned long long)again);
	CHECK(one == two && two == again);
	CHECK_MSG(one == SKIRMISH_HASH, "hash %016llx differs from the committed %016llx", (unsigned long long)one,
		  (unsigned long long)SKIRMISH_HASH);
}

TEST(combat_out_of_memory_sweep)
{
	rt_test_fail_allocation(-1);
	CHECK(skirmish(2, 3, NULL) == RT_OK);
	long needed = rt_test_allocations_made();
	for (long k = 0; k < needed; ++k) {
		rt_test_fail_allocation(k);
		rt_status s = skirmish(2, 3, NULL);
		rt_test_fail_allocation(-1);
		CHECK_MSG(s != RT_OK, "allocation %ld failed, yet the run reported success", k);
		CHECK_MSG(rt_test_bytes_held() == 0, "allocation %ld failed: %zu bytes leaked", k, rt_test_bytes_held());
	}
}

/* E1: by day a man sees the enemy 100 m off; at overcast new-moon midnight he does not. */
static int32_t sensed_at(int year, int month, int day, int hour, double cloud)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.bounds_max = (rt_vec2){ 150, 30 };
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return -2;
	rt_environment_def env = rt_environment_def_default();
	env.start_jd_ut = rt_julian_day_from_civil(year, month, day, hour, 0, 0.0, 8.0);
	env.latitude_deg = 41.03; /* Songshan */
	env.longitude_deg = 121.08;
	env.cloud_cover = cloud;
	rt_agent_def ad = rt_agent_def_default();
	ad.position = (rt_vec2){ 10, 10 };
	rt_agent_id hunter;
	bool ok = rt_world_set_environment(w, &env, &err) == RT_OK && rt_world_add_agent(w, &ad, &hunter, &err) == RT_OK;
	ad.side = 1;
	ad.position = (rt_vec2){ 110, 10 };
	ok = ok && rt_world_add_agent(w, &ad, NULL, &err) == RT_OK && rt_world_step(w, &err) == RT_OK;
	rt_agent_view v;
	rt_world_get_agent(w, hunter, &v);
	rt_environment_state st;
	rt_world_get_environment(w, &st);
	rt_test_note("%04d-%02d-%02d %02d:00, cloud %.0f%%: %.4g lux, a man seen at %.0f m, told at %.0f m; enemy at 100 m sensed: %s",
		     year, month, day, hour, 100.0 * cloud, st.illuminance_lux, st.detection_range_m, st.identification_range_m,
		     v.enemy >= 0 ? "yes" : "no");
	rt_world_destroy(w);
	return ok ? v.enemy : -2;
}

TEST(combat_night_hides_the_enemy)
{
	CHECK(sensed_at(1641, 9, 25, 12, 0.0) == 1);   /* noon */
	CHECK(sensed_at(1641, 10, 5, 0, 1.0) == -1);   /* overcast, new moon, midnight */
}

/* C5: twenty men kneel between a troop of horse and twenty men running away. The horse
 * ride past the kneeling to cut down or take the runners, then come back for the
 * kneeling, who are taken, not killed. */
TEST(combat_pursuers_pass_the_kneeling_and_take_them_later)
{
	const int seeds = rt_test_seeds(50);
	int kneeling_total = 0, captured = 0, killed = 0, runners_first = 0;
	for (int seed = 1; seed <= seeds; ++seed) {
		rt_world_def d = rt_world_def_default();
		d.allocator = rt_test_allocator();
		d.seed = (uint64_t)seed;
		d.bounds_min = (rt_vec2){ -100, -50 };
		d.bounds_max = (rt_vec2){ 400, 50 };
		rt_error err;
		rt_world *w = rt_world_create(&d, &err);
		CHECK(w);
		rt_agent_def man = rt_agent_def_default();
		man.state = RT_STATE_SURRENDERED;
		for (int i = 0; i < 20; ++i) { /* the kneeling, 20-30 m in front of the horse */
			man.position = (rt_vec2){ 20.0 + 2.5 * (i / 5), -5.0 + 2.5 * (i % 5) };
			CHECK_OK(rt_world_add_agent(w, &man, NULL, &err), err);
		}
		man.state = RT_STATE_ROUTING;
		for (int i = 0; i < 20; ++i) { /* the runners, 40-50 m in front */
			man.position = (rt_vec2){ 40.0 + 2.5 * (i / 5), -5.0 + 2.5 * (i % 5) };
			CHECK_OK(rt_world_add_agent(w, &man, NULL, &err), err);
		}
		rt_agent_def horse = rt_agent_def_default();
		horse.kind = RT_KIND_HORSE;
		horse.side = 1;
		horse.stance = RT_STANCE_ADVANCE;
		horse.experience = RT_EXPERIENCE_VETERAN;
		for (int i = 0; i < 10; ++i) {
			horse.position = (rt_vec2){ 0.0 + 2.0 * (i / 5), -4.0 + 2.0 * (i % 5) };
			CHECK_OK(rt_world_add_agent(w, &horse, NULL, &err), err);
		}
		double first_runner_down = -1.0, first_capture = -1.0;
		for (int step = 0; step < 15000; ++step) { /* 25 minutes */
			CHECK_OK(rt_world_step(w, &err), err);
			int runners_left = 0, kneeling_left = 0;
			for (int id = 0; id < 40; ++id) {
				rt_agent_view v;
				rt_world_get_agent(w, (rt_agent_id)id, &v);
				if (id < 20) {
					kneeling_left += v.state == RT_STATE_SURRENDERED;
					if (v.state == RT_STATE_CAPTURED && first_capture < 0.0) first_capture = step * d.dt_s;
				} else {
					runners_left += v.state == RT_STATE_ROUTING;
					if (v.state != RT_STATE_ROUTING && first_runner_down < 0.0) first_runner_down = step * d.dt_s;
				}
			}
			if (kneeling_left == 0 && runners_left == 0) break;
		}
		for (int id = 0; id < 20; ++id) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)id, &v);
			kneeling_total++;
			captured += v.state == RT_STATE_CAPTURED;
			killed += v.state == RT_STATE_DEAD_COMBAT;
		}
		runners_first += first_runner_down >= 0.0 && (first_capture < 0.0 || first_runner_down < first_capture);
		rt_world_destroy(w);
	}
	rt_test_note("of %d kneeling men %d were taken and %d killed; the horse reached a runner before taking anyone in %d of %d seeds",
		     kneeling_total, captured, killed, runners_first, seeds);
	CHECK_RATE(captured * 10 >= kneeling_total * 9);
	CHECK_RATE(runners_first * 10 >= seeds * 9);
	CHECK(captured > 0 && runners_first > 0);
}

/* C5: the kneeling are taken by an enemy who stops beside them, though others still run
 * within his reach. Ten horse stand in a file, two kneeling men beside each, and twenty
 * men run from 100 m off; the horse hold (stand) or advance (ride after the runners).
 * Returns how many kneeling men are taken in the first ten seconds. */
static int taken_beside(uint64_t seed, uint8_t stance)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.bounds_min = (rt_vec2){ -100, -100 };
	d.bounds_max = (rt_vec2){ 600, 100 };
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return -1;
	bool ok = true;
	rt_agent_def man = rt_agent_def_default();
	man.state = RT_STATE_SURRENDERED;
	for (int i = 0; i < 20 && ok; ++i) { /* 1.5 m either side of a horse */
		man.position = (rt_vec2){ (i % 2 ? 1.5 : -1.5), 3.0 * (i / 2) };
		ok = rt_world_add_agent(w, &man, NULL, &err) == RT_OK;
	}
	man.state = RT_STATE_ROUTING;
	for (int i = 0; i < 20 && ok; ++i) {
		man.position = (rt_vec2){ 100.0 + 2.5 * (i / 5), 10.0 + 2.5 * (i % 5) };
		ok = rt_world_add_agent(w, &man, NULL, &err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.stance = stance;
	horse.experience = RT_EXPERIENCE_VETERAN;
	for (int i = 0; i < 10 && ok; ++i) {
		horse.position = (rt_vec2){ 0.0, 3.0 * i };
		ok = rt_world_add_agent(w, &horse, NULL, &err) == RT_OK;
	}
	for (int step = 0; ok && step * d.dt_s < 10.0; ++step) ok = rt_world_step(w, &err) == RT_OK;
	int taken = 0, runners_near = 0;
	for (int id = 0; id < 40; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		if (id < 20) taken += v.state == RT_STATE_CAPTURED;
		else runners_near += rt_state_is_active(v.state) && v.state != RT_STATE_SURRENDERED && v.position.x < 300.0;
	}
	rt_world_destroy(w);
	return ok && runners_near > 0 ? taken : -1; /* the runners, or those who rallied, still within the horse's reach */
}

TEST(combat_men_standing_beside_the_kneeling_take_them)
{
	const int seeds = 10;
	int standing = 0, riding = 0;
	for (int seed = 1; seed <= seeds; ++seed) {
		const int h = taken_beside((uint64_t)seed, RT_STANCE_HOLD), r = taken_beside((uint64_t)seed, RT_STANCE_ADVANCE);
		CHECK(h >= 0 && r >= 0);
		standing += h;
		riding += r;
	}
	rt_test_note("%d seeds, 20 kneeling men beside 10 horse, runners 100 m off: in ten seconds %d taken by horse standing, "
		     "%d by horse riding after the runners", seeds, standing, riding);
	CHECK(standing == 20 * seeds);
	CHECK(riding == 0);
}

/* M7: 300 men stand broken-spirited (morale 0.2) in a knot; 400 horse ordered to contain
 * them at 500 paces (800 m) ride in from 1,000 m. With the ring all round, the men have
 * no way out and turn desperate rather than running; with the horse on one side only,
 * they run. The ring holds 800 m +- 15 % and kills nobody. */
static bool ring(bool all_round, double sense_range_m, double *mean_distance, int *killed, int *desperate, int *routing)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.bounds_min = (rt_vec2){ -1500, -1500 };
	d.bounds_max = (rt_vec2){ 1500, 1500 };
	if (sense_range_m > 0.0) d.combat.sense_range_m = sense_range_m;
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return false;
	rt_agent_def man = rt_agent_def_default();
	man.morale = 0.2f;
	bool ok = true;
	for (int i = 0; i < 300 && ok; ++i) {
		man.position = (rt_vec2){ -15.0 + 1.5 * (i % 20), -11.0 + 1.5 * (i / 20) };
		ok = rt_world_add_agent(w, &man, NULL, &err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.stance = RT_STANCE_CONTAIN;
	horse.experience = RT_EXPERIENCE_VETERAN;
	for (int i = 0; i < 400 && ok; ++i) {
		double angle = (all_round ? 6.283185307179586 : 1.5707963267948966) * (i + 0.5) / 400.0;
		horse.position = (rt_vec2){ 1000.0 * cos(angle), 1000.0 * sin(angle) };
		ok = rt_world_add_agent(w, &horse, NULL, &err) == RT_OK;
	}
	for (int s = 0; s < 1200 && ok; ++s) ok = rt_world_step(w, &err) == RT_OK; /* two minutes */
	*killed = *desperate = *routing = 0;
	for (int id = 0; id < 300; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		*killed += v.state == RT_STATE_DEAD_COMBAT;
		*desperate += v.state == RT_STATE_DESPERATE;
		*routing += v.state == RT_STATE_ROUTING;
	}
	double sum = 0.0;
	int counted = 0;
	for (int id = 300; id < 700; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		if (v.enemy < 0) continue;
		sum += v.enemy_distance_m;
		counted++;
	}
	*mean_distance = counted ? sum / counted : 0.0;
	rt_world_destroy(w);
	return ok;
}

TEST(combat_containment_at_five_hundred_paces)
{
	double distance;
	int killed, desperate, routing;
	CHECK(ring(true, 1500.0, &distance, &killed, &desperate, &routing)); /* by day, on open ground */
	rt_test_note("ring all round: held at %.0f m (800 +- 15 %%); of 300 inside %d desperate, %d running, %d killed", distance,
		     desperate, routing, killed);
	CHECK_NEAR(distance, 800.0, 0.15 * 800.0);
	CHECK(killed == 0);
	CHECK(desperate > 250 && routing == 0);
	CHECK(ring(false, 1500.0, &distance, &killed, &desperate, &routing));
	rt_test_note("horse on one side only: %d desperate, %d running", desperate, routing);
	CHECK(desperate == 0 && routing > 250);
	/* with the default sight (300 m) the men of the ring still watch those they contain
	 * out to contain_watch_m, so the ring keeps 500 paces, not the 300 m they could see
	 * (the same code as the first ring: not again under the sanitizers, for time) */
	if (RT_TEST_SANITIZED) return;
	CHECK(ring(true, 0.0, &distance, &killed, &desperate, &routing));
	rt_test_note("ring all round, default sight: held at %.0f m; %d killed", distance, killed);
	CHECK_NEAR(distance, 800.0, 0.15 * 800.0);
	CHECK(killed == 0);
}

/* M7, a breakout: 100 broken men run for a refuge 1.6 km east; 200 horse of a corps with
 * a pursuit doctrine (all out), ordered to contain them, stand in a line 2.5 m apart
 * across their way 800 m off. The ring gives no ground to men coming at it and strikes
 * those who reach it; it neither pursues nor shoots. barred_range_m: how far the broken
 * men see the way barred (0: they run at the line blind, as in the dark). */
static bool breakout(uint64_t seed, double barred_range_m, int *through, int *stopped, double *line_x)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.morale.barred_range_m = barred_range_m;
	d.bounds_min = (rt_vec2){ -1500, -1500 };
	d.bounds_max = (rt_vec2){ 1500, 1500 };
	d.dt_s = 0.5; /* as the scenarios */
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return false;
	rt_goal_def g = rt_goal_def_default();
	g.target_min = (rt_vec2){ 1200, -1500 };
	g.target_max = (rt_vec2){ 1300, 1500 };
	g.straight = true;
	g.arrival = RT_ARRIVAL_LEAVE;
	rt_goal_id refuge = RT_NO_GOAL;
	bool ok = rt_world_add_goal(w, &g, &refuge, &err) == RT_OK;
	rt_corps_def cd = rt_corps_def_default();
	cd.side = 1;
	cd.pursue_ratio = 1.0;
	cd.all_out_threshold = 10;
	rt_corps_id ring_corps = 0;
	ok = ok && rt_world_add_corps(w, &cd, &ring_corps, &err) == RT_OK;
	rt_agent_def man = rt_agent_def_default();
	man.morale = 0.1f;
	man.flee_goal = refuge;
	for (int i = 0; i < 100 && ok; ++i) {
		man.position = (rt_vec2){ -300.0 + 1.5 * (i / 10), -7.0 + 1.5 * (i % 10) };
		ok = rt_world_add_agent(w, &man, NULL, &err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.stance = RT_STANCE_CONTAIN;
	horse.experience = RT_EXPERIENCE_VETERAN;
	horse.corps = ring_corps;
	for (int i = 0; i < 200 && ok; ++i) {
		horse.position = (rt_vec2){ 500.0, -250.0 + 2.5 * i };
		ok = rt_world_add_agent(w, &horse, NULL, &err) == RT_OK;
	}
	for (int s = 0; s < 1800 && ok; ++s) ok = rt_world_step(w, &err) == RT_OK; /* 15 minutes */
	*through = *stopped = 0;
	for (int id = 0; id < 100; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		*through += v.state == RT_STATE_ESCAPED || (v.state <= RT_STATE_DESPERATE && v.position.x > 550.0); /* through the line */
		*stopped += v.state == RT_STATE_DEAD_COMBAT || v.state == RT_STATE_SURRENDERED || v.state == RT_STATE_CAPTURED;
	}
	double sum = 0.0;
	for (int id = 100; id < 300; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		sum += v.position.x;
		ok = ok && v.stance == RT_STANCE_CONTAIN;
	}
	*line_x = sum / 200.0;
	rt_world_destroy(w);
	return ok;
}

TEST(combat_ring_meets_a_breakout)
{
	/* ten seeds: how many get through one seed's line swings from a fifth to a half */
	const int seeds = 10;
	int through = 0, stopped = 0, worst = 0;
	double line_x = 0.0;
	for (int seed = 1; seed <= seeds; ++seed) {
		int t, st;
		double x;
		CHECK(breakout((uint64_t)seed, 0.0, &t, &st, &x));
		through += t;
		stopped += st;
		line_x += x / seeds;
		if (t > worst) worst = t;
	}
	rt_test_note("100 broken men run at a line of 200 containing horse 800 m off, %d seeds: %.1f got through (at most %d), "
		     "%.1f struck down, kneeling or taken; the line stands at x = %.0f m (was 500)",
		     seeds, (double)through / seeds, worst, (double)stopped / seeds, line_x);
	/* a line that gave way let them all through (before the ring kept its ground); before
	 * a caught man's kneeling waited on his legs (docs/model.md section 15) 40 of 100 got
	 * through and 60 were stopped: fresh from 800 m of running, more of them now run on */
	CHECK(through * 4 < 300 * seeds);
	CHECK(stopped * 3 > 100 * seeds);
	CHECK_NEAR(line_x, 500.0, 50.0);
	/* by day, seeing the line across their way (E5, C2: morale.barred_range_m, 1 km), the
	 * broken men stop where they are and do not run at it; the line stands */
	int seen_through = 0, seen_stopped = 0;
	double seen_line = 0.0;
	for (int seed = 1; seed <= 3; ++seed) {
		int t, st;
		double x;
		CHECK(breakout((uint64_t)seed, rt_morale_params_default().barred_range_m, &t, &st, &x));
		seen_through += t;
		seen_stopped += st;
		seen_line += x / 3.0;
	}
	rt_test_note("seeing the line across their way, 3 seeds: %d got through, %d struck down, kneeling or taken; the line at x = %.0f m",
		     seen_through, seen_stopped, seen_line);
	CHECK(seen_through == 0 && seen_stopped == 0);
	CHECK_NEAR(seen_line, 500.0, 50.0);
}

/* M5: 60 men (15 archers, 45 foot) in a ring of wagons, or the same men in the open,
 * against 180 horse archers, three to one, who close and fight. The wagons keep the
 * riders' sabres off and take most of their arrows: the laager holds longer (time until
 * half the men are down). */
static bool laager(uint64_t seed, bool wagons, double *held_s)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.bounds_min = (rt_vec2){ -150, -150 };
	d.bounds_max = (rt_vec2){ 150, 150 };
	d.morale.rout_threshold = 0.0; /* they fight to the end: the question is how long */
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return false;
	bool ok = true;
	if (wagons) { /* 16 wagons, 2.5 m x 1.2 m, end to end round a circle of 8 m */
		for (int k = 0; k < 16 && ok; ++k) {
			double a0 = 6.283185307179586 * k / 16.0, c = cos(a0), s = sin(a0);
			double r0 = 8.0, r1 = 9.2, half = 1.6;
			rt_vec2 p[4] = { { r0 * c - half * s, r0 * s + half * c }, { r1 * c - half * s, r1 * s + half * c },
					 { r1 * c + half * s, r1 * s - half * c }, { r0 * c + half * s, r0 * s - half * c } };
			ok = rt_world_add_obstacle(w, p, 4, &err) == RT_OK;
		}
	}
	rt_agent_def man = rt_agent_def_default();
	for (int i = 0; i < 60 && ok; ++i) {
		man.kind = i % 4 == 0 ? RT_KIND_ARCHER : RT_KIND_FOOT;
		double r = 1.5 + 5.5 * ((i % 4) / 3.0), angle = 6.283185307179586 * (i / 4) / 15.0 + 0.3 * (i % 4);
		man.position = (rt_vec2){ r * cos(angle), r * sin(angle) };
		ok = rt_world_add_agent(w, &man, NULL, &err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE_ARCHER;
	horse.side = 1;
	horse.stance = RT_STANCE_ADVANCE;
	for (int i = 0; i < 180 && ok; ++i) {
		double angle = 6.283185307179586 * i / 180.0, r = 60.0 + 3.0 * (i % 3);
		horse.position = (rt_vec2){ r * cos(angle), r * sin(angle) };
		ok = rt_world_add_agent(w, &horse, NULL, &err) == RT_OK;
	}
	/* how long until half of them are down (ten minutes at most) */
	*held_s = 600.0;
	for (int s = 0; s < 6000 && ok; ++s) {
		ok = rt_world_step(w, &err) == RT_OK;
		int standing = 0;
		for (int id = 0; id < 60; ++id) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)id, &v);
			standing += rt_state_is_active(v.state);
		}
		if (standing <= 30) {
			*held_s = (s + 1) * d.dt_s;
			break;
		}
	}
	rt_world_destroy(w);
	return ok;
}

TEST(combat_wagon_laager_holds_longer_than_the_open)
{
	const int seeds = rt_test_seeds(50);
	double in_laager = 0.0, in_open = 0.0;
	int laager_longer = 0;
	for (int s = 1; s <= seeds; ++s) {
		double a = 0.0, b = 0.0;
		CHECK(laager((uint64_t)s, true, &a));
		CHECK(laager((uint64_t)s, false, &b));
		in_laager += a;
		in_open += b;
		laager_longer += a > b;
	}
	rt_test_note("against three times their number of horse archers, half the 60 were down after %.0f s in the laager and %.0f s in the open (mean, 600 = held); the laager held longer in %d of %d seeds",
		     in_laager / seeds, in_open / seeds, laager_longer, seeds);
	CHECK_RATE(in_laager > in_open);
	CHECK_RATE(laager_longer * 10 >= seeds * 8);
}

/* A chase: `foot` men like `man` (side 0) in files of `rows`, 1.2 m apart, from x = x0,
 * and `riders` veteran horse (side 1, advancing) in files of `rider_rows`, 2 m apart,
 * behind x = 0, both centred on y = 0, in a world from x = -x_back to x_ahead, under
 * `env` if given; *out NULL if it cannot be made (a CHECK has failed). */
static void chase_world(uint64_t seed, double x_back, double x_ahead, const rt_environment_def *env, const rt_agent_def *man,
			int foot, int rows, double x0, int riders, int rider_rows, rt_world **out)
{
	*out = NULL;
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.bounds_min = (rt_vec2){ -x_back, -50 };
	d.bounds_max = (rt_vec2){ x_ahead, 50 };
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	CHECK(w);
	if (!w) return;
	*out = w; /* the caller destroys it, whatever fails below */
	if (env) CHECK_OK(rt_world_set_environment(w, env, &err), err);
	rt_agent_def m = *man;
	for (int i = 0; i < foot; ++i) {
		m.position = (rt_vec2){ x0 + 1.2 * (i / rows), -0.6 * (rows - 1) + 1.2 * (i % rows) };
		CHECK_OK(rt_world_add_agent(w, &m, NULL, &err), err);
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.stance = RT_STANCE_ADVANCE;
	horse.experience = RT_EXPERIENCE_VETERAN;
	for (int i = 0; i < riders; ++i) {
		horse.position = (rt_vec2){ -2.0 * (i / rider_rows), -(rider_rows - 1) + 2.0 * (i % rider_rows) };
		CHECK_OK(rt_world_add_agent(w, &horse, NULL, &err), err);
	}
}

/* Adds to *first the men of ids 0..split-1 dead in combat, to *rest those of split..all-1. */
static void count_fallen(const rt_world *w, int split, int all, int *first, int *rest)
{
	for (int id = 0; id < all; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		if (v.state == RT_STATE_DEAD_COMBAT) ++*(id < split ? first : rest);
	}
}

/* Facing: 40 foot caught by 12 horse, 60 s. Marching off with their backs to the horse,
 * they strike no blow and are struck unguarded; standing in their ranks, they turn and
 * fight. Summed over 30 seeds. */
static void caught_from_behind(bool marching, int *horse_lost, int *horse_lost_facing_away, int *foot_lost)
{
	*horse_lost = *horse_lost_facing_away = *foot_lost = 0;
	rt_agent_def man = rt_agent_def_default();
	man.experience = RT_EXPERIENCE_VETERAN; /* steady men: the difference is where they face */
	man.state = marching ? RT_STATE_MARCHING : RT_STATE_FORMED;
	man.heading = marching ? (rt_vec2){ 1.0, 0.0 } : (rt_vec2){ 0.0, 0.0 };
	for (int seed = 1; seed <= 30; ++seed) {
		rt_world *w;
		chase_world((uint64_t)seed, 100, 400, NULL, &man, 40, 8, 10.0, 12, 6, &w);
		if (!w) return;
		rt_error err;
		for (int step = 0; step < 600; ++step) CHECK_OK(rt_world_step(w, &err), err);
		int horse_here = 0;
		count_fallen(w, 40, 52, foot_lost, &horse_here);
		*horse_lost += horse_here;
		rt_world_stats st;
		rt_world_get_stats(w, &st);
		/* a man who turned desperate (M7: broke with horse on every side) faces and fights */
		if (st.desperate == 0) *horse_lost_facing_away += horse_here;
		rt_world_destroy(w);
	}
}

TEST(combat_men_caught_from_behind_strike_no_blow)
{
	int horse_marching, horse_marching_away, foot_marching, horse_formed, horse_formed_away, foot_formed;
	caught_from_behind(true, &horse_marching, &horse_marching_away, &foot_marching);
	caught_from_behind(false, &horse_formed, &horse_formed_away, &foot_formed);
	rt_test_note("30 seeds, 60 s: marching off, the foot lose %d and kill %d horse (%d in the seeds where none of them "
		     "turned desperate); formed and facing, they lose %d and kill %d",
		     foot_marching, horse_marching, horse_marching_away, foot_formed, horse_formed);
	CHECK(horse_marching_away == 0);     /* no blow at a man behind you */
	CHECK(horse_marching * 20 < horse_formed); /* the few who turn at bay (M7) hurt the horse little */
	CHECK(horse_formed >= 5);            /* men who face the horse hurt it */
	CHECK(2 * foot_marching > foot_formed); /* and a column caught from behind is cut down all the same */
}

/* M4: 60 veteran foot walk for three minutes toward a refuge 200 m off, through 12 horse
 * holding their ground 40 m ahead. In flight (their commander left at the first round,
 * and they march off after him) they strike no one, even the horse in their way; sent
 * there by an order, the same men fight whom they meet. The horse strike whoever comes in
 * reach either way. Summed over 20 seeds. The men in flight do not see the way barred
 * (morale.barred_range_m 0): seeing the horse in their way they would stop short of them
 * (combat_foot_in_flight_stop_before_the_enemy_in_their_way), and whether they strike
 * would not be tried. */
static void column_meets_a_post(bool flight, int *horse_lost, int *foot_lost)
{
	*horse_lost = *foot_lost = 0;
	for (int seed = 1; seed <= 20; ++seed) {
		rt_world_def d = rt_world_def_default();
		d.allocator = rt_test_allocator();
		d.seed = (uint64_t)seed;
		d.bounds_min = (rt_vec2){ -20, -60 };
		d.bounds_max = (rt_vec2){ 220, 60 };
		d.command.decision_interval_s = 2.0;
		d.command.base_hazard_per_h = 1000.0; /* a craven commander goes in the first seconds */
		d.morale.barred_range_m = 0.0;
		rt_error err;
		rt_world *w = rt_world_create(&d, &err);
		CHECK(w);
		if (!w) return;
		rt_goal_def g = rt_goal_def_default();
		g.target_min = (rt_vec2){ 200, -60 };
		g.target_max = (rt_vec2){ 220, 60 };
		g.straight = true;
		rt_goal_id home;
		CHECK_OK(rt_world_add_goal(w, &g, &home, &err), err);
		rt_corps_def cd = rt_corps_def_default();
		cd.courage = flight ? 0.0 : 1.0;
		cd.refuge = flight ? home : RT_NO_GOAL; /* ordered: he cannot leave; his men march */
		rt_corps_id corps;
		CHECK_OK(rt_world_add_corps(w, &cd, &corps, &err), err);
		rt_agent_def man = rt_agent_def_default();
		man.corps = corps;
		man.experience = RT_EXPERIENCE_VETERAN;
		man.state = flight ? RT_STATE_FORMED : RT_STATE_MARCHING;
		man.goal = flight ? RT_NO_GOAL : home;
		rt_agent_id commander = 0;
		for (int i = 0; i < 61; ++i) {
			man.kind = i == 60 ? RT_KIND_COMMANDER : RT_KIND_FOOT;
			man.position = i == 60 ? (rt_vec2){ -15.0, 0.0 } : (rt_vec2){ 1.2 * (i / 10), -5.4 + 1.2 * (i % 10) };
			CHECK_OK(rt_world_add_agent(w, &man, i == 60 ? &commander : NULL, &err), err);
		}
		CHECK_OK(rt_world_set_corps_commander(w, corps, commander, &err), err);
		rt_agent_def horse = rt_agent_def_default();
		horse.kind = RT_KIND_HORSE;
		horse.side = 1;
		horse.stance = RT_STANCE_HOLD;
		horse.experience = RT_EXPERIENCE_VETERAN;
		for (int i = 0; i < 12; ++i) {
			horse.position = (rt_vec2){ 50.0 + 2.0 * (i / 6), -5.0 + 2.0 * (i % 6) };
			CHECK_OK(rt_world_add_agent(w, &horse, NULL, &err), err);
		}
		const int steps = (int)(180.0 / d.dt_s);
		for (int step = 0; step < steps; ++step) CHECK_OK(rt_world_step(w, &err), err);
		rt_corps_view cv;
		rt_world_get_corps(w, corps, &cv);
		CHECK(cv.left == flight);
		count_fallen(w, 61, 73, foot_lost, horse_lost);
		rt_world_destroy(w);
	}
}

TEST(combat_men_in_flight_strike_no_one_in_their_way)
{
	int horse_flight, foot_flight, horse_ordered, foot_ordered;
	column_meets_a_post(true, &horse_flight, &foot_flight);
	column_meets_a_post(false, &horse_ordered, &foot_ordered);
	rt_test_note("20 seeds, 3 min: in flight, the foot lose %d and kill %d horse; marching on orders, they lose %d and kill %d",
		     foot_flight, horse_flight, foot_ordered, horse_ordered);
	CHECK(horse_flight == 0);  /* no blow from a man in flight */
	CHECK(horse_ordered >= 5); /* the same men on orders fight their way */
	CHECK(foot_flight >= 5);   /* the post cuts down those who come in reach */
}

/* C5 and E1: twenty foot flee from ten horse 4 m behind them for five minutes, by day
 * (noon) and at an overcast new-moon midnight; counted over 30 seeds. By day the caught
 * mostly kneel and are taken; in the dark they seldom kneel, and of those caught a far
 * larger share is cut down. fatigue: how spent their legs are at the start (docs/model.md
 * section 15: a caught man kneels at a rate in proportion). */
/* a man on foot run out: his fatigue when his run has slowed to the walk, (1 - v_s / v_r) / L */
#define RUN_OUT ((float)((1.0 - rt_stamina_params_default().foot_sustained_speed_mps / \
			  rt_stamina_params_default().foot_reference_speed_mps) / rt_stamina_params_default().foot_speed_loss))
static void rout_at(int hour, int day, float fatigue, int *killed, int *taken)
{
	*killed = *taken = 0;
	rt_environment_def env = rt_environment_def_default();
	env.start_jd_ut = rt_julian_day_from_civil(1641, 10, day, hour, 0, 0.0, 8.0);
	env.latitude_deg = 41.03;
	env.longitude_deg = 121.08;
	env.cloud_cover = 1.0;
	rt_agent_def man = rt_agent_def_default();
	man.state = RT_STATE_ROUTING;
	man.heading = (rt_vec2){ 1.0, 0.0 };
	man.fatigue = fatigue;
	for (int seed = 1; seed <= 30; ++seed) {
		rt_world *w;
		chase_world((uint64_t)seed, 50, 800, &env, &man, 20, 5, 6.0, 10, 5, &w);
		if (!w) return;
		rt_error err;
		for (int step = 0; step < 3000; ++step) CHECK_OK(rt_world_step(w, &err), err);
		for (int id = 0; id < 20; ++id) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)id, &v);
			*killed += v.state == RT_STATE_DEAD_COMBAT;
			*taken += v.state == RT_STATE_SURRENDERED || v.state == RT_STATE_CAPTURED;
		}
		rt_world_destroy(w);
	}
}

TEST(morale_a_rout_by_night_is_cut_down)
{
	/* men who have run till they can run no faster than they walk (docs/model.md section
	 * 15): spent, so that whether they kneel is the light's */
	int day_killed, day_taken, night_killed, night_taken;
	rout_at(12, 5, RUN_OUT, &day_killed, &day_taken);
	rout_at(0, 5, RUN_OUT, &night_killed, &night_taken); /* 5 Oct 1641: new moon */
	const double day_share = (double)day_killed / (day_killed + day_taken);
	const double night_share = (double)night_killed / (night_killed + night_taken);
	rt_test_note("600 fleeing foot over 30 seeds: by day %d killed, %d kneeling or taken (%.0f %% of the caught killed); "
		     "at an overcast new-moon midnight %d killed, %d kneeling or taken (%.0f %%)", day_killed, day_taken,
		     100.0 * day_share, night_killed, night_taken, 100.0 * night_share);
	CHECK(day_taken > 2 * day_killed);      /* by day most of the caught are taken (71 %; 79 % before a
						 * run-out man's pace fell to the walk, section 15) */
	CHECK(night_share > 2.0 * day_share);   /* by night far more of them are cut down */
}

/* C5 ("很多明军跑不动，索性也不跑了，兵器一扔，就往地上一跪", seed 000): the same rout by day,
 * the men fresh or spent at the start. A caught man kneels at a rate in proportion to how
 * spent he is (docs/model.md sections 9 and 15): fresh men run on and are cut down, or
 * kneel only once the running has tired them; spent men kneel and are taken. */
TEST(morale_spent_men_kneel_fresh_men_run_on)
{
	int fresh_killed, fresh_taken, spent_killed, spent_taken;
	rout_at(12, 5, 0.0f, &fresh_killed, &fresh_taken);
	rout_at(12, 5, RUN_OUT, &spent_killed, &spent_taken);
	const double fresh_share = (double)fresh_taken / (fresh_killed + fresh_taken);
	const double spent_share = (double)spent_taken / (spent_killed + spent_taken);
	rt_test_note("600 foot fleeing by day, 30 seeds: fresh, %d killed and %d kneeling or taken (%.0f %% of the caught "
		     "taken); run out (fatigue %.2f), %d killed and %d taken (%.0f %%)", fresh_killed, fresh_taken,
		     100.0 * fresh_share, (double)RUN_OUT, spent_killed, spent_taken, 100.0 * spent_share);
	CHECK(fresh_killed + fresh_taken >= 150 && spent_killed + spent_taken >= 300); /* the horse catch many either way */
	/* the run out kneel; the fresh run on, and more of them are cut down, though five
	 * minutes' running tires them too (shares of 300-600 men: a standard error of 3 %) */
	CHECK(spent_share > 0.6);
	CHECK(fresh_share < spent_share - 0.1);
}

/* E1: one man on foot walking east for 60 s under an overcast sky near Songshan, at
 * noon, at dusk and at a new-moon midnight; in the dark he keeps dark_pace_factor
 * (0.35) of his day's pace, at dusk something between. */
static void walked_in_60s(int day, int hour, int minute, double *x)
{
	*x = -1.0;
	rt_environment_def env = rt_environment_def_default();
	env.start_jd_ut = rt_julian_day_from_civil(1641, 10, day, hour, minute, 0.0, 8.0);
	env.latitude_deg = 41.03;
	env.longitude_deg = 121.08;
	env.cloud_cover = 1.0;
	rt_agent_def man = rt_agent_def_default();
	man.heading = (rt_vec2){ 1.0, 0.0 };
	rt_world *w;
	chase_world(1, 10, 200, &env, &man, 1, 1, 0.0, 0, 1, &w);
	if (!w) return;
	rt_error err;
	rt_world_stats st = { 0 };
	while (st.time_s < 60.0 - 1e-9) {
		rt_world_get_stats(w, &st);
		if (st.time_s >= 60.0 - 1e-9) break;
		if (rt_world_step(w, &err) != RT_OK) {
			rt_world_destroy(w);
			CHECK_OK(RT_ERR_INVALID, err);
		}
	}
	rt_agent_view v;
	rt_world_get_agent(w, 0, &v);
	rt_world_destroy(w);
	*x = v.position.x;
}

TEST(night_slows_the_march)
{
	double noon, midnight, dusk;
	walked_in_60s(5, 12, 0, &noon);
	walked_in_60s(5, 0, 0, &midnight);
	walked_in_60s(5, 17, 50, &dusk); /* just after sunset: twilight, half dark */
	const rt_locomotion_params lp = rt_locomotion_params_default();
	rt_test_note("60 s on foot, overcast: %.1f m at noon, %.1f m at dusk, %.1f m at a new-moon midnight "
		     "(%.2f of noon's; dark_pace_factor %.2f)", noon, dusk, midnight, midnight / noon, lp.dark_pace_factor);
	CHECK_NEAR(noon, 60.0 * 1.34, 2.0);                        /* by day his free speed */
	CHECK_NEAR(midnight / noon, lp.dark_pace_factor, 0.02); /* in the dark, the share */
	CHECK(dusk < noon - 1.0 && dusk > midnight + 1.0);        /* in the twilight, between */
}

/* C5, quarter: 20 men kneeling in a file and two horse of a corps with the given quarter
 * standing at their head, for 60 s; how many were taken and how many cut down. */
static void kneeling_before(uint64_t seed, double quarter, int *taken, int *killed)
{
	*taken = *killed = 0;
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	CHECK(w);
	if (!w) return;
	rt_corps_def cd = rt_corps_def_default();
	cd.side = 1;
	cd.quarter = quarter;
	rt_corps_id corps;
	if (rt_world_add_corps(w, &cd, &corps, &err) != RT_OK) {
		rt_world_destroy(w);
		CHECK_OK(RT_ERR_INVALID, err);
	}
	rt_agent_def ad = rt_agent_def_default();
	ad.state = RT_STATE_SURRENDERED;
	bool added = true;
	for (int i = 0; i < 20 && added; ++i) {
		ad.position = (rt_vec2){ 10.0 + 1.5 * i, 10.0 };
		added = rt_world_add_agent(w, &ad, NULL, &err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.corps = corps;
	horse.stance = RT_STANCE_ADVANCE;
	for (int i = 0; i < 2 && added; ++i) {
		horse.position = (rt_vec2){ 8.0, 9.0 + 2.0 * i };
		added = rt_world_add_agent(w, &horse, NULL, &err) == RT_OK;
	}
	for (int step = 0; step < 600 && added; ++step) added = rt_world_step(w, &err) == RT_OK;
	CHECK(added);
	for (int id = 0; id < 20; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		*taken += v.state == RT_STATE_CAPTURED;
		*killed += v.state == RT_STATE_DEAD_COMBAT;
	}
	rt_world_destroy(w);
}

TEST(pursuers_without_quarter_cut_down_the_kneeling)
{
	int taken, killed;
	kneeling_before(1, 1.0, &taken, &killed);
	rt_test_note("quarter 1: %d of 20 taken, %d killed", taken, killed);
	CHECK(taken == 20 && killed == 0);
	kneeling_before(1, 0.0, &taken, &killed);
	rt_test_note("quarter 0: %d taken, %d killed", taken, killed);
	CHECK(taken == 0 && killed == 20);
	int all_taken = 0, all_killed = 0;
	for (uint64_t seed = 1; seed <= 10; ++seed) {
		kneeling_before(seed, 0.5, &taken, &killed);
		CHECK_MSG(taken + killed == 20, "seed %d: %d taken and %d killed of 20", (int)seed, taken, killed);
		CHECK_MSG(taken >= 3 && taken <= 17, "seed %d: %d of 20 taken at quarter 0.5", (int)seed, taken);
		all_taken += taken;
		all_killed += killed;
	}
	/* 200 men, each taken with probability 0.5: sd 7.1, so 100 +- 25 is 3.5 sd */
	rt_test_note("quarter 0.5, 10 seeds: %d taken, %d killed of 200", all_taken, all_killed);
	CHECK(all_taken >= 75 && all_taken <= 125);
}

/* E5: rivers are crossed only at fords, and a small force holding the ford stops a large
 * one ("张洪谟率部冲了几次，都没能过河", seed 000). A river 10 m wide (walls) with a ford
 * 20 m wide; 200 horse in flight come at it from 30-60 m north, making for open ground
 * 50 m south of it. With 50 veteran horse standing in the ford (10 across, 5 deep, stance
 * hold) hardly any get through in five minutes; with the ford open, most do. Returns how
 * many got away, and how many of the fugitives and of the holders fell. */
typedef enum ford_holders { FORD_STANDING, FORD_MARCHED_POSTED, FORD_MARCHED } ford_holders;

/* Who comes at the ford: `men` of `kind` in flight, in files 3 m apart for horse, 1.2 m
 * for foot, from 30 m north of it; the morale parameter barred_range_m (E5, C2). */
typedef struct ford_flight {
	rt_kind kind;
	int men;
	double barred_range_m;
	int files;                 /* 0: 20 for horse, 40 for foot */
	double halted_ahead_radii; /* morale.halted_ahead_radii */
} ford_flight;

typedef struct ford_outcome {
	int escaped, fugitives_dead, trampled, holders_dead;
	int64_t falls;  /* times a man was knocked down in the crush */
	double depth_m; /* from the nearest to the farthest fugitive in the field, north-south */
} ford_outcome;

static const ford_flight HORSE_FLIGHT = { RT_KIND_HORSE, 200, 1000.0, 0, 3.0 };

static bool through_the_ford_as(uint64_t seed, int holders, ford_holders how, const ford_flight *fl, ford_outcome *out)
{
	memset(out, 0, sizeof *out);
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.bounds_min = (rt_vec2){ -220, -80 };
	d.bounds_max = (rt_vec2){ 220, 140 };
	d.morale.barred_range_m = fl->barred_range_m;
	d.morale.halted_ahead_radii = fl->halted_ahead_radii;
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return false;
	rt_status s = RT_OK;
	const rt_vec2 banks[6][2] = { { { -200, 0 }, { -10, 0 } },   { { 10, 0 }, { 200, 0 } },  { { -200, -10 }, { -10, -10 } },
				      { { 10, -10 }, { 200, -10 } }, { { -10, 0 }, { -10, -10 } }, { { 10, 0 }, { 10, -10 } } };
	for (int i = 0; i < 6 && s == RT_OK; ++i) s = rt_world_add_wall(w, banks[i][0], banks[i][1], &err);
	rt_goal_def g = rt_goal_def_default();
	g.target_min = (rt_vec2){ -200, -60 };
	g.target_max = (rt_vec2){ 200, -50 };
	g.arrival = RT_ARRIVAL_LEAVE;
	g.field_cell_m = 1.0;
	rt_goal_id away = RT_NO_GOAL;
	if (s == RT_OK) s = rt_world_add_goal(w, &g, &away, &err);
	rt_agent_def h = rt_agent_def_default();
	h.kind = RT_KIND_HORSE;
	h.side = 1;
	h.experience = RT_EXPERIENCE_VETERAN;
	/* marched: they come from 30-48 m east along the north bank to the ford (its target
	 * the ford and 2 m of bank), a minute before the flight comes on */
	rt_goal_id ford = RT_NO_GOAL;
	if (how != FORD_STANDING && s == RT_OK) {
		rt_goal_def fg = rt_goal_def_default();
		fg.target_min = (rt_vec2){ -10, -10 };
		fg.target_max = (rt_vec2){ 10, 2 };
		fg.arrival = RT_ARRIVAL_STOP;
		fg.field_cell_m = 1.0;
		s = rt_world_add_goal(w, &fg, &ford, &err);
		h.goal = ford;
	}
	for (int i = 0; i < holders && s == RT_OK; ++i) {
		h.position = how == FORD_STANDING ? (rt_vec2){ -9.0 + 2.0 * (i % 10), -1.0 - 2.0 * (i / 10) }
						  : (rt_vec2){ 30.0 + 2.0 * (i % 10), 3.0 + 2.0 * (i / 10) };
		rt_agent_id id;
		s = rt_world_add_agent(w, &h, &id, &err);
		/* posted as a spread order posts them (run.c): 10 files, 5 ranks over the ford */
		if (s == RT_OK && how == FORD_MARCHED_POSTED)
			s = rt_world_set_agent_post(w, id, (rt_vec2){ -9.0 + 2.0 * (i % 10), -1.0 - 2.0 * (i / 10) }, &err);
	}
	for (int k = 0; how != FORD_STANDING && k < (int)(60.0 / d.dt_s) && s == RT_OK; ++k) s = rt_world_step(w, &err);
	rt_agent_def f = rt_agent_def_default();
	f.kind = fl->kind;
	f.state = RT_STATE_ROUTING;
	f.morale = 0.05f;
	f.goal = f.flee_goal = away;
	const bool horse = fl->kind == RT_KIND_HORSE;
	const int files = fl->files > 0 ? fl->files : (horse ? 20 : 40);
	const double gap = horse ? 3.0 : 1.2;
	for (int i = 0; i < fl->men && s == RT_OK; ++i) {
		f.position = (rt_vec2){ -0.5 * gap * (files - 1) + gap * (i % files), 30.0 + gap * (i / files) };
		s = rt_world_add_agent(w, &f, NULL, &err);
	}
	const int steps = (int)(300.0 / d.dt_s);
	for (int k = 0; k < steps && s == RT_OK; ++k) s = rt_world_step(w, &err);
	rt_world_stats stats;
	rt_world_get_stats(w, &stats);
	out->falls = stats.falls;
	double north = -INFINITY, south = INFINITY;
	for (int id = 0; id < holders + fl->men; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		const bool dead = v.state == RT_STATE_DEAD_COMBAT || v.state == RT_STATE_DEAD_TRAMPLED;
		if (id < holders) {
			out->holders_dead += dead;
		} else {
			out->escaped += v.state == RT_STATE_ESCAPED;
			out->fugitives_dead += dead;
			out->trampled += v.state == RT_STATE_DEAD_TRAMPLED;
			if (v.state == RT_STATE_ROUTING) {
				north = fmax(north, v.position.y);
				south = fmin(south, v.position.y);
			}
		}
	}
	out->depth_m = north >= south ? north - south : 0.0;
	rt_world_destroy(w);
	return s == RT_OK;
}

static int through_the_ford(uint64_t seed, int holders, int *fugitives_dead, int *holders_dead)
{
	ford_outcome o;
	if (!through_the_ford_as(seed, holders, FORD_STANDING, &HORSE_FLIGHT, &o)) return -1;
	*fugitives_dead = o.fugitives_dead;
	*holders_dead = o.holders_dead;
	return o.escaped;
}

TEST(combat_a_ford_held_stops_a_larger_flight)
{
	const int seeds = rt_test_seeds(5);
	int held = 0, open = 0, fell = 0, lost = 0, most_held = 0, least_open = 200;
	for (int seed = 1; seed <= seeds; ++seed) {
		int fd, hd, fd0, hd0;
		const int h = through_the_ford((uint64_t)seed, 50, &fd, &hd);
		const int o = through_the_ford((uint64_t)seed, 0, &fd0, &hd0);
		CHECK(h >= 0 && o >= 0);
		held += h;
		open += o;
		fell += fd;
		lost += hd;
		most_held = h > most_held ? h : most_held;
		least_open = o < least_open ? o : least_open;
	}
	rt_test_note("200 horse in flight at a 20 m ford, five minutes, %d seeds: with 50 horse holding it %d got through in "
		     "all (at most %d in a seed; %d of them fell, %d holders); with the ford open %d (at least %d in a seed)",
		     seeds, held, most_held, fell, lost, open, least_open);
	CHECK(most_held <= 20);    /* the ford held: at most one in ten through in every seed */
	CHECK(least_open >= 120);  /* open, the same flight gets most of its men over */
	CHECK(rt_test_bytes_held() == 0);
}

/* E5, "命令一千多正红旗骑兵散布在河滩上" (seed 000): 200 horse on the bank 600 m north-east
 * of the Xiaoling crossing (Dalinghe map) are sent to it; five minutes on, where do they
 * stand? Ordered to spread over it, they take it in ranks and files and stand in the
 * ford's water (0.7 m) as in a line held; without the order each stops where he enters
 * the place, and they stand in a knot on their own side of it (tests/data/scenarios/
 * spread). Fills *in_ford with riders standing in water, *extent with the spread of their
 * positions along the river (the 10th to 90th percentile of x - y, m) and *off with the
 * distance of their centre from the ford's. */
static bool riders_at_the_ford(bool spread, int *in_ford, double *extent, double *off, double *closest_posts)
{
	const char *sets[] = { "corps.riders.units.plain_red.order.spread=false" };
	rt_scenario *sc;
	rt_run *run;
	if (!scenario_run("tests/data/scenarios/spread/scenario.yaml", spread ? NULL : sets, spread ? 0 : 1, &sc, &run)) return false;
	rt_world *w = rt_run_world(run);
	bool ok = run_to(run, 300.0);
	/* the ford's centre: the middle of xiaoling_crossing's line, in the map's metres */
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	const rt_vec2 ford = rt_map_lonlat_to_xy(info.map, (rt_lonlat){ 0.5 * (121.1829704 + 121.1840296), 0.5 * (41.0873965 + 41.0879785) });
	double along[200], cx = 0.0, cy = 0.0;
	rt_vec2 post[200];
	int n = 0, posts = 0;
	*in_ford = 0;
	*closest_posts = INFINITY;
	for (int id = 0; ok && id < rt_world_agent_count(w); ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		if (v.side != 1 || v.kind != RT_KIND_HORSE || n == 200) continue;
		along[n++] = v.position.x - v.position.y; /* the river runs north-west to south-east here */
		cx += v.position.x;
		cy += v.position.y;
		*in_ford += rt_world_water_depth_m(w, v.position) > 0.0;
		if (v.posted) post[posts++] = v.post;
	}
	/* no two men share a post: the nearest two posts, in body radii of the riders (1) */
	for (int i = 0; i < posts; ++i)
		for (int j = i + 1; j < posts; ++j) *closest_posts = fmin(*closest_posts, hypot(post[i].x - post[j].x, post[i].y - post[j].y));
	ok = ok && n > 0;
	if (ok) {
		for (int i = 1; i < n; ++i)
			for (int j = i; j > 0 && along[j] < along[j - 1]; --j) {
				const double t = along[j];
				along[j] = along[j - 1];
				along[j - 1] = t;
			}
		*extent = (along[(9 * n) / 10] - along[n / 10]) / sqrt(2.0);
		*off = hypot(cx / n - ford.x, cy / n - ford.y);
	}
	rt_run_destroy(run);
	rt_scenario_destroy(sc);
	return ok;
}

TEST(combat_riders_spread_over_a_ford)
{
	int wet, wet0;
	double extent, extent0, off, off0, closest, closest0;
	CHECK(riders_at_the_ford(true, &wet, &extent, &off, &closest));
	CHECK(riders_at_the_ford(false, &wet0, &extent0, &off0, &closest0));
	const double body = rt_kind_params_default(RT_KIND_HORSE).radius_m * sqrt(2.0); /* scale 2 */
	rt_test_note("spread: the nearest two posts are %.1f m apart (a body radius %.2f m); not spread: no posts (%g)", closest, body, closest0);
	CHECK(closest >= 2.4 * body - 1e-3 && isinf(closest0));
	rt_test_note("200 riders (100 agents) at the crossing five minutes on: spread, %d agents stand in the ford's water, "
		     "their files %.0f m across, their centre %.0f m from the ford's; not spread, %d, %.0f m, %.0f m",
		     wet, extent, off, wet0, extent0, off0);
	CHECK(wet >= 60);                  /* most of them in the ford (80 when written) */
	CHECK(off < 15.0 && extent > 45.0); /* over it, across its 60 m (4 m, 71 m) */
	CHECK(off0 > 50.0 && extent0 < 40.0 && wet0 < wet / 2); /* a knot at its near end (82 m off, 27 m across, 32) */
	CHECK(rt_test_bytes_held() == 0);
}

/* The box of Song Wei's camp on the Dalinghe map (ming_camp_song_wei's corners). */
static void song_wei_camp_box(const rt_scenario *sc, rt_vec2 *lo, rt_vec2 *hi)
{
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	*lo = rt_map_lonlat_to_xy(info.map, (rt_lonlat){ 121.2784746, 41.1122997 });
	*hi = rt_map_lonlat_to_xy(info.map, (rt_lonlat){ 121.2875231, 41.1177023 });
}

/* An attack spread over the place it takes (E5): 300 horse sent from 630 m east of Song
 * Wei's empty palisaded camp on the Dalinghe map to attack it (tests/data/scenarios/
 * take-camp). Counts, ten minutes on, the riders inside the camp (its box: the
 * palisade's), and those whose posts lie inside it. */
static bool riders_take_the_camp(bool spread, int *inside, int *posted_inside, int *riders)
{
	const char *sets[] = { "corps.riders.units.main_attack.order.spread=false" };
	rt_scenario *sc;
	rt_run *run;
	if (!scenario_run("tests/data/scenarios/take-camp/scenario.yaml", spread ? NULL : sets, spread ? 0 : 1, &sc, &run))
		return false;
	rt_world *w = rt_run_world(run);
	bool ok = run_to(run, 600.0);
	rt_vec2 lo, hi;
	song_wei_camp_box(sc, &lo, &hi);
	*inside = *posted_inside = *riders = 0;
	for (int id = 0; ok && id < rt_world_agent_count(w); ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		if (v.side != 1 || v.kind != RT_KIND_HORSE) continue;
		(*riders)++;
		*inside += v.position.x > lo.x && v.position.x < hi.x && v.position.y > lo.y && v.position.y < hi.y;
		*posted_inside += v.posted && v.post.x > lo.x && v.post.x < hi.x && v.post.y > lo.y && v.post.y < hi.y;
	}
	rt_run_destroy(run);
	rt_scenario_destroy(sc);
	return ok;
}

TEST(combat_an_attack_spread_over_a_camp_takes_it)
{
	int in, posted, riders, in0, posted0, riders0;
	CHECK(riders_take_the_camp(true, &in, &posted, &riders));
	CHECK(riders_take_the_camp(false, &in0, &posted0, &riders0));
	rt_test_note("300 horse (%d agents) sent to attack an empty palisaded camp, ten minutes on: spread over it, %d inside "
		     "(%d with posts inside); not spread, %d inside (%d posted)", riders, in, posted, in0, posted0);
	CHECK(riders == riders0 && riders >= 150);
	CHECK(posted == riders && in >= (9 * riders) / 10); /* in by the gate, each to his post (150 of 150 when written) */
	CHECK(posted0 == 0 && in0 <= riders / 5); /* the first stop as they enter, in the gate's mouth; the rest outside (14) */
	CHECK(rt_test_bytes_held() == 0);
}

/* Two units spread over one place (E5): the 300 horse of take-camp spread over Song
 * Wei's empty camp from the start, and 300 more sent after them two minutes on, spread
 * too (tests/data/scenarios/take-camp/second.yaml). Twelve minutes on: the riders of
 * both with posts inside the camp, the nearest two posts, and those standing within a
 * body's radius of their own post. */
static bool two_units_take_the_camp(int *riders, int *posted_inside, double *closest, int *on_post, double *radius)
{
	rt_scenario *sc;
	rt_run *run;
	if (!scenario_run("tests/data/scenarios/take-camp/second.yaml", NULL, 0, &sc, &run)) return false;
	rt_world *w = rt_run_world(run);
	bool ok = run_to(run, 720.0);
	rt_vec2 lo, hi;
	song_wei_camp_box(sc, &lo, &hi);
	const int count = rt_world_agent_count(w);
	rt_vec2 *posts = calloc((size_t)count, sizeof *posts);
	int n = 0;
	*riders = *posted_inside = *on_post = 0;
	*radius = 0.0;
	for (int id = 0; ok && posts && id < count; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		if (v.side != 1 || v.kind != RT_KIND_HORSE) continue; /* not their captain */
		(*riders)++;
		*radius = fmax(*radius, v.radius_m);
		if (!v.posted) continue;
		*posted_inside += v.post.x > lo.x && v.post.x < hi.x && v.post.y > lo.y && v.post.y < hi.y;
		*on_post += hypot(v.position.x - v.post.x, v.position.y - v.post.y) < v.radius_m;
		posts[n++] = v.post;
	}
	*closest = INFINITY;
	for (int i = 0; i < n; ++i)
		for (int j = i + 1; j < n; ++j) *closest = fmin(*closest, hypot(posts[i].x - posts[j].x, posts[i].y - posts[j].y));
	free(posts);
	rt_run_destroy(run);
	rt_scenario_destroy(sc);
	return ok && posts;
}

TEST(combat_two_units_spread_over_one_camp_share_its_posts)
{
	int riders, posted, on_post;
	double closest, radius;
	CHECK(two_units_take_the_camp(&riders, &posted, &closest, &on_post, &radius));
	rt_test_note("300 horse spread over an empty camp, 300 more sent after them two minutes on (%d agents), twelve minutes "
		     "on: %d with posts inside, the nearest two posts %.2f m apart (a body radius %.2f m), %d within a radius of "
		     "their own post (each unit on a lattice of its own, before this rule: posts 0 m apart)",
		     riders, posted, closest, radius, on_post);
	CHECK(riders == 300);
	CHECK(posted == riders);                   /* both units posted in the camp */
	CHECK(closest >= 2.4 * radius - 1e-3);     /* one lattice: posts a body and a fifth apart */
	CHECK(on_post >= (9 * riders) / 10);       /* each on his own post */
	CHECK(rt_test_bytes_held() == 0);
}

/* E5 with the holders marched to the ford: 50 veteran horse come from 30-48 m east along
 * the bank a minute before the flight. Posted over the ford in files and ranks (what an
 * order to spread gives them, rt_world_set_agent_post), they hold it as the men drawn up
 * in it do; sent to it without posts, each stops where he enters it, they stand in a knot
 * at its east end, and the flight goes past them (440 of 1,000 in five seeds). */
TEST(combat_a_ford_marched_to_is_held_only_when_spread)
{
	const int seeds = rt_test_seeds(5);
	int posted = 0, knot = 0, most_posted = 0, least_knot = 200;
	for (int seed = 1; seed <= seeds; ++seed) {
		ford_outcome po, ko;
		CHECK(through_the_ford_as((uint64_t)seed, 50, FORD_MARCHED_POSTED, &HORSE_FLIGHT, &po));
		CHECK(through_the_ford_as((uint64_t)seed, 50, FORD_MARCHED, &HORSE_FLIGHT, &ko));
		const int p = po.escaped, k = ko.escaped;
		posted += p;
		knot += k;
		most_posted = p > most_posted ? p : most_posted;
		least_knot = k < least_knot ? k : least_knot;
	}
	rt_test_note("200 horse in flight at a 20 m ford held by 50 horse marched to it, %d seeds: posted over it, %d got "
		     "through in all (at most %d in a seed); not posted, %d (at least %d in a seed)",
		     seeds, posted, most_posted, knot, least_knot);
	CHECK(most_posted <= 20);  /* held as when drawn up in it (combat_a_ford_held_stops_a_larger_flight) */
	CHECK(least_knot >= 50);   /* a quarter or more get past the knot in every seed (83-96 when written) */
	CHECK(rt_test_bytes_held() == 0);
}

/* E5, C2: foot in flight stop before the enemy who bars their way ("明军的溃兵冲到小凌河后，
 * 发现前方已经有金军骑兵在拦阻时，全部惶然不知所措，最终所有的明军全部汇集在一起", seed 000).
 * 400 foot in flight come at the 20 m ford from 30 m north, 50 veteran horse standing in
 * it, five minutes. Seeing the riders across their way (by day: barred_range_m 1 km),
 * they stop short of them and none fall or cross; with barred_range_m 0 they run on into
 * the ford, and the riders holding it cut down those who come at them (when written,
 * 632 of 2,000 dead and 543 over in five seeds). */
TEST(combat_foot_in_flight_stop_before_the_enemy_in_their_way)
{
	const int seeds = rt_test_seeds(5);
	const ford_flight seeing = { RT_KIND_FOOT, 400, rt_morale_params_default().barred_range_m, 0, 3.0 };
	const ford_flight blind = { RT_KIND_FOOT, 400, 0.0, 0, 3.0 };
	ford_outcome sum_seen = { 0 }, sum_blind = { 0 };
	for (int seed = 1; seed <= seeds; ++seed) {
		ford_outcome o, b;
		CHECK(through_the_ford_as((uint64_t)seed, 50, FORD_STANDING, &seeing, &o));
		CHECK(through_the_ford_as((uint64_t)seed, 50, FORD_STANDING, &blind, &b));
		sum_seen.fugitives_dead += o.fugitives_dead;
		sum_seen.trampled += o.trampled;
		sum_seen.escaped += o.escaped;
		sum_blind.fugitives_dead += b.fugitives_dead;
		sum_blind.trampled += b.trampled;
		sum_blind.escaped += b.escaped;
	}
	rt_test_note("400 foot in flight at a 20 m ford held by 50 horse, five minutes, %d seeds: seeing the way barred, %d "
		     "dead (%d trampled), %d over; running on, %d dead (%d trampled), %d over",
		     seeds, sum_seen.fugitives_dead, sum_seen.trampled, sum_seen.escaped,
		     sum_blind.fugitives_dead, sum_blind.trampled, sum_blind.escaped);
	CHECK(sum_seen.fugitives_dead == 0 && sum_seen.escaped == 0); /* they stand off: nobody dies, nobody crosses */
	CHECK(sum_blind.fugitives_dead >= 50 * seeds && sum_blind.escaped >= 50 * seeds); /* blind, they run on in */
	CHECK(rt_test_bytes_held() == 0);
}

/* E5, C2: the men ahead stand (docs/model.md section 9). A column of 600 foot in flight,
 * 20 files and 30 ranks 1.2 m apart (36 m deep), comes at the ford held by 50 horse from
 * 30 m north; they see the way barred only 30 m ahead (barred_range_m 30: one lane cell),
 * so its head stops and its rear does not see why. Standing behind the men ahead who
 * stand (halted_ahead_radii 3), the rear stops in its ranks and nobody is knocked down;
 * without (0) the rear runs on into the halted head and the press knocks men down and
 * tramples them (C2). Five minutes, three seeds. */
TEST(combat_the_rear_of_a_flight_stands_behind_its_halted_head)
{
	const int seeds = RT_TEST_SANITIZED ? 1 : 3; /* seed 1 alone under the sanitizers, for the time */
	const ford_flight passing = { RT_KIND_FOOT, 600, 30.0, 20, 3.0 };
	const ford_flight pressing = { RT_KIND_FOOT, 600, 30.0, 20, 0.0 };
	int64_t falls_passing = 0, falls_pressing = 0;
	int dead_passing = 0, dead_pressing = 0;
	double depth_passing = 0.0, depth_pressing = 0.0;
	for (int seed = 1; seed <= seeds; ++seed) {
		ford_outcome o, p;
		CHECK(through_the_ford_as((uint64_t)seed, 50, FORD_STANDING, &passing, &o));
		CHECK(through_the_ford_as((uint64_t)seed, 50, FORD_STANDING, &pressing, &p));
		falls_passing += o.falls;
		falls_pressing += p.falls;
		dead_passing += o.fugitives_dead;
		dead_pressing += p.fugitives_dead;
		depth_passing += o.depth_m / seeds;
		depth_pressing += p.depth_m / seeds;
	}
	rt_test_note("a column of 600 in flight, its head stopped 30 m short of a ford held, %d seeds: the word passed back, "
		     "%lld falls, %d dead, the column %.0f m deep (36 at the start); not passed back, %lld falls, %d dead, %.0f m deep",
		     seeds, (long long)falls_passing, dead_passing, depth_passing, (long long)falls_pressing, dead_pressing, depth_pressing);
	/* when written, three seeds: 0 falls and 0 dead against 221 and 193 */
	CHECK(falls_passing * 5 <= falls_pressing && falls_pressing >= 5 * seeds);
	CHECK(dead_passing * 5 <= dead_pressing);
}

/* Q6, M5: an attack on a place is an attack on the men who hold it ("直杀入皇太极的御营",
 * seed 003; the wagon battalion fought in its camp, seed 000). 60 horse attack a camp, a
 * place 800 m deep, from 300 m west of it; 120 foot stand formed 700-712 m in from its
 * west edge, beyond the riders' advance_range_m (300 m) when they come into it. With the
 * foot inside the place the riders go on and fall on them; the same foot standing 100 m
 * beyond its east edge, outside it, are not what the order names: the riders stand in the
 * camp. Five minutes, 5 seeds. */
typedef enum camp_arm { CAMP_DAY, CAMP_NIGHT, CAMP_PERIODIC } camp_arm;

static void attack_a_camp(uint64_t seed, bool foot_inside, camp_arm arm, int *foot_harmed, double *rider_x)
{
	*foot_harmed = 0;
	*rider_x = 0.0;
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.dt_s = 0.25;
	/* periodic (a test corridor, so at a tenth of the size, advance_range_m with it): the
	 * camp (80 m) wider than half the world (130 m round), the foot nearer the riders
	 * across the seam than through the camp */
	const double k = arm == CAMP_PERIODIC ? 0.1 : 1.0;
	d.bounds_min = (rt_vec2){ -400 * k, -300 * k };
	d.bounds_max = (rt_vec2){ (arm == CAMP_PERIODIC ? 900 : 1100) * k, 300 * k };
	d.periodic_x = arm == CAMP_PERIODIC;
	d.combat.advance_range_m *= k;
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	CHECK(w);
	if (!w) return;
	if (arm == CAMP_NIGHT) { /* an overcast new-moon midnight: a man is seen at 25 m */
		rt_environment_def env = rt_environment_def_default();
		env.start_jd_ut = rt_julian_day_from_civil(1641, 10, 5, 0, 0, 0.0, 8.0);
		env.latitude_deg = 41.03;
		env.longitude_deg = 121.08;
		env.cloud_cover = 1.0;
		CHECK_OK(rt_world_set_environment(w, &env, &err), err);
	}
	rt_goal_def g = rt_goal_def_default();
	g.target_min = (rt_vec2){ 0, -200 * k };
	g.target_max = (rt_vec2){ 800 * k, 200 * k };
	g.straight = true;
	rt_goal_id camp;
	CHECK_OK(rt_world_add_goal(w, &g, &camp, &err), err);
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.state = RT_STATE_MARCHING;
	horse.stance = RT_STANCE_ADVANCE;
	horse.goal = camp;
	horse.experience = RT_EXPERIENCE_VETERAN;
	for (int i = 0; i < 60; ++i) {
		horse.position = (rt_vec2){ -300.0 * k - 3.0 * k * (i / 12), -18.0 + 3.0 * (i % 12) };
		CHECK_OK(rt_world_add_agent(w, &horse, NULL, &err), err);
	}
	rt_agent_def foot = rt_agent_def_default();
	foot.kind = RT_KIND_FOOT;
	foot.side = 0;
	foot.experience = RT_EXPERIENCE_VETERAN;
	const double x0 = (foot_inside ? 700.0 : 900.0) * k - (arm == CAMP_PERIODIC ? 2.0 : 0.0);
	for (int i = 0; i < 120; ++i) {
		foot.position = (rt_vec2){ x0 + 1.2 * (i / 12), -7.2 + 1.2 * (i % 12) };
		CHECK_OK(rt_world_add_agent(w, &foot, NULL, &err), err);
	}
	const int steps = (int)(300.0 / d.dt_s);
	for (int step = 0; step < steps; ++step) CHECK_OK(rt_world_step(w, &err), err);
	for (int id = 0; id < 180; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		if (id < 60) *rider_x += v.position.x / 60.0;
		else *foot_harmed += v.state != RT_STATE_FORMED && v.state != RT_STATE_ENGAGED && v.state != RT_STATE_DESPERATE;
	}
	rt_world_destroy(w);
}

TEST(combat_an_attack_falls_on_the_men_holding_its_place)
{
	int harmed_in = 0, harmed_out = 0, harmed_dark = 0, harmed_wrap = 0;
	int seeds_fought = 0, seeds_stood = 0, seeds_dark = 0, seeds_wrap = 0;
	double x_in = 1e300, x_out = -1e300, x_dark = -1e300, x_wrap = 1e300;
	for (uint64_t seed = 1; seed <= 5; ++seed) {
		int h_in, h_out, h_dark, h_wrap;
		double r_in, r_out, r_dark, r_wrap;
		attack_a_camp(seed, true, CAMP_DAY, &h_in, &r_in);
		attack_a_camp(seed, false, CAMP_DAY, &h_out, &r_out);
		attack_a_camp(seed, true, CAMP_NIGHT, &h_dark, &r_dark);
		attack_a_camp(seed, true, CAMP_PERIODIC, &h_wrap, &r_wrap);
		harmed_in += h_in;
		harmed_out += h_out;
		harmed_dark += h_dark;
		harmed_wrap += h_wrap;
		x_in = fmin(x_in, r_in);
		x_out = fmax(x_out, r_out);
		x_dark = fmax(x_dark, r_dark);
		x_wrap = fmin(x_wrap, r_wrap);
		seeds_fought += h_in > 0 && r_in > 600.0;
		seeds_stood += h_out == 0 && r_out < 100.0;
		seeds_dark += h_dark == 0 && r_dark < 100.0;
		seeds_wrap += h_wrap > 0 && r_wrap > 60.0;
	}
	rt_test_note("5 seeds, 5 min: foot holding the camp: %d of 600 down, broken or taken, the riders' mean x at least %.0f m; "
		     "the same foot 100 m beyond it: %d, the riders' mean x at most %.0f m (the camp's west edge at 0); "
		     "holding it at an overcast new-moon midnight: %d, at most %.0f m; all at a tenth of the size by day "
		     "in a periodic world 130 m round: %d, at least %.0f m",
		     harmed_in, x_in, harmed_out, x_out, harmed_dark, x_dark, harmed_wrap, x_wrap);
	CHECK(seeds_fought == 5); /* they go on into the camp and fall on its holders */
	CHECK(seeds_stood == 5);  /* men beside the place are not the order's: they stand in it */
	CHECK(seeds_dark == 5);   /* he goes on only to what he can see */
	CHECK(seeds_wrap == 5);   /* through the camp, not out across the seam and back */
}
