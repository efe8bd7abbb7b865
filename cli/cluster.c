/* See cluster.h. */
#include "cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef ROUT_MPI
#include <mpi.h>
#endif

static int rank = 0, size = 1;
static bool joined = false;
/* A rank other than 0, until its first collective: stderr goes to `held` and the real
 * one waits in held_fd (cluster.h: one message for a bad input, not one per rank). */
static FILE *held = NULL;
static int held_fd = -1;

#ifdef ROUT_MPI
static bool collected = false; /* this rank has made a collective call */

static void hold(void)
{
	fflush(stderr);
	held = tmpfile();
	if (!held) return; /* no temporary file: every rank speaks, as before */
	held_fd = dup(STDERR_FILENO);
	if (held_fd < 0 || dup2(fileno(held), STDERR_FILENO) < 0) {
		if (held_fd >= 0) close(held_fd);
		held_fd = -1;
		fclose(held);
		held = NULL;
	}
}
#endif

static void release(bool say);

#ifdef ROUT_MPI
/* Before each collective call: the rank is under way, and says what it held. */
static void collective(void)
{
	collected = true;
	release(true);
}
#endif

/* Gives the rank its stderr back, with what it said meanwhile when `say`. */
static void release(bool say)
{
	if (held_fd < 0) return;
	fflush(stderr);
	dup2(held_fd, STDERR_FILENO);
	close(held_fd);
	held_fd = -1;
	if (say) {
		rewind(held);
		char buf[4096];
		size_t n;
		while ((n = fread(buf, 1, sizeof buf, held)) > 0) fwrite(buf, 1, n, stderr);
		fflush(stderr);
	}
	fclose(held);
	held = NULL;
}

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
	if (rank != 0) hold();
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

void cluster_end(int code)
{
#ifdef ROUT_MPI
	/* No rank got to a collective call: every rank stopped before the runs, as a bad input
	 * or a refused option stops them all alike. Rank 0 has said why; a rank whose exit is
	 * rank 0's drops what it held (the same words), one whose exit differs says it. */
	if (joined && size > 1 && !collected) {
		int lead = code;
		MPI_Bcast(&lead, 1, MPI_INT, 0, MPI_COMM_WORLD);
		release(lead != code);
	}
#else
	(void)code;
#endif
	release(true);
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
	collective();
	if (joined && size > 1 && n > 0) MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#else
	(void)v;
	(void)n;
#endif
}

int cluster_code(int code)
{
#ifdef ROUT_MPI
	collective();
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
	collective();
	if (joined && size > 1) {
		int mine = yes, any = 0;
		MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
		return any != 0;
	}
#endif
	return yes;
}
