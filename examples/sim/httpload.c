/* httpload.c — an open-workload HTTP client for validating sim.h's models
 * against the example web server (examples/webserver/server.c;
 * docs/simulation-results.md §4).
 *
 * Requests arrive as a Poisson process of the given rate (exponential
 * inter-arrival times, drawn from a seeded generator), whatever the server
 * is doing: request i is due at start + t_i, and one of --clients client
 * threads issues it then (a new connection per request, "GET PATH
 * HTTP/1.1" with "Connection: close", the response read to the end). Its
 * response time runs from the instant it was due to the last byte, so a
 * request that found every client thread busy is charged for its wait, as
 * an open workload must be. The first --warmup share of the requests is
 * left out of the figures.
 *
 * Prints one line of tab-separated fields:
 *   requests REQUESTS failed FAILED seconds S throughput X mean R p95 Q offered O
 * where X is completions per second between the first measured request's
 * due time and the last measured completion, R and Q are in seconds, and O
 * is the rate the measured requests were due at (the sample's own rate,
 * near R: below saturation X follows O, not the nominal rate).
 *
 *   httpload --port N [--path /file50k.html] [--rate R] [--requests K]
 *            [--clients C] [--seed S] [--warmup FRACTION]
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define MAX_CLIENTS 1024
#define RESPONSE_CHUNK 65536

typedef struct load {
    int port;
    const char *path;
    size_t n;           /* requests */
    int64_t *due;       /* per request: due time, ns on CLOCK_MONOTONIC */
    int64_t *finished;  /* per request: last byte received (0: failed) */
    size_t next;        /* next request to issue */
    pthread_mutex_t lock;
} load;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_until(int64_t t) {
    struct timespec ts;
    ts.tv_sec = (time_t)(t / 1000000000);
    ts.tv_nsec = (long)(t % 1000000000);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
    }
}

/* xorshift64*: uniform in (0, 1). */
static double uniform01(uint64_t *s) {
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return ((double)((x * 2685821657736338717ULL) >> 11) + 0.5) / 9007199254740992.0;
}

/* One request on a new connection; 0 when the whole response arrived. */
static int fetch(const load *L, char *buf) {
    struct sockaddr_in addr;
    char req[1200];
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1, n;
    ssize_t k;
    size_t got = 0;
    struct timeval tv;
    if (fd < 0) return -1;
    tv.tv_sec = 30;
    tv.tv_usec = 0;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons((unsigned short)L->port);
    n = snprintf(req, sizeof req, "GET %.1000s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", L->path);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0 || send(fd, req, (size_t)n, MSG_NOSIGNAL) != n) {
        close(fd);
        return -1;
    }
    /* the status line is checked in the first 12 bytes; the rest is read to the end */
    while ((k = recv(fd, buf + (got < 12 ? got : 12), RESPONSE_CHUNK - 12, 0)) > 0 || (k < 0 && errno == EINTR))
        if (k > 0) got += (size_t)k;
    close(fd);
    return k == 0 && got > 12 && memcmp(buf, "HTTP/1.1 200", 12) == 0 ? 0 : -1;
}

static void *client_main(void *arg) {
    load *L = (load *)arg;
    char *buf = (char *)malloc(RESPONSE_CHUNK);
    if (!buf) return NULL;
    for (;;) {
        size_t i;
        pthread_mutex_lock(&L->lock);
        i = L->next < L->n ? L->next++ : L->n;
        pthread_mutex_unlock(&L->lock);
        if (i == L->n) break;
        sleep_until(L->due[i]);
        L->finished[i] = fetch(L, buf) == 0 ? now_ns() : 0;
    }
    free(buf);
    return NULL;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Print the figures of requests [first, n). */
static void report(const load *L, size_t first) {
    size_t i, ok = 0, failed = 0;
    double *resp = (double *)malloc((L->n - first + 1) * sizeof *resp), sum = 0;
    int64_t last = L->due[first];
    if (!resp) return;
    for (i = first; i < L->n; i++) {
        if (!L->finished[i]) {
            failed++;
            continue;
        }
        resp[ok] = (double)(L->finished[i] - L->due[i]) * 1e-9;
        sum += resp[ok++];
        if (L->finished[i] > last) last = L->finished[i];
    }
    qsort(resp, ok, sizeof *resp, cmp_double);
    {
        double seconds = (double)(last - L->due[first]) * 1e-9;
        /* p95: the order statistic at ceil(0.95 ok) */
        size_t q = ok ? (size_t)ceil(0.95 * (double)ok) - 1 : 0;
        double due_span = (double)(L->due[L->n - 1] - L->due[first]) * 1e-9;
        printf("requests\t%zu\tfailed\t%zu\tseconds\t%.6f\tthroughput\t%.6g\tmean\t%.6g\tp95\t%.6g\toffered\t%.6g\n", ok,
               failed, seconds, seconds > 0 ? (double)ok / seconds : NAN, ok ? sum / (double)ok : NAN,
               ok ? resp[q] : NAN, due_span > 0 ? (double)(L->n - 1 - first) / due_span : NAN);
    }
    free(resp);
}

static void usage(FILE *out) {
    fprintf(out, "usage: httpload --port N [--path P] [--rate R] [--requests K] [--clients C] [--seed S]\n"
                 "                [--warmup FRACTION]\n"
                 "Poisson arrivals of rate R (100/s) of GET P (/file50k.html) to 127.0.0.1:N; K requests\n"
                 "(1000) issued by C client threads (64); the first FRACTION (0.1) is not measured.\n");
}

int main(int argc, char **argv) {
    load L;
    double rate = 100, warmup = 0.1, t = 0;
    long requests = 1000, clients = 64;
    uint64_t seed = 1;
    pthread_t *threads;
    size_t i;
    int64_t start;
    memset(&L, 0, sizeof L);
    L.path = "/file50k.html";
    for (i = 1; i < (size_t)argc; i++) {
        const char *a = argv[i], *v = i + 1 < (size_t)argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0) { usage(stdout); return 0; }
        if (!v) { usage(stderr); return 2; }
        if (strcmp(a, "--port") == 0) L.port = atoi(v);
        else if (strcmp(a, "--path") == 0) L.path = v;
        else if (strcmp(a, "--rate") == 0) rate = atof(v);
        else if (strcmp(a, "--requests") == 0) requests = atol(v);
        else if (strcmp(a, "--clients") == 0) clients = atol(v);
        else if (strcmp(a, "--seed") == 0) seed = (uint64_t)strtoull(v, NULL, 10);
        else if (strcmp(a, "--warmup") == 0) warmup = atof(v);
        else { usage(stderr); return 2; }
        i++;
    }
    if (L.port <= 0 || L.port > 65535 || !(rate > 0) || requests < 2 || clients < 1 || clients > MAX_CLIENTS ||
        !(warmup >= 0 && warmup < 1) || seed == 0) {
        usage(stderr);
        return 2;
    }
    L.n = (size_t)requests;
    L.due = (int64_t *)malloc(L.n * sizeof *L.due);
    L.finished = (int64_t *)calloc(L.n, sizeof *L.finished);
    threads = (pthread_t *)malloc((size_t)clients * sizeof *threads);
    if (!L.due || !L.finished || !threads) return 2;
    pthread_mutex_init(&L.lock, NULL);
    start = now_ns() + 20000000; /* 20 ms for the client threads to start */
    for (i = 0; i < L.n; i++) {
        t += -log(uniform01(&seed)) / rate;
        L.due[i] = start + (int64_t)(t * 1e9);
    }
    for (i = 0; i < (size_t)clients; i++)
        if (pthread_create(&threads[i], NULL, client_main, &L) != 0) return 2;
    for (i = 0; i < (size_t)clients; i++) pthread_join(threads[i], NULL);
    report(&L, (size_t)(warmup * (double)L.n));
    pthread_mutex_destroy(&L.lock);
    free(L.due);
    free(L.finished);
    free(threads);
    return 0;
}
