/* Fuzz target for the properties parser and checker, against a fixed model
 * (Knuth-Yao's die with a state and a transition reward structure and a
 * label). Any input either fails with an error inside the text, or parses;
 * every property then either fails cleanly or gives a result of its type,
 * which for a P=? operator is a probability (a range over initial states
 * or of filter(range, ...) has low <= high). Step bounds are capped (max_steps) so every input
 * runs fast. The properties are checked again on the die with probability
 * intervals in its first state ([0.4,0.6] each way): the same rules, and
 * Pmin=?/Pmax=? give probabilities. The text as a tool with explicit files
 * gets it (constants as values, formulas as bodies) gives the same values
 * on the die (on the interval die too would double the slowest inputs).
 * Without PROPER_LIBFUZZER, main replays directory argv[1]. */
/* Smaller work limits than the defaults, so that an input the library
 * answers or refuses within its limits in seconds at -O2 stays within
 * libFuzzer's timeout in the sanitised build: co-safe automata (R=? [ F<74
 * G<91 F<=84 s=3 ] took 7.4 s at -O2 when the default counted clause
 * comparisons; it counts atom steps since b62a9c9, about a second) and
 * Gauss-Seidel sweeps. */
#define PROPER_LTL_MAX_AUTOMATON_WORK 10000000
/* A path quantifier's tableau product is checked pair by pair up to 64 x
 * this many candidate edges: 6.4e8 by default took 1.8 s at -O2 and over
 * 10 s sanitised (A [ (F!..!(G<=2 s<8) | (F>=8 d=6)) | (F G d=2) ] and
 * three more properties on the die), so the target allows 6.4e7. */
#define PROPER_LTL_MAX_PRODUCT_STATES 1000000
#define PROPER_DTMC_MAX_STEP_WORK 1e8 /* as in fuzz_ltl: no 1e11-multiply-add bounded runs */
#define PROPER_DTMC_MAX_SWEEPS 20000
#define PROPER_IMPLEMENTATION
#include "../../src/prism.h"

#include <stdlib.h>
#include <string.h>

#define FUZZ_DIE_HEAD "dtmc\nconst int K = 7;\nformula done = s=K;\nmodule die\n s : [0..7] init 0;\n d : [0..6] init 0;\n"
#define FUZZ_DIE_REST                                                                                                  \
    " [] s=1 -> 0.5 : (s'=3) + 0.5 : (s'=4);\n"                                                                        \
    " [] s=2 -> 0.5 : (s'=5) + 0.5 : (s'=6);\n [] s=3 -> 0.5 : (s'=1) + 0.5 : (s'=7) & (d'=1);\n"                       \
    " [] s=4 -> 0.5 : (s'=7) & (d'=2) + 0.5 : (s'=7) & (d'=3);\n"                                                      \
    " [] s=5 -> 0.5 : (s'=7) & (d'=4) + 0.5 : (s'=7) & (d'=5);\n"                                                      \
    " [] s=6 -> 0.5 : (s'=2) + 0.5 : (s'=7) & (d'=6);\n [] s=7 -> (s'=7);\nendmodule\n"                                 \
    "label \"end\" = s=7;\nrewards \"flips\" [] s<7 : 1; endrewards\nrewards \"face\" s=7 : d; endrewards\n"

static const char *fuzz_model = FUZZ_DIE_HEAD " [] s=0 -> 0.5 : (s'=1) + 0.5 : (s'=2);\n" FUZZ_DIE_REST;
static const char *fuzz_interval_model = FUZZ_DIE_HEAD " [] s=0 -> [0.4,0.6] : (s'=1) + [0.4,0.6] : (s'=2);\n" FUZZ_DIE_REST;

static void check_error(const proper_error *err, const char *text, size_t len) {
    size_t lines = 1, i;
    for (i = 0; i < len; i++) lines += text[i] == '\n';
    if (err->code == PROPER_ENOMEM) return;
    if (err->code >= 0 || err->message[0] == '\0' || err->line < 0 || (size_t)err->line > lines) abort();
}

/* Property i is a P=? [...] operator as a whole (its value a probability;
 * also Pmin=? and Pmax=?). */
static int is_probability_query(const proper_prism_props *p, size_t i) {
    const proper__prism_node *nd = &p->pool.n[p->props[i].expr];
    return nd->kind == PROPER__PM_N_PROB && nd->op == PROPER__PM_QUERY;
}

/* The properties as a tool with explicit files gets them
 * (proper_prism_props_standalone): a clean error (a constant without a
 * value), or a text that parses on the model to as many properties, each
 * with the same value as the original (or failing as it does). */
static void check_standalone(const proper_prism_model *m, const proper_prism_props *p, const proper_dtmc *d,
                             const proper_prism_check_opts *o, const char *text, size_t size) {
    proper_prism_props *q = NULL;
    proper_error err;
    char *out = NULL;
    size_t i;
    if (proper_prism_props_standalone(p, text, size, &out, &err)) {
        if (err.code != PROPER_EUNDEFINED && err.code != PROPER_ENOMEM) abort();
        check_error(&err, text, size);
        return;
    }
    if (proper_prism_props_parse(&q, m, out, strlen(out), "standalone.pctl", &err)) {
        check_error(&err, out, strlen(out)); /* deeper parentheses may pass a nesting limit */
    } else {
        if (proper_prism_props_count(q) != proper_prism_props_count(p)) abort();
        for (i = 0; i < proper_prism_props_count(p); i++) {
            proper_prism_result a, b;
            int fa, fb;
            /* a property written the same (no constant or formula in it) is the same */
            if (strcmp(proper_prism_props_text(p, i), proper_prism_props_text(q, i)) == 0) continue;
            fa = proper_prism_props_result(p, i, d, o, &a, &err) != 0;
            fb = proper_prism_props_result(q, i, d, o, &b, &err) != 0;
            if (fa || fb) continue; /* a reference to a property by name may fail in one alone */
            if (!(a.value == b.value || (a.value != a.value && b.value != b.value))) abort();
        }
        proper_prism_props_free(q);
    }
    PROPER_FREE(out);
}

/* The properties of text on model (with its intervals, if any). */
static void fuzz_on(const char *model, const char *text, size_t size) {
    proper_prism_model *m = NULL;
    proper_prism_props *p = NULL;
    proper_prism_check_opts o;
    proper_prism_intervals iv;
    proper_dtmc d;
    proper_error err;
    size_t i;
    if (proper_prism_parse(&m, model, strlen(model), "die.pm", &err)) abort();
    proper_dtmc_init(&d);
    proper_prism_intervals_init(&iv);
    if (proper_prism_build_intervals(m, NULL, &d, &iv, &err)) abort();
    o = proper_prism_check_opts_default();
    o.max_steps = 1000;
    o.intervals = &iv;
    if (proper_prism_props_parse(&p, m, text, size, "f.pctl", &err)) {
        check_error(&err, text, size);
    } else {
        for (i = 0; i < proper_prism_props_count(p); i++) {
            proper_prism_result r;
            const char *t = proper_prism_props_text(p, i);
            if (!t || !proper_prism_props_comment(p, i)) abort();
            if (proper_prism_props_result(p, i, &d, &o, &r, &err)) {
                check_error(&err, text, size);
                continue;
            }
            if (r.type != proper_prism_props_type(p, i)) abort();
            if (is_probability_query(p, i) && !(r.value >= -1e-9 && r.hi <= 1 + 1e-9)) abort();
            if (r.type == PROPER_PRISM_BOOL && r.value != 0 && r.value != 1) abort();
            if (r.value == r.value && r.hi == r.hi && r.value > r.hi) abort(); /* a range is ordered */
        }
        if (!proper_prism_has_intervals(m)) check_standalone(m, p, &d, &o, text, size);
        proper_prism_props_free(p);
    }
    proper_dtmc_free(&d);
    proper_prism_intervals_free(&iv);
    proper_prism_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_on(fuzz_model, (const char *)data, size);
    fuzz_on(fuzz_interval_model, (const char *)data, size);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_props"
#include "replay.h"
