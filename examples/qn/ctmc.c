/* ctmc.c — mean-field, SSA and the exact CTMC of small closed networks.
 * For each network and population N the exact CTMC (proper_qn_ctmc) gives
 * the steady-state mean queue lengths q_i and the throughput X of station 1;
 * the mean-field ODE's fixed point (proper_qn_ode_rk4 run until it stops
 * moving) and one long SSA run (proper_qn_simulate, time averages after a
 * burn-in) are compared with it, and exact MVA checks the CTMC.
 * scripts/qn-tables.sh ctmc builds and runs it; docs/qn-results.md holds a
 * run.
 *
 *   ctmc [--seed S] [--horizon T]
 *
 * Errors: queue lengths as max_i |q^_i - q_i| / N (percent of the jobs, the
 * share misplaced at the worst station, as eq. 4.9 of the thesis), and
 * the relative error of X in percent. SSA's figures carry the 95%
 * half-width of 20 batch means of the run.
 * The transient table follows the load balancer from every job at
 * station 1: the exact E[X_i(t)] by uniformisation
 * (proper_dtmc_ctmc_transient), the mean of 1000 SSA runs and the ODE, at
 * times 0.1 to 5, with the same queue error.
 */
#define EXAMPLE_NAME "ctmc"
#include "common.h"

#define MAX_M 4
#define BATCHES 20

typedef struct network_spec {
    const char *name;
    size_t M;
    double servers[MAX_M], rates[MAX_M], routing[MAX_M * MAX_M];
} network_spec;

/* Two to four stations, a delay station first; the load balancer and the
 * four-station network cross from light load into saturation within
 * N = 1..20. */
static const network_spec NETWORKS[3] = {
    {"repairman: delay (mu 1) + 1 server (mu 1.5)", 2, {INFINITY, 1}, {1, 1.5}, {0, 1, 1, 0}},
    {"load balancer: delay (mu 1) + 2 x 2 servers (mu 3, 4)",
     3,
     {INFINITY, 2, 2},
     {1, 3, 4},
     {0, 0.5, 0.5, 1, 0, 0, 1, 0, 0}},
    {"four stations (examples/qn/bcmp4.csv)",
     4,
     {INFINITY, 1, 2, 3},
     {0.5, 2, 1.5, 1},
     {0, 0.3, 0.7, 0, 0, 0, 0, 1, 0.5, 0, 0, 0.5, 1, 0, 0, 0}},
};

static const unsigned long POPULATIONS[7] = {1, 2, 3, 5, 10, 15, 20};

static void make_network(const network_spec *n, proper_qn *q) {
    proper_error e;
    proper_qn_init(q);
    if (proper_qn_create(q, n->M, &e)) die(&e);
    memcpy(q->servers, n->servers, n->M * sizeof *q->servers);
    memcpy(q->rates, n->rates, n->M * sizeof *q->rates);
    memcpy(q->routing, n->routing, n->M * n->M * sizeof *q->routing);
}

typedef struct estimate {
    double q[MAX_M], X, q_hw, X_hw, seconds;
} estimate;

/* The ODE's fixed point: RK4 from x0 over spans of 100 time units until a
 * span moves no queue by more than 1e-12 N. */
static void mean_field(const proper_qn *q, const unsigned long *x0, unsigned long N, estimate *out) {
    proper_qn_trace tr;
    proper_error e;
    double x[MAX_M], t0 = cpu_seconds(), moved = INFINITY;
    size_t i, spans = 0;
    for (i = 0; i < q->M; i++) x[i] = (double)x0[i];
    proper_qn_trace_init(&tr);
    while (moved > 1e-12 * (double)N && spans++ < 100) {
        if (proper_qn_ode_rk4(q, x, 1.0, 101, 100, &tr, &e)) die(&e);
        moved = 0;
        for (i = 0; i < q->M; i++) {
            double last = tr.x[100 * q->M + i];
            moved = fmax(moved, fabs(last - x[i]));
            x[i] = last;
        }
    }
    for (i = 0; i < q->M; i++) out->q[i] = x[i];
    out->X = q->rates[0] * fmin(q->servers[0], x[0]);
    out->q_hw = out->X_hw = 0;
    out->seconds = cpu_seconds() - t0;
    proper_qn_trace_free(&tr);
}

/* One SSA run of `horizon` time units sampled every 0.05, the first tenth
 * dropped; time averages of X and of mu_1 min(s_1, X_1), with the 95%
 * half-width of BATCHES batch means (worst station for the queues). */
static void ssa(const proper_qn *q, const unsigned long *x0, double horizon, proper_rng *rng, estimate *out) {
    proper_qn_trace tr;
    proper_error e;
    double dt = 0.05, t0 = cpu_seconds(), bq[BATCHES][MAX_M], bX[BATCHES];
    size_t K = (size_t)(horizon / dt) + 1, burn = K / 10, per = (K - burn) / BATCHES, b, k, i, M = q->M;
    proper_qn_trace_init(&tr);
    if (proper_qn_simulate(q, x0, dt, K, 1, rng, &tr, NULL, &e)) die(&e);
    memset(bq, 0, sizeof bq);
    memset(bX, 0, sizeof bX);
    for (b = 0; b < BATCHES; b++)
        for (k = burn + b * per; k < burn + (b + 1) * per; k++) {
            for (i = 0; i < M; i++) bq[b][i] += tr.x[k * M + i] / (double)per;
            bX[b] += q->rates[0] * tr.busy[k * M] / (double)per;
        }
    out->q_hw = out->X_hw = 0;
    out->X = 0;
    for (i = 0; i < M; i++) out->q[i] = 0;
    for (b = 0; b < BATCHES; b++) {
        out->X += bX[b] / BATCHES;
        for (i = 0; i < M; i++) out->q[i] += bq[b][i] / BATCHES;
    }
    for (i = 0; i <= M; i++) {
        double ss = 0, hw;
        for (b = 0; b < BATCHES; b++) {
            double d = i < M ? bq[b][i] - out->q[i] : bX[b] - out->X;
            ss += d * d;
        }
        hw = 2.093 * sqrt(ss / (BATCHES - 1) / BATCHES); /* t quantile, 19 degrees of freedom */
        if (i < M) out->q_hw = fmax(out->q_hw, hw);
        else out->X_hw = hw;
    }
    out->seconds = cpu_seconds() - t0;
    proper_qn_trace_free(&tr);
}

/* max_i |a_i - q_i| / N in percent. */
static double queue_error(const double *a, const double *q, size_t M, unsigned long N) {
    double worst = 0;
    size_t i;
    for (i = 0; i < M; i++) worst = fmax(worst, fabs(a[i] - q[i]));
    return 100.0 * worst / (double)N;
}

static void row(const network_spec *spec, unsigned long N, double horizon, proper_rng *rng) {
    proper_qn q;
    proper_dtmc m;
    proper_error e;
    unsigned long x0[MAX_M] = {0, 0, 0, 0};
    double cq[MAX_M], ct[MAX_M], mq[MAX_M], mt[MAX_M], t0, exact_s, mva_gap;
    estimate mf, sim;
    size_t i;
    make_network(spec, &q);
    x0[0] = N;
    proper_dtmc_init(&m);
    t0 = cpu_seconds();
    if (proper_qn_ctmc(&q, x0, &m, &e) || proper_qn_ctmc_steady(&q, &m, NULL, cq, ct, &e)) die(&e);
    exact_s = cpu_seconds() - t0;
    if (proper_qn_mva(&q, N, mq, mt, &e)) die(&e);
    mva_gap = queue_error(mq, cq, q.M, N) / 100.0 * (double)N;
    mean_field(&q, x0, N, &mf);
    ssa(&q, x0, horizon, rng, &sim);
    printf("| %zu | %lu | %lu | ", q.M, N, (unsigned long)m.n_states);
    for (i = 0; i < q.M; i++) printf("%s%.4f", i ? ", " : "", cq[i]);
    printf(" | %.5f | %.0e | %.2f | %.2f | %.2f ± %.2f | %.2f ± %.2f | %.1e | %.1e | %.1e |\n", ct[0], mva_gap,
           queue_error(mf.q, cq, q.M, N), 100.0 * fabs(mf.X / ct[0] - 1), queue_error(sim.q, cq, q.M, N),
           100.0 * sim.q_hw / (double)N, 100.0 * fabs(sim.X / ct[0] - 1), 100.0 * sim.X_hw / ct[0], exact_s,
           mf.seconds, sim.seconds);
    proper_dtmc_free(&m);
    proper_qn_free(&q);
}

/* E[X_i(t)] from the transient distribution of the network's CTMC. */
static void exact_means(const proper_dtmc *m, double t, double *q) {
    proper_error e;
    size_t i, M = m->n_vars;
    uint32_t s;
    double *pt = (double *)calloc(m->n_states, sizeof *pt);
    if (!pt || proper_dtmc_ctmc_transient(m, t, NULL, NULL, pt, &e)) die(&e);
    for (i = 0; i < M; i++) q[i] = 0;
    for (s = 0; s < m->n_states; s++)
        for (i = 0; i < M; i++) q[i] += pt[s] * (double)m->vals[(size_t)s * M + i];
    free(pt);
}

static void transient_table(proper_rng *rng) {
    static const size_t STEPS[6] = {1, 2, 5, 10, 20, 50}; /* t = 0.1 ... 5 at dt = 0.1 */
    static const unsigned long POPS[2] = {10, 20};
    size_t p, k, i, runs = 1000;
    printf("Transient: %s, every job at station 1 at t = 0; SSA: the mean of %zu runs.\n\n", NETWORKS[1].name, runs);
    printf("| N | t | exact E[X_i(t)] | mean-field q err %% | SSA q err %% |\n|---:|---:|---|---:|---:|\n");
    for (p = 0; p < 2; p++) {
        proper_qn q;
        proper_dtmc m;
        proper_qn_trace ode, sim;
        proper_error e;
        unsigned long N = POPS[p], x0[MAX_M] = {0, 0, 0, 0};
        double xd[MAX_M] = {0, 0, 0, 0};
        make_network(&NETWORKS[1], &q);
        x0[0] = N;
        xd[0] = (double)N;
        proper_dtmc_init(&m);
        proper_qn_trace_init(&ode);
        proper_qn_trace_init(&sim);
        if (proper_qn_ctmc(&q, x0, &m, &e) || proper_qn_ode_rk4(&q, xd, 0.1, 51, 100, &ode, &e) ||
            proper_qn_simulate(&q, x0, 0.1, 51, runs, rng, &sim, NULL, &e))
            die(&e);
        for (k = 0; k < 6; k++) {
            double ex[MAX_M];
            exact_means(&m, 0.1 * (double)STEPS[k], ex);
            printf("| %lu | %g | ", N, 0.1 * (double)STEPS[k]);
            for (i = 0; i < q.M; i++) printf("%s%.4f", i ? ", " : "", ex[i]);
            printf(" | %.2f | %.2f |\n", queue_error(ode.x + STEPS[k] * q.M, ex, q.M, N),
                   queue_error(sim.x + STEPS[k] * q.M, ex, q.M, N));
        }
        proper_qn_trace_free(&ode);
        proper_qn_trace_free(&sim);
        proper_dtmc_free(&m);
        proper_qn_free(&q);
    }
    printf("\n");
}

int main(int argc, char **argv) {
    unsigned long long seed = 2022;
    double horizon = 20000;
    size_t n, p;
    proper_rng rng;
    int a;
    for (a = 1; a + 1 < argc; a += 2) {
        if (strcmp(argv[a], "--seed") == 0) seed = strtoull(argv[a + 1], NULL, 10);
        else if (strcmp(argv[a], "--horizon") == 0) horizon = strtod(argv[a + 1], NULL);
        else break;
    }
    if (a < argc || !(horizon >= 100)) {
        fprintf(stderr, "usage: ctmc [--seed S] [--horizon T >= 100]\n");
        return 2;
    }
    proper_rng_seed(&rng, seed);
    printf("Seed %llu; SSA: one run of %g time units per row, sampled every 0.05, the first tenth dropped.\n\n",
           seed, horizon);
    for (n = 0; n < sizeof NETWORKS / sizeof NETWORKS[0]; n++) {
        printf("%s\n\n", NETWORKS[n].name);
        printf("| M | N | states | exact q_i | exact X | abs(MVA - exact), max | mean-field q err %% | "
               "mean-field X err %% | SSA q err %% | SSA X err %% | exact s | mean-field s | SSA s |\n");
        printf("|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (p = 0; p < sizeof POPULATIONS / sizeof POPULATIONS[0]; p++) row(&NETWORKS[n], POPULATIONS[p], horizon, &rng);
        printf("\n");
    }
    transient_table(&rng);
    return 0;
}
