/* backends/glpk.h — the GLPK adapter: hands a linear program (lp.h) to
 * GLPK's command-line solver glpsol and reads its solution back.
 *
 * glpsol is optional: proper's native simplex (lp.h) needs nothing. The
 * adapter exists to cross-check and benchmark the native solver, and for
 * users who prefer GLPK. The backend is called "glpsol"; the binary is
 * $PROPER_GLPSOL, else glpsol in PATH (Debian: package glpk-utils).
 *
 * ---- Command line (glpsol --help, GLPK 5.0) -------------------------------
 *   glpsol --lp problem.lp -w solution.txt            (first attempt)
 *   glpsol --lp problem.lp --nopresol -w solution.txt (when the first run
 *                                                      leaves the status undefined)
 * The problem goes in CPLEX LP format as lp.h writes it: every column in
 * the objective in index order, so glpsol numbers columns as proper does;
 * ranged and free rows as "expr - ~rN = 0" with the range on an auxiliary
 * column after proper's columns; the objective constant as a comment (GLPK's
 * reader has no constant term), added back here.
 *
 * ---- Solution file (-w, glp_write_sol's plain text, GLPK 5.0) --------------
 *   c ...                                 comment lines
 *   s bas ROWS COLS PST DST OBJ           PST/DST: primal/dual status of the
 *                                         basic solution: f feasible, n no
 *                                         feasible solution exists, i
 *                                         infeasible (intermediate), u undefined
 *   i ROW ST PRIM DUAL                    per row: status (b l u f s), activity,
 *                                         dual value
 *   j COL ST PRIM DUAL                    per column: status, value, reduced cost
 *   e o f
 * Numbers are printed with 15 significant digits. With the presolver on
 * (glpsol's default), an infeasible or unbounded problem leaves "u u": the
 * adapter then solves again without it, where PST = n means infeasible and
 * PST = f with DST = n means unbounded. Dual values follow GLPK's
 * convention, which lp.h's native solver shares.
 *
 * ---- Errors ---------------------------------------------------------------
 * glpsol prints its messages on stdout ("problem.lp:4: missing variable
 * name") and exits with status 1; the adapter reports the last lines of its
 * output as PROPER_EBACKEND. A timeout is PROPER_ETIMEOUT.
 */
#ifndef PROPER_BACKEND_GLPK_H
#define PROPER_BACKEND_GLPK_H

#include "../src/lp.h"
#include "tool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parse a glpsol -w solution of `lp`. Like proper_lp_solve: an optimum
 * replaces the initialised `sol` and returns 0; an infeasible or unbounded
 * problem returns PROPER_EINFEASIBLE or PROPER_EUNBOUNDED, and a malformed
 * solution PROPER_EBACKEND, leaving sol unchanged. When glpsol left the
 * status undefined (presolver on, no optimum) *undefined is set, 0 is
 * returned and sol is unchanged. `file` names the text in errors. */
PROPER_API int proper_glpsol_parse_solution(const char *text, size_t len, const char *file, const proper_lp *lp,
                                            proper_lp_solution *sol, int *undefined, proper_error *err);

/* Solve lp with the glpsol binary at `binary` (timeout in seconds, <= 0 for
 * none). Returns like proper_lp_solve (sol initialised, replaced at an
 * optimum, else unchanged): 0 at an optimum, PROPER_EINFEASIBLE or
 * PROPER_EUNBOUNDED, PROPER_EBACKEND or PROPER_ETIMEOUT when glpsol fails. *seconds (may be NULL) receives the
 * time glpsol ran (both runs when it ran twice). */
PROPER_API int proper_glpsol_solve(const char *binary, const proper_lp *lp, double timeout, proper_lp_solution *sol,
                                   double *seconds, proper_error *err);

/* The backend ("glpsol"): probe and solve_lp. */
PROPER_API const proper_backend *proper_backend_glpk(void);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_BACKEND_GLPK_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_BACKEND_GLPK_IMPLEMENTATION
#define PROPER_BACKEND_GLPK_IMPLEMENTATION

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Skip spaces and tabs on one line. */
static void proper__glpk_blanks(proper_cursor *c) { proper_cursor_skip_blanks(c); }

static int proper__glpk_size(proper_cursor *c, size_t *out, proper_error *err) {
    long long v;
    int rc = proper_parse_int(c, &v, err);
    if (rc) return rc;
    if (v < 0) return proper_cursor_error(c, err, PROPER_EPARSE, "expected a count");
    *out = (size_t)v;
    return PROPER_OK;
}

static int proper__glpk_letter(proper_cursor *c, char *out, proper_error *err) {
    proper__glpk_blanks(c);
    if (c->p >= c->end || *c->p < 'a' || *c->p > 'z')
        return proper_cursor_error(c, err, PROPER_EPARSE, "expected a status letter");
    *out = *c->p;
    proper_cursor_advance(c);
    return PROPER_OK;
}

static void proper__glpk_skip_line(proper_cursor *c) {
    while (c->p < c->end && *c->p != '\n') proper_cursor_advance(c);
    if (c->p < c->end) proper_cursor_advance(c);
}

/* The "s bas ROWS COLS PST DST OBJ" line, after its 's'. */
static int proper__glpk_s_line(proper_cursor *c, const proper_lp *lp, size_t *rows, size_t *cols, char *pst, char *dst,
                               double *obj, proper_error *err) {
    int rc;
    proper__glpk_blanks(c);
    if ((size_t)(c->end - c->p) < 3 || memcmp(c->p, "bas", 3) != 0)
        return proper_cursor_error(c, err, PROPER_EBACKEND, "expected 's bas' (a basic solution)");
    proper_cursor_advance(c); proper_cursor_advance(c); proper_cursor_advance(c);
    if ((rc = proper__glpk_size(c, rows, err)) || (rc = proper__glpk_size(c, cols, err)) ||
        (rc = proper__glpk_letter(c, pst, err)) || (rc = proper__glpk_letter(c, dst, err)) ||
        (rc = proper_parse_double(c, obj, err)))
        return rc;
    if (*rows != lp->nrows || *cols < lp->ncols)
        return proper_cursor_error(c, err, PROPER_EBACKEND, "glpsol solved %zu rows and %zu columns; the LP has %zu and %zu",
                                   *rows, *cols, lp->nrows, lp->ncols);
    return PROPER_OK;
}

/* An "i ROW ST PRIM DUAL" or "j COL ST PRIM DUAL" line, after its letter. */
static int proper__glpk_ij_line(proper_cursor *c, char kind, size_t rows, size_t cols, const proper_lp *lp,
                                proper_lp_solution *sol, proper_error *err) {
    size_t idx = 0;
    char st = 0;
    double prim = 0, dual = 0;
    int rc;
    if ((rc = proper__glpk_size(c, &idx, err)) || (rc = proper__glpk_letter(c, &st, err)) ||
        (rc = proper_parse_double(c, &prim, err)) || (rc = proper_parse_double(c, &dual, err)))
        return rc;
    if (idx < 1 || idx > (kind == 'i' ? rows : cols))
        return proper_cursor_error(c, err, PROPER_EBACKEND, "index %zu out of range", idx);
    if (kind == 'i') sol->row_dual[idx - 1] = dual;
    else if (idx <= lp->ncols) {
        sol->x[idx - 1] = prim;
        sol->col_dual[idx - 1] = dual;
    }
    return PROPER_OK;
}

/* The outcome of statuses PST and DST: 0 (optimal, or *undefined set) or
 * an error. */
static int proper__glpk_outcome(char pst, char dst, const char *file, int *undefined, proper_error *err) {
    if (pst == 'f' && dst == 'f') return PROPER_OK;
    if (pst == 'n')
        return proper_error_set(err, PROPER_EINFEASIBLE, NULL, 0, 0, "glpsol: the LP is infeasible (no primal feasible solution)");
    if (pst == 'f' && dst == 'n') return proper_error_set(err, PROPER_EUNBOUNDED, NULL, 0, 0, "glpsol: the LP is unbounded");
    if (pst == 'u' || dst == 'u') {
        *undefined = 1;
        return PROPER_OK;
    }
    return proper_error_set(err, PROPER_EBACKEND, file, 0, 0, "glpsol ended without an optimum (status %c %c)", pst, dst);
}

static int proper__glpk_parse(proper_cursor *c, const proper_lp *lp, proper_lp_solution *sol, char *pst, char *dst,
                              proper_error *err) {
    size_t rows = 0, cols = 0, i, k, seen_rows = 0, seen_cols = 0;
    double obj = 0;
    int rc, have_s = 0, have_end = 0;
    while (c->p < c->end && !have_end) {
        char kind = *c->p;
        if (kind == 'c' || kind == '\n') { proper__glpk_skip_line(c); continue; }
        proper_cursor_advance(c);
        if (kind == 's') {
            if ((rc = proper__glpk_s_line(c, lp, &rows, &cols, pst, dst, &obj, err))) return rc;
            have_s = 1;
        } else if (kind == 'i' || kind == 'j') {
            if (!have_s) return proper_cursor_error(c, err, PROPER_EBACKEND, "row or column before the 's' line");
            if ((rc = proper__glpk_ij_line(c, kind, rows, cols, lp, sol, err))) return rc;
            if (kind == 'i') seen_rows++;
            else seen_cols++;
        } else if (kind == 'e') {
            have_end = 1;
        } else
            return proper_cursor_error(c, err, PROPER_EBACKEND, "unexpected line in a glpsol solution");
        proper__glpk_skip_line(c);
    }
    if (!have_s || !have_end || seen_rows != rows || seen_cols != cols)
        return proper_error_set(err, PROPER_EBACKEND, c->file, 0, 0,
                                "incomplete glpsol solution (%zu of %zu rows, %zu of %zu columns)", seen_rows, rows,
                                seen_cols, cols);
    /* activities in proper's terms (a ranged row's glpsol activity is 0) */
    for (i = 0; i < lp->nrows; i++) {
        double act = 0;
        for (k = lp->row_start[i]; k < lp->row_start[i + 1]; k++) act += lp->val[k] * sol->x[lp->col_idx[k]];
        sol->row_activity[i] = act;
    }
    sol->objective = obj + lp->obj_const;
    return PROPER_OK;
}

PROPER_API int proper_glpsol_parse_solution(const char *text, size_t len, const char *file, const proper_lp *lp,
                                            proper_lp_solution *sol, int *undefined, proper_error *err) {
    proper_cursor c;
    proper_lp_solution s;
    char pst = 0, dst = 0;
    int rc;
    *undefined = 0;
    proper_lp_solution_init(&s);
    if ((rc = proper_lp_solution_create(&s, lp->ncols, lp->nrows, err))) return rc;
    proper_cursor_init(&c, text, len, file);
    if (!(rc = proper__glpk_parse(&c, lp, &s, &pst, &dst, err)) &&
        !(rc = proper__glpk_outcome(pst, dst, file, undefined, err)) && !*undefined) {
        proper_lp_solution_free(sol);
        *sol = s;
        return PROPER_OK;
    }
    proper_lp_solution_free(&s);
    return rc;
}

/* The last few lines of a tool's output, for error messages. */
static void proper__glpk_tail(const char *s, size_t n, char *buf, size_t size) {
    size_t start = n, lines = 0;
    while (start > 0 && lines < 3) {
        start--;
        if (s[start] == '\n' && start + 1 < n) lines++;
    }
    if (s[start] == '\n') start++;
    snprintf(buf, size, "%.*s", (int)(n - start), s + start);
    for (start = 0; buf[start]; start++) if (buf[start] == '\n') buf[start] = ' ';
}

/* One glpsol run in directory d; parse the solution. */
static int proper__glpk_run(const char *binary, const proper_backend_tmpdir *d, const proper_lp *lp, int presolve,
                            double timeout, proper_lp_solution *sol, int *undefined, double *seconds,
                            proper_error *err) {
    char lp_path[PROPER_BACKEND_PATH_MAX], sol_path[PROPER_BACKEND_PATH_MAX], tail[400];
    const char *argv[8];
    proper_backend_run_opts opts = proper_backend_run_opts_default();
    proper_backend_run_result res;
    char *text = NULL;
    size_t len, n = 0;
    int rc;
    if ((rc = proper_backend_tmpdir_file(d, "problem.lp", lp_path, sizeof lp_path, err)) ||
        (rc = proper_backend_tmpdir_file(d, "solution.txt", sol_path, sizeof sol_path, err)))
        return rc;
    argv[n++] = binary;
    argv[n++] = "--lp";
    argv[n++] = lp_path;
    if (!presolve) argv[n++] = "--nopresol";
    argv[n++] = "-w";
    argv[n++] = sol_path;
    argv[n] = NULL;
    opts.timeout = timeout;
    opts.tmpdir = d->path;
    proper_backend_run_result_init(&res);
    rc = proper_backend_run(argv, &opts, &res, err);
    if (seconds) *seconds += res.seconds;
    if (rc == PROPER_ETIMEOUT) {
        proper_backend_run_result_free(&res);
        return proper_error_set(err, PROPER_ETIMEOUT, NULL, 0, 0, "glpsol did not finish within %g s", timeout);
    }
    if (rc) { proper_backend_run_result_free(&res); return rc; }
    if (!res.exited || res.exit_code != 0) {
        proper__glpk_tail(res.out, res.out_len, tail, sizeof tail);
        rc = proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "glpsol failed (%s %d): %s",
                              res.exited ? "exit status" : "signal", res.exited ? res.exit_code : res.signal, tail);
        proper_backend_run_result_free(&res);
        return rc;
    }
    proper_backend_run_result_free(&res);
    if ((rc = proper_read_file(sol_path, &text, &len, err))) return rc;
    rc = proper_glpsol_parse_solution(text, len, "glpsol solution", lp, sol, undefined, err);
    PROPER_FREE(text);
    return rc;
}

PROPER_API int proper_glpsol_solve(const char *binary, const proper_lp *lp, double timeout, proper_lp_solution *sol,
                                   double *seconds, proper_error *err) {
    proper_backend_tmpdir d;
    proper_error ignored;
    proper_strbuf text;
    int rc, undefined = 0;
    if (seconds) *seconds = 0;
    proper_strbuf_init(&text);
    if ((rc = proper_lp_format_cplex(lp, &text, err))) return rc;
    if ((rc = proper_backend_tmpdir_create(&d, err))) { proper_strbuf_free(&text); return rc; }
    rc = proper_backend_tmpdir_write(&d, "problem.lp", text.data, text.len, err);
    proper_strbuf_free(&text);
    if (!rc) rc = proper__glpk_run(binary, &d, lp, 1, timeout, sol, &undefined, seconds, err);
    if (!rc && undefined) {
        rc = proper__glpk_run(binary, &d, lp, 0, timeout, sol, &undefined, seconds, err);
        if (!rc && undefined) rc = proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "glpsol left the status undefined");
    }
    proper_backend_tmpdir_remove(&d, &ignored);
    return rc;
}

/* The version in `glpsol --version` ("GLPSOL--GLPK LP/MIP Solver 5.0"). */
static char *proper__glpk_version(const char *text, size_t len) {
    const char *v = proper_tool_find(text, len, "Solver "), *end = text + len;
    size_t n = 0;
    if (!v) return NULL;
    v += 7;
    while (v + n < end && v[n] != '\n' && v[n] != '\r') n++;
    return proper_strndup(v, n);
}

static const proper_tool_kind proper__glpk_kind = {
    "glpsol", "PROPER_GLPSOL", "glpsol", "--version", "GLPK", proper__glpk_version, 0, NULL, NULL, NULL, NULL};

static int proper__glpk_probe(const proper_backend *self, proper_backend_info *info, proper_error *err) {
    (void)self;
    return proper_tool_probe(&proper__glpk_kind, info, err);
}

static int proper__glpk_solve_lp(const proper_backend *self, const proper_backend_lp_request *req, proper_lp_solution *sol,
                                 proper_error *err) {
    char path[PROPER_BACKEND_PATH_MAX];
    int rc;
    (void)self;
    if ((rc = proper_backend_find_binary("PROPER_GLPSOL", "glpsol", path, sizeof path, err))) return rc;
    return proper_glpsol_solve(path, req->lp, req->timeout, sol, NULL, err);
}

static const proper_backend proper__glpk_backend = {
    "glpsol",
    "GLPK's glpsol (LP in CPLEX LP format; PROPER_GLPSOL or glpsol in PATH)",
    proper__glpk_probe,
    NULL,
    proper__glpk_solve_lp,
    NULL
};

PROPER_API const proper_backend *proper_backend_glpk(void) { return &proper__glpk_backend; }

#endif /* PROPER_BACKEND_GLPK_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
