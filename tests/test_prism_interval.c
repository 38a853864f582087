/* Tests for prism.h's interval models (PRISM's IDTMCs: `[lo,hi]:update`):
 * parsing, building (products of synchronised intervals, repeated
 * destinations, PRISM's delimiting), errors, and Pmin/Pmax. Expected values
 * are read off PRISM 4.10.2-dev (each cites the command; the model texts
 * are here), closed forms, or an independent brute force: every choice of
 * a vertex of each state's interval polytope, each induced chain solved by
 * Gaussian elimination written here. */
#define PROPER_IMPLEMENTATION
#include "../src/prism.h"
#include "test.h"

static char errbuf[1024];
static const char *fmt_err(const proper_error *e) { return proper_error_format(e, errbuf, sizeof errbuf); }

/* PRISM's test model functionality/verify/idtmcs/test.prism. */
static const char *test_model = "dtmc\nmodule M\n s : [0..3];\n"
                                " [] s=0 -> [0.1,0.2]:(s'=1) + [0.8,0.9]:(s'=2);\n [] s>0 -> true;\nendmodule\n";

/* A model parsed and built with its intervals; 1 on failure (printed). */
static int build(const char *text, const char *consts, proper_prism_model **m, proper_dtmc *d, proper_prism_intervals *iv) {
    proper_error e;
    *m = NULL;
    proper_dtmc_init(d);
    proper_prism_intervals_init(iv);
    if (proper_prism_parse(m, text, strlen(text), "t.pm", &e) || (consts && proper_prism_set_consts(*m, NULL, consts, &e)) ||
        proper_prism_build_intervals(*m, NULL, d, iv, &e)) {
        printf("  %s\n", fmt_err(&e));
        return 1;
    }
    return 0;
}

static void release(proper_prism_model *m, proper_dtmc *d, proper_prism_intervals *iv) {
    proper_prism_intervals_free(iv);
    proper_dtmc_free(d);
    proper_prism_free(m);
}

/* Value of one property in the initial state, with the intervals; NAN on error. */
static double check1(const proper_prism_model *m, const proper_dtmc *d, const proper_prism_intervals *iv, const char *prop) {
    proper_prism_props *p = NULL;
    proper_prism_check_opts o = proper_prism_check_opts_default();
    proper_error e;
    double v = NAN;
    o.intervals = iv;
    o.solve.rel_precision = 1e-10;
    if (proper_prism_props_parse(&p, m, prop, strlen(prop), "prop", &e) || proper_prism_props_check(p, 0, d, &o, &v, &e)) {
        printf("  %s: %s\n", prop, fmt_err(&e));
        v = NAN;
    }
    proper_prism_props_free(p);
    return v;
}

/* The interval of transition s -> t; 0 when there is none. */
static int interval_of(const proper_dtmc *d, const proper_prism_intervals *iv, uint32_t s, uint32_t t, double *lo, double *hi) {
    uint64_t k;
    for (k = d->row[s]; k < d->row[s + 1]; k++)
        if (d->col[k] == t) {
            *lo = iv->lo[k];
            *hi = iv->hi[k];
            return 1;
        }
    return 0;
}

#define CHECK_INTERVAL(d, iv, s, t, l, h)                      \
    do {                                                        \
        double lo_ = NAN, hi_ = NAN;                            \
        CHECK(interval_of(d, iv, s, t, &lo_, &hi_));            \
        CHECK_ABS(lo_, l, 1e-12);                               \
        CHECK_ABS(hi_, h, 1e-12);                               \
    } while (0)

/* PRISM's test.prism: its RESULTs (prism-tests/functionality/verify/idtmcs/
 * test.prism.props), the intervals as written, the DTMC's probability
 * within them, and P=? refused as PRISM refuses it ("Can't use "P=?" for
 * nondeterministic models"). */
static void test_prism_test_model(void) {
    proper_prism_model *m;
    proper_dtmc d;
    proper_prism_intervals iv;
    proper_prism_props *p = NULL;
    proper_prism_check_opts o = proper_prism_check_opts_default();
    proper_error e;
    double v;
    uint64_t k;
    if (build(test_model, NULL, &m, &d, &iv)) return;
    CHECK(proper_prism_has_intervals(m));
    CHECK_INT(d.n_states, 3);
    CHECK_INT(iv.n, d.n_trans);
    CHECK_INTERVAL(&d, &iv, 0, 1, 0.1, 0.2);
    CHECK_INTERVAL(&d, &iv, 0, 2, 0.8, 0.9);
    CHECK_INTERVAL(&d, &iv, 1, 1, 1, 1);
    for (k = 0; k < d.n_trans; k++) CHECK(d.prob[k] >= iv.lo[k] - 1e-12 && d.prob[k] <= iv.hi[k] + 1e-12);
    CHECK_ABS(check1(m, &d, &iv, "Pmin=? [ F s=1 ]"), 0.1, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmax=? [ F s=1 ]"), 0.2, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmin=? [ F s=2 ]"), 0.8, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmax=? [ F s=2 ]"), 0.9, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmin=? [ (G! s=1) ]"), 0.8, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmax=? [ (G! s=1) ]"), 0.9, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmin=? [ (G! s=2) ]"), 0.1, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmax=? [ (G! s=2) ]"), 0.2, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "P min=? [ F<=1 s=1 ]"), 0.1, 1e-15);
    /* bounds: P>=b holds when it holds for every choice (the minimum) */
    CHECK_ABS(check1(m, &d, &iv, "P>=0.15 [ F s=1 ]"), 0, 0);
    CHECK_ABS(check1(m, &d, &iv, "P>=0.05 [ F s=1 ]"), 1, 0);
    CHECK_ABS(check1(m, &d, &iv, "P<0.25 [ F s=1 ]"), 1, 0);
    o.intervals = &iv;
    CHECK_INT(proper_prism_props_parse(&p, m, "P=? [ F s=1 ]", 13, "prop", &e), 0);
    CHECK_INT(proper_prism_props_check(p, 0, &d, &o, &v, &e), PROPER_EINVAL);
    CHECK(strstr(e.message, "Pmin=? or Pmax=?") != NULL);
    proper_prism_props_free(p);
    release(m, &d, &iv);
}

/* Plain probabilities with intervals, a repeated destination (the ends
 * add) and an upper end trimmed to what the others allow, as PRISM builds
 * them: `prism mixed.prism -exportmodel mixed.tra` (4.10.2-dev) writes
 * 0 1 [0.4,0.6], 0 2 [0.4,0.4], 0 3 [0,0.2]. */
static void test_delimit_and_merge(void) {
    static const char *text = "dtmc\nmodule M\n s : [0..3];\n"
                              " [] s=0 -> [0.1,0.2]:(s'=1) + [0.3,0.4]:(s'=1) + 0.4:(s'=2) + [0,0.3]:(s'=3);\n"
                              " [] s>0 -> (s'=s);\nendmodule\n";
    proper_prism_model *m;
    proper_dtmc d;
    proper_prism_intervals iv;
    if (build(text, NULL, &m, &d, &iv)) return;
    CHECK_INT(d.row[1] - d.row[0], 3);
    CHECK_INTERVAL(&d, &iv, 0, 1, 0.4, 0.6);
    CHECK_INTERVAL(&d, &iv, 0, 2, 0.4, 0.4);
    CHECK_INTERVAL(&d, &iv, 0, 3, 0, 0.2);
    /* closed forms: the mass 0.2 left over the lower ends goes to s=1 or s=3 */
    CHECK_ABS(check1(m, &d, &iv, "Pmax=? [ F s=1 ]"), 0.6, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmin=? [ F s=1 ]"), 0.4, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmax=? [ F s=3 ]"), 0.2, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmin=? [ F s=3 ]"), 0, 1e-9);
    release(m, &d, &iv);
}

/* Synchronised commands multiply their intervals end by end; two modules'
 * `true` self-loops in one state are one step to it. `prism sync.prism
 * -exportmodel sync.tra` (4.10.2-dev) writes 0 1 [0.03,0.1], 0 2
 * [0.05,0.14], 0 3 [0.24,0.45], 0 4 [0.4,0.63]; PRISM's Pmax and Pmin of
 * F s=1&t=1: 0.1, 0.03; of F s=2: 0.92, 0.76. */
static void test_sync_product(void) {
    static const char *text = "dtmc\nmodule M\n s : [0..3];\n"
                              " [a] s=0 -> [0.1,0.2]:(s'=1) + [0.8,0.9]:(s'=2);\n [] s>0 -> true;\nendmodule\n"
                              "module N\n t : [0..2];\n [a] t=0 -> [0.3,0.5]:(t'=1) + [0.5,0.7]:(t'=2);\n"
                              " [] t>0 -> true;\nendmodule\n";
    proper_prism_model *m;
    proper_dtmc d;
    proper_prism_intervals iv;
    if (build(text, NULL, &m, &d, &iv)) return;
    CHECK_INT(d.n_states, 5);
    CHECK_INTERVAL(&d, &iv, 0, 1, 0.03, 0.1);
    CHECK_INTERVAL(&d, &iv, 0, 2, 0.05, 0.14);
    CHECK_INTERVAL(&d, &iv, 0, 3, 0.24, 0.45);
    CHECK_INTERVAL(&d, &iv, 0, 4, 0.4, 0.63);
    CHECK_INTERVAL(&d, &iv, 1, 1, 1, 1);
    CHECK_ABS(check1(m, &d, &iv, "Pmax=? [ F s=1&t=1 ]"), 0.1, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmin=? [ F s=1&t=1 ]"), 0.03, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmax=? [ F s=2 ]"), 0.92, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmin=? [ F s=2 ]"), 0.76, 1e-9);
    release(m, &d, &iv);
}

/* Knuth-Yao's die with [0.4,0.6] on its first coin, constants in the
 * bounds. Closed forms (the die reaches d=1 with probability p/3 for the
 * first coin's p; F<=5 "end" does not depend on it; G<=3 s!=5 fails only
 * through 0 -> 2 -> 5); PRISM (`prism idie.pm idie.props`, 4.10.2-dev)
 * gives 0.13333330, 0.19999995 (its default precision), 0.9375, 0.7. */
static void test_die(void) {
    static const char *text = "dtmc\nconst double u;\nmodule die\n s : [0..7] init 0;\n d : [0..6] init 0;\n"
                              " [] s=0 -> [0.5-u,0.5+u] : (s'=1) + [0.5-u,0.5+u] : (s'=2);\n"
                              " [] s=1 -> 0.5 : (s'=3) + 0.5 : (s'=4);\n [] s=2 -> 0.5 : (s'=5) + 0.5 : (s'=6);\n"
                              " [] s=3 -> 0.5 : (s'=1) + 0.5 : (s'=7) & (d'=1);\n"
                              " [] s=4 -> 0.5 : (s'=7) & (d'=2) + 0.5 : (s'=7) & (d'=3);\n"
                              " [] s=5 -> 0.5 : (s'=7) & (d'=4) + 0.5 : (s'=7) & (d'=5);\n"
                              " [] s=6 -> 0.5 : (s'=2) + 0.5 : (s'=7) & (d'=6);\n [] s=7 -> (s'=7);\nendmodule\n";
    proper_prism_model *m;
    proper_dtmc d;
    proper_prism_intervals iv;
    if (build(text, "u=0.1", &m, &d, &iv)) return;
    CHECK_REL(check1(m, &d, &iv, "Pmin=? [ F s=7 & d=1 ]"), 0.4 / 3, 1e-9);
    CHECK_REL(check1(m, &d, &iv, "Pmax=? [ F s=7 & d=1 ]"), 0.6 / 3, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmin=? [ F<=5 s=7 ]"), 0.9375, 1e-15);
    CHECK_ABS(check1(m, &d, &iv, "Pmax=? [ F<=5 s=7 ]"), 0.9375, 1e-15);
    CHECK_ABS(check1(m, &d, &iv, "Pmin=? [ G<=3 s!=5 ]"), 0.7, 1e-15);
    CHECK_ABS(check1(m, &d, &iv, "Pmax=? [ G<=3 s!=5 ]"), 0.8, 1e-15);
    release(m, &d, &iv);
}

/* X and rewards on the interval die (first coin p in [0.4, 0.6]), with
 * rewards 1 in s=1 and 2 on leaving s=0. Closed forms: s=1 is visited
 * 4/3 times on average once reached (back from 3 with 1/4), so
 * R [ F s=7 ] = 2 + 4p/3; R [ C<=2 ] = 2 + p; P [ X s=1 ] = p. PRISM
 * (`prism idie.pm idie.props`, 4.10.2-dev) refuses transition rewards on
 * IDTMCs ("Transition rewards not supported for IDTMCs") and C on them;
 * with the state reward alone it gives Rmin/Rmax [ F s=7 ] 0.5333332,
 * 0.7999998 (its default precision) and Pmin/Pmax [ X s=1 ] 0.4, 0.6; for
 * X of a path formula it gives Pmin/Pmax [ X F s=7 & d=1 ] 0.1333333,
 * 0.1999999 (p/3 as in test_die), Pmax [ X X s=3 ] 0.3, Pmin [ !(X F s=7 &
 * d=1) ] 0.7999999, Pmax [ X (s=1 U s=3) ] 0.3, and Rmin/Rmax [ X F s=7 ]
 * as R [ F s=7 ] (s=0 is not s=7). */
static void test_die_rewards(void) {
    static const char *text = "dtmc\nconst double u = 0.1;\nmodule die\n s : [0..7] init 0;\n d : [0..6] init 0;\n"
                              " [] s=0 -> [0.5-u,0.5+u] : (s'=1) + [0.5-u,0.5+u] : (s'=2);\n"
                              " [] s=1 -> 0.5 : (s'=3) + 0.5 : (s'=4);\n [] s=2 -> 0.5 : (s'=5) + 0.5 : (s'=6);\n"
                              " [] s=3 -> 0.5 : (s'=1) + 0.5 : (s'=7) & (d'=1);\n"
                              " [] s=4 -> 0.5 : (s'=7) & (d'=2) + 0.5 : (s'=7) & (d'=3);\n"
                              " [] s=5 -> 0.5 : (s'=7) & (d'=4) + 0.5 : (s'=7) & (d'=5);\n"
                              " [] s=6 -> 0.5 : (s'=2) + 0.5 : (s'=7) & (d'=6);\n [] s=7 -> (s'=7);\nendmodule\n"
                              "rewards \"r\" s=1 : 1; [] s=0 : 2; endrewards\nrewards \"v\" s=1 : 1; endrewards\n";
    proper_prism_model *m;
    proper_dtmc d;
    proper_prism_intervals iv;
    if (build(text, NULL, &m, &d, &iv)) return;
    CHECK_ABS(check1(m, &d, &iv, "Pmin=? [ X s=1 ]"), 0.4, 1e-15);
    CHECK_ABS(check1(m, &d, &iv, "Pmax=? [ X s=1 ]"), 0.6, 1e-15);
    CHECK_ABS(check1(m, &d, &iv, "Pmax=? [ X !(s=1) ]"), 0.6, 1e-15);
    CHECK_REL(check1(m, &d, &iv, "Rmin=? [ F s=7 ]"), 2 + 0.4 * 4 / 3, 1e-9);
    CHECK_REL(check1(m, &d, &iv, "Rmax=? [ F s=7 ]"), 2 + 0.6 * 4 / 3, 1e-9);
    CHECK_REL(check1(m, &d, &iv, "R{\"v\"}min=? [ F s=7 ]"), 0.4 * 4 / 3, 1e-9);
    CHECK_REL(check1(m, &d, &iv, "R{\"v\"}max=? [ F s=7 ]"), 0.6 * 4 / 3, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Rmin=? [ C<=2 ]"), 2.4, 1e-15);
    CHECK_ABS(check1(m, &d, &iv, "Rmax=? [ C<=2 ]"), 2.6, 1e-15);
    CHECK_REL(check1(m, &d, &iv, "Pmin=? [ X F s=7 & d=1 ]"), 0.4 / 3, 1e-9);
    CHECK_REL(check1(m, &d, &iv, "Pmax=? [ X F s=7 & d=1 ]"), 0.6 / 3, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmax=? [ X X s=3 ]"), 0.3, 1e-15);
    CHECK_REL(check1(m, &d, &iv, "Pmin=? [ !(X F s=7 & d=1) ]"), 1 - 0.6 / 3, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "Pmax=? [ X (s=1 U s=3) ]"), 0.3, 1e-15);
    CHECK_REL(check1(m, &d, &iv, "Rmin=? [ X F s=7 ]"), 2 + 0.4 * 4 / 3, 1e-9);
    CHECK_REL(check1(m, &d, &iv, "Rmax=? [ X F s=7 ]"), 2 + 0.6 * 4 / 3, 1e-9);
    CHECK_ABS(check1(m, &d, &iv, "R<=2.5 [ C<=2 ]"), 0, 0); /* must hold for the maximum */
    CHECK_ABS(check1(m, &d, &iv, "R>=2.3 [ C<=2 ]"), 1, 0);
    release(m, &d, &iv);
}

/* Bad intervals: an error naming file:line:col (or the state) and what
 * is wrong; proper_prism_build refuses a model with intervals. */
static void test_errors(void) {
    static const struct {
        const char *cmd; /* the command of state 0 */
        int code, line, col;
        const char *says;
    } cases[] = {
        {"[] s=0 -> [0.3,0.2]:(s'=1) + [0.8,0.9]:(s'=2);", PROPER_EPROB, 4, 17, "empty"},
        {"[] s=0 -> [-0.1,0.2]:(s'=1) + [0.8,0.9]:(s'=2);", PROPER_EPROB, 4, 13, "-0.1"},
        {"[] s=0 -> [0.1,0.2]:(s'=1) + [0.5,0.6]:(s'=2);", PROPER_EPROB, 4, 2, "upper ends"},
        {"[] s=0 -> [0.5,0.6]:(s'=1) + [0.6,0.9]:(s'=2);", PROPER_EPROB, 4, 2, "lower ends"},
        {"[] s=0 -> [0.1 0.2]:(s'=1);", PROPER_EPARSE, 4, 17, "','"},
        {"[] s=0 -> [0.1,0.2:(s'=1);", PROPER_EPARSE, 4, 20, "']'"},
        {"[] s=0 -> [0.1,true]:(s'=1);", PROPER_EPARSE, 4, 17, "probability"},
        {"[] s=0 -> [0.2,0.5]:(s'=1) + [0.5,0.8]:(s'=2);\n [] s=0 -> (s'=2);", PROPER_EPROB, 5, 2, "line 4's"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        proper_prism_model *m = NULL;
        proper_dtmc d;
        proper_prism_intervals iv;
        proper_error e;
        int rc;
        snprintf(text, sizeof text, "dtmc\nmodule M\n s : [0..2];\n %s\n [] s>0 -> true;\nendmodule\n", cases[i].cmd);
        proper_dtmc_init(&d);
        proper_prism_intervals_init(&iv);
        rc = proper_prism_parse(&m, text, strlen(text), "t.pm", &e);
        if (rc == 0) rc = proper_prism_build_intervals(m, NULL, &d, &iv, &e);
        CHECK_INT(rc, cases[i].code);
        CHECK_INT(e.line, cases[i].line);
        CHECK_INT(e.col, cases[i].col);
        if (!strstr(e.message, cases[i].says)) printf("  case %lu: %s\n", (unsigned long)i, fmt_err(&e));
        CHECK(strstr(e.message, cases[i].says) != NULL);
        CHECK(iv.lo == NULL && d.n_states == 0); /* outputs unchanged */
        proper_prism_free(m);
    }
    {
        proper_prism_model *m = NULL;
        proper_dtmc d;
        proper_error e;
        const char *ctmc = "ctmc\nmodule M\n s : [0..1];\n [] s=0 -> [1,2]:(s'=1);\nendmodule\n";
        proper_dtmc_init(&d);
        CHECK_INT(proper_prism_parse(&m, ctmc, strlen(ctmc), "t.pm", &e), PROPER_EPARSE);
        CHECK_INT(e.line, 4);
        CHECK_INT(e.col, 12);
        CHECK_INT(proper_prism_parse(&m, test_model, strlen(test_model), "t.pm", &e), 0);
        CHECK_INT(proper_prism_build(m, NULL, &d, &e), PROPER_EUNSUPPORTED);
        CHECK_INT(e.line, 4);
        proper_prism_free(m);
    }
}

/* ---- Brute force: every vertex choice ------------------------------------ */

#define BF_N 5    /* states: 0..2 move, 3 the target, 4 a trap */
#define BF_K 3    /* successors of a moving state */
#define BF_V 24   /* most vertices of one row's polytope */

/* The vertices of {p : lo <= p <= hi, sum p = 1} (k entries): every point
 * with all entries but one at an end and that one in between. */
static size_t bf_vertices(const double *lo, const double *hi, size_t k, double (*out)[BF_K]) {
    size_t n = 0, free_j, mask, j, v;
    for (free_j = 0; free_j < k; free_j++)
        for (mask = 0; mask < ((size_t)1 << k); mask++) {
            double p[BF_K], rest = 1;
            int dup = 0;
            if (mask & ((size_t)1 << free_j)) continue;
            for (j = 0; j < k; j++)
                if (j != free_j) {
                    p[j] = mask & ((size_t)1 << j) ? hi[j] : lo[j];
                    rest -= p[j];
                }
            if (rest < lo[free_j] - 1e-12 || rest > hi[free_j] + 1e-12) continue;
            p[free_j] = rest;
            for (v = 0; v < n && !dup; v++) {
                dup = 1;
                for (j = 0; j < k; j++) dup &= fabs(out[v][j] - p[j]) < 1e-12;
            }
            if (!dup && n < BF_V) memcpy(out[n++], p, sizeof p);
        }
    return n;
}

/* Probability of reaching state 3 from state 0 when state s moves to
 * succ[s][j] with p[s][j]: (I - P) x = b on the moving states by Gaussian
 * elimination with partial pivoting (the moving states all leave, so the
 * system is regular once the states that cannot reach 3 are set to 0). */
static double bf_reach(const int succ[3][BF_K], const double p[3][BF_K]) {
    double a[3][4];
    int can[BF_N] = {0, 0, 0, 1, 0}, changed = 1, i, j, r, c;
    while (changed) { /* can reach 3 along positive probabilities */
        changed = 0;
        for (i = 0; i < 3; i++)
            for (j = 0; j < BF_K; j++)
                if (!can[i] && p[i][j] > 0 && can[succ[i][j]]) can[i] = changed = 1;
    }
    memset(a, 0, sizeof a);
    for (i = 0; i < 3; i++) {
        a[i][i] = 1;
        if (!can[i]) continue;
        for (j = 0; j < BF_K; j++) {
            int t = succ[i][j];
            if (t == 3) a[i][3] += p[i][j];
            else if (t < 3 && can[t]) a[i][t] -= p[i][j];
        }
    }
    for (c = 0; c < 3; c++) {
        int piv = c;
        for (r = c + 1; r < 3; r++)
            if (fabs(a[r][c]) > fabs(a[piv][c])) piv = r;
        for (j = 0; j < 4; j++) {
            double t = a[c][j];
            a[c][j] = a[piv][j];
            a[piv][j] = t;
        }
        for (r = 0; r < 3; r++)
            if (r != c) {
                double f = a[r][c] / a[c][c];
                for (j = c; j < 4; j++) a[r][j] -= f * a[c][j];
            }
    }
    return a[0][3] / a[0][0];
}

/* Within k steps, the optimum over step-by-step choices of vertices
 * (nature may choose anew at every step): x_0 = [s = 3], x_{j+1}(s) = the
 * best over the vertices v of s of sum_j v_j x_j(succ_j), the target and
 * the trap keeping their values. */
static double bf_bounded(const int succ[3][BF_K], const double (*vert)[BF_V][BF_K], const int *nv, int k, int maximise) {
    double x[BF_N] = {0, 0, 0, 1, 0};
    int step, s, v, j;
    for (step = 0; step < k; step++) {
        double y[BF_N];
        memcpy(y, x, sizeof y);
        for (s = 0; s < 3; s++) {
            double best = maximise ? -INFINITY : INFINITY;
            for (v = 0; v < nv[s]; v++) {
                double sum = 0;
                for (j = 0; j < BF_K; j++) sum += vert[s][v][j] * x[succ[s][j]];
                best = maximise ? fmax(best, sum) : fmin(best, sum);
            }
            y[s] = best;
        }
        memcpy(x, y, sizeof x);
    }
    return x[0];
}

/* 200 random interval models of 3 moving states (3 successors each among
 * 0..4, 3 the target and 4 a trap, both absorbing), written in the PRISM
 * language: Pmin and Pmax [ F s=3 ] against the least and largest
 * reachability over all memoryless choices of vertices (optimal for
 * reachability in the MDP whose actions are the vertices), and
 * [ F<=4 s=3 ] against the best vertex at every step. */
static void test_brute_force(void) {
    proper_rng rng;
    int trial, failures = 0;
    proper_rng_seed(&rng, 20261126);
    for (trial = 0; trial < 200 && failures < 3; trial++) {
        int succ[3][BF_K], s, j, nv[3];
        double lo[3][BF_K], hi[3][BF_K], vert[3][BF_V][BF_K], best_lo = INFINITY, best_hi = -INFINITY;
        char text[2048];
        size_t len;
        proper_prism_model *m;
        proper_dtmc d;
        proper_prism_intervals iv;
        len = (size_t)snprintf(text, sizeof text, "dtmc\nmodule M\n s : [0..4];\n");
        for (s = 0; s < 3; s++) {
            double mid[BF_K], sum = 0;
            for (j = 0; j < BF_K; j++) { /* a distribution, widened at random on each side */
                succ[s][j] = (int)proper_rng_below(&rng, BF_N);
                mid[j] = 0.05 + proper_rng_uniform(&rng);
                sum += mid[j];
            }
            len += (size_t)snprintf(text + len, sizeof text - len, " [] s=%d -> ", s);
            for (j = 0; j < BF_K; j++) {
                mid[j] /= sum;
                lo[s][j] = fmax(0, mid[j] - 0.3 * proper_rng_uniform(&rng));
                hi[s][j] = fmin(1, mid[j] + 0.3 * proper_rng_uniform(&rng));
                if (proper_rng_below(&rng, 4) == 0) lo[s][j] = hi[s][j] = mid[j]; /* a plain probability */
                len += (size_t)snprintf(text + len, sizeof text - len, "%s[%.17g,%.17g]:(s'=%d)", j ? " + " : "",
                                        lo[s][j], hi[s][j], succ[s][j]);
            }
            len += (size_t)snprintf(text + len, sizeof text - len, ";\n");
            nv[s] = (int)bf_vertices(lo[s], hi[s], BF_K, vert[s]);
        }
        snprintf(text + len, sizeof text - len, " [] s>=3 -> true;\nendmodule\n");
        {
            int a, b, c;
            for (a = 0; a < nv[0]; a++)
                for (b = 0; b < nv[1]; b++)
                    for (c = 0; c < nv[2]; c++) {
                        double p[3][BF_K], v;
                        memcpy(p[0], vert[0][a], sizeof p[0]);
                        memcpy(p[1], vert[1][b], sizeof p[1]);
                        memcpy(p[2], vert[2][c], sizeof p[2]);
                        v = bf_reach((const int(*)[BF_K])succ, (const double(*)[BF_K])p);
                        best_lo = fmin(best_lo, v);
                        best_hi = fmax(best_hi, v);
                    }
        }
        if (build(text, NULL, &m, &d, &iv)) {
            failures++;
            continue;
        }
        {
            double vmin = check1(m, &d, &iv, "Pmin=? [ F s=3 ]"), vmax = check1(m, &d, &iv, "Pmax=? [ F s=3 ]");
            double bmin = check1(m, &d, &iv, "Pmin=? [ F<=4 s=3 ]"), bmax = check1(m, &d, &iv, "Pmax=? [ F<=4 s=3 ]");
            double wmin = bf_bounded((const int(*)[BF_K])succ, (const double(*)[BF_V][BF_K])vert, nv, 4, 0);
            double wmax = bf_bounded((const int(*)[BF_K])succ, (const double(*)[BF_V][BF_K])vert, nv, 4, 1);
            if (!(fabs(vmin - best_lo) <= 1e-7) || !(fabs(vmax - best_hi) <= 1e-7) || !(fabs(bmin - wmin) <= 1e-12) ||
                !(fabs(bmax - wmax) <= 1e-12)) {
                printf("  trial %d: Pmin %.17g (brute force %.17g), Pmax %.17g (%.17g), F<=4: %.17g (%.17g), %.17g "
                       "(%.17g)\n%s", trial, vmin, best_lo, vmax, best_hi, bmin, wmin, bmax, wmax, text);
                failures++;
            }
        }
        release(m, &d, &iv);
    }
    CHECK_INT(failures, 0);
}

int main(void) {
    RUN(test_prism_test_model);
    RUN(test_delimit_and_merge);
    RUN(test_sync_product);
    RUN(test_die);
    RUN(test_die_rewards);
    RUN(test_errors);
    RUN(test_brute_force);
    return test_summary();
}
