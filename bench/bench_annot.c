/* bench_annot.c — costs of annot.h, next to baselines measured in the same
 * run (bench/bench.h: best and median of repetitions).
 *
 * 1. The recorder: one scope (begin, one feature, end) per call, reservoir
 *    of 1000, wall time only; baseline: two reads of the monotonic clock
 *    (what any timing of a call costs). Target (issue 18): under 50 ns.
 *    With thread CPU time (PROPER_ANNOT_M_CPU) for comparison.
 * 2. The fit: 10^6 records x 10 features, the metric linear in two of them
 *    plus noise, three features correlated with others (clean-up groups
 *    them); thread CPU seconds of proper_annot_fit. Target: under 2 s (the
 *    paper: about 1 s for one function with 10 features, sample size not
 *    stated). Also the same data with two regimes (a split is needed).
 * 3. The sufficient statistics (issue 21): counting the exact sums of
 *    10^5 records with 2 and with 8 features (the most statistics take),
 *    against proper_annot_fit of the same records in the same run; merging
 *    two such statistics, and the fit from them.
 * Usage: bench_annot [RECORDS]   (default 1000000) */
#include "bench.h"
#define PROPER_IMPLEMENTATION
#include "../src/annot.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct ctx {
    proper_annot_recorder rec;
    int fn;
    double x;
} ctx;

static void run_scope(void *p) {
    ctx *c = (ctx *)p;
    proper_annot_begin(&c->rec, c->fn);
    proper_annot_feature(&c->rec, 0, c->x);
    c->x += 1;
    proper_annot_end(&c->rec);
}

static void run_clocks(void *p) {
    struct timespec a, b;
    (void)p;
    clock_gettime(CLOCK_MONOTONIC, &a);
    clock_gettime(CLOCK_MONOTONIC, &b);
    bench_keep((double)(b.tv_nsec - a.tv_nsec));
}

static void make_table(proper_annot_table *t, size_t n, int regimes) {
    static const char *const names[] = {"time", "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9"};
    proper_rng rng;
    size_t i, k;
    memset(t, 0, sizeof *t);
    t->name = proper_strdup("f");
    t->ncol = 11;
    t->cols = (char **)malloc(sizeof *t->cols * 11);
    t->is_metric = (unsigned char *)calloc(11, 1);
    for (k = 0; k < 11; k++) t->cols[k] = proper_strdup(names[k]);
    t->is_metric[0] = 1;
    t->n = t->cap = n;
    t->v = (double *)malloc(sizeof *t->v * n * 11);
    t->br_off = (size_t *)calloc(n + 1, sizeof *t->br_off);
    proper_rng_seed(&rng, 5);
    for (i = 0; i < n; i++) {
        double *r = t->v + i * 11;
        for (k = 1; k < 11; k++) r[k] = floor(proper_rng_uniform(&rng) * 10000);
        r[8] = 2 * r[1] + 1;  /* x7 tracks x0 */
        r[9] = r[4] * 3;      /* x8 tracks x3 */
        r[10] = r[2] + 5;     /* x9 tracks x1 */
        r[0] = 1000 + 3 * r[1] + 0.5 * r[4] + 20 * proper_rng_normal(&rng);
        if (regimes && r[1] > 6000) r[0] += 20000 + 2 * r[1];
    }
}

static void free_table(proper_annot_table *t) {
    size_t k;
    for (k = 0; k < t->ncol; k++) free(t->cols[k]);
    free(t->cols);
    free(t->is_metric);
    free(t->v);
    free(t->br_off);
    free(t->name);
}

static void fit_once(const char *label, size_t n, int regimes) {
    proper_annot_table t;
    proper_annot a;
    proper_error err;
    proper_strbuf s;
    double t0, t1;
    make_table(&t, n, regimes);
    proper_annot_init(&a);
    proper_strbuf_init(&s);
    t0 = bench_now(BENCH_CPU);
    if (proper_annot_fit(&a, &t, "time", NULL, &err)) {
        fprintf(stderr, "bench_annot: %s\n", err.message);
        exit(1);
    }
    t1 = bench_now(BENCH_CPU);
    proper_annot_format(&a, &s, &err);
    printf("%-30s  %zu records x 10 features: %.2f s CPU\n%s", label, n, t1 - t0, s.data);
    proper_strbuf_free(&s);
    proper_annot_free(&a);
    free_table(&t);
}

/* A table of n records: time = 1000 + 3 x0 + 0.5 x1 + noise, k features. */
static void make_table_k(proper_annot_table *t, size_t n, size_t k) {
    proper_rng rng;
    size_t i, j, nc = k + 1;
    char name[16];
    memset(t, 0, sizeof *t);
    t->name = proper_strdup("g");
    t->ncol = nc;
    t->cols = (char **)malloc(sizeof *t->cols * nc);
    t->is_metric = (unsigned char *)calloc(nc, 1);
    t->cols[0] = proper_strdup("time");
    for (j = 1; j < nc; j++) {
        snprintf(name, sizeof name, "x%zu", j - 1);
        t->cols[j] = proper_strdup(name);
    }
    t->is_metric[0] = 1;
    t->n = t->cap = n;
    t->v = (double *)malloc(sizeof *t->v * n * nc);
    t->br_off = (size_t *)calloc(n + 1, sizeof *t->br_off);
    proper_rng_seed(&rng, 7);
    for (i = 0; i < n; i++) {
        double *r = t->v + i * nc;
        for (j = 1; j < nc; j++) r[j] = floor(proper_rng_uniform(&rng) * 10000);
        r[0] = 1000 + 3 * r[1] + (k > 1 ? 0.5 * r[2] : 0) + 20 * proper_rng_normal(&rng);
    }
}

static void stats_once(size_t n, size_t k) {
    proper_annot_table t;
    proper_annot_stats a, b;
    proper_annot a1, a2;
    proper_error err;
    double t0, t1, t2, t3, t4, t5;
    make_table_k(&t, n, k);
    proper_annot_stats_init(&a);
    proper_annot_stats_init(&b);
    proper_annot_init(&a1);
    proper_annot_init(&a2);
    t0 = bench_now(BENCH_CPU);
    if (proper_annot_fit(&a1, &t, "time", NULL, &err)) exit(1);
    t1 = bench_now(BENCH_CPU);
    if (proper_annot_stats_add(&a, &t, "time", &err)) exit(1);
    t2 = bench_now(BENCH_CPU);
    if (proper_annot_stats_add(&b, &t, "time", &err)) exit(1);
    t3 = bench_now(BENCH_CPU);
    if (proper_annot_stats_merge(&a, &b, &err)) exit(1);
    t4 = bench_now(BENCH_CPU);
    if (proper_annot_stats_fit(&a2, &a, 0, NULL, &err)) exit(1);
    t5 = bench_now(BENCH_CPU);
    printf("statistics, %zu features (%zu sums)  count %zu records: %.3f s CPU (%.0f ns per record, %.2fx the fit's %.3f s); "
           "merge %.1f us; fit from them %.1f us\n",
           k, a.f[0].q * (a.f[0].q + 1) / 2, n, t2 - t1, (t2 - t1) / (double)n * 1e9, (t2 - t1) / (t1 - t0), t1 - t0,
           (t4 - t3) * 1e6, (t5 - t4) * 1e6);
    proper_annot_stats_free(&a);
    proper_annot_stats_free(&b);
    proper_annot_free(&a1);
    proper_annot_free(&a2);
    free_table(&t);
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 1000000;
    proper_annot_writer *w;
    proper_error err;
    ctx c;
    bench_result base, r, rc;
    double self_ns, pair_ns;
    if (proper_annot_writer_open(&w, "", 1000, 0, 1, &err)) return 1;
    c.fn = proper_annot_writer_function(w, "f", "x", &err);
    c.x = 0;
    proper_annot_recorder_init(&c.rec, w, &err);
    proper_annot_writer_overhead(w, &self_ns, &pair_ns);
    base = bench_run(run_clocks, &c, BENCH_WALL, 7, 0.05);
    r = bench_run(run_scope, &c, BENCH_WALL, 7, 0.05);
    bench_print(stdout, "two clock reads (baseline)", &base, NULL);
    bench_print(stdout, "scope: begin, feature, end", &r, &base);
    printf("%-30s  %.0f ns self, %.0f ns per nested scope (medians at open)\n", "recorder cost subtracted", self_ns, pair_ns);
    proper_annot_recorder_flush(&c.rec, &err);
    proper_annot_recorder_free(&c.rec);
    proper_annot_writer_close(w, &err);
    if (proper_annot_writer_open(&w, "", 1000, PROPER_ANNOT_M_CPU, 1, &err)) return 1;
    c.fn = proper_annot_writer_function(w, "f", "x", &err);
    proper_annot_recorder_init(&c.rec, w, &err);
    rc = bench_run(run_scope, &c, BENCH_WALL, 7, 0.05);
    bench_print(stdout, "scope with thread CPU time", &rc, &base);
    proper_annot_recorder_flush(&c.rec, &err);
    proper_annot_recorder_free(&c.rec);
    proper_annot_writer_close(w, &err);
    fit_once("fit, one regime", n, 0);
    fit_once("fit, two regimes", n, 1);
    stats_once(100000, 2);
    stats_once(100000, 8);
    return 0;
}
