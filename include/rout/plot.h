/* rout plots: time series a historian reads at a glance, as PNG or SVG.
 *
 * One generic plot, rt_plot_write, draws any number of series against time (or any x):
 * a title, axis labels with units, round-numbered ticks, a legend, an optional second y
 * axis on the right (linear or log: light in lux beside sea level in metres), vertical
 * event markers ("Wang Pu leaves 19:40"), and an x axis that reads as the clock
 * ("25 Sep", "20:00", "20:30" ...) when given the instant of t = 0 and a time zone.
 *
 *   double t[] = {0, 600, 1200}, sea[] = {0.2, 0.9, 1.6};
 *   rt_plot_series s = {0};
 *   s.label = "sea level"; s.x = t; s.y = sea; s.count = 3;
 *   rt_plot_def def = rt_plot_def_default();
 *   def.path = "out/sea.svg";                 (PNG unless the path ends in .svg)
 *   def.title = "Sea level at the Xiaoling mouth";
 *   def.y.label = "sea level"; def.y.unit = "m";
 *   def.clock_start_jd_ut = rt_julian_day_from_civil(1641, 9, 25, 18, 0, 0, 8);
 *   def.clock_utc_offset_h = 8;               (x is then seconds from that instant)
 *   def.series = &s; def.series_count = 1;
 *   if (rt_plot_write(&def, &err) != RT_OK) ... err.message says what was wrong ...
 *
 * The four plots every run writes are ready-made on top of it, from an rt_run_history:
 * plain arrays sampled over the run, which the runner fills itself or has an rt_history
 * recorder fill from the world as it steps (below). They are separate functions, not
 * recipes the runner repeats, so every run folder's plots look alike:
 *
 *   rt_plot_men_by_state     men of each side standing, routing, kneeling or taken, dead, gone
 *   rt_plot_deaths_by_cause  dead of each side, cumulative: killed, trampled, drowned, burned
 *   rt_plot_corps_strength   men still in the field in each corps; a marker where its
 *                            commander left without orders
 *   rt_plot_sea_and_light    sea level (m, left) and light (lux, log scale, right)
 *
 * Each takes an rt_plot_def for the file (path, format, size, title, subtitle, clock and
 * allocator); its axes, series and markers are filled in by the function. Files are
 * written under PATH.tmp and renamed, so a plot that exists is whole. Like the rest of
 * rout, nothing here prints or exits; cairo and fontconfig allocate outside the
 * allocator, everything else goes through it.
 */
#ifndef ROUT_PLOT_H
#define ROUT_PLOT_H

#include "rout/rout.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RT_PLOT_MAX_SERIES 64
#define RT_PLOT_MAX_MARKERS 256
#define RT_PLOT_MAX_POINTS 10000000 /* per series */

typedef enum rt_plot_line {
	RT_PLOT_SOLID = 0,
	RT_PLOT_DASHED,
	RT_PLOT_DOTTED,
	RT_PLOT_DASH_DOT
} rt_plot_line;

/* One line. A zero-initialised series is valid once x, y and count are set. */
typedef struct rt_plot_series {
	const char *label;    /* legend text (UTF-8); NULL or "": not in the legend */
	const double *x, *y;  /* count points, x increasing; a NaN y breaks the line */
	int count;
	const char *colour;   /* "#rrggbb" or "#rgb"; NULL: the next colour of the palette */
	rt_plot_line line;
	double width_px;      /* 0: 2 px */
	bool right_axis;      /* read against the second y axis (def.y2) */
} rt_plot_series;

/* A vertical line across the plot at x, labelled along it. */
typedef struct rt_plot_marker {
	double x;             /* in the units of the series' x */
	const char *label;    /* "Wang Pu leaves 19:40" (UTF-8); NULL: no label */
	const char *colour;   /* NULL: dark grey */
} rt_plot_marker;

typedef struct rt_plot_axis {
	const char *label;    /* "sea level"; drawn as "sea level (m)" with the unit */
	const char *unit;     /* "m", "lux", "men"; NULL or "": none */
	bool log_scale;       /* base 10 (y axes only); values <= 0 are left out */
	bool include_zero;    /* stretch a linear range to take in 0 */
	double min, max;      /* NaN (the default): from the data, widened to round ticks */
} rt_plot_axis;

typedef struct rt_plot_def {
	const char *path;        /* the file */
	rt_image_format format;  /* AUTO (the default): SVG when the path ends in .svg, else PNG */
	int width_px, height_px; /* 1000 x 600 (points for SVG); each 200..8000 */
	const char *title;       /* bold, top left (UTF-8); NULL: none */
	const char *subtitle;    /* a grey line under the title, e.g. the run; NULL: none */
	rt_plot_axis x, y;       /* y: the left axis */
	rt_plot_axis y2;         /* the right axis, drawn when a series has right_axis */
	/* The x axis as a clock: when clock_start_jd_ut is finite (a Julian Day in UT, see
	 * rt_julian_day_from_civil in rout/env.h), every x is seconds after that instant and
	 * the axis reads local time clock_utc_offset_h ahead of UT, with the date under the
	 * first tick and under each midnight; x.label then defaults to "local time (UTC+8)". */
	double clock_start_jd_ut;   /* NaN (the default): x is a plain number */
	double clock_utc_offset_h;  /* 0 */
	const rt_plot_series *series;
	int series_count;           /* 0..RT_PLOT_MAX_SERIES */
	const rt_plot_marker *markers;
	int marker_count;           /* 0..RT_PLOT_MAX_MARKERS */
	rt_allocator allocator;     /* for the ready-made plots' series; default malloc */
	uint32_t cookie;
} rt_plot_def;

rt_plot_def rt_plot_def_default(void);

/* Draws and writes the plot. RT_ERR_INVALID, naming the field (err->field, e.g.
 * "series[2].colour") and what was expected, for a def not made by rt_plot_def_default,
 * a missing path, a size out of range, a series without points or arrays, x not
 * increasing, an unreadable colour, a log axis with no positive value, a clock offset
 * outside -14..+14 h; RT_ERR_IO when the file cannot be written (nothing is left behind).
 * A plot whose series hold no finite point is drawn with "no data" in its middle. */
rt_status rt_plot_write(const rt_plot_def *def, rt_error *err);

/* ---- what a run saw over time ------------------------------------------------------- */
/* Plain arrays sampled over a run, for the ready-made plots. Any group may be absent
 * (NULL): a plot that needs it refuses with RT_ERR_INVALID naming the field. */
typedef struct rt_run_history {
	int sample_count;                 /* >= 2 for a plot */
	const double *time_s;             /* simulated seconds of each sample, increasing */
	int side_count;                   /* 1..8 */
	const char *const *side_names;    /* side_count names; NULL: "side 0", "side 1" ... */
	/* men of each side in each state: [sample][side][RT_STATE_COUNT] */
	const int *men_by_state;
	/* of those, the commanders: [sample][side][RT_STATE_COUNT], or NULL. An rt_history
	 * counts agents in men_by_state and corps_active; a runner whose agents stand for k
	 * men each counts (agents - commanders) x k + commanders men, a commander being one
	 * man at any scale. The ready-made plots draw men_by_state and corps_active as they
	 * are given and do not read these. */
	const int *commanders_by_state;
	/* corps */
	int corps_count;
	const char *const *corps_names;   /* corps_count names; NULL: "corps 0" ... */
	const uint8_t *corps_side;        /* corps_count sides; NULL: all side 0 */
	const int *corps_active;          /* men of each corps still taking part: [sample][corps] */
	const int *corps_commanders_active; /* of those, the commanders: [sample][corps], or NULL */
	const double *corps_left_at_s;    /* when each corps' commander left without orders; < 0: never */
	const char *const *commander_names; /* for the markers; NULL (or a NULL entry): the corps name */
	/* the environment at each sample */
	const double *sea_level_m;
	const double *light_lux;
} rt_run_history;

rt_status rt_plot_men_by_state(const rt_run_history *history, const rt_plot_def *def, rt_error *err);
rt_status rt_plot_deaths_by_cause(const rt_run_history *history, const rt_plot_def *def, rt_error *err);
rt_status rt_plot_corps_strength(const rt_run_history *history, const rt_plot_def *def, rt_error *err);
rt_status rt_plot_sea_and_light(const rt_run_history *history, const rt_plot_def *def, rt_error *err);

/* ---- recording a run's history -------------------------------------------------------- */
/* Samples a world as it steps: men by side and state, each corps' men still taking part
 * and when its commander left, the sea level and the light. Men are counted as agents,
 * and the commanders (kind RT_KIND_COMMANDER) among them apart (commanders_by_state,
 * corps_commanders_active), so that a caller whose agents stand for several men each
 * can count a commander as one man.
 *
 *   rt_history_def hd = rt_history_def_default();  hd.every_s = 60;
 *   rt_history *h = rt_history_create(world, &hd, &err);   (after the men and corps are added)
 *   while (...) { rt_world_step(world, &err); rt_history_record(h, world, &err); }
 *   rt_history_record_now(h, world, &err);                (the last moment, if not yet kept)
 *   rt_run_history view = rt_history_view(h);  view.side_names = names;
 *   rt_plot_corps_strength(&view, &plot_def, &err);
 *   rt_history_destroy(h);
 */
typedef struct rt_history rt_history;

typedef struct rt_history_def {
	double every_s;          /* simulated seconds between samples; 60 */
	rt_allocator allocator;  /* default malloc */
	uint32_t cookie;
} rt_history_def;

rt_history_def rt_history_def_default(void);
/* Takes the first sample. The sides are those of the men in the world now (1 + the
 * largest side); a man of a larger side added later is refused by rt_history_record with
 * RT_ERR_STATE, as is a corps added later. */
rt_history *rt_history_create(const rt_world *world, const rt_history_def *def, rt_error *err);
/* Takes a sample when every_s has passed since the last one. */
rt_status rt_history_record(rt_history *history, const rt_world *world, rt_error *err);
/* Takes a sample now unless the last one is of this very time. */
rt_status rt_history_record_now(rt_history *history, const rt_world *world, rt_error *err);
/* The samples so far, valid until the next record or destroy. side_names and
 * commander_names are NULL (fill them in); corps names are the corps'. */
rt_run_history rt_history_view(const rt_history *history);
void rt_history_destroy(rt_history *history);

/* ---- men by state from a trace ---------------------------------------------------------- */
/* Every frame of a trace counted by side and state: the time_s, side_count and
 * men_by_state of an rt_run_history, for a run that kept no history. */
typedef struct rt_trace_tally {
	int frame_count;
	double *time_s;          /* frame_count */
	int side_count;          /* 1 + the largest side in the trace (at most 8; larger sides are not counted) */
	int *men_by_state;       /* [frame][side][RT_STATE_COUNT] */
	rt_allocator allocator;
} rt_trace_tally;

rt_status rt_trace_tally_read(const char *trace_path, const rt_allocator *allocator, rt_trace_tally *out, rt_error *err);
void rt_trace_tally_free(rt_trace_tally *tally);

#ifdef __cplusplus
}
#endif
#endif
