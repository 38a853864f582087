/* controlled.c — the paper's §5 basic validation (Rogora et al., EuroSys
 * 2020) with annot.h: sixteen functions whose running time is set by busy
 * work (spinning on the monotonic clock) as constant, linear, n log n or
 * quadratic in a feature, or drawn from a known distribution independent of
 * the features (normal, exponential, a bimodal mixture), one with a branch
 * on its input (two regimes). Each is called CALLS times with random
 * features and recorded with the annot recorder, once normally and once
 * with double instrumentation (every call inside a second scope of the same
 * name, so its instrumentation runs twice).
 *
 * Then, per function: the annotation fitted to the normal log; the class of
 * its scope(s) against the planted one; the 2-fold cross-validated R² of the
 * fitted mean (fit on one half, R² of the other half's metric, both ways,
 * the smaller), for the functions with a regression; and the equivalence of
 * normal and double instrumentation as the paper measures it: the model
 * fitted on each log predicts the other log, R² both ways (regressions), or
 * the two fits' dominant components agree: the same distribution with
 * means that do not differ significantly or by more than 5% (distributions,
 * 1 or 0; see same_distribution).
 *
 * The work is a calibrated number of loop iterations and the metric fitted
 * is the thread's CPU time (cpu), so that other processes on a shared
 * machine do not add their time slices to the measurements; `time` (wall)
 * is recorded too and can be chosen as the third argument.
 *
 * Usage: controlled [CALLS [DIR [METRIC]]]   (default 2000 calls, /tmp, cpu)
 * Prints one line per function and a summary; exit 0 when every class is
 * right, every cross-validated R² of a regression is >= 0.98 and the double
 * instrumentation agrees, else 1. */
#define PROPER_IMPLEMENTATION
#include "../../src/annot.h"

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

static int record(const char *path, int twice, size_t calls, uint64_t seed, proper_error *err) {
    proper_annot_writer *w;
    proper_annot_recorder r;
    proper_rng rng;
    int ids[16], rc;
    size_t i, k;
    if ((rc = proper_annot_writer_open(&w, path, calls, PROPER_ANNOT_M_CPU, seed, err))) return rc;
    for (k = 0; k < 16; k++)
        if ((ids[k] = proper_annot_writer_function(w, specs[k].name, "n m", err)) < 0) return ids[k];
    proper_annot_recorder_init(&r, w, err);
    proper_rng_seed(&rng, seed);
    for (i = 0; i < calls; i++)
        for (k = 0; k < 16; k++) {
            double n = 25 * (1 + (double)proper_rng_below(&rng, 40)), m = 5 * (1 + (double)proper_rng_below(&rng, 20));
            double d = duration(&specs[k], n, m, &rng);
            if (twice) {
                proper_annot_begin(&r, ids[k]);
                proper_annot_feature(&r, 0, n);
                proper_annot_feature(&r, 1, m);
                if (specs[k].kind == BRANCH) proper_annot_branch(&r, 0, n < 500);
            }
            proper_annot_begin(&r, ids[k]);
            proper_annot_feature(&r, 0, n);
            proper_annot_feature(&r, 1, m);
            if (specs[k].kind == BRANCH) proper_annot_branch(&r, 0, n < 500);
            spin(d);
            proper_annot_end(&r);
            if (twice) proper_annot_end(&r);
        }
    proper_annot_recorder_flush(&r, err);
    proper_annot_recorder_free(&r);
    return proper_annot_writer_close(w, err);
}

/* R² of annotation a's mean on records rows[0..n) of table t. */
static const char *metric = "cpu";

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

/* The largest-probability component of a top-level mixture, or the single
 * scope; *p its probability (1 for a single scope). */
static const proper_annot_item *dominant(const proper_annot *a, double *p) {
    const proper_annot_fn *fn = &a->fns[a->n_fns - 1];
    const proper_annot_item *it = &a->it[fn->body], *best = it;
    *p = 1;
    if (it->guard != PROPER_ANNOT_PROB) return it->next < 0 ? it : NULL;
    *p = 0;
    for (; it; it = it->next >= 0 ? &a->it[it->next] : NULL)
        if (it->prob > *p) { *p = it->prob; best = it; }
    return best;
}

/* 1 when the annotation has the planted class; 2 when it has it for a
 * dominant component of probability >= 0.9 beside outlier clusters. */
static int scope_ok(const proper_annot *a, const fn_spec *s) {
    const proper_annot_fn *fn = &a->fns[a->n_fns - 1];
    const proper_annot_item *it = &a->it[fn->body], *d;
    double p;
    switch (s->kind) {
    case CONST:
    case NORM:
        d = dominant(a, &p);
        if (!d || d->dist != PROPER_ANNOT_NORM || !(d->cls == PROPER_ANNOT_CONSTANT || d->cls == PROPER_ANNOT_DISTRIBUTION)) return 0;
        return p == 1 ? 1 : p >= 0.9 ? 2 : 0;
    case LIN: return it->next < 0 && it->cls == PROPER_ANNOT_LINEAR;
    case NLOGN: return it->next < 0 && it->cls == PROPER_ANNOT_NLOGN;
    case QUAD: return it->next < 0 && it->cls == PROPER_ANNOT_QUADRATIC;
    case EXPO: return it->next < 0 && it->dist == PROPER_ANNOT_EXP;
    case MIX:
        /* two Norm components near 0.3 x (20 us) and 0.7 x (60 us) */
        if (it->guard != PROPER_ANNOT_PROB || it->next < 0 || a->it[it->next].next >= 0) return 0;
        return fabs(it->prob - s->c) < 0.05 && fabs(a->ex[it->arg[0]].value / (SCALE * s->a) - 1) < 0.1 &&
               fabs(a->ex[a->it[it->next].arg[0]].value / (SCALE * s->b) - 1) < 0.1;
    default:
        /* two scopes split at n < 500, both linear */
        return it->guard == PROPER_ANNOT_COND && it->next >= 0 && a->it[it->next].next < 0 &&
               it->cls == PROPER_ANNOT_LINEAR && a->it[it->next].cls == PROPER_ANNOT_LINEAR;
    }
}

/* Equivalence of two input-independent fits: the same distribution for the
 * dominant components, whose means do not differ significantly (|z| < 3
 * with z = (m1 - m2)/sqrt(s1²/n1 + s2²/n2); Exp: s = m; the counts are the
 * records each component was fitted on) or differ by at most 5% (two runs
 * minutes apart on a shared machine drift by a percent or two). */
static int same_distribution(const proper_annot *a, const proper_annot *b) {
    double p, q, m1, m2, s1, s2, z;
    const proper_annot_item *x = dominant(a, &p), *y = dominant(b, &q);
    if (!x || !y || x->dist != y->dist || !x->n_obs || !y->n_obs) return 0;
    m1 = a->ex[x->arg[0]].value;
    m2 = b->ex[y->arg[0]].value;
    s1 = x->dist == PROPER_ANNOT_NORM ? a->ex[x->arg[1]].value : m1;
    s2 = y->dist == PROPER_ANNOT_NORM ? b->ex[y->arg[1]].value : m2;
    z = (m1 - m2) / sqrt(s1 * s1 / (double)x->n_obs + s2 * s2 / (double)y->n_obs);
    return fabs(z) < 3 || fabs(m1 / m2 - 1) <= 0.05;
}

int main(int argc, char **argv) {
    size_t calls = argc > 1 ? (size_t)atol(argv[1]) : 2000, k, i;
    const char *dir = argc > 2 ? argv[2] : "/tmp";
    char p1[4096], p2[4096];
    proper_error err;
    proper_annot_log L1, L2;
    proper_annot_opts o = proper_annot_opts_default();
    int bad = 0;
    double min_cv = 1, min_dbl = 1;
    snprintf(p1, sizeof p1, "%s/annot-controlled.log", dir);
    snprintf(p2, sizeof p2, "%s/annot-controlled-double.log", dir);
    calibrate();
    if (argc > 3) metric = argv[3];
    if (record(p1, 0, calls, 1, &err) || record(p2, 1, calls, 2, &err)) {
        char msg[800];
        fprintf(stderr, "controlled: %s\n", proper_error_format(&err, msg, sizeof msg));
        return 2;
    }
    proper_annot_log_init(&L1);
    proper_annot_log_init(&L2);
    if (proper_annot_log_read(&L1, p1, &err) || proper_annot_log_read(&L2, p2, &err)) {
        char msg[800];
        fprintf(stderr, "controlled: %s\n", proper_error_format(&err, msg, sizeof msg));
        return 2;
    }
    printf("%-9s %-11s %-6s %8s %8s %8s  annotation (normal instrumentation)\n", "function", "planted", "class",
           "cv R2", "d->n R2", "n->d R2");
    for (k = 0; k < 16; k++) {
        const proper_annot_table *t = proper_annot_log_find(&L1, specs[k].name), *u = proper_annot_log_find(&L2, specs[k].name);
        proper_annot a, h1, h2, b;
        proper_strbuf s;
        size_t *rows = (size_t *)malloc(sizeof *rows * t->n), *all = (size_t *)malloc(sizeof *all * (t->n > u->n ? t->n : u->n));
        size_t na = 0, nb = 0;
        proper_annot_table A, B;
        proper_rng rng;
        int ok, outliers = 0, regression = specs[k].kind <= QUAD && specs[k].kind != CONST;
        if (specs[k].kind == BRANCH) regression = 1;
        double cv = NAN, dn = NAN, nd = NAN;
        proper_annot_init(&a);
        proper_annot_init(&h1);
        proper_annot_init(&h2);
        proper_annot_init(&b);
        proper_strbuf_init(&s);
        if (proper_annot_fit(&a, t, metric, &o, &err) || proper_annot_fit(&b, u, metric, &o, &err)) {
            printf("%s: fit failed: %s\n", specs[k].name, err.message);
            return 2;
        }
        {
            int c1 = scope_ok(&a, &specs[k]), c2 = scope_ok(&b, &specs[k]);
            ok = c1 && c2;
            outliers = c1 == 2 || c2 == 2;
        }
        /* 2-fold cross-validation */
        proper_rng_seed(&rng, 100 + k);
        for (i = 0; i < t->n; i++) all[i] = i;
        for (i = t->n; i > 1; i--) {
            size_t j = (size_t)proper_rng_below(&rng, i), x = all[i - 1];
            all[i - 1] = all[j];
            all[j] = x;
        }
        na = t->n / 2;
        nb = t->n - na;
        memcpy(rows, all, sizeof *rows * t->n);
        sub_table(&A, t, rows, na);
        sub_table(&B, t, rows + na, nb);
        if (!proper_annot_fit(&h1, &A, metric, &o, &err) && !proper_annot_fit(&h2, &B, metric, &o, &err)) {
            double r1 = r2_on(&h1, t, rows + na, nb), r2 = r2_on(&h2, t, rows, na);
            cv = r1 < r2 ? r1 : r2;
        }
        sub_free(&A);
        sub_free(&B);
        if (regression) {
            for (i = 0; i < u->n; i++) all[i] = i;
            dn = r2_on(&b, t, rows, t->n);  /* double's model on normal data */
            nd = r2_on(&a, u, all, u->n);   /* normal's model on double data */
            if (cv < min_cv) min_cv = cv;
            if (dn < min_dbl) min_dbl = dn;
            if (nd < min_dbl) min_dbl = nd;
            if (!(cv >= 0.98) || !(dn >= 0.98) || !(nd >= 0.98)) ok = 0;
        } else {
            /* distributions: the two logs' fits agree (1) or not (0) */
            dn = nd = same_distribution(&a, &b);
            if (!dn) ok = 0;
        }
        proper_annot_format(&a, &s, &err);
        {
            /* the annotation on one line */
            char *p;
            for (p = s.data; p && *p; p++)
                if (*p == '\n') *p = ' ';
        }
        printf("%-9s %-11s %-6s %8.4f %8.4f %8.4f  %s\n", specs[k].name, kind_name[specs[k].kind], ok ? (outliers ? "ok+out" : "ok") : "WRONG", cv,
               dn, nd, s.data);
        if (!ok) {
            char *p;
            bad++;
            s.len = 0;
            proper_annot_format(&b, &s, &err);
            for (p = s.data; p && *p; p++)
                if (*p == '\n') *p = ' ';
            printf("%-47s double: %s\n", "", s.data);
        }
        proper_strbuf_free(&s);
        proper_annot_free(&a);
        proper_annot_free(&b);
        proper_annot_free(&h1);
        proper_annot_free(&h2);
        free(rows);
        free(all);
    }
    printf("summary: %d of 16 functions wrong; min cross-validated R2 (regressions) %.4f; min R2 across "
           "normal/double instrumentation %.4f (regressions); ok+out: the planted class is the dominant component (p >= 0.9) beside outlier clusters\n",
           bad, min_cv, min_dbl);
    proper_annot_log_free(&L1);
    proper_annot_log_free(&L2);
    return bad ? 1 : 0;
}
