/* double.c — what makes a double-instrumented log differ from a normal one
 * (the robustness test of Rogora et al., EuroSys 2020, §5: "log everything
 * twice"; controlled.c runs the test itself).
 *
 * The nine controlled functions of controlled.h that have a regression
 * (linear, n log n, quadratic, the branch) are each called CALLS times in
 * two configurations with the same planted work: normal (one scope, recorded
 * as F) and double (a scope inside a second scope of the same call,
 * recorded as F_inner and F_outer). Every record carries its call number,
 * so the two configurations of one call, and the two scopes of one double
 * call, can be compared pairwise. Two schedules:
 *   sequential  all normal calls, then all double calls (controlled.c's
 *               schedule: the configurations run minutes apart);
 *   interleaved each call's normal and double configurations back to back,
 *               in random order (both see the same machine).
 * Per function and schedule it prints
 *   - the paper's criterion: R² of the normal log's annotation on the double
 *     log (inner and outer records together, as one doubly instrumented log
 *     holds them) and of the double log's annotation on the normal log,
 *     next to each log's own annotation on it (the paper asks that the other
 *     configuration's model predict a log "with the same high accuracy" as
 *     the log's own: the own R² is what the log's noise allows);
 *   - the residual standard deviation of the normal, inner and outer records
 *     about the normal log's annotation;
 *   - outer - inner of the same call: its mean is what the subtraction of
 *     the nested scope's cost (the recorder's pair cost) leaves over, its
 *     standard deviation how much the inner scope's cost varies;
 *   - inner - normal of the same call: the difference between two
 *     executions of the same work a moment apart (its SD / √2 is the
 *     machine's noise per call; also robustly, 1.4826 MAD / √2, which
 *     ignores the few calls hit by a long interruption); its mean a bias
 *     between configurations.
 * So a wrong pair cost shows as a non-zero outer - inner mean, a varying
 * inner scope cost (caches) as a large outer - inner SD, and load that
 * changes between the configurations' minutes as a sequential R² below the
 * interleaved one. First, on a tight loop (begin; begin; spin(w); end; end,
 * 400 calls per w from 0 to 300 us), the median and 10%/90% quantiles of
 * outer - inner on both clocks: what the subtraction leaves as the inner
 * call grows.
 *
 * Usage: double [CALLS [DIR [METRIC]]]   (default 2000, /tmp, cpu)
 * Exit 0 when every interleaved R² is at least 0.98, else 1. */
#define PROPER_IMPLEMENTATION
#include "../../src/annot.h"
#include "controlled.h"

#define NREG 9
static const int reg[NREG] = {2, 3, 4, 5, 6, 7, 8, 14, 15}; /* indices into specs */

enum { NORMAL, INNER, OUTER };

static void set_features(proper_annot_recorder *r, const fn_spec *s, double n, double m, double call) {
    proper_annot_feature(r, 0, n);
    proper_annot_feature(r, 1, m);
    proper_annot_feature(r, 2, call);
    if (s->kind == BRANCH) proper_annot_branch(r, 0, n < 500);
}

static void call_normal(proper_annot_recorder *r, const int *id, const fn_spec *s, double n, double m, double call,
                        double d) {
    proper_annot_begin(r, id[NORMAL]);
    set_features(r, s, n, m, call);
    spin(d);
    proper_annot_end(r);
}

static void call_double(proper_annot_recorder *r, const int *id, const fn_spec *s, double n, double m, double call,
                        double d) {
    proper_annot_begin(r, id[OUTER]);
    set_features(r, s, n, m, call);
    proper_annot_begin(r, id[INNER]);
    set_features(r, s, n, m, call);
    spin(d);
    proper_annot_end(r);
    proper_annot_end(r);
}

/* Record both configurations of every call into one log (every call kept:
 * the reservoir holds CALLS). The planted inputs come from the same seed in
 * both schedules. */
static int record(const char *path, int interleaved, size_t calls, proper_error *err) {
    proper_annot_writer *w;
    proper_annot_recorder r;
    proper_rng rng, order;
    int id[NREG][3], rc;
    size_t i, k, pass;
    char name[64];
    if ((rc = proper_annot_writer_open(&w, path, calls, PROPER_ANNOT_M_CPU, 1, err))) return rc;
    for (k = 0; k < NREG; k++) {
        const char *f = specs[reg[k]].name;
        snprintf(name, sizeof name, "%s_inner", f);
        id[k][INNER] = proper_annot_writer_function(w, name, "n m call", err);
        snprintf(name, sizeof name, "%s_outer", f);
        id[k][OUTER] = proper_annot_writer_function(w, name, "n m call", err);
        id[k][NORMAL] = proper_annot_writer_function(w, f, "n m call", err);
        if (id[k][INNER] < 0 || id[k][OUTER] < 0 || id[k][NORMAL] < 0) return err->code;
    }
    proper_annot_recorder_init(&r, w, err);
    proper_rng_seed(&order, 7);
    for (pass = 0; pass < (interleaved ? 1u : 2u); pass++) {
        proper_rng_seed(&rng, 1);
        for (i = 0; i < calls; i++)
            for (k = 0; k < NREG; k++) {
                const fn_spec *s = &specs[reg[k]];
                double n = 25 * (1 + (double)proper_rng_below(&rng, 40)), m = 5 * (1 + (double)proper_rng_below(&rng, 20));
                double d = duration(s, n, m, &rng);
                if (interleaved) {
                    int normal_first = (int)proper_rng_below(&order, 2);
                    if (normal_first) call_normal(&r, id[k], s, n, m, (double)i, d);
                    call_double(&r, id[k], s, n, m, (double)i, d);
                    if (!normal_first) call_normal(&r, id[k], s, n, m, (double)i, d);
                } else if (pass == 0) {
                    call_normal(&r, id[k], s, n, m, (double)i, d);
                } else {
                    call_double(&r, id[k], s, n, m, (double)i, d);
                }
            }
    }
    proper_annot_recorder_flush(&r, err);
    proper_annot_recorder_free(&r);
    return proper_annot_writer_close(w, err);
}

/* The table of function f (+ suffix) in L, with its column "call" marked as
 * a metric so that the fit does not take it for a feature; by_call[i] is the
 * row of call i. */
static proper_annot_table *table(proper_annot_log *L, const char *f, const char *suffix, size_t *by_call,
                                 size_t calls) {
    char name[64];
    size_t i, c;
    proper_annot_table *t;
    snprintf(name, sizeof name, "%s%s", f, suffix);
    t = (proper_annot_table *)proper_annot_log_find(L, name);
    if (!t || t->n != calls) return NULL;
    c = proper_annot_table_column(t, "call");
    t->is_metric[c] = 1;
    for (i = 0; i < t->n; i++) by_call[(size_t)t->v[i * t->ncol + c]] = i;
    return t;
}

/* A table of a's rows then b's (same columns). */
static void concat(proper_annot_table *out, const proper_annot_table *a, const proper_annot_table *b) {
    size_t *rows = (size_t *)malloc(sizeof *rows * a->n), i;
    proper_annot_table A, B;
    for (i = 0; i < a->n; i++) rows[i] = i;
    sub_table(&A, a, rows, a->n);
    sub_table(&B, b, rows, b->n);
    *out = A;
    out->n = a->n + b->n;
    out->v = (double *)realloc(A.v, sizeof *out->v * out->n * a->ncol);
    memcpy(out->v + a->n * a->ncol, B.v, sizeof *out->v * b->n * b->ncol);
    out->br_off = (size_t *)realloc(A.br_off, sizeof *out->br_off * (out->n + 1));
    out->br = (unsigned char *)realloc(A.br, A.nbr + B.nbr + 1);
    memcpy(out->br + A.nbr, B.br, B.nbr);
    for (i = 0; i < b->n; i++) out->br_off[a->n + 1 + i] = A.nbr + B.br_off[i + 1];
    out->nbr = A.nbr + B.nbr;
    sub_free(&B);
    free(rows);
}

/* Mean and standard deviation of x[0..n). */
static void mean_sd(const double *x, size_t n, double *mean, double *sd) {
    double s = 0, q = 0;
    size_t i;
    for (i = 0; i < n; i++) s += x[i];
    s /= (double)n;
    for (i = 0; i < n; i++) q += (x[i] - s) * (x[i] - s);
    *mean = s;
    *sd = sqrt(q / (double)(n - 1));
}

/* Residual SD of t's metric about annotation a's mean. */
static double resid_sd(const proper_annot *a, const proper_annot_table *t) {
    double r2, sst = 0, mean = 0;
    size_t i, *rows = (size_t *)malloc(sizeof *rows * t->n), y = proper_annot_table_column(t, metric);
    for (i = 0; i < t->n; i++) {
        rows[i] = i;
        mean += t->v[i * t->ncol + y];
    }
    mean /= (double)t->n;
    for (i = 0; i < t->n; i++) sst += (t->v[i * t->ncol + y] - mean) * (t->v[i * t->ncol + y] - mean);
    r2 = r2_on(a, t, rows, t->n); /* 1 - sse/sst */
    free(rows);
    return sqrt((1 - r2) * sst / (double)t->n);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The paired differences x[call] - y[call] of the metric: mean, standard
 * deviation and 1.4826 times the median absolute deviation (the SD of a
 * normal distribution, unmoved by a few outliers). */
static void paired(const proper_annot_table *x, const size_t *bx, const proper_annot_table *y, const size_t *by,
                   size_t calls, double *mean, double *sd, double *robust_sd) {
    double *d = (double *)malloc(sizeof *d * calls), med;
    size_t i, c = proper_annot_table_column(x, metric);
    for (i = 0; i < calls; i++) d[i] = x->v[bx[i] * x->ncol + c] - y->v[by[i] * y->ncol + c];
    mean_sd(d, calls, mean, sd);
    qsort(d, calls, sizeof *d, cmp_double);
    med = d[calls / 2];
    for (i = 0; i < calls; i++) d[i] = fabs(d[i] - med);
    qsort(d, calls, sizeof *d, cmp_double);
    *robust_sd = 1.4826 * d[calls / 2];
    free(d);
}

static int analyse(const char *path, const char *schedule, size_t calls, double *min_r2) {
    proper_annot_log L;
    proper_error err;
    size_t k, *b[3];
    int i;
    proper_annot_log_init(&L);
    if (proper_annot_log_read(&L, path, &err)) {
        char msg[800];
        fprintf(stderr, "double: %s\n", proper_error_format(&err, msg, sizeof msg));
        return 2;
    }
    for (i = 0; i < 3; i++) b[i] = (size_t *)malloc(sizeof *b[i] * calls);
    *min_r2 = 1;
    for (k = 0; k < NREG; k++) {
        const char *f = specs[reg[k]].name;
        proper_annot_table *t[3], D;
        proper_annot a, d;
        proper_annot_opts o = proper_annot_opts_default();
        double nd, dn, nn, dd, io_m, io_sd, io_rsd, in_m, in_sd, in_rsd;
        size_t *all;
        t[NORMAL] = table(&L, f, "", b[NORMAL], calls);
        t[INNER] = table(&L, f, "_inner", b[INNER], calls);
        t[OUTER] = table(&L, f, "_outer", b[OUTER], calls);
        if (!t[NORMAL] || !t[INNER] || !t[OUTER]) {
            fprintf(stderr, "double: %s: records missing\n", f);
            return 2;
        }
        concat(&D, t[INNER], t[OUTER]);
        proper_annot_init(&a);
        proper_annot_init(&d);
        if (proper_annot_fit(&a, t[NORMAL], metric, &o, &err) || proper_annot_fit(&d, &D, metric, &o, &err)) {
            fprintf(stderr, "double: %s: fit failed: %s\n", f, err.message);
            return 2;
        }
        all = (size_t *)malloc(sizeof *all * D.n);
        for (i = 0; (size_t)i < D.n; i++) all[i] = (size_t)i;
        nd = r2_on(&a, &D, all, D.n);
        dn = r2_on(&d, t[NORMAL], all, calls);
        nn = r2_on(&a, t[NORMAL], all, calls);
        dd = r2_on(&d, &D, all, D.n);
        if (nd < *min_r2) *min_r2 = nd;
        if (dn < *min_r2) *min_r2 = dn;
        paired(t[OUTER], b[OUTER], t[INNER], b[INNER], calls, &io_m, &io_sd, &io_rsd);
        paired(t[INNER], b[INNER], t[NORMAL], b[NORMAL], calls, &in_m, &in_sd, &in_rsd);
        printf("%-11s %-9s %7.4f %7.4f %7.4f %7.4f %8.0f %8.0f %8.0f %7.0f %7.0f %7.0f %8.0f %8.0f %8.0f\n", schedule,
               f, nd, dd, dn, nn, resid_sd(&a, t[NORMAL]), resid_sd(&a, t[INNER]), resid_sd(&a, t[OUTER]), io_m, io_sd,
               io_rsd, in_m, in_sd / sqrt(2), in_rsd / sqrt(2));
        free(all);
        sub_free(&D);
        proper_annot_free(&a);
        proper_annot_free(&d);
    }
    for (i = 0; i < 3; i++) free(b[i]);
    proper_annot_log_free(&L);
    return 0;
}

/* The recorder's CPU cost per scope and per nested scope, from the log's
 * header comment. */
static void print_overhead(const char *path) {
    char line[256];
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "# from cpu:", 11) || !strncmp(line, "# recorder cost", 15)) printf("%s", line);
    if (f) fclose(f);
}

/* outer - inner of tight nested scopes around w ns of work, both clocks. */
static int nested_sweep(proper_error *err) {
    static const double works[] = {0, 1000, 10000, 100000, 300000};
    enum { N = 400 };
    size_t wi, i;
    printf("tight nested scopes, %d calls each: outer - inner (ns), median [10%%, 90%%]\n", N);
    for (wi = 0; wi < sizeof works / sizeof works[0]; wi++) {
        proper_annot_writer *w;
        proper_annot_recorder r;
        double dc[N], dw[N];
        int fi, fo, rc;
        if ((rc = proper_annot_writer_open(&w, "", N, PROPER_ANNOT_M_CPU, 1, err))) return rc;
        fi = proper_annot_writer_function(w, "inner", "", err);
        fo = proper_annot_writer_function(w, "outer", "", err);
        proper_annot_recorder_init(&r, w, err);
        for (i = 0; i < N; i++) {
            proper_annot_begin(&r, fo);
            proper_annot_begin(&r, fi);
            spin(works[wi]);
            proper_annot_end(&r);
            proper_annot_end(&r);
        }
        /* the recorder's reservoirs hold every call in order (N fit): rows are (time, cpu) */
        for (i = 0; i < N; i++) {
            dw[i] = r.res[fo].rows[2 * i] - r.res[fi].rows[2 * i];
            dc[i] = r.res[fo].rows[2 * i + 1] - r.res[fi].rows[2 * i + 1];
        }
        qsort(dw, N, sizeof *dw, cmp_double);
        qsort(dc, N, sizeof *dc, cmp_double);
        printf("  work %6.0f ns   cpu %5.0f [%5.0f, %5.0f]   wall %5.0f [%5.0f, %5.0f]\n", works[wi], dc[N / 2],
               dc[N / 10], dc[9 * N / 10], dw[N / 2], dw[N / 10], dw[9 * N / 10]);
        proper_annot_recorder_free(&r);
        proper_annot_writer_close(w, err);
    }
    return 0;
}

int main(int argc, char **argv) {
    size_t calls = argc > 1 ? (size_t)atol(argv[1]) : 2000;
    const char *dir = argc > 2 ? argv[2] : "/tmp";
    char ps[4096], pi[4096];
    proper_error err;
    double min_seq, min_int;
    int rc;
    if (argc > 3) metric = argv[3];
    if (calls < 10) {
        fprintf(stderr, "double: CALLS must be at least 10\n");
        return 2;
    }
    snprintf(ps, sizeof ps, "%s/annot-double-sequential.log", dir);
    snprintf(pi, sizeof pi, "%s/annot-double-interleaved.log", dir);
    calibrate();
    if (nested_sweep(&err) || record(ps, 0, calls, &err) || record(pi, 1, calls, &err)) {
        char msg[800];
        fprintf(stderr, "double: %s\n", proper_error_format(&err, msg, sizeof msg));
        return 2;
    }
    print_overhead(pi);
    printf("metric %s, %zu calls per configuration; SDs and differences in ns\n", metric, calls);
    printf("%-11s %-9s %7s %7s %7s %7s %8s %8s %8s %7s %7s %7s %8s %8s %8s\n", "schedule", "function", "R2 n>d",
           "R2 d>d", "R2 d>n", "R2 n>n", "sd norm", "sd inner", "sd outer", "o-i", "o-i sd", "o-i rsd", "i-n",
           "i-n sd", "i-n rsd");
    printf("(R2 x>y: the annotation of log x on log y; n normal, d double; i-n sd and rsd divided by sqrt 2)\n");
    if ((rc = analyse(ps, "sequential", calls, &min_seq)) || (rc = analyse(pi, "interleaved", calls, &min_int)))
        return rc;
    printf("summary: min R2 across normal/double: sequential %.4f, interleaved %.4f\n", min_seq, min_int);
    return min_int >= 0.98 ? 0 : 1;
}
