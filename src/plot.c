/* The generic plot (rout/plot.h): series against time or any x, a second y axis, event
 * markers, the clock on the x axis, a legend; PNG or SVG through the canvas. Everything
 * is laid out in pixels from the text it must hold, so labels never run off the edge:
 * the margins are measured from the widest tick label, the legend from its longest entry.
 * The ready-made plots of a run (run_plots.c) are drawn with it. */
#include "canvas.h"
#include "rout/env.h"
#include "rout/plot.h"

#include <math.h>
#include <stdio.h>

rt_plot_def rt_plot_def_default(void)
{
	rt_plot_def d;
	memset(&d, 0, sizeof d);
	d.width_px = 1000;
	d.height_px = 600;
	d.x.min = d.x.max = NAN;
	d.y.min = d.y.max = NAN;
	d.y2.min = d.y2.max = NAN;
	d.clock_start_jd_ut = NAN;
	d.allocator = rt_allocator_default();
	d.cookie = RT_COOKIE;
	return d;
}

/* Colours for series without one: distinct in hue and in lightness (after Okabe & Ito
 * and Tableau 10), dark enough on white. */
static const char *const palette[] = { "#1f5fa8", "#c0392b", "#2e8b3d", "#e08214", "#7b3fa0",
				       "#8c564b", "#d6478f", "#138d90", "#6b6b6b", "#9a9a1f" };
#define PALETTE_SIZE ((int)(sizeof palette / sizeof palette[0]))

static const double text_rgb[3] = { 0.13, 0.13, 0.13 };

typedef struct axis_range {
	double lo, hi;
	bool log;
	bool data;      /* some finite value was found */
} axis_range;

/* ---- validation --------------------------------------------------------------------------- */
static rt_status check_axis(const rt_plot_axis *a, const char *name, bool allow_log, rt_error *err)
{
	char field[64];
	snprintf(field, sizeof field, "%s", name);
	if (a->log_scale && !allow_log) return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, field, "%s: a log scale is for y axes only", name);
	if ((!isnan(a->min) && !isfinite(a->min)) || (!isnan(a->max) && !isfinite(a->max)))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, field, "%s: min and max must be finite numbers or NaN (from the data)", name);
	if (isfinite(a->min) && isfinite(a->max) && !(a->min < a->max))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, field, "%s: min %g is not below max %g", name, a->min, a->max);
	if (a->log_scale && ((isfinite(a->min) && a->min <= 0.0) || (isfinite(a->max) && a->max <= 0.0)))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, field, "%s: a log axis needs min and max above 0", name);
	return RT_OK;
}

static rt_status validate(const rt_plot_def *d, rt_error *err)
{
	if (!d || d->cookie != RT_COOKIE) return rt__fail(err, RT_ERR_INVALID, "plot definition was not made by rt_plot_def_default()");
	if (!d->path || !d->path[0]) return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "path", "the plot has no path");
	if (d->width_px < 200 || d->width_px > 8000 || d->height_px < 200 || d->height_px > 8000)
		return rt__fail_at(err, RT_ERR_INVALID, d->path, 0, 0, "width_px", "plot of %d x %d px; each side must be 200..8000",
				   d->width_px, d->height_px);
	if (d->series_count < 0 || d->series_count > RT_PLOT_MAX_SERIES || (d->series_count > 0 && !d->series))
		return rt__fail_at(err, RT_ERR_INVALID, d->path, 0, 0, "series_count", "series_count %d; expected 0..%d with a series array",
				   d->series_count, RT_PLOT_MAX_SERIES);
	if (d->marker_count < 0 || d->marker_count > RT_PLOT_MAX_MARKERS || (d->marker_count > 0 && !d->markers))
		return rt__fail_at(err, RT_ERR_INVALID, d->path, 0, 0, "marker_count", "marker_count %d; expected 0..%d with a marker array",
				   d->marker_count, RT_PLOT_MAX_MARKERS);
	rt_status s;
	if ((s = check_axis(&d->x, "x", false, err)) != RT_OK) return s;
	if ((s = check_axis(&d->y, "y", true, err)) != RT_OK) return s;
	if ((s = check_axis(&d->y2, "y2", true, err)) != RT_OK) return s;
	if (!isnan(d->clock_start_jd_ut) && !isfinite(d->clock_start_jd_ut))
		return rt__fail_at(err, RT_ERR_INVALID, d->path, 0, 0, "clock_start_jd_ut", "the clock's start must be a finite Julian Day or NaN");
	if (!(d->clock_utc_offset_h >= -14.0 && d->clock_utc_offset_h <= 14.0))
		return rt__fail_at(err, RT_ERR_INVALID, d->path, 0, 0, "clock_utc_offset_h", "clock_utc_offset_h %g; expected -14..14 hours",
				   d->clock_utc_offset_h);
	char field[64];
	double rgb[3];
	for (int i = 0; i < d->series_count; ++i) {
		const rt_plot_series *p = &d->series[i];
		snprintf(field, sizeof field, "series[%d]", i);
		if (p->count < 0 || p->count > RT_PLOT_MAX_POINTS || (p->count > 0 && (!p->x || !p->y)))
			return rt__fail_at(err, RT_ERR_INVALID, d->path, 0, 0, field, "%s: %d points; expected 0..%d with x and y arrays",
					   field, p->count, RT_PLOT_MAX_POINTS);
		for (int k = 0; k < p->count; ++k) {
			if (!isfinite(p->x[k]))
				return rt__fail_at(err, RT_ERR_INVALID, d->path, 0, 0, field, "%s: x[%d] is not a finite number", field, k);
			if (k > 0 && p->x[k] < p->x[k - 1])
				return rt__fail_at(err, RT_ERR_INVALID, d->path, 0, 0, field, "%s: x[%d] = %g comes before x[%d] = %g; x must increase",
						   field, k, p->x[k], k - 1, p->x[k - 1]);
		}
		if (p->colour && !rt__parse_colour(p->colour, rgb)) {
			snprintf(field, sizeof field, "series[%d].colour", i);
			return rt__fail_at(err, RT_ERR_INVALID, d->path, 0, 0, field, "%s: \"%s\"; expected \"#rrggbb\" or \"#rgb\"", field, p->colour);
		}
		if ((unsigned)p->line > RT_PLOT_DASH_DOT || !(p->width_px >= 0.0 && p->width_px <= 20.0)) {
			snprintf(field, sizeof field, "series[%d].line", i);
			return rt__fail_at(err, RT_ERR_INVALID, d->path, 0, 0, field, "%s: line style %d and width %g px; expected a rt_plot_line and 0..20 px",
					   field, (int)p->line, p->width_px);
		}
	}
	for (int i = 0; i < d->marker_count; ++i) {
		const rt_plot_marker *m = &d->markers[i];
		snprintf(field, sizeof field, "markers[%d]", i);
		if (!isfinite(m->x)) return rt__fail_at(err, RT_ERR_INVALID, d->path, 0, 0, field, "%s: x is not a finite number", field);
		if (m->colour && !rt__parse_colour(m->colour, rgb))
			return rt__fail_at(err, RT_ERR_INVALID, d->path, 0, 0, field, "%s: colour \"%s\"; expected \"#rrggbb\" or \"#rgb\"", field, m->colour);
	}
	return RT_OK;
}

/* ---- ranges ------------------------------------------------------------------------------ */
static axis_range y_range(const rt_plot_def *d, const rt_plot_axis *a, bool right)
{
	axis_range r = { INFINITY, -INFINITY, a->log_scale, false };
	for (int i = 0; i < d->series_count; ++i) {
		const rt_plot_series *p = &d->series[i];
		if (p->right_axis != right) continue;
		for (int k = 0; k < p->count; ++k) {
			const double v = p->y[k];
			if (!isfinite(v) || (r.log && v <= 0.0)) continue;
			r.lo = fmin(r.lo, v);
			r.hi = fmax(r.hi, v);
			r.data = true;
		}
	}
	if (isfinite(a->min)) r.lo = a->min;
	if (isfinite(a->max)) r.hi = a->max;
	if (!r.data && !(isfinite(a->min) && isfinite(a->max))) {
		r.lo = r.log ? 1.0 : 0.0;
		r.hi = r.log ? 10.0 : 1.0;
	}
	if (r.log) {
		if (!isfinite(a->min)) r.lo = pow(10.0, floor(log10(r.lo) + 1e-9));
		if (!isfinite(a->max)) r.hi = pow(10.0, ceil(log10(r.hi) - 1e-9));
		if (!(r.hi > r.lo)) r.hi = r.lo * 10.0;
		return r;
	}
	if (a->include_zero) {
		if (!isfinite(a->min)) r.lo = fmin(r.lo, 0.0);
		if (!isfinite(a->max)) r.hi = fmax(r.hi, 0.0);
	}
	if (!(r.hi > r.lo)) { /* one value: a band round it */
		const double pad = r.lo != 0.0 ? fabs(r.lo) * 0.1 : 1.0;
		if (!isfinite(a->min)) r.lo -= (a->include_zero && r.lo == 0.0) ? 0.0 : pad;
		if (!isfinite(a->max)) r.hi += pad;
	}
	const double step = rt__nice_step(r.hi - r.lo, 5);
	if (!isfinite(a->min)) r.lo = floor(r.lo / step + 1e-9) * step;
	if (!isfinite(a->max)) r.hi = ceil(r.hi / step - 1e-9) * step;
	return r;
}

static axis_range x_range(const rt_plot_def *d)
{
	axis_range r = { INFINITY, -INFINITY, false, false };
	for (int i = 0; i < d->series_count; ++i) {
		const rt_plot_series *p = &d->series[i];
		if (p->count > 0) {
			r.lo = fmin(r.lo, p->x[0]);
			r.hi = fmax(r.hi, p->x[p->count - 1]);
			r.data = true;
		}
	}
	if (isfinite(d->x.min)) r.lo = d->x.min;
	if (isfinite(d->x.max)) r.hi = d->x.max;
	if (!r.data && !(isfinite(d->x.min) && isfinite(d->x.max))) {
		r.lo = 0.0;
		r.hi = 1.0;
	}
	if (!(r.hi > r.lo)) {
		const double pad = isfinite(d->clock_start_jd_ut) ? 60.0 : (r.lo != 0.0 ? fabs(r.lo) * 0.1 : 1.0);
		r.lo -= pad;
		r.hi += pad;
	}
	return r;
}

/* ---- ticks -------------------------------------------------------------------------------- */
#define MAX_TICKS 64

typedef struct tick {
	double v;
	char label[48];
	char date[48];  /* clock axes: the date under this tick, or "" */
	bool minor;     /* a short unlabelled tick (log axes) */
} tick;

static int linear_ticks(double lo, double hi, int wanted, tick *t)
{
	const double step = rt__nice_step(hi - lo, wanted);
	int n = 0;
	for (double v = ceil(lo / step - 1e-9) * step; v <= hi + 1e-9 * step && n < MAX_TICKS; v += step) {
		const double snapped = fabs(v) < 1e-9 * step ? 0.0 : v;
		t[n].v = snapped;
		t[n].minor = false;
		t[n].date[0] = '\0';
		rt__format_number(t[n].label, sizeof t[n].label, snapped, step);
		n++;
	}
	return n;
}

static int log_ticks(double lo, double hi, int wanted, tick *t)
{
	const int d0 = (int)floor(log10(lo) + 1e-9), d1 = (int)ceil(log10(hi) - 1e-9);
	const int decades = d1 - d0 > 0 ? d1 - d0 : 1;
	const int every = decades <= wanted ? 1 : (decades + wanted - 1) / wanted;
	int n = 0;
	for (int e = d0; e <= d1 && n < MAX_TICKS; ++e) {
		const double v = pow(10.0, e);
		if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) {
			t[n].v = v;
			t[n].minor = (e - d0) % every != 0;
			t[n].date[0] = '\0';
			rt__format_number(t[n].label, sizeof t[n].label, v, e < 0 ? v : 1.0);
			if (t[n].minor) t[n].label[0] = '\0';
			n++;
		}
		if (decades <= 6)
			for (int m = 2; m <= 9 && n < MAX_TICKS; ++m) {
				const double w = m * v;
				if (w > lo && w < hi) {
					t[n].v = w;
					t[n].minor = true;
					t[n].label[0] = t[n].date[0] = '\0';
					n++;
				}
			}
	}
	return n;
}

/* Ticks at round clock times: the smallest step from the list giving at most `wanted`. */
static int clock_ticks(double lo, double hi, double start_jd, double offset_h, int wanted, tick *t)
{
	static const double steps[] = { 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800 };
	const int nsteps = (int)(sizeof steps / sizeof steps[0]);
	double step = steps[nsteps - 1];
	for (int i = 0; i < nsteps; ++i)
		if ((hi - lo) / steps[i] <= wanted) {
			step = steps[i];
			break;
		}
	/* local seconds since the midnight before lo */
	const rt_civil_time c = rt_civil_from_julian_day(start_jd + lo / 86400.0, offset_h);
	const double local = c.hour * 3600.0 + c.minute * 60.0 + c.second;
	double first = ceil(local / step - 1e-6) * step; /* steps beyond a day are counted from that midnight */
	int n = 0, last_day = -1;
	for (double s = first; lo + (s - local) <= hi + 1e-6 && n < MAX_TICKS; s += step) {
		const double x = lo + (s - local);
		t[n].v = x;
		t[n].minor = false;
		const double jd = start_jd + x / 86400.0;
		rt__format_clock(t[n].label, sizeof t[n].label, jd, offset_h, false, false);
		const rt_civil_time tc = rt_civil_from_julian_day(round(jd * 86400.0) / 86400.0 + 0.25 / 86400.0, offset_h);
		const int day = tc.year * 400 + tc.month * 32 + tc.day;
		t[n].date[0] = '\0';
		if (day != last_day) {
			char full[48];
			rt__format_clock(full, sizeof full, jd, offset_h, true, n == 0);
			/* the date is the clock text without its last " HH:MM" */
			char *space = strrchr(full, ' ');
			if (space) *space = '\0';
			snprintf(t[n].date, sizeof t[n].date, "%s", full);
			last_day = day;
		}
		n++;
	}
	return n;
}

/* ---- drawing ------------------------------------------------------------------------------ */
typedef struct frame {
	double left, right, top, bottom; /* the plot area in pixels */
	axis_range x, y, y2;
} frame;

static double to_px_y(const frame *f, const axis_range *r, double v)
{
	const double k = r->log ? (log10(v) - log10(r->lo)) / (log10(r->hi) - log10(r->lo)) : (v - r->lo) / (r->hi - r->lo);
	return f->bottom - k * (f->bottom - f->top);
}

static double to_px_x(const frame *f, double v)
{
	return f->left + (v - f->x.lo) / (f->x.hi - f->x.lo) * (f->right - f->left);
}

static void set_line(cairo_t *cr, rt_plot_line line, double width)
{
	static const double dashed[] = { 9.0, 5.0 }, dotted[] = { 1.0, 4.0 }, dash_dot[] = { 9.0, 4.0, 1.0, 4.0 };
	cairo_set_line_width(cr, width);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	cairo_set_line_cap(cr, line == RT_PLOT_DOTTED || line == RT_PLOT_DASH_DOT ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT);
	switch (line) {
	case RT_PLOT_DASHED: cairo_set_dash(cr, dashed, 2, 0.0); break;
	case RT_PLOT_DOTTED: cairo_set_dash(cr, dotted, 2, 0.0); break;
	case RT_PLOT_DASH_DOT: cairo_set_dash(cr, dash_dot, 4, 0.0); break;
	default: cairo_set_dash(cr, NULL, 0, 0.0); break;
	}
}

static void series_colour(const rt_plot_def *d, int i, double rgb[3])
{
	if (d->series[i].colour && rt__parse_colour(d->series[i].colour, rgb)) return;
	int auto_index = 0; /* the palette runs over the series without a colour */
	for (int k = 0; k < i; ++k)
		if (!d->series[k].colour) auto_index++;
	rt__parse_colour(palette[auto_index % PALETTE_SIZE], rgb);
}

/* The axis label with its unit: "sea level (m)". */
static void axis_title(char *out, size_t size, const rt_plot_axis *a)
{
	const char *label = a->label ? a->label : "";
	if (a->unit && a->unit[0]) snprintf(out, size, label[0] ? "%s (%s)" : "%s%s", label, a->unit);
	else snprintf(out, size, "%s", label);
}

/* With two y axes each is drawn in the colour of its first series, so the eye pairs
 * lines and scales. */
static bool axis_colour(const rt_plot_def *d, bool right, double rgb[3])
{
	for (int i = 0; i < d->series_count; ++i)
		if (d->series[i].right_axis == right) {
			series_colour(d, i, rgb);
			return true;
		}
	return false;
}

static void draw_series(cairo_t *cr, const rt_plot_def *d, const frame *f, int i)
{
	const rt_plot_series *p = &d->series[i];
	const axis_range *r = p->right_axis ? &f->y2 : &f->y;
	double rgb[3];
	series_colour(d, i, rgb);
	cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
	set_line(cr, p->line, p->width_px > 0.0 ? p->width_px : 2.0);
	bool pen = false;
	int alone = -1; /* a point with no neighbour is drawn as a dot */
	for (int k = 0; k < p->count; ++k) {
		const double v = p->y[k];
		if (!isfinite(v) || (r->log && v <= 0.0)) {
			if (alone >= 0) cairo_arc(cr, to_px_x(f, p->x[alone]), to_px_y(f, r, p->y[alone]), 1.0, 0.0, 2 * RT__PI);
			pen = false;
			alone = -1;
			continue;
		}
		const double x = to_px_x(f, p->x[k]), y = to_px_y(f, r, v);
		if (!pen) {
			cairo_move_to(cr, x, y);
			alone = k;
		} else {
			cairo_line_to(cr, x, y);
			alone = -1;
		}
		pen = true;
	}
	cairo_stroke(cr);
	if (alone >= 0) {
		cairo_arc(cr, to_px_x(f, p->x[alone]), to_px_y(f, r, p->y[alone]), 2.0, 0.0, 2 * RT__PI);
		cairo_fill(cr);
	}
}

static void legend_text(char *out, size_t size, const rt_plot_series *p, bool two_axes)
{
	if (two_axes && p->right_axis) snprintf(out, size, "%s (right scale)", p->label);
	else snprintf(out, size, "%s", p->label);
}

rt_status rt_plot_write(const rt_plot_def *d, rt_error *err)
{
	rt__error_clear(err);
	rt_status s = validate(d, err);
	if (s != RT_OK) return s;
	bool two_axes = false;
	for (int i = 0; i < d->series_count; ++i) two_axes = two_axes || d->series[i].right_axis;
	for (int i = 0; i < d->series_count; ++i) {
		if (!d->series[i].count) continue;
		const bool right = d->series[i].right_axis;
		const rt_plot_axis *a = right ? &d->y2 : &d->y;
		if (!a->log_scale) continue;
		bool positive = false;
		for (int k = 0; k < d->series[i].count && !positive; ++k) positive = d->series[i].y[k] > 0.0;
		if (!positive) {
			char field[64];
			snprintf(field, sizeof field, "series[%d]", i);
			return rt__fail_at(err, RT_ERR_INVALID, d->path, 0, 0, field, "%s has no value above 0 for its log axis %s", field,
					   right ? "y2" : "y");
		}
	}
	rt__canvas c;
	if ((s = rt__canvas_open(&c, d->path, d->format, d->width_px, d->height_px, err)) != RT_OK) return s;
	cairo_t *cr = c.cr;
	const double W = d->width_px, H = d->height_px, pad = 16.0;
	const bool clock = isfinite(d->clock_start_jd_ut);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);

	/* title and subtitle */
	double top = pad;
	cairo_set_source_rgb(cr, text_rgb[0], text_rgb[1], text_rgb[2]);
	if (d->title && d->title[0]) {
		rt__font(cr, 20.0, true);
		rt__text(cr, pad, top + 20.0, d->title, 0.0, 0.0);
		top += 28.0;
	}
	if (d->subtitle && d->subtitle[0]) {
		rt__font(cr, 13.0, false);
		cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
		rt__text(cr, pad, top + 14.0, d->subtitle, 0.0, 0.0);
		top += 20.0;
	}
	top += 14.0;

	frame f;
	f.x = x_range(d);
	f.y = y_range(d, &d->y, false);
	f.y2 = y_range(d, &d->y2, true);
	const double approx_h = H - top - 80.0;
	const int y_wanted = approx_h > 120 ? (int)(approx_h / 70.0) : 2;
	tick yt[MAX_TICKS], y2t[MAX_TICKS], xt[MAX_TICKS];
	const int yn = f.y.log ? log_ticks(f.y.lo, f.y.hi, y_wanted + 2, yt) : linear_ticks(f.y.lo, f.y.hi, y_wanted, yt);
	const int y2n = !two_axes ? 0 : f.y2.log ? log_ticks(f.y2.lo, f.y2.hi, y_wanted + 2, y2t) : linear_ticks(f.y2.lo, f.y2.hi, y_wanted, y2t);

	/* margins from the text they hold */
	rt__font(cr, 12.0, false);
	double ytw = 0.0, y2tw = 0.0;
	for (int i = 0; i < yn; ++i) ytw = fmax(ytw, rt__text_width(cr, yt[i].label));
	for (int i = 0; i < y2n; ++i) y2tw = fmax(y2tw, rt__text_width(cr, y2t[i].label));
	double legend_w = 0.0;
	int legend_entries = 0;
	char text[320];
	rt__font(cr, 12.5, false);
	for (int i = 0; i < d->series_count; ++i) {
		if (!d->series[i].label || !d->series[i].label[0]) continue;
		legend_text(text, sizeof text, &d->series[i], two_axes);
		legend_w = fmax(legend_w, rt__text_width(cr, text));
		legend_entries++;
	}
	if (legend_entries) legend_w = fmin(legend_w + 36.0 + 20.0, 0.4 * W);
	char ytitle[256], y2title[256], xtitle[256];
	axis_title(ytitle, sizeof ytitle, &d->y);
	axis_title(y2title, sizeof y2title, &d->y2);
	if (clock && !(d->x.label && d->x.label[0])) {
		char zone[16];
		rt__format_utc_offset(zone, sizeof zone, d->clock_utc_offset_h);
		snprintf(xtitle, sizeof xtitle, "local time (UTC%s)", zone);
	} else {
		axis_title(xtitle, sizeof xtitle, &d->x);
	}
	f.left = pad + (ytitle[0] ? 22.0 : 0.0) + ytw + 12.0;
	f.right = W - pad - (legend_entries ? legend_w + 12.0 : 0.0) - (two_axes ? 12.0 + y2tw + (y2title[0] ? 22.0 : 0.0) : 8.0);
	f.top = top;
	f.bottom = H - pad - (xtitle[0] ? 22.0 : 0.0) - 24.0 - (clock ? 16.0 : 0.0);
	if (f.right - f.left < 60.0 || f.bottom - f.top < 60.0) {
		rt__canvas_abort(&c);
		return rt__fail_at(err, RT_ERR_INVALID, d->path, 0, 0, "width_px", "a %d x %d px plot leaves no room for the data once its labels are placed",
				   d->width_px, d->height_px);
	}
	const int x_wanted = (int)fmax(2.0, (f.right - f.left) / (clock ? 90.0 : 80.0));
	const int xn = clock ? clock_ticks(f.x.lo, f.x.hi, d->clock_start_jd_ut, d->clock_utc_offset_h, x_wanted, xt)
			     : linear_ticks(f.x.lo, f.x.hi, x_wanted, xt);

	/* grid */
	cairo_set_line_width(cr, 1.0);
	cairo_set_source_rgb(cr, 0.90, 0.90, 0.90);
	for (int i = 0; i < yn; ++i) {
		if (yt[i].minor) continue;
		const double y = round(to_px_y(&f, &f.y, yt[i].v)) + 0.5;
		cairo_move_to(cr, f.left, y);
		cairo_line_to(cr, f.right, y);
	}
	for (int i = 0; i < xn; ++i) {
		const double x = round(to_px_x(&f, xt[i].v)) + 0.5;
		cairo_move_to(cr, x, f.top);
		cairo_line_to(cr, x, f.bottom);
	}
	cairo_stroke(cr);
	/* a midnight stands out */
	cairo_set_source_rgb(cr, 0.72, 0.72, 0.72);
	for (int i = 0; i < xn; ++i)
		if (clock && i > 0 && xt[i].date[0]) {
			const double x = round(to_px_x(&f, xt[i].v)) + 0.5;
			cairo_move_to(cr, x, f.top);
			cairo_line_to(cr, x, f.bottom);
		}
	cairo_stroke(cr);

	/* series, inside the frame */
	bool any_data = false;
	for (int i = 0; i < d->series_count; ++i)
		for (int k = 0; k < d->series[i].count && !any_data; ++k) any_data = isfinite(d->series[i].y[k]);
	cairo_save(cr);
	cairo_rectangle(cr, f.left - 1.0, f.top - 1.0, f.right - f.left + 2.0, f.bottom - f.top + 2.0);
	cairo_clip(cr);
	for (int i = 0; i < d->series_count; ++i) draw_series(cr, d, &f, i);
	cairo_restore(cr);
	cairo_set_dash(cr, NULL, 0, 0.0);

	/* markers: a dashed line and its label along it, reading upwards */
	double label_box[RT_PLOT_MAX_MARKERS][4]; /* x0, x1, y0, y1 of each label placed */
	int placed = 0;
	for (int i = 0; i < d->marker_count; ++i) {
		const rt_plot_marker *m = &d->markers[i];
		if (m->x < f.x.lo || m->x > f.x.hi) continue;
		double rgb[3] = { 0.3, 0.3, 0.3 };
		if (m->colour) rt__parse_colour(m->colour, rgb);
		const double x = round(to_px_x(&f, m->x)) + 0.5;
		static const double dash[] = { 5.0, 3.0 };
		cairo_set_dash(cr, dash, 2, 0.0);
		cairo_set_line_width(cr, 1.5);
		cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
		cairo_move_to(cr, x, f.top);
		cairo_line_to(cr, x, f.bottom);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0.0);
		if (m->label && m->label[0]) {
			rt__font(cr, 12.0, false);
			/* the label runs down from the top, beside its line; one that would overlap a
			 * label already placed starts below it */
			const double len = rt__text_width(cr, m->label) + 6.0;
			const double x0 = x + (x + 16.0 > f.right ? -17.0 : 1.0), x1 = x0 + 16.0;
			double y0 = f.top + 6.0;
			for (bool moved = true; moved;) {
				moved = false;
				for (int k = 0; k < placed; ++k)
					if (x0 < label_box[k][1] && x1 > label_box[k][0] && y0 < label_box[k][3] && y0 + len > label_box[k][2]) {
						y0 = label_box[k][3] + 10.0;
						moved = true;
					}
			}
			if (placed < RT_PLOT_MAX_MARKERS) {
				label_box[placed][0] = x0;
				label_box[placed][1] = x1;
				label_box[placed][2] = y0;
				label_box[placed][3] = y0 + len;
				placed++;
			}
			cairo_save(cr);
			cairo_translate(cr, x + (x + 16.0 > f.right ? -5.0 : 13.0), y0);
			cairo_rotate(cr, -RT__PI / 2.0);
			cairo_set_source_rgb(cr, rgb[0] * 0.8, rgb[1] * 0.8, rgb[2] * 0.8);
			rt__text(cr, 0.0, 0.0, m->label, 1.0, 3.0);
			cairo_restore(cr);
		}
	}

	/* axes, ticks and their labels */
	double left_rgb[3] = { text_rgb[0], text_rgb[1], text_rgb[2] }, right_rgb[3] = { text_rgb[0], text_rgb[1], text_rgb[2] };
	if (two_axes) {
		axis_colour(d, false, left_rgb);
		axis_colour(d, true, right_rgb);
	}
	cairo_set_line_width(cr, 1.0);
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	cairo_move_to(cr, f.left - 0.5, f.top);
	cairo_line_to(cr, f.left - 0.5, f.bottom + 0.5);
	cairo_line_to(cr, f.right, f.bottom + 0.5);
	if (two_axes) cairo_line_to(cr, f.right + 0.5, f.top);
	cairo_stroke(cr);
	rt__font(cr, 12.0, false);
	for (int i = 0; i < yn; ++i) {
		const double y = round(to_px_y(&f, &f.y, yt[i].v)) + 0.5;
		cairo_set_source_rgb(cr, left_rgb[0], left_rgb[1], left_rgb[2]);
		cairo_move_to(cr, f.left - (yt[i].minor ? 3.0 : 6.0), y);
		cairo_line_to(cr, f.left, y);
		cairo_stroke(cr);
		rt__text(cr, f.left - 9.0, y + 4.0, yt[i].label, 1.0, 0.0);
	}
	for (int i = 0; i < y2n; ++i) {
		const double y = round(to_px_y(&f, &f.y2, y2t[i].v)) + 0.5;
		cairo_set_source_rgb(cr, right_rgb[0], right_rgb[1], right_rgb[2]);
		cairo_move_to(cr, f.right, y);
		cairo_line_to(cr, f.right + (y2t[i].minor ? 3.0 : 6.0), y);
		cairo_stroke(cr);
		rt__text(cr, f.right + 9.0, y + 4.0, y2t[i].label, 0.0, 0.0);
	}
	cairo_set_source_rgb(cr, text_rgb[0], text_rgb[1], text_rgb[2]);
	for (int i = 0; i < xn; ++i) {
		const double x = round(to_px_x(&f, xt[i].v)) + 0.5;
		cairo_move_to(cr, x, f.bottom);
		cairo_line_to(cr, x, f.bottom + 6.0);
		cairo_stroke(cr);
		/* labels at the very ends are kept inside the picture */
		double align = 0.5;
		const double w = rt__text_width(cr, xt[i].label);
		if (x - w / 2 < 2.0) align = 0.0;
		if (x + w / 2 > W - 2.0) align = 1.0;
		rt__text(cr, x, f.bottom + 20.0, xt[i].label, align, 0.0);
		if (xt[i].date[0]) {
			cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
			const double dw = rt__text_width(cr, xt[i].date);
			rt__text(cr, x, f.bottom + 36.0, xt[i].date, x - dw / 2 < 2.0 ? 0.0 : x + dw / 2 > W - 2.0 ? 1.0 : 0.5, 0.0);
			cairo_set_source_rgb(cr, text_rgb[0], text_rgb[1], text_rgb[2]);
		}
	}
	rt__font(cr, 13.0, false);
	if (xtitle[0]) rt__text(cr, (f.left + f.right) / 2.0, H - pad - 4.0, xtitle, 0.5, 0.0);
	if (ytitle[0]) {
		cairo_save(cr);
		cairo_set_source_rgb(cr, left_rgb[0], left_rgb[1], left_rgb[2]);
		cairo_translate(cr, pad + 13.0, (f.top + f.bottom) / 2.0);
		cairo_rotate(cr, -RT__PI / 2.0);
		rt__text(cr, 0.0, 0.0, ytitle, 0.5, 0.0);
		cairo_restore(cr);
	}
	if (two_axes && y2title[0]) {
		cairo_save(cr);
		cairo_set_source_rgb(cr, right_rgb[0], right_rgb[1], right_rgb[2]);
		cairo_translate(cr, f.right + 12.0 + y2tw + 9.0, (f.top + f.bottom) / 2.0);
		cairo_rotate(cr, RT__PI / 2.0);
		rt__text(cr, 0.0, 0.0, y2title, 0.5, 0.0);
		cairo_restore(cr);
	}

	/* legend, right of everything */
	if (legend_entries) {
		const double lx = W - pad - legend_w, row = 20.0;
		double ly = f.top + 4.0;
		cairo_set_source_rgb(cr, 0.975, 0.975, 0.975);
		cairo_rectangle(cr, lx, f.top - 4.0, legend_w, row * legend_entries + 12.0);
		cairo_fill_preserve(cr);
		cairo_set_source_rgb(cr, 0.82, 0.82, 0.82);
		cairo_set_line_width(cr, 1.0);
		cairo_stroke(cr);
		rt__font(cr, 12.5, false);
		for (int i = 0; i < d->series_count; ++i) {
			const rt_plot_series *p = &d->series[i];
			if (!p->label || !p->label[0]) continue;
			double rgb[3];
			series_colour(d, i, rgb);
			cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
			set_line(cr, p->line, p->width_px > 0.0 ? fmax(p->width_px, 2.0) : 2.5);
			cairo_move_to(cr, lx + 10.0, ly + 8.0);
			cairo_line_to(cr, lx + 38.0, ly + 8.0);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0.0);
			cairo_set_source_rgb(cr, text_rgb[0], text_rgb[1], text_rgb[2]);
			legend_text(text, sizeof text, p, two_axes);
			cairo_save(cr);
			cairo_rectangle(cr, lx, ly - 8.0, legend_w - 6.0, row + 4.0); /* a too long entry is cut, not spilt */
			cairo_clip(cr);
			rt__text(cr, lx + 46.0, ly + 12.5, text, 0.0, 0.0);
			cairo_restore(cr);
			ly += row;
		}
	}
	if (!any_data) {
		rt__font(cr, 16.0, false);
		cairo_set_source_rgb(cr, 0.5, 0.5, 0.5);
		rt__text(cr, (f.left + f.right) / 2.0, (f.top + f.bottom) / 2.0, "no data", 0.5, 0.0);
	}
	return rt__canvas_close(&c, err);
}
