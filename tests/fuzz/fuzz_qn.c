/* Fuzz target for qn.h's CSV readers: the network file (station, servers,
 * rate, routing row) and the queue-length trace (t, x1..xM[, b1..bM]).
 * Each input goes through both readers. Any input either parses or fails
 * with a located error inside the input, leaving the output unchanged; a
 * parsed network passes proper_qn_validate, a parsed trace holds finite,
 * non-negative values at equally spaced times; and whatever parses is
 * written back and read again to exactly the same numbers. Without
 * PROPER_LIBFUZZER, main replays every file of argv[1]. */
#define PROPER_IMPLEMENTATION
#include "../../src/qn.h"

#include <stdlib.h>
#include <string.h>

static void check_error(const proper_error *err, const char *text, size_t len) {
    size_t lines = 1, i;
    for (i = 0; i < len; i++) lines += text[i] == '\n';
    if (err->code == PROPER_ENOMEM) return;
    if (err->code >= 0 || err->message[0] == '\0' || err->line < 0 || (size_t)err->line > lines) abort();
}

static int same(double a, double b) { return a == b || (isinf(a) && isinf(b) && (a > 0) == (b > 0)); }

static void network(const char *text, size_t len) {
    proper_qn q, back;
    proper_error err;
    proper_strbuf b;
    size_t i;
    proper_qn_init(&q);
    proper_qn_init(&back);
    if (proper_qn_parse_network_csv(&q, text, len, "net.csv", &err)) {
        check_error(&err, text, len);
        if (q.M != 0 || q.rates) abort(); /* a failed parse leaves its output unchanged */
        return;
    }
    if (q.M == 0 || proper_qn_validate(&q, &err)) abort();
    proper_strbuf_init(&b);
    if (proper_qn_format_network_csv(&q, &b, &err)) abort();
    if (proper_qn_parse_network_csv(&back, b.data, b.len, "printed", &err)) abort();
    if (back.M != q.M) abort();
    for (i = 0; i < q.M; i++)
        if (!same(back.servers[i], q.servers[i]) || back.rates[i] != q.rates[i]) abort();
    for (i = 0; i < q.M * q.M; i++)
        if (back.routing[i] != q.routing[i]) abort();
    proper_strbuf_free(&b);
    proper_qn_free(&back);
    proper_qn_free(&q);
}

static void trace(const char *text, size_t len) {
    proper_qn_trace t, back;
    proper_error err;
    proper_strbuf b;
    size_t i;
    proper_qn_trace_init(&t);
    proper_qn_trace_init(&back);
    if (proper_qn_parse_trace_csv(&t, text, len, "trace.csv", &err)) {
        check_error(&err, text, len);
        if (t.M != 0 || t.x) abort();
        return;
    }
    if (t.M == 0 || t.K < 2 || !(t.dt > 0) || !isfinite(t.dt)) abort();
    for (i = 0; i < t.K * t.M; i++)
        if (!(t.x[i] >= 0) || !isfinite(t.x[i]) || (t.busy && (!(t.busy[i] >= 0) || !isfinite(t.busy[i])))) abort();
    proper_strbuf_init(&b);
    if (proper_qn_format_trace_csv(&t, &b, &err)) abort();
    if (proper_qn_parse_trace_csv(&back, b.data, b.len, "printed", &err)) abort();
    if (back.M != t.M || back.K != t.K || back.dt != t.dt || (back.busy == NULL) != (t.busy == NULL)) abort();
    for (i = 0; i < t.K * t.M; i++)
        if (back.x[i] != t.x[i] || (t.busy && back.busy[i] != t.busy[i])) abort();
    proper_strbuf_free(&b);
    proper_qn_trace_free(&back);
    proper_qn_trace_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    network((const char *)data, size);
    trace((const char *)data, size);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_qn"
#include "replay.h"
