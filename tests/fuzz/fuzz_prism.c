/* Fuzz target for the PRISM-language parser and state exploration. Any
 * input either fails with an error inside the text (a line of it, a
 * message, a negative code), or gives a model that builds (constants left
 * without a value get 2 / 0.5 / true; at most FUZZ_MAX_STATES states) into a
 * DTMC with PRISM's state order (valuations strictly increasing), values in
 * their ranges and rows summing to 1; its labels and rewards are then
 * checked by a few properties. A small DTMC also gets its exact companion
 * (proper_prism_build_exact): every exact probability must be the double's
 * within 1e-6, and P=? [ F label ] exactly must agree with the numeric
 * value; a refusal must be an error with a message. Every other input
 * first has its constant comparisons of non-integer values decided
 * exactly (proper_prism_decide_exactly, which never fails but for memory).
 * A model with
 * probability intervals is built with them: each transition's interval
 * must lie in [0, 1], hold the DTMC's probability, and each row's ends must
 * admit a distribution; Pmin <= Pmax for each label. Without
 * PROPER_LIBFUZZER, main replays every file of directory argv[1]. */
#define PROPER_EXACT_MAX_LIMBS 4096
#define PROPER_EXACT_MAX_TERMS 2000
#define PROPER_EXACT_MAX_GCD_WORK 10000000ull
#define PROPER_DTMC_MAX_STEP_WORK 1e8 /* as in fuzz_ltl: no 1e11-multiply-add bounded runs */
/* 10^6 uniformisation steps instead of 10^9: a CTMC with a rate of 1.7e30
 * beside rates of 0.5 needs 5e9 steps for R=? [ C<=3 ], refused after the
 * 10^9 allowed (8 s at -O2, a libFuzzer timeout sanitised). */
#define PROPER_DTMC_MAX_POISSON_STEPS 1000000UL
/* Fewer Gauss-Seidel sweeps than the default 10^6, so that a large
 * component no sweep settles is given up quickly (a gambler's ruin whose
 * losses fall back to x=7, N=518, p=1/2, took 10^6 sweeps: 0.87 s at -O2,
 * over 10 s sanitised; since c898e3d components of up to 1024 states are
 * solved directly instead). */
#define PROPER_DTMC_MAX_SWEEPS 20000
/* Blocks of 5 tokens instead of 4096, so that inputs of fuzzing size cross
 * the lazy lexer's block boundaries (fill, give back, reuse) many times. */
#define PROPER_PRISM_TOK_BLOCK 5
#define PROPER_IMPLEMENTATION
#include "../../src/prism.h"

#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_STATES 2000

static void check_error(const proper_error *err, const char *text, size_t len) {
    size_t lines = 1, i;
    for (i = 0; i < len; i++) lines += text[i] == '\n';
    if (err->code == PROPER_ENOMEM) return;
    if (err->code >= 0 || err->message[0] == '\0' || err->line < 0 || (size_t)err->line > lines) abort();
}

/* Valuations strictly increasing (PRISM's order); a DTMC's rows
 * stochastic, a CTMC's rates positive and finite. */
static void check_model(const proper_dtmc *d, const proper_prism_model *m) {
    uint32_t s;
    uint64_t k;
    size_t v, nv = d->n_vars;
    if (d->n_states == 0 || d->n_states > FUZZ_MAX_STATES || nv != proper_prism_var_count(m)) abort();
    if (nv && !d->vals) abort();
    for (s = 0; s < d->n_states; s++) {
        double sum = 0;
        for (k = d->row[s]; k < d->row[s + 1]; k++) {
            if (d->col[k] >= d->n_states || !(d->prob[k] > 0) || !isfinite(d->prob[k])) abort();
            sum += d->prob[k];
        }
        if (d->kind == PROPER_DTMC_KIND_DTMC && !(fabs(sum - 1) <= 1e-6)) abort();
        if (s > 0 && nv) {
            const int32_t *a = d->vals + (size_t)(s - 1) * nv, *b = d->vals + (size_t)s * nv;
            for (v = 0; v < nv && a[v] == b[v]; v++) continue;
            if (v == nv || a[v] > b[v]) abort();
        }
    }
}

/* P=? [ F "label" ] for each label, and the first rewards over 3 steps. */
static void check_properties(const proper_prism_model *m, const proper_dtmc *d) {
    size_t i;
    char text[600];
    for (i = 0; i < d->n_labels + 1; i++) {
        proper_prism_props *p = NULL;
        proper_error err;
        double v;
        if (i < d->n_labels) snprintf(text, sizeof text, "P=? [ F \"%s\" ]\nP=? [ F<=3 \"%s\" ]", d->labels[i].name, d->labels[i].name);
        else snprintf(text, sizeof text, "%s", d->n_rewards ? "R=? [ C<=3 ]\nR=? [ I=2 ]\nS=? [ \"init\" ]" : "S=? [ \"init\" ]");
        if (proper_prism_props_parse(&p, m, text, strlen(text), "f.pctl", &err)) continue; /* e.g. a label name with quotes */
        if (i < d->n_labels) {
            if (proper_prism_props_check(p, 0, d, NULL, &v, &err) == 0 && !(v >= -1e-9 && v <= 1 + 1e-9)) abort();
            if (proper_prism_props_check(p, 1, d, NULL, &v, &err) == 0 && !(v >= -1e-9 && v <= 1 + 1e-9)) abort();
        } else {
            size_t j;
            for (j = 0; j < proper_prism_props_count(p); j++) proper_prism_props_check(p, j, d, NULL, &v, &err);
        }
        proper_prism_props_free(p);
    }
}

/* The intervals of an interval model: aligned with d, within [0, 1],
 * holding d's probability (one distribution within them), rows admitting a
 * distribution; Pmin <= Pmax [ F label ] and both within [0, 1]. */
static void check_intervals(const proper_prism_model *m, const proper_dtmc *d, const proper_prism_intervals *iv) {
    proper_prism_check_opts co = proper_prism_check_opts_default();
    uint32_t s;
    uint64_t k;
    size_t i;
    if (iv->n != d->n_trans || !iv->lo || !iv->hi) abort();
    for (s = 0; s < d->n_states; s++) {
        double sum_lo = 0, sum_hi = 0;
        for (k = d->row[s]; k < d->row[s + 1]; k++) {
            if (!(iv->lo[k] >= 0 && iv->lo[k] <= iv->hi[k] && iv->hi[k] <= 1 && iv->hi[k] > 0)) abort();
            if (!(d->prob[k] >= iv->lo[k] - 1e-6 && d->prob[k] <= iv->hi[k] + 1e-6)) abort();
            sum_lo += iv->lo[k];
            sum_hi += iv->hi[k];
        }
        if (!(sum_lo <= 1 + 1e-6 && sum_hi >= 1 - 1e-6)) abort();
    }
    co.intervals = iv;
    for (i = 0; i < d->n_labels; i++) {
        proper_prism_props *p = NULL;
        proper_error err;
        double lo, hi;
        char text[600];
        snprintf(text, sizeof text, "Pmin=? [ F \"%s\" ]\nPmax=? [ F \"%s\" ]", d->labels[i].name, d->labels[i].name);
        if (proper_prism_props_parse(&p, m, text, strlen(text), "f.pctl", &err)) continue;
        if (proper_prism_props_check(p, 0, d, &co, &lo, &err) == 0 && proper_prism_props_check(p, 1, d, &co, &hi, &err) == 0 &&
            !(lo >= -1e-9 && lo <= hi + 1e-6 && hi <= 1 + 1e-9))
            abort();
        proper_prism_props_free(p);
    }
}

/* The exact companion agrees with the double chain. */
static void check_exact(const proper_prism_model *m, const proper_dtmc *d) {
    proper_exact_dtmc e;
    proper_error err;
    uint64_t k;
    if (d->n_states > 200 || d->kind == PROPER_DTMC_KIND_CTMC) return;
    proper_exact_dtmc_init(&e);
    if (proper_prism_build_exact(m, d, NULL, 0, &e, &err)) {
        if (err.code >= 0 || err.message[0] == '\0') abort();
        return;
    }
    for (k = 0; k < d->n_trans; k++)
        if (!(fabs(proper_rat_to_double(&e.prob[k]) - d->prob[k]) <= 1e-6)) abort();
    if (d->n_labels) {
        proper_prism_props *p = NULL;
        char text[300];
        proper_exact_vec x;
        double v;
        snprintf(text, sizeof text, "P=? [ F \"%s\" ]", d->labels[0].name);
        proper_exact_vec_init(&x);
        if (proper_prism_props_parse(&p, m, text, strlen(text), "f.pctl", &err) == 0 &&
            proper_prism_props_check(p, 0, d, NULL, &v, &err) == 0 && !d->init_dist) {
            if (proper_prism_props_exact(p, 0, d, &e, &x, &err) != 0) { /* every failure says why */
                if (err.code >= 0 || err.message[0] == '\0') abort();
            } else if (!(fabs(proper_rat_to_double(&x.q[d->init]) - v) <= 1e-6)) {
                abort();
            }
        }
        proper_exact_vec_free(&x);
        proper_prism_props_free(p);
    }
    proper_exact_dtmc_free(&e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    proper_prism_model *m = NULL;
    proper_prism_build_opts o;
    proper_dtmc d;
    proper_prism_intervals iv;
    proper_error err;
    size_t i;
    if (proper_prism_parse(&m, text, size, "f.pm", &err)) {
        check_error(&err, text, size);
        return 0;
    }
    for (i = 0; i < proper_prism_const_count(m); i++)
        if (!proper_prism_const_has_value(m, i)) {
            int type = proper_prism_const_type(m, i);
            if (proper_prism_set_const(m, proper_prism_const_name(m, i),
                                       type == PROPER_PRISM_INT ? 2 : type == PROPER_PRISM_BOOL ? 1 : 0.5, &err))
                abort();
        }
    if (size & 2) { /* comparisons of non-integer values decided exactly first, as --exact does */
        if (proper_prism_decide_exactly(m, NULL, 0, &err) && err.code != PROPER_ENOMEM) abort();
    }
    o = proper_prism_build_opts_default();
    o.max_states = FUZZ_MAX_STATES;
    o.fix_deadlocks = (int)(size & 1);
    proper_dtmc_init(&d);
    proper_prism_intervals_init(&iv);
    if (proper_prism_has_intervals(m)) {
        if (proper_prism_build(m, &o, &d, &err) != PROPER_EUNSUPPORTED) abort();
        if (proper_prism_build_intervals(m, &o, &d, &iv, &err)) {
            check_error(&err, text, size);
        } else {
            check_model(&d, m);
            check_intervals(m, &d, &iv);
        }
    } else if (proper_prism_build(m, &o, &d, &err)) {
        check_error(&err, text, size);
    } else {
        check_model(&d, m);
        check_properties(m, &d);
        check_exact(m, &d);
    }
    proper_dtmc_free(&d);
    proper_prism_intervals_free(&iv);
    proper_prism_free(m);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_prism"
#include "replay.h"
