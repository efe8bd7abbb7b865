/* Random numbers as a pure function of (seed, agent, step, stream): Philox4x32-10 from
 * Random123 (Salmon et al. 2011). No generator state exists anywhere, so any phase can
 * draw in any order on any thread and get the same numbers. */
#include "world.h"

#include <Random123/philox.h>
#include <math.h>

rt_random4 rt_random_bits(uint64_t seed, uint32_t agent, uint64_t step, uint32_t stream)
{
	philox4x32_ctr_t ctr = { { agent, (uint32_t)step, (uint32_t)(step >> 32), stream } };
	philox4x32_key_t key = { { (uint32_t)seed, (uint32_t)(seed >> 32) } };
	philox4x32_ctr_t r = philox4x32(ctr, key);
	rt_random4 out = { { r.v[0], r.v[1], r.v[2], r.v[3] } };
	return out;
}

double rt_random_uniform(uint64_t seed, uint32_t agent, uint64_t step, uint32_t stream)
{
	rt_random4 r = rt_random_bits(seed, agent, step, stream);
	uint64_t bits = ((uint64_t)r.v[0] << 21) ^ (uint64_t)r.v[1]; /* 53 random bits */
	bits &= (1ull << 53) - 1;
	return (double)bits * (1.0 / 9007199254740992.0);
}

/* Box-Muller on two 32-bit draws of (seed, id, 0, RT_STREAM_PACE); the first is shifted by
 * half a step so that its log is finite. */
double rt__own_pace(uint64_t seed, uint32_t id, double spread)
{
	if (spread <= 0.0) return 1.0;
	const rt_random4 r = rt_random_bits(seed, id, 0, RT_STREAM_PACE);
	const double u1 = ((double)r.v[0] + 0.5) * (1.0 / 4294967296.0), u2 = (double)r.v[1] * (1.0 / 4294967296.0);
	double z = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
	z = z < -RT_PACE_Z ? -RT_PACE_Z : (z > RT_PACE_Z ? RT_PACE_Z : z);
	return 1.0 + spread * z;
}
