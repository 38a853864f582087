/* Tests for vlmc.h: counting, formats, ProgramToVLMC, the Markov hull,
 * steps to termination, sampling, mergeable counts, bad input. */
#define PROPER_IMPLEMENTATION
/* low enough for test_hull_work_capped (one run of 20000 steps walks
 * ~2 * 10^8 context symbols), far above every other test's PST */
#define PROPER_VLMC_MAX_HULL_WORK 5e7
#include "../src/core.h"
#include "../src/trace.h"
#include "../src/stats.h"
#include "../src/dtmc.h"
#include "../src/vlmc.h"
#include "test.h"
#include "../examples/vlmc/unrolled.h"

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
    proper_vlmc_index_init(&ix);
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
    CHECK_INT(c.locations.len, 4);
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


/* ---- fitting ---- */

static int fit_text(proper_vlmc *m, const char *text, const proper_vlmc_opts *o, proper_vlmc_counts *keep) {
    proper_vlmc_counts c;
    proper_error err;
    int rc;
    proper_vlmc_counts_init(&c);
    rc = proper_vlmc_counts_parse_runs(&c, text, strlen(text), "t", &err);
    if (rc == PROPER_OK) rc = proper_vlmc_fit(m, &c, NULL, o, &err);
    if (rc) printf("  fit: %s\n", err.message);
    if (keep && rc == PROPER_OK) *keep = c;
    else proper_vlmc_counts_free(&c);
    return rc;
}

/* The PST node with the given context text, or NONE. */
static uint32_t find_context(const proper_vlmc *m, const char *ctx) {
    size_t i;
    char buf[512];
    for (i = 0; i < m->n_nodes; i++)
        if (proper_vlmc_context_string(m, (uint32_t)i, buf, sizeof buf) == 0 && strcmp(buf, ctx) == 0) return (uint32_t)i;
    return PROPER_VLMC_NONE;
}

static uint32_t loc_id(const proper_vlmc *m, const char *name) {
    size_t i;
    for (i = 0; i < m->n_loc; i++)
        if (strcmp(m->names[i], name) == 0) return (uint32_t)i;
    return PROPER_VLMC_NONE;
}

/* Hand-computed context-algorithm statistics. Runs: p x y (6), p x z (2),
 * q x y (1), q x z (3). At x: N(x) = 12 with y 7, z 5; N(p x) = 8 with
 * y 6, z 2; N(q x) = 4 with y 1, z 3.
 *   Δ(p x) = 6 ln((6/8)/(7/12)) + 2 ln((2/8)/(5/12)) = 0.486234...
 *   Δ(q x) = 1 ln((1/4)/(7/12)) + 3 ln((3/4)/(5/12)) = 0.916062...
 * x has 2 successors, so K = χ²_1(1 − α)/2: α = 0.5 gives K = 0.2275 (both
 * kept), α = 0.25 gives K = 0.6617 (p x pruned, q x kept), α = 0.1 gives
 * K = 1.3528 (both pruned). */
static void test_pruning_hand_computed(void) {
    const char *text = "p x y\np x y\np x y\np x y\np x y\np x y\np x z\np x z\nq x y\nq x z\nq x z\nq x z\n";
    double dp = 6 * log((6.0 / 8) / (7.0 / 12)) + 2 * log((2.0 / 8) / (5.0 / 12));
    double dq = 1 * log((1.0 / 4) / (7.0 / 12)) + 3 * log((3.0 / 4) / (5.0 / 12));
    proper_vlmc m;
    proper_vlmc_init(&m);
    proper_vlmc_opts o;
    uint32_t u;
    o = proper_vlmc_opts_default();
    o.alpha = 0.5;
    CHECK_INT(fit_text(&m, text, &o, NULL), 0);
    CHECK(find_context(&m, "p x") != PROPER_VLMC_NONE);
    u = find_context(&m, "q x");
    CHECK(u != PROPER_VLMC_NONE);
    if (u != PROPER_VLMC_NONE) CHECK_REL(m.nodes[u].delta, dq, 1e-12);
    u = find_context(&m, "p x");
    if (u != PROPER_VLMC_NONE) CHECK_REL(m.nodes[u].delta, dp, 1e-12);
    CHECK(find_context(&m, "^ p x") == PROPER_VLMC_NONE); /* same positions as "p x": Δ = 0 */
    proper_vlmc_free(&m);

    o.alpha = 0.25;
    CHECK_INT(fit_text(&m, text, &o, NULL), 0);
    CHECK(find_context(&m, "p x") == PROPER_VLMC_NONE);
    CHECK(find_context(&m, "q x") != PROPER_VLMC_NONE);
    CHECK_REL(m.cutoff[1 + loc_id(&m, "x")], 0.5 * 1.3233036969314664, 1e-9); /* χ²_1(0.75) */
    /* log-likelihood: ^ -> p (8/12) or q (4/12); at x, "q x" predicts its 4
     * positions, "x" the 8 of "p x"; everything else is certain */
    CHECK_REL(m.loglik,
              8 * log(8.0 / 12) + 4 * log(4.0 / 12) + 1 * log(1.0 / 4) + 3 * log(3.0 / 4) + 6 * log(7.0 / 12) +
                  2 * log(5.0 / 12),
              1e-12);
    CHECK_INT(m.order, 2);
    CHECK_INT(m.n_contexts, 7); /* ^ p q x y z and q x */
    proper_vlmc_free(&m);

    o.alpha = 0.1;
    CHECK_INT(fit_text(&m, text, &o, NULL), 0);
    CHECK(find_context(&m, "p x") == PROPER_VLMC_NONE);
    CHECK(find_context(&m, "q x") == PROPER_VLMC_NONE);
    CHECK_INT(m.order, 1);
    proper_vlmc_free(&m);
}

/* ---- single-sequence mode against R's VLMC package ----
 * Expected trees printed by R 4.2.2 with VLMC 1.4-4 (CRAN), installed from
 * its sources: for x the sequence below as a character vector,
 *     library(VLMC); draw(vlmc(x)); draw(vlmc(x, cutoff.prune = 1, threshold.gen = 3))
 * and for "a b a a b c a b a b b a c a a b a b c"
 *     draw(vlmc(y, cutoff.prune = 0.5, threshold.gen = 2))
 * transcribed in preorder as "context (oldest first): counts of the next
 * symbol a,b,c,d". R prints the root's counts after removing the first
 * symbol (which has no context); its tree was grown and pruned with it, so
 * the root below has one more count for the first symbol than R shows. */
static const char test_r_seq[] =
    "abcdcdcdcdbbaacadcbbcaaaaacdcaacaacdcdbacabcbbaacdcbbacdbacdadbaaacdbabbcddabcddcdcadbcddcddcdacddcb"
    "bcaaacdabbacdacddcdcbbcdbcdbbcadcdcacbbcdbbcadcbddcdcbaacacdcdcbdbacbcbacadbdaaacbaacdcdbdbaaaaacddc"
    "bdbcddcdadcdadbcddcdcddcdacdbcddacddcddacabcbbcbdcdcddcbadbdbabbcdaacdbbaacdcdcdcdabcddcbabcdcabbadb";

static const char test_r_default[] =
    ".:68,62,84,86\n"
    "a:22,10,26,10\n"
    "a a:9,0,13,0\n"
    "b:18,15,21,7\n"
    "a b:0,4,6,0\n"
    "b b:6,0,9,0\n"
    "c b:5,7,1,4\n"
    "c:14,17,0,53\n"
    "d:13,20,37,16\n"
    "a d:0,6,4,0\n"
    "d d:3,0,13,0\n";

static const char test_r_cutoff1[] =
    ".:68,62,84,86\n"
    "a:22,10,26,10\n"
    "a a:9,0,13,0\n"
    "b a a:2,0,5,0\n"
    "b b a a:0,0,3,0\n"
    "b a:7,3,6,2\n"
    "b b a:3,0,2,1\n"
    "d b a:2,2,3,0\n"
    "c d b a:0,1,2,0\n"
    "c a:4,3,2,5\n"
    "a c a:1,2,1,2\n"
    "a a c a:1,0,1,1\n"
    "b c a:2,0,0,2\n"
    "d a:2,3,5,3\n"
    "d d a:0,1,2,0\n"
    "b:18,15,21,7\n"
    "a b:0,4,6,0\n"
    "b b:6,0,9,0\n"
    "c b:5,7,1,4\n"
    "a c b:1,1,1,0\n"
    "d b:7,4,5,3\n"
    "a d b:1,0,2,2\n"
    "b d b:3,0,1,0\n"
    "c d b:3,4,2,1\n"
    "b c d b:0,2,1,0\n"
    "d c d b:1,1,0,1\n"
    "c:14,17,0,53\n"
    "a c:6,3,0,17\n"
    "a a c:3,1,0,9\n"
    "a a a c:0,1,0,4\n"
    "b c:4,4,0,13\n"
    "a b c:0,2,0,4\n"
    "b b c:4,1,0,4\n"
    "d b c:0,0,0,5\n"
    "d c:4,10,0,23\n"
    "c d c:4,4,0,11\n"
    "d c d c:2,3,0,6\n"
    "c d c d c:0,1,0,4\n"
    "d d c:0,4,0,9\n"
    "d:13,20,37,16\n"
    "a d:0,6,4,0\n"
    "b d:1,4,1,1\n"
    "d b d:1,2,0,0\n"
    "c d:9,10,19,15\n"
    "a c d:3,4,6,4\n"
    "a a c d:1,2,5,1\n"
    "b a a c d:0,0,3,0\n"
    "b a c d:2,1,0,0\n"
    "d a c d:0,1,0,3\n"
    "b c d:1,3,2,7\n"
    "a b c d:0,0,2,2\n"
    "b b c d:1,2,0,1\n"
    "d b c d:0,1,0,4\n"
    "d c d:5,3,11,4\n"
    "c d c d:1,3,5,2\n"
    "a c d c d:0,2,2,0\n"
    "d c d c d:1,1,2,2\n"
    "c d c d c d:1,1,2,0\n"
    "d d c d:3,0,4,2\n"
    "d d:3,0,13,0\n";

static const char test_r_short[] =
    ".:9,7,3\n"
    "a:2,6,1\n"
    "a a:0,2,0\n"
    "b a:1,2,1\n"
    "a b a:1,2,0\n"
    "c a:1,1,0\n"
    "b:4,1,2\n"
    "a b:3,1,2\n"
    "b a b:0,1,1\n"
    "c:2,0,0\n";

/* The tree as "context:counts of each symbol" lines in preorder (the root's
 * context is "."). */
static char *tree_lines(const proper_vlmc *m) {
    size_t i, cap = 64 * (m->n_nodes + 1), k = 0;
    char *out = (char *)malloc(cap), ctx[512];
    out[0] = '\0';
    for (i = 0; i < m->n_nodes; i++) {
        uint32_t x;
        proper_vlmc_context_string(m, (uint32_t)i, ctx, sizeof ctx);
        k += (size_t)snprintf(out + k, cap - k, "%s:", m->nodes[i].depth ? ctx : ".");
        for (x = 0; x < m->n_loc; x++)
            k += (size_t)snprintf(out + k, cap - k, "%s%.0f", x ? "," : "",
                                  proper_vlmc_prob(m, (uint32_t)i, x) * (double)m->nodes[i].count);
        k += (size_t)snprintf(out + k, cap - k, "\n");
    }
    return out;
}

/* One line of space-separated symbols from a string of one-letter symbols. */
static char *spaced(const char *letters) {
    size_t n = strlen(letters), i;
    char *out = (char *)malloc(2 * n + 2);
    for (i = 0; i < n; i++) {
        out[2 * i] = letters[i];
        out[2 * i + 1] = ' ';
    }
    out[2 * n] = '\n';
    out[2 * n + 1] = '\0';
    return out;
}

static void check_single_tree(const char *letters, double alpha, double cutoff, uint64_t n_min, const char *want) {
    proper_vlmc m;
    proper_vlmc_opts o = proper_vlmc_opts_default();
    char *text = spaced(letters), *got;
    proper_vlmc_init(&m);
    o.single = 1;
    o.alpha = alpha;
    o.cutoff = cutoff;
    o.n_min = n_min;
    CHECK_INT(fit_text(&m, text, &o, NULL), 0);
    got = tree_lines(&m);
    CHECK_STR(got, want);
    free(got);
    free(text);
    proper_vlmc_free(&m);
}

static void test_single_sequence_equals_r(void) {
    proper_vlmc m;
    proper_vlmc_opts o = proper_vlmc_opts_default();
    proper_error err;
    char *text = spaced(test_r_seq);
    /* R's defaults: alpha.c = 0.05 (K = qchisq(0.95, 3)/2), threshold.gen = 2 */
    check_single_tree(test_r_seq, 0.05, -1.0, 2, test_r_default);
    check_single_tree(test_r_seq, 1.0, 1.0, 3, test_r_cutoff1);
    check_single_tree("abaabcababbacaababc", 1.0, 0.5, 2, test_r_short);
    proper_vlmc_init(&m);
    o.single = 1;
    o.alpha = 0.05;
    o.n_min = 2;
    CHECK_INT(fit_text(&m, text, &o, NULL), 0);
    CHECK_REL(m.cutoff[1], 7.8147279032511801 / 2, 1e-9); /* R: qchisq(0.05, 3, lower.tail = FALSE) */
    CHECK_INT(m.order, 2);                                  /* R: ord.MC 2 */
    /* a sequence has no end: no hull; and it is one run */
    CHECK_INT(proper_vlmc_hull(&m, 0, &err), PROPER_EINVAL);
    proper_vlmc_free(&m);
    CHECK_INT(fit_text(&m, "a b\na b\n", &o, NULL), PROPER_EINVAL);
    o.general = 1;
    CHECK_INT(fit_text(&m, "a b a\n", &o, NULL), PROPER_EINVAL);
    free(text);
}

/* The cutoff given directly, and with the alphabet's degrees of freedom
 * (L = 5 locations p q x y z: χ²_4(0.75) = 5.3852690577793911, R's
 * qchisq(0.75, 4)); pruning follows K as the α test does. */
static void test_cutoff_choices(void) {
    const char *text = "p x y\np x y\np x y\np x y\np x y\np x y\np x z\np x z\nq x y\nq x z\nq x z\nq x z\n";
    double dq = 1 * log((1.0 / 4) / (7.0 / 12)) + 3 * log((3.0 / 4) / (5.0 / 12));
    proper_vlmc m;
    proper_vlmc_opts o = proper_vlmc_opts_default();
    proper_vlmc_init(&m);
    o.cutoff_df = PROPER_VLMC_DF_ALPHABET;
    o.alpha = 0.25;
    CHECK_INT(fit_text(&m, text, &o, NULL), 0);
    CHECK_REL(m.cutoff[1 + loc_id(&m, "x")], 5.3852690577793911 / 2, 1e-9);
    CHECK(find_context(&m, "q x") == PROPER_VLMC_NONE); /* Δ(q x) = 0.85 < 2.69 */
    proper_vlmc_free(&m);
    o = proper_vlmc_opts_default();
    o.cutoff = dq * 0.999;
    CHECK_INT(fit_text(&m, text, &o, NULL), 0);
    CHECK(find_context(&m, "q x") != PROPER_VLMC_NONE);
    proper_vlmc_free(&m);
    o.cutoff = dq * 1.001;
    CHECK_INT(fit_text(&m, text, &o, NULL), 0);
    CHECK(find_context(&m, "q x") == PROPER_VLMC_NONE);
    proper_vlmc_free(&m);
    o.cutoff = INFINITY;
    CHECK_INT(fit_text(&m, text, &o, NULL), PROPER_EINVAL);
    o.cutoff = -1.0;
    o.cutoff_df = 7;
    CHECK_INT(fit_text(&m, text, &o, NULL), PROPER_EINVAL);
}

/* A loop that always runs I times: the full model (α = 1) remembers the
 * count, so the steps PMF is a point mass at 2I + 3 (s, h, I times b h, x).
 * A first-order chain (max_order 1) sees h -> b with p = I/(I+1): steps
 * 3 + 2k with probability (1 - p) p^k (geometric closed form). */
static void test_fixed_loop_steps(void) {
    const int I = 4;
    char text[256];
    proper_vlmc m;
    proper_vlmc_init(&m);
    proper_vlmc_opts o;
    proper_error err;
    double *pmf, tail, p = (double)I / (I + 1);
    size_t len, k;
    int r;
    text[0] = '\0';
    for (r = 0; r < 5; r++) {
        int i;
        strcat(text, "s h");
        for (i = 0; i < I; i++) strcat(text, " b h");
        strcat(text, " x\n");
    }
    o = proper_vlmc_opts_default();
    CHECK_INT(fit_text(&m, text, &o, NULL), 0);
    CHECK_INT(proper_vlmc_hull(&m, 0, &err), 0);
    CHECK_INT(proper_vlmc_steps_pmf(&m, 0, 0, 0, &pmf, &len, &tail, &err), 0);
    CHECK_INT(len, 2 * I + 4);
    for (k = 0; k < len; k++) CHECK_ABS(pmf[k], k == (size_t)(2 * I + 3) ? 1.0 : 0.0, 1e-15);
    CHECK_ABS(tail, 0.0, 0.0);
    free(pmf);
    proper_vlmc_free(&m);

    o.max_order = 1;
    CHECK_INT(fit_text(&m, text, &o, NULL), 0);
    CHECK_INT(m.order, 1);
    CHECK_INT(proper_vlmc_hull(&m, 0, &err), 0);
    CHECK_INT(proper_vlmc_steps_pmf(&m, 1e-14, 0, 0, &pmf, &len, &tail, &err), 0);
    CHECK(tail < 1e-14);
    for (k = 0; k < len; k++) {
        double want = 0.0;
        if (k >= 3 && (k - 3) % 2 == 0) want = (1 - p) * pow(p, (double)((k - 3) / 2));
        CHECK_ABS(pmf[k], want, 1e-14);
    }
    free(pmf);
    proper_vlmc_free(&m);
}

/* Loop counts k = 0..K-1 with 2^(K-1-k) runs each and one run with K: the
 * loop continues with probability exactly 1/2 until the K-th iteration.
 * The α = 1 model reproduces the empirical PMF: P(3 + 2k) = N_k / 2^K. */
static void test_truncated_loop_matches_empirical(void) {
    const int K = 6;
    proper_vlmc_counts c;
    proper_vlmc m;
    proper_vlmc_init(&m);
    proper_error err;
    double *pmf, *e, tail, kl, ll;
    size_t len, ne, k;
    uint32_t ids[64], s, h, b, x;
    proper_vlmc_counts_init(&c);
    CHECK_INT(proper_vlmc_counts_location(&c, "s", 1, &s, &err), 0);
    CHECK_INT(proper_vlmc_counts_location(&c, "h", 1, &h, &err), 0);
    CHECK_INT(proper_vlmc_counts_location(&c, "b", 1, &b, &err), 0);
    CHECK_INT(proper_vlmc_counts_location(&c, "x", 1, &x, &err), 0);
    for (k = 0; k <= (size_t)K; k++) {
        size_t n = 0, i;
        ids[n++] = s;
        ids[n++] = h;
        for (i = 0; i < k; i++) { ids[n++] = b; ids[n++] = h; }
        ids[n++] = x;
        CHECK_INT(proper_vlmc_counts_add_ids(&c, ids, n, k < (size_t)K ? (uint64_t)1 << (K - 1 - k) : 1, NULL, 0, 0, &err), 0);
    }
    CHECK_INT(c.total_runs, 1 << K);
    CHECK_INT(proper_vlmc_fit(&m, &c, NULL, NULL, &err), 0);
    CHECK_INT(proper_vlmc_hull(&m, 0, &err), 0);
    CHECK_INT(proper_vlmc_steps_pmf(&m, 0, 0, 0, &pmf, &len, &tail, &err), 0);
    for (k = 0; k <= (size_t)K; k++) {
        double want = (k < (size_t)K ? (double)((uint64_t)1 << (K - 1 - k)) : 1.0) / (double)(1 << K);
        CHECK_ABS(pmf[3 + 2 * k], want, 1e-15);
    }
    CHECK_INT(proper_vlmc_counts_steps(&c, &e, &ne, &err), 0);
    CHECK_INT(proper_vlmc_compare_steps(e, ne, pmf, len, tail, c.total_runs, &kl, &ll, &err), 0);
    CHECK_ABS(kl, 0.0, 1e-15);
    /* log-likelihood of the steps sample under V equals the sum of N_k log(N_k / 2^K) */
    {
        double want = 0.0;
        for (k = 0; k <= (size_t)K; k++) {
            double nk = k < (size_t)K ? (double)((uint64_t)1 << (K - 1 - k)) : 1.0;
            want += nk * log(nk / (double)(1 << K));
        }
        CHECK_REL(ll, want, 1e-12);
        /* the sequence log-likelihood of the full model is the same number:
         * given the loop count, every run is determined */
        CHECK_REL(m.loglik, want, 1e-12);
    }
    free(pmf);
    free(e);
    proper_vlmc_free(&m);
    proper_vlmc_counts_free(&c);
}

/* An order-2 source over {a, b}: P(a | x y) from a table for x in {^, a, b},
 * y in {a, b}, end with probability 0.02 at every step. With 20000 runs
 * (about a million positions) every order-2 context is found, no order-3
 * context survives α = 0.001 (its true Δ is 0), and the probabilities are
 * within 0.015 (about 6 standard deviations) of the table. n_min = 200: with
 * n_min = 1 the context algorithm keeps rare deep contexts whose few counts
 * pass the χ² cutoff by chance (e.g. 4 occurrences all followed by one
 * symbol of probability 0.15 give Δ = 4 ln(1/0.15) = 7.6 > K = 6.9). */
static const double order2_pa[3][2] = {{0.2, 0.7}, {0.1, 0.6}, {0.8, 0.3}}; /* [^,a,b][a,b] */

static void make_order2_counts(proper_vlmc_counts *c, uint64_t seed, size_t runs) {
    proper_rng rng;
    proper_error err;
    size_t r;
    uint32_t ids[4096], a, b;
    proper_rng_seed(&rng, seed);
    proper_vlmc_counts_location(c, "a", 1, &a, &err);
    proper_vlmc_counts_location(c, "b", 1, &b, &err);
    for (r = 0; r < runs; r++) {
        int prev2 = 0, prev1 = proper_rng_uniform(&rng) < 0.5 ? 1 : 2; /* 0 = ^, 1 = a, 2 = b */
        size_t n = 0;
        ids[n++] = prev1 == 1 ? a : b;
        while (n < 4096 && proper_rng_uniform(&rng) >= 0.02) {
            int next = proper_rng_uniform(&rng) < order2_pa[prev2][prev1 - 1] ? 1 : 2;
            ids[n++] = next == 1 ? a : b;
            prev2 = prev1;
            prev1 = next;
        }
        proper_vlmc_counts_add_ids(c, ids, n, 1, NULL, 0, 0, &err);
    }
}

static void check_order2(const proper_vlmc *m) {
    static const char *const ctx[3][2] = {{"^ a", "^ b"}, {"a a", "a b"}, {"b a", "b b"}};
    uint32_t a = loc_id(m, "a");
    size_t i, j, deep = 0;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 2; j++) {
            uint32_t u = find_context(m, ctx[i][j]);
            CHECK(u != PROPER_VLMC_NONE);
            if (u != PROPER_VLMC_NONE) CHECK_ABS(proper_vlmc_prob(m, u, a), 0.98 * order2_pa[i][j], 0.015);
        }
    for (i = 0; i < m->n_nodes; i++)
        if (m->nodes[i].depth > 2) deep++;
    CHECK_INT(deep, 0);
    CHECK_INT(m->order, 2);
}

static void test_order2_source_recovered(void) {
    proper_vlmc_counts c;
    proper_vlmc m;
    proper_vlmc_init(&m);
    proper_vlmc_opts o;
    proper_error err;
    proper_vlmc_counts_init(&c);
    make_order2_counts(&c, 2024, 20000);
    o = proper_vlmc_opts_default();
    o.alpha = 0.001;
    o.n_min = 200;
    CHECK_INT(proper_vlmc_fit(&m, &c, NULL, &o, &err), 0);
    check_order2(&m);
    proper_vlmc_free(&m);
    /* the classical context algorithm finds the same source */
    o.general = 1;
    CHECK_INT(proper_vlmc_fit(&m, &c, NULL, &o, &err), 0);
    check_order2(&m);
    CHECK(find_context(&m, "") == 0); /* the empty context is the root */
    CHECK_INT(m.n_contexts, m.n_nodes);
    proper_vlmc_free(&m);
    proper_vlmc_counts_free(&c);
}

/* Merging shard counts gives the same counts file and the same PST as one
 * pass over all runs. */
static char *pst_text(const proper_vlmc *m) {
    FILE *f = tmpfile();
    proper_error err;
    long n;
    char *buf;
    if (!f) return NULL;
    proper_vlmc_write_pst(m, f, &err);
    n = ftell(f);
    rewind(f);
    buf = (char *)calloc((size_t)n + 1, 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) buf[0] = '\0';
    fclose(f);
    return buf;
}

static char *counts_text(const proper_vlmc_counts *c) {
    FILE *f = tmpfile();
    proper_error err;
    long n;
    char *buf;
    if (!f) return NULL;
    proper_vlmc_counts_write(c, f, &err);
    n = ftell(f);
    rewind(f);
    buf = (char *)calloc((size_t)n + 1, 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) buf[0] = '\0';
    fclose(f);
    return buf;
}

static void test_merge_equivalence(void) {
    test_runs r;
    proper_vlmc_counts all, shard[3], merged, reread;
    proper_vlmc m1, m2;
    proper_vlmc_init(&m1);
    proper_vlmc_init(&m2);
    proper_vlmc_opts o;
    proper_error err;
    size_t i, k;
    char *t1, *t2, *c1, *c2;
    make_random_runs(&r, 600, 5, 99);
    proper_vlmc_counts_init(&all);
    proper_vlmc_counts_init(&merged);
    proper_vlmc_counts_init(&reread);
    CHECK(load_runs(&all, &r, test_names) == 0);
    for (k = 0; k < 3; k++) {
        proper_vlmc_counts_init(&shard[k]);
        /* each shard meets the locations in its own order: names, not ids, match */
        for (i = k; i < r.n; i += 3) {
            const char *nm[64];
            size_t j;
            for (j = 0; j < r.len[i]; j++) nm[j] = test_names[r.sym[r.start[i] + j]];
            CHECK_INT(proper_vlmc_counts_add_names(&shard[k], nm, r.len[i], 1, &err), 0);
        }
    }
    /* merge in reverse order, through the file format for one shard */
    CHECK_INT(proper_vlmc_counts_merge(&merged, &shard[2], &err), 0);
    c1 = counts_text(&shard[1]);
    CHECK_INT(proper_vlmc_counts_parse_counts(&reread, c1, strlen(c1), "shard1.counts", &err), 0);
    free(c1);
    CHECK_INT(proper_vlmc_counts_merge(&merged, &reread, &err), 0);
    CHECK_INT(proper_vlmc_counts_merge(&merged, &shard[0], &err), 0);
    c1 = counts_text(&all);
    c2 = counts_text(&merged);
    CHECK(c1 && c2 && strcmp(c1, c2) == 0);
    o = proper_vlmc_opts_default();
    o.alpha = 0.9;
    o.n_min = 3;
    CHECK_INT(proper_vlmc_fit(&m1, &all, NULL, &o, &err), 0);
    CHECK_INT(proper_vlmc_fit(&m2, &merged, NULL, &o, &err), 0);
    t1 = pst_text(&m1);
    t2 = pst_text(&m2);
    CHECK(t1 && t2 && strcmp(t1, t2) == 0);
    CHECK(m1.n_nodes > 10); /* a non-trivial tree */
    CHECK_REL(m1.loglik, m2.loglik, 0.0);
    free(t1);
    free(t2);
    free(c1);
    free(c2);
    proper_vlmc_free(&m1);
    proper_vlmc_free(&m2);
    for (k = 0; k < 3; k++) proper_vlmc_counts_free(&shard[k]);
    proper_vlmc_counts_free(&all);
    proper_vlmc_counts_free(&merged);
    proper_vlmc_counts_free(&reread);
    test_runs_free(&r);
}

/* Counting distinct runs with multiplicities is exact: indexing every run
 * separately (keep_duplicates, the benchmark's naive baseline) gives the
 * same tree, counts and likelihood. */
static void test_distinct_runs_exact(void) {
    test_runs r;
    proper_vlmc_counts a, b;
    proper_vlmc ma, mb;
    proper_vlmc_init(&ma);
    proper_vlmc_init(&mb);
    proper_vlmc_opts o;
    proper_error err;
    char *ta, *tb;
    make_random_runs(&r, 800, 3, 4242);
    proper_vlmc_counts_init(&a);
    proper_vlmc_counts_init(&b);
    b.keep_duplicates = 1;
    CHECK(load_runs(&a, &r, test_names) == 0);
    CHECK(load_runs(&b, &r, test_names) == 0);
    CHECK(a.n_runs < b.n_runs);
    CHECK_INT(b.n_runs, 800);
    o = proper_vlmc_opts_default();
    o.alpha = 0.8;
    o.n_min = 2;
    CHECK_INT(proper_vlmc_fit(&ma, &a, NULL, &o, &err), 0);
    CHECK_INT(proper_vlmc_fit(&mb, &b, NULL, &o, &err), 0);
    ta = pst_text(&ma);
    tb = pst_text(&mb);
    CHECK(ta && tb && strcmp(ta, tb) == 0);
    CHECK(ma.n_nodes > 20);
    free(ta);
    free(tb);
    proper_vlmc_free(&ma);
    proper_vlmc_free(&mb);
    proper_vlmc_counts_free(&a);
    proper_vlmc_counts_free(&b);
    test_runs_free(&r);
}

/* Sampled run lengths follow the steps PMF: every length's frequency over
 * 40000 runs is within 5 standard deviations of its probability, and the
 * chi-square test over the lengths does not reject at 1e-4. */
static void test_sampler_frequencies(void) {
    proper_vlmc_counts c;
    proper_vlmc m;
    proper_vlmc_init(&m);
    proper_vlmc_opts o;
    proper_error err;
    proper_rng rng;
    double *pmf, tail, *obs, *expct;
    size_t len, i, n = 40000, run_len, cap = 0;
    uint32_t *run = NULL;
    proper_chi2_test chi;
    proper_vlmc_counts_init(&c);
    make_order2_counts(&c, 5, 300);
    o = proper_vlmc_opts_default();
    o.alpha = 0.05;
    o.max_order = 3;
    CHECK_INT(proper_vlmc_fit(&m, &c, NULL, &o, &err), 0);
    CHECK_INT(proper_vlmc_hull(&m, 0, &err), 0);
    CHECK_INT(proper_vlmc_steps_pmf(&m, 1e-13, 0, 0, &pmf, &len, &tail, &err), 0);
    obs = (double *)calloc(len + 1, sizeof *obs);
    expct = (double *)calloc(len + 1, sizeof *expct);
    proper_rng_seed(&rng, 11);
    for (i = 0; i < n; i++) {
        CHECK_INT(proper_vlmc_sample(&m, &rng, &run, &run_len, &cap, 0, &err), 0);
        obs[run_len < len ? run_len : len] += 1.0;
    }
    for (i = 0; i < len; i++) {
        double sd = sqrt(n * pmf[i] * (1 - pmf[i]));
        expct[i] = n * pmf[i];
        if (fabs(obs[i] - n * pmf[i]) > 5 * sd + 1e-9) CHECK_ABS(obs[i], n * pmf[i], 5 * sd);
    }
    expct[len] = n * tail;
    CHECK_INT(proper_stats_chi2_gof(obs, expct, len + 1, 0, PROPER_STATS_CHI2_MIN_EXPECTED, &chi, &err), 0);
    CHECK(chi.p_value > 1e-4);
    free(obs);
    free(expct);
    free(run);
    free(pmf);
    proper_vlmc_free(&m);
    proper_vlmc_counts_free(&c);
}

/* The hull as a dtmc.h model: R{"steps"}=? [F "end"] equals the mean of the
 * steps PMF, and P=? [F "end"] is 1. */
static void test_hull_dtmc(void) {
    proper_vlmc m;
    proper_vlmc_init(&m);
    proper_vlmc_opts o;
    proper_dtmc d;
    proper_dtmc_init(&d);
    proper_bitset end;
    proper_error err;
    double *x, *pmf, tail, mean = 0.0;
    size_t len, i;
    long r;
    o = proper_vlmc_opts_default();
    o.alpha = 0.5;
    CHECK_INT(fit_text(&m, "s h b h b h x\ns h b h b h x\ns h x\ns h b h x\ns h b h b h b h x\n", &o, NULL), 0);
    CHECK_INT(proper_vlmc_hull(&m, 0, &err), 0);
    CHECK_INT(proper_vlmc_to_dtmc(&m, &d, &err), 0);
    CHECK_INT(d.n_states, m.n_states);
    CHECK_INT(proper_vlmc_steps_pmf(&m, 1e-15, 0, 0, &pmf, &len, &tail, &err), 0);
    for (i = 0; i < len; i++) mean += (double)i * pmf[i];
    x = (double *)calloc(d.n_states, sizeof *x);
    proper_bitset_init(&end);
    CHECK_INT(proper_dtmc_label_get(&d, "end", &end, &err), 0);
    r = proper_dtmc_find_reward(&d, "steps");
    CHECK(r >= 0);
    if (r >= 0) {
        CHECK_INT(proper_dtmc_reward_reach(&d, &d.rewards[r], &end, NULL, x, NULL, &err), 0);
        CHECK_REL(proper_dtmc_value_at_init(&d, x), mean, 1e-9);
    }
    CHECK_INT(proper_dtmc_prob_until(&d, NULL, &end, NULL, x, NULL, &err), 0);
    CHECK_REL(proper_dtmc_value_at_init(&d, x), 1.0, 1e-12);
    free(x);
    free(pmf);
    proper_bitset_free(&end);
    proper_dtmc_free(&d);
    proper_vlmc_free(&m);
}

static void test_cfg_and_bad_input(void) {
    const char *runs = "s h b h x\ns h x\n";
    proper_vlmc_counts c;
    proper_vlmc_cfg g;
    proper_vlmc m;
    proper_vlmc_init(&m);
    proper_vlmc_opts o;
    proper_error err;
    const char *good = "# loop\n^ s\ns h\nh b x\nb h\nx $\n";
    proper_vlmc_counts_init(&c);
    CHECK_INT(proper_vlmc_counts_parse_runs(&c, runs, strlen(runs), "runs.txt", &err), 0);
    o = proper_vlmc_opts_default();
    /* a correct CFG */
    proper_vlmc_cfg_init(&g);
    CHECK_INT(proper_vlmc_cfg_parse(&g, good, strlen(good), "g.cfg", &err), 0);
    CHECK_INT(g.n_edges, 6);
    CHECK_INT(proper_vlmc_fit(&m, &c, &g, &o, &err), 0);
    CHECK_INT(m.cfg_k[1 + loc_id(&m, "h")], 2);
    proper_vlmc_free(&m);
    /* a CFG with a successor never observed: k counts it */
    CHECK_INT(proper_vlmc_cfg_add_edge(&g, "b", "x", &err), 0);
    CHECK_INT(proper_vlmc_fit(&m, &c, &g, &o, &err), 0);
    CHECK_INT(m.cfg_k[1 + loc_id(&m, "b")], 2);
    proper_vlmc_free(&m);
    proper_vlmc_cfg_free(&g);
    /* unknown location in the CFG: file:line:col */
    proper_vlmc_cfg_init(&g);
    CHECK_INT(proper_vlmc_cfg_parse(&g, "^ s\ns h\nh b x\nb  hh\nx $\n", 24, "g.cfg", &err), 0);
    CHECK_INT(proper_vlmc_fit(&m, &c, &g, &o, &err), PROPER_EUNDEFINED);
    CHECK_STR(err.file, "g.cfg");
    CHECK_INT(err.line, 4);
    CHECK_INT(err.col, 4);
    CHECK_CONTAINS(err.message, "unknown location 'hh'");
    proper_vlmc_cfg_free(&g);
    /* a transition that is not an edge: run and position */
    proper_vlmc_cfg_init(&g);
    CHECK_INT(proper_vlmc_cfg_parse(&g, "^ s\ns h\nh b\nb h\nx $\n", 20, "g.cfg", &err), 0);
    CHECK_INT(proper_vlmc_fit(&m, &c, &g, &o, &err), PROPER_EPARSE);
    CHECK_STR(err.file, "runs.txt");
    CHECK_INT(err.line, 1);
    CHECK_CONTAINS(err.message, "run 1, position 5: transition 'h' -> 'x'");
    /* ... unless the CFG may be extended */
    o.extend_cfg = 1;
    CHECK_INT(proper_vlmc_fit(&m, &c, &g, &o, &err), 0);
    CHECK_INT(m.cfg_k[1 + loc_id(&m, "h")], 2);
    proper_vlmc_free(&m);
    o.extend_cfg = 0;
    proper_vlmc_cfg_free(&g);
    /* bad CFG text */
    proper_vlmc_cfg_init(&g);
    CHECK_INT(proper_vlmc_cfg_parse(&g, "a ^\n", 4, "g.cfg", &err), PROPER_EPARSE);
    CHECK_INT(err.col, 3);
    CHECK_INT(proper_vlmc_cfg_parse(&g, "$ a\n", 4, "g.cfg", &err), PROPER_EPARSE);
    CHECK_INT(proper_vlmc_cfg_parse(&g, "\n\na\n", 4, "g.cfg", &err), PROPER_EPARSE);
    CHECK_INT(err.line, 3);
    proper_vlmc_cfg_free(&g);
    /* alpha outside (0, 1], n_min 0, a CFG in general mode */
    o.alpha = 0.0;
    CHECK_INT(proper_vlmc_fit(&m, &c, NULL, &o, &err), PROPER_EINVAL);
    CHECK_CONTAINS(err.message, "alpha");
    o.alpha = 1.5;
    CHECK_INT(proper_vlmc_fit(&m, &c, NULL, &o, &err), PROPER_EINVAL);
    o.alpha = NAN;
    CHECK_INT(proper_vlmc_fit(&m, &c, NULL, &o, &err), PROPER_EINVAL);
    o.alpha = 1.0;
    o.n_min = 0;
    CHECK_INT(proper_vlmc_fit(&m, &c, NULL, &o, &err), PROPER_EINVAL);
    o.n_min = 1;
    o.general = 1;
    proper_vlmc_cfg_init(&g);
    CHECK_INT(proper_vlmc_fit(&m, &c, &g, &o, &err), PROPER_EINVAL);
    proper_vlmc_counts_free(&c);
}

/* Runs read from a trace.h trace (one per record, V lines concatenated)
 * equal the same runs read as text. */
static void test_trace_format_runs(void) {
    const char *tr = "proper-trace 1\nR 1\nV s h b\nV h x\nE\nR 2\nS step 10\nV s h x\nE\nR 3\nV s h b h x\nE\n";
    const char *txt = "s h b h x\ns h x\ns h b h x\n";
    proper_trace t;
    proper_vlmc_counts a, b;
    proper_error err;
    char *ca, *cb;
    proper_trace_init(&t);
    proper_vlmc_counts_init(&a);
    proper_vlmc_counts_init(&b);
    CHECK_INT(proper_trace_parse(&t, tr, strlen(tr), "t.trace", &err), 0);
    CHECK_INT(proper_vlmc_counts_add_trace(&a, &t, "t.trace", &err), 0);
    CHECK_INT(proper_vlmc_counts_parse_runs(&b, txt, strlen(txt), "t.txt", &err), 0);
    ca = counts_text(&a);
    cb = counts_text(&b);
    CHECK(ca && cb && strcmp(ca, cb) == 0);
    free(ca);
    free(cb);
    proper_trace_free(&t);
    /* a record without locations is an empty run */
    proper_trace_init(&t);
    CHECK_INT(proper_trace_parse(&t, "proper-trace 1\nR 1\nS a 1\nE\n", 26, "e.trace", &err), 0);
    CHECK_INT(proper_vlmc_counts_add_trace(&a, &t, "e.trace", &err), PROPER_EPARSE);
    CHECK_INT(err.line, 2);
    proper_trace_free(&t);
    proper_vlmc_counts_free(&a);
    proper_vlmc_counts_free(&b);
}

/* fit, index_build and to_dtmc replace their output on success and leave it
 * unchanged on failure; the defaults come by value. */
static void test_output_rule(void) {
    const char *text = "s a x\ns b x\ns a x\n";
    proper_vlmc_counts c, none;
    proper_vlmc_index ix;
    proper_vlmc m;
    proper_vlmc_opts o = proper_vlmc_opts_default(), bad;
    proper_dtmc d;
    proper_error err;
    uint32_t n_states;
    size_t n_contexts;
    CHECK_REL(o.alpha, 1.0, 0);
    CHECK_INT(o.n_min, 1);
    CHECK_INT(o.general, 0);
    CHECK_INT(o.max_order, 0);
    proper_vlmc_counts_init(&c);
    proper_vlmc_counts_init(&none);
    proper_vlmc_index_init(&ix);
    proper_vlmc_init(&m);
    proper_dtmc_init(&d);
    CHECK_INT(proper_vlmc_counts_parse_runs(&c, text, strlen(text), "t", &err), 0);
    CHECK_INT(c.locations.len, 4);
    CHECK_STR(c.locations.names[1], "a");
    CHECK_INT(proper_vlmc_index_build(&ix, &c, &err), 0);
    CHECK_INT(ix.n, 8); /* 6 locations of 2 distinct runs, one ^ each */
    CHECK_INT(proper_vlmc_index_build(&ix, &none, &err), PROPER_EINVAL);
    CHECK_INT(ix.n, 8);
    CHECK_INT(proper_vlmc_index_build(&ix, &c, &err), 0); /* replaces: no leak */
    CHECK_INT(proper_vlmc_fit(&m, &c, NULL, &o, &err), 0);
    n_contexts = m.n_contexts;
    CHECK_INT(m.n_loc, 4);
    bad = o;
    bad.alpha = 2.0;
    CHECK_INT(proper_vlmc_fit(&m, &c, NULL, &bad, &err), PROPER_EINVAL);
    CHECK_INT(proper_vlmc_fit(&m, &none, NULL, &o, &err), PROPER_EINVAL);
    CHECK_INT(m.n_loc, 4);
    CHECK_INT(m.n_contexts, n_contexts);
    CHECK_INT(proper_vlmc_to_dtmc(&m, &d, &err), PROPER_ESTATE); /* no hull yet */
    CHECK_INT(d.n_states, 0);
    CHECK_INT(proper_vlmc_hull(&m, 0, &err), 0);
    CHECK_INT(proper_vlmc_to_dtmc(&m, &d, &err), 0);
    n_states = m.n_states;
    CHECK_INT(d.n_states, n_states);
    CHECK_INT(proper_vlmc_fit(&m, &c, NULL, &o, &err), 0); /* refit: the hull is gone */
    CHECK_INT(proper_vlmc_to_dtmc(&m, &d, &err), PROPER_ESTATE);
    CHECK_INT(d.n_states, n_states);
    proper_dtmc_free(&d);
    proper_vlmc_free(&m);
    proper_vlmc_index_free(&ix);
    proper_vlmc_counts_free(&c);
}

/* Issue 14: a leading UTF-8 BOM is skipped by the runs, counts and CFG
 * readers (and by proper_vlmc_counts_read on a file); columns count from
 * after it. */
static void test_bom_accepted(void) {
    static const char runs[] = "\xEF\xBB\xBFs h x\ns x\n";
    static const char counts[] = "\xEF\xBB\xBFproper-vlmc-counts 1\nlocation a\nrun 2 0 0\n";
    static const char cfg[] = "\xEF\xBB\xBF^ s\ns x\nx $\n";
    static const char bad_runs[] = "\xEF\xBB\xBF" "a ^ b\n";
    proper_vlmc_counts c;
    proper_vlmc_cfg g;
    proper_error err;
    FILE *f;
    char path[] = "/tmp/proper_test_bom_XXXXXX";
    int fd;
    proper_vlmc_counts_init(&c);
    proper_vlmc_cfg_init(&g);
    CHECK_INT(proper_vlmc_counts_parse_runs(&c, runs, sizeof runs - 1, "b.runs", &err), 0);
    CHECK_INT(c.total_runs, 2);
    CHECK_INT(c.locations.len, 3); /* s h x: the BOM is not part of a name */
    CHECK_INT(proper_vlmc_counts_parse_runs(&c, bad_runs, sizeof bad_runs - 1, "b.runs", &err), PROPER_EPARSE);
    CHECK_INT(err.col, 3);
    proper_vlmc_counts_free(&c);
    CHECK_INT(proper_vlmc_counts_parse_counts(&c, counts, sizeof counts - 1, "b.counts", &err), 0);
    CHECK_INT(c.total_runs, 2);
    CHECK_INT(proper_vlmc_cfg_parse(&g, cfg, sizeof cfg - 1, "b.cfg", &err), 0);
    CHECK_INT(g.n_edges, 3);
    if (g.n_edges) CHECK_STR(g.edges[0].from, "^");
    proper_vlmc_counts_free(&c);
    fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0 && (f = fdopen(fd, "wb")) != NULL) {
        fputs(counts, f);
        fclose(f);
        CHECK_INT(proper_vlmc_counts_read(&c, path, &err), 0);
        CHECK_INT(c.total_runs, 2);
        proper_vlmc_counts_free(&c);
        f = fopen(path, "wb");
        if (f) { fputs(runs, f); fclose(f); }
        CHECK_INT(proper_vlmc_counts_read(&c, path, &err), 0);
        CHECK_INT(c.total_runs, 2);
        CHECK_INT(c.locations.len, 3);
        remove(path);
    }
    proper_vlmc_counts_free(&c);
    proper_vlmc_cfg_free(&g);
}

/* Issue 14: one long run fitted without a maximal order gives a PST whose
 * order is the run's length; building its hull walked every context
 * (quadratic: 5 M steps ran for minutes). Beyond PROPER_VLMC_MAX_HULL_WORK
 * it is refused with advice; with a maximal order of 100 the same run gives
 * a hull, whose steps PMF puts no mass below 101 steps (the first 100 steps
 * are certain). */
static void test_hull_work_capped(void) {
    const size_t n = 20000;
    char *text = (char *)malloc(2 * n + 1);
    proper_vlmc_counts c;
    proper_vlmc m;
    proper_vlmc_opts o;
    proper_error err;
    double *v = NULL, tail = 0.0, below = 0.0;
    size_t i, nv = 0;
    for (i = 0; i < n; i++) {
        text[2 * i] = i == 0 ? 's' : i + 1 == n ? 'x' : 'h';
        text[2 * i + 1] = i + 1 == n ? '\n' : ' ';
    }
    proper_vlmc_counts_init(&c);
    proper_vlmc_init(&m);
    CHECK_INT(proper_vlmc_counts_parse_runs(&c, text, 2 * n, "long.runs", &err), 0);
    o = proper_vlmc_opts_default();
    CHECK_INT(proper_vlmc_fit(&m, &c, NULL, &o, &err), 0);
    CHECK(m.order > 10000);
    CHECK_INT(proper_vlmc_hull(&m, 0, &err), PROPER_ELIMIT);
    CHECK_CONTAINS(err.message, "--max-order");
    proper_vlmc_free(&m);
    proper_vlmc_init(&m);
    o.max_order = 100;
    CHECK_INT(proper_vlmc_fit(&m, &c, NULL, &o, &err), 0);
    CHECK_INT(m.order, 100);
    CHECK_INT(proper_vlmc_hull(&m, 0, &err), 0);
    CHECK_INT(proper_vlmc_steps_pmf(&m, 0.0, n, 0, &v, &nv, &tail, &err), 0);
    for (i = 0; i < nv && i <= 100; i++) below += v[i];
    CHECK_ABS(below, 0.0, 0.0);
    PROPER_FREE(v);
    proper_vlmc_free(&m);
    proper_vlmc_counts_free(&c);
    free(text);
}

/* The thesis's published trees (Napolitano 2022, Figure 16 and Table 4,
 * alpha = 1, n_min = 1): Double Loop has 1427 nodes and order 31, Nested
 * Loop 9200 nodes and order 22. Both trees are fixed by the programs'
 * structure once every context has been seen, as it is at 2*10^4 and
 * 10^5 runs of examples/vlmc/unrolled.h's traces, collected as
 * scripts/vlmc-tables.sh's generator collects them (seed 20220101). proper's tree holds one more node, the
 * start context '^', which the thesis does not count. */
static void check_thesis_tree(const char *name, unsigned long runs, uint32_t nodes, uint32_t order) {
    const ur_program *p = ur_find(name);
    proper_vlmc_counts c;
    proper_vlmc m;
    proper_error err;
    CHECK(p != NULL);
    if (!p) return;
    proper_vlmc_counts_init(&c);
    proper_vlmc_init(&m);
    CHECK_INT(ur_collect(p, p->param, runs, 20220101, &c), 0);
    CHECK_INT(proper_vlmc_fit(&m, &c, NULL, NULL, &err), 0);
    CHECK_INT(m.n_contexts, nodes + 1);
    CHECK_INT(m.order, order);
    proper_vlmc_free(&m);
    proper_vlmc_counts_free(&c);
}

static void test_thesis_loop_trees(void) {
    check_thesis_tree("double_loop", 20000, 1427, 31);
    check_thesis_tree("nested_loop", 100000, 9200, 22);
}

int main(void) {
    RUN(test_hull_work_capped);
    RUN(test_bom_accepted);
    RUN(test_output_rule);
    RUN(test_index_counts_match_brute_force);
    RUN(test_runs_text_and_counts_file);
    RUN(test_bad_runs_input);
    RUN(test_pruning_hand_computed);
    RUN(test_single_sequence_equals_r);
    RUN(test_cutoff_choices);
    RUN(test_fixed_loop_steps);
    RUN(test_truncated_loop_matches_empirical);
    RUN(test_order2_source_recovered);
    RUN(test_merge_equivalence);
    RUN(test_distinct_runs_exact);
    RUN(test_sampler_frequencies);
    RUN(test_hull_dtmc);
    RUN(test_cfg_and_bad_input);
    RUN(test_trace_format_runs);
    RUN(test_thesis_loop_trees);
    return test_summary();
}
