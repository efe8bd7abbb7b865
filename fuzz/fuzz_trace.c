/* libFuzzer harness for the trace reader (rt_trace_reader_open_memory and
 * rt_trace_reader_next; the file reader shares all but the byte source). Each input is
 * read three times:
 *   1. as it is;
 *   2. with every frame's checksum made right (docs/trace-format.md), so that the
 *      fuzzer's changes to counts, states and positions get past the checksum and
 *      reach the checks behind it;
 *   3. as in 2, with one allocation refused (chosen from the input), which must end in
 *      RT_ERR_NOMEM or in the same answer as 2 when the refused allocation was not
 *      needed after all.
 * Every frame returned must hold what the reader promises, and every byte must come
 * back. Seeds: fuzz/corpus/trace/ (written by fuzz/make_trace_seeds.c). */
#include "fuzz.h"

#define HEADER_BYTES 40
#define FRAME_HEAD_BYTES 24 /* magic, step, time_s, count */
#define MAX_FRAMES 4096

static uint32_t fnv32(uint32_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
	return h;
}

/* Rewrites each whole frame's checksum in place, walking the frames as the format
 * lays them out; stops at the first frame that does not fit. */
static void fix_checksums(uint8_t *data, size_t size)
{
	if (size < HEADER_BYTES) return;
	uint32_t version;
	memcpy(&version, data + 8, 4);
	const size_t per_agent = version >= 2 ? 11u : 10u; /* version 2 adds a morale byte */
	size_t at = HEADER_BYTES;
	while (at + FRAME_HEAD_BYTES <= size) {
		uint32_t count;
		memcpy(&count, data + at + 20, 4);
		const size_t frame = FRAME_HEAD_BYTES + (size_t)count * per_agent;
		if (frame + 4 > size - at) break;
		const uint32_t h = fnv32(2166136261u, data + at, frame);
		memcpy(data + at + frame, &h, 4);
		at += frame + 4;
	}
}

typedef struct outcome {
	rt_status status; /* of the open, or of the last rt_trace_reader_next */
	int frames;
	uint64_t digest; /* of every frame returned */
} outcome;

static outcome read_all(const uint8_t *data, size_t size)
{
	rt_allocator a = fuzz_allocator();
	rt_error err;
	outcome o = { RT_OK, 0, 1469598103934665603ull };
	rt_trace_reader *r = rt_trace_reader_open_memory(data, size, "fuzz.trace", &a, &err);
	if (!r) {
		o.status = err.code;
		FUZZ_CHECK(o.status != RT_OK, "no reader, yet no error");
		fuzz_check_error(o.status, &err);
		FUZZ_CHECK(strcmp(err.file, "fuzz.trace") == 0, "the error names file \"%s\"", err.file);
		return o;
	}
	rt_trace_frame f;
	while (o.frames < MAX_FRAMES && (o.status = rt_trace_reader_next(r, &f, &err)) == RT_OK) {
		FUZZ_CHECK(f.count >= 0 && (size_t)f.count * 10u <= size, "frame %d: %d agents in %zu bytes", o.frames,
			   f.count, size);
		FUZZ_CHECK(f.count == 0 || (f.x && f.y && f.state && f.side), "frame %d: NULL arrays", o.frames);
		for (int i = 0; i < f.count; ++i) {
			FUZZ_CHECK(f.state[i] < RT_STATE_COUNT, "frame %d agent %d: state %u", o.frames, i, f.state[i]);
			o.digest = (o.digest ^ f.state[i] ^ ((uint64_t)f.side[i] << 8)) * 1099511628211ull;
			uint32_t bits[2];
			memcpy(&bits[0], &f.x[i], 4);
			memcpy(&bits[1], &f.y[i], 4);
			o.digest = (o.digest ^ bits[0] ^ ((uint64_t)bits[1] << 32)) * 1099511628211ull;
		}
		o.digest = (o.digest ^ (uint64_t)f.step) * 1099511628211ull;
		o.frames++;
	}
	if (o.status != RT_OK && o.status != RT_ERR_STATE) {
		fuzz_check_error(o.status, &err);
		FUZZ_CHECK(strcmp(err.file, "fuzz.trace") == 0, "the error names file \"%s\"", err.file);
	}
	rt_trace_reader_close(r);
	return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_begin(-1);
	read_all(data, size);
	fuzz_end("the trace reader");

	uint8_t *fixed = malloc(size ? size : 1);
	if (!fixed) return 0;
	memcpy(fixed, data, size);
	fix_checksums(fixed, size);
	fuzz_begin(-1);
	const outcome whole = read_all(fixed, size);
	fuzz_end("the trace reader (checksums fixed)");

	const long k = fuzz_pick(data, size, fuzz_allocations);
	if (k >= 0) {
		fuzz_begin(k);
		const outcome starved = read_all(fixed, size);
		fuzz_end("the trace reader, out of memory");
		FUZZ_CHECK(starved.status == RT_ERR_NOMEM ||
				   (starved.status == whole.status && starved.frames == whole.frames && starved.digest == whole.digest),
			   "allocation %ld refused: %s after %d frames; without: %s after %d frames", k,
			   rt_status_name(starved.status), starved.frames, rt_status_name(whole.status), whole.frames);
	}
	free(fixed);
	return 0;
}
