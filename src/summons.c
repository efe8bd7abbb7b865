/* The summons to surrender (M7: "各旗离明军保持五百步的距离…劝降"): a ring that has halted
 * out of reach and holds asks the men inside to give themselves up.
 *
 * Every command round (decision_interval_s), for each side with a corps whose definition
 * says summon and whose commander is still at his post (active, not gone), serially:
 *
 *   the pockets  the enemies the side's steady men of stance contain see (each man's
 *                nearest), binned on cells of half the containing distance D; cells that
 *                touch (eight neighbours) are one pocket. Each pocket has its own ring:
 *                the men who see one of its enemies;
 *   it holds     when the ring's men, but for those who keep the ground they held when
 *                the halt came (keep, run.c), keep their distance: their mean
 *                |d - D| / D <= summons_hold_tolerance, d the distance to their nearest
 *                enemy; a ring all of whose men keep their ground holds (they stand);
 *   its centre   E, the mean position of the enemies its men see;
 *   it is shut   when each of eight 45-degree sectors round E holds one of the ring's men
 *                (those keeping their ground too: a ford held shuts its side), or is
 *                barred: every one of nine rays 5 degrees apart across it meets, nearer
 *                E than the ring, ground no man can pass or water over a man on foot's
 *                drowning depth (a river at the back of the pocket shuts that side);
 *   inside       every enemy (active, not kneeling) nearer E than the nearest man of its
 *                ring who does not keep his ground, or than D when all keep theirs (the
 *                ring's reach, to which the rays are walked too).
 *
 * Two bodies of men far apart are two pockets, each held or not by the men round it:
 * one ring round both would be centred between them and could be shut round neither.
 * The first round a pocket's ring holds, is shut and has someone inside, the side's
 * summoning commanders summon (summons_at_s): a ring shut round nobody (a few strays
 * scattered) summons nobody. From then on, in every round, each man inside a pocket whose
 * ring still holds and is shut, whose morale is below summons_morale — or who is
 * desperate or routing — kneels (surrenders) with probability 1 - exp(-lambda interval),
 * where
 *
 *   lambda = lambda_0 exp(w_hunger hunger + w_time hours_since_summons + w_gone gone)
 *            x (summons_desperate_factor if he is desperate)          (per hour)
 *
 * hunger being his corps' (M9), gone 1 when his own commander has left, fallen or been
 * taken (or he has none). Draws are Philox(seed, id, round, RT_STREAM_SUMMONS); men are
 * taken in slot order and pockets in the order of their cells, so the result is the same
 * at any thread count. Parameters: rt_command_params, docs/model.md section 10c. */
#include "world.h"

#include <math.h>
#include <stdlib.h>

#define SECTORS 8
#define RAYS 9 /* per sector, 5 degrees apart */
#define PI 3.14159265358979323846

static bool steady(uint8_t st) { return st == RT_STATE_FORMED || st == RT_STATE_MARCHING || st == RT_STATE_ENGAGED; }

/* Whether the men of corps c have lost their commander (left, fallen, taken, or none). */
static bool commander_gone(const rt_world *w, int c)
{
	if (c < 0) return true;
	const rt_corps *k = &w->corps[c];
	if (k->left || k->commander < 0) return true;
	const uint8_t st = w->agents.state[w->slot_of_id[k->commander]];
	return !rt__active(st) || st == RT_STATE_SURRENDERED;
}

/* A man of the ring, by the cell of the enemy he sees (key), in slot order among equals. */
typedef struct watcher {
	int32_t ix, iy; /* the cell of the enemy he sees */
	int slot;
	int pocket;
} watcher;

/* A pocket: its ring and what the round finds of it. */
typedef struct pocket {
	int seen;        /* men of the ring */
	int ring;        /* of them, those who do not keep their ground */
	double miss;     /* their summed |d - D| */
	double ex, ey;   /* E */
	double inner;    /* the nearest of them to E */
	unsigned sectors;
	bool shut;
} pocket;

static int compare_cells(int32_t ax, int32_t ay, int32_t bx, int32_t by)
{
	if (ax != bx) return ax < bx ? -1 : 1;
	return (ay > by) - (ay < by);
}

static int by_cell(const void *pa, const void *pb)
{
	const watcher *a = pa, *b = pb;
	const int c = compare_cells(a->ix, a->iy, b->ix, b->iy);
	return c ? c : (a->slot > b->slot) - (a->slot < b->slot);
}

static bool same_cell(const watcher *a, const watcher *b) { return a->ix == b->ix && a->iy == b->iy; }

/* The cell of an enemy at (x, y), cells of size 1 / inv, clamped to 32 bits. */
static int32_t cell_index(double x, double inv)
{
	const double i = floor(x * inv);
	return (int32_t)fmax(-2147483647.0, fmin(2147483646.0, i));
}

static int find(int *parent, int i)
{
	while (parent[i] != i) i = parent[i] = parent[parent[i]];
	return i;
}

/* The index of cell (ix, iy) among cells[0..count) (the first watcher of each, in order), or -1. */
static int cell_of(const watcher *wt, const int *cell, int count, int64_t ix, int64_t iy)
{
	if (ix > INT32_MAX || iy > INT32_MAX) return -1;
	int lo = 0, hi = count;
	while (lo < hi) {
		const int mid = (lo + hi) / 2;
		if (compare_cells(wt[cell[mid]].ix, wt[cell[mid]].iy, (int32_t)ix, (int32_t)iy) < 0) lo = mid + 1;
		else hi = mid;
	}
	return lo < count && wt[cell[lo]].ix == ix && wt[cell[lo]].iy == iy ? lo : -1;
}

/* Whether the way out of a pocket from E along (cos a, sin a) meets, nearer than reach,
 * ground no man passes or water over a man on foot's drowning depth. */
static bool ray_barred(const rt_world *w, double ex, double ey, double a, double reach)
{
	const double step = w->map_cell > 0.0 ? w->map_cell : reach;
	const double c = cos(a), s = sin(a);
	for (double r = step; r < reach; r += step) {
		const double x = ex + r * c, y = ey + r * s;
		const int cell = rt__terrain_cell(w, x, y);
		if (cell < 0) continue;
		if (!w->map_passable[cell]) return true;
		if (rt_world_water_depth_m(w, (rt_vec2){ x, y }) > w->water.foot_drown_depth_m) return true;
	}
	return false;
}

static bool sector_barred(const rt_world *w, const pocket *p, int k)
{
	if (!w->map || !isfinite(p->inner)) return false;
	for (int r = 0; r < RAYS; ++r) {
		const double a = -PI + (k + (r + 0.5) / RAYS) * (2.0 * PI / SECTORS);
		if (!ray_barred(w, p->ex, p->ey, a, p->inner)) return false;
	}
	return true;
}

static int sector_of(double dx, double dy)
{
	const int k = (int)floor((atan2(dy, dx) + PI) * (SECTORS / (2.0 * PI))); /* atan2: -pi .. pi */
	return k < 0 ? 0 : (k >= SECTORS ? SECTORS - 1 : k);
}

static void summon_side(rt_world *w, int side, int64_t round)
{
	rt_agents *a = &w->agents;
	const rt_command_params *p = &w->def.command;
	const double contain = w->def.combat.contain_distance_m;
	const int n = a->count;
	for (int c = 0; c < w->corps_count; ++c)
		if (w->corps[c].def.side == side && w->corps[c].def.summon) w->corps[c].encircled = 0;
	if (!(contain > 0.0)) return;
	/* the ring's men, by the cell of the enemy each sees */
	int m = 0;
	for (int s = 0; s < n; ++s)
		m += a->side[s] == side && a->stance[s] == RT_STANCE_CONTAIN && steady(a->state[s]) && a->enemy[s] >= 0;
	if (m == 0) return;
	watcher *wt = rt__arena_push(&w->arena, (size_t)m * sizeof *wt);
	int *cell = rt__arena_push(&w->arena, (size_t)m * sizeof *cell);
	int *parent = rt__arena_push(&w->arena, (size_t)m * sizeof *parent);
	int *name = rt__arena_push(&w->arena, (size_t)m * sizeof *name);
	pocket *pk = rt__arena_push(&w->arena, (size_t)m * sizeof *pk);
	if (!wt || !cell || !parent || !name || !pk) return; /* the step's scratch holds these (world.c) */
	const double inv = 2.0 / contain;
	m = 0;
	for (int s = 0; s < n; ++s) {
		if (a->side[s] != side || a->stance[s] != RT_STANCE_CONTAIN || !steady(a->state[s]) || a->enemy[s] < 0) continue;
		const int t = (int)w->slot_of_id[a->enemy[s]];
		wt[m++] = (watcher){ cell_index(a->x[t], inv), cell_index(a->y[t], inv), s, -1 };
	}
	qsort(wt, (size_t)m, sizeof *wt, by_cell);
	int cells = 0;
	for (int i = 0; i < m; ++i)
		if (i == 0 || !same_cell(&wt[i], &wt[i - 1])) cell[cells++] = i;
	/* cells that touch are one pocket */
	for (int i = 0; i < cells; ++i) parent[i] = i;
	for (int i = 0; i < cells; ++i) {
		const int64_t ix = wt[cell[i]].ix, iy = wt[cell[i]].iy;
		const int next[4][2] = { { 1, -1 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
		for (int j = 0; j < 4; ++j) {
			const int o = cell_of(wt, cell, cells, ix + next[j][0], iy + next[j][1]);
			if (o < 0) continue;
			const int ra = find(parent, i), rb = find(parent, o);
			if (ra != rb) parent[ra > rb ? ra : rb] = ra < rb ? ra : rb; /* the lower cell names it */
		}
	}
	/* number the pockets in the order of their first cell */
	int pockets = 0;
	for (int i = 0; i < cells; ++i) {
		if (find(parent, i) != i) continue;
		pk[pockets] = (pocket){ 0, 0, 0.0, 0.0, 0.0, INFINITY, 0u, false };
		name[i] = pockets++;
	}
	for (int i = 0, c = -1; i < m; ++i) {
		if (i == 0 || !same_cell(&wt[i], &wt[i - 1])) ++c;
		wt[i].pocket = name[find(parent, c)];
	}
	/* each pocket's ring: how well it keeps its distance, and where the men it sees stand */
	for (int i = 0; i < m; ++i) {
		const int s = wt[i].slot;
		pocket *q = &pk[wt[i].pocket];
		const int t = (int)w->slot_of_id[a->enemy[s]];
		q->ex += a->x[t];
		q->ey += a->y[t];
		q->seen++;
		if (a->keep[s]) continue;
		q->miss += fabs((double)a->enemy_dist[s] - contain);
		q->ring++;
	}
	for (int k = 0; k < pockets; ++k) {
		pocket *q = &pk[k];
		q->ex /= q->seen;
		q->ey /= q->seen;
		/* it holds (a ring of men all keeping their ground stands): whether it is shut is seen below */
		q->shut = q->ring == 0 || q->miss / q->ring <= p->summons_hold_tolerance * contain;
	}
	for (int i = 0; i < m; ++i) {
		const int s = wt[i].slot;
		pocket *q = &pk[wt[i].pocket];
		if (!q->shut) continue;
		const double dx = a->x[s] - q->ex, dy = a->y[s] - q->ey;
		q->sectors |= 1u << sector_of(dx, dy);
		if (!a->keep[s]) q->inner = fmin(q->inner, sqrt(dx * dx + dy * dy));
	}
	for (int k = 0; k < pockets; ++k)
		if (pk[k].ring == 0) pk[k].inner = contain; /* men keeping their ground stand where they stood: the ring's distance bounds it */
	int *closed = name, shut = 0; /* the shut pockets, in order (name[] is done with) */
	for (int k = 0; k < pockets; ++k) {
		pocket *q = &pk[k];
		if (!q->shut) continue;
		for (int j = 0; j < SECTORS && q->shut; ++j)
			if (!(q->sectors & (1u << j)) && !sector_barred(w, q, j)) q->shut = false;
		if (q->shut) closed[shut++] = k;
	}
	/* who is inside: each man in the first shut pocket whose ring he is within */
	uint8_t *within = NULL;
	int inside = 0;
	if (shut > 0) {
		within = rt__arena_push(&w->arena, (size_t)n);
		if (!within) return;
		for (int s = 0; s < n; ++s) {
			within[s] = 0;
			const uint8_t st = a->state[s];
			if (a->side[s] == side || !rt__active(st) || st == RT_STATE_SURRENDERED) continue;
			for (int k = 0; k < shut; ++k) {
				const pocket *q = &pk[closed[k]];
				const double dx = a->x[s] - q->ex, dy = a->y[s] - q->ey;
				if (dx * dx + dy * dy >= q->inner * q->inner) continue;
				within[s] = 1;
				inside++;
				break;
			}
		}
	}
	/* the summoners: corps of this side that summon, their commander at his post; a ring
	 * shut round nobody summons nobody */
	bool summoned = false;
	double since = INFINITY;
	for (int c = 0; c < w->corps_count; ++c) {
		rt_corps *k = &w->corps[c];
		if (k->def.side != side || !k->def.summon) continue;
		if (commander_gone(w, c) || inside == 0) continue;
		if (k->summons_at_s < 0.0) k->summons_at_s = w->time_s; /* his summons goes out */
		since = fmin(since, k->summons_at_s);
		k->encircled = inside;
		summoned = true;
	}
	if (!summoned) return;
	const double interval_h = p->decision_interval_s / 3600.0;
	const double hours = (w->time_s - since) / 3600.0;
	int64_t gave_up = 0, weapons = 0;
	for (int s = 0; s < n; ++s) {
		if (!within[s]) continue;
		const uint8_t st = a->state[s];
		const bool desperate = st == RT_STATE_DESPERATE;
		if (!(desperate || st == RT_STATE_ROUTING || a->morale[s] < p->summons_morale)) continue;
		const int c = a->corps[s];
		const double hunger = c >= 0 ? w->corps[c].def.hunger : 0.0;
		const double log_rate = log(fmax(p->summons_rate_per_h, 1e-300)) + p->summons_hunger_weight * hunger +
					p->summons_time_weight_per_h * hours + p->summons_gone_weight * (commander_gone(w, c) ? 1.0 : 0.0);
		const double rate = exp(fmin(log_rate, 50.0)) * (desperate ? p->summons_desperate_factor : 1.0);
		const double probability = 1.0 - exp(-rate * interval_h);
		if (rt_random_uniform(w->def.seed, a->id[s], (uint64_t)round, RT_STREAM_SUMMONS) >= probability) continue;
		/* he throws down his weapon and kneels */
		a->state[s] = RT_STATE_SURRENDERED;
		a->level[s] = 0;
		a->vx[s] = a->vy[s] = 0.0;
		if (a->equipment[s] & RT_EQUIP_WEAPON) weapons++;
		a->equipment[s] &= (uint8_t)~RT_EQUIP_WEAPON;
		gave_up++;
	}
	w->summoned += gave_up;
	w->knelt += gave_up;
	w->weapons_dropped += weapons;
}

size_t rt__summons_scratch(const rt_world *w)
{
	bool summons = false;
	for (int c = 0; c < w->corps_count; ++c) summons |= w->corps[c].def.summon;
	if (!summons) return 0;
	/* the watchers, cells, parents, names and pockets of a round, and who is within */
	return (size_t)w->agents.capacity * (sizeof(watcher) + 3 * sizeof(int) + sizeof(pocket) + 1) + 6 * 64;
}

void rt__summons(rt_world *w, int64_t round)
{
	unsigned sides = 0;
	for (int c = 0; c < w->corps_count; ++c)
		if (w->corps[c].def.summon) sides |= 1u << w->corps[c].def.side;
	for (int side = 0; side < RT_MAX_SIDES; ++side)
		if (sides & (1u << side)) summon_side(w, side, round);
}
