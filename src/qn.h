/* qn.h — closed queueing networks learned from queue-length traces.
 *
 * Implements the memoryless-process part of Napolitano's thesis (IMT Lucca
 * 2022, ch. 3.2-3.3 and 4; Incerto, Napolitano & Tribastone, MASCOTS 2018 and
 * ICPE 2021): simulate a closed network, approximate it by its mean-field
 * ODE, and learn service rates and routing probabilities back from
 * queue-length traces by linear or quadratic programming.
 *
 * THE MODEL
 *   M stations; station i has s_i servers (INFINITY: a delay station), rate
 *   mu_i per busy server, and routing row P[i][.] (sums to 1). A job that
 *   finishes at i moves to j with probability P[i][j]. With x_i jobs at i,
 *   station i completes jobs at rate mu_i min(s_i, x_i).
 *
 * FORMULATION (the thesis's equations; where proper differs it says so)
 *   mean-field ODE (thesis eq. 3.6):
 *       dx_j/dt = -mu_j min(s_j, x_j) + sum_i P_ij mu_i min(s_i, x_i)
 *   The same equation holds exactly for the means of the CTMC when
 *   min(s, x) is replaced by E[min(s_i, X_i)] (Dynkin's formula), which is
 *   why traces carry both E[X] and E[min(s, X)] ("busy").
 *   Euler step (eq. 4.1), with b_i(k) = E[min(s_i, X_i(t_k))]:
 *       x_j(k+1) = x_j(k) + dt (-mu_j b_j(k) + sum_i P_ij mu_i b_i(k))
 *   Topology LP (eqs. 4.5-4.8): variables mu_i >= 0 and g_ij = P_ij mu_i >= 0
 *   (i != j: a self-loop only rescales mu_i and cannot be identified), one
 *   pair e+, e- >= 0 per trace, step and station:
 *       minimise   sum (e+ + e-)                                   (4.5)
 *       subject to sum_j g_ij = mu_i                     for all i (4.6)
 *                  -dt b_j(k) mu_j + dt sum_i b_i(k) g_ij + e+ - e-
 *                        = x_j(k+1) - x_j(k)          for all j, k (4.7)
 *                  mu, g, e+, e- >= 0                              (4.8)
 *   so sum |e| is the total absolute one-step error; P = g / mu.
 *   PROPER_QN_TRAPEZOID replaces b(k) in (4.7) by (b(k) + b(k+1)) / 2 (see
 *   enum proper_qn_scheme for when each is the better choice).
 *   Service-rate QP with known routing, one-step form of eq. 4.2 (the
 *   thesis's trajectory QP itself is proper_qn_fit_balance, below):
 *       minimise   sum_k sum_j (x_j(k+1) - x_j(k) - dt [(P' - I) diag(b(k)) mu]_j)^2
 *       subject to mu >= 0 (rates given as known are fixed)
 *   solved exactly by lp.h's box QP on the normal equations; moving-horizon
 *   estimation solves it over windows of H steps.
 *   What-if error: the thesis's eq. 4.9 is per station,
 *       err_i = 100 max_k |x_i(k) - y_i(k)| / (2N);
 *   proper_qn_trace_error returns the share of misplaced jobs,
 *       err(k) = 100 * sum_i |x_i(k) - y_i(k)| / (2N)    (percent)
 *   (2N is the largest possible sum: all jobs in different places), as its
 *   maximum and its mean over the samples; its maximum bounds every err_i
 *   from above. examples/qn/tables.c computes the per-station form.
 *
 * TRACES
 *   proper_qn_trace holds K samples at t = 0, dt, ..., (K-1) dt of the mean
 *   queue lengths x and of b = E[min(s, X)]. A trace without b (b == NULL)
 *   uses min(s, x) instead, which is the mean-field approximation.
 *
 * CSV FORMATS
 *   network: header "station,servers,rate,p1,...,pM", then one row per
 *     station: index (1..M), servers (integer >= 1 or "inf"), rate, routing
 *     row. Lines starting with '#' are comments.
 *   trace: header "t,x1,...,xM" or "t,x1,...,xM,b1,...,bM", then one row
 *     per sample; times must start at 0 and be equally spaced.
 *   A UTF-8 byte order mark at the start of either file is skipped.
 *
 * OUTPUTS AND TUNABLES
 *   Every function that produces a network, a trace or an LP (create, copy,
 *   simulate, the ODEs, build_lp, fit_lp, the CSV readers) writes it through
 *   an output the caller has initialised (proper_qn_init,
 *   proper_qn_trace_init, proper_lp_init): replaced on success, unchanged
 *   on failure. proper_qn_mhe allocates its arrays (free with PROPER_FREE).
 *   Tunables (define before including to override): PROPER_QN_PROB_TOL,
 *   PROPER_QN_MIN_RATE, PROPER_QN_TIME_TOL, PROPER_QN_RESUM_EVERY,
 *   PROPER_QN_EXACT_TOL, PROPER_QN_EXACT_ROUNDS, PROPER_QN_EXACT_H_MU,
 *   PROPER_QN_SATURATED_TOL.
 */
#ifndef PROPER_QN_H
#define PROPER_QN_H

#include "core.h"
#include "dtmc.h"
#include "lp.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct proper_qn {
    size_t M;
    double *servers;   /* [M]; INFINITY for a delay station */
    double *rates;     /* [M] per-server service rates mu_i > 0 */
    double *routing;   /* [M*M] row-major P[i*M + j] */
} proper_qn;

/* Tunables (define before including to override). */
/* Routing rows must sum to 1 within this; each entry must be >= 0. */
#ifndef PROPER_QN_PROB_TOL
#define PROPER_QN_PROB_TOL 1e-9
#endif
/* A fitted rate below this counts as "station never seen serving". */
#ifndef PROPER_QN_MIN_RATE
#define PROPER_QN_MIN_RATE 1e-9
#endif
/* Relative tolerance for equally spaced trace times. */
#ifndef PROPER_QN_TIME_TOL
#define PROPER_QN_TIME_TOL 1e-6
#endif
/* The most events one proper_qn_simulate call may take (all runs): a call
 * whose bound runs x (K - 1) dt x sum_i mu_i min(s_i, N) exceeds it is
 * refused before it starts (PROPER_ELIMIT), and a run that reaches it stops
 * with that error. About 20-50 ns an event: 2e8 is seconds. */
#ifndef PROPER_QN_MAX_EVENTS
#define PROPER_QN_MAX_EVENTS 2e8
#endif
/* The simulator refreshes its summed rate from scratch this often (events),
 * so that the incremental updates cannot drift. */
#ifndef PROPER_QN_RESUM_EVERY
#define PROPER_QN_RESUM_EVERY 256
#endif

/* The empty network (M = 0); allocates nothing. */
PROPER_API void proper_qn_init(proper_qn *qn);
/* A network of M stations (all single-server, rate 1, routing 0). */
PROPER_API int proper_qn_create(proper_qn *qn, size_t M, proper_error *err);
PROPER_API void proper_qn_free(proper_qn *qn);
/* dst = src (dst may be src). */
PROPER_API int proper_qn_copy(proper_qn *dst, const proper_qn *src, proper_error *err);
/* Rates finite and > 0, servers integers >= 1 or infinite, routing rows
 * non-negative and summing to 1. */
PROPER_API int proper_qn_validate(const proper_qn *qn, proper_error *err);

typedef struct proper_qn_trace {
    size_t M, K;       /* stations; samples */
    double dt;         /* sampling interval */
    double *x;         /* [K*M] mean queue lengths, sample-major */
    double *busy;      /* [K*M] E[min(s_i, X_i)], or NULL */
} proper_qn_trace;

/* The empty trace (M = K = 0); allocates nothing. */
PROPER_API void proper_qn_trace_init(proper_qn_trace *tr);
/* A zero trace of K samples of M stations at interval dt, with busy
 * columns when with_busy. */
PROPER_API int proper_qn_trace_create(proper_qn_trace *tr, size_t M, size_t K, double dt, int with_busy,
                                      proper_error *err);
PROPER_API void proper_qn_trace_free(proper_qn_trace *tr);

/* Exact stochastic simulation (Gillespie) of the network's CTMC from the
 * population x0 (jobs per station), sampled at K instants t = k dt and
 * averaged over `runs` independent runs; tr receives E[X] and
 * E[min(s, X)]. *events (may be NULL) receives the number of jumps. */
PROPER_API int proper_qn_simulate(const proper_qn *qn, const unsigned long *x0, double dt, size_t K,
                                  size_t runs, proper_rng *rng, proper_qn_trace *tr,
                                  unsigned long long *events, proper_error *err);

/* Mean-field ODE from x0 (real), sampled at K instants t = k dt: by Euler
 * with step dt (eq. 4.1), or by classical RK4 with `substeps` steps per dt.
 * tr->busy receives min(s, x). */
PROPER_API int proper_qn_ode_euler(const proper_qn *qn, const double *x0, double dt, size_t K,
                                   proper_qn_trace *tr, proper_error *err);
PROPER_API int proper_qn_ode_rk4(const proper_qn *qn, const double *x0, double dt, size_t K,
                                 size_t substeps, proper_qn_trace *tr, proper_error *err);
/* The ODE's right-hand side f(x) into dx [M]. */
PROPER_API void proper_qn_drift(const proper_qn *qn, const double *x, double *dx);

/* Exact mean value analysis of the product-form network (FCFS stations with
 * s servers, or delay) with N jobs: mean queue lengths q [M] and
 * throughputs tput [M] (completions per unit time at each station).
 * Load-dependent MVA (Reiser & Lavenberg 1980) for multi-server stations. */
PROPER_API int proper_qn_mva(const proper_qn *qn, unsigned long N, double *q, double *tput, proper_error *err);

/* ---- the network as a CTMC ------------------------------------------------
 * The exact model behind the simulator, the ODE and MVA: with N jobs the
 * states are the C(N+M-1, M-1) vectors x >= 0 with x_1 + ... + x_M = N,
 * numbered in lexicographic order (x_1 varies slowest: state 0 has all jobs
 * at station M). From x, for every i with x_i > 0 and every j != i, a job
 * moves from i to j at rate mu_i min(s_i, x_i) P_ij (a job routed back to
 * its own station changes no state and is left out). The CTMC is built by
 * dtmc.h's builder (PROPER_DTMC_KIND_CTMC) with initial state x0,
 * valuations x1..xM, and reward structures "q1".."qM" (state reward x_i,
 * the queue length) and "tput1".."tputM" (mu_i min(s_i, x_i), station i's
 * completion rate), so that R{"qi"}=? [ S ] is the mean queue length. A
 * network in which no job can move (N = 0, or every routing row a
 * self-loop) gives states without transitions: they get dtmc.h's fixed
 * deadlock self-loop. Refused with PROPER_ELIMIT beyond
 * PROPER_QN_CTMC_MAX_STATES states or PROPER_QN_CTMC_MAX_TRANS transitions
 * (a bound counted before anything is allocated). */
#ifndef PROPER_QN_CTMC_MAX_STATES
#define PROPER_QN_CTMC_MAX_STATES 2000000
#endif
#ifndef PROPER_QN_CTMC_MAX_TRANS
#define PROPER_QN_CTMC_MAX_TRANS 50000000
#endif
PROPER_API int proper_qn_ctmc(const proper_qn *qn, const unsigned long *x0, proper_dtmc *out, proper_error *err);
/* Long-run mean queue lengths q [M] and throughputs tput [M] (completions
 * per unit time) of a CTMC made by proper_qn_ctmc from `qn`, from its
 * initial state (dtmc.h's steady-state distribution; opts NULL = defaults). */
PROPER_API int proper_qn_ctmc_steady(const proper_qn *qn, const proper_dtmc *ctmc, const proper_dtmc_solve_opts *opts,
                                     double *q, double *tput, proper_error *err);
/* The same CTMC as a PRISM-language model, for PRISM (or proper check) to
 * build on its own: "ctmc", one variable xi : [0..N] per station with
 * init x0_i, one command per routing pair i != j with P_ij > 0,
 *     [] xi>0 & xj<N -> mu_i*min(s_i,xi)*P_ij : (xi'=xi-1) & (xj'=xj+1);
 * (a delay station: mu_i*xi*P_ij), and the reward structures above. The
 * guard xj<N holds in every reachable state; it keeps the update inside
 * xj's range in the unreachable ones, which PRISM's symbolic engines
 * also check. */
PROPER_API int proper_qn_write_prism(const proper_qn *qn, const unsigned long *x0, FILE *f, proper_error *err);

/* External LP solver hook (backends/glpk.h provides one); NULL = native.
 * It follows proper_lp_solve's contract: sol is initialised, replaced at an
 * optimum, unchanged otherwise. */
typedef int (*proper_qn_lp_solver)(void *ctx, const proper_lp *lp, proper_lp_solution *sol, proper_error *err);

/* How (4.7) approximates the integral of b over one sampling step.
 * EULER (the thesis): dt b(k). Biased when mu dt is not small: on exact
 *   samples of a linear network with relaxation rate lambda it learns the
 *   rates scaled by (1 - e^-u) / u, u = lambda dt (0.63 at u = 1).
 *   Its regressor b(k) is known before the step, so trace noise (a
 *   martingale increment) does not bias it.
 * TRAPEZOID: dt (b(k) + b(k+1)) / 2, second order: the scale becomes
 *   tanh(u/2) / (u/2) (0.92 at u = 1). But b(k+1) shares the noise of
 *   x(k+1), which biases the fit on noisy traces: use it on traces averaged
 *   over many runs, on large populations, or on fluid data.
 * EXACT: the exact one-step map of the mean-field ODE, by defect
 *   correction. The first round is the Euler LP. Each further round
 *   integrates the network fitted last over one step from every sample
 *   x(k) (RK4, at most PROPER_QN_EXACT_H_MU / mu_max per substep), with the
 *   sample's gap b(k) - min(s, x(k)) held fixed so that the path starts
 *   from the measured busy servers, and moves Euler's defect
 *   x~(k+1) - x(k) - dt f(b(k)) to the right-hand side of (4.7); the LP is
 *   solved again from the last basis. The regressors stay b(k), known
 *   before the step, so noise does not bias them. Rounds stop when no rate
 *   moves by more than PROPER_QN_EXACT_TOL (relative), or after
 *   PROPER_QN_EXACT_ROUNDS. On exact samples of a linear network each
 *   round shrinks the rate error by the factor 1 - e^-u (0.63 at u = 1),
 *   and the fixed point is the true rates. Predict such a fit with RK4 or
 *   SSA, not with Euler at dt. The rounds assume identifiable traces
 *   (proper_qn_saturation): where stations are saturated throughout they
 *   can drift. */
enum proper_qn_scheme { PROPER_QN_EULER = 0, PROPER_QN_TRAPEZOID = 1, PROPER_QN_EXACT = 2 };
#ifndef PROPER_QN_EXACT_TOL
#define PROPER_QN_EXACT_TOL 1e-3
#endif
#ifndef PROPER_QN_EXACT_ROUNDS
#define PROPER_QN_EXACT_ROUNDS 30
#endif
#ifndef PROPER_QN_EXACT_H_MU
#define PROPER_QN_EXACT_H_MU 0.05
#endif

/* Build the topology LP (4.5-4.8) from traces with known server counts.
 * Columns: mu_1..mu_M, then g_ij for i != j in row-major order, then the
 * e+/e- pairs. scheme: enum proper_qn_scheme (EXACT gives its first
 * round, the Euler LP). */
PROPER_API int proper_qn_build_lp(const proper_qn_trace *traces, size_t ntraces, const double *servers,
                                  int scheme, proper_lp *lp, proper_error *err);

typedef struct proper_qn_fit_result {
    double objective;      /* sum of absolute one-step errors */
    size_t iterations;     /* simplex iterations (native solver, all rounds) */
    size_t rows, cols;     /* LP size */
    size_t rounds;         /* LP solves: 1, or the EXACT scheme's rounds */
} proper_qn_fit_result;

/* Learn rates and routing (LP) into `out`, a network with the given
 * servers. solver == NULL uses the native simplex. */
PROPER_API int proper_qn_fit_lp(const proper_qn_trace *traces, size_t ntraces, const double *servers,
                                int scheme, proper_qn_lp_solver solver, void *solver_ctx, proper_qn *out,
                                proper_qn_fit_result *res, proper_error *err);

/* Identifiability check for the LP. A station with all its servers busy
 * shows only the constant outflow mu_i s_i. The LP sees such constants
 * summed per destination station, so when two or more stations are
 * saturated in (nearly) every sample it cannot tell their rates and
 * routing apart: any split of the sums fits equally well. share[i]
 * receives the fraction of all samples (every trace) in which station i
 * had E[min(s_i, X_i)] >= s_i (1 - PROPER_QN_SATURATED_TOL); 0 for a
 * delay. The remedy is traces at a load low enough to free some of those
 * servers; without them, a what-if that gives such a station more servers
 * cannot be trusted. */
#ifndef PROPER_QN_SATURATED_TOL
#define PROPER_QN_SATURATED_TOL 1e-3
#endif
PROPER_API int proper_qn_saturation(const proper_qn_trace *traces, size_t ntraces, const double *servers,
                                    double *share, proper_error *err);

/* Learn rates with known routing and servers (QP 4.2) over the one-step
 * changes k in [k0, k1) of every trace. known[i] (array may be NULL) fixes
 * mu_i to rates_in[i]. rates receives the estimate [M]. */
PROPER_API int proper_qn_fit_qp(const proper_qn_trace *traces, size_t ntraces, const proper_qn *known_net,
                                const unsigned char *known, size_t k0, size_t k1, double *rates,
                                proper_error *err);

/* The thesis's QP (4.2) itself, which fits a trajectory x_bar over the
 * window with free flows T_i(k) (T_i(k) = dt mu_i min(x_bar_i, s_i) only
 * for the known rates), then sets mu_i = sum_k T_i(k) / (dt sum_k
 * min(x_bar_i(k), s_i)) (eq. 4.3, with the dt that makes T a number of
 * jobs). With one known rate in a closed network the fit is exact,
 * x_bar = x~: per step (I - P') T(k) = x~(k) - x~(k+1), which fixes T(k)
 * because (I - P') has rank M - 1. So only the window's sums matter:
 *     (I - P') S = x~(k0) - x~(k1),  S_i = dt mu_i sum_k b_i(k) (known i),
 * solved for the unknown S >= 0 by least squares (exact with one known
 * rate; a box QP when more are known), and mu_i = S_i / (dt sum_k b_i(k)).
 * This is a flow balance: jobs served = jobs routed in minus the growth of
 * the queue, per busy-server time. Unlike proper_qn_fit_qp's one-step fit
 * it has no step bias when mu dt is not small (the tandem of thesis
 * Table 2 at dt = 0.1 has mu dt = 4.8); it needs at least one known rate
 * (the flows fix the rates only up to a common factor). Same arguments and
 * errors as proper_qn_fit_qp. */
PROPER_API int proper_qn_fit_balance(const proper_qn_trace *traces, size_t ntraces, const proper_qn *known_net,
                                     const unsigned char *known, size_t k0, size_t k1, double *rates,
                                     proper_error *err);

/* Moving-horizon estimation: the QP over windows of H one-step changes
 * starting every `stride` steps (stride H: disjoint windows). rates receives
 * [nwin*M] estimates (allocated here), window_end [nwin] the end time of
 * each window (allocated here). proper_qn_mhe fits each window with
 * proper_qn_fit_qp; proper_qn_mhe_with chooses the estimator. */
enum proper_qn_estimator {
    PROPER_QN_ONE_STEP = 0, /* proper_qn_fit_qp: one-step changes, Euler */
    PROPER_QN_BALANCE = 1   /* proper_qn_fit_balance: the thesis's QP (4.2) */
};
PROPER_API int proper_qn_mhe(const proper_qn_trace *trace, const proper_qn *known_net, const unsigned char *known,
                             size_t H, size_t stride, double **rates, double **window_end, size_t *nwin,
                             proper_error *err);
PROPER_API int proper_qn_mhe_with(const proper_qn_trace *trace, const proper_qn *known_net,
                                  const unsigned char *known, size_t H, size_t stride, int estimator, double **rates,
                                  double **window_end, size_t *nwin, proper_error *err);

/* Eq. 4.9: percentage error of `pred` against `ref` (same M and K); N is
 * the population (sum of ref's first sample). */
PROPER_API int proper_qn_trace_error(const proper_qn_trace *ref, const proper_qn_trace *pred, double *max_err,
                                     double *mean_err, proper_error *err);

/* CSV (formats above): parse text (`name` names it in error positions),
 * read a file, append to a string builder, write to a stream. Numbers are
 * written as the shortest decimal that reads back as the same double. */
PROPER_API int proper_qn_parse_network_csv(proper_qn *qn, const char *text, size_t len, const char *name,
                                           proper_error *err);
PROPER_API int proper_qn_read_network_csv(proper_qn *qn, const char *path, proper_error *err);
PROPER_API int proper_qn_format_network_csv(const proper_qn *qn, proper_strbuf *b, proper_error *err);
PROPER_API int proper_qn_write_network_csv(const proper_qn *qn, FILE *f, proper_error *err);
PROPER_API int proper_qn_parse_trace_csv(proper_qn_trace *tr, const char *text, size_t len, const char *name,
                                         proper_error *err);
PROPER_API int proper_qn_read_trace_csv(proper_qn_trace *tr, const char *path, proper_error *err);
PROPER_API int proper_qn_format_trace_csv(const proper_qn_trace *tr, proper_strbuf *b, proper_error *err);
PROPER_API int proper_qn_write_trace_csv(const proper_qn_trace *tr, FILE *f, proper_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_QN_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_QN_IMPLEMENTATION
#define PROPER_QN_IMPLEMENTATION

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- network ------------------------------------------------------------- */

PROPER_API void proper_qn_init(proper_qn *qn) { memset(qn, 0, sizeof *qn); }

PROPER_API int proper_qn_create(proper_qn *qn, size_t M, proper_error *err) {
    proper_qn n;
    size_t i, mm;
    if (M == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "a network needs at least one station");
    if (proper_size_mul(M, M, &mm)) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "too many stations");
    proper_qn_init(&n);
    n.servers = (double *)proper_calloc(M, sizeof *n.servers);
    n.rates = (double *)proper_calloc(M, sizeof *n.rates);
    n.routing = (double *)proper_calloc(mm, sizeof *n.routing);
    if (!n.servers || !n.rates || !n.routing) {
        proper_qn_free(&n);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory allocating a network");
    }
    n.M = M;
    for (i = 0; i < M; i++) { n.servers[i] = 1; n.rates[i] = 1; }
    proper_qn_free(qn);
    *qn = n;
    return PROPER_OK;
}

PROPER_API void proper_qn_free(proper_qn *qn) {
    if (!qn) return;
    PROPER_FREE(qn->servers);
    PROPER_FREE(qn->rates);
    PROPER_FREE(qn->routing);
    proper_qn_init(qn);
}

PROPER_API int proper_qn_copy(proper_qn *dst, const proper_qn *src, proper_error *err) {
    proper_qn n;
    int rc;
    if (dst == src) return PROPER_OK;
    proper_qn_init(&n);
    if ((rc = proper_qn_create(&n, src->M, err))) return rc;
    memcpy(n.servers, src->servers, src->M * sizeof *n.servers);
    memcpy(n.rates, src->rates, src->M * sizeof *n.rates);
    memcpy(n.routing, src->routing, src->M * src->M * sizeof *n.routing);
    proper_qn_free(dst);
    *dst = n;
    return PROPER_OK;
}

static int proper__qn_check_servers(double s, size_t i, proper_error *err) {
    if (isinf(s) && s > 0) return PROPER_OK;
    if (!(s >= 1) || s != floor(s) || s > 1e15)
        return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0,
                                "station %zu: servers must be an integer >= 1 or inf (got %g)", i + 1, s);
    return PROPER_OK;
}

PROPER_API int proper_qn_validate(const proper_qn *qn, proper_error *err) {
    size_t i, j, M = qn->M;
    int rc;
    if (M == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "network has no stations");
    for (i = 0; i < M; i++) {
        double sum = 0;
        if (!(qn->rates[i] > 0) || !isfinite(qn->rates[i]))
            return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0,
                                    "station %zu: service rate must be finite and > 0 (got %g)", i + 1, qn->rates[i]);
        if ((rc = proper__qn_check_servers(qn->servers[i], i, err))) return rc;
        for (j = 0; j < M; j++) {
            double p = qn->routing[i * M + j];
            if (!(p >= 0) || !isfinite(p))
                return proper_error_set(err, PROPER_EPROB, NULL, 0, 0,
                                        "routing P[%zu][%zu] = %g is not a probability", i + 1, j + 1, p);
            sum += p;
        }
        if (fabs(sum - 1) > PROPER_QN_PROB_TOL)
            return proper_error_set(err, PROPER_EPROB, NULL, 0, 0,
                                    "routing row %zu sums to %.12g, not 1", i + 1, sum);
    }
    return PROPER_OK;
}

static double proper__qn_min(double s, double x) { return x < s ? x : s; }

/* ---- traces ---------------------------------------------------------------- */

PROPER_API void proper_qn_trace_init(proper_qn_trace *tr) { memset(tr, 0, sizeof *tr); }

PROPER_API int proper_qn_trace_create(proper_qn_trace *tr, size_t M, size_t K, double dt, int with_busy,
                                      proper_error *err) {
    proper_qn_trace t;
    size_t n;
    if (M == 0 || K == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "a trace needs stations and samples");
    if (!(dt > 0) || !isfinite(dt)) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "sampling interval must be > 0");
    if (proper_size_mul(M, K, &n)) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "trace too large");
    proper_qn_trace_init(&t);
    t.x = (double *)proper_calloc(n, sizeof *t.x);
    t.busy = with_busy ? (double *)proper_calloc(n, sizeof *t.busy) : NULL;
    if (!t.x || (with_busy && !t.busy)) {
        proper_qn_trace_free(&t);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory allocating a trace");
    }
    t.M = M;
    t.K = K;
    t.dt = dt;
    proper_qn_trace_free(tr);
    *tr = t;
    return PROPER_OK;
}

PROPER_API void proper_qn_trace_free(proper_qn_trace *tr) {
    if (!tr) return;
    PROPER_FREE(tr->x);
    PROPER_FREE(tr->busy);
    proper_qn_trace_init(tr);
}

/* Hand a finished trace to an initialised output (replacing what it held). */
static void proper__qn_trace_move(proper_qn_trace *out, proper_qn_trace *t) {
    proper_qn_trace_free(out);
    *out = *t;
    proper_qn_trace_init(t);
}

/* b_i(k): E[min(s_i, X_i)] when recorded, else min(s_i, x_i). */
static double proper__qn_busy(const proper_qn_trace *tr, const double *servers, size_t k, size_t i) {
    if (tr->busy) return tr->busy[k * tr->M + i];
    return proper__qn_min(servers[i], tr->x[k * tr->M + i]);
}

/* ---- Gillespie simulation ------------------------------------------------ */

PROPER_API int proper_qn_simulate(const proper_qn *qn, const unsigned long *x0, double dt, size_t K,
                                  size_t runs, proper_rng *rng, proper_qn_trace *out,
                                  unsigned long long *events, proper_error *err) {
    size_t M = qn->M, i, j, r, k;
    proper_qn_trace t, *tr = &t;
    unsigned long *x = NULL;
    double *rate = NULL, *cum = NULL, *sum_x, *sum_b;
    unsigned long long nev = 0;
    int rc;
    if (events) *events = 0;
    if ((rc = proper_qn_validate(qn, err))) return rc;
    if (runs == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "at least one simulation run is needed");
    if (!(dt > 0) || !isfinite(dt)) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "dt must be finite and > 0 (got %g)", dt);
    {
        /* every event needs a jump of the CTMC: at most the largest total
         * rate sum_i mu_i min(s_i, N) times the simulated time, per run */
        double N = 0, top = 0, bound;
        for (i = 0; i < M; i++) N += (double)x0[i];
        for (i = 0; i < M; i++) top += qn->rates[i] * proper__qn_min(qn->servers[i], N);
        bound = (double)runs * (double)(K > 0 ? K - 1 : 0) * dt * top;
        if (!(bound <= PROPER_QN_MAX_EVENTS))
            return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                    "the simulation may take up to %.3g events (%zu runs x time %g x total rate up to "
                                    "%g with %.0f jobs), more than the limit of %g (PROPER_QN_MAX_EVENTS): use a "
                                    "shorter time (dt, steps), fewer runs or fewer jobs",
                                    bound, runs, (double)(K > 0 ? K - 1 : 0) * dt, top, N, PROPER_QN_MAX_EVENTS);
    }
    proper_qn_trace_init(&t);
    if ((rc = proper_qn_trace_create(&t, M, K, dt, 1, err))) return rc;
    x = (unsigned long *)proper_calloc(M, sizeof *x);
    rate = (double *)proper_calloc(M, sizeof *rate);
    cum = (double *)proper_calloc(M * M, sizeof *cum);
    if (!x || !rate || !cum) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto out; }
    /* cumulative routing rows; the last positive entry of a row is 1 exactly */
    for (i = 0; i < M; i++) {
        double acc = 0;
        size_t last = 0;
        for (j = 0; j < M; j++) {
            acc += qn->routing[i * M + j];
            cum[i * M + j] = acc;
            if (qn->routing[i * M + j] > 0) last = j;
        }
        for (j = last; j < M; j++) cum[i * M + j] = 1.0 + 1.0; /* beyond any u < 1 */
    }
    sum_x = tr->x;
    sum_b = tr->busy;
    for (r = 0; r < runs; r++) {
        double t = 0, total = 0;
        unsigned since_resum = 0;
        k = 0;
        for (i = 0; i < M; i++) {
            x[i] = x0[i];
            rate[i] = qn->rates[i] * proper__qn_min(qn->servers[i], (double)x[i]);
            total += rate[i];
        }
        while (k < K) {
            double tnext, u, old_from, old_to;
            size_t from, to;
            tnext = total > 0 ? t + proper_rng_exponential(rng, total) : INFINITY;
            /* the state is constant on [t, tnext): record samples inside it */
            while (k < K && (double)k * dt < tnext) {
                double *sx = sum_x + k * M, *sb = sum_b + k * M;
                for (i = 0; i < M; i++) {
                    sx[i] += (double)x[i];
                    sb[i] += proper__qn_min(qn->servers[i], (double)x[i]);
                }
                k++;
            }
            if (k >= K) break;
            /* one uniform picks the station (scan of the rates) and, with
             * what is left of it rescaled to [0, 1), the destination */
            u = proper_rng_uniform(rng) * total;
            from = M;
            for (i = 0; i < M; i++) {
                if (rate[i] <= 0) continue;
                from = i;
                if (u < rate[i]) break;
                u -= rate[i];
            }
            u /= rate[from];
            for (to = 0; to + 1 < M && u >= cum[from * M + to]; to++) {}
            x[from]--;
            x[to]++;
            old_from = rate[from];
            old_to = rate[to];
            rate[from] = qn->rates[from] * proper__qn_min(qn->servers[from], (double)x[from]);
            rate[to] = qn->rates[to] * proper__qn_min(qn->servers[to], (double)x[to]);
            if (++since_resum >= PROPER_QN_RESUM_EVERY) {
                total = 0;
                for (i = 0; i < M; i++) total += rate[i];
                since_resum = 0;
            } else if (from != to)
                total += (rate[from] - old_from) + (rate[to] - old_to);
            if (total < 0) total = 0;
            t = tnext;
            if (++nev > (unsigned long long)PROPER_QN_MAX_EVENTS) {
                rc = proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                      "the simulation reached the limit of %g events (PROPER_QN_MAX_EVENTS)",
                                      PROPER_QN_MAX_EVENTS);
                goto out;
            }
        }
    }
    for (k = 0; k < K * M; k++) {
        sum_x[k] /= (double)runs;
        sum_b[k] /= (double)runs;
    }
    if (events) *events = nev;
    proper__qn_trace_move(out, &t);
    rc = PROPER_OK;
out:
    PROPER_FREE(cum);
    PROPER_FREE(x);
    PROPER_FREE(rate);
    proper_qn_trace_free(&t);
    return rc;
}

/* ---- mean-field ODE ------------------------------------------------------ */

/* The drift with busy servers max(0, min(s, x) + gap) (gap NULL: 0; the
 * EXACT scheme holds a sample's measured gap over a step). */
static void proper__qn_gap_drift(const proper_qn *qn, const double *x, const double *gap, double *dx) {
    size_t M = qn->M, i, j;
    for (j = 0; j < M; j++) dx[j] = 0;
    for (i = 0; i < M; i++) {
        double b = proper__qn_min(qn->servers[i], x[i] > 0 ? x[i] : 0) + (gap ? gap[i] : 0);
        double flow = qn->rates[i] * (b > 0 ? b : 0);
        const double *p = qn->routing + i * M;
        dx[i] -= flow;
        for (j = 0; j < M; j++) dx[j] += p[j] * flow;
    }
}

PROPER_API void proper_qn_drift(const proper_qn *qn, const double *x, double *dx) {
    proper__qn_gap_drift(qn, x, NULL, dx);
}

static int proper__qn_ode_start(const proper_qn *qn, const double *x0, double dt, size_t K, proper_qn_trace *tr,
                                proper_error *err) {
    size_t i;
    int rc;
    if ((rc = proper_qn_validate(qn, err))) return rc;
    for (i = 0; i < qn->M; i++)
        if (!(x0[i] >= 0) || !isfinite(x0[i]))
            return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "initial population of station %zu is %g", i + 1, x0[i]);
    return proper_qn_trace_create(tr, qn->M, K, dt, 1, err);
}

/* After a step of an ODE method: a queue length below zero (beyond
 * rounding) or not finite means the step is too long for the network's
 * rates. For Euler dt <= 1 / max_i mu_i keeps every queue non-negative: a
 * station loses at most dt mu_i min(s_i, x_i) <= x_i per step. */
static int proper__qn_ode_state(const proper_qn *qn, const double *x, double x0sum, double t, double dt,
                                const char *method, size_t substeps, proper_error *err) {
    size_t i;
    double top = 0;
    for (i = 0; i < qn->M; i++)
        if (!isfinite(x[i]) || x[i] < -1e-9 * (1 + x0sum)) break;
    if (i == qn->M) return PROPER_OK;
    for (i = 0; i < qn->M; i++) if (qn->rates[i] > top) top = qn->rates[i];
    for (i = 0; i < qn->M; i++)
        if (!isfinite(x[i]) || x[i] < -1e-9 * (1 + x0sum)) break;
    if (substeps == 0)
        return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0,
                                "%s is unstable at this step: the queue length of station %zu became %g at t = %g; "
                                "use dt <= %g (1 / the largest rate %g keeps every queue non-negative; got dt = %g)",
                                method, i + 1, x[i], t, 1.0 / top, top, dt);
    return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0,
                            "%s is unstable at this step: the queue length of station %zu became %g at t = %g; "
                            "use a smaller dt (each of its %zu substeps should be well below 1 / the largest rate, "
                            "%g; got dt = %g)",
                            method, i + 1, x[i], t, substeps, 1.0 / top, dt);
}

static void proper__qn_record(const proper_qn *qn, proper_qn_trace *tr, size_t k, const double *x) {
    size_t i, M = qn->M;
    for (i = 0; i < M; i++) {
        tr->x[k * M + i] = x[i];
        tr->busy[k * M + i] = proper__qn_min(qn->servers[i], x[i] > 0 ? x[i] : 0);
    }
}

PROPER_API int proper_qn_ode_euler(const proper_qn *qn, const double *x0, double dt, size_t K,
                                   proper_qn_trace *out, proper_error *err) {
    size_t M = qn->M, i, k;
    proper_qn_trace t, *tr = &t;
    double *x, *dx, x0sum = 0;
    int rc;
    proper_qn_trace_init(&t);
    if ((rc = proper__qn_ode_start(qn, x0, dt, K, &t, err))) return rc;
    x = (double *)proper_calloc(2 * M, sizeof *x);
    if (!x) { proper_qn_trace_free(&t); return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); }
    dx = x + M;
    memcpy(x, x0, M * sizeof *x);
    for (i = 0; i < M; i++) x0sum += x0[i];
    for (k = 0; k < K; k++) {
        proper__qn_record(qn, tr, k, x);
        if (k + 1 == K) break;
        proper_qn_drift(qn, x, dx);
        for (i = 0; i < M; i++) x[i] += dt * dx[i];
        if ((rc = proper__qn_ode_state(qn, x, x0sum, (double)(k + 1) * dt, dt, "the Euler method", 0, err))) {
            PROPER_FREE(x);
            proper_qn_trace_free(&t);
            return rc;
        }
    }
    PROPER_FREE(x);
    proper__qn_trace_move(out, &t);
    return PROPER_OK;
}

PROPER_API int proper_qn_ode_rk4(const proper_qn *qn, const double *x0, double dt, size_t K, size_t substeps,
                                 proper_qn_trace *out, proper_error *err) {
    size_t M = qn->M, i, k, s;
    proper_qn_trace t, *tr = &t;
    double *x, *k1, *k2, *k3, *k4, *tmp, h, x0sum = 0;
    int rc;
    if (substeps == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "RK4 needs at least one step per sample");
    proper_qn_trace_init(&t);
    if ((rc = proper__qn_ode_start(qn, x0, dt, K, &t, err))) return rc;
    x = (double *)proper_calloc(6 * M, sizeof *x);
    if (!x) { proper_qn_trace_free(&t); return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); }
    k1 = x + M; k2 = x + 2 * M; k3 = x + 3 * M; k4 = x + 4 * M; tmp = x + 5 * M;
    memcpy(x, x0, M * sizeof *x);
    h = dt / (double)substeps;
    for (i = 0; i < M; i++) x0sum += x0[i];
    for (k = 0; k < K; k++) {
        proper__qn_record(qn, tr, k, x);
        if (k + 1 == K) break;
        for (s = 0; s < substeps; s++) {
            proper_qn_drift(qn, x, k1);
            for (i = 0; i < M; i++) tmp[i] = x[i] + 0.5 * h * k1[i];
            proper_qn_drift(qn, tmp, k2);
            for (i = 0; i < M; i++) tmp[i] = x[i] + 0.5 * h * k2[i];
            proper_qn_drift(qn, tmp, k3);
            for (i = 0; i < M; i++) tmp[i] = x[i] + h * k3[i];
            proper_qn_drift(qn, tmp, k4);
            for (i = 0; i < M; i++) x[i] += h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        }
        if ((rc = proper__qn_ode_state(qn, x, x0sum, (double)(k + 1) * dt, dt, "RK4", substeps, err))) {
            PROPER_FREE(x);
            proper_qn_trace_free(&t);
            return rc;
        }
    }
    PROPER_FREE(x);
    proper__qn_trace_move(out, &t);
    return PROPER_OK;
}

/* ---- exact MVA ------------------------------------------------------------ */

/* Visit ratios: v = v P with v_0 = 1, by LU (core.h) on (P' - I) v = 0
 * with the first equation replaced by v_0 = 1. */
static int proper__qn_visits(const proper_qn *qn, double *v, proper_error *err) {
    size_t M = qn->M, i, j, *piv;
    double *a = (double *)proper_calloc(M * M, sizeof *a);
    int rc = PROPER_OK;
    piv = (size_t *)proper_calloc(M, sizeof *piv);
    if (!a || !piv) {
        PROPER_FREE(a);
        PROPER_FREE(piv);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (i = 0; i < M; i++) {
        for (j = 0; j < M; j++) a[i * M + j] = qn->routing[j * M + i] - (i == j);
        v[i] = 0;
    }
    for (j = 0; j < M; j++) a[j] = j == 0;
    v[0] = 1;
    if (proper_lu_factor(a, M, piv, 1e-12))
        rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "routing is not irreducible: visit ratios are not unique");
    else
        proper_lu_solve(a, M, piv, v);
    PROPER_FREE(a);
    PROPER_FREE(piv);
    return rc;
}

PROPER_API int proper_qn_mva(const proper_qn *qn, unsigned long N, double *q, double *tput, proper_error *err) {
    size_t M = qn->M, i, n, j;
    double *v = NULL, *p = NULL, *pn = NULL, *R = NULL, X = 0;
    int rc;
    if ((rc = proper_qn_validate(qn, err))) return rc;
    if (N > 100000) return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "exact MVA limited to 100000 jobs (got %lu)", N);
    v = (double *)proper_calloc(M, sizeof *v);
    R = (double *)proper_calloc(M, sizeof *R);
    /* p[i*(N+1) + j]: probability of j jobs at station i, population n - 1 */
    p = (double *)proper_calloc(M * (N + 1), sizeof *p);
    pn = (double *)proper_calloc(N + 1, sizeof *pn);
    if (!v || !R || !p || !pn) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto out; }
    if ((rc = proper__qn_visits(qn, v, err))) goto out;
    for (i = 0; i < M; i++) { p[i * (N + 1)] = 1; q[i] = 0; }
    for (n = 1; n <= N; n++) {
        double denom = 0;
        for (i = 0; i < M; i++) {
            double s = qn->servers[i], mu = qn->rates[i];
            if (isinf(s)) R[i] = 1 / mu;
            else if (s == 1) R[i] = (1 + q[i]) / mu;
            else {
                double r = 0;
                for (j = 1; j <= n; j++) r += (double)j / (mu * proper__qn_min(s, (double)j)) * p[i * (N + 1) + j - 1];
                R[i] = r;
            }
            denom += v[i] * R[i];
        }
        X = (double)n / denom;
        for (i = 0; i < M; i++) {
            double s = qn->servers[i], mu = qn->rates[i];
            q[i] = v[i] * X * R[i];
            if (!isinf(s) && s > 1) {
                /* marginal probabilities for population n (Reiser-Lavenberg) */
                double rest = 0;
                for (j = 1; j <= n; j++) {
                    pn[j] = v[i] * X / (mu * proper__qn_min(s, (double)j)) * p[i * (N + 1) + j - 1];
                    rest += pn[j];
                }
                pn[0] = rest < 1 ? 1 - rest : 0;
                memcpy(p + i * (N + 1), pn, (n + 1) * sizeof *pn);
            }
        }
    }
    for (i = 0; i < M; i++) tput[i] = v[i] * X;
    rc = PROPER_OK;
out:
    PROPER_FREE(v); PROPER_FREE(R); PROPER_FREE(p); PROPER_FREE(pn);
    return rc;
}

/* ---- the network as a CTMC ----------------------------------------------- */

/* Population of x0, refusing one too large for the CTMC's int32 valuations. */
static int proper__qn_ctmc_population(const proper_qn *qn, const unsigned long *x0, unsigned long *N,
                                      proper_error *err) {
    size_t i;
    unsigned long n = 0;
    for (i = 0; i < qn->M; i++) {
        if (x0[i] > (unsigned long)INT32_MAX - n)
            return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "the CTMC needs a population below %ld jobs",
                                    (long)INT32_MAX);
        n += x0[i];
    }
    *N = n;
    return PROPER_OK;
}

/* C(N+M-1, M-1), the number of states, or 0 when it exceeds `limit`:
 * c_k = C(N+k, k) = c_{k-1} (N+k) / k is an integer at every k. */
static uint64_t proper__qn_ctmc_count(size_t M, unsigned long N, uint64_t limit) {
    uint64_t c = 1;
    size_t k;
    for (k = 1; k < M; k++) {
        if ((double)c * ((double)N + (double)k) / (double)k > (double)limit) return 0;
        c = c * ((uint64_t)N + k) / k;
    }
    return c;
}

/* T[m*(N+1) + n] = C(n+m, m), the number of ways to put n jobs on m+1
 * stations, for m < M and n <= N (every entry is at most the state count). */
static uint64_t *proper__qn_ctmc_table(size_t M, unsigned long N) {
    uint64_t *T = (uint64_t *)proper_calloc(M * ((size_t)N + 1), sizeof *T);
    size_t m, n, W = (size_t)N + 1;
    if (!T) return NULL;
    for (m = 0; m < M; m++)
        for (n = 0; n <= N; n++) T[m * W + n] = m == 0 || n == 0 ? 1 : T[m * W + n - 1] + T[(m - 1) * W + n];
    return T;
}

/* Lexicographic rank of x (sum N). Fixing x_1..x_{i-1}, with r jobs left,
 * the vectors whose i-th entry is v < x_i number sum_{v < x_i} C(r-v+m, m)
 * (m = M-i-1 stations after i take the rest) = C(r+m+1, m+1) -
 * C(r-x_i+m+1, m+1) by the hockey-stick identity. */
static uint64_t proper__qn_ctmc_rank(const uint64_t *T, size_t M, unsigned long N, const int32_t *x) {
    size_t i, W = (size_t)N + 1;
    uint64_t rank = 0;
    unsigned long r = N;
    for (i = 0; i + 1 < M; i++) {
        size_t m1 = M - i - 1;
        rank += T[m1 * W + r] - T[m1 * W + (r - (unsigned long)x[i])];
        r -= (unsigned long)x[i];
    }
    return rank;
}

/* The next vector in lexicographic order (x not the last, (N, 0, ..., 0)):
 * with t the last station holding jobs (t >= 1 there), one of its jobs
 * moves to station t-1 and the others to station M. */
static void proper__qn_ctmc_next(int32_t *x, size_t M) {
    size_t t = M - 1, k;
    int32_t rest;
    while (x[t] == 0) t--;
    rest = x[t] - 1;
    x[t - 1]++;
    for (k = t; k < M; k++) x[k] = 0;
    x[M - 1] = rest;
}

/* The bound on transitions: every state has at most min(N, M) occupied
 * stations, each with at most its routing row's off-diagonal entries. */
static double proper__qn_ctmc_trans_bound(const proper_qn *qn, unsigned long N, uint64_t states) {
    size_t i, j, M = qn->M, row_max = 0;
    for (i = 0; i < M; i++) {
        size_t nz = 0;
        for (j = 0; j < M; j++) nz += j != i && qn->routing[i * M + j] > 0;
        if (nz > row_max) row_max = nz;
    }
    return (double)states * (double)(N < M ? N : M) * (double)row_max;
}

/* Station i's completion rate in state x: mu_i min(s_i, x_i). */
static double proper__qn_ctmc_service(const proper_qn *qn, size_t i, int32_t xi) {
    return qn->rates[i] * proper__qn_min(qn->servers[i], (double)xi);
}

/* State k's row: the moves out of x (x is restored before returning). */
static int proper__qn_ctmc_row(const proper_qn *qn, const uint64_t *T, unsigned long N, int32_t *x,
                               proper_dtmc_builder *b, uint32_t *dst, double *rate, proper_error *err) {
    size_t i, j, M = qn->M, n = 0;
    for (i = 0; i < M; i++) {
        double served;
        if (x[i] == 0) continue;
        served = proper__qn_ctmc_service(qn, i, x[i]);
        for (j = 0; j < M; j++) {
            double p = qn->routing[i * M + j];
            if (j == i || p <= 0) continue;
            x[i]--;
            x[j]++;
            dst[n] = (uint32_t)proper__qn_ctmc_rank(T, M, N, x);
            x[i]++;
            x[j]--;
            rate[n++] = served * p;
        }
    }
    return proper_dtmc_builder_add_row(b, dst, rate, n, err);
}

/* The reward structures "q1".."qM" and "tput1".."tputM" of the vectors in vals. */
static int proper__qn_ctmc_rewards(const proper_qn *qn, proper_dtmc *m, const int32_t *vals, proper_error *err) {
    size_t i, r, M = qn->M;
    uint32_t s;
    char name[32];
    int rc, kind;
    for (kind = 0; kind < 2; kind++)
        for (i = 0; i < M; i++) {
            snprintf(name, sizeof name, "%s%zu", kind ? "tput" : "q", i + 1);
            if ((rc = proper_dtmc_add_reward(m, name, 1, 0, &r, err))) return rc;
            for (s = 0; s < m->n_states; s++) {
                int32_t xi = vals[(size_t)s * M + i];
                m->rewards[r].state[s] = kind ? proper__qn_ctmc_service(qn, i, xi) : (double)xi;
            }
        }
    return PROPER_OK;
}

/* Valuations x1..xM and the rewards, on the finished model. */
static int proper__qn_ctmc_annotate(const proper_qn *qn, proper_dtmc *m, const int32_t *vals, proper_error *err) {
    size_t i, M = qn->M;
    char **names = (char **)proper_calloc(M, sizeof *names);
    int rc = PROPER_OK;
    if (!names) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (i = 0; i < M && rc == PROPER_OK; i++) {
        names[i] = (char *)proper_calloc(32, 1);
        if (!names[i]) rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        else snprintf(names[i], 32, "x%zu", i + 1);
    }
    if (rc == PROPER_OK) rc = proper_dtmc_set_valuations(m, (const char *const *)names, NULL, M, vals, err);
    if (rc == PROPER_OK) rc = proper__qn_ctmc_rewards(qn, m, vals, err);
    for (i = 0; i < M; i++) PROPER_FREE(names[i]);
    PROPER_FREE(names);
    return rc;
}

PROPER_API int proper_qn_ctmc(const proper_qn *qn, const unsigned long *x0, proper_dtmc *out, proper_error *err) {
    size_t M = qn->M, i;
    unsigned long N = 0;
    uint64_t states, k;
    uint64_t *T = NULL;
    int32_t *vals = NULL, *x0v = NULL;
    uint32_t *dst = NULL;
    double *rate = NULL;
    proper_dtmc_builder b;
    proper_dtmc m;
    int rc;
    if ((rc = proper_qn_validate(qn, err)) || (rc = proper__qn_ctmc_population(qn, x0, &N, err))) return rc;
    if (M == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "the network has no stations");
    states = proper__qn_ctmc_count(M, N, PROPER_QN_CTMC_MAX_STATES);
    if (states == 0)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                "%zu stations with %lu jobs have more than %lu states (PROPER_QN_CTMC_MAX_STATES)", M, N,
                                (unsigned long)PROPER_QN_CTMC_MAX_STATES);
    if (proper__qn_ctmc_trans_bound(qn, N, states) > PROPER_QN_CTMC_MAX_TRANS)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                "%zu stations with %lu jobs may have more than %.0f transitions (PROPER_QN_CTMC_MAX_TRANS)",
                                M, N, (double)PROPER_QN_CTMC_MAX_TRANS);
    proper_dtmc_builder_init(&b);
    proper_dtmc_init(&m);
    b.rates = 1;
    b.fix_deadlocks = 1;
    T = proper__qn_ctmc_table(M, N);
    vals = (int32_t *)proper_calloc((size_t)states * M, sizeof *vals);
    x0v = (int32_t *)proper_calloc(M, sizeof *x0v);
    dst = (uint32_t *)proper_calloc(M * M, sizeof *dst);
    rate = (double *)proper_calloc(M * M, sizeof *rate);
    if (!T || !vals || !x0v || !dst || !rate) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto out; }
    for (i = 0; i < M; i++) x0v[i] = (int32_t)x0[i];
    b.init = (uint32_t)proper__qn_ctmc_rank(T, M, N, x0v);
    vals[M - 1] = (int32_t)N; /* state 0: every job at station M */
    for (k = 0; k < states; k++) {
        int32_t *x = vals + (size_t)k * M;
        if (k > 0) {
            memcpy(x, x - M, M * sizeof *x);
            proper__qn_ctmc_next(x, M);
        }
        if ((rc = proper__qn_ctmc_row(qn, T, N, x, &b, dst, rate, err))) goto out;
    }
    if ((rc = proper_dtmc_builder_finish(&b, (uint32_t)states, &m, err)) ||
        (rc = proper__qn_ctmc_annotate(qn, &m, vals, err)))
        goto out;
    proper_dtmc_free(out);
    *out = m;
    proper_dtmc_init(&m);
out:
    proper_dtmc_builder_free(&b);
    proper_dtmc_free(&m);
    PROPER_FREE(T);
    PROPER_FREE(vals);
    PROPER_FREE(x0v);
    PROPER_FREE(dst);
    PROPER_FREE(rate);
    return rc;
}

PROPER_API int proper_qn_ctmc_steady(const proper_qn *qn, const proper_dtmc *ctmc, const proper_dtmc_solve_opts *opts,
                                     double *q, double *tput, proper_error *err) {
    size_t i, M = qn->M;
    uint32_t s;
    double *pi;
    proper_dtmc_solve_opts o = opts ? *opts : proper_dtmc_solve_opts_default();
    int rc;
    if (ctmc->kind != PROPER_DTMC_KIND_CTMC || ctmc->n_vars != M || !ctmc->vals)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "not the CTMC of this network (proper_qn_ctmc makes one with %zu variables)", M);
    pi = (double *)proper_calloc(ctmc->n_states, sizeof *pi);
    if (!pi) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    if ((rc = proper_dtmc_steady_distribution(ctmc, &o, pi, err)) == PROPER_OK) {
        for (i = 0; i < M; i++) q[i] = tput[i] = 0;
        for (s = 0; s < ctmc->n_states; s++)
            for (i = 0; i < M; i++) {
                int32_t xi = ctmc->vals[(size_t)s * M + i];
                q[i] += pi[s] * (double)xi;
                tput[i] += pi[s] * proper__qn_ctmc_service(qn, i, xi);
            }
    }
    PROPER_FREE(pi);
    return rc;
}

/* mu_i*min(s_i,xi), or mu_i*xi for a delay station, in PRISM's syntax. */
static void proper__qn_prism_service(const proper_qn *qn, size_t i, FILE *f) {
    char num[PROPER_DOUBLE_CHARS];
    fprintf(f, "%s*", proper_format_double(num, qn->rates[i]));
    if (isinf(qn->servers[i])) fprintf(f, "x%zu", i + 1);
    else fprintf(f, "min(%.0f,x%zu)", qn->servers[i], i + 1);
}

PROPER_API int proper_qn_write_prism(const proper_qn *qn, const unsigned long *x0, FILE *f, proper_error *err) {
    size_t i, j, M = qn->M;
    unsigned long N = 0;
    char num[PROPER_DOUBLE_CHARS];
    int rc, kind;
    if ((rc = proper_qn_validate(qn, err)) || (rc = proper__qn_ctmc_population(qn, x0, &N, err))) return rc;
    fprintf(f, "// Closed queueing network of %zu stations with %lu jobs, exported by proper %s.\nctmc\n\nmodule network\n",
            M, N, PROPER_VERSION_STRING);
    for (i = 0; i < M; i++) fprintf(f, "  x%zu : [0..%lu] init %lu;\n", i + 1, N, x0[i]);
    for (i = 0; i < M; i++)
        for (j = 0; j < M; j++) {
            double p = qn->routing[i * M + j];
            if (j == i || p <= 0) continue;
            fprintf(f, "  [] x%zu>0 & x%zu<%lu -> ", i + 1, j + 1, N);
            proper__qn_prism_service(qn, i, f);
            fprintf(f, "*%s : (x%zu'=x%zu-1) & (x%zu'=x%zu+1);\n", proper_format_double(num, p), i + 1, i + 1, j + 1,
                    j + 1);
        }
    fputs("endmodule\n", f);
    for (kind = 0; kind < 2; kind++)
        for (i = 0; i < M; i++) {
            fprintf(f, "\nrewards \"%s%zu\"\n  true : ", kind ? "tput" : "q", i + 1);
            if (kind) proper__qn_prism_service(qn, i, f);
            else fprintf(f, "x%zu", i + 1);
            fputs(";\nendrewards\n", f);
        }
    return ferror(f) ? proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write failed") : PROPER_OK;
}

/* ---- topology LP (4.5-4.8) ----------------------------------------------- */

static int proper__qn_check_traces(const proper_qn_trace *traces, size_t ntraces, size_t M, proper_error *err) {
    size_t t, k;
    if (ntraces == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no traces to learn from");
    for (t = 0; t < ntraces; t++) {
        if (traces[t].M != M)
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "trace %zu has %zu stations, expected %zu",
                                    t + 1, traces[t].M, M);
        if (traces[t].K < 2)
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "trace %zu has fewer than two samples", t + 1);
        if (fabs(traces[t].dt - traces[0].dt) > PROPER_QN_TIME_TOL * traces[0].dt)
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "trace %zu has interval %g, trace 1 has %g",
                                    t + 1, traces[t].dt, traces[0].dt);
        for (k = 0; k < traces[t].K * M; k++)
            if (!(traces[t].x[k] >= 0) || !isfinite(traces[t].x[k]) ||
                (traces[t].busy && (!(traces[t].busy[k] >= 0) || !isfinite(traces[t].busy[k]))))
                return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0,
                                        "trace %zu, sample %zu, station %zu: value is negative or not finite",
                                        t + 1, k / M + 1, k % M + 1);
    }
    return PROPER_OK;
}

static int proper__qn_check_server_list(const double *servers, size_t M, proper_error *err) {
    size_t i;
    int rc;
    for (i = 0; i < M; i++)
        if ((rc = proper__qn_check_servers(servers[i], i, err))) return rc;
    return PROPER_OK;
}

/* Index of column g_ij (i != j) among the LP's columns. */
static size_t proper__qn_gcol(size_t M, size_t i, size_t j) { return M + i * (M - 1) + (j < i ? j : j - 1); }

/* The mean of b_i over step k -> k+1 as the scheme approximates it. */
static double proper__qn_step_busy(const proper_qn_trace *tr, const double *servers, int scheme, size_t k, size_t i) {
    double b = proper__qn_busy(tr, servers, k, i);
    if (scheme == PROPER_QN_TRAPEZOID) b = 0.5 * (b + proper__qn_busy(tr, servers, k + 1, i));
    return b;
}

PROPER_API int proper_qn_build_lp(const proper_qn_trace *traces, size_t ntraces, const double *servers,
                                  int scheme, proper_lp *out, proper_error *err) {
    size_t M, i, j, t, k, *cols = NULL;
    double *vals = NULL;
    char name[96]; /* "ep" + three 20-digit numbers + separators fits */
    proper_lp built, *lp = &built;
    int rc;
    proper_lp_init(&built);
    if (ntraces == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no traces to learn from");
    M = traces[0].M;
    if ((rc = proper__qn_check_traces(traces, ntraces, M, err))) return rc;
    if ((rc = proper__qn_check_server_list(servers, M, err))) return rc;
    if (M < 2) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "routing needs at least two stations");
    if (scheme != PROPER_QN_EULER && scheme != PROPER_QN_TRAPEZOID && scheme != PROPER_QN_EXACT)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "unknown discretisation scheme %d", scheme);
    cols = (size_t *)proper_calloc(M + 2, sizeof *cols);
    vals = (double *)proper_calloc(M + 2, sizeof *vals);
    if (!cols || !vals) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto fail; }
    for (i = 0; i < M; i++) {
        snprintf(name, sizeof name, "mu%zu", i + 1);
        if ((rc = proper_lp_add_col(lp, 0, 0, PROPER_LP_INF, name, NULL, err))) goto fail;
    }
    for (i = 0; i < M; i++)
        for (j = 0; j < M; j++) {
            if (i == j) continue;
            snprintf(name, sizeof name, "g%zu_%zu", i + 1, j + 1);
            if ((rc = proper_lp_add_col(lp, 0, 0, PROPER_LP_INF, name, NULL, err))) goto fail;
        }
    /* (4.6) mu_i - sum_j g_ij = 0 */
    for (i = 0; i < M; i++) {
        size_t c = 0;
        cols[c] = i; vals[c++] = 1;
        for (j = 0; j < M; j++) if (j != i) { cols[c] = proper__qn_gcol(M, i, j); vals[c++] = -1; }
        snprintf(name, sizeof name, "flow%zu", i + 1);
        if ((rc = proper_lp_add_row(lp, c, cols, vals, 0, 0, name, err))) goto fail;
    }
    /* (4.7) one row per trace, step and station */
    for (t = 0; t < ntraces; t++) {
        const proper_qn_trace *tr = &traces[t];
        double dt = tr->dt;
        for (k = 0; k + 1 < tr->K; k++)
            for (j = 0; j < M; j++) {
                size_t c = 0, ep, em;
                double change = tr->x[(k + 1) * M + j] - tr->x[k * M + j];
                snprintf(name, sizeof name, "ep%zu_%zu_%zu", t + 1, k + 1, j + 1);
                if ((rc = proper_lp_add_col(lp, 1, 0, PROPER_LP_INF, name, &ep, err))) goto fail;
                snprintf(name, sizeof name, "em%zu_%zu_%zu", t + 1, k + 1, j + 1);
                if ((rc = proper_lp_add_col(lp, 1, 0, PROPER_LP_INF, name, &em, err))) goto fail;
                cols[c] = j; vals[c++] = -dt * proper__qn_step_busy(tr, servers, scheme, k, j);
                for (i = 0; i < M; i++)
                    if (i != j) {
                        cols[c] = proper__qn_gcol(M, i, j);
                        vals[c++] = dt * proper__qn_step_busy(tr, servers, scheme, k, i);
                    }
                cols[c] = ep; vals[c++] = 1;
                cols[c] = em; vals[c++] = -1;
                snprintf(name, sizeof name, "d%zu_%zu_%zu", t + 1, k + 1, j + 1);
                if ((rc = proper_lp_add_row(lp, c, cols, vals, change, change, name, err))) goto fail;
            }
    }
    proper_lp_free(out);
    *out = built;
    proper_lp_init(&built);
    rc = PROPER_OK;
fail:
    PROPER_FREE(cols);
    PROPER_FREE(vals);
    proper_lp_free(&built);
    return rc;
}

/* An estimated rate that is not above PROPER_QN_MIN_RATE: the traces do
 * not show the station serving (a constant trace shows no station serving),
 * so no rate was learned. One message for the LP and the QP fits. */
static int proper__qn_rate_seen(size_t i, double rate, proper_error *err) {
    if (rate > PROPER_QN_MIN_RATE) return PROPER_OK;
    return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                            "station %zu: estimated rate is %g; the traces never show it serving", i + 1, rate);
}

/* The network in an LP solution: mu_i, and p_ij = g_ij / sum_j g_ij. */
static int proper__qn_from_lp(const proper_lp_solution *sol, size_t M, const double *servers, proper_qn *out,
                              proper_error *err) {
    size_t i, j;
    int rc;
    for (i = 0; i < M; i++)
        if ((rc = proper__qn_rate_seen(i, sol->x[i], err))) return rc;
    if ((rc = proper_qn_create(out, M, err))) return rc;
    for (i = 0; i < M; i++) {
        double mu = sol->x[i], rowsum = 0;
        out->servers[i] = servers[i];
        out->rates[i] = mu;
        for (j = 0; j < M; j++) {
            double g = j == i ? 0 : sol->x[proper__qn_gcol(M, i, j)];
            if (g < 0) g = 0;
            out->routing[i * M + j] = g;
            rowsum += g;
        }
        /* (4.6) makes the row sum mu up to LP tolerance; divide by the sum */
        for (j = 0; j < M; j++) out->routing[i * M + j] /= rowsum;
    }
    return PROPER_OK;
}

/* Euler's defect over one step of trace tr from sample k under net:
 * d = x~(k+1) - x(k) - dt f(b(k)), x~ by RK4 in `substeps` steps with the
 * gap b(k) - min(s, x(k)) held. work: 7M doubles. */
static void proper__qn_step_defect(const proper_qn *net, const proper_qn_trace *tr, size_t k, size_t substeps,
                                   double *d, double *work) {
    size_t M = net->M, i, t;
    double *x = work, *gap = work + M, *k1 = work + 2 * M, *k2 = work + 3 * M, *k3 = work + 4 * M,
           *k4 = work + 5 * M, *y = work + 6 * M, h = tr->dt / (double)substeps;
    for (i = 0; i < M; i++) {
        x[i] = tr->x[k * M + i];
        gap[i] = proper__qn_busy(tr, net->servers, k, i) - proper__qn_min(net->servers[i], x[i]);
    }
    proper__qn_gap_drift(net, x, gap, d);
    for (i = 0; i < M; i++) d[i] = -x[i] - tr->dt * d[i];
    for (t = 0; t < substeps; t++) {
        proper__qn_gap_drift(net, x, gap, k1);
        for (i = 0; i < M; i++) y[i] = x[i] + 0.5 * h * k1[i];
        proper__qn_gap_drift(net, y, gap, k2);
        for (i = 0; i < M; i++) y[i] = x[i] + 0.5 * h * k2[i];
        proper__qn_gap_drift(net, y, gap, k3);
        for (i = 0; i < M; i++) y[i] = x[i] + h * k3[i];
        proper__qn_gap_drift(net, y, gap, k4);
        for (i = 0; i < M; i++) x[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
    for (i = 0; i < M; i++) d[i] += x[i];
}

/* One EXACT round: the right-hand sides of (4.7) become the observed
 * changes minus Euler's defect under net. */
static int proper__qn_exact_rhs(const proper_qn_trace *traces, size_t ntraces, const proper_qn *net, proper_lp *lp,
                                proper_error *err) {
    size_t M = net->M, t, k, j, row = M, substeps;
    double mu_max = 0, *work = (double *)proper_calloc(8 * M, sizeof *work);
    if (!work) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (j = 0; j < M; j++) if (net->rates[j] > mu_max) mu_max = net->rates[j];
    substeps = (size_t)ceil(traces[0].dt * mu_max / PROPER_QN_EXACT_H_MU);
    if (substeps < 1) substeps = 1;
    for (t = 0; t < ntraces; t++)
        for (k = 0; k + 1 < traces[t].K; k++) {
            double *d = work + 7 * M;
            proper__qn_step_defect(net, &traces[t], k, substeps, d, work);
            for (j = 0; j < M; j++, row++) {
                double change = traces[t].x[(k + 1) * M + j] - traces[t].x[k * M + j];
                lp->row_lo[row] = lp->row_hi[row] = change - d[j];
            }
        }
    PROPER_FREE(work);
    return PROPER_OK;
}

static double proper__qn_max_rate_change(const proper_qn *a, const proper_qn *b) {
    size_t i;
    double worst = 0;
    for (i = 0; i < a->M; i++) {
        double c = fabs(a->rates[i] - b->rates[i]) / b->rates[i];
        if (c > worst) worst = c;
    }
    return worst;
}

/* ---- the topology LP by row subsets ------------------------------------------ */

/* The LP (4.5-4.8) is a least-absolute-deviation fit: its data rows (4.7)
 * r = M.. carry d_r - a_r'theta = e+_r - e-_r, and it minimises
 * f(theta) = sum_r |d_r - a_r'theta|. Solved whole at M = 20 with 20
 * traces (80k rows) the simplex needs tens of thousands of iterations, each
 * pricing every row. Only the rows whose residual is zero at the optimum
 * (about P = M^2 of them) shape it; every other row keeps its sign near the
 * optimum. So, following Portnoy & Koenker's preprocessing for quantile
 * regression ("The Gaussian hare and the Laplacian tortoise", 1997), the fit
 *   1. finds a start theta0 near the optimum by reweighted least squares
 *      (proper__qn_lad_start);
 *   2. keeps the PROPER_QN_LAD_KEEP sqrt(n P) rows nearest a sign change
 *      (smallest |r_r| against how fast theta moves r_r) with their error
 *      pairs, and sums the others per station and sign into one row each:
 *      for rows of one sign sum |e_r| = |sum e_r|, and |sum e_r| <= sum |e_r|
 *      always, so this reduced objective is <= f, and equal to f wherever
 *      the summed rows keep their signs;
 *   3. solves the reduced LP; when no summed row changed sign at its
 *      optimum theta1 (beyond PROPER_QN_LAD_TOL of the row's magnitude),
 *      f(theta1) equals the reduced optimum, a lower bound of f: theta1 is
 *      optimal for the whole LP. Otherwise the rows that changed sign are
 *      kept too (when more than a tenth of the kept number changed, the
 *      kept number doubles and the rows are chosen anew around the theta
 *      with the lowest f so far), and step 3 repeats, the simplex starting
 *      from the last reduced LP's final basis (proper__qn_lad_map_basis).
 * Measured at M = 20 with 20 traces of 200 steps (80k rows): 8.1k simplex
 * iterations in three reduced solves, against 45550 for the whole LP (5.2 s
 * and 111 s of CPU); the same optimum.
 * Fits with at most PROPER_QN_LAD_MIN_ROWS data rows are solved whole, as
 * are fits whose kept rows do not settle within PROPER__QN_LAD_ROUNDS
 * solves or whose reduced LP the simplex cannot verify. */
#ifndef PROPER_QN_LAD_KEEP
#define PROPER_QN_LAD_KEEP 2
#endif
#ifndef PROPER_QN_LAD_MIN_ROWS
#define PROPER_QN_LAD_MIN_ROWS 20000
#endif
#ifndef PROPER_QN_LAD_TOL
#define PROPER_QN_LAD_TOL 1e-9
#endif
#define PROPER__QN_LAD_ROUNDS 12
/* Reweighted least-squares rounds of the starting point, and coordinate-
 * descent sweeps of each. */
#define PROPER__QN_IRLS_ROUNDS 10
#define PROPER__QN_NNLS_SWEEPS 50

typedef struct proper__qn_lad_state {
    const proper_lp *full; /* rows [0, M): (4.6); rows [M, nrows): (4.7) */
    size_t M, P, n;        /* stations, parameter columns, data rows */
    double *theta;         /* [P] the start, then each reduced optimum */
    double *resid;         /* [n] d_r - a_r'theta */
    double *reach;         /* [n] sum_c |a_rc| (|theta_c| + tau): how fast r_r can move */
    signed char *side;     /* [n] 0: kept; +1/-1: a linear term of that sign */
    size_t iterations;     /* simplex iterations, all reduced solves */
    proper_lp_basis basis; /* the last reduced LP's final basis (of its dual) */
    size_t *key;           /* [rows of that LP] what each row is: a flow row i,
                              data row M + r, or summed group M + n + g */
    size_t nkey;
} proper__qn_lad_state;

/* The last reduced LP's basis carried to the next one (rows that stay are
 * the same rows; rows that joined start nonbasic): the dual simplex then
 * restarts near the last optimum instead of from the logical basis. The
 * engine solves the reduced LPs' duals, whose variables are one per row
 * (y_i) and one logical per parameter column. keys: what each row of the
 * new LP is; the basis is dropped when a basic row has left. */
static void proper__qn_lad_map_basis(proper__qn_lad_state *s, const size_t *keys, size_t nrows) {
    proper_lp_basis *B = &s->basis;
    size_t *where = NULL, *head = NULL, p, j, span = s->M + s->n + 2 * s->M, nt = nrows + s->P;
    unsigned char *upper = NULL;
    int ok = B->head && B->dual && B->m == s->P && B->nt == s->nkey + s->P;
    if (ok) {
        where = (size_t *)proper_calloc(span, sizeof *where);
        head = (size_t *)proper_calloc(B->m, sizeof *head);
        upper = (unsigned char *)proper_calloc(nt, sizeof *upper);
        ok = where && head && upper;
    }
    if (ok) {
        for (j = 0; j < span; j++) where[j] = (size_t)-1;
        for (j = 0; j < nrows; j++) where[keys[j]] = j;
        for (j = 0; j < s->nkey; j++)
            if (where[s->key[j]] != (size_t)-1) upper[where[s->key[j]]] = B->upper[j];
        for (j = 0; j < s->P; j++) upper[nrows + j] = B->upper[s->nkey + j];
        for (p = 0; p < B->m && ok; p++) {
            size_t h = B->head[p];
            if (h >= s->nkey) head[p] = nrows + (h - s->nkey);
            else if (where[s->key[h]] != (size_t)-1) head[p] = where[s->key[h]];
            else ok = 0;
        }
    }
    if (ok) {
        PROPER_FREE(B->head);
        PROPER_FREE(B->upper);
        B->head = head;
        B->upper = upper;
        B->nt = nt;
        head = NULL;
        upper = NULL;
    } else
        proper_lp_basis_free(B);
    PROPER_FREE(where);
    PROPER_FREE(head);
    PROPER_FREE(upper);
}

/* Residuals at theta, their reach, and f(theta). tau: the width given to a
 * parameter at 0. */
static double proper__qn_lad_residuals(proper__qn_lad_state *s, double tau) {
    size_t r, q;
    double total = 0;
    for (r = 0; r < s->n; r++) {
        size_t row = s->M + r;
        double d = s->full->row_lo[row], reach = 0;
        for (q = s->full->row_start[row]; q < s->full->row_start[row + 1]; q++) {
            size_t c = s->full->col_idx[q];
            if (c >= s->P) continue;
            d -= s->full->val[q] * s->theta[c];
            reach += fabs(s->full->val[q]) * (fabs(s->theta[c]) + tau);
        }
        s->resid[r] = d;
        s->reach[r] = reach;
        total += fabs(d);
    }
    return total;
}

static int proper__qn_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Keep the `keep` rows whose residual is smallest against its reach (the
 * first to change sign when theta moves); the others become linear terms
 * with their residual's sign. */
static int proper__qn_lad_choose(proper__qn_lad_state *s, size_t keep, proper_error *err) {
    size_t r;
    double limit, *ratio = (double *)proper_calloc(s->n, sizeof *ratio);
    if (!ratio) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (r = 0; r < s->n; r++) ratio[r] = s->reach[r] > 0 ? fabs(s->resid[r]) / s->reach[r] : INFINITY;
    qsort(ratio, s->n, sizeof *ratio, proper__qn_cmp_double);
    limit = ratio[(keep < s->n ? keep : s->n) - 1];
    PROPER_FREE(ratio);
    for (r = 0; r < s->n; r++)
        s->side[r] = fabs(s->resid[r]) <= limit * s->reach[r] ? 0 : s->resid[r] > 0 ? 1 : -1;
    return PROPER_OK;
}

/* Append the data row d = a'theta + e+ - e- to red with a fresh error pair;
 * idx and vals hold its parameter entries and have room for two more. */
static int proper__qn_lad_row(proper_lp *red, size_t n, size_t *idx, double *vals, double d, proper_error *err) {
    int rc;
    if ((rc = proper_lp_add_col(red, 1, 0, PROPER_LP_INF, NULL, &idx[n], err))) return rc;
    vals[n] = 1;
    if ((rc = proper_lp_add_col(red, 1, 0, PROPER_LP_INF, NULL, &idx[n + 1], err))) return rc;
    vals[n + 1] = -1;
    return proper_lp_add_row(red, n + 2, idx, vals, d, d, NULL, err);
}

/* The reduced LP of the current sides, solved; theta receives its
 * optimum. The linear rows of each station and sign are summed into one
 * row: for rows of one sign sum |e_r| = |sum e_r|, and |sum e_r| <= sum
 * |e_r| always, so the reduced objective is <= f, with equality where the
 * signs hold. (As linear costs on theta instead, the same terms made the
 * simplex 10x slower: its start is then far from dual feasible.) */
static int proper__qn_lad_solve(proper__qn_lad_state *s, proper_error *err) {
    const proper_lp *f = s->full;
    proper_lp red;
    proper_lp_solution sol;
    size_t r, q, c, n, g, *idx = NULL, *keys = NULL, ng = 2 * s->M, width = s->P > s->M + 2 ? s->P : s->M + 2;
    double *glob = NULL, *globd = NULL, *vals = NULL;
    proper_lp_opts opt = proper_lp_opts_default();
    int rc;
    proper_lp_init(&red);
    proper_lp_solution_init(&sol);
    glob = (double *)proper_calloc(ng * s->P, sizeof *glob);
    globd = (double *)proper_calloc(ng, sizeof *globd);
    idx = (size_t *)proper_calloc(width + 2, sizeof *idx);
    vals = (double *)proper_calloc(width + 2, sizeof *vals);
    if (!glob || !globd || !idx || !vals) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto out; }
    for (r = 0; r < s->n; r++) {
        size_t row = s->M + r, station = s->M;
        if (s->side[r] == 0) continue;
        for (q = f->row_start[row]; q < f->row_start[row + 1]; q++)
            if (f->col_idx[q] < s->M) station = f->col_idx[q];
        g = 2 * (station < s->M ? station : 0) + (s->side[r] < 0);
        globd[g] += f->row_lo[row];
        for (q = f->row_start[row]; q < f->row_start[row + 1]; q++)
            if (f->col_idx[q] < s->P) glob[g * s->P + f->col_idx[q]] += f->val[q];
    }
    for (c = 0; c < s->P; c++)
        if ((rc = proper_lp_add_col(&red, 0, f->col_lo[c], f->col_hi[c], f->col_name[c], NULL, err))) goto out;
    keys = (size_t *)proper_calloc(f->nrows + ng, sizeof *keys);
    if (!keys) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto out; }
    for (r = 0; r < f->nrows; r++) {
        if (r >= s->M && s->side[r - s->M] != 0) continue;
        for (n = 0, q = f->row_start[r]; q < f->row_start[r + 1]; q++)
            if (f->col_idx[q] < s->P) { idx[n] = f->col_idx[q]; vals[n++] = f->val[q]; }
        rc = r < s->M ? proper_lp_add_row(&red, n, idx, vals, f->row_lo[r], f->row_hi[r], NULL, err)
                      : proper__qn_lad_row(&red, n, idx, vals, f->row_lo[r], err);
        if (rc) goto out;
        keys[red.nrows - 1] = r;
    }
    for (g = 0; g < ng; g++) {
        for (n = 0, c = 0; c < s->P; c++)
            if (glob[g * s->P + c] != 0) { idx[n] = c; vals[n++] = glob[g * s->P + c]; }
        if (n > 0 && (rc = proper__qn_lad_row(&red, n, idx, vals, globd[g], err))) goto out;
        if (n > 0) keys[red.nrows - 1] = s->M + s->n + g;
    }
    proper__qn_lad_map_basis(s, keys, red.nrows);
    opt.basis = &s->basis;
    rc = proper_lp_solve(&red, &opt, &sol, err);
    PROPER_FREE(s->key);
    s->key = keys;
    s->nkey = red.nrows;
    keys = NULL;
    if (rc) goto out;
    s->iterations += sol.iterations;
    memcpy(s->theta, sol.x, s->P * sizeof *s->theta);
out:
    PROPER_FREE(glob); PROPER_FREE(globd); PROPER_FREE(idx); PROPER_FREE(vals); PROPER_FREE(keys);
    proper_lp_solution_free(&sol);
    proper_lp_free(&red);
    return rc;
}

/* Linear rows whose residual has changed sign at theta (beyond
 * PROPER_QN_LAD_TOL of the row's reach): kept from now on. */
static size_t proper__qn_lad_flipped(proper__qn_lad_state *s) {
    size_t r, flipped = 0;
    for (r = 0; r < s->n; r++)
        if (s->side[r] != 0 && (double)s->side[r] * s->resid[r] < -PROPER_QN_LAD_TOL * s->reach[r]) {
            s->side[r] = 0;
            flipped++;
        }
    return flipped;
}

/* Coordinate descent on min 1/2 g'Qg - rhs'g over g >= 0, from g
 * (PROPER__QN_NNLS_SWEEPS sweeps; grad is scratch). Converges for Q
 * positive semidefinite; only a start is needed, so a fixed number of
 * sweeps does. */
static void proper__qn_nnls_sweeps(const double *Q, const double *rhs, size_t np, double *g, double *grad) {
    size_t a, b, sweep;
    for (a = 0; a < np; a++) {
        grad[a] = -rhs[a];
        for (b = 0; b < np; b++) grad[a] += Q[a * np + b] * g[b];
    }
    for (sweep = 0; sweep < PROPER__QN_NNLS_SWEEPS; sweep++)
        for (a = 0; a < np; a++) {
            double next, step;
            if (!(Q[a * np + a] > 0)) continue;
            next = g[a] - grad[a] / Q[a * np + a];
            if (next < 0) next = 0;
            step = next - g[a];
            if (step == 0) continue;
            g[a] = next;
            for (b = 0; b < np; b++) grad[b] += step * Q[b * np + a];
        }
}

/* A starting theta near the optimum: iteratively reweighted least squares
 * (weights 1 / max(|residual|, eps), whose fixed point is the least-
 * absolute-deviation fit), on g alone (mu_i = sum_j g_ij eliminated), the
 * sign constraints imposed by clipping after each solve. Only a start: the
 * reduced LPs make the result exact. Row (j, k) of (4.7) is
 * beta(k)' (g_.j) - beta_j(k) sum_l g_jl with beta = dt b(k), so the normal
 * matrix needs only, per station j, G_j = sum_k w_jk beta(k) beta(k)' and
 * h_j = sum_k w_jk beta(k) d_jk. */
static int proper__qn_lad_start(proper__qn_lad_state *s, proper_error *err) {
    const proper_lp *f = s->full;
    size_t M = s->M, np = M * (M - 1), r, q, i, j, l, it;
    double *G = NULL, *h = NULL, *Q = NULL, *g = NULL, *rhs = NULL, *grad = NULL, *beta = NULL, eps = 0;
    int rc = PROPER_OK;
    G = (double *)proper_calloc(M * M * M, sizeof *G);
    h = (double *)proper_calloc(M * M, sizeof *h);
    Q = (double *)proper_calloc(np * np, sizeof *Q);
    g = (double *)proper_calloc(np, sizeof *g);
    rhs = (double *)proper_calloc(np, sizeof *rhs);
    grad = (double *)proper_calloc(np, sizeof *grad);
    beta = (double *)proper_calloc(M, sizeof *beta);
    if (!G || !h || !Q || !g || !rhs || !grad || !beta) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto out; }
    for (it = 0; it < PROPER__QN_IRLS_ROUNDS; it++) {
        memset(G, 0, M * M * M * sizeof *G);
        memset(h, 0, M * M * sizeof *h);
        for (r = 0; r < s->n; r++) {
            size_t row = M + r, st = M;
            double w = it == 0 ? 1 : 1 / (fabs(s->resid[r]) > eps ? fabs(s->resid[r]) : eps), d = f->row_lo[row];
            double *Gj, *hj;
            for (i = 0; i < M; i++) beta[i] = 0;
            for (q = f->row_start[row]; q < f->row_start[row + 1]; q++) {
                size_t c = f->col_idx[q];
                if (c < M) { st = c; beta[c] = -f->val[q]; }
                else if (c < s->P) beta[(c - M) / (M - 1)] = f->val[q]; /* g_ij: i = (c - M) / (M - 1) */
            }
            if (st == M) continue;
            Gj = G + st * M * M;
            hj = h + st * M;
            for (i = 0; i < M; i++) {
                if (beta[i] == 0) continue;
                hj[i] += w * beta[i] * d;
                for (l = 0; l < M; l++) Gj[i * M + l] += w * beta[i] * beta[l];
            }
        }
        /* assemble: g_jl is -beta_j in rows of j and +beta_j in rows of l */
        for (i = 0; i < M; i++)
            for (l = 0; l < M; l++) {
                size_t a, b, ib;
                if (l == i) continue;
                a = proper__qn_gcol(M, i, l) - M;
                rhs[a] = -h[i * M + i] + h[l * M + i];
                for (j = 0; j < M; j++)
                    for (ib = 0; ib < M; ib++) {
                        if (ib == j) continue;
                        b = proper__qn_gcol(M, j, ib) - M;
                        /* rows of i: both out of i, or g_il out and g_ji into i;
                         * rows of l: g_il into l and g_l,ib out, or both into l */
                        Q[a * np + b] = (i == j ? G[i * M * M + i * M + i] : 0) -
                                        (ib == i ? G[i * M * M + i * M + j] : 0) -
                                        (l == j ? G[l * M * M + l * M + i] : 0) +
                                        (l == ib ? G[l * M * M + i * M + j] : 0);
                    }
            }
        proper__qn_nnls_sweeps(Q, rhs, np, g, grad);
        for (i = 0; i < M; i++) s->theta[i] = 0;
        for (r = 0; r < np; r++) {
            s->theta[M + r] = g[r];
            s->theta[r / (M - 1)] += g[r];
        }
        eps = 1e-3 * proper__qn_lad_residuals(s, 0) / (double)s->n;
    }
out:
    PROPER_FREE(G); PROPER_FREE(h); PROPER_FREE(Q); PROPER_FREE(g); PROPER_FREE(rhs); PROPER_FREE(grad);
    PROPER_FREE(beta);
    return rc;
}

/* The optimum of the whole LP by row subsets from theta (computed first
 * unless have_theta). sol receives x (theta and the error pairs) and the
 * objective f; *whole is set when the kept rows did not settle and the caller
 * must solve the whole LP. */
static int proper__qn_lad(const proper_lp *full, size_t M, double *theta, int have_theta, proper_lp_solution *sol,
                          size_t *iterations, int *whole, proper_error *err) {
    proper__qn_lad_state s;
    proper_lp_solution out;
    size_t r, q, c, round, P = M * M, keep;
    double tau = 0, f, best_f, *best = NULL;
    int rc = PROPER_OK;
    memset(&s, 0, sizeof s);
    proper_lp_solution_init(&out);
    *whole = 0;
    s.full = full; s.M = M; s.P = P; s.n = full->nrows - M; s.theta = theta;
    keep = (size_t)(PROPER_QN_LAD_KEEP * sqrt((double)s.n * (double)P));
    s.resid = (double *)proper_calloc(s.n, sizeof *s.resid);
    s.reach = (double *)proper_calloc(s.n, sizeof *s.reach);
    s.side = (signed char *)proper_calloc(s.n, sizeof *s.side);
    best = (double *)proper_calloc(P, sizeof *best);
    if (!s.resid || !s.reach || !s.side || !best) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto out; }
    if (!have_theta && (rc = proper__qn_lad_start(&s, err))) goto out;
    /* a parameter at 0 gets the reach of a typical routing flow */
    proper__qn_lad_residuals(&s, 0);
    for (c = 0; c < M; c++) tau += fabs(theta[c]);
    tau = tau > 0 ? 0.1 * tau / (double)(M * M) : 1;
    best_f = proper__qn_lad_residuals(&s, tau);
    memcpy(best, theta, P * sizeof *best);
    if ((rc = proper__qn_lad_choose(&s, keep, err))) goto out;
    for (round = 0;; round++) {
        size_t flipped;
        if (round == PROPER__QN_LAD_ROUNDS) { *whole = 1; goto out; }
        if ((rc = proper__qn_lad_solve(&s, err))) {
            /* a reduced LP the simplex cannot verify (summed rows of
             * near-zero residuals on fluid traces): the whole LP decides */
            if (rc == PROPER_ENOCONV) { *whole = 1; rc = PROPER_OK; }
            goto out;
        }
        f = proper__qn_lad_residuals(&s, tau);
        flipped = proper__qn_lad_flipped(&s);
        if (flipped == 0) break;
        if (f < best_f) { best_f = f; memcpy(best, theta, P * sizeof *best); }
        /* many flips: the kept rows were too few to hold theta near the
         * optimum (the summed rows let it wander, to a worse f); choose
         * anew, wider, around the best theta so far */
        if (flipped * 10 > keep) {
            keep *= 2;
            memcpy(theta, best, P * sizeof *best);
            proper__qn_lad_residuals(&s, tau);
            if ((rc = proper__qn_lad_choose(&s, keep, err))) goto out;
        }
    }
    proper__qn_lad_residuals(&s, tau);
    if ((rc = proper_lp_solution_create(&out, full->ncols, full->nrows, err))) goto out;
    memcpy(out.x, theta, P * sizeof *out.x);
    for (r = 0; r < s.n; r++) {
        size_t row = M + r;
        for (q = full->row_start[row]; q < full->row_start[row + 1]; q++) {
            c = full->col_idx[q];
            if (c < P) continue;
            /* e+ (coefficient +1) takes a positive residual, e- a negative one */
            out.x[c] = full->val[q] > 0 ? (s.resid[r] > 0 ? s.resid[r] : 0) : (s.resid[r] < 0 ? -s.resid[r] : 0);
        }
        out.objective += fabs(s.resid[r]);
    }
    out.iterations = s.iterations;
    proper_lp_solution_free(sol);
    *sol = out;
    proper_lp_solution_init(&out);
out:
    *iterations += s.iterations;
    PROPER_FREE(s.resid); PROPER_FREE(s.reach); PROPER_FREE(s.side); PROPER_FREE(best); PROPER_FREE(s.key);
    proper_lp_basis_free(&s.basis);
    proper_lp_solution_free(&out);
    return rc;
}

/* One solve of the topology LP: by the external solver, or natively (by
 * row subsets when the LP is large, from theta when *have_theta). */
static int proper__qn_solve_lp(const proper_lp *lp, size_t M, proper_qn_lp_solver solver, void *solver_ctx,
                               const proper_lp_opts *opt, double *theta, int *have_theta, proper_lp_solution *sol,
                               size_t *iterations, proper_error *err) {
    int rc, whole = 1;
    if (solver) return solver(solver_ctx, lp, sol, err);
    if (lp->nrows - M > PROPER_QN_LAD_MIN_ROWS) {
        rc = proper__qn_lad(lp, M, theta, *have_theta, sol, iterations, &whole, err);
        if (rc) return rc;
        *have_theta = !whole;
    }
    if (!whole) return PROPER_OK;
    if ((rc = proper_lp_solve(lp, opt, sol, err))) return rc;
    *iterations += sol->iterations;
    return PROPER_OK;
}

PROPER_API int proper_qn_fit_lp(const proper_qn_trace *traces, size_t ntraces, const double *servers,
                                int scheme, proper_qn_lp_solver solver, void *solver_ctx, proper_qn *out,
                                proper_qn_fit_result *res, proper_error *err) {
    proper_lp lp;
    proper_lp_solution sol;
    proper_lp_opts opt = proper_lp_opts_default();
    proper_lp_basis basis;
    proper_qn fit, next;
    size_t M, rounds = 1, iterations = 0;
    double *theta = NULL;
    int rc, have_theta = 0;
    proper_lp_init(&lp);
    proper_lp_solution_init(&sol);
    proper_lp_basis_init(&basis);
    proper_qn_init(&fit);
    proper_qn_init(&next);
    if ((rc = proper_qn_build_lp(traces, ntraces, servers, scheme, &lp, err))) return rc;
    M = traces[0].M;
    opt.basis = &basis;
    theta = (double *)proper_calloc(M * M, sizeof *theta);
    if (!theta) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto out; }
    rc = proper__qn_solve_lp(&lp, M, solver, solver_ctx, &opt, theta, &have_theta, &sol, &iterations, err);
    if (rc || (rc = proper__qn_from_lp(&sol, M, servers, &fit, err))) goto out;
    while (scheme == PROPER_QN_EXACT && rounds < PROPER_QN_EXACT_ROUNDS) {
        double change;
        if ((rc = proper__qn_exact_rhs(traces, ntraces, &fit, &lp, err))) goto out;
        rc = proper__qn_solve_lp(&lp, M, solver, solver_ctx, &opt, theta, &have_theta, &sol, &iterations, err);
        if (rc || (rc = proper__qn_from_lp(&sol, M, servers, &next, err))) goto out;
        rounds++;
        change = proper__qn_max_rate_change(&next, &fit);
        proper_qn_free(&fit);
        fit = next;
        proper_qn_init(&next);
        if (change <= PROPER_QN_EXACT_TOL) break;
    }
    if (res) {
        res->objective = sol.objective;
        res->iterations = iterations;
        res->rows = lp.nrows;
        res->cols = lp.ncols;
        res->rounds = rounds;
    }
    proper_qn_free(out);
    *out = fit;
    proper_qn_init(&fit);
    rc = PROPER_OK;
out:
    PROPER_FREE(theta);
    proper_qn_free(&fit);
    proper_qn_free(&next);
    proper_lp_solution_free(&sol);
    proper_lp_basis_free(&basis);
    proper_lp_free(&lp);
    return rc;
}

/* ---- service-rate QP (4.2) and moving-horizon estimation ------------------ */

/* The arguments of a rate fit with known routing: traces, servers, the
 * routing (rates matter only where known) and a non-empty window. */
static int proper__qn_check_rate_fit(const proper_qn_trace *traces, size_t ntraces, const proper_qn *known_net,
                                     const unsigned char *known, size_t k0, size_t k1, proper_error *err) {
    size_t M = known_net->M, i;
    proper_qn probe = *known_net;
    double *ones;
    int rc;
    if ((rc = proper__qn_check_traces(traces, ntraces, M, err))) return rc;
    if ((rc = proper__qn_check_server_list(known_net->servers, M, err))) return rc;
    ones = (double *)proper_calloc(M, sizeof *ones);
    if (!ones) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (i = 0; i < M; i++) ones[i] = known && known[i] ? known_net->rates[i] : 1;
    probe.rates = ones;
    rc = proper_qn_validate(&probe, err);
    PROPER_FREE(ones);
    if (rc) return rc;
    if (k1 <= k0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "empty estimation window");
    return PROPER_OK;
}

PROPER_API int proper_qn_fit_qp(const proper_qn_trace *traces, size_t ntraces, const proper_qn *known_net,
                                const unsigned char *known, size_t k0, size_t k1, double *rates,
                                proper_error *err) {
    size_t M = known_net->M, t, k, i, j, l;
    double *Q = NULL, *q = NULL, *row = NULL, *lo = NULL, *hi = NULL;
    int rc;
    if ((rc = proper__qn_check_rate_fit(traces, ntraces, known_net, known, k0, k1, err))) return rc;
    Q = (double *)proper_calloc(M * M, sizeof *Q);
    q = (double *)proper_calloc(M, sizeof *q);
    row = (double *)proper_calloc(M, sizeof *row);
    lo = (double *)proper_calloc(M, sizeof *lo);
    hi = (double *)proper_calloc(M, sizeof *hi);
    if (!Q || !q || !row || !lo || !hi) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto out; }
    /* normal equations of sum ||A_k mu - dx_k||^2 with
     * A_k[j][i] = dt (P_ij - [i == j]) b_i(k): Q = sum A'A, q = -sum A' dx */
    for (t = 0; t < ntraces; t++) {
        const proper_qn_trace *tr = &traces[t];
        size_t end = k1 < tr->K - 1 ? k1 : tr->K - 1;
        for (k = k0; k < end; k++)
            for (j = 0; j < M; j++) {
                double dx = tr->x[(k + 1) * M + j] - tr->x[k * M + j];
                for (i = 0; i < M; i++)
                    row[i] = tr->dt * (known_net->routing[i * M + j] - (i == j)) *
                             proper__qn_busy(tr, known_net->servers, k, i);
                for (i = 0; i < M; i++) {
                    if (row[i] == 0) continue;
                    q[i] -= row[i] * dx;
                    for (l = 0; l < M; l++) Q[i * M + l] += row[i] * row[l];
                }
            }
    }
    for (i = 0; i < M; i++) {
        if (known && known[i]) lo[i] = hi[i] = known_net->rates[i];
        else { lo[i] = 0; hi[i] = PROPER_LP_INF; }
        if (Q[i * M + i] == 0 && !(known && known[i])) {
            rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                  "station %zu is never busy in the estimation window: its rate cannot be estimated", i + 1);
            goto out;
        }
        /* a fixed rate is a constant: decouple it so Q stays definite */
        if (known && known[i]) {
            for (l = 0; l < M; l++) {
                if (l == i) continue;
                q[l] += Q[l * M + i] * known_net->rates[i];
                Q[l * M + i] = Q[i * M + l] = 0;
            }
            Q[i * M + i] = 1;
            q[i] = -known_net->rates[i];
        }
    }
    rc = proper_lp_qp_box_solve(M, Q, q, lo, hi, row, NULL, err);
    if (rc == PROPER_EINVAL && strstr(err ? err->message : "", "positive definite"))
        rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                              "the rates are not identifiable from this window (the QP is singular): "
                              "use a longer window or fix known rates");
    /* as the LP fit: a rate at 0 was not learned (an uninformative, e.g.
     * constant, trace gave all rates 0 with no complaint) */
    for (i = 0; i < M && rc == PROPER_OK; i++)
        if (!(known && known[i])) rc = proper__qn_rate_seen(i, row[i], err);
    if (rc == PROPER_OK) memcpy(rates, row, M * sizeof *rates);
out:
    PROPER_FREE(Q); PROPER_FREE(q); PROPER_FREE(row); PROPER_FREE(lo); PROPER_FREE(hi);
    return rc;
}

/* Busy-server time dt sum_k b_i(k) over the window [k0, k1) of every trace
 * into busy [M], and the windows' net change x(k0) - x(end) into drop [M]. */
static void proper__qn_window_sums(const proper_qn_trace *traces, size_t ntraces, const double *servers, size_t M,
                                   size_t k0, size_t k1, double *busy, double *drop) {
    size_t t, k, i;
    for (i = 0; i < M; i++) busy[i] = drop[i] = 0;
    for (t = 0; t < ntraces; t++) {
        const proper_qn_trace *tr = &traces[t];
        size_t end = k1 < tr->K - 1 ? k1 : tr->K - 1;
        if (end <= k0) continue;
        for (k = k0; k < end; k++)
            for (i = 0; i < M; i++) busy[i] += tr->dt * proper__qn_busy(tr, servers, k, i);
        for (i = 0; i < M; i++) drop[i] += tr->x[k0 * M + i] - tr->x[end * M + i];
    }
}

PROPER_API int proper_qn_fit_balance(const proper_qn_trace *traces, size_t ntraces, const proper_qn *known_net,
                                     const unsigned char *known, size_t k0, size_t k1, double *rates,
                                     proper_error *err) {
    size_t M = known_net->M, i, j, u, v, nu = 0, *unknown = NULL;
    double *busy = NULL, *drop = NULL, *rhs = NULL, *A = NULL, *Q = NULL, *q = NULL, *lo = NULL, *hi = NULL,
           *S = NULL;
    const double *P = known_net->routing;
    int rc;
    if ((rc = proper__qn_check_rate_fit(traces, ntraces, known_net, known, k0, k1, err))) return rc;
    unknown = (size_t *)proper_calloc(M, sizeof *unknown);
    busy = (double *)proper_calloc(M, sizeof *busy);
    drop = (double *)proper_calloc(M, sizeof *drop);
    rhs = (double *)proper_calloc(M, sizeof *rhs);
    A = (double *)proper_calloc(M * M, sizeof *A);
    Q = (double *)proper_calloc(M * M, sizeof *Q);
    q = (double *)proper_calloc(M, sizeof *q);
    lo = (double *)proper_calloc(M, sizeof *lo);
    hi = (double *)proper_calloc(M, sizeof *hi);
    S = (double *)proper_calloc(M, sizeof *S);
    if (!unknown || !busy || !drop || !rhs || !A || !Q || !q || !lo || !hi || !S) {
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        goto out;
    }
    proper__qn_window_sums(traces, ntraces, known_net->servers, M, k0, k1, busy, drop);
    for (i = 0; i < M; i++) {
        if (known && known[i]) continue;
        if (!(busy[i] > 0)) {
            rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                  "station %zu is never busy in the estimation window: its rate cannot be estimated", i + 1);
            goto out;
        }
        unknown[nu++] = i;
    }
    if (nu == M) {
        rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                              "the balance estimator needs at least one known rate (flows fix the rates only up to "
                              "a common factor)");
        goto out;
    }
    /* rhs_j = drop_j - sum_{known i} (I - P')_ji S_i with S_i = mu_i busy_i */
    for (j = 0; j < M; j++) {
        rhs[j] = drop[j];
        for (i = 0; i < M; i++)
            if (known && known[i]) rhs[j] -= ((double)(i == j) - P[i * M + j]) * known_net->rates[i] * busy[i];
    }
    /* A = (I - P')[:, unknown]; minimise |A S - rhs|^2 over S >= 0:
     * Q = A'A, q = -A' rhs */
    for (j = 0; j < M; j++)
        for (u = 0; u < nu; u++) A[j * nu + u] = (double)(unknown[u] == j) - P[unknown[u] * M + j];
    for (u = 0; u < nu; u++) {
        for (v = 0; v < nu; v++) {
            double d = 0;
            for (j = 0; j < M; j++) d += A[j * nu + u] * A[j * nu + v];
            Q[u * nu + v] = d;
        }
        for (j = 0; j < M; j++) q[u] -= A[j * nu + u] * rhs[j];
        lo[u] = 0;
        hi[u] = PROPER_LP_INF;
    }
    rc = proper_lp_qp_box_solve(nu, Q, q, lo, hi, S, NULL, err);
    if (rc == PROPER_EINVAL && strstr(err ? err->message : "", "positive definite"))
        rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                              "the routing leaves the flows of the unknown stations undetermined: fix more known "
                              "rates");
    if (rc) goto out;
    for (u = 0; u < nu; u++)
        if ((rc = proper__qn_rate_seen(unknown[u], S[u] / busy[unknown[u]], err))) goto out;
    for (i = 0; i < M; i++) rates[i] = known && known[i] ? known_net->rates[i] : 0;
    for (u = 0; u < nu; u++) rates[unknown[u]] = S[u] / busy[unknown[u]];
out:
    PROPER_FREE(unknown); PROPER_FREE(busy); PROPER_FREE(drop); PROPER_FREE(rhs); PROPER_FREE(A);
    PROPER_FREE(Q); PROPER_FREE(q); PROPER_FREE(lo); PROPER_FREE(hi); PROPER_FREE(S);
    return rc;
}

PROPER_API int proper_qn_mhe(const proper_qn_trace *trace, const proper_qn *known_net, const unsigned char *known,
                             size_t H, size_t stride, double **rates, double **window_end, size_t *nwin,
                             proper_error *err) {
    return proper_qn_mhe_with(trace, known_net, known, H, stride, PROPER_QN_ONE_STEP, rates, window_end, nwin, err);
}

PROPER_API int proper_qn_mhe_with(const proper_qn_trace *trace, const proper_qn *known_net,
                                  const unsigned char *known, size_t H, size_t stride, int estimator, double **rates,
                                  double **window_end, size_t *nwin, proper_error *err) {
    size_t M = known_net->M, w, count, steps;
    int rc;
    if (estimator != PROPER_QN_ONE_STEP && estimator != PROPER_QN_BALANCE)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "unknown rate estimator %d", estimator);
    *rates = NULL;
    *window_end = NULL;
    *nwin = 0;
    if (H == 0 || stride == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "horizon and stride must be >= 1");
    if (trace->K < 2) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "trace has fewer than two samples");
    steps = trace->K - 1;
    if (steps < H)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "trace has %zu steps, fewer than the horizon %zu", steps, H);
    count = (steps - H) / stride + 1;
    *rates = (double *)proper_calloc(count * M, sizeof **rates);
    *window_end = (double *)proper_calloc(count, sizeof **window_end);
    if (!*rates || !*window_end) {
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        goto fail;
    }
    for (w = 0; w < count; w++) {
        size_t k0 = w * stride;
        rc = estimator == PROPER_QN_BALANCE
                 ? proper_qn_fit_balance(trace, 1, known_net, known, k0, k0 + H, *rates + w * M, err)
                 : proper_qn_fit_qp(trace, 1, known_net, known, k0, k0 + H, *rates + w * M, err);
        if (rc) goto fail;
        (*window_end)[w] = (double)(k0 + H) * trace->dt;
    }
    *nwin = count;
    return PROPER_OK;
fail:
    PROPER_FREE(*rates);
    PROPER_FREE(*window_end);
    *rates = NULL;
    *window_end = NULL;
    return rc;
}

PROPER_API int proper_qn_saturation(const proper_qn_trace *traces, size_t ntraces, const double *servers,
                                    double *share, proper_error *err) {
    size_t M, t, k, i, samples = 0;
    int rc;
    if (ntraces == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no traces to check");
    M = traces[0].M;
    if ((rc = proper__qn_check_traces(traces, ntraces, M, err))) return rc;
    if ((rc = proper__qn_check_server_list(servers, M, err))) return rc;
    for (i = 0; i < M; i++) share[i] = 0;
    for (t = 0; t < ntraces; t++) {
        for (k = 0; k < traces[t].K; k++)
            for (i = 0; i < M; i++)
                if (!isinf(servers[i]) &&
                    proper__qn_busy(&traces[t], servers, k, i) >= servers[i] * (1 - PROPER_QN_SATURATED_TOL))
                    share[i] += 1;
        samples += traces[t].K;
    }
    for (i = 0; i < M; i++) share[i] /= (double)samples;
    return PROPER_OK;
}

/* ---- what-if error (4.9) ----------------------------------------------------- */

PROPER_API int proper_qn_trace_error(const proper_qn_trace *ref, const proper_qn_trace *pred, double *max_err,
                                     double *mean_err, proper_error *err) {
    size_t k, i, M = ref->M;
    double N = 0, worst = 0, total = 0;
    if (pred->M != M || pred->K != ref->K)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "traces differ in shape (%zux%zu vs %zux%zu)",
                                ref->K, ref->M, pred->K, pred->M);
    for (i = 0; i < M; i++) N += ref->x[i];
    if (!(N > 0)) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "reference trace has no jobs");
    for (k = 0; k < ref->K; k++) {
        double e = 0;
        for (i = 0; i < M; i++) e += fabs(ref->x[k * M + i] - pred->x[k * M + i]);
        e = 100.0 * e / (2.0 * N);
        if (e > worst) worst = e;
        total += e;
    }
    if (max_err) *max_err = worst;
    if (mean_err) *mean_err = total / (double)ref->K;
    return PROPER_OK;
}

/* ---- CSV ---------------------------------------------------------------------- */

/* Skip blank lines and '#' comments; 0 at the end of input. */
static int proper__qn_next_line(proper_cursor *c) {
    for (;;) {
        proper_cursor_skip_blanks(c);
        if (c->p >= c->end) return 0;
        if (*c->p == '\n') { proper_cursor_advance(c); continue; }
        if (*c->p == '#') {
            while (c->p < c->end && *c->p != '\n') proper_cursor_advance(c);
            continue;
        }
        return 1;
    }
}

/* Expect a comma (or, when last, the end of the line). */
static int proper__qn_sep(proper_cursor *c, int last, proper_error *err) {
    proper_cursor_skip_blanks(c);
    if (last) {
        if (c->p < c->end && *c->p != '\n')
            return proper_cursor_error(c, err, PROPER_EPARSE, "expected the end of the line (too many columns)");
        if (c->p < c->end) proper_cursor_advance(c);
        return PROPER_OK;
    }
    if (c->p >= c->end || *c->p != ',')
        return proper_cursor_error(c, err, PROPER_EPARSE, "expected ',' (too few columns)");
    proper_cursor_advance(c);
    return PROPER_OK;
}

/* Count the comma-separated fields of the current line. */
static size_t proper__qn_fields(const proper_cursor *c) {
    const char *p = c->p;
    size_t n = 1;
    while (p < c->end && *p != '\n') n += *p++ == ',';
    return n;
}

static int proper__qn_header_word(proper_cursor *c, const char *prefix, size_t index, proper_error *err) {
    char want[32];
    size_t n;
    proper_cursor_skip_blanks(c);
    if (index) snprintf(want, sizeof want, "%s%zu", prefix, index);
    else snprintf(want, sizeof want, "%s", prefix);
    n = strlen(want);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, want, n) != 0 ||
        (c->p + n < c->end && *(c->p + n) != ',' && *(c->p + n) != '\n' && *(c->p + n) != ' ' &&
         *(c->p + n) != '\t' && *(c->p + n) != '\r'))
        return proper_cursor_error(c, err, PROPER_EPARSE, "expected header field '%s'", want);
    while (n--) proper_cursor_advance(c);
    return PROPER_OK;
}

/* The network CSV's header; *M receives the number of stations. */
static int proper__qn_network_header(proper_cursor *c, size_t *M, proper_error *err) {
    size_t j, fields;
    int rc;
    if (!proper__qn_next_line(c)) return proper_cursor_error(c, err, PROPER_EPARSE, "empty network file");
    fields = proper__qn_fields(c);
    if (fields < 5) return proper_cursor_error(c, err, PROPER_EPARSE,
                                               "header must be station,servers,rate,p1,...,pM with M >= 2");
    *M = fields - 3;
    if ((rc = proper__qn_header_word(c, "station", 0, err)) || (rc = proper__qn_sep(c, 0, err)) ||
        (rc = proper__qn_header_word(c, "servers", 0, err)) || (rc = proper__qn_sep(c, 0, err)) ||
        (rc = proper__qn_header_word(c, "rate", 0, err)) || (rc = proper__qn_sep(c, 0, err)))
        return rc;
    for (j = 0; j < *M; j++)
        if ((rc = proper__qn_header_word(c, "p", j + 1, err)) || (rc = proper__qn_sep(c, j + 1 == *M, err))) return rc;
    return PROPER_OK;
}

/* Station i's row: index, servers, rate, routing row (summing to 1). */
static int proper__qn_network_row(proper_cursor *c, proper_qn *qn, size_t i, proper_error *err) {
    size_t j, M = qn->M;
    long long idx;
    proper_cursor at;
    double sum = 0;
    int rc;
    if (!proper__qn_next_line(c))
        return proper_cursor_error(c, err, PROPER_EPARSE, "expected %zu station rows, found %zu", M, i);
    at = *c;
    if ((rc = proper_parse_int(c, &idx, err))) return rc;
    if (idx != (long long)i + 1) return proper_cursor_error(&at, err, PROPER_EPARSE, "expected station %zu", i + 1);
    if ((rc = proper__qn_sep(c, 0, err))) return rc;
    at = *c;
    if ((rc = proper_parse_double(c, &qn->servers[i], err))) return rc;
    if ((rc = proper__qn_check_servers(qn->servers[i], i, err))) {
        /* the message is copied out first: formatting err->message into
         * itself left it empty (servers 0 gave "net.csv:2:3: "; fuzz_qn) */
        char msg[PROPER_ERROR_MESSAGE_MAX];
        snprintf(msg, sizeof msg, "%s", err ? err->message : "bad servers");
        return proper_cursor_error(&at, err, rc, "%s", msg);
    }
    if ((rc = proper__qn_sep(c, 0, err))) return rc;
    at = *c;
    if ((rc = proper_parse_double(c, &qn->rates[i], err))) return rc;
    if (!(qn->rates[i] > 0) || !isfinite(qn->rates[i]))
        return proper_cursor_error(&at, err, PROPER_ERANGE, "station %zu: rate must be finite and > 0", i + 1);
    if ((rc = proper__qn_sep(c, 0, err))) return rc;
    for (j = 0; j < M; j++) {
        at = *c;
        if ((rc = proper_parse_double(c, &qn->routing[i * M + j], err))) return rc;
        if (!(qn->routing[i * M + j] >= 0) || !isfinite(qn->routing[i * M + j]))
            return proper_cursor_error(&at, err, PROPER_EPROB, "routing probability must be in [0, 1]");
        if ((rc = proper__qn_sep(c, j + 1 == M, err))) return rc;
        sum += qn->routing[i * M + j];
    }
    if (fabs(sum - 1) > PROPER_QN_PROB_TOL)
        return proper_error_set(err, PROPER_EPROB, c->file, at.line, 0, "routing row of station %zu sums to %.12g, not 1",
                                i + 1, sum);
    return PROPER_OK;
}

PROPER_API int proper_qn_parse_network_csv(proper_qn *out, const char *text, size_t len, const char *name,
                                           proper_error *err) {
    proper_cursor c;
    proper_qn qn;
    size_t M = 0, i;
    int rc;
    proper_qn_init(&qn);
    proper_skip_bom(&text, &len);
    proper_cursor_init(&c, text, len, name);
    if ((rc = proper__qn_network_header(&c, &M, err)) || (rc = proper_qn_create(&qn, M, err))) return rc;
    for (i = 0; i < M; i++)
        if ((rc = proper__qn_network_row(&c, &qn, i, err))) goto fail;
    if (proper__qn_next_line(&c)) {
        rc = proper_cursor_error(&c, err, PROPER_EPARSE, "more rows than the %zu stations of the header", M);
        goto fail;
    }
    proper_qn_free(out);
    *out = qn;
    return PROPER_OK;
fail:
    proper_qn_free(&qn);
    return rc;
}

PROPER_API int proper_qn_read_network_csv(proper_qn *out, const char *path, proper_error *err) {
    char *text;
    size_t len;
    int rc;
    if ((rc = proper_read_file(path, &text, &len, err))) return rc;
    rc = proper_qn_parse_network_csv(out, text, len, path, err);
    PROPER_FREE(text);
    return rc;
}

static int proper__qn_write(const proper_strbuf *b, FILE *f, proper_error *err) {
    if (b->len && fwrite(b->data, 1, b->len, f) != b->len)
        return proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write error");
    return PROPER_OK;
}

static int proper__qn_format_done(const proper_strbuf *b, proper_error *err) {
    return b->failed ? proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory writing CSV") : PROPER_OK;
}

PROPER_API int proper_qn_format_network_csv(const proper_qn *qn, proper_strbuf *b, proper_error *err) {
    size_t i, j, M = qn->M;
    proper_strbuf_puts(b, "station,servers,rate");
    for (j = 0; j < M; j++) proper_strbuf_printf(b, ",p%zu", j + 1);
    proper_strbuf_puts(b, "\n");
    for (i = 0; i < M; i++) {
        proper_strbuf_printf(b, "%zu,", i + 1);
        proper_strbuf_double(b, qn->servers[i]);
        proper_strbuf_puts(b, ",");
        proper_strbuf_double(b, qn->rates[i]);
        for (j = 0; j < M; j++) {
            proper_strbuf_puts(b, ",");
            proper_strbuf_double(b, qn->routing[i * M + j]);
        }
        proper_strbuf_puts(b, "\n");
    }
    return proper__qn_format_done(b, err);
}

PROPER_API int proper_qn_write_network_csv(const proper_qn *qn, FILE *f, proper_error *err) {
    proper_strbuf b;
    int rc;
    proper_strbuf_init(&b);
    if (!(rc = proper_qn_format_network_csv(qn, &b, err))) rc = proper__qn_write(&b, f, err);
    proper_strbuf_free(&b);
    return rc;
}

PROPER_API int proper_qn_parse_trace_csv(proper_qn_trace *out, const char *text, size_t len, const char *name,
                                         proper_error *err) {
    proper_cursor c;
    size_t fields, M, j, k = 0, cap = 0, ncol;
    int with_busy, rc;
    double *vals = NULL, t0 = 0, dt = 0, prev_t = 0;
    const char *file = name;
    proper_qn_trace t, *tr = &t;
    proper_qn_trace_init(&t);
    proper_skip_bom(&text, &len);
    proper_cursor_init(&c, text, len, name);
    if (!proper__qn_next_line(&c)) return proper_cursor_error(&c, err, PROPER_EPARSE, "empty trace file");
    fields = proper__qn_fields(&c);
    if (fields < 2) return proper_cursor_error(&c, err, PROPER_EPARSE, "header must be t,x1,...,xM[,b1,...,bM]");
    {
        /* busy columns present when the header continues with b1 */
        const char *p = c.p;
        with_busy = 0;
        while (p < c.end && *p != '\n') {
            if (*p == ',' && p + 2 < c.end && p[1] == 'b' && p[2] == '1' &&
                (p + 3 >= c.end || p[3] == ',' || p[3] == '\n' || p[3] == '\r')) { with_busy = 1; break; }
            p++;
        }
    }
    ncol = fields - 1;
    if (with_busy && ncol % 2) return proper_cursor_error(&c, err, PROPER_EPARSE, "as many b columns as x columns are needed");
    M = with_busy ? ncol / 2 : ncol;
    if ((rc = proper__qn_header_word(&c, "t", 0, err)) || (rc = proper__qn_sep(&c, 0, err))) return rc;
    for (j = 0; j < M; j++)
        if ((rc = proper__qn_header_word(&c, "x", j + 1, err)) || (rc = proper__qn_sep(&c, !with_busy && j + 1 == M, err)))
            return rc;
    for (j = 0; with_busy && j < M; j++)
        if ((rc = proper__qn_header_word(&c, "b", j + 1, err)) || (rc = proper__qn_sep(&c, j + 1 == M, err))) return rc;
    while (proper__qn_next_line(&c)) {
        double t;
        proper_cursor at = c;
        size_t got = proper__qn_fields(&c);
        if (got != fields) {
            rc = proper_cursor_error(&c, err, PROPER_EPARSE, "row has %zu columns, the header has %zu (%zu stations)",
                                     got, fields, M);
            goto fail;
        }
        if ((rc = proper_parse_double(&c, &t, err)) || (rc = proper__qn_sep(&c, 0, err))) goto fail;
        if (!isfinite(t)) { rc = proper_cursor_error(&at, err, PROPER_EPARSE, "times must be finite"); goto fail; }
        if (k == 0) {
            t0 = t;
            if (fabs(t0) > 1e-12) { rc = proper_cursor_error(&at, err, PROPER_EPARSE, "the first sample must be at t = 0"); goto fail; }
        } else if (k == 1) {
            dt = t - t0;
            if (!(dt > 0)) { rc = proper_cursor_error(&at, err, PROPER_EPARSE, "times must increase"); goto fail; }
        } else if (fabs((t - prev_t) - dt) > PROPER_QN_TIME_TOL * dt + 1e-12 * fabs(t)) {
            if (t - prev_t > dt)
                rc = proper_cursor_error(&at, err, PROPER_EPARSE,
                                         "sample missing: t jumps from %.10g to %.10g (interval %.10g)", prev_t, t, dt);
            else
                rc = proper_cursor_error(&at, err, PROPER_EPARSE, "samples are not equally spaced at t = %.10g", t);
            goto fail;
        }
        prev_t = t;
        if (proper_reserve(&vals, &cap, (k + 1) * ncol, sizeof *vals)) {
            rc = proper_error_set(err, PROPER_ENOMEM, file, 0, 0, "out of memory");
            goto fail;
        }
        for (j = 0; j < ncol; j++) {
            double v;
            at = c;
            if ((rc = proper_parse_double(&c, &v, err))) goto fail;
            if (!(v >= 0) || !isfinite(v)) {
                rc = proper_cursor_error(&at, err, PROPER_ERANGE, "queue lengths must be finite and >= 0");
                goto fail;
            }
            vals[k * ncol + j] = v;
            if ((rc = proper__qn_sep(&c, j + 1 == ncol, err))) goto fail;
        }
        k++;
    }
    if (k < 2) { rc = proper_cursor_error(&c, err, PROPER_EPARSE, "a trace needs at least two samples"); goto fail; }
    if ((rc = proper_qn_trace_create(&t, M, k, dt, with_busy, err))) goto fail;
    {
        size_t s;
        for (s = 0; s < k; s++)
            for (j = 0; j < M; j++) {
                tr->x[s * M + j] = vals[s * ncol + j];
                if (with_busy) tr->busy[s * M + j] = vals[s * ncol + M + j];
            }
    }
    PROPER_FREE(vals);
    proper__qn_trace_move(out, &t);
    return PROPER_OK;
fail:
    PROPER_FREE(vals);
    return rc;
}

PROPER_API int proper_qn_read_trace_csv(proper_qn_trace *out, const char *path, proper_error *err) {
    char *text;
    size_t len;
    int rc;
    if ((rc = proper_read_file(path, &text, &len, err))) return rc;
    rc = proper_qn_parse_trace_csv(out, text, len, path, err);
    PROPER_FREE(text);
    return rc;
}

PROPER_API int proper_qn_format_trace_csv(const proper_qn_trace *tr, proper_strbuf *b, proper_error *err) {
    size_t k, j, M = tr->M;
    proper_strbuf_puts(b, "t");
    for (j = 0; j < M; j++) proper_strbuf_printf(b, ",x%zu", j + 1);
    for (j = 0; tr->busy && j < M; j++) proper_strbuf_printf(b, ",b%zu", j + 1);
    proper_strbuf_puts(b, "\n");
    for (k = 0; k < tr->K; k++) {
        /* t_1 as the shortest decimal of dt, so that dt reads back exactly
         * (10 digits lost it: dt 0.123456789012 came back 0.123456789); the
         * others with 15 digits, well inside the reader's spacing tolerance */
        if (k == 1) proper_strbuf_double(b, tr->dt);
        else proper_strbuf_printf(b, "%.15g", (double)k * tr->dt);
        for (j = 0; j < M; j++) {
            proper_strbuf_puts(b, ",");
            proper_strbuf_double(b, tr->x[k * M + j]);
        }
        for (j = 0; tr->busy && j < M; j++) {
            proper_strbuf_puts(b, ",");
            proper_strbuf_double(b, tr->busy[k * M + j]);
        }
        proper_strbuf_puts(b, "\n");
    }
    return proper__qn_format_done(b, err);
}

PROPER_API int proper_qn_write_trace_csv(const proper_qn_trace *tr, FILE *f, proper_error *err) {
    proper_strbuf b;
    int rc;
    proper_strbuf_init(&b);
    if (!(rc = proper_qn_format_trace_csv(tr, &b, err))) rc = proper__qn_write(&b, f, err);
    proper_strbuf_free(&b);
    return rc;
}

#endif /* PROPER_QN_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
