/* Fuzz target for the annotation log reader, the fit and the sufficient
 * statistics (annot.h): any input either reads or fails with an error
 * inside the input; a log that reads writes to text that reads back to an
 * equal log. Small tables are fitted on their first column; the fit either
 * fails cleanly or gives an annotation that prints, parses back equal, and
 * checks the same table without error. Their statistics, counted whole and
 * as two halves merged, print the same bytes, read back to the same bytes
 * and fit (or fail) cleanly. An input that starts with the statistics
 * header is read as statistics: what reads prints, reads back and prints
 * the same bytes, merges with itself and fits or fails cleanly.
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

/* A fit from statistics fails cleanly or prints an annotation that parses
 * back equal. */
static void fit_stats(const proper_annot_stats *S) {
    size_t i;
    for (i = 0; i < S->n; i++) {
        proper_annot a, b;
        proper_error err;
        proper_strbuf t;
        proper_annot_init(&a);
        proper_annot_init(&b);
        proper_strbuf_init(&t);
        if (proper_annot_stats_fit(&a, S, i, NULL, &err) == PROPER_OK) {
            if (proper_annot_format(&a, &t, &err)) abort();
            if (proper_annot_parse(&b, t.data ? t.data : "", t.len, "fitted", &err)) abort();
            if (!proper_annot_equal(&a, &b)) abort();
        } else if (err.code != PROPER_ENOMEM && err.code != PROPER_ERANGE) {
            abort();
        }
        proper_strbuf_free(&t);
        proper_annot_free(&a);
        proper_annot_free(&b);
    }
}

/* Print S, read it back, print again: the same bytes. */
static void stats_round_trip(const proper_annot_stats *S) {
    proper_annot_stats R;
    proper_strbuf t1, t2;
    proper_error err;
    proper_annot_stats_init(&R);
    proper_strbuf_init(&t1);
    proper_strbuf_init(&t2);
    if (proper_annot_stats_format(S, &t1, &err)) abort();
    if (proper_annot_stats_parse(&R, t1.data, t1.len, "printed", &err)) abort();
    if (proper_annot_stats_format(&R, &t2, &err)) abort();
    if (t1.len != t2.len || memcmp(t1.data, t2.data, t1.len)) abort();
    proper_annot_stats_free(&R);
    proper_strbuf_free(&t1);
    proper_strbuf_free(&t2);
}

/* Statistics of t's metric (its first column) whole and from two halves
 * merged: the same bytes. */
static void stats_of_table(const proper_annot_table *t) {
    proper_annot_stats W, A, B;
    proper_annot_table h = *t;
    proper_error err;
    size_t half = t->n / 2;
    int rw, ra, rb = PROPER_OK;
    if (t->n == 0 || t->ncol == 0 || t->n > FUZZ_MAX_RECORDS || t->ncol > FUZZ_MAX_COLUMNS) return;
    proper_annot_stats_init(&W);
    proper_annot_stats_init(&A);
    proper_annot_stats_init(&B);
    rw = proper_annot_stats_add(&W, t, t->cols[0], &err);
    if (rw != PROPER_OK && rw != PROPER_ERANGE && rw != PROPER_ELIMIT && rw != PROPER_EINVAL && rw != PROPER_ENOMEM) abort();
    h.n = half;
    ra = half ? proper_annot_stats_add(&A, &h, t->cols[0], &err) : PROPER_OK;
    h.n = t->n - half;
    h.v = t->v + half * t->ncol;
    rb = proper_annot_stats_add(&B, &h, t->cols[0], &err);
    if (rw == PROPER_OK && ra == PROPER_OK && rb == PROPER_OK) {
        proper_strbuf tw, tm;
        proper_strbuf_init(&tw);
        proper_strbuf_init(&tm);
        if (proper_annot_stats_merge(&B, &A, &err)) abort();
        if (proper_annot_stats_format(&W, &tw, &err) || proper_annot_stats_format(&B, &tm, &err)) abort();
        if (tw.len != tm.len || memcmp(tw.data, tm.data, tw.len)) abort();
        proper_strbuf_free(&tw);
        proper_strbuf_free(&tm);
        stats_round_trip(&W);
        fit_stats(&W);
    }
    proper_annot_stats_free(&W);
    proper_annot_stats_free(&A);
    proper_annot_stats_free(&B);
}

static void stats_input(const uint8_t *data, size_t size) {
    proper_annot_stats S, D;
    proper_error err;
    proper_annot_stats_init(&S);
    proper_annot_stats_init(&D);
    if (proper_annot_stats_parse(&S, (const char *)data, size, "fuzz", &err) == PROPER_OK) {
        int rc;
        stats_round_trip(&S);
        fit_stats(&S);
        /* S + S: fits or overflows cleanly */
        if (proper_annot_stats_merge(&D, &S, &err)) abort();
        rc = proper_annot_stats_merge(&D, &S, &err);
        if (rc != PROPER_OK && rc != PROPER_ERANGE && rc != PROPER_ELIMIT) abort();
    } else {
        check_error(&err, data, size);
    }
    proper_annot_stats_free(&S);
    proper_annot_stats_free(&D);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    proper_annot_log L, M;
    proper_error err;
    proper_strbuf s;
    static const char stats_magic[] = "proper-annot-stats 1";
    if (size >= sizeof stats_magic - 1 && !memcmp(data, stats_magic, sizeof stats_magic - 1)) {
        stats_input(data, size);
        return 0;
    }
    proper_annot_log_init(&L);
    proper_annot_log_init(&M);
    proper_strbuf_init(&s);
    if (proper_annot_log_parse(&L, (const char *)data, size, "fuzz", &err) == PROPER_OK) {
        if (proper_annot_log_format(&L, &s, &err)) abort();
        if (proper_annot_log_parse(&M, s.data, s.len, "written", &err)) abort();
        if (!same_log(&L, &M)) abort();
        if (L.n) fit(&L.t[0]);
        if (L.n) stats_of_table(&L.t[0]);
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
