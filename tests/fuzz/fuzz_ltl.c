/* Fuzz target for the LTL text syntax and both model-checking routes of
 * ltl.h, on a fixed 8-state chain with three bottom components (the m8
 * chain of tests/test_ltl.c); proposition i is label i mod 3 whatever its
 * name. Any input either fails with an error inside the text, or parses;
 * then its formatted text parses back to the same text, and P(f) is a
 * probability with P(f) + P(!f) = 1. For a co-safe f the automaton route
 * gives the same probabilities, and the reward is finite only where that
 * route's P(f) is exactly 1, and infinite where P(f) is clearly below 1.
 * The path quantifier E[f] holds wherever P(f) > 0, and A[f] only where
 * P(f) = 1. On the chain as an interval model, Pmin = Pmax = P(f) with
 * point intervals, and Pmin <= P(f) <= Pmax with intervals 0.05 wider.
 * Limits are small so every input runs fast; a limit error is
 * a clean answer (libFuzzer's timeout is wall-clock time, and the machine
 * may be loaded). Without PROPER_LIBFUZZER, main replays directory argv[1]. */
/* Step-bounded iterations stop after 2*10^7 multiply-adds, not 10^11: F<=1555555555 G<=74 a
 * on the 8-state chain (a 304-state product in which G<=74 a holds with
 * about 1e-17 per step, so the iterates never settle) ran 1.5e9 steps; at
 * 10^8 it still took 13 s in make test's -O0 build. */
#define PROPER_DTMC_MAX_STEP_WORK 2e7
#define PROPER_IMPLEMENTATION
#include "../../src/ltl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 8

static const double fuzz_P[N * N] = {
    0.1, 0.3, 0.2, 0.4, 0, 0, 0, 0,   0.4, 0, 0, 0, 0.3, 0, 0.3, 0,   0, 0, 0.5, 0, 0, 0.25, 0, 0.25,
    0, 0, 0, 0.6, 0.4, 0, 0, 0,       0, 0, 0, 0.5, 0.5, 0, 0, 0,     0, 0, 0, 0, 0, 1, 0, 0,
    0, 0, 0, 0, 0, 0, 0.5, 0.5,       0, 0, 0, 0, 0, 0, 1, 0};
static const unsigned fuzz_masks[N] = {1, 2, 1, 1, 2 | 4, 4, 1, 2 | 4};
static const double fuzz_reward[N] = {1, 2, 3, 0.5, 4, 0, 1, 0};

static void build_chain(proper_dtmc *m) {
    proper_dtmc_builder b;
    proper_error err;
    uint32_t s, t, dst[N];
    double p[N];
    size_t r;
    proper_dtmc_init(m);
    proper_dtmc_builder_init(&b);
    for (s = 0; s < N; s++) {
        size_t k = 0;
        for (t = 0; t < N; t++)
            if (fuzz_P[s * N + t] != 0) dst[k] = t, p[k++] = fuzz_P[s * N + t];
        if (proper_dtmc_builder_add_row(&b, dst, p, k, &err)) abort();
    }
    if (proper_dtmc_builder_finish(&b, N, m, &err) || proper_dtmc_add_reward(m, "r", 1, 0, &r, &err)) abort();
    for (s = 0; s < N; s++) m->rewards[r].state[s] = fuzz_reward[s];
}

static void check_error(const proper_error *err, const char *text, size_t len) {
    size_t lines = 1, i;
    for (i = 0; i < len; i++) lines += text[i] == '\n';
    if (err->code == PROPER_ENOMEM) return;
    if (err->code >= 0 || err->message[0] == '\0' || err->line < 0 || (size_t)err->line > lines) abort();
}

/* A model-checking failure must be a limit, an unsupported formula, or a
 * solve whose error bound cannot be proven (R of F>2 G<84 G a: a product
 * component of 84 states whose expected stay is far beyond 1e15 steps, too
 * badly conditioned for doubles). */
static void check_refusal(int rc) {
    if (rc != PROPER_ELIMIT && rc != PROPER_EUNSUPPORTED && rc != PROPER_ENOMEM && rc != PROPER_ENOCONV) abort();
}

static void check_round_trip(const proper_ltl *f, proper_intern *names) {
    proper_strbuf a, b;
    proper_ltl g;
    proper_error err;
    proper_strbuf_init(&a);
    proper_strbuf_init(&b);
    proper_ltl_init(&g);
    if (proper_ltl_format(f, &a, (const char *const *)names->names, names->len, &err) == 0) {
        if (proper_ltl_parse(&g, a.data, a.len, "formatted", names, &err)) {
            if (err.code != PROPER_ELIMIT) abort(); /* parentheses may go past the depth limit */
        } else if (proper_ltl_format(&g, &b, (const char *const *)names->names, names->len, &err) ||
                   strcmp(a.data, b.data) != 0) {
            abort();
        }
    }
    proper_strbuf_free(&a);
    proper_strbuf_free(&b);
    proper_ltl_free(&g);
}

/* E[f] holds wherever P(f) > 0; with f = !g (negated: x is P(g)),
 * A[g] = !E[!g] holding forces P(g) = 1. */
static void check_exists(const proper_ltl *f, const proper_dtmc *m, const proper_bitset *aps, size_t n_aps,
                         const double *x, int negated) {
    proper_ltl_opts o = proper_ltl_opts_default();
    proper_bitset e;
    proper_error err;
    int rc, s;
    o.max_product_states = 5000;
    proper_bitset_init(&e);
    rc = proper_ltl_exists(m, f, aps, n_aps, &o, &e, NULL, &err);
    if (rc) {
        check_refusal(rc);
        return;
    }
    for (s = 0; s < N; s++) {
        if (!negated && x[s] > 1e-9 && !PROPER_BITSET_GET(&e, s)) abort();
        if (negated && !PROPER_BITSET_GET(&e, s) && x[s] < 1 - 1e-9) abort();
    }
    proper_bitset_free(&e);
}

/* Interval models: with point intervals Pmin = Pmax = P(f); with the
 * chain's probabilities widened by 0.05, Pmin <= P(f) <= Pmax. */
static void check_intervals(const proper_ltl *f, const proper_dtmc *m, const proper_bitset *aps, size_t n_aps,
                            const double *x) {
    proper_ltl_opts o = proper_ltl_opts_default();
    proper_error err;
    double lo[N * N], hi[N * N], pmin[N], pmax[N];
    uint64_t e;
    int s, wide, rc;
    o.max_product_states = 5000;
    for (wide = 0; wide <= 1; wide++) {
        for (e = 0; e < m->n_trans; e++) {
            lo[e] = wide ? fmax(0.0, m->prob[e] - 0.05) : m->prob[e];
            hi[e] = wide ? fmin(1.0, m->prob[e] + 0.05) : m->prob[e];
        }
        if ((rc = proper_ltl_interval_prob(m, lo, hi, f, aps, n_aps, 0, &o, pmin, NULL, &err)) ||
            (rc = proper_ltl_interval_prob(m, lo, hi, f, aps, n_aps, 1, &o, pmax, NULL, &err))) {
            check_refusal(rc);
            return;
        }
        for (s = 0; s < N; s++)
            if (!(pmin[s] >= 0 && pmax[s] <= 1 && pmin[s] <= x[s] + 1e-6 && x[s] <= pmax[s] + 1e-6) ||
                (!wide && (fabs(pmin[s] - x[s]) > 1e-6 || fabs(pmax[s] - x[s]) > 1e-6)))
                abort();
    }
}

static void check_model(proper_ltl *f, const proper_dtmc *m, const proper_bitset *aps, size_t n_aps) {
    proper_ltl_opts o = proper_ltl_opts_default();
    proper_error err;
    double x[N], y[N], z[N];
    uint32_t neg;
    int rc, s;
    o.max_product_states = 5000;
    o.max_automaton_states = 500;
    o.max_automaton_work = 5000000;
    o.max_refinements = 200;
    rc = proper_ltl_prob_ex(m, f, aps, n_aps, &o, x, NULL, &err);
    if (rc) {
        check_refusal(rc);
        return;
    }
    for (s = 0; s < N; s++)
        if (!(x[s] >= 0 && x[s] <= 1)) abort();
    if (proper_ltl_is_cosafe(f)) {
        rc = proper_ltl_prob_cosafe(m, f, aps, n_aps, &o, y, NULL, &err);
        if (rc) {
            check_refusal(rc);
            return;
        }
        for (s = 0; s < N; s++)
            if (fabs(x[s] - y[s]) > 1e-9) abort();
        /* a finite reward needs probability exactly 1 (the graph says so);
         * a probability clearly below 1 gives infinity */
        rc = proper_ltl_reward_cosafe_ex(m, &m->rewards[0], f, aps, n_aps, &o, z, NULL, &err);
        if (rc) check_refusal(rc);
        else
            for (s = 0; s < N; s++)
                if (!(z[s] >= 0) || (!isinf(z[s]) && y[s] != 1) || (y[s] < 1 - 1e-9 && !isinf(z[s]))) abort();
    } else if (proper_ltl_reward_cosafe_ex(m, &m->rewards[0], f, aps, n_aps, &o, z, NULL, &err) != PROPER_EUNSUPPORTED) {
        abort();
    }
    check_exists(f, m, aps, n_aps, x, 0);
    check_intervals(f, m, aps, n_aps, x);
    if (proper_ltl_add(f, PROPER_LTL_NOT, f->root, PROPER_LTL_NONE, &neg, &err)) return;
    rc = proper_ltl_prob_ex(m, f, aps, n_aps, &o, y, NULL, &err);
    if (rc) check_refusal(rc);
    else
        for (s = 0; s < N; s++)
            if (fabs(x[s] + y[s] - 1) > 1e-9) abort();
    check_exists(f, m, aps, n_aps, x, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    proper_intern names;
    proper_ltl f;
    proper_error err;
    proper_dtmc m;
    proper_bitset *aps;
    size_t i, s;
    proper_intern_init(&names);
    proper_ltl_init(&f);
    if (proper_ltl_parse(&f, text, size, "f.ltl", &names, &err)) {
        check_error(&err, text, size);
        proper_intern_free(&names);
        return 0;
    }
    check_round_trip(&f, &names);
    build_chain(&m);
    aps = (proper_bitset *)calloc(names.len + 1, sizeof *aps);
    if (!aps) abort();
    for (i = 0; i < names.len; i++) {
        if (proper_bitset_create(&aps[i], N, &err)) abort();
        for (s = 0; s < N; s++)
            if (fuzz_masks[s] >> (i % 3) & 1u) proper_bitset_set(&aps[i], s);
    }
    check_model(&f, &m, aps, names.len);
    for (i = 0; i < names.len; i++) proper_bitset_free(&aps[i]);
    free(aps);
    proper_dtmc_free(&m);
    proper_ltl_free(&f);
    proper_intern_free(&names);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_ltl"
#include "replay.h"
