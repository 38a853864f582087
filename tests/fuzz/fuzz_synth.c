/* Fuzz target for synth's source parser and the count-log reader: any
 * input either synthesises a well-formed model of function `f` or fails
 * with a positioned error; never a crash, leak or hang. A model that comes
 * out must have every successor in range, a parameter at every decision,
 * and a finite-or-infinite (never NaN) expected reward at p = 1/2. */
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
    if (m->n_params > 64) return;
    for (i = 0; i < m->n_params; i++) half[i] = 0.5;
    for (r = 0; r < m->n_rewards; r++) {
        if (proper_synth_expected_reward(m, (int)r, half, &v, &err)) abort();
        if (isnan(v) || v < 0) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    proper_synth_model m;
    proper_estimate_counts log;
    proper_error err;
    int is_trace = size >= 12 && memcmp(data, "proper-trace", 12) == 0;
    proper_synth_init(&m);
    proper_estimate_counts_init(&log);
    if (proper_synth_parse(&m, (const char *)data, size, "fuzz.c", "f", &err) == PROPER_OK) {
        check_model(&m);
        proper_synth_free(&m);
    } else if (err.message[0] == '\0') {
        abort();
    }
    /* a CSV log has a column and a row at least; its errors have a line */
    if (proper_estimate_counts_parse(&log, (const char *)data, size, "fuzz.csv", &err) == PROPER_OK) {
        if (log.n_runs == 0 || (!is_trace && log.n_cols == 0)) abort();
        proper_estimate_counts_free(&log);
    } else if (err.message[0] == '\0' || (!is_trace && err.line < 1)) {
        abort();
    }
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_synth"
#include "replay.h"
