/* controlled.h — the sixteen controlled functions of the paper's §5 (Rogora
 * et al., EuroSys 2020) shared by controlled.c (the validation) and
 * double.c (what separates normal from double instrumentation): their
 * planted times, the calibrated busy work that produces them, and the R²
 * of an annotation's mean on a table's records. Included once per program,
 * after annot.h with PROPER_IMPLEMENTATION. */
#ifndef ANNOT_CONTROLLED_H
#define ANNOT_CONTROLLED_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Busy work: a fixed number of loop iterations per planted nanosecond,
 * calibrated once on the thread's CPU clock (the best of several runs), so
 * that the work does not depend on what else the machine runs. */
static double iters_per_ns;
static volatile uint64_t sink;

static void spin_iters(uint64_t n) {
    uint64_t i, x = sink;
    for (i = 0; i < n; i++) x = x * 6364136223846793005u + 1442695040888963407u;
    sink = x;
}
static void calibrate(void) {
    double best = 0;
    int k;
    for (k = 0; k < 20; k++) {
        uint64_t t0 = cpu_ns(), t1;
        spin_iters(2000000);
        t1 = cpu_ns();
        if (2e6 / (double)(t1 - t0) > best) best = 2e6 / (double)(t1 - t0);
    }
    iters_per_ns = best;
}
static void spin(double ns) {
    if (ns > 0) spin_iters((uint64_t)(ns * iters_per_ns));
}

enum { CONST, LIN, NLOGN, QUAD, NORM, EXPO, MIX, BRANCH };
static const char *const kind_name[] = {"constant", "linear", "nlogn", "quadratic", "normal", "exponential",
                                        "mixture", "branch"};

typedef struct fn_spec {
    const char *name;
    int kind;
    double a, b, c; /* time in ns: see duration() */
} fn_spec;

/* n in {25, 50, .., 1000}, m in {5, 10, .., 100} (repeated values, so that the
 * dominant-cluster heuristic can see each value's spread) */
static const fn_spec specs[16] = {
    {"const_a", CONST, 20000, 0, 0},       {"const_b", CONST, 50000, 0, 0},
    {"lin_a", LIN, 2000, 100, 0},          {"lin_b", LIN, 10000, 40, 0},
    {"lin_two", LIN, 3000, 30, 400},       {"nlogn_a", NLOGN, 2000, 10, 0},
    {"nlogn_b", NLOGN, 8000, 6, 0},        {"quad_a", QUAD, 3000, 0, 0.08},
    {"quad_b", QUAD, 1000, 20, 0.05},      {"norm_a", NORM, 40000, 4000, 0},
    {"norm_b", NORM, 25000, 1000, 0},      {"exp_a", EXPO, 30000, 0, 0},
    {"exp_b", EXPO, 15000, 0, 0},          {"mix_a", MIX, 20000, 60000, 0.3},
    {"lin_c", LIN, 500, 70, 0},            {"branch_a", BRANCH, 5000, 30, 90},
};

/* Planted times are the table's figures times SCALE ns: large enough that
 * a shared machine's interference (tens of microseconds now and then) stays
 * small next to them. */
#define SCALE 10.0

static double duration1(const fn_spec *s, double n, double m, proper_rng *rng);
static double duration(const fn_spec *s, double n, double m, proper_rng *rng) {
    return SCALE * duration1(s, n, m, rng);
}

static double duration1(const fn_spec *s, double n, double m, proper_rng *rng) {
    switch (s->kind) {
    case CONST: return s->a;
    case LIN: return s->a + s->b * n + s->c * m;
    case NLOGN: return s->a + s->b * n * log(n);
    case QUAD: return s->a + s->b * n + s->c * n * n;
    case NORM: return s->a + s->b * proper_rng_normal(rng);
    case EXPO: return proper_rng_exponential(rng, 1.0 / s->a);
    case MIX:
        return proper_rng_uniform(rng) < s->c ? s->a + 1000 * proper_rng_normal(rng) : s->b + 2000 * proper_rng_normal(rng);
    default: return n < 500 ? s->a + s->b * n : s->a + s->c * n;
    }
}

/* The metric fitted (a column of the log). */
static const char *metric = "cpu";

/* R² of annotation a's mean on records rows[0..n) of table t. */

static double r2_on(const proper_annot *a, const proper_annot_table *t, const size_t *rows, size_t n) {
    const proper_annot_fn *fn = &a->fns[a->n_fns - 1];
    double *vars = (double *)calloc(a->names.len + 1, sizeof *vars), br[1], mean = 0, sse = 0, sst = 0;
    size_t i, j, ycol = proper_annot_table_column(t, metric);
    for (i = 0; i < n; i++) mean += t->v[rows[i] * t->ncol + ycol];
    mean /= (double)n;
    for (i = 0; i < n; i++) {
        size_t r = rows[i];
        double y = t->v[r * t->ncol + ycol], yh;
        for (j = 0; j < a->names.len; j++) {
            size_t c = proper_annot_table_column(t, a->names.names[j]);
            vars[j] = c != (size_t)-1 ? t->v[r * t->ncol + c] : NAN;
        }
        br[0] = proper_annot_table_branch(t, r, 0);
        yh = proper_annot_mean(a, fn, vars, br, 1);
        sse += (y - yh) * (y - yh);
        sst += (y - mean) * (y - mean);
    }
    free(vars);
    return 1 - sse / sst;
}

/* A table holding only the given rows of t (same columns). */
static void sub_table(proper_annot_table *out, const proper_annot_table *t, const size_t *rows, size_t n) {
    size_t i;
    *out = *t;
    out->n = n;
    out->v = (double *)malloc(sizeof *out->v * n * t->ncol);
    out->br_off = (size_t *)malloc(sizeof *out->br_off * (n + 1));
    out->br = (unsigned char *)malloc(t->nbr + 1);
    out->nbr = 0;
    out->br_off[0] = 0;
    for (i = 0; i < n; i++) {
        size_t r = rows[i], b0 = t->br_off[r], b1 = t->br_off[r + 1];
        memcpy(out->v + i * t->ncol, t->v + r * t->ncol, sizeof *out->v * t->ncol);
        memcpy(out->br + out->nbr, t->br + b0, b1 - b0);
        out->nbr += b1 - b0;
        out->br_off[i + 1] = out->nbr;
    }
}
static void sub_free(proper_annot_table *t) {
    free(t->v);
    free(t->br_off);
    free(t->br);
}

#endif
