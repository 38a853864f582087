/* inputs.c — input generators of the case studies: every input is drawn
 * uniformly from the ranges stated in each `input` string. */
#include <stdio.h>
#include <string.h>

#include "../../src/estimate.h"
#include "cases.h"

static int uniform(proper_rng *rng, int lo, int hi) { return lo + (int)proper_rng_below(rng, (uint64_t)(hi - lo + 1)); }

static void run_distance1(proper_rng *rng) {
    char s[8], t[8];
    int row[9], n = uniform(rng, 0, 8), m = uniform(rng, 0, 8), i;
    for (i = 0; i < n; i++) s[i] = (char)('a' + uniform(rng, 0, 2));
    for (i = 0; i < m; i++) t[i] = (char)('a' + uniform(rng, 0, 2));
    distance1(s, n, t, m, row);
}

static void run_devPerf(proper_rng *rng) {
    struct device d;
    int i;
    d.android = uniform(rng, 16, 34);
    d.cpu_count = uniform(rng, 1, 8);
    d.memory_class = uniform(rng, 64, 512);
    for (i = 0; i < 8; i++) {
        d.freq_readable[i] = uniform(rng, 1, 10) <= 9;
        d.freq_mhz[i] = uniform(rng, 800, 3000);
    }
    devPerf(&d);
}

static void run_fst(proper_rng *rng) {
    int a[20], n = uniform(rng, 0, 20), i;
    for (i = 0; i < n; i++) a[i] = uniform(rng, 0, 9);
    fst(a, n, uniform(rng, 0, 9));
}

static void run_knapsackDP(proper_rng *rng) {
    int w[6], v[6], best[21], n = uniform(rng, 1, 6), i;
    for (i = 0; i < n; i++) { w[i] = uniform(rng, 1, 10); v[i] = uniform(rng, 1, 20); }
    knapsackDP(w, v, n, uniform(rng, 0, 20), best);
}

static void run_minPathSum(proper_rng *rng) {
    int g[100], m = uniform(rng, 0, 10), n = uniform(rng, 0, 10), i;
    for (i = 0; i < m * n; i++) g[i] = uniform(rng, 0, 9);
    minPathSum(g, m, n);
}

static void run_binarySearch(proper_rng *rng) {
    int a[64], n = uniform(rng, 1, 64), i, x;
    for (i = 0; i < n; i++) a[i] = 2 * i;
    /* a hit (an even value in range) or a miss (odd, possibly out of range), equally likely */
    x = uniform(rng, 0, 1) ? 2 * uniform(rng, 0, n - 1) : 2 * uniform(rng, -1, n) + 1;
    binarySearch(a, n, x);
}

const case_study case_studies[] = {
    {"distance1", 6, "strings of length U{0..8} over {a,b,c}", run_distance1},
    {"devPerf", 4, "android U{16..34}, cpus U{1..8}, memory class U{64..512}, each cpu frequency "
                   "readable w.p. 0.9 with U{800..3000} MHz", run_devPerf},
    {"fst", 2, "array length U{0..20}, values and key U{0..9}", run_fst},
    {"knapsackDP", 4, "n U{1..6}, weights U{1..10}, values U{1..20}, capacity U{0..20}", run_knapsackDP},
    {"minPathSum", 5, "m, n U{0..10}, cells U{0..9}", run_minPathSum},
    {"binarySearch", 3, "n U{1..64} sorted evens; key a hit or a miss w.p. 1/2 each", run_binarySearch},
};
const int n_case_studies = (int)(sizeof case_studies / sizeof case_studies[0]);

const case_study *case_find(const char *name) {
    int i;
    for (i = 0; i < n_case_studies; i++)
        if (strcmp(case_studies[i].name, name) == 0) return &case_studies[i];
    return NULL;
}

void case_run(const case_study *c, proper_rng *rng, long *counts) {
    memset(case_counts, 0, sizeof case_counts);
    c->run_once(rng);
    memcpy(counts, case_counts, sizeof case_counts);
}

int case_make_log(const case_study *c, proper_rng *rng, long runs, proper_estimate_counts *log) {
    long r, counts[CASE_MAX_PARAMS + 1];
    int k;
    memset(log, 0, sizeof *log);
    log->n_runs = (size_t)runs;
    log->n_cols = (size_t)c->n_params;
    log->names = (char (*)[PROPER_ESTIMATE_NAME_MAX + 1])proper_calloc((size_t)c->n_params, sizeof *log->names);
    log->values = (double *)proper_calloc((size_t)runs * (size_t)c->n_params, sizeof *log->values);
    log->lines = (int *)proper_calloc((size_t)runs, sizeof *log->lines);
    if (!log->names || !log->values || !log->lines) {
        PROPER_FREE(log->names); PROPER_FREE(log->values); PROPER_FREE(log->lines);
        memset(log, 0, sizeof *log);
        return PROPER_ENOMEM;
    }
    for (k = 0; k < c->n_params; k++) snprintf(log->names[k], sizeof log->names[k], "p%d", k + 1);
    for (r = 0; r < runs; r++) {
        case_run(c, rng, counts);
        for (k = 0; k < c->n_params; k++) log->values[(size_t)r * log->n_cols + (size_t)k] = (double)counts[k + 1];
        log->lines[r] = (int)r + 2; /* as if a CSV with a header row */
    }
    return PROPER_OK;
}
