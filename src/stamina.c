/* Stamina (C4): "两条腿如何能跑得过四条腿的战马" / "消耗了八旗的马力" — no man on foot
 * outruns a fresh horse, but a horse pressed for hours tires — and the men's own legs:
 * "很多明军跑不动，索性也不跑了，兵器一扔，就往地上一跪" (seed 000), "扛着一个人一路狂奔，
 * 只怕不到一里地就累趴了" (seed 000).
 *
 * After the move, each rider's horse, and each man on foot, tires or recovers with the
 * pace he went this step, v = |velocity|:
 *
 *   dF/dt = (v - v_s) / ((v_r - v_s) T_tire)         v > v_s   (tiring)
 *   dF/dt = -F (v_s - v) / (v_s T_rest)              v <= v_s  (recovering; fastest standing)
 *
 * F = horse_fatigue (a rider) or fatigue (a man on foot) in 0..1, v_s the pace kept all
 * day (walk and trot alternated for a horse, the walk for a man), v_r the trot or the run.
 * The decide phase gives the man the pace v0 (1 - L F) (L = speed_loss), so a horse or a
 * man held to his will slows toward v_s: from v0 = v_r, F rises toward
 * F_eq = (1 - v_s / v0) / L with the time constant F_eq T_tire (v_r - v_s) / (v0 - v_s).
 * Tiring is integrated forward, recovery exactly (F e^(-rate dt)), each step with the
 * velocity held between his decisions. Men and riders sheltered in a fort rest too. A
 * man on foot given fatigue 1 (an input: spent, who cannot go on alone, C6) stays spent,
 * and a man carried (C6) does not tire with his carrier's pace. Parallel over men, each
 * writing only his own slot. */
#include "world.h"

#include <math.h>

rt_stamina_params rt_stamina_params_default(void)
{
	/* sources in docs/model.md section 15 */
	rt_stamina_params p;
	p.sustained_speed_mps = 2.0; /* 35 miles in an 8-hour day with walk and trot alternated */
	p.reference_speed_mps = 3.5; /* the trot: the horse's free speed (section 2) */
	p.tire_time_s = 7200.0;      /* estimate (E): two hours at the trot without a halt spend it */
	p.rest_time_s = 3600.0;      /* estimate (E): an hour's halt gives back two thirds */
	p.speed_loss = 0.5;          /* estimate (E): a spent horse goes at half its fresh pace */
	p.foot_sustained_speed_mps = 1.4; /* the walk: HISTORY.md, 1.2-1.4 m/s, 17-28 km a day */
	p.foot_reference_speed_mps = 2.14; /* the run: free walk 1.34 m/s x flight_speed_factor 1.6 */
	p.foot_tire_time_s = 900.0;  /* estimate (E): a quarter hour's run spends a man in his kit */
	p.foot_rest_time_s = 1800.0; /* estimate (E): half an hour's halt gives back two thirds */
	p.foot_speed_loss = 0.5;     /* estimate (E): a spent man goes at half his fresh pace */
	return p;
}

void rt__stamina(rt_world *w)
{
	rt_agents *a = &w->agents;
	const int n = a->count;
	const rt_stamina_params *p = &w->def.stamina;
	const double dt = w->def.dt_s, vs = p->sustained_speed_mps, fvs = p->foot_sustained_speed_mps;
	const double tire = dt / ((p->reference_speed_mps - vs) * p->tire_time_s), rest = dt / (vs * p->rest_time_s);
	const double ftire = dt / ((p->foot_reference_speed_mps - fvs) * p->foot_tire_time_s),
		     frest = dt / (fvs * p->foot_rest_time_s);
	RT_PARALLEL_FOR(RT_PARALLEL(n), (schedule(static) num_threads(w->threads)),
	for (int s = 0; s < n; ++s) {
		if (!(rt__active(a->state[s]) || a->state[s] == RT_STATE_SHELTERED)) continue;
		const double v = a->state[s] == RT_STATE_SHELTERED ? 0.0 : sqrt(a->vx[s] * a->vx[s] + a->vy[s] * a->vy[s]);
		const bool rider = a->mount[s];
		float *F = rider ? &a->horse_fatigue[s] : &a->fatigue[s];
		double f = *F;
		if (!rider && (f >= 1.0 || a->stance[s] == RT_STANCE_CARRIED)) continue; /* spent (C6), or carried */
		const double v_s = rider ? vs : fvs;
		if (v > v_s) f = fmin(1.0, f + (v - v_s) * (rider ? tire : ftire));
		else if (f > 0.0) f *= exp(-(v_s - v) * (rider ? rest : frest));
		*F = (float)f;
	});
}
