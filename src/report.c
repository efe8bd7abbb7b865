/* What a run tells: tallies in men, the series per simulated minute, the events and the
 * first occurrence of each phenomenon it can recognise, and the run's files —
 * summary.json, report.md (the run beside the record), series.csv and events.jsonl —
 * each written to a temporary name, flushed and renamed, so a file that exists under its
 * name is whole (docs/scenario-format.md, "Outputs"). */
#include "run_internal.h"
#include "fire_log.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const phenomenon_id[RT_PH_COUNT] = {
	"C1", "C2", "C3", "C4", "C5", "C6",
	"M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8", "M9",
	"E1", "E2", "E3", "E4", "E5", "E6", "E7",
	"Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7", "Q8", "Q9", "Q10",
};
static const char *const phenomenon_text[RT_PH_COUNT] = {
	"men in flight held fast in a dense crowd",
	"men trampled in the crush",
	"fleeing men throw away armour and weapons",
	"men in flight run themselves out; horses tire",
	"men kneel and surrender; pursuers pass them",
	"a wounded commander carried by his guard",
	"a green unit breaks before the seasoned units of its side",
	"a commander leaves after another has (blame shared)",
	"a commander cut off from headquarters leaves",
	"routing men rally and stand again",
	"a unit holds and fights on until half its men are killed",
	"a rearguard turns on the pursuers",
	"cornered men turn desperate and fight on",
	"a commander's guards get him to safety",
	"a hungry commander leaves (hunger weighs in his leaving)",
	"night: men see little and cannot tell friend from foe",
	"men take the torches of their own side for the enemy",
	"men drown in the sea or a river",
	"men burn in a grass fire the wind drives",
	"a crossing held stops the flight (rivers crossed only at fords)",
	"trenches channel movement; the unditched coast is the way out",
	"men escape by boat",
	"ambushes sprung as the enemy enters their zone",
	"pursuers sent in proportion to the fleeing",
	"racing ahead to seize the crossing before the fleeing army reaches it",
	"two columns converge to close the gap",
	"blockers focused on one group let another slip past",
	"the commander's own camp stripped to feed the pursuit; a raid nearly reaches him",
	"pursuers sent in the dark on what is heard and seen by torchlight",
	"pursuers confused when the enemy splits into many routes",
	"fleeing men shelter in a fort",
	"chasing the enemy commander through a crowd fails",
};
/* Whether the report watches for the phenomenon (rt__run_watch, and the ambushes of
 * run.c for Q1): every one of PHENOMENA.md. One left out would be said not to be
 * recognised (docs/run-folder.md). */
static const bool phenomenon_recognised[RT_PH_COUNT] = {
	[RT_PH_C1] = true, [RT_PH_C2] = true, [RT_PH_C3] = true, [RT_PH_C4] = true, [RT_PH_C5] = true, [RT_PH_C6] = true,
	[RT_PH_M1] = true, [RT_PH_M2] = true, [RT_PH_M3] = true, [RT_PH_M4] = true, [RT_PH_M5] = true, [RT_PH_M6] = true,
	[RT_PH_M7] = true, [RT_PH_M8] = true, [RT_PH_M9] = true,
	[RT_PH_E1] = true, [RT_PH_E2] = true, [RT_PH_E3] = true, [RT_PH_E4] = true, [RT_PH_E5] = true, [RT_PH_E6] = true, [RT_PH_E7] = true,
	[RT_PH_Q1] = true, [RT_PH_Q2] = true, [RT_PH_Q3] = true, [RT_PH_Q4] = true, [RT_PH_Q5] = true, [RT_PH_Q6] = true, [RT_PH_Q7] = true, [RT_PH_Q8] = true,
	[RT_PH_Q9] = true, [RT_PH_Q10] = true,
};

/* ---- small text buffer ------------------------------------------------------------------ */
typedef struct text {
	const rt_allocator *a;
	char *data;
	size_t size, capacity;
	bool failed;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
	if (t->failed) return;
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(t->data ? t->data + t->size : NULL, t->data ? t->capacity - t->size : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->failed = true;
			return;
		}
		if (t->data && t->size + (size_t)n < t->capacity) {
			t->size += (size_t)n;
			return;
		}
		size_t cap = t->capacity ? t->capacity : 4096;
		while (cap <= t->size + (size_t)n) cap *= 2;
		char *d = rt__realloc(t->a, t->data, t->capacity, cap);
		if (!d) {
			t->failed = true;
			return;
		}
		t->data = d;
		t->capacity = cap;
	}
}

static void text_free(text *t)
{
	rt__free(t->a, t->data, t->capacity);
	t->data = NULL;
	t->capacity = t->size = 0;
}

/* Writes data to path whole or not at all (atomic.c: temporary, fsync, rename). */
static rt_status write_whole(const char *path, const char *data, size_t size, rt_error *err)
{
	return rt_write_file_atomic(path, data, size, err);
}

/* ---- tallies --------------------------------------------------------------------------- */
/* The men the agent in slot s stands for: `scale`, but a commander is one man at any
 * scale (the general himself), so a fort of 25,000 with four generals in it counts
 * 25,004. What a man has — his horse if he rides, his armour — is counted the same way:
 * a commander's horse is one horse (docs/model.md section 10a). */
static double men_of(const rt_run *run, int s)
{
	return run->world->agents.kind[s] == RT_KIND_COMMANDER ? 1.0 : run->scale;
}

/* The men in `agents` agents of whom `commanders` are commanders. */
static double men_in(const rt_run *run, int64_t agents, int64_t commanders)
{
	return (double)(agents - commanders) * run->scale + (double)commanders;
}

/* A man who rides (his kind's, or a mounted commander): a horse that can be lost or taken.
 * A commander on foot has none. */
static bool is_rider(const rt_agents *a, int s) { return a->mount[s] != 0; }

static bool is_dead(uint8_t st)
{
	return st == RT_STATE_DEAD_COMBAT || st == RT_STATE_DEAD_TRAMPLED || st == RT_STATE_DEAD_DROWNED || st == RT_STATE_DEAD_BURNED;
}

static bool is_lost(uint8_t st)
{
	return is_dead(st) || st == RT_STATE_CAPTURED || st == RT_STATE_SURRENDERED;
}

/* A rider whose horse the enemy took: cut down or trampled on land, taken or kneeling
 * (not drowned or burned with it) */
static bool horse_taken(const rt_agents *a, int s, uint8_t st)
{
	return is_rider(a, s) && (st == RT_STATE_DEAD_COMBAT || st == RT_STATE_DEAD_TRAMPLED || st == RT_STATE_CAPTURED ||
				  st == RT_STATE_SURRENDERED);
}

static bool in_field(uint8_t st)
{
	return st == RT_STATE_FORMED || st == RT_STATE_MARCHING || st == RT_STATE_ENGAGED || st == RT_STATE_ROUTING ||
	       st == RT_STATE_DESPERATE;
}

/* The place a sheltered man at (x, y) is in: the first place naming the fort he stands in. */
static int shelter_place(const rt_run *run, double x, double y)
{
	const int f = rt__fort_at(run->world, x, y);
	if (f < 0) return -1;
	const rt_scenario *sc = run->scenario;
	for (int p = 0; p < sc->place_count; ++p)
		if (sc->places[p].feature == f) return p;
	return -1;
}

/* Whether the agent in slot s belongs to the term's group. */
static bool in_group(const rt_run *run, const rt_sc_term *t, int s)
{
	const rt_agents *a = &run->world->agents;
	if (t->side >= 0) return a->side[s] == t->side;
	if (t->unit >= 0) return (int)a->unit[s] == t->unit;
	return a->corps[s] == t->corps;
}

/* Whether the agent in slot s stands within place p's rectangle. */
static bool standing_in(const rt_run *run, int p, int s)
{
	const rt_agents *a = &run->world->agents;
	const rt_sc_place *pl = &run->scenario->places[p];
	return a->x[s] >= pl->min.x && a->x[s] <= pl->max.x && a->y[s] >= pl->min.y && a->y[s] <= pl->max.y;
}

/* Whether the man in slot s is at place p: standing within its rectangle, or sheltered in
 * the fort it names (a man who came in by a gate may stand at it, on the wall's line). */
static bool at_place(const rt_run *run, int p, int s)
{
	const rt_agents *a = &run->world->agents;
	const rt_sc_place *pl = &run->scenario->places[p];
	if (a->state[s] == RT_STATE_SHELTERED && pl->fort && rt__fort_at(run->world, a->x[s], a->y[s]) == pl->feature) return true;
	return standing_in(run, p, s);
}

static bool counts(const rt_run *run, const rt_sc_term *t, int s)
{
	const rt_agents *a = &run->world->agents;
	const uint8_t st = a->state[s];
	/* in_field, surrendered, routing, desperate with a place: only the men standing in it */
	if (t->place >= 0 && t->what != RT_MEASURE_SHELTERED && !standing_in(run, t->place, s)) return false;
	switch (t->what) {
	case RT_MEASURE_INITIAL: return true;
	case RT_MEASURE_KILLED: return st == RT_STATE_DEAD_COMBAT;
	case RT_MEASURE_DROWNED: return st == RT_STATE_DEAD_DROWNED;
	case RT_MEASURE_TRAMPLED: return st == RT_STATE_DEAD_TRAMPLED;
	case RT_MEASURE_BURNED: return st == RT_STATE_DEAD_BURNED;
	case RT_MEASURE_CAPTURED: return st == RT_STATE_CAPTURED;
	case RT_MEASURE_SURRENDERED: return st == RT_STATE_SURRENDERED;
	case RT_MEASURE_ESCAPED: return st == RT_STATE_ESCAPED;
	case RT_MEASURE_IN_FIELD: return in_field(st);
	case RT_MEASURE_SHELTERED:
		return st == RT_STATE_SHELTERED && (t->place < 0 || shelter_place(run, a->x[s], a->y[s]) == t->place);
	case RT_MEASURE_HORSES_LOST: return is_rider(a, s) && is_lost(st);
	case RT_MEASURE_HORSES_TAKEN: return horse_taken(a, s, st);
	case RT_MEASURE_ARMOUR_DROPPED:
		return run->initial_armour[a->id[s]] && !(a->equipment[s] & RT_EQUIP_ARMOUR);
	case RT_MEASURE_DEAD: return is_dead(st);
	case RT_MEASURE_ROUTING: return st == RT_STATE_ROUTING;
	case RT_MEASURE_DESPERATE: return st == RT_STATE_DESPERATE;
	default: return false;
	}
}

static bool in_rect(rt_vec2 lo, rt_vec2 hi, double x, double y) { return x >= lo.x && x <= hi.x && y >= lo.y && y <= hi.y; }

/* Whether the escaped commander in slot s went by boat: he stands where he left the
 * field, on a landing of his side and not in a way home of his side (men in flight reach
 * a way home before the boats take anyone in the same step: world.c, move phase). */
static bool commander_by_sea(const rt_world *w, int s)
{
	const rt_agents *a = &w->agents;
	bool landing = false;
	for (int i = 0; i < w->landing_count && !landing; ++i)
		landing = w->landings[i].def.side == a->side[s] && in_rect(w->landings[i].def.target_min, w->landings[i].def.target_max, a->x[s], a->y[s]);
	if (!landing) return false;
	for (int r = 0; r < w->refuge_count; ++r)
		if (w->refuges[r].fort < 0 && w->refuges[r].def.side == a->side[s] &&
		    in_rect(w->refuges[r].def.target_min, w->refuges[r].def.target_max, a->x[s], a->y[s]))
			return false;
	return true;
}

/* Men of a side the boats took off: the boats count agents; a commander among them is
 * one man. */
static double by_sea(const rt_run *run, int side)
{
	const rt_world *w = run->world;
	int64_t n = 0, generals = 0;
	for (int i = 0; i < rt_world_boats_count(w); ++i) {
		rt_boats_view v;
		if (rt_world_get_boats(w, i, &v) && v.side == side) n += v.carried;
	}
	if (n == 0) return 0.0;
	const rt_agents *a = &w->agents;
	for (int s = 0; s < a->count; ++s)
		generals += a->side[s] == side && a->kind[s] == RT_KIND_COMMANDER && a->state[s] == RT_STATE_ESCAPED && commander_by_sea(w, s);
	return men_in(run, n, generals < n ? generals : n);
}

/* Whether the man in slot s is of the cohort (per agent id; NULL: everyone is). */
static bool in_cohort(const rt_run *run, const uint8_t *cohort, int s)
{
	const uint32_t id = run->world->agents.id[s];
	return !cohort || (id < run->initial_armour_size && cohort[id]);
}

/* A term in men; with a cohort, only its men. */
static double term_men(const rt_run *run, const rt_sc_term *t, const uint8_t *cohort)
{
	if (t->what == RT_MEASURE_ESCAPED_BY_SEA) return by_sea(run, t->side); /* sides only (scenario.c) */
	const rt_agents *a = &run->world->agents;
	double men = 0.0;
	for (int s = 0; s < a->count; ++s)
		if (in_cohort(run, cohort, s) && in_group(run, t, s) && counts(run, t, s)) men += men_of(run, s);
	return men;
}

/* The figure's measure now, in men; and its groups' initial men, and their free men
 * (in the field or sheltered) now, only those within its `from` place if it has one. A
 * man is counted once in those bases however many of the figure's terms name his group
 * (corps.x.dead and corps.x.captured are one group). A `from` figure counts its measure
 * among the men of its cohort alone; `take`, at its `since`, makes those free men in the
 * place its cohort first (the breakout from Xingshan: not the losses of the same corps'
 * men elsewhere, which made it more than 100 % in some runs). */
static void history_parts(const rt_run *run, const rt_sc_history *h, bool take, double *value, double *initial, double *free_men)
{
	*value = *initial = *free_men = 0.0;
	uint8_t *cohort = run->figure_cohort ? run->figure_cohort[h - run->scenario->history] : NULL;
	const rt_agents *a = &run->world->agents;
	for (int s = 0; s < a->count; ++s) {
		bool in = false;
		for (int k = 0; k < h->term_count && !in; ++k) in = in_group(run, &h->terms[k], s);
		if (!in) continue;
		*initial += men_of(run, s);
		if ((in_field(a->state[s]) || a->state[s] == RT_STATE_SHELTERED) && (h->from < 0 || at_place(run, h->from, s))) {
			*free_men += men_of(run, s);
			if (take && cohort && a->id[s] < run->initial_armour_size) cohort[a->id[s]] = 1;
		}
	}
	for (int k = 0; k < h->term_count; ++k) *value += term_men(run, &h->terms[k], cohort);
}

/* The figure as it stands now: its measure (grown since its `since`, if it has one), or
 * that as a percentage of its groups' initial men (of their free men at `since`). */
static double history_value(const rt_run *run, const rt_sc_history *h)
{
	double v, initial, free_men;
	history_parts(run, h, false, &v, &initial, &free_men);
	double base = initial;
	if (!isnan(h->since_s)) {
		const double *then = run->figure_since + 2 * (h - run->scenario->history);
		if (isnan(then[0])) return NAN;
		v -= then[0];
		base = then[1];
	}
	if (h->percent) return base > 0.0 ? 100.0 * v / base : NAN;
	return v;
}

void rt__run_take_figures(rt_run *run)
{
	const rt_scenario *sc = run->scenario;
	for (int i = 0; i < sc->history_count; ++i) {
		const rt_sc_history *h = &sc->history[i];
		if (!isnan(h->since_s) && isnan(run->figure_since[2 * i]) && run->world->time_s >= h->since_s - 1e-6) {
			double initial;
			history_parts(run, h, true, &run->figure_since[2 * i], &initial, &run->figure_since[2 * i + 1]);
		}
		if (!isnan(h->at_s) && isnan(run->figure_value[i]) && run->world->time_s >= h->at_s - 1e-6)
			run->figure_value[i] = history_value(run, h);
	}
}

/* Figure i: as it stood at its time (`at`; NAN if the run stopped before), else now. */
static double figure_value(const rt_run *run, int i)
{
	const rt_sc_history *h = &run->scenario->history[i];
	return isnan(h->at_s) ? history_value(run, h) : run->figure_value[i];
}

int rt_run_history_values(const rt_run *run, double *values, int capacity)
{
	if (!run) return 0;
	const rt_scenario *sc = run->scenario;
	for (int i = 0; i < sc->history_count && i < capacity; ++i) values[i] = figure_value(run, i);
	return sc->history_count;
}

/* The record's band widened by its grade's uncertainty (docs/scenario-format.md). */
static void record_band(const rt_sc_history *h, double *lo, double *hi)
{
	const double widen = h->grade[0] == 'A' ? 0.20 : h->grade[0] == 'B' ? 0.35 : 0.50;
	*lo = h->low * (1.0 - widen);
	*hi = h->high * (1.0 + widen);
}

/* ---- series and watch ------------------------------------------------------------------------ */
rt_status rt__run_record(rt_run *run, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	const size_t width = rt__series_width(sc->side_count);
	if ((run->series_rows + 1) * width > run->series_capacity) {
		size_t cap = run->series_capacity ? 2 * run->series_capacity : (size_t)width * 256;
		int32_t *d = rt__realloc(&run->allocator, run->series, run->series_capacity * sizeof(int32_t), cap * sizeof(int32_t));
		if (!d) return rt__fail(err, RT_ERR_NOMEM, "out of memory keeping the series");
		run->series = d;
		run->series_capacity = cap;
	}
	int32_t *row = run->series + run->series_rows * width;
	memset(row, 0, width * sizeof(int32_t));
	row[0] = (int32_t)floor(run->world->time_s + 0.5);
	const rt_agents *a = &run->world->agents;
	const int generals = sc->side_count * RT_STATE_COUNT; /* where the commanders' counts begin, after the agents' */
	for (int s = 0; s < a->count; ++s) {
		const int cell = 1 + a->side[s] * RT_STATE_COUNT + a->state[s];
		row[cell]++;
		if (a->kind[s] == RT_KIND_COMMANDER) row[generals + cell]++;
	}
	run->series_rows++;
	return RT_OK;
}

static rt_vec2 first_in_state(const rt_run *run, uint8_t state)
{
	const rt_agents *a = &run->world->agents;
	uint32_t best = UINT32_MAX;
	rt_vec2 p = { NAN, NAN };
	for (int s = 0; s < a->count; ++s)
		if (a->state[s] == state && a->id[s] < best) {
			best = a->id[s];
			p = (rt_vec2){ a->x[s], a->y[s] };
		}
	return p;
}

/* E2: where the man of lowest id stands who takes a light of his own side for the
 * enemy now (NaN if nobody does) */
static rt_vec2 first_friendly_alarm(const rt_run *run)
{
	const rt_world *w = run->world;
	const rt_agents *a = &w->agents;
	uint32_t best = UINT32_MAX;
	rt_vec2 p = { NAN, NAN };
	if (!w->torch_on) return p;
	for (int s = 0; s < a->count; ++s)
		if (a->alarm[s] >= 0 && rt__active(a->state[s]) && a->side[w->slot_of_id[a->alarm[s]]] == a->side[s] && a->id[s] < best) {
			best = a->id[s];
			p = (rt_vec2){ a->x[s], a->y[s] };
		}
	return p;
}

/* M8: whether one of corps c's guards came to safety with its commander, who stands at
 * `at`: sheltered or gone with him, or still on his feet within guarded_m of him. */
static bool guarded(const rt_run *run, int c, rt_vec2 at)
{
	const double guarded_m = 300.0;
	const rt_agents *a = &run->world->agents;
	for (int s = 0; s < a->count; ++s) {
		if (a->corps[s] != c || a->kind[s] != RT_KIND_GUARD) continue;
		const uint8_t st = a->state[s];
		const double d = hypot(a->x[s] - at.x, a->y[s] - at.y);
		if ((st == RT_STATE_SHELTERED || st == RT_STATE_ESCAPED || rt__active(st)) && d <= guarded_m) return true;
	}
	return false;
}

static rt_status seen(rt_run *run, int ph, rt_vec2 where, const char *who)
{
	if (run->seen[ph]) return RT_OK;
	run->seen[ph] = true;
	return rt__run_event(run, "first", who, where, phenomenon_id[ph], "first: %s", phenomenon_text[ph]);
}

/* E5: whether river or ford water (rt_map_layer_water_depth_m: not the sea) lies within
 * `within_m` of p, on the map's cells. */
static bool near_river(const rt_map *map, rt_vec2 p, double within_m)
{
	int nx, ny;
	double cell;
	rt_vec2 origin;
	rt_map_size(map, &nx, &ny, &cell, &origin);
	const float *depth = rt_map_layer_water_depth_m(map);
	if (!depth || cell <= 0.0) return false;
	const int r = (int)ceil(within_m / cell);
	const int cx = (int)floor((p.x - origin.x) / cell), cy = (int)floor((p.y - origin.y) / cell);
	for (int iy = cy - r; iy <= cy + r; ++iy)
		for (int ix = cx - r; ix <= cx + r; ++ix) {
			if (ix < 0 || iy < 0 || ix >= nx || iy >= ny) continue;
			const double dx = (ix + 0.5) * cell + origin.x - p.x, dy = (iy + 0.5) * cell + origin.y - p.y;
			if (dx * dx + dy * dy <= within_m * within_m && depth[(size_t)iy * (size_t)nx + (size_t)ix] > 0.0f) return true;
		}
	return false;
}

/* The phenomena a man shows on his own, the first man in agent order at the check:
 *   C1  a man in flight (routing, or marching off after his commander) whom the crowd holds
 *       to less than held_speed_share of the pace he wants (the crush's "pressed",
 *       docs/model.md section 14: about 3.7 men/m2 on Weidmann's curve);
 *   C4  a man in flight on foot, or any rider's horse, run out to nine tenths of the way
 *       from his run to the pace he keeps all day (rt__spent >= 0.9; section 15: the
 *       fatigue tends to the run-out point without reaching it, nearer it the longer the
 *       run: 24 minutes' run on foot, four hours' trot);
 *   M6  a man of a rearguard (the counter_charge order) engaged with the enemy;
 *   E5  a man on foot in flight standing because the enemy bars his way (the way barred,
 *       docs/model.md section 9: RT_CRUSH_STOOD) with river or ford water within the
 *       range he looks along his way (barred_range_m, 1 km): the flight stopped in sight
 *       of a crossing held. Of the men so standing, the first 64 in agent order are
 *       looked at each check (a disc of map cells round each), so that a flight barred
 *       far from any river costs the run little. */
static rt_status watch_men(rt_run *run)
{
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	const rt_agents *a = &w->agents;
	const double river_m = w->def.morale.barred_range_m;
	const bool e5 = !run->seen[RT_PH_E5] && w->map && river_m > 0.0;
	int found[4] = { -1, -1, -1, -1 }, looked = 0;
	for (int s = 0; s < a->count; ++s) {
		if (!rt__active(a->state[s])) continue;
		const bool flight = rt__in_flight(w, s);
		if (found[0] < 0 && flight && (a->crush[s] & RT_CRUSH_PRESSED)) found[0] = s;
		if (found[1] < 0 && (flight || a->mount[s]) && rt__spent(w, s) >= 0.9) found[1] = s;
		if (found[2] < 0 && a->stance[s] == RT_STANCE_REARGUARD && a->state[s] == RT_STATE_ENGAGED) found[2] = s;
		if (e5 && found[3] < 0 && looked < 64 && flight && (a->crush[s] & RT_CRUSH_STOOD)) {
			looked++;
			if (near_river(w->map, (rt_vec2){ a->x[s], a->y[s] }, river_m)) found[3] = s;
		}
	}
	static const int ph[4] = { RT_PH_C1, RT_PH_C4, RT_PH_M6, RT_PH_E5 };
	rt_status st = RT_OK;
	for (int k = 0; k < 4 && st == RT_OK; ++k) {
		const int s = found[k];
		if (s < 0 || run->seen[ph[k]]) continue;
		/* who: his unit, or for a commander or a guard (of no unit) his corps */
		const char *who = a->unit[s] < (uint32_t)sc->unit_count ? sc->units[a->unit[s]].id :
				  a->corps[s] >= 0 && a->corps[s] < sc->corps_count ? sc->corps[a->corps[s]].id : "";
		st = seen(run, ph[k], (rt_vec2){ a->x[s], a->y[s] }, who);
	}
	return st;
}

/* M5 ("车营兵全军覆没，副将满库战死…其余尽数战死", seed 000): the first unit of which half
 * the men have been killed fighting (dead in combat: not drowned, trampled or burned,
 * not taken) while its commander is still at his post (he has not left without orders)
 * and, of its men still on their feet, as many stand ready to fight as are in flight:
 * a unit that stood and was cut down where it stood, not one that ran. Where: the mean
 * place of its dead. The few hundred who get away with the banner are not part of the
 * rule (the scenario's history figure sets them beside the record). */
static rt_status watch_stand(rt_run *run)
{
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	const rt_agents *a = &w->agents;
	const int U = sc->unit_count;
	int *count = rt__calloc(&run->allocator, 4 * (size_t)U + 1, sizeof *count); /* men, killed, ready, in flight */
	double *at = rt__calloc(&run->allocator, 2 * (size_t)U + 1, sizeof *at);
	rt_status st = count && at ? RT_OK : RT_ERR_NOMEM;
	for (int s = 0; s < a->count && st == RT_OK; ++s) {
		const uint32_t u = a->unit[s];
		if (u >= (uint32_t)U) continue;
		int *c = count + 4 * (size_t)u;
		c[0]++;
		if (a->state[s] == RT_STATE_DEAD_COMBAT) {
			c[1]++;
			at[2 * u] += a->x[s];
			at[2 * u + 1] += a->y[s];
		}
		c[2] += rt__active(a->state[s]) && rt__ready_to_fight(w, s);
		c[3] += rt__active(a->state[s]) && rt__in_flight(w, s);
	}
	for (int u = 0; u < U && st == RT_OK; ++u) {
		const int *c = count + 4 * (size_t)u;
		if (c[0] == 0 || 2 * c[1] < c[0] || c[2] < c[3] || w->corps[sc->units[u].corps].left) continue;
		st = seen(run, RT_PH_M5, (rt_vec2){ at[2 * u] / c[1], at[2 * u + 1] / c[1] }, sc->units[u].id);
		break;
	}
	rt__free(&run->allocator, count, (4 * (size_t)U + 1) * sizeof *count);
	rt__free(&run->allocator, at, (2 * (size_t)U + 1) * sizeof *at);
	return st;
}

/* The units of a side sent on a march order (not an attack) to a place they did not start
 * in, that have come: half their men standing in the place (of those not in flight),
 * still on that order or holding or containing there since (run.c: unit_sent_to).
 *
 * Q3 ("岳托…放弃追杀明军，改从狼奔的明军人流中杀开一条口子…往小凌河跑…抢先一步的岳托在明军
 * 前头到达了小凌河", seed 000): such a unit has come while at least 100 men of another side in
 * flight still have its place ahead of them on their way to their refuge (the place is
 * nearer their refuge than they are, and nearer them than their refuge is) and more of
 * them still have it ahead than have got past it: the race for the crossing won. Where:
 * the place; who: the unit.
 *
 * Q4 ("他们和东面的两黄旗相互呼应，形成犄角之势，若两军会合，便将牢牢锁死明军向南逃窜的缺口",
 * seed 000): two such units of different corps of one side have come to places at most
 * 6 km apart, and at least 100 men of another side in flight stand within half that
 * distance and 500 m of the midpoint between the places, with the two places seen from
 * their centre more than 120° apart: two columns closing the gap from either side. Where:
 * the men in flight's centre; who: the first unit (in the scenario's order).
 *
 * Q5 ("岳托也是大意…结果吴襄和宋伟趁乱渡过河了", seed 000): such a unit fighting — a tenth of
 * its men standing in the place have an enemy within CLOSE_M (30 m, the reach of the local
 * picture, docs/model.md section 9) — marks each man of another side in flight within
 * SLIP_M (1 km) of the place who has it ahead of him (run.slip_mark, the first such unit
 * only); at least 100 men so marked by one unit, still in flight within SLIP_M of its place,
 * have got past it: the block fought one part of the flight and another slipped by. Where:
 * the place; who: the unit. Men who were past it before it fought are not marked.
 *
 * Only units on such an order are counted (the first 64 come, in the scenario's order), and
 * the flight only when one of them has come. A unit set at a lat/lon did not start in a
 * place. */
enum { COME_MAX = 64 };
#define SLIP_M 1000.0
#define CLOSE_M 30.0

/* The place man s makes for in flight: his commander's party (the commander and his
 * guards) their corps' refuge, the rest their men's refuge where the corps sets one (a
 * general who abandons his men, docs/model.md section 10), else the corps' refuge; -1
 * when he has none. */
static int refuge_place(const rt_run *run, int s)
{
	const rt_scenario *sc = run->scenario;
	const rt_agents *a = &run->world->agents;
	const int c = a->corps[s];
	if (c < 0 || c >= sc->corps_count) return -1;
	const bool party = a->kind[s] == RT_KIND_COMMANDER || a->stance[s] == RT_STANCE_GUARD;
	return sc->corps[c].ranks_refuge >= 0 && !party ? sc->corps[c].ranks_refuge : sc->corps[c].refuge;
}

/* The men of another side than `side` in flight, in men: ahead of `at` on their way home
 * and past it (Q3), or within `radius` of `mid` (Q4: their count and centre). */
static void flight_about(const rt_run *run, int side, rt_vec2 at, double *ahead, double *past, rt_vec2 mid, double radius,
			 double *near, rt_vec2 *centre)
{
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	const rt_agents *a = &w->agents;
	double cx = 0.0, cy = 0.0;
	*near = 0.0;
	if (ahead) *ahead = *past = 0.0;
	for (int s = 0; s < a->count; ++s) {
		if ((int)a->side[s] == side || !rt__active(a->state[s]) || !rt__in_flight(w, s)) continue;
		const double m = men_of(run, s);
		if (radius > 0.0 && hypot(a->x[s] - mid.x, a->y[s] - mid.y) <= radius) {
			*near += m;
			cx += m * a->x[s];
			cy += m * a->y[s];
		}
		if (!ahead) continue;
		const int r = refuge_place(run, s);
		if (r < 0) continue;
		const rt_vec2 home = sc->places[r].centre;
		const double to_home = hypot(home.x - a->x[s], home.y - a->y[s]), place_home = hypot(home.x - at.x, home.y - at.y);
		if (place_home < to_home && hypot(at.x - a->x[s], at.y - a->y[s]) < to_home) *ahead += m;
		else if (to_home <= place_home) *past += m;
	}
	if (*near > 0.0) *centre = (rt_vec2){ cx / *near, cy / *near };
}

/* Q5: for the come unit u at `at` (fighting: `busy`), marks the men in flight who have its
 * place ahead of them and returns those marked by it who have got past it, in men. */
static double slipped_past(rt_run *run, int u, rt_vec2 at, bool busy)
{
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	const rt_agents *a = &w->agents;
	const int side = sc->corps[sc->units[u].corps].side;
	double slipped = 0.0;
	for (int s = 0; s < a->count; ++s) {
		if ((int)a->side[s] == side || !rt__active(a->state[s]) || !rt__in_flight(w, s)) continue;
		if (a->id[s] >= run->initial_armour_size || hypot(a->x[s] - at.x, a->y[s] - at.y) > SLIP_M) continue;
		const int r = refuge_place(run, s);
		if (r < 0) continue;
		const rt_vec2 home = sc->places[r].centre;
		const double to_home = hypot(home.x - a->x[s], home.y - a->y[s]), place_home = hypot(home.x - at.x, home.y - at.y);
		int32_t *mark = &run->slip_mark[a->id[s]];
		if (busy && *mark < 0 && place_home < to_home && hypot(at.x - a->x[s], at.y - a->y[s]) < to_home) *mark = u;
		else if (*mark == u && to_home <= place_home) slipped += men_of(run, s);
	}
	return slipped;
}

static rt_status watch_columns(rt_run *run)
{
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	const rt_agents *a = &w->agents;
	const int U = sc->unit_count;
	bool any = false;
	for (int u = 0; u < U && !any; ++u) any = run->unit_sent_to[u] >= 0 && sc->units[u].place != run->unit_sent_to[u];
	if (!any) return RT_OK;
	/* standing, of them in the place, of those with an enemy within CLOSE_M */
	int *count = rt__calloc(&run->allocator, 3 * (size_t)U + 1, sizeof *count);
	if (!count) return RT_ERR_NOMEM;
	for (int s = 0; s < a->count; ++s) {
		const uint32_t u = a->unit[s];
		if (u >= (uint32_t)U || !rt__active(a->state[s]) || rt__in_flight(w, s)) continue;
		const int to = run->unit_sent_to[u];
		if (to < 0 || sc->units[u].place == to) continue;
		const rt_sc_place *p = &sc->places[to];
		const bool in = a->x[s] >= p->min.x && a->x[s] <= p->max.x && a->y[s] >= p->min.y && a->y[s] <= p->max.y;
		count[3 * u]++;
		count[3 * u + 1] += in;
		count[3 * u + 2] += in && a->enemy_dist[s] <= CLOSE_M;
	}
	int come[COME_MAX], n = 0;
	bool busy[COME_MAX];
	for (int u = 0; u < U && n < COME_MAX; ++u)
		if (count[3 * u] > 0 && 2 * count[3 * u + 1] >= count[3 * u]) {
			busy[n] = 10 * count[3 * u + 2] >= count[3 * u + 1];
			come[n++] = u;
		}
	rt__free(&run->allocator, count, (3 * (size_t)U + 1) * sizeof *count);
	rt_status st = RT_OK;
	for (int i = 0; i < n && st == RT_OK && !run->seen[RT_PH_Q3]; ++i) {
		const int u = come[i];
		const rt_vec2 at = sc->places[run->unit_sent_to[u]].centre;
		double ahead, past, near;
		rt_vec2 centre;
		flight_about(run, sc->corps[sc->units[u].corps].side, at, &ahead, &past, at, 0.0, &near, &centre);
		if (ahead >= 100.0 && ahead > past) st = seen(run, RT_PH_Q3, at, sc->units[u].id);
	}
	for (int i = 0; i < n && st == RT_OK && !run->seen[RT_PH_Q5]; ++i) {
		const rt_vec2 at = sc->places[run->unit_sent_to[come[i]]].centre;
		if (slipped_past(run, come[i], at, busy[i]) >= 100.0) st = seen(run, RT_PH_Q5, at, sc->units[come[i]].id);
	}
	for (int i = 0; i < n && st == RT_OK && !run->seen[RT_PH_Q4]; ++i)
		for (int j = i + 1; j < n && st == RT_OK && !run->seen[RT_PH_Q4]; ++j) {
			const int u = come[i], v = come[j];
			const int side = sc->corps[sc->units[u].corps].side;
			if (sc->units[u].corps == sc->units[v].corps || sc->corps[sc->units[v].corps].side != side) continue;
			const rt_vec2 p = sc->places[run->unit_sent_to[u]].centre, q = sc->places[run->unit_sent_to[v]].centre;
			const double apart = hypot(q.x - p.x, q.y - p.y);
			if (apart > 6000.0 || apart <= 0.0) continue;
			const rt_vec2 mid = { 0.5 * (p.x + q.x), 0.5 * (p.y + q.y) };
			double near = 0.0;
			rt_vec2 c = mid;
			flight_about(run, side, mid, NULL, NULL, mid, 0.5 * apart + 500.0, &near, &c);
			if (near < 100.0) continue;
			const double ax = p.x - c.x, ay = p.y - c.y, bx = q.x - c.x, by = q.y - c.y;
			const double la = hypot(ax, ay), lb = hypot(bx, by);
			if (la <= 0.0 || lb <= 0.0 || (ax * bx + ay * by) / (la * lb) > -0.5) continue; /* cos 120° */
			st = seen(run, RT_PH_Q4, c, sc->units[u].id);
		}
	return st;
}

/* E6 ("幸运冲破重围的明军沿着清军没有挖壕的海边南奔", seed 003: the way out is where no
 * trench was dug): a flight going round the end of a trench. At each end of each trench
 * line of the map (each part's first and last point), the men in flight (rt__in_flight)
 * within `end_m` (300 m: a man is known for an enemy that far by day, the scale of the gap
 * a flight files through) of it whose refuge (his corps', or his men's refuge, as for Q3)
 * lies on the other side of the line through the trench's last segment there: at least
 * `end_men` (100) of them. Where: the trench's end; who: the trench. A check looks at every
 * man for each end while E6 is unseen and a map with trenches is set. */
static rt_status watch_trench_ends(rt_run *run)
{
	const double end_m = 300.0, end_men = 100.0;
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	const rt_agents *a = &w->agents;
	if (!w->map) return RT_OK;
	const int features = rt_map_feature_count(w->map);
	for (int f = 0; f < features; ++f) {
		rt_map_feature_view fv;
		if (!rt_map_feature_info(w->map, f, &fv) || fv.kind != RT_MAP_TRENCH || fv.area) continue;
		for (int p = 0; p < fv.part_count; ++p) {
			const int first = fv.part_start[p], last = fv.part_start[p + 1] - 1;
			if (last <= first) continue;
			for (int e = 0; e < 2; ++e) {
				const rt_vec2 end = fv.points[e ? last : first], prev = fv.points[e ? last - 1 : first + 1];
				const double dx = end.x - prev.x, dy = end.y - prev.y;
				double men = 0.0;
				for (int s = 0; s < a->count; ++s) {
					if (!rt__active(a->state[s]) || !rt__in_flight(w, s)) continue;
					if (hypot(a->x[s] - end.x, a->y[s] - end.y) > end_m) continue;
					const int r = refuge_place(run, s);
					if (r < 0) continue;
					const rt_vec2 home = sc->places[r].centre;
					const double side_man = dx * (a->y[s] - prev.y) - dy * (a->x[s] - prev.x);
					const double side_home = dx * (home.y - prev.y) - dy * (home.x - prev.x);
					if (side_man * side_home < 0.0) men += men_of(run, s);
				}
				if (men >= end_men) return seen(run, RT_PH_E6, end, fv.id ? fv.id : "");
			}
		}
	}
	return RT_OK;
}

/* Q6 ("这时候清军都散出去追击明军了，皇太极的大营空虚至极…他很快就冲到了皇太极的营门前",
 * seed 004; "此时清军大部都在松杏之间追杀明军…直杀入皇太极的御营", seed 003): a raid comes
 * upon a commander whose side has its men out after the enemy. The first commander at his
 * post (he has not left without orders, and is on his feet and not in flight) whose side
 * has men sent after a flight (Q2) or on a siege ring (Q9) at the check, with at least
 * `raid_men` (a band: the way barred's 10) of the enemy standing ready to fight within
 * `raid_m` of him (300 m: a man is known for an enemy that far by day, sense_range_m),
 * more of them than of his own side ready to fight there (his camp stripped). Where: the
 * commander. One pass over the men a check for the commanders who qualify, while Q6 is
 * unseen. */
static rt_status watch_raid(rt_run *run)
{
	const double raid_m = 300.0, raid_men = 10.0;
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	const rt_agents *a = &w->agents;
	bool out[RT_SCENARIO_MAX_SIDES] = { false };
	bool any = false;
	for (int c = 0; c < sc->corps_count; ++c)
		if (w->corps[c].pursuers > 0 || w->corps[c].besiegers > 0) out[sc->corps[c].side] = any = true;
	if (!any) return RT_OK;
	enum { MAX_WATCHED = 64 };
	int who[MAX_WATCHED], n = 0;
	rt_vec2 at[MAX_WATCHED];
	double own[MAX_WATCHED], enemy[MAX_WATCHED];
	for (int c = 0; c < sc->corps_count && n < MAX_WATCHED; ++c) {
		if (!out[sc->corps[c].side] || w->corps[c].left) continue;
		const int slot = (int)w->slot_of_id[run->commander[c]];
		if (!rt__active(a->state[slot]) || a->state[slot] == RT_STATE_SURRENDERED || rt__in_flight(w, slot)) continue;
		who[n] = c;
		at[n] = (rt_vec2){ a->x[slot], a->y[slot] };
		own[n] = enemy[n] = 0.0;
		n++;
	}
	if (n == 0) return RT_OK;
	for (int s = 0; s < a->count; ++s) {
		if (!rt__ready_to_fight(w, s)) continue;
		for (int i = 0; i < n; ++i) {
			const double dx = a->x[s] - at[i].x, dy = a->y[s] - at[i].y;
			if (dx * dx + dy * dy > raid_m * raid_m) continue;
			if ((int)a->side[s] == sc->corps[who[i]].side) own[i] += men_of(run, s);
			else enemy[i] += men_of(run, s);
		}
	}
	for (int i = 0; i < n; ++i)
		if (enemy[i] >= raid_men && enemy[i] > own[i]) return seen(run, RT_PH_Q6, at[i], sc->corps[who[i]].id);
	return RT_OK;
}

static void men_text(double men, char *buf, size_t size);

/* M4, M5: a fallen commander's men come under his superior's banner (command.c,
 * "The banner passes up"): told once per corps, at the first check that finds living men
 * of its units (his guards too) in another corps — how many, under whom, where they
 * stand and whether they go in order (the steady withdrawing) or in flight. */
static rt_status watch_banners(rt_run *run)
{
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	const rt_agents *a = &w->agents;
	bool any = false;
	for (int c = 0; c < sc->corps_count && !any; ++c) any = !run->banner_told[c] && sc->corps[c].superior >= 0;
	if (!any) return RT_OK;
	int men[RT_SCENARIO_MAX_CORPS], steady[RT_SCENARIO_MAX_CORPS], to[RT_SCENARIO_MAX_CORPS];
	double xy[2 * RT_SCENARIO_MAX_CORPS];
	for (int c = 0; c < sc->corps_count; ++c) {
		men[c] = steady[c] = 0;
		to[c] = -1;
		xy[2 * c] = xy[2 * c + 1] = 0.0;
	}
	for (int k = 0; k < a->count; ++k) {
		const int u = (int)a->unit[k];
		const int c = u < sc->unit_count ? sc->units[u].corps : u - sc->unit_count; /* a corps' own unit after the scenario's */
		if (c < 0 || c >= sc->corps_count || run->banner_told[c] || a->corps[k] == c || a->corps[k] < 0 || !rt__active(a->state[k]) ||
		    a->state[k] == RT_STATE_SURRENDERED)
			continue;
		men[c]++;
		steady[c] += a->stance[k] == RT_STANCE_WITHDRAW && a->state[k] != RT_STATE_ROUTING;
		to[c] = a->corps[k];
		xy[2 * c] += a->x[k];
		xy[2 * c + 1] += a->y[k];
	}
	rt_status s = RT_OK;
	for (int c = 0; c < sc->corps_count && s == RT_OK; ++c) {
		if (men[c] == 0) continue;
		run->banner_told[c] = true;
		char count[32], order[32];
		men_text(men[c] * run->scale, count, sizeof count); /* no commander among them: he fell */
		men_text(steady[c] * run->scale, order, sizeof order);
		const rt_vec2 at = { xy[2 * c] / men[c], xy[2 * c + 1] / men[c] };
		s = rt__run_event(run, "banner_passed", sc->corps[c].id, at, "", "%s's men come under %s (%s): %s, %s of them in order",
				  sc->corps[c].name, sc->corps[to[c]].name, sc->corps[to[c]].id, count, order);
	}
	return s;
}

/* Q10 ("好几次，多尔衮离前方的张春不到一百多步距离，却每每被其他方向奔逃过来的明军搅乱"):
 * a man hunting a commander (stance hunt) comes within HUNT_CLOSE_M of him while he is at
 * large; the chase through the crowd has failed when, the commander still not taken (at
 * large, in a fort or away), either HUNT_HELD_S or more later the nearest hunter is within
 * HUNT_CLOSE_M of him with HUNT_CROWD_MEN of the commander's side at
 * large about that hunter (held off in the crowd), or no hunter after him is within twice
 * HUNT_CLOSE_M (lost). Told once per commander, at his place then; a commander taken or
 * fallen first is not watched again. O(n) a check while hunts go on; nothing without. */
#define HUNT_CLOSE_M 150.0   /* "不到一百多步": a hundred-odd paces of 1.5 m (E) */
#define HUNT_HELD_S 60.0     /* a minute at that distance without taking him (E) */
#define HUNT_CROWD_MEN 100.0 /* a crowd: as many as Xue Dahu's party ("百十个士兵", E) */
static rt_status watch_hunts(rt_run *run)
{
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	const rt_agents *a = &w->agents;
	double nearest[RT_SCENARIO_MAX_CORPS];
	int hunter[RT_SCENARIO_MAX_CORPS];
	bool any = false;
	for (int c = 0; c < sc->corps_count; ++c) {
		nearest[c] = INFINITY;
		hunter[c] = -1;
	}
	/* the nearest steady man hunting each corps' commander (his quarry: the commander) */
	for (int k = 0; k < a->count; ++k) {
		if (a->stance[k] != RT_STANCE_HUNT || a->quarry[k] < 0 || !rt__at_large(a->state[k]) || a->state[k] == RT_STATE_ROUTING)
			continue;
		const int q = (int)w->slot_of_id[a->quarry[k]];
		const int c = a->corps[q];
		if (c < 0 || c >= sc->corps_count || run->commander[c] != a->quarry[k] || run->hunt_told[c]) continue;
		const double d = hypot(a->x[k] - a->x[q], a->y[k] - a->y[q]);
		if (d < nearest[c]) {
			nearest[c] = d;
			hunter[c] = k;
		}
		any = true;
	}
	rt_status s = RT_OK;
	for (int c = 0; c < sc->corps_count && s == RT_OK; ++c) {
		if (run->hunt_told[c] || (!any && run->hunt_close_s[c] < 0.0)) continue;
		const int q = (int)w->slot_of_id[run->commander[c]];
		const uint8_t qst = a->state[q];
		if (run->hunt_close_s[c] < 0.0) {
			if (nearest[c] <= HUNT_CLOSE_M && rt__at_large(qst)) run->hunt_close_s[c] = w->time_s;
			continue;
		}
		if (!(rt__at_large(qst) || qst == RT_STATE_SHELTERED || qst == RT_STATE_ESCAPED)) {
			run->hunt_told[c] = true; /* taken or fallen: the hunt did not fail */
			continue;
		}
		const bool lost = !(nearest[c] <= 2.0 * HUNT_CLOSE_M);
		bool held = false;
		if (!lost && nearest[c] <= HUNT_CLOSE_M && w->time_s - run->hunt_close_s[c] >= HUNT_HELD_S) {
			const int h = hunter[c];
			double crowd = 0.0;
			for (int k = 0; k < a->count; ++k) {
				if (k == q || a->side[k] != a->side[q] || !rt__at_large(a->state[k])) continue;
				const double dx = a->x[k] - a->x[h], dy = a->y[k] - a->y[h];
				if (dx * dx + dy * dy <= HUNT_CLOSE_M * HUNT_CLOSE_M) crowd += run->scale;
			}
			held = crowd >= HUNT_CROWD_MEN;
		}
		if (!lost && !held) continue;
		run->hunt_told[c] = true;
		const rt_vec2 at = { a->x[q], a->y[q] };
		char when[40];
		rt_scenario_format_time(sc, run->hunt_close_s[c], when, sizeof when);
		const char *clock = strchr(when, 'T') ? strchr(when, 'T') + 1 : when;
		s = lost ? rt__run_event(run, "hunt_lost", sc->corps[c].id, at, "Q10",
					 "the hunt loses %s (%s): within %.0f m of him at %s, now none of it within %.0f m",
					 sc->corps[c].name, sc->corps[c].id, HUNT_CLOSE_M, clock, 2.0 * HUNT_CLOSE_M)
			 : rt__run_event(run, "hunt_held", sc->corps[c].id, at, "Q10",
					 "the crowd holds the hunt off %s (%s): within %.0f m of him since %s, and he is not taken",
					 sc->corps[c].name, sc->corps[c].id, HUNT_CLOSE_M, clock);
		if (s == RT_OK) s = seen(run, RT_PH_Q10, at, sc->corps[c].id);
	}
	return s;
}

rt_status rt__run_watch(rt_run *run)
{
	const rt_scenario *sc = run->scenario;
	rt_world *w = run->world;
	const rt_agents *a = &w->agents;
	rt_status s = RT_OK;
	char when[40];
	/* commanders: leaving, reaching a fort, falling */
	int gone[RT_SCENARIO_MAX_SIDES] = { 0 };
	for (int c = 0; c < sc->corps_count; ++c) gone[sc->corps[c].side] += run->commander_left[c];
	for (int c = 0; c < sc->corps_count && s == RT_OK; ++c) {
		const rt_sc_corps *k = &sc->corps[c];
		const int slot = (int)w->slot_of_id[run->commander[c]];
		const rt_vec2 at = { a->x[slot], a->y[slot] };
		if (w->corps[c].left && !run->commander_left[c]) {
			run->commander_left[c] = true;
			rt_scenario_format_time(sc, w->corps[c].left_at_s, when, sizeof when);
			s = rt__run_event(run, "commander_left", k->id, at, "", "%s (%s) leaves without orders", k->name, k->id);
			if (s == RT_OK && gone[k->side] > 0) s = seen(run, RT_PH_M2, at, k->id);
			if (s == RT_OK && k->cut_off) s = seen(run, RT_PH_M3, at, k->id);
			if (s == RT_OK && k->hunger > 0.0) s = seen(run, RT_PH_M9, at, k->id);
			gone[k->side]++;
		}
		const uint8_t st = a->state[slot];
		if (st != run->commander_state[c] && s == RT_OK) {
			if (st == RT_STATE_SHELTERED) {
				const int p = shelter_place(run, at.x, at.y);
				run->reached_place[c] = p;
				run->reached_at_s[c] = w->time_s;
				s = rt__run_event(run, "commander_reached", k->id, at, "Q9", "%s reaches %s", k->name,
						  p >= 0 ? sc->places[p].id : "a fort");
				if (s == RT_OK && guarded(run, c, at)) s = seen(run, RT_PH_M8, at, k->id);
			} else if (st == RT_STATE_ESCAPED) {
				s = rt__run_event(run, "commander_escaped", k->id, at, "", "%s gets away", k->name);
				if (s == RT_OK && guarded(run, c, at)) s = seen(run, RT_PH_M8, at, k->id);
			} else if ((!rt__active(st) || st == RT_STATE_SURRENDERED) && run->commander_state[c] != RT_STATE_SURRENDERED) {
				/* kneeling, he has fallen (command.c): told once, when he knelt or fell */
				s = rt__run_event(run, "commander_fell", k->id, at, "", "%s is %s", k->name, rt_state_name((rt_state)st));
			} else if (st == RT_STATE_ROUTING && run->commander_state[c] != RT_STATE_ROUTING) {
				s = rt__run_event(run, "commander_routing", k->id, at, "", "%s is swept into the flight", k->name);
			}
			run->commander_state[c] = st;
		}
		if (s == RT_OK && w->corps[c].carrier >= 0) s = seen(run, RT_PH_C6, at, k->id);
	}
	if (s == RT_OK) s = watch_banners(run);
	if (s == RT_OK) s = watch_hunts(run);
	/* units breaking: half their men routing, taken or dead */
	for (int u = 0; u < sc->unit_count && s == RT_OK; ++u) {
		if (run->unit_routed[u]) continue;
		int men = 0, broken = 0;
		double x = 0.0, y = 0.0;
		for (int k = 0; k < a->count; ++k) {
			if ((int)a->unit[k] != u) continue;
			men++;
			const uint8_t st = a->state[k];
			if (st == RT_STATE_ROUTING || is_lost(st)) {
				broken++;
				x += a->x[k];
				y += a->y[k];
			}
		}
		if (men > 0 && 2 * broken >= men) {
			const rt_vec2 centre = { x / broken, y / broken };
			/* M1: the first unit of its side to break is green, and the side has men who
			 * are not ("太平兵" against the seasoned) */
			const int side = sc->corps[sc->units[u].corps].side;
			bool first = true, seasoned = false;
			for (int v = 0; v < sc->unit_count; ++v) {
				if (v == u || sc->corps[sc->units[v].corps].side != side) continue;
				first = first && !run->unit_routed[v];
				seasoned = seasoned || sc->units[v].experience != RT_EXPERIENCE_GREEN;
			}
			run->unit_routed[u] = true;
			s = rt__run_event(run, "unit_broken", sc->units[u].id, centre, "",
					  "%s breaks (%s, %s)", sc->units[u].id, rt_kind_name(sc->units[u].kind),
					  sc->units[u].experience == RT_EXPERIENCE_GREEN ? "green" :
					  sc->units[u].experience == RT_EXPERIENCE_VETERAN ? "veteran" : "trained");
			if (s == RT_OK && first && seasoned && sc->units[u].experience == RT_EXPERIENCE_GREEN)
				s = seen(run, RT_PH_M1, centre, sc->units[u].id);
		}
	}
	/* first occurrences */
	if (s == RT_OK && !(run->seen[RT_PH_C1] && run->seen[RT_PH_C4] && run->seen[RT_PH_M6] && run->seen[RT_PH_E5])) s = watch_men(run);
	if (s == RT_OK && !run->seen[RT_PH_M5]) s = watch_stand(run);
	if (s == RT_OK && !(run->seen[RT_PH_Q3] && run->seen[RT_PH_Q4])) s = watch_columns(run);
	if (s == RT_OK && !run->seen[RT_PH_Q6]) s = watch_raid(run);
	if (s == RT_OK && !run->seen[RT_PH_E6]) s = watch_trench_ends(run);
	rt_world_stats st;
	rt_world_get_stats(w, &st);
	if (s == RT_OK && st.by_state[RT_STATE_DEAD_TRAMPLED] > 0) s = seen(run, RT_PH_C2, first_in_state(run, RT_STATE_DEAD_TRAMPLED), "");
	if (s == RT_OK && st.armour_dropped > 0) s = seen(run, RT_PH_C3, first_in_state(run, RT_STATE_ROUTING), "");
	if (s == RT_OK && st.knelt > 0) s = seen(run, RT_PH_C5, first_in_state(run, RT_STATE_SURRENDERED), "");
	if (s == RT_OK && st.drowned > 0) s = seen(run, RT_PH_E3, first_in_state(run, RT_STATE_DEAD_DROWNED), "");
	if (s == RT_OK && st.burned > 0) s = seen(run, RT_PH_E4, first_in_state(run, RT_STATE_DEAD_BURNED), "");
	if (s == RT_OK && st.desperate > 0) s = seen(run, RT_PH_M7, first_in_state(run, RT_STATE_DESPERATE), "");
	if (s == RT_OK && st.rallied > 0) s = seen(run, RT_PH_M4, (rt_vec2){ NAN, NAN }, "");
	if (s == RT_OK && st.boarded > 0 && !run->seen[RT_PH_E7]) {
		rt_vec2 where = { NAN, NAN };
		for (int p = 0, k = 0; p < sc->place_count && !isfinite(where.x); ++p) { /* landings are added in place order (run.c) */
			if (!sc->places[p].boats) continue;
			rt_boats_view bv;
			if (rt_world_get_boats(w, k++, &bv) && bv.carried > 0) where = sc->places[p].centre;
		}
		s = seen(run, RT_PH_E7, where, "");
	}
	if (s == RT_OK && st.torch_alarms > 0 && !run->seen[RT_PH_E2]) {
		const rt_vec2 where = first_friendly_alarm(run);
		if (!isnan(where.x)) s = seen(run, RT_PH_E2, where, "");
	}
	if (s == RT_OK && st.by_state[RT_STATE_SHELTERED] > run->sheltered_at_start && run->sheltered_at_start >= 0)
		s = seen(run, RT_PH_Q9, (rt_vec2){ NAN, NAN }, "");
	if (s == RT_OK && !run->seen[RT_PH_Q2])
		for (int c = 0; c < sc->corps_count; ++c)
			if (w->corps[c].pursuers > 0) {
				s = seen(run, RT_PH_Q2, (rt_vec2){ NAN, NAN }, sc->corps[c].id);
				break;
			}
	rt_environment_state env;
	rt_world_get_environment(w, &env);
	if (s == RT_OK && env.set && env.illuminance_lux < 0.01 && st.by_state[RT_STATE_ROUTING] > 0)
		s = seen(run, RT_PH_E1, first_in_state(run, RT_STATE_ROUTING), "");
	/* Q7 ("探马不断进来汇报明军的动态和进止", seed 004): a corps sends men after a flight in the
	 * dark (under 0.01 lux, E1's), known to it by what its men hear and the torches they see
	 * (docs/model.md section 10, "What is heard"): the night's orders follow the reports */
	if (s == RT_OK && !run->seen[RT_PH_Q7] && env.set && env.illuminance_lux < 0.01)
		for (int c = 0; c < sc->corps_count; ++c)
			if (w->corps[c].pursuers > 0) {
				s = seen(run, RT_PH_Q7, (rt_vec2){ NAN, NAN }, sc->corps[c].id);
				break;
			}
	/* Q8 ("松锦八总兵分了八个路线逃跑，一时间清军都不知道该追谁了", seed 004): a corps'
	 * pursuit has hesitated over a flight split into RT_MANY_ROUTES routes or more
	 * (docs/model.md section 10, "The flight splits"; its last hesitation, kept after it
	 * ends, so that one shorter than a check is not missed), where its commander is */
	if (s == RT_OK && !run->seen[RT_PH_Q8])
		for (int c = 0; c < sc->corps_count; ++c) {
			const rt_corps *k = &w->corps[c];
			if (k->hesitant_since_s < 0.0 || k->routes_weighed < RT_MANY_ROUTES) continue;
			s = seen(run, RT_PH_Q8, rt__commander_at(w, c), sc->corps[c].id);
			break;
		}
	/* high water: the level at the last check was above those either side of it */
	if (env.set && s == RT_OK) {
		if (run->tide_samples >= 2 && run->tide_prev_m > run->tide_prev2_m && run->tide_prev_m >= env.sea_level_m)
			s = rt__run_event(run, "tide_peak", "", (rt_vec2){ NAN, NAN }, "", "high water: sea level %.2f m",
					  run->tide_prev_m);
		if (s == RT_OK && run->event_count > 0 && strcmp(run->events[run->event_count - 1].type, "tide_peak") == 0 &&
		    run->events[run->event_count - 1].time_s == w->time_s)
			run->events[run->event_count - 1].time_s = w->time_s - 10.0; /* the peak was at the previous check */
		run->tide_prev2_m = run->tide_prev_m;
		run->tide_prev_m = env.sea_level_m;
		run->tide_samples++;
	}
	return s;
}

/* ---- key moments ---------------------------------------------------------------------------- */
enum { KEY_NONE = 1000 };

/* How much a reader wants a picture of the event (lower first; KEY_NONE: not at all),
 * given how many of its kind came before it (nth, from 0). scenario.h says why. */
static int key_rank(const rt_run_event *e, int nth)
{
	const char *t = e->type;
	if (strcmp(t, "commander_left") == 0) return nth == 0 ? 1 : nth == 1 ? 8 : 13;
	if (strcmp(t, "rout_peak") == 0) return 2;
	if (strcmp(t, "high_water") == 0) return 3;
	if (strcmp(t, "first") == 0 && strcmp(e->phenomenon, "E3") == 0) return 4;
	if (strcmp(t, "drowning_peak") == 0) return 5;
	if (strcmp(t, "ambush") == 0) return nth == 0 ? 6 : 15;
	if (strcmp(t, "first") == 0 && strcmp(e->phenomenon, "E4") == 0) return 7;
	if (strcmp(t, "commander_fell") == 0 || strcmp(t, "commander_routing") == 0) return nth == 0 ? 9 : 14;
	if (strcmp(t, "commander_reached") == 0) return nth == 0 ? 10 : 14;
	if (strcmp(t, "first") == 0) return 11;
	if (strcmp(t, "unit_broken") == 0) return nth == 0 ? 12 : KEY_NONE;
	if (strcmp(t, "commander_escaped") == 0) return 14;
	if (strcmp(t, "tide_peak") == 0) return 15;
	return KEY_NONE;
}

/* A count of men with its thousands marked: "40,600". */
static void men_text(double men, char *buf, size_t size)
{
	char digits[32], out[48];
	snprintf(digits, sizeof digits, "%lld", (long long)fmin(fabs(men) + 0.5, 1e15));
	size_t n = strlen(digits), k = 0;
	for (size_t i = 0; i < n && k + 2 < sizeof out; ++i) {
		out[k++] = digits[i];
		if ((n - i - 1) % 3 == 0 && i + 1 < n) out[k++] = ',';
	}
	out[k] = '\0';
	snprintf(buf, size, "%s%s", men < 0 ? "-" : "", out);
}

typedef struct key_candidate {
	int rank, index;
	double time_s;
} key_candidate;

static int compare_key_times_first(const void *pa, const void *pb)
{
	const key_candidate *a = pa, *b = pb;
	if (a->time_s != b->time_s) return a->time_s < b->time_s ? -1 : 1;
	return a->index - b->index;
}

static int compare_key_candidates(const void *pa, const void *pb)
{
	const key_candidate *a = pa, *b = pb;
	if (a->rank != b->rank) return a->rank - b->rank;
	return compare_key_times_first(pa, pb);
}

static int compare_key_times(const void *pa, const void *pb)
{
	const rt_key_moment *a = pa, *b = pb;
	return (a->time_s > b->time_s) - (a->time_s < b->time_s);
}

/* Which count of "the first, the second ..." an event is in: the kinds whose rank
 * depends on it, commanders falling and swept away counted together; -1 for the rest. */
static int key_kind(const char *type)
{
	static const char *const kinds[] = { "commander_left", "ambush", "commander_fell", "commander_reached", "unit_broken" };
	if (strcmp(type, "commander_routing") == 0) return 2;
	for (int k = 0; k < 5; ++k)
		if (strcmp(type, kinds[k]) == 0) return k;
	return -1;
}

rt_status rt__key_moments_choose(const rt_run_event *events, int count, double frame_s, const rt_allocator *a, rt_key_moment *out,
				 int capacity, int *chosen_out)
{
	*chosen_out = 0;
	if (capacity > RT_KEY_MOMENTS_MAX) capacity = RT_KEY_MOMENTS_MAX;
	if (!events || count <= 0 || !out || capacity <= 0) return RT_OK;
	key_candidate *c = rt__alloc(a, (size_t)count * sizeof *c);
	if (!c) return RT_ERR_NOMEM;
	/* in time order, so that "the first" and "the second" of a kind are by time */
	for (int i = 0; i < count; ++i) c[i] = (key_candidate){ 0, i, events[i].time_s };
	qsort(c, (size_t)count, sizeof *c, compare_key_times_first);
	int n = 0, seen[5] = { 0, 0, 0, 0, 0 };
	for (int i = 0; i < count; ++i) {
		const rt_run_event *e = &events[c[i].index];
		const int kind = key_kind(e->type), nth = kind >= 0 ? seen[kind]++ : 0;
		const int rank = key_rank(e, nth);
		if (rank < KEY_NONE && isfinite(e->time_s)) c[n++] = (key_candidate){ rank, c[i].index, e->time_s };
	}
	qsort(c, (size_t)n, sizeof *c, compare_key_candidates);
	int chosen = 0;
	for (int i = 0; i < n && chosen < capacity; ++i) {
		bool same = false;
		for (int k = 0; k < chosen && !same; ++k)
			same = fabs(out[k].time_s - c[i].time_s) < (frame_s > 0.0 ? 0.5 * frame_s : 1e-9);
		if (same) continue;
		const rt_run_event *e = &events[c[i].index];
		rt_key_moment *m = &out[chosen++];
		m->time_s = e->time_s;
		snprintf(m->type, sizeof m->type, "%s", e->type);
		snprintf(m->text, sizeof m->text, "%s", e->text);
	}
	rt__free(a, c, (size_t)count * sizeof *c);
	qsort(out, (size_t)chosen, sizeof *out, compare_key_times);
	*chosen_out = chosen;
	return RT_OK;
}

rt_status rt_run_key_moments(const rt_run *run, double frame_s, rt_key_moment *out, int capacity, int *count_out, rt_error *err)
{
	rt__error_clear(err);
	if (!count_out) return rt__fail(err, RT_ERR_INVALID, "rt_run_key_moments needs somewhere to put the count");
	*count_out = 0;
	if (!run || (capacity > 0 && !out) || capacity < 0 || !(frame_s >= 0.0))
		return rt__fail(err, RT_ERR_INVALID, "rt_run_key_moments needs a run, room for the moments and a frame interval >= 0");
	const rt_scenario *sc = run->scenario;
	const int n = run->event_count + 3; /* and the three peaks */
	rt_run_event *ev = rt__calloc(&run->allocator, (size_t)n, sizeof *ev);
	if (!ev) return rt__fail(err, RT_ERR_NOMEM, "out of memory choosing the key moments");
	if (run->event_count > 0) memcpy(ev, run->events, (size_t)run->event_count * sizeof *ev);
	int count = run->event_count;
	/* the peaks of the series (a row a simulated minute): the most men routing at once,
	 * the most drowned between two rows */
	const size_t width = rt__series_width(sc->side_count);
	const int generals = sc->side_count * RT_STATE_COUNT; /* the commanders' counts, after the agents' */
	double most_routing = 0.0, most_drowned = 0.0, last_drowned = 0.0;
	double routing_at = NAN, drowned_at = NAN;
	for (size_t r = 0; r < run->series_rows; ++r) {
		const int32_t *row = run->series + r * width;
		double routing = 0.0, drowned = 0.0;
		for (int side = 0; side < sc->side_count; ++side) {
			const int ro = 1 + side * RT_STATE_COUNT + RT_STATE_ROUTING, dr = 1 + side * RT_STATE_COUNT + RT_STATE_DEAD_DROWNED;
			routing += men_in(run, row[ro], row[generals + ro]);
			drowned += men_in(run, row[dr], row[generals + dr]);
		}
		if (routing > most_routing) {
			most_routing = routing;
			routing_at = row[0];
		}
		if (r > 0 && drowned - last_drowned > most_drowned) {
			most_drowned = drowned - last_drowned;
			drowned_at = row[0];
		}
		last_drowned = drowned;
	}
	if (most_routing > 0) {
		rt_run_event *e = &ev[count++];
		e->time_s = routing_at;
		snprintf(e->type, sizeof e->type, "rout_peak");
		char men[64];
		men_text(most_routing, men, sizeof men);
		snprintf(e->text, sizeof e->text, "the rout at its height: %s men routing", men);
	}
	if (most_drowned > 0) {
		rt_run_event *e = &ev[count++];
		e->time_s = drowned_at;
		snprintf(e->type, sizeof e->type, "drowning_peak");
		char men[64];
		men_text(most_drowned, men, sizeof men);
		snprintf(e->text, sizeof e->text, "the worst of the drowning: %s men drowned in the minute to this moment", men);
	}
	/* the highest water, when the sea moves at all */
	const rt_run_history h = rt_history_view(run->history);
	if (h.sea_level_m && h.sample_count > 1) {
		int top = 0;
		double low = h.sea_level_m[0];
		for (int i = 1; i < h.sample_count; ++i) {
			if (h.sea_level_m[i] > h.sea_level_m[top]) top = i;
			low = fmin(low, h.sea_level_m[i]);
		}
		if (h.sea_level_m[top] - low > 0.1) {
			rt_run_event *e = &ev[count++];
			e->time_s = h.time_s[top];
			snprintf(e->type, sizeof e->type, "high_water");
			snprintf(e->text, sizeof e->text, "the highest water: sea level %.2f m", h.sea_level_m[top]);
		}
	}
	rt_status s = rt__key_moments_choose(ev, count, frame_s, &run->allocator, out, capacity, count_out);
	rt__free(&run->allocator, ev, (size_t)n * sizeof *ev);
	return s == RT_OK ? RT_OK : rt__fail(err, s, "out of memory choosing the key moments");
}

/* ---- outputs ----------------------------------------------------------------------------- */
static json_t *iso(const rt_scenario *sc, double t_s)
{
	char b[40];
	rt_scenario_format_time(sc, t_s, b, sizeof b);
	return json_string(b);
}

static rt_lonlat lonlat(const rt_run *run, rt_vec2 p)
{
	return rt_map_xy_to_lonlat(run->scenario->map, p);
}

static rt_status write_json(const char *path, json_t *root, rt_error *err)
{
	if (!root) return rt__fail(err, RT_ERR_NOMEM, "out of memory writing %s", path);
	char *s = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	json_decref(root);
	if (!s) return rt__fail(err, RT_ERR_NOMEM, "out of memory writing %s", path);
	size_t n = strlen(s);
	char *withnl = malloc(n + 2);
	rt_status st;
	if (!withnl) {
		st = rt__fail(err, RT_ERR_NOMEM, "out of memory writing %s", path);
	} else {
		memcpy(withnl, s, n);
		withnl[n] = '\n';
		st = write_whole(path, withnl, n + 1, err);
		free(withnl);
	}
	free(s);
	return st;
}

typedef struct side_tally {
	double initial, killed, drowned, trampled, burned, captured, surrendered, escaped, in_field, sheltered, horses_lost,
		horses_taken, armour_dropped, escaped_by_sea;
} side_tally;

static void tally_sides(const rt_run *run, side_tally *t, double *sheltered_by_place)
{
	const rt_scenario *sc = run->scenario;
	const rt_agents *a = &run->world->agents;
	memset(t, 0, (size_t)sc->side_count * sizeof *t);
	memset(sheltered_by_place, 0, (size_t)(sc->place_count + 1) * (size_t)sc->side_count * sizeof(double));
	for (int s = 0; s < a->count; ++s) {
		side_tally *x = &t[a->side[s]];
		const double k = men_of(run, s); /* one for a commander, his horse and his armour */
		const uint8_t st = a->state[s];
		x->initial += k;
		x->killed += st == RT_STATE_DEAD_COMBAT ? k : 0.0;
		x->drowned += st == RT_STATE_DEAD_DROWNED ? k : 0.0;
		x->trampled += st == RT_STATE_DEAD_TRAMPLED ? k : 0.0;
		x->burned += st == RT_STATE_DEAD_BURNED ? k : 0.0;
		x->captured += st == RT_STATE_CAPTURED ? k : 0.0;
		x->surrendered += st == RT_STATE_SURRENDERED ? k : 0.0;
		x->escaped += st == RT_STATE_ESCAPED ? k : 0.0;
		x->in_field += in_field(st) ? k : 0.0;
		if (st == RT_STATE_SHELTERED) {
			x->sheltered += k;
			const int p = shelter_place(run, a->x[s], a->y[s]);
			sheltered_by_place[(size_t)(p < 0 ? sc->place_count : p) * (size_t)sc->side_count + a->side[s]] += k;
		}
		x->horses_lost += is_rider(a, s) && is_lost(st) ? k : 0.0;
		x->horses_taken += horse_taken(a, s, st) ? k : 0.0;
		x->armour_dropped += run->initial_armour[a->id[s]] && !(a->equipment[s] & RT_EQUIP_ARMOUR) ? k : 0.0;
	}
	for (int i = 0; i < sc->side_count; ++i) t[i].escaped_by_sea = by_sea(run, i);
}

/* A text for a markdown table's cell: '|' escaped, line breaks as spaces. */
static void table_cell(const char *in, char *out, size_t size)
{
	size_t n = 0;
	for (const char *t = in; *t && n + 2 < size; ++t) {
		if (*t == '|') out[n++] = '\\';
		out[n++] = *t == '\n' || *t == '\r' ? ' ' : *t;
	}
	out[n] = '\0';
}

static const char *fate_word(uint8_t st)
{
	switch (st) {
	case RT_STATE_SHELTERED: return "sheltered";
	case RT_STATE_ESCAPED: return "escaped";
	case RT_STATE_CAPTURED: case RT_STATE_SURRENDERED: return "captured";
	case RT_STATE_DEAD_COMBAT: case RT_STATE_DEAD_TRAMPLED: case RT_STATE_DEAD_DROWNED: case RT_STATE_DEAD_BURNED: return "dead";
	default: return "in_field";
	}
}

static rt_status write_summary(rt_run *run, const char *path, const side_tally *t, const double *by_place, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	json_t *root = json_object();
	json_object_set_new(root, "scenario", json_string(sc->name));
	json_object_set_new(root, "seed", json_integer((json_int_t)run->seed));
	json_object_set_new(root, "scale", json_real(run->scale));
	json_object_set_new(root, "start", iso(sc, 0.0));
	json_object_set_new(root, "end", iso(sc, w->time_s));
	json_object_set_new(root, "complete", json_boolean(rt_run_done(run)));
	char hash[24];
	snprintf(hash, sizeof hash, "%016llx", (unsigned long long)rt_world_hash(w));
	json_object_set_new(root, "state_hash", json_string(hash));
	json_t *sides = json_object();
	for (int i = 0; i < sc->side_count; ++i) {
		const side_tally *x = &t[i];
		json_t *o = json_object();
		json_object_set_new(o, "initial", json_real(x->initial));
		json_object_set_new(o, "killed", json_real(x->killed));
		json_object_set_new(o, "drowned", json_real(x->drowned));
		json_object_set_new(o, "trampled", json_real(x->trampled));
		json_object_set_new(o, "burned", json_real(x->burned));
		json_object_set_new(o, "captured", json_real(x->captured));
		json_object_set_new(o, "surrendered", json_real(x->surrendered));
		json_object_set_new(o, "escaped", json_real(x->escaped));
		json_object_set_new(o, "escaped_by_sea", json_real(x->escaped_by_sea));
		json_object_set_new(o, "in_field", json_real(x->in_field));
		json_t *sh = json_object();
		for (int p = 0; p <= sc->place_count; ++p) {
			const double men = by_place[(size_t)p * (size_t)sc->side_count + i];
			if (men > 0.0) json_object_set_new(sh, p < sc->place_count ? sc->places[p].id : "other", json_real(men));
		}
		json_object_set_new(o, "sheltered", sh);
		json_object_set_new(o, "horses_lost", json_real(x->horses_lost));
		json_object_set_new(o, "horses_taken", json_real(x->horses_taken));
		json_object_set_new(o, "armour_dropped", json_real(x->armour_dropped));
		json_object_set_new(sides, sc->sides[i].id, o);
	}
	json_object_set_new(root, "sides", sides);
	json_t *cmd = json_array();
	for (int c = 0; c < sc->corps_count; ++c) {
		const rt_sc_corps *k = &sc->corps[c];
		json_t *o = json_object();
		json_object_set_new(o, "id", json_string(k->id));
		json_object_set_new(o, "name", json_string(k->name));
		json_object_set_new(o, "side", json_string(sc->sides[k->side].id));
		json_object_set_new(o, "left_at", w->corps[c].left ? iso(sc, w->corps[c].left_at_s) : json_null());
		const uint8_t st = w->agents.state[w->slot_of_id[run->commander[c]]];
		json_object_set_new(o, "fate", json_string(fate_word(st)));
		json_object_set_new(o, "reached", run->reached_place[c] >= 0 ? json_string(sc->places[run->reached_place[c]].id) : json_null());
		json_object_set_new(o, "reached_at", run->reached_at_s[c] >= 0.0 ? iso(sc, run->reached_at_s[c]) : json_null());
		json_object_set_new(o, "record", k->record[0] ? json_string(k->record) : json_null());
		json_array_append_new(cmd, o);
	}
	json_object_set_new(root, "commanders", cmd);
	json_t *hist = json_array();
	for (int i = 0; i < sc->history_count; ++i) {
		const rt_sc_history *h = &sc->history[i];
		json_t *o = json_object();
		json_object_set_new(o, "figure", json_string(h->figure));
		json_object_set_new(o, "recorded", h->low == h->high ? json_real(h->low) : json_pack("[f, f]", h->low, h->high));
		json_object_set_new(o, "grade", json_string(h->grade));
		json_object_set_new(o, "source", json_string(h->source));
		const double v = figure_value(run, i);
		json_object_set_new(o, "simulated", isfinite(v) ? json_real(v) : json_null());
		if (!isnan(h->at_s)) json_object_set_new(o, "at", iso(sc, h->at_s));
		json_array_append_new(hist, o);
	}
	json_object_set_new(root, "history", hist);
	json_t *ph = json_object();
	for (int p = 0; p < RT_PH_COUNT; ++p)
		json_object_set_new(ph, phenomenon_id[p], phenomenon_recognised[p] ? json_boolean(run->seen[p]) : json_null());
	json_object_set_new(root, "phenomena", ph);
	return write_json(path, root, err);
}

static void put_where(text *t, const rt_run *run, rt_vec2 p)
{
	if (!isfinite(p.x)) {
		put(t, "—");
		return;
	}
	rt_lonlat ll = lonlat(run, p);
	put(t, "%.3f N %.3f E", ll.lat_deg, ll.lon_deg);
}

static void put_men(text *t, double men)
{
	if (!isfinite(men)) {
		put(t, "—");
		return;
	}
	long long v = (long long)floor(men + 0.5);
	char digits[32];
	snprintf(digits, sizeof digits, "%lld", v < 0 ? -v : v);
	size_t n = strlen(digits);
	if (v < 0) put(t, "-");
	for (size_t i = 0; i < n; ++i) {
		put(t, "%c", digits[i]);
		if ((n - i - 1) % 3 == 0 && i + 1 < n) put(t, ",");
	}
}

#define RT_REPORT_WHERE_MOVED_M 200.0

/* The interval of the report's table of where the corps were: about 24 times over the
 * run, on a round interval. */
static double where_interval(double duration_s)
{
	static const double nice[] = { 60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 10800, 21600, 43200, 86400 };
	for (size_t i = 0; i < sizeof nice / sizeof nice[0]; ++i)
		if (nice[i] >= duration_s / 24.0) return nice[i];
	return 86400.0 * ceil(duration_s / 24.0 / 86400.0);
}

/* Where the corps were: the run folder's trace read back (rt_where_read), a row for a
 * corps whenever its men changed state or its men in the field moved since its last row. */
static rt_status put_where_table(text *x, rt_run *run, const char *dir, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	rt_where_def wd = rt_where_def_default();
	wd.run_folder = dir;
	wd.every_s = where_interval(run->world->time_s);
	wd.allocator = run->allocator;
	wd.map = sc->map; /* the map the run was made on, which the folder holds a copy of */
	rt_where_table *t = NULL;
	rt_status s = rt_where_read(&wd, &t, err);
	if (s != RT_OK) return s;
	const int nc = t->corps_count;
	int *shown = rt__alloc(&run->allocator, (size_t)nc * sizeof(int));
	if (!shown) {
		rt_where_free(t);
		return rt__fail(err, RT_ERR_NOMEM, "out of memory writing where the corps were");
	}
	for (int c = 0; c < nc; ++c) shown[c] = -1;
	put(x, "## Where the corps were\n\n");
	put(x, "Every %g minutes from the run's trace; a corps is listed whenever its men changed state or its men in the field "
	       "moved %g m or more since its last line. *Where* is the mean position of its men in the field, named against the "
	       "map's places, with their spread: a corps whose horse rode ahead of its foot is spread over kilometres, and "
	       "`rout where <this folder> --units` shows each unit (docs/run-folder.md).\n\n",
	    wd.every_s / 60.0, RT_REPORT_WHERE_MOVED_M);
	put(x, "| time | corps | in ranks | routing | kneeling | taken | sheltered | escaped | dead | drowned | where |\n"
	       "|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (int r = 0; r < t->row_count; ++r) {
		const rt_where_row *w = &t->rows[r];
		const int c = w->corps;
		bool show = shown[c] < 0;
		if (!show) {
			const rt_where_row *p = &t->rows[shown[c]];
			for (int q = 0; q < RT_STATE_COUNT && !show; ++q) show = fabs(w->men[q] - p->men[q]) >= 0.5;
			if (!show && w->in_field > 0.0)
				show = !(p->in_field > 0.0) || hypot(w->centre.x - p->centre.x, w->centre.y - p->centre.y) >= RT_REPORT_WHERE_MOVED_M;
		}
		if (!show) continue;
		shown[c] = r;
		char when[40], words[300];
		rt_scenario_format_time(sc, w->time_s, when, sizeof when);
		put(x, "| %s | %s | ", when, t->corps[c].id);
		const double v[8] = { w->men[RT_STATE_FORMED] + w->men[RT_STATE_MARCHING] + w->men[RT_STATE_ENGAGED],
				      w->men[RT_STATE_ROUTING] + w->men[RT_STATE_DESPERATE], w->men[RT_STATE_SURRENDERED],
				      w->men[RT_STATE_CAPTURED], w->men[RT_STATE_SHELTERED], w->men[RT_STATE_ESCAPED],
				      w->men[RT_STATE_DEAD_COMBAT] + w->men[RT_STATE_DEAD_TRAMPLED] + w->men[RT_STATE_DEAD_DROWNED] +
					      w->men[RT_STATE_DEAD_BURNED],
				      w->men[RT_STATE_DEAD_DROWNED] };
		for (int k = 0; k < 8; ++k) {
			put_men(x, v[k]);
			if (k == 4 && w->shelter >= 0) put(x, " (%s)", t->places[w->shelter].name);
			put(x, " | ");
		}
		if (w->in_field > 0.0) {
			rt_where_describe(t, w, words, sizeof words);
			put(x, "%s (%.3f N %.3f E, spread %.1f km) |\n", words[0] ? words : "open ground", w->centre_lonlat.lat_deg,
			    w->centre_lonlat.lon_deg, w->spread_m / 1000.0);
		} else {
			put(x, "— |\n");
		}
	}
	put(x, "\n");
	rt__free(&run->allocator, shown, (size_t)nc * sizeof(int));
	rt_where_free(t);
	return RT_OK;
}

static rt_status write_report(rt_run *run, const char *path, const side_tally *t, const char *dir, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	text x = { &run->allocator, NULL, 0, 0, false };
	char a[40], b[40];
	rt_scenario_format_time(sc, 0.0, a, sizeof a);
	rt_scenario_format_time(sc, w->time_s, b, sizeof b);
	put(&x, "# %s\n\n", sc->title[0] ? sc->title : sc->name);
	put(&x, "Scenario `%s`, seed %llu, one agent for %g men, from %s to %s (local time, UTC%+g)%s.\n\n", sc->name,
	    (unsigned long long)run->seed, run->scale, a, b, sc->utc_offset_h, rt_run_done(run) ? "" : " — **stopped early**");
	put(&x, "## The run beside the record\n\n");
	put(&x, "A figure is *inside* when the simulated value lies in the record widened by its grade "
		"(A ±20 %%, B ±35 %%, E ±50 %%; docs/scenario-format.md).\n\n");
	put(&x, "| figure | recorded | grade | simulated | |\n|---|---|---|---|---|\n");
	int outside = 0, unreached_count = 0;
	for (int i = 0; i < sc->history_count; ++i) {
		const rt_sc_history *h = &sc->history[i];
		const double v = figure_value(run, i);
		double lo, hi;
		record_band(h, &lo, &hi);
		const bool inside = isfinite(v) && v >= lo && v <= hi;
		const bool unreached = isnan(v) && ((!isnan(h->at_s) && w->time_s < h->at_s - 1e-6) ||
						   (!isnan(h->since_s) && w->time_s < h->since_s - 1e-6));
		outside += !inside && !unreached;
		unreached_count += unreached;
		char when[40] = "";
		if (!isnan(h->at_s)) rt_scenario_format_time(sc, h->at_s, when, sizeof when);
		put(&x, "| %s%s%s%s | ", h->figure, when[0] ? " (at " : "", when, when[0] ? ")" : "");
		put_men(&x, h->low);
		if (h->high != h->low) {
			put(&x, "–");
			put_men(&x, h->high);
		}
		put(&x, "%s | %s | ", h->percent ? " %" : "", h->grade);
		put_men(&x, v);
		put(&x, "%s | %s |\n", h->percent ? " %" : "", unreached ? "not reached: the run stopped before" : inside ? "inside" : "**outside**");
	}
	if (sc->history_count == 0) put(&x, "| (the scenario has no history block) | | | | |\n");
	put(&x, "\n%d of %d figures fall outside the record", outside, sc->history_count - unreached_count);
	if (unreached_count) put(&x, " (%d more are taken at a time the run did not reach)", unreached_count);
	put(&x, ". Sources for each figure are in summary.json and the scenario file.\n\n");
	put(&x, "## Men by side (at the end)\n\n| side | initial | killed | drowned | trampled | burned | captured | kneeling | "
		"escaped | of them by boat | sheltered | in the field | horses lost | armour thrown away |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (int i = 0; i < sc->side_count; ++i) {
		const side_tally *s = &t[i];
		put(&x, "| %s | ", sc->sides[i].name);
		const double v[13] = { s->initial, s->killed, s->drowned, s->trampled, s->burned, s->captured, s->surrendered,
				       s->escaped, s->escaped_by_sea, s->sheltered, s->in_field, s->horses_lost, s->armour_dropped };
		for (int k = 0; k < 13; ++k) {
			put_men(&x, v[k]);
			put(&x, " | ");
		}
		put(&x, "\n");
	}
	put(&x, "\n## Commanders\n\nEach commander in the run, beside what the record says he did (the scenario's `record`).\n\n"
		"| corps | commander | side | left without orders | fate | reached | at | the record |\n|---|---|---|---|---|---|---|---|\n");
	for (int c = 0; c < sc->corps_count; ++c) {
		const rt_sc_corps *k = &sc->corps[c];
		char left[40] = "—", reached[40] = "—";
		if (w->corps[c].left) rt_scenario_format_time(sc, w->corps[c].left_at_s, left, sizeof left);
		if (run->reached_at_s[c] >= 0.0) rt_scenario_format_time(sc, run->reached_at_s[c], reached, sizeof reached);
		const uint8_t st = w->agents.state[w->slot_of_id[run->commander[c]]];
		char record[2 * sizeof k->record];
		table_cell(k->record[0] ? k->record : "—", record, sizeof record);
		put(&x, "| %s | %s %s | %s | %s | %s | %s | %s | %s |\n", k->id, k->name, k->name_zh, sc->sides[k->side].name, left,
		    fate_word(st), run->reached_place[c] >= 0 ? sc->places[run->reached_place[c]].id : "—", reached, record);
	}
	put(&x, "\n## Phenomena (PHENOMENA.md)\n\n| ID | what | first seen | where |\n|---|---|---|---|\n");
	for (int p = 0; p < RT_PH_COUNT; ++p) {
		const rt_run_event *first = NULL;
		for (int e = 0; e < run->event_count && !first; ++e)
			if (strcmp(run->events[e].phenomenon, phenomenon_id[p]) == 0) first = &run->events[e];
		put(&x, "| %s | %s | ", phenomenon_id[p], phenomenon_text[p]);
		if (!phenomenon_recognised[p]) {
			put(&x, "not recognised by the report | —");
		} else if (first) {
			rt_scenario_format_time(sc, first->time_s, a, sizeof a);
			put(&x, "%s | ", a);
			put_where(&x, run, first->where);
		} else {
			put(&x, "did not occur | —");
		}
		put(&x, " |\n");
	}
	put(&x, "\nEach phenomenon is recognised by a rule of its own (docs/run-folder.md): C2, for one, when a man is "
		"trampled in the crush, M5 when half a unit is killed where it stands, its general still at his post, E5 when men "
		"in flight stand in sight of a river, their way barred, Q8 when a pursuit hesitates over a flight split three "
		"ways or more. Whether a turn of the wind turned the battle is for the reader of the timeline, the plots and `rout "
		"where`.\n\n");
	if (dir) {
		rt_status ws = put_where_table(&x, run, dir, err);
		if (ws != RT_OK) {
			text_free(&x);
			return ws;
		}
	}
	put(&x, "## Timeline\n\n| time | event | where |\n|---|---|---|\n");
	for (int e = 0; e < run->event_count; ++e) {
		const rt_run_event *ev = &run->events[e];
		if (strcmp(ev->type, "unit_broken") == 0 && e > 200) continue;
		rt_scenario_format_time(sc, ev->time_s, a, sizeof a);
		put(&x, "| %s | %s%s%s%s | ", a, ev->text, ev->phenomenon[0] ? " (" : "", ev->phenomenon, ev->phenomenon[0] ? ")" : "");
		put_where(&x, run, ev->where);
		put(&x, " |\n");
	}
	if (x.failed) {
		text_free(&x);
		return rt__fail(err, RT_ERR_NOMEM, "out of memory writing %s", path);
	}
	rt_status s = write_whole(path, x.data, x.size, err);
	text_free(&x);
	return s;
}

static rt_status write_series(rt_run *run, const char *path, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	text x = { &run->allocator, NULL, 0, 0, false };
	put(&x, "time,minute,side");
	for (int st = 0; st < RT_STATE_COUNT; ++st) put(&x, ",%s", rt_state_name((rt_state)st));
	put(&x, "\n");
	const size_t width = rt__series_width(sc->side_count);
	const int generals = sc->side_count * RT_STATE_COUNT; /* the commanders' counts, after the agents' */
	char when[40];
	for (size_t r = 0; r < run->series_rows; ++r) {
		const int32_t *row = run->series + r * width;
		rt_scenario_format_time(sc, row[0], when, sizeof when);
		for (int side = 0; side < sc->side_count; ++side) {
			put(&x, "%s,%d,%s", when, row[0] / 60, sc->sides[side].id);
			for (int st = 0; st < RT_STATE_COUNT; ++st) {
				const int cell = 1 + side * RT_STATE_COUNT + st;
				put(&x, ",%.0f", men_in(run, row[cell], row[generals + cell]));
			}
			put(&x, "\n");
		}
	}
	if (x.failed) {
		text_free(&x);
		return rt__fail(err, RT_ERR_NOMEM, "out of memory writing %s", path);
	}
	rt_status s = write_whole(path, x.data, x.size, err);
	text_free(&x);
	return s;
}

static rt_status write_events(rt_run *run, const char *path, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	text x = { &run->allocator, NULL, 0, 0, false };
	for (int e = 0; e < run->event_count; ++e) {
		const rt_run_event *ev = &run->events[e];
		json_t *o = json_object();
		json_object_set_new(o, "time", iso(sc, ev->time_s));
		json_object_set_new(o, "t_s", json_real(ev->time_s));
		json_object_set_new(o, "type", json_string(ev->type));
		json_object_set_new(o, "who", json_string(ev->who));
		if (isfinite(ev->where.x)) {
			rt_lonlat ll = lonlat(run, ev->where);
			json_object_set_new(o, "where", json_pack("{s:f, s:f, s:f, s:f}", "lat", ll.lat_deg, "lon", ll.lon_deg, "x_m",
								  ev->where.x, "y_m", ev->where.y));
		} else {
			json_object_set_new(o, "where", json_null());
		}
		json_object_set_new(o, "phenomenon", ev->phenomenon[0] ? json_string(ev->phenomenon) : json_null());
		json_object_set_new(o, "text", json_string(ev->text));
		char *line = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10));
		json_decref(o);
		if (!line) {
			x.failed = true;
			break;
		}
		put(&x, "%s\n", line);
		free(line);
	}
	if (x.failed) {
		text_free(&x);
		return rt__fail(err, RT_ERR_NOMEM, "out of memory writing %s", path);
	}
	rt_status s = write_whole(path, x.data ? x.data : "", x.size, err);
	text_free(&x);
	return s;
}

/* The four plots of a run (include/rout/plot.h), PNG. */
static rt_status write_plots(rt_run *run, const char *dir, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	rt_run_history h = rt_history_view(run->history);
	if (h.sample_count < 2) return RT_OK; /* nothing to draw yet */
	const char *sides[RT_SCENARIO_MAX_SIDES];
	for (int i = 0; i < sc->side_count && i < RT_SCENARIO_MAX_SIDES; ++i) sides[i] = sc->sides[i].name;
	if (h.side_count <= sc->side_count) h.side_names = sides;
	const char **corps = rt__calloc(&run->allocator, (size_t)sc->corps_count + 1, sizeof(char *));
	const char **who = rt__calloc(&run->allocator, (size_t)sc->corps_count + 1, sizeof(char *));
	if (!corps || !who) {
		rt__free(&run->allocator, corps, ((size_t)sc->corps_count + 1) * sizeof(char *));
		rt__free(&run->allocator, who, ((size_t)sc->corps_count + 1) * sizeof(char *));
		return rt__fail(err, RT_ERR_NOMEM, "out of memory drawing the plots");
	}
	for (int c = 0; c < sc->corps_count; ++c) corps[c] = who[c] = sc->corps[c].name;
	if (h.corps_count == sc->corps_count) {
		h.corps_names = corps;
		h.commander_names = who;
	}
	/* the history counts agents, and the commanders among them; the plots show men */
	const size_t n_state = (size_t)h.sample_count * (size_t)h.side_count * RT_STATE_COUNT;
	const size_t n_corps = (size_t)h.sample_count * (size_t)h.corps_count;
	int *men = rt__alloc(&run->allocator, (n_state + n_corps + 1) * sizeof(int));
	if (!men) {
		rt__free(&run->allocator, corps, ((size_t)sc->corps_count + 1) * sizeof(char *));
		rt__free(&run->allocator, who, ((size_t)sc->corps_count + 1) * sizeof(char *));
		return rt__fail(err, RT_ERR_NOMEM, "out of memory drawing the plots");
	}
	for (size_t i = 0; i < n_state; ++i) men[i] = (int)floor(men_in(run, h.men_by_state[i], h.commanders_by_state[i]) + 0.5);
	for (size_t i = 0; i < n_corps; ++i) men[n_state + i] = (int)floor(men_in(run, h.corps_active[i], h.corps_commanders_active[i]) + 0.5);
	h.men_by_state = men;
	if (h.corps_active) h.corps_active = men + n_state;
	char title[RT_SCENARIO_TEXT_SIZE + 64], subtitle[128], path[1200];
	snprintf(subtitle, sizeof subtitle, "seed %llu, one agent for %g men", (unsigned long long)run->seed, run->scale);
	static const char *const files[4] = { "plot-states.png", "plot-deaths.png", "plot-corps.png", "plot-sea-light.png" };
	static const char *const what[4] = { "men by state", "deaths by cause", "each corps' strength", "sea level and light" };
	rt_status s = RT_OK;
	for (int k = 0; k < 4 && s == RT_OK; ++k) {
		rt_plot_def pd = rt_plot_def_default();
		snprintf(path, sizeof path, "%s/%s", dir, files[k]);
		snprintf(title, sizeof title, "%s: %s", sc->title[0] ? sc->title : sc->name, what[k]);
		pd.path = path;
		pd.title = title;
		pd.subtitle = subtitle;
		pd.clock_start_jd_ut = sc->start_jd_ut;
		pd.clock_utc_offset_h = sc->utc_offset_h;
		pd.allocator = run->allocator;
		if (k == 0) s = rt_plot_men_by_state(&h, &pd, err);
		else if (k == 1) s = rt_plot_deaths_by_cause(&h, &pd, err);
		else if (k == 2) s = rt_plot_corps_strength(&h, &pd, err);
		else if (h.sea_level_m && h.light_lux) s = rt_plot_sea_and_light(&h, &pd, err);
	}
	rt__free(&run->allocator, men, (n_state + n_corps + 1) * sizeof(int));
	rt__free(&run->allocator, corps, ((size_t)sc->corps_count + 1) * sizeof(char *));
	rt__free(&run->allocator, who, ((size_t)sc->corps_count + 1) * sizeof(char *));
	return s;
}

/* run.json (docs/run-folder.md) and a copy of the map, so `rout render` can draw any
 * moment of the trace again and the folder can move. */
static rt_status write_run_json(rt_run *run, const char *dir, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	char path[1200];
	/* the map, copied */
	FILE *f = fopen(sc->map_path, "rb");
	if (!f) return rt__fail_at(err, RT_ERR_IO, sc->map_path, 0, 0, "", "cannot read %s to copy it: %s", sc->map_path, strerror(errno));
	text m = { &run->allocator, NULL, 0, 0, false };
	char buf[65536];
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0) put(&m, "%.*s", (int)got, buf);
	fclose(f);
	if (m.failed) {
		text_free(&m);
		return rt__fail(err, RT_ERR_NOMEM, "out of memory copying the map");
	}
	snprintf(path, sizeof path, "%s/map.geojson", dir);
	rt_status s = write_whole(path, m.data ? m.data : "", m.size, err);
	text_free(&m);
	if (s != RT_OK) return s;
	json_t *root = json_object();
	char start[40];
	rt_scenario_format_time(sc, 0.0, start, sizeof start);
	json_object_set_new(root, "scenario", json_string(sc->name));
	json_object_set_new(root, "seed", json_integer((json_int_t)run->seed));
	json_object_set_new(root, "scale", json_real(run->scale));
	json_object_set_new(root, "map", json_string("map.geojson"));
	json_object_set_new(root, "trace", json_string("trace.bin"));
	json_object_set_new(root, "start", json_string(start));
	json_object_set_new(root, "timezone_h", json_real(sc->utc_offset_h));
	char title[RT_SCENARIO_TEXT_SIZE + 40];
	snprintf(title, sizeof title, "%s (seed %llu)", sc->title[0] ? sc->title : sc->name, (unsigned long long)run->seed);
	json_object_set_new(root, "title", json_string(title));
	json_t *sides = json_array();
	for (int i = 0; i < sc->side_count; ++i) json_array_append_new(sides, json_string(sc->sides[i].name));
	json_object_set_new(root, "sides", sides);
	json_t *cmd = json_array();
	for (int c = 0; c < sc->corps_count; ++c)
		json_array_append_new(cmd, json_pack("{s:i, s:s}", "agent", (json_int_t)run->commander[c], "name", sc->corps[c].name));
	json_object_set_new(root, "commanders", cmd);
	/* who each man is and what he was told, for the replay page: the sides' Chinese names,
	 * the corps, the units (the men of each are consecutive agent ids; a corps' commander
	 * and guard are one more unit after the scenario's), and the orders given */
	json_t *zh = json_array();
	for (int i = 0; i < sc->side_count; ++i) json_array_append_new(zh, json_string(sc->sides[i].name_zh));
	json_object_set_new(root, "sides_zh", zh);
	json_t *corps = json_array();
	for (int c = 0; c < sc->corps_count; ++c)
		json_array_append_new(corps, json_pack("{s:s, s:s, s:s, s:i, s:I}", "id", sc->corps[c].id, "name", sc->corps[c].name, "name_zh",
						       sc->corps[c].name_zh, "side", sc->corps[c].side, "commander",
						       (json_int_t)run->commander[c]));
	json_object_set_new(root, "corps", corps);
	const int units = sc->unit_count + sc->corps_count;
	int64_t *range = rt__calloc(&run->allocator, 2 * (size_t)units + 2, sizeof *range); /* first id, count */
	if (!range) {
		json_decref(root);
		return rt__fail(err, RT_ERR_NOMEM, "out of memory writing run.json");
	}
	const rt_world *w = run->world;
	for (int id = 0; id < w->agents.count; ++id) {
		const uint32_t u = w->agents.unit[w->slot_of_id[id]];
		if (u >= (uint32_t)units) continue;
		if (range[2 * u + 1]++ == 0) range[2 * u] = id;
	}
	json_t *ul = json_array();
	for (int u = 0; u < units; ++u) {
		char id[RT_SCENARIO_ID_SIZE + 16];
		const bool hq = u >= sc->unit_count;
		const int c = hq ? u - sc->unit_count : sc->units[u].corps;
		if (hq) snprintf(id, sizeof id, "%s_headquarters", sc->corps[c].id);
		else snprintf(id, sizeof id, "%s", sc->units[u].id);
		json_array_append_new(ul, json_pack("{s:s, s:i, s:s, s:I, s:I}", "id", id, "corps", c, "kind",
						    hq ? "headquarters" : rt_kind_name(sc->units[u].kind), "first_agent", (json_int_t)range[2 * u],
						    "agents", (json_int_t)range[2 * u + 1]));
	}
	rt__free(&run->allocator, range, (2 * (size_t)units + 2) * sizeof *range);
	json_object_set_new(root, "units", ul);
	json_t *orders = json_array();
	for (int k = 0; k < run->order_count; ++k) {
		char what[RT_SCENARIO_ID_SIZE + 48];
		rt__run_order_text(run, &run->orders[k].order, what, sizeof what);
		json_array_append_new(orders, json_pack("{s:f, s:i, s:s}", "t_s", run->orders[k].time_s, "unit", run->orders[k].unit, "order", what));
	}
	json_object_set_new(root, "orders", orders);
	/* the grass fire, if the scenario sets one: the cells it caught (fire.bin) */
	snprintf(path, sizeof path, "%s/fire.bin", dir);
	if (w->fire) {
		const rt_fire *fire = w->fire;
		rt_status fs = rt__run_log_fire(run, err);
		if (fs == RT_OK)
			fs = rt__fire_log_write(path, fire->nx, fire->ny, fire->cell_m, fire->ox, fire->oy, run->fire_cells, run->fire_cell_count, err);
		if (fs != RT_OK) {
			json_decref(root);
			return fs;
		}
		json_object_set_new(root, "fire", json_string("fire.bin"));
	} else {
		remove(path); /* a fire log of an earlier run into the folder would not be this run's */
	}
	rt_run_history h = rt_history_view(run->history);
	if (h.sea_level_m && h.light_lux && h.sample_count > 0) {
		json_t *t = json_array(), *sea = json_array(), *lux = json_array();
		for (int i = 0; i < h.sample_count; ++i) {
			json_array_append_new(t, json_real(h.time_s[i]));
			json_array_append_new(sea, json_real(h.sea_level_m[i]));
			json_array_append_new(lux, json_real(h.light_lux[i]));
		}
		json_object_set_new(root, "series", json_pack("{s:o, s:o, s:o}", "time_s", t, "sea_level_m", sea, "light_lux", lux));
	}
	snprintf(path, sizeof path, "%s/run.json", dir);
	return write_json(path, root, err);
}

rt_status rt_run_write_outputs(rt_run *run, const char *dir, rt_error *err)
{
	rt__error_clear(err);
	if (!run || !dir) return rt__fail(err, RT_ERR_INVALID, "no run or no folder");
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return rt__fail_at(err, RT_ERR_IO, dir, 0, 0, "", "cannot create the folder %s: %s", dir, strerror(errno));
	const rt_scenario *sc = run->scenario;
	rt_status s = RT_OK;
	const bool traced = run->trace != NULL;
	if (run->trace) {
		rt_trace_writer *t = run->trace;
		run->trace = NULL;
		if ((s = rt_trace_close(t, err)) != RT_OK) return s;
	}
	side_tally *t = rt__calloc(&run->allocator, (size_t)sc->side_count, sizeof *t);
	double *by_place = rt__calloc(&run->allocator, (size_t)(sc->place_count + 1) * (size_t)sc->side_count, sizeof(double));
	if (!t || !by_place) {
		s = rt__fail(err, RT_ERR_NOMEM, "out of memory writing the outputs");
		goto done;
	}
	tally_sides(run, t, by_place);
	char path[1200];
	snprintf(path, sizeof path, "%s/summary.json", dir);
	if ((s = write_summary(run, path, t, by_place, err)) != RT_OK) goto done;
	snprintf(path, sizeof path, "%s/series.csv", dir);
	if ((s = write_series(run, path, err)) != RT_OK) goto done;
	snprintf(path, sizeof path, "%s/events.jsonl", dir);
	if ((s = write_events(run, path, err)) != RT_OK) goto done;
	if ((s = rt_history_record_now(run->history, run->world, err)) != RT_OK) goto done;
	if ((s = write_plots(run, dir, err)) != RT_OK) goto done;
	if ((s = write_run_json(run, dir, err)) != RT_OK) goto done;
	/* last: with a trace, the report reads the folder back to say where the corps were */
	snprintf(path, sizeof path, "%s/report.md", dir);
	s = write_report(run, path, t, traced ? dir : NULL, err);
done:
	rt__free(&run->allocator, t, (size_t)sc->side_count * sizeof *t);
	rt__free(&run->allocator, by_place, (size_t)(sc->place_count + 1) * (size_t)sc->side_count * sizeof(double));
	return s;
}
