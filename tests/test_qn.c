/* Tests for qn.h: simulation against exact transient and steady-state
 * results, the mean-field ODE against its closed form and against the
 * large-N limit, exact MVA against the BCMP product form, the LP and QP
 * estimators on noise-free Euler trajectories (exact recovery) and on
 * noisy ones (optimality conditions), the network's CTMC against MVA and
 * against its PRISM-language export built by prism.h, CSV I/O and bad input. */
/* Small LPs go through the trust-region path too (qn.h: the topology LP
 * by row subsets), not only the whole-LP solve. */
#define PROPER_QN_LAD_MIN_ROWS 400
#define PROPER_QN_LAD_KEEP 0.05 /* few rows kept: sign flips and re-choices happen */
#define PROPER_IMPLEMENTATION
#include "../src/qn.h"
#include "../src/prism.h"
#include "test.h"

/* Two delay stations, mu = (2, 3), jobs alternate between them. Each job is
 * an independent two-state chain, so X_1(t) ~ Binomial(N, p(t)) with
 * p(t) = 3/5 + (p(0) - 3/5) exp(-5 t): E[X_1] is also the ODE solution. */
static void make_pair(proper_qn *q) {
    proper_qn_init(q);
    proper_qn_create(q, 2, NULL);
    q->servers[0] = q->servers[1] = INFINITY;
    q->rates[0] = 2;
    q->rates[1] = 3;
    q->routing[1] = q->routing[2] = 1;
}

static double pair_exact(double t) { return 10 * (0.6 + 0.4 * exp(-5 * t)); }

static void test_ode_two_station_exact(void) {
    proper_qn q;
    proper_qn_trace rk, eu, eu2;
    double x0[2] = {10, 0}, worst_rk = 0, err1, err2;
    size_t k;
    proper_qn_init(&q);
    proper_qn_trace_init(&rk);
    proper_qn_trace_init(&eu);
    proper_qn_trace_init(&eu2);
    make_pair(&q);
    CHECK_INT(proper_qn_ode_rk4(&q, x0, 0.01, 101, 10, &rk, NULL), 0);
    for (k = 0; k < 101; k++) {
        double e = fabs(rk.x[2 * k] - pair_exact(0.01 * (double)k));
        if (e > worst_rk) worst_rk = e;
        CHECK_ABS(rk.x[2 * k] + rk.x[2 * k + 1], 10, 1e-12); /* jobs are conserved */
    }
    CHECK(worst_rk < 1e-10); /* RK4 with h = 1e-3: error ~ h^4 */
    /* Euler is first order: halving the step halves the error at t = 1 */
    CHECK_INT(proper_qn_ode_euler(&q, x0, 0.01, 101, &eu, NULL), 0);
    CHECK_INT(proper_qn_ode_euler(&q, x0, 0.005, 201, &eu2, NULL), 0);
    err1 = fabs(eu.x[2 * 100] - pair_exact(1));
    err2 = fabs(eu2.x[2 * 200] - pair_exact(1));
    CHECK(err1 > 0);
    CHECK_ABS(err1 / err2, 2.0, 0.1);
    /* Euler's exact discrete solution: x1(k) - 6 = 4 (1 - 5 dt)^k */
    CHECK_ABS(eu.x[2 * 100], 6 + 4 * pow(1 - 0.05, 100), 1e-12);
    proper_qn_trace_free(&rk);
    proper_qn_trace_free(&eu);
    proper_qn_trace_free(&eu2);
    proper_qn_free(&q);
}

static void test_simulate_binomial_mean(void) {
    proper_qn q;
    proper_qn_trace tr;
    proper_rng rng;
    proper_qn_init(&q);
    proper_qn_trace_init(&tr);
    unsigned long x0[2] = {10, 0};
    unsigned long long events = 0;
    size_t k;
    make_pair(&q);
    proper_rng_seed(&rng, 11);
    CHECK_INT(proper_qn_simulate(&q, x0, 0.1, 11, 4000, &rng, &tr, &events, NULL), 0);
    CHECK(events > 0);
    for (k = 0; k < 11; k++) {
        double t = 0.1 * (double)k, p = pair_exact(t) / 10;
        /* 4 standard deviations of a mean of 4000 Binomial(10, p) values */
        double tol = 4 * sqrt(10 * p * (1 - p) / 4000) + 1e-12;
        CHECK_ABS(tr.x[2 * k], pair_exact(t), tol);
        CHECK_ABS(tr.busy[2 * k], tr.x[2 * k], 1e-12); /* delay: min(inf, x) = x */
        CHECK_ABS(tr.x[2 * k] + tr.x[2 * k + 1], 10, 1e-9);
    }
    proper_qn_trace_free(&tr);
    proper_qn_free(&q);
}

/* A product-form network: delay -> {q2 (1 server), q3 (2 servers)} ->
 * q4 (3 servers) -> delay. */
static void make_bcmp(proper_qn *q) {
    proper_qn_init(q);
    proper_qn_create(q, 4, NULL);
    q->servers[0] = INFINITY; q->servers[1] = 1; q->servers[2] = 2; q->servers[3] = 3;
    q->rates[0] = 0.5; q->rates[1] = 2; q->rates[2] = 1.5; q->rates[3] = 1;
    q->routing[0 * 4 + 1] = 0.3; q->routing[0 * 4 + 2] = 0.7;
    q->routing[1 * 4 + 3] = 1;
    q->routing[2 * 4 + 3] = 0.5; q->routing[2 * 4 + 0] = 0.5;
    q->routing[3 * 4 + 0] = 1;
}

/* Mean queue lengths from the BCMP product form by enumerating every state:
 * pi(n) ~ prod_i (v_i / mu_i)^n_i / beta_i(n_i), beta_i(n) = prod_{j<=n} min(j, s_i). */
static void product_form(const proper_qn *q, const double *v, unsigned N, double *mean) {
    unsigned n[4], i;
    double Z = 0;
    for (i = 0; i < 4; i++) mean[i] = 0;
    for (n[0] = 0; n[0] <= N; n[0]++)
        for (n[1] = 0; n[0] + n[1] <= N; n[1]++)
            for (n[2] = 0; n[0] + n[1] + n[2] <= N; n[2]++) {
                double w = 1;
                n[3] = N - n[0] - n[1] - n[2];
                for (i = 0; i < 4; i++) {
                    unsigned j;
                    for (j = 1; j <= n[i]; j++) w *= v[i] / q->rates[i] / (j < q->servers[i] ? j : q->servers[i]);
                }
                Z += w;
                for (i = 0; i < 4; i++) mean[i] += w * n[i];
            }
    for (i = 0; i < 4; i++) mean[i] /= Z;
}

static void test_mva_vs_product_form(void) {
    proper_qn q;
    proper_qn_init(&q);
    /* visit ratios by hand: v1 = 1, v2 = 0.3, v3 = 0.7, v4 = v2 + v3/2 = 0.65,
     * and v1 = v3/2 + v4 = 1 checks */
    double v[4] = {1, 0.3, 0.7, 0.65}, mean[4], mq[4], tput[4];
    unsigned N, i;
    make_bcmp(&q);
    for (N = 1; N <= 12; N += 11) {
        product_form(&q, v, N, mean);
        CHECK_INT(proper_qn_mva(&q, N, mq, tput, NULL), 0);
        for (i = 0; i < 4; i++) {
            CHECK_REL(mq[i], mean[i], 1e-10);
            CHECK_REL(tput[i] / tput[0], v[i], 1e-12);
        }
        /* Little: the delay station holds throughput / rate jobs */
        CHECK_REL(mq[0], tput[0] / q.rates[0], 1e-12);
    }
    proper_qn_free(&q);
}

static void test_mva_vs_gillespie(void) {
    proper_qn q;
    proper_qn_trace tr;
    proper_rng rng;
    proper_qn_init(&q);
    proper_qn_trace_init(&tr);
    unsigned long x0[4] = {8, 0, 0, 0};
    double mq[4], tput[4], avg[4] = {0, 0, 0, 0};
    size_t k, i, K = 40001, burn = 200;
    make_bcmp(&q);
    proper_rng_seed(&rng, 5);
    CHECK_INT(proper_qn_mva(&q, 8, mq, tput, NULL), 0);
    /* one long run sampled every time unit; the time average converges to
     * the steady state (ergodicity). 40000 correlated samples: about 1%
     * standard error on these queue lengths, so 5% is a 5-sigma band. */
    CHECK_INT(proper_qn_simulate(&q, x0, 1.0, K, 1, &rng, &tr, NULL, NULL), 0);
    for (k = burn; k < K; k++)
        for (i = 0; i < 4; i++) avg[i] += tr.x[k * 4 + i] / (double)(K - burn);
    for (i = 0; i < 4; i++) CHECK_REL(avg[i], mq[i], 0.05);
    proper_qn_trace_free(&tr);
    proper_qn_free(&q);
}

/* A load balancer (delay -> two multi-server stations -> delay) with
 * N = 2000: the averaged CTMC approaches the mean-field ODE (Kurtz), within
 * O(1/sqrt(N)) of N. */
static void make_balancer(proper_qn *q, double s, double mu2, double mu3) {
    proper_qn_init(q);
    proper_qn_create(q, 3, NULL);
    q->servers[0] = INFINITY; q->servers[1] = s; q->servers[2] = s;
    q->rates[0] = 1; q->rates[1] = mu2; q->rates[2] = mu3;
    q->routing[1] = q->routing[2] = 0.5;
    q->routing[3] = q->routing[6] = 1;
}

static void test_mean_field_large_n(void) {
    proper_qn q;
    proper_qn_trace sim, ode;
    proper_rng rng;
    proper_qn_init(&q);
    proper_qn_trace_init(&sim);
    proper_qn_trace_init(&ode);
    unsigned long x0[3] = {2000, 0, 0};
    double x0d[3] = {2000, 0, 0}, worst = 0;
    size_t k, i;
    make_balancer(&q, 10, 40, 50);
    proper_rng_seed(&rng, 3);
    CHECK_INT(proper_qn_simulate(&q, x0, 0.02, 101, 32, &rng, &sim, NULL, NULL), 0);
    CHECK_INT(proper_qn_ode_rk4(&q, x0d, 0.02, 101, 20, &ode, NULL), 0);
    for (k = 0; k < 101; k++)
        for (i = 0; i < 3; i++) {
            double e = fabs(sim.x[k * 3 + i] - ode.x[k * 3 + i]) / 2000;
            if (e > worst) worst = e;
        }
    /* over seeds 1..10 the worst deviation was 0.4% to 0.9% of N (noise of
     * 32 runs plus the O(1/N) bias); a wrong drift misses by tens of % */
    CHECK(worst < 0.02);
    proper_qn_trace_free(&sim);
    proper_qn_trace_free(&ode);
    proper_qn_free(&q);
}

/* ---- estimators ----------------------------------------------------------- */

static void make_four(proper_qn *q) {
    static const double P[16] = {0, 0.5, 0.3, 0.2, 0.6, 0, 0.4, 0, 0.1, 0.2, 0, 0.7, 1, 0, 0, 0};
    proper_qn_init(q);
    proper_qn_create(q, 4, NULL);
    q->servers[0] = INFINITY; q->servers[1] = 4; q->servers[2] = 1; q->servers[3] = 8;
    q->rates[0] = 3; q->rates[1] = 17; q->rates[2] = 55; q->rates[3] = 9.5;
    memcpy(q->routing, P, sizeof P);
}

/* Euler trajectories satisfy (4.7) with zero error at the true parameters,
 * so the LP's optimum is 0 and (with enough excitation) unique. */
static void test_lp_recovers_euler(void) {
    static const double starts[4][4] = {{40, 0, 0, 0}, {0, 30, 5, 5}, {5, 0, 35, 0}, {10, 2, 3, 25}};
    proper_qn q, fit;
    proper_qn_trace tr[4];
    proper_qn_fit_result res;
    size_t t, i, j;
    proper_qn_init(&q);
    proper_qn_init(&fit);
    for (t = 0; t < 4; t++) proper_qn_trace_init(&tr[t]);
    make_four(&q);
    for (t = 0; t < 4; t++) CHECK_INT(proper_qn_ode_euler(&q, starts[t], 0.01, 61, &tr[t], NULL), 0);
    CHECK_INT(proper_qn_fit_lp(tr, 4, q.servers, PROPER_QN_EULER, NULL, NULL, &fit, &res, NULL), 0);
    CHECK_ABS(res.objective, 0, 1e-8);
    CHECK_INT(res.rows, 4 + 4 * 60 * 4);
    for (i = 0; i < 4; i++) {
        CHECK_REL(fit.rates[i], q.rates[i], 1e-7);
        for (j = 0; j < 4; j++) CHECK_ABS(fit.routing[i * 4 + j], q.routing[i * 4 + j], 1e-7);
    }
    proper_qn_free(&fit);
    for (t = 0; t < 4; t++) proper_qn_trace_free(&tr[t]);
    proper_qn_free(&q);
}

/* Fluid samples (RK4, 40 substeps per step) of the four-station network,
 * whose stations cross their server counts: the Euler LP misses a rate by
 * its step bias (1.9%), the EXACT rounds recover rates and routing to the
 * rounds' tolerance (PROPER_QN_EXACT_TOL = 1e-3). */
static void test_lp_exact_recovers_fluid(void) {
    static const double starts[4][4] = {{40, 0, 0, 0}, {0, 30, 5, 5}, {5, 0, 35, 0}, {10, 2, 3, 25}};
    proper_qn q, euler, exact;
    proper_qn_trace tr[4];
    size_t t, i, j;
    double euler_err = 0;
    proper_qn_init(&q);
    proper_qn_init(&euler);
    proper_qn_init(&exact);
    for (t = 0; t < 4; t++) proper_qn_trace_init(&tr[t]);
    make_four(&q);
    for (t = 0; t < 4; t++) CHECK_INT(proper_qn_ode_rk4(&q, starts[t], 0.01, 61, 40, &tr[t], NULL), 0);
    CHECK_INT(proper_qn_fit_lp(tr, 4, q.servers, PROPER_QN_EULER, NULL, NULL, &euler, NULL, NULL), 0);
    CHECK_INT(proper_qn_fit_lp(tr, 4, q.servers, PROPER_QN_EXACT, NULL, NULL, &exact, NULL, NULL), 0);
    for (i = 0; i < 4; i++) {
        euler_err = fmax(euler_err, fabs(euler.rates[i] - q.rates[i]) / q.rates[i]);
        CHECK_REL(exact.rates[i], q.rates[i], PROPER_QN_EXACT_TOL);
        for (j = 0; j < 4; j++) CHECK_ABS(exact.routing[i * 4 + j], q.routing[i * 4 + j], PROPER_QN_EXACT_TOL);
    }
    CHECK(euler_err > 0.01);
    proper_qn_free(&euler);
    proper_qn_free(&exact);
    for (t = 0; t < 4; t++) proper_qn_trace_free(&tr[t]);
    proper_qn_free(&q);
}

/* Exact samples of a linear two-station cycle (a delay station and one that
 * never saturates), x(k+1) = e^{A dt} x(k) with A^2 = -lambda A, lambda =
 * mu1 + mu2. Each scheme fits them exactly with the rates scaled by a
 * closed-form factor of u = lambda dt: (1 - e^-u) / u for Euler and
 * tanh(u/2) / (u/2) for the trapezoid (derivation at enum proper_qn_scheme). */
static void test_lp_scheme_bias_closed_form(void) {
    static const double starts[2][2] = {{40, 0}, {5, 35}};
    const double mu1 = 30, mu2 = 70, dt = 0.01, lambda = mu1 + mu2, u = lambda * dt;
    const double factor[2] = {(1 - exp(-u)) / u, tanh(u / 2) / (u / 2)};
    double servers[2] = {INFINITY, 1000};
    proper_qn_trace tr[2];
    size_t t, k, scheme;
    for (t = 0; t < 2; t++) {
        proper_qn_trace_init(&tr[t]);
        CHECK_INT(proper_qn_trace_create(&tr[t], 2, 31, dt, 0, NULL), 0);
        for (k = 0; k < 31; k++) {
            double n = starts[t][0] + starts[t][1], x1_inf = n * mu2 / lambda;
            double x1 = x1_inf + (starts[t][0] - x1_inf) * exp(-lambda * dt * (double)k);
            tr[t].x[2 * k] = x1;
            tr[t].x[2 * k + 1] = n - x1;
        }
    }
    for (scheme = 0; scheme < 2; scheme++) {
        proper_qn fit;
        proper_qn_fit_result res;
        proper_qn_init(&fit);
        CHECK_INT(proper_qn_fit_lp(tr, 2, servers, (int)scheme, NULL, NULL, &fit, &res, NULL), 0);
        CHECK_ABS(res.objective, 0, 1e-9);
        CHECK_REL(fit.rates[0], mu1 * factor[scheme], 1e-9);
        CHECK_REL(fit.rates[1], mu2 * factor[scheme], 1e-9);
        proper_qn_free(&fit);
    }
    {
        /* EXACT: each round shrinks the error by c = 1 - e^-u; it stops
         * when the rates move by at most PROPER_QN_EXACT_TOL, so the error
         * left is at most that times c / (1 - c) */
        proper_qn fit;
        proper_qn_fit_result res;
        proper_qn_init(&fit);
        const double c = 1 - exp(-u), bound = PROPER_QN_EXACT_TOL * c / (1 - c);
        CHECK_INT(proper_qn_fit_lp(tr, 2, servers, PROPER_QN_EXACT, NULL, NULL, &fit, &res, NULL), 0);
        CHECK_REL(fit.rates[0], mu1, bound);
        CHECK_REL(fit.rates[1], mu2, bound);
        CHECK(res.rounds > 2 && res.rounds < PROPER_QN_EXACT_ROUNDS);
        proper_qn_free(&fit);
    }
    {
        proper_qn fit;
        proper_error e;
        proper_qn_init(&fit);
        CHECK_INT(proper_qn_fit_lp(tr, 2, servers, 7, NULL, NULL, &fit, NULL, &e), PROPER_EINVAL);
        CHECK(strstr(e.message, "scheme") != NULL);
    }
    for (t = 0; t < 2; t++) proper_qn_trace_free(&tr[t]);
}

/* On noisy (simulated) traces the LP has a positive optimum; the primal
 * and the dual paths of the native solver must agree on it. */
static void test_lp_paths_agree_on_noisy_traces(void) {
    proper_qn q;
    proper_qn_trace tr[2];
    proper_rng rng;
    proper_lp lp;
    proper_lp_solution a, b;
    proper_lp_opts o = proper_lp_opts_default();
    unsigned long x0[2][4] = {{30, 0, 0, 0}, {0, 10, 10, 10}};
    size_t t;
    proper_qn_init(&q);
    proper_lp_init(&lp);
    proper_lp_solution_init(&a);
    proper_lp_solution_init(&b);
    for (t = 0; t < 2; t++) proper_qn_trace_init(&tr[t]);
    make_four(&q);
    proper_rng_seed(&rng, 17);
    for (t = 0; t < 2; t++) CHECK_INT(proper_qn_simulate(&q, x0[t], 0.01, 41, 5, &rng, &tr[t], NULL, NULL), 0);
    CHECK_INT(proper_qn_build_lp(tr, 2, q.servers, PROPER_QN_EULER, &lp, NULL), 0);
    o.method = PROPER_LP_PRIMAL;
    CHECK_INT(proper_lp_solve(&lp, &o, &a, NULL), 0);
    o.method = PROPER_LP_DUAL;
    CHECK_INT(proper_lp_solve(&lp, &o, &b, NULL), 0);
    CHECK(a.objective > 1);
    CHECK_REL(a.objective, b.objective, 1e-9);
    CHECK_INT(b.solved_dual, 1);
    proper_lp_solution_free(&a);
    proper_lp_solution_free(&b);
    proper_lp_free(&lp);
    for (t = 0; t < 2; t++) proper_qn_trace_free(&tr[t]);
    proper_qn_free(&q);
}

/* The row-subset solve of the topology LP (PROPER_QN_LAD_MIN_ROWS is 400
 * here) reaches the optimum of the whole LP, solved directly by lp.h: on
 * noisy traces of random networks with M = 4 and 6 (2400-4800 data rows),
 * for the Euler and the trapezoid scheme. */
static void test_lp_row_subsets_reach_whole_optimum(void) {
    proper_rng rng;
    size_t Ms[2] = {4, 6}, mi, sc;
    proper_rng_seed(&rng, 47);
    for (mi = 0; mi < 2; mi++)
        for (sc = 0; sc < 2; sc++) {
            size_t M = Ms[mi], i, j, t;
            int scheme = sc ? PROPER_QN_TRAPEZOID : PROPER_QN_EULER;
            proper_qn q, fit;
            proper_qn_trace tr[3];
            proper_qn_fit_result res;
            proper_lp lp;
            proper_lp_solution whole;
            unsigned long x0[6];
            proper_qn_init(&q);
            proper_qn_init(&fit);
            proper_lp_init(&lp);
            proper_lp_solution_init(&whole);
            proper_qn_create(&q, M, NULL);
            for (i = 0; i < M; i++) {
                double sum = 0;
                q.rates[i] = 1 + 49 * proper_rng_uniform(&rng);
                q.servers[i] = i == 0 ? INFINITY : (double)(1 + proper_rng_below(&rng, 8));
                for (j = 0; j < M; j++) sum += q.routing[i * M + j] = i == j ? 0 : proper_rng_uniform(&rng);
                for (j = 0; j < M; j++) q.routing[i * M + j] /= sum;
            }
            for (t = 0; t < 3; t++) {
                proper_qn_trace_init(&tr[t]);
                for (i = 0; i < M; i++) x0[i] = (unsigned long)proper_rng_below(&rng, 30);
                CHECK_INT(proper_qn_simulate(&q, x0, 0.01, 201, 5, &rng, &tr[t], NULL, NULL), 0);
            }
            CHECK_INT(proper_qn_fit_lp(tr, 3, q.servers, scheme, NULL, NULL, &fit, &res, NULL), 0);
            CHECK_INT(proper_qn_build_lp(tr, 3, q.servers, scheme, &lp, NULL), 0);
            CHECK(lp.nrows - M > PROPER_QN_LAD_MIN_ROWS);
            CHECK_INT(proper_lp_solve(&lp, NULL, &whole, NULL), 0);
            CHECK_REL(res.objective, whole.objective, 1e-9);
            proper_lp_solution_free(&whole);
            proper_lp_free(&lp);
            for (t = 0; t < 3; t++) proper_qn_trace_free(&tr[t]);
            proper_qn_free(&fit);
            proper_qn_free(&q);
        }
}

static void test_qp_recovers_euler(void) {
    proper_qn q;
    proper_qn_trace tr;
    double x0[3] = {500, 0, 0}, mu[3];
    proper_qn_init(&q);
    proper_qn_trace_init(&tr);
    unsigned char known[3] = {1, 0, 0};
    double *rates, *ends;
    size_t nwin, w;
    make_balancer(&q, 20, 68.97, 73.80);
    CHECK_INT(proper_qn_ode_euler(&q, x0, 0.01, 301, &tr, NULL), 0);
    /* all three rates from the transient */
    CHECK_INT(proper_qn_fit_qp(&tr, 1, &q, NULL, 0, 50, mu, NULL), 0);
    CHECK_REL(mu[0], 1, 1e-8);
    CHECK_REL(mu[1], 68.97, 1e-8);
    CHECK_REL(mu[2], 73.80, 1e-8);
    /* moving horizon with the delay rate known: every window, including the
     * steady-state ones, recovers the server rates */
    CHECK_INT(proper_qn_mhe(&tr, &q, known, 50, 25, &rates, &ends, &nwin, NULL), 0);
    CHECK_INT(nwin, 11);
    CHECK_ABS(ends[0], 0.5, 1e-12);
    CHECK_ABS(ends[nwin - 1], 3.0, 1e-12);
    for (w = 0; w < nwin; w++) {
        CHECK_REL(rates[w * 3 + 0], 1, 1e-12);
        CHECK_REL(rates[w * 3 + 1], 68.97, 1e-7);
        CHECK_REL(rates[w * 3 + 2], 73.80, 1e-7);
    }
    PROPER_FREE(rates);
    PROPER_FREE(ends);
    proper_qn_trace_free(&tr);
    proper_qn_free(&q);
}

/* The balance estimator (the thesis's QP 4.2 in closed form). On an Euler
 * trace each step's flows are exactly dt mu_i b_i(k), so any window gives
 * the rates exactly; on a stochastic trace of the balancer with the think
 * rate known, station 2's rate is the flow balance (jobs routed in from the
 * delay, minus the queue's growth, per busy-server time), computed here
 * from the trace directly. Without a known rate it refuses. */
static void test_balance_estimator(void) {
    proper_qn q;
    proper_qn_trace tr;
    proper_rng rng;
    proper_error e;
    double x0[3] = {500, 0, 0}, mu[3], in = 0, busy2 = 0, *rates, *ends;
    unsigned long n0[3] = {300, 0, 0};
    unsigned char known[3] = {1, 0, 0};
    size_t k, nwin;
    proper_qn_init(&q);
    proper_qn_trace_init(&tr);
    make_balancer(&q, 20, 68.97, 73.80);
    CHECK_INT(proper_qn_ode_euler(&q, x0, 0.01, 301, &tr, NULL), 0);
    CHECK_INT(proper_qn_fit_balance(&tr, 1, &q, known, 10, 60, mu, NULL), 0);
    CHECK_REL(mu[0], 1, 1e-15);
    CHECK_REL(mu[1], 68.97, 1e-9);
    CHECK_REL(mu[2], 73.80, 1e-9);
    CHECK_INT(proper_qn_mhe_with(&tr, &q, known, 100, 100, PROPER_QN_BALANCE, &rates, &ends, &nwin, NULL), 0);
    CHECK_INT(nwin, 3);
    CHECK_REL(rates[2 * 3 + 2], 73.80, 1e-9);
    PROPER_FREE(rates);
    PROPER_FREE(ends);
    CHECK_INT(proper_qn_fit_balance(&tr, 1, &q, NULL, 0, 50, mu, &e), PROPER_EINVAL);
    CHECK(strstr(e.message, "at least one known rate") != NULL);
    proper_qn_trace_free(&tr);
    proper_qn_free(&q);
    make_balancer(&q, 5, 20, 30);
    proper_rng_seed(&rng, 29);
    CHECK_INT(proper_qn_simulate(&q, n0, 0.01, 201, 1, &rng, &tr, NULL, NULL), 0);
    CHECK_INT(proper_qn_fit_balance(&tr, 1, &q, known, 0, 200, mu, NULL), 0);
    for (k = 0; k < 200; k++) {
        in += 0.01 * q.routing[0 * 3 + 1] * q.rates[0] * tr.busy[k * 3 + 0];
        busy2 += 0.01 * tr.busy[k * 3 + 1];
    }
    CHECK_REL(mu[1], (in - (tr.x[200 * 3 + 1] - tr.x[0 * 3 + 1])) / busy2, 1e-12);
    CHECK(fabs(mu[1] - 20) < 0.3 * 20);
    proper_qn_trace_free(&tr);
    proper_qn_free(&q);
}

/* With mu_1 and mu_3 known, the QP in mu_2 alone is a one-dimensional least
 * squares problem: mu_2 = max(0, sum a_k r_k / sum a_k^2), computed here
 * independently from the trace. */
static void test_qp_closed_form_one_unknown(void) {
    proper_qn q;
    proper_qn_trace tr;
    proper_rng rng;
    proper_qn_init(&q);
    proper_qn_trace_init(&tr);
    unsigned long x0[3] = {300, 0, 0};
    unsigned char known[3] = {1, 0, 1};
    double mu[3], num = 0, den = 0;
    size_t k, j;
    make_balancer(&q, 5, 20, 30);
    proper_rng_seed(&rng, 23);
    CHECK_INT(proper_qn_simulate(&q, x0, 0.01, 201, 3, &rng, &tr, NULL, NULL), 0);
    CHECK_INT(proper_qn_fit_qp(&tr, 1, &q, known, 0, 200, mu, NULL), 0);
    for (k = 0; k < 200; k++)
        for (j = 0; j < 3; j++) {
            const double *b = tr.busy + k * 3;
            double dx = tr.x[(k + 1) * 3 + j] - tr.x[k * 3 + j];
            /* the change at j explained by the known stations 1 and 3 */
            double known_part = 0.01 * ((q.routing[0 * 3 + j] - (j == 0)) * q.rates[0] * b[0] +
                                        (q.routing[2 * 3 + j] - (j == 2)) * q.rates[2] * b[2]);
            double a = 0.01 * (q.routing[1 * 3 + j] - (j == 1)) * b[1];
            num += a * (dx - known_part);
            den += a * a;
        }
    CHECK_REL(mu[1], num / den > 0 ? num / den : 0, 1e-10);
    CHECK_ABS(mu[0], 1, 0);
    CHECK_ABS(mu[2], 30, 0);
    CHECK_REL(mu[1], 20, 0.2); /* and it is a sensible estimate */
    proper_qn_trace_free(&tr);
    proper_qn_free(&q);
}

/* A trace's interval reads back exactly after writing (the writer's
 * 10-digit times returned dt = 0.123456789 for 0.123456789012; fuzz_qn
 * finding), and a time that is not finite is refused. */
static void test_trace_dt_roundtrip(void) {
    static const char text[] = "t,x1\n0,1\n0.123456789012,2\n0.246913578024,3\n";
    proper_qn_trace t, back;
    proper_strbuf b;
    proper_error e;
    proper_qn_trace_init(&t);
    proper_qn_trace_init(&back);
    proper_strbuf_init(&b);
    CHECK_INT(proper_qn_parse_trace_csv(&t, text, strlen(text), "t.csv", &e), 0);
    CHECK_ABS(t.dt, 0.123456789012, 0);
    CHECK_INT(proper_qn_format_trace_csv(&t, &b, &e), 0);
    CHECK_INT(proper_qn_parse_trace_csv(&back, b.data, b.len, "back.csv", &e), 0);
    CHECK_ABS(back.dt, 0.123456789012, 0);
    CHECK_INT(proper_qn_parse_trace_csv(&back, "t,x1\n0,1\ninf,2\n", 16, "inf.csv", &e), PROPER_EPARSE);
    CHECK_CONTAINS(e.message, "times must be finite");
    CHECK_INT(e.line, 3);
    proper_strbuf_free(&b);
    proper_qn_trace_free(&t);
    proper_qn_trace_free(&back);
}

/* A bad server count is reported with its message (it was formatted into
 * itself and came out empty: "net.csv:2:3: "; fuzz_qn finding). */
static void test_bad_servers_message(void) {
    static const char text[] = "station,servers,rate,p1,p2\n1,0,1,0,1\n2,1,1,1,0\n";
    proper_qn q;
    proper_error e;
    proper_qn_init(&q);
    CHECK_INT(proper_qn_parse_network_csv(&q, text, strlen(text), "net.csv", &e), PROPER_ERANGE);
    CHECK_CONTAINS(e.message, "station 1: servers must be an integer >= 1 or inf (got 0)");
    CHECK_INT(e.line, 2);
    CHECK_INT(e.col, 3);
    CHECK(q.M == 0);
}

/* ---- the edges: runaway simulations, unstable steps, uninformative traces ---- */

/* A simulation whose event bound runs x (K - 1) dt x sum_i mu_i min(s_i, N)
 * exceeds PROPER_QN_MAX_EVENTS is refused before it starts (dt = 1e300 and
 * N = 2^31 never ended): for make_pair with N = 2^31, 100 runs and 200
 * steps of 0.01 the bound is 100 * 2 * (2 + 3) * 2^31 = 2.15e12. */
static void test_simulate_event_limit(void) {
    proper_qn q;
    proper_qn_trace tr;
    proper_rng rng;
    proper_error e;
    unsigned long x0[2] = {10, 0}, big[2] = {2147483648UL, 0};
    make_pair(&q);
    proper_qn_trace_init(&tr);
    proper_rng_seed(&rng, 1);
    CHECK_INT(proper_qn_simulate(&q, x0, 1e300, 201, 100, &rng, &tr, NULL, &e), PROPER_ELIMIT);
    CHECK_CONTAINS(e.message, "events");
    CHECK_INT(proper_qn_simulate(&q, big, 0.01, 201, 100, &rng, &tr, NULL, &e), PROPER_ELIMIT);
    CHECK_CONTAINS(e.message, "up to 2.15e+12 events");
    CHECK(tr.x == NULL); /* the output rule: unchanged */
    CHECK_INT(proper_qn_simulate(&q, x0, 0.01, 201, 100, &rng, &tr, NULL, &e), 0); /* 2e4 events at most */
    proper_qn_trace_free(&tr);
    proper_qn_free(&q);
}

/* Euler on make_pair (rates 2 and 3) from (10, 0): a station loses at most
 * dt mu_i x_i per step, so dt <= 1/3 keeps both queues non-negative; at dt
 * = 1/3 the first step is x1 = 10 - 2/3 * 10 = 10/3 exactly (as closed form:
 * x + dt f(x)). At dt = 1 x1 becomes 10 - 20 = -10: refused, naming dt. RK4
 * with one substep of dt = 1 multiplies the mode exp(-5t) by 1 - 5 + 25/2 -
 * 125/6 + 625/24 = 13.7 a step: x2 = 4 - 4 * 13.7 < 0, refused too. */
static void test_ode_unstable_step(void) {
    proper_qn q;
    proper_qn_trace tr;
    proper_error e;
    double x0[2] = {10, 0};
    size_t k;
    make_pair(&q);
    proper_qn_trace_init(&tr);
    CHECK_INT(proper_qn_ode_euler(&q, x0, 1.0 / 3.0, 50, &tr, &e), 0);
    CHECK_REL(tr.x[2], 10.0 / 3.0, 1e-12);
    for (k = 0; k < 100; k++) CHECK(tr.x[k] >= 0);
    CHECK_INT(proper_qn_ode_euler(&q, x0, 1, 50, &tr, &e), PROPER_ERANGE);
    CHECK_CONTAINS(e.message, "station 1 became -10 at t = 1; use dt <= 0.333333");
    CHECK_REL(tr.x[2], 10.0 / 3.0, 1e-12); /* unchanged */
    CHECK_INT(proper_qn_ode_rk4(&q, x0, 1, 50, 1, &tr, &e), PROPER_ERANGE);
    CHECK_CONTAINS(e.message, "RK4 is unstable");
    proper_qn_trace_free(&tr);
    proper_qn_free(&q);
}

/* A constant trace shows no station serving: the LP fit refused it, the QP
 * fit returned all rates 0; both now refuse it with one message. */
static void test_constant_trace_refused(void) {
    proper_qn q;
    proper_qn_trace tr;
    proper_error e;
    double servers[2] = {INFINITY, INFINITY}, mu[2] = {7, 7};
    size_t k;
    make_pair(&q);
    proper_qn_trace_init(&tr);
    CHECK_INT(proper_qn_trace_create(&tr, 2, 5, 0.01, 1, NULL), 0);
    for (k = 0; k < 5; k++) {
        tr.x[2 * k] = 6; tr.x[2 * k + 1] = 4;
        tr.busy[2 * k] = 6; tr.busy[2 * k + 1] = 4;
    }
    CHECK_INT(proper_qn_fit_qp(&tr, 1, &q, NULL, 0, 4, mu, &e), PROPER_EINVAL);
    CHECK_CONTAINS(e.message, "station 1: estimated rate is 0; the traces never show it serving");
    CHECK_ABS(mu[0], 7, 0); /* unchanged */
    {
        proper_qn fit;
        proper_qn_init(&fit);
        CHECK_INT(proper_qn_fit_lp(&tr, 1, servers, PROPER_QN_EULER, NULL, NULL, &fit, NULL, &e), PROPER_EINVAL);
        CHECK_CONTAINS(e.message, "station 1: estimated rate is 0; the traces never show it serving");
        proper_qn_free(&fit);
    }
    proper_qn_trace_free(&tr);
    proper_qn_free(&q);
}

/* ---- what-if error, CSV, bad input ------------------------------------------- */

static void test_trace_error_metric(void) {
    proper_qn_trace a, b;
    double mx, mean;
    proper_qn_trace_init(&a);
    proper_qn_trace_init(&b);
    proper_qn_trace_create(&a, 2, 2, 1, 0, NULL);
    proper_qn_trace_create(&b, 2, 2, 1, 0, NULL);
    a.x[0] = 10; a.x[1] = 0; a.x[2] = 5; a.x[3] = 5;
    b.x[0] = 9; b.x[1] = 1; b.x[2] = 5; b.x[3] = 5;
    /* sample 0: (1 + 1) / (2 * 10) = 10%; sample 1: 0% */
    CHECK_INT(proper_qn_trace_error(&a, &b, &mx, &mean, NULL), 0);
    CHECK_ABS(mx, 10, 1e-12);
    CHECK_ABS(mean, 5, 1e-12);
    proper_qn_trace_free(&a);
    proper_qn_trace_free(&b);
}

static void test_csv_roundtrip(void) {
    proper_qn q, back;
    proper_qn_trace tr, tb;
    double x0[4] = {5, 6, 7, 8};
    proper_strbuf text;
    size_t i;
    proper_qn_init(&q);
    proper_qn_init(&back);
    proper_qn_trace_init(&tr);
    proper_qn_trace_init(&tb);
    proper_strbuf_init(&text);
    make_four(&q);
    CHECK_INT(proper_qn_format_network_csv(&q, &text, NULL), 0);
    CHECK_CONTAINS(text.data, "station,servers,rate,p1,p2,p3,p4\n1,inf,3,0,0.5,");
    CHECK_INT(proper_qn_parse_network_csv(&back, text.data, text.len, "n.csv", NULL), 0);
    CHECK_INT(back.M, 4);
    for (i = 0; i < 16; i++) CHECK(back.routing[i] == q.routing[i]);
    for (i = 0; i < 4; i++) CHECK(back.rates[i] == q.rates[i] && back.servers[i] == q.servers[i]);
    proper_strbuf_free(&text);
    CHECK_INT(proper_qn_ode_euler(&q, x0, 0.01, 5, &tr, NULL), 0);
    CHECK_INT(proper_qn_format_trace_csv(&tr, &text, NULL), 0);
    CHECK_CONTAINS(text.data, "t,x1,x2,x3,x4,b1,b2,b3,b4\n0,5,6,7,8,5,4,1,8\n0.01,");
    CHECK_INT(proper_qn_parse_trace_csv(&tb, text.data, text.len, "t.csv", NULL), 0);
    CHECK_INT(tb.K, 5);
    CHECK_ABS(tb.dt, 0.01, 1e-15);
    for (i = 0; i < 20; i++) CHECK(tb.x[i] == tr.x[i] && tb.busy[i] == tr.busy[i]);
    proper_strbuf_free(&text);
    proper_qn_trace_free(&tr);
    proper_qn_trace_free(&tb);
    proper_qn_free(&back);
    proper_qn_free(&q);
}

/* Network and trace CSV files that start with a UTF-8 byte order mark read
 * as the same files without it; a BOM in the middle is still an error. */
static void test_csv_bom(void) {
    static const char net[] = "\xEF\xBB\xBFstation,servers,rate,p1,p2\n1,inf,2,0,1\n2,3,5,1,0\n";
    static const char trace[] = "\xEF\xBB\xBFt,x1,x2\n0,4,1\n0.5,3,2\n";
    static const char late[] = "t,x1,x2\n\xEF\xBB\xBF" "0,4,1\n";
    proper_qn q;
    proper_qn_trace tr;
    proper_error e;
    proper_qn_init(&q);
    proper_qn_trace_init(&tr);
    CHECK_INT(proper_qn_parse_network_csv(&q, net, strlen(net), "n.csv", NULL), 0);
    CHECK_INT(q.M, 2);
    CHECK(isinf(q.servers[0]) && q.servers[1] == 3 && q.rates[1] == 5);
    CHECK_INT(proper_qn_parse_trace_csv(&tr, trace, strlen(trace), "t.csv", NULL), 0);
    CHECK_INT(tr.K, 2);
    CHECK(tr.x[3] == 2);
    proper_qn_trace_free(&tr);
    CHECK(proper_qn_parse_trace_csv(&tr, late, strlen(late), "t.csv", &e) != 0);
    CHECK_INT(tr.K, 0);
    proper_qn_free(&q);
}

static void test_bad_network(void) {
    proper_qn q;
    proper_error e;
    char buf[700];
    proper_qn_init(&q);
    make_four(&q);
    q.routing[1] = 0.4; /* row 1 sums to 0.9 */
    CHECK_INT(proper_qn_validate(&q, &e), PROPER_EPROB);
    CHECK_CONTAINS(e.message, "row 1 sums to 0.9");
    q.routing[1] = 0.5;
    q.rates[2] = -1;
    CHECK_INT(proper_qn_validate(&q, &e), PROPER_ERANGE);
    CHECK_CONTAINS(e.message, "station 3");
    q.rates[2] = 55;
    q.servers[1] = 2.5;
    CHECK_INT(proper_qn_validate(&q, &e), PROPER_ERANGE);
    q.servers[1] = 4;
    CHECK_INT(proper_qn_validate(&q, &e), 0);
    proper_qn_free(&q);
    {
        static const char *bad_rows = "station,servers,rate,p1,p2\n1,inf,1,0,1\n2,3,2,0.5,0.4\n";
        static const char *neg_rate = "station,servers,rate,p1,p2\n1,inf,-1,0,1\n2,3,2,1,0\n";
        static const char *bad_header = "station,servers,mu,p1,p2\n";
        CHECK_INT(proper_qn_parse_network_csv(&q, bad_rows, strlen(bad_rows), "n.csv", &e), PROPER_EPROB);
        CHECK_CONTAINS(proper_error_format(&e, buf, sizeof buf), "n.csv:3:");
        CHECK_CONTAINS(buf, "sums to 0.9");
        CHECK_INT(proper_qn_parse_network_csv(&q, neg_rate, strlen(neg_rate), "n.csv", &e), PROPER_ERANGE);
        CHECK_CONTAINS(proper_error_format(&e, buf, sizeof buf), "n.csv:2:7:");
        CHECK_INT(proper_qn_parse_network_csv(&q, bad_header, strlen(bad_header), "n.csv", &e), PROPER_EPARSE);
        CHECK_CONTAINS(proper_error_format(&e, buf, sizeof buf), "n.csv:1:17: expected header field 'rate'");
    }
}

/* Two networks that differ only in their saturated stations give the same
 * trace. Stations 2 and 3 (one server each) stay busy, so the LP's data are
 * the constants c_j = sum_i g_ij - mu_j [j saturated] with g_ij = mu_i p_ij:
 * c = (5, -2, -3) both for A (mu2 = 2, mu3 = 3, both to the delay) and for
 * B (mu2 = 3 with 1/3 to station 3, mu3 = 4 with 1/4 to station 2); the
 * difference (g21, g23, g31, g32) += (0, 1, 0, 1) lies in the null space of
 * the three constants. proper_qn_saturation flags both stations. */
static void make_saturated_pair(proper_qn *q, double mu2, double p23, double mu3, double p32) {
    proper_qn_init(q);
    proper_qn_create(q, 3, NULL);
    q->servers[0] = INFINITY; q->servers[1] = 1; q->servers[2] = 1;
    q->rates[0] = 1.5; q->rates[1] = mu2; q->rates[2] = mu3;
    q->routing[0 * 3 + 1] = 0.4; q->routing[0 * 3 + 2] = 0.6;
    q->routing[1 * 3 + 0] = 1 - p23; q->routing[1 * 3 + 2] = p23;
    q->routing[2 * 3 + 0] = 1 - p32; q->routing[2 * 3 + 1] = p32;
}

static void test_saturated_stations_not_identifiable(void) {
    proper_qn a, b;
    proper_qn_trace ta, tb;
    double x0[3] = {10, 50, 50}, share[3], gap = 0;
    size_t k;
    proper_qn_init(&a);
    proper_qn_init(&b);
    proper_qn_trace_init(&ta);
    proper_qn_trace_init(&tb);
    make_saturated_pair(&a, 2, 0, 3, 0);
    make_saturated_pair(&b, 3, 1.0 / 3, 4, 0.25);
    CHECK_INT(proper_qn_validate(&b, NULL), 0);
    CHECK_INT(proper_qn_ode_euler(&a, x0, 0.01, 50, &ta, NULL), 0);
    CHECK_INT(proper_qn_ode_euler(&b, x0, 0.01, 50, &tb, NULL), 0);
    for (k = 0; k < 50 * 3; k++) gap = fmax(gap, fabs(ta.x[k] - tb.x[k]));
    CHECK_ABS(gap, 0, 1e-12);
    CHECK_INT(proper_qn_saturation(&ta, 1, a.servers, share, NULL), 0);
    CHECK_ABS(share[0], 0, 0);
    CHECK_ABS(share[1], 1, 0);
    CHECK_ABS(share[2], 1, 0);
    proper_qn_trace_free(&ta);
    proper_qn_trace_free(&tb);
    proper_qn_free(&a);
    proper_qn_free(&b);
}

/* Shares counted by hand: busy >= s (1 - 1e-3) over all samples of both
 * traces (4 + 2). Station 2 (s = 2, threshold 1.998): 2, 1.9985, 2 of
 * {2, 1.9985, 1.99, 2, 0, 0}: 3/6. Station 3 (s = 1): 5 of 6. */
static void test_saturation_share_counts(void) {
    proper_qn_trace t[2];
    double servers[3] = {INFINITY, 2, 1}, share[3];
    static const double busy0[12] = {9, 2, 1, 9, 1.9985, 1, 9, 1.99, 1, 9, 2, 1};
    static const double busy1[6] = {9, 0, 1, 9, 0, 0.9};
    proper_error e;
    proper_qn_trace_init(&t[0]);
    proper_qn_trace_init(&t[1]);
    CHECK_INT(proper_qn_trace_create(&t[0], 3, 4, 0.1, 1, NULL), 0);
    CHECK_INT(proper_qn_trace_create(&t[1], 3, 2, 0.1, 1, NULL), 0);
    memcpy(t[0].busy, busy0, sizeof busy0);
    memcpy(t[0].x, busy0, sizeof busy0);
    memcpy(t[1].busy, busy1, sizeof busy1);
    memcpy(t[1].x, busy1, sizeof busy1);
    CHECK_INT(proper_qn_saturation(t, 2, servers, share, NULL), 0);
    CHECK_ABS(share[0], 0, 0);
    CHECK_ABS(share[1], 0.5, 1e-15);
    CHECK_ABS(share[2], 5.0 / 6, 1e-15);
    servers[1] = 0.5;
    CHECK_INT(proper_qn_saturation(t, 2, servers, share, &e), PROPER_ERANGE);
    CHECK_CONTAINS(e.message, "station 2: servers must be an integer");
    proper_qn_trace_free(&t[0]);
    proper_qn_trace_free(&t[1]);
}

static void test_bad_traces(void) {
    static const char *missing = "t,x1,x2\n0,1,2\n0.1,1,2\n0.3,1,2\n";
    static const char *short_row = "t,x1,x2\n0,1,2\n0.1,1\n";
    static const char *negative = "t,x1,x2\n0,1,2\n0.1,1,-2\n";
    static const char *late = "t,x1,x2\n0.5,1,2\n0.6,1,2\n";
    proper_qn_trace tr, a, b;
    proper_qn q, fit;
    proper_error e;
    char buf[700];
    double x0[3] = {5, 0, 0}, x1[4] = {5, 0, 0, 0};
    proper_qn_init(&q);
    proper_qn_init(&fit);
    proper_qn_trace_init(&tr);
    proper_qn_trace_init(&a);
    proper_qn_trace_init(&b);
    CHECK_INT(proper_qn_parse_trace_csv(&tr, missing, strlen(missing), "t.csv", &e), PROPER_EPARSE);
    CHECK_CONTAINS(proper_error_format(&e, buf, sizeof buf), "t.csv:4:1: sample missing");
    CHECK_INT(proper_qn_parse_trace_csv(&tr, short_row, strlen(short_row), "t.csv", &e), PROPER_EPARSE);
    CHECK_CONTAINS(proper_error_format(&e, buf, sizeof buf), "t.csv:3:1: row has 2 columns, the header has 3");
    CHECK_INT(proper_qn_parse_trace_csv(&tr, negative, strlen(negative), "t.csv", &e), PROPER_ERANGE);
    CHECK_CONTAINS(proper_error_format(&e, buf, sizeof buf), "t.csv:3:7:");
    CHECK_INT(proper_qn_parse_trace_csv(&tr, late, strlen(late), "t.csv", &e), PROPER_EPARSE);
    /* traces of different networks cannot be fitted together */
    make_balancer(&q, 2, 3, 4);
    CHECK_INT(proper_qn_ode_euler(&q, x0, 0.01, 10, &a, NULL), 0);
    proper_qn_free(&q);
    make_four(&q);
    CHECK_INT(proper_qn_ode_euler(&q, x1, 0.01, 10, &b, NULL), 0);
    {
        proper_qn_trace both[2];
        both[0] = b;
        both[1] = a;
        CHECK_INT(proper_qn_fit_lp(both, 2, q.servers, PROPER_QN_EULER, NULL, NULL, &fit, NULL, &e), PROPER_EINVAL);
        CHECK_CONTAINS(e.message, "trace 2 has 3 stations, expected 4");
    }
    /* a station that is never busy has no estimable rate */
    {
        double idle[4] = {5, 0, 0, 0};
        proper_qn_trace c;
        proper_qn_trace_init(&c);
        q.routing[0 * 4 + 1] = 0; q.routing[0 * 4 + 2] = 0; q.routing[0 * 4 + 3] = 1;
        CHECK_INT(proper_qn_ode_euler(&q, idle, 0.01, 3, &c, NULL), 0);
        CHECK_INT(proper_qn_fit_qp(&c, 1, &q, NULL, 0, 2, x1, &e), PROPER_EINVAL);
        CHECK_CONTAINS(e.message, "never busy");
        proper_qn_trace_free(&c);
    }
    proper_qn_trace_free(&a);
    proper_qn_trace_free(&b);
    proper_qn_free(&q);
}

/* ---- the network as a CTMC ---- */

/* Binomial coefficient C(n, k) in doubles (small n). */
static double binom(unsigned n, unsigned k) {
    double c = 1;
    unsigned i;
    for (i = 1; i <= k; i++) c = c * (double)(n - k + i) / (double)i;
    return c;
}

/* The CTMC's states are every vector of N jobs once, in strictly increasing
 * lexicographic order, and its steady state has MVA's queue lengths and
 * throughputs (exact MVA is exact for these product-form networks; the
 * product form itself is checked against MVA above). */
static void check_ctmc_against_mva(const proper_qn *q, unsigned long N, double tol) {
    proper_dtmc m;
    unsigned long x0[4] = {0, 0, 0, 0};
    double cq[4], ct[4], mq[4], mt[4];
    size_t M = q->M, i;
    uint32_t s;
    x0[0] = N;
    proper_dtmc_init(&m);
    CHECK_INT(proper_qn_ctmc(q, x0, &m, NULL), 0);
    CHECK_INT(m.kind, PROPER_DTMC_KIND_CTMC);
    CHECK_REL((double)m.n_states, binom((unsigned)(N + M - 1), (unsigned)(M - 1)), 0);
    for (s = 0; s < m.n_states; s++) {
        long sum = 0;
        int later = s == 0;
        for (i = 0; i < M; i++) sum += m.vals[(size_t)s * M + i];
        CHECK_INT(sum, (long)N);
        for (i = 0; s > 0 && i < M && !later; i++) {
            int32_t a = m.vals[(size_t)(s - 1) * M + i], b = m.vals[(size_t)s * M + i];
            if (a != b) { later = b > a; break; }
        }
        CHECK(later);
    }
    CHECK_INT(m.vals[(size_t)m.init * M], (int)N); /* x0: every job at station 1 */
    CHECK_INT(proper_qn_ctmc_steady(q, &m, NULL, cq, ct, NULL), 0);
    CHECK_INT(proper_qn_mva(q, N, mq, mt, NULL), 0);
    for (i = 0; i < M; i++) {
        CHECK_REL(cq[i], mq[i], tol);
        CHECK_REL(ct[i], mt[i], tol);
    }
    proper_dtmc_free(&m);
}

static void test_ctmc_against_mva(void) {
    proper_qn q;
    unsigned long N;
    make_bcmp(&q);
    for (N = 1; N <= 10; N++) check_ctmc_against_mva(&q, N, 1e-9);
    proper_qn_free(&q);
    make_balancer(&q, 2, 3, 5);
    for (N = 1; N <= 20; N += 19) check_ctmc_against_mva(&q, N, 1e-9);
    proper_qn_free(&q);
}

/* Two delay stations: each job alternates on its own, so the CTMC is the
 * birth-death chain with rates 2k down and 3(N-k) up from x1 = k (state k
 * in lexicographic order), and X1 ~ Binomial(N, 3/5) in the steady state. */
static void test_ctmc_pair_rates(void) {
    proper_qn q;
    proper_dtmc m;
    unsigned long x0[2] = {2, 3};
    double cq[2], ct[2];
    uint32_t k;
    make_pair(&q);
    proper_dtmc_init(&m);
    CHECK_INT(proper_qn_ctmc(&q, x0, &m, NULL), 0);
    CHECK_INT((int)m.n_states, 6);
    CHECK_INT((int)m.init, 2);
    for (k = 0; k <= 5; k++) {
        uint64_t t;
        CHECK_INT(m.vals[2 * k], (int)k);
        for (t = m.row[k]; t < m.row[k + 1]; t++) {
            if (m.col[t] + 1 == k) CHECK_REL(m.prob[t], 2.0 * k, 1e-15);
            else if (m.col[t] == k + 1) CHECK_REL(m.prob[t], 3.0 * (5 - k), 1e-15);
            else CHECK(0);
        }
        CHECK_INT((int)(m.row[k + 1] - m.row[k]), (k > 0) + (k < 5));
        CHECK_REL(m.rewards[0].state[k], (double)k, 0);
        CHECK_REL(m.rewards[3].state[k], 3.0 * (5 - k), 0); /* "tput2" */
    }
    CHECK_STR(m.rewards[3].name, "tput2");
    CHECK_INT(proper_qn_ctmc_steady(&q, &m, NULL, cq, ct, NULL), 0);
    CHECK_REL(cq[0], 3.0, 1e-12);
    CHECK_REL(ct[0], 6.0, 1e-12); /* 2 E[X1] */
    proper_dtmc_free(&m);
    proper_qn_free(&q);
}

/* The PRISM-language export, built by prism.h's own state exploration,
 * is the same CTMC: same state count, same steady-state queue lengths. */
static void test_ctmc_prism_export(void) {
    proper_qn q;
    proper_dtmc m, pm;
    proper_prism_model *model = NULL;
    unsigned long x0[4] = {3, 1, 0, 2};
    double cq[4], ct[4], *r = NULL;
    char *text;
    long len;
    size_t i;
    FILE *f = tmpfile();
    make_bcmp(&q);
    proper_dtmc_init(&m);
    proper_dtmc_init(&pm);
    CHECK(f != NULL);
    CHECK_INT(proper_qn_write_prism(&q, x0, f, NULL), 0);
    len = ftell(f);
    rewind(f);
    text = (char *)calloc((size_t)len + 1, 1);
    CHECK(fread(text, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
    CHECK_CONTAINS(text, "[] x3>0 & x1<6 -> 1.5*min(2,x3)*0.5 : (x3'=x3-1) & (x1'=x1+1);");
    CHECK_CONTAINS(text, "[] x1>0 & x2<6 -> 0.5*x1*0.3 : (x1'=x1-1) & (x2'=x2+1);");
    CHECK_INT(proper_prism_parse(&model, text, (size_t)len, "qn.pm", NULL), 0);
    CHECK_INT(proper_prism_build(model, NULL, &pm, NULL), 0);
    CHECK_INT(proper_qn_ctmc(&q, x0, &m, NULL), 0);
    CHECK_INT((int)pm.n_states, (int)m.n_states);
    CHECK_INT((int)pm.n_trans, (int)m.n_trans);
    CHECK_INT(proper_qn_ctmc_steady(&q, &m, NULL, cq, ct, NULL), 0);
    r = (double *)calloc(pm.n_states, sizeof *r);
    for (i = 0; i < 4; i++) {
        CHECK_INT(proper_dtmc_reward_steady(&pm, &pm.rewards[i], NULL, r, NULL), 0);
        CHECK_REL(proper_dtmc_value_at_init(&pm, r), cq[i], 1e-9);
    }
    free(r);
    free(text);
    proper_prism_free(model);
    proper_dtmc_free(&pm);
    proper_dtmc_free(&m);
    proper_qn_free(&q);
}

/* Limits are checked before anything is built; no jobs is one state. */
static void test_ctmc_limits(void) {
    proper_qn q;
    proper_dtmc m;
    proper_error err;
    unsigned long big[4] = {100000, 0, 0, 0}, none[4] = {0, 0, 0, 0};
    make_bcmp(&q);
    proper_dtmc_init(&m);
    CHECK_INT(proper_qn_ctmc(&q, big, &m, &err), PROPER_ELIMIT);
    CHECK_CONTAINS(err.message, "4 stations with 100000 jobs have more than");
    CHECK_INT((int)m.n_states, 0);
    CHECK_INT(proper_qn_ctmc(&q, none, &m, NULL), 0);
    CHECK_INT((int)m.n_states, 1);
    proper_dtmc_free(&m);
    proper_qn_free(&q);
}

int main(void) {
    RUN(test_ctmc_against_mva);
    RUN(test_ctmc_pair_rates);
    RUN(test_ctmc_prism_export);
    RUN(test_ctmc_limits);
    RUN(test_ode_two_station_exact);
    RUN(test_simulate_binomial_mean);
    RUN(test_mva_vs_product_form);
    RUN(test_mva_vs_gillespie);
    RUN(test_mean_field_large_n);
    RUN(test_lp_recovers_euler);
    RUN(test_lp_scheme_bias_closed_form);
    RUN(test_lp_exact_recovers_fluid);
    RUN(test_lp_paths_agree_on_noisy_traces);
    RUN(test_lp_row_subsets_reach_whole_optimum);
    RUN(test_qp_recovers_euler);
    RUN(test_qp_closed_form_one_unknown);
    RUN(test_balance_estimator);
    RUN(test_trace_error_metric);
    RUN(test_csv_roundtrip);
    RUN(test_csv_bom);
    RUN(test_bad_network);
    RUN(test_bad_traces);
    RUN(test_saturated_stations_not_identifiable);
    RUN(test_saturation_share_counts);
    RUN(test_simulate_event_limit);
    RUN(test_ode_unstable_step);
    RUN(test_constant_trace_refused);
    RUN(test_trace_dt_roundtrip);
    RUN(test_bad_servers_message);
    return test_summary();
}
