/* The drawing base shared by plots and pictures: surfaces that become whole files, the
 * one font face, text with a halo, round axis numbers and the clock in words. Cairo and
 * fontconfig allocate outside rout's allocator; that is accepted for drawing. */
#include "canvas.h"
#include "rout/env.h"

#include <ctype.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>

rt_image_format rt__image_format_for(const char *path, rt_image_format format)
{
	if (format == RT_IMAGE_PNG || format == RT_IMAGE_SVG) return format;
	const size_t n = path ? strlen(path) : 0;
	if (n >= 4) {
		const char *e = path + n - 4;
		if (e[0] == '.' && tolower((unsigned char)e[1]) == 's' && tolower((unsigned char)e[2]) == 'v' &&
		    tolower((unsigned char)e[3]) == 'g')
			return RT_IMAGE_SVG;
	}
	return RT_IMAGE_PNG;
}

/* cairo's stream writer: into the atomic file (a failure is kept for the commit) */
static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int length)
{
	rt_atomic_file *f = closure;
	rt__atomic_write(f, data, length);
	return rt__atomic_ok(f) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

rt_status rt__write_png_atomic(cairo_surface_t *surface, const char *path, const char *what, rt_error *err)
{
	rt_atomic_file f;
	rt_status s = rt__atomic_open(&f, path, err);
	if (s != RT_OK) return s;
	cairo_status_t w = cairo_surface_write_to_png_stream(surface, write_stream, &f);
	if (w != CAIRO_STATUS_SUCCESS) {
		rt__atomic_abort(&f);
		return rt__fail_at(err, RT_ERR_IO, path, 0, 0, NULL, "cannot write the %s: %s", what, cairo_status_to_string(w));
	}
	return rt__atomic_commit(&f, err);
}

rt_status rt__canvas_open(rt__canvas *c, const char *path, rt_image_format format, int width, int height, rt_error *err)
{
	memset(c, 0, sizeof *c);
	if (!path || !path[0]) return rt__fail(err, RT_ERR_INVALID, "no path for the picture");
	if (format != RT_IMAGE_AUTO && format != RT_IMAGE_PNG && format != RT_IMAGE_SVG)
		return rt__fail(err, RT_ERR_INVALID, "image format %d; expected RT_IMAGE_AUTO, RT_IMAGE_PNG or RT_IMAGE_SVG", (int)format);
	int n = snprintf(c->path, sizeof c->path, "%s", path);
	if (n < 0 || (size_t)n >= sizeof c->path)
		return rt__fail(err, RT_ERR_INVALID, "picture path is too long (at most %zu bytes)", sizeof c->path - 1);
	if (width < 1 || height < 1 || width > 32767 || height > 32767)
		return rt__fail_at(err, RT_ERR_INVALID, path, 0, 0, NULL, "picture of %d x %d px; each side must be 1..32767", width, height);
	c->format = rt__image_format_for(path, format);
	c->width = width;
	c->height = height;
	rt_status opened = rt__atomic_open(&c->file, path, err);
	if (opened != RT_OK) return opened;
	if (c->format == RT_IMAGE_SVG) {
		c->surface = cairo_svg_surface_create_for_stream(write_stream, &c->file, width, height);
		if (cairo_surface_status(c->surface) == CAIRO_STATUS_SUCCESS)
			cairo_svg_surface_restrict_to_version(c->surface, CAIRO_SVG_VERSION_1_1);
	} else {
		c->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
	}
	if (cairo_surface_status(c->surface) != CAIRO_STATUS_SUCCESS) {
		const char *why = cairo_status_to_string(cairo_surface_status(c->surface));
		cairo_surface_destroy(c->surface);
		c->surface = NULL;
		rt__atomic_abort(&c->file);
		return rt__fail_at(err, c->format == RT_IMAGE_SVG ? RT_ERR_IO : RT_ERR_NOMEM, path, 0, 0, NULL,
				   "cannot create a %d x %d picture: %s", width, height, why);
	}
	c->cr = cairo_create(c->surface);
	if (cairo_status(c->cr) != CAIRO_STATUS_SUCCESS) {
		rt__canvas_abort(c);
		return rt__fail_at(err, RT_ERR_NOMEM, path, 0, 0, NULL, "cannot draw on a %d x %d picture", width, height);
	}
	return RT_OK;
}


rt_status rt__canvas_close(rt__canvas *c, rt_error *err)
{
	rt_status status = RT_OK;
	cairo_status_t drawn = cairo_status(c->cr);
	cairo_destroy(c->cr);
	c->cr = NULL;
	if (drawn != CAIRO_STATUS_SUCCESS) {
		status = rt__fail_at(err, RT_ERR_NOMEM, c->path, 0, 0, NULL, "drawing failed: %s", cairo_status_to_string(drawn));
	} else if (c->format == RT_IMAGE_SVG) {
		cairo_surface_finish(c->surface); /* writes and closes the file */
		if (cairo_surface_status(c->surface) != CAIRO_STATUS_SUCCESS)
			status = rt__fail_at(err, RT_ERR_IO, c->path, 0, 0, NULL, "cannot write the picture: %s",
					     cairo_status_to_string(cairo_surface_status(c->surface)));
	} else {
		cairo_status_t s = cairo_surface_write_to_png_stream(c->surface, write_stream, &c->file);
		if (s != CAIRO_STATUS_SUCCESS)
			status = rt__fail_at(err, RT_ERR_IO, c->path, 0, 0, NULL, "cannot write the picture: %s", cairo_status_to_string(s));
	}
	cairo_surface_destroy(c->surface);
	c->surface = NULL;
	if (status == RT_OK) return rt__atomic_commit(&c->file, err);
	rt__atomic_abort(&c->file);
	return status;
}

void rt__canvas_abort(rt__canvas *c)
{
	if (c->cr) cairo_destroy(c->cr);
	if (c->surface) {
		if (c->format == RT_IMAGE_SVG) cairo_surface_finish(c->surface);
		cairo_surface_destroy(c->surface);
	}
	rt__atomic_abort(&c->file);
	c->cr = NULL;
	c->surface = NULL;
}

cairo_t *rt__measure_begin(void)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
	cairo_t *cr = cairo_create(s);
	cairo_surface_destroy(s); /* the context holds its own reference */
	return cr;
}

void rt__measure_end(cairo_t *cr)
{
	cairo_destroy(cr);
}

void rt__font(cairo_t *cr, double size_px, bool bold)
{
	cairo_select_font_face(cr, RT__FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size_px);
}

double rt__text_width(cairo_t *cr, const char *text)
{
	if (!text || !text[0]) return 0.0;
	cairo_text_extents_t e;
	cairo_text_extents(cr, text, &e);
	return e.x_advance;
}

void rt__text(cairo_t *cr, double x, double y, const char *text, double align_x, double halo_px)
{
	if (!text || !text[0]) return;
	const double w = rt__text_width(cr, text);
	cairo_move_to(cr, x - align_x * w, y);
	if (halo_px > 0.0) {
		cairo_save(cr);
		cairo_text_path(cr, text);
		cairo_set_source_rgba(cr, 1.0, 1.0, 0.98, 0.85);
		cairo_set_line_width(cr, halo_px);
		cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
		cairo_stroke(cr);
		cairo_restore(cr);
		cairo_move_to(cr, x - align_x * w, y);
	}
	cairo_show_text(cr, text);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

bool rt__parse_colour(const char *text, double rgb[3])
{
	if (!text || text[0] != '#') return false;
	const size_t n = strlen(text + 1);
	if (n != 3 && n != 6) return false;
	for (size_t i = 1; i <= n; ++i)
		if (hex_digit(text[i]) < 0) return false;
	for (int k = 0; k < 3; ++k) {
		int v = n == 6 ? hex_digit(text[1 + 2 * k]) * 16 + hex_digit(text[2 + 2 * k]) : hex_digit(text[1 + k]) * 17;
		rgb[k] = v / 255.0;
	}
	return true;
}

double rt__nice_step(double span, int ticks)
{
	if (!(span > 0.0) || !isfinite(span)) return 1.0;
	const double raw = span / (ticks > 0 ? ticks : 1), p = pow(10.0, floor(log10(raw)));
	const double m = raw / p;
	return (m < 1.5 ? 1.0 : m < 2.25 ? 2.0 : m < 3.5 ? 2.5 : m < 7.5 ? 5.0 : 10.0) * p;
}

void rt__format_number(char *out, size_t size, double v, double step)
{
	if (size == 0) return;
	if (!isfinite(v)) {
		snprintf(out, size, "%s", isnan(v) ? "-" : v > 0 ? "∞" : "−∞");
		return;
	}
	int decimals = 0;
	if (step > 0.0 && isfinite(step)) {
		/* enough decimals that step is exact: 0.5 -> 1, 0.25 -> 2, 0.001 -> 3 */
		while (decimals < 9 && fabs(step * pow(10.0, decimals) - round(step * pow(10.0, decimals))) > 1e-6 * step * pow(10.0, decimals))
			decimals++;
	}
	if (fabs(v) < 0.5 * pow(10.0, -decimals)) v = 0.0; /* no "-0" */
	char digits[64];
	snprintf(digits, sizeof digits, "%.*f", decimals, fabs(v));
	/* commas every three digits of the whole part: 1,000 */
	const char *dot = strchr(digits, '.');
	const size_t whole = dot ? (size_t)(dot - digits) : strlen(digits);
	char grouped[96];
	size_t k = 0;
	for (size_t i = 0; i < whole && k + 2 < sizeof grouped; ++i) {
		grouped[k++] = digits[i];
		const size_t left = whole - 1 - i;
		if (whole > 3 && left > 0 && left % 3 == 0) grouped[k++] = ',';
	}
	grouped[k] = '\0';
	snprintf(out, size, "%s%s%s", v < 0.0 ? "−" : "", grouped, dot ? dot : "");
}

static const char *month_names[12] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

void rt__format_clock(char *out, size_t size, double jd_ut, double utc_offset_h, bool with_date, bool with_year)
{
	/* to the nearest second, then the minute it is in: 20:39:59.9996 reads 20:40, 20:00:45
	 * reads 20:00, as a clock would */
	const double jd_second = round(jd_ut * 86400.0) / 86400.0;
	rt_civil_time t = rt_civil_from_julian_day(jd_second + 0.25 / 86400.0, utc_offset_h);
	const char *month = t.month >= 1 && t.month <= 12 ? month_names[t.month - 1] : "?";
	if (with_date && with_year) snprintf(out, size, "%d %s %d %02d:%02d", t.day, month, t.year, t.hour, t.minute);
	else if (with_date) snprintf(out, size, "%d %s %02d:%02d", t.day, month, t.hour, t.minute);
	else snprintf(out, size, "%02d:%02d", t.hour, t.minute);
}

void rt__format_utc_offset(char *out, size_t size, double h)
{
	const double a = fabs(h);
	const int hours = (int)floor(a + 1e-9), minutes = (int)round((a - hours) * 60.0);
	if (minutes == 0) snprintf(out, size, "%c%d", h < 0 ? '-' : '+', hours);
	else snprintf(out, size, "%c%d:%02d", h < 0 ? '-' : '+', hours, minutes);
}

void rt__format_duration(char *out, size_t size, double seconds)
{
	const double a = fabs(seconds);
	const long s = (long)floor(a + 0.5);
	snprintf(out, size, "%s%ld:%02ld:%02ld", seconds < -0.5 ? "−" : "", s / 3600, (s / 60) % 60, s % 60);
}

double rt__utc_offset_for_longitude(double longitude_deg)
{
	double lon = fmod(longitude_deg, 360.0);
	if (lon > 180.0) lon -= 360.0;
	if (lon < -180.0) lon += 360.0;
	return round(lon / 15.0);
}

/* Light in words, for the corner box. */
const char *rt__light_word(double lux)
{
	return lux >= RT_DAY_LUX ? "day" : lux >= RT_TWILIGHT_LUX ? "twilight" : "night";
}

/* Two significant figures: 0.0012, 0.25, 3.4, 760, 12,000. */
void rt__format_lux(char *out, size_t size, double lux)
{
	if (!(lux > 0.0)) {
		snprintf(out, size, "0");
		return;
	}
	const double p = pow(10.0, floor(log10(lux)) - 1.0);
	const double rounded = round(lux / p) * p;
	rt__format_number(out, size, rounded, p < 1.0 ? p : 1.0);
	/* no trailing zeros after the point: 0.0010 -> 0.001 */
	if (strchr(out, '.')) {
		size_t n = strlen(out);
		while (n > 0 && out[n - 1] == '0') out[--n] = '\0';
		if (n > 0 && out[n - 1] == '.') out[--n] = '\0';
	}
}

