/* tables.c — Figure 16 and Table 4's experiments on the CFG-level programs
 * of programs.h (not the thesis's traces: scripts/vlmc-tables.sh reproduces
 * the thesis's tables with unrolled.h), printing markdown tables.
 *
 *   vlmc-tables [-n RUNS] [--seed S] [--only PROGRAM]
 *
 * For every program: RUNS runs (default 10^5) with the inputs of
 * programs.h, the program's CFG, and
 *   Figure 16: alpha = 1, n_min = 1: KL(E||V) between the empirical
 *              distribution of steps to termination and the one of the
 *              learned VLMC's Markov hull (forward iteration to 1e-12);
 *   Table 4:   order, log-likelihood and nodes of the PST for
 *              alpha in {1, 0.9, 0.8, 0.7} x n_min in {1, 10, 100, 1000},
 *              with KL(E||V) for each as an extra column.
 * Double Loop uses I = 10 and Nested Loop I = 4 (the first rows of Table 5).
 *
 *   vlmc-tables --compare [-n RUNS] [--seed S] [--only PROGRAM]
 *
 * compares the CFG mode with the general-purpose context algorithm (full
 * alphabet, chi-square degrees of freedom from the whole alphabet) at
 * alpha in {1, 0.7} and n_min = 10: nodes, log-likelihood, KL, time.
 */
#define PROPER_IMPLEMENTATION
#include "../../src/core.h"
#include "../../src/trace.h"
#include "../../src/stats.h"
#include "../../src/dtmc.h"
#include "../../src/vlmc.h"
#include "programs.h"

#include <stdio.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int collect(const vlmc_program *p, unsigned long runs, uint64_t seed, proper_vlmc_counts *c) {
    proper_rng rng;
    proper_error err;
    vlmc_run run;
    uint32_t ids[256], buf[4096];
    unsigned long r;
    int i;
    memset(&run, 0, sizeof run);
    proper_rng_seed(&rng, seed);
    for (i = 0; i < p->n_locs; i++)
        if (proper_vlmc_counts_location(c, p->locs[i], strlen(p->locs[i]), &ids[i], &err)) return 1;
    for (r = 0; r < runs; r++) {
        size_t k;
        run.len = 0;
        p->run(&run, &rng, p->param);
        if (run.failed || run.len > sizeof buf / sizeof buf[0]) { free(run.loc); return 1; }
        for (k = 0; k < run.len; k++) buf[k] = ids[run.loc[k]];
        if (proper_vlmc_counts_add_ids(c, buf, run.len, 1, p->name, 0, r + 1, &err)) { free(run.loc); return 1; }
    }
    free(run.loc);
    return 0;
}

typedef struct fit_result {
    unsigned long nodes, states;
    unsigned order;
    double loglik, kl, seconds;
} fit_result;

static int fit_one(const proper_vlmc_counts *c, const proper_vlmc_cfg *g, double alpha, uint64_t n_min, int general,
                   const double *e, size_t ne, fit_result *out) {
    proper_vlmc m;
    proper_vlmc_init(&m);
    proper_vlmc_opts o;
    proper_error err;
    double *v, tail, t0 = now();
    size_t nv;
    char buf[600];
    o = proper_vlmc_opts_default();
    o.alpha = alpha;
    o.n_min = n_min;
    o.general = general;
    if (proper_vlmc_fit(&m, c, general ? NULL : g, &o, &err) || proper_vlmc_hull(&m, 0, &err) ||
        proper_vlmc_steps_pmf(&m, 1e-12, ne, 0, &v, &nv, &tail, &err)) {
        fprintf(stderr, "vlmc-tables: %s\n", proper_error_format(&err, buf, sizeof buf));
        return 1;
    }
    out->nodes = (unsigned long)m.n_contexts;
    out->order = m.order;
    out->loglik = m.loglik;
    out->states = m.n_states;
    if (proper_vlmc_compare_steps(e, ne, v, nv, tail, c->total_runs, &out->kl, NULL, &err)) out->kl = NAN;
    out->seconds = now() - t0;
    free(v);
    proper_vlmc_free(&m);
    return 0;
}

/* CFG mode against the classical context algorithm on the same runs. */
static int compare_modes(unsigned long runs, unsigned long long seed, const char *only) {
    static const double alphas[2] = {1.0, 0.7};
    int i, failed = 0;
    printf("## CFG mode against the general-purpose context algorithm (%lu runs, n_min = 10)\n\n", runs);
    printf("| program | alpha | mode | nodes | order | log-likelihood | KL(E\\|\\|V) | seconds |\n");
    printf("|---|---:|---|---:|---:|---:|---:|---:|\n");
    for (i = 0; i < VLMC_N_PROGRAMS; i++) {
        const vlmc_program *p = &vlmc_programs[i];
        proper_vlmc_counts c;
        proper_vlmc_cfg g;
        proper_error err;
        double *e;
        size_t ne;
        int a, general;
        if (only && strcmp(only, p->name) != 0) continue;
        proper_vlmc_counts_init(&c);
        proper_vlmc_cfg_init(&g);
        if (collect(p, runs, seed + (uint64_t)i, &c) || proper_vlmc_cfg_parse(&g, p->cfg, strlen(p->cfg), p->name, &err) ||
            proper_vlmc_counts_steps(&c, &e, &ne, &err)) {
            failed = 1;
            proper_vlmc_counts_free(&c);
            proper_vlmc_cfg_free(&g);
            continue;
        }
        for (a = 0; a < 2; a++)
            for (general = 0; general <= 1; general++) {
                fit_result r;
                if (fit_one(&c, &g, alphas[a], 10, general, e, ne, &r)) {
                    failed = 1;
                    continue;
                }
                printf("| %s | %.1f | %s | %lu | %u | %.1f | %.3g | %.2f |\n", p->title, alphas[a],
                       general ? "general" : "CFG", r.nodes, r.order, r.loglik, r.kl, r.seconds);
                fflush(stdout);
            }
        free(e);
        proper_vlmc_counts_free(&c);
        proper_vlmc_cfg_free(&g);
    }
    return failed;
}

int main(int argc, char **argv) {
    static const double alphas[4] = {1.0, 0.9, 0.8, 0.7};
    static const uint64_t nmins[4] = {1, 10, 100, 1000};
    unsigned long runs = 100000;
    unsigned long long seed = 20220101;
    const char *only = NULL;
    int compare = 0;
    fit_result fig[16];
    int i, failed = 0, n_fig = 0;
    const char *fig_names[16];
    unsigned long fig_runs[16], fig_distinct[16];
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) runs = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
        else if (strcmp(argv[i], "--compare") == 0) compare = 1;
        else {
            fprintf(stderr, "usage: vlmc-tables [--compare] [-n RUNS] [--seed S] [--only PROGRAM]\n");
            return 2;
        }
    }
    if (compare) return compare_modes(runs, seed, only);
    printf("## Table 4: PST order, log-likelihood and nodes (%lu runs per program, seed %llu)\n\n", runs, seed);
    printf("KL is KL(E||V) of the steps-to-termination PMFs (nats), an extra column.\n");
    for (i = 0; i < VLMC_N_PROGRAMS; i++) {
        const vlmc_program *p = &vlmc_programs[i];
        proper_vlmc_counts c;
        proper_vlmc_cfg g;
        proper_error err;
        double *e;
        size_t ne;
        int a, b;
        if (only && strcmp(only, p->name) != 0) continue;
        proper_vlmc_counts_init(&c);
        proper_vlmc_cfg_init(&g);
        if (collect(p, runs, seed + (uint64_t)i, &c) || proper_vlmc_cfg_parse(&g, p->cfg, strlen(p->cfg), p->name, &err) ||
            proper_vlmc_counts_steps(&c, &e, &ne, &err)) {
            fprintf(stderr, "vlmc-tables: %s: cannot collect runs\n", p->name);
            failed = 1;
            proper_vlmc_counts_free(&c);
            proper_vlmc_cfg_free(&g);
            continue;
        }
        printf("\n### %s (parameter %d; %llu runs, %lu distinct, %llu steps)\n\n", p->title, p->param,
               (unsigned long long)c.total_runs, (unsigned long)c.n_runs, (unsigned long long)c.total_steps);
        printf("| alpha | n_min | order | log-likelihood | nodes | hull states | KL(E\\|\\|V) |\n");
        printf("|---:|---:|---:|---:|---:|---:|---:|\n");
        for (a = 0; a < 4; a++)
            for (b = 0; b < 4; b++) {
                fit_result r;
                if (fit_one(&c, &g, alphas[a], nmins[b], 0, e, ne, &r)) {
                    failed = 1;
                    continue;
                }
                printf("| %.1f | %llu | %u | %.1f | %lu | %lu | %.3g |\n", alphas[a], (unsigned long long)nmins[b],
                       r.order, r.loglik, r.nodes, r.states, r.kl);
                fflush(stdout);
                if (a == 0 && b == 0 && n_fig < 16) {
                    fig[n_fig] = r;
                    fig_names[n_fig] = p->title;
                    fig_runs[n_fig] = (unsigned long)c.total_runs;
                    fig_distinct[n_fig] = (unsigned long)c.n_runs;
                    n_fig++;
                }
            }
        free(e);
        proper_vlmc_counts_free(&c);
        proper_vlmc_cfg_free(&g);
    }
    printf("\n## Figure 16: KL(E||V) of the steps to termination, alpha = 1, n_min = 1\n\n");
    printf("| program | runs | distinct runs | nodes | order | hull states | KL(E\\|\\|V) | below 1e-3 | seconds |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---|---:|\n");
    for (i = 0; i < n_fig; i++)
        printf("| %s | %lu | %lu | %lu | %u | %lu | %.3g | %s | %.2f |\n", fig_names[i], fig_runs[i], fig_distinct[i],
               fig[i].nodes, fig[i].order, fig[i].states, fig[i].kl, fig[i].kl < 1e-3 ? "yes" : "NO", fig[i].seconds);
    return failed;
}
