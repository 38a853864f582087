/* bench_trace.c — cost of the trace.h recorder per event, next to two
 * baselines measured in the same run: an empty loop (the floor) and one
 * fprintf per event (what a naive logger would do). Everything writes to
 * /dev/null, so the figures are CPU cost, not disk speed. Flushes (text
 * formatting and fwrite under the writer's mutex) are included in the
 * recorder's figure: they happen inside the timed loop.
 *
 * Also: the monotonic clock read alone, an event with its own clock read
 * (how an instrumented step is measured), and two threads recording into
 * one writer at once. Target (issue 3): under 50 ns per event. */
#define PROPER_IMPLEMENTATION
#include "../src/trace.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define EVENTS 4000000L        /* events per measurement */
#define EVENTS_PER_RECORD 10   /* R, 8 steps, E */
#define REPEATS 5              /* best of, to damp a shared machine's noise */

static volatile uint64_t sink;

typedef struct ctx {
    FILE *devnull;
    proper_trace_writer *w;
    int step;
} ctx;

static double time_empty(ctx *c) {
    int64_t t0 = proper_trace_now();
    long i;
    (void)c;
    for (i = 0; i < EVENTS; i++) sink += (uint64_t)i;
    return (double)(proper_trace_now() - t0) / EVENTS;
}

static double time_fprintf(ctx *c) {
    int64_t t0 = proper_trace_now();
    long i;
    for (i = 0; i < EVENTS; i++) {
        if (i % EVENTS_PER_RECORD == 0) fprintf(c->devnull, "R %ld\n", i);
        else if (i % EVENTS_PER_RECORD == EVENTS_PER_RECORD - 1) fputs("E\n", c->devnull);
        else fprintf(c->devnull, "S %s %ld\n", "sendContent", i);
    }
    fflush(c->devnull);
    return (double)(proper_trace_now() - t0) / EVENTS;
}

/* The recorder: begin, 8 steps, end per record; flushes included. */
static double record_events(ctx *c, int with_clock) {
    proper_trace_recorder rec;
    proper_error err;
    int64_t t0, start = 0;
    long i;
    if (proper_trace_recorder_init(&rec, c->w, 0, &err)) return -1;
    t0 = proper_trace_now();
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
    if (proper_trace_recorder_free(&rec, &err)) return -1;
    return (double)(proper_trace_now() - t0) / EVENTS;
}

static double time_recorder(ctx *c) { return record_events(c, 0); }
static double time_recorder_clock(ctx *c) { return record_events(c, 1); }

static double time_clock(ctx *c) {
    int64_t t0 = proper_trace_now();
    long i;
    (void)c;
    for (i = 0; i < EVENTS; i++) sink += (uint64_t)proper_trace_now();
    return (double)(proper_trace_now() - t0) / EVENTS;
}

typedef struct thread_arg {
    ctx *c;
    double ns;
} thread_arg;

static void *thread_main(void *p) {
    thread_arg *a = (thread_arg *)p;
    a->ns = record_events(a->c, 0);
    return NULL;
}

/* Two threads at once, each with its own recorder, one shared writer. */
static double time_two_threads(ctx *c) {
    pthread_t th[2];
    thread_arg a[2];
    int i;
    for (i = 0; i < 2; i++) {
        a[i].c = c;
        pthread_create(&th[i], NULL, thread_main, &a[i]);
    }
    for (i = 0; i < 2; i++) pthread_join(th[i], NULL);
    return a[0].ns > a[1].ns ? a[0].ns : a[1].ns;
}

static double best_of(double (*fn)(ctx *), ctx *c) {
    double best = 1e300;
    int r;
    for (r = 0; r < REPEATS; r++) {
        double ns = fn(c);
        if (ns >= 0 && ns < best) best = ns;
    }
    return best;
}

int main(void) {
    ctx c;
    proper_error err;
    double empty, fpf, rec, rec_clock, clk, two;
    c.devnull = fopen("/dev/null", "w");
    if (!c.devnull || proper_trace_writer_open(&c.w, c.devnull, &err)) {
        fprintf(stderr, "bench_trace: cannot open /dev/null\n");
        return 1;
    }
    c.step = proper_trace_writer_name(c.w, "sendContent", &err);
    empty = best_of(time_empty, &c);
    fpf = best_of(time_fprintf, &c);
    rec = best_of(time_recorder, &c);
    rec_clock = best_of(time_recorder_clock, &c);
    clk = best_of(time_clock, &c);
    two = best_of(time_two_threads, &c);
    proper_trace_writer_close(c.w, &err);
    fclose(c.devnull);

    printf("trace.h recorder, %ld events per run, best of %d, output to /dev/null\n", EVENTS, REPEATS);
    printf("%-40s %10s %12s %12s\n", "", "ns/event", "vs empty", "vs fprintf");
    printf("%-40s %10.2f %12.2f %12.3f\n", "empty loop (baseline)", empty, 1.0, empty / fpf);
    printf("%-40s %10.2f %12.2f %12.3f\n", "fprintf per event (baseline)", fpf, fpf / empty, 1.0);
    printf("%-40s %10.2f %12.2f %12.3f\n", "recorder event (incl. flushes)", rec, rec / empty, rec / fpf);
    printf("%-40s %10.2f %12.2f %12.3f\n", "recorder event + clock read", rec_clock, rec_clock / empty,
           rec_clock / fpf);
    printf("%-40s %10.2f %12.2f %12.3f\n", "clock read alone (CLOCK_MONOTONIC)", clk, clk / empty, clk / fpf);
    printf("%-40s %10.2f %12.2f %12.3f\n", "recorder event, 2 threads, 1 writer", two, two / empty, two / fpf);
    printf("target: recorder event under 50 ns: %s\n", rec < 50.0 ? "met" : "MISSED");
    return 0;
}
