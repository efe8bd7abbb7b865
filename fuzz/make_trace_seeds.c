/* Writes the trace harness's seed corpus (fuzz/corpus/trace/) with the library's own
 * trace writer: small worlds, a few frames each, so that the fuzzer starts from real
 * traces and every kind of frame the writer makes. `make fuzz-seeds` runs it; the
 * outputs are committed. Usage: make_trace_seeds DIRECTORY */
#include "rout/rout.h"

#include <stdio.h>

static int fail(const char *what, const rt_error *err)
{
	fprintf(stderr, "make_trace_seeds: %s: %s\n", what, err->message);
	return 1;
}

/* A world of `first` men in two sides and assorted states, trace every `every` steps
 * for `steps` steps; after half the steps `more` men join (the frames grow). */
static int write_seed(const char *dir, const char *name, int first, int more, int steps, int every)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	rt_world_def wd = rt_world_def_default();
	wd.bounds_min = (rt_vec2){ -10.0, -5.0 };
	wd.bounds_max = (rt_vec2){ 30.0, 15.0 };
	wd.threads = 1;
	wd.seed = 11;
	rt_error err;
	rt_world *w = rt_world_create(&wd, &err);
	if (!w) return fail("world", &err);
	rt_agent_def ad = rt_agent_def_default();
	int added = 0;
	const rt_state states[] = { RT_STATE_FORMED, RT_STATE_ROUTING, RT_STATE_SURRENDERED, RT_STATE_DEAD_COMBAT };
	for (; added < first; ++added) {
		ad.position = (rt_vec2){ 1.0 + 1.5 * added, 2.0 + (added % 3) };
		ad.side = (uint8_t)(added % 2);
		ad.state = states[added % 4];
		ad.heading = (rt_vec2){ ad.side ? -1.0 : 1.0, 0.0 };
		if (rt_world_add_agent(w, &ad, NULL, &err) != RT_OK) return fail("agent", &err);
	}
	rt_trace_writer *t = rt_trace_open(w, path, every, &err);
	if (!t) return fail(path, &err);
	for (int s = 0; s < steps; ++s) {
		if (s == steps / 2)
			for (int k = 0; k < more; ++k, ++added) {
				ad.position = (rt_vec2){ 2.0 + 1.5 * k, 10.0 };
				ad.side = 1;
				ad.state = RT_STATE_FORMED;
				if (rt_world_add_agent(w, &ad, NULL, &err) != RT_OK) return fail("agent", &err);
			}
		if (rt_world_step(w, &err) != RT_OK || rt_trace_record(t, w, &err) != RT_OK) {
			rt_trace_abort(t);
			return fail("step", &err);
		}
	}
	if (rt_trace_close(t, &err) != RT_OK) return fail(path, &err);
	rt_world_destroy(w);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: make_trace_seeds DIRECTORY\n");
		return 2;
	}
	const char *dir = argv[1];
	int rc = 0;
	rc |= write_seed(dir, "header-only.trace", 0, 0, 0, 1);   /* no frames at all */
	rc |= write_seed(dir, "empty-frames.trace", 0, 0, 2, 1);  /* frames of no one */
	rc |= write_seed(dir, "one-man.trace", 1, 0, 2, 1);
	rc |= write_seed(dir, "four-states.trace", 4, 0, 3, 1);   /* formed, routing, surrendered, dead */
	rc |= write_seed(dir, "growing.trace", 2, 5, 4, 2);       /* 2 men, then 7 */
	return rc;
}
