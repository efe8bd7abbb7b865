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
	char type[24];          /* commander_left, commander_reached, ambush, trigger, routed, tide_peak, first ... */
	char who[64];           /* a corps, unit or trigger id */
	char phenomenon[8];     /* PHENOMENA.md ID when the event shows one, else "" */
	rt_vec2 where;          /* metres; NaN when nowhere in particular */
	char text[200];
} rt_run_event;

/* Phenomena whose first occurrence the run watches for (report.c). */
enum {
	RT_PH_C2 = 0, RT_PH_C3, RT_PH_C5, RT_PH_E1, RT_PH_E2, RT_PH_E3, RT_PH_E4, RT_PH_M2, RT_PH_M3, RT_PH_M7, RT_PH_Q2, RT_PH_Q9,
	RT_PH_COUNT
};

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
	int *reached_place;           /* per corps: the place (fort) he reached, -1 */
	double *reached_at_s;
	rt_sc_order *unit_order;      /* per unit: the order it was last given */
	bool *unit_routed;            /* per unit: its breaking has been reported */
	double *trigger_fired_s;      /* per trigger: when it fired, -1 not yet */
	uint8_t *initial_armour;      /* per agent id: wore armour at the start */
	size_t initial_armour_size;
	rt_trace_writer *trace;
	rt_history *history;          /* men by state, corps, sea and light per minute (plots) */
	int64_t last_check, last_series;
	rt_run_event *events;
	int event_count, event_capacity;
	/* series: rows of 1 + sides x RT_STATE_COUNT int32 (minute, then agents per side and state) */
	int32_t *series;
	size_t series_rows, series_capacity;
	bool seen[RT_PH_COUNT];
	int64_t sheltered_at_start;
	double tide_prev_m, tide_prev2_m; /* sea level at the last two checks */
	int tide_samples;
};

rt_status rt__run_event(rt_run *run, const char *type, const char *who, rt_vec2 where, const char *phenomenon,
			const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* report.c: a row of the series; the watch for events and first occurrences. */
rt_status rt__run_record(rt_run *run, rt_error *err);
rt_status rt__run_watch(rt_run *run);
struct rt_world *rt__run_world(rt_run *run);


#endif
