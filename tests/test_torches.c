/* Lights in the dark (E2: "望见前面火把照耀，以为又进清军埋伏，吓得掉头而走"): two columns
 * of one army meet on a road on an overcast, moonless night, one man in five carrying a
 * torch. Each sees the other's torches coming long before it can tell whose they are,
 * takes them for the enemy, breaks and turns back. By day, without torches, or with the
 * other column's torches going on ahead of it, nobody does. The night is the one of
 * env_darkness_hides_friend_from_foe and combat_night_hides_the_enemy: a torch is seen
 * kilometres off, its bearer known only within a few metres. */
#include "builders.h"
#include "rout/env.h"

#include <math.h>

enum { MEET = 0, DAY, NO_TORCHES, GOING_ON, HALTED_OTHER, HALTED_SAME };
static const char *const setting_name[] = { "at night with torches", "by day", "at night without torches",
					    "at night, the other column going on ahead",
					    "at night, the other column halted ahead, bound elsewhere",
					    "at night, the other column halted ahead, on orders to the same place" };

/* Column A (unit 0) marches east from x = 150 m, column B (unit 1) west from x = 450 m
 * (GOING_ON: east too, ahead of A; HALTED_*: east at a crawl of 0.2 m/s, a column stuck
 * at a gate, bound for a place of its own or for A's), 100 trained men each, four abreast.
 * Returns how many of A broke, and how many of those were running back west at the end. */
static bool columns(uint64_t seed, int setting, int steps, int *broke, int *back, int64_t *alarms)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.bounds_max = (rt_vec2){ 600.0, 40.0 };
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return false;
	rt_environment_def env = rt_environment_def_default();
	env.start_jd_ut = setting == DAY ? rt_julian_day_from_civil(1641, 9, 25, 12, 0, 0.0, 8.0)
					 : rt_julian_day_from_civil(1641, 10, 5, 0, 0, 0.0, 8.0); /* new Moon */
	env.latitude_deg = MAP_ORIGIN_LAT;
	env.longitude_deg = MAP_ORIGIN_LON;
	env.cloud_cover = 1.0;
	bool ok = rt_world_set_environment(w, &env, &err) == RT_OK;
	rt_goal_def g = rt_goal_def_default();
	g.straight = true;
	g.target_min = (rt_vec2){ 590.0, 0.0 };
	g.target_max = (rt_vec2){ 600.0, 40.0 };
	rt_goal_id east = RT_NO_GOAL, west = RT_NO_GOAL, east_too = RT_NO_GOAL;
	ok = ok && rt_world_add_goal(w, &g, &east, &err) == RT_OK;
	ok = ok && rt_world_add_goal(w, &g, &east_too, &err) == RT_OK; /* the same ground, another place */
	g.target_min = (rt_vec2){ 0.0, 0.0 };
	g.target_max = (rt_vec2){ 10.0, 40.0 };
	ok = ok && rt_world_add_goal(w, &g, &west, &err) == RT_OK;
	rt_agent_def ad = rt_agent_def_default();
	ad.state = RT_STATE_MARCHING;
	for (int u = 0; u < 2 && ok; ++u)
		for (int i = 0; i < 100 && ok; ++i) {
			const bool halted = u == 1 && (setting == HALTED_OTHER || setting == HALTED_SAME);
			const bool eastward = u == 0 || setting == GOING_ON || halted;
			ad.unit = (uint32_t)u;
			ad.goal = eastward ? (halted && setting == HALTED_OTHER ? east_too : east) : west;
			ad.free_speed_mps = halted ? 0.2 : 0.0; /* 0: the kind's own */
			ad.flee_goal = eastward ? west : east; /* home is behind them */
			ad.position = (rt_vec2){ (u ? 450.0 : 150.0) + (eastward ? -1.5 : 1.5) * (i / 4), 17.75 + 1.5 * (i % 4) };
			const bool torch = setting != NO_TORCHES && i % 5 == 0;
			ad.equipment = (uint8_t)(RT_EQUIP_WEAPON | (torch ? RT_EQUIP_TORCH : 0));
			ok = rt_world_add_agent(w, &ad, NULL, &err) == RT_OK;
		}
	bool routed[100] = { false };
	for (int s = 0; s < steps && ok; ++s) {
		ok = rt_world_step(w, &err) == RT_OK;
		for (int id = 0; id < 100; ++id) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)id, &v);
			routed[id] |= v.state == RT_STATE_ROUTING;
		}
	}
	*broke = *back = 0;
	for (int id = 0; id < 100; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		*broke += routed[id];
		*back += routed[id] && v.velocity.x < -0.5;
	}
	rt_world_stats st;
	rt_world_get_stats(w, &st);
	*alarms = st.torch_alarms;
	rt_world_destroy(w);
	if (!ok) rt_test_note("columns: %s", err.message);
	return ok;
}

TEST(torches_in_the_dark_are_taken_for_the_enemy)
{
	const int steps = 1300; /* 130 s: the columns start 300 m apart, closing at 2.7 m/s */
	const int seeds[6] = { 10, 4, 4, 4, 4, 4 };
	int turned[6] = { 0 };
	for (int setting = MEET; setting <= HALTED_SAME; ++setting) {
		int broke_sum = 0, back_sum = 0;
		int64_t alarm_sum = 0;
		for (int seed = 1; seed <= seeds[setting]; ++seed) {
			int broke, back;
			int64_t alarms;
			CHECK(columns((uint64_t)seed, setting, steps, &broke, &back, &alarms));
			turned[setting] += 2 * back >= 100; /* half the column broke and turned back */
			broke_sum += broke;
			back_sum += back;
			alarm_sum += alarms;
		}
		rt_test_note("%s: column A turned back in %d of %d seeds (%d men broke, %d running back; %lld alarms)",
			     setting_name[setting], turned[setting], seeds[setting], broke_sum, back_sum, (long long)alarm_sum);
	}
	CHECK(turned[MEET] * 10 >= seeds[MEET] * 8); /* in 80 % of the seeds at least */
	CHECK(turned[DAY] == 0 && turned[NO_TORCHES] == 0 && turned[GOING_ON] == 0);
	/* a column halted ahead is feared unless it is bound for the same place on orders:
	 * one column, whose lights are known as a unit's own (two corps sallying together) */
	CHECK(turned[HALTED_OTHER] * 10 >= seeds[HALTED_OTHER] * 8);
	CHECK(turned[HALTED_SAME] == 0);
}
