/* heap_lock.c — heap and lock metrics through the preload library.
 *
 *   heap_lock LOG [CALLS]   record `build(n)`: allocate n nodes of 40 bytes
 *                           into a list, walk it once holding a mutex, free
 *                           the list; n in {100, 200, .., 5000}.
 *                           Run it under LD_PRELOAD=build/libproper-preload.so
 *                           to get the heap, heap_peak, lock_wait and
 *                           lock_hold columns (without it: time only).
 *   heap_lock --cost        ns per malloc/free pair and per mutex lock/unlock
 *                           pair (run with and without the preload library
 *                           to see what wrapping costs).
 *
 * Per call of build(n): heap = n malloc_usable_size(40) bytes (48 on 64-bit
 * glibc), heap_peak the same (everything is live at the end), lock_hold the
 * time of n list steps under the mutex; a second thread contends for the
 * mutex, so lock_wait is non-zero now and then. */
#define PROPER_IMPLEMENTATION
#include "../../src/annot.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct node {
    struct node *next;
    char pad[32];
} node;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static volatile int stop;
static volatile uint64_t sink;

static void build(size_t n) {
    node *head = NULL, *p;
    size_t i;
    uint64_t sum = 0;
    for (i = 0; i < n; i++) {
        p = (node *)malloc(sizeof *p);
        if (!p) abort();
        p->next = head;
        p->pad[0] = (char)i;
        head = p;
    }
    pthread_mutex_lock(&mu);
    for (p = head; p; p = p->next) sum += (uint64_t)p->pad[0] * 2654435761u;
    pthread_mutex_unlock(&mu);
    sink = sum;
    while (head) {
        p = head->next;
        free(head);
        head = p;
    }
}

static void *contender(void *arg) {
    (void)arg;
    while (!stop) {
        pthread_mutex_lock(&mu);
        sink++;
        pthread_mutex_unlock(&mu);
    }
    return NULL;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cost(void) {
    enum { N = 2000000 };
    double best_m = 1e9, best_l = 1e9;
    int rep;
    for (rep = 0; rep < 7; rep++) {
        double t0 = now_s(), t1, t2;
        long i;
        for (i = 0; i < N; i++) {
            void *volatile p = malloc(40);
            free(p);
        }
        t1 = now_s();
        for (i = 0; i < N; i++) {
            pthread_mutex_lock(&mu);
            pthread_mutex_unlock(&mu);
        }
        t2 = now_s();
        if ((t1 - t0) / N < best_m) best_m = (t1 - t0) / N;
        if ((t2 - t1) / N < best_l) best_l = (t2 - t1) / N;
    }
    printf("malloc+free pair: %.1f ns\nlock+unlock pair: %.1f ns\n", best_m * 1e9, best_l * 1e9);
    return 0;
}

int main(int argc, char **argv) {
    proper_annot_writer *w;
    proper_annot_recorder r;
    proper_error err;
    proper_rng rng;
    pthread_t th;
    size_t calls, i;
    int f;
    if (argc > 1 && strcmp(argv[1], "--cost") == 0) return cost();
    if (argc < 2) {
        fprintf(stderr, "usage: heap_lock LOG [CALLS] | heap_lock --cost\n");
        return 2;
    }
    calls = argc > 2 ? (size_t)atol(argv[2]) : 2000;
    if (proper_annot_writer_open(&w, argv[1], calls, 0, 1, &err) ||
        (f = proper_annot_writer_function(w, "build", "n", &err)) < 0 || proper_annot_recorder_init(&r, w, &err)) {
        fprintf(stderr, "heap_lock: %s\n", err.message);
        return 2;
    }
    pthread_create(&th, NULL, contender, NULL);
    proper_rng_seed(&rng, 3);
    for (i = 0; i < calls; i++) {
        size_t n = 100 * (1 + (size_t)proper_rng_below(&rng, 50));
        proper_annot_begin(&r, f);
        proper_annot_feature(&r, 0, (double)n);
        build(n);
        proper_annot_end(&r);
    }
    stop = 1;
    pthread_join(th, NULL);
    proper_annot_recorder_flush(&r, &err);
    proper_annot_recorder_free(&r);
    if (proper_annot_writer_close(w, &err)) {
        fprintf(stderr, "heap_lock: %s\n", err.message);
        return 2;
    }
    return 0;
}
