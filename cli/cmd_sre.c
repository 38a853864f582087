/* proper sre — evaluate a stochastic regular expression to a response-time
 * PMF, compare it with measured times (Koziolek & Firus 2007, Tables 1-3),
 * plot both; convert a service effect automaton to an SRE. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/sre.h"
#include "../src/stats.h"
#include "cli.h"
#include "json.h"
#include "svg.h"

#define SRE_MAX_EVALS 8
#define SRE_MAX_SETS 64
/* Plots have two panels. The upper one shows the body of the PMFs on a
 * linear axis, from the SRE_PLOT_LO_Q quantile to the SRE_PLOT_HI_Q
 * quantile plus SRE_PLOT_MARGIN of that range (the measured tails of a
 * shared machine reach far beyond the body and would squeeze it into a few
 * pixels); its axis label says where it ends. The lower one shows the same
 * PMFs on a log probability axis up to the SRE_PLOT_TAIL_Q quantile, so the
 * tail cut from the upper panel stays visible. */
#define SRE_PLOT_LO_Q 0.001
#define SRE_PLOT_HI_Q 0.95
#define SRE_PLOT_MARGIN 0.25
#define SRE_PLOT_TAIL_Q 0.999
#define SRE_PLOT_LOG_FLOOR 1e-9 /* lowest probability on the tail's axis without measurements */

static void sre_usage(FILE *out) {
    fprintf(out,
            "usage: proper sre FILE.sre [options]\n"
            "       proper sre --from-automaton EDGES\n\n"
            "Evaluate a stochastic regular expression (SRE): the response-time PMF of a\n"
            "service from the PMFs of its steps, its branch probabilities and the\n"
            "iteration-count PMFs of its loops (Koziolek & Firus 2007). The language is\n"
            "documented (with an EBNF) at the top of src/sre.h. Times are microseconds.\n\n"
            "options:\n"
            "  --eval NAME          definition to evaluate (default: the last 'def');\n"
            "                       repeat to evaluate several side by side\n"
            "  --width W            grid width, the sampling rate (default 1); values off\n"
            "                       the grid are rounded onto it, with a warning\n"
            "  --set TARGET=VALUE   what-if override, repeatable, applied in order:\n"
            "                         SYMBOL=file.csv  SYMBOL={12: 0.5, 14: 0.5}\n"
            "                         SYMBOL=trace(\"t.trace\", \"step\")   PROB=0.3\n"
            "                         COUNT={5: 1}  DEF=a b c  DEF.loop={5: 1}\n"
            "                         DEF.loop=[0.8]  DEF.alt=0.3,0.7\n"
            "  --measured TRACE STEP\n"
            "                       compare with measured times: STEP is a step name,\n"
            "                       T (the service's own time), C (client latency) or\n"
            "                       glue (T minus the request's steps)\n"
            "  --max-mean-dev PCT   exit 1 when a predicted mean deviates from the\n"
            "                       measured one by more than PCT percent\n"
            "  --truncate EPS       tail mass cut after each operation (default 1e-12)\n"
            "  --title TEXT         name of the scenario in tables and plots\n"
            "  --svg FILE           plot the predicted (and measured) PMFs: the body on a\n"
            "                       linear axis (to the 95%% quantile + 25%%, said on the\n"
            "                       axis), and below it the tail to the 99.9%% quantile\n"
            "                       on a log probability axis\n"
            "  --json               print the results as JSON; a figure that is not a\n"
            "                       finite number (a deviation from a measured 0) is null\n"
            "  --csv                print the (first) predicted PMF as \"value,prob\" CSV\n"
            "  --print              print the model (after --set) and exit\n"
            "  --from-automaton EDGES\n"
            "                       read a service effect automaton (lines 'start S',\n"
            "                       'final S...', 'FROM LABEL TO PROB') and print the\n"
            "                       equivalent SRE model (state elimination)\n\n"
            "Deviations are (predicted - measured) / measured. The KS distance and the\n"
            "chi-square test (Cochran's rule: merged bins of expected count >= 5; the\n"
            "prediction's tail mass is a last bin) compare the PMFs on the grid.\n"
            "Exit status: 0 ok, 1 a --max-mean-dev check failed, 2 bad input.\n");
}

typedef struct sre_opts {
    const char *file, *trace, *step, *svg, *automaton, *title;
    const char *evals[SRE_MAX_EVALS];
    size_t n_evals;
    const char *sets[SRE_MAX_SETS];
    size_t n_sets;
    double width, truncate, max_mean_dev;
    int json, csv, print, has_max;
} sre_opts;

/* What was measured. */
typedef struct sre_measured {
    double *xs;
    size_t n;
    double mean, std, mode;
    proper_pmf pmf;
} sre_measured;

/* One prediction and, when measured, its comparison. */
typedef struct sre_result {
    const char *name;
    proper_pmf pmf;
    double mean, std, mode;
    double dev_mean, dev_std, dev_mode; /* percent */
    double ks;
    proper_chi2_test chi2;
    int chi2_ok;
    char chi2_note[PROPER_ERROR_MESSAGE_MAX];
} sre_result;

static double sre_dev(double predicted, double measured) { return 100.0 * (predicted - measured) / measured; }

/* ---- arguments ---- */

static int sre_parse_args(int argc, char **argv, sre_opts *o) {
    cli_args a;
    memset(o, 0, sizeof *o);
    o->width = 1.0;
    o->truncate = PROPER_SRE_DEFAULT_TRUNCATE_EPS;
    cli_args_init(&a, "sre", argc, argv);
    if (a.help) {
        sre_usage(stdout);
        return -1;
    }
    while (cli_next(&a)) {
        if (cli_flag(&a, "--json")) o->json = 1;
        else if (cli_flag(&a, "--csv")) o->csv = 1;
        else if (cli_flag(&a, "--print")) o->print = 1;
        else if (cli_opt(&a, "--measured")) {
            o->trace = a.value;
            if (cli_opt_next(&a)) o->step = a.value;
        } else if (cli_opt(&a, "--eval")) {
            if (o->n_evals == SRE_MAX_EVALS) return cli_usage_error(&a, "at most %d --eval", SRE_MAX_EVALS);
            o->evals[o->n_evals++] = a.value;
        } else if (cli_opt(&a, "--set")) {
            if (o->n_sets == SRE_MAX_SETS) return cli_usage_error(&a, "at most %d --set", SRE_MAX_SETS);
            o->sets[o->n_sets++] = a.value;
        } else if (cli_opt_double(&a, "--width", "(0,inf)", &o->width)) {
        } else if (cli_opt_double(&a, "--truncate", "[0,1)", &o->truncate)) {
        } else if (cli_opt_double(&a, "--max-mean-dev", "[0,inf)", &o->max_mean_dev)) {
            o->has_max = 1;
        } else if (cli_opt(&a, "--svg")) o->svg = a.value;
        else if (cli_opt(&a, "--title")) o->title = a.value;
        else if (cli_opt(&a, "--from-automaton")) o->automaton = a.value;
        else if (cli_positional(&a) && !o->file) o->file = a.value;
        else if (cli_positional(&a)) return cli_usage_error(&a, "more than one model file ('%s' and '%s')", o->file, a.value);
        else cli_unknown(&a);
    }
    if (a.status) return a.status;
    if (!o->file && !o->automaton) return cli_usage_error(&a, "no model file");
    if (o->file && o->automaton) return cli_usage_error(&a, "give a model file or --from-automaton, not both");
    if (o->json && o->csv) return cli_usage_error(&a, "--json and --csv exclude each other");
    if (!o->title) o->title = o->file;
    return CLI_OK;
}

/* ---- measured data ---- */

/* Source text for --measured TRACE STEP. */
static int sre_measured_spec(const sre_opts *o, char *spec, size_t size) {
    char path[2048];
    size_t k = 0;
    const char *p;
    for (p = o->trace; *p && k + 2 < sizeof path; p++) {
        if (*p == '"' || *p == '\\') path[k++] = '\\';
        path[k++] = *p;
    }
    path[k] = '\0';
    if (strcmp(o->step, "T") == 0) snprintf(spec, size, "service(\"%s\")", path);
    else if (strcmp(o->step, "C") == 0) snprintf(spec, size, "client(\"%s\")", path);
    else if (strcmp(o->step, "glue") == 0) snprintf(spec, size, "glue(\"%s\")", path);
    else if (strchr(o->step, '"') || strchr(o->step, '\\')) return cli_fail("bad step name '%s'", o->step);
    else snprintf(spec, size, "trace(\"%s\", \"%s\")", path, o->step);
    return CLI_OK;
}

static int sre_load_measured(const sre_opts *o, sre_measured *m) {
    char spec[4200];
    proper_error err;
    int rc;
    if ((rc = sre_measured_spec(o, spec, sizeof spec))) return rc;
    if (proper_sre_samples(spec, &m->xs, &m->n, &err)) {
        if (!err.file[0]) err.line = err.col = 0; /* a position in our own spec text means nothing to the user */
        return cli_report(&err);
    }
    if (m->n < 2) return cli_fail("%s: only %lu measured value(s) of %s", o->trace, (unsigned long)m->n, o->step);
    if (proper_stats_mean_sd(m->xs, m->n, &m->mean, &m->std, &err)) return cli_report(&err);
    if (proper_pmf_from_samples(&m->pmf, m->xs, m->n, o->width, &err)) return cli_report(&err);
    m->mode = proper_pmf_mode(&m->pmf);
    return CLI_OK;
}

/* Both PMFs on one grid: arrays of n + 1 entries, the last the tail. */
static int sre_align(const proper_pmf *a, const proper_pmf *b, double **pa, double **pb, size_t *n) {
    double lo = a->offset < b->offset ? a->offset : b->offset, w = a->width;
    double hi_a = a->offset + (double)a->n * w, hi_b = b->offset + (double)b->n * w;
    double hi = hi_a > hi_b ? hi_a : hi_b;
    size_t len = (size_t)floor((hi - lo) / w + 0.5), i, sa = (size_t)floor((a->offset - lo) / w + 0.5),
           sb = (size_t)floor((b->offset - lo) / w + 0.5);
    *pa = (double *)calloc(len + 1, sizeof(double));
    *pb = (double *)calloc(len + 1, sizeof(double));
    if (!*pa || !*pb) return -1;
    for (i = 0; i < a->n && sa + i < len; i++) (*pa)[sa + i] = a->p[i];
    for (i = 0; i < b->n && sb + i < len; i++) (*pb)[sb + i] = b->p[i];
    (*pa)[len] = a->tail;
    (*pb)[len] = b->tail;
    *n = len + 1;
    return 0;
}

static int sre_compare(sre_result *r, const sre_measured *m) {
    double *meas = NULL, *pred = NULL;
    size_t n, i;
    proper_error err;
    r->dev_mean = sre_dev(r->mean, m->mean);
    r->dev_std = sre_dev(r->std, m->std);
    r->dev_mode = sre_dev(r->mode, m->mode);
    if (sre_align(&m->pmf, &r->pmf, &meas, &pred, &n)) {
        free(meas);
        free(pred);
        return cli_fail("out of memory");
    }
    /* KS over the grid: the prediction's tail lies beyond its last bin */
    if (proper_stats_ks_distance_pmf(meas, pred, n - 1, &r->ks, &err)) {
        free(meas);
        free(pred);
        return cli_report(&err);
    }
    for (i = 0; i < n; i++) meas[i] *= (double)m->n; /* counts */
    r->chi2_ok = proper_stats_chi2_gof(meas, pred, n, 0, PROPER_STATS_CHI2_MIN_EXPECTED, &r->chi2, &err) == PROPER_OK;
    if (!r->chi2_ok) snprintf(r->chi2_note, sizeof r->chi2_note, "%s", err.message);
    free(meas);
    free(pred);
    return CLI_OK;
}

/* ---- output ---- */

static void sre_json_measured(cli_json *j, const sre_opts *o, const sre_measured *m) {
    cli_json_object_begin(j);
    cli_json_key_string(j, "trace", o->trace);
    cli_json_key_string(j, "step", o->step);
    cli_json_key_uint(j, "n", m->n);
    cli_json_key_number(j, "mean", m->mean);
    cli_json_key_number(j, "std", m->std);
    cli_json_key_number(j, "mode", m->mode);
    cli_json_object_end(j);
}

static void sre_json_comparison(cli_json *j, const sre_result *r) {
    cli_json_key_number(j, "dev_mean_pct", r->dev_mean);
    cli_json_key_number(j, "dev_std_pct", r->dev_std);
    cli_json_key_number(j, "dev_mode_pct", r->dev_mode);
    cli_json_key_number(j, "ks", r->ks);
    if (!r->chi2_ok) return;
    cli_json_key(j, "chi2");
    cli_json_object_begin(j);
    cli_json_key_number(j, "statistic", r->chi2.statistic);
    cli_json_key_number(j, "df", r->chi2.df);
    cli_json_key_number(j, "p_value", r->chi2.p_value);
    cli_json_key_uint(j, "bins", r->chi2.bins);
    cli_json_object_end(j);
}

static void sre_json_prediction(cli_json *j, const sre_result *r, int measured) {
    cli_json_object_begin(j);
    cli_json_key_string(j, "name", r->name);
    cli_json_key_uint(j, "bins", r->pmf.n);
    cli_json_key_number(j, "tail", r->pmf.tail);
    cli_json_key_number(j, "mean", r->mean);
    cli_json_key_number(j, "std", r->std);
    cli_json_key_number(j, "mode", r->mode);
    cli_json_key_number(j, "p50", proper_pmf_quantile(&r->pmf, 0.5));
    cli_json_key_number(j, "p99", proper_pmf_quantile(&r->pmf, 0.99));
    if (measured) sre_json_comparison(j, r);
    cli_json_object_end(j);
}

static void sre_print_json(const sre_opts *o, const sre_result *rs, size_t k, const sre_measured *m) {
    cli_json j;
    size_t i;
    cli_json_init(&j, stdout);
    cli_json_object_begin(&j);
    cli_json_key_string(&j, "model", o->file);
    cli_json_key_string(&j, "title", o->title);
    cli_json_key_number(&j, "width", o->width);
    if (m->n) {
        cli_json_key(&j, "measured");
        sre_json_measured(&j, o, m);
    }
    cli_json_key(&j, "predictions");
    cli_json_array_begin(&j);
    for (i = 0; i < k; i++) sre_json_prediction(&j, &rs[i], m->n > 0);
    cli_json_array_end(&j);
    cli_json_object_end(&j);
}

static void sre_print_table(const sre_opts *o, const sre_result *rs, size_t k, const sre_measured *m) {
    size_t i;
    printf("%s: width %g us", o->title, o->width);
    if (m->n) printf(", %lu measured (%s %s)", (unsigned long)m->n, o->trace, o->step);
    printf("\n%-22s", "");
    if (m->n) printf(" %12s", "measured");
    for (i = 0; i < k; i++) printf(" %14s", rs[i].name);
    if (m->n)
        for (i = 0; i < k; i++) printf(" %11s", "deviation");
    printf("\n");
#define SRE_ROW(label, mv, field, dev)                                   \
    printf("%-22s", label);                                             \
    if (m->n) printf(" %12.4f", mv);                                    \
    for (i = 0; i < k; i++) printf(" %14.4f", rs[i].field);             \
    if (m->n)                                                           \
        for (i = 0; i < k; i++) printf(" %10.2f%%", rs[i].dev);         \
    printf("\n");
    SRE_ROW("mean (us)", m->mean, mean, dev_mean)
    SRE_ROW("std (us)", m->std, std, dev_std)
    SRE_ROW("mode (us)", m->mode, mode, dev_mode)
#undef SRE_ROW
    printf("%-22s", "p99 (us)");
    if (m->n) printf(" %12.4f", proper_pmf_quantile(&m->pmf, 0.99));
    for (i = 0; i < k; i++) printf(" %14.4f", proper_pmf_quantile(&rs[i].pmf, 0.99));
    printf("\n%-22s", "bins");
    if (m->n) printf(" %12lu", (unsigned long)m->pmf.n);
    for (i = 0; i < k; i++) printf(" %14lu", (unsigned long)rs[i].pmf.n);
    printf("\n%-22s", "tail mass");
    if (m->n) printf(" %12s", "");
    for (i = 0; i < k; i++) printf(" %14.1e", rs[i].pmf.tail);
    printf("\n");
    if (!m->n) return;
    printf("%-22s %12s", "KS distance", "");
    for (i = 0; i < k; i++) printf(" %14.4f", rs[i].ks);
    printf("\n%-22s %12s", "chi-square X2 / df", "");
    for (i = 0; i < k; i++) {
        char cell[40];
        if (rs[i].chi2_ok) snprintf(cell, sizeof cell, "%.1f / %.0f", rs[i].chi2.statistic, rs[i].chi2.df);
        else snprintf(cell, sizeof cell, "n/a");
        printf(" %14s", cell);
    }
    printf("\n%-22s %12s", "chi-square p-value", "");
    for (i = 0; i < k; i++) {
        char cell[40];
        if (!rs[i].chi2_ok) printf(" %14s", "n/a");
        else printf(" %14s", proper_stats_format_pvalue(rs[i].chi2.p_value, 3, cell, sizeof cell));
    }
    printf("\n");
    for (i = 0; i < k; i++)
        if (!rs[i].chi2_ok) printf("(%s: chi-square not computed: %s)\n", rs[i].name, rs[i].chi2_note);
}

/* Staircase of a PMF scaled to a density per us, so PMFs of different
 * widths would be comparable; points outside [lo, hi] are dropped. */
static int sre_curve(const proper_pmf *x, double lo, double hi, double **xs, double **ys, size_t *n) {
    size_t i, k = 0;
    *xs = (double *)malloc((2 * x->n + 2) * sizeof(double));
    *ys = (double *)malloc((2 * x->n + 2) * sizeof(double));
    if (!*xs || !*ys) return -1;
    for (i = 0; i < x->n; i++) {
        double v = proper_pmf_value(x, i), left = v - 0.5 * x->width;
        if (v < lo || v > hi) continue;
        (*xs)[k] = left;
        (*ys)[k++] = x->p[i];
    }
    if (k > 0) {
        (*xs)[k] = (*xs)[k - 1] + x->width;
        (*ys)[k] = (*ys)[k - 1];
        k++;
    }
    *n = k;
    return 0;
}

/* The plotted range: from the smallest SRE_PLOT_LO_Q quantile to the
 * largest q quantile over the measured and predicted PMFs. */
static void sre_plot_range(const sre_result *rs, size_t k, const sre_measured *m, double q, double *lo, double *hi) {
    size_t i;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (i = 0; i <= k; i++) {
        const proper_pmf *x = i < k ? &rs[i].pmf : m->n ? &m->pmf : NULL;
        double a, b;
        if (!x) continue;
        a = proper_pmf_quantile(x, SRE_PLOT_LO_Q);
        b = proper_pmf_quantile(x, q);
        if (a < *lo) *lo = a;
        if (isfinite(b) && b > *hi) *hi = b;
    }
}

/* The curves of the measured and predicted PMFs within [lo, hi]; returns
 * the number of series, or 0 when out of memory. */
static size_t sre_series(const sre_result *rs, size_t k, const sre_measured *m, double lo, double hi, svg_series *series,
                         double **xs, double **ys) {
    size_t i, ns = 0;
    if (m->n) {
        if (sre_curve(&m->pmf, lo, hi, &xs[ns], &ys[ns], &series[ns].n)) return 0;
        svg_series_init(&series[ns], "measured", xs[ns], ys[ns], series[ns].n, SVG_STEP);
        ns++;
    }
    for (i = 0; i < k; i++) {
        if (sre_curve(&rs[i].pmf, lo, hi, &xs[ns], &ys[ns], &series[ns].n)) return 0;
        svg_series_init(&series[ns], rs[i].name, xs[ns], ys[ns], series[ns].n, SVG_STEP);
        ns++;
    }
    return ns;
}

static int sre_write_svg(const sre_opts *o, const sre_result *rs, size_t k, const sre_measured *m) {
    enum { N = SRE_MAX_EVALS + 1 };
    svg_plot body, tail;
    svg_series body_series[N], tail_series[N];
    svg_panel panels[2];
    double *xs[2 * N], *ys[2 * N], lo, hi, q_hi, tail_hi;
    size_t i, ns_body, ns_tail;
    char title[512], body_label[256], tail_label[256];
    int rc = CLI_OK;
    memset(xs, 0, sizeof xs);
    memset(ys, 0, sizeof ys);
    sre_plot_range(rs, k, m, SRE_PLOT_HI_Q, &lo, &q_hi);
    if (!(q_hi > lo)) q_hi = lo + o->width;
    hi = q_hi + SRE_PLOT_MARGIN * (q_hi - lo);
    sre_plot_range(rs, k, m, SRE_PLOT_TAIL_Q, &lo, &tail_hi);
    if (!(tail_hi > hi)) tail_hi = hi;
    snprintf(title, sizeof title, "%s: predicted%s PMF (width %g us)", o->title, m->n ? " vs measured" : "", o->width);
    snprintf(body_label, sizeof body_label,
             "time (us); axis ends at %.4g us = %g%% quantile + %g%% (tail in the lower panel)", hi,
             100 * SRE_PLOT_HI_Q, 100 * SRE_PLOT_MARGIN);
    snprintf(tail_label, sizeof tail_label, "time (us), to the %g%% quantile (%.4g us); log probability axis",
             100 * SRE_PLOT_TAIL_Q, tail_hi);
    svg_plot_init(&body);
    body.title = title;
    body.xlabel = body_label;
    body.ylabel = "probability";
    svg_plot_init(&tail);
    tail.title = "tail";
    tail.xlabel = tail_label;
    tail.ylabel = "probability (log)";
    tail.y_log = 1;
    /* the floor: a tenth of one measured request (a prediction's far tail
     * would otherwise stretch the axis over many empty decades) */
    tail.ymin = m->n ? 0.1 / (double)m->n : SRE_PLOT_LOG_FLOOR;
    tail.height = 360;
    ns_body = sre_series(rs, k, m, lo, hi, body_series, xs, ys);
    ns_tail = sre_series(rs, k, m, lo, tail_hi, tail_series, xs + N, ys + N);
    if (!ns_body || !ns_tail) rc = cli_fail("out of memory");
    panels[0].plot = &body;
    panels[0].series = body_series;
    panels[0].n_series = ns_body;
    panels[1].plot = &tail;
    panels[1].series = tail_series;
    panels[1].n_series = ns_tail;
    if (rc == CLI_OK && svg_write_panels_file(o->svg, panels, 2) != 0) rc = cli_fail("%s: cannot write the plot", o->svg);
    for (i = 0; i < 2 * N; i++) {
        free(xs[i]);
        free(ys[i]);
    }
    return rc;
}

/* ---- commands ---- */

static int sre_from_automaton(const sre_opts *o) {
    proper_sre s;
    proper_error err;
    char *data;
    size_t len;
    int rc;
    if (proper_read_file(o->automaton, &data, &len, &err)) return cli_report(&err);
    proper_sre_init(&s);
    rc = proper_sre_from_automaton(&s, data, len, o->automaton, &err);
    PROPER_FREE(data);
    if (rc) return cli_report(&err);
    rc = proper_sre_write(&s, stdout, &err);
    proper_sre_free(&s);
    return rc ? cli_report(&err) : CLI_OK;
}

static int sre_run(const sre_opts *o, proper_sre *s) {
    proper_sre_opts opt = proper_sre_opts_default();
    proper_sre_eval_info info;
    proper_error err;
    proper_pmf outs[SRE_MAX_EVALS];
    sre_result rs[SRE_MAX_EVALS];
    sre_measured m;
    const char *names[SRE_MAX_EVALS];
    size_t k = o->n_evals ? o->n_evals : 1, i;
    int rc = CLI_OK;
    memset(&m, 0, sizeof m);
    memset(rs, 0, sizeof rs);
    proper_pmf_init(&m.pmf);
    for (i = 0; i < k; i++) names[i] = o->n_evals ? o->evals[i] : proper_sre_main(s);
    if (!names[0]) return cli_fail("%s: the model has no 'def' to evaluate", o->file);
    opt.width = o->width;
    opt.truncate_eps = o->truncate;
    if (proper_sre_eval_many(s, names, k, &opt, outs, &info, &err)) return cli_report(&err);
    if (info.rounded && info.rounded_binding < s->n_bindings)
        /* values off the grid move onto it: say so, with the largest effect */
        fprintf(stderr,
                "proper sre: warning: %lu symbol(s) have values off the %g us grid and were rounded onto it "
                "(the mean of '%s' moves by %.3g us); a finer --width avoids this\n",
                (unsigned long)info.rounded, o->width, s->bindings[info.rounded_binding].name, info.rounding_shift);
    for (i = 0; i < k; i++) {
        rs[i].name = names[i];
        rs[i].pmf = outs[i];
        rs[i].mean = proper_pmf_mean(&outs[i]);
        rs[i].std = proper_pmf_std(&outs[i]);
        rs[i].mode = proper_pmf_mode(&outs[i]);
    }
    if (o->trace) rc = sre_load_measured(o, &m);
    for (i = 0; i < k && rc == CLI_OK && m.n; i++) rc = sre_compare(&rs[i], &m);
    if (rc == CLI_OK) {
        if (o->csv) {
            if (proper_pmf_write_csv(&rs[0].pmf, stdout, &err)) rc = cli_report(&err);
        } else if (o->json) {
            sre_print_json(o, rs, k, &m);
        } else {
            sre_print_table(o, rs, k, &m);
        }
    }
    if (rc == CLI_OK && o->svg) rc = sre_write_svg(o, rs, k, &m);
    if (rc == CLI_OK && o->has_max && m.n)
        for (i = 0; i < k; i++)
            if (fabs(rs[i].dev_mean) > o->max_mean_dev) {
                fprintf(stderr, "proper: %s: predicted mean of %s deviates by %.2f%% (more than %g%%)\n", o->title,
                        rs[i].name, rs[i].dev_mean, o->max_mean_dev);
                rc = CLI_CHECK_FAILED;
            }
    for (i = 0; i < k; i++) proper_pmf_free(&rs[i].pmf);
    proper_pmf_free(&m.pmf);
    PROPER_FREE(m.xs);
    return rc;
}

int cmd_sre(int argc, char **argv) {
    sre_opts o;
    proper_sre s;
    proper_error err;
    size_t i;
    int rc;
    if ((rc = sre_parse_args(argc, argv, &o))) return rc < 0 ? CLI_OK : rc;
    if (o.automaton) return sre_from_automaton(&o);
    proper_sre_init(&s);
    if (proper_sre_read(&s, o.file, &err)) return cli_report(&err);
    for (i = 0; i < o.n_sets; i++)
        if (proper_sre_set(&s, o.sets[i], &err)) {
            proper_sre_free(&s);
            return cli_report(&err);
        }
    if (o.print) {
        rc = proper_sre_write(&s, stdout, &err) ? cli_report(&err) : CLI_OK;
    } else {
        rc = sre_run(&o, &s);
    }
    proper_sre_free(&s);
    return rc;
}
