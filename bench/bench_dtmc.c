/* bench_dtmc.c — load + solve R{"time"}=? [ F "end" ] on generated DTMCs in
 * PRISM explicit files, 10^3 .. 10^6 states (10^7 with --max-exp 7), for
 * the three model families of bench/gen_dtmc.h (random sparse with local
 * successors; spread: successors anywhere; nested-loop blocks in series).
 *
 * Each measurement runs in its own child process, so that its peak resident
 * memory (getrusage ru_maxrss) is its own. Reported per model: load time
 * (.tra + .lab + .srew), solve time, both wall clock and CPU (the machine is
 * shared: CPU time is the steadier figure), peak memory and bytes per
 * transition, the value, and its relative error against a second method:
 *   nested: the closed form written by the generator (long double);
 *   random: Gauss–Seidel over the whole matrix in increasing state order
 *           (proper sweeps in decreasing order, component by component),
 *           run to a tail estimate below 1e-15 or the rounding floor.
 * Baseline, measured in the same run: plain Jacobi iteration on the whole
 * matrix (no graph precomputation, no SCCs) from the same loaded model with
 * the same stopping rule (relative change * rho / (1 - rho) <= 1e-12), capped
 * at 10,000 iterations (PRISM's default maximum) or 30 s; printed as the
 * ratio baseline time / proper's solve time.
 * Also in the same child: the solve as proper did it before its answers
 * carried proven bounds ("estimate": Gauss–Seidel stopped when the
 * estimated tail is below 1e-12, solve option sound = 0), printed as the
 * cost ratio of the certified solve (default, 1e-10 proven) to it, and the
 * proven bound at the initial state (init_error) relative to the value.
 *
 *   bench_dtmc [--max-exp E] [--min-exp E] [--only random|spread|nested] [--dir DIR] [--depth D] [--keep]
 *   bench_dtmc gen random|nested STATES SEED PREFIX [DEPTH]   (the generator)
 */
#include "bench.h"
#define PROPER_IMPLEMENTATION
#include "../src/dtmc.h"
#include "gen_dtmc.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BASELINE_MAX_ITERS 10000
#define BASELINE_MAX_SECONDS 30.0
#define REFERENCE_MAX_ITERS 20000
#define REFERENCE_MAX_SECONDS 120.0

typedef struct result {
    int ok;
    char msg[256];
    double load_wall, load_cpu, solve_wall, solve_cpu, value;
    long peak_kb;
    uint64_t states, trans;
    unsigned long sweeps;
    uint32_t comps, largest;
    double max_error, est_wall, est_cpu, est_value;
    /* baseline child */
    int converged;
    unsigned long iters;
    double reference;
    int reference_ok;
} result;

static long peak_kb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static int fail(result *r, const proper_error *err) {
    char buf[PROPER_ERROR_MESSAGE_MAX + PROPER_ERROR_FILE_MAX + 32];
    r->ok = 0;
    proper_error_format(err, buf, sizeof buf);
    buf[sizeof r->msg - 1] = '\0';
    memcpy(r->msg, buf, sizeof r->msg);
    return -1;
}

/* Load PREFIX.tra/.lab/.srew into m. */
static int load(const char *prefix, proper_dtmc *m, result *r) {
    char path[4200];
    proper_error err;
    proper_dtmc_init(m);
    snprintf(path, sizeof path, "%s.tra", prefix);
    if (proper_dtmc_read_tra(m, path, NULL, &err)) return fail(r, &err);
    snprintf(path, sizeof path, "%s.lab", prefix);
    if (proper_dtmc_read_lab(m, path, &err)) return fail(r, &err);
    snprintf(path, sizeof path, "%s.srew", prefix);
    if (proper_dtmc_read_srew(m, path, NULL, &err)) return fail(r, &err);
    r->states = m->n_states;
    r->trans = m->n_trans;
    return 0;
}

static void run_proper(const char *prefix, result *r) {
    proper_dtmc m;
    proper_error err;
    proper_bitset end;
    proper_dtmc_solve_stats st;
    double w0 = bench_now(BENCH_WALL), c0 = bench_now(BENCH_PROCESS_CPU), *x;
    long rw;
    if (load(prefix, &m, r)) return;
    r->load_wall = bench_now(BENCH_WALL) - w0;
    r->load_cpu = bench_now(BENCH_PROCESS_CPU) - c0;
    w0 = bench_now(BENCH_WALL);
    c0 = bench_now(BENCH_PROCESS_CPU);
    rw = proper_dtmc_find_reward(&m, "time");
    x = (double *)malloc(m.n_states * sizeof *x);
    proper_bitset_init(&end);
    if (rw < 0 || !x || proper_dtmc_label_get(&m, "end", &end, &err)) {
        snprintf(r->msg, sizeof r->msg, "model lacks reward \"time\" or label \"end\"");
        return;
    }
    if (proper_dtmc_reward_reach(&m, &m.rewards[rw], &end, NULL, x, &st, &err)) { fail(r, &err); return; }
    r->solve_wall = bench_now(BENCH_WALL) - w0;
    r->solve_cpu = bench_now(BENCH_PROCESS_CPU) - c0;
    r->value = proper_dtmc_value_at_init(&m, x);
    r->sweeps = st.sweeps;
    r->comps = st.n_components;
    r->largest = st.largest;
    r->max_error = st.init_error;
    r->peak_kb = peak_kb();
    {
        proper_dtmc_solve_opts o = proper_dtmc_solve_opts_default();
        o.sound = 0;
        o.rel_precision = 1e-12;
        w0 = bench_now(BENCH_WALL);
        c0 = bench_now(BENCH_PROCESS_CPU);
        if (proper_dtmc_reward_reach(&m, &m.rewards[rw], &end, &o, x, NULL, &err)) { fail(r, &err); return; }
        r->est_wall = bench_now(BENCH_WALL) - w0;
        r->est_cpu = bench_now(BENCH_PROCESS_CPU) - c0;
        r->est_value = proper_dtmc_value_at_init(&m, x);
    }
    r->ok = 1;
    proper_bitset_free(&end);
    free(x);
    proper_dtmc_free(&m);
}

/* One Jacobi sweep x_new = r + P x (x = 0 on end); returns the largest
 * change relative to the largest |x_new|. */
static double jacobi_sweep(const proper_dtmc *m, const double *rew, const proper_bitset *end, const double *x,
                           double *xn) {
    double maxdiff = 0.0, maxabs = 0.0;
    uint32_t s;
    for (s = 0; s < m->n_states; s++) {
        double v = 0.0, d;
        uint64_t k;
        if (!PROPER_BITSET_GET(end, s)) {
            v = rew[s];
            for (k = m->row[s]; k < m->row[s + 1]; k++) v += m->prob[k] * x[m->col[k]];
        }
        xn[s] = v;
        d = fabs(v - x[s]);
        if (d > maxdiff) maxdiff = d;
        if (fabs(v) > maxabs) maxabs = fabs(v);
    }
    return maxabs > 0.0 ? maxdiff / maxabs : maxdiff;
}

/* Reference for the random models: Gauss–Seidel over the whole matrix in
 * increasing state order (the opposite of proper's sweeps, and without its
 * graph precomputation or components), until the changes reach the rounding
 * floor or the tail estimate is below 1e-15. */
static int reference_gs(const proper_dtmc *m, const double *rew, const proper_bitset *end, double *x, double *out) {
    double hist[3] = {1, 1, 1}, prev = 0.0, best = INFINITY, w0 = bench_now(BENCH_WALL);
    unsigned long it, since_best = 0;
    uint32_t s;
    for (s = 0; s < m->n_states; s++) x[s] = 0.0;
    for (it = 1; it <= REFERENCE_MAX_ITERS && bench_now(BENCH_WALL) - w0 < REFERENCE_MAX_SECONDS; it++) {
        double maxdiff = 0.0, maxabs = 0.0, rel, rho;
        for (s = 0; s < m->n_states; s++) {
            double v = 0.0, self = 0.0;
            uint64_t k;
            if (PROPER_BITSET_GET(end, s)) continue;
            v = rew[s];
            for (k = m->row[s]; k < m->row[s + 1]; k++) {
                if (m->col[k] == s) self = m->prob[k];
                else v += m->prob[k] * x[m->col[k]];
            }
            v /= 1.0 - self;
            if (fabs(v - x[s]) > maxdiff) maxdiff = fabs(v - x[s]);
            if (fabs(v) > maxabs) maxabs = fabs(v);
            x[s] = v;
        }
        rel = maxabs > 0.0 ? maxdiff / maxabs : 0.0;
        if (rel < best) { best = rel; since_best = 0; } else since_best++;
        hist[0] = hist[1]; hist[1] = hist[2]; hist[2] = prev > 0.0 ? rel / prev : 1.0;
        prev = rel;
        rho = hist[0] > hist[1] ? hist[0] : hist[1];
        if (hist[2] > rho) rho = hist[2];
        if (rel == 0.0 || (it >= 4 && rho < 1.0 && rel * rho / (1.0 - rho) <= 1e-15) ||
            (since_best >= 50 && best <= 1e-15)) {
            *out = x[m->init];
            return 1;
        }
    }
    return 0;
}

/* Baseline: Jacobi with the solver's stopping rules at 1e-12 (tail
 * estimate, or rounding floor with the last clean rate), capped; then the
 * reference value when asked. */
static void run_baseline(const char *prefix, result *r, int want_reference) {
    proper_dtmc m;
    proper_error err;
    proper_bitset end;
    double *x, *xn, hist[3] = {1, 1, 1}, prev = 0.0, w0, c0, rho, best = INFINITY, clean = -1.0;
    unsigned long it, since_best = 0;
    long rw;
    if (load(prefix, &m, r)) return;
    rw = proper_dtmc_find_reward(&m, "time");
    x = (double *)calloc(m.n_states, sizeof *x);
    xn = (double *)calloc(m.n_states, sizeof *xn);
    proper_bitset_init(&end);
    if (rw < 0 || !x || !xn || proper_dtmc_label_get(&m, "end", &end, &err)) {
        snprintf(r->msg, sizeof r->msg, "baseline: cannot set up");
        return;
    }
    w0 = bench_now(BENCH_WALL);
    c0 = bench_now(BENCH_PROCESS_CPU);
    for (it = 1;; it++) {
        double rel = jacobi_sweep(&m, m.rewards[rw].state, &end, x, xn), *t = x;
        int done;
        x = xn;
        xn = t;
        if (rel < best) { best = rel; since_best = 0; } else since_best++;
        hist[0] = hist[1]; hist[1] = hist[2]; hist[2] = prev > 0.0 ? rel / prev : 1.0;
        prev = rel;
        rho = hist[0] > hist[1] ? hist[0] : hist[1];
        if (hist[2] > rho) rho = hist[2];
        if (it >= 4 && rho < 1.0 && since_best == 0) clean = rho;
        /* the solver's rules, rounding floor included */
        done = (it >= 4 && rho < 1.0 && rel * rho / (1.0 - rho) <= 1e-12) || rel == 0.0 ||
               (since_best >= 10 && clean >= 0.0 && best * clean / (1.0 - clean) <= 1e-12);
        if (done || it >= BASELINE_MAX_ITERS || bench_now(BENCH_WALL) - w0 > BASELINE_MAX_SECONDS) {
            r->solve_wall = bench_now(BENCH_WALL) - w0;
            r->solve_cpu = bench_now(BENCH_PROCESS_CPU) - c0;
            r->iters = it;
            r->converged = done;
            r->value = x[m.init];
            break;
        }
    }
    if (want_reference) r->reference_ok = reference_gs(&m, m.rewards[rw].state, &end, x, &r->reference);
    r->peak_kb = peak_kb();
    r->ok = 1;
    proper_bitset_free(&end);
    free(x);
    free(xn);
    proper_dtmc_free(&m);
}

/* Run fn in a child process; the result comes back through a pipe. */
static result in_child(void (*fn)(const char *, result *, int), const char *prefix, int flag) {
    result r;
    int fd[2];
    pid_t pid;
    memset(&r, 0, sizeof r);
    if (pipe(fd) != 0) { snprintf(r.msg, sizeof r.msg, "pipe failed"); return r; }
    pid = fork();
    if (pid < 0) { snprintf(r.msg, sizeof r.msg, "fork failed"); return r; }
    if (pid == 0) {
        close(fd[0]);
        fn(prefix, &r, flag);
        if (write(fd[1], &r, sizeof r) != (ssize_t)sizeof r) _exit(1);
        _exit(0);
    }
    close(fd[1]);
    if (read(fd[0], &r, sizeof r) != (ssize_t)sizeof r) {
        memset(&r, 0, sizeof r);
        snprintf(r.msg, sizeof r.msg, "child died (out of memory?)");
    }
    close(fd[0]);
    waitpid(pid, NULL, 0);
    return r;
}

static void run_proper_flag(const char *prefix, result *r, int flag) { (void)flag; run_proper(prefix, r); }

static int on_path(const char *name) {
    const char *path = getenv("PATH");
    char buf[4096];
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, name);
        if (access(buf, X_OK) == 0) return 1;
        path = colon ? colon + 1 : NULL;
    }
    return 0;
}

static double read_reference(const char *prefix) {
    char path[4200];
    FILE *f;
    double v = NAN;
    snprintf(path, sizeof path, "%s.ref", prefix);
    f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%lf", &v) != 1) v = NAN;
        fclose(f);
    }
    return v;
}

static void remove_files(const char *prefix) {
    static const char *const ext[] = {".tra", ".lab", ".srew", ".ref"};
    char path[4200];
    size_t i;
    for (i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        snprintf(path, sizeof path, "%s%s", prefix, ext[i]);
        remove(path);
    }
}

static int bench_one(const char *dir, const char *kind, uint64_t n, unsigned depth, int keep) {
    char prefix[4096];
    uint64_t states = n, trans;
    long double closed = 0.0L;
    double gw = bench_now(BENCH_WALL), ref, err_rel, base_err;
    result p, b;
    const char *ref_kind;
    int iterative = strcmp(kind, "nested") != 0;
    snprintf(prefix, sizeof prefix, "%s/%s_%llu", dir, kind, (unsigned long long)n);
    if (strcmp(kind, "random") == 0) trans = gen_random(n, 42, prefix);
    else if (strcmp(kind, "spread") == 0) trans = gen_spread(n, 42, prefix);
    else trans = gen_nested(n, 42, depth, prefix, &states, &closed);
    if (!trans) { printf("%-7s %9llu  generation failed\n", kind, (unsigned long long)n); return -1; }
    gw = bench_now(BENCH_WALL) - gw;
    p = in_child(run_proper_flag, prefix, 0);
    b = in_child(run_baseline, prefix, iterative);
    if (!p.ok) { printf("%-7s %9llu  proper failed: %s\n", kind, (unsigned long long)states, p.msg); return -1; }
    if (iterative) {
        ref = b.reference_ok ? b.reference : NAN;
        ref_kind = "GS-asc 1e-15";
    } else {
        ref = read_reference(prefix);
        ref_kind = "closed form";
    }
    err_rel = fabs(p.value - ref) / fabs(ref);
    base_err = b.ok ? fabs(b.value - ref) / fabs(ref) : NAN;
    printf("%-7s %9llu %9llu %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.1f %6.1f %6lu %22.17g %9.2e %9.2e %-12s %7.3f %6.2fx",
           kind, (unsigned long long)p.states, (unsigned long long)p.trans, p.load_wall, p.solve_wall,
           p.load_wall + p.solve_wall, p.solve_cpu, p.load_cpu + p.solve_cpu, gw, p.peak_kb / 1024.0,
           p.peak_kb * 1024.0 / (double)p.trans, p.sweeps, p.value, err_rel, p.max_error / fabs(p.value), ref_kind,
           p.est_cpu, p.solve_cpu / p.est_cpu);
    if (b.ok)
        printf(" | %8.3f %6lu %-5s %8.1fx %8.1fx %9.2e\n", b.solve_wall, b.iters, b.converged ? "conv" : "CAP",
               b.solve_wall / p.solve_wall, b.solve_cpu / p.solve_cpu, base_err);
    else
        printf(" | baseline failed: %s\n", b.msg);
    fflush(stdout);
    if (!keep) remove_files(prefix);
    /* no reference in time (10^7): nothing to check; the proven bound must hold */
    if (!isnan(err_rel) && fabs(p.value - ref) > p.max_error + 1e-15 * fabs(ref)) {
        printf("  the proven bound %.3g does not contain the reference (error %.3g)\n", p.max_error,
               fabs(p.value - ref));
        return 1;
    }
    return isnan(err_rel) || err_rel <= 1e-10 ? 0 : 1;
}

int main(int argc, char **argv) {
    int max_exp = 6, min_exp = 3, keep = 0, i, bad = 0, e;
    const char *only = NULL;
    unsigned depth = 3;
    const char *dir = "/tmp/proper_bench_dtmc";
    const char *kinds[3] = {"random", "spread", "nested"};
    if (argc > 1 && strcmp(argv[1], "gen") == 0) {
        uint64_t states, trans;
        long double expect;
        if (argc < 6) {
            fprintf(stderr, "usage: bench_dtmc gen random|spread|nested STATES SEED PREFIX [DEPTH]\n");
            return 2;
        }
        if (strcmp(argv[2], "random") == 0 || strcmp(argv[2], "spread") == 0) {
            states = strtoull(argv[3], NULL, 10);
            trans = (argv[2][0] == 'r' ? gen_random : gen_spread)(states, strtoull(argv[4], NULL, 10), argv[5]);
        } else {
            trans = gen_nested(strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10),
                               argc > 6 ? (unsigned)atoi(argv[6]) : 3, argv[5], &states, &expect);
        }
        if (!trans) return 1;
        printf("%llu states, %llu transitions\n", (unsigned long long)states, (unsigned long long)trans);
        return 0;
    }
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--max-exp") == 0 && i + 1 < argc) max_exp = atoi(argv[++i]);
        else if (strcmp(argv[i], "--min-exp") == 0 && i + 1 < argc) min_exp = atoi(argv[++i]);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
        else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc) dir = argv[++i];
        else if (strcmp(argv[i], "--depth") == 0 && i + 1 < argc) depth = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--keep") == 0) keep = 1;
        else {
            fprintf(stderr, "usage: bench_dtmc [--max-exp E] [--min-exp E] [--only random|spread|nested] [--dir DIR] "
                            "[--depth D] [--keep]\n");
            return 2;
        }
    }
    mkdir(dir, 0777);
    {
        FILE *f = fopen("/proc/loadavg", "r");
        char load[64] = "?";
        if (f) { if (!fgets(load, sizeof load, f)) load[0] = '\0'; fclose(f); }
        printf("bench_dtmc: R{\"time\"}=? [ F \"end\" ] from PRISM explicit files; load average %s", load);
    }
    printf("times in seconds (wall unless marked cpu; s.cpu: the solve's, cpu: load and solve); baseline = Jacobi on the "
           "whole matrix, same stopping rule\n");
    printf("solve: certified (proven 1e-10, default); bound = proven error bound at the initial state / value; estimate = the solve "
           "stopped on the estimated tail at 1e-12 (cpu s), cost = certified cpu / estimate cpu\n");
    printf("%-7s %9s %9s %7s %7s %7s %7s %7s %7s %7s %6s %6s %22s %9s %9s %-12s %7s %7s | %8s %6s %-5s %9s %9s %9s\n",
           "model", "states", "trans", "load", "solve", "total", "s.cpu", "cpu", "gen", "peakMB", "B/tr", "sweeps", "value",
           "rel.err", "bound", "reference", "estim.", "cost", "base", "iters", "state", "ratio", "cpu.ratio",
           "base.err");
    for (e = min_exp; e <= max_exp; e++)
        for (i = 0; i < 3; i++) {
            uint64_t n = 1;
            int k;
            if (only && strcmp(only, kinds[i]) != 0) continue;
            for (k = 0; k < e; k++) n *= 10;
            bad |= bench_one(dir, kinds[i], n, depth, keep) != 0;
        }
    if (getenv("PROPER_PRISM") || getenv("PROPER_STORM") || on_path("prism") || on_path("storm"))
        printf("PRISM/Storm found, but this bench has no code path to run them: it could not be written and tested "
               "on a machine without them\n");
    else
        printf("PRISM/Storm: not installed (PROPER_PRISM/PROPER_STORM unset, not on PATH): no cross-check\n");
    return bad;
}
