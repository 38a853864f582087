/* programs.h — the nine benchmark programs of Napolitano's thesis (ch. 5) and
 * Incerto, Napolitano & Tribastone (MASCOTS 2020), instrumented to record
 * the program locations each run visits.
 *
 * Each program is a plain C function with LOC(...) calls at its program
 * points (entries, loop headers, branch targets, exits): the sequence of
 * LOC calls of one run is that run's location trace. Every program also
 * carries its control-flow graph over those locations as text in the
 * `proper vlmc --cfg` format ('^' = start, '$' = end).
 *
 * These are the CFG-level versions (a loop's test is one location whatever
 * the iteration), as a user instruments a program; the thesis's own traces
 * (one location per condition of the unrolled program) and inputs are in
 * unrolled.h, used by scripts/vlmc-tables.sh. Inputs here (smaller than
 * the thesis's in places, stated per program):
 *   double_loop(I)   two sequential loops, counts x, y ~ U{0..I} independent
 *                    (so at most (I+1)^2 distinct runs)
 *   nested_loop(I)   an outer loop of x ~ U{0..I} iterations around an inner
 *                    loop of y ~ U{0..I} iterations (y drawn once per run)
 *   bubble_sort(9)   a uniformly random permutation of 0..8; the textbook
 *                    double loop without the early exit
 *   insertion_sort(9), quick_sort(9)  uniformly random permutations of 0..8;
 *                    quick sort is recursive with Lomuto's partition (pivot =
 *                    last element), so returns go back to two call sites
 *   binary_search    array a[k] = 2k, k = 0..99; the key is a uniformly
 *                    chosen element with probability 0.2, else a uniformly
 *                    chosen odd number 1..199 (absent)
 *   newton_sqrt      x ~ U{1..1000}; g0 = x, g <- (g + x/g)/2 until
 *                    |g^2 - x| <= 1e-9 x
 *   euclid_gcd       a, b ~ U{0..200} independent; the subtraction form
 *                    (if a = 0 return b; while b != 0: if a > b a -= b else
 *                    b -= a), which terminates for every input in range
 *   miller_rabin     x ~ U{0..1000}; bases 2, 3, 5, 7 (deterministic for
 *                    x < 3.2e9), square-and-multiply modular exponentiation
 *
 * Randomness comes from proper_rng (xoshiro256**), seeded by the caller.
 */
#ifndef VLMC_PROGRAMS_H
#define VLMC_PROGRAMS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core.h"

/* Helpers a given program may not use. */
#if defined(__GNUC__) || defined(__clang__)
#define VLMC_UNUSED __attribute__((unused))
#else
#define VLMC_UNUSED
#endif

/* One run's trace: location ids of the program's table. */
typedef struct vlmc_run {
    uint8_t *loc;
    size_t len, cap;
    int failed; /* an allocation failed: the run is incomplete */
} vlmc_run;

static void vlmc_run_push(vlmc_run *r, int id) {
    if (r->len == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 256;
        uint8_t *p = (uint8_t *)realloc(r->loc, cap);
        if (!p) { r->failed = 1; return; }
        r->loc = p;
        r->cap = cap;
    }
    r->loc[r->len++] = (uint8_t)id;
}

#define LOC(id) vlmc_run_push(run, id)

typedef struct vlmc_program {
    const char *name;  /* command-line name */
    const char *title; /* as in the thesis */
    const char *const *locs;
    int n_locs;
    const char *cfg;
    void (*run)(vlmc_run *run, proper_rng *rng, int param);
    int param; /* default parameter (I, or the input size) */
} vlmc_program;

static void vlmc_shuffle(int *a, int n, proper_rng *rng) {
    int i;
    for (i = 0; i < n; i++) a[i] = i;
    for (i = n - 1; i > 0; i--) {
        int j = (int)proper_rng_below(rng, (uint64_t)i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* ---- Double Loop ---- */
enum { DL_S, DL_H1, DL_B1, DL_H2, DL_B2, DL_X };
static const char *const dl_locs[] = {"s", "h1", "b1", "h2", "b2", "x"};
static const char dl_cfg[] = "^ s\ns h1\nh1 b1 h2\nb1 h1\nh2 b2 x\nb2 h2\nx $\n";

static void prog_double_loop(vlmc_run *run, proper_rng *rng, int I) {
    int x = (int)proper_rng_below(rng, (uint64_t)I + 1), y = (int)proper_rng_below(rng, (uint64_t)I + 1), i, j;
    LOC(DL_S);
    for (i = 0;; i++) {
        LOC(DL_H1);
        if (!(i < x)) break;
        LOC(DL_B1);
    }
    for (j = 0;; j++) {
        LOC(DL_H2);
        if (!(j < y)) break;
        LOC(DL_B2);
    }
    LOC(DL_X);
}

/* ---- Nested Loop ---- */
enum { NL_S, NL_H1, NL_H2, NL_B, NL_L, NL_X };
static const char *const nl_locs[] = {"s", "h1", "h2", "b", "l", "x"};
static const char nl_cfg[] = "^ s\ns h1\nh1 h2 x\nh2 b l\nb h2\nl h1\nx $\n";

static void prog_nested_loop(vlmc_run *run, proper_rng *rng, int I) {
    int x = (int)proper_rng_below(rng, (uint64_t)I + 1), y = (int)proper_rng_below(rng, (uint64_t)I + 1), i, j;
    LOC(NL_S);
    for (i = 0;; i++) {
        LOC(NL_H1);
        if (!(i < x)) break;
        for (j = 0;; j++) {
            LOC(NL_H2);
            if (!(j < y)) break;
            LOC(NL_B);
        }
        LOC(NL_L);
    }
    LOC(NL_X);
}

/* ---- Bubble Sort ---- */
enum { BS_S, BS_O, BS_I, BS_C, BS_W, BS_X };
static const char *const bs_locs[] = {"s", "o", "i", "c", "w", "x"};
static const char bs_cfg[] = "^ s\ns o\no i x\ni c o\nc w i\nw i\nx $\n";

static void prog_bubble_sort(vlmc_run *run, proper_rng *rng, int n) {
    int a[64], i, j;
    if (n > 64) n = 64;
    vlmc_shuffle(a, n, rng);
    LOC(BS_S);
    for (i = 0;; i++) {
        LOC(BS_O);
        if (!(i < n - 1)) break;
        for (j = 0;; j++) {
            LOC(BS_I);
            if (!(j < n - 1 - i)) break;
            LOC(BS_C);
            if (a[j] > a[j + 1]) {
                int t = a[j];
                LOC(BS_W);
                a[j] = a[j + 1];
                a[j + 1] = t;
            }
        }
    }
    LOC(BS_X);
}

/* ---- Insertion Sort ---- */
enum { IS_S, IS_O, IS_W, IS_M, IS_P, IS_X };
static const char *const is_locs[] = {"s", "o", "w", "m", "p", "x"};
static const char is_cfg[] = "^ s\ns o\no w x\nw m p\nm w\np o\nx $\n";

static void prog_insertion_sort(vlmc_run *run, proper_rng *rng, int n) {
    int a[64], i, j;
    if (n > 64) n = 64;
    vlmc_shuffle(a, n, rng);
    LOC(IS_S);
    for (i = 1;; i++) {
        int key;
        LOC(IS_O);
        if (!(i < n)) break;
        key = a[i];
        for (j = i - 1;; j--) {
            LOC(IS_W);
            if (!(j >= 0 && a[j] > key)) break;
            LOC(IS_M);
            a[j + 1] = a[j];
        }
        LOC(IS_P);
        a[j + 1] = key;
    }
    LOC(IS_X);
}

/* ---- Quick Sort (recursive, Lomuto partition) ---- */
enum { QS_S, QS_Q, QS_R, QS_PH, QS_C, QS_W, QS_F, QS_M, QS_E, QS_X };
static const char *const qs_locs[] = {"s", "q", "r", "ph", "c", "w", "f", "m", "e", "x"};
static const char qs_cfg[] = "^ s\ns q\nq r ph\nr m e x\nph c f\nc w ph\nw ph\nf q\nm q\ne m e x\nx $\n";

static void qs_rec(vlmc_run *run, int *a, int lo, int hi) {
    int pivot, i, j, t;
    LOC(QS_Q);
    if (lo >= hi) {
        LOC(QS_R);
        return;
    }
    pivot = a[hi];
    i = lo;
    for (j = lo;; j++) {
        LOC(QS_PH);
        if (!(j < hi)) break;
        LOC(QS_C);
        if (a[j] < pivot) {
            LOC(QS_W);
            t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
        }
    }
    LOC(QS_F);
    t = a[i];
    a[i] = a[hi];
    a[hi] = t;
    qs_rec(run, a, lo, i - 1);
    LOC(QS_M);
    qs_rec(run, a, i + 1, hi);
    LOC(QS_E);
}

static void prog_quick_sort(vlmc_run *run, proper_rng *rng, int n) {
    int a[64];
    if (n > 64) n = 64;
    vlmc_shuffle(a, n, rng);
    LOC(QS_S);
    qs_rec(run, a, 0, n - 1);
    LOC(QS_X);
}

/* ---- Binary Search ---- */
enum { BN_S, BN_H, BN_C, BN_F, BN_D, BN_L, BN_G, BN_N, BN_X };
static const char *const bn_locs[] = {"s", "h", "c", "f", "d", "l", "g", "n", "x"};
static const char bn_cfg[] = "^ s\ns h\nh c n\nc f d\nd l g\nl h\ng h\nf x\nn x\nx $\n";

static void prog_binary_search(vlmc_run *run, proper_rng *rng, int n) {
    int lo = 0, hi = n - 1, key;
    /* a[k] = 2k: hits are even, misses odd */
    if (proper_rng_uniform(rng) < 0.2) key = 2 * (int)proper_rng_below(rng, (uint64_t)n);
    else key = 2 * (int)proper_rng_below(rng, (uint64_t)n) + 1;
    LOC(BN_S);
    for (;;) {
        int mid;
        LOC(BN_H);
        if (!(lo <= hi)) break;
        mid = (lo + hi) / 2;
        LOC(BN_C);
        if (2 * mid == key) {
            LOC(BN_F);
            LOC(BN_X);
            return;
        }
        LOC(BN_D);
        if (2 * mid < key) {
            LOC(BN_L);
            lo = mid + 1;
        } else {
            LOC(BN_G);
            hi = mid - 1;
        }
    }
    LOC(BN_N);
    LOC(BN_X);
}

/* ---- Newton's square root ---- */
enum { NW_S, NW_H, NW_U, NW_X };
static const char *const nw_locs[] = {"s", "h", "u", "x"};
static const char nw_cfg[] = "^ s\ns h\nh u x\nu h\nx $\n";

static void prog_newton_sqrt(vlmc_run *run, proper_rng *rng, int max_x) {
    double x = (double)(1 + proper_rng_below(rng, (uint64_t)max_x)), g = x;
    LOC(NW_S);
    for (;;) {
        LOC(NW_H);
        if (fabs(g * g - x) <= 1e-9 * x) break;
        LOC(NW_U);
        g = 0.5 * (g + x / g);
    }
    LOC(NW_X);
}

/* ---- Euclid's gcd (subtraction form) ---- */
enum { EU_S, EU_Z, EU_H, EU_C, EU_A, EU_B, EU_X };
static const char *const eu_locs[] = {"s", "z", "h", "c", "sa", "sb", "x"};
static const char eu_cfg[] = "^ s\ns z\nz x h\nh c x\nc sa sb\nsa h\nsb h\nx $\n";

static void prog_euclid_gcd(vlmc_run *run, proper_rng *rng, int max_v) {
    int a = (int)proper_rng_below(rng, (uint64_t)max_v + 1), b = (int)proper_rng_below(rng, (uint64_t)max_v + 1);
    LOC(EU_S);
    LOC(EU_Z);
    if (a == 0) {
        LOC(EU_X);
        return;
    }
    for (;;) {
        LOC(EU_H);
        if (!(b != 0)) break;
        LOC(EU_C);
        if (a > b) {
            LOC(EU_A);
            a -= b;
        } else {
            LOC(EU_B);
            b -= a;
        }
    }
    LOC(EU_X);
}

/* ---- Miller–Rabin ---- */
enum { MR_S, MR_C1, MR_C2, MR_C3, MR_DH, MR_DB, MR_BH, MR_BC, MR_EH, MR_EB, MR_EM, MR_ES, MR_CK, MR_SH, MR_SQ,
       MR_PB, MR_NO, MR_YES, MR_X };
static const char *const mr_locs[] = {"s", "c1", "c2", "c3", "dh", "db", "bh", "bc", "eh", "eb",
                                      "em", "es", "ck", "sh", "sq", "pb", "no", "yes", "x"};
static const char mr_cfg[] = "^ s\ns c1\nc1 no c2\nc2 yes c3\nc3 no dh\ndh db bh\ndb dh\nbh bc yes\nbc bh eh\n"
                             "eh eb ck\neb em es\nem es\nes eh\nck bh sh\nsh sq no\nsq pb sh\npb bh\nno x\nyes x\nx $\n";

static void prog_miller_rabin(vlmc_run *run, proper_rng *rng, int max_x) {
    static const int bases[4] = {2, 3, 5, 7};
    long n = (long)proper_rng_below(rng, (uint64_t)max_x + 1), d, r = 0;
    int bi;
    LOC(MR_S);
    LOC(MR_C1);
    if (n < 2) goto composite;
    LOC(MR_C2);
    if (n < 4) goto prime;
    LOC(MR_C3);
    if (n % 2 == 0) goto composite;
    d = n - 1;
    for (;;) {
        LOC(MR_DH);
        if (d % 2 != 0) break;
        LOC(MR_DB);
        d /= 2;
        r++;
    }
    for (bi = 0;; bi++) {
        long y = 1, base, e, k;
        LOC(MR_BH);
        if (!(bi < 4)) break;
        LOC(MR_BC);
        if (bases[bi] % n == 0) continue;
        base = bases[bi] % n;
        for (e = d;; e >>= 1) {
            LOC(MR_EH);
            if (!(e > 0)) break;
            LOC(MR_EB);
            if (e & 1) {
                LOC(MR_EM);
                y = y * base % n;
            }
            LOC(MR_ES);
            base = base * base % n;
        }
        LOC(MR_CK);
        if (y == 1 || y == n - 1) continue;
        for (k = 1;; k++) {
            LOC(MR_SH);
            if (!(k < r)) goto composite;
            LOC(MR_SQ);
            y = y * y % n;
            if (y == n - 1) {
                LOC(MR_PB);
                break;
            }
        }
    }
prime:
    LOC(MR_YES);
    LOC(MR_X);
    return;
composite:
    LOC(MR_NO);
    LOC(MR_X);
}

#define VLMC_NLOCS(a) ((int)(sizeof a / sizeof a[0]))

static const vlmc_program vlmc_programs[] = {
    {"double_loop", "Double Loop", dl_locs, VLMC_NLOCS(dl_locs), dl_cfg, prog_double_loop, 10},
    {"nested_loop", "Nested Loop", nl_locs, VLMC_NLOCS(nl_locs), nl_cfg, prog_nested_loop, 4},
    {"bubble_sort", "Bubble Sort", bs_locs, VLMC_NLOCS(bs_locs), bs_cfg, prog_bubble_sort, 9},
    {"insertion_sort", "Insertion Sort", is_locs, VLMC_NLOCS(is_locs), is_cfg, prog_insertion_sort, 9},
    {"quick_sort", "Quick Sort", qs_locs, VLMC_NLOCS(qs_locs), qs_cfg, prog_quick_sort, 9},
    {"binary_search", "Binary Search", bn_locs, VLMC_NLOCS(bn_locs), bn_cfg, prog_binary_search, 100},
    {"newton_sqrt", "Newton Sqrt", nw_locs, VLMC_NLOCS(nw_locs), nw_cfg, prog_newton_sqrt, 1000},
    {"euclid_gcd", "Euclid GCD", eu_locs, VLMC_NLOCS(eu_locs), eu_cfg, prog_euclid_gcd, 200},
    {"miller_rabin", "Miller-Rabin", mr_locs, VLMC_NLOCS(mr_locs), mr_cfg, prog_miller_rabin, 1000},
};

#define VLMC_N_PROGRAMS ((int)(sizeof vlmc_programs / sizeof vlmc_programs[0]))

VLMC_UNUSED static const vlmc_program *vlmc_find_program(const char *name) {
    int i;
    for (i = 0; i < VLMC_N_PROGRAMS; i++)
        if (strcmp(vlmc_programs[i].name, name) == 0) return &vlmc_programs[i];
    return NULL;
}

/* Run program p `runs` times and write one line of location names per run
 * to f (proper vlmc's runs format). 0 on success. */
VLMC_UNUSED static int vlmc_write_runs(const vlmc_program *p, FILE *f, unsigned long runs, int param, proper_rng *rng) {
    vlmc_run run;
    unsigned long r;
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    memset(&run, 0, sizeof run);
    for (r = 0; r < runs && rc == 0; r++) {
        size_t k, n = 0;
        run.len = 0;
        p->run(&run, rng, param);
        if (run.failed) { rc = 1; break; }
        for (k = 0; k < run.len; k++) {
            const char *nm = p->locs[run.loc[k]];
            size_t l = strlen(nm);
            if (n + l + 2 > cap) {
                char *bigger = (char *)realloc(line, 2 * (n + l + 2));
                if (!bigger) { rc = 1; break; }
                line = bigger;
                cap = 2 * (n + l + 2);
            }
            if (k) line[n++] = ' ';
            memcpy(line + n, nm, l);
            n += l;
        }
        if (rc) break;
        line[n++] = '\n';
        if (fwrite(line, 1, n, f) != n) rc = 1;
    }
    free(run.loc);
    free(line);
    if (fflush(f) != 0) rc = 1;
    return rc;
}

#endif
