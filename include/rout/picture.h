/* rout pictures of a past moment: a frame of a trace drawn over its map, without a live
 * world, and the run folder drawn again at any time (`rout render`).
 *
 *   rt_trace_moment m;
 *   rt_trace_read_moment("run/trace.bin", 5400.0, NULL, &m, &err);    (the frame nearest 1.5 h)
 *   rt_frame_overlay o = rt_frame_overlay_default();
 *   o.origin = m.origin;  o.start_jd_ut = start;  o.sea_level_m = 1.2;  o.light_lux = 0.01;
 *   rt_picture_def pd = rt_picture_def_default();
 *   pd.path = "run/at-2040.svg";
 *   rt_picture_draw_frame(map, &m.frame, &o, &pd, &err);
 *   rt_trace_moment_free(&m);
 *
 * The picture is the one rt_world_draw_picture draws (rout.h): the map's ground with the sea
 * at the given level, place names, men by side and state, commanders, scale bar, north
 * arrow, the corner box and the legend. A trace keeps no kinds, so commanders are named
 * in the overlay; nor walls, which the overlay may carry too; nor fire, which the overlay
 * carries as the run's fire log (fire.bin).
 *
 * The run folder (docs/run-folder.md) holds trace.bin and run.json:
 *   {"map": "map.geojson", "start": "1641-09-25T18:00", "timezone_h": 8, ...}
 * and rt_render_run draws it at a time given as the user types it; rt_where_read tells
 * where each corps was, time by time.
 */
#ifndef ROUT_PICTURE_H
#define ROUT_PICTURE_H

#include "rout/map.h"
#include "rout/rout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A run's grass fire: the cells it caught, when, and when their flames went out (the run
 * folder's fire.bin, docs/run-folder.md). The fire of any moment follows from it. */
typedef struct rt_fire_log rt_fire_log;

/* Reads a fire log. Errors: RT_ERR_IO, RT_ERR_PARSE (not a fire log, a damaged one: the
 * field and what was expected), RT_ERR_NOMEM. On failure *out is NULL. */
rt_status rt_fire_log_read(const char *path, const rt_allocator *allocator, rt_fire_log **out, rt_error *err);
void rt_fire_log_destroy(rt_fire_log *log);

/* What a trace frame does not say about its moment. */
typedef struct rt_frame_overlay {
	rt_vec2 origin;            /* world position of the frame's (0, 0) (rt_trace_reader_origin); (0, 0) */
	double start_jd_ut;        /* the instant of time 0 (Julian Day, UT); NaN: the box shows the
	                              simulated time only */
	double sea_level_m;        /* NaN: unknown; the ground is then drawn at mean sea level (0 m) */
	double light_lux;          /* NaN: unknown */
	/* Commanders: their agent ids (indices in the frame) and names (NULL: unnamed). */
	const rt_agent_id *commanders;
	const char *const *commander_names;
	int commander_count;
	/* Walls in world coordinates (rt_world_get_wall), drawn over the map. */
	const rt_vec2 *wall_a, *wall_b;
	int wall_count;
	/* The run's grass fire (NULL: none): the burnt ground and the flames of the frame's
	 * moment are drawn, as on a live world's picture; smoke is not kept, so not drawn. Its
	 * grid must be the map's. */
	const rt_fire_log *fire;
	uint32_t cookie;
} rt_frame_overlay;

rt_frame_overlay rt_frame_overlay_default(void);

/* Draws a frame over a map (which may be NULL: the men alone, framed by their extent
 * unless def->view_min/max say otherwise). The clock in the corner box is
 * overlay->start_jd_ut + frame->time_s in def->utc_offset_h (NaN: the zone of the map
 * origin's longitude, else UTC). Errors: RT_ERR_INVALID (a def or overlay not made by its
 * _default function, a commander id outside the frame, an empty view, a fire log on
 * another grid than the map's or without a map), RT_ERR_IO, RT_ERR_NOMEM. */
rt_status rt_picture_draw_frame(const rt_map *map, const rt_trace_frame *frame, const rt_frame_overlay *overlay,
				const rt_picture_def *def, rt_error *err);

/* ---- a moment of a trace ------------------------------------------------------------------ */
/* One frame read out of a trace and kept: its arrays are the moment's own. */
typedef struct rt_trace_moment {
	rt_trace_frame frame;
	rt_vec2 origin;           /* world position of the frame's (0, 0) */
	int frame_index;          /* 0-based, in the trace */
	int frame_count;          /* frames in the trace */
	double first_time_s, last_time_s; /* the span the trace covers */
	/* owned storage */
	rt_allocator allocator;
	size_t capacity;
} rt_trace_moment;

/* Finds the frame whose time is nearest time_s (the earlier on a tie; -INFINITY: the
 * first, INFINITY: the last) and reads it. Passes over the other frames without reading
 * their men, so a moment late in a long trace costs little more than one frame. Errors:
 * RT_ERR_IO, RT_ERR_PARSE (a damaged trace), RT_ERR_INVALID (no frames, or time_s NaN),
 * RT_ERR_NOMEM. On failure nothing is held. */
rt_status rt_trace_read_moment(const char *trace_path, double time_s, const rt_allocator *allocator, rt_trace_moment *out,
			       rt_error *err);
void rt_trace_moment_free(rt_trace_moment *moment);

/* ---- the run folder drawn again ------------------------------------------------------------ */
typedef struct rt_render_def {
	const char *run_folder;
	/* When, as typed: "end" or NULL (the last frame), "start", a simulated time with its
	 * unit ("5400s", "90min", "1.5h"), a clock time on the run's clock ("20:40" or
	 * "20:40:30": the first such moment at or after the start) or a full local time
	 * ("1641-09-25T20:40", a space may stand for the T). */
	const char *at;
	rt_image_format format;   /* AUTO: from out_path's extension, PNG without one */
	const char *out_path;     /* NULL: <run folder>/render-<when>.png (or .svg) */
	int width_px;             /* of the map; 0: 1600 */
	const char *title;        /* drawn over the picture; NULL: run.json's title */
	rt_allocator allocator;
	uint32_t cookie;
} rt_render_def;

rt_render_def rt_render_def_default(void);

/* Draws the run folder at def->at and writes the picture; the path written is copied to
 * written (if not NULL) and the time of the frame drawn to *frame_time_s. A time outside
 * the run by more than one frame is refused (RT_ERR_INVALID, naming the span the run
 * covers); a bad run.json names the file and the field and says what was expected. */
rt_status rt_render_run(const rt_render_def *def, char *written, size_t written_size, double *frame_time_s, rt_error *err);

/* ---- the run folder read back: where each corps was (`rout where`) ------------------------- */
/* Every `every_s` from `from` to `to`, the first frame of the trace at or after that time
 * (and the trace's last frame when `to` is the end): for each corps of run.json, its men
 * by state and where its men in the field stood, named against the map's places. Men, not
 * agents: an agent is run.json's `scale` men, a corps' commander one man. */
typedef struct rt_where_def {
	const char *run_folder;
	const char *from, *to;    /* as rt_render_def.at; NULL: the start, the end */
	double every_s;           /* > 0 (default 3600) */
	bool units;               /* a row for each unit of run.json, not each corps */
	const rt_map *map;        /* the run's map when the caller has it loaded (a run
	                             writing its report); NULL: the folder's, loaded */
	rt_allocator allocator;
	uint32_t cookie;
} rt_where_def;

rt_where_def rt_where_def_default(void);

/* A corps of run.json, or with def.units one of its units. */
typedef struct rt_where_corps {
	char id[64], name[128], name_zh[64];
	int side;
	char corps[64];             /* a unit's corps (its id); "" for a corps */
	char kind[32];              /* a unit's kind ("horse", "headquarters" ...); "" for a corps */
	double initial;             /* men in the first frame read */
} rt_where_corps;

typedef struct rt_where_place {
	char id[64], name[128];
	rt_map_kind kind;
	rt_vec2 box_min, box_max;   /* metres */
	rt_vec2 centre;             /* the middle of its box */
} rt_where_place;

typedef struct rt_where_row {
	double time_s;              /* the frame's simulated time */
	int corps;                  /* index into rt_where_table.corps (a unit with def.units) */
	double men[RT_STATE_COUNT]; /* men by state */
	double in_field;            /* formed, marching, engaged, routing or desperate */
	rt_vec2 centre;             /* their mean position (map metres); NaN when none */
	rt_lonlat centre_lonlat;    /* NaN when none */
	double spread_m;            /* their root mean square distance from the centre */
	int ground;                 /* the topmost map feature under the centre (index into
	                               places), -1 open ground or none */
	int near;                   /* the nearest fort, camp, hill or ford by its centre, -1 none */
	double near_m;              /* from that place's centre to the corps' */
	double near_bearing_deg;    /* the corps seen from the place, clockwise from north */
	int shelter;                /* the fort holding most of the corps' sheltered men, -1 none */
	double shelter_men;         /* how many of them it holds */
} rt_where_row;

typedef struct rt_where_table {
	double start_jd_ut, timezone_h; /* the run's clock: a row's local time is start + time_s */
	int corps_count;
	rt_where_corps *corps;
	int place_count;            /* every feature of the map, in the map's order */
	rt_where_place *places;
	int row_count;              /* time by time, and within a time corps by corps */
	rt_where_row *rows;
	rt_allocator allocator;
} rt_where_table;

/* Reads the run folder (run.json with `scale`, `corps` and `units`, which rout run
 * writes; trace.bin; the map). Errors name the file and the field: a run.json without
 * corps or units (a scene's, not a scenario run's), a unit outside the trace, a time not
 * understood or outside the run. On failure *out is NULL and nothing is held. */
rt_status rt_where_read(const rt_where_def *def, rt_where_table **out, rt_error *err);
void rt_where_free(rt_where_table *table);
/* Where a row's men in the field stood, in words, into out: "3.1 km SW of Xingshan, on
 * Hills west of the corridor", "at Red camp"; "" when it has none in the field. */
void rt_where_describe(const rt_where_table *table, const rt_where_row *row, char *out, size_t size);

#ifdef __cplusplus
}
#endif
#endif
