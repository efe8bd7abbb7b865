/* Weather: rain and wind over time, the wetness of the ground they leave, and what wet
 * ground and rain do to men: mud slows walking on unpaved ground more than on roads
 * (E1: "after heavy rain"), and rain and damp make matchlocks misfire (DESIGN.md
 * "Combat"). Wind drives the fire and its smoke (fire.c, E4).
 *
 * Why it is built this way:
 * - Rain and wind are scenario series, interpolated like the tide's surge: the scenario
 *   says what the sky did, the model says what it did to the ground.
 * - Ground wetness is one bucket for the whole map (Manabe 1969's bucket, reduced to the
 *   top soil whose water makes mud): a battlefield of a few tens of kilometres gets the
 *   same rain, and a scalar costs nothing per man. The kind of ground decides how much
 *   the same wetness slows a man (a road less).
 * - Everything here is skipped when the environment gives no weather, so a world
 *   without it steps exactly as before.
 */
#include "world.h"
#include "map_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#define PI 3.14159265358979323846

rt_weather_params rt_weather_params_default(void)
{
	rt_weather_params p;
	p.bucket_capacity_mm = 10.0;          /* estimate (E): the top 1-2 cm of soil */
	p.drying_mm_per_h = 0.3;              /* FAO-56 ET0 of ~3 mm/day (0.12 mm/h) + drainage (E) */
	p.mud_loss_unpaved = 0.35;            /* estimate (E); Soule & Goldman 1972 give >= 0.18 */
	p.mud_loss_road = 0.15;               /* estimate (E) */
	p.misfire_rain_max = 0.9;             /* estimate (E) */
	p.misfire_rain_half_mm_per_h = 2.5;   /* estimate (E): moderate rain (WMO: 2.5-7.6 mm/h) */
	p.misfire_damp_max = 0.1;             /* estimate (E) */
	p.fuel_moisture_dry_pct = 8.0;        /* McArthur 1966 at 25 C, 30 % RH gives 8.6 % */
	p.fuel_moisture_wet_pct = 35.0;       /* estimate (E): above every grass extinction moisture */
	return p;
}

/* Linear between points, held outside; times strictly increase. */
static double series_at(int n, const double *time, const double *value, double t)
{
	if (n <= 0 || !time || !value) return 0.0;
	if (!(t > time[0])) return value[0];
	if (t >= time[n - 1]) return value[n - 1];
	int lo = 0, hi = n - 1;
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;
		if (time[mid] <= t) lo = mid;
		else hi = mid;
	}
	double f = (t - time[lo]) / (time[hi] - time[lo]);
	return value[lo] + f * (value[hi] - value[lo]);
}

double rt_weather_rain_mm_per_h(const rt_weather_def *def, double t_s)
{
	if (!def || def->rain_count <= 0 || isnan(t_s)) return 0.0;
	return fmax(0.0, series_at(def->rain_count, def->rain_time_s, def->rain_mm_per_h, t_s));
}

/* The wind vector (blowing to) of one point of the series. */
static rt_vec2 wind_point(const rt_weather_def *def, int i)
{
	const double a = def->wind_from_deg[i] * (PI / 180.0), v = def->wind_speed_mps[i];
	return (rt_vec2){ -v * sin(a), -v * cos(a) };
}

rt_vec2 rt_weather_wind_mps(const rt_weather_def *def, double t_s)
{
	rt_vec2 calm = { 0.0, 0.0 };
	if (!def || def->wind_count <= 0 || !def->wind_time_s || !def->wind_speed_mps || !def->wind_from_deg || isnan(t_s))
		return calm;
	const int n = def->wind_count;
	const double *time = def->wind_time_s;
	if (!(t_s > time[0])) return wind_point(def, 0);
	if (t_s >= time[n - 1]) return wind_point(def, n - 1);
	int lo = 0, hi = n - 1;
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;
		if (time[mid] <= t_s) lo = mid;
		else hi = mid;
	}
	const double f = (t_s - time[lo]) / (time[hi] - time[lo]);
	const rt_vec2 a = wind_point(def, lo), b = wind_point(def, hi);
	return (rt_vec2){ a.x + f * (b.x - a.x), a.y + f * (b.y - a.y) };
}

static const rt_weather_params *params_or_default(const rt_weather_params *p, rt_weather_params *storage)
{
	if (p) return p;
	*storage = rt_weather_params_default();
	return storage;
}

double rt_weather_wetness_after(const rt_weather_params *params, double wetness, double rain_mm_per_h, double dt_s)
{
	rt_weather_params storage;
	const rt_weather_params *p = params_or_default(params, &storage);
	const double w = rt__clamp(isnan(wetness) ? 0.0 : wetness, 0.0, 1.0);
	const double rain = isnan(rain_mm_per_h) ? 0.0 : fmax(0.0, rain_mm_per_h);
	const double dt_h = fmax(0.0, dt_s) / 3600.0;
	const double c = p->bucket_capacity_mm;
	if (!(c > 0.0)) return w;
	if (!(p->drying_mm_per_h > 0.0)) return fmin(1.0, w + rain * dt_h / c);
	/* dW/dt = rain/c - (d/c) W: toward W_eq = rain/d with time constant c/d */
	const double equilibrium = rain / p->drying_mm_per_h;
	const double next = equilibrium + (w - equilibrium) * exp(-dt_h * p->drying_mm_per_h / c);
	return rt__clamp(next, 0.0, 1.0); /* past a full bucket the rain runs off */
}

double rt_weather_misfire_probability(const rt_weather_params *params, double rain_mm_per_h, double wetness)
{
	rt_weather_params storage;
	const rt_weather_params *p = params_or_default(params, &storage);
	const double r = isnan(rain_mm_per_h) ? 0.0 : fmax(0.0, rain_mm_per_h);
	const double w = rt__clamp(isnan(wetness) ? 0.0 : wetness, 0.0, 1.0);
	const double rain = r > 0.0 ? p->misfire_rain_max * r / (r + p->misfire_rain_half_mm_per_h) : 0.0;
	const double damp = p->misfire_damp_max * w;
	return 1.0 - (1.0 - rain) * (1.0 - damp);
}

double rt_weather_fuel_moisture_pct(const rt_weather_params *params, double wetness)
{
	rt_weather_params storage;
	const rt_weather_params *p = params_or_default(params, &storage);
	const double w = rt__clamp(isnan(wetness) ? 0.0 : wetness, 0.0, 1.0);
	return p->fuel_moisture_dry_pct + w * (p->fuel_moisture_wet_pct - p->fuel_moisture_dry_pct);
}

double rt_weather_mud_factor(const rt_weather_params *params, double wetness, bool road)
{
	rt_weather_params storage;
	const rt_weather_params *p = params_or_default(params, &storage);
	const double w = rt__clamp(isnan(wetness) ? 0.0 : wetness, 0.0, 1.0);
	return 1.0 - (road ? p->mud_loss_road : p->mud_loss_unpaved) * w;
}

/* ---- validation --------------------------------------------------------------------- */

/* Errors name the field by its path in rt_environment_def: "weather.rain_mm_per_h[2]". */
static rt_status weather_error(rt_error *err, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static rt_status weather_error(rt_error *err, const char *field, const char *fmt, ...)
{
	char path[128], text[400];
	snprintf(path, sizeof path, "weather.%s", field);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, path, "%s %s", path, text);
}

static rt_status weather_fail(rt_error *err, const char *field, double value, const char *expected)
{
	return weather_error(err, field, "is %g; expected %s", value, expected);
}

/* A series: count >= 0, arrays present, finite strictly increasing times, values checked
 * against [lo, hi] (finite). */
static rt_status check_series(rt_error *err, const char *name, int count, const double *time, const char *time_name,
			      const double *const *values, const char *const *value_names, const double *lo, const double *hi,
			      int value_count)
{
	char field[96];
	if (count < 0) {
		snprintf(field, sizeof field, "%s_count", name);
		return weather_error(err, field, "is %d; expected >= 0", count);
	}
	if (count == 0) return RT_OK;
	if (!time) return weather_error(err, time_name, "is NULL but %s_count is %d", name, count);
	for (int v = 0; v < value_count; ++v)
		if (!values[v]) return weather_error(err, value_names[v], "is NULL but %s_count is %d", name, count);
	for (int i = 0; i < count; ++i) {
		snprintf(field, sizeof field, "%s[%d]", time_name, i);
		if (!isfinite(time[i])) return weather_fail(err, field, time[i], "a finite time in seconds");
		if (i > 0 && !(time[i] > time[i - 1]))
			return weather_error(err, field, "is %g; expected more than %s[%d] = %g", time[i], time_name, i - 1, time[i - 1]);
		for (int v = 0; v < value_count; ++v) {
			const double x = values[v][i];
			if (!(isfinite(x) && x >= lo[v] && x <= hi[v])) {
				char expected[96];
				if (isfinite(lo[v]) && isfinite(hi[v])) snprintf(expected, sizeof expected, "%g to %g", lo[v], hi[v]);
				else snprintf(expected, sizeof expected, "a finite number");
				snprintf(field, sizeof field, "%s[%d]", value_names[v], i);
				return weather_fail(err, field, x, expected);
			}
		}
	}
	return RT_OK;
}

rt_status rt_weather_def_validate(const rt_weather_def *d, rt_error *err)
{
	if (!d) return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "weather", "the weather definition is NULL");
	rt_status s;
	{
		const double *values[1] = { d->rain_mm_per_h };
		const char *names[1] = { "rain_mm_per_h" };
		const double lo[1] = { 0.0 }, hi[1] = { 500.0 }; /* the world record hour is ~300 mm */
		if ((s = check_series(err, "rain", d->rain_count, d->rain_time_s, "rain_time_s", values, names, lo, hi, 1)) != RT_OK)
			return s;
	}
	{
		const double *values[2] = { d->wind_speed_mps, d->wind_from_deg };
		const char *names[2] = { "wind_speed_mps", "wind_from_deg" };
		const double lo[2] = { 0.0, -INFINITY }, hi[2] = { 60.0, INFINITY };
		if ((s = check_series(err, "wind", d->wind_count, d->wind_time_s, "wind_time_s", values, names, lo, hi, 2)) != RT_OK)
			return s;
	}
	if (!(d->ground_wetness >= 0.0 && d->ground_wetness <= 1.0))
		return weather_fail(err, "ground_wetness", d->ground_wetness, "0 (dry) to 1 (saturated)");
	const rt_weather_params *p = &d->params;
	const struct {
		const char *name;
		double value, lo, hi;
	} ranges[] = {
		{ "params.bucket_capacity_mm", p->bucket_capacity_mm, 0.1, 1000.0 },
		{ "params.drying_mm_per_h", p->drying_mm_per_h, 1e-6, 100.0 },
		{ "params.mud_loss_unpaved", p->mud_loss_unpaved, 0.0, 0.95 },
		{ "params.mud_loss_road", p->mud_loss_road, 0.0, 0.95 },
		{ "params.misfire_rain_max", p->misfire_rain_max, 0.0, 1.0 },
		{ "params.misfire_rain_half_mm_per_h", p->misfire_rain_half_mm_per_h, 1e-3, 500.0 },
		{ "params.misfire_damp_max", p->misfire_damp_max, 0.0, 1.0 },
		{ "params.fuel_moisture_dry_pct", p->fuel_moisture_dry_pct, 1.0, 100.0 },
		{ "params.fuel_moisture_wet_pct", p->fuel_moisture_wet_pct, 1.0, 200.0 },
	};
	for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; ++i) {
		if (!(ranges[i].value >= ranges[i].lo && ranges[i].value <= ranges[i].hi)) {
			char expected[64];
			snprintf(expected, sizeof expected, "%g to %g", ranges[i].lo, ranges[i].hi);
			return weather_fail(err, ranges[i].name, ranges[i].value, expected);
		}
	}
	if (!(p->fuel_moisture_wet_pct >= p->fuel_moisture_dry_pct))
		return weather_fail(err, "params.fuel_moisture_wet_pct", p->fuel_moisture_wet_pct, "at least fuel_moisture_dry_pct");
	return RT_OK;
}

/* ---- in the world --------------------------------------------------------------------- */

void rt__weather_series_free(const rt_allocator *a, rt_weather_series *s, int rain_count, int wind_count)
{
	const size_t rain = (size_t)(rain_count > 0 ? rain_count : 0) * sizeof(double);
	const size_t wind = (size_t)(wind_count > 0 ? wind_count : 0) * sizeof(double);
	rt__free(a, s->rain_time_s, rain);
	rt__free(a, s->rain_mm_per_h, rain);
	rt__free(a, s->wind_time_s, wind);
	rt__free(a, s->wind_speed_mps, wind);
	rt__free(a, s->wind_from_deg, wind);
	memset(s, 0, sizeof *s);
}

static double *copy_doubles(const rt_allocator *a, const double *from, int n, bool *failed)
{
	if (n <= 0) return NULL;
	double *to = rt__alloc(a, (size_t)n * sizeof(double));
	if (to) memcpy(to, from, (size_t)n * sizeof(double));
	else *failed = true;
	return to;
}

/* Copies the series of a validated def. */
rt_status rt__weather_copy(const rt_allocator *a, const rt_weather_def *d, rt_weather_series *out, rt_error *err)
{
	bool failed = false;
	out->rain_time_s = copy_doubles(a, d->rain_time_s, d->rain_count, &failed);
	out->rain_mm_per_h = copy_doubles(a, d->rain_mm_per_h, d->rain_count, &failed);
	out->wind_time_s = copy_doubles(a, d->wind_time_s, d->wind_count, &failed);
	out->wind_speed_mps = copy_doubles(a, d->wind_speed_mps, d->wind_count, &failed);
	out->wind_from_deg = copy_doubles(a, d->wind_from_deg, d->wind_count, &failed);
	if (failed) {
		rt__weather_series_free(a, out, d->rain_count, d->wind_count);
		return rt__fail(err, RT_ERR_NOMEM, "cannot copy the rain and wind series");
	}
	return RT_OK;
}

/* The env phase's part: the bucket brought to the world's time under the rain of this
 * instant, then the rest of the weather at that time. */
void rt__weather_phase(rt_world *w)
{
	if (w->weather_on) {
		const rt_weather_def *d = &w->environment.weather;
		const double t = w->time_s;
		/* the rain of this instant over the time since the last update */
		w->env.ground_wetness = rt_weather_wetness_after(&d->params, w->env.ground_wetness, rt_weather_rain_mm_per_h(d, t),
								 t - w->weather_time_s);
		w->weather_time_s = t;
	}
	rt__weather_derive(w);
}

/* Rain, wind, and what the ground's wetness makes of them, at the world's time: pure
 * functions of the time and the wetness (a loaded checkpoint restores them with this). */
void rt__weather_derive(rt_world *w)
{
	rt_environment_state *e = &w->env;
	if (!w->weather_on) {
		e->rain_mm_per_h = 0.0;
		e->wind_mps = (rt_vec2){ 0.0, 0.0 };
		e->wind_speed_mps = e->wind_from_deg = 0.0;
		e->ground_wetness = 0.0;
		e->misfire_probability = 0.0;
		e->mud_factor_unpaved = e->mud_factor_road = 1.0;
		e->fuel_moisture_pct = rt_weather_fuel_moisture_pct(&w->environment.weather.params, 0.0);
		w->mud_on = false;
		return;
	}
	const rt_weather_def *d = &w->environment.weather;
	const rt_weather_params *p = &d->params;
	const double t = w->time_s;
	e->rain_mm_per_h = rt_weather_rain_mm_per_h(d, t);
	e->wind_mps = rt_weather_wind_mps(d, t);
	e->wind_speed_mps = hypot(e->wind_mps.x, e->wind_mps.y);
	if (e->wind_speed_mps > 0.0) {
		double from = atan2(-e->wind_mps.x, -e->wind_mps.y) * (180.0 / PI);
		e->wind_from_deg = from < 0.0 ? from + 360.0 : from;
	} else {
		e->wind_from_deg = 0.0;
	}
	e->fuel_moisture_pct = rt_weather_fuel_moisture_pct(p, e->ground_wetness);
	e->misfire_probability = rt_weather_misfire_probability(p, e->rain_mm_per_h, e->ground_wetness);
	e->mud_factor_unpaved = rt_weather_mud_factor(p, e->ground_wetness, false);
	e->mud_factor_road = rt_weather_mud_factor(p, e->ground_wetness, true);
	w->mud_on = e->ground_wetness > 0.0;
}

/* Roads are metalled or beaten hard, bridges are decks, forts have streets; everything
 * else a man can walk on is unpaved. */
double rt__mud_factor(const rt_world *w, int cell)
{
	if (cell < 0 || !w->map) return w->env.mud_factor_unpaved;
	const int f = w->map_feature[cell];
	if (f < 0) return w->env.mud_factor_unpaved;
	switch (w->map->features[f].kind) {
	case RT_MAP_BRIDGE: return 1.0;
	case RT_MAP_ROAD:
	case RT_MAP_FORT: return w->env.mud_factor_road;
	default: return w->env.mud_factor_unpaved;
	}
}

double rt_world_mud_factor(const rt_world *w, rt_vec2 p)
{
	if (!w || !w->mud_on) return 1.0;
	return rt__mud_factor(w, rt__terrain_cell(w, p.x, p.y));
}
