/* Plots and pictures a user reads: the plot of a run from its trace has its lines in the
 * fates' colours; a trace too short for a plot is refused; nothing is left behind on
 * failure. */
#include "test.h"

#include <cairo.h>
#include <stdlib.h>
#include <string.h>
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

static bool has_colour(cairo_surface_t *s, int r, int g, int b)
{
	const int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
	const int stride = cairo_image_surface_get_stride(s);
	const unsigned char *data = cairo_image_surface_get_data(s);
	for (int y = 0; y < h; ++y) {
		const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
		for (int x = 0; x < w - 800; ++x) { /* the plot area, left of the legend */
			uint32_t p = row[x];
			if (abs((int)((p >> 16) & 255) - r) < 8 && abs((int)((p >> 8) & 255) - g) < 8 && abs((int)(p & 255) - b) < 8)
				return true;
		}
	}
	return false;
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
	/* standing (green) and dead (red) lines in the plot area */
	const bool standing = has_colour(s, 38, 114, 38), dead = has_colour(s, 191, 25, 25);
	cairo_surface_destroy(s);
	remove(png);
	remove(trace);
	CHECK(size_ok);
	CHECK(standing);
	CHECK(dead);
}

TEST(plot_refuses_a_missing_or_short_trace)
{
	rt_allocator a = rt_test_allocator();
	rt_error err;
	CHECK(rt_plot_trace_states("/nonexistent/trace.bin", "/tmp/rout-never.png", NULL, &a, &err) == RT_ERR_IO);
	CHECK(access("/tmp/rout-never.png", F_OK) != 0);
}
