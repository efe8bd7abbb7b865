/* Atomic output files: everything the library writes goes through here, so no output is
 * ever left half-written under its real name.
 *
 * rt__atomic_open creates NAME.tmp.<pid> beside NAME (exclusively: never another's file);
 * writes go to it; rt__atomic_commit flushes it, fsyncs it, closes it, renames it over
 * NAME and fsyncs the directory where the system allows, so after a crash at any moment
 * NAME is either the old file (or absent) or the whole new one. rt__atomic_abort closes
 * and removes the temporary. A process killed before commit leaves only a NAME.tmp.<pid>
 * file, which no reader takes for the output.
 *
 * No allocation: the paths live in the struct (a few kilobytes; keep it in the caller's
 * object or on the stack). Only src/ sees this header. */
#ifndef RT_ATOMIC_H
#define RT_ATOMIC_H

#include "core.h"

#include <stdio.h>

#define RT_ATOMIC_PATH_MAX 4096

typedef struct rt_atomic_file {
	FILE *file;     /* NULL when not open */
	bool failed;    /* a write failed; commit reports it */
	int error;      /* errno of the first failure, 0 if none was given */
	char path[RT_ATOMIC_PATH_MAX];
	char temp[RT_ATOMIC_PATH_MAX + 32];
} rt_atomic_file;

/* Opens the temporary beside path. RT_ERR_INVALID for an empty or too long path,
 * RT_ERR_IO (naming the file and the system's reason) when it cannot be created. */
rt_status rt__atomic_open(rt_atomic_file *f, const char *path, rt_error *err);
/* Appends bytes; a failure is remembered and reported by rt__atomic_commit. */
void rt__atomic_write(rt_atomic_file *f, const void *data, size_t size);
/* Whether every write so far succeeded. */
static inline bool rt__atomic_ok(const rt_atomic_file *f) { return f->file && !f->failed; }
/* Flush, fsync, close, rename into place, fsync the directory. On any failure the
 * temporary is removed, the real name is left as it was, and RT_ERR_IO names the file. */
rt_status rt__atomic_commit(rt_atomic_file *f, rt_error *err);
/* Close and remove the temporary; the real name is left as it was. Safe to call on a
 * file that failed to open or was already committed. */
void rt__atomic_abort(rt_atomic_file *f);

/* picture.c: a cairo surface written as a PNG through an atomic file (pictures, plots);
 * `what` names the output in messages. */
struct _cairo_surface;
rt_status rt__write_png_atomic(struct _cairo_surface *surface, const char *path, const char *what, rt_error *err);

#endif
