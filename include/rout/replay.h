/* rout replay: a run's trace turned into one self-contained HTML page that plays the
 * battle back in a browser: every man a dot coloured by side and shaded by state, the
 * walls, play and pause, speed, a time slider, zoom and pan, layers, an events list.
 * The page needs no network: its script, style and data are all inside the one file.
 *
 *   rt_replay_def rd = rt_replay_def_default();
 *   rd.title = "Ningyuan, 1626";
 *   rd.wall_a = a; rd.wall_b = b; rd.wall_count = n;   (from rt_world_get_wall)
 *   rt_world_get_bounds(world, &rd.bounds_min, &rd.bounds_max);
 *   if (rt_replay_write("run/trace.bin", "run/replay.html", &rd, &err) != RT_OK) ...
 *
 * The data block inside the page is described in docs/replay-format.md. In short:
 * positions are whole decimetres, as base64 of little-endian Uint16 (offset so the
 * smallest is 0) when the men's extent fits in 6553.5 m on both axes, Int32 beyond;
 * a man's state and (from a version-2 trace) his morale are a byte each a frame.
 * Long runs are thinned to every k-th frame (the last frame is always kept) so that at
 * most max_frames remain and the page stays under max_bytes.
 *
 * A run whose agents stand for several men each says so (men_per_agent): the page then
 * counts men, not dots. Who each man is - his unit, corps and commander - and the orders
 * his unit was given come in the definition too (a run's run.json holds them), so a
 * clicked man shows his side, corps, commander, unit, state, morale and order.
 */
#ifndef ROUT_REPLAY_H
#define ROUT_REPLAY_H

#include "rout/rout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One line of the page's events list; clicking it jumps to time_s. */
typedef struct rt_replay_event {
	double time_s;    /* simulated seconds, as in the trace */
	const char *type; /* a short kind ("rout", "order", "death" ...); NULL = "" */
	const char *text; /* what happened, one line (UTF-8); NULL = "" */
} rt_replay_event;

/* A unit as the page names it for a clicked man. */
typedef struct rt_replay_unit {
	const char *name;           /* "datong_foot"; NULL = "" */
	const char *kind;           /* "foot", "horse", "headquarters" ...; NULL = "" */
	const char *corps;          /* the corps it belongs to, "wang_pu"; NULL = "" */
	const char *commander;      /* who leads that corps, "Wang Pu 王朴"; NULL = "" */
	int32_t commander_agent;    /* his agent id (the page shows his state of the moment); -1 none */
} rt_replay_unit;

/* An order given to a unit: the page shows a man the last his unit had at the moment. */
typedef struct rt_replay_order {
	double time_s;              /* simulated seconds, as in the trace */
	int unit;                   /* index into rt_replay_def.units */
	const char *text;           /* "march to xingshan"; NULL = "" */
} rt_replay_order;

typedef struct rt_replay_def {
	const char *title;        /* page title and heading (UTF-8); NULL = "rout replay" */
	int max_frames;           /* keep every k-th frame so at most this many remain (>= 2); 2000 */
	size_t max_bytes;         /* thin further so the page stays under this; 45,000,000 */
	/* Walls to draw, in world coordinates (rt_world_get_wall). */
	const rt_vec2 *wall_a, *wall_b;
	int wall_count;
	/* The world rectangle (rt_world_get_bounds): the page first shows this. When
	 * max <= min on either axis the view is fitted to the men and the walls. */
	rt_vec2 bounds_min, bounds_max;
	/* A picture of the ground drawn under the men (PNG file, e.g. rt_world_draw_picture with
	 * ground_only), covering the world rectangle background_min..background_max; NULL: none.
	 * It is embedded in the page (base64), so the page still opens from disk alone. */
	const char *background_png;
	rt_vec2 background_min, background_max;
	/* The events list (sorted by time in the page); none yet from the engine. */
	const rt_replay_event *events;
	int event_count;
	/* One agent stands for this many men (a run's scale): the page counts men. 1 */
	double men_per_agent;
	/* The sides' names in side order ("Ming 明"); a side beyond them shows its number. */
	const char *const *side_names;
	int side_name_count;
	/* Who each man is: the units (at most 65,535), and each agent's unit by agent id
	 * (-1 or beyond agent_unit_count: none). */
	const rt_replay_unit *units;
	int unit_count;
	const int32_t *agent_unit;
	int agent_unit_count;
	/* The orders given over the run, any order (the page sorts them by time). */
	const rt_replay_order *orders;
	int order_count;
	rt_allocator allocator;   /* for the trace reader and the writer's buffers */
	uint32_t cookie;          /* set by rt_replay_def_default */
} rt_replay_def;

rt_replay_def rt_replay_def_default(void);

/* Reads the trace at trace_path (rt_trace_reader_open) and writes the page to
 * html_path, under html_path.tmp first and renamed when whole; on any failure nothing
 * is left at either name. def may be NULL for the defaults. Errors: RT_ERR_INVALID (a
 * bad definition or a trace with no frames), RT_ERR_IO, RT_ERR_PARSE (a damaged trace),
 * RT_ERR_NOMEM, RT_ERR_CAPACITY (even the first and last frames alone would exceed
 * max_bytes). Memory used is about one frame of the trace, however long the run. */
rt_status rt_replay_write(const char *trace_path, const char *html_path, const rt_replay_def *def, rt_error *err);

#ifdef __cplusplus
}
#endif
#endif
