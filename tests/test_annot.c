/* Tests for annot.h.
 *
 * Where the numbers come from:
 * - least squares: closed forms (simple regression slope Sxy/Sxx, its
 *   standard error σ/√Sxx), exact recovery of planted coefficients from
 *   noise-free data, and a design whose slope t statistic is set to the
 *   tabulated Student-t quantile t(0.975, 2) = 4.302652729911275 (NIST
 *   e-Handbook 1.3.6.7.2: 4.303), so its two-sided p-value must be 0.05;
 *   t(0.995, 10) = 3.169 gives p = 0.01 with 12 records.
 * - the annotation language: the paper's Figure 2 and §2.2 examples.
 * - the analysis: data drawn from planted models (constant, linear, n log n,
 *   quadratic, normal, exponential, two-regime branch) with known classes.
 */
#define PROPER_IMPLEMENTATION
#include "../src/annot.h"
#include "test.h"

#include <pthread.h>
#include <stdlib.h>

/* ---- least squares ---- */

static void test_lsq_simple_regression_closed_form(void) {
    /* x = 1..5, y hand-picked: Sxx = 10, Sxy = Σ(x-3)(y-ȳ) */
    double X[10], y[5] = {2.1, 3.9, 6.2, 7.8, 10.1}, xs[5] = {1, 2, 3, 4, 5};
    double ybar = (2.1 + 3.9 + 6.2 + 7.8 + 10.1) / 5, sxy = 0, sxx = 10, b, a, rss = 0, tss = 0;
    proper_annot_lsq r;
    proper_error err;
    int i;
    for (i = 0; i < 5; i++) { X[2 * i] = 1; X[2 * i + 1] = xs[i]; sxy += (xs[i] - 3) * (y[i] - ybar); }
    b = sxy / sxx;
    a = ybar - b * 3;
    for (i = 0; i < 5; i++) { rss += (y[i] - a - b * xs[i]) * (y[i] - a - b * xs[i]); tss += (y[i] - ybar) * (y[i] - ybar); }
    CHECK_INT(proper_annot_lsq_fit(&r, X, y, 5, 2, &err), 0);
    CHECK_REL(r.coef[1], b, 1e-13);
    CHECK_REL(r.coef[0], a, 1e-13);
    CHECK_REL(r.rss, rss, 1e-11);
    CHECK_REL(r.se[1], sqrt(rss / 3) / sqrt(sxx), 1e-12);
    CHECK_REL(r.se[0], sqrt(rss / 3) * sqrt(1.0 / 5 + 9.0 / sxx), 1e-12);
    CHECK_REL(r.r2, 1 - rss / tss, 1e-13);
    CHECK_INT(r.n, 5);
    CHECK_INT(r.p, 2);
}

static void test_lsq_pvalue_at_tabulated_t(void) {
    /* x = -1, -1, 1, 1; y = x + (-d, d, -d, d): slope 1, RSS 4d², σ² = 2d²,
     * se = σ/√4 = d/√2, t = √2/d. Choose t = t(0.975, 2). */
    double t975 = 4.302652729911275, d = sqrt(2.0) / t975;
    double X[8] = {1, -1, 1, -1, 1, 1, 1, 1}, y[4];
    proper_annot_lsq r;
    proper_error err;
    y[0] = -1 - d; y[1] = -1 + d; y[2] = 1 - d; y[3] = 1 + d;
    CHECK_INT(proper_annot_lsq_fit(&r, X, y, 4, 2, &err), 0);
    CHECK_REL(r.coef[1], 1.0, 1e-14);
    CHECK_ABS(r.coef[0], 0.0, 1e-14);
    CHECK_REL(r.tstat[1], t975, 1e-12);
    CHECK_REL(r.pval[1], 0.05, 1e-10);
    /* NIST table: t(0.995, 10) = 3.169 -> p = 0.01 within the table's digits.
     * 12 records, x = ±1 six times each, residuals ±d: se = σ/√12 with
     * σ² = 12d²/10, t = 1/se. */
    {
        double X2[24], y2[12], t995 = 3.169, se, dd;
        int i;
        se = 1 / t995;
        dd = se * sqrt(12.0) / sqrt(12.0 / 10.0);
        for (i = 0; i < 12; i++) {
            double x = i < 6 ? -1 : 1;
            X2[2 * i] = 1;
            X2[2 * i + 1] = x;
            y2[i] = x + (i % 2 ? dd : -dd);
        }
        CHECK_INT(proper_annot_lsq_fit(&r, X2, y2, 12, 2, &err), 0);
        CHECK_REL(r.tstat[1], t995, 1e-12);
        CHECK_ABS(r.pval[1], 0.01, 2e-5);
    }
}

static void test_lsq_planted_coefficients(void) {
    /* y = 3 + 2 x1 - 0.5 x2 + 0.01 x1², no noise, x up to 1e6: exact recovery */
    enum { N = 200 };
    static double X[N * 4], y[N];
    proper_annot_lsq r;
    proper_error err;
    proper_rng rng;
    int i;
    proper_rng_seed(&rng, 7);
    for (i = 0; i < N; i++) {
        double x1 = proper_rng_uniform(&rng) * 1e3, x2 = proper_rng_uniform(&rng) * 1e6;
        X[4 * i] = 1; X[4 * i + 1] = x1; X[4 * i + 2] = x2; X[4 * i + 3] = x1 * x1;
        y[i] = 3 + 2 * x1 - 0.5 * x2 + 0.01 * x1 * x1;
    }
    CHECK_INT(proper_annot_lsq_fit(&r, X, y, N, 4, &err), 0);
    CHECK_REL(r.coef[0], 3, 1e-7);
    CHECK_REL(r.coef[1], 2, 1e-10);
    CHECK_REL(r.coef[2], -0.5, 1e-12);
    CHECK_REL(r.coef[3], 0.01, 1e-10);
    CHECK(r.r2 > 1 - 1e-12);
}

static void test_lsq_errors(void) {
    double X[6] = {1, 2, 1, 2, 1, 2}, y[3] = {1, 2, 3};
    proper_annot_lsq r;
    proper_error err;
    r.n = 99;
    /* column 2 = 2 × column 1 */
    CHECK_INT(proper_annot_lsq_fit(&r, X, y, 3, 2, &err), PROPER_ERANGE);
    CHECK_CONTAINS(err.message, "column 2");
    CHECK_INT(r.n, 99); /* unchanged on failure */
    CHECK_INT(proper_annot_lsq_fit(&r, X, y, 2, 2, &err), PROPER_ERANGE);
    y[1] = NAN;
    X[1] = 5;
    CHECK_INT(proper_annot_lsq_fit(&r, X, y, 3, 2, &err), PROPER_ERANGE);
    CHECK_CONTAINS(err.message, "non-finite");
}

/* ---- the log reader ---- */

static const char *const paper_log =
    "proper-annot-log 1\n"
    "# the paper's record format with a schema line\n"
    "function sort metrics time heap features s depth\n"
    "function g metrics time features\n"
    "sort, 53350, 0, 49584, 3, 1, 0, #, 1, #\n"
    "g, 7\r\n"
    "sort, 1e3, 24, 10, 1\n";

static void test_log_record_format(void) {
    proper_annot_log L;
    proper_error err;
    const proper_annot_table *t;
    proper_strbuf b;
    proper_annot_log_init(&L);
    CHECK_INT(proper_annot_log_parse(&L, paper_log, strlen(paper_log), "p.log", &err), 0);
    CHECK_INT(L.n, 2);
    t = proper_annot_log_find(&L, "sort");
    CHECK(t != NULL);
    if (!t) return;
    CHECK_INT(t->n, 2);
    CHECK_INT(t->ncol, 4);
    CHECK_STR(t->cols[2], "s");
    CHECK_INT(t->is_metric[1], 1);
    CHECK_INT(t->is_metric[2], 0);
    CHECK(t->v[0] == 53350 && t->v[2] == 49584 && t->v[4] == 1000 && t->v[7] == 1);
    CHECK(proper_annot_table_branch(t, 0, 0) == 1);
    CHECK(proper_annot_table_branch(t, 0, 1) == 1);
    CHECK(isnan(proper_annot_table_branch(t, 0, 2)));
    CHECK(isnan(proper_annot_table_branch(t, 1, 0)));
    CHECK_INT(proper_annot_table_column(t, "depth"), 3);
    CHECK_INT(proper_annot_log_find(&L, "g")->n, 1);
    /* write and read back: equal */
    proper_strbuf_init(&b);
    CHECK_INT(proper_annot_log_format(&L, &b, &err), 0);
    {
        proper_annot_log M;
        proper_annot_log_init(&M);
        CHECK_INT(proper_annot_log_parse(&M, b.data, b.len, "w.log", &err), 0);
        CHECK_INT(M.n, 2);
        if (M.n == 2) {
            CHECK_INT(M.t[0].n, 2);
            CHECK(memcmp(M.t[0].v, L.t[0].v, sizeof(double) * 8) == 0);
            CHECK_INT(M.t[0].nbr, L.t[0].nbr);
        }
        proper_annot_log_free(&M);
    }
    proper_strbuf_free(&b);
    proper_annot_log_free(&L);
    proper_annot_log_free(&L); /* harmless twice */
}

static void test_log_csv(void) {
    const char *csv = "function, time, size\nf, 10, 1\ng, 20, 2\nf, 30, 3\n";
    const char *plain = "time,n\n1,2\n3,4\n";
    proper_annot_log L;
    proper_error err;
    proper_annot_log_init(&L);
    CHECK_INT(proper_annot_log_parse(&L, csv, strlen(csv), "a.csv", &err), 0);
    CHECK_INT(L.n, 2);
    CHECK_INT(proper_annot_log_find(&L, "f")->n, 2);
    CHECK(proper_annot_log_find(&L, "f")->v[2] == 30);
    CHECK_INT(proper_annot_log_find(&L, "f")->ncol, 2);
    CHECK_INT(proper_annot_log_parse(&L, plain, strlen(plain), "b.csv", &err), 0);
    CHECK_INT(L.n, 1);
    CHECK_STR(L.t[0].name, "f");
    CHECK(L.t[0].v[3] == 4);
    proper_annot_log_free(&L);
}

static void expect_log_error(const char *text, int code, int line, int col, const char *msg) {
    proper_annot_log L;
    proper_error err;
    proper_annot_log_init(&L);
    CHECK_INT(proper_annot_log_parse(&L, text, strlen(text), "bad.log", &err), code);
    CHECK_STR(err.file, "bad.log");
    CHECK_INT(err.line, line);
    CHECK_INT(err.col, col);
    CHECK_CONTAINS(err.message, msg);
    CHECK_INT(L.n, 0);
    proper_annot_log_free(&L);
}

static void test_log_errors(void) {
    const char *h = "proper-annot-log 1\nfunction f metrics y features x\n";
    char buf[256];
    snprintf(buf, sizeof buf, "%sf, nan, 1\n", h);
    expect_log_error(buf, PROPER_ERANGE, 3, 4, "not finite");
    snprintf(buf, sizeof buf, "%sf, inf, 1\n", h);
    expect_log_error(buf, PROPER_ERANGE, 3, 4, "not finite");
    snprintf(buf, sizeof buf, "%sf, 1\n", h);
    expect_log_error(buf, PROPER_EPARSE, 3, 5, "1 more number");
    snprintf(buf, sizeof buf, "%sf, 1, 2, 1, 0\n", h);
    expect_log_error(buf, PROPER_EPARSE, 3, 14, "must end with '#'");
    snprintf(buf, sizeof buf, "%sf, 1, 2, 3\n", h);
    expect_log_error(buf, PROPER_EPARSE, 3, 10, "too many numbers");
    snprintf(buf, sizeof buf, "%sg, 1, 2\n", h);
    expect_log_error(buf, PROPER_EUNDEFINED, 3, 1, "no 'function' line");
    expect_log_error("proper-annot-log 2\n", PROPER_EPARSE, 1, 18, "version");
    expect_log_error("proper-annot-log 1\nfunction f metrics y x\n", PROPER_EPARSE, 2, 23, "expected 'features'");
    expect_log_error("proper-annot-log 1\nfunction f metrics y y features\n", PROPER_EPARSE, 2, 22, "duplicate");
    expect_log_error("time, n\n1, 2\n3\n", PROPER_EPARSE, 3, 2, "1 more field");
    expect_log_error("time, n\n1, 2, 5\n", PROPER_EPARSE, 2, 5, "more fields");
    expect_log_error("time, 2n\n", PROPER_EPARSE, 1, 7, "column name");
    expect_log_error("", PROPER_EPARSE, 1, 1, "empty log");
}

/* ---- the annotation language ---- */

static const char *const figure2 =
    "std::list<int>::sort.time(this) {\n"
    "  uint s = *(this->_M_impl._M_node._M_storage._M_storage);\n"
    "\n"
    "  [s > 49584 && s < 1450341]\n"
    "  Norm(53350.31 - 2.10*s + 0.12*s*log(s), 12463.88);\n"
    "\n"
    "  [s > 1589482 && s < 2085480]\n"
    "  Norm(-90901042.29 + 63.11*s, 899547.29);\n"
    "\n"
    "  [s > 2098759 && s < 3415880]\n"
    "  Norm(56712024.50 + 35.38*s, 3379580.27); }\n"
    "f.heap(x) { [x < 3] Exp(2); [x >= 3] { {0.2} Norm(1, 2); {0.8} Binom(10, 0.5) } }\n";

static void test_parse_figure2_and_round_trip(void) {
    proper_annot a, b;
    proper_error err;
    proper_strbuf s1, s2;
    const proper_annot_fn *f;
    double vars[4];
    size_t k;
    proper_annot_init(&a);
    proper_annot_init(&b);
    CHECK_INT(proper_annot_parse(&a, figure2, strlen(figure2), "fig2", &err), 0);
    CHECK_INT(a.n_fns, 2);
    f = proper_annot_find(&a, "std::list<int>::sort", "time");
    CHECK(f != NULL);
    if (!f) return;
    CHECK_INT(f->n_params, 1);
    CHECK_STR(f->params[0], "this");
    CHECK_INT(f->n_decls, 1);
    CHECK_STR(f->decls[0].type, "uint");
    CHECK_STR(f->decls[0].text, "*(this->_M_impl._M_node._M_storage._M_storage)");
    /* evaluate the first scope's mean at s = 1e6: 53350.31 - 2.1e6 + 0.12e6 log 1e6 */
    for (k = 0; k < 4; k++) vars[k] = NAN;
    k = proper_intern_find(&a.names, "s", 1);
    vars[k] = 1e6;
    CHECK_REL(proper_annot_eval(&a, a.it[f->body].arg[0], vars, NULL, 0), 53350.31 - 2.10e6 + 0.12e6 * log(1e6), 1e-14);
    CHECK(proper_annot_eval(&a, a.it[f->body].cond, vars, NULL, 0) == 1);
    vars[k] = 1500000;
    CHECK(proper_annot_eval(&a, a.it[f->body].cond, vars, NULL, 0) == 0);
    /* 1.5e6 is between the first two scopes: no scope, no mean */
    CHECK_INT(proper_annot_scope(&a, f, vars, NULL, 0), -1);
    CHECK(isnan(proper_annot_mean(&a, f, vars, NULL, 0)));
    vars[k] = 2000000; /* the second scope: -90901042.29 + 63.11 * 2e6 */
    CHECK_INT(proper_annot_scope(&a, f, vars, NULL, 0), a.it[f->body].next);
    CHECK_REL(proper_annot_mean(&a, f, vars, NULL, 0), -90901042.29 + 63.11 * 2e6, 1e-14);
    {
        /* f.heap: x >= 3 is a mixture {0.2} Norm(1, 2); {0.8} Binom(10, 0.5): mean 0.2 + 0.8*5 = 4.2 */
        const proper_annot_fn *g = proper_annot_find(&a, "f", "heap");
        double v2[4] = {NAN, NAN, NAN, NAN};
        v2[proper_intern_find(&a.names, "x", 1)] = 3;
        CHECK(g != NULL);
        if (g) {
            CHECK_REL(proper_annot_mean(&a, g, v2, NULL, 0), 4.2, 1e-15);
            CHECK_INT(a.it[proper_annot_scope(&a, g, v2, NULL, 0)].guard, PROPER_ANNOT_PROB);
            v2[proper_intern_find(&a.names, "x", 1)] = 1;
            CHECK_REL(proper_annot_mean(&a, g, v2, NULL, 0), 2, 1e-15); /* Exp(2) */
        }
    }
    proper_strbuf_init(&s1);
    proper_strbuf_init(&s2);
    CHECK_INT(proper_annot_format(&a, &s1, &err), 0);
    CHECK_CONTAINS(s1.data, "[s > 49584 && s < 1450341] Norm(53350.31 - 2.1*s + 0.12*s*log(s), 12463.88);");
    CHECK_CONTAINS(s1.data, "Norm(-90901042.29 + 63.11*s, 899547.29);");
    CHECK_CONTAINS(s1.data, "[x >= 3] {\n    {0.2} Norm(1, 2);\n    {0.8} Binom(10, 0.5);\n  }");
    CHECK_INT(proper_annot_parse(&b, s1.data, s1.len, "printed", &err), 0);
    CHECK(proper_annot_equal(&a, &b));
    CHECK_INT(proper_annot_format(&b, &s2, &err), 0);
    CHECK_STR(s1.data, s2.data);
    proper_strbuf_free(&s1);
    proper_strbuf_free(&s2);
    proper_annot_free(&a);
    proper_annot_free(&b);
}

static void test_print_precedence(void) {
    const char *src = "f.t(a, b) { [!(a < b) || a - (b - 1) == -a*-2 && min(a, b)/(a*b) != 1] Norm(-(a + b), --2); }\n";
    proper_annot a, b;
    proper_error err;
    proper_strbuf s;
    double v[2];
    proper_annot_init(&a);
    proper_annot_init(&b);
    proper_strbuf_init(&s);
    CHECK_INT(proper_annot_parse(&a, src, strlen(src), "p", &err), 0);
    CHECK_INT(proper_annot_format(&a, &s, &err), 0);
    CHECK_CONTAINS(s.data, "[!(a < b) || a - (b - 1) == -a*-2 && min(a, b)/(a*b) != 1] Norm(-(a + b), 2);");
    CHECK_INT(proper_annot_parse(&b, s.data, s.len, "q", &err), 0);
    CHECK(proper_annot_equal(&a, &b));
    /* a = 1, b = 2: !(1 < 2) = 0; 1 - 1 == 2 is false -> condition false */
    v[proper_intern_find(&a.names, "a", 1)] = 1;
    v[proper_intern_find(&a.names, "b", 1)] = 2;
    CHECK(proper_annot_eval(&a, a.it[a.fns[0].body].cond, v, NULL, 0) == 0);
    v[proper_intern_find(&a.names, "b", 1)] = 0.5; /* !(1<0.5)=1 */
    CHECK(proper_annot_eval(&a, a.it[a.fns[0].body].cond, v, NULL, 0) == 1);
    proper_strbuf_free(&s);
    proper_annot_free(&a);
    proper_annot_free(&b);
}

static void expect_annot_error(const char *text, int code, int line, int col, const char *msg) {
    proper_annot a;
    proper_error err;
    proper_annot_init(&a);
    CHECK_INT(proper_annot_parse(&a, text, strlen(text), "bad.annot", &err), code);
    CHECK_INT(err.line, line);
    CHECK_INT(err.col, col);
    CHECK_CONTAINS(err.message, msg);
    CHECK_INT(a.n_fns, 0);
    proper_annot_free(&a);
}

static void test_parse_errors(void) {
    expect_annot_error("f.t() {\n  Norm(1, 2)\n  Exp(1);\n}\n", PROPER_EPARSE, 3, 3, "expected ';'");
    expect_annot_error("f.t() { {0.2} Exp(1); {0.7} Exp(2); }", PROPER_EPROB, 1, 9, "sum to");
    expect_annot_error("f.t() { {0.2} Exp(1); Exp(2); }", PROPER_EPARSE, 1, 9, "mixes");
    expect_annot_error("f.t() { Norm(foo(1), 2); }", PROPER_EUNDEFINED, 1, 14, "unknown function 'foo'");
    expect_annot_error("f.t() { Gamma(1); }", PROPER_EUNDEFINED, 1, 9, "unknown distribution");
    expect_annot_error("f.t() { [1 < 2 < 3] Exp(1); }", PROPER_EPARSE, 1, 16, "do not chain");
    expect_annot_error("f.t() { {1.5} Exp(1); }", PROPER_EPROB, 1, 10, "outside [0, 1]");
    expect_annot_error("f.t() { Norm(log(1, 2), 1); }", PROPER_EPARSE, 1, 14, "log takes 1");
    expect_annot_error("ft() { Exp(1); }", PROPER_EPARSE, 1, 1, "function.metric(");
    expect_annot_error("f.t() { }", PROPER_EPARSE, 1, 9, "at least one item");
    expect_annot_error("f.t() { Exp(1e999); }", PROPER_ERANGE, 1, 13, "too large");
    expect_annot_error("f.t() {\n  uint s = ;\n  Exp(1); }", PROPER_EPARSE, 2, 12, "definition");
    expect_annot_error("f.t() { Exp(1); ", PROPER_EPARSE, 1, 17, "end of input");
}

/* ---- clustering and heuristics ---- */

static void test_kde_cuts(void) {
    enum { N = 4000 };
    static double y[N];
    double *cuts = NULL;
    size_t nc = 0, i;
    proper_error err;
    proper_rng rng;
    proper_rng_seed(&rng, 3);
    /* 30% N(100, 5) and 70% N(200, 10): one cut in the valley between */
    for (i = 0; i < N; i++) y[i] = i < N * 3 / 10 ? 100 + 5 * proper_rng_normal(&rng) : 200 + 10 * proper_rng_normal(&rng);
    CHECK_INT(proper_annot_kde_cuts(y, N, 40, 1, &cuts, &nc, &err), 0);
    CHECK_INT(nc, 1);
    if (nc == 1) CHECK(cuts[0] > 115 && cuts[0] < 175);
    PROPER_FREE(cuts);
    /* unimodal: normal, exponential */
    for (i = 0; i < N; i++) y[i] = 50 + 3 * proper_rng_normal(&rng);
    CHECK_INT(proper_annot_kde_cuts(y, N, 40, 1, &cuts, &nc, &err), 0);
    CHECK_INT(nc, 0);
    {
        /* the density integrates to 1 and peaks near 1/(3 sqrt(2 pi)) = 0.133 */
        static double gx[PROPER_ANNOT_KDE_GRID], gf[PROPER_ANNOT_KDE_GRID];
        double area = 0, top = 0;
        size_t g;
        CHECK_INT(proper_annot_kde(y, N, 1, gx, gf, &err), 0);
        for (g = 1; g < PROPER_ANNOT_KDE_GRID; g++) area += 0.5 * (gf[g] + gf[g - 1]) * (gx[g] - gx[g - 1]);
        for (g = 0; g < PROPER_ANNOT_KDE_GRID; g++)
            if (gf[g] > top) top = gf[g];
        CHECK_ABS(area, 1, 0.01);
        CHECK_ABS(top, 1 / (3 * sqrt(2 * 3.141592653589793)), 0.015);
        CHECK_INT(proper_annot_kde(y, 3, 1, gx, gf, &err), PROPER_ERANGE);
    }
    for (i = 0; i < N; i++) y[i] = proper_rng_exponential(&rng, 0.01);
    CHECK_INT(proper_annot_kde_cuts(y, N, 40, 1, &cuts, &nc, &err), 0);
    CHECK_INT(nc, 0);
    /* a spread beyond the doubles (iqr 0, sd inf): one cluster, no NaN
     * bandwidth (a fuzz finding) */
    for (i = 0; i < N; i++) y[i] = i % 50 == 0 ? (i % 100 == 0 ? 1e300 : -1e300) : 5;
    CHECK_INT(proper_annot_kde_cuts(y, N, 40, 1, &cuts, &nc, &err), 0);
    CHECK_INT(nc, 0);
    /* all equal: one cluster */
    for (i = 0; i < N; i++) y[i] = 7;
    CHECK_INT(proper_annot_kde_cuts(y, N, 40, 1, &cuts, &nc, &err), 0);
    CHECK_INT(nc, 0);
}

static void test_lower_envelope(void) {
    double x[6] = {1, 1, 2, 2, 2, 3}, y[6] = {5, 3, 9, 4, 4, 1};
    unsigned char keep[6];
    proper_error err;
    CHECK_INT(proper_annot_lower_envelope(x, y, 6, keep, &err), 0);
    CHECK(!keep[0] && keep[1] && !keep[2] && keep[3] && keep[4] && keep[5]);
}

/* ---- fitting planted models ---- */

typedef double (*planted_fn)(double s, proper_rng *rng);

static double f_const(double s, proper_rng *r) { (void)s; return 5000 + 50 * proper_rng_normal(r); }
static double f_linear(double s, proper_rng *r) { return 1000 + 3 * s + 20 * proper_rng_normal(r); }
static double f_nlogn(double s, proper_rng *r) { return 500 + 2 * s * log(s) + 20 * proper_rng_normal(r); }
static double f_quad(double s, proper_rng *r) { return 800 + 0.01 * s * s + 20 * proper_rng_normal(r); }
static double f_exp(double s, proper_rng *r) { (void)s; return proper_rng_exponential(r, 1.0 / 3000); }
static double f_binom(double s, proper_rng *r) {
    int k, c = 0;
    (void)s;
    for (k = 0; k < 20; k++) c += proper_rng_uniform(r) < 0.3;
    return c;
}
static double f_bimodal(double s, proper_rng *r) {
    (void)s;
    return proper_rng_uniform(r) < 0.3 ? 1000 + 30 * proper_rng_normal(r) : 5000 + 60 * proper_rng_normal(r);
}

/* A table "f" with metric time and features s (1..max), junk (random), s2 (= 2s, correlated). */
static void make_table(proper_annot_log *L, planted_fn fn, size_t n, double smax, uint64_t seed) {
    proper_strbuf b;
    proper_rng rng;
    proper_error err;
    size_t i;
    proper_rng_seed(&rng, seed);
    proper_strbuf_init(&b);
    proper_strbuf_puts(&b, "proper-annot-log 1\nfunction f metrics time features s junk s2 konst\n");
    for (i = 0; i < n; i++) {
        /* in sequence: the order of a call's arguments is unspecified */
        double s = 1 + floor(proper_rng_uniform(&rng) * smax), y = fn(s, &rng), junk = proper_rng_uniform(&rng);
        proper_strbuf_printf(&b, "f, %.17g, %.17g, %.17g, %.17g, 4\n", y, s, junk, 2 * s);
    }
    CHECK_INT(proper_annot_log_parse(L, b.data, b.len, "planted", &err), 0);
    proper_strbuf_free(&b);
}

static int fit_class(planted_fn fn, int *dist, double *r2, proper_strbuf *text) {
    proper_annot_log L;
    proper_annot a;
    proper_error err;
    int cls = -1, rc;
    proper_annot_log_init(&L);
    proper_annot_init(&a);
    make_table(&L, fn, 2000, 1000, 11);
    rc = proper_annot_fit(&a, &L.t[0], "time", NULL, &err);
    CHECK_INT(rc, 0);
    if (!rc && a.n_fns == 1) {
        const proper_annot_item *it = &a.it[a.fns[0].body];
        cls = it->next < 0 ? it->cls : -1;
        *dist = it->dist;
        *r2 = it->r2;
        proper_annot_format(&a, text, &err);
    }
    proper_annot_log_free(&L);
    proper_annot_free(&a);
    return cls;
}

static void test_fit_recovers_classes(void) {
    static const struct { planted_fn fn; int cls, dist; const char *term; } cases[] = {
        {f_const, PROPER_ANNOT_DISTRIBUTION, PROPER_ANNOT_NORM, "Norm(50"},
        {f_linear, PROPER_ANNOT_LINEAR, PROPER_ANNOT_NORM, "*s, "},
        {f_nlogn, PROPER_ANNOT_NLOGN, PROPER_ANNOT_NORM, "*s*log(s)"},
        {f_quad, PROPER_ANNOT_QUADRATIC, PROPER_ANNOT_NORM, "*s*s"},
        {f_exp, PROPER_ANNOT_DISTRIBUTION, PROPER_ANNOT_EXP, "Exp("},
        /* Binomial(20, 0.3): chosen over Norm on the lattice; its moment
         * estimates are checked in test_fit_binomial */
        {f_binom, PROPER_ANNOT_DISTRIBUTION, PROPER_ANNOT_BINOM, "Binom("},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int dist = -1, cls;
        double r2 = 0;
        proper_strbuf t;
        proper_strbuf_init(&t);
        cls = fit_class(cases[i].fn, &dist, &r2, &t);
        if (cls != cases[i].cls || dist != cases[i].dist) printf("  case %zu: class %d dist %d\n%s", i, cls, dist, t.data ? t.data : "");
        CHECK_INT(cls, cases[i].cls);
        CHECK_INT(dist, cases[i].dist);
        CHECK_CONTAINS(t.data, cases[i].term);
        /* the correlated twin s2 and the constant konst never appear */
        CHECK(!t.data || !strstr(t.data, "konst"));
        if (cls >= PROPER_ANNOT_LINEAR && cls <= PROPER_ANNOT_QUADRATIC) CHECK(r2 > 0.99);
        proper_strbuf_free(&t);
    }
}

static void test_fit_binomial(void) {
    /* Binomial(20, 0.3), 2000 draws: the moment estimates n = mean²/(mean -
     * var), p = mean/n. Their sampling error: mean 6 ± 0.046 (sd sqrt(4.2/2000)),
     * the variance 4.2 ± 0.13, so n lies within about 15..30 and n·p within
     * 0.15 of 6 (3 standard errors). */
    proper_annot_log L;
    proper_annot a;
    proper_error err;
    proper_annot_log_init(&L);
    proper_annot_init(&a);
    make_table(&L, f_binom, 2000, 1000, 12);
    CHECK_INT(proper_annot_fit(&a, &L.t[0], "time", NULL, &err), 0);
    if (a.n_fns == 1) {
        const proper_annot_item *it = &a.it[a.fns[0].body];
        CHECK_INT(it->dist, PROPER_ANNOT_BINOM);
        if (it->dist == PROPER_ANNOT_BINOM) {
            double n = a.ex[it->arg[0]].value, p = a.ex[it->arg[1]].value;
            CHECK(n >= 15 && n <= 30);
            CHECK_ABS(n * p, 6, 0.15);
        }
    }
    proper_annot_log_free(&L);
    proper_annot_free(&a);
}

static void test_fit_planted_coefficients(void) {
    proper_annot_log L;
    proper_annot a;
    proper_error err;
    double v[8];
    size_t k;
    proper_annot_log_init(&L);
    proper_annot_init(&a);
    make_table(&L, f_linear, 5000, 1000, 5);
    CHECK_INT(proper_annot_fit(&a, &L.t[0], "time", NULL, &err), 0);
    /* mean at s = 0 and s = 1000 within a few standard errors of 1000 and 4000
     * (σ = 20, n = 5000: se(intercept) ≈ 0.57, se(mean at 1000) ≈ 0.57) */
    for (k = 0; k < 8; k++) v[k] = 0;
    k = proper_intern_find(&a.names, "s", 1);
    if (k == PROPER_INTERN_NONE) k = proper_intern_find(&a.names, "s2", 2);
    CHECK(k != PROPER_INTERN_NONE);
    if (k != PROPER_INTERN_NONE && a.n_fns) {
        double scale = strcmp(a.names.names[k], "s2") == 0 ? 2 : 1;
        v[k] = 0;
        CHECK_ABS(proper_annot_eval(&a, a.it[a.fns[0].body].arg[0], v, NULL, 0), 1000, 3);
        v[k] = 1000 * scale;
        CHECK_ABS(proper_annot_eval(&a, a.it[a.fns[0].body].arg[0], v, NULL, 0), 4000, 3);
        CHECK_ABS(proper_annot_eval(&a, a.it[a.fns[0].body].arg[1], v, NULL, 0), 20, 1);
    }
    proper_annot_log_free(&L);
    proper_annot_free(&a);
}

static void test_fit_mixture(void) {
    int dist = -1;
    double r2;
    proper_strbuf t;
    proper_annot a;
    proper_error err;
    proper_strbuf_init(&t);
    fit_class(f_bimodal, &dist, &r2, &t);
    /* two clusters, no feature explains them: {p1} Norm(~1000, ~30); {p2} Norm(~5000, ~60) */
    proper_annot_init(&a);
    CHECK_INT(proper_annot_parse(&a, t.data ? t.data : "", t.len, "fit", &err), 0);
    if (a.n_fns == 1) {
        const proper_annot_item *i1 = &a.it[a.fns[0].body];
        CHECK_INT(i1->guard, PROPER_ANNOT_PROB);
        CHECK(i1->next >= 0);
        if (i1->next >= 0) {
            const proper_annot_item *i2 = &a.it[i1->next];
            CHECK_ABS(i1->prob, 0.3, 0.04);
            CHECK_ABS(i2->prob, 0.7, 0.04);
            CHECK_INT(i1->dist, PROPER_ANNOT_NORM);
            CHECK_ABS(a.ex[i1->arg[0]].value, 1000, 5);
            CHECK_ABS(a.ex[i2->arg[0]].value, 5000, 8);
            CHECK_ABS(a.ex[i2->arg[1]].value, 60, 6);
        }
    }
    proper_annot_free(&a);
    proper_strbuf_free(&t);
}

static void test_fit_branch_split(void) {
    /* two regimes decided by a branch on s < 500: 100 + 2s, else 5000 + 9s */
    proper_strbuf b;
    proper_annot_log L;
    proper_annot a;
    proper_error err;
    proper_rng rng;
    size_t i;
    proper_rng_seed(&rng, 9);
    proper_strbuf_init(&b);
    proper_annot_log_init(&L);
    proper_annot_init(&a);
    proper_strbuf_puts(&b, "proper-annot-log 1\nfunction f metrics time features s\n");
    for (i = 0; i < 1000; i++) {
        double s = (double)(i % 1000);
        int small = s < 500;
        double y = small ? 100 + 2 * s : 5000 + 9 * s;
        proper_strbuf_printf(&b, "f, %.17g, %g, %d, #\n", y + 5 * proper_rng_normal(&rng), s, small);
    }
    CHECK_INT(proper_annot_log_parse(&L, b.data, b.len, "br", &err), 0);
    CHECK_INT(proper_annot_fit(&a, &L.t[0], "time", NULL, &err), 0);
    proper_strbuf_free(&b);
    proper_strbuf_init(&b);
    proper_annot_format(&a, &b, &err);
    /* the branch is named by the feature threshold that separates its sides */
    CHECK_CONTAINS(b.data, "[s <= 499] Norm(");
    CHECK_CONTAINS(b.data, "[s > 499] Norm(");
    CHECK_CONTAINS(b.data, "*s, ");
    proper_strbuf_free(&b);
    proper_annot_log_free(&L);
    proper_annot_free(&a);
}

/* Input-independent with a heavy tail: 90% N(200000, 3800²), 10% slowed by
 * an interruption of 10000/U, U uniform on (0, 1) (Pareto with index 1: a
 * few calls of a shared machine are slowed by far more than the rest). The metric does not depend on s, so no threshold on s may be
 * printed, whatever chance gain a split's two fits show. */
static double f_heavy(double s, proper_rng *r) {
    double y = 200000 + 3800 * proper_rng_normal(r);
    (void)s;
    return proper_rng_uniform(r) < 0.1 ? y + 10000 / proper_rng_uniform(r) : y;
}

static void test_fit_no_split_without_dependence(void) {
    uint64_t seed;
    for (seed = 1; seed <= 10; seed++) {
        proper_annot_log L;
        proper_annot a;
        proper_error err;
        proper_strbuf b;
        proper_annot_log_init(&L);
        proper_annot_init(&a);
        proper_strbuf_init(&b);
        make_table(&L, f_heavy, 2000, 1000, seed);
        CHECK_INT(proper_annot_fit(&a, &L.t[0], "time", NULL, &err), 0);
        proper_annot_format(&a, &b, &err);
        if (strstr(b.data, "[s ") || strstr(b.data, "[junk ")) {
            fprintf(stderr, "seed %llu: a split on independent data:\n%s", (unsigned long long)seed, b.data);
            CHECK(0);
        }
        proper_strbuf_free(&b);
        proper_annot_log_free(&L);
        proper_annot_free(&a);
    }
}

/* A fit on filtered records says so: the lower envelope of 2000 records of
 * the linear model over s in 1..1000 keeps one record per distinct s (or
 * more on ties), and the comment names the filter, the feature and both
 * counts; the text still parses to the same annotation. */
static void test_fit_says_filter(void) {
    proper_annot_log L;
    proper_annot a, b;
    proper_error err;
    proper_strbuf t;
    proper_annot_opts o = proper_annot_opts_default();
    char want[128];
    size_t i, distinct = 0;
    const proper_annot_table *tab;
    unsigned char seen[1001] = {0};
    proper_annot_log_init(&L);
    proper_annot_init(&a);
    proper_annot_init(&b);
    proper_strbuf_init(&t);
    make_table(&L, f_linear, 2000, 1000, 3);
    tab = &L.t[0];
    for (i = 0; i < tab->n; i++) {
        size_t s = (size_t)tab->v[i * tab->ncol + 1];
        distinct += !seen[s];
        seen[s] = 1;
    }
    o.envelope = 1;
    o.heuristic_feature = "s";
    CHECK_INT(proper_annot_fit(&a, tab, "time", &o, &err), 0);
    CHECK_INT(proper_annot_format(&a, &t, &err), 0);
    snprintf(want, sizeof want, "  # fitted on the lower envelope over s: %zu of 2000 records\n", distinct);
    CHECK_CONTAINS(t.data, want);
    CHECK_INT(proper_annot_parse(&b, t.data, t.len, "text", &err), 0);
    CHECK(proper_annot_equal(&a, &b));
    CHECK(b.fns[0].filter == 0 && b.fns[0].filter_feature == NULL);
    proper_strbuf_free(&t);
    proper_annot_log_free(&L);
    proper_annot_free(&a);
    proper_annot_free(&b);
}

/* The threshold search's radix sort: ascending x over negatives, zeros of
 * both signs, repeats and magnitudes from 1e-300 to 1e300, and stable (equal
 * x keep their input order). */
static void test_sort_x(void) {
    proper__annot_xy v[3000], tmp[3000];
    size_t *cnt = (size_t *)malloc(sizeof *cnt * 65536), i, bad = 0;
    proper_rng rng;
    proper_rng_seed(&rng, 12);
    for (i = 0; i < 3000; i++) {
        int k = (int)proper_rng_below(&rng, 5);
        double u = proper_rng_uniform(&rng) - 0.5;
        v[i].x = k == 0 ? 0.0 : k == 1 ? -0.0 : k == 2 ? floor(u * 10) : ldexp(u, (int)proper_rng_below(&rng, 1990) - 995);
        v[i].y = 0;
        v[i].i = i;
    }
    proper__annot_sort_x(v, 3000, tmp, cnt);
    for (i = 1; i < 3000; i++) {
        if (v[i].x < v[i - 1].x) bad++;
        if (memcmp(&v[i].x, &v[i - 1].x, sizeof v[i].x) == 0 && v[i].i < v[i - 1].i) bad++;
    }
    CHECK_INT((int)bad, 0);
    free(cnt);
}

/* ---- sufficient statistics ---- */

/* The statistics of records rows[0..n) of table t (same columns). */
static void stats_of_rows(proper_annot_stats *s, const proper_annot_table *t, const size_t *rows, size_t n) {
    proper_annot_table sub = *t;
    proper_error err;
    size_t i;
    sub.n = n;
    sub.v = (double *)malloc(sizeof *sub.v * n * t->ncol);
    for (i = 0; i < n; i++) memcpy(sub.v + i * t->ncol, t->v + rows[i] * t->ncol, sizeof *sub.v * t->ncol);
    CHECK_INT(proper_annot_stats_add(s, &sub, "time", &err), 0);
    free(sub.v);
}

static char *stats_text(const proper_annot_stats *s) {
    proper_strbuf b;
    proper_error err;
    proper_strbuf_init(&b);
    CHECK_INT(proper_annot_stats_format(s, &b, &err), 0);
    return b.data;
}

/* Any split of the records into parts, counted in any order and merged in
 * any order and grouping, prints the bytes of the whole's statistics: the
 * sums are exact. Planted quadratic data with four features (one constant,
 * one a multiple of another), records shuffled, three parts of random
 * sizes. */
static void test_stats_merge_exact(void) {
    proper_annot_log L;
    proper_annot_stats whole, A, B, C, m1, m2, m3;
    proper_rng rng;
    proper_error err;
    size_t rows[3000], i, cut1, cut2;
    char *tw, *t1, *t2, *t3;
    proper_annot_log_init(&L);
    make_table(&L, f_quad, 3000, 1000, 21);
    proper_rng_seed(&rng, 5);
    for (i = 0; i < 3000; i++) rows[i] = i;
    proper_annot_stats_init(&whole);
    stats_of_rows(&whole, &L.t[0], rows, 3000);
    for (i = 3000; i > 1; i--) {
        size_t j = (size_t)proper_rng_below(&rng, i), x = rows[i - 1];
        rows[i - 1] = rows[j];
        rows[j] = x;
    }
    cut1 = 1 + (size_t)proper_rng_below(&rng, 1000);
    cut2 = cut1 + 1 + (size_t)proper_rng_below(&rng, 1500);
    proper_annot_stats_init(&A);
    proper_annot_stats_init(&B);
    proper_annot_stats_init(&C);
    stats_of_rows(&A, &L.t[0], rows, cut1);
    stats_of_rows(&B, &L.t[0], rows + cut1, cut2 - cut1);
    stats_of_rows(&C, &L.t[0], rows + cut2, 3000 - cut2);
    proper_annot_stats_init(&m1); /* ((A + B) + C) */
    CHECK_INT(proper_annot_stats_merge(&m1, &A, &err), 0);
    CHECK_INT(proper_annot_stats_merge(&m1, &B, &err), 0);
    CHECK_INT(proper_annot_stats_merge(&m1, &C, &err), 0);
    proper_annot_stats_init(&m2); /* (C + (B + A)) */
    CHECK_INT(proper_annot_stats_merge(&m2, &B, &err), 0);
    CHECK_INT(proper_annot_stats_merge(&m2, &A, &err), 0);
    CHECK_INT(proper_annot_stats_merge(&C, &m2, &err), 0);
    proper_annot_stats_init(&m3); /* counted straight from the shuffled records */
    stats_of_rows(&m3, &L.t[0], rows, 3000);
    tw = stats_text(&whole);
    t1 = stats_text(&m1);
    t2 = stats_text(&C);
    t3 = stats_text(&m3);
    CHECK_STR(t1, tw);
    CHECK_STR(t2, tw);
    CHECK_STR(t3, tw);
    CHECK_CONTAINS(tw, "function f metric time records 3000 features s junk s2 konst\n");
    CHECK_CONTAINS(tw, "\nfeature konst min 4 max 4 distinct 4\n");
    CHECK_CONTAINS(tw, "\nrow 0x177p3 "); /* S[0][0] = 3000 = 375·2^3 */
    free(tw);
    free(t1);
    free(t2);
    free(t3);
    proper_annot_stats_free(&whole);
    proper_annot_stats_free(&A);
    proper_annot_stats_free(&B);
    proper_annot_stats_free(&C);
    proper_annot_stats_free(&m1);
    proper_annot_stats_free(&m2);
    proper_annot_stats_free(&m3);
    proper_annot_log_free(&L);
}

/* Sums that a double accumulator gets wrong in one order: 1e16 + 1 - 1e16 + 3
 * is 4 exactly (0x1p2), and Σ y² is 2e32 + 10 exactly, in both orders. */
static void test_stats_sums_exact(void) {
    static const char *const logs[2] = {
        "proper-annot-log 1\nfunction g metrics time features\ng, 1e16\ng, 1\ng, -1e16\ng, 3\n",
        "proper-annot-log 1\nfunction g metrics time features\ng, 3\ng, -1e16\ng, 1\ng, 1e16\n"};
    char *t[2];
    int k;
    for (k = 0; k < 2; k++) {
        proper_annot_log L;
        proper_annot_stats s;
        proper_error err;
        proper_annot_log_init(&L);
        proper_annot_stats_init(&s);
        CHECK_INT(proper_annot_log_parse(&L, logs[k], strlen(logs[k]), "exact", &err), 0);
        CHECK_INT(proper_annot_stats_add(&s, &L.t[0], "time", &err), 0);
        t[k] = stats_text(&s);
        proper_annot_stats_free(&s);
        proper_annot_log_free(&L);
    }
    CHECK_STR(t[0], t[1]);
    /* q = 2 (1 and y): row 0 = n, Σy; row 1 = Σy² = 2·10^32 + 10 = 0x9dc5ada82b70b59df020000000a */
    CHECK_CONTAINS(t[0], "row 0x1p2 0x1p2\nrow 0x4ee2d6d415b85acef8100000005p1\n");
    free(t[0]);
    free(t[1]);
}

/* Format, parse, format: the same bytes; the parsed statistics fit the same. */
static void test_stats_round_trip(void) {
    proper_annot_log L;
    proper_annot_stats s, p;
    proper_error err;
    char *t1, *t2;
    proper_annot_log_init(&L);
    proper_annot_stats_init(&s);
    proper_annot_stats_init(&p);
    make_table(&L, f_nlogn, 500, 1000, 4);
    CHECK_INT(proper_annot_stats_add(&s, &L.t[0], "time", &err), 0);
    t1 = stats_text(&s);
    CHECK_INT(proper_annot_stats_parse(&p, t1, strlen(t1), "rt", &err), 0);
    t2 = stats_text(&p);
    CHECK_STR(t2, t1);
    free(t1);
    free(t2);
    proper_annot_stats_free(&s);
    proper_annot_stats_free(&p);
    proper_annot_log_free(&L);
}

/* The regression from statistics against proper_annot_fit on the records
 * (one scope: planted models with no regimes, fewer records than the class
 * search's sample): the same class and terms, coefficients and σ equal to
 * 1e-8 relative (the Cholesky of the exact sums against the QR of the
 * records). */
static void test_stats_fit_matches_fit(void) {
    static planted_fn fns[3] = {f_linear, f_nlogn, f_quad};
    int k;
    for (k = 0; k < 3; k++) {
        proper_annot_log L;
        proper_annot_stats s;
        proper_annot a, b;
        proper_error err;
        const proper_annot_item *x, *y;
        proper_annot_log_init(&L);
        proper_annot_stats_init(&s);
        proper_annot_init(&a);
        proper_annot_init(&b);
        make_table(&L, fns[k], 2000, 1000, 30 + (uint64_t)k);
        CHECK_INT(proper_annot_fit(&a, &L.t[0], "time", NULL, &err), 0);
        CHECK_INT(proper_annot_stats_add(&s, &L.t[0], "time", &err), 0);
        CHECK_INT(proper_annot_stats_fit(&b, &s, 0, NULL, &err), 0);
        x = &a.it[a.fns[0].body];
        y = &b.it[b.fns[0].body];
        CHECK(x->next < 0 && y->next < 0);
        CHECK_INT(x->cls, y->cls);
        CHECK_INT((int)x->n_obs, (int)y->n_obs);
        CHECK_REL(x->r2, y->r2, 1e-10);
        {
            /* the same terms in the same order, each coefficient close */
            proper_strbuf ta, tb;
            proper_annot_item xa = *x, xb = *y;
            proper_strbuf_init(&ta);
            proper_strbuf_init(&tb);
            proper_annot_format_expr(&a, xa.arg[0], &ta);
            proper_annot_format_expr(&b, xb.arg[0], &tb);
            {
                /* compare the texts with the numbers taken out, then the numbers */
                const char *p = ta.data, *q = tb.data;
                while (*p && *q) {
                    char *pe, *qe;
                    double u = strtod(p, &pe), v = strtod(q, &qe);
                    if (pe != p && qe != q) {
                        CHECK_REL(u, v, 1e-8);
                        p = pe;
                        q = qe;
                    } else {
                        CHECK(*p == *q);
                        if (*p != *q) break;
                        p++;
                        q++;
                    }
                }
                CHECK(!*p && !*q);
            }
            CHECK_REL(a.ex[xa.arg[1]].value, b.ex[xb.arg[1]].value, 1e-8);
            proper_strbuf_free(&ta);
            proper_strbuf_free(&tb);
        }
        proper_annot_stats_free(&s);
        proper_annot_free(&a);
        proper_annot_free(&b);
        proper_annot_log_free(&L);
    }
}

static void expect_stats_error(const char *text, int code, int line, int col, const char *msg) {
    proper_annot_stats s;
    proper_error err;
    proper_annot_stats_init(&s);
    CHECK_INT(proper_annot_stats_parse(&s, text, strlen(text), "bad.stats", &err), code);
    CHECK_STR(err.file, "bad.stats");
    CHECK_INT(err.line, line);
    CHECK_INT(err.col, col);
    CHECK_CONTAINS(err.message, msg);
    CHECK_INT(s.n, 0);
    proper_annot_stats_free(&s);
}

/* Every prefix of a valid statistics file, and the file with any one byte
 * replaced by each of a few characters, reads or fails with a position
 * inside the text; whatever reads prints and reads back to the same bytes. */
static void test_stats_damaged(void) {
    static const char repl[] = "0-x p\n#9f";
    proper_annot_log L;
    proper_annot_stats S;
    proper_error err;
    char *text, *buf;
    size_t len, cut, k, bad = 0;
    static const char log[] = "proper-annot-log 1\nfunction g metrics time features s\n"
                              "g, 1.5, 1\ng, -2, 2\ng, 7, 3\ng, 8.25, 5\ng, 0, 8\ng, 13, 13\n";
    proper_annot_log_init(&L);
    proper_annot_stats_init(&S);
    CHECK_INT(proper_annot_log_parse(&L, log, strlen(log), "small", &err), 0);
    CHECK_INT(proper_annot_stats_add(&S, &L.t[0], "time", &err), 0);
    text = stats_text(&S);
    len = strlen(text);
    buf = (char *)malloc(len + 1);
    for (cut = 0; cut <= len; cut++)
        for (k = 0; k <= sizeof repl - 1; k++) {
            proper_annot_stats P;
            size_t n = k == sizeof repl - 1 ? cut : len, lines = 1, i;
            memcpy(buf, text, len);
            if (k < sizeof repl - 1) {
                if (cut == len) continue;
                buf[cut] = repl[k];
            }
            for (i = 0; i < n; i++) lines += buf[i] == '\n';
            proper_annot_stats_init(&P);
            if (proper_annot_stats_parse(&P, buf, n, "damaged", &err) == PROPER_OK) {
                char *t1 = stats_text(&P), *t2;
                proper_annot_stats Q;
                proper_annot_stats_init(&Q);
                if (proper_annot_stats_parse(&Q, t1, strlen(t1), "again", &err)) bad++;
                t2 = stats_text(&Q);
                if (strcmp(t1, t2)) bad++;
                free(t1);
                free(t2);
                proper_annot_stats_free(&Q);
            } else if (err.line < 1 || (size_t)err.line > lines || err.col < 1) {
                bad++;
            }
            proper_annot_stats_free(&P);
        }
    CHECK_INT((int)bad, 0);
    free(buf);
    free(text);
    proper_annot_stats_free(&S);
    proper_annot_log_free(&L);
}

static void test_stats_errors(void) {
    proper_annot_log L;
    proper_annot_stats s, t;
    proper_error err;
    static const char ok[] = "proper-annot-stats 1\nfunction g metric time records 2 features\nmetric min 1 max 3\n"
                             "row 0x1p1 0x1p2\nrow 0x5p1\n";
    static const char bad_range[] = "proper-annot-log 1\nfunction g metrics time features x\ng, 1, 1e-30\ng, 2, 3\n";
    proper_annot_stats_init(&s);
    CHECK_INT(proper_annot_stats_parse(&s, ok, strlen(ok), "ok", &err), 0);
    proper_annot_stats_free(&s);
    expect_stats_error("proper-annot-log 1\n", PROPER_EPARSE, 1, 1, "proper-annot-stats 1");
    expect_stats_error("proper-annot-stats 1\nfunction g metric time records 2 features\nmetric min 1 max 3\n"
                       "row 0x1p1 0x1q2\nrow 0x5p1\n",
                       PROPER_EPARSE, 4, 14, "'p'");
    expect_stats_error("proper-annot-stats 1\nfunction g metric time records 3 features\nmetric min 1 max 3\n"
                       "row 0x1p1 0x1p2\nrow 0x5p1\n",
                       PROPER_EPARSE, 2, 1, "differs from the records");
    expect_stats_error("proper-annot-stats 1\nfunction g metric time records 2 features\nmetric min 1 max 3\n"
                       "row 0x1p1 0x1p2\n",
                       PROPER_EPARSE, 5, 1, "expected 'row'");
    expect_stats_error("proper-annot-stats 1\nfunction g metric time records 2 features\nmetric min 1 max 3\n"
                       "row 0x1p1 0x1p400\nrow 0x5p1\n",
                       PROPER_ERANGE, 4, 11, "range of exact statistics");
    expect_stats_error("proper-annot-stats 1\nfunction h metric time records 2 features\nmetric min 1 max 3\n"
                       "row 0x1p1 0x1p2\nrow 0x5p1\nfunction g metric time records 2 features\nmetric min 1 max 3\n"
                       "row 0x1p1 0x1p2\nrow 0x5p1\n",
                       PROPER_EPARSE, 6, 1, "sorted");
    expect_stats_error("proper-annot-stats 1\nfunction g metric time records 2 features x\nfeature x min 1 max 3 distinct 3 1\n",
                       PROPER_EPARSE, 3, 34, "increasing");
    /* a sum no 2 records can give (2^330) */
    expect_stats_error("proper-annot-stats 1\nfunction g metric time records 2 features\nmetric min 1 max 3\n"
                       "row 0x1p1 0x1p330\nrow 0x5p1\n",
                       PROPER_ERANGE, 2, 1, "cannot reach 2^320");
    /* values outside the exact range are refused, naming the record */
    proper_annot_log_init(&L);
    proper_annot_stats_init(&s);
    CHECK_INT(proper_annot_log_parse(&L, bad_range, strlen(bad_range), "r", &err), 0);
    CHECK_INT(proper_annot_stats_add(&s, &L.t[0], "time", &err), PROPER_ERANGE);
    CHECK_CONTAINS(err.message, "record 1: feature 'x'");
    proper_annot_log_free(&L);
    /* the same function with other features does not merge */
    proper_annot_stats_init(&t);
    CHECK_INT(proper_annot_stats_parse(&s, ok, strlen(ok), "ok", &err), 0);
    {
        proper_annot_log M;
        static const char with_x[] = "proper-annot-log 1\nfunction g metrics time features x\ng, 1, 1\ng, 3, 2\n";
        proper_annot_log_init(&M);
        CHECK_INT(proper_annot_log_parse(&M, with_x, strlen(with_x), "x", &err), 0);
        CHECK_INT(proper_annot_stats_add(&t, &M.t[0], "time", &err), 0);
        CHECK_INT(proper_annot_stats_merge(&s, &t, &err), PROPER_EINVAL);
        CHECK_CONTAINS(err.message, "different features");
        proper_annot_log_free(&M);
    }
    proper_annot_stats_free(&s);
    proper_annot_stats_free(&t);
}

/* ---- checking ---- */

static void test_check_detects_shift(void) {
    proper_annot_log L, M;
    proper_annot a;
    proper_annot_check c;
    proper_error err;
    proper_annot_log_init(&L);
    proper_annot_log_init(&M);
    proper_annot_init(&a);
    proper_annot_check_init(&c);
    make_table(&L, f_linear, 2000, 1000, 21);
    CHECK_INT(proper_annot_fit(&a, &L.t[0], "time", NULL, &err), 0);
    /* fresh data from the same model: no violation at 1% */
    make_table(&M, f_linear, 2000, 1000, 22);
    CHECK_INT(proper_annot_check_table(&c, &a, &a.fns[0], &M.t[0], 0.01, 1, &err), 0);
    CHECK_INT(c.violations, 0);
    CHECK_INT(c.uncovered, 0);
    CHECK_INT(c.tested, 1);
    /* 30 ns slower (1.5 σ): violated */
    make_table(&M, f_nlogn, 2000, 1000, 23);
    CHECK_INT(proper_annot_check_table(&c, &a, &a.fns[0], &M.t[0], 0.01, 1, &err), 0);
    CHECK_INT(c.violations, 1);
    CHECK(c.scopes[0].p_value < 1e-6);
    proper_annot_check_free(&c);
    proper_annot_log_free(&L);
    proper_annot_log_free(&M);
    proper_annot_free(&a);
}

static void test_check_mixture(void) {
    /* a mixture fitted on one sample passes on a fresh sample of the same
     * mixture and fails when the proportions change (0.3/0.7 -> 0.6/0.4) */
    proper_annot_log L, M;
    proper_annot a;
    proper_annot_check c;
    proper_error err;
    proper_strbuf b;
    proper_rng rng;
    size_t i;
    proper_annot_log_init(&L);
    proper_annot_log_init(&M);
    proper_annot_init(&a);
    proper_annot_check_init(&c);
    make_table(&L, f_bimodal, 2000, 1000, 31);
    CHECK_INT(proper_annot_fit(&a, &L.t[0], "time", NULL, &err), 0);
    make_table(&M, f_bimodal, 2000, 1000, 32);
    CHECK_INT(proper_annot_check_table(&c, &a, &a.fns[0], &M.t[0], 0.01, 1, &err), 0);
    CHECK_INT(c.tested, 1);
    CHECK_INT(c.violations, 0);
    proper_strbuf_init(&b);
    proper_rng_seed(&rng, 33);
    proper_strbuf_puts(&b, "time,s\n");
    for (i = 0; i < 2000; i++)
        proper_strbuf_printf(&b, "%.17g,1\n", proper_rng_uniform(&rng) < 0.6 ? 1000 + 30 * proper_rng_normal(&rng)
                                                                            : 5000 + 60 * proper_rng_normal(&rng));
    CHECK_INT(proper_annot_log_parse(&M, b.data, b.len, "shifted", &err), 0);
    CHECK_INT(proper_annot_check_table(&c, &a, &a.fns[0], &M.t[0], 0.01, 1, &err), 0);
    CHECK_INT(c.violations, 1);
    proper_strbuf_free(&b);
    proper_annot_check_free(&c);
    proper_annot_log_free(&L);
    proper_annot_log_free(&M);
    proper_annot_free(&a);
}

static void test_fit_edge_cases(void) {
    const char *one = "time,s\n5,1\n";
    const char *flat = "time,s\n5,1\n5,2\n5,3\n5,4\n5,5\n";
    proper_annot_log L;
    proper_annot a;
    proper_error err;
    proper_strbuf b;
    proper_annot_log_init(&L);
    proper_annot_init(&a);
    proper_strbuf_init(&b);
    CHECK_INT(proper_annot_log_parse(&L, one, strlen(one), "one", &err), 0);
    CHECK_INT(proper_annot_fit(&a, &L.t[0], "time", NULL, &err), 0);
    CHECK_INT(proper_annot_fit(&a, &L.t[0], "nope", NULL, &err), PROPER_EUNDEFINED);
    CHECK_INT(a.n_fns, 1); /* unchanged by the failure */
    CHECK_INT(proper_annot_log_parse(&L, flat, strlen(flat), "flat", &err), 0);
    CHECK_INT(proper_annot_fit(&a, &L.t[0], "time", NULL, &err), 0);
    CHECK_INT(a.n_fns, 2);
    proper_annot_format(&a, &b, &err);
    /* the fit's comment: records, class, R² (none for a single record) */
    CHECK_CONTAINS(b.data, "f.time(s) {\n  Norm(5, 0);  # 5 records, constant, R2 1.0000\n}\n");
    CHECK_CONTAINS(b.data, "f.time() {\n  Norm(5, 0);  # 1 record, constant\n}\n");
    /* all features equal: no feature survives the clean-up, the metric's
     * distribution is fitted; a declared function without records is an error */
    {
        const char *same = "time,s,t\n1.5,7,7\n3.5,7,7\n2.5,7,7\n4.5,7,7\n2.5,7,7\n3.5,7,7\n";
        const char *empty = "proper-annot-log 1\nfunction f metrics time features s\n";
        const char *dotted = "proper-annot-log 1\nfunction f metrics a.b features s\nf, 1, 2\nf, 3, 4\n";
        proper_strbuf_free(&b);
        proper_strbuf_init(&b);
        CHECK_INT(proper_annot_log_parse(&L, same, strlen(same), "same", &err), 0);
        CHECK_INT(proper_annot_fit(&a, &L.t[0], "time", NULL, &err), 0);
        proper_annot_format(&a, &b, &err);
        CHECK_CONTAINS(b.data, "f.time() {\n  Norm(3, 1.0488088481701516);  # 6 records, input-independent\n}\n"); /* mean 3, sd sqrt(5.5/5) */
        CHECK_INT(proper_annot_log_parse(&L, empty, strlen(empty), "empty", &err), 0);
        CHECK_INT(proper_annot_fit(&a, &L.t[0], "time", NULL, &err), PROPER_EINVAL);
        CHECK_CONTAINS(err.message, "no records");
        CHECK_INT(proper_annot_log_parse(&L, dotted, strlen(dotted), "dotted", &err), 0);
        CHECK_INT(proper_annot_fit(&a, &L.t[0], "a.b", NULL, &err), PROPER_EINVAL);
    }
    proper_strbuf_free(&b);
    proper_annot_log_free(&L);
    proper_annot_free(&a);
}

/* ---- recording ---- */

typedef struct rec_arg {
    proper_annot_writer *w;
    int fn, base;
} rec_arg;

static void *rec_thread(void *p) {
    rec_arg *a = (rec_arg *)p;
    proper_annot_recorder r;
    proper_error err;
    int i;
    proper_annot_recorder_init(&r, a->w, &err);
    for (i = 0; i < 10000; i++) {
        proper_annot_begin(&r, a->fn);
        proper_annot_feature(&r, 0, (double)(a->base + i));
        proper_annot_branch(&r, 1, i % 2);
        proper_annot_branch(&r, 1, 1); /* only the first outcome counts */
        proper_annot_end(&r);
    }
    proper_annot_recorder_flush(&r, &err);
    proper_annot_recorder_free(&r);
    return NULL;
}

static void test_recorder_reservoir(void) {
    /* two threads call f 10000 times each with feature i = 0..9999 and
     * 10000..19999; the reservoir keeps 1000: a uniform sample of the 20000
     * calls has mean 9999.5 with sd 5773.5/sqrt(1000)·sqrt(19000/19999) = 178,
     * and about half its calls from each thread (binomial sd 15.8). */
    proper_annot_writer *w = NULL;
    proper_error err;
    pthread_t th[2];
    rec_arg args[2];
    proper_annot_log L;
    const proper_annot_table *t;
    char path[] = "build/tests/annot_rec.log";
    double self_ns, pair_ns, mean = 0;
    size_t i, low = 0, odd = 0;
    int f;
    CHECK_INT(proper_annot_writer_open(&w, path, 1000, 0, 42, &err), 0);
    if (!w) return;
    f = proper_annot_writer_function(w, "f", "i", &err);
    CHECK_INT(f, 0);
    CHECK(proper_annot_writer_function(w, "bad name", "", &err) < 0);
    CHECK(proper_annot_writer_function(w, "g", "1x", &err) < 0);
    proper_annot_writer_overhead(w, &self_ns, &pair_ns);
    CHECK(self_ns >= 0 && self_ns < 5000 && pair_ns >= 0 && pair_ns < 5000);
    for (i = 0; i < 2; i++) {
        args[i].w = w;
        args[i].fn = f;
        args[i].base = (int)i * 10000;
        pthread_create(&th[i], NULL, rec_thread, &args[i]);
    }
    for (i = 0; i < 2; i++) pthread_join(th[i], NULL);
    CHECK_INT(proper_annot_writer_close(w, &err), 0);
    proper_annot_log_init(&L);
    CHECK_INT(proper_annot_log_read(&L, path, &err), 0);
    t = proper_annot_log_find(&L, "f");
    CHECK(t != NULL);
    if (t) {
        CHECK_INT(t->n, 1000);
        CHECK_INT(t->ncol, 2);
        CHECK_STR(t->cols[0], "time");
        CHECK_STR(t->cols[1], "i");
        for (i = 0; i < t->n; i++) {
            double v = t->v[i * 2 + 1];
            mean += v;
            low += v < 10000;
            odd += (size_t)v % 2 == 1;
            /* branch 2 (index 1) holds the first outcome: i % 2; branch 1 never ran */
            if (proper_annot_table_branch(t, i, 1) != (double)((long)v % 2)) { CHECK(0); break; }
            if (!isnan(proper_annot_table_branch(t, i, 0))) { CHECK(0); break; }
        }
        mean /= (double)t->n;
        CHECK_ABS(mean, 9999.5, 5 * 178);
        CHECK_ABS((double)low, 500, 5 * 15.8);
        CHECK_ABS((double)odd, 500, 5 * 15.8);
    }
    proper_annot_log_free(&L);
    remove(path);
}

/* stats of several logs: a declared function without records adds nothing,
 * F missing or without records is an error naming the one log (or none of
 * several), the counts are the records', and fit_matching fits each entry of
 * the metric (records reported) and skips the others. */
static void test_stats_add_logs(void) {
    static const char one[] = "proper-annot-log 1\nfunction g metrics time features n\nfunction h metrics time heap features\n"
                              "g, 10, 1\ng, 20, 2\ng, 31, 3\nh, 5, 7\n";
    static const char two[] = "proper-annot-log 1\nfunction g metrics time features n\nfunction idle metrics time features\n"
                              "g, 41, 4\ng, 50, 5\n";
    const char *const names[2] = {"one.log", "two.log"};
    proper_annot_log A, B;
    proper_annot_stats S;
    proper_annot a;
    proper_error err;
    uint64_t records[4];
    size_t counted = 0, fitted = 0;
    int has = 0;
    proper_annot_log_init(&A);
    proper_annot_log_init(&B);
    proper_annot_stats_init(&S);
    proper_annot_init(&a);
    CHECK_INT(proper_annot_log_parse(&A, one, strlen(one), "one.log", &err), 0);
    CHECK_INT(proper_annot_log_parse(&B, two, strlen(two), "two.log", &err), 0);
    CHECK_INT(proper_annot_stats_add_log(&S, &A, NULL, "time", &has, &counted, &err), 0);
    CHECK_INT(proper_annot_stats_add_log(&S, &B, NULL, "time", &has, &counted, &err), 0);
    CHECK_INT((int)counted, 3); /* g twice, h once; idle has no records */
    CHECK_INT((int)S.n, 2);
    CHECK_STR(S.f[0].function, "g");
    CHECK_INT((int)S.f[0].n, 5);
    CHECK_INT(proper_annot_stats_found(NULL, "time", 0, counted, names, 2, &err), 0);
    CHECK_INT(proper_annot_stats_fit_matching(&a, &S, NULL, "time", NULL, records, &fitted, &err), 0);
    CHECK_INT((int)fitted, 2);
    CHECK_INT((int)a.n_fns, 2);
    CHECK_STR(a.fns[0].name, "g");
    CHECK_STR(a.fns[1].name, "h");
    CHECK_INT((int)records[0], 5);
    CHECK_INT((int)records[1], 1);
    CHECK_INT(proper_annot_stats_fit_matching(&a, &S, "h", "heap", NULL, NULL, &fitted, &err), 0);
    CHECK_INT((int)fitted, 0);
    /* F absent from both logs; present without records; lacking the column */
    has = 0;
    counted = 0;
    CHECK_INT(proper_annot_stats_add_log(&S, &B, "nope", "time", &has, &counted, &err), 0);
    CHECK_INT(proper_annot_stats_found("nope", "time", has, counted, names, 2, &err), PROPER_EUNDEFINED);
    CHECK(strstr(err.message, "no function 'nope' in any of the 2 logs") != NULL);
    CHECK_INT(proper_annot_stats_add_log(&S, &B, "idle", "time", &has, &counted, &err), 0);
    CHECK_INT(proper_annot_stats_found("idle", "time", has, counted, names, 1, &err), PROPER_EUNDEFINED);
    CHECK_STR(err.file, "one.log");
    CHECK(strstr(err.message, "function 'idle' has no records") != NULL);
    CHECK_INT(proper_annot_stats_add_log(&S, &A, "g", "heap", &has, &counted, &err), PROPER_EUNDEFINED);
    CHECK(strstr(err.message, "function 'g' has no column 'heap'") != NULL);
    CHECK_INT(proper_annot_stats_found(NULL, "heap", 0, 0, names, 2, &err), PROPER_EUNDEFINED);
    CHECK(strstr(err.message, "no function with a column 'heap' has records in any log") != NULL);
    proper_annot_free(&a);
    proper_annot_stats_free(&S);
    proper_annot_log_free(&A);
    proper_annot_log_free(&B);
}

int main(void) {
    RUN(test_lsq_simple_regression_closed_form);
    RUN(test_lsq_pvalue_at_tabulated_t);
    RUN(test_lsq_planted_coefficients);
    RUN(test_lsq_errors);
    RUN(test_log_record_format);
    RUN(test_log_csv);
    RUN(test_log_errors);
    RUN(test_parse_figure2_and_round_trip);
    RUN(test_print_precedence);
    RUN(test_parse_errors);
    RUN(test_kde_cuts);
    RUN(test_lower_envelope);
    RUN(test_fit_recovers_classes);
    RUN(test_fit_binomial);
    RUN(test_fit_planted_coefficients);
    RUN(test_fit_mixture);
    RUN(test_fit_branch_split);
    RUN(test_fit_no_split_without_dependence);
    RUN(test_fit_says_filter);
    RUN(test_sort_x);
    RUN(test_stats_merge_exact);
    RUN(test_stats_sums_exact);
    RUN(test_stats_round_trip);
    RUN(test_stats_fit_matches_fit);
    RUN(test_stats_add_logs);
    RUN(test_stats_errors);
    RUN(test_stats_damaged);
    RUN(test_check_detects_shift);
    RUN(test_check_mixture);
    RUN(test_fit_edge_cases);
    RUN(test_recorder_reservoir);
    return test_summary();
}
