/* rout: a soldier-by-soldier simulator of pre-modern battles, breakouts and routs.
 *
 * This is the whole public API. Everything creatable has a definition struct and a
 * function that fills its defaults (rt_world_def_default, rt_agent_def_default, ...).
 * Failures return an rt_status and fill a caller-owned rt_error; the library never
 * exits and never prints. All memory goes through the rt_allocator given in the world
 * definition. Results are pulled after a step and stay valid until the next step.
 */
#ifndef ROUT_H
#define ROUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RT_VERSION_STRING "0.1.0"

/* ---- errors ------------------------------------------------------------------ */
typedef enum rt_status {
	RT_OK = 0,
	RT_ERR_NOMEM,    /* the allocator refused */
	RT_ERR_INVALID,  /* a definition or argument is out of range */
	RT_ERR_CAPACITY, /* a documented limit would be exceeded */
	RT_ERR_IO,       /* a file could not be read or written */
	RT_ERR_PARSE,    /* a file is malformed (file, line, column are set) */
	RT_ERR_STATE     /* the call does not fit the object's state */
} rt_status;

typedef struct rt_error {
	rt_status code;
	char file[256];    /* input file the error is about, or "" */
	int line, column;  /* 1-based; 0 when not applicable */
	char field[128];   /* key path or field name, or "" */
	char message[512]; /* what was wrong and what was expected */
} rt_error;

const char *rt_status_name(rt_status status);

/* ---- memory -------------------------------------------------------------------- */
/* One replaceable allocator. `free` receives the size given to `alloc`, so a tracking
 * allocator needs no headers. `alloc` returns NULL to refuse. */
typedef struct rt_allocator {
	void *(*alloc)(size_t size, void *context);
	void (*free)(void *pointer, size_t size, void *context);
	void *context;
} rt_allocator;

/* The default allocator (malloc/free). */
rt_allocator rt_allocator_default(void);

/* ---- small types ----------------------------------------------------------------- */
typedef struct rt_vec2 {
	double x, y;
} rt_vec2;

typedef uint32_t rt_agent_id; /* stable for the life of the world, assigned 0, 1, 2 ... */
typedef int32_t rt_goal_id;

#define RT_NO_GOAL ((rt_goal_id)-1)

typedef enum rt_kind {
	RT_KIND_FOOT = 0, /* spear or sword infantry */
	RT_KIND_ARCHER,
	RT_KIND_GUNNER,   /* matchlock */
	RT_KIND_CREW,     /* wagon or cannon crew */
	RT_KIND_HORSE,    /* a rider with his horse */
	RT_KIND_HORSE_ARCHER,
	RT_KIND_COMMANDER,
	RT_KIND_GUARD,    /* a commander's personal guard (jiading) */
	RT_KIND_COUNT
} rt_kind;

typedef enum rt_state {
	RT_STATE_FORMED = 0,
	RT_STATE_MARCHING,
	RT_STATE_ENGAGED,
	RT_STATE_ROUTING,
	RT_STATE_DESPERATE,
	RT_STATE_SURRENDERED,
	RT_STATE_CAPTURED,
	RT_STATE_SHELTERED,
	RT_STATE_ESCAPED,
	RT_STATE_DEAD_COMBAT,
	RT_STATE_DEAD_TRAMPLED,
	RT_STATE_DEAD_DROWNED,
	RT_STATE_DEAD_BURNED,  /* caught in a grass fire (E4) */
	RT_STATE_COUNT
} rt_state;

/* True for states in which a man still occupies ground and takes part in the step. */
bool rt_state_is_active(rt_state state);
const char *rt_state_name(rt_state state);
const char *rt_kind_name(rt_kind kind);

typedef enum rt_experience {
	RT_EXPERIENCE_GREEN = 0, /* never faced the enemy (M1: "a band of peacetime soldiers") */
	RT_EXPERIENCE_TRAINED,
	RT_EXPERIENCE_VETERAN,
	RT_EXPERIENCE_COUNT
} rt_experience;

/* Equipment carried, a bit set. */
enum {
	RT_EQUIP_WEAPON = 1u << 0,
	RT_EQUIP_ARMOUR = 1u << 1,
	RT_EQUIP_TORCH = 1u << 2,
	RT_EQUIP_MISSILE = 1u << 3,
	RT_EQUIP_CANNON = 1u << 4  /* the man (of a crew) is a gun with its crew (docs/model.md section 8) */
};

/* ---- locomotion parameters ------------------------------------------------------- */
/* The collision-free speed model (Tordeux, Chraibi, Seyfried 2016). Units in names;
 * sources in docs/model.md. */
typedef struct rt_locomotion_params {
	double time_gap_s;            /* T: speed = min(v0, spacing / T) */
	double neighbor_strength;     /* a: repulsion weight, dimensionless */
	double neighbor_range_m;      /* D: repulsion decay length */
	double wall_strength;         /* a_w */
	double wall_range_m;          /* D_w */
	double wall_clearance_factor; /* a centre never comes nearer a wall than this x radius */
	double push_gain;             /* k: time gap T / (1 + k push) when pushed from behind */
	double push_max_factor;       /* the time gap shrinks by at most this factor */
	double dark_pace_factor;      /* E1: free speed in full darkness, share of the day's (1: darkness does not slow) */
} rt_locomotion_params;

rt_locomotion_params rt_locomotion_params_default(void);

/* What a man of each kind is like unless his definition says otherwise: body, speed,
 * weapons. Sources in docs/model.md. */
typedef struct rt_kind_params {
	double radius_m;
	double free_speed_mps;
	double melee_reach_m;       /* how far past body contact he can strike */
	double melee_rate_per_s;    /* blows a second that could tell */
	double melee_hit_prob;      /* chance a blow disables an unarmoured man */
	double missile_range_m;     /* 0: no missile weapon */
	double missile_rate_per_s;  /* aimed shots a second */
	double missile_hit_prob;    /* chance an aimed shot disables an unarmoured man */
	int ammunition;             /* shots carried */
} rt_kind_params;

rt_kind_params rt_kind_params_default(rt_kind kind);

/* Sensing and fighting, world-wide (docs/model.md). */
typedef struct rt_combat_params {
	double sense_range_m;       /* how far a man looks for the nearest enemy (daylight) */
	double sense_cell_m;        /* cell of the coarse grid used to find enemies */
	double armour_protection;   /* armour turns this share of otherwise disabling hits */
	double advance_range_m;     /* an advancing man closes with enemies nearer than this */
	double collect_range_m;     /* with none to fight, he goes back this far for kneeling men (C5) */
	double contain_distance_m;  /* a containing man keeps this far from the nearest enemy (M7: 500 paces) */
	double contain_watch_m;     /* a containing man watches the enemy he contains this far (light and smoke permitting) */
	double desperate_factor;    /* a desperate man's blows tell this much more often (M7) */
	double cover;               /* share of missiles stopped by a wall or wagon between shooter and target (M5) */
	double facing_speed_mps;    /* a man moving faster than this faces where he goes (else he turns to his enemy) */
	double rear_hit_factor;     /* blows and shots at a man with his back to the attacker tell this many times more often */
	/* cannon: a gun served by its crew (an agent with RT_EQUIP_CANNON) */
	double cannon_range_m;            /* roundshot reaches this far */
	double cannon_reload_s;           /* between two shots of one gun */
	double cannon_rounds;             /* rounds carried per gun */
	double cannon_aim_error_deg;      /* the ball's line is off the aim by up to +- this */
	double cannon_ball_hit_prob;      /* a man whose body the ball crosses is disabled with this chance */
	double cannon_ball_men;           /* the ball stops after crossing this many men */
	double canister_range_m;          /* nearer than this the gun fires canister instead */
	double canister_half_angle_deg;   /* canister spreads in a cone of this half-angle */
	double canister_balls;            /* balls in one canister */
	double canister_ball_hit_prob;    /* a canister ball that strikes a man disables him with this chance */
	double cannon_shock_radius_m;     /* men this near a shot's path are shaken ... */
	double cannon_morale_shock;       /* ... losing this much morale */
	/* the charge: riders coming into contact at speed */
	double charge_pace_factor;        /* an advancing rider this near his enemy ... */
	double charge_run_up_m;           /* ... rides at charge_pace_factor x his free speed */
	double charge_walk_mps;           /* impetus at or below this: no shock */
	double charge_full_mps;           /* impetus at or above this: full shock */
	double charge_memory_s;           /* a rider's impetus fades with this time constant */
	double charge_hit_prob;           /* the first blow of a full charge disables with this chance */
	double charge_morale_shock;       /* the man charged and those beside him lose this much morale (full charge) */
	double charge_shock_radius_m;     /* ... those within this of him */
	double charge_formed_factor;      /* against formed foot the charge tells this much */
	double withdraw_face_m;           /* a man withdrawing in order faces an enemy this near (M5) */
} rt_combat_params;

rt_combat_params rt_combat_params_default(void);

/* Morale (docs/model.md section 9). */
typedef struct rt_morale_params {
	double baseline[RT_EXPERIENCE_COUNT];    /* morale a man returns to when nothing presses him */
	double sensitivity[RT_EXPERIENCE_COUNT]; /* multiplies every loss of morale */
	double baseline_spread;                  /* each man's baseline differs by up to +- this */
	double recovery_time_s;                  /* relaxation time toward the baseline */
	double view_radius_m;                    /* how far round him a man takes in friends and foes */
	double threat_rate_per_s;                /* loss a second per unit of threat (enemy per friend) */
	double horse_threat_weight;              /* a rider counts as this many men on foot */
	double contagion_rate_per_s;             /* loss a second when every friend in view is routing */
	double death_shock;                      /* loss per friend seen falling nearby */
	double death_memory_s;                   /* how long a death stays in mind */
	double rout_threshold;                   /* below this he routs */
	double rally_threshold;                  /* above this, with no enemy near, he rallies */
	double rally_enemy_distance_m;           /* "no enemy near" */
	double flight_speed_factor;              /* a routing man runs at this x his free speed */
	double drop_armour_prob;                 /* chance a man who routs throws off his armour (C3) */
	double drop_weapon_prob;                 /* ... and his weapon */
	double kneel_distance_m;                 /* a routing man this near an enemy may kneel (C5) */
	double kneel_rate_per_s;                 /* ... at this rate */
	double capture_distance_m;               /* a kneeling man is taken by an enemy this near who is not fighting */
	double hunger_baseline_loss;             /* M9: a starving corps' (hunger 1) baseline is this much lower */
	double darkness_loss_factor;             /* E1: every loss of morale is (1 + this) times larger in full darkness */
	double rear_threat_factor;               /* threat counts (1 + this) times when his nearest enemy is behind him */
	double dark_kneel_factor;                /* C5/E1: in full darkness a caught man kneels at this share of the day's rate */
	double leader_reach_m;                   /* M3/M4: a man marching off after his commander left keeps his ranks while
						  * the commander is within this distance of him */
	double leaderless_baseline_loss;         /* ... beyond it (or with him fallen, taken or within walls) his baseline
						  * is this much lower (0: no such effect) */
	double barred_range_m;                   /* E5/C2: a man on foot in flight stops when he sees, this far ahead on
						  * his way (and in the light), the enemy standing across it (0: he runs on) */
	double barred_cell_m;                    /* ... his way is a lane this wide, looked along cell by cell */
	double barred_men;                       /* ... and a cell of it with this many enemy (a rider counts
						  * horse_threat_weight) bars it */
	double halted_ahead_radii;               /* ... and he stands behind a man of his side in flight who stands,
						  * within 2 of his radii of the point this many radii ahead (0: off) */
	double flight_pace_spread;               /* each man in flight runs at his own pace: 1 + this x z times the
						  * run, z a standard normal drawn once for him, held within +-3
						  * (0: all alike) */
	double fire_fear_rate_per_s;             /* E4: loss a second when all he sees round him (view_radius_m) is in
						  * flames that stop men; with it on, men who see such flames give
						  * ground from them and the broken run from them, and they see the
						  * line of flames at the fire's edge where its cells have burnt out
						  * before the next catch (0: fire frightens and turns no one) */
	double fire_sight_m;                     /* E4: how far off, m, a man who fears fire (fire_fear_rate_per_s > 0)
						  * sees flames that stop men and gives ground from them, beyond
						  * view_radius_m too; the fear itself comes only of the flames
						  * within view_radius_m (0: he sees only those) */
	double fire_path_deg;                    /* E4: a man who fears fire and sees the flames lie within this angle,
						  * degrees, of straight upwind of him stands in a head fire's path:
						  * unless he is outrunning the head, he makes his way out of it
						  * across the wind (45 deg off it), broken or not, to the side he
						  * is going or else the side the flames lie less on, rather than
						  * straight away from them (0: straight away; at most 90) */
} rt_morale_params;

rt_morale_params rt_morale_params_default(void);

/* Commanders (docs/model.md section 10): when a commander leaves without orders. */
typedef struct rt_command_params {
	double decision_interval_s;   /* commanders weigh leaving this often */
	double base_hazard_per_h;     /* the rate of leaving of a commander with nothing pressing him */
	double courage_weight;        /* log-hazard falls by this per unit of courage */
	double pressure_weight;       /* ... rises by this per unit of threat: his corps' mean threat, or the odds he sees coming on (watch_m), the greater */
	double hunger_weight;         /* ... per unit of hunger (M9) */
	double cut_off_weight;        /* ... when cut off from headquarters (M3) */
	double peer_weight;           /* ... per peer of his side already gone (M2: blame is shared) */
	double watch_m;               /* Q7: he sees the enemy bearing down on his corps this far from its
				       * men (no farther than the light lets a man be seen; 0: only the
				       * threat his men feel counts) */
	double leave_morale_shock;    /* his men lose this much morale when he goes */
	/* personal guards (M8) and carrying a commander (C6) */
	double guard_distance_m;      /* a guard keeps this gap from his commander's body */
	double guard_engage_m;        /* an enemy this near the commander is attacked by his guards */
	double guard_follow_s;        /* a guard closes the distance to his station in about this time */
	double guard_loss_factor;     /* a guard bound to his commander loses morale at this x the rate */
	double wound_share;           /* share of disabling hits on a commander that wound, not kill */
	double wounded_speed_factor;  /* a wounded or exhausted commander alone moves at this x his pace */
	double carry_speed_factor;    /* a guard carrying him moves at this x his running pace */
	double carry_pickup_m;        /* a guard this near (body gap) takes him up */
	double carry_touch_m;         /* within this gap (bodies) the guard has him up and carries him */
	double rearguard_cover_m;     /* M6: a rearguard fights on until its commander is this far off */
	double column_lead_m;         /* a commander marching on an order waits when the nearest of his men
				       * marching with him is farther than this (0: never waits) */
	double hearing_m;             /* Q7, E1: a pursuing corps hears men in flight on the move this far
				       * from its men, whatever the light (no farther than the combat
				       * sense_range_m, the day's sight; 0: only what is seen) */
	double besiege_m;             /* Q9: pursuers who followed the fleeing to the walls of their fort
				       * ring it this far beyond its walls (0: they do not besiege) */
	double pursuit_pace_factor;   /* Q2: a rider sent after a man in flight rides at this x his
				       * free speed (default 1, the trot; 1.6 the charge's gallop: docs/model.md section 10) */
	double hesitation_s_per_bit;  /* Q8: when the flight a pursuing corps knows of splits into more routes
				       * than it has decided over, it sends no more men for this x log2(routes
				       * now / routes decided) seconds (Hick-Hyman: docs/model.md section 10;
				       * 0: never hesitates) */
	double route_cell_m;          /* Q8: men in flight in the same or touching cells of this size are of one route */
	double route_share;           /* Q8: a group of them is a route when it holds at least this share of
				       * the men in flight the corps knows of (0.01..1: at most 100 routes) */
	double route_men;             /* Q8: and at least this many men (agents; a scenario gives men and
				       * divides by its scale): a smaller band is stragglers (0: no least size) */
	/* the summons to surrender (M7) */
	double summons_hold_tolerance; /* the ring holds when its men keep the contain distance within this share */
	double summons_morale;        /* encircled men below this morale may surrender */
	double summons_rate_per_h;    /* their base rate of surrender once summoned */
	double summons_hunger_weight; /* log-rate per unit of hunger */
	double summons_time_weight_per_h; /* log-rate per hour since the summons */
	double summons_gone_weight;   /* log-rate when their own commander is gone */
	double summons_desperate_factor; /* a desperate man surrenders at this x the rate */
} rt_command_params;

rt_command_params rt_command_params_default(void);

/* Crowd crush and trampling (docs/model.md section 13, C2). A man on foot pressed by
 * the crowd (held to less than held_speed_share of the pace he wants) in a crowd
 * denser than density_onset_per_m2 and moving unevenly (the crowd pressure of Helbing,
 * Johansson and Al-Abideen 2007) may be knocked down; a man down is walked over by the
 * men and horses round him and may be trampled to death, or get up when no one stands
 * on him. */
typedef struct rt_crush_params {
	double density_radius_m;         /* R: radius of the Gaussian that measures local density (0.7 m) */
	double held_speed_share;         /* pressed: the crowd holds him to less than this share of his pace */
	double density_onset_per_m2;     /* no falls below this local density (men per m2) */
	double density_critical_per_m2;  /* the fall rate is full from this density */
	double pressure_critical_per_s2; /* crowd pressure (density x velocity variance) of turbulence */
	double fall_rate_per_s;          /* falls a second at critical density under high pressure */
	double fatigue_fall_factor;      /* a spent man (fatigue 1) falls (1 + this) times as often */
	double darkness_fall_factor;     /* ... in full darkness */
	double mud_fall_factor;          /* ... per unit of speed lost to mud */
	double trample_rate_per_s;       /* deaths a second of a man down, walked over at walk_speed_mps by one man */
	double pile_rate_per_s;          /* ... stood on by one man */
	double push_max_factor;          /* the push factor (push / walk_speed_mps - 1) is capped at this */
	double rider_mass_factor;        /* a horse and its rider weigh this many men */
	double walk_speed_mps;           /* the reference walking speed of trample_rate_per_s */
	double rise_rate_per_s;          /* a man down with no one on him gets up at this rate */
} rt_crush_params;

rt_crush_params rt_crush_params_default(void);

/* Horse stamina (docs/model.md section 15, C4). A horse going faster than the pace it can
 * keep all day tires, in proportion to the excess; slower, it recovers. Its rider's pace is
 * his free speed x (1 - speed_loss x horse_fatigue). */
typedef struct rt_stamina_params {
	double sustained_speed_mps;  /* v_s: the pace kept all day (walk and trot alternated) */
	double reference_speed_mps;  /* v_r: the trot */
	double tire_time_s;          /* at v_r, horse_fatigue rises by 1 in this time */
	double rest_time_s;          /* standing, horse_fatigue falls by a factor e in this time */
	double speed_loss;           /* a spent horse (fatigue 1) loses this share of its pace */
	/* A man's own legs (C4, C5: "很多明军跑不动"): the same law for the fatigue of a man on
	 * foot, with his own paces. A man given fatigue 1 (an input: spent, C6) stays spent. */
	double foot_sustained_speed_mps; /* the walk, kept all day */
	double foot_reference_speed_mps; /* the run */
	double foot_tire_time_s;         /* at the run, fatigue rises by 1 in this time */
	double foot_rest_time_s;         /* standing, fatigue falls by a factor e in this time */
	double foot_speed_loss;          /* a spent man (fatigue 1) loses this share of his pace */
} rt_stamina_params;

rt_stamina_params rt_stamina_params_default(void);

/* Lights in the dark (docs/model.md section 15, E2). At night a man on the march or in
 * flight who sees torches on his way that he cannot identify (farther than the
 * identification range, within min(sense_range_m, torch detection range)) that are not of
 * his own unit or corps and are not moving away takes them for the enemy: each (up to
 * max_lights) counts as threat_weight enemy men in his threat, and a routing man runs from
 * the nearest. */
typedef struct rt_torch_params {
	double threat_weight;        /* enemy men a light is taken for */
	double ahead_half_angle_deg; /* "on his way": within this angle of where he is going */
	double receding_speed_mps;   /* a light moving away faster than this is a column going on */
	double max_lights;           /* he takes in this many lights at most (the nearest first) */
} rt_torch_params;

rt_torch_params rt_torch_params_default(void);

/* ---- world ------------------------------------------------------------------------- */
typedef struct rt_world rt_world;

typedef struct rt_world_def {
	uint64_t seed;
	double dt_s;              /* finest step; the ladder is dt_s * 2^k */
	int max_period_level;     /* agents may be updated every 2^k steps, k <= this (0..7) */
	int threads;              /* OpenMP threads for parallel phases; 0 = all cores */
	rt_vec2 bounds_min, bounds_max; /* the world rectangle, metres */
	bool periodic_x;          /* wrap x at the bounds (test corridors) */
	double cell_size_m;       /* neighbour grid cell; 0 = derived from the model */
	int reorder_every_steps;  /* re-sort agent storage by cell this often; 0 = never */
	int agent_capacity;       /* initial capacity; grows as agents are added */
	rt_locomotion_params locomotion;
	rt_combat_params combat;
	rt_morale_params morale;
	rt_command_params command;
	rt_crush_params crush;
	rt_stamina_params stamina;
	rt_torch_params torch;
	rt_kind_params kinds[RT_KIND_COUNT]; /* per kind: body, speed, weapons */
	rt_allocator allocator;
	uint32_t cookie;          /* set by rt_world_def_default; detects a def not built by it */
} rt_world_def;

rt_world_def rt_world_def_default(void);
rt_world *rt_world_create(const rt_world_def *def, rt_error *err);
void rt_world_destroy(rt_world *world);

/* Geometry. Walls are line segments; obstacles are closed polygons (their edges become
 * walls and their inside is forbidden). Add geometry before the first step. */
rt_status rt_world_add_wall(rt_world *world, rt_vec2 a, rt_vec2 b, rt_error *err);
rt_status rt_world_add_obstacle(rt_world *world, const rt_vec2 *points, int count, rt_error *err);

/* Goals. A goal is a target area (a rectangle); agents heading there follow a flow
 * field computed by fast marching over the world's geometry, so they go round
 * corners and obstacles. On arrival they stop, or leave the field (state ESCAPED). */
typedef enum rt_arrival {
	RT_ARRIVAL_STOP = 0,  /* stand still inside the target */
	RT_ARRIVAL_LEAVE      /* leave the simulation as ESCAPED */
} rt_arrival;

typedef struct rt_goal_def {
	rt_vec2 target_min, target_max; /* target rectangle */
	rt_arrival arrival;
	double field_cell_m;            /* flow-field resolution; 0 = default 0.25 m */
	bool straight;                  /* ignore geometry: head straight for the target */
	uint32_t cookie;
} rt_goal_def;

rt_goal_def rt_goal_def_default(void);
rt_status rt_world_add_goal(rt_world *world, const rt_goal_def *def, rt_goal_id *out, rt_error *err);

/* Agents. */
/* What a man does about the enemy while no order says otherwise (the command layer
 * sets stances from orders). */
typedef enum rt_stance {
	RT_STANCE_HOLD = 0, /* keep his place; strike whoever comes in reach, shoot whoever is in range */
	RT_STANCE_ADVANCE,  /* close with the nearest enemy he senses and fight */
	RT_STANCE_CONTAIN,  /* keep contain_distance_m from the nearest enemy; strike no one (M7) */
	RT_STANCE_GUARD,    /* keep by his corps' commander, screen him, fight who closes on him (M8) */
	RT_STANCE_CARRIED,  /* a wounded commander: carried by a guard, or limping (C6); set by the world */
	RT_STANCE_REARGUARD, /* turn on the enemies closing on his corps' commander until he is
	                        rearguard_cover_m off, then follow him to his refuge (M6) */
	RT_STANCE_WITHDRAW,  /* go to his goal giving ground in order: with an enemy within
	                        withdraw_face_m he steps back no faster than facing_speed_mps, his
	                        face to the enemy; he strikes who comes in reach, is not in flight
	                        in a pursuer's eyes, and on foot blunts a charge as formed foot (M5) */
	RT_STANCE_HUNT      /* ride (or run) after one man of the enemy, his quarry, wherever he goes
	                        while he is at large: straight at him while he is seen, else toward
	                        where he was last known; he strikes who comes in reach on the way
	                        and is sent after no one else (Q10). Given by rt_world_set_agent_hunt;
	                        the command layer ends the hunt when the quarry falls, is taken or
	                        gets away (the hunter advances then) */
} rt_stance;

typedef struct rt_agent_def {
	rt_vec2 position;
	rt_vec2 velocity;
	rt_kind kind;
	rt_state state;
	uint8_t side;
	uint32_t unit;
	rt_goal_id goal;        /* RT_NO_GOAL: stand */
	rt_vec2 heading;        /* used when goal is RT_NO_GOAL and heading is non-zero: walk this way */
	double radius_m;        /* 0 = the kind's default */
	double free_speed_mps;  /* 0 = the kind's default */
	float health;           /* 0..1 */
	float morale;           /* 0..1 */
	float fatigue;          /* 0..1: his own legs (a man on foot tires and recovers, docs/model.md section 15; 1: spent, stays so) */
	float horse_fatigue;    /* 0..1; must be 0 for a man who does not ride */
	uint8_t equipment;      /* RT_EQUIP_* bits */
	rt_stance stance;
	int ammunition;         /* -1 = the kind's default */
	rt_experience experience;
	rt_goal_id flee_goal;   /* where he runs when he routs; RT_NO_GOAL: away from the enemy */
	int32_t corps;          /* his corps (rt_world_add_corps), or -1 */
	/* He rides (docs/model.md section 10b): false = as his kind (a man of kind horse or
	 * horse archer rides, any other walks); true = he rides whatever his kind (a general
	 * on his horse: RT_KIND_COMMANDER, mounted). A man who rides is a rider to every rule
	 * about the horse under him: the charge (gallop and first blow), his horse's stamina
	 * (horse_fatigue), the crush (he is not knocked down and weighs rider_mass_factor),
	 * the depth of water he drowns in, the enemy's threat weight and flight costs
	 * (horse_threat_weight), and the horses lost and taken of a scenario's report. His
	 * kind keeps its weapons (reach, blows, missiles). A mounted man of a kind that does
	 * not ride takes, where radius_m and free_speed_mps are 0, the horse kind's body and
	 * pace. Setting it for a horse or horse archer changes nothing. */
	bool mounted;
	/* With stance contain: he keeps his ground (stands, or goes to his goal and stands
	 * there) instead of keeping contain_distance_m from the enemy, and is not of the ring
	 * whose distance the summons judges (M7, docs/model.md section 8). The scenario layer
	 * sets it for men a contain order finds holding ground. Refused with another stance. */
	bool keeps_ground;
	uint32_t cookie;
} rt_agent_def;

rt_agent_def rt_agent_def_default(void);
rt_status rt_world_add_agent(rt_world *world, const rt_agent_def *def, rt_agent_id *out, rt_error *err);

/* Corps: the men of one commander. The commander is a man of the corps (usually of
 * kind RT_KIND_COMMANDER) named after he is added. */
typedef int32_t rt_corps_id;

typedef struct rt_corps_def {
	uint8_t side;
	/* M2: his grade among the generals under the same superior (0, the default, for all
	 * alike): only generals of one rank are peers and share the blame of flight; a deputy
	 * is not excused by the flight of the generals of a higher grade beside him, nor they
	 * by his. Any number 0..255; only equality counts. */
	uint8_t rank;
	/* M2: the corps whose commander this one answers to (added before it, same side), or
	 * -1 (the default): his peers, whose leaving shares the blame of his own, are the
	 * other corps of his side under the same superior (with -1: the others with none)
	 * and of the same rank */
	rt_corps_id superior;
	const char *name;        /* copied; for reports */
	double courage;          /* 0 craven .. 1 steadfast */
	double hunger;           /* 0 fed .. 1 starving (M9) */
	bool cut_off;            /* cut off from headquarters (M3) */
	rt_goal_id refuge;       /* where he goes if he leaves; RT_NO_GOAL: he cannot leave */
	/* where his men (all but him, his guards and his rearguard) march when he leaves, and
	 * run when they break: RT_NO_GOAL (the default) for his refuge, he leads them there;
	 * another place when he abandons them (seed 003: 五镇总兵弃了本部人马均向杏山逃窜) */
	rt_goal_id ranks_refuge;
	/* pursuit doctrine (Q2): for every enemy seen fleeing, send this many men after
	 * them (0: this corps does not pursue); when all_out_threshold or more flee, send
	 * everyone (0: never) */
	double pursue_ratio;
	int all_out_threshold;
	/* Q2 "as far as Tashan": pursuers go no farther than the line through this point,
	 * square to the way from the corps' post (where its men stood at its first decision) */
	bool pursue_limited;
	rt_vec2 pursue_limit;
	/* M7: once the corps' containing ring holds, its commander summons the encircled to
	 * surrender */
	bool summon;
	/* C5: the share of the kneeling men his men take prisoner when they come to them;
	 * the others they cut down (1: all are taken) */
	double quarter;
	/* Q7: its men's places at the start are known to the other sides (seen before the
	 * run began: the lines they held by day). A commander of another side who leaves
	 * picks his road round them (M3) until his side's men see the place again. */
	bool known;
	uint32_t cookie;
} rt_corps_def;

rt_corps_def rt_corps_def_default(void);
rt_status rt_world_add_corps(rt_world *world, const rt_corps_def *def, rt_corps_id *out, rt_error *err);
rt_status rt_world_set_corps_commander(rt_world *world, rt_corps_id corps, rt_agent_id commander, rt_error *err);
rt_status rt_world_set_corps_cut_off(rt_world *world, rt_corps_id corps, bool cut_off, rt_error *err);

typedef struct rt_corps_view {
	rt_corps_id id;
	uint8_t side;
	const char *name;
	int32_t commander;       /* agent id, -1 none */
	bool left;               /* the commander left without orders */
	double left_at_s;        /* when (simulated seconds), or -1 */
	int men, active;         /* men of the corps; still taking part */
	double mean_threat;      /* at his last decision */
	int fleeing_seen;        /* enemies known fleeing (seen, or heard in the dark) at the last decision */
	int pursuers;            /* men sent after them */
	int32_t carrier;         /* C6: id of the guard carrying the commander, -1 none */
	bool summon;             /* M7: the corps summons the men its ring holds (rt_corps_def.summon) */
	double summons_at_s;     /* M7: when the commander summoned the encircled to surrender, -1 not yet */
	int encircled;           /* men inside his ring at the last decision */
	int besieging;           /* Q9: the map feature index of the fort it besieges, -1 none */
	int besiegers;           /* its men on the ring round that fort (sent after a sortie or not) */
	double besieged_at_s;    /* when it began to besiege that fort (simulated seconds), -1 never */
	int routes;              /* Q8: the routes the flight it knows of runs by, at the last decision */
	double hesitant_until_s; /* Q8: its pursuit hesitates over them until then (simulated seconds), -1 not */
} rt_corps_view;

int rt_world_corps_count(const rt_world *world);
bool rt_world_get_corps(const rt_world *world, rt_corps_id corps, rt_corps_view *out);

/* One step of dt_s through the phases env, grid, sense, command, morale, decide, move,
 * fight, resolve, record (DESIGN.md). */
rt_status rt_world_step(rt_world *world, rt_error *err);

/* ---- reading the world --------------------------------------------------------------- */
typedef struct rt_agent_view {
	rt_agent_id id;
	rt_vec2 position, velocity;
	rt_kind kind;
	rt_state state;
	uint8_t side;
	uint32_t unit;
	rt_goal_id goal;
	double radius_m, free_speed_mps;
	float health, morale, fatigue, horse_fatigue;
	uint8_t equipment;
	int period_level;
	rt_stance stance;
	int ammunition;
	int32_t enemy;          /* id of the nearest enemy sensed at the last step, -1 none */
	double enemy_distance_m;
	rt_experience experience;
	float morale_baseline;  /* what his morale returns to when nothing presses him */
	float threat;           /* enemy strength near him per friend near him */
	float routing_share;    /* share of the friends near him who are routing */
	bool fallen;            /* down in the crush (C2) */
	int32_t alarm;          /* id of the man whose torch he takes for the enemy (E2), -1 none */
	bool mounted;           /* he rides (his kind's, or rt_agent_def.mounted) */
	bool keeps_ground;      /* of stance contain, he keeps the ground he held when the order came
	                           (the scenario layer's halt, M7): he stands, or goes on to the place
	                           he was sent to, and is not of the ring that keeps its distance */
	bool posted;            /* his order gave him a post in its place (rt_world_set_agent_post) */
	rt_vec2 post;           /* that post, m ((0, 0) when he has none) */
	int32_t quarry;         /* Q2: id of the man in flight his corps' pursuit sent him after at its
	                           last round; stance hunt: the man he hunts (Q10); -1 none */
} rt_agent_view;

int rt_world_agent_count(const rt_world *world);
bool rt_world_get_agent(const rt_world *world, rt_agent_id id, rt_agent_view *out);
rt_status rt_world_set_agent_goal(rt_world *world, rt_agent_id id, rt_goal_id goal, rt_error *err);
/* His post in the place his goal sends him to (E5, "散布在河滩上": a unit spread over a
 * bank or a ford): he follows the goal's field until he is inside its target, then walks
 * straight to the post and stands on it, where without one he stops where he enters the
 * target. The post must lie inside the target of his goal; a new goal clears it. */
rt_status rt_world_set_agent_post(rt_world *world, rt_agent_id id, rt_vec2 post, rt_error *err);
rt_status rt_world_set_agent_state(rt_world *world, rt_agent_id id, rt_state state, rt_error *err);
/* Sends him after one man of another side (stance hunt, Q10: "多尔衮恨不得亲手擒住张春"):
 * his goal is cleared and the hunt is his order (he comes back to it after a pursuit). The
 * quarry must be another side's man still at large (formed, marching, engaged, routing or
 * at bay); the hunter must be at large and not of a guard stance. */
rt_status rt_world_set_agent_hunt(rt_world *world, rt_agent_id id, rt_agent_id quarry, rt_error *err);

/* The crowd round a man as the crush model sees it after the last step (docs/model.md
 * section 13): the local density in men per m2 (bodies counted by their area, so an agent
 * standing for k men counts k), the crowd pressure (density x the local variance of
 * velocity, 1/s2) and the push (m/s: the mean speed the pressed men round him want and
 * cannot have, a rider's weighted by rider_mass_factor). Men down in the crush are not
 * counted. False if the id does not exist or the world has not stepped. */
typedef struct rt_crowd_sample {
	double density_per_m2, pressure_per_s2, push_mps;
} rt_crowd_sample;
bool rt_world_crowd_sample(const rt_world *world, rt_agent_id id, rt_crowd_sample *out);

/* Per-phase wall-clock times are kept for benchmarks; they never affect results. */
enum {
	RT_PHASE_ENV = 0, RT_PHASE_GRID, RT_PHASE_SENSE, RT_PHASE_COMMAND, RT_PHASE_MORALE,
	RT_PHASE_DECIDE, RT_PHASE_MOVE, RT_PHASE_FIGHT, RT_PHASE_RESOLVE, RT_PHASE_RECORD,
	RT_PHASE_COUNT
};
const char *rt_phase_name(int phase);

typedef struct rt_world_stats {
	int64_t step;
	double time_s;
	int agents;                    /* all agents ever added */
	int active;                    /* agents still taking part */
	int by_state[RT_STATE_COUNT];
	int64_t agent_updates;         /* agent decisions made so far (multi-rate aware) */
	int64_t hits;                  /* disabling blows and shots so far */
	int64_t shots;                 /* missiles loosed so far */
	int64_t routed;                /* times a man broke */
	int64_t rallied;               /* times a routing man rallied */
	int64_t armour_dropped, weapons_dropped;
	int64_t knelt, captured;      /* men who surrendered; men taken */
	int64_t drowned;
	int64_t burned;                /* men killed by fire */
	int64_t misfires;              /* matchlock shots that failed in rain or damp */
	int64_t desperate;             /* men who broke with no way out and fought on */
	int64_t boarded;               /* men taken off by boat (E7; rout/map.h) */
	int64_t cannon_shots;          /* guns fired (misfires not counted) */
	int64_t charges;               /* riders who struck home at a charge */
	int64_t summoned;              /* encircled men who surrendered to a summons (M7) */
	int64_t wounded;               /* commanders felled but not killed (C6) */
	int64_t falls;                 /* times a man was knocked down in the crush (C2) */
	int64_t lying;                 /* men down in the crush now */
	int64_t torch_alarms;          /* times a man took lights he could not identify for the enemy (E2) */
	int64_t wall_clamps;           /* moves cut short by the hard wall constraint */
	double phase_seconds[RT_PHASE_COUNT];
	int threads;
} rt_world_stats;

void rt_world_get_stats(const rt_world *world, rt_world_stats *out);

/* A 64-bit hash of every agent's state in id order: equal hashes, equal worlds. */
uint64_t rt_world_hash(const rt_world *world);

/* Distance from p to the nearest wall or obstacle edge; negative when p lies inside an
 * obstacle polygon. Returns a large value when there is no geometry. */
double rt_world_wall_distance(const rt_world *world, rt_vec2 p);

/* The number of agents whose centre stands closer to a wall than the hard clearance or
 * inside an obstacle (should always be zero). */
int rt_world_count_wall_violations(const rt_world *world);

/* Geometry for drawing. */
int rt_world_wall_count(const rt_world *world);
void rt_world_get_wall(const rt_world *world, int index, rt_vec2 *a, rt_vec2 *b);
void rt_world_get_bounds(const rt_world *world, rt_vec2 *min, rt_vec2 *max);

/* ---- random numbers -------------------------------------------------------------------- */
/* A pure function of (seed, agent, step, stream): Philox4x32-10. */
typedef struct rt_random4 {
	uint32_t v[4];
} rt_random4;

rt_random4 rt_random_bits(uint64_t seed, uint32_t agent, uint64_t step, uint32_t stream);
double rt_random_uniform(uint64_t seed, uint32_t agent, uint64_t step, uint32_t stream);

/* ---- trace ---------------------------------------------------------------------------------- */
/* A compact binary record of positions, states and morale every k steps (docs/trace-format.md).
 * Written to a temporary name and renamed on close, so a file that exists is whole. */
typedef struct rt_trace_writer rt_trace_writer;

rt_trace_writer *rt_trace_open(const rt_world *world, const char *path, int every_steps, rt_error *err);
/* Call after each step; writes a frame when the step count is a multiple of every_steps. */
rt_status rt_trace_record(rt_trace_writer *trace, const rt_world *world, rt_error *err);
rt_status rt_trace_close(rt_trace_writer *trace, rt_error *err);
void rt_trace_abort(rt_trace_writer *trace); /* discard: nothing is left on disk */

typedef struct rt_trace_reader rt_trace_reader;
typedef struct rt_trace_frame {
	int64_t step;
	double time_s;
	int count;            /* agents in the frame, in id order */
	const float *x, *y;   /* metres */
	const uint8_t *state; /* rt_state */
	const uint8_t *side;
	const uint8_t *morale; /* morale 0..1 in 255ths (255 = 1.0); NULL in a version-1 trace */
} rt_trace_frame;

rt_trace_reader *rt_trace_reader_open(const char *path, const rt_allocator *allocator, rt_error *err);
/* The same from a trace already in memory (size bytes at data, not copied: they must
 * outlive the reader); `name` stands for the file name in errors (NULL: "<memory>"). */
rt_trace_reader *rt_trace_reader_open_memory(const void *data, size_t size, const char *name,
					     const rt_allocator *allocator, rt_error *err);
/* Returns RT_OK and fills *frame, or RT_ERR_STATE at the end of the file, or an error. */
rt_status rt_trace_reader_next(rt_trace_reader *reader, rt_trace_frame *frame, rt_error *err);
void rt_trace_reader_close(rt_trace_reader *reader);
/* Where the trace's (0, 0) lies in the world (its lower-left bound when it was written):
 * a man's world position is origin + (x, y). */
rt_vec2 rt_trace_reader_origin(const rt_trace_reader *reader);
/* Like rt_trace_reader_next but passes over the men of the frame without reading them:
 * fills step, time_s and count and leaves the arrays NULL. For finding a moment in a long
 * trace quickly; the frame's checksum is not verified. */
rt_status rt_trace_reader_skip(rt_trace_reader *reader, rt_trace_frame *frame, rt_error *err);

/* ---- pictures ---------------------------------------------------------------------------------- */
/* Pictures and plots are PNG or SVG files. */
typedef enum rt_image_format {
	RT_IMAGE_AUTO = 0, /* from the path: SVG when it ends in ".svg", PNG otherwise */
	RT_IMAGE_PNG,
	RT_IMAGE_SVG
} rt_image_format;

/* How the light is named in a picture's corner box: day at or above RT_DAY_LUX (the light
 * model's daylight_lux, where sight is at its daytime best), twilight down to
 * RT_TWILIGHT_LUX (the Sun at -6 deg, the end of civil twilight), night below. */
#define RT_DAY_LUX 1000.0
#define RT_TWILIGHT_LUX 3.4

typedef struct rt_picture_def {
	const char *path;          /* .png or .svg file */
	int width_px;              /* of the map; its height follows the aspect of the view */
	const char *title;         /* drawn at the top left (UTF-8), or NULL */
	rt_image_format format;    /* AUTO (the default): from the path's extension */
	/* The world rectangle to draw (metres); max <= min on either axis: the whole world
	 * (rt_world_draw_picture) or the whole map (rt_picture_draw_frame). */
	rt_vec2 view_min, view_max;
	/* Names of the sides for the legend, e.g. {"Ming", "Qing"}; also matched (ignoring
	 * case) to the "side" of forts and camps in the map to colour them. NULL: "side 0"... */
	const char *const *side_names;
	int side_name_count;
	/* The clock's time zone, hours ahead of UT; NaN (the default): the whole hours of the
	 * longitude of the world's environment (rt_world_draw_picture) or of the map's origin
	 * (rt_picture_draw_frame): UTC+8 at Songshan. */
	double utc_offset_h;
	bool names;                /* place names of the map (default true) */
	bool legend;               /* the band of colours and shades under the map (default true;
	                              left out of pictures narrower than 480 px) */
	bool info;                 /* the corner box: time, light, sea level (default true) */
	bool ground_only;          /* the ground and names only: no men, commanders, scale bar,
	                              north arrow or corner box (a background for replay.html) */
	rt_allocator allocator;    /* scratch of rt_picture_draw_frame (default malloc); a world's
	                              picture uses the world's allocator */
	uint32_t cookie;
} rt_picture_def;

rt_picture_def rt_picture_def_default(void);
/* Draws the world as it stands: the ground of its map (sea at the current level, tidal
 * flats, rivers, hills shaded, roads, trenches, walls, forts, camps) with place names in
 * Chinese and pinyin, walls, and every man as a dot coloured by side and shaded by state
 * (formed, routing, kneeling, dead, drowned; sheltered and escaped men are not drawn),
 * commanders as diamonds named after their corps, a scale bar, a north arrow, a corner box
 * with the simulated time (the clock when the world has an environment), the light (lux
 * and day / twilight / night) and the sea level, and a legend. PNG or SVG as the def says,
 * written under PATH.tmp and renamed, so a picture that exists is whole. */
rt_status rt_world_draw_picture(const rt_world *world, const rt_picture_def *def, rt_error *err);
/* The same, always as PNG whatever the path's extension (kept for older callers). */
rt_status rt_world_draw_png(const rt_world *world, const rt_picture_def *def, rt_error *err);

/* A plot of a run from its trace: men per side over time, by what became of them
 * (standing, routing, kneeling or taken, dead, gone), with title, axes in minutes and
 * men, and a legend. PNG, or SVG when the path ends in .svg; written whole or not at all.
 * More plots, and the generic plot they are drawn with, are in rout/plot.h. */
rt_status rt_plot_trace_states(const char *trace_path, const char *png_path, const char *title,
			       const rt_allocator *allocator, rt_error *err);

/* ---- output files and checkpoints ------------------------------------------------------------- */
/* Writes size bytes to path atomically: to NAME.tmp.<pid> beside it, then flush, fsync,
 * rename over NAME and fsync of the directory. After a crash at any moment NAME is the
 * old file (or absent) or the whole new one, never a part. Every file the library writes
 * (trace, pictures, plots, replay pages, checkpoints) is written this way. */
rt_status rt_write_file_atomic(const char *path, const void *data, size_t size, rt_error *err);

/* A checkpoint holds the whole dynamic state of a world (docs/checkpoint-format.md),
 * written atomically. Loaded into a world built the same way (the same definition,
 * map, environment, walls, goals, corps and agents, added in the same order, stepped
 * or not), stepping on gives a result bit-identical to a run never interrupted, at any
 * thread count. The world's configuration is fingerprinted: a checkpoint of a
 * different world is refused with RT_ERR_INVALID naming the first difference ("seed 7
 * in the checkpoint, 8 in this world"); a truncated, damaged or foreign file with
 * RT_ERR_PARSE naming the file and what is wrong. A refused load leaves the world as it
 * was. Not async-signal-safe: from a signal handler, set a flag and save between steps. */
rt_status rt_world_save_checkpoint(const rt_world *world, const char *path, rt_error *err);
rt_status rt_world_load_checkpoint(rt_world *world, const char *path, rt_error *err);
/* The same, with bytes of the caller's own (a run's triggers, orders, events ...) kept in
 * the same file under the same checksum, so world and caller can never be out of step.
 * On loading, read_extra (if not NULL) receives them once the whole file has been
 * checked, before the world is changed; the bytes are valid during the call only. If it
 * returns an error the load fails with it and the world is left as it was. A plain load
 * ignores the caller's bytes. */
typedef rt_status rt_checkpoint_extra_fn(const void *data, size_t size, void *context, rt_error *err);
rt_status rt_world_save_checkpoint_extra(const rt_world *world, const char *path, const void *extra, size_t extra_size,
					 rt_error *err);
rt_status rt_world_load_checkpoint_extra(rt_world *world, const char *path, rt_checkpoint_extra_fn *read_extra, void *context,
					 rt_error *err);

/* ---- shared scenes ------------------------------------------------------------------------------ */
/* Scenes used by the tests, the benchmarks and the CLI, built in one place. */
typedef enum rt_scene_kind {
	RT_SCENE_CORRIDOR = 0,  /* RiMEA 1: one man, 2 m x 40 m corridor */
	RT_SCENE_PERIODIC,      /* RiMEA 4: periodic corridor at a set density */
	RT_SCENE_BOTTLENECK,    /* a room emptying through an opening */
	RT_SCENE_CORNER,        /* RiMEA 6: men turning a left corner */
	RT_SCENE_CROWD,         /* a dense crowd walking through a wide corridor (bench) */
	RT_SCENE_COUNT
} rt_scene_kind;

typedef struct rt_scene_def {
	rt_scene_kind kind;
	int agents;               /* number of men (crowd, bottleneck, corner) */
	double density_per_m2;    /* periodic, crowd */
	double width_m;           /* opening width (bottleneck), corridor width (periodic, crowd) */
	double length_m;          /* corridor length (periodic, corridor) */
	double free_speed_mps;    /* 0 = kind default */
	uint64_t seed;
	int threads;
	int max_period_level;
	rt_locomotion_params locomotion;
	rt_allocator allocator;
	uint32_t cookie;
} rt_scene_def;

rt_scene_def rt_scene_def_default(rt_scene_kind kind);
const char *rt_scene_name(rt_scene_kind kind);
/* Returns RT_SCENE_COUNT when the name is unknown. */
rt_scene_kind rt_scene_from_name(const char *name);
rt_world *rt_scene_create(const rt_scene_def *def, rt_error *err);

#ifdef __cplusplus
}
#endif
#endif
