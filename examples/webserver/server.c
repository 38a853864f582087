/* server.c — a small HTTP/1.1 static-file server instrumented with trace.h.
 *
 * Its request handling follows the StaticFileProvider of Koziolek & Firus
 * 2007 (ENTCS 176): build the complete path; file or directory?; for a file:
 * write a log entry, open it, send the header, send the content; for a
 * directory: read the configured default file names and probe them in a
 * loop until one exists, then deliver it; an error page otherwise. Every
 * request that carries an `X-Request-Id: N` header is traced as record N:
 * each step's duration (S), the branches taken (B), the probe loop's
 * iteration count (L) and the service's own entry-to-exit time (T), read
 * from the clock independently of the steps. The step names are listed in
 * data/webserver/README.md.
 *
 * POSIX sockets, bound to 127.0.0.1 only; a pool of worker threads takes
 * accepted connections from a queue; keep-alive is optional.
 *
 * With --thread-trace FILE it also records sim.h's thread events (the
 * monotonic and the thread CPU clock per event) for `proper sim build`: a
 * recorder of pool `network` records `arrive backlog` when accept() returns
 * a connection; the acceptor records `get.req backlog` / `get backlog`
 * around waiting for and accepting it and `put conn` when it has queued it;
 * each worker records `get.req conn` / `get conn` around taking one,
 * `io.req read N` / `io read N B` around each read() of a file (B: the
 * blocks the thread read from the device meanwhile, getrusage's
 * ru_inblock), and `done` when the connection is closed. Without the flag nothing of this is recorded (the measured
 * server is the uninstrumented one). SIGTERM or
 * SIGINT (or --max-seconds) stops it: it finishes the queued connections,
 * flushes every worker's trace buffer and exits.
 *
 *   server --root DIR [--defaults FILE] [--port N] [--port-file FILE]
 *          [--workers N] [--log FILE] [--trace FILE] [--keep-alive]
 *          [--max-seconds S] [--step-clock chained|separate] [--read-size BYTES]
 *          [--probe stat|scan]
 */
#define _POSIX_C_SOURCE 200809L
#define PROPER_IMPLEMENTATION
#include "../../src/trace.h"
#include "../../src/sim.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define PATH_MAX_LEN 1024
#define HEAD_MAX 8192        /* longest request head accepted */
#define CHUNK 16384          /* file bytes per read()/send() */
#define MAX_DEFAULTS 64      /* default file names read from the config */
#define QUEUE_CAP 256        /* accepted connections waiting for a worker */
#define RECV_TIMEOUT_S 5     /* an idle connection is closed after this */

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig) {
    (void)sig;
    stop_requested = 1;
}

/* Names registered with the trace writer (ids). */
typedef struct names {
    int build_path, check_target, read_defaults, probe_default, write_log, open_file, send_header,
        send_content, send_error;
    int target, file, dir, missing, probe, found, yes, no;
} names;

typedef struct server {
    const char *root, *defaults_path;
    int log_fd;
    int keep_alive;
    int separate_clock;          /* --step-clock separate */
    size_t read_size;            /* --read-size: file bytes per read() in sendContent */
    int probe_scan;              /* --probe scan: find default names by scanning the directory */
    proper_trace_writer *writer; /* NULL: not tracing */
    names n;
    proper_sim_writer *threads;  /* --thread-trace: NULL when not recording thread events */
    int tn_worker, tn_acceptor, tn_network, tn_backlog, tn_conn, tn_read;
    /* connection queue */
    pthread_mutex_t lock;
    pthread_cond_t not_empty, not_full;
    int queue[QUEUE_CAP];
    size_t head, count;
    int closing;
} server;

typedef struct worker {
    server *srv;
    pthread_t thread;
    proper_trace_recorder rec;
    int tracing;           /* rec is initialised */
    proper_trace_recorder *cur; /* &rec while serving a traced request, else NULL */
    int64_t last;          /* clock read where the current step began */
    char head[HEAD_MAX + 1];
    size_t head_len;       /* bytes in head (may include the next pipelined request) */
    char buf[CHUNK];
    unsigned long served;
    int failed;            /* a trace error was reported */
    proper_sim_recorder trec; /* thread events (--thread-trace) */
} worker;

/* One thread event of a worker; a no-op without --thread-trace. */
static void thread_event(worker *w, int kind, int name, int64_t arg) {
    if (w->srv->threads) proper_sim_record(&w->trec, kind, name, -1, arg);
}

/* ---- tracing helpers: no-ops for untraced requests ---- */

/* Step timing. A step ends at mark_step, which records the time since the
 * step began and makes "now" the start of the next step. In the default
 * chained mode a step begins where the previous one ended (the first at the
 * first clock read after entry), so the steps partition the service's time
 * and the recorder's own cost between steps is inside the next step; with
 * --step-clock separate, start_step reads the clock again right before each
 * step, so a step holds only its own work and that cost falls between steps
 * (in T but in no step). T always has its own clock reads at entry and exit. */
static void start_step(worker *w) {
    if (w->cur && w->srv->separate_clock) w->last = proper_trace_now();
}

static void mark_step(worker *w, int step) {
    if (w->cur) {
        int64_t now = proper_trace_now();
        proper_trace_step(w->cur, step, now - w->last);
        w->last = now;
    }
}

static void mark_branch(worker *w, int branch, int choice) {
    if (w->cur) proper_trace_branch(w->cur, branch, choice);
}

/* ---- socket output ---- */

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

static void http_date(char *out, size_t size) {
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out, size, "%a, %d %b %Y %H:%M:%S GMT", &tm);
}

static const char *content_type(const char *path) {
    const char *dot = strrchr(path, '.');
    if (dot && (strcmp(dot, ".html") == 0 || strcmp(dot, ".htm") == 0)) return "text/html";
    if (dot && strcmp(dot, ".txt") == 0) return "text/plain";
    return "application/octet-stream";
}

/* ---- the steps of the StaticFileProvider ---- */

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* buildPath: root + percent-decoded URL path (query dropped). Rejects
 * paths with a segment starting with '.' (hidden files, "..") or a NUL. */
static int build_path(const char *root, const char *target, char *out, size_t size) {
    size_t n = strlen(root), i = 0;
    const char *p = target;
    int segment_start = 1;
    if (n + 1 >= size || *target != '/') return -1;
    memcpy(out, root, n);
    i = n;
    while (*p && *p != '?' && *p != '#') {
        int c = (unsigned char)*p;
        if (c == '%') {
            int hi = hex_value(p[1]), lo = hi < 0 ? -1 : hex_value(p[2]);
            if (lo < 0) return -1;
            c = hi * 16 + lo;
            p += 2;
        }
        if (c == 0 || (segment_start && c == '.')) return -1;
        segment_start = c == '/';
        if (i + 1 >= size) return -1;
        out[i++] = (char)c;
        p++;
    }
    out[i] = '\0';
    return 0;
}

/* writeLog: one access-log line, appended with a single write(). */
static void write_log(worker *w, const char *target) {
    char line[PATH_MAX_LEN + 128], date[64];
    int n;
    http_date(date, sizeof date);
    n = snprintf(line, sizeof line, "127.0.0.1 - - [%s] \"GET %s HTTP/1.1\" 200 -\n", date, target);
    if (n > 0 && w->srv->log_fd >= 0) {
        size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
        if (write(w->srv->log_fd, line, len) < 0) w->failed = 1;
    }
}

static int send_header(int fd, const char *path, long long size, int keep) {
    char head[512], date[64];
    int n;
    http_date(date, sizeof date);
    n = snprintf(head, sizeof head,
                 "HTTP/1.1 200 OK\r\nDate: %s\r\nServer: proper-webserver\r\nContent-Type: %s\r\n"
                 "Content-Length: %lld\r\nConnection: %s\r\n\r\n",
                 date, content_type(path), size, keep ? "keep-alive" : "close");
    return send_all(fd, head, (size_t)n);
}

/* Fill up to `size` bytes of buf from the file, `read_size` bytes per
 * read(). Returns the bytes read (0 at the end of the file), -1 on error. */
static ssize_t read_chunk(worker *w, int file, char *buf, size_t size, size_t read_size) {
    size_t got = 0;
    while (got < size) {
        size_t want = size - got < read_size ? size - got : read_size;
        ssize_t k;
        thread_event(w, PROPER_SIM_TEV_IO_REQ, w->srv->tn_read, (int64_t)want);
        k = read(file, buf + got, want);
        thread_event(w, PROPER_SIM_TEV_IO, w->srv->tn_read, k > 0 ? (int64_t)k : 0);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return -1;
        if (k == 0) break;
        got += (size_t)k;
    }
    return (ssize_t)got;
}

/* sendContent: read the file into CHUNK-byte pieces (--read-size bytes per
 * read(), all of a piece at once by default) and send() each; close it. */
static int send_content(worker *w, int fd, int file) {
    int rc = 0;
    for (;;) {
        ssize_t k = read_chunk(w, file, w->buf, sizeof w->buf, w->srv->read_size);
        if (k <= 0) {
            rc = (int)k;
            break;
        }
        if (send_all(fd, w->buf, (size_t)k)) {
            rc = -1;
            break;
        }
    }
    close(file);
    return rc;
}

/* sendError: a complete 404 response. */
static int send_error(int fd, const char *target, int keep) {
    char resp[PATH_MAX_LEN + 512], body[PATH_MAX_LEN + 128], date[64];
    int nb, n;
    http_date(date, sizeof date);
    nb = snprintf(body, sizeof body, "<html><body><h1>404 Not Found</h1><p>%.900s</p></body></html>\n", target);
    n = snprintf(resp, sizeof resp,
                 "HTTP/1.1 404 Not Found\r\nDate: %s\r\nServer: proper-webserver\r\nContent-Type: text/html\r\n"
                 "Content-Length: %d\r\nConnection: %s\r\n\r\n%s",
                 date, nb, keep ? "keep-alive" : "close", body);
    return send_all(fd, resp, (size_t)n);
}

/* readDefaults: the configured default file names, one per line, read from
 * the config file on every directory request. Returns how many. */
static int read_defaults(const char *path, char names_out[][PATH_MAX_LEN / 4], int max) {
    char text[8192];
    ssize_t len = 0, k;
    int fd = open(path, O_RDONLY), n = 0;
    char *line, *save = NULL;
    if (fd < 0) return 0;
    while (len < (ssize_t)sizeof text - 1 && (k = read(fd, text + len, sizeof text - 1 - (size_t)len)) > 0)
        len += k;
    close(fd);
    text[len] = '\0';
    for (line = strtok_r(text, "\r\n", &save); line && n < max; line = strtok_r(NULL, "\r\n", &save)) {
        while (*line == ' ' || *line == '\t') line++;
        if (*line == '\0' || *line == '#' || strlen(line) >= PATH_MAX_LEN / 4) continue;
        strcpy(names_out[n++], line);
    }
    return n;
}

/* out = dir "/" name (one slash); -1 if it does not fit. */
static int join_path(char *out, size_t size, const char *dir, const char *name) {
    size_t nd = strlen(dir), nn = strlen(name), slash = nd && dir[nd - 1] == '/' ? 0 : 1;
    if (nd + slash + nn + 1 > size) return -1;
    memcpy(out, dir, nd);
    if (slash) out[nd] = '/';
    memcpy(out + nd + slash, name, nn + 1);
    return 0;
}

/* writeLog ; openFile ; sendHeader ; sendContent. */
static int deliver(worker *w, int fd, const char *target, const char *path, int keep) {
    const names *nm = &w->srv->n;
    struct stat st;
    int file;
    start_step(w);
    write_log(w, target);
    mark_step(w, nm->write_log);
    start_step(w);
    file = open(path, O_RDONLY);
    if (file >= 0 && fstat(file, &st) != 0) {
        close(file);
        file = -1;
    }
    mark_step(w, nm->open_file);
    if (file < 0) { /* deleted since checkTarget/probeDefault saw it */
        int rc;
        start_step(w);
        rc = send_error(fd, target, keep);
        mark_step(w, nm->send_error);
        return rc;
    }
    start_step(w);
    if (send_header(fd, path, (long long)st.st_size, keep)) {
        close(file);
        return -1;
    }
    mark_step(w, nm->send_header);
    start_step(w);
    if (send_content(w, fd, file)) return -1;
    mark_step(w, nm->send_content);
    return 0;
}

/* --probe scan: look `name` up in `dir` case-insensitively by reading the
 * whole directory (as a server emulating a case-insensitive file system
 * would): a miss reads every entry, a hit stops at the match. Returns the
 * entry's own spelling, copied to `out`, or NULL. */
static const char *scan_directory(const char *dir, const char *name, char out[PATH_MAX_LEN / 4]) {
    DIR *d = opendir(dir);
    struct dirent *e;
    const char *hit = NULL;
    if (!d) return NULL;
    while (!hit && (e = readdir(d)) != NULL)
        if (strcasecmp(e->d_name, name) == 0 && strlen(e->d_name) < PATH_MAX_LEN / 4) {
            strcpy(out, e->d_name);
            hit = out;
        }
    closedir(d);
    return hit;
}

/* The directory branch: readDefaults ; probeDefault^probe ; (deliver | sendError). */
static int serve_directory(worker *w, int fd, const char *target, const char *dir, int keep) {
    const names *nm = &w->srv->n;
    char defaults[MAX_DEFAULTS][PATH_MAX_LEN / 4];
    char candidate[PATH_MAX_LEN + PATH_MAX_LEN / 4 + 2], entry[PATH_MAX_LEN / 4];
    struct stat st;
    int count, i, found = -1, rc;
    start_step(w);
    count = read_defaults(w->srv->defaults_path, defaults, MAX_DEFAULTS);
    mark_step(w, nm->read_defaults);
    for (i = 0; i < count && found < 0; i++) {
        const char *name = defaults[i];
        start_step(w);
        if (w->srv->probe_scan) name = scan_directory(dir, defaults[i], entry);
        if (name && join_path(candidate, sizeof candidate, dir, name) == 0 && stat(candidate, &st) == 0 &&
            S_ISREG(st.st_mode))
            found = i;
        mark_step(w, nm->probe_default);
    }
    if (w->cur) proper_trace_loop(w->cur, nm->probe, i);
    mark_branch(w, nm->found, found >= 0 ? nm->yes : nm->no);
    if (found >= 0) return deliver(w, fd, target, candidate, keep);
    start_step(w);
    rc = send_error(fd, target, keep);
    mark_step(w, nm->send_error);
    return rc;
}

/* HandleRequest: the service whose response time is predicted. T is read
 * at entry and exit, independently of the steps' own clock reads. */
static int handle_request(worker *w, int fd, const char *target, int traced, uint64_t id, int keep) {
    const names *nm = &w->srv->n;
    char path[PATH_MAX_LEN];
    struct stat st;
    int kind, rc; /* kind: 0 missing, 1 file, 2 directory */
    int64_t entry = proper_trace_now();
    w->cur = traced && w->tracing ? &w->rec : NULL;
    if (w->cur) {
        proper_trace_begin(w->cur, id);
        w->last = proper_trace_now();
    }
    start_step(w);
    kind = build_path(w->srv->root, target, path, sizeof path) == 0 ? 0 : -1;
    mark_step(w, nm->build_path);
    start_step(w);
    if (kind == 0 && stat(path, &st) == 0) kind = S_ISREG(st.st_mode) ? 1 : S_ISDIR(st.st_mode) ? 2 : 0;
    mark_step(w, nm->check_target);
    mark_branch(w, nm->target, kind == 1 ? nm->file : kind == 2 ? nm->dir : nm->missing);
    if (kind == 1) {
        rc = deliver(w, fd, target, path, keep);
    } else if (kind == 2) {
        rc = serve_directory(w, fd, target, path, keep);
    } else {
        start_step(w);
        rc = send_error(fd, target, keep);
        mark_step(w, nm->send_error);
    }
    if (w->cur) {
        proper_trace_service(w->cur, proper_trace_now() - entry);
        if (proper_trace_end(w->cur) && !w->failed) {
            fprintf(stderr, "server: tracing failed; later requests are not recorded\n");
            w->failed = 1;
        }
        w->cur = NULL;
    }
    return rc;
}

/* ---- HTTP request heads ---- */

/* Read until the head (ending in an empty line) is complete. Returns its
 * length including the final CRLFCRLF, 0 on EOF/error/timeout. */
static size_t read_head(worker *w, int fd) {
    for (;;) {
        char *end;
        ssize_t k;
        w->head[w->head_len] = '\0';
        end = strstr(w->head, "\r\n\r\n");
        if (end) return (size_t)(end - w->head) + 4;
        if (w->head_len >= HEAD_MAX) return 0;
        k = recv(fd, w->head + w->head_len, HEAD_MAX - w->head_len, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return 0;
        w->head_len += (size_t)k;
    }
}

/* Case-insensitive: does header line `line` have name `name`? Returns the value. */
static const char *header_value(const char *line, const char *name) {
    size_t n = strlen(name), i;
    for (i = 0; i < n; i++) {
        char a = line[i], b = name[i];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (b >= 'A' && b <= 'Z') b = (char)(b - 'A' + 'a');
        if (a != b) return NULL;
    }
    if (line[n] != ':') return NULL;
    line += n + 1;
    while (*line == ' ' || *line == '\t') line++;
    return line;
}

static int parse_id(const char *s, uint64_t *id) {
    uint64_t v = 0;
    if (*s < '0' || *s > '9') return 0;
    while (*s >= '0' && *s <= '9') {
        if (v > (UINT64_MAX - 9) / 10) return 0;
        v = v * 10 + (uint64_t)(*s++ - '0');
    }
    *id = v;
    return *s == '\0' || *s == ' ' || *s == '\t';
}

static const char *const bad_request =
    "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
static const char *const not_allowed =
    "HTTP/1.1 405 Method Not Allowed\r\nAllow: GET\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

/* Serve the requests of one connection. */
static void serve_connection(worker *w, int fd) {
    w->head_len = 0;
    for (;;) {
        size_t len = read_head(w, fd);
        char *line, *save = NULL, *save_line = NULL, *method, *target, *version;
        uint64_t id = 0;
        int traced = 0, keep, http11, conn_close = 0, conn_keep = 0;
        if (len == 0) return;
        w->head[len - 2] = '\0'; /* keep "...\r\n" of the last header; drop the empty line */
        line = strtok_r(w->head, "\r\n", &save);
        method = line ? strtok_r(line, " ", &save_line) : NULL;
        target = method ? strtok_r(NULL, " ", &save_line) : NULL;
        version = target ? strtok_r(NULL, " ", &save_line) : NULL;
        if (!version || strncmp(version, "HTTP/1.", 7) != 0) {
            send_all(fd, bad_request, strlen(bad_request));
            return;
        }
        http11 = strcmp(version, "HTTP/1.1") == 0;
        while ((line = strtok_r(NULL, "\r\n", &save)) != NULL) {
            const char *v;
            if ((v = header_value(line, "X-Request-Id")) != NULL) traced = parse_id(v, &id);
            if ((v = header_value(line, "Connection")) != NULL) {
                conn_close = strstr(v, "close") != NULL;
                conn_keep = strstr(v, "keep-alive") != NULL;
            }
        }
        keep = w->srv->keep_alive && !conn_close && (http11 || conn_keep);
        if (strcmp(method, "GET") != 0) {
            send_all(fd, not_allowed, strlen(not_allowed));
            return;
        }
        if (handle_request(w, fd, target, traced, id, keep)) return;
        w->served++;
        if (!keep) return;
        /* keep what followed this head: the start of the next request */
        memmove(w->head, w->head + len, w->head_len - len);
        w->head_len -= len;
    }
}

/* ---- worker pool ---- */

static int queue_pop(worker *w) {
    server *s = w->srv;
    int fd = -1;
    thread_event(w, PROPER_SIM_TEV_GET_REQ, s->tn_conn, -1);
    pthread_mutex_lock(&s->lock);
    while (s->count == 0 && !s->closing) pthread_cond_wait(&s->not_empty, &s->lock);
    if (s->count > 0) {
        fd = s->queue[s->head];
        s->head = (s->head + 1) % QUEUE_CAP;
        s->count--;
        pthread_cond_signal(&s->not_full);
    }
    pthread_mutex_unlock(&s->lock);
    if (fd >= 0) thread_event(w, PROPER_SIM_TEV_GET, s->tn_conn, -1);
    return fd;
}

static void queue_push(server *s, int fd) {
    pthread_mutex_lock(&s->lock);
    while (s->count == QUEUE_CAP) pthread_cond_wait(&s->not_full, &s->lock);
    s->queue[(s->head + s->count) % QUEUE_CAP] = fd;
    s->count++;
    pthread_cond_signal(&s->not_empty);
    pthread_mutex_unlock(&s->lock);
}

static void *worker_main(void *arg) {
    worker *w = (worker *)arg;
    proper_error err;
    int fd;
    if (w->srv->threads && proper_sim_recorder_init(&w->trec, w->srv->threads, w->srv->tn_worker, &err)) {
        fprintf(stderr, "server: cannot record thread events\n");
        w->failed = 1;
        return NULL;
    }
    while ((fd = queue_pop(w)) >= 0) {
        serve_connection(w, fd);
        close(fd);
        thread_event(w, PROPER_SIM_TEV_DONE, -1, -1);
    }
    /* a worker stopped in get.req (the server is closing) ends with exit */
    if (w->srv->threads && proper_sim_recorder_free(&w->trec, &err)) {
        char msg[800];
        fprintf(stderr, "server: %s\n", proper_error_format(&err, msg, sizeof msg));
        w->failed = 1;
    }
    if (w->tracing && proper_trace_recorder_free(&w->rec, &err)) {
        char msg[800];
        fprintf(stderr, "server: %s\n", proper_error_format(&err, msg, sizeof msg));
        w->failed = 1;
    }
    return NULL;
}

/* ---- set-up ---- */

static int register_names(proper_trace_writer *wr, names *n) {
    proper_error err;
    struct {
        int *id;
        const char *name;
    } table[] = {
        {&n->build_path, "buildPath"},       {&n->check_target, "checkTarget"},
        {&n->read_defaults, "readDefaults"}, {&n->probe_default, "probeDefault"},
        {&n->write_log, "writeLog"},         {&n->open_file, "openFile"},
        {&n->send_header, "sendHeader"},     {&n->send_content, "sendContent"},
        {&n->send_error, "sendError"},       {&n->target, "target"},
        {&n->file, "file"},                  {&n->dir, "dir"},
        {&n->missing, "missing"},            {&n->probe, "probe"},
        {&n->found, "found"},                {&n->yes, "yes"},
        {&n->no, "no"},
    };
    size_t i;
    for (i = 0; i < sizeof table / sizeof table[0]; i++)
        if ((*table[i].id = proper_trace_writer_name(wr, table[i].name, &err)) < 0) return -1;
    return 0;
}

static int listen_loopback(int port) {
    struct sockaddr_in addr;
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    if (fd < 0) return -1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons((unsigned short)port);
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(fd, 128) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int bound_port(int fd) {
    struct sockaddr_in addr;
    socklen_t len = sizeof addr;
    if (getsockname(fd, (struct sockaddr *)&addr, &len) != 0) return -1;
    return ntohs(addr.sin_port);
}

/* Write the port to `path` atomically (tmp file + rename). */
static int write_port_file(const char *path, int port) {
    char tmp[PATH_MAX_LEN + 8];
    FILE *f;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    f = fopen(tmp, "w");
    if (!f) return -1;
    fprintf(f, "%d\n", port);
    if (fclose(f) != 0) return -1;
    return rename(tmp, path);
}

static void configure_connection(int fd) {
    struct timeval tv;
    int one = 1;
    tv.tv_sec = RECV_TIMEOUT_S;
    tv.tv_usec = 0;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    /* header and content are separate send()s: without NODELAY, Nagle and
     * delayed ACKs would add tens of milliseconds */
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* Accept until stopped by a signal or the deadline. When recording thread
 * events (`acceptor` and `arrivals` not NULL) the acceptor takes each
 * connection from the backlog (get.req when it starts waiting, get when
 * accept() returned it, the arrival recorded by the network's recorder at
 * that instant) and puts it in conn. */
static void accept_loop(server *s, int lfd, double max_seconds, proper_sim_recorder *acceptor,
                        proper_sim_recorder *arrivals) {
    int64_t deadline = max_seconds > 0 ? proper_trace_now() + (int64_t)(max_seconds * 1e9) : 0;
    int waiting = 0;
    while (!stop_requested && (!deadline || proper_trace_now() < deadline)) {
        struct pollfd p;
        int fd;
        if (acceptor && !waiting) proper_sim_record(acceptor, PROPER_SIM_TEV_GET_REQ, s->tn_backlog, -1, -1);
        waiting = 1;
        p.fd = lfd;
        p.events = POLLIN;
        p.revents = 0;
        if (poll(&p, 1, 100) <= 0) continue;
        fd = accept(lfd, NULL, NULL);
        if (fd < 0) continue;
        if (acceptor) {
            proper_sim_record(arrivals, PROPER_SIM_TEV_ARRIVE, s->tn_backlog, -1, -1);
            proper_sim_record(acceptor, PROPER_SIM_TEV_GET, s->tn_backlog, -1, -1);
        }
        waiting = 0;
        configure_connection(fd);
        queue_push(s, fd);
        if (acceptor) proper_sim_record(acceptor, PROPER_SIM_TEV_PUT, s->tn_conn, -1, -1);
    }
}

/* --thread-trace: the writer (thread CPU clock and io block counts on) and
 * the names used. */
static int open_thread_trace(server *s, const char *path, FILE **file) {
    proper_error err;
    *file = fopen(path, "w");
    if (!*file || proper_sim_writer_open(&s->threads, *file, PROPER_SIM_REC_CPU | PROPER_SIM_REC_IO_BLOCKS, &err) ||
        (s->tn_worker = proper_sim_writer_name(s->threads, "worker", &err)) < 0 ||
        (s->tn_acceptor = proper_sim_writer_name(s->threads, "acceptor", &err)) < 0 ||
        (s->tn_network = proper_sim_writer_name(s->threads, "network", &err)) < 0 ||
        (s->tn_backlog = proper_sim_writer_name(s->threads, "backlog", &err)) < 0 ||
        (s->tn_conn = proper_sim_writer_name(s->threads, "conn", &err)) < 0 ||
        (s->tn_read = proper_sim_writer_name(s->threads, "read", &err)) < 0 ||
        proper_sim_writer_declare(s->threads, "queue backlog", &err) ||
        proper_sim_writer_declare(s->threads, "queue conn", &err)) {
        fprintf(stderr, "server: cannot write thread events to %s\n", path);
        return -1;
    }
    return 0;
}

static void usage(FILE *out) {
    fprintf(out,
            "usage: server --root DIR [--defaults FILE] [--port N] [--port-file FILE] [--workers N]\n"
            "              [--log FILE] [--trace FILE] [--keep-alive] [--max-seconds S]\n"
            "              [--step-clock chained|separate] [--read-size BYTES] [--thread-trace FILE]\n"
            "Static-file HTTP/1.1 server on 127.0.0.1, instrumented with trace.h.\n"
            "  --root DIR         document root (required)\n"
            "  --defaults FILE    default file names for directories, one per line (ROOT/.defaults)\n"
            "  --port N           port (0, the default: any free port)\n"
            "  --port-file FILE   write the bound port there once listening\n"
            "  --workers N        worker threads (1)\n"
            "  --log FILE         access log (/dev/null)\n"
            "  --trace FILE       write a proper trace of requests carrying X-Request-Id\n"
            "  --thread-trace FILE  write sim.h's thread events (proper sim build reads them)\n"
            "  --keep-alive       honour persistent connections (default: close after each response)\n"
            "  --max-seconds S    stop by itself after S seconds (600; 0 = never)\n"
            "  --step-clock M     chained (default): a step starts where the previous one ended;\n"
            "                     separate: each step reads the clock at its own start\n"
            "  --read-size BYTES  file bytes per read() in sendContent (1..16384, default 16384);\n"
            "                     small reads make a slow, syscall-bound disk path (the content\n"
            "                     is still sent in pieces of up to 16384 bytes)\n"
            "  --probe M          how probeDefault looks a default name up: stat (default), or\n"
            "                     scan: read the directory for a case-insensitive match (a miss\n"
            "                     costs a pass over every entry of a large directory)\n"
            "Stops on SIGTERM/SIGINT, flushing the trace.\n");
}

int main(int argc, char **argv) {
    server s;
    worker *workers;
    const char *port_file = NULL, *log_path = "/dev/null", *trace_path = NULL, *thread_trace_path = NULL;
    FILE *thread_trace_file = NULL;
    proper_sim_recorder acceptor, arrivals;
    char defaults_buf[PATH_MAX_LEN];
    int port = 0, nworkers = 1, lfd, i, status = 0;
    double max_seconds = 600;
    FILE *trace_file = NULL;
    proper_error err;
    struct sigaction sa;
    unsigned long served = 0;

    memset(&s, 0, sizeof s);
    s.read_size = CHUNK;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { usage(stdout); return 0; }
        if (strcmp(a, "--keep-alive") == 0) { s.keep_alive = 1; continue; }
        if (!v) { fprintf(stderr, "server: %s needs a value\n", a); return 2; }
        if (strcmp(a, "--root") == 0) s.root = v;
        else if (strcmp(a, "--defaults") == 0) s.defaults_path = v;
        else if (strcmp(a, "--port") == 0) port = atoi(v);
        else if (strcmp(a, "--port-file") == 0) port_file = v;
        else if (strcmp(a, "--workers") == 0) nworkers = atoi(v);
        else if (strcmp(a, "--log") == 0) log_path = v;
        else if (strcmp(a, "--trace") == 0) trace_path = v;
        else if (strcmp(a, "--thread-trace") == 0) thread_trace_path = v;
        else if (strcmp(a, "--max-seconds") == 0) max_seconds = atof(v);
        else if (strcmp(a, "--probe") == 0 && (strcmp(v, "stat") == 0 || strcmp(v, "scan") == 0))
            s.probe_scan = strcmp(v, "scan") == 0;
        else if (strcmp(a, "--read-size") == 0) s.read_size = (size_t)strtoul(v, NULL, 10);
        else if (strcmp(a, "--step-clock") == 0 && (strcmp(v, "chained") == 0 || strcmp(v, "separate") == 0))
            s.separate_clock = strcmp(v, "separate") == 0;
        else { fprintf(stderr, "server: unknown option %s (try --help)\n", a); return 2; }
        i++;
    }
    if (!s.root || nworkers < 1 || nworkers > 256 || port < 0 || port > 65535 || s.read_size < 1 || s.read_size > CHUNK) {
        usage(stderr);
        return 2;
    }
    if (!s.defaults_path) {
        snprintf(defaults_buf, sizeof defaults_buf, "%s/.defaults", s.root);
        s.defaults_path = defaults_buf;
    }
    s.log_fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (s.log_fd < 0) { fprintf(stderr, "server: cannot open log %s: %s\n", log_path, strerror(errno)); return 2; }
    if (trace_path) {
        trace_file = fopen(trace_path, "w");
        if (!trace_file || proper_trace_writer_open(&s.writer, trace_file, &err) || register_names(s.writer, &s.n)) {
            fprintf(stderr, "server: cannot write trace %s\n", trace_path);
            return 2;
        }
        proper_trace_writer_comment(s.writer, "proper example web server (examples/webserver/server.c)", &err);
    }
    if (thread_trace_path && open_thread_trace(&s, thread_trace_path, &thread_trace_file)) return 2;
    lfd = listen_loopback(port);
    if (lfd < 0) { fprintf(stderr, "server: cannot listen on 127.0.0.1:%d: %s\n", port, strerror(errno)); return 2; }
    port = bound_port(lfd);

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);

    pthread_mutex_init(&s.lock, NULL);
    pthread_cond_init(&s.not_empty, NULL);
    pthread_cond_init(&s.not_full, NULL);
    workers = (worker *)calloc((size_t)nworkers, sizeof *workers);
    if (!workers) return 2;
    for (i = 0; i < nworkers; i++) {
        workers[i].srv = &s;
        if (s.writer) {
            if (proper_trace_recorder_init(&workers[i].rec, s.writer, 0, &err)) return 2;
            workers[i].tracing = 1;
        }
        if (pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]) != 0) return 2;
    }
    if (port_file && write_port_file(port_file, port) != 0) {
        fprintf(stderr, "server: cannot write %s\n", port_file);
        stop_requested = 1;
        status = 2;
    }
    fprintf(stderr, "server: listening on 127.0.0.1:%d with %d worker(s)\n", port, nworkers);

    if (s.threads && (proper_sim_recorder_init(&acceptor, s.threads, s.tn_acceptor, &err) ||
                      proper_sim_recorder_init(&arrivals, s.threads, s.tn_network, &err)))
        return 2;
    accept_loop(&s, lfd, max_seconds, s.threads ? &acceptor : NULL, s.threads ? &arrivals : NULL);
    if (s.threads && (proper_sim_recorder_free(&acceptor, &err) | proper_sim_recorder_free(&arrivals, &err))) status = 1;
    close(lfd);
    pthread_mutex_lock(&s.lock);
    s.closing = 1;
    pthread_cond_broadcast(&s.not_empty);
    pthread_mutex_unlock(&s.lock);
    for (i = 0; i < nworkers; i++) {
        pthread_join(workers[i].thread, NULL);
        served += workers[i].served;
        if (workers[i].failed) status = 1;
    }
    if (s.writer && proper_trace_writer_close(s.writer, &err)) status = 1;
    if (trace_file && fclose(trace_file) != 0) status = 1;
    if (s.threads && proper_sim_writer_close(s.threads, &err)) status = 1;
    if (thread_trace_file && fclose(thread_trace_file) != 0) status = 1;
    close(s.log_fd);
    free(workers);
    pthread_cond_destroy(&s.not_empty);
    pthread_cond_destroy(&s.not_full);
    pthread_mutex_destroy(&s.lock);
    fprintf(stderr, "server: stopped after %lu request(s)\n", served);
    return status;
}
