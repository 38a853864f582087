/* Fuzz target for the readers of PRISM's and Storm's console output
 * (backends/prism.h, backends/storm.h). The first byte picks the reader
 * (even: PRISM, odd: Storm) and the exit status (bit 1: 0 or 1); the rest is
 * the output. Every input either fails with PROPER_EBACKEND and a message,
 * or gives answers each holding a value or a message; the version readers
 * return NULL or a string from the text; the properties text rewritten for
 * Storm keeps its lines. Without PROPER_LIBFUZZER, main
 * replays directory argv[1] (seeded with the transcripts of
 * tests/transcripts/, header lines included, and malformed variants). */
#define PROPER_IMPLEMENTATION
#include "../../backends/prism.h"
#include "../../backends/storm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void check_output(int rc, const proper_tool_output *o, const proper_error *err) {
    size_t i;
    if (rc == PROPER_ENOMEM) return;
    if (rc != PROPER_OK) {
        if (rc != PROPER_EBACKEND || err->message[0] == '\0' || err->line < 0 || err->col < 0) abort();
        if (o->n_answers != 0 || o->answers || o->version) abort(); /* left as it was: empty */
        return;
    }
    for (i = 0; i < o->n_answers; i++) {
        const proper_tool_answer *a = &o->answers[i];
        if (a->ok ? a->message != NULL : a->message == NULL || a->message[0] == '\0') abort();
        if (a->ok && !(a->error >= 0.0)) abort();
        /* a finite value has a finite stated error ("+/- 1e400" is refused) */
        if (a->ok && isfinite(a->value) && !(a->error < INFINITY)) abort();
        if (a->is_bool && !(a->value == 0.0 || a->value == 1.0)) abort();
    }
}

/* The DRN route's scan for names a DRN model cannot give Storm: refuses or
 * accepts, with a position inside the text when it refuses. */
static void check_storm_names(const char *s) {
    proper_error err;
    int rc;
    proper_error_clear(&err);
    rc = proper__stormtool_refuse_unknown_names(s, "p", &err);
    if (rc != PROPER_OK && rc != PROPER_EINVAL && rc != PROPER_ENOMEM) abort();
    if (rc == PROPER_EINVAL && (err.line < 1 || err.col < 1)) abort();
}

/* The properties text as Storm is to read it keeps every line where it
 * was (as many newlines), and its translation stays bounded: label
 * substitution stops at PROPER_STORMTOOL_MAX_PROPS bytes, overshooting by
 * at most one expansion per nesting level, and each statement gains a few
 * dozen characters at most (filter( ..., F), !( ) | ( ), ", true", ';'). */
static void check_storm_props(const char *text, size_t size) {
    char *s = (char *)malloc(size + 1);
    proper_strbuf b;
    size_t i, lines_in = 0, lines_out = 0;
    if (!s) return;
    memcpy(s, text, size);
    s[size] = '\0';
    proper_strbuf_init(&b);
    proper__stormtool_rewrite_props(s, &b);
    if (!b.failed) {
        for (i = 0; s[i]; i++) lines_in += s[i] == '\n';
        for (i = 0; i < b.len; i++) lines_out += b.data[i] == '\n';
        if (lines_in != lines_out || b.len > PROPER_STORMTOOL_MAX_PROPS + 80 * (size + 1)) abort();
    }
    proper_strbuf_free(&b);
    check_storm_names(s);
    free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    proper_tool_output o;
    proper_error err;
    const char *text;
    char *v;
    int storm, status, rc;
    if (size == 0) return 0;
    storm = data[0] & 1;
    status = (data[0] >> 1) & 1;
    text = (const char *)data + 1;
    size--;
    proper_error_clear(&err);
    proper_tool_output_init(&o);
    if (storm) rc = proper_stormtool_parse(text, size, status, 18, &o, &err);
    else rc = proper_prismtool_parse(text, size, status, &o, &err);
    check_output(rc, &o, &err);
    proper_tool_output_free(&o);
    v = storm ? proper_stormtool_version(text, size) : proper_prismtool_version(text, size);
    if (v && strlen(v) > size) abort();
    PROPER_FREE(v);
    if (storm) check_storm_props(text, size);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_toolout"
#include "replay.h"
