/* bench_sre.c — time to evaluate each web-server scenario's SRE (the paper's
 * model `handle` of examples/webserver/SCENARIO.sre on the bundled traces) at
 * several grid widths, next to:
 *   - Koziolek & Firus 2007's reported times for their prediction at widths
 *     1, 5, 10 and 50 µs: 103 s, 7 s, 3 s and 2 s (as quoted in issue 3);
 *   - a naive evaluator measured in the same run: the same expression with
 *     direct O(n·m) convolutions, every loop iteration convolved one by one,
 *     no sharing of sub-expressions.
 * Both start from the same loaded traces (reading the trace files is done
 * once, before timing; building the step PMFs at each width is timed) and
 * truncate with the same epsilon; the bench checks that they agree.
 *
 * Our server's service takes ~15-20 µs, not the paper's milliseconds, so at
 * the paper's widths our PMFs have few bins; the table also times the widths
 * that fit our data (10 ns = the traces' clock step, up to 500 ns) and prints
 * each result's number of bins so the sizes can be compared. Target (issue
 * 3): the finest width under 50 ms. Clock (wall) and medians come from
 * bench/bench.h. */
#include "bench.h"
#define PROPER_IMPLEMENTATION
#include "../src/sre.h"

#include <stdio.h>
#include <stdlib.h>

#define REPEATS 5          /* median of, for the fast evaluator */
#define NAIVE_BUDGET_S 2.0 /* skip the naive evaluator where one run would exceed this */
#define NAIVE_REPEATS 3    /* median of, where a run is cheap */

/* ---- the naive evaluator ---- */

typedef struct scenario {
    const char *name;
    proper_trace trace;
} scenario;

static void die(const proper_error *err) {
    char buf[1024];
    fprintf(stderr, "bench_sre: %s\n", proper_error_format(err, buf, sizeof buf));
    exit(1);
}

static void step_pmf(const scenario *sc, const char *step, double w, proper_pmf *out) {
    const proper_trace_step_stats *st = proper_trace_find_step(&sc->trace, step);
    proper_error err;
    double *xs;
    size_t i;
    if (!st) { fprintf(stderr, "bench_sre: %s has no step %s\n", sc->name, step); exit(1); }
    xs = (double *)malloc(st->n * sizeof *xs);
    for (i = 0; i < st->n; i++) xs[i] = st->ns[i] / PROPER_SRE_NS_PER_UNIT;
    if (proper_pmf_from_samples(out, xs, st->n, w, &err)) die(&err);
    free(xs);
}

/* acc = acc (+) step, by direct convolution */
static void then(const scenario *sc, proper_pmf *acc, const char *step, double w) {
    proper_pmf x;
    proper_error err;
    proper_pmf_init(&x);
    step_pmf(sc, step, w, &x);
    if (proper_pmf_convolve_direct(acc, acc, &x, &err)) die(&err);
    proper_pmf_truncate(acc, PROPER_SRE_DEFAULT_TRUNCATE_EPS);
    proper_pmf_free(&x);
}

/* acc = acc (+) body^{*N}, N from the trace's loop histogram: each
 * iteration count's k-fold sum by k direct convolutions, then mixed. */
static void then_loop(const scenario *sc, proper_pmf *acc, const char *step, const char *loop, double w) {
    const proper_trace_loop_stats *ls = proper_trace_find_loop(&sc->trace, loop);
    proper_pmf body, power, mix;
    proper_error err;
    size_t k, j;
    int have = 0;
    double so_far = 0.0;
    proper_pmf_init(&body);
    proper_pmf_init(&power);
    proper_pmf_init(&mix);
    step_pmf(sc, step, w, &body);
    for (k = 0; k < ls->len; k++) {
        const proper_pmf *parts[2];
        double weights[2], pk = (double)ls->counts[k] / (double)ls->total;
        if (ls->counts[k] == 0) continue;
        if (proper_pmf_point(&power, 0.0, w, &err)) die(&err);
        for (j = 0; j < k; j++) {
            if (proper_pmf_convolve_direct(&power, &power, &body, &err)) die(&err);
            proper_pmf_truncate(&power, PROPER_SRE_DEFAULT_TRUNCATE_EPS);
        }
        if (!have) {
            if (proper_pmf_copy(&mix, &power, &err)) die(&err);
            have = 1;
            so_far = pk;
        } else {
            parts[0] = &mix;
            parts[1] = &power;
            weights[0] = so_far / (so_far + pk);
            weights[1] = pk / (so_far + pk);
            if (proper_pmf_mixture(&mix, parts, weights, 2, &err)) die(&err);
            so_far += pk;
        }
    }
    if (proper_pmf_convolve_direct(acc, acc, &mix, &err)) die(&err);
    proper_pmf_truncate(acc, PROPER_SRE_DEFAULT_TRUNCATE_EPS);
    proper_pmf_free(&body);
    proper_pmf_free(&power);
    proper_pmf_free(&mix);
}

static void deliver(const scenario *sc, proper_pmf *acc, double w) {
    then(sc, acc, "writeLog", w);
    then(sc, acc, "openFile", w);
    then(sc, acc, "sendHeader", w);
    then(sc, acc, "sendContent", w);
}

/* The scenario's `handle`, evaluated naively. */
static void naive(const scenario *sc, double w, proper_pmf *out) {
    proper_error err;
    proper_pmf_init(out);
    step_pmf(sc, "buildPath", w, out);
    then(sc, out, "checkTarget", w);
    if (strcmp(sc->name, "loop") == 0) {
        then(sc, out, "readDefaults", w);
        then_loop(sc, out, "probeDefault", "probe", w);
        deliver(sc, out, w);
    } else if (strcmp(sc->name, "alternative") == 0) {
        const proper_trace_branch_stats *b = proper_trace_find_branch(&sc->trace, "target");
        double p_file = (double)proper_trace_branch_count(b, "file") / (double)b->total, weights[2];
        proper_pmf file, dir;
        const proper_pmf *parts[2];
        proper_pmf_init(&file);
        proper_pmf_init(&dir);
        if (proper_pmf_copy(&file, out, &err) || proper_pmf_copy(&dir, out, &err)) die(&err);
        deliver(sc, &file, w);
        then(sc, &dir, "readDefaults", w);
        then_loop(sc, &dir, "probeDefault", "probe", w);
        deliver(sc, &dir, w);
        parts[0] = &file;
        parts[1] = &dir;
        weights[0] = p_file;
        weights[1] = 1.0 - p_file;
        if (proper_pmf_mixture(out, parts, weights, 2, &err)) die(&err);
        proper_pmf_free(&file);
        proper_pmf_free(&dir);
    } else {
        deliver(sc, out, w);
    }
}

/* ---- timing ---- */

static double time_sre(proper_sre *model, double w, proper_pmf *out) {
    proper_sre_opts opt = proper_sre_opts_default();
    proper_error err;
    double t[REPEATS];
    int r;
    opt.width = w;
    for (r = 0; r < REPEATS; r++) {
        double t0 = bench_now(BENCH_WALL);
        if (r) proper_pmf_free(out);
        if (proper_sre_eval(model, "handle", &opt, out, &err)) die(&err);
        t[r] = bench_now(BENCH_WALL) - t0;
    }
    return bench_summarize(t, REPEATS, 1).median;
}

int main(void) {
    static const char *const names[] = {"sequence", "alternative", "loop", "concurrent"};
    /* the paper's widths (µs) with its times (s), then widths that fit our
     * ~15 µs service (no paper figure) */
    static const double widths[] = {50, 10, 5, 1, 0.5, 0.1, 0.05, 0.01};
    static const double paper_s[] = {2, 3, 7, 103, 0, 0, 0, 0};
    size_t si, wi;
    double finest = 0.0;
    printf("SRE evaluation time of `handle` per scenario (median of %d; naive: direct convolution per\n"
           "iteration, no sharing, median of up to %d, skipped where predicted above %.0f s);\n"
           "paper: Koziolek & Firus 2007\n\n",
           REPEATS, NAIVE_REPEATS, NAIVE_BUDGET_S);
    printf("%-10s %-12s %8s %12s %12s %10s %9s %12s %10s\n", "width(us)", "scenario", "bins", "proper(ms)", "naive(ms)",
           "naive/pr", "paper(s)", "paper/pr", "|dmean|");
    for (si = 0; si < sizeof names / sizeof names[0]; si++) {
        scenario sc;
        proper_sre model;
        proper_error err;
        char path[256];
        double naive_prev = 0.0, w_prev = 0.0; /* the naive evaluator's last time and width */
        sc.name = names[si];
        proper_trace_init(&sc.trace);
        snprintf(path, sizeof path, "data/webserver/%s.trace", sc.name);
        if (proper_trace_read(&sc.trace, path, &err)) die(&err);
        snprintf(path, sizeof path, "examples/webserver/%s.sre", sc.name);
        proper_sre_init(&model);
        if (proper_sre_read(&model, path, &err)) die(&err);
        for (wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
            double w = widths[wi], ts, tn = -1.0, dmean = NAN;
            proper_pmf fast, slow;
            proper_pmf_init(&fast);
            proper_pmf_init(&slow);
            ts = time_sre(&model, w, &fast); /* the first run also loads the trace once */
            /* direct convolution costs grow with the square of the bins */
            if (naive_prev * (w_prev / w) * (w_prev / w) <= NAIVE_BUDGET_S) {
                double t[NAIVE_REPEATS];
                int runs = 0;
                do { /* median of up to NAIVE_REPEATS runs, while they are cheap */
                    double t0 = bench_now(BENCH_WALL);
                    if (runs) proper_pmf_free(&slow);
                    naive(&sc, w, &slow);
                    t[runs++] = bench_now(BENCH_WALL) - t0;
                } while (runs < NAIVE_REPEATS && t[runs - 1] * NAIVE_REPEATS < NAIVE_BUDGET_S / 4);
                tn = bench_summarize(t, runs, 1).median;
                dmean = fabs(proper_pmf_mean(&slow) - proper_pmf_mean(&fast));
                naive_prev = tn;
                w_prev = w;
            }
            if (w == 0.01 && ts > finest) finest = ts;
            printf("%-10g %-12s %8lu %12.3f ", w, sc.name, (unsigned long)fast.n, 1e3 * ts);
            if (tn >= 0) printf("%12.3f %10.1f", 1e3 * tn, tn / ts);
            else printf("%12s %10s", "skipped", "");
            if (paper_s[wi] > 0) printf(" %9g %12.3g", paper_s[wi], paper_s[wi] / ts);
            else printf(" %9s %12s", "-", "");
            if (tn >= 0) printf(" %10.2g\n", dmean);
            else printf(" %10s\n", "");
            proper_pmf_free(&fast);
            proper_pmf_free(&slow);
        }
        proper_sre_free(&model);
        proper_trace_free(&sc.trace);
    }
    printf("\nfinest width (0.01 us = the traces' clock step): slowest scenario %.3f ms (target: under 50 ms)\n",
           1e3 * finest);
    return 0;
}
