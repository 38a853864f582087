/* Fuzz target for the trace reader: any input either parses or fails with
 * a positioned error, never crashes or leaks; whatever parses is written
 * back and must parse again to the same records (write/parse round trip).
 * Without PROPER_LIBFUZZER, main replays every file of directory argv[1]. */
#define PROPER_IMPLEMENTATION
#include "../../src/trace.h"

#include <stdlib.h>
#include <string.h>

static size_t total_events(const proper_trace *t) {
    size_t i, n = 0;
    for (i = 0; i < t->nrecords; i++) n += t->records[i].nevents + t->records[i].nvisits;
    return n;
}

/* A parse error must name a position inside the input. */
static void check_error(const proper_error *err, const uint8_t *data, size_t size) {
    size_t lines = 1, i;
    for (i = 0; i < size; i++) lines += data[i] == '\n';
    if (err->line < 1 || (size_t)err->line > lines || err->col < 1 || err->message[0] == '\0') abort();
}

static void round_trip(const proper_trace *t) {
    FILE *f = tmpfile();
    proper_trace u;
    proper_error err;
    char *text;
    long len;
    if (!f) return;
    if (proper_trace_write(t, f, "fuzz", &err)) abort();
    len = ftell(f);
    rewind(f);
    text = (char *)malloc((size_t)len + 1);
    if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) abort();
    fclose(f);
    proper_trace_init(&u);
    if (proper_trace_parse(&u, text, (size_t)len, "written", &err)) abort();
    if (u.nrecords != t->nrecords || total_events(&u) != total_events(t) || u.nsteps != t->nsteps ||
        u.nbranches != t->nbranches || u.nloops != t->nloops || u.locations.n != t->locations.n)
        abort();
    proper_trace_free(&u);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    proper_trace t;
    proper_error err;
    proper_trace_init(&t);
    if (proper_trace_parse(&t, (const char *)data, size, "fuzz", &err) == PROPER_OK)
        round_trip(&t);
    else
        check_error(&err, data, size);
    proper_trace_free(&t);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_trace"
#include "replay.h"
