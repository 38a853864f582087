/* bench_sim.c — events per second of sim.h's simulator (CPU time of this
 * process) on three models, against a baseline measured in the same run: a
 * hand-written M/M/1 event loop (two event kinds on a binary heap, the same
 * RNG, no model to interpret), the least any discrete-event simulator of
 * that queue can do per event. The target is >= 10^6 simulated
 * events per second on one core. Then the cost of one recorded thread event
 * (proper_sim_record: the clock read and the buffered slot, flushes to
 * /dev/null included), with and without the thread CPU clock, against a
 * bare clock_gettime(CLOCK_MONOTONIC) measured in the same run; the issue
 * asks for under 50 ns per event.
 *
 *   bench_sim [--seed S]
 */
#include "bench.h"
#define PROPER_IMPLEMENTATION
#include "../src/sim.h"

#include <stdlib.h>

static double cpu(void) { return bench_now(BENCH_PROCESS_CPU); }

typedef struct { double t; int kind; } ev;

static void heap_push(ev *h, size_t *n, ev e) {
    size_t i = (*n)++;
    while (i > 0 && h[(i - 1) / 2].t > e.t) { h[i] = h[(i - 1) / 2]; i = (i - 1) / 2; }
    h[i] = e;
}

static ev heap_pop(ev *h, size_t *n) {
    ev top = h[0], last = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && h[c + 1].t < h[c].t) c++;
        if (h[c].t >= last.t) break;
        h[i] = h[c];
        i = c;
    }
    if (*n) h[i] = last;
    return top;
}

/* M/M/1 (lambda 0.5, mu 1) to the horizon; returns events, *w the mean
 * response time (FIFO arrival times kept in a ring). */
static unsigned long long baseline(double horizon, unsigned long long seed, double *w) {
    proper_rng rng;
    ev h[4];
    size_t n = 0, cap = 1 << 20, head = 0, len = 0;
    double *arr = (double *)malloc(cap * sizeof(double)), sum = 0;
    unsigned long long events = 0, done = 0;
    proper_rng_seed(&rng, seed);
    heap_push(h, &n, (ev){proper_rng_exponential(&rng, 0.5), 0});
    while (n) {
        ev e = heap_pop(h, &n);
        if (e.t > horizon) break;
        events++;
        if (e.kind == 0) {
            if (len == cap) break;
            arr[(head + len++) % cap] = e.t;
            if (len == 1) heap_push(h, &n, (ev){e.t + proper_rng_exponential(&rng, 1.0), 1});
            heap_push(h, &n, (ev){e.t + proper_rng_exponential(&rng, 0.5), 0});
        } else {
            sum += e.t - arr[head];
            head = (head + 1) % cap;
            len--;
            done++;
            if (len) heap_push(h, &n, (ev){e.t + proper_rng_exponential(&rng, 1.0), 1});
        }
    }
    free(arr);
    *w = sum / (double)done;
    return events;
}

static const char *models[][2] = {
    {"M/M/1 (fifo)",
     "proper-sim 1\ncpu cores 1 fifo\nqueue q\nsource a open q interarrival exp(2)\n"
     "pool s threads 1\n  t: get q -> c\n  c: cpu exp(1) -> d\n  d: done -> t\nend\n"},
    {"server (rr, mutex, disk)",
     "proper-sim 1\ncpu cores 2 quantum 0.004\ndisk servers 1\nqueue conn\nlock cache mutex\n"
     "source clients open conn interarrival exp(0.0025)\npool worker threads 4\n"
     "  take: get conn -> parse\n  parse: cpu exp(0.0004) -> lookup\n  lookup: lock cache -> find\n"
     "  find: cpu const(5e-05) -> release\n  release: unlock cache -> read\n"
     "  read: io exp(0.003) k empirical(0:3, 1:1) -> send\n  send: cpu exp(0.0008) -> out\n  out: done -> take\nend\n"},
    {"closed, 16 threads, ps",
     "proper-sim 1\ncpu cores 4 ps\ndisk servers 2\nqueue q\nsource u closed q clients 16 think exp(0.01)\n"
     "pool w threads 16\n  t: get q -> c\n  c: cpu exp(0.002) -> i\n  i: io exp(0.001) -> d\n  d: done -> t\nend\n"},
};

static void clock_only(void *ctx) {
    struct timespec ts;
    (void)ctx;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    bench_keep((double)ts.tv_nsec);
}

static void record_one(void *ctx) { proper_sim_record((proper_sim_recorder *)ctx, PROPER_SIM_TEV_DONE, -1, -1, -1); }

int main(int argc, char **argv) {
    unsigned long long seed = 1, ev;
    double c0, t, w, base_rate;
    size_t i;
    int all_fast = 1;
    if (argc == 3 && strcmp(argv[1], "--seed") == 0) seed = strtoull(argv[2], NULL, 10);
    c0 = cpu();
    ev = baseline(2e6, seed, &w);
    t = cpu() - c0;
    base_rate = (double)ev / t;
    printf("%-28s %12llu events %8.3f s  %10.3g events/s  (W = %.4f, exact 2)\n", "baseline: hand-written M/M/1", ev, t,
           base_rate, w);
    for (i = 0; i < sizeof models / sizeof models[0]; i++) {
        proper_sim_model m;
        proper_sim_result r;
        proper_sim_opts o = proper_sim_opts_default();
        proper_error err;
        double rate;
        proper_sim_init(&m);
        proper_sim_result_init(&r);
        if (proper_sim_parse(&m, models[i][1], strlen(models[i][1]), models[i][0], &err)) {
            printf("parse: %s\n", err.message);
            return 2;
        }
        o.horizon = i == 0 ? 2e5 : i == 1 ? 200 : 100;
        o.replications = 10;
        o.seed = seed;
        o.warmup = 0; /* one pass: events counted are events simulated */
        c0 = cpu();
        if (proper_sim_run(&m, &o, &r, &err)) {
            printf("run: %s\n", err.message);
            return 2;
        }
        t = cpu() - c0;
        rate = (double)r.events / t;
        printf("%-28s %12llu events %8.3f s  %10.3g events/s  %.2fx baseline's time per event\n", models[i][0], r.events,
               t, rate, base_rate / rate);
        if (rate < 1e6) all_fast = 0;
        proper_sim_result_free(&r);
        proper_sim_free(&m);
    }
    printf("%s: every model >= 1e6 events/s of CPU time\n", all_fast ? "yes" : "NO");
    {
        FILE *null = fopen("/dev/null", "w");
        proper_sim_writer *w;
        proper_sim_recorder r;
        proper_error err;
        bench_result clk, rec, rec_cpu;
        int pool;
        if (!null || proper_sim_writer_open(&w, null, 0, &err)) return 2;
        pool = proper_sim_writer_name(w, "worker", &err);
        clk = bench_run(clock_only, NULL, BENCH_CPU, 7, 0.05);
        proper_sim_recorder_init(&r, w, pool, &err);
        rec = bench_run(record_one, &r, BENCH_CPU, 7, 0.05);
        proper_sim_recorder_free(&r, &err);
        proper_sim_writer_close(w, &err);
        if (proper_sim_writer_open(&w, null, 1, &err)) return 2;
        pool = proper_sim_writer_name(w, "worker", &err);
        proper_sim_recorder_init(&r, w, pool, &err);
        rec_cpu = bench_run(record_one, &r, BENCH_CPU, 7, 0.05);
        proper_sim_recorder_free(&r, &err);
        proper_sim_writer_close(w, &err);
        fclose(null);
        bench_print(stdout, "baseline: clock_gettime", &clk, NULL);
        bench_print(stdout, "proper_sim_record", &rec, &clk);
        bench_print(stdout, "proper_sim_record, cpu clock", &rec_cpu, &clk);
        printf("%s: a recorded event (monotonic clock only) under 50 ns\n", rec.best < 50e-9 ? "yes" : "NO");
    }
    return 0;
}
