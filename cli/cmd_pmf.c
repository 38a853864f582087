/* proper pmf — statistics, convolution and loops of PMFs read from
 * "value,prob" CSV files, with an optional SVG plot. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/pmf.h"
#include "cli.h"
#include "svg.h"

static void pmf_usage(FILE *out) {
    fprintf(out,
            "usage: proper pmf stats FILE [options]\n"
            "       proper pmf conv A B [options]\n"
            "       proper pmf loop BODY ITERS [options]\n"
            "       proper pmf loop BODY --reenter P [--eps E] [options]\n\n"
            "Discrete distributions (PMFs) on a grid of values, read from CSV files of\n"
            "\"value,prob\" rows (an optional header line; '#' comments; a row \"inf,P\"\n"
            "is mass beyond the grid, the tail).\n\n"
            "  stats FILE        mean, std, mode, quantiles and tail of one PMF\n"
            "  conv A B          the distribution of A + B (independent): a sequence\n"
            "  loop BODY ITERS   the sum of a random number of independent BODY copies;\n"
            "                    ITERS is a CSV of \"count,prob\" rows (count >= 0)\n"
            "  loop BODY --reenter P\n"
            "                    geometric count: P(i iterations) = (1-P) P^i; the grid\n"
            "                    is cut where the remaining mass is below --eps (default\n"
            "                    1e-12), which goes to the tail\n\n"
            "options:\n"
            "  --width W         bin width for reading the files (default: inferred from\n"
            "                    the spacing of each file's values; files with different\n"
            "                    inferred widths need --width)\n"
            "  --truncate EPS    move trailing result bins of total mass <= EPS to the tail\n"
            "  --svg FILE        plot the PMFs (or CDFs with --cdf) as an SVG picture\n"
            "  --cdf             plot cumulative distributions instead of PMFs\n"
            "  --json            print statistics as JSON\n"
            "  --csv             print the resulting PMF as \"value,prob\" CSV\n\n"
            "Statistics describe the grid part (conditioned on it); a quantile that lies in\n"
            "the tail prints as inf. Exit status: 0 ok, 2 bad input.\n");
}

typedef struct pmf_opts {
    const char *svg;
    double width, truncate, reenter, eps;
    int json, csv, cdf, has_reenter;
} pmf_opts;

static const double pmf_quantiles[] = {0.5, 0.9, 0.95, 0.99};
#define PMF_N_QUANTILES (sizeof pmf_quantiles / sizeof pmf_quantiles[0])

/* ---- output ---- */

static void print_number_json(double v) {
    if (isfinite(v)) printf("%.17g", v);
    else if (isinf(v)) printf(v > 0 ? "\"inf\"" : "\"-inf\"");
    else printf("null");
}

static void print_stats_json(const char *name, const proper_pmf *x) {
    size_t q;
    printf("{\"name\": \"");
    for (; *name; name++) {
        if (*name == '"' || *name == '\\') putchar('\\');
        if ((unsigned char)*name >= 0x20) putchar(*name);
    }
    printf("\", \"bins\": %zu, \"offset\": ", x->n);
    print_number_json(x->offset);
    printf(", \"width\": ");
    print_number_json(x->width);
    printf(", \"tail\": ");
    print_number_json(x->tail);
    printf(", \"mean\": ");
    print_number_json(proper_pmf_mean(x));
    printf(", \"std\": ");
    print_number_json(proper_pmf_std(x));
    printf(", \"variance\": ");
    print_number_json(proper_pmf_variance(x));
    printf(", \"mode\": ");
    print_number_json(proper_pmf_mode(x));
    printf(", \"min\": ");
    print_number_json(proper_pmf_quantile(x, 0.0));
    printf(", \"quantiles\": {");
    for (q = 0; q < PMF_N_QUANTILES; q++) {
        printf("%s\"%g\": ", q ? ", " : "", pmf_quantiles[q]);
        print_number_json(proper_pmf_quantile(x, pmf_quantiles[q]));
    }
    printf("}}");
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
        if (k == 1) {
            print_stats_json(names[0], pmfs[0]);
        } else {
            printf("{\"inputs\": [");
            for (i = 0; i + 1 < k; i++) {
                if (i) printf(", ");
                print_stats_json(names[i], pmfs[i]);
            }
            printf("], \"result\": ");
            print_stats_json(names[k - 1], pmfs[k - 1]);
            printf("}");
        }
        printf("\n");
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

static int cmd_stats(const pmf_opts *o, char **files, int n_files) {
    proper_pmf x;
    const proper_pmf *pmfs[1];
    const char *names[1];
    int rc;
    if (n_files != 1) return cli_fail("pmf stats: expected one FILE (see 'proper pmf --help')");
    proper_pmf_init(&x);
    if ((rc = read_pmf(&x, files[0], o)) != CLI_OK) return rc;
    if (o->truncate > 0) proper_pmf_truncate(&x, o->truncate);
    pmfs[0] = &x;
    names[0] = files[0];
    rc = report(o, files[0], pmfs, names, 1);
    proper_pmf_free(&x);
    return rc;
}

static int cmd_conv(const pmf_opts *o, char **files, int n_files) {
    proper_pmf a, b, c;
    const proper_pmf *pmfs[3];
    const char *names[3];
    char result_name[512], title[600];
    proper_error err;
    int rc;
    if (n_files != 2) return cli_fail("pmf conv: expected two files A B (see 'proper pmf --help')");
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

static int cmd_loop(const pmf_opts *o, char **files, int n_files) {
    proper_pmf body, r;
    const proper_pmf *pmfs[2];
    const char *names[2];
    char result_name[512], title[600];
    double *iters = NULL;
    size_t n_iters = 0;
    proper_error err;
    int rc;
    if (o->has_reenter ? n_files != 1 : n_files != 2)
        return cli_fail("pmf loop: expected BODY ITERS, or BODY --reenter P (see 'proper pmf --help')");
    proper_pmf_init(&body);
    proper_pmf_init(&r);
    rc = read_pmf(&body, files[0], o);
    if (rc == CLI_OK && !o->has_reenter && proper_pmf_read_counts(files[1], &iters, &n_iters, &err))
        rc = cli_report(&err);
    if (rc == CLI_OK) {
        int status = o->has_reenter ? proper_pmf_markov_loop(&r, &body, o->reenter, o->eps, &err)
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

int cmd_pmf(int argc, char **argv) {
    pmf_opts o;
    proper_error err;
    char **files;
    int i, n_files = 0, rc;
    const char *action;
    memset(&o, 0, sizeof o);
    o.eps = 1e-12;
    if (argc < 2 || cli_is_help(argv[1])) {
        pmf_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_BAD_INPUT : CLI_OK;
    }
    action = argv[1];
    files = (char **)calloc((size_t)argc, sizeof *files);
    if (!files) return cli_fail("out of memory");
    for (i = 2; i < argc; i++) {
        const char *v;
        int missing = 0;
        double *target = NULL;
        const char *what = NULL;
        if (cli_is_help(argv[i])) {
            pmf_usage(stdout);
            free(files);
            return CLI_OK;
        }
        if ((v = cli_option(argc, argv, &i, "--svg", &missing))) o.svg = v;
        else if (!missing && (v = cli_option(argc, argv, &i, "--width", &missing))) { target = &o.width; what = "--width"; }
        else if (!missing && (v = cli_option(argc, argv, &i, "--truncate", &missing))) { target = &o.truncate; what = "--truncate"; }
        else if (!missing && (v = cli_option(argc, argv, &i, "--reenter", &missing))) { target = &o.reenter; what = "--reenter"; o.has_reenter = 1; }
        else if (!missing && (v = cli_option(argc, argv, &i, "--eps", &missing))) { target = &o.eps; what = "--eps"; }
        if (missing) {
            free(files);
            return cli_fail("%s needs a value", argv[i]);
        }
        if (target && proper_parse_double_str(v, target, what, &err)) {
            free(files);
            return cli_report(&err);
        }
        if (target == &o.width && !(o.width > 0 && !isinf(o.width))) {
            free(files);
            return cli_fail("--width must be finite and > 0, got '%s'", v);
        }
        if (v) continue;
        if (strcmp(argv[i], "--json") == 0) o.json = 1;
        else if (strcmp(argv[i], "--csv") == 0) o.csv = 1;
        else if (strcmp(argv[i], "--cdf") == 0) o.cdf = 1;
        else if (argv[i][0] == '-' && argv[i][1]) {
            free(files);
            return cli_fail("pmf: unknown option '%s' (see 'proper pmf --help')", argv[i]);
        } else files[n_files++] = argv[i];
    }
    if (o.json && o.csv) rc = cli_fail("pmf: --json and --csv exclude each other");
    else if (o.width < 0 || (o.width > 0 && isinf(o.width))) rc = cli_fail("--width must be finite and > 0, got %g", o.width);
    else if (!(o.truncate >= 0 && o.truncate < 1)) rc = cli_fail("--truncate must lie in [0, 1), got %g", o.truncate);
    else if (strcmp(action, "stats") == 0) rc = cmd_stats(&o, files, n_files);
    else if (strcmp(action, "conv") == 0) rc = cmd_conv(&o, files, n_files);
    else if (strcmp(action, "loop") == 0) rc = cmd_loop(&o, files, n_files);
    else rc = cli_fail("pmf: unknown action '%s' (stats, conv or loop; see 'proper pmf --help')", action);
    free(files);
    return rc;
}
