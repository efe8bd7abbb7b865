/* Test maps written as GeoJSON from rectangles and lines given in metres around a fixed
 * origin (Songshan), for the tests of the ground, the sea, the weather and fire. */
#ifndef RT_TEST_MAP_BUILDER_H
#define RT_TEST_MAP_BUILDER_H

#include "rout/map.h"

#include <stdbool.h>
#include <stddef.h>

#define RT_TEST_ORIGIN_LON 121.08
#define RT_TEST_ORIGIN_LAT 41.03

typedef struct rt_test_map_builder {
	char text[65536];
	size_t used;
	rt_map *blank; /* a featureless map of the same origin, for metres -> degrees */
	int features;
} rt_test_map_builder;

/* A map of width x height metres centred on the origin, cells of cell_m. */
bool rt_test_map_begin(rt_test_map_builder *b, double width_m, double height_m, double cell_m);
/* A polygon feature from (x0, y0) to (x1, y1) m with the given properties (JSON). */
void rt_test_map_rect(rt_test_map_builder *b, const char *props, double x0, double y0, double x1, double y1);
/* A line feature. */
void rt_test_map_line(rt_test_map_builder *b, const char *props, double x0, double y0, double x1, double y1);
/* Loads the map (NULL and a note on failure); frees the builder's blank map. */
rt_map *rt_test_map_finish(rt_test_map_builder *b);
/* A world of test allocator and the given threads over [-half_w, half_w] x [-half_h,
 * half_h] with the map laid under it (NULL and a note on failure). */
rt_world *rt_test_world_on(const rt_map *map, double half_w, double half_h, int threads);

#endif
