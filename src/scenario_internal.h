/* The scenario in memory, as the reader (scenario.c) leaves it for the builder and the
 * run (run.c). Internal. Every id is resolved to an index by the reader, so the run
 * never looks a name up. */
#ifndef RT_SCENARIO_INTERNAL_H
#define RT_SCENARIO_INTERNAL_H

#include "core.h"
#include "rout/scenario.h"
#include "rout/env.h"

#include <stddef.h>

/* A fire the scenario sets (environment.fires): a point, or a line centred on it. */
typedef struct rt_sc_fire {
	double at_s;            /* when it is lit, after the start */
	int place;              /* at a place's centre; -1: at lat/lon */
	double lat, lon;
	double offset_x_m, offset_y_m;
	double length_m;        /* a line this long through the point; 0: a point */
	double bearing_deg;     /* the line's direction, clockwise from north */
	int line;
} rt_sc_fire;

typedef struct rt_sc_side {
	char id[RT_SCENARIO_ID_SIZE];
	char name[RT_SCENARIO_TEXT_SIZE], name_zh[RT_SCENARIO_TEXT_SIZE];
	char map_side[RT_SCENARIO_ID_SIZE]; /* the fort side name on the map, "" none */
	double quarter;         /* C5: its corps' quarter unless a corps says otherwise */
} rt_sc_side;

typedef struct rt_sc_place {
	char id[RT_SCENARIO_ID_SIZE];
	int feature;            /* map feature index, -1 for a point */
	double lat, lon;        /* a point (when feature < 0) */
	double radius_m;        /* a point's target half-size; a feature's padding */
	int line;               /* where it was defined */
	/* resolved against the map (rt_scenario_load with load_map) */
	rt_vec2 min, max;       /* target rectangle, metres */
	rt_vec2 centre;
	bool fort;
	/* boats (E7): a landing where men of boats_side are taken off */
	bool boats;
	int boats_side, boat_count, boat_capacity; /* boats, and men each takes */
	double turnaround_s;
} rt_sc_place;

/* A place a side's fleeing men run to when their own refuge is full (refuges:). */
typedef struct rt_sc_refuge {
	int side, place;
	int line, column;
} rt_sc_refuge;

typedef enum rt_sc_order_kind {
	RT_ORDER_HOLD = 0,   /* keep the place; fight whoever comes in reach */
	RT_ORDER_ADVANCE,    /* close with the nearest enemy in sight */
	RT_ORDER_CONTAIN,    /* keep the contain distance from the enemy, strike no one (M7) */
	RT_ORDER_MARCH,      /* go to a place, fighting only what comes in reach */
	RT_ORDER_ATTACK,     /* go to a place and fight whatever is met on the way (breakout, raid) */
	RT_ORDER_AMBUSH,     /* hold, hidden, until an enemy enters the zone; then advance (Q1) */
	RT_ORDER_SHELTER,    /* inside a fort from the start (garrison) */
	RT_ORDER_EMBARK,     /* go to a landing and take the boats there (E7) */
	RT_ORDER_GUARD,      /* keep by the corps' commander, screen him, carry him if he falls (M8, C6) */
	RT_ORDER_COUNTER_CHARGE, /* turn on the enemies closing on the corps' commander, then follow him (M6) */
	RT_ORDER_WITHDRAW,   /* go to a place giving ground in order, faces to the enemy (M5) */
	RT_ORDER_HUNT,       /* ride after another side's commander wherever he goes (Q10) */
	RT_ORDER_KIND_COUNT
} rt_sc_order_kind;

/* Whether an order moves a body under arms, its commander at its head and out of a fort
 * it sheltered in: march, attack, withdraw (to a place), hunt (after a man). */
static inline bool rt__order_sallies(rt_sc_order_kind kind)
{
	return kind == RT_ORDER_MARCH || kind == RT_ORDER_ATTACK || kind == RT_ORDER_WITHDRAW || kind == RT_ORDER_HUNT;
}

/* Whether an order sends men to a place (`to`): march, attack, embark, withdraw. */
static inline bool rt__order_goes(rt_sc_order_kind kind)
{
	return kind == RT_ORDER_MARCH || kind == RT_ORDER_ATTACK || kind == RT_ORDER_EMBARK || kind == RT_ORDER_WITHDRAW;
}

typedef struct rt_sc_order {
	rt_sc_order_kind kind;
	int place;              /* march/attack/embark/withdraw: destination; ambush: zone; -1 none */
	double radius_m;        /* ambush zone radius */
	bool gallop;            /* march/attack: riders go at the gallop (charge_pace_factor x free speed) */
	bool spread;            /* march: the unit spreads over the place, each man to his post (E5) */
	int target;             /* hunt: the corps whose commander is hunted; -1 none */
} rt_sc_order;

typedef struct rt_sc_unit {
	char id[RT_SCENARIO_ID_SIZE];
	int corps;
	rt_kind kind;
	int men;
	rt_experience experience;
	double armour_share, torch_share, morale;  /* morale < 0: the baseline */
	int guns;               /* crew: men of the unit who serve a gun (RT_EQUIP_CANNON) */
	int place;              /* where it stands; -1: at lat/lon */
	double lat, lon;
	double offset_x_m, offset_y_m;
	double frontage_m, depth_m, facing_deg;
	rt_sc_order order;
	int line;
} rt_sc_unit;

typedef struct rt_sc_corps {
	char id[RT_SCENARIO_ID_SIZE];
	char name[RT_SCENARIO_TEXT_SIZE], name_zh[RT_SCENARIO_TEXT_SIZE];
	char record[2 * RT_SCENARIO_TEXT_SIZE]; /* what the record says he did, for the report; "" none */
	int side;
	double courage, hunger;
	bool cut_off;
	int refuge;             /* place, -1 none */
	int ranks_refuge;       /* place his men go for if he leaves (he abandons them), -1: his refuge */
	int superior;           /* corps whose commander this one answers to (M2), -1 none */
	int rank;               /* M2: his grade under that superior, 0..255; peers are of one rank */
	int guards;             /* men of his personal guard (M8) */
	bool mounted;           /* he and his guard ride (M8: a general's 家丁 were horsemen) */
	bool summon;            /* M7: once its ring holds, its commander summons the encircled */
	bool known;             /* Q7: its places at the start are known to the enemy (seen by day) */
	double quarter;         /* C5: share of the kneeling its men take prisoner; the rest are cut down */
	double pursue_ratio;
	int pursue_all_out;     /* men fleeing */
	int pursue_limit;       /* place the pursuit goes no farther than (Q2), -1 none */
	int first_unit, unit_count;
} rt_sc_corps;

typedef enum rt_sc_condition {
	RT_WHEN_AT = 0,         /* at a time */
	RT_WHEN_ENEMY_NEAR,     /* at least `men` of another side within radius of a place */
	RT_WHEN_FLEEING,        /* at least `men` of a side routing */
	RT_WHEN_ROUTED,         /* a share of a unit's men routing or worse */
	RT_WHEN_COMMANDER_GONE, /* a corps' commander has left */
	RT_WHEN_AFTER           /* delay after another trigger fired */
} rt_sc_condition;

typedef struct rt_sc_action {
	int unit;               /* -1: every unit of corps, or its commander */
	int corps;              /* -1 when unit is set */
	bool commander;         /* names the corps' commander and his guard only */
	bool has_order;         /* false: only a new refuge (a commander's action) */
	rt_sc_order order;
	int refuge;             /* place the men now run to if they break, -1: unchanged */
} rt_sc_action;

typedef struct rt_sc_trigger {
	char id[RT_SCENARIO_ID_SIZE];
	rt_sc_condition condition;
	double at_s;            /* AT; AFTER: the delay */
	int place;              /* ENEMY_NEAR */
	double radius_m;
	int side;               /* ENEMY_NEAR: the side watching (enemies = others); FLEEING: the side fleeing */
	double men;             /* ENEMY_NEAR, FLEEING: in men (divided by scale at run time) */
	int unit;               /* ROUTED */
	double share;
	int corps;              /* COMMANDER_GONE */
	int after;              /* AFTER: trigger index */
	int first_action, action_count;
	int line;
} rt_sc_trigger;

/* A measure a history figure is compared with: a sum of terms. */
typedef enum rt_sc_measure_what {
	RT_MEASURE_INITIAL = 0, RT_MEASURE_KILLED, RT_MEASURE_DROWNED, RT_MEASURE_TRAMPLED,
	RT_MEASURE_CAPTURED, RT_MEASURE_SURRENDERED, RT_MEASURE_ESCAPED, RT_MEASURE_IN_FIELD,
	RT_MEASURE_SHELTERED, RT_MEASURE_HORSES_LOST, RT_MEASURE_ARMOUR_DROPPED, RT_MEASURE_DEAD,
	RT_MEASURE_ROUTING, RT_MEASURE_DESPERATE, RT_MEASURE_BURNED, RT_MEASURE_ESCAPED_BY_SEA, RT_MEASURE_HORSES_TAKEN, RT_MEASURE_COUNT
} rt_sc_measure_what;

typedef struct rt_sc_term {
	int side;               /* sides.<side>.<what>; -1 when unit or corps */
	int unit;               /* units.<unit>.<what> */
	int corps;              /* corps.<corps>.<what> */
	rt_sc_measure_what what;
	int place;              /* sheltered.<place>: -1 all */
	double share_of;        /* 0: absolute; else the figure is a share (percent) of the initial */
} rt_sc_term;

#define RT_SC_MAX_TERMS 8

typedef struct rt_sc_history {
	char figure[RT_SCENARIO_TEXT_SIZE];
	double low, high;
	char grade[4];
	char source[RT_SCENARIO_TEXT_SIZE];
	bool percent;           /* the figure is a percentage of the first term's initial */
	double at_s;            /* taken at this time (seconds after the start); NAN: at the end of the run */
	double since_s;         /* counted from this time (what the measure grew by since); NAN: from the start */
	int from;               /* place: with since and percent, the base is the groups' free men standing or
				 * sheltered within it at since (a breakout's men); -1: all their free men */
	int term_count;
	rt_sc_term terms[RT_SC_MAX_TERMS];
	int line;
} rt_sc_history;

typedef struct rt_sc_parameter {
	char key[RT_SCENARIO_TEXT_SIZE];
	double low, high, value;
	char note[RT_SCENARIO_TEXT_SIZE];
} rt_sc_parameter;

/* scenario.c finds any of these by id at offset 0 */
_Static_assert(offsetof(rt_sc_side, id) == 0 && offsetof(rt_sc_place, id) == 0 && offsetof(rt_sc_corps, id) == 0 &&
		       offsetof(rt_sc_unit, id) == 0 && offsetof(rt_sc_trigger, id) == 0,
	       "every named table begins with its id");

struct rt_scenario {
	rt_allocator allocator;
	char file[256];
	char name[RT_SCENARIO_ID_SIZE];
	char title[RT_SCENARIO_TEXT_SIZE];
	char map_path[1024];
	double start_jd_ut, end_s, utc_offset_h;
	rt_civil_time start_local;
	double lat, lon;
	double scale, dt_s;
	double trace_every_s;
	double cloud_cover;
	rt_tide_def tide;
	double *surge_time_s, *surge_level_m;
	/* environment.weather: the series (owned), the wetness at the start */
	int rain_count, wind_count;
	double *rain_time_s, *rain_mm_per_h, *wind_time_s, *wind_speed_mps, *wind_from_deg;
	double ground_wetness;
	int fire_count;
	rt_sc_fire *fires;      /* environment.fires */

	int side_count;
	rt_sc_side sides[RT_SCENARIO_MAX_SIDES];
	int place_count;
	rt_sc_place *places;
	int corps_count;
	rt_sc_corps *corps;
	int unit_count;
	rt_sc_unit *units;
	int trigger_count;
	rt_sc_trigger *triggers;
	int action_count;
	rt_sc_action *actions;
	int refuge_count;
	rt_sc_refuge *refuges;  /* refuges: per side, the places its fleeing men may run to */
	rt_flight_params flight; /* flight: how the sides' flight fields are kept */
	double pace_spread;      /* flight.pace_spread: each man in flight at his own pace (morale's flight_pace_spread) */
	int history_count;
	rt_sc_history *history;
	int parameter_count;
	rt_sc_parameter *parameters;
	int64_t men;
	/* entries allocated in each table (freed with these sizes) */
	int places_alloc, corps_alloc, units_alloc, triggers_alloc, actions_alloc, history_alloc, parameters_alloc,
	    surge_alloc, fires_alloc, refuges_alloc;

	rt_map *map;            /* owned; NULL without load_map */
};

const char *rt__order_name(rt_sc_order_kind kind);

#endif
