/* bench_exact.c — exact (rational) and parametric solving against dtmc.h's
 * double solve of the same chain, measured in the same run.
 *
 * Models (built in memory):
 *   ruin N       gambler's ruin on 0..N, win probability 2/5: P=?[F N];
 *                the values are ratios of numbers of about N log2(3/2) bits
 *   local N W    N states; each state s moves to s+1 and to 1-3 random states
 *                within s±W (and sometimes to the end), probabilities multiples
 *                of 1/1024 (the bench_dtmc random family, smaller window):
 *                R=?[F end], one per step, from state 0
 *   minPathSum   PROPER's model with p1..p5 open: R{"time"}=?[F end] as a
 *                rational function (baseline: one double solve at a point)
 * Each line prints the exact solve time, the baseline and their ratio,
 * with the elimination's fill-in and the largest number met (32-bit limbs).
 *
 *     make build/bench/bench_exact && build/bench/bench_exact [max_states]
 */
#include "bench.h"
#define PROPER_IMPLEMENTATION
#include "../src/exact.h"

#include <stdlib.h>

typedef struct model {
    proper_dtmc m;
    proper_exact_dtmc e;
    proper_bitset goal;
    int reward; /* solve R{0}=?[F goal] instead of P=?[F goal] */
    proper_exact_stats stats;
    double value; /* exact value at state 0, rounded */
} model;

static void die(const char *what, const proper_error *err) {
    fprintf(stderr, "bench_exact: %s: %s\n", what, err->message);
    exit(1);
}

/* Add row s of dst/weights (weights over `total`) to the builder, keeping
 * the exact values for later. */
static void add_row(proper_dtmc_builder *b, uint32_t s, const uint32_t *dst, const int *w, int k, int total) {
    proper_error err;
    int i;
    for (i = 0; i < k; i++)
        if (proper_dtmc_builder_add_transition(b, s, dst[i], (double)w[i] / total, &err)) die("builder", &err);
}

/* The exact companion: every probability is w/total with total recovered
 * as the smallest denominator that makes the row's doubles integral. */
static void exact_from_weights(model *x, int total) {
    proper_error err;
    uint64_t k;
    if (proper_exact_dtmc_create(&x->e, &x->m, 0, NULL, &err)) die("companion", &err);
    for (k = 0; k < x->m.n_trans; k++) {
        proper_rat v;
        proper_rat_init(&v);
        proper_rat_set_i64(&v, (int64_t)(x->m.prob[k] * total + 0.5), total);
        proper_exact_dtmc_set_prob(&x->e, k, &v, &err);
        proper_rat_free(&v);
    }
    if (proper_exact_dtmc_check(&x->e, &x->m, &err)) die("check", &err);
}

static void make_ruin(model *x, uint32_t n) {
    proper_dtmc_builder b;
    proper_error err;
    uint32_t s, dst[2];
    int w[2] = {3, 2}, one = 5;
    proper_dtmc_builder_init(&b);
    dst[0] = 0;
    add_row(&b, 0, dst, &one, 1, 5);
    for (s = 1; s < n; s++) {
        dst[0] = s - 1;
        dst[1] = s + 1;
        add_row(&b, s, dst, w, 2, 5);
    }
    dst[0] = n;
    add_row(&b, n, dst, &one, 1, 5);
    if (proper_dtmc_builder_finish(&b, n + 1, &x->m, &err)) die("builder", &err);
    exact_from_weights(x, 5);
    proper_bitset_init(&x->goal);
    proper_bitset_create(&x->goal, n + 1, &err);
    proper_bitset_set(&x->goal, n);
    x->reward = 0;
}

static void make_local(model *x, uint32_t n, uint32_t window, uint64_t seed) {
    proper_dtmc_builder b;
    proper_error err;
    proper_rng rng;
    uint32_t s, end = n - 1;
    proper_rng_seed(&rng, seed);
    proper_dtmc_builder_init(&b);
    for (s = 0; s < end; s++) {
        uint32_t dst[5];
        int w[5], k = 2 + (int)proper_rng_below(&rng, 3), i = 1, j, left = 1024;
        dst[0] = s + 1;
        if (dst[0] != end && proper_rng_below(&rng, 4) == 0) dst[i++] = end;
        while (i < k) {
            uint32_t lo = s > window ? s - window : 0, hi = s + window < end - 1 ? s + window : end - 1;
            uint32_t c = lo + (uint32_t)proper_rng_below(&rng, hi - lo + 1);
            for (j = 0; j < i && dst[j] != c; j++) continue;
            if (j == i) dst[i++] = c;
            else if (hi - lo + 1 <= (uint32_t)i) break;
        }
        k = i;
        for (i = 0; i < k; i++) { /* k positive weights summing to 1024 */
            w[i] = i == k - 1 ? left : 1 + (int)proper_rng_below(&rng, (uint64_t)(left - (k - 1 - i)));
            left -= w[i];
        }
        for (i = 1; i < k; i++) /* sorted targets: the builder takes rows in order */
            for (j = i; j > 0 && dst[j - 1] > dst[j]; j--) {
                uint32_t t = dst[j];
                int tw = w[j];
                dst[j] = dst[j - 1];
                w[j] = w[j - 1];
                dst[j - 1] = t;
                w[j - 1] = tw;
            }
        add_row(&b, s, dst, w, k, 1024);
    }
    {
        uint32_t d = end;
        int one = 1024;
        add_row(&b, end, &d, &one, 1, 1024);
    }
    if (proper_dtmc_builder_finish(&b, n, &x->m, &err)) die("builder", &err);
    {
        size_t ri;
        proper_dtmc_add_reward(&x->m, "steps", 1, 0, &ri, &err);
        for (s = 0; s < n; s++) proper_dtmc_reward_add_state(&x->m, ri, s, 1, &err);
    }
    exact_from_weights(x, 1024);
    proper_bitset_init(&x->goal);
    proper_bitset_create(&x->goal, n, &err);
    proper_bitset_set(&x->goal, end);
    x->reward = 1;
}

/* PROPER's minPathSum (tests/corpus/prism/minpathsum.pm) with p1..p5 open. */
static void make_minpathsum(model *x) {
    static const struct { uint32_t s, t; int var; int complement; } tr[] = {
        {0, 1, -1, 0}, {1, 2, 0, 0}, {1, 3, 0, 1}, {2, 21, -1, 0}, {3, 4, -1, 0}, {4, 5, -1, 0},
        {5, 6, -1, 0}, {6, 7, 1, 0}, {6, 9, 1, 1}, {7, 8, -1, 0}, {8, 6, -1, 0}, {9, 10, -1, 0},
        {10, 11, 2, 0}, {10, 13, 2, 1}, {11, 12, -1, 0}, {12, 10, -1, 0}, {13, 14, -1, 0}, {14, 15, 3, 0},
        {14, 20, 3, 1}, {15, 16, -1, 0}, {16, 17, 4, 0}, {16, 19, 4, 1}, {17, 18, -1, 0}, {18, 16, -1, 0},
        {19, 14, -1, 0}, {20, 21, -1, 0}, {21, 21, -1, 0}};
    static const char *const names[] = {"p1", "p2", "p3", "p4", "p5"};
    double pt[5] = {0.0912, 0.8181, 0.8, 0.8181, 0.8181};
    proper_dtmc_builder b;
    proper_error err;
    size_t i, ri;
    proper_dtmc_builder_init(&b);
    for (i = 0; i < sizeof tr / sizeof *tr; i++) {
        double p = tr[i].var < 0 ? 1 : tr[i].complement ? 1 - pt[tr[i].var] : pt[tr[i].var];
        if (proper_dtmc_builder_add_transition(&b, tr[i].s, tr[i].t, p, &err)) die("builder", &err);
    }
    if (proper_dtmc_builder_finish(&b, 22, &x->m, &err)) die("builder", &err);
    proper_dtmc_add_reward(&x->m, "time", 1, 0, &ri, &err);
    proper_dtmc_reward_add_state(&x->m, ri, 7, 0.01, &err);
    proper_dtmc_reward_add_state(&x->m, ri, 11, 0.01, &err);
    proper_dtmc_reward_add_state(&x->m, ri, 18, 0.03, &err);
    if (proper_exact_dtmc_create(&x->e, &x->m, 5, names, &err)) die("companion", &err);
    for (i = 0; i < sizeof tr / sizeof *tr; i++) {
        uint64_t k;
        proper_ratfun f, one;
        proper_rat c;
        if (tr[i].var < 0) continue;
        for (k = x->m.row[tr[i].s]; x->m.col[k] != tr[i].t; k++) continue;
        proper_ratfun_init(&f);
        proper_ratfun_init(&one);
        proper_rat_init(&c);
        proper_ratfun_set_var(&f, (uint32_t)tr[i].var, 5);
        if (tr[i].complement) {
            proper_rat_set_i64(&c, 1, 1);
            proper_ratfun_set_rat(&one, &c);
            proper_ratfun_sub(&f, &one, &f);
        }
        proper_exact_dtmc_set_fprob(&x->e, k, &f, &err);
        proper_ratfun_free(&f);
        proper_ratfun_free(&one);
        proper_rat_free(&c);
    }
    {
        const char *vals[3] = {"1/100", "1/100", "3/100"};
        uint32_t st[3] = {7, 11, 18};
        for (i = 0; i < 3; i++) {
            proper_ratfun f;
            proper_rat c;
            proper_ratfun_init(&f);
            proper_rat_init(&c);
            proper_rat_parse(&c, vals[i], strlen(vals[i]), "bench", &err);
            proper_ratfun_set_rat(&f, &c);
            proper_exact_dtmc_set_state_freward(&x->e, 0, st[i], &f, &err);
            proper_ratfun_free(&f);
            proper_rat_free(&c);
        }
    }
    if (proper_exact_dtmc_check(&x->e, &x->m, &err)) die("check", &err);
    proper_bitset_init(&x->goal);
    proper_bitset_create(&x->goal, 22, &err);
    proper_bitset_set(&x->goal, 21);
    x->reward = 1;
}

static void run_exact(void *ctx) {
    model *x = (model *)ctx;
    proper_exact_vec v;
    proper_error err;
    int rc;
    proper_exact_vec_init(&v);
    rc = x->reward ? proper_exact_reward_reach(&x->m, &x->e, 0, &x->goal, NULL, &v, &x->stats, &err)
                   : proper_exact_prob_until(&x->m, &x->e, NULL, &x->goal, NULL, &v, &x->stats, &err);
    if (rc) die("exact solve", &err);
    x->value = v.q ? proper_rat_to_double(&v.q[0]) : proper_ratfun_eval_double(&v.f[0], (const double[]){0.0912, 0.8181, 0.8, 0.8181, 0.8181}, 5);
    proper_exact_vec_free(&v);
}

static void run_double(void *ctx) {
    model *x = (model *)ctx;
    proper_dtmc_solve_opts o = proper_dtmc_solve_opts_default();
    proper_error err;
    double *v = (double *)calloc(x->m.n_states, sizeof *v);
    int rc = x->reward ? proper_dtmc_reward_reach(&x->m, &x->m.rewards[0], &x->goal, &o, v, NULL, &err)
                       : proper_dtmc_prob_until(&x->m, NULL, &x->goal, &o, v, NULL, &err);
    if (rc) die("double solve", &err);
    bench_keep(v[0]);
    if (x->value == x->value && x->value != 0 && fabs(v[0] - x->value) > 1e-9 * fabs(x->value) + 1e-12) {
        fprintf(stderr, "bench_exact: exact %.17g and double %.17g differ\n", x->value, v[0]);
        exit(1);
    }
    free(v);
}

static void measure(const char *name, model *x) {
    bench_result ex, db;
    char label[64];
    x->value = NAN;
    ex = bench_run(run_exact, x, BENCH_CPU, x->m.n_states >= 5000 ? 1 : 3, 0.05); /* minutes each at 10^4 */
    db = bench_run(run_double, x, BENCH_CPU, 5, 0.05);
    snprintf(label, sizeof label, "%s double", name);
    bench_print(stdout, label, &db, NULL);
    snprintf(label, sizeof label, "%s exact", name);
    bench_print(stdout, label, &ex, &db);
    printf("    %lu states solved, largest component %lu, fill %llu entries, largest number %lu limbs\n",
           (unsigned long)x->stats.n_solved, (unsigned long)x->stats.largest,
           (unsigned long long)x->stats.fill, (unsigned long)x->stats.max_limbs);
    fflush(stdout);
    proper_exact_dtmc_free(&x->e);
    proper_dtmc_free(&x->m);
    proper_bitset_free(&x->goal);
}

int main(int argc, char **argv) {
    uint32_t max_states = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 10000, n;
    model x;
    memset(&x, 0, sizeof x);
    for (n = argc > 2 ? max_states : 1000; n <= max_states; n *= 10) {
        char name[64];
        snprintf(name, sizeof name, "ruin %lu", (unsigned long)n);
        make_ruin(&x, n);
        measure(name, &x);
        snprintf(name, sizeof name, "local %lu W=10", (unsigned long)n);
        make_local(&x, n, 10, 1);
        measure(name, &x);
    }
    make_minpathsum(&x);
    measure("minPathSum parametric", &x);
    return 0;
}
