/* Test maps from metres: see map_builder.h. */
#include "map_builder.h"
#include "test.h"

#include <stdarg.h>
#include <string.h>

static void put(rt_test_map_builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(rt_test_map_builder *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->text + b->used, sizeof b->text - b->used, fmt, ap);
	va_end(ap);
	if (n > 0) b->used += (size_t)n;
}

bool rt_test_map_begin(rt_test_map_builder *b, double width_m, double height_m, double cell_m)
{
	memset(b, 0, sizeof *b);
	char head[256];
	snprintf(head, sizeof head,
		 "{\"type\":\"FeatureCollection\",\"rout\":{\"origin\":[%.6f,%.6f],\"cell_m\":%g,\"extent_m\":[%g,%g]},\"features\":[",
		 RT_TEST_ORIGIN_LON, RT_TEST_ORIGIN_LAT, cell_m, width_m, height_m);
	char blank[512];
	snprintf(blank, sizeof blank, "%s]}", head);
	rt_map_def md = rt_map_def_default();
	md.allocator = rt_test_allocator();
	rt_error err;
	if (rt_map_load_string(blank, "blank", &md, &b->blank, &err) != RT_OK) {
		rt_test_note("blank map: %s", err.message);
		return false;
	}
	put(b, "%s", head);
	return true;
}

static void point(rt_test_map_builder *b, double x, double y)
{
	rt_lonlat p = rt_map_xy_to_lonlat(b->blank, (rt_vec2){ x, y });
	put(b, "[%.8f,%.8f]", p.lon_deg, p.lat_deg);
}

void rt_test_map_rect(rt_test_map_builder *b, const char *props, double x0, double y0, double x1, double y1)
{
	put(b, "%s{\"type\":\"Feature\",\"properties\":%s,\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[", b->features++ ? "," : "", props);
	point(b, x0, y0); put(b, ","); point(b, x1, y0); put(b, ","); point(b, x1, y1); put(b, ","); point(b, x0, y1);
	put(b, ","); point(b, x0, y0);
	put(b, "]]}}");
}

void rt_test_map_line(rt_test_map_builder *b, const char *props, double x0, double y0, double x1, double y1)
{
	put(b, "%s{\"type\":\"Feature\",\"properties\":%s,\"geometry\":{\"type\":\"LineString\",\"coordinates\":[", b->features++ ? "," : "", props);
	point(b, x0, y0); put(b, ","); point(b, x1, y1);
	put(b, "]}}");
}

rt_map *rt_test_map_finish(rt_test_map_builder *b)
{
	put(b, "]}");
	rt_map_destroy(b->blank);
	b->blank = NULL;
	rt_map_def md = rt_map_def_default();
	md.allocator = rt_test_allocator();
	rt_map *map = NULL;
	rt_error err;
	if (rt_map_load_string(b->text, "test map", &md, &map, &err) != RT_OK) rt_test_note("map: %s (%s)", err.message, err.field);
	return map;
}

rt_world *rt_test_world_on(const rt_map *map, double half_w, double half_h, int threads)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.threads = threads;
	d.bounds_min = (rt_vec2){ -half_w, -half_h };
	d.bounds_max = (rt_vec2){ half_w, half_h };
	d.agent_capacity = 2048;
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (w && rt_world_set_map(w, map, &err) != RT_OK) {
		rt_test_note("set map: %s", err.message);
		rt_world_destroy(w);
		return NULL;
	}
	return w;
}
