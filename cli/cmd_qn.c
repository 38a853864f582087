/* proper qn — closed queueing networks: simulate them, learn rates and
 * routing from queue-length traces (LP, QP, moving horizon), predict
 * what-if scenarios with the learned model, and build their exact CTMC. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/qn.h"
#include "../backends/glpk.h"
#include "cli.h"
#include "svg.h"

/* Defaults of --dt, --steps, --runs, --seed. */
#define QN_DT 0.01
#define QN_STEPS 200
#define QN_RUNS 100
#define QN_SEED 1

/* The LP solver chosen by --backend: NULL function = native simplex. */
typedef struct qn_solver {
    proper_qn_lp_solver fn;
    void *ctx;
} qn_solver;

/* Solve through a backend of backend.h (ctx is the proper_backend). */
static int qn_backend_solve(void *ctx, const proper_lp *lp, proper_lp_solution *sol, proper_error *err) {
    proper_backend_lp_request req = proper_backend_lp_request_default();
    req.lp = lp;
    return proper_backend_solve_lp((const proper_backend *)ctx, &req, sol, err);
}

static int qn_solver_open(qn_solver *s, const char *name) {
    proper_backend_info info;
    proper_error err;
    s->fn = NULL;
    s->ctx = NULL;
    if (!name || strcmp(name, "native") == 0) return CLI_OK;
    if (proper_backend_probe(proper_backend_glpk(), &info, &err)) return cli_report(&err);
    if (!info.installed) return cli_fail("--backend glpsol: glpsol not found (install glpk-utils, or set PROPER_GLPSOL)");
    s->fn = qn_backend_solve;
    s->ctx = (void *)proper_backend_glpk();
    return CLI_OK;
}

static void qn_solver_close(qn_solver *s) { (void)s; }

static void qn_usage(FILE *out) {
    fprintf(out,
            "usage: proper qn simulate --network NET.csv --population N1,...,NM [options]\n"
            "       proper qn fit TRACE.csv... (--servers S1,...,SM | --network NET.csv) [options]\n"
            "       proper qn whatif --network TRUE.csv --learned FIT.csv --population N1,... [options]\n"
            "       proper qn ctmc --network NET.csv --population N1,...,NM [-o PREFIX] [--prism FILE.pm]\n\n"
            "Closed queueing networks learned from queue lengths (Napolitano 2022, ch. 4).\n\n"
            "NET.csv: header station,servers,rate,p1,...,pM; one row per station with\n"
            "its index, servers (integer or inf for a delay station), service rate per\n"
            "server and routing row (summing to 1).\n"
            "TRACE.csv: header t,x1,...,xM[,b1,...,bM]; samples at t = 0, dt, 2dt, ...\n"
            "of mean queue lengths x and mean busy servers b = E[min(s, X)] (without b,\n"
            "min(s, x) is used).\n\n"
            "simulate: writes a trace CSV.\n"
            "  --method ssa|euler|rk4  exact stochastic simulation averaged over --runs\n"
            "                       (default), or the mean-field ODE\n"
            "  --servers S1,...     override the network's server counts\n"
            "  --dt DT --steps K    sampling interval and number of steps (0.01, 200)\n"
            "  --runs R --seed S    SSA runs to average (100) and RNG seed (1)\n"
            "  -o, --output FILE    output file (default stdout)\n"
            "  --svg FILE           also plot the queue lengths against time\n"
            "  Limits (exit 2 beyond them): SSA takes at most 2e8 events in all, checked\n"
            "  before it starts against runs x steps x dt x the total rate with every\n"
            "  job served; the population is at most 1e15 jobs in all; euler and rk4\n"
            "  stop when a queue length goes negative (euler: dt <= 1 / the largest\n"
            "  rate never does).\n\n"
            "fit: writes the learned network CSV (or, with --horizon, one row of rates\n"
            "per window); a summary goes to stderr, with a warning when two or more\n"
            "stations had all servers busy in nearly every sample (the LP cannot tell\n"
            "their rates apart: add traces at a lower load).\n"
            "  --method lp|qp       lp: rates and routing (default); qp: rates only,\n"
            "                       routing from --network\n"
            "  --backend native|glpsol  LP solver (default native)\n"
            "  --scheme euler|trapezoid|exact  (lp) step integral of eq. 4.7: euler (the\n"
            "                       thesis, default; predict with --predict euler),\n"
            "                       trapezoid (less bias at large mu dt, but biased by\n"
            "                       noise: for traces averaged over many runs), or exact\n"
            "                       (the ODE's exact step, by rounds of defect correction:\n"
            "                       the true rates; predict with rk4 or ssa)\n"
            "  --write-lp FILE      also write the LP in CPLEX LP format\n"
            "  --known 1,0,...      (qp) keep the rates of stations marked 1 from --network\n"
            "  --horizon H [--stride S]  (qp) moving-horizon estimation over windows of H\n"
            "                       steps every S steps (default S = H)\n"
            "  -o, --output FILE    output file (default stdout)\n\n"
            "whatif: simulates the true and the learned network from --population (with\n"
            "--servers if given, for both; the same random numbers for both) and prints\n"
            "the error of eq. 4.9:\n"
            "100 sum_i |x_i - y_i| / (2N), its maximum and mean over the samples.\n"
            "  --dt, --steps, --runs, --seed as for simulate\n"
            "  --method ssa|euler|rk4   how the true network is simulated (ssa)\n"
            "  --predict ssa|euler|rk4  how the learned one is (default: --method); euler\n"
            "                       at --dt is the model the Euler LP fits (eq. 4.1), rk4\n"
            "                       or ssa suit a fit with --scheme exact\n"
            "  --max-error E        exit 1 when the maximum error exceeds E percent\n"
            "  --svg FILE           plot both networks' queue lengths against time\n"
            "  --csv                one CSV line: max_error,mean_error\n\n");
    fputs("ctmc: builds the network's exact CTMC (every placement of the N jobs is a\n"
          "state; at most 2e6 states) and prints its steady-state mean queue length\n"
          "and throughput per station as CSV (station,queue,throughput); the state\n"
          "and transition counts go to stderr.\n"
          "  --servers S1,...     override the network's server counts\n"
          "  -o, --output PREFIX  also write PREFIX.tra .lab .sta and the reward files\n"
          "                       PREFIX1.srew ... (q1..qM: queue lengths, then\n"
          "                       tput1..tputM: completion rates), PRISM's explicit format\n"
          "  --prism FILE.pm      also write the network in the PRISM language, with\n"
          "                       the same reward structures (for PRISM, or proper check)\n\n"
          "Exit status: 0 ok, 1 --max-error exceeded, 2 bad input.\n", out);
}

/* Comma-separated numbers; "inf" allowed. */
static int parse_list(const char *s, const char *what, double **out, size_t *n) {
    char buf[64];
    size_t cap = 0;
    proper_error err;
    *out = NULL;
    *n = 0;
    while (*s) {
        size_t len = strcspn(s, ",");
        double v;
        if (len == 0 || len >= sizeof buf) {
            PROPER_FREE(*out);
            return cli_fail("%s: malformed list near '%s'", what, s);
        }
        memcpy(buf, s, len);
        buf[len] = '\0';
        if (proper_parse_double_str(buf, &v, what, &err)) {
            PROPER_FREE(*out);
            return cli_report(&err);
        }
        if (proper_reserve(out, &cap, *n + 1, sizeof **out)) return cli_fail("out of memory");
        (*out)[(*n)++] = v;
        s += len;
        if (*s == ',') s++;
    }
    if (*n == 0) return cli_fail("%s: empty list", what);
    return CLI_OK;
}

/* Open -o/--output FILE, or stdout without one (or with "-"). */
static int open_output(const char *path, FILE **f) {
    *f = path && strcmp(path, "-") != 0 ? fopen(path, "wb") : stdout;
    return *f ? CLI_OK : cli_fail("%s: cannot open for writing", path);
}

static int close_output(const char *path, FILE *f) {
    if (f == stdout) return fflush(stdout) == 0 ? CLI_OK : cli_fail("stdout: write failed");
    return fclose(f) == 0 ? CLI_OK : cli_fail("%s: write failed", path);
}

/* Write a network, trace or LP (writer(obj, FILE*, err)) to the file `path`
 * (stdout when NULL or "-"). */
static int write_output(const char *path, int (*writer)(const void *, FILE *, proper_error *), const void *obj) {
    FILE *f;
    proper_error err;
    int rc;
    if ((rc = open_output(path, &f))) return rc;
    rc = writer(obj, f, &err) ? cli_report(&err) : CLI_OK;
    if (close_output(path, f) && rc == CLI_OK) rc = CLI_BAD_INPUT;
    return rc;
}

static int network_writer(const void *qn, FILE *f, proper_error *err) {
    return proper_qn_write_network_csv((const proper_qn *)qn, f, err);
}

static int trace_writer(const void *tr, FILE *f, proper_error *err) {
    return proper_qn_write_trace_csv((const proper_qn_trace *)tr, f, err);
}

static int lp_writer(const void *lp, FILE *f, proper_error *err) {
    return proper_lp_write_cplex((const proper_lp *)lp, f, err);
}

typedef struct qn_args {
    const char *network, *learned, *out, *write_lp, *backend, *method, *predict, *scheme, *svg, *prism;
    double *population, *servers, *known;
    size_t n_population, n_servers, n_known;
    double dt, max_error;
    unsigned long long steps, runs, horizon, stride, seed;
    int csv, have_max_error;
    const char **inputs;
    size_t n_inputs;
} qn_args;

static void qn_args_free(qn_args *a) {
    PROPER_FREE(a->population);
    PROPER_FREE(a->servers);
    PROPER_FREE(a->known);
    PROPER_FREE(a->inputs);
}

/* A comma-separated list option; 1 when `o` matched. */
static int qn_list(cli_args *o, const char *spec, double **out, size_t *n) {
    if (!cli_opt(o, spec)) return 0;
    if (o->value && parse_list(o->value, spec, out, n)) o->status = CLI_BAD_INPUT;
    return 1;
}

/* One option of qn_parse; 1 when `o` matched. */
static int qn_option(cli_args *o, qn_args *a) {
    if (cli_opt(o, "--network")) a->network = o->value;
    else if (cli_opt(o, "--learned")) a->learned = o->value;
    else if (cli_opt(o, "-o|--output")) a->out = o->value;
    else if (cli_opt(o, "--write-lp")) a->write_lp = o->value;
    else if (cli_opt(o, "--backend")) a->backend = o->value;
    else if (cli_opt(o, "--method")) a->method = o->value;
    else if (cli_opt(o, "--scheme")) a->scheme = o->value;
    else if (cli_opt(o, "--predict")) a->predict = o->value;
    else if (cli_opt(o, "--svg")) a->svg = o->value;
    else if (cli_opt(o, "--prism")) a->prism = o->value;
    else if (qn_list(o, "--population", &a->population, &a->n_population)) {}
    else if (qn_list(o, "--servers", &a->servers, &a->n_servers)) {}
    else if (qn_list(o, "--known", &a->known, &a->n_known)) {}
    else if (cli_opt_double(o, "--dt", "(0,inf)", &a->dt)) {}
    else if (cli_opt_double(o, "--max-error", NULL, &a->max_error)) a->have_max_error = 1;
    else if (cli_opt_uint(o, "--steps", 1, ULLONG_MAX, &a->steps)) {}
    else if (cli_opt_uint(o, "--runs", 1, ULLONG_MAX, &a->runs)) {}
    else if (cli_opt_uint(o, "--horizon", 1, ULLONG_MAX, &a->horizon)) {}
    else if (cli_opt_uint(o, "--stride", 1, ULLONG_MAX, &a->stride)) {}
    else if (cli_opt_uint(o, "--seed", 0, ULLONG_MAX, &a->seed)) {}
    else if (cli_flag(o, "--csv")) a->csv = 1;
    else return 0;
    return 1;
}

static int qn_parse(int argc, char **argv, qn_args *a) {
    cli_args o;
    size_t cap = 0;
    memset(a, 0, sizeof *a);
    a->dt = QN_DT;
    a->steps = QN_STEPS;
    a->runs = QN_RUNS;
    a->seed = QN_SEED;
    cli_args_init(&o, "qn", argc - 1, argv + 1); /* the words after the subcommand (cli.h) */
    while (cli_next(&o)) {
        if (qn_option(&o, a)) continue;
        if (!cli_positional(&o)) cli_unknown(&o);
        else if (proper_reserve(&a->inputs, &cap, a->n_inputs + 1, sizeof *a->inputs)) return cli_fail("out of memory");
        else a->inputs[a->n_inputs++] = o.value;
    }
    return o.status;
}

/* Integer job counts from a --population list. */
/* The largest total population: exact in a double and in an unsigned long
 * (also where that has 32 bits). */
#define QN_MAX_POPULATION (ULONG_MAX < 1e15 ? (double)ULONG_MAX : 1e15)

static int population_counts(const qn_args *a, size_t M, unsigned long *x0) {
    size_t i;
    double total = 0;
    if (a->n_population != M)
        return cli_fail("--population has %zu entries, the network has %zu stations", a->n_population, M);
    for (i = 0; i < M; i++) {
        double v = a->population[i];
        if (!(v >= 0) || v != floor(v))
            return cli_fail("--population: entry %zu must be a non-negative integer (got %g)", i + 1, v);
        total += v;
        if (!(total <= QN_MAX_POPULATION))
            return cli_fail("--population: the total must be at most %.0f jobs (got %g at entry %zu)", QN_MAX_POPULATION,
                            total, i + 1);
        x0[i] = (unsigned long)v;
    }
    return CLI_OK;
}

static int apply_servers(const qn_args *a, proper_qn *qn) {
    size_t i;
    proper_error err;
    if (!a->servers) return CLI_OK;
    if (a->n_servers != qn->M)
        return cli_fail("--servers has %zu entries, the network has %zu stations", a->n_servers, qn->M);
    for (i = 0; i < qn->M; i++) qn->servers[i] = a->servers[i];
    return proper_qn_validate(qn, &err) ? cli_report(&err) : CLI_OK;
}

/* Simulate by the chosen method into tr. */
static int run_model(const qn_args *a, const proper_qn *qn, const unsigned long *x0, const char *method,
                     proper_rng *rng, proper_qn_trace *tr) {
    proper_error err;
    size_t i, K = a->steps + 1;
    int rc;
    if (!method || strcmp(method, "ssa") == 0) {
        rc = proper_qn_simulate(qn, x0, a->dt, K, a->runs, rng, tr, NULL, &err);
    } else if (strcmp(method, "euler") == 0 || strcmp(method, "rk4") == 0) {
        double *xd = (double *)proper_calloc(qn->M, sizeof *xd);
        if (!xd) return cli_fail("out of memory");
        for (i = 0; i < qn->M; i++) xd[i] = (double)x0[i];
        rc = strcmp(method, "euler") == 0 ? proper_qn_ode_euler(qn, xd, a->dt, K, tr, &err)
                                          : proper_qn_ode_rk4(qn, xd, a->dt, K, 10, tr, &err);
        PROPER_FREE(xd);
    } else
        return cli_fail("--method must be ssa, euler or rk4 (got '%s')", method);
    return rc ? cli_report(&err) : CLI_OK;
}

/* Read a network CSV into qn (initialised). */
static int load_network(const char *path, proper_qn *qn) {
    proper_error err;
    return proper_qn_read_network_csv(qn, path, &err) ? cli_report(&err) : CLI_OK;
}

/* Colours of the stations' curves (cycled), so that a station's true and
 * learned curves share one. */
static const char *const QN_COLORS[8] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                         "#9467bd", "#8c564b", "#e377c2", "#17becf"};

/* --svg: the queue lengths of one or two traces (a the truth or the
 * simulation, b the learned network's prediction or NULL) against time,
 * one colour per station; a as lines, b as dots. Stations beyond the
 * sixth share the legend's silence. */
static int qn_svg(const char *path, const char *title, const proper_qn_trace *a, const proper_qn_trace *b) {
    size_t M = a->M, K = a->K, i, k, n = 0, nt = b ? 2 : 1, t;
    double *time = (double *)proper_calloc(K, sizeof *time), *y = (double *)proper_calloc(nt * M * K, sizeof *y);
    svg_series *series = (svg_series *)proper_calloc(nt * M, sizeof *series);
    char (*labels)[48] = (char (*)[48])proper_calloc(nt * M, sizeof *labels);
    svg_plot plot;
    int rc = CLI_OK;
    if (!time || !y || !series || !labels) { rc = cli_fail("out of memory"); goto out; }
    for (k = 0; k < K; k++) time[k] = (double)k * a->dt;
    for (t = 0; t < nt; t++) {
        const proper_qn_trace *tr = t ? b : a;
        for (i = 0; i < M; i++, n++) {
            for (k = 0; k < K; k++) y[n * K + k] = tr->x[k * M + i];
            if (i < 6) snprintf(labels[n], sizeof labels[n], "x%zu%s", i + 1, !b ? "" : t ? " learned" : " true");
            svg_series_init(&series[n], labels[n], time, y + n * K, K, t ? SVG_POINTS : SVG_LINE);
            series[n].color = QN_COLORS[i % 8];
        }
    }
    svg_plot_init(&plot);
    plot.title = title;
    plot.xlabel = "time";
    plot.ylabel = "mean queue length";
    if (svg_write_file(path, &plot, series, n) != 0) rc = cli_fail("%s: cannot write the SVG: %s", path, strerror(errno));
out:
    PROPER_FREE(time);
    PROPER_FREE(y);
    PROPER_FREE(series);
    PROPER_FREE(labels);
    return rc;
}

static int qn_simulate(const qn_args *a) {
    proper_qn qn;
    proper_qn_trace tr;
    proper_rng rng;
    unsigned long *x0 = NULL;
    int rc;
    if (!a->network) return cli_fail("simulate needs --network NET.csv");
    if (!a->population) return cli_fail("simulate needs --population N1,...,NM");
    proper_qn_init(&qn);
    proper_qn_trace_init(&tr);
    if ((rc = load_network(a->network, &qn))) return rc;
    x0 = (unsigned long *)proper_calloc(qn.M, sizeof *x0);
    if (!x0) { rc = cli_fail("out of memory"); goto out; }
    if ((rc = apply_servers(a, &qn)) || (rc = population_counts(a, qn.M, x0))) goto out;
    proper_rng_seed(&rng, a->seed);
    if ((rc = run_model(a, &qn, x0, a->method, &rng, &tr))) goto out;
    rc = write_output(a->out, trace_writer, &tr);
    if (!rc && a->svg) rc = qn_svg(a->svg, "proper qn simulate: queue lengths", &tr, NULL);
out:
    PROPER_FREE(x0);
    proper_qn_trace_free(&tr);
    proper_qn_free(&qn);
    return rc;
}

/* The windows' rates as CSV: t_end,mu1,...,muM. */
static void format_mhe(proper_strbuf *b, const double *rates, const double *ends, size_t nwin, size_t M) {
    size_t w, i;
    proper_strbuf_puts(b, "t_end");
    for (i = 0; i < M; i++) proper_strbuf_printf(b, ",mu%zu", i + 1);
    proper_strbuf_puts(b, "\n");
    for (w = 0; w < nwin; w++) {
        proper_strbuf_printf(b, "%.10g", ends[w]);
        for (i = 0; i < M; i++) {
            proper_strbuf_puts(b, ",");
            proper_strbuf_double(b, rates[w * M + i]);
        }
        proper_strbuf_puts(b, "\n");
    }
}

static int text_writer(const void *text, FILE *f, proper_error *err) {
    const proper_strbuf *b = (const proper_strbuf *)text;
    if (b->failed) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    if (b->len && fwrite(b->data, 1, b->len, f) != b->len)
        return proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write error");
    return PROPER_OK;
}

static int fit_mhe(const qn_args *a, const proper_qn *known_net, const unsigned char *known, const proper_qn_trace *tr) {
    double *rates = NULL, *ends = NULL;
    size_t nwin;
    proper_error err;
    proper_strbuf text;
    int rc;
    if (proper_qn_mhe(tr, known_net, known, a->horizon, a->stride ? a->stride : a->horizon, &rates, &ends, &nwin, &err))
        return cli_report(&err);
    proper_strbuf_init(&text);
    format_mhe(&text, rates, ends, nwin, known_net->M);
    rc = write_output(a->out, text_writer, &text);
    if (rc == CLI_OK) fprintf(stderr, "proper qn fit: %zu windows of %llu steps\n", nwin, a->horizon);
    proper_strbuf_free(&text);
    PROPER_FREE(rates);
    PROPER_FREE(ends);
    return rc;
}

/* Stations saturated in at least this share of the samples count as
 * "always saturated" for the identifiability warning. */
#define QN_SATURATED_SHARE 0.95

/* Warn when two or more stations had all servers busy in (nearly) every
 * sample: the LP cannot tell their rates apart (proper_qn_saturation). */
static int warn_saturated(const proper_qn_trace *traces, size_t ntraces, const double *servers) {
    size_t M = traces[0].M, i, count = 0;
    double *share = (double *)proper_calloc(M, sizeof *share);
    proper_error err;
    if (!share) return cli_fail("out of memory");
    if (proper_qn_saturation(traces, ntraces, servers, share, &err)) {
        PROPER_FREE(share);
        return cli_report(&err);
    }
    for (i = 0; i < M; i++) count += share[i] >= QN_SATURATED_SHARE;
    if (count >= 2) {
        fprintf(stderr, "proper qn fit: warning: %zu stations had all servers busy in at least %.0f%% of the samples:",
                count, 100 * QN_SATURATED_SHARE);
        for (i = 0; i < M; i++)
            if (share[i] >= QN_SATURATED_SHARE) fprintf(stderr, " %zu (%.0f%%)", i + 1, 100 * share[i]);
        fprintf(stderr, ".\n  Their rates and routing are not identifiable from these traces; add traces at a load\n"
                        "  that frees some of their servers before trusting a what-if that adds servers there.\n");
    }
    PROPER_FREE(share);
    return CLI_OK;
}

static int qn_fit(const qn_args *a) {
    proper_qn_trace *traces = NULL;
    proper_qn net, fit;
    proper_error err;
    size_t t, i, M;
    int rc = CLI_OK, qp = a->method && strcmp(a->method, "qp") == 0, scheme = PROPER_QN_EULER;
    proper_qn_init(&net);
    proper_qn_init(&fit);
    if (a->method && !qp && strcmp(a->method, "lp") != 0) return cli_fail("--method must be lp or qp (got '%s')", a->method);
    if (a->scheme && strcmp(a->scheme, "trapezoid") == 0) scheme = PROPER_QN_TRAPEZOID;
    else if (a->scheme && strcmp(a->scheme, "exact") == 0) scheme = PROPER_QN_EXACT;
    else if (a->scheme && strcmp(a->scheme, "euler") != 0)
        return cli_fail("--scheme must be euler, trapezoid or exact (got '%s')", a->scheme);
    if (a->scheme && qp) return cli_fail("--scheme applies to --method lp (the QP uses Euler steps, eq. 4.2)");
    if (a->n_inputs == 0) return cli_fail("fit needs at least one TRACE.csv");
    if (a->backend && strcmp(a->backend, "native") != 0 && strcmp(a->backend, "glpsol") != 0)
        return cli_fail("--backend must be native or glpsol (got '%s')", a->backend);
    traces = (proper_qn_trace *)proper_calloc(a->n_inputs, sizeof *traces);
    if (!traces) return cli_fail("out of memory");
    for (t = 0; t < a->n_inputs; t++)
        if (proper_qn_read_trace_csv(&traces[t], a->inputs[t], &err)) { rc = cli_report(&err); goto out; }
    M = traces[0].M;
    for (t = 1; t < a->n_inputs; t++)
        if (traces[t].M != M) { rc = cli_fail("%s: %zu stations, %s has %zu", a->inputs[t], traces[t].M, a->inputs[0], M); goto out; }
    if (a->network) {
        if ((rc = load_network(a->network, &net))) goto out;
        if (net.M != M) { rc = cli_fail("%s: %zu stations, the traces have %zu", a->network, net.M, M); goto out; }
    } else if (proper_qn_create(&net, M, &err)) {
        rc = cli_report(&err);
        goto out;
    }
    if (a->servers) {
        if (a->n_servers != M) { rc = cli_fail("--servers has %zu entries, the traces have %zu stations", a->n_servers, M); goto out; }
        for (i = 0; i < M; i++) net.servers[i] = a->servers[i];
    } else if (!a->network) {
        rc = cli_fail("fit needs the server counts: --servers S1,...,SM or --network NET.csv");
        goto out;
    }
    if (qp) {
        unsigned char *known = NULL;
        if (!a->network) { rc = cli_fail("--method qp needs the routing: --network NET.csv"); goto out; }
        if (a->known) {
            if (a->n_known != M) { rc = cli_fail("--known has %zu entries, expected %zu", a->n_known, M); goto out; }
            known = (unsigned char *)proper_calloc(M, 1);
            if (!known) { rc = cli_fail("out of memory"); goto out; }
            for (i = 0; i < M; i++) known[i] = a->known[i] != 0;
        }
        if (a->horizon) {
            if (a->n_inputs != 1) rc = cli_fail("--horizon works on one trace");
            else rc = fit_mhe(a, &net, known, &traces[0]);
            PROPER_FREE(known);
            goto out;
        }
        if ((rc = proper_qn_copy(&fit, &net, &err))) { PROPER_FREE(known); rc = cli_report(&err); goto out; }
        rc = proper_qn_fit_qp(traces, a->n_inputs, &net, known, 0, (size_t)-1, fit.rates, &err);
        PROPER_FREE(known);
        if (rc) { rc = cli_report(&err); goto out; }
        fprintf(stderr, "proper qn fit: QP over %zu traces\n", a->n_inputs);
    } else {
        proper_qn_fit_result res;
        qn_solver solver;
        if (a->horizon) { rc = cli_fail("--horizon needs --method qp"); goto out; }
        if ((rc = qn_solver_open(&solver, a->backend))) goto out;
        if (a->write_lp) {
            proper_lp lp;
            proper_lp_init(&lp);
            if (proper_qn_build_lp(traces, a->n_inputs, net.servers, scheme, &lp, &err)) rc = cli_report(&err);
            else rc = write_output(a->write_lp, lp_writer, &lp);
            proper_lp_free(&lp);
            if (rc) { qn_solver_close(&solver); goto out; }
        }
        rc = proper_qn_fit_lp(traces, a->n_inputs, net.servers, scheme, solver.fn, solver.ctx, &fit, &res, &err);
        qn_solver_close(&solver);
        if (rc) { rc = cli_report(&err); goto out; }
        if (solver.fn)
            fprintf(stderr, "proper qn fit: LP %zu rows x %zu columns, total one-step error %.10g (glpsol",
                    res.rows, res.cols, res.objective);
        else
            fprintf(stderr, "proper qn fit: LP %zu rows x %zu columns, total one-step error %.10g (native, %zu iterations",
                    res.rows, res.cols, res.objective, res.iterations);
        if (scheme == PROPER_QN_EXACT) fprintf(stderr, ", %zu rounds", res.rounds);
        fprintf(stderr, ")\n");
        if ((rc = warn_saturated(traces, a->n_inputs, net.servers))) goto out;
    }
    rc = write_output(a->out, network_writer, &fit);
out:
    proper_qn_free(&fit);
    proper_qn_free(&net);
    for (t = 0; traces && t < a->n_inputs; t++) proper_qn_trace_free(&traces[t]);
    PROPER_FREE(traces);
    return rc;
}

static int qn_whatif(const qn_args *a) {
    proper_qn truth, learned;
    proper_qn_trace tt, tl;
    proper_rng rng;
    proper_error err;
    unsigned long *x0 = NULL;
    double mx, mean;
    int rc;
    const char *method = a->method ? a->method : "ssa", *predict = a->predict ? a->predict : method;
    if (!a->network || !a->learned) return cli_fail("whatif needs --network TRUE.csv and --learned FIT.csv");
    if (!a->population) return cli_fail("whatif needs --population N1,...,NM");
    proper_qn_init(&truth);
    proper_qn_init(&learned);
    proper_qn_trace_init(&tt);
    proper_qn_trace_init(&tl);
    if ((rc = load_network(a->network, &truth))) return rc;
    if ((rc = load_network(a->learned, &learned))) { proper_qn_free(&truth); return rc; }
    if (learned.M != truth.M) { rc = cli_fail("%s has %zu stations, %s has %zu", a->learned, learned.M, a->network, truth.M); goto out; }
    x0 = (unsigned long *)proper_calloc(truth.M, sizeof *x0);
    if (!x0) { rc = cli_fail("out of memory"); goto out; }
    if ((rc = apply_servers(a, &truth)) || (rc = apply_servers(a, &learned)) || (rc = population_counts(a, truth.M, x0)))
        goto out;
    /* common random numbers: both models see the same stream */
    proper_rng_seed(&rng, a->seed);
    if ((rc = run_model(a, &truth, x0, method, &rng, &tt))) goto out;
    proper_rng_seed(&rng, a->seed);
    if ((rc = run_model(a, &learned, x0, predict, &rng, &tl))) goto out;
    if (proper_qn_trace_error(&tt, &tl, &mx, &mean, &err)) { rc = cli_report(&err); goto out; }
    if (a->svg && (rc = qn_svg(a->svg, "proper qn whatif: true (lines) and learned (dots) queue lengths", &tt, &tl)))
        goto out;
    if (a->csv) printf("max_error,mean_error\n%.6g,%.6g\n", mx, mean);
    else printf("what-if error (eq. 4.9) over %zu samples: max %.4g%%, mean %.4g%%\n", tt.K, mx, mean);
    rc = a->have_max_error && mx > a->max_error ? CLI_CHECK_FAILED : CLI_OK;
    if (rc) fprintf(stderr, "proper: what-if error %.4g%% exceeds --max-error %g%%\n", mx, a->max_error);
out:
    PROPER_FREE(x0);
    proper_qn_trace_free(&tt);
    proper_qn_trace_free(&tl);
    proper_qn_free(&truth);
    proper_qn_free(&learned);
    return rc;
}

/* The PRISM-language export to `path`. */
static int write_qn_prism(const char *path, const proper_qn *qn, const unsigned long *x0) {
    FILE *f = fopen(path, "wb");
    proper_error err;
    int rc;
    if (!f) return cli_fail("%s: cannot open for writing", path);
    rc = proper_qn_write_prism(qn, x0, f, &err) ? cli_report(&err) : CLI_OK;
    if (fclose(f) != 0 && rc == CLI_OK) rc = cli_fail("%s: write failed", path);
    return rc;
}

static int qn_ctmc(const qn_args *a) {
    proper_qn qn;
    proper_dtmc m;
    proper_error err;
    unsigned long *x0 = NULL;
    double *q = NULL, *tput = NULL;
    size_t i;
    int rc;
    if (!a->network) return cli_fail("ctmc needs --network NET.csv");
    if (!a->population) return cli_fail("ctmc needs --population N1,...,NM");
    proper_qn_init(&qn);
    proper_dtmc_init(&m);
    if ((rc = load_network(a->network, &qn))) return rc;
    x0 = (unsigned long *)proper_calloc(qn.M, sizeof *x0);
    q = (double *)proper_calloc(qn.M, sizeof *q);
    tput = (double *)proper_calloc(qn.M, sizeof *tput);
    if (!x0 || !q || !tput) { rc = cli_fail("out of memory"); goto out; }
    if ((rc = apply_servers(a, &qn)) || (rc = population_counts(a, qn.M, x0))) goto out;
    if (a->prism && (rc = write_qn_prism(a->prism, &qn, x0))) goto out;
    if (proper_qn_ctmc(&qn, x0, &m, &err) || proper_qn_ctmc_steady(&qn, &m, NULL, q, tput, &err) ||
        (a->out && proper_dtmc_write_explicit_files(&m, a->out, &err))) {
        rc = cli_report(&err);
        goto out;
    }
    fprintf(stderr, "proper qn ctmc: %lu states, %llu transitions\n", (unsigned long)m.n_states,
            (unsigned long long)m.n_trans);
    printf("station,queue,throughput\n");
    for (i = 0; i < qn.M; i++) {
        char nq[PROPER_DOUBLE_CHARS], nt[PROPER_DOUBLE_CHARS];
        printf("%zu,%s,%s\n", i + 1, proper_format_double(nq, q[i]), proper_format_double(nt, tput[i]));
    }
    rc = fflush(stdout) == 0 ? CLI_OK : cli_fail("stdout: write failed");
out:
    PROPER_FREE(x0);
    PROPER_FREE(q);
    PROPER_FREE(tput);
    proper_dtmc_free(&m);
    proper_qn_free(&qn);
    return rc;
}

int cmd_qn(int argc, char **argv) {
    qn_args a;
    cli_args help;
    int rc;
    cli_args_init(&help, "qn", argc, argv);
    if (help.help) {
        qn_usage(stdout);
        return CLI_OK;
    }
    if (argc < 2) {
        qn_usage(stderr);
        return CLI_BAD_INPUT;
    }
    if ((rc = qn_parse(argc, argv, &a))) { qn_args_free(&a); return rc; }
    if (strcmp(argv[1], "simulate") == 0) rc = qn_simulate(&a);
    else if (strcmp(argv[1], "fit") == 0) rc = qn_fit(&a);
    else if (strcmp(argv[1], "whatif") == 0) rc = qn_whatif(&a);
    else if (strcmp(argv[1], "ctmc") == 0) rc = qn_ctmc(&a);
    else rc = cli_fail("unknown qn command '%s' (simulate, fit, whatif, ctmc)", argv[1]);
    qn_args_free(&a);
    return rc;
}
