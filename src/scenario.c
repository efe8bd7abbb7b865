/* The scenario reader: YAML (yaml_tree.c) to the checked, index-resolved scenario of
 * scenario_internal.h. Strict by design (docs/scenario-format.md): every mapping's keys
 * are checked against the keys it may have, every number against its range, every
 * reference against what it names; the first problem is returned with the file, line,
 * column, the key path and what was expected. Sections are read in dependency order
 * (sides, places, corps and their units, triggers, parameters, history), and ids that
 * may be named before they are defined (triggers naming triggers) are collected first. */
#include "scenario_internal.h"
#include "yaml_tree.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct reader {
	rt_scenario *sc;
	const char *file;
	rt_error *err;
	const rt_allocator *a;
	const rt_ynode *corps;  /* the corps mapping, while it is read: a hunt may name a corps below */
} reader;

#define PATH_SIZE 256

static rt_status bad(reader *r, const rt_ynode *n, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static rt_status bad(reader *r, const rt_ynode *n, const char *path, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return rt__fail_at(r->err, RT_ERR_INVALID, r->file, n ? n->line : 0, n ? n->column : 0, path, "%s: %s", path,
			   msg);
}

static const char *type_word(const rt_ynode *n)
{
	return n->type == RT_YNODE_MAP ? "a mapping" : n->type == RT_YNODE_SEQ ? "a list" : "a value";
}

/* out = path.key, cut to PATH_SIZE - 1 bytes (paths are for messages). */
static void join(char *out, const char *path, const char *key)
{
	size_t used = 0;
	for (const char *p = path; *p && used < PATH_SIZE - 1; p++) out[used++] = *p;
	if (path[0] && used < PATH_SIZE - 1) out[used++] = '.';
	for (const char *p = key; *p && used < PATH_SIZE - 1; p++) out[used++] = *p;
	out[used] = '\0';
}

static void join_index(char *out, const char *path, int index)
{
	char num[16];
	snprintf(num, sizeof num, "%d", index);
	join(out, path, num);
}

static rt_status need_map(reader *r, const rt_ynode *n, const char *path)
{
	if (n->type != RT_YNODE_MAP) return bad(r, n, path, "expected a mapping (key: value lines), found %s", type_word(n));
	return RT_OK;
}

static rt_status need_seq(reader *r, const rt_ynode *n, const char *path)
{
	if (n->type != RT_YNODE_SEQ) return bad(r, n, path, "expected a list, found %s", type_word(n));
	return RT_OK;
}

/* Every key of map must be among allowed (NULL-terminated). */
static rt_status check_keys(reader *r, const rt_ynode *map, const char *path, const char *const *allowed)
{
	for (int i = 0; i < map->count; i++) {
		bool ok = false;
		for (int k = 0; allowed[k]; k++)
			if (strcmp(map->keys[i], allowed[k]) == 0) ok = true;
		if (ok) continue;
		char list[300] = "";
		size_t used = 0;
		for (int k = 0; allowed[k] && used < sizeof list - 40; k++)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", allowed[k]);
		char p[PATH_SIZE];
		join(p, path, map->keys[i]);
		return rt__fail_at(r->err, RT_ERR_INVALID, r->file, map->key_lines[i], map->key_columns[i], p,
				   "%s: unknown key \"%s\"; expected one of: %s", p, map->keys[i], list);
	}
	return RT_OK;
}

static rt_status get_node(reader *r, const rt_ynode *map, const char *key, const char *path, bool required,
			  const rt_ynode **out)
{
	*out = rt__yaml_get(map, key);
	if (!*out && required) {
		char p[PATH_SIZE];
		join(p, path, key);
		return bad(r, map, p, "missing; this key is required");
	}
	return RT_OK;
}

static rt_status scalar_number(reader *r, const rt_ynode *n, const char *path, double lo, double hi, double *out)
{
	if (n->type != RT_YNODE_SCALAR) return bad(r, n, path, "expected a number, found %s", type_word(n));
	const char *t = n->text;
	char *end = NULL;
	errno = 0;
	double v = t[0] ? strtod(t, &end) : 0.0;
	if (!t[0] || *end != '\0' || n->quoted)
		return bad(r, n, path, "expected a number in %g..%g, found \"%s\"", lo, hi, t);
	if (!isfinite(v) || errno == ERANGE) return bad(r, n, path, "expected a finite number in %g..%g, found \"%s\"", lo, hi, t);
	if (v < lo || v > hi) return bad(r, n, path, "expected a number in %g..%g, found %s", lo, hi, t);
	*out = v;
	return RT_OK;
}

static rt_status get_number(reader *r, const rt_ynode *map, const char *key, const char *path, bool required,
			    double lo, double hi, double *out)
{
	const rt_ynode *n;
	rt_status s = get_node(r, map, key, path, required, &n);
	if (s != RT_OK || !n) return s;
	char p[PATH_SIZE];
	join(p, path, key);
	return scalar_number(r, n, p, lo, hi, out);
}

static rt_status scalar_int(reader *r, const rt_ynode *n, const char *path, long long lo, long long hi, long long *out)
{
	if (n->type != RT_YNODE_SCALAR) return bad(r, n, path, "expected a whole number, found %s", type_word(n));
	const char *t = n->text;
	char *end = NULL;
	errno = 0;
	long long v = t[0] ? strtoll(t, &end, 10) : 0;
	if (!t[0] || *end != '\0' || n->quoted)
		return bad(r, n, path, "expected a whole number in %lld..%lld, found \"%s\"", lo, hi, t);
	if (errno == ERANGE || v < lo || v > hi)
		return bad(r, n, path, "expected a whole number in %lld..%lld, found %s", lo, hi, t);
	*out = v;
	return RT_OK;
}

static rt_status get_int(reader *r, const rt_ynode *map, const char *key, const char *path, bool required,
			 long long lo, long long hi, int *out)
{
	const rt_ynode *n;
	rt_status s = get_node(r, map, key, path, required, &n);
	if (s != RT_OK || !n) return s;
	char p[PATH_SIZE];
	join(p, path, key);
	long long v = 0;
	s = scalar_int(r, n, p, lo, hi, &v);
	if (s == RT_OK) *out = (int)v;
	return s;
}

static rt_status get_bool(reader *r, const rt_ynode *map, const char *key, const char *path, bool *out)
{
	const rt_ynode *n = rt__yaml_get(map, key);
	if (!n) return RT_OK;
	char p[PATH_SIZE];
	join(p, path, key);
	if (n->type == RT_YNODE_SCALAR && !n->quoted) {
		if (strcmp(n->text, "true") == 0 || strcmp(n->text, "yes") == 0) { *out = true; return RT_OK; }
		if (strcmp(n->text, "false") == 0 || strcmp(n->text, "no") == 0) { *out = false; return RT_OK; }
	}
	return bad(r, n, p, "expected true or false, found %s%s%s", n->type == RT_YNODE_SCALAR ? "\"" : "",
		   n->type == RT_YNODE_SCALAR ? n->text : type_word(n), n->type == RT_YNODE_SCALAR ? "\"" : "");
}

static rt_status scalar_text(reader *r, const rt_ynode *n, const char *path, char *out, size_t size)
{
	if (n->type != RT_YNODE_SCALAR) return bad(r, n, path, "expected a text, found %s", type_word(n));
	if (strlen(n->text) >= size) return bad(r, n, path, "text longer than %zu bytes", size - 1);
	snprintf(out, size, "%s", n->text);
	return RT_OK;
}

static rt_status get_text(reader *r, const rt_ynode *map, const char *key, const char *path, bool required, char *out,
			  size_t size)
{
	const rt_ynode *n;
	rt_status s = get_node(r, map, key, path, required, &n);
	if (s != RT_OK || !n) return s;
	char p[PATH_SIZE];
	join(p, path, key);
	return scalar_text(r, n, p, out, size);
}

static rt_status check_id(reader *r, const rt_ynode *map, int i, const char *path)
{
	const char *id = map->keys[i];
	size_t n = strlen(id);
	bool ok = n > 0 && n < RT_SCENARIO_ID_SIZE;
	for (size_t k = 0; ok && k < n; k++) {
		char c = id[k];
		ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
	}
	if (ok) return RT_OK;
	char p[PATH_SIZE];
	join(p, path, id);
	return rt__fail_at(r->err, RT_ERR_INVALID, r->file, map->key_lines[i], map->key_columns[i], p,
			   "%s: the id \"%s\" must be 1-63 characters of a-z, 0-9, _ and -", p, id);
}

/* ---- names ------------------------------------------------------------------------- */
/* The index of the entry whose id is id in a table of structs that begin with their
 * id (sides, places, corps, units, triggers), or -1. */
static int find_id(const void *table, int count, size_t stride, const char *id)
{
	for (int i = 0; i < count; i++)
		if (strcmp((const char *)table + (size_t)i * stride, id) == 0) return i;
	return -1;
}

static int find_side(const rt_scenario *sc, const char *id) { return find_id(sc->sides, sc->side_count, sizeof(rt_sc_side), id); }
static int find_place(const rt_scenario *sc, const char *id) { return find_id(sc->places, sc->place_count, sizeof(rt_sc_place), id); }
static int find_corps(const rt_scenario *sc, const char *id) { return find_id(sc->corps, sc->corps_count, sizeof(rt_sc_corps), id); }
static int find_unit(const rt_scenario *sc, const char *id) { return find_id(sc->units, sc->unit_count, sizeof(rt_sc_unit), id); }
static int find_trigger(const rt_scenario *sc, const char *id)
{
	return find_id(sc->triggers, sc->trigger_count, sizeof(rt_sc_trigger), id);
}

/* A reference: the text must name an existing thing; the message lists what exists. */
typedef int find_fn(const rt_scenario *sc, const char *id);

static rt_status get_ref(reader *r, const rt_ynode *map, const char *key, const char *path, bool required,
			 find_fn *find, const char *what, int *out)
{
	const rt_ynode *n;
	rt_status s = get_node(r, map, key, path, required, &n);
	if (s != RT_OK || !n) return s;
	char p[PATH_SIZE];
	join(p, path, key);
	if (n->type != RT_YNODE_SCALAR) return bad(r, n, p, "expected the id of a %s, found %s", what, type_word(n));
	int i = find(r->sc, n->text);
	if (i < 0) return bad(r, n, p, "no %s has the id \"%s\"", what, n->text);
	*out = i;
	return RT_OK;
}

/* A corps' `refuge` or `ranks_refuge`: a place id, or YAML's null (`null`, `~` or
 * nothing, not quoted) for none, as if the key were not there — so that `--set corps.man_ku.refuge=null`
 * asks what if he had stood to the end. */
static rt_status get_refuge(reader *r, const rt_ynode *map, const char *key, const char *path, int *out)
{
	const rt_ynode *n = rt__yaml_get(map, key);
	if (n && n->type == RT_YNODE_SCALAR && !n->quoted && (!n->text[0] || strcmp(n->text, "null") == 0 || strcmp(n->text, "~") == 0))
		return RT_OK;
	return get_ref(r, map, key, path, false, find_place, "place", out);
}

/* ---- time ---------------------------------------------------------------------------- */
static bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* "YYYY-MM-DDTHH:MM" or with ":SS", 'T' or a space; local time of the scenario. */
static bool parse_civil(const char *t, rt_civil_time *c)
{
	int y, mo, d, h, mi, n = 0;
	double s = 0.0;
	char sep;
	if (sscanf(t, "%d-%d-%d%c%d:%d%n", &y, &mo, &d, &sep, &h, &mi, &n) != 6) return false;
	if (sep != 'T' && sep != ' ') return false;
	const char *rest = t + n;
	if (*rest == ':') {
		int m2 = 0;
		if (sscanf(rest, ":%lf%n", &s, &m2) != 1) return false;
		rest += m2;
	}
	if (*rest) return false;
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (y < -4000 || y > 3000 || mo < 1 || mo > 12 || h < 0 || h > 23 || mi < 0 || mi > 59 || !(s >= 0 && s < 60)) return false;
	int dm = mdays[mo - 1] + (mo == 2 && leap(y) ? 1 : 0);
	if (d < 1 || d > dm) return false;
	c->year = y; c->month = mo; c->day = d; c->hour = h; c->minute = mi; c->second = s;
	return true;
}

static rt_status scalar_time(reader *r, const rt_ynode *n, const char *path, double *jd_ut)
{
	rt_civil_time c;
	if (n->type != RT_YNODE_SCALAR || !parse_civil(n->text, &c))
		return bad(r, n, path, "expected a local date and time like 1641-09-25T18:00 (proleptic Gregorian), found %s%s%s",
			   n->type == RT_YNODE_SCALAR ? "\"" : "", n->type == RT_YNODE_SCALAR ? n->text : type_word(n),
			   n->type == RT_YNODE_SCALAR ? "\"" : "");
	*jd_ut = rt_julian_day_from_civil(c.year, c.month, c.day, c.hour, c.minute, c.second, r->sc->utc_offset_h);
	return RT_OK;
}

/* A time within the run, as seconds after the start. */
static rt_status get_run_time(reader *r, const rt_ynode *map, const char *key, const char *path, bool required,
			      double *t_s)
{
	const rt_ynode *n;
	rt_status s = get_node(r, map, key, path, required, &n);
	if (s != RT_OK || !n) return s;
	char p[PATH_SIZE];
	join(p, path, key);
	double jd;
	s = scalar_time(r, n, p, &jd);
	if (s != RT_OK) return s;
	double t = (jd - r->sc->start_jd_ut) * 86400.0;
	t = floor(t * 1000.0 + 0.5) / 1000.0; /* whole milliseconds: no rounding noise */
	if (t < 0.0 || t > r->sc->end_s) {
		char a[40], b[40];
		rt_scenario_format_time(r->sc, 0.0, a, sizeof a);
		rt_scenario_format_time(r->sc, r->sc->end_s, b, sizeof b);
		return bad(r, n, p, "%s lies outside the run, which goes from %s to %s", n->text, a, b);
	}
	*t_s = t;
	return RT_OK;
}

void rt_scenario_format_time(const rt_scenario *sc, double t_s, char *buf, size_t size)
{
	rt_civil_time c = rt_civil_from_julian_day(sc->start_jd_ut + t_s / 86400.0, sc->utc_offset_h);
	int sec = (int)floor(c.second + 0.5);
	if (sec >= 60) sec = 59;
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d", c.year, c.month, c.day, c.hour, c.minute, sec);
}

/* ---- sections ------------------------------------------------------------------------ */
static void *table(reader *r, int count, size_t size)
{
	return count > 0 ? rt__calloc(r->a, (size_t)count, size) : NULL;
}

static rt_status nomem(reader *r)
{
	return rt__fail(r->err, RT_ERR_NOMEM, "out of memory reading %s", r->file);
}

static rt_status read_sides(reader *r, const rt_ynode *root)
{
	const rt_ynode *n;
	rt_status s = get_node(r, root, "sides", "", true, &n);
	if (s != RT_OK) return s;
	if ((s = need_map(r, n, "sides")) != RT_OK) return s;
	if (n->count < 2) return bad(r, n, "sides", "expected at least two sides, found %d", n->count);
	if (n->count > RT_SCENARIO_MAX_SIDES) return bad(r, n, "sides", "%d sides; the limit is %d", n->count, RT_SCENARIO_MAX_SIDES);
	static const char *const keys[] = { "name", "name_zh", "map_side", "quarter", NULL };
	for (int i = 0; i < n->count; i++) {
		if ((s = check_id(r, n, i, "sides")) != RT_OK) return s;
		char p[PATH_SIZE];
		join(p, "sides", n->keys[i]);
		const rt_ynode *v = n->items[i];
		rt_sc_side *side = &r->sc->sides[i];
		snprintf(side->id, sizeof side->id, "%s", n->keys[i]);
		if ((s = need_map(r, v, p)) != RT_OK || (s = check_keys(r, v, p, keys)) != RT_OK) return s;
		if ((s = get_text(r, v, "name", p, true, side->name, sizeof side->name)) != RT_OK) return s;
		if ((s = get_text(r, v, "name_zh", p, false, side->name_zh, sizeof side->name_zh)) != RT_OK) return s;
		if ((s = get_text(r, v, "map_side", p, false, side->map_side, sizeof side->map_side)) != RT_OK) return s;
		side->quarter = 1.0;
		if ((s = get_number(r, v, "quarter", p, false, 0.0, 1.0, &side->quarter)) != RT_OK) return s;
		if (side->map_side[0] && r->sc->map) {
			bool named = false;
			for (int f = 0; f < rt_map_feature_count(r->sc->map) && !named; ++f) {
				rt_map_feature_view fv;
				named = rt_map_feature_info(r->sc->map, f, &fv) && strcmp(fv.side, side->map_side) == 0;
			}
			char mp[PATH_SIZE];
			join(mp, p, "map_side");
			if (!named) return bad(r, rt__yaml_get(v, "map_side"), mp, "no feature of the map %s has the side \"%s\"", r->sc->map_path, side->map_side);
		}
	}
	r->sc->side_count = n->count;
	return RT_OK;
}

static bool inside_map(const rt_map *map, double lat, double lon);

/* places.<id>.boats: {side, count, capacity, turnaround_s} (E7). */
static rt_status read_boats(reader *r, const rt_ynode *v, const char *p, rt_sc_place *pl)
{
	const rt_ynode *b = rt__yaml_get(v, "boats");
	if (!b) return RT_OK;
	char bp[PATH_SIZE];
	join(bp, p, "boats");
	static const char *const keys[] = { "side", "count", "capacity", "turnaround_s", "note", "source", NULL };
	rt_status s;
	if ((s = need_map(r, b, bp)) != RT_OK || (s = check_keys(r, b, bp, keys)) != RT_OK) return s;
	if (pl->fort) return bad(r, b, bp, "a fort is no landing: men in it are sheltered; put the boats at a place on open ground by the water");
	if ((s = get_ref(r, b, "side", bp, true, find_side, "side", &pl->boats_side)) != RT_OK) return s;
	if ((s = get_int(r, b, "count", bp, true, 1, 10000, &pl->boat_count)) != RT_OK) return s;
	if ((s = get_int(r, b, "capacity", bp, true, 1, 100000, &pl->boat_capacity)) != RT_OK) return s;
	if ((s = get_number(r, b, "turnaround_s", bp, true, 1.0, 30.0 * 86400.0, &pl->turnaround_s)) != RT_OK) return s;
	pl->boats = true;
	return RT_OK;
}

static rt_status read_places(reader *r, const rt_ynode *root)
{
	const rt_ynode *n;
	rt_status s = get_node(r, root, "places", "", true, &n);
	if (s != RT_OK) return s;
	if ((s = need_map(r, n, "places")) != RT_OK) return s;
	if (n->count > RT_SCENARIO_MAX_PLACES) return bad(r, n, "places", "%d places; the limit is %d", n->count, RT_SCENARIO_MAX_PLACES);
	r->sc->places = table(r, n->count, sizeof(rt_sc_place));
	if (n->count && !r->sc->places) return nomem(r);
	r->sc->places_alloc = n->count;
	static const char *const keys[] = { "feature", "lat", "lon", "radius_m", "boats", "note", "source", NULL };
	for (int i = 0; i < n->count; i++) {
		if ((s = check_id(r, n, i, "places")) != RT_OK) return s;
		char p[PATH_SIZE];
		join(p, "places", n->keys[i]);
		const rt_ynode *v = n->items[i];
		rt_sc_place *pl = &r->sc->places[i];
		snprintf(pl->id, sizeof pl->id, "%s", n->keys[i]);
		pl->feature = -1;
		pl->line = v->line;
		r->sc->place_count = i + 1;
		if ((s = need_map(r, v, p)) != RT_OK || (s = check_keys(r, v, p, keys)) != RT_OK) return s;
		const rt_ynode *f = rt__yaml_get(v, "feature");
		if (f) {
			if (rt__yaml_get(v, "lat") || rt__yaml_get(v, "lon"))
				return bad(r, v, p, "give either feature or lat and lon, not both");
			char fid[RT_SCENARIO_TEXT_SIZE];
			char fp[PATH_SIZE];
			join(fp, p, "feature");
			if ((s = scalar_text(r, f, fp, fid, sizeof fid)) != RT_OK) return s;
			if (r->sc->map) {
				pl->feature = rt_map_find_feature(r->sc->map, fid);
				if (pl->feature < 0) return bad(r, f, fp, "the map %s has no feature with the id \"%s\"", r->sc->map_path, fid);
			} else {
				pl->feature = 0; /* checked when the map is loaded */
			}
			pl->radius_m = 0.0;
			if ((s = get_number(r, v, "radius_m", p, false, 0.0, 100000.0, &pl->radius_m)) != RT_OK) return s;
		} else {
			if ((s = get_number(r, v, "lat", p, true, -90.0, 90.0, &pl->lat)) != RT_OK) return s;
			if ((s = get_number(r, v, "lon", p, true, -180.0, 180.0, &pl->lon)) != RT_OK) return s;
			pl->radius_m = 200.0;
			if ((s = get_number(r, v, "radius_m", p, false, 1.0, 100000.0, &pl->radius_m)) != RT_OK) return s;
		}
		if (r->sc->map) {
			if (pl->feature >= 0) {
				rt_map_feature_view fv;
				rt_map_feature_info(r->sc->map, pl->feature, &fv);
				pl->min.x = fv.bbox_min.x - pl->radius_m;
				pl->min.y = fv.bbox_min.y - pl->radius_m;
				pl->max.x = fv.bbox_max.x + pl->radius_m;
				pl->max.y = fv.bbox_max.y + pl->radius_m;
				pl->fort = fv.kind == RT_MAP_FORT;
			} else {
				rt_lonlat ll = { pl->lon, pl->lat };
				rt_vec2 c = rt_map_lonlat_to_xy(r->sc->map, ll);
				pl->min.x = c.x - pl->radius_m;
				pl->min.y = c.y - pl->radius_m;
				pl->max.x = c.x + pl->radius_m;
				pl->max.y = c.y + pl->radius_m;
				if (!inside_map(r->sc->map, pl->lat, pl->lon))
					return bad(r, v, p, "lat %g, lon %g lies outside the map %s", pl->lat, pl->lon, r->sc->map_path);
			}
			pl->centre.x = 0.5 * (pl->min.x + pl->max.x);
			pl->centre.y = 0.5 * (pl->min.y + pl->max.y);
		}
		if ((s = read_boats(r, v, p, pl)) != RT_OK) return s;
	}
	return RT_OK;
}

static bool inside_map(const rt_map *map, double lat, double lon)
{
	rt_lonlat ll = { lon, lat };
	rt_vec2 c = rt_map_lonlat_to_xy(map, ll);
	int nx, ny;
	double cell;
	rt_vec2 o;
	rt_map_size(map, &nx, &ny, &cell, &o);
	return c.x >= o.x && c.y >= o.y && c.x <= o.x + nx * cell && c.y <= o.y + ny * cell;
}

/* refuges: {<side>: [<place>, ...]}: where each side's fleeing men may run (docs/model.md
 * section 13). A fort of the map must be the side's own (or have no side); a landing is
 * not a refuge (its men wait for the boats). */
static rt_status read_refuges(reader *r, const rt_ynode *root)
{
	rt_scenario *sc = r->sc;
	const rt_ynode *n = rt__yaml_get(root, "refuges");
	if (!n) return RT_OK;
	rt_status s;
	if ((s = need_map(r, n, "refuges")) != RT_OK) return s;
	int total = 0;
	for (int i = 0; i < n->count; i++)
		if (n->items[i]->type == RT_YNODE_SEQ) total += n->items[i]->count;
	if (total > RT_SCENARIO_MAX_PLACES) return bad(r, n, "refuges", "%d refuges; the limit is %d", total, RT_SCENARIO_MAX_PLACES);
	sc->refuges = table(r, total, sizeof(rt_sc_refuge));
	if (total && !sc->refuges) return nomem(r);
	sc->refuges_alloc = total;
	for (int i = 0; i < n->count; i++) {
		char p[PATH_SIZE];
		join(p, "refuges", n->keys[i]);
		const int side = find_side(sc, n->keys[i]);
		if (side < 0)
			return rt__fail_at(r->err, RT_ERR_INVALID, r->file, n->key_lines[i], n->key_columns[i], p,
					   "%s: no side has the id \"%s\"; refuges are listed by side", p, n->keys[i]);
		const rt_ynode *list = n->items[i];
		if ((s = need_seq(r, list, p)) != RT_OK) return s;
		if (list->count == 0) return bad(r, list, p, "expected at least one place");
		for (int k = 0; k < list->count; k++) {
			const rt_ynode *it = list->items[k];
			char ip[PATH_SIZE];
			join_index(ip, p, k);
			const int place = it->type == RT_YNODE_SCALAR ? find_place(sc, it->text) : -1;
			if (place < 0) return bad(r, it, ip, "no place has the id \"%s\"", it->type == RT_YNODE_SCALAR ? it->text : "(not a word)");
			const rt_sc_place *pl = &sc->places[place];
			for (int j = 0; j < sc->refuge_count; j++)
				if (sc->refuges[j].side == side && sc->refuges[j].place == place)
					return bad(r, it, ip, "the place \"%s\" is listed twice for %s", pl->id, n->keys[i]);
			if (pl->boats)
				return bad(r, it, ip, "the place \"%s\" is a landing: men wait there for the boats; make it a corps' refuge or order them to embark", pl->id);
			if (pl->fort && sc->map && pl->feature >= 0) {
				rt_map_feature_view fv;
				rt_map_feature_info(sc->map, pl->feature, &fv);
				if (fv.side && fv.side[0] && strcmp(fv.side, sc->sides[side].map_side) != 0)
					return bad(r, it, ip, "the fort \"%s\" is of side \"%s\" on the map; the men of %s cannot shelter there", pl->id, fv.side,
						   n->keys[i]);
			}
			sc->refuges[sc->refuge_count++] = (rt_sc_refuge){ side, place, it->line, it->column };
		}
	}
	return RT_OK;
}

/* flight: how the flight fields are kept (rt_flight_params; the field cell is the run's). */
static rt_status read_flight(reader *r, const rt_ynode *root)
{
	rt_scenario *sc = r->sc;
	sc->flight = rt_flight_params_default();
	sc->pace_spread = rt_morale_params_default().flight_pace_spread;
	const rt_ynode *n = rt__yaml_get(root, "flight");
	if (!n) return RT_OK;
	static const char *const keys[] = { "rebuild_min_s", "enemy_interval_s", "enemy_cell_m", "enemy_reach_m", "enemy_cost_max",
					    "enemy_half_men", "fire_men", "pace_spread", "note", "source", NULL };
	rt_status s;
	if ((s = need_map(r, n, "flight")) != RT_OK || (s = check_keys(r, n, "flight", keys)) != RT_OK) return s;
	rt_flight_params *f = &sc->flight;
	if ((s = get_number(r, n, "rebuild_min_s", "flight", false, 0.0, 86400.0, &f->rebuild_min_s)) != RT_OK) return s;
	if ((s = get_number(r, n, "enemy_interval_s", "flight", false, 0.0, 86400.0, &f->enemy_interval_s)) != RT_OK) return s;
	if ((s = get_number(r, n, "enemy_cell_m", "flight", false, 0.0, 10000.0, &f->enemy_cell_m)) != RT_OK) return s;
	if ((s = get_number(r, n, "enemy_reach_m", "flight", false, 0.0, 20000.0, &f->enemy_reach_m)) != RT_OK) return s;
	if ((s = get_number(r, n, "enemy_cost_max", "flight", false, 0.0, 1000.0, &f->enemy_cost_max)) != RT_OK) return s;
	if ((s = get_number(r, n, "enemy_half_men", "flight", false, 1.0, 1e8, &f->enemy_half_men)) != RT_OK) return s;
	if ((s = get_number(r, n, "fire_men", "flight", false, 0.0, 1e8, &f->fire_men)) != RT_OK) return s;
	if ((s = get_number(r, n, "pace_spread", "flight", false, 0.0, 0.3, &sc->pace_spread)) != RT_OK) return s;
	if (f->enemy_cell_m > 0.0 && f->enemy_cell_m < 1.0) return bad(r, rt__yaml_get(n, "enemy_cell_m"), "flight.enemy_cell_m", "expected 0 (four field cells) or 1..10000 m, found %g", f->enemy_cell_m);
	return RT_OK;
}

static const char *const order_words[RT_ORDER_KIND_COUNT] = { "hold", "advance", "contain", "march", "attack", "ambush", "shelter",
								"embark", "guard", "counter_charge", "withdraw", "hunt" };

const char *rt__order_name(rt_sc_order_kind kind)
{
	return kind < RT_ORDER_KIND_COUNT ? order_words[kind] : "unknown";
}

/* Q10: a hunt's target is a corps of another side than the hunters' (side; -1 not known:
 * nothing to check). A corps below the one being read has its side read from its YAML. */
static rt_status hunt_side(reader *r, const rt_ynode *n, const char *path, const rt_sc_order *o, int side)
{
	if (o->kind != RT_ORDER_HUNT || side < 0 || o->target < 0) return RT_OK;
	int ts = -1;
	if (o->target < r->sc->corps_count) {
		ts = r->sc->corps[o->target].side;
	} else if (r->corps && o->target < r->corps->count) {
		const rt_ynode *sn = rt__yaml_get(r->corps->items[o->target], "side");
		if (sn && sn->type == RT_YNODE_SCALAR) ts = find_side(r->sc, sn->text);
	}
	if (ts == side)
		return bad(r, n, path, "the corps \"%s\" is of the hunters' own side (\"%s\"); a hunt is after an enemy commander",
			   r->corps->keys[o->target], r->sc->sides[side].id);
	return RT_OK;
}

/* Q10: `target: <corps id>` of a hunt, the corps whose commander is hunted: any corps of
 * the scenario, above or below (the corps mapping is read whole first), of another side
 * than `side` (the hunters'; -1 not known yet: hunt_side checks it when it is). */
static rt_status read_target(reader *r, const rt_ynode *n, const char *path, int side, rt_sc_order *o)
{
	const rt_ynode *t = rt__yaml_get(n, "target");
	char tp[PATH_SIZE];
	join(tp, path, "target");
	if (!t) return bad(r, n, tp, "missing; a hunt names the corps whose commander it hunts (target: <corps id>)");
	if (t->type != RT_YNODE_SCALAR) return bad(r, t, tp, "expected the id of a corps, found %s", type_word(t));
	const rt_ynode *corps = r->corps;
	for (int k = 0; corps && corps->type == RT_YNODE_MAP && k < corps->count; k++)
		if (strcmp(corps->keys[k], t->text) == 0) {
			o->target = k;
			return hunt_side(r, t, tp, o, side);
		}
	return bad(r, t, tp, "no corps has the id \"%s\"", t->text);
}

/* An order: a word (hold, advance, contain, shelter, guard, counter_charge) or a mapping
 * {kind: march|attack|embark|withdraw, to: place} / {kind: ambush, zone: place, radius_m: m} /
 * {kind: hunt, target: corps}. side: the side of the men ordered, -1 not known yet. */
static rt_status read_order(reader *r, const rt_ynode *n, const char *path, int side, rt_sc_order *o)
{
	memset(o, 0, sizeof *o);
	o->place = -1;
	o->target = -1;
	char word[32];
	const rt_ynode *kn = n;
	char kp[PATH_SIZE];
	snprintf(kp, sizeof kp, "%s", path);
	rt_status s;
	if (n->type == RT_YNODE_MAP) {
		static const char *const keys[] = { "kind", "to", "zone", "radius_m", "pace", "spread", "target", NULL };
		if ((s = check_keys(r, n, path, keys)) != RT_OK) return s;
		if ((s = get_node(r, n, "kind", path, true, &kn)) != RT_OK) return s;
		join(kp, path, "kind");
	}
	if ((s = scalar_text(r, kn, kp, word, sizeof word)) != RT_OK)
		return bad(r, kn, kp, "expected an order: hold, advance, contain, shelter, guard, counter_charge, or {kind: march|attack|embark|withdraw|ambush|hunt, ...}");
	int k = -1;
	for (int i = 0; i < RT_ORDER_KIND_COUNT; i++)
		if (strcmp(word, order_words[i]) == 0) k = i;
	if (k < 0) return bad(r, kn, kp, "unknown order \"%s\"; expected hold, advance, contain, march, attack, ambush, shelter, embark, guard, counter_charge, withdraw or hunt", word);
	o->kind = (rt_sc_order_kind)k;
	bool needs_place = rt__order_goes(o->kind) || o->kind == RT_ORDER_AMBUSH;
	if (needs_place && n->type != RT_YNODE_MAP)
		return bad(r, n, path, "the order %s needs a place: write {kind: %s, %s: <place>}", word, word,
			   o->kind == RT_ORDER_AMBUSH ? "zone" : "to");
	if (o->kind == RT_ORDER_HUNT) {
		if (n->type != RT_YNODE_MAP) return bad(r, n, path, "the order hunt needs a target: write {kind: hunt, target: <corps>}");
		if (n->count > 2) return bad(r, n, path, "a hunt takes only its target (kind, target)");
		return read_target(r, n, path, side, o);
	}
	if (n->type == RT_YNODE_MAP && rt__yaml_get(n, "target")) {
		char tp[PATH_SIZE];
		join(tp, path, "target");
		return bad(r, rt__yaml_get(n, "target"), tp, "only a hunt has a target");
	}
	if (n->type == RT_YNODE_MAP && rt__yaml_get(n, "pace")) {
		const rt_ynode *pn = rt__yaml_get(n, "pace");
		char pp[PATH_SIZE], pace[16];
		join(pp, path, "pace");
		if (o->kind != RT_ORDER_MARCH && o->kind != RT_ORDER_ATTACK)
			return bad(r, pn, pp, "only march and attack orders take a pace");
		if ((s = scalar_text(r, pn, pp, pace, sizeof pace)) != RT_OK) return s;
		if (strcmp(pace, "gallop") == 0) o->gallop = true;
		else if (strcmp(pace, "trot") != 0) return bad(r, pn, pp, "unknown pace \"%s\"; expected trot or gallop", pace);
	}
	if (n->type == RT_YNODE_MAP && rt__yaml_get(n, "spread")) {
		const rt_ynode *sn = rt__yaml_get(n, "spread");
		char sp[PATH_SIZE];
		join(sp, path, "spread");
		if (o->kind != RT_ORDER_MARCH && o->kind != RT_ORDER_ATTACK)
			return bad(r, sn, sp, "only a march or an attack spreads over its place");
		if ((s = get_bool(r, n, "spread", path, &o->spread)) != RT_OK) return s;
	}
	if (n->type == RT_YNODE_MAP) {
		if (rt__order_goes(o->kind)) {
			if ((s = get_ref(r, n, "to", path, true, find_place, "place", &o->place)) != RT_OK) return s;
			if (rt__yaml_get(n, "zone") || rt__yaml_get(n, "radius_m"))
				return bad(r, n, path, "zone and radius_m belong to ambush orders only");
			if (o->kind == RT_ORDER_EMBARK && !r->sc->places[o->place].boats) {
				char tp[PATH_SIZE];
				join(tp, path, "to");
				return bad(r, rt__yaml_get(n, "to"), tp, "the place \"%s\" has no boats; embark needs a landing (places.%s.boats)",
					   r->sc->places[o->place].id, r->sc->places[o->place].id);
			}
		} else if (o->kind == RT_ORDER_AMBUSH) {
			if ((s = get_ref(r, n, "zone", path, true, find_place, "place", &o->place)) != RT_OK) return s;
			o->radius_m = 1000.0;
			if ((s = get_number(r, n, "radius_m", path, false, 1.0, 50000.0, &o->radius_m)) != RT_OK) return s;
			if (rt__yaml_get(n, "to")) return bad(r, n, path, "an ambush has a zone, not a destination (to)");
		} else if (n->count > 1 + (rt__yaml_get(n, "pace") != NULL) + (rt__yaml_get(n, "spread") != NULL)) {
			return bad(r, n, path, "the order %s takes no place", word);
		}
	}
	return RT_OK;
}

static rt_status read_kind(reader *r, const rt_ynode *v, const char *path, rt_kind *out)
{
	char word[32];
	rt_status s = get_text(r, v, "kind", path, true, word, sizeof word);
	if (s != RT_OK) return s;
	for (int k = 0; k < RT_KIND_COUNT; k++)
		if (strcmp(word, rt_kind_name((rt_kind)k)) == 0 && k != RT_KIND_COMMANDER) {
			*out = (rt_kind)k;
			return RT_OK;
		}
	char p[PATH_SIZE];
	join(p, path, "kind");
	return bad(r, rt__yaml_get(v, "kind"), p,
		   "unknown kind \"%s\"; expected foot, archer, gunner, crew, horse, horse_archer or guard", word);
}


/* offset_m: [east, north] in metres from the place (optional; left as it was if absent). */
static rt_status get_offset(reader *r, const rt_ynode *v, const char *p, double *x, double *y)
{
	const rt_ynode *off = rt__yaml_get(v, "offset_m");
	if (!off) return RT_OK;
	char op[PATH_SIZE];
	join(op, p, "offset_m");
	rt_status s;
	if ((s = need_seq(r, off, op)) != RT_OK) return s;
	if (off->count != 2) return bad(r, off, op, "expected [east, north] in metres, found %d numbers", off->count);
	if ((s = scalar_number(r, off->items[0], op, -100000.0, 100000.0, x)) != RT_OK) return s;
	return scalar_number(r, off->items[1], op, -100000.0, 100000.0, y);
}

static rt_status read_unit(reader *r, const rt_ynode *v, const char *p, rt_sc_unit *u)
{
	static const char *const keys[] = { "kind", "men", "experience", "armour", "torches", "morale", "at", "lat", "lon",
					    "offset_m", "frontage_m", "depth_m", "facing_deg", "order", "guns", "note", "source", NULL };
	rt_status s;
	if ((s = need_map(r, v, p)) != RT_OK || (s = check_keys(r, v, p, keys)) != RT_OK) return s;
	u->line = v->line;
	if ((s = read_kind(r, v, p, &u->kind)) != RT_OK) return s;
	if ((s = get_int(r, v, "men", p, true, 1, RT_SCENARIO_MAX_MEN_PER_UNIT, &u->men)) != RT_OK) return s;
	char word[32] = "trained";
	if ((s = get_text(r, v, "experience", p, false, word, sizeof word)) != RT_OK) return s;
	static const char *const exp[RT_EXPERIENCE_COUNT] = { "green", "trained", "veteran" };
	int e = -1;
	for (int i = 0; i < RT_EXPERIENCE_COUNT; i++)
		if (strcmp(word, exp[i]) == 0) e = i;
	if (e < 0) {
		char ep[PATH_SIZE];
		join(ep, p, "experience");
		return bad(r, rt__yaml_get(v, "experience"), ep, "unknown experience \"%s\"; expected green, trained or veteran", word);
	}
	u->experience = (rt_experience)e;
	u->armour_share = 0.0;
	u->torch_share = 0.0;
	u->morale = -1.0;
	if ((s = get_number(r, v, "armour", p, false, 0.0, 1.0, &u->armour_share)) != RT_OK) return s;
	if ((s = get_number(r, v, "torches", p, false, 0.0, 1.0, &u->torch_share)) != RT_OK) return s;
	if ((s = get_number(r, v, "morale", p, false, 0.0, 1.0, &u->morale)) != RT_OK) return s;
	if ((s = get_int(r, v, "guns", p, false, 0, u->men, &u->guns)) != RT_OK) return s;
	if (u->guns > 0 && u->kind != RT_KIND_CREW) {
		char gp[PATH_SIZE];
		join(gp, p, "guns");
		return bad(r, rt__yaml_get(v, "guns"), gp, "guns are served by a crew: the unit's kind is %s, expected crew", rt_kind_name(u->kind));
	}
	u->place = -1;
	const rt_ynode *at = rt__yaml_get(v, "at");
	if (at) {
		if (rt__yaml_get(v, "lat") || rt__yaml_get(v, "lon")) return bad(r, v, p, "give either at or lat and lon, not both");
		if ((s = get_ref(r, v, "at", p, true, find_place, "place", &u->place)) != RT_OK) return s;
	} else {
		if (!rt__yaml_get(v, "lat") && !rt__yaml_get(v, "lon")) return bad(r, v, p, "missing where the unit stands: give at (a place) or lat and lon");
		if ((s = get_number(r, v, "lat", p, true, -90.0, 90.0, &u->lat)) != RT_OK) return s;
		if ((s = get_number(r, v, "lon", p, true, -180.0, 180.0, &u->lon)) != RT_OK) return s;
		if (r->sc->map && !inside_map(r->sc->map, u->lat, u->lon))
			return bad(r, v, p, "lat %g, lon %g lies outside the map %s", u->lat, u->lon, r->sc->map_path);
	}
	if ((s = get_offset(r, v, p, &u->offset_x_m, &u->offset_y_m)) != RT_OK) return s;
	/* a block of men about 1.5 m apart, ten ranks deep, unless told otherwise */
	u->depth_m = 0.0;
	u->frontage_m = 0.0;
	if ((s = get_number(r, v, "frontage_m", p, false, 1.0, 50000.0, &u->frontage_m)) != RT_OK) return s;
	if ((s = get_number(r, v, "depth_m", p, false, 1.0, 50000.0, &u->depth_m)) != RT_OK) return s;
	if ((s = get_number(r, v, "facing_deg", p, false, -360.0, 360.0, &u->facing_deg)) != RT_OK) return s;
	u->order.kind = RT_ORDER_HOLD;
	u->order.place = -1;
	u->order.target = -1;
	const rt_ynode *o = rt__yaml_get(v, "order");
	if (o) {
		char op[PATH_SIZE];
		join(op, p, "order");
		if ((s = read_order(r, o, op, r->sc->corps[u->corps].side, &u->order)) != RT_OK) return s;
		if (u->order.kind == RT_ORDER_SHELTER && (u->place < 0 || !r->sc->places[u->place].fort) && r->sc->map)
			return bad(r, o, op, "shelter needs the unit to stand at a fort (at: <a place that is a map fort>)");
	}
	return RT_OK;
}

/* M2: `superior: <corps id>`, a corps of the same side defined above this one (so that no
 * chain of superiors turns back on itself). */
static rt_status read_superior(reader *r, const rt_ynode *corps, int i, const char *p, rt_sc_corps *c)
{
	const rt_ynode *n;
	rt_status s = get_node(r, corps->items[i], "superior", p, false, &n);
	if (s != RT_OK || !n) return s;
	char sp[PATH_SIZE];
	join(sp, p, "superior");
	if (n->type != RT_YNODE_SCALAR) return bad(r, n, sp, "expected the id of a corps, found %s", type_word(n));
	for (int k = 0; k < corps->count; k++) {
		if (strcmp(corps->keys[k], n->text) != 0) continue;
		if (k == i) return bad(r, n, sp, "a corps cannot answer to itself");
		if (k > i)
			return bad(r, n, sp, "the corps \"%s\" is defined below this one; a superior is defined above the corps under it",
				   n->text);
		if (r->sc->corps[k].side != c->side)
			return bad(r, n, sp, "the corps \"%s\" is of the other side (\"%s\"); a superior is of the corps' own side",
				   n->text, r->sc->sides[r->sc->corps[k].side].id);
		c->superior = k;
		return RT_OK;
	}
	return bad(r, n, sp, "no corps has the id \"%s\"", n->text);
}

static rt_status read_corps(reader *r, const rt_ynode *root)
{
	const rt_ynode *n;
	rt_status s = get_node(r, root, "corps", "", true, &n);
	if (s != RT_OK) return s;
	if ((s = need_map(r, n, "corps")) != RT_OK) return s;
	if (n->count > RT_SCENARIO_MAX_CORPS) return bad(r, n, "corps", "%d corps; the limit is %d", n->count, RT_SCENARIO_MAX_CORPS);
	if (n->count == 0) return bad(r, n, "corps", "no corps; expected at least one per side");
	int units = 0;
	for (int i = 0; i < n->count; i++) {
		const rt_ynode *u = rt__yaml_get(n->items[i], "units");
		if (u && u->type == RT_YNODE_MAP) units += u->count;
	}
	if (units > RT_SCENARIO_MAX_UNITS) return bad(r, n, "corps", "%d units; the limit is %d", units, RT_SCENARIO_MAX_UNITS);
	r->corps = n; /* a hunt's target may be a corps below (read_target) */
	r->sc->corps = table(r, n->count, sizeof(rt_sc_corps));
	r->sc->units = table(r, units, sizeof(rt_sc_unit));
	if (r->sc->corps) r->sc->corps_alloc = n->count;
	if (r->sc->units) r->sc->units_alloc = units;
	if (!r->sc->corps || (units && !r->sc->units)) return nomem(r);
	static const char *const keys[] = { "side", "name", "name_zh", "courage", "hunger", "cut_off", "refuge", "ranks_refuge",
					    "guards", "mounted", "pursue", "summon", "quarter", "superior", "rank", "known", "record", "units", "note", "source", NULL };
	for (int i = 0; i < n->count; i++) {
		if ((s = check_id(r, n, i, "corps")) != RT_OK) return s;
		char p[PATH_SIZE];
		join(p, "corps", n->keys[i]);
		const rt_ynode *v = n->items[i];
		rt_sc_corps *c = &r->sc->corps[i];
		snprintf(c->id, sizeof c->id, "%s", n->keys[i]);
		r->sc->corps_count = i + 1;
		if ((s = need_map(r, v, p)) != RT_OK || (s = check_keys(r, v, p, keys)) != RT_OK) return s;
		if ((s = get_ref(r, v, "side", p, true, find_side, "side", &c->side)) != RT_OK) return s;
		if ((s = get_text(r, v, "name", p, true, c->name, sizeof c->name)) != RT_OK) return s;
		if ((s = get_text(r, v, "name_zh", p, false, c->name_zh, sizeof c->name_zh)) != RT_OK) return s;
		if ((s = get_text(r, v, "record", p, false, c->record, sizeof c->record)) != RT_OK) return s;
		c->courage = 0.5;
		if ((s = get_number(r, v, "courage", p, false, 0.0, 1.0, &c->courage)) != RT_OK) return s;
		if ((s = get_number(r, v, "hunger", p, false, 0.0, 1.0, &c->hunger)) != RT_OK) return s;
		if ((s = get_bool(r, v, "cut_off", p, &c->cut_off)) != RT_OK) return s;
		c->refuge = -1;
		c->superior = -1;
		c->pursue_limit = -1;
		if ((s = read_superior(r, n, i, p, c)) != RT_OK) return s;
		if ((s = get_int(r, v, "rank", p, false, 0, 255, &c->rank)) != RT_OK) return s;
		if ((s = get_refuge(r, v, "refuge", p, &c->refuge)) != RT_OK) return s;
		c->ranks_refuge = -1;
		if ((s = get_refuge(r, v, "ranks_refuge", p, &c->ranks_refuge)) != RT_OK) return s;
		if (c->ranks_refuge >= 0 && c->refuge < 0) {
			char rp[PATH_SIZE];
			join(rp, p, "ranks_refuge");
			return bad(r, rt__yaml_get(v, "ranks_refuge"), rp,
				   "the corps has no refuge; a commander who never leaves abandons no one (expected `refuge` too)");
		}
		if ((s = get_int(r, v, "guards", p, false, 0, 100000, &c->guards)) != RT_OK) return s;
		if ((s = get_bool(r, v, "mounted", p, &c->mounted)) != RT_OK) return s;
		if ((s = get_bool(r, v, "summon", p, &c->summon)) != RT_OK) return s;
		if ((s = get_bool(r, v, "known", p, &c->known)) != RT_OK) return s;
		c->quarter = r->sc->sides[c->side].quarter;
		if ((s = get_number(r, v, "quarter", p, false, 0.0, 1.0, &c->quarter)) != RT_OK) return s;
		const rt_ynode *pu = rt__yaml_get(v, "pursue");
		if (pu) {
			char pp[PATH_SIZE];
			join(pp, p, "pursue");
			static const char *const pkeys[] = { "ratio", "all_out", "limit", NULL };
			if ((s = need_map(r, pu, pp)) != RT_OK || (s = check_keys(r, pu, pp, pkeys)) != RT_OK) return s;
			if ((s = get_number(r, pu, "ratio", pp, true, 0.0, 100.0, &c->pursue_ratio)) != RT_OK) return s;
			if ((s = get_int(r, pu, "all_out", pp, false, 0, 100000000, &c->pursue_all_out)) != RT_OK) return s;
			if ((s = get_ref(r, pu, "limit", pp, false, find_place, "place", &c->pursue_limit)) != RT_OK) return s;
		}
		const rt_ynode *un;
		if ((s = get_node(r, v, "units", p, true, &un)) != RT_OK) return s;
		char up[PATH_SIZE];
		join(up, p, "units");
		if ((s = need_map(r, un, up)) != RT_OK) return s;
		if (un->count == 0) return bad(r, un, up, "a corps needs at least one unit");
		c->first_unit = r->sc->unit_count;
		c->unit_count = un->count;
		for (int k = 0; k < un->count; k++) {
			if ((s = check_id(r, un, k, up)) != RT_OK) return s;
			if (find_unit(r->sc, un->keys[k]) >= 0) {
				char kp[PATH_SIZE];
				join(kp, up, un->keys[k]);
				return rt__fail_at(r->err, RT_ERR_INVALID, r->file, un->key_lines[k], un->key_columns[k], kp,
						   "%s: another unit already has the id \"%s\"; unit ids are unique across corps", kp, un->keys[k]);
			}
			rt_sc_unit *unit = &r->sc->units[r->sc->unit_count];
			memset(unit, 0, sizeof *unit);
			snprintf(unit->id, sizeof unit->id, "%s", un->keys[k]);
			unit->corps = i;
			r->sc->unit_count++;
			char kp[PATH_SIZE];
			join(kp, up, un->keys[k]);
			if ((s = read_unit(r, un->items[k], kp, unit)) != RT_OK) return s;
			r->sc->men += unit->men;
		}
	}
	for (int sd = 0; sd < r->sc->side_count; sd++) {
		bool any = false;
		for (int i = 0; i < r->sc->corps_count; i++) any |= r->sc->corps[i].side == sd;
		if (!any) return bad(r, n, "corps", "the side \"%s\" has no corps; every side needs men", r->sc->sides[sd].id);
	}
	return RT_OK;
}

static rt_status read_action(reader *r, const rt_ynode *v, const char *p, int *count)
{
	static const char *const keys[] = { "unit", "units", "corps", "commander", "order", "refuge", NULL };
	rt_status s;
	if ((s = need_map(r, v, p)) != RT_OK || (s = check_keys(r, v, p, keys)) != RT_OK) return s;
	int refuge = -1;
	if ((s = get_ref(r, v, "refuge", p, false, find_place, "place", &refuge)) != RT_OK) return s;
	int given = (rt__yaml_get(v, "unit") != NULL) + (rt__yaml_get(v, "units") != NULL) + (rt__yaml_get(v, "corps") != NULL) +
		    (rt__yaml_get(v, "commander") != NULL);
	if (given != 1) return bad(r, v, p, "name exactly one of unit, units, corps or commander");
	const bool commander = rt__yaml_get(v, "commander") != NULL;
	/* a commander's action needs an order or a refuge (or both); every other an order */
	const rt_ynode *on = NULL;
	char op[PATH_SIZE];
	join(op, p, "order");
	if (commander && refuge < 0 && !rt__yaml_get(v, "order"))
		return bad(r, v, op, "missing; a commander's action needs an order (march or attack) or a refuge");
	if ((s = get_node(r, v, "order", p, !commander, &on)) != RT_OK) return s;
	rt_sc_order order;
	memset(&order, 0, sizeof order);
	order.place = -1;
	order.target = -1;
	if (on && (s = read_order(r, on, op, -1, &order)) != RT_OK) return s;
	if (on && order.kind == RT_ORDER_SHELTER) return bad(r, on, op, "shelter is a starting order only; use {kind: march, to: <fort>}");
	if (on && commander && order.kind != RT_ORDER_MARCH && order.kind != RT_ORDER_ATTACK)
		return bad(r, on, op, "a commander alone can be ordered only to march or attack (with his guard); other orders are for units");
	int targets[RT_SCENARIO_MAX_UNITS];
	int nt = 0;
	int corps = -1;
	const rt_ynode *us = rt__yaml_get(v, "units");
	if (rt__yaml_get(v, "unit")) {
		if ((s = get_ref(r, v, "unit", p, true, find_unit, "unit", &targets[0])) != RT_OK) return s;
		nt = 1;
	} else if (us) {
		char up[PATH_SIZE];
		join(up, p, "units");
		if ((s = need_seq(r, us, up)) != RT_OK) return s;
		if (us->count == 0 || us->count > RT_SCENARIO_MAX_UNITS) return bad(r, us, up, "expected 1..%d unit ids", RT_SCENARIO_MAX_UNITS);
		for (int i = 0; i < us->count; i++) {
			const rt_ynode *it = us->items[i];
			int u = it->type == RT_YNODE_SCALAR ? find_unit(r->sc, it->text) : -1;
			if (u < 0) return bad(r, it, up, "no unit has the id \"%s\"", it->type == RT_YNODE_SCALAR ? it->text : "(not a word)");
			targets[nt++] = u;
		}
	} else {
		if ((s = get_ref(r, v, commander ? "commander" : "corps", p, true, find_corps, "corps", &corps)) != RT_OK) return s;
	}
	if (order.kind == RT_ORDER_HUNT) { /* Q10: after an enemy commander, not one of their own */
		char tp[PATH_SIZE];
		join(tp, op, "target");
		const rt_ynode *tn = rt__yaml_get(on, "target");
		if (corps >= 0 && (s = hunt_side(r, tn, tp, &order, r->sc->corps[corps].side)) != RT_OK) return s;
		for (int i = 0; i < nt; i++)
			if ((s = hunt_side(r, tn, tp, &order, r->sc->corps[r->sc->units[targets[i]].corps].side)) != RT_OK) return s;
	}
	int need = corps >= 0 ? 1 : nt;
	int cap = r->sc->action_count + need;
	if (cap > r->sc->actions_alloc) {
		if (cap < 2 * r->sc->actions_alloc) cap = 2 * r->sc->actions_alloc;
		rt_sc_action *grown = rt__realloc(r->a, r->sc->actions, (size_t)r->sc->actions_alloc * sizeof(rt_sc_action),
						  (size_t)cap * sizeof(rt_sc_action));
		if (!grown) return nomem(r);
		r->sc->actions = grown;
		r->sc->actions_alloc = cap;
	}
	for (int i = 0; i < need; i++) {
		rt_sc_action *a = &r->sc->actions[r->sc->action_count++];
		memset(a, 0, sizeof *a); /* the run's checkpoint fingerprints the table bytes, padding too */
		a->unit = corps >= 0 ? -1 : targets[i];
		a->corps = corps;
		a->commander = commander;
		a->has_order = on != NULL;
		a->order = order;
		a->refuge = refuge;
	}
	(*count)++;
	return RT_OK;
}

static rt_status read_triggers(reader *r, const rt_ynode *root)
{
	const rt_ynode *n = rt__yaml_get(root, "triggers");
	if (!n) return RT_OK;
	rt_status s;
	if ((s = need_map(r, n, "triggers")) != RT_OK) return s;
	if (n->count > RT_SCENARIO_MAX_TRIGGERS) return bad(r, n, "triggers", "%d triggers; the limit is %d", n->count, RT_SCENARIO_MAX_TRIGGERS);
	r->sc->triggers = table(r, n->count, sizeof(rt_sc_trigger));
	if (n->count && !r->sc->triggers) return nomem(r);
	r->sc->triggers_alloc = n->count;
	for (int i = 0; i < n->count; i++) {
		if ((s = check_id(r, n, i, "triggers")) != RT_OK) return s;
		snprintf(r->sc->triggers[i].id, RT_SCENARIO_ID_SIZE, "%s", n->keys[i]);
	}
	r->sc->trigger_count = n->count;
	static const char *const keys[] = { "when", "then", "note", "source", NULL };
	static const char *const conditions[] = { "at", "enemy_near", "fleeing", "routed", "commander_gone", "after", NULL };
	int action_capacity = 0;
	for (int i = 0; i < n->count; i++) {
		char p[PATH_SIZE];
		join(p, "triggers", n->keys[i]);
		const rt_ynode *v = n->items[i];
		rt_sc_trigger *t = &r->sc->triggers[i];
		t->line = v->line;
		t->place = t->unit = t->corps = t->after = t->side = -1;
		if ((s = need_map(r, v, p)) != RT_OK || (s = check_keys(r, v, p, keys)) != RT_OK) return s;
		const rt_ynode *w;
		if ((s = get_node(r, v, "when", p, true, &w)) != RT_OK) return s;
		char wp[PATH_SIZE];
		join(wp, p, "when");
		if ((s = need_map(r, w, wp)) != RT_OK || (s = check_keys(r, w, wp, conditions)) != RT_OK) return s;
		if (w->count != 1) return bad(r, w, wp, "expected exactly one condition (at, enemy_near, fleeing, routed, commander_gone or after)");
		const char *ck = w->keys[0];
		const rt_ynode *c = w->items[0];
		char cp[PATH_SIZE];
		join(cp, wp, ck);
		if (strcmp(ck, "at") == 0) {
			t->condition = RT_WHEN_AT;
			if ((s = get_run_time(r, w, "at", wp, true, &t->at_s)) != RT_OK) return s;
		} else if (strcmp(ck, "enemy_near") == 0) {
			static const char *const k2[] = { "place", "radius_m", "side", "men", NULL };
			t->condition = RT_WHEN_ENEMY_NEAR;
			if ((s = need_map(r, c, cp)) != RT_OK || (s = check_keys(r, c, cp, k2)) != RT_OK) return s;
			if ((s = get_ref(r, c, "place", cp, true, find_place, "place", &t->place)) != RT_OK) return s;
			if ((s = get_ref(r, c, "side", cp, true, find_side, "side", &t->side)) != RT_OK) return s;
			t->radius_m = 1000.0;
			t->men = 1.0;
			if ((s = get_number(r, c, "radius_m", cp, false, 1.0, 100000.0, &t->radius_m)) != RT_OK) return s;
			if ((s = get_number(r, c, "men", cp, false, 1.0, 1e8, &t->men)) != RT_OK) return s;
		} else if (strcmp(ck, "fleeing") == 0) {
			static const char *const k2[] = { "side", "men", NULL };
			t->condition = RT_WHEN_FLEEING;
			if ((s = need_map(r, c, cp)) != RT_OK || (s = check_keys(r, c, cp, k2)) != RT_OK) return s;
			if ((s = get_ref(r, c, "side", cp, true, find_side, "side", &t->side)) != RT_OK) return s;
			if ((s = get_number(r, c, "men", cp, true, 1.0, 1e8, &t->men)) != RT_OK) return s;
		} else if (strcmp(ck, "routed") == 0) {
			static const char *const k2[] = { "unit", "share", NULL };
			t->condition = RT_WHEN_ROUTED;
			if ((s = need_map(r, c, cp)) != RT_OK || (s = check_keys(r, c, cp, k2)) != RT_OK) return s;
			if ((s = get_ref(r, c, "unit", cp, true, find_unit, "unit", &t->unit)) != RT_OK) return s;
			t->share = 0.5;
			if ((s = get_number(r, c, "share", cp, false, 0.01, 1.0, &t->share)) != RT_OK) return s;
		} else if (strcmp(ck, "commander_gone") == 0) {
			t->condition = RT_WHEN_COMMANDER_GONE;
			if ((s = get_ref(r, w, "commander_gone", wp, true, find_corps, "corps", &t->corps)) != RT_OK) return s;
		} else {
			static const char *const k2[] = { "trigger", "delay_s", NULL };
			t->condition = RT_WHEN_AFTER;
			if ((s = need_map(r, c, cp)) != RT_OK || (s = check_keys(r, c, cp, k2)) != RT_OK) return s;
			if ((s = get_ref(r, c, "trigger", cp, true, find_trigger, "trigger", &t->after)) != RT_OK) return s;
			if ((s = get_number(r, c, "delay_s", cp, false, 0.0, RT_SCENARIO_MAX_DURATION_S, &t->at_s)) != RT_OK) return s;
			if (t->after == i) return bad(r, c, cp, "a trigger cannot wait for itself");
		}
		const rt_ynode *th;
		if ((s = get_node(r, v, "then", p, true, &th)) != RT_OK) return s;
		char tp[PATH_SIZE];
		join(tp, p, "then");
		if ((s = need_seq(r, th, tp)) != RT_OK) return s;
		if (th->count == 0) return bad(r, th, tp, "expected at least one action");
		t->first_action = r->sc->action_count;
		for (int k = 0; k < th->count; k++) {
			char ap[PATH_SIZE];
			join_index(ap, tp, k);
			if ((s = read_action(r, th->items[k], ap, &action_capacity)) != RT_OK) return s;
		}
		t->action_count = r->sc->action_count - t->first_action;
	}
	/* A chain of "after" conditions must end in a trigger that waits for the world. */
	for (int i = 0; i < r->sc->trigger_count; i++) {
		int at = i;
		for (int steps = 0; r->sc->triggers[at].condition == RT_WHEN_AFTER; steps++) {
			if (steps > r->sc->trigger_count) {
				const rt_sc_trigger *t = &r->sc->triggers[i];
				char p[PATH_SIZE];
				join(p, "triggers", t->id);
				return rt__fail_at(r->err, RT_ERR_INVALID, r->file, t->line, 1, p,
						   "%s: its \"after\" conditions form a cycle, so it could never fire", p);
			}
			at = r->sc->triggers[at].after;
		}
	}
	return RT_OK;
}

/* sides.<side>.<what>[.<place>], units.<unit>.<what>, corps.<corps>.<what> */
static rt_status read_term(reader *r, const rt_ynode *n, const char *path, rt_sc_term *t)
{
	static const char *const whats[RT_MEASURE_COUNT] = { "initial", "killed", "drowned", "trampled", "captured",
							     "surrendered", "escaped", "in_field", "sheltered", "horses_lost",
							     "armour_dropped", "dead", "routing", "desperate", "burned", "escaped_by_sea", "horses_taken" };
	if (n->type != RT_YNODE_SCALAR) return bad(r, n, path, "expected a measure like sides.ming.killed, found %s", type_word(n));
	char buf[RT_SCENARIO_TEXT_SIZE];
	snprintf(buf, sizeof buf, "%s", n->text);
	char *parts[5];
	int np = 0;
	for (char *tok = strtok(buf, "."); tok && np < 5; tok = strtok(NULL, ".")) parts[np++] = tok;
	memset(t, 0, sizeof *t);
	t->side = t->unit = t->corps = t->place = -1;
	if (np < 3 || np > 4)
		return bad(r, n, path, "expected sides.<side>.<what>, units.<unit>.<what> or corps.<corps>.<what>, found \"%s\"", n->text);
	if (strcmp(parts[0], "sides") == 0) t->side = find_side(r->sc, parts[1]);
	else if (strcmp(parts[0], "units") == 0) t->unit = find_unit(r->sc, parts[1]);
	else if (strcmp(parts[0], "corps") == 0) t->corps = find_corps(r->sc, parts[1]);
	else return bad(r, n, path, "a measure starts with sides, units or corps, found \"%s\"", parts[0]);
	if (t->side < 0 && t->unit < 0 && t->corps < 0) return bad(r, n, path, "no %s has the id \"%s\"", parts[0], parts[1]);
	int w = -1;
	for (int i = 0; i < RT_MEASURE_COUNT; i++)
		if (strcmp(parts[2], whats[i]) == 0) w = i;
	if (w < 0)
		return bad(r, n, path, "unknown measure \"%s\"; expected initial, killed, drowned, trampled, burned, captured, surrendered, escaped, escaped_by_sea, in_field, sheltered, horses_lost, horses_taken, armour_dropped, dead, routing or desperate", parts[2]);
	t->what = (rt_sc_measure_what)w;
	if (t->what == RT_MEASURE_ESCAPED_BY_SEA && t->side < 0)
		return bad(r, n, path, "escaped_by_sea is counted per side only (the boats of a side's landings): write sides.<side>.escaped_by_sea");
	if (np == 4) {
		const bool where = t->what == RT_MEASURE_IN_FIELD || t->what == RT_MEASURE_SURRENDERED || t->what == RT_MEASURE_ROUTING ||
				   t->what == RT_MEASURE_DESPERATE;
		if (t->what != RT_MEASURE_SHELTERED && !where)
			return bad(r, n, path, "only sheltered, in_field, surrendered, routing and desperate take a place (<what>.<place>)");
		t->place = find_place(r->sc, parts[3]);
		if (t->place < 0) return bad(r, n, path, "no place has the id \"%s\"", parts[3]);
		if (!where && r->sc->map && !r->sc->places[t->place].fort)
			return bad(r, n, path, "the place \"%s\" is no fort; men shelter only in forts", parts[3]);
	}
	return RT_OK;
}

static rt_status read_history(reader *r, const rt_ynode *root)
{
	const rt_ynode *n = rt__yaml_get(root, "history");
	if (!n) return RT_OK;
	rt_status s;
	if ((s = need_seq(r, n, "history")) != RT_OK) return s;
	if (n->count > RT_SCENARIO_MAX_HISTORY) return bad(r, n, "history", "%d figures; the limit is %d", n->count, RT_SCENARIO_MAX_HISTORY);
	r->sc->history = table(r, n->count, sizeof(rt_sc_history));
	if (n->count && !r->sc->history) return nomem(r);
	r->sc->history_alloc = n->count;
	static const char *const keys[] = { "figure", "recorded", "grade", "source", "measure", "percent", "at", "since", "from", "note", NULL };
	for (int i = 0; i < n->count; i++) {
		char p[PATH_SIZE];
		join_index(p, "history", i);
		const rt_ynode *v = n->items[i];
		rt_sc_history *h = &r->sc->history[i];
		h->line = v->line;
		r->sc->history_count = i + 1;
		if ((s = need_map(r, v, p)) != RT_OK || (s = check_keys(r, v, p, keys)) != RT_OK) return s;
		if ((s = get_text(r, v, "figure", p, true, h->figure, sizeof h->figure)) != RT_OK) return s;
		if ((s = get_text(r, v, "source", p, true, h->source, sizeof h->source)) != RT_OK) return s;
		if ((s = get_text(r, v, "grade", p, true, h->grade, sizeof h->grade)) != RT_OK) return s;
		if (strcmp(h->grade, "A") && strcmp(h->grade, "B") && strcmp(h->grade, "E")) {
			char gp[PATH_SIZE];
			join(gp, p, "grade");
			return bad(r, rt__yaml_get(v, "grade"), gp, "expected A, B or E (HISTORY.md), found \"%s\"", h->grade);
		}
		if ((s = get_bool(r, v, "percent", p, &h->percent)) != RT_OK) return s;
		h->at_s = NAN;
		if ((s = get_run_time(r, v, "at", p, false, &h->at_s)) != RT_OK) return s;
		h->since_s = NAN;
		if ((s = get_run_time(r, v, "since", p, false, &h->since_s)) != RT_OK) return s;
		if (!isnan(h->since_s) && !isnan(h->at_s) && h->since_s >= h->at_s) {
			char sp[PATH_SIZE];
			join(sp, p, "since");
			return bad(r, rt__yaml_get(v, "since"), sp, "since must come before at");
		}
		h->from = -1;
		if ((s = get_ref(r, v, "from", p, false, find_place, "place", &h->from)) != RT_OK) return s;
		if (h->from >= 0 && (isnan(h->since_s) || !h->percent)) {
			char fp[PATH_SIZE];
			join(fp, p, "from");
			return bad(r, rt__yaml_get(v, "from"), fp,
				   "from names where the men counted in the base stood at `since`; expected `since` and `percent: true` too");
		}
		const rt_ynode *rec;
		if ((s = get_node(r, v, "recorded", p, true, &rec)) != RT_OK) return s;
		char rp[PATH_SIZE];
		join(rp, p, "recorded");
		if (rec->type == RT_YNODE_SEQ) {
			if (rec->count != 2) return bad(r, rec, rp, "expected one number or [low, high]");
			if ((s = scalar_number(r, rec->items[0], rp, 0.0, 1e9, &h->low)) != RT_OK) return s;
			if ((s = scalar_number(r, rec->items[1], rp, 0.0, 1e9, &h->high)) != RT_OK) return s;
			if (h->high < h->low) return bad(r, rec, rp, "low %g is above high %g", h->low, h->high);
		} else {
			if ((s = scalar_number(r, rec, rp, 0.0, 1e9, &h->low)) != RT_OK) return s;
			h->high = h->low;
		}
		const rt_ynode *m;
		if ((s = get_node(r, v, "measure", p, true, &m)) != RT_OK) return s;
		char mp[PATH_SIZE];
		join(mp, p, "measure");
		if (m->type == RT_YNODE_SEQ) {
			if (m->count < 1 || m->count > RT_SC_MAX_TERMS) return bad(r, m, mp, "expected 1..%d measures to add up", RT_SC_MAX_TERMS);
			for (int k = 0; k < m->count; k++)
				if ((s = read_term(r, m->items[k], mp, &h->terms[k])) != RT_OK) return s;
			h->term_count = m->count;
		} else {
			if ((s = read_term(r, m, mp, &h->terms[0])) != RT_OK) return s;
			h->term_count = 1;
		}
	}
	return RT_OK;
}

/* Follows a dotted key path through mappings and lists (list items by number). */
static rt_ynode *find_path(rt_ynode *root, const char *key, rt_ynode **parent, char *last, size_t last_size)
{
	char buf[RT_SCENARIO_TEXT_SIZE];
	snprintf(buf, sizeof buf, "%s", key);
	rt_ynode *at = root;
	*parent = NULL;
	char *save = NULL;
	for (char *tok = strtok_r(buf, ".", &save); tok; tok = strtok_r(NULL, ".", &save)) {
		snprintf(last, last_size, "%s", tok);
		*parent = at;
		if (!at) return NULL;
		if (at->type == RT_YNODE_MAP) {
			at = rt__yaml_get(at, tok);
		} else if (at->type == RT_YNODE_SEQ) {
			char *end;
			long i = strtol(tok, &end, 10);
			at = (*end == '\0' && i >= 0 && i < at->count) ? at->items[i] : NULL;
		} else {
			at = NULL;
			*parent = NULL;
			return NULL;
		}
		if (!at && strtok_r(NULL, ".", &save)) {
			*parent = NULL;
			return NULL;
		}
	}
	return at;
}

static rt_status apply_sets(reader *r, rt_ynode *root, const char *const *sets, int count)
{
	for (int i = 0; i < count; i++) {
		const char *eq = sets[i] ? strchr(sets[i], '=') : NULL;
		if (!eq || eq == sets[i] || (size_t)(eq - sets[i]) >= RT_SCENARIO_TEXT_SIZE)
			return rt__fail_at(r->err, RT_ERR_INVALID, "--set", 0, 0, sets[i] ? sets[i] : "",
					   "--set %s: expected key.path=value", sets[i] ? sets[i] : "(null)");
		char key[RT_SCENARIO_TEXT_SIZE];
		snprintf(key, sizeof key, "%.*s", (int)(eq - sets[i]), sets[i]);
		rt_ynode *parent;
		char last[RT_SCENARIO_TEXT_SIZE];
		rt_ynode *node = find_path(root, key, &parent, last, sizeof last);
		if (node && node->type != RT_YNODE_SCALAR)
			return rt__fail_at(r->err, RT_ERR_INVALID, "--set", 0, 0, key,
					   "--set %s: %s is %s in %s (line %d); only single values can be set", key, key,
					   type_word(node), r->file, node->line);
		if (node) {
			if (rt__yaml_set_text(node, eq + 1, r->a) != RT_OK) return nomem(r);
			continue;
		}
		if (!parent || parent->type != RT_YNODE_MAP)
			return rt__fail_at(r->err, RT_ERR_INVALID, "--set", 0, 0, key,
					   "--set %s: there is no such key in %s", key, r->file);
		/* a new key in an existing mapping; the schema decides whether it may be there */
		rt_ynode *n = rt__calloc(r->a, 1, sizeof *n);
		if (!n) return nomem(r);
		n->type = RT_YNODE_SCALAR;
		n->line = parent->line;
		n->column = parent->column;
		if (rt__yaml_set_text(n, eq + 1, r->a) != RT_OK) {
			rt__free(r->a, n, sizeof *n);
			return nomem(r);
		}
		size_t klen = strlen(last) + 1;
		char *k = rt__alloc(r->a, klen);
		if (!k) {
			rt__yaml_free(n, r->a);
			return nomem(r);
		}
		memcpy(k, last, klen);
		if (parent->count == parent->capacity && !rt__yaml_grow(parent, r->a)) {
			rt__free(r->a, k, klen);
			rt__yaml_free(n, r->a);
			return nomem(r);
		}
		parent->items[parent->count] = n;
		parent->keys[parent->count] = k;
		parent->key_lines[parent->count] = parent->line;
		parent->key_columns[parent->count] = parent->column;
		parent->count++;
	}
	return RT_OK;
}

static rt_status read_parameters(reader *r, rt_ynode *root)
{
	const rt_ynode *n = rt__yaml_get(root, "parameters");
	if (!n) return RT_OK;
	rt_status s;
	if ((s = need_map(r, n, "parameters")) != RT_OK) return s;
	if (n->count > RT_SCENARIO_MAX_PARAMETERS) return bad(r, n, "parameters", "%d parameters; the limit is %d", n->count, RT_SCENARIO_MAX_PARAMETERS);
	r->sc->parameters = table(r, n->count, sizeof(rt_sc_parameter));
	if (n->count && !r->sc->parameters) return nomem(r);
	r->sc->parameters_alloc = n->count;
	static const char *const keys[] = { "range", "note", "grade", "source", NULL };
	for (int i = 0; i < n->count; i++) {
		char p[PATH_SIZE];
		join(p, "parameters", n->keys[i]);
		const rt_ynode *v = n->items[i];
		rt_sc_parameter *pm = &r->sc->parameters[i];
		r->sc->parameter_count = i + 1;
		if (strlen(n->keys[i]) >= sizeof pm->key) return bad(r, v, p, "key path too long");
		snprintf(pm->key, sizeof pm->key, "%s", n->keys[i]);
		if ((s = need_map(r, v, p)) != RT_OK || (s = check_keys(r, v, p, keys)) != RT_OK) return s;
		if ((s = get_text(r, v, "note", p, false, pm->note, sizeof pm->note)) != RT_OK) return s;
		const rt_ynode *rg;
		if ((s = get_node(r, v, "range", p, true, &rg)) != RT_OK) return s;
		char rp[PATH_SIZE];
		join(rp, p, "range");
		if ((s = need_seq(r, rg, rp)) != RT_OK) return s;
		if (rg->count != 2) return bad(r, rg, rp, "expected [low, high]");
		if ((s = scalar_number(r, rg->items[0], rp, -1e9, 1e9, &pm->low)) != RT_OK) return s;
		if ((s = scalar_number(r, rg->items[1], rp, -1e9, 1e9, &pm->high)) != RT_OK) return s;
		if (pm->high < pm->low) return bad(r, rg, rp, "low %g is above high %g", pm->low, pm->high);
		rt_ynode *parent;
		char last[RT_SCENARIO_TEXT_SIZE];
		rt_ynode *target = find_path(root, pm->key, &parent, last, sizeof last);
		if (!target) return bad(r, v, p, "the scenario has no value at %s", pm->key);
		if ((s = scalar_number(r, target, pm->key, pm->low, pm->high, &pm->value)) != RT_OK) return s;
	}
	return RT_OK;
}

/* One time series of environment.weather: a list of {at: time, <value keys>}, times
 * increasing; values[k] gets value key k, within lo[k]..hi[k]. */
static rt_status read_series(reader *r, const rt_ynode *w, const char *key, int keys_count, const char *const *value_keys,
			     const double *lo, const double *hi, int *count, double **time_s, double **values[])
{
	const rt_ynode *n = rt__yaml_get(w, key);
	if (!n) return RT_OK;
	char sp[PATH_SIZE];
	join(sp, "environment.weather", key);
	rt_status s;
	if ((s = need_seq(r, n, sp)) != RT_OK) return s;
	if (n->count < 1 || n->count > RT_SCENARIO_MAX_SERIES) return bad(r, n, sp, "expected 1..%d points", RT_SCENARIO_MAX_SERIES);
	*time_s = rt__calloc(r->a, (size_t)n->count, sizeof(double));
	if (!*time_s) return nomem(r);
	*count = n->count; /* from here the arrays are freed with this count */
	for (int k = 0; k < keys_count; ++k) {
		*values[k] = rt__calloc(r->a, (size_t)n->count, sizeof(double));
		if (!*values[k]) return nomem(r);
	}
	const char *allowed[4] = { "at", NULL, NULL, NULL };
	for (int k = 0; k < keys_count && k < 2; ++k) allowed[k + 1] = value_keys[k];
	for (int i = 0; i < n->count; i++) {
		char p[PATH_SIZE];
		join_index(p, sp, i);
		const rt_ynode *c = n->items[i];
		if ((s = need_map(r, c, p)) != RT_OK || (s = check_keys(r, c, p, allowed)) != RT_OK) return s;
		if ((s = get_run_time(r, c, "at", p, true, &(*time_s)[i])) != RT_OK) return s;
		for (int k = 0; k < keys_count; ++k)
			if ((s = get_number(r, c, value_keys[k], p, true, lo[k], hi[k], &(*values[k])[i])) != RT_OK) return s;
		if (i > 0 && !((*time_s)[i] > (*time_s)[i - 1]))
			return bad(r, c, p, "%s times must increase; this one is not after the one before", key);
	}
	return RT_OK;
}

/* environment.weather: the ground's wetness at the start, rain and wind over time. */
static rt_status read_weather(reader *r, const rt_ynode *env)
{
	rt_scenario *sc = r->sc;
	const rt_ynode *w = rt__yaml_get(env, "weather");
	if (!w) return RT_OK;
	const char *wp = "environment.weather";
	static const char *const keys[] = { "wetness", "rain", "wind", "note", "source", NULL };
	rt_status s;
	if ((s = need_map(r, w, wp)) != RT_OK || (s = check_keys(r, w, wp, keys)) != RT_OK) return s;
	if ((s = get_number(r, w, "wetness", wp, false, 0.0, 1.0, &sc->ground_wetness)) != RT_OK) return s;
	{
		static const char *const value_keys[1] = { "mm_per_h" };
		const double lo[1] = { 0.0 }, hi[1] = { 500.0 };
		double **values[1] = { &sc->rain_mm_per_h };
		if ((s = read_series(r, w, "rain", 1, value_keys, lo, hi, &sc->rain_count, &sc->rain_time_s, values)) != RT_OK) return s;
	}
	{
		static const char *const value_keys[2] = { "speed_mps", "from_deg" };
		const double lo[2] = { 0.0, 0.0 }, hi[2] = { 60.0, 360.0 };
		double **values[2] = { &sc->wind_speed_mps, &sc->wind_from_deg };
		if ((s = read_series(r, w, "wind", 2, value_keys, lo, hi, &sc->wind_count, &sc->wind_time_s, values)) != RT_OK) return s;
	}
	return RT_OK;
}

/* environment.fires: fires set at a place or a point, at a time; a point or a line. */
static rt_status read_fires(reader *r, const rt_ynode *root)
{
	rt_scenario *sc = r->sc;
	const rt_ynode *env = rt__yaml_get(root, "environment");
	const rt_ynode *n = env ? rt__yaml_get(env, "fires") : NULL;
	if (!n) return RT_OK;
	const char *fp = "environment.fires";
	rt_status s;
	if ((s = need_seq(r, n, fp)) != RT_OK) return s;
	if (n->count < 1 || n->count > RT_SCENARIO_MAX_SERIES) return bad(r, n, fp, "expected 1..%d fires", RT_SCENARIO_MAX_SERIES);
	sc->fires = table(r, n->count, sizeof(rt_sc_fire));
	if (!sc->fires) return nomem(r);
	sc->fires_alloc = n->count;
	static const char *const keys[] = { "at", "place", "lat", "lon", "offset_m", "length_m", "bearing_deg", "note", "source", NULL };
	for (int i = 0; i < n->count; i++) {
		char p[PATH_SIZE];
		join_index(p, fp, i);
		const rt_ynode *v = n->items[i];
		rt_sc_fire *f = &sc->fires[i];
		sc->fire_count = i + 1;
		f->line = v->line;
		f->place = -1;
		if ((s = need_map(r, v, p)) != RT_OK || (s = check_keys(r, v, p, keys)) != RT_OK) return s;
		if ((s = get_run_time(r, v, "at", p, true, &f->at_s)) != RT_OK) return s;
		if (rt__yaml_get(v, "place")) {
			if (rt__yaml_get(v, "lat") || rt__yaml_get(v, "lon")) return bad(r, v, p, "give either place or lat and lon, not both");
			if ((s = get_ref(r, v, "place", p, true, find_place, "place", &f->place)) != RT_OK) return s;
		} else {
			if (!rt__yaml_get(v, "lat") && !rt__yaml_get(v, "lon")) return bad(r, v, p, "missing where the fire is set: give place or lat and lon");
			if ((s = get_number(r, v, "lat", p, true, -90.0, 90.0, &f->lat)) != RT_OK) return s;
			if ((s = get_number(r, v, "lon", p, true, -180.0, 180.0, &f->lon)) != RT_OK) return s;
			if (sc->map && !inside_map(sc->map, f->lat, f->lon))
				return bad(r, v, p, "lat %g, lon %g lies outside the map %s", f->lat, f->lon, sc->map_path);
		}
		if ((s = get_offset(r, v, p, &f->offset_x_m, &f->offset_y_m)) != RT_OK) return s;
		if ((s = get_number(r, v, "length_m", p, false, 0.0, 100000.0, &f->length_m)) != RT_OK) return s;
		if ((s = get_number(r, v, "bearing_deg", p, false, 0.0, 360.0, &f->bearing_deg)) != RT_OK) return s;
		if (rt__yaml_get(v, "bearing_deg") && !(f->length_m > 0.0))
			return bad(r, v, p, "bearing_deg gives the direction of a line: give length_m too");
	}
	return RT_OK;
}

static rt_status read_environment(reader *r, const rt_ynode *root)
{
	rt_scenario *sc = r->sc;
	sc->tide = rt_tide_def_default();
	sc->cloud_cover = 0.0;
	const rt_ynode *n = rt__yaml_get(root, "environment");
	if (!n) return RT_OK;
	rt_status s;
	static const char *const keys[] = { "cloud_cover", "tide", "weather", "fires", "note", "source", NULL };
	if ((s = need_map(r, n, "environment")) != RT_OK || (s = check_keys(r, n, "environment", keys)) != RT_OK) return s;
	if ((s = get_number(r, n, "cloud_cover", "environment", false, 0.0, 1.0, &sc->cloud_cover)) != RT_OK) return s;
	if ((s = read_weather(r, n)) != RT_OK) return s;
	const rt_ynode *t = rt__yaml_get(n, "tide");
	if (!t) return RT_OK;
	static const char *const tkeys[] = { "mean_level_m", "constituents", "surge", "note", "source", NULL };
	const char *tp = "environment.tide";
	if ((s = need_map(r, t, tp)) != RT_OK || (s = check_keys(r, t, tp, tkeys)) != RT_OK) return s;
	if ((s = get_number(r, t, "mean_level_m", tp, false, -100.0, 100.0, &sc->tide.mean_level_m)) != RT_OK) return s;
	const rt_ynode *cs = rt__yaml_get(t, "constituents");
	if (cs) {
		const char *cp = "environment.tide.constituents";
		if ((s = need_seq(r, cs, cp)) != RT_OK) return s;
		if (cs->count > RT_TIDE_MAX_CONSTITUENTS) return bad(r, cs, cp, "%d constituents; the limit is %d", cs->count, RT_TIDE_MAX_CONSTITUENTS);
		static const char *const ckeys[] = { "name", "amplitude_m", "phase_deg", "speed_deg_per_h", NULL };
		for (int i = 0; i < cs->count; i++) {
			char p[PATH_SIZE];
			join_index(p, cp, i);
			const rt_ynode *c = cs->items[i];
			rt_tide_constituent *k = &sc->tide.constituents[i];
			if ((s = need_map(r, c, p)) != RT_OK || (s = check_keys(r, c, p, ckeys)) != RT_OK) return s;
			if ((s = get_text(r, c, "name", p, true, k->name, sizeof k->name)) != RT_OK) return s;
			if ((s = get_number(r, c, "amplitude_m", p, true, 0.0, 20.0, &k->amplitude_m)) != RT_OK) return s;
			if ((s = get_number(r, c, "phase_deg", p, true, -360.0, 360.0, &k->phase_deg)) != RT_OK) return s;
			k->speed_deg_per_h = rt_tide_constituent_speed_deg_per_h(k->name);
			if (rt__yaml_get(c, "speed_deg_per_h")) {
				if ((s = get_number(r, c, "speed_deg_per_h", p, true, 0.0, 360.0, &k->speed_deg_per_h)) != RT_OK) return s;
			} else if (!(k->speed_deg_per_h > 0.0)) {
				char np[PATH_SIZE];
				join(np, p, "name");
				return bad(r, rt__yaml_get(c, "name"), np, "unknown constituent \"%s\"; name one of M2, S2, N2, K2, K1, O1, P1, Q1, M4 or give speed_deg_per_h", k->name);
			}
			sc->tide.constituent_count = i + 1;
		}
	}
	const rt_ynode *sg = rt__yaml_get(t, "surge");
	if (sg) {
		const char *sp = "environment.tide.surge";
		if ((s = need_seq(r, sg, sp)) != RT_OK) return s;
		if (sg->count < 1 || sg->count > RT_SCENARIO_MAX_SERIES) return bad(r, sg, sp, "expected 1..%d points", RT_SCENARIO_MAX_SERIES);
		sc->surge_alloc = sg->count;
		sc->surge_time_s = rt__calloc(r->a, (size_t)sg->count, sizeof(double));
		sc->surge_level_m = sc->surge_time_s ? rt__calloc(r->a, (size_t)sg->count, sizeof(double)) : NULL;
		if (!sc->surge_level_m) return nomem(r);
		static const char *const skeys[] = { "at", "level_m", NULL };
		for (int i = 0; i < sg->count; i++) {
			char p[PATH_SIZE];
			join_index(p, sp, i);
			const rt_ynode *c = sg->items[i];
			if ((s = need_map(r, c, p)) != RT_OK || (s = check_keys(r, c, p, skeys)) != RT_OK) return s;
			if ((s = get_run_time(r, c, "at", p, true, &sc->surge_time_s[i])) != RT_OK) return s;
			if ((s = get_number(r, c, "level_m", p, true, -20.0, 20.0, &sc->surge_level_m[i])) != RT_OK) return s;
			if (i > 0 && !(sc->surge_time_s[i] > sc->surge_time_s[i - 1]))
				return bad(r, c, p, "surge times must increase; this one is not after the one before");
		}
		sc->tide.surge_count = sg->count;
		sc->tide.surge_time_s = sc->surge_time_s;
		sc->tide.surge_level_m = sc->surge_level_m;
	}
	return RT_OK;
}

static rt_status read_head(reader *r, const rt_ynode *root, const char *base_dir, const rt_scenario_def *def)
{
	rt_scenario *sc = r->sc;
	static const char *const keys[] = { "rout", "name", "title", "map", "start", "end", "utc_offset_h", "place", "scale",
					    "dt_s", "trace_every_s", "environment", "sides", "places", "refuges", "flight", "corps",
					    "triggers", "parameters", "history", "sources", "note", NULL };
	rt_status s;
	if ((s = need_map(r, root, "")) != RT_OK) return s;
	if ((s = check_keys(r, root, "", keys)) != RT_OK) return s;
	int version = 0;
	if ((s = get_int(r, root, "rout", "", true, 1, 1, &version)) != RT_OK) return s;
	if ((s = get_text(r, root, "name", "", true, sc->name, sizeof sc->name)) != RT_OK) return s;
	if ((s = get_text(r, root, "title", "", false, sc->title, sizeof sc->title)) != RT_OK) return s;
	char map[768];
	if ((s = get_text(r, root, "map", "", true, map, sizeof map)) != RT_OK) return s;
	if (map[0] == '/' || !base_dir || !base_dir[0]) snprintf(sc->map_path, sizeof sc->map_path, "%s", map);
	else snprintf(sc->map_path, sizeof sc->map_path, "%.250s/%s", base_dir, map);
	if ((s = get_number(r, root, "utc_offset_h", "", true, -14.0, 14.0, &sc->utc_offset_h)) != RT_OK) return s;
	const rt_ynode *st;
	if ((s = get_node(r, root, "start", "", true, &st)) != RT_OK) return s;
	if ((s = scalar_time(r, st, "start", &sc->start_jd_ut)) != RT_OK) return s;
	parse_civil(st->text, &sc->start_local);
	const rt_ynode *en;
	if ((s = get_node(r, root, "end", "", true, &en)) != RT_OK) return s;
	double end_jd;
	if ((s = scalar_time(r, en, "end", &end_jd)) != RT_OK) return s;
	sc->end_s = floor((end_jd - sc->start_jd_ut) * 86400.0 * 1000.0 + 0.5) / 1000.0;
	if (!(sc->end_s > 0.0) || sc->end_s > RT_SCENARIO_MAX_DURATION_S)
		return bad(r, en, "end", "the end must come after the start and within %g days of it", RT_SCENARIO_MAX_DURATION_S / 86400.0);
	sc->scale = 1.0;
	sc->dt_s = 0.2;
	sc->trace_every_s = 60.0;
	if ((s = get_number(r, root, "scale", "", false, 1.0, 1000.0, &sc->scale)) != RT_OK) return s;
	if ((s = get_number(r, root, "dt_s", "", false, 0.01, 1.0, &sc->dt_s)) != RT_OK) return s;
	if ((s = get_number(r, root, "trace_every_s", "", false, 0.0, 86400.0, &sc->trace_every_s)) != RT_OK) return s;
	const rt_ynode *pl;
	if ((s = get_node(r, root, "place", "", true, &pl)) != RT_OK) return s;
	static const char *const pkeys[] = { "lat", "lon", "name", NULL };
	if ((s = need_map(r, pl, "place")) != RT_OK || (s = check_keys(r, pl, "place", pkeys)) != RT_OK) return s;
	if ((s = get_number(r, pl, "lat", "place", true, -90.0, 90.0, &sc->lat)) != RT_OK) return s;
	if ((s = get_number(r, pl, "lon", "place", true, -180.0, 180.0, &sc->lon)) != RT_OK) return s;
	const rt_ynode *src = rt__yaml_get(root, "sources");
	if (src && (s = need_map(r, src, "sources")) != RT_OK) return s;
	if (def->load_map) {
		rt_map_def md = rt_map_def_default();
		md.allocator = *r->a;
		if (def->max_map_cells > 0) md.max_cells = def->max_map_cells;
		s = rt_map_load(sc->map_path, &md, &sc->map, r->err);
		if (s != RT_OK) {
			/* the map's own error names the map file; say which scenario line pointed there */
			const rt_ynode *mn = rt__yaml_get(root, "map");
			char inner[sizeof r->err->message];
			snprintf(inner, sizeof inner, "%s", r->err->message);
			char ifile[sizeof r->err->file];
			snprintf(ifile, sizeof ifile, "%s", r->err->file);
			int il = r->err->line;
			return rt__fail_at(r->err, s, r->file, mn->line, mn->column, "map", "map: %s%s%.0d: %s", ifile,
					   il ? ":" : "", il, inner);
		}
	}
	return RT_OK;
}

rt_scenario_def rt_scenario_def_default(void)
{
	rt_scenario_def d;
	memset(&d, 0, sizeof d);
	d.load_map = true;
	d.allocator = rt_allocator_default();
	d.cookie = RT_COOKIE;
	return d;
}

void rt_scenario_destroy(rt_scenario *sc)
{
	if (!sc) return;
	const rt_allocator *a = &sc->allocator;
	if (sc->map) rt_map_destroy(sc->map);
	rt__free(a, sc->places, (size_t)sc->places_alloc * sizeof(rt_sc_place));
	rt__free(a, sc->corps, (size_t)sc->corps_alloc * sizeof(rt_sc_corps));
	rt__free(a, sc->units, (size_t)sc->units_alloc * sizeof(rt_sc_unit));
	rt__free(a, sc->triggers, (size_t)sc->triggers_alloc * sizeof(rt_sc_trigger));
	rt__free(a, sc->actions, (size_t)sc->actions_alloc * sizeof(rt_sc_action));
	rt__free(a, sc->history, (size_t)sc->history_alloc * sizeof(rt_sc_history));
	rt__free(a, sc->parameters, (size_t)sc->parameters_alloc * sizeof(rt_sc_parameter));
	rt__free(a, sc->surge_time_s, (size_t)sc->surge_alloc * sizeof(double));
	rt__free(a, sc->surge_level_m, (size_t)sc->surge_alloc * sizeof(double));
	rt__free(a, sc->rain_time_s, (size_t)sc->rain_count * sizeof(double));
	rt__free(a, sc->rain_mm_per_h, (size_t)sc->rain_count * sizeof(double));
	rt__free(a, sc->wind_time_s, (size_t)sc->wind_count * sizeof(double));
	rt__free(a, sc->wind_speed_mps, (size_t)sc->wind_count * sizeof(double));
	rt__free(a, sc->wind_from_deg, (size_t)sc->wind_count * sizeof(double));
	rt__free(a, sc->fires, (size_t)sc->fires_alloc * sizeof(rt_sc_fire));
	rt__free(a, sc->refuges, (size_t)sc->refuges_alloc * sizeof(rt_sc_refuge));
	rt__free(a, sc, sizeof *sc);
}

rt_status rt_scenario_load_string(const char *text, size_t length, const char *name, const char *base_dir,
				  const rt_scenario_def *def, rt_scenario **out, rt_error *err)
{
	rt__error_clear(err);
	if (out) *out = NULL;
	if (!text || !out || !def || def->cookie != RT_COOKIE)
		return rt__fail(err, RT_ERR_INVALID, "scenario definition was not made by rt_scenario_def_default()");
	if (def->set_count < 0 || (def->set_count > 0 && !def->sets)) return rt__fail(err, RT_ERR_INVALID, "bad set_count");
	const rt_allocator *a = &def->allocator;
	rt_scenario *sc = rt__calloc(a, 1, sizeof *sc);
	if (!sc) return rt__fail(err, RT_ERR_NOMEM, "out of memory reading %s", name);
	sc->allocator = *a;
	snprintf(sc->file, sizeof sc->file, "%s", name ? name : "scenario");
	reader r = { sc, sc->file, err, &sc->allocator, NULL };
	rt_ynode *root = NULL;
	rt_status s = rt__yaml_parse(text, length, sc->file, a, &root, err);
	if (s != RT_OK) goto error;
	if ((s = apply_sets(&r, root, def->sets, def->set_count)) != RT_OK) goto error;
	if ((s = read_head(&r, root, base_dir, def)) != RT_OK) goto error;
	if ((s = read_environment(&r, root)) != RT_OK) goto error;
	if ((s = read_sides(&r, root)) != RT_OK) goto error;
	if ((s = read_places(&r, root)) != RT_OK) goto error;
	if ((s = read_refuges(&r, root)) != RT_OK) goto error;
	if ((s = read_flight(&r, root)) != RT_OK) goto error;
	if ((s = read_fires(&r, root)) != RT_OK) goto error;
	if ((s = read_corps(&r, root)) != RT_OK) goto error;
	if ((s = read_triggers(&r, root)) != RT_OK) goto error;
	if ((s = read_parameters(&r, root)) != RT_OK) goto error;
	if ((s = read_history(&r, root)) != RT_OK) goto error;
	if (sc->men / sc->scale > RT_SCENARIO_MAX_AGENTS) {
		s = rt__fail_at(err, RT_ERR_CAPACITY, sc->file, 1, 1, "scale", "scale: %lld men at scale %g make %.0f agents; the limit is %d",
				(long long)sc->men, sc->scale, (double)sc->men / sc->scale, RT_SCENARIO_MAX_AGENTS);
		goto error;
	}
	rt__yaml_free(root, a);
	*out = sc;
	return RT_OK;
error:
	rt__yaml_free(root, a);
	rt_scenario_destroy(sc);
	return s;
}

rt_status rt_scenario_load(const char *path, const rt_scenario_def *def, rt_scenario **out, rt_error *err)
{
	rt__error_clear(err);
	if (out) *out = NULL;
	if (!path || !def || def->cookie != RT_COOKIE)
		return rt__fail(err, RT_ERR_INVALID, "scenario definition was not made by rt_scenario_def_default()");
	FILE *f = fopen(path, "rb");
	if (!f) return rt__fail_at(err, RT_ERR_IO, path, 0, 0, "", "cannot open %s: %s", path, strerror(errno));
	char *text = NULL;
	size_t size = 0, cap = 0;
	rt_status s = RT_OK;
	for (;;) {
		if (size == cap) {
			size_t ncap = cap ? 2 * cap : 65536;
			if (ncap > (size_t)RT_YAML_MAX_BYTES + 1) ncap = (size_t)RT_YAML_MAX_BYTES + 1;
			if (ncap == cap) {
				s = rt__fail_at(err, RT_ERR_CAPACITY, path, 0, 0, "", "%s is larger than %u bytes, the limit for a scenario",
						path, (unsigned)RT_YAML_MAX_BYTES);
				break;
			}
			char *t = rt__realloc(&def->allocator, text, cap, ncap);
			if (!t) {
				s = rt__fail(err, RT_ERR_NOMEM, "out of memory reading %s", path);
				break;
			}
			text = t;
			cap = ncap;
		}
		size_t got = fread(text + size, 1, cap - size, f);
		size += got;
		if (got == 0) {
			if (ferror(f)) s = rt__fail_at(err, RT_ERR_IO, path, 0, 0, "", "cannot read %s", path);
			break;
		}
	}
	fclose(f);
	if (s == RT_OK) {
		char dir[512];
		snprintf(dir, sizeof dir, "%s", path);
		char *slash = strrchr(dir, '/');
		if (slash) *slash = '\0';
		else snprintf(dir, sizeof dir, ".");
		s = rt_scenario_load_string(text, size, path, dir, def, out, err);
	}
	rt__free(&def->allocator, text, cap);
	return s;
}

void rt_scenario_get_info(const rt_scenario *sc, rt_scenario_info *o)
{
	memset(o, 0, sizeof *o);
	o->name = sc->name;
	o->title = sc->title;
	o->map_path = sc->map_path;
	o->start_jd_ut = sc->start_jd_ut;
	o->duration_s = sc->end_s;
	o->utc_offset_h = sc->utc_offset_h;
	o->scale = sc->scale;
	o->dt_s = sc->dt_s;
	o->side_count = sc->side_count;
	o->corps_count = sc->corps_count;
	o->unit_count = sc->unit_count;
	o->place_count = sc->place_count;
	o->trigger_count = sc->trigger_count;
	o->history_count = sc->history_count;
	o->parameter_count = sc->parameter_count;
	o->men = sc->men;
	o->map = sc->map;
}

const char *rt_scenario_side_name(const rt_scenario *sc, int side)
{
	return sc && side >= 0 && side < sc->side_count ? sc->sides[side].name : "";
}

bool rt_scenario_get_history(const rt_scenario *sc, int i, rt_history_figure *o)
{
	if (!sc || i < 0 || i >= sc->history_count) return false;
	const rt_sc_history *h = &sc->history[i];
	o->figure = h->figure;
	o->recorded_low = h->low;
	o->recorded_high = h->high;
	o->grade = h->grade;
	o->source = h->source;
	return true;
}

bool rt_scenario_get_parameter(const rt_scenario *sc, int i, rt_scenario_parameter *o)
{
	if (!sc || i < 0 || i >= sc->parameter_count) return false;
	const rt_sc_parameter *p = &sc->parameters[i];
	o->key = p->key;
	o->low = p->low;
	o->high = p->high;
	o->value = p->value;
	o->note = p->note;
	return true;
}
