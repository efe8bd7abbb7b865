/* The neighbour sums of the decide phase, the innermost loop of the engine. For a batch
 * of men in grid order: every man within each one's cutoff (read from the grid's sorted
 * copies), the repulsion sum_j A exp(-gap_ij / D) (x_i - x_j) / d_ij added in grid order,
 * the nearest gap, and the neighbours kept for the spacing pass (locomotion.c). Beside
 * it, the other vector work of the phase: the spacing over those neighbours, and the
 * flow-field directions of many men at once.
 *
 * Two versions give the same bits. The plain one is portable C. The other, for x86-64
 * with AVX2 and FMA and chosen at run time, scans four candidates at once, packs the
 * ones within the cutoff together, and takes square roots, divisions and exponentials
 * four at a time. Only element-wise IEEE operations are vectorised (no sum is
 * reassociated: the sums stay sequential in grid order) and -ffp-contract=off keeps the
 * compiler from fusing any; its expf is the C library's own algorithm, step for step
 * (glibc's, from ARM's optimized-routines, in the form glibc runs on a machine with FMA
 * and AVX2), and is compared with the library's expf when the kernel is chosen: on a
 * mismatch the plain version is used. So the results, and the state hashes the tests
 * commit, are the same whichever version runs. */
#include "world.h"

#include <float.h>
#include <math.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RT_HAVE_AVX2_KERNEL 1
#include <immintrin.h>
#else
#define RT_HAVE_AVX2_KERNEL 0
#endif

/* The runs of grid positions searched for a man in cell (cx, cy): 2 rc + 1 rows, each one
 * contiguous run unless it wraps round the tiling, else cell by cell. */
#define MAX_RUNS ((2 * 8 + 1) * (2 * 8 + 1))

static inline __attribute__((always_inline)) int row_runs(const rt_grid *g, int cx, int cy, int rc, int *lo, int *hi)
{
	int runs = 0;
	const int hx = g->hx, hy = g->hy;
	for (int dyc = -rc; dyc <= rc; ++dyc) {
		const int row = rt__grid_wrap(cy + dyc, hy) * hx;
		const int c0 = cx - rc, c1 = cx + rc;
		if (c0 >= 0 && c1 < hx) {
			lo[runs] = g->start[row + c0];
			hi[runs] = g->start[row + c1 + 1];
			runs++;
		} else {
			for (int c = c0; c <= c1; ++c) {
				const int b = row + rt__grid_wrap(c, hx);
				lo[runs] = g->start[b];
				hi[runs] = g->start[b + 1];
				runs++;
			}
		}
	}
	return runs;
}

static inline double wrap_dx(double dx, bool periodic, double period, double inv_period)
{
	if (periodic) dx -= period * nearbyint(dx * inv_period);
	return dx;
}

/* ---- the plain version ---- */

/* f_m = A exp(-gap / D) / d for kept neighbours [from, to) of the batch buffer (0 beyond
 * the repulsion range); turns d2 into the gap d - l. */
static void repel_plain(rt_nb_batch *b, int from, int to, const rt_nb_params *p)
{
	for (int m = from; m < to; ++m) {
		const double d = sqrt(b->gap[m]);
		const double dist = d >= 1e-9 ? d : 1e-9; /* fmax(d, 1e-9) */
		b->gap[m] = dist - b->l[m];
		b->f[m] = dist;
	}
	/* the exponentials in a loop of their own, so that the library call spills nothing */
	for (int m = from; m < to; ++m) {
		const double gap = b->gap[m];
		/* men stacked deep into each other (a fort's men sallying from where they went in)
		 * would overflow expf: the force is held at the largest float, so it stays finite
		 * and pushes them apart; below that the clamp changes no bit */
		float e = expf((float)(-gap * p->inv_D));
		e = e < FLT_MAX ? e : FLT_MAX;
		b->f[m] = gap < p->rep_range ? p->A * (double)e / b->f[m] : 0.0;
	}
}

/* The sums over kept neighbours [from, to), in order, added to (rx, ry); the least gap,
 * if asked for. */
static inline void sum_forces(const rt_nb_batch *b, int from, int to, bool nearest, double *rx, double *ry,
			      double *nearest_gap)
{
	double sx = *rx, sy = *ry, ng = *nearest_gap;
	for (int m = from; m < to; ++m) {
		sx -= b->f[m] * b->dx[m];
		sy -= b->f[m] * b->dy[m];
	}
	if (nearest)
		for (int m = from; m < to; ++m) ng = b->gap[m] < ng ? b->gap[m] : ng;
	*rx = sx;
	*ry = sy;
	*nearest_gap = ng;
}

/* Ends the batch: repulsion of every kept neighbour of men [from, to), then each man's sums. */
static void finish_plain(rt_nb_batch *b, int from, int to, int end, const rt_nb_params *p)
{
	repel_plain(b, 0, end, p);
	for (int i = from; i < to; ++i) {
		double rx = 0.0, ry = 0.0, ng = b->cutoff[i];
		sum_forces(b, b->first[i], b->first[i] + b->count[i], p->nearest, &rx, &ry, &ng);
		b->rx[i] = rx;
		b->ry[i] = ry;
		b->nearest_gap[i] = ng;
	}
}

/* One man of more neighbours than the batch holds, alone in the batch: his sums taken in
 * chunks of the buffer, and his first RT_NB_KEEP neighbours left at its start for the
 * spacing pass. */
static void crowded_plain(const rt_grid *g, const rt_nb_params *p, rt_nb_batch *b, int i)
{
	int lo[MAX_RUNS], hi[MAX_RUNS];
	const int k = b->k[i];
	const double xi = g->sx[k], yi = g->sy[k], ri = g->sr[k], cut2 = b->cutoff[i] * b->cutoff[i];
	const int runs = row_runs(g, rt__grid_cell_x(g, xi), rt__grid_cell_y(g, yi), b->rc[i], lo, hi);
	double rx = 0.0, ry = 0.0, ng = b->cutoff[i];
	int n = 0, done = 0;
	bool flushed = false;
	for (int r = 0; r < runs; ++r) {
		for (int j = lo[r]; j < hi[r]; ++j) {
			if (n >= RT_NB_CAPACITY) {
				repel_plain(b, done, n, p);
				sum_forces(b, done, n, true, &rx, &ry, &ng);
				n = done = RT_NB_KEEP;
				flushed = true;
			}
			const double dx = wrap_dx(g->sx[j] - xi, p->periodic, p->period, p->inv_period);
			const double dy = g->sy[j] - yi;
			const double d2 = dx * dx + dy * dy;
			b->dx[n] = dx;
			b->dy[n] = dy;
			b->gap[n] = d2;
			b->l[n] = ri + g->sr[j];
			n += !(d2 >= cut2) & (j != k);
		}
	}
	repel_plain(b, done, n, p);
	sum_forces(b, done, n, true, &rx, &ry, &ng);
	b->first[i] = 0;
	b->count[i] = flushed ? RT_NB_KEEP : n; /* after a flush, only the first RT_NB_KEEP are left */
	b->rx[i] = rx;
	b->ry[i] = ry;
	b->nearest_gap[i] = ng;
}

static int neighbours_plain(const rt_grid *g, const rt_nb_params *p, rt_nb_batch *b, int from)
{
	int lo[MAX_RUNS], hi[MAX_RUNS];
	const double *sx = g->sx, *sy = g->sy;
	const float *sr = g->sr;
	int n = 0;
	for (int i = from; i < b->men; ++i) {
		const int k = b->k[i];
		const double xi = sx[k], yi = sy[k], ri = sr[k], cut2 = b->cutoff[i] * b->cutoff[i];
		const int runs = row_runs(g, rt__grid_cell_x(g, xi), rt__grid_cell_y(g, yi), b->rc[i], lo, hi);
		const int first = n;
		for (int r = 0; r < runs; ++r) {
			for (int j = lo[r]; j < hi[r]; ++j) {
				if (n >= RT_NB_CAPACITY) { /* the buffer is full: the batch ends before him */
					if (i > from) {
						finish_plain(b, from, i, first, p);
						return i;
					}
					crowded_plain(g, p, b, i);
					return i + 1;
				}
				const double dx = wrap_dx(sx[j] - xi, p->periodic, p->period, p->inv_period);
				const double dy = sy[j] - yi;
				const double d2 = dx * dx + dy * dy;
				b->dx[n] = dx;
				b->dy[n] = dy;
				b->gap[n] = d2;
				b->l[n] = ri + sr[j];
				n += !(d2 >= cut2) & (j != k);
			}
		}
		b->first[i] = first;
		b->count[i] = n - first;
	}
	finish_plain(b, from, b->men, n, p);
	return b->men;
}

static double spacing_plain(const rt_nb_batch *b, int first, int count, double ex, double ey)
{
	double spacing = INFINITY;
	for (int m = first; m < first + count; ++m) {
		const double ahead = ex * b->dx[m] + ey * b->dy[m];
		const double lateral = fabs(ex * b->dy[m] - ey * b->dx[m]);
		const double sp = b->gap[m];
		const bool in_path = !(ahead <= 0.0) & !(lateral > b->l[m]);
		spacing = (in_path & (sp < spacing)) ? sp : spacing;
	}
	return spacing;
}

static void goal_directions_plain(const rt_goal *goal, int n, const double *x, const double *y, double *dx, double *dy)
{
	for (int i = 0; i < n; ++i)
		if (!rt__goal_direction(goal, x[i], y[i], &dx[i], &dy[i])) dx[i] = dy[i] = 0.0;
}

/* ---- the AVX2 version ---- */
#if RT_HAVE_AVX2_KERNEL

#define AVX2 __attribute__((target("avx2,fma")))

/* glibc's expf (sysdeps/ieee754/flt-32/e_expf.c): 2^(k/32) from a table times a cubic in
 * the remainder, all in double; these are its table and constants, bit for bit. */
static const uint64_t expf_table[32] = {
	0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51, 0x3fef72b83c7d517b,
	0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1, 0x3fef06fe0a31b715, 0x3feef1a7373aa9cb,
	0x3feedea64c123422, 0x3feece086061892d, 0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429,
	0x3feea47eb03a5585, 0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
	0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d, 0x3feee89f995ad3ad,
	0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069, 0x3fef5818dcfba487, 0x3fef7c97337b9b5f,
	0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
};
#define EXPF_INV_LN2_N 0x1.71547652b82fep+5 /* 32 / ln 2 */
#define EXPF_SHIFT 0x1.8p+52
#define EXPF_C0 0x1.c6af84b912394p-20
#define EXPF_C1 0x1.ebfce50fac4f3p-13
#define EXPF_C2 0x1.62e42ff0c52d6p-6

/* expf of four floats, for |x| < 88 (the caller sends the others to expf) */
static inline AVX2 __m128 expf4(__m128 x)
{
	const __m256d xd = _mm256_cvtps_pd(x);
	const __m256d inv_ln2_n = _mm256_set1_pd(EXPF_INV_LN2_N), shift = _mm256_set1_pd(EXPF_SHIFT);
	__m256d kd = _mm256_fmadd_pd(inv_ln2_n, xd, shift);
	const __m256i ki = _mm256_castpd_si256(kd);
	kd = _mm256_sub_pd(kd, shift);
	const __m256d r = _mm256_fmsub_pd(inv_ln2_n, xd, kd);
	const __m256i idx = _mm256_and_si256(ki, _mm256_set1_epi64x(31));
	__m256i t = _mm256_i64gather_epi64((const long long *)expf_table, idx, 8);
	t = _mm256_add_epi64(t, _mm256_slli_epi64(ki, 47));
	const __m256d s = _mm256_castsi256_pd(t);
	const __m256d z = _mm256_fmadd_pd(_mm256_set1_pd(EXPF_C0), r, _mm256_set1_pd(EXPF_C1));
	const __m256d r2 = _mm256_mul_pd(r, r);
	__m256d y = _mm256_fmadd_pd(_mm256_set1_pd(EXPF_C2), r, _mm256_set1_pd(1.0));
	y = _mm256_fmadd_pd(z, r2, y);
	y = _mm256_mul_pd(y, s);
	return _mm256_cvtpd_ps(y);
}

/* left-packing: for a 4-bit mask, the 32-bit lanes that move the chosen doubles forward */
#define P(a, b, c, d) { 2 * (a), 2 * (a) + 1, 2 * (b), 2 * (b) + 1, 2 * (c), 2 * (c) + 1, 2 * (d), 2 * (d) + 1 }
static const int32_t pack_lanes[16][8] __attribute__((aligned(32))) = {
	P(0, 0, 0, 0), P(0, 0, 0, 0), P(1, 0, 0, 0), P(0, 1, 0, 0), P(2, 0, 0, 0), P(0, 2, 0, 0), P(1, 2, 0, 0), P(0, 1, 2, 0),
	P(3, 0, 0, 0), P(0, 3, 0, 0), P(1, 3, 0, 0), P(0, 1, 3, 0), P(2, 3, 0, 0), P(0, 2, 3, 0), P(1, 2, 3, 0), P(0, 1, 2, 3),
};
#undef P
static const uint8_t bits_set[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };

static inline AVX2 __m256d pack(__m256d v, __m256i lanes)
{
	return _mm256_castps_pd(_mm256_permutevar8x32_ps(_mm256_castpd_ps(v), lanes));
}

/* f_m = A exp(-gap / D) / d for kept neighbours [0, end) of the batch buffer (0 beyond
 * the repulsion range), four at a time; turns d2 into the gap d - l. */
static AVX2 void repel_avx2(rt_nb_batch *b, int end, const rt_nb_params *p)
{
	const __m256d tiny = _mm256_set1_pd(1e-9), rep_range = _mm256_set1_pd(p->rep_range);
	const __m256d inv_D = _mm256_set1_pd(p->inv_D), A = _mm256_set1_pd(p->A), sign = _mm256_set1_pd(-0.0);
	const __m128i big = _mm_set1_epi32(0x42b00000 - 1), abs_mask = _mm_set1_epi32(0x7fffffff);
	const __m128 flt_max = _mm_set1_ps(FLT_MAX);
	for (int m = 0; m < end; m += 4) {
		const __m256d dist = _mm256_max_pd(_mm256_sqrt_pd(_mm256_loadu_pd(b->gap + m)), tiny); /* fmax(d, 1e-9) */
		const __m256d gap = _mm256_sub_pd(dist, _mm256_loadu_pd(b->l + m));
		const __m256d near = _mm256_cmp_pd(gap, rep_range, _CMP_LT_OQ);
		const __m128 arg = _mm256_cvtpd_ps(_mm256_mul_pd(_mm256_xor_pd(gap, sign), inv_D));
		__m128 e = expf4(arg);
		/* arguments the table does not serve (|x| >= 88, NaN): the library's expf */
		const __m128i odd_lanes = _mm_cmpgt_epi32(_mm_and_si128(_mm_castps_si128(arg), abs_mask), big);
		int odd = _mm_movemask_ps(_mm_castsi128_ps(odd_lanes)) & _mm256_movemask_pd(near);
		if (end - m < 4) odd &= (1 << (end - m)) - 1;
		if (odd) {
			float ev[4], av[4];
			_mm_storeu_ps(ev, e);
			_mm_storeu_ps(av, arg);
			for (int q = 0; q < 4; ++q)
				if (odd >> q & 1) ev[q] = expf(av[q]);
			e = _mm_loadu_ps(ev);
		}
		e = _mm_min_ps(e, flt_max); /* as the plain kernel: an overflow (or NaN) is the largest float */
		const __m256d f = _mm256_div_pd(_mm256_mul_pd(A, _mm256_cvtps_pd(e)), dist);
		_mm256_storeu_pd(b->f + m, _mm256_and_pd(f, near)); /* +0.0 where not near */
		_mm256_storeu_pd(b->gap + m, gap);
	}
}

/* Scans grid positions [lo, hi) for the men within the cutoff of the man at k, and
 * packs them at n of the batch buffer; returns the new n. */
static inline AVX2 int scan_run(const double *restrict sx, const double *restrict sy, const float *restrict sr, int lo,
				int hi, __m256d xi, __m256d yi, __m256d ri, __m256d cut2, __m128i k, double *restrict out_dx,
				double *restrict out_dy, double *restrict out_d2, double *restrict out_l, int n)
{
	const __m128i end = _mm_set1_epi32(hi), lane = _mm_setr_epi32(0, 1, 2, 3);
	for (int j = lo; j < hi; j += 4) {
		/* the grid's copies are padded, so four can be read past the last */
		const __m256d dx = _mm256_sub_pd(_mm256_loadu_pd(sx + j), xi);
		const __m256d dy = _mm256_sub_pd(_mm256_loadu_pd(sy + j), yi);
		const __m256d d2 = _mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy));
		const __m256d l = _mm256_add_pd(ri, _mm256_cvtps_pd(_mm_loadu_ps(sr + j)));
		/* lanes inside the run, less the man himself */
		const __m128i jj = _mm_add_epi32(_mm_set1_epi32(j), lane);
		const __m128i in_run = _mm_andnot_si128(_mm_cmpeq_epi32(jj, k), _mm_cmplt_epi32(jj, end));
		const int mask = _mm256_movemask_pd(_mm256_cmp_pd(d2, cut2, _CMP_NGE_UQ)) & /* !(d2 >= cut2) */
				 _mm_movemask_ps(_mm_castsi128_ps(in_run));
		const __m256i lanes = _mm256_load_si256((const __m256i *)pack_lanes[mask]);
		_mm256_storeu_pd(out_dx + n, pack(dx, lanes));
		_mm256_storeu_pd(out_dy + n, pack(dy, lanes));
		_mm256_storeu_pd(out_d2 + n, pack(d2, lanes));
		_mm256_storeu_pd(out_l + n, pack(l, lanes));
		n += bits_set[mask];
	}
	return n;
}

static AVX2 int neighbours_avx2(const rt_grid *g, const rt_nb_params *p, rt_nb_batch *b, int from)
{
	int lo[MAX_RUNS], hi[MAX_RUNS];
	const int hx = g->hx, hy = g->hy;
	const double *sx = g->sx, *sy = g->sy;
	const float *sr = g->sr;
	int n = 0, i = from;
	for (; i < b->men; ++i) {
		const int k = b->k[i], rc = b->rc[i];
		const double xi = sx[k], yi = sy[k];
		const __m256d vxi = _mm256_set1_pd(xi), vyi = _mm256_set1_pd(yi), vri = _mm256_set1_pd((double)sr[k]);
		const __m256d cut2 = _mm256_set1_pd(b->cutoff[i] * b->cutoff[i]);
		const __m128i vk = _mm_set1_epi32(k);
		const int cx = rt__grid_cell_x(g, xi), cy = rt__grid_cell_y(g, yi);
		const int first = n;
		if (cx - rc >= 0 && cx + rc < hx && cy - rc >= 0 && cy + rc < hy) {
			/* no wrap: each row of cells is one run */
			const int *row = g->start + (size_t)(cy - rc) * (size_t)hx + (cx - rc);
			for (int r = 0; r <= 2 * rc; ++r, row += hx) {
				const int a = row[0], z = row[2 * rc + 1];
				if (n + (z - a) > RT_NB_CAPACITY - 4) goto full;
				n = scan_run(sx, sy, sr, a, z, vxi, vyi, vri, cut2, vk, b->dx, b->dy, b->gap, b->l, n);
			}
		} else {
			const int runs = row_runs(g, cx, cy, rc, lo, hi);
			for (int r = 0; r < runs; ++r) {
				if (n + (hi[r] - lo[r]) > RT_NB_CAPACITY - 4) goto full;
				n = scan_run(sx, sy, sr, lo[r], hi[r], vxi, vyi, vri, cut2, vk, b->dx, b->dy, b->gap, b->l, n);
			}
		}
		b->first[i] = first;
		b->count[i] = n - first;
		continue;
	full: /* the buffer is full: the batch ends before him */
		if (i > from) {
			n = first;
			break;
		}
		crowded_plain(g, p, b, i);
		return i + 1;
	}
	/* the batch's exponentials and divisions together, then each man's sums in order */
	repel_avx2(b, n, p);
	for (int q = from; q < i; ++q) {
		double rx = 0.0, ry = 0.0, ng = b->cutoff[q];
		sum_forces(b, b->first[q], b->first[q] + b->count[q], p->nearest, &rx, &ry, &ng);
		b->rx[q] = rx;
		b->ry[q] = ry;
		b->nearest_gap[q] = ng;
	}
	return i;
}

static AVX2 double spacing_avx2(const rt_nb_batch *b, int first, int count, double ex, double ey)
{
	const __m256d vex = _mm256_set1_pd(ex), vey = _mm256_set1_pd(ey), zero = _mm256_setzero_pd();
	const __m256d inf = _mm256_set1_pd(INFINITY), sign = _mm256_set1_pd(-0.0);
	const __m256i lanes = _mm256_setr_epi64x(0, 1, 2, 3);
	__m256d spacing = inf;
	const int end = first + count;
	for (int m = first; m < end; m += 4) {
		const __m256d dx = _mm256_loadu_pd(b->dx + m), dy = _mm256_loadu_pd(b->dy + m);
		const __m256d ahead = _mm256_add_pd(_mm256_mul_pd(vex, dx), _mm256_mul_pd(vey, dy));
		const __m256d lateral = _mm256_andnot_pd(sign, _mm256_sub_pd(_mm256_mul_pd(vex, dy), _mm256_mul_pd(vey, dx)));
		__m256d in_path = _mm256_and_pd(_mm256_cmp_pd(ahead, zero, _CMP_NLE_UQ),                      /* !(ahead <= 0) */
						_mm256_cmp_pd(lateral, _mm256_loadu_pd(b->l + m), _CMP_NGT_UQ)); /* !(lateral > l) */
		/* lanes past his last neighbour, masked without a branch */
		in_path = _mm256_and_pd(in_path, _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x(end - m), lanes)));
		/* a minimum is the same in any order (the gaps are never NaN nor -0) */
		spacing = _mm256_min_pd(_mm256_blendv_pd(inf, _mm256_loadu_pd(b->gap + m), in_path), spacing);
	}
	__m128d lo = _mm_min_pd(_mm256_castpd256_pd128(spacing), _mm256_extractf128_pd(spacing, 1));
	lo = _mm_min_pd(lo, _mm_unpackhi_pd(lo, lo));
	return _mm_cvtsd_f64(lo);
}

/* A note on mixing: the plain functions are legacy SSE code, and SSE code run while the
 * upper halves of the AVX registers hold data is slow on this machine's CPU (it was
 * measured: the whole step 15 % slower when a tail call leaked that state). The compiler
 * clears them on return but not always before a call, so these functions clear them
 * themselves (_mm256_zeroupper) before calling plain code.
 *
 * Four men's flow-field directions at once where all four stand inside the field and
 * outside the target, and the field does not cancel; the others one by one. The same
 * operations as rt__goal_direction, in the same order, lane by lane. */
static AVX2 void goal_directions_avx2(const rt_goal *goal, int n, const double *x, const double *y, double *dx, double *dy)
{
	const rt_goal_def *d = &goal->def;
	int i = 0;
	if (!d->straight) {
		const __m256d ox = _mm256_set1_pd(goal->origin_x), oy = _mm256_set1_pd(goal->origin_y);
		const __m256d inv = _mm256_set1_pd(goal->inv_cell), half = _mm256_set1_pd(0.5), one = _mm256_set1_pd(1.0);
		const __m256d tx0 = _mm256_set1_pd(d->target_min.x), tx1 = _mm256_set1_pd(d->target_max.x);
		const __m256d ty0 = _mm256_set1_pd(d->target_min.y), ty1 = _mm256_set1_pd(d->target_max.y);
		const __m256d tiny = _mm256_set1_pd(1e-12);
		const __m128i ione = _mm_set1_epi32(1), nx1 = _mm_set1_epi32(goal->nx - 1), ny1 = _mm_set1_epi32(goal->ny - 1);
		const __m128i zero = _mm_setzero_si128();
		for (; i + 4 <= n; i += 4) {
			const __m256d px = _mm256_loadu_pd(x + i), py = _mm256_loadu_pd(y + i);
			/* rt__goal_reached: inside the target rectangle */
			const __m256d reached = _mm256_and_pd(
				_mm256_and_pd(_mm256_cmp_pd(px, tx0, _CMP_GE_OQ), _mm256_cmp_pd(px, tx1, _CMP_LE_OQ)),
				_mm256_and_pd(_mm256_cmp_pd(py, ty0, _CMP_GE_OQ), _mm256_cmp_pd(py, ty1, _CMP_LE_OQ)));
			const __m256d fx = _mm256_sub_pd(_mm256_mul_pd(_mm256_sub_pd(px, ox), inv), half);
			const __m256d fy = _mm256_sub_pd(_mm256_mul_pd(_mm256_sub_pd(py, oy), inv), half);
			/* x0 = (int)(fx + 1) - 1; inside the field the clamp to [-1, nx] changes nothing */
			const __m128i x0 = _mm_sub_epi32(_mm256_cvttpd_epi32(_mm256_add_pd(fx, one)), ione);
			const __m128i y0 = _mm_sub_epi32(_mm256_cvttpd_epi32(_mm256_add_pd(fy, one)), ione);
			const __m128i inside = _mm_and_si128(
				_mm_and_si128(_mm_cmpgt_epi32(x0, _mm_sub_epi32(zero, ione)), _mm_cmplt_epi32(x0, nx1)),
				_mm_and_si128(_mm_cmpgt_epi32(y0, _mm_sub_epi32(zero, ione)), _mm_cmplt_epi32(y0, ny1)));
			if (_mm_movemask_ps(_mm_castsi128_ps(inside)) != 15 || _mm256_movemask_pd(reached) != 0) {
				_mm256_zeroupper();
				goal_directions_plain(goal, 4, x + i, y + i, dx + i, dy + i);
				continue;
			}
			const __m256d tx = _mm256_sub_pd(fx, _mm256_cvtepi32_pd(x0)), ty = _mm256_sub_pd(fy, _mm256_cvtepi32_pd(y0));
			const __m256d wx0 = _mm256_sub_pd(one, tx), wy0 = _mm256_sub_pd(one, ty);
			const __m256d w00 = _mm256_mul_pd(wx0, wy0), w10 = _mm256_mul_pd(tx, wy0);
			const __m256d w01 = _mm256_mul_pd(wx0, ty), w11 = _mm256_mul_pd(tx, ty);
			/* each man's two cells in a row are four floats: (x, y) of x0 and of x0 + 1 */
			const __m128i cell = _mm_add_epi32(_mm_mullo_epi32(y0, _mm_set1_epi32(goal->nx)), x0); /* < 2^26 */
			const float *at[4] = { goal->dir + 2 * (size_t)_mm_extract_epi32(cell, 0), goal->dir + 2 * (size_t)_mm_extract_epi32(cell, 1),
					       goal->dir + 2 * (size_t)_mm_extract_epi32(cell, 2), goal->dir + 2 * (size_t)_mm_extract_epi32(cell, 3) };
			const size_t up = 2 * (size_t)goal->nx;
			__m128 c[4] = { _mm_loadu_ps(at[0]), _mm_loadu_ps(at[1]), _mm_loadu_ps(at[2]), _mm_loadu_ps(at[3]) };
			__m128 u[4] = { _mm_loadu_ps(at[0] + up), _mm_loadu_ps(at[1] + up), _mm_loadu_ps(at[2] + up), _mm_loadu_ps(at[3] + up) };
			_MM_TRANSPOSE4_PS(c[0], c[1], c[2], c[3]); /* c[0]: the four men's x of cell x0, ... */
			_MM_TRANSPOSE4_PS(u[0], u[1], u[2], u[3]);
			__m256d sx = _mm256_setzero_pd(), sy = _mm256_setzero_pd();
			sx = _mm256_add_pd(sx, _mm256_mul_pd(w00, _mm256_cvtps_pd(c[0])));
			sy = _mm256_add_pd(sy, _mm256_mul_pd(w00, _mm256_cvtps_pd(c[1])));
			sx = _mm256_add_pd(sx, _mm256_mul_pd(w10, _mm256_cvtps_pd(c[2])));
			sy = _mm256_add_pd(sy, _mm256_mul_pd(w10, _mm256_cvtps_pd(c[3])));
			sx = _mm256_add_pd(sx, _mm256_mul_pd(w01, _mm256_cvtps_pd(u[0])));
			sy = _mm256_add_pd(sy, _mm256_mul_pd(w01, _mm256_cvtps_pd(u[1])));
			sx = _mm256_add_pd(sx, _mm256_mul_pd(w11, _mm256_cvtps_pd(u[2])));
			sy = _mm256_add_pd(sy, _mm256_mul_pd(w11, _mm256_cvtps_pd(u[3])));
			const __m256d norm2 = _mm256_add_pd(_mm256_mul_pd(sx, sx), _mm256_mul_pd(sy, sy));
			if (_mm256_movemask_pd(_mm256_cmp_pd(norm2, tiny, _CMP_GT_OQ)) != 15) {
				_mm256_zeroupper();
				goal_directions_plain(goal, 4, x + i, y + i, dx + i, dy + i);
				continue;
			}
			const __m256d scale = _mm256_div_pd(one, _mm256_sqrt_pd(norm2));
			_mm256_storeu_pd(dx + i, _mm256_mul_pd(sx, scale));
			_mm256_storeu_pd(dy + i, _mm256_mul_pd(sy, scale));
		}
	}
	_mm256_zeroupper();
	goal_directions_plain(goal, n - i, x + i, y + i, dx + i, dy + i);
}

/* The kernel's expf against the library's over `samples` arguments: half spread evenly
 * over (-20, 20), half random bit patterns in the same span. Returns the mismatches. */
static AVX2 long expf4_mismatches(long samples)
{
	uint32_t state = 12345u;
	long bad = 0;
	const long even = samples / 2;
	for (long t = 0; t < samples; t += 4) {
		float x[4], e[4];
		for (int q = 0; q < 4; ++q) {
			state = state * 1664525u + 1013904223u;
			x[q] = t < even ? -20.0f + 40.0f * (float)((double)(t + q) / (double)even)
					: -20.0f + 40.0f * (float)(state >> 8) / 16777216.0f;
		}
		_mm_storeu_ps(e, expf4(_mm_loadu_ps(x)));
		for (int q = 0; q < 4; ++q) {
			const float ref = expf(x[q]);
			bad += memcmp(&ref, &e[q], sizeof ref) != 0;
		}
	}
	return bad;
}
#endif

/* ---- choice ---- */

#if RT_HAVE_AVX2_KERNEL
static bool avx2_fma(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#endif

long rt__expf_mismatches(long samples)
{
#if RT_HAVE_AVX2_KERNEL
	if (avx2_fma()) return expf4_mismatches(samples);
#endif
	(void)samples;
	return -1;
}

static int kernel_choice = -1; /* -1 not yet chosen, 0 plain, 1 AVX2 */
static bool plain_forced = false;

void rt__neighbours_force_plain(bool plain)
{
	plain_forced = plain;
}

bool rt__neighbours_simd(void)
{
	if (plain_forced) return false;
	int c = __atomic_load_n(&kernel_choice, __ATOMIC_RELAXED);
	if (c < 0) {
		c = 0;
#if RT_HAVE_AVX2_KERNEL
		if (avx2_fma() && expf4_mismatches(4096) == 0) c = 1;
#endif
		__atomic_store_n(&kernel_choice, c, __ATOMIC_RELAXED);
	}
	return c == 1;
}

double rt__spacing(const rt_nb_batch *b, int first, int count, double ex, double ey, bool simd)
{
#if RT_HAVE_AVX2_KERNEL
	if (simd) return spacing_avx2(b, first, count, ex, ey);
#else
	(void)simd;
#endif
	return spacing_plain(b, first, count, ex, ey);
}

void rt__goal_directions(const rt_goal *goal, int n, const double *x, const double *y, double *dx, double *dy, bool simd)
{
#if RT_HAVE_AVX2_KERNEL
	if (simd) {
		goal_directions_avx2(goal, n, x, y, dx, dy);
		return;
	}
#else
	(void)simd;
#endif
	goal_directions_plain(goal, n, x, y, dx, dy);
}

int rt__neighbours(const rt_grid *g, const rt_nb_params *p, rt_nb_batch *b, int from, bool simd)
{
#if RT_HAVE_AVX2_KERNEL
	if (simd && !p->periodic) return neighbours_avx2(g, p, b, from);
#else
	(void)simd;
#endif
	return neighbours_plain(g, p, b, from);
}
