/* libFuzzer harness for the GeoJSON map loader (rt_map_load_string): parsing,
 * validation, projection and rasterisation. Each input is loaded twice: once as it is,
 * with every invariant of a loaded map checked, and once with one allocation refused
 * (chosen from the input), which must give RT_ERR_NOMEM. Both runs must give back every
 * byte. Half the inputs (by their hash) are read as foreign files, with unknown
 * properties allowed; kind aliases are always declared. Seeds: fuzz/corpus/map/;
 * dictionary: fuzz/map.dict. */
#include "fuzz.h"
#include "rout/map.h"

#include <math.h>

/* Small rasters: the fuzzer's time goes into the loader, not into painting millions of
 * cells (a larger map is refused with RT_ERR_CAPACITY, which is fine). 1 << 18 cells is
 * 25.6 km square at the default 50 m cell. */
#define FUZZ_MAP_MAX_CELLS (1ll << 18)
#define FUZZ_MAP_CELL_M 50.0

/* How a GIS layer might name its kinds (rt_map_def.kind_aliases). */
static const rt_map_kind_alias aliases[] = {
	{ "coastline", RT_MAP_COAST },
	{ "ocean", RT_MAP_SEA },
	{ "stream", RT_MAP_RIVER },
	{ "fortress", RT_MAP_FORT },
};

/* Half the inputs (by a bit of their hash) are read as foreign files that may carry
 * properties no kind knows. */
static rt_map_def fuzz_def(bool foreign)
{
	rt_map_def def = rt_map_def_default();
	def.allocator = fuzz_allocator();
	def.cell_m = FUZZ_MAP_CELL_M;
	def.max_cells = FUZZ_MAP_MAX_CELLS;
	def.kind_aliases = aliases;
	def.kind_alias_count = (int)(sizeof aliases / sizeof aliases[0]);
	def.allow_unknown_properties = foreign;
	return def;
}

/* What a user of a loaded map relies on. */
static void check_map(const rt_map *map)
{
	int nx, ny;
	double cell_m;
	rt_vec2 corner;
	rt_map_size(map, &nx, &ny, &cell_m, &corner);
	FUZZ_CHECK(nx > 0 && ny > 0 && (long long)nx * ny <= FUZZ_MAP_MAX_CELLS, "%d x %d cells", nx, ny);
	FUZZ_CHECK(cell_m >= RT_MAP_MIN_CELL_M && cell_m <= RT_MAP_MAX_CELL_M, "cell %g m", cell_m);
	FUZZ_CHECK(isfinite(corner.x) && isfinite(corner.y), "corner (%g, %g)", corner.x, corner.y);
	const int features = rt_map_feature_count(map);
	const uint8_t *passable = rt_map_layer_passable(map);
	const float *speed = rt_map_layer_speed_factor(map), *elevation = rt_map_layer_elevation_m(map);
	const float *water = rt_map_layer_water_depth_m(map);
	const int32_t *feature = rt_map_layer_feature_id(map);
	FUZZ_CHECK(passable && speed && elevation && water && feature, "a layer is missing");
	for (size_t c = 0; c < (size_t)nx * (size_t)ny; ++c) {
		FUZZ_CHECK(passable[c] <= 1, "cell %zu: passable %u", c, passable[c]);
		FUZZ_CHECK(isfinite(speed[c]) && speed[c] >= 0.0f, "cell %zu: speed factor %g", c, speed[c]);
		FUZZ_CHECK(passable[c] || speed[c] == 0.0f, "cell %zu: impassable with speed factor %g", c, speed[c]);
		/* hills stack (a peak on a massif), so elevation has no tighter bound than finite */
		FUZZ_CHECK(isfinite(elevation[c]), "cell %zu: elevation %g m", c, elevation[c]);
		FUZZ_CHECK(isfinite(water[c]) && water[c] >= 0.0f && water[c] <= 30.0f, "cell %zu: water %g m", c, water[c]);
		FUZZ_CHECK(feature[c] >= -1 && feature[c] < features, "cell %zu: feature %d of %d", c, feature[c], features);
	}
	/* sampling agrees with the layers, at each cell's centre */
	rt_map_cell cell;
	rt_vec2 centre = { corner.x + 0.5 * cell_m, corner.y + (ny - 0.5) * cell_m };
	FUZZ_CHECK(rt_map_sample(map, centre, &cell) && cell.ix == 0 && cell.iy == ny - 1, "sample at the north-west cell");
	FUZZ_CHECK(!rt_map_sample(map, (rt_vec2){ corner.x - 1.0, corner.y }, &cell), "sample outside");
	/* features: views hold together, lie on the raster, ids find themselves */
	const rt_vec2 far = { corner.x + nx * cell_m, corner.y + ny * cell_m };
	for (int i = 0; i < features; ++i) {
		rt_map_feature_view v;
		FUZZ_CHECK(rt_map_feature_info(map, i, &v), "feature %d", i);
		FUZZ_CHECK((unsigned)v.kind < RT_MAP_KIND_COUNT && v.index == i, "feature %d: kind %d", i, (int)v.kind);
		FUZZ_CHECK(v.id && v.name && v.name_zh && v.side, "feature %d: a NULL string", i);
		FUZZ_CHECK(v.part_count >= 1 && v.part_start && v.part_hole && v.points, "feature %d: %d parts", i, v.part_count);
		for (int p = 0; p < v.part_count; ++p) {
			const int n = v.part_start[p + 1] - v.part_start[p];
			FUZZ_CHECK(n >= 1, "feature %d part %d: %d points", i, p, n);
			if (v.area) {
				const rt_vec2 a = v.points[v.part_start[p]], b = v.points[v.part_start[p + 1] - 1];
				FUZZ_CHECK(n >= 4 && a.x == b.x && a.y == b.y, "feature %d ring %d: %d points, open", i, p, n);
			}
			for (int k = v.part_start[p]; k < v.part_start[p + 1]; ++k) {
				const rt_vec2 q = v.points[k];
				FUZZ_CHECK(isfinite(q.x) && isfinite(q.y), "feature %d: point %d", i, k);
				const double slack = 1e-5; /* the loader's own tolerance at an extent's edge is 1e-6 m */
				FUZZ_CHECK(q.x >= corner.x - slack && q.y >= corner.y - slack && q.x <= far.x + slack && q.y <= far.y + slack,
					   "feature %d: point (%g, %g) off the raster (%g, %g) to (%g, %g)", i, q.x, q.y, corner.x,
					   corner.y, far.x, far.y);
				FUZZ_CHECK(q.x >= v.bbox_min.x && q.y >= v.bbox_min.y && q.x <= v.bbox_max.x && q.y <= v.bbox_max.y,
					   "feature %d: point (%g, %g) outside its bounding box", i, q.x, q.y);
			}
		}
		FUZZ_CHECK(v.cell_count >= 0 && v.cell_count <= (int64_t)nx * ny, "feature %d: %lld cells of %d x %d", i,
			   (long long)v.cell_count, nx, ny);
		FUZZ_CHECK(v.gate_count == 0 || (v.kind == RT_MAP_FORT && v.gates), "feature %d: %d gates", i, v.gate_count);
		if (v.kind == RT_MAP_FORT) { /* gates sit on the outline (ring 0) */
			FUZZ_CHECK(v.gate_count >= 1 && v.capacity >= 1, "fort %d: %d gates, capacity %d", i, v.gate_count, v.capacity);
			for (int g = 0; g < v.gate_count; ++g) {
				double best = INFINITY;
				for (int k = v.part_start[0]; k + 1 < v.part_start[1]; ++k) {
					const rt_vec2 a = v.points[k], b = v.points[k + 1], q = v.gates[g];
					const double dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy;
					double t = l2 > 0.0 ? ((q.x - a.x) * dx + (q.y - a.y) * dy) / l2 : 0.0;
					t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
					best = fmin(best, hypot(a.x + t * dx - q.x, a.y + t * dy - q.y));
				}
				FUZZ_CHECK(best < 1e-6, "fort %d: gate %d lies %g m from the outline", i, g, best);
			}
		}
		if (v.id[0]) FUZZ_CHECK(rt_map_find_feature(map, v.id) == i, "feature %d: id \"%s\" finds another", i, v.id);
	}
	/* the projection goes there and back within a millimetre near the origin */
	rt_lonlat o = rt_map_origin(map);
	rt_vec2 xy = rt_map_lonlat_to_xy(map, o);
	FUZZ_CHECK(fabs(xy.x) < 1e-6 && fabs(xy.y) < 1e-6, "the origin projects to (%g, %g)", xy.x, xy.y);
	rt_lonlat back = rt_map_xy_to_lonlat(map, (rt_vec2){ 1000.0, -2000.0 });
	rt_vec2 again = rt_map_lonlat_to_xy(map, back);
	FUZZ_CHECK(fabs(again.x - 1000.0) < 1e-3 && fabs(again.y + 2000.0) < 1e-3, "round trip to (%g, %g)", again.x, again.y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text) return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	rt_map_def def = fuzz_def((fuzz_pick(data, size, 1 << 20) & 1) != 0);
	rt_error err;

	fuzz_begin(-1);
	rt_map *map = (rt_map *)&def; /* must be set either way */
	rt_status s = rt_map_load_string(text, "fuzz.geojson", &def, &map, &err);
	if (s == RT_OK) {
		FUZZ_CHECK(map != NULL, "RT_OK without a map");
		check_map(map);
		rt_map_destroy(map);
	} else {
		FUZZ_CHECK(map == NULL, "*out not cleared on %s", rt_status_name(s));
		fuzz_check_error(s, &err);
		FUZZ_CHECK(strcmp(err.file, "fuzz.geojson") == 0, "%s: the error names file \"%s\"", rt_status_name(s), err.file);
	}
	fuzz_end("the map loader");

	/* again, refusing one of the allocations the first run made */
	const long k = fuzz_pick(data, size, fuzz_allocations);
	if (k >= 0) {
		fuzz_begin(k);
		map = (rt_map *)&def;
		s = rt_map_load_string(text, "fuzz.geojson", &def, &map, &err);
		FUZZ_CHECK(s == RT_ERR_NOMEM && map == NULL, "allocation %ld refused: %s (%s)", k, rt_status_name(s),
			   s == RT_OK ? "" : err.message);
		fuzz_check_error(s, &err);
		fuzz_end("the map loader, out of memory");
	}
	free(text);
	return 0;
}
