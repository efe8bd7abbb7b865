/* Ensembles across machines (DESIGN.md, "Scale beyond one run"): `mpirun -np N rout run
 * --runs R` (or sweep, or fit) shares the runs among N ranks, run r on rank r mod N, and
 * gathers their figures so that every rank holds the whole table and rank 0 writes it.
 * Built with Open MPI when it is installed (scripts/setup-deps.sh installs it); without
 * it, or when not started by an MPI launcher, there is one rank and nothing changes. The
 * library knows nothing of this: only the command does. */
#ifndef ROUT_CLUSTER_H
#define ROUT_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>

/* Joins the MPI job when started by a launcher (mpirun, srun); 0, or 2 with a message
 * when started by one but built without MPI. A rank other than 0 holds what it writes to
 * stderr until its first collective call below (its runs under way): a bad input or a
 * refused option, the same on every rank, is then said once, by rank 0, not once per rank.
 * A rank that crashes before that loses what it held (mpirun reports the crash); a rank
 * that stops alone while the others go on to their runs is not provided for (nor was it
 * before: inputs are read alike on every rank). */
int cluster_start(void);
/* Leaves the job, with the command's exit code. When no rank got to a collective call
 * (each stopped before the runs), they agree on rank 0's exit code: a rank whose code is
 * the same drops what it held (rank 0 said it), one whose code differs says it. */
void cluster_end(int code);
int cluster_rank(void);
int cluster_size(void);
/* Rank 0: the one that writes the tables and speaks. */
bool cluster_lead(void);
/* Sums v over the ranks, in place, on every rank. */
void cluster_sum(double *v, size_t n);
/* The exit code of the job from each rank's: a failure (1, 2) over stopped (3) over 0. */
int cluster_code(int code);
/* Whether any rank says yes (a stop asked for on one rank stops all at the same point). */
bool cluster_any(bool yes);

#endif
