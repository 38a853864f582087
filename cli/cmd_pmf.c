/* proper pmf — statistics, convolution and loops of PMFs read from
 * "value,prob" CSV files, with an optional SVG plot. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/pmf.h"
#include "cli.h"
#include "json.h"
#include "svg.h"

static void pmf_usage(FILE *out) {
    fprintf(out,
            "usage: proper pmf stats FILE [options]\n"
            "       proper pmf conv A B [options]\n"
            "       proper pmf loop BODY ITERS [options]\n"
            "       proper pmf loop BODY --reenter P [--precision E] [options]\n\n"
            "Discrete distributions (PMFs) on a grid of values, read from CSV files of\n"
            "\"value,prob\" rows (an optional header line; '#' comments; a row \"inf,P\"\n"
            "is mass beyond the grid, the tail).\n\n"
            "  stats FILE        mean, std, mode, quantiles and tail of one PMF\n"
            "  conv A B          the distribution of A + B (independent): a sequence\n"
            "  loop BODY ITERS   the sum of a random number of independent BODY copies;\n"
            "                    ITERS is a CSV of \"count,prob\" rows (count >= 0)\n"
            "  loop BODY --reenter P\n"
            "                    geometric count: P(i iterations) = (1-P) P^i; the grid\n"
            "                    is cut where the remaining mass is below --precision\n"
            "                    (default %g), which goes to the tail\n\n"
            "options:\n"
            "  --width W         bin width for reading the files (default: inferred from\n"
            "                    the spacing of each file's values; files with different\n"
            "                    inferred widths need --width)\n"
            "  --truncate EPS    move trailing result bins of total mass <= EPS to the tail\n"
            "  --svg FILE        plot the PMFs (or CDFs with --cdf) as an SVG picture\n"
            "  --cdf             plot cumulative distributions instead of PMFs\n"
            "  --json            print statistics as JSON; a quantile that lies in the\n"
            "                    tail is null there\n"
            "  --csv             print the resulting PMF as \"value,prob\" CSV\n\n"
            "Statistics describe the grid part (conditioned on it); a quantile that lies in\n"
            "the tail prints as inf (null in JSON). Exit status: 0 ok, 2 bad input.\n",
            CLI_DEFAULT_PRECISION);
}

typedef struct pmf_opts {
    const char *svg;
    double width, truncate, reenter, precision;
    int json, csv, cdf, has_reenter;
} pmf_opts;

static const double pmf_quantiles[] = {0.5, 0.9, 0.95, 0.99};
#define PMF_N_QUANTILES (sizeof pmf_quantiles / sizeof pmf_quantiles[0])

/* ---- output ---- */

static void print_stats_json(cli_json *j, const char *name, const proper_pmf *x) {
    size_t q;
    cli_json_object_begin(j);
    cli_json_key_string(j, "name", name);
    cli_json_key_uint(j, "bins", x->n);
    cli_json_key_number(j, "offset", x->offset);
    cli_json_key_number(j, "width", x->width);
    cli_json_key_number(j, "tail", x->tail);
    cli_json_key_number(j, "mean", proper_pmf_mean(x));
    cli_json_key_number(j, "std", proper_pmf_std(x));
    cli_json_key_number(j, "variance", proper_pmf_variance(x));
    cli_json_key_number(j, "mode", proper_pmf_mode(x));
    cli_json_key_number(j, "min", proper_pmf_quantile(x, 0.0));
    cli_json_key(j, "quantiles");
    cli_json_object_begin(j);
    for (q = 0; q < PMF_N_QUANTILES; q++) {
        char key[32];
        snprintf(key, sizeof key, "%g", pmf_quantiles[q]);
        cli_json_key_number(j, key, proper_pmf_quantile(x, pmf_quantiles[q]));
    }
    cli_json_object_end(j);
    cli_json_object_end(j);
}

static void print_table_header(int name_width) {
    size_t q;
    printf("%-*s %9s %12s %12s %12s", name_width, "pmf", "bins", "mean", "std", "mode");
    for (q = 0; q < PMF_N_QUANTILES; q++) {
        char label[16];
        snprintf(label, sizeof label, "p%g", pmf_quantiles[q] * 100);
        printf(" %12s", label);
    }
    printf(" %10s\n", "tail");
}

static void print_table_row(int name_width, const char *name, const proper_pmf *x) {
    size_t q;
    printf("%-*s %9zu %12.6g %12.6g %12.6g", name_width, name, x->n, proper_pmf_mean(x), proper_pmf_std(x), proper_pmf_mode(x));
    for (q = 0; q < PMF_N_QUANTILES; q++) printf(" %12.6g", proper_pmf_quantile(x, pmf_quantiles[q]));
    printf(" %10.3g\n", x->tail);
}

/* ---- SVG ---- */

/* Staircase points of a PMF (bars centred on the grid values) or its CDF. */
static int pmf_curve(const proper_pmf *x, int cdf, double **xs, double **ys, size_t *n) {
    size_t i, k = 0;
    double cum = 0.0, half = cdf ? 0.0 : 0.5 * x->width;
    *xs = (double *)malloc((x->n + 2) * sizeof(double));
    *ys = (double *)malloc((x->n + 2) * sizeof(double));
    if (!*xs || !*ys) return -1;
    (*xs)[k] = proper_pmf_value(x, 0) - half;
    (*ys)[k++] = 0.0;
    for (i = 0; i < x->n; i++) {
        cum += x->p[i];
        (*xs)[k] = proper_pmf_value(x, i) - half;
        (*ys)[k++] = cdf ? cum : x->p[i];
    }
    (*xs)[k] = proper_pmf_value(x, x->n - 1) + (cdf ? x->width : half);
    (*ys)[k++] = cdf ? cum : 0.0;
    *n = k;
    return 0;
}

static int write_svg(const pmf_opts *o, const char *title, const proper_pmf *const *pmfs, const char *const *names,
                     size_t k) {
    svg_plot plot;
    svg_series series[3];
    double *xs[3] = {NULL, NULL, NULL}, *ys[3] = {NULL, NULL, NULL};
    char ylabel[96];
    size_t i;
    int rc = 0;
    svg_plot_init(&plot);
    plot.title = title;
    plot.xlabel = "value";
    if (o->cdf) snprintf(ylabel, sizeof ylabel, "P(X <= value)");
    else snprintf(ylabel, sizeof ylabel, "probability per bin (width %g)", pmfs[0]->width);
    plot.ylabel = ylabel;
    for (i = 0; i < k && rc == 0; i++) {
        size_t n;
        if (pmf_curve(pmfs[i], o->cdf, &xs[i], &ys[i], &n)) rc = -1;
        else svg_series_init(&series[i], names[i], xs[i], ys[i], n, SVG_STEP);
    }
    if (rc == 0 && svg_write_file(o->svg, &plot, series, k) != 0)
        rc = cli_fail("%s: cannot write the SVG: %s", o->svg, strerror(errno));
    else if (rc == -1)
        rc = cli_fail("out of memory drawing the SVG");
    for (i = 0; i < k; i++) {
        free(xs[i]);
        free(ys[i]);
    }
    return rc ? CLI_BAD_INPUT : CLI_OK;
}

/* ---- commands ---- */

/* Print the PMFs (the last one is the result) in the chosen format. */
static int report(const pmf_opts *o, const char *title, const proper_pmf *const *pmfs, const char *const *names,
                  size_t k) {
    size_t i;
    proper_error err;
    if (o->csv) {
        if (proper_pmf_write_csv(pmfs[k - 1], stdout, &err)) return cli_report(&err);
    } else if (o->json) {
        cli_json j;
        cli_json_init(&j, stdout);
        if (k == 1) {
            print_stats_json(&j, names[0], pmfs[0]);
        } else {
            cli_json_object_begin(&j);
            cli_json_key(&j, "inputs");
            cli_json_array_begin(&j);
            for (i = 0; i + 1 < k; i++) print_stats_json(&j, names[i], pmfs[i]);
            cli_json_array_end(&j);
            cli_json_key(&j, "result");
            print_stats_json(&j, names[k - 1], pmfs[k - 1]);
            cli_json_object_end(&j);
        }
    } else {
        int name_width = 3;
        for (i = 0; i < k; i++)
            if ((int)strlen(names[i]) > name_width) name_width = (int)strlen(names[i]);
        print_table_header(name_width);
        for (i = 0; i < k; i++) print_table_row(name_width, names[i], pmfs[i]);
        printf("(width %g; statistics of the grid part; tail = mass beyond the grid)\n", pmfs[k - 1]->width);
    }
    if (o->svg) return write_svg(o, title, pmfs, names, k);
    return CLI_OK;
}

static int read_pmf(proper_pmf *x, const char *path, const pmf_opts *o) {
    proper_error err;
    if (proper_pmf_read_csv(x, path, o->width, &err)) return cli_report(&err);
    return CLI_OK;
}

static int cmd_stats(const pmf_opts *o, const char *const *files) {
    proper_pmf x;
    const proper_pmf *pmfs[1];
    const char *names[1];
    int rc;
    proper_pmf_init(&x);
    if ((rc = read_pmf(&x, files[0], o)) != CLI_OK) return rc;
    if (o->truncate > 0) proper_pmf_truncate(&x, o->truncate);
    pmfs[0] = &x;
    names[0] = files[0];
    rc = report(o, files[0], pmfs, names, 1);
    proper_pmf_free(&x);
    return rc;
}

static int cmd_conv(const pmf_opts *o, const char *const *files) {
    proper_pmf a, b, c;
    const proper_pmf *pmfs[3];
    const char *names[3];
    char result_name[512], title[600];
    proper_error err;
    int rc;
    proper_pmf_init(&a);
    proper_pmf_init(&b);
    proper_pmf_init(&c);
    rc = read_pmf(&a, files[0], o);
    if (rc == CLI_OK) rc = read_pmf(&b, files[1], o);
    if (rc == CLI_OK && fabs(a.width - b.width) > PROPER_PMF_WIDTH_RTOL * fmax(a.width, b.width))
        rc = cli_fail("%s has bin width %g and %s has %g: give a common --width", files[0], a.width, files[1], b.width);
    if (rc == CLI_OK && proper_pmf_convolve(&c, &a, &b, &err)) rc = cli_report(&err);
    if (rc == CLI_OK) {
        if (o->truncate > 0) proper_pmf_truncate(&c, o->truncate);
        snprintf(result_name, sizeof result_name, "%s + %s", files[0], files[1]);
        snprintf(title, sizeof title, "%s (sum of independent values)", result_name);
        pmfs[0] = &a;
        pmfs[1] = &b;
        pmfs[2] = &c;
        names[0] = files[0];
        names[1] = files[1];
        names[2] = result_name;
        rc = report(o, title, pmfs, names, 3);
    }
    proper_pmf_free(&a);
    proper_pmf_free(&b);
    proper_pmf_free(&c);
    return rc;
}

static int cmd_loop(const pmf_opts *o, const char *const *files) {
    proper_pmf body, r;
    const proper_pmf *pmfs[2];
    const char *names[2];
    char result_name[512], title[600];
    double *iters = NULL;
    size_t n_iters = 0;
    proper_error err;
    int rc;
    proper_pmf_init(&body);
    proper_pmf_init(&r);
    rc = read_pmf(&body, files[0], o);
    if (rc == CLI_OK && !o->has_reenter && proper_pmf_read_counts(files[1], &iters, &n_iters, &err))
        rc = cli_report(&err);
    if (rc == CLI_OK) {
        int status = o->has_reenter ? proper_pmf_markov_loop(&r, &body, o->reenter, o->precision, &err)
                                    : proper_pmf_loop(&r, &body, iters, n_iters, &err);
        if (status) rc = cli_report(&err);
    }
    if (rc == CLI_OK) {
        if (o->truncate > 0) proper_pmf_truncate(&r, o->truncate);
        if (o->has_reenter) snprintf(result_name, sizeof result_name, "loop(%s, p=%g)", files[0], o->reenter);
        else snprintf(result_name, sizeof result_name, "loop(%s, %s)", files[0], files[1]);
        snprintf(title, sizeof title, "%s", result_name);
        pmfs[0] = &body;
        pmfs[1] = &r;
        names[0] = files[0];
        names[1] = result_name;
        rc = report(o, title, pmfs, names, 2);
    }
    PROPER_FREE(iters);
    proper_pmf_free(&body);
    proper_pmf_free(&r);
    return rc;
}

/* The action's operands: how many files it takes and how they are written. */
static int pmf_check_files(cli_args *a, const pmf_opts *o, const char *action, int n_files) {
    int want;
    const char *operands;
    if (strcmp(action, "stats") == 0) want = 1, operands = "one FILE";
    else if (strcmp(action, "conv") == 0) want = 2, operands = "two files A B";
    else if (strcmp(action, "loop") == 0 && o->has_reenter) want = 1, operands = "BODY (with --reenter P)";
    else if (strcmp(action, "loop") == 0) want = 2, operands = "BODY ITERS, or BODY --reenter P";
    else return cli_usage_error(a, "unknown action '%s' (stats, conv or loop)", action);
    if (n_files != want) return cli_usage_error(a, "%s: expected %s", action, operands);
    return CLI_OK;
}

/* Options into o, the action and file names into files[0..*n) (files has
 * room for argc entries). */
static int pmf_parse_args(int argc, char **argv, pmf_opts *o, const char **files, int *n) {
    cli_args a;
    memset(o, 0, sizeof *o);
    o->precision = CLI_DEFAULT_PRECISION;
    *n = 0;
    cli_args_init(&a, "pmf", argc, argv);
    if (a.help) {
        pmf_usage(stdout);
        return -1;
    }
    while (cli_next(&a)) {
        if (cli_flag(&a, "--json")) o->json = 1;
        else if (cli_flag(&a, "--csv")) o->csv = 1;
        else if (cli_flag(&a, "--cdf")) o->cdf = 1;
        else if (cli_opt(&a, "--svg")) o->svg = a.value;
        else if (cli_opt_double(&a, "--width", "(0,inf)", &o->width)) {
        } else if (cli_opt_double(&a, "--truncate", "[0,1)", &o->truncate)) {
        } else if (cli_opt_double(&a, "--precision", "(0,1)", &o->precision)) {
        } else if (cli_opt_double(&a, "--reenter", NULL, &o->reenter)) {
            o->has_reenter = 1;
        } else if (cli_positional(&a)) {
            files[(*n)++] = a.value;
        } else {
            cli_unknown(&a);
        }
    }
    if (a.status) return a.status;
    if (*n == 0) return cli_usage_error(&a, "expected an action: stats, conv or loop");
    if (o->json && o->csv) return cli_usage_error(&a, "--json and --csv exclude each other");
    return pmf_check_files(&a, o, files[0], *n - 1);
}

int cmd_pmf(int argc, char **argv) {
    pmf_opts o;
    const char **args;
    int n_args, rc;
    args = (const char **)PROPER_MALLOC((size_t)argc * sizeof *args);
    if (!args) return cli_fail("out of memory");
    rc = pmf_parse_args(argc, argv, &o, args, &n_args);
    if (rc) {
        PROPER_FREE(args);
        return rc < 0 ? CLI_OK : rc;
    }
    if (strcmp(args[0], "stats") == 0) rc = cmd_stats(&o, args + 1);
    else if (strcmp(args[0], "conv") == 0) rc = cmd_conv(&o, args + 1);
    else rc = cmd_loop(&o, args + 1);
    PROPER_FREE(args);
    return rc;
}
