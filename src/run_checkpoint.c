/* Checkpoints of a scenario run: the world's checkpoint (checkpoint.c) carrying the run's
 * own state as its extra bytes, under the same checksum, so the two can never be
 * replaced apart. The run's state is laid out as
 *
 *   magic "RTRUN8\0", fingerprint (u64: the scenario's tables, seed, scale, end),
 *   last_check, last_series, sheltered_at_start (i64), tide samples (i32) and the last
 *   two sea levels (f64), then per corps: commander state (u8), left reported (u8), its
 *   men's passing to its superior reported (u8), the hunt after him lost reported (u8), a hunter first close
 *   to him (f64, -1 never), reached place (i32), reached at (f64); per unit: order (kind i32, with 0x100 set for
 *   an order at the gallop and 0x200 for one to spread; place i32, target corps i32, radius f64), broken reported (u8),
 *   the place its last march sent it to (i32, -1 none); per trigger: fired at (f64); per history figure:
 *   its value at its time (f64, NAN not yet taken or none), then per figure its measure and
 *   free men at its `since` (2 f64), each `from` figure's cohort (u8 per agent id); per agent
 *   id the unit whose place he had ahead while it fought (i32, -1 none: Q5); phenomena seen (u8 each, one for each of
 *   PHENOMENA.md's 32 in its order: C1-C6, M1-M9, E1-E7, Q1-Q10); the events (count i32,
 *   then each event as its fixed record); the series
 *   (rows i64, then the rows: the time, the agents per side and state, the commanders
 *   among them per side and state); the history (its own bytes, length first: its agents
 *   and commanders per sample).
 *
 * Version 2 ("RTRUN2") counts the commanders apart in the series and the history (a
 * commander is one man at any scale); version 3 ("RTRUN3") a `from` figure's cohort;
 * version 4 a flag for every phenomenon (version 3 had 15); version 5 the place each unit
 * was last sent to (Q3, Q4); version 6 the mark of each man in flight who had a block
 * ahead of him (Q5); version 7 whether a corps' men passing to its superior's banner has
 * been told (M4, M5); version 8 the hunt (Q10): a hunt order's target and the report's
 * watch on each commander hunted. Older ones are refused.
 * Every read is bounds-checked; a value out of range is refused. */
#include "run_internal.h"

#include <math.h>
#include <stdio.h>

#define RUN_MAGIC "RTRUN8\0"
/* The older versions of the run's state, refused by name with what their rout lacked. */
static const char *const older_versions[] = {
	"which counted a commander as `scale` men",                                              /* RTRUN1 */
	"whose figures of the men in a place counted their corps' losses elsewhere too",        /* RTRUN2 */
	"whose report watched for 15 phenomena",                                                 /* RTRUN3 */
	"whose units did not keep the place they were sent to",                                  /* RTRUN4 */
	"whose report did not mark the men who slipped past a block, Q5",                        /* RTRUN5 */
	"whose report did not tell when a fallen general's men passed to his superior",          /* RTRUN6 */
	"whose orders had no hunt, Q10",                                                         /* RTRUN7 */
};

typedef struct buffer {
	unsigned char *data;
	size_t size, used;
	bool failed;
} buffer;

static void put(buffer *b, const void *p, size_t n)
{
	if (n == 0) return; /* an empty table (no events yet) may be NULL */
	if (b->data && b->used + n <= b->size) memcpy(b->data + b->used, p, n);
	else if (b->data) b->failed = true;
	b->used += n;
}

typedef struct reader {
	const unsigned char *data;
	size_t size, at;
	bool failed;
} reader;

static void get(reader *r, void *p, size_t n)
{
	if (n == 0) return;
	if (r->failed || n > r->size - r->at) {
		r->failed = true;
		memset(p, 0, n);
		return;
	}
	memcpy(p, r->data + r->at, n);
	r->at += n;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 1099511628211ull;
	return h;
}

/* What the run was made from: the scenario's resolved tables (every order, trigger and
 * figure), the seed, the scale and the end. */
static uint64_t fingerprint(const rt_run *run)
{
	const rt_scenario *sc = run->scenario;
	uint64_t h = 1469598103934665603ull;
	h = fnv(h, sc->name, strlen(sc->name));
	h = fnv(h, sc->places, (size_t)sc->place_count * sizeof(rt_sc_place));
	h = fnv(h, sc->corps, (size_t)sc->corps_count * sizeof(rt_sc_corps));
	h = fnv(h, sc->units, (size_t)sc->unit_count * sizeof(rt_sc_unit));
	h = fnv(h, sc->triggers, (size_t)sc->trigger_count * sizeof(rt_sc_trigger));
	h = fnv(h, sc->actions, (size_t)sc->action_count * sizeof(rt_sc_action));
	h = fnv(h, sc->history, (size_t)sc->history_count * sizeof(rt_sc_history));
	h = fnv(h, &run->seed, sizeof run->seed);
	h = fnv(h, &run->scale, sizeof run->scale);
	h = fnv(h, &run->end_s, sizeof run->end_s);
	return h;
}

static void write_state(const rt_run *run, buffer *b)
{
	const rt_scenario *sc = run->scenario;
	put(b, RUN_MAGIC, 8);
	const uint64_t fp = fingerprint(run);
	put(b, &fp, sizeof fp);
	const int64_t head[3] = { run->last_check, run->last_series, run->sheltered_at_start };
	put(b, head, sizeof head);
	const int32_t samples = run->tide_samples;
	put(b, &samples, sizeof samples);
	put(b, &run->tide_prev_m, sizeof(double));
	put(b, &run->tide_prev2_m, sizeof(double));
	for (int c = 0; c < sc->corps_count; ++c) {
		const uint8_t st = run->commander_state[c], left = run->commander_left[c], told = run->banner_told[c],
			      hunt = run->hunt_told[c];
		const int32_t place = run->reached_place[c];
		put(b, &st, 1);
		put(b, &left, 1);
		put(b, &told, 1);
		put(b, &hunt, 1);
		put(b, &run->hunt_close_s[c], sizeof(double));
		put(b, &place, sizeof place);
		put(b, &run->reached_at_s[c], sizeof(double));
	}
	for (int u = 0; u < sc->unit_count; ++u) {
		const int32_t kind = (int32_t)run->unit_order[u].kind | (run->unit_order[u].gallop ? 0x100 : 0) |
				     (run->unit_order[u].spread ? 0x200 : 0),
			      place = run->unit_order[u].place, target = run->unit_order[u].target;
		const uint8_t broken = run->unit_routed[u];
		put(b, &kind, sizeof kind);
		put(b, &place, sizeof place);
		put(b, &target, sizeof target);
		put(b, &run->unit_order[u].radius_m, sizeof(double));
		put(b, &broken, 1);
		put(b, &run->unit_sent_to[u], sizeof(int32_t));
	}
	for (int t = 0; t < sc->trigger_count; ++t) put(b, &run->trigger_fired_s[t], sizeof(double));
	for (int i = 0; i < sc->history_count; ++i) put(b, &run->figure_value[i], sizeof(double));
	for (int i = 0; i < 2 * sc->history_count; ++i) put(b, &run->figure_since[i], sizeof(double));
	for (int i = 0; i < sc->history_count; ++i)
		if (run->figure_cohort[i]) put(b, run->figure_cohort[i], run->initial_armour_size);
	put(b, run->slip_mark, run->initial_armour_size * sizeof(int32_t));
	for (int p = 0; p < RT_PH_COUNT; ++p) {
		const uint8_t seen = run->seen[p];
		put(b, &seen, 1);
	}
	const int32_t events = run->event_count;
	put(b, &events, sizeof events);
	put(b, run->events, (size_t)run->event_count * sizeof(rt_run_event));
	const int64_t rows = (int64_t)run->series_rows;
	put(b, &rows, sizeof rows);
	const size_t width = rt__series_width(sc->side_count);
	put(b, run->series, run->series_rows * width * sizeof(int32_t));
	const uint64_t hist = rt__history_bytes(run->history);
	put(b, &hist, sizeof hist);
	if (b->data && !b->failed && b->used + hist <= b->size) rt__history_save(run->history, b->data + b->used);
	b->used += hist;
}

rt_status rt_run_save_checkpoint(const rt_run *run, const char *path, rt_error *err)
{
	rt__error_clear(err);
	if (!run || !path) return rt__fail(err, RT_ERR_INVALID, "no run or no path");
	buffer b = { NULL, 0, 0, false };
	write_state(run, &b); /* measure */
	b.size = b.used;
	b.used = 0;
	b.data = rt__alloc(&run->allocator, b.size);
	if (!b.data) return rt__fail(err, RT_ERR_NOMEM, "cannot hold the run's state (%zu bytes)", b.size);
	write_state(run, &b);
	rt_status s = b.failed || b.used != b.size ? rt__fail(err, RT_ERR_STATE, "the run's state changed size while it was written")
						      : rt_world_save_checkpoint_extra(run->world, path, b.data, b.size, err);
	rt__free(&run->allocator, b.data, b.size);
	return s;
}

typedef struct load_context {
	rt_run *run;
	const char *path;
} load_context;

static rt_status refuse(rt_error *err, const char *path, const char *what)
{
	return rt__fail_at(err, RT_ERR_PARSE, path, 0, 0, "", "%s: the run's state in the checkpoint %s", path, what);
}

static rt_status read_state(const void *data, size_t size, void *context, rt_error *err)
{
	load_context *lc = context;
	rt_run *run = lc->run;
	const rt_scenario *sc = run->scenario;
	reader r = { data, size, 0, false };
	char magic[8];
	get(&r, magic, 8);
	for (int v = 1; !r.failed && v <= (int)(sizeof older_versions / sizeof older_versions[0]); ++v) {
		char old[8] = "RTRUN0";
		old[5] = (char)('0' + v);
		if (memcmp(magic, old, 8) == 0)
			return rt__fail_at(err, RT_ERR_INVALID, lc->path, 0, 0, "",
					   "%s: the run's state in the checkpoint is of version %d, made by an older rout (%s); this build "
					   "reads version %c: run again from the start",
					   lc->path, v, older_versions[v - 1], RUN_MAGIC[5]);
	}
	if (r.failed || memcmp(magic, RUN_MAGIC, 8) != 0) return refuse(err, lc->path, "is missing: this is a world's checkpoint, not a run's");
	uint64_t fp;
	get(&r, &fp, sizeof fp);
	if (fp != fingerprint(run))
		return rt__fail_at(err, RT_ERR_INVALID, lc->path, 0, 0, "", "%s: the checkpoint was made for another run (another scenario, --set value, seed, scale or end)", lc->path);
	int64_t head[3];
	get(&r, head, sizeof head);
	int32_t samples;
	get(&r, &samples, sizeof samples);
	double prev, prev2;
	get(&r, &prev, sizeof prev);
	get(&r, &prev2, sizeof prev2);
	/* read everything into scratch first: a refused load leaves the run as it was */
	const int C = sc->corps_count, U = sc->unit_count, T = sc->trigger_count;
	rt_status s = RT_OK;
	uint8_t *cst = rt__calloc(&run->allocator, (size_t)C + 1, 1), *cleft = rt__calloc(&run->allocator, (size_t)C + 1, 1);
	uint8_t *ctold = rt__calloc(&run->allocator, (size_t)C + 1, 1), *chunt = rt__calloc(&run->allocator, (size_t)C + 1, 1);
	double *cclose = rt__calloc(&run->allocator, (size_t)C + 1, sizeof(double));
	int32_t *cplace = rt__calloc(&run->allocator, (size_t)C + 1, sizeof(int32_t));
	double *cat = rt__calloc(&run->allocator, (size_t)C + 1, sizeof(double));
	rt_sc_order *orders = rt__calloc(&run->allocator, (size_t)U + 1, sizeof(rt_sc_order));
	uint8_t *broken = rt__calloc(&run->allocator, (size_t)U + 1, 1);
	int32_t *sent = rt__calloc(&run->allocator, (size_t)U + 1, sizeof(int32_t));
	double *fired = rt__calloc(&run->allocator, (size_t)T + 1, sizeof(double));
	double *figures = rt__calloc(&run->allocator, 3 * (size_t)sc->history_count + 1, sizeof(double));
	int cohorts = 0;
	for (int i = 0; i < sc->history_count; ++i) cohorts += run->figure_cohort[i] != NULL;
	const size_t cohort_bytes = (size_t)cohorts * run->initial_armour_size;
	uint8_t *cohort = rt__calloc(&run->allocator, cohort_bytes + 1, 1);
	const size_t mark_bytes = run->initial_armour_size * sizeof(int32_t);
	int32_t *mark = rt__alloc(&run->allocator, mark_bytes);
	rt_run_event *events = NULL;
	int32_t *series = NULL;
	size_t events_bytes = 0, series_bytes = 0;
	if (!cst || !cleft || !ctold || !chunt || !cclose || !cplace || !cat || !orders || !broken || !sent || !fired || !figures || !cohort || !mark) {
		s = rt__fail(err, RT_ERR_NOMEM, "out of memory reading %s", lc->path);
		goto done;
	}
	for (int c = 0; c < C; ++c) {
		get(&r, &cst[c], 1);
		get(&r, &cleft[c], 1);
		get(&r, &ctold[c], 1);
		get(&r, &chunt[c], 1);
		get(&r, &cclose[c], sizeof(double));
		get(&r, &cplace[c], sizeof(int32_t));
		get(&r, &cat[c], sizeof(double));
		if (cst[c] >= RT_STATE_COUNT || cleft[c] > 1 || ctold[c] > 1 || chunt[c] > 1 || !(cclose[c] >= -1.0 && cclose[c] <= 1e12) || cplace[c] < -1 || cplace[c] >= sc->place_count) r.failed = true;
	}
	for (int u = 0; u < U; ++u) {
		int32_t kind, place, target;
		get(&r, &kind, sizeof kind);
		get(&r, &place, sizeof place);
		get(&r, &target, sizeof target);
		get(&r, &orders[u].radius_m, sizeof(double));
		get(&r, &broken[u], 1);
		get(&r, &sent[u], sizeof(int32_t));
		if (sent[u] < -1 || sent[u] >= sc->place_count) r.failed = true;
		orders[u].gallop = (kind & 0x100) != 0; /* the pace rides in bit 8 of the kind */
		orders[u].spread = (kind & 0x200) != 0; /* the spread in bit 9 */
		kind &= ~0x300;
		if (kind < 0 || kind >= RT_ORDER_KIND_COUNT || place < -1 || place >= sc->place_count || broken[u] > 1 ||
		    !isfinite(orders[u].radius_m))
			r.failed = true;
		if (target < -1 || target >= C || (kind == RT_ORDER_HUNT) != (target >= 0)) r.failed = true;
		orders[u].kind = (rt_sc_order_kind)kind;
		orders[u].place = place;
		orders[u].target = target;
	}
	for (int t = 0; t < T; ++t) get(&r, &fired[t], sizeof(double));
	for (int i = 0; i < 3 * sc->history_count; ++i) {
		get(&r, &figures[i], sizeof(double));
		if (!isnan(figures[i]) && !(fabs(figures[i]) <= 1e12)) r.failed = true;
	}
	get(&r, cohort, cohort_bytes);
	for (size_t k = 0; k < cohort_bytes && !r.failed; ++k)
		if (cohort[k] > 1) r.failed = true;
	get(&r, mark, mark_bytes);
	for (size_t k = 0; k < run->initial_armour_size && !r.failed; ++k)
		if (mark[k] < -1 || mark[k] >= U) r.failed = true;
	uint8_t seen[RT_PH_COUNT];
	get(&r, seen, sizeof seen);
	int32_t event_count;
	get(&r, &event_count, sizeof event_count);
	if (r.failed || event_count < 0 || (size_t)event_count > (r.size - r.at) / sizeof(rt_run_event)) {
		s = refuse(err, lc->path, "is damaged");
		goto done;
	}
	events_bytes = (size_t)(event_count > 0 ? event_count : 1) * sizeof(rt_run_event);
	events = rt__alloc(&run->allocator, events_bytes);
	if (!events) {
		s = rt__fail(err, RT_ERR_NOMEM, "out of memory reading %s", lc->path);
		goto done;
	}
	get(&r, events, (size_t)event_count * sizeof(rt_run_event));
	for (int e = 0; e < event_count && !r.failed; ++e) /* texts must end inside their fields */
		if (!memchr(events[e].type, 0, sizeof events[e].type) || !memchr(events[e].who, 0, sizeof events[e].who) ||
		    !memchr(events[e].phenomenon, 0, sizeof events[e].phenomenon) || !memchr(events[e].text, 0, sizeof events[e].text))
			r.failed = true;
	int64_t rows;
	get(&r, &rows, sizeof rows);
	const size_t width = rt__series_width(sc->side_count);
	if (r.failed || rows < 0 || (uint64_t)rows > (r.size - r.at) / (width * sizeof(int32_t))) {
		s = refuse(err, lc->path, "is damaged");
		goto done;
	}
	series_bytes = ((size_t)rows + 1) * width * sizeof(int32_t);
	series = rt__alloc(&run->allocator, series_bytes);
	if (!series) {
		s = rt__fail(err, RT_ERR_NOMEM, "out of memory reading %s", lc->path);
		goto done;
	}
	get(&r, series, (size_t)rows * width * sizeof(int32_t));
	uint64_t hist;
	get(&r, &hist, sizeof hist);
	if (r.failed || hist != r.size - r.at) {
		s = refuse(err, lc->path, "is damaged");
		goto done;
	}
	if ((s = rt__history_load(run->history, r.data + r.at, (size_t)hist, err)) != RT_OK) goto done;
	/* all read: take it */
	run->last_check = head[0];
	run->last_series = head[1];
	run->sheltered_at_start = head[2];
	run->tide_samples = samples;
	run->tide_prev_m = prev;
	run->tide_prev2_m = prev2;
	memcpy(run->commander_state, cst, (size_t)C);
	for (int c = 0; c < C; ++c) {
		run->commander_left[c] = cleft[c] != 0;
		run->banner_told[c] = ctold[c] != 0;
		run->hunt_told[c] = chunt[c] != 0;
		run->hunt_close_s[c] = cclose[c];
		run->reached_place[c] = cplace[c];
		run->reached_at_s[c] = cat[c];
	}
	for (int u = 0; u < U; ++u) {
		run->unit_order[u] = orders[u];
		run->unit_routed[u] = broken[u] != 0;
		run->unit_sent_to[u] = sent[u];
	}
	memcpy(run->trigger_fired_s, fired, (size_t)T * sizeof(double));
	memcpy(run->figure_value, figures, (size_t)sc->history_count * sizeof(double));
	memcpy(run->figure_since, figures + sc->history_count, 2 * (size_t)sc->history_count * sizeof(double));
	for (int i = 0, k = 0; i < sc->history_count; ++i)
		if (run->figure_cohort[i]) memcpy(run->figure_cohort[i], cohort + (size_t)k++ * run->initial_armour_size, run->initial_armour_size);
	memcpy(run->slip_mark, mark, mark_bytes);
	for (int p = 0; p < RT_PH_COUNT; ++p) run->seen[p] = seen[p] != 0;
	rt__free(&run->allocator, run->events, (size_t)run->event_capacity * sizeof(rt_run_event));
	run->events = events;
	run->event_count = event_count;
	run->event_capacity = (int)(events_bytes / sizeof(rt_run_event));
	events = NULL;
	rt__free(&run->allocator, run->series, run->series_capacity * sizeof(int32_t));
	run->series = series;
	run->series_rows = (size_t)rows;
	run->series_capacity = series_bytes / sizeof(int32_t);
	series = NULL;
done:
	rt__free(&run->allocator, cst, (size_t)C + 1);
	rt__free(&run->allocator, cleft, (size_t)C + 1);
	rt__free(&run->allocator, ctold, (size_t)C + 1);
	rt__free(&run->allocator, chunt, (size_t)C + 1);
	rt__free(&run->allocator, cclose, ((size_t)C + 1) * sizeof(double));
	rt__free(&run->allocator, cplace, ((size_t)C + 1) * sizeof(int32_t));
	rt__free(&run->allocator, cat, ((size_t)C + 1) * sizeof(double));
	rt__free(&run->allocator, orders, ((size_t)U + 1) * sizeof(rt_sc_order));
	rt__free(&run->allocator, broken, (size_t)U + 1);
	rt__free(&run->allocator, sent, ((size_t)U + 1) * sizeof(int32_t));
	rt__free(&run->allocator, fired, ((size_t)T + 1) * sizeof(double));
	rt__free(&run->allocator, figures, (3 * (size_t)sc->history_count + 1) * sizeof(double));
	rt__free(&run->allocator, cohort, cohort_bytes + 1);
	rt__free(&run->allocator, mark, mark_bytes);
	rt__free(&run->allocator, events, events_bytes);
	rt__free(&run->allocator, series, series_bytes);
	return s;
}

rt_status rt_run_load_checkpoint(rt_run *run, const char *path, rt_error *err)
{
	rt__error_clear(err);
	if (!run || !path) return rt__fail(err, RT_ERR_INVALID, "no run or no path");
	load_context lc = { run, path };
	rt_status s = rt_world_load_checkpoint_extra(run->world, path, read_state, &lc, err);
	if (s != RT_OK) return s;
	/* the orders and the fire are kept from here on, as the trace */
	if ((s = rt__run_restart_logs(run, err)) != RT_OK) return s;
	/* the trace, if any, goes on from here: its first frame is the resumed moment */
	if (run->trace) s = rt_trace_record(run->trace, run->world, err);
	return s;
}
