/* rounds.c — a CPU-bound worker pool that meets at a barrier after every
 * round (the shape of the paper's Moldyn and Montecarlo, section 5.2), for
 * validating sim.h's models (docs/simulation-results.md). Each thread spins
 * a uniform(--min-us, --max-us) amount of its own CPU time per round, then
 * waits at a pthread barrier of all threads; the run reports rounds per
 * second over --rounds rounds.
 *
 * With --trace FILE it records thread events with sim.h's recorder
 * (begin/end of the compute CF, await.req/await on the barrier, done per
 * thread and round; monotonic and thread CPU clocks).
 *
 *   rounds [--threads N] [--rounds R] [--min-us A] [--max-us B] [--seed S] [--trace FILE]
 */
#define _POSIX_C_SOURCE 200809L
#define PROPER_IMPLEMENTATION
#include "../../src/sim.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 256

typedef struct shared {
    pthread_barrier_t barrier;
    int rounds;
    double min_us, max_us;
    proper_sim_writer *w;
    int id_pool, id_barrier, id_cf;
} shared;

typedef struct worker {
    shared *s;
    pthread_t thread;
    proper_rng rng;
} worker;

static int64_t now_ns(clockid_t c) {
    struct timespec ts;
    clock_gettime(c, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void spin(double us) {
    int64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + (int64_t)(us * 1000.0);
    volatile unsigned x = 1;
    while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
        for (int i = 0; i < 200; i++) x = x * 1664525u + 1013904223u;
}

static void *worker_main(void *arg) {
    worker *w = (worker *)arg;
    shared *s = w->s;
    proper_sim_recorder rec;
    proper_error err;
    int r, tracing = 0;
    if (s->w) tracing = proper_sim_recorder_init(&rec, s->w, s->id_pool, &err) == 0;
    for (r = 0; r < s->rounds; r++) {
        if (tracing) proper_sim_record(&rec, PROPER_SIM_TEV_BEGIN, s->id_cf, -1, -1);
        spin(s->min_us + (s->max_us - s->min_us) * proper_rng_uniform(&w->rng));
        if (tracing) {
            proper_sim_record(&rec, PROPER_SIM_TEV_END, s->id_cf, -1, -1);
            proper_sim_record(&rec, PROPER_SIM_TEV_AWAIT_REQ, s->id_barrier, -1, -1);
        }
        pthread_barrier_wait(&s->barrier);
        if (tracing) {
            proper_sim_record(&rec, PROPER_SIM_TEV_AWAIT, s->id_barrier, -1, -1);
            proper_sim_record(&rec, PROPER_SIM_TEV_DONE, -1, -1, -1);
        }
    }
    if (tracing) proper_sim_recorder_free(&rec, &err);
    return NULL;
}

int main(int argc, char **argv) {
    shared s;
    worker ws[MAX_THREADS];
    int threads = 4, i;
    unsigned long long seed = 1;
    const char *trace = NULL;
    FILE *tf = NULL;
    proper_rng rng;
    proper_error err;
    int64_t t0, t1;
    memset(&s, 0, sizeof s);
    s.rounds = 500;
    s.min_us = 2000;
    s.max_us = 4000;
    for (i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--rounds")) s.rounds = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--min-us")) s.min_us = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--max-us")) s.max_us = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--trace")) trace = argv[i + 1];
        else {
            fprintf(stderr, "rounds: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (i != argc || threads < 1 || threads > MAX_THREADS || s.rounds < 1 || !(s.min_us >= 0) || s.max_us < s.min_us) {
        fprintf(stderr, "usage: rounds [--threads N] [--rounds R] [--min-us A] [--max-us B] [--seed S] [--trace FILE]\n");
        return 2;
    }
    pthread_barrier_init(&s.barrier, NULL, (unsigned)threads);
    if (trace) {
        char decl[64];
        if (!(tf = fopen(trace, "w")) || proper_sim_writer_open(&s.w, tf, 1, &err)) {
            fprintf(stderr, "rounds: cannot write %s\n", trace);
            return 2;
        }
        s.id_pool = proper_sim_writer_name(s.w, "worker", &err);
        s.id_barrier = proper_sim_writer_name(s.w, "round", &err);
        s.id_cf = proper_sim_writer_name(s.w, "compute", &err);
        snprintf(decl, sizeof decl, "lock round barrier %d", threads);
        proper_sim_writer_declare(s.w, decl, &err);
        snprintf(decl, sizeof decl, "cores %ld", sysconf(_SC_NPROCESSORS_ONLN));
        proper_sim_writer_declare(s.w, decl, &err);
    }
    proper_rng_seed(&rng, seed);
    t0 = now_ns(CLOCK_MONOTONIC);
    for (i = 0; i < threads; i++) {
        ws[i].s = &s;
        ws[i].rng = rng;
        proper_rng_jump(&rng);
        pthread_create(&ws[i].thread, NULL, worker_main, &ws[i]);
    }
    for (i = 0; i < threads; i++) pthread_join(ws[i].thread, NULL);
    t1 = now_ns(CLOCK_MONOTONIC);
    if (trace) {
        if (proper_sim_writer_close(s.w, &err)) fprintf(stderr, "rounds: %s\n", err.message);
        fclose(tf);
    }
    pthread_barrier_destroy(&s.barrier);
    printf("threads %d rounds %d seconds %.6f rounds_per_second %.6g thread_rounds_per_second %.6g\n", threads, s.rounds,
           (double)(t1 - t0) / 1e9, s.rounds / ((double)(t1 - t0) / 1e9),
           (double)threads * s.rounds / ((double)(t1 - t0) / 1e9));
    return 0;
}
