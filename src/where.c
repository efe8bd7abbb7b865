/* Where each corps of a run was (`rout where`, rt_where_read): the run folder read back,
 * not the world. run.json says which agents are whose (its `units` and `corps`) and how
 * many men an agent is (`scale`); the trace gives every man's state and position frame by
 * frame; the map names the ground. The trace is passed over once for the frames' times
 * (rt_trace_reader_skip) and once more reading only the frames wanted. */
#include "canvas.h"
#include "run_folder.h"
#include "rout/env.h"
#include "rout/picture.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define WHERE_MAX_CORPS 4096
#define WHERE_MAX_AGENTS (1 << 28)
/* a sheltered man is in the fort whose box, this much larger, holds him: the men of a
 * full fort stand at its gate, just outside its outline (docs/model.md, section 11) */
#define WHERE_FORT_MARGIN_M 100.0
/* times typed by the user are Julian days underneath, good to about 40 us in 1641: a
 * frame this near a time asked for is at it */
#define WHERE_TIME_SLACK_S 0.01

rt_where_def rt_where_def_default(void)
{
	rt_where_def d;
	memset(&d, 0, sizeof d);
	d.every_s = 3600.0;
	d.allocator = rt_allocator_default();
	d.cookie = RT_COOKIE;
	return d;
}

void rt_where_free(rt_where_table *t)
{
	if (!t) return;
	const rt_allocator a = t->allocator;
	rt__free(&a, t->corps, (size_t)(t->corps_count > 0 ? t->corps_count : 1) * sizeof *t->corps);
	rt__free(&a, t->places, (size_t)(t->place_count > 0 ? t->place_count : 1) * sizeof *t->places);
	rt__free(&a, t->rows, (size_t)(t->row_count > 0 ? t->row_count : 1) * sizeof *t->rows);
	rt__free(&a, t, sizeof *t);
}

/* Who each agent is: his corps (-1: none) and whether he is its commander (one man). */
typedef struct roll {
	int agents;       /* agents run.json accounts for: the trace must hold them */
	int *corps;       /* per agent */
	uint8_t *commander;
	double scale;
} roll;

static void roll_free(roll *r, const rt_allocator *a)
{
	const size_t n = (size_t)(r->agents > 0 ? r->agents : 1);
	rt__free(a, r->corps, n * sizeof(int));
	rt__free(a, r->commander, n);
	memset(r, 0, sizeof *r);
}

static rt_status member_fail(rt_error *err, const rt__run_info *ri, const char *field, const char *what)
{
	return rt__fail_at(err, RT_ERR_INVALID, ri->json_path, 0, 0, field, "%s: %s", field, what);
}

/* run.json's scale, corps and units: the corps into t, the agents into r. */
/* limit: the agents in the trace's smallest frame; run.json may name none beyond. */
static rt_status read_roll(const rt__run_info *ri, bool by_unit, json_int_t limit, rt_where_table *t, roll *r, rt_error *err)
{
	const rt_allocator *a = &t->allocator;
	json_error_t je;
	json_t *root = json_load_file(ri->json_path, JSON_REJECT_DUPLICATES, &je);
	if (!root) return rt__fail_at(err, RT_ERR_PARSE, ri->json_path, je.line, je.column, NULL, "not JSON: %s", je.text);
	rt_status s = RT_OK;
	json_t *scale = json_object_get(root, "scale"), *corps = json_object_get(root, "corps"), *units = json_object_get(root, "units");
	if (!json_is_number(scale) || !(json_number_value(scale) > 0.0) || !isfinite(json_number_value(scale))) {
		s = member_fail(err, ri, "scale", scale ? "expected the men one agent stands for, a number > 0"
						      : "missing; expected the men one agent stands for (rout run writes it; a scene's folder has no corps)");
		goto done;
	}
	r->scale = json_number_value(scale);
	if (!json_is_array(corps) || json_array_size(corps) < 1 || json_array_size(corps) > WHERE_MAX_CORPS) {
		s = member_fail(err, ri, "corps", corps ? "expected an array of 1 to 4096 {id, name, name_zh, side, commander}"
						      : "missing; expected the run's corps (rout run writes them; a scene's folder has none)");
		goto done;
	}
	if (!json_is_array(units) || json_array_size(units) < 1) {
		s = member_fail(err, ri, "units", units ? "expected an array of {id, corps, kind, first_agent, agents}"
						      : "missing; expected the run's units (rout run writes them)");
		goto done;
	}
	const size_t nc = json_array_size(corps), nu = json_array_size(units);
	t->corps = rt__calloc(a, nc, sizeof *t->corps);
	if (!t->corps) {
		s = rt__fail(err, RT_ERR_NOMEM, "cannot allocate %zu corps", nc);
		goto done;
	}
	t->corps_count = (int)nc;
	json_int_t commander_of[WHERE_MAX_CORPS];
	for (size_t i = 0; i < nc; ++i) {
		json_t *c = json_array_get(corps, i), *id = json_object_get(c, "id"), *name = json_object_get(c, "name"),
		       *zh = json_object_get(c, "name_zh"), *side = json_object_get(c, "side"), *cmd = json_object_get(c, "commander");
		char field[64];
		snprintf(field, sizeof field, "corps[%zu]", i);
		if (!json_is_object(c) || !json_is_string(id) || (name && !json_is_string(name)) || (zh && !json_is_string(zh)) ||
		    !json_is_integer(side) || json_integer_value(side) < 0 || json_integer_value(side) > 255 ||
		    (cmd && !json_is_null(cmd) && !(json_is_integer(cmd) && json_integer_value(cmd) >= -1))) {
			s = member_fail(err, ri, field, "expected {\"id\": text, \"name\": text, \"name_zh\": text, \"side\": 0..255, \"commander\": an agent or -1}");
			goto done;
		}
		rt_where_corps *w = &t->corps[i];
		snprintf(w->id, sizeof w->id, "%s", json_string_value(id));
		snprintf(w->name, sizeof w->name, "%s", name ? json_string_value(name) : "");
		snprintf(w->name_zh, sizeof w->name_zh, "%s", zh ? json_string_value(zh) : "");
		w->side = (int)json_integer_value(side);
		commander_of[i] = json_is_integer(cmd) ? json_integer_value(cmd) : -1;
	}
	/* the agents accounted for: every unit's, and every commander */
	json_int_t top = 0;
	for (size_t i = 0; i < nu; ++i) {
		json_t *u = json_array_get(units, i), *c = json_object_get(u, "corps"), *first = json_object_get(u, "first_agent"),
		       *count = json_object_get(u, "agents");
		char field[64];
		snprintf(field, sizeof field, "units[%zu]", i);
		if (!json_is_object(u) || !json_is_integer(c) || json_integer_value(c) < 0 || json_integer_value(c) >= (json_int_t)nc ||
		    !json_is_integer(first) || json_integer_value(first) < 0 || !json_is_integer(count) || json_integer_value(count) < 0 ||
		    json_integer_value(first) > WHERE_MAX_AGENTS || json_integer_value(count) > WHERE_MAX_AGENTS) {
			char what[160];
			snprintf(what, sizeof what, "expected {\"corps\": 0..%zu, \"first_agent\": a whole number >= 0, \"agents\": a whole number >= 0}", nc - 1);
			s = member_fail(err, ri, field, what);
			goto done;
		}
		const json_int_t end = json_integer_value(first) + json_integer_value(count);
		if (end > limit) {
			char what[200];
			snprintf(what, sizeof what, "agents %lld to %lld are not all in the trace, whose frames hold %lld", (long long)json_integer_value(first),
				 (long long)end - 1, (long long)limit);
			s = member_fail(err, ri, field, what);
			goto done;
		}
		if (end > top) top = end;
	}
	for (size_t i = 0; i < nc; ++i) {
		if (commander_of[i] >= limit) {
			char field[64], what[120];
			snprintf(field, sizeof field, "corps[%zu].commander", i);
			snprintf(what, sizeof what, "agent %lld is not in the trace, whose frames hold %lld", (long long)commander_of[i], (long long)limit);
			s = member_fail(err, ri, field, what);
			goto done;
		}
		if (commander_of[i] + 1 > top) top = commander_of[i] + 1;
	}
	r->agents = (int)top;
	r->corps = rt__alloc(a, (size_t)(top > 0 ? top : 1) * sizeof(int));
	r->commander = rt__calloc(a, (size_t)(top > 0 ? top : 1), 1);
	if (!r->corps || !r->commander) {
		s = rt__fail(err, RT_ERR_NOMEM, "cannot allocate the roll of %lld agents", (long long)top);
		goto done;
	}
	for (json_int_t k = 0; k < top; ++k) r->corps[k] = -1;
	for (size_t i = 0; i < nu; ++i) {
		json_t *u = json_array_get(units, i);
		const json_int_t c = json_integer_value(json_object_get(u, "corps")), first = json_integer_value(json_object_get(u, "first_agent"));
		const json_int_t count = json_integer_value(json_object_get(u, "agents"));
		for (json_int_t k = first; k < first + count; ++k) r->corps[k] = (int)c;
	}
	for (size_t i = 0; i < nc; ++i)
		if (commander_of[i] >= 0) {
			r->corps[commander_of[i]] = (int)i;
			r->commander[commander_of[i]] = 1;
		}
	if (by_unit) {
		/* a group per unit: its men (a commander is in his corps' headquarters unit) */
		rt_where_corps *g = rt__calloc(a, nu, sizeof *g);
		if (!g) {
			s = rt__fail(err, RT_ERR_NOMEM, "cannot allocate %zu units", nu);
			goto done;
		}
		for (json_int_t k = 0; k < top; ++k) r->corps[k] = -1;
		for (size_t i = 0; i < nu; ++i) {
			json_t *u = json_array_get(units, i), *id = json_object_get(u, "id"), *kind = json_object_get(u, "kind");
			const json_int_t c = json_integer_value(json_object_get(u, "corps")), first = json_integer_value(json_object_get(u, "first_agent"));
			const json_int_t count = json_integer_value(json_object_get(u, "agents"));
			if (json_is_string(id)) snprintf(g[i].id, sizeof g[i].id, "%s", json_string_value(id));
			else snprintf(g[i].id, sizeof g[i].id, "unit_%zu", i);
			if (json_is_string(kind)) snprintf(g[i].kind, sizeof g[i].kind, "%s", json_string_value(kind));
			snprintf(g[i].corps, sizeof g[i].corps, "%s", t->corps[c].id);
			snprintf(g[i].name, sizeof g[i].name, "%s", t->corps[c].name);
			snprintf(g[i].name_zh, sizeof g[i].name_zh, "%s", t->corps[c].name_zh);
			g[i].side = t->corps[c].side;
			for (json_int_t k = first; k < first + count; ++k) r->corps[k] = (int)i;
		}
		rt__free(a, t->corps, nc * sizeof *t->corps);
		t->corps = g;
		t->corps_count = (int)nu;
	}
done:
	json_decref(root);
	return s;
}

/* The map's features as places: a name to say where a corps stood. */
static rt_status read_places(const rt_map *map, rt_where_table *t, rt_error *err)
{
	const int n = rt_map_feature_count(map);
	t->places = rt__calloc(&t->allocator, (size_t)(n > 0 ? n : 1), sizeof *t->places);
	if (!t->places) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate %d places", n);
	t->place_count = n;
	for (int i = 0; i < n; ++i) {
		rt_map_feature_view v;
		if (!rt_map_feature_info(map, i, &v)) continue;
		rt_where_place *p = &t->places[i];
		snprintf(p->id, sizeof p->id, "%s", v.id);
		snprintf(p->name, sizeof p->name, "%s", v.name[0] ? v.name : v.id);
		p->kind = v.kind;
		p->box_min = v.bbox_min;
		p->box_max = v.bbox_max;
		p->centre = (rt_vec2){ 0.5 * (v.bbox_min.x + v.bbox_max.x), 0.5 * (v.bbox_min.y + v.bbox_max.y) };
	}
	return RT_OK;
}

static bool landmark(rt_map_kind k)
{
	return k == RT_MAP_FORT || k == RT_MAP_CAMP || k == RT_MAP_HILL || k == RT_MAP_FORD;
}

/* The fort (index into places) whose box, grown by the margin, holds p; -1 none. */
static int fort_at(const rt_where_table *t, rt_vec2 p)
{
	int best = -1;
	double best_d = INFINITY;
	for (int i = 0; i < t->place_count; ++i) {
		const rt_where_place *f = &t->places[i];
		if (f->kind != RT_MAP_FORT) continue;
		const double dx = fmax(0.0, fmax(f->box_min.x - p.x, p.x - f->box_max.x));
		const double dy = fmax(0.0, fmax(f->box_min.y - p.y, p.y - f->box_max.y));
		const double d = hypot(dx, dy);
		if (d <= WHERE_FORT_MARGIN_M && d < best_d) {
			best = i;
			best_d = d;
		}
	}
	return best;
}

typedef struct tally {
	double men[RT_STATE_COUNT];
	double field, sx, sy, sxx, syy;
	double *shelter; /* per place */
} tally;

/* One frame summed per corps into rows [first, first + corps_count). */
static void sum_frame(const rt_trace_frame *f, rt_vec2 origin, const roll *r, const rt_map *map, rt_where_table *t, tally *k,
		      int first)
{
	const int nc = t->corps_count, np = t->place_count;
	for (int c = 0; c < nc; ++c) {
		memset(k[c].men, 0, sizeof k[c].men);
		k[c].field = k[c].sx = k[c].sy = k[c].sxx = k[c].syy = 0.0;
		memset(k[c].shelter, 0, (size_t)(np > 0 ? np : 1) * sizeof(double));
	}
	const int n = f->count < r->agents ? f->count : r->agents;
	for (int s = 0; s < n; ++s) {
		const int c = r->corps[s];
		if (c < 0) continue;
		const double men = r->commander[s] ? 1.0 : r->scale;
		const uint8_t st = f->state[s];
		k[c].men[st] += men;
		const double x = origin.x + f->x[s], y = origin.y + f->y[s];
		if (st <= RT_STATE_DESPERATE) {
			k[c].field += men;
			k[c].sx += men * x;
			k[c].sy += men * y;
			k[c].sxx += men * x * x;
			k[c].syy += men * y * y;
		} else if (st == RT_STATE_SHELTERED) {
			const int fort = fort_at(t, (rt_vec2){ x, y });
			if (fort >= 0) k[c].shelter[fort] += men;
		}
	}
	for (int c = 0; c < nc; ++c) {
		rt_where_row *w = &t->rows[first + c];
		w->time_s = f->time_s;
		w->corps = c;
		memcpy(w->men, k[c].men, sizeof w->men);
		w->in_field = k[c].field;
		w->ground = w->near = w->shelter = -1;
		w->near_m = w->near_bearing_deg = NAN;
		w->shelter_men = 0.0;
		for (int i = 0; i < np; ++i)
			if (k[c].shelter[i] > w->shelter_men) {
				w->shelter = i;
				w->shelter_men = k[c].shelter[i];
			}
		if (!(k[c].field > 0.0)) {
			w->centre = (rt_vec2){ NAN, NAN };
			w->centre_lonlat = (rt_lonlat){ NAN, NAN };
			w->spread_m = NAN;
			continue;
		}
		const double mx = k[c].sx / k[c].field, my = k[c].sy / k[c].field;
		w->centre = (rt_vec2){ mx, my };
		w->centre_lonlat = rt_map_xy_to_lonlat(map, w->centre);
		w->spread_m = sqrt(fmax(0.0, k[c].sxx / k[c].field - mx * mx + k[c].syy / k[c].field - my * my));
		rt_map_cell cell;
		if (rt_map_sample(map, w->centre, &cell) && cell.feature >= 0 && cell.feature < np) w->ground = cell.feature;
		double best = INFINITY;
		for (int i = 0; i < np; ++i) {
			if (!landmark(t->places[i].kind)) continue;
			const double d = hypot(mx - t->places[i].centre.x, my - t->places[i].centre.y);
			if (d < best) {
				best = d;
				w->near = i;
			}
		}
		if (w->near >= 0) {
			w->near_m = best;
			const double b = atan2(mx - t->places[w->near].centre.x, my - t->places[w->near].centre.y) * (180.0 / 3.14159265358979323846);
			w->near_bearing_deg = b < 0.0 ? b + 360.0 : b;
		}
	}
}

rt_status rt_where_read(const rt_where_def *def, rt_where_table **out, rt_error *err)
{
	rt__error_clear(err);
	if (out) *out = NULL;
	if (!def || def->cookie != RT_COOKIE) return rt__fail(err, RT_ERR_INVALID, "where definition was not made by rt_where_def_default()");
	if (!out) return rt__fail(err, RT_ERR_INVALID, "no table to fill");
	if (!def->run_folder || !def->run_folder[0]) return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "run_folder", "no run folder");
	if (strlen(def->run_folder) >= 1000) return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "run_folder", "the run folder's path is too long");
	if (!(def->every_s > 0.0) || !isfinite(def->every_s))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "every_s", "every %g s: expected a time > 0 between rows", def->every_s);
	const rt_allocator a = def->allocator.alloc && def->allocator.free ? def->allocator : rt_allocator_default();
	rt__run_info *ri = rt__calloc(&a, 1, sizeof *ri);
	rt_where_table *t = rt__calloc(&a, 1, sizeof *t);
	if (!ri || !t) {
		rt__free(&a, ri, sizeof *ri);
		rt__free(&a, t, sizeof *t);
		return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the run's description");
	}
	ri->allocator = a;
	t->allocator = a;
	roll r;
	memset(&r, 0, sizeof r);
	rt_map *owned = NULL;
	const rt_map *map = NULL;
	rt_trace_reader *reader = NULL;
	double *times = NULL;
	size_t times_cap = 0;
	int *wanted = NULL;
	tally *k = NULL;
	double *shelter = NULL;
	int frames = 0, picks = 0, fewest = WHERE_MAX_AGENTS;
	double from = -INFINITY, to = INFINITY;
	rt_status s = rt__run_info_read(def->run_folder, ri, err);
	if (s == RT_OK) {
		t->start_jd_ut = ri->start_jd_ut;
		t->timezone_h = ri->timezone_h;
	}
	if (s == RT_OK && def->from) s = rt__run_time_parse(def->from, ri, &from, err);
	if (s == RT_OK && def->to) s = rt__run_time_parse(def->to, ri, &to, err);
	if (s == RT_OK && from > to)
		s = rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "from", "from %s is after to %s", def->from ? def->from : "start", def->to ? def->to : "end");
	if (s == RT_OK) {
		rt_map_def md = rt_map_def_default();
		md.allocator = a;
		if (!def->map) s = rt_map_load(ri->map_path, &md, &owned, err);
		map = def->map ? def->map : owned;
	}
	if (s == RT_OK) s = read_places(map, t, err);
	/* first pass: every frame's time */
	if (s == RT_OK) {
		reader = rt_trace_reader_open(ri->trace_path, &a, err);
		if (!reader) s = err ? err->code : RT_ERR_IO;
	}
	while (s == RT_OK) {
		rt_trace_frame f;
		const rt_status q = rt_trace_reader_skip(reader, &f, err);
		if (q == RT_ERR_STATE) {
			rt__error_clear(err);
			break;
		}
		if (q != RT_OK) {
			s = q;
			break;
		}
		if ((size_t)frames == times_cap) {
			const size_t cap = times_cap ? 2 * times_cap : 256;
			double *g = rt__realloc(&a, times, times_cap * sizeof(double), cap * sizeof(double));
			if (!g) {
				s = rt__fail(err, RT_ERR_NOMEM, "cannot allocate the times of %zu frames", cap);
				break;
			}
			times = g;
			times_cap = cap;
		}
		times[frames++] = f.time_s;
		if (f.count < fewest) fewest = f.count;
	}
	if (s == RT_OK && frames == 0) s = rt__fail_at(err, RT_ERR_INVALID, ri->trace_path, 0, 0, NULL, "the trace has no frames");
	/* whose the men are, for agents the trace holds */
	if (s == RT_OK) s = read_roll(ri, def->units, fewest, t, &r, err);
	if (s == RT_OK) {
		const double first = times[0], last = times[frames - 1];
		const double lo = isfinite(from) ? from : first, hi = isfinite(to) ? to : last;
		if (lo > last + WHERE_TIME_SLACK_S || hi < first - WHERE_TIME_SLACK_S) {
			char a_[64], b_[64];
			rt__format_clock(a_, sizeof a_, ri->start_jd_ut + first / 86400.0, ri->timezone_h, true, true);
			rt__format_clock(b_, sizeof b_, ri->start_jd_ut + last / 86400.0, ri->timezone_h, true, true);
			s = rt__fail_at(err, RT_ERR_INVALID, ri->trace_path, 0, 0, lo > last ? "from" : "to",
					"%s is outside the run, which covers %s to %s (%.0f to %.0f s)",
					lo > last ? (def->from ? def->from : "start") : (def->to ? def->to : "end"), a_, b_, first, last);
		}
		/* the frames wanted: the first at or after each time lo, lo + every, ... <= hi; and
		 * the last frame when the table runs to the end */
		wanted = s == RT_OK ? rt__calloc(&a, (size_t)frames, sizeof(int)) : NULL;
		if (s == RT_OK && !wanted) s = rt__fail(err, RT_ERR_NOMEM, "cannot allocate %d frames", frames);
		int i = 0;
		for (long n = 0; s == RT_OK; ++n) {
			const double at = fmax(lo, first) + (double)n * def->every_s;
			if (at > hi + WHERE_TIME_SLACK_S || n > 10000000) break;
			while (i < frames && times[i] < at - WHERE_TIME_SLACK_S) i++;
			if (i == frames || times[i] > hi + WHERE_TIME_SLACK_S) break;
			if (!wanted[i]) picks++;
			wanted[i] = 1;
		}
		if (s == RT_OK && !isfinite(to) && !wanted[frames - 1]) {
			wanted[frames - 1] = 1;
			picks++;
		}
	}
	/* second pass: the frames wanted, summed per corps */
	if (s == RT_OK) {
		rt_trace_reader_close(reader);
		reader = rt_trace_reader_open(ri->trace_path, &a, err);
		if (!reader) s = err ? err->code : RT_ERR_IO;
	}
	if (s == RT_OK && picks == 0)
		s = rt__fail_at(err, RT_ERR_INVALID, ri->trace_path, 0, 0, "from", "no frame of the trace lies between %s and %s",
				def->from ? def->from : "start", def->to ? def->to : "end");
	if (s == RT_OK) {
		t->rows = rt__calloc(&a, (size_t)picks * (size_t)t->corps_count, sizeof *t->rows);
		if (t->rows) t->row_count = picks * t->corps_count;
		k = rt__calloc(&a, (size_t)t->corps_count, sizeof *k);
		shelter = rt__calloc(&a, (size_t)t->corps_count * (size_t)(t->place_count > 0 ? t->place_count : 1), sizeof(double));
		if (!t->rows || !k || !shelter) s = rt__fail(err, RT_ERR_NOMEM, "cannot allocate %d rows of %d corps", picks, t->corps_count);
		for (int c = 0; s == RT_OK && c < t->corps_count; ++c) k[c].shelter = shelter + (size_t)c * (size_t)(t->place_count > 0 ? t->place_count : 1);
	}
	for (int i = 0, row = 0; s == RT_OK && i < frames; ++i) {
		rt_trace_frame f;
		s = wanted[i] ? rt_trace_reader_next(reader, &f, err) : rt_trace_reader_skip(reader, &f, err);
		if (s != RT_OK || !wanted[i]) continue;
		if (f.count < r.agents) {
			char what[160];
			snprintf(what, sizeof what, "run.json names %d agents, but frame %d of the trace holds %d", r.agents, i, f.count);
			s = rt__fail_at(err, RT_ERR_INVALID, ri->json_path, 0, 0, "units", "%s", what);
			break;
		}
		sum_frame(&f, rt_trace_reader_origin(reader), &r, map, t, k, row);
		if (row == 0)
			for (int c = 0; c < t->corps_count; ++c)
				for (int q = 0; q < RT_STATE_COUNT; ++q) t->corps[c].initial += t->rows[c].men[q];
		row += t->corps_count;
	}
	rt_trace_reader_close(reader);
	rt__free(&a, times, times_cap * sizeof(double));
	rt__free(&a, wanted, (size_t)(frames > 0 ? frames : 1) * sizeof(int));
	rt__free(&a, k, (size_t)(t->corps_count > 0 ? t->corps_count : 1) * sizeof *k);
	rt__free(&a, shelter, (size_t)(t->corps_count > 0 ? t->corps_count : 1) * (size_t)(t->place_count > 0 ? t->place_count : 1) * sizeof(double));
	roll_free(&r, &a);
	rt_map_destroy(owned);
	rt__run_info_free(ri);
	rt__free(&a, ri, sizeof *ri);
	if (s != RT_OK) {
		rt_where_free(t);
		return s;
	}
	*out = t;
	return RT_OK;
}

static const char *compass(double deg)
{
	static const char *const points[8] = { "N", "NE", "E", "SE", "S", "SW", "W", "NW" };
	const int k = (int)floor(fmod(deg + 22.5, 360.0) / 45.0);
	return points[k < 0 || k > 7 ? 0 : k];
}

void rt_where_describe(const rt_where_table *t, const rt_where_row *w, char *out, size_t size)
{
	if (!out || size == 0) return;
	out[0] = '\0';
	if (!t || !w || !(w->in_field > 0.0)) return;
	char near[200] = "";
	if (w->near >= 0 && w->near < t->place_count) {
		if (w->near_m < 150.0) snprintf(near, sizeof near, "at %s", t->places[w->near].name);
		else snprintf(near, sizeof near, "%.1f km %s of %s", w->near_m / 1000.0, compass(w->near_bearing_deg), t->places[w->near].name);
	}
	if (w->ground >= 0 && w->ground < t->place_count && w->ground != w->near)
		snprintf(out, size, "%s%son %s", near, near[0] ? ", " : "", t->places[w->ground].name);
	else snprintf(out, size, "%s", near);
}
