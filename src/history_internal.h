/* history.c's samples as bytes, for a run's checkpoint (run_checkpoint.c). Internal. */
#ifndef RT_HISTORY_INTERNAL_H
#define RT_HISTORY_INTERNAL_H

#include "core.h"
#include "rout/plot.h"

size_t rt__history_bytes(const rt_history *h);
void rt__history_save(const rt_history *h, unsigned char *out);
rt_status rt__history_load(rt_history *h, const unsigned char *in, size_t size, rt_error *err);

#endif
