/* estimate.h — per-run count logs → parameter estimates and intervals →
 * property interval (PROPER, Stefanakos, Calinescu & Gerasimou, IST 2023).
 *
 * COUNT LOG (per-run CSV)
 *   A header row naming the columns, then one row per execution of the
 *   function. A column named `pK` or `nK` (K = 1..n, the parameters of the
 *   synthesised model, in source order) holds, for that execution, how many
 *   times construct K's if-branch was taken (conditionals, switch cases) or
 *   its loop body ran (loops; for nested loops the total over the run).
 *   Counts are non-negative integers. Other columns (e.g. `run`) are ignored;
 *   a pK column with K beyond the model's parameters, or two columns for one
 *   parameter (p2 and n2), is an error.
 *       run,p1,p2,p3
 *       1,0,4,12
 *       2,1,0,0
 *
 *   The same log can come as a trace (trace.h format): one record per
 *   execution, `N pK count` counter lines (counters of one name add up
 *   within a record; an absent counter counts 0).
 *   Or as the totals that `proper-mpi counts` writes (docs/mpi.md): the line
 *   `proper-count-totals 1`, the header `column,runs,sum,sum_sq`, one row
 *   per column with whole numbers below 2^53: the sufficient statistics of
 *   the normal intervals, which then equal those of the rows they came from
 *   bit for bit. The run-by-run consistency check needs the rows (it stays
 *   with the map step); from totals, every column must count the same runs
 *   and the mean counts must be possible.
 *   proper_estimate_counts_parse (text) and proper_estimate_counts_read (a
 *   path) tell the three apart by the first line ("proper-trace",
 *   "proper-count-totals 1").
 *
 * ARTIFACT LOGS
 *   The PROPER artifact's own logs: one file per construct, one integer per
 *   line for each execution that reached the construct (0/1 for a branch,
 *   body executions for a loop; for a nested loop the total inner body
 *   executions of the run, paired line by line with its parent loop's file).
 *   The files must fit the synthesised model, or the estimate is refused with
 *   what the model expected:
 *     - a nested loop is paired with its innermost enclosing loop in the
 *       model (the pairing is the model's; a caller's pairing that differs is
 *       an error), and must be entered once per iteration of it;
 *     - a conditional's lines are 0 or 1, one per reach; a conditional
 *       reached once per iteration of its innermost loop may instead give
 *       per-run totals (the artifact's knapsack n5: the times it was taken
 *       in the run), one line per line of that loop's file, each at most
 *       the loop's paired count: read as totals when the line counts agree
 *       and a count is above 1, the lines are not the loop's total
 *       iterations, or the caller pairs it (':pK'); p = sum T / sum K;
 *     - a do-while loop's body runs >= 1 time;
 *     - each file has as many lines as the model says its construct is
 *       reached (a loop outside loops: runs reaching it), given the other
 *       files' totals and the number of runs that the first file fixes: a
 *       file mapped to the wrong construct is caught this way.
 *
 * POINT ESTIMATES (the paper's eq. 2, generalised)
 *   p_i = N_i / V_i, where N_i is the number of times construct i's edge was
 *   taken and V_i the number of times its statement was reached. For
 *   structured code V_i is N_{i-1} for a conditional (the count of the
 *   enclosing construct) and N_{i-1} + N_i for a loop, which is eq. 2
 *   exactly. With else branches, break, continue, return and switch, V_i is
 *   derived by flow conservation on the synthesised DTMC: every state
 *   forwards the visits it receives, minus what its taken edge carries.
 *   Every cycle of the DTMC passes through a loop's taken edge, whose flow is
 *   a logged count, so the flow equations are acyclic and each V_i is an
 *   exact linear form in the counts.
 *
 * INTERVALS
 *   Normal (default; eqs. 6-8): each construct's mean count per execution
 *   gets the normal interval mean ± z·sd/√n at the simultaneous level
 *   c^(1/m) (Šidák; m parameters, c the overall confidence); p_i = τ/(τ+U)
 *   with τ the taken flow and U the not-taken flow (both linear forms in the
 *   mean counts), which rises with τ and falls with U, so the interval is
 *   [τ_lo/(τ_lo+U_hi), τ_hi/(τ_hi+U_lo)] with τ and U bounded by interval
 *   arithmetic — eq. 8's mapping (N_i/N_{i-1} and N_i/(N_{i-1}+N_i)).
 *   Wilson (option): the textbook Wilson score interval with N_i successes in
 *   V_i trials at the same per-construct level, for loops too (the body
 *   runs N_i out of the V_i visits of the condition); it is not degenerate
 *   when N_i = 0 or N_i = V_i (note: FACT's code multiplies the square-root
 *   term by z² instead of z; that is wrong and not reproduced here).
 *   A normal interval of zero width (every run has the same count: the
 *   standard deviation is 0) is flagged in est->zero_width: it does not
 *   express the uncertainty of a finite log, and callers must say so.
 *   Which to prefer: Wilson for branches that are rarely or almost always
 *   taken or small logs (its coverage stays near nominal and it never leaves
 *   [0,1]); the normal intervals when counts per execution vary a lot
 *   between runs (it uses the spread across runs, which Wilson's binomial
 *   model ignores when branch outcomes within a run are correlated).
 *
 *   Per-run totals of a nested construct (a nested loop's inner iterations
 *   or a conditional's taken count, paired with its loop's file) give
 *   τ = x_i and U = x_q (- x_i): eq. 9's ratio of the two totals' intervals,
 *   each from its run-level spread; conservative, as it ignores their
 *   correlation (tests/test_estimate.c: 1000/1000 at level 0.95^(1/2)).
 *
 * PROPERTY INTERVAL
 *   proper_estimate_property gives the expected reward at the point estimate
 *   and its range over a box (est->box):
 *   MEANS (default for normal intervals; the paper's Section 4.3.2 and
 *   FACT's): the simultaneous intervals of the mean counts (variables),
 *   each from its own sample size (a file's line count; FACT takes every
 *   parameter's from the last file it parsed). From a per-run log every
 *   expected reward is a linear form in the mean counts per run (sum of
 *   reward x visits, the flow forms), so the range is exact from the signs
 *   of its coefficients (corners where a flow would be negative are kept:
 *   wider, never narrower). From artifact files the reward at p(x) is
 *   evaluated at the corners of the box of the variables that matter (at
 *   most 2^PROPER_ESTIMATE_CORNERS_MAX): exact when the reward is monotone
 *   in each file's mean, as in structured code, where each mean enters the
 *   probability of its own construct and of the ones paired with it
 *   (tests/test_estimate.c checks the corners against a grid of the box).
 *   PROBABILITIES (Wilson, or by choice): the exact minimum and maximum over
 *   the box of parameter intervals (dtmc.h's proper_dtmc_param_reward_range
 *   on the model's chain: each parameter sits at one state). From artifact files it contains the
 *   MEANS range (the probability intervals bound p(x) over the same box);
 *   it is looser when a mean count enters two probabilities: a nested
 *   loop's p = mu_in / (mu_in + mu_out) and the outer loop's both move with
 *   mu_out, but the box lets each take its own extreme (the artifact's
 *   minPathSum time: 1.89-2.08x as wide, docs/annotated/artifact-results.md;
 *   coverage and width of both: docs/annotated-results.md). It may be
 *   infinite (a loop whose interval reaches 1); the MEANS range of a per-run
 *   log never is.
 *
 * OUTPUT RULE
 *   The readers (proper_estimate_counts_parse/read) and the estimators
 *   (proper_estimate_from_counts/from_artifact) write into an object the
 *   caller initialised (_init) or that holds an earlier result: it is
 *   replaced on success and left unchanged on failure; nothing leaks.
 *
 * CONFIGURATION
 *   PROPER_ESTIMATE_NAME_MAX  longest count-log column name, in bytes (31)
 *   PROPER_ESTIMATE_CORNERS_MAX  most variables enumerated at the corners of
 *                             the box of artifact means (16); beyond, an
 *                             error asks for the box of probabilities
 */
#ifndef PROPER_ESTIMATE_H
#define PROPER_ESTIMATE_H

#include "core.h"
#include "trace.h"
#include "stats.h"
#include "synth.h"

#ifndef PROPER_ESTIMATE_NAME_MAX
#define PROPER_ESTIMATE_NAME_MAX 31
#endif
#ifndef PROPER_ESTIMATE_CORNERS_MAX
#define PROPER_ESTIMATE_CORNERS_MAX 16
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A per-run count log. */
typedef struct proper_estimate_counts {
    size_t n_runs, n_cols;
    char (*names)[PROPER_ESTIMATE_NAME_MAX + 1]; /* column names */
    double *values;    /* n_runs x n_cols, row-major (NULL for totals) */
    int *lines;        /* source line of each run (for errors) */
    int is_totals;     /* 1: a totals file (no rows; n_runs is 0) */
    double *col_runs, *col_sum, *col_sum_sq; /* totals files: per column */
    char file[PROPER_ERROR_FILE_MAX];
} proper_estimate_counts;

/* The empty log; allocates nothing. */
PROPER_API void proper_estimate_counts_init(proper_estimate_counts *c);
/* Release; leaves c as after _init. */
PROPER_API void proper_estimate_counts_free(proper_estimate_counts *c);
/* A count log from text: a trace (first line "proper-trace": columns are
 * its counters, rows its records) or CSV. `file` names it in errors. */
PROPER_API int proper_estimate_counts_parse(proper_estimate_counts *c, const char *text, size_t len,
                                            const char *file, proper_error *err);
/* proper_estimate_counts_parse of the file at `path`. */
PROPER_API int proper_estimate_counts_read(proper_estimate_counts *c, const char *path, proper_error *err);

enum proper_estimate_method { PROPER_ESTIMATE_NORMAL = 0, PROPER_ESTIMATE_WILSON = 1 };

/* What proper_estimate_property ranges over (see PROPERTY INTERVAL). */
enum proper_estimate_box {
    PROPER_ESTIMATE_BOX_MEANS = 0,        /* the box of mean-count intervals (the paper's, FACT's) */
    PROPER_ESTIMATE_BOX_PROBABILITIES = 1 /* the box of probability intervals */
};

typedef struct proper_estimate {
    size_t n_params;
    double *p;              /* point estimates */
    double *lo, *hi;        /* simultaneous intervals */
    double *samples;        /* sample size behind each interval */
    double *taken, *reached;/* N_i and V_i, totals over the log */
    int *zero_width;        /* 1 where the interval has zero width although the
                               construct was reached: every run (line) had the
                               same count, so the normal interval's standard
                               deviation is 0 and it expresses no uncertainty */
    double confidence;      /* overall level c */
    double per_param_confidence; /* c^(1/m) */
    int method;             /* enum proper_estimate_method */
    int box;                /* enum proper_estimate_box: the estimators set
                               MEANS for normal intervals and PROBABILITIES
                               for Wilson's (which bound probabilities only);
                               a caller may switch a normal estimate to
                               PROBABILITIES before proper_estimate_property */
    int per_run;            /* 1: the variables are mean counts per run (a
                               per-run log): every expected reward is linear
                               in them; 0: per line of artifact files */
    size_t n_vars;          /* n_params + 1 */
    double *var_mean, *var_lo, *var_hi; /* variable j's mean and simultaneous
                               interval; variable 0 is the constant 1 */
    double *tau_form, *not_taken_form;  /* n_params x n_vars: p_i =
                               tau_i.x / (tau_i.x + not_taken_i.x) */
} proper_estimate;

/* The empty estimate (no parameters); allocates nothing. */
PROPER_API void proper_estimate_init(proper_estimate *est);

/* Estimates and intervals from a per-run count log. */
PROPER_API int proper_estimate_from_counts(proper_estimate *est, const proper_synth_model *m,
                                           const proper_estimate_counts *log, double confidence,
                                           int method, proper_error *err);

/* Estimates from artifact logs: files[i] is parameter i's file (NULL is an
 * error naming the parameter), parent[i] the index of the enclosing loop
 * whose file pairs line by line with a nested loop's per-run totals, or -1. */
PROPER_API int proper_estimate_from_artifact(proper_estimate *out, const proper_synth_model *m,
                                             const char *const *files, const int *parent,
                                             double confidence, int method, proper_error *err);

/* Release; leaves est as after _init. */
PROPER_API void proper_estimate_free(proper_estimate *est);

/* Expected reward at the point estimate and its exact range over the box of
 * parameter intervals. */
PROPER_API int proper_estimate_property(const proper_synth_model *m, int reward,
                                        const proper_estimate *est, double *point, double *lo,
                                        double *hi, proper_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_ESTIMATE_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_ESTIMATE_IMPLEMENTATION
#define PROPER_ESTIMATE_IMPLEMENTATION

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the count log ---- */

PROPER_API void proper_estimate_counts_init(proper_estimate_counts *c) { memset(c, 0, sizeof *c); }

PROPER_API void proper_estimate_counts_free(proper_estimate_counts *c) {
    PROPER_FREE(c->names);
    PROPER_FREE(c->values);
    PROPER_FREE(c->lines);
    PROPER_FREE(c->col_runs); PROPER_FREE(c->col_sum); PROPER_FREE(c->col_sum_sq);
    proper_estimate_counts_init(c);
}

static void proper__estimate_csv_field(proper_cursor *c, const char **s, size_t *n);

#define PROPER__ESTIMATE_TOTALS_MAGIC "proper-count-totals 1"
#define PROPER__ESTIMATE_EXACT 9007199254740992.0 /* 2^53 */

/* One field of a totals row: a whole number below 2^53 (read exactly). */
static int proper__estimate_totals_number(proper_cursor *cur, const char *name, double *out, proper_error *err) {
    proper_cursor at = *cur;
    long long v;
    int rc = proper_parse_int(cur, &v, err);
    if (rc) return rc;
    if (v < 0 || (double)v >= PROPER__ESTIMATE_EXACT)
        return proper_cursor_error(&at, err, PROPER_ERANGE, "%s %lld is not in 0..2^53-1 (read exactly as a double)",
                                   name, v);
    *out = (double)v;
    return PROPER_OK;
}

/* A totals file (proper-mpi counts): the magic line, the header
 * `column,runs,sum,sum_sq`, one row per column. */
static int proper__estimate_counts_totals(proper_estimate_counts *c, const char *text, size_t len, const char *file,
                                          proper_error *err) {
    static const char header[] = "column,runs,sum,sum_sq";
    proper_cursor cur;
    size_t cap_names = 0, cap_r = 0, cap_s = 0, cap_q = 0;
    proper_cursor_init(&cur, text, len, file);
    c->is_totals = 1;
    while (cur.p < cur.end && *cur.p != '\n') proper_cursor_advance(&cur);
    if (cur.p < cur.end) proper_cursor_advance(&cur);
    if ((size_t)(cur.end - cur.p) < sizeof header - 1 || memcmp(cur.p, header, sizeof header - 1) != 0)
        return proper_cursor_error(&cur, err, PROPER_EPARSE, "expected the header '%s'", header);
    while (cur.p < cur.end && *cur.p != '\n') proper_cursor_advance(&cur);
    if (cur.p < cur.end) proper_cursor_advance(&cur);
    while (cur.p < cur.end) {
        const char *name;
        size_t n = c->n_cols, len_name;
        proper_cursor at = cur;
        int rc;
        proper__estimate_csv_field(&cur, &name, &len_name);
        if (len_name == 0 && cur.p < cur.end && *cur.p == '\n') { proper_cursor_advance(&cur); continue; }
        if (len_name == 0 || len_name > PROPER_ESTIMATE_NAME_MAX)
            return proper_cursor_error(&at, err, PROPER_EPARSE, "expected a column name of 1..%d bytes",
                                       PROPER_ESTIMATE_NAME_MAX);
        if (proper_reserve(&c->names, &cap_names, n + 1, sizeof *c->names) ||
            proper_reserve(&c->col_runs, &cap_r, n + 1, sizeof *c->col_runs) ||
            proper_reserve(&c->col_sum, &cap_s, n + 1, sizeof *c->col_sum) ||
            proper_reserve(&c->col_sum_sq, &cap_q, n + 1, sizeof *c->col_sum_sq))
            return proper_cursor_error(&at, err, PROPER_ENOMEM, "out of memory");
        memset(c->names[n], 0, sizeof *c->names);
        memcpy(c->names[n], name, len_name);
        if (cur.p >= cur.end || *cur.p != ',') return proper_cursor_error(&cur, err, PROPER_EPARSE, "expected ',' and runs");
        proper_cursor_advance(&cur);
        if ((rc = proper__estimate_totals_number(&cur, "runs", &c->col_runs[n], err))) return rc;
        if (cur.p >= cur.end || *cur.p != ',') return proper_cursor_error(&cur, err, PROPER_EPARSE, "expected ',' and sum");
        proper_cursor_advance(&cur);
        if ((rc = proper__estimate_totals_number(&cur, "sum", &c->col_sum[n], err))) return rc;
        if (cur.p >= cur.end || *cur.p != ',') return proper_cursor_error(&cur, err, PROPER_EPARSE, "expected ',' and sum_sq");
        proper_cursor_advance(&cur);
        if ((rc = proper__estimate_totals_number(&cur, "sum_sq", &c->col_sum_sq[n], err))) return rc;
        proper_cursor_skip_blanks(&cur);
        if (cur.p < cur.end && *cur.p != '\n') return proper_cursor_error(&cur, err, PROPER_EPARSE, "expected the end of the row");
        if (cur.p < cur.end) proper_cursor_advance(&cur);
        c->n_cols = n + 1;
    }
    if (c->n_cols == 0) return proper_cursor_error(&cur, err, PROPER_EPARSE, "totals file has no columns");
    return PROPER_OK;
}

/* Reads one CSV field's raw extent at the cursor (up to ',' or end of line). */
static void proper__estimate_csv_field(proper_cursor *c, const char **s, size_t *n) {
    const char *start;
    proper_cursor_skip_blanks(c);
    start = c->p;
    while (c->p < c->end && *c->p != ',' && *c->p != '\n') proper_cursor_advance(c);
    *s = start;
    *n = (size_t)(c->p - start);
    while (*n > 0 && (start[*n - 1] == ' ' || start[*n - 1] == '\t' || start[*n - 1] == '\r')) (*n)--;
}

static int proper__estimate_counts_header(proper_estimate_counts *c, proper_cursor *cur, proper_error *err) {
    size_t cap = 0;
    for (;;) {
        const char *s;
        size_t n;
        proper_cursor at = *cur;
        proper__estimate_csv_field(cur, &s, &n);
        if (n == 0) return proper_cursor_error(&at, err, PROPER_EPARSE, "empty column name in header");
        if (n > PROPER_ESTIMATE_NAME_MAX) return proper_cursor_error(&at, err, PROPER_EPARSE, "column name too long");
        if (proper_reserve(&c->names, &cap, c->n_cols + 1, sizeof *c->names))
            return proper_cursor_error(&at, err, PROPER_ENOMEM, "out of memory");
        memset(c->names[c->n_cols], 0, sizeof *c->names);
        memcpy(c->names[c->n_cols++], s, n);
        if (cur->p < cur->end && *cur->p == ',') { proper_cursor_advance(cur); continue; }
        if (cur->p < cur->end) proper_cursor_advance(cur); /* newline */
        return PROPER_OK;
    }
}

/* One row of counts (n_cols fields) at the cursor into row `r`. */
static int proper__estimate_counts_row(proper_estimate_counts *c, proper_cursor *cur, size_t r, proper_error *err) {
    size_t col;
    for (col = 0; col < c->n_cols; col++) {
        long long v;
        proper_cursor at;
        int rc;
        proper_cursor_skip_blanks(cur);
        at = *cur;
        if ((rc = proper_parse_int(cur, &v, err))) return rc;
        if (v < 0) return proper_cursor_error(&at, err, PROPER_ERANGE, "negative count %lld in column '%s'", v, c->names[col]);
        c->values[r * c->n_cols + col] = (double)v;
        proper_cursor_skip_blanks(cur);
        if (col + 1 < c->n_cols) {
            if (cur->p >= cur->end || *cur->p != ',')
                return proper_cursor_error(cur, err, PROPER_EPARSE, "expected ',' and %u more column(s) (header has %u)",
                                           (unsigned)(c->n_cols - col - 1), (unsigned)c->n_cols);
            proper_cursor_advance(cur);
        }
    }
    if (cur->p < cur->end && *cur->p != '\n')
        return proper_cursor_error(cur, err, PROPER_EPARSE, "more fields than the header's %u columns", (unsigned)c->n_cols);
    if (cur->p < cur->end) proper_cursor_advance(cur);
    return PROPER_OK;
}

/* CSV text into the empty log c (left partly filled on failure). */
static int proper__estimate_counts_csv(proper_estimate_counts *c, const char *text, size_t len, const char *file,
                                       proper_error *err) {
    proper_cursor cur;
    size_t cap_values = 0, cap_lines = 0;
    int rc;
    proper_cursor_init(&cur, text, len, file);
    while (cur.p < cur.end && (*cur.p == '\n' || *cur.p == '\r')) proper_cursor_advance(&cur);
    if (cur.p >= cur.end) return proper_cursor_error(&cur, err, PROPER_EPARSE, "empty log: expected a header row");
    if ((rc = proper__estimate_counts_header(c, &cur, err))) return rc;
    while (cur.p < cur.end) {
        int line = cur.line;
        proper_cursor_skip_blanks(&cur);
        if (cur.p < cur.end && *cur.p == '\n') { proper_cursor_advance(&cur); continue; } /* blank line */
        if (proper_reserve(&c->values, &cap_values, (c->n_runs + 1) * c->n_cols, sizeof *c->values) ||
            proper_reserve(&c->lines, &cap_lines, c->n_runs + 1, sizeof *c->lines))
            return proper_cursor_error(&cur, err, PROPER_ENOMEM, "out of memory");
        if ((rc = proper__estimate_counts_row(c, &cur, c->n_runs, err))) return rc;
        c->lines[c->n_runs++] = line;
    }
    if (c->n_runs == 0) return proper_cursor_error(&cur, err, PROPER_EPARSE, "log has no executions (only a header)");
    return PROPER_OK;
}

/* A trace's counters into the empty log c: one column per counter name,
 * one row per record. */
static int proper__estimate_counts_trace(proper_estimate_counts *c, const char *text, size_t len, const char *file,
                                         proper_error *err) {
    proper_trace t;
    size_t r, k;
    int rc;
    proper_trace_init(&t);
    if ((rc = proper_trace_parse(&t, text, len, file, err))) goto done;
    if (t.nrecords == 0) { rc = proper_error_set(err, PROPER_EPARSE, file, 0, 0, "trace has no records"); goto done; }
    c->n_runs = t.nrecords;
    c->n_cols = t.counters.n;
    c->names = (char (*)[PROPER_ESTIMATE_NAME_MAX + 1])proper_calloc(c->n_cols + 1, sizeof *c->names);
    c->values = (double *)proper_calloc(c->n_runs * c->n_cols + 1, sizeof *c->values);
    c->lines = (int *)proper_calloc(c->n_runs, sizeof *c->lines);
    if (!c->names || !c->values || !c->lines) { rc = proper_error_set(err, PROPER_ENOMEM, file, 0, 0, "out of memory"); goto done; }
    for (k = 0; k < c->n_cols; k++) strncpy(c->names[k], t.counters.names[k], PROPER_ESTIMATE_NAME_MAX);
    for (r = 0; r < c->n_runs; r++) {
        c->lines[r] = t.records[r].line;
        for (k = 0; k < c->n_cols; k++) c->values[r * c->n_cols + k] = proper_trace_record_counter(&t.records[r], k);
    }
done:
    proper_trace_free(&t);
    return rc;
}

PROPER_API int proper_estimate_counts_parse(proper_estimate_counts *out, const char *text, size_t len, const char *file,
                                            proper_error *err) {
    proper_estimate_counts c;
    int rc;
    proper_estimate_counts_init(&c);
    if (file) strncpy(c.file, file, sizeof c.file - 1);
    if (len >= 12 && memcmp(text, "proper-trace", 12) == 0) rc = proper__estimate_counts_trace(&c, text, len, file, err);
    else if (len >= sizeof PROPER__ESTIMATE_TOTALS_MAGIC - 1 &&
             memcmp(text, PROPER__ESTIMATE_TOTALS_MAGIC, sizeof PROPER__ESTIMATE_TOTALS_MAGIC - 1) == 0)
        rc = proper__estimate_counts_totals(&c, text, len, file, err);
    else rc = proper__estimate_counts_csv(&c, text, len, file, err);
    if (rc) {
        proper_estimate_counts_free(&c);
        return rc;
    }
    proper_estimate_counts_free(out);
    *out = c;
    return PROPER_OK;
}

PROPER_API int proper_estimate_counts_read(proper_estimate_counts *c, const char *path, proper_error *err) {
    char *text;
    size_t len;
    int rc = proper_read_file(path, &text, &len, err);
    if (rc) return rc;
    rc = proper_estimate_counts_parse(c, text, len, path, err);
    PROPER_FREE(text);
    return rc;
}

/* ---- flow forms ----
 * A linear form over the variables x_0 = 1 (one per execution) and
 * x_{1+j} = mean count of construct j: coefficients, length m + 1. */

typedef struct proper__estimate_flows {
    size_t m;       /* parameters */
    double *tau;    /* n_params x (m+1): taken flow of each construct */
    double *not_taken; /* n_params x (m+1): not-taken flow */
    double *entries;   /* n_params x (m+1): loops: entries from outside the loop */
    double *visits;    /* n_states x (m+1): visits of each state */
} proper__estimate_flows;

static void proper__estimate_flows_free(proper__estimate_flows *f) {
    PROPER_FREE(f->tau);
    PROPER_FREE(f->not_taken);
    PROPER_FREE(f->entries);
    PROPER_FREE(f->visits);
}

/* Depth-first ordering of states so that each comes after the states its
 * visits depend on (see the header: plain and not-taken edges, and a do
 * loop's `do` state for its back edge). */
static int proper__estimate_flow_order(const proper_synth_model *m, size_t *order, proper_error *err) {
    size_t n = m->n_states, i, k, n_out = 0;
    unsigned char *mark = (unsigned char *)proper_calloc(n, 1); /* 0 new, 1 open, 2 done */
    size_t *preds = NULL, *start = (size_t *)proper_calloc(n + 1, sizeof *start), *fill = NULL;
    size_t *stack = (size_t *)proper_calloc(n, sizeof *stack), *iter = (size_t *)proper_calloc(n, sizeof *iter);
    int rc = PROPER_OK;
    if (!mark || !start || !stack || !iter) { rc = PROPER_ENOMEM; goto done; }
    /* dependency lists: s depends on u for every non-taken edge u -> s */
    for (i = 0; i < n; i++)
        if (i != m->end) start[m->states[i].next + 1]++;
    for (i = 0; i < m->n_params; i++)
        if (m->params[i].do_state != (size_t)-1) start[m->states[m->params[i].state].taken + 1]++;
    for (i = 0; i < n; i++) start[i + 1] += start[i];
    preds = (size_t *)proper_calloc(start[n] + 1, sizeof *preds);
    fill = (size_t *)proper_calloc(n, sizeof *fill);
    if (!preds || !fill) { rc = PROPER_ENOMEM; goto done; }
    for (i = 0; i < n; i++)
        if (i != m->end) { size_t t = m->states[i].next; preds[start[t] + fill[t]++] = i; }
    for (i = 0; i < m->n_params; i++)
        if (m->params[i].do_state != (size_t)-1) {
            size_t t = m->states[m->params[i].state].taken;
            preds[start[t] + fill[t]++] = m->params[i].do_state;
        }
    for (k = 0; k < n; k++) {
        size_t top = 0;
        if (mark[k]) continue;
        stack[top++] = k; mark[k] = 1; iter[k] = start[k];
        while (top) {
            size_t s = stack[top - 1];
            if (iter[s] < start[s + 1]) {
                size_t u = preds[iter[s]++];
                if (mark[u] == 1) {
                    rc = proper_error_set(err, PROPER_EUNSUPPORTED, NULL, m->states[u].line, 0,
                                          "cannot derive visit counts: a cycle without a loop edge");
                    goto done;
                }
                if (!mark[u]) { mark[u] = 1; iter[u] = start[u]; stack[top++] = u; }
            } else {
                mark[s] = 2;
                order[n_out++] = s;
                top--;
            }
        }
    }
done:
    if (rc == PROPER_ENOMEM) proper_error_set(err, rc, NULL, 0, 0, "out of memory");
    PROPER_FREE(mark); PROPER_FREE(preds); PROPER_FREE(start); PROPER_FREE(fill);
    PROPER_FREE(stack); PROPER_FREE(iter);
    return rc;
}

/* Taken flow of construct p: N_p, minus the loop entries (visits of the
 * `do` state) for a do loop's back edge. Needs the `do` state's visits. */
static void proper__estimate_taken_form(const proper_synth_model *m, size_t p, const double *visits, double *tau) {
    size_t j, w = m->n_params + 1;
    for (j = 0; j < w; j++) tau[j] = 0.0;
    tau[1 + p] = 1.0;
    if (m->params[p].do_state != (size_t)-1)
        for (j = 0; j < w; j++) tau[j] -= visits[m->params[p].do_state * w + j];
}

/* Entries of loop p from outside: visits of its `do` state, or the flows
 * into its condition state from states outside its body. */
static void proper__estimate_entry_form(const proper_synth_model *m, const proper__estimate_flows *f, size_t p,
                                   const double *visits, double *entry) {
    const proper_synth_param *lp = &m->params[p];
    size_t j, u, w = m->n_params + 1;
    for (j = 0; j < w; j++) entry[j] = 0.0;
    if (lp->do_state != (size_t)-1) {
        for (j = 0; j < w; j++) entry[j] = visits[lp->do_state * w + j];
        return;
    }
    if (lp->state == m->initial) entry[0] = 1.0; /* the function starts with the loop: one entry per run */
    for (u = 0; u < m->n_states; u++) {
        const proper_synth_state *st = &m->states[u];
        if (u == m->end || u == lp->state || (u >= lp->body_first && u < lp->body_end)) continue;
        if (st->param >= 0) {
            const double *tau = f->tau + (size_t)st->param * w;
            if (st->taken == lp->state) for (j = 0; j < w; j++) entry[j] += tau[j];
            if (st->next == lp->state) for (j = 0; j < w; j++) entry[j] += visits[u * w + j] - tau[j];
        } else if (st->next == lp->state) {
            for (j = 0; j < w; j++) entry[j] += visits[u * w + j];
        }
    }
}

/* Taken and not-taken flows of every construct as linear forms. Visits are
 * pulled in dependency order: each state sums the flows of its incoming
 * edges (plain: the source's visits; taken: the construct's taken flow;
 * not taken: the source's visits minus its taken flow). */
static int proper__estimate_flows_build(const proper_synth_model *m, proper__estimate_flows *f, proper_error *err) {
    size_t n = m->n_states, w = m->n_params + 1, i, k, j;
    size_t *order = (size_t *)proper_calloc(n, sizeof *order);
    double *visits = (double *)proper_calloc(n * w, sizeof *visits);
    int rc;
    f->m = m->n_params;
    f->tau = (double *)proper_calloc(m->n_params * w + 1, sizeof *f->tau);
    f->not_taken = (double *)proper_calloc(m->n_params * w + 1, sizeof *f->not_taken);
    f->entries = (double *)proper_calloc(m->n_params * w + 1, sizeof *f->entries);
    if (!order || !visits || !f->tau || !f->not_taken || !f->entries) {
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    if ((rc = proper__estimate_flow_order(m, order, err))) goto done;
    for (k = 0; k < n; k++) {
        size_t s = order[k];
        double *vs = visits + s * w;
        if (s == m->initial) vs[0] += 1.0;
        for (i = 0; i < n; i++) { /* incoming edges of s */
            const proper_synth_state *st = &m->states[i];
            if (i == m->end) continue;
            if (st->param >= 0) {
                double *tau = f->tau + (size_t)st->param * w;
                if (st->taken == s || st->next == s) proper__estimate_taken_form(m, (size_t)st->param, visits, tau);
                if (st->taken == s) for (j = 0; j < w; j++) vs[j] += tau[j];
                if (st->next == s) for (j = 0; j < w; j++) vs[j] += visits[i * w + j] - tau[j];
            } else if (st->next == s) {
                for (j = 0; j < w; j++) vs[j] += visits[i * w + j];
            }
        }
    }
    for (i = 0; i < m->n_params; i++) {
        size_t st = m->params[i].state;
        proper__estimate_taken_form(m, i, visits, f->tau + i * w);
        for (j = 0; j < w; j++) f->not_taken[i * w + j] = visits[st * w + j] - f->tau[i * w + j];
    }
    for (i = 0; i < m->n_params; i++)
        if (m->params[i].is_loop) proper__estimate_entry_form(m, f, i, visits, f->entries + i * w);
    f->visits = visits;
    visits = NULL;
done:
    PROPER_FREE(order);
    PROPER_FREE(visits);
    if (rc) proper__estimate_flows_free(f);
    return rc;
}

static double proper__estimate_form_at(const double *form, const double *x, size_t w) {
    double s = 0.0;
    size_t j;
    for (j = 0; j < w; j++) s += form[j] * x[j];
    return s;
}

/* Interval of a linear form over boxes [lo_j, hi_j] (interval arithmetic). */
static void proper__estimate_form_range(const double *form, const double *lo, const double *hi, size_t w,
                               double *out_lo, double *out_hi) {
    double a = 0.0, b = 0.0;
    size_t j;
    for (j = 0; j < w; j++) {
        if (form[j] >= 0) { a += form[j] * lo[j]; b += form[j] * hi[j]; }
        else { a += form[j] * hi[j]; b += form[j] * lo[j]; }
    }
    *out_lo = a;
    *out_hi = b;
}

static double proper__estimate_clamp01(double x) { return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x; }

/* p = τ/(τ+U) rises with τ and falls with U. */
static void proper__estimate_ratio_interval(double tau_lo, double tau_hi, double u_lo, double u_hi, double *lo, double *hi) {
    if (tau_lo < 0.0) tau_lo = 0.0;
    if (u_lo < 0.0) u_lo = 0.0;
    *lo = tau_lo + u_hi > 0.0 ? proper__estimate_clamp01(tau_lo / (tau_lo + u_hi)) : 0.0;
    *hi = tau_hi + u_lo > 0.0 ? proper__estimate_clamp01(tau_hi / (tau_hi + u_lo)) : 1.0;
}

PROPER_API void proper_estimate_init(proper_estimate *est) { memset(est, 0, sizeof *est); }

PROPER_API void proper_estimate_free(proper_estimate *est) {
    PROPER_FREE(est->p); PROPER_FREE(est->lo); PROPER_FREE(est->hi);
    PROPER_FREE(est->samples); PROPER_FREE(est->taken); PROPER_FREE(est->reached);
    PROPER_FREE(est->zero_width);
    PROPER_FREE(est->var_mean); PROPER_FREE(est->var_lo); PROPER_FREE(est->var_hi);
    PROPER_FREE(est->tau_form); PROPER_FREE(est->not_taken_form);
    proper_estimate_init(est);
}

/* On success replace *out by the new estimate *est, else release *est. */
static int proper__estimate_deliver(proper_estimate *out, proper_estimate *est, int rc) {
    if (rc) {
        proper_estimate_free(est);
        return rc;
    }
    proper_estimate_free(out);
    *out = *est;
    return PROPER_OK;
}

/* Allocates the empty estimate est for m parameters. */
static int proper__estimate_alloc(proper_estimate *est, size_t m, double confidence, int method, proper_error *err) {
    proper_estimate_init(est);
    if (!(confidence > 0.0 && confidence < 1.0))
        return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "confidence %g is not in (0, 1)", confidence);
    if (method != PROPER_ESTIMATE_NORMAL && method != PROPER_ESTIMATE_WILSON)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "unknown interval method %d", method);
    est->n_params = m;
    est->confidence = confidence;
    est->per_param_confidence = m ? proper_stats_sidak_level(confidence, m) : confidence;
    est->method = method;
    est->box = method == PROPER_ESTIMATE_WILSON ? PROPER_ESTIMATE_BOX_PROBABILITIES : PROPER_ESTIMATE_BOX_MEANS;
    est->n_vars = m + 1;
    est->var_mean = (double *)proper_calloc(m + 1, sizeof(double));
    est->var_lo = (double *)proper_calloc(m + 1, sizeof(double));
    est->var_hi = (double *)proper_calloc(m + 1, sizeof(double));
    est->tau_form = (double *)proper_calloc(m * (m + 1) + 1, sizeof(double));
    est->not_taken_form = (double *)proper_calloc(m * (m + 1) + 1, sizeof(double));
    est->p = (double *)proper_calloc(m + 1, sizeof(double));
    est->lo = (double *)proper_calloc(m + 1, sizeof(double));
    est->hi = (double *)proper_calloc(m + 1, sizeof(double));
    est->samples = (double *)proper_calloc(m + 1, sizeof(double));
    est->taken = (double *)proper_calloc(m + 1, sizeof(double));
    est->reached = (double *)proper_calloc(m + 1, sizeof(double));
    est->zero_width = (int *)proper_calloc(m + 1, sizeof(int));
    if (!est->p || !est->lo || !est->hi || !est->samples || !est->taken || !est->reached || !est->zero_width ||
        !est->var_mean || !est->var_lo || !est->var_hi || !est->tau_form || !est->not_taken_form) {
        proper_estimate_free(est);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    }
    return PROPER_OK;
}

/* Given per-variable means and intervals (index 0 is the constant 1) and
 * the flow forms, fill point estimates and intervals. `n_samples[i]` is
 * the sample size behind construct i's count. */
static int proper__estimate_finish(proper_estimate *est, const proper_synth_model *m, const proper__estimate_flows *f,
                                   const double *mean, const double *lo, const double *hi,
                                   const double *n_samples, proper_error *err) {
    size_t i, w = m->n_params + 1;
    memcpy(est->var_mean, mean, w * sizeof *mean);
    memcpy(est->var_lo, lo, w * sizeof *lo);
    memcpy(est->var_hi, hi, w * sizeof *hi);
    if (m->n_params) {
        memcpy(est->tau_form, f->tau, m->n_params * w * sizeof *f->tau);
        memcpy(est->not_taken_form, f->not_taken, m->n_params * w * sizeof *f->not_taken);
    }
    for (i = 0; i < m->n_params; i++) {
        const double *tau = f->tau + i * w, *nt = f->not_taken + i * w;
        double t = proper__estimate_form_at(tau, mean, w), u = proper__estimate_form_at(nt, mean, w);
        double tl, th, ul, uh;
        est->samples[i] = n_samples[i];
        /* totals of integer counts with integer coefficients: whole numbers */
        est->taken[i] = floor(t * n_samples[i] + 0.5);
        est->reached[i] = floor((t + u) * n_samples[i] + 0.5);
        if (!(t + u > 0.0)) { /* never reached: the parameter does not matter */
            est->p[i] = 0.0; est->lo[i] = 0.0; est->hi[i] = 1.0;
            continue;
        }
        est->p[i] = proper__estimate_clamp01(t / (t + u));
        if (est->method == PROPER_ESTIMATE_WILSON) {
            proper_interval ci;
            int rc = proper_stats_wilson_interval(est->taken[i], est->reached[i], est->per_param_confidence, 0, &ci, err);
            if (rc) return rc;
            est->lo[i] = ci.lo;
            est->hi[i] = ci.hi;
        } else {
            proper__estimate_form_range(tau, lo, hi, w, &tl, &th);
            proper__estimate_form_range(nt, lo, hi, w, &ul, &uh);
            proper__estimate_ratio_interval(tl, th, ul, uh, &est->lo[i], &est->hi[i]);
        }
        est->zero_width[i] = !(est->hi[i] > est->lo[i]);
    }
    return PROPER_OK;
}

/* Whether the model has a tail call (a recursive function): the state that
 * jumps back to the entry, or (size_t)-1. */
static size_t proper__estimate_tail_call(const proper_synth_model *m) {
    size_t i;
    for (i = 0; i < m->n_states; i++)
        if (strcmp(m->states[i].what, "call") == 0) return i;
    return (size_t)-1;
}

/* Normal interval of a mean count from n, the sum and the sum of squares
 * (eqs. 6-7): mean ± z·sd/√n with sd² = (n Σx² − (Σx)²) / (n (n − 1));
 * the two products carry their rounding errors (fma), so the difference
 * is accurate even when the spread is small against the mean. A totals
 * file (exact sums) and the rows it came from give the same bits while
 * the sums stay below 2^53. */
static void proper__estimate_sums_interval(double n, double sum, double sum_sq, double z, double *mean, double *lo,
                                           double *hi) {
    double p = n * sum_sq, q = sum * sum, e = fma(n, sum_sq, -p) - fma(sum, sum, -q);
    double var = n > 1.0 ? ((p - q) + e) / (n * (n - 1.0)) : 0.0, sd = var > 0.0 ? sqrt(var) : 0.0;
    *mean = sum / n;
    *lo = *mean - z * sd / sqrt(n);
    *hi = *mean + z * sd / sqrt(n);
}

/* The same from the counts themselves. */
static void proper__estimate_mean_interval(const double *x, size_t stride, size_t n, double z, double *mean,
                                  double *lo, double *hi) {
    double s = 0.0, ss = 0.0;
    size_t r;
    for (r = 0; r < n; r++) { s += x[r * stride]; ss += x[r * stride] * x[r * stride]; }
    proper__estimate_sums_interval((double)n, s, ss, z, mean, lo, hi);
}

/* Column of parameter i: named pK or nK with K = i + 1. */
static int proper__estimate_counts_column(const proper_estimate_counts *log, size_t i) {
    size_t c;
    for (c = 0; c < log->n_cols; c++) {
        const char *nm = log->names[c];
        if ((nm[0] == 'p' || nm[0] == 'n' || nm[0] == 'P' || nm[0] == 'N') && nm[1] >= '1' && nm[1] <= '9') {
            char *end;
            unsigned long k = strtoul(nm + 1, &end, 10);
            if (*end == '\0' && k == i + 1) return (int)c;
        }
    }
    return -1;
}

/* Every run must be consistent with the code: no construct taken more
 * often than its statement was reached. */
static int proper__estimate_check_runs(const proper_synth_model *m, const proper__estimate_flows *f, const proper_estimate_counts *log,
                              const int *col, proper_error *err) {
    size_t r, i, w = m->n_params + 1;
    double *x = (double *)proper_calloc(w, sizeof *x);
    if (!x) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (r = 0; r < log->n_runs; r++) {
        x[0] = 1.0;
        for (i = 0; i < m->n_params; i++) x[1 + i] = log->values[r * log->n_cols + (size_t)col[i]];
        for (i = 0; i < m->n_params; i++) {
            double t = proper__estimate_form_at(f->tau + i * w, x, w), u = proper__estimate_form_at(f->not_taken + i * w, x, w);
            if (m->params[i].is_loop && x[1 + i] > 0.0 && proper__estimate_form_at(f->entries + i * w, x, w) < 0.5) {
                int line = log->lines[r];
                double ran = x[1 + i];
                PROPER_FREE(x);
                return proper_error_set(err, PROPER_ERANGE, log->file, line, 0,
                                        "execution %u: loop %s (source line %d) ran %g times but the other counts say it "
                                        "was never entered", (unsigned)(r + 1), m->params[i].name, m->params[i].line, ran);
            }
            if (t < 0.0 || u < 0.0) {
                int line = log->lines[r];
                PROPER_FREE(x);
                return proper_error_set(err, PROPER_ERANGE, log->file, line, 0,
                                        "execution %u: count of %s (%s at source line %d) is inconsistent with the "
                                        "other counts: the construct is reached %g times but taken %g times",
                                        (unsigned)(r + 1), m->params[i].name, m->params[i].is_loop ? "loop" : "conditional",
                                        m->params[i].line, t + u, t);
            }
        }
    }
    PROPER_FREE(x);
    return PROPER_OK;
}

static const char *proper__estimate_kind(const proper_synth_model *m, size_t i);

/* A totals file has no rows to check run by run (that stays with the map
 * step, which reads every row): every column of the model must count the
 * same runs (at least 2), and the mean counts must be possible: no
 * construct taken more often than reached on average. */
static int proper__estimate_check_totals(const proper_synth_model *m, const proper__estimate_flows *f,
                                         const proper_estimate_counts *log, const int *col, proper_error *err) {
    size_t i, w = m->n_params + 1;
    double *x = (double *)proper_calloc(w, sizeof *x), runs = m->n_params ? log->col_runs[col[0]] : 0.0;
    int rc = PROPER_OK;
    if (!x) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    x[0] = 1.0;
    for (i = 0; i < m->n_params && !rc; i++) {
        double r = log->col_runs[col[i]];
        if (r != runs)
            rc = proper_error_set(err, PROPER_EINVAL, log->file, 0, 0,
                                  "column %s counts %.0f run(s), %s %.0f: every run must log every construct (were "
                                  "logs with different columns added?)", log->names[col[i]], r, log->names[col[0]], runs);
        else if (r < 2)
            rc = proper_error_set(err, PROPER_EINVAL, log->file, 0, 0, "totals of %.0f run(s); intervals need at least 2", r);
        else x[1 + i] = log->col_sum[col[i]] / r;
    }
    for (i = 0; i < m->n_params && !rc; i++) {
        double t = proper__estimate_form_at(f->tau + i * w, x, w), u = proper__estimate_form_at(f->not_taken + i * w, x, w);
        if (t < -1e-9 * (1.0 + fabs(x[1 + i])) || u < -1e-9 * (1.0 + fabs(x[1 + i])))
            rc = proper_error_set(err, PROPER_ERANGE, log->file, 0, 0,
                                  "the mean counts are inconsistent: %s (%s at source line %d) is reached %g times per "
                                  "run on average but taken %g times", m->params[i].name, proper__estimate_kind(m, i),
                                  m->params[i].line, t + u, t);
    }
    PROPER_FREE(x);
    return rc;
}

PROPER_API int proper_estimate_from_counts(proper_estimate *out, const proper_synth_model *m,
                                           const proper_estimate_counts *log, double confidence, int method,
                                           proper_error *err) {
    proper_estimate est;
    size_t i, w = m->n_params + 1;
    int *col = NULL, rc;
    double *mean = NULL, *lo = NULL, *hi = NULL, *ns = NULL, z;
    proper__estimate_flows f;
    memset(&f, 0, sizeof f);
    if ((rc = proper__estimate_alloc(&est, m->n_params, confidence, method, err))) return rc;
    if (proper__estimate_tail_call(m) != (size_t)-1) {
        rc = proper_error_set(err, PROPER_EUNSUPPORTED, log->file, 0, 0,
                              "%s is recursive (the tail call at source line %d): a per-run count log does not say how "
                              "many calls each run made, so its parameters cannot be estimated from it; give artifact "
                              "logs (one line per call that reaches each construct)",
                              m->function, m->states[proper__estimate_tail_call(m)].line);
        goto done;
    }
    if (!log->is_totals && log->n_runs < 2) {
        rc = proper_error_set(err, PROPER_EINVAL, log->file, 0, 0, "log has %u execution(s); intervals need at least 2",
                              (unsigned)log->n_runs);
        goto done;
    }
    col = (int *)proper_calloc(w, sizeof *col);
    mean = (double *)proper_calloc(w, sizeof *mean);
    lo = (double *)proper_calloc(w, sizeof *lo);
    hi = (double *)proper_calloc(w, sizeof *hi);
    ns = (double *)proper_calloc(w, sizeof *ns);
    if (!col || !mean || !lo || !hi || !ns) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto done; }
    for (i = 0; i < m->n_params; i++) {
        col[i] = proper__estimate_counts_column(log, i);
        if (col[i] < 0) {
            rc = proper_error_set(err, PROPER_EUNDEFINED, log->file, 1, 0,
                                  "log has no column %s (or n%u) for the %s at source line %d", m->params[i].name,
                                  (unsigned)(i + 1), m->params[i].is_loop ? "loop" : "conditional", m->params[i].line);
            goto done;
        }
    }
    for (i = 0; i < log->n_cols; i++) { /* every pK / nK column must name a construct of the model, once */
        const char *nm = log->names[i];
        size_t k;
        if ((nm[0] == 'p' || nm[0] == 'n' || nm[0] == 'P' || nm[0] == 'N') && nm[1] >= '1' && nm[1] <= '9') {
            char *end;
            unsigned long kk = strtoul(nm + 1, &end, 10);
            if (*end != '\0') continue;
            if (kk > m->n_params) {
                rc = proper_error_set(err, PROPER_EINVAL, log->file, 1, 0,
                                      "column '%s', but the model of %s has %u conditional(s) and loop(s) (p1..p%u): "
                                      "is the log from another version of the code?", nm, m->function,
                                      (unsigned)m->n_params, (unsigned)m->n_params);
                goto done;
            }
            for (k = 0; k < i; k++)
                if (proper__estimate_counts_column(log, kk - 1) == (int)k) {
                    rc = proper_error_set(err, PROPER_EINVAL, log->file, 1, 0,
                                          "columns '%s' and '%s' both count %s (the %s at source line %d)",
                                          log->names[k], nm, m->params[kk - 1].name,
                                          m->params[kk - 1].is_loop ? "loop" : "conditional", m->params[kk - 1].line);
                    goto done;
                }
        }
    }
    if ((rc = proper__estimate_flows_build(m, &f, err))) goto done;
    if (!log->is_totals && (rc = proper__estimate_check_runs(m, &f, log, col, err))) goto done;
    if (log->is_totals && (rc = proper__estimate_check_totals(m, &f, log, col, err))) goto done;
    z = proper_stats_normal_quantile(0.5 + est.per_param_confidence / 2.0);
    mean[0] = lo[0] = hi[0] = 1.0; /* one execution per run, exactly */
    for (i = 0; i < m->n_params; i++) {
        if (log->is_totals) {
            size_t c = (size_t)col[i];
            proper__estimate_sums_interval(log->col_runs[c], log->col_sum[c], log->col_sum_sq[c], z, &mean[1 + i],
                                           &lo[1 + i], &hi[1 + i]);
            ns[i] = log->col_runs[c];
        } else {
            proper__estimate_mean_interval(log->values + col[i], log->n_cols, log->n_runs, z, &mean[1 + i], &lo[1 + i],
                                           &hi[1 + i]);
            ns[i] = (double)log->n_runs;
        }
    }
    est.per_run = 1;
    rc = proper__estimate_finish(&est, m, &f, mean, lo, hi, ns, err);
done:
    proper__estimate_flows_free(&f);
    PROPER_FREE(col); PROPER_FREE(mean); PROPER_FREE(lo); PROPER_FREE(hi); PROPER_FREE(ns);
    return proper__estimate_deliver(out, &est, rc);
}

/* Reads one artifact file: one non-negative integer per line. */
static int proper__estimate_read_column(const char *path, double **xs, size_t *n, proper_error *err) {
    char *text;
    size_t len, cap = 0;
    proper_cursor c;
    int rc = proper_read_file(path, &text, &len, err);
    *xs = NULL;
    *n = 0;
    if (rc) return rc;
    proper_cursor_init(&c, text, len, path);
    for (;;) {
        long long v;
        proper_cursor at;
        while (c.p < c.end && (*c.p == ' ' || *c.p == '\t' || *c.p == '\r' || *c.p == '\n')) proper_cursor_advance(&c);
        if (c.p >= c.end) break;
        at = c;
        if ((rc = proper_parse_int(&c, &v, err))) break;
        if (v < 0) { rc = proper_cursor_error(&at, err, PROPER_ERANGE, "negative count %lld", v); break; }
        proper_cursor_skip_blanks(&c);
        if (c.p < c.end && *c.p != '\n') { rc = proper_cursor_error(&c, err, PROPER_EPARSE, "expected one integer per line"); break; }
        if (PROPER_PUSH(*xs, *n, cap, (double)v)) { rc = proper_cursor_error(&at, err, PROPER_ENOMEM, "out of memory"); break; }
    }
    if (!rc && *n < 2)
        rc = proper_error_set(err, PROPER_EINVAL, path, 0, 0, "%u execution(s) reached this construct; intervals need at least 2",
                              (unsigned)*n);
    PROPER_FREE(text);
    if (rc) { PROPER_FREE(*xs); *xs = NULL; *n = 0; }
    return rc;
}

/* The innermost loop whose body holds parameter i's state, or -1. */
static int proper__estimate_enclosing_loop(const proper_synth_model *m, size_t i) {
    size_t j, s = m->params[i].state;
    int best = -1;
    for (j = 0; j < m->n_params; j++) {
        const proper_synth_param *lp = &m->params[j];
        if (j == i || !lp->is_loop || s < lp->body_first || s >= lp->body_end) continue;
        if (best < 0 || lp->body_first >= m->params[best].body_first) best = (int)j;
    }
    return best;
}

/* "the loop at source line 3" / "the conditional at source line 3" */
static const char *proper__estimate_kind(const proper_synth_model *m, size_t i) {
    return m->params[i].is_loop ? "loop" : "conditional";
}

/* The structure of the files must be the model's: each value possible for
 * its construct, a nested loop entered once per iteration of its parent,
 * and each file's line count the number of times the model says its
 * construct is reached (one line per reach; per run reaching a loop),
 * given the other files' totals and a number of runs N0 taken from the
 * first file that determines it. */
static int proper__estimate_artifact_structure(const proper_synth_model *m, const char *const *files, double **cols,
                                               const size_t *lens, const int *parent, proper_error *err) {
    size_t i, j, r, w = m->n_params + 1;
    proper__estimate_flows mf;
    double *x = (double *)proper_calloc(w, sizeof *x), n0 = -1;
    int rc = PROPER_OK, from = -1;
    memset(&mf, 0, sizeof mf);
    if (!x) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (i = 0; i < m->n_params; i++) {
        int q = parent[i];
        for (r = 0; r < lens[i]; r++) {
            double v = cols[i][r];
            if (!m->params[i].is_loop && q < 0 && v > 1.0) {
                int lq = proper__estimate_enclosing_loop(m, i);
                if (lq >= 0)
                    rc = proper_error_set(err, PROPER_ERANGE, files[i], (int)r + 1, 0,
                                          "count %g: the model's %s is the conditional at source line %d, inside the loop "
                                          "%s (source line %d); its file must have one 0/1 line per time it is reached, "
                                          "or per-run totals with one line per line of %s's file (it has %u, this %u)",
                                          v, m->params[i].name, m->params[i].line, m->params[lq].name,
                                          m->params[lq].line, m->params[lq].name, (unsigned)lens[lq], (unsigned)lens[i]);
                else
                    rc = proper_error_set(err, PROPER_ERANGE, files[i], (int)r + 1, 0,
                                          "count %g: the model's %s is the conditional at source line %d, so each line "
                                          "must be 0 or 1 (one line per time it is reached); is this a loop's file?",
                                          v, m->params[i].name, m->params[i].line);
                goto done;
            }
            if (m->params[i].do_state != (size_t)-1 && q < 0 && v < 1.0) {
                rc = proper_error_set(err, PROPER_ERANGE, files[i], (int)r + 1, 0,
                                      "count 0: the model's %s is the do-while loop at source line %d, whose body runs at "
                                      "least once each time it is reached", m->params[i].name, m->params[i].line);
                goto done;
            }
        }
    }
    /* a recursive function: the runs' activations are not counted by the
     * files, so the line counts cannot be checked against the model */
    if (proper__estimate_tail_call(m) != (size_t)-1) goto done;
    if ((rc = proper__estimate_flows_build(m, &mf, err))) goto done;
    for (i = 0; i < m->n_params; i++) {
        double t = 0.0;
        for (r = 0; r < lens[i]; r++) t += cols[i][r];
        x[1 + i] = t;
    }
    /* a nested loop's file pairs with its parent's: entered once per parent iteration */
    for (i = 0; i < m->n_params; i++) {
        const double *e = mf.entries + i * w;
        int q = parent[i], ok = 1;
        if (q < 0 || !m->params[i].is_loop) continue;
        for (j = 0; j < w; j++) ok = ok && e[j] == (j == 1 + (size_t)q ? 1.0 : 0.0);
        if (!ok) {
            rc = proper_error_set(err, PROPER_EUNSUPPORTED, files[i], 0, 0,
                                  "the model's %s (the loop at source line %d) is not entered exactly once per iteration "
                                  "of its enclosing loop %s (source line %d), so its per-run totals cannot be paired with "
                                  "that loop's file; use a per-run count log (--log)",
                                  m->params[i].name, m->params[i].line, m->params[q].name, m->params[q].line);
            goto done;
        }
    }
    /* reaches: conditionals their visits, loops outside loops their entries */
    for (i = 0; i < m->n_params && from < 0; i++) {
        const double *form = m->params[i].is_loop ? mf.entries + i * w : NULL;
        double rest = 0.0;
        if (parent[i] >= 0) continue;
        for (j = 0; j < w; j++) {
            double c = form ? form[j] : mf.tau[i * w + j] + mf.not_taken[i * w + j];
            if (j) rest += c * x[j];
            else if (c != 0.0) from = (int)i;
            if (!j) x[0] = c;
        }
        if (from >= 0) n0 = ((double)lens[i] - rest) / x[0];
    }
    if (from >= 0) {
        x[0] = n0;
        for (i = 0; i < m->n_params; i++) {
            const double *form = m->params[i].is_loop ? mf.entries + i * w : NULL;
            double expect = 0.0;
            if (parent[i] >= 0) continue;
            for (j = 0; j < w; j++) expect += (form ? form[j] : mf.tau[i * w + j] + mf.not_taken[i * w + j]) * x[j];
            if (fabs(expect - (double)lens[i]) > 0.5) {
                rc = proper_error_set(err, PROPER_EINVAL, files[i], 0, 0,
                                      "%u line(s), but the model (%s %s at source line %d) and the other files say it is "
                                      "reached %.0f time(s) (%.0f run(s), from %s's file): each file needs one line per "
                                      "time its construct is reached (per run, for a loop); is every file mapped to the "
                                      "right construct, in source order?",
                                      (unsigned)lens[i], proper__estimate_kind(m, i), m->params[i].name, m->params[i].line,
                                      expect, n0, m->params[from].name);
                goto done;
            }
        }
    }
done:
    PROPER_FREE(x);
    proper__estimate_flows_free(&mf);
    return rc;
}

/* Whether conditional i is reached exactly once per iteration of loop q:
 * its per-run visits are q's per-run body runs. */
static int proper__estimate_once_per_iteration(const proper__estimate_flows *mf, size_t w, size_t i, size_t q) {
    size_t j;
    for (j = 0; j < w; j++)
        if (mf->tau[i * w + j] + mf->not_taken[i * w + j] != (j == 1 + q ? 1.0 : 0.0)) return 0;
    return 1;
}

/* The enclosing loop a file is paired with line by line, or -1. A nested
 * loop: always the model's innermost enclosing loop. A conditional in a
 * loop: per-run totals (paired) when its file has as many lines as the
 * loop's and either the caller says so (':pK'), a count is above 1, or the
 * line count is not the loop's total iterations (one 0/1 line per reach);
 * otherwise one line per reach. A pairing the model contradicts is an
 * error. */
static int proper__estimate_artifact_parent(const proper_synth_model *m, const proper__estimate_flows *mf,
                                            const char *const *files, double *const *cols, const size_t *lens,
                                            size_t i, int given, int *parent, proper_error *err) {
    size_t r, w = m->n_params + 1;
    int q = proper__estimate_enclosing_loop(m, i), above_one = 0;
    double iterations = 0.0;
    *parent = -1;
    if (given >= 0 && given != q) {
        if (q < 0)
            return proper_error_set(err, PROPER_EINVAL, files[i], 0, 0,
                                    "%s is paired with %s, but in the model %s (the %s at source line %d) is not inside "
                                    "a loop: drop the pairing",
                                    m->params[i].name, (size_t)given < m->n_params ? m->params[given].name : "?",
                                    m->params[i].name, proper__estimate_kind(m, i), m->params[i].line);
        return proper_error_set(err, PROPER_EINVAL, files[i], 0, 0,
                                "%s is paired with %s, but in the model the %s %s (source line %d) is inside the loop "
                                "%s (source line %d)",
                                m->params[i].name, (size_t)given < m->n_params ? m->params[given].name : "?",
                                proper__estimate_kind(m, i), m->params[i].name, m->params[i].line, m->params[q].name,
                                m->params[q].line);
    }
    if (q < 0) return PROPER_OK;
    if (m->params[i].is_loop) { *parent = q; return PROPER_OK; }
    for (r = 0; r < lens[i]; r++) above_one = above_one || cols[i][r] > 1.0;
    for (r = 0; r < lens[(size_t)q]; r++) iterations += cols[q][r];
    if (lens[i] != lens[(size_t)q] || !(given == q || above_one || (double)lens[i] != iterations)) return PROPER_OK;
    if (!mf->tau || !proper__estimate_once_per_iteration(mf, w, i, (size_t)q))
        return proper_error_set(err, PROPER_EUNSUPPORTED, files[i], 0, 0,
                                "%u line(s) like the file of the loop %s (source line %d), read as per-run totals; but the "
                                "model's conditional %s (source line %d) is not reached exactly once per iteration of "
                                "that loop, so its totals cannot be paired with the loop's: give one 0/1 line per time "
                                "it is reached, or a per-run count log (--log)",
                                (unsigned)lens[i], m->params[q].name, m->params[q].line, m->params[i].name,
                                m->params[i].line);
    for (r = 0; r < lens[i]; r++)
        if (cols[i][r] > cols[q][r])
            return proper_error_set(err, PROPER_ERANGE, files[i], (int)r + 1, 0,
                                    "count %g, but the paired line of %s's file says its loop (source line %d) "
                                    "iterated %g time(s): the conditional %s (source line %d), reached once per "
                                    "iteration, is taken at most that often",
                                    cols[i][r], m->params[q].name, m->params[q].line, cols[q][r], m->params[i].name,
                                    m->params[i].line);
    *parent = q;
    return PROPER_OK;
}

/* Artifact logs: variable j is construct j's mean count per line of its
 * file. Branch: τ = x_i, U = 1 - x_i; loop: τ = x_i, U = 1 (one exit per
 * entry); nested loop paired with parent q: τ = x_i, U = x_q; conditional
 * in loop q given as per-run totals (paired with q's file): τ = x_i,
 * U = x_q - x_i, the ratio of totals with each total's run-level spread
 * (eq. 9). A do-while loop's condition is taken one time less than its
 * body runs per entry: τ = x_i - 1 (nested: x_i - x_q). */
PROPER_API int proper_estimate_from_artifact(proper_estimate *out, const proper_synth_model *m,
                                             const char *const *files, const int *parent_in, double confidence,
                                             int method, proper_error *err) {
    proper_estimate est;
    size_t i, w = m->n_params + 1;
    double **cols = NULL, *mean = NULL, *lo = NULL, *hi = NULL, *ns = NULL, z;
    size_t *lens = NULL;
    int *parent = NULL;
    proper__estimate_flows f, mf;
    int rc;
    memset(&f, 0, sizeof f);
    memset(&mf, 0, sizeof mf);
    if ((rc = proper__estimate_alloc(&est, m->n_params, confidence, method, err))) return rc;
    cols = (double **)proper_calloc(w, sizeof *cols);
    lens = (size_t *)proper_calloc(w, sizeof *lens);
    parent = (int *)proper_calloc(w, sizeof *parent);
    mean = (double *)proper_calloc(w, sizeof *mean);
    lo = (double *)proper_calloc(w, sizeof *lo);
    hi = (double *)proper_calloc(w, sizeof *hi);
    ns = (double *)proper_calloc(w, sizeof *ns);
    f.tau = (double *)proper_calloc(w * w, sizeof *f.tau);
    f.not_taken = (double *)proper_calloc(w * w, sizeof *f.not_taken);
    if (!cols || !lens || !parent || !mean || !lo || !hi || !ns || !f.tau || !f.not_taken) {
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    z = proper_stats_normal_quantile(0.5 + est.per_param_confidence / 2.0);
    mean[0] = lo[0] = hi[0] = 1.0;
    for (i = 0; i < m->n_params; i++) {
        if (!files[i]) {
            rc = proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "no log file for %s (the %s at source line %d)",
                                  m->params[i].name, m->params[i].is_loop ? "loop" : "conditional", m->params[i].line);
            goto done;
        }
        if ((rc = proper__estimate_read_column(files[i], &cols[i], &lens[i], err))) goto done;
        proper__estimate_mean_interval(cols[i], 1, lens[i], z, &mean[1 + i], &lo[1 + i], &hi[1 + i]);
        ns[i] = (double)lens[i];
    }
    /* the per-run flows say which conditionals are reached once per loop
     * iteration; a recursive function has none (its runs' calls are not
     * counted), and its conditionals are read one line per reach */
    if (proper__estimate_tail_call(m) == (size_t)-1 && (rc = proper__estimate_flows_build(m, &mf, err))) goto done;
    for (i = 0; i < m->n_params; i++)
        if ((rc = proper__estimate_artifact_parent(m, &mf, files, cols, lens, i, parent_in ? parent_in[i] : -1,
                                                   &parent[i], err)))
            goto done;
    for (i = 0; i < m->n_params; i++) {
        int q = parent[i];
        if (q >= 0 && lens[q] != lens[i]) {
            rc = proper_error_set(err, PROPER_EINVAL, files[i], 0, 0,
                                  "%u line(s), but the model's %s (the loop at source line %d) is nested in %s (source "
                                  "line %d), whose file %s has %u: a nested loop's file needs one line per line of its "
                                  "parent's (the run's total inner iterations)",
                                  (unsigned)lens[i], m->params[i].name, m->params[i].line, m->params[q].name,
                                  m->params[q].line, files[q], (unsigned)lens[q]);
            goto done;
        }
    }
    if ((rc = proper__estimate_artifact_structure(m, files, cols, lens, parent, err))) goto done;
    for (i = 0; i < m->n_params; i++) {
        double *tau = f.tau + i * w, *nt = f.not_taken + i * w;
        int q = parent[i], is_do = m->params[i].do_state != (size_t)-1;
        tau[1 + i] = 1.0;
        if (!m->params[i].is_loop && q < 0) { nt[0] = 1.0; nt[1 + i] = -1.0; }
        else if (!m->params[i].is_loop) { nt[1 + (size_t)q] = 1.0; nt[1 + i] = -1.0; }
        else if (q < 0) { nt[0] = 1.0; if (is_do) tau[0] = -1.0; }
        else { nt[1 + (size_t)q] = 1.0; if (is_do) tau[1 + (size_t)q] = -1.0; }
    }
    est.per_run = 0;
    rc = proper__estimate_finish(&est, m, &f, mean, lo, hi, ns, err);
done:
    for (i = 0; cols && i < w; i++) PROPER_FREE(cols[i]);
    PROPER_FREE(cols); PROPER_FREE(lens); PROPER_FREE(parent); PROPER_FREE(mean); PROPER_FREE(lo); PROPER_FREE(hi);
    PROPER_FREE(ns);
    proper__estimate_flows_free(&f);
    proper__estimate_flows_free(&mf);
    return proper__estimate_deliver(out, &est, rc);
}

/* Per-run mean counts: the expected reward is sum_s r_s visits_s(x), and
 * every visits_s is a linear form in x (flow conservation, see POINT
 * ESTIMATES), so its range over the box follows from the signs of the
 * coefficients. Corners where a flow would be negative are not programs'
 * mean counts; including them only widens the interval. Rewards are
 * non-negative, so is the lower end. */
static int proper__estimate_range_linear(const proper_synth_model *m, int reward, const proper_estimate *est,
                                         double *lo, double *hi, proper_error *err) {
    proper__estimate_flows f;
    size_t s, j, w = est->n_vars;
    double *c = (double *)proper_calloc(w, sizeof *c);
    int rc;
    memset(&f, 0, sizeof f);
    if (!c) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    if ((rc = proper__estimate_flows_build(m, &f, err)) == PROPER_OK) {
        const double *r = m->dtmc.rewards[reward].state;
        for (s = 0; s < m->n_states; s++)
            if (r[s] != 0.0)
                for (j = 0; j < w; j++) c[j] += r[s] * f.visits[s * w + j];
        proper__estimate_form_range(c, est->var_lo, est->var_hi, w, lo, hi);
        if (*lo < 0.0) *lo = 0.0;
    }
    proper__estimate_flows_free(&f);
    PROPER_FREE(c);
    return rc;
}

/* The model's parameters at variables x: p_i = τ_i(x) / (τ_i(x) + U_i(x)),
 * each flow clamped at 0 (a corner beyond what a program can log). */
static void proper__estimate_params_at(const proper_estimate *est, const double *x, double *p) {
    size_t i, w = est->n_vars;
    for (i = 0; i < est->n_params; i++) {
        double t = proper__estimate_form_at(est->tau_form + i * w, x, w);
        double u = proper__estimate_form_at(est->not_taken_form + i * w, x, w);
        if (t < 0.0) t = 0.0;
        if (u < 0.0) u = 0.0;
        p[i] = t + u > 0.0 ? proper__estimate_clamp01(t / (t + u)) : 0.0;
    }
}

/* Artifact variables (means per file line): the reward at p(x) over the
 * corners of the box of variables that enter some parameter and have an
 * interval of positive width. Each variable enters the probability of its
 * own construct (and of the constructs paired with it) as a linear-
 * fractional term, and the reward is linear-fractional in each
 * probability, so in the structured programs of the artifact the reward is
 * monotone in each variable and its extremes lie at corners. */
static int proper__estimate_range_corners(const proper_synth_model *m, int reward, const proper_estimate *est,
                                          double *lo, double *hi, proper_error *err) {
    size_t w = est->n_vars, j, i, n_free = 0, corner;
    size_t *free_vars = (size_t *)proper_calloc(w, sizeof *free_vars);
    double *x = (double *)proper_calloc(w, sizeof *x), *p = (double *)proper_calloc(w, sizeof *p);
    int rc = PROPER_OK;
    if (!free_vars || !x || !p) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto done; }
    for (j = 1; j < w; j++) {
        int used = 0;
        for (i = 0; i < est->n_params; i++)
            used = used || est->tau_form[i * w + j] != 0.0 || est->not_taken_form[i * w + j] != 0.0;
        if (used && est->var_hi[j] > est->var_lo[j]) free_vars[n_free++] = j;
    }
    if (n_free > PROPER_ESTIMATE_CORNERS_MAX) {
        rc = proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                              "the box of mean counts has %u free variables (2^%u corners; at most %d): use the box "
                              "of probability intervals", (unsigned)n_free, (unsigned)n_free, PROPER_ESTIMATE_CORNERS_MAX);
        goto done;
    }
    *lo = INFINITY;
    *hi = -INFINITY;
    for (corner = 0; corner < ((size_t)1 << n_free); corner++) {
        double v;
        memcpy(x, est->var_mean, w * sizeof *x);
        for (j = 0; j < n_free; j++) x[free_vars[j]] = (corner >> j & 1) ? est->var_hi[free_vars[j]] : est->var_lo[free_vars[j]];
        proper__estimate_params_at(est, x, p);
        if ((rc = proper_synth_expected_reward(m, reward, p, &v, err))) goto done;
        if (v < *lo) *lo = v;
        if (v > *hi) *hi = v;
    }
done:
    PROPER_FREE(free_vars); PROPER_FREE(x); PROPER_FREE(p);
    return rc;
}

/* The range over the box of probability intervals: dtmc.h's exact range
 * over a parameter box, on the model's chain with target "end". */
static int proper__estimate_range_box(const proper_synth_model *m, int reward, const proper_estimate *est, double *lo,
                                      double *hi, proper_error *err) {
    proper_bitset end;
    int rc;
    if (reward < 0 || (size_t)reward >= m->n_rewards)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no reward structure %d", reward);
    proper_bitset_init(&end);
    if (!(rc = proper_dtmc_label_get(&m->dtmc, "end", &end, err)))
        rc = proper_dtmc_param_reward_range(&m->dtmc, (size_t)reward, &end, est->lo, est->hi, NULL, lo, hi, NULL, NULL,
                                            NULL, err);
    proper_bitset_free(&end);
    return rc;
}

PROPER_API int proper_estimate_property(const proper_synth_model *m, int reward, const proper_estimate *est,
                                        double *point, double *lo, double *hi, proper_error *err) {
    int rc;
    if (est->n_params != m->n_params)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "estimate has %u parameters, model %u",
                                (unsigned)est->n_params, (unsigned)m->n_params);
    if ((rc = proper_synth_expected_reward(m, reward, est->p, point, err))) return rc;
    if (est->box == PROPER_ESTIMATE_BOX_PROBABILITIES) return proper__estimate_range_box(m, reward, est, lo, hi, err);
    if (est->method != PROPER_ESTIMATE_NORMAL)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "Wilson intervals bound probabilities, not mean counts: use the box of probabilities");
    if (est->per_run) return proper__estimate_range_linear(m, reward, est, lo, hi, err);
    return proper__estimate_range_corners(m, reward, est, lo, hi, err);
}

#endif /* PROPER_ESTIMATE_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
