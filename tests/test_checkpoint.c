/* Checkpoints and atomic output files (issue 7). A run stopped halfway, saved, and
 * resumed in a world built again - at another thread count - ends bit-identical to the
 * same run never stopped, in four scenes that between them work every phase: a crowd
 * round pillars to an exit, the skirmish, corps whose commanders leave, and men on a map
 * with a tide, a surge and a fort. Truncated, damaged, foreign and other worlds'
 * checkpoints are refused with a message and leave the world as it was; so is a load
 * that runs out of memory. */
#include "builders.h"
#include "rout/env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static void temp_name(char *out, size_t size, const char *what)
{
	snprintf(out, size, "/tmp/rout-checkpoint-%ld-%s", (long)getpid(), what);
}

static unsigned char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *data = malloc(n > 0 ? (size_t)n : 1);
	if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
		free(data);
		data = NULL;
	}
	fclose(f);
	*size = (size_t)n;
	return data;
}

/* A plain (not atomic) write: the tests make damaged copies with it. */
static bool spill(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f) return false;
	bool ok = fwrite(data, 1, size, f) == size;
	return fclose(f) == 0 && ok;
}

/* A copy to damage in place: changing a byte or cutting the file short rewrites no more
 * than it must (cheap on a busy disk). */
static int open_copy(const char *path, const void *data, size_t size)
{
	if (!spill(path, data, size)) return -1;
	return open(path, O_RDWR);
}

static bool put_at(int fd, size_t offset, const void *p, size_t n)
{
	return pwrite(fd, p, n, (off_t)offset) == (ssize_t)n;
}

static bool file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* The checksum of docs/checkpoint-format.md: FNV-1a 64 over every byte before it. */
static void seal(unsigned char *data, size_t size)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i + 8 < size + 0 && i < size - 8; ++i) {
		h ^= data[i];
		h *= 0x100000001b3ull;
	}
	for (int i = 0; i < 8; ++i) data[size - 8 + (size_t)i] = (unsigned char)(h >> (8 * i));
}

/* ---- the scenes ---- */
typedef rt_world *build_fn(const void *ctx, int threads, rt_error *err);

static rt_world *crowd(const void *ctx, int threads, rt_error *err)
{
	(void)ctx;
	rt_scene_def sd = rt_scene_def_default(RT_SCENE_CROWD);
	sd.agents = 2000;
	sd.seed = 7;
	sd.threads = threads;
	sd.max_period_level = 2; /* multi-rate: men resting in the crowd decide every 4th step */
	sd.allocator = rt_test_allocator();
	return rt_scene_create(&sd, err);
}

static rt_world *crowd_seed_8(const void *ctx, int threads, rt_error *err)
{
	(void)ctx;
	rt_scene_def sd = rt_scene_def_default(RT_SCENE_CROWD);
	sd.agents = 2000;
	sd.seed = 8;
	sd.threads = threads;
	sd.max_period_level = 2;
	sd.allocator = rt_test_allocator();
	return rt_scene_create(&sd, err);
}

static rt_world *skirmish(const void *ctx, int threads, rt_error *err)
{
	(void)ctx;
	return skirmish_world(threads, err);
}

/* Commanders quick to leave: a decision every 5 s at a base rate of 10 an hour; the craven one goes within seconds, the rest when the pressure tells (seed 1: after the stop). */
static rt_world *cascade(const void *ctx, int threads, rt_error *err)
{
	(void)ctx;
	const double courage[PRESSURE_CORPS] = { 0.8, 0.0, 0.8, 0.8 };
	rt_command_params c = rt_command_params_default();
	c.decision_interval_s = 5.0;
	c.base_hazard_per_h = 10.0;
	return pressure_line_world(1, courage, &c, threads, err);
}

/* A map 300 m square: the sea to the south over a tidal flat at 0.5 m, a fort of side
 * "ming" for 80 men with its gate to the south. High water and a surge rising 3 m in a
 * minute drown the men on the flat; 100 men file into the fort until it is full; 60 green
 * foot face 30 horse of a corps that pursues one for one. */
static rt_map *terrain_map(void)
{
	map_builder b;
	if (!map_begin(&b, 300, 300, 5)) return NULL;
	map_rect(&b, "{\"kind\":\"sea\"}", -149, -149, 149, -100);
	map_rect(&b, "{\"kind\":\"tidal_flat\",\"elevation_m\":0.5}", -149, -100, 149, -60);
	char fort[512];
	rt_lonlat gate = rt_map_xy_to_lonlat(b.blank, (rt_vec2){ 60, 40 });
	snprintf(fort, sizeof fort, "{\"kind\":\"fort\",\"side\":\"ming\",\"capacity\":80,\"gates\":[[%.8f,%.8f]]}", gate.lon_deg,
		 gate.lat_deg);
	map_rect(&b, fort, 40, 40, 80, 80);
	return map_finish(&b);
}

static double surge_t[2] = { 0.0, 60.0 }, surge_h[2] = { 0.0, 3.0 };

static rt_world *terrain(const void *ctx, int threads, rt_error *err)
{
	const rt_map *map = ctx;
	rt_world *w = world_on_map(map, 140, 140, threads);
	if (!w) return NULL;
	rt_environment_def env = rt_environment_def_default();
	env.start_jd_ut = rt_julian_day_from_civil(1641, 9, 25, 18, 0, 0.0, 8.0);
	env.latitude_deg = MAP_ORIGIN_LAT;
	env.longitude_deg = MAP_ORIGIN_LON;
	env.tide.constituent_count = 1;
	env.tide.constituents[0] = (rt_tide_constituent){ "M2", 1.5, 0.0, RT_TIDE_SPEED_M2_DEG_PER_H };
	env.tide.surge_count = 2;
	env.tide.surge_time_s = surge_t;
	env.tide.surge_level_m = surge_h;
	env.tide.surge_outside = RT_SURGE_OUTSIDE_HOLD;
	bool ok = rt_world_set_environment(w, &env, err) == RT_OK && rt_world_bind_side_name(w, "ming", 0, err) == RT_OK;
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = (rt_vec2){ 50, 55 };
	gd.target_max = (rt_vec2){ 70, 70 };
	gd.field_cell_m = 1.0;
	rt_goal_id inside = 0;
	ok = ok && rt_world_add_goal(w, &gd, &inside, err) == RT_OK;
	rt_corps_def cd = rt_corps_def_default();
	cd.side = 1;
	cd.pursue_ratio = 1.0;
	rt_corps_id horse_corps = 0;
	ok = ok && rt_world_add_corps(w, &cd, &horse_corps, err) == RT_OK;
	rt_agent_def man = rt_agent_def_default();
	man.goal = inside;
	for (int i = 0; i < 100 && ok; ++i) { /* file into the fort */
		man.position = (rt_vec2){ 50.0 + 2.0 * (i % 10), 2.0 + 2.0 * (i / 10) };
		ok = rt_world_add_agent(w, &man, NULL, err) == RT_OK;
	}
	man.goal = RT_NO_GOAL;
	for (int i = 0; i < 60 && ok; ++i) { /* on the flat */
		man.position = (rt_vec2){ -100.0 + 2.0 * i, -80.0 };
		ok = rt_world_add_agent(w, &man, NULL, err) == RT_OK;
	}
	man.experience = RT_EXPERIENCE_GREEN;
	man.morale = 0.5f;
	man.flee_goal = inside;
	for (int i = 0; i < 60 && ok; ++i) { /* green foot in the open */
		man.position = (rt_vec2){ -60.0 + 1.0 * (i % 20), 0.0 + 1.0 * (i / 20) };
		ok = rt_world_add_agent(w, &man, NULL, err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.corps = horse_corps;
	horse.stance = RT_STANCE_ADVANCE;
	for (int i = 0; i < 30 && ok; ++i) {
		horse.position = (rt_vec2){ -60.0 + 1.5 * (i % 15), 15.0 + 1.5 * (i / 15) };
		ok = rt_world_add_agent(w, &horse, NULL, err) == RT_OK;
	}
	if (!ok) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

/* Weather and fire: a grass plain 400 x 300 m (cells of 5 m, 0.5 kg/m2 of grass) with a
 * ploughed strip at x 100..120 m; rain easing off over the first minute, a 5 m/s west
 * wind backing to a 7 m/s south-west wind at 30 s, the ground a little damp. A line fire
 * is lit at x = -150 m at once and a point fire at 55 s (after the stop); 150 gunners
 * and 150 foot of one side face 300 foot of the other, and 40 men too slow to outrun
 * the flames stand in the path of the first fire. dt 0.2 s. */
static rt_map *weather_map(void)
{
	map_builder b;
	if (!map_begin(&b, 400, 300, 5)) return NULL;
	map_rect(&b, "{\"kind\":\"grass\",\"fuel_kg_m2\":0.5}", -199, -149, 199, 149);
	map_rect(&b, "{\"kind\":\"bare\"}", 100, -149, 120, 149);
	return map_finish(&b);
}

static const double weather_rain_t[2] = { 0.0, 60.0 }, weather_rain[2] = { 6.0, 0.0 };
static const double weather_wind_t[2] = { 0.0, 30.0 }, weather_wind_speed[2] = { 5.0, 7.0 };
static const rt_ignition weather_fires[2] = { { { -150.0, -120.0 }, { -150.0, 120.0 }, 0.0 }, { { 60.0, 90.0 }, { 60.0, 90.0 }, 55.0 } };

/* The scene's map, the wind's first direction (270) and how many of the fires are set (2). */
typedef struct weather_setup {
	const rt_map *map;
	double first_wind_from_deg;
	int fires;
} weather_setup;

static rt_world *weather_scene(const void *ctx, int threads, rt_error *err)
{
	const weather_setup *setup = ctx;
	const rt_map *map = setup->map;
	const double wind_from[2] = { setup->first_wind_from_deg, 225.0 };
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.threads = threads;
	d.seed = 31;
	d.dt_s = 0.2;
	d.bounds_min = (rt_vec2){ -200, -150 };
	d.bounds_max = (rt_vec2){ 200, 150 };
	d.agent_capacity = 1024;
	rt_world *w = rt_world_create(&d, err);
	if (!w) return NULL;
	rt_environment_def env = rt_environment_def_default();
	env.start_jd_ut = rt_julian_day_from_civil(1631, 10, 12, 11, 0, 0.0, 8.0);
	env.latitude_deg = MAP_ORIGIN_LAT;
	env.longitude_deg = MAP_ORIGIN_LON;
	env.weather.rain_count = 2;
	env.weather.rain_time_s = weather_rain_t;
	env.weather.rain_mm_per_h = weather_rain;
	env.weather.wind_count = 2;
	env.weather.wind_time_s = weather_wind_t;
	env.weather.wind_speed_mps = weather_wind_speed;
	env.weather.wind_from_deg = wind_from;
	env.weather.ground_wetness = 0.05;
	env.fire.ignition_count = setup->fires;
	env.fire.ignitions = weather_fires;
	bool ok = rt_world_set_map(w, map, err) == RT_OK && rt_world_set_environment(w, &env, err) == RT_OK;
	for (int i = 0; ok && i < 600; ++i) {
		rt_agent_def a = rt_agent_def_default();
		const bool west = i < 300;
		const int k = i % 300;
		a.side = west ? 0 : 1;
		a.kind = west && k < 150 ? RT_KIND_GUNNER : RT_KIND_FOOT;
		a.stance = west ? RT_STANCE_HOLD : RT_STANCE_ADVANCE;
		a.position = (rt_vec2){ (west ? -80.0 : 20.0) + (k / 50) * (west ? -1.5 : 1.5), -100.0 + (k % 50) * 4.0 };
		a.heading = (rt_vec2){ west ? 1.0 : -1.0, 0.0 };
		ok = rt_world_add_agent(w, &a, NULL, err) == RT_OK;
	}
	for (int i = 0; ok && i < 40; ++i) { /* the slow, in the fire's path */
		rt_agent_def a = rt_agent_def_default();
		a.side = 0;
		a.free_speed_mps = 0.3;
		a.position = (rt_vec2){ -135.0 + (i % 4) * 2.0, -50.0 + (i / 4) * 10.0 };
		ok = rt_world_add_agent(w, &a, NULL, err) == RT_OK;
	}
	if (!ok) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

/* ---- stopped, saved, resumed ---- */
static bool run(rt_world *w, int steps)
{
	rt_error err;
	for (int i = 0; i < steps; ++i)
		if (rt_world_step(w, &err) != RT_OK) {
			rt_test_note("step %d: %s", i, err.message);
			return false;
		}
	return true;
}

/* The skirmish (one thread) after `steps` steps, saved to `path` and read back whole
 * (malloc'd, for damaged copies); NULL if any of it fails. */
static unsigned char *saved_skirmish(const char *path, int steps, size_t *size)
{
	rt_error err = { 0 }; /* run() notes its own failure */
	rt_world *w = skirmish_world(0, &err);
	const bool ok = w && run(w, steps) && rt_world_save_checkpoint(w, path, &err) == RT_OK;
	if (!ok) rt_test_note("the skirmish saved after %d steps: %s", steps, err.message);
	rt_world_destroy(w);
	return ok ? slurp(path, size) : NULL;
}

/* Runs `steps` straight at 1 thread; then half at 2 threads, saves, destroys, builds again
 * at 1 thread (stepped `warm` steps first, when warm > 0: a load overwrites a world that
 * has moved on), loads and runs the rest. The loaded world saved again must give the very
 * bytes it was loaded from (everything saved is restored exactly); the hash, and every
 * byte of a checkpoint of the final state, must agree with the straight run's. */
static void check_resume(const char *name, build_fn *build, const void *ctx, int steps, int warm, rt_world_stats *final)
{
	char mid[256], again[256], straight_end[256], resumed_end[256];
	temp_name(mid, sizeof mid, "mid");
	temp_name(again, sizeof again, "again");
	temp_name(straight_end, sizeof straight_end, "straight");
	temp_name(resumed_end, sizeof resumed_end, "resumed");
	rt_error err;

	rt_world *w = build(ctx, 1, &err);
	CHECK_MSG(w, "%s: %s", name, err.message);
	bool ok = run(w, steps);
	const uint64_t straight = rt_world_hash(w);
	rt_world_get_stats(w, final);
	ok = ok && rt_world_save_checkpoint(w, straight_end, &err) == RT_OK;
	rt_world_destroy(w);
	CHECK_MSG(ok, "%s: the straight run failed: %s", name, err.message);

	w = build(ctx, 2, &err);
	CHECK(w);
	ok = run(w, steps / 2);
	const uint64_t at_save = rt_world_hash(w);
	ok = ok && rt_world_save_checkpoint(w, mid, &err) == RT_OK;
	rt_world_destroy(w);
	CHECK_MSG(ok, "%s: the first half failed: %s", name, err.message);

	w = build(ctx, 1, &err);
	CHECK(w);
	ok = run(w, warm);
	rt_status s = rt_world_load_checkpoint(w, mid, &err);
	const uint64_t loaded = rt_world_hash(w);
	ok = ok && s == RT_OK && rt_world_save_checkpoint(w, again, &err) == RT_OK && run(w, steps - steps / 2);
	const uint64_t resumed = rt_world_hash(w);
	ok = ok && rt_world_save_checkpoint(w, resumed_end, &err) == RT_OK;
	rt_world_destroy(w);
	CHECK_MSG(ok, "%s: the resumed run failed: %s", name, err.message);

	size_t n1 = 0, n2 = 0, n_mid = 0, n_again = 0;
	unsigned char *a = slurp(straight_end, &n1), *b = slurp(resumed_end, &n2), *m = slurp(mid, &n_mid), *m2 = slurp(again, &n_again);
	const bool same_file = a && b && n1 == n2 && memcmp(a, b, n1) == 0;
	const bool round_trip = m && m2 && n_mid == n_again && memcmp(m, m2, n_mid) == 0;
	size_t first_difference = 0;
	while (a && b && first_difference < n1 && first_difference < n2 && a[first_difference] == b[first_difference]) first_difference++;
	free(a);
	free(b);
	free(m);
	free(m2);
	remove(mid);
	remove(again);
	remove(straight_end);
	remove(resumed_end);
	rt_test_note("%s: %d steps straight %016llx; stopped at %d (%zu-byte checkpoint), resumed %016llx; final checkpoints %s", name,
		     steps, (unsigned long long)straight, steps / 2, n_mid, (unsigned long long)resumed,
		     same_file ? "byte-identical" : "differ");
	CHECK_MSG(loaded == at_save, "%s: the loaded world hashes %016llx, the saved one %016llx", name, (unsigned long long)loaded,
		  (unsigned long long)at_save);
	CHECK_MSG(round_trip, "%s: the loaded world saved again differs from the file it was loaded from", name);
	CHECK_MSG(resumed == straight, "%s: resumed %016llx, straight %016llx", name, (unsigned long long)resumed,
		  (unsigned long long)straight);
	CHECK_MSG(same_file, "%s: the final states differ from byte %zu of their checkpoints (%zu and %zu bytes)", name,
		  first_difference, n1, n2);
}

TEST(checkpoint_resume_crowd)
{
	rt_world_stats st;
	check_resume("crowd of 2000", crowd, NULL, 240, 0, &st);
	rt_test_note("crowd: %lld moves cut short by walls and pillars", (long long)st.wall_clamps);
}

TEST(checkpoint_resume_skirmish)
{
	rt_world_stats st;
	check_resume("skirmish", skirmish, NULL, 300, 7, &st);
	rt_test_note("skirmish: %lld hits, %lld shots, %lld routs, %lld rallies, %lld knelt, %lld taken, %d dead",
		     (long long)st.hits, (long long)st.shots, (long long)st.routed, (long long)st.rallied, (long long)st.knelt,
		     (long long)st.captured, st.by_state[RT_STATE_DEAD_COMBAT]);
	CHECK(st.hits > 0 && st.shots > 0 && st.by_state[RT_STATE_DEAD_COMBAT] > 0);
}

TEST(checkpoint_resume_commanders)
{
	rt_world_stats st;
	/* 700 steps of 0.5 s: the commanders weigh leaving 70 times */
	check_resume("corps under pressure", cascade, NULL, 700, 0, &st);
	rt_test_note("%lld decisions for %lld man-steps (multi-rate: men at rest decide less often)", (long long)st.agent_updates,
		     (long long)st.step * st.agents);
	CHECK(st.agent_updates < st.step * st.agents);
	rt_error err;
	rt_world *w = cascade(NULL, 0, &err);
	CHECK(w);
	int before = 0, after = 0;
	CHECK(run(w, 700));
	for (int c = 0; c < PRESSURE_CORPS; ++c) {
		rt_corps_view v;
		rt_world_get_corps(w, c, &v);
		if (v.left) *(v.left_at_s <= 350 * PRESSURE_DT_S ? &before : &after) += 1;
		rt_test_note("corps %d: %s %.0f s", c, v.left ? "left at" : "stayed", v.left_at_s);
	}
	rt_world_destroy(w);
	rt_test_note("commanders: %d left before the stop, %d after it", before, after);
	CHECK(before >= 1 && after >= 1);
}

/* Men at war: a wounded commander carried by one of his guards toward his refuge, guns
 * firing on riders who charge, and a ring that summons a broken pocket to surrender. */
static rt_world *war(const void *ctx, int threads, rt_error *err)
{
	(void)ctx;
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = 5;
	d.threads = threads;
	d.max_period_level = 3;
	d.bounds_min = (rt_vec2){ -250, -100 };
	d.bounds_max = (rt_vec2){ 250, 600 };
	d.combat.contain_distance_m = 100.0;
	d.command.decision_interval_s = 5.0;
	d.command.summons_rate_per_h = 200.0;
	rt_world *w = rt_world_create(&d, err);
	if (!w) return NULL;
	rt_goal_def g = rt_goal_def_default();
	g.target_min = (rt_vec2){ -240, -100 };
	g.target_max = (rt_vec2){ -230, 100 };
	g.straight = true;
	g.arrival = RT_ARRIVAL_LEAVE;
	rt_goal_id refuge;
	bool ok = rt_world_add_goal(w, &g, &refuge, err) == RT_OK;
	rt_corps_def cd = rt_corps_def_default();
	cd.refuge = refuge;
	rt_corps_id ming = 0, pocket = 0, ring = 0;
	ok = ok && rt_world_add_corps(w, &cd, &ming, err) == RT_OK;
	ok = ok && rt_world_add_corps(w, &cd, &pocket, err) == RT_OK;
	cd.side = 1;
	cd.refuge = RT_NO_GOAL;
	cd.summon = true;
	ok = ok && rt_world_add_corps(w, &cd, &ring, err) == RT_OK;
	rt_agent_def man = rt_agent_def_default();
	man.corps = ming;
	man.kind = RT_KIND_COMMANDER;
	man.health = 0.5f;
	man.state = RT_STATE_MARCHING;
	man.goal = refuge;
	man.position = (rt_vec2){ -20, 0 };
	rt_agent_id chief = 0;
	ok = ok && rt_world_add_agent(w, &man, &chief, err) == RT_OK && rt_world_set_corps_commander(w, ming, chief, err) == RT_OK;
	man.health = 1.0f;
	man.kind = RT_KIND_GUARD;
	man.stance = RT_STANCE_GUARD;
	man.goal = RT_NO_GOAL;
	man.state = RT_STATE_FORMED;
	for (int i = 0; i < 6 && ok; ++i) {
		man.position = (rt_vec2){ -20.0 + 2.0 * cos(i), 2.0 * sin(i) };
		ok = rt_world_add_agent(w, &man, NULL, err) == RT_OK;
	}
	man.stance = RT_STANCE_HOLD;
	man.kind = RT_KIND_CREW;
	for (int i = 0; i < 12 && ok; ++i) {
		man.equipment = (uint8_t)(RT_EQUIP_WEAPON | (i < 4 ? RT_EQUIP_CANNON : 0));
		man.position = (rt_vec2){ i < 4 ? 0.0 : -3.0, -15.0 + 3.0 * i };
		ok = rt_world_add_agent(w, &man, NULL, err) == RT_OK;
	}
	man.kind = RT_KIND_FOOT;
	man.equipment = RT_EQUIP_WEAPON;
	man.corps = pocket;
	man.morale = 0.2f;
	for (int i = 0; i < 20 && ok; ++i) {
		man.position = (rt_vec2){ -5.0 + 2.0 * (i % 5), 400.0 + 2.0 * (i / 5) };
		ok = rt_world_add_agent(w, &man, NULL, err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.corps = ring;
	horse.stance = RT_STANCE_ADVANCE;
	for (int i = 0; i < 20 && ok; ++i) {
		horse.position = (rt_vec2){ 150.0 + 3.0 * (i / 10), -15.0 + 3.0 * (i % 10) };
		ok = rt_world_add_agent(w, &horse, NULL, err) == RT_OK;
	}
	horse.stance = RT_STANCE_CONTAIN;
	for (int i = 0; i < 40 && ok; ++i) {
		const double angle = 6.283185307179586 * (i + 0.5) / 40.0;
		horse.position = (rt_vec2){ 115.0 * cos(angle), 403.0 + 115.0 * sin(angle) };
		ok = rt_world_add_agent(w, &horse, NULL, err) == RT_OK;
	}
	horse.kind = RT_KIND_COMMANDER;
	horse.stance = RT_STANCE_HOLD;
	horse.position = (rt_vec2){ 200, 550 };
	rt_agent_id khan = 0;
	ok = ok && rt_world_add_agent(w, &horse, &khan, err) == RT_OK && rt_world_set_corps_commander(w, ring, khan, err) == RT_OK;
	if (!ok) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

TEST(checkpoint_resume_men_at_war)
{
	rt_world_stats st;
	check_resume("men at war", war, NULL, 800, 5, &st);
	rt_test_note("men at war: %lld gunshots, %lld charges, %lld summoned, %lld hits, %d escaped", (long long)st.cannon_shots,
		     (long long)st.charges, (long long)st.summoned, (long long)st.hits, st.by_state[RT_STATE_ESCAPED]);
	CHECK(st.cannon_shots > 0 && st.charges > 0 && st.summoned > 0);
	rt_error err;
	rt_world *w = war(NULL, 1, &err);
	CHECK(w);
	bool carried = false;
	for (int i = 0; i < 400; ++i) {
		CHECK_OK(rt_world_step(w, &err), err);
		rt_corps_view v;
		rt_world_get_corps(w, 0, &v);
		carried |= v.carrier >= 0 && i >= 400 - 1 - 5;
	}
	rt_world_destroy(w);
	CHECK_MSG(carried, "the wounded commander was not being carried at the stop");
}

TEST(checkpoint_resume_terrain)
{
	rt_map *map = terrain_map();
	CHECK(map);
	rt_world_stats st;
	check_resume("tide, surge and fort", terrain, map, 400, 0, &st);
	rt_error err;
	rt_world *w = terrain(map, 0, &err);
	CHECK(w);
	CHECK(run(w, 200));
	int sheltered_mid = rt_world_fort_sheltered(w, 2);
	rt_environment_state e0, e1;
	rt_world_get_environment(w, &e0);
	CHECK(run(w, 200));
	rt_world_get_environment(w, &e1);
	int sheltered_end = rt_world_fort_sheltered(w, 2);
	rt_world_destroy(w);
	rt_map_destroy(map);
	rt_test_note("terrain: sea at %.2f m at the stop, %.2f m at the end; %d then %d sheltered in the fort; %lld drowned, %lld routed, %d taken",
		     e0.sea_level_m, e1.sea_level_m, sheltered_mid, sheltered_end, (long long)st.drowned, (long long)st.routed,
		     st.by_state[RT_STATE_CAPTURED] + st.by_state[RT_STATE_SURRENDERED]);
	CHECK(sheltered_mid > 0 && sheltered_end > sheltered_mid);
	CHECK(e1.sea_level_m > e0.sea_level_m);
	CHECK(st.drowned > 0);
}

/* A night rout into a narrow road: men knocked down and trampled (lying out of the
 * neighbour grid at the stop), horses tiring, torches taken for the enemy. */
static rt_world *night_rout(const void *ctx, int threads, rt_error *err)
{
	(void)ctx;
	const funnel_def f = { .seed = 5, .threads = threads, .men = 600, .riders = 120, .routing = true, .night = true,
			       .density_per_m2 = 3.0, .front_m = 36.0, .torch_share = 0.2 };
	return funnel_world(&f, err);
}

TEST(checkpoint_resume_crush_horses_and_torches)
{
	rt_world_stats st;
	check_resume("night rout into a road", night_rout, NULL, 600, 3, &st);
	rt_error err;
	rt_world *w = night_rout(NULL, 0, &err);
	CHECK(w);
	CHECK(run(w, 300));
	rt_world_stats mid;
	rt_world_get_stats(w, &mid);
	double fatigue = 0.0;
	for (int id = 600; id < 720; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		fatigue += v.horse_fatigue / 120.0;
	}
	rt_world_destroy(w);
	rt_test_note("at the stop (30 s): %lld knocked down, %lld lying, %d trampled, %lld alarms, horses' fatigue %.4f; "
		     "at the end: %lld knocked down, %d trampled",
		     (long long)mid.falls, (long long)mid.lying, mid.by_state[RT_STATE_DEAD_TRAMPLED], (long long)mid.torch_alarms,
		     fatigue, (long long)st.falls, st.by_state[RT_STATE_DEAD_TRAMPLED]);
	CHECK(mid.lying > 0 && mid.torch_alarms > 0 && fatigue > 0.0);
	CHECK(st.by_state[RT_STATE_DEAD_TRAMPLED] > 0);
}

/* Rain, wind and a spreading fire with its smoke: stopped while the fire burns and the
 * smoke drifts, resumed at another thread count, the run ends where it would have, and
 * the fire (every cell, the lists, the smoke) is saved whole: the final checkpoints are
 * byte-identical. */
TEST(checkpoint_resume_weather_and_fire)
{
	rt_map *map = weather_map();
	CHECK(map);
	const weather_setup setup = { map, 270.0, 2 };
	rt_world_stats st;
	check_resume("rain, wind and fire", weather_scene, &setup, 402, 5, &st); /* the stop at 40.2 s falls between two of the fire's updates */
	rt_error err;
	rt_world *w = weather_scene(&setup, 0, &err);
	CHECK(w);
	rt_environment_state e0, e1;
	CHECK(run(w, 201));
	rt_world_get_environment(w, &e0);
	rt_world_stats mid;
	rt_world_get_stats(w, &mid);
	CHECK(run(w, 201));
	rt_world_get_environment(w, &e1);
	rt_world_destroy(w);
	rt_map_destroy(map);
	rt_test_note("at the stop (40.2 s): %lld cells aflame, %lld burnt, smoke up to %.2g g/m3, ground wetness %.4f, wind %.1f m/s from %.0f deg; "
		     "%lld shots, %lld misfired, %lld burned",
		     (long long)e0.fire_burning_cells, (long long)e0.fire_burnt_cells, e0.smoke_max_g_per_m3, e0.ground_wetness,
		     e0.wind_speed_mps, e0.wind_from_deg, (long long)mid.shots, (long long)mid.misfires, (long long)mid.burned);
	rt_test_note("at the end (80.4 s): %lld cells aflame, %lld burnt, ground wetness %.4f; %lld shots, %lld misfired, %lld burned",
		     (long long)e1.fire_burning_cells, (long long)e1.fire_burnt_cells, e1.ground_wetness, (long long)st.shots,
		     (long long)st.misfires, (long long)st.burned);
	/* the stop falls while everything is under way */
	CHECK(e0.fire_burning_cells > 20 && e0.fire_burnt_cells > 20 && e0.smoke_max_g_per_m3 > 0.0);
	CHECK(e0.ground_wetness > 0.05 && e0.ground_wetness < e1.ground_wetness + 0.05);
	CHECK_NEAR(e0.wind_from_deg, 225.0, 1e-6);
	CHECK(e1.fire_burnt_cells > e0.fire_burnt_cells);
	CHECK(st.misfires > mid.misfires && mid.misfires > 0);
	CHECK(st.burned > 0);
}

/* The fire's edge seen as flames (docs/model.md section 9): a grass plain of 20-m cells
 * with a line fire lit north-south under a 6 m/s west wind that turns at 60 s to blow
 * from the north, so that its front creeps on as a flank whose cells have burnt out
 * before the next catch; 60 men who fear fire walk south 100-130 m east of where it was
 * lit. dt 0.5 s; the stop at 150.5 s falls between two of the fire's updates, with the
 * edge standing (43 cells; the edge and the flames seen from afar are rebuilt, not
 * saved) and the men within sight of it. */
static rt_map *edge_map(void)
{
	map_builder b;
	if (!map_begin(&b, 800, 900, 20)) return NULL;
	return map_finish(&b);
}

static const double edge_wind_t[3] = { 0.0, 60.0, 70.0 }, edge_wind_speed[3] = { 6.0, 6.0, 6.0 },
		    edge_wind_from[3] = { 270.0, 270.0, 0.0 };
static const rt_ignition edge_fire = { { -300.0, -440.0 }, { -300.0, 440.0 }, 0.0 };

static rt_world *edge_scene(const void *ctx, int threads, rt_error *err)
{
	const rt_map *map = ctx;
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.threads = threads;
	d.seed = 77;
	d.dt_s = 0.5;
	d.bounds_min = (rt_vec2){ -400, -450 };
	d.bounds_max = (rt_vec2){ 400, 450 };
	d.agent_capacity = 128;
	rt_world *w = rt_world_create(&d, err);
	if (!w) return NULL;
	rt_environment_def env = rt_environment_def_default();
	env.start_jd_ut = rt_julian_day_from_civil(1631, 10, 22, 11, 0, 0.0, 8.0);
	env.latitude_deg = MAP_ORIGIN_LAT;
	env.longitude_deg = MAP_ORIGIN_LON;
	env.weather.wind_count = 3;
	env.weather.wind_time_s = edge_wind_t;
	env.weather.wind_speed_mps = edge_wind_speed;
	env.weather.wind_from_deg = edge_wind_from;
	env.fire.ignition_count = 1;
	env.fire.ignitions = &edge_fire;
	bool ok = rt_world_set_map(w, map, err) == RT_OK && rt_world_set_environment(w, &env, err) == RT_OK;
	for (int i = 0; ok && i < 60; ++i) {
		rt_agent_def a = rt_agent_def_default();
		a.position = (rt_vec2){ -200.0 + 15.0 * (i % 3), 400.0 - 6.0 * (i / 3) };
		a.heading = (rt_vec2){ 0.0, -1.0 };
		a.free_speed_mps = 1.34;
		ok = rt_world_add_agent(w, &a, NULL, err) == RT_OK;
	}
	if (!ok) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

TEST(checkpoint_resume_a_fires_edge)
{
	rt_map *map = edge_map();
	CHECK(map);
	rt_world_stats st;
	check_resume("a fire's edge", edge_scene, map, 602, 3, &st);
	rt_error err;
	rt_world *w = edge_scene(map, 1, &err);
	CHECK(w);
	CHECK(run(w, 301));
	rt_environment_state e;
	rt_world_get_environment(w, &e);
	rt_world_stats mid;
	rt_world_get_stats(w, &mid);
	rt_world_destroy(w);
	rt_map_destroy(map);
	rt_test_note("at the stop (150.5 s): %lld cells aflame, %lld burnt, wind %.1f m/s from %.0f deg; %lld broke; at the end "
		     "(301 s): %lld burned, %lld broke", (long long)e.fire_burning_cells, (long long)e.fire_burnt_cells,
		     e.wind_speed_mps, e.wind_from_deg, (long long)mid.routed, (long long)st.burned, (long long)st.routed);
	CHECK(e.fire_burnt_cells > 100 && e.fire_burning_cells < e.fire_burnt_cells);
	CHECK_NEAR(e.wind_from_deg, 0.0, 1e-6);
}

/* Flight fields and boats (docs/model.md section 13): a map 400 x 300 m with fort A (for
 * 20) and fort B (for 100) of side "ming", a way home along the south edge and a landing
 * with two boats of 5 in the north-west. 60 routing men of side 0 run for the nearest
 * open refuge past 30 enemy horse walking east across the way south; 30 more wait for the
 * boats (back 20 s after they cast off). The field is built at the first step, when A
 * fills and every 10 s as the known enemy moves, so builds fall on both sides of the
 * stop. */
static rt_map *refuge_map(void)
{
	map_builder b;
	if (!map_begin(&b, 400, 300, 5)) return NULL;
	char fort[512];
	rt_lonlat gate = rt_map_xy_to_lonlat(b.blank, (rt_vec2){ -60, 0 });
	snprintf(fort, sizeof fort, "{\"kind\":\"fort\",\"side\":\"ming\",\"capacity\":20,\"gates\":[[%.8f,%.8f]]}", gate.lon_deg,
		 gate.lat_deg);
	map_rect(&b, fort, -60, -15, -30, 15);
	gate = rt_map_xy_to_lonlat(b.blank, (rt_vec2){ 120, 0 });
	snprintf(fort, sizeof fort, "{\"kind\":\"fort\",\"side\":\"ming\",\"capacity\":100,\"gates\":[[%.8f,%.8f]]}", gate.lon_deg,
		 gate.lat_deg);
	map_rect(&b, fort, 120, -15, 150, 15);
	return map_finish(&b);
}

static rt_world *refuges(const void *ctx, int threads, rt_error *err)
{
	const rt_map *map = ctx;
	rt_world *w = world_on_map(map, 195, 145, threads);
	if (!w) return NULL;
	rt_flight_params fp = rt_flight_params_default();
	fp.field_cell_m = 2.0;
	fp.rebuild_min_s = 5.0;
	fp.enemy_interval_s = 10.0;
	fp.enemy_cell_m = 10.0;
	fp.enemy_reach_m = 20.0;
	bool ok = rt_world_bind_side_name(w, "ming", 0, err) == RT_OK && rt_world_set_flight(w, &fp, err) == RT_OK;
	const rt_vec2 area[3][2] = { { { -60, -15 }, { -30, 15 } }, { { 120, -15 }, { 150, 15 } }, { { -195, -145 }, { 195, -135 } } };
	for (int i = 0; i < 3 && ok; ++i) {
		rt_refuge_def rd = rt_refuge_def_default();
		rd.target_min = area[i][0];
		rd.target_max = area[i][1];
		ok = rt_world_add_refuge(w, &rd, NULL, err) == RT_OK;
	}
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = (rt_vec2){ -190, 110 };
	gd.target_max = (rt_vec2){ -160, 140 };
	gd.field_cell_m = 2.0;
	rt_goal_id landing = 0;
	ok = ok && rt_world_add_goal(w, &gd, &landing, err) == RT_OK;
	rt_boats_def bd = rt_boats_def_default();
	bd.target_min = gd.target_min;
	bd.target_max = gd.target_max;
	bd.boats = 2;
	bd.capacity = 5;
	bd.turnaround_s = 20.0;
	bd.goal = landing;
	ok = ok && rt_world_add_boats(w, &bd, NULL, err) == RT_OK;
	rt_agent_def man = rt_agent_def_default();
	man.state = RT_STATE_ROUTING;
	man.morale = 0.0f;
	for (int i = 0; i < 60 && ok; ++i) {
		man.position = (rt_vec2){ -150.0 + 2.0 * (i % 10), -10.0 + 2.0 * (i / 10) };
		ok = rt_world_add_agent(w, &man, NULL, err) == RT_OK;
	}
	man.flee_goal = landing;
	for (int i = 0; i < 30 && ok; ++i) {
		man.position = (rt_vec2){ -185.0 + 2.0 * (i % 10), 100.0 + 2.0 * (i / 10) };
		ok = rt_world_add_agent(w, &man, NULL, err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.heading = (rt_vec2){ 1.0, 0.0 }; /* walking east: the known enemy moves */
	horse.free_speed_mps = 0.8;
	for (int i = 0; i < 30 && ok; ++i) {
		horse.position = (rt_vec2){ -160.0 + 1.2 * i, -60.0 };
		ok = rt_world_add_agent(w, &horse, NULL, err) == RT_OK;
	}
	if (!ok) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

TEST(checkpoint_resume_flight_and_boats)
{
	rt_map *map = refuge_map();
	CHECK(map);
	rt_world_stats st;
	check_resume("flight fields and boats", refuges, map, 500, 3, &st);
	rt_error err;
	rt_world *w = refuges(map, 0, &err);
	CHECK(w);
	CHECK(run(w, 250));
	const int builds_mid = rt_world_flight_builds(w, 0), a_mid = rt_world_fort_sheltered(w, 0);
	rt_boats_view b_mid, b_end;
	CHECK(rt_world_get_boats(w, 0, &b_mid));
	CHECK(run(w, 250));
	CHECK(rt_world_get_boats(w, 0, &b_end));
	const int builds_end = rt_world_flight_builds(w, 0), a_end = rt_world_fort_sheltered(w, 0), b_fort = rt_world_fort_sheltered(w, 1);
	rt_world_destroy(w);
	rt_map_destroy(map);
	rt_test_note("flight: %d builds by the stop, %d at the end; fort A %d then %d, fort B %d; boats %lld then %lld taken off; %d escaped",
		     builds_mid, builds_end, a_mid, a_end, b_fort, (long long)b_mid.carried, (long long)b_end.carried,
		     st.by_state[RT_STATE_ESCAPED]);
	CHECK(builds_mid >= 2 && builds_end > builds_mid);
	CHECK(b_mid.carried > 0 && b_end.carried > b_mid.carried);
	CHECK(a_end == 20);
}

/* M3, Q7: a general's road round the enemy known by day (road_world), saved halfway home
 * (the road was built when he left, 5-15 s in; the side's memory of the enemy and the
 * road's knowledge are saved, the road's field is built again from them on loading). */
static rt_world *roads(const void *ctx, int threads, rt_error *err)
{
	(void)ctx;
	return road_world(true, 2, threads, err);
}

TEST(checkpoint_resume_a_generals_road)
{
	rt_world_stats st;
	check_resume("a general's road", roads, NULL, 1800, 5, &st);
	rt_test_note("a general's road: %d of %d home after 15 minutes", st.by_state[RT_STATE_ESCAPED], ROAD_MEN + 1);
	CHECK(st.by_state[RT_STATE_ESCAPED] > 0);
}

/* E4: men in flight and a general's column going round a fire (fire_flight_world), saved
 * three minutes in while the fire burns, the flight field looked at and the road planned
 * again every rebuild_min_s: resumed at another thread count, the run ends where it
 * would have (the fields and the roads are built again from the knowledge saved, the
 * flames of their last build in it). */
static rt_world *fire_flight(const void *ctx, int threads, rt_error *err)
{
	return fire_flight_world(ctx, 3, threads, rt_flight_params_default().fire_men, true, err);
}

TEST(checkpoint_resume_flight_round_a_fire)
{
	rt_map *map = fire_plain_map();
	CHECK(map);
	rt_world_stats st;
	check_resume("flight round a fire", fire_flight, map, 3600, 3, &st);
	rt_error err;
	rt_world *w = fire_flight(map, 1, &err);
	CHECK(w);
	CHECK(run(w, 1800));
	const int builds = rt_world_flight_builds(w, 0);
	rt_world_destroy(w);
	rt_map_destroy(map);
	rt_test_note("at the stop (3 min): the flight field built %d times; after 6 min %d of %d home, %d burned", builds,
		     st.by_state[RT_STATE_ESCAPED], 2 * FIRE_MEN, st.by_state[RT_STATE_DEAD_BURNED]);
	CHECK(builds >= 5);
	CHECK(rt_test_bytes_held() == 0);
}

/* E4: foot marching on an order to attack a camp beyond the fire (fire_march_world),
 * saved three minutes in while their side's way there is planned again every
 * rebuild_min_s round the flames: resumed at another thread count, the run ends where it
 * would have (the way is built again from the flames saved with it). */
static rt_world *fire_march(const void *ctx, int threads, rt_error *err)
{
	return fire_march_world(ctx, 3, threads, rt_flight_params_default().fire_men, true, err);
}

TEST(checkpoint_resume_a_march_round_a_fire)
{
	rt_map *map = fire_plain_map();
	CHECK(map);
	rt_world_stats st;
	check_resume("a march round a fire", fire_march, map, 3600, 3, &st);
	rt_test_note("after 6 min %d of %d marching, %d burned", st.by_state[RT_STATE_MARCHING], FIRE_MEN,
		     st.by_state[RT_STATE_DEAD_BURNED]);
	CHECK(st.by_state[RT_STATE_MARCHING] == FIRE_MEN);
	rt_map_destroy(map);
	CHECK(rt_test_bytes_held() == 0);
}

/* Q9: a siege saved while the ring forms (it begins 75 s in; saved at 100 s, the riders
 * walking round to their stations) resumes bit for bit at another thread count: the
 * corps' besieged fort and its men's stations are kept. */
static rt_world *siege(const void *ctx, int threads, rt_error *err)
{
	rt_goal_id field;
	return siege_world(ctx, rt_command_params_default().besiege_m, threads, &field, err);
}

TEST(checkpoint_resume_a_siege)
{
	rt_map *map = siege_map();
	CHECK(map);
	rt_world_stats st;
	check_resume("a siege", siege, map, 2000, 3, &st);
	rt_error err;
	rt_world *w = siege(map, 0, &err);
	CHECK(w);
	CHECK(run(w, 1000));
	rt_corps_view v;
	CHECK(rt_world_get_corps(w, 0, &v));
	rt_world_destroy(w);
	rt_map_destroy(map);
	rt_test_note("at the save (100 s) the corps besieges fort %d with %d riders; at the end %d men sheltered", v.besieging,
		     v.besiegers, st.by_state[RT_STATE_SHELTERED]);
	CHECK(v.besieging == 0 && v.besiegers > 0);
}

/* A world with other refuges or boats refuses the checkpoint by name; the flight and
 * boats sections changed byte by byte behind a good checksum are refused or, if they still
 * make sense, step without reading out of bounds (run this under `make sanitize`). */
static rt_world *refuges_one_fewer_boat(const void *ctx, int threads, rt_error *err)
{
	rt_world *w = refuges(ctx, threads, err);
	if (!w) return NULL;
	rt_boats_def bd = rt_boats_def_default(); /* another landing: a different world */
	bd.target_min = (rt_vec2){ 100, 100 };
	bd.target_max = (rt_vec2){ 110, 110 };
	if (rt_world_add_boats(w, &bd, NULL, err) != RT_OK) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

/* Each byte of data[at .. at + bytes) changed in turn (the checksum made good) and the file
 * loaded into target: a refusal must be PARSE or INVALID, an accepted file must step. */
static bool flip_each_byte(rt_world *target, const char *bad, unsigned char *data, size_t size, size_t at, size_t bytes,
			   const char *what, int *refusals)
{
	int fd = open_copy(bad, data, size);
	if (fd < 0) return false;
	bool ok = true;
	int accepted = 0;
	*refusals = 0;
	rt_error err;
	for (size_t i = at; i < at + bytes && ok; ++i) {
		const unsigned char keep = data[i];
		data[i] ^= 0x5a;
		seal(data, size);
		ok = put_at(fd, i, &data[i], 1) && put_at(fd, size - 8, data + size - 8, 8);
		data[i] = keep;
		const rt_status s = rt_world_load_checkpoint(target, bad, &err);
		ok = ok && put_at(fd, i, &data[i], 1);
		if (s == RT_OK) {
			accepted++;
			if (!run(target, 3)) {
				rt_test_note("after a load with %s byte %zu changed, a step failed", what, i - at);
				ok = false;
			}
		} else {
			++*refusals;
			if (s != RT_ERR_PARSE && s != RT_ERR_INVALID) {
				rt_test_note("%s byte %zu: %s: %s", what, i - at, rt_status_name(s), err.message);
				ok = false;
			}
			if (*refusals == 1 || *refusals == 20) rt_test_note("%s byte %zu changed: %s", what, i - at, err.message);
		}
	}
	close(fd);
	rt_test_note("%s: %d changed bytes accepted (and stepped)", what, accepted);
	return ok;
}

TEST(checkpoint_flight_and_boats_refusals)
{
	char good[256], bad[256];
	temp_name(good, sizeof good, "flight-good");
	temp_name(bad, sizeof bad, "flight-bad");
	rt_map *map = refuge_map();
	CHECK(map);
	rt_error err;
	rt_world *w = refuges(map, 0, &err);
	CHECK(w);
	CHECK(run(w, 260));
	CHECK_OK(rt_world_save_checkpoint(w, good, &err), err);
	rt_world_destroy(w);
	rt_world *other = refuges_one_fewer_boat(map, 0, &err);
	CHECK(other);
	rt_status s = rt_world_load_checkpoint(other, good, &err);
	rt_test_note("another landing: %s", err.message);
	CHECK(s == RT_ERR_INVALID && strstr(err.message, "landings 1 in the checkpoint, 2 in this world"));
	rt_world_destroy(other);

	size_t size = 0;
	unsigned char *data = slurp(good, &size);
	CHECK(data && size > 100);
	size_t at = 0, bytes = 0;
	for (size_t pos = 24; pos + 12 <= size - 8;) { /* FLIT and BOAT follow each other */
		uint64_t length = 0;
		for (int i = 0; i < 8; ++i) length |= (uint64_t)data[pos + 4 + (size_t)i] << (8 * i);
		if (memcmp(data + pos, "FLIT", 4) == 0) at = pos + 12;
		if (memcmp(data + pos, "BOAT", 4) == 0) bytes = pos + 12 + (size_t)length - at;
		pos += 12 + (size_t)length;
	}
	CHECK(at > 0 && bytes > 50);
	rt_world *target = refuges(map, 0, &err);
	CHECK(target);
	int refusals = 0;
	CHECK(flip_each_byte(target, bad, data, size, at, bytes, "flight", &refusals));
	rt_test_note("%zu bytes of flight fields, roads and boats: %d changed bytes refused", bytes, refusals);
	CHECK(refusals > 0);
	CHECK_OK(rt_world_load_checkpoint(target, good, &err), err); /* the good file still loads */
	free(data);
	remove(bad);
	remove(good);
	rt_world_destroy(target);
	rt_map_destroy(map);
}

/* M3: a checkpoint of a general's road (road_world, the road built and followed) with each
 * byte of its roads section changed behind a good checksum: refused, or stepped without
 * reading out of bounds (run this under `make sanitize`). */
TEST(checkpoint_road_refusals)
{
	char good[256], bad[256];
	temp_name(good, sizeof good, "road-good");
	temp_name(bad, sizeof bad, "road-bad");
	rt_error err;
	rt_world *w = road_world(true, 2, 1, &err);
	CHECK(w);
	CHECK(run(w, 200));
	CHECK_OK(rt_world_save_checkpoint(w, good, &err), err);
	rt_world_destroy(w);
	size_t size = 0;
	unsigned char *data = slurp(good, &size);
	CHECK(data && size > 100);
	size_t at = 0, bytes = 0;
	for (size_t pos = 24; pos + 12 <= size - 8;) {
		uint64_t length = 0;
		for (int i = 0; i < 8; ++i) length |= (uint64_t)data[pos + 4 + (size_t)i] << (8 * i);
		if (memcmp(data + pos, "ROAD", 4) == 0) {
			at = pos + 12;
			bytes = (size_t)length;
		}
		pos += 12 + (size_t)length;
	}
	CHECK(at > 0 && bytes > 40);
	rt_world *target = road_world(true, 2, 1, &err);
	CHECK(target);
	int refusals = 0;
	CHECK(flip_each_byte(target, bad, data, size, at, bytes, "road", &refusals));
	rt_test_note("%zu bytes of the roads section: %d changed bytes refused", bytes, refusals);
	CHECK(refusals > 0);
	CHECK_OK(rt_world_load_checkpoint(target, good, &err), err);
	free(data);
	remove(bad);
	remove(good);
	rt_world_destroy(target);
}

/* A world with another wind, or another fire set, refuses the checkpoint by name; a
 * fire section changed behind a good checksum is refused or, if it still makes sense,
 * steps without reading out of bounds (run this under `make sanitize`). */
TEST(checkpoint_fire_refusals)
{
	char good[256], bad[256];
	temp_name(good, sizeof good, "fire-good");
	temp_name(bad, sizeof bad, "fire-bad");
	rt_map *map = weather_map();
	CHECK(map);
	const weather_setup setup = { map, 270.0, 2 }, veered = { map, 260.0, 2 }, one_fire = { map, 270.0, 1 };
	rt_error err;
	rt_world *w = weather_scene(&setup, 0, &err);
	CHECK(w);
	CHECK(run(w, 150));
	CHECK_OK(rt_world_save_checkpoint(w, good, &err), err);
	rt_world_destroy(w);

	/* before the first step nothing has caught: an empty fire saves and loads too */
	rt_world *a = weather_scene(&setup, 1, &err), *b = weather_scene(&setup, 2, &err);
	CHECK(a && b);
	CHECK_OK(rt_world_save_checkpoint(a, bad, &err), err);
	CHECK_OK(rt_world_load_checkpoint(b, bad, &err), err);
	CHECK(run(a, 50) && run(b, 50));
	CHECK(rt_world_hash(a) == rt_world_hash(b));
	rt_world_destroy(a);
	rt_world_destroy(b);

	rt_world *other = weather_scene(&veered, 0, &err);
	CHECK(other);
	rt_status s = rt_world_load_checkpoint(other, good, &err);
	rt_test_note("a wind from 260 deg: %s", err.message);
	CHECK(s == RT_ERR_INVALID && strstr(err.message, "the wind series differ"));
	rt_world_destroy(other);
	other = weather_scene(&one_fire, 0, &err);
	CHECK(other);
	s = rt_world_load_checkpoint(other, good, &err);
	rt_test_note("one fire fewer: %s", err.message);
	CHECK(s == RT_ERR_INVALID && strstr(err.message, "environment.fire.ignitions 2 in the checkpoint, 1 in this world"));
	rt_world_destroy(other);

	/* bytes of the FIRE section changed behind a good checksum */
	size_t size = 0;
	unsigned char *data = slurp(good, &size);
	CHECK(data && size > 100);
	size_t fire_at = 0, fire_bytes = 0;
	for (size_t pos = 24; pos + 12 <= size - 8;) { /* walk the sections to the one tagged FIRE */
		uint64_t length = 0;
		for (int i = 0; i < 8; ++i) length |= (uint64_t)data[pos + 4 + (size_t)i] << (8 * i);
		if (memcmp(data + pos, "FIRE", 4) == 0) {
			fire_at = pos + 12;
			fire_bytes = (size_t)length;
			break;
		}
		pos += 12 + (size_t)length;
	}
	CHECK(fire_at > 0 && fire_bytes > 100);
	rt_world *target = weather_scene(&setup, 0, &err);
	CHECK(target);
	int fd = open_copy(bad, data, size);
	CHECK(fd >= 0);
	int accepted = 0, refusals = 0;
	const size_t stride = fire_bytes / 300 > 1 ? fire_bytes / 300 : 1;
	for (size_t i = fire_at; i < fire_at + fire_bytes; i += (i < fire_at + 64 ? 1 : stride)) {
		const unsigned char keep = data[i];
		data[i] ^= 0x5a;
		seal(data, size);
		CHECK(put_at(fd, i, &data[i], 1) && put_at(fd, size - 8, data + size - 8, 8));
		data[i] = keep;
		s = rt_world_load_checkpoint(target, bad, &err);
		CHECK(put_at(fd, i, &data[i], 1));
		if (s == RT_OK) {
			accepted++;
			CHECK_MSG(run(target, 3), "after a load with fire byte %zu changed, a step failed", i - fire_at);
		} else {
			refusals++;
			CHECK_MSG(s == RT_ERR_PARSE || s == RT_ERR_INVALID, "fire byte %zu: %s: %s", i - fire_at, rt_status_name(s), err.message);
			if (refusals == 1 || refusals == 30) rt_test_note("fire byte %zu changed: %s", i - fire_at, err.message);
		}
	}
	close(fd);
	rt_test_note("%zu-byte fire section: %d changed bytes refused, %d accepted (and stepped)", fire_bytes, refusals, accepted);
	CHECK(refusals > 0);
	CHECK_OK(rt_world_load_checkpoint(target, good, &err), err); /* the good file still loads */
	free(data);
	remove(bad);
	remove(good);
	rt_world_destroy(target);
	rt_map_destroy(map);
}

/* A checkpoint of a world that has not stepped yet resumes as well. */
TEST(checkpoint_before_the_first_step)
{
	char path[256];
	temp_name(path, sizeof path, "zero");
	rt_error err;
	rt_world *a = skirmish_world(1, &err), *b = skirmish_world(2, &err);
	CHECK(a && b);
	CHECK_OK(rt_world_save_checkpoint(a, path, &err), err);
	CHECK_OK(rt_world_load_checkpoint(b, path, &err), err);
	remove(path);
	CHECK(run(a, 60) && run(b, 60));
	const uint64_t ha = rt_world_hash(a), hb = rt_world_hash(b);
	rt_world_destroy(a);
	rt_world_destroy(b);
	CHECK(ha == hb);
}

/* The caller's own bytes travel in the same file: a run keeps its triggers and orders
 * beside the world, under the same checksum. */
typedef struct extra_seen {
	char text[64];
	size_t size;
	int calls;
	bool refuse;
} extra_seen;

static rt_status read_extra(const void *data, size_t size, void *context, rt_error *err)
{
	extra_seen *e = context;
	e->calls++;
	e->size = size;
	snprintf(e->text, sizeof e->text, "%.*s", (int)(size < sizeof e->text ? size : sizeof e->text - 1), (const char *)data);
	if (e->refuse) {
		snprintf(err->message, sizeof err->message, "the run's data are for another scenario");
		err->code = RT_ERR_INVALID;
		return RT_ERR_INVALID;
	}
	return RT_OK;
}

TEST(checkpoint_carries_the_callers_data)
{
	char path[256];
	temp_name(path, sizeof path, "extra");
	rt_error err;
	rt_world *w = skirmish_world(0, &err);
	CHECK(w);
	CHECK(run(w, 40));
	const uint64_t saved = rt_world_hash(w);
	const char run_state[] = "triggers fired: ambush at 12.5 s";
	CHECK_OK(rt_world_save_checkpoint_extra(w, path, run_state, sizeof run_state - 1, &err), err);
	rt_world_destroy(w);

	rt_world *target = skirmish_world(0, &err);
	CHECK(target);
	const uint64_t fresh = rt_world_hash(target);
	extra_seen e = { "", 0, 0, true };
	CHECK(rt_world_load_checkpoint_extra(target, path, read_extra, &e, &err) == RT_ERR_INVALID);
	CHECK(e.calls == 1 && rt_world_hash(target) == fresh); /* the caller said no: the world is as it was */
	e.refuse = false;
	CHECK_OK(rt_world_load_checkpoint_extra(target, path, read_extra, &e, &err), err);
	CHECK(e.calls == 2 && e.size == sizeof run_state - 1 && strcmp(e.text, run_state) == 0);
	CHECK(rt_world_hash(target) == saved);
	CHECK_OK(rt_world_load_checkpoint(target, path, &err), err); /* a plain load ignores them */
	rt_world_destroy(target);
	remove(path);
}

/* ---- refusals ---- */
static bool refused(rt_world *w, const char *path, rt_status *code, rt_error *err)
{
	*code = rt_world_load_checkpoint(w, path, err);
	return *code != RT_OK && strcmp(err->file, path) == 0 && err->message[0] != '\0';
}

TEST(checkpoint_refuses_truncated_and_damaged_files)
{
	char good[256], bad[256];
	temp_name(good, sizeof good, "good");
	temp_name(bad, sizeof bad, "bad");
	rt_error err;
	rt_world *w = skirmish_world(0, &err);
	CHECK(w);
	CHECK(run(w, 120));
	CHECK_OK(rt_world_save_checkpoint(w, good, &err), err);
	size_t size = 0;
	unsigned char *data = slurp(good, &size);
	CHECK(data && size > 1000);
	rt_world *target = skirmish_world(0, &err);
	CHECK(target);
	CHECK(run(target, 3));
	const uint64_t before = rt_world_hash(target);
	rt_status code;

	/* one short of whole, every 997th length, then every length up to 400 bytes */
	int fd = open_copy(bad, data, size);
	CHECK(fd >= 0);
	int truncations = 0;
	for (size_t n = size - 1;; n = n > 400 + 997 ? n - 997 : (n > 400 ? 400 : n - 1)) {
		CHECK(ftruncate(fd, (off_t)n) == 0);
		CHECK_MSG(refused(target, bad, &code, &err), "a checkpoint cut to %zu of %zu bytes was accepted", n, size);
		CHECK_MSG(code == RT_ERR_PARSE, "cut to %zu bytes: %s (%s)", n, rt_status_name(code), err.message);
		if (n == 0) rt_test_note("empty: %s", err.message);
		if (n == 5) rt_test_note("5 bytes: %s", err.message);
		if (n == 100) rt_test_note("100 bytes: %s", err.message);
		truncations++;
		if (n == 0) break;
	}
	close(fd);
	/* one byte changed, at every 97th position and in the whole header */
	fd = open_copy(bad, data, size);
	CHECK(fd >= 0);
	int flips = 0;
	for (size_t i = 0; i < size; i = i < 40 ? i + 1 : i + 97) {
		const unsigned char changed = data[i] ^ 0x24;
		CHECK(put_at(fd, i, &changed, 1));
		const bool was_refused = refused(target, bad, &code, &err);
		CHECK(put_at(fd, i, &data[i], 1));
		CHECK_MSG(was_refused, "a checkpoint with byte %zu changed was accepted", i);
		CHECK_MSG(code == RT_ERR_PARSE || code == RT_ERR_INVALID, "byte %zu: %s", i, err.message);
		if (i == 0 || i == 9 || i == 20 || i == 2000) rt_test_note("byte %zu changed: %s", i, err.message);
		flips++;
	}
	close(fd);
	/* the world is as it was */
	CHECK(rt_world_hash(target) == before);
	rt_test_note("%d truncations and %d changed bytes of a %zu-byte checkpoint refused; the world untouched", truncations, flips, size);

	/* longer than its header says */
	unsigned char *longer = malloc(size + 3);
	CHECK(longer);
	memcpy(longer, data, size);
	memset(longer + size, 0, 3);
	CHECK(spill(bad, longer, size + 3));
	free(longer);
	CHECK(refused(target, bad, &code, &err) && code == RT_ERR_PARSE);
	rt_test_note("3 bytes too many: %s", err.message);

	/* foreign files, and files that are not there */
	CHECK(spill(bad, "{\"scenario\": \"not a checkpoint\"}\n", 34));
	CHECK(refused(target, bad, &code, &err) && code == RT_ERR_PARSE);
	rt_test_note("a JSON file: %s", err.message);
	temp_name(bad, sizeof bad, "no-such-file");
	CHECK(refused(target, bad, &code, &err) && code == RT_ERR_IO);
	CHECK(refused(target, "/tmp", &code, &err) && code == RT_ERR_IO);
	CHECK(rt_world_hash(target) == before);
	temp_name(bad, sizeof bad, "bad");
	remove(bad);
	remove(good);
	free(data);
	rt_world_destroy(w);
	rt_world_destroy(target);
}

/* A file whose checksum was made to match after its contents were changed - made by
 * hand, or by a program with a bug - is checked value by value: an index out of range,
 * an unknown state, a NaN, a broken permutation of ids are refused; whatever is accepted
 * steps without reading out of bounds (run this under `make sanitize`). */
TEST(checkpoint_checks_values_behind_a_good_checksum)
{
	char good[256], bad[256];
	temp_name(good, sizeof good, "good");
	temp_name(bad, sizeof bad, "bad");
	rt_error err;
	size_t size = 0;
	unsigned char *data = saved_skirmish(good, 150, &size);
	CHECK(data);
	rt_world *target = skirmish_world(0, &err);
	CHECK(target);
	int accepted = 0, refusals = 0;
	int fd = open_copy(bad, data, size);
	CHECK(fd >= 0);
	for (size_t i = 24; i + 8 < size; i += 149) {
		const unsigned char keep = data[i];
		data[i] ^= 0xa5;
		seal(data, size);
		CHECK(put_at(fd, i, &data[i], 1) && put_at(fd, size - 8, data + size - 8, 8));
		data[i] = keep;
		rt_status s = rt_world_load_checkpoint(target, bad, &err);
		CHECK(put_at(fd, i, &data[i], 1));
		if (s == RT_OK) {
			accepted++;
			CHECK_MSG(run(target, 2), "after a load with byte %zu changed, a step failed", i);
		} else {
			refusals++;
			CHECK_MSG(s == RT_ERR_PARSE || s == RT_ERR_INVALID, "byte %zu: %s: %s", i, rt_status_name(s), err.message);
		}
	}
	close(fd);
	rt_test_note("bytes changed behind a good checksum: %d loads refused, %d accepted (and stepped)", refusals, accepted);
	CHECK(refusals > 0);
	rt_world_destroy(target);
	target = skirmish_world(0, &err); /* the agents' kinds and sides came from the last file */
	CHECK(target);
	CHECK_OK(rt_world_load_checkpoint(target, good, &err), err); /* the good file still loads */
	free(data);
	remove(bad);
	remove(good);
	rt_world_destroy(target);
}

TEST(checkpoint_refuses_another_world)
{
	char path[256];
	temp_name(path, sizeof path, "seed7");
	rt_error err;
	rt_world *w = crowd(NULL, 0, &err);
	CHECK(w);
	CHECK(run(w, 10));
	CHECK_OK(rt_world_save_checkpoint(w, path, &err), err);
	rt_world_destroy(w);

	rt_world *other = crowd_seed_8(NULL, 0, &err);
	CHECK(other);
	const uint64_t before = rt_world_hash(other);
	rt_status s = rt_world_load_checkpoint(other, path, &err);
	rt_test_note("seed 8: %s (field %s)", err.message, err.field);
	CHECK(s == RT_ERR_INVALID);
	CHECK(strstr(err.message, "different world") && strstr(err.message, "seed 7 in the checkpoint, 8 in this world"));
	CHECK(strcmp(err.file, path) == 0);
	CHECK(rt_world_hash(other) == before);
	rt_world_destroy(other);

	other = crowd(NULL, 0, &err);
	CHECK(other);
	rt_agent_def extra = rt_agent_def_default();
	extra.position = (rt_vec2){ 1, 1 };
	CHECK_OK(rt_world_add_agent(other, &extra, NULL, &err), err);
	s = rt_world_load_checkpoint(other, path, &err);
	rt_test_note("one man more: %s", err.message);
	CHECK(s == RT_ERR_INVALID && strstr(err.message, "agents 2000 in the checkpoint, 2001 in this world"));
	rt_world_destroy(other);

	other = skirmish_world(0, &err);
	CHECK(other);
	s = rt_world_load_checkpoint(other, path, &err);
	rt_test_note("the skirmish: %s", err.message);
	CHECK(s == RT_ERR_INVALID && strstr(err.message, "different world"));
	rt_world_destroy(other);

	/* the same world but for one parameter */
	rt_map *map = terrain_map();
	CHECK(map);
	w = terrain(map, 0, &err);
	CHECK(w);
	CHECK_OK(rt_world_save_checkpoint(w, path, &err), err);
	rt_world_destroy(w);
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.bounds_min = (rt_vec2){ -140, -140 };
	d.bounds_max = (rt_vec2){ 140, 140 };
	d.morale.rout_threshold = 0.25;
	other = rt_world_create(&d, &err);
	CHECK(other);
	s = rt_world_load_checkpoint(other, path, &err);
	rt_test_note("rout threshold changed: %s", err.message);
	CHECK(s == RT_ERR_INVALID && strstr(err.message, "morale.rout_threshold 0.3 in the checkpoint, 0.25 in this world"));
	rt_world_destroy(other);
	rt_map_destroy(map);
	remove(path);
}

static uint64_t le_get(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; --i) v = v << 8 | p[i];
	return v;
}

static void le_put(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; ++i) p[i] = (unsigned char)(v >> (8 * i));
}

/* The file as an older version wrote it: the same but without the men's array `name`
 * (version 3 had no `mount`: who rides was read from the kind; version 4 no `keep`), and
 * labelled `version`. In place; returns the new size, 0 if the file is not as
 * docs/checkpoint-format.md says. */
static size_t strip_array(unsigned char *data, size_t size, const char *name, uint32_t version)
{
	size_t at = 24;
	const size_t name_length = strlen(name);
	while (at + 12 <= size - 8) {
		const size_t payload = (size_t)le_get(data + at + 4, 8), body = at + 12;
		if (memcmp(data + at, "AGNT", 4) != 0) {
			at = body + payload;
			continue;
		}
		const size_t men = (size_t)le_get(data + body, 4);
		const uint32_t arrays = (uint32_t)le_get(data + body + 4, 4);
		size_t a = body + 8;
		for (uint32_t k = 0; k < arrays; ++k) {
			const size_t length = data[a], bytes = data[a + 1 + length], whole = 2 + length + men * bytes;
			if (length == name_length && memcmp(data + a + 1, name, length) == 0) {
				memmove(data + a, data + a + whole, size - (a + whole));
				size -= whole;
				le_put(data + body + 4, arrays - 1, 4);
				le_put(data + at + 4, payload - whole, 8);
				le_put(data + 16, size, 8);
				le_put(data + 8, version, 4);
				seal(data, size);
				return size;
			}
			a += whole;
		}
		return 0;
	}
	return 0;
}

/* Removes the section `tag` from a sealed checkpoint, with one section fewer in its
 * header, labelled `version`; the new size (0 if there is no such section). */
static size_t strip_section(unsigned char *data, size_t size, const char *tag, uint32_t version)
{
	size_t at = 24;
	while (at + 12 <= size - 8) {
		const size_t whole = 12 + (size_t)le_get(data + at + 4, 8);
		if (memcmp(data + at, tag, 4) != 0) {
			at += whole;
			continue;
		}
		memmove(data + at, data + at + whole, size - (at + whole));
		size -= whole;
		le_put(data + 12, le_get(data + 12, 4) - 1, 4);
		le_put(data + 16, size, 8);
		le_put(data + 8, version, 4);
		seal(data, size);
		return size;
	}
	return 0;
}

/* Checkpoints of versions 3 (before who rides was kept per man), 4 (before who keeps his
 * ground in the ring), 5 (before each man's order was kept for after a pursuit), 6
 * (before his post), 7 (before the corps' siege), 8 (before the man each pursuer is
 * after), 9 (before the commanders' roads) and 10 (before the marches' ways round a fire)
 * are refused by their version, with the
 * version each has and the one this build reads; their files passed off as this version
 * are refused by their sections. The world is left as it was. */
TEST(checkpoint_refuses_older_versions)
{
	char good[256], old[256];
	temp_name(good, sizeof good, "v11");
	temp_name(old, sizeof old, "old");
	rt_error err;
	size_t size = 0;
	unsigned char *data = NULL;
	rt_world *target = skirmish_world(0, &err);
	CHECK(target);
	CHECK(run(target, 3));
	const uint64_t before = rt_world_hash(target);
	rt_status code;
	static const char *const missing[] = { "the mount, keep, order, post and quarry arrays", "the keep, order, post and quarry arrays",
						"the order, post and quarry arrays", "the post and quarry arrays",
						"the quarry array (and the corps' siege)", "the quarry array", "the roads",
						"the roads' kinds", "the corps' hesitation" };
	for (uint32_t version = 3; version <= 11; ++version) {
		free(data);
		data = saved_skirmish(good, 60, &size);
		CHECK(data);
		/* version 7 differs from 8 only in the corps' siege (two numbers a corps), and the
		 * skirmish has no corps: its file is a version-8 file labelled 7; version 10 differs
		 * from 11 only in each road's kind and idle flag, and the skirmish has no refuges
		 * (its ROAD section is one byte): its file is version 11's labelled 10; version 11
		 * differs from 12 only in the corps' hesitation, and the skirmish has no corps */
		if (version >= 10) {
			le_put(data + 8, version, 4);
			seal(data, size);
			CHECK(spill(old, data, size));
			CHECK(refused(target, old, &code, &err));
			rt_test_note("a version-%u checkpoint (without %s): %s (field %s)", version, missing[version - 3], err.message, err.field);
			CHECK(code == RT_ERR_PARSE && strcmp(err.field, "version") == 0);
			char expected[100];
			snprintf(expected, sizeof expected, "checkpoint format version %u; this build reads version 12", version);
			CHECK(strstr(err.message, expected));
			CHECK(rt_world_hash(target) == before);
			continue;
		}
		size_t bytes = strip_section(data, size, "ROAD", version);
		if (version <= 8 && bytes) bytes = strip_array(data, bytes, "quarry", version);
		if (version <= 6 && bytes) bytes = strip_array(data, bytes, "post_y", version);
		if (version <= 6 && bytes) bytes = strip_array(data, bytes, "post_x", version);
		if (version <= 6 && bytes) bytes = strip_array(data, bytes, "posted", version);
		if (version <= 5 && bytes) bytes = strip_array(data, bytes, "order_stance", version);
		if (version <= 5 && bytes) bytes = strip_array(data, bytes, "order_goal", version);
		if (version <= 4 && bytes) bytes = strip_array(data, bytes, "keep", version);
		if (version == 3 && bytes) bytes = strip_array(data, bytes, "mount", version);
		CHECK(bytes > 0 && bytes < size);
		CHECK(spill(old, data, bytes));
		CHECK(refused(target, old, &code, &err));
		rt_test_note("a version-%u checkpoint (%zu bytes, without %s): %s (field %s)", version, bytes, missing[version - 3],
			     err.message, err.field);
		char expected[100];
		snprintf(expected, sizeof expected, "checkpoint format version %u; this build reads version 12", version);
		CHECK(code == RT_ERR_PARSE && strcmp(err.field, "version") == 0);
		CHECK(strstr(err.message, expected));
		le_put(data + 8, 12, 4); /* the same file claiming this version */
		seal(data, bytes);
		CHECK(spill(old, data, bytes));
		CHECK(refused(target, old, &code, &err));
		rt_test_note("the same file labelled version 12: %s", err.message);
		CHECK(code == RT_ERR_INVALID && strstr(err.message, "another version of rout") && strstr(err.message, "13 sections, this build writes 14"));
		CHECK(rt_world_hash(target) == before);
	}
	CHECK_OK(rt_world_load_checkpoint(target, good, &err), err); /* the version-12 file loads */
	free(data);
	remove(good);
	remove(old);
	rt_world_destroy(target);
}

TEST(checkpoint_out_of_memory)
{
	char path[256];
	temp_name(path, sizeof path, "oom");
	rt_error err;
	rt_world *w = skirmish_world(0, &err);
	CHECK(w);
	CHECK(run(w, 100));
	const uint64_t saved = rt_world_hash(w);
	/* saving: every allocation refused in turn gives an error and no file */
	int save_failures = 0;
	for (long k = 0;; ++k) {
		rt_test_fail_allocation(k);
		rt_status s = rt_world_save_checkpoint(w, path, &err);
		rt_test_fail_allocation(-1);
		if (s == RT_OK) break;
		CHECK_MSG(s == RT_ERR_NOMEM && !file_exists(path), "save with allocation %ld refused: %s", k, err.message);
		save_failures++;
	}
	rt_world_destroy(w);
	/* loading, into a world fresh from its builder (whose grids are still to be laid) and
	 * into one that has stepped: likewise, and the world's state is left as it was */
	int load_failures[2] = { 0, 0 };
	for (int warm = 0; warm < 2; ++warm) {
		rt_world *target = skirmish_world(0, &err);
		CHECK(target);
		CHECK(run(target, 2 * warm));
		const uint64_t before = rt_world_hash(target);
		for (long k = 0;; ++k) {
			rt_test_fail_allocation(k);
			rt_status s = rt_world_load_checkpoint(target, path, &err);
			rt_test_fail_allocation(-1);
			if (s == RT_OK) break;
			CHECK_MSG(s == RT_ERR_NOMEM, "load with allocation %ld refused: %s: %s", k, rt_status_name(s), err.message);
			CHECK_MSG(rt_world_hash(target) == before, "a load that ran out of memory at allocation %ld changed the world", k);
			load_failures[warm]++;
		}
		CHECK(rt_world_hash(target) == saved);
		CHECK(run(target, 2)); /* and it steps on */
		rt_world_destroy(target);
	}
	remove(path);
	rt_test_note("%d allocations of a save, %d of a load into a fresh world and %d into a stepped one refused in turn: each a clean error",
		     save_failures, load_failures[0], load_failures[1]);
	CHECK(save_failures >= 1 && load_failures[0] > load_failures[1] && load_failures[1] >= 2);
}

/* ---- atomic files ---- */
TEST(atomic_files_are_whole_or_absent)
{
	char path[256], stale[300];
	temp_name(path, sizeof path, "atomic.txt");
	rt_error err;
	CHECK_OK(rt_write_file_atomic(path, "first\n", 6, &err), err);
	size_t n = 0;
	unsigned char *got = slurp(path, &n);
	CHECK(got && n == 6 && memcmp(got, "first\n", 6) == 0);
	free(got);
	/* a leftover temporary of a process with our pid is stepped round, not written into */
	snprintf(stale, sizeof stale, "%s.tmp.%ld", path, (long)getpid());
	CHECK(spill(stale, "stale", 5));
	CHECK_OK(rt_write_file_atomic(path, "second, longer\n", 15, &err), err);
	got = slurp(path, &n);
	CHECK(got && n == 15 && memcmp(got, "second, longer\n", 15) == 0);
	free(got);
	got = slurp(stale, &n);
	CHECK(got && n == 5);
	free(got);
	remove(stale);
	/* no directory: an error naming the file, nothing created, the old file kept */
	CHECK(rt_write_file_atomic("/tmp/rout-no-such-dir/out.txt", "x", 1, &err) == RT_ERR_IO);
	rt_test_note("into a missing directory: %s: %s", err.file, err.message);
	CHECK(strcmp(err.file, "/tmp/rout-no-such-dir/out.txt") == 0 && !file_exists("/tmp/rout-no-such-dir"));
	CHECK(rt_write_file_atomic("", "x", 1, &err) == RT_ERR_INVALID);
	/* a directory in the way: the rename fails, the temporary is removed */
	char dir[256], inner[300];
	temp_name(dir, sizeof dir, "a-directory");
	CHECK(mkdir(dir, 0700) == 0);
	snprintf(inner, sizeof inner, "%s/x", dir);
	CHECK(spill(inner, "x", 1));
	CHECK(rt_write_file_atomic(dir, "y", 1, &err) == RT_ERR_IO);
	rt_test_note("over a directory: %s", err.message);
	char temp[320];
	snprintf(temp, sizeof temp, "%s.tmp.%ld", dir, (long)getpid());
	CHECK(!file_exists(temp));
	remove(inner);
	rmdir(dir);
	/* a checkpoint that cannot be written leaves nothing behind either */
	rt_world *w = skirmish_world(0, &err);
	CHECK(w);
	CHECK(rt_world_save_checkpoint(w, "/tmp/rout-no-such-dir/c.ckpt", &err) == RT_ERR_IO);
	/* an aborted trace leaves nothing */
	rt_trace_writer *t = rt_trace_open(w, path, 1, &err);
	CHECK(t);
	CHECK(run(w, 2));
	CHECK_OK(rt_trace_record(t, w, &err), err);
	rt_trace_abort(t);
	snprintf(stale, sizeof stale, "%s.tmp.%ld", path, (long)getpid());
	CHECK(!file_exists(stale));
	got = slurp(path, &n);
	CHECK(got && n == 15); /* the earlier file, untouched */
	free(got);
	rt_world_destroy(w);
	remove(path);
}
