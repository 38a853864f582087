/* Fuzz target for the annotation log reader and the fit (annot.h): any input
 * either reads or fails with an error inside the input; a log that reads
 * writes to text that reads back to an equal log. Small tables are fitted
 * on their first column; the fit either fails cleanly or gives an annotation
 * that prints, parses back equal, and checks the same table without error.
 * Without PROPER_LIBFUZZER, main replays every file of directory argv[1]. */
#define PROPER_IMPLEMENTATION
#include "../../src/annot.h"

#include <stdlib.h>
#include <string.h>

/* Keep each input fast. */
#define FUZZ_MAX_RECORDS 300
#define FUZZ_MAX_COLUMNS 8

static void check_error(const proper_error *err, const uint8_t *data, size_t size) {
    size_t lines = 1, i;
    for (i = 0; i < size; i++) lines += data[i] == '\n';
    if (err->code == PROPER_ENOMEM) return;
    if (err->line < 1 || (size_t)err->line > lines || err->col < 1 || err->message[0] == '\0') abort();
}

static int same_log(const proper_annot_log *x, const proper_annot_log *y) {
    size_t i, k;
    if (x->n != y->n) return 0;
    for (i = 0; i < x->n; i++) {
        const proper_annot_table *a = &x->t[i], *b = &y->t[i];
        if (strcmp(a->name, b->name) || a->n != b->n || a->ncol != b->ncol || a->nbr != b->nbr) return 0;
        for (k = 0; k < a->ncol; k++)
            if (strcmp(a->cols[k], b->cols[k]) || a->is_metric[k] != b->is_metric[k]) return 0;
        for (k = 0; k < a->n * a->ncol; k++)
            if (a->v[k] != b->v[k]) return 0;
        if (a->nbr && memcmp(a->br, b->br, a->nbr)) return 0;
        for (k = 0; k <= a->n; k++)
            if (a->br_off[k] != b->br_off[k]) return 0;
    }
    return 1;
}

static void fit(const proper_annot_table *t) {
    proper_annot a, b;
    proper_annot_check c;
    proper_error err;
    proper_strbuf s;
    proper_annot_opts o = proper_annot_opts_default();
    if (t->n == 0 || t->ncol == 0 || t->n > FUZZ_MAX_RECORDS || t->ncol > FUZZ_MAX_COLUMNS) return;
    o.min_leaf = 5;
    proper_annot_init(&a);
    proper_annot_init(&b);
    proper_annot_check_init(&c);
    proper_strbuf_init(&s);
    if (proper_annot_fit(&a, t, t->cols[0], &o, &err) == PROPER_OK) {
        if (proper_annot_format(&a, &s, &err)) abort();
        if (proper_annot_parse(&b, s.data ? s.data : "", s.len, "fitted", &err)) abort();
        if (!proper_annot_equal(&a, &b)) abort();
        if (proper_annot_check_table(&c, &a, &a.fns[0], t, 0.05, 1, &err)) abort();
    } else if (err.code != PROPER_ENOMEM && err.code != PROPER_EINVAL) {
        abort();
    }
    proper_strbuf_free(&s);
    proper_annot_check_free(&c);
    proper_annot_free(&a);
    proper_annot_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    proper_annot_log L, M;
    proper_error err;
    proper_strbuf s;
    proper_annot_log_init(&L);
    proper_annot_log_init(&M);
    proper_strbuf_init(&s);
    if (proper_annot_log_parse(&L, (const char *)data, size, "fuzz", &err) == PROPER_OK) {
        if (proper_annot_log_format(&L, &s, &err)) abort();
        if (proper_annot_log_parse(&M, s.data, s.len, "written", &err)) abort();
        if (!same_log(&L, &M)) abort();
        if (L.n) fit(&L.t[0]);
    } else {
        check_error(&err, data, size);
    }
    proper_strbuf_free(&s);
    proper_annot_log_free(&L);
    proper_annot_log_free(&M);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_annot_log"
#include "replay.h"
