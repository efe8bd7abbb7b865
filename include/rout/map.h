/* rout maps: a GeoJSON map in WGS84 longitude/latitude, validated, projected to metres
 * around the map's origin and rasterised into terrain layers (docs/map-format.md).
 *
 *   rt_map_def def = rt_map_def_default();
 *   def.allocator = my_allocator;
 *   rt_map *map;
 *   if (rt_map_load("songjin.geojson", &def, &map, &err) != RT_OK) ... err names the
 *       file, the feature ("features[3]"), the field and what was expected ...
 *
 * Layers are flat row-major arrays of nx * ny cells starting at the south-west corner:
 * cell (i, j) covers x in [x0 + i cell_m, x0 + (i + 1) cell_m), y likewise, and lives at
 * index j * nx + i. They stay valid until rt_map_destroy. Like the rest of rout, the
 * loader never prints or exits, and everything the map keeps comes from def.allocator.
 */
#ifndef ROUT_MAP_H
#define ROUT_MAP_H

#include "rout/rout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- kinds of feature ------------------------------------------------------------- */
typedef enum rt_map_kind {
	RT_MAP_COAST = 0,   /* shore line: ground at mean sea level along it */
	RT_MAP_SEA,         /* sea bed, below mean sea level (the tide is applied later) */
	RT_MAP_TIDAL_FLAT,  /* ground covered and uncovered by the tide */
	RT_MAP_RIVER,       /* impassable water except at fords and bridges */
	RT_MAP_FORD,
	RT_MAP_BRIDGE,
	RT_MAP_ROAD,
	RT_MAP_HILL,
	RT_MAP_FORT,        /* walled outline with gates and a capacity */
	RT_MAP_CAMP,
	RT_MAP_TRENCH,
	RT_MAP_WALL,
	RT_MAP_GRASS,       /* grass that burns, with its fuel load (open ground burns too) */
	RT_MAP_BARE,        /* ground with nothing to burn: ploughed, sand, burnt before */
	RT_MAP_KIND_COUNT
} rt_map_kind;

/* "coast", "sea", "tidal_flat", ...; "unknown" out of range. */
const char *rt_map_kind_name(rt_map_kind kind);
/* RT_MAP_KIND_COUNT when the name is not a kind. */
rt_map_kind rt_map_kind_from_name(const char *name);

typedef struct rt_lonlat {
	double lon_deg, lat_deg; /* WGS84 */
} rt_lonlat;

/* ---- limits ------------------------------------------------------------------------ */
#define RT_MAP_MAX_CELLS_DEFAULT (64ll << 20) /* 67,108,864 cells, 1.06 GiB of layers */
#define RT_MAP_BYTES_PER_CELL 17               /* 1 passable + 4 x 4 float/int32 layers */
#define RT_MAP_MIN_CELL_M 5.0
#define RT_MAP_MAX_CELL_M 50.0
#define RT_MAP_MAX_RADIUS_M 500000.0           /* every point within 500 km of the origin */
#define RT_MAP_GATE_TOLERANCE_M 5.0            /* a fort gate lies this near its outline */

/* Tells the loader how to read a file that was not drawn for rout, e.g. a GIS layer
 * whose features carry {"layer": "coastline"} instead of {"kind": "coast"}. */
typedef struct rt_map_kind_alias {
	const char *value;  /* a value of the kind property, e.g. "coastline" */
	rt_map_kind kind;   /* what it means */
} rt_map_kind_alias;

typedef struct rt_map_def {
	/* Used only when the file has no top-level "rout" member giving them. */
	rt_lonlat origin;        /* NaN (the default) = none: the file must give one */
	double cell_m;           /* raster cell side, 5..50 m; default 10 */
	rt_vec2 extent_m;        /* width, height centred on the origin; 0 = the bounding box
	                            of the features plus two cells */
	/* Reading foreign files. */
	const char *kind_property;              /* property holding the kind; NULL = "kind" */
	const rt_map_kind_alias *kind_aliases;  /* extra values of it, tried before the names */
	int kind_alias_count;
	bool allow_unknown_properties;          /* ignore properties no kind knows (default:
	                                           they are errors, to catch typos) */
	/* Ground not covered by any feature, and sea without an elevation_m. */
	double land_elevation_m; /* default +5 */
	double sea_elevation_m;  /* default -5 */
	int64_t max_cells;       /* refuse a larger raster before allocating it; default
	                            RT_MAP_MAX_CELLS_DEFAULT */
	rt_allocator allocator;
	uint32_t cookie;
} rt_map_def;

rt_map_def rt_map_def_default(void);

/* ---- loading ------------------------------------------------------------------------ */
typedef struct rt_map rt_map;

/* Parses, validates, projects and rasterises. On failure *out is NULL, nothing is held,
 * and err says which file, line and column (syntax errors) or which feature and field
 * (e.g. "features[3].properties.depth_m") and what was expected. Codes: RT_ERR_IO (the
 * file cannot be read), RT_ERR_PARSE (not JSON), RT_ERR_INVALID (not a valid map),
 * RT_ERR_CAPACITY (the raster would exceed def.max_cells), RT_ERR_NOMEM. */
rt_status rt_map_load(const char *path, const rt_map_def *def, rt_map **out, rt_error *err);
/* The same from text in memory; `name` stands for the file name in errors. */
rt_status rt_map_load_string(const char *text, const char *name, const rt_map_def *def, rt_map **out,
			     rt_error *err);
void rt_map_destroy(rt_map *map);

/* ---- the raster ------------------------------------------------------------------------ */
/* Cells in x (west to east) and y (south to north), the cell side, and the metre
 * position of the south-west corner of cell (0, 0) relative to the origin. Any pointer
 * may be NULL. */
void rt_map_size(const rt_map *map, int *nx, int *ny, double *cell_m, rt_vec2 *origin_xy);
rt_lonlat rt_map_origin(const rt_map *map);

const uint8_t *rt_map_layer_passable(const rt_map *map);      /* 0 impassable, 1 passable */
const float *rt_map_layer_speed_factor(const rt_map *map);    /* 1 open ground, 0 impassable */
const float *rt_map_layer_elevation_m(const rt_map *map);     /* above mean sea level */
const float *rt_map_layer_water_depth_m(const rt_map *map);   /* rivers and fords; not the sea */
const int32_t *rt_map_layer_feature_id(const rt_map *map);    /* topmost feature, -1 none */

/* All layers at one point. */
typedef struct rt_map_cell {
	int ix, iy;            /* cell indices */
	bool passable;
	float speed_factor, elevation_m, water_depth_m;
	int32_t feature;       /* -1 none */
} rt_map_cell;

/* False (and *out untouched) when p lies outside the raster. */
bool rt_map_sample(const rt_map *map, rt_vec2 p, rt_map_cell *out);

/* ---- projection ------------------------------------------------------------------------ */
/* Transverse Mercator on the WGS84 ellipsoid (Krueger series to n^6), central meridian
 * through the origin, scale 1 there, origin at (0, 0): x east, y north, metres. Scale
 * error below 0.004 % within 60 km east or west of the origin, 0.1 % within 280 km. */
rt_vec2 rt_map_lonlat_to_xy(const rt_map *map, rt_lonlat p);
rt_lonlat rt_map_xy_to_lonlat(const rt_map *map, rt_vec2 p);

/* ---- features ---------------------------------------------------------------------------- */
typedef struct rt_map_feature_view {
	rt_map_kind kind;
	int index;                  /* position in the file's "features" array */
	const char *id;             /* "" when none; likewise the strings below */
	const char *name;
	const char *name_zh;
	const char *side;           /* fort, camp */
	const char *note;           /* free text on any feature: what the numbers rest on */
	const char *source;         /* free text: where they come from */
	const char *grade;          /* "A", "B", "E" (../shared/HISTORY.md) or "" */
	rt_vec2 bbox_min, bbox_max; /* metres */
	int64_t cell_count;         /* raster cells the feature covers (under others or not) */
	/* the kind's numbers, NaN where the kind has no such property */
	double width_m, depth_m, height_m, elevation_m, speed_factor, slope_penalty;
	double fuel_kg_m2;          /* grass: dry fuel load */
	/* forts */
	int capacity;               /* men; 0 for other kinds */
	int gate_count;
	const rt_vec2 *gates;       /* metres, on the outline */
	double gate_width_m;
	/* geometry in metres: part p has points [part_start[p], part_start[p + 1]); rings are
	 * closed (last point = first), the first ring of each polygon is its outline */
	bool area;                  /* polygon parts (true) or lines/points (false) */
	int part_count;
	const int *part_start;      /* part_count + 1 entries */
	const uint8_t *part_hole;   /* per part: 1 for an inner ring (a hole of the polygon
	                               whose outline came before it) */
	const rt_vec2 *points;
} rt_map_feature_view;

int rt_map_feature_count(const rt_map *map);
/* False when index is out of range. Strings and arrays live as long as the map. */
bool rt_map_feature_info(const rt_map *map, int index, rt_map_feature_view *out);
/* The index of the feature whose "id" is id, or -1. */
int rt_map_find_feature(const rt_map *map, const char *id);


/* ---- the map in a world ------------------------------------------------------------ */
/* Lays a map under a world: its passability and speed factors act on every man's step,
 * flow fields of goals added afterwards are costed by its speed factors, and its
 * elevation and water depth, with the sea level of the world's environment (the tide),
 * decide where men wade and drown. The world's coordinates are the map's metres. The
 * map is the caller's and must outlive the world. Set it before adding goals and
 * before the first step. */
rt_status rt_world_set_map(rt_world *world, const rt_map *map, rt_error *err);

/* Water and the men in it (docs/model.md section 11). */
typedef struct rt_water_params {
	double foot_drown_depth_m;     /* a man on foot in deeper water is drowning */
	double horse_drown_depth_m;    /* a rider survives deeper water */
	double drown_rate_per_s;       /* a drowning man dies at this rate */
	double wading_loss_per_m;      /* speed lost per metre of water: v x max(0.2, 1 - loss depth) */
	double wade_out_depth_m;       /* a man not in flight standing in deeper water wades toward shallower */
	uint32_t cookie;
} rt_water_params;

rt_water_params rt_water_params_default(void);
rt_status rt_world_set_water(rt_world *world, const rt_water_params *params, rt_error *err);

/* Forts (Q9). A fort admits men only through its gates, only of its own side, and only
 * up to its capacity; a man who enters becomes *sheltered*. The map names a fort's side
 * in words ("ming"); this binds such a name to a side number. A fort whose side has no
 * binding admits nobody; a fort with no side admits anyone. Call after rt_world_set_map. */
rt_status rt_world_bind_side_name(rt_world *world, const char *map_side, uint8_t side, rt_error *err);

/* Men sheltered in the fort drawn as map feature `feature` so far; -1 if it is no fort. */
int rt_world_fort_sheltered(const rt_world *world, int feature);

/* Water depth (m) at a point of the world now: rivers plus the sea above the ground. */
double rt_world_water_depth_m(const rt_world *world, rt_vec2 p);

/* ---- refuges and flight fields (docs/model.md section 13) ----------------------------
 * A refuge is where a side's fleeing men run: an area (a rectangle) whose centre lies in
 * a fort of the map is that fort, open while it takes men of the side and has room; any
 * other area is a way home (a road out, a map edge), always open, and a fleeing man of
 * the side who steps into it leaves the field (state escaped). Once a side has refuges,
 * it has a flight field: travel time to the nearest open refuge, from a fast march out of
 * every open refuge at once over the ground's costs and, if enemy costs are on, the
 * known enemy's. A routing man runs to his own refuge (his flee goal) while it is open,
 * and along his side's flight field when it is full or he has none; a man marching off
 * after his commander left does the same when his corps' refuge is full. Worlds without
 * refuges are unchanged. Add refuges after rt_world_set_map and before the first step. */
typedef struct rt_refuge_def {
	uint8_t side;
	rt_vec2 target_min, target_max; /* the area, metres */
	uint32_t cookie;
} rt_refuge_def;

rt_refuge_def rt_refuge_def_default(void);
/* *out (may be NULL) receives the refuge's index, 0, 1, 2 ... */
rt_status rt_world_add_refuge(rt_world *world, const rt_refuge_def *def, int *out, rt_error *err);

typedef struct rt_refuge_view {
	uint8_t side;
	rt_vec2 target_min, target_max;
	int fort;                  /* the map feature of the fort it is, -1 for a way home */
	bool open;                 /* takes men now */
} rt_refuge_view;

int rt_world_refuge_count(const rt_world *world);
bool rt_world_get_refuge(const rt_world *world, int refuge, rt_refuge_view *out);

/* How flight fields are built and kept (docs/model.md section 13 gives the cost
 * equation, the units and the sources). */
typedef struct rt_flight_params {
	double field_cell_m;       /* cell of the flight fields; 0 = 0.25 m, as goals */
	double rebuild_min_s;      /* when a refuge closes, its side's field is rebuilt at most this often */
	double enemy_interval_s;   /* the known enemy is looked at again this often (0: fields are not costed by the enemy) */
	double enemy_cell_m;       /* cell of the grid the known enemy is counted on; 0 = 4 x the field cell */
	double enemy_reach_m;      /* ground within this distance of known enemies is dangerous */
	double enemy_cost_max;     /* P_max: the most the danger multiplies a cell's cost by, less one */
	double enemy_half_men;     /* D_half: known enemy men (riders weighted) within reach for half of P_max */
	double fire_men;           /* E4: the men a cell of that grid holding flames counts as, for every side,
	                              wherever it burns (0: fields, roads and the ways of marches on orders
	                              do not know the fire); needs enemy costs (enemy_interval_s > 0) */
	uint32_t cookie;
} rt_flight_params;

rt_flight_params rt_flight_params_default(void);
/* Before the first step. */
rt_status rt_world_set_flight(rt_world *world, const rt_flight_params *params, rt_error *err);

/* A side's flight field now: the unit direction a man at p runs along and the travel
 * time (m at speed factor 1, costs included) from p to the nearest open refuge. False
 * when the side has no field (no refuges, none open, nobody has fled yet) or p is in a
 * refuge, blocked or cut off from every refuge. */
bool rt_world_flight_direction(const rt_world *world, uint8_t side, rt_vec2 p, rt_vec2 *direction, double *travel_m);
/* Times the side's flight field has been built so far (0: never). */
int rt_world_flight_builds(const rt_world *world, uint8_t side);
/* A commander plans his side's road to `goal` now (M3, Q7; docs/model.md section 10, "His
 * road"): the goal's field costed by the enemy the side remembers, as a general who
 * leaves without orders picks his. Men of the side in flight to the goal, and men
 * marching there on an order, follow it until it is planned again. A world without
 * refuges for the side, or without enemy costs (enemy_interval_s 0), has no roads: then
 * nothing is done. Between steps; the scenario run calls it for every order to march to
 * a side's refuge and every new refuge given to a commander. */
rt_status rt_world_plan_road(rt_world *world, uint8_t side, rt_goal_id goal, rt_error *err);

/* ---- boats (E7) ----------------------------------------------------------------------
 * A landing with `boats` boats of `capacity` men each. Every step, after the move, men of
 * the side standing on the landing who are fleeing (routing, or marching off after their
 * commander left) or were sent there (their goal is `goal`) board, in slot order, while
 * a boat lies there with room; they leave the field (state escaped). A boat that took
 * anyone casts off at the end of the step and is back after turnaround_s, so a landing
 * takes at most boats x capacity men per turnaround; the rest wait. Before the first step. */
typedef struct rt_boats_def {
	uint8_t side;
	rt_vec2 target_min, target_max; /* the landing, metres */
	int boats;                 /* 1..10,000 */
	int capacity;              /* men a boat takes, 1..100,000 */
	double turnaround_s;       /* from casting off to lying at the landing again, > 0 */
	rt_goal_id goal;           /* men sent to this goal board there too (RT_NO_GOAL: the fleeing only) */
	uint32_t cookie;
} rt_boats_def;

rt_boats_def rt_boats_def_default(void);
rt_status rt_world_add_boats(rt_world *world, const rt_boats_def *def, int *out, rt_error *err);

typedef struct rt_boats_view {
	uint8_t side;
	int boats, capacity;
	int at_landing;            /* boats lying at the landing now */
	int64_t carried;           /* men taken off so far */
	int64_t trips;             /* times a boat cast off */
} rt_boats_view;

int rt_world_boats_count(const rt_world *world);
bool rt_world_get_boats(const rt_world *world, int landing, rt_boats_view *out);

#ifdef __cplusplus
}
#endif
#endif
