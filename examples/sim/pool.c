/* pool.c — a small thread-pool server for validating sim.h's models
 * (docs/simulation-results.md). A generator thread releases requests with
 * exponential inter-arrival times (mean 1/rate) into a connection queue (a
 * mutex and a condition variable); each of the worker threads takes one,
 * parses it (CPU), updates a shared statistic under a mutex (CPU), reads a
 * 16 KiB block of a file at a random offset (pread: the page cache serves
 * it), formats the reply (CPU) and completes it. CPU work is spun on the
 * thread's CPU clock, so a request needs the same CPU time however busy the
 * cores are; each CF's demand is exponential with the given mean.
 *
 * With --trace FILE the run records thread events with sim.h's recorder
 * (the monotonic and the thread CPU clock per event, so that computation is
 * measured in CPU time; the generator records `arrive conn`, the
 * workers get/lock/io/done). Without it nothing is recorded. It prints one
 * line: requests, seconds, throughput, mean and p95 response time (from the
 * release of a request to its completion).
 *
 *   pool [--workers N] [--rate R] [--requests K] [--seed S] [--trace FILE]
 *        [--parse-us U] [--locked-us U] [--reply-us U] [--file PATH]
 */
#define _POSIX_C_SOURCE 200809L
#define PROPER_IMPLEMENTATION
#include "../../src/sim.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 16384
#define MAX_WORKERS 256

typedef struct task {
    int64_t released;
} task;

typedef struct server {
    pthread_mutex_t lock;
    pthread_cond_t not_empty;
    task *ring;
    size_t head, count, cap;
    int closing;
    pthread_mutex_t stats_lock;
    double stats_sum;
    int fd;
    off_t file_blocks;
    double parse_us, locked_us, reply_us;
    proper_sim_writer *w;
    int id_pool, id_conn, id_m, id_page;
    int64_t *done_at, *resp; /* per request */
    size_t n_done, n_req;
    pthread_mutex_t done_lock;
} server;

typedef struct worker {
    server *s;
    pthread_t thread;
    proper_rng rng;
    proper_sim_recorder rec;
    int tracing;
} worker;

static int64_t now_ns(clockid_t c) {
    struct timespec ts;
    clock_gettime(c, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Spin for `us` microseconds of this thread's CPU time. */
static void spin(double us) {
    int64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) + (int64_t)(us * 1000.0);
    volatile unsigned x = 1;
    while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
        for (int i = 0; i < 200; i++) x = x * 1664525u + 1013904223u;
}

static void rec(worker *w, int kind, int a, int64_t arg) {
    if (w->tracing) proper_sim_record(&w->rec, kind, a, -1, arg);
}

static void *worker_main(void *arg) {
    worker *w = (worker *)arg;
    server *s = w->s;
    char buf[BLOCK];
    proper_error err;
    if (s->w) w->tracing = proper_sim_recorder_init(&w->rec, s->w, s->id_pool, &err) == 0;
    for (;;) {
        task t;
        rec(w, PROPER_SIM_TEV_GET_REQ, s->id_conn, -1);
        pthread_mutex_lock(&s->lock);
        while (s->count == 0 && !s->closing) pthread_cond_wait(&s->not_empty, &s->lock);
        if (s->count == 0) {
            pthread_mutex_unlock(&s->lock);
            break;
        }
        t = s->ring[s->head];
        s->head = (s->head + 1) % s->cap;
        s->count--;
        pthread_mutex_unlock(&s->lock);
        rec(w, PROPER_SIM_TEV_GET, s->id_conn, -1);
        spin(proper_rng_exponential(&w->rng, 1.0 / s->parse_us));
        rec(w, PROPER_SIM_TEV_LOCK_REQ, s->id_m, -1);
        pthread_mutex_lock(&s->stats_lock);
        rec(w, PROPER_SIM_TEV_LOCK, s->id_m, -1);
        spin(proper_rng_exponential(&w->rng, 1.0 / s->locked_us));
        s->stats_sum += 1;
        rec(w, PROPER_SIM_TEV_UNLOCK, s->id_m, -1);
        pthread_mutex_unlock(&s->stats_lock);
        rec(w, PROPER_SIM_TEV_IO_REQ, s->id_page, BLOCK);
        if (pread(s->fd, buf, BLOCK, (off_t)proper_rng_below(&w->rng, (uint64_t)s->file_blocks) * BLOCK) < 0) break;
        rec(w, PROPER_SIM_TEV_IO, s->id_page, BLOCK);
        spin(proper_rng_exponential(&w->rng, 1.0 / s->reply_us));
        rec(w, PROPER_SIM_TEV_DONE, -1, -1);
        {
            int64_t end = now_ns(CLOCK_MONOTONIC);
            pthread_mutex_lock(&s->done_lock);
            if (s->n_done < s->n_req) {
                s->done_at[s->n_done] = end;
                s->resp[s->n_done++] = end - t.released;
            }
            pthread_mutex_unlock(&s->done_lock);
        }
    }
    if (w->tracing) proper_sim_recorder_free(&w->rec, &err);
    return NULL;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    server s;
    worker *ws;
    int workers = 4, i;
    double rate = 1000;
    unsigned long long seed = 1;
    const char *trace = NULL, *path = "/proc/self/exe";
    FILE *tf = NULL;
    proper_rng rng;
    proper_sim_recorder grec;
    proper_error err;
    int64_t start, next, first_release;
    double secs, mean = 0;
    size_t k;
    memset(&s, 0, sizeof s);
    s.parse_us = 300;
    s.locked_us = 40;
    s.reply_us = 200;
    s.n_req = 4000;
    for (i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--workers")) workers = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--rate")) rate = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--requests")) s.n_req = (size_t)atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--trace")) trace = argv[i + 1];
        else if (!strcmp(argv[i], "--parse-us")) s.parse_us = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--locked-us")) s.locked_us = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--reply-us")) s.reply_us = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--file")) path = argv[i + 1];
        else {
            fprintf(stderr, "pool: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (i != argc || workers < 1 || workers > MAX_WORKERS || !(rate > 0) || s.n_req < 1) {
        fprintf(stderr, "usage: pool [--workers N] [--rate R] [--requests K] [--seed S] [--trace FILE] ...\n");
        return 2;
    }
    s.fd = open(path, O_RDONLY);
    if (s.fd < 0) {
        fprintf(stderr, "pool: %s: %s\n", path, strerror(errno));
        return 2;
    }
    s.file_blocks = lseek(s.fd, 0, SEEK_END) / BLOCK;
    if (s.file_blocks < 1) s.file_blocks = 1;
    s.cap = s.n_req + 1;
    s.ring = (task *)calloc(s.cap, sizeof *s.ring);
    s.done_at = (int64_t *)calloc(s.n_req, sizeof(int64_t));
    s.resp = (int64_t *)calloc(s.n_req, sizeof(int64_t));
    ws = (worker *)calloc((size_t)workers, sizeof *ws);
    if (!s.ring || !s.done_at || !s.resp || !ws) return 2;
    pthread_mutex_init(&s.lock, NULL);
    pthread_cond_init(&s.not_empty, NULL);
    pthread_mutex_init(&s.stats_lock, NULL);
    pthread_mutex_init(&s.done_lock, NULL);
    if (trace) {
        char decl[64];
        if (!(tf = fopen(trace, "w")) || proper_sim_writer_open(&s.w, tf, 1, &err)) {
            fprintf(stderr, "pool: cannot write %s\n", trace);
            return 2;
        }
        s.id_pool = proper_sim_writer_name(s.w, "worker", &err);
        s.id_conn = proper_sim_writer_name(s.w, "conn", &err);
        s.id_m = proper_sim_writer_name(s.w, "stats", &err);
        s.id_page = proper_sim_writer_name(s.w, "page", &err);
        proper_sim_writer_declare(s.w, "queue conn", &err);
        proper_sim_writer_declare(s.w, "lock stats mutex", &err);
        snprintf(decl, sizeof decl, "cores %ld", sysconf(_SC_NPROCESSORS_ONLN));
        proper_sim_writer_declare(s.w, decl, &err);
        proper_sim_recorder_init(&grec, s.w, proper_sim_writer_name(s.w, "generator", &err), &err);
    }
    proper_rng_seed(&rng, seed);
    for (i = 0; i < workers; i++) {
        ws[i].s = &s;
        ws[i].rng = rng;
        proper_rng_jump(&rng);
        pthread_create(&ws[i].thread, NULL, worker_main, &ws[i]);
    }
    /* the generator: absolute release times, so that late wake-ups do not
     * lower the rate */
    start = next = now_ns(CLOCK_MONOTONIC) + 1000000;
    first_release = start;
    for (k = 0; k < s.n_req; k++) {
        struct timespec ts;
        next += (int64_t)(proper_rng_exponential(&rng, rate) * 1e9);
        ts.tv_sec = next / 1000000000;
        ts.tv_nsec = next % 1000000000;
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
        }
        if (k == 0) first_release = next;
        pthread_mutex_lock(&s.lock);
        s.ring[(s.head + s.count) % s.cap].released = next;
        s.count++;
        pthread_cond_signal(&s.not_empty);
        pthread_mutex_unlock(&s.lock);
        if (trace) proper_sim_record(&grec, PROPER_SIM_TEV_ARRIVE, s.id_conn, -1, -1);
    }
    pthread_mutex_lock(&s.lock);
    s.closing = 1;
    pthread_cond_broadcast(&s.not_empty);
    pthread_mutex_unlock(&s.lock);
    for (i = 0; i < workers; i++) pthread_join(ws[i].thread, NULL);
    if (trace) {
        proper_sim_recorder_free(&grec, &err);
        if (proper_sim_writer_close(s.w, &err)) fprintf(stderr, "pool: %s\n", err.message);
        fclose(tf);
    }
    /* throughput: completions over the time from the first release to the
     * last completion; response times of every request */
    qsort(s.done_at, s.n_done, sizeof(int64_t), cmp_i64);
    secs = (double)(s.done_at[s.n_done - 1] - first_release) / 1e9;
    for (k = 0; k < s.n_done; k++) mean += (double)s.resp[k] / 1e9 / (double)s.n_done;
    qsort(s.resp, s.n_done, sizeof(int64_t), cmp_i64);
    printf("requests %lu seconds %.6f throughput %.6g response_mean %.6g response_p95 %.6g\n",
           (unsigned long)s.n_done, secs, (double)s.n_done / secs, mean,
           (double)s.resp[(size_t)(0.95 * (double)(s.n_done - 1))] / 1e9);
    close(s.fd);
    free(s.ring);
    free(s.done_at);
    free(s.resp);
    free(ws);
    return 0;
}
