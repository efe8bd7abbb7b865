/* Pictures of a world with cairo: walls, and every active man as a dot coloured by side
 * and shaded by state. Written to a temporary name and renamed, so a PNG that exists is
 * whole. Maps with terrain, names and legends build on this in the viewer layer. */
#include "world.h"

#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>

rt_picture_def rt_picture_def_default(void)
{
	rt_picture_def d;
	memset(&d, 0, sizeof d);
	d.width_px = 1200;
	d.cookie = RT_COOKIE;
	return d;
}

/* Side colours (Ming red, Qing blue, then others) and a shade per state. */
static void agent_colour(uint8_t side, uint8_t state, double *r, double *g, double *b)
{
	static const double base[4][3] = { { 0.80, 0.15, 0.12 }, { 0.13, 0.30, 0.75 }, { 0.15, 0.55, 0.20 }, { 0.55, 0.35, 0.10 } };
	const double *c = base[side % 4];
	double k = 1.0;
	switch ((rt_state)state) {
	case RT_STATE_ROUTING: k = 0.55; break;    /* lighter: broken men */
	case RT_STATE_SURRENDERED: k = 0.3; break;
	case RT_STATE_DESPERATE: k = 1.3; break;
	default: break;
	}
	*r = fmin(1.0, k <= 1.0 ? c[0] + (1.0 - c[0]) * (1.0 - k) : c[0] / k);
	*g = fmin(1.0, k <= 1.0 ? c[1] + (1.0 - c[1]) * (1.0 - k) : c[1] / k);
	*b = fmin(1.0, k <= 1.0 ? c[2] + (1.0 - c[2]) * (1.0 - k) : c[2] / k);
}

/* The map under the men: water blue by depth (rivers and the sea at the current
 * level), impassable ground slate, faster ground (roads) tan, other ground shaded from
 * green to brown by elevation; with a fire, burnt ground charcoal, smoke a grey veil as
 * thick as it hides men, and flames through it orange (red where they stop men). One
 * pixel per map cell, scaled into world metres. */
static void draw_terrain(cairo_t *cr, const rt_world *w)
{
	const int nx = w->map_nx, ny = w->map_ny;
	cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, nx, ny);
	if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(img);
		return; /* a picture without its ground is still a picture */
	}
	cairo_surface_flush(img);
	unsigned char *data = cairo_image_surface_get_data(img);
	const int stride = cairo_image_surface_get_stride(img);
	const double sea = w->env.set ? w->env.sea_level_m : 0.0;
	for (int iy = 0; iy < ny; ++iy) {
		uint32_t *row = (uint32_t *)(void *)(data + (size_t)(ny - 1 - iy) * (size_t)stride); /* north up */
		for (int ix = 0; ix < nx; ++ix) {
			const int c = iy * nx + ix;
			const double z = w->map_elevation[c];
			const double depth = w->map_water[c] + (sea > z ? sea - z : 0.0);
			double r, g, b;
			if (depth > 0.0) {
				const double k = fmin(1.0, depth / 6.0);
				r = 0.62 - 0.40 * k; g = 0.78 - 0.35 * k; b = 0.90 - 0.25 * k;
			} else if (!w->map_passable[c]) {
				r = 0.35; g = 0.40; b = 0.45;
			} else if (w->map_speed[c] > 1.05) {
				r = 0.80; g = 0.68; b = 0.48;
			} else {
				const double k = fmin(1.0, fmax(0.0, z / 150.0));
				r = 0.86 - 0.15 * k + 0.05 * k; g = 0.88 - 0.25 * k; b = 0.76 - 0.30 * k;
			}
			if (w->fire) {
				const uint8_t st = w->fire->state[c];
				if (st == RT_FIRE_CELL_BURNT) { r = 0.30; g = 0.28; b = 0.26; }
				const float smoke = w->fire->smoke_max > 0.0f ? w->fire->smoke[(size_t)(iy / w->fire->k) * (size_t)w->fire->snx +
												  (size_t)(ix / w->fire->k)] : 0.0f;
				if (smoke > 0.0f) {
					/* the share of a man's contrast lost over 20 m of it, at most 0.8 */
					const double veil = 0.8 * (1.0 - exp(-w->fire->params.smoke_extinction_m2_per_g * smoke * 20.0));
					r += (0.62 - r) * veil; g += (0.62 - g) * veil; b += (0.64 - b) * veil;
				}
				/* flames show through their smoke */
				if (st == RT_FIRE_CELL_BURNING) { r = 0.96; g = 0.58; b = 0.16; }
				else if (st == RT_FIRE_CELL_HOT) { r = 0.88; g = 0.20; b = 0.05; }
			}
			row[ix] = ((uint32_t)(r * 255.0) << 16) | ((uint32_t)(g * 255.0) << 8) | (uint32_t)(b * 255.0);
		}
	}
	cairo_surface_mark_dirty(img);
	cairo_save(cr);
	/* the image's pixel (0, 0) is the map's north-west corner */
	cairo_translate(cr, w->map_ox, w->map_oy + ny * w->map_cell);
	cairo_scale(cr, w->map_cell, -w->map_cell);
	cairo_set_source_surface(cr, img, 0.0, 0.0);
	cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
	cairo_paint(cr);
	cairo_restore(cr);
	cairo_surface_destroy(img);
}

rt_status rt_world_draw_png(const rt_world *w, const rt_picture_def *def, rt_error *err)
{
	rt__error_clear(err);
	if (!w || !def || def->cookie != RT_COOKIE || !def->path)
		return rt__fail(err, RT_ERR_INVALID, "picture definition was not made by rt_picture_def_default() or has no path");
	if (def->width_px < 16 || def->width_px > 16384)
		return rt__fail(err, RT_ERR_INVALID, "picture width %d px; expected 16..16384", def->width_px);
	const rt_world_def *d = &w->def;
	double ww = d->bounds_max.x - d->bounds_min.x, wh = d->bounds_max.y - d->bounds_min.y;
	double scale = (double)def->width_px / ww;
	int height = (int)ceil(wh * scale);
	if (height > 16384) {
		scale = 16384.0 / wh;
		height = 16384;
	}
	int width = (int)ceil(ww * scale);
	int title_px = def->title ? 28 : 0;
	cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height + title_px);
	if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
		cairo_surface_destroy(surface);
		return rt__fail(err, RT_ERR_NOMEM, "cannot create a %d x %d picture", width, height + title_px);
	}
	cairo_t *cr = cairo_create(surface);
	cairo_set_source_rgb(cr, 0.96, 0.94, 0.88);
	cairo_paint(cr);
	if (def->title) {
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
		cairo_set_font_size(cr, 16.0);
		cairo_move_to(cr, 8.0, 20.0);
		cairo_show_text(cr, def->title);
	}
	/* world to picture: y up in the world, down in the picture */
	cairo_translate(cr, 0.0, title_px + height);
	cairo_scale(cr, scale, -scale);
	cairo_translate(cr, -d->bounds_min.x, -d->bounds_min.y);

	if (w->map) draw_terrain(cr, w);

	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	cairo_set_line_width(cr, fmax(0.15, 2.0 / scale));
	for (int i = 0; i < w->geometry.wall_count; ++i) {
		const rt_segment *s = &w->geometry.walls[i];
		cairo_move_to(cr, s->ax, s->ay);
		cairo_line_to(cr, s->bx, s->by);
	}
	cairo_stroke(cr);

	const rt_agents *a = &w->agents;
	double min_r = 0.8 / scale; /* at least a pixel and a half across */
	for (int s = 0; s < a->count; ++s) {
		if (!rt__active(a->state[s])) continue;
		double r, g, b;
		agent_colour(a->side[s], a->state[s], &r, &g, &b);
		cairo_set_source_rgb(cr, r, g, b);
		cairo_arc(cr, a->x[s], a->y[s], fmax(a->radius[s], min_r), 0.0, 6.283185307179586);
		cairo_fill(cr);
	}
	/* scale bar (bottom left), north arrow (top right), the time (bottom right): in pixels */
	cairo_identity_matrix(cr);
	cairo_set_dash(cr, NULL, 0, 0.0);
	const double span_m = 0.2 * width / scale;
	double bar_m = pow(10.0, floor(log10(span_m)));
	if (bar_m * 5.0 <= span_m) bar_m *= 5.0;
	else if (bar_m * 2.0 <= span_m) bar_m *= 2.0;
	const double bar_px = bar_m * scale, base_y = title_px + height - 14.0;
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_set_line_width(cr, 2.0);
	cairo_move_to(cr, 12.0, base_y - 5.0);
	cairo_line_to(cr, 12.0, base_y);
	cairo_line_to(cr, 12.0 + bar_px, base_y);
	cairo_line_to(cr, 12.0 + bar_px, base_y - 5.0);
	cairo_stroke(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 12.0);
	char text[96];
	if (bar_m >= 1000.0) snprintf(text, sizeof text, "%g km", bar_m / 1000.0);
	else snprintf(text, sizeof text, "%g m", bar_m);
	cairo_move_to(cr, 16.0 + bar_px, base_y);
	cairo_show_text(cr, text);
	const double ax = width - 20.0, ay = title_px + 12.0;
	cairo_move_to(cr, ax, ay);
	cairo_line_to(cr, ax - 6.0, ay + 16.0);
	cairo_line_to(cr, ax + 6.0, ay + 16.0);
	cairo_close_path(cr);
	cairo_fill(cr);
	cairo_move_to(cr, ax - 4.0, ay + 30.0);
	cairo_show_text(cr, "N");
	const long seconds = (long)floor(w->time_s + 0.5);
	snprintf(text, sizeof text, "t = %ld:%02ld:%02ld", seconds / 3600, (seconds / 60) % 60, seconds % 60);
	cairo_text_extents_t ext;
	cairo_text_extents(cr, text, &ext);
	cairo_move_to(cr, width - ext.x_advance - 12.0, base_y);
	cairo_show_text(cr, text);
	cairo_destroy(cr);

	char temp[1024];
	int n = snprintf(temp, sizeof temp, "%s.tmp", def->path);
	rt_status status = RT_OK;
	if (n < 0 || (size_t)n >= sizeof temp) {
		status = rt__fail(err, RT_ERR_INVALID, "picture path is too long");
	} else if (cairo_surface_write_to_png(surface, temp) != CAIRO_STATUS_SUCCESS) {
		status = rt__fail_at(err, RT_ERR_IO, def->path, 0, 0, NULL, "cannot write the picture");
		remove(temp);
	} else if (rename(temp, def->path) != 0) {
		status = rt__fail_at(err, RT_ERR_IO, def->path, 0, 0, NULL, "cannot rename the picture into place: %s", strerror(errno));
		remove(temp);
	}
	cairo_surface_destroy(surface);
	return status;
}
