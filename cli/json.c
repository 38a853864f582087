/* json.c — the CLI's JSON writer; see json.h. */
#include <string.h>

#include "../src/core.h"
#include "json.h"

void cli_json_init(cli_json *j, FILE *f) {
    memset(j, 0, sizeof *j);
    j->f = f;
}

/* Separator before a value: a comma between array elements; inside an
 * object the key has written its own. */
static void proper__cli_json_before_value(cli_json *j) {
    if (j->depth == 0) return;
    if (j->kind[j->depth - 1] == '{') {
        PROPER_ASSERT(j->have_key); /* a value inside an object needs a key */
        j->have_key = 0;
        return;
    }
    if (j->count[j->depth - 1]) fputs(", ", j->f);
    j->count[j->depth - 1] = 1;
}

/* After a value: the newline that ends the document. */
static void proper__cli_json_after_value(cli_json *j) {
    if (j->depth == 0) fputc('\n', j->f);
}

static void proper__cli_json_open(cli_json *j, char kind) {
    proper__cli_json_before_value(j);
    PROPER_ASSERT(j->depth < CLI_JSON_MAX_DEPTH);
    j->kind[j->depth] = kind;
    j->count[j->depth] = 0;
    j->depth++;
    fputc(kind, j->f);
}

static void proper__cli_json_close(cli_json *j, char kind) {
    PROPER_ASSERT(j->depth > 0 && j->kind[j->depth - 1] == kind && !j->have_key);
    j->depth--;
    fputc(kind == '{' ? '}' : ']', j->f);
    proper__cli_json_after_value(j);
}

void cli_json_object_begin(cli_json *j) { proper__cli_json_open(j, '{'); }
void cli_json_object_end(cli_json *j) { proper__cli_json_close(j, '{'); }
void cli_json_array_begin(cli_json *j) { proper__cli_json_open(j, '['); }
void cli_json_array_end(cli_json *j) { proper__cli_json_close(j, '['); }

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0 with *bad
 * set to the length of its longest valid prefix (at least 1). */
static size_t proper__cli_json_utf8(const unsigned char *s, size_t n, size_t *bad) {
    size_t need, k;
    unsigned char lo = 0x80, hi = 0xBF;
    if (s[0] >= 0xC2 && s[0] <= 0xDF) need = 2;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        need = 3;
        if (s[0] == 0xE0) lo = 0xA0;     /* overlong */
        if (s[0] == 0xED) hi = 0x9F;     /* surrogates */
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        need = 4;
        if (s[0] == 0xF0) lo = 0x90;     /* overlong */
        if (s[0] == 0xF4) hi = 0x8F;     /* above U+10FFFF */
    } else {
        *bad = 1;
        return 0;
    }
    for (k = 1; k < need; k++) {
        unsigned char c;
        if (k >= n) break;
        c = s[k];
        if (k == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xBF)) break;
    }
    if (k == need) return need;
    *bad = k;
    return 0;
}

static void proper__cli_json_write_string(FILE *f, const char *text, size_t n) {
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    fputc('"', f);
    while (i < n) {
        unsigned char c = s[i];
        size_t len, bad;
        if (c < 0x80) {
            switch (c) {
            case '"': fputs("\\\"", f); break;
            case '\\': fputs("\\\\", f); break;
            case '\b': fputs("\\b", f); break;
            case '\f': fputs("\\f", f); break;
            case '\n': fputs("\\n", f); break;
            case '\r': fputs("\\r", f); break;
            case '\t': fputs("\\t", f); break;
            default:
                if (c < 0x20) fprintf(f, "\\u%04x", (unsigned)c);
                else fputc(c, f);
            }
            i++;
            continue;
        }
        len = proper__cli_json_utf8(s + i, n - i, &bad);
        if (len) {
            fwrite(s + i, 1, len, f);
            i += len;
        } else {
            fputs("\\ufffd", f);
            i += bad;
        }
    }
    fputc('"', f);
}

void cli_json_key(cli_json *j, const char *key) {
    PROPER_ASSERT(j->depth > 0 && j->kind[j->depth - 1] == '{' && !j->have_key);
    if (j->count[j->depth - 1]) fputs(", ", j->f);
    j->count[j->depth - 1] = 1;
    proper__cli_json_write_string(j->f, key, strlen(key));
    fputs(": ", j->f);
    j->have_key = 1;
}

void cli_json_string_n(cli_json *j, const char *s, size_t n) {
    proper__cli_json_before_value(j);
    proper__cli_json_write_string(j->f, s, n);
    proper__cli_json_after_value(j);
}

void cli_json_string(cli_json *j, const char *s) {
    if (!s) cli_json_null(j);
    else cli_json_string_n(j, s, strlen(s));
}

void cli_json_number(cli_json *j, double v) {
    char buf[PROPER_DOUBLE_CHARS];
    if (v != v || v - v != 0.0) {
        cli_json_null(j);
        return;
    }
    proper__cli_json_before_value(j);
    fputs(proper_format_double(buf, v), j->f);
    proper__cli_json_after_value(j);
}

void cli_json_int(cli_json *j, long long v) {
    proper__cli_json_before_value(j);
    fprintf(j->f, "%lld", v);
    proper__cli_json_after_value(j);
}

void cli_json_uint(cli_json *j, unsigned long long v) {
    proper__cli_json_before_value(j);
    fprintf(j->f, "%llu", v);
    proper__cli_json_after_value(j);
}

void cli_json_bool(cli_json *j, int v) {
    proper__cli_json_before_value(j);
    fputs(v ? "true" : "false", j->f);
    proper__cli_json_after_value(j);
}

void cli_json_null(cli_json *j) {
    proper__cli_json_before_value(j);
    fputs("null", j->f);
    proper__cli_json_after_value(j);
}

void cli_json_key_string(cli_json *j, const char *key, const char *s) { cli_json_key(j, key); cli_json_string(j, s); }
void cli_json_key_number(cli_json *j, const char *key, double v) { cli_json_key(j, key); cli_json_number(j, v); }
void cli_json_key_int(cli_json *j, const char *key, long long v) { cli_json_key(j, key); cli_json_int(j, v); }
void cli_json_key_uint(cli_json *j, const char *key, unsigned long long v) { cli_json_key(j, key); cli_json_uint(j, v); }
void cli_json_key_bool(cli_json *j, const char *key, int v) { cli_json_key(j, key); cli_json_bool(j, v); }
void cli_json_key_null(cli_json *j, const char *key) { cli_json_key(j, key); cli_json_null(j); }

int cli_json_finish(const cli_json *j) { return j->depth == 0 && !j->have_key && !ferror(j->f) ? 0 : -1; }
