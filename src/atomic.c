/* Atomic output files (atomic.h): a temporary beside the target, then flush, fsync,
 * rename and an fsync of the directory. POSIX only. */
#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

rt_status rt__atomic_open(rt_atomic_file *f, const char *path, rt_error *err)
{
	f->file = NULL;
	f->failed = false;
	f->error = 0;
	f->path[0] = f->temp[0] = '\0';
	if (!path || !*path) return rt__fail(err, RT_ERR_INVALID, "no output path given");
	size_t n = strlen(path);
	if (n >= RT_ATOMIC_PATH_MAX)
		return rt__fail(err, RT_ERR_INVALID, "output path of %zu characters is longer than the limit of %d", n,
				RT_ATOMIC_PATH_MAX - 1);
	if (path[n - 1] == '/') return rt__fail_at(err, RT_ERR_INVALID, path, 0, 0, NULL, "the output path names a directory");
	memcpy(f->path, path, n + 1);
	const long pid = (long)getpid();
	/* O_EXCL: never write into a file someone else holds; a leftover of a dead process
	 * with the same pid is stepped round with a counter */
	int fd = -1;
	for (int k = 0; k < 100 && fd < 0; ++k) {
		if (k == 0) snprintf(f->temp, sizeof f->temp, "%s.tmp.%ld", path, pid);
		else snprintf(f->temp, sizeof f->temp, "%s.tmp.%ld.%d", path, pid, k);
		fd = open(f->temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST) break;
	}
	if (fd < 0) {
		int e = errno;
		f->temp[0] = '\0';
		return rt__fail_at(err, RT_ERR_IO, path, 0, 0, NULL, "cannot create a temporary file beside it: %s", strerror(e));
	}
	f->file = fdopen(fd, "wb");
	if (!f->file) {
		int e = errno;
		close(fd);
		unlink(f->temp);
		f->temp[0] = '\0';
		return rt__fail_at(err, RT_ERR_IO, path, 0, 0, NULL, "cannot open a stream on the temporary file: %s", strerror(e));
	}
	return RT_OK;
}

void rt__atomic_write(rt_atomic_file *f, const void *data, size_t size)
{
	if (!f->file || f->failed || size == 0) return;
	errno = 0;
	if (fwrite(data, 1, size, f->file) != size) {
		f->failed = true;
		f->error = errno;
	}
}

void rt__atomic_abort(rt_atomic_file *f)
{
	if (f->file) fclose(f->file);
	f->file = NULL;
	if (f->temp[0]) unlink(f->temp);
	f->temp[0] = '\0';
}

/* The directory entry of the rename is durable only once the directory is synced. Not
 * every system allows opening a directory or syncing it; that is no failure. */
static void sync_directory(const char *path)
{
	char dir[RT_ATOMIC_PATH_MAX];
	const char *slash = strrchr(path, '/');
	if (!slash) {
		dir[0] = '.';
		dir[1] = '\0';
	} else if (slash == path) {
		dir[0] = '/';
		dir[1] = '\0';
	} else {
		size_t n = (size_t)(slash - path);
		memcpy(dir, path, n);
		dir[n] = '\0';
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) return;
	(void)fsync(fd);
	close(fd);
}

rt_status rt__atomic_commit(rt_atomic_file *f, rt_error *err)
{
	if (!f->file) return rt__fail_at(err, RT_ERR_STATE, f->path, 0, 0, NULL, "the output file is not open");
	int e = 0;
	const char *what = NULL;
	if (f->failed) {
		e = f->error;
		what = "cannot write";
	} else if (fflush(f->file) != 0) {
		e = errno;
		what = "cannot write";
	} else if (fsync(fileno(f->file)) != 0 && errno != EINVAL && errno != ENOTSUP) {
		/* EINVAL, ENOTSUP: the file system has nothing to sync (no failure) */
		e = errno;
		what = "cannot sync to disk";
	}
	if (what) {
		rt__atomic_abort(f);
		return rt__fail_at(err, RT_ERR_IO, f->path, 0, 0, NULL, "%s: %s", what, e ? strerror(e) : "write failed");
	}
	FILE *file = f->file;
	f->file = NULL;
	if (fclose(file) != 0) {
		e = errno;
		unlink(f->temp);
		f->temp[0] = '\0';
		return rt__fail_at(err, RT_ERR_IO, f->path, 0, 0, NULL, "cannot write: %s", strerror(e));
	}
	if (rename(f->temp, f->path) != 0) {
		e = errno;
		unlink(f->temp);
		f->temp[0] = '\0';
		return rt__fail_at(err, RT_ERR_IO, f->path, 0, 0, NULL, "cannot move the finished file into place: %s", strerror(e));
	}
	f->temp[0] = '\0';
	sync_directory(f->path);
	return RT_OK;
}

rt_status rt_write_file_atomic(const char *path, const void *data, size_t size, rt_error *err)
{
	rt__error_clear(err);
	if (size > 0 && !data) return rt__fail(err, RT_ERR_INVALID, "rt_write_file_atomic: no data for %zu bytes", size);
	rt_atomic_file f;
	rt_status s = rt__atomic_open(&f, path, err);
	if (s != RT_OK) return s;
	rt__atomic_write(&f, data, size);
	return rt__atomic_commit(&f, err);
}
