/* The replay page: a run's trace turned into one self-contained HTML file that plays
 * the battle back in a browser with no network. The page itself is viewer/replay.html;
 * its text is compiled in from src/replay_template.h (scripts/embed-template.sh), and
 * the run's data replaces the template's placeholder line as one JSON object
 * (docs/replay-format.md).
 *
 * Why it is built this way:
 * - The trace is read twice with the public reader. The first pass counts frames and
 *   men and finds the extent of the positions; that fixes the thinning stride (every
 *   k-th frame, and always the last) and the coordinate type before a byte is written.
 *   The second pass streams the kept frames straight into base64 in the output, so
 *   memory stays one frame's worth however long the run.
 * - Positions are whole decimetres (a man is ~0.5 m across, so the page loses nothing
 *   visible) as little-endian Uint16 offset from the smallest value: 2 bytes an axis
 *   while the men's extent fits 6553.5 m on both axes, Int32 beyond. A frame record is
 *   x[n] y[n] state[n] and, when the trace keeps it (version 2), morale[n], padded to 4
 *   bytes so the page can view it with typed arrays.
 * - Who a man is does not change: his unit is one Uint16 per man for the whole run, and
 *   the units, corps, commanders and orders are a short table, so a clicked man's story
 *   costs the page almost nothing; only morale, which changes, is per frame (a fifth
 *   more than positions and state at Uint16, a ninth at Int32).
 * - The page size is bounded from above before writing; the stride grows until the
 *   bound fits max_bytes, so the limit holds without writing the page twice.
 * - Written to a temporary name and renamed (atomic.h), so a page that exists is whole. */
#include "core.h"
#include "atomic.h"
#include "rout/replay.h"
#include "replay_template.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#define REPLAY_FORMAT_VERSION 2      /* 2: morale in the record; men per agent, sides, units, orders */
#define REPLAY_UNITS_PER_M 10      /* positions are whole decimetres */
#define REPLAY_ABSENT 255u         /* state byte of a man not in the frame */
#define REPLAY_NO_UNIT 65535u      /* agent_unit of a man of no unit */
#define REPLAY_MAX_UNITS 65535
#define REPLAY_MAX_MEN_PER_AGENT 1e6
#define REPLAY_MAX_COORD_M 1e8     /* a position beyond this is treated as absent */
#define REPLAY_MAX_WALL_M 1e7      /* walls and bounds must lie within this of the origin */
#define REPLAY_MAX_TIME_S 1e12
#define REPLAY_MAX_ORIGIN_M 1e12
#define REPLAY_PLACEHOLDER "/*ROUT_DATA*/\n"
#define REPLAY_DEFAULT_TITLE "rout replay"
#define TRACE_HEADER_BYTES 40      /* docs/trace-format.md */
/* Upper bounds on the text the writer produces, for the size estimate. */
#define HEAD_FIXED_BYTES 2048      /* keys, version, origin, bounds, counts, coord */
#define WALL_BYTES 64              /* [ax,ay,bx,by], each %.2f within REPLAY_MAX_WALL_M */
#define EVENT_FIXED_BYTES 96       /* {"t":...,"type":"","text":""}, */
#define TIME_BYTES 24              /* %.3f within REPLAY_MAX_TIME_S, and a comma */
#define UNIT_FIXED_BYTES 96        /* {"name":"","kind":"","corps":"","commander":"","agent":-2147483648}, */
#define ORDER_FIXED_BYTES 64       /* {"t":...,"unit":2147483647,"text":""}, */
#define WHO_FIXED_BYTES 160        /* "men_per_agent", "morale", "side_names", "units", "orders", "agent_unit" keys */

rt_replay_def rt_replay_def_default(void)
{
	rt_replay_def d;
	memset(&d, 0, sizeof d);
	d.max_frames = 2000;
	d.max_bytes = (size_t)45 * 1000 * 1000;
	d.men_per_agent = 1.0;
	d.allocator = rt_allocator_default();
	d.cookie = RT_COOKIE;
	return d;
}

/* ---- output: counted bytes, JSON strings, streamed base64 ---- */
typedef struct out {
	rt_atomic_file *file;
	size_t bytes; /* written so far */
	bool ok;
	unsigned char carry[3]; /* base64: bytes waiting for a full group of three */
	int carried;
	char chunk[4096];
	size_t used;
} out;

static void put(out *o, const void *p, size_t n)
{
	if (o->ok && n > 0) {
		rt__atomic_write(o->file, p, n);
		o->ok = rt__atomic_ok(o->file);
	}
	o->bytes += n;
}

static void put_str(out *o, const char *s) { put(o, s, strlen(s)); }

static void put_fmt(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put_fmt(out *o, const char *fmt, ...)
{
	char buf[160];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof buf) {
		o->ok = false;
		return;
	}
	put(o, buf, (size_t)n);
}

/* Writes s as a JSON string (when o is not NULL) and returns its length. '<', '>' and
 * '&' are escaped too, so no text can close the page's <script> element. */
static size_t json_string(out *o, const char *s)
{
	size_t n = 2;
	if (o) put(o, "\"", 1);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; ++p) {
		char esc[8];
		size_t k;
		if (*p == '"' || *p == '\\') {
			esc[0] = '\\';
			esc[1] = (char)*p;
			k = 2;
		} else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&' || *p == 0x7f) {
			snprintf(esc, sizeof esc, "\\u%04x", (unsigned)*p);
			k = 6;
		} else {
			esc[0] = (char)*p; /* UTF-8 passes through; the page is served as UTF-8 */
			k = 1;
		}
		if (o) put(o, esc, k);
		n += k;
	}
	if (o) put(o, "\"", 1);
	return n;
}

static const char BASE64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static size_t base64_length(size_t n) { return 4 * ((n + 2) / 3); }

static void b64_flush(out *o)
{
	put(o, o->chunk, o->used);
	o->used = 0;
}

static void b64_group(out *o, const unsigned char *g, int n)
{
	if (o->used + 4 > sizeof o->chunk) b64_flush(o);
	uint32_t v = (uint32_t)g[0] << 16 | (uint32_t)(n > 1 ? g[1] : 0) << 8 | (uint32_t)(n > 2 ? g[2] : 0);
	char *c = o->chunk + o->used;
	c[0] = BASE64[v >> 18 & 63];
	c[1] = BASE64[v >> 12 & 63];
	c[2] = n > 1 ? BASE64[v >> 6 & 63] : '=';
	c[3] = n > 2 ? BASE64[v & 63] : '=';
	o->used += 4;
}

static void b64_put(out *o, const unsigned char *p, size_t n)
{
	while (n > 0 && o->carried > 0 && o->carried < 3) {
		o->carry[o->carried++] = *p++;
		n--;
	}
	if (o->carried == 3) {
		b64_group(o, o->carry, 3);
		o->carried = 0;
	}
	for (; n >= 3; n -= 3, p += 3) b64_group(o, p, 3);
	while (n > 0) {
		o->carry[o->carried++] = *p++;
		n--;
	}
}

static void b64_end(out *o)
{
	if (o->carried > 0) b64_group(o, o->carry, o->carried);
	o->carried = 0;
	b64_flush(o);
}

/* ---- reading the trace ---- */
typedef struct trace_scan {
	long frames;            /* in the trace */
	int agents;             /* the most men in any frame */
	bool morale;            /* the frames keep morale (a version-2 trace) */
	bool any;               /* some position was usable */
	double min_x, min_y, max_x, max_y; /* over usable positions, metres from the origin */
	double origin_x, origin_y; /* world coordinates of the trace's origin */
} trace_scan;

static bool usable(float x, float y)
{
	return isfinite(x) && isfinite(y) && fabs(x) <= REPLAY_MAX_COORD_M && fabs(y) <= REPLAY_MAX_COORD_M;
}

/* The trace's origin (the world's lower-left bound) from its header: the reader has
 * already checked the header, and frame coordinates are relative to it. */
static rt_status read_origin(const char *path, trace_scan *scan, rt_error *err)
{
	unsigned char h[TRACE_HEADER_BYTES];
	FILE *f = fopen(path, "rb");
	bool ok = f && fread(h, 1, sizeof h, f) == sizeof h;
	if (f) fclose(f);
	if (!ok) return rt__fail_at(err, RT_ERR_IO, path, 0, 0, "header", "cannot read the trace header again");
	memcpy(&scan->origin_x, h + 24, 8);
	memcpy(&scan->origin_y, h + 32, 8);
	if (!(fabs(scan->origin_x) <= REPLAY_MAX_ORIGIN_M && fabs(scan->origin_y) <= REPLAY_MAX_ORIGIN_M))
		return rt__fail_at(err, RT_ERR_PARSE, path, 0, 0, "origin", "the trace's origin (%g, %g) is not finite or too far out",
				   scan->origin_x, scan->origin_y);
	return RT_OK;
}

static rt_status scan_trace(const char *path, const rt_allocator *a, trace_scan *scan, rt_error *err)
{
	memset(scan, 0, sizeof *scan);
	rt_trace_reader *r = rt_trace_reader_open(path, a, err);
	if (!r) return err->code;
	rt_trace_frame f;
	rt_status s;
	double last_time = -INFINITY;
	while ((s = rt_trace_reader_next(r, &f, err)) == RT_OK) {
		if (!isfinite(f.time_s) || fabs(f.time_s) > REPLAY_MAX_TIME_S || f.time_s < last_time) {
			rt_trace_reader_close(r);
			return rt__fail_at(err, RT_ERR_PARSE, path, 0, 0, "time_s",
					   "frame %ld: time %g s is not finite or runs backwards", scan->frames, f.time_s);
		}
		last_time = f.time_s;
		if (scan->frames == 0) scan->morale = f.morale != NULL; /* one version for the whole trace */
		if (f.count > scan->agents) scan->agents = f.count;
		for (int i = 0; i < f.count; ++i) {
			if (!usable(f.x[i], f.y[i])) continue;
			double x = f.x[i], y = f.y[i];
			if (!scan->any) {
				scan->min_x = scan->max_x = x;
				scan->min_y = scan->max_y = y;
				scan->any = true;
			}
			scan->min_x = fmin(scan->min_x, x);
			scan->max_x = fmax(scan->max_x, x);
			scan->min_y = fmin(scan->min_y, y);
			scan->max_y = fmax(scan->max_y, y);
		}
		scan->frames++;
	}
	rt_trace_reader_close(r);
	if (s != RT_ERR_STATE) return s; /* err was filled by the reader */
	rt__error_clear(err);
	if (scan->frames == 0)
		return rt__fail_at(err, RT_ERR_INVALID, path, 0, 0, NULL, "the trace has no frames; record at least one step");
	return read_origin(path, scan, err);
}

/* ---- thinning ---- */
static long kept_frames(long frames, long stride)
{
	long last = frames - 1;
	return last / stride + 1 + (last % stride != 0);
}

static bool is_kept(long index, long frames, long stride) { return index % stride == 0 || index == frames - 1; }

static bool valid_box(rt_vec2 mn, rt_vec2 mx)
{
	return isfinite(mn.x) && isfinite(mn.y) && isfinite(mx.x) && isfinite(mx.y) && mx.x > mn.x && mx.y > mn.y;
}

static rt_status check_def(const rt_replay_def *d, const trace_scan *scan, rt_error *err)
{
	if (d->max_frames < 2)
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "max_frames", "max_frames is %d; expected 2 or more", d->max_frames);
	if (d->wall_count < 0 || (d->wall_count > 0 && (!d->wall_a || !d->wall_b)))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "wall_count",
				   "%d walls; expected wall_a and wall_b to point to that many points", d->wall_count);
	if (d->event_count < 0 || (d->event_count > 0 && !d->events))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "event_count",
				   "%d events; expected events to point to that many", d->event_count);
	for (int i = 0; i < d->wall_count; ++i) {
		double c[4] = { d->wall_a[i].x - scan->origin_x, d->wall_a[i].y - scan->origin_y,
				d->wall_b[i].x - scan->origin_x, d->wall_b[i].y - scan->origin_y };
		for (int k = 0; k < 4; ++k)
			if (!(fabs(c[k]) <= REPLAY_MAX_WALL_M))
				return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "wall_a",
						   "wall %d is not finite or lies more than %.0f km from the trace's origin", i,
						   REPLAY_MAX_WALL_M / 1000.0);
	}
	if (valid_box(d->bounds_min, d->bounds_max)) {
		double c[4] = { d->bounds_min.x - scan->origin_x, d->bounds_min.y - scan->origin_y,
				d->bounds_max.x - scan->origin_x, d->bounds_max.y - scan->origin_y };
		for (int k = 0; k < 4; ++k)
			if (!(fabs(c[k]) <= REPLAY_MAX_WALL_M))
				return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "bounds_min",
						   "the bounds lie more than %.0f km from the trace's origin", REPLAY_MAX_WALL_M / 1000.0);
	}
	for (int i = 0; i < d->event_count; ++i)
		if (!isfinite(d->events[i].time_s) || fabs(d->events[i].time_s) > REPLAY_MAX_TIME_S)
			return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "events", "event %d has time %g s; expected a finite time",
					   i, d->events[i].time_s);
	if (!(d->men_per_agent >= 1e-6 && d->men_per_agent <= REPLAY_MAX_MEN_PER_AGENT))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "men_per_agent", "men_per_agent is %g; expected a number of men above 0, at most %.0f",
				   d->men_per_agent, REPLAY_MAX_MEN_PER_AGENT);
	if (d->side_name_count < 0 || (d->side_name_count > 0 && !d->side_names) || d->side_name_count > 256)
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "side_name_count",
				   "%d side names; expected 0 to 256, with side_names pointing to that many", d->side_name_count);
	if (d->unit_count < 0 || d->unit_count > REPLAY_MAX_UNITS || (d->unit_count > 0 && !d->units))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "unit_count",
				   "%d units; expected 0 to %d, with units pointing to that many", d->unit_count, REPLAY_MAX_UNITS);
	if (d->agent_unit_count < 0 || (d->agent_unit_count > 0 && !d->agent_unit))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "agent_unit_count",
				   "%d agents' units; expected agent_unit to point to that many", d->agent_unit_count);
	for (int i = 0; i < d->agent_unit_count; ++i)
		if (d->agent_unit[i] < -1 || d->agent_unit[i] >= d->unit_count)
			return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "agent_unit", "agent %d is of unit %d; expected -1 or a unit of the %d given", i,
					   (int)d->agent_unit[i], d->unit_count);
	if (d->order_count < 0 || (d->order_count > 0 && !d->orders))
		return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "order_count", "%d orders; expected orders to point to that many", d->order_count);
	for (int i = 0; i < d->order_count; ++i)
		if (!isfinite(d->orders[i].time_s) || fabs(d->orders[i].time_s) > REPLAY_MAX_TIME_S || d->orders[i].unit < 0 ||
		    d->orders[i].unit >= d->unit_count)
			return rt__fail_at(err, RT_ERR_INVALID, NULL, 0, 0, "orders",
					   "order %d: unit %d at %g s; expected a unit of the %d given and a finite time", i, d->orders[i].unit,
					   d->orders[i].time_s, d->unit_count);
	return RT_OK;
}

/* ---- the page ---- */
typedef struct layout {
	long stride, kept;
	int agents;
	bool wide;                 /* Int32 positions, else Uint16 */
	bool morale;               /* a morale byte a man in each record */
	long qx0, qy0;             /* decimetres subtracted before storing */
	size_t record_bytes;       /* one frame: x, y, state (and morale), padded to 4 */
	double bounds[4];          /* the first view: metres from the origin */
	const char *title;
} layout;

static void write_head(out *o, const rt_replay_def *d, const trace_scan *scan, const layout *l,
		       const unsigned char *background, size_t background_size)
{
	put_fmt(o, "{\"format\":\"rout-replay\",\"version\":%d,\"title\":", REPLAY_FORMAT_VERSION);
	json_string(o, l->title);
	put_fmt(o, ",\"origin\":[%.2f,%.2f]", scan->origin_x, scan->origin_y);
	put_fmt(o, ",\"bounds\":[%.2f,%.2f,%.2f,%.2f]", l->bounds[0], l->bounds[1], l->bounds[2], l->bounds[3]);
	put_fmt(o, ",\"agents\":%d,\"frames\":%ld,\"source_frames\":%ld,\"stride\":%ld", l->agents, l->kept, scan->frames,
		l->stride);
	put_fmt(o, ",\"coord\":{\"type\":\"%s\",\"scale\":%d,\"x0\":%ld,\"y0\":%ld}", l->wide ? "i32" : "u16",
		REPLAY_UNITS_PER_M, l->qx0, l->qy0);
	put_fmt(o, ",\"record_bytes\":%zu,\"absent\":%u,\"states\":[", l->record_bytes, REPLAY_ABSENT);
	for (int s = 0; s < RT_STATE_COUNT; ++s) {
		if (s) put_str(o, ",");
		json_string(o, rt_state_name((rt_state)s));
	}
	put_str(o, "],\"walls\":[");
	for (int i = 0; i < d->wall_count; ++i)
		put_fmt(o, "%s[%.2f,%.2f,%.2f,%.2f]", i ? "," : "", d->wall_a[i].x - scan->origin_x,
			d->wall_a[i].y - scan->origin_y, d->wall_b[i].x - scan->origin_x, d->wall_b[i].y - scan->origin_y);
	put_str(o, "],\"events\":[");
	for (int i = 0; i < d->event_count; ++i) {
		put_fmt(o, "%s{\"t\":%.3f,\"type\":", i ? "," : "", d->events[i].time_s);
		json_string(o, d->events[i].type);
		put_str(o, ",\"text\":");
		json_string(o, d->events[i].text);
		put_str(o, "}");
	}
	put_str(o, "]");
	/* who the men are */
	put_fmt(o, ",\n\"men_per_agent\":%.9g,\"morale\":%d,\"side_names\":[", d->men_per_agent, l->morale ? 1 : 0);
	for (int i = 0; i < d->side_name_count; ++i) {
		if (i) put_str(o, ",");
		json_string(o, d->side_names[i]);
	}
	put_str(o, "],\"units\":[");
	for (int i = 0; i < d->unit_count; ++i) {
		const rt_replay_unit *u = &d->units[i];
		put_str(o, i ? ",{\"name\":" : "{\"name\":");
		json_string(o, u->name);
		put_str(o, ",\"kind\":");
		json_string(o, u->kind);
		put_str(o, ",\"corps\":");
		json_string(o, u->corps);
		put_str(o, ",\"commander\":");
		json_string(o, u->commander);
		put_fmt(o, ",\"agent\":%d}", u->commander_agent >= 0 ? (int)u->commander_agent : -1);
	}
	put_str(o, "],\"orders\":[");
	for (int i = 0; i < d->order_count; ++i) {
		put_fmt(o, "%s{\"t\":%.3f,\"unit\":%d,\"text\":", i ? "," : "", d->orders[i].time_s, d->orders[i].unit);
		json_string(o, d->orders[i].text);
		put_str(o, "}");
	}
	put_str(o, "]");
	if (d->unit_count > 0) { /* each man's unit: Uint16, little-endian */
		put_str(o, ",\n\"agent_unit\":\"");
		for (int i = 0; i < l->agents; ++i) {
			const uint32_t u = i < d->agent_unit_count && d->agent_unit[i] >= 0 ? (uint32_t)d->agent_unit[i] : REPLAY_NO_UNIT;
			const unsigned char le[2] = { (unsigned char)(u & 255u), (unsigned char)(u >> 8) };
			b64_put(o, le, 2);
		}
		b64_end(o);
		put_str(o, "\"");
	}
	if (background) {
		put_fmt(o, ",\n\"background\":{\"rect\":[%.2f,%.2f,%.2f,%.2f],\"png\":\"", d->background_min.x - scan->origin_x,
			d->background_min.y - scan->origin_y, d->background_max.x - scan->origin_x, d->background_max.y - scan->origin_y);
		b64_put(o, background, background_size);
		b64_end(o);
		put_str(o, "\"}");
	}
	put_str(o, ",\n\"data\":\"");
}

/* An upper bound on the page's size apart from the frames, their times and the sides. */
static double page_fixed_bound(const rt_replay_def *d, const layout *l, size_t template_bytes)
{
	double b = (double)template_bytes + HEAD_FIXED_BYTES + (double)json_string(NULL, l->title);
	for (int s = 0; s < RT_STATE_COUNT; ++s) b += (double)json_string(NULL, rt_state_name((rt_state)s)) + 1;
	b += (double)d->wall_count * WALL_BYTES;
	for (int i = 0; i < d->event_count; ++i)
		b += EVENT_FIXED_BYTES + (double)json_string(NULL, d->events[i].type) + (double)json_string(NULL, d->events[i].text);
	b += WHO_FIXED_BYTES;
	for (int i = 0; i < d->side_name_count; ++i) b += (double)json_string(NULL, d->side_names[i]) + 1;
	for (int i = 0; i < d->unit_count; ++i) {
		const rt_replay_unit *u = &d->units[i];
		b += UNIT_FIXED_BYTES + (double)(json_string(NULL, u->name) + json_string(NULL, u->kind) + json_string(NULL, u->corps) +
						 json_string(NULL, u->commander));
	}
	for (int i = 0; i < d->order_count; ++i) b += ORDER_FIXED_BYTES + (double)json_string(NULL, d->orders[i].text);
	if (d->unit_count > 0) b += (double)base64_length(2 * (size_t)l->agents);
	return b + (double)base64_length((size_t)l->agents);
}

/* ... and with a given number of kept frames. */
static double page_bound(double fixed, const layout *l, long kept)
{
	return fixed + (double)kept * TIME_BYTES + 4.0 * ceil((double)kept * (double)l->record_bytes / 3.0);
}

static rt_status plan(const rt_replay_def *d, const trace_scan *scan, layout *l, size_t template_bytes, rt_error *err)
{
	memset(l, 0, sizeof *l);
	l->title = d->title ? d->title : REPLAY_DEFAULT_TITLE;
	l->agents = scan->agents;
	long qx1 = 0, qy1 = 0;
	if (scan->any) {
		l->qx0 = lround(scan->min_x * REPLAY_UNITS_PER_M);
		l->qy0 = lround(scan->min_y * REPLAY_UNITS_PER_M);
		qx1 = lround(scan->max_x * REPLAY_UNITS_PER_M);
		qy1 = lround(scan->max_y * REPLAY_UNITS_PER_M);
	}
	l->wide = qx1 - l->qx0 > 65535 || qy1 - l->qy0 > 65535;
	l->morale = scan->morale;
	size_t n = (size_t)l->agents, per = l->wide ? 4 : 2;
	l->record_bytes = (n * (2 * per + 1 + (l->morale ? 1 : 0)) + 3) & ~(size_t)3;

	if (valid_box(d->bounds_min, d->bounds_max)) {
		l->bounds[0] = d->bounds_min.x - scan->origin_x;
		l->bounds[1] = d->bounds_min.y - scan->origin_y;
		l->bounds[2] = d->bounds_max.x - scan->origin_x;
		l->bounds[3] = d->bounds_max.y - scan->origin_y;
	} else {
		/* fit the men and the walls */
		double b[4] = { INFINITY, INFINITY, -INFINITY, -INFINITY };
		if (scan->any) {
			b[0] = scan->min_x, b[1] = scan->min_y, b[2] = scan->max_x, b[3] = scan->max_y;
		}
		for (int i = 0; i < d->wall_count; ++i) {
			const rt_vec2 p[2] = { d->wall_a[i], d->wall_b[i] };
			for (int k = 0; k < 2; ++k) {
				b[0] = fmin(b[0], p[k].x - scan->origin_x);
				b[1] = fmin(b[1], p[k].y - scan->origin_y);
				b[2] = fmax(b[2], p[k].x - scan->origin_x);
				b[3] = fmax(b[3], p[k].y - scan->origin_y);
			}
		}
		if (!(b[2] >= b[0] && b[3] >= b[1])) b[0] = b[1] = 0.0, b[2] = b[3] = 1.0;
		for (int k = 0; k < 4; ++k) l->bounds[k] = b[k] + (k < 2 ? -1.0 : 1.0); /* a metre of margin */
	}

	/* the smallest stride that keeps both limits */
	double fixed = page_fixed_bound(d, l, template_bytes);
	long frames = scan->frames, stride = 1;
	if (frames > d->max_frames) stride = (frames - 1) / (d->max_frames - 1);
	if (stride < 1) stride = 1;
	while (stride < frames && (kept_frames(frames, stride) > d->max_frames ||
				   page_bound(fixed, l, kept_frames(frames, stride)) > (double)d->max_bytes))
		stride++;
	double bound = page_bound(fixed, l, kept_frames(frames, stride));
	if (bound > (double)d->max_bytes)
		return rt__fail_at(err, RT_ERR_CAPACITY, NULL, 0, 0, "max_bytes",
				   "a page of %ld frame%s of %d men needs up to %.0f bytes; max_bytes is %zu", kept_frames(frames, stride),
				   kept_frames(frames, stride) == 1 ? "" : "s", l->agents, bound, d->max_bytes);
	l->stride = stride;
	l->kept = kept_frames(frames, stride);
	return RT_OK;
}

static void put_le(unsigned char *p, uint32_t v, size_t bytes)
{
	for (size_t k = 0; k < bytes; ++k) p[k] = (unsigned char)(v >> (8 * k));
}

/* The second pass: every kept frame as a record, streamed into base64. */
static rt_status write_frames(out *o, const char *trace_path, const rt_allocator *a, const trace_scan *scan,
			      const layout *l, unsigned char *record, uint8_t *side, double *times, rt_error *err)
{
	rt_trace_reader *r = rt_trace_reader_open(trace_path, a, err);
	if (!r) return err->code;
	size_t n = (size_t)l->agents, per = l->wide ? 4 : 2;
	unsigned char *xs = record, *ys = record + n * per, *states = record + 2 * n * per, *morale = states + n;
	rt_trace_frame f;
	rt_status s;
	long index = 0, kept = 0;
	while ((s = rt_trace_reader_next(r, &f, err)) == RT_OK) {
		if (index >= scan->frames || f.count > l->agents) break;
		for (int i = 0; i < f.count; ++i) side[i] = f.side[i];
		if (is_kept(index, scan->frames, l->stride)) {
			memset(record, 0, l->record_bytes);
			for (size_t i = 0; i < n; ++i) {
				if ((int)i >= f.count || !usable(f.x[i], f.y[i])) {
					states[i] = REPLAY_ABSENT;
					continue;
				}
				/* in double, exactly as the scan did, so 0 <= q <= the planned range */
				long qx = lround((double)f.x[i] * REPLAY_UNITS_PER_M) - l->qx0;
				long qy = lround((double)f.y[i] * REPLAY_UNITS_PER_M) - l->qy0;
				put_le(xs + i * per, (uint32_t)qx, per);
				put_le(ys + i * per, (uint32_t)qy, per);
				states[i] = f.state[i];
				if (l->morale && f.morale) morale[i] = f.morale[i];
			}
			b64_put(o, record, l->record_bytes);
			if (kept < l->kept) times[kept] = f.time_s;
			kept++;
		}
		index++;
	}
	rt_trace_reader_close(r);
	if (s == RT_OK || (s == RT_ERR_STATE && (index != scan->frames || kept != l->kept)))
		return rt__fail_at(err, RT_ERR_STATE, trace_path, 0, 0, NULL, "the trace changed while the replay was written");
	if (s != RT_ERR_STATE) return s;
	rt__error_clear(err);
	return RT_OK;
}

rt_status rt_replay_write(const char *trace_path, const char *html_path, const rt_replay_def *def, rt_error *err)
{
	rt_error local;
	if (!err) err = &local; /* the reader's status codes travel in it */
	rt__error_clear(err);
	rt_replay_def defaults = rt_replay_def_default();
	const rt_replay_def *d = def ? def : &defaults;
	if (d->cookie != RT_COOKIE)
		return rt__fail(err, RT_ERR_INVALID, "replay definition was not made by rt_replay_def_default()");
	if (!trace_path || !html_path || !*html_path)
		return rt__fail(err, RT_ERR_INVALID, "rt_replay_write needs a trace path and a page path");
	rt_allocator a = d->allocator.alloc && d->allocator.free ? d->allocator : rt_allocator_default();

	size_t template_bytes = 0;
	int placeholder_lines = 0;
	const size_t lines = sizeof rt__replay_template / sizeof rt__replay_template[0];
	for (size_t i = 0; i < lines; ++i) {
		template_bytes += strlen(rt__replay_template[i]);
		placeholder_lines += strcmp(rt__replay_template[i], REPLAY_PLACEHOLDER) == 0;
	}
	RT_ASSERT(placeholder_lines == 1);
	if (placeholder_lines != 1)
		return rt__fail(err, RT_ERR_STATE, "the compiled-in page has %d data placeholders; expected 1", placeholder_lines);

	/* the ground under the men, read whole (at most 16 MiB) */
	unsigned char *background = NULL;
	size_t background_size = 0, background_cap = 0;
	rt_replay_def sized = *d;
	if (d->background_png) {
		if (!(d->background_max.x > d->background_min.x && d->background_max.y > d->background_min.y))
			return rt__fail(err, RT_ERR_INVALID, "background_min..background_max is not a rectangle");
		FILE *bf = fopen(d->background_png, "rb");
		if (!bf) return rt__fail_at(err, RT_ERR_IO, d->background_png, 0, 0, NULL, "cannot read the background: %s", strerror(errno));
		for (;;) {
			if (background_size == background_cap) {
				size_t cap = background_cap ? 2 * background_cap : 1 << 18;
				unsigned char *g = cap <= (16u << 20) ? rt__realloc(&a, background, background_cap, cap) : NULL;
				if (!g) {
					fclose(bf);
					rt__free(&a, background, background_cap);
					return rt__fail_at(err, RT_ERR_CAPACITY, d->background_png, 0, 0, NULL, "the background is larger than 16 MiB or memory ran out");
				}
				background = g;
				background_cap = cap;
			}
			size_t got = fread(background + background_size, 1, background_cap - background_size, bf);
			background_size += got;
			if (got == 0) break;
		}
		fclose(bf);
		const size_t need = base64_length(background_size) + 200;
		sized.max_bytes = d->max_bytes > need ? d->max_bytes - need : 0;
	}
	trace_scan scan;
	rt_status s = scan_trace(trace_path, &a, &scan, err);
	if (s == RT_OK) s = check_def(d, &scan, err);
	layout l;
	if (s == RT_OK) s = plan(&sized, &scan, &l, template_bytes, err);
	if (s != RT_OK) {
		rt__free(&a, background, background_cap);
		return s;
	}

	size_t n = (size_t)l.agents;
	unsigned char *record = rt__alloc(&a, l.record_bytes);
	uint8_t *side = rt__calloc(&a, n, 1);
	double *times = rt__alloc(&a, (size_t)l.kept * sizeof(double));
	rt_atomic_file page;
	page.file = NULL;
	page.temp[0] = '\0';
	out o;
	memset(&o, 0, sizeof o);
	o.ok = true;
	o.file = &page;
	if (!record || !side || !times) {
		s = rt__fail(err, RT_ERR_NOMEM, "cannot allocate the replay buffers (%zu bytes a frame)", l.record_bytes);
		goto error;
	}
	if ((s = rt__atomic_open(&page, html_path, err)) != RT_OK) goto error;

	size_t line = 0;
	for (; strcmp(rt__replay_template[line], REPLAY_PLACEHOLDER) != 0; ++line) put_str(&o, rt__replay_template[line]);
	write_head(&o, d, &scan, &l, background, background_size);
	s = write_frames(&o, trace_path, &a, &scan, &l, record, side, times, err);
	if (s != RT_OK) goto error;
	b64_end(&o);
	put_str(&o, "\",\n\"side\":\"");
	b64_put(&o, side, n);
	b64_end(&o);
	put_str(&o, "\",\n\"t\":[");
	for (long k = 0; k < l.kept; ++k) put_fmt(&o, "%s%.3f", k ? "," : "", times[k]);
	put_str(&o, "]}\n");
	for (++line; line < lines; ++line) put_str(&o, rt__replay_template[line]);

	RT_ASSERT(o.bytes <= d->max_bytes);
	if (!o.ok) {
		s = rt__fail_at(err, RT_ERR_IO, html_path, 0, 0, NULL, "cannot write the replay page: %s",
				page.error ? strerror(page.error) : "a value did not fit its field");
		goto error;
	}
	s = rt__atomic_commit(&page, err); /* removes the temporary itself on failure */
	rt__free(&a, background, background_cap);
	rt__free(&a, record, l.record_bytes);
	rt__free(&a, side, n);
	rt__free(&a, times, (size_t)l.kept * sizeof(double));
	return s;

error:
	rt__atomic_abort(&page);
	rt__free(&a, background, background_cap);
	rt__free(&a, record, l.record_bytes);
	rt__free(&a, side, n);
	rt__free(&a, times, (size_t)l.kept * sizeof(double));
	return s;
}
