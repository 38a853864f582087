/* thesis.c — the experiments of Napolitano's thesis §5.2 on the programs of
 * unrolled.h, printing tab-separated rows that scripts/vlmc-tables.sh puts
 * beside the published values.
 *
 *   vlmc-thesis fig16  PROGRAM RUNS SEED   Figure 16 row
 *   vlmc-thesis table4 PROGRAM RUNS SEED   Table 4's seven rows
 *   vlmc-thesis stop   PROGRAM BATCH SEED  runs the thesis's stopping rule
 *                                          gives (batches of BATCH runs)
 *   vlmc-thesis runs   PROGRAM RUNS SEED [PARAM] [--joined]
 *                                          the runs as text (one per line, or
 *                                          all on one line with --joined)
 *
 * fig16: fits alpha = 1, n_min = 1 on RUNS training runs and prints
 *   program runs distinct locations nodes order kl_fresh kl_train
 *   kl_support e_outside
 * where kl_fresh = KL(E||V) with E the steps PMF of RUNS further runs (the
 * thesis's ground truth is a separate simulation of as many runs) and V the
 * model's exact steps PMF (forward iteration on its Markov hull to 1e-12),
 * kl_train the same with E = the training runs; kl_fresh is +inf when a
 * fresh run has a length no training run had (V gives it 0), so kl_support
 * is the sum of KL's terms over the lengths V gives mass and e_outside the
 * fresh runs' mass outside them.
 * table4: for (n_min, alpha) in (1,1) (1,.9) (1,.8) (1,.7) (10,1) (100,1)
 * (1000,1), the cutoff with |L| - 1 degrees of freedom as §5.1.3 writes it:
 *   program n_min alpha order loglik nodes runs steps
 * (loglik: natural log of the probability of all training runs).
 * stop: the thesis's stopping rule (§5.2: collect runs "until the KL
 * divergence of two successive distributions" of the steps is below 1e-5),
 * read as: after each batch, KL(P_new || P_old) of the steps PMFs of all
 * runs so far with and without the batch; prints
 *   program batch runs_at_stop kl_at_stop
 * (at most 10^7 runs; the batch size is not in the thesis).
 */
#define PROPER_IMPLEMENTATION
#include "../../src/core.h"
#include "../../src/trace.h"
#include "../../src/stats.h"
#include "../../src/dtmc.h"
#include "../../src/vlmc.h"
#include "unrolled.h"

#include <stdio.h>

static int fail(proper_error *err) {
    char buf[600];
    fprintf(stderr, "vlmc-thesis: %s\n", proper_error_format(err, buf, sizeof buf));
    return 1;
}

/* KL(E||V)'s terms over the lengths where V > 0, and E's mass elsewhere. */
static void kl_on_support(const double *e, size_t ne, const double *v, size_t nv, double *kl, double *outside) {
    size_t k;
    *kl = 0.0;
    *outside = 0.0;
    for (k = 0; k < ne; k++) {
        if (e[k] <= 0.0) continue;
        if (k < nv && v[k] > 0.0) *kl += e[k] * log(e[k] / v[k]);
        else *outside += e[k];
    }
}

static int fig16(const ur_program *p, unsigned long runs, uint64_t seed) {
    proper_vlmc_counts train, fresh;
    proper_vlmc m;
    proper_error err;
    double *e = NULL, *f = NULL, *v = NULL, tail, kl_fresh, kl_train, kl_support, outside;
    size_t ne, nf, nv;
    int rc = 1;
    proper_vlmc_counts_init(&train);
    proper_vlmc_counts_init(&fresh);
    proper_vlmc_init(&m);
    if (ur_collect(p, p->param, runs, seed, &train) || ur_collect(p, p->param, runs, seed ^ 0x5DEECE66DULL, &fresh)) {
        fprintf(stderr, "vlmc-thesis: %s: cannot collect the runs\n", p->name);
        goto done;
    }
    if (proper_vlmc_fit(&m, &train, NULL, NULL, &err) || proper_vlmc_hull(&m, 0, &err) ||
        proper_vlmc_counts_steps(&train, &e, &ne, &err) || proper_vlmc_counts_steps(&fresh, &f, &nf, &err) ||
        proper_vlmc_steps_pmf(&m, 1e-12, ne > nf ? ne : nf, 0, &v, &nv, &tail, &err) ||
        proper_vlmc_compare_steps(f, nf, v, nv, tail, fresh.total_runs, &kl_fresh, NULL, &err) ||
        proper_vlmc_compare_steps(e, ne, v, nv, tail, train.total_runs, &kl_train, NULL, &err)) {
        fail(&err);
        goto done;
    }
    kl_on_support(f, nf, v, nv, &kl_support, &outside);
    printf("%s\t%lu\t%lu\t%lu\t%lu\t%u\t%.3g\t%.3g\t%.3g\t%.3g\n", p->name, runs, (unsigned long)train.n_runs,
           (unsigned long)train.locations.len, (unsigned long)m.n_contexts, m.order, kl_fresh, kl_train, kl_support,
           outside);
    rc = 0;
done:
    free(e);
    free(f);
    free(v);
    proper_vlmc_free(&m);
    proper_vlmc_counts_free(&train);
    proper_vlmc_counts_free(&fresh);
    return rc;
}

static int table4(const ur_program *p, unsigned long runs, uint64_t seed) {
    static const uint64_t nmin[7] = {1, 1, 1, 1, 10, 100, 1000};
    static const double alpha[7] = {1.0, 0.9, 0.8, 0.7, 1.0, 1.0, 1.0};
    proper_vlmc_counts c;
    proper_error err;
    int i, rc = 0;
    proper_vlmc_counts_init(&c);
    if (ur_collect(p, p->param, runs, seed, &c)) {
        fprintf(stderr, "vlmc-thesis: %s: cannot collect the runs\n", p->name);
        return 1;
    }
    for (i = 0; i < 7 && rc == 0; i++) {
        proper_vlmc m;
        proper_vlmc_opts o = proper_vlmc_opts_default();
        proper_vlmc_init(&m);
        o.alpha = alpha[i];
        o.n_min = nmin[i];
        o.cutoff_df = PROPER_VLMC_DF_ALPHABET;
        if (proper_vlmc_fit(&m, &c, NULL, &o, &err)) {
            rc = fail(&err);
            break;
        }
        printf("%s\t%llu\t%.1f\t%u\t%.6f\t%lu\t%lu\t%llu\n", p->name, (unsigned long long)nmin[i], alpha[i], m.order,
               m.loglik, (unsigned long)m.n_contexts, runs, (unsigned long long)c.total_steps);
        fflush(stdout);
        proper_vlmc_free(&m);
    }
    proper_vlmc_counts_free(&c);
    return rc;
}

/* The steps PMF of the runs so far, from the histogram h[0..n-1]. */
static double kl_hist(const uint64_t *now, const uint64_t *before, size_t n, uint64_t total_now, uint64_t total_before) {
    double kl = 0.0;
    size_t k;
    for (k = 0; k < n; k++) {
        double p, q;
        if (!now[k]) continue;
        if (!before[k]) return INFINITY;
        p = (double)now[k] / (double)total_now;
        q = (double)before[k] / (double)total_before;
        kl += p * log(p / q);
    }
    return kl;
}

static int stopping_rule(const ur_program *p, unsigned long batch, uint64_t seed) {
    enum { MAX_LEN = 1 << 16 };
    static uint64_t now[MAX_LEN], before[MAX_LEN];
    proper_rng rng;
    ur_run run;
    uint64_t total = 0;
    unsigned long r;
    double kl = INFINITY;
    memset(&run, 0, sizeof run);
    proper_rng_seed(&rng, seed);
    while (total < 10000000ULL) {
        memcpy(before, now, sizeof now);
        for (r = 0; r < batch; r++) {
            run.len = 0;
            p->run(&run, &rng, p->param);
            if (run.failed || run.len >= MAX_LEN) { free(run.code); return 1; }
            now[run.len]++;
        }
        total += batch;
        if (total > batch && (kl = kl_hist(now, before, MAX_LEN, total, total - batch)) < 1e-5) break;
    }
    free(run.code);
    printf("%s\t%lu\t%llu\t%.3g\n", p->name, batch, (unsigned long long)total, kl);
    return 0;
}

static int write_runs(const ur_program *p, int param, unsigned long runs, uint64_t seed, int joined) {
    proper_rng rng;
    ur_run run;
    unsigned long r;
    size_t k;
    char name[32];
    memset(&run, 0, sizeof run);
    proper_rng_seed(&rng, seed);
    for (r = 0; r < runs; r++) {
        run.len = 0;
        p->run(&run, &rng, param);
        if (run.failed) return 1;
        for (k = 0; k < run.len; k++) {
            ur_name(run.code[k], name, sizeof name);
            printf("%s%s", (k || (joined && r)) ? " " : "", name);
        }
        if (!joined) putchar('\n');
    }
    if (joined) putchar('\n');
    free(run.code);
    return fflush(stdout) != 0;
}

int main(int argc, char **argv) {
    const ur_program *p;
    unsigned long runs;
    uint64_t seed;
    if (argc < 5 || !(p = ur_find(argv[2]))) {
        fprintf(stderr, "usage: vlmc-thesis fig16|table4|runs PROGRAM RUNS SEED [PARAM] [--joined]\n");
        return 2;
    }
    runs = strtoul(argv[3], NULL, 10);
    seed = strtoull(argv[4], NULL, 10);
    if (strcmp(argv[1], "fig16") == 0) return fig16(p, runs, seed);
    if (strcmp(argv[1], "table4") == 0) return table4(p, runs, seed);
    if (strcmp(argv[1], "stop") == 0) return runs ? stopping_rule(p, runs, seed) : 2;
    if (strcmp(argv[1], "runs") == 0) {
        int param = argc > 5 && argv[5][0] != '-' ? atoi(argv[5]) : p->param;
        int joined = strcmp(argv[argc - 1], "--joined") == 0;
        if (param < 1) return 2;
        return write_runs(p, param, runs, seed, joined);
    }
    fprintf(stderr, "vlmc-thesis: unknown experiment '%s'\n", argv[1]);
    return 2;
}
