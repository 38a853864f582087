/* controlled.c — the paper's §5 basic validation (Rogora et al., EuroSys
 * 2020) with annot.h: sixteen functions whose running time is set by busy
 * work (a calibrated number of loop iterations) as constant, linear, n log n or
 * quadratic in a feature, or drawn from a known distribution independent of
 * the features (normal, exponential, a bimodal mixture), one with a branch
 * on its input (two regimes). Each is called CALLS times with random
 * features and recorded with the annot recorder, once normally and once
 * with double instrumentation (every call inside a second scope of the same
 * name, so its instrumentation runs twice), into two logs. Each call is
 * measured REPS (3) times per configuration with the same planted work, in
 * REPS passes over all calls (in each pass a call's two configurations back
 * to back, which one first drawn per call), every record kept, and a call's
 * record is the median of its records, per metric (3 in the normal log; 6
 * in the double one, inner and outer scopes). The noise of a shared machine
 * is heavy-tailed: a call now and then slowed by milliseconds (other
 * processes' interrupts, cache and clock-path disturbance), in bursts that
 * hit back-to-back repetitions together; the median of repetitions minutes
 * apart ignores one disturbed pass. (The minimum, the lower envelope, was
 * tried first: it takes the fastest moment of a machine whose speed varies
 * by a few percent, more so for short calls than for long ones, which bends
 * a planted line enough for BIC to prefer a quadratic on 2000 calls;
 * docs/annotations-results.md §1 has the runs.)
 *
 * Then, per function: the annotation fitted to the normal log; the class of
 * its scope(s) against the planted one; the 2-fold cross-validated R² of the
 * fitted mean (fit on one half, R² of the other half's metric, both ways,
 * the smaller), for the functions with a regression; and the equivalence of
 * normal and double instrumentation as the paper measures it: the model
 * fitted on each log predicts the other log, R² both ways (regressions;
 * printed beside the R² of each log's own model on it, the most its noise
 * allows), or
 * the two fits' dominant components agree: the same distribution with
 * means that do not differ significantly or by more than 5% (distributions,
 * 1 or 0; see same_distribution).
 *
 * The work is a calibrated number of loop iterations and the metric fitted
 * is the thread's CPU time (cpu), so that other processes on a shared
 * machine do not add their time slices to the measurements; `time` (wall)
 * is recorded too and can be chosen as the third argument.
 *
 * Usage: controlled [CALLS [DIR [METRIC [REPS]]]]   (default 2000 calls, /tmp,
 * cpu, 3 repetitions; REPS 1 measures each call once). The raw logs (every
 * repetition, with its call number as the feature `call`) are
 * DIR/annot-controlled-raw.log and DIR/annot-controlled-double-raw.log; the
 * per-call medians, which are fitted, DIR/annot-controlled.log and
 * DIR/annot-controlled-double.log.
 * Prints one line per function and a summary; exit 0 when every class is
 * right, every cross-validated R² of a regression is >= 0.98 and the double
 * instrumentation agrees, else 1. */
#define PROPER_IMPLEMENTATION
#include "../../src/annot.h"
#include "controlled.h"

/* One call of spec s with planted time d: one scope, or (twice) a scope
 * inside a second scope of the same function; `call` numbers the call. */
static void one_call(proper_annot_recorder *r, int id, const fn_spec *s, double n, double m, double call, double d,
                     int twice) {
    int k;
    for (k = 0; k <= twice; k++) {
        proper_annot_begin(r, id);
        proper_annot_feature(r, 0, n);
        proper_annot_feature(r, 1, m);
        proper_annot_feature(r, 2, call);
        if (s->kind == BRANCH) proper_annot_branch(r, 0, n < 500);
    }
    spin(d);
    for (k = 0; k <= twice; k++) proper_annot_end(r);
}

/* Record the normal log (path[0]) and the doubly instrumented one (path[1])
 * in one pass per repetition: in each pass every call runs its two
 * configurations back to back (which one first drawn per call), with the
 * call's planted work, the same in every pass. So both logs see the same
 * machine (examples/annot/double.c shows that logs recorded minutes apart on
 * a shared machine differ more than the instrumentation makes them), and a
 * call's repetitions are a pass (a minute or more) apart, so that no burst
 * of interference meets all of them. */
static int record(const char *const path[2], size_t calls, int reps, uint64_t seed, proper_error *err) {
    proper_annot_writer *w[2];
    proper_annot_recorder r[2];
    proper_rng rng, order;
    int ids[2][16], rc, c, j;
    size_t i, k, nk = calls * 16;
    double *plan = (double *)malloc(sizeof *plan * 3 * (nk + 1)); /* per call: n, m, planted ns */
    if (!plan) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (c = 0; c < 2; c++) {
        /* room for every record (the double log has an inner and an outer
         * one per repetition): no reservoir sampling */
        if ((rc = proper_annot_writer_open(&w[c], path[c], 2 * calls * (size_t)reps, PROPER_ANNOT_M_CPU, seed + (uint64_t)c,
                                           err)))
            return rc;
        for (k = 0; k < 16; k++)
            if ((ids[c][k] = proper_annot_writer_function(w[c], specs[k].name, "n m call", err)) < 0) return ids[c][k];
        proper_annot_recorder_init(&r[c], w[c], err);
    }
    proper_rng_seed(&rng, seed);
    proper_rng_seed(&order, seed + 2);
    for (i = 0; i < calls; i++)
        for (k = 0; k < 16; k++) {
            double *p = plan + 3 * (i * 16 + k);
            p[0] = 25 * (1 + (double)proper_rng_below(&rng, 40));
            p[1] = 5 * (1 + (double)proper_rng_below(&rng, 20));
            p[2] = duration(&specs[k], p[0], p[1], &rng);
        }
    for (j = 0; j < reps; j++)
        for (i = 0; i < calls; i++)
            for (k = 0; k < 16; k++) {
                const double *p = plan + 3 * (i * 16 + k);
                int first = (int)proper_rng_below(&order, 2);
                one_call(&r[first], ids[first][k], &specs[k], p[0], p[1], (double)i, p[2], first);
                one_call(&r[!first], ids[!first][k], &specs[k], p[0], p[1], (double)i, p[2], !first);
            }
    free(plan);
    for (c = 0; c < 2; c++) {
        if (!rc) rc = proper_annot_recorder_flush(&r[c], err);
        proper_annot_recorder_free(&r[c]);
        if (!rc) rc = proper_annot_writer_close(w[c], err);
        else proper_annot_writer_close(w[c], NULL);
    }
    return rc;
}

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* The median of v[0..n) (n >= 1; v is sorted in place). */
static double median(double *v, size_t n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Replace table t's records by one per call (the last column, `call`,
 * dropped), in the order of each call's first record: each metric column
 * the median over the call's records, the features and branch outcomes
 * those of its first record. */
static int median_per_call(proper_annot_table *t, size_t calls) {
    size_t nc = t->ncol - 1, r, k, j, n = 0, nbr = 0, most = 1;
    size_t *kept = (size_t *)malloc(sizeof *kept * (calls + 1)), *count = (size_t *)calloc(calls + 1, sizeof *count);
    double *v = (double *)PROPER_MALLOC(sizeof *v * (calls * nc + 1)), *all = NULL;
    unsigned char *br = (unsigned char *)PROPER_MALLOC(t->nbr + 1);
    size_t *off = (size_t *)PROPER_MALLOC(sizeof *off * (calls + 1));
    int rc = -1;
    if (!kept || !count || !v || !br || !off || strcmp(t->cols[nc], "call") != 0) goto done;
    for (k = 0; k < calls; k++) kept[k] = (size_t)-1;
    off[0] = 0;
    for (r = 0; r < t->n; r++) { /* the first record of each call: features, outcomes */
        const double *row = t->v + r * t->ncol;
        size_t call = (size_t)row[nc], b0 = t->br_off[r], b1 = t->br_off[r + 1];
        if (call >= calls) continue;
        if (++count[call] > most) most = count[call];
        if (kept[call] != (size_t)-1) continue;
        kept[call] = n;
        memcpy(v + n * nc, row, sizeof *v * nc);
        memcpy(br + nbr, t->br + b0, b1 - b0);
        nbr += b1 - b0;
        off[++n] = nbr;
    }
    /* every record's metrics, by call: all[(kept * most + j) * nc + k] */
    if (!(all = (double *)malloc(sizeof *all * (n * most * nc + 1)))) goto done;
    memset(count, 0, sizeof *count * calls);
    for (r = 0; r < t->n; r++) {
        const double *row = t->v + r * t->ncol;
        size_t call = (size_t)row[nc];
        if (call >= calls) continue;
        memcpy(all + (kept[call] * most + count[call]++) * nc, row, sizeof *row * nc);
    }
    for (r = 0; r < calls; r++) {
        double *x;
        if (kept[r] == (size_t)-1) continue;
        x = all + kept[r] * most * nc;
        for (k = 0; k < nc; k++) {
            double col[64];
            size_t m = count[r] < 64 ? count[r] : 64;
            if (!t->is_metric[k]) continue;
            for (j = 0; j < m; j++) col[j] = x[j * nc + k];
            v[kept[r] * nc + k] = median(col, m);
        }
    }
    PROPER_FREE(t->v);
    PROPER_FREE(t->br);
    PROPER_FREE(t->br_off);
    PROPER_FREE(t->cols[nc]);
    t->v = v;
    t->cap = calls * nc + 1;
    t->br = br;
    t->nbr = nbr;
    t->brcap = t->nbr + 1;
    t->br_off = off;
    t->offcap = calls + 1;
    t->ncol = nc;
    t->n = n;
    v = NULL;
    br = NULL;
    off = NULL;
    rc = 0;
done:
    free(kept);
    free(count);
    free(all);
    PROPER_FREE(v);
    PROPER_FREE(br);
    PROPER_FREE(off);
    return rc;
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

/* Read the raw logs raw[0..1], reduce each function to its per-call
 * medians (median_per_call) into L[0..1], and write those to out[0..1]. */
static int reduce_logs(const char *const raw[2], const char *const out[2], size_t calls, proper_annot_log L[2],
                       proper_error *err) {
    int c, rc;
    size_t k;
    for (c = 0; c < 2; c++) {
        FILE *f;
        proper_annot_log_init(&L[c]);
        if ((rc = proper_annot_log_read(&L[c], raw[c], err))) return rc;
        for (k = 0; k < L[c].n; k++)
            if (median_per_call(&L[c].t[k], calls)) return proper_error_set(err, PROPER_ENOMEM, raw[c], 0, 0, "cannot reduce");
        if (!(f = fopen(out[c], "w"))) return proper_error_set(err, PROPER_EIO, out[c], 0, 0, "cannot write");
        rc = proper_annot_log_write(&L[c], f, err);
        if (fclose(f) != 0 && !rc) rc = proper_error_set(err, PROPER_EIO, out[c], 0, 0, "write failed");
        if (rc) return rc;
    }
    return 0;
}

int main(int argc, char **argv) {
    size_t calls = argc > 1 ? (size_t)atol(argv[1]) : 2000, k, i;
    const char *dir = argc > 2 ? argv[2] : "/tmp";
    int reps = argc > 4 ? atoi(argv[4]) : 3;
    char p1[4096], p2[4096], r1[4096], r2[4096];
    const char *paths[2], *raws[2];
    proper_error err;
    proper_annot_log L[2], *L1 = &L[0], *L2 = &L[1];
    proper_annot_opts o = proper_annot_opts_default();
    int bad = 0;
    double min_cv = 1, min_dbl = 1, max_loss = 0;
    snprintf(p1, sizeof p1, "%s/annot-controlled.log", dir);
    snprintf(p2, sizeof p2, "%s/annot-controlled-double.log", dir);
    snprintf(r1, sizeof r1, "%s/annot-controlled-raw.log", dir);
    snprintf(r2, sizeof r2, "%s/annot-controlled-double-raw.log", dir);
    paths[0] = p1;
    paths[1] = p2;
    raws[0] = r1;
    raws[1] = r2;
    calibrate();
    if (argc > 3) metric = argv[3];
    if (reps < 1) reps = 1;
    if (record(raws, calls, reps, 1, &err) || reduce_logs(raws, paths, calls, L, &err)) {
        char msg[800];
        fprintf(stderr, "controlled: %s\n", proper_error_format(&err, msg, sizeof msg));
        return 2;
    }
    printf("# %zu calls per function, each measured %d time(s) per configuration in as many passes; a record is the "
           "median of its call's records\n", calls, reps);
    printf("%-9s %-11s %-6s %8s %8s %8s %8s %8s  annotation (normal instrumentation)\n", "function", "planted",
           "class", "cv R2", "d->n R2", "n->n R2", "n->d R2", "d->d R2");
    for (k = 0; k < 16; k++) {
        const proper_annot_table *t = proper_annot_log_find(L1, specs[k].name), *u = proper_annot_log_find(L2, specs[k].name);
        proper_annot a, h1, h2, b;
        proper_strbuf s;
        size_t *rows = (size_t *)malloc(sizeof *rows * t->n), *all = (size_t *)malloc(sizeof *all * (t->n > u->n ? t->n : u->n));
        size_t na = 0, nb = 0;
        proper_annot_table A, B;
        proper_rng rng;
        int ok, outliers = 0, regression = specs[k].kind <= QUAD && specs[k].kind != CONST;
        if (specs[k].kind == BRANCH) regression = 1;
        double cv = NAN, dn = NAN, nd = NAN, nn = NAN, dd = NAN;
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
            nn = r2_on(&a, t, rows, t->n);  /* each log's own model: what its noise allows */
            dd = r2_on(&b, u, all, u->n);
            if (nn - dn > max_loss) max_loss = nn - dn;
            if (dd - nd > max_loss) max_loss = dd - nd;
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
        printf("%-9s %-11s %-6s %8.4f %8.4f %8.4f %8.4f %8.4f  %s\n", specs[k].name, kind_name[specs[k].kind],
               ok ? (outliers ? "ok+out" : "ok") : "WRONG", cv, dn, nn, nd, dd, s.data);
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
           "normal/double instrumentation %.4f (regressions), at most %.4f below the log's own annotation's R2; "
           "ok+out: the planted class is the dominant component (p >= 0.9) beside outlier clusters\n",
           bad, min_cv, min_dbl, max_loss);
    proper_annot_log_free(L1);
    proper_annot_log_free(L2);
    return bad ? 1 : 0;
}
