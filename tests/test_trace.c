/* Tests for trace.h: the reader on hand-written traces (every expected
 * number is counted by hand from the text in the test), malformed input with
 * file:line:col, write/parse round trips, and the recorder writing from
 * several threads read back by the reader. */
#define PROPER_IMPLEMENTATION
#include "../src/trace.h"
#include "test.h"

#include <pthread.h>

static int parse_text(proper_trace *t, const char *text, proper_error *err) {
    return proper_trace_parse(t, text, strlen(text), "t.trace", err);
}

/* Two requests and one run. Counted by hand:
 *   buildPath: 3 samples 100, 120.5, 90 (request 1, request 2, request 2)
 *   branch target: file x2 (requests 1, 2), dir x1 (request 2) -> 3 total
 *   loop probe: counts 5 (once), 0 (once) -> hist [1,0,0,0,0,1]
 *   request 1: T 1000, C 1500; request 2: T 2000, no C
 *   run 7: visits a b c a b (two V lines), counter calls 2 + 3 = 5 */
static const char *const sample =
    "proper-trace 1\n"
    "# a comment\n"
    "\n"
    "R 1\n"
    "S buildPath 100\n"
    "B target file\n"
    "L probe 5\n"
    "T 1000\n"
    "C 1.5e3\n"
    "E\n"
    "R 2\r\n"
    "  S buildPath 120.5  \r\n"
    "\tB target file\n"
    "B target dir\n"
    "# comment inside a record\n"
    "S buildPath 90\n"
    "L probe 0\n"
    "T 2000\n"
    "E\n"
    "R 7\n"
    "V a b c\n"
    "V a b\n"
    "N calls 2\n"
    "N calls 3\n"
    "E"; /* no final newline: end of input ends the line */

static void test_reader_counts(void) {
    proper_trace t;
    proper_error err;
    const proper_trace_step_stats *s;
    const proper_trace_branch_stats *b;
    const proper_trace_loop_stats *l;
    const proper_trace_record *r;
    long calls;
    proper_trace_init(&t);
    CHECK_INT(parse_text(&t, sample, &err), PROPER_OK);
    CHECK_INT(t.nrecords, 3);
    s = proper_trace_find_step(&t, "buildPath");
    CHECK(s != NULL);
    if (s) {
        CHECK_INT(s->n, 3);
        CHECK_ABS(s->ns[0], 100.0, 0.0);
        CHECK_ABS(s->ns[1], 120.5, 0.0);
        CHECK_ABS(s->ns[2], 90.0, 0.0);
    }
    CHECK(proper_trace_find_step(&t, "nothing") == NULL);
    b = proper_trace_find_branch(&t, "target");
    CHECK(b != NULL);
    if (b) {
        CHECK_INT(b->total, 3);
        CHECK_INT(b->nchoices, 2);
        CHECK_INT(proper_trace_branch_count(b, "file"), 2);
        CHECK_INT(proper_trace_branch_count(b, "dir"), 1);
        CHECK_INT(proper_trace_branch_count(b, "missing"), 0);
        CHECK_STR(b->choices[0], "file");
    }
    l = proper_trace_find_loop(&t, "probe");
    CHECK(l != NULL);
    if (l) {
        CHECK_INT(l->len, 6);
        CHECK_INT(l->total, 2);
        CHECK_INT(l->counts[0], 1);
        CHECK_INT(l->counts[3], 0);
        CHECK_INT(l->counts[5], 1);
    }
    r = proper_trace_find_record(&t, 1);
    CHECK(r != NULL);
    if (r) {
        CHECK_ABS(r->service_ns, 1000.0, 0.0);
        CHECK_ABS(r->client_ns, 1500.0, 0.0);
        CHECK_INT(r->nevents, 3);
        CHECK_INT(r->line, 4);
        CHECK_INT(r->events[1].kind, PROPER_TRACE_BRANCH);
        CHECK_INT(r->events[1].line, 6);
    }
    r = proper_trace_find_record(&t, 2);
    CHECK(r != NULL);
    if (r) {
        CHECK_ABS(r->service_ns, 2000.0, 0.0);
        CHECK(r->client_ns < 0.0);
        CHECK_INT(r->nevents, 5);
        CHECK_INT(r->events[2].kind, PROPER_TRACE_BRANCH);
        CHECK_STR(t.branches[r->events[2].name].choices[r->events[2].choice], "dir");
    }
    r = proper_trace_find_record(&t, 7);
    CHECK(r != NULL);
    CHECK(proper_trace_find_record(&t, 3) == NULL);
    if (r) {
        CHECK_INT(r->nvisits, 5);
        CHECK_INT(t.locations.n, 3);
        CHECK_STR(t.locations.names[r->visits[3]], "a");
        CHECK_STR(t.locations.names[r->visits[4]], "b");
        CHECK_INT(proper_trace_location_index(&t, "c"), 2);
        CHECK_INT(proper_trace_location_index(&t, "d"), -1);
        calls = proper_trace_counter_index(&t, "calls");
        CHECK_INT(calls, 0);
        if (calls >= 0) CHECK_ABS(proper_trace_record_counter(r, (size_t)calls), 5.0, 0.0);
        CHECK(r->service_ns < 0.0);
    }
    proper_trace_free(&t);
    CHECK_INT(t.nrecords, 0);
}

/* Records with the same id merge, across parses too (server + client). */
static int merge_text(proper_trace *t, const char *text, proper_error *err) {
    return proper_trace_parse_merge(t, text, strlen(text), "m.trace", err);
}

static void test_merge_by_id(void) {
    proper_trace t;
    proper_error err;
    const proper_trace_record *r;
    proper_trace_init(&t);
    CHECK_INT(merge_text(&t, "proper-trace 1\nR 5\nS a 10\nT 50\nE\nR 6\nS a 20\nE\n", &err), PROPER_OK);
    CHECK_INT(merge_text(&t, "proper-trace 1\nR 6\nC 99\nE\nR 5\nS a 30\nC 70\nE\n", &err), PROPER_OK);
    CHECK_INT(t.nrecords, 2);
    r = proper_trace_find_record(&t, 5);
    CHECK(r != NULL);
    if (r) {
        CHECK_INT(r->nevents, 2); /* S a 10, then S a 30 */
        CHECK_ABS(r->events[1].value, 30.0, 0.0);
        CHECK_ABS(r->service_ns, 50.0, 0.0);
        CHECK_ABS(r->client_ns, 70.0, 0.0);
    }
    r = proper_trace_find_record(&t, 6);
    if (r) CHECK_ABS(r->client_ns, 99.0, 0.0);
    /* a second T for request 5 is an error, at the R line of that record,
     * and the trace merged into is left as it was */
    CHECK_INT(merge_text(&t, "proper-trace 1\nR 9\nS a 1\nE\nR 5\nS a 7\nT 1\nE\n", &err), PROPER_EPARSE);
    CHECK_INT(err.line, 5);
    CHECK_STR(err.file, "m.trace");
    CHECK_CONTAINS(err.message, "request 5 has a T line");
    CHECK_INT(t.nrecords, 2);
    CHECK_INT(t.steps[0].n, 3);
    r = proper_trace_find_record(&t, 5);
    if (r) CHECK_ABS(r->service_ns, 50.0, 0.0);
    /* within one text a second T is reported at that T */
    CHECK_INT(merge_text(&t, "proper-trace 1\nR 8\nT 1\nT 2\nE\n", &err), PROPER_EPARSE);
    CHECK_INT(err.line, 4);
    CHECK_CONTAINS(err.message, "second T");
    CHECK_INT(t.nrecords, 2);
    proper_trace_free(&t);
}

/* proper_trace_parse replaces an earlier trace on success and leaves it on
 * failure (the project's output contract). */
static void test_parse_output_contract(void) {
    proper_trace t;
    proper_error err;
    proper_trace_init(&t);
    CHECK_INT(parse_text(&t, "proper-trace 1\nR 1\nS a 10\nE\nR 2\nS a 20\nE\n", &err), PROPER_OK);
    CHECK_INT(parse_text(&t, "proper-trace 1\nR 3\nS b 5\nE\nR 4\nS b -1\nE\n", &err), PROPER_ERANGE);
    CHECK_INT(err.line, 6);
    CHECK_INT(t.nrecords, 2);
    CHECK_INT(t.nsteps, 1);
    CHECK(proper_trace_find_step(&t, "a") != NULL && proper_trace_find_step(&t, "b") == NULL);
    CHECK_INT(parse_text(&t, "proper-trace 1\nR 1\nS b 5\nE\n", &err), PROPER_OK);
    CHECK_INT(t.nrecords, 1);
    CHECK(proper_trace_find_step(&t, "a") == NULL && proper_trace_find_step(&t, "b") != NULL);
    proper_trace_free(&t);
}

/* Many records: the id and name hash tables grow; ids near 2^64 work. */
static void test_many_records(void) {
    proper_trace t;
    proper_error err;
    char *text, *p;
    size_t i, n = 5000;
    int ok = 1;
    text = (char *)malloc(n * 64 + 64);
    CHECK(text != NULL);
    if (!text) return;
    p = text + sprintf(text, "proper-trace 1\n");
    for (i = 0; i < n; i++)
        p += sprintf(p, "R %lu\nS s%lu %lu\nV l%lu\nE\n", (unsigned long)(i * 7919), (unsigned long)(i % 300),
                     (unsigned long)i, (unsigned long)(i % 1000));
    p += sprintf(p, "R 18446744073709551615\nE\n");
    proper_trace_init(&t);
    CHECK_INT(proper_trace_parse(&t, text, (size_t)(p - text), NULL, &err), PROPER_OK);
    CHECK_INT(t.nrecords, n + 1);
    CHECK_INT(t.nsteps, 300);
    CHECK_INT(t.locations.n, 1000);
    for (i = 0; i < n; i++) {
        const proper_trace_record *r = proper_trace_find_record(&t, (uint64_t)i * 7919);
        if (!r || r->nevents != 1 || r->events[0].value != (double)i) ok = 0;
    }
    CHECK(ok);
    CHECK(proper_trace_find_record(&t, 18446744073709551615ULL) != NULL);
    /* step s7 got samples i = 7, 307, 607, ...: 5000/300 -> 17 samples (i%300==7, i<5000) */
    CHECK_INT(proper_trace_find_step(&t, "s7")->n, 17);
    proper_trace_free(&t);
    free(text);
}

/* Each malformed input gives this status at this line and column, and a
 * message containing this text. Positions counted by hand from the text. */
static void test_malformed(void) {
    static const struct {
        const char *text;
        int code, line, col;
        const char *msg;
    } cases[] = {
        {"", PROPER_EPARSE, 1, 1, "first line must be"},
        {"proper-trace\n", PROPER_EPARSE, 1, 13, "missing format version"},
        {"proper-traces 1\n", PROPER_EPARSE, 1, 1, "not a proper trace"},
        {"proper-trace 2\n", PROPER_EUNSUPPORTED, 1, 14, "version 2"},
        {"proper-trace 1 x\n", PROPER_EPARSE, 1, 16, "expected end of line"},
        {"proper-trace 1\nS a 1\n", PROPER_EPARSE, 2, 1, "outside a record"},
        {"proper-trace 1\nR 1\nE\nS a 1\n", PROPER_EPARSE, 4, 1, "outside a record"},
        {"proper-trace 1\nE\n", PROPER_EPARSE, 2, 1, "outside a record"},
        {"proper-trace 1\nR 1\nX a 1\nE\n", PROPER_EPARSE, 3, 1, "unknown record kind 'X'"},
        {"proper-trace 1\nR 1\nStep a 1\nE\n", PROPER_EPARSE, 3, 1, "unknown record kind 'Step'"},
        {"proper-trace 1\nR 1\nS a -5\nE\n", PROPER_ERANGE, 3, 5, "negative duration"},
        {"proper-trace 1\nR 1\nT -1\nE\n", PROPER_ERANGE, 3, 3, "negative duration"},
        {"proper-trace 1\nR 1\nS a 1.5x\nE\n", PROPER_EPARSE, 3, 8, "unexpected 'x'"},
        {"proper-trace 1\nR 1\nS a inf\nE\n", PROPER_EPARSE, 3, 5, "expected a duration"},
        {"proper-trace 1\nR 1\nS a\nE\n", PROPER_EPARSE, 3, 4, "missing duration"},
        {"proper-trace 1\nR 1\nS a 1 2\nE\n", PROPER_EPARSE, 3, 7, "expected end of line"},
        {"proper-trace 1\nR 1\nS a$b 1\nE\n", PROPER_EPARSE, 3, 4, "invalid character '$' in step name"},
        {"proper-trace 1\nR 1\nB t\nE\n", PROPER_EPARSE, 3, 4, "missing choice"},
        {"proper-trace 1\nR 1\nL p -1\nE\n", PROPER_ERANGE, 3, 5, "negative iteration count"},
        {"proper-trace 1\nR 1\nL p 1048577\nE\n", PROPER_ERANGE, 3, 5, "too large"},
        {"proper-trace 1\nR 1\nL p 2.5\nE\n", PROPER_EPARSE, 3, 6, "invalid character '.'"},
        {"proper-trace 1\nR x\nE\n", PROPER_EPARSE, 2, 3, "expected request id"},
        {"proper-trace 1\nR 18446744073709551616\nE\n", PROPER_ERANGE, 2, 3, "too large"},
        {"proper-trace 1\nR 1\nR 2\nE\n", PROPER_EPARSE, 3, 1, "R inside an open record"},
        {"proper-trace 1\nR 1\nS a 1\n", PROPER_EPARSE, 2, 1, "not closed"},
        {"proper-trace 1\nR 1\nT 5\nT 6\nE\n", PROPER_EPARSE, 4, 1, "second T"},
        {"proper-trace 1\nR 1\nC 5\nC 6\nE\n", PROPER_EPARSE, 4, 1, "second C"},
        {"proper-trace 1\nR 1\nE x\n", PROPER_EPARSE, 3, 3, "expected end of line"},
        {"proper-trace 1\nR 1\nV a ! b\nE\n", PROPER_EPARSE, 3, 5, "invalid character '!' in location"},
        {"proper-trace 1\nR 1\nS\ta\t1\nE\nR 2\nN c -3\nE\n", PROPER_ERANGE, 6, 5, "negative count"},
        /* 2^53 + 1: the first amount a double cannot hold exactly */
        {"proper-trace 1\nR 1\nN c 9007199254740993\nE\n", PROPER_ERANGE, 3, 5, "count too large"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        proper_trace t;
        proper_error err;
        int rc;
        proper_trace_init(&t);
        proper_error_clear(&err);
        rc = parse_text(&t, cases[i].text, &err);
        if (rc != cases[i].code || err.line != cases[i].line || err.col != cases[i].col ||
            !strstr(err.message, cases[i].msg) || strcmp(err.file, "t.trace") != 0) {
            char buf[800];
            printf("  case %lu: got %d %s, expected %d at %d:%d containing \"%s\"\n", (unsigned long)i, rc,
                   proper_error_format(&err, buf, sizeof buf), cases[i].code, cases[i].line, cases[i].col,
                   cases[i].msg);
            CHECK(0);
        }
        proper_trace_free(&t);
    }
}

/* Control bytes (a NUL kind, a byte 0x01 in a name) are errors named by
 * their code, never taken for a record kind. */
static void test_control_bytes(void) {
    static const char nul_kind[] = "proper-trace 1\nR 1\n\0 a b\nE\n";
    static const char ctl_name[] = "proper-trace 1\nR 1\nS a\001b 5\nE\n";
    proper_trace t;
    proper_error err;
    proper_trace_init(&t);
    CHECK_INT(proper_trace_parse(&t, nul_kind, sizeof nul_kind - 1, "t", &err), PROPER_EPARSE);
    CHECK_INT(err.line, 3);
    CHECK_INT(err.col, 1);
    CHECK_CONTAINS(err.message, "unknown record kind (byte 0x00 in it)");
    proper_trace_free(&t);
    CHECK_INT(proper_trace_parse(&t, ctl_name, sizeof ctl_name - 1, "t", &err), PROPER_EPARSE);
    CHECK_INT(err.line, 3);
    CHECK_INT(err.col, 4);
    CHECK_CONTAINS(err.message, "invalid character byte 0x01 in step name");
    proper_trace_free(&t);
}

/* A name longer than PROPER_TRACE_NAME_MAX is rejected; exactly the limit is fine. */
static void test_name_limit(void) {
    char text[700], name[300];
    proper_trace t;
    proper_error err;
    memset(name, 'n', 256);
    name[256] = '\0';
    sprintf(text, "proper-trace 1\nR 1\nS %s 1\nE\n", name);
    proper_trace_init(&t);
    CHECK_INT(parse_text(&t, text, &err), PROPER_ELIMIT);
    CHECK_INT(err.line, 3);
    proper_trace_free(&t);
    name[255] = '\0';
    sprintf(text, "proper-trace 1\nR 1\nS %s 1\nE\n", name);
    CHECK_INT(parse_text(&t, text, &err), PROPER_OK);
    CHECK(proper_trace_find_step(&t, name) != NULL);
    proper_trace_free(&t);
}

/* Read a FILE back into a string. */
static char *slurp(FILE *f, size_t *len) {
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    rewind(f);
    do {
        if (proper_reserve(&buf, &cap, n + 4096 + 1, 1)) break;
        got = fread(buf + n, 1, 4096, f);
        n += got;
    } while (got > 0);
    if (buf) buf[n] = '\0';
    *len = n;
    return buf;
}

/* Two traces are equal: same records, events, visits, names. */
static int traces_equal(const proper_trace *a, const proper_trace *b) {
    size_t i, j;
    if (a->nrecords != b->nrecords) return 0;
    for (i = 0; i < a->nrecords; i++) {
        const proper_trace_record *x = &a->records[i], *y = &b->records[i];
        if (x->id != y->id || x->nevents != y->nevents || x->nvisits != y->nvisits ||
            x->service_ns != y->service_ns || x->client_ns != y->client_ns)
            return 0;
        for (j = 0; j < x->nevents; j++) {
            const proper_trace_event *e = &x->events[j], *f = &y->events[j];
            if (e->kind != f->kind || e->value != f->value) return 0;
            switch (e->kind) {
            case PROPER_TRACE_STEP:
                if (strcmp(a->steps[e->name].name, b->steps[f->name].name)) return 0;
                break;
            case PROPER_TRACE_BRANCH:
                if (strcmp(a->branches[e->name].name, b->branches[f->name].name) ||
                    strcmp(a->branches[e->name].choices[e->choice], b->branches[f->name].choices[f->choice]))
                    return 0;
                break;
            case PROPER_TRACE_LOOP:
                if (strcmp(a->loops[e->name].name, b->loops[f->name].name)) return 0;
                break;
            default:
                if (strcmp(a->counters.names[e->name], b->counters.names[f->name])) return 0;
            }
        }
        for (j = 0; j < x->nvisits; j++)
            if (strcmp(a->locations.names[x->visits[j]], b->locations.names[y->visits[j]])) return 0;
    }
    return 1;
}

/* write -> parse gives an equal trace, including fractional durations,
 * runs longer than one V line and a multi-line comment. */
static void test_write_round_trip(void) {
    proper_trace t, u;
    proper_error err;
    FILE *f = tmpfile();
    char *text, *vs;
    size_t len, i;
    CHECK(f != NULL);
    if (!f) return;
    vs = (char *)malloc(100 * 8 + 64);
    strcpy(vs, "proper-trace 1\nR 3\nS x 0.1\nT 3.25\nV");
    for (i = 0; i < 100; i++) sprintf(vs + strlen(vs), " L%lu", (unsigned long)(i % 13));
    strcat(vs, "\nE\n");
    proper_trace_init(&t);
    proper_trace_init(&u);
    CHECK_INT(parse_text(&t, sample, &err), PROPER_OK);
    CHECK_INT(merge_text(&t, vs, &err), PROPER_OK);
    CHECK_INT(proper_trace_sort(&t, &err), PROPER_OK);
    CHECK_INT(t.records[0].id, 1);
    CHECK_INT(t.records[1].id, 2);
    CHECK_INT(t.records[2].id, 3);
    CHECK_INT(proper_trace_find_record(&t, 7)->nvisits, 5); /* the id table follows the sort */
    CHECK_INT(proper_trace_write(&t, f, "recorded by a test\nsecond line", &err), PROPER_OK);
    text = slurp(f, &len);
    CHECK_CONTAINS(text, "proper-trace 1\n# recorded by a test\n# second line\nR 1\n");
    CHECK_INT(parse_text(&u, text, &err), PROPER_OK);
    CHECK(traces_equal(&t, &u));
    CHECK_INT(proper_trace_find_record(&u, 3)->nvisits, 100);
    free(text);
    free(vs);
    fclose(f);
    proper_trace_free(&t);
    proper_trace_free(&u);
}

/* ---- recorder ---- */

#define THREADS 4
#define RECORDS_PER_THREAD 1500

typedef struct worker_arg {
    proper_trace_writer *w;
    int thread;
    int s_work, b_path, c_odd, c_even, l_spin, n_calls, v_loc[3];
    int rc;
} worker_arg;

/* Thread t writes records id = t*RECORDS_PER_THREAD + k with: S work = id,
 * B path odd/even by k, L spin k%4, N calls 2, V loc0 loc1 loc2 (k%3+1
 * visits), T = 2*id, C = 3*id. A small flush threshold forces many flushes
 * that interleave with the other threads'. */
static void *record_thread(void *p) {
    worker_arg *a = (worker_arg *)p;
    proper_trace_recorder rec;
    proper_error err;
    int k, v;
    a->rc = proper_trace_recorder_init(&rec, a->w, 64, &err);
    if (a->rc) return NULL;
    for (k = 0; k < RECORDS_PER_THREAD; k++) {
        uint64_t id = (uint64_t)a->thread * RECORDS_PER_THREAD + (uint64_t)k;
        proper_trace_begin(&rec, id);
        proper_trace_step(&rec, a->s_work, (int64_t)id);
        proper_trace_branch(&rec, a->b_path, k % 2 ? a->c_odd : a->c_even);
        proper_trace_loop(&rec, a->l_spin, k % 4);
        proper_trace_count(&rec, a->n_calls, 2);
        for (v = 0; v <= k % 3; v++) proper_trace_visit(&rec, a->v_loc[v]);
        proper_trace_service(&rec, (int64_t)(2 * id));
        proper_trace_client(&rec, (int64_t)(3 * id));
        proper_trace_end(&rec);
    }
    a->rc = proper_trace_recorder_free(&rec, &err);
    return NULL;
}

static void test_recorder_threads(void) {
    FILE *f = tmpfile();
    proper_trace_writer *w;
    proper_error err;
    pthread_t th[THREADS];
    worker_arg args[THREADS];
    proper_trace t;
    char *text;
    size_t len, id;
    int i, ok = 1;
    const proper_trace_branch_stats *b;
    const proper_trace_loop_stats *l;
    CHECK(f != NULL);
    if (!f) return;
    CHECK_INT(proper_trace_writer_open(&w, f, &err), PROPER_OK);
    CHECK_INT(proper_trace_writer_comment(w, "threads test", &err), PROPER_OK);
    for (i = 0; i < THREADS; i++) {
        args[i].w = w;
        args[i].thread = i;
        args[i].s_work = proper_trace_writer_name(w, "work", &err);
        args[i].b_path = proper_trace_writer_name(w, "path", &err);
        args[i].c_odd = proper_trace_writer_name(w, "odd", &err);
        args[i].c_even = proper_trace_writer_name(w, "even", &err);
        args[i].l_spin = proper_trace_writer_name(w, "spin", &err);
        args[i].n_calls = proper_trace_writer_name(w, "calls", &err);
        args[i].v_loc[0] = proper_trace_writer_name(w, "main.c:10", &err);
        args[i].v_loc[1] = proper_trace_writer_name(w, "main.c:11", &err);
        args[i].v_loc[2] = proper_trace_writer_name(w, "42", &err);
    }
    CHECK_INT(args[3].s_work, args[0].s_work); /* same text, same id */
    CHECK_INT(args[0].v_loc[2], 8);            /* ninth distinct name */
    for (i = 0; i < THREADS; i++) CHECK_INT(pthread_create(&th[i], NULL, record_thread, &args[i]), 0);
    for (i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
    for (i = 0; i < THREADS; i++) CHECK_INT(args[i].rc, PROPER_OK);
    CHECK_INT(proper_trace_writer_close(w, &err), PROPER_OK);
    text = slurp(f, &len);
    fclose(f);
    proper_trace_init(&t);
    CHECK_INT(proper_trace_parse(&t, text, len, "rec.trace", &err), PROPER_OK);
    CHECK_INT(t.nrecords, THREADS * RECORDS_PER_THREAD);
    for (id = 0; id < (size_t)THREADS * RECORDS_PER_THREAD; id++) {
        const proper_trace_record *r = proper_trace_find_record(&t, id);
        size_t k = id % RECORDS_PER_THREAD;
        if (!r || r->nevents != 4 || r->events[0].value != (double)id || r->service_ns != 2.0 * (double)id ||
            r->client_ns != 3.0 * (double)id || r->nvisits != k % 3 + 1 || r->events[2].value != (double)(k % 4) ||
            proper_trace_record_counter(r, 0) != 2.0) {
            ok = 0;
            break;
        }
    }
    CHECK(ok);
    CHECK_INT(proper_trace_find_step(&t, "work")->n, THREADS * RECORDS_PER_THREAD);
    b = proper_trace_find_branch(&t, "path");
    CHECK_INT(proper_trace_branch_count(b, "odd"), THREADS * RECORDS_PER_THREAD / 2);
    CHECK_INT(proper_trace_branch_count(b, "even"), THREADS * RECORDS_PER_THREAD / 2);
    l = proper_trace_find_loop(&t, "spin");
    CHECK_INT(l->len, 4);
    CHECK_INT(l->counts[3], THREADS * RECORDS_PER_THREAD / 4);
    CHECK_INT(t.locations.n, 3);
    proper_trace_free(&t);
    free(text);
}

/* Misuse is reported, sticks, and an open record is never written. */
static void test_recorder_misuse(void) {
    FILE *f = tmpfile();
    proper_trace_writer *w;
    proper_trace_recorder rec;
    proper_error err;
    proper_trace t;
    char *text;
    size_t len;
    int s;
    CHECK(f != NULL);
    if (!f) return;
    CHECK_INT(proper_trace_writer_open(&w, f, &err), PROPER_OK);
    CHECK_INT(proper_trace_writer_name(w, "bad name", &err), PROPER_EINVAL);
    CHECK_INT(proper_trace_writer_name(w, "", &err), PROPER_EINVAL);
    CHECK_INT(proper_trace_writer_comment(w, "two\nlines", &err), PROPER_EINVAL);
    s = proper_trace_writer_name(w, "s", &err);
    CHECK_INT(s, 0);

    /* a step outside a record */
    CHECK_INT(proper_trace_recorder_init(&rec, w, 0, &err), PROPER_OK);
    CHECK_INT(proper_trace_step(&rec, s, 5), PROPER_ESTATE);
    CHECK_INT(proper_trace_begin(&rec, 1), PROPER_ESTATE); /* sticky */
    CHECK_INT(proper_trace_recorder_free(&rec, &err), PROPER_ESTATE);
    CHECK_CONTAINS(err.message, "outside begin/end");

    /* a negative duration; an unregistered name id (found at flush) */
    CHECK_INT(proper_trace_recorder_init(&rec, w, 0, &err), PROPER_OK);
    CHECK_INT(proper_trace_begin(&rec, 1), PROPER_OK);
    CHECK_INT(proper_trace_step(&rec, s, -1), PROPER_EINVAL);
    CHECK_INT(proper_trace_recorder_free(&rec, &err), PROPER_EINVAL);
    CHECK_INT(proper_trace_recorder_init(&rec, w, 0, &err), PROPER_OK);
    CHECK_INT(proper_trace_begin(&rec, 2), PROPER_OK);
    CHECK_INT(proper_trace_step(&rec, 99, 1), PROPER_OK);
    CHECK_INT(proper_trace_end(&rec), PROPER_OK);
    CHECK_INT(proper_trace_recorder_flush(&rec, &err), PROPER_EINVAL);
    CHECK_INT(proper_trace_recorder_free(&rec, &err), PROPER_EINVAL);

    /* a good record, then one left open: only the first is written */
    CHECK_INT(proper_trace_recorder_init(&rec, w, 0, &err), PROPER_OK);
    CHECK_INT(proper_trace_begin(&rec, 3), PROPER_OK);
    CHECK_INT(proper_trace_step(&rec, s, 7), PROPER_OK);
    CHECK_INT(proper_trace_end(&rec), PROPER_OK);
    CHECK_INT(proper_trace_begin(&rec, 4), PROPER_OK);
    CHECK_INT(proper_trace_recorder_flush(&rec, &err), PROPER_OK); /* writes record 3 only */
    CHECK_INT(proper_trace_step(&rec, s, 8), PROPER_OK);
    CHECK_INT(proper_trace_recorder_free(&rec, &err), PROPER_ESTATE);
    CHECK_INT(proper_trace_writer_close(w, &err), PROPER_OK);

    text = slurp(f, &len);
    fclose(f);
    CHECK_STR(text, "proper-trace 1\nR 3\nS s 7\nE\n");
    proper_trace_init(&t);
    CHECK_INT(proper_trace_parse(&t, text, len, NULL, &err), PROPER_OK);
    CHECK_INT(t.nrecords, 1);
    proper_trace_free(&t);
    free(text);
}

/* The clock is monotonic and in nanoseconds: a 20 ms sleep reads 20 ms or
 * more and (on an idle-enough machine) well under a second. */
static void test_clock(void) {
    int64_t a = proper_trace_now(), b;
    struct timespec ts;
    ts.tv_sec = 0;
    ts.tv_nsec = 20000000;
    nanosleep(&ts, NULL);
    b = proper_trace_now();
    CHECK(b - a >= 20000000);
    CHECK(b - a < 1000000000);
}

/* Issue 14: a leading UTF-8 BOM is skipped; columns count from after it. */
static void test_bom_accepted(void) {
    static const char ok_text[] = "\xEF\xBB\xBFproper-trace 1\nR 1\nT 8000\nE\n";
    static const char bad[] = "\xEF\xBB\xBFproper-trace 1\nR 1\nT x\nE\n";
    proper_trace t;
    proper_error err;
    proper_trace_init(&t);
    CHECK_INT(proper_trace_parse(&t, ok_text, sizeof ok_text - 1, "b.trace", &err), 0);
    CHECK_INT(t.nrecords, 1);
    CHECK(proper_trace_parse(&t, bad, sizeof bad - 1, "b.trace", &err) != 0);
    CHECK_INT(err.line, 3);
    proper_trace_free(&t);
}

int main(void) {
    RUN(test_bom_accepted);
    RUN(test_reader_counts);
    RUN(test_merge_by_id);
    RUN(test_parse_output_contract);
    RUN(test_many_records);
    RUN(test_malformed);
    RUN(test_control_bytes);
    RUN(test_name_limit);
    RUN(test_write_round_trip);
    RUN(test_recorder_threads);
    RUN(test_recorder_misuse);
    RUN(test_clock);
    return test_summary();
}
