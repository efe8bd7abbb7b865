/* Pictures of a moment, PNG or SVG: the ground of the map (water at the sea level of the
 * moment, tidal flats, rivers, hills shaded), the works on it drawn as lines and shapes
 * (roads, trenches, walls, forts, camps), place names in Chinese with pinyin under them,
 * every man as a dot coloured by side and shaded by state, commanders as diamonds, and
 * the furniture a reader needs: scale bar, north arrow, a corner box with the time, the
 * light and the sea level, and a legend band under the map. A live world with a grass
 * fire also shows its burnt ground, a grey veil of smoke as thick as it hides men, and
 * the flames through it; a trace frame shows the burnt ground and flames of its moment
 * from the run's fire log (fire.bin, fire_log.h), without smoke, which is not kept.
 *
 * One drawing routine serves a live world (rt_world_draw_picture) and a trace frame over
 * a map (rt_picture_draw_frame): both are turned into a `scene` first. The ground is
 * sampled at the picture's own pixels (four samples a pixel), not drawn cell by cell, so a
 * 70 km map costs the same as a 2 km one and an SVG carries one picture-sized image. The
 * works are vectors with a least width in pixels, so a 4 m trench still shows on a map of
 * the whole corridor. */
#include "world.h"
#include "canvas.h"
#include "fire_log.h"
#include "rout/picture.h"

#include <math.h>
#include <stdio.h>

#define MAX_SIDES 8

rt_picture_def rt_picture_def_default(void)
{
	rt_picture_def d;
	memset(&d, 0, sizeof d);
	d.width_px = 1200;
	d.utc_offset_h = NAN;
	d.names = true;
	d.legend = true;
	d.info = true;
	d.allocator = rt_allocator_default();
	d.cookie = RT_COOKIE;
	return d;
}

rt_frame_overlay rt_frame_overlay_default(void)
{
	rt_frame_overlay o;
	memset(&o, 0, sizeof o);
	o.start_jd_ut = NAN;
	o.sea_level_m = NAN;
	o.light_lux = NAN;
	o.cookie = RT_COOKIE;
	return o;
}

/* ---- what is drawn ---------------------------------------------------------------------------- */
typedef struct scene {
	rt_vec2 view_min, view_max;   /* world metres */
	const rt_map *map;
	double ground_sea_m;          /* the sea level the ground is drawn at */
	/* men: world position = (x, y) + offset; one of the double or float pairs is set */
	int count;
	const double *xd, *yd;
	const float *xf, *yf;
	rt_vec2 offset;
	const float *radius;          /* NULL: 0.2 m, a man on foot (a trace keeps no kinds) */
	const uint8_t *side, *state;
	/* commanders: indices into the men, and names (entries may be NULL) */
	int commander_count;
	const int *commander;
	const char *const *commander_name;
	/* walls: segments (a world's) or point pairs (an overlay's) */
	const rt_segment *segments;
	int segment_count;
	const rt_vec2 *wall_a, *wall_b;
	int wall_count;
	/* the corner box */
	double time_s;
	double jd_ut;                 /* NaN: no clock */
	double utc_offset_h;
	double sea_level_m;           /* NaN: not shown */
	double light_lux;             /* NaN: not shown */
	const rt_fire *fire;          /* a live world's grass fire on the map's cells; NULL: none */
	bool fire_without_smoke;      /* the fire is a log's (a trace frame): no smoke is known */
} scene;

static inline double man_x(const scene *s, int i) { return (s->xd ? s->xd[i] : (double)s->xf[i]) + s->offset.x; }
static inline double man_y(const scene *s, int i) { return (s->yd ? s->yd[i] : (double)s->yf[i]) + s->offset.y; }

/* ---- colours ------------------------------------------------------------------------------------ */
/* Side colours: Ming red, Qing blue, then green and brown. */
static const double side_rgb[4][3] = { { 0.80, 0.15, 0.12 }, { 0.13, 0.30, 0.75 }, { 0.15, 0.55, 0.20 }, { 0.55, 0.35, 0.10 } };

/* What the legend calls the shades of a side's colour. */
enum { SHADE_FORMED = 0, SHADE_ROUTING, SHADE_KNEELING, SHADE_DEAD, SHADE_DROWNED, SHADE_DESPERATE, SHADE_COUNT, SHADE_NONE = -1 };
static const char *const shade_names[SHADE_DESPERATE] = { "formed", "routing", "kneeling or taken", "dead", "drowned" };

static int shade_of(uint8_t state)
{
	switch ((rt_state)state) {
	case RT_STATE_FORMED: case RT_STATE_MARCHING: case RT_STATE_ENGAGED: return SHADE_FORMED;
	case RT_STATE_ROUTING: return SHADE_ROUTING;
	case RT_STATE_DESPERATE: return SHADE_DESPERATE;
	case RT_STATE_SURRENDERED: case RT_STATE_CAPTURED: return SHADE_KNEELING;
	case RT_STATE_DEAD_COMBAT: case RT_STATE_DEAD_TRAMPLED: case RT_STATE_DEAD_BURNED: return SHADE_DEAD;
	case RT_STATE_DEAD_DROWNED: return SHADE_DROWNED;
	default: return SHADE_NONE; /* sheltered, escaped: off the field */
	}
}

static void mix(const double a[3], const double b[3], double k, double out[3])
{
	for (int i = 0; i < 3; ++i) out[i] = a[i] + (b[i] - a[i]) * k;
}

static void shade_colour(int side, int shade, double out[3])
{
	/* the first two sides by hand, so that routing stands out from kneeling in both */
	static const double chosen[2][SHADE_COUNT][3] = {
		{ { 0.80, 0.15, 0.12 }, { 1.00, 0.62, 0.30 }, { 0.68, 0.54, 0.52 }, { 0.28, 0.05, 0.04 }, { 0.45, 0.10, 0.08 }, { 0.55, 0.00, 0.10 } },
		{ { 0.13, 0.30, 0.75 }, { 0.40, 0.78, 1.00 }, { 0.52, 0.56, 0.66 }, { 0.04, 0.08, 0.26 }, { 0.06, 0.12, 0.36 }, { 0.05, 0.10, 0.45 } }
	};
	if (side < 2 && shade >= 0 && shade < SHADE_COUNT) {
		memcpy(out, chosen[side][shade], 3 * sizeof(double));
		return;
	}
	static const double white[3] = { 1, 1, 1 }, black[3] = { 0, 0, 0 }, grey[3] = { 0.55, 0.55, 0.55 };
	const double *base = side_rgb[side % 4];
	switch (shade) {
	case SHADE_ROUTING: mix(base, white, 0.5, out); break;
	case SHADE_KNEELING: mix(base, grey, 0.7, out); break;
	case SHADE_DEAD: mix(base, black, 0.65, out); break;
	case SHADE_DROWNED: mix(base, black, 0.4, out); break;
	case SHADE_DESPERATE: mix(base, black, 0.3, out); break;
	default: memcpy(out, base, 3 * sizeof(double)); break;
	}
}

/* ---- the ground -------------------------------------------------------------------------------- */
typedef struct ground {
	int nx, ny;
	double cell, inv_cell, ox, oy;
	const float *elevation;
	const int32_t *feature;
	const uint8_t *kind;     /* per feature */
	double sea;
} ground;

/* Land colours by height above the sea (m): green lowland to brown upland. */
static void land_colour(double z, double out[3])
{
	static const double stops[][4] = {
		{ 0.0, 0.86, 0.89, 0.76 }, { 10.0, 0.82, 0.87, 0.69 }, { 40.0, 0.80, 0.83, 0.63 },
		{ 100.0, 0.79, 0.76, 0.58 }, { 250.0, 0.74, 0.67, 0.53 }, { 600.0, 0.70, 0.62, 0.55 }
	};
	const int n = (int)(sizeof stops / sizeof stops[0]);
	if (z <= stops[0][0]) {
		memcpy(out, stops[0] + 1, 3 * sizeof(double));
		return;
	}
	for (int i = 1; i < n; ++i)
		if (z <= stops[i][0]) {
			const double k = (z - stops[i - 1][0]) / (stops[i][0] - stops[i - 1][0]);
			for (int c = 0; c < 3; ++c) out[c] = stops[i - 1][c + 1] + (stops[i][c + 1] - stops[i - 1][c + 1]) * k;
			return;
		}
	memcpy(out, stops[n - 1] + 1, 3 * sizeof(double));
}

static double elevation_at(const ground *g, int ix, int iy)
{
	ix = ix < 0 ? 0 : ix >= g->nx ? g->nx - 1 : ix;
	iy = iy < 0 ? 0 : iy >= g->ny ? g->ny - 1 : iy;
	return g->elevation[(size_t)iy * (size_t)g->nx + (size_t)ix];
}

/* Elevation between cell centres, so slopes and the shore are smooth when a cell spans
 * many pixels. */
static double elevation_smooth(const ground *g, double x, double y)
{
	const double fx = (x - g->ox) * g->inv_cell - 0.5, fy = (y - g->oy) * g->inv_cell - 0.5;
	const int ix = rt__floor_int(fx), iy = rt__floor_int(fy);
	const double tx = fx - ix, ty = fy - iy;
	const double a = elevation_at(g, ix, iy), b = elevation_at(g, ix + 1, iy), c = elevation_at(g, ix, iy + 1),
		     d = elevation_at(g, ix + 1, iy + 1);
	return (a * (1.0 - tx) + b * tx) * (1.0 - ty) + (c * (1.0 - tx) + d * tx) * ty;
}

/* Water by depth (m): pale where shallow, deeper blue to 6 m. */
static void water_colour(double depth, double out[3])
{
	const double k = fmin(1.0, fmax(0.0, depth) / 6.0);
	out[0] = 0.66 - 0.30 * k;
	out[1] = 0.81 - 0.25 * k;
	out[2] = 0.92 - 0.14 * k;
}

/* The colour of the ground at a point, before shading: the sea by depth where it stands
 * above the ground, a dry tidal flat or sea bed as wet sand, other land by height. Rivers
 * and fords are drawn over it from their lines and shapes in the map (draw_works), which
 * the raster's cells only approximate: a river drawn cell by cell runs in steps. Returns
 * the cell's kind of feature (-1 none), or -2 outside the map; *wet tells whether it is
 * under the sea. */
static int ground_colour(const ground *g, double x, double y, double out[3], bool *wet)
{
	const int ix = rt__floor_int((x - g->ox) * g->inv_cell), iy = rt__floor_int((y - g->oy) * g->inv_cell);
	if (ix < 0 || iy < 0 || ix >= g->nx || iy >= g->ny) return -2;
	const size_t c = (size_t)iy * (size_t)g->nx + (size_t)ix;
	const double z = elevation_smooth(g, x, y);
	const double depth = g->sea > z ? g->sea - z : 0.0;
	const int32_t f = g->feature[c];
	const int kind = f >= 0 ? g->kind[f] : -1;
	*wet = depth > 0.02;
	if (*wet) water_colour(depth, out);
	else if (kind == RT_MAP_TIDAL_FLAT || kind == RT_MAP_SEA) out[0] = 0.86, out[1] = 0.82, out[2] = 0.68;
	else land_colour(z - g->sea, out);
	return kind;
}

/* Hill shade at a point: the surface's normal against a light from the north-west, 45 deg
 * up, with the heights doubled so the low hills of a coast still read; 1 on flat ground. */
static double hill_shade(const ground *g, double x, double y)
{
	const double exaggeration = 2.0, d = g->cell;
	const double zx = (elevation_smooth(g, x + d, y) - elevation_smooth(g, x - d, y)) * exaggeration / (2.0 * d);
	const double zy = (elevation_smooth(g, x, y + d) - elevation_smooth(g, x, y - d)) * exaggeration / (2.0 * d);
	const double lx = -0.5, ly = 0.5, lz = 0.70710678; /* unit vector toward the light */
	return (-zx * lx - zy * ly + lz) / sqrt(zx * zx + zy * zy + 1.0) / lz;
}

static void apply_shade(double shade, double rgb[3])
{
	if (shade < 1.0) {
		const double k = 0.62 + 0.38 * fmax(0.0, shade);
		for (int i = 0; i < 3; ++i) rgb[i] *= k;
	} else {
		const double k = fmin(0.45, (shade - 1.0) * 0.7);
		for (int i = 0; i < 3; ++i) rgb[i] += (1.0 - rgb[i]) * k;
	}
}

static const double paper_rgb[3] = { 0.96, 0.94, 0.88 };

/* ---- fire over the ground ------------------------------------------------------------------------ */
static const double burnt_rgb[3] = { 0.30, 0.28, 0.26 }, flame_rgb[3] = { 0.96, 0.58, 0.16 }, hot_rgb[3] = { 0.88, 0.20, 0.05 },
		    smoke_rgb[3] = { 0.62, 0.62, 0.64 };

/* The fire's state of the map cell under a point (RT_FIRE_CELL_NONE off the map). */
static uint8_t fire_state_at(const rt_fire *f, double x, double y)
{
	const int ix = rt__floor_int((x - f->ox) * f->inv_cell), iy = rt__floor_int((y - f->oy) * f->inv_cell);
	if (ix < 0 || iy < 0 || ix >= f->nx || iy >= f->ny) return RT_FIRE_CELL_NONE;
	return f->state[(size_t)iy * (size_t)f->nx + (size_t)ix];
}

/* How much of a man's contrast the smoke over a point takes away over 20 m of it, at
 * most 0.8: the veil drawn over the ground there. */
static double smoke_veil_at(const rt_fire *f, double x, double y)
{
	if (f->smoke_max <= 0.0f) return 0.0;
	const int ix = rt__floor_int((x - f->ox) * f->inv_cell), iy = rt__floor_int((y - f->oy) * f->inv_cell);
	if (ix < 0 || iy < 0 || ix >= f->nx || iy >= f->ny) return 0.0;
	const int sx = ix / f->k, sy = iy / f->k;
	if (sx < f->box[0] || sy < f->box[1] || sx > f->box[2] || sy > f->box[3]) return 0.0;
	const double smoke = f->smoke[(size_t)sy * (size_t)f->snx + (size_t)sx];
	return smoke > 0.0 ? 0.8 * (1.0 - exp(-f->params.smoke_extinction_m2_per_g * smoke * 20.0)) : 0.0;
}

/* The ground as an image of w x h pixels covering the view. */
static cairo_surface_t *ground_image(const scene *s, int w, int h, double scale, uint8_t *kinds)
{
	const rt_map *m = s->map;
	ground g;
	rt_vec2 origin;
	rt_map_size(m, &g.nx, &g.ny, &g.cell, &origin);
	g.inv_cell = 1.0 / g.cell;
	g.ox = origin.x;
	g.oy = origin.y;
	g.elevation = rt_map_layer_elevation_m(m);
	g.feature = rt_map_layer_feature_id(m);
	g.kind = kinds;
	g.sea = s->ground_sea_m;
	cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
	if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) return img;
	cairo_surface_flush(img);
	unsigned char *data = cairo_image_surface_get_data(img);
	const int stride = cairo_image_surface_get_stride(img);
	const double m_per_px = 1.0 / scale;
	/* four samples a pixel when a pixel spans more than half a cell; one when it is finer */
	const int samples = m_per_px > 0.5 * g.cell ? 2 : 1;
	for (int py = 0; py < h; ++py) {
		uint32_t *row = (uint32_t *)(void *)(data + (size_t)py * (size_t)stride);
		for (int px = 0; px < w; ++px) {
			double sum[3] = { 0, 0, 0 }, flame_sum[3] = { 0, 0, 0 };
			int dry = 0, flames = 0;
			for (int j = 0; j < samples; ++j)
				for (int i = 0; i < samples; ++i) {
					const double x = s->view_min.x + (px + (i + 0.5) / samples) * m_per_px;
					const double y = s->view_max.y - (py + (j + 0.5) / samples) * m_per_px;
					double c[3];
					bool wet = false;
					if (ground_colour(&g, x, y, c, &wet) == -2) memcpy(c, paper_rgb, sizeof c);
					else dry += !wet;
					if (s->fire) { /* burnt ground is shaded like the rest; flames are not */
						const uint8_t st = fire_state_at(s->fire, x, y);
						if (st == RT_FIRE_CELL_BURNT && !wet) memcpy(c, burnt_rgb, sizeof c);
						const double *fl = st == RT_FIRE_CELL_BURNING ? flame_rgb : st == RT_FIRE_CELL_HOT ? hot_rgb : NULL;
						if (fl) {
							flames++;
							for (int k = 0; k < 3; ++k) flame_sum[k] += fl[k];
						}
					}
					for (int k = 0; k < 3; ++k) sum[k] += c[k];
				}
			const double n = samples * samples;
			for (int k = 0; k < 3; ++k) sum[k] /= n;
			const double x = s->view_min.x + (px + 0.5) * m_per_px, y = s->view_max.y - (py + 0.5) * m_per_px;
			if (dry > 0) { /* the land is shaded, the water lies flat */
				double shaded[3] = { sum[0], sum[1], sum[2] };
				apply_shade(hill_shade(&g, x, y), shaded);
				const double k = dry / n;
				for (int c = 0; c < 3; ++c) sum[c] += (shaded[c] - sum[c]) * k;
			}
			if (s->fire) { /* the smoke veils the ground; the flames show through it */
				const double veil = smoke_veil_at(s->fire, x, y);
				const double k = flames / n;
				for (int c = 0; c < 3; ++c) {
					sum[c] += (smoke_rgb[c] - sum[c]) * veil;
					if (flames > 0) sum[c] += (flame_sum[c] / flames - sum[c]) * k;
				}
			}
			const uint32_t r = (uint32_t)fmin(255.0, sum[0] * 255.0 + 0.5), gg = (uint32_t)fmin(255.0, sum[1] * 255.0 + 0.5),
				       b = (uint32_t)fmin(255.0, sum[2] * 255.0 + 0.5);
			row[px] = (r << 16) | (gg << 8) | b;
		}
	}
	cairo_surface_mark_dirty(img);
	return img;
}

/* ---- the works: lines and shapes from the map's features -------------------------------------------- */
typedef struct view {
	double scale;            /* pixels per metre */
	double x0, y1;           /* world x at the left edge, y at the top edge */
	double top;              /* pixel row of the map's top edge */
	int width, height;       /* of the map, pixels */
} view;

static inline double px_x(const view *v, double x) { return (x - v->x0) * v->scale; }
static inline double px_y(const view *v, double y) { return v->top + (v->y1 - y) * v->scale; }

static void trace_part(cairo_t *cr, const view *v, const rt_map_feature_view *f, int p)
{
	for (int k = f->part_start[p]; k < f->part_start[p + 1]; ++k) {
		const double x = px_x(v, f->points[k].x), y = px_y(v, f->points[k].y);
		if (k == f->part_start[p]) cairo_move_to(cr, x, y);
		else cairo_line_to(cr, x, y);
	}
}

static void trace_feature(cairo_t *cr, const view *v, const rt_map_feature_view *f, bool close)
{
	for (int p = 0; p < f->part_count; ++p) {
		trace_part(cr, v, f, p);
		if (close) cairo_close_path(cr);
	}
}

/* The side of a fort or camp as a side number, by name ("ming" = "Ming"); -1 none. */
static int side_of_word(const rt_picture_def *def, const char *word)
{
	if (!word || !word[0] || !def->side_names) return -1;
	for (int i = 0; i < def->side_name_count && i < MAX_SIDES; ++i) {
		const char *n = def->side_names[i];
		if (!n) continue;
		size_t k = 0;
		while (n[k] && word[k] && (n[k] | 0x20) == (word[k] | 0x20)) k++;
		if (!n[k] && !word[k]) return i;
	}
	return -1;
}

static double width_px(const view *v, double width_m, double least_px)
{
	return isfinite(width_m) ? fmax(width_m * v->scale, least_px) : least_px;
}

static void draw_works(cairo_t *cr, const view *v, const rt_map *m, const rt_picture_def *def)
{
	const int n = rt_map_feature_count(m);
	double cell;
	rt_map_size(m, NULL, NULL, &cell, NULL);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	/* in the order a map maker draws them: water, roads, ditches, walls, camps, forts */
	static const rt_map_kind order[] = { RT_MAP_RIVER, RT_MAP_ROAD, RT_MAP_FORD, RT_MAP_BRIDGE, RT_MAP_TRENCH, RT_MAP_WALL,
					     RT_MAP_CAMP, RT_MAP_FORT };
	for (size_t o = 0; o < sizeof order / sizeof order[0]; ++o)
		for (int i = 0; i < n; ++i) {
			rt_map_feature_view f;
			if (!rt_map_feature_info(m, i, &f) || f.kind != order[o]) continue;
			if (px_x(v, f.bbox_max.x) < -20 || px_x(v, f.bbox_min.x) > v->width + 20 || px_y(v, f.bbox_min.y) < v->top - 20 ||
			    px_y(v, f.bbox_max.y) > v->top + v->height + 20)
				continue;
			cairo_set_dash(cr, NULL, 0, 0.0);
			cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
			switch (f.kind) {
			case RT_MAP_RIVER: {
				double rgb[3];
				water_colour(isfinite(f.depth_m) ? f.depth_m : 2.0, rgb);
				cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
				trace_feature(cr, v, &f, f.area);
				if (f.area) {
					cairo_fill(cr);
				} else {
					cairo_set_line_width(cr, width_px(v, f.width_m, 1.6));
					cairo_stroke(cr);
				}
				break;
			}
			case RT_MAP_ROAD:
				trace_feature(cr, v, &f, false);
				cairo_set_source_rgb(cr, 0.62, 0.47, 0.30);
				cairo_set_line_width(cr, width_px(v, f.width_m, 1.4) + 1.0);
				cairo_stroke_preserve(cr);
				cairo_set_source_rgb(cr, 0.90, 0.80, 0.60);
				cairo_set_line_width(cr, fmax(0.6, width_px(v, f.width_m, 1.4) - 1.0));
				cairo_stroke(cr);
				break;
			case RT_MAP_FORD: {
				static const double dash[] = { 3.0, 2.0 };
				trace_feature(cr, v, &f, f.area);
				cairo_set_source_rgb(cr, 0.78, 0.70, 0.50);
				if (f.area) {
					cairo_fill(cr);
				} else {
					cairo_set_dash(cr, dash, 2, 0.0);
					cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
					cairo_set_line_width(cr, width_px(v, f.width_m, 2.5));
					cairo_stroke(cr);
				}
				break;
			}
			case RT_MAP_BRIDGE:
				trace_feature(cr, v, &f, f.area);
				cairo_set_source_rgb(cr, 0.40, 0.28, 0.18);
				if (f.area) {
					cairo_fill(cr);
				} else {
					cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
					cairo_set_line_width(cr, width_px(v, f.width_m, 2.5));
					cairo_stroke(cr);
				}
				break;
			case RT_MAP_TRENCH:
				trace_feature(cr, v, &f, false);
				cairo_set_source_rgb(cr, 0.38, 0.26, 0.16);
				cairo_set_line_width(cr, width_px(v, f.width_m, 1.8));
				cairo_stroke(cr);
				break;
			case RT_MAP_WALL:
				trace_feature(cr, v, &f, f.area);
				cairo_set_source_rgb(cr, 0.25, 0.24, 0.23);
				cairo_set_line_width(cr, width_px(v, isfinite(f.width_m) ? f.width_m : cell, 2.0));
				cairo_stroke(cr);
				break;
			case RT_MAP_CAMP: {
				const int side = side_of_word(def, f.side);
				double edge[3] = { 0.35, 0.30, 0.25 };
				if (side >= 0) shade_colour(side, SHADE_DEAD, edge);
				if (f.area) {
					static const double dash[] = { 6.0, 3.0 };
					trace_feature(cr, v, &f, true);
					cairo_set_source_rgba(cr, edge[0], edge[1], edge[2], 0.10);
					cairo_fill_preserve(cr);
					cairo_set_source_rgb(cr, edge[0], edge[1], edge[2]);
					cairo_set_dash(cr, dash, 2, 0.0);
					cairo_set_line_width(cr, 1.6);
					cairo_stroke(cr);
				} else { /* a tent */
					for (int k = 0; k < f.part_count; ++k) {
						const rt_vec2 p = f.points[f.part_start[k]];
						const double x = px_x(v, p.x), y = px_y(v, p.y);
						cairo_move_to(cr, x - 6.0, y + 4.0);
						cairo_line_to(cr, x, y - 6.0);
						cairo_line_to(cr, x + 6.0, y + 4.0);
						cairo_close_path(cr);
					}
					cairo_set_source_rgb(cr, edge[0], edge[1], edge[2]);
					cairo_fill(cr);
				}
				break;
			}
			case RT_MAP_FORT: {
				const int side = side_of_word(def, f.side);
				double edge[3] = { 0.22, 0.20, 0.18 };
				if (side >= 0) shade_colour(side, SHADE_DEAD, edge);
				const double size = fmax((f.bbox_max.x - f.bbox_min.x), (f.bbox_max.y - f.bbox_min.y)) * v->scale;
				if (size < 9.0) { /* too small to show its walls: a square mark */
					const double cx = px_x(v, 0.5 * (f.bbox_min.x + f.bbox_max.x)), cy = px_y(v, 0.5 * (f.bbox_min.y + f.bbox_max.y));
					cairo_rectangle(cr, cx - 5.0, cy - 5.0, 10.0, 10.0);
					cairo_set_source_rgb(cr, 0.93, 0.90, 0.84);
					cairo_fill_preserve(cr);
					cairo_set_source_rgb(cr, edge[0], edge[1], edge[2]);
					cairo_set_line_width(cr, 2.5);
					cairo_stroke(cr);
					break;
				}
				cairo_new_path(cr);
				trace_part(cr, v, &f, 0);
				cairo_close_path(cr);
				cairo_set_source_rgba(cr, 0.93, 0.90, 0.84, 0.85);
				cairo_fill_preserve(cr);
				cairo_set_source_rgb(cr, edge[0], edge[1], edge[2]);
				cairo_set_line_width(cr, width_px(v, isfinite(f.width_m) ? f.width_m : cell, 2.5));
				cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE);
				cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
				cairo_stroke(cr);
				/* gates: openings in the wall */
				for (int g = 0; g < f.gate_count; ++g) {
					const double r = fmax(0.5 * f.gate_width_m * v->scale, 2.0);
					cairo_arc(cr, px_x(v, f.gates[g].x), px_y(v, f.gates[g].y), r, 0.0, 2.0 * RT__PI);
					cairo_set_source_rgb(cr, 0.93, 0.90, 0.84);
					cairo_fill(cr);
				}
				cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
				break;
			}
			default: break;
			}
		}
	cairo_set_dash(cr, NULL, 0, 0.0);
}

/* ---- place names ------------------------------------------------------------------------------- */
/* Splits a name into its Chinese characters and the rest: "Songshan 松山堡" -> "松山堡",
 * "Songshan". name_zh, when given, is the Chinese; its copy inside name is dropped. */
static void split_name(const char *name, const char *name_zh, char *zh, size_t zh_size, char *latin, size_t latin_size)
{
	zh[0] = latin[0] = '\0';
	size_t z = 0, l = 0;
	const size_t zh_given = name_zh ? strlen(name_zh) : 0;
	if (zh_given) snprintf(zh, zh_size, "%s", name_zh);
	for (const char *p = name ? name : ""; *p;) {
		if (zh_given && strncmp(p, name_zh, zh_given) == 0) {
			p += zh_given;
			continue;
		}
		const unsigned char c = (unsigned char)*p;
		const size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
		/* CJK: U+2E80..U+9FFF and U+F900..U+FAFF (three-byte sequences from E2 BA 80) */
		const bool cjk = len == 3 && ((c >= 0xE3 && c <= 0xE9) || (c == 0xE2 && (unsigned char)p[1] >= 0xBA) || c == 0xEF);
		if (cjk && !zh_given) {
			for (size_t k = 0; k < len && p[k] && z + 1 < zh_size; ++k) zh[z++] = p[k];
			zh[z] = '\0';
		} else if (!cjk) {
			for (size_t k = 0; k < len && p[k] && l + 1 < latin_size; ++k) latin[l++] = p[k];
			latin[l] = '\0';
		}
		for (size_t k = 0; k < len && *p; ++k) p++;
	}
	/* trim spaces, brackets and dashes left where the Chinese was */
	size_t start = 0;
	while (latin[start] && strchr(" ()-,/", latin[start])) start++;
	memmove(latin, latin + start, strlen(latin + start) + 1);
	l = strlen(latin);
	while (l > 0 && strchr(" ()-,/", latin[l - 1])) latin[--l] = '\0';
}

typedef struct box {
	double x0, y0, x1, y1;
} box;

static bool overlaps(const box *a, const box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

#define MAX_LABELS 512

typedef struct labels {
	box placed[MAX_LABELS];
	int count;
} labels;

static bool box_free(const labels *L, const box *b, const view *v)
{
	if (b->x0 < 2.0 || b->x1 > v->width - 2.0 || b->y0 < v->top + 2.0 || b->y1 > v->top + v->height - 2.0) return false;
	for (int i = 0; i < L->count; ++i)
		if (overlaps(&L->placed[i], b)) return false;
	return true;
}

/* Crossings of the horizontal line at y with every ring of an area feature, sorted: the
 * inside runs between crossings 0-1, 2-3 ... (even-odd, so holes are outside). */
static int crossings_at(const rt_map_feature_view *f, double y, double *xs, int cap)
{
	int n = 0;
	for (int p = 0; p < f->part_count; ++p)
		for (int k = f->part_start[p] + 1; k < f->part_start[p + 1]; ++k) {
			const rt_vec2 a = f->points[k - 1], b = f->points[k];
			if ((a.y <= y) == (b.y <= y)) continue;
			if (n < cap) xs[n++] = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y);
		}
	for (int i = 1; i < n; ++i) /* few crossings: insertion sort */
		for (int j = i; j > 0 && xs[j - 1] > xs[j]; --j) {
			const double t = xs[j];
			xs[j] = xs[j - 1];
			xs[j - 1] = t;
		}
	return n & ~1;
}

/* Where an area feature's name hangs: the middle of the widest inside run across its box's
 * middle row (and, failing that, of rows a quarter up and down), so the name of a crescent
 * bay falls on its water; the box's centre when no row crosses it. */
static rt_vec2 area_anchor(const rt_map_feature_view *f)
{
	const double cy = 0.5 * (f->bbox_min.y + f->bbox_max.y), h = f->bbox_max.y - f->bbox_min.y;
	const double rows[3] = { cy, cy + 0.25 * h, cy - 0.25 * h };
	double xs[256];
	for (int r = 0; r < 3; ++r) {
		const int n = crossings_at(f, rows[r], xs, 256);
		double best = -1.0, x = 0.0;
		for (int i = 0; i + 1 < n; i += 2)
			if (xs[i + 1] - xs[i] > best) {
				best = xs[i + 1] - xs[i];
				x = 0.5 * (xs[i] + xs[i + 1]);
			}
		if (best > 0.0) return (rt_vec2){ x, rows[r] };
	}
	return (rt_vec2){ 0.5 * (f->bbox_min.x + f->bbox_max.x), cy };
}

/* The middle of the longest part of a line feature, and its direction there. */
static rt_vec2 line_anchor(const rt_map_feature_view *f, rt_vec2 *direction)
{
	int best = 0;
	double best_len = -1.0;
	for (int p = 0; p < f->part_count; ++p) {
		double len = 0.0;
		for (int k = f->part_start[p] + 1; k < f->part_start[p + 1]; ++k)
			len += hypot(f->points[k].x - f->points[k - 1].x, f->points[k].y - f->points[k - 1].y);
		if (len > best_len) {
			best_len = len;
			best = p;
		}
	}
	double half = 0.5 * best_len;
	for (int k = f->part_start[best] + 1; k < f->part_start[best + 1]; ++k) {
		const rt_vec2 a = f->points[k - 1], b = f->points[k];
		const double len = hypot(b.x - a.x, b.y - a.y);
		if (len >= half && len > 0.0) {
			*direction = (rt_vec2){ (b.x - a.x) / len, (b.y - a.y) / len };
			return (rt_vec2){ a.x + (b.x - a.x) * half / len, a.y + (b.y - a.y) * half / len };
		}
		half -= len;
	}
	*direction = (rt_vec2){ 1.0, 0.0 };
	return f->points[f->part_start[best]];
}

static void draw_names(cairo_t *cr, const view *v, const rt_map *m, labels *L)
{
	const int n = rt_map_feature_count(m);
	static const rt_map_kind order[] = { RT_MAP_FORT, RT_MAP_CAMP, RT_MAP_HILL, RT_MAP_RIVER, RT_MAP_SEA };
	const double zh_px = 15.0, latin_px = 11.5;
	for (size_t o = 0; o < sizeof order / sizeof order[0]; ++o)
		for (int i = 0; i < n; ++i) {
			rt_map_feature_view f;
			if (!rt_map_feature_info(m, i, &f) || f.kind != order[o]) continue;
			if (!(f.name && f.name[0]) && !(f.name_zh && f.name_zh[0])) continue;
			char zh[256], latin[256];
			split_name(f.name, f.name_zh, zh, sizeof zh, latin, sizeof latin);
			if (!zh[0] && !latin[0]) continue;
			/* the label's size */
			rt__font(cr, zh_px, true);
			const double wz = rt__text_width(cr, zh);
			rt__font(cr, latin_px, false);
			const double wl = rt__text_width(cr, latin);
			const double w = fmax(wz, wl), h = (zh[0] ? zh_px + 2.0 : 0.0) + (latin[0] ? latin_px + 2.0 : 0.0);
			/* where it may go, best first: beside a fort or camp, on a hill or sea, along a river */
			double cx[6], cy[6]; /* label centres, pixels */
			int candidates = 0;
			const double bx0 = px_x(v, f.bbox_min.x), bx1 = px_x(v, f.bbox_max.x), by0 = px_y(v, f.bbox_max.y), by1 = px_y(v, f.bbox_min.y);
			const double mx = 0.5 * (bx0 + bx1), my = 0.5 * (by0 + by1);
			if (f.kind == RT_MAP_FORT || (f.kind == RT_MAP_CAMP && (bx1 - bx0) < 3.0 * w)) {
				const double pad = 5.0;
				cx[candidates] = mx, cy[candidates++] = fmin(by0, my - 6.0) - pad - h / 2.0;
				cx[candidates] = mx, cy[candidates++] = fmax(by1, my + 6.0) + pad + h / 2.0;
				cx[candidates] = fmax(bx1, mx + 6.0) + pad + w / 2.0, cy[candidates++] = my;
				cx[candidates] = fmin(bx0, mx - 6.0) - pad - w / 2.0, cy[candidates++] = my;
			} else if (f.area) {
				const rt_vec2 a = area_anchor(&f);
				cx[candidates] = px_x(v, a.x), cy[candidates++] = px_y(v, a.y);
				cx[candidates] = px_x(v, a.x), cy[candidates++] = px_y(v, a.y) - h;
				cx[candidates] = px_x(v, a.x), cy[candidates++] = px_y(v, a.y) + h;
			} else {
				rt_vec2 d;
				const rt_vec2 a = line_anchor(&f, &d);
				const double ax = px_x(v, a.x), ay = px_y(v, a.y);
				const double nxp = d.y, nyp = d.x; /* the normal in pixels (y down) */
				const double off = 0.5 * fabs(nxp * w) + 0.5 * fabs(nyp * h) + 6.0 + 0.5 * width_px(v, f.width_m, 1.6);
				cx[candidates] = ax + nxp * off, cy[candidates++] = ay + nyp * off;
				cx[candidates] = ax - nxp * off, cy[candidates++] = ay - nyp * off;
			}
			int chosen = -1;
			box b = { 0, 0, 0, 0 };
			for (int k = 0; k < candidates && chosen < 0; ++k) {
				b = (box){ cx[k] - w / 2.0 - 2.0, cy[k] - h / 2.0 - 2.0, cx[k] + w / 2.0 + 2.0, cy[k] + h / 2.0 + 2.0 };
				if (box_free(L, &b, v)) chosen = k;
			}
			if (chosen < 0 || L->count >= MAX_LABELS) continue; /* no room: better no name than names on names */
			L->placed[L->count++] = b;
			double y = cy[chosen] - h / 2.0;
			const bool water = f.kind == RT_MAP_RIVER || f.kind == RT_MAP_SEA;
			if (water) cairo_set_source_rgb(cr, 0.10, 0.25, 0.50);
			else cairo_set_source_rgb(cr, 0.12, 0.10, 0.08);
			if (zh[0]) {
				rt__font(cr, zh_px, true);
				y += zh_px;
				rt__text(cr, cx[chosen], y - 1.0, zh, 0.5, 3.5);
				y += 2.0;
			}
			if (latin[0]) {
				cairo_select_font_face(cr, RT__FONT_FAMILY, water ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
						       CAIRO_FONT_WEIGHT_NORMAL);
				cairo_set_font_size(cr, latin_px);
				y += latin_px;
				rt__text(cr, cx[chosen], y - 1.0, latin, 0.5, 3.0);
			}
		}
}

/* ---- men --------------------------------------------------------------------------------------- */
/* Every man on the field, one path per side and shade so an SVG stays small: the dead
 * under the living, the broken on top. Dots of less than 1.5 px are drawn as squares,
 * which look the same at that size and cost a third as much in an SVG. */
static void draw_men(cairo_t *cr, const view *v, const scene *s)
{
	static const int layer[SHADE_COUNT] = { SHADE_DEAD, SHADE_DROWNED, SHADE_KNEELING, SHADE_FORMED, SHADE_DESPERATE, SHADE_ROUTING };
	const double least = 0.9;
	for (int side = 0; side < MAX_SIDES; ++side)
		for (int l = 0; l < SHADE_COUNT; ++l) {
			const int shade = layer[l];
			bool any = false;
			for (int i = 0; i < s->count; ++i) {
				if (s->side[i] != side || shade_of(s->state[i]) != shade) continue;
				const double x = px_x(v, man_x(s, i)), y = px_y(v, man_y(s, i));
				if (x < -4 || y < v->top - 4 || x > v->width + 4 || y > v->top + v->height + 4) continue;
				double r = (s->radius ? s->radius[i] : 0.2) * v->scale;
				if (shade == SHADE_DEAD || shade == SHADE_DROWNED) r *= 0.8;
				r = fmax(r, least);
				if (r < 1.5) {
					cairo_rectangle(cr, x - 0.9 * r, y - 0.9 * r, 1.8 * r, 1.8 * r);
				} else {
					cairo_new_sub_path(cr);
					cairo_arc(cr, x, y, r, 0.0, 2.0 * RT__PI);
				}
				any = true;
			}
			if (!any) continue;
			double rgb[3];
			shade_colour(side, shade, rgb);
			cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
			if (shade == SHADE_DROWNED) { /* rings: a drowned man lies in water */
				cairo_set_line_width(cr, 0.8);
				cairo_stroke(cr);
			} else {
				cairo_fill(cr);
			}
		}
}

static void diamond(cairo_t *cr, double x, double y, double r)
{
	cairo_move_to(cr, x, y - r);
	cairo_line_to(cr, x + r, y);
	cairo_line_to(cr, x, y + r);
	cairo_line_to(cr, x - r, y);
	cairo_close_path(cr);
}

static void draw_commanders(cairo_t *cr, const view *v, const scene *s, labels *L)
{
	for (int k = 0; k < s->commander_count; ++k) {
		const int i = s->commander[k];
		const int shade = shade_of(s->state[i]);
		if (shade == SHADE_NONE) continue; /* off the field */
		const double x = px_x(v, man_x(s, i)), y = px_y(v, man_y(s, i));
		if (x < 0 || y < v->top || x > v->width || y > v->top + v->height) continue;
		const bool dead = shade == SHADE_DEAD || shade == SHADE_DROWNED;
		double rgb[3];
		shade_colour(s->side[i], dead ? SHADE_FORMED : shade, rgb);
		diamond(cr, x, y, 8.5);
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_fill(cr);
		diamond(cr, x, y, 6.5);
		cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
		if (dead) {
			cairo_set_line_width(cr, 2.0);
			cairo_stroke(cr);
		} else {
			cairo_fill_preserve(cr);
			cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
			cairo_set_line_width(cr, 1.0);
			cairo_stroke(cr);
		}
		const char *name = s->commander_name ? s->commander_name[k] : NULL;
		if (name && name[0]) {
			rt__font(cr, 12.0, true);
			const double w = rt__text_width(cr, name);
			box b = { x + 9.0, y - 10.0, x + 13.0 + w, y + 6.0 };
			int align_left = 1;
			if (!box_free(L, &b, v)) {
				b = (box){ x - 13.0 - w, y - 10.0, x - 9.0, y + 6.0 };
				align_left = box_free(L, &b, v) ? 0 : 1;
			}
			if (L->count < MAX_LABELS) L->placed[L->count++] = b;
			cairo_set_source_rgb(cr, rgb[0] * 0.6, rgb[1] * 0.6, rgb[2] * 0.6);
			rt__text(cr, align_left ? x + 11.0 : x - 11.0, y + 4.0, name, align_left ? 0.0 : 1.0, 3.5);
		}
	}
}

/* ---- furniture ------------------------------------------------------------------------------------ */
/* A scale bar with its baseline at (x0, y0): a round length of about a fifth of the map,
 * in four quarters, black and white. */
static void draw_scale_bar(cairo_t *cr, const view *v, double x0, double y0, labels *L)
{
	const double span_m = 0.22 * v->width / v->scale;
	double bar_m = pow(10.0, floor(log10(span_m)));
	if (bar_m * 5.0 <= span_m) bar_m *= 5.0;
	else if (bar_m * 2.0 <= span_m) bar_m *= 2.0;
	const double bar_px = bar_m * v->scale;
	char text[48];
	if (bar_m >= 1000.0) snprintf(text, sizeof text, "%g km", bar_m / 1000.0);
	else snprintf(text, sizeof text, "%g m", bar_m);
	rt__font(cr, 12.0, false);
	const double tw = rt__text_width(cr, text);
	/* a light ground under it, then two black and two white quarters */
	cairo_set_source_rgba(cr, 1, 1, 0.98, 0.8);
	cairo_rectangle(cr, x0 - 6.0, y0 - 20.0, bar_px + tw + 20.0, 28.0);
	cairo_fill(cr);
	for (int q = 0; q < 4; ++q) {
		cairo_rectangle(cr, x0 + q * bar_px / 4.0, y0 - 5.0, bar_px / 4.0, 5.0);
		if (q % 2 == 0) cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		else cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_fill(cr);
	}
	cairo_rectangle(cr, x0, y0 - 5.0, bar_px, 5.0);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_set_line_width(cr, 1.0);
	cairo_stroke(cr);
	rt__text(cr, x0, y0 - 8.0, "0", 0.5, 0.0);
	rt__text(cr, x0 + bar_px + 6.0, y0 + 1.0, text, 0.0, 0.0);
	if (L && L->count < MAX_LABELS) L->placed[L->count++] = (box){ x0 - 6.0, y0 - 20.0, x0 + bar_px + tw + 14.0, y0 + 8.0 };
}

static void draw_north_arrow(cairo_t *cr, const view *v, labels *L)
{
	const double ax = v->width - 24.0, ay = v->top + 14.0;
	cairo_set_source_rgba(cr, 1, 1, 0.98, 0.8);
	cairo_arc(cr, ax, ay + 17.0, 17.0, 0.0, 2.0 * RT__PI);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_move_to(cr, ax, ay + 2.0);
	cairo_line_to(cr, ax - 7.0, ay + 20.0);
	cairo_line_to(cr, ax, ay + 15.0);
	cairo_close_path(cr);
	cairo_fill(cr);
	cairo_move_to(cr, ax, ay + 2.0);
	cairo_line_to(cr, ax + 7.0, ay + 20.0);
	cairo_line_to(cr, ax, ay + 15.0);
	cairo_close_path(cr);
	cairo_set_line_width(cr, 1.0);
	cairo_stroke(cr);
	rt__font(cr, 11.0, true);
	rt__text(cr, ax, ay + 32.0, "N", 0.5, 0.0);
	if (L->count < MAX_LABELS) L->placed[L->count++] = (box){ ax - 18.0, ay - 4.0, ax + 18.0, ay + 36.0 };
}

/* What the corner box says: the clock (or the simulated time), the time since the start,
 * the light and the sea level, as far as they are known. Returns the number of lines. */
static int info_lines(const scene *s, char lines[4][128])
{
	int n = 0;
	if (isfinite(s->jd_ut)) {
		char clock[64], zone[16], elapsed[32];
		rt__format_clock(clock, sizeof clock, s->jd_ut, s->utc_offset_h, true, true);
		rt__format_utc_offset(zone, sizeof zone, s->utc_offset_h);
		rt__format_duration(elapsed, sizeof elapsed, s->time_s);
		snprintf(lines[n++], 128, "%s (UTC%s)", clock, zone);
		snprintf(lines[n++], 128, "%s after the start", elapsed);
	} else {
		char elapsed[32];
		rt__format_duration(elapsed, sizeof elapsed, s->time_s);
		snprintf(lines[n++], 128, "t = %s", elapsed);
	}
	if (isfinite(s->light_lux)) {
		char lux[32];
		rt__format_lux(lux, sizeof lux, s->light_lux);
		snprintf(lines[n++], 128, "light %s lux: %s", lux, rt__light_word(s->light_lux));
	}
	if (isfinite(s->sea_level_m)) snprintf(lines[n++], 128, "sea level %s%.2f m", s->sea_level_m < 0.0 ? "−" : "+", fabs(s->sea_level_m));
	return n;
}

static void draw_info(cairo_t *cr, const view *v, const scene *s, labels *L)
{
	char lines[4][128];
	const int n = info_lines(s, lines), bold = 0;
	double w = 0.0;
	for (int i = 0; i < n; ++i) {
		rt__font(cr, i == bold ? 14.0 : 12.0, i == bold);
		w = fmax(w, rt__text_width(cr, lines[i]));
	}
	const double x0 = 10.0, y0 = v->top + 10.0, h = 14.0 + 18.0 + (n - 1) * 17.0;
	cairo_set_source_rgba(cr, 1, 1, 0.98, 0.88);
	cairo_rectangle(cr, x0, y0, w + 20.0, h);
	cairo_fill_preserve(cr);
	cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
	cairo_set_line_width(cr, 1.0);
	cairo_stroke(cr);
	double y = y0 + 20.0;
	for (int i = 0; i < n; ++i) {
		rt__font(cr, i == bold ? 14.0 : 12.0, i == bold);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		rt__text(cr, x0 + 10.0, y, lines[i], 0.0, 0.0);
		y += i == bold ? 19.0 : 17.0;
	}
	if (L->count < MAX_LABELS) L->placed[L->count++] = (box){ x0, y0, x0 + w + 20.0, y0 + h };
}

/* The same on one line, right-aligned at (x1, y), for a map too flat for the box. */
static void draw_info_line(cairo_t *cr, const scene *s, double x1, double y)
{
	char lines[4][128], text[600] = "";
	const int n = info_lines(s, lines);
	for (int i = 0; i < n; ++i) {
		if (i) strncat(text, "   ·   ", sizeof text - strlen(text) - 1);
		strncat(text, lines[i], sizeof text - strlen(text) - 1);
	}
	rt__font(cr, 12.5, false);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	rt__text(cr, x1, y, text, 1.0, 0.0);
}

/* ---- legend band ------------------------------------------------------------------------------ */
/* Items flow left to right and wrap; each side starts a row. */
typedef enum item_kind { ITEM_TEXT, ITEM_DOT, ITEM_RING, ITEM_DIAMOND, ITEM_SWATCH, ITEM_LINE, ITEM_BREAK } item_kind;

typedef struct item {
	item_kind kind;
	double rgb[3];
	const char *text;
	bool bold;
	double line_px;      /* ITEM_LINE: width; ITEM_SWATCH: outline (0: none) */
	bool dashed;
} item;

#define MAX_ITEMS 128

typedef struct legend {
	item items[MAX_ITEMS];
	char text[MAX_ITEMS][96];
	int count;
} legend;

static item *legend_add(legend *g, item_kind kind, const double rgb[3], const char *text, bool bold)
{
	if (g->count >= MAX_ITEMS) return NULL;
	item *it = &g->items[g->count];
	memset(it, 0, sizeof *it);
	it->kind = kind;
	if (rgb) memcpy(it->rgb, rgb, sizeof it->rgb);
	snprintf(g->text[g->count], sizeof g->text[0], "%s", text ? text : "");
	it->text = g->text[g->count];
	it->bold = bold;
	g->count++;
	return it;
}

static void build_legend(legend *g, const scene *s, const rt_picture_def *def, bool sides_present[MAX_SIDES])
{
	g->count = 0;
	bool has_commanders = s->commander_count > 0;
	for (int side = 0; side < MAX_SIDES; ++side) {
		if (!sides_present[side]) continue;
		char name[96];
		if (def->side_names && side < def->side_name_count && def->side_names[side]) snprintf(name, sizeof name, "%s", def->side_names[side]);
		else snprintf(name, sizeof name, "side %d", side);
		legend_add(g, ITEM_BREAK, NULL, NULL, false);
		double rgb[3];
		shade_colour(side, SHADE_FORMED, rgb);
		legend_add(g, ITEM_TEXT, rgb, name, true);
		for (int shade = 0; shade < SHADE_DESPERATE; ++shade) {
			shade_colour(side, shade, rgb);
			legend_add(g, shade == SHADE_DROWNED ? ITEM_RING : ITEM_DOT, rgb, shade_names[shade], false);
		}
		if (has_commanders) {
			shade_colour(side, SHADE_FORMED, rgb);
			legend_add(g, ITEM_DIAMOND, rgb, "commander", false);
		}
	}
	if (s->map) {
		legend_add(g, ITEM_BREAK, NULL, NULL, false);
		static const double water[3] = { 0.51, 0.68, 0.85 }, flat[3] = { 0.86, 0.82, 0.68 }, land[3] = { 0.82, 0.87, 0.69 },
				    hill[3] = { 0.76, 0.70, 0.54 }, road[3] = { 0.62, 0.47, 0.30 }, trench[3] = { 0.38, 0.26, 0.16 },
				    fort[3] = { 0.22, 0.20, 0.18 }, camp[3] = { 0.35, 0.30, 0.25 };
		legend_add(g, ITEM_SWATCH, water, "sea and rivers", false);
		legend_add(g, ITEM_SWATCH, flat, "tidal flat, dry", false);
		legend_add(g, ITEM_SWATCH, land, "lowland", false);
		legend_add(g, ITEM_SWATCH, hill, "hills", false);
		item *it = legend_add(g, ITEM_LINE, road, "road", false);
		if (it) it->line_px = 3.0;
		it = legend_add(g, ITEM_LINE, trench, "trench", false);
		if (it) it->line_px = 2.5;
		it = legend_add(g, ITEM_SWATCH, fort, "fort", false);
		if (it) it->line_px = 2.5;
		it = legend_add(g, ITEM_LINE, camp, "camp", false);
		if (it) {
			it->line_px = 1.6;
			it->dashed = true;
		}
		if (s->fire && (s->fire->burnt_count > 0 || s->fire->burning_count > 0 || s->fire->smoke_max > 0.0f)) {
			legend_add(g, ITEM_SWATCH, burnt_rgb, "burnt", false);
			legend_add(g, ITEM_SWATCH, flame_rgb, "flames", false);
			if (!s->fire_without_smoke) legend_add(g, ITEM_SWATCH, smoke_rgb, "smoke", false);
		}
	}
}

/* Lays the items out in rows of at most `width`; draws them when cr_draw is set. Returns
 * the height used. */
static double layout_legend(cairo_t *cr, const legend *g, double x0, double y0, double width, bool draw)
{
	const double row_h = 20.0, mark_w = 16.0, gap = 14.0;
	double x = x0, y = y0 + 14.0;
	bool row_empty = true;
	for (int i = 0; i < g->count; ++i) {
		const item *it = &g->items[i];
		if (it->kind == ITEM_BREAK) {
			if (!row_empty) {
				x = x0;
				y += row_h;
				row_empty = true;
			}
			continue;
		}
		rt__font(cr, 12.0, it->bold);
		const double tw = rt__text_width(cr, it->text);
		const double w = (it->kind == ITEM_TEXT ? 0.0 : mark_w + 4.0) + tw + gap;
		if (!row_empty && x + w > x0 + width) {
			x = x0 + 12.0;
			y += row_h;
		}
		if (draw) {
			const double cx = x + mark_w / 2.0, cy = y - 4.0;
			cairo_new_path(cr);
			cairo_set_source_rgb(cr, it->rgb[0], it->rgb[1], it->rgb[2]);
			switch (it->kind) {
			case ITEM_DOT:
				cairo_arc(cr, cx, cy, 4.5, 0.0, 2.0 * RT__PI);
				cairo_fill(cr);
				break;
			case ITEM_RING:
				cairo_arc(cr, cx, cy, 4.0, 0.0, 2.0 * RT__PI);
				cairo_set_line_width(cr, 1.5);
				cairo_stroke(cr);
				break;
			case ITEM_DIAMOND:
				diamond(cr, cx, cy, 6.0);
				cairo_fill_preserve(cr);
				cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
				cairo_set_line_width(cr, 1.0);
				cairo_stroke(cr);
				break;
			case ITEM_SWATCH:
				cairo_rectangle(cr, x + 1.0, cy - 6.0, mark_w - 2.0, 12.0);
				if (it->line_px > 0.0) {
					cairo_set_source_rgb(cr, 0.93, 0.90, 0.84);
					cairo_fill_preserve(cr);
					cairo_set_source_rgb(cr, it->rgb[0], it->rgb[1], it->rgb[2]);
					cairo_set_line_width(cr, it->line_px);
					cairo_stroke(cr);
				} else {
					cairo_fill_preserve(cr);
					cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
					cairo_set_line_width(cr, 0.8);
					cairo_stroke(cr);
				}
				break;
			case ITEM_LINE: {
				static const double dash[] = { 4.0, 2.0 };
				cairo_set_dash(cr, dash, it->dashed ? 2 : 0, 0.0);
				cairo_move_to(cr, x, cy);
				cairo_line_to(cr, x + mark_w, cy);
				cairo_set_line_width(cr, it->line_px);
				cairo_stroke(cr);
				cairo_set_dash(cr, NULL, 0, 0.0);
				break;
			}
			default: break;
			}
			cairo_set_source_rgb(cr, 0.12, 0.12, 0.12);
			rt__text(cr, it->kind == ITEM_TEXT ? x : x + mark_w + 4.0, y, it->text, 0.0, 0.0);
		}
		x += w;
		row_empty = false;
	}
	return row_empty ? y - y0 - row_h + 8.0 : y - y0 + 8.0;
}

/* ---- the picture ------------------------------------------------------------------------------- */
static rt_status check_def(const rt_picture_def *def, rt_error *err)
{
	if (!def || def->cookie != RT_COOKIE || !def->path)
		return rt__fail(err, RT_ERR_INVALID, "picture definition was not made by rt_picture_def_default() or has no path");
	if (def->width_px < 16 || def->width_px > 16384)
		return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "width_px", "picture width %d px; expected 16..16384", def->width_px);
	if (def->side_name_count < 0 || (def->side_name_count > 0 && !def->side_names))
		return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "side_names", "side_name_count %d without side_names", def->side_name_count);
	if (!isnan(def->utc_offset_h) && !(def->utc_offset_h >= -14.0 && def->utc_offset_h <= 14.0))
		return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "utc_offset_h", "utc_offset_h %g; expected -14..14 hours or NaN", def->utc_offset_h);
	return RT_OK;
}

static rt_status draw_scene(const scene *s, const rt_picture_def *def, const rt_allocator *a, rt_error *err)
{
	const double vw = s->view_max.x - s->view_min.x, vh = s->view_max.y - s->view_min.y;
	if (!(vw > 0.0) || !(vh > 0.0) || !isfinite(vw) || !isfinite(vh))
		return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "view_min", "the view is empty (%g x %g m)", vw, vh);
	view v;
	v.scale = def->width_px / vw;
	int height = (int)ceil(vh * v.scale - 1e-6);
	if (height > 16384) {
		v.scale = 16384.0 / vh;
		height = 16384;
	}
	v.width = (int)ceil(vw * v.scale - 1e-6);
	v.height = height < 1 ? 1 : height;
	v.x0 = s->view_min.x;
	v.y1 = s->view_max.y;
	const double title_px = def->title && def->title[0] ? 34.0 : 0.0;
	v.top = title_px;
	/* a map too flat to hold the corner box and the scale bar (a corridor) gets a strip
	 * under it for them instead */
	const bool flat = v.height < 200;
	const double strip_px = flat ? 32.0 : 0.0;

	/* which sides are on the field: the legend names them */
	bool present[MAX_SIDES] = { false };
	for (int i = 0; i < s->count; ++i)
		if (s->side[i] < MAX_SIDES) present[s->side[i]] = true;
	legend *g = NULL;
	double legend_px = 0.0;
	if (def->legend && v.width >= 480) { /* a thumbnail has no room for a key */
		g = rt__alloc(a, sizeof *g);
		if (!g) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the picture's legend");
		build_legend(g, s, def, present);
		if (g->count > 0) {
			cairo_t *m = rt__measure_begin();
			legend_px = ceil(layout_legend(m, g, 12.0, 0.0, v.width - 24.0, false)) + 8.0;
			rt__measure_end(m);
		}
	}
	uint8_t *kinds = NULL;
	int feature_count = 0;
	if (s->map) {
		feature_count = rt_map_feature_count(s->map);
		kinds = rt__alloc(a, (size_t)(feature_count > 0 ? feature_count : 1));
		if (!kinds) {
			rt__free(a, g, sizeof *g);
			return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the picture's feature table");
		}
		for (int f = 0; f < feature_count; ++f) {
			rt_map_feature_view fv;
			kinds[f] = rt_map_feature_info(s->map, f, &fv) ? (uint8_t)fv.kind : (uint8_t)RT_MAP_KIND_COUNT;
		}
	}
	labels *L = rt__alloc(a, sizeof *L);
	rt__canvas c;
	rt_status status = L ? rt__canvas_open(&c, def->path, def->format, v.width, (int)(title_px + v.height + strip_px + legend_px), err)
			     : rt__fail(err, RT_ERR_NOMEM, "cannot allocate the picture's labels");
	if (status != RT_OK) goto done;
	L->count = 0;
	cairo_t *cr = c.cr;
	cairo_set_source_rgb(cr, paper_rgb[0], paper_rgb[1], paper_rgb[2]);
	cairo_paint(cr);
	if (title_px > 0.0) {
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_rectangle(cr, 0, 0, v.width, title_px);
		cairo_fill(cr);
		rt__font(cr, 17.0, true);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		rt__text(cr, 10.0, 23.0, def->title, 0.0, 0.0);
	}
	cairo_save(cr);
	cairo_rectangle(cr, 0, v.top, v.width, v.height);
	cairo_clip(cr);
	if (s->map) {
		cairo_surface_t *img = ground_image(s, v.width, v.height, v.scale, kinds);
		if (cairo_surface_status(img) == CAIRO_STATUS_SUCCESS) {
			cairo_set_source_surface(cr, img, 0.0, v.top);
			cairo_paint(cr);
		}
		cairo_surface_destroy(img);
		draw_works(cr, &v, s->map, def);
	}
	/* walls of the world or the overlay */
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	cairo_set_line_width(cr, fmax(2.0, 0.15 * v.scale)); /* 15 cm, or 2 px */
	for (int i = 0; i < s->segment_count; ++i) {
		cairo_move_to(cr, px_x(&v, s->segments[i].ax), px_y(&v, s->segments[i].ay));
		cairo_line_to(cr, px_x(&v, s->segments[i].bx), px_y(&v, s->segments[i].by));
	}
	for (int i = 0; i < s->wall_count; ++i) {
		cairo_move_to(cr, px_x(&v, s->wall_a[i].x), px_y(&v, s->wall_a[i].y));
		cairo_line_to(cr, px_x(&v, s->wall_b[i].x), px_y(&v, s->wall_b[i].y));
	}
	cairo_stroke(cr);
	if (!def->ground_only) {
		draw_men(cr, &v, s);
		/* the furniture first, so names and commanders keep out of its way */
		if (def->info && !flat) draw_info(cr, &v, s, L);
		draw_north_arrow(cr, &v, L);
		if (!flat) draw_scale_bar(cr, &v, 14.0, v.top + v.height - 16.0, L);
		draw_commanders(cr, &v, s, L);
	}
	if (s->map && def->names) draw_names(cr, &v, s->map, L);
	cairo_restore(cr);
	if (flat) {
		const double y0 = title_px + v.height;
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_rectangle(cr, 0, y0, v.width, strip_px);
		cairo_fill(cr);
		draw_scale_bar(cr, &v, 14.0, y0 + 24.0, NULL);
		if (def->info) draw_info_line(cr, s, v.width - 12.0, y0 + 21.0);
	}
	if (legend_px > 0.0) {
		const double y0 = title_px + v.height + strip_px;
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_rectangle(cr, 0, y0, v.width, legend_px);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0.7, 0.7, 0.7);
		cairo_set_line_width(cr, 1.0);
		cairo_move_to(cr, 0, y0 + 0.5);
		cairo_line_to(cr, v.width, y0 + 0.5);
		cairo_stroke(cr);
		layout_legend(cr, g, 12.0, y0 + 4.0, v.width - 24.0, true);
	}
	status = rt__canvas_close(&c, err);
done:
	rt__free(a, L, sizeof *L);
	rt__free(a, kinds, (size_t)(feature_count > 0 ? feature_count : 1));
	rt__free(a, g, sizeof *g);
	return status;
}

/* ---- a live world ---------------------------------------------------------------------------- */
static rt_status draw_world(const rt_world *w, const rt_picture_def *def, rt_image_format format, rt_error *err)
{
	rt__error_clear(err);
	if (!w) return rt__fail(err, RT_ERR_INVALID, "no world to draw");
	rt_status st = check_def(def, err);
	if (st != RT_OK) return st;
	rt_picture_def d = *def;
	d.format = format;
	scene s;
	memset(&s, 0, sizeof s);
	const bool view_set = def->view_max.x > def->view_min.x && def->view_max.y > def->view_min.y;
	s.view_min = view_set ? def->view_min : w->def.bounds_min;
	s.view_max = view_set ? def->view_max : w->def.bounds_max;
	s.map = w->map;
	s.ground_sea_m = w->env.set ? w->env.sea_level_m : 0.0;
	const rt_agents *ag = &w->agents;
	s.count = ag->count;
	s.xd = ag->x;
	s.yd = ag->y;
	s.radius = ag->radius;
	s.side = ag->side;
	s.state = ag->state;
	s.segments = w->geometry.walls;
	s.segment_count = w->geometry.wall_count;
	s.time_s = w->time_s;
	s.jd_ut = w->env.set ? w->env.jd_ut : NAN;
	s.utc_offset_h = !isnan(def->utc_offset_h) ? def->utc_offset_h
			 : w->has_environment ? rt__utc_offset_for_longitude(w->environment.longitude_deg) : 0.0;
	s.sea_level_m = w->env.set ? w->env.sea_level_m : NAN;
	s.light_lux = w->env.set ? w->env.illuminance_lux : NAN;
	s.fire = w->map ? w->fire : NULL;
	/* commanders: men of that kind, named after the corps they lead */
	int commanders = 0;
	for (int i = 0; i < ag->count; ++i) commanders += ag->kind[i] == RT_KIND_COMMANDER;
	int *index = NULL;
	const char **names = NULL;
	if (commanders > 0) {
		index = rt__alloc(&w->allocator, (size_t)commanders * sizeof *index);
		names = rt__alloc(&w->allocator, (size_t)commanders * sizeof *names);
		if (!index || !names) {
			rt__free(&w->allocator, index, (size_t)commanders * sizeof *index);
			rt__free(&w->allocator, names, (size_t)commanders * sizeof *names);
			return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the list of %d commanders", commanders);
		}
		int k = 0;
		for (int i = 0; i < ag->count; ++i) {
			if (ag->kind[i] != RT_KIND_COMMANDER) continue;
			index[k] = i;
			names[k] = NULL;
			for (int c = 0; c < w->corps_count; ++c)
				if (w->corps[c].commander == (int32_t)ag->id[i] && w->corps[c].name[0]) names[k] = w->corps[c].name;
			k++;
		}
	}
	s.commander_count = commanders;
	s.commander = index;
	s.commander_name = names;
	st = draw_scene(&s, &d, &w->allocator, err);
	rt__free(&w->allocator, index, (size_t)commanders * sizeof *index);
	rt__free(&w->allocator, names, (size_t)commanders * sizeof *names);
	return st;
}

rt_status rt_world_draw_picture(const rt_world *w, const rt_picture_def *def, rt_error *err)
{
	return draw_world(w, def, def ? def->format : RT_IMAGE_AUTO, err);
}

rt_status rt_world_draw_png(const rt_world *w, const rt_picture_def *def, rt_error *err)
{
	return draw_world(w, def, RT_IMAGE_PNG, err);
}

/* ---- a trace frame over a map ------------------------------------------------------------------ */
rt_status rt_picture_draw_frame(const rt_map *map, const rt_trace_frame *frame, const rt_frame_overlay *o,
				const rt_picture_def *def, rt_error *err)
{
	rt__error_clear(err);
	rt_status st = check_def(def, err);
	if (st != RT_OK) return st;
	if (!frame || frame->count < 0 || (frame->count > 0 && (!frame->x || !frame->y || !frame->state || !frame->side)))
		return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "frame", "the frame has no men's arrays (read it with rt_trace_reader_next)");
	const rt_frame_overlay fallback = rt_frame_overlay_default();
	if (!o) o = &fallback;
	if (o->cookie != RT_COOKIE) return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "overlay", "overlay was not made by rt_frame_overlay_default()");
	if (o->commander_count < 0 || (o->commander_count > 0 && !o->commanders) || o->wall_count < 0 ||
	    (o->wall_count > 0 && (!o->wall_a || !o->wall_b)))
		return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "overlay", "overlay counts without their arrays");
	for (int k = 0; k < o->commander_count; ++k)
		if (o->commanders[k] >= (rt_agent_id)frame->count)
			return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "commanders", "commander %u is not in the frame of %d men",
					   (unsigned)o->commanders[k], frame->count);
	if (o->fire) {
		const rt_fire_log *fl = o->fire;
		int nx = 0, ny = 0;
		double cell = 0.0;
		rt_vec2 corner = { 0, 0 };
		if (map) rt_map_size(map, &nx, &ny, &cell, &corner);
		if (!map || fl->nx != nx || fl->ny != ny || fabs(fl->cell_m - cell) > 1e-9 * cell || fabs(fl->origin_x - corner.x) > 1e-6 ||
		    fabs(fl->origin_y - corner.y) > 1e-6)
			return rt__fail_at(err, RT_ERR_INVALID, def->path, 0, 0, "fire",
					   "the fire log's grid (%d x %d cells of %g m from %.1f, %.1f) is not the map's (%d x %d of %g m from %.1f, %.1f)",
					   fl->nx, fl->ny, fl->cell_m, fl->origin_x, fl->origin_y, nx, ny, cell, corner.x, corner.y);
	}
	scene s;
	memset(&s, 0, sizeof s);
	s.map = map;
	s.count = frame->count;
	s.xf = frame->x;
	s.yf = frame->y;
	s.offset = o->origin;
	s.side = frame->side;
	s.state = frame->state;
	s.wall_a = o->wall_a;
	s.wall_b = o->wall_b;
	s.wall_count = o->wall_count;
	s.time_s = frame->time_s;
	s.jd_ut = isfinite(o->start_jd_ut) ? o->start_jd_ut + frame->time_s / 86400.0 : NAN;
	s.utc_offset_h = !isnan(def->utc_offset_h) ? def->utc_offset_h : map ? rt__utc_offset_for_longitude(rt_map_origin(map).lon_deg) : 0.0;
	s.sea_level_m = o->sea_level_m;
	s.light_lux = o->light_lux;
	s.ground_sea_m = isfinite(o->sea_level_m) ? o->sea_level_m : 0.0;
	/* the view: given, else the map, else the men with a margin */
	if (def->view_max.x > def->view_min.x && def->view_max.y > def->view_min.y) {
		s.view_min = def->view_min;
		s.view_max = def->view_max;
	} else if (map) {
		int nx, ny;
		double cell;
		rt_vec2 corner;
		rt_map_size(map, &nx, &ny, &cell, &corner);
		s.view_min = corner;
		s.view_max = (rt_vec2){ corner.x + nx * cell, corner.y + ny * cell };
	} else {
		rt_vec2 lo = { INFINITY, INFINITY }, hi = { -INFINITY, -INFINITY };
		for (int i = 0; i < frame->count; ++i) {
			if (shade_of(frame->state[i]) == SHADE_NONE) continue;
			lo.x = fmin(lo.x, man_x(&s, i));
			lo.y = fmin(lo.y, man_y(&s, i));
			hi.x = fmax(hi.x, man_x(&s, i));
			hi.y = fmax(hi.y, man_y(&s, i));
		}
		if (!(hi.x >= lo.x)) lo = hi = o->origin;
		const double margin = fmax(10.0, 0.05 * fmax(hi.x - lo.x, hi.y - lo.y));
		s.view_min = (rt_vec2){ lo.x - margin, lo.y - margin };
		s.view_max = (rt_vec2){ hi.x + margin, hi.y + margin };
	}
	int *index = NULL;
	const rt_allocator a = def->allocator.alloc && def->allocator.free ? def->allocator : rt_allocator_default();
	if (o->commander_count > 0) {
		index = rt__alloc(&a, (size_t)o->commander_count * sizeof *index);
		if (!index) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the list of commanders");
		for (int k = 0; k < o->commander_count; ++k) index[k] = (int)o->commanders[k];
	}
	s.commander_count = o->commander_count;
	s.commander = index;
	s.commander_name = o->commander_names;
	/* the fire of the frame's moment, on the map's grid: flames and burnt ground, no smoke */
	rt_fire fire;
	memset(&fire, 0, sizeof fire);
	if (o->fire) {
		const rt_fire_log *fl = o->fire;
		fire.nx = fl->nx;
		fire.ny = fl->ny;
		fire.cells = (size_t)fl->nx * (size_t)fl->ny;
		fire.cell_m = fl->cell_m;
		fire.inv_cell = 1.0 / fl->cell_m;
		fire.ox = fl->origin_x;
		fire.oy = fl->origin_y;
		fire.k = 1;
		fire.box[2] = fire.box[3] = -1;
		fire.state = fl->count > 0 ? rt__alloc(&a, fire.cells) : NULL;
		if (fl->count > 0 && !fire.state) {
			rt__free(&a, index, (size_t)o->commander_count * sizeof *index);
			return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the fire's %zu cells", fire.cells);
		}
		if (fire.state) {
			int64_t burning = 0, burnt = 0;
			rt__fire_log_state_at(fl, frame->time_s, fire.state, &burning, &burnt);
			fire.burning_count = (int)burning;
			fire.burnt_count = burnt;
			s.fire = &fire;
			s.fire_without_smoke = true;
		}
	}
	st = draw_scene(&s, def, &a, err);
	if (fire.state) rt__free(&a, fire.state, fire.cells);
	rt__free(&a, index, (size_t)o->commander_count * sizeof *index);
	return st;
}
