/* proper-mpi trace — per-step PMFs for SRE models from traces on MPI ranks.
 *
 * The single-process equivalent of DIR/STEP.csv is
 *     proper sre M.sre --csv --width W
 * with M.sre = `symbol s = trace("FILE", "STEP"); def d = s;`: the empirical
 * PMF (proper_pmf_from_samples) of the step's durations in microseconds
 * (ns / PROPER_SRE_NS_PER_UNIT) on the grid of multiples of W. For several
 * files the samples are the union of the files' samples (the PMF of their
 * concatenation into one trace).
 *
 * The sums are, per step, the multiset of its distinct durations (value ->
 * count): exact, associative and commutative, and as small as the number of
 * distinct durations. The grid cannot be binned before the reduction (its
 * origin is the global minimum), so the values travel and rank 0 bins them
 * with the arithmetic of proper_pmf_from_samples: the grid (offset, bins)
 * from proper_pmf_from_samples of the distinct values (it depends only on
 * the minimum, the maximum and W), then p[k] = (sum of the counts in bin k)
 * / (number of samples), which equals from_samples' adding 1.0 per sample
 * and dividing (integers below 2^53 add exactly).
 *
 * Trace files go whole to a rank (a record spans lines; files are not
 * split), each read with proper_trace_read as `proper sre` reads a trace()
 * source: records are not merged across files (step samples do not depend
 * on that merge).
 *
 * Reduction text ("step-samples"):
 *     proper-step-samples 1
 *     S STEP NS COUNT          (NS in shortest round-trip form)
 */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "../../src/pmf.h"
#include "../../src/sre.h"
#include "../../src/trace.h"
#include "mpi.h"

static void trace_usage(FILE *out) {
    fprintf(out,
            "usage: mpirun -np P proper-mpi trace TRACE... -o|--output DIR [--width W] [--stats]\n\n"
            "Per-step PMFs for SRE models: for every step of the traces, DIR/STEP.csv is\n"
            "the 'value,prob' PMF of its durations in microseconds on the grid of\n"
            "multiples of W (default 1), byte-identical to\n"
            "  proper sre M.sre --csv --width W\n"
            "with M.sre = 'symbol s = trace(\"TRACE\", \"STEP\"); def d = s;' (several\n"
            "files: the union of their samples). A '/' in a step name is written %%2F in\n"
            "the file name. DIR is created if missing. Trace files go whole to a rank;\n"
            "each rank sums its steps' distinct durations, the tree reduction adds them,\n"
            "rank 0 bins them.\n\n"
            "  -o, --output DIR   where the CSV files go (required)\n"
            "  --width W          grid width in microseconds, > 0 (default 1)\n"
            "  --stats            per-rank figures on stderr\n");
}

/* ---- the sums: per step, distinct durations (ns) -> count ---- */

typedef struct trace_hist {
    double *v;
    uint64_t *c;
    size_t n, cap;
    size_t *slot; /* index + 1, 0 empty; nslot a power of two */
    size_t nslot;
    uint64_t total;
} trace_hist;

typedef struct trace_acc {
    proper_intern steps;
    trace_hist *h; /* h[i]: step steps.names[i] */
    size_t cap;
    uint64_t samples;
} trace_acc;

static uint64_t trace_hash(double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return proper_fnv1a(PROPER_FNV_OFFSET, &bits, sizeof bits);
}

static int trace_hist_grow(trace_hist *h) {
    size_t n = h->nslot ? h->nslot * 2 : 64, i;
    size_t *slot = (size_t *)calloc(n, sizeof *slot);
    if (!slot) return PROPER_ENOMEM;
    for (i = 0; i < h->n; i++) {
        size_t s = (size_t)trace_hash(h->v[i]) & (n - 1);
        while (slot[s]) s = (s + 1) & (n - 1);
        slot[s] = i + 1;
    }
    free(h->slot);
    h->slot = slot;
    h->nslot = n;
    return PROPER_OK;
}

static int trace_hist_add(trace_hist *h, double v, uint64_t count) {
    size_t s;
    if (2 * (h->n + 1) > h->nslot && trace_hist_grow(h)) return PROPER_ENOMEM;
    for (s = (size_t)trace_hash(v) & (h->nslot - 1); h->slot[s]; s = (s + 1) & (h->nslot - 1))
        if (memcmp(&h->v[h->slot[s] - 1], &v, sizeof v) == 0) {
            h->c[h->slot[s] - 1] += count;
            h->total += count;
            return PROPER_OK;
        }
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 16;
        double *v2 = (double *)realloc(h->v, cap * sizeof *v2);
        uint64_t *c2;
        if (!v2) return PROPER_ENOMEM;
        h->v = v2;
        if (!(c2 = (uint64_t *)realloc(h->c, cap * sizeof *c2))) return PROPER_ENOMEM;
        h->c = c2;
        h->cap = cap;
    }
    h->v[h->n] = v;
    h->c[h->n] = count;
    h->slot[s] = ++h->n;
    h->total += count;
    return PROPER_OK;
}

/* The histogram of step name[0..len), created if new. */
static trace_hist *trace_step(trace_acc *a, const char *name, size_t len) {
    size_t i;
    int added;
    if (proper_intern_add(&a->steps, name, len, &i, &added)) return NULL;
    if (added) {
        if (a->steps.len > a->cap) {
            size_t cap = a->cap ? 2 * a->cap : 16;
            trace_hist *h = (trace_hist *)realloc(a->h, cap * sizeof *h);
            if (!h) return NULL; /* the name stays interned with no histogram: cap < len marks it */
            memset(h + a->cap, 0, (cap - a->cap) * sizeof *h);
            a->h = h;
            a->cap = cap;
        }
    }
    return i < a->cap ? &a->h[i] : NULL;
}

static void *trace_create(void) {
    trace_acc *a = (trace_acc *)calloc(1, sizeof *a);
    if (a) proper_intern_init(&a->steps);
    return a;
}

static void trace_destroy(void *acc) {
    trace_acc *a = (trace_acc *)acc;
    size_t i;
    for (i = 0; i < a->cap; i++) {
        free(a->h[i].v);
        free(a->h[i].c);
        free(a->h[i].slot);
    }
    free(a->h);
    proper_intern_free(&a->steps);
    free(a);
}

static int trace_add_file(void *acc, const char *path, proper_error *err) {
    trace_acc *a = (trace_acc *)acc;
    proper_trace t;
    size_t i, j;
    int rc;
    proper_trace_init(&t);
    if ((rc = proper_trace_read(&t, path, err)) == PROPER_OK)
        for (i = 0; i < t.nsteps && rc == PROPER_OK; i++) {
            const proper_trace_step_stats *st = &t.steps[i];
            trace_hist *h;
            if (st->n == 0) continue;
            if (!(h = trace_step(a, st->name, strlen(st->name)))) rc = PROPER_ENOMEM;
            for (j = 0; j < st->n && rc == PROPER_OK; j++) rc = trace_hist_add(h, st->ns[j], 1);
            a->samples += st->n;
        }
    if (rc == PROPER_ENOMEM) proper_error_set(err, rc, path, 0, 0, "out of memory");
    proper_trace_free(&t);
    return rc;
}

static int trace_write(const void *acc, FILE *f, proper_error *err) {
    const trace_acc *a = (const trace_acc *)acc;
    char num[PROPER_DOUBLE_CHARS];
    size_t i, j;
    if (fprintf(f, "proper-step-samples 1\n") < 0) goto fail;
    for (i = 0; i < a->steps.len; i++)
        for (j = 0; j < a->h[i].n; j++)
            if (fprintf(f, "S %s %s %llu\n", a->steps.names[i], proper_format_double(num, a->h[i].v[j]),
                        (unsigned long long)a->h[i].c[j]) < 0)
                goto fail;
    return PROPER_OK;
fail:
    return proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write failed");
}

/* Adds step-samples text (another rank's sums). */
static int trace_merge(void *acc, const char *text, size_t len, proper_error *err) {
    static const char magic[] = "proper-step-samples 1\n";
    trace_acc *a = (trace_acc *)acc;
    proper_cursor c;
    int rc;
    proper_cursor_init(&c, text, len, "(step samples from another rank)");
    if (len < sizeof magic - 1 || memcmp(text, magic, sizeof magic - 1) != 0)
        return proper_cursor_error(&c, err, PROPER_EPARSE, "expected 'proper-step-samples 1'");
    while (c.p < c.end && *c.p != '\n') proper_cursor_advance(&c);
    proper_cursor_advance(&c);
    while (c.p < c.end) {
        const char *name;
        size_t n;
        double v;
        long long count;
        trace_hist *h;
        if (*c.p != 'S' || c.p + 1 >= c.end || c.p[1] != ' ')
            return proper_cursor_error(&c, err, PROPER_EPARSE, "expected 'S STEP NS COUNT'");
        proper_cursor_advance(&c);
        proper_cursor_advance(&c);
        for (name = c.p; c.p < c.end && *c.p != ' ' && *c.p != '\n';) proper_cursor_advance(&c);
        n = (size_t)(c.p - name);
        if ((rc = proper_parse_double(&c, &v, err)) || (rc = proper_parse_int(&c, &count, err))) return rc;
        if (n == 0 || count <= 0 || c.p >= c.end || *c.p != '\n')
            return proper_cursor_error(&c, err, PROPER_EPARSE, "expected 'S STEP NS COUNT'");
        proper_cursor_advance(&c);
        if (!(h = trace_step(a, name, n)) || trace_hist_add(h, v, (uint64_t)count))
            return proper_cursor_error(&c, err, PROPER_ENOMEM, "out of memory");
        a->samples += (uint64_t)count;
    }
    return PROPER_OK;
}

static uint64_t trace_events(const void *acc) { return ((const trace_acc *)acc)->samples; }

static const mpi_ops trace_ops = {NULL, trace_add_file, NULL, trace_create, trace_destroy,
                                  trace_write, trace_merge, trace_events};

/* ---- rank 0: the PMFs ---- */

/* proper_pmf_from_samples of h's samples (as microseconds) without
 * expanding them: see the top of this file. */
static int trace_pmf(const trace_hist *h, double width, proper_pmf *out, proper_error *err) {
    double *us = (double *)malloc((h->n ? h->n : 1) * sizeof *us);
    size_t i;
    int rc;
    if (!us) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (i = 0; i < h->n; i++) us[i] = h->v[i] / PROPER_SRE_NS_PER_UNIT;
    if ((rc = proper_pmf_from_samples(out, us, h->n, width, err)) == PROPER_OK) {
        for (i = 0; i < out->n; i++) out->p[i] = 0.0;
        for (i = 0; i < h->n; i++) { /* from_samples' binning, a count at a time */
            double k = floor((us[i] - out->offset) / width + 0.5);
            if (k < 0.0) k = 0.0;
            if (k > (double)(out->n - 1)) k = (double)(out->n - 1);
            out->p[(size_t)k] += (double)h->c[i];
        }
        for (i = 0; i < out->n; i++) out->p[i] /= (double)h->total;
    }
    free(us);
    return rc;
}

static int trace_cmp_names(const void *x, const void *y) {
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* DIR/NAME.csv with '/' written %2F. */
static char *trace_file_name(const char *dir, const char *name) {
    proper_strbuf b;
    const char *p;
    proper_strbuf_init(&b);
    proper_strbuf_puts(&b, dir);
    proper_strbuf_puts(&b, "/");
    for (p = name; *p; p++)
        if (*p == '/') proper_strbuf_puts(&b, "%2F");
        else proper_strbuf_append(&b, p, 1);
    proper_strbuf_puts(&b, ".csv");
    return proper_strbuf_take(&b);
}

static int trace_write_pmfs(const char *dir, double width, const char *text, size_t len) {
    trace_acc *a = (trace_acc *)trace_create();
    proper_error err;
    const char **names = NULL;
    size_t i;
    int rc = CLI_OK;
    struct stat st;
    if (!a) return cli_fail("out of memory");
    if (trace_merge(a, text, len, &err)) {
        trace_destroy(a);
        return cli_report(&err);
    }
    if (mkdir(dir, 0777) != 0 && !(errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))) {
        trace_destroy(a);
        return cli_fail("%s: cannot create directory (%s)", dir, strerror(errno));
    }
    if (a->steps.len && !(names = (const char **)malloc(a->steps.len * sizeof *names))) rc = cli_fail("out of memory");
    for (i = 0; rc == CLI_OK && i < a->steps.len; i++) names[i] = a->steps.names[i];
    if (rc == CLI_OK) qsort(names, a->steps.len, sizeof *names, trace_cmp_names);
    for (i = 0; rc == CLI_OK && i < a->steps.len; i++) {
        const trace_hist *h = &a->h[proper_intern_find(&a->steps, names[i], strlen(names[i]))];
        proper_pmf pmf;
        char *path = trace_file_name(dir, names[i]);
        FILE *f;
        proper_pmf_init(&pmf);
        if (!path) rc = cli_fail("out of memory");
        else if (trace_pmf(h, width, &pmf, &err)) rc = cli_report(&err);
        else if (!(f = fopen(path, "wb"))) rc = cli_fail("%s: cannot open for writing", path);
        else {
            int wrc = proper_pmf_write_csv(&pmf, f, &err);
            if (fclose(f) != 0 || wrc) rc = cli_fail("%s: write error", path);
        }
        proper_pmf_free(&pmf);
        free(path);
    }
    if (rc == CLI_OK)
        fprintf(stderr, "proper-mpi trace: %s: %lu step(s), %llu sample(s), width %g us\n", dir,
                (unsigned long)a->steps.len, (unsigned long long)a->samples, width);
    free(names);
    trace_destroy(a);
    return rc;
}

int mpi_cmd_trace(mpi_ctx *m, int argc, char **argv) {
    const char **inputs, *dir = NULL;
    double width = 1.0;
    size_t n_inputs = 0, len;
    char *text;
    void *acc;
    cli_args a;
    int rc;
    cli_args_init(&a, "trace", argc, argv);
    if (a.help) {
        if (m->rank == 0) trace_usage(stdout);
        return CLI_OK;
    }
    if (!(inputs = (const char **)calloc((size_t)argc, sizeof *inputs))) return cli_fail("out of memory");
    while (cli_next(&a)) {
        if (cli_flag(&a, "--stats")) m->stats = 1;
        else if (cli_opt(&a, "-o|--output")) dir = a.value;
        else if (cli_opt_double(&a, "--width", "(0,inf)", &width)) {
        } else if (cli_positional(&a)) inputs[n_inputs++] = a.value;
        else cli_unknown(&a);
    }
    if (!a.status && !n_inputs) cli_usage_error(&a, "expected at least one trace FILE");
    if (!a.status && !dir) cli_usage_error(&a, "-o/--output DIR is required");
    rc = mpi_sum_inputs(m, a.status, inputs, n_inputs, &trace_ops, &acc, &text, &len);
    if (rc == CLI_OK && m->rank == 0) rc = trace_write_pmfs(dir, width, text, len);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    mpi_print_stats(m);
    free(text);
    if (acc) trace_destroy(acc);
    free(inputs);
    return rc;
}
