/* libFuzzer harness for the GeoJSON map loader (rt_map_load_string): parsing,
 * validation, projection and rasterisation. Each input is loaded twice: once as it is,
 * with every invariant of a loaded map checked, and once with one allocation refused
 * (chosen from the input), which must give RT_ERR_NOMEM. Both runs must give back every
 * byte. Seeds: fuzz/corpus/map/; dictionary: fuzz/map.dict. */
#include "fuzz.h"
#include "rout/map.h"

#include <math.h>

/* Small rasters: the fuzzer's time goes into the loader, not into painting millions of
 * cells (a larger map is refused with RT_ERR_CAPACITY, which is fine). 1 << 18 cells is
 * 25.6 km square at the default 50 m cell. */
#define FUZZ_MAP_MAX_CELLS (1ll << 18)
#define FUZZ_MAP_CELL_M 50.0

static rt_map_def fuzz_def(void)
{
	rt_map_def def = rt_map_def_default();
	def.allocator = fuzz_allocator();
	def.cell_m = FUZZ_MAP_CELL_M;
	def.max_cells = FUZZ_MAP_MAX_CELLS;
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
		FUZZ_CHECK(isfinite(elevation[c]) && fabsf(elevation[c]) <= 5000.0f, "cell %zu: elevation %g m", c, elevation[c]);
		FUZZ_CHECK(isfinite(water[c]) && water[c] >= 0.0f && water[c] <= 30.0f, "cell %zu: water %g m", c, water[c]);
		FUZZ_CHECK(feature[c] >= -1 && feature[c] < features, "cell %zu: feature %d of %d", c, feature[c], features);
	}
	/* sampling agrees with the layers, at each cell's centre */
	rt_map_cell cell;
	rt_vec2 centre = { corner.x + 0.5 * cell_m, corner.y + (ny - 0.5) * cell_m };
	FUZZ_CHECK(rt_map_sample(map, centre, &cell) && cell.ix == 0 && cell.iy == ny - 1, "sample at the north-west cell");
	FUZZ_CHECK(!rt_map_sample(map, (rt_vec2){ corner.x - 1.0, corner.y }, &cell), "sample outside");
	/* features: views hold together, ids find themselves */
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
			for (int k = v.part_start[p]; k < v.part_start[p + 1]; ++k)
				FUZZ_CHECK(isfinite(v.points[k].x) && isfinite(v.points[k].y), "feature %d: point %d", i, k);
		}
		FUZZ_CHECK(v.cell_count >= 0 && v.cell_count <= (int64_t)nx * ny + (int64_t)nx * ny, "feature %d: %lld cells", i,
			   (long long)v.cell_count);
		FUZZ_CHECK(v.gate_count == 0 || (v.kind == RT_MAP_FORT && v.gates), "feature %d: %d gates", i, v.gate_count);
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
	rt_map_def def = fuzz_def();
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
