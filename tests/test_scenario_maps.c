/* The two historical maps as a historian would check them: every place the scenarios
 * name is there with the right kind; the forts open only at their gates and hold the
 * garrisons the record gives them; the distances between the forts and from them to the
 * sea are HISTORY.md's; the corridor at Tashan is ~12 km of dry land between the hills
 * and the bay; the flats from Bijia shan to Tashan are dry at mean sea level and under
 * water with the surge of seed 003; the three Qing trenches cut the post road and the
 * plain but leave the shore open (E6); at Dalinghe the city lies inside the Jin trench
 * on the west bank of the Daling, and the Xiaoling can be crossed only at fords. */
#include "test.h"
#include "rout/map.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SONGJIN_MAP "scenarios/songjin-1641/map.geojson"
#define DALINGHE_MAP "scenarios/dalinghe-1631/map.geojson"
#define LI_M 576.0 /* one Ming li (HISTORY.md) */

static rt_map *load(const char *path, double *seconds)
{
	rt_map_def def = rt_map_def_default();
	def.allocator = rt_test_allocator();
	rt_map *map = NULL;
	rt_error err;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rt_status s = rt_map_load(path, &def, &map, &err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (seconds) *seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	if (s != RT_OK) {
		rt_test_note("%s:%d:%d [%s] %s", err.file, err.line, err.column, err.field, err.message);
		return NULL;
	}
	return map;
}

static rt_vec2 ll(const rt_map *map, double lat, double lon)
{
	return rt_map_lonlat_to_xy(map, (rt_lonlat){ lon, lat });
}

static bool feature(const rt_map *map, const char *id, rt_map_feature_view *v)
{
	int i = rt_map_find_feature(map, id);
	return i >= 0 && rt_map_feature_info(map, i, v);
}

static rt_vec2 centre(const rt_map_feature_view *v)
{
	return (rt_vec2){ 0.5 * (v->bbox_min.x + v->bbox_max.x), 0.5 * (v->bbox_min.y + v->bbox_max.y) };
}

static double distance(rt_vec2 a, rt_vec2 b) { return hypot(b.x - a.x, b.y - a.y); }

/* The raster in cells. */
typedef struct grid {
	const rt_map *map;
	int nx, ny;
	double cell;
	rt_vec2 corner;
	const uint8_t *passable;
	const float *elevation;
	const float *water;
	const int32_t *feature;
} grid;

static grid grid_of(const rt_map *map)
{
	grid g;
	g.map = map;
	rt_map_size(map, &g.nx, &g.ny, &g.cell, &g.corner);
	g.passable = rt_map_layer_passable(map);
	g.elevation = rt_map_layer_elevation_m(map);
	g.water = rt_map_layer_water_depth_m(map);
	g.feature = rt_map_layer_feature_id(map);
	return g;
}

static int cell_x(const grid *g, double x) { return (int)floor((x - g->corner.x) / g->cell); }
static int cell_y(const grid *g, double y) { return (int)floor((y - g->corner.y) / g->cell); }
static rt_vec2 cell_centre(const grid *g, int ix, int iy)
{
	return (rt_vec2){ g->corner.x + (ix + 0.5) * g->cell, g->corner.y + (iy + 0.5) * g->cell };
}

static rt_map_kind kind_at(const grid *g, size_t c)
{
	rt_map_feature_view v;
	if (g->feature[c] < 0 || !rt_map_feature_info(g->map, g->feature[c], &v)) return RT_MAP_KIND_COUNT;
	return v.kind;
}

/* Metres from p to the nearest cell under the sea at mean sea level (elevation < 0),
 * searched within max_m. */
static double to_sea_m(const grid *g, rt_vec2 p, double max_m)
{
	int r = (int)ceil(max_m / g->cell), px = cell_x(g, p.x), py = cell_y(g, p.y);
	double best = INFINITY;
	for (int iy = py - r; iy <= py + r; ++iy) {
		if (iy < 0 || iy >= g->ny) continue;
		for (int ix = px - r; ix <= px + r; ++ix) {
			if (ix < 0 || ix >= g->nx) continue;
			if (g->elevation[(size_t)iy * g->nx + ix] < 0.0f) {
				double d = distance(p, cell_centre(g, ix, iy));
				if (d < best) best = d;
			}
		}
	}
	return best;
}

/* Which cells a walk may use: passable, within [lo, hi] m of elevation, and not in a
 * blocked disc (gates shut). */
typedef struct walk_rule {
	double elevation_lo, elevation_hi;
	int x0, y0, x1, y1;         /* window of cells, inclusive */
	int blocked_count;
	rt_vec2 blocked[8];
	double blocked_r_m;
	bool no_fords;
} walk_rule;

static bool walkable(const grid *g, const walk_rule *w, int ix, int iy)
{
	if (ix < w->x0 || iy < w->y0 || ix > w->x1 || iy > w->y1) return false;
	size_t c = (size_t)iy * g->nx + ix;
	if (!g->passable[c]) return false;
	double z = g->elevation[c];
	if (z < w->elevation_lo || z > w->elevation_hi) return false;
	if (w->no_fords && g->water[c] > 0.0f) return false; /* a ford: passable water (a road may lie on it) */
	for (int k = 0; k < w->blocked_count; ++k)
		if (distance(cell_centre(g, ix, iy), w->blocked[k]) < w->blocked_r_m) return false;
	return true;
}

static walk_rule rule_everywhere(const grid *g)
{
	walk_rule w;
	memset(&w, 0, sizeof w);
	w.elevation_lo = -1e9;
	w.elevation_hi = 1e9;
	w.x1 = g->nx - 1;
	w.y1 = g->ny - 1;
	return w;
}

/* Shortest walk (8 neighbours, diagonal steps sqrt 2 cells) from a to b by Dijkstra;
 * INFINITY when b cannot be reached. *escaped (if given) is set when the walk from a
 * reaches any cell outside the box [lo, hi] (m). */
typedef struct heap_item {
	double d;
	int c;
} heap_item;

static double walk_m(const grid *g, const walk_rule *w, rt_vec2 a, rt_vec2 b, const rt_vec2 *lo, const rt_vec2 *hi,
		     bool *escaped)
{
	int ax = cell_x(g, a.x), ay = cell_y(g, a.y), bx = cell_x(g, b.x), by = cell_y(g, b.y);
	if (escaped) *escaped = false;
	if (!walkable(g, w, ax, ay)) return -1.0; /* the start itself is shut: a test error */
	/* distances over the rule's window only */
	const int wx = w->x1 - w->x0 + 1, wy = w->y1 - w->y0 + 1;
	size_t n = (size_t)wx * (size_t)wy;
	double *dist = malloc(n * sizeof *dist);
	size_t cap = 1 << 16, count = 0;
	heap_item *heap = malloc(cap * sizeof *heap);
	double result = INFINITY;
	if (!dist || !heap) goto done;
	for (size_t c = 0; c < n; ++c) dist[c] = INFINITY;
	int start = (ay - w->y0) * wx + (ax - w->x0);
	dist[start] = 0.0;
	heap[count++] = (heap_item){ 0.0, start };
	while (count > 0) {
		heap_item top = heap[0];
		heap[0] = heap[--count];
		for (size_t i = 0;;) { /* sift down */
			size_t l = 2 * i + 1, r = l + 1, m = i;
			if (l < count && heap[l].d < heap[m].d) m = l;
			if (r < count && heap[r].d < heap[m].d) m = r;
			if (m == i) break;
			heap_item t = heap[i];
			heap[i] = heap[m];
			heap[m] = t;
			i = m;
		}
		if (top.d > dist[top.c]) continue;
		int x = w->x0 + top.c % wx, y = w->y0 + top.c / wx;
		if (escaped && lo && hi) {
			rt_vec2 p = cell_centre(g, x, y);
			if (p.x < lo->x || p.y < lo->y || p.x > hi->x || p.y > hi->y) *escaped = true;
		}
		if (x == bx && y == by) {
			result = top.d * g->cell;
			break;
		}
		for (int dy = -1; dy <= 1; ++dy)
			for (int dx = -1; dx <= 1; ++dx) {
				if (!dx && !dy) continue;
				int X = x + dx, Y = y + dy;
				if (!walkable(g, w, X, Y)) continue;
				/* no corner cutting between two shut cells */
				if (dx && dy && !walkable(g, w, x + dx, y) && !walkable(g, w, x, y + dy)) continue;
				double nd = top.d + (dx && dy ? 1.4142135623730951 : 1.0);
				int k = (Y - w->y0) * wx + (X - w->x0);
				if (nd >= dist[k]) continue;
				dist[k] = nd;
				if (count == cap) {
					cap *= 2;
					heap_item *q = realloc(heap, cap * sizeof *heap);
					if (!q) goto done;
					heap = q;
				}
				size_t i = count++;
				heap[i] = (heap_item){ nd, k };
				while (i > 0 && heap[(i - 1) / 2].d > heap[i].d) { /* sift up */
					heap_item t = heap[i];
					heap[i] = heap[(i - 1) / 2];
					heap[(i - 1) / 2] = t;
					i = (i - 1) / 2;
				}
			}
	}
done:
	free(dist);
	free(heap);
	return result;
}

/* A window of cells round two points, grown by margin_m. */
static void window(const grid *g, walk_rule *w, rt_vec2 a, rt_vec2 b, double margin_m)
{
	w->x0 = cell_x(g, fmin(a.x, b.x) - margin_m);
	w->x1 = cell_x(g, fmax(a.x, b.x) + margin_m);
	w->y0 = cell_y(g, fmin(a.y, b.y) - margin_m);
	w->y1 = cell_y(g, fmax(a.y, b.y) + margin_m);
	w->x0 = w->x0 < 0 ? 0 : w->x0;
	w->y0 = w->y0 < 0 ? 0 : w->y0;
	w->x1 = w->x1 >= g->nx ? g->nx - 1 : w->x1;
	w->y1 = w->y1 >= g->ny ? g->ny - 1 : w->y1;
}

/* A point `metres` outside a fort's gate, straight out from the fort's centre. */
static rt_vec2 outside_gate(const rt_map_feature_view *fort, int gate, double metres)
{
	rt_vec2 c = centre(fort), p = fort->gates[gate];
	double dx = p.x - c.x, dy = p.y - c.y;
	if (fabs(dx) > fabs(dy)) return (rt_vec2){ p.x + (dx > 0 ? metres : -metres), p.y };
	return (rt_vec2){ p.x, p.y + (dy > 0 ? metres : -metres) };
}

/* ---- what every scenario map must have --------------------------------------------------- */
typedef struct expected {
	const char *id;
	rt_map_kind kind;
} expected;

static bool check_features(const rt_map *map, const expected *want, int count)
{
	bool ok = true;
	for (int i = 0; i < count; ++i) {
		rt_map_feature_view v;
		if (!feature(map, want[i].id, &v)) {
			rt_test_fail(__FILE__, __LINE__, "no feature \"%s\"", want[i].id);
			ok = false;
		} else if (v.kind != want[i].kind || v.cell_count == 0) {
			rt_test_fail(__FILE__, __LINE__, "\"%s\" is a %s covering %lld cells, expected a %s", want[i].id,
				     rt_map_kind_name(v.kind), (long long)v.cell_count, rt_map_kind_name(want[i].kind));
			ok = false;
		}
	}
	/* every feature says how sure it is and where it comes from, and every named one has
	 * its Chinese name */
	int graded = 0;
	for (int i = 0; i < rt_map_feature_count(map); ++i) {
		rt_map_feature_view v;
		rt_map_feature_info(map, i, &v);
		if (!v.grade[0] || !v.source[0] || !v.note[0] || (v.name[0] && !v.name_zh[0])) {
			rt_test_fail(__FILE__, __LINE__, "features[%d] (%s) lacks a grade, source, note or Chinese name", i, v.id);
			ok = false;
		}
		graded += v.grade[0] != 0;
	}
	rt_test_note("%d features, all with grade, source and note", graded);
	return ok;
}

static const expected songjin_features[] = {
	{ "jinzhou_bay", RT_MAP_SEA }, { "coast", RT_MAP_COAST }, { "flats_bay_1200m", RT_MAP_TIDAL_FLAT },
	{ "bijia_causeway", RT_MAP_TIDAL_FLAT }, { "jinzhou", RT_MAP_FORT }, { "songshan", RT_MAP_FORT },
	{ "xingshan", RT_MAP_FORT }, { "tashan", RT_MAP_FORT }, { "ningyuan", RT_MAP_FORT },
	{ "rufeng_shan", RT_MAP_HILL }, { "bijia_shan", RT_MAP_HILL }, { "baitai_shan", RT_MAP_HILL },
	{ "western_hills", RT_MAP_HILL }, { "xiaoling_river", RT_MAP_RIVER }, { "xiaoling_ford", RT_MAP_FORD },
	{ "road_main", RT_MAP_ROAD }, { "road_coast", RT_MAP_ROAD }, { "gaoqiao", RT_MAP_ROAD },
	{ "trench_1", RT_MAP_TRENCH }, { "trench_2", RT_MAP_TRENCH }, { "trench_3", RT_MAP_TRENCH },
	{ "ming_camp", RT_MAP_CAMP }, { "ming_camp_west_rufeng", RT_MAP_CAMP }, { "qing_imperial_camp", RT_MAP_CAMP },
	{ "qing_camp_tashan_north", RT_MAP_CAMP }, { "qing_camp_tashan_south", RT_MAP_CAMP },
	{ "qing_ambush_gaoqiao", RT_MAP_CAMP },
};

TEST(scenario_songjin_map_has_every_place)
{
	double seconds;
	rt_map *map = load(SONGJIN_MAP, &seconds);
	CHECK(map);
	int nx, ny;
	double cell;
	rt_map_size(map, &nx, &ny, &cell, NULL);
	rt_test_note("%s: %d x %d cells of %g m (%.1f M), %d features: loaded in %.3f s, %.1f MB held", SONGJIN_MAP, nx, ny,
		     cell, nx * (double)ny / 1e6, rt_map_feature_count(map), seconds, rt_test_bytes_held() / 1e6);
	CHECK(cell >= 20.0 && cell <= 30.0);
	CHECK_MSG(seconds < 5.0, "loading took %.1f s", seconds);
	/* the map reaches from Ningyuan to Jinzhou and the Xiaoling mouth, with the origin in
	 * the middle of the corridor (the loader centres the extent on it) */
	rt_vec2 corner;
	rt_map_size(map, NULL, NULL, NULL, &corner);
	const double lats[] = { 40.617, 41.12, 40.917 }, lons[] = { 120.733, 121.14, 121.20 };
	for (int i = 0; i < 3; ++i) {
		rt_vec2 p = ll(map, lats[i], lons[i]);
		CHECK(p.x > corner.x + 2000.0 && p.y > corner.y + 2000.0 && p.x < -corner.x - 2000.0 && p.y < -corner.y - 2000.0);
	}
	if (!check_features(map, songjin_features, (int)(sizeof songjin_features / sizeof songjin_features[0]))) goto out;
	/* forts where HISTORY.md puts them (within 300 m), holding what the record needs */
	static const struct {
		const char *id;
		double lat, lon;
		int min_men, max_men;
	} forts[] = {
		{ "jinzhou", 41.12, 121.14, 30000, 30000 },   { "songshan", 41.03, 121.08, 20000, 30000 },
		{ "xingshan", 40.98, 121.03, 10000, 15000 },  { "tashan", 40.86, 120.94, 2000, 6000 },
		{ "ningyuan", 40.617, 120.733, 40000, 60000 },
	};
	for (int i = 0; i < 5; ++i) {
		rt_map_feature_view f;
		feature(map, forts[i].id, &f);
		double off = distance(centre(&f), ll(map, forts[i].lat, forts[i].lon));
		double area = (f.bbox_max.x - f.bbox_min.x) * (f.bbox_max.y - f.bbox_min.y);
		rt_test_note("%-9s %3.0f m from the record's point, %4.0f x %4.0f m, %d men (%.1f m2 a man), %d gates", forts[i].id, off,
			     f.bbox_max.x - f.bbox_min.x, f.bbox_max.y - f.bbox_min.y, f.capacity, area / f.capacity, f.gate_count);
		CHECK(off < 300.0);
		CHECK(f.capacity >= forts[i].min_men && f.capacity <= forts[i].max_men);
		CHECK_MSG(area / f.capacity >= 3.0, "%s: %.1f m2 a man is too tight", forts[i].id, area / f.capacity);
		CHECK(strcmp(f.side, "ming") == 0 && f.gate_count >= 2);
	}
	/* Songshan's circuit 3 li, Xingshan's 2 li (HISTORY.md), within 15 % */
	rt_map_feature_view s, x;
	feature(map, "songshan", &s);
	feature(map, "xingshan", &x);
	double s_li = 2.0 * ((s.bbox_max.x - s.bbox_min.x) + (s.bbox_max.y - s.bbox_min.y)) / LI_M;
	double x_li = 2.0 * ((x.bbox_max.x - x.bbox_min.x) + (x.bbox_max.y - x.bbox_min.y)) / LI_M;
	rt_test_note("circuits: Songshan %.2f li, Xingshan %.2f li", s_li, x_li);
	CHECK_NEAR(s_li, 3.0, 0.45);
	CHECK_NEAR(x_li, 2.0, 0.3);
	/* the post road goes in and out of the forts by their gates */
	rt_map_feature_view road;
	feature(map, "road_main", &road);
	static const char *const through[] = { "jinzhou", "songshan", "xingshan", "tashan", "ningyuan" };
	for (int i = 0; i < 5; ++i) {
		rt_map_feature_view f;
		feature(map, through[i], &f);
		int used = 0;
		for (int gate = 0; gate < f.gate_count; ++gate) {
			bool at = false;
			for (int p = road.part_start[0]; p < road.part_start[road.part_count] && !at; ++p)
				at = distance(road.points[p], f.gates[gate]) < 1.0;
			used += at;
		}
		int need = i == 0 || i == 4 ? 1 : 2;
		CHECK_MSG(used >= need, "road_main uses %d gates of %s, expected %d", used, through[i], need);
	}
	/* Bijia shan: a 78 m island 1.1 km long */
	rt_map_feature_view b;
	feature(map, "bijia_shan", &b);
	rt_map_cell top;
	CHECK(rt_map_sample(map, centre(&b), &top));
	rt_test_note("Bijia shan: %.0f m high, %.2f km long", top.elevation_m, (b.bbox_max.y - b.bbox_min.y) / 1000.0);
	CHECK_NEAR(top.elevation_m, 78.0, 3.0);
	CHECK_NEAR(b.bbox_max.y - b.bbox_min.y, 1100.0, 100.0);
out:
	rt_map_destroy(map);
}

TEST(scenario_songjin_forts_open_only_at_their_gates)
{
	rt_map *map = load(SONGJIN_MAP, NULL);
	CHECK(map);
	grid g = grid_of(map);
	static const char *const forts[] = { "jinzhou", "songshan", "xingshan", "tashan", "ningyuan" };
	for (int i = 0; i < 5; ++i) {
		rt_map_feature_view f;
		feature(map, forts[i], &f);
		rt_vec2 c = centre(&f);
		walk_rule w = rule_everywhere(&g);
		window(&g, &w, f.bbox_min, f.bbox_max, 400.0);
		/* every gate leads out */
		for (int gate = 0; gate < f.gate_count; ++gate) {
			double m = walk_m(&g, &w, c, outside_gate(&f, gate, 150.0), NULL, NULL, NULL);
			CHECK_MSG(m > 0.0 && isfinite(m), "%s: gate %d does not lead out", forts[i], gate);
		}
		/* with the gates shut no one gets out */
		w.blocked_count = f.gate_count;
		for (int gate = 0; gate < f.gate_count; ++gate) w.blocked[gate] = f.gates[gate];
		w.blocked_r_m = 2.5 * g.cell + 0.5 * f.gate_width_m;
		rt_vec2 lo = { f.bbox_min.x - g.cell, f.bbox_min.y - g.cell }, hi = { f.bbox_max.x + g.cell, f.bbox_max.y + g.cell };
		bool escaped;
		double m = walk_m(&g, &w, c, outside_gate(&f, 0, 150.0), &lo, &hi, &escaped);
		CHECK_MSG(!isfinite(m) && !escaped, "%s: a man gets out with the gates shut", forts[i]);
	}
	rt_map_destroy(map);
}

TEST(scenario_songjin_distances_match_the_record)
{
	rt_map *map = load(SONGJIN_MAP, NULL);
	CHECK(map);
	grid g = grid_of(map);
	rt_map_feature_view js, ss, xs, ts, ny;
	feature(map, "jinzhou", &js);
	feature(map, "songshan", &ss);
	feature(map, "xingshan", &xs);
	feature(map, "tashan", &ts);
	feature(map, "ningyuan", &ny);
	/* straight lines (HISTORY.md), within 15 % */
	const struct {
		const char *what;
		const rt_map_feature_view *a, *b;
		double km;
	} legs[] = {
		{ "Songshan-Xingshan", &ss, &xs, 7.0 },          { "Xingshan-Tashan", &xs, &ts, 15.0 },
		{ "Tashan-Ningyuan", &ts, &ny, 32.0 },           { "Jinzhou-Songshan (18 li)", &js, &ss, 18 * LI_M / 1000.0 },
		{ "Jinzhou-Xingshan (30 li)", &js, &xs, 30 * LI_M / 1000.0 },
	};
	for (int i = 0; i < 5; ++i) {
		double km = distance(centre(legs[i].a), centre(legs[i].b)) / 1000.0;
		rt_test_note("%-26s %5.1f km (record %.1f km)", legs[i].what, km, legs[i].km);
		CHECK_NEAR(km, legs[i].km, 0.15 * legs[i].km);
	}
	/* to the sea at mean sea level (HISTORY.md's distances to the coast), within 30 % */
	const struct {
		const char *what;
		double lat, lon, km;
	} coast[] = {
		{ "Bijia shan", 40.81, 121.05, 0.5 }, { "Tashan", 40.86, 120.94, 5.0 },   { "Ningyuan", 40.617, 120.733, 5.0 },
		{ "Gaoqiao", 40.92, 120.99, 10.0 },   { "Xingshan", 40.98, 121.03, 13.0 }, { "Songshan", 41.03, 121.08, 14.0 },
	};
	for (int i = 0; i < 6; ++i) {
		double km = to_sea_m(&g, ll(map, coast[i].lat, coast[i].lon), 25000.0) / 1000.0;
		rt_test_note("%-10s to the sea %5.2f km (record %.1f km)", coast[i].what, km, coast[i].km);
		CHECK_NEAR(km, coast[i].km, 0.3 * coast[i].km);
	}
	/* Rufeng shan 5-6 li south of Jinzhou's wall; the Xiaoling mouth where HISTORY.md puts it */
	rt_map_feature_view rufeng, river;
	feature(map, "rufeng_shan", &rufeng);
	feature(map, "xiaoling_river", &river);
	double li = (js.bbox_min.y - rufeng.bbox_max.y) / LI_M;
	rt_test_note("Rufeng shan's crest line %.1f li south of Jinzhou's wall (its north foot %.1f li)",
		     (js.bbox_min.y - centre(&rufeng).y) / LI_M, li);
	CHECK((js.bbox_min.y - centre(&rufeng).y) / LI_M > 4.0 && (js.bbox_min.y - centre(&rufeng).y) / LI_M < 7.0);
	rt_vec2 mouth = river.points[river.part_start[1] - 1];
	CHECK(distance(mouth, ll(map, 40.917, 121.20)) < 100.0);
	/* the post road is 15-30 % longer than the straight line (HISTORY.md), here 10-40 % */
	rt_map_feature_view road;
	feature(map, "road_main", &road);
	double road_m = 0.0;
	for (int p = 0; p < road.part_count; ++p)
		for (int i = road.part_start[p]; i + 1 < road.part_start[p + 1]; ++i)
			road_m += distance(road.points[i], road.points[i + 1]);
	double straight = distance(centre(&js), centre(&ss)) + distance(centre(&ss), centre(&xs)) +
			  distance(centre(&xs), centre(&ts)) + distance(centre(&ts), centre(&ny));
	rt_test_note("post road Jinzhou-Ningyuan %.1f km, %.0f %% over the straight legs", road_m / 1000.0,
		     100.0 * (road_m / straight - 1.0));
	CHECK(road_m > 1.0 * straight && road_m < 1.4 * straight);
	rt_map_destroy(map);
}

TEST(scenario_songjin_corridor_is_12_km_at_tashan)
{
	rt_map *map = load(SONGJIN_MAP, NULL);
	CHECK(map);
	grid g = grid_of(map);
	rt_map_feature_view ts;
	feature(map, "tashan", &ts);
	/* along Tashan's parallel, 300 m south of the fort: west to where the hills rise above
	 * 20 m, east to the sea at mean sea level */
	rt_vec2 t = ll(map, 40.86, 120.94);
	int iy = cell_y(&g, ts.bbox_min.y - 300.0), ix0 = cell_x(&g, t.x), west = ix0, east = ix0;
	while (west > 0 && g.elevation[(size_t)iy * g.nx + west - 1] <= 20.0f) west--;
	while (east < g.nx - 1 && g.elevation[(size_t)iy * g.nx + east + 1] >= 0.0f) east++;
	int passable = 0;
	for (int ix = west; ix <= east; ++ix) passable += g.passable[(size_t)iy * g.nx + ix] != 0;
	double km = (east - west + 1) * g.cell / 1000.0;
	rt_lonlat w = rt_map_xy_to_lonlat(map, cell_centre(&g, west, iy)), e = rt_map_xy_to_lonlat(map, cell_centre(&g, east, iy));
	rt_test_note("at %.3f N: dry land below 20 m from %.3f E (the hills) to %.3f E (the bay): %.1f km, %.0f %% passable; "
		     "hills %.0f m high 2 km further west", w.lat_deg, w.lon_deg, e.lon_deg, km, 100.0 * passable / (east - west + 1),
		     g.elevation[(size_t)iy * g.nx + west - (int)(2000.0 / g.cell)]);
	CHECK_NEAR(km, 12.0, 3.6);
	CHECK(passable >= 0.95 * (east - west + 1));
	CHECK(g.elevation[(size_t)iy * g.nx + west - (int)(2000.0 / g.cell)] > 80.0f);
	rt_map_destroy(map);
}

TEST(scenario_songjin_flats_flood_only_with_the_surge)
{
	rt_map *map = load(SONGJIN_MAP, NULL);
	CHECK(map);
	grid g = grid_of(map);
	/* the flats of the shore from Bijia shan round the head of the bay to Tashan */
	rt_vec2 lo = ll(map, 40.795, 120.94), hi = ll(map, 40.90, 121.09);
	int cells = 0, dry_at_high_water = 0;
	double lowest = INFINITY, highest = -INFINITY;
	for (int iy = cell_y(&g, lo.y); iy <= cell_y(&g, hi.y); ++iy)
		for (int ix = cell_x(&g, lo.x); ix <= cell_x(&g, hi.x); ++ix) {
			size_t c = (size_t)iy * g.nx + ix;
			if (kind_at(&g, c) != RT_MAP_TIDAL_FLAT) continue;
			double z = g.elevation[c];
			cells++;
			lowest = fmin(lowest, z);
			highest = fmax(highest, z);
			dry_at_high_water += z > 1.0; /* an ordinary high tide: range ~2 m (HISTORY.md) */
		}
	double km2 = cells * g.cell * g.cell / 1e6;
	rt_test_note("%.1f km2 of flats between Bijia shan and Tashan, %.1f to %.1f m above mean sea level; %.0f %% dry at an "
		     "ordinary high tide (+1.0 m); at a spring tide with the surge (+1.4 + 3.2 m) the highest lie under %.1f m",
		     km2, lowest, highest, 100.0 * dry_at_high_water / cells, 1.4 + 3.2 - highest);
	CHECK(km2 > 10.0);
	CHECK(lowest > 0.0);             /* dry at mean sea level */
	CHECK(highest < 3.2);            /* under water at +3.2 m */
	CHECK(1.4 + 3.2 - highest > 1.3); /* over a man's chest with a spring tide and the surge */
	CHECK(dry_at_high_water > 0.5 * cells);
	/* graded: rising from the water's edge inland, on a line north from the bay at 121.00 E */
	rt_vec2 p = ll(map, 40.80, 121.00);
	int ix = cell_x(&g, p.x), iy = cell_y(&g, p.y);
	while (g.elevation[(size_t)iy * g.nx + ix] < 0.0f) iy++;
	float prev = -1.0f;
	int steps = 0;
	for (; g.elevation[(size_t)iy * g.nx + ix] < 3.0f; ++iy, ++steps) {
		float z = g.elevation[(size_t)iy * g.nx + ix];
		CHECK_MSG(z >= prev, "the flats fall inland at cell row %d (%.1f after %.1f m)", iy, z, prev);
		prev = z;
	}
	rt_test_note("at 121.00 E the flats rise from the water to %.1f m over %.1f km", prev, steps * g.cell / 1000.0);
	CHECK(prev >= 2.4f && steps * g.cell > 800.0);
	/* the plain behind them stays dry with the surge */
	CHECK(g.elevation[(size_t)iy * g.nx + ix] > 1.4f + 3.2f);
	/* the causeway to Bijia shan: dry at mean sea level, covered by an ordinary high tide */
	rt_map_feature_view causeway;
	feature(map, "bijia_causeway", &causeway);
	CHECK(causeway.elevation_m > 0.0 && causeway.elevation_m < 1.0);
	CHECK_NEAR(causeway.bbox_max.y - causeway.bbox_min.y, 1600.0, 250.0);
	rt_map_destroy(map);
}

TEST(scenario_songjin_trenches_cut_the_road_not_the_shore)
{
	rt_map *map = load(SONGJIN_MAP, NULL);
	CHECK(map);
	grid g = grid_of(map);
	rt_map_feature_view ss, xs, ts, road;
	feature(map, "songshan", &ss);
	feature(map, "xingshan", &xs);
	feature(map, "tashan", &ts);
	feature(map, "road_main", &road);
	static const char *const trenches[] = { "trench_1", "trench_2", "trench_3" };
	for (int k = 0; k < 3; ++k) {
		const char *id = trenches[k];
		rt_map_feature_view t;
		feature(map, id, &t);
		CHECK(t.depth_m >= 2.5 && t.width_m > 3.2);
		/* it ends on the upper flats, more than 0.8 km from the sea: not along the shore */
		rt_vec2 end = t.points[t.part_start[1] - 1];
		double sea_km = to_sea_m(&g, end, 5000.0) / 1000.0;
		double len = 0.0;
		for (int i = t.part_start[0]; i + 1 < t.part_start[1]; ++i) len += distance(t.points[i], t.points[i + 1]);
		rt_test_note("%s: %.1f km long, %.1f m deep, %.1f m wide, ends %.2f km from the sea", id, len / 1000.0, t.depth_m,
			     t.width_m, sea_km);
		CHECK(sea_km > 0.8);
	}
	/* the post road from Songshan's west gate to Xingshan's north gate is cut three times */
	int cuts = 0;
	bool in_trench = false;
	const rt_vec2 *pts = road.points;
	for (int p = 0; p < road.part_count; ++p) {
		int first = road.part_start[p], last = road.part_start[p + 1] - 1;
		if (distance(pts[first], ss.gates[1]) > 1.0) continue; /* the part that leaves by the west gate */
		for (int i = first; i < last; ++i) {
			double len = distance(pts[i], pts[i + 1]);
			for (double s = 0.0; s < len; s += 0.25 * g.cell) {
				rt_vec2 q = { pts[i].x + (pts[i + 1].x - pts[i].x) * s / len, pts[i].y + (pts[i + 1].y - pts[i].y) * s / len };
				size_t c = (size_t)cell_y(&g, q.y) * g.nx + cell_x(&g, q.x);
				bool t = !g.passable[c] && kind_at(&g, c) == RT_MAP_TRENCH;
				if (t && !in_trench) cuts++;
				in_trench = t;
			}
		}
	}
	rt_test_note("the post road Songshan-Xingshan crosses %d trenches", cuts);
	CHECK(cuts == 3);
	/* from Songshan to Tashan on dry ground (at mean sea level) below 20 m: by the shore */
	walk_rule w = rule_everywhere(&g);
	rt_vec2 from = outside_gate(&ss, 2, 60.0), to = outside_gate(&ts, 2, 60.0); /* south gate, east gate */
	window(&g, &w, ll(map, 40.78, 120.90), ll(map, 41.11, 121.17), 0.0);
	w.elevation_lo = 0.0;
	w.elevation_hi = 20.0;
	double shore = walk_m(&g, &w, from, to, NULL, NULL, NULL);
	/* the same without the flats (ground above 3 m): the trenches and hills shut it */
	w.elevation_lo = 3.0;
	double inland = walk_m(&g, &w, from, to, NULL, NULL, NULL);
	/* and the post road's way, Songshan to Xingshan, inland of the flats: shut too */
	double to_xingshan = walk_m(&g, &w, from, outside_gate(&xs, 0, 60.0), NULL, NULL, NULL);
	rt_test_note("Songshan to Tashan over dry low ground: %.1f km (record: ~20-25 km by the shore); without the flats: %s; "
		     "Songshan to Xingshan without the flats: %s",
		     shore / 1000.0, isfinite(inland) ? "open" : "shut", isfinite(to_xingshan) ? "open" : "shut");
	/* HISTORY.md's ~20-25 km is a rough straight reckoning: the dry way must go down to the
	 * shore 15 km south of Songshan to round the trench ends, then west to Tashan */
	CHECK(isfinite(shore) && shore > 20000.0 && shore < 35000.0);
	CHECK(!isfinite(inland));
	CHECK(!isfinite(to_xingshan));
	rt_map_destroy(map);
}

TEST(scenario_songjin_xiaoling_is_crossed_at_fords)
{
	rt_map *map = load(SONGJIN_MAP, NULL);
	CHECK(map);
	grid g = grid_of(map);
	rt_map_feature_view ss, jz, river;
	feature(map, "songshan", &ss);
	feature(map, "jinzhou", &jz);
	feature(map, "xiaoling_river", &river);
	CHECK(river.width_m >= 30.0 && river.depth_m >= 1.5);
	/* it runs from the map's edge to the sea: no way round its head or its mouth on dry land */
	walk_rule w = rule_everywhere(&g);
	w.elevation_lo = 0.0;
	window(&g, &w, ll(map, 40.90, 120.95), ll(map, 41.17, 121.27), 0.0);
	rt_vec2 from = outside_gate(&ss, 0, 60.0), to = outside_gate(&jz, 1, 60.0); /* Songshan north, Jinzhou south */
	double by_ford = walk_m(&g, &w, from, to, NULL, NULL, NULL);
	w.no_fords = true;
	double without = walk_m(&g, &w, from, to, NULL, NULL, NULL);
	rt_test_note("Songshan to Jinzhou: %.1f km over the Xiaoling ford (18 li = %.1f km by the record); without fords: %s",
		     by_ford / 1000.0, 18 * LI_M / 1000.0, isfinite(without) ? "open" : "shut");
	CHECK(isfinite(by_ford) && by_ford < 15000.0);
	CHECK(!isfinite(without));
	rt_map_destroy(map);
}

/* ---- Dalinghe 1631 ---------------------------------------------------------------------------- */
static const expected dalinghe_features[] = {
	{ "dalinghe", RT_MAP_FORT },           { "jin_trench", RT_MAP_TRENCH },        { "daling_river", RT_MAP_RIVER },
	{ "changshan", RT_MAP_HILL },          { "xiaoling_river", RT_MAP_RIVER },     { "xiaoling_crossing", RT_MAP_FORD },
	{ "jinzhou", RT_MAP_FORT },            { "ming_camp_wu_xiang", RT_MAP_CAMP },  { "ming_camp_song_wei", RT_MAP_CAMP },
	{ "ming_laager", RT_MAP_CAMP },
};

TEST(scenario_dalinghe_map)
{
	double seconds;
	rt_map *map = load(DALINGHE_MAP, &seconds);
	CHECK(map);
	grid g = grid_of(map);
	rt_test_note("%s: %d x %d cells of %g m (%.1f M), %d features: loaded in %.3f s, %.1f MB held", DALINGHE_MAP, g.nx, g.ny,
		     g.cell, g.nx * (double)g.ny / 1e6, rt_map_feature_count(map), seconds, rt_test_bytes_held() / 1e6);
	CHECK(g.cell >= 15.0 && g.cell <= 25.0);
	if (!check_features(map, dalinghe_features, (int)(sizeof dalinghe_features / sizeof dalinghe_features[0]))) goto out;
	rt_map_feature_view city, trench, crossing, laager, camp_wu, camp_song, hill, jz;
	feature(map, "dalinghe", &city);
	feature(map, "jin_trench", &trench);
	feature(map, "xiaoling_crossing", &crossing);
	feature(map, "ming_laager", &laager);
	feature(map, "ming_camp_wu_xiang", &camp_wu);
	feature(map, "ming_camp_song_wei", &camp_song);
	feature(map, "changshan", &hill);
	feature(map, "jinzhou", &jz);
	/* the city where HISTORY.md puts it, on the west bank of the Daling */
	rt_vec2 c = centre(&city);
	CHECK(distance(c, ll(map, 41.167, 121.35)) < 100.0);
	double river_east = INFINITY, river_west = INFINITY;
	int iy = cell_y(&g, c.y);
	for (int ix = 0; ix < g.nx; ++ix) {
		size_t k = (size_t)iy * g.nx + ix;
		if (kind_at(&g, k) != RT_MAP_RIVER) continue;
		rt_map_feature_view v;
		rt_map_feature_info(map, g.feature[k], &v);
		if (strcmp(v.id, "daling_river") != 0) continue;
		double dx = cell_centre(&g, ix, iy).x - c.x;
		if (dx > 0) river_east = fmin(river_east, dx);
		else river_west = fmin(river_west, -dx);
	}
	rt_test_note("the Daling runs %.1f km east of the city (none west of it: %s)", river_east / 1000.0,
		     isfinite(river_west) ? "wrong" : "right");
	CHECK(river_east < 4000.0 && !isfinite(river_west));
	/* the Jin trench (A: 1.8 m wide, 2.5 m deep) shuts the city in */
	CHECK_NEAR(trench.width_m, 1.8, 1e-9);
	CHECK_NEAR(trench.depth_m, 2.5, 1e-9);
	walk_rule w = rule_everywhere(&g);
	rt_vec2 lo = trench.bbox_min, hi = trench.bbox_max;
	bool escaped;
	double out_m = walk_m(&g, &w, outside_gate(&city, 0, 100.0), ll(map, 41.12, 121.25), &lo, &hi, &escaped);
	CHECK_MSG(!isfinite(out_m) && !escaped, "a man walks out of the Jin trench");
	/* Changshan ~15 li from the city (HISTORY.md, B), within 30 %; the camps at its foot */
	double li = distance(c, centre(&hill)) / LI_M;
	rt_test_note("Changshan %.1f li from the city; Song Wei's camp %.1f li, Wu Xiang's %.1f li", li,
		     distance(c, centre(&camp_song)) / LI_M, distance(c, centre(&camp_wu)) / LI_M);
	CHECK_NEAR(li, 15.0, 4.5);
	rt_map_feature_view camp_zhang;
	CHECK(feature(map, "ming_camp_zhang_chun", &camp_zhang));
	const rt_map_feature_view *camps[3] = { &camp_wu, &camp_song, &camp_zhang };
	for (int i = 0; i < 3; ++i) {
		double from_city_li = distance(c, centre(camps[i])) / LI_M;
		CHECK_MSG(from_city_li > 10.0 && from_city_li < 20.0, "%s is %.1f li from the city", camps[i]->id, from_city_li);
		CHECK_MSG(distance(centre(camps[i]), centre(&hill)) < 4000.0, "%s is not at Changshan", camps[i]->id);
	}
	/* the laager 5 li beyond the crossing (HISTORY.md), within 30 % */
	rt_vec2 ford = centre(&crossing);
	double laager_li = distance(ford, centre(&laager)) / LI_M;
	rt_test_note("the laager %.1f li from the crossing, Changshan %.1f li from it", laager_li, distance(ford, centre(&hill)) / LI_M);
	CHECK_NEAR(laager_li, 5.0, 1.5);
	/* the Xiaoling is crossed only at fords: from the laager to the far bank */
	rt_vec2 far_bank = { ford.x - 1000.0, ford.y - 1000.0 };
	rt_map_cell fb;
	CHECK(rt_map_sample(map, far_bank, &fb) && fb.passable);
	double with_fords = walk_m(&g, &w, centre(&laager), far_bank, NULL, NULL, NULL);
	w.no_fords = true;
	double without = walk_m(&g, &w, centre(&laager), far_bank, NULL, NULL, NULL);
	/* Changshan and Jinzhou lie on the laager's (north-east) bank */
	double to_camp = walk_m(&g, &w, centre(&laager), centre(&camp_song), NULL, NULL, NULL);
	double to_jinzhou = walk_m(&g, &w, centre(&laager), outside_gate(&jz, 2, 60.0), NULL, NULL, NULL);
	rt_test_note("laager to the far bank: %.1f km by the crossing, %s without fords; to Song Wei's camp %.1f km and to "
		     "Jinzhou's east gate %.1f km without crossing", with_fords / 1000.0, isfinite(without) ? "open" : "shut",
		     to_camp / 1000.0, to_jinzhou / 1000.0);
	CHECK(isfinite(with_fords) && with_fords < 5000.0);
	CHECK(!isfinite(without));
	CHECK(isfinite(to_camp) && isfinite(to_jinzhou));
	/* the crossing, not the Jinzhou ford, is the way back from Changshan */
	rt_map_feature_view jford;
	CHECK(feature(map, "xiaoling_ford", &jford));
	CHECK(distance(centre(&camp_zhang), ford) < distance(centre(&camp_zhang), centre(&jford)));
out:
	rt_map_destroy(map);
}
