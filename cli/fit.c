/* `rout fit`: calibration (DESIGN.md, "Scale beyond one run"). The declared free
 * parameters of a scenario (its `parameters:` block, each with its range), or those named
 * with --fit, are moved within their ranges to bring the medians of the history figures
 * over a fixed set of seeds as near the record as they go. Each evaluation is an ensemble,
 * exactly `rout run --set key=value ... --runs N`, in a folder of its own; fit.md and
 * fit.json, rewritten whole after each, set every evaluation's values, its miss and its
 * medians beside the record, and name the best point as --set options.
 *
 * The miss of a figure whose median is m and whose record is the band [a, b] (a = b for a
 * single value) is d = 0 inside it, else |ln((m + 1) / (e + 1))| with e the nearer end:
 * by what factor it is off (the log of the accuracy ratio: Tofallis 2015, "A better
 * measure of relative prediction accuracy", J. Oper. Res. Soc. 66:1352), so that ten
 * times too many and ten times too few miss alike, where a share of the record (|m - e| /
 * e) can never miss by more than 1 below and misses without end above, and a fit by it
 * prefers a figure of 0 to one five times the record. The fit lowers
 *
 *     L = sum over the figures of (d / s_grade)^2,   s_A = 0.1, s_B = 0.3, s_E = 1,
 *
 * so a figure of a primary record (A) pulls as a hundred estimates (E) do: s is how far
 * off a figure of that grade may be and still be the record (E, docs/scenario-format.md, "Calibration").
 *
 * The search is a compass search (a generalized pattern search: Kolda, Lewis & Torczon
 * 2003, "Optimization by direct search", SIAM Review 45:385) on a grid of --steps steps
 * of each range, starting from the scenario as set: from the best point so far it tries
 * each parameter a step up and a step down (the last direction that helped first), moves
 * to the first that lowers L, and halves the step when none does; it has converged when
 * no point one grid step away is better. A median over finite seeds is a step function of
 * the parameters, flat in places and jumping in others, where gradient and simplex methods
 * stall on the flats; a pattern on a grid never asks for a point nearer than a grid step,
 * and every seed is the same at every point (common random numbers), so a difference
 * between points is the values' and not the draws'. */
#include "rout/scenario.h"
#include "args.h"
#include "cluster.h"
#include "ensemble.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rout_fit(int argc, char **argv);

#define MAX_FIT 32
#define MAX_EVALS 10000

typedef struct fit_param {
	char key[RT_SCENARIO_TEXT_SIZE];
	double low, high, as_set, grid;  /* grid: one step of the search's grid */
	bool whole;                      /* the scenario takes whole numbers only */
} fit_param;

typedef struct fit_eval {
	double x[MAX_FIT];
	char sets[MAX_FIT][RT_SCENARIO_TEXT_SIZE + 40];
	double *values;                  /* runs x figures, the finished runs in seed order */
	long *seeds;
	int done;
	double loss;                     /* INFINITY when no run finished */
} fit_eval;

typedef struct fit_state {
	const rt_scenario *sc;
	run_options o;
	fit_param p[MAX_FIT];
	int n, figures;
	fit_eval *evals;
	int count, best;
	long max_evals;
	const char *ended;               /* "converged", "out of evaluations", "stopped" */
} fit_state;

static double grade_scale(const char *grade)
{
	if (strcmp(grade, "A") == 0) return 0.1;
	if (strcmp(grade, "B") == 0) return 0.3;
	return 1.0;
}

/* Median of figure h over an evaluation's finished runs (NaN: none). */
static double median_of(const fit_state *s, const fit_eval *e, int h, double *lo, double *hi)
{
	double *work = malloc((size_t)(e->done > 0 ? e->done : 1) * sizeof *work);
	int n = 0;
	for (int r = 0; work && r < e->done; ++r) {
		const double v = e->values[(size_t)r * (size_t)s->figures + h];
		if (isfinite(v)) work[n++] = v;
	}
	if (!work) return NAN;
	qsort(work, (size_t)n, sizeof *work, compare_doubles);
	const double m = quantile(work, n, 0.5);
	if (lo) *lo = quantile(work, n, 0.05);
	if (hi) *hi = quantile(work, n, 0.95);
	free(work);
	return m;
}

/* The figure's miss d (0 inside the record; the log of the factor it is off by), 1 when no
 * run gave it. */
static double miss(const rt_history_figure *hv, double m)
{
	if (!isfinite(m)) return 1.0;
	if (m >= hv->recorded_low && m <= hv->recorded_high) return 0.0;
	const double e = m < hv->recorded_low ? hv->recorded_low : hv->recorded_high;
	return fabs(log((fmax(m, 0.0) + 1.0) / (fmax(e, 0.0) + 1.0)));
}

static double loss_of(const fit_state *s, const fit_eval *e)
{
	if (e->done == 0) return INFINITY;
	double L = 0.0;
	for (int h = 0; h < s->figures; ++h) {
		rt_history_figure hv;
		rt_scenario_get_history(s->sc, h, &hv);
		const double d = miss(&hv, median_of(s, e, h, NULL, NULL)) / grade_scale(hv.grade);
		L += d * d;
	}
	return L;
}

static void format_value(const fit_param *p, double x, char *buf, size_t size)
{
	if (p->whole) snprintf(buf, size, "%.0f", x);
	else snprintf(buf, size, "%.6g", x);
}

/* The point's values as the scenario takes them: within the range, whole where it must be. */
static void settle(const fit_state *s, double *x)
{
	for (int i = 0; i < s->n; ++i) {
		x[i] = fmin(fmax(x[i], s->p[i].low), s->p[i].high);
		if (s->p[i].whole) x[i] = round(x[i]);
		char v[64];
		format_value(&s->p[i], x[i], v, sizeof v);
		x[i] = atof(v); /* the value as written in --set, so that equal points compare equal */
	}
}

static bool same_point(const fit_state *s, const double *a, const double *b)
{
	for (int i = 0; i < s->n; ++i)
		if (a[i] != b[i]) return false;
	return true;
}

static int write_table(const fit_state *s);

/* Rank 0 writes (cluster.h); every rank gets the job's exit code. */
static int write_fit(const fit_state *s)
{
	return cluster_code(cluster_lead() ? write_table(s) : 0);
}

static int write_table(const fit_state *s)
{
	rt_scenario_info info;
	rt_scenario_get_info(s->sc, &info);
	const run_options *o = &s->o;
	char tmp[1300];
	FILE *f = open_table(o, "fit", "rout fit", tmp, sizeof tmp);
	if (!f) return 1;
	const fit_eval *b = s->best >= 0 ? &s->evals[s->best] : NULL;
	fprintf(f, "# %s — fit: %d evaluations of %ld runs each (seeds %ld to %ld)%s%s\n\n", info.title[0] ? info.title : info.name,
		s->count, o->runs, o->seed, o->seed + o->runs - 1, s->ended ? ", " : ", under way", s->ended ? s->ended : "");
	fprintf(f, "The free parameters below are moved within their declared ranges to bring the median of each history figure "
		   "over the same seeds as near the record as they go (docs/scenario-format.md, Calibration). A figure's miss d is 0 inside the record and "
		   "otherwise |ln((m + 1) / (e + 1))|, m the median and e the record's nearer end (by what factor it is off); the fit "
		   "lowers L = sum of (d / s)^2, s = 0.1 for a figure of grade A, 0.3 for B, 1 for E. Evaluation 1 is the scenario as set%s%s. Each "
		   "evaluation's runs and ensemble table are in its folder.\n\n",
		o->set_count ? " (with the fit's own --set values)" : "", o->until ? "; the runs end at --until" : "");
	if (o->runs % 2 == 0)
		fprintf(f, "With %ld runs, an even number, each median is the mean of the middle two: where a figure goes all or nothing "
			   "from seed to seed, a value no run had. Give --runs an odd number.\n\n", o->runs);
	if (b) {
		fprintf(f, "**Best: evaluation %d, L = %.4g** (as set: %.4g). To run it:\n\n    rout run %s", s->best + 1, b->loss,
			s->evals[0].loss, o->scenario_path);
		for (int i = 0; i < s->n; ++i) fprintf(f, " --set %s", b->sets[i]);
		fprintf(f, "\n\n| figure | recorded | grade | as set: median | best: median | best: 90 %% interval | miss d |\n"
			   "|---|---|---|---|---|---|---|\n");
		for (int h = 0; h < s->figures; ++h) {
			rt_history_figure hv;
			rt_scenario_get_history(s->sc, h, &hv);
			double lo = NAN, hi = NAN;
			const double m0 = median_of(s, &s->evals[0], h, NULL, NULL);
			const double m = median_of(s, b, h, &lo, &hi);
			char rec[64];
			if (hv.recorded_low == hv.recorded_high) snprintf(rec, sizeof rec, "%.0f", hv.recorded_low);
			else snprintf(rec, sizeof rec, "%.0f–%.0f", hv.recorded_low, hv.recorded_high);
			const double d = miss(&hv, m);
			char dm[32];
			if (d == 0.0) snprintf(dm, sizeof dm, "0 (inside)");
			else snprintf(dm, sizeof dm, "%.3g", d);
			fprintf(f, "| %s | %s | %s | %.0f | %.0f | %.0f – %.0f | %s |\n", hv.figure, rec, hv.grade, m0, m, lo, hi, dm);
		}
	}
	fprintf(f, "\n## Parameters\n\n| key | range | grid step | as set | best |\n|---|---|---|---|---|\n");
	for (int i = 0; i < s->n; ++i) {
		char a[64], g[64], v[64];
		format_value(&s->p[i], s->p[i].as_set, a, sizeof a);
		snprintf(g, sizeof g, "%.6g", s->p[i].grid);
		if (b) format_value(&s->p[i], b->x[i], v, sizeof v);
		fprintf(f, "| `%s` | %.6g – %.6g | %s%s | %s | %s |\n", s->p[i].key, s->p[i].low, s->p[i].high, g,
			s->p[i].whole ? " (whole numbers)" : "", a, b ? v : "—");
	}
	fprintf(f, "\n## Evaluations\n\n| # | runs | L |");
	for (int i = 0; i < s->n; ++i) fprintf(f, " `%s` |", s->p[i].key);
	for (int h = 0; h < s->figures; ++h) {
		rt_history_figure hv;
		rt_scenario_get_history(s->sc, h, &hv);
		fprintf(f, " %s |", hv.figure);
	}
	fprintf(f, "\n|---|---|---|");
	for (int i = 0; i < s->n + s->figures; ++i) fprintf(f, "---|");
	fprintf(f, "\n");
	json_t *root = json_object(), *evs = json_array(), *pars = json_array(), *figs = json_array();
	for (int e = 0; e < s->count; ++e) {
		const fit_eval *ev = &s->evals[e];
		if (isfinite(ev->loss)) fprintf(f, "| %s%d%s | %d | %.4g |", e == s->best ? "**" : "", e + 1, e == s->best ? "**" : "", ev->done, ev->loss);
		else fprintf(f, "| %d | %d | — |", e + 1, ev->done);
		json_t *ej = json_object(), *vals = json_object(), *fj = json_array();
		for (int i = 0; i < s->n; ++i) {
			char v[64];
			format_value(&s->p[i], ev->x[i], v, sizeof v);
			fprintf(f, " %s |", v);
			json_object_set_new(vals, s->p[i].key, json_real(ev->x[i]));
		}
		for (int h = 0; h < s->figures; ++h) {
			rt_history_figure hv;
			rt_scenario_get_history(s->sc, h, &hv);
			double lo = NAN, hi = NAN;
			const double m = median_of(s, ev, h, &lo, &hi);
			if (isfinite(m)) fprintf(f, " %.0f |", m);
			else fprintf(f, " — |");
			json_t *x = json_object();
			json_object_set_new(x, "figure", json_string(hv.figure));
			json_object_set_new(x, "median", isfinite(m) ? json_real(m) : json_null());
			json_object_set_new(x, "p05", isfinite(lo) ? json_real(lo) : json_null());
			json_object_set_new(x, "p95", isfinite(hi) ? json_real(hi) : json_null());
			json_object_set_new(x, "miss", json_real(miss(&hv, m)));
			json_array_append_new(fj, x);
		}
		fprintf(f, "\n");
		char folder[32];
		snprintf(folder, sizeof folder, "eval-%d", e + 1);
		json_object_set_new(ej, "folder", json_string(folder));
		json_object_set_new(ej, "runs", json_integer(ev->done));
		json_object_set_new(ej, "loss", isfinite(ev->loss) ? json_real(ev->loss) : json_null());
		json_object_set_new(ej, "values", vals);
		json_object_set_new(ej, "figures", fj);
		json_array_append_new(evs, ej);
	}
	for (int i = 0; i < s->n; ++i) {
		json_t *pj = json_object();
		json_object_set_new(pj, "key", json_string(s->p[i].key));
		json_object_set_new(pj, "low", json_real(s->p[i].low));
		json_object_set_new(pj, "high", json_real(s->p[i].high));
		json_object_set_new(pj, "grid", json_real(s->p[i].grid));
		json_object_set_new(pj, "whole", json_boolean(s->p[i].whole));
		json_object_set_new(pj, "as_set", json_real(s->p[i].as_set));
		json_object_set_new(pj, "best", b ? json_real(b->x[i]) : json_null());
		json_array_append_new(pars, pj);
	}
	for (int h = 0; h < s->figures; ++h) {
		rt_history_figure hv;
		rt_scenario_get_history(s->sc, h, &hv);
		json_t *x = json_object();
		json_object_set_new(x, "figure", json_string(hv.figure));
		json_object_set_new(x, "recorded_low", json_real(hv.recorded_low));
		json_object_set_new(x, "recorded_high", json_real(hv.recorded_high));
		json_object_set_new(x, "grade", json_string(hv.grade));
		json_object_set_new(x, "scale", json_real(grade_scale(hv.grade)));
		json_array_append_new(figs, x);
	}
	json_object_set_new(root, "scenario", json_string(info.name));
	json_object_set_new(root, "first_seed", json_integer(o->seed));
	json_object_set_new(root, "runs", json_integer(o->runs));
	json_object_set_new(root, "ended", s->ended ? json_string(s->ended) : json_null());
	json_object_set_new(root, "best", s->best >= 0 ? json_integer(s->best + 1) : json_null());
	json_object_set_new(root, "parameters", pars);
	json_object_set_new(root, "figures", figs);
	json_object_set_new(root, "evaluations", evs);
	run_options quiet = *o;
	quiet.quiet = true;
	return finish_table(f, tmp, root, &quiet, "fit", "rout fit");
}

/* Evaluates the point x (settled): an earlier evaluation of it, or a new one. Returns its
 * index, or -1 with *rc set (a failure, or 3 when stopped before it ended). */
static int evaluate(fit_state *s, const double *x, int *rc)
{
	for (int e = 0; e < s->count; ++e)
		if (same_point(s, s->evals[e].x, x)) return e;
	if (s->count >= s->max_evals || cluster_any(stop_requested)) return -1;
	fit_eval *ev = &s->evals[s->count];
	memset(ev, 0, sizeof *ev);
	const char *sets[MAX_FIT];
	for (int i = 0; i < s->n; ++i) {
		ev->x[i] = x[i];
		char v[64];
		format_value(&s->p[i], x[i], v, sizeof v);
		snprintf(ev->sets[i], sizeof ev->sets[i], "%s=%s", s->p[i].key, v);
		sets[i] = ev->sets[i];
	}
	ev->values = calloc((size_t)s->o.runs * (size_t)(s->figures + 1), sizeof *ev->values);
	ev->seeds = calloc((size_t)s->o.runs, sizeof *ev->seeds);
	if (!ev->values || !ev->seeds) {
		free(ev->values);
		free(ev->seeds);
		fprintf(stderr, "rout fit: out of memory for %ld runs\n", s->o.runs);
		*rc = 1;
		return -1;
	}
	const int index = s->count++;
	ev->loss = INFINITY; /* until its runs are in */
	rt_scenario *psc;
	if ((*rc = load(&s->o, sets, s->n, true, "fit", &psc)) != 0) return -1;
	char dir[1300];
	snprintf(dir, sizeof dir, "%s/eval-%d", s->o.out, index + 1);
	run_options po = s->o;
	po.out = dir;
	po.quiet = true;
	*rc = ensemble(psc, &po, ev->values, ev->seeds, &ev->done);
	rt_scenario_destroy(psc);
	ev->loss = *rc == 0 ? loss_of(s, ev) : INFINITY;
	if (*rc == 0 && (s->best < 0 || ev->loss < s->evals[s->best].loss)) s->best = index;
	if (!s->o.quiet) {
		fprintf(stderr, "rout fit: evaluation %d:", index + 1);
		for (int i = 0; i < s->n; ++i) fprintf(stderr, " %s", ev->sets[i]);
		fprintf(stderr, " -> L = %.4g (best %.4g)\n", ev->loss, s->evals[s->best >= 0 ? s->best : index].loss);
	}
	const int wrc = write_fit(s);
	if (*rc == 0) *rc = wrc;
	return *rc == 0 ? index : -1;
}

/* The compass search from the scenario as set (see the top of the file). */
static int search(fit_state *s, long steps)
{
	int rc = 0;
	double centre[MAX_FIT];
	for (int i = 0; i < s->n; ++i) centre[i] = s->p[i].as_set;
	int c = evaluate(s, centre, &rc);
	if (c < 0) return rc;
	long delta = steps / 4 > 0 ? steps / 4 : 1;
	int last_dir = -1;  /* 2 i for up, 2 i + 1 for down: the direction that last helped */
	while (delta > 0) {
		bool moved = false;
		for (int t = -1; t < 2 * s->n && !moved; ++t) {
			const int dir = t < 0 ? last_dir : t;
			if (dir < 0 || (t >= 0 && dir == last_dir)) continue;
			const int i = dir / 2;
			double x[MAX_FIT];
			memcpy(x, s->evals[c].x, sizeof x);
			x[i] += (dir % 2 == 0 ? 1.0 : -1.0) * (double)delta * s->p[i].grid;
			settle(s, x);
			if (same_point(s, x, s->evals[c].x)) continue;
			const int e = evaluate(s, x, &rc);
			if (e < 0) {
				if (rc != 0) return rc;
				s->ended = s->count >= s->max_evals ? "out of evaluations" : "stopped";
				return write_fit(s);
			}
			if (s->evals[e].loss < s->evals[c].loss) {
				c = e;
				last_dir = dir;
				moved = true;
			}
		}
		if (!moved) delta /= 2;
	}
	s->ended = "converged";
	return write_fit(s);
}

/* Whether the scenario takes a fraction at key (a count of men, for one, does not). */
static bool takes_fraction(const run_options *o, const fit_param *p)
{
	char set[RT_SCENARIO_TEXT_SIZE + 40];
	double x = p->low + 0.37 * (p->high - p->low);
	if (x == floor(x)) x += 0.25 * fmin(1.0, p->high - p->low);
	snprintf(set, sizeof set, "%s=%.9g", p->key, x);
	const char *sets[MAX_SETS + 1];
	int n = 0;
	for (int i = 0; i < o->set_count; ++i) sets[n++] = o->sets[i];
	sets[n++] = set;
	rt_scenario_def def = rt_scenario_def_default();
	def.sets = sets;
	def.set_count = n;
	def.load_map = false;
	rt_scenario *sc = NULL;
	rt_error err;
	if (rt_scenario_load(o->scenario_path, &def, &sc, &err) != RT_OK) return false;
	rt_scenario_destroy(sc);
	return true;
}

int rout_fit(int argc, char **argv)
{
	fit_state *s = calloc(1, sizeof *s);
	char **rest = calloc((size_t)argc + 1, sizeof *rest);
	const char *keys[MAX_FIT];
	int key_count = 0, nrest = 0, rc = 0;
	if (!s || !rest) {
		free(s);
		free(rest);
		return 1;
	}
	s->best = -1;
	run_options *o = &s->o;
	o->seed = 1;
	o->runs = 11; /* odd: a median of an even number is the mean of the middle two */
	o->jobs = 1;
	long steps = 20;
	s->max_evals = 30;
	for (int i = 0; i < argc && !rc; ++i) {
		if (arg_long(argc, argv, &i, "--evals", &s->max_evals, 1, MAX_EVALS)) continue;
		if (arg_long(argc, argv, &i, "--steps", &steps, 2, 1000000)) continue;
		const char *key = NULL;
		if (arg_string(argc, argv, &i, "--fit", &key)) {
			if (key_count == MAX_FIT) {
				fprintf(stderr, "rout fit: more than %d --fit keys\n", MAX_FIT);
				rc = 2;
			} else keys[key_count++] = key;
			continue;
		}
		if (arg_error) rc = 2;
		else rest[nrest++] = argv[i];
	}
	if (!rc) rc = parse_options(nrest, rest, o, "fit");
	free(rest);
	if (!rc && (o->resume || o->checkpoint || o->checkpoint_every_s > 0.0)) {
		fprintf(stderr, "rout fit: --resume, --checkpoint and --checkpoint-every are for `rout run`\n");
		rc = 2;
	}
	rt_scenario *sc = NULL;
	char buf[1100];
	if (!rc) {
		o->no_pictures = true;
		o->scenario_path = scenario_file(o->scenario_path, buf, sizeof buf);
		rc = load(o, NULL, 0, true, "fit", &sc);
	}
	rt_scenario_info info;
	if (!rc) {
		rt_scenario_get_info(sc, &info);
		s->sc = sc;
		s->figures = info.history_count;
		double until_s;
		if (o->until && !until_seconds(sc, o->until, &until_s)) {
			until_error("fit", o->until);
			rc = 2;
		} else if (s->figures == 0) {
			fprintf(stderr, "rout fit: %s has no history figures to fit to (history:)\n", o->scenario_path);
			rc = 2;
		}
	}
	/* the parameters: those named with --fit (each declared), else every one declared */
	for (int k = 0; !rc && k < (key_count ? key_count : info.parameter_count); ++k) {
		rt_scenario_parameter par;
		int j = key_count ? 0 : k;
		if (key_count) {
			while (j < info.parameter_count && rt_scenario_get_parameter(sc, j, &par) && strcmp(par.key, keys[k]) != 0) j++;
			if (j == info.parameter_count) {
				fprintf(stderr, "rout fit: --fit %s: not a declared free parameter of %s (the fit moves a value only within the "
						"range its `parameters:` entry gives)\n", keys[k], o->scenario_path);
				rc = 2;
				break;
			}
			for (int i = 0; i < s->n; ++i)
				if (strcmp(s->p[i].key, keys[k]) == 0) {
					fprintf(stderr, "rout fit: --fit %s given twice\n", keys[k]);
					rc = 2;
				}
			if (rc) break;
		}
		rt_scenario_get_parameter(sc, j, &par);
		if (par.high == par.low) continue; /* nothing to move */
		if (s->n == MAX_FIT) {
			fprintf(stderr, "rout fit: more than %d parameters to fit; name those to fit with --fit\n", MAX_FIT);
			rc = 2;
			break;
		}
		fit_param *p = &s->p[s->n++];
		snprintf(p->key, sizeof p->key, "%s", par.key);
		p->low = par.low;
		p->high = par.high;
		p->as_set = par.value;
		p->grid = (par.high - par.low) / (double)steps;
		p->whole = !takes_fraction(o, p);
		if (p->whole) p->grid = fmax(1.0, round(p->grid));
	}
	if (!rc && s->n == 0) {
		fprintf(stderr, "rout fit: nothing to fit: %s declares no free parameter with a range (parameters:)\n", o->scenario_path);
		rc = 2;
	}
	char out_default[300];
	if (!rc && !o->out) {
		snprintf(out_default, sizeof out_default, "out/%s-fit", info.name);
		o->out = out_default;
	}
	if (!rc && make_dirs(o->out) != 0) {
		fprintf(stderr, "rout fit: cannot create the folder %s: %s\n", o->out, strerror(errno));
		rc = 1;
	}
	if (!rc) {
		s->evals = calloc((size_t)s->max_evals, sizeof *s->evals);
		if (!s->evals) rc = 1;
	}
	if (!rc) {
		catch_stop_signals();
		if (!o->quiet)
			fprintf(stderr, "rout fit: %d parameters on a grid of %ld steps, at most %ld evaluations of %ld runs (seeds %ld to %ld)%s\n", s->n,
				steps, s->max_evals, o->runs, o->seed, o->seed + o->runs - 1, cluster_size() > 1 ? ", shared among the ranks" : "");
		if (!o->quiet && o->runs % 2 == 0)
			fprintf(stderr, "rout fit: with %ld runs each median is the mean of the middle two; an odd number is better (fit.md says why)\n", o->runs);
		rc = search(s, steps);
		if (rc == 3 || (rc == 0 && s->ended && strcmp(s->ended, "stopped") == 0)) {
			s->ended = "stopped";
			if (s->count > 0) write_fit(s);
			rc = 3;
		}
		if (!o->quiet && s->best >= 0)
			fprintf(stderr, "rout fit: %s after %d evaluations; best L = %.4g (as set %.4g): %s/fit.md\n", s->ended ? s->ended : "ended",
				s->count, s->evals[s->best].loss, s->evals[0].loss, o->out);
	}
	for (int e = 0; s->evals && e < s->count; ++e) {
		free(s->evals[e].values);
		free(s->evals[e].seeds);
	}
	free(s->evals);
	if (sc) rt_scenario_destroy(sc);
	free(s);
	return rc;
}
