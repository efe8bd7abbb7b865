/* rout environment: the sky, the light and the sea as pure functions of time and place.
 *
 * Astronomy follows Meeus, "Astronomical Algorithms" (2nd ed., 1998): the Sun by the
 * low-precision series of ch. 25 (about 0.01 deg), the Moon by the periodic terms of
 * ch. 47 (about 10 arcsec), the lunar phase by ch. 48, rise and set by the standard
 * altitudes of ch. 15. Instants are Julian Days in UT (the civil clock of the day
 * without a time zone); dynamical time is derived inside with the Espenak-Meeus
 * polynomials for Delta T. Calendar dates are proleptic Gregorian. Latitudes are
 * north-positive, longitudes EAST-positive, in degrees. Results are meant for the years
 * 1000-3000; outside them Delta T and the series degrade gracefully but are untested.
 *
 * Light turns the sky into horizontal illuminance (lux), and illuminance into how far a
 * man is seen and how near he must be to be told friend from foe (DESIGN.md
 * "Environment", phenomena E1, E2). The tide is mean level + harmonic constituents + a
 * surge series (E3). Weather is rain and wind over time, the wetness of the ground they
 * leave, mud and wet matchlocks; grass fire spreads downwind on the map's cells and its
 * smoke drifts and hides men (E1, E4). The rt_astro_, rt_light_, rt_tide_, rt_weather_
 * and rt_fire_ functions are pure: no state, no allocation, no output. Model parameters
 * live in rt_light_params, rt_tide_def, rt_weather_params and rt_fire_params with their
 * units and sources beside them.
 */
#ifndef ROUT_ENV_H
#define ROUT_ENV_H

#include "rout/rout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- time ------------------------------------------------------------------------ */
/* The Julian Day (UT) of a civil instant in the proleptic Gregorian calendar, for a
 * clock utc_offset_hours ahead of UT (+8 for China). Months outside 1..12 carry into
 * the year; days, hours, minutes and seconds may be out of range and carry linearly
 * (day 0 is the last day of the previous month). Meeus ch. 7, with the Gregorian
 * correction applied at every date. */
double rt_julian_day_from_civil(int year, int month, int day, int hour, int minute, double second,
				double utc_offset_hours);

typedef struct rt_civil_time {
	int year, month, day; /* proleptic Gregorian */
	int hour, minute;
	double second;        /* 0 <= second < 60 */
} rt_civil_time;

/* The inverse: the civil date and time of jd_ut on a clock utc_offset_hours ahead of UT. */
rt_civil_time rt_civil_from_julian_day(double jd_ut, double utc_offset_hours);

/* Delta T = TT - UT in seconds for a decimal year (2024.5 = mid-2024), by the
 * polynomials of Espenak & Meeus, "Five Millennium Canon of Solar Eclipses" (NASA
 * TP-2006-214141), also at eclipse.gsfc.nasa.gov/SEhelp/deltatpoly2004.html. About
 * 63 s in 1641 and 64 s in 2000; its extrapolation runs ~5 s high by 2024 (observed 69 s,
 * polynomial 74 s), which moves rise and set by well under a second. */
double rt_astro_delta_t_s(double decimal_year);

/* ---- sun and moon ------------------------------------------------------------------ */
typedef enum rt_body {
	RT_BODY_SUN = 0,
	RT_BODY_MOON,
	RT_BODY_COUNT
} rt_body;

typedef enum rt_horizon_event {
	RT_EVENT_RISE = 0,
	RT_EVENT_SET
} rt_horizon_event;

typedef struct rt_body_position {
	double altitude_deg;            /* topocentric, geometric: no refraction, centre of disc */
	double azimuth_deg;             /* from north through east, 0..360 */
	double geocentric_altitude_deg; /* as seen from the Earth's centre (used for rise/set) */
	double right_ascension_deg;     /* geocentric apparent, equinox of date, 0..360 */
	double declination_deg;         /* geocentric apparent */
	double distance_km;             /* centre to centre */
	double horizontal_parallax_deg; /* equatorial horizontal parallax */
} rt_body_position;

/* Where the body stands in the sky at jd_ut for an observer at sea level. */
rt_body_position rt_astro_body_position(rt_body body, double jd_ut, double latitude_deg, double longitude_deg);

/* The Moon's phase angle (Sun-Moon-Earth, 0 = full, 180 = new) and its illuminated
 * fraction (1 + cos phase angle) / 2 (Meeus eq. 48.1-48.3, geocentric). */
double rt_astro_moon_phase_angle_deg(double jd_ut);
double rt_astro_moon_illuminated_fraction(double jd_ut);

/* Standard altitudes of rise and set (Meeus ch. 15), applied to the geocentric altitude
 * of the centre: the Sun's upper limb on a refracted horizon; for the Moon
 * 0.7275 * parallax - 34', i.e. parallax, semidiameter and refraction together. */
#define RT_ASTRO_SUN_STANDARD_ALTITUDE_DEG (-0.8333)
#define RT_ASTRO_MOON_REFRACTION_DEG (0.5667)        /* 34 arcmin at the horizon */
#define RT_ASTRO_MOON_PARALLAX_FACTOR (0.7275)       /* 1 - semidiameter/parallax ratio */
#define RT_ASTRO_EVENT_WINDOW_H 48.0                 /* how far ahead rt_astro_next_event looks */

/* The first rise or set of the body strictly after jd_start and within 48 h, to better
 * than 1 s of the model's own time (the model is good to about a minute for the Sun and
 * two for the Moon). Returns RT_OK and fills *jd_out; RT_ERR_INVALID for a bad latitude,
 * longitude, instant or body; RT_ERR_STATE when the body does not rise (or set) in the
 * window (polar day or night). The search samples every 10 minutes, so at high
 * latitudes a body that grazes the horizon for less than that can be missed. */
rt_status rt_astro_next_event(rt_body body, rt_horizon_event event, double jd_start, double latitude_deg,
			      double longitude_deg, double *jd_out, rt_error *err);

/* The sky at one instant and place: both bodies and the Moon's phase. */
typedef struct rt_sky {
	rt_body_position sun, moon;
	double moon_phase_angle_deg;
	double moon_illuminated_fraction;
} rt_sky;

rt_sky rt_sky_at(double jd_ut, double latitude_deg, double longitude_deg);

/* ---- light and sight ---------------------------------------------------------------- */
/* Parameters of the light model. Sources: docs/model.md and the comments in env.c. */
typedef struct rt_light_params {
	double moon_full_zenith_lux;      /* full Moon (phase angle 0) at the zenith, mean distance: 0.25 */
	double moon_mean_distance_km;     /* the distance the value above refers to: 384,400 */
	double night_sky_lux;             /* starlight + airglow on a clear moonless night: 0.001 */
	double cloud_max_attenuation;     /* overcast (cover 1) removes this share of the light: 0.75 */
	double cloud_cover_exponent;      /* light x (1 - max_att * cover^exp): 1 (linear) */
	double dark_lux;                  /* at or below this the night ranges apply: 0.001 */
	double daylight_lux;              /* at or above this the day ranges apply: 1,000 */
	double detection_day_m;           /* a standing man is seen in daylight: 2,000 */
	double detection_night_m;         /* ... by starlight: 25 */
	double identification_day_m;      /* friend is told from foe in daylight: 300 */
	double identification_night_m;    /* ... by starlight: 5 */
	double torch_intensity_cd;        /* a pitch or resin torch: 100 */
	double torch_threshold_dark_lux;  /* point-light threshold at the eye at night: 2e-7 */
	double torch_threshold_day_lux;   /* ... in daylight: 1e-3 */
	double visibility_m;              /* meteorological visibility (Koschmieder): 18,520 */
	uint32_t cookie;
} rt_light_params;

rt_light_params rt_light_params_default(void);
/* RT_ERR_INVALID, naming the field, unless every value is finite, positive where it must
 * be, the day values exceed the night values and identification is shorter than
 * detection at both ends. */
rt_status rt_light_params_validate(const rt_light_params *params, rt_error *err);

/* In all the functions below params may be NULL for the defaults; otherwise it should
 * have passed rt_light_params_validate. */

/* Clear-sky horizontal illuminance from the Sun alone (lux) for a geometric altitude:
 * about 760 lux at 0 deg, 3.4 at -6, 0.008 at -12, 0.0007 at -18, 1.3e5 at 90. */
double rt_light_sun_lux(double sun_altitude_deg);

/* Clear-sky horizontal illuminance from the Moon alone (lux). */
double rt_light_moon_lux(const rt_light_params *params, double moon_altitude_deg, double moon_phase_angle_deg,
			 double moon_distance_km);

/* Horizontal illuminance (lux) at ground level: Sun + Moon + night sky, times the cloud
 * factor (1 - cloud_max_attenuation * cover^cloud_cover_exponent); cover is 0..1 and is
 * clamped. */
double rt_light_illuminance_lux(const rt_light_params *params, const rt_sky *sky, double cloud_cover);

/* How far a man sees a standing man, and how near he must be to tell friend from foe,
 * for a horizontal illuminance. Both grow by the same factor for each tenfold increase
 * of light between dark_lux and daylight_lux, are constant outside that span, never
 * exceed visibility_m, and identification never exceeds detection. */
double rt_light_detection_range_m(const rt_light_params *params, double illuminance_lux);
double rt_light_identification_range_m(const rt_light_params *params, double illuminance_lux);

/* How far a burning torch is noticed (m): the distance at which its light, dimmed by
 * distance squared and by the air (Allard's law), falls to the eye's threshold for a
 * point light on the given background. Several kilometres in the dark; in daylight no
 * more than a man is seen, so never less than rt_light_detection_range_m. A torch says
 * nothing about who carries it: its bearers are identified only within
 * rt_light_identification_range_m, which is how friendly torches in the dark are taken
 * for the enemy (phenomenon E2). */
double rt_light_torch_detection_range_m(const rt_light_params *params, double illuminance_lux);

/* ---- tide ----------------------------------------------------------------------------- */
/* Angular speeds of the principal constituents (deg per mean solar hour), Schureman,
 * "Manual of Harmonic Analysis and Prediction of Tides" (US C&GS SP 98, 1958), table 2. */
#define RT_TIDE_SPEED_M2_DEG_PER_H 28.9841042 /* principal lunar semidiurnal */
#define RT_TIDE_SPEED_S2_DEG_PER_H 30.0000000 /* principal solar semidiurnal */
#define RT_TIDE_SPEED_N2_DEG_PER_H 28.4397295 /* larger lunar elliptic semidiurnal */
#define RT_TIDE_SPEED_K2_DEG_PER_H 30.0821373 /* luni-solar semidiurnal */
#define RT_TIDE_SPEED_K1_DEG_PER_H 15.0410686 /* luni-solar diurnal */
#define RT_TIDE_SPEED_O1_DEG_PER_H 13.9430356 /* principal lunar diurnal */
#define RT_TIDE_SPEED_P1_DEG_PER_H 14.9589314 /* principal solar diurnal */
#define RT_TIDE_SPEED_Q1_DEG_PER_H 13.3986609 /* larger lunar elliptic diurnal */
#define RT_TIDE_SPEED_M4_DEG_PER_H 57.9682084 /* shallow-water overtide of M2 */

#define RT_TIDE_MAX_CONSTITUENTS 16
#define RT_TIDE_NAME_SIZE 8

typedef struct rt_tide_constituent {
	char name[RT_TIDE_NAME_SIZE]; /* "M2"; for reports only */
	double amplitude_m;           /* >= 0 */
	double phase_deg;             /* the constituent's argument at t = 0 */
	double speed_deg_per_h;       /* >= 0 */
} rt_tide_constituent;

/* What the surge is before its first and after its last point. */
typedef enum rt_surge_outside {
	RT_SURGE_OUTSIDE_ZERO = 0, /* no surge outside the series (the default) */
	RT_SURGE_OUTSIDE_HOLD      /* the first value before, the last value after */
} rt_surge_outside;

/* level(t) = mean_level_m + sum_i amplitude_m[i] * cos(speed[i] * t_h + phase[i]) + surge(t),
 * t in seconds from the tide's reference instant (the scenario's; t_h = t / 3600) and
 * surge(t) interpolated linearly between the points of the series. To use published
 * harmonic constants (amplitude H, Greenwich phase lag g) set phase_deg = V0 + u - g
 * for the reference instant. */
typedef struct rt_tide_def {
	double mean_level_m;          /* mean sea level above the map's datum */
	int constituent_count;        /* 0..RT_TIDE_MAX_CONSTITUENTS */
	rt_tide_constituent constituents[RT_TIDE_MAX_CONSTITUENTS];
	int surge_count;              /* points in the surge series; 0 = no surge */
	const double *surge_time_s;   /* caller-owned, strictly increasing, surge_count long */
	const double *surge_level_m;  /* caller-owned, surge_count long */
	rt_surge_outside surge_outside;
	uint32_t cookie;
} rt_tide_def;

/* Mean level 0; the four principal constituents M2, S2, K1, O1 with their speeds and
 * amplitude 0 (a calm sea until the scenario gives local harmonic constants); no surge. */
rt_tide_def rt_tide_def_default(void);

/* RT_ERR_INVALID, naming the field (err->field and the message), unless the def came from
 * rt_tide_def_default, the counts are in range, every number is finite, amplitudes and
 * speeds are >= 0, names are terminated, and the surge times strictly increase. */
rt_status rt_tide_def_validate(const rt_tide_def *def, rt_error *err);

/* Sea level (m above the datum) at t_s. The def should have passed
 * rt_tide_def_validate; an invalid one gives a defined but meaningless number. */
double rt_tide_level_m(const rt_tide_def *def, double t_s);
/* The surge part alone (m). */
double rt_tide_surge_m(const rt_tide_def *def, double t_s);

/* The speed of a named constituent (M2, S2, N2, K2, K1, O1, P1, Q1, M4), or 0 when the
 * name is unknown. */
double rt_tide_constituent_speed_deg_per_h(const char *name);


/* ---- weather: rain, wet ground, wind ------------------------------------------------- */
/* Parameters of the weather's effects (docs/model.md section 12: every value with its
 * source; most are estimates, grade E). */
typedef struct rt_weather_params {
	double bucket_capacity_mm;         /* rain the top soil holds; wetness = held / this: 10 */
	double drying_mm_per_h;            /* loss from a full bucket (evaporation + drainage): 0.3 */
	double mud_loss_unpaved;           /* share of walking speed lost on saturated unpaved ground: 0.35 */
	double mud_loss_road;              /* ... on a road or inside a fort: 0.15 */
	double misfire_rain_max;           /* share of matchlock shots that fail in the heaviest rain: 0.9 */
	double misfire_rain_half_mm_per_h; /* the rain at which half that share fails: 2.5 */
	double misfire_damp_max;           /* share that fails on saturated ground without rain: 0.1 */
	double fuel_moisture_dry_pct;      /* dead grass moisture content on dry ground: 8 */
	double fuel_moisture_wet_pct;      /* ... on saturated ground: 35 (no grass fire spreads) */
} rt_weather_params;

rt_weather_params rt_weather_params_default(void);

/* Rain and wind as series over time (s after step 0), linearly interpolated between
 * their points and held at the first and last value outside them. Wind is given as the
 * meteorologists do: its speed at 10 m and the direction it blows FROM, clockwise from
 * north (270 = a west wind, blowing east); it is interpolated as a vector, so a change
 * of direction turns through the shorter way and a reversal passes through a calm. */
typedef struct rt_weather_def {
	int rain_count;                /* points of the rain series; 0 = no rain */
	const double *rain_time_s;     /* caller-owned (copied), strictly increasing */
	const double *rain_mm_per_h;   /* >= 0 */
	int wind_count;                /* points of the wind series; 0 = calm */
	const double *wind_time_s;     /* caller-owned (copied), strictly increasing */
	const double *wind_speed_mps;  /* at 10 m, 0..60 */
	const double *wind_from_deg;   /* finite; reduced to 0..360 */
	double ground_wetness;         /* share of the bucket full at step 0, 0..1 (after rain: 1) */
	rt_weather_params params;
} rt_weather_def;

/* RT_ERR_INVALID, naming the field ("weather.rain_mm_per_h[2]") and what was expected,
 * unless the counts are >= 0 with their arrays given, times are finite and strictly
 * increase, rain is 0..500 mm/h, wind 0..60 m/s from a finite direction, the wetness is
 * 0..1 and every parameter is in its range. */
rt_status rt_weather_def_validate(const rt_weather_def *def, rt_error *err);

/* The pure functions of the weather (def or params may be NULL for none / defaults). */
double rt_weather_rain_mm_per_h(const rt_weather_def *def, double t_s);
/* The wind vector (m/s, x east, y north) pointing where the wind blows TO. */
rt_vec2 rt_weather_wind_mps(const rt_weather_def *def, double t_s);
/* The bucket: dW/dt = rain / capacity - (drying / capacity) W, W capped at 1 (the rest
 * runs off), integrated exactly over dt_s with the rain held constant. */
double rt_weather_wetness_after(const rt_weather_params *params, double wetness, double rain_mm_per_h, double dt_s);
/* A matchlock shot fails with 1 - (1 - p_rain)(1 - p_damp), p_rain = max r / (r + half),
 * p_damp = damp_max * wetness: 0 in dry weather. */
double rt_weather_misfire_probability(const rt_weather_params *params, double rain_mm_per_h, double wetness);
/* Dead grass moisture content (%) on ground of this wetness. */
double rt_weather_fuel_moisture_pct(const rt_weather_params *params, double wetness);
/* Speed factor of mud: 1 - loss * wetness, loss for a road (or fort) or unpaved ground. */
double rt_weather_mud_factor(const rt_weather_params *params, double wetness, bool road);

/* ---- grass fire and smoke ------------------------------------------------------------- */
/* Grass condition selects the coefficients of the CSIRO grassland model (Cheney, Gould
 * & Catchpole 1998). */
typedef enum rt_grass_condition {
	RT_GRASS_NATURAL = 0,  /* natural or undisturbed pasture */
	RT_GRASS_GRAZED,       /* cut or grazed */
	RT_GRASS_EATEN_OUT
} rt_grass_condition;

/* Parameters of fire and smoke (docs/model.md section 12). */
typedef struct rt_fire_params {
	double update_interval_s;           /* fire and smoke advance this often: 1 */
	double open_ground_fuel_kg_m2;      /* fuel of ground no feature covers, and hills: 0.45 */
	rt_grass_condition grass;           /* natural */
	double curing_pct;                  /* share of the grass that is dead and dry: 100 */
	double threshold_spread;            /* a cell takes 1 +- this times the time the front needs: 0.1 */
	double flame_residence_s;           /* flames stay this long where the front passed: 15 */
	double heat_of_combustion_kj_per_kg;/* Byram's H: 18,600 */
	double block_intensity_kw_per_m;    /* fireline intensity that stops men and burns them: 350 */
	double burn_death_rate_per_s;       /* a man in such flames dies at this rate: 0.15 */
	double smoke_cell_m;                /* smoke grid cell, at least the map's: 20 */
	double smoke_yield_g_per_kg;        /* particulate smoke per kg of grass burnt: 8.3 */
	double smoke_mixing_height_m;       /* depth of air the smoke is mixed through: 20 */
	double smoke_lifetime_s;            /* smoke thins by e in this time (rise, spread): 120 */
	double smoke_extinction_m2_per_g;   /* light extinction per g/m3 of smoke: 8.7 */
	double smoke_detection_constant;    /* a man is seen at most this / extinction away: 3 */
	double smoke_identification_constant; /* ... and known at this / extinction: 1.2 */
} rt_fire_params;

rt_fire_params rt_fire_params_default(void);

/* A fire set by the scenario: a point (from == to) or a line, lit at time_s. Every
 * cell that burns within 0.71 cell of it catches (set fires must touch ground that
 * burns, inside the map). */
typedef struct rt_ignition {
	rt_vec2 from_m, to_m;          /* world metres (the map's) */
	double time_s;                 /* after step 0, >= 0 */
} rt_ignition;

typedef struct rt_fire_def {
	int ignition_count;            /* 0 = no fire */
	const rt_ignition *ignitions;  /* caller-owned, copied */
	rt_fire_params params;
} rt_fire_def;

/* Head-fire rate of spread (m/s) in grass for a 10-m wind speed and a dead fuel
 * moisture content, by Cheney et al. (1998) with the curing function of Cruz et al.
 * (2015). */
double rt_fire_head_rate_mps(const rt_fire_params *params, double wind_mps, double fuel_moisture_pct);
/* Length-to-breadth ratio of a grass fire's ellipse (Taylor 1997 fit, U in km/h:
 * 1.1 U^0.464 from 5 km/h, blended linearly to 1 at calm). */
double rt_fire_length_to_breadth(double wind_mps);
/* Normal rate of spread (m/s) of a fire front whose outward normal is angle_deg away
 * from the direction the wind blows to: R_head (g cos a + sqrt(h^2 + (f^2 - h^2) cos^2 a))
 * with f, g, h from the length-to-breadth ratio (Richards 1990's normal flow of the
 * elliptical fire): the head rate at 0, the flank rate at 90, the back rate at 180. */
double rt_fire_rate_mps(const rt_fire_params *params, double wind_mps, double fuel_moisture_pct, double angle_deg);

/* ---- the world's environment --------------------------------------------------------- */
/* Where and when a world is, its sky and sea, its weather and any fires set. Set once,
 * before the first step (and, when it sets fires, after the map); the env phase then
 * samples sky, light, tide, rain, wind and wet ground every step and advances fire and
 * smoke every fire.params.update_interval_s; the sense phase sees no farther than the
 * light and the smoke allow. */
typedef struct rt_environment_def {
	double start_jd_ut;           /* the instant of step 0 (rt_julian_day_from_civil) */
	double latitude_deg;          /* of the map's origin, north-positive */
	double longitude_deg;         /* east-positive */
	double cloud_cover;           /* 0 clear .. 1 overcast */
	rt_light_params light;
	rt_tide_def tide;             /* t = 0 at step 0; the surge series is copied */
	rt_weather_def weather;       /* rain, wet ground, wind: none by default */
	rt_fire_def fire;             /* fires set by the scenario: none by default; needs the map */
	uint32_t cookie;
} rt_environment_def;

rt_environment_def rt_environment_def_default(void);
rt_status rt_world_set_environment(rt_world *world, const rt_environment_def *def, rt_error *err);

/* What the env phase found at the last step. */
typedef struct rt_environment_state {
	bool set;                     /* false: no environment was given (day, calm sea) */
	double jd_ut;
	double sun_altitude_deg, moon_altitude_deg, moon_illuminated_fraction;
	double illuminance_lux;
	double detection_range_m;     /* how far a man is seen */
	double identification_range_m;/* how near he must be to be told friend from foe */
	double torch_detection_range_m;
	double sea_level_m;
	/* weather (zero when none was given) */
	double rain_mm_per_h;
	rt_vec2 wind_mps;             /* where the wind blows to, m/s */
	double wind_speed_mps, wind_from_deg;
	double ground_wetness;        /* 0 dry .. 1 saturated */
	double fuel_moisture_pct;     /* of dead grass */
	double misfire_probability;   /* a matchlock shot fails */
	double mud_factor_unpaved, mud_factor_road; /* walking speed x this */
	/* fire (zero without one) */
	double fire_head_rate_mps;    /* a head fire on open ground would run this fast now */
	int64_t fire_burning_cells, fire_blocking_cells, fire_burnt_cells;
	double smoke_max_g_per_m3;
} rt_environment_state;

void rt_world_get_environment(const rt_world *world, rt_environment_state *out);

/* What the fire has done to the map cell under p. */
typedef enum rt_fire_cell_state {
	RT_FIRE_NO_FUEL = 0,          /* water, road, bare ground ...: never burns */
	RT_FIRE_UNBURNT,
	RT_FIRE_BURNING,
	RT_FIRE_BURNT
} rt_fire_cell_state;

typedef struct rt_fire_cell {
	rt_fire_cell_state state;
	double fuel_kg_m2;
	double ignition_time_s;       /* when the front reached the cell's centre; NaN if it has not */
	double burn_out_time_s;       /* when its flames die; NaN if it has not caught */
	double intensity_kw_per_m;    /* Byram's fireline intensity when it caught */
	bool blocks;                  /* burning hot enough to stop men and burn them */
	double smoke_g_per_m3;        /* smoke over the cell now */
} rt_fire_cell;

/* False (and *out untouched) when the world has no fire or p is off the map. */
bool rt_world_fire_cell(const rt_world *world, rt_vec2 p, rt_fire_cell *out);

/* How far a man standing at p sees a man and how near he must be to tell friend from
 * foe now: the light's ranges (unlimited without an environment), shortened in smoke to
 * constant / (extinction x concentration). */
void rt_world_sight_m(const rt_world *world, rt_vec2 p, double *detection_m, double *identification_m);

/* The mud factor of the ground under p now (1 when dry). */
double rt_world_mud_factor(const rt_world *world, rt_vec2 p);

#ifdef __cplusplus
}
#endif
#endif
