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
 * when started by one but built without MPI. */
int cluster_start(void);
void cluster_end(void);
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
