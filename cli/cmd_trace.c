/* proper trace — summarise trace files (format: src/trace.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/trace.h"
#include "cli.h"

static void trace_usage(FILE *out) {
    fprintf(out,
            "usage: proper trace FILE... [--json | --csv]\n\n"
            "Summarises proper trace files (format: the EBNF at the top of src/trace.h),\n"
            "read together (records with the same request id merge):\n"
            "  per step:   samples, mean, standard deviation, min, median, max\n"
            "  per branch: how often each choice was taken, and its share\n"
            "  per loop:   the histogram of iteration counts\n"
            "  counters:   per-record totals (N lines), over all records\n"
            "  requests:   service time T and client latency C as above, and the mean of\n"
            "              T minus the sum of the request's steps (time outside steps)\n"
            "  runs:       location visits and distinct locations\n"
            "Tables show microseconds; --json and --csv give nanoseconds.\n\n"
            "  --json   one JSON object\n"
            "  --csv    rows kind,name,choice,count,mean_ns,sd_ns,min_ns,median_ns,max_ns\n"
            "           (counter rows: records and per-record totals, not ns)\n");
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

static void json_summary(const char *key, const summary *s, int comma) {
    printf("  \"%s\": {\"count\": %lu, \"mean_ns\": %.17g, \"sd_ns\": %.17g, \"min_ns\": %.17g, \"median_ns\": %.17g, "
           "\"max_ns\": %.17g}%s\n",
           key, (unsigned long)s->n, s->mean, s->sd, s->min, s->median, s->max, comma ? "," : "");
}

static int print_json(const proper_trace *t, const requests *q) {
    size_t i, k;
    printf("{\n  \"records\": %lu,\n  \"steps\": {", (unsigned long)t->nrecords);
    for (i = 0; i < t->nsteps; i++) {
        summary s;
        if (summarise(t->steps[i].ns, t->steps[i].n, &s)) return -1;
        printf("%s\n    \"%s\": {\"count\": %lu, \"mean_ns\": %.17g, \"sd_ns\": %.17g, \"min_ns\": %.17g, "
               "\"median_ns\": %.17g, \"max_ns\": %.17g}",
               i ? "," : "", t->steps[i].name, (unsigned long)s.n, s.mean, s.sd, s.min, s.median, s.max);
    }
    printf("\n  },\n  \"branches\": {");
    for (i = 0; i < t->nbranches; i++) {
        const proper_trace_branch_stats *b = &t->branches[i];
        printf("%s\n    \"%s\": {", i ? "," : "", b->name);
        for (k = 0; k < b->nchoices; k++)
            printf("%s\"%s\": %lu", k ? ", " : "", b->choices[k], (unsigned long)b->counts[k]);
        printf("}");
    }
    printf("\n  },\n  \"loops\": {");
    for (i = 0; i < t->nloops; i++) {
        const proper_trace_loop_stats *l = &t->loops[i];
        int first = 1;
        printf("%s\n    \"%s\": {", i ? "," : "", l->name);
        for (k = 0; k < l->len; k++)
            if (l->counts[k]) {
                printf("%s\"%lu\": %lu", first ? "" : ", ", (unsigned long)k, (unsigned long)l->counts[k]);
                first = 0;
            }
        printf("}");
    }
    printf("\n  },\n  \"counters\": {");
    for (i = 0; i < t->counters.n; i++) {
        summary s;
        if (summarise_counter(t, i, &s)) return -1;
        printf("%s\n    \"%s\": {\"records\": %lu, \"mean\": %.17g, \"sd\": %.17g, \"min\": %.17g, "
               "\"median\": %.17g, \"max\": %.17g}",
               i ? "," : "", t->counters.names[i], (unsigned long)s.n, s.mean, s.sd, s.min, s.median, s.max);
    }
    printf("\n  },\n");
    json_summary("service", &q->service, 1);
    json_summary("client", &q->client, 1);
    json_summary("service_minus_steps", &q->gap, 1);
    printf("  \"visits\": %lu,\n  \"locations\": %lu\n}\n", (unsigned long)q->visits, (unsigned long)t->locations.n);
    return 0;
}

static void csv_row(const char *kind, const char *name, const char *choice, const summary *s) {
    printf("%s,%s,%s,%lu,%.17g,%.17g,%.17g,%.17g,%.17g\n", kind, name, choice, (unsigned long)s->n, s->mean, s->sd,
           s->min, s->median, s->max);
}

static int print_csv(const proper_trace *t, const requests *q) {
    size_t i, k;
    printf("kind,name,choice,count,mean_ns,sd_ns,min_ns,median_ns,max_ns\n");
    for (i = 0; i < t->nsteps; i++) {
        summary s;
        if (summarise(t->steps[i].ns, t->steps[i].n, &s)) return -1;
        csv_row("step", t->steps[i].name, "", &s);
    }
    for (i = 0; i < t->nbranches; i++)
        for (k = 0; k < t->branches[i].nchoices; k++)
            printf("branch,%s,%s,%lu,,,,,\n", t->branches[i].name, t->branches[i].choices[k],
                   (unsigned long)t->branches[i].counts[k]);
    for (i = 0; i < t->nloops; i++)
        for (k = 0; k < t->loops[i].len; k++)
            if (t->loops[i].counts[k])
                printf("loop,%s,%lu,%lu,,,,,\n", t->loops[i].name, (unsigned long)k,
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

int cmd_trace(int argc, char **argv) {
    proper_trace t;
    proper_error err;
    requests q;
    int i, json = 0, csv = 0, files = 0, rc;
    for (i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) { trace_usage(stdout); return CLI_OK; }
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--csv") == 0) csv = 1;
        else if (argv[i][0] == '-' && argv[i][1]) return cli_fail("trace: unknown option '%s' (see --help)", argv[i]);
        else files++;
    }
    if (!files || (json && csv)) { trace_usage(stderr); return CLI_BAD_INPUT; }
    proper_trace_init(&t);
    for (i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) continue;
        if (proper_trace_read_merge(&t, argv[i], &err)) {
            proper_trace_free(&t);
            return cli_report(&err);
        }
    }
    rc = summarise_requests(&t, &q);
    if (!rc) rc = json ? print_json(&t, &q) : csv ? print_csv(&t, &q) : print_table(&t, &q);
    proper_trace_free(&t);
    return rc ? cli_fail("trace: out of memory") : CLI_OK;
}
