/* bench_qn.c — throughput of the Gillespie simulator of qn.h (events per
 * second) on the thesis load balancer (N = 5500, 20 time units) and on a
 * random 20-station network, against a baseline measured in the same run:
 * the textbook direct method over all M x M reaction channels (every event
 * recomputes each channel's propensity mu_i min(s_i, x_i) P_ij and scans them
 * linearly), as a generic SSA of the CTMC would do. Also the cost of the
 * mean-field alternative (RK4, 10 steps per sample) for the same horizon.
 *
 *   bench_qn [--seed S]
 */
#include "bench.h"
#define PROPER_IMPLEMENTATION
#include "../src/qn.h"

static double cpu(void) { return bench_now(BENCH_PROCESS_CPU); }

/* The baseline: direct method over M*M channels; returns the event count
 * and leaves the final mean queue length of station 0 in *x0_end. */
static unsigned long long naive_ssa(const proper_qn *q, const unsigned long *x0, double horizon, size_t runs,
                                    proper_rng *rng, double *x0_end) {
    size_t M = q->M, i, j, r;
    unsigned long long ev = 0;
    unsigned long *x = (unsigned long *)malloc(M * sizeof *x);
    double *prop = (double *)malloc(M * M * sizeof *prop), acc = 0;
    for (r = 0; r < runs; r++) {
        double t = 0;
        for (i = 0; i < M; i++) x[i] = x0[i];
        for (;;) {
            double total = 0, u;
            size_t c;
            for (i = 0; i < M; i++)
                for (j = 0; j < M; j++) {
                    double busy = (double)x[i] < q->servers[i] ? (double)x[i] : q->servers[i];
                    prop[i * M + j] = q->rates[i] * busy * q->routing[i * M + j];
                    total += prop[i * M + j];
                }
            if (total <= 0) break;
            t += proper_rng_exponential(rng, total);
            if (t >= horizon) break;
            u = proper_rng_uniform(rng) * total;
            for (c = 0; c + 1 < M * M && (u >= prop[c] || prop[c] == 0); c++) u -= prop[c];
            x[c / M]--;
            x[c % M]++;
            ev++;
        }
        acc += (double)x[0];
    }
    *x0_end = acc / (double)runs;
    free(x);
    free(prop);
    return ev;
}

static void run_case(const char *name, const proper_qn *q, const unsigned long *x0, double dt, size_t K, size_t runs,
                     unsigned long long seed) {
    proper_rng rng;
    proper_qn_trace tr, ode;
    proper_error err;
    unsigned long long ev = 0, ev_naive;
    double c0, t_ours, t_naive, t_ode, naive_end, *xd;
    size_t i;
    proper_qn_trace_init(&tr);
    proper_qn_trace_init(&ode);
    proper_rng_seed(&rng, seed);
    c0 = cpu();
    if (proper_qn_simulate(q, x0, dt, K, runs, &rng, &tr, &ev, &err)) { fprintf(stderr, "%s\n", err.message); exit(1); }
    t_ours = cpu() - c0;
    proper_rng_seed(&rng, seed);
    c0 = cpu();
    ev_naive = naive_ssa(q, x0, dt * (double)(K - 1), runs, &rng, &naive_end);
    t_naive = cpu() - c0;
    xd = (double *)malloc(q->M * sizeof *xd);
    for (i = 0; i < q->M; i++) xd[i] = (double)x0[i];
    c0 = cpu();
    proper_qn_ode_rk4(q, xd, dt, K, 10, &ode, &err);
    t_ode = cpu() - c0;
    printf("%-26s %3zu %6zu %12llu %12.3g %12.3g %7.2f | %9.4f %9.4f | %10.3g\n", name, q->M, runs, ev,
           (double)ev / t_ours, (double)ev_naive / t_naive, ((double)ev / t_ours) / ((double)ev_naive / t_naive),
           tr.x[(K - 1) * q->M], naive_end, t_ode);
    free(xd);
    proper_qn_trace_free(&tr);
    proper_qn_trace_free(&ode);
}

int main(int argc, char **argv) {
    unsigned long long seed = 7;
    proper_qn lb, rnd;
    proper_rng rng;
    unsigned long x_lb[3] = {5500, 0, 0}, x_rnd[20];
    size_t i, j, M = 20;
    if (argc == 3 && strcmp(argv[1], "--seed") == 0) seed = strtoull(argv[2], NULL, 10);
    proper_qn_init(&lb);
    proper_qn_init(&rnd);
    proper_qn_create(&lb, 3, NULL);
    lb.servers[0] = INFINITY; lb.servers[1] = lb.servers[2] = 20;
    lb.rates[0] = 1.0; lb.rates[1] = 68.97; lb.rates[2] = 73.80;
    lb.routing[1] = lb.routing[2] = 0.5; lb.routing[3] = lb.routing[6] = 1;
    proper_rng_seed(&rng, seed);
    proper_qn_create(&rnd, M, NULL);
    for (i = 0; i < M; i++) {
        double s = 0;
        rnd.rates[i] = 1 + 99 * proper_rng_uniform(&rng);
        rnd.servers[i] = i == 0 ? INFINITY : (double)(1 + proper_rng_below(&rng, 64));
        for (j = 0; j < M; j++) s += rnd.routing[i * M + j] = i == j ? 0 : proper_rng_uniform(&rng);
        for (j = 0; j < M; j++) rnd.routing[i * M + j] /= s;
        x_rnd[i] = (unsigned long)proper_rng_below(&rng, i == 0 ? 100 : (uint64_t)(2 * rnd.servers[i] + 1));
    }
    printf("Gillespie SSA (CPU time); baseline: direct method over all M*M channels, same seed\n");
    printf("%-26s %3s %6s %12s %12s %12s %7s | %9s %9s | %10s\n", "case", "M", "runs", "events", "events/s",
           "baseline/s", "ratio", "x1(T)", "base x1", "RK4 (s)");
    run_case("load balancer N=5500 T=20", &lb, x_lb, 0.01, 2001, 5, seed);
    run_case("random M=20 T=2", &rnd, x_rnd, 0.01, 201, 100, seed);
    printf("ratio = our events/s / baseline events/s; x1(T): mean jobs at station 1 at the end (both should agree\n"
           "within noise); RK4: the mean-field ODE over the same horizon\n");
    proper_qn_free(&lb);
    proper_qn_free(&rnd);
    return 0;
}
