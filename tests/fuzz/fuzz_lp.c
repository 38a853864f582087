/* Fuzz target for the CPLEX LP reader (lp.h) and what runs on its result.
 * Any input either parses or fails with a located error inside the input.
 * A parsed problem must keep its invariants, write and read back to the
 * same numbers, and (when small and moderately scaled) solve to the same
 * status and objective by the primal and the dual path of the native
 * simplex. Without PROPER_LIBFUZZER, main replays every file of argv[1]. */
#define PROPER_IMPLEMENTATION
#include "../../src/lp.h"

#include <stdlib.h>
#include <string.h>

#define FUZZ_SOLVE_SIZE 40   /* rows and columns solved per input, at most */
#define FUZZ_MAX_MAG 1e3     /* only moderately scaled problems are solved */

static void check_error(const proper_error *err, const char *text, size_t len) {
    size_t lines = 1, i;
    for (i = 0; i < len; i++) lines += text[i] == '\n';
    if (err->code == PROPER_ENOMEM) return;
    if (err->code >= 0 || err->message[0] == '\0' || err->line < 0 || (size_t)err->line > lines) abort();
}

static void check_invariants(const proper_lp *lp) {
    size_t i, k, j;
    if (lp->ncols == 0 || lp->row_start == NULL ? lp->nrows != 0 : lp->row_start[0] != 0) abort();
    for (i = 0; i < lp->nrows; i++) {
        if (lp->row_start[i + 1] < lp->row_start[i]) abort();
        if (!(lp->row_lo[i] <= lp->row_hi[i])) abort();
        for (k = lp->row_start[i]; k < lp->row_start[i + 1]; k++)
            if (lp->col_idx[k] >= lp->ncols || !isfinite(lp->val[k])) abort();
    }
    for (j = 0; j < lp->ncols; j++)
        if (!(lp->col_lo[j] <= lp->col_hi[j]) || !isfinite(lp->obj[j])) abort();
}

static void round_trip(const proper_lp *lp) {
    proper_strbuf text;
    size_t i;
    proper_lp back;
    proper_error err;
    int rc;
    proper_strbuf_init(&text);
    proper_lp_init(&back);
    rc = proper_lp_format_cplex(lp, &text, &err);
    if (rc == PROPER_EINVAL) return; /* a name clashes with a default name */
    if (rc) abort();
    if (proper_lp_parse_cplex(&back, text.data, text.len, "printed", &err)) abort();
    {
        /* ranged and free rows come back with one auxiliary column each */
        size_t aux = 0;
        for (i = 0; i < lp->nrows; i++)
            aux += lp->row_lo[i] != lp->row_hi[i] && (lp->row_lo[i] <= -PROPER_LP_INF) == (lp->row_hi[i] >= PROPER_LP_INF);
        if (back.ncols != lp->ncols + aux || back.nrows != lp->nrows) abort();
    }
    for (i = 0; i < lp->ncols; i++)
        if (back.obj[i] != lp->obj[i] || back.col_lo[i] != lp->col_lo[i] || back.col_hi[i] != lp->col_hi[i]) abort();
    for (i = 0; i < lp->nrows; i++) {
        int aux_row = lp->row_lo[i] != lp->row_hi[i] && (lp->row_lo[i] <= -PROPER_LP_INF) == (lp->row_hi[i] >= PROPER_LP_INF);
        if (aux_row ? back.row_lo[i] != 0 || back.row_hi[i] != 0
                    : back.row_lo[i] != lp->row_lo[i] || back.row_hi[i] != lp->row_hi[i])
            abort();
    }
    proper_lp_free(&back);
    proper_strbuf_free(&text);
}

static int moderate(double v) { return v == 0 || (fabs(v) >= 1 / FUZZ_MAX_MAG && fabs(v) <= FUZZ_MAX_MAG); }
static int moderate_bound(double v) { return moderate(v) || fabs(v) >= PROPER_LP_INF; }

/* Largest bound violation of a solution, relative to 1 + |bound|. */
static double violation(const proper_lp *lp, const proper_lp_solution *s) {
    size_t i, j;
    double worst = 0, v;
    for (j = 0; j < lp->ncols; j++) {
        v = (lp->col_lo[j] - s->x[j]) / (1 + fabs(lp->col_lo[j]));
        if (v > worst) worst = v;
        v = (s->x[j] - lp->col_hi[j]) / (1 + fabs(lp->col_hi[j]));
        if (v > worst) worst = v;
    }
    for (i = 0; i < lp->nrows; i++) {
        v = (lp->row_lo[i] - s->row_activity[i]) / (1 + fabs(lp->row_lo[i]));
        if (v > worst) worst = v;
        v = (s->row_activity[i] - lp->row_hi[i]) / (1 + fabs(lp->row_hi[i]));
        if (v > worst) worst = v;
    }
    return worst;
}

static void solve_both(const proper_lp *lp) {
    proper_lp_opts o = proper_lp_opts_default();
    proper_lp_solution a, b;
    size_t i;
    int ra, rb;
    if (lp->ncols > FUZZ_SOLVE_SIZE || lp->nrows > FUZZ_SOLVE_SIZE) return;
    for (i = 0; i < lp->nnz; i++) if (!moderate(lp->val[i])) return;
    for (i = 0; i < lp->ncols; i++)
        if (!moderate(lp->obj[i]) || !moderate_bound(lp->col_lo[i]) || !moderate_bound(lp->col_hi[i])) return;
    for (i = 0; i < lp->nrows; i++) if (!moderate_bound(lp->row_lo[i]) || !moderate_bound(lp->row_hi[i])) return;
    proper_lp_solution_init(&a);
    proper_lp_solution_init(&b);
    o.method = PROPER_LP_PRIMAL;
    ra = proper_lp_solve(lp, &o, &a, NULL);
    o.method = PROPER_LP_DUAL;
    rb = proper_lp_solve(lp, &o, &b, NULL);
    if (ra != rb && ra != PROPER_ENOCONV && rb != PROPER_ENOCONV) {
        /* allowed only on the edge of feasibility: one path calls it
         * infeasible, the other's optimum violates a bound by a hair */
        if (!((ra == 0 && rb == PROPER_EINFEASIBLE && violation(lp, &a) < 1e-7) ||
              (rb == 0 && ra == PROPER_EINFEASIBLE && violation(lp, &b) < 1e-7)))
            abort();
    }
    if (ra == 0 && rb == 0 && fabs(a.objective - b.objective) > 1e-6 * (1 + fabs(a.objective))) abort();
    proper_lp_solution_free(&a);
    proper_lp_solution_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    proper_lp lp;
    proper_error err;
    proper_lp_init(&lp);
    if (proper_lp_parse_cplex(&lp, (const char *)data, size, "f.lp", &err)) {
        check_error(&err, (const char *)data, size);
        if (lp.ncols) abort(); /* a failed parse leaves its output unchanged */
        return 0;
    }
    check_invariants(&lp);
    round_trip(&lp);
    solve_both(&lp);
    proper_lp_free(&lp);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_lp"
#include "replay.h"
