/* gen.c — run one of the nine instrumented benchmark programs N times and
 * write its location traces.
 *
 *   vlmc-gen PROGRAM [-n RUNS] [-p PARAM] [--seed S] [--proper-trace]
 *   vlmc-gen PROGRAM --cfg        print the program's control-flow graph
 *   vlmc-gen --list               the programs and their default parameters
 *
 * Output (stdout): one run per line of location names (proper vlmc's runs
 * format), or with --proper-trace the trace.h format written by the trace.h
 * recorder (one record per run, its locations on V lines).
 */
#define PROPER_IMPLEMENTATION
#include "../../src/core.h"
#include "../../src/trace.h"
#include "programs.h"

#include <stdio.h>

static int usage(FILE *out) {
    fprintf(out, "usage: vlmc-gen PROGRAM [-n RUNS] [-p PARAM] [--seed S] [--proper-trace]\n"
                 "       vlmc-gen PROGRAM --cfg\n"
                 "       vlmc-gen --list\n");
    return out == stdout ? 0 : 2;
}

static int write_proper_trace(const vlmc_program *p, unsigned long runs, int param, proper_rng *rng) {
    proper_trace_writer *w;
    proper_trace_recorder rec;
    proper_error err;
    vlmc_run run;
    int ids[256], i, rc = 0;
    unsigned long r;
    char buf[512];
    memset(&run, 0, sizeof run);
    if (proper_trace_writer_open(&w, stdout, &err)) goto fail;
    for (i = 0; i < p->n_locs; i++)
        if ((ids[i] = proper_trace_writer_name(w, p->locs[i], &err)) < 0) goto fail;
    if (proper_trace_recorder_init(&rec, w, 0, &err)) goto fail;
    for (r = 0; r < runs; r++) {
        size_t k;
        run.len = 0;
        p->run(&run, rng, param);
        proper_trace_begin(&rec, (uint64_t)r + 1);
        for (k = 0; k < run.len; k++) proper_trace_visit(&rec, ids[run.loc[k]]);
        proper_trace_end(&rec);
    }
    rc = proper_trace_recorder_free(&rec, &err);
    rc |= proper_trace_writer_close(w, &err);
    free(run.loc);
    if (rc) goto fail_nofree;
    return 0;
fail:
    free(run.loc);
fail_nofree:
    fprintf(stderr, "vlmc-gen: %s\n", proper_error_format(&err, buf, sizeof buf));
    return 1;
}

int main(int argc, char **argv) {
    const vlmc_program *p;
    unsigned long runs = 10000;
    unsigned long long seed = 1;
    int param, i, cfg = 0, trace = 0;
    proper_rng rng;
    if (argc < 2) return usage(stderr);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) return usage(stdout);
    if (strcmp(argv[1], "--list") == 0) {
        for (i = 0; i < VLMC_N_PROGRAMS; i++)
            printf("%-16s %-16s default parameter %d\n", vlmc_programs[i].name, vlmc_programs[i].title,
                   vlmc_programs[i].param);
        return 0;
    }
    p = vlmc_find_program(argv[1]);
    if (!p) { fprintf(stderr, "vlmc-gen: unknown program '%s' (try --list)\n", argv[1]); return 2; }
    param = p->param;
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) runs = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) param = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--cfg") == 0) cfg = 1;
        else if (strcmp(argv[i], "--proper-trace") == 0) trace = 1;
        else return usage(stderr);
    }
    if (param < 1) { fprintf(stderr, "vlmc-gen: -p must be at least 1\n"); return 2; }
    if (cfg) {
        fputs(p->cfg, stdout);
        return 0;
    }
    proper_rng_seed(&rng, (uint64_t)seed);
    return trace ? write_proper_trace(p, runs, param, &rng) : vlmc_write_runs(p, stdout, runs, param, &rng);
}
