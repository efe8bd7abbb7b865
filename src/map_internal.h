/* The map's internal layout, shared by map.c (GeoJSON, validation, projection, the
 * public accessors) and raster.c (rasterisation). Only src/ sees this header. */
#ifndef RT_MAP_INTERNAL_H
#define RT_MAP_INTERNAL_H

#include "core.h"
#include "rout/map.h"

#include <math.h>

/* The numbers a feature may carry; which kind takes which is in map.c's tables. */
enum {
	RT_MAPV_WIDTH = 0,  /* width_m */
	RT_MAPV_DEPTH,      /* depth_m */
	RT_MAPV_HEIGHT,     /* height_m */
	RT_MAPV_ELEVATION,  /* elevation_m */
	RT_MAPV_SPEED,      /* speed_factor */
	RT_MAPV_SLOPE,      /* slope_penalty */
	RT_MAPV_GATE_WIDTH, /* gate_width_m */
	RT_MAPV_WALL_WIDTH, /* wall_width_m */
	RT_MAPV_CAPACITY,   /* capacity */
	RT_MAPV_FUEL,       /* fuel_kg_m2 */
	RT_MAPV_COUNT
};

typedef struct rt_map_feature {
	rt_map_kind kind;
	bool area;                 /* polygon geometry (else lines or a point) */
	int first_part, part_count; /* into rt_map.part_start */
	int first_gate, gate_count; /* into rt_map.gates */
	int id, name, name_zh, side; /* offsets into rt_map.strings; -1 none */
	int note, source, grade;     /* likewise: free text, and "A", "B" or "E" */
	double value[RT_MAPV_COUNT]; /* NaN where absent and without default */
	rt_vec2 bbox_min, bbox_max;
	int64_t cell_count;
} rt_map_feature;

/* Transverse Mercator constants (Karney 2011, Krueger series to n^6). */
typedef struct rt_map_projection {
	double lon0_rad, lat0_deg, lon0_deg;
	double e, e2m;          /* eccentricity, 1 - e^2 */
	double a_hat;           /* rectifying radius A (scale 1 on the central meridian) */
	double alpha[7], beta[7]; /* [1..6] */
	double y0;              /* northing of the origin, subtracted */
} rt_map_projection;

struct rt_map {
	rt_allocator allocator;
	rt_lonlat origin;
	rt_map_projection projection;
	double cell_m;
	int nx, ny;
	rt_vec2 corner; /* south-west corner of cell (0, 0), metres */
	size_t cells;
	double land_elevation_m, sea_elevation_m;

	uint8_t *passable;
	float *speed, *elevation, *water;
	int32_t *feature_id;

	rt_map_feature *features;
	int feature_count, feature_capacity;
	rt_vec2 *points;
	int point_count, point_capacity;
	int *part_start;      /* part_count + 1 entries: the last is point_count */
	uint8_t *part_hole;
	int part_count, part_capacity, part_hole_capacity;
	rt_vec2 *gates;
	int gate_count, gate_capacity;
	char *strings;
	size_t string_size, string_capacity;
};

static inline const char *rt__map_string(const rt_map *m, int offset)
{
	return offset >= 0 ? m->strings + offset : "";
}

/* raster.c: allocates the layers (the caller has checked the cell limit) and paints
 * every feature; fills err naming the feature when one cannot be drawn. */
rt_status rt__map_rasterise(rt_map *map, const char *file, rt_error *err);
/* The "features[3] (river, id "x", name "y")" label of errors. */
void rt__map_feature_label(const rt_map *map, int index, char *out, size_t size);

#endif
