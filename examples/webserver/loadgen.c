/* loadgen.c — load generator for the example web server (loopback only).
 *
 * Sends HTTP/1.1 GET requests to 127.0.0.1:PORT, numbered 0, 1, 2, ... in
 * an `X-Request-Id` header, and records each one's client-observed latency
 * (from just before connect() to the last byte of the response) as record
 * `R <number>` / `C <ns>` of a proper trace. It stops by itself after
 * --requests requests or --seconds seconds, whichever comes first.
 *
 *   loadgen --port N --scenario NAME [--requests N] [--seconds S]
 *           [--threads T] [--warmup N] [--trace FILE] [--keep-alive]
 *   loadgen --merge SERVER.trace CLIENT.trace --out FILE [--comment TEXT]
 *
 * Scenarios (Koziolek & Firus 2007, section 5): sequence (the 50 KB file
 * only), alternative (the file and a directory alternately), loop (a
 * directory whose 5th default name exists), concurrent (the sequence from 4
 * client threads at once). Requests of one thread are never concurrent.
 *
 * --merge joins the server's and the client's trace of one run by request
 * id (records are sorted by id) and writes one trace; it fails when a
 * request lacks its service time or its client latency.
 */
#define _POSIX_C_SOURCE 200809L
#define PROPER_IMPLEMENTATION
#include "../../src/trace.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define MAX_PATHS 8
#define RESPONSE_HEAD_MAX 8192
#define RECV_TIMEOUT_S 10

typedef struct scenario {
    const char *name;
    const char *paths[MAX_PATHS]; /* requested in rotation by request number */
    int threads;                   /* default client threads */
} scenario;

static const scenario scenarios[] = {
    {"sequence", {"/file50k.html"}, 1},
    {"alternative", {"/file50k.html", "/dir1/"}, 1},
    {"loop", {"/dir5/"}, 1},
    {"concurrent", {"/file50k.html"}, 4},
};

typedef struct config {
    int port;
    const char *paths[MAX_PATHS];
    size_t npaths;
    long requests, warmup;
    double seconds;
    int threads, keep_alive;
    int64_t deadline;
    proper_trace_writer *writer; /* NULL: no trace */
} config;

typedef struct client {
    const config *cfg;
    pthread_t thread;
    int index;
    int fd;                      /* open keep-alive connection or -1 */
    proper_trace_recorder rec;
    long done, failed;
    int timed_out;
    int trace_failed;
    char buf[65536];
} client;

static int connect_loopback(int port) {
    struct sockaddr_in addr;
    struct timeval tv;
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    if (fd < 0) return -1;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons((unsigned short)port);
    tv.tv_sec = RECV_TIMEOUT_S;
    tv.tv_usec = 0;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int send_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Case-insensitive search for "\r\nName:" in the head; returns the value. */
static const char *find_header(const char *head, const char *name) {
    const char *p = head;
    size_t n = strlen(name);
    while ((p = strstr(p, "\r\n")) != NULL) {
        size_t i;
        p += 2;
        for (i = 0; i < n; i++) {
            char a = p[i], b = name[i];
            if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
            if (b >= 'A' && b <= 'Z') b = (char)(b - 'A' + 'a');
            if (a != b) break;
        }
        if (i == n && p[n] == ':') return p + n + 1;
    }
    return NULL;
}

/* Read one response (head + Content-Length body). Returns the status code,
 * or -1 on a transport error. *reusable = the server keeps the connection. */
static int read_response(client *c, int fd, int *reusable) {
    size_t have = 0, head_len;
    long long length, got;
    const char *cl, *conn;
    char *end;
    int status;
    for (;;) {
        ssize_t k;
        c->buf[have] = '\0';
        end = strstr(c->buf, "\r\n\r\n");
        if (end) break;
        if (have >= RESPONSE_HEAD_MAX) return -1;
        k = recv(fd, c->buf + have, RESPONSE_HEAD_MAX - have, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        have += (size_t)k;
    }
    head_len = (size_t)(end - c->buf) + 4;
    if (sscanf(c->buf, "HTTP/1.%*d %d", &status) != 1) return -1;
    end[2] = '\0'; /* search headers only within the head */
    cl = find_header(c->buf, "Content-Length");
    conn = find_header(c->buf, "Connection");
    if (!cl) return -1;
    length = atoll(cl);
    *reusable = conn && strstr(conn, "keep-alive") != NULL;
    got = (long long)(have - head_len);
    while (got < length) {
        ssize_t k = recv(fd, c->buf, sizeof c->buf, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        got += k;
    }
    return got == length ? status : -1;
}

/* One request; returns the client latency in ns, or -1 on failure. */
static int64_t one_request(client *c, const char *path, long id) {
    char req[512];
    int n, status, reusable = 0;
    int64_t start;
    if (id >= 0)
        n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: %ld\r\nConnection: %s\r\n\r\n",
                     path, id, c->cfg->keep_alive ? "keep-alive" : "close");
    else
        n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: %s\r\n\r\n", path,
                     c->cfg->keep_alive ? "keep-alive" : "close");
    start = proper_trace_now();
    if (c->fd < 0) c->fd = connect_loopback(c->cfg->port);
    if (c->fd < 0) return -1;
    if (send_all(c->fd, req, (size_t)n) != 0) status = -1;
    else status = read_response(c, c->fd, &reusable);
    if (status != 200 || !reusable || !c->cfg->keep_alive) {
        close(c->fd);
        c->fd = -1;
    }
    return status == 200 ? proper_trace_now() - start : -1;
}

static void *client_main(void *arg) {
    client *c = (client *)arg;
    const config *cfg = c->cfg;
    long i;
    /* warm-up requests carry no id: the server serves them untraced */
    for (i = c->index; i < cfg->warmup; i += cfg->threads)
        if (one_request(c, cfg->paths[(size_t)i % cfg->npaths], -1) < 0) c->failed++;
    for (i = c->index; i < cfg->requests; i += cfg->threads) {
        int64_t ns;
        if (proper_trace_now() >= cfg->deadline) {
            c->timed_out = 1;
            break;
        }
        ns = one_request(c, cfg->paths[(size_t)i % cfg->npaths], i);
        if (ns < 0) {
            c->failed++;
            continue;
        }
        c->done++;
        if (cfg->writer && (proper_trace_begin(&c->rec, (uint64_t)i) || proper_trace_client(&c->rec, ns) ||
                            proper_trace_end(&c->rec)))
            c->trace_failed = 1;
    }
    if (c->fd >= 0) close(c->fd);
    return NULL;
}

/* ---- --merge ---- */

static int merge(const char *server_path, const char *client_path, const char *out_path, const char *comment) {
    proper_trace t;
    proper_error err;
    char msg[800];
    size_t i, with_t = 0, with_c = 0;
    FILE *out;
    int rc;
    proper_trace_init(&t);
    rc = proper_trace_read(&t, server_path, &err);
    if (!rc) rc = proper_trace_read_merge(&t, client_path, &err);
    if (!rc) rc = proper_trace_sort(&t, &err);
    if (rc) {
        fprintf(stderr, "loadgen: %s\n", proper_error_format(&err, msg, sizeof msg));
        proper_trace_free(&t);
        return 2;
    }
    for (i = 0; i < t.nrecords; i++) {
        with_t += t.records[i].service_ns >= 0;
        with_c += t.records[i].client_ns >= 0;
    }
    out = fopen(out_path, "w");
    if (!out) {
        fprintf(stderr, "loadgen: cannot write %s: %s\n", out_path, strerror(errno));
        proper_trace_free(&t);
        return 2;
    }
    rc = proper_trace_write(&t, out, comment, &err);
    if (fclose(out) != 0) rc = PROPER_EIO;
    fprintf(stderr, "loadgen: merged %lu request(s): %lu with service time, %lu with client latency -> %s\n",
            (unsigned long)t.nrecords, (unsigned long)with_t, (unsigned long)with_c, out_path);
    i = t.nrecords;
    proper_trace_free(&t);
    if (rc) {
        fprintf(stderr, "loadgen: error writing %s\n", out_path);
        return 2;
    }
    return with_t == i && with_c == i ? 0 : 1;
}

static void usage(FILE *out) {
    size_t i;
    fprintf(out,
            "usage: loadgen --port N (--scenario NAME | --path P ...) [--requests N] [--seconds S]\n"
            "               [--threads T] [--warmup N] [--trace FILE] [--keep-alive]\n"
            "       loadgen --merge SERVER.trace CLIENT.trace --out FILE [--comment TEXT]\n"
            "Loopback HTTP load generator recording client latencies in a proper trace.\n"
            "  --requests N   measured requests in total (1000)\n"
            "  --seconds S    stop after S seconds even if requests remain (120)\n"
            "  --threads T    client threads, each sending one request at a time (scenario's default)\n"
            "  --warmup N     untraced requests sent first (0)\n"
            "  --path P       request P (repeat to rotate among several) instead of a scenario\n"
            "scenarios:\n");
    for (i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        size_t j;
        fprintf(out, "  %-12s", scenarios[i].name);
        for (j = 0; j < MAX_PATHS && scenarios[i].paths[j]; j++) fprintf(out, " %s", scenarios[i].paths[j]);
        fprintf(out, " (%d thread%s)\n", scenarios[i].threads, scenarios[i].threads > 1 ? "s" : "");
    }
    fprintf(out, "Exit status: 0 all requests succeeded, 1 some failed or the time ran out, 2 bad usage.\n");
}

int main(int argc, char **argv) {
    config cfg;
    client *clients;
    const char *scenario_name = NULL, *trace_path = NULL, *merge_out = NULL, *comment = NULL;
    const char *merge_in[2] = {NULL, NULL};
    FILE *trace_file = NULL;
    proper_error err;
    long done = 0, failed = 0;
    int i, timed_out = 0, trace_failed = 0, status;
    int64_t started;

    memset(&cfg, 0, sizeof cfg);
    cfg.requests = 1000;
    cfg.seconds = 120;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { usage(stdout); return 0; }
        if (strcmp(a, "--keep-alive") == 0) { cfg.keep_alive = 1; continue; }
        if (strcmp(a, "--merge") == 0) {
            if (i + 2 >= argc) { usage(stderr); return 2; }
            merge_in[0] = argv[i + 1];
            merge_in[1] = argv[i + 2];
            i += 2;
            continue;
        }
        if (!v) { fprintf(stderr, "loadgen: %s needs a value\n", a); return 2; }
        if (strcmp(a, "--port") == 0) cfg.port = atoi(v);
        else if (strcmp(a, "--scenario") == 0) scenario_name = v;
        else if (strcmp(a, "--path") == 0 && cfg.npaths < MAX_PATHS) cfg.paths[cfg.npaths++] = v;
        else if (strcmp(a, "--requests") == 0) cfg.requests = atol(v);
        else if (strcmp(a, "--seconds") == 0) cfg.seconds = atof(v);
        else if (strcmp(a, "--threads") == 0) cfg.threads = atoi(v);
        else if (strcmp(a, "--warmup") == 0) cfg.warmup = atol(v);
        else if (strcmp(a, "--trace") == 0) trace_path = v;
        else if (strcmp(a, "--out") == 0) merge_out = v;
        else if (strcmp(a, "--comment") == 0) comment = v;
        else { fprintf(stderr, "loadgen: unknown option %s (try --help)\n", a); return 2; }
        i++;
    }
    if (merge_in[0]) {
        if (!merge_out) { usage(stderr); return 2; }
        return merge(merge_in[0], merge_in[1], merge_out, comment);
    }
    if (scenario_name) {
        size_t s, j;
        for (s = 0; s < sizeof scenarios / sizeof scenarios[0]; s++)
            if (strcmp(scenarios[s].name, scenario_name) == 0) break;
        if (s == sizeof scenarios / sizeof scenarios[0]) {
            fprintf(stderr, "loadgen: unknown scenario %s (try --help)\n", scenario_name);
            return 2;
        }
        if (cfg.npaths == 0)
            for (j = 0; j < MAX_PATHS && scenarios[s].paths[j]; j++) cfg.paths[cfg.npaths++] = scenarios[s].paths[j];
        if (cfg.threads == 0) cfg.threads = scenarios[s].threads;
    }
    if (cfg.threads == 0) cfg.threads = 1;
    if (cfg.port <= 0 || cfg.port > 65535 || cfg.npaths == 0 || cfg.requests < 0 || cfg.warmup < 0 ||
        cfg.threads < 1 || cfg.threads > 64 || !(cfg.seconds > 0)) {
        usage(stderr);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    if (trace_path) {
        trace_file = fopen(trace_path, "w");
        if (!trace_file || proper_trace_writer_open(&cfg.writer, trace_file, &err)) {
            fprintf(stderr, "loadgen: cannot write trace %s\n", trace_path);
            return 2;
        }
    }
    clients = (client *)calloc((size_t)cfg.threads, sizeof *clients);
    if (!clients) return 2;
    started = proper_trace_now();
    cfg.deadline = started + (int64_t)(cfg.seconds * 1e9);
    for (i = 0; i < cfg.threads; i++) {
        clients[i].cfg = &cfg;
        clients[i].index = i;
        clients[i].fd = -1;
        if (cfg.writer && proper_trace_recorder_init(&clients[i].rec, cfg.writer, 0, &err)) return 2;
        if (pthread_create(&clients[i].thread, NULL, client_main, &clients[i]) != 0) return 2;
    }
    for (i = 0; i < cfg.threads; i++) {
        pthread_join(clients[i].thread, NULL);
        done += clients[i].done;
        failed += clients[i].failed;
        timed_out |= clients[i].timed_out;
        trace_failed |= clients[i].trace_failed;
        if (cfg.writer && proper_trace_recorder_free(&clients[i].rec, &err)) trace_failed = 1;
    }
    if (cfg.writer && proper_trace_writer_close(cfg.writer, &err)) trace_failed = 1;
    if (trace_file && fclose(trace_file) != 0) trace_failed = 1;
    free(clients);
    fprintf(stderr, "loadgen: %ld request(s) ok, %ld failed, %d thread(s), %.2f s%s\n", done, failed, cfg.threads,
            (double)(proper_trace_now() - started) * 1e-9, timed_out ? " (stopped by --seconds)" : "");
    if (trace_failed) fprintf(stderr, "loadgen: writing the trace failed\n");
    status = failed || timed_out || trace_failed ? 1 : 0;
    return status;
}
