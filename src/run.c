/* A run of a scenario: builds the world from the scenario (map, environment, sides,
 * places as goals, corps and commanders, men), steps it, carries out the scenario's
 * orders and triggers between steps, and keeps what the report needs: a series per
 * simulated minute, the events (who left when, who reached which fort, ambushes sprung,
 * the tide's peak, the first time each phenomenon of PHENOMENA.md happened).
 *
 * One agent stands for `scale` men: it is drawn sqrt(scale) times wider than one man
 * (so a crowd of agents covers the ground the men would), fort capacities and trigger
 * thresholds are divided by scale, and every count the run reports is multiplied back
 * into men (a commander is one man at any scale: report.c). Orders are applied serially
 * in unit order and triggers are checked every check interval in trigger order, so a run
 * is as deterministic as the world. */
#include "run_internal.h"
#include "fire_log.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PI 3.14159265358979323846
#define CHECK_INTERVAL_S 10.0   /* triggers, events and phenomena are looked at this often */
#define SERIES_INTERVAL_S 60.0  /* series.csv: one row per simulated minute */

rt_run_def rt_run_def_default(void)
{
	rt_run_def d;
	memset(&d, 0, sizeof d);
	d.seed = 1;
	d.trace_every_s = 0.0;
	d.allocator = rt_allocator_default();
	d.cookie = RT_COOKIE;
	return d;
}

/* ---- events -------------------------------------------------------------------------- */
rt_vec2 rt__commander_at(const rt_world *w, int c)
{
	const int32_t id = w->corps[c].commander;
	if (id < 0) return (rt_vec2){ NAN, NAN };
	const int s = (int)w->slot_of_id[id];
	return (rt_vec2){ w->agents.x[s], w->agents.y[s] };
}

rt_status rt__run_event(rt_run *run, const char *type, const char *who, rt_vec2 where, const char *phenomenon,
			const char *fmt, ...)
{
	if (run->event_count == run->event_capacity) {
		int cap = run->event_capacity ? 2 * run->event_capacity : 64;
		rt_run_event *e = rt__realloc(&run->allocator, run->events, (size_t)run->event_capacity * sizeof(rt_run_event),
					      (size_t)cap * sizeof(rt_run_event));
		if (!e) return RT_ERR_NOMEM;
		run->events = e;
		run->event_capacity = cap;
	}
	rt_run_event *e = &run->events[run->event_count++];
	memset(e, 0, sizeof *e);
	e->time_s = run->world ? rt__run_world(run)->time_s : 0.0;
	snprintf(e->type, sizeof e->type, "%s", type);
	snprintf(e->who, sizeof e->who, "%s", who ? who : "");
	snprintf(e->phenomenon, sizeof e->phenomenon, "%s", phenomenon ? phenomenon : "");
	e->where = where;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof e->text, fmt, ap);
	va_end(ap);
	return RT_OK;
}

/* ---- orders ---------------------------------------------------------------------------- */
static rt_goal_id place_goal(rt_run *run, int place)
{
	return place >= 0 ? run->place_goal[place] : RT_NO_GOAL;
}

/* Keeps the order in the run's list of orders given (run.json "orders"). */
static rt_status log_order(rt_run *run, int unit, const rt_sc_order *o)
{
	if (run->order_count == run->order_capacity) {
		const int cap = run->order_capacity ? 2 * run->order_capacity : 64;
		rt_run_order *g = rt__realloc(&run->allocator, run->orders, (size_t)run->order_capacity * sizeof *g, (size_t)cap * sizeof *g);
		if (!g) return RT_ERR_NOMEM;
		run->orders = g;
		run->order_capacity = cap;
	}
	run->orders[run->order_count++] = (rt_run_order){ run->world->time_s, unit, *o };
	return RT_OK;
}

void rt__run_order_text(const rt_run *run, const rt_sc_order *o, char *buf, size_t size)
{
	const rt_scenario *sc = run->scenario;
	const char *place = o->place >= 0 && o->place < sc->place_count ? sc->places[o->place].id : NULL;
	switch (o->kind) {
	case RT_ORDER_MARCH:
		snprintf(buf, size, "march to %s%s%s", place ? place : "?", o->gallop ? " at the gallop" : "", o->spread ? ", spread over it" : "");
		break;
	case RT_ORDER_ATTACK:
		snprintf(buf, size, "attack towards %s%s%s", place ? place : "?", o->gallop ? " at the gallop" : "", o->spread ? ", spread over it" : "");
		break;
	case RT_ORDER_WITHDRAW: snprintf(buf, size, "withdraw to %s", place ? place : "?"); break;
	case RT_ORDER_HUNT: {
		const rt_sc_corps *k = o->target >= 0 && o->target < sc->corps_count ? &sc->corps[o->target] : NULL;
		snprintf(buf, size, "hunt %s (%s)", k ? k->name : "?", k ? k->id : "?");
		break;
	}
	case RT_ORDER_AMBUSH: snprintf(buf, size, "ambush at %s (%.0f m)", place ? place : "?", o->radius_m); break;
	case RT_ORDER_SHELTER: snprintf(buf, size, "garrison"); break;
	default: snprintf(buf, size, "%s", rt__order_name(o->kind)); break;
	}
}


/* The pace of a march or attack: a rider's free speed is his horse's at the trot, or at
 * the canter-gallop of the charge for an order at the gallop, until his next order; his
 * horse tires (C4). Men on foot keep theirs. */
static void set_pace(rt_world *w, int s, bool gallop)
{
	rt_agents *a = &w->agents;
	if (!a->mount[s]) return;
	const double trot = w->def.kinds[rt__body_kind(a->kind[s], a->mount[s])].free_speed_mps;
	a->free_speed[s] = (float)(gallop ? trot * w->def.combat.charge_pace_factor : trot);
}
/* Q10: the slot of the commander a hunt order is after while he is at large, else -1. */
static int hunted(const rt_run *run, const rt_sc_order *o)
{
	if (o->kind != RT_ORDER_HUNT || o->target < 0) return -1;
	const rt_world *w = run->world;
	const int q = (int)w->slot_of_id[run->commander[o->target]];
	return rt__at_large(w->agents.state[q]) ? q : -1;
}

/* Man s sent after the man in slot q (Q10; -1: he is gone, and man s falls on whoever is
 * near instead), aimed at where he is: the order says where he was seen. */
static void set_hunt(rt_world *w, int s, int q)
{
	rt_agents *a = &w->agents;
	a->goal[s] = RT_NO_GOAL;
	if (q < 0) {
		a->stance[s] = RT_STANCE_ADVANCE;
		a->quarry[s] = -1;
		return;
	}
	a->stance[s] = RT_STANCE_HUNT;
	a->quarry[s] = (int32_t)a->id[q];
	rt__aim(a, s, q);
}

/* A man and the key he is ranked by when posts are handed out (spread_over). */
typedef struct post_rank {
	double key;
	uint32_t id;
	int slot;
} post_rank;

static int cmp_post_rank(const void *pa, const void *pb)
{
	const post_rank *a = pa, *b = pb;
	if (a->key != b->key) return a->key < b->key ? -1 : 1;
	return a->id < b->id ? -1 : (a->id > b->id ? 1 : 0);
}

/* Whether a man may stand at q: passable ground, and no deeper than he can stand in at the
 * sea's mean level (a ford, not the river beside it). */
static bool post_ground(const rt_world *w, rt_vec2 q, bool rider)
{
	if (!rt__terrain_passable(w, q.x, q.y)) return false;
	const int cell = w->map ? rt__terrain_cell(w, q.x, q.y) : -1;
	if (cell < 0) return true;
	return rt__planning_depth(w, cell) < (rider ? w->water.horse_drown_depth_m : w->water.foot_drown_depth_m);
}

/* The centre of cell (f, r) of a files x ranks lattice over the goal's rectangle. */
static rt_vec2 lattice_point(const rt_goal_def *g, int files, int ranks, int f, int r)
{
	const double dx = (g->target_max.x - g->target_min.x) / files, dy = (g->target_max.y - g->target_min.y) / ranks;
	return (rt_vec2){ g->target_min.x + (f + 0.5) * dx, g->target_min.y + (r + 0.5) * dy };
}

/* Good posts of a files x ranks lattice (rider: whether the men ride, for the depth a
 * post may stand in); per file in *per_file when not NULL. */
static int good_posts(const rt_world *w, const rt_goal_def *g, int files, int ranks, bool rider, int *per_file)
{
	int good = 0;
	for (int f = 0; f < files; ++f) {
		int here = 0;
		for (int r = 0; r < ranks; ++r) here += post_ground(w, lattice_point(g, files, ranks, f, r), rider);
		if (per_file) per_file[f] = here;
		good += here;
	}
	return good;
}

/* E5, "命令一千多正红旗骑兵散布在河滩上" (seed 000): a unit ordered to spread over the place
 * it marches to takes all of it, in even files and ranks across its target rectangle,
 * each man to his own post (rt_world_set_agent_post), where without the order each man
 * stops where he enters the place, and a unit coming from one side stands in a knot on
 * that side. The men are those apply_order marked (posted == 2). The lattice is F files
 * by R ranks as near the rectangle's shape as the men allow; its cells whose centre is
 * ground no man may stand on (impassable, water at the sea's mean level as deep as his
 * drowning depth) hold no post, and while there are fewer good posts than men the
 * lattice is drawn closer, a file or a rank at a time, down to files and ranks a body
 * and a fifth apart (2.4 radii). A place too small for the unit posts the men nearest
 * its centre and the rest stop where they enter it. Men are handed posts in the order
 * of their places: sorted west to east into the files (as many men to a file as it has
 * good posts), each file south to north, so that paths to the posts seldom cross and no
 * two men share a post. A place is shared: men of the side already posted in it by an
 * earlier order (another unit spread over it, still steady and on that order) are posted
 * again with the newcomers, all on one lattice, so that no two posts coincide (before
 * 2026-12-05 each unit laid its own lattice over the place, and two units of equal size
 * stood post on post). */
static rt_status spread_over(rt_run *run, int unit, rt_goal_id goal)
{
	rt_world *w = run->world;
	rt_agents *a = &w->agents;
	int n = 0, side = -1;
	double radius = 0.0;
	bool rider = true; /* posts as deep as a horse stands in only if every man rides */
	for (int s = 0; s < a->count; ++s)
		if ((int)a->unit[s] == unit && a->posted[s] == 2) {
			n++;
			side = a->side[s];
			radius = fmax(radius, (double)a->radius[s]);
			rider = rider && a->mount[s];
		}
	if (n == 0 || goal == RT_NO_GOAL) {
		for (int s = 0; s < a->count; ++s)
			if ((int)a->unit[s] == unit && a->posted[s] == 2) a->posted[s] = 0;
		return RT_OK;
	}
	/* the men already posted in the place join the newcomers (only this unit's men are
	 * marked 2 here: apply_order marks a unit's and calls this at once) */
	for (int s = 0; s < a->count; ++s)
		if (a->posted[s] == 1 && (int)a->unit[s] != unit && a->side[s] == side && a->order_goal[s] == goal &&
		    a->state[s] <= RT_STATE_ENGAGED) {
			a->posted[s] = 2;
			n++;
			radius = fmax(radius, (double)a->radius[s]);
			rider = rider && a->mount[s];
		}
	const rt_goal_def *g = &w->goals[goal].def;
	const double width = g->target_max.x - g->target_min.x, height = g->target_max.y - g->target_min.y;
	const double gap = fmax(2.4 * radius, 1e-3);
	const int files_max = (int)fmin(4096.0, fmax(1.0, floor(width / gap))), ranks_max = (int)fmin(4096.0, fmax(1.0, floor(height / gap)));
	int files = (int)fmin((double)files_max, fmax(1.0, round(sqrt((double)n * width / fmax(height, 1e-3)))));
	int ranks = (int)fmin((double)ranks_max, fmax(1.0, ceil((double)n / files)));
	int good = good_posts(w, g, files, ranks, rider, NULL);
	/* closer, keeping the cells near square, by a twentieth (at least one file or rank) at
	 * a time, until every man has a post or no closer will do */
	while (good < n && (files < files_max || ranks < ranks_max)) {
		if (ranks >= ranks_max || (files < files_max && width / files >= height / ranks))
			files = (int)fmin((double)files_max, files + fmax(1.0, floor(files / 20.0)));
		else
			ranks = (int)fmin((double)ranks_max, ranks + fmax(1.0, floor(ranks / 20.0)));
		good = good_posts(w, g, files, ranks, rider, NULL);
	}
	const int posts = good < n ? good : n;
	rt_allocator al = run->allocator;
	post_rank *men = rt__calloc(&al, (size_t)n, sizeof *men);
	int *per_file = rt__calloc(&al, (size_t)files, sizeof *per_file);
	if (!men || !per_file) {
		rt__free(&al, men, (size_t)n * sizeof *men);
		rt__free(&al, per_file, (size_t)files * sizeof *per_file);
		for (int s = 0; s < a->count; ++s)
			if (a->posted[s] == 2) a->posted[s] = 0; /* no mark left for a later order */
		return RT_ERR_NOMEM;
	}
	good_posts(w, g, files, ranks, rider, per_file);
	int m = 0;
	for (int s = 0; s < a->count; ++s)
		if (a->posted[s] == 2) {
			a->posted[s] = 0;
			men[m++] = (post_rank){ a->x[s], a->id[s], s };
		}
	/* the men nearest the place take the posts when there are fewer posts than men */
	if (posts < n) {
		const double cx = 0.5 * (g->target_min.x + g->target_max.x), cy = 0.5 * (g->target_min.y + g->target_max.y);
		for (int i = 0; i < n; ++i) men[i].key = hypot(a->x[men[i].slot] - cx, a->y[men[i].slot] - cy);
		qsort(men, (size_t)n, sizeof *men, cmp_post_rank);
		for (int i = 0; i < n; ++i) men[i].key = a->x[men[i].slot];
	}
	qsort(men, (size_t)posts, sizeof *men, cmp_post_rank);
	/* file by file from the west, each man of a file to its good posts from the south; a
	 * unit with fewer men than posts leaves the last posts empty */
	for (int f = 0, first = 0; f < files && first < posts; ++f) {
		const int count = per_file[f] < posts - first ? per_file[f] : posts - first;
		for (int i = first; i < first + count; ++i) men[i].key = a->y[men[i].slot];
		qsort(men + first, (size_t)count, sizeof *men, cmp_post_rank);
		for (int r = 0, k = 0; r < ranks && k < count; ++r) {
			const rt_vec2 p = lattice_point(g, files, ranks, f, r);
			if (!post_ground(w, p, rider)) continue;
			const int s = men[first + k++].slot;
			a->posted[s] = 1;
			a->post_x[s] = (float)p.x;
			a->post_y[s] = (float)p.y;
		}
		first += count;
	}
	rt__free(&al, men, (size_t)n * sizeof *men);
	rt__free(&al, per_file, (size_t)files * sizeof *per_file);
	return RT_OK;
}

/* Gives every man of a unit (still taking orders) the order; first: the unit's orders at
 * the start, which find nobody holding ground he was ordered to hold. */
static rt_status apply_order(rt_run *run, int unit, const rt_sc_order *o, bool first)
{
	rt_world *w = run->world;
	rt_agents *a = &w->agents;
	run->unit_order[unit] = *o;
	/* Q3, Q4: the place a march sends it to, kept while it holds or contains there */
	if (o->kind == RT_ORDER_MARCH) run->unit_sent_to[unit] = o->place;
	else if (o->kind != RT_ORDER_HOLD && o->kind != RT_ORDER_CONTAIN) run->unit_sent_to[unit] = -1;
	/* the fort the unit's commander shelters in, if he does: the order is given there, and
	 * men of the unit sheltering in another fort do not hear it */
	int order_fort = -1;
	const rt_corps *k = &w->corps[run->scenario->units[unit].corps];
	if (k->commander >= 0) {
		const int cs = (int)w->slot_of_id[k->commander];
		if (a->state[cs] == RT_STATE_SHELTERED) order_fort = rt__fort_at(w, a->x[cs], a->y[cs]);
	}
	const int quarry = hunted(run, o);
	for (int s = 0; s < a->count; ++s) {
		if ((int)a->unit[s] != unit) continue;
		const uint8_t st = a->state[s];
		/* men in a fort obey an order to march or attack: they sally out by the gate */
		const bool sally = st == RT_STATE_SHELTERED && rt__order_sallies(o->kind);
		if (sally && order_fort >= 0 && rt__fort_at(w, a->x[s], a->y[s]) != order_fort) continue;
		if (st != RT_STATE_FORMED && st != RT_STATE_MARCHING && st != RT_STATE_ENGAGED && !sally) continue;
		if (sally) rt__fort_leave(w, s);
		set_pace(w, s, o->gallop);
		switch (o->kind) {
		case RT_ORDER_HOLD:
		case RT_ORDER_AMBUSH:
		case RT_ORDER_SHELTER:
			a->stance[s] = RT_STANCE_HOLD;
			a->goal[s] = RT_NO_GOAL;
			break;
		case RT_ORDER_ADVANCE:
			a->stance[s] = RT_STANCE_ADVANCE;
			a->goal[s] = RT_NO_GOAL;
			break;
		case RT_ORDER_CONTAIN:
			/* M7: the halt stops the pursuit ("各旗停止追击"), not the holding of ground:
			 * a man it finds of stance hold — standing where he was ordered to hold
			 * (a bank, a ford, an ambush), or on his way to the place he was sent to —
			 * keeps that ground, or goes on to it and keeps it there; only the men
			 * attacking, advancing or pursuing draw off to the ring's distance */
			a->keep[s] = !first && a->stance[s] == RT_STANCE_HOLD;
			a->stance[s] = RT_STANCE_CONTAIN;
			if (!a->keep[s]) a->goal[s] = RT_NO_GOAL;
			break;
		case RT_ORDER_GUARD:
			a->stance[s] = RT_STANCE_GUARD; /* M8: by the corps' commander (guard.c) */
			a->goal[s] = RT_NO_GOAL;
			break;
		case RT_ORDER_HUNT: /* Q10: after the commander named (locomotion.c, command.c) */
			set_hunt(w, s, quarry);
			break;
		case RT_ORDER_COUNTER_CHARGE:
			a->stance[s] = RT_STANCE_REARGUARD; /* M6: at his pursuers, then after him (guard.c) */
			a->goal[s] = RT_NO_GOAL;
			if (st == RT_STATE_MARCHING) a->state[s] = RT_STATE_FORMED; /* they turn and face */
			break;
		case RT_ORDER_MARCH:
		case RT_ORDER_EMBARK:   /* to the landing, where the boats take them (flight.c) */
		case RT_ORDER_ATTACK:   /* closing with the enemy met on the way */
		case RT_ORDER_WITHDRAW: /* M5: in order, faces to the enemy upon them (locomotion.c) */
			a->stance[s] = o->kind == RT_ORDER_ATTACK ? RT_STANCE_ADVANCE : o->kind == RT_ORDER_WITHDRAW ? RT_STANCE_WITHDRAW : RT_STANCE_HOLD;
			a->goal[s] = place_goal(run, o->place);
			a->state[s] = RT_STATE_MARCHING;
			break;
		default:
			break;
		}
		if (o->kind != RT_ORDER_HUNT && a->stance[s] != RT_STANCE_HUNT && a->order_stance[s] == RT_STANCE_HUNT)
			a->quarry[s] = -1; /* a hunt's man is not followed on the next order (a pursuit keeps its own: Q2) */
		/* his order, to which he comes back when the pursuit by doctrine no longer sends him (Q2) */
		a->order_goal[s] = a->goal[s];
		a->order_stance[s] = a->stance[s];
		/* a post goes with its order; the halt leaves a man keeping ground his post (M7);
		 * an order to spread marks the men it reaches for spread_over (2) */
		if (o->spread) a->posted[s] = 2;
		else if (!(o->kind == RT_ORDER_CONTAIN && a->keep[s])) a->posted[s] = 0;
		a->level[s] = 0;
	}
	if (o->spread) {
		rt_status s = spread_over(run, unit, place_goal(run, o->place));
		if (s != RT_OK) return s;
	}
	return log_order(run, unit, o);
}

/* ---- building -------------------------------------------------------------------------- */
static rt_status add_goal(rt_run *run, int place, rt_error *err)
{
	if (place < 0 || run->place_goal[place] != RT_NO_GOAL) return RT_OK;
	const rt_sc_place *p = &run->scenario->places[place];
	rt_goal_def g = rt_goal_def_default();
	g.target_min = p->min;
	g.target_max = p->max;
	g.arrival = RT_ARRIVAL_STOP;
	g.field_cell_m = run->field_cell_m;
	return rt_world_add_goal(run->world, &g, &run->place_goal[place], err);
}

/* The nearest dry, passable point to p within 100 m (spiral over map cells), or false:
 * a block of men drawn over a stream or a wall stands beside it instead. */
static bool passable_near(const rt_world *w, rt_vec2 p, rt_vec2 *out)
{
	if (rt__terrain_passable(w, p.x, p.y) && rt_world_water_depth_m(w, p) <= 0.0) {
		*out = p;
		return true;
	}
	const double cell = w->map_cell > 0.0 ? w->map_cell : 1.0;
	for (int ring = 1; ring * cell <= fmax(100.0, 3.0 * cell); ++ring)
		for (int k = -ring; k <= ring; ++k)
			for (int side = 0; side < 4; ++side) {
				int i = side < 2 ? k : (side == 2 ? -ring : ring);
				int j = side < 2 ? (side == 0 ? -ring : ring) : k;
				rt_vec2 q = { p.x + i * cell, p.y + j * cell };
				if (rt__terrain_passable(w, q.x, q.y) && rt_world_water_depth_m(w, q) <= 0.0) {
					*out = q;
					return true;
				}
			}
	return false;
}

static rt_vec2 unit_anchor(const rt_run *run, const rt_sc_unit *u)
{
	const rt_scenario *sc = run->scenario;
	rt_vec2 c;
	if (u->place >= 0) {
		c = sc->places[u->place].centre;
	} else {
		rt_lonlat ll = { u->lon, u->lat };
		c = rt_map_lonlat_to_xy(sc->map, ll);
	}
	c.x += u->offset_x_m;
	c.y += u->offset_y_m;
	return c;
}

/* A fire the scenario sets, in the map's metres: a point, or a line centred on it. */
static rt_ignition fire_line(const rt_run *run, const rt_sc_fire *f)
{
	const rt_scenario *sc = run->scenario;
	rt_vec2 c;
	if (f->place >= 0) {
		c = sc->places[f->place].centre;
	} else {
		rt_lonlat ll = { f->lon, f->lat };
		c = rt_map_lonlat_to_xy(sc->map, ll);
	}
	c.x += f->offset_x_m;
	c.y += f->offset_y_m;
	const double b = f->bearing_deg * PI / 180.0, half = 0.5 * f->length_m;
	const rt_vec2 along = { sin(b) * half, cos(b) * half };
	rt_ignition g = { { c.x - along.x, c.y - along.y }, { c.x + along.x, c.y + along.y }, f->at_s };
	return g;
}

/* The world refuses a fire (off the map, or on nothing that burns): the error names
 * the scenario's fire by its line and path. */
static rt_status environment_error(const rt_scenario *sc, rt_status s, rt_error *err)
{
	int i = -1;
	if (!err || sscanf(err->field, "fire.ignitions[%d]", &i) != 1 || i < 0 || i >= sc->fire_count) return s;
	char message[sizeof err->message];
	snprintf(message, sizeof message, "%s", err->message);
	/* "fire.ignitions[1] at (x, y) m touches nothing that burns": the fire at ... */
	const char *rest = message;
	const size_t named = strlen(err->field);
	if (strncmp(rest, err->field, named) == 0 && strncmp(rest + named, " at (", 5) == 0) rest += named + 1;
	char path[64];
	snprintf(path, sizeof path, "environment.fires.%d", i);
	return rt__fail_at(err, s, sc->file, sc->fires[i].line, 1, path, "%s: %s%s", path, rest == message ? "" : "the fire ", rest);
}

/* A man put in a fort at the start takes his place in it, a general and his guards too
 * (Q9; the gate opens for a general and his guards when it is full, rt__opens_when_full). */
static void take_place(rt_world *w, const rt_agent_def *d)
{
	if (d->state != RT_STATE_SHELTERED || !w->fort_side) return;
	const int f = rt__fort_at(w, d->position.x, d->position.y);
	if (f >= 0) w->fort_sheltered[f]++;
}

static rt_status add_men(rt_run *run, int unit_index, const rt_sc_unit *u, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	rt_world *w = run->world;
	const rt_sc_corps *c = &sc->corps[u->corps];
	const int n = (int)fmax(1.0, floor((double)u->men / run->scale + 0.5));
	/* the block: frontage x depth, rotated to face facing_deg (0 north, 90 east) */
	const bool rider = u->kind == RT_KIND_HORSE || u->kind == RT_KIND_HORSE_ARCHER;
	const double spacing = (rider ? 3.0 : 1.5) * sqrt(run->scale);
	double frontage = u->frontage_m, depth = u->depth_m;
	if (frontage <= 0.0 && depth <= 0.0) depth = spacing * fmax(1.0, floor(sqrt((double)n / 4.0)));
	if (frontage <= 0.0) frontage = fmax(spacing, (double)n * spacing * spacing / depth);
	if (depth <= 0.0) depth = fmax(spacing, (double)n * spacing * spacing / frontage);
	const int cols = (int)fmax(1.0, ceil(sqrt((double)n * frontage / depth)));
	const int rows = (n + cols - 1) / cols;
	const double fx = frontage / cols, fy = depth / rows;
	const double th = u->facing_deg * PI / 180.0;
	const rt_vec2 ahead = { sin(th), cos(th) }, right = { cos(th), -sin(th) };
	const rt_vec2 centre = unit_anchor(run, u);
	const rt_morale_params *mp = &w->def.morale;
	const rt_kind_params *kp = &w->def.kinds[u->kind];
	for (int i = 0; i < n; ++i) {
		const int row = i / cols, col = i % cols;
		const double along = (col + 0.5) * fx - 0.5 * frontage, back = (row + 0.5) * fy - 0.5 * depth;
		rt_vec2 p = { centre.x + along * right.x - back * ahead.x, centre.y + along * right.y - back * ahead.y };
		rt_vec2 q;
		if (!passable_near(w, p, &q)) {
			char where[48];
			snprintf(where, sizeof where, "x %.0f m, y %.0f m", p.x, p.y);
			return rt__fail_at(err, RT_ERR_INVALID, sc->file, u->line, 1, u->id,
					   "corps.%s.units.%s: no dry, passable ground within 100 m of %s for its men", c->id, u->id, where);
		}
		rt_agent_def d = rt_agent_def_default();
		d.position = q;
		d.kind = u->kind;
		d.side = (uint8_t)c->side;
		d.unit = (uint32_t)unit_index;
		d.corps = u->corps;
		d.experience = u->experience;
		d.radius_m = kp->radius_m * sqrt(run->scale);
		d.morale = (float)(u->morale >= 0.0 ? u->morale : mp->baseline[u->experience]);
		d.flee_goal = place_goal(run, c->ranks_refuge >= 0 ? c->ranks_refuge : c->refuge);
		/* who wears armour and who carries a torch: a fixed share, spread evenly */
		const bool armour = floor((i + 1) * u->armour_share) > floor(i * u->armour_share);
		const bool torch = floor((i + 1) * u->torch_share) > floor(i * u->torch_share);
		const double gun_share = (double)u->guns / (double)u->men; /* who serves a gun, spread evenly */
		const bool gun = floor((i + 1) * gun_share) > floor(i * gun_share);
		d.equipment = (uint8_t)(RT_EQUIP_WEAPON | (armour ? RT_EQUIP_ARMOUR : 0) | (torch ? RT_EQUIP_TORCH : 0) |
					(kp->missile_range_m > 0.0 ? RT_EQUIP_MISSILE : 0) | (gun ? RT_EQUIP_CANNON : 0));
		if (u->order.kind == RT_ORDER_SHELTER) d.state = RT_STATE_SHELTERED;
		rt_agent_id id;
		rt_status s = rt_world_add_agent(w, &d, &id, err);
		if (s != RT_OK) return s;
		take_place(w, &d);
	}
	return RT_OK;
}

static rt_status add_commander(rt_run *run, int corps, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	rt_world *w = run->world;
	const rt_sc_corps *c = &sc->corps[corps];
	const rt_sc_unit *first = &sc->units[c->first_unit];
	rt_vec2 p = unit_anchor(run, first), q;
	if (!passable_near(w, p, &q)) q = p;
	const uint32_t hq_unit = (uint32_t)(sc->unit_count + corps);
	rt_agent_def d = rt_agent_def_default();
	d.position = q;
	d.kind = RT_KIND_COMMANDER;
	d.side = (uint8_t)c->side;
	d.unit = hq_unit;
	d.corps = corps;
	d.experience = RT_EXPERIENCE_VETERAN;
	d.radius_m = w->def.kinds[RT_KIND_COMMANDER].radius_m * sqrt(run->scale);
	if (c->mounted) {
		/* M8: he rides, at a horse's pace and with its bulk, and is a rider to the charge,
		 * the crush, water, his horse's stamina and the report (docs/model.md section 10b) */
		d.mounted = true;
		d.radius_m = w->def.kinds[RT_KIND_HORSE].radius_m * sqrt(run->scale);
		d.free_speed_mps = w->def.kinds[RT_KIND_HORSE].free_speed_mps;
	}
	d.flee_goal = place_goal(run, c->refuge);
	if (first->order.kind == RT_ORDER_SHELTER) d.state = RT_STATE_SHELTERED;
	rt_agent_id id;
	rt_status s = rt_world_add_agent(w, &d, &id, err);
	if (s != RT_OK) return s;
	take_place(w, &d);
	if ((s = rt_world_set_corps_commander(w, corps, id, err)) != RT_OK) return s;
	run->commander[corps] = (int32_t)id;
	/* his guard (M8): men of kind guard round him */
	const int guards = c->guards > 0 ? (int)fmax(1.0, floor(c->guards / run->scale + 0.5)) : 0;
	for (int i = 0; i < guards; ++i) {
		const double ang = 2.0 * PI * i / guards, r = 3.0 * sqrt(run->scale);
		rt_vec2 g = { q.x + r * cos(ang), q.y + r * sin(ang) }, gq;
		if (!passable_near(w, g, &gq)) gq = q;
		rt_agent_def gd = d;
		gd.position = gq;
		gd.kind = c->mounted ? RT_KIND_HORSE : RT_KIND_GUARD; /* mounted, his guards are horsemen */
		gd.mounted = false;                                      /* their kind's */
		gd.free_speed_mps = 0.0;                                 /* their kind's */
		gd.stance = RT_STANCE_GUARD; /* he keeps by his commander (guard.c) */
		gd.radius_m = w->def.kinds[gd.kind].radius_m * sqrt(run->scale);
		gd.morale = (float)w->def.morale.baseline[RT_EXPERIENCE_VETERAN];
		if ((s = rt_world_add_agent(w, &gd, NULL, err)) != RT_OK) return s;
		take_place(w, &gd);
	}
	return RT_OK;
}

/* The sides' refuges, the flight fields' parameters (the run's field cell; the half
 * strength in agents) and the landings' boats, whose capacities are in men: a boat of k
 * men or more takes round(capacity / k) agents; smaller boats are pooled into boats of
 * one agent, round(count x capacity / k) of them (at least one), so a landing takes the
 * scenario's men per turnaround as nearly as agents allow (docs/scenario-format.md). */
static rt_status add_refuges_and_boats(rt_run *run, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	rt_world *w = run->world;
	rt_flight_params fp = sc->flight;
	fp.field_cell_m = run->field_cell_m;
	fp.enemy_half_men = sc->flight.enemy_half_men / run->scale;
	fp.fire_men = sc->flight.fire_men / run->scale; /* in agents, as the enemy is counted */
	rt_status s = rt_world_set_flight(w, &fp, err);
	if (s != RT_OK) return s;
	for (int i = 0; i < sc->refuge_count; ++i) {
		const rt_sc_place *pl = &sc->places[sc->refuges[i].place];
		rt_refuge_def rd = rt_refuge_def_default();
		rd.side = (uint8_t)sc->refuges[i].side;
		rd.target_min = pl->min;
		rd.target_max = pl->max;
		if ((s = rt_world_add_refuge(w, &rd, NULL, err)) != RT_OK) return s;
	}
	for (int p = 0; p < sc->place_count; ++p) {
		const rt_sc_place *pl = &sc->places[p];
		if (!pl->boats) continue;
		if ((s = add_goal(run, p, err)) != RT_OK) return s;
		rt_boats_def bd = rt_boats_def_default();
		bd.side = (uint8_t)pl->boats_side;
		bd.target_min = pl->min;
		bd.target_max = pl->max;
		if (pl->boat_capacity >= run->scale) {
			bd.boats = pl->boat_count;
			bd.capacity = (int)floor(pl->boat_capacity / run->scale + 0.5);
		} else {
			bd.boats = (int)fmin(10000.0, fmax(1.0, floor((double)pl->boat_count * pl->boat_capacity / run->scale + 0.5)));
			bd.capacity = 1;
		}
		bd.turnaround_s = pl->turnaround_s;
		bd.goal = place_goal(run, p);
		if ((s = rt_world_add_boats(w, &bd, NULL, err)) != RT_OK) return s;
	}
	return RT_OK;
}

static rt_status build(rt_run *run, const rt_run_def *def, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	const rt_map *map = sc->map;
	int nx, ny;
	double cell;
	rt_vec2 origin;
	rt_map_size(map, &nx, &ny, &cell, &origin);
	rt_world_def wd = rt_world_def_default();
	wd.seed = def->seed;
	wd.dt_s = sc->dt_s;
	wd.threads = def->threads;
	wd.bounds_min = origin;
	wd.bounds_max = (rt_vec2){ origin.x + nx * cell, origin.y + ny * cell };
	wd.agent_capacity = (int)fmin(1e8, (double)sc->men / run->scale + sc->corps_count * 64.0 + 16.0);
	wd.allocator = run->allocator;
	/* an agent is sqrt(scale) men wide: distances between bodies in contact grow with it */
	wd.morale.capture_distance_m *= sqrt(run->scale);
	wd.morale.kneel_distance_m *= sqrt(run->scale);
	wd.combat.withdraw_face_m *= sqrt(run->scale);
	wd.morale.barred_men /= run->scale; /* a threshold in men, counted in agents (section 10a) */
	wd.command.route_men /= run->scale; /* Q8: a route's least size in men, counted in agents */
	wd.morale.flight_pace_spread = run->scenario->pace_spread; /* the spread of the bands' paces is the men's (section 9) */
	/* a general's lead on his column is a distance on the ground, plus one rider's spacing
	 * in a column at this scale (the nearest agent stands for the nearest of scale men) */
	if (wd.command.column_lead_m > 0.0) wd.command.column_lead_m += 3.0 * sqrt(run->scale);
	/* neighbour cells wide enough that the search (at most 8 cells out) sees every body
	 * an agent can touch within one time gap */
	double max_radius = 0.0, max_speed = 0.0;
	for (int k = 0; k < RT_KIND_COUNT; ++k) {
		max_radius = fmax(max_radius, wd.kinds[k].radius_m * sqrt(run->scale));
		max_speed = fmax(max_speed, wd.kinds[k].free_speed_mps * rt__max_run_factor(&wd.morale));
	}
	wd.cell_size_m = fmax(0.5, (2.0 * max_radius + max_speed * wd.locomotion.time_gap_s + 8.0 * wd.locomotion.neighbor_range_m) / 6.0);
	wd.max_period_level = 3;
	rt_status s;
	run->world = rt_world_create(&wd, err);
	if (!run->world) return err ? err->code : RT_ERR_NOMEM;
	rt_world *w = run->world;
	if ((s = rt_world_set_map(w, map, err)) != RT_OK) return s;
	/* fort capacities are in men; an agent is scale men */
	if (w->fort_capacity)
		for (int f = 0; f < w->feature_count; ++f)
			w->fort_capacity[f] = (int)floor(w->fort_capacity[f] / run->scale + 0.5);
	rt_environment_def env = rt_environment_def_default();
	env.start_jd_ut = sc->start_jd_ut;
	env.latitude_deg = sc->lat;
	env.longitude_deg = sc->lon;
	env.cloud_cover = sc->cloud_cover;
	env.tide = sc->tide;
	env.weather.rain_count = sc->rain_count;
	env.weather.rain_time_s = sc->rain_time_s;
	env.weather.rain_mm_per_h = sc->rain_mm_per_h;
	env.weather.wind_count = sc->wind_count;
	env.weather.wind_time_s = sc->wind_time_s;
	env.weather.wind_speed_mps = sc->wind_speed_mps;
	env.weather.wind_from_deg = sc->wind_from_deg;
	env.weather.ground_wetness = sc->ground_wetness;
	rt_ignition *fires = NULL;
	if (sc->fire_count > 0) {
		fires = rt__alloc(&run->allocator, (size_t)sc->fire_count * sizeof *fires);
		if (!fires) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the %d fires the scenario sets", sc->fire_count);
		for (int i = 0; i < sc->fire_count; ++i) fires[i] = fire_line(run, &sc->fires[i]);
	}
	env.fire.ignition_count = sc->fire_count;
	env.fire.ignitions = fires;
	s = rt_world_set_environment(w, &env, err);
	rt__free(&run->allocator, fires, (size_t)sc->fire_count * sizeof *fires);
	if (s != RT_OK) return environment_error(sc, s, err);
	for (int i = 0; i < sc->side_count; ++i) {
		if (!sc->sides[i].map_side[0]) continue;
		bool holds_fort = false; /* a side may hold only camps */
		for (int f = 0; f < rt_map_feature_count(map) && !holds_fort; ++f) {
			rt_map_feature_view v;
			holds_fort = rt_map_feature_info(map, f, &v) && v.kind == RT_MAP_FORT && strcmp(v.side, sc->sides[i].map_side) == 0;
		}
		if (holds_fort && (s = rt_world_bind_side_name(w, sc->sides[i].map_side, (uint8_t)i, err)) != RT_OK) return s;
	}
	/* goals: every place men may be sent to or flee to */
	for (int i = 0; i < sc->place_count; ++i) run->place_goal[i] = RT_NO_GOAL;
	for (int c = 0; c < sc->corps_count; ++c)
		if ((s = add_goal(run, sc->corps[c].refuge, err)) != RT_OK ||
		    (s = add_goal(run, sc->corps[c].ranks_refuge, err)) != RT_OK)
			return s;
	for (int u = 0; u < sc->unit_count; ++u)
		if (rt__order_goes(sc->units[u].order.kind))
			if ((s = add_goal(run, sc->units[u].order.place, err)) != RT_OK) return s;
	for (int k = 0; k < sc->action_count; ++k) {
		const rt_sc_order *o = &sc->actions[k].order;
		if (rt__order_goes(o->kind))
			if ((s = add_goal(run, o->place, err)) != RT_OK) return s;
		if ((s = add_goal(run, sc->actions[k].refuge, err)) != RT_OK) return s;
	}
	if ((s = add_refuges_and_boats(run, err)) != RT_OK) return s;
	/* corps, then men unit by unit, then commanders and guards */
	for (int c = 0; c < sc->corps_count; ++c) {
		const rt_sc_corps *k = &sc->corps[c];
		rt_corps_def cd = rt_corps_def_default();
		cd.side = (uint8_t)k->side;
		cd.superior = k->superior;
		cd.rank = (uint8_t)k->rank;
		cd.name = k->name;
		cd.courage = k->courage;
		cd.hunger = k->hunger;
		cd.cut_off = k->cut_off;
		cd.known = k->known;
		cd.refuge = place_goal(run, k->refuge);
		cd.ranks_refuge = place_goal(run, k->ranks_refuge);
		cd.summon = k->summon;
		cd.quarter = k->quarter;
		cd.pursue_ratio = k->pursue_ratio;
		if (k->pursue_limit >= 0) {
			cd.pursue_limited = true;
			cd.pursue_limit = sc->places[k->pursue_limit].centre;
		}
		cd.all_out_threshold = k->pursue_all_out > 0 ? (int)fmax(1.0, floor(k->pursue_all_out / run->scale + 0.5)) : 0;
		if ((s = rt_world_add_corps(w, &cd, NULL, err)) != RT_OK) return s;
	}
	for (int u = 0; u < sc->unit_count; ++u)
		if ((s = add_men(run, u, &sc->units[u], err)) != RT_OK) return s;
	for (int c = 0; c < sc->corps_count; ++c)
		if ((s = add_commander(run, c, err)) != RT_OK) return s;
	for (int u = 0; u < sc->unit_count; ++u)
		if (apply_order(run, u, &sc->units[u].order, true) != RT_OK) return rt__fail(err, RT_ERR_NOMEM, "out of memory keeping the orders");
	return RT_OK;
}

/* ---- create / destroy ------------------------------------------------------------------------ */
void rt_run_destroy(rt_run *run)
{
	if (!run) return;
	const rt_allocator a = run->allocator;
	const rt_scenario *sc = run->scenario;
	if (run->trace) rt_trace_abort(run->trace);
	rt_history_destroy(run->history);
	rt_world_destroy(run->world);
	rt__free(&a, run->place_goal, (size_t)(sc->place_count + 1) * sizeof(rt_goal_id));
	rt__free(&a, run->commander, (size_t)sc->corps_count * sizeof(int32_t));
	rt__free(&a, run->commander_state, (size_t)sc->corps_count * sizeof(uint8_t));
	rt__free(&a, run->commander_left, (size_t)sc->corps_count * sizeof(bool));
	rt__free(&a, run->banner_told, (size_t)sc->corps_count * sizeof(bool));
	rt__free(&a, run->hunt_close_s, (size_t)sc->corps_count * sizeof(double));
	rt__free(&a, run->hunt_told, (size_t)sc->corps_count * sizeof(bool));
	rt__free(&a, run->reached_place, (size_t)sc->corps_count * sizeof(int));
	rt__free(&a, run->reached_at_s, (size_t)sc->corps_count * sizeof(double));
	rt__free(&a, run->unit_order, (size_t)(sc->unit_count + 1) * sizeof(rt_sc_order));
	rt__free(&a, run->unit_routed, (size_t)(sc->unit_count + 1) * sizeof(bool));
	rt__free(&a, run->unit_sent_to, (size_t)(sc->unit_count + 1) * sizeof(int32_t));
	rt__free(&a, run->trigger_fired_s, (size_t)(sc->trigger_count + 1) * sizeof(double));
	rt__free(&a, run->figure_value, (size_t)(sc->history_count + 1) * sizeof(double));
	rt__free(&a, run->figure_since, (size_t)(2 * sc->history_count + 1) * sizeof(double));
	if (run->figure_cohort)
		for (int i = 0; i < sc->history_count; ++i) rt__free(&a, run->figure_cohort[i], run->initial_armour_size);
	rt__free(&a, run->figure_cohort, (size_t)(sc->history_count + 1) * sizeof(uint8_t *));
	rt__free(&a, run->initial_armour, (size_t)run->initial_armour_size);
	rt__free(&a, run->slip_mark, run->initial_armour_size * sizeof(int32_t));
	rt__free(&a, run->events, (size_t)run->event_capacity * sizeof(rt_run_event));
	rt__free(&a, run->series, (size_t)run->series_capacity * sizeof(int32_t));
	rt__free(&a, run->orders, (size_t)run->order_capacity * sizeof(rt_run_order));
	rt__free(&a, run->fire_cells, run->fire_cell_capacity * sizeof(rt_fire_log_cell));
	rt__free(&a, run->fire_logged, run->fire_logged_size);
	rt__free(&a, run, sizeof *run);
}

rt_status rt_run_create(const rt_scenario *sc, const rt_run_def *def, rt_run **out, rt_error *err)
{
	rt__error_clear(err);
	if (out) *out = NULL;
	if (!sc || !def || !out || def->cookie != RT_COOKIE)
		return rt__fail(err, RT_ERR_INVALID, "run definition was not made by rt_run_def_default()");
	if (!sc->map) return rt__fail(err, RT_ERR_STATE, "the scenario was loaded without its map (load_map false)");
	if (!(def->scale == 0.0 || (def->scale >= 1.0 && def->scale <= 1000.0)))
		return rt__fail_at(err, RT_ERR_INVALID, "", 0, 0, "scale", "scale is %g; expected 1..1000 men per agent", def->scale);
	if (!(def->until_s >= 0.0 && def->until_s <= sc->end_s + 1e-9))
		return rt__fail_at(err, RT_ERR_INVALID, "", 0, 0, "until", "until is %g s after the start; the run ends at %g s",
				   def->until_s, sc->end_s);
	if (!(def->trace_every_s >= 0.0)) return rt__fail(err, RT_ERR_INVALID, "trace_every_s is negative");
	const rt_allocator *a = &def->allocator;
	rt_run *run = rt__calloc(a, 1, sizeof *run);
	if (!run) return rt__fail(err, RT_ERR_NOMEM, "out of memory");
	run->allocator = *a;
	run->scenario = sc;
	run->seed = def->seed;
	run->scale = def->scale > 0.0 ? def->scale : sc->scale;
	run->end_s = def->until_s > 0.0 ? def->until_s : sc->end_s;
	if (sc->men / run->scale > RT_SCENARIO_MAX_AGENTS) {
		rt__fail_at(err, RT_ERR_CAPACITY, "", 0, 0, "scale", "%lld men at scale %g make %.0f agents; the limit is %d",
			    (long long)sc->men, run->scale, (double)sc->men / run->scale, RT_SCENARIO_MAX_AGENTS);
		rt__free(a, run, sizeof *run);
		return RT_ERR_CAPACITY;
	}
	double map_cell;
	rt_map_size(sc->map, NULL, NULL, &map_cell, NULL);
	run->field_cell_m = fmax(map_cell, 20.0);
	run->place_goal = rt__alloc(a, (size_t)(sc->place_count + 1) * sizeof(rt_goal_id));
	run->commander = rt__calloc(a, (size_t)sc->corps_count, sizeof(int32_t));
	run->commander_state = rt__calloc(a, (size_t)sc->corps_count, sizeof(uint8_t));
	run->commander_left = rt__calloc(a, (size_t)sc->corps_count, sizeof(bool));
	run->banner_told = rt__calloc(a, (size_t)sc->corps_count, sizeof(bool));
	run->hunt_close_s = rt__calloc(a, (size_t)sc->corps_count, sizeof(double));
	run->hunt_told = rt__calloc(a, (size_t)sc->corps_count, sizeof(bool));
	run->reached_place = rt__calloc(a, (size_t)sc->corps_count, sizeof(int));
	run->reached_at_s = rt__calloc(a, (size_t)sc->corps_count, sizeof(double));
	run->unit_order = rt__calloc(a, (size_t)(sc->unit_count + 1), sizeof(rt_sc_order));
	run->unit_routed = rt__calloc(a, (size_t)(sc->unit_count + 1), sizeof(bool));
	run->unit_sent_to = rt__calloc(a, (size_t)(sc->unit_count + 1), sizeof(int32_t));
	for (int u = 0; run->unit_sent_to && u < sc->unit_count; ++u) run->unit_sent_to[u] = -1;
	for (int u = 0; run->unit_order && u < sc->unit_count; ++u) run->unit_order[u].target = -1;
	run->trigger_fired_s = rt__calloc(a, (size_t)(sc->trigger_count + 1), sizeof(double));
	run->figure_value = rt__calloc(a, (size_t)(sc->history_count + 1), sizeof(double));
	run->figure_since = rt__calloc(a, (size_t)(2 * sc->history_count + 1), sizeof(double));
	rt_status s = RT_OK;
	if (!run->place_goal || !run->commander || !run->commander_state || !run->commander_left || !run->banner_told || !run->hunt_close_s || !run->hunt_told || !run->reached_place ||
	    !run->reached_at_s || !run->unit_order || !run->unit_routed || !run->unit_sent_to || !run->trigger_fired_s ||
	    !run->figure_value || !run->figure_since) {
		s = rt__fail(err, RT_ERR_NOMEM, "out of memory building the run");
		goto error;
	}
	for (int i = 0; i < sc->corps_count; ++i) {
		run->reached_place[i] = -1;
		run->reached_at_s[i] = -1.0;
		run->hunt_close_s[i] = -1.0;
	}
	for (int i = 0; i < sc->trigger_count; ++i) run->trigger_fired_s[i] = -1.0;
	for (int i = 0; i < sc->history_count; ++i) run->figure_value[i] = NAN;
	for (int i = 0; i < 2 * sc->history_count; ++i) run->figure_since[i] = NAN;
	if ((s = build(run, def, err)) != RT_OK) goto error;
	/* who wore armour at the start, to count what was thrown away (C3) */
	{
		rt_world *w = run->world;
		const int n = w->agents.count;
		run->initial_armour_size = (size_t)n + 1;
		run->initial_armour = rt__calloc(a, run->initial_armour_size, 1);
		if (!run->initial_armour) {
			s = rt__fail(err, RT_ERR_NOMEM, "out of memory building the run");
			goto error;
		}
		for (int slot = 0; slot < n; ++slot)
			run->initial_armour[w->agents.id[slot]] = (w->agents.equipment[slot] & RT_EQUIP_ARMOUR) ? 1 : 0;
		/* a figure of those in a place when something began (`since` with `from`) follows
		 * those men (report.c) */
		run->figure_cohort = rt__calloc(a, (size_t)sc->history_count + 1, sizeof(uint8_t *));
		bool cohorts = run->figure_cohort != NULL;
		for (int i = 0; i < sc->history_count && cohorts; ++i)
			if (sc->history[i].from >= 0 && !isnan(sc->history[i].since_s))
				cohorts = (run->figure_cohort[i] = rt__calloc(a, run->initial_armour_size, 1)) != NULL;
		run->slip_mark = rt__alloc(a, run->initial_armour_size * sizeof(int32_t));
		if (!cohorts || !run->slip_mark) {
			s = rt__fail(err, RT_ERR_NOMEM, "out of memory building the run");
			goto error;
		}
		for (size_t i = 0; i < run->initial_armour_size; ++i) run->slip_mark[i] = -1;
		for (int c = 0; c < sc->corps_count; ++c)
			run->commander_state[c] = w->agents.state[w->slot_of_id[run->commander[c]]];
		rt_world_stats st;
		rt_world_get_stats(w, &st);
		run->sheltered_at_start = st.by_state[RT_STATE_SHELTERED];
	}
	if (def->trace_path && def->trace_every_s > 0.0) {
		const int every = (int)fmax(1.0, floor(def->trace_every_s / sc->dt_s + 0.5));
		run->trace = rt_trace_open(run->world, def->trace_path, every, err);
		if (!run->trace) {
			s = err ? err->code : RT_ERR_IO;
			goto error;
		}
		if ((s = rt_trace_record(run->trace, run->world, err)) != RT_OK) goto error;
	}
	{
		rt_history_def hd = rt_history_def_default();
		hd.every_s = 60.0;
		hd.allocator = run->allocator;
		run->history = rt_history_create(run->world, &hd, err);
		if (!run->history) {
			s = err ? err->code : RT_ERR_NOMEM;
			goto error;
		}
		if ((s = rt_history_record_now(run->history, run->world, err)) != RT_OK) goto error;
	}
	if ((s = rt__run_record(run, err)) != RT_OK) goto error;
	*out = run;
	return RT_OK;
error:
	rt_run_destroy(run);
	return s;
}

/* ---- stepping ------------------------------------------------------------------------------- */
static bool enemy_near(const rt_run *run, const rt_sc_trigger *t)
{
	const rt_world *w = run->world;
	const rt_agents *a = &w->agents;
	const rt_vec2 c = run->scenario->places[t->place].centre;
	const double r2 = t->radius_m * t->radius_m;
	const double need = fmax(1.0, floor(t->men / run->scale + 0.5));
	int found = 0;
	for (int s = 0; s < a->count; ++s) {
		if (a->side[s] == t->side || !rt__active(a->state[s])) continue;
		const double dx = a->x[s] - c.x, dy = a->y[s] - c.y;
		if (dx * dx + dy * dy <= r2 && ++found >= need) return true;
	}
	return false;
}

static double unit_routed_share(const rt_run *run, int unit)
{
	const rt_agents *a = &run->world->agents;
	int men = 0, broken = 0;
	for (int s = 0; s < a->count; ++s) {
		if ((int)a->unit[s] != unit) continue;
		men++;
		const uint8_t st = a->state[s];
		broken += st == RT_STATE_ROUTING || st == RT_STATE_SURRENDERED || st == RT_STATE_CAPTURED ||
			  st == RT_STATE_DEAD_COMBAT || st == RT_STATE_DEAD_TRAMPLED || st == RT_STATE_DEAD_DROWNED ||
			  st == RT_STATE_DEAD_BURNED;
	}
	return men > 0 ? (double)broken / men : 0.0;
}

static bool condition_holds(const rt_run *run, int i)
{
	const rt_sc_trigger *t = &run->scenario->triggers[i];
	const rt_world *w = run->world;
	switch (t->condition) {
	case RT_WHEN_AT: return w->time_s >= t->at_s;
	case RT_WHEN_ENEMY_NEAR: return enemy_near(run, t);
	case RT_WHEN_FLEEING: {
		int routing = 0;
		const rt_agents *a = &w->agents;
		for (int s = 0; s < a->count; ++s) routing += a->side[s] == t->side && a->state[s] == RT_STATE_ROUTING;
		return routing >= fmax(1.0, floor(t->men / run->scale + 0.5));
	}
	case RT_WHEN_ROUTED: return unit_routed_share(run, t->unit) >= t->share;
	case RT_WHEN_COMMANDER_GONE: return w->corps[t->corps].left;
	case RT_WHEN_AFTER: {
		const double f = run->trigger_fired_s[t->after];
		return f >= 0.0 && w->time_s >= f + t->at_s;
	}
	}
	return false;
}

/* An action's `refuge`: where the men it names (a corps: its commander and guard too; a
 * commander: he and his guard only) run now if they break; a man in flight turns there at
 * once. Men dead, taken or gone are left as they are. */
static void set_refuge(rt_run *run, const rt_sc_action *act)
{
	rt_agents *a = &run->world->agents;
	const int32_t goal = run->place_goal[act->refuge];
	const uint32_t hq_unit = (uint32_t)(run->scenario->unit_count + act->corps);
	for (int s = 0; s < a->count; ++s) {
		const bool named = act->unit >= 0 ? (int)a->unit[s] == act->unit
				 : act->commander ? a->unit[s] == hq_unit
						  : a->corps[s] == act->corps;
		if (named && (rt__active(a->state[s]) || a->state[s] == RT_STATE_SHELTERED)) a->flee_goal[s] = goal;
	}
}

/* A march, attack or withdrawal ordered to a whole corps is its commander's too: he goes at its head,
 * at its pace, and his guards keep by him, sallying with it from a fort he sheltered in
 * (Q9: Wu Sangui and Wang Pu led the breakout from Xingshan, seed 003 "突出重围"). They keep their
 * stances (guard.c); every other order is for the ranks, and the commander decides for
 * himself (command.c). */
static void lead(rt_run *run, int corps, const rt_sc_order *o)
{
	if (!rt__order_sallies(o->kind)) return;
	rt_world *w = run->world;
	rt_agents *a = &w->agents;
	const uint32_t hq_unit = (uint32_t)(run->scenario->unit_count + corps);
	const int quarry = hunted(run, o);
	for (int s = 0; s < a->count; ++s) {
		if (a->unit[s] != hq_unit) continue;
		const uint8_t st = a->state[s];
		if (st == RT_STATE_SHELTERED) rt__fort_leave(w, s);
		else if (st != RT_STATE_FORMED && st != RT_STATE_MARCHING && st != RT_STATE_ENGAGED) continue;
		if (o->kind == RT_ORDER_HUNT) {
			/* Q10: he hunts at their head ("多尔衮恨不得亲手擒住张春"); his guards keep by him */
			if (a->kind[s] == RT_KIND_COMMANDER) {
				set_hunt(w, s, quarry);
				a->order_stance[s] = a->stance[s];
				a->order_goal[s] = RT_NO_GOAL;
				a->posted[s] = 0;
				a->level[s] = 0;
				set_pace(w, s, false);
			}
			continue;
		}
		a->goal[s] = place_goal(run, o->place);
		a->order_goal[s] = a->goal[s];
		if (a->kind[s] == RT_KIND_COMMANDER && (a->stance[s] == RT_STANCE_HUNT || a->stance[s] == RT_STANCE_ADVANCE)) {
			/* a hunt he led is over: he goes to the place as a general does */
			a->stance[s] = a->order_stance[s] = RT_STANCE_HOLD;
			a->quarry[s] = -1;
		}
		a->posted[s] = 0; /* he leads; the posts are his men's */
		a->state[s] = RT_STATE_MARCHING;
		a->level[s] = 0;
		/* at the pace of the order: a general who rides and his riding guards go at the
		 * gallop with a corps sent at the gallop (Yoto at the head of the Plain Red, "岳托
		 * 立即率领…往小凌河跑"), as its men do (apply_order) */
		set_pace(w, s, o->gallop);
	}
}

/* M3, Q7: a march ordered to one of its side's refuges, or a refuge given anew, is on the
 * road its commander plans then round the enemy his side remembers (flight.c; a march to
 * any other place, to attack or to take post, is by the place's own field). */
static rt_status plan_road(rt_run *run, int side, int place, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	for (int i = 0; i < sc->refuge_count; ++i)
		if (sc->refuges[i].side == side && sc->refuges[i].place == place)
			return rt_world_plan_road(run->world, (uint8_t)side, run->place_goal[place], err);
	return RT_OK;
}

static rt_status fire_trigger(rt_run *run, int i, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	const rt_sc_trigger *t = &sc->triggers[i];
	run->trigger_fired_s[i] = run->world->time_s;
	for (int k = 0; k < t->action_count; ++k) {
		const rt_sc_action *act = &sc->actions[t->first_action + k];
		rt_status s = RT_OK;
		if (act->unit >= 0) {
			s = apply_order(run, act->unit, &act->order, false);
		} else if (act->commander) {
			if (act->has_order) lead(run, act->corps, &act->order);
		} else {
			const rt_sc_corps *c = &sc->corps[act->corps];
			for (int u = c->first_unit; s == RT_OK && u < c->first_unit + c->unit_count; ++u) s = apply_order(run, u, &act->order, false);
			lead(run, act->corps, &act->order);
		}
		if (s != RT_OK) return s;
		if (act->refuge >= 0) set_refuge(run, act);
		const int side = sc->corps[act->unit >= 0 ? sc->units[act->unit].corps : act->corps].side;
		if ((act->order.kind == RT_ORDER_MARCH || act->order.kind == RT_ORDER_WITHDRAW) && act->order.place >= 0 && (act->has_order || !act->commander) &&
		    (s = plan_road(run, side, act->order.place, err)) != RT_OK)
			return s;
		if (act->refuge >= 0 && (s = plan_road(run, side, act->refuge, err)) != RT_OK) return s;
	}
	rt_vec2 where = t->place >= 0 ? sc->places[t->place].centre : (rt_vec2){ NAN, NAN };
	return rt__run_event(run, "trigger", t->id, where, "", "trigger %s fired", t->id);
}

/* Ambushes spring when an enemy comes into the zone (Q1). */
static rt_status check_ambushes(rt_run *run)
{
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	const rt_agents *a = &w->agents;
	for (int u = 0; u < sc->unit_count; ++u) {
		const rt_sc_order *o = &run->unit_order[u];
		if (o->kind != RT_ORDER_AMBUSH) continue;
		const int side = sc->corps[sc->units[u].corps].side;
		const rt_vec2 c = sc->places[o->place].centre;
		const double r2 = o->radius_m * o->radius_m;
		bool sprung = false;
		for (int s = 0; s < a->count && !sprung; ++s) {
			if (a->side[s] == side || !rt__active(a->state[s]) || a->state[s] == RT_STATE_SURRENDERED) continue;
			const double dx = a->x[s] - c.x, dy = a->y[s] - c.y;
			sprung = dx * dx + dy * dy <= r2;
		}
		if (!sprung) continue;
		const int zone = o->place; /* the order is replaced below */
		rt_sc_order adv = { RT_ORDER_ADVANCE, -1, 0.0, false, false, -1 };
		rt_status s = apply_order(run, u, &adv, false);
		if (s != RT_OK) return s;
		s = rt__run_event(run, "ambush", sc->units[u].id, c, "Q1", "the ambush of %s at %s is sprung",
					    sc->units[u].id, sc->places[zone].id);
		if (s != RT_OK) return s;
		run->seen[RT_PH_Q1] = true; /* its event is its first occurrence's (report.c) */
	}
	return RT_OK;
}

/* M7: a summons sent since the last check: in this check's round (a corps' summons_at_s
 * is set once and checks come every round, so the event needs no memory of its own). */
static rt_status check_summons(rt_run *run)
{
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	for (int c = 0; c < w->corps_count; ++c) {
		const rt_corps *k = &w->corps[c];
		if (k->summons_at_s < 0.0 || (int64_t)floor(k->summons_at_s / CHECK_INTERVAL_S + 1e-9) != run->last_check) continue;
		rt_status s = rt__run_event(run, "summons", sc->corps[c].id, rt__commander_at(w, c), "M7",
					    "%s summons the %.0f men inside the ring to surrender", k->name, k->encircled * run->scale);
		if (s != RT_OK) return s;
	}
	return RT_OK;
}

/* Q9: a siege laid since the last check, as check_summons: the fort named by the map. */
static rt_status check_sieges(rt_run *run)
{
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	for (int c = 0; c < w->corps_count; ++c) {
		const rt_corps *k = &w->corps[c];
		if (k->besieging < 0 || k->besieged_at_s < 0.0 ||
		    (int64_t)floor(k->besieged_at_s / CHECK_INTERVAL_S + 1e-9) != run->last_check)
			continue;
		const double *b = w->fort_box + 4 * k->besieging;
		rt_map_feature_view v;
		const char *name = w->map && rt_map_feature_info(w->map, k->besieging, &v) && v.name[0] ? v.name : "a fort";
		rt_status s = rt__run_event(run, "siege", sc->corps[c].id, (rt_vec2){ 0.5 * (b[0] + b[2]), 0.5 * (b[1] + b[3]) }, "Q9",
					    "%s besieges %s with %.0f men", k->name, name, k->besiegers * run->scale);
		if (s != RT_OK) return s;
	}
	return RT_OK;
}

/* Q8: a pursuit that began to hesitate since the last check over the routes its flight
 * split into (docs/model.md section 10, "The flight splits"): the most routes weighed so
 * far, and those it began from; told where its commander is (or nowhere, fallen). */
static rt_status check_hesitations(rt_run *run)
{
	const rt_scenario *sc = run->scenario;
	const rt_world *w = run->world;
	for (int c = 0; c < w->corps_count; ++c) {
		const rt_corps *k = &w->corps[c];
		if (k->hesitant_since_s < 0.0 || (int64_t)floor(k->hesitant_since_s / CHECK_INTERVAL_S + 1e-9) != run->last_check)
			continue;
		char was[32] = "one";
		if (k->routes_from > 1) snprintf(was, sizeof was, "%d", k->routes_from);
		rt_status s = rt__run_event(run, "pursuit_hesitates", sc->corps[c].id, rt__commander_at(w, c), k->routes_weighed >= RT_MANY_ROUTES ? "Q8" : "",
					    "%s's pursuit hesitates: the flight it knows of (%.0f men) runs by %d routes where it ran by %s",
					    k->name, k->fleeing_seen * run->scale, k->routes_weighed, was);
		if (s != RT_OK) return s;
	}
	return RT_OK;
}

static rt_status check(rt_run *run, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	rt_status s = check_ambushes(run);
	if (s == RT_OK) s = check_summons(run);
	if (s == RT_OK) s = check_sieges(run);
	if (s == RT_OK) s = check_hesitations(run);
	for (int i = 0; s == RT_OK && i < sc->trigger_count; ++i)
		if (run->trigger_fired_s[i] < 0.0 && condition_holds(run, i)) {
			s = fire_trigger(run, i, err);
			if (s != RT_OK && err && err->code == s) return s; /* a road that could not be planned */
		}
	if (s == RT_OK) s = rt__run_watch(run);
	if (s != RT_OK) return rt__fail(err, s, "out of memory keeping the run's events");
	return RT_OK;
}

rt_status rt_run_step(rt_run *run, rt_error *err)
{
	rt__error_clear(err);
	if (!run) return rt__fail(err, RT_ERR_INVALID, "no run");
	if (rt_run_done(run)) return rt__fail(err, RT_ERR_STATE, "the run has ended");
	rt_world *w = run->world;
	rt_status s = rt_world_step(w, err);
	if (s != RT_OK) return s;
	if (run->trace && (s = rt_trace_record(run->trace, w, err)) != RT_OK) return s;
	if ((s = rt__run_log_fire(run, err)) != RT_OK) return s;
	if ((s = rt_history_record(run->history, w, err)) != RT_OK) return s;
	rt__run_take_figures(run);
	const int64_t round = (int64_t)floor(w->time_s / CHECK_INTERVAL_S + 1e-9);
	if (round != run->last_check) {
		run->last_check = round;
		if ((s = check(run, err)) != RT_OK) return s;
	}
	const int64_t minute = (int64_t)floor(w->time_s / SERIES_INTERVAL_S + 1e-9);
	if (minute != run->last_series || rt_run_done(run)) {
		run->last_series = minute;
		if ((s = rt__run_record(run, err)) != RT_OK) return s;
	}
	return RT_OK;
}

/* ---- the logs of orders and fire ------------------------------------------------------ */
static rt_status log_fire_cell(rt_run *run, int32_t cell, float ignition_s, float out_s, bool hot)
{
	if (run->fire_cell_count == run->fire_cell_capacity) {
		const size_t cap = run->fire_cell_capacity ? 2 * run->fire_cell_capacity : 1024;
		rt_fire_log_cell *g = rt__realloc(&run->allocator, run->fire_cells, run->fire_cell_capacity * sizeof *g, cap * sizeof *g);
		if (!g) return RT_ERR_NOMEM;
		run->fire_cells = g;
		run->fire_cell_capacity = cap;
	}
	run->fire_cells[run->fire_cell_count++] = (rt_fire_log_cell){ cell, ignition_s, out_s, hot ? RT_FIRE_LOG_HOT : 0u };
	run->fire_logged[(size_t)cell >> 3] |= (uint8_t)(1u << (cell & 7));
	return RT_OK;
}

/* Every step: the cells on the fire's burning list not yet in the log go in, with the
 * time their flames go out, which the fire fixes when a cell catches. A cell flames for
 * at least the flame residence time (15 s), far longer than a step, so none is missed.
 * The first time (after the start, or after a checkpoint is loaded) cells the fire has
 * already burnt out go in too, as burnt from their ignition on. */
rt_status rt__run_log_fire(rt_run *run, rt_error *err)
{
	const rt_fire *f = run->world->fire;
	if (!f) return RT_OK;
	if (!run->fire_logged) {
		run->fire_logged_size = (f->cells + 7) / 8;
		run->fire_logged = rt__calloc(&run->allocator, run->fire_logged_size, 1);
		if (!run->fire_logged) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the fire log's %zu bytes", run->fire_logged_size);
	}
	if (!run->fire_scanned) {
		run->fire_scanned = true;
		for (size_t c = 0; c < f->cells; ++c)
			if (f->state[c] == RT_FIRE_CELL_BURNT && log_fire_cell(run, (int32_t)c, f->time_s[c], f->time_s[c], false) != RT_OK)
				return rt__fail(err, RT_ERR_NOMEM, "out of memory keeping the fire's cells");
	}
	for (int k = 0; k < f->burning_count; ++k) {
		const rt_fire_burning *b = &f->burning[k];
		if (run->fire_logged[(size_t)b->cell >> 3] & (1u << (b->cell & 7))) continue;
		if (log_fire_cell(run, b->cell, b->ignition_s, b->out_s, f->state[b->cell] == RT_FIRE_CELL_HOT) != RT_OK)
			return rt__fail(err, RT_ERR_NOMEM, "out of memory keeping the fire's cells");
	}
	return RT_OK;
}

rt_status rt__run_restart_logs(rt_run *run, rt_error *err)
{
	const rt_scenario *sc = run->scenario;
	run->order_count = 0;
	for (int u = 0; u < sc->unit_count; ++u)
		if (log_order(run, u, &run->unit_order[u]) != RT_OK) return rt__fail(err, RT_ERR_NOMEM, "out of memory keeping the orders");
	run->fire_cell_count = 0;
	if (run->fire_logged) memset(run->fire_logged, 0, run->fire_logged_size);
	run->fire_scanned = false;
	return rt__run_log_fire(run, err);
}

bool rt_run_done(const rt_run *run)
{
	return !run || run->world->time_s >= run->end_s - 1e-9;
}

double rt_run_time_s(const rt_run *run) { return run ? run->world->time_s : 0.0; }
double rt_run_end_s(const rt_run *run) { return run ? run->end_s : 0.0; }
rt_world *rt_run_world(rt_run *run) { return run ? run->world : NULL; }
const rt_scenario *rt_run_scenario(const rt_run *run) { return run ? run->scenario : NULL; }
struct rt_world *rt__run_world(rt_run *run) { return run->world; }
