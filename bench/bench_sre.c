/* bench_sre.c — time to evaluate each web-server scenario's SRE (the paper's
 * model `handle` of examples/webserver/SCENARIO.sre) at several grid widths,
 * next to:
 *   - Koziolek & Firus 2007's reported computation times: 103 s, 7 s, 3 s
 *     and 2 s for scenario 1 at sampling rates (widths) 1, 5, 10 and 50 µs
 *     (paper, section 3.4.2), and 3 s, 7 s, 3 s for scenarios 1, 2, 3 at
 *     width 10 µs (section 3.4.3);
 *   - a naive evaluator measured in the same run: the same expression with
 *     direct O(n·m) convolutions, every loop iteration convolved one by one,
 *     no sharing of sub-expressions.
 * Both start from the same loaded traces (reading the trace files is done
 * once, before timing; building the step PMFs at each width is timed) and
 * truncate with the same epsilon; the bench checks that they agree.
 *
 *   bench_sre [--variant fast|ms] [--root DIR] [--quick]
 *
 * Variants: `fast` (default) is the bundled server as recorded in
 * data/webserver/ (a ~15-20 µs service: at the paper's widths its PMFs have
 * few bins, so it also times the widths that fit it, down to 10 ns = the
 * traces' clock step; target: the finest under 50 ms); `ms` is the
 * slow-disk server of data/webserver/ms/ (server --read-size 10 --probe scan: a ~2-8 ms
 * service, the paper's range), timed at the paper's widths and 0.1 µs, the
 * like-for-like comparison. --root: where examples/ and data/ are (default
 * "."), e.g. a copy holding freshly recorded traces. --quick: one run each
 * and no naive evaluator (a smoke test). Wall clock and medians from
 * bench/bench.h. */
#include "bench.h"
#define PROPER_IMPLEMENTATION
#include "../src/sre.h"

#include <stdio.h>
#include <stdlib.h>

#define REPEATS 5          /* median of, for the fast evaluator (1 with --quick) */
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

static double time_sre(proper_sre *model, double w, int repeats, proper_pmf *out) {
    proper_sre_opts opt = proper_sre_opts_default();
    proper_error err;
    double t[REPEATS];
    int r;
    opt.width = w;
    for (r = 0; r < repeats; r++) {
        double t0 = bench_now(BENCH_WALL);
        if (r) proper_pmf_free(out);
        if (proper_sre_eval(model, "handle", &opt, out, &err)) die(&err);
        t[r] = bench_now(BENCH_WALL) - t0;
    }
    return bench_summarize(t, repeats, 1).median;
}

/* What one run measures. */
typedef struct variant {
    const char *name, *models, *traces; /* directories under the root */
    const char *const *scenarios;
    size_t n_scenarios;
    const double *widths;
    size_t n_widths;
} variant;

/* The paper's time (s) for scenario `name` at width w, 0 if it reports none:
 * section 3.4.2 (scenario 1 at 1, 5, 10, 50 µs) and 3.4.3 (each scenario at 10 µs). */
static double paper_seconds(const char *name, double w) {
    if (strcmp(name, "sequence") == 0) return w == 1 ? 103 : w == 5 ? 7 : w == 10 ? 3 : w == 50 ? 2 : 0;
    if (w != 10) return 0;
    return strcmp(name, "alternative") == 0 ? 7 : strcmp(name, "loop") == 0 ? 3 : 0;
}

/* The naive evaluator's median time on sc at width w, with its result in
 * *slow; -1 when skipped because direct convolution (quadratic in the bins)
 * would take longer than NAIVE_BUDGET_S, judged from its last run at w_prev. */
static double time_naive(const scenario *sc, double w, double *naive_prev, double *w_prev, proper_pmf *slow) {
    double t[NAIVE_REPEATS], tn;
    int runs = 0;
    if (*naive_prev * (*w_prev / w) * (*w_prev / w) > NAIVE_BUDGET_S) return -1.0;
    do { /* median of up to NAIVE_REPEATS runs, while they are cheap */
        double t0 = bench_now(BENCH_WALL);
        if (runs) proper_pmf_free(slow);
        naive(sc, w, slow);
        t[runs++] = bench_now(BENCH_WALL) - t0;
    } while (runs < NAIVE_REPEATS && t[runs - 1] * NAIVE_REPEATS < NAIVE_BUDGET_S / 4);
    tn = bench_summarize(t, runs, 1).median;
    *naive_prev = tn;
    *w_prev = w;
    return tn;
}

/* One scenario at every width of v; returns its time at the finest width. */
static double bench_scenario(const variant *v, const char *root, const char *name, int quick) {
    scenario sc;
    proper_sre model;
    proper_error err;
    char path[1024];
    double naive_prev = 0.0, w_prev = 0.0, finest = 0.0;
    size_t wi;
    sc.name = name;
    proper_trace_init(&sc.trace);
    snprintf(path, sizeof path, "%s/%s/%s.trace", root, v->traces, name);
    if (proper_trace_read(&sc.trace, path, &err)) die(&err);
    snprintf(path, sizeof path, "%s/%s/%s.sre", root, v->models, name);
    proper_sre_init(&model);
    if (proper_sre_read(&model, path, &err)) die(&err);
    {   /* load the model's traces (cached in the model) before any timing */
        proper_pmf warm;
        proper_pmf_init(&warm);
        time_sre(&model, v->widths[0], 1, &warm);
        proper_pmf_free(&warm);
    }
    for (wi = 0; wi < v->n_widths; wi++) {
        double w = v->widths[wi], ts, tn = -1.0, dmean = NAN, paper = paper_seconds(name, w);
        proper_pmf fast, slow;
        proper_pmf_init(&fast);
        proper_pmf_init(&slow);
        ts = time_sre(&model, w, quick ? 1 : REPEATS, &fast);
        if (!quick) tn = time_naive(&sc, w, &naive_prev, &w_prev, &slow);
        if (tn >= 0) dmean = fabs(proper_pmf_mean(&slow) - proper_pmf_mean(&fast));
        finest = ts;
        printf("%-10g %-12s %8lu %12.3f ", w, name, (unsigned long)fast.n, 1e3 * ts);
        /* "-" where there is no figure: every line has the same columns */
        if (tn >= 0) printf("%12.3f %10.1f", 1e3 * tn, tn / ts);
        else printf("%12s %10s", "skipped", "-");
        if (paper > 0) printf(" %9g %12.3g", paper, paper / ts);
        else printf(" %9s %12s", "-", "-");
        if (tn >= 0) printf(" %10.2g\n", dmean);
        else printf(" %10s\n", "-");
        proper_pmf_free(&fast);
        proper_pmf_free(&slow);
    }
    proper_sre_free(&model);
    proper_trace_free(&sc.trace);
    return finest;
}

static void usage_exit(void) {
    fprintf(stderr, "usage: bench_sre [--variant fast|ms] [--root DIR] [--quick]\n");
    exit(2);
}

int main(int argc, char **argv) {
    static const char *const all[] = {"sequence", "alternative", "loop", "concurrent"};
    /* the paper's widths (µs), then widths that fit the fast server's ~15 µs service */
    static const double fast_widths[] = {50, 10, 5, 1, 0.5, 0.1, 0.05, 0.01};
    static const double ms_widths[] = {50, 10, 5, 1, 0.1};
    static const variant variants[] = {
        {"fast", "examples/webserver", "data/webserver", all, 4, fast_widths, 8},
        {"ms", "examples/webserver/ms", "data/webserver/ms", all, 3, ms_widths, 5},
    };
    const variant *v = &variants[0];
    const char *root = ".";
    double finest = 0.0;
    int quick = 0, i;
    size_t si;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--root") == 0 && i + 1 < argc) root = argv[++i];
        else if (strcmp(argv[i], "--variant") == 0 && i + 1 < argc) {
            i++;
            if (strcmp(argv[i], "ms") == 0) v = &variants[1];
            else if (strcmp(argv[i], "fast") != 0) usage_exit();
        } else usage_exit();
    }
    printf("SRE evaluation time of `handle` per scenario, %s server (%s); median of %d; naive: direct\n"
           "convolution per iteration, no sharing, median of up to %d, skipped where predicted above %.0f s%s;\n"
           "paper: Koziolek & Firus 2007, sections 3.4.2-3.4.3\n\n",
           v->name, v->traces, quick ? 1 : REPEATS, NAIVE_REPEATS, NAIVE_BUDGET_S, quick ? " (not run: --quick)" : "");
    printf("%-10s %-12s %8s %12s %12s %10s %9s %12s %10s\n", "width(us)", "scenario", "bins", "proper(ms)", "naive(ms)",
           "naive/pr", "paper(s)", "paper/pr", "|dmean|");
    for (si = 0; si < v->n_scenarios; si++) {
        double t = bench_scenario(v, root, v->scenarios[si], quick);
        if (t > finest) finest = t;
    }
    printf("\nfinest width (%g us): slowest scenario %.3f ms%s\n", v->widths[v->n_widths - 1], 1e3 * finest,
           v == &variants[0] ? " (target: under 50 ms)" : "");
    return 0;
}
