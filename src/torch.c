/* Lights in the dark (E2: "望见前面火把照耀，以为又进清军埋伏，吓得掉头而走").
 *
 * At night a torch is seen much farther than the man who carries it is known (section 7:
 * a torch is noticed up to the torch detection range, friend and foe are told apart only
 * within the identification range). A man in flight or on the march who sees, on his way,
 * lights he cannot identify takes them for the enemy. Each light j counts for man i when
 *
 *   R_id < d_ij <= min(sense_range_m, R_torch)                  seen, not known
 *   (x_j - x_i) . e_i >= d_ij cos(ahead_half_angle)             on his way, e_i where he is going
 *   v_j . (x_j - x_i) / d_ij <= receding_speed_mps              not a column moving on ahead of him
 *   j is of neither his unit nor his corps                      his own column's lights he knows
 *
 * and adds threat_weight enemy men to his threat (the sense phase's local picture, so
 * morale and his commander feel it); a routing man runs straight away from the nearest
 * such light, whatever his refuge (decide phase). e_i is the way to his refuge (routing)
 * or to his goal (marching), else his fixed heading, else his velocity.
 *
 * He takes in at most max_lights lights (more add no fear), the nearest first.
 * Torch-bearers are counting-sorted (stable, in slot order) into cells of
 * max(sense_cell_m, range / 8) over the box they stand in, once per sense phase, and a
 * cell whose lights are all of one unit or corps is marked so; each man looks through the
 * cells within range of him in rings outward from his own, passing over the cells of his
 * own unit's or corps' lights, and stops after the ring in which he reaches max_lights. Only at night (torch range beyond the
 * identification range) and only when someone carries a torch: otherwise nothing runs. */
#include "world.h"

#include <math.h>

#define PI 3.14159265358979323846

rt_torch_params rt_torch_params_default(void)
{
	/* sources in docs/model.md section 15 */
	rt_torch_params p;
	p.threat_weight = 5.0;         /* estimate (E): a light is the party round its bearer */
	p.ahead_half_angle_deg = 60.0; /* estimate (E) */
	p.receding_speed_mps = 0.3;    /* estimate (E): a quarter of a walking pace */
	p.max_lights = 20.0;           /* estimate (E): beyond twenty lights, more add no fear */
	return p;
}

rt_status rt__lights_prepare(rt_world *w, rt_lights *l, rt_error *err)
{
	memset(l, 0, sizeof *l);
	const rt_torch_params *p = &w->def.torch;
	if (!w->env.set || !(p->threat_weight > 0.0)) return RT_OK;
	const double range = fmin(w->def.combat.sense_range_m, w->env.torch_detection_range_m);
	const double identify = w->env.identification_range_m;
	if (!(range > identify)) return RT_OK; /* by day a light is no more than the man */
	const rt_agents *a = &w->agents;
	const int n = a->count;
	int count = 0;
	double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
	for (int s = 0; s < n; ++s) {
		if (!(a->equipment[s] & RT_EQUIP_TORCH) || !rt__active(a->state[s])) continue;
		count++;
		x0 = fmin(x0, a->x[s]);
		y0 = fmin(y0, a->y[s]);
		x1 = fmax(x1, a->x[s]);
		y1 = fmax(y1, a->y[s]);
	}
	if (count == 0) return RT_OK;
	/* cells: an eighth of the range, at least a sense cell, no more than one per light */
	const double width = fmax(x1 - x0, 1.0), height = fmax(y1 - y0, 1.0);
	const double max_cells = fmax(64.0, (double)count);
	double cell = fmax(w->def.combat.sense_cell_m, range / 8.0);
	while ((floor(width / cell) + 1.0) * (floor(height / cell) + 1.0) > max_cells) cell *= 1.25;
	l->origin_x = x0;
	l->origin_y = y0;
	l->cell = cell;
	l->inv_cell = 1.0 / cell;
	l->nx = (int)floor(width / cell) + 1;
	l->ny = (int)floor(height / cell) + 1;
	const int cells = l->nx * l->ny;
	l->start = rt__arena_push(&w->arena, ((size_t)cells + 1) * sizeof(int));
	l->order = rt__arena_push(&w->arena, (size_t)count * sizeof(int));
	int *cell_of = rt__arena_push(&w->arena, (size_t)count * sizeof(int));
	l->unit_of = rt__arena_push(&w->arena, (size_t)cells * sizeof(int64_t));
	l->corps_of = rt__arena_push(&w->arena, (size_t)cells * sizeof(int32_t));
	if (!l->start || !l->order || !cell_of || !l->unit_of || !l->corps_of) return rt__fail(err, RT_ERR_NOMEM, "step scratch exhausted binning %d torches", count);
	memset(l->start, 0, ((size_t)cells + 1) * sizeof(int));
	int k = 0;
	for (int s = 0; s < n; ++s) {
		if (!(a->equipment[s] & RT_EQUIP_TORCH) || !rt__active(a->state[s])) continue;
		int cx = (int)floor((a->x[s] - x0) * l->inv_cell), cy = (int)floor((a->y[s] - y0) * l->inv_cell);
		cx = cx < 0 ? 0 : (cx >= l->nx ? l->nx - 1 : cx);
		cy = cy < 0 ? 0 : (cy >= l->ny ? l->ny - 1 : cy);
		cell_of[k++] = cy * l->nx + cx;
		l->start[cy * l->nx + cx + 1]++;
	}
	for (int c = 0; c < cells; ++c) l->start[c + 1] += l->start[c];
	/* stable fill in slot order, at the running start of each cell, then shift back */
	k = 0;
	for (int s = 0; s < n; ++s) {
		if (!(a->equipment[s] & RT_EQUIP_TORCH) || !rt__active(a->state[s])) continue;
		l->order[l->start[cell_of[k++]]++] = s;
	}
	for (int c = cells; c > 0; --c) l->start[c] = l->start[c - 1];
	l->start[0] = 0;
	/* per cell, the one unit (and corps) all its lights belong to, or -1 */
	for (int c = 0; c < cells; ++c) {
		int64_t unit = -1;
		int32_t corps = -1;
		for (int j = l->start[c]; j < l->start[c + 1]; ++j) {
			const int t = l->order[j];
			if (j == l->start[c]) {
				unit = a->unit[t];
				corps = a->corps[t];
			} else {
				if (unit != (int64_t)a->unit[t]) unit = -1;
				if (corps != a->corps[t]) corps = -1;
			}
		}
		l->unit_of[c] = unit;
		l->corps_of[c] = corps;
	}
	l->count = count;
	l->range_m = range;
	l->identify_m = identify;
	l->cos_ahead = cos(p->ahead_half_angle_deg * PI / 180.0);
	l->receding_mps = p->receding_speed_mps;
	l->weight = p->threat_weight;
	l->max_lights = (int)p->max_lights;
	return RT_OK;
}

/* Where the man in slot s is going: a unit vector, false if nowhere. */
static bool his_way(const rt_world *w, int s, double *ex, double *ey)
{
	const rt_agents *a = &w->agents;
	const double x = a->x[s], y = a->y[s];
	int32_t goal = a->state[s] == RT_STATE_ROUTING ? a->flee_goal[s] : a->goal[s];
	if (goal >= 0) return rt__goal_direction(rt__way_field(w, s, goal), x, y, ex, ey);
	double vx = 0.0, vy = 0.0;
	if (a->state[s] == RT_STATE_ROUTING && a->enemy[s] >= 0) { /* away from the enemy he flees */
		const int t = (int)w->slot_of_id[a->enemy[s]];
		vx = x - a->x[t];
		vy = y - a->y[t];
	} else if (a->state[s] != RT_STATE_ROUTING && (a->heading_x[s] != 0.0f || a->heading_y[s] != 0.0f)) {
		vx = a->heading_x[s];
		vy = a->heading_y[s];
	} else {
		vx = a->vx[s];
		vy = a->vy[s];
	}
	const double norm = sqrt(vx * vx + vy * vy);
	if (!(norm > 1e-9)) return false;
	*ex = vx / norm;
	*ey = vy / norm;
	return true;
}

/* The goal of a man marching on an order (not marching off after his commander), or -1:
 * men marching on orders to one place go as one column and know its lights (two corps
 * sallying together from a fort), as a man knows his own unit's and corps' lights. */
static inline int32_t on_order(const rt_world *w, int s)
{
	return w->agents.state[s] == RT_STATE_MARCHING && !rt__marching_off(w, s) ? w->agents.goal[s] : -1;
}

/* The lights of cell c that man s takes for the enemy: counted into *count, the nearest
 * kept in (*best, *best2). */
static void lights_in_cell(const rt_world *w, const rt_lights *l, int c, int s, int32_t column, double ex, double ey,
			   int *count, int *best, double *best2)
{
	const rt_agents *a = &w->agents;
	const double x = a->x[s], y = a->y[s], range2 = l->range_m * l->range_m, id2 = l->identify_m * l->identify_m;
	const uint32_t unit = a->unit[s];
	const int32_t corps = a->corps[s];
	/* a cell of his own unit's or corps' lights only: he knows them */
	if (l->unit_of[c] >= 0 && ((uint32_t)l->unit_of[c] == unit || (corps >= 0 && l->corps_of[c] == corps))) return;
	for (int k = l->start[c]; k < l->start[c + 1]; ++k) {
		const int t = l->order[k];
		if (t == s || a->unit[t] == unit || (corps >= 0 && a->corps[t] == corps)) continue;
		if (column >= 0 && on_order(w, t) == column) continue; /* one column: marching on orders to one place */
		const double dx = a->x[t] - x, dy = a->y[t] - y, d2 = dx * dx + dy * dy;
		if (d2 <= id2 || d2 > range2) continue;
		const double d = sqrt(d2);
		if (dx * ex + dy * ey < d * l->cos_ahead) continue;                  /* not on his way */
		if ((a->vx[t] * dx + a->vy[t] * dy) > l->receding_mps * d) continue;  /* moving on ahead */
		(*count)++;
		if (d2 < *best2 || (d2 == *best2 && a->id[t] < a->id[*best])) {
			*best2 = d2;
			*best = t;
		}
	}
}

double rt__lights_feared(const rt_world *w, const rt_lights *l, int s, int *nearest)
{
	*nearest = -1;
	const rt_agents *a = &w->agents;
	if (a->state[s] != RT_STATE_ROUTING && a->state[s] != RT_STATE_MARCHING) return 0.0;
	double ex, ey;
	if (!his_way(w, s, &ex, &ey)) return 0.0;
	const double x = a->x[s], y = a->y[s], range = l->range_m;
	/* rings of cells outward from his (clamped to the lights' box), until the ring's
	 * nearest cell is out of range or he has taken in as many lights as he can */
	int cx = (int)floor((x - l->origin_x) * l->inv_cell), cy = (int)floor((y - l->origin_y) * l->inv_cell);
	const int gx = cx < 0 ? -cx : (cx >= l->nx ? cx - l->nx + 1 : 0), gy = cy < 0 ? -cy : (cy >= l->ny ? cy - l->ny + 1 : 0);
	const int first = gx > gy ? gx : gy;
	const int fx = cx > l->nx - 1 - cx ? cx : l->nx - 1 - cx, fy = cy > l->ny - 1 - cy ? cy : l->ny - 1 - cy;
	int last = fx > fy ? fx : fy;
	const int reach = (int)ceil(range * l->inv_cell) + 1;
	last = last < reach ? last : reach;
	const int32_t column = on_order(w, s);
	int count = 0, best = -1;
	double best2 = INFINITY;
	for (int ring = first; ring <= last && count < l->max_lights; ++ring) {
		if (ring > 1 && (ring - 1) * l->cell > range) break;
		for (int yy = cy - ring; yy <= cy + ring; ++yy) {
			if (yy < 0 || yy >= l->ny) continue;
			const bool edge_row = yy == cy - ring || yy == cy + ring;
			for (int xx = cx - ring; xx <= cx + ring; xx += edge_row ? 1 : (ring > 0 ? 2 * ring : 1)) {
				if (xx < 0 || xx >= l->nx) continue;
				lights_in_cell(w, l, yy * l->nx + xx, s, column, ex, ey, &count, &best, &best2);
			}
		}
	}
	*nearest = best;
	return l->weight * (count < l->max_lights ? count : l->max_lights);
}
