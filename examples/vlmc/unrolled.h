/* unrolled.h — the nine benchmark programs of Napolitano's thesis (ch. 5,
 * §5.2) with the thesis's inputs, traced as the thesis's learner sees them.
 *
 * Program locations. The thesis learns from a program "transformed into an
 * equivalent loop-free version" (loops unwound, calls inlined, §5.1.1), so
 * a location is one branch condition of that version, or the block an if
 * statement's arm starts (the thesis's Figure 14 has both: conditions and
 * the then/else blocks): a condition in the k-th iteration of a loop, or
 * in a given inlined copy of a recursive call, is a location of its own.
 * This file records exactly those: each LOC is (condition or arm,
 * instance), named e.g. "a7" (the first loop's test in its 8th evaluation)
 * or "c3.1" (a compare in outer iteration 3, inner iteration 1). Other
 * straight-line statements are not locations; a loop's body that is such a
 * statement shows as the next test of the loop. Which conditions and
 * arms each program records is said at the program (Miller–Rabin also
 * records its entry, as a run there may end before any loop). The
 * reading is ours (the thesis does not list its locations), checked against
 * its numbers: Double Loop has 62 locations and Insertion Sort 53, the
 * node counts of Table 4's order-1 rows, and at alpha = 1, n_min = 1 the
 * Double Loop tree has exactly the 1427 nodes and order 31 of Table 4 and
 * the Nested Loop tree the 9200 nodes and order 22 (see
 * docs/vlmc-results.md for the derivation).
 *
 * Inputs (§5.2): Double Loop — two loops in sequence, x, y ~ U{0..30}
 * iterations; Nested Loop — outer x ~ U{0..20}, inner y ~ U{0..20} (drawn
 * once per run: the inner count is remembered, "long memory effects");
 * Bubble / Insertion / Quick Sort — 9 uniform 32-bit integers; Binary
 * Search — 100 uniform 32-bit integers, key present with probability 0.2;
 * Newton — square root of a uniform double in [0, 100000); Euclid — gcd of
 * a, b ~ U{0..200} (remainder form); Miller–Rabin — x ~ U{0..1000}, 4
 * rounds with uniformly random bases (a randomised algorithm, as §5.2
 * says), the program of the thesis's reference for it (its locations are
 * read at ur_miller_rabin). The sizes (30, 20, 9, 100) are the parameter
 * of each program.
 */
#ifndef VLMC_UNROLLED_H
#define VLMC_UNROLLED_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core.h"
#include "../../src/vlmc.h"

/* One run: location codes (see loc_code) in order. */
typedef struct ur_run {
    uint32_t *code;
    size_t len, cap;
    int failed;
} ur_run;

/* A location code: the condition (a letter), and up to two instance
 * indexes i, j < 1024 (j = 1023: none). */
#define UR_NONE 1023u
static uint32_t ur_code(char cond, unsigned i, unsigned j) {
    return ((uint32_t)(unsigned char)cond << 20) | ((uint32_t)(i & 1023u) << 10) | (j & 1023u);
}

/* The name of a code: "a7", "c3.1". */
static void ur_name(uint32_t code, char *buf, size_t size) {
    unsigned c = code >> 20, i = (code >> 10) & 1023u, j = code & 1023u;
    if (j == UR_NONE) snprintf(buf, size, "%c%u", (char)c, i);
    else snprintf(buf, size, "%c%u.%u", (char)c, i, j);
}

static void ur_push(ur_run *r, uint32_t code) {
    if (r->len == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 256;
        uint32_t *p = (uint32_t *)realloc(r->code, cap * sizeof *p);
        if (!p) { r->failed = 1; return; }
        r->code = p;
        r->cap = cap;
    }
    r->code[r->len++] = code;
}

#define UR_LOC(cond, i) ur_push(run, ur_code(cond, (unsigned)(i), UR_NONE))
#define UR_LOC2(cond, i, j) ur_push(run, ur_code(cond, (unsigned)(i), (unsigned)(j)))

typedef struct ur_program {
    const char *name;  /* command-line name */
    const char *title; /* as in the thesis */
    void (*run)(ur_run *run, proper_rng *rng, int param);
    int param;         /* the thesis's size (loop bound, array size) */
} ur_program;

/* ---- Double Loop: for (i = 0; i < x; i++); for (j = 0; j < y; j++); ---- */
static void ur_double_loop(ur_run *run, proper_rng *rng, int I) {
    int x = (int)proper_rng_below(rng, (uint64_t)I + 1), y = (int)proper_rng_below(rng, (uint64_t)I + 1), i;
    for (i = 0; i <= x; i++) UR_LOC('a', i); /* test i < x, true x times */
    for (i = 0; i <= y; i++) UR_LOC('b', i);
}

/* ---- Nested Loop: for (i = 0; i < x; i++) for (j = 0; j < y; j++); ---- */
static void ur_nested_loop(ur_run *run, proper_rng *rng, int I) {
    int x = (int)proper_rng_below(rng, (uint64_t)I + 1), y = (int)proper_rng_below(rng, (uint64_t)I + 1), i, j;
    for (i = 0;; i++) {
        UR_LOC('o', i);
        if (!(i < x)) break;
        for (j = 0; j <= y; j++) UR_LOC2('i', i, j);
    }
}

static void ur_random_ints(uint32_t *a, int n, proper_rng *rng) {
    int k;
    for (k = 0; k < n; k++) a[k] = (uint32_t)proper_rng_u64(rng);
}

/* ---- Bubble Sort (no early exit) ----
 * Locations: the two loops' tests and the swap (the arm of the if). The
 * if's test is not a location of its own: with it the α = 1 tree has order
 * 119 and the α < 1 trees order 23, against the thesis's 84 and 16, which
 * this reading gives (docs/vlmc-results.md). */
static void ur_bubble_sort(ur_run *run, proper_rng *rng, int n) {
    uint32_t a[64];
    int i, j;
    if (n > 64) n = 64;
    ur_random_ints(a, n, rng);
    for (i = 0;; i++) {
        UR_LOC('o', i);
        if (!(i < n - 1)) break;
        for (j = 0;; j++) {
            UR_LOC2('i', i, j);
            if (!(j < n - 1 - i)) break;
            if (a[j] > a[j + 1]) { /* seen as the swap's location or its absence */
                uint32_t t = a[j];
                UR_LOC2('w', i, j); /* the swap */
                a[j] = a[j + 1];
                a[j + 1] = t;
            }
        }
    }
}

/* ---- Insertion Sort ---- */
static void ur_insertion_sort(ur_run *run, proper_rng *rng, int n) {
    uint32_t a[64], key;
    int i, j;
    if (n > 64) n = 64;
    ur_random_ints(a, n, rng);
    for (i = 1;; i++) {
        UR_LOC('o', i);
        if (!(i < n)) break;
        key = a[i];
        for (j = i - 1;; j--) {
            UR_LOC2('w', i, i - 1 - j); /* the (i-1-j)-th test of while (j >= 0 && a[j] > key) */
            if (!(j >= 0 && a[j] > key)) break;
            a[j + 1] = a[j];
        }
        a[j + 1] = key;
    }
}

/* ---- Quick Sort (recursive, Lomuto partition) ----
 * An inlined copy of a call is named by its path from the first call: the
 * bits of `path` below its leading 1 say left (0) or right (1) at each
 * level. */
static void ur_qs(ur_run *run, uint32_t *a, int lo, int hi, unsigned path) {
    uint32_t pivot, t;
    int i, j;
    UR_LOC('q', path); /* if (lo < hi) */
    if (!(lo < hi)) return;
    pivot = a[hi];
    i = lo;
    for (j = lo;; j++) {
        UR_LOC2('p', path, j - lo); /* for (j < hi) */
        if (!(j < hi)) break;
        UR_LOC2('c', path, j - lo); /* if (a[j] < pivot) */
        if (a[j] < pivot) {
            UR_LOC2('w', path, j - lo); /* the swap */
            t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
        }
    }
    t = a[i];
    a[i] = a[hi];
    a[hi] = t;
    ur_qs(run, a, lo, i - 1, path << 1);
    ur_qs(run, a, i + 1, hi, (path << 1) | 1u);
}

static void ur_quick_sort(ur_run *run, proper_rng *rng, int n) {
    uint32_t a[64];
    if (n > 9) n = 9; /* paths of up to 9 levels fit the 10-bit index */
    ur_random_ints(a, n, rng);
    ur_qs(run, a, 0, n - 1, 1u);
}

/* ---- Binary Search: 100 sorted uniform 32-bit integers, a hit with
 * probability 0.2 ---- */
static int ur_u32_cmp(const void *x, const void *y) {
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static void ur_binary_search(ur_run *run, proper_rng *rng, int n) {
    uint32_t a[128], key;
    int lo = 0, hi, k, it;
    if (n > 128) n = 128;
    ur_random_ints(a, n, rng);
    qsort(a, (size_t)n, sizeof a[0], ur_u32_cmp);
    if (proper_rng_uniform(rng) < 0.2) key = a[proper_rng_below(rng, (uint64_t)n)];
    else
        for (;;) { /* a uniform 32-bit key not in the array */
            key = (uint32_t)proper_rng_u64(rng);
            for (k = 0; k < n && a[k] != key; k++) {}
            if (k == n) break;
        }
    hi = n - 1;
    for (it = 0;; it++) {
        int mid;
        UR_LOC('h', it); /* while (lo <= hi) */
        if (!(lo <= hi)) break;
        mid = lo + (hi - lo) / 2;
        UR_LOC('e', it); /* if (a[mid] == key) */
        if (a[mid] == key) return;
        UR_LOC('l', it); /* if (a[mid] < key) */
        if (a[mid] < key) {
            UR_LOC('u', it); /* lo = mid + 1 */
            lo = mid + 1;
        } else {
            UR_LOC('v', it); /* hi = mid - 1 */
            hi = mid - 1;
        }
    }
}

/* ---- Newton's square root of x ~ U[0, 100000) ---- */
static void ur_newton_sqrt(ur_run *run, proper_rng *rng, int max_x) {
    double x = proper_rng_uniform(rng) * (double)max_x, g = x > 1.0 ? x : 1.0;
    int it;
    for (it = 0;; it++) {
        UR_LOC('n', it); /* while (|g^2 - x| > 1e-9 x) */
        if (!(fabs(g * g - x) > 1e-9 * x) || it >= 1000) break;
        g = 0.5 * (g + x / g);
    }
}

/* ---- Euclid's gcd (remainder form) of a, b ~ U{0..200} ---- */
static void ur_euclid_gcd(ur_run *run, proper_rng *rng, int max_v) {
    unsigned a = (unsigned)proper_rng_below(rng, (uint64_t)max_v + 1), b = (unsigned)proper_rng_below(rng, (uint64_t)max_v + 1);
    int it;
    for (it = 0;; it++) {
        unsigned t;
        UR_LOC('g', it); /* while (b != 0) */
        if (!(b != 0)) break;
        t = b;
        b = a % b;
        a = t;
    }
}

/* ---- Miller–Rabin on x ~ U{0..1000}: isPrime(x, 4) ----
 * The program of the thesis's reference for it ([97], GeeksforGeeks'
 * "Primality Test | Set 3 (Miller–Rabin)"): isPrime returns at once for
 * n <= 4, strips the factors 2 of n - 1 into d (no separate test for an
 * even n), then calls millerTest(d, n) k = 4 times; millerTest draws a base
 * 2 + rand() % (n - 4), computes a^d mod n by square-and-multiply (power(),
 * a loop over the bits of d) and squares while d != n - 1, stopping at 1 or
 * n - 1. Locations: the program's entry and every loop test (the d loop,
 * the rounds, power()'s loop in each round, the squaring loop in each
 * round); the if statements are not locations. This reading gives orders 41
 * to 46 at the thesis's 10^5 runs, by seed (the thesis: 46); with the if
 * tests as well it gives 97, with power()'s if arm 65, with power() opaque
 * 29 (docs/vlmc-results.md). */
static uint64_t ur_mr_power(ur_run *run, uint64_t x, uint64_t y, uint64_t p, int round) {
    uint64_t res = 1;
    int it;
    x %= p;
    for (it = 0;; it++) {
        UR_LOC2('p', round, it); /* while (y > 0) */
        if (!(y > 0)) return res;
        if (y & 1) res = res * x % p;
        y >>= 1;
        x = x * x % p;
    }
}

/* millerTest(d, n): 1 when n is probably prime for this round's base. */
static int ur_mr_round(ur_run *run, proper_rng *rng, uint64_t d, uint64_t n, int round) {
    uint64_t x = ur_mr_power(run, 2 + proper_rng_below(rng, n - 4), d, n, round);
    int it;
    if (x == 1 || x == n - 1) return 1;
    for (it = 0;; it++) {
        UR_LOC2('w', round, it); /* while (d != n - 1) */
        if (!(d != n - 1)) return 0;
        x = x * x % n;
        d *= 2;
        if (x == 1) return 0;
        if (x == n - 1) return 1;
    }
}

static void ur_miller_rabin(ur_run *run, proper_rng *rng, int max_x) {
    uint64_t n = proper_rng_below(rng, (uint64_t)max_x + 1), d = n - 1;
    int it, round;
    UR_LOC('s', 0); /* entry */
    if (n <= 4) return; /* n <= 1 || n == 4: composite; n <= 3: prime */
    for (it = 0;; it++) {
        UR_LOC('d', it); /* while (d % 2 == 0) */
        if (d % 2 != 0) break;
        d /= 2;
    }
    for (round = 0;; round++) {
        UR_LOC('r', round); /* for (i < k) */
        if (!(round < 4)) return; /* probably prime */
        if (!ur_mr_round(run, rng, d, n, round)) return; /* composite */
    }
}

static const ur_program ur_programs[] = {
    {"double_loop", "Double Loop", ur_double_loop, 30},
    {"nested_loop", "Nested Loop", ur_nested_loop, 20},
    {"bubble_sort", "Bubble Sort", ur_bubble_sort, 9},
    {"insertion_sort", "Insertion Sort", ur_insertion_sort, 9},
    {"quick_sort", "Quick Sort", ur_quick_sort, 9},
    {"binary_search", "Binary Search", ur_binary_search, 100},
    {"newton_sqrt", "Newton Sqrt", ur_newton_sqrt, 100000},
    {"euclid_gcd", "Euclid GCD", ur_euclid_gcd, 200},
    {"miller_rabin", "Miller-Rabin", ur_miller_rabin, 1000},
};

#define UR_N_PROGRAMS ((int)(sizeof ur_programs / sizeof ur_programs[0]))

static const ur_program *ur_find(const char *name) {
    int i;
    for (i = 0; i < UR_N_PROGRAMS; i++)
        if (strcmp(ur_programs[i].name, name) == 0) return &ur_programs[i];
    return NULL;
}

/* Location codes -> counts ids, by open addressing. */
typedef struct ur_code_map {
    uint32_t *key, *val;
    size_t cap, n;
} ur_code_map;

static int ur_code_map_get(ur_code_map *m, proper_vlmc_counts *c, uint32_t code, uint32_t *id, proper_error *err) {
    size_t i;
    if (2 * (m->n + 1) > m->cap) {
        ur_code_map bigger;
        bigger.cap = m->cap ? 2 * m->cap : 1024;
        bigger.n = 0;
        bigger.key = (uint32_t *)calloc(bigger.cap, sizeof *bigger.key);
        bigger.val = (uint32_t *)calloc(bigger.cap, sizeof *bigger.val);
        if (!bigger.key || !bigger.val) return PROPER_ENOMEM;
        for (i = 0; i < m->cap; i++)
            if (m->key[i]) {
                size_t j = (m->key[i] * 2654435761u) & (bigger.cap - 1);
                while (bigger.key[j]) j = (j + 1) & (bigger.cap - 1);
                bigger.key[j] = m->key[i];
                bigger.val[j] = m->val[i];
                bigger.n++;
            }
        free(m->key);
        free(m->val);
        *m = bigger;
    }
    i = (code * 2654435761u) & (m->cap - 1);
    while (m->key[i] && m->key[i] != code) i = (i + 1) & (m->cap - 1);
    if (!m->key[i]) {
        char name[32];
        int rc;
        ur_name(code, name, sizeof name);
        if ((rc = proper_vlmc_counts_location(c, name, strlen(name), &m->val[i], err))) return rc;
        m->key[i] = code;
        m->n++;
    }
    *id = m->val[i];
    return PROPER_OK;
}

/* RUNS runs of p (with its size param) into c, seeded with seed; nonzero
 * when they cannot be collected (memory). */
static int ur_collect(const ur_program *p, int param, unsigned long runs, uint64_t seed, proper_vlmc_counts *c) {
    proper_rng rng;
    proper_error err;
    ur_run run;
    ur_code_map map;
    uint32_t *ids = NULL;
    size_t cap = 0, k;
    unsigned long r;
    int rc = 0;
    memset(&run, 0, sizeof run);
    memset(&map, 0, sizeof map);
    proper_rng_seed(&rng, seed);
    for (r = 0; r < runs && rc == 0; r++) {
        run.len = 0;
        p->run(&run, &rng, param);
        if (run.failed || proper_reserve(&ids, &cap, run.len + 1, sizeof *ids)) { rc = 1; break; }
        for (k = 0; k < run.len && rc == 0; k++) rc = ur_code_map_get(&map, c, run.code[k], &ids[k], &err);
        if (rc == 0) rc = proper_vlmc_counts_add_ids(c, ids, run.len, 1, p->name, 0, r + 1, &err);
    }
    free(run.code);
    free(ids);
    free(map.key);
    free(map.val);
    return rc;
}

#endif
