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
 * surge series (E3). Every function here is pure: no state, no allocation, no output.
 * Model parameters live in rt_light_params and rt_tide_def with their units and
 * sources beside them.
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


/* ---- the world's environment --------------------------------------------------------- */
/* Where and when a world is, and its sky and sea. Set once, before the first step; the
 * env phase then samples sky, light and tide every step, and the sense phase sees no
 * farther than the light allows. */
typedef struct rt_environment_def {
	double start_jd_ut;           /* the instant of step 0 (rt_julian_day_from_civil) */
	double latitude_deg;          /* of the map's origin, north-positive */
	double longitude_deg;         /* east-positive */
	double cloud_cover;           /* 0 clear .. 1 overcast */
	rt_light_params light;
	rt_tide_def tide;             /* t = 0 at step 0; the surge series is copied */
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
} rt_environment_state;

void rt_world_get_environment(const rt_world *world, rt_environment_state *out);

#ifdef __cplusplus
}
#endif
#endif
