/* sqlite_bench.c — SQLite (the Debian library, nobody here wrote it) under
 * the annot recorder, in the setting of the paper's MySQL bug 94296 (§6.2)
 * and an INSERT batch workload (bug 92979's shape).
 *
 * Table t(c1, c2, c3) with an index on (c1, c2), ROWS rows. Recorded
 * functions (one scope each, metric time, plus heap/lock columns when run
 * under LD_PRELOAD=build/libproper-preload.so):
 *   query   features k (pairs in the condition), len (query text bytes);
 *           branch 1 taken for the row-value form
 *             (c1, c2) IN (VALUES (a1, b1), .., (ak, bk))
 *           and not taken for the equivalent disjunction
 *             (c1 = a1 AND c2 = b1) OR .. OR (c1 = ak AND c2 = bk);
 *           the scope covers prepare, step to the end, finalize.
 *   insert  features rows (1..500 per batch), one transaction per batch.
 * Usage: sqlite_bench LOG [REPS]   (default 6 repetitions per size) */
#define PROPER_IMPLEMENTATION
#include "../../src/annot.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 20000

static int exec(sqlite3 *db, const char *sql) {
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        fprintf(stderr, "sqlite_bench: %s: %s\n", sql, msg ? msg : "?");
        sqlite3_free(msg);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    proper_annot_writer *w;
    proper_annot_recorder r;
    proper_error err;
    proper_rng rng;
    sqlite3 *db;
    sqlite3_stmt *st;
    proper_strbuf q;
    int fq, fi, reps = argc > 2 ? atoi(argv[2]) : 6, rep, k, form, i;
    long next_id = ROWS;
    if (argc < 2) {
        fprintf(stderr, "usage: sqlite_bench LOG [REPS]\n");
        return 2;
    }
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) return 2;
    if (exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, c1 INT, c2 INT, c3 TEXT); CREATE INDEX t12 ON t(c1, c2);"))
        return 2;
    proper_rng_seed(&rng, 9);
    exec(db, "BEGIN");
    if (sqlite3_prepare_v2(db, "INSERT INTO t(id, c1, c2, c3) VALUES (?, ?, ?, 'some text of a row')", -1, &st, NULL))
        return 2;
    for (i = 0; i < ROWS; i++) {
        sqlite3_bind_int(st, 1, i);
        sqlite3_bind_int(st, 2, (int)proper_rng_below(&rng, 1000));
        sqlite3_bind_int(st, 3, (int)proper_rng_below(&rng, 1000));
        sqlite3_step(st);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    exec(db, "COMMIT");
    if (proper_annot_writer_open(&w, argv[1], 100000, PROPER_ANNOT_M_CPU, 1, &err) ||
        (fq = proper_annot_writer_function(w, "query", "k len", &err)) < 0 ||
        (fi = proper_annot_writer_function(w, "insert", "rows", &err)) < 0 || proper_annot_recorder_init(&r, w, &err)) {
        fprintf(stderr, "sqlite_bench: %s\n", err.message);
        return 2;
    }
    proper_strbuf_init(&q);
    for (rep = 0; rep < reps; rep++)
        for (k = 10; k <= 400; k += 10) /* SQLite: OR chains deeper than 1000 are refused */
            for (form = 0; form < 2; form++) {
                long count = 0;
                q.len = 0;
                proper_strbuf_puts(&q, "SELECT count(*) FROM t WHERE ");
                if (form) proper_strbuf_puts(&q, "(c1, c2) IN (VALUES ");
                for (i = 0; i < k; i++) {
                    int a = (int)proper_rng_below(&rng, 1000), b = (int)proper_rng_below(&rng, 1000);
                    if (form) proper_strbuf_printf(&q, "%s(%d, %d)", i ? ", " : "", a, b);
                    else proper_strbuf_printf(&q, "%s(c1 = %d AND c2 = %d)", i ? " OR " : "", a, b);
                }
                if (form) proper_strbuf_puts(&q, ")");
                proper_annot_begin(&r, fq);
                proper_annot_feature(&r, 0, k);
                proper_annot_feature(&r, 1, (double)q.len);
                proper_annot_branch(&r, 0, form);
                if (sqlite3_prepare_v2(db, q.data, (int)q.len, &st, NULL) != SQLITE_OK) {
                    fprintf(stderr, "sqlite_bench: %s\n", sqlite3_errmsg(db));
                    return 2;
                }
                while (sqlite3_step(st) == SQLITE_ROW) count += sqlite3_column_int(st, 0);
                sqlite3_finalize(st);
                proper_annot_end(&r);
                if (count < 0) return 3;
            }
    for (rep = 0; rep < reps * 10; rep++) {
        int rows = 1 + (int)proper_rng_below(&rng, 500);
        proper_annot_begin(&r, fi);
        proper_annot_feature(&r, 0, rows);
        exec(db, "BEGIN");
        sqlite3_prepare_v2(db, "INSERT INTO t(id, c1, c2, c3) VALUES (?, ?, ?, 'some text of a row')", -1, &st, NULL);
        for (i = 0; i < rows; i++) {
            sqlite3_bind_int64(st, 1, next_id++);
            sqlite3_bind_int(st, 2, (int)proper_rng_below(&rng, 1000));
            sqlite3_bind_int(st, 3, (int)proper_rng_below(&rng, 1000));
            sqlite3_step(st);
            sqlite3_reset(st);
        }
        sqlite3_finalize(st);
        exec(db, "COMMIT");
        proper_annot_end(&r);
    }
    proper_strbuf_free(&q);
    sqlite3_close(db);
    proper_annot_recorder_flush(&r, &err);
    proper_annot_recorder_free(&r);
    if (proper_annot_writer_close(w, &err)) {
        fprintf(stderr, "sqlite_bench: %s\n", err.message);
        return 2;
    }
    printf("sqlite %s\n", sqlite3_libversion());
    return 0;
}
