/* Fuzz target for the simulation model file (sim.h). Any input either
 * parses or fails with an error whose line and column lie inside the
 * input; whatever parses prints to text that parses back to an equal model
 * and prints the same (round trip), and small models are simulated for a
 * short horizon under an event limit (a run may fail with a model error,
 * never crash or hang). A what-if assignment built from the input's first
 * line is applied too. Without PROPER_LIBFUZZER, main replays every file of
 * directory argv[1]. */
#define PROPER_SIM_MAX_INSTANT 20000
#define PROPER_IMPLEMENTATION
#include "../../src/sim.h"

#include <stdlib.h>
#include <string.h>

static void check_error(const proper_error *err, const uint8_t *data, size_t size) {
    size_t lines = 1, i;
    for (i = 0; i < size; i++) lines += data[i] == '\n';
    if (err->code == PROPER_ENOMEM) return;
    if (err->line < 1 || (size_t)err->line > lines || err->col < 1 || err->message[0] == '\0') abort();
}

static void round_trip(const proper_sim_model *m) {
    proper_sim_model t;
    proper_error err;
    proper_strbuf a, b;
    proper_strbuf_init(&a);
    proper_strbuf_init(&b);
    if (proper_sim_format(m, &a, &err)) abort();
    proper_sim_init(&t);
    if (proper_sim_parse(&t, a.data, a.len, "printed", &err)) abort();
    if (!proper_sim_equal(m, &t)) abort();
    if (proper_sim_format(&t, &b, &err) || strcmp(a.data, b.data) != 0) abort();
    proper_sim_free(&t);
    proper_strbuf_free(&a);
    proper_strbuf_free(&b);
}

static int small(const proper_sim_model *m) {
    size_t i, threads = 0, clients = 0, nodes = 0;
    for (i = 0; i < m->n_pools; i++) { threads += m->pools[i].threads; nodes += m->pools[i].n_nodes; }
    for (i = 0; i < m->n_sources; i++)
        if (m->sources[i].closed) clients += m->sources[i].count;
    return threads <= 64 && clients <= 256 && nodes <= 256 && m->cores <= 64 && m->disks <= 64;
}

static void simulate(const proper_sim_model *m) {
    proper_sim_opts o = proper_sim_opts_default();
    proper_sim_result r;
    proper_error err;
    o.horizon = 10;
    o.replications = 2;
    o.max_events = 20000;
    proper_sim_result_init(&r);
    if (proper_sim_run(m, &o, &r, &err) == PROPER_OK) {
        if (r.replications != 2 || r.n_locks != m->n_locks || r.n_queues != m->n_queues) abort();
        if (r.cpu_util.estimate < -1e-9 || r.cpu_util.estimate > 1 + 1e-9) abort();
    } else if (err.message[0] == '\0') {
        abort();
    }
    proper_sim_result_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    proper_sim_model m;
    proper_error err;
    proper_sim_init(&m);
    if (proper_sim_parse(&m, (const char *)data, size, "fuzz", &err) == PROPER_OK) {
        char line[128];
        size_t n = 0, i;
        round_trip(&m);
        if (small(&m)) simulate(&m);
        /* the first line's last word as an assignment (e.g. "cores=3") */
        for (i = 0; i < size && data[i] != '\n' && n + 1 < sizeof line; i++) {
            if (data[i] == ' ') n = 0;
            else line[n++] = (char)(data[i] ? data[i] : '?');
        }
        line[n] = '\0';
        if (proper_sim_set(&m, line, &err) == PROPER_OK) {
            if (proper_sim_validate(&m, &err) == PROPER_OK) {
                round_trip(&m);
                if (small(&m)) simulate(&m);
            }
        }
    } else {
        check_error(&err, data, size);
    }
    proper_sim_free(&m);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_sim"
#include "replay.h"
