/* bench_trace.c — cost of the trace.h recorder per event, next to two
 * baselines measured in the same run: an empty loop (the floor) and one
 * fprintf per event (what a naive logger would do). Everything writes to
 * /dev/null, so the figures are CPU cost, not disk speed. Flushes (text
 * formatting and fwrite under the writer's mutex) are included in the
 * recorder's figure: they happen inside the timed loop.
 *
 * Also: the monotonic clock read alone, an event with its own clock read
 * (how an instrumented step is measured), and two threads recording into
 * one writer at once. Clock, repetitions (best and median of REPEATS
 * batches, wall clock) and ratio lines (to the fprintf baseline) come from
 * bench/bench.h. Target (issue 3): under 50 ns per event. */
#include "bench.h"
#define PROPER_IMPLEMENTATION
#include "../src/trace.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define EVENTS 4000000L        /* events per measurement */
#define EVENTS_PER_RECORD 10   /* R, 8 steps, E */
#define REPEATS 5              /* best of, to damp a shared machine's noise */

typedef struct ctx {
    FILE *devnull;
    proper_trace_writer *w;
    int step;
} ctx;

/* Each operation below is one batch of EVENTS events. */

static void run_empty(void *p) {
    uint64_t sum = 0;
    long i;
    (void)p;
    for (i = 0; i < EVENTS; i++) bench_keep((double)(sum += (uint64_t)i));
}

static void run_fprintf(void *p) {
    ctx *c = (ctx *)p;
    long i;
    for (i = 0; i < EVENTS; i++) {
        if (i % EVENTS_PER_RECORD == 0) fprintf(c->devnull, "R %ld\n", i);
        else if (i % EVENTS_PER_RECORD == EVENTS_PER_RECORD - 1) fputs("E\n", c->devnull);
        else fprintf(c->devnull, "S %s %ld\n", "sendContent", i);
    }
    fflush(c->devnull);
}

/* The recorder: begin, 8 steps, end per record; flushes included. */
static void record_events(ctx *c, int with_clock) {
    proper_trace_recorder rec;
    proper_error err;
    int64_t start = 0;
    long i;
    if (proper_trace_recorder_init(&rec, c->w, 0, &err)) {
        fprintf(stderr, "bench_trace: %s\n", err.message);
        exit(1);
    }
    for (i = 0; i < EVENTS; i++) {
        if (i % EVENTS_PER_RECORD == 0) {
            proper_trace_begin(&rec, (uint64_t)i);
            if (with_clock) start = proper_trace_now();
        } else if (i % EVENTS_PER_RECORD == EVENTS_PER_RECORD - 1) {
            proper_trace_end(&rec);
        } else if (with_clock) {
            int64_t now = proper_trace_now();
            proper_trace_step(&rec, c->step, now - start);
            start = now;
        } else {
            proper_trace_step(&rec, c->step, i);
        }
    }
    if (proper_trace_recorder_free(&rec, &err)) {
        fprintf(stderr, "bench_trace: %s\n", err.message);
        exit(1);
    }
}

static void run_recorder(void *c) { record_events((ctx *)c, 0); }
static void run_recorder_clock(void *c) { record_events((ctx *)c, 1); }

static void run_clock(void *p) {
    uint64_t sum = 0;
    long i;
    (void)p;
    for (i = 0; i < EVENTS; i++) sum += (uint64_t)proper_trace_now();
    bench_keep((double)sum);
}

static void *thread_main(void *c) {
    run_recorder(c);
    return NULL;
}

/* Two threads at once, each with its own recorder, one shared writer; wall
 * time until both are done. */
static void run_two_threads(void *c) {
    pthread_t th[2];
    int i;
    for (i = 0; i < 2; i++) pthread_create(&th[i], NULL, thread_main, c);
    for (i = 0; i < 2; i++) pthread_join(th[i], NULL);
}

/* Best and median of REPEATS batches on the wall clock, per event. */
static bench_result per_event(bench_fn fn, ctx *c) {
    bench_result r = bench_run(fn, c, BENCH_WALL, REPEATS, 0.0);
    r.best /= EVENTS;
    r.median /= EVENTS;
    r.worst /= EVENTS;
    return r;
}

int main(void) {
    ctx c;
    proper_error err;
    bench_result empty, fpf, rec, rec_clock, clk, two;
    c.devnull = fopen("/dev/null", "w");
    if (!c.devnull || proper_trace_writer_open(&c.w, c.devnull, &err)) {
        fprintf(stderr, "bench_trace: cannot open /dev/null\n");
        return 1;
    }
    c.step = proper_trace_writer_name(c.w, "sendContent", &err);
    empty = per_event(run_empty, &c);
    fpf = per_event(run_fprintf, &c);
    rec = per_event(run_recorder, &c);
    rec_clock = per_event(run_recorder_clock, &c);
    clk = per_event(run_clock, &c);
    two = per_event(run_two_threads, &c);
    proper_trace_writer_close(c.w, &err);
    fclose(c.devnull);

    printf("trace.h recorder, %ld events per run, best and median of %d, per event, output to /dev/null;\n"
           "ratios to one fprintf per event\n",
           EVENTS, REPEATS);
    bench_print(stdout, "empty loop (floor)", &empty, NULL);
    bench_print(stdout, "fprintf per event (baseline)", &fpf, NULL);
    bench_print(stdout, "recorder event (incl. flushes)", &rec, &fpf);
    bench_print(stdout, "recorder event + clock read", &rec_clock, &fpf);
    bench_print(stdout, "clock read (CLOCK_MONOTONIC)", &clk, &fpf);
    bench_print(stdout, "recorder, 2 threads, 1 writer", &two, &fpf);
    printf("target: recorder event under 50 ns: %s\n", rec.best < 50e-9 ? "met" : "MISSED");
    return 0;
}
