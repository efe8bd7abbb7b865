/* rout where (rt_where_read): where each corps of a finished run was, read back from the
 * run folder — the men of each corps by state, time by time, add up to the corps as the
 * run counted it; a corps that marches is found farther along; sheltered men are found in
 * the fort that holds them; a bad folder is refused naming the file and the field. */
#include "test.h"
#include "rout/picture.h"
#include "rout/scenario.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MINI "tests/data/scenarios/mini/scenario.yaml"
#define REFUGE "tests/data/scenarios/refuge/scenario.yaml"

/* A test scenario run for `seconds` (seed 3) with a trace every 10 s into the folder dir. */
static bool scenario_run_folder(const char *scenario, char *dir, double seconds)
{
	if (!mkdtemp(dir)) return false;
	rt_scenario_def def = rt_scenario_def_default();
	def.allocator = rt_test_allocator();
	rt_scenario *sc;
	rt_error err;
	if (rt_scenario_load(scenario, &def, &sc, &err) != RT_OK) return false;
	char trace[256];
	snprintf(trace, sizeof trace, "%s/trace.bin", dir);
	rt_run_def rd = rt_run_def_default();
	rd.allocator = rt_test_allocator();
	rd.seed = 3;
	rd.threads = 1;
	rd.until_s = seconds;
	rd.trace_every_s = 10.0;
	rd.trace_path = trace;
	rt_run *run;
	bool ok = rt_run_create(sc, &rd, &run, &err) == RT_OK;
	while (ok && !rt_run_done(run)) ok = rt_run_step(run, &err) == RT_OK;
	ok = ok && rt_run_write_outputs(run, dir, &err) == RT_OK;
	if (!ok) rt_test_note("%s", err.message);
	rt_run_destroy(run);
	rt_scenario_destroy(sc);
	return ok;
}

static void remove_folder(const char *dir)
{
	char command[300];
	snprintf(command, sizeof command, "rm -rf '%s'", dir);
	if (system(command) != 0) rt_test_note("could not remove %s", dir);
}

/* A table definition for the folder, every `every_s`, through the test allocator. */
static rt_where_def where_def(const char *dir, double every_s)
{
	rt_where_def wd = rt_where_def_default();
	wd.run_folder = dir;
	wd.every_s = every_s;
	wd.allocator = rt_test_allocator();
	return wd;
}

static double row_men(const rt_where_row *w)
{
	double sum = 0.0;
	for (int s = 0; s < RT_STATE_COUNT; ++s) sum += w->men[s];
	return sum;
}

static int corps_index(const rt_where_table *t, const char *id)
{
	for (int c = 0; c < t->corps_count; ++c)
		if (strcmp(t->corps[c].id, id) == 0) return c;
	return -1;
}

static int place_index(const rt_where_table *t, const char *id)
{
	for (int i = 0; i < t->place_count; ++i)
		if (strcmp(t->places[i].id, id) == 0) return i;
	return -1;
}

static bool write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	if (!f) return false;
	const bool ok = fputs(text, f) >= 0;
	return fclose(f) == 0 && ok;
}

TEST(where_each_corps_men_add_up_time_by_time)
{
	char dir[] = "/tmp/rout-where-XXXXXX";
	CHECK(scenario_run_folder(MINI, dir, 2400.0));
	rt_where_def wd = where_def(dir, 600.0);
	rt_where_table *t = NULL;
	rt_error err;
	CHECK_OK(rt_where_read(&wd, &t, &err), err);
	if (!t) return;
	/* the corps of the scenario and of its men: red_one, red_two, blue_horse; rows at
	 * 07:00, 07:10, ... 07:40 */
	CHECK(t->corps_count == 3);
	CHECK(t->row_count == 5 * 3);
	for (int r = 0; r < t->row_count; r += 3) CHECK_NEAR(t->rows[r].time_s, 600.0 * (r / 3), 10.0);
	/* men, not agents, at scale 2: red_one 300 foot, 10 guards and its captain; red_two 300
	 * foot, 60 guns and its captain; blue 300 + 40 horse and the khan (the summary's 672
	 * and 341) */
	const int one = corps_index(t, "red_one"), two = corps_index(t, "red_two"), blue = corps_index(t, "blue_horse");
	CHECK(one >= 0 && two >= 0 && blue >= 0);
	if (one < 0 || two < 0 || blue < 0) {
		rt_where_free(t);
		return;
	}
	CHECK(t->corps[one].initial == 311.0 && t->corps[two].initial == 361.0 && t->corps[blue].initial == 341.0);
	/* conservation: every row holds the corps' men, whatever became of them */
	for (int r = 0; r < t->row_count; ++r) CHECK_NEAR(row_men(&t->rows[r]), t->corps[t->rows[r].corps].initial, 1e-9);
	/* the same men as the run's summary at the end, side by side */
	char path[300];
	snprintf(path, sizeof path, "%s/summary.json", dir);
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	CHECK(root != NULL);
	const rt_where_row *end = &t->rows[t->row_count - 3];
	if (root) {
		json_t *red = json_object_get(json_object_get(root, "sides"), "red");
		const double killed = json_number_value(json_object_get(red, "killed"));
		const double dead = end[one].men[RT_STATE_DEAD_COMBAT] + end[two].men[RT_STATE_DEAD_COMBAT];
		rt_test_note("red killed: %.0f in the summary, %.0f in the table's last row", killed, dead);
		CHECK_NEAR(dead, killed, 1e-9);
		json_decref(root);
	}
	/* the run's report, written last, has the same table (every 2 minutes for a run of 40) */
	snprintf(path, sizeof path, "%s/report.md", dir);
	FILE *rf = fopen(path, "rb");
	char *report = calloc(1, 1 << 20);
	CHECK(rf && report && fread(report, 1, (1 << 20) - 1, rf) > 0);
	if (rf) fclose(rf);
	if (report) {
		const char *section = strstr(report, "## Where the corps were");
		CHECK(section && strstr(section, "Every 2 minutes") && strstr(section, "| 1641-09-26T07:00:00 | red_one | 311 | 0 |") &&
		      strstr(section, "at Red camp") && strstr(section, "## Timeline"));
	}
	free(report);
	/* where: at the start the blue horse stand by their camp, and the red corps by theirs */
	const int blue_camp = place_index(t, "blue_camp"), red_camp = place_index(t, "red_camp");
	CHECK(blue_camp >= 0 && red_camp >= 0);
	const rt_where_row *start = &t->rows[0];
	rt_test_note("07:00: blue %.0f m from %s, red_one %.0f m from %s", start[blue].near_m, t->places[start[blue].near].id,
		     start[one].near_m, t->places[start[one].near].id);
	CHECK(start[blue].near == blue_camp && start[one].near == red_camp);
	CHECK(start[blue].in_field == 341.0 && isfinite(start[blue].centre_lonlat.lat_deg));
	/* the blue horse attack the red camp at 07:02: ten minutes on they are nearer it */
	const rt_where_row *ten = &t->rows[3];
	const rt_where_place *rc = &t->places[red_camp];
	const double d0 = hypot(start[blue].centre.x - rc->centre.x, start[blue].centre.y - rc->centre.y);
	const double d1 = hypot(ten[blue].centre.x - rc->centre.x, ten[blue].centre.y - rc->centre.y);
	rt_test_note("blue horse from the red camp: %.0f m at 07:00, %.0f m at 07:10", d0, d1);
	CHECK(d1 < d0 - 200.0);
	/* the map handed in (as a run writing its report does) gives the same table */
	rt_map_def md = rt_map_def_default();
	md.allocator = rt_test_allocator();
	rt_map *map = NULL;
	CHECK_OK(rt_map_load("tests/data/scenarios/mini/map.geojson", &md, &map, &err), err);
	rt_where_def given = wd;
	given.map = map;
	rt_where_table *g = NULL;
	CHECK_OK(rt_where_read(&given, &g, &err), err);
	if (g) {
		CHECK(g->row_count == t->row_count && g->place_count == t->place_count);
		for (int r = 0; r < g->row_count && r < t->row_count; ++r)
			CHECK(g->rows[r].near == t->rows[r].near && g->rows[r].ground == t->rows[r].ground &&
			      g->rows[r].shelter == t->rows[r].shelter && g->rows[r].in_field == t->rows[r].in_field &&
			      (g->rows[r].near_m == t->rows[r].near_m || (isnan(g->rows[r].near_m) && isnan(t->rows[r].near_m))));
		rt_where_free(g);
	}
	rt_map_destroy(map);
	/* by unit: each unit's rows add up to its corps' (red_one: its 300 foot, and its
	 * headquarters of the captain and his 10 guards) */
	rt_where_def ud = wd;
	ud.units = true;
	rt_where_table *u = NULL;
	CHECK_OK(rt_where_read(&ud, &u, &err), err);
	if (u) {
		rt_test_note("%d units", u->corps_count);
		CHECK(u->row_count == 5 * u->corps_count);
		for (int r = 0; r < 5; ++r)
			for (int c = 0; c < t->corps_count; ++c) {
				double sum[RT_STATE_COUNT] = { 0 };
				for (int k = 0; k < u->corps_count; ++k)
					if (strcmp(u->corps[k].corps, t->corps[c].id) == 0)
						for (int q = 0; q < RT_STATE_COUNT; ++q) sum[q] += u->rows[r * u->corps_count + k].men[q];
				for (int q = 0; q < RT_STATE_COUNT; ++q) CHECK(sum[q] == t->rows[r * t->corps_count + c].men[q]);
			}
		for (int k = 0; k < u->corps_count; ++k)
			if (strcmp(u->corps[k].id, "red_one_headquarters") == 0) {
				CHECK(strcmp(u->corps[k].kind, "headquarters") == 0 && strcmp(u->corps[k].corps, "red_one") == 0);
				CHECK(u->corps[k].initial == 11.0);
			}
		rt_where_free(u);
	}
	rt_where_free(t);
	/* a window: from 07:10 to 07:30 every 5 minutes, 5 rows a corps */
	wd.from = "07:10";
	wd.to = "1641-09-26T07:30";
	wd.every_s = 300.0;
	CHECK_OK(rt_where_read(&wd, &t, &err), err);
	if (t) {
		CHECK(t->row_count == 5 * 3);
		CHECK_NEAR(t->rows[0].time_s, 600.0, 10.0);
		CHECK_NEAR(t->rows[t->row_count - 1].time_s, 1800.0, 10.0);
		rt_where_free(t);
	}
	remove_folder(dir);
	CHECK(rt_test_bytes_held() == 0);
}

/* The refuge scenario's keep fills to its 400 (docs/model.md section 13), with either of
 * red's two captains who gets in (a commander takes an agent's place of 2 men, or comes
 * to it full): the table finds them there, as many as the run's summary counts. */
TEST(where_finds_sheltered_men_in_their_fort)
{
	char dir[] = "/tmp/rout-where-XXXXXX";
	CHECK(scenario_run_folder(REFUGE, dir, 4200.0));
	rt_where_def wd = where_def(dir, 1200.0);
	rt_where_table *t = NULL;
	rt_error err;
	CHECK_OK(rt_where_read(&wd, &t, &err), err);
	if (!t) return;
	char path[300];
	snprintf(path, sizeof path, "%s/summary.json", dir);
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	const double recorded = json_number_value(json_object_get(json_object_get(json_object_get(json_object_get(root, "sides"), "red"), "sheltered"), "keep"));
	json_decref(root);
	const int keep = place_index(t, "keep");
	double sheltered = 0.0, in_keep = 0.0;
	const rt_where_row *end = &t->rows[t->row_count - t->corps_count];
	for (int c = 0; c < t->corps_count; ++c) {
		sheltered += end[c].men[RT_STATE_SHELTERED];
		if (keep >= 0 && end[c].shelter == keep) in_keep += end[c].shelter_men;
	}
	rt_test_note("08:10: the summary has %.0f red in the keep; the table %.0f sheltered, %.0f found in the keep", recorded, sheltered, in_keep);
	CHECK(recorded >= 398.0 && recorded <= 402.0 && sheltered == recorded && in_keep == recorded);
	/* the last row is the trace's last frame, at the run's end */
	CHECK_NEAR(end[0].time_s, 4200.0, 10.0);
	rt_where_free(t);
	remove_folder(dir);
	CHECK(rt_test_bytes_held() == 0);
}

TEST(where_refuses_a_folder_it_cannot_read)
{
	char dir[] = "/tmp/rout-where-XXXXXX";
	CHECK(scenario_run_folder(MINI, dir, 120.0));
	rt_where_def wd = where_def(dir, 3600.0);
	rt_where_table *t = NULL;
	rt_error err;
	/* times outside the run, or the wrong way round */
	wd.from = "08:30";
	CHECK(rt_where_read(&wd, &t, &err) == RT_ERR_INVALID && t == NULL);
	rt_test_note("[%s] %s", err.field, err.message);
	CHECK(strcmp(err.field, "from") == 0 && strstr(err.message, "outside the run"));
	wd.from = "07:01";
	wd.to = "07:00";
	CHECK(rt_where_read(&wd, &t, &err) == RT_ERR_INVALID && strstr(err.message, "is after"));
	wd.from = "noon";
	wd.to = NULL;
	CHECK(rt_where_read(&wd, &t, &err) == RT_ERR_INVALID && strstr(err.message, "is not a time"));
	wd.from = NULL;
	wd.every_s = 0.0;
	CHECK(rt_where_read(&wd, &t, &err) == RT_ERR_INVALID && strcmp(err.field, "every_s") == 0);
	wd.every_s = 3600.0;
	/* run.json without what says whose the men are, or naming men the trace lacks */
	char path[300], *json = NULL;
	snprintf(path, sizeof path, "%s/run.json", dir);
	FILE *f = fopen(path, "rb");
	CHECK(f != NULL);
	if (f) {
		json = calloc(1, 1 << 20);
		CHECK(json && fread(json, 1, (1 << 20) - 1, f) > 0);
		fclose(f);
	}
	static const struct {
		const char *json, *field, *says;
	} bad[] = {
		{ "{\"map\": \"map.geojson\", \"start\": \"1641-09-26T07:00\", \"timezone_h\": 8}", "scale", "a scene's folder has no corps" },
		{ "{\"map\": \"map.geojson\", \"start\": \"1641-09-26T07:00\", \"timezone_h\": 8, \"scale\": 2}", "corps", "missing" },
		{ "{\"map\": \"map.geojson\", \"start\": \"1641-09-26T07:00\", \"timezone_h\": 8, \"scale\": 2, \"corps\": [{\"id\": \"a\", \"side\": 0}]}",
		  "units", "missing" },
		{ "{\"map\": \"map.geojson\", \"start\": \"1641-09-26T07:00\", \"timezone_h\": 8, \"scale\": 2, \"corps\": [{\"id\": \"a\", \"side\": 0}],"
		  " \"units\": [{\"corps\": 1, \"first_agent\": 0, \"agents\": 5}]}",
		  "units[0]", "expected {\"corps\": 0..0" },
		{ "{\"map\": \"map.geojson\", \"start\": \"1641-09-26T07:00\", \"timezone_h\": 8, \"scale\": 2, \"corps\": [{\"id\": \"a\", \"side\": 0}],"
		  " \"units\": [{\"corps\": 0, \"first_agent\": 0, \"agents\": 100000}]}",
		  "units[0]", "agents 0 to 99999 are not all in the trace, whose frames hold" },
		{ "{\"map\": \"map.geojson\", \"start\": \"1641-09-26T07:00\", \"timezone_h\": 8, \"scale\": 2, \"corps\": [{\"id\": \"a\", \"side\": 0}],"
		  " \"units\": [{\"corps\": 0, \"first_agent\": 0, \"agents\": 1000000000000000}]}",
		  "units[0]", "expected {\"corps\": 0..0" },
		{ "{\"map\": \"map.geojson\", \"start\": \"1641-09-26T07:00\", \"timezone_h\": 8, \"scale\": 2, \"corps\": [{\"id\": \"a\", \"side\": 0, \"commander\": 9999}],"
		  " \"units\": [{\"corps\": 0, \"first_agent\": 0, \"agents\": 5}]}",
		  "corps[0].commander", "agent 9999 is not in the trace" },
		{ "{\"map\": \"map.geojson\", \"start\": \"1641-09-26T07:00\", \"timezone_h\": 8, \"scale\": -1}", "scale", "a number > 0" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
		CHECK(write_text(path, bad[i].json));
		const rt_status s = rt_where_read(&wd, &t, &err);
		rt_test_note("%s [%s]: %s", err.file, err.field, err.message);
		CHECK(s == RT_ERR_INVALID && t == NULL);
		CHECK(strcmp(err.field, bad[i].field) == 0 && strstr(err.message, bad[i].says) && strstr(err.file, "run.json"));
	}
	/* the folder as written reads again, and fails cleanly at every allocation */
	if (json) CHECK(write_text(path, json));
	free(json);
	CHECK_OK(rt_where_read(&wd, &t, &err), err);
	rt_where_free(t);
	long failures = 0;
	for (long k = 0; k < 2000; ++k) {
		rt_test_fail_allocation(k);
		const rt_status s = rt_where_read(&wd, &t, &err);
		rt_test_fail_allocation(-1);
		if (s == RT_OK) {
			rt_where_free(t);
			break;
		}
		CHECK_MSG(s == RT_ERR_NOMEM && t == NULL, "allocation %ld: %s", k, err.message);
		CHECK_MSG(rt_test_bytes_held() == 0, "allocation %ld failed: %zu bytes held", k, rt_test_bytes_held());
		failures++;
	}
	rt_test_note("%ld allocations failed in turn", failures);
	CHECK(failures > 5);
	remove_folder(dir);
	CHECK(rt_test_bytes_held() == 0);
}
