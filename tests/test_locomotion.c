/* Crowd locomotion against the published pedestrian tests (DESIGN.md, issue 2):
 * RiMEA test 1 (corridor), RiMEA test 4 (fundamental diagram, Weidmann 1993),
 * the bottleneck flow of Seyfried et al. 2009, and RiMEA test 6 (corner), with the
 * wall constraint checked at every step. */
#include "test.h"

static rt_world *make_scene(rt_scene_def *sd)
{
	rt_error err;
	sd->allocator = rt_test_allocator();
	rt_world *w = rt_scene_create(sd, &err);
	if (!w) rt_test_note("scene: %s", err.message);
	return w;
}

TEST(corridor_walk_rimea1)
{
	rt_scene_def sd = rt_scene_def_default(RT_SCENE_CORRIDOR);
	rt_world *w = make_scene(&sd);
	CHECK(w);
	rt_error err;
	rt_agent_view v;
	double start_x = 0.0, arrival = -1.0;
	for (int i = 0; i < 600 && arrival < 0.0; ++i) {
		if (rt_world_step(w, &err) != RT_OK) break;
		rt_world_get_agent(w, 0, &v);
		if (v.position.x - start_x >= 40.0) {
			rt_world_stats st;
			rt_world_get_stats(w, &st);
			arrival = st.time_s;
		}
	}
	rt_world_destroy(w);
	rt_test_note("40 m at 1.33 m/s took %.2f s (RiMEA 1: 26-34 s)", arrival);
	CHECK(arrival >= 26.0 && arrival <= 34.0);
}

static double weidmann(double rho)
{
	return 1.34 * (1.0 - exp(-1.913 * (1.0 / rho - 1.0 / 5.4)));
}

TEST(fundamental_diagram_rimea4)
{
	const double densities[4] = { 0.5, 1.0, 2.0, 3.0 };
	double speeds[4];
	for (int d = 0; d < 4; ++d) {
		rt_scene_def sd = rt_scene_def_default(RT_SCENE_PERIODIC);
		sd.density_per_m2 = densities[d];
		sd.seed = 11;
		rt_world *w = make_scene(&sd);
		CHECK(w);
		rt_error err;
		double sum = 0.0;
		long samples = 0;
		int n = rt_world_agent_count(w);
		for (int step = 1; step <= 600; ++step) {
			CHECK_OK(rt_world_step(w, &err), err);
			if (step <= 100) continue; /* drop the first 10 s */
			for (int id = 0; id < n; ++id) {
				rt_agent_view v;
				rt_world_get_agent(w, (rt_agent_id)id, &v);
				sum += v.velocity.x; /* speed along the corridor */
				samples++;
			}
		}
		CHECK(rt_world_count_wall_violations(w) == 0);
		rt_world_destroy(w);
		speeds[d] = sum / (double)samples;
		rt_test_note("density %.1f /m2 (%d men): mean speed %.3f m/s, Weidmann %.3f m/s", densities[d], n, speeds[d],
			     weidmann(densities[d]));
	}
	for (int d = 0; d < 4; ++d) CHECK_NEAR(speeds[d], weidmann(densities[d]), 0.15);
	for (int d = 1; d < 4; ++d) CHECK(speeds[d] < speeds[d - 1]);
}

/* Runs the bottleneck scene; returns the specific flow in /(m s) between the 10th and
 * the 90th percentile of passages, and counts wall violations over the whole run. */
static double bottleneck_flow(double width, uint64_t seed, int *violations, int *passed)
{
	rt_scene_def sd = rt_scene_def_default(RT_SCENE_BOTTLENECK);
	sd.width_m = width;
	sd.agents = 300;
	sd.seed = seed;
	rt_world *w = make_scene(&sd);
	if (!w) return -1.0;
	int n = rt_world_agent_count(w);
	double passage[300];
	for (int i = 0; i < n; ++i) passage[i] = -1.0;
	rt_error err;
	int count = 0;
	*violations = 0;
	for (int step = 0; step < 3000 && count < n; ++step) {
		if (rt_world_step(w, &err) != RT_OK) break;
		rt_world_stats st;
		rt_world_get_stats(w, &st);
		for (int id = 0; id < n; ++id) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)id, &v);
			if (passage[id] < 0.0 && (v.position.x > 10.0 || v.state == RT_STATE_ESCAPED)) {
				passage[id] = st.time_s;
				count++;
			}
		}
		*violations += rt_world_count_wall_violations(w);
	}
	rt_world_destroy(w);
	*passed = count;
	if (count < n) return -1.0;
	for (int i = 1; i < n; ++i) /* passage times in order */
		for (int j = i; j > 0 && passage[j] < passage[j - 1]; --j) {
			double t = passage[j];
			passage[j] = passage[j - 1];
			passage[j - 1] = t;
		}
	int lo = n / 10, hi = (9 * n) / 10;
	return (double)(hi - lo) / (passage[hi] - passage[lo]) / width;
}

/* Seyfried et al. 2009: specific flow 1.9 /(m s) +- 25% for openings of 1 and 2 m.
 * Five seeds each; every man must get through (no standing deadlock), nobody may touch
 * a wall, and the mean flow must be within the tolerance. */
TEST(bottleneck_specific_flow_seyfried2009)
{
	const double widths[2] = { 1.0, 2.0 };
	const int seeds = 5;
	for (int i = 0; i < 2; ++i) {
		double sum = 0.0, lo = 1e9, hi = 0.0;
		for (int seed = 1; seed <= seeds; ++seed) {
			int violations = 0, passed = 0;
			double js = bottleneck_flow(widths[i], (uint64_t)seed, &violations, &passed);
			CHECK_MSG(passed == 300, "opening %.1f m, seed %d: only %d of 300 got through", widths[i], seed, passed);
			CHECK_MSG(violations == 0, "opening %.1f m, seed %d: %d wall violations", widths[i], seed, violations);
			sum += js;
			lo = fmin(lo, js);
			hi = fmax(hi, js);
		}
		double mean = sum / seeds;
		rt_test_note("opening %.1f m: specific flow %.2f /(m s) (seeds: %.2f-%.2f; Seyfried 2009: 1.9 +- 25%%)",
			     widths[i], mean, lo, hi);
		CHECK_NEAR(mean, 1.9, 0.25 * 1.9);
	}
}

TEST(corner_rimea6_no_wall_violations)
{
	rt_scene_def sd = rt_scene_def_default(RT_SCENE_CORNER);
	rt_world *w = make_scene(&sd);
	CHECK(w);
	rt_error err;
	int violations = 0;
	rt_world_stats st;
	for (int step = 0; step < 1200; ++step) {
		CHECK_OK(rt_world_step(w, &err), err);
		violations += rt_world_count_wall_violations(w);
		rt_world_get_stats(w, &st);
		if (st.by_state[RT_STATE_ESCAPED] == 20) break;
	}
	rt_world_destroy(w);
	rt_test_note("%d of 20 round the corner in %.1f s, %d wall violations", st.by_state[RT_STATE_ESCAPED], st.time_s, violations);
	CHECK(st.by_state[RT_STATE_ESCAPED] == 20);
	CHECK(violations == 0);
}
