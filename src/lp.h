/* lp.h — linear programs: a representation, the CPLEX LP file format (writer
 * and reader), a native simplex solver that needs no external package, and a
 * small convex QP solver for box constraints.
 *
 * THE PROBLEM
 *     minimise (or maximise)  c'x + c0
 *     subject to              row_lo[i] <= a_i'x <= row_hi[i]   (i < nrows)
 *                             col_lo[j] <=  x_j  <= col_hi[j]   (j < ncols)
 *   A bound with |value| >= PROPER_LP_INF is "no bound". Rows are stored
 *   sparse (compressed rows); a fresh column has bounds [0, +inf) like the
 *   CPLEX LP format's default.
 *
 * THE NATIVE SOLVER, AND WHY THIS METHOD
 *   proper's own LPs (qn.h) are least-absolute-deviation fits: thousands of
 *   rows "A_r theta + e+_r - e-_r = b_r", one per observed one-step change,
 *   each with two error columns that appear in that row only (singleton
 *   columns), and a few hundred parameter columns theta. Solved as written,
 *   the simplex basis has one column per row (thousands), and every sign change
 *   of a residual costs a pivot. Its dual is tiny: one row per
 *   non-singleton column (a few hundred), and each singleton error column
 *   becomes a simple bound -1 <= y_r <= 1 on a dual variable. So the solver
 *
 *   1. brings the problem to a standard form (rows "=" or ">=", columns
 *      x >= 0 or free; finite column ranges become extra rows);
 *   2. when the dual has fewer rows than the primal, solves the dual, where
 *      the primal's singleton columns have turned into variable bounds
 *      (a residual changing sign is then a bound flip, not a pivot), and
 *      recovers x from the dual's multipliers and the singleton columns
 *      from complementary slackness; the recovered x is checked for primal
 *      feasibility and a zero duality gap, and the primal problem is solved
 *      directly when that check fails or the dual is infeasible (primal
 *      infeasible or unbounded: only the primal can tell which);
 *   3. otherwise solves the primal directly.
 *
 *   Both use one engine on "A x - w = 0, lo <= (x, w) <= hi" (one logical
 *   w_i per row), a bounded-variable revised simplex in two stages:
 *   - a dual simplex first, whenever the starting basis of logicals is dual
 *     feasible once boxed columns sit at the bound their reduced cost asks
 *     for (always the case for the QN duals, whose columns are boxed). Its
 *     long-step (bound-flipping) ratio test passes every breakpoint of a
 *     boxed column while the dual objective still rises: for least-absolute-
 *     deviation duals one basis change passes many residual sign changes
 *     (the Barrodale-Roberts step). Leaving rows are chosen by dual steepest
 *     edge (Forrest & Goldfarb 1992), which cut the iterations 4-5x on the
 *     QN LPs; costs are perturbed against dual degeneracy and restored at
 *     the perturbed optimum, after which the dual simplex continues;
 *   - then a primal simplex that verifies optimality (usually in one
 *     pricing pass) or finishes the job when dual feasibility is lost: a
 *     composite phase 1 (minimise the sum of bound violations of the basic
 *     variables, re-linearised every iteration), Dantzig pricing, Harris'
 *     two-pass ratio test with bound flips, bounds widened by tiny random
 *     amounts after a run of degenerate pivots (removed at the end), and
 *     Bland's rule if stalling persists, which rules out cycling.
 *   The basis factorisation exploits the logical columns: they are unit
 *   columns, so only the k x k kernel of structural basic columns on the
 *   rows without a basic logical needs a (dense, partially pivoted) LU. For
 *   the QN duals k is at most the number of estimated parameters (420 for
 *   M = 20 stations); updates are product-form eta vectors, with a fresh
 *   factorisation every PROPER_LP_REFACTOR_EVERY pivots. A kernel above
 *   PROPER_LP_MAX_KERNEL columns is refused (PROPER_ELIMIT: the LP is too
 *   large for a dense LU; glpsol's sparse one is the way), and so is an LP
 *   whose primal and dual both have more than PROPER_LP_MAX_ROWS rows (its
 *   pivots would take days). Rows and columns
 *   are scaled by geometric means (powers of two, so exactly).
 *   Optimality and infeasibility are declared only on a fresh factorisation.
 *
 * RESULTS
 *   The return code is the outcome: proper_lp_solve returns 0 on an
 *   optimum (and only then fills the solution), PROPER_EINFEASIBLE or
 *   PROPER_EUNBOUNDED (err says why), PROPER_ELIMIT when the basis
 *   outgrows the dense factorisation (above), or PROPER_ENOCONV when the iteration
 *   limit is hit or no optimum could be verified ("numerically unreliable",
 *   see VERIFICATION); proper_result_string names each. Duals follow GLPK's
 *   convention: row_dual[i] = d objective / d (bound of row i), and
 *   col_dual[j] = c_j - sum_i a_ij row_dual[i] (reduced cost).
 *
 * VERIFICATION
 *   Every optimum is checked on the problem as given (unscaled), with x
 *   first moved into its column bounds and the objective recomputed from
 *   the original data (proper_lp_verify): row bound violations relative to
 *   sum_j |a_ij x_j| + |bound|; reduced costs and row duals of a sign that
 *   asks for an infinite bound, relative to |c_j| + sum_i |a_ij y_i| (each
 *   |x_j| and |y_i| here floored at PROPER_LP_VERIFY_FLOOR of its vector's
 *   largest, so that an entry that should be 0 and came out 1e-16 of the
 *   largest does not count as a 100% error);
 *   complementary slackness (a multiplier and the distance of its
 *   constraint from the bound it prices, both relative, the smaller). All
 *   must be at most PROPER_LP_VERIFY_TOL, and the duality gap at most
 *   PROPER_LP_GAP_TOL of the terms of both objectives (a least-absolute-
 *   deviation LP whose optimum is 0 came out 9.3e-10, every pair's slackness
 *   small against its own column). Residuals do not see the error of
 *   an ill-conditioned basis (its solution is exact for data perturbed in
 *   the last digits, and the optimum of such data can move far), so the
 *   final basis's condition number is estimated (Hager's method): above
 *   PROPER_LP_COND_TOL / DBL_EPSILON an optimum is trusted only when the
 *   primal and the dual path both reach it (verified, objectives within
 *   PROPER_LP_VERIFY_TOL of the objective's scale). proper_lp_solve tries
 *   the method asked for, then the other path, then the primal path without
 *   scaling, and stops at the first trusted optimum; an infeasible or
 *   unbounded claim is reported when a second attempt agrees, none finds
 *   a verified optimum, and a certificate checks on the data (CERTIFICATES
 *   below). Otherwise it returns PROPER_ENOCONV with a message
 *   "numerically unreliable" naming each path's objective, residual and
 *   condition (opts.check receives the best candidate's residuals, verdict
 *   PROPER_LP_UNRELIABLE). Measured on 1200 random LPs with integer data
 *   near 1e9 in nearly dependent rows, or dyadic data from 1e-9 to 1e13,
 *   against `glpsol --exact`: no wrong optimum is returned; about 1 in 10
 *   is refused.
 *
 * CERTIFICATES
 *   The simplex's "infeasible" (4 of those 1200 LPs, and 6 of the 400 in
 *   tests/test_glpk.c, were feasible: a ratio test ignores entries below
 *   PROPER_LP_PIVOT_TOL) is returned only with Farkas multipliers y that
 *   prove it on the data as given: y'Ax >= L over the rows' bounds while
 *   max z'x <= U < L over the column box, z = A'y. "Unbounded" needs a
 *   feasible point and a ray d (within the column and row cones, c'd < 0).
 *   y comes from the row duals of the phase-1 LP (minimise the total bound
 *   violation), d from min c'd over the cones cut to |d_j| <= 1; both are
 *   checked with tolerances relative to the terms summed
 *   (PROPER_LP_CERT_TOL). A claim without a certificate that checks is
 *   PROPER_ENOCONV, "numerically unreliable" (opts.check verdict
 *   UNRELIABLE); an "unbounded" whose phase 1 proves infeasibility is
 *   reported infeasible.
 *
 * CPLEX LP FORMAT
 *   The writer emits the subset GLPK's glpsol reads with --lp: every column
 *   is listed in the objective in index order (so readers number columns as
 *   proper does), ranged and free rows become "expr - ~rN = 0" with the
 *   range on the auxiliary column ~rN (as GLPK itself writes them), and a
 *   nonzero objective constant is written as a comment
 *   "\* constant term = c *\" (GLPK's convention; glpsol ignores it). The
 *   reader accepts that subset plus ordinary CPLEX LP: comments, "<" "=<"
 *   etc., constants in the objective, bounds in any of the usual forms. As
 *   glpsol, it takes one sign per term ("++x" and "+ -x" are errors at the
 *   second sign), and it skips a UTF-8 byte order mark at the start.
 *   Integer sections are rejected (this is an LP toolkit). Numbers are
 *   written as the shortest decimal that reads back as the same double
 *   (proper_format_double).
 *
 * WARM START
 *   With opts.basis set, a solve saves its final basis there and the
 *   next solve of an LP of the same shape starts from it (qn.h re-solves
 *   one LP with new right-hand sides in its EXACT rounds). A changed
 *   right-hand side of the primal is a changed cost of the dual the engine
 *   solves, so the saved basis stays primal feasible but may lose dual
 *   feasibility: boxed columns move to the bound their reduced cost asks
 *   for, other columns get their cost shifted until the dual simplex
 *   finishes with them, and when the true costs then leave the basis dual
 *   infeasible the solve starts again from the logical basis (a primal
 *   repair from there took 13k-94k iterations on QN LPs whose cold solve
 *   takes 9.5k). Measured on a QN LP with M = 15 (60k rows): 10-90
 *   iterations for a round that stays warm.
 *
 * BOX QP
 *   proper_lp_qp_box_solve minimises 1/2 x'Qx + q'x over lo <= x <= hi for a
 *   symmetric positive definite Q by a primal active-set method (exact
 *   Newton steps on the free variables, the most violated multiplier
 *   released first); finite for strictly convex problems. Each step solves
 *   the free variables' system by Cholesky (proper__lp_chol), not core.h's
 *   LU: the factorisation is what detects a Q that is not positive definite
 *   on the free variables (reported as PROPER_EINVAL), and it halves the work.
 *
 * OUTPUTS AND TUNABLES
 *   Outputs (a parsed LP, a solution) follow the library's rule: the caller
 *   initialises them; they are replaced on success and left unchanged on
 *   failure. Tunables (define before including to override):
 *   PROPER_LP_PERTURB, PROPER_LP_PRIMAL_TOL, PROPER_LP_DUAL_TOL,
 *   PROPER_LP_PIVOT_TOL, PROPER_LP_SING_TOL, PROPER_LP_DEGENERATE_RUN,
 *   PROPER_LP_MAX_ROWS, PROPER_LP_MAX_KERNEL, PROPER_LP_REFACTOR_EVERY, PROPER_LP_RECOVER_TOL, PROPER_LP_SCALE_PASSES,
 *   PROPER_LP_VERIFY_TOL, PROPER_LP_VERIFY_FLOOR, PROPER_LP_GAP_TOL, PROPER_LP_COND_TOL, PROPER_LP_CERT_TOL,
 *   PROPER_LP_QP_KKT_TOL (each explained where it is defined).
 */
#ifndef PROPER_LP_H
#define PROPER_LP_H

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bounds with |value| >= PROPER_LP_INF mean "no bound" (CPLEX's convention). */
#define PROPER_LP_INF 1e30

/* Tunables (define before including to override). */
/* Relative size of the bound perturbation applied against stalling. */
#ifndef PROPER_LP_PERTURB
#define PROPER_LP_PERTURB 1e-6
#endif

/* Tolerances of the simplex engine (on the scaled problem).
 * PRIMAL_TOL: a basic variable within this (times 1 + |bound|) of its bound
 *   is feasible.
 * DUAL_TOL: reduced costs below this (costs are scaled to max |c| = 1) do
 *   not improve the objective.
 * PIVOT_TOL: ratio-test entries smaller than this are treated as zero.
 * SING_TOL: an LU pivot below this times the column's largest entry marks a
 *   dependent basis column (it is replaced by a logical).
 * DEGENERATE_RUN: consecutive zero-length pivots before the bounds are
 *   perturbed (first time) or Bland's rule is used (afterwards).
 * REFACTOR_EVERY: eta vectors kept before a fresh factorisation. */
#ifndef PROPER_LP_PRIMAL_TOL
#define PROPER_LP_PRIMAL_TOL 1e-9
#endif
#ifndef PROPER_LP_DUAL_TOL
#define PROPER_LP_DUAL_TOL 1e-9
#endif
#ifndef PROPER_LP_PIVOT_TOL
#define PROPER_LP_PIVOT_TOL 1e-9
#endif
#ifndef PROPER_LP_SING_TOL
#define PROPER_LP_SING_TOL 1e-11
#endif
#ifndef PROPER_LP_DEGENERATE_RUN
#define PROPER_LP_DEGENERATE_RUN 20
#endif
/* MAX_KERNEL: the largest kernel (structural basic columns on rows without
 *   a basic logical) the dense LU may factorise: k^2 doubles of memory and
 *   k^3 / 3 operations at every refactorisation. A larger basis is beyond
 *   the native solver (PROPER_ELIMIT); the QN LPs need at most 420 at
 *   M = 20 stations, GLPK's example LPs between 500 and 700 (tas.mod and
 *   the relaxation of hashi.mod; docs/lp-results.md), and the relaxation
 *   of numbrix.mod (8586 rows) more than 2000: refused after 25 s. */
/* MAX_ROWS: an LP whose primal and dual both have more rows than this is
 *   refused at once (PROPER_ELIMIT): each pivot costs time in proportion to
 *   the rows, and such an LP needs about as many pivots as rows. GLPK's
 *   huge.mod (1048576 equations in as many free columns, primal and dual
 *   alike) took 0.19 s per pivot, so about two days. The QN LPs have up to
 *   400k rows and a dual of a few hundred; GLPK's examples at most 8586. */
#ifndef PROPER_LP_MAX_ROWS
#define PROPER_LP_MAX_ROWS 100000
#endif
#ifndef PROPER_LP_MAX_KERNEL
#define PROPER_LP_MAX_KERNEL 2000
#endif
#ifndef PROPER_LP_REFACTOR_EVERY
#define PROPER_LP_REFACTOR_EVERY 64
#endif
/* Relative duality gap and primal violation accepted when recovering the
 * primal solution from the dual problem. */
#ifndef PROPER_LP_RECOVER_TOL
#define PROPER_LP_RECOVER_TOL 1e-8
#endif
/* Geometric scaling passes over rows and columns. */
#ifndef PROPER_LP_SCALE_PASSES
#define PROPER_LP_SCALE_PASSES 6
#endif
/* Relative residual accepted when an optimum is verified on the problem as
 * given (VERIFICATION above): bound violations, reduced costs of the wrong
 * sign and complementary slackness, each relative to its own row's,
 * column's or multiplier's magnitudes. */
#ifndef PROPER_LP_VERIFY_TOL
#define PROPER_LP_VERIFY_TOL 1e-10
#endif
/* The duality gap accepted, relative to the magnitudes of the terms of the
 * primal and the dual objective (VERIFICATION). */
/* The verification's magnitudes have a normwise floor: the terms of row i
 * are sum_j |a_ij| (|x_j| + PROPER_LP_VERIFY_FLOOR max_k |x_k|), those of
 * column j's reduced cost |c_j| + sum_i |a_ij| (|y_i| + PROPER_LP_VERIFY_FLOOR
 * max_k |y_k|), and the certificates' likewise (VERIFICATION). A computed
 * entry that is 0 at the optimum comes out near 1e-16 of its vector's
 * largest, a 100% error against its own size. Measured: GLPK's example LPs
 * (docs/lp-results.md) all verify at 1e-5 and 1e-4 (at 0, 9 of them were
 * refused; at 1e-6, and at 3e-5, sudoku's relaxation is: its dual path's
 * x violates rows by 1e-14 where every term is that small), and at 1e-3
 * the ill-conditioned LPs of tests/test_glpk.c get optima for LPs glpsol
 * --exact finds infeasible (at 3e-4 still none). */
#ifndef PROPER_LP_VERIFY_FLOOR
#define PROPER_LP_VERIFY_FLOOR 1e-4
#endif
#ifndef PROPER_LP_GAP_TOL
#define PROPER_LP_GAP_TOL 1e-9
#endif
/* An optimum whose final basis has an estimated condition number above
 * PROPER_LP_COND_TOL / DBL_EPSILON is not trusted either: its relative
 * error may exceed PROPER_LP_COND_TOL whatever the residuals say. */
#ifndef PROPER_LP_COND_TOL
#define PROPER_LP_COND_TOL 1e-9
#endif
/* Box QP: multipliers within this (relative to the problem's scale) of zero
 * count as having the right sign. */
#ifndef PROPER_LP_QP_KKT_TOL
#define PROPER_LP_QP_KKT_TOL 1e-12
#endif

typedef struct proper_lp {
    size_t ncols, nrows, nnz;
    int maximize;           /* 0 minimise, 1 maximise */
    double obj_const;       /* constant added to the objective */
    double *obj;            /* [ncols] objective coefficients */
    double *col_lo, *col_hi;/* [ncols] */
    char **col_name;        /* [ncols]; NULL entries get "x<j+1>" */
    double *row_lo, *row_hi;/* [nrows] */
    char **row_name;        /* [nrows]; NULL entries get "r<i+1>" */
    size_t *row_start;      /* [nrows + 1] */
    size_t *col_idx;        /* [nnz] column of each entry, by row */
    double *val;            /* [nnz] */
    size_t col_cap, row_cap, nnz_cap;
} proper_lp;

PROPER_API void proper_lp_init(proper_lp *lp);
PROPER_API void proper_lp_free(proper_lp *lp);

/* Add a column; *index (may be NULL) receives its number. `name` may be NULL;
 * names must be valid CPLEX LP names (letters, digits and !"#$%&()/,.;?@_`'{}|~,
 * not starting with a digit or '.', at most 255 characters). */
PROPER_API int proper_lp_add_col(proper_lp *lp, double cost, double lo, double hi,
                                 const char *name, size_t *index, proper_error *err);
/* Add a row lo <= sum_k vals[k] x[cols[k]] <= hi. Columns must exist and
 * appear once; coefficients must be finite. */
PROPER_API int proper_lp_add_row(proper_lp *lp, size_t count, const size_t *cols,
                                 const double *vals, double lo, double hi,
                                 const char *name, proper_error *err);

/* The problem in CPLEX LP format, appended to a string builder or written
 * to a stream. */
PROPER_API int proper_lp_format_cplex(const proper_lp *lp, proper_strbuf *b, proper_error *err);
PROPER_API int proper_lp_write_cplex(const proper_lp *lp, FILE *f, proper_error *err);
/* CPLEX LP text (`name` names it in error positions; may be NULL), or the
 * file at `path`, into `out` (initialised; replaced on success, unchanged
 * on failure). */
PROPER_API int proper_lp_parse_cplex(proper_lp *out, const char *text, size_t len, const char *name,
                                     proper_error *err);
PROPER_API int proper_lp_read_cplex(proper_lp *out, const char *path, proper_error *err);

enum proper_lp_method {
    PROPER_LP_AUTO = 0,   /* the smaller of primal and dual (see above) */
    PROPER_LP_PRIMAL = 1, /* always the primal problem */
    PROPER_LP_DUAL = 2    /* the dual whenever it can be formed */
};

/* A simplex basis carried from one solve to the next (warm start). It fits
 * any LP with the same columns, rows and nonzero pattern; costs, bounds and
 * right-hand sides may differ. Start from proper_lp_basis_init and free it
 * with proper_lp_basis_free. A basis that does not fit, or is singular, is
 * ignored or repaired, never trusted blindly. */
typedef struct proper_lp_basis {
    size_t m, nt;           /* the engine problem it belongs to (0: empty) */
    int dual;               /* 1: a basis of the dual problem */
    size_t *head;           /* [m] basic variable of each position */
    unsigned char *upper;   /* [nt] 1: nonbasic at its upper bound */
} proper_lp_basis;

PROPER_API void proper_lp_basis_init(proper_lp_basis *basis);
PROPER_API void proper_lp_basis_free(proper_lp_basis *basis);

/* How well a solution meets the optimality conditions, measured on the
 * problem as given (unscaled; see VERIFICATION above). Each residual is
 * relative (0 is exact; at most PROPER_LP_VERIFY_TOL passes). */
enum proper_lp_verdict {
    PROPER_LP_UNCHECKED = 0,  /* no optimum was found to check */
    PROPER_LP_VERIFIED = 1,   /* every residual within PROPER_LP_VERIFY_TOL */
    PROPER_LP_UNRELIABLE = 2  /* some residual above it */
};
typedef struct proper_lp_check {
    int verdict;            /* enum proper_lp_verdict */
    double primal;          /* largest bound violation of a row (relative to
                               sum_j |a_ij x_j| + |bound|) or a column
                               (relative to |bound| + max_k |x_k|) */
    double dual;            /* largest reduced cost, or row dual, of a sign
                               that asks for an infinite bound (relative to
                               |c_j| + sum_i |a_ij y_i|), magnitudes
                               floored (PROPER_LP_VERIFY_FLOOR) */
    double slack;           /* largest complementary-slackness violation: of
                               a multiplier and its constraint's distance from
                               the bound it prices, the smaller (each relative
                               as above) */
    double gap;             /* |objective - dual_objective| relative to the
                               sum of the magnitudes of the terms of both
                               (sum_j |c_j x_j| + sum_i |y_i b_i| + ...) */
    double condition;       /* estimated condition number of the final basis
                               (proper_lp_solve; 0 when not known) */
    double objective;       /* c'x + c0 from the problem as given */
    double dual_objective;  /* the dual bound from the row duals and reduced
                               costs (equal to objective at an exact optimum) */
} proper_lp_check;

typedef struct proper_lp_opts {
    int method;             /* enum proper_lp_method */
    size_t max_iterations;  /* 0: 20 (rows + columns) + 10000 */
    proper_lp_basis *basis; /* NULL, or in: the start basis when it fits;
                               out: the final basis */
    proper_lp_check *check; /* NULL, or out: the residuals of the optimum
                               returned, or of the best unverified candidate
                               when the solve fails as unreliable (verdict
                               UNCHECKED when no optimum was found) */
} proper_lp_opts;

/* Method AUTO, the default iteration limit, no warm start. */
PROPER_API proper_lp_opts proper_lp_opts_default(void);

/* An optimal solution. */
typedef struct proper_lp_solution {
    double objective;       /* including obj_const */
    double *x;              /* [ncols] */
    double *row_activity;   /* [nrows] a_i'x */
    double *row_dual;       /* [nrows] */
    double *col_dual;       /* [ncols] reduced costs */
    size_t ncols, nrows;
    size_t iterations;      /* simplex pivots and bound flips */
    int solved_dual;        /* 1 when the dual problem was solved */
} proper_lp_solution;

PROPER_API void proper_lp_solution_init(proper_lp_solution *sol);
/* A zero solution of the given shape (for solvers outside lp.h); sol is
 * replaced on success, unchanged on failure. */
PROPER_API int proper_lp_solution_create(proper_lp_solution *sol, size_t ncols, size_t nrows, proper_error *err);
PROPER_API void proper_lp_solution_free(proper_lp_solution *sol);

/* Measure a solution of lp (from proper_lp_solve or another solver) as
 * above; check->verdict is VERIFIED or UNRELIABLE. */
PROPER_API void proper_lp_verify(const proper_lp *lp, const proper_lp_solution *sol, proper_lp_check *check);

/* Solve with the native simplex. `opt` may be NULL (defaults). `sol` is
 * initialised; on an optimum it is replaced, otherwise left unchanged and
 * the return code says what happened (see RESULTS above). */
PROPER_API int proper_lp_solve(const proper_lp *lp, const proper_lp_opts *opt,
                               proper_lp_solution *sol, proper_error *err);

/* Minimise 1/2 x'Qx + q'x subject to lo <= x <= hi (entries may be
 * -/+PROPER_LP_INF). Q is n x n, row-major, symmetric positive definite.
 * x receives the minimiser. *iterations (may be NULL) counts active-set
 * steps. Returns PROPER_EINVAL when Q is not symmetric or not positive
 * definite on the free variables, or a bound pair is crossed. */
PROPER_API int proper_lp_qp_box_solve(size_t n, const double *Q, const double *q,
                                      const double *lo, const double *hi, double *x,
                                      size_t *iterations, proper_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_LP_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_LP_IMPLEMENTATION
#define PROPER_LP_IMPLEMENTATION

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>


static int proper__lp_isinf(double v) { return v >= PROPER_LP_INF || v <= -PROPER_LP_INF; }

/* ---- representation ---------------------------------------------------- */

PROPER_API void proper_lp_init(proper_lp *lp) { memset(lp, 0, sizeof *lp); }

PROPER_API void proper_lp_free(proper_lp *lp) {
    size_t i;
    if (!lp) return;
    if (lp->col_name)
        for (i = 0; i < lp->ncols; i++) PROPER_FREE(lp->col_name[i]);
    if (lp->row_name)
        for (i = 0; i < lp->nrows; i++) PROPER_FREE(lp->row_name[i]);
    PROPER_FREE(lp->obj); PROPER_FREE(lp->col_lo); PROPER_FREE(lp->col_hi);
    PROPER_FREE(lp->col_name); PROPER_FREE(lp->row_lo); PROPER_FREE(lp->row_hi);
    PROPER_FREE(lp->row_name); PROPER_FREE(lp->row_start); PROPER_FREE(lp->col_idx);
    PROPER_FREE(lp->val);
    proper_lp_init(lp);
}

static int proper__lp_name_char(char ch, int first) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) return 1;
    if (ch >= '0' && ch <= '9') return !first;
    if (ch == '.') return !first;
    return ch != '\0' && strchr("!\"#$%&()/,;?@_`'{}|~", ch) != NULL;
}

static int proper__lp_lower_eq(const char *a, size_t n, const char *word) {
    size_t i;
    if (strlen(word) != n) return 0;
    for (i = 0; i < n; i++) {
        char ch = a[i];
        if (ch >= 'A' && ch <= 'Z') ch = (char)(ch - 'A' + 'a');
        if (ch != word[i]) return 0;
    }
    return 1;
}

/* Names that a bounds section would read as keywords. */
static int proper__lp_reserved(const char *s, size_t n) {
    return proper__lp_lower_eq(s, n, "inf") || proper__lp_lower_eq(s, n, "infinity") ||
           proper__lp_lower_eq(s, n, "free");
}

static int proper__lp_check_name(const char *name, const char *what, proper_error *err) {
    size_t i, n = strlen(name);
    if (n == 0 || n > 255)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s name must have 1 to 255 characters", what);
    for (i = 0; i < n; i++)
        if (!proper__lp_name_char(name[i], i == 0))
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                    "%s name '%s': character %zu ('%c') is not allowed in CPLEX LP names",
                                    what, name, i + 1, name[i]);
    if (proper__lp_reserved(name, n))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s name '%s' is a reserved word", what, name);
    return PROPER_OK;
}

static int proper__lp_bounds_ok(double lo, double hi, const char *what, proper_error *err) {
    if (isnan(lo) || isnan(hi))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s bound is NaN", what);
    if (lo >= PROPER_LP_INF || hi <= -PROPER_LP_INF)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "%s bounds [%g, %g] leave no finite value", what, lo, hi);
    if (lo > hi)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s lower bound %g exceeds upper bound %g",
                                what, lo, hi);
    return PROPER_OK;
}

PROPER_API int proper_lp_add_col(proper_lp *lp, double cost, double lo, double hi,
                                 const char *name, size_t *index, proper_error *err) {
    size_t j = lp->ncols, cap = lp->col_cap;
    char *copy = NULL;
    int rc;
    if (!isfinite(cost))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "objective coefficient of column %zu is not finite", j + 1);
    if ((rc = proper__lp_bounds_ok(lo, hi, "column", err))) return rc;
    if (name) {
        if ((rc = proper__lp_check_name(name, "column", err))) return rc;
        if (!(copy = proper_strdup(name))) goto nomem;
    }
    if (j + 1 > cap) {
        size_t c1 = cap, c2 = cap, c3 = cap, c4 = cap;
        if (proper_reserve(&lp->obj, &c1, j + 1, sizeof *lp->obj) ||
            proper_reserve(&lp->col_lo, &c2, j + 1, sizeof *lp->col_lo) ||
            proper_reserve(&lp->col_hi, &c3, j + 1, sizeof *lp->col_hi) ||
            proper_reserve(&lp->col_name, &c4, j + 1, sizeof *lp->col_name))
            goto nomem;
        lp->col_cap = c1 < c2 ? c1 : c2;
        if (c3 < lp->col_cap) lp->col_cap = c3;
        if (c4 < lp->col_cap) lp->col_cap = c4;
    }
    lp->obj[j] = cost;
    lp->col_lo[j] = lo <= -PROPER_LP_INF ? -PROPER_LP_INF : lo;
    lp->col_hi[j] = hi >= PROPER_LP_INF ? PROPER_LP_INF : hi;
    lp->col_name[j] = copy;
    lp->ncols = j + 1;
    if (index) *index = j;
    return PROPER_OK;
nomem:
    PROPER_FREE(copy);
    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory adding an LP column");
}

PROPER_API int proper_lp_add_row(proper_lp *lp, size_t count, const size_t *cols,
                                 const double *vals, double lo, double hi,
                                 const char *name, proper_error *err) {
    size_t i = lp->nrows, k, start;
    char *copy = NULL;
    unsigned char *seen = NULL;
    int rc;
    if (!(lo <= -PROPER_LP_INF && hi >= PROPER_LP_INF) && (rc = proper__lp_bounds_ok(lo, hi, "row", err)))
        return rc;
    for (k = 0; k < count; k++) {
        if (cols[k] >= lp->ncols)
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "row %zu refers to column %zu of %zu",
                                    i + 1, cols[k] + 1, lp->ncols);
        if (!isfinite(vals[k]))
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "row %zu has a non-finite coefficient", i + 1);
    }
    if (count > 1) {
        if (!(seen = (unsigned char *)proper_calloc(lp->ncols, 1))) goto nomem;
        for (k = 0; k < count; k++) {
            if (seen[cols[k]]) {
                PROPER_FREE(seen);
                return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "row %zu lists column %zu twice",
                                        i + 1, cols[k] + 1);
            }
            seen[cols[k]] = 1;
        }
        PROPER_FREE(seen);
    }
    if (name) {
        if ((rc = proper__lp_check_name(name, "row", err))) return rc;
        if (!(copy = proper_strdup(name))) goto nomem;
    }
    if (i + 1 > lp->row_cap) {
        size_t c1 = lp->row_cap, c2 = lp->row_cap, c3 = lp->row_cap, c4 = lp->row_cap + 1;
        if (proper_reserve(&lp->row_lo, &c1, i + 1, sizeof *lp->row_lo) ||
            proper_reserve(&lp->row_hi, &c2, i + 1, sizeof *lp->row_hi) ||
            proper_reserve(&lp->row_name, &c3, i + 1, sizeof *lp->row_name) ||
            proper_reserve(&lp->row_start, &c4, i + 2, sizeof *lp->row_start))
            goto nomem;
        /* the smallest of the four capacities is what every array has */
        lp->row_cap = c1 < c2 ? c1 : c2;
        if (c3 < lp->row_cap) lp->row_cap = c3;
        if (c4 - 1 < lp->row_cap) lp->row_cap = c4 - 1;
    }
    if (lp->nnz + count > lp->nnz_cap) {
        size_t c1 = lp->nnz_cap, c2 = lp->nnz_cap;
        if (proper_reserve(&lp->col_idx, &c1, lp->nnz + count, sizeof *lp->col_idx) ||
            proper_reserve(&lp->val, &c2, lp->nnz + count, sizeof *lp->val))
            goto nomem;
        lp->nnz_cap = c1 < c2 ? c1 : c2;
    }
    if (i == 0) lp->row_start[0] = 0;
    start = lp->row_start[i];
    for (k = 0; k < count; k++) {
        lp->col_idx[start + k] = cols[k];
        lp->val[start + k] = vals[k];
    }
    lp->nnz = start + count;
    lp->row_start[i + 1] = lp->nnz;
    lp->row_lo[i] = lo <= -PROPER_LP_INF ? -PROPER_LP_INF : lo;
    lp->row_hi[i] = hi >= PROPER_LP_INF ? PROPER_LP_INF : hi;
    lp->row_name[i] = copy;
    lp->nrows = i + 1;
    return PROPER_OK;
nomem:
    PROPER_FREE(copy);
    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory adding an LP row");
}

/* ---- writer ------------------------------------------------------------ */

static void proper__lp_put_name(proper_strbuf *b, char *const *names, size_t i, char prefix) {
    if (names && names[i]) proper_strbuf_puts(b, names[i]);
    else proper_strbuf_printf(b, "%c%zu", prefix, i + 1);
}

/* " + 3 x1" / " - 2.5 x2"; coefficient 1 is written out (GLPK reads both). */
static void proper__lp_put_term(proper_strbuf *b, double v, char *const *names, size_t j) {
    proper_strbuf_printf(b, " %c ", v < 0 || (v == 0 && signbit(v)) ? '-' : '+');
    proper_strbuf_double(b, fabs(v));
    proper_strbuf_puts(b, " ");
    proper__lp_put_name(b, names, j, 'x');
}

/* " <= 3\n": a relation and a number. */
static void proper__lp_put_rel(proper_strbuf *b, const char *rel, double v) {
    proper_strbuf_printf(b, " %s ", rel);
    proper_strbuf_double(b, v);
    proper_strbuf_puts(b, "\n");
}

/* A row written as "expr - ~rN = 0" with the range on column ~rN. */
static int proper__lp_aux_row(const proper_lp *lp, size_t i) {
    double lo = lp->row_lo[i], hi = lp->row_hi[i];
    return lo != hi && proper__lp_isinf(lo) == proper__lp_isinf(hi);
}

/* The i-th name the writer emits: columns, then rows, then the auxiliary
 * columns "~rN" of ranged rows (NULL for a row that has none). */
static const char *proper__lp_emitted_name(const proper_lp *lp, size_t i, char *buf, size_t size) {
    if (i < lp->ncols) {
        if (lp->col_name && lp->col_name[i]) return lp->col_name[i];
        snprintf(buf, size, "x%zu", i + 1);
    } else if (i < lp->ncols + lp->nrows) {
        size_t k = i - lp->ncols;
        if (lp->row_name && lp->row_name[k]) return lp->row_name[k];
        snprintf(buf, size, "r%zu", k + 1);
    } else {
        size_t k = i - lp->ncols - lp->nrows;
        if (!proper__lp_aux_row(lp, k)) return NULL;
        snprintf(buf, size, "~r%zu", k + 1);
    }
    return buf;
}

/* Every name the writer emits (explicit, default "x3"/"r2", auxiliary
 * "~r4") must be distinct: a default name could clash with a user's. Rows
 * and columns live in separate name spaces in CPLEX LP, but a shared check
 * is simpler and costs users nothing. */
static int proper__lp_unique_names(const proper_lp *lp, proper_error *err) {
    size_t total = lp->ncols + 2 * lp->nrows, i, index;
    proper_intern seen;
    char buf[32];
    int rc = PROPER_OK, added;
    proper_intern_init(&seen);
    for (i = 0; i < total && !rc; i++) {
        const char *nm = proper__lp_emitted_name(lp, i, buf, sizeof buf);
        if (!nm) continue;
        if (proper_intern_add(&seen, nm, strlen(nm), &index, &added))
            rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory checking LP names");
        else if (!added)
            rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "LP name '%s' is used twice", nm);
    }
    proper_intern_free(&seen);
    return rc;
}

static void proper__lp_put_rows(const proper_lp *lp, proper_strbuf *b) {
    size_t i, k;
    proper_strbuf_puts(b, "\nSubject To\n");
    for (i = 0; i < lp->nrows; i++) {
        double lo = lp->row_lo[i], hi = lp->row_hi[i];
        proper_strbuf_puts(b, " ");
        proper__lp_put_name(b, lp->row_name, i, 'r');
        proper_strbuf_puts(b, ":");
        if (lp->row_start[i] == lp->row_start[i + 1]) proper__lp_put_term(b, 0.0, lp->col_name, 0);
        for (k = lp->row_start[i]; k < lp->row_start[i + 1]; k++) {
            if (k > lp->row_start[i] && (k - lp->row_start[i]) % 8 == 0) proper_strbuf_puts(b, "\n     ");
            proper__lp_put_term(b, lp->val[k], lp->col_name, lp->col_idx[k]);
        }
        if (proper__lp_aux_row(lp, i)) proper_strbuf_printf(b, " - ~r%zu = 0\n", i + 1);
        else if (lo == hi) proper__lp_put_rel(b, "=", lo);
        else if (!proper__lp_isinf(lo)) proper__lp_put_rel(b, ">=", lo);
        else proper__lp_put_rel(b, "<=", hi);
    }
}

static void proper__lp_put_bounds(const proper_lp *lp, proper_strbuf *b) {
    size_t i, j;
    proper_strbuf_puts(b, "\nBounds\n");
    for (j = 0; j < lp->ncols; j++) {
        double lo = lp->col_lo[j], hi = lp->col_hi[j];
        if (lo == 0 && proper__lp_isinf(hi)) continue; /* the default */
        proper_strbuf_puts(b, " ");
        if (proper__lp_isinf(lo) && proper__lp_isinf(hi)) {
            proper__lp_put_name(b, lp->col_name, j, 'x');
            proper_strbuf_puts(b, " free\n");
        } else if (lo == hi || proper__lp_isinf(hi)) {
            proper__lp_put_name(b, lp->col_name, j, 'x');
            proper__lp_put_rel(b, lo == hi ? "=" : ">=", lo);
        } else {
            if (proper__lp_isinf(lo)) proper_strbuf_puts(b, "-inf");
            else proper_strbuf_double(b, lo);
            proper_strbuf_puts(b, " <= ");
            proper__lp_put_name(b, lp->col_name, j, 'x');
            proper__lp_put_rel(b, "<=", hi);
        }
    }
    for (i = 0; i < lp->nrows; i++) {
        if (!proper__lp_aux_row(lp, i)) continue;
        if (proper__lp_isinf(lp->row_lo[i])) {
            proper_strbuf_printf(b, " ~r%zu free\n", i + 1);
            continue;
        }
        proper_strbuf_puts(b, " ");
        proper_strbuf_double(b, lp->row_lo[i]);
        proper_strbuf_printf(b, " <= ~r%zu", i + 1);
        proper__lp_put_rel(b, "<=", lp->row_hi[i]);
    }
}

PROPER_API int proper_lp_format_cplex(const proper_lp *lp, proper_strbuf *b, proper_error *err) {
    size_t j;
    int rc;
    if (lp->ncols == 0)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "an LP needs at least one column to be written");
    if ((rc = proper__lp_unique_names(lp, err))) return rc;
    proper_strbuf_printf(b, "\\* written by proper %s: %zu columns, %zu rows *\\\n\n%s\n obj:", PROPER_VERSION_STRING,
                         lp->ncols, lp->nrows, lp->maximize ? "Maximize" : "Minimize");
    for (j = 0; j < lp->ncols; j++) {
        if (j > 0 && j % 8 == 0) proper_strbuf_puts(b, "\n     ");
        proper__lp_put_term(b, lp->obj[j], lp->col_name, j);
    }
    proper_strbuf_puts(b, "\n");
    if (lp->obj_const != 0) {
        proper_strbuf_puts(b, "\\* constant term = ");
        proper_strbuf_double(b, lp->obj_const);
        proper_strbuf_puts(b, " *\\\n");
    }
    proper__lp_put_rows(lp, b);
    proper__lp_put_bounds(lp, b);
    proper_strbuf_puts(b, "\nEnd\n");
    return b->failed ? proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory writing an LP") : PROPER_OK;
}

PROPER_API int proper_lp_write_cplex(const proper_lp *lp, FILE *f, proper_error *err) {
    proper_strbuf b;
    int rc;
    proper_strbuf_init(&b);
    rc = proper_lp_format_cplex(lp, &b, err);
    if (rc == PROPER_OK && b.len && fwrite(b.data, 1, b.len, f) != b.len)
        rc = proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write error");
    proper_strbuf_free(&b);
    return rc;
}

/* ---- reader ------------------------------------------------------------ */

enum {
    PROPER__LP_TK_END, PROPER__LP_TK_NAME, PROPER__LP_TK_NUM, PROPER__LP_TK_PLUS, PROPER__LP_TK_MINUS,
    PROPER__LP_TK_COLON, PROPER__LP_TK_LE, PROPER__LP_TK_GE, PROPER__LP_TK_EQ
};

enum {
    PROPER__LP_SEC_NONE, PROPER__LP_SEC_MIN, PROPER__LP_SEC_MAX, PROPER__LP_SEC_ROWS, PROPER__LP_SEC_ROWS2,
    PROPER__LP_SEC_BOUNDS, PROPER__LP_SEC_INT, PROPER__LP_SEC_END
};

typedef struct proper__lp_tok {
    int kind;
    const char *s;   /* NAME text */
    size_t n;
    double num;
    int line, col;
    int at_bol;      /* first token of its line, in column 1 */
} proper__lp_tok;

typedef struct proper__lp_reader {
    proper_cursor c;
    proper__lp_tok tok;
    int have_bol;    /* a newline was passed since the last token */
    proper_lp *lp;
    proper_intern cols, rows; /* column names (index = column); named rows */
    proper_error *err;
    size_t *tcol; double *tval; size_t tlen, tcap, tvcap; /* the expression being read */
    size_t *where_in_expr; size_t where_cap;  /* per column: index in tcol + 1, 0 if absent */
} proper__lp_reader;

static int proper__lp_tok_error(proper__lp_reader *r, int code, const char *msg) {
    char copy[PROPER_ERROR_MESSAGE_MAX]; /* msg may be r->err->message itself */
    snprintf(copy, sizeof copy, "%s", msg);
    return proper_error_set(r->err, code, r->c.file, r->tok.line, r->tok.col, "%s", copy);
}

static int proper__lp_skip_space(proper__lp_reader *r) {
    proper_cursor *c = &r->c;
    while (c->p < c->end) {
        char ch = *c->p;
        if (ch == '\n') { r->have_bol = 1; proper_cursor_advance(c); }
        else if (ch == ' ' || ch == '\t' || ch == '\r') proper_cursor_advance(c);
        else if (ch == '\\' && c->p + 1 < c->end && c->p[1] == '*') {
            proper_cursor start = *c;
            proper_cursor_advance(c); proper_cursor_advance(c);
            while (c->p < c->end && !(*c->p == '*' && c->p + 1 < c->end && c->p[1] == '\\')) {
                if (*c->p == '\n') r->have_bol = 1;
                proper_cursor_advance(c);
            }
            if (c->p >= c->end) return proper_cursor_error(&start, r->err, PROPER_EPARSE, "unterminated comment");
            proper_cursor_advance(c); proper_cursor_advance(c);
        } else if (ch == '\\') {
            while (c->p < c->end && *c->p != '\n') proper_cursor_advance(c);
        } else
            break;
    }
    return PROPER_OK;
}

static int proper__lp_next(proper__lp_reader *r) {
    proper_cursor *c = &r->c;
    proper__lp_tok *t = &r->tok;
    int rc;
    char ch;
    if ((rc = proper__lp_skip_space(r))) return rc;
    t->line = c->line;
    t->col = c->col;
    t->at_bol = r->have_bol && c->col == 1;
    r->have_bol = 0;
    if (c->p >= c->end) { t->kind = PROPER__LP_TK_END; return PROPER_OK; }
    ch = *c->p;
    if (ch == '+' || ch == '-' || ch == ':') {
        t->kind = ch == '+' ? PROPER__LP_TK_PLUS : ch == '-' ? PROPER__LP_TK_MINUS : PROPER__LP_TK_COLON;
        proper_cursor_advance(c);
        return PROPER_OK;
    }
    if (ch == '<' || ch == '>' || ch == '=') {
        proper_cursor_advance(c);
        if (ch == '=' && c->p < c->end && (*c->p == '<' || *c->p == '>')) ch = *c->p, proper_cursor_advance(c);
        else if (ch != '=' && c->p < c->end && *c->p == '=') proper_cursor_advance(c);
        t->kind = ch == '<' ? PROPER__LP_TK_LE : ch == '>' ? PROPER__LP_TK_GE : PROPER__LP_TK_EQ;
        return PROPER_OK;
    }
    if ((ch >= '0' && ch <= '9') || ch == '.') {
        const char *q = c->p;
        size_t n = 0, digits = 0;
        char buf[80], *endp;
        while (q + n < c->end && ((q[n] >= '0' && q[n] <= '9') || q[n] == '.')) digits += q[n] != '.', n++;
        if (digits && q + n < c->end && (q[n] == 'e' || q[n] == 'E')) {
            size_t e = n + 1;
            if (q + e < c->end && (q[e] == '+' || q[e] == '-')) e++;
            if (q + e < c->end && q[e] >= '0' && q[e] <= '9') {
                while (q + e < c->end && q[e] >= '0' && q[e] <= '9') e++;
                n = e;
            }
        }
        if (n >= sizeof buf) return proper_cursor_error(c, r->err, PROPER_EPARSE, "number too long");
        memcpy(buf, q, n);
        buf[n] = '\0';
        t->num = strtod(buf, &endp);
        if (!digits || endp != buf + n) return proper_cursor_error(c, r->err, PROPER_EPARSE, "malformed number '%s'", buf);
        if (!isfinite(t->num)) return proper_cursor_error(c, r->err, PROPER_ERANGE, "number '%s' is too large", buf);
        while (n--) proper_cursor_advance(c);
        t->kind = PROPER__LP_TK_NUM;
        return PROPER_OK;
    }
    if (proper__lp_name_char(ch, 1)) {
        t->s = c->p;
        t->n = 0;
        while (c->p < c->end && proper__lp_name_char(*c->p, 0)) { proper_cursor_advance(c); t->n++; }
        if (t->n > 255) return proper__lp_tok_error(r, PROPER_EPARSE, "name longer than 255 characters");
        t->kind = PROPER__LP_TK_NAME;
        return PROPER_OK;
    }
    return proper_cursor_error(c, r->err, PROPER_EPARSE, "unexpected character '%c'", ch);
}

/* A section keyword starts a line; returns PROPER__LP_SEC_NONE otherwise.
 * "subject" and "such" need a second word (PROPER__LP_SEC_ROWS2). */
static int proper__lp_keyword(const proper__lp_tok *t) {
    static const struct { const char *word; int sec; } words[] = {
        {"minimize", PROPER__LP_SEC_MIN}, {"minimise", PROPER__LP_SEC_MIN}, {"minimum", PROPER__LP_SEC_MIN},
        {"min", PROPER__LP_SEC_MIN}, {"maximize", PROPER__LP_SEC_MAX}, {"maximise", PROPER__LP_SEC_MAX},
        {"maximum", PROPER__LP_SEC_MAX}, {"max", PROPER__LP_SEC_MAX}, {"st", PROPER__LP_SEC_ROWS},
        {"s.t.", PROPER__LP_SEC_ROWS}, {"st.", PROPER__LP_SEC_ROWS}, {"subject", PROPER__LP_SEC_ROWS2},
        {"such", PROPER__LP_SEC_ROWS2}, {"bounds", PROPER__LP_SEC_BOUNDS}, {"bound", PROPER__LP_SEC_BOUNDS},
        {"general", PROPER__LP_SEC_INT}, {"generals", PROPER__LP_SEC_INT}, {"gen", PROPER__LP_SEC_INT},
        {"integer", PROPER__LP_SEC_INT}, {"integers", PROPER__LP_SEC_INT}, {"binary", PROPER__LP_SEC_INT},
        {"binaries", PROPER__LP_SEC_INT}, {"bin", PROPER__LP_SEC_INT}, {"end", PROPER__LP_SEC_END}};
    size_t i;
    if (t->kind != PROPER__LP_TK_NAME || !t->at_bol) return PROPER__LP_SEC_NONE;
    for (i = 0; i < sizeof words / sizeof words[0]; i++)
        if (proper__lp_lower_eq(t->s, t->n, words[i].word)) return words[i].sec;
    return PROPER__LP_SEC_NONE;
}

/* Column index of a name, creating a column with default bounds if new. */
static int proper__lp_col(proper__lp_reader *r, size_t *j) {
    proper_lp *lp = r->lp;
    size_t idx;
    char tmp[256];
    const proper__lp_tok *t = &r->tok;
    idx = proper_intern_find(&r->cols, t->s, t->n);
    if (idx != PROPER_INTERN_NONE) { *j = idx; return PROPER_OK; }
    memcpy(tmp, t->s, t->n);
    tmp[t->n] = '\0';
    if (proper__lp_reserved(t->s, t->n)) return proper__lp_tok_error(r, PROPER_EPARSE, "expected a variable name");
    if (proper_lp_add_col(lp, 0.0, 0.0, PROPER_LP_INF, tmp, j, r->err))
        return proper__lp_tok_error(r, r->err->code, r->err->message);
    if (proper_intern_add(&r->cols, t->s, t->n, &idx, NULL))
        return proper__lp_tok_error(r, PROPER_ENOMEM, "out of memory");
    return PROPER_OK;
}

static int proper__lp_expr_add(proper__lp_reader *r, size_t j, double v) {
    if (j >= r->where_cap) {
        size_t old = r->where_cap;
        if (proper_reserve(&r->where_in_expr, &r->where_cap, j + 1, sizeof *r->where_in_expr))
            return proper__lp_tok_error(r, PROPER_ENOMEM, "out of memory");
        memset(r->where_in_expr + old, 0, (r->where_cap - old) * sizeof *r->where_in_expr);
    }
    if (r->where_in_expr[j]) {
        r->tval[r->where_in_expr[j] - 1] += v;
        return PROPER_OK;
    }
    if (proper_reserve(&r->tcol, &r->tcap, r->tlen + 1, sizeof *r->tcol) ||
        proper_reserve(&r->tval, &r->tvcap, r->tlen + 1, sizeof *r->tval))
        return proper__lp_tok_error(r, PROPER_ENOMEM, "out of memory");
    r->tcol[r->tlen] = j;
    r->tval[r->tlen++] = v;
    r->where_in_expr[j] = r->tlen;
    return PROPER_OK;
}

/* A linear expression "[+|-] [number] name (+|- [number] name)*"; a number
 * without a name is a constant (objective only). Stops at a relation, a
 * section keyword or the end of input. Repeated variables are summed. */
static int proper__lp_expr(proper__lp_reader *r, double *constant, int allow_constant) {
    int rc = PROPER_OK, first = 1;
    size_t k;
    r->tlen = 0;
    *constant = 0;
    for (;;) {
        proper__lp_tok *t = &r->tok;
        double sign = 1;
        int have_sign = 0;
        if (t->kind == PROPER__LP_TK_END || t->kind == PROPER__LP_TK_LE || t->kind == PROPER__LP_TK_GE ||
            t->kind == PROPER__LP_TK_EQ || proper__lp_keyword(t) != PROPER__LP_SEC_NONE)
            break;
        if (t->kind == PROPER__LP_TK_PLUS || t->kind == PROPER__LP_TK_MINUS) {
            if (t->kind == PROPER__LP_TK_MINUS) sign = -sign;
            have_sign = 1;
            if ((rc = proper__lp_next(r))) goto out;
            if (t->kind == PROPER__LP_TK_PLUS || t->kind == PROPER__LP_TK_MINUS) {
                /* glpsol rejects "++x", "+ -x" and "- -3 x" too */
                rc = proper__lp_tok_error(r, PROPER_EPARSE, "expected a number or a variable name after the sign "
                                                            "(one sign per term)");
                goto out;
            }
        }
        if (!first && !have_sign) { rc = proper__lp_tok_error(r, PROPER_EPARSE, "expected '+' or '-' between terms"); goto out; }
        first = 0;
        if (t->kind == PROPER__LP_TK_NUM) {
            double coef = t->num;
            proper__lp_tok num_tok = *t;
            if ((rc = proper__lp_next(r))) goto out;
            if (t->kind == PROPER__LP_TK_NAME && proper__lp_keyword(t) == PROPER__LP_SEC_NONE) {
                size_t j;
                if ((rc = proper__lp_col(r, &j)) || (rc = proper__lp_expr_add(r, j, sign * coef))) goto out;
                if ((rc = proper__lp_next(r))) goto out;
            } else if (allow_constant) {
                *constant += sign * coef;
            } else {
                r->tok = num_tok;
                rc = proper__lp_tok_error(r, PROPER_EPARSE, "constant term in a constraint (move it to the right-hand side)");
                goto out;
            }
        } else if (t->kind == PROPER__LP_TK_NAME && proper__lp_keyword(t) == PROPER__LP_SEC_NONE) {
            size_t j;
            if ((rc = proper__lp_col(r, &j)) || (rc = proper__lp_expr_add(r, j, sign))) goto out;
            if ((rc = proper__lp_next(r))) goto out;
        } else {
            rc = proper__lp_tok_error(r, PROPER_EPARSE, "expected a term");
            goto out;
        }
    }
out:
    for (k = 0; k < r->tlen; k++) r->where_in_expr[r->tcol[k]] = 0;
    return rc;
}

static int proper__lp_signed_number(proper__lp_reader *r, double *v, int allow_inf) {
    double sign = 1;
    int rc;
    while (r->tok.kind == PROPER__LP_TK_PLUS || r->tok.kind == PROPER__LP_TK_MINUS) {
        if (r->tok.kind == PROPER__LP_TK_MINUS) sign = -sign;
        if ((rc = proper__lp_next(r))) return rc;
    }
    if (r->tok.kind == PROPER__LP_TK_NUM)
        *v = sign * r->tok.num;
    else if (allow_inf && r->tok.kind == PROPER__LP_TK_NAME &&
             (proper__lp_lower_eq(r->tok.s, r->tok.n, "inf") || proper__lp_lower_eq(r->tok.s, r->tok.n, "infinity")))
        *v = sign * PROPER_LP_INF;
    else
        return proper__lp_tok_error(r, PROPER_EPARSE, "expected a number");
    if (*v >= PROPER_LP_INF) *v = PROPER_LP_INF;
    if (*v <= -PROPER_LP_INF) *v = -PROPER_LP_INF;
    return proper__lp_next(r);
}

/* "name:" ahead? Consumes both tokens and copies the name when so. */
static int proper__lp_label(proper__lp_reader *r, char *name, int *has) {
    proper_cursor save = r->c;
    proper__lp_tok savet = r->tok;
    int save_bol = r->have_bol, rc;
    *has = 0;
    if (r->tok.kind != PROPER__LP_TK_NAME || proper__lp_keyword(&r->tok) != PROPER__LP_SEC_NONE) return PROPER_OK;
    if ((rc = proper__lp_next(r))) return rc;
    if (r->tok.kind == PROPER__LP_TK_COLON) {
        memcpy(name, savet.s, savet.n);
        name[savet.n] = '\0';
        *has = 1;
        return proper__lp_next(r);
    }
    r->c = save;
    r->tok = savet;
    r->have_bol = save_bol;
    return PROPER_OK;
}

static int proper__lp_read_row(proper__lp_reader *r) {
    proper_lp *lp = r->lp;
    char name[256];
    size_t index;
    int has_name, rc, op;
    double constant, rhs = 0;
    proper__lp_tok at = r->tok;
    if ((rc = proper__lp_label(r, name, &has_name))) return rc;
    if (has_name && (proper__lp_check_name(name, "row", r->err) ||
                     proper_intern_find(&r->rows, name, strlen(name)) != PROPER_INTERN_NONE)) {
        r->tok = at;
        return proper__lp_tok_error(r, PROPER_EPARSE, "invalid or repeated constraint name");
    }
    if ((rc = proper__lp_expr(r, &constant, 0))) return rc;
    if (r->tlen == 0) return proper__lp_tok_error(r, PROPER_EPARSE, "constraint without variables");
    op = r->tok.kind;
    if (op != PROPER__LP_TK_LE && op != PROPER__LP_TK_GE && op != PROPER__LP_TK_EQ)
        return proper__lp_tok_error(r, PROPER_EPARSE, "expected '<=', '>=' or '=' in a constraint");
    if ((rc = proper__lp_next(r)) || (rc = proper__lp_signed_number(r, &rhs, 0))) return rc;
    if (proper_lp_add_row(lp, r->tlen, r->tcol, r->tval, op == PROPER__LP_TK_LE ? -PROPER_LP_INF : rhs,
                          op == PROPER__LP_TK_GE ? PROPER_LP_INF : rhs, has_name ? name : NULL, r->err)) {
        r->tok = at;
        return proper__lp_tok_error(r, r->err->code, r->err->message);
    }
    if (has_name && proper_intern_add(&r->rows, name, strlen(name), &index, NULL))
        return proper__lp_tok_error(r, PROPER_ENOMEM, "out of memory");
    return PROPER_OK;
}

static int proper__lp_is_rel(int kind) {
    return kind == PROPER__LP_TK_LE || kind == PROPER__LP_TK_GE || kind == PROPER__LP_TK_EQ;
}

/* One bound: "x free", "x op v", "v op x", "v op x op w" (same op twice). */
static int proper__lp_read_bound(proper__lp_reader *r) {
    proper_lp *lp = r->lp;
    proper__lp_tok at = r->tok;
    size_t j;
    int rc, op;
    double v, w;
    if (r->tok.kind == PROPER__LP_TK_NAME && !proper__lp_reserved(r->tok.s, r->tok.n)) {
        if ((rc = proper__lp_col(r, &j)) || (rc = proper__lp_next(r))) return rc;
        if (r->tok.kind == PROPER__LP_TK_NAME && proper__lp_lower_eq(r->tok.s, r->tok.n, "free")) {
            lp->col_lo[j] = -PROPER_LP_INF;
            lp->col_hi[j] = PROPER_LP_INF;
            return proper__lp_next(r);
        }
        op = r->tok.kind;
        if (!proper__lp_is_rel(op)) return proper__lp_tok_error(r, PROPER_EPARSE, "expected '<=', '>=', '=' or 'free' in a bound");
        if ((rc = proper__lp_next(r)) || (rc = proper__lp_signed_number(r, &v, 1))) return rc;
        if (op == PROPER__LP_TK_LE) lp->col_hi[j] = v;
        else if (op == PROPER__LP_TK_GE) lp->col_lo[j] = v;
        else lp->col_lo[j] = lp->col_hi[j] = v;
    } else {
        if ((rc = proper__lp_signed_number(r, &v, 1))) return rc;
        op = r->tok.kind;
        if (!proper__lp_is_rel(op)) return proper__lp_tok_error(r, PROPER_EPARSE, "expected '<=', '>=' or '=' in a bound");
        if ((rc = proper__lp_next(r))) return rc;
        if (r->tok.kind != PROPER__LP_TK_NAME || proper__lp_reserved(r->tok.s, r->tok.n) ||
            proper__lp_keyword(&r->tok) != PROPER__LP_SEC_NONE)
            return proper__lp_tok_error(r, PROPER_EPARSE, "expected a variable name in a bound");
        if ((rc = proper__lp_col(r, &j)) || (rc = proper__lp_next(r))) return rc;
        if (op == PROPER__LP_TK_LE) lp->col_lo[j] = v;
        else if (op == PROPER__LP_TK_GE) lp->col_hi[j] = v;
        else lp->col_lo[j] = lp->col_hi[j] = v;
        if (op != PROPER__LP_TK_EQ && proper__lp_is_rel(r->tok.kind)) {
            if (r->tok.kind != op) return proper__lp_tok_error(r, PROPER_EPARSE, "a double bound needs the same relation twice");
            if ((rc = proper__lp_next(r)) || (rc = proper__lp_signed_number(r, &w, 1))) return rc;
            if (op == PROPER__LP_TK_LE) lp->col_hi[j] = w;
            else lp->col_lo[j] = w;
        }
    }
    if (lp->col_lo[j] >= PROPER_LP_INF || lp->col_hi[j] <= -PROPER_LP_INF || lp->col_lo[j] > lp->col_hi[j]) {
        r->tok = at;
        return proper__lp_tok_error(r, PROPER_EPARSE, "contradictory bounds");
    }
    return PROPER_OK;
}

/* The objective after its keyword: "[name:] expression". */
static int proper__lp_read_objective(proper__lp_reader *r, int maximize) {
    char name[256];
    int has_name, rc;
    double constant;
    size_t k;
    if ((rc = proper__lp_label(r, name, &has_name))) return rc;
    if ((rc = proper__lp_expr(r, &constant, 1))) return rc;
    if (proper__lp_keyword(&r->tok) == PROPER__LP_SEC_NONE && r->tok.kind != PROPER__LP_TK_END)
        return proper__lp_tok_error(r, PROPER_EPARSE, "unexpected relation in the objective");
    for (k = 0; k < r->tlen; k++) r->lp->obj[r->tcol[k]] += r->tval[k];
    r->lp->obj_const = constant;
    r->lp->maximize = maximize;
    return PROPER_OK;
}

/* The whole text, section by section, into r->lp. */
static int proper__lp_read_sections(proper__lp_reader *r) {
    int rc, sec = PROPER__LP_SEC_NONE, seen_obj = 0;
    if ((rc = proper__lp_next(r))) return rc;
    while (r->tok.kind != PROPER__LP_TK_END) {
        int kw = proper__lp_keyword(&r->tok);
        proper__lp_tok kw_tok = r->tok;
        if (kw != PROPER__LP_SEC_NONE) {
            if (kw == PROPER__LP_SEC_INT)
                return proper__lp_tok_error(r, PROPER_EUNSUPPORTED,
                                            "integer variables are not supported (proper solves LPs only; without "
                                            "this section, and with binaries bounded 0..1, the file is the "
                                            "continuous relaxation)");
            if (kw == PROPER__LP_SEC_ROWS2) {
                const char *second = proper__lp_lower_eq(r->tok.s, r->tok.n, "subject") ? "to" : "that";
                if ((rc = proper__lp_next(r))) return rc;
                if (r->tok.kind != PROPER__LP_TK_NAME || !proper__lp_lower_eq(r->tok.s, r->tok.n, second))
                    return proper__lp_tok_error(r, PROPER_EPARSE, "expected 'subject to' or 'such that'");
                kw = PROPER__LP_SEC_ROWS;
            }
            if ((kw == PROPER__LP_SEC_MIN || kw == PROPER__LP_SEC_MAX) && seen_obj) {
                r->tok = kw_tok;
                return proper__lp_tok_error(r, PROPER_EPARSE, "a second objective");
            }
            if (kw != PROPER__LP_SEC_MIN && kw != PROPER__LP_SEC_MAX && !seen_obj) {
                r->tok = kw_tok;
                return proper__lp_tok_error(r, PROPER_EPARSE, "expected 'Minimize' or 'Maximize' first");
            }
            sec = kw;
            if ((rc = proper__lp_next(r))) return rc;
            if (sec == PROPER__LP_SEC_END) break;
            if (sec == PROPER__LP_SEC_MIN || sec == PROPER__LP_SEC_MAX) {
                if ((rc = proper__lp_read_objective(r, sec == PROPER__LP_SEC_MAX))) return rc;
                seen_obj = 1;
            }
            continue;
        }
        if (sec == PROPER__LP_SEC_ROWS) rc = proper__lp_read_row(r);
        else if (sec == PROPER__LP_SEC_BOUNDS) rc = proper__lp_read_bound(r);
        else rc = proper__lp_tok_error(r, PROPER_EPARSE, "expected 'Minimize' or 'Maximize'");
        if (rc) return rc;
    }
    if (sec != PROPER__LP_SEC_END) return proper__lp_tok_error(r, PROPER_EPARSE, "missing 'End'");
    if (r->lp->ncols == 0) return proper__lp_tok_error(r, PROPER_EPARSE, "the problem has no variables");
    return PROPER_OK;
}

PROPER_API int proper_lp_parse_cplex(proper_lp *out, const char *text, size_t len, const char *name,
                                     proper_error *err) {
    proper__lp_reader r;
    proper_error local;
    proper_lp lp;
    int rc;
    proper_lp_init(&lp);
    memset(&r, 0, sizeof r);
    r.lp = &lp;
    r.err = err ? err : &local;
    r.have_bol = 1;
    proper_skip_bom(&text, &len);
    proper_cursor_init(&r.c, text, len, name);
    proper_intern_init(&r.cols);
    proper_intern_init(&r.rows);
    rc = proper__lp_read_sections(&r);
    proper_intern_free(&r.cols);
    proper_intern_free(&r.rows);
    PROPER_FREE(r.tcol);
    PROPER_FREE(r.tval);
    PROPER_FREE(r.where_in_expr);
    if (rc) {
        proper_lp_free(&lp);
        return rc;
    }
    proper_lp_free(out);
    *out = lp;
    return PROPER_OK;
}

PROPER_API int proper_lp_read_cplex(proper_lp *out, const char *path, proper_error *err) {
    char *text;
    size_t len;
    int rc;
    if ((rc = proper_read_file(path, &text, &len, err))) return rc;
    rc = proper_lp_parse_cplex(out, text, len, path, err);
    PROPER_FREE(text);
    return rc;
}

/* ---- simplex engine ------------------------------------------------------
 * Problem: min cost'x  s.t.  A x - w = 0,  lb <= (x, w) <= ub, with n
 * structural columns (CSC) and m logicals w (column -e_i). Infinite bounds
 * are IEEE infinities here. */

enum { PROPER__LP_SPX_OPTIMAL, PROPER__LP_SPX_INFEASIBLE, PROPER__LP_SPX_UNBOUNDED, PROPER__LP_SPX_LIMIT };


typedef struct proper__lp_spx {
    size_t m, n, nt;
    size_t *cs, *ci;        /* CSC of A (scaled copy) */
    double *cv;
    double *lb, *ub, *cost, *x;  /* [nt] */
    double *rscale, *cscale;     /* [m], [n] */
    double objscale;
    size_t *head;           /* [m] variable in each basis position */
    ptrdiff_t *pos;         /* [nt] basis position or -1 */
    /* factorisation of the basis at the last refactorisation */
    ptrdiff_t *cover;       /* [m] position of the basic logical of row i, or -1 */
    ptrdiff_t *rowk;        /* [m] index of row i in the kernel, or -1 */
    size_t k, lucap;
    size_t *krow, *kpos;    /* kernel rows; kernel columns (basis positions) */
    size_t *kvar;           /* variable of each kernel column at factorisation */
    size_t *perm;           /* LU row order */
    double *lu;             /* k x k, column-major, L unit lower and U */
    /* product-form updates since then */
    size_t neta, etanz, etanzcap;
    size_t *eta_p, *eta_beg, *eta_i;
    double *eta_piv, *eta_v;
    /* work */
    double *wa, *wb, *alpha, *y, *cb, *kw;
    double *lb0, *ub0;      /* the true bounds while they are perturbed */
    int perturbed;          /* 0 never, 1 now, 2 done and removed */
    int warm;               /* 1: started from a saved basis */
    size_t iters, max_iters;
} proper__lp_spx;

static void proper__lp_spx_free(proper__lp_spx *S) {
    PROPER_FREE(S->cs); PROPER_FREE(S->ci); PROPER_FREE(S->cv);
    PROPER_FREE(S->lb); PROPER_FREE(S->ub); PROPER_FREE(S->cost); PROPER_FREE(S->x);
    PROPER_FREE(S->rscale); PROPER_FREE(S->cscale); PROPER_FREE(S->head); PROPER_FREE(S->pos);
    PROPER_FREE(S->cover); PROPER_FREE(S->rowk); PROPER_FREE(S->krow); PROPER_FREE(S->kpos); PROPER_FREE(S->kvar);
    PROPER_FREE(S->perm); PROPER_FREE(S->lu); PROPER_FREE(S->eta_p); PROPER_FREE(S->eta_beg);
    PROPER_FREE(S->eta_i); PROPER_FREE(S->eta_piv); PROPER_FREE(S->eta_v);
    PROPER_FREE(S->wa); PROPER_FREE(S->wb); PROPER_FREE(S->alpha); PROPER_FREE(S->y);
    PROPER_FREE(S->cb); PROPER_FREE(S->kw); PROPER_FREE(S->lb0); PROPER_FREE(S->ub0);
    memset(S, 0, sizeof *S);
}

static double proper__lp_pow2(double v) {
    int e;
    if (!(v > 0) || !isfinite(v)) return 1.0;
    frexp(v, &e);
    return ldexp(1.0, e - 1);
}

/* The starting basis: boxed columns at the bound their cost prefers,
 * others at their finite bound (or 0 when free); all logicals basic. */
static void proper__lp_spx_cold_start(proper__lp_spx *S) {
    size_t i, j;
    for (j = 0; j < S->nt; j++) {
        S->pos[j] = -1;
        if (j >= S->n) continue;
        if (isfinite(S->lb[j]) && isfinite(S->ub[j])) S->x[j] = S->cost[j] < 0 ? S->ub[j] : S->lb[j];
        else if (isfinite(S->lb[j])) S->x[j] = S->lb[j];
        else if (isfinite(S->ub[j])) S->x[j] = S->ub[j];
        else S->x[j] = 0;
    }
    for (i = 0; i < S->m; i++) { S->head[i] = S->n + i; S->pos[S->n + i] = (ptrdiff_t)i; }
}

/* Copy the problem in (bounds with |b| >= PROPER_LP_INF become infinite),
 * scale it, and put every structural at a bound and every logical in the
 * basis. */
static int proper__lp_spx_setup(proper__lp_spx *S, size_t m, size_t n, const size_t *cs, const size_t *ci,
                             const double *cv, const double *lb, const double *ub, const double *cost, int scale) {
    size_t nt = n + m, nnz = cs[n], i, j, k, pass;
    double *rmin, *rmax, cmax_cost = 0;
    memset(S, 0, sizeof *S);
    S->m = m; S->n = n; S->nt = nt;
    S->cs = (size_t *)proper_calloc(n + 1, sizeof *S->cs);
    S->ci = (size_t *)proper_calloc(nnz, sizeof *S->ci);
    S->cv = (double *)proper_calloc(nnz, sizeof *S->cv);
    S->lb = (double *)proper_calloc(nt, sizeof *S->lb);
    S->ub = (double *)proper_calloc(nt, sizeof *S->ub);
    S->cost = (double *)proper_calloc(nt, sizeof *S->cost);
    S->x = (double *)proper_calloc(nt, sizeof *S->x);
    S->rscale = (double *)proper_calloc(m, sizeof *S->rscale);
    S->cscale = (double *)proper_calloc(n, sizeof *S->cscale);
    S->head = (size_t *)proper_calloc(m, sizeof *S->head);
    S->pos = (ptrdiff_t *)proper_calloc(nt, sizeof *S->pos);
    S->cover = (ptrdiff_t *)proper_calloc(m, sizeof *S->cover);
    S->rowk = (ptrdiff_t *)proper_calloc(m, sizeof *S->rowk);
    S->krow = (size_t *)proper_calloc(m, sizeof *S->krow);
    S->kpos = (size_t *)proper_calloc(m, sizeof *S->kpos);
    S->kvar = (size_t *)proper_calloc(m, sizeof *S->kvar);
    S->perm = (size_t *)proper_calloc(m, sizeof *S->perm);
    S->wa = (double *)proper_calloc(m, sizeof *S->wa);
    S->wb = (double *)proper_calloc(m, sizeof *S->wb);
    S->alpha = (double *)proper_calloc(m, sizeof *S->alpha);
    S->y = (double *)proper_calloc(m, sizeof *S->y);
    S->cb = (double *)proper_calloc(m, sizeof *S->cb);
    S->kw = (double *)proper_calloc(m, sizeof *S->kw);
    S->eta_p = (size_t *)proper_calloc(PROPER_LP_REFACTOR_EVERY + 1, sizeof *S->eta_p);
    S->eta_beg = (size_t *)proper_calloc(PROPER_LP_REFACTOR_EVERY + 2, sizeof *S->eta_beg);
    S->eta_piv = (double *)proper_calloc(PROPER_LP_REFACTOR_EVERY + 1, sizeof *S->eta_piv);
    rmin = (double *)proper_calloc(m, sizeof *rmin);
    rmax = (double *)proper_calloc(m, sizeof *rmax);
    if (!S->cs || !S->ci || !S->cv || !S->lb || !S->ub || !S->cost || !S->x || !S->rscale || !S->cscale ||
        !S->head || !S->pos || !S->cover || !S->rowk || !S->krow || !S->kpos || !S->kvar || !S->perm || !S->wa || !S->wb ||
        !S->alpha || !S->y || !S->cb || !S->kw || !S->eta_p || !S->eta_beg || !S->eta_piv || !rmin || !rmax) {
        PROPER_FREE(rmin); PROPER_FREE(rmax);
        proper__lp_spx_free(S);
        return PROPER_ENOMEM;
    }
    memcpy(S->cs, cs, (n + 1) * sizeof *cs);
    memcpy(S->ci, ci, nnz * sizeof *ci);
    memcpy(S->cv, cv, nnz * sizeof *cv);
    for (i = 0; i < m; i++) S->rscale[i] = 1;
    for (j = 0; j < n; j++) S->cscale[j] = 1;
    /* geometric scaling: each row, then each column, divided by the
     * geometric mean of its smallest and largest magnitude */
    for (pass = 0; pass < PROPER_LP_SCALE_PASSES && nnz && scale; pass++) {
        for (i = 0; i < m; i++) { rmin[i] = INFINITY; rmax[i] = 0; }
        for (j = 0; j < n; j++)
            for (k = cs[j]; k < cs[j + 1]; k++) {
                double a = fabs(cv[k]) * S->cscale[j];
                if (a == 0) continue;
                if (a < rmin[ci[k]]) rmin[ci[k]] = a;
                if (a > rmax[ci[k]]) rmax[ci[k]] = a;
            }
        for (i = 0; i < m; i++)
            if (rmax[i] > 0) S->rscale[i] = proper__lp_pow2(1.0 / sqrt(rmin[i] * rmax[i]));
        for (j = 0; j < n; j++) {
            double lo = INFINITY, hi = 0;
            for (k = cs[j]; k < cs[j + 1]; k++) {
                double a = fabs(cv[k]) * S->rscale[ci[k]];
                if (a == 0) continue;
                if (a < lo) lo = a;
                if (a > hi) hi = a;
            }
            if (hi > 0) S->cscale[j] = proper__lp_pow2(1.0 / sqrt(lo * hi));
        }
    }
    PROPER_FREE(rmin);
    PROPER_FREE(rmax);
    for (j = 0; j < n; j++)
        for (k = cs[j]; k < cs[j + 1]; k++) S->cv[k] = cv[k] * S->rscale[ci[k]] * S->cscale[j];
    for (j = 0; j < nt; j++) {
        double s = j < n ? 1.0 / S->cscale[j] : S->rscale[j - n];
        S->lb[j] = lb[j] <= -PROPER_LP_INF ? -INFINITY : lb[j] * s;
        S->ub[j] = ub[j] >= PROPER_LP_INF ? INFINITY : ub[j] * s;
    }
    for (j = 0; j < n; j++) {
        S->cost[j] = cost[j] * S->cscale[j];
        if (fabs(S->cost[j]) > cmax_cost) cmax_cost = fabs(S->cost[j]);
    }
    S->objscale = cmax_cost > 0 ? 1.0 / cmax_cost : 1.0;
    for (j = 0; j < n; j++) S->cost[j] *= S->objscale;
    proper__lp_spx_cold_start(S);
    return PROPER_OK;
}

static int proper__lp_spx_boxed(const proper__lp_spx *S, size_t j) { return isfinite(S->lb[j]) && isfinite(S->ub[j]); }

/* Start from a saved basis when it belongs to a problem of this shape:
 * its basic variables, and every nonbasic one at the bound it held. */
static void proper__lp_spx_install(proper__lp_spx *S, const proper_lp_basis *B, int dual) {
    size_t p, j;
    if (!B || !B->head || B->m != S->m || B->nt != S->nt || B->dual != dual) return;
    for (p = 0; p < S->m; p++)
        if (B->head[p] >= S->nt) return;
    for (j = 0; j < S->nt; j++) S->pos[j] = -1;
    for (p = 0; p < S->m; p++) {
        if (S->pos[B->head[p]] >= 0) goto reset; /* listed twice */
        S->pos[B->head[p]] = (ptrdiff_t)p;
        S->head[p] = B->head[p];
    }
    for (j = 0; j < S->nt; j++) {
        if (S->pos[j] >= 0) continue;
        if (B->upper[j] && isfinite(S->ub[j])) S->x[j] = S->ub[j];
        else if (isfinite(S->lb[j])) S->x[j] = S->lb[j];
        else if (isfinite(S->ub[j])) S->x[j] = S->ub[j];
        else S->x[j] = 0;
    }
    S->warm = 1;
    return;
reset:
    proper__lp_spx_cold_start(S);
}

static int proper__lp_spx_save(const proper__lp_spx *S, proper_lp_basis *B, int dual) {
    size_t j;
    if (!B) return PROPER_OK;
    if (B->m != S->m || B->nt != S->nt || !B->head) {
        proper_lp_basis_free(B);
        B->head = (size_t *)proper_calloc(S->m + 1, sizeof *B->head);
        B->upper = (unsigned char *)proper_calloc(S->nt + 1, 1);
        if (!B->head || !B->upper) { proper_lp_basis_free(B); return PROPER_ENOMEM; }
        B->m = S->m;
        B->nt = S->nt;
    }
    B->dual = dual;
    memcpy(B->head, S->head, S->m * sizeof *B->head);
    for (j = 0; j < S->nt; j++)
        B->upper[j] = S->pos[j] < 0 && isfinite(S->ub[j]) && S->x[j] == S->ub[j] && S->lb[j] != S->ub[j];
    return PROPER_OK;
}

static double proper__lp_spx_tol(double bound) { return PROPER_LP_PRIMAL_TOL * (1.0 + fabs(bound)); }

/* Move a variable that leaves the basis outside a pivot to its nearest
 * bound (free variables keep their value). */
static void proper__lp_spx_to_bound(proper__lp_spx *S, size_t v) {
    double lo = S->lb[v], hi = S->ub[v], xv = S->x[v];
    if (isfinite(lo) && (!isfinite(hi) || fabs(xv - lo) <= fabs(hi - xv))) S->x[v] = lo;
    else if (isfinite(hi)) S->x[v] = hi;
}

/* LU of the k x k kernel with partial pivoting. Returns the kernel column
 * that has no acceptable pivot, or k when the factorisation succeeded. */
static size_t proper__lp_spx_lu(proper__lp_spx *S) {
    size_t k = S->k, t, i, j;
    double *a = S->lu;
    for (i = 0; i < k; i++) S->perm[i] = i;
    for (t = 0; t < k; t++) {
        double *col = a + t * k, best = 0, colmax = 0;
        size_t piv = t;
        for (i = 0; i < k; i++) if (fabs(col[i]) > colmax) colmax = fabs(col[i]);
        for (i = t; i < k; i++)
            if (fabs(col[i]) > best) { best = fabs(col[i]); piv = i; }
        if (best <= PROPER_LP_SING_TOL * (colmax > 1 ? colmax : 1)) return t;
        if (piv != t) {
            size_t tp = S->perm[t];
            S->perm[t] = S->perm[piv];
            S->perm[piv] = tp;
            for (j = 0; j < k; j++) {
                double tv = a[t + j * k];
                a[t + j * k] = a[piv + j * k];
                a[piv + j * k] = tv;
            }
        }
        for (i = t + 1; i < k; i++) col[i] /= col[t];
        for (j = t + 1; j < k; j++) {
            double *cj = a + j * k, f = cj[t];
            if (f == 0) continue;
            for (i = t + 1; i < k; i++) cj[i] -= col[i] * f;
        }
    }
    return k;
}

/* Refactorise the current basis; dependent structural columns are swapped
 * for logicals of uncovered rows (the basis stays square and regular). */
static int proper__lp_spx_factor(proper__lp_spx *S) {
    size_t m = S->m, n = S->n, i, p, b, tries;
    for (tries = 0; tries <= m; tries++) {
        size_t k = 0, nr = 0, bad;
        for (i = 0; i < m; i++) { S->cover[i] = -1; S->rowk[i] = -1; }
        for (p = 0; p < m; p++)
            if (S->head[p] >= n) S->cover[S->head[p] - n] = (ptrdiff_t)p;
            else S->kpos[k++] = p;
        for (i = 0; i < m; i++)
            if (S->cover[i] < 0) { S->rowk[i] = (ptrdiff_t)nr; S->krow[nr++] = i; }
        S->k = k; /* nr == k: each basic logical covers its own row */
        if (k > PROPER_LP_MAX_KERNEL) return PROPER_ELIMIT;
        if (k * k > S->lucap) {
            double *nl = (double *)PROPER_REALLOC(S->lu, k * k * sizeof *nl);
            if (!nl) return PROPER_ENOMEM;
            S->lu = nl;
            S->lucap = k * k;
        }
        if (k) memset(S->lu, 0, k * k * sizeof *S->lu);
        for (b = 0; b < k; b++) {
            size_t j = S->head[S->kpos[b]], q;
            S->kvar[b] = j;
            for (q = S->cs[j]; q < S->cs[j + 1]; q++)
                if (S->rowk[S->ci[q]] >= 0) S->lu[(size_t)S->rowk[S->ci[q]] + b * k] = S->cv[q];
        }
        bad = proper__lp_spx_lu(S);
        S->neta = 0;
        S->etanz = 0;
        if (bad == k) return PROPER_OK;
        {
            /* the unpivoted kernel row perm[bad] gets its logical back */
            size_t row = S->krow[S->perm[bad]], posn = S->kpos[bad], leaving = S->head[posn];
            S->pos[leaving] = -1;
            proper__lp_spx_to_bound(S, leaving);
            S->head[posn] = n + row;
            S->pos[n + row] = (ptrdiff_t)posn;
        }
    }
    return PROPER_ENOCONV;
}

/* z = B0^{-1} rhs (rhs by row, destroyed; z by basis position). */
static void proper__lp_spx_ftran_base(proper__lp_spx *S, double *rhs, double *z) {
    size_t k = S->k, a, b, t, i;
    double *u = S->kw, *lu = S->lu;
    for (a = 0; a < k; a++) u[a] = rhs[S->krow[S->perm[a]]];
    for (t = 0; t < k; t++) {
        double f = u[t];
        const double *col = lu + t * k;
        if (f != 0) for (i = t + 1; i < k; i++) u[i] -= col[i] * f;
    }
    for (t = k; t-- > 0;) {
        const double *col = lu + t * k;
        double f = u[t] / col[t];
        u[t] = f;
        if (f != 0) for (i = 0; i < t; i++) u[i] -= col[i] * f;
    }
    for (b = 0; b < k; b++) {
        size_t j = S->kvar[b], q;
        z[S->kpos[b]] = u[b];
        if (u[b] != 0)
            for (q = S->cs[j]; q < S->cs[j + 1]; q++) rhs[S->ci[q]] -= S->cv[q] * u[b];
    }
    for (i = 0; i < S->m; i++)
        if (S->cover[i] >= 0) z[S->cover[i]] = -rhs[i];
}

static void proper__lp_spx_ftran(proper__lp_spx *S, double *rhs, double *z) {
    size_t e, q;
    proper__lp_spx_ftran_base(S, rhs, z);
    for (e = 0; e < S->neta; e++) {
        size_t p = S->eta_p[e];
        double zp = z[p] / S->eta_piv[e];
        z[p] = zp;
        if (zp != 0)
            for (q = S->eta_beg[e]; q < S->eta_beg[e + 1]; q++) z[S->eta_i[q]] -= S->eta_v[q] * zp;
    }
}

/* y = B^{-T} cb (cb by basis position, destroyed; y by row). */
static void proper__lp_spx_btran(proper__lp_spx *S, double *cb, double *y) {
    size_t k = S->k, e, q, a, b, t, i;
    double *v = S->kw, *lu = S->lu;
    for (e = S->neta; e-- > 0;) {
        size_t p = S->eta_p[e];
        double s = cb[p];
        for (q = S->eta_beg[e]; q < S->eta_beg[e + 1]; q++) s -= S->eta_v[q] * cb[S->eta_i[q]];
        cb[p] = s / S->eta_piv[e];
    }
    for (i = 0; i < S->m; i++)
        if (S->cover[i] >= 0) y[i] = -cb[S->cover[i]];
    for (b = 0; b < k; b++) {
        size_t j = S->kvar[b];
        double s = cb[S->kpos[b]];
        for (q = S->cs[j]; q < S->cs[j + 1]; q++)
            if (S->cover[S->ci[q]] >= 0) s -= S->cv[q] * y[S->ci[q]];
        v[b] = s;
    }
    /* U' w = v, then L' z = w, then y[krow[perm[t]]] = z[t] */
    for (t = 0; t < k; t++) {
        const double *col = lu + t * k;
        double s = v[t];
        for (i = 0; i < t; i++) s -= col[i] * v[i];
        v[t] = s / col[t];
    }
    for (t = k; t-- > 0;) {
        const double *col = lu + t * k;
        double s = v[t];
        for (i = t + 1; i < k; i++) s -= col[i] * v[i];
        v[t] = s;
    }
    for (a = 0; a < k; a++) y[S->krow[S->perm[a]]] = v[a];
}

static void proper__lp_spx_recompute_xb(proper__lp_spx *S) {
    size_t i, j, q, p;
    double *rhs = S->wa, *z = S->wb;
    for (i = 0; i < S->m; i++) rhs[i] = 0;
    for (j = 0; j < S->n; j++)
        if (S->pos[j] < 0 && S->x[j] != 0)
            for (q = S->cs[j]; q < S->cs[j + 1]; q++) rhs[S->ci[q]] -= S->cv[q] * S->x[j];
    for (i = 0; i < S->m; i++)
        if (S->pos[S->n + i] < 0) rhs[i] += S->x[S->n + i];
    proper__lp_spx_ftran_base(S, rhs, z);
    for (p = 0; p < S->m; p++) S->x[S->head[p]] = z[p];
}

/* Append the eta vector of a pivot at position r (alpha = B^{-1} a_q). At
 * most PROPER_LP_REFACTOR_EVERY etas exist between factorisations. */
static int proper__lp_spx_push_eta(proper__lp_spx *S, size_t r) {
    size_t i, cnt = 0;
    for (i = 0; i < S->m; i++)
        if (i != r && fabs(S->alpha[i]) > 1e-14) cnt++;
    if (S->etanz + cnt > S->etanzcap) {
        size_t c1 = S->etanzcap, c2 = S->etanzcap;
        if (proper_reserve(&S->eta_i, &c1, S->etanz + cnt, sizeof *S->eta_i) ||
            proper_reserve(&S->eta_v, &c2, S->etanz + cnt, sizeof *S->eta_v))
            return PROPER_ENOMEM;
        S->etanzcap = c1 < c2 ? c1 : c2;
    }
    S->eta_beg[0] = 0;
    S->eta_p[S->neta] = r;
    S->eta_piv[S->neta] = S->alpha[r];
    for (i = 0; i < S->m; i++)
        if (i != r && fabs(S->alpha[i]) > 1e-14) {
            S->eta_i[S->etanz] = i;
            S->eta_v[S->etanz++] = S->alpha[i];
        }
    S->neta++;
    S->eta_beg[S->neta] = S->etanz;
    return PROPER_OK;
}

/* Bounds a basic variable must respect in the ratio test: in phase 1 an
 * infeasible variable may move only up to the bound it violates. */
static void proper__lp_spx_eff_bounds(const proper__lp_spx *S, size_t v, int phase1, double *lo, double *hi) {
    *lo = S->lb[v];
    *hi = S->ub[v];
    if (!phase1) return;
    if (S->x[v] < S->lb[v] - proper__lp_spx_tol(S->lb[v])) { *lo = -INFINITY; *hi = S->lb[v]; }
    else if (S->x[v] > S->ub[v] + proper__lp_spx_tol(S->ub[v])) { *lo = S->ub[v]; *hi = INFINITY; }
}

static double proper__lp_spx_col_dot(const proper__lp_spx *S, size_t j, const double *y) {
    size_t q;
    double s = 0;
    if (j >= S->n) return -y[j - S->n];
    for (q = S->cs[j]; q < S->cs[j + 1]; q++) s += S->cv[q] * y[S->ci[q]];
    return s;
}

/* A deterministic value in [0, 1) for variable j (no shared RNG state). */
static double proper__lp_spx_jitter(size_t j, unsigned salt) {
    uint64_t z = (uint64_t)j * 0x9E3779B97F4A7C15ULL + salt;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

/* Against a run of degenerate pivots: widen every finite bound by a small
 * random amount (so ties between blocking variables disappear), moving the
 * nonbasic variables with their bound. Returns ENOMEM or 0. */
static int proper__lp_spx_perturb(proper__lp_spx *S) {
    size_t j, nt = S->nt;
    S->lb0 = (double *)proper_calloc(nt, sizeof *S->lb0);
    S->ub0 = (double *)proper_calloc(nt, sizeof *S->ub0);
    if (!S->lb0 || !S->ub0) return PROPER_ENOMEM;
    memcpy(S->lb0, S->lb, nt * sizeof *S->lb);
    memcpy(S->ub0, S->ub, nt * sizeof *S->ub);
    for (j = 0; j < nt; j++) {
        int at_lb = S->pos[j] < 0 && S->x[j] == S->lb[j], at_ub = S->pos[j] < 0 && S->x[j] == S->ub[j];
        if (S->lb[j] == S->ub[j]) continue; /* fixed variables stay fixed */
        if (isfinite(S->lb[j])) S->lb[j] -= PROPER_LP_PERTURB * (1 + fabs(S->lb[j])) * (1 + proper__lp_spx_jitter(j, 1));
        if (isfinite(S->ub[j])) S->ub[j] += PROPER_LP_PERTURB * (1 + fabs(S->ub[j])) * (1 + proper__lp_spx_jitter(j, 2));
        if (at_lb) S->x[j] = S->lb[j];
        else if (at_ub) S->x[j] = S->ub[j];
    }
    S->perturbed = 1;
    return PROPER_OK;
}

/* Back to the true bounds: nonbasic variables move to their true bound. */
static void proper__lp_spx_unperturb(proper__lp_spx *S) {
    size_t j;
    for (j = 0; j < S->nt; j++) {
        if (S->pos[j] < 0) {
            if (S->x[j] == S->lb[j]) S->x[j] = S->lb0[j];
            else if (S->x[j] == S->ub[j]) S->x[j] = S->ub0[j];
        }
        S->lb[j] = S->lb0[j];
        S->ub[j] = S->ub0[j];
    }
    S->perturbed = 2;
}

/* ---- dual simplex with bound flipping --------------------------------------
 * Used first: when every nonbasic column without two finite bounds has a
 * reduced cost of the right sign, the basis is dual feasible (boxed columns
 * sit at the bound their reduced cost asks for). The dual simplex then
 * removes primal infeasibilities one row at a time; its long-step ratio test
 * passes every breakpoint of a boxed column (flipping it to its other bound)
 * while the dual objective still improves. For least-absolute-deviation
 * duals this is the Barrodale-Roberts step: one basis change passes many
 * residual sign changes. The primal simplex then verifies optimality (and
 * takes over if dual feasibility is lost). */

enum { PROPER__LP_SPX_DUAL_FALLBACK = 10 };

typedef struct proper__lp_spx_cand {
    double t, a;  /* ratio, |alpha_rj| */
    size_t j;
} proper__lp_spx_cand;

static int proper__lp_spx_cand_less(const proper__lp_spx_cand *a, const proper__lp_spx_cand *b) {
    return a->t < b->t || (a->t == b->t && a->j < b->j);
}

/* Min-heap of candidates by ratio: the long step usually passes a few
 * breakpoints out of thousands, so only those are extracted. */
static void proper__lp_spx_sift(proper__lp_spx_cand *h, size_t n, size_t i) {
    for (;;) {
        size_t l = 2 * i + 1, small = i;
        proper__lp_spx_cand t;
        if (l < n && proper__lp_spx_cand_less(&h[l], &h[small])) small = l;
        if (l + 1 < n && proper__lp_spx_cand_less(&h[l + 1], &h[small])) small = l + 1;
        if (small == i) return;
        t = h[i]; h[i] = h[small]; h[small] = t;
        i = small;
    }
}

/* Remove the smallest candidate of the heap h[0..*n) and return it. */
static proper__lp_spx_cand proper__lp_spx_pop(proper__lp_spx_cand *h, size_t *n) {
    proper__lp_spx_cand top = h[0];
    h[0] = h[--*n];
    proper__lp_spx_sift(h, *n, 0);
    return top;
}

/* Reduced costs of the nonbasic columns from scratch; boxed columns move
 * to the bound their reduced cost asks for. Another column with a reduced
 * cost of the wrong sign gets its cost shifted to make it zero when
 * shift_costs is set (a warm start: the caller restores the true costs and
 * the primal simplex finishes); otherwise the basis is not dual feasible
 * and the result is 1. */
static int proper__lp_spx_dual_prepare(proper__lp_spx *S, double *d, int *flipped, int shift_costs) {
    size_t p, j;
    *flipped = 0;
    for (p = 0; p < S->m; p++) S->cb[p] = S->cost[S->head[p]];
    proper__lp_spx_btran(S, S->cb, S->y);
    for (j = 0; j < S->nt; j++) {
        if (S->pos[j] >= 0) { d[j] = 0; continue; }
        d[j] = S->cost[j] - proper__lp_spx_col_dot(S, j, S->y);
        if (S->lb[j] == S->ub[j]) continue;
        if (proper__lp_spx_boxed(S, j)) {
            if (d[j] < -PROPER_LP_DUAL_TOL && S->x[j] != S->ub[j]) { S->x[j] = S->ub[j]; *flipped = 1; }
            else if (d[j] > PROPER_LP_DUAL_TOL && S->x[j] != S->lb[j]) { S->x[j] = S->lb[j]; *flipped = 1; }
        } else if ((d[j] < -PROPER_LP_DUAL_TOL && S->x[j] < S->ub[j]) || (d[j] > PROPER_LP_DUAL_TOL && S->x[j] > S->lb[j])) {
            if (!shift_costs) return 1;
            S->cost[j] -= d[j];
            d[j] = 0;
        }
    }
    return 0;
}

/* Against dual degeneracy (many zero reduced costs, on which the dual
 * simplex can cycle): shift the cost of every nonbasic column by a small
 * random amount in the direction that keeps it dual feasible at its bound.
 * The true costs come back when the dual phase ends; the primal simplex then
 * repairs any reduced cost of the wrong sign. */
static void proper__lp_spx_perturb_costs(proper__lp_spx *S) {
    size_t j;
    for (j = 0; j < S->nt; j++) {
        double xi;
        if (S->pos[j] >= 0 || S->lb[j] == S->ub[j]) continue;
        xi = PROPER_LP_PERTURB * (1 + fabs(S->cost[j])) * (1 + proper__lp_spx_jitter(j, 3));
        if (S->x[j] == S->lb[j] && isfinite(S->lb[j])) S->cost[j] += xi;
        else if (S->x[j] == S->ub[j] && isfinite(S->ub[j])) S->cost[j] -= xi;
    }
}

/* Exact dual steepest-edge weights beta_r = ||e_r' B^{-1}||^2 of the
 * current (freshly factorised) basis: one BTRAN per row. */
static void proper__lp_spx_edge_weights(proper__lp_spx *S, double *beta) {
    size_t r, p;
    for (r = 0; r < S->m; r++) {
        double w = 0;
        for (p = 0; p < S->m; p++) S->cb[p] = p == r;
        proper__lp_spx_btran(S, S->cb, S->wb);
        for (p = 0; p < S->m; p++) w += S->wb[p] * S->wb[p];
        beta[r] = w > 1e-12 ? w : 1e-12;
    }
}

static int proper__lp_spx_dual(proper__lp_spx *S) {
    size_t m = S->m, nt = S->nt, p, j, ncand, limit = 5 * (S->m + S->nt) + 1000;
    double *d = NULL, *arow = NULL, *cost0 = NULL, *beta = NULL, *tau = NULL;
    size_t *flip = NULL;
    proper__lp_spx_cand *cand = NULL;
    int need_factor = 1, rc = PROPER_OK, perturbed = 0;
    d = (double *)proper_calloc(nt, sizeof *d);
    arow = (double *)proper_calloc(nt, sizeof *arow);
    flip = (size_t *)proper_calloc(nt, sizeof *flip);
    cand = (proper__lp_spx_cand *)proper_calloc(nt, sizeof *cand);
    cost0 = (double *)proper_calloc(nt, sizeof *cost0);
    beta = (double *)proper_calloc(m + 1, sizeof *beta);
    tau = (double *)proper_calloc(m + 1, sizeof *tau);
    if (!d || !arow || !flip || !cand || !cost0 || !beta || !tau) { rc = PROPER_ENOMEM; goto out; }
    memcpy(cost0, S->cost, nt * sizeof *cost0);
    /* dual steepest-edge weights ||e_r' B^{-1}||^2: exact (1) for the
     * starting basis of logicals, whose B is -I; a warm basis gets its own
     * after the first factorisation */
    for (p = 0; p < m; p++) beta[p] = 1;
    for (;;) {
        size_t r = m, q = nt, leave, k;
        double worst = 0, delta, slope, bound, theta_d, step, aq;
        int fresh;
        if (need_factor) {
            int flipped;
            if ((rc = proper__lp_spx_factor(S))) goto out;
            proper__lp_spx_recompute_xb(S);
            if (proper__lp_spx_dual_prepare(S, d, &flipped, S->warm && perturbed < 2)) {
                rc = PROPER__LP_SPX_DUAL_FALLBACK;
                goto out;
            }
            if (perturbed == 0) {
                /* first factorisation: boxed columns now sit at the bound
                 * their reduced cost asks for; perturb and price again */
                proper__lp_spx_perturb_costs(S);
                perturbed = 1;
                if (proper__lp_spx_dual_prepare(S, d, &flipped, S->warm)) { rc = PROPER__LP_SPX_DUAL_FALLBACK; goto out; }
                flipped = 1;
            }
            if (flipped) proper__lp_spx_recompute_xb(S);
            if (S->warm == 1) {
                proper__lp_spx_edge_weights(S, beta);
                S->warm = 2;
            }
            need_factor = 0;
        }
        fresh = S->neta == 0;
        /* leaving row: dual steepest edge, the largest violation^2 / weight */
        for (p = 0; p < m; p++) {
            size_t v = S->head[p];
            double viol = 0;
            if (S->x[v] < S->lb[v] - proper__lp_spx_tol(S->lb[v])) viol = S->lb[v] - S->x[v];
            else if (S->x[v] > S->ub[v] + proper__lp_spx_tol(S->ub[v])) viol = S->x[v] - S->ub[v];
            if (viol > 0 && viol * viol / beta[p] > worst) { worst = viol * viol / beta[p]; r = p; }
        }
        if (r == m) {
            if (!fresh) { need_factor = 1; continue; }
            if (perturbed == 1) {
                /* optimal for the perturbed costs: restore the true ones;
                 * boxed columns move to the bound their true reduced cost
                 * asks for and the dual simplex continues from there */
                memcpy(S->cost, cost0, nt * sizeof *cost0);
                perturbed = 2;
                need_factor = 1;
                continue;
            }
            rc = PROPER__LP_SPX_OPTIMAL;
            goto out;
        }
        leave = S->head[r];
        bound = S->x[leave] < S->lb[leave] ? S->lb[leave] : S->ub[leave];
        delta = S->x[leave] - bound;
        /* pivot row alpha_r = e_r' B^{-1} A_N */
        for (p = 0; p < m; p++) S->cb[p] = p == r;
        proper__lp_spx_btran(S, S->cb, S->wb);
        ncand = 0;
        for (j = 0; j < nt; j++) {
            double a, at;
            if (S->pos[j] >= 0 || S->lb[j] == S->ub[j]) continue;
            a = proper__lp_spx_col_dot(S, j, S->wb);
            arow[j] = a;
            at = delta > 0 ? a : -a;
            if (fabs(a) < PROPER_LP_PIVOT_TOL) continue;
            if (at > 0 && S->x[j] < S->ub[j] && (S->x[j] == S->lb[j] || !isfinite(S->lb[j]))) {
                cand[ncand].t = d[j] > 0 ? d[j] / at : 0;
            } else if (at < 0 && S->x[j] > S->lb[j] && (S->x[j] == S->ub[j] || !isfinite(S->ub[j]))) {
                cand[ncand].t = d[j] < 0 ? d[j] / at : 0;
            } else
                continue;
            cand[ncand].a = fabs(a);
            cand[ncand].j = j;
            ncand++;
        }
        /* long step: pass breakpoints while the dual objective still rises;
         * passed columns collect in flip[0..k). A breakpoint is passed only
         * while the violation left after its flip exceeds the primal
         * tolerance: a flip that removes the violation up to rounding must
         * enter instead, or the row is left "infeasible" by 1e-16 with no
         * candidate (sudoku.mod's relaxation was called infeasible so). */
        for (k = ncand / 2; k-- > 0;) proper__lp_spx_sift(cand, ncand, k);
        slope = fabs(delta);
        k = 0;
        while (ncand > 0) {
            proper__lp_spx_cand c = proper__lp_spx_pop(cand, &ncand);
            j = c.j;
            if (proper__lp_spx_boxed(S, j) && slope - c.a * (S->ub[j] - S->lb[j]) > proper__lp_spx_tol(bound)) {
                slope -= c.a * (S->ub[j] - S->lb[j]);
                flip[k++] = j;
                continue;
            }
            /* among the ties of this ratio, the largest |alpha| enters */
            q = j;
            while (ncand > 0 && cand[0].t <= c.t + PROPER_LP_DUAL_TOL / cand[0].a) {
                proper__lp_spx_cand o = proper__lp_spx_pop(cand, &ncand);
                if (o.a > c.a) { c = o; q = o.j; }
            }
            break;
        }
        if (q == nt) {
            if (!fresh) { need_factor = 1; continue; }
            rc = PROPER__LP_SPX_INFEASIBLE;
            goto out;
        }
        /* flip the passed boxed columns: x_B -= B^{-1} sum a_j dx_j */
        if (k > 0) {
            size_t t;
            for (p = 0; p < m; p++) S->wa[p] = 0;
            for (t = 0; t < k; t++) {
                double nb, dx;
                j = flip[t];
                nb = S->x[j] == S->lb[j] ? S->ub[j] : S->lb[j];
                dx = nb - S->x[j];
                S->x[j] = nb;
                if (j < S->n) {
                    size_t z;
                    for (z = S->cs[j]; z < S->cs[j + 1]; z++) S->wa[S->ci[z]] += S->cv[z] * dx;
                } else
                    S->wa[j - S->n] -= dx;
            }
            proper__lp_spx_ftran(S, S->wa, S->alpha);
            for (p = 0; p < m; p++) S->x[S->head[p]] -= S->alpha[p];
        }
        theta_d = d[q] / arow[q];
        for (j = 0; j < nt; j++)
            if (S->pos[j] < 0 && S->lb[j] != S->ub[j]) d[j] -= theta_d * arow[j];
        d[q] = 0;
        d[leave] = -theta_d;
        /* primal step of the entering column */
        for (p = 0; p < m; p++) S->wa[p] = 0;
        if (q < S->n) {
            size_t z;
            for (z = S->cs[q]; z < S->cs[q + 1]; z++) S->wa[S->ci[z]] = S->cv[z];
        } else
            S->wa[q - S->n] = -1;
        proper__lp_spx_ftran(S, S->wa, S->alpha);
        aq = S->alpha[r];
        if (fabs(aq) < PROPER_LP_PIVOT_TOL) {
            /* FTRAN disagrees with the row: refactor; on a fresh factorisation
             * that changes nothing, and the primal simplex takes over (this
             * looped forever on an ill-conditioned LP) */
            if (fresh) { rc = PROPER__LP_SPX_DUAL_FALLBACK; goto out; }
            need_factor = 1;
            continue;
        }
        {
            /* update the weights (Forrest & Goldfarb 1992): with rho_r the
             * pivot row of B^{-1} and tau = B^{-1} rho_r,
             * beta_i += -2 (a_i/a_r) tau_i + (a_i/a_r)^2 beta_r, beta_r /= a_r^2 */
            double br = 0;
            for (p = 0; p < m; p++) { br += S->wb[p] * S->wb[p]; S->wa[p] = S->wb[p]; }
            proper__lp_spx_ftran(S, S->wa, tau);
            for (p = 0; p < m; p++) {
                double ratio;
                if (p == r || S->alpha[p] == 0) continue;
                ratio = S->alpha[p] / aq;
                beta[p] += ratio * (ratio * br - 2 * tau[p]);
                if (beta[p] < ratio * ratio) beta[p] = ratio * ratio;
                if (beta[p] < 1e-12) beta[p] = 1e-12;
            }
            beta[r] = br / (aq * aq);
            if (beta[r] < 1e-12) beta[r] = 1e-12;
        }
        step = (S->x[leave] - bound) / aq;
        for (p = 0; p < m; p++) S->x[S->head[p]] -= step * S->alpha[p];
        S->x[q] += step;
        S->x[leave] = bound;
        S->head[r] = q;
        S->pos[q] = (ptrdiff_t)r;
        S->pos[leave] = -1;
        if ((rc = proper__lp_spx_push_eta(S, r))) goto out;
        if (++S->iters >= S->max_iters) { rc = PROPER__LP_SPX_LIMIT; goto out; }
        if (S->iters >= limit) { rc = PROPER__LP_SPX_DUAL_FALLBACK; goto out; }
        if (S->neta >= PROPER_LP_REFACTOR_EVERY) need_factor = 1;
    }
out:
    if (cost0) memcpy(S->cost, cost0, nt * sizeof *cost0);
    PROPER_FREE(beta);
    PROPER_FREE(tau);
    PROPER_FREE(d);
    PROPER_FREE(arow);
    PROPER_FREE(flip);
    PROPER_FREE(cand);
    PROPER_FREE(cost0);
    return rc;
}

static int proper__lp_spx_run(proper__lp_spx *S) {
    size_t m = S->m, nt = S->nt, p, j, degenerate = 0;
    int need_factor = 1, bland = 0, rc;
    S->iters = 0;
    rc = proper__lp_spx_dual(S);
    if (rc == PROPER__LP_SPX_DUAL_FALLBACK && S->warm) {
        /* the warm basis ended dual infeasible: the primal simplex from
         * there can take far longer than the dual from the logical basis */
        S->warm = 0;
        proper__lp_spx_cold_start(S);
        rc = proper__lp_spx_dual(S);
    }
    if (rc < 0 || rc == PROPER__LP_SPX_INFEASIBLE || rc == PROPER__LP_SPX_LIMIT) return rc;
    for (;;) {
        int phase1 = 0, fresh, dir = 0;
        size_t q = nt, r = m;
        double best = 0, step, range, theta_max, leave_bound = 0;
        if (need_factor) {
            if ((rc = proper__lp_spx_factor(S))) return rc;
            proper__lp_spx_recompute_xb(S);
            need_factor = 0;
        }
        fresh = S->neta == 0;
        for (p = 0; p < m; p++) {
            size_t v = S->head[p];
            S->cb[p] = 0;
            if (S->x[v] < S->lb[v] - proper__lp_spx_tol(S->lb[v])) S->cb[p] = -1, phase1 = 1;
            else if (S->x[v] > S->ub[v] + proper__lp_spx_tol(S->ub[v])) S->cb[p] = 1, phase1 = 1;
        }
        if (!phase1)
            for (p = 0; p < m; p++) S->cb[p] = S->cost[S->head[p]];
        proper__lp_spx_btran(S, S->cb, S->y);
        /* pricing: Dantzig, or the first eligible index under Bland's rule */
        for (j = 0; j < nt; j++) {
            double d;
            if (S->pos[j] >= 0) continue;
            d = (phase1 ? 0.0 : S->cost[j]) - proper__lp_spx_col_dot(S, j, S->y);
            if (d < -PROPER_LP_DUAL_TOL && S->x[j] < S->ub[j]) {
                if (-d > best) { best = -d; q = j; dir = 1; }
            } else if (d > PROPER_LP_DUAL_TOL && S->x[j] > S->lb[j]) {
                if (d > best) { best = d; q = j; dir = -1; }
            } else
                continue;
            if (bland) break;
        }
        if (q == nt) {
            if (!fresh) { need_factor = 1; continue; }
            /* infeasible with widened bounds is infeasible with the true ones */
            if (phase1) return PROPER__LP_SPX_INFEASIBLE;
            if (S->perturbed == 1) {
                proper__lp_spx_unperturb(S);
                need_factor = 1;
                bland = 0;
                degenerate = 0;
                continue;
            }
            return PROPER__LP_SPX_OPTIMAL;
        }
        /* alpha = B^{-1} a_q */
        for (p = 0; p < m; p++) S->wa[p] = 0;
        if (q < S->n) {
            size_t t;
            for (t = S->cs[q]; t < S->cs[q + 1]; t++) S->wa[S->ci[t]] = S->cv[t];
        } else
            S->wa[q - S->n] = -1;
        proper__lp_spx_ftran(S, S->wa, S->alpha);
        /* ratio test: Harris' two passes, or the textbook one under Bland */
        range = S->ub[q] - S->lb[q];
        theta_max = INFINITY;
        for (p = 0; p < m; p++) {
            double a = S->alpha[p], rate, lo, hi, t;
            size_t v = S->head[p];
            if (fabs(a) < PROPER_LP_PIVOT_TOL) continue;
            rate = -dir * a;
            proper__lp_spx_eff_bounds(S, v, phase1, &lo, &hi);
            if (rate < 0 && isfinite(lo)) t = (S->x[v] - lo + (bland ? 0 : proper__lp_spx_tol(lo))) / -rate;
            else if (rate > 0 && isfinite(hi)) t = (hi - S->x[v] + (bland ? 0 : proper__lp_spx_tol(hi))) / rate;
            else continue;
            if (bland) {
                if (t < 0) t = 0;
                if (t < theta_max - 1e-12 * (1 + theta_max) ||
                    (t <= theta_max + 1e-12 * (1 + theta_max) && r < m && v < S->head[r])) {
                    theta_max = t; r = p; leave_bound = rate < 0 ? lo : hi;
                }
            } else if (t < theta_max)
                theta_max = t;
        }
        if (!isfinite(theta_max) && !isfinite(range)) {
            if (!fresh) { need_factor = 1; continue; }
            if (phase1) return PROPER__LP_SPX_INFEASIBLE; /* cannot happen in exact arithmetic */
            if (S->perturbed == 1) {
                proper__lp_spx_unperturb(S);
                need_factor = 1;
                continue;
            }
            return PROPER__LP_SPX_UNBOUNDED;
        }
        if (range <= theta_max) {
            r = m;
            step = range;
        } else if (bland) {
            step = theta_max;
        } else {
            double bestabs = 0, bt = 0;
            r = m;
            for (p = 0; p < m; p++) {
                double a = S->alpha[p], rate, lo, hi, t;
                size_t v = S->head[p];
                if (fabs(a) < PROPER_LP_PIVOT_TOL) continue;
                rate = -dir * a;
                proper__lp_spx_eff_bounds(S, v, phase1, &lo, &hi);
                if (rate < 0 && isfinite(lo)) t = (S->x[v] - lo) / -rate;
                else if (rate > 0 && isfinite(hi)) t = (hi - S->x[v]) / rate;
                else continue;
                if (t <= theta_max && fabs(a) > bestabs) {
                    bestabs = fabs(a); r = p; bt = t; leave_bound = rate < 0 ? lo : hi;
                }
            }
            step = bt > 0 ? bt : 0;
        }
        /* update */
        for (p = 0; p < m; p++) S->x[S->head[p]] -= dir * step * S->alpha[p];
        if (r == m) {
            S->x[q] = dir > 0 ? S->ub[q] : S->lb[q];
        } else {
            size_t v = S->head[r];
            S->x[q] += dir * step;
            S->x[v] = leave_bound;
            S->head[r] = q;
            S->pos[q] = (ptrdiff_t)r;
            S->pos[v] = -1;
            if ((rc = proper__lp_spx_push_eta(S, r))) return rc;
        }
        if (step <= 1e-12 && r < m) {
            if (++degenerate >= PROPER_LP_DEGENERATE_RUN) {
                if (S->perturbed == 0) {
                    if ((rc = proper__lp_spx_perturb(S))) return rc;
                    need_factor = 1;
                    degenerate = 0;
                } else
                    bland = 1;
            }
        } else {
            degenerate = 0;
            bland = 0;
        }
        if (++S->iters >= S->max_iters) return PROPER__LP_SPX_LIMIT;
        if (S->neta >= PROPER_LP_REFACTOR_EVERY) need_factor = 1;
    }
}

/* An estimate of the 1-norm condition number ||B||_1 ||B^{-1}||_1 of the
 * final basis of the (scaled) problem: Hager's method (Higham 1988, alg.
 * 2.1) for ||B^{-1}||_1, a few FTRAN/BTRAN pairs. The relative error of the
 * basic solution and of the multipliers is up to about this times the unit
 * roundoff: a basis with condition near 1/DBL_EPSILON gives a "solution"
 * that no longer depends on the data (VERIFICATION). */
static double proper__lp_spx_condition(proper__lp_spx *S) {
    size_t m = S->m, p, i, it, jmax = 0, jnext = 0;
    double bnorm = 1, inorm = 0, *v = NULL, *w = NULL, *z = NULL;
    if (m == 0) return 1;
    v = (double *)proper_calloc(m, sizeof *v);
    w = (double *)proper_calloc(m, sizeof *w);
    z = (double *)proper_calloc(m, sizeof *z);
    if (!v || !w || !z) { PROPER_FREE(v); PROPER_FREE(w); PROPER_FREE(z); return INFINITY; }
    for (p = 0; p < m; p++) {
        size_t j = S->head[p], q;
        double c = 0;
        if (j >= S->n) continue; /* a logical: column -e_i, norm 1 */
        for (q = S->cs[j]; q < S->cs[j + 1]; q++) c += fabs(S->cv[q]);
        if (c > bnorm) bnorm = c;
    }
    for (it = 0; it < 5; it++) {
        double norm = 0, zmax = -1, ztx = 0;
        for (i = 0; i < m; i++) v[i] = it == 0 ? 1.0 / (double)m : (double)(i == jmax);
        proper__lp_spx_ftran(S, v, w);          /* w = B^{-1} x (by position) */
        for (p = 0; p < m; p++) norm += fabs(w[p]);
        if (!(norm <= inorm)) inorm = norm;     /* each is a lower bound */
        if (!isfinite(norm)) break;
        for (p = 0; p < m; p++) w[p] = w[p] >= 0 ? 1.0 : -1.0;
        proper__lp_spx_btran(S, w, z);          /* z = B^{-T} sign(w) (by row) */
        if (it == 0) { for (i = 0; i < m; i++) ztx += z[i] / (double)m; }
        else ztx = z[jmax];
        for (i = 0; i < m; i++) if (fabs(z[i]) > zmax) { zmax = fabs(z[i]); jnext = i; }
        if (zmax <= ztx) break;
        jmax = jnext;
    }
    PROPER_FREE(v); PROPER_FREE(w); PROPER_FREE(z);
    return bnorm * inorm;
}

/* Unscaled results: x (n + m: structurals then row activities), row duals
 * y [m], reduced costs d [n] computed in the caller's space. */
static void proper__lp_spx_results(const proper__lp_spx *S, double *x, double *y) {
    size_t j, i;
    for (j = 0; j < S->n; j++) x[j] = S->x[j] * S->cscale[j];
    for (i = 0; i < S->m; i++) x[S->n + i] = S->x[S->n + i] / S->rscale[i];
    for (i = 0; i < S->m; i++) y[i] = S->y[i] * S->rscale[i] / S->objscale;
}

/* Build CSC (cs, ci, cv) of an m x n matrix given by rows. */
static int proper__lp_csc(size_t m, size_t n, const size_t *rs, const size_t *ri, const double *rv,
                          size_t **cs, size_t **ci, double **cv) {
    size_t nnz = m ? rs[m] : 0, i, k, *fill; /* rs may be NULL without rows */
    *cs = (size_t *)proper_calloc(n + 1, sizeof **cs);
    *ci = (size_t *)proper_calloc(nnz, sizeof **ci);
    *cv = (double *)proper_calloc(nnz, sizeof **cv);
    fill = (size_t *)proper_calloc(n + 1, sizeof *fill);
    if (!*cs || !*ci || !*cv || !fill) {
        PROPER_FREE(*cs); PROPER_FREE(*ci); PROPER_FREE(*cv); PROPER_FREE(fill);
        *cs = NULL; *ci = NULL; *cv = NULL;
        return PROPER_ENOMEM;
    }
    for (k = 0; k < nnz; k++) (*cs)[ri[k] + 1]++;
    for (i = 0; i < n; i++) (*cs)[i + 1] += (*cs)[i];
    memcpy(fill, *cs, (n + 1) * sizeof *fill);
    for (i = 0; i < m; i++)
        for (k = rs[i]; k < rs[i + 1]; k++) {
            size_t at = fill[ri[k]]++;
            (*ci)[at] = i;
            (*cv)[at] = rv[k];
        }
    PROPER_FREE(fill);
    return PROPER_OK;
}

/* ---- driver: primal path -------------------------------------------------- */

static int proper__lp_solve_primal(const proper_lp *lp, const double *cost, size_t max_iters, proper_lp_basis *basis,
                                   double *x, double *y, size_t *iters, int *status, double *cond, int scale) {
    size_t m = lp->nrows, n = lp->ncols, *cs = NULL, *ci = NULL;
    double *cv = NULL, *lb = NULL, *ub = NULL, *xw = NULL;
    proper__lp_spx S;
    int rc;
    if ((rc = proper__lp_csc(m, n, lp->row_start, lp->col_idx, lp->val, &cs, &ci, &cv))) return rc;
    lb = (double *)proper_calloc(n + m, sizeof *lb);
    ub = (double *)proper_calloc(n + m, sizeof *ub);
    xw = (double *)proper_calloc(n + m, sizeof *xw);
    if (!lb || !ub || !xw) { rc = PROPER_ENOMEM; goto out; }
    memcpy(lb, lp->col_lo, n * sizeof *lb);
    memcpy(ub, lp->col_hi, n * sizeof *ub);
    if (m) {
        memcpy(lb + n, lp->row_lo, m * sizeof *lb);
        memcpy(ub + n, lp->row_hi, m * sizeof *ub);
    }
    if ((rc = proper__lp_spx_setup(&S, m, n, cs, ci, cv, lb, ub, cost, scale))) goto out;
    proper__lp_spx_install(&S, basis, 0);
    S.max_iters = max_iters;
    rc = proper__lp_spx_run(&S);
    *iters += S.iters;
    if (rc >= 0 && rc != PROPER__LP_SPX_LIMIT) *cond = proper__lp_spx_condition(&S);
    if (rc == PROPER__LP_SPX_OPTIMAL && (rc = proper__lp_spx_save(&S, basis, 0)) != PROPER_OK) {
        proper__lp_spx_free(&S);
        goto out;
    }
    if (rc >= 0) {
        *status = rc;
        proper__lp_spx_results(&S, xw, y);
        memcpy(x, xw, n * sizeof *x);
        rc = PROPER_OK;
    }
    proper__lp_spx_free(&S);
out:
    PROPER_FREE(cs); PROPER_FREE(ci); PROPER_FREE(cv); PROPER_FREE(lb); PROPER_FREE(ub); PROPER_FREE(xw);
    return rc;
}

/* ---- driver: standard form and the dual path ------------------------------
 * Standard form: min c's + c0, rows "= b" or ">= b", columns s >= 0 or free.
 * Original column j is x_j = off[j] + sgn[j] * s[scol[j]] (scol -1: fixed). */

typedef struct proper__lp_std {
    size_t m, n;
    size_t *rs, *ri, rcap, icap;
    double *rv, *b, *c;
    unsigned char *eq, *isfree;
    size_t bcap;
    double c0;
    ptrdiff_t *scol;
    double *off, *sgn;
    ptrdiff_t *row_ge, *row_le; /* original row -> standard rows (the "<=" one negated) */
} proper__lp_std;

static void proper__lp_std_free(proper__lp_std *T) {
    PROPER_FREE(T->rs); PROPER_FREE(T->ri); PROPER_FREE(T->rv); PROPER_FREE(T->b); PROPER_FREE(T->c);
    PROPER_FREE(T->eq); PROPER_FREE(T->isfree); PROPER_FREE(T->scol); PROPER_FREE(T->off);
    PROPER_FREE(T->sgn); PROPER_FREE(T->row_ge); PROPER_FREE(T->row_le);
    memset(T, 0, sizeof *T);
}

/* Append a standard row: sum over (cols, vals) of mult * sgn * val * s = rhs
 * (or >= rhs); fixed columns were moved into rhs by the caller. */
static int proper__lp_std_row(proper__lp_std *T, size_t cnt, const size_t *cols, const double *vals,
                              double mult, double rhs, int eq) {
    size_t k, end;
    if (T->m + 1 > T->bcap) {
        size_t c1 = T->bcap, c2 = T->bcap, c3 = T->bcap + 1;
        if (proper_reserve(&T->b, &c1, T->m + 1, sizeof *T->b) ||
            proper_reserve(&T->eq, &c2, T->m + 1, sizeof *T->eq) ||
            proper_reserve(&T->rs, &c3, T->m + 2, sizeof *T->rs))
            return PROPER_ENOMEM;
        T->bcap = c1 < c2 ? c1 : c2;
        if (c3 - 1 < T->bcap) T->bcap = c3 - 1;
    }
    if (T->m == 0) T->rs[0] = 0;
    end = T->rs[T->m];
    for (k = 0; k < cnt; k++) {
        ptrdiff_t s = T->scol[cols[k]];
        if (s < 0 || vals[k] == 0) continue;
        if (end + 1 > T->icap) {
            size_t a1 = T->icap, a2 = T->icap;
            if (proper_reserve(&T->ri, &a1, end + 1, sizeof *T->ri) ||
                proper_reserve(&T->rv, &a2, end + 1, sizeof *T->rv))
                return PROPER_ENOMEM;
            T->icap = a1 < a2 ? a1 : a2;
        }
        T->ri[end] = (size_t)s;
        T->rv[end++] = mult * T->sgn[cols[k]] * vals[k];
    }
    T->rs[T->m + 1] = end;
    T->b[T->m] = rhs;
    T->eq[T->m] = (unsigned char)eq;
    T->m++;
    return PROPER_OK;
}

static int proper__lp_standardize(const proper_lp *lp, const double *cost, proper__lp_std *T) {
    size_t n = lp->ncols, m = lp->nrows, i, j, k;
    int rc;
    memset(T, 0, sizeof *T);
    T->scol = (ptrdiff_t *)proper_calloc(n, sizeof *T->scol);
    T->off = (double *)proper_calloc(n, sizeof *T->off);
    T->sgn = (double *)proper_calloc(n, sizeof *T->sgn);
    T->row_ge = (ptrdiff_t *)proper_calloc(m ? m : 1, sizeof *T->row_ge);
    T->row_le = (ptrdiff_t *)proper_calloc(m ? m : 1, sizeof *T->row_le);
    T->c = (double *)proper_calloc(n, sizeof *T->c);
    T->isfree = (unsigned char *)proper_calloc(n, 1);
    if (!T->scol || !T->off || !T->sgn || !T->row_ge || !T->row_le || !T->c || !T->isfree) return PROPER_ENOMEM;
    T->c0 = 0;
    for (j = 0; j < n; j++) {
        double lo = lp->col_lo[j], hi = lp->col_hi[j];
        int flo = !proper__lp_isinf(lo), fhi = !proper__lp_isinf(hi);
        if (flo && fhi && lo == hi) { T->scol[j] = -1; T->off[j] = lo; T->sgn[j] = 0; }
        else {
            T->scol[j] = (ptrdiff_t)T->n;
            if (flo) { T->off[j] = lo; T->sgn[j] = 1; }
            else if (fhi) { T->off[j] = hi; T->sgn[j] = -1; }
            else { T->off[j] = 0; T->sgn[j] = 1; T->isfree[T->n] = 1; }
            T->c[T->n] = T->sgn[j] * cost[j];
            T->n++;
        }
        T->c0 += cost[j] * T->off[j];
    }
    for (i = 0; i < m; i++) {
        size_t a = lp->row_start[i], e = lp->row_start[i + 1];
        double shift = 0, lo = lp->row_lo[i], hi = lp->row_hi[i];
        for (k = a; k < e; k++) shift += lp->val[k] * T->off[lp->col_idx[k]];
        T->row_ge[i] = T->row_le[i] = -1;
        if (!proper__lp_isinf(lo) && lo == hi) {
            T->row_ge[i] = (ptrdiff_t)T->m;
            if ((rc = proper__lp_std_row(T, e - a, lp->col_idx + a, lp->val + a, 1.0, lo - shift, 1))) return rc;
            continue;
        }
        if (!proper__lp_isinf(lo)) {
            T->row_ge[i] = (ptrdiff_t)T->m;
            if ((rc = proper__lp_std_row(T, e - a, lp->col_idx + a, lp->val + a, 1.0, lo - shift, 0))) return rc;
        }
        if (!proper__lp_isinf(hi)) {
            T->row_le[i] = (ptrdiff_t)T->m;
            if ((rc = proper__lp_std_row(T, e - a, lp->col_idx + a, lp->val + a, -1.0, -(hi - shift), 0))) return rc;
        }
    }
    for (j = 0; j < n; j++) {
        double lo = lp->col_lo[j], hi = lp->col_hi[j];
        if (!proper__lp_isinf(lo) && !proper__lp_isinf(hi) && lo < hi) {
            double one = 1.0;
            if ((rc = proper__lp_std_row(T, 1, &j, &one, -1.0, -(hi - lo), 0))) return rc;
        }
    }
    if (T->m == 0) {
        /* keep rs valid for an empty problem */
        size_t c4 = 0;
        if (proper_reserve(&T->rs, &c4, 1, sizeof *T->rs)) return PROPER_ENOMEM;
        T->rs[0] = 0;
    }
    return PROPER_OK;
}

/* Dual path. Returns PROPER_OK with *status set, or PROPER_ESTATE when the
 * dual cannot decide (caller solves the primal), or an error. */
static int proper__lp_solve_via_dual(const proper_lp *lp, const double *cost, const proper__lp_std *T,
                                     size_t max_iters, proper_lp_basis *basis, double *x, double *y, size_t *iters,
                                     int *status, double *cond) {
    size_t mS = T->m, nS = T->n, i, j, k, nd = 0;
    size_t *cnt = NULL, *one_row = NULL, *drow = NULL;
    double *one_val = NULL, *ylb = NULL, *yub = NULL, *dcost = NULL, *dlb = NULL, *dub = NULL;
    size_t *ds = NULL, *di = NULL, *fill = NULL;
    double *dv = NULL, *xs = NULL, *ys = NULL, *xd = NULL, *yd = NULL;
    proper__lp_spx S;
    int rc = PROPER_OK, spx_ready = 0;
    cnt = (size_t *)proper_calloc(nS + 1, sizeof *cnt);
    one_row = (size_t *)proper_calloc(nS + 1, sizeof *one_row);
    one_val = (double *)proper_calloc(nS + 1, sizeof *one_val);
    drow = (size_t *)proper_calloc(nS + 1, sizeof *drow);
    ylb = (double *)proper_calloc(mS + 1, sizeof *ylb);
    yub = (double *)proper_calloc(mS + 1, sizeof *yub);
    xs = (double *)proper_calloc(nS + 1, sizeof *xs);
    ys = (double *)proper_calloc(mS + 1, sizeof *ys);
    if (!cnt || !one_row || !one_val || !drow || !ylb || !yub || !xs || !ys) { rc = PROPER_ENOMEM; goto out; }
    for (i = 0; i < mS; i++)
        for (k = T->rs[i]; k < T->rs[i + 1]; k++) {
            j = T->ri[k];
            cnt[j]++;
            one_row[j] = i;
            one_val[j] = T->rv[k];
        }
    for (i = 0; i < mS; i++) { ylb[i] = T->eq[i] ? -INFINITY : 0; yub[i] = INFINITY; }
    /* singleton and empty columns become bounds on y; the rest dual rows */
    for (j = 0; j < nS; j++) {
        if (cnt[j] == 0) {
            if (T->isfree[j] ? T->c[j] != 0 : T->c[j] < 0) { rc = PROPER_ESTATE; goto out; }
        } else if (cnt[j] == 1) {
            double bnd = T->c[j] / one_val[j];
            size_t r = one_row[j];
            if (T->isfree[j] || one_val[j] > 0) { if (bnd < yub[r]) yub[r] = bnd; }
            if (T->isfree[j] || one_val[j] < 0) { if (bnd > ylb[r]) ylb[r] = bnd; }
        } else
            drow[j] = nd++;
    }
    for (i = 0; i < mS; i++) {
        if (ylb[i] > yub[i] + PROPER_LP_PRIMAL_TOL * (1 + fabs(yub[i]))) { rc = PROPER_ESTATE; goto out; }
        if (ylb[i] > yub[i]) ylb[i] = yub[i];
    }
    /* the dual in the engine's form: columns y_i (rows of the standard form) */
    ds = (size_t *)proper_calloc(mS + 1, sizeof *ds);
    fill = (size_t *)proper_calloc(mS + 1, sizeof *fill);
    dlb = (double *)proper_calloc(mS + nd + 1, sizeof *dlb);
    dub = (double *)proper_calloc(mS + nd + 1, sizeof *dub);
    dcost = (double *)proper_calloc(mS + 1, sizeof *dcost);
    if (!ds || !fill || !dlb || !dub || !dcost) { rc = PROPER_ENOMEM; goto out; }
    for (i = 0; i < mS; i++) {
        size_t c = 0;
        for (k = T->rs[i]; k < T->rs[i + 1]; k++) c += cnt[T->ri[k]] >= 2;
        ds[i + 1] = ds[i] + c;
    }
    di = (size_t *)proper_calloc(ds[mS] + 1, sizeof *di);
    dv = (double *)proper_calloc(ds[mS] + 1, sizeof *dv);
    if (!di || !dv) { rc = PROPER_ENOMEM; goto out; }
    for (i = 0; i < mS; i++) {
        size_t at = ds[i];
        for (k = T->rs[i]; k < T->rs[i + 1]; k++)
            if (cnt[T->ri[k]] >= 2) { di[at] = drow[T->ri[k]]; dv[at++] = T->rv[k]; }
        dlb[i] = isfinite(ylb[i]) ? ylb[i] : -PROPER_LP_INF;
        dub[i] = isfinite(yub[i]) ? yub[i] : PROPER_LP_INF;
        dcost[i] = -T->b[i];
    }
    for (j = 0; j < nS; j++)
        if (cnt[j] >= 2) {
            dub[mS + drow[j]] = T->c[j];
            dlb[mS + drow[j]] = T->isfree[j] ? T->c[j] : -PROPER_LP_INF;
        }
    if ((rc = proper__lp_spx_setup(&S, nd, mS, ds, di, dv, dlb, dub, dcost, 1))) goto out;
    spx_ready = 1;
    proper__lp_spx_install(&S, basis, 1);
    S.max_iters = max_iters;
    rc = proper__lp_spx_run(&S);
    *iters += S.iters;
    if (rc < 0) goto out;
    if (rc != PROPER__LP_SPX_LIMIT) *cond = proper__lp_spx_condition(&S);
    if (rc == PROPER__LP_SPX_LIMIT) { *status = PROPER__LP_SPX_LIMIT; rc = PROPER_OK; goto out; }
    if (rc == PROPER__LP_SPX_UNBOUNDED) { *status = PROPER__LP_SPX_INFEASIBLE; rc = PROPER_OK; goto out; }
    if (rc == PROPER__LP_SPX_INFEASIBLE) { rc = PROPER_ESTATE; goto out; }
    xd = (double *)proper_calloc(mS + nd + 1, sizeof *xd);
    yd = (double *)proper_calloc(nd + 1, sizeof *yd);
    if (!xd || !yd) { rc = PROPER_ENOMEM; goto out; }
    proper__lp_spx_results(&S, xd, yd);
    for (i = 0; i < mS; i++) ys[i] = xd[i];
    for (j = 0; j < nS; j++) xs[j] = cnt[j] >= 2 ? -yd[drow[j]] : 0;
    /* singleton columns from complementary slackness, row by row */
    for (i = 0; i < mS; i++) {
        double rho = T->b[i], need, bestd = INFINITY;
        size_t pick = nS;
        for (k = T->rs[i]; k < T->rs[i + 1]; k++)
            if (cnt[T->ri[k]] >= 2) rho -= T->rv[k] * xs[T->ri[k]];
        need = (T->eq[i] || ys[i] > 0 || rho > 0) ? rho : 0;
        if (need == 0) continue;
        for (k = T->rs[i]; k < T->rs[i + 1]; k++) {
            size_t s = T->ri[k];
            double d, val;
            if (cnt[s] != 1) continue;
            val = need / T->rv[k];
            if (val < 0 && !T->isfree[s]) continue;
            d = fabs(T->c[s] - T->rv[k] * ys[i]);
            if (d < bestd) { bestd = d; pick = s; }
        }
        if (pick < nS) {
            for (k = T->rs[i]; k < T->rs[i + 1]; k++)
                if (T->ri[k] == pick) xs[pick] += need / T->rv[k];
        }
    }
    /* back to the caller's columns and rows */
    for (j = 0; j < lp->ncols; j++) x[j] = T->scol[j] < 0 ? T->off[j] : T->off[j] + T->sgn[j] * xs[T->scol[j]];
    for (i = 0; i < lp->nrows; i++) {
        y[i] = 0;
        if (T->row_ge[i] >= 0) y[i] += ys[T->row_ge[i]];
        if (T->row_le[i] >= 0) y[i] -= ys[T->row_le[i]];
    }
    {
        /* accept only a feasible x with no duality gap */
        double primal = 0, dual = T->c0, scale = 1;
        for (j = 0; j < lp->ncols; j++) {
            primal += cost[j] * x[j];
            if (x[j] < lp->col_lo[j] - PROPER_LP_RECOVER_TOL * (1 + fabs(lp->col_lo[j])) ||
                x[j] > lp->col_hi[j] + PROPER_LP_RECOVER_TOL * (1 + fabs(lp->col_hi[j]))) { rc = PROPER_ESTATE; goto out; }
        }
        for (i = 0; i < mS; i++) dual += T->b[i] * ys[i];
        for (i = 0; i < lp->nrows; i++) {
            double act = 0, mag = 0;
            for (k = lp->row_start[i]; k < lp->row_start[i + 1]; k++) {
                act += lp->val[k] * x[lp->col_idx[k]];
                mag += fabs(lp->val[k] * x[lp->col_idx[k]]);
            }
            if (act < lp->row_lo[i] - PROPER_LP_RECOVER_TOL * (1 + mag + fabs(lp->row_lo[i])) ||
                act > lp->row_hi[i] + PROPER_LP_RECOVER_TOL * (1 + mag + fabs(lp->row_hi[i]))) { rc = PROPER_ESTATE; goto out; }
        }
        /* both sides include the offsets of shifted columns (c0), not obj_const */
        if (fabs(primal) > scale) scale = fabs(primal);
        if (fabs(primal - dual) > PROPER_LP_RECOVER_TOL * scale) { rc = PROPER_ESTATE; goto out; }
    }
    *status = PROPER__LP_SPX_OPTIMAL;
    rc = proper__lp_spx_save(&S, basis, 1);
out:
    if (spx_ready) proper__lp_spx_free(&S);
    PROPER_FREE(cnt); PROPER_FREE(one_row); PROPER_FREE(one_val); PROPER_FREE(drow); PROPER_FREE(ylb);
    PROPER_FREE(yub); PROPER_FREE(dcost); PROPER_FREE(dlb); PROPER_FREE(dub); PROPER_FREE(ds); PROPER_FREE(di);
    PROPER_FREE(fill); PROPER_FREE(dv); PROPER_FREE(xs); PROPER_FREE(ys); PROPER_FREE(xd); PROPER_FREE(yd);
    return rc;
}

/* ---- public solve --------------------------------------------------------- */

PROPER_API proper_lp_opts proper_lp_opts_default(void) {
    proper_lp_opts o;
    o.method = PROPER_LP_AUTO;
    o.max_iterations = 0;
    o.basis = NULL;
    o.check = NULL;
    return o;
}

PROPER_API void proper_lp_basis_init(proper_lp_basis *basis) { memset(basis, 0, sizeof *basis); }

PROPER_API void proper_lp_basis_free(proper_lp_basis *basis) {
    if (!basis) return;
    PROPER_FREE(basis->head);
    PROPER_FREE(basis->upper);
    proper_lp_basis_init(basis);
}

PROPER_API void proper_lp_solution_init(proper_lp_solution *sol) { memset(sol, 0, sizeof *sol); }

PROPER_API void proper_lp_solution_free(proper_lp_solution *sol) {
    if (!sol) return;
    PROPER_FREE(sol->x); PROPER_FREE(sol->row_activity); PROPER_FREE(sol->row_dual); PROPER_FREE(sol->col_dual);
    proper_lp_solution_init(sol);
}

PROPER_API int proper_lp_solution_create(proper_lp_solution *sol, size_t ncols, size_t nrows, proper_error *err) {
    proper_lp_solution s;
    proper_lp_solution_init(&s);
    s.ncols = ncols;
    s.nrows = nrows;
    s.x = (double *)proper_calloc(ncols ? ncols : 1, sizeof *s.x);
    s.col_dual = (double *)proper_calloc(ncols ? ncols : 1, sizeof *s.col_dual);
    s.row_activity = (double *)proper_calloc(nrows ? nrows : 1, sizeof *s.row_activity);
    s.row_dual = (double *)proper_calloc(nrows ? nrows : 1, sizeof *s.row_dual);
    if (!s.x || !s.col_dual || !s.row_activity || !s.row_dual) {
        proper_lp_solution_free(&s);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory for an LP solution");
    }
    proper_lp_solution_free(sol);
    *sol = s;
    return PROPER_OK;
}

/* Columns of the standard form that appear in two or more rows: the number
 * of rows of the dual problem. */
static size_t proper__lp_dual_rows(const proper__lp_std *T) {
    size_t *cnt = (size_t *)proper_calloc(T->n + 1, sizeof *cnt), k, j, nd = 0;
    if (!cnt) return (size_t)-1;
    for (k = 0; k < T->rs[T->m]; k++) cnt[T->ri[k]]++;
    for (j = 0; j < T->n; j++) nd += cnt[j] >= 2;
    PROPER_FREE(cnt);
    return nd;
}

static int proper__lp_check(const proper_lp *lp, proper_error *err) {
    size_t i, j;
    if (lp->ncols == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "the LP has no columns");
    for (j = 0; j < lp->ncols; j++)
        if (!(lp->col_lo[j] <= lp->col_hi[j]) || !isfinite(lp->obj[j]))
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "column %zu: bounds [%g, %g] or cost %g invalid",
                                    j + 1, lp->col_lo[j], lp->col_hi[j], lp->obj[j]);
    for (i = 0; i < lp->nrows; i++)
        if (!(lp->row_lo[i] <= lp->row_hi[i]))
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "row %zu: bounds [%g, %g] invalid", i + 1,
                                    lp->row_lo[i], lp->row_hi[i]);
    return PROPER_OK;
}

/* PROPER_ELIMIT when both the primal and the dual problem have more than
 * PROPER_LP_MAX_ROWS rows (see there). */
static int proper__lp_size_check(const proper_lp *lp, const double *cost, proper_error *err) {
    proper__lp_std T;
    size_t nd;
    int rc;
    if (lp->nrows <= PROPER_LP_MAX_ROWS) return PROPER_OK;
    memset(&T, 0, sizeof T);
    rc = proper__lp_standardize(lp, cost, &T);
    nd = rc ? 0 : proper__lp_dual_rows(&T);
    proper__lp_std_free(&T);
    if (rc || nd == (size_t)-1) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory solving an LP");
    if (nd <= PROPER_LP_MAX_ROWS) return PROPER_OK;
    return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                            "the LP is too large for the native solver: %zu rows, and its dual %zu, both above "
                            "PROPER_LP_MAX_ROWS = %d; solve it with glpsol (backends/glpk.h)",
                            lp->nrows, nd, PROPER_LP_MAX_ROWS);
}

/* x and row_dual of sol by the dual or the primal path (costs already
 * signed for minimisation); *status: PROPER__LP_SPX_*. */
static int proper__lp_run(const proper_lp *lp, const proper_lp_opts *opt, const double *cost, proper_lp_solution *sol,
                          int *status, int fallback, double *cond, int scale) {
    size_t n = lp->ncols, m = lp->nrows;
    size_t max_iters = opt->max_iterations ? opt->max_iterations : 20 * (n + m) + 10000;
    proper__lp_std T;
    int rc = PROPER_OK;
    memset(&T, 0, sizeof T);
    if (opt->method != PROPER_LP_PRIMAL) {
        size_t nd;
        if ((rc = proper__lp_standardize(lp, cost, &T))) goto out;
        nd = proper__lp_dual_rows(&T);
        if (nd == (size_t)-1) { rc = PROPER_ENOMEM; goto out; }
        if (opt->method == PROPER_LP_DUAL || nd < m) {
            rc = proper__lp_solve_via_dual(lp, cost, &T, max_iters, opt->basis, sol->x, sol->row_dual,
                                           &sol->iterations, status, cond);
            if (rc == PROPER_OK) { sol->solved_dual = 1; goto out; }
            if (rc != PROPER_ESTATE || !fallback) goto out;
        }
    }
    rc = proper__lp_solve_primal(lp, cost, max_iters, opt->basis, sol->x, sol->row_dual, &sol->iterations, status,
                                 cond, scale);
out:
    proper__lp_std_free(&T);
    return rc;
}

/* Objective, activities and reduced costs from x and the row duals (of the
 * minimisation); then the duals' signs for the problem as stated. */
static void proper__lp_finish(const proper_lp *lp, const double *cost, proper_lp_solution *sol) {
    size_t i, j, k;
    double sign = lp->maximize ? -1.0 : 1.0;
    sol->objective = lp->obj_const;
    for (j = 0; j < lp->ncols; j++) {
        sol->objective += lp->obj[j] * sol->x[j];
        sol->col_dual[j] = cost[j];
    }
    for (i = 0; i < lp->nrows; i++) {
        double act = 0;
        for (k = lp->row_start[i]; k < lp->row_start[i + 1]; k++) {
            act += lp->val[k] * sol->x[lp->col_idx[k]];
            sol->col_dual[lp->col_idx[k]] -= lp->val[k] * sol->row_dual[i];
        }
        sol->row_activity[i] = act;
    }
    for (i = 0; i < lp->nrows; i++) sol->row_dual[i] *= sign;
    for (j = 0; j < lp->ncols; j++) sol->col_dual[j] *= sign;
}

/* The error for an engine failure (rc) or an outcome other than an optimum. */
static int proper__lp_outcome(const proper_lp *lp, int rc, int status, size_t iterations, proper_error *err) {
    if (rc == PROPER_ENOMEM) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory solving an LP");
    if (rc == PROPER_ENOCONV)
        return proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0, "LP basis could not be repaired");
    if (rc == PROPER_ELIMIT)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                "the LP is too large for the native solver: its basis needs a dense factorisation of "
                                "more than %d columns (PROPER_LP_MAX_KERNEL; %zu rows, %zu columns); solve it with "
                                "glpsol (backends/glpk.h)",
                                PROPER_LP_MAX_KERNEL, lp->nrows, lp->ncols);
    if (rc) return proper_error_set(err, rc, NULL, 0, 0, "LP solve failed");
    if (status == PROPER__LP_SPX_INFEASIBLE)
        return proper_error_set(err, PROPER_EINFEASIBLE, NULL, 0, 0,
                                "the LP is infeasible: no point satisfies all %zu rows and column bounds", lp->nrows);
    if (status == PROPER__LP_SPX_UNBOUNDED)
        return proper_error_set(err, PROPER_EUNBOUNDED, NULL, 0, 0, "the LP is unbounded: the objective can %s without limit",
                                lp->maximize ? "increase" : "decrease");
    if (status == PROPER__LP_SPX_LIMIT)
        return proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0, "the LP hit the iteration limit (%zu pivots)", iterations);
    return PROPER_OK;
}

/* ---- verification ------------------------------------------------------- */

/* num / den as a relative residual: 0 when num <= 0, infinite when den is 0
 * or either is not a number. */
static double proper__lp_rel(double num, double den) {
    if (num != num || den != den) return INFINITY;
    if (num <= 0) return 0;
    return den > 0 ? num / den : INFINITY;
}

static void proper__lp_worse(double *worst, double v) {
    if (!(v <= *worst)) *worst = v; /* NaN counts as the worst */
}

PROPER_API void proper_lp_verify(const proper_lp *lp, const proper_lp_solution *sol, proper_lp_check *check) {
    size_t n = lp->ncols, m = lp->nrows, i, j, k;
    double sign = lp->maximize ? -1.0 : 1.0, xscale = 0, yscale = 0, tol = PROPER_LP_VERIFY_TOL;
    double *dd, *dscale, *yy, *act, *mag;
    long double obj = lp->obj_const, dobj = sign * lp->obj_const, oscale = fabs(lp->obj_const);
    memset(check, 0, sizeof *check);
    check->verdict = PROPER_LP_UNRELIABLE;
    dd = (double *)proper_calloc(n + 1, sizeof *dd);
    dscale = (double *)proper_calloc(n + 1, sizeof *dscale);
    yy = (double *)proper_calloc(m + 1, sizeof *yy);
    act = (double *)proper_calloc(m + 1, sizeof *act);
    mag = (double *)proper_calloc(m + 1, sizeof *mag);
    if (!dd || !dscale || !yy || !act || !mag || sol->ncols != n || sol->nrows != m) {
        check->primal = check->dual = check->slack = INFINITY;
        check->objective = check->dual_objective = NAN;
        goto out;
    }
    /* primal: columns, then rows (activities in long double) */
    for (j = 0; j < n; j++) {
        if (!isfinite(sol->x[j])) check->primal = INFINITY;
        else if (fabs(sol->x[j]) > xscale) xscale = fabs(sol->x[j]);
        obj += (long double)lp->obj[j] * sol->x[j];
        oscale += fabsl((long double)lp->obj[j] * sol->x[j]);
    }
    for (j = 0; j < n; j++) {
        double x = sol->x[j], lo = lp->col_lo[j], hi = lp->col_hi[j];
        if (!proper__lp_isinf(lo)) proper__lp_worse(&check->primal, proper__lp_rel(lo - x, fabs(lo) + xscale));
        if (!proper__lp_isinf(hi)) proper__lp_worse(&check->primal, proper__lp_rel(x - hi, fabs(hi) + xscale));
        dd[j] = sign * lp->obj[j];
        dscale[j] = fabs(lp->obj[j]);
    }
    /* the largest |y_i|, for the floor of the magnitudes
     * (PROPER_LP_VERIFY_FLOOR; xscale is the largest |x_j|) */
    for (i = 0; i < m; i++)
        if (isfinite(sol->row_dual[i]) && fabs(sol->row_dual[i]) > yscale) yscale = fabs(sol->row_dual[i]);
    for (i = 0; i < m; i++) {
        long double a = 0, g = 0;
        double lo = lp->row_lo[i], hi = lp->row_hi[i], y = sign * sol->row_dual[i];
        for (k = lp->row_start[i]; k < lp->row_start[i + 1]; k++) {
            double t = lp->val[k] * sol->x[lp->col_idx[k]];
            a += t;
            g += fabs(t) + PROPER_LP_VERIFY_FLOOR * fabs(lp->val[k]) * xscale;
            dscale[lp->col_idx[k]] += fabs(lp->val[k] * y) + PROPER_LP_VERIFY_FLOOR * fabs(lp->val[k]) * yscale;
        }
        act[i] = (double)a;
        mag[i] = (double)g;
        if (!proper__lp_isinf(lo)) proper__lp_worse(&check->primal, proper__lp_rel(lo - act[i], mag[i] + fabs(lo)));
        if (!proper__lp_isinf(hi)) proper__lp_worse(&check->primal, proper__lp_rel(act[i] - hi, mag[i] + fabs(hi)));
        /* a row dual may only price a finite bound (minimisation: y > 0
         * the lower, y < 0 the upper); one that does not is taken as 0,
         * and what it contributed to the reduced costs is the violation */
        yy[i] = (y > 0 && proper__lp_isinf(lo)) || (y < 0 && proper__lp_isinf(hi)) ? 0 : y;
        if (!isfinite(y)) { check->dual = INFINITY; yy[i] = 0; }
    }
    for (i = 0; i < m; i++)
        for (k = lp->row_start[i]; k < lp->row_start[i + 1]; k++) dd[lp->col_idx[k]] -= lp->val[k] * yy[i];
    for (i = 0; i < m; i++) {
        double y = sign * sol->row_dual[i], lo = lp->row_lo[i], hi = lp->row_hi[i], mult = 0, b;
        if (y == 0 || !isfinite(y)) continue;
        for (k = lp->row_start[i]; k < lp->row_start[i + 1]; k++) {
            double r = proper__lp_rel(fabs(lp->val[k] * y), dscale[lp->col_idx[k]]);
            if (r > mult) mult = r;
        }
        if (yy[i] == 0) { proper__lp_worse(&check->dual, mult); continue; }
        b = y > 0 ? lo : hi;
        dobj += (long double)y * b;
        oscale += fabsl((long double)y * b);
        proper__lp_worse(&check->slack, fmin(mult, proper__lp_rel(fabs(act[i] - b), mag[i] + fabs(b))));
    }
    /* dual: reduced costs, and complementary slackness of the columns */
    for (j = 0; j < n; j++) {
        double d = dd[j], lo = lp->col_lo[j], hi = lp->col_hi[j], b, mult = proper__lp_rel(fabs(d), dscale[j]);
        if (d == 0) continue;
        b = d > 0 ? lo : hi;
        if (proper__lp_isinf(b)) {
            proper__lp_worse(&check->dual, mult);
            dobj += (long double)d * sol->x[j];
            continue;
        }
        dobj += (long double)d * b;
        oscale += fabsl((long double)d * b);
        proper__lp_worse(&check->slack, fmin(mult, proper__lp_rel(fabs(sol->x[j] - b), fabs(b) + xscale)));
    }
    check->objective = (double)obj;
    check->dual_objective = (double)(sign * dobj);
    /* the duality gap, against the terms of both objectives: each pair's
     * slackness is small relative to its own row or column, but an
     * objective made of small terms (a fit whose optimum is 0, where x was
     * left at the engine's feasibility tolerance) needs this */
    check->gap = proper__lp_rel(fabs(check->objective - check->dual_objective), (double)oscale);
    if (check->primal <= tol && check->dual <= tol && check->slack <= tol && check->gap <= PROPER_LP_GAP_TOL)
        check->verdict = PROPER_LP_VERIFIED;
out:
    PROPER_FREE(dd); PROPER_FREE(dscale); PROPER_FREE(yy); PROPER_FREE(act); PROPER_FREE(mag);
}

/* One attempt of proper_lp_solve: a method, whether the dual path may hand
 * over to the primal one, and whether the problem is scaled. */
typedef struct proper__lp_try {
    int method, fallback, scale;
    int rc, status, ran;       /* ran: 0 not run, or the dual path could not decide */
    proper_lp_solution sol;
    proper_lp_check chk;
    double objscale;           /* sum_j |c_j x_j| + |c0| at an optimum */
} proper__lp_try;

/* Run one attempt: its status, and at an optimum the finished solution,
 * with x moved into its column bounds (the verification measures the rows
 * at that point), and its check. */
static int proper__lp_attempt(const proper_lp *lp, const proper_lp_opts *opt, const double *cost, proper__lp_try *t,
                              proper_error *err) {
    proper_lp_opts o = *opt;
    size_t j;
    int rc;
    memset(&t->chk, 0, sizeof t->chk);
    t->status = PROPER__LP_SPX_OPTIMAL;
    if ((rc = proper_lp_solution_create(&t->sol, lp->ncols, lp->nrows, err))) return rc;
    o.method = t->method;
    rc = proper__lp_run(lp, &o, cost, &t->sol, &t->status, t->fallback, &t->chk.condition, t->scale);
    if (rc == PROPER_ESTATE) return PROPER_OK; /* the dual path cannot decide: not run */
    t->ran = 1;
    if (rc == PROPER_OK && t->status == PROPER__LP_SPX_OPTIMAL) {
        double cond = t->chk.condition;
        for (j = 0; j < lp->ncols; j++) {
            if (!proper__lp_isinf(lp->col_lo[j]) && t->sol.x[j] < lp->col_lo[j]) t->sol.x[j] = lp->col_lo[j];
            if (!proper__lp_isinf(lp->col_hi[j]) && t->sol.x[j] > lp->col_hi[j]) t->sol.x[j] = lp->col_hi[j];
        }
        proper__lp_finish(lp, cost, &t->sol);
        proper_lp_verify(lp, &t->sol, &t->chk);
        t->chk.condition = cond;
        t->sol.objective = t->chk.objective;
        t->objscale = fabs(lp->obj_const);
        for (j = 0; j < lp->ncols; j++) t->objscale += fabs(lp->obj[j] * t->sol.x[j]);
    }
    return rc;
}

static const char *proper__lp_status_name(int status) {
    switch (status) {
    case PROPER__LP_SPX_OPTIMAL: return "an optimum";
    case PROPER__LP_SPX_INFEASIBLE: return "the LP infeasible";
    case PROPER__LP_SPX_UNBOUNDED: return "the LP unbounded";
    default: return "the iteration limit";
    }
}

static double proper__lp_check_worst(const proper_lp_check *c) {
    double w = c->primal;
    proper__lp_worse(&w, c->dual);
    proper__lp_worse(&w, c->slack);
    proper__lp_worse(&w, c->gap * (PROPER_LP_VERIFY_TOL / PROPER_LP_GAP_TOL));
    return w;
}

/* An optimum that passed the verification. */
static int proper__lp_try_verified(const proper__lp_try *t) {
    return t->ran && t->rc == PROPER_OK && t->status == PROPER__LP_SPX_OPTIMAL && t->chk.verdict == PROPER_LP_VERIFIED;
}

/* ... on a well-conditioned final basis: trusted alone. */
static int proper__lp_try_good(const proper__lp_try *t) {
    return proper__lp_try_verified(t) && t->chk.condition * DBL_EPSILON <= PROPER_LP_COND_TOL;
}

/* Two verified optima, one from each path (two solves of one basis would
 * share its rounding errors), that agree on the objective. */
static int proper__lp_try_agree(const proper__lp_try *a, const proper__lp_try *b) {
    double scale = a->objscale > b->objscale ? a->objscale : b->objscale;
    return proper__lp_try_verified(a) && proper__lp_try_verified(b) && a->sol.solved_dual != b->sol.solved_dual &&
           fabs(a->chk.objective - b->chk.objective) <= PROPER_LP_VERIFY_TOL * scale;
}

/* ---- certificates for "infeasible" and "unbounded" ------------------------ */

/* The simplex's infeasible or unbounded verdict is printed only with a proof
 * checked on the problem as given (so a ratio test that ignored a tiny
 * entry cannot make a wrong claim):
 * - infeasible: Farkas multipliers y for the rows. For x in the column box,
 *   y'Ax >= L = sum_{y_i > 0} y_i lo_i + sum_{y_i < 0} y_i hi_i, and
 *   y'Ax = z'x <= U = max over the box of z'x, z = A'y. L > U proves that
 *   no x exists. y is the row duals of the phase-1 LP
 *   min sum (p_i + q_i) s.t. lo_i <= a_i'x + p_i - q_i <= hi_i, x in its box,
 *   whose positive optimum is L - U by duality.
 * - unbounded: a feasible point (phase 1 with optimum 0) and a ray d:
 *   d_j >= 0 where lo_j is finite, <= 0 where hi_j is, a_i'd >= 0 where lo_i
 *   is finite, <= 0 where hi_i is, and c'd < 0 (> 0 when maximising); d is
 *   the optimum of min c'd over those cones cut to |d_j| <= 1.
 * Both auxiliary LPs are feasible and bounded; they are solved by the same
 * simplex, verified as any optimum, without certification of their own.
 * Tolerances are relative to the magnitudes of the terms summed
 * (PROPER_LP_CERT_TOL), floored as in proper_lp_verify
 * (PROPER_LP_VERIFY_FLOOR): an entry of z below that times sum_i |a_ij|
 * (|y_i| + floor max_k |y_k|) counts as zero, and a row moving by less
 * than that times sum_j |a_ij| (|d_j| + floor max_k |d_k|) along the ray
 * does not move (GLPK's murtagh.mps, minimised, has rows that move 1e-16
 * along its ray, against terms of the same size). */
#ifndef PROPER_LP_CERT_TOL
#define PROPER_LP_CERT_TOL 1e-9
#endif

static int proper__lp_solve_impl(const proper_lp *lp, const proper_lp_opts *opt, proper_lp_solution *sol,
                                 proper_error *err, int certify);

/* The phase-1 LP of lp (columns x, then p_i, q_i per row). */
static int proper__lp_phase1(const proper_lp *lp, proper_lp *aux, proper_error *err) {
    size_t i, j, k, n, *cols = NULL;
    double *vals = NULL;
    int rc = PROPER_OK;
    for (j = 0; j < lp->ncols && !rc; j++) rc = proper_lp_add_col(aux, 0, lp->col_lo[j], lp->col_hi[j], NULL, NULL, err);
    for (i = 0; i < 2 * lp->nrows && !rc; i++) rc = proper_lp_add_col(aux, 1, 0, PROPER_LP_INF, NULL, NULL, err);
    if (rc) return rc;
    cols = (size_t *)proper_calloc(lp->ncols + 2, sizeof *cols);
    vals = (double *)proper_calloc(lp->ncols + 2, sizeof *vals);
    if (!cols || !vals) rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (i = 0; i < lp->nrows && !rc; i++) {
        for (n = 0, k = lp->row_start[i]; k < lp->row_start[i + 1]; k++) { cols[n] = lp->col_idx[k]; vals[n++] = lp->val[k]; }
        cols[n] = lp->ncols + 2 * i; vals[n++] = 1;
        cols[n] = lp->ncols + 2 * i + 1; vals[n++] = -1;
        rc = proper_lp_add_row(aux, n, cols, vals, lp->row_lo[i], lp->row_hi[i], NULL, err);
    }
    PROPER_FREE(cols);
    PROPER_FREE(vals);
    return rc;
}

/* Check Farkas multipliers y (see above): 1 when they prove infeasibility. */
static int proper__lp_farkas_holds(const proper_lp *lp, const double *y) {
    size_t i, j, k;
    long double L = 0, U = 0, scale = 0;
    double *z = (double *)proper_calloc(lp->ncols + 1, sizeof *z), *mag = (double *)proper_calloc(lp->ncols + 1, sizeof *mag);
    double *noise = (double *)proper_calloc(lp->ncols + 1, sizeof *noise), ymax = 0;
    int ok = 1;
    if (!z || !mag || !noise) ok = 0;
    for (i = 0; i < lp->nrows; i++)
        if (fabs(y[i]) > ymax) ymax = fabs(y[i]);
    for (i = 0; i < lp->nrows && ok; i++) {
        if (y[i] == 0) continue;
        for (k = lp->row_start[i]; k < lp->row_start[i + 1]; k++) {
            z[lp->col_idx[k]] += y[i] * lp->val[k];
            mag[lp->col_idx[k]] += fabs(y[i] * lp->val[k]);
            noise[lp->col_idx[k]] += fabs(y[i] * lp->val[k]) + PROPER_LP_VERIFY_FLOOR * fabs(lp->val[k]) * ymax;
        }
        if (y[i] > 0 ? proper__lp_isinf(lp->row_lo[i]) : proper__lp_isinf(lp->row_hi[i])) { ok = 0; break; }
        L += (long double)y[i] * (y[i] > 0 ? lp->row_lo[i] : lp->row_hi[i]);
        scale += fabsl((long double)y[i] * (y[i] > 0 ? lp->row_lo[i] : lp->row_hi[i]));
    }
    for (j = 0; j < lp->ncols && ok; j++) {
        double b;
        if (fabs(z[j]) <= PROPER_LP_CERT_TOL * noise[j]) continue;
        b = z[j] > 0 ? lp->col_hi[j] : lp->col_lo[j];
        if (proper__lp_isinf(b)) { ok = 0; break; }
        U += (long double)z[j] * b;
        scale += fabsl((long double)mag[j] * b);
    }
    if (ok) ok = L - U > PROPER_LP_CERT_TOL * scale && L - U > 0;
    PROPER_FREE(z);
    PROPER_FREE(mag);
    PROPER_FREE(noise);
    return ok;
}

/* Check a ray d of lp (see above): 1 when it proves unboundedness together
 * with a feasible point. */
static int proper__lp_ray_holds(const proper_lp *lp, const double *d) {
    size_t i, j, k;
    double slope = 0, smag = 0, dmax = 0;
    for (j = 0; j < lp->ncols; j++) {
        if ((!proper__lp_isinf(lp->col_lo[j]) && d[j] < 0) || (!proper__lp_isinf(lp->col_hi[j]) && d[j] > 0)) return 0;
        slope += (lp->maximize ? -1 : 1) * lp->obj[j] * d[j];
        smag += fabs(lp->obj[j] * d[j]);
        if (fabs(d[j]) > dmax) dmax = fabs(d[j]);
    }
    if (!(slope < -PROPER_LP_CERT_TOL * smag) || !(slope < 0)) return 0;
    for (i = 0; i < lp->nrows; i++) {
        double act = 0, mag = 0;
        for (k = lp->row_start[i]; k < lp->row_start[i + 1]; k++) {
            act += lp->val[k] * d[lp->col_idx[k]];
            mag += fabs(lp->val[k] * d[lp->col_idx[k]]) + PROPER_LP_VERIFY_FLOOR * fabs(lp->val[k]) * dmax;
        }
        /* the row moves by act per unit of d: it may leave no finite bound */
        if (!proper__lp_isinf(lp->row_lo[i]) && act < -PROPER_LP_CERT_TOL * mag) return 0;
        if (!proper__lp_isinf(lp->row_hi[i]) && act > PROPER_LP_CERT_TOL * mag) return 0;
    }
    return 1;
}

/* The ray LP of lp: min (or max) c'd over the recession cone cut to the
 * unit box. */
static int proper__lp_ray_lp(const proper_lp *lp, proper_lp *aux, proper_error *err) {
    size_t i, j, k, n, *cols = NULL;
    double *vals = NULL;
    int rc = PROPER_OK;
    aux->maximize = lp->maximize;
    for (j = 0; j < lp->ncols && !rc; j++)
        rc = proper_lp_add_col(aux, lp->obj[j], proper__lp_isinf(lp->col_lo[j]) ? -1 : 0,
                               proper__lp_isinf(lp->col_hi[j]) ? 1 : 0, NULL, NULL, err);
    if (rc) return rc;
    cols = (size_t *)proper_calloc(lp->ncols + 1, sizeof *cols);
    vals = (double *)proper_calloc(lp->ncols + 1, sizeof *vals);
    if (!cols || !vals) rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (i = 0; i < lp->nrows && !rc; i++) {
        for (n = 0, k = lp->row_start[i]; k < lp->row_start[i + 1]; k++) { cols[n] = lp->col_idx[k]; vals[n++] = lp->val[k]; }
        rc = proper_lp_add_row(aux, n, cols, vals, proper__lp_isinf(lp->row_lo[i]) ? -PROPER_LP_INF : 0,
                               proper__lp_isinf(lp->row_hi[i]) ? PROPER_LP_INF : 0, NULL, err);
    }
    PROPER_FREE(cols);
    PROPER_FREE(vals);
    return rc;
}

/* Certify the simplex's verdict (PROPER__LP_SPX_INFEASIBLE or _UNBOUNDED):
 * *proven receives the status a checked certificate proves (an unbounded
 * claim can turn out infeasible), or -1 when none holds. */
static int proper__lp_certify(const proper_lp *lp, int claim, int *proven, proper_error *err) {
    proper_lp aux;
    proper_lp_solution s;
    double scale = 0;
    size_t i;
    int rc;
    *proven = -1;
    proper_lp_init(&aux);
    proper_lp_solution_init(&s);
    if ((rc = proper__lp_phase1(lp, &aux, err))) goto out;
    rc = proper__lp_solve_impl(&aux, NULL, &s, NULL, 0);
    if (rc == PROPER_ENOMEM) { rc = proper_error_set(err, rc, NULL, 0, 0, "out of memory"); goto out; }
    rc = PROPER_OK;
    if (!s.x) goto out; /* phase 1 itself unreliable: no proof either way */
    if (proper__lp_farkas_holds(lp, s.row_dual)) { *proven = PROPER__LP_SPX_INFEASIBLE; goto out; }
    /* a feasible point: phase 1's violations vanish against the rows' scale */
    for (i = 0; i < lp->nrows; i++) scale += fabs(lp->row_lo[i]) < PROPER_LP_INF ? fabs(lp->row_lo[i]) : 0;
    for (i = 0; i < lp->ncols; i++) scale += fabs(s.x[i]);
    if (claim != PROPER__LP_SPX_UNBOUNDED || !(s.objective <= PROPER_LP_CERT_TOL * (1 + scale))) goto out;
    proper_lp_free(&aux);
    proper_lp_solution_free(&s);
    if ((rc = proper__lp_ray_lp(lp, &aux, err))) goto out;
    rc = proper__lp_solve_impl(&aux, NULL, &s, NULL, 0);
    if (rc == PROPER_ENOMEM) { rc = proper_error_set(err, rc, NULL, 0, 0, "out of memory"); goto out; }
    rc = PROPER_OK;
    if (s.x && proper__lp_ray_holds(lp, s.x)) *proven = PROPER__LP_SPX_UNBOUNDED;
out:
    proper_lp_free(&aux);
    proper_lp_solution_free(&s);
    return rc;
}

PROPER_API int proper_lp_solve(const proper_lp *lp, const proper_lp_opts *opt, proper_lp_solution *sol,
                               proper_error *err) {
    return proper__lp_solve_impl(lp, opt, sol, err, 1);
}

/* proper_lp_solve; certify = 0 (the auxiliary LPs of the certificates):
 * an infeasible or unbounded verdict is reported as unreliable. */
static int proper__lp_solve_impl(const proper_lp *lp, const proper_lp_opts *opt, proper_lp_solution *sol,
                                 proper_error *err, int certify) {
    proper_lp_opts defaults = proper_lp_opts_default();
    proper__lp_try t[3];
    double *cost;
    size_t j, iterations = 0;
    int rc = PROPER_OK, k, ntry = 0, pick = -1, status = -1;
    if (!opt) opt = &defaults;
    if (opt->check) memset(opt->check, 0, sizeof *opt->check);
    if ((rc = proper__lp_check(lp, err))) return rc;
    memset(t, 0, sizeof t);
    for (k = 0; k < 3; k++) proper_lp_solution_init(&t[k].sol);
    if (!(cost = (double *)proper_calloc(lp->ncols, sizeof *cost)))
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory solving an LP");
    for (j = 0; j < lp->ncols; j++) cost[j] = (lp->maximize ? -1.0 : 1.0) * lp->obj[j];
    if ((rc = proper__lp_size_check(lp, cost, err))) goto done;
    /* attempts, until one can be trusted (VERIFICATION): the method asked
     * for; the other path (the primal after the dual, the dual alone after
     * the primal); the primal path without scaling */
    for (k = 0; k < 3 && pick < 0 && status < 0; k++) {
        int a, b;
        if (k == 0) { t[0].method = opt->method; t[0].fallback = 1; t[0].scale = 1; }
        else if (k == 1) { t[1].method = t[0].sol.solved_dual ? PROPER_LP_PRIMAL : PROPER_LP_DUAL; t[1].scale = 1; }
        else { t[2].method = PROPER_LP_PRIMAL; t[2].scale = 0; }
        t[k].rc = rc = proper__lp_attempt(lp, opt, cost, &t[k], err);
        iterations += t[k].sol.iterations;
        ntry = k + 1;
        if (rc) goto out;
        if (!t[k].ran) continue;
        if (t[k].status == PROPER__LP_SPX_LIMIT) { status = PROPER__LP_SPX_LIMIT; break; }
        if (proper__lp_try_good(&t[k])) { pick = k; break; }
        for (a = 0; a < k && pick < 0; a++)
            if (proper__lp_try_agree(&t[a], &t[k])) pick = a;
        if (pick >= 0) break;
        /* no optimum anywhere, and every attempt that ran says the same */
        if (t[k].status != PROPER__LP_SPX_OPTIMAL && k > 0) {
            int same = 1, ran = 0;
            for (b = 0; b <= k; b++) {
                if (!t[b].ran) continue;
                ran++;
                if (proper__lp_try_verified(&t[b]) || (t[b].status != t[k].status && t[b].status != PROPER__LP_SPX_OPTIMAL))
                    same = 0;
            }
            if (same && ran >= 2) status = t[k].status;
        }
    }
    if (pick < 0 && status < 0 && ntry == 3) {
        /* the attempts disagree, or none could be verified */
        int best = -1;
        proper_strbuf what;
        proper_strbuf_init(&what);
        for (k = 0; k < 3; k++) {
            if (!t[k].ran) continue;
            if (t[k].status == PROPER__LP_SPX_OPTIMAL) {
                if (best < 0 || !(proper__lp_check_worst(&t[k].chk) >= proper__lp_check_worst(&t[best].chk))) best = k;
                proper_strbuf_printf(&what, "%s%s%s %.15g (residual %.1g, condition %.1g)", what.len ? "; " : "",
                                     t[k].sol.solved_dual ? "dual" : "primal", t[k].scale ? "" : " unscaled",
                                     t[k].chk.objective, proper__lp_check_worst(&t[k].chk), t[k].chk.condition);
            } else
                proper_strbuf_printf(&what, "%s%s%s: %s", what.len ? "; " : "", t[k].sol.solved_dual ? "dual" : "primal",
                                     t[k].scale ? "" : " unscaled", proper__lp_status_name(t[k].status));
        }
        if (opt->check && best >= 0) { *opt->check = t[best].chk; opt->check->verdict = PROPER_LP_UNRELIABLE; }
        rc = proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0,
                              "the LP is numerically unreliable: no optimum verified to %g (objectives by path: %s); "
                              "too ill-conditioned for double precision (rescale it, or drop nearly dependent rows)",
                              PROPER_LP_VERIFY_TOL, what.data ? what.data : "");
        proper_strbuf_free(&what);
        goto done;
    }
out:
    if (rc) {
        rc = proper__lp_outcome(lp, rc, PROPER__LP_SPX_OPTIMAL, iterations, err);
    } else if (pick < 0 && (status == PROPER__LP_SPX_INFEASIBLE || status == PROPER__LP_SPX_UNBOUNDED)) {
        int proven = -1;
        if (certify && (rc = proper__lp_certify(lp, status, &proven, err))) goto done;
        if (proven >= 0) rc = proper__lp_outcome(lp, PROPER_OK, proven, iterations, err);
        else if (opt->check) opt->check->verdict = PROPER_LP_UNRELIABLE;
        if (proven < 0)
            rc = proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0,
                                  "the LP is numerically unreliable: the simplex found it %s, but no certificate "
                                  "(Farkas multipliers, or a feasible point and a ray) checks on the data",
                                  status == PROPER__LP_SPX_INFEASIBLE ? "infeasible" : "unbounded");
    } else if (pick < 0) {
        rc = proper__lp_outcome(lp, PROPER_OK, status, iterations, err);
    } else {
        t[pick].sol.iterations = iterations;
        if (opt->check) *opt->check = t[pick].chk;
        proper_lp_solution_free(sol);
        *sol = t[pick].sol;
        proper_lp_solution_init(&t[pick].sol);
    }
done:
    PROPER_FREE(cost);
    for (k = 0; k < 3; k++) proper_lp_solution_free(&t[k].sol);
    return rc;
}

/* ---- box-constrained convex QP ---------------------------------------------- */


/* Cholesky of the n x n matrix a (row-major, lower triangle used) in place;
 * 0 when not positive definite. */
static int proper__lp_chol(double *a, size_t n) {
    size_t i, j, k;
    for (j = 0; j < n; j++) {
        double d = a[j * n + j];
        for (k = 0; k < j; k++) d -= a[j * n + k] * a[j * n + k];
        if (!(d > 0)) return 0;
        d = sqrt(d);
        a[j * n + j] = d;
        for (i = j + 1; i < n; i++) {
            double s = a[i * n + j];
            for (k = 0; k < j; k++) s -= a[i * n + k] * a[j * n + k];
            a[i * n + j] = s / d;
        }
    }
    return 1;
}

static void proper__lp_chol_solve(const double *l, size_t n, double *b) {
    size_t i, k;
    for (i = 0; i < n; i++) {
        double s = b[i];
        for (k = 0; k < i; k++) s -= l[i * n + k] * b[k];
        b[i] = s / l[i * n + i];
    }
    for (i = n; i-- > 0;) {
        double s = b[i];
        for (k = i + 1; k < n; k++) s -= l[k * n + i] * b[k];
        b[i] = s / l[i * n + i];
    }
}

PROPER_API int proper_lp_qp_box_solve(size_t n, const double *Q, const double *q, const double *lo, const double *hi,
                                   double *x, size_t *iterations, proper_error *err) {
    signed char *act = NULL;   /* -1 at lower bound, +1 at upper, 0 free */
    size_t *fr = NULL, i, j, it, limit = 20 * n + 100;
    double *L = NULL, *z = NULL, scale = 1;
    int rc = PROPER_OK;
    if (iterations) *iterations = 0;
    if (n == 0) return PROPER_OK;
    for (i = 0; i < n; i++) {
        if (isnan(lo[i]) || isnan(hi[i]) || lo[i] > hi[i] || !isfinite(q[i]))
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "QP variable %zu: bounds [%g, %g] or q = %g invalid",
                                    i + 1, lo[i], hi[i], q[i]);
        if (fabs(q[i]) > scale) scale = fabs(q[i]);
        for (j = 0; j < n; j++) {
            if (!isfinite(Q[i * n + j]) || fabs(Q[i * n + j] - Q[j * n + i]) > 1e-12 * (fabs(Q[i * n + j]) + fabs(Q[j * n + i])))
                return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "QP matrix is not symmetric and finite at (%zu, %zu)",
                                        i + 1, j + 1);
            if (fabs(Q[i * n + j]) > scale) scale = fabs(Q[i * n + j]);
        }
    }
    act = (signed char *)proper_calloc(n, sizeof *act);
    fr = (size_t *)proper_calloc(n, sizeof *fr);
    L = (double *)proper_calloc(n * n, sizeof *L);
    z = (double *)proper_calloc(n, sizeof *z);
    if (!act || !fr || !L || !z) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto out; }
    /* start at the point of the box nearest the origin */
    for (i = 0; i < n; i++) {
        x[i] = 0;
        if (lo[i] > -PROPER_LP_INF && lo[i] > 0) { x[i] = lo[i]; act[i] = -1; }
        else if (hi[i] < PROPER_LP_INF && hi[i] < 0) { x[i] = hi[i]; act[i] = 1; }
        else if (lo[i] == 0) act[i] = -1;
        else if (hi[i] == 0) act[i] = 1;
    }
    for (it = 0; it < limit; it++) {
        size_t nf = 0, a, b, block = n;
        double alpha = 1;
        int feasible = 1;
        for (i = 0; i < n; i++) if (!act[i]) fr[nf++] = i;
        /* subspace minimiser: Q_FF z_F = -(q_F + Q_FA x_A) */
        for (a = 0; a < nf; a++) {
            double s = -q[fr[a]];
            for (j = 0; j < n; j++) if (act[j]) s -= Q[fr[a] * n + j] * x[j];
            z[a] = s;
            for (b = 0; b < nf; b++) L[a * nf + b] = Q[fr[a] * n + fr[b]];
        }
        if (nf && !proper__lp_chol(L, nf)) {
            rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "QP matrix is not positive definite");
            goto out;
        }
        if (nf) proper__lp_chol_solve(L, nf, z);
        for (a = 0; a < nf; a++) {
            size_t v = fr[a];
            double p = z[a] - x[v], t;
            if (p < 0 && lo[v] > -PROPER_LP_INF && z[a] < lo[v]) {
                feasible = 0;
                t = (lo[v] - x[v]) / p;
                if (t < alpha) { alpha = t; block = v; }
            } else if (p > 0 && hi[v] < PROPER_LP_INF && z[a] > hi[v]) {
                feasible = 0;
                t = (hi[v] - x[v]) / p;
                if (t < alpha) { alpha = t; block = v; }
            }
        }
        if (alpha < 0) alpha = 0;
        if (!feasible) {
            for (a = 0; a < nf; a++) x[fr[a]] += alpha * (z[a] - x[fr[a]]);
            if (block < n) {
                double p = 0;
                for (a = 0; a < nf; a++) if (fr[a] == block) p = z[a];
                if (p < lo[block]) { x[block] = lo[block]; act[block] = -1; }
                else { x[block] = hi[block]; act[block] = 1; }
            }
            continue;
        }
        for (a = 0; a < nf; a++) x[fr[a]] = z[a];
        {
            /* release the bound whose multiplier has the wrong sign the most */
            double worst = PROPER_LP_QP_KKT_TOL * scale * (1 + n), g;
            size_t rel = n;
            for (i = 0; i < n; i++) {
                if (!act[i]) continue;
                g = q[i];
                for (j = 0; j < n; j++) g += Q[i * n + j] * x[j];
                if (lo[i] == hi[i]) continue;
                if (act[i] < 0 && -g > worst) { worst = -g; rel = i; }
                if (act[i] > 0 && g > worst) { worst = g; rel = i; }
            }
            if (rel == n) { if (iterations) *iterations = it + 1; goto out; }
            act[rel] = 0;
        }
    }
    rc = proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0, "QP active-set method did not finish in %zu steps", limit);
out:
    PROPER_FREE(act); PROPER_FREE(fr); PROPER_FREE(L); PROPER_FREE(z);
    return rc;
}

#endif /* PROPER_LP_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
