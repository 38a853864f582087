/* Tests for vlmc.h: counting, formats, ProgramToVLMC, the Markov hull,
 * steps to termination, sampling, mergeable counts, bad input. */
#define PROPER_IMPLEMENTATION
#include "../src/core.h"
#include "../src/trace.h"
#include "../src/stats.h"
#include "../src/dtmc.h"
#include "../src/vlmc.h"
#include "test.h"

#include <stdlib.h>

/* ---- helpers ---- */

/* Runs as id arrays, for the brute-force reference. */
typedef struct test_runs {
    uint32_t *sym;
    size_t *start, *len;
    size_t n, n_sym;
} test_runs;

static void test_runs_free(test_runs *r) {
    free(r->sym);
    free(r->start);
    free(r->len);
}

/* Random runs over `alphabet` locations: each step moves to a location that
 * depends on the last two (so contexts matter) and stops with prob 1/8. */
static void make_random_runs(test_runs *r, size_t n_runs, uint32_t alphabet, uint64_t seed) {
    proper_rng rng;
    size_t i, cap = n_runs * 64 + 64;
    proper_rng_seed(&rng, seed);
    r->sym = (uint32_t *)malloc(cap * sizeof *r->sym);
    r->start = (size_t *)malloc(n_runs * sizeof *r->start);
    r->len = (size_t *)malloc(n_runs * sizeof *r->len);
    r->n = n_runs;
    r->n_sym = 0;
    for (i = 0; i < n_runs; i++) {
        uint32_t a = 0, b = (uint32_t)proper_rng_below(&rng, alphabet);
        size_t m = 0;
        r->start[i] = r->n_sym;
        for (;;) {
            r->sym[r->n_sym++] = b;
            m++;
            if (m >= 60 || proper_rng_below(&rng, 8) == 0) break;
            {
                uint32_t c = (uint32_t)((a * 3 + b + proper_rng_below(&rng, 2)) % alphabet);
                a = b;
                b = c;
            }
        }
        r->len[i] = m;
    }
}

/* Brute force: N(w) and N(w x) by scanning every position of every run. */
static uint64_t brute_count(const test_runs *r, const uint32_t *ctx, size_t len, int anchored, uint64_t *next,
                            uint32_t alphabet) {
    size_t i, t;
    uint64_t total = 0;
    memset(next, 0, (alphabet + 1) * sizeof *next);
    for (i = 0; i < r->n; i++) {
        const uint32_t *s = r->sym + r->start[i];
        size_t m = r->len[i];
        /* history after t locations: ^ s[0] .. s[t-1]; predicts s[t] or $ */
        for (t = 0; t <= m; t++) {
            size_t k, ok = 1;
            if (len > t) continue;
            if (anchored && len != t) continue;
            for (k = 0; k < len && ok; k++)
                if (s[t - len + k] != ctx[k]) ok = 0;
            if (!ok) continue;
            total++;
            next[t < m ? s[t] : alphabet]++;
        }
    }
    return total;
}

static int load_runs(proper_vlmc_counts *c, const test_runs *r, const char *const *names) {
    size_t i, k;
    proper_error err;
    for (i = 0; i < r->n; i++) {
        const char *nm[64];
        for (k = 0; k < r->len[i]; k++) nm[k] = names[r->sym[r->start[i] + k]];
        if (proper_vlmc_counts_add_names(c, nm, r->len[i], 1, &err)) return 1;
    }
    return 0;
}

static const char *const test_names[] = {"a", "b", "c", "d", "e"};

/* ---- counting ---- */

/* Every context up to length 3 (and every ^-anchored one up to length 3):
 * the index's N(w) and N(w x) equal a brute-force scan of the runs. */
static void test_index_counts_match_brute_force(void) {
    test_runs r;
    proper_vlmc_counts c;
    proper_vlmc_index ix;
    proper_error err;
    uint32_t alphabet = 4, ctx[3], map[5];
    uint64_t nb[6], ni[6];
    size_t len, code, i, bad = 0, checked = 0;
    make_random_runs(&r, 300, alphabet, 7);
    proper_vlmc_counts_init(&c);
    CHECK(load_runs(&c, &r, test_names) == 0);
    CHECK(c.total_runs == 300);
    CHECK(c.n_runs < 300); /* duplicates were merged */
    CHECK_INT(proper_vlmc_index_build(&ix, &c, &err), 0);
    /* counts ids follow first appearance; map our alphabet ids to them */
    for (i = 0; i < alphabet; i++) {
        uint32_t id;
        CHECK_INT(proper_vlmc_counts_location(&c, test_names[i], 1, &id, &err), 0);
        map[i] = id;
    }
    for (len = 0; len <= 3; len++) {
        size_t combos = 1;
        for (i = 0; i < len; i++) combos *= alphabet;
        for (code = 0; code < combos; code++) {
            int anchored;
            size_t x = code;
            uint32_t cids[3];
            for (i = 0; i < len; i++) { ctx[i] = (uint32_t)(x % alphabet); x /= alphabet; cids[i] = map[ctx[i]]; }
            for (anchored = 0; anchored <= 1; anchored++) {
                uint64_t n1, n2;
                n1 = brute_count(&r, ctx, len, anchored, nb, alphabet);
                CHECK_INT(proper_vlmc_index_count(&ix, cids, len, anchored, &n2, ni, &err), 0);
                checked++;
                if (n1 != n2) bad++;
                for (i = 0; i < alphabet; i++)
                    if (nb[i] != ni[map[i]]) bad++;
                if (nb[alphabet] != ni[alphabet]) bad++;
            }
        }
    }
    CHECK_INT(bad, 0);
    CHECK(checked == 2 * (1 + 4 + 16 + 64));
    proper_vlmc_index_free(&ix);
    proper_vlmc_counts_free(&c);
    test_runs_free(&r);
}

/* Runs text: comments, CRLF, repeated runs with other spacing; the counts
 * file round-trips to the same multiset. */
static void test_runs_text_and_counts_file(void) {
    const char *text = "# two runs of a loop\n"
                       "s h b h x\r\n"
                       "s  h   b h x\n"
                       "s h x\n"
                       "   # indented comment\n"
                       "s h b h x";
    proper_vlmc_counts c, d;
    proper_error err;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    proper_vlmc_counts_init(&c);
    proper_vlmc_counts_init(&d);
    CHECK_INT(proper_vlmc_counts_parse_runs(&c, text, strlen(text), "t.runs", &err), 0);
    CHECK_INT(c.total_runs, 4);
    CHECK_INT(c.n_runs, 2);
    CHECK_INT(c.total_steps, 5 * 3 + 3);
    CHECK_INT(c.n_names, 4);
    f = tmpfile();
    CHECK(f != NULL);
    if (f) {
        long sz;
        CHECK_INT(proper_vlmc_counts_write(&c, f, &err), 0);
        sz = ftell(f);
        rewind(f);
        buf = (char *)malloc((size_t)sz + 1);
        len = fread(buf, 1, (size_t)sz, f);
        buf[len] = '\0';
        fclose(f);
        /* names sorted: b h s x -> ids 0..3; runs sorted: "s h b h x" = 2 1 0 1 3 before "s h x" = 2 1 3 */
        CHECK_CONTAINS(buf, "location b\nlocation h\nlocation s\nlocation x\nrun 3 2 1 0 1 3\nrun 1 2 1 3\n");
        CHECK_INT(proper_vlmc_counts_parse_counts(&d, buf, len, "t.counts", &err), 0);
        CHECK_INT(d.total_runs, 4);
        CHECK_INT(d.n_runs, 2);
        CHECK_INT(d.total_steps, 18);
        free(buf);
    }
    proper_vlmc_counts_free(&c);
    proper_vlmc_counts_free(&d);
}

static void test_bad_runs_input(void) {
    proper_vlmc_counts c;
    proper_error err;
    proper_vlmc_counts_init(&c);
    /* an empty run (blank line) names its line */
    CHECK_INT(proper_vlmc_counts_parse_runs(&c, "a b\n\nc\n", 7, "r.txt", &err), PROPER_EPARSE);
    CHECK_INT(err.line, 2);
    CHECK_CONTAINS(err.message, "run 2 is empty");
    CHECK_STR(err.file, "r.txt");
    /* reserved names */
    CHECK_INT(proper_vlmc_counts_parse_runs(&c, "a ^ b\n", 6, "r.txt", &err), PROPER_EPARSE);
    CHECK_INT(err.col, 3);
    CHECK_CONTAINS(err.message, "reserved");
    /* counts files */
    CHECK_INT(proper_vlmc_counts_parse_counts(&c, "proper-vlmc-counts 2\n", 21, "c", &err), PROPER_EPARSE);
    CHECK_INT(proper_vlmc_counts_parse_counts(&c, "proper-vlmc-counts 1\nlocation a\nrun 0 0\n", 39, "c", &err),
              PROPER_EPARSE);
    CHECK_CONTAINS(err.message, "multiplicity");
    CHECK_INT(proper_vlmc_counts_parse_counts(&c, "proper-vlmc-counts 1\nlocation a\nrun 2 1\n", 39, "c", &err),
              PROPER_EPARSE);
    CHECK_INT(err.line, 3);
    CHECK_INT(err.col, 7);
    CHECK_INT(proper_vlmc_counts_parse_counts(&c, "proper-vlmc-counts 1\nlocation a\nrun 2\n", 37, "c", &err),
              PROPER_EPARSE);
    CHECK_CONTAINS(err.message, "empty");
    proper_vlmc_counts_free(&c);
}

int main(void) {
    RUN(test_index_counts_match_brute_force);
    RUN(test_runs_text_and_counts_file);
    RUN(test_bad_runs_input);
    return test_summary();
}
