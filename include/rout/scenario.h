/* rout scenarios: a battle as data (docs/scenario-format.md), and runs of it.
 *
 *   rt_scenario_def def = rt_scenario_def_default();
 *   rt_scenario *sc;
 *   if (rt_scenario_load("scenarios/songjin-1641/scenario.yaml", &def, &sc, &err) != RT_OK)
 *       ... err.file, err.line, err.column, err.field (the key path) and err.message ...
 *   rt_run_def rd = rt_run_def_default();
 *   rd.seed = 3;
 *   rt_run *run;
 *   rt_run_create(sc, &rd, &run, &err);
 *   while (!rt_run_done(run)) rt_run_step(run, &err);
 *   rt_run_write_outputs(run, "out/run1", &err);
 *
 * A scenario gives men, traits, positions, orders and triggers; what happens after comes
 * from the engine's mechanisms. The loader is strict: unknown keys, wrong types, values
 * out of range, unknown places, units or corps are errors naming file:line:column, the
 * key path and what was expected. The loader never prints or exits; the scenario's
 * memory comes from def.allocator (libyaml and jansson keep small buffers of their own).
 */
#ifndef ROUT_SCENARIO_H
#define ROUT_SCENARIO_H

#include "rout/rout.h"
#include "rout/map.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- limits (refused, with the figure, before anything is allocated for them) ---- */
#define RT_SCENARIO_MAX_SIDES 8
#define RT_SCENARIO_MAX_CORPS 256
#define RT_SCENARIO_MAX_UNITS 4096
#define RT_SCENARIO_MAX_PLACES 1024
#define RT_SCENARIO_MAX_TRIGGERS 4096
#define RT_SCENARIO_MAX_HISTORY 256
#define RT_SCENARIO_MAX_PARAMETERS 256
#define RT_SCENARIO_MAX_SERIES 4096           /* points in one time series */
#define RT_SCENARIO_MAX_MEN_PER_UNIT 1000000
#define RT_SCENARIO_MAX_AGENTS 20000000       /* men / scale over the whole scenario */
#define RT_SCENARIO_MAX_DURATION_S (60.0 * 86400.0)
#define RT_SCENARIO_ID_SIZE 64
#define RT_SCENARIO_TEXT_SIZE 256

typedef struct rt_scenario rt_scenario;

typedef struct rt_scenario_def {
	/* "key.path=value" overrides applied to the file before it is read, e.g.
	 * "corps.datong.courage=0.9"; the key must exist (or its parent mapping must) and the
	 * value must pass the same checks as one written in the file. */
	const char *const *sets;
	int set_count;
	bool load_map;            /* also load the map and check every place against it (default true) */
	int64_t max_map_cells;    /* the map loader's limit; 0 = its default */
	rt_allocator allocator;
	uint32_t cookie;
} rt_scenario_def;

rt_scenario_def rt_scenario_def_default(void);

/* Reads and validates a scenario file; the map path inside is taken relative to the
 * file's folder. Codes: RT_ERR_IO, RT_ERR_PARSE (syntax), RT_ERR_INVALID (a value),
 * RT_ERR_CAPACITY (a limit), RT_ERR_NOMEM. On failure *out is NULL and nothing is held. */
rt_status rt_scenario_load(const char *path, const rt_scenario_def *def, rt_scenario **out, rt_error *err);
/* The same from memory; `name` stands for the file in errors and `base_dir` is where the
 * map path is resolved (NULL: the current folder). */
rt_status rt_scenario_load_string(const char *text, size_t length, const char *name, const char *base_dir,
				  const rt_scenario_def *def, rt_scenario **out, rt_error *err);
void rt_scenario_destroy(rt_scenario *scenario);

typedef struct rt_scenario_info {
	const char *name, *title;
	const char *map_path;          /* as resolved */
	double start_jd_ut;            /* the instant the run starts */
	double duration_s;             /* start to end */
	double utc_offset_h;
	double scale;                  /* men per agent by default */
	double dt_s;
	int side_count, corps_count, unit_count, place_count, trigger_count, history_count, parameter_count;
	int64_t men;                   /* men in all units */
	const rt_map *map;             /* NULL when def.load_map was false */
} rt_scenario_info;

void rt_scenario_get_info(const rt_scenario *scenario, rt_scenario_info *out);
/* A side's display name ("Ming"), or "" when side is out of range. */
const char *rt_scenario_side_name(const rt_scenario *scenario, int side);

/* Formats an instant given in seconds after the scenario's start as local ISO time
 * "1641-09-25T19:40:00" into buf. */
void rt_scenario_format_time(const rt_scenario *scenario, double t_s, char *buf, size_t size);

/* ---- runs ---------------------------------------------------------------------------- */
typedef struct rt_run rt_run;

typedef struct rt_run_def {
	uint64_t seed;
	double scale;              /* men per agent; 0 = the scenario's */
	double until_s;            /* stop this long after the start; 0 = the scenario's end */
	int threads;               /* 0 = all cores */
	double trace_every_s;      /* trace frame interval for the replay; 0 = none */
	const char *trace_path;    /* where the trace goes (written whole on close), or NULL */
	rt_allocator allocator;
	uint32_t cookie;
} rt_run_def;

rt_run_def rt_run_def_default(void);

/* Builds the world of a scenario: map, environment, sides, places, corps, men. */
rt_status rt_run_create(const rt_scenario *scenario, const rt_run_def *def, rt_run **out, rt_error *err);
void rt_run_destroy(rt_run *run);

/* One step: the world's phases, then the scenario's orders and triggers, tallies and
 * events. */
rt_status rt_run_step(rt_run *run, rt_error *err);
bool rt_run_done(const rt_run *run);
double rt_run_time_s(const rt_run *run);      /* since the start */
double rt_run_end_s(const rt_run *run);
rt_world *rt_run_world(rt_run *run);
const rt_scenario *rt_run_scenario(const rt_run *run);

/* Outputs into a folder (created if missing), each file written whole or not at all:
 * summary.json, report.md, series.csv, events.jsonl (docs/scenario-format.md, "Outputs").
 * May be called after an interrupted run: the files then describe the run so far. */
rt_status rt_run_write_outputs(rt_run *run, const char *dir, rt_error *err);

/* Checkpoints of a run (issue 7): the world (rt_world_save_checkpoint) and the run's own
 * state — orders, triggers fired, events, series, history — in one file, written
 * atomically. Load into a run just made by rt_run_create from the same scenario (and
 * --set values) and run definition: the run then goes on exactly as the saved one would
 * have, bit for bit. A checkpoint of another scenario, seed or scale is refused. The
 * trace of a resumed run begins at the resume. */
rt_status rt_run_save_checkpoint(const rt_run *run, const char *path, rt_error *err);
rt_status rt_run_load_checkpoint(rt_run *run, const char *path, rt_error *err);

/* The simulated value of every figure of the scenario's history block, in its order
 * (NaN where a figure cannot be measured). Returns the count. */
int rt_run_history_values(const rt_run *run, double *values, int capacity);

/* ---- key moments ------------------------------------------------------------------------ */
/* The moments of a run worth a picture of their own (the run folder's event-*.png,
 * docs/run-folder.md "Key moments"). At most RT_KEY_MOMENTS_MAX are chosen, by what a
 * reader of the battle looks for first: the first commander to leave; the rout at its
 * height (most men routing at once); the highest water; the first man drowned; the
 * minute most men drowned; the first ambush sprung; the first man burned; the second
 * commander to leave (the first who followed); the first commander to fall or be swept
 * away; the first to reach a fort; the first sight of each other phenomenon; the first
 * unit to break; later departures; then the rest. A moment that would show the same
 * trace frame as one already chosen (nearer than half of frame_s) gives its place to the
 * next. Eight pictures tell a night's story; the replay page has every moment. */
#define RT_KEY_MOMENTS_MAX 8

typedef struct rt_key_moment {
	double time_s;            /* simulated seconds after the start */
	char type[24];            /* the event's type ("commander_left", "first" ...), or
	                             "rout_peak", "drowning_peak", "high_water" */
	char text[200];           /* what happened, one line */
} rt_key_moment;

/* Fills out with at most capacity key moments (capacity beyond RT_KEY_MOMENTS_MAX is not
 * used), in time order, and sets *count to how many; frame_s is the trace's frame
 * interval (0: moments are merged only when at the same time). Errors: RT_ERR_INVALID,
 * RT_ERR_NOMEM. */
rt_status rt_run_key_moments(const rt_run *run, double frame_s, rt_key_moment *out, int capacity, int *count, rt_error *err);

typedef struct rt_history_figure {
	const char *figure;      /* what is counted */
	double recorded_low, recorded_high; /* the record (equal when it is one number) */
	const char *grade;       /* "A", "B", "E" */
	const char *source;
} rt_history_figure;

bool rt_scenario_get_history(const rt_scenario *scenario, int index, rt_history_figure *out);

/* A declared free parameter (the scenario's `parameters:` block): the key path a --set
 * names, its range and the value the scenario sets (within the range). */
typedef struct rt_scenario_parameter {
	const char *key;         /* "triggers.cut_the_retreat.when.fleeing.men" */
	double low, high;        /* the range declared */
	double value;            /* as the scenario (with any sets) has it */
	const char *note;        /* "" when none */
} rt_scenario_parameter;

bool rt_scenario_get_parameter(const rt_scenario *scenario, int index, rt_scenario_parameter *out);

#ifdef __cplusplus
}
#endif
#endif
