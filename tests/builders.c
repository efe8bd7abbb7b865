/* Worlds and maps shared by several tests (builders.h). */
#include "builders.h"

#include "rout/env.h"
#include "rout/scenario.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void put(map_builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(map_builder *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->text + b->used, sizeof b->text - b->used, fmt, ap);
	va_end(ap);
	if (n > 0) b->used += (size_t)n;
}

bool map_begin(map_builder *b, double width_m, double height_m, double cell_m)
{
	memset(b, 0, sizeof *b);
	char head[256];
	snprintf(head, sizeof head,
		 "{\"type\":\"FeatureCollection\",\"rout\":{\"origin\":[%.6f,%.6f],\"cell_m\":%g,\"extent_m\":[%g,%g]},\"features\":[",
		 MAP_ORIGIN_LON, MAP_ORIGIN_LAT, cell_m, width_m, height_m);
	char blank[512];
	snprintf(blank, sizeof blank, "%s]}", head);
	rt_map_def md = rt_map_def_default();
	md.allocator = rt_test_allocator();
	rt_error err;
	if (rt_map_load_string(blank, "blank", &md, &b->blank, &err) != RT_OK) {
		rt_test_note("blank map: %s", err.message);
		return false;
	}
	put(b, "%s", head);
	return true;
}

void map_point(map_builder *b, double x, double y)
{
	rt_lonlat p = rt_map_xy_to_lonlat(b->blank, (rt_vec2){ x, y });
	put(b, "[%.8f,%.8f]", p.lon_deg, p.lat_deg);
}

void map_rect(map_builder *b, const char *props, double x0, double y0, double x1, double y1)
{
	put(b, "%s{\"type\":\"Feature\",\"properties\":%s,\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[", b->features++ ? "," : "", props);
	map_point(b, x0, y0); put(b, ","); map_point(b, x1, y0); put(b, ","); map_point(b, x1, y1); put(b, ","); map_point(b, x0, y1);
	put(b, ","); map_point(b, x0, y0);
	put(b, "]]}}");
}

void map_line(map_builder *b, const char *props, double x0, double y0, double x1, double y1)
{
	put(b, "%s{\"type\":\"Feature\",\"properties\":%s,\"geometry\":{\"type\":\"LineString\",\"coordinates\":[", b->features++ ? "," : "", props);
	map_point(b, x0, y0); put(b, ","); map_point(b, x1, y1);
	put(b, "]}}");
}

void map_shore_steps(map_builder *b, double step_m)
{
	map_rect(b, "{\"kind\":\"sea\"}", -149, -149, 149, -100);
	for (int k = 0; k < 6; ++k) {
		char props[96];
		snprintf(props, sizeof props, "{\"kind\":\"tidal_flat\",\"elevation_m\":%.1f}", step_m * k);
		map_rect(b, props, -149, -100 + 20.0 * k, 149, -80 + 20.0 * k);
	}
}

rt_map *map_finish(map_builder *b)
{
	put(b, "]}");
	rt_map_destroy(b->blank);
	rt_map_def md = rt_map_def_default();
	md.allocator = rt_test_allocator();
	rt_map *map = NULL;
	rt_error err;
	if (rt_map_load_string(b->text, "test map", &md, &map, &err) != RT_OK) rt_test_note("map: %s (%s)", err.message, err.field);
	return map;
}

rt_world *world_on_map(const rt_map *map, double half_w, double half_h, int threads)
{
	return world_on_map_dt(map, half_w, half_h, threads, rt_world_def_default().dt_s);
}

rt_world *world_on_map_dt(const rt_map *map, double half_w, double half_h, int threads, double dt_s)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.threads = threads;
	d.dt_s = dt_s;
	d.bounds_min = (rt_vec2){ -half_w, -half_h };
	d.bounds_max = (rt_vec2){ half_w, half_h };
	d.agent_capacity = 2048;
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (w && rt_world_set_map(w, map, &err) != RT_OK) {
		rt_test_note("set map: %s", err.message);
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

rt_world *skirmish_world(int threads, rt_error *err)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = 99;
	d.threads = threads;
	d.bounds_min = (rt_vec2){ 0, 0 };
	d.bounds_max = (rt_vec2){ 60, 40 };
	rt_world *w = rt_world_create(&d, err);
	if (!w) return NULL;
	rt_status s = RT_OK;
	rt_agent_def ad = rt_agent_def_default();
	ad.stance = RT_STANCE_ADVANCE;
	for (int i = 0; i < 600 && s == RT_OK; ++i) {
		ad.side = (uint8_t)(i % 2);
		ad.kind = i % 6 == 0 ? RT_KIND_ARCHER : (i % 6 == 3 ? RT_KIND_HORSE : RT_KIND_FOOT);
		double r = ad.kind == RT_KIND_HORSE ? 1.4 : 0.8;
		ad.position = (rt_vec2){ (ad.side ? 35.0 : 5.0) + r * ((i / 2) % 15), 2.0 + r * ((i / 2) / 15) * 0.9 };
		if (ad.position.y > 39.0) ad.position.y = 39.0 - (i % 7);
		s = rt_world_add_agent(w, &ad, NULL, err);
	}
	if (s != RT_OK) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

rt_world *pressure_line_world(uint64_t seed, const double courage[PRESSURE_CORPS], const rt_command_params *command, int threads,
			      rt_error *err)
{
	return pressure_line_world_ranked(seed, courage, NULL, NULL, command, threads, err);
}

rt_world *pressure_line_world_ranked(uint64_t seed, const double courage[PRESSURE_CORPS],
				     const rt_corps_id superior[PRESSURE_CORPS], const uint8_t rank[PRESSURE_CORPS],
				     const rt_command_params *command, int threads, rt_error *err)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.threads = threads;
	d.dt_s = PRESSURE_DT_S;     /* a standing army for hours: long steps */
	d.max_period_level = 5;
	d.bounds_min = (rt_vec2){ -210, -10 };
	d.bounds_max = (rt_vec2){ 60, 70 };
	if (command) d.command = *command;
	rt_world *w = rt_world_create(&d, err);
	if (!w) return NULL;
	rt_goal_def refuge = rt_goal_def_default();
	refuge.target_min = (rt_vec2){ -205, -10 };
	refuge.target_max = (rt_vec2){ -195, 70 };
	refuge.straight = true;
	rt_goal_id home;
	bool ok = rt_world_add_goal(w, &refuge, &home, err) == RT_OK;
	for (int c = 0; c < PRESSURE_CORPS && ok; ++c) {
		rt_corps_def cd = rt_corps_def_default();
		cd.courage = courage[c];
		cd.refuge = home;
		if (superior) cd.superior = superior[c];
		if (rank) cd.rank = rank[c];
		rt_corps_id id;
		ok = rt_world_add_corps(w, &cd, &id, err) == RT_OK;
		rt_agent_def man = rt_agent_def_default();
		man.corps = id;
		man.experience = RT_EXPERIENCE_VETERAN; /* the men hold; the question is their commanders */
		rt_agent_id first = 0;
		for (int i = 0; i < 20 && ok; ++i) {
			man.kind = i == 0 ? RT_KIND_COMMANDER : RT_KIND_FOOT;
			man.position = (rt_vec2){ 1.0 * (i / 5), 15.0 * c + 1.0 * (i % 5) };
			ok = rt_world_add_agent(w, &man, i == 0 ? &first : NULL, err) == RT_OK;
		}
		ok = ok && rt_world_set_corps_commander(w, id, first, err) == RT_OK;
		rt_agent_def horse = rt_agent_def_default();
		horse.kind = RT_KIND_HORSE;
		horse.side = 1;
		horse.experience = RT_EXPERIENCE_VETERAN;
		for (int i = 0; i < 10 && ok; ++i) {
			horse.position = (rt_vec2){ 30.0 + 1.5 * (i / 5), 15.0 * c + 1.5 * (i % 5) };
			ok = rt_world_add_agent(w, &horse, NULL, err) == RT_OK;
		}
	}
	if (!ok) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

rt_world *funnel_world(const funnel_def *f, rt_error *err)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = f->seed;
	d.threads = f->threads;
	d.bounds_min = (rt_vec2){ -200.0, -20.0 };
	d.bounds_max = (rt_vec2){ 130.0, 24.0 };
	d.agent_capacity = f->men + f->riders;
	d.morale.recovery_time_s = 1e6; /* broken men stay broken */
	/* the scene is for the crush, the horses and the torches: by night the men keep the
	 * day's pace (E1's slowing is tested by night_slows_the_march) */
	d.locomotion.dark_pace_factor = 1.0;
	rt_world *w = rt_world_create(&d, err);
	if (!w) return NULL;
	rt_status s = RT_OK;
	const rt_vec2 walls[4][2] = { { { 0, 0 }, { 120, 0 } }, { { 0, 4 }, { 120, 4 } }, { { 0, 0 }, { 0, -19 } }, { { 0, 4 }, { 0, 23 } } };
	for (int i = 0; i < 4 && s == RT_OK; ++i) s = rt_world_add_wall(w, walls[i][0], walls[i][1], err);
	rt_goal_def g = rt_goal_def_default();
	g.target_min = (rt_vec2){ 110, 0 };
	g.target_max = (rt_vec2){ 120, 4 };
	g.arrival = RT_ARRIVAL_LEAVE;
	g.field_cell_m = 0.5;
	rt_goal_id exit = RT_NO_GOAL;
	if (s == RT_OK) s = rt_world_add_goal(w, &g, &exit, err);
	if (s == RT_OK && f->night) {
		rt_environment_def env = rt_environment_def_default();
		env.start_jd_ut = rt_julian_day_from_civil(1641, 10, 5, 0, 0, 0.0, 8.0);
		env.latitude_deg = MAP_ORIGIN_LAT;
		env.longitude_deg = MAP_ORIGIN_LON;
		env.cloud_cover = 1.0;
		s = rt_world_set_environment(w, &env, err);
	}
	rt_agent_def ad = rt_agent_def_default();
	ad.state = f->routing ? RT_STATE_ROUTING : RT_STATE_FORMED;
	ad.morale = f->routing ? 0.05f : 1.0f;
	ad.goal = ad.flee_goal = exit;
	const double spacing = 1.0 / sqrt(f->density_per_m2);
	const int across = (int)fmax(1.0, floor(f->front_m / spacing));
	for (int i = 0; i < f->men && s == RT_OK; ++i) {
		ad.position = (rt_vec2){ -1.0 - spacing * (i / across + 0.5), 2.0 - 0.5 * across * spacing + spacing * (i % across + 0.5) };
		const bool torch = f->torch_share > 0.0 && floor((i + 1) * f->torch_share) > floor(i * f->torch_share);
		ad.equipment = (uint8_t)(RT_EQUIP_WEAPON | (torch ? RT_EQUIP_TORCH : 0));
		s = rt_world_add_agent(w, &ad, NULL, err);
	}
	ad.kind = f->commanders ? RT_KIND_COMMANDER : RT_KIND_HORSE;
	ad.mounted = f->commanders && f->commanders_ride;
	if (f->commanders) { /* a horse's body and pace, whether or not they ride */
		ad.radius_m = d.kinds[RT_KIND_HORSE].radius_m;
		ad.free_speed_mps = d.kinds[RT_KIND_HORSE].free_speed_mps;
	}
	ad.unit = 1;
	ad.equipment = RT_EQUIP_WEAPON;
	const double back = -1.0 - spacing * ((f->men + across - 1) / across) - 2.0;
	const int riders_across = (int)fmax(1.0, floor(f->front_m / 2.8));
	for (int i = 0; i < f->riders && s == RT_OK; ++i) {
		ad.position = (rt_vec2){ back - 2.0 * (i / riders_across), 2.0 - 0.5 * riders_across * 2.8 + 2.8 * (i % riders_across + 0.5) };
		s = rt_world_add_agent(w, &ad, NULL, err);
	}
	if (s != RT_OK) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

rt_world *long_road_world(rt_goal_id *far, rt_error *err)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.dt_s = 0.5;
	d.bounds_min = (rt_vec2){ 0.0, 0.0 };
	d.bounds_max = (rt_vec2){ 60000.0, 200.0 };
	rt_world *w = rt_world_create(&d, err);
	if (!w) return NULL;
	rt_goal_def g = rt_goal_def_default();
	g.straight = true;
	g.target_min = (rt_vec2){ 59000.0, 0.0 };
	g.target_max = (rt_vec2){ 60000.0, 200.0 };
	if (rt_world_add_goal(w, &g, far, err) != RT_OK) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

/* A way home of side 0 over lo..hi: a goal (fields of `cell`) and a refuge on it. */
static bool add_home(rt_world *w, rt_vec2 lo, rt_vec2 hi, double cell, rt_goal_id *home, rt_error *err)
{
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = lo;
	gd.target_max = hi;
	gd.field_cell_m = cell;
	*home = RT_NO_GOAL;
	if (rt_world_add_goal(w, &gd, home, err) != RT_OK) return false;
	rt_refuge_def rd = rt_refuge_def_default();
	rd.target_min = lo;
	rd.target_max = hi;
	return rt_world_add_refuge(w, &rd, NULL, err) == RT_OK;
}

static rt_world *road_world_of(bool known, uint64_t seed, int threads, bool steady, rt_error *err)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.threads = threads;
	d.dt_s = 0.5;
	d.bounds_min = (rt_vec2){ -100.0, -400.0 };
	d.bounds_max = (rt_vec2){ 1200.0, 400.0 };
	d.agent_capacity = 256;
	d.command.decision_interval_s = 5.0;
	if (!steady) d.command.base_hazard_per_h = 1000.0;
	d.morale.barred_range_m = 0.0; /* by day a man in flight sees the horse across his way 1 km off and stops (E5) */
	rt_world *w = rt_world_create(&d, err);
	if (!w) return NULL;
	rt_flight_params fp = rt_flight_params_default();
	fp.field_cell_m = 4.0;
	fp.enemy_cell_m = 20.0;
	fp.enemy_reach_m = 100.0;
	fp.enemy_interval_s = 60.0;
	bool ok = rt_world_set_flight(w, &fp, err) == RT_OK;
	rt_goal_id home = RT_NO_GOAL;
	ok = ok && add_home(w, (rt_vec2){ 1050.0, -50.0 }, (rt_vec2){ 1150.0, 50.0 }, 4.0, &home, err);
	rt_corps_def ours = rt_corps_def_default();
	ours.courage = steady ? 1.0 : 0.0;
	ours.refuge = home;
	rt_corps_def theirs = rt_corps_def_default();
	theirs.side = 1;
	theirs.known = known;
	rt_corps_id c0 = -1, c1 = -1;
	ok = ok && rt_world_add_corps(w, &ours, &c0, err) == RT_OK && rt_world_add_corps(w, &theirs, &c1, err) == RT_OK;
	rt_agent_def man = rt_agent_def_default();
	man.corps = c0;
	man.flee_goal = home;
	rt_agent_def general = man;
	general.kind = RT_KIND_COMMANDER;
	general.position = (rt_vec2){ 5.0, 0.0 };
	rt_agent_id g = 0;
	ok = ok && rt_world_add_agent(w, &general, &g, err) == RT_OK && rt_world_set_corps_commander(w, c0, g, err) == RT_OK;
	for (int i = 0; i < ROAD_MEN && ok; ++i) {
		man.position = (rt_vec2){ -1.5 * (i / 8), -5.25 + 1.5 * (i % 8) };
		ok = rt_world_add_agent(w, &man, NULL, err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.corps = c1;
	horse.stance = RT_STANCE_HOLD;
	for (int i = 0; i < ROAD_HORSE && ok; ++i) {
		horse.position = (rt_vec2){ 500.0 + 8.0 * (i / 10), -37.0 + 6.0 * (i % 10) };
		ok = rt_world_add_agent(w, &horse, NULL, err) == RT_OK;
	}
	if (!ok) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

bool fire_blocks_at(const rt_world *w, rt_vec2 p)
{
	rt_fire_cell c;
	return rt_world_fire_cell(w, p, &c) && c.blocks;
}

double nearest_flames_m(const rt_world *w, rt_vec2 p, double reach_m)
{
	double best = INFINITY;
	const int n = (int)floor(reach_m / 5.0 + 1e-9);
	for (int h = 0; h <= n && 5.0 * h <= best; ++h)
		for (int j = -h; j <= h; ++j)
			for (int i = -h; i <= h; i += (j == -h || j == h || h == 0) ? 1 : 2 * h) {
				const double dx = 5.0 * i, dy = 5.0 * j;
				if (fire_blocks_at(w, (rt_vec2){ p.x + dx, p.y + dy })) best = fmin(best, hypot(dx, dy));
			}
	return best;
}

rt_map *fire_plain_map(void)
{
	map_builder b;
	if (!map_begin(&b, 1200, 800, 5)) return NULL;
	return map_finish(&b);
}

/* The plain's world: flight fields of 5-m cells costed within 100 m of what is known,
 * flames counted as fire_men men, the line of fire lit at the start under a 3 m/s east
 * wind (fire_plain_map); no goals or men yet. */
static rt_world *fire_world_base(const rt_map *map, uint64_t seed, int threads, double fire_men, int capacity, rt_error *err)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.threads = threads;
	d.seed = seed;
	d.bounds_min = (rt_vec2){ -600.0, -400.0 };
	d.bounds_max = (rt_vec2){ 600.0, 400.0 };
	d.agent_capacity = capacity;
	d.morale.rally_threshold = 1.0; /* in flight they stay in flight */
	d.command.decision_interval_s = 5.0;
	d.command.base_hazard_per_h = 1000.0;
	rt_world *w = rt_world_create(&d, err);
	if (!w) return NULL;
	bool ok = rt_world_set_map(w, map, err) == RT_OK;
	rt_flight_params fp = rt_flight_params_default();
	fp.field_cell_m = 5.0;
	fp.enemy_reach_m = 100.0; /* the men's sight of flames (morale's fire_sight_m) */
	fp.fire_men = fire_men;
	ok = ok && rt_world_set_flight(w, &fp, err) == RT_OK;
	rt_environment_def env = rt_environment_def_default();
	env.start_jd_ut = rt_julian_day_from_civil(1631, 10, 22, 12, 0, 0.0, 8.0);
	env.latitude_deg = MAP_ORIGIN_LAT;
	env.longitude_deg = MAP_ORIGIN_LON;
	const double t[1] = { 0.0 }, speed[1] = { 3.0 }, from[1] = { 90.0 };
	env.weather.wind_count = 1;
	env.weather.wind_time_s = t;
	env.weather.wind_speed_mps = speed;
	env.weather.wind_from_deg = from;
	const rt_ignition line = { { 0.0, -150.0 }, { 0.0, 150.0 }, 0.0 };
	env.fire.ignition_count = 1;
	env.fire.ignitions = &line;
	ok = ok && rt_world_set_environment(w, &env, err) == RT_OK;
	if (!ok) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

rt_world *fire_flight_world(const rt_map *map, uint64_t seed, int threads, double fire_men, bool general, rt_error *err)
{
	rt_world *w = fire_world_base(map, seed, threads, fire_men, 2 * FIRE_MEN + 8, err);
	if (!w) return NULL;
	rt_goal_id home = RT_NO_GOAL;
	bool ok = add_home(w, (rt_vec2){ 360.0, -40.0 }, (rt_vec2){ 420.0, 40.0 }, 5.0, &home, err);
	rt_agent_def man = rt_agent_def_default();
	man.state = RT_STATE_ROUTING;
	man.morale = 0.0f;
	for (int i = 0; i < FIRE_MEN && ok; ++i) {
		man.position = (rt_vec2){ -400.0 - 1.5 * (i % 10), -7.0 + 1.5 * (i / 10) };
		ok = rt_world_add_agent(w, &man, NULL, err) == RT_OK;
	}
	if (general && ok) {
		rt_corps_def corps = rt_corps_def_default();
		corps.courage = 0.0;
		corps.refuge = home;
		rt_corps_id c = -1;
		ok = rt_world_add_corps(w, &corps, &c, err) == RT_OK;
		rt_agent_def foot = rt_agent_def_default();
		foot.corps = c;
		foot.flee_goal = home;
		rt_agent_def g = foot;
		g.kind = RT_KIND_COMMANDER;
		g.position = (rt_vec2){ -395.0, 100.0 };
		rt_agent_id gid = 0;
		ok = ok && rt_world_add_agent(w, &g, &gid, err) == RT_OK && rt_world_set_corps_commander(w, c, gid, err) == RT_OK;
		for (int i = 0; i < FIRE_MEN - 1 && ok; ++i) {
			foot.position = (rt_vec2){ -400.0 - 1.5 * (i % 10), 93.0 + 1.5 * (i / 10) };
			ok = rt_world_add_agent(w, &foot, NULL, err) == RT_OK;
		}
	}
	if (!ok) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

rt_world *fire_march_world(const rt_map *map, uint64_t seed, int threads, double fire_men, bool attack, rt_error *err)
{
	rt_world *w = fire_world_base(map, seed, threads, fire_men, FIRE_MEN + 8, err);
	if (!w) return NULL;
	rt_goal_id home = RT_NO_GOAL, camp = RT_NO_GOAL;
	bool ok = add_home(w, (rt_vec2){ -600.0, -40.0 }, (rt_vec2){ -560.0, 40.0 }, 5.0, &home, err);
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = FIRE_CAMP_MIN;
	gd.target_max = FIRE_CAMP_MAX;
	gd.field_cell_m = 5.0;
	ok = ok && rt_world_add_goal(w, &gd, &camp, err) == RT_OK;
	rt_agent_def man = rt_agent_def_default();
	man.state = RT_STATE_MARCHING;
	man.goal = camp;
	man.flee_goal = home;
	man.stance = attack ? RT_STANCE_ADVANCE : RT_STANCE_HOLD;
	for (int i = 0; i < FIRE_MEN && ok; ++i) {
		man.position = (rt_vec2){ -400.0 - 1.5 * (i % 10), -7.0 + 1.5 * (i / 10) };
		ok = rt_world_add_agent(w, &man, NULL, err) == RT_OK;
	}
	if (!ok) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

rt_world *road_world(bool known, uint64_t seed, int threads, rt_error *err)
{
	return road_world_of(known, seed, threads, false, err);
}

rt_world *road_world_steady(bool known, uint64_t seed, rt_error *err)
{
	return road_world_of(known, seed, 1, true, err);
}

bool scenario_run(const char *path, const char *const *sets, int set_count, rt_scenario **sc, rt_run **run)
{
	rt_scenario_def def = rt_scenario_def_default();
	def.allocator = rt_test_allocator();
	def.sets = sets;
	def.set_count = set_count;
	rt_error err;
	if (rt_scenario_load(path, &def, sc, &err) != RT_OK) {
		rt_test_note("%s: %s", path, err.message);
		return false;
	}
	rt_run_def rd = rt_run_def_default();
	rd.allocator = rt_test_allocator();
	if (rt_run_create(*sc, &rd, run, &err) != RT_OK) {
		rt_test_note("%s: %s", path, err.message);
		rt_scenario_destroy(*sc);
		return false;
	}
	return true;
}

bool mini_run(const char *const *sets, int set_count, rt_scenario **sc, rt_run **run)
{
	return scenario_run("tests/data/scenarios/mini/scenario.yaml", sets, set_count, sc, run);
}

bool run_to(rt_run *run, double time_s)
{
	rt_world *w = rt_run_world(run);
	rt_world_stats st;
	rt_world_get_stats(w, &st);
	rt_error err;
	while (st.time_s < time_s) {
		if (rt_run_step(run, &err) != RT_OK) {
			rt_test_note("run: %s", err.message);
			return false;
		}
		rt_world_get_stats(w, &st);
	}
	return true;
}

rt_map *siege_map(void)
{
	map_builder b;
	if (!map_begin(&b, 1600, 1600, 5)) return NULL;
	char fort[256];
	const rt_lonlat gate = rt_map_xy_to_lonlat(b.blank, (rt_vec2){ 0, -40 });
	snprintf(fort, sizeof fort, "{\"kind\":\"fort\",\"side\":\"ming\",\"capacity\":100,\"gate_width_m\":15,\"gates\":[[%.8f,%.8f]]}",
		 gate.lon_deg, gate.lat_deg);
	map_rect(&b, fort, -40, -40, 40, 40);
	return map_finish(&b);
}

rt_world *siege_world(const rt_map *map, double besiege_m, int threads, rt_goal_id *field, rt_error *err)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.threads = threads;
	d.bounds_min = (rt_vec2){ -790, -790 };
	d.bounds_max = (rt_vec2){ 790, 790 };
	d.command.decision_interval_s = 5.0;
	d.command.besiege_m = besiege_m;
	rt_world *w = rt_world_create(&d, err);
	bool ok = w && rt_world_set_map(w, map, err) == RT_OK && rt_world_bind_side_name(w, "ming", 0, err) == RT_OK;
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = (rt_vec2){ -30, -30 };
	gd.target_max = (rt_vec2){ 30, 30 };
	gd.field_cell_m = 2.0;
	rt_goal_id inside = RT_NO_GOAL;
	ok = ok && rt_world_add_goal(w, &gd, &inside, err) == RT_OK;
	gd.target_min = (rt_vec2){ -100, 600 };
	gd.target_max = (rt_vec2){ 100, 700 };
	ok = ok && rt_world_add_goal(w, &gd, field, err) == RT_OK;
	rt_corps_def cd = rt_corps_def_default();
	cd.side = 1;
	cd.pursue_ratio = 1.0;
	rt_corps_id corps = -1;
	ok = ok && rt_world_add_corps(w, &cd, &corps, err) == RT_OK;
	rt_agent_def man = rt_agent_def_default();
	man.state = RT_STATE_ROUTING;
	man.morale = 0.05f;
	man.flee_goal = inside;
	for (int i = 0; i < 30 && ok; ++i) {
		man.position = (rt_vec2){ -10.0 + 2.0 * (i % 10), -190.0 - 2.0 * (i / 10) };
		ok = rt_world_add_agent(w, &man, NULL, err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.corps = corps;
	horse.experience = RT_EXPERIENCE_VETERAN;
	for (int i = 0; i < 40 && ok; ++i) {
		horse.position = (rt_vec2){ -20.0 + 4.0 * (i % 10), -440.0 - 4.0 * (i / 10) };
		ok = rt_world_add_agent(w, &horse, NULL, err) == RT_OK;
	}
	if (!ok && w) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}
