/* The replay page as a user meets it: one file that holds the whole run and fetches
 * nothing, positions that read back to the decimetre, long runs thinned to the limits
 * asked for, bad input refused with nothing left on disk, out-of-memory handled at
 * every allocation, and a page that a real browser draws without a script error. */
#include "test.h"
#include "rout/replay.h"
#include "replay_template.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_WALLS 64
#define CHROMIUM "/usr/bin/chromium"

/* A small run in a fresh folder: the bottleneck scene's trace and its walls. */
typedef struct fixture {
	char dir[64], trace[96], page[96];
	rt_vec2 wall_a[MAX_WALLS], wall_b[MAX_WALLS];
	int walls;
	rt_vec2 bounds_min, bounds_max;
} fixture;

static bool file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static bool make_dir(fixture *fx)
{
	snprintf(fx->dir, sizeof fx->dir, "/tmp/rout-replay-XXXXXX");
	if (!mkdtemp(fx->dir)) return false;
	snprintf(fx->trace, sizeof fx->trace, "%s/trace.bin", fx->dir);
	snprintf(fx->page, sizeof fx->page, "%s/replay.html", fx->dir);
	return true;
}

/* The bottleneck scene with `agents` men for `steps` steps, a frame every `every`. */
static rt_status make_run(fixture *fx, int agents, int steps, int every)
{
	if (!make_dir(fx)) return RT_ERR_IO;
	rt_scene_def sd = rt_scene_def_default(RT_SCENE_BOTTLENECK);
	sd.agents = agents;
	sd.threads = 1; /* small and quick: no thread team to wait on when the machine is busy */
	sd.allocator = rt_test_allocator();
	rt_error err;
	rt_world *w = rt_scene_create(&sd, &err);
	if (!w) return err.code;
	fx->walls = rt_world_wall_count(w);
	if (fx->walls > MAX_WALLS) fx->walls = MAX_WALLS;
	for (int i = 0; i < fx->walls; ++i) rt_world_get_wall(w, i, &fx->wall_a[i], &fx->wall_b[i]);
	rt_world_get_bounds(w, &fx->bounds_min, &fx->bounds_max);
	rt_trace_writer *t = rt_trace_open(w, fx->trace, every, &err);
	if (!t) {
		rt_world_destroy(w);
		return err.code;
	}
	rt_status s = rt_trace_record(t, w, &err); /* step 0: where they stand */
	for (int i = 0; i < steps && s == RT_OK; ++i) {
		s = rt_world_step(w, &err);
		if (s == RT_OK) s = rt_trace_record(t, w, &err);
	}
	if (s == RT_OK) s = rt_trace_close(t, &err);
	else rt_trace_abort(t);
	rt_world_destroy(w);
	return s;
}

static rt_replay_def fixture_def(const fixture *fx)
{
	rt_replay_def rd = rt_replay_def_default();
	rd.allocator = rt_test_allocator();
	rd.wall_a = fx->wall_a;
	rd.wall_b = fx->wall_b;
	rd.wall_count = fx->walls;
	rd.bounds_min = fx->bounds_min;
	rd.bounds_max = fx->bounds_max;
	return rd;
}

static void remove_fixture(const fixture *fx)
{
	char tmp[128];
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", fx->page, (long)getpid()); /* the atomic writer's temporary */
	remove(fx->trace);
	remove(fx->page);
	remove(tmp);
	rmdir(fx->dir);
}

static char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *p = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	fclose(f);
	if (p) {
		p[n] = '\0';
		if (size) *size = (size_t)n;
	}
	return p;
}

/* The JSON object in the page's data block, or NULL. */
static json_t *page_data(const char *html)
{
	const char *open = "<script type=\"application/json\" id=\"rout-data\">\n";
	const char *start = strstr(html, open);
	if (!start) return NULL;
	start += strlen(open);
	const char *end = strstr(start, "</script>");
	if (!end) return NULL;
	json_error_t je;
	return json_loadb(start, (size_t)(end - start), 0, &je);
}

static int base64_value(int c)
{
	if (c >= 'A' && c <= 'Z') return c - 'A';
	if (c >= 'a' && c <= 'z') return c - 'a' + 26;
	if (c >= '0' && c <= '9') return c - '0' + 52;
	if (c == '+') return 62;
	if (c == '/') return 63;
	return -1;
}

static unsigned char *base64_decode(const char *s, size_t *size)
{
	size_t n = strlen(s);
	unsigned char *out = malloc(n / 4 * 3 + 3);
	size_t k = 0;
	if (!out || n % 4 != 0) {
		free(out);
		return NULL;
	}
	for (size_t i = 0; i < n; i += 4) {
		int v[4];
		for (int j = 0; j < 4; ++j) v[j] = s[i + j] == '=' ? 0 : base64_value(s[i + j]);
		if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < 0) {
			free(out);
			return NULL;
		}
		uint32_t g = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
		out[k++] = (unsigned char)(g >> 16);
		if (s[i + 2] != '=') out[k++] = (unsigned char)(g >> 8);
		if (s[i + 3] != '=') out[k++] = (unsigned char)g;
	}
	*size = k;
	return out;
}

static long json_int(const json_t *o, const char *key) { return (long)json_integer_value(json_object_get(o, key)); }

static int32_t read_le(const unsigned char *p, int bytes)
{
	uint32_t v = 0;
	for (int k = 0; k < bytes; ++k) v |= (uint32_t)p[k] << (8 * k);
	return bytes == 2 ? (int32_t)(uint16_t)v : (int32_t)v;
}

/* Decodes the page's frames and compares each with the trace frame it came from:
 * positions within half a decimetre, states, morale and sides equal, times equal.
 * Returns a description of the first difference, or NULL. */
static const char *compare_with_trace(const char *trace_path, json_t *data, char *why, size_t why_size)
{
	long n = json_int(data, "agents"), frames = json_int(data, "frames"), stride = json_int(data, "stride");
	long source = json_int(data, "source_frames"), record = json_int(data, "record_bytes");
	json_t *coord = json_object_get(data, "coord"), *times = json_object_get(data, "t");
	int per = strcmp(json_string_value(json_object_get(coord, "type")), "i32") == 0 ? 4 : 2;
	double scale = (double)json_int(coord, "scale");
	long x0 = json_int(coord, "x0"), y0 = json_int(coord, "y0");
	const bool morale = json_int(data, "morale") == 1;
	size_t bytes = 0, side_bytes = 0;
	unsigned char *blob = base64_decode(json_string_value(json_object_get(data, "data")), &bytes);
	unsigned char *side = base64_decode(json_string_value(json_object_get(data, "side")), &side_bytes);
	const char *problem = NULL;
	if (!blob || !side || bytes != (size_t)(frames * record) || side_bytes != (size_t)n ||
	    json_array_size(times) != (size_t)frames) {
		problem = "the data block's sizes do not agree";
		goto done;
	}
	rt_allocator a = rt_test_allocator();
	rt_error err;
	rt_trace_reader *r = rt_trace_reader_open(trace_path, &a, &err);
	if (!r) {
		problem = "cannot reopen the trace";
		goto done;
	}
	rt_trace_frame f;
	long index = 0, kept = 0;
	while (!problem && rt_trace_reader_next(r, &f, &err) == RT_OK) {
		bool is_kept = index % stride == 0 || index == source - 1;
		if (is_kept) {
			const unsigned char *rec = blob + kept * record;
			double t = json_real_value(json_array_get(times, (size_t)kept));
			if (fabs(t - f.time_s) > 0.0005) problem = "a frame's time differs";
			for (long i = 0; i < n && !problem; ++i) {
				double x = (read_le(rec + i * per, per) + x0) / scale;
				double y = (read_le(rec + (n + i) * per, per) + y0) / scale;
				uint8_t state = rec[2 * n * per + i], mor = rec[2 * n * per + n + i];
				if (morale != (f.morale != NULL)) {
					problem = "the page says the trace keeps morale, or not, wrongly";
				} else if (i >= f.count) {
					if (state != 255) problem = "a man not yet in the trace is not marked absent";
				} else if (fabs(x - f.x[i]) > 0.05 + 1e-6 || fabs(y - f.y[i]) > 0.05 + 1e-6) {
					snprintf(why, why_size, "frame %ld man %ld at (%.3f, %.3f) in the page, (%.3f, %.3f) in the trace",
						 kept, i, x, y, (double)f.x[i], (double)f.y[i]);
					problem = why;
				} else if (state != f.state[i] || side[i] != f.side[i]) {
					problem = "a state or side differs";
				} else if (morale && mor != f.morale[i]) {
					problem = "a man's morale differs";
				}
			}
			kept++;
		}
		index++;
	}
	rt_trace_reader_close(r);
	if (!problem && (index != source || kept != frames)) problem = "the page does not have the frames the trace has";
done:
	free(blob);
	free(side);
	return problem;
}

TEST(replay_page_is_self_contained_and_holds_the_run)
{
	fixture fx;
	/* 49 men: a frame record of 248 bytes is not a multiple of 3, so base64 groups
	 * straddle records */
	CHECK(make_run(&fx, 49, 300, 2) == RT_OK);
	rt_replay_def rd = fixture_def(&fx);
	rd.title = "Bottleneck </script><b>\"49\" & more</b>";
	rt_replay_event events[2] = { { 12.5, "rout", "the left file breaks <fast>" }, { 3.0, "order", "hold" } };
	rd.events = events;
	rd.event_count = 2;
	rt_error err;
	CHECK_OK(rt_replay_write(fx.trace, fx.page, &rd, &err), err);
	char tmp[128];
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", fx.page, (long)getpid()); /* the atomic writer's temporary */
	CHECK(file_exists(fx.page) && !file_exists(tmp));
	size_t size = 0;
	char *html = slurp(fx.page, &size);
	CHECK(html);
	bool self_contained = !strstr(html, "http://") && !strstr(html, "https://") && !strstr(html, "src=") &&
			      !strstr(html, "@import") && !strstr(html, "url(");
	bool has_block = strstr(html, "<script type=\"application/json\" id=\"rout-data\">") != NULL;
	bool placeholder_gone = !strstr(html, "/*ROUT_DATA*/");
	bool title_escaped = !strstr(html, "</script><b>");
	json_t *data = page_data(html);
	free(html);
	CHECK_MSG(self_contained, "the page refers to something outside itself");
	CHECK(has_block && placeholder_gone && title_escaped);
	CHECK_MSG(data, "the data block is not valid JSON");
	rt_test_note("page of 49 men, %ld frames: %zu bytes", json_int(data, "frames"), size);
	bool ok = strcmp(json_string_value(json_object_get(data, "format")), "rout-replay") == 0 &&
		  json_int(data, "version") == 2 && json_int(data, "agents") == 49 && json_int(data, "frames") == 151 &&
		  json_int(data, "stride") == 1 &&
		  strcmp(json_string_value(json_object_get(data, "title")), rd.title) == 0 &&
		  json_array_size(json_object_get(data, "walls")) == (size_t)fx.walls && fx.walls > 0 &&
		  json_array_size(json_object_get(data, "events")) == 2 &&
		  strcmp(json_string_value(json_object_get(json_array_get(json_object_get(data, "events"), 0), "text")),
			 events[0].text) == 0 &&
		  strcmp(json_string_value(json_object_get(json_object_get(data, "coord"), "type")), "u16") == 0;
	char why[200];
	const char *problem = ok ? compare_with_trace(fx.trace, data, why, sizeof why) : NULL;
	json_decref(data);
	remove_fixture(&fx);
	CHECK_MSG(ok, "the data block does not describe the run");
	CHECK_MSG(!problem, "%s", problem);
}

/* Who the men of a fixture are: two units of a corps each, the first 25 men and the
 * next 23 (the rest of no unit), led by men 0 and 30; three orders; one dot for 20 men. */
typedef struct who {
	rt_replay_unit units[2];
	int32_t agent_unit[50];
	rt_replay_order orders[3];
	const char *sides[2];
} who;

static void give_who(who *w, rt_replay_def *rd)
{
	w->units[0] = (rt_replay_unit){ "left_file", "foot", "hong", "Hong Chengchou 洪承畴", 0 };
	w->units[1] = (rt_replay_unit){ "right_file", "horse", "wang_pu", "Wang Pu 王朴", 30 };
	for (int i = 0; i < 50; ++i) w->agent_unit[i] = i < 25 ? 0 : i < 48 ? 1 : -1;
	w->orders[0] = (rt_replay_order){ 10.0, 0, "march to the gate" };
	w->orders[1] = (rt_replay_order){ 0.0, 0, "hold" };
	w->orders[2] = (rt_replay_order){ 5.0, 1, "advance" };
	w->sides[0] = "Ming 明";
	w->sides[1] = "Qing 清";
	rd->men_per_agent = 20.0;
	rd->side_names = w->sides;
	rd->side_name_count = 2;
	rd->units = w->units;
	rd->unit_count = 2;
	rd->agent_unit = w->agent_unit;
	rd->agent_unit_count = 50;
	rd->orders = w->orders;
	rd->order_count = 3;
}

/* A run at one agent for 20 men, with its units, corps, commanders and orders: the page
 * holds the scale, the sides' names, each man's unit (read back for all 49), the units
 * and orders as given, and every frame's morale as the trace has it; bad tables are
 * refused naming the field. */
TEST(replay_page_knows_who_each_man_is)
{
	fixture fx;
	CHECK(make_run(&fx, 49, 60, 2) == RT_OK);
	rt_replay_def rd = fixture_def(&fx);
	who w;
	give_who(&w, &rd);
	rt_error err;
	CHECK_OK(rt_replay_write(fx.trace, fx.page, &rd, &err), err);
	size_t size = 0;
	char *html = slurp(fx.page, &size);
	json_t *data = html ? page_data(html) : NULL;
	free(html);
	CHECK(data);
	size_t bytes = 0;
	unsigned char *au = base64_decode(json_string_value(json_object_get(data, "agent_unit")), &bytes);
	int right = 0;
	for (int i = 0; au && bytes == 2 * 49 && i < 49; ++i) {
		const int u = au[2 * i] | au[2 * i + 1] << 8;
		right += u == (w.agent_unit[i] < 0 ? 65535 : w.agent_unit[i]);
	}
	free(au);
	json_t *units = json_object_get(data, "units"), *orders = json_object_get(data, "orders"), *sides = json_object_get(data, "side_names");
	const bool tables = json_array_size(units) == 2 && json_array_size(orders) == 3 && json_array_size(sides) == 2 &&
			    strcmp(json_string_value(json_array_get(sides, 0)), "Ming 明") == 0 &&
			    strcmp(json_string_value(json_object_get(json_array_get(units, 1), "commander")), "Wang Pu 王朴") == 0 &&
			    json_int(json_array_get(units, 1), "agent") == 30 &&
			    strcmp(json_string_value(json_object_get(json_array_get(orders, 0), "text")), "march to the gate") == 0 &&
			    json_int(json_array_get(orders, 2), "unit") == 1;
	const double per = json_number_value(json_object_get(data, "men_per_agent"));
	const long morale = json_int(data, "morale");
	char why[200];
	const char *problem = compare_with_trace(fx.trace, data, why, sizeof why);
	json_decref(data);
	rt_test_note("49 men of 2 units, 3 orders, 31 frames with morale: %zu bytes; %d of 49 men's units read back", size, right);
	CHECK(right == 49);
	CHECK_MSG(tables, "the units, orders or side names are not as given");
	CHECK(per == 20.0 && morale == 1);
	CHECK_MSG(!problem, "%s", problem);

	/* bad tables */
	static const char *const fields[] = { "men_per_agent", "agent_unit", "orders", "unit_count" };
	for (int k = 0; k < 4; ++k) {
		rd = fixture_def(&fx);
		give_who(&w, &rd);
		if (k == 0) rd.men_per_agent = 0.0;
		if (k == 1) w.agent_unit[7] = 2;
		if (k == 2) w.orders[1].unit = 5;
		if (k == 3) rd.units = NULL;
		CHECK(rt_replay_write(fx.trace, fx.page, &rd, &err) == RT_ERR_INVALID);
		rt_test_note("%s", err.message);
		CHECK_MSG(strcmp(err.field, fields[k]) == 0, "field %s, expected %s", err.field, fields[k]);
	}
	remove_fixture(&fx);
	CHECK(rt_test_bytes_held() == 0);
}

TEST(replay_thins_long_runs_to_the_limits)
{
	fixture fx;
	CHECK(make_run(&fx, 49, 300, 2) == RT_OK); /* 151 frames */
	rt_replay_def rd = fixture_def(&fx);
	rd.max_frames = 20;
	rt_error err;
	CHECK_OK(rt_replay_write(fx.trace, fx.page, &rd, &err), err);
	char *html = slurp(fx.page, NULL);
	json_t *data = html ? page_data(html) : NULL;
	free(html);
	CHECK(data);
	long frames = json_int(data, "frames"), stride = json_int(data, "stride");
	json_t *t = json_object_get(data, "t");
	double first = json_real_value(json_array_get(t, 0)), last = json_real_value(json_array_get(t, (size_t)frames - 1));
	char why[200];
	const char *problem = compare_with_trace(fx.trace, data, why, sizeof why);
	json_decref(data);
	rt_test_note("max_frames 20: %ld frames kept, every %ld-th", frames, stride);
	CHECK(frames <= 20 && frames >= 15 && stride == 8);
	CHECK_NEAR(first, 0.0, 1e-9);
	CHECK_NEAR(last, 30.0, 1e-6); /* the last frame is always kept */
	CHECK_MSG(!problem, "%s", problem);

	/* a byte limit thins further, and the page keeps under it */
	rd.max_frames = 2000;
	CHECK_OK(rt_replay_write(fx.trace, fx.page, &rd, &err), err);
	long full = file_size(fx.page), page_bytes = 0;
	for (size_t i = 0; i < sizeof rt__replay_template / sizeof rt__replay_template[0]; ++i)
		page_bytes += (long)strlen(rt__replay_template[i]);
	rd.max_bytes = (size_t)(page_bytes + (full - page_bytes) / 2); /* room for about half the frames */
	CHECK_OK(rt_replay_write(fx.trace, fx.page, &rd, &err), err);
	long half = file_size(fx.page);
	html = slurp(fx.page, NULL);
	data = html ? page_data(html) : NULL;
	free(html);
	CHECK(data);
	frames = json_int(data, "frames");
	json_decref(data);
	rt_test_note("all 151 frames: %ld bytes; max_bytes %zu: %ld frames in %ld bytes", full, rd.max_bytes, frames, half);
	CHECK(half <= (long)rd.max_bytes && frames < 151 && frames > 40);

	/* too small for even two frames: refused, nothing written */
	remove(fx.page);
	rd.max_bytes = 20000;
	CHECK(rt_replay_write(fx.trace, fx.page, &rd, &err) == RT_ERR_CAPACITY);
	CHECK(strstr(err.message, "max_bytes"));
	char tmp[128];
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", fx.page, (long)getpid()); /* the atomic writer's temporary */
	CHECK(!file_exists(fx.page) && !file_exists(tmp));
	remove_fixture(&fx);
}

/* A world 8 km across does not fit Uint16 decimetres: positions go as Int32. */
TEST(replay_uses_int32_beyond_six_and_a_half_km)
{
	fixture fx;
	CHECK(make_dir(&fx));
	rt_world_def wd = rt_world_def_default();
	wd.allocator = rt_test_allocator();
	wd.bounds_min = (rt_vec2){ -100.0, 0.0 };
	wd.bounds_max = (rt_vec2){ 8000.0, 50.0 };
	wd.threads = 1;
	rt_error err;
	rt_world *w = rt_world_create(&wd, &err);
	CHECK(w);
	rt_agent_def ad = rt_agent_def_default();
	ad.position = (rt_vec2){ -90.0, 10.0 };
	ad.heading = (rt_vec2){ 1.0, 0.0 };
	rt_status s = rt_world_add_agent(w, &ad, NULL, &err);
	ad.position = (rt_vec2){ 7990.0, 20.0 };
	ad.side = 1;
	ad.heading = (rt_vec2){ -1.0, 0.0 };
	if (s == RT_OK) s = rt_world_add_agent(w, &ad, NULL, &err);
	rt_trace_writer *t = s == RT_OK ? rt_trace_open(w, fx.trace, 5, &err) : NULL;
	for (int i = 0; t && i < 20 && s == RT_OK; ++i) {
		if (i == 10) { /* a man who joins late: absent from the earlier frames */
			ad.position = (rt_vec2){ 4000.0, 30.0 };
			ad.side = 2;
			s = rt_world_add_agent(w, &ad, NULL, &err);
		}
		if (s == RT_OK) s = rt_world_step(w, &err);
		if (s == RT_OK) s = rt_trace_record(t, w, &err);
	}
	if (t && s == RT_OK) s = rt_trace_close(t, &err);
	else if (t) rt_trace_abort(t);
	rt_world_destroy(w);
	CHECK(t);
	CHECK_OK(s, err);
	rt_replay_def rd = rt_replay_def_default();
	rd.allocator = rt_test_allocator();
	rd.bounds_min = wd.bounds_min;
	rd.bounds_max = wd.bounds_max;
	CHECK_OK(rt_replay_write(fx.trace, fx.page, &rd, &err), err);
	char *html = slurp(fx.page, NULL);
	json_t *data = html ? page_data(html) : NULL;
	free(html);
	CHECK(data);
	const char *type = json_string_value(json_object_get(json_object_get(data, "coord"), "type"));
	bool wide = type && strcmp(type, "i32") == 0;
	json_t *origin = json_object_get(data, "origin");
	bool origin_ok = json_real_value(json_array_get(origin, 0)) == -100.0;
	bool three = json_int(data, "agents") == 3;
	char why[200];
	const char *problem = compare_with_trace(fx.trace, data, why, sizeof why);
	json_decref(data);
	remove_fixture(&fx);
	CHECK_MSG(wide, "coordinate type %s for an 8 km world; expected i32", type ? type : "(none)");
	CHECK(origin_ok && three);
	CHECK_MSG(!problem, "%s", problem);
}

TEST(replay_refuses_bad_input_and_leaves_nothing)
{
	fixture fx;
	CHECK(make_run(&fx, 20, 10, 5) == RT_OK);
	rt_error err;
	char tmp[128];
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", fx.page, (long)getpid()); /* the atomic writer's temporary */
	rt_replay_def rd = fixture_def(&fx);

	CHECK(rt_replay_write("/tmp/rout-replay-no-such-trace.bin", fx.page, &rd, &err) == RT_ERR_IO);
	CHECK(strstr(err.file, "no-such-trace"));
	CHECK(!file_exists(fx.page) && !file_exists(tmp));

	rt_replay_def zero;
	memset(&zero, 0, sizeof zero);
	CHECK(rt_replay_write(fx.trace, fx.page, &zero, &err) == RT_ERR_INVALID);
	CHECK(strstr(err.message, "rt_replay_def_default"));

	rd.max_frames = 1;
	CHECK(rt_replay_write(fx.trace, fx.page, &rd, &err) == RT_ERR_INVALID);
	CHECK(strcmp(err.field, "max_frames") == 0);
	rd = fixture_def(&fx);
	rd.wall_a = NULL;
	CHECK(rt_replay_write(fx.trace, fx.page, &rd, &err) == RT_ERR_INVALID);
	CHECK(strcmp(err.field, "wall_count") == 0);
	rd = fixture_def(&fx);
	rt_replay_event bad_event = { NAN, "x", "y" };
	rd.events = &bad_event;
	rd.event_count = 1;
	CHECK(rt_replay_write(fx.trace, fx.page, &rd, &err) == RT_ERR_INVALID);
	rd = fixture_def(&fx);

	CHECK(rt_replay_write(fx.trace, "/tmp/rout-replay-no-such-dir/replay.html", &rd, &err) == RT_ERR_IO);
	CHECK(!file_exists("/tmp/rout-replay-no-such-dir"));
	CHECK(!file_exists(fx.page) && !file_exists(tmp));

	/* a damaged trace: a byte of the first frame's positions flipped */
	FILE *f = fopen(fx.trace, "r+b");
	CHECK(f);
	fseek(f, 40 + 24 + 4, SEEK_SET);
	int c = fgetc(f);
	fseek(f, 40 + 24 + 4, SEEK_SET);
	fputc(c ^ 0x21, f);
	fclose(f);
	CHECK(rt_replay_write(fx.trace, fx.page, &rd, &err) == RT_ERR_PARSE);
	CHECK(!file_exists(fx.page) && !file_exists(tmp));

	/* a trace with no frames */
	rt_world_def wd = rt_world_def_default();
	wd.allocator = rt_test_allocator();
	rt_world *w = rt_world_create(&wd, &err);
	CHECK(w);
	rt_trace_writer *t = rt_trace_open(w, fx.trace, 1, &err);
	rt_status s = t ? rt_trace_close(t, &err) : RT_ERR_IO;
	rt_world_destroy(w);
	CHECK_OK(s, err);
	CHECK(rt_replay_write(fx.trace, fx.page, &rd, &err) == RT_ERR_INVALID);
	CHECK(strstr(err.message, "no frames"));
	CHECK(!file_exists(fx.page) && !file_exists(tmp));
	remove_fixture(&fx);
}

TEST(replay_out_of_memory_sweep)
{
	fixture fx;
	CHECK(make_run(&fx, 50, 40, 2) == RT_OK);
	rt_replay_def rd = fixture_def(&fx);
	rt_error err;
	char tmp[128];
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", fx.page, (long)getpid()); /* the atomic writer's temporary */
	rt_test_fail_allocation(-1);
	CHECK_OK(rt_replay_write(fx.trace, fx.page, &rd, &err), err);
	long needed = rt_test_allocations_made();
	remove(fx.page);
	long failures = 0;
	for (long k = 0;; ++k) {
		rt_test_fail_allocation(k);
		rt_status s = rt_replay_write(fx.trace, fx.page, &rd, &err);
		rt_test_fail_allocation(-1);
		if (s == RT_OK) break;
		CHECK_MSG(s == RT_ERR_NOMEM, "allocation %ld failed and gave %s: %s", k, rt_status_name(s), err.message);
		CHECK_MSG(rt_test_bytes_held() == 0, "allocation %ld failed: %zu bytes leaked", k, rt_test_bytes_held());
		CHECK_MSG(!file_exists(fx.page) && !file_exists(tmp), "allocation %ld failed and left a file", k);
		failures++;
		CHECK(k < 1000);
	}
	rt_test_note("%ld allocations in a page; failing each in turn gave %ld clean errors", needed, failures);
	CHECK(failures == needed && needed >= 8);
	CHECK(file_exists(fx.page));
	remove_fixture(&fx);
}

/* The page compiled into the library is viewer/replay.html as it stands. */
TEST(replay_template_matches_the_viewer_page)
{
	char *page = slurp("viewer/replay.html", NULL);
	if (!page) {
		rt_test_note("viewer/replay.html not found from here (run from the repository root); not compared");
		return;
	}
	size_t at = 0, lines = sizeof rt__replay_template / sizeof rt__replay_template[0];
	bool same = true;
	for (size_t i = 0; i < lines && same; ++i) {
		size_t n = strlen(rt__replay_template[i]);
		same = strncmp(page + at, rt__replay_template[i], n) == 0;
		at += n;
	}
	same = same && page[at] == '\0';
	free(page);
	CHECK_MSG(same, "src/replay_template.h is older than viewer/replay.html: run sh scripts/embed-template.sh");
}

/* ---- the page in a browser ---- */
static int run_quiet(const char *command)
{
	int rc = system(command);
	return rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* Runs headless chromium on url with `what` (--screenshot=FILE or --dump-dom), its
 * standard output sent to `output` and its chatter to `log`; returns the exit status. */
static int chromium(const char *what, const char *url, const char *output, const char *log)
{
	char profile[] = "/tmp/rout-replay-profile-XXXXXX";
	if (!mkdtemp(profile)) return -1;
	char command[1400];
	snprintf(command, sizeof command,
		 "timeout 120 " CHROMIUM " --headless --no-sandbox --disable-gpu --no-first-run "
		 "--disable-background-networking --disable-component-update --disable-sync --user-data-dir=%s "
		 "--window-size=1000,700 %s '%s' >%s 2>%s",
		 profile, what, url, output, log);
	int rc = run_quiet(command);
	snprintf(command, sizeof command, "rm -rf %s", profile);
	run_quiet(command);
	return rc;
}

TEST(replay_page_plays_in_chromium)
{
	if (access(CHROMIUM, X_OK) != 0) {
		rt_test_note("browser part skipped: %s is not installed (Debian package chromium)", CHROMIUM);
		return;
	}
	fixture fx;
	CHECK(make_run(&fx, 50, 300, 2) == RT_OK);
	rt_replay_def rd = fixture_def(&fx);
	rd.title = "rout test: bottleneck";
	rt_replay_event ev = { 10.0, "test", "ten seconds in" };
	rd.events = &ev;
	rd.event_count = 1;
	who w;
	give_who(&w, &rd);
	rt_error err;
	CHECK_OK(rt_replay_write(fx.trace, fx.page, &rd, &err), err);

	char url[256], png_start[128], png_end[128], dom[128], log[128], shot[160];
	snprintf(log, sizeof log, "%s/chromium.log", fx.dir);
	snprintf(png_start, sizeof png_start, "%s/start.png", fx.dir);
	snprintf(png_end, sizeof png_end, "%s/end.png", fx.dir);
	snprintf(dom, sizeof dom, "%s/dom.html", fx.dir);

	snprintf(url, sizeof url, "file://%s?t=0", fx.page);
	snprintf(shot, sizeof shot, "--screenshot=%s", png_start);
	int rc1 = chromium(shot, url, "/dev/null", log);
	snprintf(url, sizeof url, "file://%s?t=30&layers=walls,trails,dead", fx.page);
	snprintf(shot, sizeof shot, "--screenshot=%s", png_end);
	int rc2 = chromium(shot, url, "/dev/null", log);
	snprintf(url, sizeof url, "file://%s?t=15&select=3", fx.page);
	int rc3 = chromium("--dump-dom", url, dom, log);
	char selftest[128];
	snprintf(selftest, sizeof selftest, "%s/selftest.html", fx.dir);
	snprintf(url, sizeof url, "file://%s?selftest=1", fx.page);
	int rc4 = chromium("--dump-dom", url, selftest, log);

	size_t n1 = 0, n2 = 0, n3 = 0;
	char *a = slurp(png_start, &n1), *b = slurp(png_end, &n2), *d = slurp(dom, &n3), *st = slurp(selftest, NULL);
	bool pngs = a && b && n1 > 1000 && n2 > 1000 && memcmp(a, "\x89PNG", 4) == 0 && memcmp(b, "\x89PNG", 4) == 0;
	bool differ = pngs && (n1 != n2 || memcmp(a, b, n1) != 0);
	bool ready = d && strstr(d, "data-rout=\"ready\"");
	bool no_error = d && !strstr(d, "ERROR: ") && !strstr(d, "<title>ERROR");
	bool at_time = d && strstr(d, "data-time=\"15.000\"") && strstr(d, "<title>rout test: bottleneck</title>");
	bool selected = d && strstr(d, "<td>id</td><td>3</td>");
	/* man 3 at 15 s: his side, corps, commander (and how he is), unit, morale, order */
	bool who_shown = d && strstr(d, "<td>side</td><td>Ming 明</td>") && strstr(d, "<td>corps</td><td>hong</td>") &&
			 strstr(d, "<td>commander</td><td>Hong Chengchou 洪承畴 (") && strstr(d, "<td>unit</td><td>left_file (foot)</td>") &&
			 strstr(d, "<td>morale</td><td>") && strstr(d, " of 1</td>") &&
			 strstr(d, "<td>order</td><td>march to the gate (since 0:10.0)</td>") && strstr(d, "<td>his unit</td><td>");
	/* the tally counts men, 20 a dot but one for each of the two commanders (men 0 and 30,
	 * the units' commander_agent): the side's row adds up to 48 x 20 + 2; man 3's unit,
	 * men 0-24 with its commander, is 24 x 20 + 1 */
	long tally_men = -1;
	const char *tally = d ? strstr(d, "id=\"tally\"") : NULL;
	const char *row = tally ? strstr(tally, "Ming 明</td>") : NULL;
	if (row) {
		tally_men = 0;
		row += strlen("Ming 明</td>");
		for (int k = 0; k < 5; ++k) {
			const char *cell = strstr(row, "<td>");
			if (!cell) break;
			cell += 4;
			long v = 0;
			for (; *cell && *cell != '<'; ++cell)
				if (*cell >= '0' && *cell <= '9') v = 10 * v + (*cell - '0');
			tally_men += v;
			row = cell;
		}
	}
	bool scaled = tally_men == 962 && d && strstr(d, "One dot stands for 20 men, a commander's for himself.") && strstr(d, " of 481</td>");
	const char *verdict = st ? strstr(st, "data-selftest=\"") : NULL;
	bool controls = verdict && strncmp(verdict, "data-selftest=\"pass\"", 20) == 0 && !strstr(st, "ERROR: ");
	if (!controls) rt_test_note("the controls' self-test says: %.300s", verdict ? verdict : "nothing");
	if (d && !no_error) {
		const char *e = strstr(d, "ERROR: ");
		rt_test_note("the page reports: %.300s", e ? e : strstr(d, "<title>"));
	}
	rt_test_note("chromium: screenshots %zu and %zu bytes, DOM %zu bytes", n1, n2, n3);
	free(a);
	free(b);
	free(d);
	free(st);
	remove(selftest);
	remove(png_start);
	remove(png_end);
	remove(dom);
	remove(log);
	remove_fixture(&fx);
	CHECK_MSG(rc1 == 0 && rc2 == 0 && rc3 == 0 && rc4 == 0, "chromium exit status %d, %d, %d, %d", rc1, rc2, rc3, rc4);
	CHECK_MSG(pngs, "chromium wrote no screenshots");
	CHECK_MSG(differ, "the page at 0 s and at 30 s looks the same");
	CHECK_MSG(no_error, "the page reported a script error");
	CHECK_MSG(ready, "the page never finished drawing");
	CHECK_MSG(at_time, "?t=15 did not show the frame at 15 s");
	CHECK_MSG(selected, "?select=3 did not show man 3");
	CHECK_MSG(who_shown, "man 3's side, corps, commander, unit, morale or order is not shown");
	CHECK_MSG(scaled, "the tally counts %ld men for 48 dots of 20 men and 2 commanders (expected 962), does not say a dot is 20 men, "
			  "or man 3's unit is not 481 men", tally_men);
	CHECK_MSG(controls, "wheel, drag, click, play, keys, slider, layers or events do not work");
}
