/* The env phase: the world's clock turned into sky, light, sight and sea level every
 * step, from the pure functions of env.c, then rain, wind and wet ground (weather.c) and
 * fire and smoke (fire.c). Sight limits what the sense phase can find (E1: a moonless
 * night after rain shortens it to a few tens of metres). */
#include "world.h"

#include <math.h>

rt_environment_def rt_environment_def_default(void)
{
	rt_environment_def d;
	memset(&d, 0, sizeof d);
	d.start_jd_ut = 2451545.0; /* J2000.0 */
	d.light = rt_light_params_default();
	d.tide = rt_tide_def_default();
	d.weather.params = rt_weather_params_default();
	d.fire.params = rt_fire_params_default();
	d.cookie = RT_COOKIE;
	return d;
}

void rt__env_free(rt_world *w)
{
	size_t n = (size_t)w->environment.tide.surge_count;
	if (w->surge_time_s) rt__free(&w->allocator, w->surge_time_s, n * sizeof(double));
	if (w->surge_level_m) rt__free(&w->allocator, w->surge_level_m, n * sizeof(double));
	w->surge_time_s = w->surge_level_m = NULL;
	rt__weather_series_free(&w->allocator, &w->weather_series, w->environment.weather.rain_count,
				w->environment.weather.wind_count);
	rt__fire_destroy(w, w->fire, w->ignitions, w->ignition_count);
	w->fire = NULL;
	w->ignitions = NULL;
	w->ignition_count = 0;
	w->weather_on = w->mud_on = false;
}

rt_status rt_world_set_environment(rt_world *w, const rt_environment_def *d, rt_error *err)
{
	rt__error_clear(err);
	if (!w || !d || d->cookie != RT_COOKIE)
		return rt__fail(err, RT_ERR_INVALID, "environment definition was not made by rt_environment_def_default()");
	if (w->step > 0) return rt__fail(err, RT_ERR_STATE, "the environment must be set before the first step");
	if (!isfinite(d->start_jd_ut) || d->start_jd_ut < 2086302.5 || d->start_jd_ut > 2816787.5)
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "start_jd_ut", "start_jd_ut %g is outside the years 1000-3000",
				   d->start_jd_ut);
	if (!(d->latitude_deg >= -89.0 && d->latitude_deg <= 89.0 && d->longitude_deg >= -180.0 && d->longitude_deg <= 360.0))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "latitude_deg", "latitude must be within +-89 and longitude -180..360 degrees");
	if (!(d->cloud_cover >= 0.0 && d->cloud_cover <= 1.0))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "cloud_cover", "cloud_cover %g; expected 0..1", d->cloud_cover);
	rt_status s;
	if ((s = rt_light_params_validate(&d->light, err)) != RT_OK) return s;
	if ((s = rt_tide_def_validate(&d->tide, err)) != RT_OK) return s;
	if ((s = rt_weather_def_validate(&d->weather, err)) != RT_OK) return s;
	if ((s = rt__fire_validate(w, &d->fire, err)) != RT_OK) return s;
	/* copies of everything the caller owns, then the old environment goes */
	size_t n = (size_t)d->tide.surge_count;
	double *times = NULL, *levels = NULL;
	if (n > 0) {
		times = rt__alloc(&w->allocator, n * sizeof(double));
		levels = rt__alloc(&w->allocator, n * sizeof(double));
		if (!times || !levels) {
			rt__free(&w->allocator, times, n * sizeof(double));
			rt__free(&w->allocator, levels, n * sizeof(double));
			return rt__fail(err, RT_ERR_NOMEM, "cannot copy a surge series of %zu points", n);
		}
		memcpy(times, d->tide.surge_time_s, n * sizeof(double));
		memcpy(levels, d->tide.surge_level_m, n * sizeof(double));
	}
	rt_weather_series series = { NULL, NULL, NULL, NULL, NULL };
	rt_fire *fire = NULL;
	rt_ignition *ignitions = NULL;
	if ((s = rt__weather_copy(&w->allocator, &d->weather, &series, err)) != RT_OK ||
	    (s = rt__fire_build(w, &d->fire, &fire, &ignitions, err)) != RT_OK) {
		rt__weather_series_free(&w->allocator, &series, d->weather.rain_count, d->weather.wind_count);
		rt__free(&w->allocator, times, n * sizeof(double));
		rt__free(&w->allocator, levels, n * sizeof(double));
		return s;
	}
	rt__env_free(w);
	w->environment = *d;
	w->surge_time_s = times;
	w->surge_level_m = levels;
	w->environment.tide.surge_time_s = times;
	w->environment.tide.surge_level_m = levels;
	w->weather_series = series;
	w->environment.weather.rain_time_s = series.rain_time_s;
	w->environment.weather.rain_mm_per_h = series.rain_mm_per_h;
	w->environment.weather.wind_time_s = series.wind_time_s;
	w->environment.weather.wind_speed_mps = series.wind_speed_mps;
	w->environment.weather.wind_from_deg = series.wind_from_deg;
	w->weather_on = d->weather.rain_count > 0 || d->weather.wind_count > 0 || d->weather.ground_wetness > 0.0;
	w->env.ground_wetness = d->weather.ground_wetness;
	w->weather_time_s = w->time_s;
	w->fire = fire;
	w->ignitions = ignitions;
	w->ignition_count = fire ? d->fire.ignition_count : 0;
	w->environment.fire.ignitions = ignitions;
	w->has_environment = true;
	return rt__env_phase(w, err); /* the state of step 0 */
}

/* Sky, light, sight and sea level: pure functions of the time. False without an
 * environment. */
static bool sky_phase(rt_world *w)
{
	rt_environment_state *e = &w->env;
	if (!w->has_environment) {
		e->set = false;
		e->detection_range_m = INFINITY;
		e->identification_range_m = INFINITY;
		e->torch_detection_range_m = INFINITY;
		return false;
	}
	const rt_environment_def *d = &w->environment;
	e->set = true;
	e->jd_ut = d->start_jd_ut + w->time_s / 86400.0;
	rt_sky sky = rt_sky_at(e->jd_ut, d->latitude_deg, d->longitude_deg);
	e->sun_altitude_deg = sky.sun.altitude_deg;
	e->moon_altitude_deg = sky.moon.altitude_deg;
	e->moon_illuminated_fraction = sky.moon_illuminated_fraction;
	e->illuminance_lux = rt_light_illuminance_lux(&d->light, &sky, d->cloud_cover);
	e->detection_range_m = rt_light_detection_range_m(&d->light, e->illuminance_lux);
	e->identification_range_m = rt_light_identification_range_m(&d->light, e->illuminance_lux);
	e->torch_detection_range_m = rt_light_torch_detection_range_m(&d->light, e->illuminance_lux);
	e->sea_level_m = rt_tide_level_m(&d->tide, w->time_s);
	return true;
}

rt_status rt__env_phase(rt_world *w, rt_error *err)
{
	if (!sky_phase(w)) return RT_OK;
	/* rain, wind and the wet ground; then fire and smoke, which they drive */
	rt__weather_phase(w);
	rt_status s = rt__fire_phase(w, err);
	if (s == RT_OK) s = rt__fire_seen_refresh(w, err); /* E4: the fire as men who fear it see it now */
	return s;
}

void rt__env_restore(rt_world *w)
{
	if (!sky_phase(w)) return;
	rt__weather_derive(w);
	rt__fire_env(w);
}

void rt_world_get_environment(const rt_world *w, rt_environment_state *out)
{
	*out = w->env;
}
