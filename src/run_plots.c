/* The plots every run writes (rout/plot.h), drawn with the generic plot from an
 * rt_run_history: men by side and state, deaths by cause, each corps' strength with its
 * commander's departure, sea level and light. Also the tally of a trace by side and
 * state, which gives the first two for a run that kept no history. Colours say what a
 * line is about (a fate, a cause, a side's family of hues for corps); the line style says
 * which side (solid for the first, dashed for the second ...). */
#include "canvas.h"
#include "rout/plot.h"

#include <math.h>
#include <stdio.h>

#define HISTORY_MAX_SIDES 8

static const rt_plot_line side_line[4] = { RT_PLOT_SOLID, RT_PLOT_DASHED, RT_PLOT_DOTTED, RT_PLOT_DASH_DOT };

static void side_name(const rt_run_history *h, int side, char *out, size_t size)
{
	if (h->side_names && h->side_names[side] && h->side_names[side][0]) snprintf(out, size, "%s", h->side_names[side]);
	else snprintf(out, size, "side %d", side);
}

static void corps_name(const rt_run_history *h, int corps, char *out, size_t size)
{
	if (h->corps_names && h->corps_names[corps] && h->corps_names[corps][0]) snprintf(out, size, "%s", h->corps_names[corps]);
	else snprintf(out, size, "corps %d", corps);
}

static rt_status check_history(const rt_run_history *h, const rt_plot_def *def, rt_error *err)
{
	if (!def || def->cookie != RT_COOKIE) return rt__fail(err, RT_ERR_INVALID, "plot definition was not made by rt_plot_def_default()");
	if (!h) return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "history", "no history to plot");
	if (h->sample_count < 2 || !h->time_s)
		return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "sample_count",
				   "a plot needs at least two samples with their times; the history has %d", h->sample_count);
	if (h->side_count < 1 || h->side_count > HISTORY_MAX_SIDES)
		return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "side_count", "side_count %d; expected 1..%d", h->side_count,
				   HISTORY_MAX_SIDES);
	for (int k = 0; k < h->sample_count; ++k)
		if (!isfinite(h->time_s[k]) || (k > 0 && h->time_s[k] < h->time_s[k - 1]))
			return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "time_s", "time_s[%d] = %g; times must be finite and increase", k,
					   h->time_s[k]);
	return RT_OK;
}

/* The plot of one kind, built on the caller's def: x in seconds on a clock, else in
 * minutes (runs up to three hours) or hours. */
typedef struct builder {
	rt_plot_def def;
	rt_allocator allocator;
	double *values;           /* x, then count y arrays of samples each */
	size_t value_count;
	int samples;
	rt_plot_series series[RT_PLOT_MAX_SERIES];
	char labels[RT_PLOT_MAX_SERIES][256];
	rt_plot_marker markers[RT_PLOT_MAX_MARKERS];
	char marker_labels[RT_PLOT_MAX_MARKERS][256];
	double x_per_s;           /* x units per second */
} builder;

static rt_status builder_begin(builder *b, const rt_run_history *h, const rt_plot_def *base, int max_series, const char *title,
			       rt_error *err)
{
	memset(b, 0, sizeof *b);
	b->def = *base;
	b->allocator = base->allocator.alloc ? base->allocator : rt_allocator_default();
	b->samples = h->sample_count;
	b->value_count = (size_t)h->sample_count * (size_t)(1 + max_series);
	b->values = rt__alloc(&b->allocator, b->value_count * sizeof(double));
	if (!b->values) return rt__fail_at(err, RT_ERR_NOMEM, base->path, 0, 0, NULL, "cannot allocate a plot of %d samples", h->sample_count);
	b->def.series = b->series;
	b->def.series_count = 0;
	b->def.markers = b->markers;
	b->def.marker_count = 0;
	if (!b->def.title) b->def.title = title;
	const rt_plot_axis blank = { NULL, NULL, false, false, NAN, NAN };
	b->def.x = b->def.y = b->def.y2 = blank;
	const double span = h->time_s[h->sample_count - 1] - h->time_s[0];
	if (isfinite(base->clock_start_jd_ut)) {
		b->x_per_s = 1.0;
	} else if (span <= 3.0 * 3600.0) {
		b->x_per_s = 1.0 / 60.0;
		b->def.x.label = "simulated time";
		b->def.x.unit = "min";
	} else {
		b->x_per_s = 1.0 / 3600.0;
		b->def.x.label = "simulated time";
		b->def.x.unit = "h";
	}
	for (int k = 0; k < h->sample_count; ++k) b->values[k] = h->time_s[k] * b->x_per_s;
	/* a run's time starts at 0, though its first sample (a trace's first frame) may come later */
	if (!isfinite(base->clock_start_jd_ut) && h->time_s[0] >= 0.0 && h->time_s[0] <= 0.1 * span) b->def.x.min = 0.0;
	return RT_OK;
}

/* A new series over the samples; its y array is returned for filling. */
static double *builder_series(builder *b, const char *label, const char *colour, rt_plot_line line, bool right)
{
	const int i = b->def.series_count;
	if (i >= RT_PLOT_MAX_SERIES || (size_t)(i + 2) * (size_t)b->samples > b->value_count) return NULL;
	double *y = b->values + (size_t)(i + 1) * (size_t)b->samples;
	snprintf(b->labels[i], sizeof b->labels[i], "%s", label ? label : "");
	rt_plot_series *s = &b->series[i];
	memset(s, 0, sizeof *s);
	s->label = b->labels[i];
	s->x = b->values;
	s->y = y;
	s->count = b->samples;
	s->colour = colour;
	s->line = line;
	s->right_axis = right;
	b->def.series_count++;
	return y;
}

static rt_status builder_finish(builder *b, rt_error *err)
{
	rt_status s = rt_plot_write(&b->def, err);
	rt__free(&b->allocator, b->values, b->value_count * sizeof(double));
	b->values = NULL;
	return s;
}

/* ---- men by state ------------------------------------------------------------------------- */
enum { FATE_STANDING = 0, FATE_ROUTING, FATE_TAKEN, FATE_DEAD, FATE_GONE, FATE_COUNT };

static int fate_of(int state)
{
	switch ((rt_state)state) {
	case RT_STATE_ROUTING: return FATE_ROUTING;
	case RT_STATE_SURRENDERED: case RT_STATE_CAPTURED: return FATE_TAKEN;
	case RT_STATE_DEAD_COMBAT: case RT_STATE_DEAD_TRAMPLED: case RT_STATE_DEAD_DROWNED: case RT_STATE_DEAD_BURNED: return FATE_DEAD;
	case RT_STATE_SHELTERED: case RT_STATE_ESCAPED: return FATE_GONE;
	default: return FATE_STANDING;
	}
}

static const char *const fate_names[FATE_COUNT] = { "standing", "routing", "kneeling or taken", "dead", "sheltered or escaped" };
static const char *const fate_colours[FATE_COUNT] = { "#267326", "#e08214", "#7f7f7f", "#bf1919", "#2166ac" };

rt_status rt_plot_men_by_state(const rt_run_history *h, const rt_plot_def *def, rt_error *err)
{
	rt__error_clear(err);
	rt_status s = check_history(h, def, err);
	if (s != RT_OK) return s;
	if (!h->men_by_state) return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "men_by_state", "the history kept no men_by_state");
	rt_allocator a = def->allocator.alloc ? def->allocator : rt_allocator_default();
	builder *b = rt__alloc(&a, sizeof *b);
	if (!b) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate a plot");
	if ((s = builder_begin(b, h, def, h->side_count * FATE_COUNT, "Men of each side by state", err)) != RT_OK) {
		rt__free(&a, b, sizeof *b);
		return s;
	}
	b->def.y.label = "men";
	b->def.y.include_zero = true;
	const size_t stride = (size_t)h->side_count * RT_STATE_COUNT;
	for (int side = 0; side < h->side_count; ++side) {
		char name[96];
		side_name(h, side, name, sizeof name);
		for (int fate = 0; fate < FATE_COUNT; ++fate) {
			bool any = false;
			for (int k = 0; k < h->sample_count && !any; ++k)
				for (int st = 0; st < RT_STATE_COUNT && !any; ++st)
					any = fate_of(st) == fate && h->men_by_state[(size_t)k * stride + (size_t)side * RT_STATE_COUNT + (size_t)st] > 0;
			if (!any) continue;
			char label[192];
			snprintf(label, sizeof label, "%s: %s", name, fate_names[fate]);
			double *y = builder_series(b, label, fate_colours[fate], side_line[side % 4], false);
			if (!y) break;
			for (int k = 0; k < h->sample_count; ++k) {
				int men = 0;
				for (int st = 0; st < RT_STATE_COUNT; ++st)
					if (fate_of(st) == fate) men += h->men_by_state[(size_t)k * stride + (size_t)side * RT_STATE_COUNT + (size_t)st];
				y[k] = men;
			}
		}
	}
	s = builder_finish(b, err);
	rt__free(&a, b, sizeof *b);
	return s;
}

/* ---- deaths by cause ---------------------------------------------------------------------- */
enum { CAUSES = 4 }; /* in combat, trampled, drowned, burned */

rt_status rt_plot_deaths_by_cause(const rt_run_history *h, const rt_plot_def *def, rt_error *err)
{
	rt__error_clear(err);
	rt_status s = check_history(h, def, err);
	if (s != RT_OK) return s;
	if (!h->men_by_state) return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "men_by_state", "the history kept no men_by_state");
	rt_allocator a = def->allocator.alloc ? def->allocator : rt_allocator_default();
	builder *b = rt__alloc(&a, sizeof *b);
	if (!b) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate a plot");
	if ((s = builder_begin(b, h, def, h->side_count * CAUSES, "Deaths by cause (cumulative)", err)) != RT_OK) {
		rt__free(&a, b, sizeof *b);
		return s;
	}
	static const rt_state causes[CAUSES] = { RT_STATE_DEAD_COMBAT, RT_STATE_DEAD_TRAMPLED, RT_STATE_DEAD_DROWNED, RT_STATE_DEAD_BURNED };
	static const char *const cause_names[CAUSES] = { "killed in combat", "trampled", "drowned", "burned" };
	static const char *const cause_colours[CAUSES] = { "#b2182b", "#e08214", "#2166ac", "#4d3319" };
	b->def.y.label = "dead";
	b->def.y.unit = "men";
	b->def.y.include_zero = true;
	const size_t stride = (size_t)h->side_count * RT_STATE_COUNT;
	/* a cause a side never died of is left out; with no deaths at all, flat lines at 0
	 * for combat say so */
	bool seen[HISTORY_MAX_SIDES][CAUSES], none = true;
	for (int side = 0; side < h->side_count; ++side)
		for (int c = 0; c < CAUSES; ++c) {
			seen[side][c] = false;
			for (int k = 0; k < h->sample_count && !seen[side][c]; ++k)
				seen[side][c] = h->men_by_state[(size_t)k * stride + (size_t)side * RT_STATE_COUNT + causes[c]] > 0;
			none = none && !seen[side][c];
		}
	for (int c = 0; c < CAUSES; ++c) {
		for (int side = 0; side < h->side_count; ++side) {
			if (!seen[side][c] && !(none && c == 0)) continue;
			char name[96], label[192];
			side_name(h, side, name, sizeof name);
			snprintf(label, sizeof label, "%s: %s", name, cause_names[c]);
			double *y = builder_series(b, label, cause_colours[c], side_line[side % 4], false);
			if (!y) break;
			for (int k = 0; k < h->sample_count; ++k) y[k] = h->men_by_state[(size_t)k * stride + (size_t)side * RT_STATE_COUNT + causes[c]];
		}
	}
	s = builder_finish(b, err);
	rt__free(&a, b, sizeof *b);
	return s;
}

/* ---- corps strength ------------------------------------------------------------------------ */
/* Each side's corps in a family of hues: warm for the first side, cool for the second. */
static const char *const corps_colours[3][8] = {
	{ "#c0392b", "#e67e22", "#7b241c", "#d4a017", "#a0522d", "#d6478f", "#e74c3c", "#935116" },
	{ "#1f5fa8", "#138d90", "#5b2c83", "#2e8b3d", "#3498db", "#1b4f72", "#8e44ad", "#117a65" },
	{ "#555555", "#8c564b", "#9a9a1f", "#6b6b6b", "#2f4f4f", "#708090", "#4d4d4d", "#a9a9a9" }
};

rt_status rt_plot_corps_strength(const rt_run_history *h, const rt_plot_def *def, rt_error *err)
{
	rt__error_clear(err);
	rt_status s = check_history(h, def, err);
	if (s != RT_OK) return s;
	if (h->corps_count < 1 || !h->corps_active)
		return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "corps_active", "the history kept no corps (corps_count %d)", h->corps_count);
	if (h->corps_count > RT_PLOT_MAX_SERIES)
		return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "corps_count", "%d corps; a plot takes at most %d", h->corps_count,
				   RT_PLOT_MAX_SERIES);
	rt_allocator a = def->allocator.alloc ? def->allocator : rt_allocator_default();
	builder *b = rt__alloc(&a, sizeof *b);
	if (!b) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate a plot");
	if ((s = builder_begin(b, h, def, h->corps_count, "Strength of each corps", err)) != RT_OK) {
		rt__free(&a, b, sizeof *b);
		return s;
	}
	b->def.y.label = "men in the field";
	b->def.y.include_zero = true;
	int index_in_side[HISTORY_MAX_SIDES] = { 0 };
	for (int c = 0; c < h->corps_count; ++c) {
		const int side = h->corps_side ? h->corps_side[c] % HISTORY_MAX_SIDES : 0;
		const int k = index_in_side[side]++;
		const char *colour = corps_colours[side < 2 ? side : 2][k % 8];
		char name[128], label[256];
		corps_name(h, c, name, sizeof name);
		char sname[96];
		side_name(h, side, sname, sizeof sname);
		snprintf(label, sizeof label, "%s (%s)", name, sname);
		double *y = builder_series(b, label, colour, (k / 8) % 2 ? RT_PLOT_DASHED : RT_PLOT_SOLID, false);
		if (!y) break;
		for (int t = 0; t < h->sample_count; ++t) y[t] = h->corps_active[(size_t)t * (size_t)h->corps_count + (size_t)c];
		/* the commander's departure */
		const double left = h->corps_left_at_s ? h->corps_left_at_s[c] : -1.0;
		if (left >= 0.0 && isfinite(left) && b->def.marker_count < RT_PLOT_MAX_MARKERS) {
			const int m = b->def.marker_count++;
			const char *who = h->commander_names && h->commander_names[c] && h->commander_names[c][0] ? h->commander_names[c] : name;
			char when[64];
			if (isfinite(def->clock_start_jd_ut)) rt__format_clock(when, sizeof when, def->clock_start_jd_ut + left / 86400.0, def->clock_utc_offset_h, false, false);
			else if (b->x_per_s < 1.0 / 600.0) snprintf(when, sizeof when, "at %.1f h", left / 3600.0);
			else snprintf(when, sizeof when, "at %.0f min", left / 60.0);
			snprintf(b->marker_labels[m], sizeof b->marker_labels[m], "%s leaves %s", who, when);
			b->markers[m].x = left * b->x_per_s;
			b->markers[m].label = b->marker_labels[m];
			b->markers[m].colour = colour;
		}
	}
	s = builder_finish(b, err);
	rt__free(&a, b, sizeof *b);
	return s;
}

/* ---- sea and light ------------------------------------------------------------------------- */
rt_status rt_plot_sea_and_light(const rt_run_history *h, const rt_plot_def *def, rt_error *err)
{
	rt__error_clear(err);
	rt_status s = check_history(h, def, err);
	if (s != RT_OK) return s;
	if (!h->sea_level_m && !h->light_lux)
		return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "sea_level_m", "the history kept neither sea_level_m nor light_lux");
	rt_allocator a = def->allocator.alloc ? def->allocator : rt_allocator_default();
	builder *b = rt__alloc(&a, sizeof *b);
	if (!b) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate a plot");
	const char *title = h->sea_level_m && h->light_lux ? "Sea level and light" : h->sea_level_m ? "Sea level" : "Light";
	if ((s = builder_begin(b, h, def, 4, title, err)) != RT_OK) {
		rt__free(&a, b, sizeof *b);
		return s;
	}
	const bool light_right = h->sea_level_m != NULL;
	if (h->sea_level_m) {
		b->def.y.label = "sea level";
		b->def.y.unit = "m";
		double *y = builder_series(b, "sea level", "#1f5fa8", RT_PLOT_SOLID, false);
		for (int k = 0; y && k < h->sample_count; ++k) y[k] = h->sea_level_m[k];
	}
	if (h->light_lux) {
		rt_plot_axis *axis = light_right ? &b->def.y2 : &b->def.y;
		axis->label = "light";
		axis->unit = "lux";
		axis->log_scale = true;
		double lo = INFINITY, hi = -INFINITY;
		for (int k = 0; k < h->sample_count; ++k)
			if (h->light_lux[k] > 0.0 && isfinite(h->light_lux[k])) {
				lo = fmin(lo, h->light_lux[k]);
				hi = fmax(hi, h->light_lux[k]);
			}
		double *y = builder_series(b, "light", "#c98b00", RT_PLOT_SOLID, light_right);
		for (int k = 0; y && k < h->sample_count; ++k) y[k] = h->light_lux[k];
		/* where sight changes, as thin guides on the light's scale when they fall in it */
		if (isfinite(lo) && hi >= RT_DAY_LUX / 3.0 && lo <= RT_DAY_LUX * 3.0) {
			double *g = builder_series(b, "day from 1,000 lux", "#e3c26b", RT_PLOT_DOTTED, light_right);
			for (int k = 0; g && k < h->sample_count; ++k) g[k] = RT_DAY_LUX;
		}
		if (isfinite(lo) && hi >= RT_TWILIGHT_LUX / 3.0 && lo <= RT_TWILIGHT_LUX * 3.0) {
			double *g = builder_series(b, "civil twilight ends, 3.4 lux", "#8a7a52", RT_PLOT_DOTTED, light_right);
			for (int k = 0; g && k < h->sample_count; ++k) g[k] = RT_TWILIGHT_LUX;
		}
	}
	s = builder_finish(b, err);
	rt__free(&a, b, sizeof *b);
	return s;
}

/* ---- the trace tallied ---------------------------------------------------------------------- */
/* The tally's arrays keep room for 8 sides a frame (and one frame when there are none). */
static size_t tally_frames(int frames)
{
	return frames > 0 ? (size_t)frames : 1;
}

void rt_trace_tally_free(rt_trace_tally *t)
{
	if (!t) return;
	rt__free(&t->allocator, t->time_s, tally_frames(t->frame_count) * sizeof(double));
	rt__free(&t->allocator, t->men_by_state, tally_frames(t->frame_count) * HISTORY_MAX_SIDES * RT_STATE_COUNT * sizeof(int));
	t->time_s = NULL;
	t->men_by_state = NULL;
	t->frame_count = 0;
}

rt_status rt_trace_tally_read(const char *trace_path, const rt_allocator *allocator, rt_trace_tally *out, rt_error *err)
{
	rt__error_clear(err);
	if (!out) return rt__fail(err, RT_ERR_INVALID, "no tally to fill");
	memset(out, 0, sizeof *out);
	out->allocator = allocator && allocator->alloc ? *allocator : rt_allocator_default();
	if (!trace_path) return rt__fail(err, RT_ERR_INVALID, "no trace path");
	rt_trace_reader *r = rt_trace_reader_open(trace_path, &out->allocator, err);
	if (!r) return err ? err->code : RT_ERR_IO;
	/* first pass: how many frames, without reading the men */
	rt_trace_frame f;
	rt_status s;
	int frames = 0;
	while ((s = rt_trace_reader_skip(r, &f, err)) == RT_OK) frames++;
	rt_trace_reader_close(r);
	if (s != RT_ERR_STATE) return s;
	rt__error_clear(err);
	const size_t per_frame = HISTORY_MAX_SIDES * RT_STATE_COUNT;
	out->time_s = rt__alloc(&out->allocator, tally_frames(frames) * sizeof(double));
	out->men_by_state = rt__calloc(&out->allocator, tally_frames(frames) * per_frame, sizeof(int));
	out->frame_count = frames;
	if (!out->time_s || !out->men_by_state) {
		rt_trace_tally_free(out);
		return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the tally of %d frames", frames);
	}
	if (!(r = rt_trace_reader_open(trace_path, &out->allocator, err))) {
		rt_trace_tally_free(out);
		return err ? err->code : RT_ERR_IO;
	}
	int k = 0, sides = 1;
	while (k < frames && (s = rt_trace_reader_next(r, &f, err)) == RT_OK) {
		out->time_s[k] = f.time_s;
		int *row = out->men_by_state + (size_t)k * per_frame;
		for (int i = 0; i < f.count; ++i) {
			if (f.side[i] >= HISTORY_MAX_SIDES) continue;
			row[(size_t)f.side[i] * RT_STATE_COUNT + f.state[i]]++;
			if (f.side[i] + 1 > sides) sides = f.side[i] + 1;
		}
		k++;
	}
	rt_trace_reader_close(r);
	if (k < frames) {
		rt_trace_tally_free(out);
		if (s != RT_OK && s != RT_ERR_STATE) return s;
		return rt__fail_at(err, RT_ERR_IO, trace_path, 0, 0, NULL, "the trace changed while it was read");
	}
	/* pack [frame][8 sides][state] into [frame][sides][state] in place */
	for (int t = 0; t < frames; ++t)
		memmove(out->men_by_state + (size_t)t * (size_t)sides * RT_STATE_COUNT, out->men_by_state + (size_t)t * per_frame,
			(size_t)sides * RT_STATE_COUNT * sizeof(int));
	out->side_count = sides;
	return RT_OK;
}

rt_status rt_plot_trace_states(const char *trace_path, const char *png_path, const char *title, const rt_allocator *allocator,
			       rt_error *err)
{
	rt__error_clear(err);
	if (!trace_path || !png_path) return rt__fail(err, RT_ERR_INVALID, "plot needs a trace and a picture path");
	rt_trace_tally t;
	rt_status s = rt_trace_tally_read(trace_path, allocator, &t, err);
	if (s != RT_OK) return s;
	if (t.frame_count < 2) {
		const int n = t.frame_count;
		rt_trace_tally_free(&t);
		return rt__fail_at(err, RT_ERR_INVALID, trace_path, 0, 0, NULL, "a plot needs at least two frames, the trace has %d", n);
	}
	rt_run_history h;
	memset(&h, 0, sizeof h);
	h.sample_count = t.frame_count;
	h.time_s = t.time_s;
	h.side_count = t.side_count;
	h.men_by_state = t.men_by_state;
	rt_plot_def d = rt_plot_def_default();
	d.path = png_path;
	d.title = title ? title : "Men of each side by state";
	d.allocator = t.allocator;
	s = rt_plot_men_by_state(&h, &d, err);
	rt_trace_tally_free(&t);
	return s;
}
