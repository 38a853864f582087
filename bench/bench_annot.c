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
    return 0;
}
