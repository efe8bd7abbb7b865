/* Rasterisation: draws a loaded map's features into its terrain layers (passable,
 * speed factor, elevation, water depth, topmost feature) at cell_m. The rules are in
 * docs/map-format.md; in short:
 * - Features are painted in a fixed order by kind (sea, tidal flats, coast, hills,
 *   grass and bare ground, rivers, fords and bridges, roads, camps, trenches, walls,
 *   forts) and, within a kind,
 *   in file order; the feature id layer keeps the last one painted on a cell. The order
 *   is by kind so that a ford opens a river and a road never bridges one, whatever
 *   order the features were drawn in.
 * - Every feature first becomes a list of cell spans (row, first, end), sorted and
 *   merged, so that a cell is touched once per feature even where the segments of a
 *   line or the members of a MultiPolygon overlap.
 * - Areas cover the cells whose centre they contain (scanline, even-odd). Lines cover
 *   the cells whose centre lies within max(width/2, 0.7072 cell) of them: never less
 *   than the cells the line passes through, so a thin wall leaves no diagonal gap.
 * - Hills are smooth mounds: a distance transform (Felzenszwalb and Huttenlocher 2012)
 *   gives each cell its distance from the outline, and height follows the smoothstep
 *   3t^2 - 2t^3 from the outline (t = 0) to the crest (t = 1, the cell farthest
 *   inside): gentle at the foot, steepest halfway up, rounded on top, so that the
 *   speed does not jump at a hill's edge.
 * Scratch memory (spans, crossings, one hill's distance grid) comes from the map's
 * allocator and is freed before returning.
 */
#include "map_internal.h"

#include <stdio.h>
#include <stdlib.h>

#define STAMP_MIN_CELLS 0.7072   /* just over sqrt(2)/2: a line covers every cell it crosses */
#define TRENCH_IMPASSABLE_M 2.0  /* a ditch this deep cannot be crossed under arms */
#define TRENCH_SLOW_PER_M 0.4    /* speed lost per metre of a shallower ditch */
#define TRENCH_MIN_SPEED 0.2
#define SLOPE_REFERENCE 0.1      /* slope_penalty is the speed lost per 10 % of slope */
#define SLOPE_MIN_SPEED 0.05

typedef struct span {
	int row, x0, x1; /* cells [x0, x1) of row */
} span;

typedef struct crossing {
	int row;
	double x;
} crossing;

typedef struct painter {
	rt_map *map;
	const rt_allocator *a;
	const char *file;
	rt_error *err;
	span *spans;
	int span_count, span_capacity;
	crossing *crossings;
	int crossing_count, crossing_capacity;
} painter;

static bool grow_buffer(const rt_allocator *a, void **p, int *capacity, int need, size_t item)
{
	if (need <= *capacity) return true;
	if (need > (1 << 29)) return false;
	int cap = *capacity ? *capacity : 256;
	while (cap < need) cap *= 2;
	void *q = rt__realloc(a, *p, (size_t)*capacity * item, (size_t)cap * item);
	if (!q) return false;
	*p = q;
	*capacity = cap;
	return true;
}

static bool push_span(painter *P, int row, int x0, int x1)
{
	if (row < 0 || row >= P->map->ny) return true;
	if (x0 < 0) x0 = 0;
	if (x1 > P->map->nx) x1 = P->map->nx;
	if (x1 <= x0) return true;
	if (!grow_buffer(P->a, (void **)&P->spans, &P->span_capacity, P->span_count + 1, sizeof *P->spans)) return false;
	P->spans[P->span_count++] = (span){ row, x0, x1 };
	return true;
}

static int cmp_spans(const void *a, const void *b)
{
	const span *x = a, *y = b;
	if (x->row != y->row) return x->row < y->row ? -1 : 1;
	return x->x0 < y->x0 ? -1 : x->x0 > y->x0;
}

/* Sorts spans and merges those that overlap or touch. */
static void normalise(painter *P)
{
	if (P->span_count == 0) return;
	qsort(P->spans, (size_t)P->span_count, sizeof *P->spans, cmp_spans);
	int out = 0;
	for (int i = 1; i < P->span_count; ++i) {
		span *last = &P->spans[out];
		const span *s = &P->spans[i];
		if (s->row == last->row && s->x0 <= last->x1) {
			if (s->x1 > last->x1) last->x1 = s->x1;
		} else {
			P->spans[++out] = *s;
		}
	}
	P->span_count = out + 1;
}

static int64_t span_cells(const painter *P)
{
	int64_t n = 0;
	for (int i = 0; i < P->span_count; ++i) n += P->spans[i].x1 - P->spans[i].x0;
	return n;
}

/* Row index range whose centres lie in [lo, hi] (closed) or [lo, hi) (half_open). */
static void row_range(const rt_map *m, double lo, double hi, bool half_open, int *first, int *last)
{
	const double a = ceil((lo - m->corner.y) / m->cell_m - 0.5);
	const double b = half_open ? ceil((hi - m->corner.y) / m->cell_m - 0.5) - 1.0 : floor((hi - m->corner.y) / m->cell_m - 0.5);
	*first = (int)fmax(a, 0.0);
	*last = (int)fmin(b, (double)m->ny - 1.0);
}

static int cmp_crossings(const void *a, const void *b)
{
	const crossing *x = a, *y = b;
	if (x->row != y->row) return x->row < y->row ? -1 : 1;
	return x->x < y->x ? -1 : x->x > y->x;
}

static int column_at(const rt_map *m, double x)
{
	const double i = ceil((x - m->corner.x) / m->cell_m - 0.5);
	return (int)rt__clamp(i, -1.0, (double)m->nx + 1.0);
}

/* Appends the spans of cells whose centres lie inside a polygon (parts [first_part,
 * first_part + rings): outline then holes), by the even-odd rule on cell-centre rows. */
static bool polygon_spans(painter *P, int first_part, int rings)
{
	const rt_map *m = P->map;
	P->crossing_count = 0;
	for (int r = 0; r < rings; ++r) {
		for (int i = m->part_start[first_part + r]; i + 1 < m->part_start[first_part + r + 1]; ++i) {
			const rt_vec2 a = m->points[i], b = m->points[i + 1];
			if (a.y == b.y) continue;
			int j0, j1;
			row_range(m, fmin(a.y, b.y), fmax(a.y, b.y), true, &j0, &j1);
			for (int j = j0; j <= j1; ++j) {
				const double yc = m->corner.y + (j + 0.5) * m->cell_m;
				if (!grow_buffer(P->a, (void **)&P->crossings, &P->crossing_capacity, P->crossing_count + 1,
						 sizeof *P->crossings))
					return false;
				P->crossings[P->crossing_count++] = (crossing){ j, a.x + (yc - a.y) * (b.x - a.x) / (b.y - a.y) };
			}
		}
	}
	qsort(P->crossings, (size_t)P->crossing_count, sizeof *P->crossings, cmp_crossings);
	for (int k = 0; k + 1 < P->crossing_count; k += 2) {
		const crossing *c0 = &P->crossings[k], *c1 = &P->crossings[k + 1];
		if (c0->row != c1->row) { /* cannot happen with closed rings; resynchronise */
			k -= 1;
			continue;
		}
		if (!push_span(P, c0->row, column_at(m, c0->x), column_at(m, c1->x))) return false;
	}
	return true;
}

/* Appends the polygons of feature f (a Polygon, or each member of a MultiPolygon). */
static bool area_spans(painter *P, const rt_map_feature *f)
{
	const rt_map *m = P->map;
	for (int p = f->first_part; p < f->first_part + f->part_count;) {
		int rings = 1;
		while (p + rings < f->first_part + f->part_count && m->part_hole[p + rings]) rings++;
		if (!polygon_spans(P, p, rings)) return false;
		p += rings;
	}
	return true;
}

/* Intersects [lo, hi] with the x where a + b x lies in [c0, c1]. */
static void clip_linear(double a, double b, double c0, double c1, double *lo, double *hi)
{
	if (b == 0.0) {
		if (a < c0 || a > c1) *lo = INFINITY, *hi = -INFINITY;
		return;
	}
	double x0 = (c0 - a) / b, x1 = (c1 - a) / b;
	if (x0 > x1) {
		const double t = x0;
		x0 = x1;
		x1 = t;
	}
	*lo = fmax(*lo, x0);
	*hi = fmin(*hi, x1);
}

/* Appends the cells whose centres lie within r of the polyline points [first, end). */
static bool line_spans(painter *P, int first, int end, double r)
{
	const rt_map *m = P->map;
	for (int i = first; i < end; ++i) {
		const rt_vec2 a = m->points[i], b = (i + 1 < end) ? m->points[i + 1] : a;
		if (i + 1 == end && end - first > 1) break; /* the last point ends the last segment */
		const double dx = b.x - a.x, dy = b.y - a.y, len = hypot(dx, dy);
		const double ux = len > 0.0 ? dx / len : 0.0, uy = len > 0.0 ? dy / len : 0.0;
		int j0, j1;
		row_range(m, fmin(a.y, b.y) - r, fmax(a.y, b.y) + r, false, &j0, &j1);
		for (int j = j0; j <= j1; ++j) {
			const double yc = m->corner.y + (j + 0.5) * m->cell_m;
			double lo = INFINITY, hi = -INFINITY;
			const rt_vec2 ends[2] = { a, b };
			for (int e = 0; e < 2; ++e) { /* the round caps */
				const double h2 = r * r - (yc - ends[e].y) * (yc - ends[e].y);
				if (h2 < 0.0) continue;
				lo = fmin(lo, ends[e].x - sqrt(h2));
				hi = fmax(hi, ends[e].x + sqrt(h2));
			}
			if (len > 0.0) { /* the band: 0 <= (P - A).u <= len and |(P - A).n| <= r */
				const double Y = yc - a.y;
				double blo = -INFINITY, bhi = INFINITY;
				clip_linear(Y * uy, ux, 0.0, len, &blo, &bhi);
				clip_linear(Y * ux, -uy, -r, r, &blo, &bhi);
				if (blo <= bhi) {
					lo = fmin(lo, a.x + blo);
					hi = fmax(hi, a.x + bhi);
				}
			}
			if (!(lo <= hi)) continue;
			const double i0 = ceil((lo - m->corner.x) / m->cell_m - 0.5);
			const double i1 = floor((hi - m->corner.x) / m->cell_m - 0.5) + 1.0;
			if (!push_span(P, j, (int)rt__clamp(i0, -1.0, m->nx + 1.0), (int)rt__clamp(i1, -1.0, m->nx + 1.0)))
				return false;
		}
	}
	return true;
}

static double stamp_radius(const rt_map *m, double width_m)
{
	const double r = STAMP_MIN_CELLS * m->cell_m;
	return isnan(width_m) ? r : fmax(0.5 * width_m, r);
}

/* Appends every part of f drawn as a line of the given width (rings become outlines). */
static bool outline_spans(painter *P, const rt_map_feature *f, double width_m)
{
	const rt_map *m = P->map;
	const double r = stamp_radius(m, width_m);
	for (int p = f->first_part; p < f->first_part + f->part_count; ++p)
		if (!line_spans(P, m->part_start[p], m->part_start[p + 1], r)) return false;
	return true;
}

/* ---- hills ----------------------------------------------------------------------------- */
/* Squared distance transform of one line (Felzenszwalb and Huttenlocher): d[q] =
 * min_p (q - p)^2 + f[p]. f[0] must be finite. */
static void distance_1d(const double *f, double *d, int n, int *v, double *z)
{
	int k = 0;
	v[0] = 0;
	z[0] = -INFINITY;
	z[1] = INFINITY;
	for (int q = 1; q < n; ++q) {
		double s;
		for (;;) {
			const int p = v[k];
			s = ((f[q] + (double)q * q) - (f[p] + (double)p * p)) / (2.0 * (q - p));
			if (s <= z[k]) {
				k--;
				continue;
			}
			break;
		}
		k++;
		v[k] = q;
		z[k] = s;
		z[k + 1] = INFINITY;
	}
	k = 0;
	for (int q = 0; q < n; ++q) {
		while (z[k + 1] < q) k++;
		const double dq = q - v[k];
		d[q] = dq * dq + f[v[k]];
	}
}

static rt_status paint_hill(painter *P, int index)
{
	rt_map *m = P->map;
	const rt_map_feature *f = &m->features[index];
	if (P->span_count == 0) return RT_OK;
	int r0 = P->spans[0].row, r1 = P->spans[P->span_count - 1].row, c0 = m->nx, c1 = 0;
	for (int s = 0; s < P->span_count; ++s) {
		if (P->spans[s].x0 < c0) c0 = P->spans[s].x0;
		if (P->spans[s].x1 > c1) c1 = P->spans[s].x1;
	}
	/* a grid over the hill's cells and one cell of outside ground round them */
	const int w = c1 - c0 + 2, h = r1 - r0 + 3, n = w > h ? w : h;
	const size_t grid_bytes = (size_t)w * (size_t)h * sizeof(float);
	const size_t line_bytes = (size_t)n * (3 * sizeof(double) + sizeof(int)) + sizeof(double);
	float *grid = rt__alloc(P->a, grid_bytes);
	unsigned char *line = rt__alloc(P->a, line_bytes);
	if (!grid || !line) {
		rt__free(P->a, grid, grid_bytes);
		rt__free(P->a, line, line_bytes);
		return RT_ERR_NOMEM;
	}
	double *fin = (double *)line, *dout = fin + n, *z = dout + n;
	int *v = (int *)(z + n + 1);
	const double inside = (double)w * w + (double)h * h + 1.0;
	for (size_t k = 0; k < (size_t)w * (size_t)h; ++k) grid[k] = 0.0f;
	for (int s = 0; s < P->span_count; ++s)
		for (int i = P->spans[s].x0; i < P->spans[s].x1; ++i)
			grid[(size_t)(P->spans[s].row - r0 + 1) * (size_t)w + (size_t)(i - c0 + 1)] = (float)inside;
	for (int x = 0; x < w; ++x) { /* columns, then rows */
		for (int y = 0; y < h; ++y) fin[y] = grid[(size_t)y * (size_t)w + (size_t)x];
		distance_1d(fin, dout, h, v, z);
		for (int y = 0; y < h; ++y) grid[(size_t)y * (size_t)w + (size_t)x] = (float)dout[y];
	}
	double crest = 0.0;
	for (int y = 0; y < h; ++y) {
		float *row = grid + (size_t)y * (size_t)w;
		for (int x = 0; x < w; ++x) fin[x] = row[x];
		distance_1d(fin, dout, w, v, z);
		for (int x = 0; x < w; ++x) {
			row[x] = (float)sqrt(dout[x]);
			if (row[x] > crest) crest = row[x];
		}
	}
	/* cell centres next to the outside lie about half a cell inside the outline */
	const double reach_cells = crest - 0.5;
	const double height = f->value[RT_MAPV_HEIGHT], penalty = f->value[RT_MAPV_SLOPE];
	for (int s = 0; s < P->span_count; ++s) {
		const size_t base = (size_t)P->spans[s].row * (size_t)m->nx;
		const float *row = grid + (size_t)(P->spans[s].row - r0 + 1) * (size_t)w;
		for (int i = P->spans[s].x0; i < P->spans[s].x1; ++i) {
			const double t = reach_cells > 0.0 ? rt__clamp((row[i - c0 + 1] - 0.5) / reach_cells, 0.0, 1.0) : 1.0;
			const double slope = reach_cells > 0.0 ? 6.0 * height * t * (1.0 - t) / (reach_cells * m->cell_m) : 0.0;
			const double factor = fmax(SLOPE_MIN_SPEED, pow(1.0 - penalty, slope / SLOPE_REFERENCE));
			m->elevation[base + (size_t)i] += (float)(height * t * t * (3.0 - 2.0 * t));
			m->speed[base + (size_t)i] *= (float)factor;
			m->feature_id[base + (size_t)i] = index;
		}
	}
	rt__free(P->a, grid, grid_bytes);
	rt__free(P->a, line, line_bytes);
	return RT_OK;
}

/* ---- painting ------------------------------------------------------------------------------ */
static int paint_rank(rt_map_kind kind)
{
	switch (kind) {
	case RT_MAP_SEA: return 0;
	case RT_MAP_TIDAL_FLAT: return 1;
	case RT_MAP_COAST: return 2;
	case RT_MAP_HILL: return 3;
	case RT_MAP_GRASS:
	case RT_MAP_BARE: return 4;
	case RT_MAP_RIVER: return 5;
	case RT_MAP_FORD:
	case RT_MAP_BRIDGE: return 6;
	case RT_MAP_ROAD: return 7;
	case RT_MAP_CAMP: return 8;
	case RT_MAP_TRENCH: return 9;
	case RT_MAP_WALL: return 10;
	case RT_MAP_FORT: return 11;
	case RT_MAP_KIND_COUNT: break;
	}
	return 11;
}

typedef struct paint_order {
	int rank, index;
} paint_order;

static int cmp_paint(const void *a, const void *b)
{
	const paint_order *x = a, *y = b;
	if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Counts the cells of the current spans that a river (or an earlier ford or bridge)
 * already holds. */
static int64_t river_cells(const painter *P)
{
	const rt_map *m = P->map;
	int64_t n = 0;
	for (int s = 0; s < P->span_count; ++s)
		for (int i = P->spans[s].x0; i < P->spans[s].x1; ++i) {
			const int32_t id = m->feature_id[(size_t)P->spans[s].row * (size_t)m->nx + (size_t)i];
			if (id >= 0 && (m->features[id].kind == RT_MAP_RIVER || m->features[id].kind == RT_MAP_FORD ||
					m->features[id].kind == RT_MAP_BRIDGE))
				n++;
		}
	return n;
}

enum { EFFECT_ID, EFFECT_ELEVATION, EFFECT_GROUND, EFFECT_RIVER, EFFECT_CROSSING, EFFECT_ROAD, EFFECT_TRENCH, EFFECT_BLOCK };

/* Applies one effect to every cell of the current spans and marks them as feature index.
 * Fort outlines skip the cells within gate_reach of a gate. */
static void apply(painter *P, int index, int effect, double gate_reach)
{
	rt_map *m = P->map;
	const rt_map_feature *f = &m->features[index];
	const float elevation = (float)f->value[RT_MAPV_ELEVATION], depth = (float)f->value[RT_MAPV_DEPTH];
	const float speed = isnan(f->value[RT_MAPV_SPEED]) ? 1.0f : (float)f->value[RT_MAPV_SPEED];
	const double trench_depth = f->value[RT_MAPV_DEPTH];
	const float trench_speed = (float)fmax(TRENCH_MIN_SPEED, 1.0 - TRENCH_SLOW_PER_M * trench_depth);
	for (int s = 0; s < P->span_count; ++s) {
		const span sp = P->spans[s];
		const size_t base = (size_t)sp.row * (size_t)m->nx;
		const double yc = m->corner.y + (sp.row + 0.5) * m->cell_m;
		for (int i = sp.x0; i < sp.x1; ++i) {
			const size_t c = base + (size_t)i;
			m->feature_id[c] = index;
			switch (effect) {
			case EFFECT_ID: break;
			case EFFECT_ELEVATION: m->elevation[c] = elevation; break;
			case EFFECT_GROUND:
				m->elevation[c] = elevation;
				m->speed[c] = speed;
				break;
			case EFFECT_RIVER:
				m->passable[c] = 0;
				m->speed[c] = 0.0f;
				m->water[c] = depth;
				break;
			case EFFECT_CROSSING:
				m->passable[c] = 1;
				m->speed[c] = speed;
				m->water[c] = isnan(depth) ? 0.0f : depth;
				break;
			case EFFECT_ROAD: m->speed[c] *= speed; break;
			case EFFECT_TRENCH:
				m->elevation[c] -= (float)trench_depth;
				if (trench_depth >= TRENCH_IMPASSABLE_M) {
					m->passable[c] = 0;
					m->speed[c] = 0.0f;
				} else {
					m->speed[c] *= trench_speed;
				}
				break;
			case EFFECT_BLOCK: {
				bool gate = false;
				const double xc = m->corner.x + (i + 0.5) * m->cell_m;
				for (int g = 0; g < f->gate_count && !gate; ++g) {
					const rt_vec2 p = m->gates[f->first_gate + g];
					gate = hypot(xc - p.x, yc - p.y) <= gate_reach;
				}
				if (!gate) {
					m->passable[c] = 0;
					m->speed[c] = 0.0f;
				}
				break;
			}
			}
		}
	}
}

static rt_status paint(painter *P, int index)
{
	rt_map *m = P->map;
	rt_map_feature *f = &m->features[index];
	P->span_count = 0;
	bool ok;
	const bool wall = f->kind == RT_MAP_WALL;
	if (f->area && !wall) ok = area_spans(P, f);
	else ok = outline_spans(P, f, f->value[RT_MAPV_WIDTH]);
	if (!ok) return RT_ERR_NOMEM;
	normalise(P);
	f->cell_count = span_cells(P);
	switch (f->kind) {
	case RT_MAP_SEA:
	case RT_MAP_TIDAL_FLAT: apply(P, index, EFFECT_GROUND, 0.0); break;
	case RT_MAP_COAST: apply(P, index, EFFECT_ELEVATION, 0.0); break;
	case RT_MAP_HILL: return paint_hill(P, index);
	case RT_MAP_RIVER: apply(P, index, EFFECT_RIVER, 0.0); break;
	case RT_MAP_FORD:
	case RT_MAP_BRIDGE:
		if (f->cell_count > 0 && river_cells(P) == 0) {
			char label[256];
			char field[64];
			rt__map_feature_label(m, index, label, sizeof label);
			snprintf(field, sizeof field, "features[%d].geometry", index);
			return rt__fail_at(P->err, RT_ERR_INVALID, P->file, 0, 0, field,
					   "%s: does not cross any river; draw a %s across the river it serves", label,
					   rt_map_kind_name(f->kind));
		}
		apply(P, index, EFFECT_CROSSING, 0.0);
		break;
	case RT_MAP_ROAD: apply(P, index, EFFECT_ROAD, 0.0); break;
	case RT_MAP_CAMP:
	case RT_MAP_GRASS:
	case RT_MAP_BARE: apply(P, index, EFFECT_ID, 0.0); break;
	case RT_MAP_TRENCH: apply(P, index, EFFECT_TRENCH, 0.0); break;
	case RT_MAP_WALL: apply(P, index, EFFECT_BLOCK, 0.0); break;
	case RT_MAP_FORT: {
		/* the inside, then the wall round it, open at the gates */
		apply(P, index, EFFECT_ID, 0.0);
		const int inside = P->span_count;
		if (!outline_spans(P, f, f->value[RT_MAPV_WALL_WIDTH])) return RT_ERR_NOMEM;
		const double reach = fmax(0.5 * f->value[RT_MAPV_GATE_WIDTH], stamp_radius(m, f->value[RT_MAPV_WALL_WIDTH]) + 0.5 * m->cell_m);
		/* move the outline spans to the front, apply, then count inside and wall together */
		const int total = P->span_count;
		span *save = P->spans;
		P->spans = save + inside;
		P->span_count = total - inside;
		normalise(P);
		apply(P, index, EFFECT_BLOCK, reach);
		const int outline = P->span_count;
		P->spans = save;
		P->span_count = inside + outline;
		normalise(P);
		f->cell_count = span_cells(P);
		break;
	}
	case RT_MAP_KIND_COUNT: break;
	}
	return RT_OK;
}

rt_status rt__map_rasterise(rt_map *m, const char *file, rt_error *err)
{
	const rt_allocator *a = &m->allocator;
	const size_t n = m->cells;
	m->passable = rt__alloc(a, n * sizeof *m->passable);
	m->speed = rt__alloc(a, n * sizeof *m->speed);
	m->elevation = rt__alloc(a, n * sizeof *m->elevation);
	m->water = rt__alloc(a, n * sizeof *m->water);
	m->feature_id = rt__alloc(a, n * sizeof *m->feature_id);
	if (!m->passable || !m->speed || !m->elevation || !m->water || !m->feature_id)
		return rt__fail_at(err, RT_ERR_NOMEM, file, 0, 0, "", "out of memory: the map's layers need %zu bytes (%d x %d cells)",
				   n * RT_MAP_BYTES_PER_CELL, m->nx, m->ny);
	const float land = (float)m->land_elevation_m;
	for (size_t c = 0; c < n; ++c) {
		m->passable[c] = 1;
		m->speed[c] = 1.0f;
		m->elevation[c] = land;
		m->water[c] = 0.0f;
		m->feature_id[c] = -1;
	}
	painter P = { m, a, file, err, NULL, 0, 0, NULL, 0, 0 };
	const size_t order_bytes = (size_t)m->feature_count * sizeof(paint_order);
	paint_order *order = rt__alloc(a, order_bytes);
	rt_status s = RT_OK;
	if (!order) {
		s = RT_ERR_NOMEM;
		goto error;
	}
	for (int i = 0; i < m->feature_count; ++i) order[i] = (paint_order){ paint_rank(m->features[i].kind), i };
	qsort(order, (size_t)m->feature_count, sizeof *order, cmp_paint);
	for (int k = 0; k < m->feature_count && s == RT_OK; ++k) s = paint(&P, order[k].index);
error:
	if (s == RT_ERR_NOMEM) rt__fail_at(err, RT_ERR_NOMEM, file, 0, 0, "", "out of memory while drawing the map");
	rt__free(a, order, order_bytes);
	rt__free(a, P.spans, (size_t)P.span_capacity * sizeof *P.spans);
	rt__free(a, P.crossings, (size_t)P.crossing_capacity * sizeof *P.crossings);
	return s;
}
