/* Fuzz target for sim.h's thread-event trace reader and the model builder.
 * Any input either reads or fails with an error on a line of the input;
 * whatever reads is built into a model (or refused with a message), and a
 * built model is valid, prints and reads back equal, and runs briefly under
 * an event limit; the trace appended to a copy of itself (two runs) builds
 * too. Without PROPER_LIBFUZZER, main replays every file of
 * directory argv[1]. */
#define PROPER_SIM_MAX_INSTANT 20000
#define PROPER_SIM_BUILD_MAX_NODES 256
#define PROPER_IMPLEMENTATION
#include "../../src/sim.h"

#include <stdlib.h>
#include <string.h>

static void check_error(const proper_error *err, const uint8_t *data, size_t size) {
    size_t lines = 1, i;
    for (i = 0; i < size; i++) lines += data[i] == '\n';
    if (err->code == PROPER_ENOMEM) return;
    if (err->line < 1 || (size_t)err->line > lines || err->message[0] == '\0') abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    proper_sim_trace tr;
    proper_sim_model m, back;
    proper_sim_build_stats st;
    proper_error err;
    proper_sim_trace_init(&tr);
    proper_sim_init(&m);
    proper_sim_init(&back);
    if (proper_sim_trace_parse(&tr, (const char *)data, size, "fuzz", &err) != PROPER_OK) {
        check_error(&err, data, size);
    } else if (proper_sim_build(&m, &tr, NULL, &st, &err) == PROPER_OK) {
        proper_strbuf b;
        size_t i, threads = 0;
        if (proper_sim_validate(&m, &err)) abort();
        if (st.nodes_after > st.nodes_before + st.loops) abort(); /* a loop adds its own node */
        proper_strbuf_init(&b);
        if (proper_sim_format(&m, &b, &err)) abort();
        if (proper_sim_parse(&back, b.data, b.len, "built", &err) || !proper_sim_equal(&m, &back)) abort();
        proper_strbuf_free(&b);
        for (i = 0; i < m.n_pools; i++) threads += m.pools[i].threads;
        if (threads <= 64 && m.cores <= 64 && m.disks <= 64) {
            proper_sim_opts o = proper_sim_opts_default();
            proper_sim_result r;
            o.horizon = 1e-3;
            o.replications = 2;
            o.max_events = 20000;
            proper_sim_result_init(&r);
            if (proper_sim_run(&m, &o, &r, &err) != PROPER_OK && err.message[0] == '\0') abort();
            proper_sim_result_free(&r);
        }
    } else if (err.message[0] == '\0') {
        abort();
    }
    if (tr.n_threads) {
        /* the same run appended as a second run: twice the threads */
        proper_sim_trace again;
        size_t n = tr.n_threads;
        proper_sim_trace_init(&again);
        if (proper_sim_trace_parse(&again, (const char *)data, size, "fuzz", &err) != PROPER_OK) abort();
        if (proper_sim_trace_append(&tr, &again, &err) != PROPER_OK || tr.n_threads != 2 * n) abort();
        proper_sim_free(&m);
        proper_sim_init(&m);
        if (proper_sim_build(&m, &tr, NULL, &st, &err) == PROPER_OK && proper_sim_validate(&m, &err)) abort();
        proper_sim_trace_free(&again);
    }
    proper_sim_free(&m);
    proper_sim_free(&back);
    proper_sim_trace_free(&tr);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_sim_trace"
#include "replay.h"
