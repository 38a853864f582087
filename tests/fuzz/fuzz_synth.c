/* Fuzz target for synth's source parser and the count-log reader: any
 * input either synthesises a well-formed model of function `f` or fails
 * with a positioned error; never a crash, leak or hang. A model that comes
 * out must have every successor in range, a parameter at every decision,
 * a chain (dtmc.h) that mirrors its source map, and a finite-or-infinite
 * (never NaN) expected reward at p = 1/2. The
 * lenient parse succeeds whenever the strict one does, with the same
 * model and warnings, and its warnings are positioned lines. An input "SOURCE\n%%\nLOG"
 * is also a model and a count log: estimating from them either fails with
 * a message or gives probabilities in [0, 1] and lo <= point <= hi. */
#define PROPER_IMPLEMENTATION
#include "../../src/estimate.h"

#include <stdlib.h>

static void check_model(const proper_synth_model *m) {
    size_t i, r;
    double half[64], v;
    proper_error err;
    if (m->initial >= m->n_states || m->end >= m->n_states) abort();
    for (i = 0; i < m->n_states; i++) {
        const proper_synth_state *st = &m->states[i];
        if (st->next >= m->n_states) abort();
        if ((st->kind == PROPER_SYNTH_BRANCH || st->kind == PROPER_SYNTH_LOOP) &&
            (st->taken >= m->n_states || st->param < 0 || (size_t)st->param >= m->n_params))
            abort();
    }
    /* the chain (dtmc.h) mirrors the source map */
    if (m->dtmc.n_states != m->n_states || m->dtmc.init != m->initial || m->dtmc.n_param_rows != m->n_params ||
        m->dtmc.n_rewards != m->n_rewards)
        abort();
    for (i = 0; i < m->n_params; i++)
        if (m->dtmc.param_rows[i][0] != m->params[i].state || m->dtmc.param_rows[i][1] != m->states[m->params[i].state].taken ||
            m->dtmc.param_rows[i][2] != m->states[m->params[i].state].next)
            abort();
    if (m->n_params > 64) return;
    for (i = 0; i < m->n_params; i++) half[i] = 0.5;
    for (r = 0; r < m->n_rewards; r++) {
        if (proper_synth_expected_reward(m, (int)r, half, &v, &err)) abort();
        if (isnan(v) || v < 0) abort();
    }
}

static void check_estimate(const uint8_t *data, size_t size) {
    const char *text = (const char *)data, *sep = NULL;
    proper_synth_model m;
    proper_estimate_counts log;
    proper_estimate est;
    proper_error err;
    size_t i, k;
    for (k = 0; k + 4 <= size && !sep; k++)
        if (memcmp(text + k, "\n%%\n", 4) == 0) sep = text + k;
    if (!sep) return;
    proper_synth_init(&m);
    proper_estimate_counts_init(&log);
    proper_estimate_init(&est);
    if (proper_synth_parse(&m, text, (size_t)(sep - text) + 1, "fuzz.c", "f", &err) == PROPER_OK &&
        proper_estimate_counts_parse(&log, sep + 4, size - (size_t)(sep - text) - 4, "fuzz.csv", &err) == PROPER_OK) {
        int method;
        for (method = 0; method < 2; method++) {
            if (proper_estimate_from_counts(&est, &m, &log, 0.95, method, &err) != PROPER_OK) {
                if (err.message[0] == '\0') abort();
                continue;
            }
            for (i = 0; i < m.n_params; i++)
                if (!(est.lo[i] >= 0 && est.lo[i] <= est.p[i] + 1e-12 && est.p[i] <= est.hi[i] + 1e-12 && est.hi[i] <= 1)) abort();
            for (i = 0; i < m.n_rewards && m.n_params <= 64; i++) {
                double point, lo, hi;
                if (proper_estimate_property(&m, (int)i, &est, &point, &lo, &hi, &err) == PROPER_OK &&
                    (isnan(point) || isnan(lo) || isnan(hi) || lo > point * (1 + 1e-9) + 1e-12 ||
                     point > hi * (1 + 1e-9) + 1e-12))
                    abort();
            }
        }
    }
    proper_estimate_free(&est);
    proper_estimate_counts_free(&log);
    proper_synth_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    proper_synth_model m;
    proper_estimate_counts log;
    proper_error err;
    int is_trace = size >= 12 && memcmp(data, "proper-trace", 12) == 0;
    proper_synth_init(&m);
    proper_estimate_counts_init(&log);
    proper_synth_model lm;
    proper_synth_opts lenient = proper_synth_opts_default();
    int strict_rc, lenient_rc;
    proper_synth_init(&lm);
    lenient.lenient = 1;
    strict_rc = proper_synth_parse(&m, (const char *)data, size, "fuzz.c", "f", &err);
    if (strict_rc == PROPER_OK) check_model(&m);
    else if (err.message[0] == '\0') abort();
    lenient_rc = proper_synth_parse_opts(&lm, (const char *)data, size, "fuzz.c", "f", lenient, &err);
    if (lenient_rc == PROPER_OK) {
        const char *w = lm.warnings;
        check_model(&lm);
        if (strict_rc == PROPER_OK &&
            (lm.n_states != m.n_states || lm.n_params != m.n_params || !lm.warnings != !m.warnings ||
             (lm.warnings && strcmp(lm.warnings, m.warnings) != 0)))
            abort();
        while (w && *w) { /* "fuzz.c:L:C: ...\n" lines */
            if (strncmp(w, "fuzz.c:", 7) != 0) abort();
            w = strchr(w, '\n');
            if (!w) abort();
            w++;
        }
    } else if (strict_rc == PROPER_OK || err.message[0] == '\0') {
        abort();
    }
    /* a CSV log has a column and a row at least, a totals file a column and
     * no rows; their errors have a line */
    if (proper_estimate_counts_parse(&log, (const char *)data, size, "fuzz.csv", &err) == PROPER_OK) {
        if (log.is_totals ? log.n_cols == 0 || log.n_runs != 0 : log.n_runs == 0 || (!is_trace && log.n_cols == 0)) abort();
        proper_estimate_counts_free(&log);
    } else if (err.message[0] == '\0' || (!is_trace && err.line < 1)) {
        abort();
    }
    proper_synth_free(&m);
    proper_synth_free(&lm);
    check_estimate(data, size);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_synth"
#include "replay.h"
