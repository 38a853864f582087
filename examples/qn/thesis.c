/* thesis.c — reproduces the queueing-network experiments of Napolitano's
 * thesis (IMT Lucca 2022, ch. 4) with qn.h and prints Markdown tables
 * (docs/qn-results.md holds a run).
 *
 * 1. Load balancer (thesis Table 1): a delay station (think rate 1) and two
 *    20-server stations (rates 68.97 and 73.80), routing 1/2 each way,
 *    N = 5500 jobs starting at the delay. One stochastic trace (SSA, R runs
 *    averaged, R = 1 by default: a single measured system) of 20 time units
 *    at dt = 0.01; moving-horizon estimation with H = 100 steps (disjoint
 *    windows) of the two server rates with the think rate known, and of all
 *    three rates. Reported: mean estimate, mean absolute relative error over
 *    the windows, relative error of the mean estimate.
 * 2. Random networks: M in {5, 10, 15, 20}, 10 networks each, rates uniform
 *    in [1, 100], servers uniform in {1..64}, station 1 a delay, routing rows
 *    uniform weights without self-loops. Training: traces from --train
 *    initial population vectors (x_i uniform in {0..2K s_i}, the delay in
 *    {0..100K}, K = --pop-scale or, when 0, uniform in {1..5} per vector),
 *    the first --light of them at light load instead (x_i uniform in {0..2},
 *    the delay in {0..10}); T = 2, dt = 0.01, each the average of --runs SSA
 *    runs; the topology LP (eqs. 4.5-4.8, native solver) learns rates and
 *    routing. What-if: --test unseen population vectors (never light), with
 *    the training server counts and with new ones (uniform in {1..64}); the
 *    true network (SSA) is compared by eq. 4.9 with the learned one (its
 *    Euler ODE, or SSA with common random numbers).
 *
 *   thesis [--quick] [--sizes 5,10,15,20] [--networks N] [--train P] [--light L]
 *          [--test Q] [--runs R] [--lb-runs R] [--seed S] [--pop-scale K (0: mixed)]
 *          [--skip-lb | --only-lb] [--trapezoid | --exact]
 *
 * --trapezoid: the topology LP integrates each step by the trapezoid rule
 * instead of Euler; --exact: the exact scheme (rounds of defect correction),
 * and the ODE predictions by RK4 instead of Euler at dt (enum
 * proper_qn_scheme in qn.h).
 */
#define EXAMPLE_NAME "thesis"
#include "common.h"

typedef struct settings {
    size_t sizes[8], nsizes, networks, train, light, test, runs, lb_runs, pop_scale;
    unsigned long long seed;
    int skip_lb, only_lb, scheme;
} settings;

/* ---- 1. load balancer -------------------------------------------------------- */

static void mhe_row(const char *label, const proper_qn_trace *tr, const proper_qn *q, const unsigned char *known,
                    int first_only) {
    double *rates, *ends, mean[3] = {0, 0, 0}, abserr[3] = {0, 0, 0};
    size_t nwin, w, i;
    proper_error e;
    if (proper_qn_mhe(tr, q, known, 100, 100, &rates, &ends, &nwin, &e)) die(&e);
    if (first_only) nwin = 1;
    for (w = 0; w < nwin; w++)
        for (i = 0; i < 3; i++) {
            mean[i] += rates[w * 3 + i] / (double)nwin;
            abserr[i] += fabs(rates[w * 3 + i] - q->rates[i]) / q->rates[i] / (double)nwin;
        }
    printf("| %s | %zu |", label, nwin);
    for (i = 0; i < 3; i++) {
        if (known && known[i]) printf(" %.4g (known) | – | – |", q->rates[i]);
        else printf(" %.4g | %.2f%% | %.2f%% |", mean[i], 100 * abserr[i], 100 * fabs(mean[i] - q->rates[i]) / q->rates[i]);
    }
    printf("\n");
    free(rates);
    free(ends);
}

static void load_balancer(const settings *s) {
    proper_qn q;
    proper_qn_trace tr;
    proper_rng rng;
    proper_error e;
    unsigned long x0[3] = {5500, 0, 0};
    unsigned char known[3] = {1, 0, 0};
    size_t r, runs[2];
    runs[0] = s->lb_runs;
    runs[1] = 10 * s->lb_runs;
    proper_qn_trace_init(&tr);
    make_load_balancer(&q);
    printf("## 1. Load balancer (thesis Table 1)\n\n");
    printf("N = 5500 jobs start at the delay station; mu = (1.0, 68.97, 73.80), s = (inf, 20, 20), p = 0.5.\n");
    printf("SSA trace of 20 time units at dt = 0.01 (2000 steps); moving-horizon QP (eq. 4.2) over\n");
    printf("20 disjoint windows of H = 100 steps. Errors: mean over windows of |mu_hat - mu| / mu, and\n");
    printf("the error of the windows' mean estimate. Thesis: 1.4%% and 2.6%% for the two servers.\n\n");
    printf("| trace | windows | mu1 | err | err of mean | mu2 | err | err of mean | mu3 | err | err of mean |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (r = 0; r < 2; r++) {
        char label[96];
        proper_rng_seed(&rng, s->seed);
        if (proper_qn_simulate(&q, x0, 0.01, 2001, runs[r], &rng, &tr, NULL, &e)) die(&e);
        snprintf(label, sizeof label, "R = %zu, think rate known", runs[r]);
        mhe_row(label, &tr, &q, known, 0);
        snprintf(label, sizeof label, "R = %zu, all three rates, first window (transient)", runs[r]);
        mhe_row(label, &tr, &q, NULL, 1);
        proper_qn_trace_free(&tr);
    }
    printf("\nR = runs averaged into the trace (R = 1: one measured system).\n");
    printf("After about one time unit both server stations are saturated (20 busy servers each)\n");
    printf("and only the ratios mu1 x1 : 40 mu2 : 40 mu3 are observed: a common scale of the three\n");
    printf("rates leaves the dynamics unchanged, so windows in steady state cannot estimate all\n");
    printf("three (their estimates wander along that direction with the noise). Hence the\n");
    printf("think rate is taken as known, as in a measured system whose load generator sets it,\n");
    printf("and the all-rates estimate is shown for the first (transient) window only.\n\n");
    proper_qn_free(&q);
}

/* ---- 2. random networks ----------------------------------------------------------- */

/* x_i uniform in {0..2 K s_i}, the delay station in {0..100 K}, with
 * K = --pop-scale, or K uniform in {1..5} per vector when it is 0 (mixed). */
static void random_population(const proper_qn *q, size_t pop_scale, proper_rng *rng, unsigned long *x0) {
    size_t i;
    if (pop_scale == 0) pop_scale = 1 + (size_t)proper_rng_below(rng, 5);
    for (i = 0; i < q->M; i++)
        x0[i] = (unsigned long)proper_rng_below(rng, isinf(q->servers[i]) ? 100 * pop_scale + 1
                                                                          : (uint64_t)(2 * pop_scale * q->servers[i] + 1));
}

/* A light-load vector: x_i uniform in {0..2}, the delay station in {0..10}.
 * So few jobs leave every station below its server count now and then, the
 * only regime in which a bottleneck's rate shows in the trace (a station
 * with all servers busy in every sample has a constant outflow mu_i s_i,
 * which the LP cannot tell apart from the other saturated stations'). */
static void light_population(const proper_qn *q, proper_rng *rng, unsigned long *x0) {
    size_t i;
    for (i = 0; i < q->M; i++) x0[i] = (unsigned long)proper_rng_below(rng, isinf(q->servers[i]) ? 11 : 3);
}

typedef struct summary {
    double *v;
    size_t n;
} summary;

static void summary_add(summary *s, double v) { s->v[s->n++] = v; }

static void summary_print(summary *s) {
    double mean = 0;
    size_t i, below2 = 0, below4 = 0, below10 = 0;
    qsort(s->v, s->n, sizeof *s->v, cmp_double);
    for (i = 0; i < s->n; i++) {
        mean += s->v[i] / (double)s->n;
        below2 += s->v[i] < 2;
        below4 += s->v[i] < 4;
        below10 += s->v[i] < 10;
    }
    printf(" %.2f | %.2f | %.2f | %.2f | %.0f%% | %.0f%% | %.0f%% |", mean, s->v[s->n / 2], s->v[(size_t)(0.9 * (double)(s->n - 1))],
           s->v[s->n - 1], 100.0 * (double)below2 / (double)s->n, 100.0 * (double)below4 / (double)s->n,
           100.0 * (double)below10 / (double)s->n);
}

enum { PREDICT_EULER, PREDICT_RK4, PREDICT_SSA };

/* What-if error of the learned network against the true one from x0 with
 * the given servers (both networks get them). The truth is the mean of
 * `runs` SSA runs; the learned network is predicted by its mean-field ODE
 * solved by Euler at the sampling step (eq. 4.1, as in the thesis; the
 * model the Euler LP fits) or by RK4 (the model the exact scheme fits), or
 * by SSA with common random numbers. */
static void whatif(const proper_qn *truth, const proper_qn *learned, const double *servers, const unsigned long *x0,
                   size_t runs, unsigned long long seed, int predict, double *max_err, double *mean_err) {
    proper_qn a, b;
    proper_qn_trace ta, tb;
    proper_rng rng;
    proper_error e;
    size_t i;
    proper_qn_init(&a);
    proper_qn_init(&b);
    proper_qn_trace_init(&ta);
    proper_qn_trace_init(&tb);
    if (proper_qn_copy(&a, truth, &e) || proper_qn_copy(&b, learned, &e)) die(&e);
    memcpy(a.servers, servers, truth->M * sizeof *servers);
    memcpy(b.servers, servers, truth->M * sizeof *servers);
    proper_rng_seed(&rng, seed);
    if (proper_qn_simulate(&a, x0, 0.01, 201, runs, &rng, &ta, NULL, &e)) die(&e);
    if (predict == PREDICT_SSA) {
        proper_rng_seed(&rng, seed);
        if (proper_qn_simulate(&b, x0, 0.01, 201, runs, &rng, &tb, NULL, &e)) die(&e);
    } else {
        double xd[64];
        for (i = 0; i < truth->M; i++) xd[i] = (double)x0[i];
        if (predict == PREDICT_RK4 ? proper_qn_ode_rk4(&b, xd, 0.01, 201, 20, &tb, &e)
                                   : proper_qn_ode_euler(&b, xd, 0.01, 201, &tb, &e))
            die(&e);
    }
    if (proper_qn_trace_error(&ta, &tb, max_err, mean_err, &e)) die(&e);
    proper_qn_trace_free(&ta);
    proper_qn_trace_free(&tb);
    proper_qn_free(&a);
    proper_qn_free(&b);
}

static void random_networks(const settings *s) {
    size_t si;
    printf("## 2. Random networks: what-if prediction error (eq. 4.9)\n\n");
    printf("%zu networks per size; training: %zu initial population vectors (x_i uniform in\n", s->networks, s->train);
    if (s->pop_scale)
        printf("{0..%zu s_i}, the delay station in {0..%zu}), T = 2, dt = 0.01,\n", 2 * s->pop_scale, 100 * s->pop_scale);
    else
        printf("{0..2K s_i}, the delay station in {0..100K}, K uniform in {1..5} per vector), T = 2, dt = 0.01,\n");
    if (s->light)
        printf("the first %zu of them at light load instead (x_i uniform in {0..2}, the delay in {0..10}),\n", s->light);
    printf("each trace the mean of %zu SSA runs; LP (eqs. 4.5-4.8, %s steps) solved natively. Test: %zu unseen\n", s->runs,
           s->scheme == PROPER_QN_TRAPEZOID ? "trapezoid" : s->scheme == PROPER_QN_EXACT ? "exact" : "Euler", s->test);
    printf("population vectors per network, with the training servers and with new server counts.\n");
    printf("Truth: the mean of %zu SSA runs of the true network. Prediction: the learned network's\n", s->runs);
    if (s->scheme == PROPER_QN_EXACT)
        printf("mean-field ODE by RK4 (the model the exact scheme fits), or its own SSA\n");
    else
        printf("mean-field ODE by Euler at dt = 0.01 (eq. 4.1, the thesis's model), or its own SSA\n");
    printf("(%zu runs, common random numbers). Error: 100 sum_i |x_i - y_i| / (2N), its maximum over\n", s->runs);
    printf("the 201 samples (rows marked time average: its mean over them). Thesis: errors mostly under 2-4%%,\n");
    printf("all under 10%%.\n\n");
    printf("| M | servers | prediction | n | mean %% | median %% | 90th pct %% | max %% | < 2%% | < 4%% | < 10%% |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (si = 0; si < s->nsizes; si++) {
        size_t M = s->sizes[si], net, p, i, total = s->networks * s->test, c;
        summary sum[6], avg[6];
        double fit_seconds = 0, sim_seconds = 0, rate_err = 0, lp_rows = 0;
        size_t iters = 0, rounds = 0;
        static const char *servers_label[6] = {"training", "new", "training", "new", "training", "new"};
        static const char *euler_label[6] = {"Euler ODE", "Euler ODE", "SSA", "SSA",
                                             "*true rates*, Euler ODE", "*true rates*, Euler ODE"};
        static const char *rk4_label[6] = {"RK4 ODE", "RK4 ODE", "SSA", "SSA",
                                           "*true rates*, RK4 ODE", "*true rates*, RK4 ODE"};
        const char *const *predict_label = s->scheme == PROPER_QN_EXACT ? rk4_label : euler_label;
        int ode = s->scheme == PROPER_QN_EXACT ? PREDICT_RK4 : PREDICT_EULER;
        for (c = 0; c < 6; c++) {
            sum[c].v = (double *)calloc(total, sizeof *sum[c].v);
            avg[c].v = (double *)calloc(total, sizeof *avg[c].v);
            sum[c].n = avg[c].n = 0;
        }
        for (net = 0; net < s->networks; net++) {
            proper_qn q, fit;
            proper_qn_trace *tr = (proper_qn_trace *)calloc(s->train, sizeof *tr);
            proper_qn_fit_result res;
            proper_rng rng;
            proper_error e;
            unsigned long x0[64];
            double t0 = wall_seconds(), *servers = (double *)calloc(M, sizeof *servers);
            proper_rng_seed(&rng, s->seed + 1000 * M + net);
            proper_qn_init(&fit);
            whatif_network(&q, M, &rng);
            for (p = 0; p < s->train; p++) {
                if (p < s->light) light_population(&q, &rng, x0);
                else random_population(&q, s->pop_scale, &rng, x0);
                if (proper_qn_simulate(&q, x0, 0.01, 201, s->runs, &rng, &tr[p], NULL, &e)) die(&e);
            }
            sim_seconds += wall_seconds() - t0;
            t0 = wall_seconds();
            if (proper_qn_fit_lp(tr, s->train, q.servers, s->scheme, NULL, NULL, &fit, &res, &e)) die(&e);
            fit_seconds += wall_seconds() - t0;
            iters += res.iterations;
            rounds += res.rounds;
            lp_rows = (double)res.rows;
            for (i = 0; i < M; i++) rate_err += fabs(fit.rates[i] - q.rates[i]) / q.rates[i] / (double)(M * s->networks);
            for (p = 0; p < s->test; p++) {
                double mx, mean;
                for (c = 0; c < 6; c += 2) {
                    /* the same test population for every prediction */
                    proper_rng pop = rng;
                    random_population(&q, s->pop_scale, &pop, x0);
                    whatif(&q, c == 4 ? &q : &fit, q.servers, x0, s->runs, s->seed + 7 * p + 1,
                           c == 2 ? PREDICT_SSA : ode, &mx, &mean);
                    summary_add(&sum[c], mx);
                    summary_add(&avg[c], mean);
                }
                random_population(&q, s->pop_scale, &rng, x0);
                for (i = 0; i < M; i++) servers[i] = i == 0 ? INFINITY : (double)(1 + proper_rng_below(&rng, 64));
                for (c = 1; c < 6; c += 2) {
                    proper_rng pop = rng;
                    random_population(&q, s->pop_scale, &pop, x0);
                    whatif(&q, c == 5 ? &q : &fit, servers, x0, s->runs, s->seed + 7 * p + 2,
                           c == 3 ? PREDICT_SSA : ode, &mx, &mean);
                    summary_add(&sum[c], mx);
                    summary_add(&avg[c], mean);
                }
                random_population(&q, s->pop_scale, &rng, x0);
            }
            for (p = 0; p < s->train; p++) proper_qn_trace_free(&tr[p]);
            free(tr);
            free(servers);
            proper_qn_free(&fit);
            proper_qn_free(&q);
            fprintf(stderr, "M = %zu: network %zu/%zu done (LP %.0f rows, %.1f s of fitting so far)\n", M, net + 1,
                    s->networks, lp_rows, fit_seconds);
        }
        for (c = 0; c < 6; c++) {
            printf("| %zu | %s | %s | %zu |", M, servers_label[c], predict_label[c], total);
            summary_print(&sum[c]);
            printf("\n| %zu | %s | %s, time average | %zu |", M, servers_label[c], predict_label[c], total);
            summary_print(&avg[c]);
            printf("\n");
        }
        fprintf(stderr, "M = %zu: LP %.0f rows, mean %.1f rounds and %.0f iterations, %.2f s per fit; training sims %.1f s; "
                        "mean |rate error| %.1f%%\n",
                M, lp_rows, (double)rounds / (double)s->networks, (double)iters / (double)s->networks,
                fit_seconds / (double)s->networks, sim_seconds, 100 * rate_err);
        printf("| %zu | *LP: %.0f rows, %.1f rounds, %.0f simplex iterations, %.2f s per fit; mean rate error %.1f%%* "
               "| | | | | | | | | |\n",
               M, lp_rows, (double)rounds / (double)s->networks, (double)iters / (double)s->networks,
               fit_seconds / (double)s->networks, 100 * rate_err);
        for (c = 0; c < 6; c++) {
            free(sum[c].v);
            free(avg[c].v);
        }
    }
    if (s->scheme == PROPER_QN_EXACT) {
        printf("\nRates are learned for the exact one-step map of the mean-field ODE (rounds of defect\n");
        printf("correction from the Euler fit); the mean rate error above is what trace noise and the\n");
        printf("mean-field approximation leave.\n");
    } else {
        printf("\nRates are learned for the Euler-discretised model at dt = 0.01 (eq. 4.1); for stations\n");
        printf("with mu dt near 1 they differ from the true rates (the mean rate error above), which the\n");
        printf("Euler prediction compensates and an exact simulation of the learned rates does not.\n");
    }
}

static void parse_sizes(const char *arg, settings *s) {
    s->nsizes = 0;
    while (*arg && s->nsizes < 8) {
        s->sizes[s->nsizes++] = (size_t)strtoul(arg, (char **)&arg, 10);
        if (*arg == ',') arg++;
    }
}

int main(int argc, char **argv) {
    settings s;
    int a;
    double t0 = wall_seconds();
    memset(&s, 0, sizeof s);
    parse_sizes("5,10,15,20", &s);
    s.networks = 10;
    s.train = 100;
    s.test = 10;
    s.runs = 20;
    s.lb_runs = 1;
    s.pop_scale = 1;
    s.seed = 2022;
    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--quick") == 0) { s.networks = 3; s.train = 10; s.test = 5; s.runs = 10; }
        else if (strcmp(argv[a], "--skip-lb") == 0) s.skip_lb = 1;
        else if (strcmp(argv[a], "--only-lb") == 0) s.only_lb = 1;
        else if (strcmp(argv[a], "--trapezoid") == 0) s.scheme = PROPER_QN_TRAPEZOID;
        else if (strcmp(argv[a], "--exact") == 0) s.scheme = PROPER_QN_EXACT;
        else if (a + 1 < argc && strcmp(argv[a], "--sizes") == 0) parse_sizes(argv[++a], &s);
        else if (a + 1 < argc && strcmp(argv[a], "--networks") == 0) s.networks = strtoul(argv[++a], NULL, 10);
        else if (a + 1 < argc && strcmp(argv[a], "--train") == 0) s.train = strtoul(argv[++a], NULL, 10);
        else if (a + 1 < argc && strcmp(argv[a], "--light") == 0) s.light = strtoul(argv[++a], NULL, 10);
        else if (a + 1 < argc && strcmp(argv[a], "--test") == 0) s.test = strtoul(argv[++a], NULL, 10);
        else if (a + 1 < argc && strcmp(argv[a], "--runs") == 0) s.runs = strtoul(argv[++a], NULL, 10);
        else if (a + 1 < argc && strcmp(argv[a], "--lb-runs") == 0) s.lb_runs = strtoul(argv[++a], NULL, 10);
        else if (a + 1 < argc && strcmp(argv[a], "--seed") == 0) s.seed = strtoull(argv[++a], NULL, 10);
        else if (a + 1 < argc && strcmp(argv[a], "--pop-scale") == 0) s.pop_scale = strtoul(argv[++a], NULL, 10);
        else {
            fprintf(stderr, "usage: thesis [--quick] [--sizes 5,10,15,20] [--networks N] [--train P] [--light L] [--test Q]\n"
                            "              [--runs R] [--lb-runs R] [--seed S] [--pop-scale K]\n"
                            "              [--skip-lb | --only-lb] [--trapezoid | --exact]\n");
            return 2;
        }
    }
    if (!s.networks || !s.train || !s.test || !s.runs || !s.lb_runs || !s.nsizes) {
        fprintf(stderr, "thesis: counts must be positive\n");
        return 2;
    }
    if (s.light > s.train) {
        fprintf(stderr, "thesis: --light %zu exceeds --train %zu\n", s.light, s.train);
        return 2;
    }
    printf("# Queueing networks from queue lengths: thesis experiments\n\n");
    printf("Generated by `examples/qn/thesis");
    for (a = 1; a < argc; a++) printf(" %s", argv[a]);
    printf("` (seed %llu).\n\n", s.seed);
    if (!s.skip_lb) load_balancer(&s);
    if (!s.only_lb) random_networks(&s);
    printf("\nTotal run time: %.0f s.\n", wall_seconds() - t0);
    return 0;
}
