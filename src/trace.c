/* The trace: positions, states and morale every k steps, for viewers and replays.
 * Layout (little-endian, docs/trace-format.md):
 *   header  "RTTRACE1" | u32 version | u32 every_steps | f64 dt_s | f64 origin_x | f64 origin_y
 *   frame   u32 "FRM1" | i64 step | f64 time_s | u32 count | f32 x[count] | f32 y[count]
 *           | u8 state[count] | u8 side[count] | u8 morale[count] (version 2 on)
 *           | u32 checksum (FNV-1a of the frame so far)
 * x and y are metres from the origin (the world's lower-left bound); morale is the man's
 * morale (0..1) in 255ths. Version 1 traces (no morale) are still read. The file is
 * written under a temporary name and renamed on close (atomic.h), so a trace that exists
 * is whole. */
#include "world.h"
#include "atomic.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/stat.h>

#define TRACE_VERSION 2u          /* written; 1 (no morale) is read too */
#define TRACE_MORALE_VERSION 2u   /* the first version with a morale byte a man */
#define FRAME_MAGIC 0x314d5246u /* "FRM1" */
#define TRACE_MAX_AGENTS (1u << 28)

struct rt_trace_writer {
	rt_allocator allocator;
	rt_atomic_file out;
	int every;
	double origin_x, origin_y;
	float *buffer; /* count floats */
	size_t buffer_count;
};

static uint32_t fnv32(uint32_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; ++i) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

/* Morale 0..1 in 255ths, rounded; anything outside (or NaN) is clamped. */
static uint8_t morale_byte(float m)
{
	if (!(m > 0.0f)) return 0;
	if (m >= 1.0f) return 255;
	return (uint8_t)(m * 255.0f + 0.5f);
}

static void writer_free(rt_trace_writer *t)
{
	rt__free(&t->allocator, t->buffer, t->buffer_count * sizeof(float));
	rt_allocator a = t->allocator;
	rt__free(&a, t, sizeof *t);
}

rt_trace_writer *rt_trace_open(const rt_world *w, const char *path, int every, rt_error *err)
{
	rt__error_clear(err);
	if (!w || !path || every < 1) {
		rt__fail(err, RT_ERR_INVALID, "trace needs a world, a path and every_steps >= 1");
		return NULL;
	}
	rt_trace_writer *t = rt__calloc(&w->allocator, 1, sizeof *t);
	if (!t) {
		rt__fail(err, RT_ERR_NOMEM, "cannot allocate the trace writer");
		return NULL;
	}
	t->allocator = w->allocator;
	t->every = every;
	t->origin_x = w->def.bounds_min.x;
	t->origin_y = w->def.bounds_min.y;
	if (rt__atomic_open(&t->out, path, err) != RT_OK) {
		writer_free(t);
		return NULL;
	}
	uint32_t version = TRACE_VERSION, e = (uint32_t)every;
	double dt = w->def.dt_s;
	rt__atomic_write(&t->out, "RTTRACE1", 8);
	rt__atomic_write(&t->out, &version, 4);
	rt__atomic_write(&t->out, &e, 4);
	rt__atomic_write(&t->out, &dt, 8);
	rt__atomic_write(&t->out, &t->origin_x, 8);
	rt__atomic_write(&t->out, &t->origin_y, 8);
	if (!rt__atomic_ok(&t->out)) {
		rt__fail_at(err, RT_ERR_IO, path, 0, 0, NULL, "cannot write the trace header");
		rt_trace_abort(t);
		return NULL;
	}
	return t;
}

rt_status rt_trace_record(rt_trace_writer *t, const rt_world *w, rt_error *err)
{
	rt__error_clear(err);
	if (w->step % t->every != 0) return RT_OK;
	const rt_agents *a = &w->agents;
	size_t n = (size_t)a->count;
	if (t->buffer_count < n) {
		float *b = rt__alloc(&t->allocator, n * sizeof(float));
		if (!b) return rt__fail(err, RT_ERR_NOMEM, "cannot grow the trace buffer");
		rt__free(&t->allocator, t->buffer, t->buffer_count * sizeof(float));
		t->buffer = b;
		t->buffer_count = n;
	}
	uint32_t magic = FRAME_MAGIC, count = (uint32_t)n;
	int64_t step = w->step;
	double time = w->time_s;
	uint32_t h = 2166136261u;
#define PUT(ptr, size, num) do { h = fnv32(h, (ptr), (size_t)(size) * (num)); \
	rt__atomic_write(&t->out, (ptr), (size_t)(size) * (num)); } while (0)
	PUT(&magic, 4, 1);
	PUT(&step, 8, 1);
	PUT(&time, 8, 1);
	PUT(&count, 4, 1);
	for (size_t id = 0; id < n; ++id) t->buffer[id] = (float)(a->x[w->slot_of_id[id]] - t->origin_x);
	PUT(t->buffer, sizeof(float), n);
	for (size_t id = 0; id < n; ++id) t->buffer[id] = (float)(a->y[w->slot_of_id[id]] - t->origin_y);
	PUT(t->buffer, sizeof(float), n);
	uint8_t *bytes = (uint8_t *)t->buffer; /* n floats hold 4n bytes */
	for (size_t id = 0; id < n; ++id) bytes[id] = a->state[w->slot_of_id[id]];
	PUT(bytes, 1, n);
	for (size_t id = 0; id < n; ++id) bytes[id] = a->side[w->slot_of_id[id]];
	PUT(bytes, 1, n);
	for (size_t id = 0; id < n; ++id) bytes[id] = morale_byte(a->morale[w->slot_of_id[id]]);
	PUT(bytes, 1, n);
#undef PUT
	rt__atomic_write(&t->out, &h, 4);
	if (!rt__atomic_ok(&t->out))
		return rt__fail_at(err, RT_ERR_IO, t->out.path, 0, 0, NULL, "cannot write a trace frame: %s",
				   t->out.error ? strerror(t->out.error) : "write failed");
	return RT_OK;
}

rt_status rt_trace_close(rt_trace_writer *t, rt_error *err)
{
	rt__error_clear(err);
	if (!t) return RT_OK;
	rt_status s = rt__atomic_commit(&t->out, err);
	writer_free(t);
	return s;
}

void rt_trace_abort(rt_trace_writer *t)
{
	if (!t) return;
	rt__atomic_abort(&t->out);
	writer_free(t);
}

/* ---- reader ---- */
/* Reads from a file or from bytes in memory. Either way it knows how many bytes remain
 * (a file's size is taken when it is opened), so a frame that declares more agents
 * than the rest of the input can hold is refused before its buffers are allocated. */
struct rt_trace_reader {
	rt_allocator allocator;
	FILE *file;               /* NULL when reading from memory */
	const unsigned char *data; /* the bytes in memory */
	size_t size, position;    /* of the input; size is SIZE_MAX when unknown (a pipe) */
	char path[256];
	double dt, origin_x, origin_y;
	uint32_t version;
	size_t per_agent;         /* bytes a man takes in a frame: 10, 11 with morale */
	float *x, *y;
	uint8_t *state, *side, *morale;
	size_t capacity;
	long frame_index;
};

/* Reads n bytes, or fails leaving the position unspecified. */
static bool reader_get(rt_trace_reader *r, void *out, size_t n)
{
	if (n == 0) return true;
	if (!r->file) {
		if (n > r->size - r->position) return false;
		memcpy(out, r->data + r->position, n);
		r->position += n;
		return true;
	}
	if (fread(out, 1, n, r->file) != n) return false;
	r->position += n;
	return true;
}

static size_t reader_remaining(const rt_trace_reader *r)
{
	if (r->size == SIZE_MAX) return SIZE_MAX;
	return r->size > r->position ? r->size - r->position : 0;
}

static void reader_buffers_free(rt_trace_reader *r)
{
	rt__free(&r->allocator, r->x, r->capacity * sizeof(float));
	rt__free(&r->allocator, r->y, r->capacity * sizeof(float));
	rt__free(&r->allocator, r->state, r->capacity);
	rt__free(&r->allocator, r->side, r->capacity);
	rt__free(&r->allocator, r->morale, r->capacity);
	r->x = r->y = NULL;
	r->state = r->side = r->morale = NULL;
	r->capacity = 0;
}

static rt_trace_reader *reader_new(const char *name, const rt_allocator *allocator, rt_error *err)
{
	rt__error_clear(err);
	rt_allocator a = allocator ? *allocator : rt_allocator_default();
	if (!a.alloc || !a.free) {
		rt__fail(err, RT_ERR_INVALID, "the trace reader's allocator is incomplete");
		return NULL;
	}
	rt_trace_reader *r = rt__calloc(&a, 1, sizeof *r);
	if (!r) {
		rt__fail_at(err, RT_ERR_NOMEM, name, 0, 0, NULL, "cannot allocate the trace reader");
		return NULL;
	}
	r->allocator = a;
	snprintf(r->path, sizeof r->path, "%s", name);
	return r;
}

/* Reads and checks the header; closes the reader on failure. */
static rt_trace_reader *reader_start(rt_trace_reader *r, rt_error *err)
{
	char magic[8];
	uint32_t version, every;
	if (!reader_get(r, magic, 8) || memcmp(magic, "RTTRACE1", 8) != 0 || !reader_get(r, &version, 4) ||
	    !reader_get(r, &every, 4) || !reader_get(r, &r->dt, 8) || !reader_get(r, &r->origin_x, 8) ||
	    !reader_get(r, &r->origin_y, 8)) {
		rt__fail_at(err, RT_ERR_PARSE, r->path, 0, 0, "header", "not a rout trace (expected the RTTRACE1 header)");
		rt_trace_reader_close(r);
		return NULL;
	}
	if (version < 1 || version > TRACE_VERSION) {
		rt__fail_at(err, RT_ERR_PARSE, r->path, 0, 0, "version", "trace version %u; this build reads versions 1 to %u", version,
			    TRACE_VERSION);
		rt_trace_reader_close(r);
		return NULL;
	}
	r->version = version;
	r->per_agent = version >= TRACE_MORALE_VERSION ? 11u : 10u;
	return r;
}

rt_trace_reader *rt_trace_reader_open(const char *path, const rt_allocator *allocator, rt_error *err)
{
	if (!path) {
		rt__error_clear(err);
		rt__fail(err, RT_ERR_INVALID, "no trace path");
		return NULL;
	}
	rt_trace_reader *r = reader_new(path, allocator, err);
	if (!r) return NULL;
	r->file = fopen(path, "rb");
	if (!r->file) {
		rt__fail_at(err, RT_ERR_IO, path, 0, 0, NULL, "cannot open the trace: %s", strerror(errno));
		rt_trace_reader_close(r);
		return NULL;
	}
	struct stat st;
	r->size = fstat(fileno(r->file), &st) == 0 && S_ISREG(st.st_mode) ? (size_t)st.st_size : SIZE_MAX;
	return reader_start(r, err);
}

rt_trace_reader *rt_trace_reader_open_memory(const void *data, size_t size, const char *name,
					     const rt_allocator *allocator, rt_error *err)
{
	if (!data && size > 0) {
		rt__error_clear(err);
		rt__fail(err, RT_ERR_INVALID, "no trace bytes (data is NULL)");
		return NULL;
	}
	rt_trace_reader *r = reader_new(name ? name : "<memory>", allocator, err);
	if (!r) return NULL;
	r->data = data;
	r->size = size;
	return reader_start(r, err);
}

rt_status rt_trace_reader_next(rt_trace_reader *r, rt_trace_frame *f, rt_error *err)
{
	rt__error_clear(err);
	if (!r || !f) return rt__fail(err, RT_ERR_INVALID, "rt_trace_reader_next needs a reader and a frame");
	uint32_t magic, count, sum;
	int64_t step;
	double time;
	if (reader_remaining(r) == 0) return RT_ERR_STATE; /* clean end */
	if (r->file && r->size == SIZE_MAX) { /* a pipe: its end shows only when reached */
		const int c = getc(r->file);
		if (c == EOF && !ferror(r->file)) return RT_ERR_STATE;
		if (c != EOF) ungetc(c, r->file);
	}
	const long index = r->frame_index;
	if (!reader_get(r, &magic, 4) || magic != FRAME_MAGIC || !reader_get(r, &step, 8) || !reader_get(r, &time, 8) ||
	    !reader_get(r, &count, 4))
		return rt__fail_at(err, RT_ERR_PARSE, r->path, 0, 0, "frame", "frame %ld: damaged frame header", index);
	if (count > TRACE_MAX_AGENTS)
		return rt__fail_at(err, RT_ERR_PARSE, r->path, 0, 0, "count", "frame %ld: %u agents exceeds the limit %u", index, count, TRACE_MAX_AGENTS);
	/* refused before the buffers are allocated: 60 bytes must not ask for gigabytes */
	const size_t body = (size_t)count * r->per_agent + 4u; /* x, y, state, side, morale, checksum */
	if (body > reader_remaining(r))
		return rt__fail_at(err, RT_ERR_PARSE, r->path, 0, 0, "count",
				   "frame %ld is truncated: it holds %u agents, needing %zu bytes, and %zu remain", index,
				   count, body, reader_remaining(r));
	if (count > r->capacity) {
		reader_buffers_free(r);
		size_t c = count;
		r->x = rt__alloc(&r->allocator, c * sizeof(float));
		r->y = rt__alloc(&r->allocator, c * sizeof(float));
		r->state = rt__alloc(&r->allocator, c);
		r->side = rt__alloc(&r->allocator, c);
		r->morale = rt__alloc(&r->allocator, c);
		r->capacity = c;
		if (!r->x || !r->y || !r->state || !r->side || !r->morale) {
			reader_buffers_free(r);
			return rt__fail_at(err, RT_ERR_NOMEM, r->path, 0, 0, "count", "cannot allocate a trace frame of %u agents", count);
		}
	}
	if (!reader_get(r, r->x, count * sizeof(float)) || !reader_get(r, r->y, count * sizeof(float)) ||
	    !reader_get(r, r->state, count) || !reader_get(r, r->side, count) ||
	    (r->per_agent == 11u && !reader_get(r, r->morale, count)) || !reader_get(r, &sum, 4))
		return rt__fail_at(err, RT_ERR_PARSE, r->path, 0, 0, "frame", "frame %ld is truncated", index);
	uint32_t h = 2166136261u;
	h = fnv32(h, &magic, 4);
	h = fnv32(h, &step, 8);
	h = fnv32(h, &time, 8);
	h = fnv32(h, &count, 4);
	h = fnv32(h, r->x, count * sizeof(float));
	h = fnv32(h, r->y, count * sizeof(float));
	h = fnv32(h, r->state, count);
	h = fnv32(h, r->side, count);
	if (r->per_agent == 11u) h = fnv32(h, r->morale, count);
	if (h != sum) return rt__fail_at(err, RT_ERR_PARSE, r->path, 0, 0, "checksum", "frame %ld fails its checksum", index);
	for (uint32_t i = 0; i < count; ++i)
		if (r->state[i] >= RT_STATE_COUNT)
			return rt__fail_at(err, RT_ERR_PARSE, r->path, 0, 0, "state", "frame %ld: agent %u has unknown state %u", index, i, r->state[i]);
	r->frame_index++;
	f->step = step;
	f->time_s = time;
	f->count = (int)count;
	f->x = r->x;
	f->y = r->y;
	f->state = r->state;
	f->side = r->side;
	f->morale = r->per_agent == 11u ? r->morale : NULL;
	return RT_OK;
}

void rt_trace_reader_close(rt_trace_reader *r)
{
	if (!r) return;
	if (r->file) fclose(r->file);
	reader_buffers_free(r);
	rt_allocator a = r->allocator;
	rt__free(&a, r, sizeof *r);
}

rt_vec2 rt_trace_reader_origin(const rt_trace_reader *r)
{
	return (rt_vec2){ r->origin_x, r->origin_y };
}

rt_status rt_trace_reader_skip(rt_trace_reader *r, rt_trace_frame *f, rt_error *err)
{
	rt__error_clear(err);
	uint32_t magic, count;
	int64_t step;
	double time;
	size_t got = fread(&magic, 4, 1, r->file);
	if (got == 0 && feof(r->file)) return RT_ERR_STATE; /* clean end */
	long index = r->frame_index;
	if (got != 1 || magic != FRAME_MAGIC || fread(&step, 8, 1, r->file) != 1 || fread(&time, 8, 1, r->file) != 1 ||
	    fread(&count, 4, 1, r->file) != 1)
		return rt__fail_at(err, RT_ERR_PARSE, r->path, 0, 0, "frame", "frame %ld: damaged frame header", index);
	if (count > TRACE_MAX_AGENTS)
		return rt__fail_at(err, RT_ERR_PARSE, r->path, 0, 0, "count", "frame %ld: %u agents exceeds the limit %u", index, count, TRACE_MAX_AGENTS);
	/* the body: x, y (f32), state, side, morale (u8) and the checksum; a seek past the end
	 * would succeed, so the frame must fit in what is left of the file */
	const off_t body = (off_t)count * (off_t)r->per_agent + 4, here = ftello(r->file);
	if (here < 0 || fseeko(r->file, 0, SEEK_END) != 0)
		return rt__fail_at(err, RT_ERR_IO, r->path, 0, 0, "frame", "cannot seek in the trace");
	const off_t end = ftello(r->file);
	if (end - here < body) return rt__fail_at(err, RT_ERR_PARSE, r->path, 0, 0, "frame", "frame %ld is truncated", index);
	if (fseeko(r->file, here + body, SEEK_SET) != 0)
		return rt__fail_at(err, RT_ERR_IO, r->path, 0, 0, "frame", "cannot seek in the trace");
	r->frame_index++;
	f->step = step;
	f->time_s = time;
	f->count = (int)count;
	f->x = f->y = NULL;
	f->state = f->side = f->morale = NULL;
	return RT_OK;
}
