/* Horse stamina (C4: "两条腿如何能跑得过四条腿的战马" / "消耗了八旗的马力"): no man on foot
 * outruns a fresh horse, but a horse pressed for hours tires.
 *
 * After the move, each rider's horse tires with the pace it went this step, v = |velocity|:
 *
 *   dF/dt = (v - v_s) / ((v_r - v_s) T_tire)         v > v_s   (tiring)
 *   dF/dt = -F (v_s - v) / (v_s T_rest)              v <= v_s  (recovering; fastest standing)
 *
 * F = horse_fatigue in 0..1, v_s the pace a horse keeps all day (walk and trot
 * alternated), v_r the trot. The decide phase gives the rider the pace
 * v0 (1 - L F) (L = speed_loss), so a horse held to its rider's will slows toward v_s:
 * from v0 = v_r, F rises toward F_eq = (1 - v_s / v0) / L with the time constant
 * F_eq T_tire (v_r - v_s) / (v0 - v_s). Tiring is integrated forward, recovery exactly
 * (F e^(-rate dt)), each step with the velocity the rider holds between his decisions.
 * Riders sheltered in a fort rest too. Parallel over men, each writing only his own slot. */
#include "world.h"

#include <math.h>

rt_stamina_params rt_stamina_params_default(void)
{
	/* sources in docs/model.md section 14 */
	rt_stamina_params p;
	p.sustained_speed_mps = 2.0; /* 35 miles in an 8-hour day with walk and trot alternated */
	p.reference_speed_mps = 3.5; /* the trot: the horse's free speed (section 2) */
	p.tire_time_s = 7200.0;      /* estimate (E): two hours at the trot without a halt spend it */
	p.rest_time_s = 3600.0;      /* estimate (E): an hour's halt gives back two thirds */
	p.speed_loss = 0.5;          /* estimate (E): a spent horse goes at half its fresh pace */
	return p;
}

void rt__stamina(rt_world *w)
{
	if (w->horse_count == 0) return;
	rt_agents *a = &w->agents;
	const int n = a->count;
	const rt_stamina_params *p = &w->def.stamina;
	const double dt = w->def.dt_s, vs = p->sustained_speed_mps;
	const double tire = dt / ((p->reference_speed_mps - vs) * p->tire_time_s), rest = dt / (vs * p->rest_time_s);
	RT_PARALLEL_FOR(RT_PARALLEL(n), (schedule(static) num_threads(w->threads)),
	for (int s = 0; s < n; ++s) {
		if (!a->mount[s] || !(rt__active(a->state[s]) || a->state[s] == RT_STATE_SHELTERED)) continue;
		const double v = a->state[s] == RT_STATE_SHELTERED ? 0.0 : sqrt(a->vx[s] * a->vx[s] + a->vy[s] * a->vy[s]);
		double f = a->horse_fatigue[s];
		if (v > vs) f = fmin(1.0, f + (v - vs) * tire);
		else if (f > 0.0) f *= exp(-(vs - v) * rest);
		a->horse_fatigue[s] = (float)f;
	});
}
