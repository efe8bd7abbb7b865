/* The world: creation from a definition, the agent store, the fixed order of phases in
 * a step, and what callers read back (views, statistics, the state hash).
 *
 * A step runs the phases of DESIGN.md in order. Parallel phases read step t and write
 * only their own agent's slot, so the result does not depend on the thread count.
 * Multi-rate stepping: an agent decides every 2^level steps (level in its slot) and
 * moves every step with the velocity it chose, so sparse or resting agents cost little. */
#include "world.h"

#include <math.h>
#include <time.h>

#define RT_MAX_AGENTS (1 << 28)

double rt__now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

bool rt_state_is_active(rt_state s)
{
	return s <= RT_STATE_SURRENDERED;
}

const char *rt_state_name(rt_state s)
{
	static const char *names[RT_STATE_COUNT] = {
		"formed", "marching", "engaged", "routing", "desperate", "surrendered", "captured",
		"sheltered", "escaped", "dead_combat", "dead_trampled", "dead_drowned", "dead_burned"
	};
	return (unsigned)s < RT_STATE_COUNT ? names[s] : "unknown";
}

const char *rt_kind_name(rt_kind k)
{
	static const char *names[RT_KIND_COUNT] = {
		"foot", "archer", "gunner", "crew", "horse", "horse_archer", "commander", "guard"
	};
	return (unsigned)k < RT_KIND_COUNT ? names[k] : "unknown";
}

const char *rt_phase_name(int phase)
{
	static const char *names[RT_PHASE_COUNT] = {
		"env", "grid", "sense", "command", "morale", "decide", "move", "fight", "resolve", "record"
	};
	return phase >= 0 && phase < RT_PHASE_COUNT ? names[phase] : "unknown";
}

rt_locomotion_params rt_locomotion_params_default(void)
{
	/* Tordeux, Chraibi & Seyfried 2016; JuPedSim's defaults for the repulsion terms;
	 * docs/model.md gives the sources and the calibration against Weidmann. */
	rt_locomotion_params p;
	p.time_gap_s = 0.55;
	p.neighbor_strength = 8.0;
	p.neighbor_range_m = 0.1;
	p.wall_strength = 5.0;
	p.wall_range_m = 0.02;
	p.wall_clearance_factor = 0.5;
	p.push_gain = 0.5;
	p.push_max_factor = 3.0;
	p.dark_pace_factor = 0.35; /* estimate (E): E1; HISTORY.md, fugitives 2-3 km/h by night (docs/model.md section 2) */
	return p;
}

rt_kind_params rt_kind_params_default(rt_kind kind)
{
	/* body: JuPedSim radius, Weidmann 1993 free speed. Weapons: estimates (grade E in
	 * docs/model.md), to be varied in sweeps and calibrated against the record. */
	rt_kind_params p;
	memset(&p, 0, sizeof p);
	p.radius_m = 0.2;
	p.free_speed_mps = 1.34;
	p.melee_reach_m = 0.8;     /* sword or short spear */
	p.melee_rate_per_s = 0.5;
	p.melee_hit_prob = 0.10;
	switch (kind) {
	case RT_KIND_ARCHER:
		p.melee_reach_m = 0.5; p.melee_rate_per_s = 0.3; p.melee_hit_prob = 0.05;
		p.missile_range_m = 120.0; p.missile_rate_per_s = 0.2; p.missile_hit_prob = 0.10; p.ammunition = 30;
		break;
	case RT_KIND_GUNNER:
		p.melee_reach_m = 0.5; p.melee_rate_per_s = 0.3; p.melee_hit_prob = 0.05;
		p.missile_range_m = 80.0; p.missile_rate_per_s = 1.0 / 30.0; p.missile_hit_prob = 0.15; p.ammunition = 20;
		break;
	case RT_KIND_CREW:
		p.radius_m = 0.25;       /* men hauling wagon or gun */
		p.free_speed_mps = 1.0;
		p.melee_rate_per_s = 0.3; p.melee_hit_prob = 0.05;
		break;
	case RT_KIND_HORSE:
		p.radius_m = 0.6;        /* a horse seen from above, as a disc: ~2.4 m x 0.8 m */
		p.free_speed_mps = 3.5;  /* an army horse at a sustained trot */
		p.melee_reach_m = 1.0; p.melee_rate_per_s = 0.6; p.melee_hit_prob = 0.12;
		break;
	case RT_KIND_HORSE_ARCHER:
		p.radius_m = 0.6;
		p.free_speed_mps = 3.5;
		p.melee_reach_m = 1.0; p.melee_rate_per_s = 0.5; p.melee_hit_prob = 0.10;
		p.missile_range_m = 60.0; p.missile_rate_per_s = 0.15; p.missile_hit_prob = 0.08; p.ammunition = 30;
		break;
	case RT_KIND_GUARD:
		p.melee_rate_per_s = 0.7; p.melee_hit_prob = 0.15; /* picked, paid, armoured men */
		break;
	default:
		break;
	}
	return p;
}

rt_morale_params rt_morale_params_default(void)
{
	/* Estimates (grade E in docs/model.md), to be calibrated against the record and
	 * varied in sweeps; the structure follows DESIGN.md "Morale". */
	rt_morale_params m;
	memset(&m, 0, sizeof m);
	m.baseline[RT_EXPERIENCE_GREEN] = 0.60;
	m.baseline[RT_EXPERIENCE_TRAINED] = 0.75;
	m.baseline[RT_EXPERIENCE_VETERAN] = 0.90;
	m.sensitivity[RT_EXPERIENCE_GREEN] = 1.5;   /* M1: green troops break sooner */
	m.sensitivity[RT_EXPERIENCE_TRAINED] = 1.0;
	m.sensitivity[RT_EXPERIENCE_VETERAN] = 0.6;
	m.baseline_spread = 0.10;
	m.recovery_time_s = 120.0;
	m.view_radius_m = 30.0;
	m.threat_rate_per_s = 0.004;
	m.horse_threat_weight = 3.0;                /* "cavalry most" (DESIGN.md) */
	m.contagion_rate_per_s = 0.03;
	m.death_shock = 0.02;
	m.death_memory_s = 30.0;
	m.rout_threshold = 0.30;
	m.rally_threshold = 0.60;
	m.rally_enemy_distance_m = 100.0;
	m.flight_speed_factor = 1.6;                /* running: ~2.1 m/s for a man on foot */
	m.drop_armour_prob = 0.5;
	m.drop_weapon_prob = 0.3;
	m.kneel_distance_m = 3.0;                   /* the pursuer is on him */
	m.kneel_rate_per_s = 0.3;
	m.capture_distance_m = 2.0;
	m.hunger_baseline_loss = 0.25;
	m.darkness_loss_factor = 1.0;
	m.rear_threat_factor = 1.0;
	m.dark_kneel_factor = 0.1;
	m.barred_range_m = 1000.0;          /* E5/C2: a body of men standing across his way, seen by day (E) */
	m.barred_cell_m = 25.0;             /* E5/C2: his way is this wide (E) */
	m.barred_men = 10.0;                /* E5/C2: a band, not a lone man (E) */
	m.halted_ahead_radii = 3.0;         /* E5/C2: the man a pace ahead of him (E) */
	m.flight_pace_spread = 0.0;         /* all alike; 0.19 for people walking free (Weidmann 1993): docs/model.md section 9 */
	m.leader_reach_m = 1000.0;          /* M3/M4: a column of thousands is a kilometre long, its general at its head (E) */
	m.leaderless_baseline_loss = 0.3;   /* M3/M4: about what hunger takes at its worst, and a little more (E) */
	m.fire_fear_rate_per_s = 0.1;       /* E4: trained men with a third of what they see aflame break in 22 s (E) */
	m.fire_sight_m = 100.0;             /* E4: flames men give ground from, a minute or more before they come (E) */
	m.fire_path_deg = 45.0;             /* E4: flames within 45 deg of upwind: he is in a head fire's path (E) */
	return m;
}

rt_combat_params rt_combat_params_default(void)
{
	rt_combat_params c;
	c.sense_range_m = 300.0;     /* a man seen and known for an enemy by day (estimate) */
	c.sense_cell_m = 10.0;
	c.armour_protection = 0.3;   /* estimate: lamellar and brigandine turn a third of blows */
	c.advance_range_m = 300.0;
	c.collect_range_m = 1000.0;  /* he knows where he passed them: memory, not sight */
	c.contain_distance_m = 800.0; /* 500 paces of 1.6 m (HISTORY.md) */
	c.contain_watch_m = 1600.0;   /* twice the ring's distance: estimate (E) */
	c.desperate_factor = 1.5;     /* "a cornered beast still fights": estimate (E) */
	c.cover = 0.7;                /* a wagon or wall between stops most arrows and balls: estimate (E) */
	c.facing_speed_mps = 0.3;     /* slower than a slow walk, a man can turn to face: estimate (E) */
	c.rear_hit_factor = 2.0;      /* a back is struck unopposed and unguarded: estimate (E) */
	/* cannon: a light gun of the wagon battalions (folangji, E); docs/model.md section 8 */
	c.cannon_range_m = 500.0;
	c.cannon_reload_s = 60.0;
	c.cannon_rounds = 40.0;
	c.cannon_aim_error_deg = 1.0;
	c.cannon_ball_hit_prob = 0.7;
	c.cannon_ball_men = 4.0;
	c.canister_range_m = 100.0;
	c.canister_half_angle_deg = 4.0;
	c.canister_balls = 60.0;
	c.canister_ball_hit_prob = 0.5;
	c.cannon_shock_radius_m = 10.0;
	c.cannon_morale_shock = 0.05;
	/* the charge (E) */
	c.charge_pace_factor = 1.6;
	c.charge_run_up_m = 100.0;
	c.charge_walk_mps = 2.0;
	c.charge_full_mps = 5.0;
	c.charge_memory_s = 2.0;
	c.charge_hit_prob = 0.35;
	c.charge_morale_shock = 0.3;
	c.charge_shock_radius_m = 3.0;
	c.charge_formed_factor = 0.3;
	c.withdraw_face_m = 10.0; /* the enemy upon him, a few paces off: estimate (E) */
	return c;
}

rt_world_def rt_world_def_default(void)
{
	rt_world_def d;
	memset(&d, 0, sizeof d);
	d.seed = 1;
	d.dt_s = 0.1;
	d.max_period_level = 0;
	d.threads = 0;
	d.bounds_min = (rt_vec2){ 0.0, 0.0 };
	d.bounds_max = (rt_vec2){ 100.0, 100.0 };
	d.cell_size_m = 0.0;
	d.reorder_every_steps = 32;
	d.agent_capacity = 1024;
	d.locomotion = rt_locomotion_params_default();
	d.combat = rt_combat_params_default();
	d.morale = rt_morale_params_default();
	d.command = rt_command_params_default();
	d.crush = rt_crush_params_default();
	d.stamina = rt_stamina_params_default();
	d.torch = rt_torch_params_default();
	for (int k = 0; k < RT_KIND_COUNT; ++k) d.kinds[k] = rt_kind_params_default((rt_kind)k);
	d.allocator = rt_allocator_default();
	d.cookie = RT_COOKIE;
	return d;
}

rt_agent_def rt_agent_def_default(void)
{
	rt_agent_def d;
	memset(&d, 0, sizeof d);
	d.kind = RT_KIND_FOOT;
	d.state = RT_STATE_FORMED;
	d.goal = RT_NO_GOAL;
	d.health = 1.0f;
	d.morale = 1.0f;
	d.equipment = RT_EQUIP_WEAPON | RT_EQUIP_ARMOUR;
	d.stance = RT_STANCE_HOLD;
	d.ammunition = -1;
	d.experience = RT_EXPERIENCE_TRAINED;
	d.flee_goal = RT_NO_GOAL;
	d.corps = -1;
	d.cookie = RT_COOKIE;
	return d;
}

static rt_status validate_def(const rt_world_def *d, rt_error *err)
{
	if (d->cookie != RT_COOKIE)
		return rt__fail(err, RT_ERR_INVALID, "world definition was not made by rt_world_def_default()");
	if (!(d->dt_s > 0.0 && d->dt_s <= 1.0))
		return rt__fail(err, RT_ERR_INVALID, "dt_s is %g; expected 0 < dt_s <= 1 s", d->dt_s);
	if (d->max_period_level < 0 || d->max_period_level > 7)
		return rt__fail(err, RT_ERR_INVALID, "max_period_level is %d; expected 0..7", d->max_period_level);
	if (d->threads < 0 || d->threads > 1024)
		return rt__fail(err, RT_ERR_INVALID, "threads is %d; expected 0..1024", d->threads);
	if (!(isfinite(d->bounds_min.x) && isfinite(d->bounds_min.y) && isfinite(d->bounds_max.x) &&
	      isfinite(d->bounds_max.y) && d->bounds_max.x > d->bounds_min.x && d->bounds_max.y > d->bounds_min.y))
		return rt__fail(err, RT_ERR_INVALID, "bounds must be finite with max > min");
	if (d->bounds_max.x - d->bounds_min.x > 1e6 || d->bounds_max.y - d->bounds_min.y > 1e6)
		return rt__fail(err, RT_ERR_CAPACITY, "bounds span more than 1000 km");
	if (d->cell_size_m < 0.0 || d->cell_size_m > 100.0 || !isfinite(d->cell_size_m))
		return rt__fail(err, RT_ERR_INVALID, "cell_size_m is %g; expected 0 (auto) or up to 100 m", d->cell_size_m);
	if (d->reorder_every_steps < 0)
		return rt__fail(err, RT_ERR_INVALID, "reorder_every_steps must be >= 0");
	if (d->agent_capacity < 0 || d->agent_capacity > RT_MAX_AGENTS)
		return rt__fail(err, RT_ERR_CAPACITY, "agent_capacity is %d; the limit is %d", d->agent_capacity, RT_MAX_AGENTS);
	const rt_locomotion_params *l = &d->locomotion;
	if (!(l->time_gap_s > 0.0 && l->time_gap_s < 10.0))
		return rt__fail(err, RT_ERR_INVALID, "locomotion.time_gap_s is %g; expected 0 < T < 10 s", l->time_gap_s);
	if (!(l->neighbor_strength >= 0.0 && l->neighbor_range_m > 0.0 && l->neighbor_range_m < 5.0 &&
	      l->wall_strength >= 0.0 && l->wall_range_m > 0.0 && l->wall_range_m < 5.0))
		return rt__fail(err, RT_ERR_INVALID, "locomotion repulsion strengths must be >= 0 and ranges in (0, 5) m");
	if (!(l->push_gain >= 0.0 && l->push_gain <= 100.0 && l->push_max_factor >= 1.0 && l->push_max_factor <= 10.0))
		return rt__fail(err, RT_ERR_INVALID, "locomotion.push_gain must be 0..100 and push_max_factor 1..10");
	if (!(l->dark_pace_factor > 0.0 && l->dark_pace_factor <= 1.0))
		return rt__fail(err, RT_ERR_INVALID, "locomotion.dark_pace_factor is %g; expected a share of the day's pace above 0 and at most 1", l->dark_pace_factor);
	if (!(l->wall_clearance_factor > 0.0 && l->wall_clearance_factor <= 1.0))
		return rt__fail(err, RT_ERR_INVALID, "locomotion.wall_clearance_factor is %g; expected (0, 1]", l->wall_clearance_factor);
	const rt_combat_params *c = &d->combat;
	if (!(c->sense_range_m >= 0.0 && c->sense_range_m <= 20000.0 && c->sense_cell_m >= 1.0 && c->sense_cell_m <= 1000.0 &&
	      c->armour_protection >= 0.0 && c->armour_protection <= 1.0 && c->advance_range_m >= 0.0 && c->advance_range_m <= 20000.0 &&
	      c->collect_range_m >= 0.0 && c->collect_range_m <= 20000.0 && c->contain_distance_m >= 0.0 &&
	      c->contain_distance_m <= 20000.0 && c->contain_watch_m >= 0.0 && c->contain_watch_m <= 20000.0 && c->desperate_factor >= 1.0 && c->desperate_factor <= 10.0 &&
	      c->cover >= 0.0 && c->cover <= 1.0 && c->facing_speed_mps >= 0.0 && c->facing_speed_mps <= 20.0 &&
	      c->rear_hit_factor >= 1.0 && c->rear_hit_factor <= 10.0))
		return rt__fail(err, RT_ERR_INVALID, "combat: sense_range_m 0..20000, sense_cell_m 1..1000, armour_protection 0..1, advance, collect, contain and contain watch ranges 0..20000 m, desperate_factor 1..10, cover 0..1, facing_speed_mps 0..20, rear_hit_factor 1..10");
	if (!(c->cannon_range_m >= 0.0 && c->cannon_range_m <= 5000.0 && c->cannon_reload_s > 0.0 && c->cannon_reload_s <= 3600.0 &&
	      c->cannon_rounds >= 0.0 && c->cannon_rounds <= 100000.0 && c->cannon_aim_error_deg >= 0.0 && c->cannon_aim_error_deg <= 45.0 &&
	      c->cannon_ball_hit_prob >= 0.0 && c->cannon_ball_hit_prob <= 1.0 && c->cannon_ball_men >= 1.0 && c->cannon_ball_men <= 31.0 &&
	      c->canister_range_m >= 0.0 && c->canister_range_m <= c->cannon_range_m && c->canister_half_angle_deg > 0.0 &&
	      c->canister_half_angle_deg <= 45.0 && c->canister_balls >= 0.0 && c->canister_balls <= 1000.0 &&
	      c->canister_ball_hit_prob >= 0.0 && c->canister_ball_hit_prob <= 1.0 && c->cannon_shock_radius_m >= 0.0 &&
	      c->cannon_shock_radius_m <= 100.0 && c->cannon_morale_shock >= 0.0 && c->cannon_morale_shock <= 1.0))
		return rt__fail(err, RT_ERR_INVALID, "combat cannon parameters out of range (docs/model.md section 8 gives each range)");
	if (!(c->charge_pace_factor >= 1.0 && c->charge_pace_factor <= 5.0 && c->charge_run_up_m >= 0.0 && c->charge_run_up_m <= 2000.0 &&
	      c->charge_walk_mps >= 0.0 && c->charge_full_mps > c->charge_walk_mps && c->charge_full_mps <= 30.0 &&
	      c->charge_memory_s > 0.0 && c->charge_memory_s <= 60.0 && c->charge_hit_prob >= 0.0 && c->charge_hit_prob <= 1.0 &&
	      c->charge_morale_shock >= 0.0 && c->charge_morale_shock <= 1.0 &&
	      c->charge_shock_radius_m >= 0.0 && c->charge_shock_radius_m <= 100.0 && c->charge_formed_factor >= 0.0 && c->charge_formed_factor <= 1.0))
		return rt__fail(err, RT_ERR_INVALID, "combat charge parameters out of range (docs/model.md section 8 gives each range)");
	if (!(c->withdraw_face_m >= 0.0 && c->withdraw_face_m <= 1000.0))
		return rt__fail(err, RT_ERR_INVALID, "combat: withdraw_face_m %g out of range 0..1000 m", c->withdraw_face_m);
	const rt_morale_params *m = &d->morale;
	for (int e = 0; e < RT_EXPERIENCE_COUNT; ++e)
		if (!(m->baseline[e] >= 0.0 && m->baseline[e] <= 1.0 && m->sensitivity[e] >= 0.0 && m->sensitivity[e] <= 100.0))
			return rt__fail(err, RT_ERR_INVALID, "morale.baseline must be 0..1 and morale.sensitivity 0..100");
	if (!(m->baseline_spread >= 0.0 && m->baseline_spread <= 0.5 && m->recovery_time_s > 0.0 && m->recovery_time_s <= 1e6 &&
	      m->view_radius_m > 0.0 && m->view_radius_m <= 1000.0 && m->threat_rate_per_s >= 0.0 && m->threat_rate_per_s <= 10.0 &&
	      m->horse_threat_weight >= 0.0 && m->horse_threat_weight <= 100.0 && m->contagion_rate_per_s >= 0.0 &&
	      m->contagion_rate_per_s <= 10.0 && m->death_shock >= 0.0 && m->death_shock <= 1.0 && m->death_memory_s > 0.0 &&
	      m->death_memory_s <= 3600.0 && m->rout_threshold >= 0.0 && m->rout_threshold < m->rally_threshold &&
	      m->rally_threshold <= 1.0 && m->rally_enemy_distance_m >= 0.0 && m->flight_speed_factor >= 1.0 &&
	      m->flight_speed_factor <= 5.0 && m->drop_armour_prob >= 0.0 && m->drop_armour_prob <= 1.0 &&
	      m->drop_weapon_prob >= 0.0 && m->drop_weapon_prob <= 1.0 && m->kneel_distance_m >= 0.0 &&
	      m->kneel_distance_m <= 100.0 && m->kneel_rate_per_s >= 0.0 && m->kneel_rate_per_s <= 100.0 &&
	      m->capture_distance_m >= 0.0 && m->capture_distance_m <= 100.0 && m->hunger_baseline_loss >= 0.0 &&
	      m->hunger_baseline_loss <= 1.0 && m->darkness_loss_factor >= 0.0 && m->darkness_loss_factor <= 10.0 &&
	      m->rear_threat_factor >= 0.0 && m->rear_threat_factor <= 10.0 && m->dark_kneel_factor >= 0.0 &&
	      m->dark_kneel_factor <= 1.0 && m->leader_reach_m >= 0.0 && m->leader_reach_m <= 1e6 &&
	      m->leaderless_baseline_loss >= 0.0 && m->leaderless_baseline_loss <= 1.0 && m->barred_range_m >= 0.0 &&
	      m->barred_range_m <= 20000.0 && m->barred_cell_m >= 1.0 && m->barred_cell_m <= 1000.0 && m->barred_men > 0.0 &&
	      m->barred_men <= 1e6 && m->halted_ahead_radii >= 0.0 && m->halted_ahead_radii <= 100.0 &&
	      m->flight_pace_spread >= 0.0 && m->flight_pace_spread <= 0.3 && m->fire_fear_rate_per_s >= 0.0 &&
	      m->fire_fear_rate_per_s <= 10.0 && m->fire_sight_m >= 0.0 && m->fire_sight_m <= 5000.0 &&
	      m->fire_path_deg >= 0.0 && m->fire_path_deg <= 90.0))
		return rt__fail(err, RT_ERR_INVALID, "morale parameters out of range (docs/model.md section 9 gives each range)");
	for (int k = 0; k < RT_KIND_COUNT; ++k) {
		const rt_kind_params *kp = &d->kinds[k];
		if (!(kp->radius_m > 0.0 && kp->radius_m <= 2.0 && kp->free_speed_mps >= 0.0 && kp->free_speed_mps <= 20.0 &&
		      kp->melee_reach_m >= 0.0 && kp->melee_reach_m <= 10.0 && kp->melee_rate_per_s >= 0.0 &&
		      kp->melee_rate_per_s <= 10.0 && kp->melee_hit_prob >= 0.0 && kp->melee_hit_prob <= 1.0 &&
		      kp->missile_range_m >= 0.0 && kp->missile_range_m <= 5000.0 && kp->missile_rate_per_s >= 0.0 &&
		      kp->missile_rate_per_s <= 10.0 && kp->missile_hit_prob >= 0.0 && kp->missile_hit_prob <= 1.0 &&
		      kp->ammunition >= 0 && kp->ammunition <= 100000))
			return rt__fail(err, RT_ERR_INVALID,
					"kinds[%s]: radius 0..2 m, speed 0..20 m/s, reach 0..10 m, rates 0..10 /s, probabilities 0..1, missile range 0..5000 m, ammunition 0..100000",
					rt_kind_name((rt_kind)k));
	}
	const rt_command_params *cp = &d->command;
	if (!(cp->decision_interval_s >= d->dt_s && cp->decision_interval_s <= 86400.0 && cp->base_hazard_per_h >= 0.0 &&
	      cp->base_hazard_per_h <= 1000.0 && isfinite(cp->courage_weight) && isfinite(cp->pressure_weight) &&
	      isfinite(cp->hunger_weight) && isfinite(cp->cut_off_weight) && isfinite(cp->peer_weight) &&
	      cp->watch_m >= 0.0 && cp->watch_m <= 1e5 && cp->leave_morale_shock >= 0.0 && cp->leave_morale_shock <= 1.0))
		return rt__fail(err, RT_ERR_INVALID, "command parameters out of range (docs/model.md section 10)");
	if (!(cp->guard_distance_m >= 0.0 && cp->guard_distance_m <= 100.0 && cp->guard_engage_m >= 0.0 && cp->guard_engage_m <= 1000.0 &&
	      cp->guard_follow_s > 0.0 && cp->guard_follow_s <= 60.0 && cp->guard_loss_factor >= 0.0 && cp->guard_loss_factor <= 1.0 &&
	      cp->wound_share >= 0.0 && cp->wound_share <= 1.0 && cp->wounded_speed_factor >= 0.0 && cp->wounded_speed_factor <= 1.0 &&
	      cp->carry_speed_factor > 0.0 && cp->carry_speed_factor <= 1.0 && cp->carry_pickup_m >= 0.0 && cp->carry_pickup_m <= 100.0 &&
	      cp->carry_touch_m >= 0.0 && cp->carry_touch_m <= cp->carry_pickup_m &&
	      cp->rearguard_cover_m >= 0.0 && cp->rearguard_cover_m <= 20000.0 && cp->column_lead_m >= 0.0 &&
	      cp->column_lead_m <= 20000.0))
		return rt__fail(err, RT_ERR_INVALID, "command guard and carrying parameters out of range (docs/model.md section 10b)");
	if (!(cp->hearing_m >= 0.0 && cp->hearing_m <= 20000.0))
		return rt__fail(err, RT_ERR_INVALID, "command hearing_m %g out of range: 0..20000 m (docs/model.md section 10, pursuit by doctrine)", cp->hearing_m);
	if (!(cp->besiege_m >= 0.0 && cp->besiege_m <= 20000.0))
		return rt__fail(err, RT_ERR_INVALID, "command besiege_m %g out of range: 0..20000 m (docs/model.md section 10, the siege)", cp->besiege_m);
	if (!(cp->pursuit_pace_factor >= 1.0 && cp->pursuit_pace_factor <= 5.0))
		return rt__fail(err, RT_ERR_INVALID,
				"command pursuit_pace_factor %g out of range: 1..5 x free speed (docs/model.md section 10, pursuit by doctrine)",
				cp->pursuit_pace_factor);
	if (!(cp->hesitation_s_per_bit >= 0.0 && cp->hesitation_s_per_bit <= 86400.0))
		return rt__fail(err, RT_ERR_INVALID,
				"command hesitation_s_per_bit %g out of range: 0..86400 s (docs/model.md section 10, pursuit by doctrine)",
				cp->hesitation_s_per_bit);
	if (!(cp->route_cell_m >= 1.0 && cp->route_cell_m <= 10000.0 && cp->route_share >= 1.0 / RT_MAX_ROUTES && cp->route_share <= 1.0))
		return rt__fail(err, RT_ERR_INVALID,
				"command route_cell_m %g or route_share %g out of range: 1..10000 m and %g..1 (docs/model.md section 10, the flight splits)",
				cp->route_cell_m, cp->route_share, 1.0 / RT_MAX_ROUTES);
	if (!(cp->route_men >= 0.0 && cp->route_men <= 1e9))
		return rt__fail(err, RT_ERR_INVALID, "command route_men %g out of range: 0..1e9 men (docs/model.md section 10, the flight splits)",
				cp->route_men);
	if (!(cp->summons_hold_tolerance >= 0.0 && cp->summons_hold_tolerance <= 1.0 && cp->summons_morale >= 0.0 &&
	      cp->summons_morale <= 1.0 && cp->summons_rate_per_h >= 0.0 && cp->summons_rate_per_h <= 1000.0 &&
	      isfinite(cp->summons_hunger_weight) && isfinite(cp->summons_time_weight_per_h) && isfinite(cp->summons_gone_weight) &&
	      cp->summons_desperate_factor >= 0.0 && cp->summons_desperate_factor <= 1.0))
		return rt__fail(err, RT_ERR_INVALID, "command summons parameters out of range (docs/model.md section 10c)");
	const rt_crush_params *cr = &d->crush;
	if (!(cr->density_radius_m > 0.0 && cr->density_radius_m <= 5.0 && cr->held_speed_share >= 0.0 &&
	      cr->held_speed_share <= 1.0 && cr->density_onset_per_m2 > 0.0 &&
	      cr->density_critical_per_m2 > cr->density_onset_per_m2 && cr->density_critical_per_m2 <= 100.0 &&
	      cr->pressure_critical_per_s2 > 0.0 && cr->pressure_critical_per_s2 <= 100.0 && cr->fall_rate_per_s >= 0.0 &&
	      cr->fall_rate_per_s <= 100.0 && cr->fatigue_fall_factor >= 0.0 && cr->fatigue_fall_factor <= 100.0 &&
	      cr->darkness_fall_factor >= 0.0 && cr->darkness_fall_factor <= 100.0 && cr->mud_fall_factor >= 0.0 &&
	      cr->mud_fall_factor <= 100.0 && cr->trample_rate_per_s >= 0.0 && cr->trample_rate_per_s <= 100.0 &&
	      cr->pile_rate_per_s >= 0.0 && cr->pile_rate_per_s <= 100.0 && cr->push_max_factor >= 0.0 && cr->push_max_factor <= 1000.0 && cr->rider_mass_factor >= 0.0 &&
	      cr->rider_mass_factor <= 100.0 && cr->walk_speed_mps > 0.0 && cr->walk_speed_mps <= 20.0 &&
	      cr->rise_rate_per_s >= 0.0 && cr->rise_rate_per_s <= 100.0))
		return rt__fail(err, RT_ERR_INVALID, "crush parameters out of range (docs/model.md section 13 gives each range; "
				"density_critical_per_m2 must exceed density_onset_per_m2)");
	const rt_stamina_params *sp = &d->stamina;
	if (!(sp->sustained_speed_mps > 0.0 && sp->reference_speed_mps > sp->sustained_speed_mps &&
	      sp->reference_speed_mps <= 20.0 && sp->tire_time_s > 0.0 && sp->tire_time_s <= 1e7 && sp->rest_time_s > 0.0 &&
	      sp->rest_time_s <= 1e7 && sp->speed_loss >= 0.0 && sp->speed_loss < 1.0 && sp->foot_sustained_speed_mps > 0.0 &&
	      sp->foot_reference_speed_mps > sp->foot_sustained_speed_mps && sp->foot_reference_speed_mps <= 20.0 &&
	      sp->foot_tire_time_s > 0.0 && sp->foot_tire_time_s <= 1e7 && sp->foot_rest_time_s > 0.0 &&
	      sp->foot_rest_time_s <= 1e7 && sp->foot_speed_loss >= 0.0 && sp->foot_speed_loss < 1.0))
		return rt__fail(err, RT_ERR_INVALID, "stamina parameters out of range: 0 < sustained_speed_mps < reference_speed_mps "
				"<= 20 m/s, tire_time_s and rest_time_s in (0, 1e7] s, speed_loss in [0, 1), and the same for the "
				"foot_ paces (docs/model.md section 15)");
	const rt_torch_params *tp = &d->torch;
	if (!(tp->threat_weight >= 0.0 && tp->threat_weight <= 1000.0 && tp->ahead_half_angle_deg >= 0.0 &&
	      tp->ahead_half_angle_deg <= 180.0 && tp->receding_speed_mps >= 0.0 && tp->receding_speed_mps <= 20.0 &&
	      tp->max_lights >= 1.0 && tp->max_lights <= 1e6 && tp->max_lights == floor(tp->max_lights)))
		return rt__fail(err, RT_ERR_INVALID, "torch parameters out of range: threat_weight 0..1000 men, ahead_half_angle_deg "
				"0..180, receding_speed_mps 0..20, max_lights a whole number 1..1e6 (docs/model.md section 15)");
	if (!d->allocator.alloc || !d->allocator.free)
		return rt__fail(err, RT_ERR_INVALID, "allocator needs both alloc and free");
	return RT_OK;
}

static void agents_free(rt_world *w)
{
	rt_agents *a = &w->agents;
	size_t cap = (size_t)a->capacity;
#define X(name, type) rt__free(&w->allocator, a->name, cap * sizeof(type)); a->name = NULL;
	AGENT_FIELDS(X)
#undef X
	rt__free(&w->allocator, w->slot_of_id, cap * sizeof(uint32_t));
	w->slot_of_id = NULL;
	a->capacity = 0;
}

/* Grows every agent array to `capacity`. All or nothing: on failure nothing changed. */
rt_status rt__agents_reserve(rt_world *w, int capacity)
{
	rt_agents *a = &w->agents;
	if (capacity <= a->capacity) return RT_OK;
	size_t old = (size_t)a->capacity, cap = (size_t)capacity;
	rt_agents fresh = *a;
	uint32_t *slot_of_id = NULL;
	bool ok = true;
#define X(name, type) fresh.name = NULL;
	AGENT_FIELDS(X)
#undef X
#define X(name, type) if (ok) { fresh.name = rt__alloc(&w->allocator, cap * sizeof(type)); ok = fresh.name != NULL; }
	AGENT_FIELDS(X)
#undef X
	if (ok) {
		slot_of_id = rt__alloc(&w->allocator, cap * sizeof(uint32_t));
		ok = slot_of_id != NULL;
	}
	if (ok && rt__grid_reserve(w, capacity) != RT_OK) ok = false;
	if (!ok) {
#define X(name, type) rt__free(&w->allocator, fresh.name, cap * sizeof(type));
		AGENT_FIELDS(X)
#undef X
		rt__free(&w->allocator, slot_of_id, cap * sizeof(uint32_t));
		return RT_ERR_NOMEM;
	}
#define X(name, type) if (old) memcpy(fresh.name, a->name, old * sizeof(type)); \
	rt__free(&w->allocator, a->name, old * sizeof(type));
	AGENT_FIELDS(X)
#undef X
	if (old) memcpy(slot_of_id, w->slot_of_id, old * sizeof(uint32_t));
	rt__free(&w->allocator, w->slot_of_id, old * sizeof(uint32_t));
	fresh.capacity = capacity;
	*a = fresh;
	w->slot_of_id = slot_of_id;
	return RT_OK;
}

rt_world *rt_world_create(const rt_world_def *def, rt_error *err)
{
	rt__error_clear(err);
	if (!def) {
		rt__fail(err, RT_ERR_INVALID, "no world definition");
		return NULL;
	}
	if (validate_def(def, err) != RT_OK) return NULL;
	rt_world *w = rt__calloc(&def->allocator, 1, sizeof *w);
	if (!w) {
		rt__fail(err, RT_ERR_NOMEM, "cannot allocate the world");
		return NULL;
	}
	w->def = *def;
	w->allocator = def->allocator;
	w->cookie = RT_COOKIE;
	w->max_radius = 0.2;
	w->max_speed = 1.34;
	w->sense_idle_count = -1;
	w->water = rt_water_params_default();
	w->flight = rt_flight_params_default();
#ifdef _OPENMP
	w->threads = def->threads > 0 ? def->threads : omp_get_num_procs();
#else
	w->threads = 1;
#endif
	if (rt__grid_init(w, err) != RT_OK) goto error;
	if (rt__agents_reserve(w, def->agent_capacity > 0 ? def->agent_capacity : 64) != RT_OK) {
		rt__fail(err, RT_ERR_NOMEM, "cannot allocate storage for %d agents", def->agent_capacity);
		goto error;
	}
	return w;
error:
	rt_world_destroy(w);
	return NULL;
}

void rt_world_destroy(rt_world *w)
{
	if (!w) return;
	rt_allocator a = w->allocator;
	agents_free(w);
	rt__grid_free(w);
	rt__sense_free(w);
	rt__env_free(w);
	rt__terrain_free(w);
	rt__flight_free(w);
	rt__barred_free(w);
	rt__held_free(w);
	rt__geometry_free(w);
	for (int i = 0; i < w->goal_count; ++i) rt__goal_free(w, &w->goals[i]);
	rt__free(&a, w->goals, (size_t)w->goal_capacity * sizeof(rt_goal));
	rt__free(&a, w->corps, (size_t)w->corps_capacity * sizeof(rt_corps));
	rt__arena_release(&w->arena, &a);
	rt__free(&a, w, sizeof *w);
}

rt_status rt_world_add_goal(rt_world *w, const rt_goal_def *def, rt_goal_id *out, rt_error *err)
{
	rt__error_clear(err);
	if (!w || !def || def->cookie != RT_COOKIE)
		return rt__fail(err, RT_ERR_INVALID, "goal definition was not made by rt_goal_def_default()");
	if (!(def->target_max.x > def->target_min.x && def->target_max.y > def->target_min.y) ||
	    !isfinite(def->target_min.x + def->target_min.y + def->target_max.x + def->target_max.y))
		return rt__fail(err, RT_ERR_INVALID, "goal target must be a finite rectangle with max > min");
	if (def->field_cell_m < 0.0 || def->field_cell_m > 50.0 || !isfinite(def->field_cell_m))
		return rt__fail(err, RT_ERR_INVALID, "goal field_cell_m is %g; expected 0 (default) to 50 m", def->field_cell_m);
	if (w->goal_count == w->goal_capacity) {
		int cap = w->goal_capacity ? 2 * w->goal_capacity : 4;
		rt_goal *g = rt__realloc(&w->allocator, w->goals, (size_t)w->goal_capacity * sizeof(rt_goal),
					 (size_t)cap * sizeof(rt_goal));
		if (!g) return rt__fail(err, RT_ERR_NOMEM, "cannot grow the goal table");
		w->goals = g;
		w->goal_capacity = cap;
	}
	rt_goal *goal = &w->goals[w->goal_count];
	memset(goal, 0, sizeof *goal);
	goal->def = *def;
	rt_status s = rt__goal_build(w, goal, err);
	if (s != RT_OK) {
		rt__goal_free(w, goal);
		return s;
	}
	if (out) *out = (rt_goal_id)w->goal_count;
	w->goal_count++;
	return RT_OK;
}

rt_status rt_world_add_agent(rt_world *w, const rt_agent_def *d, rt_agent_id *out, rt_error *err)
{
	rt__error_clear(err);
	if (!w || !d || d->cookie != RT_COOKIE)
		return rt__fail(err, RT_ERR_INVALID, "agent definition was not made by rt_agent_def_default()");
	if ((unsigned)d->kind >= RT_KIND_COUNT) return rt__fail(err, RT_ERR_INVALID, "agent kind %d is unknown", (int)d->kind);
	if ((unsigned)d->state >= RT_STATE_COUNT) return rt__fail(err, RT_ERR_INVALID, "agent state %d is unknown", (int)d->state);
	if (!isfinite(d->position.x) || !isfinite(d->position.y) || d->position.x < w->def.bounds_min.x ||
	    d->position.y < w->def.bounds_min.y || d->position.x > w->def.bounds_max.x || d->position.y > w->def.bounds_max.y)
		return rt__fail(err, RT_ERR_INVALID, "agent position (%g, %g) is outside the world bounds", d->position.x, d->position.y);
	if (d->goal != RT_NO_GOAL && (d->goal < 0 || d->goal >= w->goal_count))
		return rt__fail(err, RT_ERR_INVALID, "agent goal %d does not exist", (int)d->goal);
	const rt_kind_params kp = w->def.kinds[d->kind];
	/* he rides if his kind does or his definition says so; a mounted man of a kind that
	 * does not ride has by default a horse's body and pace */
	const bool rides = rt__rider((uint8_t)d->kind) || d->mounted;
	const rt_kind_params *body = &w->def.kinds[rt__body_kind((uint8_t)d->kind, rides)];
	double radius = d->radius_m > 0.0 ? d->radius_m : body->radius_m;
	double speed = d->free_speed_mps > 0.0 ? d->free_speed_mps : body->free_speed_mps;
	if (!(radius <= 20.0) || !(speed <= 20.0) || d->radius_m < 0.0 || d->free_speed_mps < 0.0)
		return rt__fail(err, RT_ERR_INVALID, "agent radius %g m or free speed %g m/s out of range (0..20 m, 0..20 m/s)", radius, speed);
	if (!isfinite(d->velocity.x) || !isfinite(d->velocity.y) || !isfinite(d->heading.x) || !isfinite(d->heading.y))
		return rt__fail(err, RT_ERR_INVALID, "agent velocity and heading must be finite");
	if ((unsigned)d->experience >= RT_EXPERIENCE_COUNT) return rt__fail(err, RT_ERR_INVALID, "agent experience %d is unknown", (int)d->experience);
	if (d->flee_goal != RT_NO_GOAL && (d->flee_goal < 0 || d->flee_goal >= w->goal_count))
		return rt__fail(err, RT_ERR_INVALID, "agent flee_goal %d does not exist", (int)d->flee_goal);
	if (d->corps < -1 || d->corps >= w->corps_count) return rt__fail(err, RT_ERR_INVALID, "agent corps %d does not exist", (int)d->corps);
	if (d->corps >= 0 && w->corps[d->corps].def.side != d->side)
		return rt__fail(err, RT_ERR_INVALID, "agent of side %d cannot serve in corps %d of side %d", d->side, (int)d->corps,
				w->corps[d->corps].def.side);
	if (d->side >= RT_MAX_SIDES) return rt__fail(err, RT_ERR_INVALID, "agent side %d; sides are 0..%d", d->side, RT_MAX_SIDES - 1);
	if ((unsigned)d->stance > RT_STANCE_HUNT) return rt__fail(err, RT_ERR_INVALID, "agent stance %d is unknown", (int)d->stance);
	if (d->stance == RT_STANCE_HUNT)
		return rt__fail(err, RT_ERR_INVALID, "agent stance hunt needs the man he hunts: give it with rt_world_set_agent_hunt");
	if (d->keeps_ground && d->stance != RT_STANCE_CONTAIN)
		return rt__fail(err, RT_ERR_INVALID, "agent keeps_ground is for stance contain; his stance is %d", (int)d->stance);
	if (d->ammunition < -1 || d->ammunition > 100000) return rt__fail(err, RT_ERR_INVALID, "agent ammunition %d; expected -1 (default) or 0..100000", d->ammunition);
	if (!(d->health >= 0.0f && d->health <= 1.0f && d->morale >= 0.0f && d->morale <= 1.0f && d->fatigue >= 0.0f &&
	      d->fatigue <= 1.0f && d->horse_fatigue >= 0.0f && d->horse_fatigue <= 1.0f))
		return rt__fail(err, RT_ERR_INVALID, "agent health, morale, fatigue and horse_fatigue must be within 0..1");
	if (d->horse_fatigue != 0.0f && !rides)
		return rt__fail(err, RT_ERR_INVALID, "agent of kind %s has no horse (mounted is false): horse_fatigue must be 0",
				rt_kind_name(d->kind));
	rt_agents *a = &w->agents;
	if (a->count >= RT_MAX_AGENTS) return rt__fail(err, RT_ERR_CAPACITY, "more than %d agents", RT_MAX_AGENTS);
	if (a->count == a->capacity) {
		int cap = a->capacity < RT_MAX_AGENTS / 2 ? 2 * a->capacity : RT_MAX_AGENTS;
		if (rt__agents_reserve(w, cap) != RT_OK)
			return rt__fail(err, RT_ERR_NOMEM, "cannot grow agent storage to %d", cap);
	}
	int slot = a->count++;
	uint32_t id = (uint32_t)slot; /* ids are dense: the n-th agent added has id n */
	a->x[slot] = d->position.x;
	a->y[slot] = d->position.y;
	a->vx[slot] = d->velocity.x;
	a->vy[slot] = d->velocity.y;
	double hn = hypot(d->heading.x, d->heading.y);
	a->heading_x[slot] = hn > 0.0 ? (float)(d->heading.x / hn) : 0.0f;
	a->heading_y[slot] = hn > 0.0 ? (float)(d->heading.y / hn) : 0.0f;
	a->radius[slot] = (float)radius;
	a->free_speed[slot] = (float)speed;
	a->health[slot] = d->health;
	a->morale[slot] = d->morale;
	a->fatigue[slot] = d->fatigue;
	a->horse_fatigue[slot] = d->horse_fatigue;
	a->id[slot] = id;
	a->unit[slot] = d->unit;
	a->goal[slot] = d->goal;
	a->side[slot] = d->side;
	a->kind[slot] = (uint8_t)d->kind;
	a->state[slot] = (uint8_t)d->state;
	a->equipment[slot] = d->equipment;
	a->level[slot] = 0;
	a->stance[slot] = (uint8_t)d->stance;
	a->ammunition[slot] = d->ammunition >= 0 ? d->ammunition
				: ((d->equipment & RT_EQUIP_CANNON) ? (int32_t)w->def.combat.cannon_rounds : kp.ammunition);
	a->enemy[slot] = -1;
	a->enemy_dist[slot] = INFINITY;
	a->victim[slot] = -1;
	a->experience[slot] = (uint8_t)d->experience;
	{
		/* each man's own steadiness: his experience's baseline, spread a little */
		const rt_morale_params *m = &w->def.morale;
		double u = rt_random_uniform(w->def.seed, id, 0, RT_STREAM_SPAWN) * 2.0 - 1.0;
		a->morale_base[slot] = (float)rt__clamp(m->baseline[d->experience] + m->baseline_spread * u, 0.0, 1.0);
	}
	a->flee_goal[slot] = d->flee_goal;
	a->threat[slot] = 0.0f;
	a->routing_share[slot] = 0.0f;
	a->deaths_seen[slot] = 0.0f;
	a->corps[slot] = d->corps;
	a->prize[slot] = -1;
	a->quarry[slot] = -1;
	a->impetus[slot] = 0.0f;
	a->reload[slot] = 0.0f; /* a gun comes loaded */
	a->crush[slot] = 0;
	a->alarm[slot] = -1;
	a->mount[slot] = rides;
	a->keep[slot] = d->keeps_ground;
	a->order_goal[slot] = d->goal;
	a->order_stance[slot] = (uint8_t)d->stance;
	a->posted[slot] = 0;
	a->post_x[slot] = a->post_y[slot] = 0.0f;
	w->horse_count += rides;
	w->slot_of_id[id] = (uint32_t)slot;
	w->riders += rides;
	w->guns += (d->equipment & RT_EQUIP_CANNON) != 0;
	if (radius > w->max_radius) w->max_radius = radius;
	if (speed > w->max_speed) w->max_speed = speed;
	if (out) *out = id;
	return RT_OK;
}

/* Permutes agent storage into grid order so neighbours sit near each other in memory.
 * Uses the order of the last grid build; inactive agents go to the end in slot order. */
static rt_status reorder_storage(rt_world *w)
{
	rt_agents *a = &w->agents;
	rt_grid *g = &w->grid;
	const int n = a->count;
	if (n <= 0) return RT_OK;
	const size_t bytes_n = (size_t)(unsigned)n;
	int *perm = rt__arena_push(&w->arena, bytes_n * sizeof(int));
	void *tmp = rt__arena_push(&w->arena, bytes_n * sizeof(double));
	if (!perm || !tmp) return RT_ERR_NOMEM;
	int k = 0;
	for (int i = 0; i < g->count; ++i) perm[k++] = g->order[i];
	for (int s = 0; s < n; ++s)
		if (g->bucket_of[s] < 0) perm[k++] = s;
	RT_ASSERT(k == n);
	/* field by field through one scratch array; the threads share each copy */
#define X(name, type) { type *t = tmp; \
		_Pragma("omp for schedule(static)") for (int i = 0; i < n; ++i) t[i] = a->name[perm[i]]; \
		_Pragma("omp for schedule(static)") for (int i = 0; i < n; ++i) a->name[i] = t[i]; }
	RT_PARALLEL_REGION(RT_PARALLEL(n), (num_threads(w->threads)),
	{
		AGENT_FIELDS(X)
		_Pragma("omp for schedule(static)")
		for (int s = 0; s < n; ++s) w->slot_of_id[a->id[s]] = (uint32_t)s;
	});
#undef X
	rt__grid_build(w); /* slots moved: bin again (the order is now the identity) */
	return RT_OK;
}

static rt_status reserve_scratch(rt_world *w, rt_error *err)
{
	/* per man, the most one step can ask: storage reorder (int + double), the sense
	 * buckets (int), sight in smoke (float) and a pursuit's scratch (40 bytes: the rankings of its men
	 * and of the fleeing it sends them after, 16 bytes each, and lists of ints of its men
	 * sent, on the ring and free, of the fleeing and of every slot; a corps' men and the
	 * fleeing are at most all the men, and each corps' scratch is given back after its
	 * round, command.c; the count of the flight's routes before it, Q8, takes 32 bytes a
	 * man in flight and gives them back); plus the
	 * corps tables (the command phase's threat, centres, boxes of steady men and peers gone — an int a
	 * corps and an open-addressed table of its peer groups, under 4 entries of 12 bytes a corps and at
	 * least 16 —, each marching general's nearest man and slot, and the banner's passing: 16 doubles and 3 ints a corps
	 * besides the table), and the decide phase's neighbour buffers, one per thread; the lights in
	 * the dark (torch.c: 24 bytes a light, and 64 cells of 16 bytes), the crush's
	 * outcomes (a byte), the morale phase's note of who was routing (a byte) and of where
	 * each corps' commander stands (three doubles a corps) and the
	 * velocities before the decide phase (two doubles) and who stood in flight (a byte); and the summons' pockets (summons.c) */
	size_t need = (size_t)w->agents.capacity * (2 * sizeof(int) + sizeof(double) + sizeof(float) + 40 + 24 + 1 + 1 + 2 * sizeof(double) + 1) +
		      (size_t)w->corps_count * (16 * sizeof(double) + 3 * sizeof(int) + 4 * (sizeof(uint64_t) + sizeof(int))) +
		      16 * (sizeof(uint64_t) + sizeof(int)) + 3 * 64 + (size_t)w->threads * sizeof(rt_nb_batch) + 4096 + 64 * 16 + 4 * 64 +
		      rt__summons_scratch(w);
	if (w->arena.capacity >= need) return RT_OK;
	if (rt__arena_reserve(&w->arena, &w->allocator, need + need / 2) != RT_OK)
		return rt__fail(err, RT_ERR_NOMEM, "cannot reserve %zu bytes of step scratch", need);
	return RT_OK;
}

rt_status rt_world_step(rt_world *w, rt_error *err)
{
	rt__error_clear(err);
	if (!w || w->cookie != RT_COOKIE) return rt__fail(err, RT_ERR_INVALID, "not a world");
	rt_status s;
	if (!w->geometry.built && (s = rt__geometry_build(w, err)) != RT_OK) return s;
	if ((s = reserve_scratch(w, err)) != RT_OK) return s;
	rt__arena_reset(&w->arena);
	double t0 = rt__now_seconds(), t1;

	/* 1 env: clock, sky, light and sight, sea level, weather, fire and smoke */
	w->time_s = (double)(w->step + 1) * w->def.dt_s;
	if ((s = rt__env_phase(w, err)) != RT_OK) return s;
	t1 = rt__now_seconds(); w->phase_seconds[RT_PHASE_ENV] += t1 - t0; t0 = t1;

	/* 2 grid */
	if ((s = rt__grid_fit(w, err)) != RT_OK) return s;
	rt__grid_build(w);
	if (w->def.reorder_every_steps > 0 && w->step % w->def.reorder_every_steps == 0) {
		if (reorder_storage(w) != RT_OK) return rt__fail(err, RT_ERR_NOMEM, "step scratch exhausted");
	}
	t1 = rt__now_seconds(); w->phase_seconds[RT_PHASE_GRID] += t1 - t0; t0 = t1;

	/* 3 sense: the nearest enemy of every man who decides this step */
	if ((s = rt__sense(w, err)) != RT_OK) return s;
	t1 = rt__now_seconds(); w->phase_seconds[RT_PHASE_SENSE] += t1 - t0; t0 = t1;

	/* 4 command: commanders weigh leaving; their corps follow */
	rt__command(w);
	t1 = rt__now_seconds(); w->phase_seconds[RT_PHASE_COMMAND] += t1 - t0; t0 = t1;

	/* 5 morale */
	rt__morale(w);
	t1 = rt__now_seconds(); w->phase_seconds[RT_PHASE_MORALE] += t1 - t0; t0 = t1;

	/* 6 decide: desired direction and speed (collision-free speed model), after the
	 * flight fields that are due are built */
	if ((s = rt__flight_phase(w, err)) != RT_OK) return s;
	if ((s = rt__water_prepare(w, err)) != RT_OK) return s;
	if ((s = rt__barred_prepare(w, err)) != RT_OK) return s;
	if ((s = rt__held_prepare(w, err)) != RT_OK) return s;
	rt__locomotion_decide(w);
	t1 = rt__now_seconds(); w->phase_seconds[RT_PHASE_DECIDE] += t1 - t0; t0 = t1;

	/* 7 move (then forts take in whom they can) */
	if ((s = rt__forts_prepare(w, err)) != RT_OK) return s;
	rt__locomotion_move(w);
	rt__forts_admit(w);
	rt__refuges_arrive(w); /* a way home reached */
	rt__boats_board(w);    /* E7 */
	rt__stamina(w); /* C4: horses tire with the pace they went */
	t1 = rt__now_seconds(); w->phase_seconds[RT_PHASE_MOVE] += t1 - t0; t0 = t1;

	/* 8 fight: each man chooses his blow or shot, written in his own slot */
	rt__fight(w);
	t1 = rt__now_seconds(); w->phase_seconds[RT_PHASE_FIGHT] += t1 - t0; t0 = t1;

	/* 9 resolve: damage gathered per victim in a fixed order, deaths */
	if ((s = rt__resolve(w, err)) != RT_OK) return s;
	rt__drown(w); /* E3: men in water over their depth */
	rt__fire_burn(w); /* E4: men in the flames of a head fire */
	if ((s = rt__crush(w, err)) != RT_OK) return s; /* C2: men knocked down and trampled in the crush */
	t1 = rt__now_seconds(); w->phase_seconds[RT_PHASE_RESOLVE] += t1 - t0; t0 = t1;

	/* 10 record: the caller pulls results after the step (trace, stats) */
	w->step++;
	return RT_OK;
}

int rt_world_agent_count(const rt_world *w) { return w ? w->agents.count : 0; }

bool rt_world_get_agent(const rt_world *w, rt_agent_id id, rt_agent_view *o)
{
	if (!w || id >= (uint32_t)w->agents.count) return false;
	const rt_agents *a = &w->agents;
	int s = (int)w->slot_of_id[id];
	o->id = id;
	o->position = (rt_vec2){ a->x[s], a->y[s] };
	o->velocity = (rt_vec2){ a->vx[s], a->vy[s] };
	o->kind = (rt_kind)a->kind[s];
	o->state = (rt_state)a->state[s];
	o->side = a->side[s];
	o->unit = a->unit[s];
	o->goal = a->goal[s];
	o->radius_m = a->radius[s];
	o->free_speed_mps = a->free_speed[s];
	o->health = a->health[s];
	o->morale = a->morale[s];
	o->fatigue = a->fatigue[s];
	o->horse_fatigue = a->horse_fatigue[s];
	o->equipment = a->equipment[s];
	o->period_level = a->level[s];
	o->stance = (rt_stance)a->stance[s];
	o->ammunition = a->ammunition[s];
	o->enemy = a->enemy[s];
	o->enemy_distance_m = a->enemy_dist[s];
	o->experience = (rt_experience)a->experience[s];
	o->morale_baseline = a->morale_base[s];
	o->threat = a->threat[s];
	o->routing_share = a->routing_share[s];
	o->fallen = (a->crush[s] & RT_CRUSH_DOWN) != 0;
	o->alarm = a->alarm[s];
	o->mounted = a->mount[s] != 0;
	o->keeps_ground = a->stance[s] == RT_STANCE_CONTAIN && a->keep[s];
	o->posted = a->posted[s] != 0;
	o->post = a->posted[s] ? (rt_vec2){ a->post_x[s], a->post_y[s] } : (rt_vec2){ 0.0, 0.0 };
	o->quarry = a->quarry[s];
	return true;
}

rt_status rt_world_set_agent_goal(rt_world *w, rt_agent_id id, rt_goal_id goal, rt_error *err)
{
	rt__error_clear(err);
	if (!w || id >= (uint32_t)w->agents.count) return rt__fail(err, RT_ERR_INVALID, "agent %u does not exist", id);
	if (goal != RT_NO_GOAL && (goal < 0 || goal >= w->goal_count))
		return rt__fail(err, RT_ERR_INVALID, "goal %d does not exist", (int)goal);
	int s = (int)w->slot_of_id[id];
	w->agents.goal[s] = goal;
	w->agents.order_goal[s] = goal; /* his order, to which he comes back after a pursuit (Q2) */
	w->agents.posted[s] = 0;        /* a new goal, no post in it yet */
	w->agents.level[s] = 0; /* a new order is decided on at once */
	return RT_OK;
}

rt_status rt_world_set_agent_post(rt_world *w, rt_agent_id id, rt_vec2 post, rt_error *err)
{
	rt__error_clear(err);
	if (!w || id >= (uint32_t)w->agents.count) return rt__fail(err, RT_ERR_INVALID, "agent %u does not exist", id);
	const int s = (int)w->slot_of_id[id];
	const int32_t goal = w->agents.order_goal[s];
	if (goal == RT_NO_GOAL) return rt__fail(err, RT_ERR_INVALID, "agent %u has no goal to take a post in", id);
	if (!rt__goal_reached(&w->goals[goal], post.x, post.y))
		return rt__fail(err, RT_ERR_INVALID, "the post (%g, %g) of agent %u is outside his goal's target", post.x, post.y, id);
	w->agents.posted[s] = 1;
	w->agents.post_x[s] = (float)post.x;
	w->agents.post_y[s] = (float)post.y;
	w->agents.level[s] = 0;
	return RT_OK;
}

rt_status rt_world_set_agent_state(rt_world *w, rt_agent_id id, rt_state state, rt_error *err)
{
	rt__error_clear(err);
	if (!w || id >= (uint32_t)w->agents.count) return rt__fail(err, RT_ERR_INVALID, "agent %u does not exist", id);
	if ((unsigned)state >= RT_STATE_COUNT) return rt__fail(err, RT_ERR_INVALID, "state %d is unknown", (int)state);
	int s = (int)w->slot_of_id[id];
	/* a sheltered man made active leaves his fort (Q9: a sortie) */
	if (rt_state_is_active(state) && state != RT_STATE_SHELTERED) rt__fort_leave(w, s);
	w->agents.state[s] = (uint8_t)state;
	w->agents.level[s] = 0;
	if (!rt_state_is_active(state)) w->agents.vx[s] = w->agents.vy[s] = 0.0;
	return RT_OK;
}

rt_status rt_world_set_agent_hunt(rt_world *w, rt_agent_id id, rt_agent_id quarry, rt_error *err)
{
	rt__error_clear(err);
	if (!w || id >= (uint32_t)w->agents.count) return rt__fail(err, RT_ERR_INVALID, "agent %u does not exist", id);
	if (quarry >= (uint32_t)w->agents.count) return rt__fail(err, RT_ERR_INVALID, "the quarry, agent %u, does not exist", quarry);
	rt_agents *a = &w->agents;
	const int s = (int)w->slot_of_id[id], q = (int)w->slot_of_id[quarry];
	if (a->side[q] == a->side[s]) return rt__fail(err, RT_ERR_INVALID, "agent %u cannot hunt agent %u of his own side", id, quarry);
	if (!rt__at_large(a->state[q])) return rt__fail(err, RT_ERR_INVALID, "the quarry, agent %u, is not at large (state %d)", quarry, (int)a->state[q]);
	if (!rt__at_large(a->state[s]) || a->state[s] == RT_STATE_ROUTING)
		return rt__fail(err, RT_ERR_INVALID, "agent %u cannot hunt: he is not at large and steady (state %d)", id, (int)a->state[s]);
	if (rt__retinue_stance(a->stance[s])) return rt__fail(err, RT_ERR_INVALID, "agent %u keeps by his commander (a guard stance); he cannot hunt", id);
	a->stance[s] = a->order_stance[s] = RT_STANCE_HUNT;
	a->quarry[s] = (int32_t)quarry;
	rt__aim(a, s, q); /* at where the man is: out of his sight he rides that way */
	a->goal[s] = a->order_goal[s] = RT_NO_GOAL;
	a->posted[s] = 0;
	a->keep[s] = 0;
	a->level[s] = 0;
	return RT_OK;
}

void rt_world_get_stats(const rt_world *w, rt_world_stats *o)
{
	memset(o, 0, sizeof *o);
	if (!w) return;
	o->step = w->step;
	o->time_s = w->time_s;
	o->agents = w->agents.count;
	for (int s = 0; s < w->agents.count; ++s) {
		uint8_t st = w->agents.state[s];
		o->by_state[st]++;
		if (rt__active(st)) o->active++;
	}
	o->agent_updates = w->agent_updates;
	o->wall_clamps = w->wall_clamps;
	o->hits = w->hits;
	o->shots = w->shots;
	o->routed = w->routed;
	o->rallied = w->rallied;
	o->armour_dropped = w->armour_dropped;
	o->weapons_dropped = w->weapons_dropped;
	o->knelt = w->knelt;
	o->captured = w->captured;
	o->drowned = w->drowned;
	o->burned = w->burned;
	o->misfires = w->misfires;
	o->desperate = w->desperate;
	for (int i = 0; i < w->landing_count; ++i) o->boarded += w->landings[i].carried;
	o->cannon_shots = w->cannon_shots;
	o->charges = w->charges;
	o->summoned = w->summoned;
	o->wounded = w->wounded;
	o->falls = w->falls;
	o->lying = w->lying;
	o->torch_alarms = w->torch_alarms;
	memcpy(o->phase_seconds, w->phase_seconds, sizeof o->phase_seconds);
	o->threads = w->threads;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	/* FNV-1a over the 8 bytes of v */
	for (int i = 0; i < 8; ++i) {
		h ^= (v >> (8 * i)) & 0xffu;
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t bits_of(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

uint64_t rt_world_hash(const rt_world *w)
{
	uint64_t h = 0xcbf29ce484222325ull;
	if (!w) return h;
	const rt_agents *a = &w->agents;
	h = mix(h, (uint64_t)w->step);
	for (int id = 0; id < a->count; ++id) {
		int s = (int)w->slot_of_id[id];
		h = mix(h, bits_of(a->x[s]));
		h = mix(h, bits_of(a->y[s]));
		h = mix(h, bits_of(a->vx[s]));
		h = mix(h, bits_of(a->vy[s]));
		h = mix(h, ((uint64_t)a->state[s] << 8) | a->level[s]);
	}
	return h;
}

void rt_world_get_bounds(const rt_world *w, rt_vec2 *mn, rt_vec2 *mx)
{
	*mn = w->def.bounds_min;
	*mx = w->def.bounds_max;
}
