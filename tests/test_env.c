/* The environment as a user meets it: sunset and moonrise on the nights of the
 * historical battles where the almanac (PyEphem, and a modern published almanac) puts
 * them, a Moon as full as it was, nights dark enough that friend cannot be told from foe
 * while torches show from afar, tides with the right period and spring-neap cycle, and
 * definitions that are refused with the field named. */
#include "test.h"
#include "rout/env.h"

#include <string.h>

/* Songshan (the battle of Song-Jin, 1641) and Changshan (1631), east longitude, UTC+8. */
#define SONGSHAN_LAT_DEG 41.03
#define SONGSHAN_LON_DEG 121.08
#define CHANGSHAN_LAT_DEG 41.12
#define CHANGSHAN_LON_DEG 121.25
#define CHINA_UTC_OFFSET_H 8.0
/* The Royal Observatory, Greenwich (Airy transit circle). */
#define GREENWICH_LAT_DEG 51.4769
#define GREENWICH_LON_DEG (-0.0005)

/* Minutes after local midnight of an instant on a clock offset_h ahead of UT. */
static double local_minutes(double jd_ut, double offset_h)
{
	rt_civil_time c = rt_civil_from_julian_day(jd_ut, offset_h);
	return 60.0 * c.hour + c.minute + c.second / 60.0;
}

static const char *clock_text(double minutes, char *buffer, size_t size)
{
	int whole = (int)floor(minutes + 0.5);
	snprintf(buffer, size, "%02d:%02d", whole / 60, whole % 60);
	return buffer;
}

/* ---- time -------------------------------------------------------------------------- */

TEST(astro_julian_day_proleptic_gregorian)
{
	/* Meeus ch. 7 examples and table, and Python's proleptic Gregorian date.toordinal()
	 * + 1721424.5 for the dates before the Gregorian reform. */
	CHECK_NEAR(rt_julian_day_from_civil(2000, 1, 1, 12, 0, 0.0, 0.0), 2451545.0, 1e-9);
	CHECK_NEAR(rt_julian_day_from_civil(1957, 10, 4, 19, 26, 24.0, 0.0), 2436116.31, 1e-6);
	CHECK_NEAR(rt_julian_day_from_civil(1600, 1, 1, 0, 0, 0.0, 0.0), 2305447.5, 1e-9);
	CHECK_NEAR(rt_julian_day_from_civil(1641, 9, 25, 0, 0, 0.0, 0.0), 2320690.5, 1e-9);
	CHECK_NEAR(rt_julian_day_from_civil(1000, 1, 1, 0, 0, 0.0, 0.0), 2086302.5, 1e-9);
	CHECK_NEAR(rt_julian_day_from_civil(3000, 12, 31, 0, 0, 0.0, 0.0), 2817151.5, 1e-9);
	/* the zone offset: 08:00 in China is midnight UT */
	CHECK_NEAR(rt_julian_day_from_civil(1641, 9, 25, 8, 0, 0.0, 8.0), 2320690.5, 1e-9);
	/* months carry into the year, day 0 is the last day of the previous month */
	CHECK_NEAR(rt_julian_day_from_civil(2023, 13, 1, 0, 0, 0.0, 0.0), rt_julian_day_from_civil(2024, 1, 1, 0, 0, 0.0, 0.0), 1e-9);
	CHECK_NEAR(rt_julian_day_from_civil(2024, 3, 0, 0, 0, 0.0, 0.0), rt_julian_day_from_civil(2024, 2, 29, 0, 0, 0.0, 0.0), 1e-9);
	/* round trip every 37 days and 5 hours across 1000-3000 */
	double first = rt_julian_day_from_civil(1000, 1, 1, 0, 0, 0.0, 0.0);
	double last = rt_julian_day_from_civil(3000, 12, 31, 0, 0, 0.0, 0.0);
	int checked = 0;
	for (double jd = first; jd < last; jd += 37.0 + 5.0 / 24.0) {
		rt_civil_time c = rt_civil_from_julian_day(jd, 8.0);
		double back = rt_julian_day_from_civil(c.year, c.month, c.day, c.hour, c.minute, c.second, 8.0);
		CHECK_MSG(fabs(back - jd) < 1e-6, "JD %.6f -> %04d-%02d-%02d %02d:%02d:%06.3f -> %.6f", jd, c.year, c.month,
			  c.day, c.hour, c.minute, c.second, back);
		CHECK(c.month >= 1 && c.month <= 12 && c.day >= 1 && c.day <= 31);
		++checked;
	}
	CHECK(checked > 19000);
}

TEST(astro_delta_t_espenak_meeus)
{
	double dt_1641 = rt_astro_delta_t_s(1641.7);
	rt_test_note("Delta T 1641.7: %.1f s, 1900: %.1f s, 2000: %.1f s", dt_1641, rt_astro_delta_t_s(1900.0),
		     rt_astro_delta_t_s(2000.0));
	CHECK(dt_1641 > 60.0 && dt_1641 < 70.0);
	CHECK_NEAR(rt_astro_delta_t_s(2000.0), 63.86, 0.01);   /* observed 63.8 s */
	CHECK_NEAR(rt_astro_delta_t_s(1900.0), -2.79, 0.01);   /* observed -2.7 s */
	/* continuous across the polynomial boundaries (to the 2 s the canon allows) */
	const double joints[] = {500, 1600, 1700, 1800, 1860, 1900, 1920, 1941, 1961, 1986, 2005, 2050, 2150};
	for (size_t i = 0; i < sizeof joints / sizeof joints[0]; ++i)
		CHECK_MSG(fabs(rt_astro_delta_t_s(joints[i] - 1e-6) - rt_astro_delta_t_s(joints[i])) < 2.0,
			  "Delta T jumps at %g: %g -> %g", joints[i], rt_astro_delta_t_s(joints[i] - 1e-6),
			  rt_astro_delta_t_s(joints[i]));
}

/* ---- positions against the worked examples of Meeus ----------------------------------- */

/* The UT instant whose dynamical time is jde. */
static double ut_of(double jde)
{
	double year = 2000.0 + (jde - 2451544.5) / 365.2425;
	return jde - rt_astro_delta_t_s(year) / 86400.0;
}

TEST(astro_meeus_worked_examples)
{
	/* Example 25.a: the Sun on 1992 October 13.0 TD, alpha 198.38083, delta -7.78507 */
	rt_body_position sun = rt_astro_body_position(RT_BODY_SUN, ut_of(2448908.5), 0.0, 0.0);
	CHECK_NEAR(sun.right_ascension_deg, 198.38083, 0.0005);
	CHECK_NEAR(sun.declination_deg, -7.78507, 0.0005);
	CHECK_NEAR(sun.distance_km / 149597870.7, 0.99766, 0.00001);
	/* Example 47.a: the Moon on 1992 April 12.0 TD, alpha 134.688470, delta 13.768368,
	 * distance 368409.7 km, parallax 0.991990 (with the full nutation; ours is the
	 * 0.5" one) */
	rt_body_position moon = rt_astro_body_position(RT_BODY_MOON, ut_of(2448724.5), 0.0, 0.0);
	CHECK_NEAR(moon.right_ascension_deg, 134.688470, 0.0005);
	CHECK_NEAR(moon.declination_deg, 13.768368, 0.0005);
	CHECK_NEAR(moon.distance_km, 368409.7, 0.1);
	CHECK_NEAR(moon.horizontal_parallax_deg, 0.991990, 0.00001);
	/* Example 48.a: same instant, phase angle 69.0756, illuminated fraction 0.6786 */
	CHECK_NEAR(rt_astro_moon_phase_angle_deg(ut_of(2448724.5)), 69.0756, 0.01);
	CHECK_NEAR(rt_astro_moon_illuminated_fraction(ut_of(2448724.5)), 0.6786, 0.0005);
}

TEST(astro_moon_parallax_lowers_it)
{
	/* Seen from the ground rather than from the Earth's centre, the Moon stands lower by
	 * about its parallax (~1 deg) times cos(altitude): most near the horizon. */
	double jd = rt_julian_day_from_civil(1641, 9, 25, 22, 0, 0.0, CHINA_UTC_OFFSET_H);
	rt_body_position moon = rt_astro_body_position(RT_BODY_MOON, jd, SONGSHAN_LAT_DEG, SONGSHAN_LON_DEG);
	double lowered = moon.geocentric_altitude_deg - moon.altitude_deg;
	rt_test_note("moon at 22:00: altitude %.3f (geocentric %.3f), azimuth %.2f, parallax %.4f deg",
		     moon.altitude_deg, moon.geocentric_altitude_deg, moon.azimuth_deg, moon.horizontal_parallax_deg);
	CHECK_NEAR(lowered, moon.horizontal_parallax_deg * cos(moon.altitude_deg * 3.14159265358979 / 180.0), 0.02);
	/* PyEphem (apparent, refracted) 4.83 deg at azimuth 69.29; refraction adds ~0.18 */
	CHECK_NEAR(moon.altitude_deg, 4.65, 0.3);
	CHECK_NEAR(moon.azimuth_deg, 69.29, 0.3);
}

/* ---- the battle nights -------------------------------------------------------------- */

/* The local clock time (minutes after midnight) of the first event on the local date. */
static bool event_on_local_date(rt_body body, rt_horizon_event event, int year, int month, int day, double lat,
				double lon, double offset_h, double *minutes)
{
	rt_error err;
	double jd;
	double midnight = rt_julian_day_from_civil(year, month, day, 0, 0, 0.0, offset_h);
	if (rt_astro_next_event(body, event, midnight, lat, lon, &jd, &err) != RT_OK) return false;
	*minutes = local_minutes(jd, offset_h);
	return jd - midnight < 1.0;
}

TEST(astro_songshan_1641_night)
{
	/* 1641-09-25 (proleptic Gregorian) at Songshan. Reference: PyEphem 4.1 - sunset
	 * 17:48:16, moonrise 21:27:07, Moon 64.3 % lit at 22:00 local. */
	char a[16], b[16];
	double sunset = 0.0, moonrise = 0.0;
	CHECK(event_on_local_date(RT_BODY_SUN, RT_EVENT_SET, 1641, 9, 25, SONGSHAN_LAT_DEG, SONGSHAN_LON_DEG,
				  CHINA_UTC_OFFSET_H, &sunset));
	CHECK(event_on_local_date(RT_BODY_MOON, RT_EVENT_RISE, 1641, 9, 25, SONGSHAN_LAT_DEG, SONGSHAN_LON_DEG,
				  CHINA_UTC_OFFSET_H, &moonrise));
	double jd_22 = rt_julian_day_from_civil(1641, 9, 25, 22, 0, 0.0, CHINA_UTC_OFFSET_H);
	double lit = rt_astro_moon_illuminated_fraction(jd_22);
	rt_test_note("Songshan 1641-09-25: sunset %s (ref 17:48), moonrise %s (ref 21:27), moon lit %.1f %% (ref 64 %%)",
		     clock_text(sunset, a, sizeof a), clock_text(moonrise, b, sizeof b), 100.0 * lit);
	CHECK_NEAR(sunset, 17 * 60 + 48, 5.0);
	CHECK_NEAR(moonrise, 21 * 60 + 27, 10.0);
	CHECK_NEAR(lit, 0.64, 0.04);
}

TEST(astro_changshan_1631_morning)
{
	/* 1631-10-22 at Changshan. Reference: PyEphem 4.1 - sunrise 06:13:33, Moon 13.2 %
	 * lit at noon local. */
	char a[16];
	double sunrise = 0.0;
	CHECK(event_on_local_date(RT_BODY_SUN, RT_EVENT_RISE, 1631, 10, 22, CHANGSHAN_LAT_DEG, CHANGSHAN_LON_DEG,
				  CHINA_UTC_OFFSET_H, &sunrise));
	double lit = rt_astro_moon_illuminated_fraction(rt_julian_day_from_civil(1631, 10, 22, 12, 0, 0.0, CHINA_UTC_OFFSET_H));
	rt_test_note("Changshan 1631-10-22: sunrise %s (ref 06:14), moon lit at noon %.1f %% (ref 13 %%)",
		     clock_text(sunrise, a, sizeof a), 100.0 * lit);
	CHECK_NEAR(sunrise, 6 * 60 + 14, 5.0);
	CHECK_NEAR(lit, 0.13, 0.04);
}

TEST(astro_greenwich_2024_almanac)
{
	/* Published almanac: HM Nautical Almanac Office / USNO "Sun and Moon data for one
	 * day", London 2024 June 20: sunrise 04:43 BST, sunset 21:21 BST, i.e. 03:43 and
	 * 20:21 UT. Full Moon 2024 January 25 17:54 UT and new Moon January 11 11:57 UT (USNO
	 * "Phases of the Moon" 2001-2100). */
	char a[16], b[16];
	double sunrise = 0.0, sunset = 0.0;
	CHECK(event_on_local_date(RT_BODY_SUN, RT_EVENT_RISE, 2024, 6, 20, GREENWICH_LAT_DEG, GREENWICH_LON_DEG, 0.0,
				  &sunrise));
	CHECK(event_on_local_date(RT_BODY_SUN, RT_EVENT_SET, 2024, 6, 20, GREENWICH_LAT_DEG, GREENWICH_LON_DEG, 0.0,
				  &sunset));
	double jd_rise = rt_julian_day_from_civil(2024, 6, 20, 0, 0, sunrise * 60.0, 0.0);
	rt_body_position at_rise = rt_astro_body_position(RT_BODY_SUN, jd_rise, GREENWICH_LAT_DEG, GREENWICH_LON_DEG);
	double full = rt_astro_moon_illuminated_fraction(rt_julian_day_from_civil(2024, 1, 25, 17, 54, 0.0, 0.0));
	double new_moon = rt_astro_moon_illuminated_fraction(rt_julian_day_from_civil(2024, 1, 11, 11, 57, 0.0, 0.0));
	rt_test_note("Greenwich 2024-06-20: sunrise %s UT (ref 03:43) at azimuth %.1f (PyEphem 48.9), sunset %s UT "
		     "(ref 20:21); full moon lit %.2f %%, new moon %.3f %%",
		     clock_text(sunrise, a, sizeof a), at_rise.azimuth_deg, clock_text(sunset, b, sizeof b), 100.0 * full,
		     100.0 * new_moon);
	CHECK_NEAR(sunrise, 3 * 60 + 43, 3.0);
	CHECK_NEAR(sunset, 20 * 60 + 21, 3.0);
	CHECK_NEAR(at_rise.azimuth_deg, 48.9, 0.5);
	CHECK(full > 0.99);
	CHECK(new_moon < 0.01);
}

TEST(astro_next_event_refuses_and_reports)
{
	rt_error err;
	double jd = 0.0;
	double start = rt_julian_day_from_civil(1641, 9, 25, 0, 0, 0.0, 8.0);
	CHECK(rt_astro_next_event(RT_BODY_SUN, RT_EVENT_RISE, start, 95.0, 121.0, &jd, &err) == RT_ERR_INVALID);
	CHECK(strcmp(err.field, "latitude_deg") == 0 && strstr(err.message, "latitude_deg"));
	CHECK(rt_astro_next_event(RT_BODY_COUNT, RT_EVENT_RISE, start, 41.0, 121.0, &jd, &err) == RT_ERR_INVALID);
	CHECK(strcmp(err.field, "body") == 0);
	/* polar night: no sunrise at 80 N around the December solstice */
	double december = rt_julian_day_from_civil(2024, 12, 20, 0, 0, 0.0, 0.0);
	CHECK(rt_astro_next_event(RT_BODY_SUN, RT_EVENT_RISE, december, 80.0, 15.0, &jd, &err) == RT_ERR_STATE);
	CHECK(strstr(err.message, "does not rise") != NULL);
	/* the event found is strictly after the start and the body is then on the horizon */
	CHECK_OK(rt_astro_next_event(RT_BODY_MOON, RT_EVENT_SET, start, 41.0, 121.0, &jd, &err), err);
	CHECK(jd > start && jd <= start + 2.0);
	rt_body_position moon = rt_astro_body_position(RT_BODY_MOON, jd, 41.0, 121.0);
	CHECK_NEAR(moon.geocentric_altitude_deg, 0.7275 * moon.horizontal_parallax_deg - 0.5667, 0.001);
}

/* ---- light and sight ----------------------------------------------------------------- */

TEST(env_sun_illuminance_twilight_values)
{
	/* USNO Circular 171 (Janiczek & DeYoung 1987): ~3.4 lux at the end of civil twilight,
	 * ~0.008 at the end of nautical; rising without a jump from deep night to noon. */
	CHECK_NEAR(log10(rt_light_sun_lux(-6.0)), log10(3.4), 0.05);
	CHECK_NEAR(log10(rt_light_sun_lux(-12.0)), log10(0.008), 0.1);
	CHECK(rt_light_sun_lux(0.0) > 300.0 && rt_light_sun_lux(0.0) < 1500.0);
	CHECK(rt_light_sun_lux(60.0) > 50000.0);
	double previous = rt_light_sun_lux(-30.0);
	for (double h = -29.99; h <= 90.0; h += 0.01) {
		double lux = rt_light_sun_lux(h);
		CHECK_MSG(lux >= previous && lux <= previous * 1.02, "sun lux %g at %.2f deg after %g", lux, h, previous);
		previous = lux;
	}
}

TEST(env_moonlight_phase_law)
{
	/* full Moon at the zenith gives the parameter's 0.25 lux; a quarter Moon (phase angle
	 * 90) ~9 % of it (Allen's law); a Moon at 30 deg half its zenith value */
	CHECK_NEAR(rt_light_moon_lux(NULL, 90.0, 0.0, 384400.0), 0.25, 1e-9);
	CHECK_NEAR(rt_light_moon_lux(NULL, 90.0, 90.0, 384400.0) / 0.25, 0.091, 0.005);
	CHECK_NEAR(rt_light_moon_lux(NULL, 30.0, 0.0, 384400.0), 0.125, 1e-9);
	CHECK(rt_light_moon_lux(NULL, -1.0, 0.0, 384400.0) == 0.0);
	CHECK(rt_light_moon_lux(NULL, 90.0, 170.0, 384400.0) < 0.001);
}

TEST(env_darkness_hides_friend_from_foe)
{
	/* noon and an overcast new-Moon midnight at Songshan (new Moon 1641-10-04 18:20 UT,
	 * PyEphem) */
	rt_sky noon = rt_sky_at(rt_julian_day_from_civil(1641, 9, 25, 12, 0, 0.0, 8.0), SONGSHAN_LAT_DEG, SONGSHAN_LON_DEG);
	rt_sky midnight = rt_sky_at(rt_julian_day_from_civil(1641, 10, 5, 0, 0, 0.0, 8.0), SONGSHAN_LAT_DEG, SONGSHAN_LON_DEG);
	double noon_lux = rt_light_illuminance_lux(NULL, &noon, 0.0);
	double night_lux = rt_light_illuminance_lux(NULL, &midnight, 1.0);
	double id_noon = rt_light_identification_range_m(NULL, noon_lux);
	double id_night = rt_light_identification_range_m(NULL, night_lux);
	double seen_night = rt_light_detection_range_m(NULL, night_lux);
	double torch_night = rt_light_torch_detection_range_m(NULL, night_lux);
	double torch_noon = rt_light_torch_detection_range_m(NULL, noon_lux);
	rt_test_note("noon: sun %.1f deg, %.0f lux, identify at %.0f m; overcast new-moon midnight: moon lit %.2f %%, "
		     "%.5f lux, see a man at %.0f m, identify at %.1f m, a torch at %.0f m (noon %.0f m)",
		     noon.sun.altitude_deg, noon_lux, id_noon, 100.0 * midnight.moon_illuminated_fraction, night_lux,
		     seen_night, id_night, torch_night, torch_noon);
	CHECK(midnight.moon_illuminated_fraction < 0.01);
	CHECK(noon_lux > 10000.0);
	CHECK(night_lux < 0.001);
	CHECK(id_night < 0.1 * id_noon);
	CHECK(torch_night > 10.0 * seen_night);  /* a torch shows far beyond the man */
	CHECK(torch_night > 3000.0);             /* several km in the dark */
	CHECK(id_night < seen_night);            /* but who carries it is told only up close */
	CHECK_NEAR(torch_noon, rt_light_detection_range_m(NULL, noon_lux), 1e-9); /* by day no better than a man */
}

TEST(env_sight_ranges_monotone)
{
	double previous_seen = 0.0, previous_id = 0.0, previous_torch = 1e30;
	for (double lg = -6.0; lg <= 6.0; lg += 0.05) {
		double lux = pow(10.0, lg);
		double seen = rt_light_detection_range_m(NULL, lux), id = rt_light_identification_range_m(NULL, lux);
		double torch = rt_light_torch_detection_range_m(NULL, lux);
		CHECK_MSG(seen >= previous_seen && id >= previous_id, "ranges fall at %g lux", lux);
		CHECK_MSG(id < seen, "identification %g m >= detection %g m at %g lux", id, seen, lux);
		CHECK_MSG(torch >= seen, "torch %g m < man %g m at %g lux", torch, seen, lux);
		CHECK_MSG(torch <= previous_torch + 1e-6 || torch == seen, "torch range rises at %g lux", lux);
		previous_seen = seen;
		previous_id = id;
		previous_torch = torch;
	}
	CHECK_NEAR(rt_light_detection_range_m(NULL, 1e5), 2000.0, 1e-9);
	CHECK_NEAR(rt_light_detection_range_m(NULL, 0.001), 25.0, 1e-9);
	CHECK_NEAR(rt_light_identification_range_m(NULL, 1e5), 300.0, 1e-9);
	CHECK_NEAR(rt_light_identification_range_m(NULL, 0.0), 5.0, 1e-9);
	/* cloud: overcast keeps a quarter of the light, half cover five eighths */
	rt_sky sky = rt_sky_at(rt_julian_day_from_civil(1641, 9, 25, 12, 0, 0.0, 8.0), SONGSHAN_LAT_DEG, SONGSHAN_LON_DEG);
	double clear = rt_light_illuminance_lux(NULL, &sky, 0.0);
	CHECK_NEAR(rt_light_illuminance_lux(NULL, &sky, 1.0) / clear, 0.25, 1e-12);
	CHECK_NEAR(rt_light_illuminance_lux(NULL, &sky, 0.5) / clear, 0.625, 1e-12);
	/* fog shortens sight: visibility caps every range */
	rt_light_params fog = rt_light_params_default();
	fog.visibility_m = 200.0;
	CHECK_NEAR(rt_light_detection_range_m(&fog, 1e5), 200.0, 1e-9);
	CHECK(rt_light_torch_detection_range_m(&fog, 0.0) < 1000.0);
}

TEST(env_light_params_refused_with_field)
{
	rt_error err;
	rt_light_params p = rt_light_params_default();
	CHECK_OK(rt_light_params_validate(&p, &err), err);
	p.identification_day_m = 2500.0;
	CHECK(rt_light_params_validate(&p, &err) == RT_ERR_INVALID);
	CHECK(strcmp(err.field, "identification_day_m") == 0 && strstr(err.message, "identification_day_m"));
	p = rt_light_params_default();
	p.dark_lux = -1.0;
	CHECK(rt_light_params_validate(&p, &err) == RT_ERR_INVALID);
	CHECK(strcmp(err.field, "dark_lux") == 0);
	p = rt_light_params_default();
	p.cloud_max_attenuation = NAN;
	CHECK(rt_light_params_validate(&p, &err) == RT_ERR_INVALID);
	CHECK(strcmp(err.field, "cloud_max_attenuation") == 0);
	rt_light_params zero;
	memset(&zero, 0, sizeof zero);
	CHECK(rt_light_params_validate(&zero, &err) == RT_ERR_INVALID);
	CHECK(strcmp(err.field, "cookie") == 0);
}

/* ---- tide -------------------------------------------------------------------------------- */

/* The time of the highest level in [t0, t1], by golden-section search (one maximum). */
static double time_of_high(const rt_tide_def *def, double t0, double t1)
{
	const double r = 0.6180339887498949;
	double a = t0, b = t1, c = b - r * (b - a), d = a + r * (b - a);
	while (b - a > 0.01) {
		if (rt_tide_level_m(def, c) > rt_tide_level_m(def, d)) b = d;
		else a = c;
		c = b - r * (b - a);
		d = a + r * (b - a);
	}
	return 0.5 * (a + b);
}

TEST(tide_m2_alone_high_water_every_12_42_h)
{
	rt_error err;
	rt_tide_def def = rt_tide_def_default();
	CHECK_OK(rt_tide_def_validate(&def, &err), err);
	CHECK(rt_tide_level_m(&def, 12345.0) == 0.0); /* the default is a calm sea */
	def.constituent_count = 1;
	def.constituents[0].amplitude_m = 1.0;
	def.constituents[0].phase_deg = 30.0;
	CHECK(strcmp(def.constituents[0].name, "M2") == 0);
	CHECK_OK(rt_tide_def_validate(&def, &err), err);
	double period_s = 360.0 / RT_TIDE_SPEED_M2_DEG_PER_H * 3600.0;
	/* successive high waters, each searched in its own 12.42 h window */
	double high[4];
	for (int k = 0; k < 4; ++k) {
		/* the first high is at -30 deg of phase: t = (360 - 30) / speed h */
		double centre = (330.0 / RT_TIDE_SPEED_M2_DEG_PER_H) * 3600.0 + k * period_s;
		high[k] = time_of_high(&def, centre - 0.4 * period_s, centre + 0.4 * period_s);
		CHECK_NEAR(rt_tide_level_m(&def, high[k]), 1.0, 1e-9);
	}
	for (int k = 1; k < 4; ++k) CHECK_NEAR((high[k] - high[k - 1]) / 3600.0, 12.42, 0.005);
	rt_test_note("M2 high waters %.4f h apart", (high[3] - high[0]) / 3 / 3600.0);
	/* periodic, also far from the reference instant */
	for (double t = -1e7; t < 1e7; t += 987654.3)
		CHECK_NEAR(rt_tide_level_m(&def, t + 40 * period_s), rt_tide_level_m(&def, t), 1e-9);
	/* low water is 1 m below mean */
	CHECK_NEAR(rt_tide_level_m(&def, high[0] + 0.5 * period_s), -1.0, 1e-9);
}

TEST(tide_m2_s2_spring_and_neap)
{
	rt_tide_def def = rt_tide_def_default();
	def.constituent_count = 2; /* M2 and S2 */
	def.constituents[0].amplitude_m = 1.0;
	def.constituents[0].phase_deg = 40.0;
	def.constituents[1].amplitude_m = 0.4;
	def.constituents[1].phase_deg = 100.0;
	def.mean_level_m = 2.0;
	/* range (high - low) over each M2 cycle for 40 days */
	double period_s = 360.0 / RT_TIDE_SPEED_M2_DEG_PER_H * 3600.0;
	enum { CYCLES = 77 };
	double range[CYCLES], middle[CYCLES];
	for (int k = 0; k < CYCLES; ++k) {
		double hi = -1e9, lo = 1e9;
		for (double t = k * period_s; t < (k + 1) * period_s; t += 60.0) {
			double level = rt_tide_level_m(&def, t);
			hi = fmax(hi, level);
			lo = fmin(lo, level);
		}
		range[k] = hi - lo;
		middle[k] = (k + 0.5) * period_s;
	}
	/* the two spring tides: largest range in the first 15 days and in the next 15 */
	int first = 0, second = -1;
	for (int k = 0; k < CYCLES; ++k)
		if (middle[k] < 15 * 86400.0 && range[k] > range[first]) first = k;
	for (int k = 0; k < CYCLES; ++k)
		if (middle[k] > middle[first] + 10 * 86400.0 && middle[k] < middle[first] + 20 * 86400.0 &&
		    (second < 0 || range[k] > range[second]))
			second = k;
	CHECK(second > first);
	double neap = 1e9;
	for (int k = first; k <= second; ++k) neap = fmin(neap, range[k]);
	double beat_days = 360.0 / (RT_TIDE_SPEED_S2_DEG_PER_H - RT_TIDE_SPEED_M2_DEG_PER_H) / 24.0;
	rt_test_note("spring range %.3f m, neap %.3f m, springs %.2f days apart (beat %.3f days)", range[first], neap,
		     (middle[second] - middle[first]) / 86400.0, beat_days);
	CHECK_NEAR(beat_days, 14.77, 0.01);
	CHECK_NEAR(range[first], 2.0 * (1.0 + 0.4), 0.03);
	CHECK_NEAR(neap, 2.0 * (1.0 - 0.4), 0.03);
	/* one M2 cycle resolves the spring to 0.52 days */
	CHECK_NEAR((middle[second] - middle[first]) / 86400.0, beat_days, 0.52);
	/* the spring falls where the two constituents are in phase: 40 + 28.98 t = 100 + 30 t */
	double in_phase_s = fmod(360.0 - 60.0, 360.0) / (RT_TIDE_SPEED_S2_DEG_PER_H - RT_TIDE_SPEED_M2_DEG_PER_H) * 3600.0;
	CHECK_NEAR(middle[first], in_phase_s, 0.52 * 86400.0);
}

TEST(tide_surge_adds_its_interpolated_value)
{
	rt_error err;
	rt_tide_def calm = rt_tide_def_default();
	calm.constituents[0].amplitude_m = 1.2;
	calm.constituents[2].amplitude_m = 0.3;
	calm.constituents[2].phase_deg = -75.0;
	rt_tide_def stormy = calm;
	const double times[] = {0.0, 3600.0, 7200.0, 10800.0};
	const double levels[] = {0.0, 2.0, 0.5, 0.5};
	stormy.surge_count = 4;
	stormy.surge_time_s = times;
	stormy.surge_level_m = levels;
	CHECK_OK(rt_tide_def_validate(&stormy, &err), err);
	const struct {
		double t_s, surge_m;
	} cases[] = {{-100.0, 0.0}, {0.0, 0.0}, {1800.0, 1.0}, {3600.0, 2.0}, {5400.0, 1.25}, {9000.0, 0.5}, {20000.0, 0.0}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		double t = cases[i].t_s;
		CHECK_NEAR(rt_tide_surge_m(&stormy, t), cases[i].surge_m, 1e-12);
		CHECK_NEAR(rt_tide_level_m(&stormy, t) - rt_tide_level_m(&calm, t), cases[i].surge_m, 1e-12);
	}
	/* HOLD keeps the end values outside the series */
	stormy.surge_outside = RT_SURGE_OUTSIDE_HOLD;
	CHECK_NEAR(rt_tide_surge_m(&stormy, 20000.0), 0.5, 1e-12);
	CHECK_NEAR(rt_tide_surge_m(&stormy, -5000.0), 0.0, 1e-12);
}

TEST(tide_bad_definitions_name_the_field)
{
	rt_error err;
	rt_tide_def def;
	const double times[] = {0.0, 3600.0, 3600.0};
	const double levels[] = {0.0, 1.0, 2.0};
	struct {
		const char *field;
		int which;
	} cases[] = {
		{"cookie", 0},
		{"constituent_count", 1},
		{"constituents[1].amplitude_m", 2},
		{"constituents[0].phase_deg", 3},
		{"constituents[3].speed_deg_per_h", 4},
		{"surge_time_s[2]", 5},
		{"surge_level_m", 6},
		{"mean_level_m", 7},
		{"constituents[2].name", 8},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		def = rt_tide_def_default();
		switch (cases[i].which) {
		case 0: memset(&def, 0, sizeof def); break;
		case 1: def.constituent_count = RT_TIDE_MAX_CONSTITUENTS + 1; break;
		case 2: def.constituents[1].amplitude_m = -0.5; break;
		case 3: def.constituents[0].phase_deg = NAN; break;
		case 4: def.constituents[3].speed_deg_per_h = INFINITY; break;
		case 5:
			def.surge_count = 3;
			def.surge_time_s = times;
			def.surge_level_m = levels;
			break;
		case 6:
			def.surge_count = 2;
			def.surge_time_s = times;
			break;
		case 7: def.mean_level_m = NAN; break;
		case 8: memset(def.constituents[2].name, 'K', sizeof def.constituents[2].name); break;
		}
		memset(&err, 0, sizeof err);
		CHECK_MSG(rt_tide_def_validate(&def, &err) == RT_ERR_INVALID, "case %s accepted", cases[i].field);
		CHECK_MSG(strcmp(err.field, cases[i].field) == 0, "field '%s', expected '%s'", err.field, cases[i].field);
		CHECK_MSG(strstr(err.message, cases[i].field) != NULL || cases[i].which == 0, "message '%s' does not name %s",
			  err.message, cases[i].field);
	}
	CHECK(rt_tide_def_validate(NULL, &err) == RT_ERR_INVALID);
	CHECK_NEAR(rt_tide_constituent_speed_deg_per_h("K1"), 15.0410686, 1e-9);
	CHECK(rt_tide_constituent_speed_deg_per_h("XX") == 0.0);
}
