/* The world as a user of the library meets it: determinism at any thread count, memory
 * that all comes back, out-of-memory handled everywhere, errors that say what was wrong,
 * random numbers that are a pure function, a trace that reads back, multi-rate stepping
 * that saves work without changing the outcome. */
#include "test.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The state hash of the 5,000-man crowd after 500 steps (seed 7). It changes only when
 * the model changes on purpose; then update it here and say why in the commit. */
#define CROWD_5000_HASH 0xd6f7fea2ceebdf89ull

static uint64_t crowd_hash(int threads)
{
	rt_scene_def sd = rt_scene_def_default(RT_SCENE_CROWD);
	sd.agents = 5000;
	sd.seed = 7;
	sd.threads = threads;
	sd.allocator = rt_test_allocator();
	rt_error err;
	rt_world *w = rt_scene_create(&sd, &err);
	if (!w) return 0;
	for (int i = 0; i < 500; ++i)
		if (rt_world_step(w, &err) != RT_OK) {
			rt_world_destroy(w);
			return 0;
		}
	uint64_t h = rt_world_hash(w);
	rt_world_destroy(w);
	return h;
}

TEST(determinism_across_threads_and_runs)
{
	uint64_t one = crowd_hash(1), two = crowd_hash(2), again = crowd_hash(2);
	rt_test_note("hash at 1 thread %016llx, at 2 threads %016llx, repeated %016llx", (unsigned long long)one,
		     (unsigned long long)two, (unsigned long long)again);
	CHECK(one != 0);
	CHECK(one == two);
	CHECK(two == again);
	CHECK_MSG(one == CROWD_5000_HASH, "hash %016llx differs from the committed %016llx", (unsigned long long)one,
		  (unsigned long long)CROWD_5000_HASH);
}

/* Builds and runs a small scene with a trace; returns the status of the first failure. */
static rt_status small_run(const char *trace_path)
{
	rt_scene_def sd = rt_scene_def_default(RT_SCENE_BOTTLENECK);
	sd.agents = 40;
	sd.allocator = rt_test_allocator();
	rt_error err;
	rt_world *w = rt_scene_create(&sd, &err);
	if (!w) return err.code;
	rt_trace_writer *t = rt_trace_open(w, trace_path, 2, &err);
	if (!t) {
		rt_world_destroy(w);
		return err.code;
	}
	rt_status s = RT_OK;
	for (int i = 0; i < 6 && s == RT_OK; ++i) {
		s = rt_world_step(w, &err);
		if (s == RT_OK) s = rt_trace_record(t, w, &err);
	}
	if (s == RT_OK) s = rt_trace_close(t, &err);
	else rt_trace_abort(t);
	rt_world_destroy(w);
	return s;
}

TEST(out_of_memory_sweep)
{
	char path[] = "/tmp/rout-oom-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	rt_test_fail_allocation(-1);
	CHECK(small_run(path) == RT_OK);
	long needed = rt_test_allocations_made();
	int failures = 0;
	for (long k = 0; k < needed; ++k) {
		rt_test_fail_allocation(k);
		rt_status s = small_run(path);
		rt_test_fail_allocation(-1);
		CHECK_MSG(s != RT_OK, "allocation %ld failed, yet the run reported success", k);
		CHECK_MSG(rt_test_bytes_held() == 0, "allocation %ld failed: %zu bytes leaked", k, rt_test_bytes_held());
		failures++;
	}
	remove(path);
	rt_test_note("%ld allocations in a small run; failing each in turn gave %d clean errors", needed, failures);
	CHECK(failures == needed && needed > 10);
}

TEST(errors_name_the_problem)
{
	rt_error err;
	rt_world_def bad;
	memset(&bad, 0, sizeof bad);
	CHECK(rt_world_create(&bad, &err) == NULL);
	CHECK(err.code == RT_ERR_INVALID && strstr(err.message, "rt_world_def_default"));

	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.dt_s = -1.0;
	CHECK(rt_world_create(&d, &err) == NULL);
	CHECK(strstr(err.message, "dt_s"));

	d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.periodic_x = true;
	d.bounds_max.x = 1.0;
	CHECK(rt_world_create(&d, &err) == NULL);
	CHECK(strstr(err.message, "periodic"));

	d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	rt_world *w = rt_world_create(&d, &err);
	CHECK(w);
	rt_agent_def ad = rt_agent_def_default();
	ad.position = (rt_vec2){ 500.0, 5.0 };
	CHECK(rt_world_add_agent(w, &ad, NULL, &err) == RT_ERR_INVALID);
	CHECK(strstr(err.message, "outside the world bounds"));
	ad.position = (rt_vec2){ 5.0, 5.0 };
	ad.goal = 3;
	CHECK(rt_world_add_agent(w, &ad, NULL, &err) == RT_ERR_INVALID);
	CHECK(strstr(err.message, "goal 3 does not exist"));
	rt_vec2 bow[4] = { { 0, 0 }, { 4, 2 }, { 4, 0 }, { 0, 3 } }; /* a bow tie */
	CHECK(rt_world_add_obstacle(w, bow, 4, &err) == RT_ERR_INVALID);
	CHECK(strstr(err.message, "intersect"));
	rt_vec2 flat[3] = { { 0, 0 }, { 1, 1 }, { 2, 2 } };
	CHECK(rt_world_add_obstacle(w, flat, 3, &err) == RT_ERR_INVALID);
	CHECK(strstr(err.message, "zero area"));
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = (rt_vec2){ 10, 10 };
	gd.target_max = (rt_vec2){ 5, 5 };
	CHECK(rt_world_add_goal(w, &gd, NULL, &err) == RT_ERR_INVALID);
	CHECK(rt_world_step(w, &err) == RT_OK);
	CHECK(rt_world_add_wall(w, (rt_vec2){ 0, 0 }, (rt_vec2){ 1, 0 }, &err) == RT_ERR_STATE);
	rt_world_destroy(w);
}

TEST(random_is_a_pure_function)
{
	CHECK(rt_random_uniform(5, 17, 1000, 3) == rt_random_uniform(5, 17, 1000, 3));
	CHECK(rt_random_uniform(5, 17, 1000, 3) != rt_random_uniform(5, 17, 1000, 4));
	CHECK(rt_random_uniform(5, 17, 1000, 3) != rt_random_uniform(6, 17, 1000, 3));
	/* uniform on [0, 1): mean 0.5 and variance 1/12 within 5 standard errors */
	const int n = 200000;
	double sum = 0.0, sum2 = 0.0;
	for (int i = 0; i < n; ++i) {
		double u = rt_random_uniform(1, (uint32_t)i, 7, 0);
		CHECK(u >= 0.0 && u < 1.0);
		sum += u;
		sum2 += u * u;
	}
	double mean = sum / n, var = sum2 / n - mean * mean;
	CHECK_NEAR(mean, 0.5, 5.0 * sqrt(1.0 / 12.0 / n));
	CHECK_NEAR(var, 1.0 / 12.0, 0.002);
}

TEST(trace_reads_back_and_refuses_damage)
{
	char path[] = "/tmp/rout-trace-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	CHECK(small_run(path) == RT_OK);
	rt_allocator a = rt_test_allocator();
	rt_error err;
	rt_trace_reader *r = rt_trace_reader_open(path, &a, &err);
	CHECK(r);
	rt_trace_frame f;
	int frames = 0;
	rt_status s;
	while ((s = rt_trace_reader_next(r, &f, &err)) == RT_OK) {
		CHECK(f.count == 40);
		CHECK(f.step % 2 == 0);
		for (int i = 0; i < f.count; ++i) CHECK(f.x[i] > 0.0f && f.x[i] < 17.0f && f.state[i] < RT_STATE_COUNT);
		frames++;
	}
	rt_trace_reader_close(r);
	CHECK(s == RT_ERR_STATE);
	CHECK(frames == 3);
	/* flip one byte inside the first frame's positions */
	FILE *file = fopen(path, "r+b");
	CHECK(file);
	fseek(file, 40 + 24 + 10, SEEK_SET);
	int c = fgetc(file);
	fseek(file, 40 + 24 + 10, SEEK_SET);
	fputc(c ^ 0x5a, file);
	fclose(file);
	r = rt_trace_reader_open(path, &a, &err);
	CHECK(r);
	s = rt_trace_reader_next(r, &f, &err);
	rt_trace_reader_close(r);
	remove(path);
	CHECK(s == RT_ERR_PARSE);
	CHECK(strstr(err.message, "checksum"));
}

/* The whole of a file, from the C library's malloc (the caller frees it). */
static unsigned char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	unsigned char *data = NULL;
	if (fseek(f, 0, SEEK_END) == 0) {
		long n = ftell(f);
		if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n + 1)) &&
		    fread(data, 1, (size_t)n, f) != (size_t)n) {
			free(data);
			data = NULL;
		}
		*size = (size_t)n;
	}
	fclose(f);
	return data;
}

/* Reads every frame; returns the frame count, or -1 when they differ from the other
 * reader's, and leaves the final status in *end. */
static int frames_equal(rt_trace_reader *a, rt_trace_reader *b, rt_status *end_a, rt_status *end_b)
{
	rt_trace_frame fa, fb;
	rt_error ea, eb;
	int frames = 0;
	for (;;) {
		*end_a = rt_trace_reader_next(a, &fa, &ea);
		*end_b = rt_trace_reader_next(b, &fb, &eb);
		if (*end_a != *end_b) return -1;
		if (*end_a != RT_OK) return frames;
		if (fa.step != fb.step || fa.time_s != fb.time_s || fa.count != fb.count) return -1;
		size_t n = (size_t)fa.count;
		if (memcmp(fa.x, fb.x, n * sizeof(float)) || memcmp(fa.y, fb.y, n * sizeof(float)) ||
		    memcmp(fa.state, fb.state, n) || memcmp(fa.side, fb.side, n))
			return -1;
		frames++;
	}
}

TEST(trace_reads_from_memory_as_from_file)
{
	char path[] = "/tmp/rout-trace-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	CHECK(small_run(path) == RT_OK);
	size_t size = 0;
	unsigned char *data = slurp(path, &size);
	CHECK(data);
	rt_test_note("a 40-man trace of 3 frames: %zu bytes (40 of header, 3 x (28 + 11 x 40) of frames)", size);
	CHECK(size == 40 + 3 * (28 + 11 * 40));
	rt_allocator a = rt_test_allocator();
	rt_error err;
	rt_trace_reader *file = rt_trace_reader_open(path, &a, &err);
	rt_trace_reader *memory = rt_trace_reader_open_memory(data, size, "in-memory.trace", &a, &err);
	rt_status end_file, end_memory;
	int frames = file && memory ? frames_equal(file, memory, &end_file, &end_memory) : -2;
	rt_trace_reader_close(file);
	rt_trace_reader_close(memory);
	remove(path);
	CHECK_MSG(frames == 3, "%d frames read alike from the file and from memory, expected 3", frames);
	CHECK(end_file == RT_ERR_STATE && end_memory == RT_ERR_STATE);

	/* cut short by 7 bytes: the last frame is refused, naming the input and the frame */
	rt_trace_frame f;
	memory = rt_trace_reader_open_memory(data, size - 7, "in-memory.trace", &a, &err);
	CHECK(memory);
	rt_status s;
	int good = 0;
	while ((s = rt_trace_reader_next(memory, &f, &err)) == RT_OK) good++;
	rt_trace_reader_close(memory);
	rt_test_note("cut short: %d frames, then \"%s: %s\"", good, err.file, err.message);
	CHECK(good == 2 && s == RT_ERR_PARSE && err.code == RT_ERR_PARSE);
	CHECK(strcmp(err.file, "in-memory.trace") == 0 && strstr(err.message, "frame 2") && strstr(err.message, "truncated"));

	/* the header alone is a trace of no frames; one byte less is not a trace */
	memory = rt_trace_reader_open_memory(data, 40, NULL, &a, &err);
	CHECK(memory);
	s = rt_trace_reader_next(memory, &f, &err);
	rt_trace_reader_close(memory);
	CHECK(s == RT_ERR_STATE);
	memory = rt_trace_reader_open_memory(data, 39, NULL, &a, &err);
	CHECK(!memory && err.code == RT_ERR_PARSE && strstr(err.message, "RTTRACE1") && strcmp(err.file, "<memory>") == 0);
	memory = rt_trace_reader_open_memory(NULL, 0, NULL, &a, &err);
	CHECK(!memory && err.code == RT_ERR_PARSE);
	free(data);
}

/* Version 2 keeps each man's morale in 255ths (what the replay page shows for a clicked
 * man); a version-1 trace, without it, still reads, with morale NULL. */
TEST(trace_keeps_morale_and_reads_version_1)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	CHECK(w);
	const float morale[4] = { 0.0f, 0.5f, 0.999f, 1.0f };
	for (int i = 0; i < 4; ++i) {
		rt_agent_def ad = rt_agent_def_default();
		ad.position = (rt_vec2){ 5.0 + 3.0 * i, 5.0 };
		ad.morale = morale[i];
		CHECK_OK(rt_world_add_agent(w, &ad, NULL, &err), err);
	}
	rt_allocator a = rt_test_allocator();
	char path[] = "/tmp/rout-trace-morale-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	rt_trace_writer *t = rt_trace_open(w, path, 1, &err);
	CHECK(t);
	CHECK_OK(rt_trace_record(t, w, &err), err);
	CHECK_OK(rt_trace_close(t, &err), err);
	rt_world_destroy(w);
	rt_trace_reader *r = rt_trace_reader_open(path, &a, &err);
	CHECK(r);
	rt_trace_frame f;
	rt_status s = rt_trace_reader_next(r, &f, &err);
	const bool read = s == RT_OK && f.count == 4 && f.morale;
	uint8_t got[4] = { 0, 0, 0, 0 };
	if (read) memcpy(got, f.morale, 4);
	rt_trace_reader_close(r);
	remove(path);
	CHECK_MSG(read, "the version-2 frame did not read back with its morale (%s)", err.message);
	rt_test_note("morale 0, 0.5, 0.999, 1 kept as %u, %u, %u, %u of 255", got[0], got[1], got[2], got[3]);
	CHECK(got[0] == 0 && got[1] == 128 && got[2] == 255 && got[3] == 255);

	/* a version-1 trace of one frame of two men, written by hand */
	unsigned char v1[40 + 28 + 2 * 10];
	memset(v1, 0, sizeof v1);
	const uint32_t version = 1, every = 1, magic = 0x314d5246u, count = 2;
	const double dt = 0.1, time = 0.1;
	const int64_t step = 1;
	const float xy[4] = { 1.0f, 2.0f, 3.0f, 4.0f };
	memcpy(v1, "RTTRACE1", 8);
	memcpy(v1 + 8, &version, 4);
	memcpy(v1 + 12, &every, 4);
	memcpy(v1 + 16, &dt, 8);
	unsigned char *fr = v1 + 40;
	memcpy(fr, &magic, 4);
	memcpy(fr + 4, &step, 8);
	memcpy(fr + 12, &time, 8);
	memcpy(fr + 20, &count, 4);
	memcpy(fr + 24, xy, sizeof xy);
	fr[40] = RT_STATE_ROUTING;
	fr[41] = RT_STATE_FORMED;
	fr[42] = 0;
	fr[43] = 1;
	uint32_t h = 2166136261u;
	for (int i = 0; i < 44; ++i) h = (h ^ fr[i]) * 16777619u;
	memcpy(fr + 44, &h, 4);
	r = rt_trace_reader_open_memory(v1, sizeof v1, "v1.trace", &a, &err);
	CHECK(r);
	s = rt_trace_reader_next(r, &f, &err);
	const bool v1_ok = s == RT_OK && f.count == 2 && !f.morale && f.x[1] == 2.0f && f.y[0] == 3.0f &&
			   f.state[0] == RT_STATE_ROUTING && f.side[1] == 1;
	s = rt_trace_reader_next(r, &f, &err);
	rt_trace_reader_close(r);
	CHECK_MSG(v1_ok, "the version-1 frame did not read back (%s)", err.message);
	CHECK(s == RT_ERR_STATE);
	CHECK(rt_test_bytes_held() == 0);
}

/* Every file in tests/bad/traces must be refused, by the file reader and by the memory
 * reader alike, as RT_ERR_PARSE with a message containing `fragment`, the field
 * `field`, after `frames` good frames, and without holding memory it does not need. */
#define BAD_TRACES "tests/bad/traces"
static const struct {
	const char *file;
	int frames;
	const char *fragment;
	const char *field;
} bad_traces[] = {
	{ "not_a_trace", 0, "not a rout trace (expected the RTTRACE1 header)", "header" },
	{ "short_header", 0, "not a rout trace (expected the RTTRACE1 header)", "header" },
	{ "version", 0, "trace version 3; this build reads versions 1 to 2", "version" },
	{ "frame_magic", 1, "frame 1: damaged frame header", "frame" },
	{ "count_over_limit", 0, "frame 0: 4294967295 agents exceeds the limit 268435456", "count" },
	/* found by the fuzzer: a frame of 2^28 - 1 agents in a 138-byte file made the reader
	 * allocate 2.7 GB before it found the bytes missing */
	{ "count_beyond_end", 1, "frame 1 is truncated: it holds 268435455 agents, needing 2684354554 bytes, and 16 remain", "count" },
	{ "truncated", 1, "frame 1 is truncated: it holds 3 agents, needing 34 bytes, and 29 remain", "count" },
	{ "checksum", 0, "frame 0 fails its checksum", "checksum" },
	{ "unknown_state", 1, "frame 1: agent 1 has unknown state 200", "state" },
};
#define BAD_TRACE_COUNT ((int)(sizeof bad_traces / sizeof bad_traces[0]))

/* Reads to the first refusal; returns the good frames before it, -1 if none came. */
static int read_to_refusal(rt_trace_reader *r, rt_error *err, size_t *most_held)
{
	int frames = 0;
	rt_trace_frame f;
	if (!r) return 0;
	rt_status s;
	while ((s = rt_trace_reader_next(r, &f, err)) == RT_OK) {
		frames++;
		if (rt_test_bytes_held() > *most_held) *most_held = rt_test_bytes_held();
	}
	if (rt_test_bytes_held() > *most_held) *most_held = rt_test_bytes_held();
	rt_trace_reader_close(r);
	return s == RT_ERR_STATE ? -1 : frames;
}

TEST(trace_bad_traces_are_refused_with_the_frame)
{
	char path[512];
	rt_allocator a = rt_test_allocator();
	for (int i = 0; i < BAD_TRACE_COUNT; ++i) {
		snprintf(path, sizeof path, "%s/%s.trace", BAD_TRACES, bad_traces[i].file);
		for (int memory = 0; memory <= 1; ++memory) {
			rt_error err;
			size_t most_held = 0, size = 0;
			unsigned char *data = NULL;
			rt_trace_reader *r;
			if (memory) {
				data = slurp(path, &size);
				CHECK_MSG(data, "cannot read %s", path);
				r = rt_trace_reader_open_memory(data, size, path, &a, &err);
			} else {
				r = rt_trace_reader_open(path, &a, &err);
			}
			const int frames = read_to_refusal(r, &err, &most_held);
			free(data);
			const char *how = memory ? "from memory" : "from the file";
			CHECK_MSG(frames >= 0, "%s (%s) was read to its end", path, how);
			CHECK_MSG(rt_test_bytes_held() == 0, "%s (%s): %zu bytes held after the refusal", path, how, rt_test_bytes_held());
			CHECK_MSG(err.code == RT_ERR_PARSE, "%s (%s): %s: %s", path, how, rt_status_name(err.code), err.message);
			CHECK_MSG(frames == bad_traces[i].frames, "%s (%s): %d good frames, expected %d", path, how, frames,
				  bad_traces[i].frames);
			CHECK_MSG(strstr(err.message, bad_traces[i].fragment), "%s (%s): message \"%s\" lacks \"%s\"", path, how,
				  err.message, bad_traces[i].fragment);
			CHECK_MSG(strcmp(err.field, bad_traces[i].field) == 0, "%s (%s): field \"%s\", expected \"%s\"", path, how,
				  err.field, bad_traces[i].field);
			CHECK_MSG(strcmp(err.file, path) == 0, "%s (%s): the error names file \"%s\"", path, how, err.file);
			/* a few frames of 3 men need a few hundred bytes, not what a count claims */
			CHECK_MSG(most_held < 4096, "%s (%s): %zu bytes held while reading", path, how, most_held);
			if (!memory)
				rt_test_note("%-18s %s: [%s] %s (%zu bytes at most)", bad_traces[i].file, err.file, err.field, err.message,
					     most_held);
		}
	}
	/* and no file in the folder goes untested */
	DIR *dir = opendir(BAD_TRACES);
	CHECK_MSG(dir, "cannot open %s (run the tests from the repository root)", BAD_TRACES);
	int files = 0;
	struct dirent *e;
	char missing[256] = "";
	while ((e = readdir(dir))) {
		size_t n = strlen(e->d_name);
		if (n < 7 || strcmp(e->d_name + n - 6, ".trace") != 0) continue;
		files++;
		bool found = false;
		for (int i = 0; i < BAD_TRACE_COUNT && !found; ++i)
			found = strlen(bad_traces[i].file) == n - 6 && strncmp(bad_traces[i].file, e->d_name, n - 6) == 0;
		if (!found) snprintf(missing, sizeof missing, "%s", e->d_name);
	}
	closedir(dir);
	CHECK_MSG(!missing[0], "%s/%s has no entry in the test table", BAD_TRACES, missing);
	CHECK(files == BAD_TRACE_COUNT);
}

/* A camp of resting men that a column walks past: with multi-rate stepping the resting
 * men sleep, the column still arrives when it did, and far fewer decisions are made. */
static double camp_run(int max_level, int64_t *updates)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.max_period_level = max_level;
	d.bounds_min = (rt_vec2){ 0, 0 };
	d.bounds_max = (rt_vec2){ 120, 40 };
	d.threads = 2;
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return -1.0;
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = (rt_vec2){ 110, 0 };
	gd.target_max = (rt_vec2){ 120, 40 };
	gd.arrival = RT_ARRIVAL_LEAVE;
	gd.straight = true;
	rt_goal_id goal;
	if (rt_world_add_goal(w, &gd, &goal, &err) != RT_OK) return -1.0;
	rt_agent_def ad = rt_agent_def_default();
	for (int i = 0; i < 800; ++i) { /* the camp: 800 men, 2 m apart, north of the road */
		ad.position = (rt_vec2){ 10.0 + 2.0 * (i % 40), 22.0 + 2.0 * (i / 40) * 0.45 };
		rt_world_add_agent(w, &ad, NULL, &err);
	}
	ad.goal = goal;
	for (int i = 0; i < 100; ++i) { /* the column on the road */
		ad.position = (rt_vec2){ 1.0 + 0.8 * (i / 5), 8.0 + 0.8 * (i % 5) };
		rt_world_add_agent(w, &ad, NULL, &err);
	}
	double arrival = -1.0;
	rt_world_stats st;
	for (int step = 0; step < 3000; ++step) {
		if (rt_world_step(w, &err) != RT_OK) break;
		rt_world_get_stats(w, &st);
		if (st.by_state[RT_STATE_ESCAPED] == 100) {
			arrival = st.time_s;
			break;
		}
	}
	*updates = st.agent_updates;
	rt_world_destroy(w);
	return arrival;
}

TEST(multirate_saves_work_keeps_outcome)
{
	int64_t fine_updates = 0, multi_updates = 0;
	double fine = camp_run(0, &fine_updates), multi = camp_run(5, &multi_updates);
	rt_test_note("column through: %.1f s at dt 0.1 s only, %.1f s multi-rate; decisions %lld vs %lld", fine, multi,
		     (long long)fine_updates, (long long)multi_updates);
	CHECK(fine > 0.0 && multi > 0.0);
	CHECK_NEAR(multi, fine, 0.02 * fine);
	CHECK(multi_updates < fine_updates / 2);
}
