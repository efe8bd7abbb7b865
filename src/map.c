/* Maps: GeoJSON in, a validated feature list in metres out; raster.c then draws the
 * terrain layers from it. This file owns the format (docs/map-format.md): which kinds
 * exist, which properties each takes with its unit, range and default, which geometry
 * each accepts, and every check that refuses a map. It also owns the projection.
 *
 * Why it is built this way:
 * - Properties are data (one table per kind), so the loader, its error messages
 *   ("a road has: width_m, speed_factor ...") and the documentation agree by
 *   construction, and a typo in a property name is an error, never a silent default.
 * - Every error names the feature by index and by its id and name, and sets the field
 *   path ("features[3].properties.depth_m") so that a GIS user can find it.
 * - The projection is transverse Mercator on the WGS84 ellipsoid, not the simpler
 *   equirectangular one: 50 km north of the origin the latter's east-west scale is off
 *   by 0.8 % at 41 degrees N, and a sphere makes north-south distances 0.13 % long.
 * - jansson parses the file (JSON_REJECT_DUPLICATES). Its parse tree is transient and
 *   comes from jansson's own allocator; everything the map keeps comes from
 *   def.allocator.
 */
#include "map_internal.h"

#include <jansson.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#define PI 3.14159265358979323846
#define DEG (PI / 180.0)
#define MAX_MAP_POINTS (1 << 28)
#define MAX_STRING_BYTES 255
#define MAX_NOTE_BYTES 2000 /* "note" and "source": free text, longer than a name */
#define MAX_LONGITUDE_SPAN_DEG 10.0

/* ---- kinds and their properties ------------------------------------------------------ */
static const char *const kind_names[RT_MAP_KIND_COUNT] = {
	"coast", "sea", "tidal_flat", "river", "ford", "bridge", "road", "hill", "fort", "camp", "trench", "wall", "grass", "bare"
};

const char *rt_map_kind_name(rt_map_kind kind)
{
	return (unsigned)kind < RT_MAP_KIND_COUNT ? kind_names[kind] : "unknown";
}

rt_map_kind rt_map_kind_from_name(const char *name)
{
	if (name)
		for (int k = 0; k < RT_MAP_KIND_COUNT; ++k)
			if (strcmp(name, kind_names[k]) == 0) return (rt_map_kind)k;
	return RT_MAP_KIND_COUNT;
}

enum { GEOM_POINT = 1, GEOM_LINES = 2, GEOM_AREAS = 4, GEOM_ONE_POLYGON = 8 };
enum { NEED_NO = 0, NEED_YES, NEED_FOR_LINES };
typedef enum { PROP_NUMBER, PROP_INTEGER, PROP_TEXT, PROP_GATES } prop_type;

typedef struct prop_spec {
	const char *name;
	prop_type type;
	int value;         /* RT_MAPV_* for numbers */
	double min, max;
	double fallback;   /* NaN: none */
	int need;
	const char *unit;  /* for messages */
} prop_spec;

#define NONE NAN
#define END { NULL, PROP_NUMBER, 0, 0, 0, NONE, NEED_NO, NULL }
static const prop_spec coast_props[] = {
	{ "elevation_m", PROP_NUMBER, RT_MAPV_ELEVATION, -20, 20, 0.0, NEED_NO, "m above mean sea level" },
	{ "width_m", PROP_NUMBER, RT_MAPV_WIDTH, 1, 2000, NONE, NEED_NO, "m" },
	END
};
static const prop_spec sea_props[] = {
	{ "elevation_m", PROP_NUMBER, RT_MAPV_ELEVATION, -1000, 0, NONE, NEED_NO, "m above mean sea level" },
	END
};
static const prop_spec tidal_flat_props[] = {
	{ "elevation_m", PROP_NUMBER, RT_MAPV_ELEVATION, -20, 20, NONE, NEED_YES, "m above mean sea level" },
	{ "speed_factor", PROP_NUMBER, RT_MAPV_SPEED, 0.1, 2, 1.0, NEED_NO, "times open ground" },
	END
};
static const prop_spec river_props[] = {
	{ "width_m", PROP_NUMBER, RT_MAPV_WIDTH, 1, 2000, NONE, NEED_FOR_LINES, "m" },
	{ "depth_m", PROP_NUMBER, RT_MAPV_DEPTH, 0, 30, NONE, NEED_YES, "m" },
	END
};
static const prop_spec ford_props[] = {
	{ "width_m", PROP_NUMBER, RT_MAPV_WIDTH, 1, 500, NONE, NEED_NO, "m" },
	{ "depth_m", PROP_NUMBER, RT_MAPV_DEPTH, 0, 1.5, 0.5, NEED_NO, "m" },
	{ "speed_factor", PROP_NUMBER, RT_MAPV_SPEED, 0.1, 2, 0.5, NEED_NO, "times open ground" },
	END
};
static const prop_spec bridge_props[] = {
	{ "width_m", PROP_NUMBER, RT_MAPV_WIDTH, 1, 100, NONE, NEED_NO, "m" },
	{ "speed_factor", PROP_NUMBER, RT_MAPV_SPEED, 0.1, 2, 1.0, NEED_NO, "times open ground" },
	END
};
static const prop_spec road_props[] = {
	{ "width_m", PROP_NUMBER, RT_MAPV_WIDTH, 1, 50, NONE, NEED_YES, "m" },
	{ "speed_factor", PROP_NUMBER, RT_MAPV_SPEED, 0.5, 2, 1.2, NEED_NO, "times the ground under it" },
	END
};
static const prop_spec hill_props[] = {
	{ "height_m", PROP_NUMBER, RT_MAPV_HEIGHT, 0, 3000, NONE, NEED_YES, "m above the ground around it" },
	{ "slope_penalty", PROP_NUMBER, RT_MAPV_SLOPE, 0, 1, 0.3, NEED_NO, "of the speed lost per 10 % of slope" },
	END
};
static const prop_spec fort_props[] = {
	{ "gates", PROP_GATES, 0, 0, 0, NONE, NEED_YES, "[lon, lat] points on the outline" },
	{ "capacity", PROP_INTEGER, RT_MAPV_CAPACITY, 1, 1e6, NONE, NEED_YES, "men" },
	{ "side", PROP_TEXT, 0, 0, 0, NONE, NEED_NO, "text" },
	{ "gate_width_m", PROP_NUMBER, RT_MAPV_GATE_WIDTH, 1, 50, 4.0, NEED_NO, "m" },
	{ "wall_width_m", PROP_NUMBER, RT_MAPV_WALL_WIDTH, 0.5, 50, NONE, NEED_NO, "m" },
	{ "height_m", PROP_NUMBER, RT_MAPV_HEIGHT, 0.5, 30, NONE, NEED_NO, "m (the wall's)" },
	END
};
static const prop_spec camp_props[] = {
	{ "side", PROP_TEXT, 0, 0, 0, NONE, NEED_NO, "text" },
	END
};
static const prop_spec trench_props[] = {
	{ "depth_m", PROP_NUMBER, RT_MAPV_DEPTH, 0.5, 10, NONE, NEED_YES, "m" },
	{ "width_m", PROP_NUMBER, RT_MAPV_WIDTH, 0.5, 20, NONE, NEED_YES, "m" },
	END
};
static const prop_spec wall_props[] = {
	{ "height_m", PROP_NUMBER, RT_MAPV_HEIGHT, 0.5, 30, NONE, NEED_NO, "m" },
	{ "width_m", PROP_NUMBER, RT_MAPV_WIDTH, 0.5, 50, NONE, NEED_NO, "m" },
	END
};
static const prop_spec grass_props[] = {
	{ "fuel_kg_m2", PROP_NUMBER, RT_MAPV_FUEL, 0.05, 3, 0.45, NEED_NO, "kg of dry grass per m2" },
	END
};
static const prop_spec bare_props[] = {
	END
};
#undef END

static const struct {
	const prop_spec *props;
	int geometry; /* GEOM_* accepted */
} kind_table[RT_MAP_KIND_COUNT] = {
	[RT_MAP_COAST] = { coast_props, GEOM_LINES },
	[RT_MAP_SEA] = { sea_props, GEOM_AREAS },
	[RT_MAP_TIDAL_FLAT] = { tidal_flat_props, GEOM_AREAS },
	[RT_MAP_RIVER] = { river_props, GEOM_LINES | GEOM_AREAS },
	[RT_MAP_FORD] = { ford_props, GEOM_LINES | GEOM_AREAS },
	[RT_MAP_BRIDGE] = { bridge_props, GEOM_LINES | GEOM_AREAS },
	[RT_MAP_ROAD] = { road_props, GEOM_LINES },
	[RT_MAP_HILL] = { hill_props, GEOM_AREAS },
	[RT_MAP_FORT] = { fort_props, GEOM_ONE_POLYGON },
	[RT_MAP_CAMP] = { camp_props, GEOM_AREAS | GEOM_POINT },
	[RT_MAP_TRENCH] = { trench_props, GEOM_LINES },
	[RT_MAP_WALL] = { wall_props, GEOM_LINES | GEOM_AREAS },
	[RT_MAP_GRASS] = { grass_props, GEOM_AREAS },
	[RT_MAP_BARE] = { bare_props, GEOM_AREAS },
};

static const char *geometry_words(int mask)
{
	switch (mask) {
	case GEOM_LINES: return "a LineString or MultiLineString";
	case GEOM_AREAS: return "a Polygon or MultiPolygon";
	case GEOM_LINES | GEOM_AREAS: return "a LineString, MultiLineString, Polygon or MultiPolygon";
	case GEOM_ONE_POLYGON: return "a Polygon";
	case GEOM_AREAS | GEOM_POINT: return "a Polygon, MultiPolygon or Point";
	}
	return "?";
}

/* ---- the definition ---------------------------------------------------------------------- */
rt_map_def rt_map_def_default(void)
{
	rt_map_def d;
	memset(&d, 0, sizeof d);
	d.origin.lon_deg = NAN;
	d.origin.lat_deg = NAN;
	d.cell_m = 10.0;
	d.land_elevation_m = 5.0;
	d.sea_elevation_m = -5.0;
	d.max_cells = RT_MAP_MAX_CELLS_DEFAULT;
	d.allocator = rt_allocator_default();
	d.cookie = RT_COOKIE;
	return d;
}

/* ---- projection: transverse Mercator, Krueger series (Karney 2011) ------------------------ */
static double conformal_tau(double tau, double e)
{
	const double tau1 = hypot(1.0, tau);
	const double sig = sinh(e * atanh(e * tau / tau1));
	return hypot(1.0, sig) * tau - sig * tau1;
}

static void project(const rt_map_projection *p, double lon_deg, double lat_deg, double *x, double *y)
{
	const double dl = remainder((lon_deg - p->lon0_deg) * DEG, 2.0 * PI);
	const double taup = conformal_tau(tan(lat_deg * DEG), p->e);
	const double xip = atan2(taup, cos(dl));
	const double etap = asinh(sin(dl) / hypot(taup, cos(dl)));
	double xi = xip, eta = etap;
	for (int j = 1; j <= 6; ++j) {
		xi += p->alpha[j] * sin(2 * j * xip) * cosh(2 * j * etap);
		eta += p->alpha[j] * cos(2 * j * xip) * sinh(2 * j * etap);
	}
	*x = p->a_hat * eta;
	*y = p->a_hat * xi - p->y0;
}

static void unproject(const rt_map_projection *p, double x, double y, double *lon_deg, double *lat_deg)
{
	const double xi = (y + p->y0) / p->a_hat, eta = x / p->a_hat;
	double xip = xi, etap = eta;
	for (int j = 1; j <= 6; ++j) {
		xip -= p->beta[j] * sin(2 * j * xi) * cosh(2 * j * eta);
		etap -= p->beta[j] * cos(2 * j * xi) * sinh(2 * j * eta);
	}
	const double s = sinh(etap), c = cos(xip);
	const double taup = sin(xip) / hypot(s, c);
	const double dl = atan2(s, c);
	/* conformal to geodetic latitude by Newton's method: two or three iterations */
	double tau = taup / p->e2m;
	for (int k = 0; k < 10; ++k) {
		const double taupa = conformal_tau(tau, p->e);
		const double dtau = (taup - taupa) * (1.0 + p->e2m * tau * tau) /
				    (p->e2m * hypot(1.0, tau) * hypot(1.0, taupa));
		tau += dtau;
		if (!(fabs(dtau) >= 1e-15 * fmax(1.0, fabs(tau)))) break;
	}
	*lat_deg = atan(tau) / DEG;
	*lon_deg = remainder(p->lon0_deg + dl / DEG, 360.0);
}

static void projection_init(rt_map_projection *p, rt_lonlat origin)
{
	const double a = 6378137.0, f = 1.0 / 298.257223563; /* WGS84 */
	const double n = f / (2.0 - f), n2 = n * n, n3 = n2 * n, n4 = n3 * n, n5 = n4 * n, n6 = n5 * n;
	memset(p, 0, sizeof *p);
	p->e = sqrt(f * (2.0 - f));
	p->e2m = 1.0 - f * (2.0 - f);
	p->a_hat = a / (1.0 + n) * (1.0 + n2 / 4.0 + n4 / 64.0 + n6 / 256.0);
	p->alpha[1] = n / 2 - 2 * n2 / 3 + 5 * n3 / 16 + 41 * n4 / 180 - 127 * n5 / 288 + 7891 * n6 / 37800;
	p->alpha[2] = 13 * n2 / 48 - 3 * n3 / 5 + 557 * n4 / 1440 + 281 * n5 / 630 - 1983433 * n6 / 1935360;
	p->alpha[3] = 61 * n3 / 240 - 103 * n4 / 140 + 15061 * n5 / 26880 + 167603 * n6 / 181440;
	p->alpha[4] = 49561 * n4 / 161280 - 179 * n5 / 168 + 6601661 * n6 / 7257600;
	p->alpha[5] = 34729 * n5 / 80640 - 3418889 * n6 / 1995840;
	p->alpha[6] = 212378941 * n6 / 319334400;
	p->beta[1] = n / 2 - 2 * n2 / 3 + 37 * n3 / 96 - n4 / 360 - 81 * n5 / 512 + 96199 * n6 / 604800;
	p->beta[2] = n2 / 48 + n3 / 15 - 437 * n4 / 1440 + 46 * n5 / 105 - 1118711 * n6 / 3870720;
	p->beta[3] = 17 * n3 / 480 - 37 * n4 / 840 - 209 * n5 / 4480 + 5569 * n6 / 90720;
	p->beta[4] = 4397 * n4 / 161280 - 11 * n5 / 504 - 830251 * n6 / 7257600;
	p->beta[5] = 4583 * n5 / 161280 - 108847 * n6 / 3991680;
	p->beta[6] = 20648693 * n6 / 638668800;
	p->lon0_deg = origin.lon_deg;
	p->lon0_rad = origin.lon_deg * DEG;
	p->lat0_deg = origin.lat_deg;
	double x, y;
	project(p, origin.lon_deg, origin.lat_deg, &x, &y);
	p->y0 = y;
}

rt_vec2 rt_map_lonlat_to_xy(const rt_map *map, rt_lonlat p)
{
	rt_vec2 v = { NAN, NAN };
	if (map && isfinite(p.lon_deg) && isfinite(p.lat_deg)) project(&map->projection, p.lon_deg, p.lat_deg, &v.x, &v.y);
	return v;
}

rt_lonlat rt_map_xy_to_lonlat(const rt_map *map, rt_vec2 p)
{
	rt_lonlat l = { NAN, NAN };
	if (map && isfinite(p.x) && isfinite(p.y)) unproject(&map->projection, p.x, p.y, &l.lon_deg, &l.lat_deg);
	return l;
}

/* ---- growable storage --------------------------------------------------------------------- */
static bool grow(const rt_allocator *a, void **p, int *capacity, int need, size_t item)
{
	if (need <= *capacity) return true;
	if (need > MAX_MAP_POINTS) return false;
	int cap = *capacity ? *capacity : 16;
	while (cap < need) cap = cap > MAX_MAP_POINTS / 2 ? MAX_MAP_POINTS : cap * 2;
	void *q = rt__realloc(a, *p, (size_t)*capacity * item, (size_t)cap * item);
	if (!q) return false;
	*p = q;
	*capacity = cap;
	return true;
}

/* ---- the loader's state and its errors ---------------------------------------------------- */
typedef struct loader {
	const rt_map_def *def;
	const char *file;
	rt_error *err;
	rt_map *map;
	const char *kind_property;
	bool has_extent;
	rt_vec2 extent_min, extent_max;
	bool any_point;
	rt_vec2 bbox_min, bbox_max;
	int index;          /* the feature being read */
	rt_map_feature *feature;
	char label[256];
	char field[128];
	char path_base[64]; /* "features[3].geometry.coordinates" */
	int path[4], depth; /* indices below path_base */
	const char *cell_field; /* where cell_m came from, for the capacity error */
} loader;

static rt_status nomem(loader *L)
{
	return rt__fail_at(L->err, RT_ERR_NOMEM, L->file, 0, 0, "", "out of memory while loading the map");
}

static void set_field(loader *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_field(loader *L, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(L->field, sizeof L->field, fmt, ap);
	va_end(ap);
}

static void set_path_field(loader *L)
{
	int n = snprintf(L->field, sizeof L->field, "%s", L->path_base);
	for (int k = 0; k < L->depth && n > 0 && (size_t)n < sizeof L->field; ++k)
		n += snprintf(L->field + n, sizeof L->field - (size_t)n, "[%d]", L->path[k]);
}

/* A map error about the current feature: "features[3] (river, id "x"): <message>". */
static rt_status fail(loader *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static rt_status fail(loader *L, const char *fmt, ...)
{
	char message[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	if (L->index < 0)
		return rt__fail_at(L->err, RT_ERR_INVALID, L->file, 0, 0, L->field, "%s", message);
	return rt__fail_at(L->err, RT_ERR_INVALID, L->file, 0, 0, L->field, "%s: %s", L->label, message);
}

void rt__map_feature_label(const rt_map *map, int index, char *out, size_t size)
{
	const rt_map_feature *f = &map->features[index];
	const bool kind = (unsigned)f->kind < RT_MAP_KIND_COUNT;
	int n = snprintf(out, size, "features[%d]", index);
	const char *sep = " (";
	if (kind && n >= 0 && (size_t)n < size) {
		n += snprintf(out + n, size - (size_t)n, "%s%s", sep, kind_names[f->kind]);
		sep = ", ";
	}
	if (f->id >= 0 && n >= 0 && (size_t)n < size) {
		n += snprintf(out + n, size - (size_t)n, "%sid \"%s\"", sep, map->strings + f->id);
		sep = ", ";
	}
	if (f->name >= 0 && n >= 0 && (size_t)n < size) {
		n += snprintf(out + n, size - (size_t)n, "%sname \"%s\"", sep, map->strings + f->name);
		sep = ", ";
	}
	if (sep[0] == ',' && n >= 0 && (size_t)n < size) snprintf(out + n, size - (size_t)n, ")");
}

static void update_label(loader *L)
{
	rt__map_feature_label(L->map, L->index, L->label, sizeof L->label);
}

/* ---- strings -------------------------------------------------------------------------------- */
static bool valid_utf8(const unsigned char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		unsigned c = s[i];
		int extra;
		unsigned min;
		if (c < 0x80) { i++; continue; }
		else if ((c & 0xe0) == 0xc0) { extra = 1; min = 0x80; c &= 0x1f; }
		else if ((c & 0xf0) == 0xe0) { extra = 2; min = 0x800; c &= 0x0f; }
		else if ((c & 0xf8) == 0xf0) { extra = 3; min = 0x10000; c &= 0x07; }
		else return false;
		if (i + (size_t)extra >= n) return false;
		for (int k = 1; k <= extra; ++k) {
			if ((s[i + (size_t)k] & 0xc0) != 0x80) return false;
			c = (c << 6) | (s[i + (size_t)k] & 0x3f);
		}
		if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return false;
		i += (size_t)extra + 1;
	}
	return true;
}

static rt_status add_string(loader *L, const char *s, size_t n, int *offset)
{
	rt_map *m = L->map;
	size_t need = m->string_size + n + 1;
	if (need > (size_t)1 << 30) return fail(L, "too much text in the map");
	if (need > m->string_capacity) {
		size_t cap = m->string_capacity ? m->string_capacity : 256;
		while (cap < need) cap *= 2;
		char *q = rt__realloc(&m->allocator, m->strings, m->string_capacity, cap);
		if (!q) return nomem(L);
		m->strings = q;
		m->string_capacity = cap;
	}
	memcpy(m->strings + m->string_size, s, n);
	m->strings[m->string_size + n] = '\0';
	*offset = (int)m->string_size;
	m->string_size = need;
	return RT_OK;
}

/* A text property: a non-empty UTF-8 string of at most 255 bytes (2000 for "note" and
 * "source"), or, for "id", an integer, kept as its decimal digits. */
static rt_status read_text(loader *L, json_t *props, const char *key, bool integer_ok, int *offset)
{
	const size_t max_bytes = strcmp(key, "note") == 0 || strcmp(key, "source") == 0 ? MAX_NOTE_BYTES : MAX_STRING_BYTES;
	json_t *v = json_object_get(props, key);
	*offset = -1;
	if (!v || json_is_null(v)) return RT_OK;
	set_field(L, "features[%d].properties.%s", L->index, key);
	char digits[32];
	const char *s;
	size_t n;
	if (integer_ok && json_is_integer(v)) {
		snprintf(digits, sizeof digits, "%lld", (long long)json_integer_value(v));
		s = digits;
		n = strlen(digits);
	} else if (json_is_string(v)) {
		s = json_string_value(v);
		n = json_string_length(v);
	} else {
		return fail(L, "%s must be %s", key, integer_ok ? "a string or an integer" : "a string");
	}
	if (n == 0) return fail(L, "%s is empty; leave it out instead", key);
	if (n > max_bytes) return fail(L, "%s is %zu bytes long; at most %zu are allowed", key, n, max_bytes);
	if (strlen(s) != n || !valid_utf8((const unsigned char *)s, n)) return fail(L, "%s is not valid UTF-8 text", key);
	return add_string(L, s, n, offset);
}

/* "grade": how well the record attests the feature, as in ../shared/HISTORY.md: "A"
 * (primary records or a standard history), "B" (sourced but secondary or partly
 * inferred) or "E" (an estimate). */
static rt_status read_grade(loader *L, json_t *props, int *offset)
{
	rt_status s = read_text(L, props, "grade", false, offset);
	if (s != RT_OK || *offset < 0) return s;
	const char *g = L->map->strings + *offset;
	if (strcmp(g, "A") != 0 && strcmp(g, "B") != 0 && strcmp(g, "E") != 0)
		return fail(L, "grade \"%.40s\" is not a grade; expected \"A\" (primary record), \"B\" (secondary or inferred) or \"E\" (estimate)", g);
	return RT_OK;
}

/* ---- positions and geometry --------------------------------------------------------------------- */
static bool read_number(json_t *v, double *out)
{
	if (!json_is_number(v)) return false;
	*out = json_number_value(v);
	return isfinite(*out);
}

/* Reads [lon, lat] or [lon, lat, altitude] at the current path and projects it. */
static rt_status read_position(loader *L, json_t *v, rt_lonlat *ll, rt_vec2 *xy)
{
	set_path_field(L);
	if (!json_is_array(v) || json_array_size(v) < 2 || json_array_size(v) > 3)
		return fail(L, "a position must be [longitude, latitude] in degrees (an optional third number is ignored)");
	double lon, lat, alt;
	if (!read_number(json_array_get(v, 0), &lon) || !read_number(json_array_get(v, 1), &lat) ||
	    (json_array_size(v) == 3 && !read_number(json_array_get(v, 2), &alt)))
		return fail(L, "a position must hold finite numbers");
	if (lon < -180.0 || lon > 180.0) return fail(L, "longitude %g is outside -180 to 180", lon);
	if (lat < -90.0 || lat > 90.0) return fail(L, "latitude %g is outside -90 to 90", lat);
	const rt_map_projection *p = &L->map->projection;
	const double dlon = remainder(lon - p->lon0_deg, 360.0);
	double x, y;
	if (fabs(dlon) > MAX_LONGITUDE_SPAN_DEG || fabs(lat - p->lat0_deg) > MAX_LONGITUDE_SPAN_DEG)
		return fail(L, "[%.6f, %.6f] lies more than %g degrees from the origin [%.6f, %.6f]; a map must lie within %.0f km of its origin",
			    lon, lat, MAX_LONGITUDE_SPAN_DEG, p->lon0_deg, p->lat0_deg, RT_MAP_MAX_RADIUS_M / 1000.0);
	project(p, lon, lat, &x, &y);
	if (fabs(x) > RT_MAP_MAX_RADIUS_M || fabs(y) > RT_MAP_MAX_RADIUS_M)
		return fail(L, "[%.6f, %.6f] lies %.0f km east and %.0f km north of the origin; a map must lie within %.0f km of it",
			    lon, lat, x / 1000.0, y / 1000.0, RT_MAP_MAX_RADIUS_M / 1000.0);
	if (L->has_extent) {
		const double slack = 1e-6;
		double out_m = fmax(fmax(L->extent_min.x - x, x - L->extent_max.x), fmax(L->extent_min.y - y, y - L->extent_max.y));
		if (out_m > slack)
			return fail(L, "[%.6f, %.6f] lies %.1f m outside the map's extent (x %.0f to %.0f m, y %.0f to %.0f m around the origin)",
				    lon, lat, out_m, L->extent_min.x, L->extent_max.x, L->extent_min.y, L->extent_max.y);
	}
	if (!L->any_point) {
		L->bbox_min = L->bbox_max = (rt_vec2){ x, y };
		L->any_point = true;
	}
	L->bbox_min.x = fmin(L->bbox_min.x, x);
	L->bbox_min.y = fmin(L->bbox_min.y, y);
	L->bbox_max.x = fmax(L->bbox_max.x, x);
	L->bbox_max.y = fmax(L->bbox_max.y, y);
	ll->lon_deg = lon;
	ll->lat_deg = lat;
	xy->x = x;
	xy->y = y;
	return RT_OK;
}

static rt_status push_point(loader *L, rt_vec2 p)
{
	rt_map *m = L->map;
	if (!grow(&m->allocator, (void **)&m->points, &m->point_capacity, m->point_count + 1, sizeof *m->points)) {
		if (m->point_count + 1 > MAX_MAP_POINTS) return fail(L, "more than %d points in the map", MAX_MAP_POINTS);
		return nomem(L);
	}
	m->points[m->point_count++] = p;
	return RT_OK;
}

static rt_status begin_part(loader *L, bool hole)
{
	rt_map *m = L->map;
	if (!grow(&m->allocator, (void **)&m->part_start, &m->part_capacity, m->part_count + 2, sizeof *m->part_start) ||
	    !grow(&m->allocator, (void **)&m->part_hole, &m->part_hole_capacity, m->part_count + 1, sizeof *m->part_hole))
		return nomem(L);
	m->part_start[m->part_count] = m->point_count;
	m->part_start[m->part_count + 1] = m->point_count;
	m->part_hole[m->part_count] = hole ? 1 : 0;
	return RT_OK;
}

static rt_status end_part(loader *L)
{
	rt_map *m = L->map;
	m->part_count++;
	m->part_start[m->part_count] = m->point_count;
	L->feature->part_count++;
	return RT_OK;
}

/* A line: at least two positions that are not all the same; repeated neighbours are
 * dropped. A Point is a one-position "line". */
static rt_status read_line(loader *L, json_t *v, bool point)
{
	rt_status s;
	if ((s = begin_part(L, false)) != RT_OK) return s;
	rt_lonlat ll, prev = { NAN, NAN };
	rt_vec2 xy;
	if (point) {
		if ((s = read_position(L, v, &ll, &xy)) != RT_OK) return s;
		if ((s = push_point(L, xy)) != RT_OK) return s;
		return end_part(L);
	}
	set_path_field(L);
	if (!json_is_array(v) || json_array_size(v) < 2) return fail(L, "a line needs an array of at least two positions");
	const int first = L->map->point_count;
	for (size_t k = 0; k < json_array_size(v); ++k) {
		L->path[L->depth++] = (int)k;
		s = read_position(L, json_array_get(v, k), &ll, &xy);
		L->depth--;
		if (s != RT_OK) return s;
		if (ll.lon_deg == prev.lon_deg && ll.lat_deg == prev.lat_deg) continue;
		if ((s = push_point(L, xy)) != RT_OK) return s;
		prev = ll;
	}
	set_path_field(L);
	if (L->map->point_count - first < 2) return fail(L, "the line has zero length (all its positions are the same)");
	return end_part(L);
}

/* Do segments ab and cd meet (touching counts)? */
static double orient(rt_vec2 a, rt_vec2 b, rt_vec2 c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }
static bool on_segment(rt_vec2 a, rt_vec2 b, rt_vec2 p)
{
	return fmin(a.x, b.x) <= p.x && p.x <= fmax(a.x, b.x) && fmin(a.y, b.y) <= p.y && p.y <= fmax(a.y, b.y);
}
static bool segments_meet(rt_vec2 a, rt_vec2 b, rt_vec2 c, rt_vec2 d)
{
	const double o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
	if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
	return (o1 == 0 && on_segment(a, b, c)) || (o2 == 0 && on_segment(a, b, d)) || (o3 == 0 && on_segment(c, d, a)) ||
	       (o4 == 0 && on_segment(c, d, b));
}

typedef struct edge_ref {
	double lo;  /* the edge's least coordinate along the sweep axis */
	int index; /* of the edge's first point in rt_map.points */
	int ring;  /* position of the ring within the polygon */
} edge_ref;

static int cmp_edges(const void *a, const void *b)
{
	const edge_ref *x = a, *y = b;
	if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
	return x->index - y->index;
}

/* A polygon (its rings are parts [first_part, first_part + rings)) must be simple: no
 * edge may meet another except its two neighbours at their shared ends, and rings may
 * not touch each other. A sweep over edges sorted along the polygon's longer side, so
 * that a long thin outline (a river, a shore strip) compares few pairs. */
static rt_status check_simple(loader *L, int first_part, int rings)
{
	rt_map *m = L->map;
	int edges = 0;
	for (int r = 0; r < rings; ++r) edges += m->part_start[first_part + r + 1] - m->part_start[first_part + r] - 1;
	edge_ref *e = rt__alloc(&m->allocator, (size_t)edges * sizeof *e);
	if (!e) return nomem(L);
	const int first_point = m->part_start[first_part], end_point = m->part_start[first_part + rings];
	rt_vec2 lo = m->points[first_point], hi = lo;
	for (int i = first_point; i < end_point; ++i) {
		lo.x = fmin(lo.x, m->points[i].x), lo.y = fmin(lo.y, m->points[i].y);
		hi.x = fmax(hi.x, m->points[i].x), hi.y = fmax(hi.y, m->points[i].y);
	}
	const bool along_y = hi.y - lo.y > hi.x - lo.x;
#define SWEEP(v) (along_y ? (v).y : (v).x)
#define ACROSS(v) (along_y ? (v).x : (v).y)
	int n = 0;
	for (int r = 0; r < rings; ++r)
		for (int i = m->part_start[first_part + r]; i < m->part_start[first_part + r + 1] - 1; ++i)
			e[n++] = (edge_ref){ fmin(SWEEP(m->points[i]), SWEEP(m->points[i + 1])), i, r };
	qsort(e, (size_t)n, sizeof *e, cmp_edges);
	rt_status s = RT_OK;
	for (int a = 0; a < n && s == RT_OK; ++a) {
		const rt_vec2 p = m->points[e[a].index], q = m->points[e[a].index + 1];
		const double sweep_max = fmax(SWEEP(p), SWEEP(q));
		const int ring_first = m->part_start[first_part + e[a].ring];
		const int ring_last = m->part_start[first_part + e[a].ring + 1] - 2; /* last edge */
		for (int b = a + 1; b < n && e[b].lo <= sweep_max; ++b) {
			const int i = e[a].index, j = e[b].index;
			const rt_vec2 c = m->points[j], d = m->points[j + 1];
			if (fmax(ACROSS(c), ACROSS(d)) < fmin(ACROSS(p), ACROSS(q)) ||
			    fmin(ACROSS(c), ACROSS(d)) > fmax(ACROSS(p), ACROSS(q)))
				continue;
			bool adjacent = e[a].ring == e[b].ring &&
					(abs(i - j) == 1 || (i == ring_first && j == ring_last) || (j == ring_first && i == ring_last));
			if (adjacent) {
				/* neighbours share one end; they are bad only if they fold back on each other */
				const rt_vec2 shared = (i + 1 == j || (i == ring_last && j == ring_first)) ? q : p;
				const rt_vec2 u = (shared.x == p.x && shared.y == p.y) ? q : p;
				const rt_vec2 w = (shared.x == c.x && shared.y == c.y) ? d : c;
				const double cross = orient(shared, u, w);
				const double dot = (u.x - shared.x) * (w.x - shared.x) + (u.y - shared.y) * (w.y - shared.y);
				if (fabs(cross) <= 1e-12 * (fabs(dot) + 1.0) && dot > 0) {
					rt_lonlat at = rt_map_xy_to_lonlat(m, shared);
					s = fail(L, "the outline folds back on itself at [%.6f, %.6f] (a spike of zero width)", at.lon_deg, at.lat_deg);
					break;
				}
				continue;
			}
			if (segments_meet(p, q, c, d)) {
				/* where: the crossing point, or an end lying on the other edge */
				const double o3 = orient(c, d, p), o4 = orient(c, d, q);
				rt_vec2 meet = p;
				if (o3 != o4 && o3 * o4 <= 0.0) {
					const double t = o3 / (o3 - o4);
					meet = (rt_vec2){ p.x + t * (q.x - p.x), p.y + t * (q.y - p.y) };
				} else if (orient(p, q, c) == 0.0 && on_segment(p, q, c)) {
					meet = c;
				} else if (orient(p, q, d) == 0.0 && on_segment(p, q, d)) {
					meet = d;
				} else if (o4 == 0.0) {
					meet = q;
				}
				rt_lonlat at = rt_map_xy_to_lonlat(m, meet);
				if (e[a].ring == e[b].ring)
					s = fail(L, "the polygon intersects itself: ring %d crosses itself near [%.6f, %.6f]; draw it without crossings (split a figure eight in two)",
						 e[a].ring, at.lon_deg, at.lat_deg);
				else
					s = fail(L, "the polygon intersects itself: rings %d and %d meet near [%.6f, %.6f]",
						 e[a].ring < e[b].ring ? e[a].ring : e[b].ring, e[a].ring < e[b].ring ? e[b].ring : e[a].ring,
						 at.lon_deg, at.lat_deg);
				break;
			}
		}
	}
	rt__free(&m->allocator, e, (size_t)edges * sizeof *e);
	return s;
}
#undef SWEEP
#undef ACROSS

/* A ring: at least four positions, the last repeating the first, enclosing an area. */
static rt_status read_ring(loader *L, json_t *v, bool hole)
{
	rt_status s;
	set_path_field(L);
	if (!json_is_array(v)) return fail(L, "a polygon ring must be an array of positions");
	const size_t count = json_array_size(v);
	if (count < 4) return fail(L, "the ring has %zu positions; a ring needs at least 4, the last repeating the first", count);
	rt_lonlat first_ll, last_ll;
	rt_vec2 xy;
	L->path[L->depth++] = (int)count - 1;
	s = read_position(L, json_array_get(v, count - 1), &last_ll, &xy);
	L->depth--;
	if (s != RT_OK) return s;
	if ((s = begin_part(L, hole)) != RT_OK) return s;
	const int first = L->map->point_count;
	rt_lonlat prev = { NAN, NAN };
	double area = 0.0, perimeter = 0.0;
	const double k = cos(L->map->projection.lat0_deg * DEG);
	for (size_t i = 0; i < count; ++i) {
		rt_lonlat ll;
		L->path[L->depth++] = (int)i;
		s = read_position(L, json_array_get(v, i), &ll, &xy);
		L->depth--;
		if (s != RT_OK) return s;
		if (i == 0) first_ll = ll;
		if (ll.lon_deg == prev.lon_deg && ll.lat_deg == prev.lat_deg) continue;
		if (i > 0) {
			/* shoelace in locally scaled degrees, relative to the first vertex: exactly
			 * zero for collinear positions, whatever the projection does */
			const double ax = (prev.lon_deg - first_ll.lon_deg) * k, ay = prev.lat_deg - first_ll.lat_deg;
			const double bx = (ll.lon_deg - first_ll.lon_deg) * k, by = ll.lat_deg - first_ll.lat_deg;
			area += ax * by - bx * ay;
			perimeter += hypot(bx - ax, by - ay);
		}
		if ((s = push_point(L, xy)) != RT_OK) return s;
		prev = ll;
	}
	set_path_field(L);
	if (first_ll.lon_deg != last_ll.lon_deg || first_ll.lat_deg != last_ll.lat_deg)
		return fail(L, "the ring is not closed: its first position [%.7f, %.7f] and last [%.7f, %.7f] differ; repeat the first at the end",
			    first_ll.lon_deg, first_ll.lat_deg, last_ll.lon_deg, last_ll.lat_deg);
	if (L->map->point_count - first < 4 || fabs(0.5 * area) <= 1e-9 * perimeter * perimeter)
		return fail(L, "the ring has zero area (its positions are collinear or repeated, or it crosses itself into lobes that cancel)");
	return end_part(L);
}

static rt_status read_polygon(loader *L, json_t *v)
{
	set_path_field(L);
	if (!json_is_array(v) || json_array_size(v) < 1)
		return fail(L, "a Polygon is an array of rings, the outline first and then any holes");
	const int first_part = L->map->part_count;
	for (size_t r = 0; r < json_array_size(v); ++r) {
		L->path[L->depth++] = (int)r;
		rt_status s = read_ring(L, json_array_get(v, r), r > 0);
		L->depth--;
		if (s != RT_OK) return s;
	}
	set_path_field(L);
	return check_simple(L, first_part, (int)json_array_size(v));
}

static rt_status read_geometry(loader *L, json_t *feature, int allowed, bool *lines)
{
	rt_map_feature *f = L->feature;
	json_t *g = json_object_get(feature, "geometry");
	set_field(L, "features[%d].geometry", L->index);
	if (!g || json_is_null(g)) return fail(L, "has no geometry");
	if (!json_is_object(g)) return fail(L, "geometry must be a GeoJSON geometry object");
	json_t *t = json_object_get(g, "type");
	set_field(L, "features[%d].geometry.type", L->index);
	if (!json_is_string(t)) return fail(L, "geometry has no \"type\"");
	const char *type = json_string_value(t);
	int mask;
	if (strcmp(type, "Point") == 0) mask = GEOM_POINT;
	else if (strcmp(type, "LineString") == 0 || strcmp(type, "MultiLineString") == 0) mask = GEOM_LINES;
	else if (strcmp(type, "Polygon") == 0) mask = GEOM_AREAS | GEOM_ONE_POLYGON;
	else if (strcmp(type, "MultiPolygon") == 0) mask = GEOM_AREAS;
	else return fail(L, "geometry type \"%s\" is not supported; use Point, LineString, MultiLineString, Polygon or MultiPolygon", type);
	if (!(mask & allowed))
		return fail(L, "a %s must be %s, not a %s", kind_names[f->kind], geometry_words(allowed), type);
	*lines = mask == GEOM_LINES;
	f->area = (mask & GEOM_AREAS) != 0;
	json_t *c = json_object_get(g, "coordinates");
	snprintf(L->path_base, sizeof L->path_base, "features[%d].geometry.coordinates", L->index);
	L->depth = 0;
	set_path_field(L);
	if (!json_is_array(c)) return fail(L, "geometry has no \"coordinates\" array");
	f->first_part = L->map->part_count;
	const bool multi = type[0] == 'M';
	if (multi && json_array_size(c) == 0) return fail(L, "a %s needs at least one member", type);
	const size_t members = multi ? json_array_size(c) : 1;
	for (size_t k = 0; k < members; ++k) {
		json_t *member = multi ? json_array_get(c, k) : c;
		if (multi) L->path[L->depth++] = (int)k;
		rt_status s = f->area ? read_polygon(L, member) : read_line(L, member, mask == GEOM_POINT);
		if (multi) L->depth--;
		if (s != RT_OK) return s;
	}
	return RT_OK;
}

/* ---- properties ------------------------------------------------------------------------------ */
static const prop_spec *find_prop(const prop_spec *props, const char *key)
{
	for (const prop_spec *p = props; p->name; ++p)
		if (strcmp(p->name, key) == 0) return p;
	return NULL;
}

static void list_props(rt_map_kind kind, char *out, size_t size)
{
	int n = snprintf(out, size, "name, name_zh, id, note, source, grade");
	for (const prop_spec *p = kind_table[kind].props; p->name && n >= 0 && (size_t)n < size; ++p)
		n += snprintf(out + n, size - (size_t)n, ", %s", p->name);
}

static void list_keys(json_t *props, char *out, size_t size)
{
	const char *key;
	json_t *value;
	int n = 0;
	out[0] = '\0';
	json_object_foreach(props, key, value) {
		if (n < 0 || (size_t)n >= size) break;
		n += snprintf(out + n, size - (size_t)n, "%s%s", n ? ", " : "", key);
	}
	if (n == 0) snprintf(out, size, "none");
}

static rt_status read_kind(loader *L, json_t *props)
{
	rt_map_feature *f = L->feature;
	const char *key = L->kind_property;
	json_t *v = json_object_get(props, key);
	set_field(L, "features[%d].properties.%s", L->index, key);
	if (!v || json_is_null(v)) {
		char keys[200];
		list_keys(props, keys, sizeof keys);
		return fail(L, "has no \"%s\" property (its properties: %s); say what it is with \"%s\": one of coast, sea, tidal_flat, river, ford, bridge, road, hill, fort, camp, trench, wall",
			    key, keys, key);
	}
	if (!json_is_string(v)) return fail(L, "\"%s\" must be a string", key);
	const char *value = json_string_value(v);
	for (int a = 0; a < L->def->kind_alias_count; ++a) {
		const rt_map_kind_alias *alias = &L->def->kind_aliases[a];
		if (alias->value && strcmp(alias->value, value) == 0 && (unsigned)alias->kind < RT_MAP_KIND_COUNT) {
			f->kind = alias->kind;
			return RT_OK;
		}
	}
	f->kind = rt_map_kind_from_name(value);
	if (f->kind == RT_MAP_KIND_COUNT)
		return fail(L, "unknown kind \"%.60s\"; expected one of coast, sea, tidal_flat, river, ford, bridge, road, hill, fort, camp, trench, wall, grass, bare", value);
	return RT_OK;
}

static rt_status read_properties(loader *L, json_t *props, json_t **gates)
{
	rt_map_feature *f = L->feature;
	const prop_spec *specs = kind_table[f->kind].props;
	const char *key;
	json_t *v;
	*gates = NULL;
	json_object_foreach(props, key, v) {
		if (strcmp(key, "name") == 0 || strcmp(key, "name_zh") == 0 || strcmp(key, "id") == 0 ||
		    strcmp(key, "note") == 0 || strcmp(key, "source") == 0 || strcmp(key, "grade") == 0 ||
		    strcmp(key, L->kind_property) == 0 || json_is_null(v))
			continue;
		set_field(L, "features[%d].properties.%.60s", L->index, key);
		const prop_spec *p = find_prop(specs, key);
		if (!p) {
			if (L->def->allow_unknown_properties) continue;
			char known[300];
			list_props(f->kind, known, sizeof known);
			for (int k = 0; k < RT_MAP_KIND_COUNT; ++k)
				if (find_prop(kind_table[k].props, key))
					return fail(L, "\"%.60s\" is not a property of a %s (a %s has: %s)", key, kind_names[f->kind],
						    kind_names[f->kind], known);
			return fail(L, "unknown property \"%.60s\" (a %s has: %s)", key, kind_names[f->kind], known);
		}
		double x;
		rt_status s;
		switch (p->type) {
		case PROP_NUMBER:
		case PROP_INTEGER:
			if (!read_number(v, &x)) return fail(L, "%s must be a number (%s)", key, p->unit);
			if (p->type == PROP_INTEGER && x != floor(x)) return fail(L, "%s is %g; it must be a whole number (%s)", key, x, p->unit);
			if (x < p->min || x > p->max)
				return fail(L, "%s is %g; expected %g to %g (%s)", key, x, p->min, p->max, p->unit);
			f->value[p->value] = x;
			break;
		case PROP_TEXT:
			if ((s = read_text(L, props, key, false, &f->side)) != RT_OK) return s;
			break;
		case PROP_GATES:
			if (!json_is_array(v)) return fail(L, "gates must be a list of [longitude, latitude] positions on the outline");
			if (json_array_size(v) == 0) return fail(L, "has no gate; a fort needs at least one gate on its outline");
			*gates = v;
			break;
		}
	}
	return RT_OK;
}

static rt_status check_required(loader *L, bool lines, json_t *gates)
{
	rt_map_feature *f = L->feature;
	for (const prop_spec *p = kind_table[f->kind].props; p->name; ++p) {
		const bool present = p->type == PROP_GATES ? gates != NULL : p->type == PROP_TEXT || !isnan(f->value[p->value]);
		if (present) continue;
		set_field(L, "features[%d].properties.%s", L->index, p->name);
		if (p->need == NEED_YES || (p->need == NEED_FOR_LINES && lines)) {
			if (p->type == PROP_GATES) return fail(L, "has no gate; a fort needs \"gates\": %s", p->unit);
			return fail(L, "a %s needs %s%s (%s, %g to %g)", kind_names[f->kind], p->name,
				    p->need == NEED_FOR_LINES ? " when drawn as a line" : "", p->unit, p->min, p->max);
		}
		if (p->type == PROP_NUMBER || p->type == PROP_INTEGER) f->value[p->value] = p->fallback;
	}
	if (f->kind == RT_MAP_SEA && isnan(f->value[RT_MAPV_ELEVATION])) f->value[RT_MAPV_ELEVATION] = L->map->sea_elevation_m;
	return RT_OK;
}

/* The nearest point of the outline ring to p. */
static rt_vec2 nearest_on_ring(const rt_vec2 *pts, int count, rt_vec2 p, double *distance)
{
	rt_vec2 best = pts[0];
	double best_d2 = INFINITY;
	for (int i = 0; i + 1 < count; ++i) {
		const rt_vec2 a = pts[i], b = pts[i + 1];
		const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
		double t = len2 > 0.0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0.0;
		t = rt__clamp(t, 0.0, 1.0);
		const rt_vec2 q = { a.x + t * dx, a.y + t * dy };
		const double d2 = (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y);
		if (d2 < best_d2) {
			best_d2 = d2;
			best = q;
		}
	}
	*distance = sqrt(best_d2);
	return best;
}

static rt_status read_gates(loader *L, json_t *gates)
{
	rt_map *m = L->map;
	rt_map_feature *f = L->feature;
	snprintf(L->path_base, sizeof L->path_base, "features[%d].properties.gates", L->index);
	L->depth = 1;
	f->first_gate = m->gate_count;
	const rt_vec2 *ring = m->points + m->part_start[f->first_part];
	const int ring_count = m->part_start[f->first_part + 1] - m->part_start[f->first_part];
	for (size_t k = 0; k < json_array_size(gates); ++k) {
		L->path[0] = (int)k;
		rt_lonlat ll;
		rt_vec2 xy;
		rt_status s = read_position(L, json_array_get(gates, k), &ll, &xy);
		if (s != RT_OK) return s;
		double distance;
		const rt_vec2 on = nearest_on_ring(ring, ring_count, xy, &distance);
		if (distance > RT_MAP_GATE_TOLERANCE_M)
			return fail(L, "gate %zu at [%.6f, %.6f] is %.1f m from the fort's outline; a gate must lie on the outline (within %g m)",
				    k, ll.lon_deg, ll.lat_deg, distance, RT_MAP_GATE_TOLERANCE_M);
		if (!grow(&m->allocator, (void **)&m->gates, &m->gate_capacity, m->gate_count + 1, sizeof *m->gates)) return nomem(L);
		m->gates[m->gate_count++] = on;
		f->gate_count++;
	}
	return RT_OK;
}

static rt_status read_feature(loader *L, json_t *feature)
{
	rt_map *m = L->map;
	rt_status s;
	if (!grow(&m->allocator, (void **)&m->features, &m->feature_capacity, m->feature_count + 1, sizeof *m->features))
		return nomem(L);
	rt_map_feature *f = &m->features[m->feature_count++];
	memset(f, 0, sizeof *f);
	f->kind = RT_MAP_KIND_COUNT;
	f->id = f->name = f->name_zh = f->side = f->note = f->source = f->grade = -1;
	for (int k = 0; k < RT_MAPV_COUNT; ++k) f->value[k] = NAN;
	L->feature = f;
	update_label(L);
	set_field(L, "features[%d]", L->index);
	if (!json_is_object(feature)) return fail(L, "a feature must be a GeoJSON Feature object");
	json_t *type = json_object_get(feature, "type");
	set_field(L, "features[%d].type", L->index);
	if (!json_is_string(type) || strcmp(json_string_value(type), "Feature") != 0)
		return fail(L, "\"type\" must be \"Feature\"");
	json_t *props = json_object_get(feature, "properties");
	set_field(L, "features[%d].properties", L->index);
	if (!json_is_object(props)) return fail(L, "has no properties; every feature needs at least \"%s\"", L->kind_property);
	if ((s = read_text(L, props, "name", false, &f->name)) != RT_OK) return s;
	if ((s = read_text(L, props, "name_zh", false, &f->name_zh)) != RT_OK) return s;
	if ((s = read_text(L, props, "id", true, &f->id)) != RT_OK) return s;
	update_label(L);
	if (f->id >= 0)
		for (int k = 0; k < m->feature_count - 1; ++k)
			if (m->features[k].id >= 0 && strcmp(m->strings + m->features[k].id, m->strings + f->id) == 0) {
				set_field(L, "features[%d].properties.id", L->index);
				return fail(L, "id \"%s\" is already used by features[%d]; ids must be unique", m->strings + f->id, k);
			}
	if ((s = read_kind(L, props)) != RT_OK) return s;
	update_label(L);
	if ((s = read_text(L, props, "note", false, &f->note)) != RT_OK) return s;
	if ((s = read_text(L, props, "source", false, &f->source)) != RT_OK) return s;
	if ((s = read_grade(L, props, &f->grade)) != RT_OK) return s;
	json_t *gates;
	if ((s = read_properties(L, props, &gates)) != RT_OK) return s;
	bool lines = false;
	const int bbox_points = m->point_count;
	if ((s = read_geometry(L, feature, kind_table[f->kind].geometry, &lines)) != RT_OK) return s;
	if ((s = check_required(L, lines, gates)) != RT_OK) return s;
	if (gates && (s = read_gates(L, gates)) != RT_OK) return s;
	f->bbox_min = f->bbox_max = m->points[bbox_points];
	for (int i = bbox_points; i < m->point_count; ++i) {
		f->bbox_min.x = fmin(f->bbox_min.x, m->points[i].x);
		f->bbox_min.y = fmin(f->bbox_min.y, m->points[i].y);
		f->bbox_max.x = fmax(f->bbox_max.x, m->points[i].x);
		f->bbox_max.y = fmax(f->bbox_max.y, m->points[i].y);
	}
	return RT_OK;
}

/* ---- the top level -------------------------------------------------------------------------- */
static rt_status read_pair(loader *L, json_t *v, const char *what, double *a, double *b)
{
	if (!json_is_array(v) || json_array_size(v) != 2 || !read_number(json_array_get(v, 0), a) ||
	    !read_number(json_array_get(v, 1), b))
		return fail(L, "%s must be a pair of numbers", what);
	return RT_OK;
}

/* The "rout" member: {"origin": [lon, lat], "cell_m": 10, "extent_m": [width, height]}. */
static rt_status read_settings(loader *L, json_t *root, rt_lonlat *origin, double *cell_m, rt_vec2 *extent)
{
	const rt_map_def *def = L->def;
	*origin = def->origin;
	*cell_m = def->cell_m;
	*extent = def->extent_m;
	L->cell_field = "rt_map_def.cell_m";
	json_t *r = json_object_get(root, "rout");
	bool origin_from_file = false;
	if (r) {
		set_field(L, "rout");
		if (!json_is_object(r)) return fail(L, "\"rout\" must be an object like {\"origin\": [lon, lat], \"cell_m\": 10, \"extent_m\": [width, height]}");
		const char *key;
		json_t *v;
		json_object_foreach(r, key, v) {
			set_field(L, "rout.%.60s", key);
			rt_status s;
			if (strcmp(key, "origin") == 0) {
				if ((s = read_pair(L, v, "origin", &origin->lon_deg, &origin->lat_deg)) != RT_OK) return s;
				origin_from_file = true;
			} else if (strcmp(key, "cell_m") == 0) {
				if (!read_number(v, cell_m)) return fail(L, "cell_m must be a number of metres");
				L->cell_field = "rout.cell_m";
			} else if (strcmp(key, "extent_m") == 0) {
				if ((s = read_pair(L, v, "extent_m", &extent->x, &extent->y)) != RT_OK) return s;
				if (!(extent->x > 0.0 && extent->y > 0.0 && extent->x <= 2.0 * RT_MAP_MAX_RADIUS_M &&
				      extent->y <= 2.0 * RT_MAP_MAX_RADIUS_M))
					return fail(L, "extent_m [%g, %g] must be positive and at most %g m", extent->x, extent->y,
						    2.0 * RT_MAP_MAX_RADIUS_M);
			} else {
				return fail(L, "unknown setting \"%.60s\" in \"rout\"; expected origin, cell_m, extent_m", key);
			}
		}
	}
	set_field(L, origin_from_file ? "rout.origin" : "rout");
	if (isnan(origin->lon_deg) || isnan(origin->lat_deg))
		return fail(L, "the map has no origin: give \"rout\": {\"origin\": [lon, lat]} in the file or rt_map_def.origin");
	if (!(fabs(origin->lon_deg) <= 180.0 && fabs(origin->lat_deg) <= 85.0))
		return fail(L, "origin [%g, %g] must have a longitude within -180 to 180 and a latitude within -85 to 85",
			    origin->lon_deg, origin->lat_deg);
	set_field(L, "%s", L->cell_field);
	if (!(*cell_m >= RT_MAP_MIN_CELL_M && *cell_m <= RT_MAP_MAX_CELL_M))
		return fail(L, "cell_m is %g; expected %g to %g m", *cell_m, RT_MAP_MIN_CELL_M, RT_MAP_MAX_CELL_M);
	if (!(extent->x >= 0.0 && extent->y >= 0.0 && extent->x <= 2.0 * RT_MAP_MAX_RADIUS_M &&
	      extent->y <= 2.0 * RT_MAP_MAX_RADIUS_M) || ((extent->x > 0.0) != (extent->y > 0.0))) {
		set_field(L, "rt_map_def.extent_m");
		return fail(L, "extent_m must be two positive numbers of at most %g m, or both 0", 2.0 * RT_MAP_MAX_RADIUS_M);
	}
	return RT_OK;
}

static rt_status check_crs(loader *L, json_t *root)
{
	json_t *crs = json_object_get(root, "crs");
	if (!crs || json_is_null(crs)) return RT_OK;
	set_field(L, "crs");
	const char *name = json_string_value(json_object_get(json_object_get(crs, "properties"), "name"));
	if (name && (strstr(name, "CRS84") || strstr(name, "EPSG::4326") || strstr(name, "EPSG:4326"))) return RT_OK;
	return fail(L, "the crs \"%.80s\" is not WGS84 longitude/latitude; save the map as GeoJSON in EPSG:4326 (RFC 7946)",
		    name ? name : "?");
}

/* Fixes the raster: the declared extent centred on the origin, or the features' bounding
 * box and two cells more, aligned to whole cells from the origin. */
static rt_status plan_raster(loader *L, double cell_m)
{
	rt_map *m = L->map;
	rt_vec2 lo, hi;
	if (L->has_extent) {
		lo = L->extent_min;
		hi = L->extent_max;
	} else {
		set_field(L, "rout.extent_m");
		if (!L->any_point) return fail(L, "the map has no features and no extent_m; there is nothing to draw");
		lo.x = (floor(L->bbox_min.x / cell_m) - 2.0) * cell_m;
		lo.y = (floor(L->bbox_min.y / cell_m) - 2.0) * cell_m;
		hi.x = (ceil(L->bbox_max.x / cell_m) + 2.0) * cell_m;
		hi.y = (ceil(L->bbox_max.y / cell_m) + 2.0) * cell_m;
	}
	const double nx = ceil((hi.x - lo.x) / cell_m - 1e-9), ny = ceil((hi.y - lo.y) / cell_m - 1e-9);
	const double cells = nx * ny;
	if (cells > (double)L->def->max_cells) {
		set_field(L, "%s", L->has_extent ? "rout.extent_m" : L->cell_field);
		const double bytes = cells * RT_MAP_BYTES_PER_CELL;
		return rt__fail_at(L->err, RT_ERR_CAPACITY, L->file, 0, 0, L->field,
				   "the raster would be %.0f x %.0f = %.0f cells of %g m, needing %.0f bytes (%.2f GiB at %d bytes a cell); the limit is %lld cells (rt_map_def.max_cells): use a larger cell_m or a smaller extent",
				   nx, ny, cells, cell_m, bytes, bytes / (1024.0 * 1024.0 * 1024.0), RT_MAP_BYTES_PER_CELL,
				   (long long)L->def->max_cells);
	}
	m->cell_m = cell_m;
	m->nx = (int)nx;
	m->ny = (int)ny;
	m->cells = (size_t)m->nx * (size_t)m->ny;
	m->corner = lo;
	return RT_OK;
}

static rt_status build(json_t *root, const char *file, const rt_map_def *def, rt_map **out, rt_error *err)
{
	loader L;
	memset(&L, 0, sizeof L);
	L.def = def;
	L.file = file;
	L.err = err;
	L.index = -1;
	L.kind_property = def->kind_property ? def->kind_property : "kind";
	rt_status s;
	rt_map *m = rt__calloc(&def->allocator, 1, sizeof *m);
	if (!m) return rt__fail_at(err, RT_ERR_NOMEM, file, 0, 0, "", "out of memory while loading the map");
	m->allocator = def->allocator;
	m->land_elevation_m = def->land_elevation_m;
	m->sea_elevation_m = def->sea_elevation_m;
	L.map = m;

	set_field(&L, "type");
	json_t *type = json_object_get(root, "type");
	if (!json_is_object(root) || !json_is_string(type) || strcmp(json_string_value(type), "FeatureCollection") != 0) {
		s = fail(&L, "a map must be a GeoJSON FeatureCollection ({\"type\": \"FeatureCollection\", \"features\": [...]})");
		goto error;
	}
	json_t *features = json_object_get(root, "features");
	set_field(&L, "features");
	if (!json_is_array(features)) {
		s = fail(&L, "\"features\" must be an array of Features");
		goto error;
	}
	if ((s = check_crs(&L, root)) != RT_OK) goto error;
	double cell_m;
	rt_vec2 extent;
	if ((s = read_settings(&L, root, &m->origin, &cell_m, &extent)) != RT_OK) goto error;
	projection_init(&m->projection, m->origin);
	if (extent.x > 0.0) {
		L.has_extent = true;
		L.extent_min = (rt_vec2){ -0.5 * extent.x, -0.5 * extent.y };
		L.extent_max = (rt_vec2){ 0.5 * extent.x, 0.5 * extent.y };
	}
	for (size_t i = 0; i < json_array_size(features); ++i) {
		L.index = (int)i;
		if ((s = read_feature(&L, json_array_get(features, i))) != RT_OK) goto error;
	}
	L.index = -1;
	if ((s = plan_raster(&L, cell_m)) != RT_OK) goto error;
	if ((s = rt__map_rasterise(m, file, err)) != RT_OK) goto error;
	*out = m;
	return RT_OK;
error:
	rt_map_destroy(m);
	return s;
}

static rt_status check_def(const rt_map_def *def, rt_map **out, rt_error *err)
{
	rt__error_clear(err);
	if (!out) return rt__fail(err, RT_ERR_INVALID, "rt_map_load needs somewhere to put the map (out is NULL)");
	*out = NULL;
	if (!def) return rt__fail(err, RT_ERR_INVALID, "no rt_map_def");
	if (def->cookie != RT_COOKIE) return rt__fail(err, RT_ERR_INVALID, "the rt_map_def was not filled by rt_map_def_default()");
	if (!def->allocator.alloc || !def->allocator.free) return rt__fail(err, RT_ERR_INVALID, "rt_map_def.allocator is incomplete");
	if (def->kind_alias_count < 0 || (def->kind_alias_count > 0 && !def->kind_aliases))
		return rt__fail(err, RT_ERR_INVALID, "rt_map_def.kind_aliases is NULL but kind_alias_count is %d", def->kind_alias_count);
	if (!(def->max_cells > 0)) return rt__fail(err, RT_ERR_INVALID, "rt_map_def.max_cells must be positive");
	if (!(fabs(def->land_elevation_m) <= 1000.0) || !(def->sea_elevation_m >= -1000.0 && def->sea_elevation_m <= 0.0))
		return rt__fail(err, RT_ERR_INVALID, "rt_map_def: land_elevation_m must lie within -1000 to 1000 m and sea_elevation_m within -1000 to 0 m");
	return RT_OK;
}

static rt_status json_failure(const json_error_t *je, const char *file, rt_error *err)
{
	rt_status code = RT_ERR_PARSE;
	switch (json_error_code(je)) {
	case json_error_cannot_open_file: code = RT_ERR_IO; break;
	case json_error_out_of_memory: code = RT_ERR_NOMEM; break;
	default: break;
	}
	if (code == RT_ERR_IO) return rt__fail_at(err, code, file, 0, 0, "", "cannot read the map: %s", je->text);
	return rt__fail_at(err, code, file, je->line, je->column, "", "not valid JSON at line %d, column %d: %s", je->line,
			   je->column, je->text);
}

rt_status rt_map_load(const char *path, const rt_map_def *def, rt_map **out, rt_error *err)
{
	rt_status s = check_def(def, out, err);
	if (s != RT_OK) return s;
	if (!path) return rt__fail(err, RT_ERR_INVALID, "no map path");
	json_error_t je;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!root) return json_failure(&je, path, err);
	s = build(root, path, def, out, err);
	json_decref(root);
	return s;
}

rt_status rt_map_load_string(const char *text, const char *name, const rt_map_def *def, rt_map **out, rt_error *err)
{
	rt_status s = check_def(def, out, err);
	if (s != RT_OK) return s;
	if (!text) return rt__fail(err, RT_ERR_INVALID, "no map text");
	if (!name) name = "<string>";
	json_error_t je;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (!root) return json_failure(&je, name, err);
	s = build(root, name, def, out, err);
	json_decref(root);
	return s;
}

void rt_map_destroy(rt_map *m)
{
	if (!m) return;
	const rt_allocator *a = &m->allocator;
	rt__free(a, m->passable, m->cells * sizeof *m->passable);
	rt__free(a, m->speed, m->cells * sizeof *m->speed);
	rt__free(a, m->elevation, m->cells * sizeof *m->elevation);
	rt__free(a, m->water, m->cells * sizeof *m->water);
	rt__free(a, m->feature_id, m->cells * sizeof *m->feature_id);
	rt__free(a, m->features, (size_t)m->feature_capacity * sizeof *m->features);
	rt__free(a, m->points, (size_t)m->point_capacity * sizeof *m->points);
	rt__free(a, m->part_start, (size_t)m->part_capacity * sizeof *m->part_start);
	rt__free(a, m->part_hole, (size_t)m->part_hole_capacity * sizeof *m->part_hole);
	rt__free(a, m->gates, (size_t)m->gate_capacity * sizeof *m->gates);
	rt__free(a, m->strings, m->string_capacity);
	rt_allocator copy = *a;
	rt__free(&copy, m, sizeof *m);
}

/* ---- accessors ------------------------------------------------------------------------------- */
void rt_map_size(const rt_map *map, int *nx, int *ny, double *cell_m, rt_vec2 *origin_xy)
{
	if (nx) *nx = map ? map->nx : 0;
	if (ny) *ny = map ? map->ny : 0;
	if (cell_m) *cell_m = map ? map->cell_m : 0.0;
	if (origin_xy) *origin_xy = map ? map->corner : (rt_vec2){ 0.0, 0.0 };
}

rt_lonlat rt_map_origin(const rt_map *map)
{
	return map ? map->origin : (rt_lonlat){ NAN, NAN };
}

const uint8_t *rt_map_layer_passable(const rt_map *map) { return map ? map->passable : NULL; }
const float *rt_map_layer_speed_factor(const rt_map *map) { return map ? map->speed : NULL; }
const float *rt_map_layer_elevation_m(const rt_map *map) { return map ? map->elevation : NULL; }
const float *rt_map_layer_water_depth_m(const rt_map *map) { return map ? map->water : NULL; }
const int32_t *rt_map_layer_feature_id(const rt_map *map) { return map ? map->feature_id : NULL; }

bool rt_map_sample(const rt_map *map, rt_vec2 p, rt_map_cell *out)
{
	if (!map || !out || !isfinite(p.x) || !isfinite(p.y)) return false;
	const double fx = floor((p.x - map->corner.x) / map->cell_m), fy = floor((p.y - map->corner.y) / map->cell_m);
	if (fx < 0.0 || fy < 0.0 || fx >= map->nx || fy >= map->ny) return false;
	const int ix = (int)fx, iy = (int)fy;
	const size_t c = (size_t)iy * (size_t)map->nx + (size_t)ix;
	out->ix = ix;
	out->iy = iy;
	out->passable = map->passable[c] != 0;
	out->speed_factor = map->speed[c];
	out->elevation_m = map->elevation[c];
	out->water_depth_m = map->water[c];
	out->feature = map->feature_id[c];
	return true;
}

int rt_map_feature_count(const rt_map *map) { return map ? map->feature_count : 0; }

bool rt_map_feature_info(const rt_map *map, int index, rt_map_feature_view *out)
{
	if (!map || !out || index < 0 || index >= map->feature_count) return false;
	const rt_map_feature *f = &map->features[index];
	memset(out, 0, sizeof *out);
	out->kind = f->kind;
	out->index = index;
	out->id = rt__map_string(map, f->id);
	out->name = rt__map_string(map, f->name);
	out->name_zh = rt__map_string(map, f->name_zh);
	out->side = rt__map_string(map, f->side);
	out->note = rt__map_string(map, f->note);
	out->source = rt__map_string(map, f->source);
	out->grade = rt__map_string(map, f->grade);
	out->bbox_min = f->bbox_min;
	out->bbox_max = f->bbox_max;
	out->cell_count = f->cell_count;
	out->width_m = f->value[RT_MAPV_WIDTH];
	out->depth_m = f->value[RT_MAPV_DEPTH];
	out->height_m = f->value[RT_MAPV_HEIGHT];
	out->elevation_m = f->value[RT_MAPV_ELEVATION];
	out->speed_factor = f->value[RT_MAPV_SPEED];
	out->slope_penalty = f->value[RT_MAPV_SLOPE];
	out->fuel_kg_m2 = f->value[RT_MAPV_FUEL];
	out->capacity = isnan(f->value[RT_MAPV_CAPACITY]) ? 0 : (int)f->value[RT_MAPV_CAPACITY];
	out->gate_count = f->gate_count;
	out->gates = f->gate_count ? map->gates + f->first_gate : NULL;
	out->gate_width_m = f->value[RT_MAPV_GATE_WIDTH];
	out->area = f->area;
	out->part_count = f->part_count;
	out->part_start = map->part_start + f->first_part;
	out->part_hole = map->part_hole + f->first_part;
	out->points = map->points;
	return true;
}

int rt_map_find_feature(const rt_map *map, const char *id)
{
	if (!map || !id) return -1;
	for (int i = 0; i < map->feature_count; ++i)
		if (map->features[i].id >= 0 && strcmp(map->strings + map->features[i].id, id) == 0) return i;
	return -1;
}
