/* bench_proper — PROPER pipeline per call, for each case study: synthesis
 * (parse + build the pDTMC from source text), estimation (parameters and
 * intervals from a 10^4-run log) and the property interval (exact extremes
 * over the box by policy iteration). Baseline measured in the same run: the
 * property interval by brute force over a grid of 5 points per parameter
 * (5^m model solves), which is what a naive global search would do; the
 * paper's own tool needed about 7 s per interval. */
#define PROPER_IMPLEMENTATION
#include "../src/estimate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../examples/proper/cases.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
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
    if (proper_read_file("examples/proper/cases.c", &text, &len, &err)) { fprintf(stderr, "run from the project root\n"); return 1; }
    proper_rng_seed(&rng, 7);
    printf("PROPER pipeline, microseconds per call (10^4-run logs)\n");
    printf("%-13s %6s %9s %9s %9s %11s %9s %12s\n", "case", "params", "synth", "estimate", "interval", "grid 5^m",
           "grid/ours", "paper 7s/ours");
    for (i = 0; i < n_case_studies; i++) {
        const case_study *c = &case_studies[i];
        proper_counts log;
        proper_synth_model m;
        proper_estimate est;
        double t0, t_synth, t_est, t_int, t_grid, point, lo, hi, gmin, gmax;
        int reps = 200, r;
        if (case_make_log(c, &rng, 10000, &log)) return 1;
        t0 = now_s();
        for (r = 0; r < reps; r++) {
            proper_synth_parse(&m, text, len, "cases.c", c->name, &err);
            if (r + 1 < reps) proper_synth_free(&m);
        }
        t_synth = (now_s() - t0) / reps;
        t0 = now_s();
        for (r = 0; r < reps; r++) {
            proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_CI_NORMAL, &err);
            if (r + 1 < reps) proper_estimate_free(&est);
        }
        t_est = (now_s() - t0) / reps;
        t0 = now_s();
        for (r = 0; r < reps; r++) proper_estimate_property(&m, 0, &est, &point, &lo, &hi, &err);
        t_int = (now_s() - t0) / reps;
        t0 = now_s();
        grid_range(&m, &est, &gmin, &gmax);
        t_grid = now_s() - t0;
        printf("%-13s %6u %9.1f %9.1f %9.1f %11.1f %9.0fx %12.0fx\n", c->name, (unsigned)m.n_params, 1e6 * t_synth,
               1e6 * t_est, 1e6 * t_int, 1e6 * t_grid, t_grid / t_int, 7.0 / t_int);
        if (gmin < lo - 1e-9 * fabs(lo) || gmax > hi + 1e-9 * fabs(hi))
            printf("  !! grid found a value outside the exact interval\n");
        proper_estimate_free(&est);
        proper_synth_free(&m);
        proper_counts_free(&log);
    }
    free(text);
    return 0;
}
