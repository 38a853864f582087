/* proper-mpi counts — PROPER count-log totals on MPI ranks.
 *
 * A count log (src/estimate.h: CSV with a header row, or a trace whose N
 * counters are the columns) is summed per column into a totals file:
 *
 *     proper-count-totals 1
 *     column,runs,sum,sum_sq
 *     p1,1000,523,1234
 *
 * one row per column name over all the logs, sorted by name (byte order):
 * runs = the rows of the logs that have the column, sum = the sum of its
 * counts, sum_sq = the sum of their squares. All are exact integers (sums
 * in 128 bits; a sum beyond 2^128 - 1 is an error), so the file does not
 * depend on how the logs were split or in which order they were added: it
 * is associative and commutative like `proper vlmc merge`. These are the
 * sufficient statistics of the normal intervals of `proper analyze --log`
 * (a column's mean is sum/runs, its variance (runs*sum_sq - sum^2) /
 * (runs*(runs-1))) and of the taken/reached totals (linear in the sums);
 * `proper` has no single-process command that writes them, so the totals
 * file is defined here; `proper analyze --log` reads it (estimate.h), with
 * the same results as from the logs' rows. A totals file is also accepted
 * as input (the reduce step of a map-reduce: proper-mpi counts on totals
 * files).
 *
 * Files go whole to a rank (each read with proper_estimate_counts_read, so
 * errors are the single-process reader's); the tree reduction moves the
 * totals file's text.
 */
#include <stdlib.h>
#include <string.h>

#include "../../src/estimate.h"
#include "mpi.h"

#define COUNTS_MAGIC "proper-count-totals 1"
#define COUNTS_HEADER "column,runs,sum,sum_sq"

static void counts_usage(FILE *out) {
    fprintf(out,
            "usage: mpirun -np P proper-mpi counts LOG... [-o|--output FILE] [--stats]\n\n"
            "PROPER count-log totals: every LOG (a count log as 'proper analyze --log'\n"
            "reads it: CSV with a header row, or a trace whose N counters are the\n"
            "columns; or a totals file written by this command) is summed per column\n"
            "into the totals file (docs/mpi.md):\n"
            "  " COUNTS_MAGIC "\n"
            "  " COUNTS_HEADER "\n"
            "  NAME,RUNS,SUM,SUM_SQ        one row per column, sorted by name\n"
            "exact integers, the same bytes for any split or order of the logs.\n"
            "Files go whole to a rank; the tree reduction adds the totals.\n\n"
            "  -o, --output FILE  the totals file (default '-': stdout)\n"
            "  --stats            per-rank figures on stderr\n");
}

/* ---- 128-bit unsigned sums ---- */

typedef struct u128 {
    uint64_t hi, lo;
} u128;

/* a += b; 1 on overflow. */
static int u128_add(u128 *a, u128 b) {
    uint64_t lo = a->lo + b.lo, carry = lo < a->lo;
    if (a->hi > UINT64_MAX - b.hi - carry || (b.hi == UINT64_MAX && carry)) return 1;
    a->hi += b.hi + carry;
    a->lo = lo;
    return 0;
}

static u128 u128_square(uint64_t x) {
    uint64_t a = x >> 32, b = x & 0xffffffffu, ab = a * b, bb = b * b, mid_lo = ab << 33;
    u128 r;
    r.hi = a * a + (ab >> 31);
    r.lo = bb + mid_lo;
    r.hi += r.lo < bb;
    return r;
}

/* Decimal text of x into buf (at least 40 bytes). */
static const char *u128_format(u128 x, char *buf) {
    char *p = buf + 40;
    *--p = '\0';
    do { /* x /= 10, digit = remainder, by 32-bit limbs */
        uint64_t limbs[4] = {x.hi >> 32, x.hi & 0xffffffffu, x.lo >> 32, x.lo & 0xffffffffu}, rem = 0;
        int i;
        for (i = 0; i < 4; i++) {
            uint64_t cur = (rem << 32) | limbs[i];
            limbs[i] = cur / 10;
            rem = cur % 10;
        }
        x.hi = limbs[0] << 32 | limbs[1];
        x.lo = limbs[2] << 32 | limbs[3];
        *--p = (char)('0' + rem);
    } while (x.hi || x.lo);
    return p;
}

/* Parses the decimal digits at the cursor; PROPER_OK or an error. */
static int u128_parse(proper_cursor *c, u128 *out, proper_error *err) {
    proper_cursor at = *c;
    out->hi = out->lo = 0;
    if (c->p >= c->end || *c->p < '0' || *c->p > '9')
        return proper_cursor_error(c, err, PROPER_EPARSE, "expected a non-negative integer");
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        /* out = out * 10 + digit: out*8 + out*2 + digit */
        u128 x8 = *out, x2 = *out, d;
        int k, over = (out->hi >> 61) != 0;
        for (k = 0; k < 3; k++) x8.hi = x8.hi << 1 | x8.lo >> 63, x8.lo <<= 1;
        x2.hi = x2.hi << 1 | x2.lo >> 63, x2.lo <<= 1;
        d.hi = 0;
        d.lo = (uint64_t)(*c->p - '0');
        if (over || u128_add(&x8, x2) || u128_add(&x8, d))
            return proper_cursor_error(&at, err, PROPER_ERANGE, "number beyond 2^128 - 1");
        *out = x8;
        proper_cursor_advance(c);
    }
    return PROPER_OK;
}

/* ---- the sums ---- */

typedef struct counts_col {
    u128 runs, sum, sum_sq;
} counts_col;

typedef struct counts_acc {
    proper_intern names;
    counts_col *col; /* col[i]: names.names[i] */
    size_t cap;
    uint64_t rows; /* count-log rows read (for --stats) */
} counts_acc;

static void *counts_create(void) {
    counts_acc *a = (counts_acc *)calloc(1, sizeof *a);
    if (a) proper_intern_init(&a->names);
    return a;
}

static void counts_destroy(void *acc) {
    counts_acc *a = (counts_acc *)acc;
    free(a->col);
    proper_intern_free(&a->names);
    free(a);
}

static counts_col *counts_column(counts_acc *a, const char *name, size_t len) {
    size_t i;
    if (proper_intern_add(&a->names, name, len, &i, NULL)) return NULL;
    if (i >= a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 16;
        counts_col *c = (counts_col *)realloc(a->col, cap * sizeof *c);
        if (!c) return NULL;
        memset(c + a->cap, 0, (cap - a->cap) * sizeof *c);
        a->col = c;
        a->cap = cap;
    }
    return &a->col[i];
}

/* Adds one column's totals; *what names the overflowing sum. */
static int counts_add(counts_acc *a, const char *name, size_t len, u128 runs, u128 sum, u128 sum_sq,
                      const char **what) {
    counts_col *c = counts_column(a, name, len);
    if (!c) return PROPER_ENOMEM;
    *what = u128_add(&c->runs, runs) ? "runs" : u128_add(&c->sum, sum) ? "sum" : u128_add(&c->sum_sq, sum_sq) ? "sum_sq" : NULL;
    return *what ? PROPER_ERANGE : PROPER_OK;
}

/* Adds totals-file text (a file named `file`, or another rank's sums). */
static int counts_parse_totals(counts_acc *a, const char *text, size_t len, const char *file, proper_error *err) {
    proper_cursor c;
    int rc;
    proper_cursor_init(&c, text, len, file);
    if (len < sizeof COUNTS_MAGIC || memcmp(text, COUNTS_MAGIC "\n", sizeof COUNTS_MAGIC) != 0)
        return proper_cursor_error(&c, err, PROPER_EPARSE, "expected '" COUNTS_MAGIC "'");
    while (c.p < c.end && *c.p != '\n') proper_cursor_advance(&c);
    proper_cursor_advance(&c);
    if ((size_t)(c.end - c.p) < sizeof COUNTS_HEADER || memcmp(c.p, COUNTS_HEADER "\n", sizeof COUNTS_HEADER) != 0)
        return proper_cursor_error(&c, err, PROPER_EPARSE, "expected '" COUNTS_HEADER "'");
    while (c.p < c.end && *c.p != '\n') proper_cursor_advance(&c);
    proper_cursor_advance(&c);
    while (c.p < c.end) {
        const char *name = c.p, *what;
        proper_cursor row = c;
        size_t n;
        u128 v[3];
        int k;
        while (c.p < c.end && *c.p != ',' && *c.p != '\n') proper_cursor_advance(&c);
        n = (size_t)(c.p - name);
        if (n == 0 || n > PROPER_ESTIMATE_NAME_MAX)
            return proper_cursor_error(&row, err, PROPER_EPARSE, "expected a column name of 1 to %d bytes",
                                       PROPER_ESTIMATE_NAME_MAX);
        for (k = 0; k < 3; k++) {
            if (c.p >= c.end || *c.p != ',') return proper_cursor_error(&c, err, PROPER_EPARSE, "expected ','");
            proper_cursor_advance(&c);
            if ((rc = u128_parse(&c, &v[k], err))) return rc;
        }
        if (c.p < c.end && *c.p != '\n') return proper_cursor_error(&c, err, PROPER_EPARSE, "expected the end of the line");
        proper_cursor_advance(&c);
        if ((rc = counts_add(a, name, n, v[0], v[1], v[2], &what)))
            return rc == PROPER_ENOMEM ? proper_cursor_error(&row, err, rc, "out of memory")
                                       : proper_cursor_error(&row, err, rc, "column '%.*s': %s beyond 2^128 - 1", (int)n,
                                                             name, what);
    }
    return PROPER_OK;
}

static int counts_add_file(void *acc, const char *path, proper_error *err) {
    counts_acc *a = (counts_acc *)acc;
    proper_estimate_counts log;
    char *text;
    size_t len, r, k;
    int rc;
    if ((rc = proper_read_file(path, &text, &len, err))) return rc;
    if (len >= sizeof COUNTS_MAGIC - 1 && memcmp(text, COUNTS_MAGIC, sizeof COUNTS_MAGIC - 1) == 0) {
        rc = counts_parse_totals(a, text, len, path, err);
        PROPER_FREE(text);
        return rc;
    }
    proper_estimate_counts_init(&log);
    rc = proper_estimate_counts_parse(&log, text, len, path, err);
    PROPER_FREE(text);
    for (k = 0; rc == PROPER_OK && k < log.n_cols; k++) {
        u128 runs = {0, 0}, sum = {0, 0}, sum_sq = {0, 0}, one;
        const char *what = NULL;
        runs.lo = log.n_runs;
        for (r = 0; r < log.n_runs && !what; r++) {
            double x = log.values[r * log.n_cols + k];
            uint64_t v;
            if (!(x >= 0.0 && x < 18446744073709551616.0)) { /* counts are non-negative; trace counters are doubles */
                rc = proper_error_set(err, PROPER_ERANGE, path, log.lines[r], 0, "count %g in column '%s' is not below 2^64",
                                      x, log.names[k]);
                break;
            }
            v = (uint64_t)x;
            one.hi = 0;
            one.lo = v;
            if (u128_add(&sum, one)) what = "sum";
            else if (u128_add(&sum_sq, u128_square(v))) what = "sum_sq";
        }
        if (rc == PROPER_OK && !what) rc = counts_add(a, log.names[k], strlen(log.names[k]), runs, sum, sum_sq, &what);
        if (rc == PROPER_ENOMEM) proper_error_set(err, rc, path, 0, 0, "out of memory");
        else if (what) rc = proper_error_set(err, PROPER_ERANGE, path, 0, 0, "column '%s': %s beyond 2^128 - 1", log.names[k], what);
    }
    if (rc == PROPER_OK) a->rows += log.n_runs;
    proper_estimate_counts_free(&log);
    return rc;
}

static int counts_cmp_names(const void *x, const void *y) {
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static int counts_write(const void *acc, FILE *f, proper_error *err) {
    const counts_acc *a = (const counts_acc *)acc;
    const char **names = (const char **)malloc((a->names.len + 1) * sizeof *names);
    size_t i;
    int bad;
    if (!names) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (i = 0; i < a->names.len; i++) names[i] = a->names.names[i];
    qsort(names, a->names.len, sizeof *names, counts_cmp_names);
    bad = fprintf(f, COUNTS_MAGIC "\n" COUNTS_HEADER "\n") < 0;
    for (i = 0; i < a->names.len && !bad; i++) {
        const counts_col *c = &a->col[proper_intern_find(&a->names, names[i], strlen(names[i]))];
        char b1[40], b2[40], b3[40];
        bad = fprintf(f, "%s,%s,%s,%s\n", names[i], u128_format(c->runs, b1), u128_format(c->sum, b2),
                      u128_format(c->sum_sq, b3)) < 0;
    }
    free(names);
    return bad ? proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write failed") : PROPER_OK;
}

static int counts_merge(void *acc, const char *text, size_t len, proper_error *err) {
    return counts_parse_totals((counts_acc *)acc, text, len, "(totals from another rank)", err);
}

static uint64_t counts_events(const void *acc) { return ((const counts_acc *)acc)->rows; }

static const mpi_ops counts_ops = {NULL, counts_add_file, NULL, counts_create, counts_destroy,
                                   counts_write, counts_merge, counts_events};

int mpi_cmd_counts(mpi_ctx *m, int argc, char **argv) {
    const char **inputs, *out = "-";
    size_t n_inputs = 0, len;
    char *text;
    void *acc;
    cli_args a;
    int rc;
    cli_args_init(&a, "counts", argc, argv);
    if (a.help) {
        if (m->rank == 0) counts_usage(stdout);
        return CLI_OK;
    }
    if (!(inputs = (const char **)calloc((size_t)argc, sizeof *inputs))) return cli_fail("out of memory");
    while (cli_next(&a)) {
        if (cli_flag(&a, "--stats")) m->stats = 1;
        else if (cli_opt(&a, "-o|--output")) out = a.value;
        else if (cli_positional(&a)) inputs[n_inputs++] = a.value;
        else cli_unknown(&a);
    }
    if (!a.status && !n_inputs) cli_usage_error(&a, "expected at least one count LOG");
    rc = mpi_sum_inputs(m, a.status, inputs, n_inputs, &counts_ops, &acc, &text, &len);
    if (rc == CLI_OK && m->rank == 0) rc = mpi_write_file(out, text, len);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    mpi_print_stats(m);
    free(text);
    if (acc) counts_destroy(acc);
    free(inputs);
    return rc;
}
