/* The environment's pure core: where the Sun and Moon stand, how much light reaches the
 * ground, how far men see in it, and where the sea stands. Everything is a function of
 * (instant, place, parameters) with no state, so the env phase can evaluate it per step
 * or per cell in any order and on any thread and get the same bits.
 *
 * Astronomy is Meeus, "Astronomical Algorithms", 2nd ed. (1998): Julian Day (ch. 7),
 * sidereal time (ch. 12), horizontal and topocentric coordinates (ch. 11, 13, 40),
 * low-accuracy nutation (ch. 22), the Sun by the low-precision series of ch. 25
 * (~0.01 deg), the Moon by the full periodic terms of ch. 47 (tables 47.A and 47.B,
 * ~10 arcsec; the main terms alone would have done for 0.1 deg, but the whole table costs
 * nothing and makes the worked examples of the book usable as tests), the phase by
 * ch. 48 and rise/set altitudes by ch. 15. Rise and set are found by sampling and
 * bisection rather than Meeus's interpolation so the same code serves both bodies.
 * Light and tide models are cited where their constants are set.
 */
#include "rout/env.h"
#include "core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PI 3.14159265358979323846
#define DEG (PI / 180.0)

static double sind(double x) { return sin(x * DEG); }
static double cosd(double x) { return cos(x * DEG); }
static double asind(double x) { return asin(rt__clamp(x, -1.0, 1.0)) / DEG; }
static double atan2d(double y, double x) { return atan2(y, x) / DEG; }

/* An angle reduced to 0..360 deg. */
static double revolution(double x)
{
	double r = fmod(x, 360.0);
	return r < 0.0 ? r + 360.0 : r;
}

#define JD_J2000 2451545.0          /* 2000 January 1.5 TT */
#define DAYS_PER_CENTURY 36525.0
#define SECONDS_PER_DAY 86400.0
#define EARTH_RADIUS_KM 6378.14     /* equatorial, Meeus ch. 47 (parallax) */
#define EARTH_FLATTENING_B_OVER_A 0.99664719 /* Meeus ch. 11 */
#define AU_KM 149597870.7           /* IAU 2012 */
#define SUN_PARALLAX_AT_1AU_DEG (8.794 / 3600.0) /* Meeus ch. 40 */

/* ---- time ------------------------------------------------------------------------- */

static double floor_div(double a, double b) { return floor(a / b); }

double rt_julian_day_from_civil(int year, int month, int day, int hour, int minute, double second,
				double utc_offset_hours)
{
	/* carry months outside 1..12 into the year */
	double m0 = (double)month - 1.0;
	double y = (double)year + floor_div(m0, 12.0);
	double m = m0 - 12.0 * floor_div(m0, 12.0) + 1.0;
	if (m <= 2.0) {
		y -= 1.0;
		m += 12.0;
	}
	double a = floor(y / 100.0);
	double b = 2.0 - a + floor(a / 4.0); /* Gregorian at every date: proleptic */
	double jd = floor(365.25 * (y + 4716.0)) + floor(30.6001 * (m + 1.0)) + (double)day + b - 1524.5;
	double hours = (double)hour + (double)minute / 60.0 + second / 3600.0 - utc_offset_hours;
	return jd + hours / 24.0;
}

rt_civil_time rt_civil_from_julian_day(double jd_ut, double utc_offset_hours)
{
	rt_civil_time c = { 0, 0, 0, 0, 0, 0.0 };
	double jd = jd_ut + utc_offset_hours / 24.0 + 0.5;
	double z = floor(jd), f = jd - z;
	double alpha = floor((z - 1867216.25) / 36524.25); /* Gregorian at every date */
	double a = z + 1.0 + alpha - floor(alpha / 4.0);
	double b = a + 1524.0;
	double cc = floor((b - 122.1) / 365.25);
	double d = floor(365.25 * cc);
	double e = floor((b - d) / 30.6001);
	c.day = (int)(b - d - floor(30.6001 * e));
	c.month = (int)(e < 14.0 ? e - 1.0 : e - 13.0);
	c.year = (int)(c.month > 2 ? cc - 4716.0 : cc - 4715.0);
	double seconds = f * SECONDS_PER_DAY;
	c.hour = (int)floor(seconds / 3600.0);
	seconds -= 3600.0 * c.hour;
	c.minute = (int)floor(seconds / 60.0);
	c.second = seconds - 60.0 * c.minute;
	if (c.hour > 23) c.hour = 23; /* rounding at the very end of a day */
	if (c.minute > 59) c.minute = 59;
	if (c.second < 0.0) c.second = 0.0;
	return c;
}

/* Espenak & Meeus (2006), NASA TP-2006-214141, section "Polynomial expressions for
 * Delta T", valid -1999..+3000; y is the decimal year. */
double rt_astro_delta_t_s(double y)
{
	double t, u;
	if (y < -500.0 || y >= 2150.0) {
		u = (y - 1820.0) / 100.0;
		return -20.0 + 32.0 * u * u;
	}
	if (y < 500.0) {
		u = y / 100.0;
		return 10583.6 + u * (-1014.41 + u * (33.78311 + u * (-5.952053 + u * (-0.1798452 + u * (0.022174192 + u * 0.0090316521)))));
	}
	if (y < 1600.0) {
		u = (y - 1000.0) / 100.0;
		return 1574.2 + u * (-556.01 + u * (71.23472 + u * (0.319781 + u * (-0.8503463 + u * (-0.005050998 + u * 0.0083572073)))));
	}
	if (y < 1700.0) {
		t = y - 1600.0;
		return 120.0 + t * (-0.9808 + t * (-0.01532 + t / 7129.0));
	}
	if (y < 1800.0) {
		t = y - 1700.0;
		return 8.83 + t * (0.1603 + t * (-0.0059285 + t * (0.00013336 - t / 1174000.0)));
	}
	if (y < 1860.0) {
		t = y - 1800.0;
		return 13.72 + t * (-0.332447 + t * (0.0068612 + t * (0.0041116 + t * (-0.00037436 + t * (0.0000121272 + t * (-0.0000001699 + t * 0.000000000875))))));
	}
	if (y < 1900.0) {
		t = y - 1860.0;
		return 7.62 + t * (0.5737 + t * (-0.251754 + t * (0.01680668 + t * (-0.0004473624 + t / 233174.0))));
	}
	if (y < 1920.0) {
		t = y - 1900.0;
		return -2.79 + t * (1.494119 + t * (-0.0598939 + t * (0.0061966 - t * 0.000197)));
	}
	if (y < 1941.0) {
		t = y - 1920.0;
		return 21.20 + t * (0.84493 + t * (-0.076100 + t * 0.0020936));
	}
	if (y < 1961.0) {
		t = y - 1950.0;
		return 29.07 + t * (0.407 + t * (-1.0 / 233.0 + t / 2547.0));
	}
	if (y < 1986.0) {
		t = y - 1975.0;
		return 45.45 + t * (1.067 + t * (-1.0 / 260.0 - t / 718.0));
	}
	if (y < 2005.0) {
		t = y - 2000.0;
		return 63.86 + t * (0.3345 + t * (-0.060374 + t * (0.0017275 + t * (0.000651814 + t * 0.00002373599))));
	}
	if (y < 2050.0) {
		t = y - 2000.0;
		return 62.92 + t * (0.32217 + t * 0.005589);
	}
	u = (y - 1820.0) / 100.0;
	return -20.0 + 32.0 * u * u - 0.5628 * (2150.0 - y);
}

static double decimal_year(double jd) { return 2000.0 + (jd - 2451544.5) / 365.2425; }

/* Julian Ephemeris Day (TT) of a UT instant. */
static double ephemeris_day(double jd_ut) { return jd_ut + rt_astro_delta_t_s(decimal_year(jd_ut)) / SECONDS_PER_DAY; }

/* ---- the Earth's frame: nutation, obliquity, sidereal time ------------------------- */

typedef struct earth_frame {
	double nutation_longitude_deg; /* delta psi */
	double true_obliquity_deg;     /* epsilon0 + delta epsilon */
} earth_frame;

static earth_frame earth_frame_at(double jde)
{
	double t = (jde - JD_J2000) / DAYS_PER_CENTURY;
	/* mean obliquity, Meeus eq. 22.2 */
	double eps0 = 23.0 + 26.0 / 60.0 + (21.448 + t * (-46.8150 + t * (-0.00059 + t * 0.001813))) / 3600.0;
	/* nutation to 0.5" (psi) and 0.1" (eps), Meeus ch. 22 "low accuracy" */
	double omega = 125.04452 - 1934.136261 * t;
	double l_sun = 280.4665 + 36000.7698 * t;
	double l_moon = 218.3165 + 481267.8813 * t;
	double dpsi = -17.20 * sind(omega) - 1.32 * sind(2.0 * l_sun) - 0.23 * sind(2.0 * l_moon) + 0.21 * sind(2.0 * omega);
	double deps = 9.20 * cosd(omega) + 0.57 * cosd(2.0 * l_sun) + 0.10 * cosd(2.0 * l_moon) - 0.09 * cosd(2.0 * omega);
	earth_frame f = { dpsi / 3600.0, eps0 + deps / 3600.0 };
	return f;
}

/* Apparent sidereal time at Greenwich (deg), Meeus eq. 12.4 plus the equation of the
 * equinoxes. */
static double greenwich_sidereal_deg(double jd_ut, const earth_frame *frame)
{
	double d = jd_ut - JD_J2000, t = d / DAYS_PER_CENTURY;
	double mean = 280.46061837 + 360.98564736629 * d + t * t * (0.000387933 - t / 38710000.0);
	return revolution(mean + frame->nutation_longitude_deg * cosd(frame->true_obliquity_deg));
}

typedef struct equatorial {
	double ra_deg, dec_deg, distance_km;
} equatorial;

static equatorial ecliptic_to_equatorial(double lambda_deg, double beta_deg, double eps_deg, double distance_km)
{
	equatorial q;
	q.ra_deg = revolution(atan2d(sind(lambda_deg) * cosd(eps_deg) - tan(beta_deg * DEG) * sind(eps_deg), cosd(lambda_deg)));
	q.dec_deg = asind(sind(beta_deg) * cosd(eps_deg) + cosd(beta_deg) * sind(eps_deg) * sind(lambda_deg));
	q.distance_km = distance_km;
	return q;
}

/* ---- the Sun: Meeus ch. 25, low precision --------------------------------------- */

static equatorial sun_equatorial(double jde)
{
	double t = (jde - JD_J2000) / DAYS_PER_CENTURY;
	double l0 = 280.46646 + t * (36000.76983 + t * 0.0003032);          /* eq. 25.2 */
	double m = 357.52911 + t * (35999.05029 - t * 0.0001537);           /* eq. 25.3 */
	double e = 0.016708634 - t * (0.000042037 + t * 0.0000001267);      /* eq. 25.4 */
	double c = (1.914602 - t * (0.004817 + t * 0.000014)) * sind(m) + (0.019993 - 0.000101 * t) * sind(2.0 * m) +
		   0.000289 * sind(3.0 * m);
	double true_longitude = l0 + c, true_anomaly = m + c;
	double r_au = 1.000001018 * (1.0 - e * e) / (1.0 + e * cosd(true_anomaly)); /* eq. 25.5 */
	double omega = 125.04 - 1934.136 * t;
	double lambda = true_longitude - 0.00569 - 0.00478 * sind(omega); /* apparent */
	double eps0 = 23.0 + 26.0 / 60.0 + (21.448 + t * (-46.8150 + t * (-0.00059 + t * 0.001813))) / 3600.0;
	double eps = eps0 + 0.00256 * cosd(omega);                         /* eq. 25.8 */
	return ecliptic_to_equatorial(lambda, 0.0, eps, r_au * AU_KM);
}

/* ---- the Moon: Meeus ch. 47, tables 47.A and 47.B ---------------------------------- */

/* Multiples of D, M, M', F; sine coefficient of longitude (1e-6 deg); cosine
 * coefficient of distance (1e-3 km). */
static const struct {
	signed char d, m, mp, f;
	int32_t l, r;
} moon_lr[60] = {
	{0, 0, 1, 0, 6288774, -20905355}, {2, 0, -1, 0, 1274027, -3699111}, {2, 0, 0, 0, 658314, -2955968},
	{0, 0, 2, 0, 213618, -569925},    {0, 1, 0, 0, -185116, 48888},     {0, 0, 0, 2, -114332, -3149},
	{2, 0, -2, 0, 58793, 246158},     {2, -1, -1, 0, 57066, -152138},   {2, 0, 1, 0, 53322, -170733},
	{2, -1, 0, 0, 45758, -204586},    {0, 1, -1, 0, -40923, -129620},   {1, 0, 0, 0, -34720, 108743},
	{0, 1, 1, 0, -30383, 104755},     {2, 0, 0, -2, 15327, 10321},      {0, 0, 1, 2, -12528, 0},
	{0, 0, 1, -2, 10980, 79661},      {4, 0, -1, 0, 10675, -34782},     {0, 0, 3, 0, 10034, -23210},
	{4, 0, -2, 0, 8548, -21636},      {2, 1, -1, 0, -7888, 24208},      {2, 1, 0, 0, -6766, 30824},
	{1, 0, -1, 0, -5163, -8379},      {1, 1, 0, 0, 4987, -16675},       {2, -1, 1, 0, 4036, -12831},
	{2, 0, 2, 0, 3994, -10445},       {4, 0, 0, 0, 3861, -11650},       {2, 0, -3, 0, 3665, 14403},
	{0, 1, -2, 0, -2689, -7003},      {2, 0, -1, 2, -2602, 0},          {2, -1, -2, 0, 2390, 10056},
	{1, 0, 1, 0, -2348, 6322},        {2, -2, 0, 0, 2236, -9884},       {0, 1, 2, 0, -2120, 5751},
	{0, 2, 0, 0, -2069, 0},           {2, -2, -1, 0, 2048, -4950},      {2, 0, 1, -2, -1773, 4130},
	{2, 0, 0, 2, -1595, 0},           {4, -1, -1, 0, 1215, -3958},      {0, 0, 2, 2, -1110, 0},
	{3, 0, -1, 0, -892, 3258},        {2, 1, 1, 0, -810, 2616},         {4, -1, -2, 0, 759, -1897},
	{0, 2, -1, 0, -713, -2117},       {2, 2, -1, 0, -700, 2354},        {2, 1, -2, 0, 691, 0},
	{2, -1, 0, -2, 596, 0},           {4, 0, 1, 0, 549, -1423},         {0, 0, 4, 0, 537, -1117},
	{4, -1, 0, 0, 520, -1571},        {1, 0, -2, 0, -487, -1739},       {2, 1, 0, -2, -399, 0},
	{0, 0, 2, -2, -381, -4421},       {1, 1, 1, 0, 351, 0},             {3, 0, -2, 0, -340, 0},
	{4, 0, -3, 0, 330, 0},            {2, -1, 2, 0, 327, 0},            {0, 2, 1, 0, -323, 1165},
	{1, 1, -1, 0, 299, 0},            {2, 0, 3, 0, 294, 0},             {2, 0, -1, -2, 0, 8752},
};

/* Multiples of D, M, M', F; sine coefficient of latitude (1e-6 deg). */
static const struct {
	signed char d, m, mp, f;
	int32_t b;
} moon_b[60] = {
	{0, 0, 0, 1, 5128122}, {0, 0, 1, 1, 280602}, {0, 0, 1, -1, 277693}, {2, 0, 0, -1, 173237},
	{2, 0, -1, 1, 55413},  {2, 0, -1, -1, 46271}, {2, 0, 0, 1, 32573},   {0, 0, 2, 1, 17198},
	{2, 0, 1, -1, 9266},   {0, 0, 2, -1, 8822},   {2, -1, 0, -1, 8216},  {2, 0, -2, -1, 4324},
	{2, 0, 1, 1, 4200},    {2, 1, 0, -1, -3359},  {2, -1, -1, 1, 2463},  {2, -1, 0, 1, 2211},
	{2, -1, -1, -1, 2065}, {0, 1, -1, -1, -1870}, {4, 0, -1, -1, 1828},  {0, 1, 0, 1, -1794},
	{0, 0, 0, 3, -1749},   {0, 1, -1, 1, -1565},  {1, 0, 0, 1, -1491},   {0, 1, 1, 1, -1475},
	{0, 1, 1, -1, -1410},  {0, 1, 0, -1, -1344},  {1, 0, 0, -1, -1335},  {0, 0, 3, 1, 1107},
	{4, 0, 0, -1, 1021},   {4, 0, -1, 1, 833},    {0, 0, 1, -3, 777},    {4, 0, -2, 1, 671},
	{2, 0, 0, -3, 607},    {2, 0, 2, -1, 596},    {2, -1, 1, -1, 491},   {2, 0, -2, 1, -451},
	{0, 0, 3, -1, 439},    {2, 0, 2, 1, 422},     {2, 0, -3, -1, 421},   {2, 1, -1, 1, -366},
	{2, 1, 0, 1, -351},    {4, 0, 0, 1, 331},     {2, -1, 1, 1, 315},    {2, -2, 0, -1, 302},
	{0, 0, 1, 3, -283},    {2, 1, 1, -1, -229},   {1, 1, 0, -1, 223},    {1, 1, 0, 1, 223},
	{0, 1, -2, -1, -220},  {2, 1, -1, -1, -220},  {1, 0, 1, 1, -185},    {2, -1, -2, -1, 181},
	{0, 1, 2, 1, -177},    {4, 0, -2, -1, 176},   {4, -1, -1, -1, 166},  {1, 0, 1, -1, -164},
	{4, 0, 1, -1, 132},    {1, 0, -1, -1, -119},  {4, -1, 0, -1, 115},   {2, -2, 0, 1, 107},
};

static equatorial moon_equatorial(double jde, const earth_frame *frame)
{
	double t = (jde - JD_J2000) / DAYS_PER_CENTURY;
	/* fundamental arguments, Meeus eq. 47.1-47.5 */
	double lp = revolution(218.3164477 + t * (481267.88123421 + t * (-0.0015786 + t * (1.0 / 538841.0 - t / 65194000.0))));
	double d = revolution(297.8501921 + t * (445267.1114034 + t * (-0.0018819 + t * (1.0 / 545868.0 - t / 113065000.0))));
	double m = revolution(357.5291092 + t * (35999.0502909 + t * (-0.0001536 + t / 24490000.0)));
	double mp = revolution(134.9633964 + t * (477198.8675055 + t * (0.0087414 + t * (1.0 / 69699.0 - t / 14712000.0))));
	double f = revolution(93.2720950 + t * (483202.0175233 + t * (-0.0036539 + t * (-1.0 / 3526000.0 + t / 863310000.0))));
	double a1 = 119.75 + 131.849 * t, a2 = 53.09 + 479264.290 * t, a3 = 313.45 + 481266.484 * t;
	double e = 1.0 - t * (0.002516 + t * 0.0000074); /* eq. 47.6: the Earth's eccentricity factor */

	double sum_l = 0.0, sum_r = 0.0, sum_b = 0.0;
	for (int i = 0; i < 60; ++i) {
		double arg = moon_lr[i].d * d + moon_lr[i].m * m + moon_lr[i].mp * mp + moon_lr[i].f * f;
		double scale = moon_lr[i].m == 0 ? 1.0 : (abs(moon_lr[i].m) == 1 ? e : e * e);
		sum_l += scale * moon_lr[i].l * sind(arg);
		sum_r += scale * moon_lr[i].r * cosd(arg);
	}
	for (int i = 0; i < 60; ++i) {
		double arg = moon_b[i].d * d + moon_b[i].m * m + moon_b[i].mp * mp + moon_b[i].f * f;
		double scale = moon_b[i].m == 0 ? 1.0 : (abs(moon_b[i].m) == 1 ? e : e * e);
		sum_b += scale * moon_b[i].b * sind(arg);
	}
	/* additive terms: Venus (A1), Jupiter (A2), the Earth's flattening (L' - F) */
	sum_l += 3958.0 * sind(a1) + 1962.0 * sind(lp - f) + 318.0 * sind(a2);
	sum_b += -2235.0 * sind(lp) + 382.0 * sind(a3) + 175.0 * sind(a1 - f) + 175.0 * sind(a1 + f) +
		 127.0 * sind(lp - mp) - 115.0 * sind(lp + mp);

	double lambda = lp + sum_l / 1e6 + frame->nutation_longitude_deg; /* apparent */
	double beta = sum_b / 1e6;
	double distance_km = 385000.56 + sum_r / 1000.0;
	return ecliptic_to_equatorial(lambda, beta, frame->true_obliquity_deg, distance_km);
}

/* ---- positions ---------------------------------------------------------------------- */

static bool valid_place(double latitude_deg, double longitude_deg)
{
	return isfinite(latitude_deg) && isfinite(longitude_deg) && fabs(latitude_deg) <= 90.0;
}

static equatorial body_equatorial(rt_body body, double jde, const earth_frame *frame)
{
	return body == RT_BODY_SUN ? sun_equatorial(jde) : moon_equatorial(jde, frame);
}

rt_body_position rt_astro_body_position(rt_body body, double jd_ut, double latitude_deg, double longitude_deg)
{
	rt_body_position p = { NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	if ((body != RT_BODY_SUN && body != RT_BODY_MOON) || !isfinite(jd_ut) || !valid_place(latitude_deg, longitude_deg))
		return p;
	double jde = ephemeris_day(jd_ut);
	earth_frame frame = earth_frame_at(jde);
	equatorial q = body_equatorial(body, jde, &frame);
	double sin_parallax = body == RT_BODY_SUN ? sind(SUN_PARALLAX_AT_1AU_DEG) * AU_KM / q.distance_km
						  : EARTH_RADIUS_KM / q.distance_km;
	double hour_angle = greenwich_sidereal_deg(jd_ut, &frame) + longitude_deg - q.ra_deg;
	double phi = latitude_deg;

	p.right_ascension_deg = q.ra_deg;
	p.declination_deg = q.dec_deg;
	p.distance_km = q.distance_km;
	p.horizontal_parallax_deg = asind(sin_parallax);
	p.geocentric_altitude_deg = asind(sind(phi) * sind(q.dec_deg) + cosd(phi) * cosd(q.dec_deg) * cosd(hour_angle));

	/* topocentric place for an observer at sea level, Meeus ch. 11 and eq. 40.2-40.3 */
	double u = atan(EARTH_FLATTENING_B_OVER_A * tan(phi * DEG));
	double rho_sin = EARTH_FLATTENING_B_OVER_A * sin(u), rho_cos = cos(u);
	double denom = cosd(q.dec_deg) - rho_cos * sin_parallax * cosd(hour_angle);
	double d_ra = atan2d(-rho_cos * sin_parallax * sind(hour_angle), denom);
	double dec_topo = atan2d((sind(q.dec_deg) - rho_sin * sin_parallax) * cosd(d_ra), denom);
	double h_topo = hour_angle - d_ra;

	p.altitude_deg = asind(sind(phi) * sind(dec_topo) + cosd(phi) * cosd(dec_topo) * cosd(h_topo));
	/* azimuth from north through east (Meeus eq. 13.5 counts from south) */
	p.azimuth_deg = revolution(atan2d(-cosd(dec_topo) * sind(h_topo),
					  sind(dec_topo) * cosd(phi) - cosd(dec_topo) * cosd(h_topo) * sind(phi)));
	return p;
}

/* Phase angle from the geocentric places of both bodies, Meeus eq. 48.2-48.3. */
static double phase_angle_at(double jde)
{
	earth_frame frame = earth_frame_at(jde);
	equatorial sun = sun_equatorial(jde), moon = moon_equatorial(jde, &frame);
	double cos_elongation = sind(sun.dec_deg) * sind(moon.dec_deg) +
				cosd(sun.dec_deg) * cosd(moon.dec_deg) * cosd(sun.ra_deg - moon.ra_deg);
	double elongation = acos(rt__clamp(cos_elongation, -1.0, 1.0));
	return atan2d(sun.distance_km * sin(elongation), moon.distance_km - sun.distance_km * cos(elongation));
}

double rt_astro_moon_phase_angle_deg(double jd_ut)
{
	if (!isfinite(jd_ut)) return NAN;
	return phase_angle_at(ephemeris_day(jd_ut));
}

double rt_astro_moon_illuminated_fraction(double jd_ut)
{
	return 0.5 * (1.0 + cosd(rt_astro_moon_phase_angle_deg(jd_ut)));
}

rt_sky rt_sky_at(double jd_ut, double latitude_deg, double longitude_deg)
{
	rt_sky s;
	s.sun = rt_astro_body_position(RT_BODY_SUN, jd_ut, latitude_deg, longitude_deg);
	s.moon = rt_astro_body_position(RT_BODY_MOON, jd_ut, latitude_deg, longitude_deg);
	s.moon_phase_angle_deg = rt_astro_moon_phase_angle_deg(jd_ut);
	s.moon_illuminated_fraction = 0.5 * (1.0 + cosd(s.moon_phase_angle_deg));
	return s;
}

/* ---- rise and set ------------------------------------------------------------------- */

#define EVENT_SAMPLE_S 600.0     /* scan step: well under the shortest time above the horizon */
#define EVENT_RESOLUTION_S 0.5   /* bisect until the bracket is this short */

/* Geocentric altitude above the body's standard altitude (deg): positive when it is up. */
static double above_standard_altitude(rt_body body, double jd_ut, double latitude_deg, double longitude_deg)
{
	rt_body_position p = rt_astro_body_position(body, jd_ut, latitude_deg, longitude_deg);
	double standard = body == RT_BODY_SUN ? RT_ASTRO_SUN_STANDARD_ALTITUDE_DEG
					      : RT_ASTRO_MOON_PARALLAX_FACTOR * p.horizontal_parallax_deg - RT_ASTRO_MOON_REFRACTION_DEG;
	return p.geocentric_altitude_deg - standard;
}

rt_status rt_astro_next_event(rt_body body, rt_horizon_event event, double jd_start, double latitude_deg,
			      double longitude_deg, double *jd_out, rt_error *err)
{
	if (body != RT_BODY_SUN && body != RT_BODY_MOON)
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "body", "body is %d; expected RT_BODY_SUN or RT_BODY_MOON",
				   (int)body);
	if (event != RT_EVENT_RISE && event != RT_EVENT_SET)
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "event", "event is %d; expected RT_EVENT_RISE or RT_EVENT_SET",
				   (int)event);
	if (!isfinite(jd_start))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "jd_start", "jd_start is %g; expected a finite Julian Day",
				   jd_start);
	if (!isfinite(latitude_deg) || fabs(latitude_deg) > 90.0)
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "latitude_deg",
				   "latitude_deg is %g; expected -90..90", latitude_deg);
	if (!isfinite(longitude_deg))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "longitude_deg",
				   "longitude_deg is %g; expected a finite number of degrees east", longitude_deg);
	if (!jd_out) return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "jd_out", "jd_out is NULL");

	const double step_d = EVENT_SAMPLE_S / SECONDS_PER_DAY;
	const double window_d = RT_ASTRO_EVENT_WINDOW_H / 24.0;
	const int samples = (int)ceil(window_d / step_d);
	double t0 = jd_start;
	double f0 = above_standard_altitude(body, t0, latitude_deg, longitude_deg);
	for (int k = 1; k <= samples; ++k) {
		double t1 = k == samples ? jd_start + window_d : jd_start + k * step_d;
		double f1 = above_standard_altitude(body, t1, latitude_deg, longitude_deg);
		bool crossed = event == RT_EVENT_RISE ? (f0 < 0.0 && f1 >= 0.0) : (f0 > 0.0 && f1 <= 0.0);
		if (crossed) {
			/* the sign of f at the lower end stays that of f0 throughout */
			while ((t1 - t0) * SECONDS_PER_DAY > EVENT_RESOLUTION_S) {
				double mid = 0.5 * (t0 + t1);
				double fm = above_standard_altitude(body, mid, latitude_deg, longitude_deg);
				bool mid_before = event == RT_EVENT_RISE ? fm < 0.0 : fm > 0.0;
				if (mid_before) t0 = mid;
				else t1 = mid;
			}
			*jd_out = 0.5 * (t0 + t1);
			return RT_OK;
		}
		t0 = t1;
		f0 = f1;
	}
	return rt__fail(err, RT_ERR_STATE, "the %s does not %s within %g h after JD %.5f at latitude %g",
			body == RT_BODY_SUN ? "sun" : "moon", event == RT_EVENT_RISE ? "rise" : "set",
			RT_ASTRO_EVENT_WINDOW_H, jd_start, latitude_deg);
}

/* ---- light ---------------------------------------------------------------------------- */

rt_light_params rt_light_params_default(void)
{
	rt_light_params p;
	/* Full Moon at the zenith at mean distance: ~0.25-0.27 lux (Schlyter, "Radiometry
	 * and photometry in astronomy", stjarnhimlen.se/comp/radfaq.html; Krisciunas &
	 * Schaefer 1991, PASP 103:1033, Moon V = -12.7). */
	p.moon_full_zenith_lux = 0.25;
	p.moon_mean_distance_km = 384400.0; /* mean Earth-Moon distance */
	/* Clear moonless night, starlight and airglow: ~0.001 lux (Schlyter, ibid.; the
	 * RCA Electro-Optics Handbook table of natural illuminances). */
	p.night_sky_lux = 0.001;
	/* Cloud: overcast removes up to 75 % of the light, after Kasten & Czeplak (1980),
	 * Solar Energy 24:177, G = G_clear (1 - 0.75 (N/8)^3.4). We keep their maximum but
	 * default to a linear dependence on cover (exponent 1), so that thin cloud already
	 * darkens a moonlit night; set 3.4 for their daytime fit. */
	p.cloud_max_attenuation = 0.75;
	p.cloud_cover_exponent = 1.0;
	/* The span over which sight changes with light: starlight (0.001 lux) to an overcast
	 * day (1,000 lux), Schlyter's table; beyond it the eye is saturated in daylight or
	 * at its scotopic floor at night. */
	p.dark_lux = 0.001;
	p.daylight_lux = 1000.0;
	/* Anchor ranges (estimates, E; docs/model.md): in daylight a standing man is seen at
	 * about 2 km and identified by dress and banners at about 300 m; by starlight he is
	 * made out at about 25 m and recognised at about 5 m. */
	p.detection_day_m = 2000.0;
	p.detection_night_m = 25.0;
	p.identification_day_m = 300.0;
	p.identification_night_m = 5.0;
	/* A pitch or resin torch: a flame of order 100 cd (a candle is ~1 cd; a large open
	 * flame of a few hundred cm^2 some tens to hundreds of cd). Estimate (E). */
	p.torch_intensity_cd = 100.0;
	/* Threshold illuminance at the eye for noticing a point light: 2e-7 lux at night
	 * and 1e-3 lux by day, IALA Recommendation E-200-2 (2008), "Marine signal lights,
	 * part 2: calculation, definition and notation of luminous range". */
	p.torch_threshold_dark_lux = 2e-7;
	p.torch_threshold_day_lux = 1e-3;
	/* Meteorological visibility 10 nautical miles: the clear-air reference of IALA's
	 * nominal range (transmissivity 0.74 per nautical mile). Rain and fog lower it. */
	p.visibility_m = 18520.0;
	p.cookie = RT_COOKIE;
	return p;
}

static rt_status light_field_fail(rt_error *err, const char *field, double value, const char *expected)
{
	return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, field, "light parameter %s is %g; expected %s", field, value,
			   expected);
}

rt_status rt_light_params_validate(const rt_light_params *p, rt_error *err)
{
	if (!p) return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "params", "light parameters are NULL");
	if (p->cookie != RT_COOKIE)
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "cookie",
				   "light parameters were not filled by rt_light_params_default (cookie is %08x)", p->cookie);
	struct {
		const char *name;
		double value;
	} positive[] = {
		{"moon_full_zenith_lux", p->moon_full_zenith_lux},
		{"moon_mean_distance_km", p->moon_mean_distance_km},
		{"night_sky_lux", p->night_sky_lux},
		{"cloud_cover_exponent", p->cloud_cover_exponent},
		{"dark_lux", p->dark_lux},
		{"daylight_lux", p->daylight_lux},
		{"detection_day_m", p->detection_day_m},
		{"detection_night_m", p->detection_night_m},
		{"identification_day_m", p->identification_day_m},
		{"identification_night_m", p->identification_night_m},
		{"torch_intensity_cd", p->torch_intensity_cd},
		{"torch_threshold_dark_lux", p->torch_threshold_dark_lux},
		{"torch_threshold_day_lux", p->torch_threshold_day_lux},
		{"visibility_m", p->visibility_m},
	};
	for (size_t i = 0; i < sizeof positive / sizeof positive[0]; ++i)
		if (!isfinite(positive[i].value) || positive[i].value <= 0.0)
			return light_field_fail(err, positive[i].name, positive[i].value, "a finite number > 0");
	if (!(p->cloud_max_attenuation >= 0.0 && p->cloud_max_attenuation <= 1.0))
		return light_field_fail(err, "cloud_max_attenuation", p->cloud_max_attenuation, "0..1");
	if (!(p->daylight_lux > p->dark_lux))
		return light_field_fail(err, "daylight_lux", p->daylight_lux, "more than dark_lux");
	if (!(p->detection_day_m >= p->detection_night_m))
		return light_field_fail(err, "detection_day_m", p->detection_day_m, "at least detection_night_m");
	if (!(p->identification_day_m >= p->identification_night_m))
		return light_field_fail(err, "identification_day_m", p->identification_day_m,
					"at least identification_night_m");
	if (!(p->identification_day_m < p->detection_day_m))
		return light_field_fail(err, "identification_day_m", p->identification_day_m, "less than detection_day_m");
	if (!(p->identification_night_m < p->detection_night_m))
		return light_field_fail(err, "identification_night_m", p->identification_night_m,
					"less than detection_night_m");
	if (!(p->torch_threshold_day_lux >= p->torch_threshold_dark_lux))
		return light_field_fail(err, "torch_threshold_day_lux", p->torch_threshold_day_lux,
					"at least torch_threshold_dark_lux");
	return RT_OK;
}

static const rt_light_params *light_params_or_default(const rt_light_params *params, rt_light_params *storage)
{
	if (params) return params;
	*storage = rt_light_params_default();
	return storage;
}

/* Sun: Janiczek & DeYoung (1987), "Computer programs for sun and moon illuminance with
 * contingent tables and diagrams", US Naval Observatory Circular 171: a clear-sky fit
 * log10(E / lux) = a0 + a1 x + a2 x^2 + a3 x^3, x = altitude / 90 deg, in six altitude
 * bands from -18 deg up. It gives the familiar twilight values: ~760 lux at 0 deg,
 * 3.4 lux at -6 (end of civil twilight), 0.008 at -12 (nautical), 0.0007 at -18. The
 * published bands meet to within 0.005 in log10 (1 %); each lower band is shifted by
 * that small step so they join exactly and the light never jumps or dips as the Sun
 * rises. Below -18 deg we continue with the fit's own slope (0.217 decades per degree)
 * so the light fades without a jump. */
static const struct {
	double from_deg;
	double a[4];
} sun_bands[6] = {
	{20.0, {3.74, 3.97, -4.07, 1.47}},
	{5.0, {3.05, 13.28, -45.98, 64.33}},
	{-0.8, {2.88, 22.26, -207.64, 1034.30}},
	{-5.0, {2.88, 21.81, -258.11, -858.36}},
	{-12.0, {2.70, 12.17, -431.69, -1899.83}},
	{-18.0, {13.84, 262.72, 1447.42, 2797.93}},
};

static double sun_band_polynomial(int band, double altitude_deg)
{
	double x = altitude_deg / 90.0;
	const double *a = sun_bands[band].a;
	return a[0] + x * (a[1] + x * (a[2] + x * a[3]));
}

/* log10 lux in a band, shifted to meet the band above at their common edge. */
static double sun_band_log10_lux(int band, double altitude_deg)
{
	double shift = 0.0;
	for (int b = 1; b <= band; ++b) {
		double edge = sun_bands[b - 1].from_deg;
		shift += sun_band_polynomial(b - 1, edge) - sun_band_polynomial(b, edge);
	}
	return sun_band_polynomial(band, altitude_deg) + shift;
}

double rt_light_sun_lux(double sun_altitude_deg)
{
	if (isnan(sun_altitude_deg)) return 0.0;
	double h = fmin(sun_altitude_deg, 90.0);
	for (int band = 0; band < 6; ++band)
		if (h >= sun_bands[band].from_deg) return pow(10.0, sun_band_log10_lux(band, h));
	/* slope of the last band at -18 deg, in decades per degree */
	double x = -18.0 / 90.0;
	const double *a = sun_bands[5].a;
	double slope = (a[1] + x * (2.0 * a[2] + x * 3.0 * a[3])) / 90.0;
	return pow(10.0, sun_band_log10_lux(5, -18.0) + slope * (h + 18.0));
}

/* Moon: full-Moon zenith illuminance, scaled by the phase law of Allen (1973) as used by
 * Krisciunas & Schaefer (1991, eq. 20): m = 0.026 |i| + 4e-9 i^4 magnitudes fainter at
 * phase angle i (deg) - a quarter Moon gives ~9 % of the full - by sin(altitude) for a
 * horizontal surface, and by the inverse square of distance. Extinction near the
 * horizon and the opposition surge are left out (both within the factor-of-two spread
 * of the moonlight a real night gives). */
double rt_light_moon_lux(const rt_light_params *params, double moon_altitude_deg, double moon_phase_angle_deg,
			 double moon_distance_km)
{
	rt_light_params storage;
	const rt_light_params *p = light_params_or_default(params, &storage);
	if (!(moon_altitude_deg > 0.0) || !isfinite(moon_phase_angle_deg) || !(moon_distance_km > 0.0)) return 0.0;
	double i = fmin(fabs(moon_phase_angle_deg), 180.0);
	double fainter_mag = 0.026 * i + 4e-9 * i * i * i * i;
	double distance_ratio = p->moon_mean_distance_km / moon_distance_km;
	return p->moon_full_zenith_lux * pow(10.0, -0.4 * fainter_mag) * sind(fmin(moon_altitude_deg, 90.0)) *
	       distance_ratio * distance_ratio;
}

double rt_light_illuminance_lux(const rt_light_params *params, const rt_sky *sky, double cloud_cover)
{
	rt_light_params storage;
	const rt_light_params *p = light_params_or_default(params, &storage);
	double lux = p->night_sky_lux;
	if (sky) {
		lux += rt_light_sun_lux(sky->sun.altitude_deg);
		lux += rt_light_moon_lux(p, sky->moon.altitude_deg, sky->moon_phase_angle_deg, sky->moon.distance_km);
	}
	double cover = isnan(cloud_cover) ? 0.0 : rt__clamp(cloud_cover, 0.0, 1.0);
	return lux * (1.0 - p->cloud_max_attenuation * pow(cover, p->cloud_cover_exponent));
}

/* Where the light lies between dark_lux (0) and daylight_lux (1) on a log scale. */
static double light_fraction(const rt_light_params *p, double illuminance_lux)
{
	if (!(illuminance_lux > p->dark_lux)) return 0.0;
	if (illuminance_lux >= p->daylight_lux) return 1.0;
	return log(illuminance_lux / p->dark_lux) / log(p->daylight_lux / p->dark_lux);
}

/* night * (day / night)^s: the same factor for every tenfold step of light. */
static double geometric_between(double night, double day, double s) { return night * pow(day / night, s); }

double rt_light_detection_range_m(const rt_light_params *params, double illuminance_lux)
{
	rt_light_params storage;
	const rt_light_params *p = light_params_or_default(params, &storage);
	double s = light_fraction(p, illuminance_lux);
	return fmin(geometric_between(p->detection_night_m, p->detection_day_m, s), p->visibility_m);
}

double rt_light_identification_range_m(const rt_light_params *params, double illuminance_lux)
{
	rt_light_params storage;
	const rt_light_params *p = light_params_or_default(params, &storage);
	double s = light_fraction(p, illuminance_lux);
	double range = geometric_between(p->identification_night_m, p->identification_day_m, s);
	return fmin(range, rt_light_detection_range_m(p, illuminance_lux));
}

/* Allard's law: a light of intensity I (cd) seen through air of meteorological
 * visibility V gives at distance d the illuminance E = I * 0.05^(d / V) / d^2 (0.05 is
 * the 5 % contrast threshold that defines V, WMO-No. 8). The torch is noticed while E is
 * above the eye's threshold, which rises from the night value to the day value with the
 * background light (log-log between dark_lux and daylight_lux, as the ranges). */
double rt_light_torch_detection_range_m(const rt_light_params *params, double illuminance_lux)
{
	rt_light_params storage;
	const rt_light_params *p = light_params_or_default(params, &storage);
	double s = light_fraction(p, illuminance_lux);
	double threshold_lux = geometric_between(p->torch_threshold_dark_lux, p->torch_threshold_day_lux, s);
	double extinction_per_m = -log(0.05) / p->visibility_m;
	/* g(d) = ln E(d) - ln threshold decreases with d; bisect on log d between 1 m and the
	 * range without extinction */
	double lo = 0.0, hi = 0.5 * log(p->torch_intensity_cd / threshold_lux);
	if (hi <= lo) return rt_light_detection_range_m(p, illuminance_lux);
	for (int i = 0; i < 60; ++i) {
		double mid = 0.5 * (lo + hi), d = exp(mid);
		double g = log(p->torch_intensity_cd) - 2.0 * mid - extinction_per_m * d - log(threshold_lux);
		if (g > 0.0) lo = mid;
		else hi = mid;
	}
	return fmax(exp(lo), rt_light_detection_range_m(p, illuminance_lux));
}

/* ---- tide ------------------------------------------------------------------------------ */

static const struct {
	const char *name;
	double speed_deg_per_h;
} tide_speeds[] = {
	{"M2", RT_TIDE_SPEED_M2_DEG_PER_H}, {"S2", RT_TIDE_SPEED_S2_DEG_PER_H}, {"N2", RT_TIDE_SPEED_N2_DEG_PER_H},
	{"K2", RT_TIDE_SPEED_K2_DEG_PER_H}, {"K1", RT_TIDE_SPEED_K1_DEG_PER_H}, {"O1", RT_TIDE_SPEED_O1_DEG_PER_H},
	{"P1", RT_TIDE_SPEED_P1_DEG_PER_H}, {"Q1", RT_TIDE_SPEED_Q1_DEG_PER_H}, {"M4", RT_TIDE_SPEED_M4_DEG_PER_H},
};

double rt_tide_constituent_speed_deg_per_h(const char *name)
{
	if (!name) return 0.0;
	for (size_t i = 0; i < sizeof tide_speeds / sizeof tide_speeds[0]; ++i)
		if (strcmp(name, tide_speeds[i].name) == 0) return tide_speeds[i].speed_deg_per_h;
	return 0.0;
}

rt_tide_def rt_tide_def_default(void)
{
	rt_tide_def d;
	memset(&d, 0, sizeof d);
	static const char *const principal[4] = {"M2", "S2", "K1", "O1"};
	d.constituent_count = 4;
	for (int i = 0; i < 4; ++i) {
		snprintf(d.constituents[i].name, sizeof d.constituents[i].name, "%s", principal[i]);
		d.constituents[i].speed_deg_per_h = rt_tide_constituent_speed_deg_per_h(principal[i]);
	}
	d.surge_outside = RT_SURGE_OUTSIDE_ZERO;
	d.cookie = RT_COOKIE;
	return d;
}

static rt_status tide_field_fail(rt_error *err, const char *field, double value, const char *expected)
{
	return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, field, "tide %s is %g; expected %s", field, value, expected);
}

rt_status rt_tide_def_validate(const rt_tide_def *def, rt_error *err)
{
	char field[96];
	if (!def) return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "def", "tide definition is NULL");
	if (def->cookie != RT_COOKIE)
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "cookie",
				   "tide definition was not filled by rt_tide_def_default (cookie is %08x)", def->cookie);
	if (!isfinite(def->mean_level_m)) return tide_field_fail(err, "mean_level_m", def->mean_level_m, "a finite level");
	if (def->constituent_count < 0 || def->constituent_count > RT_TIDE_MAX_CONSTITUENTS)
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "constituent_count",
				   "tide constituent_count is %d; expected 0..%d", def->constituent_count,
				   RT_TIDE_MAX_CONSTITUENTS);
	for (int i = 0; i < def->constituent_count; ++i) {
		const rt_tide_constituent *c = &def->constituents[i];
		if (!memchr(c->name, '\0', sizeof c->name)) {
			snprintf(field, sizeof field, "constituents[%d].name", i);
			return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, field,
					   "tide %s is not terminated; expected at most %d characters", field,
					   RT_TIDE_NAME_SIZE - 1);
		}
		if (!isfinite(c->amplitude_m) || c->amplitude_m < 0.0) {
			snprintf(field, sizeof field, "constituents[%d].amplitude_m", i);
			return tide_field_fail(err, field, c->amplitude_m, "a finite amplitude >= 0");
		}
		if (!isfinite(c->phase_deg)) {
			snprintf(field, sizeof field, "constituents[%d].phase_deg", i);
			return tide_field_fail(err, field, c->phase_deg, "a finite angle");
		}
		if (!isfinite(c->speed_deg_per_h) || c->speed_deg_per_h < 0.0) {
			snprintf(field, sizeof field, "constituents[%d].speed_deg_per_h", i);
			return tide_field_fail(err, field, c->speed_deg_per_h, "a finite speed >= 0");
		}
	}
	if (def->surge_count < 0)
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "surge_count", "tide surge_count is %d; expected >= 0",
				   def->surge_count);
	if (def->surge_outside != RT_SURGE_OUTSIDE_ZERO && def->surge_outside != RT_SURGE_OUTSIDE_HOLD)
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "surge_outside",
				   "tide surge_outside is %d; expected RT_SURGE_OUTSIDE_ZERO or RT_SURGE_OUTSIDE_HOLD",
				   (int)def->surge_outside);
	if (def->surge_count > 0 && (!def->surge_time_s || !def->surge_level_m))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, def->surge_time_s ? "surge_level_m" : "surge_time_s",
				   "tide %s is NULL but surge_count is %d", def->surge_time_s ? "surge_level_m" : "surge_time_s",
				   def->surge_count);
	for (int i = 0; i < def->surge_count; ++i) {
		if (!isfinite(def->surge_time_s[i])) {
			snprintf(field, sizeof field, "surge_time_s[%d]", i);
			return tide_field_fail(err, field, def->surge_time_s[i], "a finite time");
		}
		if (i > 0 && !(def->surge_time_s[i] > def->surge_time_s[i - 1])) {
			snprintf(field, sizeof field, "surge_time_s[%d]", i);
			return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, field,
					   "tide %s is %g; expected strictly more than surge_time_s[%d] = %g", field,
					   def->surge_time_s[i], i - 1, def->surge_time_s[i - 1]);
		}
		if (!isfinite(def->surge_level_m[i])) {
			snprintf(field, sizeof field, "surge_level_m[%d]", i);
			return tide_field_fail(err, field, def->surge_level_m[i], "a finite level");
		}
	}
	return RT_OK;
}

/* Linear interpolation in the surge series; outside it, zero or the end value. A single
 * point is a series of zero length: its value applies at that instant (ZERO) or
 * everywhere (HOLD). */
double rt_tide_surge_m(const rt_tide_def *def, double t_s)
{
	if (!def || def->surge_count <= 0 || !def->surge_time_s || !def->surge_level_m || isnan(t_s)) return 0.0;
	const double *time = def->surge_time_s, *level = def->surge_level_m;
	int n = def->surge_count;
	bool hold = def->surge_outside == RT_SURGE_OUTSIDE_HOLD;
	if (t_s < time[0]) return hold ? level[0] : 0.0;
	if (t_s > time[n - 1]) return hold ? level[n - 1] : 0.0;
	if (n == 1) return level[0];
	/* the last i with time[i] <= t_s, so t_s lies in [time[i], time[i + 1]] */
	int lo = 0, hi = n - 1;
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;
		if (time[mid] <= t_s) lo = mid;
		else hi = mid;
	}
	double w = (t_s - time[lo]) / (time[hi] - time[lo]);
	return level[lo] + w * (level[hi] - level[lo]);
}

double rt_tide_level_m(const rt_tide_def *def, double t_s)
{
	if (!def) return 0.0;
	double level = def->mean_level_m;
	double t_h = t_s / 3600.0;
	int count = def->constituent_count < 0 ? 0 : def->constituent_count;
	if (count > RT_TIDE_MAX_CONSTITUENTS) count = RT_TIDE_MAX_CONSTITUENTS;
	for (int i = 0; i < count; ++i) {
		const rt_tide_constituent *c = &def->constituents[i];
		/* reduce the argument first so long times keep their precision */
		double argument = fmod(c->speed_deg_per_h * t_h, 360.0) + c->phase_deg;
		level += c->amplitude_m * cosd(argument);
	}
	return level + rt_tide_surge_m(def, t_s);
}
