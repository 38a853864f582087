/* casestudy — runs one PROPER case study on random inputs and writes its
 * count log as a trace (one record per run, `N pK count` lines), using
 * trace.h's recorder.
 *
 *   casestudy NAME RUNS [SEED] > NAME.trace
 *   proper analyze examples/annotated/cases.c --function NAME --log NAME.trace
 */
#define PROPER_IMPLEMENTATION
#include "../../src/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"

static int usage(void) {
    int i;
    fprintf(stderr, "usage: casestudy NAME RUNS [SEED] > log.trace\ncase studies:");
    for (i = 0; i < n_case_studies; i++) fprintf(stderr, " %s", case_studies[i].name);
    fputc('\n', stderr);
    return 2;
}

int main(int argc, char **argv) {
    const case_study *c;
    proper_trace_writer *w;
    proper_trace_recorder rec;
    proper_error err;
    proper_rng rng;
    int ids[CASE_MAX_PARAMS + 1], k;
    long runs, r, counts[CASE_MAX_PARAMS + 1];
    char comment[256], msg[800];
    if (argc < 3 || !(c = case_find(argv[1])) || (runs = atol(argv[2])) < 1) return usage();
    proper_rng_seed(&rng, argc > 3 ? strtoull(argv[3], NULL, 10) : 1);
    if (proper_trace_writer_open(&w, stdout, &err)) goto fail;
    snprintf(comment, sizeof comment, "case study %s, %ld runs; inputs: %s", c->name, runs, c->input);
    if (proper_trace_writer_comment(w, comment, &err)) goto fail;
    for (k = 1; k <= c->n_params; k++) {
        char name[8];
        snprintf(name, sizeof name, "p%d", k);
        if ((ids[k] = proper_trace_writer_name(w, name, &err)) < 0) goto fail;
    }
    if (proper_trace_recorder_init(&rec, w, 4096, &err)) goto fail;
    for (r = 0; r < runs; r++) {
        case_run(c, &rng, counts);
        proper_trace_begin(&rec, (uint64_t)r);
        for (k = 1; k <= c->n_params; k++) proper_trace_count(&rec, ids[k], counts[k]);
        proper_trace_end(&rec);
    }
    if (proper_trace_recorder_free(&rec, &err) || proper_trace_writer_close(w, &err)) goto fail;
    return 0;
fail:
    fprintf(stderr, "casestudy: %s\n", proper_error_format(&err, msg, sizeof msg));
    return 1;
}
