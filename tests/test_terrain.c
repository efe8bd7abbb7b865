/* The ground and the sea acting on men (issue 3): a river crossed only at its ford, the
 * tide flooding a sloping flat twice a day, and a surge after midnight drowning the men
 * on the flat but not those above it (E3); flow fields that go straight on open ground
 * and prefer roads as their speed says. Maps are written as GeoJSON in the test from
 * rectangles and lines given in metres. */
#include "builders.h"
#include "rout/env.h"
#include "rout/map.h"

#include <cairo.h>

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Steps the world until every one of the n men (ids 0..n-1) has escaped or max_steps
 * pass, recording where each man first crosses the line y = 0 (from the side his
 * start lies on): crossings whose x lies within [x_lo, x_hi] count as `inside`.
 * Returns false if a step fails. */
typedef struct crossing {
	int crossed, inside, escaped;
	double worst_outside_m; /* how far outside [x_lo, x_hi] the worst crossing was */
} crossing;

static bool watch_line(rt_world *w, int n, double x_lo, double x_hi, int max_steps, crossing *out)
{
	double *last_y = malloc((size_t)n * sizeof(double));
	if (!last_y) return false;
	memset(out, 0, sizeof *out);
	for (int i = 0; i < n; ++i) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)i, &v);
		last_y[i] = v.position.y;
	}
	rt_error err;
	bool ok = true;
	for (int step = 0; step < max_steps && ok && out->escaped < n; ++step) {
		ok = rt_world_step(w, &err) == RT_OK;
		out->escaped = 0;
		for (int i = 0; i < n; ++i) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)i, &v);
			out->escaped += v.state == RT_STATE_ESCAPED;
			if ((last_y[i] < 0.0) != (v.position.y < 0.0)) {
				out->crossed++;
				if (v.position.x >= x_lo && v.position.x <= x_hi) out->inside++;
				else out->worst_outside_m = fmax(out->worst_outside_m, fmax(x_lo - v.position.x, v.position.x - x_hi));
			}
			last_y[i] = v.position.y;
		}
	}
	free(last_y);
	return ok;
}

/* A river 30 m wide and 3 m deep across the whole map at y = 0, one ford 30 m wide at
 * x = 100..130; 1,000 men south of it are sent to the north edge. */
TEST(terrain_river_crossed_only_at_its_ford)
{
	map_builder b;
	CHECK(map_begin(&b, 420, 420, 5));
	map_line(&b, "{\"kind\":\"river\",\"width_m\":30,\"depth_m\":3}", -205, 0, 205, 0);
	map_rect(&b, "{\"kind\":\"ford\"}", 100, -20, 130, 20);
	rt_map *map = map_finish(&b);
	CHECK(map);
	rt_world *w = world_on_map(map, 200, 200, 0);
	CHECK(w);
	rt_error err;
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = (rt_vec2){ -190, 170 };
	gd.target_max = (rt_vec2){ 190, 195 };
	gd.arrival = RT_ARRIVAL_LEAVE;
	gd.field_cell_m = 1.0;
	rt_goal_id goal;
	CHECK_OK(rt_world_add_goal(w, &gd, &goal, &err), err);
	rt_agent_def man = rt_agent_def_default();
	man.goal = goal;
	const int n = 1000;
	for (int i = 0; i < n; ++i) {
		man.position = (rt_vec2){ -150.0 + 300.0 * (i % 50) / 49.0, -60.0 - 4.0 * (i / 50) };
		CHECK_OK(rt_world_add_agent(w, &man, NULL, &err), err);
	}
	crossing c;
	CHECK(watch_line(w, n, 100.0, 130.0, 12000, &c));
	rt_world_stats st;
	rt_world_get_stats(w, &st);
	rt_world_destroy(w);
	rt_map_destroy(map);
	rt_test_note("%d of %d crossed the river in %.0f s, %d outside the ford (worst %.1f m); %d reached the far edge", c.crossed,
		     n, st.time_s, c.crossed - c.inside, c.worst_outside_m, c.escaped);
	CHECK(c.crossed == n);
	CHECK(c.inside == n);
	CHECK(c.escaped == n);
}

/* A flat sloping from 0 to 2.5 m above mean sea level in steps of 0.5 m, land at 5 m.
 * M2 of 1.5 m: the 1 m step floods around high water and drains around low water,
 * twice a day. With a 3.5 m surge after midnight, the men standing on the flat (its
 * 0.5 m step) drown and the men on the land at 5 m do not. */
TEST(terrain_tide_floods_the_flat_and_the_surge_drowns)
{
	map_builder b;
	CHECK(map_begin(&b, 300, 300, 5));
	map_shore_steps(&b, 0.5);
	rt_map *map = map_finish(&b);
	CHECK(map);
	/* flooding at the harmonic times: level at the 1 m step, minute by minute over a day
	 * (in steps of a second: the sea's level is a function of the time alone) */
	rt_world *w = world_on_map_dt(map, 140, 140, 1, 1.0);
	CHECK(w);
	rt_error err;
	rt_environment_def env = rt_environment_def_default();
	env.start_jd_ut = rt_julian_day_from_civil(1641, 9, 25, 18, 0, 0.0, 8.0);
	env.latitude_deg = MAP_ORIGIN_LAT;
	env.longitude_deg = MAP_ORIGIN_LON;
	env.tide.constituent_count = 1;
	env.tide.constituents[0] = (rt_tide_constituent){ "M2", 1.5, 0.0, RT_TIDE_SPEED_M2_DEG_PER_H };
	/* the surge comes as a wave ("一丈多高的滔天巨浪", seed 003): 3.5 m in a minute */
	double surge_t[3] = { 6.0 * 3600.0 - 60.0, 6.0 * 3600.0, 12.0 * 3600.0 };
	double surge_h[3] = { 0.0, 3.5, 3.5 };
	CHECK_OK(rt_world_set_environment(w, &env, &err), err);
	int flood_changes = 0;
	bool flooded = true; /* high water at t = 0 */
	rt_agent_def man = rt_agent_def_default();
	man.position = (rt_vec2){ 0, -50 }; /* on the 1 m step */
	CHECK_OK(rt_world_add_agent(w, &man, NULL, &err), err);
	for (int minute = 1; minute <= 24 * 60; ++minute) {
		for (int k = 0; k < 60; ++k) CHECK_OK(rt_world_step(w, &err), err);
		const bool now = rt_world_water_depth_m(w, (rt_vec2){ 0, -50 }) > 0.0;
		flood_changes += now != flooded;
		flooded = now;
		if (minute == 60 * 6) { /* M2 low water is at 6.21 h: dry */
			CHECK(!now);
		}
	}
	rt_world_destroy(w);
	rt_test_note("the 1 m step flooded and drained %d times in 24 h (M2: 2 floods, 2 drains)", flood_changes);
	CHECK(flood_changes == 4);

	/* the surge: 100 men on the flat's 0.5 m step, 100 on the land at 5 m */
	w = world_on_map(map, 140, 140, 0);
	CHECK(w);
	env.tide.surge_count = 3;
	env.tide.surge_time_s = surge_t;
	env.tide.surge_level_m = surge_h;
	env.start_jd_ut = rt_julian_day_from_civil(1641, 9, 25, 18, 0, 0.0, 8.0) + 5.0 / 24.0; /* start 23:00 */
	for (int i = 0; i < 3; ++i) surge_t[i] -= 5.0 * 3600.0;
	CHECK_OK(rt_world_set_environment(w, &env, &err), err);
	for (int i = 0; i < 200; ++i) {
		man.position = (rt_vec2){ -100.0 + 2.0 * (i % 100), i < 100 ? -70.0 : 60.0 };
		CHECK_OK(rt_world_add_agent(w, &man, NULL, &err), err);
	}
	for (int k = 0; k < 2 * 3600 * 10; ++k) CHECK_OK(rt_world_step(w, &err), err); /* to 01:00 */
	int flat_drowned = 0, land_drowned = 0;
	for (int i = 0; i < 200; ++i) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)i, &v);
		if (v.state == RT_STATE_DEAD_DROWNED) *(i < 100 ? &flat_drowned : &land_drowned) += 1;
	}
	rt_environment_state es;
	rt_world_get_environment(w, &es);
	rt_world_destroy(w);
	rt_test_note("at 01:00 the sea stands %.2f m above mean: %d of 100 men on the flat drowned, %d of 100 on the land",
		     es.sea_level_m, flat_drowned, land_drowned);
	CHECK(flat_drowned == 100);
	CHECK(land_drowned == 0);

	/* the same surge rising over half an hour: men not in flight feel the water rise
	 * above their knees and wade up the flat to dry land (E3, docs/model.md section 11) */
	w = world_on_map(map, 140, 140, 0);
	CHECK(w);
	surge_t[0] = 6.0 * 3600.0 - 1800.0 - 5.0 * 3600.0;
	CHECK_OK(rt_world_set_environment(w, &env, &err), err);
	for (int i = 0; i < 100; ++i) {
		man.position = (rt_vec2){ -100.0 + 2.0 * i, -70.0 };
		CHECK_OK(rt_world_add_agent(w, &man, NULL, &err), err);
	}
	for (int k = 0; k < 3600 * 10 + 1800 * 10; ++k) CHECK_OK(rt_world_step(w, &err), err); /* to 00:30 */
	int slow_drowned = 0;
	double lowest = INFINITY;
	for (int i = 0; i < 100; ++i) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)i, &v);
		slow_drowned += v.state == RT_STATE_DEAD_DROWNED;
		if (v.state != RT_STATE_DEAD_DROWNED) lowest = fmin(lowest, v.position.y);
	}
	rt_world_destroy(w);
	rt_map_destroy(map);
	rt_test_note("a surge rising over 30 min instead: at 00:30 %d of 100 drowned; the survivors stand at y >= %.0f m "
		     "(the flat ends at y = 20 m)", slow_drowned, lowest);
	CHECK(slow_drowned <= 5);
	CHECK(lowest > 0.0);
}

/* One man walks 300 m east to a target; returns the length of his path and his y as he
 * passes x = 0. */
static bool walk_east(const rt_map *map, double *path, double *y_mid)
{
	rt_world *w = world_on_map(map, 190, 190, 1);
	if (!w) return false;
	rt_error err;
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = (rt_vec2){ 150, -1 };
	gd.target_max = (rt_vec2){ 152, 1 };
	gd.field_cell_m = 1.0;
	rt_goal_id goal;
	bool ok = rt_world_add_goal(w, &gd, &goal, &err) == RT_OK;
	rt_agent_def man = rt_agent_def_default();
	man.goal = goal;
	man.position = (rt_vec2){ -150, 0 };
	ok = ok && rt_world_add_agent(w, &man, NULL, &err) == RT_OK;
	*path = 0.0;
	*y_mid = NAN;
	rt_agent_view v, before;
	rt_world_get_agent(w, 0, &before);
	for (int step = 0; step < 6000 && ok; ++step) {
		ok = rt_world_step(w, &err) == RT_OK;
		rt_world_get_agent(w, 0, &v);
		*path += hypot(v.position.x - before.position.x, v.position.y - before.position.y);
		if (before.position.x < 0.0 && v.position.x >= 0.0) *y_mid = v.position.y;
		before = v;
		if (v.position.x >= 150.0) break;
	}
	rt_world_destroy(w);
	return ok && v.position.x >= 150.0;
}

TEST(terrain_flow_fields_go_straight_and_take_the_road)
{
	map_builder b;
	CHECK(map_begin(&b, 400, 400, 5));
	rt_map *open = map_finish(&b);
	CHECK(open);
	double path, y_mid;
	CHECK(walk_east(open, &path, &y_mid));
	rt_map_destroy(open);
	rt_test_note("open ground: %.1f m walked for 300 m in a straight line (%.2f %% longer), y %.2f m at mid-way", path,
		     100.0 * (path / 300.0 - 1.0), y_mid);
	CHECK(path <= 300.0 * 1.03);
	CHECK(fabs(y_mid) < 3.0);

	/* a road 40 m north, twice as fast: 40 + 280 / 2 + 40 = 220 m-equivalents < 300 */
	CHECK(map_begin(&b, 400, 400, 5));
	map_line(&b, "{\"kind\":\"road\",\"width_m\":10,\"speed_factor\":2.0}", -140, 40, 140, 40);
	rt_map *road = map_finish(&b);
	CHECK(road);
	CHECK(walk_east(road, &path, &y_mid));
	rt_test_note("with a road 40 m north twice as fast: %.1f m walked, y %.1f m at mid-way", path, y_mid);
	CHECK(fabs(y_mid - 40.0) < 5.0);

	/* the same road only 1.1 times as fast does not pay for the detour */
	CHECK(map_begin(&b, 400, 400, 5));
	map_line(&b, "{\"kind\":\"road\",\"width_m\":10,\"speed_factor\":1.1}", -140, 40, 140, 40);
	rt_map *slow = map_finish(&b);
	CHECK(slow);
	CHECK(walk_east(slow, &path, &y_mid));
	rt_map_destroy(road);
	rt_map_destroy(slow);
	rt_test_note("with a road only 1.1 times as fast: y %.1f m at mid-way", y_mid);
	CHECK(fabs(y_mid) < 5.0);
}

/* The picture shows the ground and the sea at its current level: the flat's pixel is
 * land-coloured at low water and water-blue at high water. */

static bool pixel_is_water(const char *png, double fx, double fy)
{
	cairo_surface_t *s = cairo_image_surface_create_from_png(png);
	bool water = false;
	if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) {
		int x = (int)(fx * cairo_image_surface_get_width(s)), y = (int)(fy * cairo_image_surface_get_height(s));
		const uint32_t *row = (const uint32_t *)(const void *)(cairo_image_surface_get_data(s) +
								 (size_t)y * (size_t)cairo_image_surface_get_stride(s));
		uint32_t p = row[x];
		int r = (p >> 16) & 255, b = p & 255;
		water = b > r + 40;
	}
	cairo_surface_destroy(s);
	return water;
}

TEST(terrain_picture_shows_the_sea_at_its_level)
{
	map_builder b;
	CHECK(map_begin(&b, 300, 300, 5));
	map_rect(&b, "{\"kind\":\"tidal_flat\",\"elevation_m\":1.0}", -149, -149, 149, 0);
	rt_map *map = map_finish(&b);
	CHECK(map);
	bool water[2];
	for (int k = 0; k < 2; ++k) {
		rt_world_def d = rt_world_def_default();
		d.allocator = rt_test_allocator();
		d.bounds_min = (rt_vec2){ -150, -150 };
		d.bounds_max = (rt_vec2){ 150, 150 };
		rt_error err;
		rt_world *w = rt_world_create(&d, &err);
		CHECK(w);
		CHECK_OK(rt_world_set_map(w, map, &err), err);
		rt_environment_def env = rt_environment_def_default();
		env.tide.mean_level_m = k == 0 ? 0.0 : 2.0; /* low, then high water over the 1 m flat */
		CHECK_OK(rt_world_set_environment(w, &env, &err), err);
		CHECK_OK(rt_world_step(w, &err), err);
		char path[] = "/tmp/rout-terrain-XXXXXX";
		int fd = mkstemp(path);
		CHECK(fd >= 0);
		close(fd);
		rt_picture_def pd = rt_picture_def_default();
		pd.path = path;
		pd.width_px = 300;
		CHECK_OK(rt_world_draw_png(w, &pd, &err), err);
		water[k] = pixel_is_water(path, 0.5, 0.8); /* the flat is the southern half */
		remove(path);
		rt_world_destroy(w);
	}
	rt_map_destroy(map);
	CHECK(!water[0]);
	CHECK(water[1]);
}

/* E6: the Qing trenches ran from the hills to the sea but left the shore open. A line
 * of deep trench (2.5 m) across the land with one 40 m gap at the shore: 400 men in
 * flight from north of it to a refuge south of it all leave through the gap. */
TEST(terrain_trench_line_channels_flight_to_the_shore_gap)
{
	map_builder b;
	CHECK(map_begin(&b, 420, 420, 5));
	map_rect(&b, "{\"kind\":\"sea\"}", -209, -209, -160, 209);                               /* the sea to the west */
	map_line(&b, "{\"kind\":\"trench\",\"depth_m\":2.5,\"width_m\":4}", -120, 0, 205, 0);   /* gap: x -160..-120 */
	rt_map *map = map_finish(&b);
	CHECK(map);
	rt_world *w = world_on_map(map, 200, 200, 0);
	CHECK(w);
	rt_error err;
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = (rt_vec2){ -150, -195 };
	gd.target_max = (rt_vec2){ 195, -175 };
	gd.arrival = RT_ARRIVAL_LEAVE;
	gd.field_cell_m = 1.0;
	rt_goal_id refuge;
	CHECK_OK(rt_world_add_goal(w, &gd, &refuge, &err), err);
	rt_agent_def man = rt_agent_def_default();
	man.state = RT_STATE_MARCHING; /* an army making for the refuge */
	man.goal = refuge;
	const int n = 400;
	for (int i = 0; i < n; ++i) {
		man.position = (rt_vec2){ -100.0 + 280.0 * (i % 40) / 39.0, 40.0 + 3.0 * (i / 40) };
		CHECK_OK(rt_world_add_agent(w, &man, NULL, &err), err);
	}
	crossing c;
	CHECK(watch_line(w, n, -160.0, -120.0, 12000, &c));
	rt_world_stats st;
	rt_world_get_stats(w, &st);
	rt_world_destroy(w);
	rt_map_destroy(map);
	rt_test_note("%d of %d crossed the trench line, %d of them through the gap at the shore (%.0f %%), in %.0f s; %d reached the refuge",
		     c.crossed, n, c.inside, c.crossed ? 100.0 * c.inside / c.crossed : 0.0, st.time_s, c.escaped);
	CHECK(c.crossed == n);
	CHECK(c.inside == c.crossed);
}

/* The square fort 40..80 x 40..80 of side "ming" (bound to side 0) for `capacity` men,
 * its one gate in the middle of the south wall, on open ground; `inside` a goal within
 * its walls. NULL (and nothing to free) if it cannot be made. */
static rt_world *gate_fort_world(int capacity, rt_map **map, rt_goal_id *inside, rt_error *err)
{
	map_builder b;
	*map = NULL;
	if (!map_begin(&b, 300, 300, 5)) return NULL;
	char fort[512];
	rt_lonlat gate = rt_map_xy_to_lonlat(b.blank, (rt_vec2){ 60, 40 });
	snprintf(fort, sizeof fort, "{\"kind\":\"fort\",\"side\":\"ming\",\"capacity\":%d,\"gates\":[[%.8f,%.8f]]}", capacity,
		 gate.lon_deg, gate.lat_deg);
	map_rect(&b, fort, 40, 40, 80, 80);
	*map = map_finish(&b);
	rt_world *w = *map ? world_on_map(*map, 140, 140, 0) : NULL;
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = (rt_vec2){ 50, 55 };
	gd.target_max = (rt_vec2){ 70, 70 };
	gd.field_cell_m = 0.5;
	if (w && rt_world_bind_side_name(w, "ming", 0, err) == RT_OK && rt_world_add_goal(w, &gd, inside, err) == RT_OK) return w;
	rt_world_destroy(w);
	rt_map_destroy(*map);
	*map = NULL;
	return NULL;
}

/* The fort of gate_fort_world for 20 men, 30 men of its side making for it and, last
 * in the column, one more man: sheltered or shut out, and the fort's count after. */
static bool last_man_gets_in(uint8_t kind, uint8_t stance, int *count)
{
	rt_map *map = NULL;
	rt_goal_id inside = RT_NO_GOAL;
	rt_error err;
	rt_world *w = gate_fort_world(20, &map, &inside, &err);
	bool ok = w != NULL;
	rt_agent_def man = rt_agent_def_default();
	man.goal = inside;
	for (int i = 0; ok && i < 31; ++i) {
		man.kind = i < 30 ? RT_KIND_FOOT : kind;
		man.stance = i < 30 ? RT_STANCE_HOLD : stance;
		man.position = (rt_vec2){ 50.0 + 1.2 * (i % 10), -20.0 - 1.5 * (i / 10) };
		ok = rt_world_add_agent(w, &man, NULL, &err) == RT_OK;
	}
	for (int step = 0; ok && step < 3000; ++step) ok = rt_world_step(w, &err) == RT_OK;
	rt_agent_view v = { 0 };
	ok = ok && rt_world_get_agent(w, 30, &v);
	*count = ok ? rt_world_fort_sheltered(w, 0) : -1;
	rt_world_destroy(w);
	rt_map_destroy(map);
	return ok && v.state == RT_STATE_SHELTERED;
}

/* Q9, M8: a full fort opens for a commander and his guards (Wang Pu and Wu Sangui got
 * into Xingshan full of their fugitives), and each takes a place in it as every man does.
 * 30 foot make for a fort for 20 with one more man last in the column: a commander gets
 * in and the fort counts 21 (its 20 and the general who came to it full), and so does a
 * guard (stance guard); a foot soldier is shut out. (Before session 29 the guard was shut
 * out too, and at Xingshan Wang Pu's guards, standing in the gate, kept him out for four
 * days.) */
TEST(terrain_a_full_fort_opens_for_a_commander)
{
	int with_commander = 0, with_guard = 0, with_foot = 0;
	const bool commander_in = last_man_gets_in(RT_KIND_COMMANDER, RT_STANCE_HOLD, &with_commander);
	const bool guard_in = last_man_gets_in(RT_KIND_GUARD, RT_STANCE_GUARD, &with_guard);
	const bool foot_in = last_man_gets_in(RT_KIND_FOOT, RT_STANCE_HOLD, &with_foot);
	rt_test_note("last in the column: a commander %s (the fort counts %d), a guard %s (%d), a foot soldier %s (it counts %d)",
		     commander_in ? "gets in" : "is shut out", with_commander, guard_in ? "gets in" : "is shut out", with_guard,
		     foot_in ? "gets in" : "is shut out", with_foot);
	CHECK(commander_in && with_commander == 21);
	CHECK(guard_in && with_guard == 21);
	CHECK(!foot_in && with_foot == 20);
}

/* Q9: a fort of side "ming" for 50 men with one gate in its south wall. 100 men of
 * side 0 (bound to "ming") and 50 of side 1 all make for its inside: 50 of side 0 are
 * sheltered, every one through the gate; no man of side 1 gets in. */
TEST(terrain_fort_admits_its_own_side_by_the_gate_up_to_capacity)
{
	rt_map *map = NULL;
	rt_goal_id inside = RT_NO_GOAL;
	rt_error err;
	rt_world *w = gate_fort_world(50, &map, &inside, &err);
	CHECK(w);
	if (!w) return;
	rt_goal_def gd = rt_goal_def_default();
	gd.field_cell_m = 0.5;
	rt_agent_def man = rt_agent_def_default();
	man.goal = inside;
	for (int i = 0; i < 150; ++i) {
		man.side = i < 100 ? 0 : 1;
		man.position = (rt_vec2){ -60.0 + 1.2 * (i % 50), -40.0 - 1.2 * (i / 50) };
		CHECK_OK(rt_world_add_agent(w, &man, NULL, &err), err);
	}
	int feature = 0; /* the fort is the map's only feature */
	int through_gate = 0, entered = 0, enemy_inside = 0;
	for (int step = 0; step < 4000; ++step) {
		CHECK_OK(rt_world_step(w, &err), err);
		for (int i = 0; i < 150; ++i) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)i, &v);
			enemy_inside += i >= 100 && v.position.x > 41.0 && v.position.x < 79.0 && v.position.y > 41.0 && v.position.y < 79.0;
		}
	}
	int sheltered = rt_world_fort_sheltered(w, feature), side0 = 0, side1 = 0;
	double farthest_from_gate = 0.0;
	for (int i = 0; i < 150; ++i) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)i, &v);
		if (v.state != RT_STATE_SHELTERED) continue;
		*(i < 100 ? &side0 : &side1) += 1;
		/* a sheltered man stays where he crossed into the fort */
		farthest_from_gate = fmax(farthest_from_gate, hypot(v.position.x - 60.0, v.position.y - 40.0));
		entered++;
		through_gate += hypot(v.position.x - 60.0, v.position.y - 40.0) < 8.0;
	}
	/* Q9, a sortie: 20 of the sheltered are ordered out to a field south of the fort;
	 * they leave by the gate, and the men of their side still waiting take their places */
	gd.target_min = (rt_vec2){ 40, -80 };
	gd.target_max = (rt_vec2){ 80, -60 };
	rt_goal_id field;
	CHECK_OK(rt_world_add_goal(w, &gd, &field, &err), err);
	int ordered = 0;
	bool was_out[150] = { false };
	for (int i = 0; i < 100 && ordered < 20; ++i) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)i, &v);
		if (v.state != RT_STATE_SHELTERED) continue;
		CHECK_OK(rt_world_set_agent_goal(w, (rt_agent_id)i, field, &err), err);
		CHECK_OK(rt_world_set_agent_state(w, (rt_agent_id)i, RT_STATE_MARCHING, &err), err);
		was_out[i] = true;
		ordered++;
	}
	const int after_order = rt_world_fort_sheltered(w, feature);
	for (int step = 0; step < 3000; ++step) CHECK_OK(rt_world_step(w, &err), err);
	int in_field = 0, back_in = 0;
	for (int i = 0; i < 100; ++i) {
		if (!was_out[i]) continue;
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)i, &v);
		in_field += v.position.y < -55.0 && v.position.x > 35.0 && v.position.x < 85.0;
		back_in += v.state == RT_STATE_SHELTERED;
	}
	const int refilled = rt_world_fort_sheltered(w, feature);
	rt_world_destroy(w);
	rt_map_destroy(map);
	rt_test_note("%d sheltered (%d of side 0, %d of side 1); %d entered, %d by the gate (farthest %.1f m from it); enemy inside %d times",
		     sheltered, side0, side1, entered, through_gate, farthest_from_gate, enemy_inside);
	rt_test_note("sortie: %d ordered out leave %d in the fort; after 5 min %d stand in the field south, %d went back in, "
		     "and the fort holds %d again", ordered, after_order, in_field, back_in, refilled);
	CHECK(sheltered == 50 && side0 == 50 && side1 == 0);
	CHECK(entered == 50 && through_gate == entered);
	CHECK(enemy_inside == 0);
	CHECK(ordered == 20 && after_order == 30);
	CHECK(in_field == 20 && back_in == 0);
	CHECK(refilled == 50); /* the men still waiting outside took the places freed */
}

/* E3: a pursuer riding toward the sea stops at water over his depth; a routing man (in
 * the dark, in panic) walks on into it and drowns. */
TEST(terrain_pursuers_keep_out_of_deep_water)
{
	map_builder b;
	if (!map_begin(&b, 400, 200, 5)) return;
	map_rect(&b, "{\"kind\":\"sea\",\"elevation_m\":-3}", 0, -99, 199, 99);
	rt_map *map = map_finish(&b);
	CHECK(map != NULL);
	if (!map) return;
	rt_world *w = world_on_map(map, 200, 100, 1);
	CHECK(w != NULL);
	rt_error err;
	rt_agent_def d = rt_agent_def_default();
	for (int i = 0; i < 20; ++i) {
		d.position = (rt_vec2){ -40.0, -40.0 + 4.0 * i };
		d.state = i % 2 ? RT_STATE_ROUTING : RT_STATE_FORMED;
		d.morale = i % 2 ? 0.0f : 1.0f;
		d.stance = i % 2 ? RT_STANCE_HOLD : RT_STANCE_ADVANCE; /* advancing with nobody in sight: he keeps his heading */
		d.heading = (rt_vec2){ 1.0, 0.0 };
		d.velocity = (rt_vec2){ 1.0, 0.0 };
		CHECK_OK(rt_world_add_agent(w, &d, NULL, &err), err);
	}
	for (int s = 0; s < 600; ++s) CHECK_OK(rt_world_step(w, &err), err); /* a minute */
	int steady_dry = 0, routing_in = 0;
	double steady_max = -INFINITY;
	for (int id = 0; id < 20; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		if (id % 2 == 0) {
			steady_max = fmax(steady_max, v.position.x);
			steady_dry += v.state == RT_STATE_FORMED && rt_world_water_depth_m(w, v.position) <= 1.3;
		} else {
			routing_in += v.state == RT_STATE_DEAD_DROWNED || v.position.x > 5.0;
		}
	}
	rt_test_note("advancing men: %d of 10 dry, farthest at x = %.1f m (the sea from 0 m); routing men in the sea: %d of 10",
		     steady_dry, steady_max, routing_in);
	CHECK(steady_dry == 10);
	CHECK(routing_in == 10);
	rt_world_destroy(w);
	rt_map_destroy(map);
	CHECK(rt_test_bytes_held() == 0);
}

/* A world on a 2 km map whose one feature is a fort of the Ming (side 0, bound) for 100
 * on the square 40..120 x 40..120 m, with gates `gate_width_m` wide at `gates`; NULL (a
 * CHECK failed, nothing held) if it cannot be made. *map is the caller's to destroy. */
static rt_world *ming_fort_world(const rt_vec2 *gates, int gate_count, double gate_width_m, rt_map **map)
{
	*map = NULL;
	map_builder b;
	if (!map_begin(&b, 400, 400, 5)) {
		rt_test_fail(__FILE__, __LINE__, "no blank map");
		return NULL;
	}
	char fort[512];
	int used = snprintf(fort, sizeof fort, "{\"kind\":\"fort\",\"side\":\"ming\",\"capacity\":100,\"gate_width_m\":%g,\"gates\":[",
			    gate_width_m);
	for (int g = 0; g < gate_count; ++g) {
		const rt_lonlat at = rt_map_xy_to_lonlat(b.blank, gates[g]);
		used += snprintf(fort + used, sizeof fort - (size_t)used, "%s[%.8f,%.8f]", g ? "," : "", at.lon_deg, at.lat_deg);
	}
	snprintf(fort + used, sizeof fort - (size_t)used, "]}");
	map_rect(&b, fort, 40, 40, 120, 120);
	*map = map_finish(&b);
	if (!*map) {
		rt_test_fail(__FILE__, __LINE__, "the fort map did not load");
		return NULL;
	}
	rt_world *w = world_on_map(*map, 190, 190, 0);
	rt_error err;
	if (!w || rt_world_bind_side_name(w, "ming", 0, &err) != RT_OK) {
		if (w) rt_world_destroy(w);
		rt_map_destroy(*map);
		*map = NULL;
		rt_test_fail(__FILE__, __LINE__, "no world on the fort map");
		return NULL;
	}
	return w;
}

/* Q9 with M4: men who ran into a fort in panic rest there; when they are ordered out days
 * later they march out steady, by the gate, and do not break at the gate. The men are as
 * wide as a scenario's agents at scale 100 (radius 6 m) and went in through one gate, so
 * they stand deep inside one another where they crossed the wall: leaving, they push apart
 * (the repulsion of so deep an overlap would overflow a float; it is held at the largest
 * one) and every position stays a number. */
TEST(terrain_sortie_after_rest_marches_out_steady)
{
	/* a 16 m gate in the middle of the south wall */
	const rt_vec2 gates[1] = { { 80, 40 } };
	rt_map *map;
	rt_world *w = ming_fort_world(gates, 1, 16.0, &map);
	if (!w) return;
	rt_error err;
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = (rt_vec2){ 50, 50 };
	gd.target_max = (rt_vec2){ 110, 110 };
	gd.field_cell_m = 1.0;
	rt_goal_id inside;
	CHECK_OK(rt_world_add_goal(w, &gd, &inside, &err), err);
	rt_agent_def man = rt_agent_def_default();
	man.state = RT_STATE_ROUTING; /* broken: they run for the fort */
	man.flee_goal = inside;
	man.morale = 0.05f;
	man.radius_m = 6.0;
	const int n = 30;
	for (int i = 0; i < n; ++i) {
		man.position = (rt_vec2){ 20.0 + 13.0 * (i % 10), -40.0 - 13.0 * (i / 10) };
		CHECK_OK(rt_world_add_agent(w, &man, NULL, &err), err);
	}
	const rt_world_def wd = rt_world_def_default();
	const int minute = (int)lround(60.0 / wd.dt_s);
	for (int step = 0; step < 20 * minute; ++step) CHECK_OK(rt_world_step(w, &err), err);
	int sheltered = 0;
	double low = 1.0, packed = INFINITY;
	for (int i = 0; i < n; ++i) {
		rt_agent_view v, u;
		rt_world_get_agent(w, (rt_agent_id)i, &v);
		if (v.state != RT_STATE_SHELTERED) continue;
		sheltered++;
		low = fmin(low, v.morale - v.morale_baseline);
		for (int j = 0; j < i; ++j) {
			rt_world_get_agent(w, (rt_agent_id)j, &u);
			if (u.state == RT_STATE_SHELTERED) packed = fmin(packed, hypot(v.position.x - u.position.x, v.position.y - u.position.y));
		}
	}
	/* the sortie: all ordered to a field south of the fort */
	gd.target_min = (rt_vec2){ 20, -160 };
	gd.target_max = (rt_vec2){ 140, -120 };
	rt_goal_id field;
	CHECK_OK(rt_world_add_goal(w, &gd, &field, &err), err);
	for (int i = 0; i < n; ++i) {
		CHECK_OK(rt_world_set_agent_goal(w, (rt_agent_id)i, field, &err), err);
		CHECK_OK(rt_world_set_agent_state(w, (rt_agent_id)i, RT_STATE_MARCHING, &err), err);
	}
	int routed = 0, not_a_number = 0;
	for (int step = 0; step < 20 * minute; ++step) {
		CHECK_OK(rt_world_step(w, &err), err);
		for (int i = 0; i < n; ++i) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)i, &v);
			routed += v.state == RT_STATE_ROUTING;
			not_a_number += !isfinite(v.position.x) || !isfinite(v.position.y);
		}
	}
	int in_field = 0;
	for (int i = 0; i < n; ++i) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)i, &v);
		in_field += v.position.y < -100.0; /* at the field, the first there standing in it */
	}
	rt_world_destroy(w);
	rt_map_destroy(map);
	rt_test_note("%d of %d ran into the fort, the nearest two %.2f m apart (6 m men); after 20 min their morale is at most %.3f "
		     "below their baseline (recovery time %.0f s); ordered out, %d reach the field in 20 min, %d man-steps routing, "
		     "%d positions not a number",
		     sheltered, n, packed, -low, wd.morale.recovery_time_s, in_field, routed, not_a_number);
	CHECK(sheltered == n);
	CHECK(packed < 1.0); /* they went in at one gate: deep inside one another */
	CHECK(low > -0.01);
	CHECK(not_a_number == 0);
	CHECK(routed == 0);
	CHECK(in_field == n);
}

/* Q9: the road runs through a fort of one's own side, in at one gate and out at the
 * other. A column marching to a field beyond it passes through, takes no place in it and
 * is not turned back at the gate; the enemy's column on the same road is kept out (the
 * way round the walls is not in the goal's field: docs/model.md section 13, Not yet). */
TEST(terrain_column_marches_through_its_own_fort)
{
	/* gates in the middle of the north and south walls */
	const rt_vec2 gates[2] = { { 80, 120 }, { 80, 40 } };
	rt_map *map;
	rt_world *w = ming_fort_world(gates, 2, 8.0, &map);
	if (!w) return;
	rt_error err;
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = (rt_vec2){ 40, -160 };
	gd.target_max = (rt_vec2){ 120, -120 };
	gd.field_cell_m = 1.0;
	rt_goal_id field;
	CHECK_OK(rt_world_add_goal(w, &gd, &field, &err), err);
	rt_agent_def man = rt_agent_def_default();
	man.state = RT_STATE_MARCHING;
	man.goal = field;
	const int n = 60; /* 40 of the fort's side (0), then 20 of the enemy's (1), north of it */
	for (int i = 0; i < n; ++i) {
		man.side = i < 40 ? 0 : 1;
		man.position = (rt_vec2){ 70.0 + 2.0 * (i % 10), (i < 40 ? 140.0 : 175.0) + 2.0 * ((i % 40) / 10) };
		CHECK_OK(rt_world_add_agent(w, &man, NULL, &err), err);
	}
	const int minute = (int)lround(60.0 / rt_world_def_default().dt_s);
	int most_inside = 0, enemy_inside = 0;
	for (int step = 0; step < 8 * minute; ++step) {
		CHECK_OK(rt_world_step(w, &err), err);
		int inside = 0;
		for (int i = 0; i < n; ++i) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)i, &v);
			const bool in = v.position.x > 41.0 && v.position.x < 119.0 && v.position.y > 41.0 && v.position.y < 119.0;
			inside += in && i < 40;
			enemy_inside += in && i >= 40;
		}
		most_inside = inside > most_inside ? inside : most_inside;
	}
	int arrived = 0, enemy_arrived = 0, sheltered = 0;
	for (int i = 0; i < n; ++i) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)i, &v);
		*(i < 40 ? &arrived : &enemy_arrived) += v.position.y < -110.0;
		sheltered += v.state == RT_STATE_SHELTERED;
	}
	const int held = rt_world_fort_sheltered(w, 0);
	rt_world_destroy(w);
	rt_map_destroy(map);
	rt_test_note("through the fort: %d of 40 at the field beyond in 8 min (at most %d inside at once), %d sheltered, the fort "
		     "holding %d; the enemy's 20: %d at the field (inside %d man-steps)",
		     arrived, most_inside, sheltered, held, enemy_arrived, enemy_inside);
	CHECK(arrived == 40 && most_inside > 0);
	CHECK(sheltered == 0 && held == 0);
	CHECK(enemy_inside == 0);
}

/* E3, E5: a steady man marches over a ford. The wade-out of E3 (section 11) is the sea
 * rising; it took every steady man within two raster cells of any water over the wading
 * depth, rivers included, so no unit on a march (not in flight) could cross the 0.7 m
 * Xiaoling crossing at Dalinghe: 200 horse sent over it stood 95 m short of the ford's
 * centre ten minutes on. Now only the sea's water counts. The same 200 horse
 * (tests/data/scenarios/spread), sent 1.2 km beyond the crossing, are there in ten
 * minutes. */
TEST(terrain_a_march_crosses_a_ford)
{
	const char *sets[] = { "corps.riders.units.plain_red.order.spread=false", "corps.riders.units.plain_red.order.to=beyond" };
	rt_scenario *sc;
	rt_run *run;
	CHECK(scenario_run("tests/data/scenarios/spread/scenario.yaml", sets, 2, &sc, &run));
	rt_world *w = rt_run_world(run);
	CHECK(run_to(run, 600.0));
	rt_scenario_info info;
	rt_scenario_get_info(sc, &info);
	const rt_vec2 beyond = rt_map_lonlat_to_xy(info.map, (rt_lonlat){ 121.1715, 41.0809 });
	int riders = 0, there = 0;
	for (int id = 0; id < rt_world_agent_count(w); ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		if (v.side != 1 || v.kind != RT_KIND_HORSE) continue;
		riders++;
		there += hypot(v.position.x - beyond.x, v.position.y - beyond.y) <= 450.0; /* at its 600 m square (corners 424 m out) */
	}
	rt_test_note("ten minutes after the order, %d of %d riders are at the place 1.2 km beyond the ford", there, riders);
	CHECK(riders == 100 && there >= 90);
	rt_run_destroy(run);
	rt_scenario_destroy(sc);
	CHECK(rt_test_bytes_held() == 0);
}
