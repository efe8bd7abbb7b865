/* A run in memory (run.c builds and steps it; report.c tallies and writes it). Internal. */
#ifndef RT_RUN_INTERNAL_H
#define RT_RUN_INTERNAL_H

#include "scenario_internal.h"
#include "world.h"
#include "rout/plot.h"
#include "history_internal.h"

#include <stdarg.h>

typedef struct rt_run_event {
	double time_s;
	char type[24];          /* commander_left, commander_reached, ambush, trigger, unit_broken, tide_peak, first ... */
	char who[64];           /* a corps, unit or trigger id */
	char phenomenon[8];     /* PHENOMENA.md ID when the event shows one, else "" */
	rt_vec2 where;          /* metres; NaN when nowhere in particular */
	char text[200];
} rt_run_event;

/* An order given to a unit, and when (run.json "orders": the replay page shows a man his
 * unit's order of the moment). */
typedef struct rt_run_order {
	double time_s;
	int unit;
	rt_sc_order order;
} rt_run_order;

/* Every phenomenon of PHENOMENA.md, in its order; the report watches for the first
 * occurrence of those it recognises (report.c: phenomenon_recognised) and says of the
 * others that it does not. */
enum {
	RT_PH_C1 = 0, RT_PH_C2, RT_PH_C3, RT_PH_C4, RT_PH_C5, RT_PH_C6,
	RT_PH_M1, RT_PH_M2, RT_PH_M3, RT_PH_M4, RT_PH_M5, RT_PH_M6, RT_PH_M7, RT_PH_M8, RT_PH_M9,
	RT_PH_E1, RT_PH_E2, RT_PH_E3, RT_PH_E4, RT_PH_E5, RT_PH_E6, RT_PH_E7,
	RT_PH_Q1, RT_PH_Q2, RT_PH_Q3, RT_PH_Q4, RT_PH_Q5, RT_PH_Q6, RT_PH_Q7, RT_PH_Q8, RT_PH_Q9, RT_PH_Q10,
	RT_PH_COUNT
};

/* Q8: "many routes" — a pursuit hesitating over this many routes or more (E: more than
 * the two of a flight that forks; docs/run-folder.md) */
#define RT_MANY_ROUTES 3

struct rt_run {
	rt_allocator allocator;
	const rt_scenario *scenario;
	rt_world *world;
	uint64_t seed;
	double scale, end_s, field_cell_m;
	rt_goal_id *place_goal;       /* per place, RT_NO_GOAL until used */
	int32_t *commander;           /* per corps: the commander's agent id */
	uint8_t *commander_state;     /* per corps: his state at the last check */
	bool *commander_left;         /* per corps: his leaving has been reported */
	bool *banner_told;            /* per corps: its men passing to its superior's banner has been reported (M4, M5) */
	double *hunt_close_s;         /* per corps: when a man hunting its commander first came within HUNT_CLOSE_M of
	                               * him while he was at large (Q10, report.c); -1 never */
	bool *hunt_told;              /* per corps: the watch on the hunt after its commander is over — its failure
	                               * told (hunt_held, hunt_lost), or he was taken or fell first (Q10) */
	int *reached_place;           /* per corps: the place (fort) he reached, -1 */
	double *reached_at_s;
	rt_sc_order *unit_order;      /* per unit: the order it was last given */
	bool *unit_routed;            /* per unit: its breaking has been reported */
	int32_t *unit_sent_to;        /* per unit: the place of the march order it last came under, kept while
	                               * it holds or contains there (Q3, Q4: report.c); -1 none */
	double *trigger_fired_s;      /* per trigger: when it fired, -1 not yet */
	double *figure_value;         /* per history figure with a time (`at`): its value then, NAN not yet */
	double *figure_since;         /* per history figure with `since`: its measure and its free men then (2 each), NAN not yet */
	uint8_t *initial_armour;      /* per agent id: wore armour at the start */
	size_t initial_armour_size;   /* also the size of each cohort below */
	uint8_t **figure_cohort;      /* per history figure with `since` and `from`: per agent id, 1 if he stood free
				       * in the place at `since` (the men whose losses it counts); NULL for the others */
	int32_t *slip_mark;           /* per agent id (initial_armour_size of them): the unit whose place he had ahead of
				       * him in flight while it stood there fighting (Q5: report.c), -1 none */
	rt_trace_writer *trace;
	rt_history *history;          /* men by state, corps, sea and light per minute (plots) */
	int64_t last_check, last_series;
	rt_run_event *events;
	int event_count, event_capacity;
	/* series: rows of rt__series_width int32 (the time in seconds, then agents per side and
	 * state, then the commanders among them per side and state) */
	int32_t *series;
	size_t series_rows, series_capacity;
	bool seen[RT_PH_COUNT];
	int64_t sheltered_at_start;
	double tide_prev_m, tide_prev2_m; /* sea level at the last two checks */
	int tide_samples;
	/* the orders given, in the order given, from the start (or from a checkpoint's resume) */
	rt_run_order *orders;
	int order_count, order_capacity;
	/* the cells the grass fire caught, as they catch (fire.bin, fire_log.h) */
	struct rt_fire_log_cell *fire_cells;
	size_t fire_cell_count, fire_cell_capacity;
	uint8_t *fire_logged;         /* a bit a map cell: in fire_cells */
	size_t fire_logged_size;
	bool fire_scanned;            /* cells caught before the log began (a resume's) are in */
};

/* A row of the series: the time, then per side and state the agents, then per side and
 * state the commanders among them (one man each at any scale: report.c). */
static inline size_t rt__series_width(int side_count)
{
	return 1 + 2 * (size_t)side_count * RT_STATE_COUNT;
}

/* Where corps c's commander stands, (NAN, NAN) when it has none: where an event of his is told. */
rt_vec2 rt__commander_at(const rt_world *w, int c);
rt_status rt__run_event(rt_run *run, const char *type, const char *who, rt_vec2 where, const char *phenomenon,
			const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* report.c: a row of the series; the watch for events and first occurrences. */
rt_status rt__run_record(rt_run *run, rt_error *err);
rt_status rt__run_watch(rt_run *run);
/* report.c: takes the history figures whose time (`at`) has come. */
void rt__run_take_figures(rt_run *run);
struct rt_world *rt__run_world(rt_run *run);
/* run.c: after a checkpoint is loaded, the order and fire logs begin again at the resumed
 * moment (as the trace does): the orders standing then, the cells caught by then. */
rt_status rt__run_restart_logs(rt_run *run, rt_error *err);
/* run.c: the fire's newly caught cells into the log (each step, and before writing). */
rt_status rt__run_log_fire(rt_run *run, rt_error *err);
/* report.c: the key moments among events (rt_run_key_moments, which adds the peaks of
 * the rout, the drowning and the water as events of types rout_peak, drowning_peak and
 * high_water); events in any order. */
rt_status rt__key_moments_choose(const rt_run_event *events, int count, double frame_s, const rt_allocator *allocator, rt_key_moment *out,
				 int capacity, int *chosen);
/* run.c: "march to songshan", "hold", "ambush at gaoqiao (300 m)" ... */
void rt__run_order_text(const rt_run *run, const rt_sc_order *o, char *buf, size_t size);


#endif
