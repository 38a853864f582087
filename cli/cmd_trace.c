/* proper trace — summarise trace files (format: src/trace.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/trace.h"
#include "cli.h"
#include "json.h"
#include "svg.h"

/* --svg: one histogram panel per step (and one for T), TRACE_SVG_BINS
 * equal bins from the smallest value to the largest TRACE_SVG_HI_Q
 * quantile of the panel's series, at most TRACE_SVG_MAX_PANELS panels. */
#define TRACE_SVG_BINS 60
#define TRACE_SVG_HI_Q 0.99
#define TRACE_SVG_MAX_PANELS 32
#define TRACE_SVG_MAX_SERIES 8

static void trace_usage(FILE *out) {
    fprintf(out,
            "usage: proper trace FILE... [--merge] [--json | --csv] [--svg OUT.svg]\n\n"
            "Summarises proper trace files (format: the EBNF at the top of src/trace.h),\n"
            "each file on its own (with --merge: read together, records with the same\n"
            "request id merging into one):\n"
            "  per step:   samples, mean, standard deviation, min, median, max\n"
            "  per branch: how often each choice was taken, and its share\n"
            "  per loop:   the histogram of iteration counts\n"
            "  counters:   per-record totals (N lines), over all records\n"
            "  requests:   service time T and client latency C as above, and the mean of\n"
            "              T minus the sum of the request's steps (time outside steps)\n"
            "  runs:       location visits and distinct locations\n"
            "Tables show microseconds; --json and --csv give nanoseconds.\n\n"
            "  --merge  one summary of all the files, records merged by request id\n"
            "  --json   one JSON object; for several files without --merge\n"
            "           {\"files\": [{\"file\": NAME, ...one object per file...}]}\n"
            "  --csv    rows kind,name,choice,count,mean_ns,sd_ns,min_ns,median_ns,max_ns\n"
            "           (counter rows: records and per-record totals, not ns); for several\n"
            "           files without --merge each row starts with a file column\n"
            "  --svg OUT.svg  per-step histograms, one panel per step and one for T\n"
            "           (share of the samples per bin, one curve per file; the x axis\n"
            "           ends at the 99%% quantile and says how much lies beyond)\n");
}

typedef struct summary {
    size_t n;
    double mean, sd, min, median, max;
} summary;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sample statistics of xs (sd with n - 1; 0 for one sample). */
static int summarise(const double *xs, size_t n, summary *s) {
    double *sorted, sum = 0.0, sq = 0.0;
    size_t i;
    memset(s, 0, sizeof *s);
    s->n = n;
    if (n == 0) return 0;
    sorted = (double *)malloc(n * sizeof *sorted);
    if (!sorted) return -1;
    memcpy(sorted, xs, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    for (i = 0; i < n; i++) sum += xs[i];
    s->mean = sum / (double)n;
    for (i = 0; i < n; i++) sq += (xs[i] - s->mean) * (xs[i] - s->mean);
    s->sd = n > 1 ? sqrt(sq / (double)(n - 1)) : 0.0;
    s->min = sorted[0];
    s->max = sorted[n - 1];
    s->median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    free(sorted);
    return 0;
}

/* Request-level figures: T, C, and T minus the sum of the request's steps. */
typedef struct requests {
    summary service, client, gap;
    size_t visits;
} requests;

static int summarise_requests(const proper_trace *t, requests *q) {
    double *ts = (double *)malloc((t->nrecords + 1) * sizeof *ts);
    double *cs = (double *)malloc((t->nrecords + 1) * sizeof *cs);
    double *gs = (double *)malloc((t->nrecords + 1) * sizeof *gs);
    size_t i, j, nt = 0, nc = 0;
    int rc = -1;
    memset(q, 0, sizeof *q);
    if (ts && cs && gs) {
        for (i = 0; i < t->nrecords; i++) {
            const proper_trace_record *r = &t->records[i];
            q->visits += r->nvisits;
            if (r->client_ns >= 0) cs[nc++] = r->client_ns;
            if (r->service_ns >= 0) {
                double steps = 0.0;
                for (j = 0; j < r->nevents; j++)
                    if (r->events[j].kind == PROPER_TRACE_STEP) steps += r->events[j].value;
                gs[nt] = r->service_ns - steps;
                ts[nt++] = r->service_ns;
            }
        }
        rc = summarise(ts, nt, &q->service) || summarise(cs, nc, &q->client) || summarise(gs, nt, &q->gap) ? -1 : 0;
    }
    free(ts);
    free(cs);
    free(gs);
    return rc;
}

/* Per-record totals of counter c (0 where a record has no N line for it). */
static int summarise_counter(const proper_trace *t, size_t c, summary *s) {
    double *xs = (double *)malloc((t->nrecords + 1) * sizeof *xs);
    size_t i;
    int rc;
    if (!xs) return -1;
    for (i = 0; i < t->nrecords; i++) xs[i] = proper_trace_record_counter(&t->records[i], c);
    rc = summarise(xs, t->nrecords, s);
    free(xs);
    return rc;
}

static void print_summary_row(const char *name, const summary *s) {
    printf("  %-20s %8lu %11.3f %11.3f %11.3f %11.3f %11.3f\n", name, (unsigned long)s->n, s->mean / 1e3,
           s->sd / 1e3, s->min / 1e3, s->median / 1e3, s->max / 1e3);
}

static int print_table(const proper_trace *t, const requests *q) {
    size_t i, k;
    printf("%lu record(s)\n\n", (unsigned long)t->nrecords);
    if (t->nsteps) {
        printf("steps (us)             %8s %11s %11s %11s %11s %11s\n", "samples", "mean", "sd", "min", "median", "max");
        for (i = 0; i < t->nsteps; i++) {
            summary s;
            if (summarise(t->steps[i].ns, t->steps[i].n, &s)) return -1;
            print_summary_row(t->steps[i].name, &s);
        }
        printf("\n");
    }
    for (i = 0; i < t->nbranches; i++) {
        const proper_trace_branch_stats *b = &t->branches[i];
        printf("branch %s (%lu):", b->name, (unsigned long)b->total);
        for (k = 0; k < b->nchoices; k++)
            printf("  %s %lu (%.4f)", b->choices[k], (unsigned long)b->counts[k], (double)b->counts[k] / (double)b->total);
        printf("\n");
    }
    for (i = 0; i < t->nloops; i++) {
        const proper_trace_loop_stats *l = &t->loops[i];
        printf("loop %s (%lu):", l->name, (unsigned long)l->total);
        for (k = 0; k < l->len; k++)
            if (l->counts[k]) printf("  %lux %lu", (unsigned long)k, (unsigned long)l->counts[k]);
        printf("\n");
    }
    if (t->counters.n) {
        printf("%scounters per record    %8s %11s %11s %11s %11s %11s\n", t->nbranches || t->nloops ? "\n" : "",
               "records", "mean", "sd", "min", "median", "max");
        for (i = 0; i < t->counters.n; i++) {
            summary s;
            if (summarise_counter(t, i, &s)) return -1;
            printf("  %-20s %8lu %11.6g %11.6g %11.6g %11.6g %11.6g\n", t->counters.names[i], (unsigned long)s.n,
                   s.mean, s.sd, s.min, s.median, s.max);
        }
    }
    if (t->nbranches || t->nloops || t->counters.n) printf("\n");
    if (q->service.n || q->client.n) {
        printf("requests (us)          %8s %11s %11s %11s %11s %11s\n", "count", "mean", "sd", "min", "median", "max");
        if (q->service.n) print_summary_row("T service time", &q->service);
        if (q->client.n) print_summary_row("C client latency", &q->client);
        if (q->service.n) print_summary_row("T - sum of steps", &q->gap);
    }
    if (q->visits) printf("runs: %lu location visit(s), %lu distinct location(s)\n", (unsigned long)q->visits,
                          (unsigned long)t->locations.n);
    return 0;
}

/* {"count": N, "mean_ns": ..., ...}: a summary of nanoseconds. */
static void json_summary(cli_json *j, const char *count_key, const char *suffix, const summary *s) {
    char key[32];
    static const char *const names[] = {"mean", "sd", "min", "median", "max"};
    const double values[] = {s->mean, s->sd, s->min, s->median, s->max};
    size_t i;
    cli_json_object_begin(j);
    cli_json_key_uint(j, count_key, s->n);
    for (i = 0; i < sizeof values / sizeof values[0]; i++) {
        snprintf(key, sizeof key, "%s%s", names[i], suffix);
        cli_json_key_number(j, key, values[i]);
    }
    cli_json_object_end(j);
}

static void json_branches(cli_json *j, const proper_trace *t) {
    size_t i, k;
    cli_json_object_begin(j);
    for (i = 0; i < t->nbranches; i++) {
        const proper_trace_branch_stats *b = &t->branches[i];
        cli_json_key(j, b->name);
        cli_json_object_begin(j);
        for (k = 0; k < b->nchoices; k++) cli_json_key_uint(j, b->choices[k], b->counts[k]);
        cli_json_object_end(j);
    }
    cli_json_object_end(j);
}

static void json_loops(cli_json *j, const proper_trace *t) {
    size_t i, k;
    cli_json_object_begin(j);
    for (i = 0; i < t->nloops; i++) {
        const proper_trace_loop_stats *l = &t->loops[i];
        cli_json_key(j, l->name);
        cli_json_object_begin(j);
        for (k = 0; k < l->len; k++)
            if (l->counts[k]) {
                char count[24];
                snprintf(count, sizeof count, "%lu", (unsigned long)k);
                cli_json_key_uint(j, count, l->counts[k]);
            }
        cli_json_object_end(j);
    }
    cli_json_object_end(j);
}

/* One summary object into j; `file` (or NULL) first. */
static int print_json_to(cli_json *jp, const proper_trace *t, const requests *q, const char *file) {
#define j (*jp)
    size_t i;
    cli_json_object_begin(&j);
    if (file) cli_json_key_string(&j, "file", file);
    cli_json_key_uint(&j, "records", t->nrecords);
    cli_json_key(&j, "steps");
    cli_json_object_begin(&j);
    for (i = 0; i < t->nsteps; i++) {
        summary s;
        if (summarise(t->steps[i].ns, t->steps[i].n, &s)) return -1;
        cli_json_key(&j, t->steps[i].name);
        json_summary(&j, "count", "_ns", &s);
    }
    cli_json_object_end(&j);
    cli_json_key(&j, "branches");
    json_branches(&j, t);
    cli_json_key(&j, "loops");
    json_loops(&j, t);
    cli_json_key(&j, "counters");
    cli_json_object_begin(&j);
    for (i = 0; i < t->counters.n; i++) {
        summary s;
        if (summarise_counter(t, i, &s)) return -1;
        cli_json_key(&j, t->counters.names[i]);
        json_summary(&j, "records", "", &s);
    }
    cli_json_object_end(&j);
    cli_json_key(&j, "service");
    json_summary(&j, "count", "_ns", &q->service);
    cli_json_key(&j, "client");
    json_summary(&j, "count", "_ns", &q->client);
    cli_json_key(&j, "service_minus_steps");
    json_summary(&j, "count", "_ns", &q->gap);
    cli_json_key_uint(&j, "visits", q->visits);
    cli_json_key_uint(&j, "locations", t->locations.n);
    cli_json_object_end(&j);
    return 0;
#undef j
}

/* The file column of per-file CSV rows ("" when there is none). */
static const char *csv_file = "";

static void csv_row(const char *kind, const char *name, const char *choice, const summary *s) {
    printf("%s%s,%s,%s,%lu,%.17g,%.17g,%.17g,%.17g,%.17g\n", csv_file, kind, name, choice, (unsigned long)s->n, s->mean,
           s->sd, s->min, s->median, s->max);
}

/* header: print the header line first */
static int print_csv(const proper_trace *t, const requests *q, int header) {
    size_t i, k;
    if (header) printf("%skind,name,choice,count,mean_ns,sd_ns,min_ns,median_ns,max_ns\n", *csv_file ? "file," : "");
    for (i = 0; i < t->nsteps; i++) {
        summary s;
        if (summarise(t->steps[i].ns, t->steps[i].n, &s)) return -1;
        csv_row("step", t->steps[i].name, "", &s);
    }
    for (i = 0; i < t->nbranches; i++)
        for (k = 0; k < t->branches[i].nchoices; k++)
            printf("%sbranch,%s,%s,%lu,,,,,\n", csv_file, t->branches[i].name, t->branches[i].choices[k],
                   (unsigned long)t->branches[i].counts[k]);
    for (i = 0; i < t->nloops; i++)
        for (k = 0; k < t->loops[i].len; k++)
            if (t->loops[i].counts[k])
                printf("%sloop,%s,%lu,%lu,,,,,\n", csv_file, t->loops[i].name, (unsigned long)k,
                       (unsigned long)t->loops[i].counts[k]);
    for (i = 0; i < t->counters.n; i++) {
        summary s;
        if (summarise_counter(t, i, &s)) return -1;
        csv_row("counter", t->counters.names[i], "", &s);
    }
    if (q->service.n) csv_row("service", "T", "", &q->service);
    if (q->client.n) csv_row("client", "C", "", &q->client);
    if (q->service.n) csv_row("service_minus_steps", "T", "", &q->gap);
    return 0;
}

/* ---- --svg: per-step histograms ---- */

/* Durations (ns) of step `name` in t, or of T when name is NULL; *n of them. */
static double *trace_values(const proper_trace *t, const char *name, size_t *n) {
    size_t i;
    double *xs;
    *n = 0;
    if (name) {
        const proper_trace_step_stats *st = proper_trace_find_step(t, name);
        if (!st || !st->n) return NULL;
        xs = (double *)malloc(st->n * sizeof *xs);
        if (xs) memcpy(xs, st->ns, st->n * sizeof *xs);
        *n = xs ? st->n : 0;
        return xs;
    }
    xs = (double *)malloc((t->nrecords + 1) * sizeof *xs);
    if (!xs) return NULL;
    for (i = 0; i < t->nrecords; i++)
        if (t->records[i].service_ns >= 0) xs[(*n)++] = t->records[i].service_ns;
    return xs;
}

/* One panel: a histogram series per trace holding the step. */
typedef struct trace_panel {
    svg_plot plot;
    svg_series series[TRACE_SVG_MAX_SERIES];
    double *x[TRACE_SVG_MAX_SERIES], *y[TRACE_SVG_MAX_SERIES];
    size_t n_series;
    char title[160], xlabel[200];
} trace_panel;

static void trace_panel_free(trace_panel *p) {
    size_t i;
    for (i = 0; i < p->n_series; i++) {
        free(p->x[i]);
        free(p->y[i]);
    }
}

/* Fill panel p for step `name` (NULL: T) over the traces; 0 ok, -1 out of
 * memory, 1 no trace has the step. */
static int trace_panel_build(trace_panel *p, const proper_trace *ts, const char *const *labels, size_t n_traces,
                             const char *name) {
    double *vals[TRACE_SVG_MAX_SERIES], lo = INFINITY, hi = -INFINITY, width;
    size_t nv[TRACE_SVG_MAX_SERIES], i, k, beyond = 0, total = 0;
    memset(p, 0, sizeof *p);
    if (n_traces > TRACE_SVG_MAX_SERIES) n_traces = TRACE_SVG_MAX_SERIES;
    for (k = 0; k < n_traces; k++) {
        vals[k] = trace_values(&ts[k], name, &nv[k]);
        if (!vals[k] || !nv[k]) continue;
        qsort(vals[k], nv[k], sizeof *vals[k], cmp_double);
        if (vals[k][0] < lo) lo = vals[k][0];
        if (vals[k][(size_t)(TRACE_SVG_HI_Q * (double)(nv[k] - 1))] > hi)
            hi = vals[k][(size_t)(TRACE_SVG_HI_Q * (double)(nv[k] - 1))];
    }
    if (!(hi >= lo)) {
        for (k = 0; k < n_traces; k++) free(vals[k]);
        return 1;
    }
    if (hi == lo) hi = lo + 1.0;
    width = (hi - lo) / TRACE_SVG_BINS;
    for (k = 0; k < n_traces; k++) {
        size_t s = p->n_series;
        if (!vals[k] || !nv[k]) {
            free(vals[k]);
            continue;
        }
        p->x[s] = (double *)calloc(TRACE_SVG_BINS + 1, sizeof(double));
        p->y[s] = (double *)calloc(TRACE_SVG_BINS + 1, sizeof(double));
        p->n_series++;
        if (!p->x[s] || !p->y[s]) {
            for (; k < n_traces; k++) free(vals[k]);
            return -1;
        }
        for (i = 0; i <= TRACE_SVG_BINS; i++) p->x[s][i] = (lo + (double)i * width) / 1e3; /* us */
        for (i = 0; i < nv[k]; i++) {
            size_t b = (size_t)((vals[k][i] - lo) / width);
            if (vals[k][i] > hi) { beyond++; continue; }
            p->y[s][b < TRACE_SVG_BINS ? b : TRACE_SVG_BINS - 1] += 1.0 / (double)nv[k];
        }
        p->y[s][TRACE_SVG_BINS] = p->y[s][TRACE_SVG_BINS - 1]; /* the staircase's last step */
        total += nv[k];
        svg_series_init(&p->series[s], labels[k], p->x[s], p->y[s], TRACE_SVG_BINS + 1, SVG_STEP);
        free(vals[k]);
    }
    svg_plot_init(&p->plot);
    p->plot.height = 300;
    snprintf(p->title, sizeof p->title, "%s", name ? name : "T (service time)");
    snprintf(p->xlabel, sizeof p->xlabel, "time (us); axis ends at the 99%% quantile, %.4g us (%lu of %lu samples beyond)",
             hi / 1e3, (unsigned long)beyond, (unsigned long)total);
    p->plot.title = p->title;
    p->plot.xlabel = p->xlabel;
    p->plot.ylabel = "share of samples";
    return 0;
}

/* Step names of all traces, in order of first appearance; *n of them. */
static const char **trace_step_names(const proper_trace *ts, size_t n_traces, size_t *n) {
    size_t total = 0, k, i, j;
    const char **names;
    for (k = 0; k < n_traces; k++) total += ts[k].nsteps;
    names = (const char **)malloc((total + 1) * sizeof *names);
    *n = 0;
    if (!names) return NULL;
    for (k = 0; k < n_traces; k++)
        for (i = 0; i < ts[k].nsteps; i++) {
            for (j = 0; j < *n && strcmp(names[j], ts[k].steps[i].name) != 0; j++) {}
            if (j == *n) names[(*n)++] = ts[k].steps[i].name;
        }
    return names;
}

/* Write the histograms of the traces (labelled) to `path`. */
static int trace_write_svg(const char *path, const proper_trace *ts, const char *const *labels, size_t n_traces) {
    size_t n_names, n_panels = 0, i;
    const char **names = trace_step_names(ts, n_traces, &n_names);
    trace_panel *panels = (trace_panel *)calloc(TRACE_SVG_MAX_PANELS, sizeof *panels);
    svg_panel out[TRACE_SVG_MAX_PANELS];
    int rc = CLI_OK;
    if (!names || !panels) rc = cli_fail("out of memory");
    if (rc == CLI_OK && n_names + 1 > TRACE_SVG_MAX_PANELS)
        fprintf(stderr, "proper trace: warning: %lu steps; the plot shows the first %d and T\n", (unsigned long)n_names,
                TRACE_SVG_MAX_PANELS - 1);
    if (rc == CLI_OK && n_traces > TRACE_SVG_MAX_SERIES)
        fprintf(stderr, "proper trace: warning: %lu files; the plot shows the first %d\n", (unsigned long)n_traces,
                TRACE_SVG_MAX_SERIES);
    for (i = 0; rc == CLI_OK && i <= n_names && n_panels < TRACE_SVG_MAX_PANELS; i++) {
        /* the steps first (up to one panel short of the cap), T last */
        const char *name = i < n_names && (n_panels + 1 < TRACE_SVG_MAX_PANELS) ? names[i] : NULL;
        int built;
        if (i < n_names && !name) continue;
        built = trace_panel_build(&panels[n_panels], ts, labels, n_traces, name);
        if (built < 0) rc = cli_fail("out of memory");
        if (built == 0) {
            out[n_panels].plot = &panels[n_panels].plot;
            out[n_panels].series = panels[n_panels].series;
            out[n_panels].n_series = panels[n_panels].n_series;
            n_panels++;
        } else {
            trace_panel_free(&panels[n_panels]);
        }
    }
    if (rc == CLI_OK && n_panels == 0) rc = cli_fail("%s: nothing to plot: no step durations and no T lines", labels[0]);
    if (rc == CLI_OK && svg_write_panels_file(path, out, n_panels) != 0) rc = cli_fail("%s: cannot write the plot", path);
    for (i = 0; panels && i < n_panels; i++) trace_panel_free(&panels[i]);
    free(panels);
    free(names);
    return rc;
}

/* Read the files (each on its own, or merged) and plot them. */
static int trace_svg(const char *path, const char *const *files, size_t n_files, int merge) {
    size_t n_traces = merge ? 1 : n_files, i;
    proper_trace *ts = (proper_trace *)calloc(n_traces, sizeof *ts);
    proper_error err;
    int rc = CLI_OK;
    if (!ts) return cli_fail("out of memory");
    for (i = 0; i < n_traces; i++) proper_trace_init(&ts[i]);
    for (i = 0; i < n_files && rc == CLI_OK; i++) {
        if (proper_trace_read_merge(&ts[merge ? 0 : i], files[i], &err)) rc = cli_report(&err);
    }
    if (rc == CLI_OK) {
        const char *merged = "merged";
        rc = trace_write_svg(path, ts, merge ? &merged : files, n_traces);
    }
    for (i = 0; i < n_traces; i++) proper_trace_free(&ts[i]);
    free(ts);
    return rc;
}

/* Read and summarise one file (merge: all of them); `index` and `n_out`
 * place it among the outputs. CLI_OK or an error (reported). */
static int trace_one(const char *const *files, size_t n_files, int json, int csv, cli_json *j, size_t index,
                     size_t n_out) {
    proper_trace t;
    proper_error err;
    requests q;
    size_t i;
    int rc;
    proper_trace_init(&t);
    for (i = 0; i < n_files; i++)
        if (proper_trace_read_merge(&t, files[i], &err)) {
            proper_trace_free(&t);
            return cli_report(&err);
        }
    rc = summarise_requests(&t, &q);
    if (!rc) {
        const char *name = n_out > 1 ? files[0] : NULL;
        if (json) rc = print_json_to(j, &t, &q, name);
        else if (csv) rc = print_csv(&t, &q, index == 0);
        else {
            if (name) printf("%s== %s\n", index ? "\n" : "", name);
            rc = print_table(&t, &q);
        }
    }
    proper_trace_free(&t);
    return rc ? cli_fail("trace: out of memory") : CLI_OK;
}

int cmd_trace(int argc, char **argv) {
    cli_args a;
    cli_json j;
    const char **files;
    int json = 0, csv = 0, merge = 0, rc = CLI_OK;
    size_t i, n_files = 0, n_out;
    const char *svg = NULL;
    char *prefix = NULL;
    cli_args_init(&a, "trace", argc, argv);
    if (a.help) {
        trace_usage(stdout);
        return CLI_OK;
    }
    files = (const char **)PROPER_MALLOC((size_t)argc * sizeof *files);
    if (!files) return cli_fail("out of memory");
    while (cli_next(&a)) {
        if (cli_flag(&a, "--json")) json = 1;
        else if (cli_flag(&a, "--csv")) csv = 1;
        else if (cli_flag(&a, "--merge")) merge = 1;
        else if (cli_opt(&a, "--svg")) svg = a.value;
        else if (cli_positional(&a)) files[n_files++] = a.value;
        else cli_unknown(&a);
    }
    if (!a.status && !n_files) cli_usage_error(&a, "expected at least one trace FILE");
    if (!a.status && json && csv) cli_usage_error(&a, "--json and --csv exclude each other");
    if (a.status) {
        PROPER_FREE(files);
        return a.status;
    }
    /* every file is read (and checked) before anything is printed */
    if (!merge && n_files > 1)
        for (i = 0; i < n_files; i++) {
            proper_trace t;
            proper_error err;
            proper_trace_init(&t);
            rc = proper_trace_read(&t, files[i], &err) ? cli_report(&err) : CLI_OK;
            proper_trace_free(&t);
            if (rc) {
                PROPER_FREE(files);
                return rc;
            }
        }
    n_out = merge ? 1 : n_files;
    cli_json_init(&j, stdout);
    if (json && n_out > 1) {
        cli_json_object_begin(&j);
        cli_json_key(&j, "files");
        cli_json_array_begin(&j);
    }
    for (i = 0; i < n_out && rc == CLI_OK; i++) {
        if (csv && n_out > 1) {
            PROPER_FREE(prefix);
            const char *f = files[i];
            size_t k = 0;
            int quote = strpbrk(f, ",\"\r\n") != NULL;
            prefix = (char *)PROPER_MALLOC(2 * strlen(f) + 4);
            if (!prefix) { rc = cli_fail("out of memory"); break; }
            if (quote) prefix[k++] = '"';
            for (; *f; f++) {
                if (*f == '"') prefix[k++] = '"';
                prefix[k++] = *f;
            }
            if (quote) prefix[k++] = '"';
            prefix[k++] = ',';
            prefix[k] = '\0';
            csv_file = prefix;
        }
        rc = merge ? trace_one(files, n_files, json, csv, &j, 0, 1) : trace_one(files + i, 1, json, csv, &j, i, n_out);
    }
    csv_file = "";
    PROPER_FREE(prefix);
    if (json && n_out > 1 && rc == CLI_OK) {
        cli_json_array_end(&j);
        cli_json_object_end(&j);
    }
    if (svg && rc == CLI_OK) rc = trace_svg(svg, files, n_files, merge);
    PROPER_FREE(files);
    return rc;
}
