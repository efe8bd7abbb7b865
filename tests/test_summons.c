/* The summons to surrender (M7): a ring halted at 500 paces that holds asks the men
 * inside to give themselves up; broken, hungry men left without a commander kneel over
 * the hours, the desperate last. */
#include "builders.h"

#include <stdlib.h>
#include <string.h>

#define POCKET 300
#define RING 240

typedef struct pocket {
	double half_s;        /* when half the men inside had knelt (-1: never) */
	int knelt;            /* kneeling at the end */
	int killed;
	int desperate;        /* desperate at the end */
	double summoned_at_s; /* when the ring's commander summoned (-1 never) */
	int encircled;        /* inside the ring at the last decision */
} pocket;

/* A ring scene: broken men (morale 0.2) of a corps with the given hunger and no
 * commander (corps 0, ids 0..men-1, at man_at), veteran horse of stance contain of a
 * corps of side 1 that summons or not (corps 1, at rider_at, keeping their ground where
 * keeps[i]), and that corps' commander at chief_at; 1 s steps, sight 1,500 m (by day, on
 * open ground), on the map if any. */
typedef struct ring_scene {
	uint64_t seed;
	rt_vec2 lo, hi;     /* the world's bounds */
	int capacity;       /* agents, 0 for the default */
	const rt_map *map;  /* or NULL */
	double hunger;
	bool summon;
	int men, riders;
	const rt_vec2 *man_at, *rider_at;
	const bool *keeps;  /* or NULL: none keep their ground */
	rt_vec2 chief_at;
} ring_scene;

static rt_world *ring_world(const ring_scene *sc, rt_corps_id *ring, rt_error *err)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = sc->seed;
	d.dt_s = 1.0;
	d.max_period_level = 4;
	d.bounds_min = sc->lo;
	d.bounds_max = sc->hi;
	if (sc->capacity > 0) d.agent_capacity = sc->capacity;
	d.combat.sense_range_m = 1500.0;
	d.combat.sense_cell_m = 50.0;
	rt_world *w = rt_world_create(&d, err);
	if (!w) return NULL;
	bool ok = !sc->map || rt_world_set_map(w, sc->map, err) == RT_OK;
	rt_corps_def inside = rt_corps_def_default();
	inside.hunger = sc->hunger;
	rt_corps_id trapped = 0;
	ok = ok && rt_world_add_corps(w, &inside, &trapped, err) == RT_OK;
	rt_corps_def outside = rt_corps_def_default();
	outside.side = 1;
	outside.summon = sc->summon;
	ok = ok && rt_world_add_corps(w, &outside, ring, err) == RT_OK;
	rt_agent_def man = rt_agent_def_default();
	man.morale = 0.2f;
	man.corps = trapped;
	for (int i = 0; i < sc->men && ok; ++i) {
		man.position = sc->man_at[i];
		ok = rt_world_add_agent(w, &man, NULL, err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.stance = RT_STANCE_CONTAIN;
	horse.experience = RT_EXPERIENCE_VETERAN;
	horse.corps = *ring;
	for (int i = 0; i < sc->riders && ok; ++i) {
		horse.position = sc->rider_at[i];
		horse.keeps_ground = sc->keeps && sc->keeps[i];
		ok = rt_world_add_agent(w, &horse, NULL, err) == RT_OK;
	}
	rt_agent_def chief = rt_agent_def_default();
	chief.kind = RT_KIND_COMMANDER;
	chief.side = 1;
	chief.corps = *ring;
	chief.position = sc->chief_at;
	rt_agent_id commander = 0;
	ok = ok && rt_world_add_agent(w, &chief, &commander, err) == RT_OK;
	ok = ok && rt_world_set_corps_commander(w, *ring, commander, err) == RT_OK;
	if (!ok) {
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}

/* POCKET broken men (morale 0.2) of a corps with the given hunger and no commander stand
 * in a knot; RING horse of a corps that summons (or not) ride in from 1,000 m to contain
 * them at 800 m; its commander stands 1,200 m off. Hours at 1 s steps. */
static bool surround(uint64_t seed, bool summon, double hunger, double hours, pocket *out)
{
	memset(out, 0, sizeof *out);
	out->half_s = -1.0;
	rt_vec2 man_at[POCKET], rider_at[RING];
	for (int i = 0; i < POCKET; ++i) man_at[i] = (rt_vec2){ -15.0 + 1.5 * (i % 20), -11.0 + 1.5 * (i / 20) };
	for (int i = 0; i < RING; ++i) {
		const double angle = 6.283185307179586 * (i + 0.5) / RING;
		rider_at[i] = (rt_vec2){ 1000.0 * cos(angle), 1000.0 * sin(angle) };
	}
	const ring_scene sc = { seed, { -1500, -1500 }, { 1500, 1500 }, 0, NULL, hunger, summon, POCKET, RING, man_at, rider_at, NULL,
				{ 1200.0, 1200.0 } };
	rt_error err;
	rt_corps_id ring = 0;
	rt_world *w = ring_world(&sc, &ring, &err);
	if (!w) {
		rt_test_note("surround: %s", err.message);
		return false;
	}
	bool ok = true;
	const int steps = (int)(hours * 3600.0);
	for (int step = 0; step < steps && ok; ++step) {
		ok = rt_world_step(w, &err) == RT_OK;
		if ((step + 1) % 60 != 0) continue;
		int knelt = 0;
		for (int id = 0; id < POCKET; ++id) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)id, &v);
			knelt += v.state == RT_STATE_SURRENDERED || v.state == RT_STATE_CAPTURED;
		}
		if (out->half_s < 0.0 && 2 * knelt >= POCKET) out->half_s = (step + 1) * 1.0; /* 1 s steps */
	}
	for (int id = 0; id < POCKET; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		out->knelt += v.state == RT_STATE_SURRENDERED || v.state == RT_STATE_CAPTURED;
		out->killed += v.state == RT_STATE_DEAD_COMBAT;
		out->desperate += v.state == RT_STATE_DESPERATE;
	}
	rt_corps_view cv;
	rt_world_get_corps(w, ring, &cv);
	out->summoned_at_s = cv.summons_at_s;
	out->encircled = cv.encircled;
	if (!ok) rt_test_note("surround: %s", err.message);
	rt_world_destroy(w);
	return ok;
}

TEST(summons_the_encircled_kneel_over_the_hours)
{
	pocket summoned, silent, hungry;
	CHECK(surround(1, true, 0.0, 4.0, &summoned));
	CHECK(surround(1, false, 0.0, 4.0, &silent));
	CHECK(surround(1, true, 1.0, 4.0, &hungry));
	rt_test_note("300 broken men ringed at 800 m for 4 h: summoned at %.0f s, %d knelt (half by %.0f min), %d still desperate, %d killed; not summoned: %d knelt, %d desperate; starving and summoned: half by %.0f min, %d knelt",
		     summoned.summoned_at_s, summoned.knelt, summoned.half_s / 60.0, summoned.desperate, summoned.killed, silent.knelt,
		     silent.desperate, hungry.half_s / 60.0, hungry.knelt);
	CHECK(summoned.summoned_at_s > 0.0 && summoned.summoned_at_s < 600.0); /* once the ring holds */
	CHECK(summoned.knelt >= 0.8 * POCKET);
	CHECK(summoned.killed == 0);
	CHECK(silent.summoned_at_s < 0.0 && silent.knelt == 0 && silent.desperate >= 0.8 * POCKET);
	CHECK(hungry.half_s > 0.0 && hungry.half_s < 0.6 * summoned.half_s); /* hunger hastens it */
}

/* ---- the halt finds a ford held (M7, docs/model.md section 10c) ------------------------ */
/* On the mini map (tests/data/scenarios/mini): 200 steadfast red foot stand at their camp;
 * 60 blue horse stand on a ford 580 m west of them, between them and the way out, and 120
 * blue horse attack from 600 m east. A minute in, the blue are ordered to contain (the halt
 * at 500 paces). The riders of the attack draw off to the ring's distance, 800 m; those on
 * the ford, ordered to hold it, keep it ("散布在河滩上…静静的等着", seed 000), and riders
 * still on their way to it (sent from 400 m north) go on to it and keep it; the same 60
 * attacking from the ford draw off with the rest, and the ford is open. Ten minutes after
 * the halt. */
#include "rout/scenario.h"

typedef struct ford_result {
	double start_x, start_y; /* the ford's riders: where they stood on average at the start */
	double end_x, end_y;     /* and at the end */
	double ford_moved_m;     /* their mean distance from where they stood */
	double ford_enemy_m;     /* their mean distance to the nearest red */
	double ring_enemy_m;     /* the attack's riders: mean distance to the nearest red */
	int keeping, ford_riders; /* of the ford's riders, those keeping their ground */
} ford_result;

static bool ford_run(uint64_t seed, const char *start, const char *ford_order, ford_result *r)
{
	char text[3000];
	snprintf(text, sizeof text,
		 "rout: 1\n"
		 "name: ford\n"
		 "map: map.geojson\n"
		 "start: 1641-09-26T07:00\n"
		 "end: 1641-09-26T07:11\n"
		 "utc_offset_h: 8\n"
		 "place: {lat: 41.0, lon: 121.0}\n"
		 "scale: 1\n"
		 "dt_s: 0.5\n"
		 "sides:\n"
		 "  red: {name: Red, map_side: red}\n"
		 "  blue: {name: Blue, map_side: blue}\n"
		 "places:\n"
		 "  red_camp: {feature: red_camp}\n"
		 "  ford: {lat: 41.0004, lon: 120.9800, radius_m: 40}\n"
		 "  east: {lat: 41.0004, lon: 120.9940, radius_m: 40}\n"
		 "  north: {lat: 41.0040, lon: 120.9800, radius_m: 40}\n"
		 "corps:\n"
		 "  red:\n"
		 "    side: red\n"
		 "    name: Red\n"
		 "    courage: 1.0\n"
		 "    units:\n"
		 "      red_foot: {kind: foot, men: 200, experience: veteran, at: red_camp}\n"
		 "  bank:\n"
		 "    side: blue\n"
		 "    name: Bank\n"
		 "    units:\n"
		 "      bank_horse: {kind: horse, men: 60, experience: veteran, at: %s, order: %s}\n"
		 "  chase:\n"
		 "    side: blue\n"
		 "    name: Chase\n"
		 "    units:\n"
		 "      chase_horse: {kind: horse, men: 120, experience: veteran, at: east, order: {kind: attack, to: red_camp}}\n"
		 "triggers:\n"
		 "  halt:\n"
		 "    when: {at: 1641-09-26T07:01}\n"
		 "    then:\n"
		 "      - {corps: bank, order: contain}\n"
		 "      - {corps: chase, order: contain}\n",
		 start, ford_order);
	rt_scenario_def def = rt_scenario_def_default();
	def.allocator = rt_test_allocator();
	rt_scenario *sc;
	rt_error err;
	if (rt_scenario_load_string(text, strlen(text), "ford", "tests/data/scenarios/mini", &def, &sc, &err) != RT_OK) {
		rt_test_note("ford: %s (%s)", err.message, err.field);
		return false;
	}
	rt_run_def rd = rt_run_def_default();
	rd.allocator = rt_test_allocator();
	rd.seed = seed;
	rt_run *run = NULL;
	bool ok = rt_run_create(sc, &rd, &run, &err) == RT_OK;
	rt_world *w = ok ? rt_run_world(run) : NULL;
	const int n = ok ? rt_world_agent_count(w) : 0;
	memset(r, 0, sizeof *r);
	double *x0 = ok ? calloc((size_t)n, sizeof *x0) : NULL, *y0 = ok ? calloc((size_t)n, sizeof *y0) : NULL;
	ok = ok && x0 && y0;
	for (int id = 0; ok && id < n; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		x0[id] = v.position.x;
		y0[id] = v.position.y;
		if (v.unit == 1 && v.kind != RT_KIND_COMMANDER) {
			r->start_x += v.position.x / 60.0;
			r->start_y += v.position.y / 60.0;
		}
	}
	while (ok && !rt_run_done(run)) ok = rt_run_step(run, &err) == RT_OK;
	int ring = 0;
	for (int id = 0; ok && id < n; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		if (v.kind == RT_KIND_COMMANDER || v.side != 1) continue;
		if (v.unit == 1) { /* the units in the order given: red_foot, bank_horse, chase_horse */
			r->ford_riders++;
			r->keeping += v.keeps_ground;
			r->ford_moved_m += hypot(v.position.x - x0[id], v.position.y - y0[id]);
			r->end_x += v.position.x / 60.0;
			r->end_y += v.position.y / 60.0;
			r->ford_enemy_m += v.enemy_distance_m;
		} else if (v.unit == 2) {
			ring++;
			r->ring_enemy_m += v.enemy_distance_m;
		}
	}
	if (r->ford_riders) {
		r->ford_moved_m /= r->ford_riders;
		r->ford_enemy_m /= r->ford_riders;
	}
	if (ring) r->ring_enemy_m /= ring;
	free(x0);
	free(y0);
	if (!ok) rt_test_note("ford: %s", err.message);
	if (run) rt_run_destroy(run);
	rt_scenario_destroy(sc);
	return ok && r->ford_riders == 60 && ring == 120;
}

TEST(summons_the_halt_keeps_the_ford_its_riders_held)
{
	for (uint64_t seed = 1; seed <= 3; ++seed) {
		ford_result held, sent, attacking;
		CHECK(ford_run(seed, "ford", "hold", &held));
		CHECK(ford_run(seed, "north", "{kind: march, to: ford}", &sent));
		CHECK(ford_run(seed, "ford", "{kind: attack, to: red_camp}", &attacking));
		/* the ford: where the riders ordered to hold it stood */
		const double sent_off = hypot(sent.end_x - held.start_x, sent.end_y - held.start_y);
		const double attack_off = hypot(attacking.end_x - held.start_x, attacking.end_y - held.start_y);
		rt_test_note("seed %llu: ford held: %d of %d keep it, moved %.0f m, %.0f m from the red; ring at %.0f m. "
			     "Sent to it from the north: %d keep it, %.0f m off it at the end. Attacking from it: %d keep it, "
			     "%.0f m from the red, %.0f m off the ford; ring at %.0f m",
			     (unsigned long long)seed, held.keeping, held.ford_riders, held.ford_moved_m, held.ford_enemy_m,
			     held.ring_enemy_m, sent.keeping, sent_off, attacking.keeping, attacking.ford_enemy_m, attack_off,
			     attacking.ring_enemy_m);
		/* the ford held: every rider keeps it, within a few paces of where he stood */
		CHECK(held.keeping == 60 && held.ford_moved_m < 15.0 && held.ford_enemy_m < 700.0);
		/* sent to it: they go on to it and keep it, inside 800 m of the red */
		CHECK(sent.keeping == 60 && sent_off < 60.0 && sent.ford_enemy_m < 700.0);
		/* attacking: they draw off to the ring's distance, off the ford */
		CHECK(attacking.keeping == 0 && attacking.ford_enemy_m > 0.85 * 800.0 && attack_off > 150.0);
		/* the attack's riders from the east draw off to 800 m (+-15 %) every time */
		CHECK(fabs(held.ring_enemy_m - 800.0) < 120.0 && fabs(attacking.ring_enemy_m - 800.0) < 120.0);
	}
	CHECK(rt_test_bytes_held() == 0);
}

/* The same through the world's API (rt_agent_def.keeps_ground): 100 foot stand; 60 horse
 * containing with keeps_ground stand 500 m west of them, 60 without 500 m east. Three
 * minutes on, the first are where they were, the others 800 m off; keeps_ground with
 * another stance is refused. */
TEST(summons_keeps_ground_through_the_world_api)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.bounds_min = (rt_vec2){ -1500, -1500 };
	d.bounds_max = (rt_vec2){ 1500, 1500 };
	d.combat.sense_range_m = 1500.0;
	d.combat.sense_cell_m = 50.0;
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	CHECK(w);
	rt_agent_def man = rt_agent_def_default();
	bool ok = true;
	for (int i = 0; i < 100 && ok; ++i) {
		man.position = (rt_vec2){ -7.5 + 1.5 * (i % 10), -7.5 + 1.5 * (i / 10) };
		ok = rt_world_add_agent(w, &man, NULL, &err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.stance = RT_STANCE_CONTAIN;
	for (int i = 0; i < 120 && ok; ++i) {
		const bool keeps = i < 60;
		horse.keeps_ground = keeps;
		horse.position = (rt_vec2){ keeps ? -500.0 : 500.0, -90.0 + 3.0 * (i % 60) };
		ok = rt_world_add_agent(w, &horse, NULL, &err) == RT_OK;
	}
	CHECK_OK(ok ? RT_OK : RT_ERR_INVALID, err);
	for (int step = 0; step < (int)(180.0 / d.dt_s) && ok; ++step) ok = rt_world_step(w, &err) == RT_OK;
	CHECK_OK(ok ? RT_OK : RT_ERR_INVALID, err);
	double keep_x = 0.0, ring = 0.0;
	int keeping = 0;
	for (int id = 100; id < 220; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		if (id < 160) {
			keep_x += v.position.x / 60.0;
			keeping += v.keeps_ground;
		} else {
			ring += v.enemy_distance_m / 60.0;
		}
	}
	rt_test_note("keeping ground: %d of 60, mean x %.0f m (stood at -500); the others %.0f m from the foot", keeping, keep_x, ring);
	CHECK(keeping == 60 && fabs(keep_x + 500.0) < 5.0);
	CHECK(fabs(ring - 800.0) < 120.0);
	horse.stance = RT_STANCE_HOLD;
	horse.keeps_ground = true;
	CHECK(rt_world_add_agent(w, &horse, NULL, &err) == RT_ERR_INVALID && strstr(err.message, "keeps_ground is for stance contain"));
	rt_world_destroy(w);
	CHECK(rt_test_bytes_held() == 0);
}

/* ---- pockets: each body of men ringed by its own ring (M7, docs/model.md section 10c) --- */
/* Broken men (morale 0.2) of a corps with no commander stand in knots of KNOT; horse of one
 * corps that summons ride in from 1,000 m to contain them at 800 m (D); its commander
 * stands well off. Each knot_def gives the bearings (degrees from east) between which
 * its riders stand; a map, if any, lies under all. Two hours at 1 s steps; per knot, how
 * many knelt. */
#define KNOT 150
#define KNOT_RIDERS 120

typedef struct knot_def {
	double x, y;             /* where the knot stands */
	double from_deg, to_deg; /* its riders' bearings */
	bool keep;               /* its riders keep their ground (rt_agent_def.keeps_ground) */
} knot_def;

static bool ringed(const rt_map *map, const knot_def *knots, int count, double hours, int knelt[], double *summoned_at_s)
{
	rt_vec2 man_at[2 * KNOT], rider_at[2 * KNOT_RIDERS];
	bool keeps[2 * KNOT_RIDERS];
	if (count > 2) return false;
	for (int k = 0; k < count; ++k) {
		for (int i = 0; i < KNOT; ++i)
			man_at[k * KNOT + i] = (rt_vec2){ knots[k].x - 11.0 + 1.5 * (i % 15), knots[k].y - 7.0 + 1.5 * (i / 15) };
		for (int i = 0; i < KNOT_RIDERS; ++i) {
			const double span = knots[k].to_deg - knots[k].from_deg, full = span >= 360.0;
			const double deg = knots[k].from_deg + span * (full ? (i + 0.5) / KNOT_RIDERS : (double)i / (KNOT_RIDERS - 1));
			const double angle = deg * 3.14159265358979323846 / 180.0;
			rider_at[k * KNOT_RIDERS + i] = (rt_vec2){ knots[k].x + 1000.0 * cos(angle), knots[k].y + 1000.0 * sin(angle) };
			keeps[k * KNOT_RIDERS + i] = knots[k].keep;
		}
	}
	const ring_scene sc = { 7, { -3500, -1500 }, { 3500, 2000 }, 1024, map, 0.0, true, count * KNOT, count * KNOT_RIDERS, man_at,
				rider_at, keeps, { 0.0, 1400.0 } };
	rt_error err;
	rt_corps_id ring = 0;
	rt_world *w = ring_world(&sc, &ring, &err);
	if (!w) {
		rt_test_note("ringed: %s", err.message);
		return false;
	}
	bool ok = true;
	for (int step = 0; step < (int)(hours * 3600.0) && ok; ++step) ok = rt_world_step(w, &err) == RT_OK;
	for (int k = 0; k < count; ++k) {
		knelt[k] = 0;
		for (int i = 0; i < KNOT; ++i) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)(k * KNOT + i), &v);
			knelt[k] += v.state == RT_STATE_SURRENDERED || v.state == RT_STATE_CAPTURED;
		}
	}
	rt_corps_view cv;
	rt_world_get_corps(w, ring, &cv);
	*summoned_at_s = cv.summons_at_s;
	if (!ok) rt_test_note("ringed: %s", err.message);
	rt_world_destroy(w);
	return ok;
}

/* Two knots 4 km apart: one ringed all round, one with riders on its east side only. One
 * ring round both, centred between them, is shut round neither (before pockets, none
 * knelt); each is its own pocket: the first kneels, the second, open to the west, not.
 * The same with riders who keep the ground they were put on, 1,000 m out (the halt found
 * them holding it): a ring all of whose men stand holds, and the men within the ring's
 * distance of its centre are inside. */
TEST(summons_each_pocket_is_ringed_by_its_own_men)
{
	for (int keep = 0; keep < 2; ++keep) {
		const knot_def knots[2] = { { -2000.0, 0.0, 0.0, 360.0, keep }, { 2000.0, 0.0, -80.0, 80.0, keep } };
		int knelt[2];
		double at;
		CHECK(ringed(NULL, knots, 2, 2.0, knelt, &at));
		rt_test_note("%s: ringed all round: %d of %d knelt; 4 km off, ringed on the east only: %d knelt; summoned at %.0f s",
			     keep ? "riders keeping their ground" : "riders drawing in to 800 m", knelt[0], KNOT, knelt[1], at);
		CHECK(at > 0.0 && at < 900.0);
		CHECK(knelt[0] >= 0.6 * KNOT);
		CHECK(knelt[1] == 0);
	}
	CHECK(rt_test_bytes_held() == 0);
}

/* A knot 400 m north of a river 60 m wide and 3 m deep (y = -30 .. 30), riders round it
 * from bearing -15 to 195 degrees, on the land side: the river shuts the south, and the
 * men kneel. On the same ground without the river, or with a ford 300 m wide below them,
 * the south is open and nobody kneels. */
static rt_map *river_map(bool river, bool ford)
{
	map_builder b;
	if (!map_begin(&b, 7000, 3500, 10)) return NULL;
	if (river) map_line(&b, "{\"kind\":\"river\",\"width_m\":60,\"depth_m\":3}", -3500, -250, 3500, -250);
	if (ford) map_rect(&b, "{\"kind\":\"ford\"}", -150, -300, 150, -200);
	if (!river) map_line(&b, "{\"kind\":\"road\",\"width_m\":4}", -3000, 1500, -2900, 1500);
	return map_finish(&b);
}

TEST(summons_a_river_shuts_the_side_of_a_pocket_against_it)
{
	const char *ground[3] = { "against the river", "without the river", "with a ford below them" };
	int knelt[3];
	for (int g = 0; g < 3; ++g) {
		rt_map *map = river_map(g != 1, g == 2);
		CHECK(map);
		const knot_def knot = { 0.0, 150.0, -15.0, 195.0, false };
		double at;
		CHECK(ringed(map, &knot, 1, 2.0, &knelt[g], &at));
		rt_map_destroy(map);
		rt_test_note("%s: %d of %d knelt, summoned at %.0f s", ground[g], knelt[g], KNOT, at);
	}
	CHECK(knelt[0] >= 0.6 * KNOT);
	CHECK(knelt[1] == 0);
	CHECK(knelt[2] == 0);
	CHECK(rt_test_bytes_held() == 0);
}
