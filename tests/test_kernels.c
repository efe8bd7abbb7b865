/* The decide phase's vector kernels (src/neighbours.c) against the plain ones: the same
 * bits in every scene, including those that take the rare paths (a man with more
 * neighbours than a batch holds, a neighbour grid that wraps round its tiling), and a
 * vector expf equal to the C library's. On a machine without AVX2 and FMA both runs
 * take the plain kernels, and the tests say so. And E3's shortcut past dry ground,
 * against the full look. */
#include "builders.h"
#include "test.h"
#include "world.h"

/* A crowd of n men in a square of side_m metres round (cx, cy), heading east-north-east,
 * in a world of size_m x size_m with one wall; its hash after `steps` steps. */
static uint64_t heap_hash(int n, double side_m, double size_m, int steps, int threads)
{
	rt_world_def d = rt_world_def_default();
	d.bounds_max = (rt_vec2){ size_m, size_m };
	d.threads = threads;
	d.agent_capacity = n;
	d.allocator = rt_test_allocator();
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return 0;
	uint64_t h = 0;
	if (rt_world_add_wall(w, (rt_vec2){ 1.0, 1.0 }, (rt_vec2){ size_m - 1.0, 1.0 }, &err) != RT_OK) goto done;
	const double cx = 0.5 * size_m, cy = 0.5 * size_m;
	for (int i = 0; i < n; ++i) {
		rt_agent_def a = rt_agent_def_default();
		a.position = (rt_vec2){ cx + side_m * (((i * 37) % 101) / 101.0 - 0.5), cy + side_m * (((i * 53) % 97) / 97.0 - 0.5) };
		a.heading = (rt_vec2){ 1.0, 0.3 };
		if (rt_world_add_agent(w, &a, NULL, &err) != RT_OK) goto done;
	}
	for (int i = 0; i < steps; ++i)
		if (rt_world_step(w, &err) != RT_OK) goto done;
	h = rt_world_hash(w);
done:
	rt_world_destroy(w);
	return h;
}

static uint64_t crowd_hash(int agents, int steps, int threads)
{
	rt_scene_def sd = rt_scene_def_default(RT_SCENE_CROWD);
	sd.agents = agents;
	sd.seed = 11;
	sd.threads = threads;
	sd.allocator = rt_test_allocator();
	rt_error err;
	rt_world *w = rt_scene_create(&sd, &err);
	if (!w) return 0;
	uint64_t h = 0;
	int i = 0;
	while (i < steps && rt_world_step(w, &err) == RT_OK) i++;
	if (i == steps) h = rt_world_hash(w);
	rt_world_destroy(w);
	return h;
}

TEST(vector_kernels_give_the_plain_bits)
{
	const bool simd = rt__neighbours_simd();
	rt_test_note("this machine runs the %s kernels", simd ? "AVX2+FMA" : "plain");
	struct {
		const char *what;
		uint64_t vector, plain;
	} runs[3];
	/* the benchmark's scene, at 2 threads */
	runs[0].what = "crowd of 3000, 150 steps";
	runs[0].vector = crowd_hash(3000, 150, 2);
	/* 2600 men in a square metre: each has some 2600 within his reach, more than a
	 * batch's buffer (RT_NB_CAPACITY) holds, so his sums go in chunks */
	runs[1].what = "2600 men heaped in 1 m2, 3 steps";
	runs[1].vector = heap_hash(2600, 1.0, 20.0, 3, 2);
	/* 300 men in a 160 m square world: the grid is tiled, and searches wrap round it */
	runs[2].what = "300 men in a 160 m world (tiled grid), 200 steps";
	runs[2].vector = heap_hash(300, 12.0, 160.0, 200, 1);
	rt__neighbours_force_plain(true);
	runs[0].plain = crowd_hash(3000, 150, 2);
	runs[1].plain = heap_hash(2600, 1.0, 20.0, 3, 2);
	runs[2].plain = heap_hash(300, 12.0, 160.0, 200, 1);
	rt__neighbours_force_plain(false);
	for (int r = 0; r < 3; ++r) {
		rt_test_note("%s: %016llx, plain %016llx", runs[r].what, (unsigned long long)runs[r].vector,
			     (unsigned long long)runs[r].plain);
		CHECK(runs[r].vector != 0);
		CHECK_MSG(runs[r].vector == runs[r].plain, "%s: the kernels disagree", runs[r].what);
	}
}

TEST(vector_expf_is_the_library_expf)
{
	const long samples = 1l << 21;
	const long bad = rt__expf_mismatches(samples);
	if (bad < 0) {
		rt_test_note("no AVX2 and FMA here: the library's expf is used as it is");
		return;
	}
	rt_test_note("%ld of %ld arguments in (-20, 20) differ from the C library's expf", bad, samples);
	CHECK(bad == 0);
}

/* E3's shortcut (rt__water_prepare): a man whose 7 x 7 cells are all shallower than the
 * wade-out depth is passed over without the full look. On a shore of steps from the sea
 * to dry land, a river, a ford-deep stream and a wall, at sea levels from below the mean
 * to a great surge, every point of a fine grid gets the same answer and direction either
 * way, and the shortcut passes over most of the dry land. */
TEST(water_flight_shortcut_gives_the_full_look)
{
	map_builder b;
	CHECK(map_begin(&b, 300, 300, 5));
	map_shore_steps(&b, 0.7);
	map_line(&b, "{\"kind\":\"river\",\"width_m\":12,\"depth_m\":2.5}", -140, 60, 140, 90);
	map_line(&b, "{\"kind\":\"river\",\"width_m\":6,\"depth_m\":0.4}", -60, 20, -60, 140);
	map_rect(&b, "{\"kind\":\"wall\"}", 40, 100, 70, 130);
	rt_map *map = map_finish(&b);
	CHECK(map);
	rt_world *w = world_on_map(map, 140, 140, 1);
	CHECK(w);
	rt_error err;
	CHECK_OK(rt_world_step(w, &err), err); /* makes the wet levels */
	CHECK(w->wet_level != NULL);
	float *levels = w->wet_level;
	long points = 0, passed = 0, differ = 0, wading = 0;
	w->env.set = true;
	for (double sea = -2.0; sea <= 5.0; sea += 0.25) {
		w->env.sea_level_m = sea;
		for (double y = -148.3; y < 148.0; y += 1.7)
			for (double x = -148.1; x < 148.0; x += 2.3) {
				double ex1 = 7.0, ey1 = 7.0, ex2 = 7.0, ey2 = 7.0;
				w->wet_level = levels;
				const bool quick = rt__water_flight(w, x, y, &ex1, &ey1);
				const int cell = rt__terrain_cell(w, x, y);
				passed += cell >= 0 && sea <= (double)levels[cell];
				w->wet_level = NULL;
				const bool full = rt__water_flight(w, x, y, &ex2, &ey2);
				points++;
				wading += full;
				differ += quick != full || ex1 != ex2 || ey1 != ey2;
			}
	}
	w->wet_level = levels;
	rt_world_destroy(w);
	rt_map_destroy(map);
	rt_test_note("%ld points at 29 sea levels: %ld wade, %ld passed over at once, %ld differ", points, wading, passed,
		     differ);
	CHECK(differ == 0);
	CHECK(wading > points / 20);
	CHECK(passed > points / 3);
}

/* A game that steps its own worlds from its own OpenMP threads (a world a thread) gets
 * what each world gives stepped alone: the engine's loops stay within the world that
 * runs them and never share out their work among the caller's team. */
TEST(worlds_stepped_from_the_callers_threads_are_each_alone)
{
	enum { WORLDS = 2, STEPS = 120 };
	rt_error err;
	uint64_t alone = 0;
	{
		rt_world *w = skirmish_world(2, &err);
		CHECK(w);
		for (int i = 0; i < STEPS; ++i) CHECK_OK(rt_world_step(w, &err), err);
		alone = rt_world_hash(w);
		rt_world_destroy(w);
	}
	rt_world *w[WORLDS];
	for (int k = 0; k < WORLDS; ++k) {
		w[k] = skirmish_world(2, &err);
		CHECK(w[k]);
	}
	int failed = 0, teams = 0;
#pragma omp parallel num_threads(WORLDS) reduction(+ : failed, teams)
	{
		const int t = rt__thread_num(), nt = rt__thread_count();
		teams += t == 0 ? nt : 0;
		for (int k = t; k < WORLDS; k += nt) {
			rt_error e;
			for (int i = 0; i < STEPS; ++i) failed += rt_world_step(w[k], &e) != RT_OK;
		}
	}
	int same = 0;
	for (int k = 0; k < WORLDS; ++k) {
		same += rt_world_hash(w[k]) == alone;
		rt_world_destroy(w[k]);
	}
	rt_test_note("%d worlds of 600 stepped %d times from a team of %d threads: %d of them hash as the world alone (%016llx)",
		     WORLDS, STEPS, teams, same, (unsigned long long)alone);
	CHECK(failed == 0);
	CHECK(same == WORLDS);
}
