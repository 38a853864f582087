/* bench_annotated — PROPER pipeline per call, for each case study: synthesis
 * (parse + build the pDTMC from source text), estimation (parameters and
 * intervals from a 10^4-run log) and the property interval over the box of
 * mean counts (the default: a linear form in the means) and over the box of
 * probabilities (exact extremes by policy iteration). Baseline measured in
 * the same run: the box of probabilities by brute force over a grid of 5
 * points per parameter (5^m model solves), which is what a naive global
 * search would do; the paper's own tool needed about 7 s per interval. */
#include "bench.h"

#define PROPER_IMPLEMENTATION
#include "../src/estimate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../examples/annotated/cases.h"

/* One case study's inputs and outputs. */
typedef struct case_ctx {
    const char *text, *name;
    size_t len;
    proper_estimate_counts log;
    proper_synth_model m;
    proper_estimate est;
    double point, lo, hi, plo, phi;
} case_ctx;

static void do_synth(void *p) {
    case_ctx *c = (case_ctx *)p;
    proper_error err;
    if (proper_synth_parse(&c->m, c->text, c->len, "cases.c", c->name, &err)) abort();
}

static void do_estimate(void *p) {
    case_ctx *c = (case_ctx *)p;
    proper_error err;
    if (proper_estimate_from_counts(&c->est, &c->m, &c->log, 0.95, PROPER_ESTIMATE_NORMAL, &err)) abort();
}

static void do_interval(void *p) {
    case_ctx *c = (case_ctx *)p;
    proper_error err;
    c->est.box = PROPER_ESTIMATE_BOX_MEANS;
    if (proper_estimate_property(&c->m, 0, &c->est, &c->point, &c->lo, &c->hi, &err)) abort();
    bench_keep(c->hi);
}

static void do_interval_probabilities(void *p) {
    case_ctx *c = (case_ctx *)p;
    proper_error err;
    c->est.box = PROPER_ESTIMATE_BOX_PROBABILITIES;
    if (proper_estimate_property(&c->m, 0, &c->est, &c->point, &c->plo, &c->phi, &err)) abort();
    bench_keep(c->phi);
}

/* Grid search of the box: every combination of 5 points per parameter. */
static void grid_range(const proper_synth_model *m, const proper_estimate *est, double *mn, double *mx) {
    double p[CASE_MAX_PARAMS], v;
    size_t total = 1, i, k;
    proper_error err;
    for (i = 0; i < m->n_params; i++) total *= 5;
    *mn = INFINITY; *mx = -INFINITY;
    for (k = 0; k < total; k++) {
        size_t code = k;
        for (i = 0; i < m->n_params; i++, code /= 5) p[i] = est->lo[i] + (est->hi[i] - est->lo[i]) * (double)(code % 5) / 4;
        proper_synth_expected_reward(m, 0, p, &v, &err);
        if (v < *mn) *mn = v;
        if (v > *mx) *mx = v;
    }
}

int main(void) {
    char *text;
    size_t len;
    proper_error err;
    proper_rng rng;
    int i;
    if (proper_read_file("examples/annotated/cases.c", &text, &len, &err)) { fprintf(stderr, "run from the project root\n"); return 1; }
    proper_rng_seed(&rng, 7);
    printf("PROPER pipeline, microseconds per call (best of 5, CPU time; 10^4-run logs)\n");
    printf("%-13s %6s %9s %9s %9s %9s %11s %9s %12s\n", "case", "params", "synth", "estimate", "means", "probs",
           "grid 5^m", "grid/probs", "paper 7s/means");
    for (i = 0; i < n_case_studies; i++) {
        case_ctx c;
        bench_result synth, est, interval, interval_p;
        double t0, t_grid, gmin, gmax;
        memset(&c, 0, sizeof c);
        c.text = text;
        c.len = len;
        c.name = case_studies[i].name;
        proper_synth_init(&c.m);
        proper_estimate_init(&c.est);
        if (case_make_log(&case_studies[i], &rng, 10000, &c.log)) return 1;
        synth = bench_run(do_synth, &c, BENCH_CPU, 5, 0.02);
        est = bench_run(do_estimate, &c, BENCH_CPU, 5, 0.02);
        interval = bench_run(do_interval, &c, BENCH_CPU, 5, 0.02);
        interval_p = bench_run(do_interval_probabilities, &c, BENCH_CPU, 5, 0.02);
        t0 = bench_now(BENCH_CPU);
        grid_range(&c.m, &c.est, &gmin, &gmax);
        t_grid = bench_now(BENCH_CPU) - t0;
        printf("%-13s %6u %9.1f %9.1f %9.1f %9.1f %11.1f %9.0fx %12.0fx\n", c.name, (unsigned)c.m.n_params,
               1e6 * synth.best, 1e6 * est.best, 1e6 * interval.best, 1e6 * interval_p.best, 1e6 * t_grid,
               t_grid / interval_p.best, 7.0 / interval.best);
        if (gmin < c.plo - 1e-9 * fabs(c.plo) || gmax > c.phi + 1e-9 * fabs(c.phi))
            printf("  !! grid found a value outside the exact interval\n");
        proper_estimate_free(&c.est);
        proper_synth_free(&c.m);
        proper_estimate_counts_free(&c.log);
    }
    free(text);
    return 0;
}
