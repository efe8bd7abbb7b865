/* The world's internal layout. Hot per-agent data is a structure of arrays indexed by
 * storage slot; slots are re-sorted by grid cell now and then for locality, so stable
 * agent ids map to slots through slot_of_id. Cold data (geometry, goals, statistics)
 * lives beside it. Only src/ sees this header. */
#ifndef RT_WORLD_H
#define RT_WORLD_H

#include "core.h"
#include "rout/env.h"
#include "rout/map.h"

#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* ---- agents (hot, structure of arrays) ---- */
typedef struct rt_agents {
	int count, capacity;
	double *x, *y;         /* position, m */
	double *vx, *vy;       /* velocity chosen at the agent's last update, m/s */
	float *heading_x, *heading_y; /* fixed heading when the agent has no goal */
	float *radius;         /* body radius, m */
	float *free_speed;     /* v0, m/s */
	float *health, *morale, *fatigue, *horse_fatigue;
	uint32_t *id;          /* stable id of the agent in this slot */
	uint32_t *unit;
	int32_t *goal;
	uint8_t *side, *kind, *state, *equipment;
	uint8_t *level;        /* update period is dt * 2^level */
	uint8_t *stance;       /* rt_stance */
	int32_t *ammunition;
	int32_t *enemy;        /* sense: id of the nearest enemy, -1 none */
	float *enemy_dist;     /* sense: distance to him, m */
	int32_t *victim;       /* fight: id of the man this one disabled this step, -1 none */
	uint8_t *experience;
	float *morale_base;    /* his own baseline (experience, cohesion, spread) */
	int32_t *flee_goal;
	float *threat;         /* sense: enemy weight per friend within view */
	float *routing_share;  /* sense: share of friends in view routing */
	float *deaths_seen;    /* sense: friends fallen in view lately, per second */
	int32_t *corps;
	int32_t *prize;        /* sense: nearest kneeling enemy to collect (C5), -1 none */
	float *impetus;        /* fight: a rider's speed carried into contact, fading (the charge), m/s */
	float *reload;         /* fight: a gun's time until it is loaded again, s */
	uint8_t *crush;        /* RT_CRUSH_* bits: down in the crush (crush.c), pressed at his last decision (decide) */
	int32_t *alarm;        /* sense: id of the man whose light he takes for the enemy (E2), -1 none */
	uint8_t *mount;        /* 1: he rides (his kind's, or rt_agent_def.mounted); fixed when he is added */
	uint8_t *keep;         /* 1: he keeps his ground, or goes to his goal, under stance contain (M7:
	                          rt_agent_def.keeps_ground; run.c for a contain order finding him
	                          holding ground); read only while his stance is contain */
	int32_t *order_goal;   /* the goal his last order gave him: rt_agent_def, rt_world_set_agent_goal, a
	                          scenario's orders (run.c), his commander's leaving (command.c) */
	uint8_t *order_stance; /* the stance it gave him. The pursuit by doctrine (Q2) sets both aside while
	                          it sends him and gives them back when it no longer does (command.c) */
	uint8_t *posted;       /* 1: his order gave him a post in the place it sent him to (an order to
	                          spread over the place, E5: run.c; rt_world_set_agent_post); cleared by
	                          any new goal. Read only while his goal is his order's.
	                          RT_POST_SIEGE: his post is a station on the ring round the fort his
	                          corps besieges (Q9, command.c); read while he holds with no goal */
	float *post_x, *post_y; /* that post, m (0 when he has none) */
	int32_t *quarry;       /* Q2: id of the man in flight his corps' pursuit sent him after this
	                          round, -1 none (command.c; locomotion.c rides after him) */
} rt_agents;

/* rt_agents.posted: a station on the ring round a besieged fort (Q9, command.c) */
#define RT_POST_SIEGE 3

/* Every per-agent array of rt_agents, once: storage growth, the storage reorder and the
 * checkpoint (checkpoint.c) all walk this list, so a new array added here is grown,
 * permuted and saved with the rest. A pointer added to rt_agents but not here breaks
 * the build (the assertion below). */
#define AGENT_FIELDS(X) \
	X(x, double) X(y, double) X(vx, double) X(vy, double) \
	X(heading_x, float) X(heading_y, float) X(radius, float) X(free_speed, float) \
	X(health, float) X(morale, float) X(fatigue, float) X(horse_fatigue, float) \
	X(id, uint32_t) X(unit, uint32_t) X(goal, int32_t) \
	X(side, uint8_t) X(kind, uint8_t) X(state, uint8_t) X(equipment, uint8_t) X(level, uint8_t) \
	X(stance, uint8_t) X(ammunition, int32_t) X(enemy, int32_t) X(enemy_dist, float) X(victim, int32_t) \
	X(experience, uint8_t) X(morale_base, float) X(flee_goal, int32_t) X(threat, float) X(routing_share, float) \
	X(deaths_seen, float) X(corps, int32_t) X(prize, int32_t) X(impetus, float) X(reload, float) \
	X(crush, uint8_t) X(alarm, int32_t) X(mount, uint8_t) X(keep, uint8_t) \
	X(order_goal, int32_t) X(order_stance, uint8_t) X(posted, uint8_t) X(post_x, float) X(post_y, float) \
	X(quarry, int32_t)
#define RT__AGENT_FIELD_ONE(name, type) +1
enum { RT_AGENT_FIELD_COUNT = 0 AGENT_FIELDS(RT__AGENT_FIELD_ONE) };
_Static_assert(sizeof(rt_agents) == 2 * sizeof(int) + RT_AGENT_FIELD_COUNT * sizeof(void *),
	       "every array of rt_agents must be listed in AGENT_FIELDS");

/* ---- corps and commanders (command.c) ---- */
typedef struct rt_corps {
	rt_corps_def def;
	char name[64];
	int32_t commander;     /* agent id, -1 none */
	bool left;
	double left_at_s;
	double mean_threat;
	int men, active;
	int fleeing_seen, pursuers;
	bool home_set;         /* the corps' post: its men's centre at its first decision */
	double home_x, home_y;
	int32_t carrier;       /* C6: id of the guard carrying the wounded commander, -1 none (guard.c) */
	bool guarded;          /* M8: his guards are bound to him this step (rt__bound of his state; guard.c) */
	double summons_at_s;   /* M7: when its commander summoned the encircled, -1 not yet (summons.c) */
	int encircled;         /* M7: enemies inside its ring at the last decision */
	bool waits;            /* its commander, marching on an order, waits for his men (column_lead_m;
				* command.c, every step) */
	int32_t besieging;     /* Q9: map feature index of the fort it besieges, -1 none (command.c) */
	int besiegers;         /* its men on the ring round it (posted == RT_POST_SIEGE) */
	double besieged_at_s;  /* when it began to besiege that fort, -1 never */
	int routes;            /* Q8: the routes of the flight it knows of, at the last decision */
	int routes_known;      /* the most routes its pursuit has decided over since it last knew of no one in flight */
	int routes_from;       /* its last hesitation: the routes decided over when it began (at least 1) */
	int routes_weighed;    /* its last hesitation: the most routes weighed in it, 0 none yet */
	double hesitant_until_s; /* while it hesitates: when it will have decided, -1 not hesitating */
	double hesitant_since_s; /* when its last hesitation began, -1 never */
	bool road_wanted;      /* M3: its commander left this step; his road is built before the men
				* decide (flight.c; false between steps) */
} rt_corps;

/* ---- sense grid ----
 * A coarse grid per side over the bounding box of the men who can be seen and fought
 * (cell at least sense_cell_m, and no more cells than max(4096, 2 per man)), rebuilt
 * every step: each man's nearest enemy is found by searching rings of cells outwards
 * until no nearer enemy can exist. His local picture (friends, routing friends, enemy
 * strength, deaths in mind) is summed over the fine cells (sense_cell_m) in view, kept
 * in the hash table below, so that it does not grow with the coarse cells. */
#define RT_MAX_SIDES 8

/* Q8: the most routes a flight is counted in (1 / the least route_share) */
#define RT_MAX_ROUTES 100

typedef struct rt_sense_grid {
	double origin_x, origin_y, cell, inv_cell;
	int nx, ny, cells;     /* per side */
	int sides;             /* 1 + the largest side present */
	size_t allocated;      /* entries in the per-(side, cell) arrays */
	int *start;            /* sides * cells + 1 */
	int *order;            /* sorted -> slot */
	int capacity;
	int box[2 * RT_MAX_SIDES][4]; /* each group's cells: x0, y0, x1, y1 (empty when x1 < 0) */
	float *sight_max;      /* in smoke: the farthest any man of (side, cell) can be seen from */
	size_t sight_allocated;
	/* The local picture (morale): the fine cells of sense_cell_m that hold anyone, in an
	 * open-addressed table keyed by the cell (so the view radius holds however coarse the
	 * grid above must be for a wide world), per (entry, side): men who can be fought,
	 * men routing, threat weight, remembered deaths. Rebuilt every sense phase. */
	double fine_cell, fine_inv;
	size_t fine_capacity;  /* entries, a power of two */
	size_t fine_allocated; /* entries the arrays below were allocated for */
	int fine_sides;        /* side stride of the per-side arrays */
	uint64_t *fine_key;    /* packed (cx, cy); RT_FINE_EMPTY when free */
	int *fine_men, *fine_routing;
	float *fine_weight, *fine_deaths;
} rt_sense_grid;

#define RT_FINE_EMPTY UINT64_MAX

/* A man seen to fall, remembered for death_memory_s. */
typedef struct rt_death_event {
	double x, y;
	int64_t step;
	uint8_t side;
} rt_death_event;

/* ---- neighbour grid ----
 * Cells of side `cell`; a cell (cx, cy) maps to bucket ((cy mod hy) * hx + (cx mod hx)).
 * When the world fits, hx * hy covers it and buckets are cells; a larger world is
 * tiled, and agents of far tiles that share a bucket are filtered by distance. With
 * periodic_x, hx is exactly the period in cells, so the wrap is the tiling. Agents are
 * counting-sorted by bucket each step into contiguous copies (sx, sy, sr). */
typedef struct rt_grid {
	double origin_x, origin_y, cell, inv_cell;
	int hx, hy, buckets;
	int target_agents; /* the number of men the bucket count was chosen for */
	int *start;      /* buckets + 2: bucket b is [start[b], start[b + 1]); the last is spare */
	int capacity;    /* agent arrays below */
	int count;       /* agents binned this step */
	int *order;      /* sorted position -> slot */
	int *bucket_of;  /* slot -> bucket (-1: not binned) */
	double *sx, *sy; /* sorted copies */
	float *sr;
	uint8_t *sside;
} rt_grid;

/* ---- static geometry ---- */
typedef struct rt_segment {
	double ax, ay, bx, by;
} rt_segment;

typedef struct rt_polygon {
	int first, count; /* into rt_geometry.points */
} rt_polygon;

typedef struct rt_geometry {
	rt_segment *walls;
	int wall_count, wall_capacity;
	rt_vec2 *points;          /* obstacle outlines */
	int point_count, point_capacity;
	rt_polygon *obstacles;
	int obstacle_count, obstacle_capacity;
	/* wall lookup grid, built lazily before the first step (same tiling as rt_grid) */
	bool built;
	double origin_x, origin_y, cell, inv_cell, reach;
	int hx, hy, buckets;
	int cells_x, cells_y; /* cells spanning the bounds */
	int *start;   /* buckets + 1 */
	int *items;   /* wall indices */
	int item_count;
} rt_geometry;

/* ---- goals and flow fields ---- */
typedef struct rt_goal {
	rt_goal_def def;
	/* flow field over the world bounds; empty when def.straight */
	int nx, ny;
	double origin_x, origin_y, cell, inv_cell;
	float *dir;           /* unit direction per cell (x, y interleaved), zero where blocked or inside target */
	float *arrival_time;  /* fast-marching travel distance, m (INFINITY where blocked) */
	bool built;
} rt_goal;

/* ---- refuges, flight fields and boats (flight.c) ----
 * Each side with refuges keeps one flight field (an rt_goal's arrays, from a fast march
 * out of all its open refuges), the inputs it was last built from (which refuges were
 * open, the known enemy per coarse cell) and when. The field itself is a pure function
 * of those inputs and the static ground, so a checkpoint keeps the inputs and the field
 * is built again from them. */
typedef struct rt_refuge {
	rt_refuge_def def;
	int fort;               /* the map's fort (feature index) under the area's centre, -1: a way home */
} rt_refuge;

typedef struct rt_flight {
	bool used;              /* the side has refuges */
	bool built;             /* the inputs below are a build's */
	bool field_stale;       /* the field must be built again from the inputs (after a load) */
	bool any_source;        /* the build found an open refuge to run to */
	double built_at_s;
	int builds;
	uint8_t *open;          /* refuge_count: open at the build (only this side's count) */
	float *known;           /* known enemy strength per coarse cell at the build; NULL without enemy costs */
	rt_goal field;
	/* Q7: what the side remembers of the enemy, per coarse cell (its commanders' knowledge):
	 * seeded at its first look with the places of the enemy corps known before the run
	 * (rt_corps_def.known), then at every look the cells its men see take what is seen
	 * there and the others keep what was last seen. NULL until used. */
	bool memory_set;
	float *memory;
} rt_flight;

/* M3, Q7: a commander's road. When a commander leaves without orders for a refuge, the
 * road of his side to it is built again: the field to that place over the ground, each
 * cell costed by the danger of the enemy the side remembers (as a flight field's), and
 * his party and every man of his side in flight to that place follow it. The field is a
 * pure function of the remembered enemy at the build, which a checkpoint keeps. */
enum { RT__ROAD_COMMANDERS = 0, /* a commander's road: round the enemy his side remembers and the flames (M3) */
       RT__ROAD_FIRE = 1 };      /* a march's way on an order: round the flames alone (E4) */
typedef struct rt_road {
	uint8_t side;
	uint8_t kind;           /* RT__ROAD_* */
	bool idle;              /* a march's way no man follows now (no flames, or no man marching there) */
	int32_t goal;
	double built_at_s;
	float *known;           /* the side's memory of the enemy at the build, per coarse cell */
	bool stale;             /* the field must be built again from `known` (after a load) */
	rt_goal field;
} rt_road;

typedef struct rt_landing {
	rt_boats_def def;
	double *back_s;         /* per boat: when it lies at the landing again (<= now: it is there) */
	int64_t carried, trips;
} rt_landing;

/* ---- fire and smoke (fire.c) ----
 * Per map cell: a state and the time the front reached its centre. Only the cells that
 * matter are visited: the front (caught cells that still have unburnt neighbours) and
 * the burning cells are lists. Smoke lives on a
 * coarser grid, over the box of cells that hold any. */
enum { RT_FIRE_CELL_NONE = 0, RT_FIRE_CELL_FUEL, RT_FIRE_CELL_BURNING, RT_FIRE_CELL_HOT, RT_FIRE_CELL_BURNT };

typedef struct rt_fire_burning {
	int32_t cell;
	float ignition_s, out_s, intensity_kw_m, fuel_kg_m2;
} rt_fire_burning;

typedef struct rt_fire {
	rt_fire_params params;
	int nx, ny;
	size_t cells;
	double cell_m, inv_cell, ox, oy;
	uint8_t *state;            /* RT_FIRE_CELL_* */
	float *time_s;             /* ignition time of caught cells (when the front reached the centre) */
	rt_fire_burning *burning;
	int burning_count, burning_capacity;
	int32_t *front;            /* caught cells with unburnt neighbours */
	int front_count, front_capacity;
	int32_t *touch;            /* their unburnt neighbours, this sub-step */
	int touch_count, touch_capacity;
	int next_ignition;         /* into the world's time-sorted ignitions */
	double next_update_s;
	int64_t hot_count, burnt_count;
	/* smoke: cells of k x k map cells */
	int k, snx, sny;
	double smoke_cell_m;
	float *smoke, *smoke_next, *source; /* g/m3, and g/(m3 s) */
	int box[4];                /* x0, y0, x1, y1 of the smoke cells that may hold smoke; x1 < x0: none */
	int source_box[4];
	float smoke_max;
	/* E4, flames seen from afar (morale's fire_sight_m; NULL grids when not used): on cells
	 * of sight_k x sight_k map cells, the sum over the hot cells and the edge (below)
	 * within sight_m of each cell's centre of the unit vector from them to it over its
	 * distance; rebuilt with the edge */
	int sight_k, sight_nx, sight_ny;
	double sight_m, sight_cell_m;
	float *sight_x, *sight_y;
	int sight_box[4];          /* x0, y0, x1, y1 of the sight cells that may be non-zero; x1 < x0: none */
	/* E4, the fire's edge seen as flames (NULL when men do not fear fire): the unburnt
	 * cells beside the front into which it now runs at an intensity that stops men; the
	 * front's line of flames stands at their side until they catch. Rebuilt every step
	 * from the fire's state and the wind of the step (seen_at_s: the time it was built
	 * for, -1: stale; seen_update_s: the fire's next_update_s then) */
	uint8_t *edge;             /* per map cell: 1 on the edge */
	int32_t *edge_cells;       /* the cells marked, in the order found */
	int edge_count, edge_capacity;
	double seen_at_s, seen_update_s;
} rt_fire;

/* The rain and wind series a world keeps (copies of its environment's). */
typedef struct rt_weather_series {
	double *rain_time_s, *rain_mm_per_h, *wind_time_s, *wind_speed_mps, *wind_from_deg;
} rt_weather_series;

struct rt_world {
	rt_world_def def;
	rt_allocator allocator;
	uint32_t cookie;

	rt_agents agents;
	uint32_t *slot_of_id; /* capacity entries */

	rt_grid grid;
	rt_sense_grid sense;
	rt_death_event *deaths;
	int death_count, death_capacity;
	int sense_idle_count;   /* men whose sense was cleared while nothing was to be sensed; -1 none */
	rt_geometry geometry;
	rt_goal *goals;
	int goal_count, goal_capacity;
	rt_corps *corps;
	int corps_count, corps_capacity;
	int64_t last_decision;  /* index of the last command decision round */

	rt_arena arena;

	/* terrain (terrain.c): the caller's map, and water */
	const rt_map *map;
	int map_nx, map_ny;
	double map_cell, map_inv_cell, map_ox, map_oy;
	const uint8_t *map_passable;
	const float *map_speed, *map_elevation, *map_water;
	const int32_t *map_feature;
	rt_water_params water;
	/* forts: per map feature, -1 if not a fort; else its admitted side (-1 any, -2 none) */
	int feature_count;
	int *fort_side;        /* feature_count entries, or NULL */
	int *fort_capacity, *fort_sheltered;
	double *fort_box;      /* per feature: x0, y0, x1, y1 of a fort's outline (m), 0 for others */
	double *prev_x, *prev_y; /* positions before this step's move, while the map has forts */
	/* E3 (terrain.c): per map cell, the sea level above which some cell within three of
	 * it is deeper than the wade-out depth (a man there may wade), for the depth it was
	 * made for; NULL until the first step on a map, or if it could not be allocated */
	float *wet_level;
	size_t wet_level_cells;
	double wet_level_wade;
	/* the men's velocities as they stood before this step's decide phase, which writes
	 * them in place: what one man reads there of another's (a guard his commander's, a
	 * man containing the enemy's) must not depend on which thread went first */
	const double *decide_vx, *decide_vy;
	/* per slot, 1 for a man on foot in flight who stood of his own will at his last
	 * decision (RT_CRUSH_STOOD; the way barred, locomotion.c), as before this decide
	 * phase; NULL when the rule is off or nobody is in flight */
	const uint8_t *decide_halted;
	/* E5, C2 (locomotion.c, rt__barred_prepare): the men standing ready to fight, per
	 * coarse cell and side, this step; laid out at the first use, cleared cell by cell */
	float *bar_men;          /* bar_nx * bar_ny * bar_stride */
	int *bar_touched;        /* cells written this step (bar_touched_n of bar_touched_cap) */
	int bar_nx, bar_ny, bar_stride, bar_touched_n, bar_touched_cap;
	double bar_ox, bar_oy, bar_cell;
	bool bar_on;             /* the grid holds this step's men */
	/* Q6 (locomotion.c, rt__held_prepare): for each goal men attack, per side, the man of
	 * that side standing ready within its target nearest its centre, this step */
	double *held;            /* held_cap * RT_MAX_SIDES * 3: x, y, squared distance (INFINITY: none) */
	uint32_t *held_id;       /* held_cap * RT_MAX_SIDES: his id, for ties */
	uint8_t *held_attacked;  /* held_cap: 1 if some man within it attacks the goal this step */
	int *held_list;          /* held_cap: those goals, in the order first found */
	int held_cap;
	bool held_on;            /* some man attacks a place he is within this step */
	int prev_capacity;

	/* environment (env_phase.c) */
	bool has_environment;
	rt_environment_def environment;   /* surge series owned below */
	double *surge_time_s, *surge_level_m;
	rt_environment_state env;
	/* weather (weather.c): the series copied from the environment, and the ground */
	rt_weather_series weather_series;
	bool weather_on;        /* rain, wet ground or wind was given */
	bool mud_on;            /* the ground is wet: walkers read rt__mud_factor */
	double weather_time_s;  /* the time the wetness was last brought to */
	rt_ignition *ignitions; /* sorted by time */
	int ignition_count;
	rt_fire *fire;          /* NULL without fires */

	/* refuges, flight fields and boats (flight.c); none until a refuge or boats are added */
	rt_refuge *refuges;
	int refuge_count, refuge_capacity;
	rt_flight_params flight;
	rt_flight *flights;     /* RT_MAX_SIDES entries, with the first refuge */
	int known_nx, known_ny; /* the coarse grid of the known enemy, laid out at the first build */
	double known_ox, known_oy, known_cell;
	rt_landing *landings;
	int landing_count, landing_capacity;
	rt_road *roads;         /* M3: the commanders' roads (flight.c), one per (side, goal), and the
	                         * marches' ways round a fire (E4), one per (side, goal) */
	int road_count, road_capacity;

	int64_t step;
	double time_s;
	int threads;
	int64_t agent_updates;
	int64_t wall_clamps;
	int64_t hits, shots, routed, rallied, armour_dropped, weapons_dropped, knelt, captured, drowned, desperate;
	int64_t burned, misfires;
	int64_t cannon_shots, charges, summoned, wounded;
	int riders, guns;      /* agents added who ride, and with a gun: the fight phase skips what none need */
	int64_t falls, lying, torch_alarms; /* crush.c: men knocked down, men down now; torch.c: lights feared */
	int horse_count;        /* men ever added who ride */
	bool torch_on;          /* sense found lights that may be taken for the enemy this step (torch.c) */
	double phase_seconds[RT_PHASE_COUNT];
	double max_radius; /* largest body radius so far */
	double max_speed;  /* largest free speed so far */
};

/* grid.c */
rt_status rt__grid_init(rt_world *w, rt_error *err);
rt_status rt__grid_fit(rt_world *w, rt_error *err); /* re-size for a grown crowd */
rt_status rt__grid_reserve(rt_world *w, int capacity);
void rt__grid_free(rt_world *w);
void rt__grid_build(rt_world *w);
/* Lays the grid out for target_agents men as rt__grid_fit would have (checkpoint.c
 * restores the layout the saved run had); all or nothing. */
rt_status rt__grid_set_target(rt_world *w, int target_agents, rt_error *err);
/* Whether a stance is of a commander's party (M8, C6, M6: guard, carried, rearguard),
 * decided apart by guard.c. */
static inline bool rt__retinue_stance(uint8_t stance)
{
	return stance >= RT_STANCE_GUARD && stance <= RT_STANCE_REARGUARD;
}

static inline int rt__grid_wrap(int v, int n)
{
	if ((unsigned)v < (unsigned)n) return v; /* the common case, without a division */
	int r = v % n;
	return r < 0 ? r + n : r;
}
/* floor for cell indices: without SSE4.1, floor() is a library call in the hot loops */
static inline int rt__floor_int(double v)
{
	int i = (int)v;
	return i - (v < (double)i);
}
static inline int rt__grid_cell_x(const rt_grid *g, double x) { return rt__floor_int((x - g->origin_x) * g->inv_cell); }
static inline int rt__grid_cell_y(const rt_grid *g, double y) { return rt__floor_int((y - g->origin_y) * g->inv_cell); }

/* geometry.c */
rt_status rt__geometry_build(rt_world *w, rt_error *err);
/* Builds (or builds again) the wall lookup grid for a given reach; all or nothing. */
rt_status rt__geometry_build_reach(rt_world *w, double reach, rt_error *err);
/* Drops the wall lookup grid (the walls stay); it is built again before the next step. */
void rt__geometry_unbuild(rt_world *w);
void rt__geometry_free(rt_world *w);
double rt__segment_point_distance(const rt_segment *s, double px, double py, double *nx, double *ny);
double rt__segment_segment_distance(const rt_segment *s, double ax, double ay, double bx, double by);
bool rt__inside_obstacle(const rt_world *w, double px, double py);
/* The walls registered near point (x, y): indices [*first, *first + *count) of items. */
static inline const int *rt__geometry_near(const rt_geometry *g, double x, double y, int *count)
{
	if (g->item_count == 0) { *count = 0; return NULL; }
	int cx = rt__floor_int((x - g->origin_x) * g->inv_cell);
	int cy = rt__floor_int((y - g->origin_y) * g->inv_cell);
	int b = rt__grid_wrap(cy, g->hy) * g->hx + rt__grid_wrap(cx, g->hx);
	*count = g->start[b + 1] - g->start[b];
	return g->items + g->start[b];
}

/* nav.c */
/* What a flow field is built toward and over: target rectangles (travel time 0) and,
 * for flight fields, a danger grid: each cell's cost is multiplied by 1 + danger there. */
typedef struct rt_field_spec {
	double cell;
	int targets;
	const rt_vec2 *target_min, *target_max;
	const uint8_t *fort_blocked; /* per map feature: 1 blocks its cells (a fort not the side's, or full); or NULL */
	const float *danger;    /* danger_nx x danger_ny cells, or NULL */
	int danger_nx, danger_ny;
	double danger_ox, danger_oy, danger_inv_cell;
	bool quad_heap;         /* march with the faster 4-ary heap (flight fields; goals keep theirs) */
} rt_field_spec;
/* Builds (or builds again, in its arrays) the field; *found tells whether any target
 * covered a free cell (without one, every direction is zero). */
rt_status rt__field_build(rt_world *w, rt_goal *field, const rt_field_spec *spec, bool *found, rt_error *err);
rt_status rt__goal_build(rt_world *w, rt_goal *goal, rt_error *err);
void rt__goal_free(rt_world *w, rt_goal *goal);
static inline bool rt__goal_reached(const rt_goal *goal, double x, double y)
{
	const rt_goal_def *d = &goal->def;
	return x >= d->target_min.x && x <= d->target_max.x && y >= d->target_min.y && y <= d->target_max.y;
}

/* The field's unit direction at (x, y), blended from the four cells around it; false
 * where the blend vanishes (in a target, blocked, cut off). */
static inline bool rt__field_direction(const rt_goal *goal, double x, double y, double *dx, double *dy)
{
	{
		/* bilinear blend of the four cell directions around (x, y); cells beyond the
		 * field's edge count as blocked (zero) */
		double fx = (x - goal->origin_x) * goal->inv_cell - 0.5, fy = (y - goal->origin_y) * goal->inv_cell - 0.5;
		fx = rt__clamp(fx, -1.0, (double)goal->nx);
		fy = rt__clamp(fy, -1.0, (double)goal->ny);
		const int x0 = (int)(fx + 1.0) - 1, y0 = (int)(fy + 1.0) - 1; /* floor, for fx >= -1 */
		const double tx = fx - x0, ty = fy - y0;
		const double wx[2] = { 1.0 - tx, tx }, wy[2] = { 1.0 - ty, ty };
		double sx = 0.0, sy = 0.0;
		if (x0 >= 0 && y0 >= 0 && x0 < goal->nx - 1 && y0 < goal->ny - 1) {
			/* inside the field: the four cells without tests, summed in the same order */
			const float *c = goal->dir + 2 * ((size_t)y0 * (size_t)goal->nx + (size_t)x0);
			const float *u = c + 2 * (size_t)goal->nx;
			const double w00 = wx[0] * wy[0], w10 = wx[1] * wy[0], w01 = wx[0] * wy[1], w11 = wx[1] * wy[1];
			sx += w00 * c[0];
			sy += w00 * c[1];
			sx += w10 * c[2];
			sy += w10 * c[3];
			sx += w01 * u[0];
			sy += w01 * u[1];
			sx += w11 * u[2];
			sy += w11 * u[3];
		} else {
			for (int j = 0; j < 2; ++j) {
				const int yi = y0 + j;
				if (yi < 0 || yi >= goal->ny) continue;
				const float *row = goal->dir + 2 * (size_t)yi * (size_t)goal->nx;
				for (int i = 0; i < 2; ++i) {
					const int xi = x0 + i;
					if (xi < 0 || xi >= goal->nx) continue;
					const double wgt = wx[i] * wy[j];
					sx += wgt * row[2 * xi];
					sy += wgt * row[2 * xi + 1];
				}
			}
		}
		const double norm2 = sx * sx + sy * sy;
		if (norm2 > 1e-12) {
			const double inv = 1.0 / sqrt(norm2);
			*dx = sx * inv;
			*dy = sy * inv;
			return true;
		}
	}
	return false;
}

/* The field's travel distance at (x, y): its fast march's value in the cell there (m at
 * speed factor 1), INFINITY off the field or on blocked ground. */
static inline double rt__field_travel(const rt_goal *goal, double x, double y)
{
	const int ix = rt__floor_int((x - goal->origin_x) * goal->inv_cell), iy = rt__floor_int((y - goal->origin_y) * goal->inv_cell);
	return ix >= 0 && iy >= 0 && ix < goal->nx && iy < goal->ny ? (double)goal->arrival_time[(size_t)iy * (size_t)goal->nx + (size_t)ix]
								     : INFINITY;
}

/* Desired unit direction toward the goal at (x, y); false when inside the target.
 * Inline: it runs once per agent decision. */
static inline bool rt__goal_direction(const rt_goal *goal, double x, double y, double *dx, double *dy)
{
	const rt_goal_def *d = &goal->def;
	if (rt__goal_reached(goal, x, y)) return false;
	if (!d->straight && rt__field_direction(goal, x, y, dx, dy)) return true;
	/* straight goals, and the rare point where the field cancels: head for the nearest
	 * point of the target */
	double ex = rt__clamp(x, d->target_min.x, d->target_max.x) - x;
	double ey = rt__clamp(y, d->target_min.y, d->target_max.y) - y;
	double norm = sqrt(ex * ex + ey * ey);
	if (norm <= 0.0) return false;
	*dx = ex / norm;
	*dy = ey / norm;
	return true;
}


/* Parallel loops fork only when there is enough work to pay for waking the threads;
 * the result is the same either way. */
#define RT_PARALLEL(n) ((n) > 4096)

/* A loop or block on the world's threads when `cond` holds, else plain C on this one.
 * Not OpenMP's `if` clause: with it false libgomp still forks and joins a team of one,
 * and its join wakes the barrier's waiters, none or not, with a futex system call (1.5
 * us a region on this project's machine, 17 regions a step: a third of the time of a
 * step of a world of a hundred men). In the plain branch the worksharing and barriers
 * of a region (_Pragma("omp for"), _Pragma("omp barrier")) bind to no team: this thread
 * takes every iteration, and waits for nobody. The clauses go in parentheses; the
 * reductions' variables are the originals in the plain branch, which must give what a
 * team gives (integer sums, or, min, max: the same at any thread count). No preprocessor
 * lines in the body (rt__thread_num for omp_get_thread_num). A plain loop is safe in a
 * caller's team; a region is not (below). */
#define RT_STR_PRAGMA_(...) _Pragma(#__VA_ARGS__)
#define RT_PRAGMA_(...) RT_STR_PRAGMA_(__VA_ARGS__)
#define RT_UNPAREN_(...) __VA_ARGS__
#define RT_PARALLEL_AS_(construct, cond, clauses, ...) \
	do { \
		if (cond) { \
			RT_PRAGMA_(omp construct RT_UNPAREN_ clauses) \
			__VA_ARGS__ \
		} else { \
			__VA_ARGS__ \
		} \
	} while (0)
#define RT_PARALLEL_FOR(cond, clauses, ...) RT_PARALLEL_AS_(parallel for, cond, clauses, __VA_ARGS__)
/* A region's worksharing, run plain inside a team of the caller's (a game stepping a
 * world a thread), would share the world's loop among that team: there it opens a team
 * of its own, of one thread unless `cond`, as OpenMP's `if` clause did. */
#define RT_PARALLEL_REGION(cond, clauses, ...) \
	RT_PARALLEL_AS_(parallel, (cond) || rt__in_parallel(), (RT_UNPAREN_ clauses if (cond)), __VA_ARGS__)
/* Whether the caller is in a parallel region (his own, or one of the engine's). */
static inline bool rt__in_parallel(void)
{
#ifdef _OPENMP
	return omp_in_parallel() != 0;
#else
	return false;
#endif
}
/* The calling thread's number in its team, and the team's size (0 and 1 outside one). */
static inline int rt__thread_num(void)
{
#ifdef _OPENMP
	return omp_get_thread_num();
#else
	return 0;
#endif
}
static inline int rt__thread_count(void)
{
#ifdef _OPENMP
	return omp_get_num_threads();
#else
	return 1;
#endif
}

/* Random streams: one per use, so draws never collide (rt_random_bits' last argument). */
enum { RT_STREAM_SHUFFLE = 1, RT_STREAM_FIGHT = 2, RT_STREAM_MORALE = 3, RT_STREAM_SPAWN = 4, RT_STREAM_COMMAND = 5, RT_STREAM_DROWN = 6 };
/* fire: a cell's ignition threshold (keyed by cell, step 0); a man's burns (id, step) */
enum { RT_STREAM_FIRE = 16, RT_STREAM_BURN = 17 };
/* men at war (guard.c, summons.c, combat.c): a commander's wound (victim, step); a
 * summons (man, round); a gun's aim (gun, step) and the k-th man its ball crosses
 * (gun, step, RT_STREAM_CANNON + 1 + k, k < 32) */
enum { RT_STREAM_WOUND = 40, RT_STREAM_SUMMONS = 41, RT_STREAM_QUARTER = 42, RT_STREAM_CANNON = 64 };
/* (19 is taken: morale's kneeling draw is RT_STREAM_MORALE + 16) crush.c: falls, getting up, trampling */
enum { RT_STREAM_CRUSH = 24 };
/* a man's own pace in flight (id, step 0): rt__own_pace */
enum { RT_STREAM_PACE = 25 };
/* A man's own pace in flight (docs/model.md section 9, "Each at his own pace"): 1 + spread
 * x z, z a standard normal drawn once for him, a pure function of (seed, id), held within
 * +-RT_PACE_Z; exactly 1 when spread is 0. */
#define RT_PACE_Z 3.0
double rt__own_pace(uint64_t seed, uint32_t id, double spread);

/* terrain.c */
static inline int rt__terrain_cell(const rt_world *w, double x, double y)
{
	if (!w->map) return -1;
	const int ix = rt__floor_int((x - w->map_ox) * w->map_inv_cell), iy = rt__floor_int((y - w->map_oy) * w->map_inv_cell);
	if (ix < 0 || iy < 0 || ix >= w->map_nx || iy >= w->map_ny) return -1;
	return iy * w->map_nx + ix;
}
/* The speed factor of ground and water at a cell (1 off the map). */
double rt__terrain_speed(const rt_world *w, int cell);
bool rt__terrain_passable(const rt_world *w, double x, double y);
void rt__drown(rt_world *w);
rt_status rt__forts_prepare(rt_world *w, rt_error *err);
void rt__forts_admit(rt_world *w);
/* Whether the fort at (x, y), if any, lets the man in slot s in: his side's, with room
 * for him, or full and he a general or his guard (rt__opens_when_full). */
bool rt__fort_admits(const rt_world *w, int s, double x, double y);
/* The map feature index of the fort covering (x, y), or -1 (also -1 without forts). */
int rt__fort_at(const rt_world *w, double x, double y);
/* Q9: a sheltered man about to leave his fort (a sortie): his place in it is freed; the
 * caller then gives him an active state. He walks to the gate within the walls, and the
 * fort does not take him in again until he has been outside. */
void rt__fort_leave(rt_world *w, int slot);
/* Whether a step from (x, y) to (nx, ny) takes a man (riding or not) into water over his
 * depth and deeper than where he stands (E3: the steady do not wade in). */
bool rt__deeper_water(const rt_world *w, double x, double y, double nx, double ny, bool rider);
/* Water depth at a map cell when the sea stands at its mean level: what men plan by. */
double rt__planning_depth(const rt_world *w, int cell);
/* E3: a man with the sea's water (where the sea stands over the ground; not a river or
 * ford inland) deeper than water.wade_out_depth_m under him or two raster cells
 * out on any side wades toward the shallowest of eight directions (the mean depth 2, 5
 * and 12 cells out along each, over passable ground; among equals, the one most nearly
 * opposite the deepest): his direction, and true. */
bool rt__water_flight(const rt_world *w, double x, double y, double *ex, double *ey);
/* Makes w->wet_level for the wade-out depth of the moment (before the decide phase):
 * it lets rt__water_flight pass over a man far from any water at once. */
rt_status rt__water_prepare(rt_world *w, rt_error *err);
void rt__terrain_free(rt_world *w);

/* env_phase.c */
rt_status rt__env_phase(rt_world *w, rt_error *err);
/* The environment state at the world's time without advancing the wet ground or the
 * fire: sky, light, sea, and what the saved wetness and fire make of the weather. */
void rt__env_restore(rt_world *w);
void rt__env_free(rt_world *w);

/* weather.c */
rt_status rt__weather_copy(const rt_allocator *a, const rt_weather_def *def, rt_weather_series *out, rt_error *err);
void rt__weather_series_free(const rt_allocator *a, rt_weather_series *series, int rain_count, int wind_count);
void rt__weather_phase(rt_world *w);
/* Rain, wind, fuel moisture, misfires and mud at the world's time from the wetness the
 * ground has now (the phase without bringing the bucket forward). */
void rt__weather_derive(rt_world *w);
/* Walking speed factor of mud at a map cell (-1: off the map, open ground). */
double rt__mud_factor(const rt_world *w, int cell);

/* fire.c */
/* Checks the fire's parameters and ignitions against the world's map. */
rt_status rt__fire_validate(const rt_world *w, const rt_fire_def *def, rt_error *err);
/* Builds the fire of a validated def (*fire NULL when it sets none) and a time-sorted
 * copy of its ignitions. */
rt_status rt__fire_build(rt_world *w, const rt_fire_def *def, rt_fire **fire, rt_ignition **ignitions, rt_error *err);
void rt__fire_destroy(rt_world *w, rt_fire *fire, rt_ignition *ignitions, int ignition_count);
rt_status rt__fire_phase(rt_world *w, rt_error *err);
/* The environment state's fire fields from the fire as it is. */
void rt__fire_env(rt_world *w);
/* Checkpoints: the fire as built (every cell with fuel unburnt, no smoke, no fire set
 * yet), to write a saved fire over; and room for the lists a saved fire holds. */
void rt__fire_reset(rt_world *w);
rt_status rt__fire_reserve(rt_world *w, int burning, int front, rt_error *err);
/* Fuel of a map cell (kg/m2) as its topmost feature says. */
double rt__fire_fuel(const rt_world *w, int cell);
static inline bool rt__fire_hot_anywhere(const rt_world *w) { return w->fire && w->fire->hot_count > 0; }
/* Flames that stop men anywhere, or the fire's edge running at such an intensity (E4: what
 * men who fear fire may see). */
static inline bool rt__fire_seen_anywhere(const rt_world *w)
{
	return w->fire && (w->fire->hot_count > 0 || w->fire->edge_count > 0);
}
static inline bool rt__fire_hot(const rt_world *w, int cell)
{
	return cell >= 0 && w->fire->state[cell] == RT_FIRE_CELL_HOT;
}
/* A man in the flames of a head fire, or on grass beside them, runs for the nearest
 * safe ground (burnt, or with nothing to burn): true and the unit direction. */
bool rt__fire_flight(const rt_world *w, double x, double y, double *dx, double *dy);
/* E4, fear of fire: the share of the cells he sees round him (within radius_m) in flames
 * that stop men, and the unit direction away from them (0, 0 when none). */
double rt__fire_seen(const rt_world *w, double x, double y, double radius_m, double *ax, double *ay);
/* E4: brings what men who fear fire see of it up to the fire's state and the wind of this
 * step: the fire's edge, and the flames seen from afar (fire_sight_m); serial. Called by
 * the env phase after the fire's update. */
rt_status rt__fire_seen_refresh(rt_world *w, rt_error *err);
/* E4: true and the unit direction away from the flames within fire_sight_m of (x, y) (as
 * seen from the centre of its sight cell), false when none is. */
bool rt__fire_seen_afar(const rt_world *w, double x, double y, double *ax, double *ay);
/* How far a man at (x, y) can see through the smoke there (INFINITY without smoke). */
double rt__smoke_detection_m(const rt_world *w, double x, double y);
static inline bool rt__smoke_anywhere(const rt_world *w) { return w->fire && w->fire->smoke_max > 0.0f; }
/* Resolve: men in hot cells burn. */
void rt__fire_burn(rt_world *w);

/* flight.c: refuges, flight fields and boats */
/* Builds the flight fields that are due (serial; before the decide phase). */
rt_status rt__flight_phase(rt_world *w, rt_error *err);
/* The side's flight field's direction at (x, y); false without one. */
bool rt__flight_direction(const rt_world *w, int side, double x, double y, double *dx, double *dy);
/* Whether the goal's target lies in a fort that does not take men of `side` now (full,
 * or not theirs); false in worlds without refuges. */
bool rt__goal_closed(const rt_world *w, int32_t goal, int slot);
/* After the move: men in flight who reach a way home leave; boats take whom they can. */
void rt__refuges_arrive(rt_world *w);
void rt__boats_board(rt_world *w);
/* Checkpoints: room for a side's inputs (open flags, known enemy); all or nothing. */
rt_status rt__flight_reserve(rt_world *w, int side, rt_error *err);
/* M3: the field the man in slot s follows to `goal` in flight (routing to it, or marching
 * off to it) or on an order's march there: his side's road there if one was planned,
 * else the goal's own field. */
const rt_goal *rt__way_field(const rt_world *w, int s, int32_t goal);
/* Checkpoints: room for `count` roads and for the side's memory; all or nothing. */
rt_status rt__roads_reserve(rt_world *w, int count, rt_error *err);
rt_status rt__memory_reserve(rt_world *w, int side, rt_error *err);
/* The coarse grid of the known enemy this world lays out (from its flight parameters). */
void rt__known_dims(const rt_world *w, int *nx, int *ny, double *cell_m);
void rt__flight_free(rt_world *w);

/* combat.c */
rt_status rt__sense(rt_world *w, rt_error *err);
/* Room for `entries` (side, cell) entries and an order of agents.capacity men in the
 * sense grid; what it holds is kept. */
rt_status rt__sense_reserve(rt_world *w, size_t entries, rt_error *err);
void rt__fight(rt_world *w);
/* Enemies in all four quarters round the man within radius (M7: no way out). */
/* Whether enemies who can fight (not routing as of `routing`, a byte a slot taken before
 * the morale phase changes anyone; NULL: their states now) stand in all four quarters
 * round the man in slot `slot` within `radius` (M7). */
bool rt__surrounded(const rt_world *w, int slot, double radius, const uint8_t *routing);
/* combat.c: the death of the man in slot s, remembered by those who saw it (morale's
 * deaths_seen); RT_ERR_NOMEM if the memory cannot grow. */
rt_status rt__remember_death(rt_world *w, int s, rt_error *err);
/* Whether man `slot` is on the move: faster than combat.facing_speed_mps, the pace below
 * which a man can turn to face (docs/model.md, "Facing"). A man standing or shuffling is
 * not: he counts as standing across a way (the way barred), is not heard in flight
 * (pursuit by doctrine) and turns to face whoever comes. */
static inline bool rt__on_the_move(const rt_world *w, int slot)
{
	const double vx = w->agents.vx[slot], vy = w->agents.vy[slot], min = w->def.combat.facing_speed_mps;
	return vx * vx + vy * vy > min * min;
}
/* Whether (ex, ey), a vector from man `slot`, lies behind him: he is on the move
 * (marching or routing, rt__on_the_move) and away from it (more than 90 degrees off his
 * course). A man in his ranks (formed, engaged, desperate), or one standing or shuffling,
 * turns to face whoever comes (docs/model.md, "Facing"). */
/* M5: whether man `slot` withdraws in order with an enemy upon him (within
 * withdraw_face_m: with none sensed his distance is infinite): he steps back facing him
 * (locomotion.c) and is behind no one (rt__behind). */
static inline bool rt__withdrawing_faced(const rt_world *w, int slot)
{
	return w->agents.stance[slot] == RT_STANCE_WITHDRAW && w->agents.enemy_dist[slot] <= w->def.combat.withdraw_face_m;
}
static inline bool rt__behind(const rt_world *w, int slot, double ex, double ey)
{
	const uint8_t st = w->agents.state[slot];
	if (st != RT_STATE_MARCHING && st != RT_STATE_ROUTING) return false;
	if (rt__withdrawing_faced(w, slot)) return false; /* M5: his face to the enemy upon him */
	return rt__on_the_move(w, slot) && w->agents.vx[slot] * ex + w->agents.vy[slot] * ey < 0.0;
}
rt_status rt__resolve(rt_world *w, rt_error *err);

/* command.c */
void rt__command(rt_world *w);

/* guard.c: personal guards (M8) and the carrying of a wounded commander (C6) */
/* Serial, every step, in the command phase: who carries each wounded commander. */
void rt__retinue(rt_world *w);
/* The decide phase, for a man of stance guard or carried at (x, y): his desired direction
 * e0 and pace (v0, scaled in place). *handled false: the ordinary rules decide (with the
 * pace as scaled). Returns a goal whose flow field gives e0, or -1 (e0 is set). */
int32_t rt__retinue_direction(const rt_world *w, int slot, double x, double y, double *e0x, double *e0y, double *pace,
			      bool *handled);
/* The slot of the commander a man of stance guard serves, or -1 (no corps, no commander). */
static inline int rt__principal(const rt_world *w, int slot)
{
	const int c = w->agents.corps[slot];
	if (c < 0 || w->corps[c].commander < 0) return -1;
	return (int)w->slot_of_id[w->corps[c].commander];
}
/* A guard is bound to his commander while the commander still stands, leaves or has got
 * away (not dead, taken or kneeling): he does not rout, and keeps by him. */
static inline bool rt__bound(uint8_t principal_state)
{
	return principal_state <= RT_STATE_DESPERATE || principal_state == RT_STATE_SHELTERED ||
	       principal_state == RT_STATE_ESCAPED;
}
/* Man s's heading toward man t where he is now: out of his own sight he rides that way
 * (locomotion.c) until he is aimed again — by his corps' pursuit (Q2), or at the hunt's
 * round (Q10). */
static inline void rt__aim(rt_agents *a, int s, int t)
{
	const double ex = a->x[t] - a->x[s], ey = a->y[t] - a->y[s], en = sqrt(ex * ex + ey * ey);
	if (en > 1e-9) {
		a->heading_x[s] = (float)(ex / en);
		a->heading_y[s] = (float)(ey / en);
	}
}

/* Whether a man is at large: formed, marching, engaged, in flight or at bay — not taken,
 * kneeling, in a fort, away or dead (the quarry of a hunt, Q10). */
static inline bool rt__at_large(uint8_t state)
{
	return state <= RT_STATE_DESPERATE;
}
/* Whether a man (commander) is wounded or exhausted and cannot go on his own (C6). */
static inline bool rt__disabled(const rt_world *w, int slot)
{
	return (w->agents.health[slot] > 0.0f && w->agents.health[slot] < 1.0f) || w->agents.fatigue[slot] >= 1.0f;
}

/* summons.c: the summons to surrender (M7), every command round */
void rt__summons(rt_world *w, int64_t round);
/* The step scratch the summons may take in a round (0 when no corps summons). */
size_t rt__summons_scratch(const rt_world *w);

/* crush.c: after the move, men pressed in a dense, uneven crowd may be knocked down and
 * men down may be trampled or get up (C2); serial outcomes in slot order */
rt_status rt__crush(rt_world *w, rt_error *err);
enum { RT_CRUSH_DOWN = 1, RT_CRUSH_PRESSED = 2, /* rt_agents.crush bits: the crush's (crush.c) */
       RT_CRUSH_STOOD = 4 };                  /* ... and a man in flight who stood of his own will
						 * at his last decision (the way barred, locomotion.c) */
#define RT_CRUSH_MASK (RT_CRUSH_DOWN | RT_CRUSH_PRESSED) /* the bits the crush reads */
/* rt__grid_build leaves men lying down out of the neighbour grid: others walk over them */
static inline bool rt__lying(const rt_world *w, int slot) { return w->lying > 0 && (w->agents.crush[slot] & RT_CRUSH_DOWN); }

/* stamina.c: after the move, every rider's horse and every man on foot tires or recovers
 * with the pace he went (C4) */
void rt__stamina(rt_world *w);
/* a rider's pace factor for his horse's fatigue */
static inline double rt__stamina_factor(const rt_world *w, float horse_fatigue)
{
	return 1.0 - w->def.stamina.speed_loss * (double)horse_fatigue;
}
/* a man's pace factor for his own legs' fatigue, on foot (C4, docs/model.md section 15) */
static inline double rt__legs_factor(const rt_world *w, float fatigue)
{
	return 1.0 - w->def.stamina.foot_speed_loss * (double)fatigue;
}
/* How run out a man is (0 fresh .. 1): his fatigue (his horse's if he rides) over the
 * fatigue at which his run has slowed to the pace he keeps all day, (1 - v_s / v_r) / L
 * (docs/model.md section 15: "跑不动", he can run no more), capped at 1. */
static inline double rt__spent(const rt_world *w, int slot)
{
	const rt_stamina_params *p = &w->def.stamina;
	const bool rider = w->agents.mount[slot];
	const double f = rider ? (double)w->agents.horse_fatigue[slot] : (double)w->agents.fatigue[slot];
	const double run_out = rider ? (1.0 - p->sustained_speed_mps / p->reference_speed_mps) / fmax(p->speed_loss, 1e-9)
				     : (1.0 - p->foot_sustained_speed_mps / p->foot_reference_speed_mps) / fmax(p->foot_speed_loss, 1e-9);
	return fmin(1.0, f / run_out);
}
/* Whether men of this kind ride unless their definition says otherwise. Every rule about
 * the horse under a man (the charge, stamina, the crush, water, the threat he poses, the
 * horses lost) reads the man's own agents.mount, which a definition may set for a man of
 * any kind (a mounted commander); what a kind fights with stays the kind's. */
static inline bool rt__rider(uint8_t kind) { return kind == RT_KIND_HORSE || kind == RT_KIND_HORSE_ARCHER; }
/* The kind whose body and pace a man has by default: a mounted man of a kind that does
 * not ride has a horse's. */
static inline uint8_t rt__body_kind(uint8_t kind, bool mounted)
{
	return mounted && !rt__rider(kind) ? (uint8_t)RT_KIND_HORSE : kind;
}

/* torch.c: the lights a man in flight or on the march may take for the enemy (E2). The
 * torch-bearers are binned once per sense phase into coarse cells (arena scratch, valid
 * for the step); count 0 means there is no light to fear and alarms are off. */
typedef struct rt_lights {
	double origin_x, origin_y, cell, inv_cell;
	int nx, ny, count;
	int *start, *order;    /* cell c holds torch-bearers order[start[c] .. start[c + 1]) (slots) */
	int64_t *unit_of;      /* per cell, the unit all its lights belong to, or -1 */
	int32_t *corps_of;     /* per cell, the corps all its lights belong to, or -1 */
	double range_m, identify_m, cos_ahead, receding_mps, weight;
	int max_lights;
} rt_lights;
rt_status rt__lights_prepare(rt_world *w, rt_lights *lights, rt_error *err);
/* The enemy weight of the lights the man in slot s takes for the enemy, and the slot of
 * the nearest of them (-1 none). */
double rt__lights_feared(const rt_world *w, const rt_lights *lights, int s, int *nearest);

/* How dark it is: 0 in daylight, 1 at or below the light model's dark end (log-linear
 * between); 0 without an environment (morale.c's darkness, E1). */
static inline double rt__darkness(const rt_world *w)
{
	if (!w->env.set) return 0.0;
	const rt_light_params *lp = &w->environment.light;
	const double lux = w->env.illuminance_lux > 1e-12 ? w->env.illuminance_lux : 1e-12;
	return rt__clamp(log(lp->daylight_lux / lux) / log(lp->daylight_lux / lp->dark_lux), 0.0, 1.0);
}

/* E1: the share of his pace a man keeps at this darkness, 1 - darkness (1 - dark_pace_factor)
 * (exactly 1 by day or without a sky) */
static inline double rt__dark_pace(const rt_world *w, double darkness)
{
	return 1.0 - darkness * (1.0 - w->def.locomotion.dark_pace_factor);
}

/* morale.c */
void rt__morale(rt_world *w);
void rt__sense_free(rt_world *w);
static inline bool rt__agent_due(const rt_world *w, int slot)
{
	const int level = w->agents.level[slot];
	return level == 0 || (w->step & ((1ll << level) - 1)) == 0;
}

/* neighbours.c: the neighbour sums of the decide phase, for a batch of men */
#define RT_NB_BATCH 32        /* men per batch */
#define RT_NB_KEEP 128        /* neighbours kept per man for the spacing pass (the first, in grid order) */
#define RT_NB_CAPACITY 1024   /* kept neighbours per batch */
typedef struct rt_nb_batch {
	int men;                          /* in: men in the batch */
	int k[RT_NB_BATCH];               /* in: his grid position */
	int rc[RT_NB_BATCH];              /* in: cells searched on each side of his */
	double cutoff[RT_NB_BATCH];       /* in: interaction range, m */
	int first[RT_NB_BATCH], count[RT_NB_BATCH]; /* out: his neighbours [first, first + count), in grid order */
	double rx[RT_NB_BATCH], ry[RT_NB_BATCH];   /* out: repulsion, summed in grid order */
	double nearest_gap[RT_NB_BATCH];  /* out: the least gap d - l, at most the cutoff */
	/* kept neighbours: vector to him (x_j - x_i), gap d - l, l = r_i + r_j; f is scratch */
	double dx[RT_NB_CAPACITY + 8], dy[RT_NB_CAPACITY + 8], gap[RT_NB_CAPACITY + 8], l[RT_NB_CAPACITY + 8];
	double f[RT_NB_CAPACITY + 8];
} rt_nb_batch;
typedef struct rt_nb_params {
	double A, inv_D, rep_range;       /* neighbor_strength, 1 / neighbor_range_m, 8 neighbor_range_m */
	bool nearest;                     /* the nearest gap is wanted (multi-rate stepping) */
	bool periodic;
	double period, inv_period;
} rt_nb_params;
#define RT_GRID_PAD 4 /* the grid's sorted copies are readable this far past their end */
/* Fills men [from, ...) of the batch; returns where it stopped (the buffer is full) or
 * b->men. The spacing pass reads the first min(count, RT_NB_KEEP) of a man's neighbours.
 * simd: the AVX2 version where rt__neighbours_simd() allows it. */
int rt__neighbours(const rt_grid *g, const rt_nb_params *p, rt_nb_batch *b, int from, bool simd);
/* The free distance along unit direction (ex, ey) to the nearest of neighbours
 * [first, first + count) ahead whose body overlaps the path (INFINITY if none). */
double rt__spacing(const rt_nb_batch *b, int first, int count, double ex, double ey, bool simd);
/* rt__goal_direction for n men at (x[i], y[i]), zero where he stands in the target. */
void rt__goal_directions(const rt_goal *goal, int n, const double *x, const double *y, double *dx, double *dy, bool simd);
bool rt__neighbours_simd(void);
void rt__neighbours_force_plain(bool plain); /* tests: compare the two versions */
/* tests: the vector expf against the C library's over `samples` arguments; the number of
 * mismatches, or -1 when this machine cannot run it */
long rt__expf_mismatches(long samples);

/* locomotion.c */
void rt__locomotion_decide(rt_world *w);
/* E5, C2: before the decide phase, the men standing ready to fight per coarse cell, when a
 * man on foot is in flight and the way-barred rule is on; all or nothing */
rt_status rt__barred_prepare(rt_world *w, rt_error *err);
void rt__barred_free(rt_world *w);
rt_status rt__held_prepare(rt_world *w, rt_error *err);
void rt__held_free(rt_world *w);
void rt__locomotion_move(rt_world *w);

/* world.c */
double rt__now_seconds(void);
/* Grows every agent array to capacity, keeping what they hold; all or nothing. */
rt_status rt__agents_reserve(rt_world *w, int capacity);
/* rt_state_is_active, inline: the hot loops ask it of every man every step */
static inline bool rt__active(uint8_t state) { return state <= RT_STATE_SURRENDERED; }
/* Whether his side's fort opens for the man in slot s when it is full: a general's gate
 * opens for him and his guards (Q9, M8: Wang Pu and Wu Sangui got into Xingshan with it
 * full of their fugitives; docs/model.md section 11; before session 29 the gate opened
 * for the general alone, and his guards, shut out, stood in the gate and kept him out
 * with them). Every man sheltered takes a place in the count that shuts the gate (the
 * capacity counts agents, each the run's `scale` men), the general and his guards too:
 * the fort holds no more than its capacity but for the generals' parties who come to it
 * full. */
static inline bool rt__opens_when_full(const rt_agents *a, int s)
{
	return a->kind[s] == RT_KIND_COMMANDER || a->stance[s] == RT_STANCE_GUARD;
}

/* Where a corps' men (not its commander's party) march when he leaves and run when they
 * break: his refuge unless he abandons them for another (rt_corps_def.ranks_refuge). */
static inline rt_goal_id rt__ranks_refuge(const rt_corps_def *d)
{
	return d->ranks_refuge != RT_NO_GOAL ? d->ranks_refuge : d->refuge;
}

/* Whether the man in slot s is of his corps' commander's party: the commander himself,
 * his guards, the man carrying him and his rearguard. */
static inline bool rt__with_commander(const rt_world *w, int s)
{
	return w->agents.kind[s] == RT_KIND_COMMANDER || rt__retinue_stance(w->agents.stance[s]);
}

/* A routing man's run: flight_speed_factor x his own pace (section 9), the commander's
 * party (he, his guards, bearers and rearguard: M8) all at the one mean pace, so that
 * they keep together; 1 for a man not routing. */
static inline double rt__run_factor(const rt_world *w, int s)
{
	if (w->agents.state[s] != RT_STATE_ROUTING) return 1.0;
	if (rt__with_commander(w, s)) return w->def.morale.flight_speed_factor;
	return w->def.morale.flight_speed_factor * rt__own_pace(w->def.seed, w->agents.id[s], w->def.morale.flight_pace_spread);
}
/* The fastest run of any man: flight_speed_factor x the largest own pace. */
static inline double rt__max_run_factor(const rt_morale_params *m)
{
	return m->flight_speed_factor * (1.0 + RT_PACE_Z * m->flight_pace_spread);
}
/* A man marching off with his corps after its commander left, to the corps' refuge (his
 * or, abandoned, his men's): to the enemy he is fleeing (pursuit, Q2) and, his back
 * turned, no threat (sense). A man of such a corps sent somewhere else by a later order
 * (a breakout from the fort they reached) marches on that order like any other. */
static inline bool rt__marching_off(const rt_world *w, int slot)
{
	const int c = w->agents.corps[slot];
	if (w->agents.state[slot] != RT_STATE_MARCHING || c < 0 || !w->corps[c].left) return false;
	if (w->agents.stance[slot] == RT_STANCE_WITHDRAW) return false; /* in order (M5) */
	const int32_t goal = w->agents.goal[slot];
	return goal == w->corps[c].def.refuge || goal == rt__ranks_refuge(&w->corps[c].def);
}

/* Whether man `slot` is in flight in a pursuer's eyes: routing, or marching away with his
 * corps after its commander left ("明军有一百人逃跑", Q2). */
static inline bool rt__in_flight(const rt_world *w, int slot)
{
	return w->agents.state[slot] == RT_STATE_ROUTING || rt__marching_off(w, slot);
}

/* A man standing ready to fight: formed, marching, engaged or at bay, and not marching off
 * after his commander (who is in flight in the enemy's eyes). Whom the way barred counts
 * (if not on the move) and who holds a place attacked (locomotion.c), and the enemy a
 * man in flight knows to be in his way (flight.c). */
static inline bool rt__ready_to_fight(const rt_world *w, int slot)
{
	const uint8_t st = w->agents.state[slot];
	return (st == RT_STATE_FORMED || st == RT_STATE_MARCHING || st == RT_STATE_ENGAGED || st == RT_STATE_DESPERATE) &&
	       !rt__marching_off(w, slot);
}

#endif
