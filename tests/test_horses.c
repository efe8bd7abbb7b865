/* Horse stamina (C4: "两条腿如何能跑得过四条腿的战马" / "消耗了八旗的马力"): a fresh horse
 * outruns any man on foot, but horses pressed at the trot for hours slow down, by the
 * fraction the stamina model (docs/model.md section 15) gives, and regain their pace at
 * rest. The men's own legs tire the same way, faster (C5: "很多明军跑不动"). */
#include "builders.h"

#include <math.h>

#define RIDERS 10

/* The mean speed of the riders over the next `seconds`, stepping. */
static bool mean_speed(rt_world *w, double seconds, double *speed)
{
	rt_error err;
	const int steps = (int)floor(seconds / 0.5 + 0.5);
	double sum = 0.0;
	for (int i = 0; i < steps; ++i) {
		if (rt_world_step(w, &err) != RT_OK) return false;
		for (int id = 0; id < RIDERS; ++id) {
			rt_agent_view v;
			rt_world_get_agent(w, (rt_agent_id)id, &v);
			sum += hypot(v.velocity.x, v.velocity.y);
		}
	}
	*speed = sum / ((double)steps * RIDERS);
	return true;
}

static bool set_goal(rt_world *w, rt_goal_id goal)
{
	rt_error err;
	for (int id = 0; id < RIDERS; ++id)
		if (rt_world_set_agent_goal(w, (rt_agent_id)id, goal, &err) != RT_OK) return false;
	return true;
}

/* Ten riders, 20 m apart, pursue at the trot for three hours, halt for two, and go on. */
TEST(horses_tire_in_a_long_pursuit_and_recover_at_rest)
{
	rt_error err;
	rt_goal_id far = RT_NO_GOAL;
	rt_world *w = long_road_world(&far, &err);
	CHECK(w);
	if (!w) return;
	rt_agent_def ad = rt_agent_def_default();
	ad.kind = RT_KIND_HORSE;
	ad.goal = far;
	for (int i = 0; i < RIDERS; ++i) {
		ad.position = (rt_vec2){ 10.0, 10.0 + 20.0 * i };
		CHECK_OK(rt_world_add_agent(w, &ad, NULL, &err), err);
	}
	double fresh, hour1, hour3, rested;
	CHECK(mean_speed(w, 60.0, &fresh));           /* the first minute */
	CHECK(mean_speed(w, 3540.0, &hour1));         /* to the end of the first hour */
	CHECK(mean_speed(w, 3600.0, &hour1));         /* the second hour */
	CHECK(mean_speed(w, 3540.0, &hour3));
	CHECK(mean_speed(w, 60.0, &hour3));           /* the last minute of the third hour */
	rt_agent_view v;
	rt_world_get_agent(w, 0, &v);
	const float spent = v.horse_fatigue;
	CHECK(set_goal(w, RT_NO_GOAL));               /* halt two hours */
	double halted;
	CHECK(mean_speed(w, 7200.0, &halted));
	rt_world_get_agent(w, 0, &v);
	const float after_rest = v.horse_fatigue;
	CHECK(set_goal(w, far));
	CHECK(mean_speed(w, 60.0, &rested));
	rt_world_destroy(w);

	/* the model's own prediction: F -> F_eq (1 - exp(-t / tau)) at the trot */
	const rt_stamina_params p = rt_stamina_params_default();
	const double v0 = rt_kind_params_default(RT_KIND_HORSE).free_speed_mps;
	const double f_eq = (1.0 - p.sustained_speed_mps / v0) / p.speed_loss;
	const double tau = f_eq * p.tire_time_s * (p.reference_speed_mps - p.sustained_speed_mps) / (v0 - p.sustained_speed_mps);
	const double f3 = f_eq * (1.0 - exp(-3.0 * 3600.0 / tau));
	const double expected_drop = p.speed_loss * f3;
	const double run_on_foot = rt_kind_params_default(RT_KIND_FOOT).free_speed_mps * rt_morale_params_default().flight_speed_factor;
	rt_test_note("riders at the trot: %.2f m/s fresh, %.2f in the second hour, %.2f at the end of the third (fatigue %.2f): "
		     "%.1f %% slower (model: %.1f %%); after two hours' halt (fatigue %.2f) %.2f m/s; a man running: %.2f m/s",
		     fresh, hour1, hour3, spent, 100.0 * (1.0 - hour3 / fresh), 100.0 * expected_drop, after_rest, rested, run_on_foot);
	CHECK(fresh > 1.5 * run_on_foot);                       /* no man on foot outruns a fresh horse */
	CHECK_NEAR(fresh, v0, 0.01 * v0);
	CHECK(hour1 < fresh && hour3 < hour1);                  /* they slow hour by hour */
	CHECK_NEAR(1.0 - hour3 / fresh, expected_drop, 0.02);   /* by the documented fraction */
	CHECK(expected_drop > 0.30 && expected_drop < 0.40);    /* docs/model.md: 35 % in three hours */
	CHECK(halted < 1e-9);
	CHECK_NEAR(after_rest, spent * exp(-7200.0 / p.rest_time_s), 0.01); /* two hours' halt give back 86 % */
	CHECK_NEAR(rested, v0 * (1.0 - p.speed_loss * after_rest), 0.02);   /* and the pace with it ... */
	CHECK(rested > 0.9 * fresh);                                        /* ... nearly all of it */
}

/* C4/C5: ten men on foot run (2.14 m/s, a routing man's pace) for half an hour along the
 * road, halt for half an hour, and run on. They slow to the walk they can keep, by the
 * model's own curve (docs/model.md section 15), and regain most of their pace at rest; a
 * man who walks does not tire. */
TEST(legs_tire_in_a_run_and_recover_at_rest)
{
	rt_error err;
	rt_goal_id far = RT_NO_GOAL;
	rt_world *w = long_road_world(&far, &err);
	CHECK(w);
	if (!w) return;
	const rt_stamina_params p = rt_stamina_params_default();
	const double v0 = p.foot_reference_speed_mps;
	rt_agent_def ad = rt_agent_def_default();
	ad.goal = far;
	ad.free_speed_mps = v0;
	for (int i = 0; i < RIDERS; ++i) {
		ad.position = (rt_vec2){ 10.0, 10.0 + 20.0 * i };
		CHECK_OK(rt_world_add_agent(w, &ad, NULL, &err), err);
	}
	ad.free_speed_mps = 1.34; /* the eleventh walks */
	ad.position = (rt_vec2){ 10.0, 195.0 };
	rt_agent_id walker;
	CHECK_OK(rt_world_add_agent(w, &ad, &walker, &err), err);
	double fresh, at10, at30, rested;
	CHECK(mean_speed(w, 10.0, &fresh));
	CHECK(mean_speed(w, 580.0, &at10));
	CHECK(mean_speed(w, 10.0, &at10)); /* ten minutes on */
	CHECK(mean_speed(w, 1180.0, &at30));
	CHECK(mean_speed(w, 10.0, &at30)); /* half an hour on */
	rt_agent_view v;
	rt_world_get_agent(w, 0, &v);
	const float run_out = v.fatigue;
	rt_world_get_agent(w, walker, &v);
	const float walked = v.fatigue;
	CHECK(set_goal(w, RT_NO_GOAL));
	double halted;
	CHECK(mean_speed(w, 1800.0, &halted));
	rt_world_get_agent(w, 0, &v);
	const float after_rest = v.fatigue;
	CHECK(set_goal(w, far));
	CHECK(mean_speed(w, 10.0, &rested));
	rt_world_destroy(w);

	/* the model: F -> F_eq (1 - exp(-t / tau)), F_eq = (1 - v_s / v0) / L, tau = F_eq T_tire */
	const double f_eq = (1.0 - p.foot_sustained_speed_mps / v0) / p.foot_speed_loss;
	const double tau = f_eq * p.foot_tire_time_s;
	const double pace10 = v0 * (1.0 - p.foot_speed_loss * f_eq * (1.0 - exp(-600.0 / tau)));
	const double pace30 = v0 * (1.0 - p.foot_speed_loss * f_eq * (1.0 - exp(-1800.0 / tau)));
	rt_test_note("men running: %.2f m/s fresh, %.2f after ten minutes (model %.2f), %.2f after half an hour (model %.2f, "
		     "fatigue %.2f; the walk they keep %.2f); half an hour's halt: fatigue %.2f, %.2f m/s; a man walking %.2f m/s: "
		     "fatigue %.2f", fresh, at10, pace10, at30, pace30, run_out, p.foot_sustained_speed_mps, after_rest, rested,
		     1.34, walked);
	CHECK_NEAR(fresh, v0, 0.02 * v0);
	CHECK_NEAR(at10, pace10, 0.03);
	CHECK_NEAR(at30, pace30, 0.03);
	CHECK(at30 < 1.5 && at30 > p.foot_sustained_speed_mps - 0.05); /* run out: down to the walk */
	CHECK(walked == 0.0f);                                          /* the walk does not tire */
	CHECK(halted < 1e-9);
	CHECK_NEAR(after_rest, run_out * exp(-1800.0 / p.foot_rest_time_s), 0.01);
	CHECK_NEAR(rested, v0 * (1.0 - p.foot_speed_loss * after_rest), 0.03);
	CHECK(rested > 0.85 * v0);
}
