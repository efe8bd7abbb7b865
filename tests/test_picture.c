/* Pictures a historian reads: the face used for text has Chinese glyphs; place names
 * appear in Chinese over pinyin above a fort; commanders are diamonds, larger than a man's
 * dot; an SVG is XML; a trace frame drawn over its map looks like the world it was taken
 * from; the moment nearest a time is found in a trace; a run folder is drawn again at a
 * time typed as a user would, with the sea at the level its series gives and the fire
 * of that moment, and bad input is refused naming the field. */
#include "test.h"
#include "canvas.h"
#include "fire_log.h"
#include "world.h"
#include "rout/env.h"
#include "rout/picture.h"
#include "rout/scenario.h"

#include <cairo.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SMALL_MAP "tests/data/maps/small.geojson" /* near Songshan: sea, flat, river, hill, fort, camp ... */

static uint32_t pixel(cairo_surface_t *s, int x, int y)
{
	const uint32_t *row = (const uint32_t *)(const void *)(cairo_image_surface_get_data(s) + (size_t)y * (size_t)cairo_image_surface_get_stride(s));
	return row[x] & 0xffffff;
}

static int channel(uint32_t p, int k)
{
	return (int)((p >> (16 - 8 * k)) & 255);
}

static bool near_colour(uint32_t p, int r, int g, int b, int tolerance)
{
	return abs(channel(p, 0) - r) < tolerance && abs(channel(p, 1) - g) < tolerance && abs(channel(p, 2) - b) < tolerance;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *p = malloc((size_t)n + 1);
	if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	if (p) p[n] = '\0';
	fclose(f);
	return p;
}

static bool svg_is_xml(const char *path)
{
	char *text = slurp(path);
	if (!text) return false;
	const bool ok = strncmp(text, "<?xml", 5) == 0 && strstr(text, "<svg") && strstr(text, "</svg>") &&
			strstr(text, "xmlns=\"http://www.w3.org/2000/svg\"");
	free(text);
	/* and well-formed, by an XML parser where there is one */
	if (ok && access("/usr/bin/python3", X_OK) == 0) {
		char command[400];
		snprintf(command, sizeof command, "/usr/bin/python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' '%s' 2>/dev/null", path);
		const int rc = system(command);
		return rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
	}
	return ok;
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static void keep_or_remove(const char *path)
{
	if (!getenv("ROUT_KEEP_PICTURES")) remove(path);
}

static rt_map *small_map(void)
{
	rt_map_def md = rt_map_def_default();
	md.allocator = rt_test_allocator();
	rt_map *map = NULL;
	rt_error err;
	if (rt_map_load(SMALL_MAP, &md, &map, &err) != RT_OK) rt_test_note("%s: %s", SMALL_MAP, err.message);
	return map;
}

/* A world whose bounds are the map's rectangle, with the sea 0.8 m up at 20:40 on
 * 25 September 1641 at Songshan. */
static rt_world *world_on(const rt_map *map)
{
	int nx, ny;
	double cell;
	rt_vec2 corner;
	rt_map_size(map, &nx, &ny, &cell, &corner);
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.bounds_min = corner;
	d.bounds_max = (rt_vec2){ corner.x + nx * cell, corner.y + ny * cell };
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return NULL;
	rt_environment_def env = rt_environment_def_default();
	env.start_jd_ut = rt_julian_day_from_civil(1641, 9, 25, 20, 40, 0, 8);
	env.latitude_deg = 41.03;
	env.longitude_deg = 121.08;
	env.tide.mean_level_m = 0.8;
	if (rt_world_set_map(w, map, &err) != RT_OK || rt_world_set_environment(w, &env, &err) != RT_OK) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

/* The one face that draws every text holds the Chinese characters of the place names. */
TEST(picture_font_has_chinese_glyphs)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 200, 60);
	cairo_t *cr = cairo_create(s);
	rt__font(cr, 20.0, false);
	cairo_scaled_font_t *font = cairo_get_scaled_font(cr);
	cairo_glyph_t *glyphs = NULL;
	int count = 0;
	const char *text = "松山堡小凌河乳峰山";
	cairo_status_t st = cairo_scaled_font_text_to_glyphs(font, 0, 0, text, -1, &glyphs, &count, NULL, NULL, NULL);
	int missing = 0;
	for (int i = 0; i < count; ++i) missing += glyphs[i].index == 0; /* glyph 0 is .notdef: a box */
	cairo_glyph_free(glyphs);
	/* and drawing them marks the picture */
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	rt__text(cr, 10.0, 40.0, "松山堡", 0.0, 0.0);
	cairo_surface_flush(s);
	int dark = 0;
	for (int y = 0; y < 60; ++y)
		for (int x = 0; x < 200; ++x) dark += channel(pixel(s, x, y), 0) < 128;
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	rt_test_note("%d glyphs for 9 characters, %d missing; 松山堡 darkens %d pixels", count, missing, dark);
	CHECK_MSG(st == CAIRO_STATUS_SUCCESS && count == 9 && missing == 0,
		  "the face \"%s\" has no Chinese glyphs: install fonts-noto-cjk (scripts/setup-deps.sh)", RT__FONT_FAMILY);
	CHECK(dark > 150);
}

/* Songshan's name, 松山堡 over "Songshan", is drawn just above the fort: with names the
 * band above it has dark text in its upper and lower halves; without, none. */
TEST(picture_names_in_chinese_and_pinyin_above_a_fort)
{
	rt_map *map = small_map();
	CHECK(map);
	rt_world *w = world_on(map);
	CHECK(w);
	rt_map_feature_view fort;
	CHECK(rt_map_feature_info(map, rt_map_find_feature(map, "songshan"), &fort));
	rt_vec2 lo, hi;
	rt_world_get_bounds(w, &lo, &hi);
	const double scale = 1200.0 / (hi.x - lo.x);
	const int x0 = (int)((fort.bbox_min.x - lo.x) * scale) - 20, x1 = (int)((fort.bbox_max.x - lo.x) * scale) + 20;
	const int y_top = (int)((hi.y - fort.bbox_max.y) * scale); /* the fort's north wall, in pixels */
	int dark[2][2] = { { 0, 0 }, { 0, 0 } }; /* [names][upper, lower half of the band] */
	const char *path = rt_test_tmp("rout-picture-names.png");
	for (int names = 0; names < 2; ++names) {
		rt_picture_def pd = rt_picture_def_default();
		pd.path = path;
		pd.names = names == 1;
		rt_error err;
		CHECK_OK(rt_world_draw_picture(w, &pd, &err), err);
		cairo_surface_t *s = cairo_image_surface_create_from_png(path);
		CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
		for (int y = y_top - 42; y < y_top - 6; ++y)
			for (int x = x0; x < x1; ++x) {
				const uint32_t p = pixel(s, x, y);
				if (channel(p, 0) + channel(p, 1) + channel(p, 2) < 250) dark[names][y < y_top - 24 ? 0 : 1]++;
			}
		cairo_surface_destroy(s);
		keep_or_remove(path);
	}
	rt_world_destroy(w);
	rt_map_destroy(map);
	rt_test_note("dark pixels above the fort: %d + %d without names, %d + %d with", dark[0][0], dark[0][1], dark[1][0], dark[1][1]);
	CHECK(dark[0][0] + dark[0][1] == 0);
	CHECK(dark[1][0] > 60); /* 松山堡 */
	CHECK(dark[1][1] > 40); /* Songshan */
}

/* A commander is a diamond ringed in white, wider than a man's dot: 7.5 px above his
 * centre is white, where 7.5 px above a foot soldier is the paper. */
TEST(picture_commanders_are_diamonds)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.bounds_min = (rt_vec2){ 0, 0 };
	d.bounds_max = (rt_vec2){ 100, 60 };
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	CHECK(w);
	rt_agent_def ad = rt_agent_def_default();
	ad.position = (rt_vec2){ 30, 30 };
	CHECK_OK(rt_world_add_agent(w, &ad, NULL, &err), err);
	ad.kind = RT_KIND_COMMANDER;
	ad.position = (rt_vec2){ 70, 30 };
	CHECK_OK(rt_world_add_agent(w, &ad, NULL, &err), err);
	rt_picture_def pd = rt_picture_def_default();
	pd.path = rt_test_tmp("rout-picture-commander.png");
	pd.width_px = 1000; /* 10 px a metre: the soldier at (300, 300), the commander at (700, 300) */
	CHECK_OK(rt_world_draw_picture(w, &pd, &err), err);
	rt_world_destroy(w);
	cairo_surface_t *s = cairo_image_surface_create_from_png(pd.path);
	CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
	const uint32_t man = pixel(s, 300, 300), man_above = pixel(s, 300, 292), chief = pixel(s, 700, 300), chief_above = pixel(s, 700, 292);
	cairo_surface_destroy(s);
	keep_or_remove(pd.path);
	rt_test_note("man %06x, above him %06x; commander %06x, above him %06x", man, man_above, chief, chief_above);
	CHECK(near_colour(man, 204, 38, 31, 10));   /* side 0, formed */
	CHECK(near_colour(chief, 204, 38, 31, 10));
	CHECK(near_colour(chief_above, 255, 255, 255, 10));
	CHECK(near_colour(man_above, 245, 240, 224, 10)); /* the paper */
}

TEST(picture_svg_is_xml_and_png_kept_for_old_callers)
{
	rt_map *map = small_map();
	CHECK(map);
	rt_world *w = world_on(map);
	CHECK(w);
	rt_error err;
	rt_agent_def ad = rt_agent_def_default();
	for (int i = 0; i < 50; ++i) {
		ad.position = (rt_vec2){ 100.0 + (i % 10), 50.0 + (i / 10) };
		CHECK_OK(rt_world_add_agent(w, &ad, NULL, &err), err);
	}
	const char *names[2] = { "Ming", "Qing" };
	rt_picture_def pd = rt_picture_def_default();
	pd.path = rt_test_tmp("rout-picture.svg");
	pd.title = "Songshan, SVG";
	pd.side_names = names;
	pd.side_name_count = 2;
	CHECK_OK(rt_world_draw_picture(w, &pd, &err), err);
	const bool xml = svg_is_xml(pd.path), temp_left = rt_test_temp_left(pd.path);
	char *text = slurp(pd.path);
	const bool ground = text && strstr(text, "<image"); /* the terrain, as one picture-sized image */
	free(text);
	keep_or_remove(pd.path);
	/* rt_world_draw_png writes PNG whatever the name says, as it always did */
	pd.path = rt_test_tmp("rout-picture-png.svg");
	CHECK_OK(rt_world_draw_png(w, &pd, &err), err);
	char *png = slurp(pd.path);
	const bool is_png = png && memcmp(png, "\x89PNG", 4) == 0;
	free(png);
	remove(pd.path);
	rt_world_destroy(w);
	rt_map_destroy(map);
	CHECK(xml && ground && !temp_left);
	CHECK(is_png);
}

/* A trace with a frame every second for a minute: 200 men walking east. */
static bool walking_trace(const rt_map *map, const char *path, rt_world **keep)
{
	rt_world *w = world_on(map);
	if (!w) return false;
	rt_error err;
	rt_corps_def cd = rt_corps_def_default();
	cd.name = "Wang Pu";
	rt_corps_id corps;
	bool ok = rt_world_add_corps(w, &cd, &corps, &err) == RT_OK;
	rt_agent_def ad = rt_agent_def_default();
	ad.heading = (rt_vec2){ 1.0, 0.0 };
	ad.state = RT_STATE_MARCHING;
	for (int i = 0; i < 200 && ok; ++i) {
		ad.side = (uint8_t)(i % 2);
		ad.kind = i == 0 ? RT_KIND_COMMANDER : RT_KIND_FOOT;
		ad.corps = ad.side == 0 ? corps : -1;
		ad.position = (rt_vec2){ -300.0 + 1.5 * (i % 20) + (ad.side ? 0.0 : 400.0), 100.0 + 1.5 * (i / 20) };
		rt_agent_id id;
		ok = rt_world_add_agent(w, &ad, &id, &err) == RT_OK;
		if (ok && i == 0) ok = rt_world_set_corps_commander(w, corps, id, &err) == RT_OK;
	}
	rt_trace_writer *t = ok ? rt_trace_open(w, path, 10, &err) : NULL;
	ok = ok && t;
	for (int s = 0; s < 600 && ok; ++s) ok = rt_world_step(w, &err) == RT_OK && rt_trace_record(t, w, &err) == RT_OK;
	if (t) ok = rt_trace_close(t, &err) == RT_OK && ok;
	if (!ok) rt_test_note("%s", err.message);
	if (keep && ok) *keep = w;
	else rt_world_destroy(w);
	return ok;
}

/* The world after a minute and the trace's last frame drawn over the same map with what
 * the trace does not keep (the clock, sea, light and commander) look the same. */
TEST(picture_trace_frame_looks_like_its_world)
{
	rt_map *map = small_map();
	CHECK(map);
	const char *trace = rt_test_tmp("rout-picture-frame.bin");
	rt_world *w = NULL;
	CHECK(walking_trace(map, trace, &w));
	const char *names[2] = { "Ming", "Qing" };
	rt_picture_def pd = rt_picture_def_default();
	pd.side_names = names;
	pd.side_name_count = 2;
	pd.allocator = rt_test_allocator();
	pd.path = rt_test_tmp("rout-picture-world.png");
	rt_error err;
	CHECK_OK(rt_world_draw_picture(w, &pd, &err), err);
	rt_environment_state env;
	rt_world_get_environment(w, &env);
	const double start = env.jd_ut - 60.0 / 86400.0;
	rt_world_destroy(w);

	rt_allocator a = rt_test_allocator();
	rt_trace_moment m;
	CHECK_OK(rt_trace_read_moment(trace, INFINITY, &a, &m, &err), err);
	remove(trace);
	const rt_agent_id chief = 0;
	const char *chief_name = "Wang Pu";
	rt_frame_overlay o = rt_frame_overlay_default();
	o.origin = m.origin;
	o.start_jd_ut = start;
	o.sea_level_m = env.sea_level_m;
	o.light_lux = env.illuminance_lux;
	o.commanders = &chief;
	o.commander_names = &chief_name;
	o.commander_count = 1;
	pd.path = rt_test_tmp("rout-picture-frame.png");
	rt_status s = rt_picture_draw_frame(map, &m.frame, &o, &pd, &err);
	rt_trace_moment_free(&m);
	rt_map_destroy(map);
	CHECK_OK(s, err);
	cairo_surface_t *a_img = cairo_image_surface_create_from_png(rt_test_tmp("rout-picture-world.png"));
	cairo_surface_t *b_img = cairo_image_surface_create_from_png(rt_test_tmp("rout-picture-frame.png"));
	CHECK(cairo_surface_status(a_img) == CAIRO_STATUS_SUCCESS && cairo_surface_status(b_img) == CAIRO_STATUS_SUCCESS);
	const int wa = cairo_image_surface_get_width(a_img), ha = cairo_image_surface_get_height(a_img);
	const bool same_size = wa == cairo_image_surface_get_width(b_img) && ha == cairo_image_surface_get_height(b_img);
	long differ = 0, men = 0;
	for (int y = 0; same_size && y < ha; ++y)
		for (int x = 0; x < wa; ++x) {
			const uint32_t p = pixel(a_img, x, y), q = pixel(b_img, x, y);
			int worst = 0;
			for (int k = 0; k < 3; ++k) worst = abs(channel(p, k) - channel(q, k)) > worst ? abs(channel(p, k) - channel(q, k)) : worst;
			differ += worst > 40;
			men += near_colour(q, 204, 38, 31, 12) || near_colour(q, 33, 77, 191, 12); /* formed men of either side */
		}
	cairo_surface_destroy(a_img);
	cairo_surface_destroy(b_img);
	keep_or_remove(rt_test_tmp("rout-picture-world.png"));
	keep_or_remove(rt_test_tmp("rout-picture-frame.png"));
	rt_test_note("%d x %d px; %ld differ by more than 40 in a channel; %ld pixels of formed men", wa, ha, differ, men);
	CHECK(same_size);
	CHECK(men > 100);
	CHECK(differ < (long)wa * ha / 1000); /* under 0.1 % */
}

/* The moment nearest a time: 12.3 s is the frame of 12 s, 12.7 s that of 13 s; the ends by
 * infinities; the men are those the reader gives for that frame; a cut trace is refused. */
TEST(picture_trace_moment_is_the_nearest_frame)
{
	rt_map *map = small_map();
	CHECK(map);
	const char *trace = rt_test_tmp("rout-picture-moment.bin");
	CHECK(walking_trace(map, trace, NULL));
	rt_map_destroy(map);
	rt_allocator a = rt_test_allocator();
	rt_error err;
	/* the men of the frame at 12 s, read in order */
	rt_trace_reader *r = rt_trace_reader_open(trace, &a, &err);
	CHECK(r);
	rt_trace_frame f;
	float x12 = NAN, y12 = NAN;
	while (rt_trace_reader_next(r, &f, &err) == RT_OK)
		if (fabs(f.time_s - 12.0) < 1e-6) {
			x12 = f.x[57];
			y12 = f.y[57];
		}
	rt_trace_reader_close(r);
	rt_trace_moment m;
	double times[4];
	int index[4], frames = 0;
	const double asked[4] = { 12.3, 12.7, -INFINITY, INFINITY };
	bool same_man = false;
	for (int k = 0; k < 4; ++k) {
		CHECK_OK(rt_trace_read_moment(trace, asked[k], &a, &m, &err), err);
		times[k] = m.frame.time_s;
		index[k] = m.frame_index;
		frames = m.frame_count;
		if (k == 0) same_man = m.frame.count == 200 && m.frame.x[57] == x12 && m.frame.y[57] == y12;
		rt_trace_moment_free(&m);
	}
	rt_test_note("12.3 s -> %.1f s (frame %d), 12.7 s -> %.1f s, first %.1f s, last %.1f s (frame %d of %d)", times[0], index[0], times[1],
		     times[2], times[3], index[3], frames);
	CHECK_NEAR(times[0], 12.0, 1e-6);
	CHECK(index[0] == 11);
	CHECK_NEAR(times[1], 13.0, 1e-6);
	CHECK_NEAR(times[2], 1.0, 1e-6);
	CHECK_NEAR(times[3], 60.0, 1e-6);
	CHECK(index[3] == 59 && frames == 60);
	CHECK(same_man);
	CHECK(rt_trace_read_moment(trace, NAN, &a, &m, &err) == RT_ERR_INVALID);
	/* cut the last frame short: passing over it finds it truncated */
	struct stat st;
	CHECK(stat(trace, &st) == 0);
	CHECK(truncate(trace, st.st_size - 5) == 0);
	rt_status s = rt_trace_read_moment(trace, 5.0, &a, &m, &err);
	remove(trace);
	rt_test_note("cut trace: %s", err.message);
	CHECK(s == RT_ERR_PARSE && strstr(err.message, "frame 59 is truncated"));
}

/* ---- the run folder ---- */
static bool write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	if (!f) return false;
	const bool ok = fputs(text, f) >= 0;
	return fclose(f) == 0 && ok;
}

/* A run folder: the small map, a minute's trace from 20:00, the sea rising from 0.5 to
 * 1.5 m and the light falling, a commander. */
static bool run_folder(char *dir)
{
	if (!mkdtemp(dir)) return false;
	char path[256];
	char *map_text = slurp(SMALL_MAP);
	snprintf(path, sizeof path, "%s/map.geojson", dir);
	bool ok = map_text && write_text(path, map_text);
	free(map_text);
	rt_map *map = ok ? small_map() : NULL;
	snprintf(path, sizeof path, "%s/trace.bin", dir);
	ok = ok && map && walking_trace(map, path, NULL);
	rt_map_destroy(map);
	snprintf(path, sizeof path, "%s/run.json", dir);
	return ok && write_text(path, "{\"scenario\": \"test\", \"map\": \"map.geojson\", \"start\": \"1641-09-25T20:00\", \"timezone_h\": 8,\n"
				      " \"sides\": [\"Ming\", \"Qing\"], \"commanders\": [{\"agent\": 0, \"name\": \"Hong Chengchou\"}],\n"
				      " \"series\": {\"time_s\": [0, 60], \"sea_level_m\": [0.5, 1.5], \"light_lux\": [0.01, 0.001]}}\n");
}

static void remove_folder(const char *dir)
{
	char command[300];
	snprintf(command, sizeof command, "rm -rf '%s'", dir);
	if (!getenv("ROUT_KEEP_PICTURES") && system(command) != 0) rt_test_note("could not remove %s", dir);
}

/* The middle of the tidal flat in an 800 px picture of the small map, in pixels. */
static void flat_pixel(int *px, int *py)
{
	rt_map *map = small_map();
	int nx, ny;
	double cell;
	rt_vec2 corner;
	rt_map_size(map, &nx, &ny, &cell, &corner);
	const rt_vec2 p = rt_map_lonlat_to_xy(map, (rt_lonlat){ 121.08, 0.5 * (41.0254977 + 41.0268484) });
	const double scale = 800.0 / (nx * cell);
	*px = (int)((p.x - corner.x) * scale);
	*py = (int)((corner.y + ny * cell - p.y) * scale);
	rt_map_destroy(map);
}

static bool water_at(const char *png, int x, int y, uint32_t *seen)
{
	cairo_surface_t *s = cairo_image_surface_create_from_png(png);
	bool water = false;
	if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) {
		*seen = pixel(s, x, y);
		water = channel(*seen, 2) > channel(*seen, 0) + 40;
	}
	cairo_surface_destroy(s);
	return water;
}

TEST(picture_run_folder_drawn_again)
{
	char dir[] = "/tmp/rout-run-XXXXXX";
	CHECK(run_folder(dir));
	int fx, fy;
	flat_pixel(&fx, &fy);
	rt_render_def rd = rt_render_def_default();
	rd.run_folder = dir;
	rd.allocator = rt_test_allocator();
	rd.width_px = 800;
	char written[1200], expected[300];
	double t = -1.0;
	rt_error err;
	/* at the start the sea stands at 0.5 m, level with the flat: dry */
	rd.at = "start";
	CHECK_OK(rt_render_run(&rd, written, sizeof written, &t, &err), err);
	uint32_t seen_dry = 0, seen_wet = 0;
	const bool wet_at_start = water_at(written, fx, fy, &seen_dry);
	CHECK_NEAR(t, 1.0, 1e-6); /* the first frame */
	/* at 20:00:45 the series says 1.25 m: the flat is under water */
	rd.at = "20:00:45";
	CHECK_OK(rt_render_run(&rd, written, sizeof written, &t, &err), err);
	snprintf(expected, sizeof expected, "%s/render-1641-09-25T200045.png", dir);
	const bool named = strcmp(written, expected) == 0;
	const bool wet_later = water_at(written, fx, fy, &seen_wet);
	cairo_surface_t *s = cairo_image_surface_create_from_png(written);
	const int width = cairo_image_surface_get_width(s);
	cairo_surface_destroy(s);
	rt_test_note("flat at (%d, %d): %06x at the start, %06x at 45 s; wrote %s", fx, fy, seen_dry, seen_wet, written);
	CHECK(!wet_at_start);
	CHECK(wet_later);
	CHECK_NEAR(t, 45.0, 1e-6);
	CHECK(named && width == 800);
	/* the end, as SVG; a simulated time; a full local time */
	rd.at = NULL;
	rd.format = RT_IMAGE_SVG;
	CHECK_OK(rt_render_run(&rd, written, sizeof written, &t, &err), err);
	CHECK(svg_is_xml(written) && strstr(written, ".svg"));
	CHECK_NEAR(t, 60.0, 1e-6);
	rd.format = RT_IMAGE_AUTO;
	rd.at = "0.5min";
	CHECK_OK(rt_render_run(&rd, written, sizeof written, &t, &err), err);
	CHECK_NEAR(t, 30.0, 1e-6);
	rd.at = "1641-09-25 20:00:20";
	CHECK_OK(rt_render_run(&rd, written, sizeof written, &t, &err), err);
	CHECK_NEAR(t, 20.0, 1e-6);
	/* outside the run, or not a time */
	rd.at = "22:00";
	CHECK(rt_render_run(&rd, written, sizeof written, &t, &err) == RT_ERR_INVALID);
	rt_test_note("22:00: %s", err.message);
	CHECK(strstr(err.message, "outside the run, which covers 25 Sep 1641 20:00 to 25 Sep 1641 20:01"));
	rd.at = "yesterday";
	CHECK(rt_render_run(&rd, written, sizeof written, &t, &err) == RT_ERR_INVALID && strcmp(err.field, "at") == 0);
	/* the command: exit 0 and the file; a time outside the run, exit 2 */
	if (access("build/rout", X_OK) == 0) {
		char command[600], out[300];
		snprintf(out, sizeof out, "%s/cli.png", dir);
		snprintf(command, sizeof command, "build/rout render %s --at 30s --width 400 --out %s >/dev/null", dir, out);
		int rc = system(command);
		CHECK(rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0 && exists(out));
		snprintf(command, sizeof command, "build/rout render %s --at 23:00 2>/dev/null", dir);
		rc = system(command);
		CHECK(rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
	} else {
		rt_test_note("build/rout is not built here; the command was not run");
	}
	remove_folder(dir);
}

TEST(picture_run_folder_refuses_a_bad_description)
{
	char dir[] = "/tmp/rout-run-XXXXXX";
	CHECK(run_folder(dir));
	char path[256];
	snprintf(path, sizeof path, "%s/run.json", dir);
	rt_render_def rd = rt_render_def_default();
	rd.run_folder = dir;
	rd.allocator = rt_test_allocator();
	rt_error err;
	static const struct {
		const char *json, *field, *says;
	} bad[] = {
		{ "{\"map\": \"map.geojson\", \"start\": \"noon\", \"timezone_h\": 8}", "start", "expected the local time of the run's start" },
		{ "{\"start\": \"1641-09-25T20:00\", \"timezone_h\": 8}", "map", "expected the path of the map" },
		{ "{\"map\": \"map.geojson\", \"start\": \"1641-09-25T20:00\"}", "timezone_h", "missing" },
		{ "{\"map\": \"map.geojson\", \"start\": \"1641-09-25T20:00\", \"timezone_h\": 8, \"commanders\": [{\"agent\": 999}]}", "commanders[0]",
		  "agent 999 is not in the trace" },
		{ "{\"map\": \"map.geojson\", \"start\": \"1641-09-25T20:00\", \"timezone_h\": 8, \"series\": {\"time_s\": [0, 1], \"light_lux\": [1]}}",
		  "series.light_lux", "as long as series.time_s" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
		CHECK(write_text(path, bad[i].json));
		rt_status s = rt_render_run(&rd, NULL, 0, NULL, &err);
		rt_test_note("%s [%s]: %s", err.file, err.field, err.message);
		CHECK(s == RT_ERR_INVALID);
		CHECK(strcmp(err.field, bad[i].field) == 0 && strstr(err.message, bad[i].says) && strstr(err.file, "run.json"));
	}
	CHECK(write_text(path, "{\"map\": \"map.geojson\",}"));
	CHECK(rt_render_run(&rd, NULL, 0, NULL, &err) == RT_ERR_PARSE && err.line == 1);
	remove_folder(dir);
}

/* Drawing a run again fails cleanly at every one of its allocations: RT_ERR_NOMEM,
 * nothing held, no picture left. */
TEST(picture_run_folder_out_of_memory_is_a_clean_error)
{
	char dir[] = "/tmp/rout-run-XXXXXX";
	CHECK(run_folder(dir));
	char out[300];
	snprintf(out, sizeof out, "%s/oom.png", dir);
	rt_render_def rd = rt_render_def_default();
	rd.run_folder = dir;
	rd.allocator = rt_test_allocator();
	rd.width_px = 120; /* small: the picture is not what is tested */
	rd.out_path = out;
	rd.at = "30s";
	rt_error err;
	rt_test_fail_allocation(-1); /* counts from here */
	CHECK_OK(rt_render_run(&rd, NULL, 0, NULL, &err), err);
	const long needed = rt_test_allocations_made();
	remove(out);
	long failures = 0;
	for (long k = 0; k < needed; ++k) {
		rt_test_fail_allocation(k);
		rt_status s = rt_render_run(&rd, NULL, 0, NULL, &err);
		rt_test_fail_allocation(-1);
		CHECK_MSG(s == RT_ERR_NOMEM && rt_test_bytes_held() == 0 && !exists(out), "allocation %ld of %ld: %s (%s)", k, needed,
			  rt_status_name(s), err.message);
		failures++;
	}
	rt_test_note("%ld allocations in a render; failing each in turn gave %ld clean errors", needed, failures);
	CHECK(failures == needed && needed >= 10);
	remove_folder(dir);
}

/* ---- the fire of a moment drawn again ---- */
/* The red regiment on the grass of the mini map and a line of fire 800 m long set 300 m
 * upwind of it at 07:01 in a dry west wind of 8 m/s (as tests/test_scenario.c). */
static const char fire_scenario[] =
	"rout: 1\n"
	"name: fire\n"
	"map: map.geojson\n"
	"start: 1641-09-26T07:00\n"
	"end: 1641-09-26T07:05\n"
	"utc_offset_h: 8\n"
	"place: {lat: 41.0, lon: 121.0}\n"
	"scale: 2\n"
	"dt_s: 0.5\n"
	"environment:\n"
	"  weather:\n"
	"    wetness: 0\n"
	"    wind:\n"
	"      - {at: 1641-09-26T07:00, speed_mps: 8, from_deg: 270}\n"
	"  fires:\n"
	"    - {at: 1641-09-26T07:01, place: meadow, offset_m: [-300, 0], length_m: 800, bearing_deg: 0}\n"
	"sides:\n"
	"  red: {name: Red, map_side: red}\n"
	"  blue: {name: Blue, map_side: blue}\n"
	"places:\n"
	"  keep: {feature: keep}\n"
	"  blue_camp: {feature: blue_camp}\n"
	"  meadow: {lat: 41.008, lon: 120.985, radius_m: 100}\n"
	"corps:\n"
	"  red_one:\n"
	"    side: red\n"
	"    name: One\n"
	"    refuge: keep\n"
	"    units:\n"
	"      one_foot: {kind: foot, men: 300, at: meadow}\n"
	"  blue_horse:\n"
	"    side: blue\n"
	"    name: Khan\n"
	"    units:\n"
	"      riders: {kind: horse, men: 100, at: blue_camp}\n";

static bool fire_coloured(uint32_t p)
{
	return near_colour(p, 77, 71, 66, 10) || near_colour(p, 245, 148, 41, 10) || near_colour(p, 224, 51, 13, 10);
}

/* Pixels of the fire's colours (burnt ground, flames, a head fire's flames) in a picture
 * that are not of those colours in another of the same size (NULL: all of them). */
static long fire_pixels(const char *png, const char *other)
{
	cairo_surface_t *s = cairo_image_surface_create_from_png(png);
	cairo_surface_t *o = other ? cairo_image_surface_create_from_png(other) : NULL;
	long n = -1;
	if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS && (!o || cairo_surface_status(o) == CAIRO_STATUS_SUCCESS)) {
		n = 0;
		const int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
		if (o && (cairo_image_surface_get_width(o) != w || cairo_image_surface_get_height(o) != h)) n = -1;
		for (int y = 0; n >= 0 && y < h; ++y)
			for (int x = 0; x < w; ++x) n += fire_coloured(pixel(s, x, y)) && !(o && fire_coloured(pixel(o, x, y)));
	}
	cairo_surface_destroy(s);
	if (o) cairo_surface_destroy(o);
	return n;
}

/* What a cell's fire state says a reader sees: 0 nothing, 1 flames, 2 a head fire's
 * flames, 3 burnt ground. */
static int fire_look(uint8_t st)
{
	return st == RT_FIRE_CELL_BURNING ? 1 : st == RT_FIRE_CELL_HOT ? 2 : st == RT_FIRE_CELL_BURNT ? 3 : 0;
}

/* A run with a grass fire keeps the cells it caught (fire.bin): the fire drawn again at
 * a moment is, cell for cell, the live world's fire at that moment, `rout render` shows
 * it (burnt ground and flames) where the same frame without the log shows none, a frame
 * before the fire is lit shows none either, and a damaged log is refused. */
TEST(picture_trace_frame_shows_the_fire_of_its_moment)
{
	char dir[] = "/tmp/rout-fire-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char trace[256], path[256];
	snprintf(trace, sizeof trace, "%s/trace.bin", dir);
	rt_scenario_def sd = rt_scenario_def_default();
	sd.allocator = rt_test_allocator();
	rt_scenario *sc = NULL;
	rt_error err;
	CHECK_OK(rt_scenario_load_string(fire_scenario, strlen(fire_scenario), "fire.yaml", "tests/data/scenarios/mini", &sd, &sc, &err), err);
	rt_run_def rd = rt_run_def_default();
	rd.allocator = rt_test_allocator();
	rd.threads = 1;
	rd.trace_every_s = 30.0;
	rd.trace_path = trace;
	rt_run *run = NULL;
	CHECK_OK(rt_run_create(sc, &rd, &run, &err), err);
	const double when_s = 180.0; /* 07:03, two minutes after the fire is set */
	bool ok = true;
	while (ok && rt_run_time_s(run) < when_s - 1e-9) ok = rt_run_step(run, &err) == RT_OK;
	const rt_fire *f = rt_run_world(run)->fire;
	uint8_t *live = f ? malloc(f->cells) : NULL;
	const size_t cells = f ? f->cells : 0;
	if (live) memcpy(live, f->state, cells);
	while (ok && !rt_run_done(run)) ok = rt_run_step(run, &err) == RT_OK;
	ok = ok && rt_run_write_outputs(run, dir, &err) == RT_OK;
	rt_run_destroy(run);
	rt_scenario_destroy(sc);
	CHECK_MSG(ok && live, "the run failed: %s", err.message);

	/* the log read back, at 07:03, against the live fire then */
	snprintf(path, sizeof path, "%s/fire.bin", dir);
	rt_allocator a = rt_test_allocator();
	rt_fire_log *log = NULL;
	rt_status s = rt_fire_log_read(path, &a, &log, &err);
	uint8_t *drawn = s == RT_OK && (size_t)log->nx * (size_t)log->ny == cells ? malloc(cells) : NULL;
	long differ = 0, flames = 0, burnt = 0, caught_in_log = s == RT_OK ? (long)log->count : 0;
	if (drawn) {
		rt__fire_log_state_at(log, when_s, drawn, NULL, NULL);
		for (size_t c = 0; c < cells; ++c) {
			differ += fire_look(drawn[c]) != fire_look(live[c]);
			flames += fire_look(live[c]) == 1 || fire_look(live[c]) == 2;
			burnt += fire_look(live[c]) == 3;
		}
	}
	rt_fire_log_destroy(log);
	free(drawn);
	free(live);
	CHECK_MSG(s == RT_OK, "fire.bin: %s", err.message);
	rt_test_note("at 07:03 the live fire has %ld cells in flames and %ld burnt; the log (%ld cells caught by 07:05) differs in %ld",
		     flames, burnt, caught_in_log, differ);
	CHECK(flames + burnt > 200 && burnt > 0 && flames > 0);
	CHECK(differ == 0);

	/* drawn again at 07:03 with the fire, without it, and at 07:00:30 before it is lit */
	char with_png[256], without_png[256], before_png[256];
	snprintf(with_png, sizeof with_png, "%s/with.png", dir);
	snprintf(without_png, sizeof without_png, "%s/without.png", dir);
	snprintf(before_png, sizeof before_png, "%s/before.png", dir);
	rt_render_def rr = rt_render_def_default();
	rr.run_folder = dir;
	rr.allocator = rt_test_allocator();
	rr.width_px = 800;
	rr.at = "07:03";
	rr.out_path = with_png;
	CHECK_OK(rt_render_run(&rr, NULL, 0, NULL, &err), err);
	snprintf(path, sizeof path, "%s/run.json", dir);
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	char *kept = root ? json_dumps(root, 0) : NULL;
	CHECK(root && kept && json_is_string(json_object_get(root, "fire")));
	json_object_del(root, "fire");
	CHECK(json_dump_file(root, path, 0) == 0);
	json_decref(root);
	rr.out_path = without_png;
	CHECK_OK(rt_render_run(&rr, NULL, 0, NULL, &err), err);
	char before_without_png[256];
	snprintf(before_without_png, sizeof before_without_png, "%s/before-without.png", dir);
	rr.at = "07:00:30";
	rr.out_path = before_without_png;
	CHECK_OK(rt_render_run(&rr, NULL, 0, NULL, &err), err);
	CHECK(write_text(path, kept));
	free(kept);
	rr.out_path = before_png;
	CHECK_OK(rt_render_run(&rr, NULL, 0, NULL, &err), err);
	/* the fire's cells cover this many pixels of the 800 px map */
	rt_map *map = NULL;
	rt_map_def md = rt_map_def_default();
	md.allocator = rt_test_allocator();
	snprintf(path, sizeof path, "%s/map.geojson", dir);
	CHECK_OK(rt_map_load(path, &md, &map, &err), err);
	int nx, ny;
	double cell;
	rt_map_size(map, &nx, &ny, &cell, NULL);
	rt_map_destroy(map);
	const double px_per_cell = cell * 800.0 / (nx * cell), expected = (double)(flames + burnt) * px_per_cell * px_per_cell;
	const long added = fire_pixels(with_png, without_png), before = fire_pixels(before_png, before_without_png);
	rt_test_note("fire-coloured pixels the log adds to the 800 px picture at 07:03: %ld (its %ld cells cover %.0f px); at 07:00:30: %ld",
		     added, flames + burnt, expected, before);
	CHECK(added > 0.5 * expected && added < 1.3 * expected);
	CHECK(before == 0);

	/* drawing it again fails cleanly at each of its allocations, the fire's among them */
	char small_png[256];
	snprintf(small_png, sizeof small_png, "%s/oom.png", dir);
	rr.width_px = 120;
	rr.at = "07:03";
	rr.out_path = small_png;
	rt_test_fail_allocation(-1);
	CHECK_OK(rt_render_run(&rr, NULL, 0, NULL, &err), err);
	const long needed = rt_test_allocations_made();
	remove(small_png);
	for (long k = 0; k < needed; ++k) {
		rt_test_fail_allocation(k);
		s = rt_render_run(&rr, NULL, 0, NULL, &err);
		rt_test_fail_allocation(-1);
		CHECK_MSG(s == RT_ERR_NOMEM && rt_test_bytes_held() == 0 && !exists(small_png), "allocation %ld of %ld: %s (%s)", k, needed,
			  rt_status_name(s), err.message);
	}
	rt_test_note("%ld allocations in a render with the fire; failing each in turn gave as many clean errors", needed);

	/* a damaged log is refused, naming what is wrong */
	snprintf(path, sizeof path, "%s/fire.bin", dir);
	FILE *file = fopen(path, "r+b");
	CHECK(file);
	fseek(file, 48 + 5, SEEK_SET); /* the first cell's ignition time */
	const int c = fgetc(file);
	fseek(file, 48 + 5, SEEK_SET);
	fputc(c ^ 0x01, file);
	fclose(file);
	CHECK(rt_fire_log_read(path, &a, &log, &err) == RT_ERR_PARSE && !log);
	rt_test_note("one bit changed: %s [%s]", err.message, err.field);
	CHECK(strcmp(err.field, "checksum") == 0 && strstr(err.file, "fire.bin"));
	CHECK(truncate(path, 48 + 13) == 0);
	CHECK(rt_fire_log_read(path, &a, &log, &err) == RT_ERR_PARSE && strcmp(err.field, "count") == 0);
	CHECK(rt_fire_log_read("/tmp/rout-no-such-fire.bin", &a, &log, &err) == RT_ERR_IO);
	remove_folder(dir);
	CHECK(rt_test_bytes_held() == 0);
}
