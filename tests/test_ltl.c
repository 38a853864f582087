/* test_ltl.c — LTL model checking of DTMCs (src/ltl.h).
 *
 * Expected values come from:
 *  - PRISM's own regression suite (prism-tests/, the RESULT lines of
 *    functionality/verify/dtmcs/ltl/lec15dtmc.pm.props, lec17dtmc.pm.props,
 *    jaeger.prism.props, bugfixes/explicit-bscc-rabin.pm and
 *    functionality/verify/dtmcs/rewards/dtmc_rewards.pm.cosafety.props,
 *    rewards/cosafe/robot.pm.cosafe.props); the chains are rebuilt here with
 *    the builder;
 *  - PRISM 4.10.2-dev run by hand on the chain of test_prism_m6 (the command
 *    is in that test's comment);
 *  - closed forms, and dtmc.h's PCTL solvers where the formula is PCTL;
 *  - independent brute force written here: every path up to the horizon
 *    of a formula with bounded operators only, evaluated by a direct
 *    recursive semantics; deterministic chains (one lasso per start state)
 *    evaluated by a fixpoint semantics on the lasso;
 *  - the two routes of the module against each other on co-safe formulas
 *    (refinement vs. automaton product).
 */
/* Step-bounded iterations give up after 10^8 multiply-adds here (10^11 by
 * default), so the refusal below is quick. */
#define PROPER_DTMC_MAX_STEP_WORK 1e8
#define PROPER_IMPLEMENTATION
#include "../src/ltl.h"
#include "test.h"

#include <stdlib.h>

/* ---- helpers ------------------------------------------------------------ */

/* Build a chain from a dense row-major n x n matrix. */
static int build_dense(proper_dtmc *m, const double *P, uint32_t n) {
    proper_dtmc_builder b;
    proper_error err;
    uint32_t s, t, dst[64];
    double p[64];
    int rc = 0;
    proper_dtmc_init(m);
    proper_dtmc_builder_init(&b);
    for (s = 0; s < n && !rc; s++) {
        size_t k = 0;
        for (t = 0; t < n; t++)
            if (P[(size_t)s * n + t] != 0.0) dst[k] = t, p[k++] = P[(size_t)s * n + t];
        rc = proper_dtmc_builder_add_row(&b, dst, p, k, &err);
    }
    if (rc) {
        proper_dtmc_builder_free(&b);
        return rc;
    }
    return proper_dtmc_builder_finish(&b, n, m, &err);
}

/* A labelled chain for formulas in the text syntax: label i is the set of
 * states whose bit i is set in masks[s]; names[i] its name. */
typedef struct lchain {
    proper_dtmc m;
    size_t n_labels;
    const char *const *names;
    const unsigned *masks;
} lchain;

/* Parse `text` and map its propositions to the chain's labels; aps gets
 * one bitset per proposition (free with free_aps). */
static int setup(const lchain *c, const char *text, proper_ltl *f, proper_bitset **aps, size_t *n_aps) {
    proper_intern names;
    proper_error err;
    size_t i, s, l;
    int rc;
    proper_intern_init(&names);
    proper_ltl_init(f);
    rc = proper_ltl_parse(f, text, strlen(text), "formula", &names, &err);
    if (rc) {
        printf("  parse error: %s\n", err.message);
        proper_intern_free(&names);
        return rc;
    }
    *n_aps = names.len;
    *aps = (proper_bitset *)calloc(names.len + 1, sizeof **aps);
    for (i = 0; i < names.len; i++) {
        proper_bitset_create(&(*aps)[i], c->m.n_states, &err);
        for (l = 0; l < c->n_labels && strcmp(c->names[l], names.names[i]); l++) {}
        if (l == c->n_labels) printf("  unknown label %s\n", names.names[i]);
        for (s = 0; s < c->m.n_states; s++)
            if (l < c->n_labels && (c->masks[s] >> l & 1u)) proper_bitset_set(&(*aps)[i], s);
    }
    proper_intern_free(&names);
    return 0;
}

static void free_aps(proper_bitset *aps, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) proper_bitset_free(&aps[i]);
    free(aps);
}

/* P=? [text] from state s (NaN on error, printing it). */
static double prob_at(const lchain *c, const char *text, uint32_t s) {
    proper_ltl f;
    proper_bitset *aps;
    size_t n_aps;
    proper_error err;
    double *x = (double *)calloc(c->m.n_states, sizeof *x), v = NAN;
    if (setup(c, text, &f, &aps, &n_aps) == 0) {
        if (proper_ltl_prob(&c->m, &f, aps, n_aps, NULL, x, &err) == 0) v = x[s];
        else printf("  %s: %s\n", text, err.message);
        free_aps(aps, n_aps);
    }
    proper_ltl_free(&f);
    free(x);
    return v;
}

/* R{r}=? [text] from state s (NaN on error). */
static double reward_at(const lchain *c, size_t r, const char *text, uint32_t s) {
    proper_ltl f;
    proper_bitset *aps;
    size_t n_aps;
    proper_error err;
    double *x = (double *)calloc(c->m.n_states, sizeof *x), v = NAN;
    if (setup(c, text, &f, &aps, &n_aps) == 0) {
        if (proper_ltl_reward_cosafe(&c->m, &c->m.rewards[r], &f, aps, n_aps, NULL, x, &err) == 0) v = x[s];
        else printf("  %s: %s\n", text, err.message);
        free_aps(aps, n_aps);
    }
    proper_ltl_free(&f);
    free(x);
    return v;
}

/* ---- PRISM's regression suite ---------------------------------------------- */

/* prism-tests/functionality/verify/dtmcs/ltl/lec17dtmc.pm */
static void test_prism_lec17(void) {
    static const double P[36] = {0.6, 0.1, 0, 0.3, 0, 0,  0, 0, 0.5, 0.2, 0.3, 0,  0, 0, 0, 0, 0, 1,
                                 0, 0, 0, 0, 1, 0,       0, 0, 0, 1, 0, 0,        0, 0, 0.1, 0, 0, 0.9};
    /* a = s=2|s=3|s=5, b = s=1, then s=0, s=4, s=5, s<4 */
    static const char *const names[] = {"a", "b", "s0", "s4", "s5", "s_lt4"};
    static const unsigned masks[6] = {4 | 32, 2 | 32, 1 | 32, 1 | 32, 8, 1 | 16};
    lchain c;
    CHECK(build_dense(&c.m, P, 6) == 0);
    c.n_labels = 6, c.names = names, c.masks = masks;
    CHECK_ABS(prob_at(&c, "G F a", 0), 1, 1e-9);
    CHECK_ABS(prob_at(&c, "(G !b) & (G F a)", 0), 0.75, 1e-9);
    CHECK_ABS(prob_at(&c, "F G a", 0), 0.125, 1e-9);
    CHECK_ABS(prob_at(&c, "(G (b => (F (!b & a)))) & (F G !b)", 0), 1, 1e-9);
    CHECK_ABS(prob_at(&c, "true | (X a)", 0), 1, 0);
    /* P<=0 [ (s<4 U s=4) & (s=0 U s=4) ] is true */
    CHECK_ABS(prob_at(&c, "(s_lt4 U s4) & (s0 U s4)", 0), 0, 0);
    /* from lec17dtmc.pm.nonprob.props: A[...] true implies probability 1,
     * E[...] false probability 0 */
    CHECK_ABS(prob_at(&c, "(G F (s0 => !s0)) => (F (s4 | s5))", 0), 1, 1e-12);
    CHECK_ABS(prob_at(&c, "(G F (s0 => !s0)) => ((F s4) | (F s5))", 0), 1, 1e-12);
    CHECK(prob_at(&c, "(G F (s0 => !s0)) => ((F s4) & (F s5))", 0) < 1 - 1e-6);
    CHECK_ABS(prob_at(&c, "(F s4) & (F s5)", 0), 0, 0);
    /* A [ F (s=4 | s=5) ] is false (the path staying in s=0 exists) but has
     * probability 1: path quantifiers are not probabilities */
    CHECK_ABS(prob_at(&c, "F (s4 | s5)", 0), 1, 1e-12);
    proper_dtmc_free(&c.m);
}

/* prism-tests/functionality/verify/dtmcs/ltl/lec15dtmc.pm, with the
 * propositions s=2, s=3|s=4|s=5, s=3|s=4, s=5 */
static void test_prism_lec15(void) {
    static const double P[36] = {0, 0.5, 0, 0.5, 0, 0,  0.5, 0, 0.25, 0, 0.25, 0,  0, 0, 0, 0, 0, 1,
                                 0, 0, 0, 1, 0, 0,      0, 0, 0, 0, 1, 0,         0, 0, 1, 0, 0, 0};
    static const char *const names[] = {"s2", "s345", "s34", "s5"};
    static const unsigned masks[6] = {0, 0, 1, 6, 6, 2 | 8};
    lchain c;
    CHECK(build_dense(&c.m, P, 6) == 0);
    c.n_labels = 4, c.names = names, c.masks = masks;
    CHECK_ABS(prob_at(&c, "G F s345", 0), 1, 1e-9);
    CHECK_ABS(prob_at(&c, "G F s34", 0), 5.0 / 6, 1e-9);
    CHECK_ABS(prob_at(&c, "G F (s2 & (X s5))", 0), 1.0 / 6, 1e-9);
    CHECK_ABS(prob_at(&c, "G F (s2 & (X s5))", 1), 1.0 / 3, 1e-9);
    CHECK_ABS(prob_at(&c, "G F (s2 & (X s5))", 4), 0, 0);
    proper_dtmc_free(&c.m);
}

/* prism-tests/functionality/verify/dtmcs/ltl/jaeger.prism (states 1..13
 * as 0..12); the RESULT lines give the products of the branch
 * probabilities. */
static void test_prism_jaeger(void) {
    static const char *const names[] = {"o_110", "o_Pr0"};
    static const unsigned masks[13] = {0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 0, 2};
    static const struct { uint32_t from, to1, to2; double p1, p2; } rows[5] = {
        {0, 3, 4, 968.0 / 3276, 2308.0 / 3276}, {1, 5, 6, 122.0 / 261, 139.0 / 261},
        {3, 7, 8, 123.0 / 239, 116.0 / 239},    {5, 9, 10, 14.0 / 35, 21.0 / 35},
        {7, 11, 12, 14.0 / 32, 18.0 / 32}};
    double P[169] = {0};
    uint32_t s;
    int i;
    lchain c;
    for (s = 0; s < 13; s++) P[s * 13 + s] = 1;
    for (i = 0; i < 5; i++) {
        P[rows[i].from * 13 + rows[i].from] = 0;
        P[rows[i].from * 13 + rows[i].to1] = rows[i].p1;
        P[rows[i].from * 13 + rows[i].to2] = rows[i].p2;
    }
    CHECK(build_dense(&c.m, P, 13) == 0);
    c.n_labels = 2, c.names = names, c.masks = masks;
    CHECK_ABS(prob_at(&c, "( (X ( X  ( \"o_110\"))) &  (X ( X  ( X ( \"o_Pr0\"))))) ", 0), 2143152.0 / 25054848, 1e-12);
    CHECK_ABS(prob_at(&c, "(X ( X  ( \"o_110\")))", 0), 119064.0 / 782964, 1e-12);
    CHECK_ABS(prob_at(&c, "(X ( X  ( X ( \"o_Pr0\"))))", 0), 2143152.0 / 25054848, 1e-12);
    proper_dtmc_free(&c.m);
}

/* prism-tests/bugfixes/explicit-bscc-rabin.pm */
static void test_prism_bscc_rabin(void) {
    static const double P[4] = {0, 1, 0, 1};
    static const char *const names[] = {"s0", "s1"};
    static const unsigned masks[2] = {1, 2};
    lchain c;
    CHECK(build_dense(&c.m, P, 2) == 0);
    c.n_labels = 2, c.names = names, c.masks = masks;
    CHECK_ABS(prob_at(&c, "(G s0) | (F G s1)", 0), 1, 0);
    proper_dtmc_free(&c.m);
}

/* prism-tests/functionality/verify/dtmcs/rewards/dtmc_rewards.pm with the
 * co-safe properties of dtmc_rewards.pm.cosafety.props: s goes 0 1 2 3 3 ...;
 * reward "a": states 2, 5, 11 at s=0,1,2 and transitions 3, 7 out of s=0,1;
 * reward "b" adds 13 on the s=3 self-loop and 17 at s=3. */
static void test_prism_cosafe_rewards(void) {
    static const double P[16] = {0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1};
    static const char *const names[] = {"s0", "s1", "s2", "s3"};
    static const unsigned masks[4] = {1, 2, 4, 8};
    proper_error err;
    size_t ra, rb;
    lchain c;
    CHECK(build_dense(&c.m, P, 4) == 0);
    c.n_labels = 4, c.names = names, c.masks = masks;
    CHECK(proper_dtmc_add_reward(&c.m, "a", 1, 1, &ra, &err) == 0);
    CHECK(proper_dtmc_add_reward(&c.m, "b", 1, 1, &rb, &err) == 0);
    proper_dtmc_reward_add_state(&c.m, ra, 0, 2, &err);
    proper_dtmc_reward_add_trans(&c.m, ra, 0, 1, 3, &err);
    proper_dtmc_reward_add_state(&c.m, ra, 1, 5, &err);
    proper_dtmc_reward_add_trans(&c.m, ra, 1, 2, 7, &err);
    proper_dtmc_reward_add_state(&c.m, ra, 2, 11, &err);
    proper_dtmc_reward_add_state(&c.m, rb, 0, 2, &err);
    proper_dtmc_reward_add_trans(&c.m, rb, 0, 1, 3, &err);
    proper_dtmc_reward_add_state(&c.m, rb, 1, 5, &err);
    proper_dtmc_reward_add_trans(&c.m, rb, 1, 2, 7, &err);
    proper_dtmc_reward_add_state(&c.m, rb, 2, 11, &err);
    proper_dtmc_reward_add_trans(&c.m, rb, 3, 3, 13, &err);
    proper_dtmc_reward_add_state(&c.m, rb, 3, 17, &err);
    CHECK_ABS(reward_at(&c, ra, "true", 0), 0, 0);
    CHECK_ABS(reward_at(&c, ra, "!false", 0), 0, 0);
    CHECK_ABS(reward_at(&c, ra, "s0", 0), 0, 0);
    CHECK_ABS(reward_at(&c, ra, "F s0", 0), 0, 0);
    CHECK_ABS(reward_at(&c, ra, "F s1", 0), 5, 1e-12);
    CHECK_ABS(reward_at(&c, ra, "F s2", 0), 17, 1e-12);
    CHECK_ABS(reward_at(&c, ra, "F s3", 0), 28, 1e-12);
    CHECK_ABS(reward_at(&c, ra, "X true", 0), 5, 1e-12);
    CHECK(isinf(reward_at(&c, ra, "! (X true)", 0)));
    CHECK_ABS(reward_at(&c, ra, "! (X false)", 0), 5, 1e-12);
    CHECK_ABS(reward_at(&c, ra, "X X true", 0), 17, 1e-12);
    CHECK_ABS(reward_at(&c, ra, "X X X true", 0), 28, 1e-12);
    CHECK(isinf(reward_at(&c, ra, "X X X false", 0)));
    CHECK_ABS(reward_at(&c, ra, "(X X true) U s0", 0), 0, 0);
    CHECK_ABS(reward_at(&c, ra, "(X X true) U s1", 0), 17, 1e-12);
    CHECK_ABS(reward_at(&c, ra, "(X X true) U s2", 0), 28, 1e-12);
    CHECK_ABS(reward_at(&c, ra, "(X X true) U s3", 0), 28, 1e-12);
    CHECK_ABS(reward_at(&c, rb, "(X X true) U s3", 0), 58, 1e-12);
    CHECK_ABS(reward_at(&c, ra, "s0 | (X true)", 0), 0, 0);
    proper_dtmc_free(&c.m);
}

/* prism-tests/functionality/verify/dtmcs/rewards/cosafe/robot.pm, reward
 * "time" 1 per step; "Error:co-safe" cases are refused. */
static void test_prism_robot(void) {
    static const double P[36] = {0, 0.1, 0, 0.8, 0.1, 0,  0, 0, 1, 0, 0, 0,  0, 0, 1, 0, 0, 0,
                                 0, 0, 0, 1, 0, 0,       0, 0, 0, 0, 0, 1,  0, 0, 0.9, 0, 0, 0.1};
    static const char *const names[] = {"hazard", "goal1", "goal2", "s3"};
    static const unsigned masks[6] = {0, 1, 4, 4 | 8, 0, 2};
    proper_error err;
    proper_ltl f;
    proper_bitset *aps;
    size_t n_aps, r, s;
    double x[6];
    lchain c;
    CHECK(build_dense(&c.m, P, 6) == 0);
    c.n_labels = 4, c.names = names, c.masks = masks;
    CHECK(proper_dtmc_add_reward(&c.m, "time", 1, 0, &r, &err) == 0);
    for (s = 0; s < 6; s++) proper_dtmc_reward_add_state(&c.m, r, (uint32_t)s, 1, &err);
    CHECK_ABS(reward_at(&c, r, "(F goal1) | (F goal2)", 0), 1.2, 1e-12);
    CHECK_ABS(reward_at(&c, r, "X F (goal1 | goal2)", 0), 1.2, 1e-12);
    CHECK_ABS(reward_at(&c, r, "F X (goal1 | goal2)", 0), 1.2, 1e-12);
    CHECK_ABS(reward_at(&c, r, "X X (goal1 | goal2)", 0), 2, 1e-12);
    CHECK(isinf(reward_at(&c, r, "X X goal2", 0)));
    CHECK_ABS(reward_at(&c, r, "F goal2", 0), 118.0 / 90, 1e-12);
    CHECK_ABS(reward_at(&c, r, "!s3 U goal2", 0), 118.0 / 90, 1e-12);
    CHECK(setup(&c, "(G !hazard) & (G F goal1)", &f, &aps, &n_aps) == 0);
    CHECK_INT(proper_ltl_reward_cosafe(&c.m, &c.m.rewards[r], &f, aps, n_aps, NULL, x, &err), PROPER_EUNSUPPORTED);
    CHECK_CONTAINS(err.message, "not co-safe");
    free_aps(aps, n_aps);
    proper_ltl_free(&f);
    proper_dtmc_free(&c.m);
}

/* A chain with three bottom components ({3,4}, {5}, {6,7}) and transient
 * states 0-2, checked against PRISM 4.10.2-dev in every state:
 *     prism m8.pm m8.props -ex -epsilon 1e-13 -maxiters 1000000
 * with m8.pm the PRISM-language form of P, labels and reward below, and
 * each property written filter(print, P=? [ ... ]) (states not printed
 * have the value 0). */
static const double m8_P[64] = {
    0.1, 0.3, 0.2, 0.4, 0, 0, 0, 0,   0.4, 0, 0, 0, 0.3, 0, 0.3, 0,   0, 0, 0.5, 0, 0, 0.25, 0, 0.25,
    0, 0, 0, 0.6, 0.4, 0, 0, 0,       0, 0, 0, 0.5, 0.5, 0, 0, 0,     0, 0, 0, 0, 0, 1, 0, 0,
    0, 0, 0, 0, 0, 0, 0.5, 0.5,       0, 0, 0, 0, 0, 0, 1, 0};
static const char *const m8_names[] = {"a", "b", "c"};
static const unsigned m8_masks[8] = {1, 2, 1, 1, 2 | 4, 4, 1, 2 | 4};

static const struct {
    int reward;
    const char *formula;
    double x[8];
} m8_prism[] = {
    {0, "G F b", {0.8717948717948398, 0.9487179487179227, 0.5, 1.0, 1.0, 0, 1.0, 1.0}},
    {0, "F G a", {0, 0, 0, 0, 0, 0, 0, 0}},
    {0, "G (a=>(X (b U c)))", {0, 0, 0.25, 0, 0, 1.0, 0, 0}},
    {0, "(a U b) U c", {0.8717948717948398, 0.9487179487179227, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0}},
    {0, "a W b", {0.8888888888888888, 1.0, 0.5, 1.0, 1.0, 0, 1.0, 1.0}},
    {0, "b R a", {0, 0, 0, 0, 0, 0, 0, 0}},
    {0, "(G F a)&(F G !c)", {0, 0, 0, 0, 0, 0, 0, 0}},
    {0, "(X X b)|(G F c)", {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
    {0, "G (b=>(F a))", {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
    {0, "G (b=>(X a))", {0.3717948717948606, 0.4487179487179376, 1.0, 0, 0, 1.0, 1.0, 1.0}},
    {0, "F G (a|c)", {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
    {0, "(G F b)=>(G F c)", {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
    {0, "(a U b) W c", {0.8717948717948303, 0.9487179487179065, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0}},
    {0, "G ((a&(X b))=>(X X a))", {0.3717948717948606, 0.4487179487179376, 1.0, 0, 0, 1.0, 1.0, 1.0}},
    {0, "F (a&(X (b&(X c))))", {0.6282051282051145, 0.5512820512820324, 0, 1.0, 1.0, 0, 0, 0}},
    {0, "!(a U c)<=>(F G b)", {0.6666666666666667, 0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
    {1, "F c", {6.705128205128123, 5.282051282051164, 6.0, 1.875, 0, 0, 2.0, 0}},
    {1, "a U b", {INFINITY, 0, INFINITY, 1.875, 0, INFINITY, 2.0, 0}},
    {1, "F (b&(X c))", {INFINITY, INFINITY, INFINITY, 11.749999999997755, 9.874999999998664, INFINITY, INFINITY, INFINITY}},
    {1, "X X a", {INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY}},
    {1, "(F b)&(F c)", {INFINITY, 5.282051282051164, INFINITY, 1.875, 0, INFINITY, 2.0, 0}},
    {1, "F (a&(X b))", {INFINITY, INFINITY, INFINITY, 1.875, 9.875, INFINITY, 2.0, 2.0}},
    {1, "(X a) U c", {INFINITY, INFINITY, INFINITY, INFINITY, 0, 0, INFINITY, 0}},
    {1, "!c U (b|(X b))", {INFINITY, 0, INFINITY, 1.875, 0, INFINITY, 2.0, 0}},
};

/* m8 with reward "r": states 1, 2, 3, 0.5, 4 at s=0..4 and 1 at s=6, and
 * 1.5 on every transition out of s=0, 0.25 out of s=3. */
static int m8_build(lchain *c, size_t *r) {
    static const double state_reward[8] = {1, 2, 3, 0.5, 4, 0, 1, 0};
    proper_error err;
    uint32_t s, t;
    int rc = build_dense(&c->m, m8_P, 8);
    c->n_labels = 3, c->names = m8_names, c->masks = m8_masks;
    if (rc || (rc = proper_dtmc_add_reward(&c->m, "r", 1, 1, r, &err))) return rc;
    for (s = 0; s < 8; s++) proper_dtmc_reward_add_state(&c->m, *r, s, state_reward[s], &err);
    for (t = 0; t < 8; t++) {
        if (m8_P[t] != 0) proper_dtmc_reward_add_trans(&c->m, *r, 0, t, 1.5, &err);
        if (m8_P[3 * 8 + t] != 0) proper_dtmc_reward_add_trans(&c->m, *r, 3, t, 0.25, &err);
    }
    return 0;
}

static void test_prism_m8(void) {
    lchain c;
    size_t r, i;
    uint32_t s;
    CHECK(m8_build(&c, &r) == 0);
    for (i = 0; i < sizeof m8_prism / sizeof m8_prism[0]; i++) {
        for (s = 0; s < 8; s++) {
            double v = m8_prism[i].reward ? reward_at(&c, r, m8_prism[i].formula, s) : prob_at(&c, m8_prism[i].formula, s);
            if (isinf(m8_prism[i].x[s])) {
                CHECK(isinf(v) && v > 0);
            } else if (fabs(v - m8_prism[i].x[s]) > 1e-9 * (1 + fabs(m8_prism[i].x[s]))) {
                printf("  %s from state %u: %.17g, PRISM %.17g\n", m8_prism[i].formula, (unsigned)s, v, m8_prism[i].x[s]);
                CHECK(0);
            }
        }
    }
    proper_dtmc_free(&c.m);
}

/* ---- random chains and formulas ---------------------------------------------- */

/* A random chain of n states: each state gets 1..3 successors with random
 * weights (deterministic = exactly one); two propositions a, b at random. */
static void random_chain(lchain *c, uint32_t n, int deterministic, proper_rng *rng, unsigned *masks) {
    static const char *const names[] = {"a", "b"};
    double P[64] = {0};
    uint32_t s;
    for (s = 0; s < n; s++) {
        int k = deterministic ? 1 : 1 + (int)proper_rng_below(rng, 3), j;
        double total = 0;
        for (j = 0; j < k; j++) {
            uint32_t t = (uint32_t)proper_rng_below(rng, n);
            double w = 0.1 + proper_rng_uniform(rng);
            P[s * n + t] += w;
        }
        for (j = 0; j < (int)n; j++) total += P[s * n + j];
        for (j = 0; j < (int)n; j++) P[s * n + j] /= total;
        masks[s] = (unsigned)proper_rng_below(rng, 4);
    }
    build_dense(&c->m, P, n);
    c->n_labels = 2, c->names = names, c->masks = masks;
}

/* A random formula over propositions 0 and 1 into f (root = result);
 * bounded_only: every F G U W R gets a finite upper bound. */
static uint32_t random_formula(proper_ltl *f, int depth, int bounded_only, proper_rng *rng) {
    static const proper_ltl_op ops[] = {PROPER_LTL_NOT, PROPER_LTL_AND, PROPER_LTL_OR, PROPER_LTL_IMPLIES,
                                        PROPER_LTL_IFF, PROPER_LTL_NEXT, PROPER_LTL_UNTIL, PROPER_LTL_WEAK_UNTIL,
                                        PROPER_LTL_RELEASE, PROPER_LTL_EVENTUALLY, PROPER_LTL_ALWAYS};
    proper_error err;
    uint32_t l, r = PROPER_LTL_NONE, out = 0;
    proper_ltl_op op;
    unsigned long lo = 0, hi = PROPER_LTL_UNBOUNDED;
    if (depth == 0 || proper_rng_below(rng, 4) == 0) {
        uint64_t k = proper_rng_below(rng, 8);
        if (k == 7) proper_ltl_add(f, PROPER_LTL_TRUE, PROPER_LTL_NONE, PROPER_LTL_NONE, &out, &err);
        else proper_ltl_add_ap(f, (uint32_t)(k & 1), &out, &err);
        return out;
    }
    op = ops[proper_rng_below(rng, sizeof ops / sizeof ops[0])];
    l = random_formula(f, depth - 1, bounded_only, rng);
    if (op != PROPER_LTL_NOT && op != PROPER_LTL_NEXT && op != PROPER_LTL_EVENTUALLY && op != PROPER_LTL_ALWAYS)
        r = random_formula(f, depth - 1, bounded_only, rng);
    if (op >= PROPER_LTL_UNTIL) {
        uint64_t kind = proper_rng_below(rng, bounded_only ? 2 : 4);
        lo = kind == 1 ? (unsigned long)proper_rng_below(rng, 3) : 0;
        hi = kind <= 1 ? lo + (unsigned long)proper_rng_below(rng, 3) : PROPER_LTL_UNBOUNDED;
        if (kind == 3) lo = (unsigned long)proper_rng_below(rng, 3);
    }
    proper_ltl_add_bounded(f, op, l, r, lo, hi, &out, &err);
    return out;
}

/* ---- an independent semantics for deterministic chains --------------------
 * In a chain where every state has one successor, the path from a state
 * is determined by the state, so every formula denotes a set of states:
 * sat[] below, computed from the definitions by fixpoints on succ. */
static void det_eval(const proper_ltl *f, uint32_t i, const uint32_t *succ, const unsigned *masks, uint32_t n,
                     unsigned char *sat /* n per node */) {
    const proper_ltl_node *nd = &f->nodes[i];
    unsigned char *out = sat + (size_t)i * n, *a = NULL, *b = NULL, *cur, *next;
    uint32_t s;
    unsigned long j, iter;
    if (nd->left != PROPER_LTL_NONE) a = sat + (size_t)nd->left * n;
    if (nd->right != PROPER_LTL_NONE) b = sat + (size_t)nd->right * n;
    cur = (unsigned char *)calloc(n, 1);
    next = (unsigned char *)calloc(n, 1);
    for (s = 0; s < n; s++) {
        switch (nd->op) {
        case PROPER_LTL_TRUE: out[s] = 1; break;
        case PROPER_LTL_FALSE: out[s] = 0; break;
        case PROPER_LTL_AP: out[s] = (unsigned char)(masks[s] >> nd->ap & 1u); break;
        case PROPER_LTL_NOT: out[s] = !a[s]; break;
        case PROPER_LTL_AND: out[s] = a[s] && b[s]; break;
        case PROPER_LTL_OR: out[s] = a[s] || b[s]; break;
        case PROPER_LTL_IMPLIES: out[s] = !a[s] || b[s]; break;
        case PROPER_LTL_IFF: out[s] = a[s] == b[s]; break;
        case PROPER_LTL_NEXT: out[s] = a[succ[s]]; break;
        default: break;
        }
    }
    if (nd->op >= PROPER_LTL_UNTIL) {
        /* phi = the "until" part, after the dualities of the header:
         *   U: (a, b)   F: (true, a)   G: !(true U !a)   W: !((!b) U (!a & !b))   R: !((!a) U !b) */
        unsigned char *ua = (unsigned char *)calloc(n, 1), *ub = (unsigned char *)calloc(n, 1);
        int negate = nd->op == PROPER_LTL_ALWAYS || nd->op == PROPER_LTL_WEAK_UNTIL || nd->op == PROPER_LTL_RELEASE;
        for (s = 0; s < n; s++) {
            switch (nd->op) {
            case PROPER_LTL_UNTIL: ua[s] = a[s], ub[s] = b[s]; break;
            case PROPER_LTL_EVENTUALLY: ua[s] = 1, ub[s] = a[s]; break;
            case PROPER_LTL_ALWAYS: ua[s] = 1, ub[s] = !a[s]; break;
            case PROPER_LTL_WEAK_UNTIL: ua[s] = !b[s], ub[s] = !a[s] && !b[s]; break;
            default: ua[s] = !a[s], ub[s] = !b[s]; break;
            }
        }
        if (nd->lo > nd->hi) {
            memset(cur, 0, n);
        } else {
            /* cur = ua U[0, hi-lo] ub: iterate cur = ub | (ua & X cur), hi-lo
             * times, or n+1 times from false for the least fixpoint */
            unsigned long width = nd->hi == PROPER_LTL_UNBOUNDED ? PROPER_LTL_UNBOUNDED : nd->hi - nd->lo;
            memcpy(cur, ub, n);
            iter = width == PROPER_LTL_UNBOUNDED ? n + 1 : width;
            for (j = 0; j < iter; j++) {
                for (s = 0; s < n; s++) next[s] = ub[s] || (ua[s] && cur[succ[s]]);
                memcpy(cur, next, n);
            }
            /* then lo steps of "ua now and the rest from the next state" */
            for (j = 0; j < nd->lo; j++) {
                for (s = 0; s < n; s++) next[s] = ua[s] && cur[succ[s]];
                memcpy(cur, next, n);
            }
        }
        for (s = 0; s < n; s++) out[s] = negate ? !cur[s] : cur[s];
        free(ua);
        free(ub);
    }
    free(cur);
    free(next);
}

static void test_deterministic_semantics(void) {
    proper_rng rng;
    int round;
    proper_rng_seed(&rng, 15);
    for (round = 0; round < 300; round++) {
        lchain c;
        unsigned masks[8];
        uint32_t n = 2 + (uint32_t)proper_rng_below(&rng, 5), s, succ[8];
        proper_ltl f;
        proper_bitset aps[2];
        proper_error err;
        double x[8], y[8];
        unsigned char *sat;
        size_t i;
        random_chain(&c, n, 1, &rng, masks);
        for (s = 0; s < n; s++) succ[s] = c.m.col[c.m.row[s]];
        proper_ltl_init(&f);
        random_formula(&f, 4, 0, &rng);
        for (i = 0; i < 2; i++) {
            proper_bitset_init(&aps[i]);
            proper_bitset_create(&aps[i], n, &err);
            for (s = 0; s < n; s++)
                if (masks[s] >> i & 1u) proper_bitset_set(&aps[i], s);
        }
        sat = (unsigned char *)calloc(f.len * n, 1);
        for (i = 0; i < f.len; i++) det_eval(&f, (uint32_t)i, succ, masks, n, sat);
        CHECK(proper_ltl_prob(&c.m, &f, aps, 2, NULL, x, &err) == 0);
        for (s = 0; s < n; s++) CHECK_ABS(x[s], sat[(size_t)f.root * n + s], 1e-12);
        if (proper_ltl_is_cosafe(&f)) {
            CHECK(proper_ltl_prob_cosafe(&c.m, &f, aps, 2, NULL, y, NULL, &err) == 0);
            for (s = 0; s < n; s++) CHECK_ABS(y[s], sat[(size_t)f.root * n + s], 1e-12);
        }
        {
            proper_bitset out;
            proper_bitset_init(&out);
            int rc = proper_ltl_exists(&c.m, &f, aps, 2, NULL, &out, NULL, &err);
            CHECK(rc == 0 || rc == PROPER_ELIMIT); /* a tableau of up to 2^20 value masks per state may not fit */
            for (s = 0; s < n && out.n; s++) CHECK_INT(PROPER_BITSET_GET(&out, s), sat[(size_t)f.root * n + s]);
            proper_bitset_free(&out);
        }
        if (test__checks_failed) {
            proper_strbuf b;
            proper_strbuf_init(&b);
            proper_ltl_format(&f, &b, m8_names, 2, &err);
            printf("  round %d: %s on %u states\n", round, b.data, (unsigned)n);
            proper_strbuf_free(&b);
            round = 1000;
        }
        free(sat);
        proper_bitset_free(&aps[0]);
        proper_bitset_free(&aps[1]);
        proper_ltl_free(&f);
        proper_dtmc_free(&c.m);
    }
}

/* ---- bounded formulas by path enumeration ------------------------------------ */

/* Steps of the path a formula with finite windows looks at beyond the
 * current one. */
static unsigned long horizon(const proper_ltl *f, uint32_t i) {
    const proper_ltl_node *nd = &f->nodes[i];
    unsigned long l = nd->left != PROPER_LTL_NONE ? horizon(f, nd->left) : 0;
    unsigned long r = nd->right != PROPER_LTL_NONE ? horizon(f, nd->right) : 0;
    unsigned long m = l > r ? l : r;
    if (nd->op == PROPER_LTL_NEXT) return m + 1;
    if (nd->op >= PROPER_LTL_UNTIL) return m + (nd->lo > nd->hi ? 0 : nd->hi);
    return m;
}

/* Truth of node i at position pos of the finite path (long enough), from
 * the definitions: some / every step j of the window. */
static int path_eval(const proper_ltl *f, uint32_t i, const uint32_t *path, size_t pos, const unsigned *masks) {
    const proper_ltl_node *nd = &f->nodes[i];
    unsigned long j, k;
    switch (nd->op) {
    case PROPER_LTL_TRUE: return 1;
    case PROPER_LTL_FALSE: return 0;
    case PROPER_LTL_AP: return (int)(masks[path[pos]] >> nd->ap & 1u);
    case PROPER_LTL_NOT: return !path_eval(f, nd->left, path, pos, masks);
    case PROPER_LTL_AND: return path_eval(f, nd->left, path, pos, masks) && path_eval(f, nd->right, path, pos, masks);
    case PROPER_LTL_OR: return path_eval(f, nd->left, path, pos, masks) || path_eval(f, nd->right, path, pos, masks);
    case PROPER_LTL_IMPLIES: return !path_eval(f, nd->left, path, pos, masks) || path_eval(f, nd->right, path, pos, masks);
    case PROPER_LTL_IFF: return path_eval(f, nd->left, path, pos, masks) == path_eval(f, nd->right, path, pos, masks);
    case PROPER_LTL_NEXT: return path_eval(f, nd->left, path, pos + 1, masks);
    case PROPER_LTL_EVENTUALLY:
        for (j = nd->lo; j <= nd->hi; j++)
            if (path_eval(f, nd->left, path, pos + j, masks)) return 1;
        return 0;
    case PROPER_LTL_ALWAYS:
        for (j = nd->lo; j <= nd->hi; j++)
            if (!path_eval(f, nd->left, path, pos + j, masks)) return 0;
        return 1;
    case PROPER_LTL_UNTIL: /* some j in the window has b, every k < j has a */
        for (j = nd->lo; j <= nd->hi; j++) {
            int ok = path_eval(f, nd->right, path, pos + j, masks);
            for (k = 0; k < j && ok; k++) ok = path_eval(f, nd->left, path, pos + k, masks);
            if (ok) return 1;
        }
        return 0;
    case PROPER_LTL_WEAK_UNTIL: /* not: some j has !a & !b and every k < j has !b */
        for (j = nd->lo; j <= nd->hi; j++) {
            int ok = !path_eval(f, nd->left, path, pos + j, masks) && !path_eval(f, nd->right, path, pos + j, masks);
            for (k = 0; k < j && ok; k++) ok = !path_eval(f, nd->right, path, pos + k, masks);
            if (ok) return 0;
        }
        return 1;
    default: /* RELEASE, not: some j has !b and every k < j has !a */
        for (j = nd->lo; j <= nd->hi; j++) {
            int ok = !path_eval(f, nd->right, path, pos + j, masks);
            for (k = 0; k < j && ok; k++) ok = !path_eval(f, nd->left, path, pos + k, masks);
            if (ok) return 0;
        }
        return 1;
    }
}

/* Sum of the probabilities of the paths of `len` states from path[0..pos]
 * on which the formula holds. */
static double enumerate(const lchain *c, const proper_ltl *f, uint32_t *path, size_t pos, size_t len, double p) {
    double sum = 0;
    uint64_t t;
    if (pos + 1 == len) return path_eval(f, f->root, path, 0, c->masks) ? p : 0;
    for (t = c->m.row[path[pos]]; t < c->m.row[path[pos] + 1]; t++) {
        path[pos + 1] = c->m.col[t];
        sum += enumerate(c, f, path, pos + 1, len, p * c->m.prob[t]);
    }
    return sum;
}

static void make_aps(const lchain *c, proper_bitset *aps) {
    proper_error err;
    uint32_t s;
    size_t i;
    for (i = 0; i < 2; i++) {
        proper_bitset_init(&aps[i]);
        proper_bitset_create(&aps[i], c->m.n_states, &err);
        for (s = 0; s < c->m.n_states; s++)
            if (c->masks[s] >> i & 1u) proper_bitset_set(&aps[i], s);
    }
}

static void print_formula(const proper_ltl *f, int round) {
    proper_strbuf b;
    proper_error err;
    proper_strbuf_init(&b);
    proper_ltl_format(f, &b, m8_names, 2, &err);
    printf("  round %d: %s\n", round, b.data);
    proper_strbuf_free(&b);
}

static void test_bounded_paths(void) {
    proper_rng rng;
    int round, checked = 0;
    proper_rng_seed(&rng, 1995);
    for (round = 0; round < 200 && !test__checks_failed; round++) {
        lchain c;
        unsigned masks[8];
        uint32_t n = 2 + (uint32_t)proper_rng_below(&rng, 4), s, path[64];
        proper_ltl f;
        proper_bitset aps[2];
        proper_error err;
        double x[8], y[8];
        unsigned long h;
        random_chain(&c, n, 0, &rng, masks);
        proper_ltl_init(&f);
        random_formula(&f, 3, 1, &rng);
        h = horizon(&f, f.root);
        make_aps(&c, aps);
        if (h <= 9) {
            checked++;
            CHECK(proper_ltl_prob(&c.m, &f, aps, 2, NULL, x, &err) == 0);
            CHECK(proper_ltl_prob_cosafe(&c.m, &f, aps, 2, NULL, y, NULL, &err) == 0);
            for (s = 0; s < n; s++) {
                double expected;
                path[0] = s;
                expected = enumerate(&c, &f, path, 0, h + 1, 1);
                CHECK_ABS(x[s], expected, 1e-12);
                CHECK_ABS(y[s], expected, 1e-12);
            }
            if (test__checks_failed) print_formula(&f, round);
        }
        proper_bitset_free(&aps[0]);
        proper_bitset_free(&aps[1]);
        proper_ltl_free(&f);
        proper_dtmc_free(&c.m);
    }
    CHECK(checked > 100);
}

/* ---- the two routes, complements, PCTL --------------------------------------- */

/* On co-safe formulas the refinement and the automaton product agree; for
 * every formula P(f) + P(!f) = 1. */
static void test_routes_agree(void) {
    proper_rng rng;
    int round, cosafe = 0;
    proper_rng_seed(&rng, 4242);
    for (round = 0; round < 400 && !test__checks_failed; round++) {
        lchain c;
        unsigned masks[8];
        uint32_t n = 2 + (uint32_t)proper_rng_below(&rng, 6), s, neg;
        proper_ltl f;
        proper_bitset aps[2];
        proper_error err;
        double x[8], y[8], z[8];
        random_chain(&c, n, 0, &rng, masks);
        proper_ltl_init(&f);
        random_formula(&f, 4, 0, &rng);
        make_aps(&c, aps);
        CHECK(proper_ltl_prob(&c.m, &f, aps, 2, NULL, x, &err) == 0);
        if (proper_ltl_is_cosafe(&f)) {
            cosafe++;
            CHECK(proper_ltl_prob_cosafe(&c.m, &f, aps, 2, NULL, y, NULL, &err) == 0);
            for (s = 0; s < n; s++) CHECK_ABS(x[s], y[s], 1e-9);
        }
        proper_ltl_add(&f, PROPER_LTL_NOT, f.root, PROPER_LTL_NONE, &neg, &err);
        CHECK(proper_ltl_prob(&c.m, &f, aps, 2, NULL, z, &err) == 0);
        for (s = 0; s < n; s++) CHECK_ABS(x[s] + z[s], 1, 1e-9);
        if (test__checks_failed) print_formula(&f, round);
        proper_bitset_free(&aps[0]);
        proper_bitset_free(&aps[1]);
        proper_ltl_free(&f);
        proper_dtmc_free(&c.m);
    }
    CHECK(cosafe > 50);
}

/* Formulas that are PCTL path formulas agree with dtmc.h's solvers. */
static void test_pctl_agreement(void) {
    lchain c;
    size_t r;
    proper_bitset aps[3];
    proper_error err;
    double y[8];
    uint32_t s;
    size_t i;
    CHECK(m8_build(&c, &r) == 0);
    for (i = 0; i < 3; i++) {
        proper_bitset_init(&aps[i]);
        proper_bitset_create(&aps[i], 8, &err);
        for (s = 0; s < 8; s++)
            if (m8_masks[s] >> i & 1u) proper_bitset_set(&aps[i], s);
    }
    proper_dtmc_prob_until(&c.m, &aps[0], &aps[1], NULL, y, NULL, &err);
    for (s = 0; s < 8; s++) CHECK_ABS(prob_at(&c, "a U b", s), y[s], 1e-12);
    proper_dtmc_prob_until(&c.m, NULL, &aps[2], NULL, y, NULL, &err);
    for (s = 0; s < 8; s++) CHECK_ABS(prob_at(&c, "F c", s), y[s], 1e-12);
    for (s = 0; s < 8; s++) CHECK_ABS(prob_at(&c, "G !c", s), 1 - y[s], 1e-12);
    proper_dtmc_prob_bounded_until(&c.m, &aps[0], &aps[2], 7, y, &err);
    for (s = 0; s < 8; s++) CHECK_ABS(prob_at(&c, "a U<=7 c", s), y[s], 1e-12);
    /* a U>=2 b: a at steps 0 and 1, then a U b from step 2 */
    proper_dtmc_prob_until(&c.m, &aps[0], &aps[1], NULL, y, NULL, &err);
    for (s = 0; s < 8; s++) {
        double expected = 0;
        uint64_t t, u;
        if (m8_masks[s] & 1u)
            for (t = c.m.row[s]; t < c.m.row[s + 1]; t++) {
                uint32_t s1 = c.m.col[t];
                if (!(m8_masks[s1] & 1u)) continue;
                for (u = c.m.row[s1]; u < c.m.row[s1 + 1]; u++) expected += c.m.prob[t] * c.m.prob[u] * y[c.m.col[u]];
            }
        CHECK_ABS(prob_at(&c, "a U>=2 b", s), expected, 1e-12);
    }
    /* co-safe reward of F c is R[F c] */
    proper_dtmc_reward_reach(&c.m, &c.m.rewards[r], &aps[2], NULL, y, NULL, &err);
    for (s = 0; s < 8; s++) CHECK_ABS(reward_at(&c, r, "F c", s), y[s], 1e-12);
    for (i = 0; i < 3; i++) proper_bitset_free(&aps[i]);
    proper_dtmc_free(&c.m);
}

/* ---- text, errors and limits ---------------------------------------------------- */

static void test_format_round_trip(void) {
    static const char *const texts[] = {
        "G F a", "a U<=3 b", "F[2,5] (a & (X b))", "a W>=2 b", "!(a R=4 b) <=> (G<2 a)", "X X !a | b",
        "\"x y\" U (true => false)", "F>3 G a", "a U b U c",
    };
    size_t i;
    for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        proper_intern names;
        proper_ltl f, g;
        proper_strbuf b1, b2;
        proper_error err;
        proper_intern_init(&names);
        proper_ltl_init(&f);
        proper_ltl_init(&g);
        proper_strbuf_init(&b1);
        proper_strbuf_init(&b2);
        CHECK(proper_ltl_parse(&f, texts[i], strlen(texts[i]), "t", &names, &err) == 0);
        CHECK(proper_ltl_format(&f, &b1, (const char *const *)names.names, names.len, &err) == 0);
        CHECK(proper_ltl_parse(&g, b1.data, b1.len, "t", &names, &err) == 0);
        CHECK(proper_ltl_format(&g, &b2, (const char *const *)names.names, names.len, &err) == 0);
        CHECK_STR(b2.data, b1.data);
        CHECK_INT(g.len, f.len);
        proper_strbuf_free(&b1);
        proper_strbuf_free(&b2);
        proper_ltl_free(&f);
        proper_ltl_free(&g);
        proper_intern_free(&names);
    }
}

/* Bounds and precedence as PRISM reads them. */
static void test_parse_meaning(void) {
    proper_intern names;
    proper_ltl f;
    proper_error err;
    proper_intern_init(&names);
    proper_ltl_init(&f);
    CHECK(proper_ltl_parse(&f, "F<3 a", 5, "t", &names, &err) == 0);
    CHECK(f.nodes[f.root].lo == 0 && f.nodes[f.root].hi == 2);
    CHECK(proper_ltl_parse(&f, "G>3 a", 5, "t", &names, &err) == 0);
    CHECK(f.nodes[f.root].lo == 4 && f.nodes[f.root].hi == PROPER_LTL_UNBOUNDED);
    CHECK(proper_ltl_parse(&f, "a U=2 b", 7, "t", &names, &err) == 0);
    CHECK(f.nodes[f.root].lo == 2 && f.nodes[f.root].hi == 2);
    CHECK(proper_ltl_parse(&f, "F<0 a", 5, "t", &names, &err) == 0);
    CHECK(f.nodes[f.root].lo > f.nodes[f.root].hi);
    /* G F a | b is G (F (a | b)); a U b U c is a U (b U c) */
    CHECK(proper_ltl_parse(&f, "G F a | b", 9, "t", &names, &err) == 0);
    CHECK(f.nodes[f.root].op == PROPER_LTL_ALWAYS && f.nodes[f.nodes[f.root].left].op == PROPER_LTL_EVENTUALLY);
    CHECK(proper_ltl_parse(&f, "a U b U c", 9, "t", &names, &err) == 0);
    CHECK(f.nodes[f.root].op == PROPER_LTL_UNTIL && f.nodes[f.nodes[f.root].right].op == PROPER_LTL_UNTIL);
    CHECK(proper_ltl_is_cosafe(&f));
    CHECK(proper_ltl_parse(&f, "!(G a) & (F<=2 G<=3 b)", 22, "t", &names, &err) == 0);
    CHECK(proper_ltl_is_cosafe(&f));
    CHECK(proper_ltl_parse(&f, "!(F a)", 6, "t", &names, &err) == 0);
    CHECK(!proper_ltl_is_cosafe(&f));
    CHECK(proper_ltl_parse(&f, "a W b", 5, "t", &names, &err) == 0);
    CHECK(!proper_ltl_is_cosafe(&f));
    CHECK(proper_ltl_parse(&f, "!(a W b)", 8, "t", &names, &err) == 0);
    CHECK(proper_ltl_is_cosafe(&f));
    proper_ltl_free(&f);
    proper_intern_free(&names);
}

static void test_parse_errors(void) {
    static const struct {
        const char *text;
        int code, line, col;
        const char *message;
    } cases[] = {
        {"a U", PROPER_EPARSE, 1, 4, "expected a proposition"},
        {"F<=x a", PROPER_EPARSE, 1, 4, "expected a step count"},
        {"(a & b", PROPER_EPARSE, 1, 7, "expected ')'"},
        {"a b", PROPER_EPARSE, 1, 3, "expected an operator or the end"},
        {"F \"a", PROPER_EPARSE, 1, 5, "closing a name"},
        {"a &\n  (F[2 b", PROPER_EPARSE, 2, 8, "','"},
        {"a & F b", PROPER_EPARSE, 1, 5, "temporal operator F"},
        {"F<=99999999999999999999999 a", PROPER_ERANGE, 1, 0, "too large"},
        {"a & U", PROPER_EPARSE, 1, 5, "temporal operator U"},
        {"", PROPER_EPARSE, 1, 1, "found the end"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        proper_intern names;
        proper_ltl f;
        proper_error err;
        proper_intern_init(&names);
        proper_ltl_init(&f);
        CHECK_INT(proper_ltl_parse(&f, cases[i].text, strlen(cases[i].text), "p.ltl", &names, &err), cases[i].code);
        CHECK_INT(err.line, cases[i].line);
        if (cases[i].col) CHECK_INT(err.col, cases[i].col);
        CHECK_CONTAINS(err.message, cases[i].message);
        CHECK_STR(err.file, "p.ltl");
        CHECK(f.len == 0 && f.root == PROPER_LTL_NONE);
        proper_ltl_free(&f);
        proper_intern_free(&names);
    }
    {
        /* nesting beyond PROPER_LTL_MAX_DEPTH is refused, not a stack overflow */
        size_t depth = 3 * PROPER_LTL_MAX_DEPTH, k;
        char *text = (char *)malloc(2 * depth + 2);
        proper_intern names;
        proper_ltl f;
        proper_error err;
        for (k = 0; k < depth; k++) text[k] = '(';
        text[depth] = 'a';
        for (k = 0; k < depth; k++) text[depth + 1 + k] = ')';
        text[2 * depth + 1] = '\0';
        proper_intern_init(&names);
        proper_ltl_init(&f);
        CHECK_INT(proper_ltl_parse(&f, text, strlen(text), "deep", &names, &err), PROPER_ELIMIT);
        for (k = 0; k < depth; k++) text[k] = '!';
        text[depth] = 'a';
        text[depth + 1] = '\0';
        CHECK_INT(proper_ltl_parse(&f, text, strlen(text), "deep", &names, &err), PROPER_ELIMIT);
        CHECK_CONTAINS(err.message, "PROPER_LTL_MAX_DEPTH");
        free(text);
        proper_ltl_free(&f);
        proper_intern_free(&names);
    }
}

static void test_bad_arguments_and_limits(void) {
    lchain c;
    size_t r, n_aps;
    proper_ltl f;
    proper_bitset *aps, small;
    proper_error err;
    proper_ltl_opts opts = proper_ltl_opts_default();
    proper_ltl_stats stats;
    double x[8] = {42, 42, 42, 42, 42, 42, 42, 42};
    uint32_t idx;
    CHECK(m8_build(&c, &r) == 0);
    CHECK(setup(&c, "(F<=1000 c) | a", &f, &aps, &n_aps) == 0);
    /* a proposition without a state set */
    CHECK_INT(proper_ltl_prob(&c.m, &f, aps, 0, NULL, x, &err), PROPER_EINVAL);
    CHECK_CONTAINS(err.message, "proposition 0");
    /* a state set of the wrong size */
    proper_bitset_init(&small);
    proper_bitset_create(&small, 3, &err);
    CHECK_INT(proper_ltl_prob(&c.m, &f, &small, 1, NULL, x, &err), PROPER_EINVAL);
    proper_bitset_free(&small);
    /* the product limit: F<=1000 below | needs 1002 values per state */
    opts.max_product_states = 1000;
    CHECK_INT(proper_ltl_prob_ex(&c.m, &f, aps, n_aps, &opts, x, NULL, &err), PROPER_ELIMIT);
    CHECK_CONTAINS(err.message, "PROPER_LTL_MAX_PRODUCT_STATES");
    /* the automaton limit: F<=1000 has over 1000 residuals */
    opts = proper_ltl_opts_default();
    opts.max_automaton_states = 100;
    CHECK_INT(proper_ltl_reward_cosafe_ex(&c.m, &c.m.rewards[r], &f, aps, n_aps, &opts, x, NULL, &err), PROPER_ELIMIT);
    CHECK_CONTAINS(err.message, "PROPER_LTL_MAX_AUTOMATON_STATES");
    CHECK_ABS(x[0], 42, 0); /* outputs untouched on failure */
    /* the automaton work limit (fuzz finding: nested lower bounds make
     * residuals of hundreds of clauses at every step) */
    {
        proper_ltl g;
        proper_bitset *gaps;
        size_t n_gaps;
        CHECK(setup(&c, "F<=4 F F>74 F F>74 c", &g, &gaps, &n_gaps) == 0);
        opts = proper_ltl_opts_default();
        opts.max_automaton_work = 1000000;
        CHECK_INT(proper_ltl_prob_cosafe(&c.m, &g, gaps, n_gaps, &opts, x, NULL, &err), PROPER_ELIMIT);
        CHECK_CONTAINS(err.message, "PROPER_LTL_MAX_AUTOMATON_WORK");
        free_aps(gaps, n_gaps);
        proper_ltl_free(&g);
    }
    /* within the limits: stats say what was built */
    opts = proper_ltl_opts_default();
    CHECK(proper_ltl_reward_cosafe_ex(&c.m, &c.m.rewards[r], &f, aps, n_aps, &opts, x, &stats, &err) == 0);
    CHECK(stats.automaton_states >= 1001 && stats.automaton_states <= 1005);
    CHECK_ABS(x[0], 0, 0);          /* a holds at s=0 */
    CHECK(isinf(x[1]) && x[1] > 0); /* from s=1 the chain may stay in {3} for over 1000 steps */
    free_aps(aps, n_aps);
    proper_ltl_free(&f);
    /* a lower bound beyond the automaton limit is refused before any work */
    CHECK(setup(&c, "F>=100000000 c", &f, &aps, &n_aps) == 0);
    CHECK_INT(proper_ltl_prob(&c.m, &f, aps, n_aps, NULL, x, &err), PROPER_ELIMIT);
    free_aps(aps, n_aps);
    proper_ltl_free(&f);
    /* the refinement limit: each step of a nested lower bound is one */
    CHECK(setup(&c, "(F>=5000 c) & a", &f, &aps, &n_aps) == 0);
    CHECK_INT(proper_ltl_prob(&c.m, &f, aps, n_aps, NULL, x, &err), PROPER_ELIMIT);
    CHECK_CONTAINS(err.message, "PROPER_LTL_MAX_REFINEMENTS");
    free_aps(aps, n_aps);
    proper_ltl_free(&f);
    /* the step-work limit (fuzz finding): in the product of G<=74 a, that
     * holds with about 1e-17 per step, so the 1555555555 steps of F<=
     * neither repeat nor settle */
    {
        double settled[8], unbounded[8];
        uint32_t s;
        CHECK(setup(&c, "F<=1555555555 G<=74 a", &f, &aps, &n_aps) == 0);
        CHECK_INT(proper_ltl_prob(&c.m, &f, aps, n_aps, NULL, x, &err), PROPER_ELIMIT);
        CHECK_CONTAINS(err.message, "PROPER_DTMC_MAX_STEP_WORK");
        free_aps(aps, n_aps);
        proper_ltl_free(&f);
        /* a bound as large that settles early is not refused: F c is 1 or
         * reached with a probability that converges geometrically */
        CHECK(setup(&c, "F<=1555555555 c", &f, &aps, &n_aps) == 0);
        CHECK_INT(proper_ltl_prob(&c.m, &f, aps, n_aps, NULL, settled, &err), 0);
        free_aps(aps, n_aps);
        proper_ltl_free(&f);
        CHECK(setup(&c, "F c", &f, &aps, &n_aps) == 0);
        CHECK_INT(proper_ltl_prob(&c.m, &f, aps, n_aps, NULL, unbounded, &err), 0);
        for (s = 0; s < 8; s++) CHECK_REL(settled[s], unbounded[s], 1e-9);
        free_aps(aps, n_aps);
        proper_ltl_free(&f);
    }
    CHECK(setup(&c, "G F (a & (X b))", &f, &aps, &n_aps) == 0);
    opts = proper_ltl_opts_default();
    opts.max_refinements = 1; /* X b and F (a & X b) are refined, G F is computed */
    CHECK_INT(proper_ltl_prob_ex(&c.m, &f, aps, n_aps, &opts, x, NULL, &err), PROPER_ELIMIT);
    CHECK_CONTAINS(err.message, "needs 2 refinements");
    opts.max_refinements = 2;
    CHECK(proper_ltl_prob_ex(&c.m, &f, aps, n_aps, &opts, x, &stats, &err) == 0);
    CHECK_INT(stats.refinements, 2);
    free_aps(aps, n_aps);
    proper_ltl_free(&f);
    /* no root; an operand that does not exist */
    proper_ltl_init(&f);
    CHECK_INT(proper_ltl_prob(&c.m, &f, NULL, 0, NULL, x, &err), PROPER_EINVAL);
    CHECK_INT(proper_ltl_add(&f, PROPER_LTL_NOT, 0, PROPER_LTL_NONE, &idx, &err), PROPER_EINVAL);
    CHECK_INT(proper_ltl_add_bounded(&f, PROPER_LTL_NEXT, 0, 0, 1, 2, &idx, &err), PROPER_EINVAL);
    CHECK(proper_ltl_add(&f, PROPER_LTL_TRUE, PROPER_LTL_NONE, PROPER_LTL_NONE, &idx, &err) == 0);
    CHECK_INT(proper_ltl_add(&f, PROPER_LTL_AP, PROPER_LTL_NONE, PROPER_LTL_NONE, &idx, &err), PROPER_EINVAL);
    proper_ltl_free(&f);
    proper_dtmc_free(&c.m);
}

/* ---- path quantifiers: E[ f ] ------------------------------------------------- */

/* E[text] at state s (-1 on error). */
static int exists_at(const lchain *c, const char *text, uint32_t s) {
    proper_ltl f;
    proper_bitset *aps, out;
    size_t n_aps;
    proper_error err;
    int v = -1;
    proper_bitset_init(&out);
    if (setup(c, text, &f, &aps, &n_aps) == 0) {
        if (proper_ltl_exists(&c->m, &f, aps, n_aps, NULL, &out, NULL, &err) == 0) v = PROPER_BITSET_GET(&out, s);
        else printf("  %s: %s\n", text, err.message);
        free_aps(aps, n_aps);
    }
    proper_bitset_free(&out);
    proper_ltl_free(&f);
    return v;
}

/* prism-tests/functionality/verify/dtmcs/ltl/lec17dtmc.pm.nonprob.props:
 * E[...] and A[...] = !E[!...] from the initial state s=0. */
static void test_prism_lec17_nonprob(void) {
    static const double P[36] = {0.6, 0.1, 0, 0.3, 0, 0,  0, 0, 0.5, 0.2, 0.3, 0,  0, 0, 0, 0, 0, 1,
                                 0, 0, 0, 0, 1, 0,       0, 0, 0, 1, 0, 0,        0, 0, 0.1, 0, 0, 0.9};
    /* a, b, s=0, s=4, s=5, s<4, s=2|s=4, s=1, s=2, s=3 */
    static const char *const names[] = {"a", "b", "s0", "s4", "s5", "s_lt4", "s24", "s1", "s2", "s3"};
    static const unsigned masks[6] = {4 | 32, 2 | 32 | 128, 1 | 32 | 64 | 256, 1 | 32 | 512, 8 | 64, 1 | 16};
    static const struct { const char *formula; int e, a; } cases[] = {
        {"G F a", 1, 0},
        {"(G !b) & (G F a)", 1, 0},
        {"F G a", 1, 0},
        {"(G (b => (F (!b & a)))) & (F G !b)", 1, 1},
        {"F (s4 | s5)", 1, 0},
        {"(F s4) & (F s5)", 0, 0},
        {"(G F (s0 => !s0)) => (F (s4 | s5))", -1, 1},
        {"(G F (s0 => !s0)) => ((F s4) | (F s5))", -1, 1},
        {"(G F (s0 => !s0)) => ((F s4) & (F s5))", -1, 0},
        {"true | (X s0)", 1, -1},
        {"(s_lt4 U s4) & (s0 U s4)", 0, -1},
        {"true", 1, 1},
        {"false", 0, 0},
        {"G F true", 1, 1},
        {"G F false", 0, 0},
        {"(X s0) | (X s1) | (X s3)", -1, 1},
    };
    char text[256];
    size_t i;
    uint32_t s;
    lchain c;
    CHECK(build_dense(&c.m, P, 6) == 0);
    c.n_labels = 10, c.names = names, c.masks = masks;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].e >= 0 && exists_at(&c, cases[i].formula, 0) != cases[i].e) {
            printf("  E[ %s ] is not %d\n", cases[i].formula, cases[i].e);
            CHECK(0);
        }
        snprintf(text, sizeof text, "!(%s)", cases[i].formula);
        if (cases[i].a >= 0 && exists_at(&c, text, 0) != !cases[i].a) {
            printf("  A[ %s ] is not %d\n", cases[i].formula, cases[i].a);
            CHECK(0);
        }
    }
    /* filter(forall, E[ X (s=2 | s=4 | (X (s=2 | s=4))) ], true): true;
     * the same with A: false; filter(exists, E[ F G s=0 ], true): true,
     * filter(exists, A[ F G s=0 ], true): false */
    {
        int all_e = 1, all_a = 1, any_e = 0, any_a = 0;
        for (s = 0; s < 6; s++) {
            all_e &= exists_at(&c, "X (s24 | (X s24))", s) == 1;
            all_a &= exists_at(&c, "!(X (s24 | (X s24)))", s) == 0;
            any_e |= exists_at(&c, "F G s0", s) == 1;
            any_a |= exists_at(&c, "!(F G s0)", s) == 0;
        }
        CHECK(all_e && !all_a && any_e && !any_a);
    }
    proper_dtmc_free(&c.m);
}

/* Does some lasso of at most max_len states from `start` satisfy f?
 * path[0..k) with the last state's successor path[loop]. */
static int lasso_search(const lchain *c, const proper_ltl *f, uint32_t *path, size_t k, size_t max_len) {
    uint32_t u = path[k - 1], succ[16];
    unsigned pmask[16];
    uint64_t t;
    size_t loop, i;
    for (t = c->m.row[u]; t < c->m.row[u + 1]; t++) {
        uint32_t v = c->m.col[t];
        for (loop = 0; loop < k; loop++) {
            unsigned char *sat;
            int ok;
            if (path[loop] != v) continue;
            /* the lasso as a deterministic chain of k positions */
            for (i = 0; i < k; i++) succ[i] = i + 1 < k ? (uint32_t)(i + 1) : (uint32_t)loop, pmask[i] = c->masks[path[i]];
            sat = (unsigned char *)calloc(f->len * k, 1);
            for (i = 0; i < f->len; i++) det_eval(f, (uint32_t)i, succ, pmask, (uint32_t)k, sat);
            ok = sat[(size_t)f->root * k];
            free(sat);
            if (ok) return 1;
        }
        if (k < max_len) {
            path[k] = v;
            if (lasso_search(c, f, path, k + 1, max_len)) return 1;
        }
    }
    return 0;
}

static void test_exists_lassos(void) {
    proper_rng rng;
    int round, found = 0;
    proper_rng_seed(&rng, 1986);
    for (round = 0; round < 150 && !test__checks_failed; round++) {
        lchain c;
        unsigned masks[8];
        uint32_t n = 2 + (uint32_t)proper_rng_below(&rng, 2), s, path[16];
        proper_ltl f;
        proper_bitset aps[2], out;
        proper_error err;
        random_chain(&c, n, 0, &rng, masks);
        proper_ltl_init(&f);
        random_formula(&f, 3, 0, &rng);
        make_aps(&c, aps);
        proper_bitset_init(&out);
        CHECK(proper_ltl_exists(&c.m, &f, aps, 2, NULL, &out, NULL, &err) == 0);
        for (s = 0; s < n && out.n; s++) {
            int brute;
            path[0] = s;
            brute = lasso_search(&c, &f, path, 1, 7);
            found += brute;
            if (brute != PROPER_BITSET_GET(&out, s)) {
                printf("  state %u: E %d, lasso search %d\n", (unsigned)s, PROPER_BITSET_GET(&out, s), brute);
                CHECK(0);
            }
        }
        if (test__checks_failed) print_formula(&f, round);
        proper_bitset_free(&out);
        proper_bitset_free(&aps[0]);
        proper_bitset_free(&aps[1]);
        proper_ltl_free(&f);
        proper_dtmc_free(&c.m);
    }
    CHECK(found > 50);
}

/* ---- interval models: proper_ltl_interval_prob ----------------------------- */

/* An interval chain: the structure of m, intervals lo/hi aligned with its
 * transitions. */
typedef struct ichain {
    lchain c;
    double lo[64], hi[64];
} ichain;

/* Pmin/Pmax=? [text] from state s on an interval chain (NaN on error). */
static double interval_at(const ichain *ic, const char *text, int maximise, uint32_t s) {
    proper_ltl f;
    proper_bitset *aps;
    size_t n_aps;
    proper_error err;
    double *x = (double *)calloc(ic->c.m.n_states, sizeof *x), v = NAN;
    if (setup(&ic->c, text, &f, &aps, &n_aps) == 0) {
        if (proper_ltl_interval_prob(&ic->c.m, ic->lo, ic->hi, &f, aps, n_aps, maximise, NULL, x, NULL, &err) == 0)
            v = x[s];
        else
            printf("  %s: %s\n", text, err.message);
        free_aps(aps, n_aps);
    }
    proper_ltl_free(&f);
    free(x);
    return v;
}

/* Give every transition of ic->c.m from states below `states` the interval
 * [p - e, p + e] around its probability p (within [0, 1]), the others
 * [p, p]. */
static void intervals_around(ichain *ic, double e, uint32_t states) {
    uint64_t t;
    for (t = 0; t < ic->c.m.n_trans; t++) {
        if (t >= ic->c.m.row[states]) e = 0.0;
        double p = ic->c.m.prob[t];
        ic->lo[t] = fmax(0.0, p - e);
        ic->hi[t] = fmin(1.0, p + e);
    }
}

/* prism-tests/functionality/verify/idtmcs/robot-ltl.prism with its
 * RESULT lines for e=0.05 and e=0 (robot-ltl.prism.props, run by PRISM's
 * test mode with -const e=0.05 and e=0): state 0 moves south with
 * [0.8-e,0.8+e] to 3, [0.1-e,0.1+e] to 1 (hazard), [0.1-e,0.1+e] to 4;
 * 1 -> 4, 2 with 1/2 each; 2 and 3 are stuck; 4 and 5 (goal1) alternate.
 * By hand: P [ G F goal1 ] = p4 + p1/2 with p1 + p4 = 1 - p3 in
 * [0.15, 0.25]. */
static void test_interval_robot(void) {
    static const double P[36] = {0, 0.1, 0, 0.8, 0.1, 0,  0, 0, 0.5, 0, 0.5, 0,  0, 0, 1, 0, 0, 0,
                                 0, 0, 0, 1, 0, 0,        0, 0, 0, 0, 0, 1,      0, 0, 0, 0, 1, 0};
    static const char *const names[] = {"hazard", "goal1", "goal2"};
    static const unsigned masks[6] = {0, 1, 4, 4, 0, 2};
    static const struct {
        const char *text;
        double min05, max05, at0;
    } cases[] = {
        {"G F \"goal1\"", 0.1, 0.2, 0.15},
        {"(G !\"hazard\")&(G F \"goal1\")", 0.05, 0.15, 0.1},
        {"!((G !\"hazard\")&(G F \"goal1\"))", 0.85, 0.95, 0.9},
    };
    ichain ic;
    size_t i;
    CHECK(build_dense(&ic.c.m, P, 6) == 0);
    ic.c.n_labels = 3, ic.c.names = names, ic.c.masks = masks;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        proper_ltl f;
        proper_bitset *aps;
        size_t n_aps;
        proper_error err;
        proper_ltl_stats st;
        double x[6];
        intervals_around(&ic, 0.05, 1);
        /* the Pmax = 1 states join the target, so the reachability solve
         * proves its bound (no end component is left among the unknown
         * states) */
        CHECK(setup(&ic.c, cases[i].text, &f, &aps, &n_aps) == 0);
        CHECK(proper_ltl_interval_prob(&ic.c.m, ic.lo, ic.hi, &f, aps, n_aps, 1, NULL, x, &st, &err) == 0);
        CHECK(st.max_error < 1e-12);
        CHECK(st.product_states > 6);
        free_aps(aps, n_aps);
        proper_ltl_free(&f);
        CHECK_ABS(interval_at(&ic, cases[i].text, 0, 0), cases[i].min05, 1e-6);
        CHECK_ABS(interval_at(&ic, cases[i].text, 1, 0), cases[i].max05, 1e-6);
        intervals_around(&ic, 0.0, 0);
        CHECK_ABS(interval_at(&ic, cases[i].text, 0, 0), cases[i].at0, 1e-6);
        CHECK_ABS(interval_at(&ic, cases[i].text, 1, 0), cases[i].at0, 1e-6);
    }
    proper_dtmc_free(&ic.c.m);
}

/* Nature's choices that need the history, by hand: from state 0 (no
 * label) nature sends the run with any probability to 1 (a) or 2 (b),
 * both of which return to 0. Alternating, nature makes G F a & G F b
 * sure; always choosing 1 it makes it impossible. F G !b: the same. X a,
 * whose step nature settles: from 0, Pmax 1 and Pmin 0. */
static void test_interval_nature_by_hand(void) {
    static const double P[9] = {0, 0.5, 0.5, 1, 0, 0, 1, 0, 0};
    static const char *const names[] = {"a", "b"};
    static const unsigned masks[3] = {0, 1, 2};
    ichain ic;
    CHECK(build_dense(&ic.c.m, P, 3) == 0);
    ic.c.n_labels = 2, ic.c.names = names, ic.c.masks = masks;
    intervals_around(&ic, 0.5, 1); /* [0, 1] on both edges of state 0 */
    CHECK_ABS(interval_at(&ic, "(G F a) & (G F b)", 1, 0), 1.0, 1e-9);
    CHECK_ABS(interval_at(&ic, "(G F a) & (G F b)", 0, 0), 0.0, 1e-9);
    CHECK_ABS(interval_at(&ic, "F G !b", 1, 0), 1.0, 1e-9);
    CHECK_ABS(interval_at(&ic, "F G !b", 0, 1), 0.0, 1e-9);
    CHECK_ABS(interval_at(&ic, "X a", 1, 0), 1.0, 1e-9);
    CHECK_ABS(interval_at(&ic, "X a", 0, 0), 0.0, 1e-9);
    CHECK_ABS(interval_at(&ic, "X X a", 0, 1), 0.0, 1e-9);
    CHECK_ABS(interval_at(&ic, "G (a => (X X a))", 1, 1), 1.0, 1e-9);
    /* a after one step and b after three: nature at state 0 must choose
     * differently the two times (any fixed choice, even random, gets at
     * most p (1 - p) <= 1/4); with the history it gets 1 */
    CHECK_ABS(interval_at(&ic, "(X a) & (X X X b)", 1, 0), 1.0, 1e-9);
    CHECK_ABS(interval_at(&ic, "(X a) & (X X X b)", 0, 0), 0.0, 1e-9);
    proper_dtmc_free(&ic.c.m);
}

/* A random interval chain: random_chain's probabilities p, each edge
 * given [p - d1, p + d2] with d1, d2 in [0, 0.3) (clipped to [0, 1]), a
 * quarter of them with lower end 0. */
static void random_ichain(ichain *ic, uint32_t n, proper_rng *rng, unsigned *masks) {
    uint64_t t;
    random_chain(&ic->c, n, 0, rng, masks);
    for (t = 0; t < ic->c.m.n_trans; t++) {
        double p = ic->c.m.prob[t];
        ic->lo[t] = proper_rng_below(rng, 4) == 0 ? 0.0 : fmax(0.0, p - 0.3 * proper_rng_uniform(rng));
        ic->hi[t] = fmin(1.0, p + 0.3 * proper_rng_uniform(rng));
    }
}

/* A chain inside the intervals: from the centre probabilities, random
 * transfers of mass between two edges of a row that keep both within
 * their intervals (so the row still sums to 1). */
static void sample_inside(const ichain *ic, proper_rng *rng, proper_dtmc *out) {
    proper_dtmc_builder b;
    proper_error err;
    uint32_t s;
    proper_dtmc_builder_init(&b);
    for (s = 0; s < ic->c.m.n_states; s++) {
        uint64_t a = ic->c.m.row[s], len = ic->c.m.row[s + 1] - a, k;
        double q[64];
        int moves;
        for (k = 0; k < len; k++) q[k] = ic->c.m.prob[a + k];
        for (moves = 0; moves < 6 && len > 1; moves++) {
            uint64_t i = proper_rng_below(rng, len), j = proper_rng_below(rng, len);
            double room = fmin(q[i] - ic->lo[a + i], ic->hi[a + j] - q[j]);
            double t = i == j || room <= 0 ? 0 : room * (proper_rng_below(rng, 2) ? 1.0 : proper_rng_uniform(rng));
            q[i] -= t;
            q[j] += t;
        }
        proper_dtmc_builder_add_row(&b, ic->c.m.col + a, q, len, &err);
    }
    proper_dtmc_builder_finish(&b, ic->c.m.n_states, out, &err);
}

/* Point intervals: the interval model is the chain, and Pmin = Pmax = the
 * probability of the Courcoubetis-Yannakakis refinement (proper_ltl_prob),
 * an independent construction, on random chains and formulas. */
static void test_interval_points_agree(void) {
    proper_rng rng;
    int round;
    proper_rng_seed(&rng, 2015);
    for (round = 0; round < 300 && !test__checks_failed; round++) {
        ichain ic;
        unsigned masks[8];
        uint32_t n = 2 + (uint32_t)proper_rng_below(&rng, 5), s;
        proper_ltl f;
        proper_bitset aps[2];
        proper_error err;
        double x[8], lo[8], hi[8];
        random_chain(&ic.c, n, 0, &rng, masks);
        intervals_around(&ic, 0.0, 0);
        proper_ltl_init(&f);
        random_formula(&f, 3 + (int)proper_rng_below(&rng, 2), 0, &rng);
        make_aps(&ic.c, aps);
        CHECK(proper_ltl_prob(&ic.c.m, &f, aps, 2, NULL, x, &err) == 0);
        CHECK(proper_ltl_interval_prob(&ic.c.m, ic.lo, ic.hi, &f, aps, 2, 0, NULL, lo, NULL, &err) == 0);
        CHECK(proper_ltl_interval_prob(&ic.c.m, ic.lo, ic.hi, &f, aps, 2, 1, NULL, hi, NULL, &err) == 0);
        for (s = 0; s < n; s++) {
            CHECK_ABS(lo[s], x[s], 1e-6);
            CHECK_ABS(hi[s], x[s], 1e-6);
        }
        if (test__checks_failed) print_formula(&f, round);
        proper_bitset_free(&aps[0]);
        proper_bitset_free(&aps[1]);
        proper_ltl_free(&f);
        proper_dtmc_free(&ic.c.m);
    }
}

/* Random interval chains and formulas: every chain inside the intervals
 * (a few sampled) has Pmin <= P <= Pmax (P by proper_ltl_prob), and
 * Pmax [ f ] + Pmax [ !f ] >= 1 (two different products). */
static void test_interval_random_bounds(void) {
    proper_rng rng;
    int round, strict = 0;
    proper_rng_seed(&rng, 1995);
    for (round = 0; round < 200 && !test__checks_failed; round++) {
        ichain ic;
        unsigned masks[8];
        uint32_t n = 2 + (uint32_t)proper_rng_below(&rng, 5), s, neg;
        proper_ltl f;
        proper_bitset aps[2];
        proper_error err;
        double lo[8], hi[8], hi_neg[8];
        int k;
        random_ichain(&ic, n, &rng, masks);
        proper_ltl_init(&f);
        random_formula(&f, 2 + (int)proper_rng_below(&rng, 2), 0, &rng);
        make_aps(&ic.c, aps);
        CHECK(proper_ltl_interval_prob(&ic.c.m, ic.lo, ic.hi, &f, aps, 2, 0, NULL, lo, NULL, &err) == 0);
        CHECK(proper_ltl_interval_prob(&ic.c.m, ic.lo, ic.hi, &f, aps, 2, 1, NULL, hi, NULL, &err) == 0);
        for (k = 0; k < 4; k++) {
            proper_dtmc inside;
            double x[8];
            proper_dtmc_init(&inside);
            sample_inside(&ic, &rng, &inside);
            CHECK(proper_ltl_prob(&inside, &f, aps, 2, NULL, x, &err) == 0);
            for (s = 0; s < n; s++) {
                CHECK(x[s] >= lo[s] - 1e-6);
                CHECK(x[s] <= hi[s] + 1e-6);
            }
            proper_dtmc_free(&inside);
        }
        for (s = 0; s < n; s++) strict += hi[s] - lo[s] > 1e-3;
        proper_ltl_add(&f, PROPER_LTL_NOT, f.root, PROPER_LTL_NONE, &neg, &err);
        CHECK(proper_ltl_interval_prob(&ic.c.m, ic.lo, ic.hi, &f, aps, 2, 1, NULL, hi_neg, NULL, &err) == 0);
        for (s = 0; s < n; s++) CHECK(hi[s] + hi_neg[s] >= 1 - 1e-6);
        if (test__checks_failed) print_formula(&f, round);
        proper_bitset_free(&aps[0]);
        proper_bitset_free(&aps[1]);
        proper_ltl_free(&f);
        proper_dtmc_free(&ic.c.m);
    }
    CHECK(strict > 20); /* the intervals mattered */
}

/* Formulas with one operator against dtmc.h's interval solver
 * (proper_dtmc_interval_prob_until, value iteration on the model
 * itself): Pmax/Pmin [ F a ], [ a U b ], and [ G a ] = 1 - Pmin/Pmax [ F !a ]. */
static void test_interval_until_agree(void) {
    proper_rng rng;
    int round;
    proper_rng_seed(&rng, 777);
    for (round = 0; round < 100 && !test__checks_failed; round++) {
        ichain ic;
        unsigned masks[8];
        uint32_t n = 2 + (uint32_t)proper_rng_below(&rng, 6), s;
        proper_bitset aps[2], not_a;
        proper_error err;
        int maximise;
        random_ichain(&ic, n, &rng, masks);
        make_aps(&ic.c, aps);
        proper_bitset_init(&not_a);
        proper_bitset_copy(&not_a, &aps[0], &err);
        proper_bitset_not(&not_a);
        for (maximise = 0; maximise <= 1; maximise++) {
            double x[8], y[8];
            CHECK(proper_dtmc_interval_prob_until(&ic.c.m, ic.lo, ic.hi, NULL, &aps[0], maximise, NULL, y, NULL, &err) == 0);
            for (s = 0; s < n; s++) x[s] = interval_at(&ic, "F a", maximise, s);
            for (s = 0; s < n; s++) CHECK_ABS(x[s], y[s], 1e-6);
            CHECK(proper_dtmc_interval_prob_until(&ic.c.m, ic.lo, ic.hi, &aps[0], &aps[1], maximise, NULL, y, NULL, &err) == 0);
            for (s = 0; s < n; s++) x[s] = interval_at(&ic, "a U b", maximise, s);
            for (s = 0; s < n; s++) CHECK_ABS(x[s], y[s], 1e-6);
            CHECK(proper_dtmc_interval_prob_until(&ic.c.m, ic.lo, ic.hi, NULL, &not_a, !maximise, NULL, y, NULL, &err) == 0);
            for (s = 0; s < n; s++) x[s] = interval_at(&ic, "G a", maximise, s);
            for (s = 0; s < n; s++) CHECK_ABS(x[s], 1 - y[s], 1e-6);
        }
        if (test__checks_failed) printf("  round %d\n", round);
        proper_bitset_free(&not_a);
        proper_bitset_free(&aps[0]);
        proper_bitset_free(&aps[1]);
        proper_dtmc_free(&ic.c.m);
    }
}

/* Build an interval chain from dense n x n matrices of lower and upper
 * ends (a transition where hi > 0). */
static void build_intervals(ichain *ic, const double *LO, const double *HI, uint32_t n) {
    double P[64] = {0};
    uint32_t s, t;
    uint64_t e;
    for (s = 0; s < n; s++) {
        double k = 0;
        for (t = 0; t < n; t++) k += HI[s * n + t] > 0;
        for (t = 0; t < n; t++) P[s * n + t] = HI[s * n + t] > 0 ? 1.0 / k : 0.0;
    }
    CHECK(build_dense(&ic->c.m, P, n) == 0);
    for (s = 0; s < n; s++)
        for (e = ic->c.m.row[s]; e < ic->c.m.row[s + 1]; e++) {
            ic->lo[e] = LO[s * n + ic->c.m.col[e]];
            ic->hi[e] = HI[s * n + ic->c.m.col[e]];
        }
}

/* Two random interval chains (3 and 6 states) and 8 formulas, Pmax and
 * Pmin from state 0, as PRISM 4.10.2-dev computes them
 * (`prism m.prism f.props`, its explicit engine, which it switches to for
 * interval models; default precision 1e-6 relative, hence the tolerance).
 * The model files, m10.prism and m11.prism:
 *   s=0 -> [0.351,0.482]:(s'=1) + [0.136,0.561]:(s'=0) + [0.161,0.301]:(s'=2);
 *   s=1 -> [0.444,0.649]:(s'=1) + [0.195,0.364]:(s'=2) + [0.065,0.27]:(s'=0);
 *   s=2 -> 1:(s'=2);   label "a" = s=0; label "b" = s=1;
 * and
 *   s=0 -> [0.186,0.285]:(s'=3) + [0.165,0.54]:(s'=4) + [0.178,0.665]:(s'=1);
 *   s=1 -> [0.556,0.925]:(s'=4) + [0.143,0.372]:(s'=0);
 *   s=2 -> [0.429,0.612]:(s'=4) + [0.208,0.667]:(s'=1);
 *   s=3 -> [0.12,0.21]:(s'=2) + [0.389,0.614]:(s'=1) + [0.234,0.341]:(s'=5);
 *   s=4 -> 1:(s'=4);   s=5 -> 1:(s'=5);
 *   label "a" = s=1|s=3|s=5; label "b" = s=0|s=1|s=4; */
static void test_interval_prism_random(void) {
    static const double LO10[9] = {0.136, 0.351, 0.161, 0.065, 0.444, 0.195, 0, 0, 1};
    static const double HI10[9] = {0.561, 0.482, 0.301, 0.27, 0.649, 0.364, 0, 0, 1};
    static const double LO11[36] = {0, 0.178, 0, 0.186, 0.165, 0,   0.143, 0, 0, 0, 0.556, 0,   0, 0.208, 0, 0, 0.429, 0,
                                    0, 0.389, 0.12, 0, 0, 0.234,   0, 0, 0, 0, 1, 0,           0, 0, 0, 0, 0, 1};
    static const double HI11[36] = {0, 0.665, 0, 0.285, 0.54, 0,    0.372, 0, 0, 0, 0.925, 0,   0, 0.667, 0, 0, 0.612, 0,
                                    0, 0.614, 0.21, 0, 0, 0.341,   0, 0, 0, 0, 1, 0,           0, 0, 0, 0, 0, 1};
    static const char *const names[] = {"a", "b"};
    static const unsigned masks10[3] = {1, 2, 0}, masks11[6] = {2, 3, 0, 1, 2, 1};
    static const char *const formulas[8] = {
        "G F a", "F G a", "(G F a) & (G F b)", "G (a => (X b))",
        "(a U b) U (G a)", "(F G a) | (G F b)", "a U (X b)", "G (b => (F a))"};
    static const double max10[8] = {0, 0, 0, 0.4411894299817325, 0, 0, 0.7496107880708888, 0.6715839156796131};
    static const double min10[8] = {0, 0, 0, 0.1848712888976056, 0, 0, 0.5383433526131614, 0.2824710277366102};
    static const double max11[8] = {0.1329496571766252, 0.1329496571766252, 0, 0.92398409295425,
                                    0.1316413954143288, 1, 0.8140000000000001, 0.13294968820536052};
    static const double min11[8] = {0.046112649763223365, 0.046112649763223365, 0, 0.7900029572660852,
                                    0.04600701609804153, 1, 0.7150000000000001, 0.046112657157465244};
    ichain a, b;
    size_t i;
    build_intervals(&a, LO10, HI10, 3);
    a.c.n_labels = 2, a.c.names = names, a.c.masks = masks10;
    build_intervals(&b, LO11, HI11, 6);
    b.c.n_labels = 2, b.c.names = names, b.c.masks = masks11;
    for (i = 0; i < 8; i++) {
        CHECK_ABS(interval_at(&a, formulas[i], 1, 0), max10[i], 2e-6);
        CHECK_ABS(interval_at(&a, formulas[i], 0, 0), min10[i], 2e-6);
        CHECK_ABS(interval_at(&b, formulas[i], 1, 0), max11[i], 2e-6);
        CHECK_ABS(interval_at(&b, formulas[i], 0, 0), min11[i], 2e-6);
    }
    proper_dtmc_free(&a.c.m);
    proper_dtmc_free(&b.c.m);
}

/* Bad intervals and the product limit are refused with a message. */
static void test_interval_errors(void) {
    static const double P[4] = {0.5, 0.5, 0, 1};
    static const char *const names[] = {"a", "b"};
    static const unsigned masks[2] = {1, 2};
    ichain ic;
    proper_ltl f;
    proper_bitset *aps;
    size_t n_aps;
    proper_error err;
    proper_ltl_opts o = proper_ltl_opts_default();
    double x[2];
    CHECK(build_dense(&ic.c.m, P, 2) == 0);
    ic.c.n_labels = 2, ic.c.names = names, ic.c.masks = masks;
    CHECK(setup(&ic.c, "G F a", &f, &aps, &n_aps) == 0);
    intervals_around(&ic, 0.1, 2);
    ic.hi[0] = 0.45; /* state 0: upper ends sum to 0.45 + 0.6 ... */
    ic.hi[1] = 0.5;  /* ... now 0.95 < 1 */
    CHECK_INT(proper_ltl_interval_prob(&ic.c.m, ic.lo, ic.hi, &f, aps, n_aps, 1, NULL, x, NULL, &err), PROPER_EPROB);
    CHECK(strstr(err.message, "state 0") != NULL);
    intervals_around(&ic, 0.1, 2);
    ic.lo[0] = 0.7; /* above its upper end 0.6 */
    CHECK_INT(proper_ltl_interval_prob(&ic.c.m, ic.lo, ic.hi, &f, aps, n_aps, 1, NULL, x, NULL, &err), PROPER_EPROB);
    intervals_around(&ic, 0.1, 2);
    o.max_product_states = 4;
    CHECK_INT(proper_ltl_interval_prob(&ic.c.m, ic.lo, ic.hi, &f, aps, n_aps, 1, &o, x, NULL, &err), PROPER_ELIMIT);
    CHECK(strstr(err.message, "PROPER_LTL_MAX_PRODUCT_STATES") != NULL);
    o = proper_ltl_opts_default();
    o.max_automaton_work = 10;
    CHECK_INT(proper_ltl_interval_prob(&ic.c.m, ic.lo, ic.hi, &f, aps, n_aps, 1, &o, x, NULL, &err), PROPER_ELIMIT);
    CHECK(strstr(err.message, "PROPER_LTL_MAX_AUTOMATON_WORK") != NULL);
    o.max_automaton_work = 1000;
    CHECK(proper_ltl_interval_prob(&ic.c.m, ic.lo, ic.hi, &f, aps, n_aps, 1, &o, x, NULL, &err) == 0);
    free_aps(aps, n_aps);
    proper_ltl_free(&f);
    proper_dtmc_free(&ic.c.m);
}

int main(void) {
    RUN(test_prism_lec17);
    RUN(test_prism_lec15);
    RUN(test_prism_jaeger);
    RUN(test_prism_bscc_rabin);
    RUN(test_prism_cosafe_rewards);
    RUN(test_prism_robot);
    RUN(test_prism_m8);
    RUN(test_deterministic_semantics);
    RUN(test_bounded_paths);
    RUN(test_routes_agree);
    RUN(test_pctl_agreement);
    RUN(test_prism_lec17_nonprob);
    RUN(test_exists_lassos);
    RUN(test_format_round_trip);
    RUN(test_parse_meaning);
    RUN(test_parse_errors);
    RUN(test_bad_arguments_and_limits);
    RUN(test_interval_robot);
    RUN(test_interval_nature_by_hand);
    RUN(test_interval_prism_random);
    RUN(test_interval_points_agree);
    RUN(test_interval_random_bounds);
    RUN(test_interval_until_agree);
    RUN(test_interval_errors);
    return test_summary();
}
