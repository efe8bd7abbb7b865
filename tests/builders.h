/* Worlds and maps shared by several tests, built in one place so that a test of one
 * property (a law of combat, determinism, checkpoints, running out of memory) runs on the
 * same scene as the tests of the others. */
#ifndef RT_TEST_BUILDERS_H
#define RT_TEST_BUILDERS_H

#include "test.h"
#include "rout/map.h"
#include "rout/scenario.h"

/* ---- maps written as GeoJSON from rectangles and lines given in metres ---- */
#define MAP_ORIGIN_LON 121.08
#define MAP_ORIGIN_LAT 41.03

typedef struct map_builder {
	char text[65536];
	size_t used;
	rt_map *blank; /* a featureless map of the same origin, for metres -> degrees */
	int features;
} map_builder;

/* A map of width_m x height_m metres in cells of cell_m, its origin at the centre. */
bool map_begin(map_builder *b, double width_m, double height_m, double cell_m);
/* [lon, lat] of the point (x, y) metres from the origin. */
void map_point(map_builder *b, double x, double y);
/* A feature with the given JSON properties: a rectangle, a line. */
void map_rect(map_builder *b, const char *props, double x0, double y0, double x1, double y1);
void map_line(map_builder *b, const char *props, double x0, double y0, double x1, double y1);
/* On a 300 x 300 m map: the sea south of y = -100 m, then six tidal flats 20 m deep
 * rising by step_m from 0 m at its edge (y -100 .. 20 m); land above. */
void map_shore_steps(map_builder *b, double step_m);
/* The map, or NULL (with a note saying why). */
rt_map *map_finish(map_builder *b);
/* A world over (-half_w, -half_h) .. (half_w, half_h) on the map, room for 2,048 men. */
rt_world *world_on_map(const rt_map *map, double half_w, double half_h, int threads);
/* The same with a step of dt_s seconds (world_on_map: the default's). */
rt_world *world_on_map_dt(const rt_map *map, double half_w, double half_h, int threads, double dt_s);

/* ---- scenes ---- */
/* A small battle with every phase at work (sense, morale, decide, move, fight,
 * resolve): 600 foot, archers and horse in two advancing sides on 60 x 40 m, seed 99. */
rt_world *skirmish_world(int threads, rt_error *err);

/* Four corps in line, each of a commander and 19 veteran foot, with 10 enemy horse
 * facing each; every corps has a straight refuge 200 m behind. dt 0.5 s, max period
 * level 5. command NULL: the default commander model. */
#define PRESSURE_CORPS 4
#define PRESSURE_DT_S 0.5
rt_world *pressure_line_world(uint64_t seed, const double courage[PRESSURE_CORPS], const rt_command_params *command, int threads,
			      rt_error *err);
/* The same with each corps' superior (M2), -1 for none, and rank; superior NULL: none has
 * one; rank NULL: all of rank 0. */
rt_world *pressure_line_world_ranked(uint64_t seed, const double courage[PRESSURE_CORPS],
				     const rt_corps_id superior[PRESSURE_CORPS], const uint8_t rank[PRESSURE_CORPS],
				     const rt_command_params *command, int threads, rt_error *err);

/* A crowd pressed into a narrow road (C2): open ground for x < 0 funnels into a road 4 m
 * wide (0 <= y <= 4) that runs to an exit at x = 110..120 m. `men` foot stand in a block
 * `front_m` wide (centred on the road) at `density_per_m2`, their front 1 m short of the
 * road; `riders` horse of the same side stand behind them, 2.8 m apart across and 2 m
 * deep. Routing (morale 0.05, never recovering) or formed and walking to the exit. At
 * night (overcast, new Moon, 1641-10-05 00:00 at Songshan) when `night`, with one man in
 * 1/torch_share carrying a torch (0: none), and at the day's pace (dark_pace_factor 1). */
typedef struct funnel_def {
	uint64_t seed;
	int threads;
	int men, riders;
	bool routing, night;
	double density_per_m2, front_m, torch_share;
	/* the riders are men of kind commander with a horse's body and pace: who ride
	 * (rt_agent_def.mounted) when commanders_ride, on foot otherwise */
	bool commanders, commanders_ride;
} funnel_def;
rt_world *funnel_world(const funnel_def *def, rt_error *err);

/* Q9, the siege: a map 1.6 km square of 5-m cells with one fort of side "ming" (side 0),
 * the square -40..40 m, for 100, with a 15 m gate in the middle of its south wall. */
rt_map *siege_map(void);
/* On it (commanders deciding every 5 s, besiege_m as given): 30 men of side 0 (ids 0-29)
 * routing for the fort from 150 m south of it, and 40 horse (ids 30-69) of corps 0 (side
 * 1, pursue_ratio 1) 250 m behind them. *field: a goal 600-700 m north of the fort, for a
 * sortie. NULL (err says why) if it cannot be made. */
rt_world *siege_world(const rt_map *map, double besiege_m, int threads, rt_goal_id *field, rt_error *err);

/* A strip of open ground 60 km by 200 m (dt 0.5 s) with a goal `far` at its east end
 * (x 59-60 km, straight ahead): for rides of hours (horse stamina). */
rt_world *long_road_world(rt_goal_id *far, rt_error *err);

/* M3, Q7: a commander's road (docs/model.md section 10, "His road"). Open ground 1.3 km
 * by 800 m by day (dt 0.5 s); side 0's way home is x 1050-1150, |y| <= 50 (a refuge, and goal
 * 0). Its craven general (courage 0, base hazard 1000 an hour: he leaves within
 * the first minute) stands at (5, 0) with 40 foot behind him; 60 enemy horse (side 1,
 * holding) stand in a block x 500-540, y -37..17, across the straight way home, 500 m
 * off (a little south of it, so that the way round is north): beyond a man's sight (300 m) when he leaves. `known`: the enemy corps is known to
 * side 0 from before the run (rt_corps_def.known). Ids: the general 0, his men 1-40, the
 * horse 41-100. */
#define ROAD_MEN 40
#define ROAD_HORSE 60
rt_world *road_world(bool known, uint64_t seed, int threads, rt_error *err);
/* The same with a steady general (courage 1, the default base hazard: he does not leave),
 * for a march ordered home. */
rt_world *road_world_steady(bool known, uint64_t seed, rt_error *err);

/* E4, round the fire: a grass plain 1,200 x 800 m of 5-m cells (fire_plain_map), and on
 * it FIRE_MEN men in flight of side 0 (ids 0..FIRE_MEN-1, routing, no refuge of their
 * own: they follow the side's flight field) in a block 400 m west of a line of fire 300 m
 * long (x = 0, y -150..150, lit at the start) across their way home (a way out, x
 * 360-420, y -40..40); a 3 m/s east wind drives its head at them. Flight fields of 5-m
 * cells, costed within 100 m of what is known (the men's sight of flames), flames
 * counted as fire_men men. With `general`, a craven general (courage 0, base hazard
 * 1000 an hour) and FIRE_MEN steady foot of his corps behind him stand 100 m north of the
 * block (ids FIRE_MEN..2 FIRE_MEN): he leaves within the first minute for home, by his
 * side's road. */
#define FIRE_MEN 100
rt_map *fire_plain_map(void);
/* Whether flames that stop men stand at p now (rt_world_fire_cell). */
bool fire_blocks_at(const rt_world *w, rt_vec2 p);
/* The nearest flames on a 5-m lattice round p within reach_m (a square), looked for in
 * squares of growing size until none nearer can be found; infinity when none. */
double nearest_flames_m(const rt_world *w, rt_vec2 p, double reach_m);
rt_world *fire_flight_world(const rt_map *map, uint64_t seed, int threads, double fire_men, bool general, rt_error *err);
/* The same plain and fire, and FIRE_MEN foot of side 0 (ids 0..FIRE_MEN-1) in the same
 * block, marching on an order (to attack with `attack`, else to take post) to a camp
 * beyond the fire (FIRE_CAMP_MIN..FIRE_CAMP_MAX), their refuge if they break a way home
 * at the plain's west edge (x -600..-560, y -40..40). */
#define FIRE_CAMP_MIN ((rt_vec2){ 360.0, -40.0 })
#define FIRE_CAMP_MAX ((rt_vec2){ 420.0, 40.0 })
rt_world *fire_march_world(const rt_map *map, uint64_t seed, int threads, double fire_men, bool attack, rt_error *err);

/* The mini scenario (tests/data/scenarios/mini) with `sets` (--set) applied, made into a
 * run on the counting allocator; false (with a test failure noted) if it cannot be, and
 * then nothing is left to destroy. */
bool mini_run(const char *const *sets, int set_count, rt_scenario **sc, rt_run **run);
/* The same for the scenario at path. */
bool scenario_run(const char *path, const char *const *sets, int set_count, rt_scenario **sc, rt_run **run);
/* Steps the run until its world's time is time_s or later; false (noted) on an error. */
bool run_to(rt_run *run, double time_s);

#endif
