/* annot.h — probabilistic performance annotations (Rogora, Carzaniga, Diwan,
 * Hauswirth, Soulé: "Analyzing System Performance with Probabilistic
 * Performance Annotations", EuroSys 2020; the tool there is called Freud).
 *
 * An annotation says how a metric of a function (running time, CPU time, heap
 * bytes, lock wait, ...) is distributed as a function of features of its input:
 *
 *     sort.time(s) {
 *       [s <= 1450341] Norm(53350.31 - 2.1*s + 0.12*s*log(s), 12463.88);
 *       [s > 1450341] { {0.2} Norm(9e7 + 63.11*s, 899547); {0.8} Exp(3e8); }
 *     }
 *
 * This module reads measurement logs, fits annotations to them (the paper's
 * §3.2 and Algorithms 1-2), prints and parses the annotation language,
 * checks new measurements against an annotation, and keeps sufficient
 * statistics of a log that merge exactly across files and processes (the
 * regression part of a fit, see "Sufficient statistics" below).
 *
 * ==== Logs =================================================================
 *
 * Two formats, told apart by the first line.
 *
 * 1. The paper's record format (§3.1), `id, y1..ym, x1..xn, b11, b12, .., #,
 *    b21, .., #, ...`, with a header line and one schema line per function
 *    that names its metrics and features (the paper's records do not say how
 *    many of the numbers are metrics, so the schema line does):
 *
 *     proper-annot-log 1
 *     # comment
 *     function sort metrics time heap features s depth
 *     sort, 53350, 0, 49584, 3, 1, 0, #, 1, #
 *
 *     log     = header , { empty | comment | schema | record } ;
 *     header  = "proper-annot-log" , blank , "1" , eol ;
 *     schema  = "function" , blank , name , blank , "metrics" , { blank , column } ,
 *               blank , "features" , { blank , column } , eol ;
 *     record  = name , { sep , number } , { sep , outcome } , eol ;
 *     outcome = "0" | "1" | "#" ;     (* after the m + n numbers: branch outcomes,
 *                                        each branch's list closed by "#" *)
 *     sep     = [ blanks ] , "," , [ blanks ] ;
 *     name    = any characters but blanks, control characters and , # ( ) { } [ ] ; ;
 *     column  = letter or "_" , { letter | digit | "_" | "." } ;
 *
 *    A record has exactly m + n numbers (its function's schema). The first
 *    outcome of branch j in a record is what the condition `branch(j)` reads
 *    (j counted from 1); a branch the record never executed reads as NaN.
 *
 * 2. Plain CSV: a header row of column names, then rows of numbers; a column
 *    named `function` (or `id`) holds the function name (else every row
 *    belongs to function "f"). All other columns are numbers; which one is
 *    the metric is chosen when fitting, the others are features. No quoting.
 *
 * Numbers must be finite (NaN and inf are errors at file:line:col); metrics
 * may be negative (an exponential is then never fitted). Every error names
 * file:line:col.
 *
 * ==== The annotation language ============================================
 *
 *     annotations = { function } ;
 *     function    = fname , "." , metric , "(" , [ ident , { "," , ident } ] , ")" ,
 *                   "{" , { decl } , body , "}" ;
 *     decl        = ident , ident , [ "=" , text ] , ";" ;    (* uint s = *(this->n); *)
 *     body        = item , { item } ;
 *     item        = [ "[" , expr , "]" | "{" , number , "}" ] ,
 *                   ( dist , ";" | "{" , body , "}" ) ;
 *     dist        = "Norm" , "(" , expr , "," , expr , ")"     (* mean, sd      *)
 *                 | "Exp" , "(" , expr , ")"                   (* mean          *)
 *                 | "Binom" , "(" , expr , "," , expr , ")" ;  (* trials, p     *)
 *     expr        = and , { "||" , and } ;
 *     and         = cmp , { "&&" , cmp } ;
 *     cmp         = sum , [ ( "<" | "<=" | ">" | ">=" | "==" | "!=" ) , sum ] ;
 *     sum         = prod , { ( "+" | "-" ) , prod } ;
 *     prod        = unary , { ( "*" | "/" ) , unary } ;
 *     unary       = ( "-" | "!" ) , unary | primary ;
 *     primary     = number | ident | ident , "(" , expr , { "," , expr } , ")" |
 *                   "(" , expr , ")" ;
 *     ident       = ( letter | "_" ) , { letter | digit | "_" | "." } ;
 *     fname       = any characters but blanks, "(", ")", "{", "}", "[", "]", ";",
 *                   ",", "#" (the metric is what follows its last ".") ;
 *     text        = any characters but ";" and newlines ;
 *     comment     = "#" , { any character but newline } ;
 *
 * Functions: log, exp, sqrt, abs, pow(a, b), min(a, b), max(a, b) and
 * branch(j) (the first outcome of branch j, see above). `[C] e` holds when C
 * is true (non-zero); siblings `[C1] ..; [C2] ..` should be exclusive: the
 * first true one applies. `{p} e` items are a mixture; their p must sum to 1
 * (within 1e-6). Exp takes its mean (rate 1/mean), Binom(n, p) its trials and
 * probability. In evaluation 0 times anything is 0, so s*log(s) is 0 at s = 0
 * (its limit); a comparison with NaN is false. Numbers are printed in the
 * shortest form that reads back exactly, so printing and parsing round-trip.
 * A fitted annotation prints, after each distribution, a comment with the
 * records it was fitted on, its class and R², and, when a data heuristic
 * chose the records (below), a first comment saying which and how many of
 * the log's records it kept (comments are not kept when the text is parsed).
 *
 * ==== The analysis (paper §3.2) ==========================================
 *
 * Feature clean-up: features constant over the records are dropped (the paper
 * drops those that are zero everywhere; a constant is as uninformative);
 * features whose Pearson correlation with an earlier kept one is at least
 * PROPER_ANNOT_CORR in magnitude join its group, and each group is
 * represented by the member most correlated with the metric. Pairs of
 * features named P begin/end, first/last, start/stop (or finish) give a
 * derived feature P span = end - begin (§3.1).
 *
 * Regression classes (§3.2, "Model Formulation"), on the kept features f, g:
 *     constant   y = c0
 *     linear     y = c0 + Σ cf·xf
 *     x·log x    y = c0 + Σ cf·xf + Σ df·xf·log xf      (features >= 0)
 *     quadratic  y = c0 + Σ cf·xf + Σ df·xf² + Σ e·xf·xg (products among the
 *                PROPER_ANNOT_PRODUCTS features most correlated with y)
 * Least squares by Householder QR of [X | y] (never the normal equations),
 * accumulated block by block so memory is O(p²) however many records; every
 * column is scaled by its largest magnitude first. Coefficient t statistic
 * t = b/se(b), se from σ²·diag((RᵀR)⁻¹), σ² = RSS/(n - p); two-sided p-value
 * 2·P(T_{n-p} > |t|). Backward elimination: drop the term with the largest
 * p-value while it exceeds alpha (the intercept stays). R² = 1 - RSS/TSS.
 * BIC = n·ln(RSS/n) + (k + 1)·ln n with k coefficients (the Gaussian
 * log-likelihood up to a constant; computed in units of the largest |y|, so
 * nothing overflows). Among the classes
 * whose R² >= r2 the lowest BIC wins; a higher class must beat a lower one
 * by PROPER_ANNOT_BIC_MARGIN (strong evidence on Kass and Raftery's scale),
 * so a linear function is not called quadratic for a negligible x².
 * The class search runs on at most PROPER_ANNOT_SAMPLE records drawn
 * uniformly (seeded); the chosen model is refitted on all of them.
 *
 * Algorithm 1 (regression tree): a set of records is split, first on a
 * branch outcome (a branch whose first outcome differs across records), then
 * on a feature threshold
 * (cut points at PROPER_ANNOT_CUTS quantiles, scored by the residual sum of
 * squares of a quadratic fit on each side); a split is taken only if the BIC
 * of the two sides' best models plus ln n for the split is lower than the
 * whole's by PROPER_ANNOT_BIC_MARGIN, and each side has min_leaf records.
 * Where the paper splits only sets without a good model, this also splits
 * a good one when the split gains PROPER_ANNOT_SPLIT_GAIN per record and,
 * for a feature threshold, both sides have good models too (a single n log n fits
 * a list sort across cache sizes with R² 0.99, yet its regimes differ by a
 * factor 10 per element). A feature threshold between two sides that both
 * lack a good model must also separate metric distributions that differ
 * (two-sample Kolmogorov-Smirnov p-value at most opts.alpha): with a heavy
 * tail (a few calls slowed a hundredfold), a side holding one extreme value
 * gains BIC by chance, and the split would print one distribution twice. A
 * branch split is printed as a feature threshold when one feature separates
 * the two sides exactly, else as branch(j) == 1. A set that is not split
 * is a leaf with its model if that is good (R² >= r2), and goes to
 * Algorithm 2 otherwise.
 *
 * Algorithm 2 (clustering on the metric, §4.3): a variable-bandwidth kernel
 * density estimate of y (Abramson's square-root law on a Gaussian pilot with
 * Silverman's bandwidth, binned on PROPER_ANNOT_KDE_GRID points; on lattice
 * data, at most a quarter as many distinct values as records, no bandwidth
 * is below the lattice step, else each lattice point would be a mode); its local
 * minima are cluster boundaries, maxima centroids. A valley higher than
 * PROPER_ANNOT_KDE_VALLEY times the lower of its two peaks, or a cluster with
 * fewer than max(min_leaf, PROPER_ANNOT_MIN_CLUSTER·n) records, is merged
 * away. Each cluster with a good model and a defining condition (a feature
 * range holding all its records and none of the other clusters') becomes a
 * scope (the records of the other clusters are then in no scope, as the
 * paper allows); if no cluster does, the result is a mixture {|Ri|/|R|} with a good
 * regression per cluster where there is one, else an input-independent
 * distribution: Norm(mean, sd), Exp(mean) (y >= 0) or Binom(n, p)
 * (non-negative integers with variance < mean; n = mean²/(mean - variance)
 * rounded, p = mean/n), the one with the smallest Kolmogorov-Smirnov
 * distance (for counts Binom against Norm on the lattice: both CDFs at each
 * integer, the normal with the continuity correction).
 *
 * The two data heuristics (§3.2 "Further Refinements") are available as
 * filters (opts.envelope, opts.dominant): the lower envelope (for each value
 * of a feature keep the smallest metric: removes additive positive noise)
 * and the dominant cluster (for each feature value keep the records of the
 * largest metric cluster). With opts.heuristics (the default), when
 * regressions hold fewer than half the records, the dominant cluster is
 * tried per feature that repeats (at most N/4 distinct values) and the first
 * fit whose regressions hold at least half of its records replaces the
 * first one: the annotation then
 * describes the typical behaviour, the outliers left out.
 *
 * Checking: each new record goes to the scope its features select; per scope
 * the probability integral transform u = F(y | x) (randomised for Binom) is
 * compared with Uniform(0, 1) by the Kolmogorov-Smirnov test; with m scopes
 * tested each uses level alpha/m (Bonferroni), so the family-wise error is at
 * most alpha. A scope whose p-value is below that is a violation.
 *
 * Limits: at most PROPER_ANNOT_MAX_FEATURES features after clean-up (extra
 * ones, the least correlated with the metric, are left out), tree depth
 * opts.max_depth, names up to PROPER_ANNOT_NAME_MAX characters; a log is read
 * whole into memory (10⁷ records of two columns: 0.7 GB); metrics whose
 * parameters would overflow a double fail with PROPER_ERANGE. Fewer than 3
 * records give Norm(mean, sd) without analysis.
 */
#ifndef PROPER_ANNOT_H
#define PROPER_ANNOT_H

#include "core.h"
#include "stats.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Features whose |Pearson r| is at least this are one group (§3.2). */
#ifndef PROPER_ANNOT_CORR
#define PROPER_ANNOT_CORR 0.99
#endif
/* A model is good when its R² is at least this (opts.r2's default). */
#ifndef PROPER_ANNOT_R2
#define PROPER_ANNOT_R2 0.9
#endif
/* Backward elimination keeps a term whose p-value is at most this. */
#ifndef PROPER_ANNOT_ALPHA
#define PROPER_ANNOT_ALPHA 0.001
#endif
/* A more complex class (or a split) must lower the BIC by this much. */
#ifndef PROPER_ANNOT_BIC_MARGIN
#define PROPER_ANNOT_BIC_MARGIN 10.0
#endif
/* Most features kept after clean-up. */
#ifndef PROPER_ANNOT_MAX_FEATURES
#define PROPER_ANNOT_MAX_FEATURES 16
#endif
/* Pairwise products enter the quadratic class among this many features. */
#ifndef PROPER_ANNOT_PRODUCTS
#define PROPER_ANNOT_PRODUCTS 3
#endif
/* Most terms of one regression (the union of the classes' terms). */
#define PROPER_ANNOT_MAX_TERMS (1 + 3 * PROPER_ANNOT_MAX_FEATURES + PROPER_ANNOT_PRODUCTS * (PROPER_ANNOT_PRODUCTS - 1) / 2)
/* The class search uses at most this many records (uniform sample). */
#ifndef PROPER_ANNOT_SAMPLE
#define PROPER_ANNOT_SAMPLE 200000
#endif
/* Candidate thresholds per feature in Algorithm 1. */
#ifndef PROPER_ANNOT_CUTS
#define PROPER_ANNOT_CUTS 32
#endif
/* Smallest set of records a leaf or split side may hold (opts.min_leaf). */
#ifndef PROPER_ANNOT_MIN_LEAF
#define PROPER_ANNOT_MIN_LEAF 30
#endif
/* Deepest regression tree (opts.max_depth). */
#ifndef PROPER_ANNOT_MAX_DEPTH
#define PROPER_ANNOT_MAX_DEPTH 6
#endif
/* Grid points of the kernel density estimate. */
#ifndef PROPER_ANNOT_KDE_GRID
#define PROPER_ANNOT_KDE_GRID 2048
#endif
/* A density valley above this fraction of its lower neighbouring peak does
 * not separate clusters. */
#ifndef PROPER_ANNOT_KDE_VALLEY
#define PROPER_ANNOT_KDE_VALLEY 0.5
#endif
/* Smallest cluster as a fraction of the records clustered. */
#ifndef PROPER_ANNOT_MIN_CLUSTER
#define PROPER_ANNOT_MIN_CLUSTER 0.02
#endif
/* The density is estimated on at most this many values (uniform sample). */
#ifndef PROPER_ANNOT_KDE_SAMPLE
#define PROPER_ANNOT_KDE_SAMPLE 100000
#endif
/* Longest function, metric, column or variable name. */
#ifndef PROPER_ANNOT_NAME_MAX
#define PROPER_ANNOT_NAME_MAX 255
#endif
/* A feature's x log x and x² terms enter a regression only on records where
 * it takes at least this many distinct values. */
#ifndef PROPER_ANNOT_MIN_DISTINCT
#define PROPER_ANNOT_MIN_DISTINCT 5
#endif
/* Deepest nesting of expressions and groups the parser accepts. */
#ifndef PROPER_ANNOT_NEST_MAX
#define PROPER_ANNOT_NEST_MAX 200
#endif

/* ---- Logs ------------------------------------------------------------------ */

/* The records of one function: a row of ncol numbers per record, and its
 * branch outcomes (0, 1, or 2 for a closing "#"). */
typedef struct proper_annot_table {
    char *name;               /* the function */
    size_t ncol;              /* columns */
    char **cols;              /* column names */
    unsigned char *is_metric; /* 1 for a declared metric (record format) */
    size_t n, cap;            /* records */
    double *v;                /* n * ncol numbers, row-major */
    unsigned char *br;        /* all records' outcomes */
    size_t nbr, brcap;
    size_t *br_off;           /* record i: br[br_off[i] .. br_off[i + 1]); n + 1 entries */
    size_t offcap;
} proper_annot_table;

typedef struct proper_annot_log {
    size_t n;                 /* functions */
    proper_annot_table *t;
} proper_annot_log;

PROPER_API void proper_annot_log_init(proper_annot_log *log);
PROPER_API void proper_annot_log_free(proper_annot_log *log);
/* Read either format from memory / a file (output rule: see the architecture). */
PROPER_API int proper_annot_log_parse(proper_annot_log *out, const char *text, size_t len, const char *name,
                                      proper_error *err);
PROPER_API int proper_annot_log_read(proper_annot_log *out, const char *path, proper_error *err);
/* Write the record format (it reads back to an equal log). */
PROPER_API int proper_annot_log_format(const proper_annot_log *log, proper_strbuf *b, proper_error *err);
PROPER_API int proper_annot_log_write(const proper_annot_log *log, FILE *f, proper_error *err);
/* The table of a function, or NULL. */
PROPER_API const proper_annot_table *proper_annot_log_find(const proper_annot_log *log, const char *function);
/* Column index of a name in a table, or (size_t)-1. */
PROPER_API size_t proper_annot_table_column(const proper_annot_table *t, const char *name);
/* First outcome of branch j (from 0) in record i: 0, 1, or NaN if not executed. */
PROPER_API double proper_annot_table_branch(const proper_annot_table *t, size_t i, size_t j);

/* ---- Least squares ------------------------------------------------------------ */

typedef struct proper_annot_lsq {
    size_t n, p;     /* records, coefficients */
    double coef[PROPER_ANNOT_MAX_TERMS];
    double se[PROPER_ANNOT_MAX_TERMS];   /* standard errors */
    double tstat[PROPER_ANNOT_MAX_TERMS];
    double pval[PROPER_ANNOT_MAX_TERMS]; /* two-sided, Student-t with n - p df */
    double rss, tss, r2, sigma, bic;     /* tss about the mean; sigma² = rss/(n - p) */
} proper_annot_lsq;

/* Ordinary least squares of y on the n x p row-major design X (include a
 * column of ones for an intercept; r2 and tss assume there is one). Needs
 * n > p and full column rank (PROPER_ERANGE otherwise); p <= PROPER_ANNOT_MAX_TERMS. */
PROPER_API int proper_annot_lsq_fit(proper_annot_lsq *out, const double *X, const double *y, size_t n, size_t p,
                                    proper_error *err);

/* ---- Clustering and data heuristics ------------------------------------------- */

/* Cluster boundaries of y[0..n) by the variable-bandwidth KDE (Algorithm 2):
 * writes the sorted cut points (a value v belongs to cluster k when
 * cuts[k-1] < v <= cuts[k]) into *cuts (allocated; free with PROPER_FREE) and
 * their count into *ncuts (0: one cluster). min_size: smallest cluster. */
PROPER_API int proper_annot_kde_cuts(const double *y, size_t n, size_t min_size, uint64_t seed, double **cuts,
                                     size_t *ncuts, proper_error *err);
/* The variable-bandwidth density behind proper_annot_kde_cuts, on its
 * PROPER_ANNOT_KDE_GRID points: x[k] (increasing) and f[k] (integrates to
 * about 1), both caller arrays of that length. PROPER_ERANGE when fewer than
 * 4 values are given or they are (nearly) all equal. */
PROPER_API int proper_annot_kde(const double *y, size_t n, uint64_t seed, double *x, double *f, proper_error *err);
/* Lower envelope: keep[i] = 1 for the records whose y is the smallest among
 * those with the same x (ties all kept). */
PROPER_API int proper_annot_lower_envelope(const double *x, const double *y, size_t n, unsigned char *keep,
                                           proper_error *err);
/* Dominant cluster: per distinct x, cluster its y values (KDE) and keep the
 * records of the largest cluster. */
PROPER_API int proper_annot_dominant(const double *x, const double *y, size_t n, unsigned char *keep,
                                     proper_error *err);

/* ---- Annotations ------------------------------------------------------------- */

enum proper_annot_expr_kind {
    PROPER_ANNOT_NUM, PROPER_ANNOT_VAR, PROPER_ANNOT_NEG, PROPER_ANNOT_NOT,
    PROPER_ANNOT_ADD, PROPER_ANNOT_SUB, PROPER_ANNOT_MUL, PROPER_ANNOT_DIV,
    PROPER_ANNOT_LT, PROPER_ANNOT_LE, PROPER_ANNOT_GT, PROPER_ANNOT_GE, PROPER_ANNOT_EQ, PROPER_ANNOT_NE,
    PROPER_ANNOT_AND, PROPER_ANNOT_OR, PROPER_ANNOT_CALL
};
enum proper_annot_fn_kind {
    PROPER_ANNOT_F_LOG, PROPER_ANNOT_F_EXP, PROPER_ANNOT_F_SQRT, PROPER_ANNOT_F_ABS, PROPER_ANNOT_F_POW,
    PROPER_ANNOT_F_MIN, PROPER_ANNOT_F_MAX, PROPER_ANNOT_F_BRANCH
};
enum proper_annot_dist_kind { PROPER_ANNOT_GROUP, PROPER_ANNOT_NORM, PROPER_ANNOT_EXP, PROPER_ANNOT_BINOM };
enum proper_annot_guard_kind { PROPER_ANNOT_NONE, PROPER_ANNOT_COND, PROPER_ANNOT_PROB };
enum proper_annot_class {
    PROPER_ANNOT_CONSTANT, PROPER_ANNOT_LINEAR, PROPER_ANNOT_NLOGN, PROPER_ANNOT_QUADRATIC,
    PROPER_ANNOT_DISTRIBUTION /* input-independent */
};

/* An expression node; a, b are node indices (-1: none). */
typedef struct proper_annot_expr {
    int kind;
    double value; /* NUM */
    size_t var;   /* VAR: index into proper_annot.names */
    int fn;       /* CALL */
    int a, b;
} proper_annot_expr;

/* One item of a body: an optional guard, then a distribution or a group. */
typedef struct proper_annot_item {
    int guard;    /* PROPER_ANNOT_NONE / COND / PROB */
    int cond;     /* COND: expression */
    double prob;  /* PROB */
    int dist;     /* PROPER_ANNOT_GROUP or a distribution */
    int arg[2];   /* the distribution's arguments (expressions) */
    int child;    /* GROUP: first item of its body */
    int next;     /* next sibling, -1 at the end */
    /* from a fit, not printed (0 after parsing): */
    size_t n_obs; /* records the item was fitted on */
    double r2;    /* its regression's R² (NaN for a distribution) */
    int cls;      /* enum proper_annot_class */
} proper_annot_item;

typedef struct proper_annot_decl {
    char *type, *name, *text; /* text is NULL without "=" */
} proper_annot_decl;

typedef struct proper_annot_fn {
    char *name, *metric;
    size_t n_params;
    char **params;
    size_t n_decls;
    proper_annot_decl *decls;
    int body; /* first item */
    /* from a fit, printed as a comment (0 / NULL after parsing): the records
     * were filtered by a data heuristic of §3.2 over feature filter_feature
     * (PROPER_ANNOT_ENVELOPE or PROPER_ANNOT_DOMINANT), n_kept of n_log */
    int filter;
    char *filter_feature;
    size_t n_kept, n_log;
} proper_annot_fn;

enum { PROPER_ANNOT_ENVELOPE = 1, PROPER_ANNOT_DOMINANT = 2 };

typedef struct proper_annot {
    size_t n_fns, cap_fns;
    proper_annot_fn *fns;
    size_t n_ex, cap_ex;
    proper_annot_expr *ex;
    size_t n_it, cap_it;
    proper_annot_item *it;
    proper_intern names; /* variable names */
} proper_annot;

PROPER_API void proper_annot_init(proper_annot *a);
PROPER_API void proper_annot_free(proper_annot *a);
PROPER_API int proper_annot_parse(proper_annot *out, const char *text, size_t len, const char *name,
                                  proper_error *err);
PROPER_API int proper_annot_read(proper_annot *out, const char *path, proper_error *err);
PROPER_API int proper_annot_format(const proper_annot *a, proper_strbuf *b, proper_error *err);
PROPER_API int proper_annot_write(const proper_annot *a, FILE *f, proper_error *err);
/* 1 when a and b have the same functions, structure, names and numbers. */
PROPER_API int proper_annot_equal(const proper_annot *a, const proper_annot *b);
/* The function of that name and metric (metric NULL: any), or NULL. */
PROPER_API const proper_annot_fn *proper_annot_find(const proper_annot *a, const char *function, const char *metric);

/* Append the text of expression e (as the printer writes it) to b. */
PROPER_API void proper_annot_format_expr(const proper_annot *a, int e, proper_strbuf *b);

/* Value of expression e; vars[k] is the value of names.names[k] (NaN if
 * unknown), branch[j] the first outcome of branch j (NaN if not executed). */
PROPER_API double proper_annot_eval(const proper_annot *a, int e, const double *vars, const double *branch,
                                    size_t n_branch);

/* The scope of fn that holds a record with these variables and branch
 * outcomes: the item of its distribution, or of the first item of its
 * mixture; -1 when no scope holds it. */
PROPER_API int proper_annot_scope(const proper_annot *a, const proper_annot_fn *fn, const double *vars,
                                  const double *branch, size_t n_branch);

/* The expected value of fn's metric for a record with these variables and
 * branch outcomes (as proper_annot_eval takes them): the mean of the scope
 * the record falls in (Norm: its mean, Exp: its mean, Binom: n·p; a mixture:
 * the probability-weighted means). NaN when no scope holds the record. */
PROPER_API double proper_annot_mean(const proper_annot *a, const proper_annot_fn *fn, const double *vars,
                                    const double *branch, size_t n_branch);

/* ---- Fitting --------------------------------------------------------------------- */

typedef struct proper_annot_opts {
    double r2;         /* good-model threshold, PROPER_ANNOT_R2 */
    double alpha;      /* elimination p-value, PROPER_ANNOT_ALPHA */
    double corr;       /* feature grouping, PROPER_ANNOT_CORR */
    size_t min_leaf;   /* PROPER_ANNOT_MIN_LEAF */
    int max_depth;     /* PROPER_ANNOT_MAX_DEPTH */
    int use_branches;  /* split on branch outcomes (1) */
    int envelope;      /* fit the lower envelope on the first feature (0) */
    int dominant;      /* fit the dominant cluster per value of the first feature (0) */
    const char *heuristic_feature; /* the feature of envelope/dominant (NULL: the first) */
    int heuristics;    /* fall back to the dominant cluster when nothing regresses (1) */
    uint64_t seed;     /* sampling */
} proper_annot_opts;

PROPER_API proper_annot_opts proper_annot_opts_default(void);

/* Fit the annotation of `metric` for one table and append it (as function
 * t->name) to *out; on failure *out is unchanged. Features: every column but
 * the metric and the declared metrics. */
PROPER_API int proper_annot_fit(proper_annot *out, const proper_annot_table *t, const char *metric,
                                const proper_annot_opts *opts, proper_error *err);

/* ---- Checking --------------------------------------------------------------------- */

typedef struct proper_annot_scope_check {
    int item;        /* the scope's item (a distribution or a mixture group) */
    size_t n;        /* records that fell in it */
    double ks;       /* KS distance of the PIT values from Uniform(0,1) */
    double p_value;  /* its asymptotic p-value */
    int violated;    /* p_value < alpha / tested */
} proper_annot_scope_check;

typedef struct proper_annot_check {
    size_t n_scopes;
    proper_annot_scope_check *scopes;
    size_t uncovered;   /* records no scope holds */
    size_t tested;      /* scopes with at least PROPER_ANNOT_CHECK_MIN records */
    size_t violations;
    double level;       /* per-scope level alpha / tested */
} proper_annot_check;

/* Scopes with fewer records are reported but not tested. */
#ifndef PROPER_ANNOT_CHECK_MIN
#define PROPER_ANNOT_CHECK_MIN 5
#endif

PROPER_API void proper_annot_check_init(proper_annot_check *c);
PROPER_API void proper_annot_check_free(proper_annot_check *c);
/* Check table t against function fn of annotation a at family-wise level alpha. */
PROPER_API int proper_annot_check_table(proper_annot_check *out, const proper_annot *a, const proper_annot_fn *fn,
                                        const proper_annot_table *t, double alpha, uint64_t seed,
                                        proper_error *err);

/* ---- Sufficient statistics (merging fits across processes) -------------------
 * What a regression needs from a function's records, as sums that merge
 * exactly: for records split over many files or machines (issue 21: the map
 * step writes statistics, the reduce step merges them), the merged
 * statistics are byte for byte those of the concatenated log, in any order
 * and grouping, and so is the regression fitted from them.
 *
 * Per function and metric y, over the candidate features x1..xk (every
 * column but the metrics, and the derived spans, as the fit takes them;
 * k <= PROPER_ANNOT_STATS_FEATURES), the basis of every term a fit can use:
 *     t = (1, x1..xk, x1·log x1..xk·log xk, x1²..xk², x1·x2, x1·x3, .., x(k-1)·xk, y)
 * (x·log x is 0 where x <= 0; products in the order (1,2), (1,3), ..,
 * (k-1,k)), q = 3k + k(k-1)/2 + 2 terms, and the exact sums S[i][j] = Σ ti·tj
 * for i <= j: n, X'X, X'y and y'y of every regression class at once. Each
 * product is split exactly into two doubles (fma) and both are added to a
 * fixed-point accumulator of 768 bits (units of 2^-384, up to 2^383), so
 * the sums are exact and their addition associative; this needs every
 * feature value and metric to be 0 or of magnitude 2^-64 .. 2^64 (5.4e-20 ..
 * 1.8e19; anything else is refused, naming the record) and at most 2^63
 * records, so that every sum lies within ±2^320 (a file holding a larger
 * one is refused). Kept too, and merged exactly: per feature its minimum, maximum
 * and PROPER_ANNOT_MIN_DISTINCT (5) smallest distinct values (for the
 * clean-up and the rule on curved terms), and the metric's minimum and
 * maximum.
 *
 * The fit from statistics is the regression part of proper_annot_fit for
 * one scope: clean-up (constant features dropped, correlated ones grouped,
 * correlations from the sums), the classes, backward elimination, R² and
 * BIC, on all the records (the fit of a log searches the classes on a
 * sample of PROPER_ANNOT_SAMPLE records when it has more). Its least
 * squares start from the sums (a Cholesky factor, in long double, of the
 * scaled X'X rounded once from the exact sums) where proper_annot_fit
 * takes the Householder QR of the records, so the two agree to rounding,
 * not to the bit. What cannot come from sums: Algorithm 1's splits (the
 * two sides of a threshold need the records), Algorithm 2's clusters and
 * mixtures (the density of y), the distribution tests and the data
 * heuristics; a fit from statistics is one regression scope, Norm(mean, σ).
 * Where those are wanted, the records must meet: merge logs (or reservoir
 * samples of them, as the recorder's writer merges threads) and fit once.
 *
 * Text format (canonical: equal statistics print the same bytes):
 *
 *     proper-annot-stats 1
 *     function sort metric time records 3 features s
 *     feature s min 10 max 30 distinct 10 20 30
 *     metric min 1050 max 3190
 *     row 0x3p0 0x3cp0 ...        (S[0][0..q-1]; then row i: S[i][i..q-1])
 *     ...
 *
 *     stats    = "proper-annot-stats" , blank , "1" , eol , { comment | empty | function } ;
 *     function = "function" , name , "metric" , column , "records" , integer ,
 *                "features" , { column } , eol ,
 *                { "feature" , column , "min" , number , "max" , number ,
 *                  "distinct" , number , { number } , eol }        (one per feature, in order)
 *                "metric" , "min" , number , "max" , number , eol ,
 *                { "row" , sum , { sum } , eol } ;                (q rows, q - i sums in row i)
 *     sum      = "0" | [ "-" ] , "0x" , hexdigit , { hexdigit } , "p" , [ "-" ] , digit , { digit } ;
 *
 * A sum 0xHpE is H·2^E (written with H odd). Functions are sorted by name,
 * then metric. Errors name file:line:col; S[0][0] must equal the records. */

/* Most candidate features of one function's statistics (the sums grow as
 * k^4/8: 8 features, 54 terms, 1485 sums). */
#ifndef PROPER_ANNOT_STATS_FEATURES
#define PROPER_ANNOT_STATS_FEATURES 8
#endif
#define PROPER_ANNOT_XLIMBS 12

/* An exact sum: a 768-bit two's complement integer in units of 2^-384. */
typedef struct proper_annot_xsum {
    uint64_t w[PROPER_ANNOT_XLIMBS]; /* w[0] the lowest */
} proper_annot_xsum;

typedef struct proper_annot_fstats {
    char *function, *metric;
    size_t nf;              /* candidate features */
    char **feat;
    uint64_t n;             /* records */
    double *fmin, *fmax;    /* per feature */
    double *distinct;       /* nf rows of PROPER_ANNOT_MIN_DISTINCT, each sorted */
    size_t *ndistinct;
    double ymin, ymax;
    size_t q;               /* terms, y included */
    proper_annot_xsum *sum; /* S[i][j] for i <= j, row by row */
} proper_annot_fstats;

typedef struct proper_annot_stats {
    size_t n;
    proper_annot_fstats *f; /* sorted by function, then metric */
} proper_annot_stats;

PROPER_API void proper_annot_stats_init(proper_annot_stats *s);
PROPER_API void proper_annot_stats_free(proper_annot_stats *s);
/* Add table t's records for the metric column (a function already present
 * must have the same features). */
PROPER_API int proper_annot_stats_add(proper_annot_stats *s, const proper_annot_table *t, const char *metric,
                                      proper_error *err);
/* Add every function of log L (or only `function`, unless NULL) that has
 * records and the metric column; with `function` given, that function
 * lacking the column is an error. *has_function is set when L holds
 * `function`; *counted grows by the functions added. (A function declared
 * but never called adds nothing, so per-process logs merge.) */
PROPER_API int proper_annot_stats_add_log(proper_annot_stats *s, const proper_annot_log *L, const char *function,
                                          const char *metric, int *has_function, size_t *counted, proper_error *err);
/* After adding n_logs logs (paths logs[]) with proper_annot_stats_add_log:
 * 0, or the error that `function` was in none of them or that nothing was
 * counted (named after logs[0] when there is one log). */
PROPER_API int proper_annot_stats_found(const char *function, const char *metric, int has_function, size_t counted,
                                        const char *const *logs, size_t n_logs, proper_error *err);
/* a += b: exact, commutative and associative. */
PROPER_API int proper_annot_stats_merge(proper_annot_stats *a, const proper_annot_stats *b, proper_error *err);
PROPER_API int proper_annot_stats_format(const proper_annot_stats *s, proper_strbuf *b, proper_error *err);
PROPER_API int proper_annot_stats_write(const proper_annot_stats *s, FILE *f, proper_error *err);
PROPER_API int proper_annot_stats_parse(proper_annot_stats *out, const char *text, size_t len, const char *name,
                                        proper_error *err);
PROPER_API int proper_annot_stats_read(proper_annot_stats *out, const char *path, proper_error *err);
/* Fit the regression of s->f[i] (see above) and append it to *out. */
PROPER_API int proper_annot_stats_fit(proper_annot *out, const proper_annot_stats *s, size_t i,
                                      const proper_annot_opts *opts, proper_error *err);
/* Fit every entry of s for metric (and function, unless NULL), in s's
 * order, appending each to *out; records[k] (if not NULL; s->n entries) gets
 * the k-th fitted one's records and *fitted how many were fitted. */
PROPER_API int proper_annot_stats_fit_matching(proper_annot *out, const proper_annot_stats *s, const char *function,
                                               const char *metric, const proper_annot_opts *opts, uint64_t *records,
                                               size_t *fitted, proper_error *err);

/* ---- Recording ------------------------------------------------------------------
 * One proper_annot_writer per output log, shared by all threads; one
 * proper_annot_recorder per thread, owned by it. Functions are registered
 * up front with their feature names; a call is a scope:
 *
 *     proper_annot_writer *w;
 *     proper_annot_recorder rec;                      (one per thread)
 *     int f_sort;
 *     proper_annot_writer_open(&w, "sort.log", 1000, PROPER_ANNOT_M_CPU, 1, &err);
 *     f_sort = proper_annot_writer_function(w, "sort", "n depth", &err);
 *     proper_annot_recorder_init(&rec, w, &err);
 *     ...
 *     proper_annot_begin(&rec, f_sort);
 *     proper_annot_feature(&rec, 0, (double)n);      (feature 0 = "n")
 *     ... the call ...   proper_annot_branch(&rec, 0, n > 64);
 *     proper_annot_end(&rec);
 *     ...
 *     proper_annot_recorder_flush(&rec, &err);         (before the thread ends)
 *     proper_annot_recorder_free(&rec);
 *     proper_annot_writer_close(w, &err);              (writes the log)
 *
 * Begin and end read the monotonic clock once each and touch only the
 * thread's own memory; nothing is formatted while recording. Each thread
 * keeps, per function, a reservoir of `reservoir` calls (Algorithm R, the
 * paper's §4.2): every call is kept with probability reservoir/seen, so a
 * hot function cannot flood the log. Flushing merges a thread's reservoirs
 * into the writer's (a uniform sample of the union: each slot drawn from a
 * thread with probability proportional to its calls not yet sampled).
 *
 * Metrics (columns of the log): time (wall ns, minus the recorder's own cost
 * measured at open: an empty scope's clock difference for every scope, plus
 * a whole begin/end pair for every scope nested inside it); with
 * PROPER_ANNOT_M_CPU cpu (thread CPU ns, the recorder's CPU cost subtracted
 * the same way; reading the thread CPU clock is a system call, so this
 * costs far more than the wall clock);
 * PROPER_ANNOT_M_RUSAGE vcsw, ivcsw (voluntary and involuntary context
 * switches of the thread, getrusage RUSAGE_THREAD, Linux); with the preload
 * library (build/libproper-preload.so, LD_PRELOAD) loaded, heap and
 * heap_peak (bytes allocated in the scope, and the peak of live bytes above
 * the scope's start) and lock_wait, lock_hold (ns blocked in and holding
 * pthread mutexes), charged to the innermost open scope of the thread.
 * Branches: the first outcome of each of up to 32 branches per call.
 * Scopes nest up to PROPER_ANNOT_REC_DEPTH deep (deeper ones are counted
 * in the writer's `dropped` and not recorded).
 */
#ifndef PROPER_ANNOT_NO_RECORDER

/* Most features of one recorded function. */
#ifndef PROPER_ANNOT_REC_FEATURES
#define PROPER_ANNOT_REC_FEATURES 16
#endif
/* Deepest nesting of open scopes in one thread. */
#ifndef PROPER_ANNOT_REC_DEPTH
#define PROPER_ANNOT_REC_DEPTH 64
#endif
/* Most metrics per call: time cpu vcsw ivcsw heap heap_peak lock_wait lock_hold. */
#define PROPER_ANNOT_REC_METRICS 8

enum { PROPER_ANNOT_M_CPU = 1, PROPER_ANNOT_M_RUSAGE = 2 };

/* What the preload library counts per thread (see preload/proper_preload.c). */
typedef struct proper_annot_preload_counters {
    uint64_t alloc_bytes, allocs, live, peak, lock_wait_ns, lock_hold_ns, locks;
} proper_annot_preload_counters;

typedef struct proper_annot_writer proper_annot_writer;

typedef struct proper_annot_frame {
    int fn;
    uint64_t t0, cpu0, children, alloc0, live0, peak_saved, wait0, hold0;
    long vcsw0, ivcsw0;
    uint32_t br_exec, br_val;
    double feat[PROPER_ANNOT_REC_FEATURES];
} proper_annot_frame;

typedef struct proper_annot_reservoir {
    uint64_t seen;   /* calls */
    size_t n;        /* kept */
    double *rows;    /* reservoir x (metrics + features) */
    uint32_t *br_exec, *br_val;
} proper_annot_reservoir;

typedef struct proper_annot_recorder {
    proper_annot_writer *w;
    int depth, dropped;
    proper_annot_frame stack[PROPER_ANNOT_REC_DEPTH];
    proper_annot_reservoir *res; /* one per registered function, grown lazily */
    size_t nres;
    proper_rng rng;
    proper_annot_preload_counters *pc; /* the preload library's counters, or NULL */
} proper_annot_recorder;

/* Open a writer for the log at path (written at close; "" writes nothing,
 * for measurements). reservoir: calls kept per function (>= 1); metrics:
 * PROPER_ANNOT_M_* flags. Opening calibrates the recorder's own cost (a few
 * thousand empty scopes, well under a millisecond). */
PROPER_API int proper_annot_writer_open(proper_annot_writer **w, const char *path, size_t reservoir, int metrics,
                                        uint64_t seed, proper_error *err);
/* Register a function with its feature names (space-separated, may be ""):
 * returns its id (>= 0) or a negative PROPER_E* code. */
PROPER_API int proper_annot_writer_function(proper_annot_writer *w, const char *name, const char *features,
                                            proper_error *err);
/* The cost subtracted from each scope (ns): its own, and per nested scope. */
PROPER_API void proper_annot_writer_overhead(const proper_annot_writer *w, double *self_ns, double *pair_ns);
/* Write the log and release the writer (also on error). */
PROPER_API int proper_annot_writer_close(proper_annot_writer *w, proper_error *err);

PROPER_API int proper_annot_recorder_init(proper_annot_recorder *r, proper_annot_writer *w, proper_error *err);
PROPER_API void proper_annot_begin(proper_annot_recorder *r, int fn);
PROPER_API void proper_annot_feature(proper_annot_recorder *r, int k, double value);
PROPER_API void proper_annot_branch(proper_annot_recorder *r, int j, int taken);
PROPER_API void proper_annot_end(proper_annot_recorder *r);
/* Hand this thread's samples to the writer (then its reservoirs are empty). */
PROPER_API int proper_annot_recorder_flush(proper_annot_recorder *r, proper_error *err);
PROPER_API void proper_annot_recorder_free(proper_annot_recorder *r);

#endif /* PROPER_ANNOT_NO_RECORDER */

#ifdef __cplusplus
}
#endif
#endif /* PROPER_ANNOT_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_ANNOT_IMPLEMENTATION
#define PROPER_ANNOT_IMPLEMENTATION

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Name arrays (a table's columns, a statistics entry's features) ---- */

/* The n strings s[0..n) and their array. */
static void proper__annot_strs_free(char **s, size_t n) {
    size_t i;
    if (!s) return;
    for (i = 0; i < n; i++) PROPER_FREE(s[i]);
    PROPER_FREE(s);
}

/* A copy of the n strings s[0..n) in an array of at least one entry; NULL
 * (nothing left allocated) when out of memory. */
static char **proper__annot_strs_dup(char *const *s, size_t n) {
    char **c = (char **)proper_calloc(n ? n : 1, sizeof *c);
    size_t i;
    for (i = 0; c && i < n; i++)
        if (!(c[i] = proper_strdup(s[i]))) {
            proper__annot_strs_free(c, i);
            return NULL;
        }
    return c;
}

/* ---- Logs: the table ---------------------------------------------------- */

static void proper__annot_table_free(proper_annot_table *t) {
    PROPER_FREE(t->name);
    proper__annot_strs_free(t->cols, t->ncol);
    PROPER_FREE(t->is_metric);
    PROPER_FREE(t->v);
    PROPER_FREE(t->br);
    PROPER_FREE(t->br_off);
    memset(t, 0, sizeof *t);
}

PROPER_API void proper_annot_log_init(proper_annot_log *log) { memset(log, 0, sizeof *log); }

PROPER_API void proper_annot_log_free(proper_annot_log *log) {
    size_t i;
    for (i = 0; i < log->n; i++) proper__annot_table_free(&log->t[i]);
    PROPER_FREE(log->t);
    memset(log, 0, sizeof *log);
}

PROPER_API const proper_annot_table *proper_annot_log_find(const proper_annot_log *log, const char *function) {
    size_t i;
    for (i = 0; i < log->n; i++)
        if (strcmp(log->t[i].name, function) == 0) return &log->t[i];
    return NULL;
}

PROPER_API size_t proper_annot_table_column(const proper_annot_table *t, const char *name) {
    size_t i;
    for (i = 0; i < t->ncol; i++)
        if (strcmp(t->cols[i], name) == 0) return i;
    return (size_t)-1;
}

PROPER_API double proper_annot_table_branch(const proper_annot_table *t, size_t i, size_t j) {
    size_t k = t->br_off[i], end = t->br_off[i + 1], g = 0;
    int first = 1;
    for (; k < end; k++) {
        if (t->br[k] == 2) { g++; first = 1; continue; }
        if (g == j && first) return (double)t->br[k];
        first = 0;
        if (g > j) break;
    }
    return NAN;
}

/* A new table with ncol columns (names copied); returns its index or -1. */
static int proper__annot_log_add_table(proper_annot_log *L, size_t *cap, const char *name, size_t nlen,
                                       char **cols, const unsigned char *is_metric, size_t ncol) {
    proper_annot_table t;
    size_t i;
    memset(&t, 0, sizeof t);
    if (proper_reserve(&L->t, cap, L->n + 1, sizeof *L->t)) return -1;
    t.name = proper_strndup(name, nlen);
    t.cols = proper__annot_strs_dup(cols, ncol);
    t.ncol = t.cols ? ncol : 0;
    t.is_metric = (unsigned char *)proper_calloc(ncol ? ncol : 1, 1);
    t.br_off = (size_t *)PROPER_MALLOC(sizeof *t.br_off * 8);
    t.offcap = 8;
    if (!t.name || !t.cols || !t.is_metric || !t.br_off) {
        proper__annot_table_free(&t);
        return -1;
    }
    t.br_off[0] = 0;
    for (i = 0; i < ncol; i++) t.is_metric[i] = is_metric[i];
    L->t[L->n++] = t;
    return (int)(L->n - 1);
}

/* Make room for one more record; returns its row. */
static double *proper__annot_table_row(proper_annot_table *t) {
    size_t need;
    if (proper_size_mul(t->n + 1, t->ncol ? t->ncol : 1, &need)) return NULL;
    if (proper_reserve(&t->v, &t->cap, need, sizeof *t->v)) return NULL;
    if (proper_reserve(&t->br_off, &t->offcap, t->n + 2, sizeof *t->br_off)) return NULL;
    return t->v + t->n * t->ncol;
}

/* ---- Logs: reading ------------------------------------------------------- */

static int proper__annot_eol(const proper_cursor *c) {
    return c->p >= c->end || *c->p == '\n' || (*c->p == '\r' && c->p + 1 < c->end && c->p[1] == '\n') ||
           (*c->p == '\r' && c->p + 1 == c->end);
}

static void proper__annot_next_line(proper_cursor *c) {
    while (c->p < c->end && *c->p != '\n') proper_cursor_advance(c);
    if (c->p < c->end) proper_cursor_advance(c);
}

/* Function names: what the annotation language accepts before ".metric(". */
static int proper__annot_name_char(int ch) {
    return ch > ' ' && ch != 0x7f && !strchr(",#(){}[];", ch);
}

static int proper__annot_ident_start(int ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}
static int proper__annot_ident_char(int ch) {
    return proper__annot_ident_start(ch) || (ch >= '0' && ch <= '9') || ch == '.';
}

/* Read a log name (function) at the cursor; len 0 when there is none. */
static size_t proper__annot_take_name(proper_cursor *c, const char **start) {
    size_t n = 0;
    *start = c->p;
    while (c->p < c->end && proper__annot_name_char((unsigned char)*c->p)) { proper_cursor_advance(c); n++; }
    return n;
}

/* Read a column name; returns its length or sets err. */
static int proper__annot_take_column(proper_cursor *c, const char **start, size_t *len, proper_error *err) {
    proper_cursor at = *c;
    *start = c->p;
    *len = 0;
    if (c->p >= c->end || !proper__annot_ident_start((unsigned char)*c->p))
        return proper_cursor_error(&at, err, PROPER_EPARSE, "expected a column name (a letter or '_' first)");
    while (c->p < c->end && proper__annot_ident_char((unsigned char)*c->p)) { proper_cursor_advance(c); (*len)++; }
    if (*len > PROPER_ANNOT_NAME_MAX)
        return proper_cursor_error(&at, err, PROPER_ELIMIT, "name longer than %d characters", PROPER_ANNOT_NAME_MAX);
    return 0;
}

static int proper__annot_check_name(const proper_cursor *at, size_t n, proper_error *err) {
    if (n == 0) return proper_cursor_error(at, err, PROPER_EPARSE, "expected a function name");
    if (n > PROPER_ANNOT_NAME_MAX)
        return proper_cursor_error(at, err, PROPER_ELIMIT, "name longer than %d characters", PROPER_ANNOT_NAME_MAX);
    return 0;
}

/* Expect a "," (with blanks around); 1 if found. */
static int proper__annot_sep(proper_cursor *c) {
    proper_cursor_skip_blanks(c);
    if (c->p < c->end && *c->p == ',') {
        proper_cursor_advance(c);
        proper_cursor_skip_blanks(c);
        return 1;
    }
    return 0;
}

static int proper__annot_number(proper_cursor *c, double *v, proper_error *err) {
    proper_cursor at = *c;
    int rc = proper_parse_double(c, v, err);
    if (rc) return rc;
    if (!isfinite(*v)) {
        *c = at;
        return proper_cursor_error(&at, err, PROPER_ERANGE, "number is not finite");
    }
    return 0;
}

typedef struct proper__annot_names {
    char **s;
    unsigned char *metric;
    size_t n, cap, mcap;
} proper__annot_names;

static void proper__annot_names_free(proper__annot_names *v) {
    proper__annot_strs_free(v->s, v->n);
    PROPER_FREE(v->metric);
    memset(v, 0, sizeof *v);
}

static int proper__annot_names_add(proper__annot_names *v, const char *s, size_t n, int metric,
                                   const proper_cursor *at, proper_error *err) {
    size_t i;
    char *copy;
    for (i = 0; i < v->n; i++)
        if (strlen(v->s[i]) == n && memcmp(v->s[i], s, n) == 0)
            return proper_cursor_error(at, err, PROPER_EPARSE, "duplicate column '%.*s'", (int)n, s);
    if (proper_reserve(&v->s, &v->cap, v->n + 1, sizeof *v->s) ||
        proper_reserve(&v->metric, &v->mcap, v->n + 1, 1) || !(copy = proper_strndup(s, n)))
        return proper_error_set(err, PROPER_ENOMEM, at->file, at->line, at->col, "out of memory");
    v->metric[v->n] = (unsigned char)metric;
    v->s[v->n++] = copy;
    return 0;
}

static int proper__annot_oom(const proper_cursor *c, proper_error *err) {
    return proper_cursor_error(c, err, PROPER_ENOMEM, "out of memory");
}

/* The record format, after its header line. */
static int proper__annot_read_records(proper_annot_log *L, proper_cursor *c, proper_error *err) {
    proper_intern ix;
    size_t cap = 0;
    int rc = 0;
    proper_intern_init(&ix);
    while (c->p < c->end && !rc) {
        const char *name;
        size_t n, k, idx;
        proper_cursor at;
        proper_annot_table *t;
        double *row;
        proper_cursor_skip_blanks(c);
        if (proper__annot_eol(c) || *c->p == '#') { proper__annot_next_line(c); continue; }
        at = *c;
        n = proper__annot_take_name(c, &name);
        if ((rc = proper__annot_check_name(&at, n, err))) break;
        if (n == 8 && memcmp(name, "function", 8) == 0 && c->p < c->end && (*c->p == ' ' || *c->p == '\t')) {
            proper_cursor save = *c;
            proper_cursor_skip_blanks(c);
            if (c->p < c->end && *c->p != ',') {
                /* a schema line */
                proper__annot_names cols;
                const char *fname, *w;
                size_t fn, wn;
                int added, part = 0;
                proper_cursor fat = *c;
                memset(&cols, 0, sizeof cols);
                fn = proper__annot_take_name(c, &fname);
                if ((rc = proper__annot_check_name(&fat, fn, err))) break;
                for (;;) {
                    proper_cursor wat;
                    proper_cursor_skip_blanks(c);
                    if (proper__annot_eol(c)) break;
                    wat = *c;
                    if ((rc = proper__annot_take_column(c, &w, &wn, err))) break;
                    if (c->p < c->end && !(*c->p == ' ' || *c->p == '\t' || proper__annot_eol(c))) {
                        rc = proper_cursor_error(c, err, PROPER_EPARSE, "unexpected '%c' in a column name", *c->p);
                        break;
                    }
                    if (part == 0) {
                        if (wn != 7 || memcmp(w, "metrics", 7) != 0) {
                            rc = proper_cursor_error(&wat, err, PROPER_EPARSE, "expected 'metrics'");
                            break;
                        }
                        part = 1;
                    } else if (part == 1 && wn == 8 && memcmp(w, "features", 8) == 0) {
                        part = 2;
                    } else if ((rc = proper__annot_names_add(&cols, w, wn, part == 1, &wat, err))) {
                        break;
                    }
                }
                if (!rc && part != 2) rc = proper_cursor_error(c, err, PROPER_EPARSE, "expected 'features'");
                if (!rc && proper_intern_find(&ix, fname, fn) != PROPER_INTERN_NONE)
                    rc = proper_cursor_error(&fat, err, PROPER_EPARSE, "function '%.*s' declared twice", (int)fn, fname);
                if (!rc) {
                    if (proper_intern_add(&ix, fname, fn, &idx, &added) ||
                        proper__annot_log_add_table(L, &cap, fname, fn, cols.s, cols.metric, cols.n) < 0)
                        rc = proper__annot_oom(&fat, err);
                }
                proper__annot_names_free(&cols);
                if (!rc) proper__annot_next_line(c);
                continue;
            }
            *c = save;
        }
        idx = proper_intern_find(&ix, name, n);
        if (idx == PROPER_INTERN_NONE) {
            rc = proper_cursor_error(&at, err, PROPER_EUNDEFINED, "function '%.*s' has no 'function' line before it",
                                     (int)n, name);
            break;
        }
        t = &L->t[idx];
        if (!(row = proper__annot_table_row(t))) { rc = proper__annot_oom(&at, err); break; }
        for (k = 0; k < t->ncol && !rc; k++) {
            if (!proper__annot_sep(c)) {
                rc = proper_cursor_error(c, err, PROPER_EPARSE, "expected ',' and %zu more number(s) for '%s'",
                                         t->ncol - k, t->name);
                break;
            }
            rc = proper__annot_number(c, &row[k], err);
        }
        if (rc) break;
        {
            size_t start = t->nbr;
            int open = 0;
            while (proper__annot_sep(c)) {
                int ch = c->p < c->end ? *c->p : 0;
                if (ch != '0' && ch != '1' && ch != '#') {
                    rc = proper_cursor_error(c, err, PROPER_EPARSE,
                                             c->p < c->end && (unsigned char)ch > ' '
                                                 ? "expected a branch outcome 0, 1 or '#' (too many numbers?)"
                                                 : "expected a branch outcome 0, 1 or '#'");
                    break;
                }
                if (PROPER_PUSH(t->br, t->nbr, t->brcap, (unsigned char)(ch == '#' ? 2 : ch - '0'))) {
                    rc = proper__annot_oom(c, err);
                    break;
                }
                open = ch != '#';
                proper_cursor_advance(c);
                if (c->p < c->end && proper__annot_name_char((unsigned char)*c->p)) {
                    rc = proper_cursor_error(c, err, PROPER_EPARSE, "unexpected '%c' after a branch outcome", *c->p);
                    break;
                }
            }
            if (rc) { t->nbr = start; break; }
            if (open) {
                t->nbr = start;
                rc = proper_cursor_error(c, err, PROPER_EPARSE, "branch outcomes must end with '#'");
                break;
            }
            proper_cursor_skip_blanks(c);
            if (!proper__annot_eol(c)) {
                t->nbr = start;
                rc = proper_cursor_error(c, err, PROPER_EPARSE, "unexpected '%c' at the end of a record", *c->p);
                break;
            }
            t->br_off[t->n + 1] = t->nbr;
            t->n++;
        }
        proper__annot_next_line(c);
    }
    proper_intern_free(&ix);
    return rc;
}

/* Plain CSV. */
static int proper__annot_read_csv(proper_annot_log *L, proper_cursor *c, proper_error *err) {
    proper__annot_names cols;
    proper_intern ix;
    size_t fcol = (size_t)-1, nfield = 0, cap = 0, k;
    int rc = 0;
    char **data_cols = NULL;
    size_t nd = 0;
    memset(&cols, 0, sizeof cols);
    proper_intern_init(&ix);
    /* header: skip empty and comment lines before it */
    for (;;) {
        proper_cursor_skip_blanks(c);
        if (c->p >= c->end) return proper_cursor_error(c, err, PROPER_EPARSE, "empty log: expected a CSV header");
        if (proper__annot_eol(c) || *c->p == '#') { proper__annot_next_line(c); continue; }
        break;
    }
    do {
        const char *w;
        size_t wn;
        proper_cursor at = *c;
        if ((rc = proper__annot_take_column(c, &w, &wn, err))) goto done;
        if (fcol == (size_t)-1 && ((wn == 8 && memcmp(w, "function", 8) == 0) || (wn == 2 && memcmp(w, "id", 2) == 0)))
            fcol = nfield;
        if ((rc = proper__annot_names_add(&cols, w, wn, 0, &at, err))) goto done;
        nfield++;
        proper_cursor_skip_blanks(c);
        if (!proper__annot_eol(c) && *c->p != ',') {
            rc = proper_cursor_error(c, err, PROPER_EPARSE, "unexpected '%c' in the CSV header", *c->p);
            goto done;
        }
    } while (proper__annot_sep(c));
    if (nfield == (fcol == (size_t)-1 ? 0u : 1u)) {
        rc = proper_cursor_error(c, err, PROPER_EPARSE, "the CSV header names no numeric column");
        goto done;
    }
    data_cols = (char **)proper_calloc(nfield, sizeof *data_cols);
    if (!data_cols) { rc = proper__annot_oom(c, err); goto done; }
    for (k = 0; k < nfield; k++)
        if (k != fcol) data_cols[nd++] = cols.s[k];
    proper__annot_next_line(c);
    while (c->p < c->end) {
        const char *fname = "f";
        size_t fn = 1, idx, col = 0;
        int added;
        proper_cursor at;
        double *row;
        proper_annot_table *t;
        proper_cursor_skip_blanks(c);
        if (proper__annot_eol(c) || *c->p == '#') { proper__annot_next_line(c); continue; }
        at = *c;
        /* find the function field first: it decides the table */
        if (fcol != (size_t)-1) {
            proper_cursor s = *c;
            for (k = 0; k < fcol; k++) {
                while (s.p < s.end && *s.p != ',' && *s.p != '\n') proper_cursor_advance(&s);
                if (s.p < s.end && *s.p == ',') proper_cursor_advance(&s);
            }
            proper_cursor_skip_blanks(&s);
            at = s;
            fn = proper__annot_take_name(&s, &fname);
            if ((rc = proper__annot_check_name(&at, fn, err))) goto done;
            at = *c;
        }
        idx = proper_intern_find(&ix, fname, fn);
        if (idx == PROPER_INTERN_NONE) {
            unsigned char *zeros = (unsigned char *)proper_calloc(nd ? nd : 1, 1);
            int ti = zeros ? proper__annot_log_add_table(L, &cap, fname, fn, data_cols, zeros, nd) : -1;
            PROPER_FREE(zeros);
            if (ti < 0 || proper_intern_add(&ix, fname, fn, &idx, &added)) { rc = proper__annot_oom(&at, err); goto done; }
        }
        t = &L->t[idx];
        if (!(row = proper__annot_table_row(t))) { rc = proper__annot_oom(&at, err); goto done; }
        for (k = 0; k < nfield; k++) {
            if (k > 0 && !proper__annot_sep(c)) {
                rc = proper_cursor_error(c, err, PROPER_EPARSE, "expected ',' and %zu more field(s)", nfield - k);
                goto done;
            }
            proper_cursor_skip_blanks(c);
            if (k == fcol) {
                const char *s;
                proper__annot_take_name(c, &s);
            } else if ((rc = proper__annot_number(c, &row[col++], err))) {
                goto done;
            }
        }
        proper_cursor_skip_blanks(c);
        if (!proper__annot_eol(c)) {
            rc = proper_cursor_error(c, err, PROPER_EPARSE,
                                     *c->p == ',' ? "more fields than the header has" : "unexpected '%c' after a field",
                                     *c->p);
            goto done;
        }
        t->br_off[t->n + 1] = t->nbr;
        t->n++;
        proper__annot_next_line(c);
    }
done:
    PROPER_FREE(data_cols);
    proper__annot_names_free(&cols);
    proper_intern_free(&ix);
    return rc;
}

PROPER_API int proper_annot_log_parse(proper_annot_log *out, const char *text, size_t len, const char *name,
                                      proper_error *err) {
    proper_annot_log L;
    proper_cursor c;
    int rc;
    static const char magic[] = "proper-annot-log";
    proper_annot_log_init(&L);
    proper_cursor_init(&c, text, len, name);
    if (len >= sizeof magic - 1 && memcmp(text, magic, sizeof magic - 1) == 0) {
        size_t i;
        for (i = 0; i < sizeof magic - 1; i++) proper_cursor_advance(&c);
        if (c.p >= c.end || (*c.p != ' ' && *c.p != '\t'))
            return proper_cursor_error(&c, err, PROPER_EPARSE, "expected ' 1' after 'proper-annot-log'");
        proper_cursor_skip_blanks(&c);
        if (c.p >= c.end || *c.p != '1')
            return proper_cursor_error(&c, err, PROPER_EPARSE, "unsupported log version (this reader knows 1)");
        proper_cursor_advance(&c);
        proper_cursor_skip_blanks(&c);
        if (!proper__annot_eol(&c))
            return proper_cursor_error(&c, err, PROPER_EPARSE, "unexpected '%c' after the header", *c.p);
        proper__annot_next_line(&c);
        rc = proper__annot_read_records(&L, &c, err);
    } else {
        rc = proper__annot_read_csv(&L, &c, err);
    }
    if (rc) {
        proper_annot_log_free(&L);
        return rc;
    }
    proper_annot_log_free(out);
    *out = L;
    return 0;
}

PROPER_API int proper_annot_log_read(proper_annot_log *out, const char *path, proper_error *err) {
    char *data;
    size_t len;
    int rc = proper_read_file(path, &data, &len, err);
    if (rc) return rc;
    rc = proper_annot_log_parse(out, data, len, path, err);
    PROPER_FREE(data);
    return rc;
}

PROPER_API int proper_annot_log_format(const proper_annot_log *log, proper_strbuf *b, proper_error *err) {
    size_t i, r, k;
    proper_strbuf_puts(b, "proper-annot-log 1\n");
    for (i = 0; i < log->n; i++) {
        const proper_annot_table *t = &log->t[i];
        proper_strbuf_printf(b, "function %s metrics", t->name);
        for (k = 0; k < t->ncol; k++)
            if (t->is_metric[k]) proper_strbuf_printf(b, " %s", t->cols[k]);
        proper_strbuf_puts(b, " features");
        for (k = 0; k < t->ncol; k++)
            if (!t->is_metric[k]) proper_strbuf_printf(b, " %s", t->cols[k]);
        proper_strbuf_puts(b, "\n");
    }
    for (i = 0; i < log->n; i++) {
        const proper_annot_table *t = &log->t[i];
        for (r = 0; r < t->n; r++) {
            proper_strbuf_puts(b, t->name);
            /* metrics first, then features: the schema's order */
            for (k = 0; k < t->ncol; k++)
                if (t->is_metric[k]) { proper_strbuf_puts(b, ", "); proper_strbuf_double(b, t->v[r * t->ncol + k]); }
            for (k = 0; k < t->ncol; k++)
                if (!t->is_metric[k]) { proper_strbuf_puts(b, ", "); proper_strbuf_double(b, t->v[r * t->ncol + k]); }
            for (k = t->br_off[r]; k < t->br_off[r + 1]; k++)
                proper_strbuf_puts(b, t->br[k] == 2 ? ", #" : t->br[k] ? ", 1" : ", 0");
            proper_strbuf_puts(b, "\n");
        }
    }
    if (b->failed) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    return 0;
}

PROPER_API int proper_annot_log_write(const proper_annot_log *log, FILE *f, proper_error *err) {
    proper_strbuf b;
    int rc;
    proper_strbuf_init(&b);
    rc = proper_annot_log_format(log, &b, err);
    if (!rc && b.len && fwrite(b.data, 1, b.len, f) != b.len)
        rc = proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write failed");
    proper_strbuf_free(&b);
    return rc;
}

/* ---- Least squares: Householder QR accumulated block by block ---------------
 * R is a q x q upper triangle (row-major) such that RᵀR = AᵀA for every row
 * of A added so far. Adding B more rows (held column-major in blk: column j
 * at blk + j*B) applies, for each column k, the Householder reflection that
 * zeroes column k of the block against R's diagonal entry: the reflection's
 * vector is non-zero only at R's row k and the block's rows. */
static void proper__annot_tri_add(double *R, size_t q, double *blk, size_t B) {
    size_t k, j, i;
    for (k = 0; k < q; k++) {
        double *v = blk + k * B, alpha = R[k * q + k], sig = 0, norm, beta, u0, utu;
        for (i = 0; i < B; i++) sig += v[i] * v[i];
        if (sig == 0) continue;
        norm = sqrt(alpha * alpha + sig);
        beta = alpha <= 0 ? norm : -norm;
        u0 = alpha - beta;
        utu = u0 * u0 + sig;
        R[k * q + k] = beta;
        for (j = k + 1; j < q; j++) {
            double *w = blk + j * B, d = u0 * R[k * q + j], f;
            for (i = 0; i < B; i++) d += v[i] * w[i];
            f = 2 * d / utu;
            R[k * q + j] -= f * u0;
            for (i = 0; i < B; i++) w[i] -= f * v[i];
        }
    }
}

/* Solve the sub-problem on columns cols[0..s) of the triangle R (q x q)
 * with the response in column ycol, n records. Fills coef, se, tstat, pval,
 * rss (scaled units). Returns 0, or j + 1 when column j is (numerically)
 * dependent on the earlier ones. */
static size_t proper__annot_tri_solve(const double *R, size_t q, const size_t *cols, size_t s, size_t ycol, size_t n,
                                      proper_annot_lsq *out) {
    double M[(PROPER_ANNOT_MAX_TERMS + 1) * (PROPER_ANNOT_MAX_TERMS + 2)];
    double T[(PROPER_ANNOT_MAX_TERMS + 1) * (PROPER_ANNOT_MAX_TERMS + 1)];
    double Ri[PROPER_ANNOT_MAX_TERMS * PROPER_ANNOT_MAX_TERMS];
    double cn[PROPER_ANNOT_MAX_TERMS + 1];
    size_t m = s + 1, i, j, k;
    double df, sigma;
    /* M: q rows, m columns, column-major */
    for (j = 0; j < m; j++) {
        size_t col = j < s ? cols[j] : ycol;
        cn[j] = 0;
        for (i = 0; i < q; i++) {
            M[j * q + i] = i <= col ? R[i * q + col] : 0.0;
            cn[j] += M[j * q + i] * M[j * q + i];
        }
        cn[j] = sqrt(cn[j]);
    }
    for (k = 0; k < m && k < q; k++) {
        double *v = M + k * q, sig = 0, alpha, norm, beta, u0, utu;
        for (i = k + 1; i < q; i++) sig += v[i] * v[i];
        alpha = v[k];
        if (sig > 0) {
            norm = sqrt(alpha * alpha + sig);
            beta = alpha <= 0 ? norm : -norm;
            u0 = alpha - beta;
            utu = u0 * u0 + sig;
            v[k] = beta;
            for (j = k + 1; j < m; j++) {
                double *w = M + j * q, d = u0 * w[k], f;
                for (i = k + 1; i < q; i++) d += v[i] * w[i];
                f = 2 * d / utu;
                w[k] -= f * u0;
                for (i = k + 1; i < q; i++) w[i] -= f * v[i];
            }
            for (i = k + 1; i < q; i++) v[i] = 0;
        }
        if (k < s && !(fabs(v[k]) > 1e-10 * cn[k])) return k + 1;
    }
    for (i = 0; i < m; i++)
        for (j = 0; j < m; j++) T[i * m + j] = (j >= i && i < q) ? M[j * q + i] : 0.0;
    /* back substitution */
    for (i = s; i-- > 0;) {
        double acc = T[i * m + s];
        for (j = i + 1; j < s; j++) acc -= T[i * m + j] * out->coef[j];
        out->coef[i] = acc / T[i * m + i];
    }
    out->rss = s < q ? T[s * m + s] * T[s * m + s] : 0.0;
    /* inverse of the s x s triangle, column by column */
    for (j = 0; j < s; j++) {
        for (i = s; i-- > 0;) {
            double acc = i == j ? 1.0 : 0.0;
            if (i > j) { Ri[i * s + j] = 0; continue; }
            for (k = i + 1; k <= j; k++) acc -= T[i * m + k] * Ri[k * s + j];
            Ri[i * s + j] = acc / T[i * m + i];
        }
    }
    df = (double)n - (double)s;
    sigma = df > 0 ? sqrt(out->rss / df) : NAN;
    out->sigma = sigma;
    out->n = n;
    out->p = s;
    for (i = 0; i < s; i++) {
        double acc = 0, t;
        for (j = i; j < s; j++) acc += Ri[i * s + j] * Ri[i * s + j];
        out->se[i] = sigma * sqrt(acc);
        if (out->se[i] > 0) {
            t = out->coef[i] / out->se[i];
            out->tstat[i] = t;
            out->pval[i] = 2 * proper_stats_t_cdf(-fabs(t), df);
        } else {
            out->tstat[i] = out->coef[i] == 0 ? 0 : (out->coef[i] > 0 ? INFINITY : -INFINITY);
            out->pval[i] = out->coef[i] == 0 ? 1.0 : 0.0;
        }
    }
    return 0;
}

/* BIC from the residual sum of squares in units of yscale (rss_s = RSS /
 * yscale², so nothing overflows however large the metric), the variance
 * floored at 1e-24 yscale² so that exact fits compare by size. */
static double proper__annot_bic(double rss_s, size_t n, size_t k, double yscale) {
    double v = rss_s / (double)n;
    if (!(v > 1e-24)) v = 1e-24;
    return (double)n * (log(v) + 2 * log(yscale)) + (double)(k + 1) * log((double)n);
}

#define PROPER__ANNOT_BLOCK 128

PROPER_API int proper_annot_lsq_fit(proper_annot_lsq *out, const double *X, const double *y, size_t n, size_t p,
                                    proper_error *err) {
    double *R, *blk, scale[PROPER_ANNOT_MAX_TERMS + 1], mean = 0, tss = 0;
    size_t cols[PROPER_ANNOT_MAX_TERMS], q = p + 1, i, j, r, bad;
    proper_annot_lsq res;
    if (p == 0 || p > PROPER_ANNOT_MAX_TERMS)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "least squares: %zu coefficients (1 to %d)", p,
                                PROPER_ANNOT_MAX_TERMS);
    if (n <= p)
        return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "least squares: %zu records for %zu coefficients", n, p);
    for (j = 0; j < q; j++) scale[j] = 0;
    for (r = 0; r < n; r++) {
        for (j = 0; j < q; j++) {
            double v = j < p ? X[r * p + j] : y[r];
            if (!isfinite(v)) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "least squares: non-finite value in record %zu", r + 1);
            if (fabs(v) > scale[j]) scale[j] = fabs(v);
        }
    }
    for (j = 0; j < q; j++)
        if (scale[j] == 0) scale[j] = 1;
    R = (double *)proper_calloc(q * q, sizeof *R);
    blk = (double *)proper_calloc(q * PROPER__ANNOT_BLOCK, sizeof *blk);
    if (!R || !blk) {
        PROPER_FREE(R);
        PROPER_FREE(blk);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (r = 0; r < n; r += PROPER__ANNOT_BLOCK) {
        size_t B = n - r < PROPER__ANNOT_BLOCK ? n - r : PROPER__ANNOT_BLOCK;
        for (i = 0; i < B; i++)
            for (j = 0; j < q; j++) blk[j * B + i] = (j < p ? X[(r + i) * p + j] : y[r + i]) / scale[j];
        proper__annot_tri_add(R, q, blk, B);
    }
    for (j = 0; j < p; j++) cols[j] = j;
    memset(&res, 0, sizeof res);
    bad = proper__annot_tri_solve(R, q, cols, p, p, n, &res);
    PROPER_FREE(R);
    PROPER_FREE(blk);
    if (bad) return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "least squares: column %zu is linearly dependent on the others", bad);
    for (j = 0; j < p; j++) {
        res.coef[j] *= scale[p] / scale[j];
        res.se[j] *= scale[p] / scale[j];
    }
    res.bic = proper__annot_bic(res.rss, n, p, scale[p]);
    {
        /* R² in scaled units; tss and rss themselves may overflow for huge y */
        double rs = res.rss, ts = 0;
        res.rss *= scale[p] * scale[p];
        res.sigma *= scale[p];
        for (r = 0; r < n; r++) mean += y[r] / scale[p];
        mean /= (double)n;
        for (r = 0; r < n; r++) ts += (y[r] / scale[p] - mean) * (y[r] / scale[p] - mean);
        tss = ts * scale[p] * scale[p];
        res.tss = tss;
        res.r2 = ts > 0 ? 1 - rs / ts : (rs == 0 ? 1.0 : 0.0);
    }
    *out = res;
    return 0;
}

/* ---- Annotations: the tree ------------------------------------------------- */

PROPER_API void proper_annot_init(proper_annot *a) {
    memset(a, 0, sizeof *a);
    proper_intern_init(&a->names);
}

static void proper__annot_fn_free(proper_annot_fn *f) {
    size_t i;
    PROPER_FREE(f->name);
    PROPER_FREE(f->metric);
    proper__annot_strs_free(f->params, f->n_params);
    for (i = 0; i < f->n_decls; i++) {
        PROPER_FREE(f->decls[i].type);
        PROPER_FREE(f->decls[i].name);
        PROPER_FREE(f->decls[i].text);
    }
    PROPER_FREE(f->decls);
    PROPER_FREE(f->filter_feature);
    memset(f, 0, sizeof *f);
}

PROPER_API void proper_annot_free(proper_annot *a) {
    size_t i;
    for (i = 0; i < a->n_fns; i++) proper__annot_fn_free(&a->fns[i]);
    PROPER_FREE(a->fns);
    PROPER_FREE(a->ex);
    PROPER_FREE(a->it);
    proper_intern_free(&a->names);
    proper_annot_init(a);
}

/* New nodes; -1 when out of memory (callers check once). */
static int proper__annot_node(proper_annot *a, int kind, int x, int y) {
    proper_annot_expr e;
    if (x < -1 || y < -1 || a->n_ex >= (size_t)0x7fffffff) return -2;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.a = x;
    e.b = y;
    if (kind == PROPER_ANNOT_ADD || kind == PROPER_ANNOT_SUB || kind == PROPER_ANNOT_MUL || kind == PROPER_ANNOT_DIV ||
        (kind >= PROPER_ANNOT_LT && kind <= PROPER_ANNOT_OR)) {
        if (x < 0 || y < 0) return -2;
    }
    if (PROPER_PUSH(a->ex, a->n_ex, a->cap_ex, e)) return -2;
    return (int)(a->n_ex - 1);
}
static int proper__annot_num(proper_annot *a, double v) {
    int e = proper__annot_node(a, PROPER_ANNOT_NUM, -1, -1);
    if (e >= 0) a->ex[e].value = v;
    return e;
}
static int proper__annot_var(proper_annot *a, const char *s, size_t n) {
    size_t idx;
    int e;
    if (proper_intern_add(&a->names, s, n, &idx, NULL)) return -2;
    e = proper__annot_node(a, PROPER_ANNOT_VAR, -1, -1);
    if (e >= 0) a->ex[e].var = idx;
    return e;
}
static int proper__annot_call(proper_annot *a, int fn, int x, int y) {
    int e;
    if (x < 0 || y < -1) return -2;
    e = proper__annot_node(a, PROPER_ANNOT_CALL, x, y);
    if (e >= 0) a->ex[e].fn = fn;
    return e;
}
static int proper__annot_item(proper_annot *a) {
    proper_annot_item it;
    memset(&it, 0, sizeof it);
    it.cond = it.child = it.next = -1;
    it.arg[0] = it.arg[1] = -1;
    it.r2 = NAN;
    if (a->n_it >= (size_t)0x7fffffff || PROPER_PUSH(a->it, a->n_it, a->cap_it, it)) return -2;
    return (int)(a->n_it - 1);
}

static const char *const proper__annot_fn_names[] = {"log", "exp", "sqrt", "abs", "pow", "min", "max", "branch"};
static const int proper__annot_fn_arity[] = {1, 1, 1, 1, 2, 2, 2, 1};
static const char *const proper__annot_dist_names[] = {"", "Norm", "Exp", "Binom"};
static const int proper__annot_dist_arity[] = {0, 2, 1, 2};

/* ---- Evaluation ------------------------------------------------------------------ */

static double proper__annot_eval(const proper_annot *a, int e, const double *vars, const double *br, size_t nbr,
                                 int depth) {
    const proper_annot_expr *x;
    double l, r;
    if (e < 0 || (size_t)e >= a->n_ex || depth > 4 * PROPER_ANNOT_NEST_MAX) return NAN;
    x = &a->ex[e];
    switch (x->kind) {
    case PROPER_ANNOT_NUM: return x->value;
    case PROPER_ANNOT_VAR: return vars ? vars[x->var] : NAN;
    case PROPER_ANNOT_NEG: return -proper__annot_eval(a, x->a, vars, br, nbr, depth + 1);
    case PROPER_ANNOT_NOT: l = proper__annot_eval(a, x->a, vars, br, nbr, depth + 1); return isnan(l) ? NAN : (l == 0);
    case PROPER_ANNOT_CALL:
        l = proper__annot_eval(a, x->a, vars, br, nbr, depth + 1);
        r = x->b >= 0 ? proper__annot_eval(a, x->b, vars, br, nbr, depth + 1) : 0;
        switch (x->fn) {
        case PROPER_ANNOT_F_LOG: return log(l);
        case PROPER_ANNOT_F_EXP: return exp(l);
        case PROPER_ANNOT_F_SQRT: return sqrt(l);
        case PROPER_ANNOT_F_ABS: return fabs(l);
        case PROPER_ANNOT_F_POW: return pow(l, r);
        case PROPER_ANNOT_F_MIN: return l < r ? l : r;
        case PROPER_ANNOT_F_MAX: return l > r ? l : r;
        case PROPER_ANNOT_F_BRANCH: {
            double j = l - 1;
            if (!(j >= 0) || j != floor(j) || !br || j >= (double)nbr) return NAN;
            return br[(size_t)j];
        }
        default: return NAN;
        }
    default: break;
    }
    l = proper__annot_eval(a, x->a, vars, br, nbr, depth + 1);
    r = proper__annot_eval(a, x->b, vars, br, nbr, depth + 1);
    switch (x->kind) {
    case PROPER_ANNOT_ADD: return l + r;
    case PROPER_ANNOT_SUB: return l - r;
    case PROPER_ANNOT_MUL: return (l == 0 || r == 0) ? 0.0 : l * r;
    case PROPER_ANNOT_DIV: return l / r;
    case PROPER_ANNOT_LT: return l < r;
    case PROPER_ANNOT_LE: return l <= r;
    case PROPER_ANNOT_GT: return l > r;
    case PROPER_ANNOT_GE: return l >= r;
    case PROPER_ANNOT_EQ: return l == r;
    case PROPER_ANNOT_NE: return !isnan(l) && !isnan(r) && l != r;
    case PROPER_ANNOT_AND: return (l != 0 && !isnan(l)) && (r != 0 && !isnan(r));
    case PROPER_ANNOT_OR: return (l != 0 && !isnan(l)) || (r != 0 && !isnan(r));
    default: return NAN;
    }
}

PROPER_API double proper_annot_eval(const proper_annot *a, int e, const double *vars, const double *branch,
                                    size_t n_branch) {
    return proper__annot_eval(a, e, vars, branch, n_branch, 0);
}

/* ---- Printing ---------------------------------------------------------------------- */

static int proper__annot_prec(int kind) {
    switch (kind) {
    case PROPER_ANNOT_OR: return 1;
    case PROPER_ANNOT_AND: return 2;
    case PROPER_ANNOT_LT: case PROPER_ANNOT_LE: case PROPER_ANNOT_GT: case PROPER_ANNOT_GE:
    case PROPER_ANNOT_EQ: case PROPER_ANNOT_NE: return 3;
    case PROPER_ANNOT_ADD: case PROPER_ANNOT_SUB: return 4;
    case PROPER_ANNOT_MUL: case PROPER_ANNOT_DIV: return 5;
    case PROPER_ANNOT_NEG: case PROPER_ANNOT_NOT: return 6;
    default: return 7;
    }
}

static void proper__annot_print_expr(const proper_annot *a, int e, int need, proper_strbuf *b) {
    const proper_annot_expr *x = &a->ex[e];
    int p = proper__annot_prec(x->kind);
    static const char *const ops[] = {"", "", "", "", " + ", " - ", "*", "/", " < ", " <= ", " > ", " >= ",
                                      " == ", " != ", " && ", " || "};
    /* a negative literal reads as a unary minus: bracket it where that binds */
    if (x->kind == PROPER_ANNOT_NUM && (x->value < 0 || (x->value == 0 && signbit(x->value))) && need > 6) p = 6;
    if (p < need) proper_strbuf_puts(b, "(");
    switch (x->kind) {
    case PROPER_ANNOT_NUM: proper_strbuf_double(b, x->value); break;
    case PROPER_ANNOT_VAR: proper_strbuf_puts(b, a->names.names[x->var]); break;
    case PROPER_ANNOT_NEG:
        proper_strbuf_puts(b, "-");
        proper__annot_print_expr(a, x->a, 6, b);
        break;
    case PROPER_ANNOT_NOT:
        proper_strbuf_puts(b, "!");
        proper__annot_print_expr(a, x->a, 6, b);
        break;
    case PROPER_ANNOT_CALL:
        proper_strbuf_printf(b, "%s(", proper__annot_fn_names[x->fn]);
        proper__annot_print_expr(a, x->a, 0, b);
        if (x->b >= 0) {
            proper_strbuf_puts(b, ", ");
            proper__annot_print_expr(a, x->b, 0, b);
        }
        proper_strbuf_puts(b, ")");
        break;
    default:
        /* comparisons do not chain: both sides need a tighter operator */
        proper__annot_print_expr(a, x->a, p == 3 ? 4 : p, b);
        proper_strbuf_puts(b, ops[x->kind]);
        proper__annot_print_expr(a, x->b, p + 1, b);
        break;
    }
    if (p < need) proper_strbuf_puts(b, ")");
}

PROPER_API void proper_annot_format_expr(const proper_annot *a, int e, proper_strbuf *b) {
    if (e >= 0 && (size_t)e < a->n_ex) proper__annot_print_expr(a, e, 0, b);
}

static void proper__annot_indent(proper_strbuf *b, int depth) {
    int i;
    for (i = 0; i < depth; i++) proper_strbuf_puts(b, "  ");
}

static void proper__annot_print_body(const proper_annot *a, int first, int depth, proper_strbuf *b) {
    int i;
    for (i = first; i >= 0; i = a->it[i].next) {
        const proper_annot_item *it = &a->it[i];
        proper__annot_indent(b, depth);
        if (it->guard == PROPER_ANNOT_COND) {
            proper_strbuf_puts(b, "[");
            proper__annot_print_expr(a, it->cond, 0, b);
            proper_strbuf_puts(b, "] ");
        } else if (it->guard == PROPER_ANNOT_PROB) {
            proper_strbuf_puts(b, "{");
            proper_strbuf_double(b, it->prob);
            proper_strbuf_puts(b, "} ");
        }
        if (it->dist == PROPER_ANNOT_GROUP) {
            proper_strbuf_puts(b, "{\n");
            proper__annot_print_body(a, it->child, depth + 1, b);
            proper__annot_indent(b, depth);
            proper_strbuf_puts(b, "}\n");
        } else {
            proper_strbuf_printf(b, "%s(", proper__annot_dist_names[it->dist]);
            proper__annot_print_expr(a, it->arg[0], 0, b);
            if (proper__annot_dist_arity[it->dist] == 2) {
                proper_strbuf_puts(b, ", ");
                proper__annot_print_expr(a, it->arg[1], 0, b);
            }
            proper_strbuf_puts(b, ");");
            if (it->n_obs > 0) {
                /* from a fit: how well (a comment, so the text still parses) */
                static const char *const cls[] = {"constant", "linear", "x log x", "quadratic", "input-independent"};
                proper_strbuf_printf(b, "  # %zu record%s, %s", it->n_obs, it->n_obs == 1 ? "" : "s",
                                     it->cls >= 0 && it->cls <= 4 ? cls[it->cls] : "?");
                if (!isnan(it->r2)) proper_strbuf_printf(b, ", R2 %.4f", it->r2);
            }
            proper_strbuf_puts(b, "\n");
        }
    }
}

PROPER_API int proper_annot_format(const proper_annot *a, proper_strbuf *b, proper_error *err) {
    size_t i, k;
    for (i = 0; i < a->n_fns; i++) {
        const proper_annot_fn *f = &a->fns[i];
        if (i) proper_strbuf_puts(b, "\n");
        proper_strbuf_printf(b, "%s.%s(", f->name, f->metric);
        for (k = 0; k < f->n_params; k++) proper_strbuf_printf(b, "%s%s", k ? ", " : "", f->params[k]);
        proper_strbuf_puts(b, ") {\n");
        for (k = 0; k < f->n_decls; k++) {
            proper_strbuf_printf(b, "  %s %s", f->decls[k].type, f->decls[k].name);
            if (f->decls[k].text) proper_strbuf_printf(b, " = %s", f->decls[k].text);
            proper_strbuf_puts(b, ";\n");
        }
        if (f->filter && f->filter_feature)
            proper_strbuf_printf(b, "  # fitted on the %s %s: %zu of %zu records\n",
                                 f->filter == PROPER_ANNOT_ENVELOPE ? "lower envelope over" : "dominant cluster per value of",
                                 f->filter_feature, f->n_kept, f->n_log);
        proper__annot_print_body(a, f->body, 1, b);
        proper_strbuf_puts(b, "}\n");
    }
    if (b->failed) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    return 0;
}

PROPER_API int proper_annot_write(const proper_annot *a, FILE *f, proper_error *err) {
    proper_strbuf b;
    int rc;
    proper_strbuf_init(&b);
    rc = proper_annot_format(a, &b, err);
    if (!rc && b.len && fwrite(b.data, 1, b.len, f) != b.len)
        rc = proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write failed");
    proper_strbuf_free(&b);
    return rc;
}

/* ---- Equality ---------------------------------------------------------------------- */

static int proper__annot_expr_equal(const proper_annot *a, int x, const proper_annot *b, int y) {
    const proper_annot_expr *p, *q;
    if (x < 0 || y < 0) return x < 0 && y < 0;
    p = &a->ex[x];
    q = &b->ex[y];
    if (p->kind != q->kind) return 0;
    switch (p->kind) {
    case PROPER_ANNOT_NUM: return p->value == q->value;
    case PROPER_ANNOT_VAR: return strcmp(a->names.names[p->var], b->names.names[q->var]) == 0;
    case PROPER_ANNOT_CALL:
        if (p->fn != q->fn) return 0;
        break;
    default: break;
    }
    return proper__annot_expr_equal(a, p->a, b, q->a) && proper__annot_expr_equal(a, p->b, b, q->b);
}

static int proper__annot_body_equal(const proper_annot *a, int x, const proper_annot *b, int y) {
    for (; x >= 0 && y >= 0; x = a->it[x].next, y = b->it[y].next) {
        const proper_annot_item *p = &a->it[x], *q = &b->it[y];
        if (p->guard != q->guard || p->dist != q->dist) return 0;
        if (p->guard == PROPER_ANNOT_COND && !proper__annot_expr_equal(a, p->cond, b, q->cond)) return 0;
        if (p->guard == PROPER_ANNOT_PROB && p->prob != q->prob) return 0;
        if (p->dist == PROPER_ANNOT_GROUP) {
            if (!proper__annot_body_equal(a, p->child, b, q->child)) return 0;
        } else if (!proper__annot_expr_equal(a, p->arg[0], b, q->arg[0]) ||
                   !proper__annot_expr_equal(a, p->arg[1], b, q->arg[1])) {
            return 0;
        }
    }
    return x < 0 && y < 0;
}

static int proper__annot_streq(const char *x, const char *y) {
    if (!x || !y) return !x && !y;
    return strcmp(x, y) == 0;
}

PROPER_API int proper_annot_equal(const proper_annot *a, const proper_annot *b) {
    size_t i, k;
    if (a->n_fns != b->n_fns) return 0;
    for (i = 0; i < a->n_fns; i++) {
        const proper_annot_fn *f = &a->fns[i], *g = &b->fns[i];
        if (strcmp(f->name, g->name) || strcmp(f->metric, g->metric) || f->n_params != g->n_params ||
            f->n_decls != g->n_decls)
            return 0;
        for (k = 0; k < f->n_params; k++)
            if (strcmp(f->params[k], g->params[k])) return 0;
        for (k = 0; k < f->n_decls; k++)
            if (strcmp(f->decls[k].type, g->decls[k].type) || strcmp(f->decls[k].name, g->decls[k].name) ||
                !proper__annot_streq(f->decls[k].text, g->decls[k].text))
                return 0;
        if (!proper__annot_body_equal(a, f->body, b, g->body)) return 0;
    }
    return 1;
}

PROPER_API const proper_annot_fn *proper_annot_find(const proper_annot *a, const char *function, const char *metric) {
    size_t i;
    for (i = 0; i < a->n_fns; i++)
        if (strcmp(a->fns[i].name, function) == 0 && (!metric || strcmp(a->fns[i].metric, metric) == 0))
            return &a->fns[i];
    return NULL;
}

/* ---- Parsing ------------------------------------------------------------------------ */

typedef struct proper__annot_parser {
    proper_cursor c;
    proper_annot *a;
    proper_error *err;
    int depth;
} proper__annot_parser;

/* Skip blanks, newlines and comments. */
static void proper__annot_ws(proper__annot_parser *P) {
    proper_cursor *c = &P->c;
    while (c->p < c->end) {
        char ch = *c->p;
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') proper_cursor_advance(c);
        else if (ch == '#') { while (c->p < c->end && *c->p != '\n') proper_cursor_advance(c); }
        else break;
    }
}

static int proper__annot_peek(proper__annot_parser *P) {
    proper__annot_ws(P);
    return P->c.p < P->c.end ? (unsigned char)*P->c.p : -1;
}

static int proper__annot_perr(proper__annot_parser *P, int code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int proper__annot_perr(proper__annot_parser *P, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    proper_error_setv(P->err, code, P->c.file, P->c.line, P->c.col, fmt, ap);
    va_end(ap);
    return code;
}

static int proper__annot_expect(proper__annot_parser *P, char ch, const char *what) {
    int got = proper__annot_peek(P);
    if (got != (unsigned char)ch) {
        if (got < 0) return proper__annot_perr(P, PROPER_EPARSE, "expected '%c' %s, found the end of input", ch, what);
        return proper__annot_perr(P, PROPER_EPARSE, "expected '%c' %s, found '%c'", ch, what, got);
    }
    proper_cursor_advance(&P->c);
    return 0;
}

/* An identifier at the cursor (no skipping); 0 length if none. */
static size_t proper__annot_ident(proper__annot_parser *P, const char **s) {
    size_t n = 0;
    *s = P->c.p;
    if (P->c.p >= P->c.end || !proper__annot_ident_start((unsigned char)*P->c.p)) return 0;
    while (P->c.p < P->c.end && proper__annot_ident_char((unsigned char)*P->c.p)) { proper_cursor_advance(&P->c); n++; }
    return n;
}

static int proper__annot_expr_p(proper__annot_parser *P, int *out);

static int proper__annot_primary(proper__annot_parser *P, int *out) {
    int ch = proper__annot_peek(P);
    proper_annot *a = P->a;
    if (ch == '(') {
        int rc;
        proper_cursor_advance(&P->c);
        if ((rc = proper__annot_expr_p(P, out))) return rc;
        return proper__annot_expect(P, ')', "to close '('");
    }
    if ((ch >= '0' && ch <= '9') || ch == '.') {
        double v;
        int rc = proper_parse_double(&P->c, &v, P->err);
        if (rc) return rc;
        if ((*out = proper__annot_num(a, v)) < 0) return proper__annot_perr(P, PROPER_ENOMEM, "out of memory");
        return 0;
    }
    if (ch >= 0 && proper__annot_ident_start(ch)) {
        proper_cursor at = P->c;
        const char *s;
        size_t n = proper__annot_ident(P, &s);
        if (n > PROPER_ANNOT_NAME_MAX) {
            P->c = at;
            return proper__annot_perr(P, PROPER_ELIMIT, "name longer than %d characters", PROPER_ANNOT_NAME_MAX);
        }
        if (P->c.p < P->c.end && *P->c.p == '(') {
            int fn, args[2] = {-1, -1}, nargs = 0, rc;
            for (fn = 0; fn < 8; fn++)
                if (strlen(proper__annot_fn_names[fn]) == n && memcmp(proper__annot_fn_names[fn], s, n) == 0) break;
            if (fn == 8) {
                P->c = at;
                return proper__annot_perr(P, PROPER_EUNDEFINED, "unknown function '%.*s'", (int)n, s);
            }
            proper_cursor_advance(&P->c);
            for (;;) {
                int e;
                if (nargs == 2) return proper__annot_perr(P, PROPER_EPARSE, "too many arguments to %s", proper__annot_fn_names[fn]);
                if ((rc = proper__annot_expr_p(P, &e))) return rc;
                args[nargs++] = e;
                if (proper__annot_peek(P) != ',') break;
                proper_cursor_advance(&P->c);
            }
            if ((rc = proper__annot_expect(P, ')', "after the arguments"))) return rc;
            if (nargs != proper__annot_fn_arity[fn]) {
                P->c = at;
                return proper__annot_perr(P, PROPER_EPARSE, "%s takes %d argument(s), not %d", proper__annot_fn_names[fn],
                                          proper__annot_fn_arity[fn], nargs);
            }
            if ((*out = proper__annot_call(a, fn, args[0], args[1])) < 0) return proper__annot_perr(P, PROPER_ENOMEM, "out of memory");
            return 0;
        }
        if ((*out = proper__annot_var(a, s, n)) < 0) return proper__annot_perr(P, PROPER_ENOMEM, "out of memory");
        return 0;
    }
    if (ch < 0) return proper__annot_perr(P, PROPER_EPARSE, "expected an expression, found the end of input");
    return proper__annot_perr(P, PROPER_EPARSE, "expected an expression, found '%c'", ch);
}

static int proper__annot_unary(proper__annot_parser *P, int *out) {
    int ch = proper__annot_peek(P), rc, x;
    if (ch == '-' || ch == '!') {
        if (++P->depth > PROPER_ANNOT_NEST_MAX) return proper__annot_perr(P, PROPER_ELIMIT, "expression nested too deeply");
        proper_cursor_advance(&P->c);
        rc = proper__annot_unary(P, &x);
        P->depth--;
        if (rc) return rc;
        if (ch == '-' && P->a->ex[x].kind == PROPER_ANNOT_NUM) {
            P->a->ex[x].value = -P->a->ex[x].value; /* a literal: fold the sign */
            *out = x;
            return 0;
        }
        if ((*out = proper__annot_node(P->a, ch == '-' ? PROPER_ANNOT_NEG : PROPER_ANNOT_NOT, x, -1)) < 0)
            return proper__annot_perr(P, PROPER_ENOMEM, "out of memory");
        return 0;
    }
    return proper__annot_primary(P, out);
}

/* Binary levels: 0 ||, 1 &&, 2 comparison, 3 + -, 4 * /. */
static int proper__annot_binary(proper__annot_parser *P, int level, int *out) {
    int rc, x, y, kind;
    if (++P->depth > PROPER_ANNOT_NEST_MAX) return proper__annot_perr(P, PROPER_ELIMIT, "expression nested too deeply");
    rc = level == 4 ? proper__annot_unary(P, &x) : proper__annot_binary(P, level + 1, &x);
    if (rc) { P->depth--; return rc; }
    for (;;) {
        const char *p;
        int ch = proper__annot_peek(P), len = 1;
        p = P->c.p;
        kind = -1;
        if (level == 0 && ch == '|' && p + 1 < P->c.end && p[1] == '|') { kind = PROPER_ANNOT_OR; len = 2; }
        else if (level == 1 && ch == '&' && p + 1 < P->c.end && p[1] == '&') { kind = PROPER_ANNOT_AND; len = 2; }
        else if (level == 2 && (ch == '<' || ch == '>' || ch == '=' || ch == '!')) {
            int eq = p + 1 < P->c.end && p[1] == '=';
            if (ch == '<') { kind = eq ? PROPER_ANNOT_LE : PROPER_ANNOT_LT; len = eq ? 2 : 1; }
            else if (ch == '>') { kind = eq ? PROPER_ANNOT_GE : PROPER_ANNOT_GT; len = eq ? 2 : 1; }
            else if (eq) { kind = ch == '=' ? PROPER_ANNOT_EQ : PROPER_ANNOT_NE; len = 2; }
        } else if (level == 3 && (ch == '+' || ch == '-')) kind = ch == '+' ? PROPER_ANNOT_ADD : PROPER_ANNOT_SUB;
        else if (level == 4 && (ch == '*' || ch == '/')) kind = ch == '*' ? PROPER_ANNOT_MUL : PROPER_ANNOT_DIV;
        if (kind < 0) break;
        while (len--) proper_cursor_advance(&P->c);
        rc = level == 4 ? proper__annot_unary(P, &y) : proper__annot_binary(P, level + 1, &y);
        if (rc) { P->depth--; return rc; }
        if ((x = proper__annot_node(P->a, kind, x, y)) < 0) { P->depth--; return proper__annot_perr(P, PROPER_ENOMEM, "out of memory"); }
        if (level == 2) {
            int ch2 = proper__annot_peek(P);
            if (ch2 == '<' || ch2 == '>' || ((ch2 == '=' || ch2 == '!') && P->c.p + 1 < P->c.end && P->c.p[1] == '=')) {
                P->depth--;
                return proper__annot_perr(P, PROPER_EPARSE, "comparisons do not chain: use && (a < b && b < c)");
            }
            break;
        }
    }
    P->depth--;
    *out = x;
    return 0;
}

static int proper__annot_expr_p(proper__annot_parser *P, int *out) { return proper__annot_binary(P, 0, out); }

static int proper__annot_body(proper__annot_parser *P, int *first);

static int proper__annot_item_p(proper__annot_parser *P, int *out) {
    proper_annot *a = P->a;
    int ch = proper__annot_peek(P), it, rc, guard = PROPER_ANNOT_NONE, cond = -1;
    double prob = 0;
    if (ch == '[') {
        proper_cursor_advance(&P->c);
        if ((rc = proper__annot_expr_p(P, &cond))) return rc;
        if ((rc = proper__annot_expect(P, ']', "to close the condition"))) return rc;
        guard = PROPER_ANNOT_COND;
    } else if (ch == '{') {
        proper_cursor save = P->c;
        int ch2;
        proper_cursor_advance(&P->c);
        ch2 = proper__annot_peek(P);
        if ((ch2 >= '0' && ch2 <= '9') || ch2 == '.') {
            proper_cursor at = P->c;
            if ((rc = proper_parse_double(&P->c, &prob, P->err))) return rc;
            if (!(prob >= 0 && prob <= 1)) {
                P->c = at;
                return proper__annot_perr(P, PROPER_EPROB, "probability outside [0, 1]");
            }
            if ((rc = proper__annot_expect(P, '}', "after the probability"))) return rc;
            guard = PROPER_ANNOT_PROB;
        } else {
            P->c = save;
        }
    }
    if ((it = proper__annot_item(a)) < 0) return proper__annot_perr(P, PROPER_ENOMEM, "out of memory");
    a->it[it].guard = guard;
    a->it[it].cond = cond;
    a->it[it].prob = prob;
    ch = proper__annot_peek(P);
    if (ch == '{') {
        int child;
        if (++P->depth > PROPER_ANNOT_NEST_MAX) return proper__annot_perr(P, PROPER_ELIMIT, "groups nested too deeply");
        proper_cursor_advance(&P->c);
        rc = proper__annot_body(P, &child);
        P->depth--;
        if (rc) return rc;
        if ((rc = proper__annot_expect(P, '}', "to close the group"))) return rc;
        a->it[it].dist = PROPER_ANNOT_GROUP;
        a->it[it].child = child;
        if (proper__annot_peek(P) == ';') proper_cursor_advance(&P->c);
    } else {
        const char *s;
        size_t n;
        int d, k;
        proper_cursor at;
        proper__annot_ws(P);
        at = P->c;
        n = proper__annot_ident(P, &s);
        for (d = 1; d <= 3; d++)
            if (strlen(proper__annot_dist_names[d]) == n && memcmp(proper__annot_dist_names[d], s, n) == 0) break;
        if (d > 3) {
            P->c = at;
            if (n) return proper__annot_perr(P, PROPER_EUNDEFINED, "unknown distribution '%.*s' (Norm, Exp, Binom)", (int)n, s);
            if (ch < 0) return proper__annot_perr(P, PROPER_EPARSE, "expected a distribution or '{', found the end of input");
            return proper__annot_perr(P, PROPER_EPARSE, "expected a distribution (Norm, Exp, Binom) or '{', found '%c'", ch);
        }
        if ((rc = proper__annot_expect(P, '(', "after the distribution"))) return rc;
        for (k = 0; k < proper__annot_dist_arity[d]; k++) {
            int e;
            if (k && (rc = proper__annot_expect(P, ',', "between the arguments"))) return rc;
            if ((rc = proper__annot_expr_p(P, &e))) return rc;
            a->it[it].arg[k] = e;
        }
        if ((rc = proper__annot_expect(P, ')', "after the arguments"))) return rc;
        a->it[it].dist = d;
        if (proper__annot_peek(P) == ';') proper_cursor_advance(&P->c);
        else if (proper__annot_peek(P) != '}') return proper__annot_expect(P, ';', "after the distribution");
    }
    *out = it;
    return 0;
}

static int proper__annot_body(proper__annot_parser *P, int *first) {
    int last = -1, rc, nprob = 0, nother = 0;
    double total = 0;
    proper_cursor start;
    proper__annot_ws(P);
    start = P->c;
    *first = -1;
    while (proper__annot_peek(P) != '}' && proper__annot_peek(P) >= 0) {
        int it = -1;
        if ((rc = proper__annot_item_p(P, &it))) return rc;
        if (last < 0) *first = it;
        else P->a->it[last].next = it;
        last = it;
        if (P->a->it[it].guard == PROPER_ANNOT_PROB) { nprob++; total += P->a->it[it].prob; }
        else nother++;
    }
    if (*first < 0) return proper__annot_perr(P, PROPER_EPARSE, "expected at least one item ('[C] Norm(..);', '{p} ..', or a distribution)");
    if (nprob && nother) {
        P->c = start;
        return proper__annot_perr(P, PROPER_EPARSE, "a body mixes {p} items with other items");
    }
    if (nprob && fabs(total - 1) > 1e-6) {
        P->c = start;
        return proper__annot_perr(P, PROPER_EPROB, "the {p} probabilities sum to %.17g, not 1", total);
    }
    return 0;
}

static int proper__annot_function(proper__annot_parser *P) {
    proper_annot *a = P->a;
    proper_annot_fn f;
    proper_cursor at = P->c;
    const char *s = P->c.p, *dot = NULL, *p;
    size_t cap = 0, dcap = 0;
    int rc, body;
    memset(&f, 0, sizeof f);
    while (P->c.p < P->c.end) {
        unsigned char ch = (unsigned char)*P->c.p;
        if (ch <= ' ' || ch == 0x7f || strchr("(){}[];,#", ch)) break;
        if (ch == '.') dot = P->c.p;
        proper_cursor_advance(&P->c);
    }
    if (P->c.p >= P->c.end || *P->c.p != '(' || !dot || dot == s || dot + 1 == P->c.p) {
        P->c = at;
        return proper__annot_perr(P, PROPER_EPARSE, "expected 'function.metric(' to start an annotation");
    }
    if ((size_t)(dot - s) > PROPER_ANNOT_NAME_MAX || (size_t)(P->c.p - dot - 1) > PROPER_ANNOT_NAME_MAX) {
        P->c = at;
        return proper__annot_perr(P, PROPER_ELIMIT, "name longer than %d characters", PROPER_ANNOT_NAME_MAX);
    }
    for (p = dot + 1; p < P->c.p; p++)
        if (!proper__annot_ident_char((unsigned char)*p) || *p == '.' ||
            (p == dot + 1 && !proper__annot_ident_start((unsigned char)*p))) {
            P->c = at;
            return proper__annot_perr(P, PROPER_EPARSE, "the metric after the last '.' must be an identifier");
        }
    if (!(f.name = proper_strndup(s, (size_t)(dot - s))) || !(f.metric = proper_strndup(dot + 1, (size_t)(P->c.p - dot - 1)))) {
        rc = proper__annot_perr(P, PROPER_ENOMEM, "out of memory");
        goto fail;
    }
    proper_cursor_advance(&P->c);
    if (proper__annot_peek(P) != ')') {
        for (;;) {
            const char *id;
            size_t n;
            char *copy;
            proper__annot_ws(P);
            n = proper__annot_ident(P, &id);
            if (!n) { rc = proper__annot_perr(P, PROPER_EPARSE, "expected a parameter name"); goto fail; }
            if (n > PROPER_ANNOT_NAME_MAX) { rc = proper__annot_perr(P, PROPER_ELIMIT, "name too long"); goto fail; }
            if (!(copy = proper_strndup(id, n)) || PROPER_PUSH(f.params, f.n_params, cap, copy)) {
                PROPER_FREE(copy);
                rc = proper__annot_perr(P, PROPER_ENOMEM, "out of memory");
                goto fail;
            }
            if (proper__annot_peek(P) != ',') break;
            proper_cursor_advance(&P->c);
        }
    }
    if ((rc = proper__annot_expect(P, ')', "after the parameters"))) goto fail;
    if ((rc = proper__annot_expect(P, '{', "to open the annotation"))) goto fail;
    /* declarations: two identifiers in a row */
    for (;;) {
        proper_cursor save;
        const char *t, *nm;
        size_t tn, nn;
        proper_annot_decl d;
        proper__annot_ws(P);
        save = P->c;
        tn = proper__annot_ident(P, &t);
        if (!tn) break;
        proper__annot_ws(P);
        nn = proper__annot_ident(P, &nm);
        if (!nn) { P->c = save; break; }
        if (tn > PROPER_ANNOT_NAME_MAX || nn > PROPER_ANNOT_NAME_MAX) {
            P->c = save;
            rc = proper__annot_perr(P, PROPER_ELIMIT, "name too long");
            goto fail;
        }
        memset(&d, 0, sizeof d);
        if (proper__annot_peek(P) == '=') {
            const char *ts, *te;
            proper_cursor_advance(&P->c);
            proper_cursor_skip_blanks(&P->c);
            ts = P->c.p;
            while (P->c.p < P->c.end && *P->c.p != ';' && *P->c.p != '\n') {
                unsigned char ch = (unsigned char)*P->c.p;
                if ((ch < ' ' && ch != '\t' && ch != '\r') || ch == 0x7f) {
                    rc = proper__annot_perr(P, PROPER_EPARSE, "control character in a declaration");
                    goto fail;
                }
                proper_cursor_advance(&P->c);
            }
            te = P->c.p;
            while (te > ts && (te[-1] == ' ' || te[-1] == '\t' || te[-1] == '\r')) te--;
            if (te == ts) { rc = proper__annot_perr(P, PROPER_EPARSE, "expected the feature's definition after '='"); goto fail; }
            if (P->c.p >= P->c.end || *P->c.p != ';') { rc = proper__annot_perr(P, PROPER_EPARSE, "expected ';' to end the declaration on its line"); goto fail; }
            d.text = proper_strndup(ts, (size_t)(te - ts));
            if (!d.text) { rc = proper__annot_perr(P, PROPER_ENOMEM, "out of memory"); goto fail; }
        }
        if ((rc = proper__annot_expect(P, ';', "after the declaration"))) { PROPER_FREE(d.text); goto fail; }
        d.type = proper_strndup(t, tn);
        d.name = proper_strndup(nm, nn);
        if (!d.type || !d.name || PROPER_PUSH(f.decls, f.n_decls, dcap, d)) {
            PROPER_FREE(d.type);
            PROPER_FREE(d.name);
            PROPER_FREE(d.text);
            rc = proper__annot_perr(P, PROPER_ENOMEM, "out of memory");
            goto fail;
        }
    }
    if ((rc = proper__annot_body(P, &body))) goto fail;
    if ((rc = proper__annot_expect(P, '}', "to close the annotation"))) goto fail;
    f.body = body;
    {
        size_t fcap = a->cap_fns;
        if (proper_reserve(&a->fns, &fcap, a->n_fns + 1, sizeof *a->fns)) {
            rc = proper__annot_perr(P, PROPER_ENOMEM, "out of memory");
            goto fail;
        }
        a->cap_fns = fcap;
        a->fns[a->n_fns++] = f;
    }
    return 0;
fail:
    proper__annot_fn_free(&f);
    return rc;
}

PROPER_API int proper_annot_parse(proper_annot *out, const char *text, size_t len, const char *name,
                                  proper_error *err) {
    proper_annot a;
    proper__annot_parser P;
    int rc = 0;
    proper_annot_init(&a);
    memset(&P, 0, sizeof P);
    proper_cursor_init(&P.c, text, len, name);
    P.a = &a;
    P.err = err;
    while (proper__annot_peek(&P) >= 0)
        if ((rc = proper__annot_function(&P))) break;
    if (rc) {
        proper_annot_free(&a);
        return rc;
    }
    proper_annot_free(out);
    *out = a;
    return 0;
}

PROPER_API int proper_annot_read(proper_annot *out, const char *path, proper_error *err) {
    char *data;
    size_t len;
    int rc = proper_read_file(path, &data, &len, err);
    if (rc) return rc;
    rc = proper_annot_parse(out, data, len, path, err);
    PROPER_FREE(data);
    return rc;
}

/* ---- Clustering: variable-bandwidth kernel density ---------------------------- */

static int proper__annot_cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static int proper__annot_kde(const double *y, size_t n, size_t min_size, uint64_t seed, double **cuts, size_t *ncuts,
                             double *xout, double *fout, proper_error *err);

PROPER_API int proper_annot_kde_cuts(const double *y, size_t n, size_t min_size, uint64_t seed, double **cuts,
                                     size_t *ncuts, proper_error *err) {
    return proper__annot_kde(y, n, min_size, seed, cuts, ncuts, NULL, NULL, err);
}

PROPER_API int proper_annot_kde(const double *y, size_t n, uint64_t seed, double *x, double *f, proper_error *err) {
    double *cuts = NULL;
    size_t nc = 0;
    int rc;
    x[0] = NAN;
    rc = proper__annot_kde(y, n, 1, seed, &cuts, &nc, x, f, err);
    PROPER_FREE(cuts);
    if (!rc && isnan(x[0]))
        return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "no density: fewer than 4 values, or all (nearly) equal");
    return rc;
}

static int proper__annot_kde(const double *y, size_t n, size_t min_size, uint64_t seed, double **cuts, size_t *ncuts,
                             double *xout, double *fout, proper_error *err) {
    enum { G = PROPER_ANNOT_KDE_GRID };
    double *s = NULL, *grid = NULL, *pilot = NULL, *dens = NULL, *lam = NULL, *out = NULL;
    double *cnt = NULL;
    size_t m = n, i, g, *peaks = NULL, np = 0, *vall = NULL;
    double lo, hi, dx, h0, hmin = 0, mean = 0, var = 0, iqr, spread, gm = 0, tot = 0;
    int rc = 0;
    *cuts = NULL;
    *ncuts = 0;
    if (n < 4) return 0;
    if (m > PROPER_ANNOT_KDE_SAMPLE) m = PROPER_ANNOT_KDE_SAMPLE;
    s = (double *)PROPER_MALLOC(sizeof *s * m);
    grid = (double *)PROPER_MALLOC(sizeof *grid * G);
    pilot = (double *)PROPER_MALLOC(sizeof *pilot * G);
    dens = (double *)PROPER_MALLOC(sizeof *dens * G);
    lam = (double *)PROPER_MALLOC(sizeof *lam * G);
    cnt = (double *)PROPER_MALLOC(sizeof *cnt * G);
    peaks = (size_t *)PROPER_MALLOC(sizeof *peaks * G);
    vall = (size_t *)PROPER_MALLOC(sizeof *vall * G);
    if (!s || !grid || !pilot || !dens || !lam || !cnt || !peaks || !vall) {
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    if (m < n) {
        proper_rng rng;
        proper_rng_seed(&rng, seed);
        for (i = 0; i < m; i++) s[i] = y[proper_rng_below(&rng, n)];
    } else {
        memcpy(s, y, sizeof *s * n);
    }
    qsort(s, m, sizeof *s, proper__annot_cmp_double);
    for (i = 0; i < m; i++) mean += s[i];
    mean /= (double)m;
    for (i = 0; i < m; i++) var += (s[i] - mean) * (s[i] - mean);
    var /= (double)(m - 1);
    iqr = s[(3 * m) / 4] - s[m / 4];
    spread = sqrt(var);
    if (iqr > 0 && iqr / 1.34 < spread) spread = iqr / 1.34;
    if (!(spread > 0)) goto done; /* (nearly) all equal: one cluster */
    /* Silverman's rule of thumb for the pilot; on a lattice (few distinct
     * values, e.g. counts) no bandwidth is below the lattice step, else
     * every lattice point would be a peak */
    h0 = 0.9 * spread * pow((double)m, -0.2);
    {
        size_t distinct = 1;
        double step = INFINITY;
        for (i = 1; i < m; i++)
            if (s[i] > s[i - 1]) {
                distinct++;
                if (s[i] - s[i - 1] < step) step = s[i] - s[i - 1];
            }
        hmin = distinct <= m / 4 && isfinite(step) ? step : 0;
        if (h0 < hmin) h0 = hmin;
    }
    lo = s[0] - 3 * h0;
    hi = s[m - 1] + 3 * h0;
    dx = (hi - lo) / (G - 1);
    /* a spread beyond the doubles (values near ±1e308): one cluster */
    if (!(dx > 0) || !isfinite(hi - lo) || !isfinite(h0)) goto done;
    for (g = 0; g < G; g++) { grid[g] = lo + dx * (double)g; cnt[g] = 0; pilot[g] = dens[g] = 0; }
    /* linear binning */
    for (i = 0; i < m; i++) {
        double pos = (s[i] - lo) / dx, f;
        size_t k = (size_t)pos;
        if (k >= G - 1) k = G - 2;
        f = pos - (double)k;
        cnt[k] += 1 - f;
        cnt[k + 1] += f;
    }
    /* pilot density, fixed bandwidth */
    for (g = 0; g < G; g++) {
        size_t w, k, a, b;
        if (cnt[g] == 0) continue;
        w = (size_t)(5 * h0 / dx) + 1;
        a = g > w ? g - w : 0;
        b = g + w < G ? g + w : G - 1;
        for (k = a; k <= b; k++) {
            double z = (grid[k] - grid[g]) / h0;
            pilot[k] += cnt[g] * exp(-0.5 * z * z);
        }
    }
    for (g = 0; g < G; g++) pilot[g] /= (double)m * h0 * 2.5066282746310002;
    /* Abramson: local factor (f/geometric mean)^(-1/2), kept within [1/5, 5] */
    for (g = 0; g < G; g++)
        if (cnt[g] > 0 && pilot[g] > 0) { gm += cnt[g] * log(pilot[g]); tot += cnt[g]; }
    gm = exp(gm / tot);
    for (g = 0; g < G; g++) {
        double l = pilot[g] > 0 ? sqrt(gm / pilot[g]) : 5.0;
        lam[g] = l < 0.2 ? 0.2 : l > 5 ? 5 : l;
    }
    for (g = 0; g < G; g++) {
        size_t w, k, a, b;
        double h = h0 * lam[g] > hmin ? h0 * lam[g] : hmin;
        if (cnt[g] == 0) continue;
        w = (size_t)(5 * h / dx) + 1;
        a = g > w ? g - w : 0;
        b = g + w < G ? g + w : G - 1;
        for (k = a; k <= b; k++) {
            double z = (grid[k] - grid[g]) / h;
            dens[k] += cnt[g] / h * exp(-0.5 * z * z);
        }
    }
    if (xout) {
        for (g = 0; g < G; g++) {
            xout[g] = grid[g];
            fout[g] = dens[g] / ((double)m * 2.5066282746310002);
        }
    }
    /* local maxima (plateaus count once, at their middle) */
    for (g = 1; g + 1 < G; g++) {
        size_t e = g;
        if (!(dens[g] > dens[g - 1])) continue;
        while (e + 1 < G && dens[e + 1] == dens[g]) e++;
        if (e + 1 < G && dens[e + 1] < dens[g]) peaks[np++] = (g + e) / 2;
        g = e;
    }
    /* merge peaks separated by a shallow valley: drop the lower peak */
    for (;;) {
        size_t best = (size_t)-1, k;
        double worst = 0;
        for (k = 0; k + 1 < np; k++) {
            size_t v = peaks[k], j;
            double low = dens[peaks[k]] < dens[peaks[k + 1]] ? dens[peaks[k]] : dens[peaks[k + 1]], ratio;
            for (j = peaks[k]; j <= peaks[k + 1]; j++)
                if (dens[j] < dens[v]) v = j;
            vall[k] = v;
            ratio = dens[v] / low;
            if (ratio > PROPER_ANNOT_KDE_VALLEY && ratio > worst) { worst = ratio; best = k; }
        }
        if (best == (size_t)-1) break;
        if (dens[peaks[best]] < dens[peaks[best + 1]]) memmove(peaks + best, peaks + best + 1, sizeof *peaks * (np - best - 1));
        else memmove(peaks + best + 1, peaks + best + 2, sizeof *peaks * (np - best - 2));
        np--;
    }
    if (np < 2) goto done;
    out = (double *)PROPER_MALLOC(sizeof *out * (np - 1));
    if (!out) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto done; }
    for (i = 0; i + 1 < np; i++) out[i] = grid[vall[i]];
    *ncuts = np - 1;
    /* clusters too small (counted on all n values) are merged away */
    for (;;) {
        size_t k, *sz = (size_t *)proper_calloc(*ncuts + 1, sizeof *sz), worst_k = (size_t)-1, worst_n = 0;
        if (!sz) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto done; }
        for (i = 0; i < n; i++) {
            size_t a = 0, b = *ncuts;
            while (a < b) { size_t mid = (a + b) / 2; if (y[i] <= out[mid]) b = mid; else a = mid + 1; }
            sz[a]++;
        }
        for (k = 0; k <= *ncuts; k++)
            if (sz[k] < min_size && (worst_k == (size_t)-1 || sz[k] < worst_n)) { worst_k = k; worst_n = sz[k]; }
        PROPER_FREE(sz);
        if (worst_k == (size_t)-1 || *ncuts == 0) break;
        /* remove the cut on the side of the higher valley */
        if (worst_k == 0) k = 0;
        else if (worst_k == *ncuts) k = worst_k - 1;
        else {
            double dl = dens[vall[worst_k - 1]], dr = dens[vall[worst_k]];
            k = dl > dr ? worst_k - 1 : worst_k;
        }
        memmove(out + k, out + k + 1, sizeof *out * (*ncuts - k - 1));
        memmove(vall + k, vall + k + 1, sizeof *vall * (*ncuts - k - 1));
        (*ncuts)--;
    }
    if (*ncuts == 0) { PROPER_FREE(out); out = NULL; }
    *cuts = out;
    out = NULL;
done:
    PROPER_FREE(out);
    PROPER_FREE(s);
    PROPER_FREE(grid);
    PROPER_FREE(pilot);
    PROPER_FREE(dens);
    PROPER_FREE(lam);
    PROPER_FREE(cnt);
    PROPER_FREE(peaks);
    PROPER_FREE(vall);
    if (rc) *ncuts = 0;
    return rc;
}

typedef struct proper__annot_xy { double x, y; size_t i; } proper__annot_xy;
static int proper__annot_cmp_xy(const void *p, const void *q) {
    const proper__annot_xy *a = (const proper__annot_xy *)p, *b = (const proper__annot_xy *)q;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

static proper__annot_xy *proper__annot_sorted_xy(const double *x, const double *y, size_t n) {
    proper__annot_xy *v = (proper__annot_xy *)PROPER_MALLOC(sizeof *v * (n ? n : 1));
    size_t i;
    if (!v) return NULL;
    for (i = 0; i < n; i++) { v[i].x = x[i]; v[i].y = y[i]; v[i].i = i; }
    qsort(v, n, sizeof *v, proper__annot_cmp_xy);
    return v;
}

PROPER_API int proper_annot_lower_envelope(const double *x, const double *y, size_t n, unsigned char *keep,
                                           proper_error *err) {
    proper__annot_xy *v = proper__annot_sorted_xy(x, y, n);
    size_t i = 0, j;
    if (!v) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    memset(keep, 0, n);
    while (i < n) {
        for (j = i; j < n && v[j].x == v[i].x && v[j].y == v[i].y; j++) keep[v[j].i] = 1;
        while (j < n && v[j].x == v[i].x) j++;
        i = j;
    }
    PROPER_FREE(v);
    return 0;
}

PROPER_API int proper_annot_dominant(const double *x, const double *y, size_t n, unsigned char *keep,
                                     proper_error *err) {
    proper__annot_xy *v = proper__annot_sorted_xy(x, y, n);
    double *ys = NULL;
    size_t i = 0, j, k;
    int rc = 0;
    if (!v || !(ys = (double *)PROPER_MALLOC(sizeof *ys * (n ? n : 1)))) {
        PROPER_FREE(v);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    }
    memset(keep, 0, n);
    while (i < n && !rc) {
        double *cuts = NULL;
        size_t nc = 0, best = 0, bestn = 0, c;
        for (j = i; j < n && v[j].x == v[i].x; j++) ys[j - i] = v[j].y;
        rc = proper_annot_kde_cuts(ys, j - i, 1, 1, &cuts, &nc, err);
        /* clusters are runs of the sorted y values between cuts */
        for (c = 0; c <= nc && !rc; c++) {
            size_t cnt = 0;
            for (k = i; k < j; k++)
                if ((c == 0 || v[k].y > cuts[c - 1]) && (c == nc || v[k].y <= cuts[c])) cnt++;
            if (cnt > bestn) { bestn = cnt; best = c; }
        }
        for (k = i; k < j && !rc; k++)
            if ((best == 0 || v[k].y > cuts[best - 1]) && (best == nc || v[k].y <= cuts[best])) keep[v[k].i] = 1;
        PROPER_FREE(cuts);
        i = j;
    }
    PROPER_FREE(v);
    PROPER_FREE(ys);
    return rc;
}

/* ---- Fitting ------------------------------------------------------------------------ */

PROPER_API proper_annot_opts proper_annot_opts_default(void) {
    proper_annot_opts o;
    o.r2 = PROPER_ANNOT_R2;
    o.alpha = PROPER_ANNOT_ALPHA;
    o.corr = PROPER_ANNOT_CORR;
    o.min_leaf = PROPER_ANNOT_MIN_LEAF;
    o.max_depth = PROPER_ANNOT_MAX_DEPTH;
    o.use_branches = 1;
    o.envelope = 0;
    o.dominant = 0;
    o.heuristic_feature = NULL;
    o.heuristics = 1;
    o.seed = 1;
    return o;
}

/* A split must also lower the BIC by this much per record: ln 2, i.e. (each
 * side with its own variance) the residual variance halves in the
 * likelihood's sense. Scale-free, so a million records with a slight
 * curvature are not cut into slivers, while a regime change is. */
#ifndef PROPER_ANNOT_SPLIT_GAIN
#define PROPER_ANNOT_SPLIT_GAIN 0.69314718055994531
#endif
/* Branch candidates tried per split. */
#ifndef PROPER_ANNOT_BRANCH_TRIES
#define PROPER_ANNOT_BRANCH_TRIES 8
#endif

enum { PROPER__ANNOT_ONE, PROPER__ANNOT_X, PROPER__ANNOT_XLOGX, PROPER__ANNOT_X2, PROPER__ANNOT_XY };

typedef struct proper__annot_term { int kind, a, b; } proper__annot_term;

typedef struct proper__annot_model {
    int good, cls;
    size_t nt, n;
    proper__annot_term t[PROPER_ANNOT_MAX_TERMS];
    double coef[PROPER_ANNOT_MAX_TERMS];
    double rss, r2, bic, sigma;
} proper__annot_model;

typedef struct proper__annot_ctx {
    const proper_annot_opts *o;
    size_t N, nf;
    double *X;      /* nf columns of N values */
    double *Y;
    size_t *row;    /* table row of record r */
    const proper_annot_table *t;
    char **name;    /* feature names */
    double sx[PROPER_ANNOT_MAX_FEATURES];
    int nonneg[PROPER_ANNOT_MAX_FEATURES];
    int prod[PROPER_ANNOT_PRODUCTS];
    size_t nprod;
    proper_rng rng;
    proper_annot *A;
    int *tail;      /* where the next top-level item is linked */
    proper_error *err;
} proper__annot_ctx;

static double proper__annot_tval(const proper__annot_ctx *c, const proper__annot_term *t, size_t r, double *scale) {
    double x, z;
    switch (t->kind) {
    case PROPER__ANNOT_ONE: *scale = 1; return 1;
    case PROPER__ANNOT_X: *scale = c->sx[t->a]; return c->X[t->a * c->N + r] / c->sx[t->a];
    case PROPER__ANNOT_X2:
        *scale = c->sx[t->a] * c->sx[t->a];
        z = c->X[t->a * c->N + r] / c->sx[t->a];
        return z * z;
    case PROPER__ANNOT_XY:
        *scale = c->sx[t->a] * c->sx[t->b];
        return c->X[t->a * c->N + r] / c->sx[t->a] * (c->X[t->b * c->N + r] / c->sx[t->b]);
    default:
        x = c->X[t->a * c->N + r];
        *scale = c->sx[t->a] * (fabs(log(c->sx[t->a])) > 1 ? fabs(log(c->sx[t->a])) : 1);
        return x > 0 ? x / c->sx[t->a] * log(x) * (c->sx[t->a] / *scale) : 0;
    }
}

/* Triangle of the terms and y over records idx[0..n). */
static int proper__annot_accumulate(const proper__annot_ctx *c, const size_t *idx, size_t n, const proper__annot_term *t,
                                    size_t nt, double yscale, double *R) {
    size_t q = nt + 1, r, i, j;
    double blk[(PROPER_ANNOT_MAX_TERMS + 1) * 64], sc;
    memset(R, 0, sizeof *R * q * q);
    for (r = 0; r < n; r += 64) {
        size_t B = n - r < 64 ? n - r : 64;
        for (i = 0; i < B; i++) {
            size_t rec = idx[r + i];
            for (j = 0; j < nt; j++) blk[j * B + i] = proper__annot_tval(c, &t[j], rec, &sc);
            blk[nt * B + i] = c->Y[rec] / yscale;
        }
        proper__annot_tri_add(R, q, blk, B);
    }
    return 0;
}

static int proper__annot_term_class(const proper__annot_term *t, size_t nt) {
    int cls = PROPER_ANNOT_CONSTANT;
    size_t i;
    for (i = 0; i < nt; i++) {
        int k = t[i].kind == PROPER__ANNOT_X ? PROPER_ANNOT_LINEAR
                : t[i].kind == PROPER__ANNOT_XLOGX ? PROPER_ANNOT_NLOGN
                : (t[i].kind == PROPER__ANNOT_X2 || t[i].kind == PROPER__ANNOT_XY) ? PROPER_ANNOT_QUADRATIC
                : PROPER_ANNOT_CONSTANT;
        if (k > cls) cls = k;
    }
    return cls;
}

static double proper__annot_ymax(const proper__annot_ctx *c, const size_t *idx, size_t n) {
    double m = 0;
    size_t i;
    for (i = 0; i < n; i++)
        if (fabs(c->Y[idx[i]]) > m) m = fabs(c->Y[idx[i]]);
    return m > 0 ? m : 1;
}

/* Backward elimination on the triangle: cols (indices into the union's
 * terms) shrink in place; returns the final count (0 if nothing fits). */
static size_t proper__annot_eliminate(const double *R, size_t q, size_t *cols, size_t s, size_t n, double alpha,
                                      proper_annot_lsq *res) {
    for (;;) {
        size_t bad, j, worst = 0;
        double wp = -1;
        if (s == 0 || n <= s + 1) return 0;
        bad = proper__annot_tri_solve(R, q, cols, s, q - 1, n, res);
        if (bad) {
            if (bad == 1) return 0;
            memmove(cols + bad - 1, cols + bad, sizeof *cols * (s - bad));
            s--;
            continue;
        }
        for (j = 1; j < s; j++)
            if (!(res->pval[j] <= wp) || wp < 0) {
                if (isnan(res->pval[j]) || res->pval[j] > wp) { wp = isnan(res->pval[j]) ? 2 : res->pval[j]; worst = j; }
            }
        if (s == 1 || wp <= alpha) return s;
        memmove(cols + worst, cols + worst + 1, sizeof *cols * (s - worst - 1));
        s--;
    }
}

/* The class search of §3.2 on the triangle R (q = nu + 1) of [U | y] over
 * ns records: per class (constant, linear, x log x, quadratic) backward
 * elimination, then among the classes whose R² reaches opts.r2 (all, if
 * none does) the lowest BIC, a higher class winning only by
 * PROPER_ANNOT_BIC_MARGIN. Writes the chosen columns (indices into U) to
 * chosen and returns their count; 0 when nothing fits (too few records). */
static size_t proper__annot_choose(const double *R, size_t q, const proper__annot_term *U, size_t nu, size_t ns,
                                   const proper_annot_opts *o, size_t *chosen) {
    size_t cols[4][PROPER_ANNOT_MAX_TERMS], ncol[4], cls, one = 0;
    double r2[4], bic[4], tss;
    proper_annot_lsq res;
    int best = -1, any_good = 0;
    if (ns < 2 || proper__annot_tri_solve(R, q, &one, 1, q - 1, ns, &res)) tss = 0;
    else tss = res.rss;
    for (cls = 0; cls < 4; cls++) {
        size_t s = 0, k;
        for (k = 0; k < nu; k++) {
            int kind = U[k].kind;
            int ok = kind == PROPER__ANNOT_ONE || (cls >= 1 && kind == PROPER__ANNOT_X) ||
                     (cls == 2 && kind == PROPER__ANNOT_XLOGX) ||
                     (cls == 3 && (kind == PROPER__ANNOT_X2 || kind == PROPER__ANNOT_XY));
            if (ok) cols[cls][s++] = k;
        }
        ncol[cls] = proper__annot_eliminate(R, q, cols[cls], s, ns, o->alpha, &res);
        if (!ncol[cls]) { r2[cls] = NAN; bic[cls] = INFINITY; continue; }
        r2[cls] = tss > 0 ? 1 - res.rss / tss : (res.rss <= 0 ? 1.0 : 0.0);
        bic[cls] = proper__annot_bic(res.rss, ns, ncol[cls], 1.0);
    }
    for (cls = 0; cls < 4; cls++)
        if (r2[cls] >= o->r2) any_good = 1;
    for (cls = 0; cls < 4; cls++) {
        if (!ncol[cls] || (any_good && !(r2[cls] >= o->r2))) continue;
        if (best < 0 || bic[cls] < bic[best] - PROPER_ANNOT_BIC_MARGIN) best = (int)cls;
    }
    if (best < 0) return 0;
    memcpy(chosen, cols[best], sizeof *chosen * ncol[best]);
    return ncol[best];
}

/* The best model on records idx[0..n) (§3.2 Model Formulation). */
static int proper__annot_best(proper__annot_ctx *c, const size_t *idx, size_t n, proper__annot_model *m) {
    proper__annot_term U[PROPER_ANNOT_MAX_TERMS];
    size_t nu = 0, f, g, i, q, *sidx = NULL, ns = n, chosen[PROPER_ANNOT_MAX_TERMS];
    double *R = NULL, yscale;
    const size_t *use = idx;
    proper_annot_lsq res;
    int okf[PROPER_ANNOT_MAX_FEATURES];
    memset(m, 0, sizeof *m);
    m->n = n;
    /* a feature's curved terms (x log x, x²) enter only where it takes
     * PROPER_ANNOT_MIN_DISTINCT values (a curve through three x values fits
     * them exactly and extrapolates wildly); its linear term and products
     * wherever it varies */
    for (f = 0; f < c->nf; f++) {
        double seen[PROPER_ANNOT_MIN_DISTINCT];
        size_t nseen = 0, k2;
        for (i = 0; i < n && nseen < PROPER_ANNOT_MIN_DISTINCT; i++) {
            double v = c->X[f * c->N + idx[i]];
            for (k2 = 0; k2 < nseen && seen[k2] != v; k2++) {
            }
            if (k2 == nseen) seen[nseen++] = v;
        }
        okf[f] = (int)nseen;
    }
    U[nu].kind = PROPER__ANNOT_ONE; U[nu].a = U[nu].b = 0; nu++;
    for (f = 0; f < c->nf; f++)
        if (okf[f] >= 2) { U[nu].kind = PROPER__ANNOT_X; U[nu].a = (int)f; U[nu].b = 0; nu++; }
    for (f = 0; f < c->nf; f++)
        if (okf[f] >= PROPER_ANNOT_MIN_DISTINCT && c->nonneg[f]) { U[nu].kind = PROPER__ANNOT_XLOGX; U[nu].a = (int)f; U[nu].b = 0; nu++; }
    for (f = 0; f < c->nf; f++)
        if (okf[f] >= PROPER_ANNOT_MIN_DISTINCT) { U[nu].kind = PROPER__ANNOT_X2; U[nu].a = (int)f; U[nu].b = 0; nu++; }
    for (f = 0; f < c->nprod; f++)
        for (g = f + 1; g < c->nprod; g++)
            if (okf[c->prod[f]] >= 2 && okf[c->prod[g]] >= 2) {
                U[nu].kind = PROPER__ANNOT_XY; U[nu].a = c->prod[f]; U[nu].b = c->prod[g]; nu++;
            }
    if (n > PROPER_ANNOT_SAMPLE) {
        ns = PROPER_ANNOT_SAMPLE;
        if (!(sidx = (size_t *)PROPER_MALLOC(sizeof *sidx * n))) goto oom;
        memcpy(sidx, idx, sizeof *sidx * n);
        for (i = 0; i < ns; i++) {
            size_t j = i + (size_t)proper_rng_below(&c->rng, n - i), tmp = sidx[i];
            sidx[i] = sidx[j];
            sidx[j] = tmp;
        }
        use = sidx;
    }
    q = nu + 1;
    if (!(R = (double *)PROPER_MALLOC(sizeof *R * q * q))) goto oom;
    yscale = proper__annot_ymax(c, use, ns);
    proper__annot_accumulate(c, use, ns, U, nu, yscale, R);
    m->nt = proper__annot_choose(R, q, U, nu, ns, c->o, chosen);
    if (!m->nt) {
        /* not even a constant: too few records */
        m->good = 0;
        m->bic = INFINITY;
        m->rss = INFINITY;
        PROPER_FREE(R);
        PROPER_FREE(sidx);
        return 0;
    }
    for (i = 0; i < m->nt; i++) m->t[i] = U[chosen[i]];
    /* refit the chosen terms on all the records */
    {
        size_t k, all[PROPER_ANNOT_MAX_TERMS], bad;
        double *R2 = (double *)PROPER_MALLOC(sizeof *R2 * (m->nt + 1) * (m->nt + 1)), mean = 0, t2 = 0;
        if (!R2) goto oom;
        yscale = proper__annot_ymax(c, idx, n);
        proper__annot_accumulate(c, idx, n, m->t, m->nt, yscale, R2);
        for (k = 0; k < m->nt; k++) all[k] = k;
        bad = proper__annot_tri_solve(R2, m->nt + 1, all, m->nt, m->nt, n, &res);
        PROPER_FREE(R2);
        if (bad) {
            /* dependent on all the data but not on the sample: keep the constant */
            m->nt = 1;
            m->t[0].kind = PROPER__ANNOT_ONE;
            res.coef[0] = 0;
            for (k = 0; k < n; k++) res.coef[0] += c->Y[idx[k]] / yscale;
            res.coef[0] /= (double)n;
            res.rss = 0;
            for (k = 0; k < n; k++) res.rss += (c->Y[idx[k]] / yscale - res.coef[0]) * (c->Y[idx[k]] / yscale - res.coef[0]);
        }
        /* in units of yscale: nothing overflows */
        for (k = 0; k < n; k++) mean += c->Y[idx[k]] / yscale;
        mean /= (double)n;
        for (k = 0; k < n; k++) t2 += (c->Y[idx[k]] / yscale - mean) * (c->Y[idx[k]] / yscale - mean);
        for (k = 0; k < m->nt; k++) {
            double sc;
            proper__annot_tval(c, &m->t[k], idx[0], &sc);
            m->coef[k] = res.coef[k] * yscale / sc;
        }
        m->rss = res.rss * yscale * yscale;
        m->sigma = n > m->nt ? sqrt(res.rss / (double)(n - m->nt)) * yscale : 0;
        m->r2 = t2 > 0 ? 1 - res.rss / t2 : (res.rss <= 1e-24 ? 1.0 : 0.0);
        if (m->r2 < 0) m->r2 = 0;
        m->bic = proper__annot_bic(res.rss, n, m->nt, yscale);
    }
    m->cls = proper__annot_term_class(m->t, m->nt);
    m->good = m->r2 >= c->o->r2;
    PROPER_FREE(R);
    PROPER_FREE(sidx);
    return 0;
oom:
    PROPER_FREE(R);
    PROPER_FREE(sidx);
    return proper_error_set(c->err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
}

/* ---- Building the annotation ---- */

static int proper__annot_fvar(proper__annot_ctx *c, int f) {
    return proper__annot_var(c->A, c->name[f], strlen(c->name[f]));
}

static int proper__annot_term_expr(proper__annot_ctx *c, const proper__annot_term *t, int coef) {
    proper_annot *A = c->A;
    switch (t->kind) {
    case PROPER__ANNOT_X: return proper__annot_node(A, PROPER_ANNOT_MUL, coef, proper__annot_fvar(c, t->a));
    case PROPER__ANNOT_X2:
        return proper__annot_node(A, PROPER_ANNOT_MUL, proper__annot_node(A, PROPER_ANNOT_MUL, coef, proper__annot_fvar(c, t->a)),
                                  proper__annot_fvar(c, t->a));
    case PROPER__ANNOT_XY:
        return proper__annot_node(A, PROPER_ANNOT_MUL, proper__annot_node(A, PROPER_ANNOT_MUL, coef, proper__annot_fvar(c, t->a)),
                                  proper__annot_fvar(c, t->b));
    default:
        return proper__annot_node(A, PROPER_ANNOT_MUL, proper__annot_node(A, PROPER_ANNOT_MUL, coef, proper__annot_fvar(c, t->a)),
                                  proper__annot_call(A, PROPER_ANNOT_F_LOG, proper__annot_fvar(c, t->a), -1));
    }
}

/* c0 + c1*t1 - c2*t2 ...: the mean of a regression. */
static int proper__annot_model_expr(proper__annot_ctx *c, const proper__annot_model *m) {
    int e = -1;
    size_t k;
    for (k = 0; k < m->nt; k++)
        if (m->t[k].kind == PROPER__ANNOT_ONE) e = proper__annot_num(c->A, m->coef[k]);
    if (e == -1) e = proper__annot_num(c->A, 0.0);
    for (k = 0; k < m->nt; k++) {
        double v = m->coef[k];
        if (m->t[k].kind == PROPER__ANNOT_ONE) continue;
        e = proper__annot_node(c->A, v < 0 ? PROPER_ANNOT_SUB : PROPER_ANNOT_ADD, e,
                               proper__annot_term_expr(c, &m->t[k], proper__annot_num(c->A, fabs(v))));
    }
    return e;
}

/* A leaf item for a regression model. */
static int proper__annot_leaf_model(proper__annot_ctx *c, const proper__annot_model *m, int guard, int cond, double prob) {
    int it = proper__annot_item(c->A), mean = proper__annot_model_expr(c, m), sd = proper__annot_num(c->A, m->sigma);
    proper_annot_item *x;
    if (it < 0 || mean < 0 || sd < 0) return -2;
    x = &c->A->it[it];
    x->guard = guard;
    x->cond = cond;
    x->prob = prob;
    x->dist = PROPER_ANNOT_NORM;
    x->arg[0] = mean;
    x->arg[1] = sd;
    x->n_obs = m->n;
    x->r2 = m->r2;
    x->cls = m->cls;
    return it;
}

static double proper__annot_norm_cdf(double x, void *ctx) {
    const double *p = (const double *)ctx;
    return proper_stats_normal_cdf((x - p[0]) / p[1]);
}
static double proper__annot_exp_cdf(double x, void *ctx) {
    const double *p = (const double *)ctx;
    return x <= 0 ? 0 : -expm1(-x / p[0]);
}
static double proper__annot_binom_cdf_at(double k, double n, double p) {
    if (k < 0) return 0;
    if (k >= n) return 1;
    if (p <= 0) return 1;
    if (p >= 1) return 0;
    return proper_stats_incbeta(n - k, k + 1, 1 - p);
}

/* An input-independent distribution for y over idx: the smallest KS distance. */
static int proper__annot_leaf_dist(proper__annot_ctx *c, const size_t *idx, size_t n, int guard, int cond, double prob) {
    double *y = (double *)PROPER_MALLOC(sizeof *y * (n ? n : 1)), mean = 0, var = 0, mn = INFINITY, d = INFINITY, bestd = INFINITY;
    double par[2], bp[2] = {0, 0};
    size_t i;
    int integer = 1, bestk = PROPER_ANNOT_NORM, it, a0, a1 = -1;
    proper_annot_item *x;
    if (!y) return -2;
    {
        /* moments in units of the largest |y|: no overflow */
        double sc = proper__annot_ymax(c, idx, n), ms = 0, vs = 0;
        for (i = 0; i < n; i++) {
            y[i] = c->Y[idx[i]];
            ms += y[i] / sc;
            if (y[i] < mn) mn = y[i];
            if (y[i] != floor(y[i]) || y[i] < 0 || y[i] > 9007199254740992.0) integer = 0;
        }
        ms /= (double)n;
        for (i = 0; i < n; i++) vs += (y[i] / sc - ms) * (y[i] / sc - ms);
        vs = n > 1 ? vs / (double)(n - 1) : 0;
        mean = ms * sc;
        var = sqrt(vs) * sc; /* the sd for now */
        var = isfinite(var * var) ? var * var : INFINITY;
        if (!isfinite(var)) {
            /* too wide for a variance: a normal with that sd still prints */
            var = 0;
            bp[0] = mean;
            bp[1] = sqrt(vs) * sc;
            integer = 0;
            mn = -1;
        }
    }
    if (var > 0 || bp[1] == 0) {
        bp[0] = mean;
        bp[1] = sqrt(var);
    }
    if (var > 0) {
        par[0] = mean;
        par[1] = sqrt(var);
        if (!proper_stats_ks_sample(y, n, proper__annot_norm_cdf, par, &d, NULL)) bestd = d;
        if (mn >= 0 && mean > 0) {
            par[0] = mean;
            if (!proper_stats_ks_sample(y, n, proper__annot_exp_cdf, par, &d, NULL) && d < bestd) {
                bestd = d;
                bestk = PROPER_ANNOT_EXP;
                bp[0] = mean;
            }
        }
        if (integer && var < mean) {
            double trials = floor(mean * mean / (mean - var) + 0.5), mx = 0;
            for (i = 0; i < n; i++)
                if (y[i] > mx) mx = y[i];
            if (trials < mx) trials = mx;
            par[0] = trials;
            par[1] = mean / trials;
            if (trials >= 1) {
                /* counts: compare on the lattice, both CDFs right-continuous at
                 * each integer k (the normal with the continuity correction,
                 * Φ((k + 1/2 - μ)/σ)), the exact sup of two step functions */
                double dn = 0, db = 0, k;
                size_t below = 0;
                qsort(y, n, sizeof *y, proper__annot_cmp_double);
                for (k = y[0]; k <= y[n - 1]; k += 1) {
                    double fe, fb, fn;
                    while (below < n && y[below] <= k) below++;
                    fe = (double)below / (double)n;
                    fb = proper__annot_binom_cdf_at(k, par[0], par[1]);
                    fn = proper_stats_normal_cdf((k + 0.5 - bp[0]) / bp[1]);
                    if (fabs(fe - fb) > db) db = fabs(fe - fb);
                    if (fabs(fe - fn) > dn) dn = fabs(fe - fn);
                }
                if (db < dn) {
                    bestk = PROPER_ANNOT_BINOM;
                    bp[0] = par[0];
                    bp[1] = par[1];
                }
            }
        }
    }
    PROPER_FREE(y);
    it = proper__annot_item(c->A);
    a0 = proper__annot_num(c->A, bp[0]);
    if (bestk != PROPER_ANNOT_EXP) a1 = proper__annot_num(c->A, bp[1]);
    if (it < 0 || a0 < 0 || (bestk != PROPER_ANNOT_EXP && a1 < 0)) return -2;
    x = &c->A->it[it];
    x->guard = guard;
    x->cond = cond;
    x->prob = prob;
    x->dist = bestk;
    x->arg[0] = a0;
    x->arg[1] = a1;
    x->n_obs = n;
    x->r2 = NAN;
    x->cls = PROPER_ANNOT_DISTRIBUTION;
    return it;
}

/* ---- Algorithm 1 and 2 ---- */

#define PROPER__ANNOT_PATH_MAX 64

typedef struct proper__annot_path {
    double lo[PROPER_ANNOT_MAX_FEATURES], hi[PROPER_ANNOT_MAX_FEATURES];
    unsigned char haslo[PROPER_ANNOT_MAX_FEATURES], hashi[PROPER_ANNOT_MAX_FEATURES];
    int br[PROPER__ANNOT_PATH_MAX];
    double brv[PROPER__ANNOT_PATH_MAX];
    size_t nbr;
} proper__annot_path;

static int proper__annot_and(proper_annot *A, int e, int x) {
    if (e == -1) return x;
    return proper__annot_node(A, PROPER_ANNOT_AND, e, x);
}

/* The conjunction of a path's conditions: -1 when there are none, -2 out of memory. */
static int proper__annot_path_cond(proper__annot_ctx *c, const proper__annot_path *p) {
    int e = -1;
    size_t f, k;
    for (f = 0; f < c->nf; f++) {
        if (p->haslo[f])
            e = proper__annot_and(c->A, e, proper__annot_node(c->A, PROPER_ANNOT_GT, proper__annot_fvar(c, (int)f),
                                                             proper__annot_num(c->A, p->lo[f])));
        if (p->hashi[f])
            e = proper__annot_and(c->A, e, proper__annot_node(c->A, PROPER_ANNOT_LE, proper__annot_fvar(c, (int)f),
                                                             proper__annot_num(c->A, p->hi[f])));
    }
    /* branch(j) == 1, or !(branch(j) == 1) for the other side (which holds
     * the records that never executed branch j too) */
    for (k = 0; k < p->nbr; k++) {
        int x = proper__annot_node(c->A, PROPER_ANNOT_EQ,
                                   proper__annot_call(c->A, PROPER_ANNOT_F_BRANCH, proper__annot_num(c->A, (double)(p->br[k] + 1)), -1),
                                   proper__annot_num(c->A, 1.0));
        if (p->brv[k] == 0) x = proper__annot_node(c->A, PROPER_ANNOT_NOT, x, -1);
        e = proper__annot_and(c->A, e, x);
    }
    return e;
}

static void proper__annot_link(proper__annot_ctx *c, int *first, int *last, int it) {
    if (*last < 0) *first = it;
    else c->A->it[*last].next = it;
    *last = it;
}

static int proper__annot_oomc(proper__annot_ctx *c) {
    return proper_error_set(c->err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
}

/* Place a list of items: at the top when unconditioned, else under [cond] { }. */
static int proper__annot_place(proper__annot_ctx *c, int cond, int first, int last, int *top_first, int *top_last) {
    if (cond == -1) {
        int it;
        for (it = first; it >= 0;) {
            int nx = c->A->it[it].next;
            c->A->it[it].next = -1;
            proper__annot_link(c, top_first, top_last, it);
            it = nx;
        }
        (void)last;
        return 0;
    } else {
        int g = proper__annot_item(c->A);
        if (g < 0) return proper__annot_oomc(c);
        c->A->it[g].guard = PROPER_ANNOT_COND;
        c->A->it[g].cond = cond;
        c->A->it[g].dist = PROPER_ANNOT_GROUP;
        c->A->it[g].child = first;
        proper__annot_link(c, top_first, top_last, g);
        return 0;
    }
}

static int proper__annot_alg2(proper__annot_ctx *c, size_t *idx, size_t n, int cond, int *top_first, int *top_last) {
    double *y = (double *)PROPER_MALLOC(sizeof *y * (n ? n : 1)), *cuts = NULL;
    size_t ncuts = 0, i, k, min_size;
    size_t *cl = NULL, *start = NULL, *tmp = NULL;
    int rc = 0, first = -1, last = -1, scoped = 0;
    proper__annot_model m;
    if (!y) return proper__annot_oomc(c);
    for (i = 0; i < n; i++) y[i] = c->Y[idx[i]];
    min_size = (size_t)(PROPER_ANNOT_MIN_CLUSTER * (double)n);
    if (min_size < c->o->min_leaf) min_size = c->o->min_leaf;
    rc = proper_annot_kde_cuts(y, n, min_size, proper_rng_u64(&c->rng), &cuts, &ncuts, c->err);
    if (rc) goto done;
    if (ncuts == 0) {
        int it = proper__annot_leaf_dist(c, idx, n, cond == -1 ? PROPER_ANNOT_NONE : PROPER_ANNOT_COND, cond, 0);
        if (it < 0) { rc = proper__annot_oomc(c); goto done; }
        proper__annot_link(c, top_first, top_last, it);
        goto done;
    }
    /* order the records by cluster */
    cl = (size_t *)PROPER_MALLOC(sizeof *cl * n);
    start = (size_t *)proper_calloc(ncuts + 2, sizeof *start);
    tmp = (size_t *)PROPER_MALLOC(sizeof *tmp * n);
    if (!cl || !start || !tmp) { rc = proper__annot_oomc(c); goto done; }
    for (i = 0; i < n; i++) {
        size_t a = 0, b = ncuts;
        while (a < b) { size_t mid = (a + b) / 2; if (y[i] <= cuts[mid]) b = mid; else a = mid + 1; }
        cl[i] = a;
        start[a + 1]++;
    }
    for (k = 0; k <= ncuts; k++) start[k + 1] += start[k];
    {
        size_t *pos = (size_t *)PROPER_MALLOC(sizeof *pos * (ncuts + 1));
        if (!pos) { rc = proper__annot_oomc(c); goto done; }
        memcpy(pos, start, sizeof *pos * (ncuts + 1));
        for (i = 0; i < n; i++) tmp[pos[cl[i]]++] = idx[i];
        PROPER_FREE(pos);
        memcpy(idx, tmp, sizeof *idx * n);
    }
    /* lines 3-10: a good model and a defining condition per cluster */
    for (k = 0; k <= ncuts; k++) {
        size_t *ci = idx + start[k], nk = start[k + 1] - start[k], f;
        if (nk < 3) continue;
        if ((rc = proper__annot_best(c, ci, nk, &m))) goto done;
        if (!m.good) continue;
        for (f = 0; f < c->nf; f++) {
            double lo = INFINITY, hi = -INFINITY;
            int clean = 1;
            for (i = 0; i < nk; i++) {
                double v = c->X[f * c->N + ci[i]];
                if (v < lo) lo = v;
                if (v > hi) hi = v;
            }
            for (i = 0; i < n && clean; i++) {
                double v;
                if (i >= start[k] && i < start[k + 1]) continue;
                v = c->X[f * c->N + idx[i]];
                if (v >= lo && v <= hi) clean = 0;
            }
            if (clean) {
                int e = proper__annot_node(c->A, PROPER_ANNOT_AND,
                                           proper__annot_node(c->A, PROPER_ANNOT_GE, proper__annot_fvar(c, (int)f), proper__annot_num(c->A, lo)),
                                           proper__annot_node(c->A, PROPER_ANNOT_LE, proper__annot_fvar(c, (int)f), proper__annot_num(c->A, hi)));
                int it = proper__annot_leaf_model(c, &m, PROPER_ANNOT_COND, e, 0);
                if (e < 0 || it < 0) { rc = proper__annot_oomc(c); goto done; }
                proper__annot_link(c, &first, &last, it);
                scoped++;
                break;
            }
        }
    }
    if (!scoped) {
        /* lines 11-21: a mixture */
        double used = 0;
        for (k = 0; k <= ncuts; k++) {
            size_t *ci = idx + start[k], nk = start[k + 1] - start[k];
            double p = k == ncuts ? 1 - used : (double)nk / (double)n;
            int it;
            if (p < 0) p = 0;
            used += p;
            if ((rc = proper__annot_best(c, ci, nk, &m))) goto done;
            it = m.good && m.nt > 1 ? proper__annot_leaf_model(c, &m, PROPER_ANNOT_PROB, -1, p)
                                    : proper__annot_leaf_dist(c, ci, nk, PROPER_ANNOT_PROB, -1, p);
            if (it < 0) { rc = proper__annot_oomc(c); goto done; }
            proper__annot_link(c, &first, &last, it);
        }
    }
    rc = proper__annot_place(c, cond, first, last, top_first, top_last);
done:
    PROPER_FREE(y);
    PROPER_FREE(cuts);
    PROPER_FREE(cl);
    PROPER_FREE(start);
    PROPER_FREE(tmp);
    return rc;
}

/* Residual sum of squares of the quadratic (else linear, else constant) on a 4 x 4 triangle. */
static double proper__annot_tri_rss(const double *R, size_t rows) {
    static const size_t cols[3] = {0, 1, 2};
    proper_annot_lsq res;
    size_t s;
    for (s = 3; s >= 1; s--)
        if (rows > s && !proper__annot_tri_solve(R, 4, cols, s, 3, rows, &res)) return res.rss;
    return 0;
}

typedef struct proper__annot_split {
    int kind;      /* 0 none, 1 branch, 2 feature */
    int f, j;
    double t;      /* feature: left is x <= t */
    size_t nl;
    double bic, rss;
    proper__annot_model ml, mr; /* the two sides' best models (their subtrees start from them) */
} proper__annot_split;

/* Partition idx by pred into left (first nl) and right; returns nl. */
static size_t proper__annot_partition(proper__annot_ctx *c, size_t *idx, size_t n, int kind, int f, double t, size_t *tmp) {
    size_t i, nl = 0, nr = 0;
    for (i = 0; i < n; i++) {
        int left = kind == 1 ? proper_annot_table_branch(c->t, c->row[idx[i]], (size_t)f) == 1
                             : c->X[(size_t)f * c->N + idx[i]] <= t;
        if (left) idx[nl++] = idx[i];
        else tmp[nr++] = idx[i];
    }
    memcpy(idx + nl, tmp, sizeof *idx * nr);
    return nl;
}

/* Two-sample Kolmogorov-Smirnov p-value of the metric on records idx[0..nl)
 * against idx[nl..n) (asymptotic, n1·n2/(n1 + n2) effective records);
 * -1 when out of memory. */
static double proper__annot_ks2_pvalue(const proper__annot_ctx *c, const size_t *idx, size_t nl, size_t n) {
    double *a = (double *)PROPER_MALLOC(sizeof *a * n), *b = a + nl, d = 0;
    size_t i, j = 0, nr = n - nl;
    if (!a) return -1;
    for (i = 0; i < n; i++) a[i] = c->Y[idx[i]];
    qsort(a, nl, sizeof *a, proper__annot_cmp_double);
    qsort(b, nr, sizeof *b, proper__annot_cmp_double);
    for (i = 0; i < nl || j < nr;) {
        /* step both empirical CDFs past the next value */
        double v = j >= nr || (i < nl && a[i] <= b[j]) ? a[i] : b[j], gap;
        while (i < nl && a[i] <= v) i++;
        while (j < nr && b[j] <= v) j++;
        gap = fabs((double)i / (double)nl - (double)j / (double)nr);
        if (gap > d) d = gap;
    }
    PROPER_FREE(a);
    return proper_stats_ks_pvalue(d, (double)nl * (double)nr / (double)n);
}

static int proper__annot_try(proper__annot_ctx *c, size_t *idx, size_t n, int kind, int f, double t, size_t *tmp,
                             const proper__annot_model *parent, proper__annot_split *best) {
    proper__annot_model ml, mr;
    size_t nl = proper__annot_partition(c, idx, n, kind, f, t, tmp);
    double bic, rss;
    int rc;
    if (nl < c->o->min_leaf || n - nl < c->o->min_leaf) return 0;
    if ((rc = proper__annot_best(c, idx, nl, &ml)) || (rc = proper__annot_best(c, idx + nl, n - nl, &mr))) return rc;
    if (!ml.nt || !mr.nt) return 0;
    bic = ml.bic + mr.bic + log((double)n);
    rss = ml.rss + mr.rss;
    /* a set without a good model is split when the BIC says so (the paper's
     * Algorithm 1); a good one only for a gain of SPLIT_GAIN per record */
    if (!(bic < parent->bic - PROPER_ANNOT_BIC_MARGIN) ||
        (parent->good && !(parent->bic - bic >= PROPER_ANNOT_SPLIT_GAIN * (double)n)))
        return 0;
    /* a good model is only replaced by two good ones (else noise that grows
     * with the metric would cut a good regression into a worse pair); a
     * branch outcome is an exact condition from the code and needs only the
     * BIC's say */
    if (kind == 2 && parent->good && !(ml.good && mr.good)) return 0;
    /* a threshold between two sides without a good model must separate
     * metric distributions that differ (two-sample KS at level alpha): on
     * input-independent data with heavy tails the sides' BIC gain can be
     * chance, and the split would only print the same distribution twice */
    if (kind == 2 && !ml.good && !mr.good) {
        double p = proper__annot_ks2_pvalue(c, idx, nl, n);
        if (p < 0) return proper__annot_oomc(c);
        if (p > c->o->alpha) return 0;
    }
    if (best->kind && !(bic < best->bic)) return 0;
    best->kind = kind;
    best->f = f;
    best->j = f;
    best->t = t;
    best->nl = nl;
    best->bic = bic;
    best->rss = rss;
    best->ml = ml;
    best->mr = mr;
    return 0;
}

/* Chunks of the x-sorted sample between consecutive boundaries B[0] = 0 <
 * .. < B[nB-1] = ns; the cut at an inner boundary k is scored by the
 * residual sums of squares of quadratic fits on both sides (triangles of
 * [1, z, z², y] merged chunk by chunk). Sets *best_k (0: no admissible cut). */
static int proper__annot_best_cut(const proper__annot_xy *v, size_t ns, const size_t *B, size_t nB, size_t minl, double *T,
                                  double *best_score, size_t *best_k) {
    double xmin = v[0].x, xr = v[ns - 1].x - v[0].x, blk[4 * 64];
    size_t k, m2, a, q2, r;
    *best_k = 0;
    for (k = 0; k + 1 < nB; k++) {
        double *Tk = T + 16 * k;
        memset(Tk, 0, sizeof *Tk * 16);
        for (r = B[k]; r < B[k + 1]; r += 64) {
            size_t Bn = B[k + 1] - r < 64 ? B[k + 1] - r : 64;
            for (q2 = 0; q2 < Bn; q2++) {
                double z = (v[r + q2].x - xmin) / xr;
                blk[q2] = 1;
                blk[Bn + q2] = z;
                blk[2 * Bn + q2] = z * z;
                blk[3 * Bn + q2] = v[r + q2].y;
            }
            proper__annot_tri_add(Tk, 4, blk, Bn);
        }
    }
    for (k = 1; k + 1 < nB; k++) {
        double L[16], Rr[16], b16[16], score;
        if (B[k] < minl || ns - B[k] < minl) continue;
        memset(L, 0, sizeof L);
        memset(Rr, 0, sizeof Rr);
        for (m2 = 0; m2 + 1 < nB; m2++) {
            double *dst = m2 < k ? L : Rr, *Tk = T + 16 * m2;
            for (a = 0; a < 4; a++)
                for (q2 = 0; q2 < 4; q2++) b16[q2 * 4 + a] = Tk[a * 4 + q2];
            proper__annot_tri_add(dst, 4, b16, 4);
        }
        score = proper__annot_tri_rss(L, B[k]) + proper__annot_tri_rss(Rr, ns - B[k]);
        if (score < *best_score) { *best_score = score; *best_k = k; }
    }
    return 0;
}

/* Sort v[0..n) by x, stably (ties keep their order): LSD radix sort in
 * four 16-bit passes on x's bits mapped to an unsigned key of the same
 * order; tmp holds n elements, cnt 65536 counters. Several times faster
 * than qsort on the 2·10^5-record samples of the threshold search. */
static uint64_t proper__annot_xkey(double x) {
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b >> 63 ? ~b : b | (uint64_t)1 << 63;
}

static void proper__annot_sort_x(proper__annot_xy *v, size_t n, proper__annot_xy *tmp, size_t *cnt) {
    int pass;
    size_t i;
    proper__annot_xy *src = v, *dst = tmp, *sw;
    for (pass = 0; pass < 4; pass++) {
        int shift = 16 * pass;
        size_t sum = 0;
        memset(cnt, 0, sizeof *cnt * 65536);
        for (i = 0; i < n; i++) cnt[proper__annot_xkey(src[i].x) >> shift & 0xffff]++;
        for (i = 0; i < 65536; i++) {
            size_t k = cnt[i];
            cnt[i] = sum;
            sum += k;
        }
        for (i = 0; i < n; i++) dst[cnt[proper__annot_xkey(src[i].x) >> shift & 0xffff]++] = src[i];
        sw = src;
        src = dst;
        dst = sw;
    }
    /* four passes: the result is back in v */
}

static int proper__annot_find_split(proper__annot_ctx *c, size_t *idx, size_t n, const proper__annot_model *parent,
                                    proper__annot_split *best) {
    size_t *tmp = (size_t *)PROPER_MALLOC(sizeof *tmp * n), i, f;
    int rc = 0;
    memset(best, 0, sizeof *best);
    if (!tmp) return proper__annot_oomc(c);
    /* branch outcomes first (exact conditions from the code) */
    if (c->o->use_branches && c->t->nbr) {
        size_t nb = 0, tries = 0, j;
        for (i = 0; i < n; i++) {
            size_t r = c->row[idx[i]], k, g = 0;
            for (k = c->t->br_off[r]; k < c->t->br_off[r + 1]; k++) g += c->t->br[k] == 2;
            if (g > nb) nb = g;
        }
        if (nb > 64) nb = 64;
        for (j = 0; j < nb && tries < PROPER_ANNOT_BRANCH_TRIES && !rc; j++) {
            size_t ones = 0;
            for (i = 0; i < n; i++) ones += proper_annot_table_branch(c->t, c->row[idx[i]], j) == 1;
            if (ones < c->o->min_leaf || n - ones < c->o->min_leaf) continue;
            tries++;
            rc = proper__annot_try(c, idx, n, 1, (int)j, 0, tmp, parent, best);
        }
    }
    /* then feature thresholds, scored on a sample */
    if (!rc && !best->kind && c->nf) {
        size_t ns = n < PROPER_ANNOT_SAMPLE ? n : PROPER_ANNOT_SAMPLE;
        proper__annot_xy *v = (proper__annot_xy *)PROPER_MALLOC(sizeof *v * ns);
        proper__annot_xy *vt = (proper__annot_xy *)PROPER_MALLOC(sizeof *vt * ns);
        size_t *cnt = (size_t *)PROPER_MALLOC(sizeof *cnt * 65536);
        double *T = (double *)PROPER_MALLOC(sizeof *T * 16 * (PROPER_ANNOT_CUTS + 3)), ys = proper__annot_ymax(c, idx, n);
        size_t minl = (size_t)((double)c->o->min_leaf * (double)ns / (double)n);
        double bestscore = INFINITY, bt = 0;
        int bf = -1;
        if (minl < 4) minl = 4;
        if (!v || !T || !vt || !cnt) {
            PROPER_FREE(v); PROPER_FREE(vt); PROPER_FREE(cnt); PROPER_FREE(T); PROPER_FREE(tmp);
            return proper__annot_oomc(c);
        }
        for (f = 0; f < c->nf; f++) {
            size_t B[PROPER_ANNOT_CUTS + 3], nB, k, pos = 0, lo, hi, level;
            double score = INFINITY;
            for (i = 0; i < ns; i++) {
                size_t r = ns < n ? idx[proper_rng_below(&c->rng, n)] : idx[i];
                v[i].x = c->X[f * c->N + r];
                v[i].y = c->Y[r] / ys;
                v[i].i = r;
            }
            proper__annot_sort_x(v, ns, vt, cnt);
            if (!(v[ns - 1].x > v[0].x)) continue;
            /* coarse cuts at quantiles, then twice more within the best one's
             * neighbouring chunks */
            lo = 0;
            hi = ns;
            for (level = 0; level < 3; level++) {
                size_t K = PROPER_ANNOT_CUTS, w = hi - lo;
                nB = 0;
                B[nB++] = 0;
                if (lo > 0) B[nB++] = lo;
                for (k = 1; k < K; k++) {
                    size_t p2 = lo + k * w / K;
                    while (p2 < hi && p2 > 0 && v[p2 - 1].x == v[p2].x) p2++;
                    if (p2 > B[nB - 1] && p2 < ns) B[nB++] = p2;
                }
                if (hi < ns && hi > B[nB - 1]) B[nB++] = hi;
                B[nB++] = ns;
                if (proper__annot_best_cut(v, ns, B, nB, minl, T, &score, &k) || k == 0) break;
                pos = B[k];
                lo = B[k - 1];
                hi = B[k + 1];
                if (hi - lo < 2 * PROPER_ANNOT_CUTS) break;
            }
            if (pos > 0 && score < bestscore) { bestscore = score; bf = (int)f; bt = v[pos - 1].x; }
        }
        PROPER_FREE(v);
        PROPER_FREE(vt);
        PROPER_FREE(cnt);
        PROPER_FREE(T);
        if (bf >= 0) rc = proper__annot_try(c, idx, n, 2, bf, bt, tmp, parent, best);
    }
    if (!rc && best->kind) proper__annot_partition(c, idx, n, best->kind, best->f, best->t, tmp);
    PROPER_FREE(tmp);
    return rc;
}

/* known: the best model of idx[0..n) when the split above computed it, or NULL. */
static int proper__annot_tree(proper__annot_ctx *c, size_t *idx, size_t n, const proper__annot_path *path, int depth,
                              const proper__annot_model *known, int *first, int *last) {
    proper__annot_model m;
    proper__annot_split s;
    int rc, cond;
    if (known) m = *known;
    else if ((rc = proper__annot_best(c, idx, n, &m))) return rc;
    s.kind = 0;
    if (depth < c->o->max_depth && depth < PROPER__ANNOT_PATH_MAX && n >= 2 * c->o->min_leaf &&
        (rc = proper__annot_find_split(c, idx, n, &m, &s)))
        return rc;
    if (s.kind) {
        proper__annot_path pl = *path, pr = *path;
        size_t f;
        int f_sep = -1;
        double t = 0;
        if (s.kind == 2) { f_sep = s.f; t = s.t; }
        else {
            /* a branch split: name it by a feature threshold when one separates the sides */
            for (f = 0; f < c->nf && f_sep < 0; f++) {
                double lmax = -INFINITY, lmin = INFINITY, rmax = -INFINITY, rmin = INFINITY;
                size_t i;
                for (i = 0; i < n; i++) {
                    double v = c->X[f * c->N + idx[i]];
                    if (i < s.nl) { if (v > lmax) lmax = v; if (v < lmin) lmin = v; }
                    else { if (v > rmax) rmax = v; if (v < rmin) rmin = v; }
                }
                if (lmax < rmin) { f_sep = (int)f; t = lmax; }
                else if (rmax < lmin) {
                    /* right side is below: swap the halves so that left is x <= t */
                    size_t *tmp2 = (size_t *)PROPER_MALLOC(sizeof *tmp2 * n);
                    if (!tmp2) return proper__annot_oomc(c);
                    memcpy(tmp2, idx + s.nl, sizeof *idx * (n - s.nl));
                    memcpy(tmp2 + (n - s.nl), idx, sizeof *idx * s.nl);
                    memcpy(idx, tmp2, sizeof *idx * n);
                    PROPER_FREE(tmp2);
                    s.nl = n - s.nl;
                    {
                        proper__annot_model sw = s.ml;
                        s.ml = s.mr;
                        s.mr = sw;
                    }
                    f_sep = (int)f;
                    t = rmax;
                }
            }
        }
        if (f_sep >= 0) {
            pl.hashi[f_sep] = 1;
            pl.hi[f_sep] = pl.hashi[f_sep] && path->hashi[f_sep] && path->hi[f_sep] < t ? path->hi[f_sep] : t;
            pr.haslo[f_sep] = 1;
            pr.lo[f_sep] = path->haslo[f_sep] && path->lo[f_sep] > t ? path->lo[f_sep] : t;
        } else {
            pl.br[pl.nbr] = s.j; pl.brv[pl.nbr++] = 1;
            pr.br[pr.nbr] = s.j; pr.brv[pr.nbr++] = 0;
        }
        if ((rc = proper__annot_tree(c, idx, s.nl, &pl, depth + 1, &s.ml, first, last))) return rc;
        return proper__annot_tree(c, idx + s.nl, n - s.nl, &pr, depth + 1, &s.mr, first, last);
    }
    cond = proper__annot_path_cond(c, path);
    if (cond == -2) return proper__annot_oomc(c);
    if (m.good) {
        int it = proper__annot_leaf_model(c, &m, cond == -1 ? PROPER_ANNOT_NONE : PROPER_ANNOT_COND, cond, 0);
        if (it < 0) return proper__annot_oomc(c);
        proper__annot_link(c, first, last, it);
        return 0;
    }
    return proper__annot_alg2(c, idx, n, cond, first, last);
}

/* ---- Copying functions between annotations ---- */

static int proper__annot_copy_expr(proper_annot *dst, const proper_annot *src, int e) {
    const proper_annot_expr *x;
    int a = -1, b = -1, r;
    if (e < 0) return -1;
    x = &src->ex[e];
    if (x->a >= 0 && (a = proper__annot_copy_expr(dst, src, x->a)) < 0) return -2;
    if (x->b >= 0 && (b = proper__annot_copy_expr(dst, src, x->b)) < 0) return -2;
    if (x->kind == PROPER_ANNOT_VAR) {
        const char *nm = src->names.names[x->var];
        return proper__annot_var(dst, nm, strlen(nm));
    }
    r = proper__annot_node(dst, x->kind, a, b);
    if (r >= 0) {
        dst->ex[r].value = x->value;
        dst->ex[r].fn = x->fn;
    }
    return r;
}

static int proper__annot_copy_body(proper_annot *dst, const proper_annot *src, int it) {
    int first = -1, last = -1;
    for (; it >= 0; it = src->it[it].next) {
        proper_annot_item x = src->it[it];
        int n;
        if (x.cond >= 0 && (x.cond = proper__annot_copy_expr(dst, src, x.cond)) < 0) return -2;
        if (x.arg[0] >= 0 && (x.arg[0] = proper__annot_copy_expr(dst, src, x.arg[0])) < 0) return -2;
        if (x.arg[1] >= 0 && (x.arg[1] = proper__annot_copy_expr(dst, src, x.arg[1])) < 0) return -2;
        if (x.child >= 0 && (x.child = proper__annot_copy_body(dst, src, x.child)) < 0) return -2;
        if ((n = proper__annot_item(dst)) < 0) return -2;
        x.next = -1;
        dst->it[n] = x;
        if (last < 0) first = n;
        else dst->it[last].next = n;
        last = n;
    }
    return first;
}

/* Append a copy of src's function f to dst; 0 or PROPER_ENOMEM. */
static int proper__annot_copy_fn(proper_annot *dst, const proper_annot *src, const proper_annot_fn *f) {
    proper_annot_fn g;
    size_t k, cap = dst->cap_fns;
    memset(&g, 0, sizeof g);
    g.name = proper_strdup(f->name);
    g.metric = proper_strdup(f->metric);
    g.params = (char **)proper_calloc(f->n_params ? f->n_params : 1, sizeof *g.params);
    g.decls = (proper_annot_decl *)proper_calloc(f->n_decls ? f->n_decls : 1, sizeof *g.decls);
    if (!g.name || !g.metric || !g.params || !g.decls) goto fail;
    for (k = 0; k < f->n_params; k++, g.n_params++)
        if (!(g.params[k] = proper_strdup(f->params[k]))) goto fail;
    for (k = 0; k < f->n_decls; k++, g.n_decls++) {
        g.decls[k].type = proper_strdup(f->decls[k].type);
        g.decls[k].name = proper_strdup(f->decls[k].name);
        g.decls[k].text = f->decls[k].text ? proper_strdup(f->decls[k].text) : NULL;
        if (!g.decls[k].type || !g.decls[k].name || (f->decls[k].text && !g.decls[k].text)) { g.n_decls++; goto fail; }
    }
    g.filter = f->filter;
    g.n_kept = f->n_kept;
    g.n_log = f->n_log;
    if (f->filter_feature && !(g.filter_feature = proper_strdup(f->filter_feature))) goto fail;
    if ((g.body = proper__annot_copy_body(dst, src, f->body)) < 0) goto fail;
    if (proper_reserve(&dst->fns, &cap, dst->n_fns + 1, sizeof *dst->fns)) goto fail;
    dst->cap_fns = cap;
    dst->fns[dst->n_fns++] = g;
    return 0;
fail:
    proper__annot_fn_free(&g);
    return PROPER_ENOMEM;
}

/* ---- The fit ---- */

static double proper__annot_corr(const double *R, size_t q, size_t i, size_t j) {
    double d = 0, ni = 0, nj = 0;
    size_t r;
    for (r = 1; r < q; r++) {
        double a = r <= i ? R[r * q + i] : 0, b = r <= j ? R[r * q + j] : 0;
        d += a * b;
        ni += a * a;
        nj += b * b;
    }
    return ni > 0 && nj > 0 ? d / sqrt(ni * nj) : 0;
}

/* Records of the body's distributions that are regressions on features
 * (*all: records of all its distributions). */
static size_t proper__annot_regression_records(const proper_annot *a, int first, size_t *all) {
    size_t n = 0;
    int i;
    for (i = first; i >= 0; i = a->it[i].next) {
        const proper_annot_item *x = &a->it[i];
        if (x->dist == PROPER_ANNOT_GROUP) n += proper__annot_regression_records(a, x->child, all);
        else {
            *all += x->n_obs;
            if (x->cls >= PROPER_ANNOT_LINEAR && x->cls <= PROPER_ANNOT_QUADRATIC) n += x->n_obs;
        }
    }
    return n;
}

/* 1 when regressions hold at least half of the body's records. */
static int proper__annot_has_regression(const proper_annot *a, int first) {
    size_t all = 0, n = proper__annot_regression_records(a, first, &all);
    return n > 0 && 2 * n >= all;
}

static const char *const proper__annot_pairs[][2] = {
    {"begin", "end"}, {"first", "last"}, {"start", "stop"}, {"start", "finish"}};

/* The candidate features of table t for metric column ycol: every column
 * but the metrics, then the derived spans (P end - P begin, ...). a[i] is
 * the column, b[i] the column subtracted or (size_t)-1; names allocated.
 * On failure (out of memory) whatever was allocated is in the outputs for
 * the caller to free. */
static int proper__annot_candidates(const proper_annot_table *t, size_t ycol, size_t **a, size_t **b, char ***names,
                                    size_t *n) {
    size_t i, j, k;
    *n = 0;
    *a = (size_t *)PROPER_MALLOC(sizeof **a * (t->ncol * 2 + 1));
    *b = (size_t *)PROPER_MALLOC(sizeof **b * (t->ncol * 2 + 1));
    *names = (char **)proper_calloc(t->ncol * 2 + 1, sizeof **names);
    if (!*a || !*b || !*names) return PROPER_ENOMEM;
    for (i = 0; i < t->ncol; i++) {
        if (i == ycol || t->is_metric[i]) continue;
        (*a)[*n] = i;
        (*b)[*n] = (size_t)-1;
        if (!((*names)[*n] = proper_strdup(t->cols[i]))) return PROPER_ENOMEM;
        ++*n;
    }
    for (i = 0; i < t->ncol; i++) {
        for (k = 0; k < 4; k++) {
            const char *lo = proper__annot_pairs[k][0], *hi = proper__annot_pairs[k][1];
            size_t ln = strlen(t->cols[i]), pl;
            if (i == ycol || t->is_metric[i] || ln < strlen(lo) || strcmp(t->cols[i] + ln - strlen(lo), lo)) continue;
            pl = ln - strlen(lo);
            for (j = 0; j < t->ncol; j++) {
                char name[PROPER_ANNOT_NAME_MAX + 8];
                if (j == ycol || t->is_metric[j] || strlen(t->cols[j]) != pl + strlen(hi) ||
                    strncmp(t->cols[j], t->cols[i], pl) || strcmp(t->cols[j] + pl, hi))
                    continue;
                snprintf(name, sizeof name, "%.*sspan", (int)pl, t->cols[i]);
                if (proper_annot_table_column(t, name) != (size_t)-1) continue;
                (*a)[*n] = j;
                (*b)[*n] = i;
                if (!((*names)[*n] = proper_strdup(name))) return PROPER_ENOMEM;
                ++*n;
            }
        }
    }
    return 0;
}

PROPER_API int proper_annot_fit(proper_annot *out, const proper_annot_table *t, const char *metric,
                                const proper_annot_opts *opts, proper_error *err) {
    proper_annot_opts o = opts ? *opts : proper_annot_opts_default();
    proper__annot_ctx c;
    proper_annot tmp, merged;
    size_t ycol, ncand = 0, i, j, k, N = 0, *idx = NULL, *cand_a = NULL, *cand_b = NULL;
    char **cand_name = NULL;
    double *cx = NULL, *R = NULL, *corr_y = NULL;
    int *keep = NULL, rc = 0, first = -1, last = -1;
    unsigned char *sel = NULL;
    proper__annot_path path;
    proper_annot_fn fn;
    if (o.min_leaf < 4) o.min_leaf = 4;
    if (o.max_depth < 0) o.max_depth = 0;
    memset(&c, 0, sizeof c);
    memset(&fn, 0, sizeof fn);
    proper_annot_init(&tmp);
    proper_annot_init(&merged);
    ycol = proper_annot_table_column(t, metric);
    if (ycol == (size_t)-1)
        return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "function '%s' has no column '%s'", t->name, metric);
    if (strchr(metric, '.'))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "metric '%s': an annotation's metric is what follows the last '.', so it cannot hold one",
                                metric);
    if (t->n == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "function '%s' has no records", t->name);
    if (proper__annot_candidates(t, ycol, &cand_a, &cand_b, &cand_name, &ncand)) goto oom;
    /* records, after the optional heuristics on the first feature */
    sel = (unsigned char *)PROPER_MALLOC(t->n);
    if (!sel) goto oom;
    memset(sel, 1, t->n);
    if ((o.envelope || o.dominant) && ncand) {
        double *xv = (double *)PROPER_MALLOC(sizeof *xv * t->n), *yv = (double *)PROPER_MALLOC(sizeof *yv * t->n);
        size_t hf = 0;
        if (!xv || !yv) { PROPER_FREE(xv); PROPER_FREE(yv); goto oom; }
        if (o.heuristic_feature) {
            for (hf = 0; hf < ncand && strcmp(cand_name[hf], o.heuristic_feature) != 0; hf++) {
            }
            if (hf == ncand) {
                PROPER_FREE(xv);
                PROPER_FREE(yv);
                rc = proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "function '%s' has no feature '%s'", t->name, o.heuristic_feature);
                goto done;
            }
        }
        for (i = 0; i < t->n; i++) {
            xv[i] = t->v[i * t->ncol + cand_a[hf]] - (cand_b[hf] == (size_t)-1 ? 0 : t->v[i * t->ncol + cand_b[hf]]);
            yv[i] = t->v[i * t->ncol + ycol];
        }
        rc = o.envelope ? proper_annot_lower_envelope(xv, yv, t->n, sel, err) : proper_annot_dominant(xv, yv, t->n, sel, err);
        PROPER_FREE(xv);
        PROPER_FREE(yv);
        if (rc) goto done;
        fn.filter = o.envelope ? PROPER_ANNOT_ENVELOPE : PROPER_ANNOT_DOMINANT;
        if (!(fn.filter_feature = proper_strdup(cand_name[hf]))) goto oom;
    }
    for (i = 0; i < t->n; i++) N += sel[i];
    fn.n_kept = N;
    fn.n_log = t->n;
    c.o = &o;
    c.N = N;
    c.t = t;
    c.err = err;
    c.A = &tmp;
    proper_rng_seed(&c.rng, o.seed);
    c.row = (size_t *)PROPER_MALLOC(sizeof *c.row * N);
    c.Y = (double *)PROPER_MALLOC(sizeof *c.Y * N);
    cx = (double *)PROPER_MALLOC(sizeof *cx * (N * (ncand ? ncand : 1)));
    idx = (size_t *)PROPER_MALLOC(sizeof *idx * N);
    keep = (int *)proper_calloc(ncand + 1, sizeof *keep);
    corr_y = (double *)proper_calloc(ncand + 1, sizeof *corr_y);
    if (!c.row || !c.Y || !cx || !idx || !keep || !corr_y) goto oom;
    for (i = 0, k = 0; i < t->n; i++) {
        if (!sel[i]) continue;
        c.row[k] = i;
        c.Y[k] = t->v[i * t->ncol + ycol];
        for (j = 0; j < ncand; j++) {
            double v = t->v[i * t->ncol + cand_a[j]];
            if (cand_b[j] != (size_t)-1) v -= t->v[i * t->ncol + cand_b[j]];
            cx[j * N + k] = v;
        }
        idx[k] = k;
        k++;
    }
    /* clean-up: drop constant (or non-finite) features, group correlated ones */
    for (j = 0; j < ncand; j++) {
        double mn = INFINITY, mx = -INFINITY;
        keep[j] = 1;
        for (i = 0; i < N; i++) {
            double v = cx[j * N + i];
            if (!isfinite(v)) { keep[j] = 0; break; }
            if (v < mn) mn = v;
            if (v > mx) mx = v;
        }
        if (!(mx > mn)) keep[j] = 0;
    }
    if (ncand && N >= 3) {
        size_t q = ncand + 2, ns = N < PROPER_ANNOT_SAMPLE ? N : PROPER_ANNOT_SAMPLE;
        double *blk = (double *)PROPER_MALLOC(sizeof *blk * q * 64), *sc = (double *)proper_calloc(q, sizeof *sc);
        R = (double *)proper_calloc(q * q, sizeof *R);
        if (!blk || !sc || !R) { PROPER_FREE(blk); PROPER_FREE(sc); goto oom; }
        for (i = 0; i < N; i++) {
            for (j = 0; j < ncand; j++)
                if (keep[j] && fabs(cx[j * N + i]) > sc[j + 1]) sc[j + 1] = fabs(cx[j * N + i]);
            if (fabs(c.Y[i]) > sc[q - 1]) sc[q - 1] = fabs(c.Y[i]);
        }
        for (j = 0; j < q; j++)
            if (!(sc[j] > 0)) sc[j] = 1;
        for (i = 0; i < ns; i += 64) {
            size_t B = ns - i < 64 ? ns - i : 64, r;
            for (r = 0; r < B; r++) {
                size_t rec = ns < N ? (size_t)((double)(i + r) * (double)N / (double)ns) : i + r;
                blk[r] = 1;
                for (j = 0; j < ncand; j++) blk[(j + 1) * B + r] = keep[j] ? cx[j * N + rec] / sc[j + 1] : 0;
                blk[(q - 1) * B + r] = c.Y[rec] / sc[q - 1];
            }
            proper__annot_tri_add(R, q, blk, B);
        }
        PROPER_FREE(blk);
        PROPER_FREE(sc);
        for (j = 0; j < ncand; j++) corr_y[j] = keep[j] ? fabs(proper__annot_corr(R, q, j + 1, q - 1)) : 0;
        /* groups: each kept feature joins the first earlier leader it correlates with */
        for (j = 0; j < ncand; j++) {
            if (!keep[j]) continue;
            for (k = 0; k < j; k++) {
                if (keep[k] != 1) continue; /* leaders only */
                if (fabs(proper__annot_corr(R, q, j + 1, k + 1)) >= o.corr) {
                    keep[j] = -(int)k - 2; /* member of k's group */
                    break;
                }
            }
        }
        /* the representative of a group is its member most correlated with y */
        for (k = 0; k < ncand; k++) {
            size_t rep = k;
            if (keep[k] != 1) continue;
            for (j = k + 1; j < ncand; j++)
                if (keep[j] == -(int)k - 2 && corr_y[j] > corr_y[rep] + 1e-9) rep = j;
            if (rep != k) { keep[rep] = 1; keep[k] = 0; }
            for (j = k + 1; j < ncand; j++)
                if (keep[j] == -(int)k - 2) keep[j] = 0;
        }
    } else {
        for (j = 0; j < ncand; j++) keep[j] = 0;
    }
    /* at most PROPER_ANNOT_MAX_FEATURES, the most correlated with y */
    c.name = (char **)proper_calloc(PROPER_ANNOT_MAX_FEATURES, sizeof *c.name);
    c.X = (double *)PROPER_MALLOC(sizeof *c.X * (N * PROPER_ANNOT_MAX_FEATURES));
    if (!c.name || !c.X) goto oom;
    for (;;) {
        size_t bj = (size_t)-1;
        for (j = 0; j < ncand; j++)
            if (keep[j] == 1 && (bj == (size_t)-1 || corr_y[j] > corr_y[bj])) bj = j;
        if (bj == (size_t)-1 || c.nf == PROPER_ANNOT_MAX_FEATURES) break;
        keep[bj] = 2;
        c.name[c.nf] = cand_name[bj];
        memcpy(c.X + c.nf * N, cx + bj * N, sizeof *c.X * N);
        c.nf++;
    }
    /* keep the table's column order among the kept features for stable output */
    for (i = 0; i < c.nf; i++) {
        double mx = 0, mn = INFINITY;
        for (k = 0; k < N; k++) {
            double v = c.X[i * N + k];
            if (fabs(v) > mx) mx = fabs(v);
            if (v < mn) mn = v;
        }
        c.sx[i] = mx > 0 ? mx : 1;
        c.nonneg[i] = mn >= 0;
    }
    c.nprod = c.nf < PROPER_ANNOT_PRODUCTS ? c.nf : PROPER_ANNOT_PRODUCTS;
    for (i = 0; i < c.nprod; i++) c.prod[i] = (int)i; /* kept features are ordered by |r| with y */
    /* the function */
    fn.name = proper_strdup(t->name);
    fn.metric = proper_strdup(metric);
    fn.params = (char **)proper_calloc(c.nf ? c.nf : 1, sizeof *fn.params);
    if (!fn.name || !fn.metric || !fn.params) goto oom;
    for (i = 0; i < c.nf; i++, fn.n_params++)
        if (!(fn.params[i] = proper_strdup(c.name[i]))) goto oom;
    memset(&path, 0, sizeof path);
    if (N < 3) {
        proper__annot_model m;
        memset(&m, 0, sizeof m);
        m.nt = 1;
        m.t[0].kind = PROPER__ANNOT_ONE;
        m.n = N;
        for (i = 0; i < N; i++) m.coef[0] += c.Y[i] / (double)N;
        m.sigma = N == 2 ? fabs(c.Y[1] - c.Y[0]) / sqrt(2.0) : 0;
        m.r2 = NAN;
        first = proper__annot_leaf_model(&c, &m, PROPER_ANNOT_NONE, -1, 0);
        if (first < 0) goto oom;
    } else if ((rc = proper__annot_tree(&c, idx, N, &path, 0, NULL, &first, &last))) {
        goto done;
    }
    fn.body = first;
    /* never a silent wrong fit: every printed number must be finite */
    for (k = 0; k < tmp.n_ex; k++)
        if (tmp.ex[k].kind == PROPER_ANNOT_NUM && !isfinite(tmp.ex[k].value)) {
            rc = proper_error_set(err, PROPER_ERANGE, NULL, 0, 0,
                                  "function '%s': the metric's values are too large to fit (a parameter overflows)", t->name);
            goto done;
        }
    /* §3.2 "Further Refinements": when no scope is a regression, try the
     * dominant cluster per value of each feature that repeats (at most N/4
     * distinct values); the first that gives a regression replaces the fit */
    if (o.heuristics && !o.envelope && !o.dominant && N >= 4 * o.min_leaf && !proper__annot_has_regression(&tmp, first)) {
        for (i = 0; i < c.nf; i++) {
            proper_annot_opts o2 = o;
            proper_annot h;
            double *xs = (double *)PROPER_MALLOC(sizeof *xs * N);
            size_t distinct = 1;
            if (!xs) goto oom;
            memcpy(xs, c.X + i * N, sizeof *xs * N);
            qsort(xs, N, sizeof *xs, proper__annot_cmp_double);
            for (k = 1; k < N; k++) distinct += xs[k] != xs[k - 1];
            PROPER_FREE(xs);
            if (distinct > N / 4) continue;
            o2.dominant = 1;
            o2.heuristics = 0;
            o2.heuristic_feature = c.name[i];
            proper_annot_init(&h);
            if ((rc = proper_annot_fit(&h, t, metric, &o2, err))) { proper_annot_free(&h); goto done; }
            if (proper__annot_has_regression(&h, h.fns[0].body)) {
                for (k = 0; k < out->n_fns; k++)
                    if (proper__annot_copy_fn(&merged, out, &out->fns[k])) { proper_annot_free(&h); goto oom; }
                if (proper__annot_copy_fn(&merged, &h, &h.fns[0])) { proper_annot_free(&h); goto oom; }
                proper_annot_free(&h);
                proper_annot_free(out);
                *out = merged;
                proper_annot_init(&merged);
                goto done;
            }
            proper_annot_free(&h);
        }
    }
    {
        size_t cap = 0;
        if (proper_reserve(&tmp.fns, &cap, 1, sizeof *tmp.fns)) goto oom;
        tmp.cap_fns = cap;
        tmp.fns[tmp.n_fns++] = fn;
        memset(&fn, 0, sizeof fn);
    }
    for (i = 0; i < out->n_fns; i++)
        if (proper__annot_copy_fn(&merged, out, &out->fns[i])) goto oom;
    if (proper__annot_copy_fn(&merged, &tmp, &tmp.fns[0])) goto oom;
    proper_annot_free(out);
    *out = merged;
    proper_annot_init(&merged);
    goto done;
oom:
    rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
done:
    proper__annot_fn_free(&fn);
    proper_annot_free(&tmp);
    proper_annot_free(&merged);
    proper__annot_strs_free(cand_name, ncand);
    PROPER_FREE(cand_a);
    PROPER_FREE(cand_b);
    PROPER_FREE(sel);
    PROPER_FREE(c.row);
    PROPER_FREE(c.Y);
    PROPER_FREE(c.X);
    PROPER_FREE(c.name);
    PROPER_FREE(cx);
    PROPER_FREE(idx);
    PROPER_FREE(keep);
    PROPER_FREE(corr_y);
    PROPER_FREE(R);
    return rc;
}

/* ---- Checking ---------------------------------------------------------------------- */

/* ---- Sufficient statistics ---- */

/* The unit of an exact sum's lowest bit is 2^PROPER__ANNOT_XLSB. */
#define PROPER__ANNOT_XLSB (-384)
/* Values the exact statistics accept: 0 or of magnitude within these. */
#define PROPER__ANNOT_XMIN 5.421010862427522e-20 /* 2^-64 */
#define PROPER__ANNOT_XMAX 1.8446744073709552e19 /* 2^64 */

/* x += d exactly. d's bits must lie within the accumulator (see the range
 * argument in the header: products of terms have bits from 2^-360 up). */
static void proper__annot_xadd_double(proper_annot_xsum *x, double d) {
    uint64_t bits, m, lo, hi, carry;
    int e, pos, limb, off;
    if (d == 0) return;
    memcpy(&bits, &d, sizeof bits);
    e = (int)((bits >> 52) & 0x7ff);
    m = bits & (((uint64_t)1 << 52) - 1);
    if (e) m |= (uint64_t)1 << 52;
    else e = 1;
    pos = e - 1075 - PROPER__ANNOT_XLSB; /* d = m · 2^(e - 1075) */
    limb = pos >> 6;
    off = pos & 63;
    lo = m << off;
    hi = off ? m >> (64 - off) : 0;
    if (!(bits >> 63)) {
        uint64_t t = x->w[limb] + lo;
        carry = t < lo;
        x->w[limb] = t;
        for (limb++; limb < PROPER_ANNOT_XLIMBS && (hi || carry); limb++) {
            uint64_t a = x->w[limb] + hi, c1 = a < hi, b = a + carry;
            carry = c1 | (b < a);
            x->w[limb] = b;
            hi = 0;
        }
    } else {
        uint64_t t = x->w[limb] - lo;
        carry = x->w[limb] < lo; /* borrow */
        x->w[limb] = t;
        for (limb++; limb < PROPER_ANNOT_XLIMBS && (hi || carry); limb++) {
            uint64_t a = x->w[limb] - hi, c1 = x->w[limb] < hi, b = a - carry;
            carry = c1 | (a < carry);
            x->w[limb] = b;
            hi = 0;
        }
    }
}

/* x += a·b exactly: the product as hi + lo (both doubles, by fma). */
static void proper__annot_xadd_prod(proper_annot_xsum *x, double a, double b) {
    double hi = a * b, lo;
    if (hi == 0) return;
    lo = fma(a, b, -hi);
    proper__annot_xadd_double(x, hi);
    proper__annot_xadd_double(x, lo);
}

/* x += y; returns 1 on overflow (the sign flips where it cannot). */
static int proper__annot_xadd(proper_annot_xsum *x, const proper_annot_xsum *y) {
    uint64_t carry = 0;
    int k, sx = (int)(x->w[PROPER_ANNOT_XLIMBS - 1] >> 63), sy = (int)(y->w[PROPER_ANNOT_XLIMBS - 1] >> 63);
    for (k = 0; k < PROPER_ANNOT_XLIMBS; k++) {
        uint64_t a = x->w[k] + y->w[k], c1 = a < y->w[k], b = a + carry;
        carry = c1 | (b < a);
        x->w[k] = b;
    }
    return sx == sy && (int)(x->w[PROPER_ANNOT_XLIMBS - 1] >> 63) != sx;
}

static int proper__annot_xneg(const proper_annot_xsum *x) { return (int)(x->w[PROPER_ANNOT_XLIMBS - 1] >> 63); }

/* -2^319 <= x < 2^320: the sums of at most 2^63 records lie within ±2^319
 * (no product of two terms exceeds 2^256), so that merging valid
 * statistics stays far inside the accumulator: the top limb holds only
 * sign bits. */
static int proper__annot_xsum_ok(const proper_annot_xsum *x) {
    uint64_t top = x->w[PROPER_ANNOT_XLIMBS - 1];
    return top == 0 || (top == ~(uint64_t)0 && (x->w[PROPER_ANNOT_XLIMBS - 2] >> 63));
}

/* |x| as an unsigned magnitude. */
static void proper__annot_xabs(const proper_annot_xsum *x, uint64_t *m) {
    int k;
    uint64_t carry = 1;
    if (!proper__annot_xneg(x)) {
        memcpy(m, x->w, sizeof x->w);
        return;
    }
    for (k = 0; k < PROPER_ANNOT_XLIMBS; k++) {
        m[k] = ~x->w[k] + carry;
        carry = carry && m[k] == 0;
    }
}

/* The sum rounded to long double (from its three highest non-zero limbs). */
static long double proper__annot_xld(const proper_annot_xsum *x) {
    uint64_t m[PROPER_ANNOT_XLIMBS];
    long double v = 0;
    int k, top = -1;
    proper__annot_xabs(x, m);
    for (k = PROPER_ANNOT_XLIMBS - 1; k >= 0 && top < 0; k--)
        if (m[k]) top = k;
    for (k = top; k >= 0 && k > top - 3; k--) v += ldexpl((long double)m[k], 64 * k + PROPER__ANNOT_XLSB);
    return proper__annot_xneg(x) ? -v : v;
}

/* 0 or [-]0xHpE with H odd. */
static void proper__annot_xformat(proper_strbuf *b, const proper_annot_xsum *x) {
    uint64_t m[PROPER_ANNOT_XLIMBS];
    int k, low = -1, high = -1, bit, e;
    proper__annot_xabs(x, m);
    for (k = 0; k < PROPER_ANNOT_XLIMBS; k++)
        if (m[k]) {
            if (low < 0) low = k;
            high = k;
        }
    if (low < 0) {
        proper_strbuf_puts(b, "0");
        return;
    }
    for (bit = 0; !(m[low] >> bit & 1); bit++) {
    }
    e = 64 * low + bit; /* the lowest set bit */
    proper_strbuf_puts(b, proper__annot_xneg(x) ? "-0x" : "0x");
    {
        /* H = m >> e, printed from its highest nibble */
        int top = 64 * high + 63, started = 0, pos;
        while (!(m[top >> 6] >> (top & 63) & 1)) top--;
        for (pos = e + ((top - e) / 4) * 4; pos >= e; pos -= 4) {
            int nib = 0, j;
            for (j = 3; j >= 0; j--) {
                int p2 = pos + j;
                nib = nib << 1 | (p2 <= top ? (int)(m[p2 >> 6] >> (p2 & 63) & 1) : 0);
            }
            if (nib || started) {
                proper_strbuf_printf(b, "%x", nib);
                started = 1;
            }
        }
    }
    proper_strbuf_printf(b, "p%d", e + PROPER__ANNOT_XLSB);
}

static int proper__annot_hexval(int ch) {
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/* Parse a sum at the cursor (see the grammar). */
static int proper__annot_xparse(proper_cursor *c, proper_annot_xsum *x, proper_error *err) {
    proper_cursor at;
    const char *h;
    size_t nh = 0, i;
    long long e;
    int neg = 0;
    memset(x, 0, sizeof *x);
    proper_cursor_skip_blanks(c);
    at = *c;
    if (c->p < c->end && *c->p == '0' && (c->p + 1 == c->end || c->p[1] == ' ' || c->p[1] == '\t' || c->p[1] == '\r' || c->p[1] == '\n')) {
        proper_cursor_advance(c);
        return 0;
    }
    if (c->p < c->end && *c->p == '-') { neg = 1; proper_cursor_advance(c); }
    if (c->end - c->p < 2 || c->p[0] != '0' || (c->p[1] != 'x' && c->p[1] != 'X'))
        return proper_cursor_error(&at, err, PROPER_EPARSE, "expected a sum (0 or [-]0xHEXpEXP)");
    proper_cursor_advance(c);
    proper_cursor_advance(c);
    h = c->p;
    while (c->p < c->end && proper__annot_hexval((unsigned char)*c->p) >= 0) { proper_cursor_advance(c); nh++; }
    if (!nh || c->p >= c->end || (*c->p != 'p' && *c->p != 'P'))
        return proper_cursor_error(c, err, PROPER_EPARSE, "expected hexadecimal digits and 'p' in a sum");
    proper_cursor_advance(c);
    if (c->p >= c->end || !((*c->p >= '0' && *c->p <= '9') || *c->p == '-'))
        return proper_cursor_error(c, err, PROPER_EPARSE, "expected the exponent of a sum");
    if (proper_parse_int(c, &e, err)) return err ? err->code : PROPER_EPARSE;
    while (nh > 1 && *h == '0') { h++; nh--; }
    /* the value must fit below 2^383 with its lowest bit at or above 2^-384 */
    if (e < PROPER__ANNOT_XLSB || e > 383 || e + 4 * (long long)nh > 383 + 4)
        return proper_cursor_error(&at, err, PROPER_ERANGE, "sum outside the range of exact statistics (2^-384 .. 2^383)");
    for (i = 0; i < nh; i++) {
        int v = proper__annot_hexval((unsigned char)h[nh - 1 - i]), j;
        for (j = 0; j < 4; j++)
            if (v >> j & 1) {
                long long p2 = e - PROPER__ANNOT_XLSB + 4 * (long long)i + j;
                if (p2 >= 64 * PROPER_ANNOT_XLIMBS - 1)
                    return proper_cursor_error(&at, err, PROPER_ERANGE, "sum outside the range of exact statistics (2^-384 .. 2^383)");
                x->w[p2 >> 6] |= (uint64_t)1 << (p2 & 63);
            }
    }
    if (neg) {
        uint64_t carry = 1;
        int k;
        for (k = 0; k < PROPER_ANNOT_XLIMBS; k++) {
            x->w[k] = ~x->w[k] + carry;
            carry = carry && x->w[k] == 0;
        }
    }
    return 0;
}

/* Index of S[i][j] (i <= j) in the row-by-row upper triangle of q terms. */
static size_t proper__annot_tri_index(size_t q, size_t i, size_t j) { return i * q - i * (i - 1) / 2 + (j - i); }

static size_t proper__annot_stats_q(size_t k) { return 3 * k + k * (k - 1) / 2 + 2; }

static void proper__annot_fstats_free(proper_annot_fstats *f) {
    PROPER_FREE(f->function);
    PROPER_FREE(f->metric);
    proper__annot_strs_free(f->feat, f->nf);
    PROPER_FREE(f->fmin);
    PROPER_FREE(f->fmax);
    PROPER_FREE(f->distinct);
    PROPER_FREE(f->ndistinct);
    PROPER_FREE(f->sum);
    memset(f, 0, sizeof *f);
}

PROPER_API void proper_annot_stats_init(proper_annot_stats *s) { memset(s, 0, sizeof *s); }

PROPER_API void proper_annot_stats_free(proper_annot_stats *s) {
    size_t i;
    for (i = 0; i < s->n; i++) proper__annot_fstats_free(&s->f[i]);
    PROPER_FREE(s->f);
    memset(s, 0, sizeof *s);
}

/* A new, empty entry for function/metric with nf features (names copied). */
static int proper__annot_fstats_new(proper_annot_fstats *f, const char *function, size_t flen, const char *metric,
                                    size_t mlen, char *const *feat, size_t nf) {
    size_t i, q = proper__annot_stats_q(nf);
    memset(f, 0, sizeof *f);
    f->function = proper_strndup(function, flen);
    f->metric = proper_strndup(metric, mlen);
    f->feat = proper__annot_strs_dup(feat, nf);
    f->nf = f->feat ? nf : 0;
    f->fmin = (double *)proper_calloc(nf ? nf : 1, sizeof *f->fmin);
    f->fmax = (double *)proper_calloc(nf ? nf : 1, sizeof *f->fmax);
    f->distinct = (double *)proper_calloc((nf ? nf : 1) * PROPER_ANNOT_MIN_DISTINCT, sizeof *f->distinct);
    f->ndistinct = (size_t *)proper_calloc(nf ? nf : 1, sizeof *f->ndistinct);
    f->sum = (proper_annot_xsum *)proper_calloc(q * (q + 1) / 2, sizeof *f->sum);
    f->q = q;
    if (!f->function || !f->metric || !f->feat || !f->fmin || !f->fmax || !f->distinct || !f->ndistinct || !f->sum) {
        proper__annot_fstats_free(f);
        return PROPER_ENOMEM;
    }
    f->ymin = INFINITY;
    f->ymax = -INFINITY;
    for (i = 0; i < nf; i++) {
        f->fmin[i] = INFINITY;
        f->fmax[i] = -INFINITY;
    }
    return 0;
}

static int proper__annot_fstats_cmp(const char *fa, const char *ma, const char *fb, const char *mb) {
    int c = strcmp(fa, fb);
    return c ? c : strcmp(ma, mb);
}

/* The entry of function/metric in s: its index, or where it goes (*found 0). */
static size_t proper__annot_stats_find(const proper_annot_stats *s, const char *function, const char *metric, int *found) {
    size_t lo = 0, hi = s->n;
    *found = 0;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = proper__annot_fstats_cmp(s->f[mid].function, s->f[mid].metric, function, metric);
        if (c == 0) {
            *found = 1;
            return mid;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Insert entry e (taken over) at position at. */
static int proper__annot_stats_insert(proper_annot_stats *s, size_t at, proper_annot_fstats *e) {
    proper_annot_fstats *g = (proper_annot_fstats *)PROPER_REALLOC(s->f, sizeof *g * (s->n + 1));
    if (!g) return PROPER_ENOMEM;
    s->f = g;
    memmove(g + at + 1, g + at, sizeof *g * (s->n - at));
    g[at] = *e;
    s->n++;
    memset(e, 0, sizeof *e);
    return 0;
}

/* Keep the PROPER_ANNOT_MIN_DISTINCT smallest distinct values (sorted). */
static void proper__annot_distinct_add(double *d, size_t *n, double v) {
    size_t i, j;
    for (i = 0; i < *n && d[i] < v; i++) {
    }
    if (i < *n && d[i] == v) return;
    if (i == PROPER_ANNOT_MIN_DISTINCT) return;
    if (*n < PROPER_ANNOT_MIN_DISTINCT) (*n)++;
    for (j = *n - 1; j > i; j--) d[j] = d[j - 1];
    d[i] = v;
}

static int proper__annot_same_features(const proper_annot_fstats *f, char *const *feat, size_t nf) {
    size_t i;
    if (f->nf != nf) return 0;
    for (i = 0; i < nf; i++)
        if (strcmp(f->feat[i], feat[i])) return 0;
    return 1;
}

/* The terms of one record: 1, x, x log x, x², products, y (see the header). */
static void proper__annot_stats_terms(const double *x, size_t k, double y, double *t) {
    size_t i, j, p = 1 + 3 * k;
    t[0] = 1;
    for (i = 0; i < k; i++) {
        t[1 + i] = x[i];
        t[1 + k + i] = x[i] > 0 ? x[i] * log(x[i]) : 0;
        t[1 + 2 * k + i] = x[i] * x[i];
    }
    for (i = 0; i < k; i++)
        for (j = i + 1; j < k; j++) t[p++] = x[i] * x[j];
    t[p] = y;
}

static int proper__annot_in_xrange(double v) {
    return v == 0 || (fabs(v) >= PROPER__ANNOT_XMIN && fabs(v) <= PROPER__ANNOT_XMAX);
}

PROPER_API int proper_annot_stats_add(proper_annot_stats *s, const proper_annot_table *t, const char *metric,
                                      proper_error *err) {
    size_t ycol = proper_annot_table_column(t, metric), *ca = NULL, *cb = NULL, nc = 0, at, r, i, j;
    char **cn = NULL;
    double x[PROPER_ANNOT_STATS_FEATURES], *terms = NULL;
    proper_annot_fstats *F;
    int found, rc = 0;
    if (ycol == (size_t)-1)
        return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "function '%s' has no column '%s'", t->name, metric);
    if (strchr(metric, '.'))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "metric '%s': an annotation's metric cannot hold a '.'", metric);
    if (t->n == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "function '%s' has no records", t->name);
    if (proper__annot_candidates(t, ycol, &ca, &cb, &cn, &nc)) { rc = PROPER_ENOMEM; goto done; }
    if (nc > PROPER_ANNOT_STATS_FEATURES) {
        rc = proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                              "function '%s': %zu features, statistics take at most %d (the sums grow as k^4)", t->name, nc,
                              PROPER_ANNOT_STATS_FEATURES);
        goto done;
    }
    at = proper__annot_stats_find(s, t->name, metric, &found);
    if (!found) {
        proper_annot_fstats e;
        if ((rc = proper__annot_fstats_new(&e, t->name, strlen(t->name), metric, strlen(metric), cn, nc)) ||
            (rc = proper__annot_stats_insert(s, at, &e))) {
            proper__annot_fstats_free(&e);
            goto done;
        }
    } else if (!proper__annot_same_features(&s->f[at], cn, nc)) {
        rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "function '%s': its features differ from those already counted", t->name);
        goto done;
    }
    F = &s->f[at];
    /* validate first, so that a refused table leaves the statistics as they were */
    for (r = 0; r < t->n; r++) {
        const double *row = t->v + r * t->ncol;
        for (i = 0; i < nc; i++) {
            double v = row[ca[i]] - (cb[i] == (size_t)-1 ? 0 : row[cb[i]]);
            if (!proper__annot_in_xrange(v)) {
                rc = proper_error_set(err, PROPER_ERANGE, NULL, 0, 0,
                                      "function '%s', record %zu: feature '%s' = %g is outside the range of exact statistics (0 or 2^-64 <= |v| <= 2^64)",
                                      t->name, r + 1, cn[i], v);
                goto done;
            }
        }
        if (!proper__annot_in_xrange(row[ycol])) {
            rc = proper_error_set(err, PROPER_ERANGE, NULL, 0, 0,
                                  "function '%s', record %zu: metric '%s' = %g is outside the range of exact statistics (0 or 2^-64 <= |v| <= 2^64)",
                                  t->name, r + 1, metric, row[ycol]);
            goto done;
        }
    }
    if (F->n > ((uint64_t)1 << 63) - t->n) {
        rc = proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "function '%s': more than 2^63 records", t->name);
        goto done;
    }
    if (!(terms = (double *)PROPER_MALLOC(sizeof *terms * F->q))) { rc = PROPER_ENOMEM; goto done; }
    for (r = 0; r < t->n; r++) {
        const double *row = t->v + r * t->ncol;
        double y = row[ycol] == 0 ? 0.0 : row[ycol];
        proper_annot_xsum *S = F->sum;
        for (i = 0; i < nc; i++) {
            x[i] = row[ca[i]] - (cb[i] == (size_t)-1 ? 0 : row[cb[i]]);
            if (x[i] == 0) x[i] = 0.0; /* no -0 in the printed minimum */
            if (x[i] < F->fmin[i]) F->fmin[i] = x[i];
            if (x[i] > F->fmax[i]) F->fmax[i] = x[i];
            proper__annot_distinct_add(F->distinct + i * PROPER_ANNOT_MIN_DISTINCT, &F->ndistinct[i], x[i]);
        }
        if (y < F->ymin) F->ymin = y;
        if (y > F->ymax) F->ymax = y;
        proper__annot_stats_terms(x, nc, y, terms);
        for (i = 0; i < F->q; i++) {
            if (terms[i] == 0) { S += F->q - i; continue; }
            for (j = i; j < F->q; j++, S++) {
                if (i == 0) proper__annot_xadd_double(S, terms[j]);
                else proper__annot_xadd_prod(S, terms[i], terms[j]);
            }
        }
    }
    F->n += t->n;
    for (i = 0; i < F->q * (F->q + 1) / 2; i++)
        if (!proper__annot_xsum_ok(&F->sum[i]))
            rc = proper_error_set(err, PROPER_ERANGE, NULL, 0, 0,
                                  "function '%s': a sum reaches 2^320, more than the records can give (statistics read from a file?)",
                                  t->name);
done:
    if (rc == PROPER_ENOMEM) rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    proper__annot_strs_free(cn, nc);
    PROPER_FREE(ca);
    PROPER_FREE(cb);
    PROPER_FREE(terms);
    return rc;
}

/* a += b for one function's entries (same function, metric and features). */
static int proper__annot_fstats_add(proper_annot_fstats *a, const proper_annot_fstats *b, proper_error *err) {
    size_t i, k, nsum = a->q * (a->q + 1) / 2;
    proper_annot_xsum *tmp;
    if (a->n > ((uint64_t)1 << 63) - b->n)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "function '%s': more than 2^63 records", a->function);
    /* add into a copy, so that an overflow leaves a as it was */
    if (!(tmp = (proper_annot_xsum *)PROPER_MALLOC(sizeof *tmp * nsum)))
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    memcpy(tmp, a->sum, sizeof *tmp * nsum);
    for (i = 0; i < nsum; i++)
        if (proper__annot_xadd(&tmp[i], &b->sum[i]) || !proper__annot_xsum_ok(&tmp[i])) {
            PROPER_FREE(tmp);
            return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0,
                                    "function '%s': a merged sum reaches 2^320, more than the records can give", a->function);
        }
    PROPER_FREE(a->sum);
    a->sum = tmp;
    a->n += b->n;
    for (i = 0; i < a->nf; i++) {
        if (b->fmin[i] < a->fmin[i]) a->fmin[i] = b->fmin[i];
        if (b->fmax[i] > a->fmax[i]) a->fmax[i] = b->fmax[i];
        for (k = 0; k < b->ndistinct[i]; k++)
            proper__annot_distinct_add(a->distinct + i * PROPER_ANNOT_MIN_DISTINCT, &a->ndistinct[i],
                                       b->distinct[i * PROPER_ANNOT_MIN_DISTINCT + k]);
    }
    if (b->ymin < a->ymin) a->ymin = b->ymin;
    if (b->ymax > a->ymax) a->ymax = b->ymax;
    return 0;
}

PROPER_API int proper_annot_stats_add_log(proper_annot_stats *s, const proper_annot_log *L, const char *function,
                                          const char *metric, int *has_function, size_t *counted, proper_error *err) {
    size_t i;
    int rc;
    for (i = 0; i < L->n; i++) {
        const proper_annot_table *t = &L->t[i];
        if (function && strcmp(t->name, function) != 0) continue;
        if (function) *has_function = 1;
        if (proper_annot_table_column(t, metric) == (size_t)-1) {
            if (function)
                return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "function '%s' has no column '%s'", t->name, metric);
            continue;
        }
        if (t->n == 0) continue;
        if ((rc = proper_annot_stats_add(s, t, metric, err))) return rc;
        (*counted)++;
    }
    return 0;
}

PROPER_API int proper_annot_stats_found(const char *function, const char *metric, int has_function, size_t counted,
                                        const char *const *logs, size_t n_logs, proper_error *err) {
    const char *file = n_logs == 1 ? logs[0] : NULL;
    if (function && !has_function)
        return n_logs == 1 ? proper_error_set(err, PROPER_EUNDEFINED, file, 0, 0, "no function '%s'", function)
                           : proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "no function '%s' in any of the %zu logs",
                                              function, n_logs);
    if (counted) return 0;
    if (function)
        return proper_error_set(err, PROPER_EUNDEFINED, file, 0, 0, "function '%s' has no records%s", function,
                                n_logs == 1 ? "" : " in any log");
    return proper_error_set(err, PROPER_EUNDEFINED, file, 0, 0, "no function with a column '%s' has records%s", metric,
                            n_logs == 1 ? "" : " in any log");
}

PROPER_API int proper_annot_stats_merge(proper_annot_stats *a, const proper_annot_stats *b, proper_error *err) {
    size_t i;
    int rc;
    for (i = 0; i < b->n; i++) {
        const proper_annot_fstats *g = &b->f[i];
        int found;
        size_t at = proper__annot_stats_find(a, g->function, g->metric, &found);
        if (found) {
            if (!proper__annot_same_features(&a->f[at], g->feat, g->nf))
                return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "function '%s': the two statistics have different features",
                                        g->function);
            if ((rc = proper__annot_fstats_add(&a->f[at], g, err))) return rc;
        } else {
            proper_annot_fstats e;
            if (proper__annot_fstats_new(&e, g->function, strlen(g->function), g->metric, strlen(g->metric), g->feat, g->nf))
                return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
            if ((rc = proper__annot_fstats_add(&e, g, err)) || proper__annot_stats_insert(a, at, &e)) {
                proper__annot_fstats_free(&e);
                return rc ? rc : proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
            }
        }
    }
    return 0;
}

PROPER_API int proper_annot_stats_format(const proper_annot_stats *s, proper_strbuf *b, proper_error *err) {
    size_t i, k, r, c;
    proper_strbuf_puts(b, "proper-annot-stats 1\n");
    for (i = 0; i < s->n; i++) {
        const proper_annot_fstats *f = &s->f[i];
        const proper_annot_xsum *S = f->sum;
        proper_strbuf_printf(b, "function %s metric %s records %llu features", f->function, f->metric, (unsigned long long)f->n);
        for (k = 0; k < f->nf; k++) proper_strbuf_printf(b, " %s", f->feat[k]);
        proper_strbuf_puts(b, "\n");
        for (k = 0; k < f->nf; k++) {
            proper_strbuf_printf(b, "feature %s min ", f->feat[k]);
            proper_strbuf_double(b, f->fmin[k]);
            proper_strbuf_puts(b, " max ");
            proper_strbuf_double(b, f->fmax[k]);
            proper_strbuf_puts(b, " distinct");
            for (r = 0; r < f->ndistinct[k]; r++) {
                proper_strbuf_puts(b, " ");
                proper_strbuf_double(b, f->distinct[k * PROPER_ANNOT_MIN_DISTINCT + r]);
            }
            proper_strbuf_puts(b, "\n");
        }
        proper_strbuf_puts(b, "metric min ");
        proper_strbuf_double(b, f->ymin);
        proper_strbuf_puts(b, " max ");
        proper_strbuf_double(b, f->ymax);
        proper_strbuf_puts(b, "\n");
        for (r = 0; r < f->q; r++) {
            proper_strbuf_puts(b, "row");
            for (c = r; c < f->q; c++, S++) {
                proper_strbuf_puts(b, " ");
                proper__annot_xformat(b, S);
            }
            proper_strbuf_puts(b, "\n");
        }
    }
    if (b->failed) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    return 0;
}

PROPER_API int proper_annot_stats_write(const proper_annot_stats *s, FILE *f, proper_error *err) {
    proper_strbuf b;
    int rc;
    proper_strbuf_init(&b);
    rc = proper_annot_stats_format(s, &b, err);
    if (!rc && b.len && fwrite(b.data, 1, b.len, f) != b.len) rc = proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write failed");
    proper_strbuf_free(&b);
    return rc;
}

/* Expect the word w, then a blank or the line's end. */
static int proper__annot_word(proper_cursor *c, const char *w, proper_error *err) {
    size_t n = strlen(w);
    proper_cursor_skip_blanks(c);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n) ||
        ((size_t)(c->end - c->p) > n && c->p[n] != ' ' && c->p[n] != '\t' && c->p[n] != '\r' && c->p[n] != '\n'))
        return proper_cursor_error(c, err, PROPER_EPARSE, "expected '%s'", w);
    while (n--) proper_cursor_advance(c);
    return 0;
}

static int proper__annot_stats_eol(proper_cursor *c, proper_error *err) {
    proper_cursor_skip_blanks(c);
    if (c->p < c->end && *c->p != '\n') return proper_cursor_error(c, err, PROPER_EPARSE, "expected the end of the line");
    if (c->p < c->end) proper_cursor_advance(c);
    return 0;
}

/* Skip empty and comment lines. */
static void proper__annot_skip_empty(proper_cursor *c) {
    for (;;) {
        proper_cursor d = *c;
        proper_cursor_skip_blanks(&d);
        if (d.p < d.end && (*d.p == '\n' || *d.p == '#')) {
            *c = d;
            proper__annot_next_line(c);
        } else {
            return;
        }
    }
}

/* One function's block; the cursor is at "function". */
static int proper__annot_stats_block(proper_cursor *c, proper_annot_stats *s, proper_error *err) {
    char *feat[PROPER_ANNOT_STATS_FEATURES];
    size_t nf = 0, i, r, col, nlen, mlen, at;
    const char *name, *mname;
    long long records;
    proper_cursor at_name, at_fn = *c;
    proper_annot_fstats e;
    proper_annot_xsum *S;
    int rc = 0, found;
    memset(&e, 0, sizeof e);
    if ((rc = proper__annot_word(c, "function", err))) return rc;
    proper_cursor_skip_blanks(c);
    at_name = *c;
    nlen = proper__annot_take_name(c, &name);
    if ((rc = proper__annot_check_name(&at_name, nlen, err))) return rc;
    if ((rc = proper__annot_word(c, "metric", err))) return rc;
    proper_cursor_skip_blanks(c);
    if ((rc = proper__annot_take_column(c, &mname, &mlen, err))) return rc;
    if (memchr(mname, '.', mlen)) return proper_cursor_error(c, err, PROPER_EINVAL, "a metric name cannot hold a '.'");
    if ((rc = proper__annot_word(c, "records", err))) return rc;
    {
        proper_cursor at_n = *c;
        if ((rc = proper_parse_int(c, &records, err))) return rc;
        if (records < 1) return proper_cursor_error(&at_n, err, PROPER_EPARSE, "expected at least 1 record");
    }
    if ((rc = proper__annot_word(c, "features", err))) return rc;
    for (;;) {
        const char *fs;
        size_t fl;
        proper_cursor_skip_blanks(c);
        if (c->p >= c->end || *c->p == '\n' || *c->p == '\r') break;
        if (nf == PROPER_ANNOT_STATS_FEATURES) {
            rc = proper_cursor_error(c, err, PROPER_ELIMIT, "more than %d features", PROPER_ANNOT_STATS_FEATURES);
            goto done;
        }
        if ((rc = proper__annot_take_column(c, &fs, &fl, err))) goto done;
        if (!(feat[nf] = proper_strndup(fs, fl))) { rc = PROPER_ENOMEM; goto done; }
        nf++;
        for (i = 0; i + 1 < nf; i++)
            if (!strcmp(feat[i], feat[nf - 1])) {
                rc = proper_cursor_error(c, err, PROPER_EPARSE, "feature '%s' named twice", feat[i]);
                goto done;
            }
    }
    if ((rc = proper__annot_stats_eol(c, err))) goto done;
    if ((rc = proper__annot_fstats_new(&e, name, nlen, mname, mlen, feat, nf))) goto done;
    e.n = (uint64_t)records;
    for (i = 0; i < nf; i++) {
        proper_cursor at_f;
        const char *fs;
        size_t fl, nd = 0;
        double *d = e.distinct + i * PROPER_ANNOT_MIN_DISTINCT;
        proper__annot_skip_empty(c);
        if ((rc = proper__annot_word(c, "feature", err))) goto done;
        proper_cursor_skip_blanks(c);
        at_f = *c;
        if ((rc = proper__annot_take_column(c, &fs, &fl, err))) goto done;
        if (fl != strlen(feat[i]) || memcmp(fs, feat[i], fl)) {
            rc = proper_cursor_error(&at_f, err, PROPER_EPARSE, "expected feature '%s' (the order of the function's line)", feat[i]);
            goto done;
        }
        if ((rc = proper__annot_word(c, "min", err)) || (rc = proper__annot_number(c, &e.fmin[i], err)) ||
            (rc = proper__annot_word(c, "max", err)) || (rc = proper__annot_number(c, &e.fmax[i], err)) ||
            (rc = proper__annot_word(c, "distinct", err)))
            goto done;
        for (;;) {
            proper_cursor at_v;
            double v;
            proper_cursor_skip_blanks(c);
            if (c->p >= c->end || *c->p == '\n' || *c->p == '\r') break;
            at_v = *c;
            if ((rc = proper__annot_number(c, &v, err))) goto done;
            if (nd == PROPER_ANNOT_MIN_DISTINCT || (nd && !(v > d[nd - 1])) || v < e.fmin[i] || v > e.fmax[i]) {
                rc = proper_cursor_error(&at_v, err, PROPER_EPARSE,
                                         "expected at most %d increasing distinct values within [min, max]", PROPER_ANNOT_MIN_DISTINCT);
                goto done;
            }
            d[nd++] = v == 0 ? 0.0 : v;
        }
        if (!nd || !(e.fmin[i] <= e.fmax[i]) || d[0] != e.fmin[i] ||
            (nd < PROPER_ANNOT_MIN_DISTINCT && d[nd - 1] != e.fmax[i]) || (nd == 1) != (e.fmin[i] == e.fmax[i]) ||
            !proper__annot_in_xrange(e.fmin[i]) || !proper__annot_in_xrange(e.fmax[i])) {
            rc = proper_cursor_error(&at_f, err, PROPER_EPARSE,
                                     "feature '%s': min <= max within the exact range, the distinct values from min (and to max when fewer than %d)",
                                     feat[i], PROPER_ANNOT_MIN_DISTINCT);
            goto done;
        }
        e.ndistinct[i] = nd;
        if ((rc = proper__annot_stats_eol(c, err))) goto done;
    }
    proper__annot_skip_empty(c);
    {
        proper_cursor at_m = *c;
        if ((rc = proper__annot_word(c, "metric", err)) || (rc = proper__annot_word(c, "min", err)) ||
            (rc = proper__annot_number(c, &e.ymin, err)) || (rc = proper__annot_word(c, "max", err)) ||
            (rc = proper__annot_number(c, &e.ymax, err)) || (rc = proper__annot_stats_eol(c, err)))
            goto done;
        if (!(e.ymin <= e.ymax) || !proper__annot_in_xrange(e.ymin) || !proper__annot_in_xrange(e.ymax)) {
            rc = proper_cursor_error(&at_m, err, PROPER_EPARSE, "the metric's min <= max, within the exact range");
            goto done;
        }
    }
    S = e.sum;
    for (r = 0; r < e.q; r++) {
        proper__annot_skip_empty(c);
        if ((rc = proper__annot_word(c, "row", err))) goto done;
        for (col = r; col < e.q; col++, S++)
            if ((rc = proper__annot_xparse(c, S, err))) goto done;
        if ((rc = proper__annot_stats_eol(c, err))) goto done;
    }
    {
        /* S[0][0] = Σ 1·1 = records */
        proper_annot_xsum n1;
        memset(&n1, 0, sizeof n1);
        n1.w[-PROPER__ANNOT_XLSB / 64] = e.n;
        if (memcmp(&n1, &e.sum[0], sizeof n1)) {
            rc = proper_cursor_error(&at_fn, err, PROPER_EPARSE, "the first sum (of 1 over the records) differs from the records");
            goto done;
        }
    }
    for (r = 0; r < e.q * (e.q + 1) / 2; r++)
        if (!proper__annot_xsum_ok(&e.sum[r])) {
            rc = proper_cursor_error(&at_fn, err, PROPER_ERANGE, "a sum of %llu records cannot reach 2^320", (unsigned long long)e.n);
            goto done;
        }
    at = proper__annot_stats_find(s, e.function, e.metric, &found);
    if (found) {
        rc = proper_cursor_error(&at_fn, err, PROPER_EPARSE, "function '%s' metric '%s' given twice", e.function, e.metric);
        goto done;
    }
    if (at != s->n) {
        rc = proper_cursor_error(&at_fn, err, PROPER_EPARSE, "functions must be sorted by name, then metric");
        goto done;
    }
    if (proper__annot_stats_insert(s, at, &e)) rc = PROPER_ENOMEM;
done:
    if (rc == PROPER_ENOMEM) rc = proper_cursor_error(c, err, PROPER_ENOMEM, "out of memory");
    for (i = 0; i < nf; i++) PROPER_FREE(feat[i]);
    proper__annot_fstats_free(&e);
    return rc;
}

PROPER_API int proper_annot_stats_parse(proper_annot_stats *out, const char *text, size_t len, const char *name,
                                        proper_error *err) {
    proper_cursor c;
    proper_annot_stats s;
    int rc = 0;
    static const char magic[] = "proper-annot-stats 1";
    proper_cursor_init(&c, text, len, name);
    proper_annot_stats_init(&s);
    if (len < sizeof magic - 1 || memcmp(text, magic, sizeof magic - 1))
        return proper_cursor_error(&c, err, PROPER_EPARSE, "expected the header '%s'", magic);
    while (c.p < c.end && *c.p != '\n') proper_cursor_advance(&c);
    {
        proper_cursor d = c;
        d.p = text + sizeof magic - 1;
        d.col = (int)sizeof magic;
        proper_cursor_skip_blanks(&d);
        if (d.p != c.p) return proper_cursor_error(&d, err, PROPER_EPARSE, "expected the end of the header line");
    }
    if (c.p < c.end) proper_cursor_advance(&c);
    for (;;) {
        proper__annot_skip_empty(&c);
        proper_cursor_skip_blanks(&c);
        if (c.p >= c.end) break;
        if ((rc = proper__annot_stats_block(&c, &s, err))) break;
    }
    if (rc) {
        proper_annot_stats_free(&s);
        return rc;
    }
    proper_annot_stats_free(out);
    *out = s;
    return 0;
}

PROPER_API int proper_annot_stats_read(proper_annot_stats *out, const char *path, proper_error *err) {
    char *data;
    size_t len;
    int rc = proper_read_file(path, &data, &len, err);
    if (rc) return rc;
    rc = proper_annot_stats_parse(out, data, len, path, err);
    PROPER_FREE(data);
    return rc;
}

/* Sum S[i][j] of any i, j as a long double. */
static long double proper__annot_sld(const proper_annot_fstats *F, size_t i, size_t j) {
    return proper__annot_xld(&F->sum[i <= j ? proper__annot_tri_index(F->q, i, j) : proper__annot_tri_index(F->q, j, i)]);
}

/* Correlation of basis terms i and j from the sums (0 when either is constant). */
static double proper__annot_stats_corr(const proper_annot_fstats *F, size_t i, size_t j) {
    long double n = (long double)F->n, si = proper__annot_sld(F, 0, i), sj = proper__annot_sld(F, 0, j);
    long double cij = n * proper__annot_sld(F, i, j) - si * sj, vi = n * proper__annot_sld(F, i, i) - si * si,
                vj = n * proper__annot_sld(F, j, j) - sj * sj;
    return vi > 0 && vj > 0 ? (double)(cij / sqrtl(vi * vj)) : 0;
}

/* The basis index of term u of the fit (features by candidate index cf). */
static size_t proper__annot_basis(const proper__annot_term *u, const size_t *cf, size_t k) {
    size_t a, b;
    switch (u->kind) {
    case PROPER__ANNOT_ONE: return 0;
    case PROPER__ANNOT_X: return 1 + cf[u->a];
    case PROPER__ANNOT_XLOGX: return 1 + k + cf[u->a];
    case PROPER__ANNOT_X2: return 1 + 2 * k + cf[u->a];
    default:
        a = cf[u->a] < cf[u->b] ? cf[u->a] : cf[u->b];
        b = cf[u->a] < cf[u->b] ? cf[u->b] : cf[u->a];
        /* pairs before (a, .): (k-1) + (k-2) + .. + (k-a) */
        return 1 + 3 * k + a * (2 * k - a - 1) / 2 + (b - a - 1);
    }
}

/* A term's scale, as proper__annot_tval divides by it. */
static double proper__annot_term_scale(const proper__annot_term *u, const double *sx) {
    switch (u->kind) {
    case PROPER__ANNOT_ONE: return 1;
    case PROPER__ANNOT_X: return sx[u->a];
    case PROPER__ANNOT_X2: return sx[u->a] * sx[u->a];
    case PROPER__ANNOT_XY: return sx[u->a] * sx[u->b];
    default: return sx[u->a] * (fabs(log(sx[u->a])) > 1 ? fabs(log(sx[u->a])) : 1);
    }
}

/* R (q x q, q = nu + 1) with R'R = the scaled Gram matrix of [U | y]: a
 * Cholesky factor in long double; a pivot that vanishes against its
 * diagonal (a dependent column) leaves a zero row, which tri_solve reports. */
static void proper__annot_stats_triangle(const proper_annot_fstats *F, const proper__annot_term *U, size_t nu,
                                         const size_t *cf, const double *sx, double yscale, double *R) {
    long double G[(PROPER_ANNOT_MAX_TERMS + 1) * (PROPER_ANNOT_MAX_TERMS + 1)], L[(PROPER_ANNOT_MAX_TERMS + 1) * (PROPER_ANNOT_MAX_TERMS + 1)];
    size_t q = nu + 1, bi[PROPER_ANNOT_MAX_TERMS + 1], i, j, r;
    double sc[PROPER_ANNOT_MAX_TERMS + 1];
    for (i = 0; i < nu; i++) {
        bi[i] = proper__annot_basis(&U[i], cf, F->nf);
        sc[i] = proper__annot_term_scale(&U[i], sx);
    }
    bi[nu] = F->q - 1;
    sc[nu] = yscale;
    for (i = 0; i < q; i++)
        for (j = i; j < q; j++) G[i * q + j] = proper__annot_sld(F, bi[i], bi[j]) / ((long double)sc[i] * sc[j]);
    memset(L, 0, sizeof L);
    for (i = 0; i < q; i++) {
        long double d = G[i * q + i];
        for (r = 0; r < i; r++) d -= L[r * q + i] * L[r * q + i];
        if (!(d > G[i * q + i] * 1e-30L)) continue; /* dependent: a zero row */
        L[i * q + i] = sqrtl(d);
        for (j = i + 1; j < q; j++) {
            long double v = G[i * q + j];
            for (r = 0; r < i; r++) v -= L[r * q + i] * L[r * q + j];
            L[i * q + j] = v / L[i * q + i];
        }
    }
    for (i = 0; i < q * q; i++) R[i] = (double)L[i];
}

PROPER_API int proper_annot_stats_fit(proper_annot *out, const proper_annot_stats *s, size_t fi,
                                      const proper_annot_opts *opts, proper_error *err) {
    const proper_annot_fstats *F;
    proper_annot_opts o = opts ? *opts : proper_annot_opts_default();
    proper__annot_ctx c;
    proper_annot tmp, merged;
    proper_annot_fn fn;
    proper__annot_term U[PROPER_ANNOT_MAX_TERMS];
    proper__annot_model m;
    proper_annot_lsq res;
    size_t k, i, j, nu = 0, cf[PROPER_ANNOT_STATS_FEATURES], chosen[PROPER_ANNOT_MAX_TERMS], one = 0;
    double corr_y[PROPER_ANNOT_STATS_FEATURES], sx[PROPER_ANNOT_MAX_FEATURES], yscale, n, R[(PROPER_ANNOT_MAX_TERMS + 1) * (PROPER_ANNOT_MAX_TERMS + 1)], tss;
    int keep[PROPER_ANNOT_STATS_FEATURES], rc = 0, first;
    if (fi >= s->n) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no statistics number %zu", fi);
    F = &s->f[fi];
    k = F->nf;
    n = (double)F->n;
    memset(&c, 0, sizeof c);
    memset(&fn, 0, sizeof fn);
    memset(&m, 0, sizeof m);
    proper_annot_init(&tmp);
    proper_annot_init(&merged);
    c.o = &o;
    c.A = &tmp;
    c.err = err;
    /* clean-up as proper_annot_fit: constant features dropped, groups of
     * correlated ones represented by the member most correlated with y */
    for (j = 0; j < k; j++) {
        keep[j] = F->fmax[j] > F->fmin[j] && F->n >= 3;
        corr_y[j] = keep[j] ? fabs(proper__annot_stats_corr(F, 1 + j, F->q - 1)) : 0;
    }
    for (j = 0; j < k; j++) {
        if (!keep[j]) continue;
        for (i = 0; i < j; i++) {
            if (keep[i] != 1) continue;
            if (fabs(proper__annot_stats_corr(F, 1 + j, 1 + i)) >= o.corr) {
                keep[j] = -(int)i - 2;
                break;
            }
        }
    }
    for (i = 0; i < k; i++) {
        size_t rep = i;
        if (keep[i] != 1) continue;
        for (j = i + 1; j < k; j++)
            if (keep[j] == -(int)i - 2 && corr_y[j] > corr_y[rep] + 1e-9) rep = j;
        if (rep != i) { keep[rep] = 1; keep[i] = 0; }
        for (j = i + 1; j < k; j++)
            if (keep[j] == -(int)i - 2) keep[j] = 0;
    }
    c.name = (char **)proper_calloc(k ? k : 1, sizeof *c.name);
    if (!c.name) goto oom;
    for (;;) {
        size_t bj = (size_t)-1;
        for (j = 0; j < k; j++)
            if (keep[j] == 1 && (bj == (size_t)-1 || corr_y[j] > corr_y[bj])) bj = j;
        if (bj == (size_t)-1 || c.nf == PROPER_ANNOT_MAX_FEATURES) break;
        keep[bj] = 2;
        cf[c.nf] = bj;
        c.name[c.nf] = F->feat[bj];
        sx[c.nf] = fabs(F->fmin[bj]) > fabs(F->fmax[bj]) ? fabs(F->fmin[bj]) : fabs(F->fmax[bj]);
        if (!(sx[c.nf] > 0)) sx[c.nf] = 1;
        c.nonneg[c.nf] = F->fmin[bj] >= 0;
        c.nf++;
    }
    c.nprod = c.nf < PROPER_ANNOT_PRODUCTS ? c.nf : PROPER_ANNOT_PRODUCTS;
    for (i = 0; i < c.nprod; i++) c.prod[i] = (int)i;
    fn.name = proper_strdup(F->function);
    fn.metric = proper_strdup(F->metric);
    fn.params = (char **)proper_calloc(c.nf ? c.nf : 1, sizeof *fn.params);
    if (!fn.name || !fn.metric || !fn.params) goto oom;
    for (i = 0; i < c.nf; i++, fn.n_params++)
        if (!(fn.params[i] = proper_strdup(c.name[i]))) goto oom;
    yscale = fabs(F->ymin) > fabs(F->ymax) ? fabs(F->ymin) : fabs(F->ymax);
    if (!(yscale > 0)) yscale = 1;
    m.n = (size_t)F->n;
    if (F->n < 3) {
        /* as proper_annot_fit: the mean, and for two records |y1 - y2|/√2 */
        long double sy = proper__annot_sld(F, 0, F->q - 1), syy = proper__annot_sld(F, F->q - 1, F->q - 1);
        m.nt = 1;
        m.t[0].kind = PROPER__ANNOT_ONE;
        m.coef[0] = (double)(sy / (long double)n);
        m.sigma = F->n == 2 ? (double)sqrtl(fabsl(syy - sy * sy / 2)) : 0;
        m.r2 = NAN;
        m.cls = PROPER_ANNOT_CONSTANT;
    } else {
        /* the terms of proper__annot_best: curved ones where a feature takes
         * PROPER_ANNOT_MIN_DISTINCT values */
        U[nu].kind = PROPER__ANNOT_ONE; U[nu].a = U[nu].b = 0; nu++;
        for (i = 0; i < c.nf; i++)
            if (F->ndistinct[cf[i]] >= 2) { U[nu].kind = PROPER__ANNOT_X; U[nu].a = (int)i; U[nu].b = 0; nu++; }
        for (i = 0; i < c.nf; i++)
            if (F->ndistinct[cf[i]] >= PROPER_ANNOT_MIN_DISTINCT && c.nonneg[i]) { U[nu].kind = PROPER__ANNOT_XLOGX; U[nu].a = (int)i; U[nu].b = 0; nu++; }
        for (i = 0; i < c.nf; i++)
            if (F->ndistinct[cf[i]] >= PROPER_ANNOT_MIN_DISTINCT) { U[nu].kind = PROPER__ANNOT_X2; U[nu].a = (int)i; U[nu].b = 0; nu++; }
        for (i = 0; i < c.nprod; i++)
            for (j = i + 1; j < c.nprod; j++)
                if (F->ndistinct[cf[c.prod[i]]] >= 2 && F->ndistinct[cf[c.prod[j]]] >= 2) {
                    U[nu].kind = PROPER__ANNOT_XY; U[nu].a = c.prod[i]; U[nu].b = c.prod[j]; nu++;
                }
        proper__annot_stats_triangle(F, U, nu, cf, sx, yscale, R);
        m.nt = proper__annot_choose(R, nu + 1, U, nu, m.n, &o, chosen);
        if (!m.nt) {
            m.nt = 1;
            chosen[0] = 0;
        }
        for (i = 0; i < m.nt; i++) m.t[i] = U[chosen[i]];
        if (proper__annot_tri_solve(R, nu + 1, &one, 1, nu, m.n, &res)) tss = 0;
        else tss = res.rss;
        if (proper__annot_tri_solve(R, nu + 1, chosen, m.nt, nu, m.n, &res))
            return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "function '%s': the sums give no regression", F->function);
        for (i = 0; i < m.nt; i++) m.coef[i] = res.coef[i] * yscale / proper__annot_term_scale(&m.t[i], sx);
        m.rss = res.rss * yscale * yscale;
        m.sigma = m.n > m.nt ? sqrt(res.rss / (double)(m.n - m.nt)) * yscale : 0;
        m.r2 = tss > 0 ? 1 - res.rss / tss : (res.rss <= 1e-24 ? 1.0 : 0.0);
        if (m.r2 < 0) m.r2 = 0;
        m.bic = proper__annot_bic(res.rss, m.n, m.nt, yscale);
        m.cls = proper__annot_term_class(m.t, m.nt);
    }
    first = proper__annot_leaf_model(&c, &m, PROPER_ANNOT_NONE, -1, 0);
    if (first < 0) goto oom;
    fn.body = first;
    for (i = 0; i < tmp.n_ex; i++)
        if (tmp.ex[i].kind == PROPER_ANNOT_NUM && !isfinite(tmp.ex[i].value)) {
            rc = proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "function '%s': a parameter overflows", F->function);
            goto done;
        }
    {
        size_t cap = 0;
        if (proper_reserve(&tmp.fns, &cap, 1, sizeof *tmp.fns)) goto oom;
        tmp.cap_fns = cap;
        tmp.fns[tmp.n_fns++] = fn;
        memset(&fn, 0, sizeof fn);
    }
    for (i = 0; i < out->n_fns; i++)
        if (proper__annot_copy_fn(&merged, out, &out->fns[i])) goto oom;
    if (proper__annot_copy_fn(&merged, &tmp, &tmp.fns[0])) goto oom;
    proper_annot_free(out);
    *out = merged;
    proper_annot_init(&merged);
    goto done;
oom:
    rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
done:
    PROPER_FREE(c.name);
    proper__annot_fn_free(&fn);
    proper_annot_free(&tmp);
    proper_annot_free(&merged);
    return rc;
}

PROPER_API int proper_annot_stats_fit_matching(proper_annot *out, const proper_annot_stats *s, const char *function,
                                               const char *metric, const proper_annot_opts *opts, uint64_t *records,
                                               size_t *fitted, proper_error *err) {
    size_t i;
    int rc;
    *fitted = 0;
    for (i = 0; i < s->n; i++) {
        if (function && strcmp(s->f[i].function, function) != 0) continue;
        if (strcmp(s->f[i].metric, metric) != 0) continue;
        if ((rc = proper_annot_stats_fit(out, s, i, opts, err))) return rc;
        if (records) records[*fitted] = s->f[i].n;
        (*fitted)++;
    }
    return 0;
}

PROPER_API void proper_annot_check_init(proper_annot_check *c) { memset(c, 0, sizeof *c); }
PROPER_API void proper_annot_check_free(proper_annot_check *c) {
    PROPER_FREE(c->scopes);
    memset(c, 0, sizeof *c);
}

/* The CDF of one item at y given the features: lo = F(y-), hi = F(y). */
static void proper__annot_item_cdf(const proper_annot *a, int it, const double *vars, const double *br, size_t nbr,
                                   double y, double *lo, double *hi, int depth);

static void proper__annot_body_cdf(const proper_annot *a, int first, const double *vars, const double *br, size_t nbr,
                                   double y, double *lo, double *hi, int depth) {
    int i;
    *lo = *hi = NAN;
    if (first < 0 || depth > PROPER_ANNOT_NEST_MAX) return;
    if (a->it[first].guard == PROPER_ANNOT_PROB) {
        double sl = 0, sh = 0, l, h;
        for (i = first; i >= 0; i = a->it[i].next) {
            proper__annot_item_cdf(a, i, vars, br, nbr, y, &l, &h, depth + 1);
            sl += a->it[i].prob * l;
            sh += a->it[i].prob * h;
        }
        *lo = sl;
        *hi = sh;
        return;
    }
    for (i = first; i >= 0; i = a->it[i].next) {
        const proper_annot_item *x = &a->it[i];
        if (x->guard == PROPER_ANNOT_COND && !(proper__annot_eval(a, x->cond, vars, br, nbr, 0) != 0 &&
                                               !isnan(proper__annot_eval(a, x->cond, vars, br, nbr, 0))))
            continue;
        proper__annot_item_cdf(a, i, vars, br, nbr, y, lo, hi, depth + 1);
        return;
    }
}

static void proper__annot_item_cdf(const proper_annot *a, int it, const double *vars, const double *br, size_t nbr,
                                   double y, double *lo, double *hi, int depth) {
    const proper_annot_item *x = &a->it[it];
    double p0, p1;
    *lo = *hi = NAN;
    if (x->dist == PROPER_ANNOT_GROUP) {
        proper__annot_body_cdf(a, x->child, vars, br, nbr, y, lo, hi, depth + 1);
        return;
    }
    p0 = proper__annot_eval(a, x->arg[0], vars, br, nbr, 0);
    p1 = x->arg[1] >= 0 ? proper__annot_eval(a, x->arg[1], vars, br, nbr, 0) : 0;
    switch (x->dist) {
    case PROPER_ANNOT_NORM:
        if (!(p1 >= 0) || !isfinite(p0)) return;
        if (p1 == 0) {
            double tol = 1e-9 * (fabs(p0) > 1 ? fabs(p0) : 1);
            *lo = y < p0 - tol ? 0 : y > p0 + tol ? 1 : 0;
            *hi = y < p0 - tol ? 0 : 1;
            return;
        }
        *lo = *hi = proper_stats_normal_cdf((y - p0) / p1);
        return;
    case PROPER_ANNOT_EXP:
        if (!(p0 > 0)) return;
        *lo = *hi = y <= 0 ? 0 : -expm1(-y / p0);
        return;
    case PROPER_ANNOT_BINOM:
        if (!(p0 >= 0) || p0 != floor(p0) || !(p1 >= 0 && p1 <= 1)) return;
        *hi = proper__annot_binom_cdf_at(floor(y), p0, p1);
        *lo = y == floor(y) ? proper__annot_binom_cdf_at(y - 1, p0, p1) : *hi;
        return;
    default: return;
    }
}

/* The scope of a record: the item whose distribution (or mixture) applies. */
static int proper__annot_scope(const proper_annot *a, int first, const double *vars, const double *br, size_t nbr,
                               int depth) {
    int i;
    if (first < 0 || depth > PROPER_ANNOT_NEST_MAX) return -1;
    if (a->it[first].guard == PROPER_ANNOT_PROB) return first;
    for (i = first; i >= 0; i = a->it[i].next) {
        const proper_annot_item *x = &a->it[i];
        if (x->guard == PROPER_ANNOT_COND) {
            double v = proper__annot_eval(a, x->cond, vars, br, nbr, 0);
            if (!(v != 0) || isnan(v)) continue;
        }
        if (x->dist == PROPER_ANNOT_GROUP) {
            int s = proper__annot_scope(a, x->child, vars, br, nbr, depth + 1);
            return s;
        }
        return i;
    }
    return -1;
}

static double proper__annot_item_mean(const proper_annot *a, int it, const double *vars, const double *br, size_t nbr,
                                      int depth);

static double proper__annot_body_mean(const proper_annot *a, int first, const double *vars, const double *br, size_t nbr,
                                      int depth) {
    int i;
    if (first < 0 || depth > PROPER_ANNOT_NEST_MAX) return NAN;
    if (a->it[first].guard == PROPER_ANNOT_PROB) {
        double m = 0;
        for (i = first; i >= 0; i = a->it[i].next) m += a->it[i].prob * proper__annot_item_mean(a, i, vars, br, nbr, depth + 1);
        return m;
    }
    for (i = first; i >= 0; i = a->it[i].next) {
        const proper_annot_item *x = &a->it[i];
        if (x->guard == PROPER_ANNOT_COND) {
            double v = proper__annot_eval(a, x->cond, vars, br, nbr, 0);
            if (!(v != 0) || isnan(v)) continue;
        }
        return proper__annot_item_mean(a, i, vars, br, nbr, depth + 1);
    }
    return NAN;
}

static double proper__annot_item_mean(const proper_annot *a, int it, const double *vars, const double *br, size_t nbr,
                                      int depth) {
    const proper_annot_item *x = &a->it[it];
    switch (x->dist) {
    case PROPER_ANNOT_GROUP: return proper__annot_body_mean(a, x->child, vars, br, nbr, depth + 1);
    case PROPER_ANNOT_BINOM:
        return proper__annot_eval(a, x->arg[0], vars, br, nbr, 0) * proper__annot_eval(a, x->arg[1], vars, br, nbr, 0);
    default: return proper__annot_eval(a, x->arg[0], vars, br, nbr, 0);
    }
}

PROPER_API double proper_annot_mean(const proper_annot *a, const proper_annot_fn *fn, const double *vars,
                                    const double *branch, size_t n_branch) {
    return proper__annot_body_mean(a, fn->body, vars, branch, n_branch, 0);
}

PROPER_API int proper_annot_scope(const proper_annot *a, const proper_annot_fn *fn, const double *vars,
                                  const double *branch, size_t n_branch) {
    return proper__annot_scope(a, fn->body, vars, branch, n_branch, 0);
}

static double proper__annot_identity_cdf(double x, void *ctx) {
    (void)ctx;
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

PROPER_API int proper_annot_check_table(proper_annot_check *out, const proper_annot *a, const proper_annot_fn *fn,
                                        const proper_annot_table *t, double alpha, uint64_t seed,
                                        proper_error *err) {
    size_t ycol, r, j, k, nv = a->names.len, nb = 0;
    size_t *map = NULL, *cnt = NULL, *pos = NULL;
    double *vars = NULL, *br = NULL, *u = NULL;
    int *scope = NULL, rc = 0;
    proper_annot_check res;
    proper_rng rng;
    proper_annot_check_init(&res);
    if (!(alpha > 0 && alpha < 1)) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "alpha must be in (0, 1)");
    ycol = proper_annot_table_column(t, fn->metric);
    if (ycol == (size_t)-1)
        return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "function '%s' in the log has no column '%s'", t->name, fn->metric);
    for (r = 0; r < t->n; r++) {
        size_t g = 0;
        for (k = t->br_off[r]; k < t->br_off[r + 1]; k++) g += t->br[k] == 2;
        if (g > nb) nb = g;
    }
    proper_rng_seed(&rng, seed);
    map = (size_t *)PROPER_MALLOC(sizeof *map * (nv ? nv : 1));
    vars = (double *)PROPER_MALLOC(sizeof *vars * (nv ? nv : 1));
    br = (double *)PROPER_MALLOC(sizeof *br * (nb ? nb : 1));
    scope = (int *)PROPER_MALLOC(sizeof *scope * (t->n ? t->n : 1));
    u = (double *)PROPER_MALLOC(sizeof *u * (t->n ? t->n : 1));
    cnt = (size_t *)proper_calloc(a->n_it + 1, sizeof *cnt);
    pos = (size_t *)proper_calloc(a->n_it + 1, sizeof *pos);
    if (!map || !vars || !br || !scope || !u || !cnt || !pos) {
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    /* variables by name; derived spans are computed like the fit does */
    for (j = 0; j < nv; j++) map[j] = proper_annot_table_column(t, a->names.names[j]);
    for (r = 0; r < t->n; r++) {
        double lo, hi;
        for (j = 0; j < nv; j++) {
            if (map[j] != (size_t)-1) vars[j] = t->v[r * t->ncol + map[j]];
            else {
                const char *nm = a->names.names[j];
                size_t ln = strlen(nm), pk;
                vars[j] = NAN;
                if (ln >= 4 && strcmp(nm + ln - 4, "span") == 0)
                    for (pk = 0; pk < 4; pk++) {
                        char x1[PROPER_ANNOT_NAME_MAX + 8], x2[PROPER_ANNOT_NAME_MAX + 8];
                        size_t c1, c2;
                        snprintf(x1, sizeof x1, "%.*s%s", (int)(ln - 4), nm, proper__annot_pairs[pk][1]);
                        snprintf(x2, sizeof x2, "%.*s%s", (int)(ln - 4), nm, proper__annot_pairs[pk][0]);
                        c1 = proper_annot_table_column(t, x1);
                        c2 = proper_annot_table_column(t, x2);
                        if (c1 != (size_t)-1 && c2 != (size_t)-1) {
                            vars[j] = t->v[r * t->ncol + c1] - t->v[r * t->ncol + c2];
                            break;
                        }
                    }
            }
        }
        for (j = 0; j < nb; j++) br[j] = proper_annot_table_branch(t, r, j);
        scope[r] = proper__annot_scope(a, fn->body, vars, br, nb, 0);
        u[r] = NAN;
        if (scope[r] < 0) { res.uncovered++; continue; }
        if (a->it[scope[r]].guard == PROPER_ANNOT_PROB)
            proper__annot_body_cdf(a, scope[r], vars, br, nb, t->v[r * t->ncol + ycol], &lo, &hi, 0);
        else
            proper__annot_item_cdf(a, scope[r], vars, br, nb, t->v[r * t->ncol + ycol], &lo, &hi, 0);
        if (isnan(lo) || isnan(hi)) { scope[r] = -1; res.uncovered++; continue; }
        u[r] = lo + (hi - lo) * proper_rng_uniform(&rng);
        cnt[scope[r]]++;
    }
    for (k = 0; k < a->n_it; k++)
        if (cnt[k]) res.n_scopes++;
    res.scopes = (proper_annot_scope_check *)proper_calloc(res.n_scopes ? res.n_scopes : 1, sizeof *res.scopes);
    if (!res.scopes) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto done; }
    for (k = 0, j = 0; k < a->n_it; k++) {
        if (!cnt[k]) continue;
        res.scopes[j].item = (int)k;
        res.scopes[j].n = cnt[k];
        if (cnt[k] >= PROPER_ANNOT_CHECK_MIN) res.tested++;
        pos[k] = j++;
    }
    res.level = res.tested ? alpha / (double)res.tested : alpha;
    for (j = 0; j < res.n_scopes; j++) {
        proper_annot_scope_check *s = &res.scopes[j];
        double *v = (double *)PROPER_MALLOC(sizeof *v * s->n);
        size_t m = 0;
        if (!v) { rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory"); goto done; }
        for (r = 0; r < t->n; r++)
            if (scope[r] == s->item) v[m++] = u[r];
        s->ks = NAN;
        s->p_value = NAN;
        if (s->n >= PROPER_ANNOT_CHECK_MIN && !proper_stats_ks_sample(v, m, proper__annot_identity_cdf, NULL, &s->ks, NULL)) {
            s->p_value = proper_stats_ks_pvalue(s->ks, (double)m);
            s->violated = s->p_value < res.level;
            res.violations += (size_t)s->violated;
        }
        PROPER_FREE(v);
    }
done:
    PROPER_FREE(map);
    PROPER_FREE(vars);
    PROPER_FREE(br);
    PROPER_FREE(scope);
    PROPER_FREE(u);
    PROPER_FREE(cnt);
    PROPER_FREE(pos);
    if (rc) {
        proper_annot_check_free(&res);
        return rc;
    }
    proper_annot_check_free(out);
    *out = res;
    return 0;
}

/* ---- Recording ---------------------------------------------------------------------- */
#ifndef PROPER_ANNOT_NO_RECORDER
#include <pthread.h>
#include <time.h>
#if defined(__linux__)
#include <sys/resource.h>
#define PROPER__ANNOT_RUSAGE_THREAD 1 /* RUSAGE_THREAD (Linux) */
#endif

#if (defined(__GNUC__) || defined(__clang__)) && defined(__linux__) && !defined(PROPER_ANNOT_NO_PRELOAD)
/* Defined by the preload library when it is loaded; NULL otherwise. */
#ifdef __cplusplus
extern "C"
#endif
proper_annot_preload_counters *proper_preload_counters(void) __attribute__((weak));
#define PROPER__ANNOT_PRELOAD 1
#endif

typedef struct proper__annot_wfn {
    char *name;
    size_t nfeat, ncol;
    char **feat;
    proper_annot_reservoir res; /* merged */
} proper__annot_wfn;

struct proper_annot_writer {
    pthread_mutex_t lock;
    char *path;
    size_t k;                   /* reservoir size */
    int metrics, heap, nmet;
    size_t nfn, cap;
    proper__annot_wfn *fn;
    proper_rng rng;
    double self_ns, pair_ns, cpu_self_ns, cpu_pair_ns;
    uint64_t dropped;
};

static uint64_t proper__annot_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static uint64_t proper__annot_cpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int proper__annot_cmp_u64(const void *x, const void *y) {
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

PROPER_API int proper_annot_writer_open(proper_annot_writer **w, const char *path, size_t reservoir, int metrics,
                                        uint64_t seed, proper_error *err) {
    proper_annot_writer *nw;
    if (reservoir < 1) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "reservoir must hold at least 1 call");
    nw = (proper_annot_writer *)proper_calloc(1, sizeof *nw);
    if (!nw || !(nw->path = proper_strdup(path))) {
        PROPER_FREE(nw);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    }
    if (pthread_mutex_init(&nw->lock, NULL) != 0) {
        PROPER_FREE(nw->path);
        PROPER_FREE(nw);
        return proper_error_set(err, PROPER_EIO, NULL, 0, 0, "cannot create a mutex");
    }
    nw->k = reservoir;
    nw->metrics = metrics;
#ifdef PROPER__ANNOT_PRELOAD
    nw->heap = proper_preload_counters != NULL && proper_preload_counters() != NULL;
#endif
    nw->nmet = 1 + ((metrics & PROPER_ANNOT_M_CPU) ? 1 : 0) + ((metrics & PROPER_ANNOT_M_RUSAGE) ? 2 : 0) + (nw->heap ? 4 : 0);
    proper_rng_seed(&nw->rng, seed);
    /* the recorder's own cost: medians over empty scopes of a scratch recorder */
    {
        enum { REPS = 2001 };
        uint64_t *buf = (uint64_t *)PROPER_MALLOC(sizeof *buf * 6 * REPS), *self, *pair, *clk, *cself, *cpair, *cclk;
        proper_annot_recorder r;
        size_t i;
        int f;
        if (!buf) {
            proper_annot_writer_close(nw, NULL);
            return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        }
        self = buf;
        pair = buf + REPS;
        clk = buf + 2 * REPS;
        cself = buf + 3 * REPS;
        cpair = buf + 4 * REPS;
        cclk = buf + 5 * REPS;
        nw->self_ns = nw->pair_ns = 0;
        nw->k = 2 * REPS; /* every calibration call is kept, in order */
        if ((f = proper_annot_writer_function(nw, "proper-calibration", "", err)) < 0 ||
            proper_annot_recorder_init(&r, nw, err)) {
            PROPER_FREE(buf);
            proper_annot_writer_close(nw, NULL);
            return err ? err->code : PROPER_ENOMEM;
        }
        for (i = 0; i < REPS; i++) {
            uint64_t a = proper__annot_now(), b;
            proper_annot_begin(&r, f);
            proper_annot_end(&r);
            b = proper__annot_now();
            pair[i] = b - a;
            self[i] = (uint64_t)r.res[f].rows[(metrics & PROPER_ANNOT_M_CPU ? 2 * i : i) * (size_t)nw->nmet];
            a = proper__annot_now();
            clk[i] = proper__annot_now() - a;
            if (metrics & PROPER_ANNOT_M_CPU) {
                /* the same on the thread's CPU clock */
                a = proper__annot_cpu();
                proper_annot_begin(&r, f);
                proper_annot_end(&r);
                b = proper__annot_cpu();
                cpair[i] = b - a;
                cself[i] = (uint64_t)r.res[f].rows[(2 * i + 1) * (size_t)nw->nmet + 1];
                a = proper__annot_cpu();
                cclk[i] = proper__annot_cpu() - a;
            } else {
                cpair[i] = cself[i] = cclk[i] = 0;
            }
        }
        qsort(cself, REPS, sizeof *cself, proper__annot_cmp_u64);
        qsort(cpair, REPS, sizeof *cpair, proper__annot_cmp_u64);
        qsort(cclk, REPS, sizeof *cclk, proper__annot_cmp_u64);
        nw->cpu_self_ns = (double)cself[REPS / 2];
        nw->cpu_pair_ns = cpair[REPS / 2] > cclk[REPS / 2] ? (double)(cpair[REPS / 2] - cclk[REPS / 2]) : 0;
        qsort(self, REPS, sizeof *self, proper__annot_cmp_u64);
        qsort(pair, REPS, sizeof *pair, proper__annot_cmp_u64);
        qsort(clk, REPS, sizeof *clk, proper__annot_cmp_u64);
        nw->self_ns = (double)self[REPS / 2];
        /* a whole begin/end pair, less the one clock read the measurement adds */
        nw->pair_ns = pair[REPS / 2] > clk[REPS / 2] ? (double)(pair[REPS / 2] - clk[REPS / 2]) : 0;
        nw->k = reservoir;
        PROPER_FREE(buf);
        proper_annot_recorder_free(&r);
        nw->nfn = 0;
        PROPER_FREE(nw->fn[0].name);
        PROPER_FREE(nw->fn[0].feat);
        PROPER_FREE(nw->fn[0].res.rows);
        PROPER_FREE(nw->fn[0].res.br_exec);
        PROPER_FREE(nw->fn[0].res.br_val);
        memset(&nw->fn[0], 0, sizeof nw->fn[0]);
    }
    *w = nw;
    return 0;
}

PROPER_API void proper_annot_writer_overhead(const proper_annot_writer *w, double *self_ns, double *pair_ns) {
    if (self_ns) *self_ns = w->self_ns;
    if (pair_ns) *pair_ns = w->pair_ns;
}

PROPER_API int proper_annot_writer_function(proper_annot_writer *w, const char *name, const char *features,
                                            proper_error *err) {
    proper__annot_wfn f;
    const char *p = features ? features : "";
    int id, rc = 0;
    size_t i;
    memset(&f, 0, sizeof f);
    if (!*name) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "empty function name");
    for (i = 0; name[i]; i++)
        if (!proper__annot_name_char((unsigned char)name[i]))
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "function name '%s': no blanks or any of , # ( ) { } [ ] ;", name);
    f.feat = (char **)proper_calloc(PROPER_ANNOT_REC_FEATURES, sizeof *f.feat);
    if (!f.feat || !(f.name = proper_strdup(name))) { rc = PROPER_ENOMEM; goto fail; }
    for (;;) {
        const char *q;
        while (*p == ' ') p++;
        if (!*p) break;
        q = p;
        if (!proper__annot_ident_start((unsigned char)*q)) { rc = PROPER_EINVAL; goto fail; }
        while (*q && *q != ' ') {
            if (!proper__annot_ident_char((unsigned char)*q)) { rc = PROPER_EINVAL; goto fail; }
            q++;
        }
        if (f.nfeat == PROPER_ANNOT_REC_FEATURES) { rc = PROPER_ELIMIT; goto fail; }
        if (!(f.feat[f.nfeat++] = proper_strndup(p, (size_t)(q - p)))) { rc = PROPER_ENOMEM; goto fail; }
        p = q;
    }
    pthread_mutex_lock(&w->lock);
    if (proper_reserve(&w->fn, &w->cap, w->nfn + 1, sizeof *w->fn)) {
        pthread_mutex_unlock(&w->lock);
        rc = PROPER_ENOMEM;
        goto fail;
    }
    f.ncol = (size_t)w->nmet + f.nfeat;
    w->fn[w->nfn] = f;
    id = (int)w->nfn++;
    pthread_mutex_unlock(&w->lock);
    return id;
fail:
    proper__annot_strs_free(f.feat, f.nfeat);
    PROPER_FREE(f.name);
    if (rc == PROPER_ENOMEM) return proper_error_set(err, rc, NULL, 0, 0, "out of memory");
    if (rc == PROPER_ELIMIT) return proper_error_set(err, rc, NULL, 0, 0, "more than %d features", PROPER_ANNOT_REC_FEATURES);
    return proper_error_set(err, rc, NULL, 0, 0, "feature names of '%s': identifiers separated by spaces", name);
}

PROPER_API int proper_annot_recorder_init(proper_annot_recorder *r, proper_annot_writer *w, proper_error *err) {
    uint64_t seed;
    memset(r, 0, sizeof *r);
    r->w = w;
    pthread_mutex_lock(&w->lock);
    seed = proper_rng_u64(&w->rng);
    pthread_mutex_unlock(&w->lock);
    proper_rng_seed(&r->rng, seed);
#ifdef PROPER__ANNOT_PRELOAD
    if (w->heap) r->pc = proper_preload_counters();
#endif
    (void)err;
    return 0;
}

PROPER_API void proper_annot_begin(proper_annot_recorder *r, int fn) {
    proper_annot_frame *f;
    if (r->depth >= PROPER_ANNOT_REC_DEPTH) { r->depth++; r->dropped++; return; }
    f = &r->stack[r->depth++];
    f->fn = fn;
    f->children = 0;
    f->br_exec = f->br_val = 0;
    if (r->pc) {
        f->alloc0 = r->pc->alloc_bytes;
        f->live0 = r->pc->live;
        f->peak_saved = r->pc->peak;
        r->pc->peak = r->pc->live;
        f->wait0 = r->pc->lock_wait_ns;
        f->hold0 = r->pc->lock_hold_ns;
    }
#ifdef PROPER__ANNOT_RUSAGE_THREAD
    if (r->w->metrics & PROPER_ANNOT_M_RUSAGE) {
        struct rusage ru;
        getrusage(PROPER__ANNOT_RUSAGE_THREAD, &ru);
        f->vcsw0 = ru.ru_nvcsw;
        f->ivcsw0 = ru.ru_nivcsw;
    }
#endif
    if (r->w->metrics & PROPER_ANNOT_M_CPU) f->cpu0 = proper__annot_cpu();
    f->t0 = proper__annot_now();
}

PROPER_API void proper_annot_feature(proper_annot_recorder *r, int k, double value) {
    if (r->depth < 1 || r->depth > PROPER_ANNOT_REC_DEPTH || k < 0 || k >= PROPER_ANNOT_REC_FEATURES) return;
    r->stack[r->depth - 1].feat[k] = value;
}

PROPER_API void proper_annot_branch(proper_annot_recorder *r, int j, int taken) {
    proper_annot_frame *f;
    uint32_t bit;
    if (r->depth < 1 || r->depth > PROPER_ANNOT_REC_DEPTH || j < 0 || j >= 32) return;
    f = &r->stack[r->depth - 1];
    bit = (uint32_t)1 << j;
    if (f->br_exec & bit) return; /* the first outcome only */
    f->br_exec |= bit;
    if (taken) f->br_val |= bit;
}

/* Make room for function fn's reservoir in this recorder. */
static proper_annot_reservoir *proper__annot_res(proper_annot_recorder *r, int fn) {
    if ((size_t)fn >= r->nres) {
        size_t n = r->w->nfn > (size_t)fn + 1 ? r->w->nfn : (size_t)fn + 1;
        proper_annot_reservoir *g = (proper_annot_reservoir *)PROPER_REALLOC(r->res, sizeof *g * n);
        if (!g) return NULL;
        memset(g + r->nres, 0, sizeof *g * (n - r->nres));
        r->res = g;
        r->nres = n;
    }
    return &r->res[fn];
}

PROPER_API void proper_annot_end(proper_annot_recorder *r) {
    uint64_t t1 = proper__annot_now(), cpu1 = 0;
    proper_annot_frame *f;
    proper_annot_reservoir *res;
    proper_annot_writer *w = r->w;
    size_t slot, ncol, k, m = 0;
    double *row, wall;
    uint64_t heap = 0, peak = 0, lwait = 0, lhold = 0;
    if (r->depth < 1) return;
    if (r->depth > PROPER_ANNOT_REC_DEPTH) { r->depth--; return; }
    f = &r->stack[--r->depth];
    if (w->metrics & PROPER_ANNOT_M_CPU) cpu1 = proper__annot_cpu();
    if (r->pc) {
        /* read before this function allocates its reservoir */
        heap = r->pc->alloc_bytes - f->alloc0;
        peak = r->pc->peak > f->live0 ? r->pc->peak - f->live0 : 0;
        lwait = r->pc->lock_wait_ns - f->wait0;
        lhold = r->pc->lock_hold_ns - f->hold0;
        if (f->peak_saved > r->pc->peak) r->pc->peak = f->peak_saved;
    }
    if (r->depth > 0) r->stack[r->depth - 1].children += 1 + f->children;
    if (f->fn < 0 || (size_t)f->fn >= w->nfn || !(res = proper__annot_res(r, f->fn))) return;
    ncol = w->fn[f->fn].ncol;
    res->seen++;
    if (res->n < w->k) {
        if (!res->rows) {
            res->rows = (double *)PROPER_MALLOC(sizeof *res->rows * w->k * ncol);
            res->br_exec = (uint32_t *)PROPER_MALLOC(sizeof *res->br_exec * w->k);
            res->br_val = (uint32_t *)PROPER_MALLOC(sizeof *res->br_val * w->k);
            if (!res->rows || !res->br_exec || !res->br_val) { res->seen--; return; }
        }
        slot = res->n++;
    } else {
        uint64_t j = proper_rng_below(&r->rng, res->seen);
        if (j >= w->k) return;
        slot = (size_t)j;
    }
    row = res->rows + slot * ncol;
    wall = (double)(t1 - f->t0) - w->self_ns - (double)f->children * w->pair_ns;
    row[m++] = wall > 0 ? wall : 0;
    if (w->metrics & PROPER_ANNOT_M_CPU) {
        double c = (double)(cpu1 - f->cpu0) - w->cpu_self_ns - (double)f->children * w->cpu_pair_ns;
        row[m++] = c > 0 ? c : 0;
    }
    if (w->metrics & PROPER_ANNOT_M_RUSAGE) {
#ifdef PROPER__ANNOT_RUSAGE_THREAD
        struct rusage ru;
        getrusage(PROPER__ANNOT_RUSAGE_THREAD, &ru);
        row[m++] = (double)(ru.ru_nvcsw - f->vcsw0);
        row[m++] = (double)(ru.ru_nivcsw - f->ivcsw0);
#else
        row[m++] = 0;
        row[m++] = 0;
#endif
    }
    if (w->heap) {
        row[m++] = (double)heap;
        row[m++] = (double)peak;
        row[m++] = (double)lwait;
        row[m++] = (double)lhold;
    }
    for (k = 0; k < w->fn[f->fn].nfeat; k++) row[m + k] = f->feat[k];
    res->br_exec[slot] = f->br_exec;
    res->br_val[slot] = f->br_val;
    for (k = 0; k < PROPER_ANNOT_REC_FEATURES; k++) f->feat[k] = 0;
}

/* Merge reservoir b into a (both uniform samples of their calls). */
static int proper__annot_merge(proper_annot_reservoir *a, proper_annot_reservoir *b, size_t k, size_t ncol,
                               proper_rng *rng) {
    proper_annot_reservoir m;
    uint64_t na = a->seen, nb = b->seen;
    size_t ka = a->n, kb = b->n, i;
    memset(&m, 0, sizeof m);
    if (b->seen == 0) return 0;
    m.rows = (double *)PROPER_MALLOC(sizeof *m.rows * k * ncol);
    m.br_exec = (uint32_t *)PROPER_MALLOC(sizeof *m.br_exec * k);
    m.br_val = (uint32_t *)PROPER_MALLOC(sizeof *m.br_val * k);
    if (!m.rows || !m.br_exec || !m.br_val) {
        PROPER_FREE(m.rows);
        PROPER_FREE(m.br_exec);
        PROPER_FREE(m.br_val);
        return PROPER_ENOMEM;
    }
    m.seen = na + nb;
    for (i = 0; i < k && (ka || kb); i++) {
        proper_annot_reservoir *src;
        size_t *kk, j;
        int from_a = kb == 0 || (ka > 0 && proper_rng_below(rng, na + nb) < na);
        src = from_a ? a : b;
        kk = from_a ? &ka : &kb;
        if (from_a) na--; else nb--;
        j = (size_t)proper_rng_below(rng, *kk);
        memcpy(m.rows + i * ncol, src->rows + j * ncol, sizeof *m.rows * ncol);
        m.br_exec[i] = src->br_exec[j];
        m.br_val[i] = src->br_val[j];
        /* remove j: move the last kept one into its place */
        (*kk)--;
        memcpy(src->rows + j * ncol, src->rows + *kk * ncol, sizeof *m.rows * ncol);
        src->br_exec[j] = src->br_exec[*kk];
        src->br_val[j] = src->br_val[*kk];
    }
    m.n = i;
    PROPER_FREE(a->rows);
    PROPER_FREE(a->br_exec);
    PROPER_FREE(a->br_val);
    PROPER_FREE(b->rows);
    PROPER_FREE(b->br_exec);
    PROPER_FREE(b->br_val);
    memset(b, 0, sizeof *b);
    *a = m;
    return 0;
}

PROPER_API int proper_annot_recorder_flush(proper_annot_recorder *r, proper_error *err) {
    size_t i;
    int rc = 0;
    pthread_mutex_lock(&r->w->lock);
    for (i = 0; i < r->nres && !rc; i++)
        rc = proper__annot_merge(&r->w->fn[i].res, &r->res[i], r->w->k, r->w->fn[i].ncol, &r->w->rng);
    r->w->dropped += (uint64_t)r->dropped;
    r->dropped = 0;
    pthread_mutex_unlock(&r->w->lock);
    if (rc) return proper_error_set(err, rc, NULL, 0, 0, "out of memory");
    return 0;
}

PROPER_API void proper_annot_recorder_free(proper_annot_recorder *r) {
    size_t i;
    for (i = 0; i < r->nres; i++) {
        PROPER_FREE(r->res[i].rows);
        PROPER_FREE(r->res[i].br_exec);
        PROPER_FREE(r->res[i].br_val);
    }
    PROPER_FREE(r->res);
    memset(r, 0, sizeof *r);
}

PROPER_API int proper_annot_writer_close(proper_annot_writer *w, proper_error *err) {
    static const char *const mnames[] = {"time", "cpu", "vcsw", "ivcsw", "heap", "heap_peak", "lock_wait", "lock_hold"};
    FILE *f = NULL;
    size_t i, r, k;
    int rc = 0;
    proper_strbuf b;
    proper_strbuf_init(&b);
    proper_strbuf_printf(&b, "proper-annot-log 1\n# recorder cost subtracted: %.0f ns per scope, %.0f ns per nested scope\n",
                         w->self_ns, w->pair_ns);
    if (w->metrics & PROPER_ANNOT_M_CPU)
        proper_strbuf_printf(&b, "# from cpu: %.0f ns per scope, %.0f ns per nested scope\n", w->cpu_self_ns, w->cpu_pair_ns);
    if (w->dropped) proper_strbuf_printf(&b, "# %llu calls nested too deeply were not recorded\n", (unsigned long long)w->dropped);
    for (i = 0; i < w->nfn; i++) {
        proper__annot_wfn *fn = &w->fn[i];
        proper_strbuf_printf(&b, "# %s: %llu calls, %zu kept\n", fn->name, (unsigned long long)fn->res.seen, fn->res.n);
        proper_strbuf_printf(&b, "function %s metrics", fn->name);
        for (k = 0; k < PROPER_ANNOT_REC_METRICS; k++) {
            int on = k == 0 || (k == 1 && (w->metrics & PROPER_ANNOT_M_CPU)) ||
                     ((k == 2 || k == 3) && (w->metrics & PROPER_ANNOT_M_RUSAGE)) || (k >= 4 && w->heap);
            if (on) proper_strbuf_printf(&b, " %s", mnames[k]);
        }
        proper_strbuf_puts(&b, " features");
        for (k = 0; k < fn->nfeat; k++) proper_strbuf_printf(&b, " %s", fn->feat[k]);
        proper_strbuf_puts(&b, "\n");
    }
    for (i = 0; i < w->nfn; i++) {
        proper__annot_wfn *fn = &w->fn[i];
        for (r = 0; r < fn->res.n; r++) {
            uint32_t ex = fn->res.br_exec[r], top = 0;
            proper_strbuf_puts(&b, fn->name);
            for (k = 0; k < fn->ncol; k++) {
                proper_strbuf_puts(&b, ", ");
                proper_strbuf_double(&b, fn->res.rows[r * fn->ncol + k]);
            }
            for (k = 0; k < 32; k++)
                if (ex >> k & 1u) top = (uint32_t)k + 1;
            for (k = 0; k < top; k++) {
                if (ex >> k & 1u) proper_strbuf_puts(&b, (fn->res.br_val[r] >> k & 1u) ? ", 1, #" : ", 0, #");
                else proper_strbuf_puts(&b, ", #");
            }
            proper_strbuf_puts(&b, "\n");
        }
    }
    if (b.failed) rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    else if (w->path[0] && !(f = fopen(w->path, "wb")))
        rc = proper_error_set(err, PROPER_EIO, w->path, 0, 0, "cannot open for writing");
    else if (f) {
        int bad = b.len && fwrite(b.data, 1, b.len, f) != b.len;
        if (fclose(f) != 0) bad = 1; /* closed in every case */
        if (bad) rc = proper_error_set(err, PROPER_EIO, w->path, 0, 0, "write failed");
    }
    proper_strbuf_free(&b);
    for (i = 0; i < w->nfn; i++) {
        for (k = 0; k < w->fn[i].nfeat; k++) PROPER_FREE(w->fn[i].feat[k]);
        PROPER_FREE(w->fn[i].feat);
        PROPER_FREE(w->fn[i].name);
        PROPER_FREE(w->fn[i].res.rows);
        PROPER_FREE(w->fn[i].res.br_exec);
        PROPER_FREE(w->fn[i].res.br_val);
    }
    PROPER_FREE(w->fn);
    PROPER_FREE(w->path);
    pthread_mutex_destroy(&w->lock);
    PROPER_FREE(w);
    return rc;
}
#endif /* PROPER_ANNOT_NO_RECORDER */

#endif /* PROPER_ANNOT_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
