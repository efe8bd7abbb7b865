/* Option parsing shared by the commands: --name VALUE, with range checks and a clear
 * message on a bad value (arg_error is set and the caller returns 2). */
#ifndef ROUT_ARGS_H
#define ROUT_ARGS_H

#include "rout/scenario.h"

#include <stdbool.h>
#include <stddef.h>

extern bool arg_error;
bool arg_long(int argc, char **argv, int *i, const char *name, long *out, long lo, long hi);
bool arg_double(int argc, char **argv, int *i, const char *name, double *out, double lo, double hi);
bool arg_string(int argc, char **argv, int *i, const char *name, const char **out);
/* Creates a folder and its parents (mkdir -p): 0, or -1 with errno set. */
int make_dirs(const char *path);
/* "6h", "90m", "3600s" or "3600": a duration in simulated seconds (> 0). */
bool duration_seconds(const char *text, double *out);
/* --until: a local time of the scenario ("1641-09-26T12:00"), a time on its clock
 * ("12:00": the first such moment after the start) or a duration after its start; false
 * outside the run. */
bool until_seconds(const rt_scenario *sc, const char *text, double *out);
/* The message for a bad --until, as `rout <cmd>`'s. */
void until_error(const char *cmd, const char *text);
/* A folder stands for the scenario.yaml inside it (buf holds the path). */
const char *scenario_file(const char *path, char *buf, size_t size);
/* A library error on stderr: "file:line:column: message" when it has a place, else
 * "rout WHAT: message". */
void cli_print_error(const char *what, const rt_error *err);
/* The exit code for a status: 2 for bad input (parse, invalid, capacity, I/O), else 1. */
int cli_exit_code(rt_status status);

#endif
