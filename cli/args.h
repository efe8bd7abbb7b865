/* Option parsing shared by the commands: --name VALUE, with range checks and a clear
 * message on a bad value (arg_error is set and the caller returns 2). */
#ifndef ROUT_ARGS_H
#define ROUT_ARGS_H

#include <stdbool.h>

extern bool arg_error;
bool arg_long(int argc, char **argv, int *i, const char *name, long *out, long lo, long hi);
bool arg_double(int argc, char **argv, int *i, const char *name, double *out, double lo, double hi);
bool arg_string(int argc, char **argv, int *i, const char *name, const char **out);
/* Creates a folder and its parents (mkdir -p): 0, or -1 with errno set. */
int make_dirs(const char *path);

#endif
