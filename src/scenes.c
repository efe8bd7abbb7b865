/* Test and benchmark scenes, built in one place for the tests, `rout bench` and
 * `rout demo` (Box2D's shared benchmarks idea). Each follows a published test where one
 * exists: RiMEA test 1 (corridor), RiMEA test 4 (fundamental diagram), Seyfried et al.
 * 2009 (bottleneck), RiMEA test 6 (corner). */
#include "world.h"

#include <math.h>

static const char *scene_names[RT_SCENE_COUNT] = { "corridor", "periodic", "bottleneck", "corner", "crowd" };

const char *rt_scene_name(rt_scene_kind kind)
{
	return (unsigned)kind < RT_SCENE_COUNT ? scene_names[kind] : "unknown";
}

rt_scene_kind rt_scene_from_name(const char *name)
{
	for (int k = 0; k < RT_SCENE_COUNT; ++k)
		if (strcmp(name, scene_names[k]) == 0) return (rt_scene_kind)k;
	return RT_SCENE_COUNT;
}

rt_scene_def rt_scene_def_default(rt_scene_kind kind)
{
	rt_scene_def d;
	memset(&d, 0, sizeof d);
	d.kind = kind;
	d.seed = 1;
	d.threads = 0;
	d.locomotion = rt_locomotion_params_default();
	d.allocator = rt_allocator_default();
	d.cookie = RT_COOKIE;
	switch (kind) {
	case RT_SCENE_CORRIDOR: d.agents = 1; d.length_m = 40.0; d.width_m = 2.0; d.free_speed_mps = 1.33; break;
	case RT_SCENE_PERIODIC: d.density_per_m2 = 1.0; d.length_m = 20.0; d.width_m = 5.0; break;
	case RT_SCENE_BOTTLENECK: d.agents = 300; d.width_m = 1.0; break;
	case RT_SCENE_CORNER: d.agents = 20; d.width_m = 2.0; break;
	case RT_SCENE_CROWD: d.agents = 10000; d.density_per_m2 = 2.0; d.width_m = 0.0; break;
	default: break;
	}
	return d;
}

/* Places n men on a jittered lattice filling the rectangle, heading for `goal` (or
 * along `heading` when goal is RT_NO_GOAL). */
static rt_status place_block(rt_world *w, const rt_scene_def *sd, double x0, double y0, double x1, double y1, int n,
			     rt_goal_id goal, rt_vec2 heading, rt_error *err)
{
	if (n <= 0) return RT_OK;
	double width = x1 - x0, height = y1 - y0;
	int rows = (int)fmax(1.0, round(sqrt((double)n * height / width)));
	int cols = (n + rows - 1) / rows;
	double dx = width / cols, dy = height / rows;
	double jitter = 0.15 * fmin(dx, dy);
	rt_agent_def ad = rt_agent_def_default();
	ad.goal = goal;
	ad.heading = heading;
	ad.free_speed_mps = sd->free_speed_mps;
	for (int i = 0; i < n; ++i) {
		int c = i / rows, r = i % rows;
		double jx = rt_random_uniform(sd->seed, (uint32_t)i, 0, 1) - 0.5;
		double jy = rt_random_uniform(sd->seed, (uint32_t)i, 0, 2) - 0.5;
		ad.position.x = x0 + (c + 0.5) * dx + jitter * jx;
		ad.position.y = y0 + (r + 0.5) * dy + jitter * jy;
		rt_status s = rt_world_add_agent(w, &ad, NULL, err);
		if (s != RT_OK) return s;
	}
	return RT_OK;
}

static rt_status wall(rt_world *w, double ax, double ay, double bx, double by, rt_error *err)
{
	return rt_world_add_wall(w, (rt_vec2){ ax, ay }, (rt_vec2){ bx, by }, err);
}

static rt_status goal_rect(rt_world *w, double x0, double y0, double x1, double y1, rt_arrival arrival, bool straight,
			   double cell, rt_goal_id *out, rt_error *err)
{
	rt_goal_def gd = rt_goal_def_default();
	gd.target_min = (rt_vec2){ x0, y0 };
	gd.target_max = (rt_vec2){ x1, y1 };
	gd.arrival = arrival;
	gd.straight = straight;
	gd.field_cell_m = cell;
	return rt_world_add_goal(w, &gd, out, err);
}

#define TRY(expr) do { if ((s = (expr)) != RT_OK) goto error; } while (0)

rt_world *rt_scene_create(const rt_scene_def *sd, rt_error *err)
{
	rt__error_clear(err);
	if (!sd || sd->cookie != RT_COOKIE || (unsigned)sd->kind >= RT_SCENE_COUNT) {
		rt__fail(err, RT_ERR_INVALID, "scene definition was not made by rt_scene_def_default()");
		return NULL;
	}
	if (sd->agents < 0 || sd->agents > (1 << 26) || sd->density_per_m2 < 0.0 || sd->density_per_m2 > 6.0 ||
	    sd->width_m < 0.0 || sd->length_m < 0.0 || sd->free_speed_mps < 0.0) {
		rt__fail(err, RT_ERR_INVALID, "scene: agents 0..2^26, density 0..6 /m2, sizes and speed >= 0");
		return NULL;
	}
	rt_world_def wd = rt_world_def_default();
	wd.seed = sd->seed;
	wd.threads = sd->threads;
	wd.max_period_level = sd->max_period_level;
	wd.allocator = sd->allocator;
	wd.locomotion = sd->locomotion;
	rt_world *w = NULL;
	rt_status s = RT_OK;
	rt_goal_id goal = RT_NO_GOAL;
	switch (sd->kind) {
	case RT_SCENE_CORRIDOR: {
		double len = sd->length_m, wid = sd->width_m;
		wd.bounds_min = (rt_vec2){ -1.0, -0.5 };
		wd.bounds_max = (rt_vec2){ len + 2.0, wid + 0.5 };
		if (!(w = rt_world_create(&wd, err))) return NULL;
		TRY(wall(w, -1.0, 0.0, len + 2.0, 0.0, err));
		TRY(wall(w, -1.0, wid, len + 2.0, wid, err));
		TRY(wall(w, -0.5, 0.0, -0.5, wid, err));
		TRY(goal_rect(w, len, 0.0, len + 2.0, wid, RT_ARRIVAL_STOP, false, 0.0, &goal, err));
		rt_agent_def ad = rt_agent_def_default();
		ad.goal = goal;
		ad.free_speed_mps = sd->free_speed_mps;
		for (int i = 0; i < sd->agents; ++i) {
			ad.position = (rt_vec2){ 0.0, wid * (i + 1.0) / (sd->agents + 1.0) };
			TRY(rt_world_add_agent(w, &ad, NULL, err));
		}
		break;
	}
	case RT_SCENE_PERIODIC: {
		double len = sd->length_m, wid = sd->width_m;
		wd.bounds_min = (rt_vec2){ 0.0, -0.5 };
		wd.bounds_max = (rt_vec2){ len, wid + 0.5 };
		wd.periodic_x = true;
		if (!(w = rt_world_create(&wd, err))) return NULL;
		TRY(wall(w, 0.0, 0.0, len, 0.0, err));
		TRY(wall(w, 0.0, wid, len, wid, err));
		int n = (int)lround(sd->density_per_m2 * len * wid);
		TRY(place_block(w, sd, 0.0, 0.05, len, wid - 0.05, n, RT_NO_GOAL, (rt_vec2){ 1.0, 0.0 }, err));
		break;
	}
	case RT_SCENE_BOTTLENECK: {
		double open = sd->width_m;
		wd.bounds_min = (rt_vec2){ -0.5, -0.5 };
		wd.bounds_max = (rt_vec2){ 16.5, 10.5 };
		if (!(w = rt_world_create(&wd, err))) return NULL;
		TRY(wall(w, 0.0, 0.0, 10.0, 0.0, err));
		TRY(wall(w, 0.0, 10.0, 10.0, 10.0, err));
		TRY(wall(w, 0.0, 0.0, 0.0, 10.0, err));
		TRY(wall(w, 10.0, 0.0, 10.0, 5.0 - 0.5 * open, err));
		TRY(wall(w, 10.0, 5.0 + 0.5 * open, 10.0, 10.0, err));
		TRY(goal_rect(w, 14.0, 0.0, 16.0, 10.0, RT_ARRIVAL_LEAVE, false, 0.0, &goal, err));
		/* the crowd fills the room at up to 3 /m2 from the wall with the opening back */
		double depth = fmin(9.6, (double)sd->agents / (3.0 * 9.4));
		TRY(place_block(w, sd, 9.7 - depth, 0.3, 9.7, 9.7, sd->agents, goal, (rt_vec2){ 0.0, 0.0 }, err));
		break;
	}
	case RT_SCENE_CORNER: {
		double c = sd->width_m, leg = 12.0;
		wd.bounds_min = (rt_vec2){ -0.5, -0.5 };
		wd.bounds_max = (rt_vec2){ leg + 0.5, leg + c + 0.5 };
		if (!(w = rt_world_create(&wd, err))) return NULL;
		TRY(wall(w, 0.0, 0.0, leg, 0.0, err));            /* outer bottom */
		TRY(wall(w, leg, 0.0, leg, leg + c, err));        /* outer right */
		TRY(wall(w, 0.0, c, leg - c, c, err));            /* inner top of leg 1 */
		TRY(wall(w, leg - c, c, leg - c, leg + c, err));  /* inner left of leg 2 */
		TRY(wall(w, 0.0, 0.0, 0.0, c, err));              /* start end */
		TRY(goal_rect(w, leg - c, leg, leg, leg + c, RT_ARRIVAL_LEAVE, false, 0.0, &goal, err));
		TRY(place_block(w, sd, 0.3, 0.3, fmax(1.5, fmin(leg - c - 0.5, sd->agents * 0.25)), c - 0.3, sd->agents, goal,
				(rt_vec2){ 0.0, 0.0 }, err));
		break;
	}
	case RT_SCENE_CROWD: {
		double rho = sd->density_per_m2 > 0.0 ? sd->density_per_m2 : 2.0;
		double area = (double)sd->agents / rho;
		double wid = sd->width_m > 0.0 ? sd->width_m : rt__clamp(sqrt(area / 12.5), 10.0, 200.0);
		double crowd_len = area / wid;
		double len = crowd_len * 1.5 + 30.0;
		wd.bounds_min = (rt_vec2){ -1.0, -1.0 };
		wd.bounds_max = (rt_vec2){ len + 1.0, wid + 1.0 };
		wd.agent_capacity = sd->agents > 0 ? sd->agents : 1;
		if (!(w = rt_world_create(&wd, err))) return NULL;
		TRY(wall(w, 0.0, 0.0, len, 0.0, err));
		TRY(wall(w, 0.0, wid, len, wid, err));
		TRY(wall(w, 0.0, 0.0, 0.0, wid, err));
		/* pillars beyond the crowd's start, that the flow must part round */
		for (double px = crowd_len + 10.0; px < len - 15.0; px += 25.0) {
			for (double py = wid / 6.0; py < wid; py += wid / 3.0) {
				rt_vec2 pts[4] = { { px, py - 1.0 }, { px + 2.0, py - 1.0 }, { px + 2.0, py + 1.0 }, { px, py + 1.0 } };
				TRY(rt_world_add_obstacle(w, pts, 4, err));
			}
		}
		/* a flow field round the pillars, at most ~2 million cells */
		double field_cell = fmax(0.25, sqrt((len + 2.0) * (wid + 2.0) / 2.0e6));
		TRY(goal_rect(w, len - 5.0, 0.0, len, wid, RT_ARRIVAL_LEAVE, false, field_cell, &goal, err));
		TRY(place_block(w, sd, 0.3, 0.3, crowd_len, wid - 0.3, sd->agents, goal, (rt_vec2){ 0.0, 0.0 }, err));
		break;
	}
	default:
		rt__fail(err, RT_ERR_INVALID, "unknown scene");
		return NULL;
	}
	return w;
error:
	(void)s;
	rt_world_destroy(w);
	return NULL;
}
