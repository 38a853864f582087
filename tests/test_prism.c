/* Tests for prism.h: the PRISM-language subset, state exploration in PRISM's
 * order, DTMC composition, properties. Expected values come from closed
 * forms, exact rational arithmetic or an independent dense solve written
 * here (each says which). */
#define PROPER_IMPLEMENTATION
#include "../src/prism.h"
#include "test.h"

#include <time.h>

#define MODELS "tests/corpus/prism/"
#define PROPS "tests/corpus/props/"

static char errbuf[1024];
static const char *fmt_err(const proper_error *e) { return proper_error_format(e, errbuf, sizeof errbuf); }

static proper_prism_model *parse_text(const char *text, proper_error *e) {
    proper_prism_model *m = NULL;
    if (proper_prism_parse(&m, text, strlen(text), "t.pm", e)) return NULL;
    return m;
}

/* Parse, give constants, build; prints the error on failure. */
static int load_and_build(const char *path, const char *consts, proper_prism_model **m, proper_dtmc *d) {
    proper_error e;
    proper_dtmc_init(d);
    if (proper_prism_read(m, path, &e)) {
        printf("  %s\n", fmt_err(&e));
        return 1;
    }
    if (consts && proper_prism_set_consts(*m, NULL, consts, &e)) {
        printf("  %s\n", fmt_err(&e));
        return 1;
    }
    if (proper_prism_build(*m, NULL, d, &e)) {
        printf("  %s\n", fmt_err(&e));
        return 1;
    }
    return 0;
}

/* Value of one property (string) in the initial state; NAN on error. */
static double check1(const proper_prism_model *m, const proper_dtmc *d, const char *prop) {
    proper_prism_props *p = NULL;
    proper_error e;
    double v = NAN;
    if (proper_prism_props_parse(&p, m, prop, strlen(prop), "prop", &e)) {
        printf("  %s: %s\n", prop, fmt_err(&e));
        return NAN;
    }
    if (proper_prism_props_check(p, 0, d, NULL, &v, &e)) {
        printf("  %s: %s\n", prop, fmt_err(&e));
        v = NAN;
    }
    proper_prism_props_free(p);
    return v;
}

/* Probability of transition s -> t in d (0 if absent). */
static double trans_prob(const proper_dtmc *d, uint32_t s, uint32_t t) {
    uint64_t j;
    for (j = d->row[s]; j < d->row[s + 1]; j++)
        if (d->col[j] == t) return d->prob[j];
    return 0;
}

/* Index of the state with the given valuation, or -1. */
static long state_of(const proper_dtmc *d, const int32_t *vals) {
    uint32_t s;
    size_t i;
    for (s = 0; s < d->n_states; s++) {
        for (i = 0; i < d->n_vars; i++)
            if (d->vals[(size_t)s * d->n_vars + i] != vals[i]) break;
        if (i == d->n_vars) return (long)s;
    }
    return -1;
}

/* Independent dense solve: x = A^-1 b by Gaussian elimination with partial
 * pivoting (n small). */
static void dense_solve(int n, double *A, double *b, double *x) {
    int i, j, k;
    for (k = 0; k < n; k++) {
        int piv = k;
        for (i = k + 1; i < n; i++)
            if (fabs(A[i * n + k]) > fabs(A[piv * n + k])) piv = i;
        for (j = 0; j < n; j++) {
            double t = A[k * n + j];
            A[k * n + j] = A[piv * n + j];
            A[piv * n + j] = t;
        }
        {
            double t = b[k];
            b[k] = b[piv];
            b[piv] = t;
        }
        for (i = k + 1; i < n; i++) {
            double f = A[i * n + k] / A[k * n + k];
            for (j = k; j < n; j++) A[i * n + j] -= f * A[k * n + j];
            b[i] -= f * b[k];
        }
    }
    for (i = n - 1; i >= 0; i--) {
        double s = b[i];
        for (j = i + 1; j < n; j++) s -= A[i * n + j] * x[j];
        x[i] = s / A[i * n + i];
    }
}

/* ---- expressions: PRISM semantics, checked through plain-expression
 * properties on a one-state model ---- */

static const char *one_state = "dtmc\nmodule M x : [0..1] init 0; [] true -> true; endmodule\n";

static void test_expression_semantics(void) {
    proper_error e;
    proper_prism_model *m = parse_text(one_state, &e);
    proper_dtmc d;
    CHECK(m != NULL);
    if (!m) return;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
    /* precedence: * before +, unary minus binds tighter than ^ (PRISM grammar) */
    CHECK_ABS(check1(m, &d, "1 + 2 * 3"), 7, 0);
    CHECK_ABS(check1(m, &d, "-2 ^ 2"), 4, 0);
    CHECK_ABS(check1(m, &d, "2 ^ 3 ^ 2"), 512, 0);      /* right-associative */
    CHECK_ABS(check1(m, &d, "10 - 4 - 3"), 3, 0);       /* left-associative */
    /* / always divides as doubles */
    CHECK_ABS(check1(m, &d, "7 / 2"), 3.5, 0);
    CHECK_ABS(check1(m, &d, "1 / 3"), 1.0 / 3.0, 0);
    /* functions */
    CHECK_ABS(check1(m, &d, "pow(2, 10)"), 1024, 0);
    CHECK_ABS(check1(m, &d, "pow(2.0, -1)"), 0.5, 0);
    CHECK_ABS(check1(m, &d, "mod(-1, 3)"), 2, 0);       /* PRISM: result in [0, n) */
    CHECK_ABS(check1(m, &d, "mod(7, 3)"), 1, 0);
    CHECK_ABS(check1(m, &d, "log(8, 2)"), 3, 1e-15);
    CHECK_ABS(check1(m, &d, "floor(-1.5)"), -2, 0);
    CHECK_ABS(check1(m, &d, "ceil(-1.5)"), -1, 0);
    CHECK_ABS(check1(m, &d, "round(2.5)"), 3, 0);
    CHECK_ABS(check1(m, &d, "round(-2.5)"), -2, 0);     /* Java Math.round */
    CHECK_ABS(check1(m, &d, "min(3, 1, 2)"), 1, 0);
    CHECK_ABS(check1(m, &d, "max(1, 2.5)"), 2.5, 0);
    /* logic: ! binds tighter than |, => right-associative, <=> */
    CHECK_ABS(check1(m, &d, "!true | true"), 1, 0);
    CHECK_ABS(check1(m, &d, "true => false => false"), 1, 0);
    CHECK_ABS(check1(m, &d, "(true => false) => false"), 1, 0);
    CHECK_ABS(check1(m, &d, "false => false => false"), 1, 0);
    CHECK_ABS(check1(m, &d, "true <=> false"), 0, 0);
    CHECK_ABS(check1(m, &d, "x = 0 ? 2.5 : 3"), 2.5, 0);
    CHECK_ABS(check1(m, &d, "1 < 2 & 2 <= 2 & 3 > 2 & 3 >= 3 & 1 != 2 & 1 = 1.0"), 1, 0);
    /* types of results */
    {
        proper_prism_props *p = NULL;
        const char *props = "1 + 2\n1 / 2\ntrue & false\nfloor(2.7)\npow(2, 3)\npow(2, 3.0)\nmin(1, 2.0)";
        int types[] = {PROPER_PRISM_INT, PROPER_PRISM_DOUBLE, PROPER_PRISM_BOOL, PROPER_PRISM_INT, PROPER_PRISM_INT,
                       PROPER_PRISM_DOUBLE, PROPER_PRISM_DOUBLE};
        size_t i;
        CHECK_INT(proper_prism_props_parse(&p, m, props, strlen(props), "p", &e), 0);
        CHECK_INT(proper_prism_props_count(p), 7);
        for (i = 0; i < 7 && i < proper_prism_props_count(p); i++) CHECK_INT(proper_prism_props_type(p, i), types[i]);
        proper_prism_props_free(p);
    }
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* Run-time errors name the expression's position. */
static void test_expression_errors(void) {
    proper_error e;
    proper_prism_model *m = parse_text(one_state, &e);
    proper_dtmc d;
    proper_prism_props *p = NULL;
    struct { const char *prop; int code; const char *msg; } cases[] = {
        {"mod(5, 0)", PROPER_ERANGE, "divisor must be positive"},
        {"pow(2, -1)", PROPER_ERANGE, "negative exponent"},
        {"2147483647 + 1", PROPER_ERANGE, "integer overflow"},
        {"pow(2, 31)", PROPER_ERANGE, "integer overflow"},
        {"floor(1e300)", PROPER_ERANGE, "not a 32-bit integer"},
    };
    size_t i;
    double v;
    if (!m) return;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_INT(proper_prism_props_parse(&p, m, cases[i].prop, strlen(cases[i].prop), "p", &e), 0);
        CHECK_INT(proper_prism_props_check(p, 0, &d, NULL, &v, &e), cases[i].code);
        CHECK_CONTAINS(e.message, cases[i].msg);
        CHECK_INT(e.line, 1);
    } /* each parse replaced (and freed) the previous set */
    proper_prism_props_free(p);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* Parse errors: position and message. */
static void test_parse_errors(void) {
    struct { const char *text; int code, line, col; const char *msg; } cases[] = {
        {"dtmc\nmodule M\n x : [0..2] init 0;\n [] z=0 -> true;\nendmodule\n", PROPER_EUNDEFINED, 4, 5, "unknown identifier 'z'"},
        {"dtmc\nmodule M\n x : [0..2] init 0;\n [] x+1 -> true;\nendmodule\n", PROPER_EPARSE, 4, 5, "guard must be bool"},
        {"dtmc\nmodule M\n x : [0..2] init 0;\n [] x=0 -> (x'=0.5);\nendmodule\n", PROPER_EPARSE, 4, 16, "cannot assign double to int variable 'x'"},
        {"dtmc\nmodule M\n x : [0..2] init true;\nendmodule\n", PROPER_EPARSE, 3, 18, "initial value must be int"},
        {"dtmc\nconst int a = 7/2;\nmodule M x:[0..1]; endmodule\n", PROPER_EPARSE, 2, 15, "must be int, not double"},
        {"dtmc\nmodule M\n x : [0..2] init 0;\n [] x=0 -> (x'=1)\nendmodule\n", PROPER_EPARSE, 5, 1, "expected ';'"},
        {"dtmc\nmodule M\n x : [0..2] init 0;\n x : bool;\nendmodule\n", PROPER_EPARSE, 4, 2, "variable 'x' is already declared"},
        {"mdp\nmodule M x:[0..1]; endmodule\n", PROPER_EUNSUPPORTED, 1, 1, "only dtmc"},
        {"dtmc\nmodule M x:[0..1]; [] x=0 -> (y'=1); endmodule\nmodule N y:[0..1]; endmodule\n", PROPER_EPARSE, 2, 31,
         "module 'M' cannot change variable 'y' of module 'N'"},
        {"dtmc\nformula f = g; formula g = f;\nmodule M x:[0..1]; endmodule\n", PROPER_EPARSE, 2, 13, "refers to itself"},
        {"dtmc\nmodule M x:[0..1]; [] x=0 -> 0.5:(x'=1) + 0.5:(x'=0) & (x'=1); endmodule\n", PROPER_EPARSE, 2, 57,
         "assigned twice"},
        {"dtmc\nmodule M x : [0..1]; endmodule\nglobal g : [0..1];\n", PROPER_EUNSUPPORTED, 3, 1, "global variables before the modules"},
        {"dtmc\nmodule M x : [0..1] init 0; [] x=0 -> (x'=1) ; endmodule\nlabel \"init\" = x=1;\n", PROPER_EPARSE, 3, 7,
         "built in"},
        {"dtmc\nmodule F x:[0..1]; endmodule\n", PROPER_EPARSE, 2, 8, "reserved"},
        {"dtmc\nconst int N = 99999999999;\n", PROPER_ERANGE, 2, 15, "32 bits"},
        {"dtmc\nmodule M x:[0..1]; [] x=0 -> (x'=1); endmodule\nmodule M2 = Q [x=y] endmodule\n", PROPER_EUNDEFINED, 3, 13,
         "unknown module 'Q'"},
        {"dtmc\nmodule M x:[0..1]; [] \"a\" -> (x'=1); endmodule\n", PROPER_EPARSE, 2, 23, "only be used in properties"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        proper_error e;
        proper_prism_model *m = parse_text(cases[i].text, &e);
        CHECK(m == NULL);
        proper_prism_free(m);
        if (m) continue;
        CHECK_INT(e.code, cases[i].code);
        CHECK_INT(e.line, cases[i].line);
        CHECK_INT(e.col, cases[i].col);
        CHECK_STR(e.file, "t.pm");
        CHECK_CONTAINS(e.message, cases[i].msg);
        if (e.col != cases[i].col || e.line != cases[i].line) printf("  case %d: %s\n", (int)i, fmt_err(&e));
    }
}

/* Errors found while exploring: range, probability sums, deadlocks, limits. */
static void test_build_errors(void) {
    struct { const char *text; int code, line, col; const char *msg; } cases[] = {
        {"dtmc\nmodule M\n x : [0..2] init 0;\n [] true -> (x'=x+1);\nendmodule\n", PROPER_ERANGE, 4, 14,
         "sets 'x' to 3, outside its range [0..2], in state (x=2)"},
        {"dtmc\nmodule M\n x : [0..2] init 0;\n [] x=0 -> 0.5:(x'=1) + 0.4:(x'=0);\n [] x>0 -> true;\nendmodule\n",
         PROPER_EPROB, 4, 2, "sum to 0.9"},
        {"dtmc\nmodule M\n x : [0..2] init 0;\n [] x=0 -> -0.5:(x'=1) + 1.5:(x'=0);\n [] x>0 -> true;\nendmodule\n",
         PROPER_EPROB, 4, 12, "not in [0, 1]"},
        {"dtmc\nmodule M\n x : [0..2] init 0;\n [] x=0 -> (x'=1);\nendmodule\n", PROPER_EPROB, 0, 0,
         "deadlock: no command is enabled in state (x=1)"},
        {"dtmc\nmodule M\n x : [0..2] init 3;\nendmodule\n", PROPER_ERANGE, 3, 2, "outside its range"},
        {"dtmc\nconst int N;\nmodule M\n x : [0..N] init 0;\nendmodule\n", PROPER_EUNDEFINED, 2, 11, "has no value"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        proper_error e;
        proper_prism_model *m = parse_text(cases[i].text, &e);
        proper_dtmc d;
        CHECK(m != NULL);
        if (!m) {
            printf("  %s\n", fmt_err(&e));
            continue;
        }
        proper_dtmc_init(&d);
        CHECK_INT(proper_prism_build(m, NULL, &d, &e), cases[i].code);
        CHECK_INT(e.line, cases[i].line);
        CHECK_INT(e.col, cases[i].col);
        CHECK_CONTAINS(e.message, cases[i].msg);
        if (e.col != cases[i].col || e.line != cases[i].line) printf("  case %d: %s\n", (int)i, fmt_err(&e));
        CHECK(d.n_states == 0); /* nothing left allocated on failure */
        proper_prism_free(m);
    }
}

/* A deadlock becomes a self-loop and joins "deadlock" when asked. */
static void test_fix_deadlocks(void) {
    const char *text = "dtmc\nmodule M\n x : [0..2] init 0;\n [] x<2 -> 0.5:(x'=x+1) + 0.5:(x'=x);\nendmodule\n";
    proper_error e;
    proper_prism_model *m = parse_text(text, &e);
    proper_prism_build_opts o;
    proper_dtmc d;
    if (!m) return;
    o = proper_prism_build_opts_default();
    o.fix_deadlocks = 1;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_build(m, &o, &d, &e), 0);
    CHECK_INT(d.n_states, 3);
    CHECK_ABS(trans_prob(&d, 2, 2), 1, 0);
    CHECK_ABS(check1(m, &d, "P=? [ F \"deadlock\" ]"), 1, 1e-12);
    CHECK_ABS(check1(m, &d, "P=? [ X \"deadlock\" ]"), 0, 0);
    CHECK_ABS(check1(m, &d, "P=? [ F<=2 \"deadlock\" ]"), 0.25, 1e-15);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* The state limit stops exploration before memory runs out. */
static void test_state_limit(void) {
    const char *text = "dtmc\nmodule M\n x : [0..2000000000] init 0;\n [] x<2000000000 -> (x'=x+1);\n"
                       " [] x=2000000000 -> true;\nendmodule\n";
    proper_error e;
    proper_prism_model *m = parse_text(text, &e);
    proper_prism_build_opts o;
    proper_dtmc d;
    if (!m) return;
    o = proper_prism_build_opts_default();
    o.max_states = 1000;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_build(m, &o, &d, &e), PROPER_ELIMIT);
    CHECK_CONTAINS(e.message, "more than 1000 reachable states");
    CHECK_CONTAINS(e.message, "the variables' ranges allow at most 2e+09"); /* 2000000001 values of x */
    proper_prism_free(m);
}

/* Three synchronised modules of 10 updates each: 1000 states, each with
 * 1000 outcomes (10^6 transitions). */
static const char *const three_tenfold_modules =
    "dtmc\nmodule M\n x : [0..9] init 0;\n [a] true -> 0.1:(x'=0) + 0.1:(x'=1) + 0.1:(x'=2) + "
    "0.1:(x'=3) + 0.1:(x'=4) + 0.1:(x'=5) + 0.1:(x'=6) + 0.1:(x'=7) + 0.1:(x'=8) + 0.1:(x'=9);\n"
    "endmodule\nmodule N = M [x=y] endmodule\nmodule O = M [x=z] endmodule\n";

/* The transition limit on three_tenfold_modules. */
static void test_transition_limit(void) {
    proper_error e;
    proper_prism_model *m = parse_text(three_tenfold_modules, &e);
    proper_prism_build_opts o;
    proper_dtmc d;
    if (!m) return;
    o = proper_prism_build_opts_default();
    CHECK_INT(o.max_transitions, PROPER_PRISM_MAX_TRANSITIONS);
    o.max_transitions = 999999;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_build(m, &o, &d, &e), PROPER_ELIMIT);
    CHECK_CONTAINS(e.message, "more than 999999 transitions");
    CHECK_INT(d.n_states, 0);
    o.max_transitions = 1000000;
    CHECK_INT(proper_prism_build(m, &o, &d, &e), 0);
    CHECK_INT(d.n_trans, 1000000);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* Products of synchronised updates are capped too: three_tenfold_modules
 * has 1000 outcomes in its first state. */
static void test_outcome_limit(void) {
    proper_error e;
    proper_prism_model *m = parse_text(three_tenfold_modules, &e);
    proper_prism_build_opts o;
    proper_dtmc d;
    if (!m) return;
    o = proper_prism_build_opts_default();
    o.max_states = 100;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_build(m, &o, &d, &e), PROPER_ELIMIT);
    CHECK_CONTAINS(e.message, "state (x=0,y=0,z=0) has more than 100 outgoing transitions");
    o.max_states = 1000;
    CHECK_INT(proper_prism_build(m, &o, &d, &e), 0);
    CHECK_INT(d.n_states, 1000);
    CHECK_REL(trans_prob(&d, 0, 999), 0.001, 1e-12);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* PRISM numbers states by sorting their valuations lexicographically in
 * declaration order, not in the order exploration finds them. */
static void test_state_order(void) {
    const char *text = "dtmc\nmodule M\n x : [0..2] init 2;\n b : bool init true;\n"
                       " [] x=2 -> 0.5:(x'=0)&(b'=false) + 0.5:(x'=1);\n [] x<2 -> true;\nendmodule\n";
    proper_error e;
    proper_prism_model *m = parse_text(text, &e);
    proper_dtmc d;
    int32_t expect[] = {0, 0, 1, 1, 2, 1};
    size_t i;
    if (!m) return;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
    CHECK_INT(d.n_states, 3);
    CHECK_INT(d.init, 2);
    CHECK_INT(d.n_vars, 2);
    for (i = 0; i < 6 && d.vals; i++) CHECK_INT(d.vals[i], expect[i]);
    CHECK_STR(d.var_names[0], "x");
    CHECK_STR(d.var_names[1], "b");
    CHECK(d.var_is_bool && !d.var_is_bool[0] && d.var_is_bool[1]);
    CHECK_ABS(trans_prob(&d, 2, 0), 0.5, 0);
    CHECK_ABS(trans_prob(&d, 2, 1), 0.5, 0);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* ---- correctness anchors ---- */

/* PROPER's minPathSum (IST 2023, Fig. 5) with the paper's parameters. The paper
 * reports time ~ 0.628 and cost ~ 4.59. Exact values, by exact rational
 * arithmetic on the closed form (1-p1)(0.01 p2/(1-p2) + 0.01 p3/(1-p3) +
 * 0.03 p4/(1-p4) p5/(1-p5)) (time) and (1-p1) 0.25 p4/(1-p4) p5/(1-p5) (cost):
 * time = 32504164372/51699390625, cost = 9503884062/2067975625. A dense solve
 * of the chain written out below confirms them independently. */
static void test_minpathsum(void) {
    const char *consts = "p1=0.0912,p2=0.8181,p3=0.8,p4=0.8181,p5=0.8181";
    const double time_exact = 32504164372.0 / 51699390625.0, cost_exact = 9503884062.0 / 2067975625.0;
    proper_prism_model *m = NULL;
    proper_prism_props *p = NULL;
    proper_dtmc d;
    proper_error e;
    double v;
    proper_dtmc_init(&d);
    if (load_and_build(MODELS "minpathsum.pm", consts, &m, &d)) return;
    CHECK_INT(d.n_states, 22);
    CHECK_INT(d.n_trans, 27);
    CHECK_INT(d.n_params, 5);
    CHECK_REL(time_exact, 0.6287146517406365, 1e-15); /* the issue's decimal */
    if (proper_prism_props_read(&p, m, PROPS "minpathsum.pctl", &e) == 0) {
        CHECK_INT(proper_prism_props_count(p), 3);
        CHECK_STR(proper_prism_props_name(p, 0), "time");
        CHECK_STR(proper_prism_props_text(p, 0), "R{\"time\"}=? [ F \"end\" ]");
        CHECK_INT(proper_prism_props_check(p, 0, &d, NULL, &v, &e), 0);
        CHECK_REL(v, time_exact, 1e-12);
        CHECK_INT(proper_prism_props_check(p, 1, &d, NULL, &v, &e), 0);
        CHECK_REL(v, cost_exact, 1e-12);
        CHECK_INT(proper_prism_props_check(p, 2, &d, NULL, &v, &e), 0);
        CHECK_REL(v, 1, 1e-12);
        proper_prism_props_free(p);
        p = NULL;
    } else {
        CHECK(0);
        printf("  %s\n", fmt_err(&e));
    }
    /* the total reward is the time to the absorbing end, with a proven bound that contains it (up to the
     * rounding of the stored probabilities and of time_exact, 1e-15) */
    if (proper_prism_props_parse(&p, m, "R{\"time\"}=? [ C ]", 17, NULL, &e) == 0) {
        proper_prism_result r;
        CHECK_INT(proper_prism_props_result(p, 0, &d, NULL, &r, &e), 0);
        CHECK(r.error_bound >= 0 && r.error_bound < 1e-10);
        CHECK(fabs(r.value - time_exact) <= r.error_bound + 1e-15);
        proper_prism_props_free(p);
    } else {
        CHECK(0);
        printf("  %s\n", fmt_err(&e));
    }
    { /* independent dense solve of x = r + P x over s = 0..20 (s = 21 absorbing) */
        const double p1 = 0.0912, p2 = 0.8181, p3 = 0.8, p4 = 0.8181, p5 = 0.8181;
        double A[21 * 21], bt[21], bc[21], xt[21], xc[21], A2[21 * 21];
        int i;
        struct { int s, t; double p; } tr[] = {
            {0, 1, 1}, {1, 2, p1}, {1, 3, 1 - p1}, {2, 21, 1}, {3, 4, 1}, {4, 5, 1}, {5, 6, 1}, {6, 7, p2},
            {6, 9, 1 - p2}, {7, 8, 1}, {8, 6, 1}, {9, 10, 1}, {10, 11, p3}, {10, 13, 1 - p3}, {11, 12, 1},
            {12, 10, 1}, {13, 14, 1}, {14, 15, p4}, {14, 20, 1 - p4}, {15, 16, 1}, {16, 17, p5}, {16, 19, 1 - p5},
            {17, 18, 1}, {18, 16, 1}, {19, 14, 1}, {20, 21, 1}};
        memset(A, 0, sizeof A);
        memset(bt, 0, sizeof bt);
        memset(bc, 0, sizeof bc);
        for (i = 0; i < 21; i++) A[i * 21 + i] = 1;
        for (i = 0; i < (int)(sizeof tr / sizeof tr[0]); i++)
            if (tr[i].t < 21) A[tr[i].s * 21 + tr[i].t] -= tr[i].p;
        bt[7] = 0.01;
        bt[11] = 0.01;
        bt[18] = 0.03;
        bc[18] = 0.25;
        memcpy(A2, A, sizeof A);
        dense_solve(21, A, bt, xt);
        dense_solve(21, A2, bc, xc);
        CHECK_REL(xt[0], time_exact, 1e-12);
        CHECK_REL(xc[0], cost_exact, 1e-12);
        CHECK_REL(check1(m, &d, "R{\"time\"}=? [ F s=21 ]"), xt[0], 1e-12);
        CHECK_REL(check1(m, &d, "R{\"cost\"}=? [ F s=done ]"), xc[0], 1e-12);
    }
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* Knuth-Yao die: each face 1/6; expected coin flips 11/3 (Knuth & Yao 1976;
 * the PRISM case study die.pm has 13 states and 20 transitions). */
static void test_die(void) {
    proper_prism_model *m = NULL;
    proper_prism_props *p = NULL;
    proper_dtmc d;
    proper_error e;
    size_t i;
    double v;
    proper_dtmc_init(&d);
    if (load_and_build(MODELS "die.pm", NULL, &m, &d)) return;
    CHECK_INT(d.n_states, 13);
    CHECK_INT(d.n_trans, 20);
    if (proper_prism_props_read(&p, m, PROPS "die.pctl", &e)) {
        CHECK(0);
        printf("  %s\n", fmt_err(&e));
    } else {
        CHECK_INT(proper_prism_props_count(p), 7);
        for (i = 0; i < 6; i++) {
            CHECK_INT(proper_prism_props_check(p, i, &d, NULL, &v, &e), 0);
            CHECK_REL(v, 1.0 / 6.0, 1e-12);
        }
        CHECK_INT(proper_prism_props_check(p, 6, &d, NULL, &v, &e), 0);
        CHECK_REL(v, 11.0 / 3.0, 1e-12);
        proper_prism_props_free(p);
    }
    /* bounded: the die is thrown within 3 flips with probability 6/8 */
    CHECK_REL(check1(m, &d, "P=? [ F<=3 \"done\" ]"), 0.75, 1e-15);
    CHECK_REL(check1(m, &d, "P=? [ F<4 \"done\" ]"), 0.75, 1e-15);
    CHECK_REL(check1(m, &d, "P=? [ !\"done\" U<=3 d=2 ]"), 0.125, 1e-15);
    CHECK_REL(check1(m, &d, "R{\"coin_flips\"}=? [ C<=2 ]"), 2, 1e-15);
    CHECK_REL(check1(m, &d, "R=? [ C<=3 ]"), 3, 1e-15);
    CHECK_REL(check1(m, &d, "R{1}=? [ C<=4 ]"), 3.25, 1e-15); /* 3 + P(still flipping after 3 flips) */
    CHECK_REL(check1(m, &d, "R=? [ I=3 ]"), 0, 0); /* coin_flips has transition rewards only */
    CHECK_REL(check1(m, &d, "P=? [ G<=2 !\"done\" ]"), 1, 1e-15);
    CHECK_REL(check1(m, &d, "P=? [ G d!=6 ]"), 5.0 / 6.0, 1e-12);
    CHECK_ABS(check1(m, &d, "P>=0.2 [ F d=1 ]"), 0, 0);
    CHECK_ABS(check1(m, &d, "P<0.2 [ F d=1 ]"), 1, 0);
    CHECK_ABS(check1(m, &d, "\"init\""), 1, 0);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* Gambler's ruin, closed forms with r = (1-p)/p:
 * P(win from k) = (1 - r^k) / (1 - r^N),
 * E[rounds from k] = k/(q-p) - N/(q-p) * (1 - r^k)/(1 - r^N). */
static void test_gambler(void) {
    const double pv[] = {0.4, 0.55};
    int N = 10, k = 3;
    size_t i;
    for (i = 0; i < 2; i++) {
        proper_prism_model *m = NULL;
        proper_dtmc d;
        char consts[64];
        double p = pv[i], q = 1 - p, r = q / p;
        double win = (1 - pow(r, k)) / (1 - pow(r, N));
        double rounds = k / (q - p) - N / (q - p) * win;
        snprintf(consts, sizeof consts, "p=%.17g", p);
        proper_dtmc_init(&d);
        if (load_and_build(MODELS "gambler.pm", consts, &m, &d)) return;
        CHECK_INT(d.n_states, 11);
        CHECK_INT(d.init, 3);
        CHECK_REL(check1(m, &d, "P=? [ F \"win\" ]"), win, 1e-12);
        CHECK_REL(check1(m, &d, "P=? [ F \"ruin\" ]"), 1 - win, 1e-12);
        CHECK_REL(check1(m, &d, "R{\"rounds\"}=? [ F \"win\" | \"ruin\" ]"), rounds, 1e-12);
        /* reward until "win" alone: infinite, as ruin happens with probability > 0 */
        CHECK(isinf(check1(m, &d, "R=? [ F \"win\" ]")));
        proper_dtmc_free(&d);
        proper_prism_free(m);
    }
}

/* Birth-death chain: detailed balance pi(k) b = pi(k+1) c gives pi(k) ~ (b/c)^k. */
static void test_birth_death(void) {
    proper_prism_model *m = NULL;
    proper_dtmc d;
    double r = 0.3 / 0.5, z = 0, pi[7], mean = 0, tail = 0;
    int k;
    proper_dtmc_init(&d);
    if (load_and_build(MODELS "birth_death.pm", NULL, &m, &d)) return;
    for (k = 0; k <= 6; k++) z += pow(r, k);
    for (k = 0; k <= 6; k++) {
        pi[k] = pow(r, k) / z;
        mean += k * pi[k];
        if (k >= 3) tail += pi[k];
    }
    CHECK_REL(check1(m, &d, "S=? [ n=6 ]"), pi[6], 1e-10);
    CHECK_REL(check1(m, &d, "S=? [ n>=3 ]"), tail, 1e-10);
    CHECK_REL(check1(m, &d, "S=? [ n=0 ]"), pi[0], 1e-10);
    /* one step from n=0: E[n] = 0.3 */
    CHECK_REL(check1(m, &d, "R=? [ I=1 ]"), 0.3, 1e-15);
    (void)mean;
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* Two unsynchronised modules (two_modules.pm), by hand: in (0,0) both
 * commands are enabled, each taken with probability 1/2, so (0,0) -> (1,0)
 * 0.15, -> (0,1) 0.3, stays 0.55. Expected steps to (1,1):
 * E01 = 1/0.3, E10 = 1/0.6, E00 = (1 + 0.3 E01 + 0.15 E10) / 0.45 = 5;
 * x reaches 1 first with probability 0.15/0.45 = 1/3; F<=2 (1,1):
 * 0.3*0.3 + 0.15*0.6 = 0.18. */
static void test_two_modules(void) {
    proper_prism_model *m = NULL;
    proper_dtmc d;
    int32_t v00[] = {0, 0}, v01[] = {0, 1}, v10[] = {1, 0}, v11[] = {1, 1};
    proper_dtmc_init(&d);
    if (load_and_build(MODELS "two_modules.pm", NULL, &m, &d)) return;
    CHECK_INT(d.n_states, 4);
    CHECK_INT(state_of(&d, v00), 0);
    CHECK_INT(state_of(&d, v01), 1);
    CHECK_INT(state_of(&d, v10), 2);
    CHECK_INT(state_of(&d, v11), 3);
    CHECK_REL(trans_prob(&d, 0, 0), 0.55, 1e-15);
    CHECK_REL(trans_prob(&d, 0, 1), 0.3, 1e-15);
    CHECK_REL(trans_prob(&d, 0, 2), 0.15, 1e-15);
    CHECK_REL(trans_prob(&d, 1, 3), 0.3, 1e-15);
    CHECK_REL(trans_prob(&d, 2, 3), 0.6, 1e-15);
    CHECK_REL(check1(m, &d, "R{\"steps\"}=? [ F x=1 & y=1 ]"), 5, 1e-12);
    CHECK_REL(check1(m, &d, "P=? [ y=0 U x=1 ]"), 1.0 / 3.0, 1e-12);
    CHECK_REL(check1(m, &d, "P=? [ F<=2 x=1 & y=1 ]"), 0.18, 1e-15);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* Synchronisation (sync.pm), by hand: in (0,0) the choices are A's
 * unlabelled command and two go-combinations (A's go with each of B's two go
 * commands), each with probability 1/3:
 *   (3,0) 1/3; (1,1) 0.2/3; (2,1) 0.2/3; (1,2) (0.3+0.5)/3; (2,2) (0.3+0.5)/3.
 * Rewards [go] 1 and [] 10: expected first-step reward 10/3 + 2/3 = 4. */
static void test_sync(void) {
    proper_prism_model *m = NULL;
    proper_dtmc d;
    int32_t v00[] = {0, 0}, v11[] = {1, 1}, v12[] = {1, 2}, v21[] = {2, 1}, v22[] = {2, 2}, v30[] = {3, 0};
    long s00, s30, s12;
    proper_dtmc_init(&d);
    if (load_and_build(MODELS "sync.pm", NULL, &m, &d)) return;
    CHECK_INT(d.n_states, 6);
    s00 = state_of(&d, v00);
    s30 = state_of(&d, v30);
    s12 = state_of(&d, v12);
    CHECK(s00 == 0 && s30 == 5);
    CHECK_REL(trans_prob(&d, 0, (uint32_t)s30), 1.0 / 3.0, 1e-15);
    CHECK_REL(trans_prob(&d, 0, (uint32_t)state_of(&d, v11)), 0.2 / 3.0, 1e-15);
    CHECK_REL(trans_prob(&d, 0, (uint32_t)state_of(&d, v21)), 0.2 / 3.0, 1e-15);
    CHECK_REL(trans_prob(&d, 0, (uint32_t)s12), 0.8 / 3.0, 1e-15);
    CHECK_REL(trans_prob(&d, 0, (uint32_t)state_of(&d, v22)), 0.8 / 3.0, 1e-15);
    CHECK_REL(trans_prob(&d, (uint32_t)s30, (uint32_t)s30), 1, 0); /* go blocked by A: only A's self-loop */
    CHECK_REL(check1(m, &d, "R{\"r\"}=? [ C<=1 ]"), 4, 1e-15);
    CHECK_REL(check1(m, &d, "P=? [ F a=3 ]"), 1.0 / 3.0, 1e-12);
    /* the transition reward of (0,0)->(1,2) is go's (1), of (0,0)->(3,0) the unlabelled 10 */
    CHECK_INT(d.n_rewards, 1);
    if (d.n_rewards == 1 && d.rewards[0].trans) {
        uint64_t j;
        for (j = d.row[0]; j < d.row[1]; j++) {
            if ((long)d.col[j] == s12) CHECK_REL(d.rewards[0].trans[j], 1, 1e-15);
            if ((long)d.col[j] == s30) CHECK_REL(d.rewards[0].trans[j], 10, 1e-15);
        }
    } else {
        CHECK(0);
    }
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* Module renaming: a copy with its own variable (and a renamed constant). */
static void test_renaming(void) {
    const char *text = "dtmc\nconst double p = 0.5; const double q = 0.25;\n"
                       "module M1\n x : [0..2] init 0;\n [] x<2 -> p:(x'=x+1) + (1-p):(x'=x);\n [] x=2 -> true;\nendmodule\n"
                       "module M2 = M1 [x=y, p=q] endmodule\n";
    proper_error e;
    proper_prism_model *m = parse_text(text, &e);
    proper_dtmc d;
    int32_t v00[] = {0, 0}, v10[] = {1, 0}, v01[] = {0, 1};
    if (!m) {
        CHECK(0);
        printf("  %s\n", fmt_err(&e));
        return;
    }
    CHECK_INT(proper_prism_var_count(m), 2);
    CHECK_STR(proper_prism_var_name(m, 1), "y");
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
    CHECK_INT(d.n_states, 9);
    CHECK_REL(trans_prob(&d, (uint32_t)state_of(&d, v00), (uint32_t)state_of(&d, v10)), 0.25, 1e-15);
    CHECK_REL(trans_prob(&d, (uint32_t)state_of(&d, v00), (uint32_t)state_of(&d, v01)), 0.125, 1e-15);
    CHECK_REL(trans_prob(&d, (uint32_t)state_of(&d, v00), (uint32_t)state_of(&d, v00)), 0.625, 1e-15);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* 'param' declarations: PRISM-style and FACT's counts and data-file forms
 * (the FACT models of the PROPER artifact: webApplication.pm,
 * PROPER_MinPathSum.pm); a parameter without a value is an error naming it
 * where the model is built, and --const gives it. */
static void test_param_declarations(void) {
    const char *text = "dtmc\nparam double p;\nparam double y = 40530 59460 10;\nparam double n1 = \"logs/n1.csv\";\n"
                       "const double q = n12/(1+n11);\n"
                       "module M s : [0..3] init 0;\n"
                       "  [] s=0 -> y1:(s'=1) + y2:(s'=2) + (1-y1-y2):(s'=3);\n"
                       "  [] s=1 -> p:(s'=0) + (1-p):(s'=3);\n"
                       "  [] s=2 -> q:(s'=0) + (1-q):(s'=3);\n"
                       "  [] s=3 -> true;\nendmodule\n";
    proper_error e;
    proper_prism_model *m = parse_text(text, &e);
    proper_dtmc d;
    if (!m) {
        printf("  %s\n", fmt_err(&e));
        CHECK(0);
        return;
    }
    /* p, y1, y2, n11, n12 (in the order the model first uses them), q */
    CHECK_INT(proper_prism_const_count(m), 6);
    CHECK_STR(proper_prism_const_name(m, 0), "p");
    CHECK_STR(proper_prism_const_name(m, 1), "y1");
    CHECK_STR(proper_prism_const_name(m, 2), "y2");
    CHECK_STR(proper_prism_const_name(m, 3), "n12");
    CHECK_STR(proper_prism_const_name(m, 4), "n11");
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), PROPER_EUNDEFINED);
    CHECK(strstr(e.message, "parameter 'p' has no value") != NULL);
    CHECK_INT(e.line, 2);
    CHECK_INT(proper_prism_set_consts(m, NULL, "p=0.5,y1=0.25,y2=0.25,n11=1,n12=0.5", &e), 0);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
    CHECK_INT(d.n_states, 4);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* Parametric checking through the language: the function of the FACT
 * model's five parameters equals the numeric solve of the chain built at 30
 * random points (relative 1e-9), and its closed form is the one found by
 * hand: P(F s=1) = y1 / (1 - y2 q) with q = n12 / (1 + n11). */
static void test_param_function(void) {
    static const char *const names[] = {"y1", "y2", "p", "n11", "n12"};
    proper_prism_model *m = NULL;
    proper_prism_props *props = NULL;
    proper_exact_dtmc e;
    proper_exact_vec x;
    proper_dtmc d;
    proper_error err;
    proper_rng rng;
    int it;
    proper_dtmc_init(&d);
    proper_exact_dtmc_init(&e);
    proper_exact_vec_init(&x);
    proper_rng_seed(&rng, 5);
    CHECK_INT(proper_prism_read(&m, MODELS "fact_params.pm", &err), 0);
    if (!m) return;
    CHECK_INT(proper_prism_open_params(m, names, 5, &err), 0);
    CHECK_INT(proper_prism_build(m, NULL, &d, &err), 0);
    CHECK_INT(proper_prism_build_exact(m, &d, names, 5, &e, &err), 0);
    CHECK_INT(proper_prism_props_parse(&props, m, "P=? [ F s=1 ]", 13, NULL, &err), 0);
    CHECK_INT(proper_prism_props_exact(props, 0, &d, &e, &x, &err), 0);
    CHECK(x.f != NULL && x.n_params == 5);
    for (it = 0; it < 30 && x.f; it++) {
        double pt[5], v, want;
        char spec[300];
        proper_dtmc dn;
        pt[0] = 0.05 + 0.4 * proper_rng_uniform(&rng);
        pt[1] = 0.05 + 0.4 * proper_rng_uniform(&rng);
        pt[2] = 0.05 + 0.9 * proper_rng_uniform(&rng);
        pt[3] = 0.1 + 3 * proper_rng_uniform(&rng);
        pt[4] = (1 + pt[3]) * (0.05 + 0.9 * proper_rng_uniform(&rng)); /* q = n12/(1+n11) in (0, 1) */
        snprintf(spec, sizeof spec, "y1=%.17g,y2=%.17g,p=%.17g,n11=%.17g,n12=%.17g", pt[0], pt[1], pt[2], pt[3], pt[4]);
        CHECK_INT(proper_prism_set_consts(m, NULL, spec, &err), 0);
        proper_dtmc_init(&dn);
        CHECK_INT(proper_prism_build(m, NULL, &dn, &err), 0);
        CHECK_INT(proper_prism_props_check(props, 0, &dn, NULL, &v, &err), 0);
        want = pt[0] / (1 - pt[1] * pt[4] / (1 + pt[3]));
        CHECK_REL(proper_ratfun_eval_double(&x.f[d.init], pt, 5), v, 1e-9);
        CHECK_REL(v, want, 1e-9);
        proper_dtmc_free(&dn);
    }
    proper_exact_vec_free(&x);
    proper_exact_dtmc_free(&e);
    proper_prism_props_free(props);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* Constants: parameters given later, types, errors. */
static void test_constants(void) {
    const char *text = "dtmc\nconst int N;\nconst double p;\nconst bool b;\nconst K = N + 1;\n"
                       "module M x : [0..K] init 0; [] x<K -> p:(x'=x+1) + (1-p):(x'=x); [] x=K -> true; endmodule\n"
                       "label \"top\" = b & x=K;\n";
    proper_error e;
    proper_prism_model *m = parse_text(text, &e);
    proper_dtmc d;
    if (!m) return;
    CHECK_INT(proper_prism_const_count(m), 4);
    CHECK_STR(proper_prism_const_name(m, 3), "K");
    CHECK_INT(proper_prism_const_type(m, 3), PROPER_PRISM_INT);
    CHECK_INT(proper_prism_const_type(m, 2), PROPER_PRISM_BOOL);
    CHECK(!proper_prism_const_has_value(m, 0));
    CHECK_INT(proper_prism_set_const(m, "N", 2.5, &e), PROPER_EINVAL);
    CHECK_INT(proper_prism_set_const(m, "b", 2, &e), PROPER_EINVAL);
    CHECK_INT(proper_prism_set_const(m, "K", 3, &e), PROPER_EINVAL);
    CHECK_INT(proper_prism_set_const(m, "nope", 3, &e), PROPER_EUNDEFINED);
    CHECK_INT(proper_prism_set_consts(m, NULL, "N=3,p=0.5,zz=1", &e), PROPER_EUNDEFINED);
    CHECK_INT(proper_prism_set_consts(m, NULL, "N=3,p=0.5,b=true", &e), 0);
    CHECK(proper_prism_const_has_value(m, 0));
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
    CHECK_INT(d.n_states, 5);
    {
        proper_prism_props *p = NULL;
        double v;
        CHECK_INT(proper_prism_props_parse(&p, m, "R=? [ F x=K ]", 13, "p", &e), 0);
        CHECK_INT(proper_prism_props_check(p, 0, &d, NULL, &v, &e), PROPER_EUNDEFINED);
        CHECK_CONTAINS(e.message, "no reward structure");
        proper_prism_props_free(p);
    }
    CHECK_REL(check1(m, &d, "P=? [ F \"top\" ]"), 1, 1e-12);
    CHECK_REL(check1(m, &d, "K * p"), 2, 0);
    CHECK_INT(d.n_params, 3);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* Properties files: comments, named properties, constants, labels, formulas. */
static void test_props_file(void) {
    const char *props = "// a comment\nconst int k = 2;\nconst double t;\nlabel \"high\" = s>=4 & s<7;\nformula half = s>=2;\n"
                        "\"reach\": P=? [ F \"high\" ];\n"
                        "P=? [ F<=k half ]  // bounded\n"
                        "P>t [ F \"done\" ]\n"
                        "R{\"coin_flips\"}=? [ F \"done\" ]\n";
    proper_prism_model *m = NULL;
    proper_prism_props *p = NULL;
    proper_dtmc d;
    proper_error e;
    double v;
    proper_dtmc_init(&d);
    if (load_and_build(MODELS "die.pm", NULL, &m, &d)) return;
    if (proper_prism_props_parse(&p, m, props, strlen(props), "x.pctl", &e)) {
        CHECK(0);
        printf("  %s\n", fmt_err(&e));
    } else {
        CHECK_INT(proper_prism_props_count(p), 4);
        CHECK_STR(proper_prism_props_name(p, 0), "reach");
        CHECK(proper_prism_props_name(p, 1) == NULL);
        CHECK_STR(proper_prism_props_text(p, 1), "P=? [ F<=k half ]");
        CHECK_INT(proper_prism_props_type(p, 2), PROPER_PRISM_BOOL);
        CHECK_INT(proper_prism_props_check(p, 0, &d, NULL, &v, &e), 0);
        CHECK_REL(v, 5.0 / 6.0, 1e-12); /* P1 = 1/2 + P1/4 from s=1, so 1/2 + 1/2 * 2/3 */
        CHECK_INT(proper_prism_props_check(p, 1, &d, NULL, &v, &e), 0);
        CHECK_REL(v, 1, 1e-15);
        CHECK_INT(proper_prism_props_check(p, 2, &d, NULL, &v, &e), PROPER_EUNDEFINED); /* t not given */
        CHECK_INT(proper_prism_set_consts(m, p, "t=0.99", &e), 0);
        CHECK_INT(proper_prism_props_check(p, 2, &d, NULL, &v, &e), 0);
        CHECK_ABS(v, 1, 0);
        proper_prism_props_free(p);
    }
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

static void test_props_errors(void) {
    struct { const char *prop; int parse_code, line, col; const char *msg; } cases[] = {
        {"P=? [ F zz=1 ]", PROPER_EUNDEFINED, 1, 9, "unknown identifier 'zz'"},
        {"P=? [ F s+1 ]", PROPER_EPARSE, 1, 9, "must be bool, not int"},
        {"P=? [ F s=1", PROPER_EPARSE, 1, 12, "expected ']'"},
        {"P=? [ F P=? [F s=1] ]", PROPER_EPARSE, 1, 9, "must be bool, not double"},
        {"filter(bogus, s=1)", PROPER_EPARSE, 1, 8, "a filter operator"},
        {"filter(count, s)", PROPER_EPARSE, 1, 1, "filter count needs bool"},
        {"\"a\": P=? [ F s=1 ];\n\"a\": s=2", PROPER_EPARSE, 2, 6, "already defined"},
        {"\"a\": P>0.5 [ F \"a\" ]", PROPER_EPARSE, 1, 16, "refers to itself"},
        {"P=? [ F s=1 ] + R{\"x\"}/{\"y\"}=? [ F s=7 ]", PROPER_EUNSUPPORTED, 1, 23, "ratio rewards"},
        {"P=? [ F<=s s=1 ]", PROPER_EPARSE, 1, 10, "must be constant"},
        {"const int k = j; const int j = 1; P=? [ F<=k s=1 ]", PROPER_EPARSE, 1, 15, "before its definition"},
    };
    proper_prism_model *m = NULL;
    proper_dtmc d;
    size_t i;
    proper_dtmc_init(&d);
    if (load_and_build(MODELS "die.pm", NULL, &m, &d)) return;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        proper_prism_props *p = NULL;
        proper_error e;
        CHECK_INT(proper_prism_props_parse(&p, m, cases[i].prop, strlen(cases[i].prop), "q.pctl", &e), cases[i].parse_code);
        CHECK(p == NULL);
        CHECK_INT(e.line, cases[i].line);
        CHECK_INT(e.col, cases[i].col);
        CHECK_STR(e.file, "q.pctl");
        CHECK_CONTAINS(e.message, cases[i].msg);
        proper_prism_props_free(p);
    }
    { /* errors at check time */
        proper_prism_props *p = NULL;
        proper_error e;
        double v;
        const char *q = "P=? [ F \"nolabel\" ]\nR{\"nope\"}=? [ F \"done\" ]\nP=? [ F<=k s=7 ]\nconst int k = -1;";
        CHECK_INT(proper_prism_props_parse(&p, m, q, strlen(q), "c.pctl", &e), 0);
        CHECK_INT(proper_prism_props_check(p, 0, &d, NULL, &v, &e), PROPER_EUNDEFINED);
        CHECK_CONTAINS(e.message, "unknown label \"nolabel\"");
        CHECK_INT(e.col, 9);
        CHECK_INT(proper_prism_props_check(p, 1, &d, NULL, &v, &e), PROPER_EUNDEFINED);
        CHECK_CONTAINS(e.message, "no reward structure \"nope\"");
        CHECK_INT(proper_prism_props_check(p, 2, &d, NULL, &v, &e), PROPER_ERANGE);
        proper_prism_props_free(p);
    }
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* Properties of a model without a PRISM description (labels only). */
static void test_props_without_model(void) {
    proper_dtmc_builder b;
    proper_dtmc d;
    proper_bitset goal;
    proper_prism_props *p = NULL;
    proper_error e;
    uint32_t d0[] = {1, 2}, d1[] = {1}, d2[] = {2};
    double p0[] = {0.25, 0.75}, p1[] = {1}, v;
    const char *q = "P=? [ F \"goal\" ]\nP=? [ F x=1 ]";
    proper_dtmc_builder_init(&b);
    proper_dtmc_builder_add_row(&b, d0, p0, 2, &e);
    proper_dtmc_builder_add_row(&b, d1, p1, 1, &e);
    proper_dtmc_builder_add_row(&b, d2, p1, 1, &e);
    proper_dtmc_init(&d);
    CHECK_INT(proper_dtmc_builder_finish(&b, 3, &d, &e), 0);
    proper_bitset_init(&goal);
    proper_bitset_create(&goal, 3, NULL);
    proper_bitset_set(&goal, 2);
    CHECK_INT(proper_dtmc_add_label(&d, "goal", &goal, NULL, &e), 0);
    proper_bitset_free(&goal);
    CHECK_INT(proper_prism_props_parse(&p, NULL, q, strlen(q), "e.pctl", &e), PROPER_EUNDEFINED);
    q = "P=? [ F \"goal\" ]";
    CHECK_INT(proper_prism_props_parse(&p, NULL, q, strlen(q), "e.pctl", &e), 0);
    CHECK_INT(proper_prism_props_check(p, 0, &d, NULL, &v, &e), 0);
    CHECK_REL(v, 0.75, 1e-15);
    proper_prism_props_free(p);
    proper_dtmc_free(&d);
}

/* The step-bound limit protects against enormous bounded properties. */
static void test_step_limit(void) {
    proper_prism_model *m = NULL;
    proper_dtmc d;
    proper_prism_props *p = NULL;
    proper_prism_check_opts o;
    proper_error e;
    double v;
    const char *q = "P=? [ F<=2000000000 s=7 ]";
    proper_dtmc_init(&d);
    if (load_and_build(MODELS "die.pm", NULL, &m, &d)) return;
    o = proper_prism_check_opts_default();
    o.max_steps = 1000;
    CHECK_INT(proper_prism_props_parse(&p, m, q, strlen(q), "q", &e), 0);
    CHECK_INT(proper_prism_props_check(p, 0, &d, &o, &v, &e), PROPER_ELIMIT);
    proper_prism_props_free(p);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* Exponential formula expansion and deep nesting are refused, not run. */
static void test_expression_limits(void) {
    char *text = (char *)malloc(200000);
    size_t k = 0;
    int i;
    proper_error e;
    proper_prism_model *m = NULL;
    k += (size_t)sprintf(text + k, "dtmc\nformula f0 = x;\n");
    for (i = 1; i <= 40; i++) k += (size_t)sprintf(text + k, "formula f%d = f%d + f%d;\n", i, i - 1, i - 1);
    k += (size_t)sprintf(text + k, "module M x : [0..1]; [] f40 > 0 -> true; [] f40 = 0 -> true; endmodule\n");
    m = parse_text(text, &e);
    CHECK(m == NULL);
    CHECK_INT(e.code, PROPER_ELIMIT);
    proper_prism_free(m);
    k = (size_t)sprintf(text, "dtmc\nconst int c = ");
    for (i = 0; i < 5000; i++) text[k++] = '(';
    text[k++] = '1';
    for (i = 0; i < 5000; i++) text[k++] = ')';
    k += (size_t)sprintf(text + k, ";\nmodule M x : [0..1]; endmodule\n");
    m = parse_text(text, &e);
    CHECK(m == NULL);
    CHECK_INT(e.code, PROPER_ELIMIT);
    proper_prism_free(m);
    k = (size_t)sprintf(text, "dtmc\nconst int c = 1");
    for (i = 0; i < 20000; i++) k += (size_t)sprintf(text + k, "+1");
    k += (size_t)sprintf(text + k, ";\nmodule M x : [0..1]; endmodule\n");
    m = parse_text(text, &e);
    CHECK(m == NULL);
    CHECK_INT(e.code, PROPER_ELIMIT);
    proper_prism_free(m);
    free(text);
}

/* A variable whose range holds one value takes no bits in the packed state
 * (it was a shift by 64, undefined behaviour caught by this sanitizer build).
 * The chain y = 0 -> 1 -> 2 (self-loop) is the same whatever x and z are:
 * 3 states, x = z = 0 in each, y reaches 2 in exactly 2 steps. */
static void test_single_value_range(void) {
    const char *text = "dtmc\nconst int N = 0;\nmodule M\n x : [0..0];\n y : [0..2] init 0;\n z : [0..N];\n"
                       " [] y<2 -> (y'=y+1);\n [] y=2 -> true;\nendmodule\n";
    proper_error e;
    proper_prism_model *m = parse_text(text, &e);
    proper_dtmc d;
    uint32_t s;
    if (!m) return;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
    CHECK_INT(d.n_states, 3);
    CHECK_INT(d.n_vars, 3);
    for (s = 0; s < d.n_states && d.vals; s++) {
        CHECK_INT(d.vals[s * 3 + 0], 0);
        CHECK_INT(d.vals[s * 3 + 1], (int)s);
        CHECK_INT(d.vals[s * 3 + 2], 0);
    }
    CHECK_ABS(check1(m, &d, "P=? [ F<=1 y=2 ]"), 0, 0);
    CHECK_ABS(check1(m, &d, "P=? [ F<=2 y=2 ]"), 1, 0);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* Huge step bounds end as soon as the iteration repeats (issue 14: 57 s for
 * k = 2e9 on 3 states), with the closed-form answers. */
static void test_bounded_huge_k(void) {
    /* x=1 and x=2 lump into one state "up": a two-state chain with
     * a = P(0 -> up) = 0.3, b = P(up -> 0) = 0.2, lambda = 1 - a - b = 0.5.
     * The expected reward (1 in up) of step j from 0 is pi (1 - lambda^j),
     * pi = a / (a + b) = 0.6, so C<=k = pi (k - (1 - lambda^k) / (1 - lambda))
     * = 0.6 (k - 2) for k = 2e9 (lambda^k = 0). */
    const char *lumped = "dtmc\nmodule M\n x : [0..2] init 0;\n"
                         " [] x=0 -> 0.7:(x'=0) + 0.15:(x'=1) + 0.15:(x'=2);\n"
                         " [] x>0 -> 0.2:(x'=0) + 0.4:(x'=1) + 0.4:(x'=2);\nendmodule\n"
                         "rewards x>0 : 1; endrewards\n";
    /* 0 -> 1 (0.5, absorbing), 0 -> 2 (0.3, absorbing), 0 -> 0 (0.2):
     * P(F<=k x=1) = 0.5 (1 - 0.2^k) / 0.8 = 0.625 for k = 2^31 - 1 */
    const char *absorb = "dtmc\nmodule M\n x : [0..2] init 0;\n"
                         " [] x=0 -> 0.2:(x'=0) + 0.5:(x'=1) + 0.3:(x'=2);\n [] x>0 -> true;\nendmodule\n";
    /* the cycle 0 -> 1 -> 2 -> 0 (period 3) with reward x: per period 0+1+2 = 3;
     * k = 2e9 = 3 * 666666666 + 2, so C<=k = 3 * 666666666 + 0 + 1 = 1999999999
     * and I=k = the reward at step k, 2e9 mod 3 = 2 */
    const char *cycle = "dtmc\nmodule M\n x : [0..2] init 0;\n [] true -> (x'=mod(x+1, 3));\nendmodule\n"
                        "rewards true : x; endrewards\n";
    proper_error e;
    proper_prism_model *m;
    proper_dtmc d;
    double t0;
    if ((m = parse_text(lumped, &e)) != NULL) {
        proper_dtmc_init(&d);
        CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
        t0 = (double)clock() / CLOCKS_PER_SEC;
        CHECK_REL(check1(m, &d, "R=? [ C<=2000000000 ]"), 0.6 * (2e9 - 2.0), 1e-12);
        /* a small k against the same closed form: k = 5, lambda^5 = 1/32 */
        CHECK_REL(check1(m, &d, "R=? [ C<=5 ]"), 0.6 * (5.0 - (1.0 - 1.0 / 32.0) / 0.5), 1e-14);
        /* I=k: pi (1 - lambda^k) */
        CHECK_REL(check1(m, &d, "R=? [ I=2000000000 ]"), 0.6, 1e-14);
        CHECK_REL(check1(m, &d, "R=? [ I=3 ]"), 0.6 * (1.0 - 0.125), 1e-14);
        CHECK((double)clock() / CLOCKS_PER_SEC - t0 < 5.0);
        proper_dtmc_free(&d);
        proper_prism_free(m);
    }
    if ((m = parse_text(absorb, &e)) != NULL) {
        proper_dtmc_init(&d);
        CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
        t0 = (double)clock() / CLOCKS_PER_SEC;
        CHECK_REL(check1(m, &d, "P=? [ F<=2147483647 x=1 ]"), 0.625, 1e-15);
        CHECK_REL(check1(m, &d, "P=? [ F<=3 x=1 ]"), 0.625 * (1.0 - 0.008), 1e-15);
        CHECK_REL(check1(m, &d, "P=? [ x=0 U<=2147483647 x=2 ]"), 0.375, 1e-15);
        CHECK((double)clock() / CLOCKS_PER_SEC - t0 < 5.0);
        proper_dtmc_free(&d);
        proper_prism_free(m);
    }
    if ((m = parse_text(cycle, &e)) != NULL) {
        proper_dtmc_init(&d);
        CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
        t0 = (double)clock() / CLOCKS_PER_SEC;
        CHECK(check1(m, &d, "R=? [ C<=2000000000 ]") == 1999999999.0);
        CHECK(check1(m, &d, "R=? [ C<=2000000001 ]") == 2000000001.0); /* + the reward 2 of step 2e9 */
        CHECK(check1(m, &d, "R=? [ I=2000000000 ]") == 2.0);
        CHECK(check1(m, &d, "R=? [ I=2000000001 ]") == 0.0);
        CHECK(check1(m, &d, "P=? [ x<2 U<=2147483647 x=2 ]") == 1.0);
        CHECK(check1(m, &d, "P=? [ x=0 U<=2147483647 x=2 ]") == 0.0);
        CHECK((double)clock() / CLOCKS_PER_SEC - t0 < 5.0);
        proper_dtmc_free(&d);
        proper_prism_free(m);
    }
}

/* A state space too large for the limit is refused before it is explored
 * when its modules are independent (issue 14: 40 two-state modules took
 * 52 s and 1.7 GB); the count given is exact: 2^40. */
static void test_refuse_early(void) {
    char *text = (char *)malloc(20000);
    size_t k = 0;
    int i;
    proper_error e;
    proper_prism_model *m;
    proper_prism_build_opts o = proper_prism_build_opts_default();
    proper_dtmc d;
    clock_t t0;
    const char *small = "dtmc\nmodule a\n x : [0..1000000] init 0;\n [] x<2 -> 0.5:(x'=x+1) + 0.5:(x'=x);\n [] x=2 -> true;\nendmodule\n"
                        "module b = a [x = y] endmodule\n";
    const char *coupled = "dtmc\nmodule a\n x : [0..1000000] init 0;\n [] x<2 -> 0.5:(x'=x+1) + 0.5:(x'=x);\n [] x=2 -> true;\nendmodule\n"
                          "module b\n y : [0..1000000] init 0;\n [] y<x -> (y'=y+1);\n [] y>=x -> true;\nendmodule\n";
    k += (size_t)sprintf(text + k, "dtmc\n");
    for (i = 0; i < 40; i++)
        k += (size_t)sprintf(text + k, "module m%d\n x%d : [0..1] init 0;\n [] true -> 0.5:(x%d'=0) + 0.5:(x%d'=1);\nendmodule\n", i, i, i, i);
    proper_dtmc_init(&d);
    if ((m = parse_text(text, &e)) != NULL) {
        t0 = clock();
        CHECK_INT(proper_prism_build(m, NULL, &d, &e), PROPER_ELIMIT);
        CHECK(strstr(e.message, "more than 10000000 reachable states") != NULL);
        CHECK(strstr(e.message, "the model has 1099511627776, the product of its 40 independent groups") != NULL);
        CHECK((double)(clock() - t0) / CLOCKS_PER_SEC < 2.0);
        CHECK_INT(d.n_states, 0); /* the output is untouched */
        proper_prism_free(m);
    }
    free(text);
    /* ranges of 10^12 states, 3 x 3 reachable: built as before */
    if ((m = parse_text(small, &e)) != NULL) {
        CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
        CHECK_INT(d.n_states, 9);
        CHECK_ABS(check1(m, &d, "P=? [ F x=2 & y=2 ]"), 1.0, 1e-12);
        o.max_states = 8;
        CHECK_INT(proper_prism_build(m, &o, &d, &e), PROPER_ELIMIT);
        CHECK(strstr(e.message, "more than 8 reachable states") != NULL && strstr(e.message, "the model has 9,") != NULL);
        CHECK_INT(d.n_states, 9); /* the earlier result stays */
        proper_prism_free(m);
    }
    /* b reads a's variable: one group, explored as one (x >= y: 6 states) */
    if ((m = parse_text(coupled, &e)) != NULL) {
        o.max_states = 5;
        CHECK_INT(proper_prism_build(m, &o, &d, &e), PROPER_ELIMIT);
        CHECK(strstr(e.message, "more than 5 reachable states") != NULL && strstr(e.message, "the model has") == NULL);
        o.max_states = 6;
        CHECK_INT(proper_prism_build(m, &o, &d, &e), 0);
        CHECK_INT(d.n_states, 6);
        proper_prism_free(m);
    }
    proper_dtmc_free(&d);
}

/* PROPS as the command line gives it: a file when one exists, else text; at
 * least one property. */
static void test_props_from_arg(void) {
    proper_prism_model *m = NULL;
    proper_prism_props *p = NULL;
    proper_dtmc d;
    proper_error e;
    char *text = NULL;
    int is_file = -1;
    double v = NAN;
    if (load_and_build(MODELS "gambler.pm", "p=0.5", &m, &d)) return;
    /* any expression is a property: N+0 is the constant N = 10 */
    CHECK_INT(proper_prism_props_from_arg(&p, m, "N+0", &text, &is_file, &e), 0);
    CHECK_INT(is_file, 0);
    CHECK(text && strcmp(text, "N+0") == 0);
    if (p) {
        CHECK_INT(proper_prism_props_check(p, 0, &d, NULL, &v, &e), 0);
        CHECK(v == 10.0);
    }
    PROPER_FREE(text);
    /* a file, named in errors by its path: the die's properties use d and s, unknown here */
    CHECK(proper_prism_props_from_arg(&p, m, PROPS "die.pctl", NULL, &is_file, &e) != 0);
    CHECK(strcmp(e.file, PROPS "die.pctl") == 0 && e.line > 0);
    CHECK_INT(is_file, 0); /* unchanged on failure */
    /* empty text, blanks only: no property (the earlier result stays) */
    CHECK_INT(proper_prism_props_from_arg(&p, m, "", NULL, NULL, &e), PROPER_EPARSE);
    CHECK(strstr(e.message, "no property in the text ''") != NULL);
    CHECK_INT(proper_prism_props_from_arg(&p, m, " // c", NULL, NULL, &e), PROPER_EPARSE);
    CHECK(p != NULL && proper_prism_props_count(p) == 1);
    /* not a property and named like a file: the file is missing */
    CHECK_INT(proper_prism_props_from_arg(&p, m, "tests/no/such.pctl", NULL, NULL, &e), PROPER_EIO);
    CHECK(strcmp(e.file, "tests/no/such.pctl") == 0 && strstr(e.message, "cannot open") != NULL);
    /* not a property, not a file name: the parse error */
    CHECK(proper_prism_props_from_arg(&p, m, "K+0", NULL, NULL, &e) != 0);
    CHECK(strcmp(e.file, "(property)") == 0 && e.line == 1 && e.col == 1);
    proper_prism_props_free(p);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* The output rule: a failing parse, read or build leaves its output as it
 * was (an earlier result stays usable); a succeeding one replaces it. */
static void test_output_contract(void) {
    const char *two = "dtmc\nmodule M\n x : [0..1];\n [] true -> 0.5:(x'=0) + 0.5:(x'=1);\nendmodule\n";
    const char *three = "dtmc\nmodule M\n x : [0..2];\n [] true -> 0.5:(x'=1) + 0.5:(x'=2);\nendmodule\n";
    const char *bad = "dtmc\nmodule M\n x : [0..1];\n [] true -> 0.5:(x'=0);\nendmodule\n"; /* sums to 0.5 */
    proper_prism_model *m = NULL, *m2 = NULL;
    proper_prism_props *p = NULL, *keep;
    proper_dtmc d;
    proper_error e;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_parse(&m, two, strlen(two), "two.pm", &e), 0);
    CHECK_INT(proper_prism_parse(&m, "dtmc\nmodule", 12, "bad.pm", &e), PROPER_EPARSE);
    CHECK(m != NULL);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
    CHECK_INT(d.n_states, 2);
    CHECK_INT(proper_prism_parse(&m2, bad, strlen(bad), "bad.pm", &e), 0);
    CHECK_INT(proper_prism_build(m2, NULL, &d, &e), PROPER_EPROB);
    CHECK_INT(d.n_states, 2); /* the earlier model is still there */
    CHECK_ABS(d.prob[0], 0.5, 0);
    CHECK_INT(proper_prism_parse(&m2, three, strlen(three), "three.pm", &e), 0); /* replaces (frees) bad.pm */
    CHECK_INT(proper_prism_build(m2, NULL, &d, &e), 0);
    CHECK_INT(d.n_states, 3);
    CHECK_INT(proper_prism_props_parse(&p, m, "P=? [ F x=1 ]", 13, "p", &e), 0);
    keep = p;
    CHECK_INT(proper_prism_props_parse(&p, m, "P=? [ F", 7, "p", &e), PROPER_EPARSE);
    CHECK(p == keep);
    CHECK_INT(proper_prism_props_read(&p, m, "tests/no/such/file.pctl", &e), PROPER_EIO);
    CHECK(p == keep);
    CHECK_INT((int)proper_prism_props_count(p), 1);
    proper_prism_props_free(p);
    proper_dtmc_free(&d);
    proper_prism_free(m);
    proper_prism_free(m2);
}

/* ---- The property language: closed forms on a climbing walk ----
 * x climbs 0 -> 3, moving up with probability 1/2 per step; 3 is absorbing.
 * The time T to reach 3 is negative binomial: P(T = t) = C(t-1, 2) / 2^t
 * (t >= 3), so P(T <= 3) = 1/8, P(T <= 4) = 5/16, P(T = 5) = 3/16. From
 * x = 1 (two steps up): P(T' <= 4) = 1/4 + 2/8 + 3/16 = 11/16. */
static const char *const walk_model =
    "dtmc\nmodule walk\n x : [0..3] init 0;\n [] x<3 -> 0.5:(x'=x+1) + 0.5:(x'=x);\n [] x=3 -> true;\nendmodule\n"
    "rewards \"steps\" x<3 : 1; endrewards\nrewards \"at3\" x=3 : 2; endrewards\n";

/* Result of property text `prop` on the walk (after `decls`). */
static int walk_result(const char *prop, proper_prism_result *r, proper_error *e) {
    static proper_prism_model *m = NULL;
    static proper_dtmc d;
    proper_prism_props *p = NULL;
    int rc;
    if (!m) {
        proper_dtmc_init(&d);
        if (proper_prism_parse(&m, walk_model, strlen(walk_model), "walk.pm", e) || proper_prism_build(m, NULL, &d, e))
            return e->code;
    }
    if (!prop) { /* release */
        proper_dtmc_free(&d);
        proper_prism_free(m);
        m = NULL;
        return 0;
    }
    if ((rc = proper_prism_props_parse(&p, m, prop, strlen(prop), "w.props", e)) != 0) return rc;
    rc = proper_prism_props_result(p, proper_prism_props_count(p) - 1, &d, NULL, r, e);
    proper_prism_props_free(p);
    return rc;
}

static void test_path_bounds(void) {
    static const struct { const char *prop; double want; } cases[] = {
        {"P=? [ F<=4 x=3 ]", 5.0 / 16},
        {"P=? [ F=4 x=3 ]", 5.0 / 16},           /* absorbing: at 3 at step 4 iff T <= 4 */
        {"P=? [ F>=4 x=3 ]", 1},
        {"P=? [ x<3 U>=4 x=3 ]", 7.0 / 8},       /* T >= 4 */
        {"P=? [ x<3 U>4 x=3 ]", 11.0 / 16},      /* T >= 5 */
        {"P=? [ x<3 U[4,5] x=3 ]", 3.0 / 8},     /* P(T = 4) + P(T = 5) */
        {"P=? [ G>=2 x>=1 ]", 3.0 / 4},          /* one step up within the first two */
        {"P=? [ G<=3 x<3 ]", 7.0 / 8},
        {"P=? [ G<4 x<3 ]", 7.0 / 8},
        {"P=? [ X x=1 ]", 0.5},
        {"P=? [ !(F<=4 x=3) ]", 11.0 / 16},
        {"P=? [ x<2 W x=3 ]", 0},                /* x passes 2 first */
        {"P=? [ x=0 W x=1 ]", 1},
        {"P=? [ x=0 W<=2 x=2 ]", 0.25},          /* G<=2 x=0 */
        {"P=? [ x=3 R x<3 ]", 0},
        {"P=? [ x=1 R x<=1 ]", 1},
        {"P=? [ x=0 ]", 1},                      /* a state formula as the path */
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        proper_prism_result r;
        proper_error e;
        if (walk_result(cases[i].prop, &r, &e)) {
            printf("  %s: %s\n", cases[i].prop, fmt_err(&e));
            CHECK(0);
            continue;
        }
        CHECK_ABS(r.value, cases[i].want, 1e-14);
    }
}

static void test_ctl_filters_nesting(void) {
    static const struct { const char *prop; double want; int type; } cases[] = {
        {"E [ F x=3 ]", 1, PROPER_PRISM_BOOL},
        {"A [ F x=3 ]", 0, PROPER_PRISM_BOOL}, /* x may stay 0 forever */
        {"A [ G x<=3 ]", 1, PROPER_PRISM_BOOL},
        {"E [ G x=0 ]", 1, PROPER_PRISM_BOOL},
        {"A [ X x<=1 ]", 1, PROPER_PRISM_BOOL},
        {"A [ X x=1 ]", 0, PROPER_PRISM_BOOL},
        {"A [ x<=1 U x=1 ]", 0, PROPER_PRISM_BOOL},
        {"A [ x=1 R x<=1 ]", 1, PROPER_PRISM_BOOL},
        {"filter(count, x<2)", 2, PROPER_PRISM_INT},
        {"filter(sum, x)", 6, PROPER_PRISM_INT},
        {"filter(avg, x)", 1.5, PROPER_PRISM_DOUBLE},
        {"filter(min, P=? [ F<=4 x=3 ])", 5.0 / 16, PROPER_PRISM_DOUBLE},
        {"filter(max, P=? [ F<=4 x=3 ], x<3)", 15.0 / 16, PROPER_PRISM_DOUBLE},
        {"filter(first, x, x>1)", 2, PROPER_PRISM_INT},
        {"filter(state, x, x=2)", 2, PROPER_PRISM_INT},
        {"filter(forall, x<=3)", 1, PROPER_PRISM_BOOL},
        {"filter(exists, x=4)", 0, PROPER_PRISM_BOOL},
        {"filter(argmax, x)", 0, PROPER_PRISM_BOOL}, /* the initial state is not the argmax */
        {"filter(print, x+1)", 1, PROPER_PRISM_INT},
        {"P=? [ F<=4 x=3 {x=1} ]", 11.0 / 16, PROPER_PRISM_DOUBLE},
        {"P=? [ F<=4 x=3 {x>=1}{min} ]", 11.0 / 16, PROPER_PRISM_DOUBLE},
        {"P=? [ F<=4 x=3 {x<=1}{max} ]", 11.0 / 16, PROPER_PRISM_DOUBLE},
        {"P=? [ F<=4 x=3 ] + 1", 21.0 / 16, PROPER_PRISM_DOUBLE},
        {"P=? [ F<=2 P>0.4 [ X x>=2 ] ]", 0.75, PROPER_PRISM_DOUBLE}, /* the inner set is x>=1 */
        {"!(P>=0.5 [ F<=4 x=3 ])", 1, PROPER_PRISM_BOOL},
        {"\"p4\": P=? [ F<=4 x=3 ];\n\"p4\" * 16", 5, PROPER_PRISM_DOUBLE},
        {"R{\"steps\"}=? [ F x=3 ]", 6, PROPER_PRISM_DOUBLE},   /* three geometric(1/2) waits */
        {"R{\"steps\"}=? [ C ]", 6, PROPER_PRISM_DOUBLE},
        {"R{\"at3\"}=? [ C ]", INFINITY, PROPER_PRISM_DOUBLE}, /* reward 2 forever once absorbed */
        {"R{\"at3\"}=? [ S ]", 2, PROPER_PRISM_DOUBLE},
        {"R{\"steps\"}=? [ S ]", 0, PROPER_PRISM_DOUBLE},
        {"R{\"at3\"}=? [ I=4 ]", 2 * 5.0 / 16, PROPER_PRISM_DOUBLE},
        {"S=? [ x=3 ]", 1, PROPER_PRISM_DOUBLE},
        /* non-probabilistic LTL (ltl.h's tableau): some/every path of the graph */
        {"E [ (F x=1) & (G x<=1) ]", 1, PROPER_PRISM_BOOL}, /* up once, then the self-loop at 1 forever */
        {"A [ (F x=3) | (F G x<3) ]", 1, PROPER_PRISM_BOOL}, /* a path that never reaches 3 stays below it */
        {"E [ G F x=1 ]", 1, PROPER_PRISM_BOOL},
        {"A [ G F x=1 ]", 0, PROPER_PRISM_BOOL},
        /* LTL (ltl.h) */
        {"P=? [ F G x=3 ]", 1, PROPER_PRISM_DOUBLE},
        {"P=? [ G F x=0 ]", 0, PROPER_PRISM_DOUBLE},
        {"P=? [ X X x=0 ]", 0.25, PROPER_PRISM_DOUBLE},
        {"P=? [ (X x=1) & (F<=2 x=2) ]", 0.25, PROPER_PRISM_DOUBLE}, /* up, then up again */
        {"R{\"steps\"}=? [ x<=1 U x=2 ]", 4, PROPER_PRISM_DOUBLE},    /* two geometric(1/2) waits */
        {"R{\"steps\"}=? [ (F x=1) & (F x=3) ]", 6, PROPER_PRISM_DOUBLE},
    };
    size_t i;
    proper_prism_result r;
    proper_error e;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (walk_result(cases[i].prop, &r, &e)) {
            printf("  %s: %s\n", cases[i].prop, fmt_err(&e));
            CHECK(0);
            continue;
        }
        CHECK_INT(r.type, cases[i].type);
        if (isinf(cases[i].want)) CHECK(isinf(r.value) && r.value > 0);
        else CHECK_ABS(r.value, cases[i].want, 1e-14);
    }
    /* a range: filter(range, ...) and {min}{max} */
    CHECK_INT(walk_result("filter(range, x)", &r, &e), 0);
    CHECK(r.value == 0 && r.hi == 3);
    CHECK_INT(walk_result("P=? [ F<=4 x=3 {true}{min}{max} ]", &r, &e), 0);
    CHECK_ABS(r.value, 5.0 / 16, 1e-15);
    CHECK_ABS(r.hi, 1, 0);
    /* errors at check time */
    CHECK_INT(walk_result("filter(state, x, x>=2)", &r, &e), PROPER_EINVAL);
    CHECK_CONTAINS(e.message, "exactly 1 state");
    CHECK_INT(walk_result("filter(min, x, x>5)", &r, &e), PROPER_EINVAL);
    CHECK_CONTAINS(e.message, "no states");
    CHECK_INT(walk_result("P=? [ F<=-1 x=3 ]", &r, &e), PROPER_ERANGE);
    CHECK_INT(walk_result("P=? [ x<3 U[5,4] x=3 ]", &r, &e), PROPER_ERANGE);
    CHECK_CONTAINS(e.message, "empty step bound");
    CHECK_INT(walk_result("R{\"steps\"}=? [ G x<3 ]", &r, &e), PROPER_EUNSUPPORTED);
    CHECK_CONTAINS(e.message, "co-safe");
    CHECK_INT(walk_result("E [ F<=2 x=3 ]", &r, &e), PROPER_EUNSUPPORTED);
    /* the value is the bound, 5/16: decided exactly (test_bound_tie_exact) */
    CHECK_INT(walk_result("P>=0.3125 [ F<=4 x=3 ]", &r, &e), 0);
    CHECK_ABS(r.value, 1, 0);
    CHECK_INT(walk_result("P>0.3125 [ F<=4 x=3 ]", &r, &e), 0);
    CHECK_ABS(r.value, 0, 0);
    walk_result(NULL, &r, &e);
}

/* --const values: numbers, booleans, expressions over literals. */
static void test_eval_constant(void) {
    double v = 0;
    proper_error e;
    CHECK_INT(proper_prism_eval_constant("1/3", &v, &e), 0);
    CHECK(v == 1.0 / 3);
    CHECK_INT(proper_prism_eval_constant("2^10 + max(1, 2)*0.5", &v, &e), 0);
    CHECK(v == 1025);
    CHECK_INT(proper_prism_eval_constant("true", &v, &e), 0);
    CHECK(v == 1);
    CHECK_INT(proper_prism_eval_constant("1/", &v, &e), PROPER_EPARSE);
    CHECK_INT(proper_prism_eval_constant("N+1", &v, &e), PROPER_EUNDEFINED);
    CHECK_INT(proper_prism_eval_constant("1 2", &v, &e), PROPER_EPARSE);
}

/* A UTF-8 byte order mark before a model or properties file is no text. */
static void test_bom(void) {
    static const char model[] = "\xEF\xBB\xBF" "dtmc\nmodule M\n x : [0..1] init 0;\n [] true -> 0.5:(x'=0) + 0.5:(x'=1);\nendmodule\n";
    static const char props[] = "\xEF\xBB\xBF" "// RESULT: 0.5\nP=? [ X x=1 ]\n";
    proper_prism_model *m = NULL;
    proper_prism_props *p = NULL;
    proper_dtmc d;
    proper_error e;
    double v = 0;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_parse(&m, model, strlen(model), "bom.pm", &e), 0);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
    CHECK_INT(proper_prism_props_parse(&p, m, props, strlen(props), "bom.props", &e), 0);
    if (p) {
        CHECK_INT(proper_prism_props_check(p, 0, &d, NULL, &v, &e), 0);
        CHECK_ABS(v, 0.5, 0);
        CHECK_CONTAINS(proper_prism_props_comment(p, 0), "RESULT: 0.5");
    }
    proper_prism_props_free(p);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* init ... endinit: x = 0 and x = 1 start; results over both, as PRISM. */
static void test_init_block(void) {
    static const char model[] =
        "dtmc\nmodule walk\n x : [0..3];\n [] x<3 -> 0.5:(x'=x+1) + 0.5:(x'=x);\n [] x=3 -> true;\nendmodule\n"
        "init x<=1 endinit\n";
    static const char props[] = "P=? [ F<=4 x=3 ]\nP>0.5 [ F<=4 x=3 ]\nfilter(count, \"init\")\nP>0.25 [ F<=4 x=3 ]\n";
    static const char both[] = "dtmc\nmodule M\n x : [0..3] init 0;\n [] true -> true;\nendmodule\ninit x=0 endinit\n";
    proper_prism_model *m = NULL;
    proper_prism_props *p = NULL;
    proper_prism_result r;
    proper_dtmc d;
    proper_error e;
    double v;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_parse(&m, model, strlen(model), "init.pm", &e), 0);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
    CHECK_INT(proper_prism_props_parse(&p, m, props, strlen(props), "init.props", &e), 0);
    if (p) {
        CHECK_INT(proper_prism_props_result(p, 0, &d, NULL, &r, &e), 0);
        CHECK_ABS(r.value, 5.0 / 16, 1e-15); /* from x = 0 */
        CHECK_ABS(r.hi, 11.0 / 16, 1e-15);   /* from x = 1 (closed forms of test_path_bounds) */
        CHECK_INT(proper_prism_props_check(p, 0, &d, NULL, &v, &e), PROPER_EINVAL);
        CHECK_CONTAINS(e.message, "range");
        CHECK_INT(proper_prism_props_result(p, 1, &d, NULL, &r, &e), 0);
        CHECK(r.value == 0); /* not in x = 0 */
        CHECK_INT(proper_prism_props_result(p, 2, &d, NULL, &r, &e), 0);
        CHECK(r.value == 2);
        CHECK_INT(proper_prism_props_result(p, 3, &d, NULL, &r, &e), 0);
        CHECK(r.value == 1); /* in both */
    }
    proper_prism_props_free(p);
    proper_dtmc_free(&d);
    proper_prism_free(m);
    m = NULL;
    CHECK_INT(proper_prism_parse(&m, both, strlen(both), "both.pm", &e), PROPER_EPARSE);
    CHECK_CONTAINS(e.message, "initial value although");
}

/* A two-state CTMC, 0 -> 1 at rate 2 and 1 -> 0 at rate 3: closed forms
 * P(F<=t x=1) = 1 - e^(-2t) from 0, long-run P(x=1) = 2/5, mean time to
 * leave 0 = 1/2. */
static void test_ctmc(void) {
    static const char model[] =
        "ctmc\nmodule flip\n x : [0..1] init 0;\n [] x=0 -> 2:(x'=1);\n [] x=1 -> 3:(x'=0);\nendmodule\n"
        "rewards \"time\" x=0 : 1; endrewards\nrewards \"up\" x=1 : 5; endrewards\n";
    static const struct { const char *prop; double want; } cases[] = {
        {"P=? [ F<=0.5 x=1 ]", 0.63212055882855767}, /* 1 - e^-1 */
        {"P=? [ x=0 U<=0.5 x=1 ]", 0.63212055882855767},
        {"S=? [ x=1 ]", 0.4},
        {"P=? [ X x=1 ]", 1},
        {"R{\"time\"}=? [ F x=1 ]", 0.5},
        {"R{\"up\"}=? [ S ]", 2},
        {"P=? [ F x=1 ]", 1},
        {"R{\"time\"}=? [ x=0 U x=1 ]", 0.5}, /* co-safe LTL: the embedded chain, rate x mean sojourn 1/2 */
        {"R{\"time\"}=? [ C ]", INFINITY},     /* the chain keeps returning to x=0 */
    };
    proper_prism_model *m = NULL;
    proper_prism_props *p = NULL;
    proper_dtmc d;
    proper_error e;
    size_t i;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_parse(&m, model, strlen(model), "flip.sm", &e), 0);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
    CHECK_INT(d.kind, PROPER_DTMC_KIND_CTMC);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double v = -1;
        if (proper_prism_props_parse(&p, m, cases[i].prop, strlen(cases[i].prop), "f.csl", &e) ||
            proper_prism_props_check(p, 0, &d, NULL, &v, &e)) {
            printf("  %s: %s\n", cases[i].prop, fmt_err(&e));
            CHECK(0);
            continue;
        }
        if (isinf(cases[i].want)) CHECK(isinf(v) && v > 0);
        else CHECK_ABS(v, cases[i].want, 1e-9);
    }
    proper_prism_props_free(p);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* A CTMC's R=? [ C ] reports the bound of its embedded chain's solve:
 * 0 -2-> 1 -3-> 2 (absorbing: a self-loop) earns 1 per time unit until
 * absorbed, 1/2 + 1/3 = 5/6, plus 4 for the jump 0 -> 1. */
static void test_ctmc_total_bound(void) {
    static const char model[] = "ctmc\nmodule m s : [0..2] init 0;\n [go] s=0 -> 2:(s'=1);\n [] s=1 -> 3:(s'=2);\n [] s=2 -> 1:(s'=2);\nendmodule\n"
                                "rewards s<2 : 1; [go] true : 4; endrewards\n";
    proper_prism_model *m = NULL;
    proper_prism_props *p = NULL;
    proper_prism_result r;
    proper_dtmc d;
    proper_error e;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_parse(&m, model, strlen(model), "chain.sm", &e), 0);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
    CHECK_INT(proper_prism_props_parse(&p, m, "R=? [ C ]", 9, NULL, &e), 0);
    if (p) {
        CHECK_INT(proper_prism_props_result(p, 0, &d, NULL, &r, &e), 0);
        CHECK(r.error_bound >= 0 && r.error_bound <= 1e-10 * (4 + 5.0 / 6));
        CHECK(fabs(r.value - (4 + 5.0 / 6)) <= r.error_bound + 2 * DBL_EPSILON * 5);
    }
    proper_prism_props_free(p);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* The same CTMC's time-bounded properties report dtmc.h's proven bounds,
 * which hold the closed forms: from x=0, P(x=1 at t) = p1(t) = (2/5)(1 -
 * e^{-5t}); F<=t x=1 (x=1 absorbing) is 1 - e^{-2t}; F[1,2] x=1 is p1(1) +
 * (1 - p1(1))(1 - e^{-2}); F>=1 x=1 is 1; R{"up"} I=t is 5 p1(t); R{"time"}
 * C<=t is t - (2/5)(t - (1 - e^{-5t})/5). Every bound is within 1e-10 of
 * the value (or of 1). */
static void test_ctmc_bounds(void) {
    static const char model[] =
        "ctmc\nmodule flip\n x : [0..1] init 0;\n [] x=0 -> 2:(x'=1);\n [] x=1 -> 3:(x'=0);\nendmodule\n"
        "rewards \"time\" x=0 : 1; endrewards\nrewards \"up\" x=1 : 5; endrewards\n";
    static const double times[] = {0.002, 0.5, 30.0, 4000.0};
    proper_prism_model *m = NULL;
    proper_dtmc d;
    proper_error e;
    size_t i;
    int kind;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_parse(&m, model, strlen(model), "flip.sm", &e), 0);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
    for (i = 0; i < sizeof times / sizeof *times; i++)
        for (kind = 0; kind < 5; kind++) {
            long double t = times[i], p1 = 0.4L * (1.0L - expl(-5.0L * t)), p11 = 0.4L * (1.0L - expl(-5.0L)), want;
            proper_prism_props *p = NULL;
            proper_prism_result r;
            char prop[80];
            switch (kind) {
            case 0: snprintf(prop, sizeof prop, "P=? [ F<=%g x=1 ]", times[i]); want = 1.0L - expl(-2.0L * t); break;
            case 1: snprintf(prop, sizeof prop, "P=? [ F[1,2] x=1 ]"); want = p11 + (1.0L - p11) * (1.0L - expl(-2.0L)); break;
            case 2: snprintf(prop, sizeof prop, "P=? [ F>=1 x=1 ]"); want = 1.0L; break;
            case 3: snprintf(prop, sizeof prop, "R{\"up\"}=? [ I=%g ]", times[i]); want = 5.0L * p1; break;
            default:
                snprintf(prop, sizeof prop, "R{\"time\"}=? [ C<=%g ]", times[i]);
                want = t - 0.4L * (t - (1.0L - expl(-5.0L * t)) / 5.0L);
            }
            CHECK_INT(proper_prism_props_parse(&p, m, prop, strlen(prop), NULL, &e), 0);
            if (!p) continue;
            CHECK_INT(proper_prism_props_result(p, 0, &d, NULL, &r, &e), 0);
            if (!(r.error_bound >= 0 && r.error_bound <= 1e-10 * fmax((double)want, 1.0) &&
                  fabsl((long double)r.value - want) <= (long double)r.error_bound + 2 * DBL_EPSILON * want)) {
                printf("  %s: %.17g vs %.17Lg, bound %g\n", prop, r.value, want, r.error_bound);
                CHECK(0);
            }
            proper_prism_props_free(p);
        }
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* A global variable changed by two modules: from g=0 both modules' commands
 * are choices (1/2 each); a's moves g with 1/2, b's always: P(g=1 after one
 * step) = 1/2 * 1/2 + 1/2 = 3/4. */
static void test_global(void) {
    static const char model[] =
        "dtmc\nglobal g : [0..2] init 0;\nmodule a\n x : [0..1] init 0;\n"
        " [] g<2 -> 0.5:(g'=g+1) + 0.5:(x'=1-x);\n [] g=2 -> true;\nendmodule\n"
        "module b\n y : [0..1] init 0;\n [] g<2 -> (g'=g+1)&(y'=1);\nendmodule\n";
    static const char late[] = "dtmc\nmodule a\n x : [0..1] init 0;\n [] true -> true;\nendmodule\nglobal g : bool;\n";
    proper_prism_model *m = NULL;
    proper_prism_props *p = NULL;
    proper_dtmc d;
    proper_error e;
    double v = 0;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_parse(&m, model, strlen(model), "g.pm", &e), 0);
    CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
    CHECK_STR(proper_prism_var_name(m, 0), "g");
    CHECK_INT(proper_prism_props_parse(&p, m, "P=? [ F<=1 g=1 ]", 16, "g.props", &e), 0);
    if (p) CHECK_INT(proper_prism_props_check(p, 0, &d, NULL, &v, &e), 0);
    CHECK_ABS(v, 0.75, 1e-15);
    proper_prism_props_free(p);
    proper_dtmc_free(&d);
    proper_prism_free(m);
    m = NULL;
    CHECK_INT(proper_prism_parse(&m, late, strlen(late), "late.pm", &e), PROPER_EUNSUPPORTED);
    CHECK_CONTAINS(e.message, "before the modules");
}

/* A model of many commands is lexed block by block as it is parsed
 * (blocks of PROPER_PRISM_TOK_BLOCK tokens, given back once parsed): the
 * chain 0 -> 1 -> ... -> n-1 (n = 3000, some 27 tokens a line, about 20
 * blocks) builds to n states and n transitions; errors far into the file
 * keep their line and column; a lexing error after a parse error is the
 * one reported (as when the whole file was lexed first); FACT's
 * `param double n = "file";` finds names used anywhere, before or after it. */
static char *chain_text(int n, int bad_line, const char *bad, const char *head, const char *tail) {
    proper_strbuf b;
    int k;
    proper_strbuf_init(&b);
    proper_strbuf_printf(&b, "dtmc\n%smodule chain\n s : [0..%d] init 0;\n", head, n - 1); /* 3 lines + head's */
    for (k = 0; k < n; k++) {
        if (k + 4 == bad_line) proper_strbuf_printf(&b, "%s\n", bad);
        else proper_strbuf_printf(&b, " [] s=%d -> 0.5:(s'=%d) + 0.5:(s'=%d);\n", k, k + 1 < n ? k + 1 : k, k + 1 < n ? k + 1 : k);
    }
    proper_strbuf_printf(&b, "endmodule\n%s", tail);
    return proper_strbuf_take(&b);
}

static void test_lazy_lexing(void) {
    proper_prism_model *m = NULL;
    proper_dtmc d;
    proper_error e;
    char *text = chain_text(3000, 0, "", "", "");
    int rc;
    proper_dtmc_init(&d);
    CHECK_INT(proper_prism_parse(&m, text, strlen(text), "t.pm", &e), 0);
    if (m) {
        CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
        CHECK_INT(d.n_states, 3000);
        CHECK_INT(d.n_trans, 3000); /* 0.5 + 0.5 to one successor: one transition per state */
    }
    proper_dtmc_free(&d);
    PROPER_FREE(text);
    /* a parse error on line 2804 (after some 75000 tokens) */
    text = chain_text(3000, 2804, " [] s=7 -> 0.5:(s'=1) + 0.5 (s'=2);", "", "");
    CHECK(proper_prism_parse(&m, text, strlen(text), "t.pm", &e) != 0);
    CHECK_INT(e.line, 2804);
    CHECK_INT(e.col, 29);
    CHECK_CONTAINS(e.message, "expected ':'");
    PROPER_FREE(text);
    /* a parse error on line 10, a lexing error on line 3006: the lexing error */
    text = chain_text(3000, 10, " [] s=7 -> ;", "", "label \"x\" = s=1;\nlabel \"y\" = s=2 @ s=3;\n");
    rc = proper_prism_parse(&m, text, strlen(text), "t.pm", &e);
    CHECK_INT(rc, PROPER_EPARSE);
    CHECK_INT(e.line, 3006);
    CHECK_INT(e.col, 17);
    CHECK_CONTAINS(e.message, "unexpected character '@'");
    PROPER_FREE(text);
    /* a lexing error that ends the input where the parser could stop */
    text = chain_text(3000, 0, "", "", "\x01");
    CHECK_INT(proper_prism_parse(&m, text, strlen(text), "t.pm", &e), PROPER_EPARSE);
    CHECK_INT(e.line, 3005);
    CHECK_INT(e.col, 1);
    CHECK_CONTAINS(e.message, "unexpected byte 0x01");
    PROPER_FREE(text);
    /* FACT's names: n1 on the last command, n2 after the module, declared first */
    text = chain_text(3000, 3003, " [] s=2999 -> n1:(s'=2999) + (1-n1):(s'=2999);", "param double n = \"f.csv\";\n",
                      "const double q = n2;\n");
    CHECK_INT(proper_prism_parse(&m, text, strlen(text), "t.pm", &e), 0);
    if (m) {
        CHECK_INT(proper_prism_const_count(m), 3);
        CHECK_STR(proper_prism_const_name(m, 0), "n1");
        CHECK_STR(proper_prism_const_name(m, 1), "n2");
        CHECK_STR(proper_prism_const_name(m, 2), "q");
    }
    PROPER_FREE(text);
    /* ... and declared after the module (whose tokens were given back) */
    text = chain_text(3000, 3003, " [] s=2999 -> n1:(s'=2999) + (1-n1):(s'=2999);", "", "param double n = \"f.csv\";\n");
    CHECK_INT(proper_prism_parse(&m, text, strlen(text), "t.pm", &e), 0);
    if (m) {
        CHECK_INT(proper_prism_const_count(m), 1);
        CHECK_STR(proper_prism_const_name(m, 0), "n1");
    }
    PROPER_FREE(text);
    proper_prism_free(m);
}

/* Comparisons of non-integer values that read the state are decided
 * exactly once proper_prism_decide_exactly has run (as PRISM -exact builds
 * the chain): in exact_state_cmp.pm, 1/3 = 0.333333333333333333333333 is
 * false exactly and true in doubles. PRISM 4.10.2-dev on its own
 * functionality/verify/exact/exact-eval-4.prism (the first command):
 * `prism exact-eval-4.prism -pf 'P=? [ F s=1 ]' -const x=0` gives 3 states
 * and 0.5, with -exact 2 states and 0. Here the doubles reach s=1 and s=3
 * (0, 1, 2, 3: 4 states, P(F s=1) = 1/2); exactly only 0 and 2. */
static void test_exact_state_comparisons(void) {
    proper_prism_model *m = NULL;
    proper_prism_props *p = NULL;
    proper_exact_dtmc e;
    proper_exact_vec x;
    proper_dtmc d;
    proper_error err;
    proper_dtmc_init(&d);
    proper_exact_dtmc_init(&e);
    proper_exact_vec_init(&x);
    CHECK_INT(proper_prism_read(&m, MODELS "exact_state_cmp.pm", &err), 0);
    if (!m) return;
    CHECK_INT(proper_prism_build(m, NULL, &d, &err), 0);
    CHECK_INT(d.n_states, 4);
    CHECK_ABS(check1(m, &d, "P=? [ F s=1 ]"), 0.5, 1e-15);
    CHECK_INT(proper_prism_decide_exactly(m, NULL, 0, &err), 0);
    CHECK_INT(proper_prism_build(m, NULL, &d, &err), 0);
    CHECK_INT(d.n_states, 2);
    CHECK_ABS(check1(m, &d, "P=? [ F s=1 ]"), 0, 0);
    CHECK_ABS(check1(m, &d, "P=? [ F s=3 ]"), 0, 0);
    CHECK_INT(proper_prism_build_exact(m, &d, NULL, 0, &e, &err), 0);
    CHECK_INT(proper_prism_props_parse(&p, m, "P=? [ F s=2 ]", 13, NULL, &err), 0);
    if (p) {
        CHECK_INT(proper_prism_props_exact(p, 0, &d, &e, &x, &err), 0);
        CHECK(x.q && proper_rat_to_double(&x.q[d.init]) == 1);
    }
    proper_exact_vec_free(&x);
    proper_exact_dtmc_free(&e);
    proper_prism_props_free(p);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* The proven bounds of R=? [ C<=k ], [ I=k ] and [ S ] on a DTMC. A
 * two-state flip that leaves its state with probability q = 1/8 (exact in
 * binary, as is 1 - 2q = 3/4), reward 1 in state 0, from state 0: P(in 0
 * after j steps) = (1 + (3/4)^j) / 2, so I=k = (1 + (3/4)^k) / 2,
 * C<=k = sum_{j<k} = k/2 + (1 - (3/4)^k) / (4q) and S = 1/2. Each result
 * carries a bound that contains the closed form (up to the closed form's
 * own rounding) and is tight (below 1e-9 of the value). */
static void test_reward_bounds(void) {
    const char *text = "dtmc\nmodule M s : [0..1] init 0;\n [] s=0 -> 0.125:(s'=1) + 0.875:(s'=0);\n"
                       " [] s=1 -> 0.125:(s'=0) + 0.875:(s'=1);\nendmodule\nrewards \"r\" s=0 : 1; endrewards\n";
    static const unsigned long ks[] = {1, 7, 1000, 1000000};
    proper_prism_model *m;
    proper_dtmc d;
    proper_error err;
    size_t i;
    int kind;
    proper_dtmc_init(&d);
    m = parse_text(text, &err);
    CHECK(m != NULL);
    if (!m) return;
    CHECK_INT(proper_prism_build(m, NULL, &d, &err), 0);
    for (i = 0; i < sizeof ks / sizeof ks[0]; i++)
        for (kind = 0; kind < 3; kind++) {
            proper_prism_props *p = NULL;
            proper_prism_result r;
            char prop[80];
            double decay = pow(0.75, (double)ks[i]), want;
            if (kind == 0) {
                snprintf(prop, sizeof prop, "R=? [ C<=%lu ]", ks[i]);
                want = (double)ks[i] / 2 + (1 - decay) * 2;
            } else if (kind == 1) {
                snprintf(prop, sizeof prop, "R=? [ I=%lu ]", ks[i]);
                want = (1 + decay) / 2;
            } else {
                snprintf(prop, sizeof prop, "R=? [ S ]");
                want = 0.5;
            }
            CHECK_INT(proper_prism_props_parse(&p, m, prop, strlen(prop), NULL, &err), 0);
            if (!p) continue;
            CHECK_INT(proper_prism_props_result(p, 0, &d, NULL, &r, &err), 0);
            CHECK(r.error_bound >= 0 && r.error_bound <= 1e-9 * want);
            CHECK(fabs(r.value - want) <= r.error_bound + 4 * DBL_EPSILON * want);
            proper_prism_props_free(p);
        }
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* exact.h's arithmetic reports a limit by its code only; prism.h names the
 * limit and the construct. (1+p+q)^1000 has (1001 * 1002) / 2 = 501501
 * terms, above PROPER_EXACT_MAX_TERMS (100000): refused in the model's
 * reward and in a property, at the power (whose position is its first
 * operand's: line 3, column 20 of the model; column 2 of the property). */
static void test_exact_limit_message(void) {
    static const char *const names[] = {"p", "q"};
    const char *base = "dtmc\nconst double p; const double q;\n"
                       "module M s : [0..1] init 0;\n [] s=0 -> p:(s'=1) + 1-p:(s'=0);\n [] s=1 -> true;\nendmodule\n";
    const char *rewarded = "dtmc\nconst double p; const double q;\nrewards \"r\" s=0 : (1+p+q)^1000; endrewards\n"
                           "module M s : [0..1] init 0;\n [] s=0 -> p:(s'=1) + 1-p:(s'=0);\n [] s=1 -> true;\nendmodule\n";
    proper_prism_model *m;
    proper_prism_props *props = NULL;
    proper_exact_dtmc e;
    proper_exact_vec x;
    proper_dtmc d;
    proper_error err;
    proper_dtmc_init(&d);
    proper_exact_dtmc_init(&e);
    proper_exact_vec_init(&x);
    m = parse_text(rewarded, &err);
    CHECK(m != NULL);
    if (m) {
        CHECK_INT(proper_prism_open_params(m, names, 2, &err), 0);
        CHECK_INT(proper_prism_build(m, NULL, &d, &err), 0);
        CHECK_INT(proper_prism_build_exact(m, &d, names, 2, &e, &err), PROPER_ELIMIT);
        CHECK(strstr(err.message, "PROPER_EXACT_MAX_TERMS") != NULL);
        CHECK_INT(err.line, 3);
        CHECK_INT(err.col, 20);
        proper_prism_free(m);
    }
    m = parse_text(base, &err);
    CHECK(m != NULL);
    if (m) {
        proper_dtmc_free(&d);
        CHECK_INT(proper_prism_open_params(m, names, 2, &err), 0);
        CHECK_INT(proper_prism_build(m, NULL, &d, &err), 0);
        CHECK_INT(proper_prism_build_exact(m, &d, names, 2, &e, &err), 0);
        CHECK_INT(proper_prism_props_parse(&props, m, "(1+p+q)^1000", 12, "t.props", &err), 0);
        if (props) {
            CHECK_INT(proper_prism_props_exact(props, 0, &d, &e, &x, &err), PROPER_ELIMIT);
            CHECK(strstr(err.message, "PROPER_EXACT_MAX_TERMS") != NULL);
            CHECK_INT(err.line, 1);
            CHECK_INT(err.col, 2);
            CHECK(strcmp(err.file, "t.props") == 0);
        }
        proper_prism_props_free(props);
        proper_prism_free(m);
    }
    proper_exact_vec_free(&x);
    proper_exact_dtmc_free(&e);
    proper_dtmc_free(&d);
}

/* A bound the doubles cannot decide (the value within the solver's
 * precision of it) is decided exactly on a small model: from x=0 the
 * chain reaches x=3 within 2 steps with probability 1 * 98/100 exactly, so
 * P>0.98 is false and P>=0.98 true there; from x=1 it is 98/100 + 1/100 *
 * 98/100 = 0.9898 (PRISM's test papers/KNP07a-SFM07: RESULT 0.9898, and
 * "ex5" <=> (x=1|x=3) true, i.e. P>0.98 false at x=0). A model above
 * PROPER_PRISM_TIE_EXACT_STATES (200) states keeps the refusal. */
static void test_bound_tie_exact(void) {
    const char *small = "dtmc\nmodule M x : [0..3] init 0;\n [] x=0 -> (x'=1);\n"
                        " [] x=1 -> 0.01:(x'=1) + 0.01:(x'=2) + 0.98:(x'=3);\n [] x=2 -> (x'=0);\n [] x=3 -> true;\nendmodule\n";
    const char *big = "dtmc\nmodule M s : [0..202] init 0;\n [] s=0 -> 0.98:(s'=1) + 0.02:(s'=2);\n"
                      " [] s>0 & s<202 -> (s'=s+1);\n [] s=202 -> true;\nendmodule\n";
    proper_prism_model *m;
    proper_prism_props *p = NULL;
    proper_dtmc d;
    proper_error e;
    double v;
    proper_dtmc_init(&d);
    if ((m = parse_text(small, &e)) != NULL && proper_prism_build(m, NULL, &d, &e) == 0) {
        CHECK_ABS(check1(m, &d, "P=? [ F<=2 x=3 ]"), 0.98, 1e-15);
        CHECK_ABS(check1(m, &d, "P>0.98 [ F<=2 x=3 ]"), 0, 0);
        CHECK_ABS(check1(m, &d, "P>=0.98 [ F<=2 x=3 ]"), 1, 0);
        CHECK_ABS(check1(m, &d, "filter(forall, P>0.98 [ F<=2 x=3 ] <=> (x=1|x=3))"), 1, 0);
    } else {
        printf("  %s\n", fmt_err(&e));
        CHECK(0);
    }
    proper_prism_free(m);
    if ((m = parse_text(big, &e)) != NULL && proper_prism_build(m, NULL, &d, &e) == 0) {
        CHECK_INT(d.n_states, 203); /* PROPER_PRISM_TIE_EXACT_STATES + 3 */
        CHECK_INT(proper_prism_props_parse(&p, m, "P>0.98 [ X s=1 ]", 16, NULL, &e), 0);
        if (p) {
            CHECK_INT(proper_prism_props_check(p, 0, &d, NULL, &v, &e), PROPER_ENOCONV);
            CHECK_CONTAINS(e.message, "cannot decide the bound 0.98");
        }
    } else {
        CHECK(0);
    }
    proper_prism_props_free(p);
    proper_prism_free(m);
    proper_dtmc_free(&d);
}

/* The steady state of a birth-death CTMC whose probabilities span hundreds
 * of orders of magnitude (PRISM's cell example at N=200: calls arrive at
 * 49 + 21 below 160 calls, at 21 from 160 to 200, and leave at n each).
 * Stationary pi(n) is proportional to the product of the up/down rate
 * ratios: a Poisson(70) shape below 160, so P(n < 160) = 1 - 1.6e-20 and
 * the mean number of calls is 70 - 7.8e-19 (summed exactly with Python's
 * fractions). proper refused both before GTH ("too badly conditioned");
 * each value now lies within its proven bound, itself below 1e-10
 * relative. PRISM 4.10.2-dev (-sor) prints 1.0 and 70.00000053763426. */
static void test_birth_death_steady(void) {
    const char *text = "ctmc\nmodule cell\n n : [0..200];\n [] n<160 -> 49 : (n'=n+1);\n"
                       " [] n<200 -> 21 : (n'=n+1);\n [] n>0 -> n : (n'=n-1);\nendmodule\n"
                       "rewards \"calls\" true : n; endrewards\n";
    static const char *const props[] = {"S=? [ n<160 ]", "R{\"calls\"}=? [ S ]"};
    static const double want[] = {1.0, 70.0};
    proper_prism_model *m;
    proper_dtmc d;
    proper_error e;
    size_t i;
    proper_dtmc_init(&d);
    if ((m = parse_text(text, &e)) != NULL && proper_prism_build(m, NULL, &d, &e) == 0) {
        CHECK_INT(d.n_states, 201);
        for (i = 0; i < 2; i++) {
            proper_prism_props *p = NULL;
            proper_prism_result r;
            int rc = -1;
            if (proper_prism_props_parse(&p, m, props[i], strlen(props[i]), "p", &e) == 0)
                rc = proper_prism_props_result(p, 0, &d, NULL, &r, &e);
            CHECK_INT(rc, 0);
            if (rc == 0) {
                CHECK(r.error_bound >= 0 && r.error_bound <= 1e-10 * want[i]);
                CHECK(fabs(r.value - want[i]) <= r.error_bound + 1e-19 * want[i]);
            }
            proper_prism_props_free(p);
        }
    } else {
        printf("  %s\n", fmt_err(&e));
        CHECK(0);
    }
    proper_prism_free(m);
    proper_dtmc_free(&d);
}

/* LTL and lower step bounds on a model with real intervals, through the
 * language. From s=0 the chain reaches {1,3} (where G F s=3 holds almost
 * surely: 1 -> 3 has at least 0.3) or {2 -> 4} (never s=3); nature picks
 * the split. Pmin [ G F a ] = 25/43 and Pmax = 35/43, Pmin [ (F b) & (G F a) ]
 * = 5/387, Pmax [ !b U (G F a) ] = 35/43: PRISM 4.10.2-dev's values
 * (0.5813953488371189, 0.8139534883719663, 0.012919896640825993,
 * 0.8139534883720771 at -epsilon 1e-12), recognised as these fractions.
 * F>=2 a is F a here (s=3 is at least two steps from s=0), so its Pmin is
 * 25/43 too (PRISM refuses U>=k on interval models). No value carries a
 * bound: the solve's is proven, the automaton's completeness is not
 * (docs/ltl.md). */
static void test_interval_ltl(void) {
    const char *text = "dtmc\nmodule M\n s : [0..4] init 0;\n"
                       " [] s=0 -> [0.5,0.7]:(s'=1) + [0.2,0.4]:(s'=2) + [0.05,0.15]:(s'=0);\n"
                       " [] s=1 -> [0.3,0.6]:(s'=3) + [0.4,0.7]:(s'=1);\n"
                       " [] s=2 -> [0.1,0.2]:(s'=0) + [0.8,0.9]:(s'=4);\n"
                       " [] s=3 -> 1:(s'=1);\n [] s=4 -> 1:(s'=4);\nendmodule\n"
                       "label \"a\" = s=3;\nlabel \"b\" = s=2;\n";
    static const char *const props[] = {"Pmin=? [ G F \"a\" ]", "Pmax=? [ G F \"a\" ]",
                                        "Pmin=? [ (F \"b\") & (G F \"a\") ]", "Pmax=? [ !\"b\" U (G F \"a\") ]",
                                        "Pmin=? [ F>=2 \"a\" ]", "Pmax=? [ !((F \"b\") & (G F \"a\")) ]"};
    static const double want[] = {25.0 / 43, 35.0 / 43, 5.0 / 387, 35.0 / 43, 25.0 / 43, 1 - 5.0 / 387};
    proper_prism_model *m = NULL;
    proper_dtmc d;
    proper_prism_intervals iv;
    proper_prism_check_opts o = proper_prism_check_opts_default();
    proper_error e;
    size_t i;
    proper_dtmc_init(&d);
    proper_prism_intervals_init(&iv);
    CHECK_INT(proper_prism_parse(&m, text, strlen(text), "iv.pm", &e), 0);
    if (m && proper_prism_build_intervals(m, NULL, &d, &iv, &e) == 0) {
        o.intervals = &iv;
        for (i = 0; i < sizeof props / sizeof props[0]; i++) {
            proper_prism_props *p = NULL;
            proper_prism_result r;
            int rc = -1;
            if (proper_prism_props_parse(&p, m, props[i], strlen(props[i]), "p", &e) == 0)
                rc = proper_prism_props_result(p, 0, &d, &o, &r, &e);
            CHECK_INT(rc, 0);
            if (rc == 0) {
                CHECK_ABS(r.value, want[i], 1e-9); /* the default precision, 1e-10 of the complement */
                CHECK(r.error_bound < 0); /* the automaton's completeness is not proven: no bound */
            }
            proper_prism_props_free(p);
        }
    } else {
        CHECK(0);
    }
    proper_prism_intervals_free(&iv);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* An interval model whose intervals are all points is the DTMC itself:
 * operators the interval solvers lack (S, R [ S ], LTL, lower step bounds)
 * take the DTMC's value as both minimum and maximum. The chain (PRISM's
 * idtmcs/dtmc_pctl.prism, RESULT 23/12 for R{"r"}min=? [ S ] and max):
 * from s=0, {2,5} and {4} are each reached with probability 1/6 (p(0) =
 * p(1)/2, p(1) = p(0)/2 + 1/4), {2,5} earns 17 every second step and {4}
 * earns 3 a step: 8.5/6 + 3/6 = 23/12; G F s=5 holds with 1/6. With one
 * interval wider than a point, S stays refused. */
static void test_point_intervals(void) {
    const char *head = "dtmc\nmodule M s:[0..5];\n";
    const char *rest = " [] s=1 -> [0.5,0.5]:(s'=0) + [0.25,0.25]:(s'=2) + [0.25,0.25]:(s'=4);\n [r] s=2 -> [1,1]:(s'=5);\n"
                       " [] s=3 -> [1,1]:(s'=3);\n [] s=4 -> [1,1]:(s'=4);\n [] s=5 -> [1,1]:(s'=2);\nendmodule\n"
                       "rewards \"r\" s=4 : 3; [r] true : 17; endrewards\n";
    const char *first[2] = {" [] s=0 -> [0.5,0.5]:(s'=1) + [0.5,0.5]:(s'=3);\n",
                            " [] s=0 -> [0.4,0.6]:(s'=1) + [0.4,0.6]:(s'=3);\n"};
    static const char *const props[] = {"R{\"r\"}min=? [ S ]", "R{\"r\"}max=? [ S ]", "Pmin=? [ G F s=5 ]",
                                        "Pmax=? [ G F s=5 ]", "S=? [ s=4 ]", "Pmin=? [ F>=3 s=4 ]"};
    static const double want[] = {23.0 / 12, 23.0 / 12, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6};
    int k;
    size_t i;
    for (k = 0; k < 2; k++) {
        char text[1024];
        proper_prism_model *m = NULL;
        proper_dtmc d;
        proper_prism_intervals iv;
        proper_prism_check_opts o = proper_prism_check_opts_default();
        proper_error e;
        snprintf(text, sizeof text, "%s%s%s", head, first[k], rest);
        proper_dtmc_init(&d);
        proper_prism_intervals_init(&iv);
        CHECK_INT(proper_prism_parse(&m, text, strlen(text), "t.pm", &e), 0);
        if (m && proper_prism_build_intervals(m, NULL, &d, &iv, &e) == 0) {
            o.intervals = &iv;
            for (i = 0; i < sizeof props / sizeof props[0]; i++) {
                proper_prism_props *p = NULL;
                double v = NAN;
                int rc = -1;
                if (proper_prism_props_parse(&p, m, props[i], strlen(props[i]), "p", &e) == 0)
                    rc = proper_prism_props_check(p, 0, &d, &o, &v, &e);
                if (k == 0) {
                    CHECK_INT(rc, 0);
                    CHECK_REL(v, want[i], 1e-9);
                } else if (i == 0 || i == 4) {
                    CHECK_INT(rc, PROPER_EUNSUPPORTED);
                }
                proper_prism_props_free(p);
            }
        } else {
            CHECK(0);
        }
        proper_prism_intervals_free(&iv);
        proper_dtmc_free(&d);
        proper_prism_free(m);
    }
}

/* A CTMC's exact companion holds its rates (exact.h solves unbounded
 * properties on it): s=0 -x-> 1 -7-> 2 -11-> 3, state rewards 2, 5, 11 per
 * time unit, so the reward until s=2 is 2/x + 5/7 (PRISM's
 * param/ctmcs/ctmc_rewards.prism: RESULT (5*x+14)/(7*x)), 39/35 at x = 5;
 * a time bound is refused (not rational). */
static void test_ctmc_exact(void) {
    const char *text = "ctmc\nconst double x;\nmodule M s : [0..3];\n [] s=0 -> x:(s'=1);\n [] s=1 -> 7:(s'=2);\n"
                       " [] s=2 -> 11:(s'=3);\n [] s>2 -> 13:true;\nendmodule\nrewards \"a\" s=0:2; s=1:5; s=2:11; endrewards\n";
    static const char *const props = "R{\"a\"}=? [ F s=2 ]\nP=? [ F s=3 ]\nP=? [ F<=1 s=3 ]\n";
    proper_prism_model *m = NULL;
    proper_prism_props *p = NULL;
    proper_exact_dtmc e;
    proper_exact_vec v;
    proper_dtmc d;
    proper_error err;
    proper_rat want;
    proper_dtmc_init(&d);
    proper_exact_dtmc_init(&e);
    proper_exact_vec_init(&v);
    proper_rat_init(&want);
    CHECK_INT(proper_prism_parse(&m, text, strlen(text), "t.sm", &err), 0);
    if (!m) return;
    CHECK_INT(proper_prism_set_consts(m, NULL, "x=5", &err), 0);
    CHECK_INT(proper_prism_build(m, NULL, &d, &err), 0);
    CHECK_INT(proper_prism_build_exact(m, &d, NULL, 0, &e, &err), 0);
    CHECK_INT(proper_prism_props_parse(&p, m, props, strlen(props), "p", &err), 0);
    if (p) {
        CHECK_INT(proper_prism_props_exact(p, 0, &d, &e, &v, &err), 0);
        CHECK_INT(proper_rat_set_i64(&want, 39, 35), 0);
        CHECK(v.q && proper_rat_cmp(&v.q[d.init], &want) == 0);
        CHECK_INT(proper_prism_props_exact(p, 1, &d, &e, &v, &err), 0);
        CHECK(v.q && proper_rat_is_one(&v.q[d.init]));
        CHECK_INT(proper_prism_props_exact(p, 2, &d, &e, &v, &err), PROPER_EUNSUPPORTED);
    }
    proper_rat_free(&want);
    proper_exact_vec_free(&v);
    proper_exact_dtmc_free(&e);
    proper_prism_props_free(p);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* PRISM's keywords cannot name a module (the binary search over them: the
 * first, the last, words that are prefixes of others and the reverse). */
static void test_reserved_words(void) {
    static const char *const reserved[] = {"A", "true", "Pmax", "P", "endobservables", "ma", "max", "observable",
                                           "observables", "prob", "probabilistic", "X", "bool", "system"};
    static const char *const free_names[] = {"B", "truex", "Pma", "Pmaxx", "endobservable", "m", "maxi", "observ",
                                             "probab", "Y", "a", "zz", "_"};
    size_t i;
    for (i = 0; i < sizeof reserved / sizeof reserved[0] + sizeof free_names / sizeof free_names[0]; i++) {
        int is_reserved = i < sizeof reserved / sizeof reserved[0];
        const char *w = is_reserved ? reserved[i] : free_names[i - sizeof reserved / sizeof reserved[0]];
        char text[200];
        proper_error e;
        proper_prism_model *m;
        snprintf(text, sizeof text, "dtmc\nmodule %s x : [0..1]; endmodule\n", w);
        m = parse_text(text, &e);
        CHECK(is_reserved ? m == NULL && strstr(e.message, "reserved") != NULL : m != NULL);
        if (is_reserved != (m == NULL)) printf("  %s\n", w);
        proper_prism_free(m);
    }
}


/* ---- The model's own rounding ---------------------------------------------- */

/* Build model text with its rounding bounds (intervals output). */
static int build_text_iv(const char *text, proper_prism_model **m, proper_dtmc *d, proper_prism_intervals *iv) {
    proper_error e;
    proper_dtmc_init(d);
    proper_prism_intervals_init(iv);
    if (proper_prism_parse(m, text, strlen(text), "rounding.pm", &e) || proper_prism_build_intervals(*m, NULL, d, iv, &e)) {
        printf("  %s\n", fmt_err(&e));
        return 1;
    }
    return 0;
}

/* The result of property `prop`, with (iv) or without (NULL) the build's
 * rounding bounds. */
static proper_prism_result result_of(const proper_prism_model *m, const proper_dtmc *d, const proper_prism_intervals *iv,
                                      const char *prop) {
    proper_prism_props *p = NULL;
    proper_prism_check_opts co = proper_prism_check_opts_default();
    proper_prism_result r;
    proper_error e;
    memset(&r, 0, sizeof r);
    r.value = NAN;
    co.intervals = iv;
    if (proper_prism_props_parse(&p, m, prop, strlen(prop), "(property)", &e) || proper_prism_props_result(p, 0, d, &co, &r, &e))
        printf("  %s\n", fmt_err(&e));
    proper_prism_props_free(p);
    return r;
}

/* |v - num/den| as a double (rounded; the difference itself is exact). */
static double distance_to(double v, int64_t num, int64_t den) {
    proper_rat a, b;
    double out;
    proper_rat_init(&a);
    proper_rat_init(&b);
    proper_rat_set_i64(&a, num, den);
    proper_rat_from_double(&b, v);
    proper_rat_sub(&a, &a, &b);
    out = fabs(proper_rat_to_double(&a));
    proper_rat_free(&a);
    proper_rat_free(&b);
    return out;
}

/* Gambler's ruin on 0..30 from 15, up with 1/3, down with 2/3: ruin has
 * probability (r^30 - r^15) / (r^30 - 1) with r = (2/3)/(1/3) = 2 (the
 * closed form; Feller vol. 1, XIV.2), = (2^30 - 2^15) / (2^30 - 1). As a
 * DTMC (p = 1/3 and 1 - p rounded) and as a CTMC (rates 1 and 2, exact:
 * the rounding is the jump chain's 1/3 and 2/3), the doubles' answer is
 * some 2.5e-15 off. For the DTMC that is more than the stored chain's
 * proven bound (about 8e-17: the solve is that close to the stored chain's
 * exact solution) and within the bound that covers the model's rounding.
 * The CTMC as stored has exact rates: since 0.8.3 every solve on its jump
 * chain states that chain's rounding, so both its bounds cover the error
 * (before, its "stored chain" bound of 8e-17 did not hold for the CTMC as
 * stored). */
static void test_rounding_covered(void) {
    static const char *models[] = {
        "dtmc\nconst double p = 1/3;\nmodule M x : [0..30] init 15;\n"
        " [] x>0 & x<30 -> p:(x'=x+1) + (1-p):(x'=x-1);\n [] x=0 | x=30 -> true;\nendmodule\n",
        "ctmc\nmodule M x : [0..30] init 15;\n"
        " [] x>0 & x<30 -> 1:(x'=x+1) + 2:(x'=x-1);\n [] x=0 | x=30 -> 1:(x'=x);\nendmodule\n"};
    const int64_t num = (INT64_C(1) << 30) - (INT64_C(1) << 15), den = (INT64_C(1) << 30) - 1;
    size_t i;
    for (i = 0; i < 2; i++) {
        proper_prism_model *m = NULL;
        proper_dtmc d;
        proper_prism_intervals iv;
        proper_prism_result stored, model;
        double err;
        if (build_text_iv(models[i], &m, &d, &iv)) {
            CHECK(0);
            continue;
        }
        CHECK(iv.rel_prob > 0 && iv.rel_prob < 1e-14);
        stored = result_of(m, &d, NULL, "P=? [ F x=0 ]");
        model = result_of(m, &d, &iv, "P=? [ F x=0 ]");
        err = distance_to(model.value, num, den);
        CHECK(stored.error_bound >= 0 && !stored.covers_model);
        if (i == 0) CHECK(err > stored.error_bound); /* the gap: the stored chain's bound does not hold for the model */
        else CHECK(err <= stored.error_bound && stored.error_bound < 1e-12);
        CHECK(model.covers_model && err <= model.error_bound && model.error_bound < 1e-12);
        proper_prism_intervals_free(&iv);
        proper_dtmc_free(&d);
        proper_prism_free(m);
    }
}

/* R=? [ C ] of a CTMC whose state 0 has a self-loop of rate L = 3.3e16
 * beside rates b = 0.67 (to 2, which goes on to 1) and a = 748.15 (to 3):
 * time spent in 0 and 2 is 1/(a+b) + (b/(a+b))/11, and a transition reward
 * of 1 on every move out of 0 earns L/(a+b) for the self-loop's firings
 * plus 1 for the jump. Through the embedded chain the solve subtracted
 * P(0,0) = 1 - 2.2e-14 from 1; it now runs on the jump chain (PRISM
 * 4.10.2-dev gives 4.4529e13 for the second, 0.09% off). */
static void test_ctmc_total_reward_self_loop(void) {
    const char *model = "ctmc\nmodule M\n s : [0..3] init 0;\n"
                        " [] s=0 -> 3.331423334080484e16:(s'=0) + 0.66666606666666595:(s'=2) + 748.1528571428571:(s'=3);\n"
                        " [] s=2 -> 11:(s'=1);\n [] s=1|s=3 -> 1:(s'=s);\nendmodule\n"
                        "rewards \"busy\" s=0|s=2 : 1; endrewards\nrewards \"jumps\" [] s=0 : 1; endrewards\n";
    double L = 3.331423334080484e16, b = 0.66666606666666595, a = 748.1528571428571;
    proper_prism_model *m = NULL;
    proper_dtmc d;
    proper_prism_intervals iv;
    proper_prism_result busy, jumps;
    if (build_text_iv(model, &m, &d, &iv)) {
        CHECK(0);
        return;
    }
    busy = result_of(m, &d, &iv, "R{\"busy\"}=? [ C ]");
    jumps = result_of(m, &d, &iv, "R{\"jumps\"}=? [ C ]");
    CHECK_REL(busy.value, 1.0 / (a + b) + b / (a + b) / 11.0, 1e-14);
    CHECK(busy.error_bound >= 0 && busy.error_bound < 1e-16);
    CHECK_REL(jumps.value, L / (a + b) + 1.0, 1e-14);
    CHECK(jumps.error_bound >= fabs(jumps.value - (L / (a + b) + 1.0)) && jumps.error_bound < 1e-12 * jumps.value);
    proper_prism_intervals_free(&iv);
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* What cannot be bounded says so: pow of doubles (no proven libm bound),
 * a guard the doubles decide (1/3 = 0.333... is true in doubles, false in
 * the exact model), an interval model. The bound is then of the stored
 * chain (covers_model = 0). Exact numbers give rel_prob = 0. */
static void test_rounding_not_bounded(void) {
    static const char *unbounded[] = {
        "dtmc\nconst double p = pow(2, -1.5);\nmodule M x : [0..3] init 1;\n"
        " [] x>0 & x<3 -> p:(x'=x+1) + (1-p):(x'=x-1);\n [] x=0 | x=3 -> true;\nendmodule\n",
        "dtmc\nconst int n = (1/3 = 0.333333333333333333333333 ? 1 : 2);\nmodule M s : [0..2];\n"
        " [] s=0 -> 1/2:(s'=n) + 1/2:(s'=2);\n [] s>0 -> true;\nendmodule\n",
        "dtmc\nmodule M x : [0..3] init 1;\n [] x>0 & x<3 -> [0.3,0.4]:(x'=x+1) + [0.6,0.7]:(x'=x-1);\n"
        " [] x=0 | x=3 -> true;\nendmodule\n"};
    size_t i;
    for (i = 0; i < 3; i++) {
        proper_prism_model *m = NULL;
        proper_dtmc d;
        proper_prism_intervals iv;
        proper_prism_result r;
        if (build_text_iv(unbounded[i], &m, &d, &iv)) {
            CHECK(0);
            continue;
        }
        CHECK(iv.rel_prob == -1 && iv.rel_reward == -1 && !iv.exact);
        r = result_of(m, &d, &iv, i == 2 ? "Pmax=? [ F x=0 ]" : i == 1 ? "P=? [ F s=1 ]" : "P=? [ F x=0 ]");
        CHECK(r.error_bound >= 0 && !r.covers_model);
        proper_prism_intervals_free(&iv);
        proper_dtmc_free(&d);
        proper_prism_free(m);
    }
    { /* dyadic literals, exact arithmetic (0.25 + (1 - 0.25)), one choice per state: exact */
        proper_prism_model *m = NULL;
        proper_dtmc d;
        proper_prism_intervals iv;
        proper_prism_result r;
        if (build_text_iv("dtmc\nconst double p = 0.25;\nmodule M x : [0..3] init 1;\n"
                          " [] x>0 & x<3 -> p:(x'=x+1) + (1-p):(x'=x-1);\n [] x=0 | x=3 -> true;\nendmodule\n",
                          &m, &d, &iv) == 0) {
            CHECK(iv.rel_prob == 0 && iv.exact);
            r = result_of(m, &d, &iv, "P=? [ F<=5 x=3 ]");
            CHECK(r.error_bound >= 0 && r.covers_model);
        } else {
            CHECK(0);
        }
        proper_prism_intervals_free(&iv);
        proper_dtmc_free(&d);
        proper_prism_free(m);
    }
}

/* The build's bound holds transition by transition: |p - p~| <= rel_prob p
 * against the exact companion (exact arithmetic on the literals as
 * written, proper_prism_build_exact); a CTMC's embedded chain R/E against
 * the exact rates' quotients. */
static void test_rounding_bound_holds(void) {
    static const char *const files[][2] = {
        {MODELS "minpathsum.pm", "p1=0.0912,p2=0.8181,p3=0.8,p4=0.8181,p5=0.8181"},
        {MODELS "two_state.pm", "p=0.1,q=1/3"},
        {MODELS "sync.pm", NULL},
        {MODELS "birth_death.pm", NULL},
        {MODELS "renaming_sync.pm", NULL},
        {MODELS "two_modules.pm", NULL}};
    size_t f;
    for (f = 0; f < sizeof files / sizeof files[0]; f++) {
        proper_prism_model *m = NULL;
        proper_dtmc d, emb;
        proper_prism_intervals iv;
        proper_exact_dtmc x;
        proper_error e;
        proper_rat ex, st, lim, E;
        uint32_t s;
        uint64_t k;
        int bad = 0;
        proper_dtmc_init(&d);
        proper_dtmc_init(&emb);
        proper_prism_intervals_init(&iv);
        proper_exact_dtmc_init(&x);
        proper_rat_init(&ex);
        proper_rat_init(&st);
        proper_rat_init(&lim);
        proper_rat_init(&E);
        if (proper_prism_read(&m, files[f][0], &e) || (files[f][1] && proper_prism_set_consts(m, NULL, files[f][1], &e)) ||
            proper_prism_build_intervals(m, NULL, &d, &iv, &e) || proper_prism_build_exact(m, &d, NULL, 0, &x, &e) ||
            (d.kind == PROPER_DTMC_KIND_CTMC && proper_dtmc_embedded(&d, &emb, &e))) {
            printf("  %s: %s\n", files[f][0], fmt_err(&e));
            bad = 1;
        }
        CHECK(iv.rel_prob >= 0);
        for (s = 0; s < d.n_states && !bad; s++) {
            proper_rat_set_i64(&E, 1, 1);
            if (d.kind == PROPER_DTMC_KIND_CTMC)
                for (proper_rat_set_i64(&E, 0, 1), k = d.row[s]; k < d.row[s + 1]; k++) proper_rat_add(&E, &E, &x.prob[k]);
            for (k = d.row[s]; k < d.row[s + 1]; k++) {
                proper_rat_div(&ex, &x.prob[k], &E);
                proper_rat_from_double(&st, d.kind == PROPER_DTMC_KIND_CTMC ? emb.prob[k] : d.prob[k]);
                proper_rat_sub(&st, &st, &ex);
                if (proper_rat_sign(&st) < 0) proper_rat_neg(&st, &st);
                proper_rat_from_double(&lim, iv.rel_prob);
                proper_rat_mul(&lim, &lim, &ex);
                if (proper_rat_cmp(&st, &lim) > 0) bad = 1;
            }
        }
        CHECK(!bad);
        proper_rat_free(&ex);
        proper_rat_free(&st);
        proper_rat_free(&lim);
        proper_rat_free(&E);
        proper_exact_dtmc_free(&x);
        proper_prism_intervals_free(&iv);
        proper_dtmc_free(&emb);
        proper_dtmc_free(&d);
        proper_prism_free(m);
    }
}

/* A decimal literal is exact when it is its double: N 10^k with 5^-k
 * dividing N (and small enough), or an integer up to 2^53. */
static void test_decimal_exact(void) {
    CHECK(proper__prism_decimal_exact("0.5", 3, 0.5));
    CHECK(proper__prism_decimal_exact("0.375", 5, 0.375));
    CHECK(proper__prism_decimal_exact("2.5e1", 5, 25.0));
    CHECK(proper__prism_decimal_exact("0.50", 4, 0.5));
    CHECK(proper__prism_decimal_exact("9007199254740992", 16, 9007199254740992.0));
    CHECK(!proper__prism_decimal_exact("0.1", 3, 0.1));
    CHECK(!proper__prism_decimal_exact("1e-5", 4, 1e-5));
    CHECK(!proper__prism_decimal_exact("9007199254740993", 16, 9007199254740992.0));
    CHECK(!proper__prism_decimal_exact("0.33333333333333333333333", 25, 1.0 / 3.0));
}

/* The properties for a tool that gets explicit files: constants as values,
 * formulas as bodies, the declarations gone and the line breaks kept.
 * The expected text is written out by hand from the two files; the real
 * PRISM's values on it agree with native (tests/cli_crosscheck.sh). */
/* Properties over the variables of explicit files: a .sta read into the
 * DTMC and a model of its variables for the parser. From 0 the chain moves
 * to 1 (b true, x = -3) with 1/4 and to 2 (x = 7) with 3/4: P[F b] = 1/4,
 * P[F x>5] = 3/4, P[F x=9] = 0 (state 3 is not reached from 0); filters
 * range over all four states. */
static void test_model_of_valuations(void) {
    const char *tra = "4 5\n0 1 0.25\n0 2 0.75\n1 1 1\n2 2 1\n3 3 1\n";
    const char *sta = "(x,b)\n0:(0,false)\n1:(-3,true)\n2:(7,false)\n3:(9,false)\n";
    const char *props = "P=? [ F b ]\nP=? [ F x>5 ]\nP=? [ F x=9 ]\nfilter(count, x<0)\nfilter(max, x)\n";
    static const double want[5] = {0.25, 0.75, 0.0, 1.0, 9.0};
    proper_dtmc d;
    proper_error err;
    proper_prism_model *vm = NULL;
    proper_prism_props *p = NULL;
    size_t i;
    proper_dtmc_init(&d);
    CHECK_INT(proper_dtmc_parse_tra(&d, tra, strlen(tra), "v.tra", NULL, &err), 0);
    CHECK_INT(proper_prism_model_of_valuations(&vm, &d, "v.sta", &err), PROPER_ESTATE); /* no valuations yet */
    CHECK_INT(proper_dtmc_parse_sta(&d, sta, strlen(sta), "v.sta", &err), 0);
    CHECK_INT(proper_prism_model_of_valuations(&vm, &d, "v.sta", &err), 0);
    CHECK_INT(proper_prism_props_parse(&p, vm, props, strlen(props), "v.props", &err), 0);
    for (i = 0; p && i < 5; i++) {
        double v = -1;
        CHECK_INT(proper_prism_props_check(p, i, &d, NULL, &v, &err), 0);
        CHECK_ABS(v, want[i], 1e-15);
    }
    proper_prism_props_free(p);
    proper_prism_free(vm);
    proper_dtmc_free(&d);
}

/* A variable named like a PRISM keyword could not be named by a property. */
static void test_model_of_valuations_keyword(void) {
    const char *tra = "1 1\n0 0 1\n";
    const char *sta = "(x,max)\n0:(-2147483648,1)\n";
    proper_dtmc d;
    proper_error err;
    proper_prism_model *vm = NULL;
    proper_dtmc_init(&d);
    CHECK_INT(proper_dtmc_parse_tra(&d, tra, strlen(tra), "k.tra", NULL, &err), 0);
    CHECK_INT(proper_dtmc_parse_sta(&d, sta, strlen(sta), "k.sta", &err), 0);
    CHECK_INT(proper_prism_model_of_valuations(&vm, &d, "k.sta", &err), PROPER_EPARSE);
    CHECK_CONTAINS(err.message, "state variable 'max' has the name of a PRISM keyword");
    CHECK_STR(err.file, "k.sta");
    CHECK(vm == NULL);
    proper_dtmc_free(&d);
}

static void test_props_standalone(void) {
    const char *want = "\n\n\n\n"
                       "\"a\": P=? [ F<=4 ((x = 4)) ];\n"
                       "P=? [ F ((((x >= (4 - 1)) & !((x = (-1)))) & (true ? true : false))) ];\n"
                       "P=? [ F ( x>=2 & x<3) ]; R{\"steps\"}=? [ F x=4 ]\n"
                       "P=? [ F<=3 x=4-0.25*4 ]\n"
                       "R{\"steps\"}=? [ C<=3 ]\n"
                       "filter(max, ((((((max(x, 1) * 1.0) / 2) + pow(2, x)) - floor((0.3 * 10))) + mod(x, 3))), "
                       "x<=(-1)+3)\n";
    proper_prism_model *m = NULL;
    proper_prism_props *p = NULL;
    proper_error e;
    char *text = NULL, *out = NULL;
    size_t len;
    CHECK_INT(proper_prism_read(&m, "tests/transcripts/inputs/standalone.pm", &e), 0);
    CHECK_INT(proper_read_file("tests/transcripts/inputs/standalone.props", &text, &len, &e), 0);
    CHECK_INT(proper_prism_props_parse(&p, m, text, len, "standalone.props", &e), 0);
    /* q has no value: an error where it is used, naming it */
    CHECK_INT(proper_prism_props_standalone(p, text, len, &out, &e), PROPER_EUNDEFINED);
    CHECK(out == NULL && e.line == 8 && e.col == 16 && strstr(e.message, "'q'"));
    CHECK_INT(proper_prism_set_consts(m, p, "q=0.25", &e), 0);
    CHECK_INT(proper_prism_props_standalone(p, text, len, &out, &e), 0);
    CHECK(out && strcmp(out, want) == 0);
    if (out && strcmp(out, want) != 0) printf("  got:\n%s\n", out);
    PROPER_FREE(out);
    PROPER_FREE(text);
    proper_prism_props_free(p);
    proper_prism_free(m);
    {
        /* fuzz_props finding: "K.2 + 1" is two properties, K and .2 + 1, but
         * K's value written in its place made one number, 7.2; "K.5e1"
         * likewise (true is a keyword, left as written) */
        const char *model = "dtmc\nconst int K = 7;\nmodule m\n x : [0..1] init 0;\n [] true -> (x'=1);\nendmodule\n";
        const char *props = "K.2 + 1\nK.5e1\ntrue.5\n";
        static const double values[] = {7, 1.2, 7, 5, 1, 0.5};
        proper_prism_props *q = NULL;
        proper_dtmc d;
        size_t i;
        m = NULL;
        p = NULL;
        proper_dtmc_init(&d);
        CHECK_INT(proper_prism_parse(&m, model, strlen(model), "k.pm", &e), 0);
        CHECK_INT(proper_prism_build(m, NULL, &d, &e), 0);
        CHECK_INT(proper_prism_props_parse(&p, m, props, strlen(props), "k.props", &e), 0);
        CHECK_INT(proper_prism_props_count(p), 6);
        CHECK_INT(proper_prism_props_standalone(p, props, strlen(props), &out, &e), 0);
        CHECK_STR(out, "7 .2 + 1\n7 .5e1\ntrue.5\n");
        CHECK_INT(proper_prism_props_parse(&q, m, out, strlen(out), "standalone.props", &e), 0);
        CHECK_INT(proper_prism_props_count(q), 6);
        for (i = 0; i < 6 && q; i++) {
            proper_prism_check_opts o = proper_prism_check_opts_default();
            proper_prism_result r;
            CHECK_INT(proper_prism_props_result(q, i, &d, &o, &r, &e), 0);
            CHECK_REL(r.value, values[i], 1e-15);
        }
        PROPER_FREE(out);
        proper_prism_props_free(p);
        proper_prism_props_free(q);
        proper_prism_free(m);
        proper_dtmc_free(&d);
    }
}

int main(void) {
    RUN(test_expression_semantics);
    RUN(test_path_bounds);
    RUN(test_ctl_filters_nesting);
    RUN(test_eval_constant);
    RUN(test_bom);
    RUN(test_init_block);
    RUN(test_ctmc);
    RUN(test_ctmc_bounds);
    RUN(test_ctmc_total_bound);
    RUN(test_global);
    RUN(test_expression_errors);
    RUN(test_parse_errors);
    RUN(test_build_errors);
    RUN(test_fix_deadlocks);
    RUN(test_state_limit);
    RUN(test_outcome_limit);
    RUN(test_transition_limit);
    RUN(test_state_order);
    RUN(test_minpathsum);
    RUN(test_die);
    RUN(test_gambler);
    RUN(test_birth_death);
    RUN(test_two_modules);
    RUN(test_sync);
    RUN(test_renaming);
    RUN(test_constants);
    RUN(test_props_file);
    RUN(test_props_errors);
    RUN(test_props_without_model);
    RUN(test_step_limit);
    RUN(test_expression_limits);
    RUN(test_single_value_range);
    RUN(test_props_from_arg);
    RUN(test_bounded_huge_k);
    RUN(test_refuse_early);
    RUN(test_output_contract);
    RUN(test_param_declarations);
    RUN(test_param_function);
    RUN(test_lazy_lexing);
    RUN(test_exact_state_comparisons);
    RUN(test_exact_limit_message);
    RUN(test_reward_bounds);
    RUN(test_bound_tie_exact);
    RUN(test_point_intervals);
    RUN(test_interval_ltl);
    RUN(test_birth_death_steady);
    RUN(test_ctmc_exact);
    RUN(test_reserved_words);
    RUN(test_rounding_covered);
    RUN(test_rounding_not_bounded);
    RUN(test_rounding_bound_holds);
    RUN(test_decimal_exact);
    RUN(test_props_standalone);
    RUN(test_ctmc_total_reward_self_loop);
    RUN(test_model_of_valuations);
    RUN(test_model_of_valuations_keyword);
    return test_summary();
}
