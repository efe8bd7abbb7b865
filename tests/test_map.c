/* Maps as a user meets them: a small map near Songshan whose rasters hold what was
 * drawn (roads faster, rivers closed except at fords and bridges, hills higher and
 * slower, fort walls closed except at the gates), a projection good to a centimetre
 * and to 0.1 % in distance, malformed maps refused with a message that names the
 * feature and the field, out-of-memory handled at every allocation, a 70 km x 40 km
 * map loaded in seconds, and the Natural Earth extract of the Liaoxi corridor. */
#include "test.h"
#include "rout/map.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SMALL_MAP "tests/data/maps/small.geojson"
#define ENCLOSURES_MAP "tests/data/maps/enclosures.geojson"
#define MULTI_MAP "tests/data/maps/multi.geojson"
#define BAD_MAPS "tests/bad/maps"
#define LIAOXI_MAP "tests/data/maps/liaoxi-natural-earth.geojson" /* a copy of ../shared/data/ (Natural Earth, public domain) */

static rt_map_def test_def(void)
{
	rt_map_def def = rt_map_def_default();
	def.allocator = rt_test_allocator();
	return def;
}

/* The layers at a point given in metres; ix = -1 when outside the raster. */
static rt_map_cell at(const rt_map *map, double x, double y)
{
	rt_map_cell c;
	memset(&c, 0, sizeof c);
	c.ix = -1;
	rt_map_sample(map, (rt_vec2){ x, y }, &c);
	return c;
}

/* Can a man walking from cell a (8 neighbours, passable cells only) reach cell b? */
static bool reachable(const rt_map *map, rt_vec2 a, rt_vec2 b)
{
	int nx, ny;
	rt_map_size(map, &nx, &ny, NULL, NULL);
	const uint8_t *passable = rt_map_layer_passable(map);
	rt_map_cell ca = at(map, a.x, a.y), cb = at(map, b.x, b.y);
	if (ca.ix < 0 || cb.ix < 0 || !ca.passable || !cb.passable) return false;
	size_t n = (size_t)nx * (size_t)ny;
	int *queue = malloc(n * sizeof *queue);
	uint8_t *seen = calloc(n, 1);
	bool found = false;
	if (!queue || !seen) goto done;
	int head = 0, tail = 0;
	queue[tail++] = ca.iy * nx + ca.ix;
	seen[ca.iy * nx + ca.ix] = 1;
	while (head < tail && !found) {
		int c = queue[head++], x = c % nx, y = c / nx;
		if (x == cb.ix && y == cb.iy) found = true;
		for (int dy = -1; dy <= 1; ++dy)
			for (int dx = -1; dx <= 1; ++dx) {
				int X = x + dx, Y = y + dy;
				if (X < 0 || Y < 0 || X >= nx || Y >= ny) continue;
				int k = Y * nx + X;
				if (seen[k] || !passable[k]) continue;
				seen[k] = 1;
				queue[tail++] = k;
			}
	}
done:
	free(queue);
	free(seen);
	return found;
}

static double distance_to_outline(const rt_map_feature_view *f, rt_vec2 p)
{
	double best = INFINITY;
	for (int i = f->part_start[0]; i + 1 < f->part_start[1]; ++i) {
		rt_vec2 a = f->points[i], b = f->points[i + 1];
		double dx = b.x - a.x, dy = b.y - a.y, t = ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy);
		t = t < 0 ? 0 : t > 1 ? 1 : t;
		double d = hypot(a.x + t * dx - p.x, a.y + t * dy - p.y);
		if (d < best) best = d;
	}
	return best;
}

TEST(map_small_map_rasters_hold_what_was_drawn)
{
	rt_map_def def = test_def();
	rt_map *map;
	rt_error err;
	CHECK_OK(rt_map_load(SMALL_MAP, &def, &map, &err), err);
	int nx, ny;
	double cell;
	rt_vec2 corner;
	rt_map_size(map, &nx, &ny, &cell, &corner);
	rt_test_note("%d x %d cells of %g m from (%g, %g) m", nx, ny, cell, corner.x, corner.y);
	CHECK(nx == 202 && ny == 162 && cell == 10.0);
	CHECK_NEAR(corner.x, -1010.0, 1e-9);
	CHECK_NEAR(corner.y, -810.0, 1e-9);
	CHECK(rt_map_feature_count(map) == 17);

	/* open ground: land at +5 m, passable, speed 1, no feature */
	rt_map_cell open = at(map, -200, 100);
	CHECK(open.passable && open.speed_factor == 1.0f && open.elevation_m == 5.0f && open.feature == -1);
	/* a road is faster than the ground beside it; its own speed_factor counts */
	rt_map_cell road = at(map, -200, -90);
	CHECK_NEAR(road.speed_factor, 1.2, 1e-6);
	CHECK(road.feature == rt_map_find_feature(map, "coast-road"));
	CHECK_NEAR(at(map, -600, 300).speed_factor, 1.5, 1e-6);
	/* a river is impassable and deep; the ford opens it; the bridge carries the road */
	rt_map_cell river = at(map, 300, 500);
	CHECK(!river.passable && river.speed_factor == 0.0f);
	CHECK_NEAR(river.water_depth_m, 3.0, 1e-6);
	rt_map_cell ford = at(map, 300, 200);
	CHECK(ford.passable && ford.feature == rt_map_find_feature(map, "ford-north"));
	CHECK_NEAR(ford.water_depth_m, 0.5, 1e-6); /* the default ford depth */
	CHECK_NEAR(ford.speed_factor, 0.5, 1e-6);
	rt_map_cell bridge = at(map, 300, -90);
	CHECK(bridge.passable && bridge.water_depth_m == 0.0f);
	CHECK_NEAR(bridge.speed_factor, 1.2, 1e-6); /* the road over the bridge */
	/* a road drawn across the river without a ford or bridge does not open it */
	rt_map_cell broken = at(map, 300, 100);
	CHECK(!broken.passable && broken.water_depth_m == 3.0f);
	CHECK(at(map, 100, 100).speed_factor > 1.1f);
	/* the hill rises to its height at the crest and slows men on its flank */
	rt_map_cell crest = at(map, -300, 400), flank = at(map, -300, 300), foot = at(map, -300, 225);
	rt_test_note("hill: crest %.1f m (speed %.2f), flank %.1f m (speed %.2f), foot %.1f m (speed %.2f)", crest.elevation_m,
		     crest.speed_factor, flank.elevation_m, flank.speed_factor, foot.elevation_m, foot.speed_factor);
	CHECK_NEAR(crest.elevation_m, 65.0, 1.0);
	CHECK(flank.elevation_m > 15.0f && flank.elevation_m < 60.0f);
	CHECK(foot.elevation_m > 5.0f && foot.elevation_m < flank.elevation_m);
	CHECK(flank.speed_factor < 0.5f && foot.speed_factor > flank.speed_factor && crest.speed_factor > 0.95f);
	/* sea, flats and coast hold their elevations; none of them is water here */
	rt_map_cell sea = at(map, 0, -700), flat = at(map, 0, -420), coast = at(map, 0, -350);
	CHECK(sea.elevation_m == -5.0f && sea.passable && sea.water_depth_m == 0.0f);
	CHECK(flat.elevation_m == 0.5f && flat.water_depth_m == 0.0f);
	CHECK_NEAR(flat.speed_factor, 0.7, 1e-6);
	CHECK(coast.elevation_m == 1.0f);
	/* trenches: the deep one closes the ground, the shallow one slows it; both are dug */
	rt_map_cell deep = at(map, -850, 700), shallow = at(map, -850, 650);
	CHECK(!deep.passable && deep.elevation_m == 2.5f);
	CHECK(shallow.passable && shallow.elevation_m == 4.0f);
	CHECK_NEAR(shallow.speed_factor, 0.6, 1e-6);
	/* the wall closes its line; the camp marks its ground only */
	CHECK(!at(map, 0, 600).passable && at(map, 0, 630).passable);
	rt_map_cell camp = at(map, -800, -220);
	CHECK(camp.passable && camp.speed_factor == 1.0f && camp.feature == rt_map_find_feature(map, "qing-camp"));
	/* grass and bare ground mark their cells for the fire (section 12 of model.md) only */
	rt_map_cell grass = at(map, 700, -220), bare = at(map, 700, 670);
	CHECK(grass.passable && grass.speed_factor == 1.0f && grass.feature == rt_map_find_feature(map, "sorghum"));
	CHECK(bare.passable && bare.speed_factor == 1.0f && bare.feature == rt_map_find_feature(map, "ploughed"));
	rt_map_feature_view sorghum;
	CHECK(rt_map_feature_info(map, grass.feature, &sorghum) && sorghum.kind == RT_MAP_GRASS);
	CHECK_NEAR(sorghum.fuel_kg_m2, 0.8, 1e-12);
	/* outside the raster */
	rt_map_cell outside;
	CHECK(!rt_map_sample(map, (rt_vec2){ 5000, 0 }, &outside));

	/* every feature covers cells, and the layers agree with rt_map_sample */
	for (int i = 0; i < rt_map_feature_count(map); ++i) {
		rt_map_feature_view f;
		CHECK(rt_map_feature_info(map, i, &f));
		CHECK_MSG(f.cell_count > 0, "features[%d] covers no cell", i);
	}
	rt_map_cell c = at(map, 300, 500);
	size_t k = (size_t)c.iy * (size_t)nx + (size_t)c.ix;
	CHECK(rt_map_layer_passable(map)[k] == 0 && rt_map_layer_water_depth_m(map)[k] == 3.0f);
	CHECK(rt_map_layer_feature_id(map)[k] == rt_map_find_feature(map, "xiaoling"));
	CHECK(rt_map_layer_speed_factor(map)[k] == 0.0f && rt_map_layer_elevation_m(map)[k] == 5.0f);
	rt_map_destroy(map);
}

TEST(map_fort_gates_lie_on_its_wall)
{
	rt_map_def def = test_def();
	rt_map *map;
	rt_error err;
	CHECK_OK(rt_map_load(SMALL_MAP, &def, &map, &err), err);
	int index = rt_map_find_feature(map, "songshan");
	rt_map_feature_view fort;
	CHECK(index >= 0 && rt_map_feature_info(map, index, &fort));
	CHECK(fort.kind == RT_MAP_FORT && fort.capacity == 3000 && strcmp(fort.side, "ming") == 0);
	CHECK(strcmp(fort.name, "Songshan 松山堡") == 0 && strcmp(fort.name_zh, "松山堡") == 0);
	CHECK(fort.area && fort.part_count == 1 && fort.gate_count == 2);
	CHECK_NEAR(fort.bbox_min.x, 500.0, 1.0);
	CHECK_NEAR(fort.bbox_max.y, 500.0, 1.0);
	const rt_vec2 drawn[2] = { { 600, 300 }, { 500, 400 } };
	for (int g = 0; g < 2; ++g) {
		rt_vec2 p = fort.gates[g];
		rt_test_note("gate %d at (%.2f, %.2f) m, %.2g m from the outline", g, p.x, p.y, distance_to_outline(&fort, p));
		CHECK(distance_to_outline(&fort, p) < 0.01);
		CHECK(hypot(p.x - drawn[g].x, p.y - drawn[g].y) < 1.0);
		CHECK(at(map, p.x, p.y).passable);
	}
	/* the wall is closed away from the gates; inside is open ground of the fort */
	CHECK(!at(map, 650, 300).passable && !at(map, 700, 420).passable && !at(map, 560, 500).passable);
	rt_map_cell inside = at(map, 600, 400);
	CHECK(inside.passable && inside.feature == index);
	/* a man inside reaches the outside through the gates */
	CHECK(reachable(map, (rt_vec2){ 600, 400 }, (rt_vec2){ 800, 400 }));
	rt_map_destroy(map);
}

TEST(map_walls_leave_no_diagonal_gap)
{
	rt_map_def def = test_def();
	rt_map *map;
	rt_error err;
	CHECK_OK(rt_map_load(ENCLOSURES_MAP, &def, &map, &err), err);
	/* 45-degree walls drawn thin on 10 m cells: the pen is sealed, the keep opens at its gate */
	CHECK(!reachable(map, (rt_vec2){ -300, 0 }, (rt_vec2){ -580, 0 }));
	CHECK(reachable(map, (rt_vec2){ -580, 0 }, (rt_vec2){ 0, 0 }));
	CHECK(reachable(map, (rt_vec2){ 300, 0 }, (rt_vec2){ 580, 250 }));
	rt_map_feature_view keep;
	CHECK(rt_map_feature_info(map, rt_map_find_feature(map, "keep"), &keep));
	CHECK(keep.gate_count == 1);
	CHECK_NEAR(keep.gates[0].x, 400.0, 1.0);
	CHECK_NEAR(keep.gates[0].y, 100.0, 1.0);
	rt_map_destroy(map);
}

TEST(map_multi_geometries_and_holes)
{
	rt_map_def def = test_def();
	rt_map *map;
	rt_error err;
	CHECK_OK(rt_map_load(MULTI_MAP, &def, &map, &err), err);
	/* a MultiPolygon hill: the first member has a hole of level ground */
	rt_map_feature_view hills;
	CHECK(rt_map_feature_info(map, rt_map_find_feature(map, "twin-hills"), &hills));
	CHECK(hills.area && hills.part_count == 3);
	CHECK(hills.part_hole[0] == 0 && hills.part_hole[1] == 1 && hills.part_hole[2] == 0);
	CHECK(at(map, -250, -250).elevation_m == 5.0f && at(map, -250, -250).feature == -1);
	CHECK(at(map, -350, -250).elevation_m > 10.0f);
	CHECK_NEAR(at(map, 200, 200).elevation_m, 45.0, 1.0);
	/* a MultiLineString wall: both lines close the ground, the lane between them is open */
	CHECK(!at(map, -250, 300).passable && !at(map, -250, 350).passable && at(map, -250, 325).passable);
	/* a river drawn as an area, crossed by a bridge drawn as a line */
	rt_map_cell river = at(map, 140, -300), bridge = at(map, 140, -200);
	CHECK(!river.passable && river.water_depth_m == 4.0f);
	CHECK(bridge.passable && bridge.water_depth_m == 0.0f && bridge.feature == rt_map_find_feature(map, "plank-bridge"));
	CHECK(reachable(map, (rt_vec2){ 0, -200 }, (rt_vec2){ 300, -200 }));
	rt_map_destroy(map);
}

/* Length of the WGS84 meridian from lat0 to lat1 (degrees), by Simpson's rule. */
static double meridian_arc_m(double lat0, double lat1)
{
	const double a = 6378137.0, f = 1.0 / 298.257223563, e2 = f * (2.0 - f), deg = 3.14159265358979323846 / 180.0;
	const int n = 2000;
	double h = (lat1 - lat0) * deg / n, sum = 0.0;
	for (int i = 0; i <= n; ++i) {
		double phi = lat0 * deg + i * h, s = sin(phi);
		double m = a * (1.0 - e2) / pow(1.0 - e2 * s * s, 1.5);
		sum += m * (i == 0 || i == n ? 1.0 : (i % 2 ? 4.0 : 2.0));
	}
	return sum * h / 3.0;
}

/* Length of the parallel at lat between two longitudes (degrees). */
static double parallel_arc_m(double lat, double dlon)
{
	const double a = 6378137.0, f = 1.0 / 298.257223563, e2 = f * (2.0 - f), deg = 3.14159265358979323846 / 180.0;
	double s = sin(lat * deg);
	return a / sqrt(1.0 - e2 * s * s) * cos(lat * deg) * dlon * deg;
}

TEST(map_projection_round_trip_and_distances)
{
	rt_map_def def = test_def();
	rt_map *map;
	rt_error err;
	CHECK_OK(rt_map_load(SMALL_MAP, &def, &map, &err), err);
	rt_lonlat origin = rt_map_origin(map);
	CHECK(origin.lon_deg == 121.08 && origin.lat_deg == 41.03);
	rt_vec2 o = rt_map_lonlat_to_xy(map, origin);
	CHECK(fabs(o.x) < 1e-9 && fabs(o.y) < 1e-9);
	/* round trips over +-100 km, to a centimetre (in fact to well under a micrometre) */
	double worst = 0.0;
	for (int i = -10; i <= 10; ++i)
		for (int j = -10; j <= 10; ++j) {
			rt_vec2 p = { i * 10000.0 + 0.123, j * 10000.0 - 0.456 };
			rt_vec2 q = rt_map_lonlat_to_xy(map, rt_map_xy_to_lonlat(map, p));
			double d = hypot(q.x - p.x, q.y - p.y);
			if (d > worst) worst = d;
		}
	rt_test_note("worst round trip over +-100 km: %.3g m", worst);
	CHECK(worst < 0.01);
	/* Tashan and Ningyuan: lon/lat -> metres -> lon/lat */
	rt_lonlat tashan = { 120.94, 40.86 };
	rt_lonlat back = rt_map_xy_to_lonlat(map, rt_map_lonlat_to_xy(map, tashan));
	CHECK_NEAR(back.lon_deg, tashan.lon_deg, 1e-9);
	CHECK_NEAR(back.lat_deg, tashan.lat_deg, 1e-9);
	/* 10 km north-south against the WGS84 meridian arc */
	rt_lonlat north = rt_map_xy_to_lonlat(map, (rt_vec2){ 0.0, 10000.0 });
	double arc = meridian_arc_m(origin.lat_deg, north.lat_deg);
	rt_test_note("10 km north in the map is %.4f m along the meridian (%.2g %%)", arc, 100.0 * (arc - 10000.0) / 10000.0);
	CHECK_NEAR(north.lon_deg, origin.lon_deg, 1e-12);
	CHECK(fabs(arc - 10000.0) < 0.001 * 10000.0);
	CHECK(fabs(arc - 10000.0) < 0.01); /* transverse Mercator is exact on its central meridian */
	/* 10 km east-west along a parallel, at the origin and 50 km north of it, where an
	 * equirectangular projection would be 0.8 % off */
	for (int k = 0; k < 2; ++k) {
		double lat = origin.lat_deg + k * 0.45;
		rt_vec2 a = rt_map_lonlat_to_xy(map, (rt_lonlat){ origin.lon_deg - 0.06, lat });
		rt_vec2 b = rt_map_lonlat_to_xy(map, (rt_lonlat){ origin.lon_deg + 0.06, lat });
		double map_m = hypot(b.x - a.x, b.y - a.y), true_m = parallel_arc_m(lat, 0.12);
		rt_test_note("%.2f N: %.3f m on the map, %.3f m on the ellipsoid (%.2g %%)", lat, map_m, true_m,
			     100.0 * (map_m - true_m) / true_m);
		CHECK(fabs(map_m - true_m) < 0.001 * true_m);
	}
	/* the scale error at 60 km east of the origin stays below 0.01 % */
	rt_lonlat east = rt_map_xy_to_lonlat(map, (rt_vec2){ 60000.0, 0.0 });
	rt_vec2 e0 = rt_map_lonlat_to_xy(map, (rt_lonlat){ east.lon_deg, east.lat_deg - 0.01 });
	rt_vec2 e1 = rt_map_lonlat_to_xy(map, (rt_lonlat){ east.lon_deg, east.lat_deg + 0.01 });
	double ns = hypot(e1.x - e0.x, e1.y - e0.y), ns_true = meridian_arc_m(east.lat_deg - 0.01, east.lat_deg + 0.01);
	rt_test_note("60 km east: scale %.6f", ns / ns_true);
	CHECK(fabs(ns / ns_true - 1.0) < 1e-4);
	rt_map_destroy(map);
}

/* Every file in tests/bad/maps must be refused with this code, a message containing
 * `fragment` and the field `field` ("" = none; NULL = any). */
static const struct {
	const char *file;
	rt_status code;
	const char *fragment;
	const char *field;
} bad_maps[] = {
	{ "syntax", RT_ERR_PARSE, "not valid JSON at line", "" },
	{ "duplicate_key", RT_ERR_PARSE, "duplicate object key", "" },
	{ "non_finite", RT_ERR_PARSE, "real number overflow", "" },
	{ "nan_literal", RT_ERR_PARSE, "invalid token", "" },
	{ "invalid_utf8", RT_ERR_PARSE, "unable to decode byte 0xff", "" },
	{ "not_collection", RT_ERR_INVALID, "a map must be a GeoJSON FeatureCollection", "type" },
	{ "crs_projected", RT_ERR_INVALID, "is not WGS84 longitude/latitude", "crs" },
	{ "no_origin", RT_ERR_INVALID, "the map has no origin", "rout" },
	{ "cell_size", RT_ERR_INVALID, "cell_m is 2; expected 5 to 50", "rout.cell_m" },
	{ "rout_unknown_setting", RT_ERR_INVALID, "unknown setting \"cell\"", "rout.cell" },
	{ "too_many_cells", RT_ERR_CAPACITY, "20000 x 20000 = 400000000 cells of 5 m, needing 6800000000 bytes", "rout.extent_m" },
	{ "no_kind", RT_ERR_INVALID, "features[0] (name \"Nameless\"): has no \"kind\" property (its properties: name)", "features[0].properties.kind" },
	{ "unknown_kind", RT_ERR_INVALID, "features[0]: unknown kind \"swamp\"", "features[0].properties.kind" },
	{ "unknown_property", RT_ERR_INVALID, "features[0] (river): unknown property \"widht_m\" (a river has: name, name_zh, id, note, source, grade, width_m, depth_m)", "features[0].properties.widht_m" },
	{ "wrong_property_for_kind", RT_ERR_INVALID, "\"depth_m\" is not a property of a road", "features[0].properties.depth_m" },
	{ "wrong_type", RT_ERR_INVALID, "depth_m must be a number (m)", "features[0].properties.depth_m" },
	{ "out_of_range", RT_ERR_INVALID, "depth_m is 45; expected 0 to 30 (m)", "features[0].properties.depth_m" },
	{ "missing_required", RT_ERR_INVALID, "features[0] (road, id \"north-road\"): a road needs width_m", "features[0].properties.width_m" },
	{ "slope_penalty_range", RT_ERR_INVALID, "slope_penalty is 1.5; expected 0 to 1", "features[0].properties.slope_penalty" },
	{ "capacity_fraction", RT_ERR_INVALID, "capacity is 3000.5; it must be a whole number", "features[0].properties.capacity" },
	{ "empty_name", RT_ERR_INVALID, "name is empty", "features[0].properties.name" },
	{ "name_not_string", RT_ERR_INVALID, "name must be a string", "features[0].properties.name" },
	{ "duplicate_id", RT_ERR_INVALID, "features[1] (id \"camp-1\"): id \"camp-1\" is already used by features[0]", "features[1].properties.id" },
	{ "null_geometry", RT_ERR_INVALID, "features[0] (camp, id \"lost\"): has no geometry", "features[0].geometry" },
	{ "geometry_collection", RT_ERR_INVALID, "geometry type \"GeometryCollection\" is not supported", "features[0].geometry.type" },
	{ "geometry_for_kind", RT_ERR_INVALID, "a road must be a LineString or MultiLineString, not a Polygon", "features[0].geometry.type" },
	{ "fort_multipolygon", RT_ERR_INVALID, "a fort must be a Polygon, not a MultiPolygon", "features[0].geometry.type" },
	{ "zero_area", RT_ERR_INVALID, "the ring has zero area", "features[0].geometry.coordinates[0]" },
	{ "self_intersecting", RT_ERR_INVALID, "features[0] (hill, id \"bow-tie\"): the polygon intersects itself: ring 0 crosses itself near [120.999830, 40.999871]", "features[0].geometry.coordinates" },
	{ "hole_crosses_outline", RT_ERR_INVALID, "rings 0 and 1 meet", "features[0].geometry.coordinates" },
	{ "spike", RT_ERR_INVALID, "the polygon intersects itself: ring 0 crosses itself near [121.001189, 41.000901]", "features[0].geometry.coordinates" },
	{ "unclosed_ring", RT_ERR_INVALID, "the ring is not closed", "features[0].geometry.coordinates[0]" },
	{ "ring_too_short", RT_ERR_INVALID, "the ring has 3 positions; a ring needs at least 4", "features[0].geometry.coordinates[0]" },
	{ "line_zero_length", RT_ERR_INVALID, "the line has zero length", "features[0].geometry.coordinates" },
	{ "short_position", RT_ERR_INVALID, "a position must be [longitude, latitude]", "features[0].geometry.coordinates" },
	{ "longitude_range", RT_ERR_INVALID, "longitude 200.5 is outside -180 to 180", "features[0].geometry.coordinates" },
	{ "latitude_range", RT_ERR_INVALID, "latitude 95 is outside -90 to 90", "features[0].geometry.coordinates" },
	{ "outside_extent", RT_ERR_INVALID, "outside the map's extent", "features[0].geometry.coordinates[1]" },
	{ "far_from_origin", RT_ERR_INVALID, "a map must lie within 500 km of its origin", "features[0].geometry.coordinates" },
	{ "fort_no_gate", RT_ERR_INVALID, "features[0] (fort): has no gate; a fort needs at least one gate on its outline", "features[0].properties.gates" },
	{ "fort_without_gates", RT_ERR_INVALID, "has no gate; a fort needs \"gates\"", "features[0].properties.gates" },
	{ "gates_not_list", RT_ERR_INVALID, "gates must be a list", "features[0].properties.gates" },
	{ "fort_gate_off_outline", RT_ERR_INVALID, "gate 0 at [121.000000, 41.001351] is 50.0 m from the fort's outline", "features[0].properties.gates[0]" },
	{ "grade_unknown", RT_ERR_INVALID, "features[0] (camp, id \"camp-1\"): grade \"C\" is not a grade; expected \"A\" (primary record), \"B\" (secondary or inferred) or \"E\" (estimate)", "features[0].properties.grade" },
	{ "note_not_string", RT_ERR_INVALID, "note must be a string", "features[0].properties.note" },
	{ "ford_off_river", RT_ERR_INVALID, "features[1] (ford, id \"dry-ford\"): does not cross any river", "features[1].geometry" },
};
#define BAD_MAP_COUNT ((int)(sizeof bad_maps / sizeof bad_maps[0]))

TEST(map_bad_maps_are_refused_with_the_feature_and_field)
{
	char path[512];
	for (int i = 0; i < BAD_MAP_COUNT; ++i) {
		rt_map_def def = test_def();
		rt_map *map = (rt_map *)&def; /* must be cleared on failure */
		rt_error err;
		snprintf(path, sizeof path, "%s/%s.geojson", BAD_MAPS, bad_maps[i].file);
		rt_status s = rt_map_load(path, &def, &map, &err);
		CHECK_MSG(s != RT_OK, "%s was accepted", path);
		CHECK_MSG(map == NULL, "%s: *out not cleared", path);
		CHECK_MSG(rt_test_bytes_held() == 0, "%s: %zu bytes held after the refusal", path, rt_test_bytes_held());
		CHECK_MSG(s == bad_maps[i].code && err.code == s, "%s: %s (expected %s): %s", path, rt_status_name(s),
			  rt_status_name(bad_maps[i].code), err.message);
		CHECK_MSG(strstr(err.message, bad_maps[i].fragment), "%s: message \"%s\" lacks \"%s\"", path, err.message,
			  bad_maps[i].fragment);
		CHECK_MSG(!bad_maps[i].field || strcmp(err.field, bad_maps[i].field) == 0, "%s: field \"%s\", expected \"%s\"",
			  path, err.field, bad_maps[i].field);
		CHECK_MSG(strcmp(err.file, path) == 0, "%s: the error names file \"%s\"", path, err.file);
		if (s == RT_ERR_PARSE) CHECK_MSG(err.line > 0 && err.column > 0, "%s: no line and column", path);
		rt_test_note("%-24s %s:%d:%d [%s] %s", bad_maps[i].file, err.file, err.line, err.column, err.field, err.message);
	}
	/* and no file in the folder goes untested */
	DIR *dir = opendir(BAD_MAPS);
	CHECK_MSG(dir, "cannot open %s (run the tests from the repository root)", BAD_MAPS);
	int files = 0;
	struct dirent *e;
	bool listed = true;
	char missing[256] = "";
	while ((e = readdir(dir))) {
		size_t n = strlen(e->d_name);
		if (n < 9 || strcmp(e->d_name + n - 8, ".geojson") != 0) continue;
		files++;
		bool found = false;
		for (int i = 0; i < BAD_MAP_COUNT && !found; ++i)
			found = strlen(bad_maps[i].file) == n - 8 && strncmp(bad_maps[i].file, e->d_name, n - 8) == 0;
		if (!found) {
			listed = false;
			snprintf(missing, sizeof missing, "%s", e->d_name);
		}
	}
	closedir(dir);
	CHECK_MSG(listed, "%s/%s has no entry in the test table", BAD_MAPS, missing);
	CHECK(files == BAD_MAP_COUNT);
}

TEST(map_errors_for_the_call_itself)
{
	rt_map *map;
	rt_error err;
	rt_map_def def = test_def();
	CHECK(rt_map_load("tests/data/maps/no-such-map.geojson", &def, &map, &err) == RT_ERR_IO && map == NULL);
	CHECK(strstr(err.message, "cannot read the map") && strcmp(err.file, "tests/data/maps/no-such-map.geojson") == 0);
	rt_map_def zero;
	memset(&zero, 0, sizeof zero);
	CHECK(rt_map_load(SMALL_MAP, &zero, &map, &err) == RT_ERR_INVALID && strstr(err.message, "rt_map_def_default"));
	def.cell_m = 10.0;
	/* the def gives the origin and the cell when the file does not */
	const char *text = "{\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"properties\": "
			   "{\"kind\": \"camp\", \"id\": 7}, \"geometry\": {\"type\": \"Point\", \"coordinates\": [121.0, 41.0]}}]}";
	CHECK(rt_map_load_string(text, "inline", &def, &map, &err) == RT_ERR_INVALID && strstr(err.message, "no origin"));
	def.origin = (rt_lonlat){ 121.0, 41.0 };
	def.cell_m = 20.0;
	CHECK_OK(rt_map_load_string(text, "inline", &def, &map, &err), err);
	int nx, ny;
	double cell;
	rt_vec2 corner;
	rt_map_size(map, &nx, &ny, &cell, &corner);
	CHECK(cell == 20.0 && nx == 4 && ny == 4); /* a point and two cells round it each way */
	CHECK(rt_map_find_feature(map, "7") == 0 && rt_map_find_feature(map, "8") == -1);
	CHECK(at(map, 0, 0).feature == 0);
	rt_map_destroy(map);
	def.max_cells = 10;
	const char *big = "{\"type\": \"FeatureCollection\", \"rout\": {\"extent_m\": [1000, 1000]}, \"features\": []}";
	CHECK(rt_map_load_string(big, "inline", &def, &map, &err) == RT_ERR_CAPACITY);
	CHECK(strstr(err.message, "50 x 50 = 2500 cells") && strstr(err.message, "42500 bytes"));
}

static rt_status load_small_once(void)
{
	rt_map_def def = test_def();
	rt_map *map;
	rt_error err;
	rt_status s = rt_map_load(SMALL_MAP, &def, &map, &err);
	if (s == RT_OK) rt_map_destroy(map);
	else if (map != NULL) return RT_ERR_STATE;
	return s;
}

TEST(map_out_of_memory_sweep)
{
	rt_test_fail_allocation(-1);
	CHECK(load_small_once() == RT_OK);
	long needed = rt_test_allocations_made();
	for (long k = 0; k < needed; ++k) {
		rt_test_fail_allocation(k);
		rt_status s = load_small_once();
		rt_test_fail_allocation(-1);
		CHECK_MSG(s == RT_ERR_NOMEM, "allocation %ld failed, yet the load reported %s", k, rt_status_name(s));
		CHECK_MSG(rt_test_bytes_held() == 0, "allocation %ld failed: %zu bytes leaked", k, rt_test_bytes_held());
	}
	rt_test_note("%ld allocations in loading the small map; failing each in turn gave a clean error", needed);
	CHECK(needed > 10);
}

/* ---- a 70 km x 40 km map at 20 m ---------------------------------------------------------- */
#define BIG_LON0 120.95
#define BIG_LAT0 40.85
#define BIG_M_PER_DEG 111040.0

typedef struct big_writer {
	FILE *f;
	double lon0, lat0, m_per_deg_lat, m_per_deg_lon;
	int features;
} big_writer;

static void big_point(big_writer *w, double x, double y, bool comma)
{
	fprintf(w->f, "[%.7f, %.7f]%s", w->lon0 + x / w->m_per_deg_lon, w->lat0 + y / w->m_per_deg_lat, comma ? ", " : "");
}

static void big_begin(big_writer *w, const char *type, const char *props)
{
	fprintf(w->f, "%s\n{\"type\": \"Feature\", \"properties\": {%s}, \"geometry\": {\"type\": \"%s\", \"coordinates\": ",
		w->features++ ? "," : "", props, type);
}

static void big_polygon(big_writer *w, const char *props, const double *xy, int n)
{
	big_begin(w, "Polygon", props);
	fprintf(w->f, "[[");
	for (int i = 0; i <= n; ++i) big_point(w, xy[2 * (i % n)], xy[2 * (i % n) + 1], i < n);
	fprintf(w->f, "]]}}");
}

static void big_line(big_writer *w, const char *props, const double *xy, int n)
{
	big_begin(w, "LineString", props);
	fprintf(w->f, "[");
	for (int i = 0; i < n; ++i) big_point(w, xy[2 * i], xy[2 * i + 1], i + 1 < n);
	fprintf(w->f, "]}}");
}

/* A corridor like Liaoxi: sea in the south-east, flats along the shore, a river, a road,
 * hills, forts with gates, camps and trenches; about 70 features and 3,000 vertices. */
static bool write_big_map(FILE *file)
{
	big_writer w = { file, BIG_LON0, BIG_LAT0, BIG_M_PER_DEG, BIG_M_PER_DEG * cos(BIG_LAT0 * 3.14159265358979 / 180.0), 0 };
	if (!w.f) return false;
	fprintf(w.f, "{\"type\": \"FeatureCollection\", \"rout\": {\"origin\": [%.2f, %.2f], \"cell_m\": 20, \"extent_m\": [70000, 40000]},\n\"features\": [",
		w.lon0, w.lat0);
	static double xy[2 * 1200];
	char props[256];
	/* the shore: a wavy line from west to east, sea below it and flats above */
	const int shore = 400;
	for (int k = 0; k < 2; ++k) {
		int n = 0;
		for (int i = 0; i <= shore; ++i) {
			double x = -34000.0 + 68000.0 * i / shore;
			xy[2 * n] = x;
			xy[2 * n + 1] = -8000.0 + 0.12 * x + 1500.0 * sin(x / 3000.0) + (k ? 1200.0 : 0.0);
			n++;
		}
		xy[2 * n] = 34000.0, xy[2 * n + 1] = k ? -8000.0 + 0.12 * 34000 + 1500.0 * sin(34000 / 3000.0) : -19500.0, n++;
		xy[2 * n] = -34000.0, xy[2 * n + 1] = k ? -8000.0 - 0.12 * 34000 + 1500.0 * sin(-34000 / 3000.0) : -19500.0, n++;
		if (k == 0) big_polygon(&w, "\"kind\": \"sea\", \"name\": \"Jinzhou Bay\"", xy, n);
		else {
			/* the flats: between the shore and 1.2 km above it */
			for (int i = 0; i <= shore; ++i) {
				double x = -34000.0 + 68000.0 * i / shore;
				xy[2 * i] = x;
				xy[2 * i + 1] = -8000.0 + 0.12 * x + 1500.0 * sin(x / 3000.0);
				xy[2 * (2 * shore + 1 - i)] = x;
				xy[2 * (2 * shore + 1 - i) + 1] = xy[2 * i + 1] + 1200.0;
			}
			big_polygon(&w, "\"kind\": \"tidal_flat\", \"elevation_m\": 0.5", xy, 2 * shore + 2);
		}
	}
	for (int i = 0; i <= shore; ++i) {
		double x = -34000.0 + 68000.0 * i / shore;
		xy[2 * i] = x;
		xy[2 * i + 1] = -8000.0 + 0.12 * x + 1500.0 * sin(x / 3000.0) + 1200.0;
	}
	big_line(&w, "\"kind\": \"coast\", \"elevation_m\": 1.5", xy, shore + 1);
	/* two rivers meandering down to the sea, each with fords and a bridge */
	for (int r = 0; r < 2; ++r) {
		double x0 = r ? 12000.0 : -15000.0;
		int n = 0;
		for (double y = 19000.0; y > -12000.0; y -= 100.0, ++n) {
			xy[2 * n] = x0 + 800.0 * sin(y / 1700.0);
			xy[2 * n + 1] = y;
		}
		snprintf(props, sizeof props, "\"kind\": \"river\", \"id\": \"river-%d\", \"width_m\": %d, \"depth_m\": 3", r, 40 + 40 * r);
		big_line(&w, props, xy, n);
		for (int k = 0; k < 3; ++k) {
			double y = 15000.0 - 8000.0 * k, x = x0 + 800.0 * sin(y / 1700.0);
			double seg[4] = { x - 300.0, y, x + 300.0, y };
			snprintf(props, sizeof props, "\"kind\": \"%s\", \"id\": \"crossing-%d-%d\", \"width_m\": 30", k == 1 ? "bridge" : "ford", r, k);
			big_line(&w, props, seg, 2);
		}
	}
	/* the road along the corridor, crossing the rivers at the bridges (y = 7000) */
	{
		int n = 0;
		for (double x = -34000.0; x <= 34000.0; x += 250.0, ++n) {
			xy[2 * n] = x;
			xy[2 * n + 1] = 7000.0 + 300.0 * sin(x / 2500.0);
		}
		big_line(&w, "\"kind\": \"road\", \"id\": \"corridor-road\", \"width_m\": 10", xy, n);
	}
	/* hills inland */
	for (int h = 0; h < 40; ++h) {
		double cx = -32000.0 + 1600.0 * h, cy = 12000.0 + 5000.0 * sin(h * 1.7), r = 600.0 + 50.0 * (h % 7);
		for (int k = 0; k < 24; ++k) {
			xy[2 * k] = cx + r * cos(k * 2.0 * 3.14159265358979 / 24.0) * (1.0 + 0.2 * sin(k * 0.9));
			xy[2 * k + 1] = cy + r * sin(k * 2.0 * 3.14159265358979 / 24.0);
		}
		snprintf(props, sizeof props, "\"kind\": \"hill\", \"id\": \"hill-%d\", \"height_m\": %d", h, 50 + 10 * h);
		big_polygon(&w, props, xy, 24);
	}
	/* forts, camps and trenches */
	for (int k = 0; k < 5; ++k) {
		double cx = -28000.0 + 13000.0 * k, cy = 3000.0, s = 150.0;
		double sq[8] = { cx - s, cy - s, cx + s, cy - s, cx + s, cy + s, cx - s, cy + s };
		w.features++;
		fprintf(w.f, ",\n{\"type\": \"Feature\", \"properties\": {\"kind\": \"fort\", \"id\": \"fort-%d\", \"capacity\": 5000, \"gates\": [", k);
		big_point(&w, cx, cy - s, false);
		fprintf(w.f, "]}, \"geometry\": {\"type\": \"Polygon\", \"coordinates\": [[");
		for (int i = 0; i <= 4; ++i) big_point(&w, sq[2 * (i % 4)], sq[2 * (i % 4) + 1], i < 4);
		fprintf(w.f, "]]}}");
		double camp[8] = { cx - 600, cy + 800, cx + 600, cy + 800, cx + 600, cy + 1400, cx - 600, cy + 1400 };
		snprintf(props, sizeof props, "\"kind\": \"camp\", \"id\": \"camp-%d\", \"side\": \"qing\"", k);
		big_polygon(&w, props, camp, 4);
		double trench[4] = { cx - 2500, cy - 1500, cx + 2500, cy - 1800 };
		snprintf(props, sizeof props, "\"kind\": \"trench\", \"id\": \"trench-%d\", \"depth_m\": 2.5, \"width_m\": 3.5", k);
		big_line(&w, props, trench, 2);
	}
	fprintf(w.f, "\n]}\n");
	return fclose(w.f) == 0;
}

/* The generator's metres -> its lon/lat -> the map's metres. */
static rt_vec2 drawn(const rt_map *map, double x, double y)
{
	const double lat0 = BIG_LAT0, m_lat = BIG_M_PER_DEG, m_lon = BIG_M_PER_DEG * cos(lat0 * 3.14159265358979 / 180.0);
	return rt_map_lonlat_to_xy(map, (rt_lonlat){ BIG_LON0 + x / m_lon, lat0 + y / m_lat });
}

static rt_map_cell at_drawn(const rt_map *map, double x, double y)
{
	rt_vec2 p = drawn(map, x, y);
	return at(map, p.x, p.y);
}

static double road_y(double x) { return 7000.0 + 300.0 * sin(x / 2500.0); }

TEST(map_big_corridor_loads_in_seconds)
{
	char path[] = "/tmp/rout-test-big-map-XXXXXX";
	int fd = mkstemp(path);
	CHECK_MSG(fd >= 0, "cannot create %s", path);
	CHECK_MSG(write_big_map(fdopen(fd, "w")), "cannot write %s", path);
	rt_map_def def = test_def();
	rt_map *map;
	rt_error err;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rt_status s = rt_map_load(path, &def, &map, &err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!getenv("ROUT_KEEP_BIG_MAP")) remove(path); /* set it to look at the map */
	CHECK_OK(s, err);
	double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	int nx, ny;
	rt_map_size(map, &nx, &ny, NULL, NULL);
	size_t held = rt_test_bytes_held();
	int points = 0;
	for (int i = 0; i < rt_map_feature_count(map); ++i) {
		rt_map_feature_view f;
		rt_map_feature_info(map, i, &f);
		points += f.part_start[f.part_count] - f.part_start[0];
	}
	rt_test_note("70 km x 40 km at 20 m: %d x %d = %.1f M cells, %d features, %d points: loaded in %.3f s, %.1f MB held",
		     nx, ny, nx * (double)ny / 1e6, rt_map_feature_count(map), points, seconds, held / 1e6);
	CHECK(nx == 3500 && ny == 2000);
	CHECK(held < (size_t)nx * (size_t)ny * RT_MAP_BYTES_PER_CELL + 4000000);
	CHECK_MSG(seconds < 20.0, "loading took %.1f s", seconds);
	/* spot checks, at the metre positions the generator drew (its own flat lon/lat
	 * conversion, projected back through the map): sea offshore, the road faster than
	 * the ground, the rivers closed except at their fords and bridges */
	CHECK(at_drawn(map, 0, -15000).elevation_m == -5.0f);
	CHECK(at_drawn(map, -30000, road_y(-30000)).speed_factor > 1.1f);
	CHECK(at_drawn(map, -30000, road_y(-30000) + 200.0).speed_factor == 1.0f);
	double ry = 10000.0, rx = -15000.0 + 800.0 * sin(ry / 1700.0);
	CHECK(!at_drawn(map, rx, ry).passable && at_drawn(map, rx, ry).water_depth_m == 3.0f);
	double fy = 15000.0, fx = -15000.0 + 800.0 * sin(fy / 1700.0);
	CHECK(at_drawn(map, fx, fy).passable);
	/* the corridor road carries men across both rivers, over the bridges */
	rt_vec2 west = drawn(map, -33000, road_y(-33000)), east = drawn(map, 33000, road_y(33000));
	CHECK(reachable(map, west, east));
	rt_map_feature_view hill;
	CHECK(rt_map_feature_info(map, rt_map_find_feature(map, "hill-39"), &hill));
	rt_vec2 top = { 0.5 * (hill.bbox_min.x + hill.bbox_max.x), 0.5 * (hill.bbox_min.y + hill.bbox_max.y) };
	CHECK_NEAR(at(map, top.x, top.y).elevation_m, 5.0 + 440.0, 10.0);
	rt_map_destroy(map);
}

/* ---- the Natural Earth extract ------------------------------------------------------------ */
TEST(map_liaoxi_natural_earth_needs_kinds)
{
	rt_map_def def = test_def();
	def.origin = (rt_lonlat){ 121.08, 41.03 }; /* Songshan */
	def.cell_m = 50.0;
	rt_map *map;
	rt_error err;
	/* its features say "layer": "coastline" / "river", not "kind": refused, naming the first */
	rt_status s = rt_map_load(LIAOXI_MAP, &def, &map, &err);
	CHECK_MSG(s != RT_ERR_IO, "%s is missing: %s", LIAOXI_MAP, err.message);
	rt_test_note("as it is: %s [%s]", err.message, err.field);
	CHECK(s == RT_ERR_INVALID && map == NULL);
	CHECK(strstr(err.message, "features[0]: has no \"kind\" property (its properties: layer, note)"));
	CHECK(strcmp(err.field, "features[0].properties.kind") == 0);
	/* read through its own attribute: the coastline passes, and the Daling river is
	 * refused because Natural Earth gives no width or depth */
	const rt_map_kind_alias aliases[] = { { "coastline", RT_MAP_COAST } };
	def.kind_property = "layer";
	def.kind_aliases = aliases;
	def.kind_alias_count = 1;
	def.allow_unknown_properties = true;
	s = rt_map_load(LIAOXI_MAP, &def, &map, &err);
	rt_test_note("with \"layer\" as the kind: %s [%s]", err.message, err.field);
	CHECK(s == RT_ERR_INVALID && map == NULL);
	CHECK(strstr(err.message, "features[1] (river, name \"Daling 大凌河\"): a river needs width_m when drawn as a line"));
	CHECK(strcmp(err.field, "features[1].properties.width_m") == 0);
	/* without allow_unknown_properties the coastline's "note" is still read (every
	 * feature may carry one), so the river's missing width is again what refuses it */
	def.allow_unknown_properties = false;
	CHECK(rt_map_load(LIAOXI_MAP, &def, &map, &err) == RT_ERR_INVALID);
	CHECK(strstr(err.message, "features[1] (river, name \"Daling 大凌河\"): a river needs width_m"));
}

/* Every feature may say what its numbers rest on: "note" and "source" (free text, up to
 * 2000 bytes) and "grade" (A, B or E, as in ../shared/HISTORY.md). */
TEST(map_features_carry_note_source_and_grade)
{
	rt_map_def def = test_def();
	rt_map *map;
	rt_error err;
	char note[2101];
	memset(note, 'x', 2000);
	note[2000] = '\0';
	char text[4096];
	snprintf(text, sizeof text,
		 "{\"type\": \"FeatureCollection\", \"rout\": {\"origin\": [121.0, 41.0], \"cell_m\": 20}, \"features\": ["
		 "{\"type\": \"Feature\", \"properties\": {\"kind\": \"camp\", \"id\": \"c\", \"grade\": \"E\", "
		 "\"source\": \"seed 004; 清太宗实录 vol. 57\", \"note\": \"%s\"}, "
		 "\"geometry\": {\"type\": \"Point\", \"coordinates\": [121.0, 41.0]}},"
		 "{\"type\": \"Feature\", \"properties\": {\"kind\": \"road\", \"width_m\": 6, \"note\": null}, "
		 "\"geometry\": {\"type\": \"LineString\", \"coordinates\": [[121.0, 41.0], [121.001, 41.0]]}}]}",
		 note);
	CHECK_OK(rt_map_load_string(text, "inline", &def, &map, &err), err);
	rt_map_feature_view v;
	CHECK(rt_map_feature_info(map, 0, &v));
	CHECK(strcmp(v.grade, "E") == 0 && strcmp(v.source, "seed 004; 清太宗实录 vol. 57") == 0 && strlen(v.note) == 2000);
	CHECK(rt_map_feature_info(map, 1, &v));
	CHECK(v.grade[0] == '\0' && v.source[0] == '\0' && v.note[0] == '\0');
	rt_map_destroy(map);
	/* a note of 2001 bytes is refused, naming the limit */
	note[2000] = 'x';
	note[2001] = '\0';
	snprintf(text, sizeof text,
		 "{\"type\": \"FeatureCollection\", \"rout\": {\"origin\": [121.0, 41.0], \"cell_m\": 20}, \"features\": ["
		 "{\"type\": \"Feature\", \"properties\": {\"kind\": \"camp\", \"note\": \"%s\"}, "
		 "\"geometry\": {\"type\": \"Point\", \"coordinates\": [121.0, 41.0]}}]}",
		 note);
	CHECK(rt_map_load_string(text, "inline", &def, &map, &err) == RT_ERR_INVALID && map == NULL);
	CHECK(strstr(err.message, "note is 2001 bytes long; at most 2000 are allowed"));
	CHECK(strcmp(err.field, "features[0].properties.note") == 0);
}
