/* gen_dtmc.h — generator of benchmark DTMCs in PRISM's explicit format
 * (PREFIX.tra, PREFIX.lab with label "end", PREFIX.srew with reward
 * structure "time"), so that proper, PRISM (-importmodel PREFIX.tra,lab,srew)
 * and Storm (--explicit) read the very same files.
 *
 *   gen_random(N, SEED, PREFIX)        random sparse DTMC, N states
 *   gen_spread(N, SEED, PREFIX)        the same with successors anywhere
 *   gen_nested(N, SEED, D, PREFIX, ...) chain of nested-loop blocks of depth D
 * (from the command line: bench_dtmc gen random|spread|nested STATES SEED PREFIX [D])
 *
 * Probabilities are multiples of 1/1024 (exact in binary and in short
 * decimals): every row sums to exactly 1 in double arithmetic, and what a
 * reader parses is exactly what was generated. Rewards are multiples of
 * 1e-6.
 *
 * random: state N-1 is the absorbing "end". Every other state s has 2-4
 * distinct successors: s+1 (a fall-through edge, so that end is reachable
 * from every state), with probability 1/4 the end state, and the rest drawn
 * uniformly from a window of +-1000 states around s (forward and backward
 * jumps, as in a program's control flow); nearly all states form one large
 * strongly connected component left through the end edges.
 *
 * spread: as random, but the other successors are drawn uniformly from the
 * whole state space: one giant strongly connected component without any
 * locality (every sweep touches the value vector at random).
 *
 * nested: blocks in series, each like the loop nest of PROPER's minPathSum
 * (Stefanakos et al. 2023, Fig. 5): D nested loops (headers h_0..h_{D-1},
 * continue probability p_k in [0.5, 0.95]), latches l_0..l_{D-2} closing the
 * outer loops, and in the innermost body a branch to "then" (q) or "else"
 * (1-q), both returning to h_{D-1}. A loop exit goes to the enclosing latch,
 * the outermost exit to the next block (the last block to end). 2D+2 states
 * per block. The expected time to end has the closed form
 *   C_{D-1} = (a_{D-1} + p_{D-1} (r_b + q r_then + (1-q) r_else)) / (1 - p_{D-1}),
 *   C_k     = (a_k + p_k (C_{k+1} + r_{l_k})) / (1 - p_k),   total = sum of C_0,
 * written (long double) to PREFIX.ref.
 */
#ifndef PROPER_BENCH_GEN_DTMC_H
#define PROPER_BENCH_GEN_DTMC_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: the generator's own small RNG (deterministic per seed). */
static uint64_t gen__next(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t gen__below(uint64_t *x, uint64_t n) { return gen__next(x) % n; }

/* Buffered writer with fast unsigned formatting. */
typedef struct gen_out {
    FILE *f;
    char buf[1 << 16];
    size_t n;
    int failed;
} gen_out;

static void gen__flush(gen_out *o) {
    if (o->n && fwrite(o->buf, 1, o->n, o->f) != o->n) o->failed = 1;
    o->n = 0;
}

static void gen__str(gen_out *o, const char *s) {
    size_t k = strlen(s);
    if (o->n + k > sizeof o->buf) gen__flush(o);
    memcpy(o->buf + o->n, s, k);
    o->n += k;
}

static void gen__u64(gen_out *o, uint64_t v) {
    char tmp[24];
    int k = 0;
    if (o->n + 24 > sizeof o->buf) gen__flush(o);
    do { tmp[k++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (k) o->buf[o->n++] = tmp[--k];
}

/* m / 1024 as an exact decimal: "1" or "0." followed by up to 10 digits. */
static void gen__prob(gen_out *o, unsigned m) {
    char tmp[16];
    uint64_t frac;
    int k;
    if (m >= 1024) { gen__str(o, "1"); return; }
    frac = (uint64_t)m * 9765625ULL; /* m / 1024 = m * 9765625 / 10^10 */
    tmp[0] = '0'; tmp[1] = '.';
    for (k = 11; k >= 2; k--) { tmp[k] = (char)('0' + frac % 10); frac /= 10; }
    k = 11;
    while (tmp[k] == '0') k--;
    tmp[k + 1] = '\0';
    gen__str(o, tmp);
}

/* micro-units u as a decimal u * 1e-6 */
static void gen__micro(gen_out *o, unsigned u) {
    char tmp[24];
    int k;
    gen__u64(o, u / 1000000);
    if (u % 1000000 == 0) return;
    snprintf(tmp, sizeof tmp, ".%06u", u % 1000000);
    for (k = (int)strlen(tmp) - 1; tmp[k] == '0'; k--) tmp[k] = '\0';
    gen__str(o, tmp);
}

static int gen__open(gen_out *o, const char *prefix, const char *suffix) {
    char path[4096];
    snprintf(path, sizeof path, "%s%s", prefix, suffix);
    o->f = fopen(path, "wb");
    o->n = 0;
    o->failed = 0;
    if (!o->f) { fprintf(stderr, "gen_dtmc: cannot create %s\n", path); return -1; }
    return 0;
}

static int gen__close(gen_out *o) {
    gen__flush(o);
    if (fclose(o->f) != 0) o->failed = 1;
    return o->failed ? -1 : 0;
}

/* .lab: init = state 0, end = state n-1. */
static int gen__labels(const char *prefix, uint64_t n) {
    gen_out o;
    if (gen__open(&o, prefix, ".lab")) return -1;
    gen__str(&o, "0=\"init\" 1=\"deadlock\" 2=\"end\"\n0: 0\n");
    gen__u64(&o, n - 1);
    gen__str(&o, ": 2\n");
    return gen__close(&o);
}

/* Split 1024 into k positive parts (multiples of 1/1024). */
static void gen__split(uint64_t *rng, unsigned k, unsigned *part) {
    unsigned cut[4], i, j;
    for (i = 0; i + 1 < k; i++) {
        unsigned c;
        do {
            c = 1 + (unsigned)gen__below(rng, 1023);
            for (j = 0; j < i && cut[j] != c; j++) continue;
        } while (j < i);
        cut[i] = c;
    }
    cut[k - 1] = 1024;
    for (i = 1; i < k; i++) /* sort the cuts */
        for (j = i; j > 0 && cut[j - 1] > cut[j]; j--) { unsigned t = cut[j]; cut[j] = cut[j - 1]; cut[j - 1] = t; }
    for (i = 0; i < k; i++) part[i] = cut[i] - (i ? cut[i - 1] : 0);
}

#define GEN_WINDOW 1000

/* Targets and probabilities (multiples of 1/1024) of state s; returns k.
 * Successors other than s+1 and end lie within +-window of s. */
static unsigned gen__random_row(uint64_t *rng, uint64_t s, uint64_t end, uint64_t window, uint64_t *t,
                                unsigned *part) {
    unsigned k = 2 + (unsigned)gen__below(rng, 3), i, j;
    t[0] = s + 1;
    i = 1;
    if (t[0] != end && gen__below(rng, 4) == 0) t[i++] = end;
    while (i < k) {
        uint64_t lo = s > window ? s - window : 0, hi = window < end - 1 - s ? s + window : end - 1;
        uint64_t c = lo + gen__below(rng, hi - lo + 1);
        for (j = 0; j < i && t[j] != c; j++) continue;
        if (j == i) t[i++] = c;
        else if (hi - lo + 1 <= i) break; /* tiny models: not enough distinct states */
    }
    k = i;
    for (i = 1; i < k; i++) /* sorted targets, as PRISM writes them */
        for (j = i; j > 0 && t[j - 1] > t[j]; j--) { uint64_t x = t[j]; t[j] = t[j - 1]; t[j - 1] = x; }
    gen__split(rng, k, part);
    return k;
}

/* Returns the number of transitions written, 0 on error. */
static uint64_t gen__random_family(uint64_t n, uint64_t seed, uint64_t window, const char *prefix) {
    gen_out tra, rew;
    uint64_t rng0 = seed * 0x2545F4914F6CDD1DULL + 1, rng, s, trans = 1, end = n - 1, t[4];
    unsigned part[4], i, k;
    if (n < 3) return 0;
    /* first pass: count the transitions for the header */
    rng = rng0;
    for (s = 0; s < end; s++) {
        trans += gen__random_row(&rng, s, end, window, t, part);
        gen__below(&rng, 999999); /* the reward draw */
    }
    if (gen__open(&tra, prefix, ".tra")) return 0;
    gen__u64(&tra, n); gen__str(&tra, " "); gen__u64(&tra, trans); gen__str(&tra, "\n");
    if (gen__open(&rew, prefix, ".srew")) { fclose(tra.f); return 0; }
    gen__str(&rew, "# Reward structure \"time\"\n# State rewards\n");
    gen__u64(&rew, n); gen__str(&rew, " "); gen__u64(&rew, n - 1); gen__str(&rew, "\n");
    rng = rng0;
    for (s = 0; s < end; s++) {
        k = gen__random_row(&rng, s, end, window, t, part);
        for (i = 0; i < k; i++) {
            gen__u64(&tra, s); gen__str(&tra, " ");
            gen__u64(&tra, t[i]); gen__str(&tra, " ");
            gen__prob(&tra, part[i]);
            gen__str(&tra, "\n");
        }
        gen__u64(&rew, s); gen__str(&rew, " ");
        gen__micro(&rew, 1 + (unsigned)gen__below(&rng, 999999));
        gen__str(&rew, "\n");
    }
    gen__u64(&tra, end); gen__str(&tra, " "); gen__u64(&tra, end); gen__str(&tra, " 1\n");
    if (gen__close(&tra) || gen__close(&rew) || gen__labels(prefix, n)) return 0;
    return trans;
}

static uint64_t gen_random(uint64_t n, uint64_t seed, const char *prefix) {
    return gen__random_family(n, seed, GEN_WINDOW, prefix);
}

static uint64_t gen_spread(uint64_t n, uint64_t seed, const char *prefix) {
    return gen__random_family(n, seed, n, prefix);
}

/* Blocks of 2D+2 states; returns transitions written (0 on error) and the
 * closed-form expected time in *expect. *states receives the state count. */
static uint64_t gen_nested(uint64_t n_wanted, uint64_t seed, unsigned depth, const char *prefix, uint64_t *states,
                           long double *expect) {
    gen_out tra, rew, ref;
    uint64_t rng = seed * 0x2545F4914F6CDD1DULL + 7, per = 2 * (uint64_t)depth + 2, blocks, b, n, trans = 0;
    long double total = 0.0L;
    if (depth < 1 || depth > 16) return 0;
    blocks = n_wanted > per ? (n_wanted - 1) / per : 1;
    n = blocks * per + 1;
    if (gen__open(&tra, prefix, ".tra")) return 0;
    /* per block: D headers x 2 + (D-1) latches + branch 2 + then/else 1 each */
    trans = blocks * (2 * (uint64_t)depth + (depth - 1) + 2 + 2) + 1;
    gen__u64(&tra, n); gen__str(&tra, " "); gen__u64(&tra, trans); gen__str(&tra, "\n");
    if (gen__open(&rew, prefix, ".srew")) { fclose(tra.f); return 0; }
    gen__str(&rew, "# Reward structure \"time\"\n# State rewards\n");
    gen__u64(&rew, n); gen__str(&rew, " "); gen__u64(&rew, n - 1); gen__str(&rew, "\n");
    for (b = 0; b < blocks; b++) {
        uint64_t base = b * per, next = base + per, br = base + 2 * depth - 1, st;
        unsigned p[16], q = 205 + (unsigned)gen__below(&rng, 615), rw[2 * 16 + 2], k;
        long double cost;
        for (k = 0; k < depth; k++) p[k] = 512 + (unsigned)gen__below(&rng, 461); /* 0.5 .. 0.95 */
        for (k = 0; k < per; k++) rw[k] = 1000 + (unsigned)gen__below(&rng, 999000);
        for (st = base; st < next; st++) {
            uint64_t off = st - base, t[2];
            unsigned pr[2], nt;
            if (off < depth) { /* header h_k */
                uint64_t body = off + 1 < depth ? st + 1 : br;
                uint64_t exit_to = off == 0 ? next : base + depth + off - 1;
                t[0] = body; pr[0] = p[off]; t[1] = exit_to; pr[1] = 1024 - p[off]; nt = 2;
            } else if (off < 2 * (uint64_t)depth - 1) { /* latch l_k -> h_k */
                t[0] = base + (off - depth); pr[0] = 1024; nt = 1;
            } else if (st == br) {
                t[0] = br + 1; pr[0] = q; t[1] = br + 2; pr[1] = 1024 - q; nt = 2;
            } else { /* then / else -> innermost header */
                t[0] = base + depth - 1; pr[0] = 1024; nt = 1;
            }
            if (nt == 2 && t[0] > t[1]) {
                uint64_t x = t[0]; unsigned y = pr[0];
                t[0] = t[1]; pr[0] = pr[1]; t[1] = x; pr[1] = y;
            }
            for (k = 0; k < nt; k++) {
                gen__u64(&tra, st); gen__str(&tra, " "); gen__u64(&tra, t[k]); gen__str(&tra, " ");
                gen__prob(&tra, pr[k]); gen__str(&tra, "\n");
            }
            gen__u64(&rew, st); gen__str(&rew, " "); gen__micro(&rew, rw[off]); gen__str(&rew, "\n");
        }
        /* closed form, innermost loop first */
        cost = (rw[2 * depth - 1] + (q / 1024.0L) * rw[2 * depth] + (1.0L - q / 1024.0L) * rw[2 * depth + 1]) * 1e-6L;
        for (k = depth; k-- > 0;) {
            long double pk = p[k] / 1024.0L, latch = k + 1 < depth ? rw[depth + k] * 1e-6L : 0.0L;
            cost = (rw[k] * 1e-6L + pk * (cost + latch)) / (1.0L - pk);
        }
        total += cost;
    }
    gen__u64(&tra, n - 1); gen__str(&tra, " "); gen__u64(&tra, n - 1); gen__str(&tra, " 1\n");
    if (gen__close(&tra) || gen__close(&rew) || gen__labels(prefix, n)) return 0;
    if (gen__open(&ref, prefix, ".ref")) return 0;
    {
        char num[64];
        snprintf(num, sizeof num, "%.21Lg\n", total);
        gen__str(&ref, num);
    }
    if (gen__close(&ref)) return 0;
    *states = n;
    *expect = total;
    return trans;
}

#endif
