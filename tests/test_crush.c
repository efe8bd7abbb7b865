/* Crowd crush and trampling (C2): a routing crowd forced into a narrow road, with horse
 * pushing through it from behind, knocks men down and tramples them; the same men walking
 * calmly at a low density do not; the horse raise the toll. The density the model measures
 * counts men, not agents, so it is the same at any scale. */
#include "builders.h"

#include <math.h>
#include <string.h>

typedef struct toll {
	int falls, trampled, escaped, men;
	double densest; /* the highest local density a man on foot stood in, sampled every 10 s */
} toll;

static bool run_funnel(const funnel_def *f, int steps, toll *out)
{
	rt_error err;
	memset(out, 0, sizeof *out);
	rt_world *w = funnel_world(f, &err);
	if (!w) {
		rt_test_note("funnel: %s", err.message);
		return false;
	}
	bool ok = true;
	for (int i = 0; i < steps && ok; ++i) {
		ok = rt_world_step(w, &err) == RT_OK;
		if (ok && i % 100 == 99)
			for (int id = 0; id < f->men; ++id) {
				rt_agent_view v;
				rt_crowd_sample c;
				rt_world_get_agent(w, (rt_agent_id)id, &v);
				if (rt_state_is_active(v.state) && !v.fallen && rt_world_crowd_sample(w, (rt_agent_id)id, &c) &&
				    c.density_per_m2 > out->densest)
					out->densest = c.density_per_m2;
			}
	}
	rt_world_stats st;
	rt_world_get_stats(w, &st);
	out->falls = (int)st.falls;
	out->trampled = st.by_state[RT_STATE_DEAD_TRAMPLED];
	out->escaped = st.by_state[RT_STATE_ESCAPED];
	for (int s = 0; s < RT_STATE_COUNT; ++s) out->men += st.by_state[s];
	rt_world_destroy(w);
	if (!ok) rt_test_note("step: %s", err.message);
	return ok;
}

/* 600 routing foot packed at 3 /m2 on a front of 36 m run for a road 4 m wide, 120 horse
 * of their own side behind them (C2: "骑兵干脆纵马直冲，硬往前闯。于是马步兵自相践踏"); the
 * same without the horse; the same 600 walking calmly to the road in a column as wide as
 * it at 1 /m2. Two minutes each. */
TEST(crush_rout_through_a_narrow_road_tramples)
{
	const int seeds = 3, steps = 1200;
	funnel_def f = { .men = 600, .riders = 120, .routing = true, .density_per_m2 = 3.0, .front_m = 36.0, .threads = 1 };
	int with = 0, without = 0, falls_with = 0, falls_without = 0;
	double densest = 0.0;
	for (int seed = 1; seed <= seeds; ++seed) {
		toll t;
		f.seed = (uint64_t)seed;
		f.riders = 120;
		CHECK(run_funnel(&f, steps, &t));
		CHECK(t.men == 720);
		with += t.trampled;
		falls_with += t.falls;
		densest = t.densest > densest ? t.densest : densest;
		f.riders = 0;
		CHECK(run_funnel(&f, steps, &t));
		CHECK(t.men == 600);
		without += t.trampled;
		falls_without += t.falls;
		rt_test_note("seed %d: trampled %d with the horse, %d without", seed, with, without);
	}
	const funnel_def calm = { .seed = 1, .threads = 1, .men = 600, .density_per_m2 = 1.0, .front_m = 4.0 };
	toll c;
	CHECK(run_funnel(&calm, steps, &c));
	rt_test_note("routing into the road, %d seeds: %d knocked down and %d trampled with 120 horse behind, %d and %d without; "
		     "densest crowd %.1f men/m2",
		     seeds, falls_with, with, falls_without, without, densest);
	rt_test_note("walking calmly at 1 /m2: %d knocked down, %d trampled, %d through the road, densest %.1f men/m2", c.falls,
		     c.trampled, c.escaped, c.densest);
	CHECK(with >= 10);                 /* the rout kills men by trampling */
	CHECK(2 * with >= 3 * without);    /* the horse forcing their way raise the toll by half at least */
	CHECK(without > 0);
	CHECK(c.falls == 0 && c.trampled == 0 && c.escaped > 100); /* calm men walk through, all of them alive */
	CHECK(densest > rt_crush_params_default().density_onset_per_m2);
	CHECK(c.densest < rt_crush_params_default().density_onset_per_m2);
}

/* Men standing on a square lattice at 4 /m2, one agent a man (radius 0.2 m, 0.5 m apart);
 * the same ground with one agent for four men (scale 4: radius 0.4 m, 1 m apart); a rider
 * in place of one man. The density is the men's at both scales, and the horse counts for
 * the ground it covers. */
static bool lattice_density(double scale, bool rider, double *density)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	const double a = 0.5 * sqrt(scale);
	d.bounds_min = (rt_vec2){ -10.0 * a, -10.0 * a };
	d.bounds_max = (rt_vec2){ 10.0 * a, 10.0 * a };
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return false;
	rt_agent_def ad = rt_agent_def_default();
	ad.radius_m = 0.2 * sqrt(scale);
	bool ok = true;
	rt_agent_id centre = 0;
	for (int i = -7; i <= 7 && ok; ++i)
		for (int j = -7; j <= 7 && ok; ++j) {
			rt_agent_def m = ad;
			m.position = (rt_vec2){ a * i, a * j };
			if (rider && i == 1 && j == 0) { /* a horse beside the man sampled */
				m.kind = RT_KIND_HORSE;
				m.radius_m = 0.6 * sqrt(scale);
				m.position.x += 0.5 * a;
			}
			rt_agent_id id;
			ok = rt_world_add_agent(w, &m, &id, &err) == RT_OK;
			if (i == 0 && j == 0) centre = id;
		}
	rt_crowd_sample c;
	ok = ok && rt_world_step(w, &err) == RT_OK && rt_world_crowd_sample(w, centre, &c);
	rt_world_destroy(w);
	*density = c.density_per_m2;
	return ok;
}

TEST(crush_density_counts_men_at_any_scale)
{
	double one, four, sixteen, horse;
	CHECK(lattice_density(1.0, false, &one));
	CHECK(lattice_density(4.0, false, &four));
	CHECK(lattice_density(16.0, false, &sixteen));
	CHECK(lattice_density(1.0, true, &horse));
	rt_test_note("men at 4 /m2 measure %.3f /m2 one agent a man, %.3f at 4 men an agent, %.3f at 16; a horse beside him: %.3f",
		     one, four, sixteen, horse);
	CHECK_NEAR(one, 4.0, 0.15);           /* a Gaussian of 0.7 m over a lattice of 0.5 m */
	CHECK_NEAR(four, one, 1e-6 * one);
	CHECK_NEAR(sixteen, one, 1e-6 * one);
	CHECK(horse > one + 1.0);             /* the horse's body is nine men's ground */
}

TEST(crush_parameters_refused_with_what_was_expected)
{
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	rt_error err;
	d.crush.density_critical_per_m2 = d.crush.density_onset_per_m2;
	CHECK(rt_world_create(&d, &err) == NULL && err.code == RT_ERR_INVALID);
	CHECK(strstr(err.message, "density_critical_per_m2 must exceed density_onset_per_m2"));
	d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.crush.held_speed_share = 1.5;
	CHECK(rt_world_create(&d, &err) == NULL && strstr(err.message, "crush parameters"));
	/* a man on foot has no horse to tire */
	d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	rt_world *w = rt_world_create(&d, &err);
	CHECK(w);
	rt_agent_def ad = rt_agent_def_default();
	ad.position = (rt_vec2){ 5, 5 };
	ad.horse_fatigue = 0.5f;
	rt_status s = rt_world_add_agent(w, &ad, NULL, &err);
	ad.kind = RT_KIND_HORSE;
	rt_status s2 = rt_world_add_agent(w, &ad, NULL, &err);
	rt_world_destroy(w);
	CHECK(s == RT_ERR_INVALID && s2 == RT_OK);
}

/* A night rout of 4,600 (enough that every phase runs on several threads): men knocked
 * down and trampled, horses tiring, torches taken for the enemy, the same to the bit at
 * one thread and two. */
static uint64_t big_rout(int threads, rt_world_stats *st)
{
	const funnel_def f = { .seed = 11, .threads = threads, .men = 4400, .riders = 200, .routing = true, .night = true,
			       .density_per_m2 = 3.0, .front_m = 36.0, .torch_share = 0.2 };
	rt_error err;
	rt_world *w = funnel_world(&f, &err);
	if (!w) return 0;
	for (int i = 0; i < 150; ++i)
		if (rt_world_step(w, &err) != RT_OK) {
			rt_world_destroy(w);
			return 0;
		}
	rt_world_get_stats(w, st);
	const uint64_t h = rt_world_hash(w);
	rt_world_destroy(w);
	return h;
}

TEST(crush_same_at_any_thread_count)
{
	rt_world_stats one_st, two_st;
	const uint64_t one = big_rout(1, &one_st), two = big_rout(2, &two_st);
	rt_test_note("4,600 routing at night, 15 s: %016llx at 1 thread, %016llx at 2; %lld knocked down, %d trampled, %lld alarms",
		     (unsigned long long)one, (unsigned long long)two, (long long)one_st.falls,
		     one_st.by_state[RT_STATE_DEAD_TRAMPLED], (long long)one_st.torch_alarms);
	CHECK(one != 0 && one == two);
	CHECK(one_st.falls > 0 && one_st.torch_alarms > 0);
	CHECK(one_st.falls == two_st.falls && one_st.torch_alarms == two_st.torch_alarms);
}
