/* libFuzzer harness for a run folder's run.json as `rout where` reads it (rt_where_read:
 * the members render shares — map, trace, start, timezone_h — and scale, corps and
 * units). A run.json is written by rout run but may be edited by hand; whatever its
 * bytes, the reader answers with a table or an error naming the file and field, never a
 * crash, a leak or a huge allocation. The folder is made once per process: the test
 * scenario's map and a trace of 12 men over 3 frames written by the library; each input
 * is written there as run.json and read by corps and by unit, then once more with one
 * allocation refused (chosen from the input), which must end in RT_ERR_NOMEM or in the
 * same answer. Seeds: fuzz/corpus/runjson/ (a real run.json and damaged ones). */
#include "fuzz.h"
#include "rout/picture.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#define MEN 12
#define MAP "tests/data/scenarios/mini/map.geojson"

static char folder[64];

static bool copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	bool ok = in && out;
	char buf[65536];
	size_t got;
	while (ok && (got = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, got, out) == got;
	if (in) fclose(in);
	if (out && fclose(out) != 0) ok = false;
	return ok;
}

/* The folder: the mini map and a trace of MEN men, three frames a minute apart. */
static void make_folder(void)
{
	snprintf(folder, sizeof folder, "/tmp/rout-fuzz-runjson-XXXXXX");
	FUZZ_CHECK(mkdtemp(folder) != NULL, "cannot make a folder");
	char path[128];
	snprintf(path, sizeof path, "%s/map.geojson", folder);
	FUZZ_CHECK(copy_file(MAP, path), "cannot copy %s (run from the repository's root)", MAP);
	rt_world_def wd = rt_world_def_default();
	wd.bounds_min = (rt_vec2){ -2000.0, -2000.0 };
	wd.bounds_max = (rt_vec2){ 2000.0, 2000.0 };
	wd.threads = 1;
	rt_error err;
	rt_world *w = rt_world_create(&wd, &err);
	FUZZ_CHECK(w != NULL, "world: %s", err.message);
	rt_agent_def ad = rt_agent_def_default();
	const rt_state states[] = { RT_STATE_FORMED, RT_STATE_ROUTING, RT_STATE_SHELTERED, RT_STATE_DEAD_DROWNED };
	for (int i = 0; i < MEN; ++i) {
		ad.position = (rt_vec2){ -1100.0 + 40.0 * i, -50.0 + 30.0 * (i % 3) };
		ad.side = (uint8_t)(i % 2);
		ad.state = states[i % 4];
		FUZZ_CHECK(rt_world_add_agent(w, &ad, NULL, &err) == RT_OK, "agent: %s", err.message);
	}
	snprintf(path, sizeof path, "%s/trace.bin", folder);
	rt_trace_writer *t = rt_trace_open(w, path, 120, &err);
	FUZZ_CHECK(t != NULL, "trace: %s", err.message);
	for (int s = 0; s < 240; ++s) {
		if (s % 120 == 0) FUZZ_CHECK(rt_trace_record(t, w, &err) == RT_OK, "record: %s", err.message);
		FUZZ_CHECK(rt_world_step(w, &err) == RT_OK, "step: %s", err.message);
	}
	FUZZ_CHECK(rt_trace_record(t, w, &err) == RT_OK && rt_trace_close(t, &err) == RT_OK, "close: %s", err.message);
	rt_world_destroy(w);
}

typedef struct outcome {
	rt_status status;
	int rows, groups;
	double men;
} outcome;

static outcome read_table(bool units)
{
	rt_where_def wd = rt_where_def_default();
	wd.run_folder = folder;
	wd.every_s = 30.0;
	wd.units = units;
	wd.allocator = fuzz_allocator();
	rt_where_table *t = NULL;
	rt_error err;
	outcome o = { RT_OK, 0, 0, 0.0 };
	o.status = rt_where_read(&wd, &t, &err);
	if (o.status != RT_OK) {
		FUZZ_CHECK(t == NULL, "an error (%s), yet a table", rt_status_name(o.status));
		fuzz_check_error(o.status, &err);
		return o;
	}
	FUZZ_CHECK(t != NULL && t->corps_count >= 1 && t->row_count % t->corps_count == 0, "a table of %d rows for %d groups",
		   t ? t->row_count : -1, t ? t->corps_count : -1);
	o.rows = t->row_count;
	o.groups = t->corps_count;
	for (int r = 0; r < t->row_count; ++r) {
		const rt_where_row *w = &t->rows[r];
		FUZZ_CHECK(w->corps >= 0 && w->corps < t->corps_count, "row %d: group %d", r, w->corps);
		FUZZ_CHECK(w->ground >= -1 && w->ground < t->place_count && w->near >= -1 && w->near < t->place_count &&
				   w->shelter >= -1 && w->shelter < t->place_count,
			   "row %d: a place out of range", r);
		double sum = 0.0;
		for (int s = 0; s < RT_STATE_COUNT; ++s) {
			FUZZ_CHECK(w->men[s] >= 0.0 && isfinite(w->men[s]), "row %d: %g men in state %d", r, w->men[s], s);
			sum += w->men[s];
		}
		o.men += sum;
		char words[300];
		rt_where_describe(t, w, words, sizeof words);
		FUZZ_CHECK(memchr(words, 0, sizeof words) != NULL, "row %d: unterminated words", r);
	}
	rt_where_free(t);
	return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!folder[0]) make_folder();
	char path[128];
	snprintf(path, sizeof path, "%s/run.json", folder);
	FILE *f = fopen(path, "wb");
	FUZZ_CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0, "cannot write %s", path);
	for (int units = 0; units < 2; ++units) {
		fuzz_begin(-1);
		const outcome whole = read_table(units);
		fuzz_end(units ? "rt_where_read by unit" : "rt_where_read");
		const long k = fuzz_pick(data, size, fuzz_allocations);
		if (k < 0) continue;
		fuzz_begin(k);
		const outcome starved = read_table(units);
		fuzz_end("rt_where_read, out of memory");
		FUZZ_CHECK(starved.status == RT_ERR_NOMEM || (starved.status == whole.status && starved.rows == whole.rows &&
								 starved.groups == whole.groups && starved.men == whole.men),
			   "allocation %ld refused: %s with %d rows; without: %s with %d rows", k, rt_status_name(starved.status), starved.rows,
			   rt_status_name(whole.status), whole.rows);
	}
	return 0;
}
