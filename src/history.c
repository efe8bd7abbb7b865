/* A run's history (rout/plot.h): the world sampled every so many simulated seconds for
 * the plots of the run: men by side and state, each corps' men still in the field and
 * when its commander left, the sea level and the light. Each count is of agents, and the
 * commanders among them are counted apart, so that a runner whose agents stand for k
 * men each can count a commander as the one man he is (report.c). Arrays grow by
 * doubling through the world's allocator; a sample costs one pass over the men. */
#include "world.h"
#include "rout/plot.h"
#include "history_internal.h"

#include <math.h>

#define HISTORY_MAX_SIDES 8

struct rt_history {
	rt_allocator allocator;
	double every_s;
	int side_count, corps_count;
	int count, capacity;         /* samples */
	double *time_s;              /* capacity */
	int *men_by_state;           /* capacity x side_count x RT_STATE_COUNT */
	int *commanders_by_state;    /* capacity x side_count x RT_STATE_COUNT: of men_by_state, the commanders */
	int *corps_active;           /* capacity x corps_count */
	int *corps_commanders;       /* capacity x corps_count: of corps_active, the commanders */
	double *sea_level_m, *light_lux; /* capacity, or NULL without an environment */
	double *corps_left_at_s;     /* corps_count */
	const char **corps_names;    /* corps_count, pointing into the world's corps */
	uint8_t *corps_side;         /* corps_count */
	double next_s;
};

rt_history_def rt_history_def_default(void)
{
	rt_history_def d;
	memset(&d, 0, sizeof d);
	d.every_s = 60.0;
	d.allocator = rt_allocator_default();
	d.cookie = RT_COOKIE;
	return d;
}

static size_t per_sample_men(const rt_history *h)
{
	return (size_t)h->side_count * RT_STATE_COUNT;
}

static void free_samples(rt_history *h, int capacity)
{
	const size_t c = (size_t)capacity;
	rt__free(&h->allocator, h->time_s, c * sizeof(double));
	rt__free(&h->allocator, h->men_by_state, c * per_sample_men(h) * sizeof(int));
	rt__free(&h->allocator, h->commanders_by_state, c * per_sample_men(h) * sizeof(int));
	rt__free(&h->allocator, h->corps_active, c * (size_t)(h->corps_count > 0 ? h->corps_count : 1) * sizeof(int));
	rt__free(&h->allocator, h->corps_commanders, c * (size_t)(h->corps_count > 0 ? h->corps_count : 1) * sizeof(int));
	rt__free(&h->allocator, h->sea_level_m, c * sizeof(double));
	rt__free(&h->allocator, h->light_lux, c * sizeof(double));
}

void rt_history_destroy(rt_history *h)
{
	if (!h) return;
	free_samples(h, h->capacity);
	const size_t k = (size_t)(h->corps_count > 0 ? h->corps_count : 1);
	rt__free(&h->allocator, h->corps_left_at_s, k * sizeof(double));
	rt__free(&h->allocator, h->corps_names, k * sizeof(const char *));
	rt__free(&h->allocator, h->corps_side, k);
	rt_allocator a = h->allocator;
	rt__free(&a, h, sizeof *h);
}

/* Room for twice as many samples: every array is allocated anew first, so on failure the
 * history is as it was. */
static rt_status grow(rt_history *h, bool environment, rt_error *err)
{
	const int old = h->capacity, cap = old ? 2 * old : 64;
	const size_t corps = (size_t)(h->corps_count > 0 ? h->corps_count : 1), men = per_sample_men(h);
	double *t = rt__alloc(&h->allocator, (size_t)cap * sizeof(double));
	int *m = rt__alloc(&h->allocator, (size_t)cap * men * sizeof(int));
	int *mc = rt__alloc(&h->allocator, (size_t)cap * men * sizeof(int));
	int *c = rt__alloc(&h->allocator, (size_t)cap * corps * sizeof(int));
	int *cc = rt__alloc(&h->allocator, (size_t)cap * corps * sizeof(int));
	double *sea = environment ? rt__alloc(&h->allocator, (size_t)cap * sizeof(double)) : NULL;
	double *lux = environment ? rt__alloc(&h->allocator, (size_t)cap * sizeof(double)) : NULL;
	if (!t || !m || !mc || !c || !cc || (environment && (!sea || !lux))) {
		rt__free(&h->allocator, t, (size_t)cap * sizeof(double));
		rt__free(&h->allocator, m, (size_t)cap * men * sizeof(int));
		rt__free(&h->allocator, mc, (size_t)cap * men * sizeof(int));
		rt__free(&h->allocator, c, (size_t)cap * corps * sizeof(int));
		rt__free(&h->allocator, cc, (size_t)cap * corps * sizeof(int));
		rt__free(&h->allocator, sea, (size_t)cap * sizeof(double));
		rt__free(&h->allocator, lux, (size_t)cap * sizeof(double));
		return rt__fail(err, RT_ERR_NOMEM, "cannot grow the history to %d samples", cap);
	}
	const size_t n = (size_t)h->count;
	if (n) {
		memcpy(t, h->time_s, n * sizeof(double));
		memcpy(m, h->men_by_state, n * men * sizeof(int));
		memcpy(mc, h->commanders_by_state, n * men * sizeof(int));
		memcpy(c, h->corps_active, n * corps * sizeof(int));
		memcpy(cc, h->corps_commanders, n * corps * sizeof(int));
		if (environment) {
			memcpy(sea, h->sea_level_m, n * sizeof(double));
			memcpy(lux, h->light_lux, n * sizeof(double));
		}
	}
	free_samples(h, old);
	h->time_s = t;
	h->men_by_state = m;
	h->commanders_by_state = mc;
	h->corps_active = c;
	h->corps_commanders = cc;
	h->sea_level_m = sea;
	h->light_lux = lux;
	h->capacity = cap;
	return RT_OK;
}

static rt_status take_sample(rt_history *h, const rt_world *w, rt_error *err)
{
	if (w->corps_count != h->corps_count)
		return rt__fail(err, RT_ERR_STATE, "the world has %d corps; the history was made for %d (make it after adding the corps)",
				w->corps_count, h->corps_count);
	const rt_agents *a = &w->agents;
	for (int i = 0; i < a->count; ++i)
		if (a->side[i] >= h->side_count)
			return rt__fail(err, RT_ERR_STATE, "a man of side %d is in the world; the history was made for %d sides (make it after adding the men)",
					a->side[i], h->side_count);
	const bool environment = w->env.set;
	if (environment && h->count > 0 && !h->sea_level_m)
		return rt__fail(err, RT_ERR_STATE, "the world was given an environment after its history began");
	if (h->count == h->capacity) {
		rt_status s = grow(h, environment, err);
		if (s != RT_OK) return s;
	}
	const int k = h->count;
	h->time_s[k] = w->time_s;
	int *men = h->men_by_state + (size_t)k * per_sample_men(h);
	int *generals = h->commanders_by_state + (size_t)k * per_sample_men(h);
	memset(men, 0, per_sample_men(h) * sizeof(int));
	memset(generals, 0, per_sample_men(h) * sizeof(int));
	int *corps = h->corps_active + (size_t)k * (size_t)h->corps_count;
	int *corps_generals = h->corps_commanders + (size_t)k * (size_t)h->corps_count;
	memset(corps, 0, (size_t)h->corps_count * sizeof(int));
	memset(corps_generals, 0, (size_t)h->corps_count * sizeof(int));
	for (int i = 0; i < a->count; ++i) {
		const size_t cell = (size_t)a->side[i] * RT_STATE_COUNT + a->state[i];
		const bool general = a->kind[i] == RT_KIND_COMMANDER;
		men[cell]++;
		generals[cell] += general;
		/* counted here rather than read from the corps, whose tallies wait for the command phase */
		if (a->corps[i] >= 0 && a->corps[i] < h->corps_count && rt__active(a->state[i])) {
			corps[a->corps[i]]++;
			corps_generals[a->corps[i]] += general;
		}
	}
	for (int c = 0; c < h->corps_count; ++c) h->corps_left_at_s[c] = w->corps[c].left ? w->corps[c].left_at_s : -1.0;
	if (environment) {
		h->sea_level_m[k] = w->env.sea_level_m;
		h->light_lux[k] = w->env.illuminance_lux;
	}
	h->count++;
	h->next_s = w->time_s + h->every_s;
	return RT_OK;
}

rt_history *rt_history_create(const rt_world *w, const rt_history_def *def, rt_error *err)
{
	rt__error_clear(err);
	if (!w || !def || def->cookie != RT_COOKIE) {
		rt__fail(err, RT_ERR_INVALID, "history definition was not made by rt_history_def_default()");
		return NULL;
	}
	if (!(def->every_s > 0.0) || !isfinite(def->every_s)) {
		rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "every_s", "every_s %g; expected a number of simulated seconds above 0", def->every_s);
		return NULL;
	}
	const rt_allocator a = def->allocator.alloc && def->allocator.free ? def->allocator : rt_allocator_default();
	rt_history *h = rt__calloc(&a, 1, sizeof *h);
	if (!h) {
		rt__fail(err, RT_ERR_NOMEM, "cannot allocate a history");
		return NULL;
	}
	h->allocator = a;
	h->every_s = def->every_s;
	int sides = 1;
	for (int i = 0; i < w->agents.count; ++i)
		if (w->agents.side[i] + 1 > sides) sides = w->agents.side[i] + 1;
	if (sides > HISTORY_MAX_SIDES) {
		rt__free(&a, h, sizeof *h);
		rt__fail(err, RT_ERR_CAPACITY, "the world has %d sides; a history keeps at most %d", sides, HISTORY_MAX_SIDES);
		return NULL;
	}
	h->side_count = sides;
	h->corps_count = w->corps_count;
	const size_t k = (size_t)(h->corps_count > 0 ? h->corps_count : 1);
	h->corps_left_at_s = rt__alloc(&a, k * sizeof(double));
	h->corps_names = rt__alloc(&a, k * sizeof(const char *));
	h->corps_side = rt__alloc(&a, k);
	if (!h->corps_left_at_s || !h->corps_names || !h->corps_side) {
		rt_history_destroy(h);
		rt__fail(err, RT_ERR_NOMEM, "cannot allocate a history of %d corps", w->corps_count);
		return NULL;
	}
	for (int c = 0; c < h->corps_count; ++c) {
		h->corps_names[c] = w->corps[c].name;
		h->corps_side[c] = w->corps[c].def.side;
		h->corps_left_at_s[c] = -1.0;
	}
	if (take_sample(h, w, err) != RT_OK) {
		rt_history_destroy(h);
		return NULL;
	}
	return h;
}

rt_status rt_history_record(rt_history *h, const rt_world *w, rt_error *err)
{
	rt__error_clear(err);
	if (!h || !w) return rt__fail(err, RT_ERR_INVALID, "no history or no world");
	if (w->time_s + 1e-9 < h->next_s) return RT_OK;
	return take_sample(h, w, err);
}

rt_status rt_history_record_now(rt_history *h, const rt_world *w, rt_error *err)
{
	rt__error_clear(err);
	if (!h || !w) return rt__fail(err, RT_ERR_INVALID, "no history or no world");
	if (h->count > 0 && h->time_s[h->count - 1] == w->time_s) return RT_OK;
	return take_sample(h, w, err);
}

rt_run_history rt_history_view(const rt_history *h)
{
	rt_run_history v;
	memset(&v, 0, sizeof v);
	if (!h) return v;
	v.sample_count = h->count;
	v.time_s = h->time_s;
	v.side_count = h->side_count;
	v.men_by_state = h->men_by_state;
	v.commanders_by_state = h->commanders_by_state;
	v.corps_count = h->corps_count;
	v.corps_names = h->corps_names;
	v.corps_side = h->corps_side;
	v.corps_active = h->corps_count > 0 ? h->corps_active : NULL;
	v.corps_commanders_active = h->corps_count > 0 ? h->corps_commanders : NULL;
	v.corps_left_at_s = h->corps_left_at_s;
	v.sea_level_m = h->sea_level_m;
	v.light_lux = h->light_lux;
	return v;
}

/* ---- checkpoints of a run (run_checkpoint.c) ---- */
size_t rt__history_bytes(const rt_history *h)
{
	const size_t per = sizeof(double) + 2 * per_sample_men(h) * sizeof(int) + 2 * (size_t)h->corps_count * sizeof(int) +
			   (h->sea_level_m ? 2 * sizeof(double) : 0);
	return 3 * sizeof(int32_t) + sizeof(double) + (size_t)h->corps_count * sizeof(double) + (size_t)h->count * per;
}

void rt__history_save(const rt_history *h, unsigned char *out)
{
	int32_t head[3] = { h->count, h->sea_level_m ? 1 : 0, h->corps_count };
	memcpy(out, head, sizeof head);
	out += sizeof head;
	memcpy(out, &h->next_s, sizeof(double));
	out += sizeof(double);
	memcpy(out, h->corps_left_at_s, (size_t)h->corps_count * sizeof(double));
	out += (size_t)h->corps_count * sizeof(double);
	const size_t n = (size_t)h->count;
	memcpy(out, h->time_s, n * sizeof(double));
	out += n * sizeof(double);
	memcpy(out, h->men_by_state, n * per_sample_men(h) * sizeof(int));
	out += n * per_sample_men(h) * sizeof(int);
	memcpy(out, h->commanders_by_state, n * per_sample_men(h) * sizeof(int));
	out += n * per_sample_men(h) * sizeof(int);
	memcpy(out, h->corps_active, n * (size_t)h->corps_count * sizeof(int));
	out += n * (size_t)h->corps_count * sizeof(int);
	memcpy(out, h->corps_commanders, n * (size_t)h->corps_count * sizeof(int));
	out += n * (size_t)h->corps_count * sizeof(int);
	if (h->sea_level_m) {
		memcpy(out, h->sea_level_m, n * sizeof(double));
		out += n * sizeof(double);
		memcpy(out, h->light_lux, n * sizeof(double));
	}
}

rt_status rt__history_load(rt_history *h, const unsigned char *in, size_t size, rt_error *err)
{
	int32_t head[3];
	if (size < sizeof head + sizeof(double)) return rt__fail(err, RT_ERR_PARSE, "the run's history in the checkpoint is truncated");
	memcpy(head, in, sizeof head);
	const bool environment = head[1] != 0;
	if (head[0] < 0 || head[0] > (1 << 24) || head[2] != h->corps_count || environment != (h->sea_level_m != NULL))
		return rt__fail(err, RT_ERR_INVALID, "the run's history in the checkpoint does not fit this run");
	const int count = head[0];
	rt_history probe = *h;
	probe.count = count;
	if (rt__history_bytes(&probe) != size) return rt__fail(err, RT_ERR_PARSE, "the run's history in the checkpoint has the wrong size");
	h->count = 0;
	while (h->capacity < count) {
		rt_status s = grow(h, environment, err);
		if (s != RT_OK) return s;
	}
	in += sizeof head;
	memcpy(&h->next_s, in, sizeof(double));
	in += sizeof(double);
	memcpy(h->corps_left_at_s, in, (size_t)h->corps_count * sizeof(double));
	in += (size_t)h->corps_count * sizeof(double);
	const size_t n = (size_t)count;
	memcpy(h->time_s, in, n * sizeof(double));
	in += n * sizeof(double);
	memcpy(h->men_by_state, in, n * per_sample_men(h) * sizeof(int));
	in += n * per_sample_men(h) * sizeof(int);
	memcpy(h->commanders_by_state, in, n * per_sample_men(h) * sizeof(int));
	in += n * per_sample_men(h) * sizeof(int);
	memcpy(h->corps_active, in, n * (size_t)h->corps_count * sizeof(int));
	in += n * (size_t)h->corps_count * sizeof(int);
	memcpy(h->corps_commanders, in, n * (size_t)h->corps_count * sizeof(int));
	in += n * (size_t)h->corps_count * sizeof(int);
	if (environment) {
		memcpy(h->sea_level_m, in, n * sizeof(double));
		in += n * sizeof(double);
		memcpy(h->light_lux, in, n * sizeof(double));
	}
	h->count = count;
	return RT_OK;
}
