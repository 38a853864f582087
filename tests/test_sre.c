/* Tests for sre.h: parsing, errors with positions, printing round trips,
 * evaluation against closed forms and brute force, hash-consing, what-if
 * overrides, trace and CSV sources, and the GNFA construction. */
#define PROPER_IMPLEMENTATION
#include "../src/sre.h"
#include "test.h"

#include <stdio.h>

/* Parse text (file name "t.sre"); 0 on success. */
static int parse(proper_sre *s, const char *text, proper_error *err) {
    proper_sre_init(s);
    return proper_sre_parse(s, text, strlen(text), "t.sre", err);
}

/* Parse text that must fail; returns the formatted error. */
static const char *parse_error(const char *text, int *code) {
    static char buf[1024];
    proper_sre s;
    proper_error err;
    proper_error_clear(&err);
    *code = parse(&s, text, &err);
    if (*code == 0) { proper_sre_free(&s); return "(parsed)"; }
    CHECK(s.n_bindings == 0 && s.n_nodes == 0); /* left empty */
    return proper_error_format(&err, buf, sizeof buf);
}

static char *print_model(const proper_sre *s) {
    proper_strbuf b;
    proper_error err;
    proper_strbuf_init(&b);
    CHECK_INT(proper_sre_format(s, &b, &err), 0);
    return proper_strbuf_take(&b);
}

/* One definition's text in *text (NULL on failure). */
static int print_def(const proper_sre *s, const char *name, char **text, proper_error *err) {
    proper_strbuf b;
    int rc;
    proper_strbuf_init(&b);
    rc = proper_sre_format_def(s, name, &b, err);
    *text = NULL;
    if (rc == PROPER_OK) *text = proper_strbuf_take(&b);
    proper_strbuf_free(&b);
    return rc;
}

/* Evaluate `name` at width w; returns the status. */
static int eval(proper_sre *s, const char *name, double w, proper_pmf *out) {
    proper_sre_opts opt = proper_sre_opts_default();
    proper_error err;
    int rc;
    opt.width = w;
    rc = proper_sre_eval(s, name, &opt, out, &err);
    if (rc) {
        char buf[1024];
        printf("  eval: %s\n", proper_error_format(&err, buf, sizeof buf));
    }
    return rc;
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* ---- parsing and printing ------------------------------------------------- */

static void test_parse_and_print_canonical(void) {
    proper_sre s, t;
    proper_error err;
    char *text;
    const char *src =
        "# the paper's alternative, Fig. 8 style\n"
        "symbol build = {10: 0.5, 11: 0.5};\n"
        "symbol probe=csv(\"probe.csv\");  symbol log = trace(\"x.trace\", \"writeLog\");\n"
        "symbol later; symbol both = joint(\"x.trace\", \"a\",\"b\" , \"c\");\n"
        "prob p_file = 0.25;\n"
        "prob p_t = trace(\"x.trace\", \"target\", \"file\");\n"
        "count n5 = {0: 0.2, 5: 0.8};\n"
        "def deliver = log later;\n"
        "def handle = build (p_file: deliver | else: probe*n5 deliver) (probe build)*[0.5] ()*{1:1};\n";
    CHECK_INT(parse(&s, src, &err), 0);
    CHECK_INT(s.n_bindings, 10);
    CHECK_STR(proper_sre_main(&s), "handle");
    CHECK_INT(proper_sre_find(&s, "n5"), 7);
    CHECK_INT(proper_sre_find(&s, "nope"), -1);
    text = print_model(&s);
    CHECK_STR(text,
              "symbol build = {10: 0.5, 11: 0.5};\n"
              "symbol probe = csv(\"probe.csv\");\n"
              "symbol log = trace(\"x.trace\", \"writeLog\");\n"
              "symbol later;\n"
              "symbol both = joint(\"x.trace\", \"a\", \"b\", \"c\");\n"
              "prob p_file = 0.25;\n"
              "prob p_t = trace(\"x.trace\", \"target\", \"file\");\n"
              "count n5 = {0: 0.2, 5: 0.8};\n"
              "def deliver = log later;\n"
              "def handle = build (p_file: deliver | else: probe*n5 deliver) (probe build)*[0.5] ()*{1: 1};\n");
    CHECK_INT(parse(&t, text, &err), 0);
    CHECK(proper_sre_equal(&s, &t));
    PROPER_FREE(text);
    proper_sre_free(&t);
    proper_sre_free(&s);
    /* a changed number makes the models differ */
    CHECK_INT(parse(&t, "symbol x = {1: 1}; def a = x*[0.5];", &err), 0);
    CHECK_INT(parse(&s, "symbol x = {1: 1}; def a = x*[0.25];", &err), 0);
    CHECK(!proper_sre_equal(&s, &t));
    proper_sre_free(&s);
    proper_sre_free(&t);
}

static void test_print_parenthesises_by_context(void) {
    proper_sre s;
    proper_error err;
    char *text = NULL;
    CHECK_INT(parse(&s,
                    "symbol a; symbol b; symbol c;\n"
                    "def top = 0.5: a b | 0.5: (0.5: a | 0.5: b) c;\n"
                    "def body = ((a b)*[0.2])*{2: 1} (a)*[0.1] (0.5: a | 0.5: ())*{1: 0.5, 3: 0.5};\n"
                    "def flat = ((a) ((b c)) a);\n",
                    &err),
              0);
    CHECK_INT(print_def(&s, "top", &text, &err), 0);
    CHECK_STR(text, "0.5: a b | 0.5: (0.5: a | 0.5: b) c");
    PROPER_FREE(text);
    CHECK_INT(print_def(&s, "body", &text, &err), 0);
    CHECK_STR(text, "(a b)*[0.2]*{2: 1} a*[0.1] (0.5: a | 0.5: ())*{1: 0.5, 3: 0.5}");
    PROPER_FREE(text);
    /* nested sequences are one sequence */
    CHECK_INT(print_def(&s, "flat", &text, &err), 0);
    CHECK_STR(text, "a b c a");
    CHECK_INT(s.nodes[s.bindings[proper_sre_find(&s, "flat")].root].n_kids, 4);
    PROPER_FREE(text);
    CHECK_INT(print_def(&s, NULL, &text, &err), 0); /* the main def is the last */
    CHECK_STR(text, "a b c a");
    PROPER_FREE(text);
    CHECK_INT(print_def(&s, "a", &text, &err), PROPER_EINVAL);
    proper_sre_free(&s);
}

/* ---- random models: parse(print(x)) == x ----------------------------------- */

typedef struct gen {
    proper_rng rng;
    char buf[16384];
    size_t len;
    int n_defs; /* definitions written so far: a def may use only earlier ones */
} gen;

static void emit(gen *g, const char *s) {
    size_t n = strlen(s);
    if (g->len + n + 1 >= sizeof g->buf) return;
    memcpy(g->buf + g->len, s, n + 1);
    g->len += n;
}

/* Random separator: blanks, newlines or a comment. */
static void gap(gen *g) {
    switch (proper_rng_below(&g->rng, 6)) {
    case 0: emit(g, " "); break;
    case 1: emit(g, "\n  "); break;
    case 2: emit(g, " # a comment ( | ; \n"); break;
    case 3: emit(g, "\t"); break;
    default: emit(g, " "); break;
    }
}

static void gen_expr(gen *g, int depth, int need_atom);

static void gen_atom(gen *g, int depth) {
    char name[16];
    unsigned r = (unsigned)proper_rng_below(&g->rng, depth > 3 ? 2 : 6);
    if (r == 0 || (r == 1 && g->n_defs == 0)) {
        snprintf(name, sizeof name, "s%u", (unsigned)proper_rng_below(&g->rng, 4));
        emit(g, name);
    } else if (r == 1) {
        snprintf(name, sizeof name, "d%u", (unsigned)proper_rng_below(&g->rng, (uint64_t)g->n_defs));
        emit(g, name);
    } else if (r == 2) {
        emit(g, "(");
        gap(g);
        emit(g, ")");
    } else {
        emit(g, "(");
        gen_expr(g, depth + 1, 0);
        emit(g, ")");
    }
}

static void gen_postfix(gen *g, int depth) {
    static const char *const loops[] = {"*{3: 1}", "*{0: 0.2, 5: 0.8}", "*[0.5]", "*[p0]", "*c0",
                                        "*{1: 0.125, 2: 0.875}"};
    gen_atom(g, depth);
    while (proper_rng_below(&g->rng, 4) == 0) emit(g, loops[proper_rng_below(&g->rng, 6)]);
}

static void gen_seq(gen *g, int depth) {
    unsigned k = 1 + (unsigned)proper_rng_below(&g->rng, 3), i;
    for (i = 0; i < k; i++) {
        if (i) gap(g);
        gen_postfix(g, depth);
    }
}

/* An expression; alternatives only when allowed bare (need_atom == 0). */
static void gen_expr(gen *g, int depth, int need_atom) {
    static const char *const probs[][3] = {{"0.5", "0.5", NULL},  {"0.25", "0.75", NULL}, {"p0", "else", NULL},
                                           {"0.125", "0.375", "0.5"}, {"else", "0.3", NULL}, {"1", NULL, NULL}};
    unsigned r = (unsigned)proper_rng_below(&g->rng, depth > 3 ? 1 : 3), i;
    if (r != 0 || need_atom) {
        const char *const *ps = probs[proper_rng_below(&g->rng, 6)];
        for (i = 0; i < 3 && ps[i]; i++) {
            if (i) { gap(g); emit(g, "|"); }
            gap(g);
            emit(g, ps[i]);
            emit(g, ":");
            gap(g);
            gen_seq(g, depth + 1);
        }
    } else {
        gen_seq(g, depth);
    }
}

static void gen_model(gen *g) {
    int d, n = 1 + (int)proper_rng_below(&g->rng, 4);
    char line[64];
    g->len = 0;
    g->buf[0] = '\0';
    g->n_defs = 0;
    emit(g, "symbol s0 = {1: 1}; symbol s1 = {2: 0.5, 3: 0.5};\nsymbol s2 = csv(\"s2.csv\"); symbol s3;\n");
    emit(g, "prob p0 = 0.4; count c0 = {2: 0.5, 4: 0.5};\n");
    for (d = 0; d < n; d++) {
        snprintf(line, sizeof line, "def d%d =", d);
        emit(g, line);
        gap(g);
        gen_expr(g, 0, 0);
        emit(g, ";\n");
        g->n_defs++;
    }
}

static void test_round_trip_random_models(void) {
    gen g;
    int i, failures = 0;
    proper_rng_seed(&g.rng, 20070101);
    for (i = 0; i < 300; i++) {
        proper_sre x, y;
        proper_error err;
        char *t1, *t2, buf[1024];
        gen_model(&g);
        if (parse(&x, g.buf, &err)) {
            printf("  random model does not parse: %s\n%s\n", proper_error_format(&err, buf, sizeof buf), g.buf);
            failures++;
            continue;
        }
        t1 = print_model(&x);
        if (!t1 || parse(&y, t1, &err)) {
            printf("  printed model does not parse: %s\n%s\n", proper_error_format(&err, buf, sizeof buf), t1 ? t1 : "");
            failures++;
            proper_sre_free(&x);
            PROPER_FREE(t1);
            continue;
        }
        t2 = print_model(&y);
        if (!proper_sre_equal(&x, &y) || !t2 || strcmp(t1, t2) != 0) {
            printf("  round trip differs:\n%s\n---\n%s\n", t1, t2 ? t2 : "");
            failures++;
        }
        PROPER_FREE(t1);
        PROPER_FREE(t2);
        proper_sre_free(&x);
        proper_sre_free(&y);
    }
    CHECK_INT(failures, 0);
}

/* ---- errors with positions ------------------------------------------------ */

static void test_errors_have_positions(void) {
    int code;
    CHECK_STR(parse_error("symbol a = {1: 1};\ndef x = a b;", &code), "t.sre:2:11: unknown symbol or definition 'b'");
    CHECK_INT(code, PROPER_EUNDEFINED);
    /* the alternative's position, not the branch's */
    CHECK_STR(parse_error("symbol a; symbol b;\ndef x = a (0.5: a |\n 0.4: b);", &code),
              "t.sre:2:12: branch probabilities sum to 0.9, not 1");
    CHECK_INT(code, PROPER_EPROB);
    CHECK_STR(parse_error("symbol a;\ndef x = 0.5: a | 0.5000000001: a;", &code), "(parsed)"); /* within 1e-9 */
    CHECK_STR(parse_error("symbol a;\ndef x = 0.5: a | 0.500000002: a;", &code),
              "t.sre:2:9: branch probabilities sum to 1.000000002, not 1");
    CHECK_STR(parse_error("symbol a;\ndef x = 1.5: a | else: a;", &code), "t.sre:2:9: probability 1.5 is outside [0, 1]");
    CHECK_STR(parse_error("symbol a;\ndef x = 0.7: a | else: a | else: a;", &code),
              "t.sre:2:9: an alternative may have only one 'else' branch");
    CHECK_STR(parse_error("symbol a;\ndef x = 0.7: a | 0.6: a | else: a;", &code),
              "t.sre:2:9: branch probabilities sum to 1.3 before 'else' (more than 1)");
    CHECK_STR(parse_error("symbol a;\ndef x = 0.5: a | a;", &code),
              "t.sre:2:18: every branch of an alternative needs a probability, as in 'p: ...'");
    CHECK_STR(parse_error("symbol a;\ndef x = (a (a a);\n", &code), "t.sre:2:17: expected ')' to close the '(' at 2:9, found ';'");
    CHECK_STR(parse_error("symbol a;\ndef x = a a);\n", &code), "t.sre:2:12: unbalanced ')': no '(' to close");
    CHECK_STR(parse_error("symbol a;\ndef x = (a", &code), "t.sre:2:11: expected ')' to close the '(' at 2:9, found end of input");
    CHECK_STR(parse_error("symbol a;\ndef x = y;\ndef y = z a;\ndef z = x;", &code),
              "t.sre:4:9: definition 'x' depends on itself (x -> y -> z -> x)");
    CHECK_INT(code, PROPER_EINVAL);
    CHECK_STR(parse_error("def x = a x;\nsymbol a;", &code), "t.sre:1:11: definition 'x' depends on itself (x -> x)");
    CHECK_STR(parse_error("symbol a;\nsymbol a = {1: 1};", &code), "t.sre:2:8: 'a' is already bound at 1:8");
    CHECK_STR(parse_error("symbol a; count c = {1: 1};\ndef x = c a;", &code),
              "t.sre:2:9: 'c' is a count, not a symbol or definition");
    CHECK_STR(parse_error("symbol a; prob p = 0.5;\ndef x = a*p;", &code), "t.sre:2:10: 'p' is a prob, not a count");
    CHECK_STR(parse_error("symbol a; count c = {1: 1};\ndef x = a*[c];", &code), "t.sre:2:12: 'c' is a count, not a prob");
    CHECK_STR(parse_error("symbol a;\ndef x = a*[1];", &code),
              "t.sre:2:12: re-entry probability of a Markovian loop must be below 1");
    CHECK_STR(parse_error("symbol a; prob one = 1;\ndef x = a*[one];", &code),
              "t.sre:2:12: re-entry probability 'one' = 1: the Markovian loop never ends");
    CHECK_STR(parse_error("symbol a;\ndef x = a*{2.5: 1};", &code), "t.sre:2:12: iteration count 2.5 is not an integer in 0..100000");
    CHECK_STR(parse_error("symbol a;\ndef x = a*{2: 0.5, 2: 0.5};", &code), "t.sre:2:11: iteration count 2 appears twice in the table");
    CHECK_STR(parse_error("symbol a = {1: 0.5, 2: 0.4};", &code), "t.sre:1:12: table probabilities sum to 0.9, not 1");
    CHECK_STR(parse_error("symbol a = csv(\"x.csv);", &code), "t.sre:1:16: unterminated string");
    CHECK_STR(parse_error("symbol a = csv(\"x\\n.csv\");", &code), "t.sre:1:19: unknown escape in a string (only \\\" and \\\\)");
    CHECK_STR(parse_error("symbol a;\ndef x = a $ a;", &code), "t.sre:2:11: unexpected character '$'");
    CHECK_STR(parse_error("symbol a;\ndef x = a 1.5x;", &code), "t.sre:2:14: unexpected 'x' in number");
    CHECK_STR(parse_error("symbol a\ndef x = a;", &code), "t.sre:2:1: expected '=' after the name, found 'def'");
    CHECK_STR(parse_error("symbol def;", &code), "t.sre:1:8: 'def' is a keyword, not a name");
    /* source words are names outside source position */
    CHECK_STR(parse_error("symbol trace = trace(\"t\", \"s\"); symbol csv; def service = trace csv;", &code), "(parsed)");
    CHECK_STR(parse_error("symbl a;", &code), "t.sre:1:1: expected a statement ('symbol', 'prob', 'count' or 'def'), found 'symbl'");
    CHECK_STR(parse_error("prob p = 2;", &code), "t.sre:1:10: probability 2 is outside [0, 1]");
    CHECK_STR(parse_error("count c = trace(\"t\");", &code), "t.sre:1:20: expected ',' in trace(...), found ')'");
    CHECK_STR(parse_error("symbol a;\ndef x = a*;", &code),
              "t.sre:2:11: expected a count table '{...}', '[p]' or a count name after '*', found ';'");
    CHECK_STR(parse_error("symbol a;\ndef x = ;", &code), "t.sre:2:9: expected a symbol, a definition or '(', found ';'");
}

static void test_nesting_limit(void) {
    char text[2048];
    int i, n = 0, code;
    n += snprintf(text + n, sizeof text - (size_t)n, "symbol a; def x = ");
    for (i = 0; i < PROPER_SRE_MAX_NESTING + 5; i++) text[n++] = '(';
    text[n++] = 'a';
    for (i = 0; i < PROPER_SRE_MAX_NESTING + 5; i++) text[n++] = ')';
    text[n++] = ';';
    text[n] = '\0';
    CHECK_CONTAINS(parse_error(text, &code), "expression nested deeper than 200");
    CHECK_INT(code, PROPER_ELIMIT);
}

/* ---- evaluation: closed forms --------------------------------------------- */

/* Point masses add up: 3 + 5 + 7 = 15 at any width dividing them. */
static void test_sequence_of_point_masses(void) {
    proper_sre s;
    proper_error err;
    proper_pmf x;
    CHECK_INT(parse(&s, "symbol a = {3: 1}; symbol b = {5: 1}; symbol c = {7: 1}; def d = a b c;", &err), 0);
    CHECK_INT(eval(&s, NULL, 1.0, &x), 0);
    CHECK_ABS(proper_pmf_mean(&x), 15.0, 1e-12);
    CHECK_ABS(proper_pmf_variance(&x), 0.0, 1e-12);
    CHECK_ABS(proper_pmf_mode(&x), 15.0, 1e-12);
    CHECK_ABS(proper_pmf_cdf(&x, 14.5), 0.0, 1e-12);
    CHECK_ABS(proper_pmf_cdf(&x, 15.0), 1.0, 1e-12);
    proper_pmf_free(&x);
    proper_sre_free(&s);
}

/* Mixture moments: E = sum p_i E_i; E[X^2] = sum p_i E_i[X^2].
 * a = {10, 20} each 1/2 (E 15, E[X^2] 250), b = 30 (E 30, E[X^2] 900);
 * 0.25 a + 0.75 b: E = 26.25, E[X^2] = 737.5, Var = 737.5 - 26.25^2 = 48.4375. */
static void test_alternative_mixture_moments(void) {
    proper_sre s;
    proper_error err;
    proper_pmf x;
    CHECK_INT(parse(&s, "symbol a = {10: 0.5, 20: 0.5}; symbol b = {30: 1}; def m = 0.25: a | else: b;", &err), 0);
    CHECK_INT(eval(&s, "m", 1.0, &x), 0);
    CHECK_ABS(proper_pmf_mean(&x), 26.25, 1e-9);
    CHECK_ABS(proper_pmf_variance(&x), 48.4375, 1e-9);
    CHECK_ABS(proper_pmf_mode(&x), 30.0, 1e-12);
    proper_pmf_free(&x);
    /* the else branch took 1 - 0.25 */
    CHECK_ABS(s.nodes[s.bindings[2].root].probs[1].value, 0.75, 0);
    proper_sre_free(&s);
}

/* A loop with a fixed count of 5 is the 5-fold sequence, bin by bin. */
static void test_fixed_loop_equals_repeated_convolution(void) {
    proper_sre s;
    proper_error err;
    proper_pmf x, y;
    const char *names[2] = {"loop", "seq"};
    proper_pmf outs[2];
    proper_sre_opts opt = proper_sre_opts_default();
    size_t i;
    double worst = 0.0;
    CHECK_INT(parse(&s,
                    "symbol a = {2: 0.3, 3: 0.5, 7: 0.2};\n"
                    "def loop = a*{5: 1};\n"
                    "def seq = a a a a a;\n",
                    &err),
              0);
    opt.width = 1.0;
    CHECK_INT(proper_sre_eval_many(&s, names, 2, &opt, outs, NULL, &err), 0);
    x = outs[0];
    y = outs[1];
    CHECK_INT(x.n, y.n);
    CHECK_ABS(x.offset, y.offset, 1e-12);
    for (i = 0; i < x.n && i < y.n; i++)
        if (fabs(x.p[i] - y.p[i]) > worst) worst = fabs(x.p[i] - y.p[i]);
    CHECK(worst < 1e-12);
    /* E = 5 * (0.6 + 1.5 + 1.4) = 17.5 */
    CHECK_ABS(proper_pmf_mean(&x), 17.5, 1e-9);
    proper_pmf_free(&x);
    proper_pmf_free(&y);
    proper_sre_free(&s);
}

/* Non-Markovian count {0: 0.2, 5: 0.8}: the compound sum has
 * E = E[N] E[a] and Var = E[N] Var(a) + Var(N) E[a]^2 (Wald / law of total
 * variance). a: E 3.5, Var = 0.3*4+0.5*9+0.2*49 - 12.25 = 15.5 - 12.25 = 3.25;
 * N: E 4, Var = 0.8*25 - 16 = 4. So E = 14, Var = 4*3.25 + 4*12.25 = 62. */
static void test_non_markovian_loop_moments(void) {
    proper_sre s;
    proper_error err;
    proper_pmf x;
    CHECK_INT(parse(&s, "symbol a = {2: 0.3, 3: 0.5, 7: 0.2}; count n = {0: 0.2, 5: 0.8}; def l = a*n;", &err), 0);
    CHECK_INT(eval(&s, NULL, 1.0, &x), 0);
    CHECK_ABS(proper_pmf_mean(&x), 14.0, 1e-9);
    CHECK_ABS(proper_pmf_variance(&x), 62.0, 1e-8);
    CHECK_ABS(proper_pmf_cdf(&x, 0.0), 0.2, 1e-12); /* no iteration: 0 */
    proper_pmf_free(&x);
    proper_sre_free(&s);
}

/* Markovian loop then an exit: T = sum_{i<N} a_i + b with P(N = k) = (1-p) p^k.
 * E[T] = p/(1-p) E[a] + E[b]; Var = E[N] Var(a) + Var(N) E[a]^2 + Var(b),
 * Var(N) = p/(1-p)^2. p = 0.6, a = {4: 0.5, 6: 0.5} (E 5, Var 1), b = 9:
 * E = 1.5*5 + 9 = 16.5, Var = 1.5*1 + 3.75*25 = 95.25. */
static void test_markovian_loop_moments(void) {
    proper_sre s;
    proper_error err;
    proper_pmf x;
    CHECK_INT(parse(&s, "symbol a = {4: 0.5, 6: 0.5}; symbol b = {9: 1}; prob p = 0.6; def m = a*[p] b;", &err), 0);
    CHECK_INT(eval(&s, NULL, 1.0, &x), 0);
    CHECK(x.tail <= 1e-9);
    CHECK_ABS(proper_pmf_mean(&x), 16.5, 1e-6);
    CHECK_ABS(proper_pmf_variance(&x), 95.25, 1e-4);
    CHECK_ABS(proper_pmf_cdf(&x, 9.0), 0.4, 1e-9); /* N = 0 */
    proper_pmf_free(&x);
    proper_sre_free(&s);
}

/* An independent brute force: enumerate every path of a small expression
 * with exact probabilities and compare the whole PMF. */
static void test_brute_force_enumeration(void) {
    proper_sre s;
    proper_error err;
    proper_pmf x;
    double expect[64];
    int a, b, n, k, i;
    /* e = a (0.3: b | 0.7: ()) a*{0: 0.5, 2: 0.5}, a in {1, 2} (0.5 each), b = 4 */
    CHECK_INT(parse(&s, "symbol a = {1: 0.5, 2: 0.5}; symbol b = {4: 1};\n"
                        "def e = a (0.3: b | 0.7: ()) a*{0: 0.5, 2: 0.5};",
                    &err),
              0);
    memset(expect, 0, sizeof expect);
    for (a = 1; a <= 2; a++)
        for (b = 0; b < 2; b++)
            for (n = 0; n <= 2; n += 2)
                for (k = 0; k < 4; k++) { /* the two loop iterations' values, as bits */
                    double pr = 0.5 * (b ? 0.3 : 0.7) * 0.5;
                    int t = a + (b ? 4 : 0);
                    if (n == 0 && k > 0) continue;
                    if (n == 2) { pr *= 0.25; t += 1 + (k & 1) + 1 + ((k >> 1) & 1); }
                    expect[t] += pr;
                }
    CHECK_INT(eval(&s, NULL, 1.0, &x), 0);
    for (i = 0; i < 64; i++) {
        double got = proper_pmf_cdf(&x, i) - proper_pmf_cdf(&x, i - 0.5);
        CHECK_ABS(got, expect[i], 1e-12);
    }
    proper_pmf_free(&x);
    proper_sre_free(&s);
}

/* Shared sub-expressions are computed once. In
 *   def x = a b;  def m = (a b)*{2: 1} (a b)*{2: 1} x*{2: 1};
 * the three loops are the same computation (x is a b), so the distinct
 * computations are: a, b, (a b), the loop, and m's sequence = 5; the
 * operations: 2 symbol loads, 1 convolution for (a b), 1 loop, 2 convolutions
 * in m = 6. Without sharing it would be 4 loads, 3 + 3 loops... */
static void test_shared_subexpressions_computed_once(void) {
    proper_sre s;
    proper_error err;
    proper_pmf x;
    proper_sre_opts opt = proper_sre_opts_default();
    proper_sre_eval_info info;
    CHECK_INT(parse(&s, "symbol a = {1: 0.5, 2: 0.5}; symbol b = {3: 1};\n"
                        "def x = a b;\ndef m = (a b)*{2: 1} (a b)*{2: 1} x*{2: 1};",
                    &err),
              0);
    opt.width = 1.0;
    CHECK_INT(proper_sre_eval_many(&s, NULL, 1, &opt, &x, &info, &err), 0);
    CHECK_INT(info.reachable, 14);
    CHECK_INT(info.distinct, 5);
    CHECK_INT(info.operations, 6);
    /* 3 loops of 2 iterations of (a b): E = 6 * 4.5 = 27 */
    CHECK_ABS(proper_pmf_mean(&x), 27.0, 1e-9);
    proper_pmf_free(&x);
    proper_sre_free(&s);
}

static void test_eval_errors(void) {
    proper_sre s;
    proper_error err;
    proper_pmf x;
    proper_sre_opts opt = proper_sre_opts_default();
    char buf[512];
    CHECK_INT(parse(&s, "symbol a;\nsymbol b = {1: 1};\ndef d = a b;", &err), 0);
    opt.width = 1.0;
    CHECK_INT(proper_sre_eval(&s, NULL, &opt, &x, &err), PROPER_EUNDEFINED);
    CHECK_STR(proper_error_format(&err, buf, sizeof buf),
              "t.sre:1:8: symbol 'a' has no PMF: give it a source or bind it with --set a=FILE.csv");
    CHECK_INT(proper_sre_eval(&s, "zz", &opt, &x, &err), PROPER_EUNDEFINED);
    CHECK_INT(proper_sre_eval(&s, "b", &opt, &x, &err), PROPER_EINVAL);
    opt.width = 0.0;
    CHECK_INT(proper_sre_eval(&s, NULL, &opt, &x, &err), PROPER_EINVAL);
    proper_sre_free(&s);
    /* a missing CSV file is reported where the model names it */
    CHECK_INT(parse(&s, "symbol a = csv(\"no/such.csv\");\ndef d = a;", &err), 0);
    opt.width = 1.0;
    CHECK_INT(proper_sre_eval(&s, NULL, &opt, &x, &err), PROPER_EIO);
    CHECK_CONTAINS(proper_error_format(&err, buf, sizeof buf), "t.sre:1:8: no/such.csv: cannot open");
    proper_sre_free(&s);
}

/* ---- what-if overrides ------------------------------------------------------ */

static double mean_at(proper_sre *s, const char *name, double width) {
    proper_pmf x;
    double m;
    if (eval(s, name, width, &x)) return NAN;
    m = proper_pmf_mean(&x);
    proper_pmf_free(&x);
    return m;
}

static double mean_of(proper_sre *s, const char *name) { return mean_at(s, name, 1.0); }

static void test_overrides(void) {
    proper_sre s;
    proper_error err;
    char buf[512], *before, *after;
    CHECK_INT(parse(&s,
                    "symbol a = {10: 1}; symbol b = {20: 1}; symbol c;\n"
                    "prob p = 0.5; count n = {1: 1};\n"
                    "def inner = a*n;\n"
                    "def h = (p: inner | else: b) a*{2: 1};\n",
                    &err),
              0);
    CHECK_INT(proper_sre_set(&s, "c={1: 1}", &err), 0);
    CHECK_ABS(mean_of(&s, "h"), 0.5 * 10 + 0.5 * 20 + 20, 1e-9);
    CHECK_INT(proper_sre_set(&s, "p=0.25", &err), 0);
    CHECK_ABS(mean_of(&s, "h"), 0.25 * 10 + 0.75 * 20 + 20, 1e-9);
    CHECK_INT(proper_sre_set(&s, "n={3: 1}", &err), 0);
    CHECK_ABS(mean_of(&s, "h"), 0.25 * 30 + 0.75 * 20 + 20, 1e-9);
    CHECK_INT(proper_sre_set(&s, "h.loop={5: 0.5, 7: 0.5}", &err), 0);
    CHECK_ABS(mean_of(&s, "h"), 0.25 * 30 + 0.75 * 20 + 60, 1e-9);
    CHECK_INT(proper_sre_set(&s, "h.loop=[0.5]", &err), 0); /* Markovian, mean count 1 */
    CHECK_ABS(mean_of(&s, "h"), 0.25 * 30 + 0.75 * 20 + 10, 1e-6);
    CHECK_INT(proper_sre_set(&s, "h.loop = n", &err), 0);
    CHECK_ABS(mean_of(&s, "h"), 0.25 * 30 + 0.75 * 20 + 30, 1e-9);
    CHECK_INT(proper_sre_set(&s, "h.alt=0.9,0.1", &err), 0);
    CHECK_ABS(mean_of(&s, "h"), 0.9 * 30 + 0.1 * 20 + 30, 1e-9);
    CHECK_INT(proper_sre_set(&s, "a = {100: 1}", &err), 0);
    CHECK_ABS(mean_of(&s, "h"), 0.9 * 300 + 0.1 * 20 + 300, 1e-9);
    CHECK_INT(proper_sre_set(&s, "inner=b c", &err), 0);
    CHECK_ABS(mean_of(&s, "h"), 0.9 * 21 + 0.1 * 20 + 300, 1e-9);
    before = print_model(&s);
    CHECK_STR(before, "symbol a = {100: 1};\nsymbol b = {20: 1};\nsymbol c = {1: 1};\nprob p = 0.25;\ncount n = {3: 1};\n"
                      "def inner = b c;\ndef h = (0.9: inner | 0.1: b) a*n;\n");
    /* failures leave the model as it was */
    CHECK_INT(proper_sre_set(&s, "inner=h", &err), PROPER_EINVAL);
    /* the reference that closes the cycle is in the model's text */
    CHECK_STR(proper_error_format(&err, buf, sizeof buf),
              "t.sre:4:13: definition 'inner' depends on itself (inner -> h -> inner)");
    CHECK_INT(proper_sre_set(&s, "inner=b\n zz", &err), PROPER_EUNDEFINED);
    CHECK_STR(proper_error_format(&err, buf, sizeof buf), "--set:2:2: unknown symbol or definition 'zz'");
    CHECK_INT(proper_sre_set(&s, "inner=b zz", &err), PROPER_EUNDEFINED);
    CHECK_INT(proper_sre_set(&s, "h.alt=0.5,0.4", &err), PROPER_EPROB);
    CHECK_STR(proper_error_format(&err, buf, sizeof buf), "--set:1:7: branch probabilities sum to 0.9, not 1");
    CHECK_INT(proper_sre_set(&s, "h.alt=0.5,0.25,0.25", &err), PROPER_EINVAL);
    CHECK_INT(proper_sre_set(&s, "h.loop={1: 0.5}", &err), PROPER_EPROB);
    CHECK_INT(proper_sre_set(&s, "h.loop=[1]", &err), PROPER_EPROB);
    CHECK_INT(proper_sre_set(&s, "h.loop=p", &err), PROPER_EINVAL);
    CHECK_INT(proper_sre_set(&s, "inner.loop={1: 1}", &err), PROPER_EINVAL); /* inner has no loop now */
    CHECK_STR(proper_error_format(&err, buf, sizeof buf), "--set:1:1: definition 'inner' has 0 loops, not exactly one");
    CHECK_INT(proper_sre_set(&s, "h.bogus=1", &err), PROPER_EINVAL);
    CHECK_INT(proper_sre_set(&s, "a.loop={1: 1}", &err), PROPER_EINVAL);
    CHECK_INT(proper_sre_set(&s, "zz=1", &err), PROPER_EUNDEFINED);
    CHECK_INT(proper_sre_set(&s, "p=1.5", &err), PROPER_EPROB);
    CHECK_INT(proper_sre_set(&s, "n={1.5: 1}", &err), PROPER_ERANGE);
    CHECK_INT(proper_sre_set(&s, "nothing here", &err), PROPER_EPARSE);
    CHECK_INT(proper_sre_set(&s, "a={1: 1} extra", &err), PROPER_EPARSE);
    after = print_model(&s);
    CHECK_STR(after, before);
    PROPER_FREE(before);
    PROPER_FREE(after);
    proper_sre_free(&s);
    /* a prob used in an alternative must keep the sum at 1 */
    CHECK_INT(parse(&s, "symbol a = {1: 1}; prob p = 0.5; def d = p: a | 0.5: a;", &err), 0);
    CHECK_INT(proper_sre_set(&s, "p=0.3", &err), PROPER_EPROB);
    CHECK_STR(proper_error_format(&err, buf, sizeof buf), "t.sre:1:42: branch probabilities sum to 0.8, not 1");
    CHECK_ABS(s.bindings[1].prob, 0.5, 0);
    proper_sre_free(&s);
}

/* ---- sources: CSV and traces ---------------------------------------------- */

#define TMP "build/tests/"

static void test_csv_source_relative_to_model(void) {
    proper_sre s;
    proper_error err;
    proper_pmf x;
    char buf[512];
    write_file(TMP "sre_csv.csv", "value,prob\n10,0.25\n12,0.75\n");
    write_file(TMP "sre_csv.sre", "symbol a = csv(\"sre_csv.csv\");\ndef d = a a;\n");
    proper_sre_init(&s);
    CHECK_INT(proper_sre_read(&s, TMP "sre_csv.sre", &err), 0);
    CHECK_INT(eval(&s, NULL, 1.0, &x), 0);
    CHECK_ABS(proper_pmf_mean(&x), 2 * 11.5, 1e-9);
    proper_pmf_free(&x);
    /* an override path is relative to the working directory; a bare path
     * need not be a token of the language */
    CHECK_INT(proper_sre_set(&s, "a=./" TMP "sre_csv.csv", &err), 0);
    CHECK_INT(eval(&s, NULL, 1.0, &x), 0);
    CHECK_ABS(proper_pmf_mean(&x), 23.0, 1e-9);
    proper_pmf_free(&x);
    CHECK_INT(proper_sre_set(&s, "a=" TMP "sre_csv.csv", &err), 0);
    CHECK_INT(eval(&s, NULL, 1.0, &x), 0);
    CHECK_ABS(proper_pmf_mean(&x), 23.0, 1e-9);
    proper_pmf_free(&x);
    proper_sre_free(&s);
    /* a malformed CSV keeps the CSV's own position */
    write_file(TMP "sre_bad.csv", "value,prob\n10,0.25\n12,zz\n");
    write_file(TMP "sre_bad.sre", "symbol a = csv(\"sre_bad.csv\");\ndef d = a;\n");
    proper_sre_init(&s);
    CHECK_INT(proper_sre_read(&s, TMP "sre_bad.sre", &err), 0);
    {
        proper_sre_opts opt = proper_sre_opts_default();
        opt.width = 1.0;
        CHECK(proper_sre_eval(&s, NULL, &opt, &x, &err) != 0);
        CHECK_CONTAINS(proper_error_format(&err, buf, sizeof buf), TMP "sre_bad.csv:3:");
    }
    proper_sre_free(&s);
}

/* A hand-made trace: 4 requests, steps in ns, a branch and a loop. */
static const char *small_trace =
    "proper-trace 1\n"
    "R 1\nS build 2000\nB target file\nS send 10000\nT 13000\nC 20000\nE\n"
    "R 2\nS build 3000\nB target dir\nS probe 1000\nS probe 1000\nL probe 2\nS send 10000\nT 16000\nE\n"
    "R 3\nS build 2000\nB target file\nS send 12000\nT 14500\nE\n"
    "R 4\nS build 3000\nB target file\nL probe 0\nS send 10000\nT 13000\nE\n";

static void test_trace_sources(void) {
    proper_sre s;
    proper_error err;
    proper_pmf x;
    double *xs;
    size_t n;
    write_file(TMP "sre_small.trace", small_trace);
    write_file(TMP "sre_small.sre",
               "symbol build = trace(\"sre_small.trace\", \"build\");\n"
               "symbol send = trace(\"sre_small.trace\", \"send\");\n"
               "symbol probe = trace(\"sre_small.trace\", \"probe\");\n"
               "symbol g = glue(\"sre_small.trace\");\n"
               "symbol bp = joint(\"sre_small.trace\", \"build\", \"probe\");\n"
               "symbol measured = service(\"sre_small.trace\");\n"
               "prob p_file = trace(\"sre_small.trace\", \"target\", \"file\");\n"
               "count probes = trace(\"sre_small.trace\", \"probe\");\n"
               "def steps = build (p_file: () | else: probe*probes) send;\n"
               "def with_glue = steps g;\n"
               "def m = measured;\n"
               "def j = bp;\n");
    proper_sre_init(&s);
    CHECK_INT(proper_sre_read(&s, TMP "sre_small.sre", &err), 0);
    /* µs: build {2,3,2,3} E 2.5; send {10,10,12,10} E 10.5; p_file 3/4;
     * probe 1 µs, count {0: 1/2, 2: 1/2} (E 1) -> dir branch E 1.
     * steps: 2.5 + 0.25 * 1 + 10.5 = 13.25 */
    CHECK_ABS(mean_of(&s, "steps"), 13.25, 1e-9);
    /* glue per request: 13-12 = 1, 16-15 = 1, 14.5-14 = 0.5, 13-13 = 0: E 0.625
     * (width 0.5 holds every value exactly) */
    CHECK_ABS(mean_at(&s, "with_glue", 0.5), 13.25 + 0.625, 1e-9);
    CHECK_ABS(mean_at(&s, "m", 0.5), (13 + 16 + 14.5 + 13) / 4.0, 1e-9);
    /* build + probe per request: 2, 3 + 1 + 1, 2, 3 -> E 3, and the sum's
     * spread is the requests' (not a convolution of the two steps) */
    CHECK_ABS(mean_of(&s, "j"), 3.0, 1e-9);
    CHECK_INT(eval(&s, "j", 1.0, &x), 0);
    CHECK_ABS(proper_pmf_cdf(&x, 2.0), 0.5, 1e-12);
    CHECK_ABS(proper_pmf_cdf(&x, 3.0), 0.75, 1e-12);
    proper_pmf_free(&x);
    CHECK_INT(eval(&s, "m", 0.5, &x), 0);
    CHECK_ABS(proper_pmf_cdf(&x, 14.5) - proper_pmf_cdf(&x, 14.0), 0.25, 1e-12);
    proper_pmf_free(&x);
    proper_sre_free(&s);
    CHECK_INT(proper_sre_samples("client(\"" TMP "sre_small.trace\")", &xs, &n, &err), 0);
    CHECK_INT(n, 1);
    if (n == 1) CHECK_ABS(xs[0], 20.0, 0);
    PROPER_FREE(xs);
    CHECK_INT(proper_sre_samples("trace(\"" TMP "sre_small.trace\", \"probe\")", &xs, &n, &err), 0);
    CHECK_INT(n, 2);
    PROPER_FREE(xs);
    CHECK_INT(proper_sre_samples("trace(\"" TMP "sre_small.trace\", \"nope\")", &xs, &n, &err), PROPER_EUNDEFINED);
    CHECK_INT(proper_sre_samples("{1: 1}", &xs, &n, &err), PROPER_EINVAL);
}

static void test_malformed_trace_reports_trace_line(void) {
    proper_sre s;
    proper_error err;
    proper_pmf x;
    proper_sre_opts opt = proper_sre_opts_default();
    char buf[512];
    write_file(TMP "sre_broken.trace", "proper-trace 1\nR 1\nS build 2000\nS send -5\nE\n");
    proper_sre_init(&s);
    CHECK_INT(parse(&s, "symbol a = trace(\"" TMP "sre_broken.trace\", \"build\");\ndef d = a;", &err), 0);
    opt.width = 1.0;
    CHECK(proper_sre_eval(&s, NULL, &opt, &x, &err) != 0);
    CHECK_CONTAINS(proper_error_format(&err, buf, sizeof buf), TMP "sre_broken.trace:4:");
    proper_sre_free(&s);
    /* a choice the branch never took, a missing loop */
    write_file(TMP "sre_small.trace", small_trace);
    CHECK_INT(parse(&s, "symbol a = {1: 1};\nprob q = trace(\"" TMP "sre_small.trace\", \"target\", \"fil\");\n"
                        "def d = q: a | else: a;", &err), 0);
    CHECK_INT(proper_sre_eval(&s, NULL, &opt, &x, &err), PROPER_EUNDEFINED);
    CHECK_CONTAINS(proper_error_format(&err, buf, sizeof buf), "t.sre:2:6: branch \"target\"");
    proper_sre_free(&s);
    CHECK_INT(parse(&s, "symbol a = {1: 1};\ncount c = trace(\"" TMP "sre_small.trace\", \"nope\");\ndef d = a*c;", &err), 0);
    CHECK_INT(proper_sre_eval(&s, NULL, &opt, &x, &err), PROPER_EUNDEFINED);
    CHECK_CONTAINS(proper_error_format(&err, buf, sizeof buf), "has no loop \"nope\"");
    proper_sre_free(&s);
}

/* ---- service effect automaton -> SRE --------------------------------------- */

static int automaton(proper_sre *s, const char *text, proper_error *err) {
    proper_sre_init(s);
    return proper_sre_from_automaton(s, text, strlen(text), "fig1.sea", err);
}

/* Koziolek & Firus 2007, Fig. 1: s0 -a-> s1 -b-> s0 loops, s0 -c-> s2 ends;
 * the paper's SRE is (s0 a s1 b)* s0 c s2. */
static void test_gnfa_koziolek_fig1(void) {
    proper_sre s;
    proper_error err;
    char *text = NULL;
    double en;
    CHECK_INT(automaton(&s, "# Fig. 1\nfinal s2\ns0 a s1 0.3\ns1 b s0 1\ns0 c s2 0.7\n", &err), 0);
    CHECK_INT(print_def(&s, "service", &text, &err), 0);
    CHECK_STR(text, "(s0 a s1 b)*[0.3] s0 c s2");
    PROPER_FREE(text);
    /* one symbol per state and label, in order of appearance */
    text = print_model(&s);
    CHECK_STR(text, "symbol s0;\nsymbol a;\nsymbol s1;\nsymbol b;\nsymbol c;\nsymbol s2;\n"
                    "def service = (s0 a s1 b)*[0.3] s0 c s2;\n");
    {
        proper_sre t;
        CHECK_INT(parse(&t, text, &err), 0);
        CHECK(proper_sre_equal(&s, &t));
        proper_sre_free(&t);
    }
    PROPER_FREE(text);
    /* bind the symbols and check the mean: E[N] (s0+a+s1+b) + s0 + c + s2 */
    CHECK_INT(proper_sre_set(&s, "s0={1: 1}", &err), 0);
    CHECK_INT(proper_sre_set(&s, "a={2: 1}", &err), 0);
    CHECK_INT(proper_sre_set(&s, "s1={3: 1}", &err), 0);
    CHECK_INT(proper_sre_set(&s, "b={4: 1}", &err), 0);
    CHECK_INT(proper_sre_set(&s, "c={5: 1}", &err), 0);
    CHECK_INT(proper_sre_set(&s, "s2={6: 1}", &err), 0);
    en = 0.3 / 0.7;
    CHECK_ABS(mean_of(&s, NULL), en * 10 + 12, 1e-6);
    proper_sre_free(&s);
}

static void test_gnfa_alternatives_and_stops(void) {
    proper_sre s;
    proper_error err;
    char *text = NULL, buf[512];
    /* parallel edges become an alternative */
    CHECK_INT(automaton(&s, "final s1\ns0 a s1 0.4\ns0 b s1 0.6\n", &err), 0);
    CHECK_INT(print_def(&s, NULL, &text, &err), 0);
    CHECK_STR(text, "(0.4: s0 a | 0.6: s0 b) s1");
    PROPER_FREE(text);
    proper_sre_free(&s);
    /* a final state that may go on: stop with 1 - 0.25 */
    CHECK_INT(automaton(&s, "start x\nfinal y\nx a y 1\ny b x 0.25\n", &err), 0);
    CHECK_INT(print_def(&s, NULL, &text, &err), 0);
    CHECK_STR(text, "x a (y b x a)*[0.25] y");
    PROPER_FREE(text);
    /* bind: x=1, a=2, y=3, b=4: E = 3 + E[N] (3+4+1+2) + 3... = x a + E[N]*10 + y */
    CHECK_INT(proper_sre_set(&s, "x={1: 1}", &err), 0);
    CHECK_INT(proper_sre_set(&s, "a={2: 1}", &err), 0);
    CHECK_INT(proper_sre_set(&s, "y={3: 1}", &err), 0);
    CHECK_INT(proper_sre_set(&s, "b={4: 1}", &err), 0);
    CHECK_ABS(mean_of(&s, NULL), 3 + (0.25 / 0.75) * 10 + 3, 1e-6);
    proper_sre_free(&s);
    /* errors */
    proper_sre_init(&s);
    CHECK_INT(automaton(&s, "final s2\ns0 a s1 0.3\ns0 c s2 0.6\ns1 b s2 1\n", &err), PROPER_EPROB);
    CHECK_CONTAINS(proper_error_format(&err, buf, sizeof buf), "state 's0' have probabilities summing to 0.8");
    CHECK_INT(automaton(&s, "s0 a s1 1\n", &err), PROPER_EPARSE);
    CHECK_STR(proper_error_format(&err, buf, sizeof buf), "fig1.sea: the automaton has no 'final' line");
    CHECK_INT(automaton(&s, "final s1\ns0 a s1 x\n", &err), PROPER_EPROB);
    CHECK_STR(proper_error_format(&err, buf, sizeof buf), "fig1.sea:2:9: 'x' is not a probability in [0, 1]");
    CHECK_INT(automaton(&s, "final s1\ns0 a-b s1 1\n", &err), PROPER_EPARSE);
    CHECK_CONTAINS(proper_error_format(&err, buf, sizeof buf), "fig1.sea:2:4: 'a-b' is not a usable name");
    CHECK_INT(automaton(&s, "final s1\ns0 a s1\n", &err), PROPER_EPARSE);
    CHECK_INT(automaton(&s, "final s1\ns0 a s2 1\ns2 b s2 1\n", &err), PROPER_EPROB); /* s2 never stops */
    CHECK_INT(automaton(&s, "final s1\ns0 a s3 1\ns3 b s0 1\n", &err), PROPER_EPROB); /* s1 unreachable */
}

/* The output contract: a parse into a model that holds an earlier one
 * replaces it on success and leaves it on failure. */
static void test_parse_output_contract(void) {
    proper_sre s;
    proper_error err;
    char *text;
    CHECK_INT(parse(&s, "symbol a = {1: 1}; def d = a a;", &err), 0);
    CHECK_INT(proper_sre_parse(&s, "symbol b; def e = b c;", 22, "u.sre", &err), PROPER_EUNDEFINED);
    CHECK_STR(err.file, "u.sre");
    text = print_model(&s);
    CHECK_STR(text, "symbol a = {1: 1};\ndef d = a a;\n");
    PROPER_FREE(text);
    CHECK_INT(proper_sre_parse(&s, "symbol b; def e = b;", 20, "u.sre", &err), 0);
    text = print_model(&s);
    CHECK_STR(text, "symbol b;\ndef e = b;\n");
    CHECK_STR(s.file, "u.sre");
    PROPER_FREE(text);
    proper_sre_free(&s);
}

/* Issue 14: a negative duration in a symbol's table is an error at its
 * position (it was accepted and shifted every prediction); count tables
 * keep their own check. */
static void test_negative_duration_rejected(void) {
    proper_sre s;
    proper_error err;
    proper_sre_init(&s);
    CHECK_INT(proper_sre_parse(&s, "symbol a = {-5: 1};\ndef d = a;", 30, "neg.sre", &err), PROPER_ERANGE);
    CHECK_STR(err.file, "neg.sre");
    CHECK_INT(err.line, 1);
    CHECK_INT(err.col, 13);
    CHECK_CONTAINS(err.message, "duration -5 is negative");
    CHECK_INT(proper_sre_parse(&s, "symbol a = {0: 0.5, 5: 0.5};\ndef d = a;", 39, "ok.sre", &err), 0);
    CHECK_INT(proper_sre_set(&s, "a={3: 0.5, -1e-9: 0.5}", &err), PROPER_ERANGE);
    CHECK_CONTAINS(err.message, "is negative");
    proper_sre_free(&s);
}

/* Issue 14: a leading UTF-8 BOM is skipped by the model and automaton
 * readers; columns count from after it. */
static void test_bom_accepted(void) {
    static const char model[] = "\xEF\xBB\xBFsymbol a = {3: 1};\ndef d = a;\n";
    static const char bad[] = "\xEF\xBB\xBF" "def d = zz;\n";
    static const char aut[] = "\xEF\xBB\xBF" "final s1\ns0 a s1 1\n";
    proper_sre s;
    proper_error err;
    proper_sre_init(&s);
    CHECK_INT(proper_sre_parse(&s, model, sizeof model - 1, "b.sre", &err), 0);
    CHECK_INT(proper_sre_parse(&s, bad, sizeof bad - 1, "b.sre", &err), PROPER_EUNDEFINED);
    CHECK_INT(err.line, 1);
    CHECK_INT(err.col, 9);
    CHECK_INT(proper_sre_from_automaton(&s, aut, sizeof aut - 1, "b.aut", &err), 0);
    CHECK(proper_sre_find(&s, "s0") >= 0);
    proper_sre_free(&s);
}

/* Issue 14: a random 300-state automaton (3 edges per state) made state
 * elimination grow without bound; now it is refused at once with
 * PROPER_ELIMIT naming the limit. A 300-state chain with self loops
 * (s_i -> s_i 0.5, s_i -> s_{i+1} 0.5) still converts: its SRE is the
 * sequence of 300 Markov loops, each taking 1 + 1 = 2 symbols per pass. */
static void test_gnfa_large_automaton_capped(void) {
    proper_sre s;
    proper_error err;
    proper_strbuf b;
    proper_rng rng;
    size_t i, k;
    long found;
    proper_sre_init(&s);
    proper_strbuf_init(&b);
    proper_rng_seed(&rng, 1);
    proper_strbuf_printf(&b, "start s0\nfinal s299\n");
    for (i = 0; i < 299; i++)
        for (k = 0; k < 3; k++)
            proper_strbuf_printf(&b, "s%lu a%lu s%lu %s\n", (unsigned long)i, (unsigned long)i,
                                 (unsigned long)(proper_rng_uniform(&rng) * 300.0), k == 2 ? "0.4" : "0.3");
    CHECK_INT(proper_sre_from_automaton(&s, b.data, b.len, "r.aut", &err), PROPER_ELIMIT);
    CHECK_CONTAINS(err.message, "PROPER_SRE_MAX_AUTOMATON_SIZE");
    proper_strbuf_free(&b);
    proper_strbuf_init(&b);
    proper_strbuf_printf(&b, "final s299\n");
    for (i = 0; i < 299; i++)
        proper_strbuf_printf(&b, "s%lu l s%lu 0.5\ns%lu n s%lu 0.5\n", (unsigned long)i, (unsigned long)i,
                             (unsigned long)i, (unsigned long)(i + 1));
    CHECK_INT(proper_sre_from_automaton(&s, b.data, b.len, "c.aut", &err), 0);
    found = proper_sre_find(&s, "service");
    CHECK(found >= 0);
    proper_strbuf_free(&b);
    proper_sre_free(&s);
}

/* Issue 14: values off the grid are rounded onto it; evaluation reports
 * it. {0.3: 1/2, 0.4: 1/2} on the 1-wide grid becomes the point 0: its mean
 * moves by exactly 0.35; on the 0.1 grid nothing moves; {2: 1} never. */
static void test_eval_reports_rounding(void) {
    proper_sre s;
    proper_sre_opts o = proper_sre_opts_default();
    proper_sre_eval_info info;
    proper_error err;
    proper_pmf x;
    static const char text[] = "symbol a = {0.3: 0.5, 0.4: 0.5};\nsymbol b = {2: 1};\ndef d = a b;\n";
    proper_sre_init(&s);
    proper_pmf_init(&x);
    CHECK_INT(proper_sre_parse(&s, text, sizeof text - 1, "r.sre", &err), 0);
    o.width = 1.0;
    CHECK_INT(proper_sre_eval_many(&s, NULL, 1, &o, &x, &info, &err), 0);
    CHECK_INT(info.rounded, 1);
    CHECK_ABS(info.rounding_shift, 0.35, 1e-15);
    CHECK_INT(info.rounded_binding, 0);
    proper_pmf_free(&x);
    o.width = 0.1;
    CHECK_INT(proper_sre_eval_many(&s, NULL, 1, &o, &x, &info, &err), 0);
    CHECK_INT(info.rounded, 0);
    CHECK_ABS(proper_pmf_mean(&x), 2.35, 1e-12);
    proper_pmf_free(&x);
    proper_sre_free(&s);
}

int main(void) {
    RUN(test_eval_reports_rounding);
    RUN(test_gnfa_large_automaton_capped);
    RUN(test_bom_accepted);
    RUN(test_negative_duration_rejected);
    RUN(test_parse_output_contract);
    RUN(test_parse_and_print_canonical);
    RUN(test_print_parenthesises_by_context);
    RUN(test_round_trip_random_models);
    RUN(test_errors_have_positions);
    RUN(test_nesting_limit);
    RUN(test_sequence_of_point_masses);
    RUN(test_alternative_mixture_moments);
    RUN(test_fixed_loop_equals_repeated_convolution);
    RUN(test_non_markovian_loop_moments);
    RUN(test_markovian_loop_moments);
    RUN(test_brute_force_enumeration);
    RUN(test_shared_subexpressions_computed_once);
    RUN(test_eval_errors);
    RUN(test_overrides);
    RUN(test_csv_source_relative_to_model);
    RUN(test_trace_sources);
    RUN(test_malformed_trace_reports_trace_line);
    RUN(test_gnfa_koziolek_fig1);
    RUN(test_gnfa_alternatives_and_stops);
    return test_summary();
}
