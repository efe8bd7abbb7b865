/* Checkpoints: the whole dynamic state of a world in one file, written atomically, so a
 * run stopped at any step can go on to the result it would have had (docs/checkpoint-
 * format.md gives the layout byte by byte).
 *
 * What a world holds, field by field, and what the checkpoint does with it. This table
 * is the one place to look when struct rt_world (world.h) changes: a field is SAVED
 * (its value is in the file), REBUILT (recomputed exactly from saved and static data),
 * STATIC (set up before the run by the caller, who builds the same world again before
 * loading; the fingerprint checks it is the same) or NOT STATE (does not affect what
 * happens: capacities, scratch, run settings, timings). The assertions below the table
 * break the build when the world's layout changes, until the table, the fingerprint or
 * a section is brought up to date.
 *
 *   def.seed, dt_s, max_period_level, bounds, periodic_x, cell_size_m,
 *       reorder_every_steps, locomotion, combat, morale, command, crush,
 *       stamina, torch, kinds                                          STATIC (fingerprint)
 *   def.threads, agent_capacity, allocator, cookie                     NOT STATE (run settings;
 *                                                                      the grid layout agent_capacity
 *                                                                      implies is saved, GRID)
 *   allocator, cookie, threads, arena                                  NOT STATE
 *   agents.count and every array of AGENT_FIELDS, slot_of_id           SAVED (AGNT), in slot order
 *   agents.capacity                                                    NOT STATE
 *   grid (neighbour grid)                                              REBUILT every step (phase 2)
 *                                                                      from the agents; its layout,
 *                                                                      grid.target_agents, SAVED (GRID)
 *   sense: origin, cell, nx, ny, cells, sides, start and order of the
 *       men who can be fought                                          SAVED (SENS): rt__surrounded
 *                                                                      reads them in the morale phase
 *                                                                      even when the next sense phase
 *                                                                      finds nothing to sense and keeps
 *                                                                      the last step's grid
 *   sense: the kneeling groups, box; the local picture's table
 *       (fine_*: men, routing, weight, deaths per fine cell)           REBUILT by the sense phase
 *                                                                      before they are read
 *   sense.allocated, capacity                                          NOT STATE
 *   sense.sight_max, sight_allocated                                   NOT STATE (sight in smoke per
 *                                                                      side and cell: filled by the
 *                                                                      sense phase before it is read)
 *   deaths[death_count] (deaths in mind)                               SAVED (DETH)
 *   death_capacity                                                     NOT STATE
 *   sense_idle_count, last_decision, step, time_s, max_radius,
 *       max_speed, the counters of WORLD_COUNTERS (with lying, the
 *       men down in the crush now, read by the next grid build)        SAVED (CLCK)
 *   horse_count                                                        STATIC (counted as the agents,
 *                                                                      fingerprinted with their
 *                                                                      mounts, are added)
 *   torch_on                                                           REBUILT by the sense phase
 *                                                                      before the decide phase reads it
 *   geometry: walls, points, obstacles                                 STATIC (fingerprint)
 *   geometry lookup grid (built, reach, cell, start, items)            REBUILT with the saved reach
 *                                                                      (GRID): it is laid out once,
 *                                                                      for the men there were then
 *   goals[goal_count]: def                                             STATIC (fingerprint)
 *   goals: flow fields                                                 REBUILT when the goal is added
 *                                                                      (a serial, pure function of the
 *                                                                      def, walls and map); a sample
 *                                                                      of every field is fingerprinted
 *   corps[corps_count]: def.side, superior, rank, name, courage, hunger, refuge,
 *       ranks_refuge, pursue_ratio, all_out_threshold, pursue_limited,
 *       pursue_limit                                                   STATIC (fingerprint)
 *   corps[].def.summon, quarter, known                                 STATIC (fingerprint)
 *   corps: commander, left, left_at_s, mean_threat, men, active,
 *       fleeing_seen, pursuers, def.cut_off, home_set, home_x, home_y,
 *       carrier, summons_at_s, encircled, besieging, besiegers,
 *       besieged_at_s, routes, routes_known, routes_from,
 *       routes_weighed, hesitant_until_s, hesitant_since_s             SAVED (CORP)
 *   corps: road_wanted                                                 NOT STATE (set by the command
 *                                                                      phase, cleared by the flight
 *                                                                      phase of the same step)
 *   corps: guarded, waits                                              REBUILT by the command phase
 *                                                                      (guard.c, command.c) before it
 *                                                                      is read
 *   map and its layers, map_* copies                                   STATIC (fingerprint: size,
 *                                                                      features, sampled layers)
 *   water, feature_count, fort_side, fort_capacity                     STATIC (fingerprint)
 *   fort_box                                                           STATIC (the map's forts'
 *                                                                      boxes; the map is
 *                                                                      fingerprinted)
 *   riders, guns (agents added who ride, with a gun)                   STATIC (counted by
 *                                                                      rt_world_add_agent as the world
 *                                                                      is built; the fingerprint's
 *                                                                      mounts cover the riders)
 *   fort_sheltered                                                     SAVED (FORT)
 *   prev_x, prev_y, prev_capacity                                      NOT STATE (written in the move
 *                                                                      phase before they are read)
 *   wet_level, wet_level_cells, wet_level_wade                         REBUILT (before the decide phase,
 *                                                                      from the map and water params)
 *   decide_vx, decide_vy, decide_halted                                NOT STATE (set at the start of
 *                                                                      the decide phase, step scratch;
 *                                                                      decide_halted from agents.crush)
 *   bar_* (the way-barred grid: men standing per cell and side)        REBUILT every step before the
 *                                                                      decide phase; its cell is a
 *                                                                      function of the bounds and params
 *   held, held_id, held_attacked, held_list, held_cap, held_on (the   REBUILT every step before the
 *       men holding each place attacked, per side: Q6, M5)             decide phase, from the agents
 *   has_environment, environment, surge_time_s, surge_level_m          STATIC (fingerprint)
 *   environment.weather (rain and wind series, initial wetness,
 *       params), weather_series (its copies), weather_on               STATIC (fingerprint)
 *   environment.fire (params), ignitions[ignition_count] (its sorted
 *       copy)                                                          STATIC (fingerprint)
 *   env.ground_wetness, weather_time_s                                 SAVED (WTHR): the bucket is
 *                                                                      integrated step by step
 *   env (sky, light, sea level; rain, wind, moisture, misfire and
 *       mud of the moment; the fire's counts), mud_on                  REBUILT: pure functions of
 *                                                                      time_s, the saved wetness and
 *                                                                      the saved fire (rt__env_restore)
 *   fire: params, nx, ny, cells, cell_m, inv_cell, ox, oy, k, snx,
 *       sny, smoke_cell_m                                              STATIC (from the map and the
 *                                                                      fingerprinted params)
 *   fire: state and time_s of the cells the fire has caught (burning,
 *       hot or burnt); burning[burning_count]; front[front_count];
 *       next_ignition, next_update_s, hot_count, burnt_count; smoke in
 *       its box, box, smoke_max                                        SAVED (FIRE)
 *   fire: state of the other cells (fuel or none)                      REBUILT from the map
 *                                                                      (rt__fire_reset)
 *   fire: touch, smoke_next, source, source_box                        NOT STATE (scratch of one
 *                                                                      update: empty between steps)
 *   fire: the lists' capacities                                        NOT STATE
 *   fire: sight_k, sight_nx, sight_ny, sight_m, sight_cell_m           STATIC (from the map and the
 *                                                                      fingerprinted morale params)
 *   fire: sight_x, sight_y, sight_box; edge, edge_cells, edge_count,
 *       seen_at_s, seen_update_s                                       REBUILT from the fire's state
 *                                                                      and the wind of the step, every
 *                                                                      step (rt__fire_seen_refresh;
 *                                                                      rt__fire_reset marks it stale)
 *   fire: edge_capacity                                                NOT STATE
 *   refuges[refuge_count] (def, fort), flight (parameters)             STATIC (fingerprint)
 *   refuge_capacity, landing_capacity                                  NOT STATE
 *   flights[side]: used                                                STATIC (from the refuges)
 *   flights[side]: built, built_at_s, builds, open[refuge_count],
 *       known (the known enemy per coarse cell, where not zero)        SAVED (FLIT): the inputs of
 *                                                                      the side's last build (the
 *                                                                      flames of then included, E4)
 *   flights[side]: field, any_source                                   REBUILT from the saved inputs
 *                                                                      at the next step (field_stale
 *                                                                      is set on loading): the field
 *                                                                      is a pure function of them
 *   flights[side]: memory_set, memory (where not zero)                 SAVED (ROAD)
 *   roads[road_count]: side, kind, idle, goal, built_at_s, known       SAVED (ROAD): the inputs of
 *     (where not zero)                                                 each road's build (with the
 *                                                                      flames of then, E4; a road
 *                                                                      is planned again once a fire
 *                                                                      has burned, on multiples of
 *                                                                      rebuild_min_s: no state), and
 *                                                                      whether a march's way round
 *                                                                      the fire is followed
 *   roads: field                                                       REBUILT from the saved inputs
 *                                                                      at the next step (stale is set
 *                                                                      on loading; an idle way when
 *                                                                      it is followed again)
 *   road_capacity                                                      NOT STATE
 *   known_nx, known_ny, known_ox, known_oy, known_cell                 REBUILT (laid out from the
 *                                                                      fingerprinted parameters)
 *   landings[landing_count]: def                                       STATIC (fingerprint)
 *   landings: back_s[boats], carried, trips                            SAVED (BOAT)
 *   phase_seconds                                                      NOT STATE (wall-clock time
 *                                                                      of this process)
 *
 * To add state: give it a section (or extend one and raise CKPT_VERSION), list it here,
 * and update the size in the assertion. To add a model parameter: add it to the
 * parameter list of the fingerprint below and update the sizes.
 *
 * Loading is all or nothing: the file is read whole, its checksum checked, every
 * section parsed and every value checked against this world (pass 1, nothing written),
 * room is made (capacities only), and only then is the state written (pass 2, which
 * cannot fail). Sections are parsed by the same functions in both passes. */
#include "world.h"
#include "atomic.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#define CKPT_MAGIC "ROUTCKPT"
#define CKPT_VERSION 12u/* 2: weather and fire (WTHR, FIRE), their counters and parameters;
                         * 3: flight fields (FLIT), boats (BOAT); guards, carrying, summons,
                         *    cannon, charge (agents' impetus and reload, the corps' carrier and
                         *    summons); crush, stamina and torches (agent fields); their counters
                         *    and parameters;
                         * 4: who rides (the agents' mount, and in the fingerprint's hash of the
                         *    men);
                         * 5: who keeps his ground in the ring (the agents' keep, M7);
                         * 6: each man's order, to which a pursuer goes back (the agents'
                         *    order_goal and order_stance, Q2);
                         * 7: each man's post in the place of his order (the agents'
                         *    posted, post_x and post_y, E5);
                         * 8: the siege (the corps' besieging, besiegers and besieged_at_s, Q9);
                         * 9: the man each pursuer was sent after (the agents' quarry, Q2);
                         * 10: what each side remembers of the enemy and the commanders' roads
                         *     (ROAD, M3);
                         * 11: the marches' ways round a fire (ROAD: each road's kind and
                         *     idle flag, E4);
                         * 12: the pursuit's hesitation (the corps' routes, routes_known,
                         *     routes_from, routes_weighed, hesitant_until_s and
                         *     hesitant_since_s, Q8) */
#define CKPT_HEADER_BYTES 24u         /* magic, version, section count, file bytes */
#define CKPT_SECTION_HEADER_BYTES 12u /* tag, payload bytes */
#define CKPT_CHECKSUM_BYTES 8u
#define FP_MAX 512
#define FP_NAME_MAX 63
#define CKPT_MAX_AGENTS (1 << 28)

/* The counters of struct rt_world that future steps add to. */
#define WORLD_COUNTERS(X) \
	X(agent_updates) X(wall_clamps) X(hits) X(shots) X(routed) X(rallied) X(armour_dropped) \
	X(weapons_dropped) X(knelt) X(captured) X(drowned) X(desperate) X(burned) X(misfires) \
	X(cannon_shots) X(charges) X(summoned) X(wounded) X(falls) X(lying) X(torch_alarms)
#define ONE(name) +1
enum { COUNTER_COUNT = 0 WORLD_COUNTERS(ONE) };

/* Parameters fingerprinted one by one (all doubles, so the sizes below are portable). */
#define LOCOMOTION_PARAMS(X) \
	X(time_gap_s) X(neighbor_strength) X(neighbor_range_m) X(wall_strength) X(wall_range_m) \
	X(wall_clearance_factor) X(push_gain) X(push_max_factor) X(dark_pace_factor)
#define COMBAT_PARAMS(X) \
	X(sense_range_m) X(sense_cell_m) X(armour_protection) X(advance_range_m) X(collect_range_m) \
	X(contain_distance_m) X(contain_watch_m) X(desperate_factor) X(cover) X(facing_speed_mps) X(rear_hit_factor) \
	X(cannon_range_m) X(cannon_reload_s) X(cannon_rounds) X(cannon_aim_error_deg) X(cannon_ball_hit_prob) \
	X(cannon_ball_men) X(canister_range_m) X(canister_half_angle_deg) X(canister_balls) X(canister_ball_hit_prob) \
	X(cannon_shock_radius_m) X(cannon_morale_shock) X(charge_pace_factor) X(charge_run_up_m) X(charge_walk_mps) \
	X(charge_full_mps) X(charge_memory_s) X(charge_hit_prob) X(charge_morale_shock) X(charge_formed_factor) \
	X(charge_shock_radius_m) X(withdraw_face_m)
#define MORALE_PARAMS(X) \
	X(baseline_spread) X(recovery_time_s) X(view_radius_m) X(threat_rate_per_s) X(horse_threat_weight) \
	X(contagion_rate_per_s) X(death_shock) X(death_memory_s) X(rout_threshold) X(rally_threshold) \
	X(rally_enemy_distance_m) X(flight_speed_factor) X(drop_armour_prob) X(drop_weapon_prob) \
	X(kneel_distance_m) X(kneel_rate_per_s) X(capture_distance_m) X(hunger_baseline_loss) X(darkness_loss_factor) \
	X(rear_threat_factor) X(dark_kneel_factor) X(leader_reach_m) X(leaderless_baseline_loss) X(barred_range_m) \
	X(barred_cell_m) X(barred_men) X(halted_ahead_radii) X(flight_pace_spread) X(fire_fear_rate_per_s) \
	X(fire_sight_m) X(fire_path_deg)
#define COMMAND_PARAMS(X) \
	X(decision_interval_s) X(base_hazard_per_h) X(courage_weight) X(pressure_weight) X(hunger_weight) \
	X(cut_off_weight) X(peer_weight) X(watch_m) X(leave_morale_shock) \
	X(guard_distance_m) X(guard_engage_m) X(guard_follow_s) X(guard_loss_factor) X(wound_share) \
	X(wounded_speed_factor) X(carry_speed_factor) X(carry_pickup_m) X(carry_touch_m) X(rearguard_cover_m) X(column_lead_m) \
	X(hearing_m) X(besiege_m) X(pursuit_pace_factor) X(hesitation_s_per_bit) X(route_cell_m) X(route_share) X(route_men) \
	X(summons_hold_tolerance) X(summons_morale) X(summons_rate_per_h) X(summons_hunger_weight) \
	X(summons_time_weight_per_h) X(summons_gone_weight) X(summons_desperate_factor)
#define CRUSH_PARAMS(X) \
	X(density_radius_m) X(held_speed_share) X(density_onset_per_m2) X(density_critical_per_m2) \
	X(pressure_critical_per_s2) X(fall_rate_per_s) X(fatigue_fall_factor) X(darkness_fall_factor) \
	X(mud_fall_factor) X(trample_rate_per_s) X(pile_rate_per_s) X(push_max_factor) X(rider_mass_factor) X(walk_speed_mps) \
	X(rise_rate_per_s)
#define STAMINA_PARAMS(X) \
	X(sustained_speed_mps) X(reference_speed_mps) X(tire_time_s) X(rest_time_s) X(speed_loss) \
	X(foot_sustained_speed_mps) X(foot_reference_speed_mps) X(foot_tire_time_s) X(foot_rest_time_s) X(foot_speed_loss)
#define TORCH_PARAMS(X) X(threat_weight) X(ahead_half_angle_deg) X(receding_speed_mps) X(max_lights)
#define KIND_PARAMS(X) \
	X(radius_m) X(free_speed_mps) X(melee_reach_m) X(melee_rate_per_s) X(melee_hit_prob) \
	X(missile_range_m) X(missile_rate_per_s) X(missile_hit_prob)
#define WATER_PARAMS(X) X(foot_drown_depth_m) X(horse_drown_depth_m) X(drown_rate_per_s) X(wading_loss_per_m) X(wade_out_depth_m)
#define LIGHT_PARAMS(X) \
	X(moon_full_zenith_lux) X(moon_mean_distance_km) X(night_sky_lux) X(cloud_max_attenuation) \
	X(cloud_cover_exponent) X(dark_lux) X(daylight_lux) X(detection_day_m) X(detection_night_m) \
	X(identification_day_m) X(identification_night_m) X(torch_intensity_cd) X(torch_threshold_dark_lux) \
	X(torch_threshold_day_lux) X(visibility_m)
#define WEATHER_PARAMS(X) \
	X(bucket_capacity_mm) X(drying_mm_per_h) X(mud_loss_unpaved) X(mud_loss_road) X(misfire_rain_max) \
	X(misfire_rain_half_mm_per_h) X(misfire_damp_max) X(fuel_moisture_dry_pct) X(fuel_moisture_wet_pct)
#define FLIGHT_PARAMS(X) \
	X(field_cell_m) X(rebuild_min_s) X(enemy_interval_s) X(enemy_cell_m) X(enemy_reach_m) X(enemy_cost_max) X(enemy_half_men) \
	X(fire_men)
/* all but grass, the one that is not a double */
#define FIRE_PARAMS(X) \
	X(update_interval_s) X(open_ground_fuel_kg_m2) X(curing_pct) X(threshold_spread) X(flame_residence_s) \
	X(heat_of_combustion_kj_per_kg) X(block_intensity_kw_per_m) X(burn_death_rate_per_s) X(smoke_cell_m) \
	X(smoke_yield_g_per_kg) X(smoke_mixing_height_m) X(smoke_lifetime_s) X(smoke_extinction_m2_per_g) \
	X(smoke_detection_constant) X(smoke_identification_constant)

/* A parameter added to one of these structs but not to its list above breaks the build. */
_Static_assert(sizeof(rt_locomotion_params) == (0 LOCOMOTION_PARAMS(ONE)) * sizeof(double), "LOCOMOTION_PARAMS is incomplete");
_Static_assert(sizeof(rt_combat_params) == (0 COMBAT_PARAMS(ONE)) * sizeof(double), "COMBAT_PARAMS is incomplete");
_Static_assert(sizeof(rt_morale_params) == (2 * RT_EXPERIENCE_COUNT MORALE_PARAMS(ONE)) * sizeof(double), "MORALE_PARAMS is incomplete");
_Static_assert(sizeof(rt_command_params) == (0 COMMAND_PARAMS(ONE)) * sizeof(double), "COMMAND_PARAMS is incomplete");
_Static_assert(sizeof(rt_crush_params) == (0 CRUSH_PARAMS(ONE)) * sizeof(double), "CRUSH_PARAMS is incomplete");
_Static_assert(sizeof(rt_stamina_params) == (0 STAMINA_PARAMS(ONE)) * sizeof(double), "STAMINA_PARAMS is incomplete");
_Static_assert(sizeof(rt_torch_params) == (0 TORCH_PARAMS(ONE)) * sizeof(double), "TORCH_PARAMS is incomplete");
_Static_assert(offsetof(rt_kind_params, ammunition) == (0 KIND_PARAMS(ONE)) * sizeof(double), "KIND_PARAMS is incomplete");
_Static_assert(offsetof(rt_water_params, cookie) == (0 WATER_PARAMS(ONE)) * sizeof(double), "WATER_PARAMS is incomplete");
_Static_assert(offsetof(rt_light_params, cookie) == (0 LIGHT_PARAMS(ONE)) * sizeof(double), "LIGHT_PARAMS is incomplete");
_Static_assert(sizeof(rt_weather_params) == (0 WEATHER_PARAMS(ONE)) * sizeof(double), "WEATHER_PARAMS is incomplete");
_Static_assert(sizeof(rt_fire_params) == (1 FIRE_PARAMS(ONE)) * sizeof(double), "FIRE_PARAMS is incomplete (grass takes the 1)");
_Static_assert(offsetof(rt_flight_params, cookie) == (0 FLIGHT_PARAMS(ONE)) * sizeof(double), "FLIGHT_PARAMS is incomplete");

#if defined(__LP64__) && (defined(__x86_64__) || defined(__aarch64__))
/* The layout of everything the table above classifies. When one of these fires, you
 * changed a struct the checkpoint must know about: classify the new field in the table
 * (and save it, fingerprint it or say why neither is needed), then set the new size. */
_Static_assert(sizeof(struct rt_world) == 5136, "struct rt_world changed: update the checkpoint (checkpoint.c)");
_Static_assert(sizeof(rt_world_def) == 1824, "rt_world_def changed: update the checkpoint's fingerprint (checkpoint.c)");
_Static_assert(sizeof(rt_kind_params) == 72, "rt_kind_params changed: update the checkpoint's fingerprint (checkpoint.c)");
_Static_assert(sizeof(rt_corps) == 312, "rt_corps changed: update the checkpoint (checkpoint.c)");
_Static_assert(sizeof(rt_corps_def) == 104, "rt_corps_def changed: update the checkpoint (checkpoint.c)");
_Static_assert(sizeof(rt_goal) == 120, "rt_goal changed: update the checkpoint (checkpoint.c)");
_Static_assert(sizeof(rt_goal_def) == 56, "rt_goal_def changed: update the checkpoint's fingerprint (checkpoint.c)");
_Static_assert(sizeof(rt_death_event) == 32, "rt_death_event changed: update the checkpoint (checkpoint.c)");
_Static_assert(sizeof(rt_sense_grid) == 432, "rt_sense_grid changed: update the checkpoint (checkpoint.c)");
_Static_assert(sizeof(rt_grid) == 112, "rt_grid changed: update the checkpoint (checkpoint.c)");
_Static_assert(sizeof(rt_geometry) == 144, "rt_geometry changed: update the checkpoint (checkpoint.c)");
_Static_assert(sizeof(rt_environment_def) == 1008, "rt_environment_def changed: update the checkpoint's fingerprint (checkpoint.c)");
_Static_assert(sizeof(rt_water_params) == 48, "rt_water_params changed: update the checkpoint's fingerprint (checkpoint.c)");
_Static_assert(sizeof(rt_weather_def) == 136, "rt_weather_def changed: update the checkpoint's fingerprint (checkpoint.c)");
_Static_assert(sizeof(rt_weather_series) == 40, "rt_weather_series changed: update the checkpoint's fingerprint (checkpoint.c)");
_Static_assert(sizeof(rt_fire_def) == 144, "rt_fire_def changed: update the checkpoint's fingerprint (checkpoint.c)");
_Static_assert(sizeof(rt_ignition) == 40, "rt_ignition changed: update the checkpoint's fingerprint (checkpoint.c)");
_Static_assert(sizeof(rt_fire) == 456, "rt_fire changed: update the checkpoint (checkpoint.c)");
_Static_assert(sizeof(rt_fire_burning) == 20, "rt_fire_burning changed: update the checkpoint (checkpoint.c)");
_Static_assert(sizeof(rt_refuge_def) == 48, "rt_refuge_def changed: update the checkpoint's fingerprint (checkpoint.c)");
_Static_assert(sizeof(rt_refuge) == 56, "rt_refuge changed: update the checkpoint (checkpoint.c)");
_Static_assert(sizeof(rt_flight) == 176, "rt_flight changed: update the checkpoint (checkpoint.c)");
_Static_assert(sizeof(rt_boats_def) == 64, "rt_boats_def changed: update the checkpoint's fingerprint (checkpoint.c)");
_Static_assert(sizeof(rt_landing) == 88, "rt_landing changed: update the checkpoint (checkpoint.c)");
_Static_assert(sizeof(rt_road) == 152, "rt_road changed: update the checkpoint (checkpoint.c)");
#endif

/* ---- hashing ---- */
static uint64_t fnv64(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; ++i) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

#define FNV64_START 0xcbf29ce484222325ull

static uint64_t mix_u64(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; ++i) {
		h ^= (v >> (8 * i)) & 0xffu;
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t f64_bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

static uint64_t mix_f64(uint64_t h, double d) { return mix_u64(h, f64_bits(d)); }

static uint64_t mix_str(uint64_t h, const char *s)
{
	if (!s) return mix_u64(h, 0xffffffffffffffffull);
	const size_t n = strlen(s);
	return fnv64(mix_u64(h, n), s, n);
}

/* ---- little-endian bytes ---- */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BIG_ENDIAN 1
#else
#define HOST_BIG_ENDIAN 0
#endif

static void swap_bytes(unsigned char *p, size_t size)
{
	for (size_t i = 0; i < size / 2; ++i) {
		unsigned char t = p[i];
		p[i] = p[size - 1 - i];
		p[size - 1 - i] = t;
	}
}

/* count elements of `size` bytes from file order (little-endian) to host order */
static void decode_array(void *dst, const uint8_t *src, size_t count, size_t size)
{
	memcpy(dst, src, count * size);
	if (HOST_BIG_ENDIAN && size > 1)
		for (size_t i = 0; i < count; ++i) swap_bytes((unsigned char *)dst + i * size, size);
}

static uint64_t le_at(const uint8_t *p, size_t size)
{
	uint64_t v = 0;
	for (size_t i = 0; i < size; ++i) v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* ---- the fingerprint: what must be the same in the world a checkpoint is loaded into ---- */
enum { FP_INT = 1, FP_REAL = 2, FP_HASH = 3 };

typedef struct fp_entry {
	char name[FP_NAME_MAX + 1];
	uint8_t type;
	uint64_t value;
} fp_entry;

typedef struct fp_list {
	int count;
	bool overflow;
	fp_entry e[FP_MAX];
} fp_list;

static void fp_add(fp_list *f, int type, uint64_t value, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void fp_add(fp_list *f, int type, uint64_t value, const char *fmt, ...)
{
	if (f->count >= FP_MAX) {
		f->overflow = true;
		return;
	}
	fp_entry *e = &f->e[f->count++];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->name, sizeof e->name, fmt, ap);
	va_end(ap);
	e->type = (uint8_t)type;
	e->value = value;
}

#define FP_I(f, v, ...) fp_add((f), FP_INT, (uint64_t)(int64_t)(v), __VA_ARGS__)
#define FP_R(f, v, ...) fp_add((f), FP_REAL, f64_bits(v), __VA_ARGS__)
#define FP_H(f, v, ...) fp_add((f), FP_HASH, (v), __VA_ARGS__)

/* Up to about `samples` evenly spaced indices of n, always the last. */
static size_t sample_stride(size_t n, size_t samples) { return n > samples ? n / samples : 1; }

static void fingerprint(const rt_world *w, fp_list *f)
{
	f->count = 0;
	f->overflow = false;
	const rt_world_def *d = &w->def;
	FP_I(f, (int64_t)d->seed, "seed");
	FP_R(f, d->dt_s, "dt_s");
	FP_I(f, d->max_period_level, "max_period_level");
	FP_R(f, d->bounds_min.x, "bounds_min.x");
	FP_R(f, d->bounds_min.y, "bounds_min.y");
	FP_R(f, d->bounds_max.x, "bounds_max.x");
	FP_R(f, d->bounds_max.y, "bounds_max.y");
	FP_I(f, d->periodic_x, "periodic_x");
	FP_R(f, d->cell_size_m, "cell_size_m");
	FP_I(f, d->reorder_every_steps, "reorder_every_steps");
#define X(name) FP_R(f, d->locomotion.name, "locomotion." #name);
	LOCOMOTION_PARAMS(X)
#undef X
#define X(name) FP_R(f, d->combat.name, "combat." #name);
	COMBAT_PARAMS(X)
#undef X
	for (int e = 0; e < RT_EXPERIENCE_COUNT; ++e) {
		FP_R(f, d->morale.baseline[e], "morale.baseline[%d]", e);
		FP_R(f, d->morale.sensitivity[e], "morale.sensitivity[%d]", e);
	}
#define X(name) FP_R(f, d->morale.name, "morale." #name);
	MORALE_PARAMS(X)
#undef X
#define X(name) FP_R(f, d->command.name, "command." #name);
	COMMAND_PARAMS(X)
#undef X
#define X(name) FP_R(f, d->crush.name, "crush." #name);
	CRUSH_PARAMS(X)
#undef X
#define X(name) FP_R(f, d->stamina.name, "stamina." #name);
	STAMINA_PARAMS(X)
#undef X
#define X(name) FP_R(f, d->torch.name, "torch." #name);
	TORCH_PARAMS(X)
#undef X
	for (int k = 0; k < RT_KIND_COUNT; ++k) {
		const char *kind = rt_kind_name((rt_kind)k);
#define X(name) FP_R(f, d->kinds[k].name, "kinds.%s." #name, kind);
		KIND_PARAMS(X)
#undef X
		FP_I(f, d->kinds[k].ammunition, "kinds.%s.ammunition", kind);
	}

	/* the men: how many, and who each is */
	const rt_agents *a = &w->agents;
	FP_I(f, a->count, "agents");
	uint64_t h = FNV64_START;
	for (int id = 0; id < a->count; ++id) {
		const int s = (int)w->slot_of_id[id];
		h = mix_u64(h, ((uint64_t)a->mount[s] << 56) | ((uint64_t)a->kind[s] << 48) | ((uint64_t)a->side[s] << 40) |
				       ((uint64_t)a->experience[s] << 32) | a->unit[s]);
	}
	FP_H(f, h, "agents' kinds, mounts, sides, units and experience");

	/* walls and obstacles */
	const rt_geometry *g = &w->geometry;
	FP_I(f, g->wall_count, "walls");
	h = FNV64_START;
	for (int i = 0; i < g->wall_count; ++i) {
		h = mix_f64(mix_f64(h, g->walls[i].ax), g->walls[i].ay);
		h = mix_f64(mix_f64(h, g->walls[i].bx), g->walls[i].by);
	}
	FP_H(f, h, "the walls' end points");
	FP_I(f, g->obstacle_count, "obstacles");
	h = FNV64_START;
	for (int i = 0; i < g->obstacle_count; ++i) {
		h = mix_u64(h, (uint64_t)g->obstacles[i].count);
		for (int k = 0; k < g->obstacles[i].count; ++k) {
			const rt_vec2 p = g->points[g->obstacles[i].first + k];
			h = mix_f64(mix_f64(h, p.x), p.y);
		}
	}
	FP_H(f, h, "the obstacles' outlines");

	/* goals: their definitions, and a sample of each flow field built from them */
	FP_I(f, w->goal_count, "goals");
	uint64_t defs = FNV64_START, fields = FNV64_START;
	for (int i = 0; i < w->goal_count; ++i) {
		const rt_goal *goal = &w->goals[i];
		const rt_goal_def *gd = &goal->def;
		defs = mix_f64(mix_f64(defs, gd->target_min.x), gd->target_min.y);
		defs = mix_f64(mix_f64(defs, gd->target_max.x), gd->target_max.y);
		defs = mix_u64(mix_f64(defs, gd->field_cell_m), ((uint64_t)gd->arrival << 8) | gd->straight);
		fields = mix_u64(mix_u64(fields, (uint64_t)goal->nx), (uint64_t)goal->ny);
		if (!goal->dir || !goal->arrival_time) continue;
		const size_t n = (size_t)goal->nx * (size_t)goal->ny, stride = sample_stride(n, 4096);
		for (size_t c = 0; c < n; c += stride) {
			fields = fnv64(fields, &goal->dir[2 * c], 2 * sizeof(float));
			fields = fnv64(fields, &goal->arrival_time[c], sizeof(float));
		}
	}
	FP_H(f, defs, "the goals' targets");
	FP_H(f, fields, "the goals' flow fields");

	/* corps: what their definitions fix (cut_off can change in a run: it is saved) */
	FP_I(f, w->corps_count, "corps");
	h = FNV64_START;
	for (int i = 0; i < w->corps_count; ++i) {
		const rt_corps *c = &w->corps[i];
		h = mix_str(mix_u64(mix_u64(mix_u64(h, c->def.side), (uint64_t)(int64_t)c->def.superior), c->def.rank), c->name);
		h = mix_f64(mix_f64(h, c->def.courage), c->def.hunger);
		h = mix_f64(mix_u64(h, (uint64_t)(int64_t)c->def.refuge), c->def.pursue_ratio);
		h = mix_u64(h, (uint64_t)(int64_t)c->def.ranks_refuge);
		h = mix_u64(h, (uint64_t)(int64_t)c->def.all_out_threshold);
		h = mix_u64(h, c->def.pursue_limited);
		if (c->def.pursue_limited) h = mix_f64(mix_f64(h, c->def.pursue_limit.x), c->def.pursue_limit.y);
		h = mix_f64(mix_u64(h, c->def.summon), c->def.quarter);
		h = mix_u64(h, c->def.known);
	}
	FP_H(f, h, "the corps' definitions");

	/* the map: size, features and a sample of its layers; forts; water */
	FP_I(f, w->map != NULL, "map");
	if (w->map) {
		FP_I(f, w->map_nx, "map.nx");
		FP_I(f, w->map_ny, "map.ny");
		FP_R(f, w->map_cell, "map.cell_m");
		FP_R(f, w->map_ox, "map.origin_x");
		FP_R(f, w->map_oy, "map.origin_y");
		const int features = rt_map_feature_count(w->map);
		FP_I(f, features, "map.features");
		h = FNV64_START;
		for (int i = 0; i < features; ++i) {
			rt_map_feature_view v;
			if (!rt_map_feature_info(w->map, i, &v)) continue;
			h = mix_str(mix_str(mix_u64(h, (uint64_t)v.kind), v.id), v.side);
			h = mix_f64(mix_f64(h, v.bbox_min.x), v.bbox_min.y);
			h = mix_f64(mix_f64(h, v.bbox_max.x), v.bbox_max.y);
			h = mix_u64(mix_u64(mix_u64(h, (uint64_t)v.cell_count), (uint64_t)v.capacity), (uint64_t)v.gate_count);
			h = mix_f64(h, v.fuel_kg_m2);
		}
		FP_H(f, h, "the map's features");
		h = FNV64_START;
		const size_t n = (size_t)w->map_nx * (size_t)w->map_ny, stride = sample_stride(n, 65536);
		for (size_t c = 0; c < n; c += stride) {
			h = fnv64(h, &w->map_passable[c], 1);
			h = fnv64(h, &w->map_speed[c], sizeof(float));
			h = fnv64(h, &w->map_elevation[c], sizeof(float));
			h = fnv64(h, &w->map_water[c], sizeof(float));
			h = fnv64(h, &w->map_feature[c], sizeof(int32_t));
		}
		FP_H(f, h, "the map's ground and water");
	}
	FP_I(f, w->feature_count, "forts' features");
	h = FNV64_START;
	for (int i = 0; i < w->feature_count; ++i)
		h = mix_u64(mix_u64(h, (uint64_t)(int64_t)w->fort_side[i]), (uint64_t)(int64_t)w->fort_capacity[i]);
	FP_H(f, h, "the forts' sides and capacities");
#define X(name) FP_R(f, w->water.name, "water." #name);
	WATER_PARAMS(X)
#undef X

	/* refuges, flight parameters and boats */
#define X(name) FP_R(f, w->flight.name, "flight." #name);
	FLIGHT_PARAMS(X)
#undef X
	FP_I(f, w->refuge_count, "refuges");
	h = FNV64_START;
	for (int i = 0; i < w->refuge_count; ++i) {
		const rt_refuge *ref = &w->refuges[i];
		h = mix_u64(mix_u64(h, ref->def.side), (uint64_t)(int64_t)ref->fort);
		h = mix_f64(mix_f64(mix_f64(mix_f64(h, ref->def.target_min.x), ref->def.target_min.y), ref->def.target_max.x), ref->def.target_max.y);
	}
	FP_H(f, h, "the refuges");
	FP_I(f, w->landing_count, "landings");
	h = FNV64_START;
	for (int i = 0; i < w->landing_count; ++i) {
		const rt_boats_def *b = &w->landings[i].def;
		h = mix_u64(mix_u64(mix_u64(h, b->side), (uint64_t)b->boats), (uint64_t)b->capacity);
		h = mix_u64(mix_f64(h, b->turnaround_s), (uint64_t)(int64_t)b->goal);
		h = mix_f64(mix_f64(mix_f64(mix_f64(h, b->target_min.x), b->target_min.y), b->target_max.x), b->target_max.y);
	}
	FP_H(f, h, "the landings and their boats");

	/* the environment */
	FP_I(f, w->has_environment, "environment");
	if (w->has_environment) {
		const rt_environment_def *e = &w->environment;
		FP_R(f, e->start_jd_ut, "environment.start_jd_ut");
		FP_R(f, e->latitude_deg, "environment.latitude_deg");
		FP_R(f, e->longitude_deg, "environment.longitude_deg");
		FP_R(f, e->cloud_cover, "environment.cloud_cover");
#define X(name) FP_R(f, e->light.name, "environment.light." #name);
		LIGHT_PARAMS(X)
#undef X
		const rt_tide_def *t = &e->tide;
		FP_R(f, t->mean_level_m, "environment.tide.mean_level_m");
		h = mix_u64(FNV64_START, (uint64_t)t->constituent_count);
		for (int i = 0; i < t->constituent_count && i < RT_TIDE_MAX_CONSTITUENTS; ++i) {
			const rt_tide_constituent *c = &t->constituents[i];
			h = fnv64(h, c->name, strnlen(c->name, RT_TIDE_NAME_SIZE));
			h = mix_f64(mix_f64(mix_f64(h, c->amplitude_m), c->phase_deg), c->speed_deg_per_h);
		}
		FP_H(f, h, "the tide's constituents");
		h = mix_u64(mix_u64(FNV64_START, (uint64_t)t->surge_count), (uint64_t)t->surge_outside);
		for (int i = 0; i < t->surge_count; ++i) h = mix_f64(mix_f64(h, w->surge_time_s[i]), w->surge_level_m[i]);
		FP_H(f, h, "the surge series");
		/* weather: the series, the wetness at step 0, the parameters */
		const rt_weather_def *wd = &e->weather;
		h = mix_u64(FNV64_START, (uint64_t)wd->rain_count);
		for (int i = 0; i < wd->rain_count; ++i) h = mix_f64(mix_f64(h, wd->rain_time_s[i]), wd->rain_mm_per_h[i]);
		FP_H(f, h, "the rain series");
		h = mix_u64(FNV64_START, (uint64_t)wd->wind_count);
		for (int i = 0; i < wd->wind_count; ++i)
			h = mix_f64(mix_f64(mix_f64(h, wd->wind_time_s[i]), wd->wind_speed_mps[i]), wd->wind_from_deg[i]);
		FP_H(f, h, "the wind series");
		FP_R(f, wd->ground_wetness, "environment.weather.ground_wetness");
#define X(name) FP_R(f, wd->params.name, "environment.weather." #name);
		WEATHER_PARAMS(X)
#undef X
		/* fire: the parameters and the fires set (in the time order they are lit) */
		const rt_fire_params *fp = &e->fire.params;
#define X(name) FP_R(f, fp->name, "environment.fire." #name);
		FIRE_PARAMS(X)
#undef X
		FP_I(f, fp->grass, "environment.fire.grass");
		FP_I(f, w->ignition_count, "environment.fire.ignitions");
		h = FNV64_START;
		for (int i = 0; i < w->ignition_count; ++i) {
			const rt_ignition *ig = &w->ignitions[i];
			h = mix_f64(mix_f64(mix_f64(mix_f64(mix_f64(h, ig->from_m.x), ig->from_m.y), ig->to_m.x), ig->to_m.y), ig->time_s);
		}
		FP_H(f, h, "the fires set");
	}
}

/* ---- writing ---- */
typedef struct sink {
	rt_atomic_file *file; /* NULL: count bytes only */
	uint64_t hash, bytes;
} sink;

static void put_bytes(sink *k, const void *p, size_t n)
{
	k->bytes += n;
	if (!k->file || n == 0) return;
	k->hash = fnv64(k->hash, p, n);
	rt__atomic_write(k->file, p, n);
}

static void put_le(sink *k, uint64_t v, size_t size)
{
	unsigned char b[8];
	for (size_t i = 0; i < size; ++i) b[i] = (unsigned char)(v >> (8 * i));
	put_bytes(k, b, size);
}

static void put_u8(sink *k, unsigned v) { put_le(k, v, 1); }
static void put_u32(sink *k, uint32_t v) { put_le(k, v, 4); }
static void put_i32(sink *k, int32_t v) { put_le(k, (uint32_t)v, 4); }
static void put_u64(sink *k, uint64_t v) { put_le(k, v, 8); }
static void put_i64(sink *k, int64_t v) { put_le(k, (uint64_t)v, 8); }
static void put_f64(sink *k, double v) { put_le(k, f64_bits(v), 8); }

/* count elements of `size` bytes, host order to file order */
static void put_array(sink *k, const void *p, size_t count, size_t size)
{
	if (!HOST_BIG_ENDIAN || size == 1 || !k->file) {
		put_bytes(k, p, count * size);
		return;
	}
	unsigned char buf[4096];
	const size_t per = sizeof buf / size;
	for (size_t i = 0; i < count; i += per) {
		const size_t m = count - i < per ? count - i : per;
		memcpy(buf, (const unsigned char *)p + i * size, m * size);
		for (size_t j = 0; j < m; ++j) swap_bytes(buf + j * size, size);
		put_bytes(k, buf, m * size);
	}
}

typedef struct save_ctx {
	const rt_world *w;
	const fp_list *fp;
	const void *extra; /* the caller's bytes */
	size_t extra_size;
} save_ctx;

static void save_fingerprint(sink *k, const save_ctx *c)
{
	put_u32(k, (uint32_t)c->fp->count);
	for (int i = 0; i < c->fp->count; ++i) {
		const fp_entry *e = &c->fp->e[i];
		const size_t n = strlen(e->name);
		put_u8(k, e->type);
		put_u8(k, (unsigned)n);
		put_bytes(k, e->name, n);
		put_u64(k, e->value);
	}
}

static void save_clock(sink *k, const save_ctx *c)
{
	const rt_world *w = c->w;
	put_i64(k, w->step);
	put_f64(k, w->time_s);
	put_i64(k, w->last_decision);
	put_i32(k, w->sense_idle_count);
	put_f64(k, w->max_radius);
	put_f64(k, w->max_speed);
	put_u32(k, COUNTER_COUNT);
#define X(name) put_i64(k, w->name);
	WORLD_COUNTERS(X)
#undef X
}

static void save_layout(sink *k, const save_ctx *c)
{
	const rt_world *w = c->w;
	put_i32(k, w->grid.target_agents);
	put_u8(k, w->geometry.built);
	put_f64(k, w->geometry.built ? w->geometry.reach : 0.0);
}

static void save_agents(sink *k, const save_ctx *c)
{
	const rt_world *w = c->w;
	const rt_agents *a = &w->agents;
	const size_t n = (size_t)a->count;
	put_i32(k, a->count);
	put_u32(k, RT_AGENT_FIELD_COUNT);
#define X(name, type) \
	put_u8(k, sizeof #name - 1); put_bytes(k, #name, sizeof #name - 1); put_u8(k, sizeof(type)); \
	put_array(k, a->name, n, sizeof(type));
	AGENT_FIELDS(X)
#undef X
	put_array(k, w->slot_of_id, n, sizeof(uint32_t));
}

static void save_corps(sink *k, const save_ctx *c)
{
	const rt_world *w = c->w;
	put_i32(k, w->corps_count);
	for (int i = 0; i < w->corps_count; ++i) {
		const rt_corps *corps = &w->corps[i];
		put_i32(k, corps->commander);
		put_u8(k, corps->left);
		put_f64(k, corps->left_at_s);
		put_f64(k, corps->mean_threat);
		put_i32(k, corps->men);
		put_i32(k, corps->active);
		put_i32(k, corps->fleeing_seen);
		put_i32(k, corps->pursuers);
		put_u8(k, corps->def.cut_off);
		put_u8(k, corps->home_set);
		put_f64(k, corps->home_x);
		put_f64(k, corps->home_y);
		put_i32(k, corps->carrier);
		put_f64(k, corps->summons_at_s);
		put_i32(k, corps->encircled);
		put_i32(k, corps->besieging);
		put_i32(k, corps->besiegers);
		put_f64(k, corps->besieged_at_s);
		put_i32(k, corps->routes);
		put_i32(k, corps->routes_known);
		put_i32(k, corps->routes_from);
		put_i32(k, corps->routes_weighed);
		put_f64(k, corps->hesitant_until_s);
		put_f64(k, corps->hesitant_since_s);
	}
}

static void save_deaths(sink *k, const save_ctx *c)
{
	const rt_world *w = c->w;
	put_i32(k, w->death_count);
	for (int i = 0; i < w->death_count; ++i) {
		const rt_death_event *e = &w->deaths[i];
		put_f64(k, e->x);
		put_f64(k, e->y);
		put_i64(k, e->step);
		put_u8(k, e->side);
	}
}

static bool sense_present(const rt_sense_grid *g) { return g->start && g->order && g->cells > 0 && g->sides > 0; }

static void save_sense(sink *k, const save_ctx *c)
{
	const rt_sense_grid *g = &c->w->sense;
	const bool present = sense_present(g);
	put_u8(k, present);
	if (!present) return;
	put_f64(k, g->origin_x);
	put_f64(k, g->origin_y);
	put_f64(k, g->cell);
	put_f64(k, g->inv_cell);
	put_i32(k, g->nx);
	put_i32(k, g->ny);
	put_i32(k, g->sides);
	/* the men who can be fought: groups 0 .. sides-1 of the grid */
	const size_t index = (size_t)g->sides * (size_t)g->cells;
	put_array(k, g->start, index + 1, sizeof(int));
	put_array(k, g->order, (size_t)g->start[index], sizeof(int));
}

static void save_forts(sink *k, const save_ctx *c)
{
	const rt_world *w = c->w;
	put_i32(k, w->feature_count);
	if (w->feature_count > 0) put_array(k, w->fort_sheltered, (size_t)w->feature_count, sizeof(int));
}

static void save_weather(sink *k, const save_ctx *c)
{
	const rt_world *w = c->w;
	put_f64(k, w->env.ground_wetness);
	put_f64(k, w->weather_time_s);
}

static bool caught(uint8_t st) { return st == RT_FIRE_CELL_BURNING || st == RT_FIRE_CELL_HOT || st == RT_FIRE_CELL_BURNT; }

static void put_f32(sink *k, float v)
{
	uint32_t u;
	memcpy(&u, &v, sizeof u);
	put_u32(k, u);
}

static void save_fire(sink *k, const save_ctx *c)
{
	const rt_fire *f = c->w->fire;
	put_u8(k, f != NULL);
	if (!f) return;
	put_i32(k, f->next_ignition);
	put_f64(k, f->next_update_s);
	put_i64(k, f->hot_count);
	put_i64(k, f->burnt_count);
	/* the cells caught, by index: the rest are as the map made them */
	int32_t count = 0;
	for (size_t i = 0; i < f->cells; ++i) count += caught(f->state[i]);
	put_i32(k, count);
	for (size_t i = 0; i < f->cells; ++i) {
		if (!caught(f->state[i])) continue;
		put_i32(k, (int32_t)i);
		put_u8(k, f->state[i]);
		put_f32(k, f->time_s[i]);
	}
	put_i32(k, f->burning_count);
	for (int i = 0; i < f->burning_count; ++i) {
		const rt_fire_burning *b = &f->burning[i];
		put_i32(k, b->cell);
		put_f32(k, b->ignition_s);
		put_f32(k, b->out_s);
		put_f32(k, b->intensity_kw_m);
		put_f32(k, b->fuel_kg_m2);
	}
	put_i32(k, f->front_count);
	put_array(k, f->front, (size_t)f->front_count, sizeof(int32_t));
	for (int i = 0; i < 4; ++i) put_i32(k, f->box[i]);
	put_f32(k, f->smoke_max);
	for (int y = f->box[1]; f->box[2] >= f->box[0] && y <= f->box[3]; ++y)
		put_array(k, f->smoke + (size_t)y * (size_t)f->snx + (size_t)f->box[0], (size_t)(f->box[2] - f->box[0] + 1), sizeof(float));
}

/* Non-zero cells of a coarse grid: count, then (cell, value) in cell order. */
static void put_sparse(sink *k, const float *v, size_t cells)
{
	int32_t count = 0;
	for (size_t i = 0; i < cells; ++i) count += v[i] != 0.0f;
	put_i32(k, count);
	for (size_t i = 0; i < cells; ++i) {
		if (v[i] == 0.0f) continue;
		put_i32(k, (int32_t)i);
		put_f32(k, v[i]);
	}
}

static void save_flight(sink *k, const save_ctx *c)
{
	const rt_world *w = c->w;
	put_u8(k, w->flights != NULL);
	if (!w->flights) return;
	int nx, ny;
	double cell;
	rt__known_dims(w, &nx, &ny, &cell);
	const size_t cells = (size_t)nx * (size_t)ny;
	put_i32(k, w->refuge_count);
	put_i32(k, nx);
	put_i32(k, ny);
	for (int side = 0; side < RT_MAX_SIDES; ++side) {
		const rt_flight *f = &w->flights[side];
		put_u8(k, f->built);
		put_i32(k, f->builds);
		if (!f->built) continue;
		put_f64(k, f->built_at_s);
		put_bytes(k, f->open, (size_t)w->refuge_count);
		put_u8(k, f->known != NULL);
		if (!f->known) continue;
		put_sparse(k, f->known, cells); /* the known enemy, where there is any */
	}
}

static void save_roads(sink *k, const save_ctx *c)
{
	const rt_world *w = c->w;
	put_u8(k, w->flights != NULL);
	if (!w->flights) return;
	int nx, ny;
	double cell;
	rt__known_dims(w, &nx, &ny, &cell);
	const size_t cells = (size_t)nx * (size_t)ny;
	put_i32(k, nx);
	put_i32(k, ny);
	for (int side = 0; side < RT_MAX_SIDES; ++side) {
		const rt_flight *f = &w->flights[side];
		put_u8(k, f->memory_set);
		if (f->memory_set) put_sparse(k, f->memory, cells);
	}
	put_i32(k, w->road_count);
	for (int i = 0; i < w->road_count; ++i) {
		const rt_road *r = &w->roads[i];
		put_u8(k, r->side);
		put_u8(k, r->kind);
		put_u8(k, r->idle);
		put_i32(k, r->goal);
		put_f64(k, r->built_at_s);
		put_sparse(k, r->known, cells);
	}
}

static void save_boats(sink *k, const save_ctx *c)
{
	const rt_world *w = c->w;
	put_i32(k, w->landing_count);
	for (int i = 0; i < w->landing_count; ++i) {
		const rt_landing *l = &w->landings[i];
		put_i64(k, l->carried);
		put_i64(k, l->trips);
		put_i32(k, l->def.boats);
		for (int b = 0; b < l->def.boats; ++b) put_f64(k, l->back_s[b]);
	}
}

static void save_extra(sink *k, const save_ctx *c)
{
	if (c->extra_size > 0) put_bytes(k, c->extra, c->extra_size);
}

/* ---- reading ---- */
typedef struct reader {
	const uint8_t *p;
	size_t size, pos;
	bool short_read;
} reader;

static const uint8_t *take(reader *r, size_t n)
{
	if (r->short_read || n > r->size - r->pos) {
		r->short_read = true;
		return NULL;
	}
	const uint8_t *q = r->p + r->pos;
	r->pos += n;
	return q;
}

static uint64_t get_le(reader *r, size_t size)
{
	const uint8_t *q = take(r, size);
	return q ? le_at(q, size) : 0;
}

static unsigned get_u8(reader *r) { return (unsigned)get_le(r, 1); }
static uint32_t get_u32(reader *r) { return (uint32_t)get_le(r, 4); }
static int32_t get_i32(reader *r) { return (int32_t)(uint32_t)get_le(r, 4); }
static uint64_t get_u64(reader *r) { return get_le(r, 8); }
static int64_t get_i64(reader *r) { return (int64_t)get_le(r, 8); }

static float get_f32(reader *r)
{
	uint32_t u = (uint32_t)get_le(r, 4);
	float v;
	memcpy(&v, &u, sizeof v);
	return v;
}

static double get_f64(reader *r)
{
	uint64_t u = get_le(r, 8);
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

/* count elements of `size` bytes; NULL when the section is shorter */
static const uint8_t *get_array(reader *r, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size) {
		r->short_read = true;
		return NULL;
	}
	return take(r, count * size);
}

static int32_t i32_at(const uint8_t *base, size_t i) { return (int32_t)(uint32_t)le_at(base + 4 * i, 4); }

static double f64_at(const uint8_t *base, size_t i)
{
	uint64_t u = le_at(base + 8 * i, 8);
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

static float f32_at(const uint8_t *base, size_t i)
{
	uint32_t u = (uint32_t)le_at(base + 4 * i, 4);
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

/* What pass 1 learns for pass 2 and for making room in between. */
enum {
#define X(name, type) AF_##name,
	AGENT_FIELDS(X)
#undef X
	AF_COUNT
};

typedef struct plan {
	const char *path;
	int64_t step;
	int32_t grid_target;
	bool geometry_built;
	double geometry_reach;
	int32_t deaths;
	bool sense;
	size_t sense_entries;
	const uint8_t *field[AF_COUNT];
	const uint8_t *extra;
	size_t extra_size;
	int32_t fire_burning, fire_front;
	bool flight_built[RT_MAX_SIDES];
	bool memory_set[RT_MAX_SIDES];
	int32_t roads;
} plan;

typedef rt_status load_fn(reader *r, rt_world *w, plan *p, bool apply, rt_error *err);

static rt_status bad(rt_error *err, const plan *p, const char *field, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static rt_status bad(rt_error *err, const plan *p, const char *field, const char *fmt, ...)
{
	char message[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	return rt__fail_at(err, RT_ERR_PARSE, p->path, 0, 0, field, "damaged checkpoint: %s", message);
}

static void describe(char *out, size_t size, int type, uint64_t v)
{
	if (type == FP_INT) {
		snprintf(out, size, "%lld", (long long)(int64_t)v);
	} else if (type == FP_REAL) {
		double d;
		memcpy(&d, &v, sizeof d);
		snprintf(out, size, "%.17g", d);
		/* the shortest text that still tells the value apart */
		for (int digits = 6; digits < 17; ++digits) {
			char t[64];
			snprintf(t, sizeof t, "%.*g", digits, d);
			if (strtod(t, NULL) == d) {
				snprintf(out, size, "%s", t);
				break;
			}
		}
	} else {
		snprintf(out, size, "%016llx", (unsigned long long)v);
	}
}

static rt_status load_fingerprint(reader *r, rt_world *w, plan *p, bool apply, rt_error *err)
{
	if (apply) { /* nothing to restore: the world is the one fingerprinted */
		r->pos = r->size;
		return RT_OK;
	}
	fp_list *mine = rt__alloc(&w->allocator, sizeof *mine);
	if (!mine) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the world's fingerprint");
	fingerprint(w, mine);
	rt_status s = RT_OK;
	const uint32_t count = get_u32(r);
	if (mine->overflow) {
		s = rt__fail(err, RT_ERR_STATE, "the world's fingerprint has more than %d entries", FP_MAX);
		goto done;
	}
	for (uint32_t i = 0; i < count && !r->short_read; ++i) {
		const unsigned type = get_u8(r), length = get_u8(r);
		const uint8_t *name = take(r, length);
		const uint64_t value = get_u64(r);
		if (r->short_read) break;
		if (length > FP_NAME_MAX || (type != FP_INT && type != FP_REAL && type != FP_HASH)) {
			s = bad(err, p, "FPRT", "fingerprint entry %u is malformed", i);
			goto done;
		}
		char saved[FP_NAME_MAX + 1];
		memcpy(saved, name, length);
		saved[length] = '\0';
		if (i >= (uint32_t)mine->count || strcmp(saved, mine->e[i].name) != 0 || type != mine->e[i].type) {
			s = rt__fail_at(err, RT_ERR_INVALID, p->path, 0, 0, "FPRT",
					"checkpoint was made by another version of rout: its fingerprint lists \"%s\" where this build expects \"%s\"",
					saved, i < (uint32_t)mine->count ? mine->e[i].name : "nothing more");
			goto done;
		}
		if (value != mine->e[i].value) {
			char theirs[64], ours[64];
			describe(theirs, sizeof theirs, (int)type, value);
			describe(ours, sizeof ours, (int)type, mine->e[i].value);
			if (type == FP_HASH)
				s = rt__fail_at(err, RT_ERR_INVALID, p->path, 0, 0, mine->e[i].name,
						"checkpoint was made for a different world: %s differ (fingerprint %s in the checkpoint, %s in this world)",
						saved, theirs, ours);
			else
				s = rt__fail_at(err, RT_ERR_INVALID, p->path, 0, 0, mine->e[i].name,
						"checkpoint was made for a different world: %s %s in the checkpoint, %s in this world", saved,
						theirs, ours);
			goto done;
		}
	}
	if (!r->short_read && count != (uint32_t)mine->count)
		s = rt__fail_at(err, RT_ERR_INVALID, p->path, 0, 0, "FPRT",
				"checkpoint was made by another version of rout: its fingerprint has %u entries, this build's %d", count,
				mine->count);
done:
	rt__free(&w->allocator, mine, sizeof *mine);
	return s;
}

static bool finite_in(double v, double lo, double hi) { return isfinite(v) && v >= lo && v <= hi; }

static rt_status load_clock(reader *r, rt_world *w, plan *p, bool apply, rt_error *err)
{
	const int64_t step = get_i64(r);
	const double time_s = get_f64(r);
	const int64_t last_decision = get_i64(r);
	const int32_t idle = get_i32(r);
	const double max_radius = get_f64(r), max_speed = get_f64(r);
	const uint32_t counters = get_u32(r);
	if (r->short_read) return RT_OK; /* reported by the caller */
	if (counters != COUNTER_COUNT)
		return rt__fail_at(err, RT_ERR_INVALID, p->path, 0, 0, "CLCK",
				   "checkpoint was made by another version of rout: %u counters, this build keeps %d", counters, COUNTER_COUNT);
	int64_t value[COUNTER_COUNT];
	for (int i = 0; i < COUNTER_COUNT; ++i) value[i] = get_i64(r);
	if (r->short_read) return RT_OK;
	if (step < 0 || step > INT64_MAX / 2) return bad(err, p, "step", "step %lld", (long long)step);
	if (!finite_in(time_s, 0.0, 1e15)) return bad(err, p, "time_s", "time %g s", time_s);
	if (idle < -1 || idle > w->agents.count) return bad(err, p, "sense_idle_count", "sense_idle_count %d", idle);
	if (!finite_in(max_radius, 0.0, 1e3) || !finite_in(max_speed, 0.0, 1e3))
		return bad(err, p, "max_radius", "largest radius %g m or speed %g m/s", max_radius, max_speed);
	for (int i = 0; i < COUNTER_COUNT; ++i)
		if (value[i] < 0) return bad(err, p, "CLCK", "counter %d is negative", i);
	p->step = step;
	if (!apply) return RT_OK;
	w->step = step;
	w->time_s = time_s;
	w->last_decision = last_decision;
	w->sense_idle_count = idle;
	w->max_radius = max_radius;
	w->max_speed = max_speed;
	int i = 0;
#define X(name) w->name = value[i++];
	WORLD_COUNTERS(X)
#undef X
	return RT_OK;
}

static rt_status load_layout(reader *r, rt_world *w, plan *p, bool apply, rt_error *err)
{
	const int32_t target = get_i32(r);
	const unsigned built = get_u8(r);
	const double reach = get_f64(r);
	if (r->short_read) return RT_OK;
	if (target < 1 || target > CKPT_MAX_AGENTS) return bad(err, p, "grid.target_agents", "neighbour grid laid out for %d men", target);
	if (built > 1 || (built && !finite_in(reach, 1e-3, 1e7))) return bad(err, p, "geometry.reach", "wall grid reach %g m", reach);
	p->grid_target = target;
	p->geometry_built = built;
	p->geometry_reach = reach;
	if (apply && !built && w->geometry.built) rt__geometry_unbuild(w); /* built again at the next step */
	return RT_OK;
}

static rt_status check_index(rt_error *err, const plan *p, const char *field, const uint8_t *base, size_t n, int64_t hi)
{
	for (size_t s = 0; s < n; ++s) {
		const int32_t v = i32_at(base, s);
		if (v < -1 || v >= hi) return bad(err, p, field, "agent in slot %zu has %s %d (expected -1 .. %lld)", s, field, v, (long long)hi - 1);
	}
	return RT_OK;
}

static rt_status check_byte(rt_error *err, const plan *p, const char *field, const uint8_t *base, size_t n, unsigned hi)
{
	for (size_t s = 0; s < n; ++s)
		if (base[s] >= hi) return bad(err, p, field, "agent in slot %zu has %s %u (expected 0 .. %u)", s, field, base[s], hi - 1);
	return RT_OK;
}

/* check_agents reads these arrays with the sizes below */
#define FIELD_SIZE(name) sizeof(*((rt_agents *)0)->name)
_Static_assert(FIELD_SIZE(x) == 8 && FIELD_SIZE(y) == 8 && FIELD_SIZE(vx) == 8 && FIELD_SIZE(vy) == 8, "positions are f64");
_Static_assert(FIELD_SIZE(heading_x) == 4 && FIELD_SIZE(heading_y) == 4 && FIELD_SIZE(radius) == 4 && FIELD_SIZE(free_speed) == 4,
	       "headings, radius and speed are f32");
_Static_assert(FIELD_SIZE(id) == 4 && FIELD_SIZE(goal) == 4 && FIELD_SIZE(flee_goal) == 4 && FIELD_SIZE(corps) == 4 &&
		       FIELD_SIZE(enemy) == 4 && FIELD_SIZE(victim) == 4 && FIELD_SIZE(prize) == 4 && FIELD_SIZE(order_goal) == 4 && FIELD_SIZE(quarry) == 4,
	       "ids and indices are 32-bit");
_Static_assert(FIELD_SIZE(state) == 1 && FIELD_SIZE(kind) == 1 && FIELD_SIZE(side) == 1 && FIELD_SIZE(experience) == 1 &&
		       FIELD_SIZE(stance) == 1 && FIELD_SIZE(level) == 1 && FIELD_SIZE(mount) == 1 && FIELD_SIZE(keep) == 1 &&
		       FIELD_SIZE(order_stance) == 1 && FIELD_SIZE(posted) == 1,
	       "enumerations are bytes");
#undef FIELD_SIZE

/* Whether v is a real number no farther than `margin` outside the world's bounds on the
 * axis (0 = x, 1 = y). Men may walk past the bounds; they are never this far past them,
 * and every cell index computed from a position then fits an int. */
#define POSITION_MARGIN_M 1e7
static bool in_reach(const rt_world *w, double v, int axis)
{
	const double lo = axis ? w->def.bounds_min.y : w->def.bounds_min.x, hi = axis ? w->def.bounds_max.y : w->def.bounds_max.x;
	return finite_in(v, lo - POSITION_MARGIN_M, hi + POSITION_MARGIN_M);
}

static double real_at(const uint8_t *base, size_t i, size_t size) { return size == 8 ? f64_at(base, i) : (double)f32_at(base, i); }

static rt_status check_real(rt_error *err, const plan *p, const char *field, const uint8_t *base, size_t n, size_t size, double lo,
			    double hi)
{
	for (size_t s = 0; s < n; ++s) {
		const double v = real_at(base, s, size);
		if (!(v >= lo && v <= hi)) return bad(err, p, field, "agent in slot %zu has %s %g (expected %g .. %g)", s, field, v, lo, hi);
	}
	return RT_OK;
}

/* Every value that indexes an array later, and every real number the phases compute
 * with, is checked before anything is written: a hand-made file with a good checksum
 * cannot make a step read out of bounds or convert NaN to a cell index. */
static rt_status check_agents(const rt_world *w, const plan *p, const uint8_t *slot_of_id, rt_error *err)
{
	const size_t n = (size_t)w->agents.count;
	const uint8_t *const *f = p->field;
	rt_status s;
	if ((s = check_byte(err, p, "state", f[AF_state], n, RT_STATE_COUNT)) != RT_OK) return s;
	if ((s = check_byte(err, p, "kind", f[AF_kind], n, RT_KIND_COUNT)) != RT_OK) return s;
	if ((s = check_byte(err, p, "side", f[AF_side], n, RT_MAX_SIDES)) != RT_OK) return s;
	if ((s = check_byte(err, p, "experience", f[AF_experience], n, RT_EXPERIENCE_COUNT)) != RT_OK) return s;
	if ((s = check_byte(err, p, "stance", f[AF_stance], n, RT_STANCE_HUNT + 1)) != RT_OK) return s;
	if ((s = check_byte(err, p, "level", f[AF_level], n, 8)) != RT_OK) return s;
	if ((s = check_byte(err, p, "mount", f[AF_mount], n, 2)) != RT_OK) return s;
	if ((s = check_byte(err, p, "keep", f[AF_keep], n, 2)) != RT_OK) return s;
	if ((s = check_byte(err, p, "order_stance", f[AF_order_stance], n, RT_STANCE_HUNT + 1)) != RT_OK) return s;
	/* 0 none, 1 his order's post, RT_POST_SIEGE a station on a ring (2 lives only within
	 * an order's application, run.c) */
	if ((s = check_byte(err, p, "posted", f[AF_posted], n, RT_POST_SIEGE + 1)) != RT_OK) return s;
	for (size_t i = 0; i < n; ++i)
		if (f[AF_posted][i] == 2) return bad(err, p, "posted", "agent in slot %zu has posted 2 (expected 0, 1 or %d)", i, RT_POST_SIEGE);
	if ((s = check_index(err, p, "goal", f[AF_goal], n, w->goal_count)) != RT_OK) return s;
	if ((s = check_index(err, p, "flee_goal", f[AF_flee_goal], n, w->goal_count)) != RT_OK) return s;
	if ((s = check_index(err, p, "order_goal", f[AF_order_goal], n, w->goal_count)) != RT_OK) return s;
	if ((s = check_index(err, p, "corps", f[AF_corps], n, w->corps_count)) != RT_OK) return s;
	if ((s = check_index(err, p, "enemy", f[AF_enemy], n, (int64_t)n)) != RT_OK) return s;
	if ((s = check_index(err, p, "victim", f[AF_victim], n, (int64_t)n)) != RT_OK) return s;
	if ((s = check_index(err, p, "prize", f[AF_prize], n, (int64_t)n)) != RT_OK) return s;
	if ((s = check_index(err, p, "quarry", f[AF_quarry], n, (int64_t)n)) != RT_OK) return s;
	/* real numbers: finite (the distance to no enemy is infinite), then the ranges that matter */
#define REAL(type) ((type)0.5 != 0)
#define X(name, type) \
	if (REAL(type) && (s = AF_##name == AF_enemy_dist ? check_real(err, p, #name, f[AF_##name], n, sizeof(type), 0.0, HUGE_VAL) \
						      : check_real(err, p, #name, f[AF_##name], n, sizeof(type), -DBL_MAX, DBL_MAX)) != RT_OK) \
		return s;
	AGENT_FIELDS(X)
#undef X
#undef REAL
	for (size_t slot = 0; slot < n; ++slot)
		if (!in_reach(w, f64_at(f[AF_x], slot), 0) || !in_reach(w, f64_at(f[AF_y], slot), 1))
			return bad(err, p, "x", "agent in slot %zu stands at (%g, %g), far outside the world", slot, f64_at(f[AF_x], slot),
				   f64_at(f[AF_y], slot));
	if ((s = check_real(err, p, "vx", f[AF_vx], n, 8, -1e4, 1e4)) != RT_OK) return s;
	if ((s = check_real(err, p, "vy", f[AF_vy], n, 8, -1e4, 1e4)) != RT_OK) return s;
	if ((s = check_real(err, p, "heading_x", f[AF_heading_x], n, 4, -1.01, 1.01)) != RT_OK) return s;
	if ((s = check_real(err, p, "heading_y", f[AF_heading_y], n, 4, -1.01, 1.01)) != RT_OK) return s;
	if ((s = check_real(err, p, "radius", f[AF_radius], n, 4, 0.0, 20.0)) != RT_OK) return s; /* as rt_world_add_agent allows */
	if ((s = check_real(err, p, "free_speed", f[AF_free_speed], n, 4, 0.0, 20.0)) != RT_OK) return s;
	/* ids: slot_of_id undoes id, so both are the same permutation of 0 .. n-1 */
	for (size_t slot = 0; slot < n; ++slot) {
		const uint32_t id = (uint32_t)le_at(f[AF_id] + 4 * slot, 4);
		if (id >= n || (uint32_t)le_at(slot_of_id + 4 * (size_t)id, 4) != slot)
			return bad(err, p, "slot_of_id", "agent ids and slots do not match (slot %zu holds id %u)", slot, id);
	}
	return RT_OK;
}

static rt_status load_agents(reader *r, rt_world *w, plan *p, bool apply, rt_error *err)
{
	rt_agents *a = &w->agents;
	const int32_t count = get_i32(r);
	const uint32_t fields = get_u32(r);
	if (r->short_read) return RT_OK;
	if (count != a->count) /* the fingerprint has compared the counts: this file contradicts itself */
		return bad(err, p, "AGNT", "the agent section holds %d men, the fingerprint %d", count, a->count);
	if (fields != RT_AGENT_FIELD_COUNT)
		return rt__fail_at(err, RT_ERR_INVALID, p->path, 0, 0, "AGNT",
				   "checkpoint was made by another version of rout: %u arrays per man, this build keeps %d", fields,
				   RT_AGENT_FIELD_COUNT);
	const size_t n = (size_t)count;
	static const struct {
		const char *name;
		size_t size;
	} expected[] = {
#define X(name, type) { #name, sizeof(type) },
		AGENT_FIELDS(X)
#undef X
	};
	for (int k = 0; k < AF_COUNT; ++k) {
		const unsigned length = get_u8(r);
		const uint8_t *name = take(r, length);
		const unsigned size = get_u8(r);
		if (r->short_read) return RT_OK;
		if (length != strlen(expected[k].name) || memcmp(name, expected[k].name, length) != 0 || size != expected[k].size)
			return rt__fail_at(err, RT_ERR_INVALID, p->path, 0, 0, "AGNT",
					   "checkpoint was made by another version of rout: array %d is \"%.*s\" of %u bytes, this build expects \"%s\" of %zu",
					   k, (int)length, (const char *)name, size, expected[k].name, expected[k].size);
		p->field[k] = get_array(r, n, size);
		if (r->short_read) return RT_OK;
	}
	const uint8_t *slot_of_id = get_array(r, n, sizeof(uint32_t));
	if (r->short_read) return RT_OK;
	if (!apply) return check_agents(w, p, slot_of_id, err);
	int k = 0;
#define X(name, type) decode_array(a->name, p->field[k++], n, sizeof(type));
	AGENT_FIELDS(X)
#undef X
	decode_array(w->slot_of_id, slot_of_id, n, sizeof(uint32_t));
	return RT_OK;
}

static rt_status load_corps(reader *r, rt_world *w, plan *p, bool apply, rt_error *err)
{
	const int32_t count = get_i32(r);
	if (r->short_read) return RT_OK;
	if (count != w->corps_count) return bad(err, p, "CORP", "the corps section holds %d corps, the fingerprint %d", count, w->corps_count);
	for (int i = 0; i < count; ++i) {
		const int32_t commander = get_i32(r);
		const unsigned left = get_u8(r);
		const double left_at_s = get_f64(r), mean_threat = get_f64(r);
		const int32_t men = get_i32(r), active = get_i32(r), fleeing = get_i32(r), pursuers = get_i32(r);
		const unsigned cut_off = get_u8(r), home_set = get_u8(r);
		const double home_x = get_f64(r), home_y = get_f64(r);
		const int32_t carrier = get_i32(r);
		const double summons_at_s = get_f64(r);
		const int32_t encircled = get_i32(r);
		const int32_t besieging = get_i32(r), besiegers = get_i32(r);
		const double besieged_at_s = get_f64(r);
		const int32_t routes = get_i32(r), routes_known = get_i32(r), routes_from = get_i32(r), routes_weighed = get_i32(r);
		const double hesitant_until_s = get_f64(r), hesitant_since_s = get_f64(r);
		if (r->short_read) return RT_OK;
		/* a hesitation under way began, from at least one route, and weighs more than it began from */
		const bool hesitating = hesitant_until_s >= 0.0;
		if (routes < 0 || routes > RT_MAX_ROUTES || routes_known < 0 || routes_known > RT_MAX_ROUTES || routes_from < 0 ||
		    routes_from > RT_MAX_ROUTES || routes_weighed < 0 || routes_weighed > RT_MAX_ROUTES ||
		    !finite_in(hesitant_until_s, -1.0, 1e15) || !finite_in(hesitant_since_s, -1.0, 1e15) ||
		    (hesitating && (routes_from < 1 || routes_weighed <= routes_from || hesitant_since_s < 0.0 ||
				    hesitant_since_s > hesitant_until_s)))
			return bad(err, p, "corps", "corps %d: %d routes (%d decided; hesitation from %d to %d routes, from %g s until %g s)",
				   i, routes, routes_known, routes_from, routes_weighed, hesitant_since_s, hesitant_until_s);
		if (carrier < -1 || carrier >= w->agents.count || !finite_in(summons_at_s, -1.0, 1e15) || encircled < 0)
			return bad(err, p, "corps", "corps %d: carrier %d, summons at %g s, %d encircled", i, carrier, summons_at_s, encircled);
		if (besieging < -1 || besieging >= w->feature_count || (besieging >= 0 && w->fort_side[besieging] == -3) || besiegers < 0 ||
		    besiegers > w->agents.count || !finite_in(besieged_at_s, -1.0, 1e15))
			return bad(err, p, "corps", "corps %d: besieging map feature %d (not a fort of this map) with %d men since %g s", i,
				   besieging, besiegers, besieged_at_s);
		if (commander < -1 || commander >= w->agents.count || left > 1 || cut_off > 1 || !finite_in(left_at_s, -1.0, 1e15) ||
		    !finite_in(mean_threat, 0.0, 1e12) || men < 0 || active < 0 || fleeing < 0 || pursuers < 0 || home_set > 1 ||
		    !isfinite(home_x) || !isfinite(home_y) || (home_set && (!in_reach(w, home_x, 0) || !in_reach(w, home_y, 1))))
			return bad(err, p, "corps", "corps %d: commander %d, left %u at %g s, threat %g, men %d/%d, %d fleeing seen, %d pursuers",
				   i, commander, left, left_at_s, mean_threat, active, men, fleeing, pursuers);
		if (!apply) continue;
		rt_corps *c = &w->corps[i];
		c->commander = commander;
		c->left = left;
		c->left_at_s = left_at_s;
		c->mean_threat = mean_threat;
		c->men = men;
		c->active = active;
		c->fleeing_seen = fleeing;
		c->pursuers = pursuers;
		c->def.cut_off = cut_off;
		c->home_set = home_set;
		c->home_x = home_x;
		c->home_y = home_y;
		c->carrier = carrier;
		c->summons_at_s = summons_at_s;
		c->encircled = encircled;
		c->besieging = besieging;
		c->besiegers = besiegers;
		c->besieged_at_s = besieged_at_s;
		c->routes = routes;
		c->routes_known = routes_known;
		c->routes_from = routes_from;
		c->routes_weighed = routes_weighed;
		c->hesitant_until_s = hesitant_until_s;
		c->hesitant_since_s = hesitant_since_s;
	}
	return RT_OK;
}

static rt_status load_deaths(reader *r, rt_world *w, plan *p, bool apply, rt_error *err)
{
	const int32_t count = get_i32(r);
	if (r->short_read) return RT_OK;
	if (count < 0 || count > CKPT_MAX_AGENTS) return bad(err, p, "deaths", "%d deaths in mind", count);
	/* a record is 25 bytes: refuse a count the section cannot hold before making room for it */
	if ((size_t)count > (r->size - r->pos) / 25) {
		r->short_read = true;
		return RT_OK;
	}
	p->deaths = count;
	for (int i = 0; i < count; ++i) {
		const double x = get_f64(r), y = get_f64(r);
		const int64_t step = get_i64(r);
		const unsigned side = get_u8(r);
		if (r->short_read) return RT_OK;
		if (!in_reach(w, x, 0) || !in_reach(w, y, 1) || step < 0 || step > p->step || side >= RT_MAX_SIDES)
			return bad(err, p, "deaths", "death %d at (%g, %g), step %lld, side %u", i, x, y, (long long)step, side);
		if (apply) w->deaths[i] = (rt_death_event){ x, y, step, (uint8_t)side };
	}
	if (apply) w->death_count = count;
	return RT_OK;
}

static rt_status load_sense(reader *r, rt_world *w, plan *p, bool apply, rt_error *err)
{
	rt_sense_grid *g = &w->sense;
	const unsigned present = get_u8(r);
	if (r->short_read) return RT_OK;
	if (present > 1) return bad(err, p, "SENS", "sense grid flag %u", present);
	p->sense = present;
	if (!present) {
		if (apply) g->nx = g->ny = g->cells = g->sides = 0; /* no grid yet: nobody is surrounded */
		return RT_OK;
	}
	const double ox = get_f64(r), oy = get_f64(r), cell = get_f64(r), inv_cell = get_f64(r);
	const int32_t nx = get_i32(r), ny = get_i32(r), sides = get_i32(r);
	if (r->short_read) return RT_OK;
	/* the sense phase never lays cells finer than combat.sense_cell_m (at least 1 m) */
	if (!in_reach(w, ox, 0) || !in_reach(w, oy, 1) || !finite_in(cell, 1.0, 1e9) || inv_cell != 1.0 / cell ||
	    nx < 1 || ny < 1 || sides < 1 || sides > RT_MAX_SIDES || (int64_t)nx * ny > (1 << 28) ||
	    2 * (int64_t)sides * nx * ny >= INT32_MAX)
		return bad(err, p, "sense", "sense grid of %d x %d cells of %g m for %d sides", nx, ny, cell, sides);
	const size_t cells = (size_t)nx * (size_t)ny, index = (size_t)sides * cells;
	const uint8_t *start = get_array(r, index + 1, sizeof(int32_t));
	if (r->short_read) return RT_OK;
	int32_t previous = 0;
	for (size_t b = 0; b <= index; ++b) {
		const int32_t v = i32_at(start, b);
		if (v < previous || (b == 0 && v != 0) || v > w->agents.count)
			return bad(err, p, "sense.start", "sense grid index is not in order at entry %zu", b);
		previous = v;
	}
	const size_t listed = (size_t)previous;
	const uint8_t *order = get_array(r, listed, sizeof(int32_t));
	if (r->short_read) return RT_OK;
	for (size_t k = 0; k < listed; ++k) {
		const int32_t slot = i32_at(order, k);
		if (slot < 0 || slot >= w->agents.count) return bad(err, p, "sense.order", "sense grid lists slot %d", slot);
	}
	p->sense_entries = 2 * index;
	if (!apply) return RT_OK;
	g->origin_x = ox;
	g->origin_y = oy;
	g->cell = cell;
	g->inv_cell = inv_cell;
	g->nx = nx;
	g->ny = ny;
	g->cells = (int)cells;
	g->sides = sides;
	decode_array(g->start, start, index + 1, sizeof(int32_t));
	decode_array(g->order, order, listed, sizeof(int32_t));
	/* the kneeling groups are rebuilt before they are read: empty them (the local
	 * picture's table is rebuilt with them) */
	for (size_t b = index + 1; b <= 2 * index; ++b) g->start[b] = (int)listed;
	for (int group = 0; group < 2 * RT_MAX_SIDES; ++group) {
		g->box[group][0] = g->box[group][1] = INT32_MAX;
		g->box[group][2] = g->box[group][3] = -1;
	}
	return RT_OK;
}

static rt_status load_forts(reader *r, rt_world *w, plan *p, bool apply, rt_error *err)
{
	const int32_t count = get_i32(r);
	if (r->short_read) return RT_OK;
	if (count != w->feature_count) return bad(err, p, "FORT", "the fort section holds %d features, the fingerprint %d", count, w->feature_count);
	const uint8_t *sheltered = get_array(r, (size_t)count, sizeof(int32_t));
	if (r->short_read) return RT_OK;
	for (int i = 0; i < count; ++i)
		if (i32_at(sheltered, (size_t)i) < 0) return bad(err, p, "fort_sheltered", "fort %d shelters %d men", i, i32_at(sheltered, (size_t)i));
	if (apply && count > 0) decode_array(w->fort_sheltered, sheltered, (size_t)count, sizeof(int32_t));
	return RT_OK;
}

static rt_status load_weather(reader *r, rt_world *w, plan *p, bool apply, rt_error *err)
{
	const double wetness = get_f64(r), weather_time_s = get_f64(r);
	if (r->short_read) return RT_OK;
	if (!finite_in(wetness, 0.0, 1.0)) return bad(err, p, "ground_wetness", "ground wetness %g (expected 0 .. 1)", wetness);
	if (!finite_in(weather_time_s, 0.0, 1e15)) return bad(err, p, "weather_time_s", "weather brought to %g s", weather_time_s);
	if (!apply) return RT_OK;
	w->env.ground_wetness = wetness;
	w->weather_time_s = weather_time_s;
	return RT_OK;
}

static bool real32_ok(float v, double lo, double hi) { return isfinite(v) && (double)v >= lo && (double)v <= hi; }

/* Whether the caught cell is listed (cells strictly increase). */
static int caught_state(const uint8_t *cells, int32_t count, int32_t cell)
{
	int32_t lo = 0, hi = count - 1;
	while (lo <= hi) {
		const int32_t mid = lo + (hi - lo) / 2, at = i32_at(cells + 9 * (size_t)mid, 0);
		if (at == cell) return cells[9 * (size_t)mid + 4];
		if (at < cell) lo = mid + 1;
		else hi = mid - 1;
	}
	return -1;
}

static rt_status load_fire(reader *r, rt_world *w, plan *p, bool apply, rt_error *err)
{
	rt_fire *f = w->fire;
	const unsigned present = get_u8(r);
	if (r->short_read) return RT_OK;
	if (present > 1) return bad(err, p, "FIRE", "fire flag %u (expected 0 or 1)", present);
	if (present != (f != NULL)) /* the fingerprint has compared the fires set */
		return bad(err, p, "FIRE", "the fire section %s a fire, the world %s one", present ? "holds" : "has no", f ? "has" : "has no");
	if (!f) return RT_OK;
	const int32_t next_ignition = get_i32(r);
	const double next_update_s = get_f64(r);
	const int64_t hot_count = get_i64(r), burnt_count = get_i64(r);
	const int32_t count = get_i32(r);
	if (r->short_read) return RT_OK;
	if (next_ignition < 0 || next_ignition > w->ignition_count)
		return bad(err, p, "fire.next_ignition", "%d fires lit of the %d set", next_ignition, w->ignition_count);
	if (!finite_in(next_update_s, 0.0, 1e15)) return bad(err, p, "fire.next_update_s", "next fire update at %g s", next_update_s);
	if (count < 0 || (size_t)count > f->cells) return bad(err, p, "fire", "%d cells caught of the map's %zu", count, f->cells);
	const uint8_t *cells = get_array(r, (size_t)count, 9);
	if (r->short_read) return RT_OK;
	int64_t hot = 0, burnt = 0, burning = 0;
	for (int32_t i = 0; i < count; ++i) {
		const int32_t cell = i32_at(cells + 9 * (size_t)i, 0);
		const uint8_t st = cells[9 * (size_t)i + 4];
		const float t = f32_at(cells + 9 * (size_t)i + 5, 0);
		if (cell < 0 || (size_t)cell >= f->cells || (i > 0 && cell <= i32_at(cells + 9 * (size_t)(i - 1), 0)))
			return bad(err, p, "fire.cells", "caught cell %d is off the map or out of order", cell);
		if (!caught(st) || rt__fire_fuel(w, cell) <= 0.0)
			return bad(err, p, "fire.cells", "cell %d is in state %u (expected a burning, hot or burnt cell with fuel)", cell, st);
		if (!real32_ok(t, 0.0, 1e15)) return bad(err, p, "fire.cells", "cell %d caught at %g s", cell, (double)t);
		hot += st == RT_FIRE_CELL_HOT;
		burnt += st == RT_FIRE_CELL_BURNT;
		burning += st != RT_FIRE_CELL_BURNT;
	}
	if (hot != hot_count || burnt != burnt_count)
		return bad(err, p, "fire.hot_count", "%lld hot and %lld burnt cells counted, %lld and %lld listed", (long long)hot_count,
			   (long long)burnt_count, (long long)hot, (long long)burnt);
	const int32_t burning_count = get_i32(r);
	if (r->short_read) return RT_OK;
	if (burning_count != burning) return bad(err, p, "fire.burning", "%d burning cells listed, %lld caught and not burnt out", burning_count, (long long)burning);
	const uint8_t *list = get_array(r, (size_t)burning_count, 20);
	const int32_t front_count = get_i32(r);
	if (r->short_read) return RT_OK;
	if (front_count < 0 || front_count > count) return bad(err, p, "fire.front", "%d cells on the front of %d caught", front_count, count);
	const uint8_t *front = get_array(r, (size_t)front_count, sizeof(int32_t));
	int32_t box[4];
	for (int i = 0; i < 4; ++i) box[i] = get_i32(r);
	const float smoke_max = get_f32(r);
	if (r->short_read) return RT_OK;
	for (int32_t i = 0; i < burning_count; ++i) {
		const uint8_t *e = list + 20 * (size_t)i;
		const int32_t cell = i32_at(e, 0);
		const int st = caught_state(cells, count, cell);
		if (st != RT_FIRE_CELL_BURNING && st != RT_FIRE_CELL_HOT)
			return bad(err, p, "fire.burning", "burning entry %d is cell %d, which is not aflame", i, cell);
		if (!real32_ok(f32_at(e, 1), 0.0, 1e15) || !real32_ok(f32_at(e, 2), 0.0, 1e15) || !real32_ok(f32_at(e, 3), 0.0, 1e12) ||
		    !real32_ok(f32_at(e, 4), 0.0, 1e3))
			return bad(err, p, "fire.burning", "burning entry %d has a time, intensity or fuel out of range", i);
	}
	for (int32_t i = 0; i < front_count; ++i)
		if (caught_state(cells, count, i32_at(front, (size_t)i)) < 0)
			return bad(err, p, "fire.front", "front entry %d is cell %d, which has not caught", i, i32_at(front, (size_t)i));
	const bool empty = box[0] == 0 && box[1] == 0 && box[2] == -1 && box[3] == -1;
	if (!empty && !(box[0] >= 0 && box[0] <= box[2] && box[2] < f->snx && box[1] >= 0 && box[1] <= box[3] && box[3] < f->sny))
		return bad(err, p, "fire.smoke", "smoke box %d,%d .. %d,%d on a grid of %d x %d", box[0], box[1], box[2], box[3], f->snx, f->sny);
	if (!real32_ok(smoke_max, 0.0, 1e9)) return bad(err, p, "fire.smoke_max", "densest smoke %g g/m3", (double)smoke_max);
	const size_t bw = empty ? 0 : (size_t)(box[2] - box[0] + 1), bh = empty ? 0 : (size_t)(box[3] - box[1] + 1);
	const uint8_t *smoke = get_array(r, bw * bh, sizeof(float));
	if (r->short_read) return RT_OK;
	for (size_t i = 0; i < bw * bh; ++i)
		if (!real32_ok(f32_at(smoke, i), 0.0, 1e9)) return bad(err, p, "fire.smoke", "smoke %g g/m3", (double)f32_at(smoke, i));
	p->fire_burning = burning_count;
	p->fire_front = front_count;
	if (!apply) return RT_OK;
	rt__fire_reset(w);
	for (int32_t i = 0; i < count; ++i) {
		const int32_t cell = i32_at(cells + 9 * (size_t)i, 0);
		f->state[cell] = cells[9 * (size_t)i + 4];
		f->time_s[cell] = f32_at(cells + 9 * (size_t)i + 5, 0);
	}
	for (int32_t i = 0; i < burning_count; ++i) {
		const uint8_t *e = list + 20 * (size_t)i;
		f->burning[i] = (rt_fire_burning){ i32_at(e, 0), f32_at(e, 1), f32_at(e, 2), f32_at(e, 3), f32_at(e, 4) };
	}
	f->burning_count = burning_count;
	if (front_count > 0) decode_array(f->front, front, (size_t)front_count, sizeof(int32_t)); /* no list yet: front NULL */
	f->front_count = front_count;
	f->next_ignition = next_ignition;
	f->next_update_s = next_update_s;
	f->hot_count = hot_count;
	f->burnt_count = burnt_count;
	memcpy(f->box, box, sizeof box);
	f->smoke_max = smoke_max;
	for (size_t y = 0; y < bh; ++y)
		decode_array(f->smoke + ((size_t)box[1] + y) * (size_t)f->snx + (size_t)box[0], smoke + 4 * y * bw, bw, sizeof(float));
	return RT_OK;
}

/* A grid saved by put_sparse, checked; written into `out` (cleared first) when not NULL. */
static rt_status get_sparse(reader *r, plan *p, const char *field, int side, size_t cells, float *out, rt_error *err)
{
	const int32_t count = get_i32(r);
	if (r->short_read) return RT_OK;
	if (count < 0 || (size_t)count > cells) return bad(err, p, field, "side %d: %d cells of %zu", side, count, cells);
	const uint8_t *e = get_array(r, (size_t)count, 8);
	if (r->short_read) return RT_OK;
	for (int32_t i = 0; i < count; ++i) {
		const int32_t c = i32_at(e + 8 * (size_t)i, 0);
		const float v = f32_at(e + 8 * (size_t)i + 4, 0);
		if (c < 0 || (size_t)c >= cells || (i > 0 && c <= i32_at(e + 8 * (size_t)(i - 1), 0)) || !real32_ok(v, 0.0, 1e12) || v == 0.0f)
			return bad(err, p, field, "side %d: entry %d is cell %d with %g men", side, i, c, (double)v);
	}
	if (out) {
		memset(out, 0, cells * sizeof(float));
		for (int32_t i = 0; i < count; ++i) out[i32_at(e + 8 * (size_t)i, 0)] = f32_at(e + 8 * (size_t)i + 4, 0);
	}
	return RT_OK;
}

static rt_status load_flight(reader *r, rt_world *w, plan *p, bool apply, rt_error *err)
{
	const unsigned present = get_u8(r);
	if (r->short_read) return RT_OK;
	if (present > 1) return bad(err, p, "FLIT", "flight flag %u (expected 0 or 1)", present);
	if (present != (w->flights != NULL)) /* the fingerprint has compared the refuges */
		return bad(err, p, "FLIT", "the flight section %s flight fields, the world %s", present ? "holds" : "has no",
			   w->flights ? "has them" : "has none");
	if (!present) return RT_OK;
	int nx, ny;
	double cell;
	rt__known_dims(w, &nx, &ny, &cell);
	const size_t cells = (size_t)nx * (size_t)ny;
	const int32_t refuges = get_i32(r), saved_nx = get_i32(r), saved_ny = get_i32(r);
	if (r->short_read) return RT_OK;
	if (refuges != w->refuge_count || saved_nx != nx || saved_ny != ny)
		return bad(err, p, "FLIT", "%d refuges and a known-enemy grid of %d x %d cells; this world has %d and %d x %d", refuges,
			   saved_nx, saved_ny, w->refuge_count, nx, ny);
	for (int side = 0; side < RT_MAX_SIDES; ++side) {
		rt_flight *f = &w->flights[side];
		const unsigned built = get_u8(r);
		const int32_t builds = get_i32(r);
		if (r->short_read) return RT_OK;
		if (built > 1 || (built && !f->used) || builds < (int32_t)built)
			return bad(err, p, "flight.built", "side %d: built %u (%d builds), refuges %s", side, built, builds, f->used ? "yes" : "none");
		p->flight_built[side] = built;
		double built_at_s = 0.0;
		const uint8_t *open = NULL;
		if (built) {
			built_at_s = get_f64(r);
			open = get_array(r, (size_t)refuges, 1);
			const unsigned has_known = get_u8(r);
			if (r->short_read) return RT_OK;
			if (!finite_in(built_at_s, 0.0, 1e15)) return bad(err, p, "flight.built_at_s", "side %d built at %g s", side, built_at_s);
			for (int i = 0; i < refuges; ++i)
				if (open[i] > 1 || (open[i] && w->refuges[i].def.side != side))
					return bad(err, p, "flight.open", "side %d: refuge %d marked %u", side, i, open[i]);
			if (has_known != (w->flight.enemy_interval_s > 0.0))
				return bad(err, p, "flight.known", "side %d: the known enemy %s, the world's fields %s costed by him", side,
					   has_known ? "is saved" : "is not saved", w->flight.enemy_interval_s > 0.0 ? "are" : "are not");
			rt_status s;
			if (has_known && (s = get_sparse(r, p, "flight.known", side, cells, apply ? f->known : NULL, err)) != RT_OK) return s;
		}
		if (!apply) continue;
		f->built = built;
		f->builds = builds;
		f->built_at_s = built_at_s;
		f->field_stale = built;
		if (!built) {
			f->any_source = false;
			continue;
		}
		memcpy(f->open, open, (size_t)refuges);
	}
	return RT_OK;
}

static rt_status load_roads(reader *r, rt_world *w, plan *p, bool apply, rt_error *err)
{
	const unsigned present = get_u8(r);
	if (r->short_read) return RT_OK;
	if (present > 1) return bad(err, p, "ROAD", "roads flag %u (expected 0 or 1)", present);
	if (present != (w->flights != NULL)) /* the fingerprint has compared the refuges */
		return bad(err, p, "ROAD", "the roads section is %s a world with refuges, this world %s", present ? "of" : "not of",
			   w->flights ? "has them" : "has none");
	if (!present) return RT_OK;
	int nx, ny;
	double cell;
	rt__known_dims(w, &nx, &ny, &cell);
	const size_t cells = (size_t)nx * (size_t)ny;
	const int32_t saved_nx = get_i32(r), saved_ny = get_i32(r);
	if (r->short_read) return RT_OK;
	if (saved_nx != nx || saved_ny != ny)
		return bad(err, p, "ROAD", "a known-enemy grid of %d x %d cells; this world has %d x %d", saved_nx, saved_ny, nx, ny);
	rt_status s;
	for (int side = 0; side < RT_MAX_SIDES; ++side) {
		const unsigned set = get_u8(r);
		if (r->short_read) return RT_OK;
		if (set > 1) return bad(err, p, "road.memory_set", "side %d: %u (expected 0 or 1)", side, set);
		p->memory_set[side] = set;
		rt_flight *f = &w->flights[side];
		if (apply) f->memory_set = set;
		if (set && (s = get_sparse(r, p, "road.memory", side, cells, apply ? f->memory : NULL, err)) != RT_OK) return s;
	}
	const int32_t count = get_i32(r);
	if (r->short_read) return RT_OK;
	if (count < 0 || count > 2 * w->goal_count * RT_MAX_SIDES)
		return bad(err, p, "road_count", "%d roads; a world of %d goals has at most %d", count, w->goal_count,
			   2 * w->goal_count * RT_MAX_SIDES);
	p->roads = count;
	for (int i = 0; i < count; ++i) {
		const unsigned side = get_u8(r), kind = get_u8(r), idle = get_u8(r);
		const int32_t goal = get_i32(r);
		const double built_at_s = get_f64(r);
		if (r->short_read) return RT_OK;
		if (side >= RT_MAX_SIDES || kind > RT__ROAD_FIRE || idle > (kind == RT__ROAD_FIRE) || goal < 0 || goal >= w->goal_count ||
		    w->goals[goal].def.straight || !finite_in(built_at_s, 0.0, 1e15))
			return bad(err, p, "road", "road %d: side %u, kind %u, idle %u, to goal %d, built at %g s", i, side, kind, idle, goal,
				   built_at_s);
		rt_road *road = apply ? &w->roads[i] : NULL;
		if ((s = get_sparse(r, p, "road.known", (int)side, cells, road ? road->known : NULL, err)) != RT_OK) return s;
		if (!apply) continue;
		road->side = (uint8_t)side;
		road->kind = (uint8_t)kind;
		road->idle = idle != 0;
		road->goal = goal;
		road->built_at_s = built_at_s;
		road->stale = true;
	}
	if (apply) w->road_count = count;
	return RT_OK;
}

static rt_status load_boats(reader *r, rt_world *w, plan *p, bool apply, rt_error *err)
{
	const int32_t count = get_i32(r);
	if (r->short_read) return RT_OK;
	if (count != w->landing_count) return bad(err, p, "BOAT", "the boats section holds %d landings, the fingerprint %d", count, w->landing_count);
	for (int i = 0; i < count; ++i) {
		rt_landing *l = &w->landings[i];
		const int64_t carried = get_i64(r), trips = get_i64(r);
		const int32_t boats = get_i32(r);
		if (r->short_read) return RT_OK;
		if (carried < 0 || trips < 0 || boats != l->def.boats)
			return bad(err, p, "boats", "landing %d: %lld carried in %lld trips, %d boats (the world has %d)", i, (long long)carried,
				   (long long)trips, boats, l->def.boats);
		const uint8_t *back = get_array(r, (size_t)boats, 8);
		if (r->short_read) return RT_OK;
		for (int b = 0; b < boats; ++b)
			if (!finite_in(f64_at(back, (size_t)b), 0.0, 1e15)) return bad(err, p, "boats.back_s", "landing %d: boat %d back at %g s", i, b, f64_at(back, (size_t)b));
		if (!apply) continue;
		l->carried = carried;
		l->trips = trips;
		decode_array(l->back_s, back, (size_t)boats, sizeof(double));
	}
	return RT_OK;
}

static rt_status load_extra(reader *r, rt_world *w, plan *p, bool apply, rt_error *err)
{
	(void)w;
	(void)apply;
	(void)err;
	p->extra = r->p;
	p->extra_size = r->size;
	r->pos = r->size; /* the caller's, handed to its reader */
	return RT_OK;
}

/* ---- the sections, in file order ---- */
typedef void save_fn(sink *k, const save_ctx *c);

static const struct section {
	char tag[5];
	const char *what;
	save_fn *save;
	load_fn *load;
} sections[] = {
	{ "FPRT", "fingerprint", save_fingerprint, load_fingerprint },
	{ "CLCK", "clock and counters", save_clock, load_clock },
	{ "GRID", "grid layouts", save_layout, load_layout },
	{ "AGNT", "agents", save_agents, load_agents },
	{ "CORP", "corps", save_corps, load_corps },
	{ "DETH", "deaths in mind", save_deaths, load_deaths },
	{ "SENS", "sense grid", save_sense, load_sense },
	{ "FORT", "forts", save_forts, load_forts },
	{ "WTHR", "wet ground", save_weather, load_weather },
	{ "FIRE", "fire and smoke", save_fire, load_fire },
	{ "FLIT", "flight fields", save_flight, load_flight },
	{ "ROAD", "roads", save_roads, load_roads },
	{ "BOAT", "boats", save_boats, load_boats },
	{ "XTRA", "caller's data", save_extra, load_extra },
};
#define SECTION_COUNT (sizeof sections / sizeof sections[0])

static uint32_t tag_value(const char *tag) { return (uint32_t)le_at((const uint8_t *)tag, 4); }

rt_status rt_world_save_checkpoint(const rt_world *w, const char *path, rt_error *err)
{
	return rt_world_save_checkpoint_extra(w, path, NULL, 0, err);
}

rt_status rt_world_save_checkpoint_extra(const rt_world *w, const char *path, const void *extra, size_t extra_size, rt_error *err)
{
	rt__error_clear(err);
	if (!w || w->cookie != RT_COOKIE) return rt__fail(err, RT_ERR_INVALID, "not a world");
	if (!path || !*path) return rt__fail(err, RT_ERR_INVALID, "no checkpoint path given");
	if (extra_size > 0 && !extra) return rt__fail(err, RT_ERR_INVALID, "no caller's data for %zu bytes", extra_size);
	fp_list *fp = rt__alloc(&w->allocator, sizeof *fp);
	if (!fp) return rt__fail(err, RT_ERR_NOMEM, "cannot allocate the world's fingerprint");
	fingerprint(w, fp);
	if (fp->overflow) {
		rt__free(&w->allocator, fp, sizeof *fp);
		return rt__fail(err, RT_ERR_STATE, "the world's fingerprint has more than %d entries", FP_MAX);
	}
	const save_ctx ctx = { w, fp, extra, extra_size };
	/* lengths first, so the header can give the file's size */
	uint64_t length[SECTION_COUNT], total = CKPT_HEADER_BYTES + CKPT_CHECKSUM_BYTES;
	for (size_t i = 0; i < SECTION_COUNT; ++i) {
		sink count = { NULL, 0, 0 };
		sections[i].save(&count, &ctx);
		length[i] = count.bytes;
		total += CKPT_SECTION_HEADER_BYTES + length[i];
	}
	rt_atomic_file file;
	rt_status s = rt__atomic_open(&file, path, err);
	if (s != RT_OK) {
		rt__free(&w->allocator, fp, sizeof *fp);
		return s;
	}
	sink k = { &file, FNV64_START, 0 };
	put_bytes(&k, CKPT_MAGIC, 8);
	put_u32(&k, CKPT_VERSION);
	put_u32(&k, (uint32_t)SECTION_COUNT);
	put_u64(&k, total);
	for (size_t i = 0; i < SECTION_COUNT; ++i) {
		put_u32(&k, tag_value(sections[i].tag));
		put_u64(&k, length[i]);
		const uint64_t before = k.bytes;
		sections[i].save(&k, &ctx);
		RT_ASSERT(k.bytes - before == length[i]);
	}
	const uint64_t checksum = k.hash;
	put_u64(&k, checksum);
	RT_ASSERT(k.bytes == total);
	rt__free(&w->allocator, fp, sizeof *fp);
	return rt__atomic_commit(&file, err);
}

/* Makes room for what pass 2 writes: capacities grow (keeping what they hold) and the
 * grids are laid out as the saved run had them. */
static rt_status make_room(rt_world *w, const plan *p, rt_error *err)
{
	rt_status s;
	if (p->deaths > w->death_capacity) {
		const int cap = p->deaths;
		rt_death_event *d = rt__realloc(&w->allocator, w->deaths, (size_t)w->death_capacity * sizeof(rt_death_event),
						(size_t)cap * sizeof(rt_death_event));
		if (!d) return rt__fail(err, RT_ERR_NOMEM, "cannot make room for %d deaths in mind", cap);
		w->deaths = d;
		w->death_capacity = cap;
	}
	if (p->sense && (s = rt__sense_reserve(w, p->sense_entries, err)) != RT_OK) return s;
	if (p->geometry_built && (!w->geometry.built || w->geometry.reach != p->geometry_reach) &&
	    (s = rt__geometry_build_reach(w, p->geometry_reach, err)) != RT_OK)
		return s;
	if ((s = rt__grid_set_target(w, p->grid_target, err)) != RT_OK) return s;
	if ((s = rt__fire_reserve(w, p->fire_burning, p->fire_front, err)) != RT_OK) return s;
	for (int side = 0; side < RT_MAX_SIDES; ++side)
		if (p->flight_built[side] && (s = rt__flight_reserve(w, side, err)) != RT_OK) return s;
	for (int side = 0; side < RT_MAX_SIDES; ++side)
		if (p->memory_set[side] && (s = rt__memory_reserve(w, side, err)) != RT_OK) return s;
	if (p->roads > 0 && (s = rt__roads_reserve(w, p->roads, err)) != RT_OK) return s;
	return RT_OK;
}

/* Runs every section's loader over the file (pass 1: check; pass 2: write). */
static rt_status walk(const uint8_t *data, size_t size, rt_world *w, plan *p, bool apply, rt_error *err)
{
	size_t pos = CKPT_HEADER_BYTES;
	const size_t end = size - CKPT_CHECKSUM_BYTES;
	for (size_t i = 0; i < SECTION_COUNT; ++i) {
		const struct section *sec = &sections[i];
		if (end - pos < CKPT_SECTION_HEADER_BYTES)
			return bad(err, p, sec->tag, "the file ends before the %s section", sec->what);
		const uint32_t tag = (uint32_t)le_at(data + pos, 4);
		const uint64_t length = le_at(data + pos + 4, 8);
		pos += CKPT_SECTION_HEADER_BYTES;
		if (tag != tag_value(sec->tag)) {
			char seen[5];
			for (int c = 0; c < 4; ++c) seen[c] = (char)(data[pos - CKPT_SECTION_HEADER_BYTES + c] >= 32 && data[pos - CKPT_SECTION_HEADER_BYTES + c] < 127 ? data[pos - CKPT_SECTION_HEADER_BYTES + c] : '?');
			seen[4] = '\0';
			return bad(err, p, sec->tag, "section %zu is \"%s\"; expected \"%s\" (%s)", i + 1, seen, sec->tag, sec->what);
		}
		if (length > end - pos)
			return bad(err, p, sec->tag, "the %s section claims %llu bytes, %zu are left", sec->what, (unsigned long long)length, end - pos);
		reader r = { data + pos, (size_t)length, 0, false };
		rt_status s = sec->load(&r, w, p, apply, err);
		if (s != RT_OK) return s;
		if (r.short_read) return bad(err, p, sec->tag, "the %s section is shorter than its contents", sec->what);
		if (r.pos != r.size)
			return bad(err, p, sec->tag, "the %s section has %zu bytes more than its contents", sec->what, r.size - r.pos);
		pos += (size_t)length;
	}
	if (pos != end) return bad(err, p, "END", "%zu bytes follow the last section", end - pos);
	return RT_OK;
}

static rt_status parse_fail(rt_error *err, const char *path, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static rt_status parse_fail(rt_error *err, const char *path, const char *field, const char *fmt, ...)
{
	char message[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	return rt__fail_at(err, RT_ERR_PARSE, path, 0, 0, field, "%s", message);
}

rt_status rt_world_load_checkpoint(rt_world *w, const char *path, rt_error *err)
{
	return rt_world_load_checkpoint_extra(w, path, NULL, NULL, err);
}

rt_status rt_world_load_checkpoint_extra(rt_world *w, const char *path, rt_checkpoint_extra_fn *read_extra, void *context,
					 rt_error *err)
{
	rt__error_clear(err);
	if (!w || w->cookie != RT_COOKIE) return rt__fail(err, RT_ERR_INVALID, "not a world");
	if (!path || !*path) return rt__fail(err, RT_ERR_INVALID, "no checkpoint path given");
	FILE *f = fopen(path, "rb");
	if (!f) return rt__fail_at(err, RT_ERR_IO, path, 0, 0, NULL, "cannot open the checkpoint: %s", strerror(errno));
	struct stat st;
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		fclose(f);
		return rt__fail_at(err, RT_ERR_IO, path, 0, 0, NULL, "the checkpoint is not a regular file");
	}
	/* the header first: a foreign or truncated file is refused before anything is allocated */
	uint8_t head[CKPT_HEADER_BYTES];
	const size_t got = fread(head, 1, sizeof head, f);
	if (got < 8 ? memcmp(head, CKPT_MAGIC, got) != 0 || got == 0 : memcmp(head, CKPT_MAGIC, 8) != 0) {
		fclose(f);
		if (got == 0) return parse_fail(err, path, "magic", "the checkpoint is empty");
		return parse_fail(err, path, "magic", "not a rout checkpoint (it does not begin with \"" CKPT_MAGIC "\")");
	}
	if (got < CKPT_HEADER_BYTES) {
		fclose(f);
		return parse_fail(err, path, "header", "the checkpoint is truncated: %zu bytes, shorter than its %u-byte header", got,
				  CKPT_HEADER_BYTES);
	}
	const uint32_t version = (uint32_t)le_at(head + 8, 4);
	const uint64_t total = le_at(head + 16, 8);
	if (version != CKPT_VERSION) {
		fclose(f);
		return parse_fail(err, path, "version", "checkpoint format version %u; this build reads version %u", version, CKPT_VERSION);
	}
	const uint64_t actual = (uint64_t)st.st_size;
	if (actual != total) {
		fclose(f);
		if (actual < total)
			return parse_fail(err, path, "header", "the checkpoint is truncated (or its header damaged): %llu bytes of the %llu its header gives",
					  (unsigned long long)actual, (unsigned long long)total);
		return parse_fail(err, path, "header", "the checkpoint has %llu bytes, %llu more than its header gives", (unsigned long long)actual,
				  (unsigned long long)(actual - total));
	}
	if (total < CKPT_HEADER_BYTES + CKPT_CHECKSUM_BYTES || total > SIZE_MAX / 2) {
		fclose(f);
		return parse_fail(err, path, "header", "the checkpoint's header gives an impossible size of %llu bytes", (unsigned long long)total);
	}
	const size_t size = (size_t)total;
	uint8_t *data = rt__alloc(&w->allocator, size);
	if (!data) {
		fclose(f);
		return rt__fail_at(err, RT_ERR_NOMEM, path, 0, 0, NULL, "cannot allocate %zu bytes to read the checkpoint", size);
	}
	memcpy(data, head, sizeof head);
	const size_t rest = fread(data + sizeof head, 1, size - sizeof head, f);
	const bool read_error = ferror(f) != 0;
	fclose(f);
	rt_status s = RT_OK;
	plan p;
	memset(&p, 0, sizeof p);
	p.path = path;
	if (read_error || rest != size - sizeof head) {
		s = rt__fail_at(err, RT_ERR_IO, path, 0, 0, NULL, "cannot read the checkpoint (%zu of %zu bytes)", rest + sizeof head, size);
	} else if (fnv64(FNV64_START, data, size - CKPT_CHECKSUM_BYTES) != le_at(data + size - CKPT_CHECKSUM_BYTES, 8)) {
		s = parse_fail(err, path, "checksum", "the checkpoint is damaged: its checksum does not match its contents");
	} else if (le_at(data + 12, 4) != SECTION_COUNT) {
		s = rt__fail_at(err, RT_ERR_INVALID, path, 0, 0, "header", "checkpoint was made by another version of rout: %u sections, this build writes %u",
				(unsigned)le_at(data + 12, 4), (unsigned)SECTION_COUNT);
	} else if ((s = walk(data, size, w, &p, false, err)) == RT_OK && (s = make_room(w, &p, err)) == RT_OK &&
		   (!read_extra || (s = read_extra(p.extra, p.extra_size, context, err)) == RT_OK)) {
		s = walk(data, size, w, &p, true, err);
		RT_ASSERT(s == RT_OK); /* everything was checked in the first pass */
		rt__env_restore(w); /* sky, light, sea, weather and the fire's counts at the restored time */
	}
	rt__free(&w->allocator, data, size);
	return s;
}
