/* The summons to surrender (M7): a ring halted at 500 paces that holds asks the men
 * inside to give themselves up; broken, hungry men left without a commander kneel over
 * the hours, the desperate last. */
#include "test.h"

#include <string.h>

#define POCKET 300
#define RING 240

typedef struct pocket {
	double half_s;        /* when half the men inside had knelt (-1: never) */
	int knelt;            /* kneeling at the end */
	int killed;
	int desperate;        /* desperate at the end */
	double summoned_at_s; /* when the ring's commander summoned (-1 never) */
	int encircled;        /* inside the ring at the last decision */
} pocket;

/* POCKET broken men (morale 0.2) of a corps with the given hunger and no commander stand
 * in a knot; RING horse of a corps that summons (or not) ride in from 1,000 m to contain
 * them at 800 m; its commander stands 1,200 m off. Hours at 1 s steps. */
static bool surround(uint64_t seed, bool summon, double hunger, double hours, pocket *out)
{
	memset(out, 0, sizeof *out);
	out->half_s = -1.0;
	rt_world_def d = rt_world_def_default();
	d.allocator = rt_test_allocator();
	d.seed = seed;
	d.dt_s = 1.0;
	d.max_period_level = 4;
	d.bounds_min = (rt_vec2){ -1500, -1500 };
	d.bounds_max = (rt_vec2){ 1500, 1500 };
	d.combat.sense_range_m = 1500.0; /* by day, on open ground */
	d.combat.sense_cell_m = 50.0;
	rt_error err;
	rt_world *w = rt_world_create(&d, &err);
	if (!w) return false;
	rt_corps_def inside = rt_corps_def_default();
	inside.hunger = hunger;
	rt_corps_id trapped = 0, ring = 0;
	bool ok = rt_world_add_corps(w, &inside, &trapped, &err) == RT_OK;
	rt_corps_def outside = rt_corps_def_default();
	outside.side = 1;
	outside.summon = summon;
	ok = ok && rt_world_add_corps(w, &outside, &ring, &err) == RT_OK;
	rt_agent_def man = rt_agent_def_default();
	man.morale = 0.2f;
	man.corps = trapped;
	for (int i = 0; i < POCKET && ok; ++i) {
		man.position = (rt_vec2){ -15.0 + 1.5 * (i % 20), -11.0 + 1.5 * (i / 20) };
		ok = rt_world_add_agent(w, &man, NULL, &err) == RT_OK;
	}
	rt_agent_def horse = rt_agent_def_default();
	horse.kind = RT_KIND_HORSE;
	horse.side = 1;
	horse.stance = RT_STANCE_CONTAIN;
	horse.experience = RT_EXPERIENCE_VETERAN;
	horse.corps = ring;
	for (int i = 0; i < RING && ok; ++i) {
		double angle = 6.283185307179586 * (i + 0.5) / RING;
		horse.position = (rt_vec2){ 1000.0 * cos(angle), 1000.0 * sin(angle) };
		ok = rt_world_add_agent(w, &horse, NULL, &err) == RT_OK;
	}
	rt_agent_def chief = rt_agent_def_default();
	chief.kind = RT_KIND_COMMANDER;
	chief.side = 1;
	chief.corps = ring;
	chief.position = (rt_vec2){ 1200.0, 1200.0 };
	rt_agent_id commander = 0;
	ok = ok && rt_world_add_agent(w, &chief, &commander, &err) == RT_OK;
	ok = ok && rt_world_set_corps_commander(w, ring, commander, &err) == RT_OK;
	const int steps = (int)(hours * 3600.0 / d.dt_s);
	for (int step = 0; step < steps && ok; ++step) {
		ok = rt_world_step(w, &err) == RT_OK;
		if ((step + 1) % 60 != 0) continue;
		int knelt = 0;
		for (int id = 0; id < POCKET; ++id) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)id, &v);
			knelt += v.state == RT_STATE_SURRENDERED || v.state == RT_STATE_CAPTURED;
		}
		if (out->half_s < 0.0 && 2 * knelt >= POCKET) out->half_s = (step + 1) * d.dt_s;
	}
	for (int id = 0; id < POCKET; ++id) {
		rt_agent_view v;
		rt_world_get_agent(w, (rt_agent_id)id, &v);
		out->knelt += v.state == RT_STATE_SURRENDERED || v.state == RT_STATE_CAPTURED;
		out->killed += v.state == RT_STATE_DEAD_COMBAT;
		out->desperate += v.state == RT_STATE_DESPERATE;
	}
	rt_corps_view cv;
	rt_world_get_corps(w, ring, &cv);
	out->summoned_at_s = cv.summons_at_s;
	out->encircled = cv.encircled;
	if (!ok) rt_test_note("surround: %s", err.message);
	rt_world_destroy(w);
	return ok;
}

TEST(summons_the_encircled_kneel_over_the_hours)
{
	pocket summoned, silent, hungry;
	CHECK(surround(1, true, 0.0, 4.0, &summoned));
	CHECK(surround(1, false, 0.0, 4.0, &silent));
	CHECK(surround(1, true, 1.0, 4.0, &hungry));
	rt_test_note("300 broken men ringed at 800 m for 4 h: summoned at %.0f s, %d knelt (half by %.0f min), %d still desperate, %d killed; not summoned: %d knelt, %d desperate; starving and summoned: half by %.0f min, %d knelt",
		     summoned.summoned_at_s, summoned.knelt, summoned.half_s / 60.0, summoned.desperate, summoned.killed, silent.knelt,
		     silent.desperate, hungry.half_s / 60.0, hungry.knelt);
	CHECK(summoned.summoned_at_s > 0.0 && summoned.summoned_at_s < 600.0); /* once the ring holds */
	CHECK(summoned.knelt >= 0.8 * POCKET);
	CHECK(summoned.killed == 0);
	CHECK(silent.summoned_at_s < 0.0 && silent.knelt == 0 && silent.desperate >= 0.8 * POCKET);
	CHECK(hungry.half_s > 0.0 && hungry.half_s < 0.6 * summoned.half_s); /* hunger hastens it */
}
