/* common.h — what the queueing-network example programs share (tables.c,
 * thesis.c, ctmc.c): timers, the error exit, sorting, and the networks of
 * Napolitano's thesis (ch. 4): the load balancer of Table 1 and the random
 * networks of its what-if study (section 4.4.2). Each program includes it
 * once, after defining EXAMPLE_NAME (the prefix of its error messages). */
#ifndef PROPER_EXAMPLES_QN_COMMON_H
#define PROPER_EXAMPLES_QN_COMMON_H

#define PROPER_IMPLEMENTATION
#include "../../src/qn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef EXAMPLE_NAME
#error "define EXAMPLE_NAME (the program's name) before including common.h"
#endif

/* Process CPU seconds: on a shared machine wall time measures the other
 * jobs too. */
static inline double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Wall-clock seconds. */
static inline double wall_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline void die(const proper_error *e) {
    fprintf(stderr, "%s: %s\n", EXAMPLE_NAME, e->message);
    exit(1);
}

static inline int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Thesis Table 1: N = 5500 jobs, mu = (1.0, 68.97, 73.80), s = (inf, 20,
 * 20), p12 = p13 = 0.5, p21 = p31 = 1 (examples/qn/loadbalancer.csv). */
static const double LOAD_BALANCER_RATES[3] = {1.0, 68.97, 73.80};

static inline void make_load_balancer(proper_qn *q) {
    proper_error e;
    proper_qn_init(q);
    if (proper_qn_create(q, 3, &e)) die(&e);
    q->servers[0] = INFINITY;
    q->servers[1] = q->servers[2] = 20;
    memcpy(q->rates, LOAD_BALANCER_RATES, sizeof LOAD_BALANCER_RATES);
    q->routing[0 * 3 + 1] = q->routing[0 * 3 + 2] = 0.5;
    q->routing[1 * 3 + 0] = q->routing[2 * 3 + 0] = 1;
}

/* Routing row i: uniform weights on the other stations, normalised. */
static inline void random_routing_row(proper_qn *q, size_t i, proper_rng *rng) {
    size_t M = q->M, j;
    double sum = 0;
    for (j = 0; j < M; j++) sum += q->routing[i * M + j] = i == j ? 0 : proper_rng_uniform(rng);
    for (j = 0; j < M; j++) q->routing[i * M + j] /= sum;
}

/* A random network of the what-if study (section 4.4.2): station 1 a
 * delay, the others with servers uniform in {1..64}; rates uniform in
 * [1, 100]; routing rows of uniform weights without self-loops. Drawn
 * station by station: rate, servers, routing row. */
static inline void whatif_network(proper_qn *q, size_t M, proper_rng *rng) {
    proper_error e;
    size_t i;
    proper_qn_init(q);
    if (proper_qn_create(q, M, &e)) die(&e);
    for (i = 0; i < M; i++) {
        q->rates[i] = 1 + 99 * proper_rng_uniform(rng);
        q->servers[i] = i == 0 ? INFINITY : (double)(1 + proper_rng_below(rng, 64));
        random_routing_row(q, i, rng);
    }
}

#endif
