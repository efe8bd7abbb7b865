/* Plots a user reads: the plot of a run from its trace has its lines in the fates'
 * colours; the generic plot puts values where its axes say (linear and log), markers at
 * their x, writes SVG that is XML, and refuses a bad definition naming the field and
 * leaving no file; the ready-made plots draw the commander's departure and leave out
 * causes of death that never happened; the tally and the history count what the world
 * holds; numbers and the clock read as a historian expects. */
#include "test.h"
#include "canvas.h"
#include "rout/env.h"
#include "rout/plot.h"

#include <cairo.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A skirmish of 200 with a trace every second; returns the trace's path in `path`. */
static bool skirmish_trace(char *path)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.bounds_min = (rt_vec2){ 0, 0 };
	d.bounds_max = (rt_vec2){ 60, 30 };
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return false;
	rt_agent_def ad = rt_agent_def_default();
	ad.stance = RT_STANCE_ADVANCE;
	bool ok = true;
	for (int i = 0; i < 200 && ok; ++i) {
		ad.side = (uint8_t)(i % 2);
		ad.position = (rt_vec2){ (ad.side ? 32.0 : 20.0) + 0.8 * ((i / 2) % 10), 5.0 + 0.8 * ((i / 2) / 10) };
		ok = rt_world_add_agent(w, &ad, NULL, &err) == RT_OK;
	}
	int fd = mkstemp(path);
	if (fd < 0) ok = false;
	else close(fd);
	rt_trace_writer *t = ok ? rt_trace_open(w, path, 10, &err) : NULL;
	ok = ok && t;
	for (int s = 0; s < 600 && ok; ++s) ok = rt_world_step(w, &err) == RT_OK && rt_trace_record(t, w, &err) == RT_OK;
	if (t) ok = rt_trace_close(t, &err) == RT_OK && ok;
	rt_world_destroy(w);
	return ok;
}

static uint32_t pixel(cairo_surface_t *s, int x, int y)
{
	const uint32_t *row = (const uint32_t *)(const void *)(cairo_image_surface_get_data(s) + (size_t)y * (size_t)cairo_image_surface_get_stride(s));
	return row[x] & 0xffffff;
}

static bool near_colour(uint32_t p, int r, int g, int b, int tolerance)
{
	return abs((int)((p >> 16) & 255) - r) < tolerance && abs((int)((p >> 8) & 255) - g) < tolerance && abs((int)(p & 255) - b) < tolerance;
}

/* Pixels of a colour in the rectangle [x0, x1) x [y0, y1). */
static int count_colour(cairo_surface_t *s, int x0, int y0, int x1, int y1, int r, int g, int b)
{
	const int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
	int n = 0;
	for (int y = y0 < 0 ? 0 : y0; y < y1 && y < h; ++y)
		for (int x = x0 < 0 ? 0 : x0; x < x1 && x < w; ++x) n += near_colour(pixel(s, x, y), r, g, b, 12);
	return n;
}

/* The mean row (or column) of the pixels of a colour in a column (or row) band. */
static double mean_row(cairo_surface_t *s, int x0, int x1, int r, int g, int b)
{
	double sum = 0.0;
	int n = 0;
	const int h = cairo_image_surface_get_height(s);
	for (int y = 0; y < h; ++y)
		for (int x = x0; x < x1; ++x)
			if (near_colour(pixel(s, x, y), r, g, b, 12)) {
				sum += y;
				n++;
			}
	return n ? sum / n : -1.0;
}

static double mean_column(cairo_surface_t *s, int y0, int y1, int r, int g, int b)
{
	double sum = 0.0;
	int n = 0;
	const int w = cairo_image_surface_get_width(s);
	for (int y = y0; y < y1; ++y)
		for (int x = 0; x < w; ++x)
			if (near_colour(pixel(s, x, y), r, g, b, 12)) {
				sum += x;
				n++;
			}
	return n ? sum / n : -1.0;
}

static char *slurp(const char *path, size_t *size)
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
	if (size) *size = (size_t)n;
	fclose(f);
	return p;
}

/* An SVG that a browser will open: the XML declaration, one svg element, closed. */
static bool svg_is_xml(const char *path)
{
	char *text = slurp(path, NULL);
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

TEST(plot_states_of_a_skirmish)
{
	char trace[] = "/tmp/rout-plot-trace-XXXXXX";
	CHECK(skirmish_trace(trace));
	char png[64];
	snprintf(png, sizeof png, "%s.png", trace);
	rt_allocator a = rt_test_allocator();
	rt_error err;
	CHECK_OK(rt_plot_trace_states(trace, png, "a skirmish", &a, &err), err);
	cairo_surface_t *s = cairo_image_surface_create_from_png(png);
	CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
	const bool size_ok = cairo_image_surface_get_width(s) == 1000 && cairo_image_surface_get_height(s) == 600;
	/* standing (green) and dead (red) lines in the plot area, left of the legend */
	const int standing = count_colour(s, 0, 0, 700, 600, 38, 115, 38), dead = count_colour(s, 0, 0, 700, 600, 191, 25, 25);
	cairo_surface_destroy(s);
	remove(png);
	remove(trace);
	rt_test_note("%d standing and %d dead pixels", standing, dead);
	CHECK(size_ok);
	CHECK(standing > 200);
	CHECK(dead > 200);
}

TEST(plot_refuses_a_missing_or_short_trace)
{
	rt_allocator a = rt_test_allocator();
	rt_error err;
	CHECK(rt_plot_trace_states("/nonexistent/trace.bin", rt_test_tmp("rout-never.png"), NULL, &a, &err) == RT_ERR_IO);
	CHECK(access(rt_test_tmp("rout-never.png"), F_OK) != 0);
}

/* The tally of the skirmish's trace: 60 frames a second apart, 100 men a side in each. */
TEST(plot_trace_tally_counts_every_man)
{
	char trace[] = "/tmp/rout-tally-XXXXXX";
	CHECK(skirmish_trace(trace));
	rt_allocator a = rt_test_allocator();
	rt_trace_tally t;
	rt_error err;
	rt_status s = rt_trace_tally_read(trace, &a, &t, &err);
	remove(trace);
	CHECK_OK(s, err);
	bool whole = true;
	for (int k = 0; k < t.frame_count; ++k)
		for (int side = 0; side < t.side_count; ++side) {
			int men = 0;
			for (int st = 0; st < RT_STATE_COUNT; ++st) men += t.men_by_state[((size_t)k * (size_t)t.side_count + (size_t)side) * RT_STATE_COUNT + (size_t)st];
			whole = whole && men == 100;
		}
	const int frames = t.frame_count, sides = t.side_count;
	const double first = t.time_s[0], last = t.time_s[frames - 1];
	int dead = 0;
	for (int st = RT_STATE_DEAD_COMBAT; st <= RT_STATE_DEAD_BURNED; ++st)
		for (int side = 0; side < 2; ++side) dead += t.men_by_state[((size_t)(frames - 1) * 2 + (size_t)side) * RT_STATE_COUNT + (size_t)st];
	rt_trace_tally_free(&t);
	rt_test_note("%d frames from %.1f to %.1f s, %d sides, %d dead at the end", frames, first, last, sides, dead);
	CHECK(frames == 60 && sides == 2);
	CHECK_NEAR(first, 1.0, 1e-6);
	CHECK_NEAR(last, 60.0, 1e-6);
	CHECK(whole);
	CHECK(dead > 0);
}

/* Values land where the axes say: three levels on a linear left axis 0..10 and three on a
 * log right axis, each drawn as a flat line in its own colour. */
TEST(plot_puts_values_where_the_axes_say)
{
	double x[2] = { 0.0, 100.0 };
	double y2[2] = { 1, 1 }, y4[2] = { 3, 3 }, y8[2] = { 7, 7 }; /* rows apart from the log lines' */
	double l1[2] = { 1, 1 }, l10[2] = { 10, 10 }, l1000[2] = { 1000, 1000 };
	rt_plot_series s[6];
	memset(s, 0, sizeof s);
	const double *ys[6] = { y2, y4, y8, l1, l10, l1000 };
	const char *colours[6] = { "#ff0000", "#00ff00", "#0000ff", "#ff00ff", "#00ffff", "#ffaa00" };
	for (int i = 0; i < 6; ++i) {
		s[i].x = x;
		s[i].y = ys[i];
		s[i].count = 2;
		s[i].colour = colours[i];
		s[i].right_axis = i >= 3;
		s[i].width_px = 3.0;
	}
	rt_plot_marker m[3] = { { 25.0, NULL, "#123456" }, { 50.0, NULL, "#654321" }, { 75.0, NULL, "#0a7a0a" } };
	rt_plot_def d = rt_plot_def_default();
	d.path = rt_test_tmp("rout-plot-axes.png");
	d.title = "axes";
	d.y.min = 0.0;
	d.y.max = 10.0;
	d.y2.log_scale = true;
	d.y2.min = 0.1;
	d.y2.max = 10000.0;
	d.y2.label = "light";
	d.y2.unit = "lux";
	d.series = s;
	d.series_count = 6;
	d.markers = m;
	d.marker_count = 3;
	rt_error err;
	CHECK_OK(rt_plot_write(&d, &err), err);
	cairo_surface_t *img = cairo_image_surface_create_from_png(d.path);
	if (!getenv("ROUT_KEEP_PICTURES")) remove(d.path);
	CHECK(cairo_surface_status(img) == CAIRO_STATUS_SUCCESS);
	/* rows of the flat lines, read in a band of columns inside the plot */
	const double r2 = mean_row(img, 300, 320, 255, 0, 0), r4 = mean_row(img, 300, 320, 0, 255, 0), r8 = mean_row(img, 300, 320, 0, 0, 255);
	const double r1 = mean_row(img, 300, 320, 255, 0, 255), r10 = mean_row(img, 300, 320, 0, 255, 255),
		     r1000 = mean_row(img, 300, 320, 255, 170, 0);
	/* columns of the markers, read in a band of rows */
	const double c25 = mean_column(img, 250, 260, 0x12, 0x34, 0x56), c50 = mean_column(img, 250, 260, 0x65, 0x43, 0x21),
		     c75 = mean_column(img, 250, 260, 0x0a, 0x7a, 0x0a);
	cairo_surface_destroy(img);
	rt_test_note("linear rows 1: %.1f, 3: %.1f, 7: %.1f; log rows 1: %.1f, 10: %.1f, 1000: %.1f; markers at %.1f, %.1f, %.1f", r2, r4,
		     r8, r1, r10, r1000, c25, c50, c75);
	CHECK(r2 > 0 && r4 > 0 && r8 > 0 && r1 > 0 && r10 > 0 && r1000 > 0 && c25 > 0 && c50 > 0 && c75 > 0);
	CHECK(r2 > r4 && r4 > r8);                     /* up is more */
	CHECK_NEAR((r4 - r8), 2.0 * (r2 - r4), 2.5);    /* linear: 4 units, twice 2 units (lines fall between pixel rows) */
	CHECK(r1 > r10 && r10 > r1000);
	CHECK_NEAR((r10 - r1000), 2.0 * (r1 - r10), 2.5); /* log: two decades, twice one */
	CHECK_NEAR(c50, 0.5 * (c25 + c75), 1.0);
}

TEST(plot_svg_is_xml_and_written_whole)
{
	double x[3] = { 0, 600, 1200 }, y[3] = { 0.5, 1.5, 1.0 };
	rt_plot_series s = { "sea level", x, y, 3, NULL, RT_PLOT_SOLID, 0.0, false };
	rt_plot_marker m = { 600.0, "Wang Pu leaves 19:40", NULL };
	rt_plot_def d = rt_plot_def_default();
	d.path = rt_test_tmp("rout-plot-sea.svg");
	d.title = "Sea level";
	d.y.label = "sea level";
	d.y.unit = "m";
	d.clock_start_jd_ut = rt_julian_day_from_civil(1641, 9, 25, 19, 30, 0, 8);
	d.clock_utc_offset_h = 8;
	d.series = &s;
	d.series_count = 1;
	d.markers = &m;
	d.marker_count = 1;
	rt_error err;
	CHECK_OK(rt_plot_write(&d, &err), err);
	size_t size = 0;
	char *text = slurp(d.path, &size);
	CHECK(text);
	free(text);
	const bool xml = svg_is_xml(d.path), temp_left = rt_test_temp_left(d.path);
	remove(d.path);
	rt_test_note("%zu bytes of SVG", size);
	CHECK(xml);
	CHECK(!temp_left);
	CHECK(size > 2000);
}

TEST(plot_refuses_a_bad_definition_naming_the_field)
{
	double x[3] = { 0, 2, 1 }, y[3] = { 1, 2, 3 }, x_ok[3] = { 0, 1, 2 }, zero[3] = { 0, 0, 0 };
	rt_plot_series s[2];
	memset(s, 0, sizeof s);
	s[0] = (rt_plot_series){ "a", x, y, 3, NULL, RT_PLOT_SOLID, 0.0, false };
	s[1] = (rt_plot_series){ "b", x_ok, y, 3, "red", RT_PLOT_SOLID, 0.0, false };
	rt_plot_def d = rt_plot_def_default();
	d.path = rt_test_tmp("rout-plot-bad.png");
	d.series = s;
	d.series_count = 2;
	rt_error err;
	CHECK(rt_plot_write(&d, &err) == RT_ERR_INVALID);
	rt_test_note("%s [%s]", err.message, err.field);
	CHECK(strcmp(err.field, "series[0]") == 0 && strstr(err.message, "x must increase"));
	s[0].x = x_ok;
	CHECK(rt_plot_write(&d, &err) == RT_ERR_INVALID);
	rt_test_note("%s [%s]", err.message, err.field);
	CHECK(strcmp(err.field, "series[1].colour") == 0 && strstr(err.message, "#rrggbb"));
	s[1].colour = "#c0392b";
	s[1].y = zero;
	s[1].right_axis = true;
	d.y2.log_scale = true;
	CHECK(rt_plot_write(&d, &err) == RT_ERR_INVALID);
	rt_test_note("%s [%s]", err.message, err.field);
	CHECK(strstr(err.message, "no value above 0"));
	rt_plot_def zeroed;
	memset(&zeroed, 0, sizeof zeroed);
	zeroed.path = d.path;
	CHECK(rt_plot_write(&zeroed, &err) == RT_ERR_INVALID);
	d.y2.log_scale = false;
	d.width_px = 100;
	CHECK(rt_plot_write(&d, &err) == RT_ERR_INVALID && strcmp(err.field, "width_px") == 0);
	CHECK(!exists(d.path) && !rt_test_temp_left(d.path));
}

/* Axis numbers and the clock as a reader expects them. */
TEST(plot_numbers_and_clock_read_well)
{
	char text[64];
	rt__format_number(text, sizeof text, 12000.0, 2000.0);
	CHECK(strcmp(text, "12,000") == 0);
	rt__format_number(text, sizeof text, 0.25, 0.25);
	CHECK(strcmp(text, "0.25") == 0);
	rt__format_number(text, sizeof text, -0.5, 0.25);
	CHECK(strcmp(text, "−0.50") == 0);
	rt__format_number(text, sizeof text, 1e-9, 0.5);
	CHECK(strcmp(text, "0.0") == 0);
	rt__format_number(text, sizeof text, 100000.0, 1.0);
	CHECK(strcmp(text, "100,000") == 0);
	CHECK_NEAR(rt__nice_step(47.0, 5), 10.0, 1e-12);
	CHECK_NEAR(rt__nice_step(12000.0, 6), 2000.0, 1e-9);
	CHECK_NEAR(rt__nice_step(1.3, 5), 0.25, 1e-12);
	const double jd = rt_julian_day_from_civil(1641, 9, 25, 20, 40, 0, 8);
	rt__format_clock(text, sizeof text, jd, 8.0, true, true);
	rt_test_note("%s", text);
	CHECK(strcmp(text, "25 Sep 1641 20:40") == 0);
	rt__format_clock(text, sizeof text, jd + (3 * 3600 + 19 * 60 + 59.6) / 86400.0, 8.0, true, false);
	CHECK(strcmp(text, "26 Sep 00:00") == 0); /* 23:59:59.6 is midnight to the second, and the next day */
	rt__format_clock(text, sizeof text, jd + 45.0 / 86400.0, 8.0, false, false);
	CHECK(strcmp(text, "20:40") == 0); /* 20:40:45 reads 20:40, as on a clock */
	rt__format_duration(text, sizeof text, 3909.0);
	CHECK(strcmp(text, "1:05:09") == 0);
	rt__format_utc_offset(text, sizeof text, 5.5);
	CHECK(strcmp(text, "+5:30") == 0);
	CHECK_NEAR(rt__utc_offset_for_longitude(121.08), 8.0, 0.0);
	CHECK_NEAR(rt__utc_offset_for_longitude(350.0), -1.0, 0.0);
	rt__format_lux(text, sizeof text, 0.00104);
	CHECK(strcmp(text, "0.001") == 0);
	rt__format_lux(text, sizeof text, 12345.0);
	CHECK(strcmp(text, "12,000") == 0);
	CHECK(strcmp(rt__light_word(5000.0), "day") == 0 && strcmp(rt__light_word(50.0), "twilight") == 0 &&
	      strcmp(rt__light_word(0.25), "night") == 0);
}

/* A made-up night: 20 minutes, two sides, three corps of which one loses its commander
 * at 600 s, a tide rising and the light falling. */
enum { NIGHT_SAMPLES = 21 };
static double night_t[NIGHT_SAMPLES], night_sea[NIGHT_SAMPLES], night_lux[NIGHT_SAMPLES];
static int night_men[NIGHT_SAMPLES][2][RT_STATE_COUNT], night_corps[NIGHT_SAMPLES][3];
static const char *const night_sides[2] = { "Ming", "Qing" };
static const char *const night_corps_names[3] = { "Wang Pu", "Cao Bianjiao", "Dorgon" };
static const uint8_t night_corps_side[3] = { 0, 0, 1 };
static const double night_left[3] = { 600.0, -1.0, -1.0 };

static rt_run_history night(void)
{
	for (int k = 0; k < NIGHT_SAMPLES; ++k) {
		night_t[k] = 60.0 * k;
		night_sea[k] = 0.2 + 0.05 * k;
		night_lux[k] = 500.0 * pow(10.0, -0.25 * k);
		memset(night_men[k], 0, sizeof night_men[k]);
		night_men[k][0][RT_STATE_FORMED] = 3000 - 100 * k;
		night_men[k][0][RT_STATE_ROUTING] = 60 * k;
		night_men[k][0][RT_STATE_DEAD_COMBAT] = 20 * k;
		night_men[k][0][RT_STATE_DEAD_DROWNED] = 20 * k;
		night_men[k][1][RT_STATE_FORMED] = 2000 - 5 * k;
		night_men[k][1][RT_STATE_DEAD_COMBAT] = 5 * k;
		night_men[k][1][RT_STATE_DEAD_BURNED] = 8 * k; /* a grass fire */
		night_corps[k][0] = k * 60 < 600 ? 1000 : 1000 - 80 * (k - 10);
		night_corps[k][1] = 1000 - 10 * k;
		night_corps[k][2] = 2000 - 5 * k;
	}
	rt_run_history h;
	memset(&h, 0, sizeof h);
	h.sample_count = NIGHT_SAMPLES;
	h.time_s = night_t;
	h.side_count = 2;
	h.side_names = night_sides;
	h.men_by_state = &night_men[0][0][0];
	h.corps_count = 3;
	h.corps_names = night_corps_names;
	h.corps_side = night_corps_side;
	h.corps_active = &night_corps[0][0];
	h.corps_left_at_s = night_left;
	h.sea_level_m = night_sea;
	h.light_lux = night_lux;
	return h;
}

TEST(plot_run_plots_mark_departures_and_leave_out_what_never_happened)
{
	rt_run_history h = night();
	rt_plot_def d = rt_plot_def_default();
	d.allocator = rt_test_allocator();
	d.subtitle = "a made-up night";
	rt_error err;
	/* each corps' strength: Wang Pu's line and a dashed marker in his colour (#c0392b) at 10 min */
	d.path = rt_test_tmp("rout-plot-corps.png");
	CHECK_OK(rt_plot_corps_strength(&h, &d, &err), err);
	cairo_surface_t *s = cairo_image_surface_create_from_png(d.path);
	remove(d.path);
	CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
	/* the marker is the one column of the plot with many pixels of his colour */
	int best_column = -1, best = 0;
	for (int x = 0; x < 760; ++x) {
		const int n = count_colour(s, x, 100, x + 1, 500, 0xc0, 0x39, 0x2b);
		if (n > best) {
			best = n;
			best_column = x;
		}
	}
	/* the plot's frame: the x axis is the row with the longest run of its grey */
	int axis_row = -1, axis_run = 0, left = 0, right = 0;
	for (int y = 0; y < 600; ++y) {
		int run = 0, first = -1, last = -1;
		for (int x = 0; x < 1000; ++x)
			if (near_colour(pixel(s, x, y), 51, 51, 51, 6)) {
				if (first < 0) first = x;
				last = x;
				run++;
			}
		if (run > axis_run) {
			axis_run = run;
			axis_row = y;
			left = first;
			right = last;
		}
	}
	cairo_surface_destroy(s);
	rt_test_note("marker column %d with %d pixels; the x axis runs from %d to %d on row %d", best_column, best, left, right, axis_row);
	CHECK(best > 150);                                   /* a line down most of the plot */
	CHECK_NEAR(best_column, 0.5 * (left + right), 3.0);  /* 10 min is the middle of a 0..20 min run */

	/* deaths by cause: combat, drowning and fire drawn, trampling (never happened) left out */
	d.path = rt_test_tmp("rout-plot-deaths.png");
	CHECK_OK(rt_plot_deaths_by_cause(&h, &d, &err), err);
	s = cairo_image_surface_create_from_png(d.path);
	remove(d.path);
	CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
	const int combat = count_colour(s, 0, 0, 1000, 600, 0xb2, 0x18, 0x2b), drowned = count_colour(s, 0, 0, 1000, 600, 0x21, 0x66, 0xac),
		  trampled = count_colour(s, 0, 0, 1000, 600, 0xe0, 0x82, 0x14), burned = count_colour(s, 0, 0, 1000, 600, 0x4d, 0x33, 0x19);
	cairo_surface_destroy(s);
	rt_test_note("deaths: %d combat, %d drowned, %d burned, %d trampled pixels", combat, drowned, burned, trampled);
	CHECK(combat > 300 && drowned > 300 && burned > 300);
	CHECK(trampled == 0);

	/* men by state and sea and light: written, the latter as SVG */
	d.path = rt_test_tmp("rout-plot-men.png");
	CHECK_OK(rt_plot_men_by_state(&h, &d, &err), err);
	CHECK(exists(d.path));
	remove(d.path);
	d.path = rt_test_tmp("rout-plot-env.svg");
	d.clock_start_jd_ut = rt_julian_day_from_civil(1641, 9, 25, 18, 0, 0, 8);
	d.clock_utc_offset_h = 8.0;
	CHECK_OK(rt_plot_sea_and_light(&h, &d, &err), err);
	CHECK(svg_is_xml(d.path));
	remove(d.path);
	/* a history without what a plot needs is refused, naming the field */
	h.corps_active = NULL;
	d.path = rt_test_tmp("rout-plot-none.png");
	CHECK(rt_plot_corps_strength(&h, &d, &err) == RT_ERR_INVALID && strcmp(err.field, "corps_active") == 0);
	CHECK(!exists(d.path));
}

/* The recorder samples the world every 10 s: 7 samples over 60 s, each man counted once,
 * the corps' men, and the sea level the environment had at each. */
TEST(plot_history_records_the_world)
{
	rt_world_def wd = rt_world_def_default();
	wd.allocator = rt_test_allocator();
	wd.bounds_min = (rt_vec2){ 0, 0 };
	wd.bounds_max = (rt_vec2){ 100, 50 };
	rt_error err;
	rt_world *w = rt_world_create(&wd, &err);
	CHECK(w);
	rt_environment_def env = rt_environment_def_default();
	env.start_jd_ut = rt_julian_day_from_civil(1641, 9, 25, 18, 0, 0, 8);
	env.latitude_deg = 41.03;
	env.longitude_deg = 121.08;
	env.tide.mean_level_m = 0.4;
	env.tide.constituents[0].amplitude_m = 1.0; /* M2 */
	CHECK_OK(rt_world_set_environment(w, &env, &err), err);
	rt_corps_def cd = rt_corps_def_default();
	cd.name = "Wang Pu";
	rt_corps_id corps;
	CHECK_OK(rt_world_add_corps(w, &cd, &corps, &err), err);
	rt_agent_def ad = rt_agent_def_default();
	for (int i = 0; i < 40; ++i) {
		ad.side = (uint8_t)(i % 2);
		ad.corps = ad.side == 0 ? corps : -1;
		ad.position = (rt_vec2){ 10.0 + 2.0 * (i % 10) + (ad.side ? 50.0 : 0.0), 10.0 + 2.0 * (i / 10) };
		CHECK_OK(rt_world_add_agent(w, &ad, NULL, &err), err);
	}
	/* and Wang Pu himself, behind his men: counted apart as a commander */
	ad.side = 0;
	ad.corps = corps;
	ad.kind = RT_KIND_COMMANDER;
	ad.position = (rt_vec2){ 15.0, 2.0 };
	rt_agent_id general;
	CHECK_OK(rt_world_add_agent(w, &ad, &general, &err), err);
	CHECK_OK(rt_world_set_corps_commander(w, corps, general, &err), err);
	rt_history_def hd = rt_history_def_default();
	hd.every_s = 10.0;
	hd.allocator = rt_test_allocator();
	rt_history *h = rt_history_create(w, &hd, &err);
	CHECK(h);
	bool ok = true;
	for (int s = 0; s < 600 && ok; ++s) ok = rt_world_step(w, &err) == RT_OK && rt_history_record(h, w, &err) == RT_OK;
	ok = ok && rt_history_record_now(h, w, &err) == RT_OK; /* 60 s was sampled already: no duplicate */
	rt_environment_state now;
	rt_world_get_environment(w, &now);
	rt_run_history v = rt_history_view(h);
	const int samples = v.sample_count, sides = v.side_count;
	int men_ok = 1;
	for (int k = 0; k < samples; ++k)
		for (int side = 0; side < sides; ++side) {
			int n = 0, generals = 0;
			for (int st = 0; st < RT_STATE_COUNT; ++st) {
				const size_t cell = ((size_t)k * (size_t)sides + (size_t)side) * RT_STATE_COUNT + (size_t)st;
				n += v.men_by_state[cell];
				generals += v.commanders_by_state ? v.commanders_by_state[cell] : -100;
			}
			men_ok &= n == (side == 0 ? 21 : 20) && generals == (side == 0 ? 1 : 0);
		}
	const double t_last = samples ? v.time_s[samples - 1] : -1.0, sea_last = v.sea_level_m ? v.sea_level_m[samples - 1] : NAN;
	const double t_3 = samples > 3 ? v.time_s[3] : NAN, tide_3 = rt_tide_level_m(&env.tide, t_3), sea_3 = v.sea_level_m ? v.sea_level_m[3] : NAN;
	const int corps_men = v.corps_active ? v.corps_active[0] : -1;
	const int corps_generals = v.corps_commanders_active ? v.corps_commanders_active[0] : -1;
	const bool named = v.corps_names && strcmp(v.corps_names[0], "Wang Pu") == 0;
	rt_history_destroy(h);
	rt_world_destroy(w);
	CHECK_MSG(ok, "%s", err.message);
	rt_test_note("%d samples of %d sides, last at %.1f s; sea %.3f m at %.1f s (the tide says %.3f m)", samples, sides, t_last, sea_3, t_3, tide_3);
	CHECK(samples == 7 && sides == 2);
	CHECK_NEAR(t_last, 60.0, 1e-6);
	CHECK(men_ok);
	CHECK_NEAR(sea_last, now.sea_level_m, 1e-12);
	CHECK_NEAR(t_3, 30.0, 1e-6);
	CHECK_NEAR(sea_3, tide_3, 1e-9);
	rt_test_note("corps of %d men of whom %d commanders, named %s", corps_men, corps_generals, named ? "Wang Pu" : "otherwise");
	CHECK(corps_men == 21 && corps_generals == 1 && named);
}

/* Every allocation of a ready-made plot and of a history, failed in turn, gives a clean
 * RT_ERR_NOMEM: nothing held, no file left. */
TEST(plot_out_of_memory_is_a_clean_error)
{
	rt_run_history h = night();
	rt_plot_def d = rt_plot_def_default();
	d.allocator = rt_test_allocator();
	d.path = rt_test_tmp("rout-plot-oom.png");
	rt_error err;
	long plot_failures = 0;
	for (long k = 0; k < 100; ++k) {
		rt_test_fail_allocation(k);
		rt_status s = rt_plot_corps_strength(&h, &d, &err);
		rt_test_fail_allocation(-1);
		if (s == RT_OK) break;
		CHECK_MSG(s == RT_ERR_NOMEM && !exists(d.path) && rt_test_bytes_held() == 0, "allocation %ld: %s", k, err.message);
		plot_failures++;
	}
	remove(d.path);
	rt_world_def wd = rt_world_def_default();
	wd.allocator = rt_test_allocator();
	rt_world *w = rt_world_create(&wd, &err);
	CHECK(w);
	rt_corps_def cd = rt_corps_def_default();
	cd.name = "Wang Pu";
	rt_corps_id corps;
	CHECK_OK(rt_world_add_corps(w, &cd, &corps, &err), err);
	rt_agent_def ad = rt_agent_def_default();
	ad.corps = corps;
	CHECK_OK(rt_world_add_agent(w, &ad, NULL, &err), err);
	const size_t held = rt_test_bytes_held();
	rt_history_def hd = rt_history_def_default();
	hd.allocator = rt_test_allocator();
	long history_failures = 0;
	for (long k = 0; k < 100; ++k) {
		rt_test_fail_allocation(k);
		rt_history *hist = rt_history_create(w, &hd, &err);
		rt_test_fail_allocation(-1);
		if (hist) {
			rt_history_destroy(hist);
			break;
		}
		CHECK_MSG(err.code == RT_ERR_NOMEM && rt_test_bytes_held() == held, "allocation %ld: %s", k, err.message);
		history_failures++;
	}
	rt_world_destroy(w);
	rt_test_note("a plot fails cleanly at each of its %ld allocations, a history at each of its %ld", plot_failures, history_failures);
	CHECK(plot_failures >= 1 && history_failures >= 4);
}
