/* A moment of a run drawn again: the frame of a trace nearest a time, and the run folder
 * (trace.bin + run.json, docs/run-folder.md) drawn at a time typed by a user. The trace
 * is passed over frame by frame without reading the men (rt_trace_reader_skip), so
 * finding a moment late in a long run reads little more than that one frame. */
#include "canvas.h"
#include "run_folder.h"
#include "rout/env.h"
#include "rout/picture.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- a moment of a trace ------------------------------------------------------------------------ */
static size_t moment_bytes(size_t capacity)
{
	return (capacity > 0 ? capacity : 1) * (2 * sizeof(float) + 3); /* x, y, state, side, morale */
}

void rt_trace_moment_free(rt_trace_moment *m)
{
	if (!m) return;
	if (m->frame.x) rt__free(&m->allocator, (void *)m->frame.x, moment_bytes(m->capacity));
	memset(&m->frame, 0, sizeof m->frame);
	m->capacity = 0;
}

rt_status rt_trace_read_moment(const char *path, double time_s, const rt_allocator *allocator, rt_trace_moment *out, rt_error *err)
{
	rt__error_clear(err);
	if (!out) return rt__fail(err, RT_ERR_INVALID, "no moment to fill");
	memset(out, 0, sizeof *out);
	out->allocator = allocator && allocator->alloc ? *allocator : rt_allocator_default();
	if (!path) return rt__fail(err, RT_ERR_INVALID, "no trace path");
	if (isnan(time_s)) return rt__fail_at(err, RT_ERR_INVALID, path, 0, 0, "time_s", "the time of the moment is not a number");
	rt_trace_reader *r = rt_trace_reader_open(path, &out->allocator, err);
	if (!r) return err ? err->code : RT_ERR_IO;
	out->origin = rt_trace_reader_origin(r);
	rt_trace_frame f;
	rt_status s;
	int frames = 0, best = -1;
	double best_gap = INFINITY;
	while ((s = rt_trace_reader_skip(r, &f, err)) == RT_OK) {
		if (frames == 0) out->first_time_s = f.time_s;
		out->last_time_s = f.time_s;
		const double gap = fabs(f.time_s - time_s);
		if (gap < best_gap || (isinf(time_s) && time_s > 0)) {
			best_gap = gap;
			best = frames;
		}
		if (isinf(time_s) && time_s < 0 && best < 0) best = 0;
		frames++;
	}
	rt_trace_reader_close(r);
	if (s != RT_ERR_STATE) return s;
	rt__error_clear(err);
	if (frames == 0 || best < 0) return rt__fail_at(err, RT_ERR_INVALID, path, 0, 0, NULL, "the trace has no frames");
	if (!(r = rt_trace_reader_open(path, &out->allocator, err))) return err ? err->code : RT_ERR_IO;
	s = RT_OK;
	for (int k = 0; k < best && (s = rt_trace_reader_skip(r, &f, err)) == RT_OK; ++k) {}
	if (s == RT_OK) s = rt_trace_reader_next(r, &f, err);
	if (s != RT_OK) {
		rt_trace_reader_close(r);
		return s == RT_ERR_STATE ? rt__fail_at(err, RT_ERR_IO, path, 0, 0, NULL, "the trace changed while it was read") : s;
	}
	const size_t n = (size_t)f.count;
	unsigned char *block = rt__alloc(&out->allocator, moment_bytes(n));
	if (!block) {
		rt_trace_reader_close(r);
		return rt__fail(err, RT_ERR_NOMEM, "cannot allocate a frame of %zu men", n);
	}
	float *x = (float *)(void *)block, *y = x + n;
	uint8_t *state = (uint8_t *)(y + n), *side = state + n, *morale = side + n;
	if (n) {
		memcpy(x, f.x, n * sizeof(float));
		memcpy(y, f.y, n * sizeof(float));
		memcpy(state, f.state, n);
		memcpy(side, f.side, n);
		if (f.morale) memcpy(morale, f.morale, n);
	}
	rt_trace_reader_close(r);
	out->frame = f;
	out->frame.x = x;
	out->frame.y = y;
	out->frame.state = state;
	out->frame.side = side;
	out->frame.morale = f.morale ? morale : NULL;
	out->capacity = n;
	out->frame_index = best;
	out->frame_count = frames;
	return RT_OK;
}

/* ---- run.json ------------------------------------------------------------------------------ */
void rt__run_info_free(rt__run_info *ri)
{
	const size_t c = (size_t)(ri->commander_count > 0 ? ri->commander_count : 1), n = (size_t)(ri->series_count > 0 ? ri->series_count : 1);
	rt__free(&ri->allocator, ri->commanders, c * sizeof *ri->commanders);
	rt__free(&ri->allocator, ri->commander_names, c * sizeof *ri->commander_names);
	rt__free(&ri->allocator, ri->series_time, n * sizeof(double));
	rt__free(&ri->allocator, ri->series_sea, n * sizeof(double));
	rt__free(&ri->allocator, ri->series_lux, n * sizeof(double));
	ri->commanders = NULL;
	ri->commander_names = NULL;
	ri->series_time = ri->series_sea = ri->series_lux = NULL;
}

/* A path from run.json: as given when absolute, else inside the run folder. */
static void folder_path(char *out, size_t size, const char *folder, const char *name)
{
	if (name[0] == '/') snprintf(out, size, "%s", name);
	else snprintf(out, size, "%s/%s", folder, name);
}

/* "1641-09-25T18:00[:SS][+08:00|Z]": the civil time; *offset_h is set when the text names
 * a zone (NaN otherwise). False when it is not such a time. */
static bool parse_local_time(const char *text, int *year, int *month, int *day, int *hour, int *minute, double *second, double *offset_h)
{
	*offset_h = NAN;
	*second = 0.0;
	int used = 0;
	char sep;
	if (sscanf(text, "%d-%d-%d%c%d:%d%n", year, month, day, &sep, hour, minute, &used) != 6 || (sep != 'T' && sep != ' '))
		return false;
	const char *p = text + used;
	if (*p == ':') {
		char *end;
		*second = strtod(p + 1, &end);
		if (end == p + 1 || !(*second >= 0.0 && *second < 61.0)) return false;
		p = end;
	}
	if (*p == 'Z') {
		*offset_h = 0.0;
		p++;
	} else if (*p == '+' || *p == '-') {
		int oh = 0, om = 0, n = 0;
		if (sscanf(p + 1, "%d:%d%n", &oh, &om, &n) != 2) return false;
		*offset_h = (*p == '-' ? -1.0 : 1.0) * (oh + om / 60.0);
		p += 1 + n;
	}
	return *p == '\0' && *month >= 1 && *month <= 12 && *day >= 1 && *day <= 31 && *hour >= 0 && *hour <= 23 && *minute >= 0 &&
	       *minute <= 59;
}

static rt_status json_fail(rt_error *err, const rt__run_info *ri, const char *field, const char *fmt, const char *detail)
{
	return rt__fail_at(err, RT_ERR_INVALID, ri->json_path, 0, 0, field, fmt, detail);
}

static rt_status read_series(json_t *series, rt__run_info *ri, rt_error *err)
{
	if (!json_is_object(series)) return json_fail(err, ri, "series", "series: expected an object of arrays {\"time_s\": [...], \"sea_level_m\": [...], \"light_lux\": [...]}%s", "");
	json_t *t = json_object_get(series, "time_s");
	if (!json_is_array(t) || json_array_size(t) < 1)
		return json_fail(err, ri, "series.time_s", "series.time_s: expected an array of simulated seconds%s", "");
	const size_t n = json_array_size(t);
	if (n > 10000000) return json_fail(err, ri, "series.time_s", "series.time_s: more than 10,000,000 samples%s", "");
	ri->series_count = (int)n;
	static const char *const names[3] = { "time_s", "sea_level_m", "light_lux" };
	double **dest[3] = { &ri->series_time, &ri->series_sea, &ri->series_lux };
	for (int k = 0; k < 3; ++k) {
		json_t *a = json_object_get(series, names[k]);
		char field[64];
		snprintf(field, sizeof field, "series.%s", names[k]);
		if (!a) continue;
		if (!json_is_array(a) || json_array_size(a) != n)
			return rt__fail_at(err, RT_ERR_INVALID, ri->json_path, 0, 0, field, "%s: expected an array of %zu numbers, as long as series.time_s", field, n);
		*dest[k] = rt__alloc(&ri->allocator, n * sizeof(double));
		if (!*dest[k]) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate a series of %zu samples", n);
		for (size_t i = 0; i < n; ++i) {
			json_t *v = json_array_get(a, i);
			const double x = json_is_number(v) ? json_number_value(v) : NAN;
			if (!isfinite(x) || (k == 0 && i > 0 && x < (*dest[k])[i - 1]) || (k == 2 && x <= 0.0))
				return rt__fail_at(err, RT_ERR_INVALID, ri->json_path, 0, 0, field, "%s[%zu]: expected %s", field, i,
						   k == 0 ? "a number of seconds, not less than the one before" : k == 2 ? "a light above 0 lux" : "a number of metres");
			(*dest[k])[i] = x;
		}
	}
	return RT_OK;
}

rt_status rt__run_info_read(const char *folder, rt__run_info *ri, rt_error *err)
{
	snprintf(ri->folder, sizeof ri->folder, "%s", folder);
	snprintf(ri->json_path, sizeof ri->json_path, "%s/run.json", folder);
	json_error_t je;
	json_t *root = json_load_file(ri->json_path, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		FILE *probe = fopen(ri->json_path, "rb");
		if (!probe) return rt__fail_at(err, RT_ERR_IO, ri->json_path, 0, 0, NULL, "cannot open the run's description: %s", strerror(errno));
		fclose(probe);
		return rt__fail_at(err, RT_ERR_PARSE, ri->json_path, je.line, je.column, NULL, "not JSON: %s", je.text);
	}
	rt_status s = RT_OK;
	if (!json_is_object(root)) {
		s = json_fail(err, ri, "", "expected an object {\"map\": ..., \"start\": ..., \"timezone_h\": ...}%s", "");
		goto done;
	}
	json_t *map = json_object_get(root, "map"), *start = json_object_get(root, "start"), *tz = json_object_get(root, "timezone_h");
	if (!json_is_string(map) || !json_string_length(map)) {
		s = json_fail(err, ri, "map", "map: expected the path of the map (GeoJSON), relative to the run folder%s", "");
		goto done;
	}
	folder_path(ri->map_path, sizeof ri->map_path, folder, json_string_value(map));
	json_t *trace = json_object_get(root, "trace");
	if (trace && !json_is_string(trace)) {
		s = json_fail(err, ri, "trace", "trace: expected the path of the trace, relative to the run folder%s", "");
		goto done;
	}
	folder_path(ri->trace_path, sizeof ri->trace_path, folder, trace ? json_string_value(trace) : "trace.bin");
	json_t *fire = json_object_get(root, "fire");
	if (fire && (!json_is_string(fire) || !json_string_length(fire))) {
		s = json_fail(err, ri, "fire", "fire: expected the path of the fire log (fire.bin), relative to the run folder%s", "");
		goto done;
	}
	if (fire) folder_path(ri->fire_path, sizeof ri->fire_path, folder, json_string_value(fire));
	double zone_in_start = NAN;
	int y, mo, d, h, mi;
	double sec;
	if (!json_is_string(start) || !parse_local_time(json_string_value(start), &y, &mo, &d, &h, &mi, &sec, &zone_in_start)) {
		s = json_fail(err, ri, "start", "start: %s; expected the local time of the run's start like \"1641-09-25T18:00\"",
			      json_is_string(start) ? json_string_value(start) : "missing or not a string");
		goto done;
	}
	if (tz && !(json_is_number(tz) && json_number_value(tz) >= -14.0 && json_number_value(tz) <= 14.0)) {
		s = json_fail(err, ri, "timezone_h", "timezone_h: expected the hours the run's clock is ahead of UT, -14..14 (8 for China)%s", "");
		goto done;
	}
	if (!tz && isnan(zone_in_start)) {
		s = json_fail(err, ri, "timezone_h", "timezone_h: missing; expected the hours the run's clock is ahead of UT (8 for China)%s", "");
		goto done;
	}
	ri->timezone_h = tz ? json_number_value(tz) : zone_in_start;
	if (!isnan(zone_in_start) && fabs(zone_in_start - ri->timezone_h) > 1e-9) {
		s = json_fail(err, ri, "start", "start: %s names a time zone other than timezone_h", json_string_value(start));
		goto done;
	}
	ri->start_jd_ut = rt_julian_day_from_civil(y, mo, d, h, mi, sec, ri->timezone_h);
	json_t *title = json_object_get(root, "title");
	if (json_is_string(title)) snprintf(ri->title, sizeof ri->title, "%s", json_string_value(title));
	json_t *sides = json_object_get(root, "sides");
	if (sides) {
		if (!json_is_array(sides) || json_array_size(sides) > MAX_SIDE_NAMES) {
			s = json_fail(err, ri, "sides", "sides: expected an array of at most 8 names, e.g. [\"Ming\", \"Qing\"]%s", "");
			goto done;
		}
		for (size_t i = 0; i < json_array_size(sides); ++i) {
			json_t *v = json_array_get(sides, i);
			if (!json_is_string(v)) {
				s = json_fail(err, ri, "sides", "sides: expected names (strings)%s", "");
				goto done;
			}
			snprintf(ri->side_names[i], sizeof ri->side_names[i], "%s", json_string_value(v));
		}
		ri->side_count = (int)json_array_size(sides);
	}
	json_t *commanders = json_object_get(root, "commanders");
	if (commanders) {
		if (!json_is_array(commanders) || json_array_size(commanders) > MAX_COMMANDERS) {
			s = json_fail(err, ri, "commanders", "commanders: expected an array of {\"agent\": id, \"name\": \"...\"}%s", "");
			goto done;
		}
		const size_t n = json_array_size(commanders);
		ri->commanders = rt__alloc(&ri->allocator, (n > 0 ? n : 1) * sizeof *ri->commanders);
		ri->commander_names = rt__alloc(&ri->allocator, (n > 0 ? n : 1) * sizeof *ri->commander_names);
		ri->commander_count = (int)n;
		if (!ri->commanders || !ri->commander_names) {
			s = rt__fail(err, RT_ERR_NOMEM, "cannot allocate %zu commanders", n);
			goto done;
		}
		for (size_t i = 0; i < n; ++i) {
			json_t *c = json_array_get(commanders, i), *agent = json_object_get(c, "agent"), *name = json_object_get(c, "name");
			char field[64];
			snprintf(field, sizeof field, "commanders[%zu]", i);
			if (!json_is_integer(agent) || json_integer_value(agent) < 0 || json_integer_value(agent) > UINT32_MAX ||
			    (name && !json_is_string(name))) {
				s = rt__fail_at(err, RT_ERR_INVALID, ri->json_path, 0, 0, field, "%s: expected {\"agent\": a whole number >= 0, \"name\": a string}", field);
				goto done;
			}
			ri->commanders[i] = (rt_agent_id)json_integer_value(agent);
			snprintf(ri->commander_names[i], sizeof ri->commander_names[i], "%s", name ? json_string_value(name) : "");
		}
	}
	json_t *series = json_object_get(root, "series");
	if (series) s = read_series(series, ri, err);
done:
	json_decref(root);
	return s;
}

/* ---- when ---------------------------------------------------------------------------------- */
/* The simulated time of what the user typed; INFINITY for the end, -INFINITY the start. */
rt_status rt__run_time_parse(const char *at, const rt__run_info *ri, double *t, rt_error *err)
{
	if (!at || !at[0] || strcmp(at, "end") == 0) {
		*t = INFINITY;
		return RT_OK;
	}
	if (strcmp(at, "start") == 0) {
		*t = -INFINITY;
		return RT_OK;
	}
	int y, mo, d, h, mi;
	double sec, zone;
	if (parse_local_time(at, &y, &mo, &d, &h, &mi, &sec, &zone)) {
		const double jd = rt_julian_day_from_civil(y, mo, d, h, mi, sec, isnan(zone) ? ri->timezone_h : zone);
		*t = (jd - ri->start_jd_ut) * 86400.0;
		return RT_OK;
	}
	int hh, mm, used = 0;
	double ss = 0.0;
	if (sscanf(at, "%d:%d%n", &hh, &mm, &used) == 2 && hh >= 0 && hh <= 23 && mm >= 0 && mm <= 59) {
		const char *p = at + used;
		bool ok = *p == '\0';
		if (*p == ':') {
			char *end;
			ss = strtod(p + 1, &end);
			ok = end != p + 1 && *end == '\0' && ss >= 0.0 && ss < 60.0;
		}
		if (ok) {
			/* the first such moment at or after the start */
			const rt_civil_time c = rt_civil_from_julian_day(ri->start_jd_ut, ri->timezone_h);
			double dt = (hh * 3600.0 + mm * 60.0 + ss) - (c.hour * 3600.0 + c.minute * 60.0 + c.second);
			if (dt < -0.5) dt += 86400.0;
			*t = dt;
			return RT_OK;
		}
	}
	char *end;
	const double v = strtod(at, &end);
	if (end != at && isfinite(v)) {
		while (*end == ' ') end++;
		const double unit = strcmp(end, "s") == 0 ? 1.0 : strcmp(end, "min") == 0 ? 60.0 : strcmp(end, "h") == 0 ? 3600.0 : 0.0;
		if (unit > 0.0) {
			*t = v * unit;
			return RT_OK;
		}
	}
	return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "at",
			   "\"%s\" is not a time; expected HH:MM on the run's clock, 1641-09-25T20:40, a simulated time like 90min, 5400s or 1.5h, "
			   "start or end", at);
}

/* The sampled series at t: sea level linearly, light geometrically (it spans decades). */
static double series_at(const rt__run_info *ri, const double *v, double t, bool geometric)
{
	if (!v || ri->series_count < 1) return NAN;
	const double *ts = ri->series_time;
	const int n = ri->series_count;
	if (t <= ts[0]) return v[0];
	if (t >= ts[n - 1]) return v[n - 1];
	int lo = 0, hi = n - 1;
	while (hi - lo > 1) {
		const int mid = (lo + hi) / 2;
		if (ts[mid] <= t) lo = mid;
		else hi = mid;
	}
	const double k = ts[hi] > ts[lo] ? (t - ts[lo]) / (ts[hi] - ts[lo]) : 0.0;
	return geometric ? exp(log(v[lo]) + (log(v[hi]) - log(v[lo])) * k) : v[lo] + (v[hi] - v[lo]) * k;
}

rt_render_def rt_render_def_default(void)
{
	rt_render_def d;
	memset(&d, 0, sizeof d);
	d.width_px = 1600;
	d.allocator = rt_allocator_default();
	d.cookie = RT_COOKIE;
	return d;
}

rt_status rt_render_run(const rt_render_def *def, char *written, size_t written_size, double *frame_time_s, rt_error *err)
{
	rt__error_clear(err);
	if (!def || def->cookie != RT_COOKIE) return rt__fail(err, RT_ERR_INVALID, "render definition was not made by rt_render_def_default()");
	if (!def->run_folder || !def->run_folder[0]) return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "run_folder", "no run folder");
	if (strlen(def->run_folder) >= 1000) return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "run_folder", "the run folder's path is too long");
	const rt_allocator a = def->allocator.alloc && def->allocator.free ? def->allocator : rt_allocator_default();
	rt__run_info *ri = rt__calloc(&a, 1, sizeof *ri);
	if (!ri) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the run's description");
	ri->allocator = a;
	rt_map *map = NULL;
	rt_fire_log *fire = NULL;
	rt_trace_moment m;
	memset(&m, 0, sizeof m);
	m.allocator = a;
	rt_status s = rt__run_info_read(def->run_folder, ri, err);
	double t = 0.0;
	if (s == RT_OK) s = rt__run_time_parse(def->at, ri, &t, err);
	if (s == RT_OK) s = rt_trace_read_moment(ri->trace_path, t, &a, &m, err);
	if (s == RT_OK && isfinite(t)) {
		const double spacing = m.frame_count > 1 ? (m.last_time_s - m.first_time_s) / (m.frame_count - 1) : 0.0;
		if (t < m.first_time_s - spacing - 1e-6 || t > m.last_time_s + spacing + 1e-6) {
			char from[64], to[64];
			rt__format_clock(from, sizeof from, ri->start_jd_ut + m.first_time_s / 86400.0, ri->timezone_h, true, true);
			rt__format_clock(to, sizeof to, ri->start_jd_ut + m.last_time_s / 86400.0, ri->timezone_h, true, true);
			s = rt__fail_at(err, RT_ERR_INVALID, ri->trace_path, 0, 0, "at",
					"%s is outside the run, which covers %s to %s (%.0f to %.0f s)", def->at, from, to, m.first_time_s, m.last_time_s);
		}
	}
	for (int k = 0; s == RT_OK && k < ri->commander_count; ++k)
		if (ri->commanders[k] >= (rt_agent_id)m.frame.count) {
			char field[64];
			snprintf(field, sizeof field, "commanders[%d]", k);
			s = rt__fail_at(err, RT_ERR_INVALID, ri->json_path, 0, 0, field, "%s: agent %u is not in the trace, which has %d men", field,
					(unsigned)ri->commanders[k], m.frame.count);
		}
	if (s == RT_OK) {
		rt_map_def md = rt_map_def_default();
		md.allocator = a;
		s = rt_map_load(ri->map_path, &md, &map, err);
	}
	if (s == RT_OK && ri->fire_path[0]) s = rt_fire_log_read(ri->fire_path, &a, &fire, err);
	if (s == RT_OK) {
		/* where the picture goes */
		const double jd = ri->start_jd_ut + m.frame.time_s / 86400.0;
		const rt_civil_time c = rt_civil_from_julian_day(jd + 0.5 / 86400.0, ri->timezone_h);
		const int whole_s = (int)floor(c.second);
		rt_image_format format = def->out_path ? rt__image_format_for(def->out_path, def->format)
						       : (def->format == RT_IMAGE_SVG ? RT_IMAGE_SVG : RT_IMAGE_PNG);
		char out[1200];
		if (def->out_path) snprintf(out, sizeof out, "%s", def->out_path);
		else if (whole_s == 0)
			snprintf(out, sizeof out, "%s/render-%04d-%02d-%02dT%02d%02d.%s", def->run_folder, c.year, c.month, c.day, c.hour, c.minute,
				 format == RT_IMAGE_SVG ? "svg" : "png");
		else
			snprintf(out, sizeof out, "%s/render-%04d-%02d-%02dT%02d%02d%02d.%s", def->run_folder, c.year, c.month, c.day, c.hour,
				 c.minute, whole_s, format == RT_IMAGE_SVG ? "svg" : "png");
		const char *names[MAX_SIDE_NAMES];
		for (int i = 0; i < ri->side_count; ++i) names[i] = ri->side_names[i];
		const char **commander_names = NULL;
		if (ri->commander_count > 0) {
			commander_names = rt__alloc(&a, (size_t)ri->commander_count * sizeof *commander_names);
			if (!commander_names) s = rt__fail(err, RT_ERR_NOMEM, "cannot allocate the commanders' names");
			for (int k = 0; commander_names && k < ri->commander_count; ++k) commander_names[k] = ri->commander_names[k];
		}
		if (s == RT_OK) {
			rt_frame_overlay o = rt_frame_overlay_default();
			o.origin = m.origin;
			o.start_jd_ut = ri->start_jd_ut;
			o.sea_level_m = series_at(ri, ri->series_sea, m.frame.time_s, false);
			o.light_lux = series_at(ri, ri->series_lux, m.frame.time_s, true);
			o.commanders = ri->commanders;
			o.commander_names = commander_names;
			o.commander_count = ri->commander_count;
			o.fire = fire;
			rt_picture_def pd = rt_picture_def_default();
			pd.path = out;
			pd.format = format;
			pd.width_px = def->width_px > 0 ? def->width_px : 1600;
			pd.title = def->title ? def->title : ri->title[0] ? ri->title : NULL;
			pd.side_names = names;
			pd.side_name_count = ri->side_count;
			pd.utc_offset_h = ri->timezone_h;
			pd.allocator = a;
			s = rt_picture_draw_frame(map, &m.frame, &o, &pd, err);
		}
		if (commander_names) rt__free(&a, commander_names, (size_t)ri->commander_count * sizeof *commander_names);
		if (s == RT_OK) {
			if (written && written_size) snprintf(written, written_size, "%s", out);
			if (frame_time_s) *frame_time_s = m.frame.time_s;
		}
	}
	rt_map_destroy(map);
	rt_fire_log_destroy(fire);
	rt_trace_moment_free(&m);
	rt__run_info_free(ri);
	rt__free(&a, ri, sizeof *ri);
	return s;
}
