/* bench_lp.c — the native simplex (lp.h) against GLPK's glpsol on the same
 * LP files: the queueing-network topology LPs of qn.h (eqs. 4.5-4.8) for
 * random networks of M = 5, 10, 15, 20 stations, one trace of H = 200
 * one-step changes each (rows M + 200 M, columns M^2 + 400 M).
 *
 * Each LP is written to a CPLEX LP file once; then
 *   native: read the file (proper_lp_read_cplex) and solve (proper_lp_solve),
 *           best of 3 runs;
 *   glpsol: `glpsol --lp FILE -w SOL` as a subprocess (its default options:
 *           presolver, scaling, primal simplex with steepest edge), one run.
 *   fit:    proper_qn_fit_lp on the same traces (no file): above
 *           PROPER_QN_LAD_MIN_ROWS data rows it solves reduced LPs of the
 *           rows nearest a sign change (qn.h, the topology LP by row
 *           subsets), and reaches the same optimum; one run, CPU seconds.
 * Reported: wall-clock and CPU seconds of both (glpsol's CPU from
 * RUSAGE_CHILDREN), the ratio glpsol / native (> 1: native is faster), the
 * relative difference of the two objectives, and the fit's CPU time with
 * glpsol's CPU / the fit's and its objective's difference from glpsol's.
 *
 *   bench_lp [--traces T] [--max-m M] [--only-m M] [--reps R]
 *            [--glpsol-limit S] [--seed S] [--keep DIR]
 * --traces T stacks T traces per LP (default 1); --max-m stops after the
 * networks of up to M stations, --only-m runs the one network of M
 * stations; --reps R takes the native solve's best of R runs (3);
 * --glpsol-limit S passes --tmlim S to glpsol: when glpsol stops there its
 * objective is nan and its times (and the ratios) are lower bounds, marked
 * ">" ; --keep writes the LP files into DIR and leaves them there.
 *
 * The M = 20 fit of docs/qn-results.md ("Speed of the topology LP fit"):
 *   bench_lp --traces 20 --only-m 20 --reps 1 --glpsol-limit 1200
 */
#include "bench.h"
#define PROPER_IMPLEMENTATION
#include "../src/qn.h"
#include "../src/backend.h"
#include "../backends/glpk.h"

#include <sys/resource.h>

static double wall(void) { return bench_now(BENCH_WALL); }
static double cpu_self(void) { return bench_now(BENCH_PROCESS_CPU); }

static double cpu_children(void) {
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
           1e-6 * (double)ru.ru_stime.tv_usec;
}

static int write_lp(const proper_lp *lp, const char *path, proper_error *err) {
    FILE *f = fopen(path, "wb");
    int rc;
    if (!f) return proper_error_set(err, PROPER_EIO, path, 0, 0, "cannot open for writing");
    rc = proper_lp_write_cplex(lp, f, err);
    if (fclose(f) != 0 && !rc) rc = proper_error_set(err, PROPER_EIO, path, 0, 0, "write failed");
    return rc;
}

/* Rates in [1, 100], servers in [1, 64], station 1 a delay, dense routing
 * without self-loops (the thesis's random networks). */
static void random_network(proper_qn *q, size_t M, proper_rng *rng) {
    size_t i, j;
    proper_qn_init(q);
    proper_qn_create(q, M, NULL);
    for (i = 0; i < M; i++) {
        double s = 0;
        q->rates[i] = 1 + 99 * proper_rng_uniform(rng);
        q->servers[i] = i == 0 ? INFINITY : (double)(1 + proper_rng_below(rng, 64));
        for (j = 0; j < M; j++) s += q->routing[i * M + j] = i == j ? 0 : proper_rng_uniform(rng);
        for (j = 0; j < M; j++) q->routing[i * M + j] /= s;
    }
}

int main(int argc, char **argv) {
    static const size_t Ms[4] = {5, 10, 15, 20};
    size_t traces = 1, max_m = 20, only_m = 0, reps = 3, mi, t, i;
    double glpsol_limit = 0;
    unsigned long long seed = 2024;
    const char *keep = NULL;
    char glpsol[PROPER_BACKEND_PATH_MAX];
    proper_backend_tmpdir dir;
    proper_error err;
    int have_glpsol, a;
    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--traces") == 0 && a + 1 < argc) traces = (size_t)strtoul(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc) seed = strtoull(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--max-m") == 0 && a + 1 < argc) max_m = (size_t)strtoul(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--only-m") == 0 && a + 1 < argc) only_m = (size_t)strtoul(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--reps") == 0 && a + 1 < argc) reps = (size_t)strtoul(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--glpsol-limit") == 0 && a + 1 < argc) glpsol_limit = strtod(argv[++a], NULL);
        else if (strcmp(argv[a], "--keep") == 0 && a + 1 < argc) keep = argv[++a];
        else {
            fprintf(stderr, "usage: bench_lp [--traces T] [--max-m M] [--only-m M] [--reps R] [--glpsol-limit S] "
                            "[--seed S] [--keep DIR]\n");
            return 2;
        }
    }
    if (traces == 0) traces = 1;
    if (reps == 0) reps = 1;
    have_glpsol = proper_backend_find_binary("PROPER_GLPSOL", "glpsol", glpsol, sizeof glpsol, &err) == 0;
    if (!keep && proper_backend_tmpdir_create(&dir, &err)) { fprintf(stderr, "%s\n", err.message); return 1; }
    printf("QN topology LPs (eqs. 4.5-4.8), %zu trace(s) of H = 200 steps; native = read + solve, best of %zu\n", traces,
           reps);
    printf("%4s %7s %7s %7s | %9s %9s %6s | %9s %9s | %8s %8s | %9s | %8s %8s %9s\n", "M", "rows", "cols", "iters",
           "nat wall", "nat cpu", "solve", "glp wall", "glp cpu", "wall x", "cpu x", "obj diff", "fit cpu", "fit x",
           "fit diff");
    for (mi = 0; mi < 4 && Ms[mi] <= max_m; mi++) {
        size_t M = Ms[mi];
        proper_qn q;
        proper_qn_trace *tr = (proper_qn_trace *)calloc(traces, sizeof *tr);
        proper_rng rng;
        proper_lp lp;
        char path[PROPER_BACKEND_PATH_MAX], solpath[PROPER_BACKEND_PATH_MAX];
        double best_wall = INFINITY, best_cpu = INFINITY, best_solve = INFINITY, nat_obj = NAN, glp_obj = NAN;
        double gwall = NAN, gcpu = NAN, fit_cpu = NAN, fit_obj = NAN;
        size_t iters = 0, rows, cols;
        int glpsol_stopped = 0;
        size_t rep;
        char tmlim[32];
        if (only_m && M != only_m) continue;
        proper_lp_init(&lp);
        proper_rng_seed(&rng, seed + M);
        random_network(&q, M, &rng);
        for (t = 0; t < traces; t++) {
            unsigned long x0[20];
            for (i = 0; i < M; i++) x0[i] = (unsigned long)proper_rng_below(&rng, i == 0 ? 100 : (uint64_t)(2 * q.servers[i] + 1));
            if (proper_qn_simulate(&q, x0, 0.01, 201, 20, &rng, &tr[t], NULL, &err)) { fprintf(stderr, "%s\n", err.message); return 1; }
        }
        if (proper_qn_build_lp(tr, traces, q.servers, PROPER_QN_EULER, &lp, &err)) { fprintf(stderr, "%s\n", err.message); return 1; }
        rows = lp.nrows;
        cols = lp.ncols;
        if (keep) snprintf(path, sizeof path, "%s/qn_M%zu.lp", keep, M);
        else proper_backend_tmpdir_file(&dir, "qn.lp", path, sizeof path, &err);
        if (write_lp(&lp, path, &err)) { fprintf(stderr, "%s\n", err.message); return 1; }
        proper_lp_free(&lp);
        for (rep = 0; rep < reps; rep++) {
            double w0 = wall(), c0 = cpu_self(), w1;
            char *text;
            size_t len;
            proper_lp_solution sol;
            proper_lp back;
            proper_lp_solution_init(&sol);
            proper_lp_init(&back);
            if (proper_lp_read_cplex(&back, path, &err)) {
                fprintf(stderr, "%s\n", err.message);
                return 1;
            }
            w1 = wall();
            if (proper_lp_solve(&back, NULL, &sol, &err)) { fprintf(stderr, "native: %s\n", err.message); return 1; }
            if (wall() - w1 < best_solve) best_solve = wall() - w1;
            if (wall() - w0 < best_wall) best_wall = wall() - w0;
            if (cpu_self() - c0 < best_cpu) best_cpu = cpu_self() - c0;
            nat_obj = sol.objective;
            iters = sol.iterations;
            proper_lp_solution_free(&sol);
            if (rep + 1 == reps && have_glpsol) {
                const char *gargv[8];
                proper_backend_run_result res;
                double cc0 = cpu_children();
                int undefined;
                proper_backend_run_result_init(&res);
                snprintf(solpath, sizeof solpath, "%.4000s.sol", path);
                gargv[0] = glpsol; gargv[1] = "--lp"; gargv[2] = path; gargv[3] = "-w"; gargv[4] = solpath; gargv[5] = NULL;
                if (glpsol_limit > 0) {
                    snprintf(tmlim, sizeof tmlim, "%.0f", glpsol_limit);
                    gargv[5] = "--tmlim"; gargv[6] = tmlim; gargv[7] = NULL;
                }
                if (proper_backend_run(gargv, NULL, &res, &err) == 0 && res.exited && res.exit_code == 0) {
                    gwall = res.seconds;
                    gcpu = cpu_children() - cc0;
                    glpsol_stopped = res.out && strstr(res.out, "TIME LIMIT EXCEEDED") != NULL;
                    if (!glpsol_stopped && proper_read_file(solpath, &text, &len, &err) == 0) {
                        if (proper_glpsol_parse_solution(text, len, solpath, &back, &sol, &undefined, &err) == 0)
                            glp_obj = sol.objective;
                        proper_lp_solution_free(&sol);
                        free(text);
                    }
                }
                proper_backend_run_result_free(&res);
                if (!keep) remove(solpath);
            }
            proper_lp_free(&back);
        }
        {
            proper_qn fit;
            proper_qn_fit_result res;
            double c0 = cpu_self();
            proper_qn_init(&fit);
            if (proper_qn_fit_lp(tr, traces, q.servers, PROPER_QN_EULER, NULL, NULL, &fit, &res, &err)) {
                fprintf(stderr, "fit: %s\n", err.message);
                return 1;
            }
            fit_cpu = cpu_self() - c0;
            fit_obj = res.objective;
            proper_qn_free(&fit);
        }
        {
            const char *gt = glpsol_stopped ? ">" : " ";
            printf("%4zu %7zu %7zu %7zu | %9.3f %9.3f %6.3f | %s%8.3f %s%8.3f | %s%7.2f %s%7.2f | %9.2e | %8.3f %s%7.2f %9.2e\n",
                   M, rows, cols, iters, best_wall, best_cpu, best_solve, gt, gwall, gt, gcpu, gt, gwall / best_wall, gt,
                   gcpu / best_cpu, fabs(nat_obj - glp_obj) / fabs(glp_obj), fit_cpu, gt, gcpu / fit_cpu,
                   fabs(fit_obj - glp_obj) / fabs(glp_obj));
            if (glpsol_stopped)
                printf("     glpsol stopped at --tmlim %g without an optimum; native whole-LP objective %.12g, fit %.12g "
                       "(relative difference %.1e)\n",
                       glpsol_limit, nat_obj, fit_obj, fabs(fit_obj - nat_obj) / fabs(nat_obj));
        }
        fflush(stdout);
        for (t = 0; t < traces; t++) proper_qn_trace_free(&tr[t]);
        free(tr);
        proper_qn_free(&q);
    }
    if (!have_glpsol) printf("glpsol not found: its columns are nan (install glpk-utils or set PROPER_GLPSOL)\n");
    printf("x = glpsol time / native time (> 1: native faster); obj diff = |native - glpsol| / |glpsol|;\n"
           "fit: proper_qn_fit_lp's CPU seconds (row subsets above PROPER_QN_LAD_MIN_ROWS data rows), fit x =\n"
           "glpsol CPU / fit CPU, fit diff = |fit objective - glpsol| / |glpsol|\n");
    if (!keep) proper_backend_tmpdir_remove(&dir, &err);
    return 0;
}
