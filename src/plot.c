/* Plots of a run, drawn with cairo from its trace: men per side over time by what became
 * of them. Written to a temporary name and renamed, so a plot that exists is whole. */
#include "world.h"

#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>

enum { FATE_STANDING = 0, FATE_ROUTING, FATE_TAKEN, FATE_DEAD, FATE_GONE, FATE_COUNT };
#define PLOT_SIDES 2

static int fate_of(uint8_t state)
{
	switch ((rt_state)state) {
	case RT_STATE_ROUTING: return FATE_ROUTING;
	case RT_STATE_SURRENDERED: case RT_STATE_CAPTURED: return FATE_TAKEN;
	case RT_STATE_DEAD_COMBAT: case RT_STATE_DEAD_TRAMPLED: case RT_STATE_DEAD_DROWNED: case RT_STATE_DEAD_BURNED: return FATE_DEAD;
	case RT_STATE_SHELTERED: case RT_STATE_ESCAPED: return FATE_GONE;
	default: return FATE_STANDING;
	}
}

static const char *fate_names[FATE_COUNT] = { "standing", "routing", "kneeling or taken", "dead", "sheltered or escaped" };
static const double fate_colours[FATE_COUNT][3] = {
	{ 0.15, 0.45, 0.15 }, { 0.90, 0.55, 0.10 }, { 0.50, 0.50, 0.50 }, { 0.75, 0.10, 0.10 }, { 0.20, 0.35, 0.80 }
};

/* A round step for an axis spanning `span`: 1, 2 or 5 times a power of ten. */
static double nice_step(double span, int ticks)
{
	double raw = span / ticks, p = pow(10.0, floor(log10(raw)));
	double m = raw / p;
	return (m < 1.5 ? 1.0 : m < 3.5 ? 2.0 : m < 7.5 ? 5.0 : 10.0) * p;
}

rt_status rt_plot_trace_states(const char *trace_path, const char *png_path, const char *title,
			       const rt_allocator *allocator, rt_error *err)
{
	rt__error_clear(err);
	if (!trace_path || !png_path) return rt__fail(err, RT_ERR_INVALID, "plot needs a trace and a picture path");
	rt_allocator a = allocator ? *allocator : rt_allocator_default();
	/* first pass: how many frames */
	rt_trace_reader *r = rt_trace_reader_open(trace_path, &a, err);
	if (!r) return err ? err->code : RT_ERR_IO;
	rt_trace_frame f;
	rt_status s;
	int frames = 0;
	while ((s = rt_trace_reader_next(r, &f, err)) == RT_OK) frames++;
	rt_trace_reader_close(r);
	if (s != RT_ERR_STATE) return s;
	if (frames < 2) return rt__fail_at(err, RT_ERR_INVALID, trace_path, 0, 0, NULL, "a plot needs at least two frames, the trace has %d", frames);
	/* second pass: counts per frame, side and fate */
	size_t cells = (size_t)frames * PLOT_SIDES * FATE_COUNT;
	int *count = rt__calloc(&a, cells, sizeof(int));
	double *time = rt__alloc(&a, (size_t)frames * sizeof(double));
	if (!count || !time) {
		rt__free(&a, count, cells * sizeof(int));
		rt__free(&a, time, (size_t)frames * sizeof(double));
		return rt__fail(err, RT_ERR_NOMEM, "cannot allocate a plot of %d frames", frames);
	}
	r = rt_trace_reader_open(trace_path, &a, err);
	if (!r) {
		rt__free(&a, count, cells * sizeof(int));
		rt__free(&a, time, (size_t)frames * sizeof(double));
		return err ? err->code : RT_ERR_IO;
	}
	int most = 1, k = 0;
	while (k < frames && (s = rt_trace_reader_next(r, &f, err)) == RT_OK) {
		time[k] = f.time_s;
		for (int i = 0; i < f.count; ++i) {
			if (f.side[i] >= PLOT_SIDES) continue;
			count[((size_t)k * PLOT_SIDES + f.side[i]) * FATE_COUNT + (size_t)fate_of(f.state[i])]++;
		}
		for (int c = 0; c < PLOT_SIDES * FATE_COUNT; ++c) most = count[(size_t)k * PLOT_SIDES * FATE_COUNT + (size_t)c] > most ? count[(size_t)k * PLOT_SIDES * FATE_COUNT + (size_t)c] : most;
		k++;
	}
	rt_trace_reader_close(r);
	if (k < frames) { /* the file changed under us */
		rt__free(&a, count, cells * sizeof(int));
		rt__free(&a, time, (size_t)frames * sizeof(double));
		return rt__fail_at(err, RT_ERR_IO, trace_path, 0, 0, NULL, "the trace changed while it was read");
	}
	rt_status status = RT_OK;
	const int width = 1000, height = 600, left = 80, right = 230, top = 50, bottom = 60;
	cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
	cairo_t *cr = cairo_create(surface);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	const double t0 = time[0], t1 = time[frames - 1] > t0 ? time[frames - 1] : t0 + 1.0;
	const double minutes = (t1 - t0) / 60.0;
	const double pw = width - left - right, ph = height - top - bottom;
	/* axes, ticks and labels */
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_set_line_width(cr, 1.0);
	cairo_move_to(cr, left, top);
	cairo_line_to(cr, left, top + ph);
	cairo_line_to(cr, left + pw, top + ph);
	cairo_stroke(cr);
	cairo_set_font_size(cr, 12.0);
	char label[64];
	const double xstep = nice_step(minutes, 8), ystep = nice_step((double)most, 6);
	for (double m = 0.0; m <= minutes + 1e-9; m += xstep) {
		double x = left + pw * m / minutes;
		cairo_move_to(cr, x, top + ph);
		cairo_line_to(cr, x, top + ph + 5);
		cairo_stroke(cr);
		snprintf(label, sizeof label, "%g", m);
		cairo_move_to(cr, x - 8, top + ph + 18);
		cairo_show_text(cr, label);
	}
	for (double v = 0.0; v <= most + 1e-9; v += ystep) {
		double y = top + ph - ph * v / most;
		cairo_move_to(cr, left - 5, y);
		cairo_line_to(cr, left, y);
		cairo_stroke(cr);
		snprintf(label, sizeof label, "%g", v);
		cairo_move_to(cr, left - 10 - 7.0 * (double)strlen(label), y + 4);
		cairo_show_text(cr, label);
	}
	cairo_move_to(cr, left + pw / 2 - 60, height - 15);
	cairo_show_text(cr, "simulated time (min)");
	cairo_save(cr);
	cairo_move_to(cr, 20, top + ph / 2 + 20);
	cairo_rotate(cr, -1.5707963267948966);
	cairo_show_text(cr, "men");
	cairo_restore(cr);
	cairo_set_font_size(cr, 16.0);
	cairo_move_to(cr, left, 30);
	cairo_show_text(cr, title ? title : "men by side and fate");
	/* one line per side and fate: solid for side 0, dashed for side 1 */
	const double dash[2] = { 8.0, 5.0 };
	cairo_set_line_width(cr, 2.0);
	for (int side = 0; side < PLOT_SIDES; ++side)
		for (int fate = 0; fate < FATE_COUNT; ++fate) {
			bool any = false;
			for (int i = 0; i < frames && !any; ++i) any = count[((size_t)i * PLOT_SIDES + side) * FATE_COUNT + fate] > 0;
			if (!any) continue;
			cairo_set_source_rgb(cr, fate_colours[fate][0], fate_colours[fate][1], fate_colours[fate][2]);
			cairo_set_dash(cr, dash, side ? 2 : 0, 0.0);
			for (int i = 0; i < frames; ++i) {
				double x = left + pw * (time[i] - t0) / (t1 - t0);
				double y = top + ph - ph * count[((size_t)i * PLOT_SIDES + side) * FATE_COUNT + fate] / most;
				if (i == 0) cairo_move_to(cr, x, y);
				else cairo_line_to(cr, x, y);
			}
			cairo_stroke(cr);
		}
	/* legend */
	cairo_set_font_size(cr, 12.0);
	double ly = top + 10;
	for (int side = 0; side < PLOT_SIDES; ++side)
		for (int fate = 0; fate < FATE_COUNT; ++fate) {
			cairo_set_source_rgb(cr, fate_colours[fate][0], fate_colours[fate][1], fate_colours[fate][2]);
			cairo_set_dash(cr, dash, side ? 2 : 0, 0.0);
			cairo_move_to(cr, width - right + 15, ly);
			cairo_line_to(cr, width - right + 45, ly);
			cairo_stroke(cr);
			cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
			snprintf(label, sizeof label, "side %d: %s", side, fate_names[fate]);
			cairo_move_to(cr, width - right + 52, ly + 4);
			cairo_show_text(cr, label);
			ly += 18;
		}
	cairo_destroy(cr);
	char temp[1024];
	int n = snprintf(temp, sizeof temp, "%s.tmp", png_path);
	if (n < 0 || (size_t)n >= sizeof temp) status = rt__fail(err, RT_ERR_INVALID, "plot path is too long");
	else if (cairo_surface_write_to_png(surface, temp) != CAIRO_STATUS_SUCCESS) {
		status = rt__fail_at(err, RT_ERR_IO, png_path, 0, 0, NULL, "cannot write the plot");
		remove(temp);
	} else if (rename(temp, png_path) != 0) {
		status = rt__fail_at(err, RT_ERR_IO, png_path, 0, 0, NULL, "cannot rename the plot into place: %s", strerror(errno));
		remove(temp);
	}
	cairo_surface_destroy(surface);
	rt__free(&a, count, cells * sizeof(int));
	rt__free(&a, time, (size_t)frames * sizeof(double));
	return status;
}
