/* The drawing base shared by plots (plot.c) and pictures (picture.c): a cairo surface
 * that becomes a PNG or an SVG file written whole or not at all, the fonts, text with a
 * halo, round numbers for axes and the clock in words. Only src/ sees this header. */
#ifndef RT_CANVAS_H
#define RT_CANVAS_H

#include "atomic.h"
#include "core.h"

#include <cairo.h>

/* Every text is drawn in this face: it holds Chinese and Latin glyphs alike (Debian
 * fonts-noto-cjk), so one face serves 松山堡 and "Songshan". */
#define RT__FONT_FAMILY "Noto Sans CJK SC"

#define RT__PI 3.14159265358979323846

typedef struct rt__canvas {
	cairo_surface_t *surface;
	cairo_t *cr;
	rt_image_format format; /* PNG or SVG, never AUTO */
	int width, height;      /* pixels (PNG) or points (SVG) */
	char path[1024];
	rt_atomic_file file;    /* the output, written under a temporary name (atomic.h) */
} rt__canvas;

/* PNG or SVG for a path and a requested format: AUTO means SVG when the path ends in
 * ".svg" (any case) and PNG otherwise. */
rt_image_format rt__image_format_for(const char *path, rt_image_format format);
/* A white-free canvas of width x height; cr is ready to draw on. */
rt_status rt__canvas_open(rt__canvas *c, const char *path, rt_image_format format, int width, int height, rt_error *err);
/* Writes the file under its temporary name, fsyncs it and renames it into place
 * (rt__atomic_commit); on any failure nothing is left at either name. Always releases
 * the canvas. */
rt_status rt__canvas_close(rt__canvas *c, rt_error *err);
/* Releases the canvas and leaves no file. */
void rt__canvas_abort(rt__canvas *c);

/* A scratch context for measuring text before the canvas exists (destroy with
 * rt__measure_end). */
cairo_t *rt__measure_begin(void);
void rt__measure_end(cairo_t *cr);

void rt__font(cairo_t *cr, double size_px, bool bold);
double rt__text_width(cairo_t *cr, const char *text);
/* Draws text with its reference point at (x, y): align_x 0 left, 0.5 centre, 1 right;
 * y is the baseline. With halo_px > 0 a light outline of that width is drawn first so the
 * text stays legible over the map or the lines of a plot. */
void rt__text(cairo_t *cr, double x, double y, const char *text, double align_x, double halo_px);

/* "#rrggbb" or "#rgb" into 0..1 components; false when the text is neither. */
bool rt__parse_colour(const char *text, double rgb[3]);

/* A round step for an axis spanning `span` with about `ticks` intervals: 1, 2, 2.5 or 5
 * times a power of ten. */
double rt__nice_step(double span, int ticks);
/* v with as many decimals as `step` needs, thousands separated by commas and a true
 * minus sign (U+2212). */
void rt__format_number(char *out, size_t size, double v, double step);

/* The clock: "25 Sep 1641 20:40" and parts of it, for an instant in Julian Days (UT) on
 * a clock utc_offset_h ahead of UT. */
void rt__format_clock(char *out, size_t size, double jd_ut, double utc_offset_h, bool with_date, bool with_year);
/* "+8", "+5:30", "-3" */
void rt__format_utc_offset(char *out, size_t size, double utc_offset_h);
/* "1:05:09" for a duration in seconds (negative gets a minus sign). */
void rt__format_duration(char *out, size_t size, double seconds);
/* Light for a reader: two significant figures ("0.001", "0.25", "760", "12,000") and a
 * word: "day" from RT_DAY_LUX, "twilight" from RT_TWILIGHT_LUX, "night" below. */
void rt__format_lux(char *out, size_t size, double lux);
const char *rt__light_word(double lux);
/* The whole hours of a time zone for a longitude (east-positive, may be 0..360). */
double rt__utc_offset_for_longitude(double longitude_deg);

#endif
