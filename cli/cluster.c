/* See cluster.h. */
#include "cluster.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef ROUT_MPI
#include <mpi.h>
#endif

static int rank = 0, size = 1;
static bool joined = false;

/* The launchers' marks: Open MPI's mpirun, PMIx (Open MPI, Slurm) and PMI (MPICH, Slurm). */
static bool under_launcher(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_SIZE");
}

int cluster_start(void)
{
#ifdef ROUT_MPI
	if (!under_launcher()) return 0;
	if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
		fprintf(stderr, "rout: cannot join the MPI job\n");
		return 1;
	}
	joined = true;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	return 0;
#else
	const char *n = getenv("OMPI_COMM_WORLD_SIZE");
	if (!n) n = getenv("PMI_SIZE");
	if (under_launcher() && n && atoi(n) > 1) {
		fprintf(stderr, "rout: started by an MPI launcher, but this rout was built without MPI (install libopenmpi-dev: make deps; then make)\n");
		return 2;
	}
	return 0;
#endif
}

void cluster_end(void)
{
#ifdef ROUT_MPI
	if (joined) MPI_Finalize();
#endif
	joined = false;
}

int cluster_rank(void) { return rank; }
int cluster_size(void) { return size; }
bool cluster_lead(void) { return rank == 0; }

void cluster_sum(double *v, size_t n)
{
#ifdef ROUT_MPI
	if (joined && size > 1 && n > 0) MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#else
	(void)v;
	(void)n;
#endif
}

int cluster_code(int code)
{
#ifdef ROUT_MPI
	if (joined && size > 1) {
		/* rank: 0 done, 1 stopped, 2 and up a failure (its code + 1) */
		int mine = code == 0 ? 0 : code == 3 ? 1 : code + 1, worst = mine;
		MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
		return worst == 0 ? 0 : worst == 1 ? 3 : worst - 1;
	}
#endif
	return code;
}

bool cluster_any(bool yes)
{
#ifdef ROUT_MPI
	if (joined && size > 1) {
		int mine = yes, any = 0;
		MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
		return any != 0;
	}
#endif
	return yes;
}
