/* Tests for pmf.h. Expected values come from closed forms (moments of sums,
 * geometric sums), hand-computed small PMFs (shown in comments), and
 * independent brute-force computations (direct convolution sums written out
 * here, not the library's). */
#define PROPER_IMPLEMENTATION
#include "../src/pmf.h"
#include "test.h"

#include <stdlib.h>
#include <time.h>

/* A random PMF of n bins (some bins zero) with the given offset and width. */
static void random_pmf(proper_pmf *x, proper_rng *rng, size_t n, double offset, double width) {
    double s = 0.0;
    size_t i;
    proper_pmf_free(x);
    x->p = (double *)proper_calloc(n, sizeof(double));
    x->n = n;
    x->offset = offset;
    x->width = width;
    x->tail = 0.0;
    for (i = 0; i < n; i++) {
        double u = proper_rng_uniform(rng);
        x->p[i] = u < 0.1 ? 0.0 : u;
        s += x->p[i];
    }
    if (s == 0.0) { x->p[0] = 1.0; s = 1.0; }
    for (i = 0; i < n; i++) x->p[i] /= s;
}

/* One output bin of the linear convolution, summed directly. */
static double direct_bin(const proper_pmf *a, const proper_pmf *b, size_t k) {
    double s = 0.0;
    size_t i = k + 1 > b->n ? k + 1 - b->n : 0, last = k < a->n - 1 ? k : a->n - 1;
    for (; i <= last; i++) s += a->p[i] * b->p[k - i];
    return s;
}

/* Issue 2: FFT convolution equals direct convolution within 1e-12 per bin
 * on random PMFs of sizes 1..2^16. Every bin is checked up to 2^12 x 2^12;
 * for larger pairs 3000 random bins plus the two ends. */
static void test_fft_equals_direct(void) {
    static const size_t sizes[] = {1, 2, 3, 7, 16, 33, 100, 255, 1000, 4096, 10007, 65536};
    proper_rng rng;
    proper_pmf a, b, c;
    size_t ia, ib, checked = 0, negatives = 0;
    double worst = 0.0;
    proper_rng_seed(&rng, 10);
    proper_pmf_init(&a);
    proper_pmf_init(&b);
    proper_pmf_init(&c);
    for (ia = 0; ia < sizeof sizes / sizeof sizes[0]; ia++)
        for (ib = 0; ib <= ia; ib++) {
            size_t na = sizes[ia], nb = sizes[ib], k, t;
            random_pmf(&a, &rng, na, 2.0, 0.5);
            random_pmf(&b, &rng, nb, -1.0, 0.5);
            CHECK_INT(proper_pmf_convolve_fft(&c, &a, &b, NULL), 0);
            CHECK_INT(c.n, na + nb - 1);
            CHECK_ABS(c.offset, 1.0, 0.0);
            if ((double)na * (double)nb <= 4096.0 * 4096.0) {
                for (k = 0; k < c.n; k++) worst = fmax(worst, fabs(c.p[k] - direct_bin(&a, &b, k)));
                checked += c.n;
            } else {
                for (t = 0; t < 3002; t++) {
                    k = t == 0 ? 0 : t == 1 ? c.n - 1 : (size_t)proper_rng_below(&rng, c.n);
                    worst = fmax(worst, fabs(c.p[k] - direct_bin(&a, &b, k)));
                }
                checked += 3002;
            }
            CHECK_ABS(proper_pmf_mass(&c) + c.tail, 1.0, 1e-12);
            for (k = 0; k < c.n; k++)
                if (c.p[k] < 0.0) negatives++;
        }
    CHECK(worst <= 1e-12);
    CHECK_INT(negatives, 0); /* round-off negatives are clamped */
    CHECK(checked > 100000);
    proper_pmf_free(&a);
    proper_pmf_free(&b);
    proper_pmf_free(&c);
}

/* The automatic choice agrees with direct summation as well, and the
 * result may overwrite an operand. */
static void test_convolve_auto_and_alias(void) {
    proper_rng rng;
    proper_pmf a, b, ref;
    size_t k, n;
    proper_rng_seed(&rng, 11);
    proper_pmf_init(&a);
    proper_pmf_init(&b);
    proper_pmf_init(&ref);
    for (n = 1; n <= 2048; n *= 4) {
        random_pmf(&a, &rng, n, 0.0, 1.0);
        random_pmf(&b, &rng, n + 3, 5.0, 1.0);
        CHECK_INT(proper_pmf_convolve_direct(&ref, &a, &b, NULL), 0);
        CHECK_INT(proper_pmf_convolve(&a, &a, &b, NULL), 0); /* out aliases a */
        CHECK_INT(a.n, ref.n);
        for (k = 0; k < ref.n; k++) CHECK_ABS(a.p[k], ref.p[k], 1e-12);
    }
    proper_pmf_free(&a);
    proper_pmf_free(&b);
    proper_pmf_free(&ref);
}

/* Closed forms: E[A+B] = E[A] + E[B], Var[A+B] = Var[A] + Var[B] for
 * independent A, B; E[X^{*n}] = n E[X], Var = n Var[X]. */
static void test_moments_of_sums(void) {
    proper_rng rng;
    proper_pmf a, b, c;
    proper_rng_seed(&rng, 12);
    proper_pmf_init(&a);
    proper_pmf_init(&b);
    proper_pmf_init(&c);
    random_pmf(&a, &rng, 300, 10.0, 0.25);
    random_pmf(&b, &rng, 5000, 3.0, 0.25);
    CHECK_INT(proper_pmf_convolve(&c, &a, &b, NULL), 0);
    CHECK_REL(proper_pmf_mean(&c), proper_pmf_mean(&a) + proper_pmf_mean(&b), 1e-12);
    CHECK_REL(proper_pmf_variance(&c), proper_pmf_variance(&a) + proper_pmf_variance(&b), 1e-10);
    CHECK_INT(proper_pmf_power(&c, &a, 7, NULL), 0);
    CHECK_REL(proper_pmf_mean(&c), 7 * proper_pmf_mean(&a), 1e-12);
    CHECK_REL(proper_pmf_variance(&c), 7 * proper_pmf_variance(&a), 1e-10);
    CHECK_ABS(c.offset, 70.0, 1e-12);
    CHECK_INT(c.n, 7 * 299 + 1);
    proper_pmf_free(&a);
    proper_pmf_free(&b);
    proper_pmf_free(&c);
}

/* proper_pmf_power against repeated direct convolution; n = 0 and 1. */
static void test_power(void) {
    proper_rng rng;
    proper_pmf x, ref, got;
    unsigned n;
    size_t k;
    proper_rng_seed(&rng, 13);
    proper_pmf_init(&x);
    proper_pmf_init(&ref);
    proper_pmf_init(&got);
    random_pmf(&x, &rng, 17, 0.3, 0.1); /* offset not a multiple of width: fine for a power */
    CHECK_INT(proper_pmf_power(&got, &x, 0, NULL), 0);
    CHECK_INT(got.n, 1);
    CHECK_ABS(got.offset, 0.0, 0.0);
    CHECK_ABS(got.p[0], 1.0, 0.0);
    CHECK_INT(proper_pmf_copy(&ref, &x, NULL), 0);
    for (n = 1; n <= 9; n++) {
        if (n > 1) CHECK_INT(proper_pmf_convolve_direct(&ref, &ref, &x, NULL), 0);
        CHECK_INT(proper_pmf_power(&got, &x, n, NULL), 0);
        CHECK_INT(got.n, ref.n);
        CHECK_ABS(got.offset, ref.offset, 1e-12);
        for (k = 0; k < ref.n && k < got.n; k++) CHECK_ABS(got.p[k], ref.p[k], 1e-12);
    }
    proper_pmf_free(&x);
    proper_pmf_free(&ref);
    proper_pmf_free(&got);
}

/* Issue 2: loops equal the explicit sum of convolutions
 * sum_i l(i) X^{*i}, built here by repeated direct convolution and mixing
 * on a common grid by hand. Bodies with positive, zero and negative offset,
 * and iteration PMFs with l(0) = 0 and l(0) > 0. */
static void test_loop_equals_explicit_sum(void) {
    static const double offsets[] = {3.0, 0.0, -2.0};
    static const double iters_a[] = {0.1, 0.2, 0.0, 0.3, 0.15, 0.25};
    static const double iters_b[] = {0.0, 0.0, 0.5, 0.0, 0.5};
    proper_rng rng;
    proper_pmf body, power, got, sum;
    size_t t, v;
    proper_rng_seed(&rng, 14);
    proper_pmf_init(&body);
    proper_pmf_init(&power);
    proper_pmf_init(&got);
    proper_pmf_init(&sum);
    for (t = 0; t < 3; t++)
        for (v = 0; v < 2; v++) {
            const double *l = v ? iters_b : iters_a;
            size_t nl = v ? 5 : 6, i, k;
            double lo = INFINITY, hi = -INFINITY, *acc;
            size_t bins;
            random_pmf(&body, &rng, 40, offsets[t] * 0.5, 0.5);
            CHECK_INT(proper_pmf_loop(&got, &body, l, nl, NULL), 0);
            /* explicit: accumulate l(i) * body^{*i} on a value-indexed grid */
            for (i = 0; i < nl; i++) {
                if (l[i] == 0.0) continue;
                lo = fmin(lo, (double)i * body.offset);
                hi = fmax(hi, (double)i * (body.offset + 39 * 0.5));
            }
            bins = (size_t)((hi - lo) / 0.5 + 0.5) + 1;
            acc = (double *)proper_calloc(bins, sizeof(double));
            CHECK_INT(proper_pmf_point(&power, 0.0, 0.5, NULL), 0);
            for (i = 0; i < nl; i++) {
                if (i > 0) CHECK_INT(proper_pmf_convolve_direct(&power, &power, &body, NULL), 0);
                if (l[i] == 0.0) continue;
                for (k = 0; k < power.n; k++) {
                    size_t at = (size_t)((power.offset + (double)k * 0.5 - lo) / 0.5 + 0.5);
                    acc[at] += l[i] * power.p[k];
                }
            }
            CHECK_INT(got.n, bins);
            CHECK_ABS(got.offset, lo, 1e-12);
            for (k = 0; k < bins && k < got.n; k++) CHECK_ABS(got.p[k], acc[k], 1e-12);
            PROPER_FREE(acc);
        }
    proper_pmf_free(&body);
    proper_pmf_free(&power);
    proper_pmf_free(&got);
    proper_pmf_free(&sum);
}

/* A long loop (up to 100 iterations), where most of the spectrum needs far
 * fewer than 100 Horner steps (PROPER_PMF_HORNER_TOL): every bin still
 * equals the explicit sum of repeated direct convolutions within 1e-12. */
static void test_long_loop_equals_explicit_sum(void) {
    proper_rng rng;
    proper_pmf body, power, got;
    double iters[101], s = 0.0, *acc, worst = 0.0;
    size_t i, k, bins = 100 * 63 + 1;
    proper_rng_seed(&rng, 17);
    proper_pmf_init(&body);
    proper_pmf_init(&power);
    proper_pmf_init(&got);
    random_pmf(&body, &rng, 64, 0.0, 1.0);
    for (i = 0; i <= 100; i++) s += (iters[i] = proper_rng_uniform(&rng));
    for (i = 0; i <= 100; i++) iters[i] /= s;
    CHECK_INT(proper_pmf_loop(&got, &body, iters, 101, NULL), 0);
    acc = (double *)proper_calloc(bins, sizeof(double));
    CHECK_INT(proper_pmf_point(&power, 0.0, 1.0, NULL), 0);
    for (i = 0; i <= 100; i++) {
        if (i > 0) CHECK_INT(proper_pmf_convolve_direct(&power, &power, &body, NULL), 0);
        for (k = 0; k < power.n; k++) acc[k] += iters[i] * power.p[k];
    }
    CHECK_INT(got.n, bins);
    for (k = 0; k < bins && k < got.n; k++) worst = fmax(worst, fabs(got.p[k] - acc[k]));
    CHECK(worst <= 1e-12);
    PROPER_FREE(acc);
    proper_pmf_free(&body);
    proper_pmf_free(&power);
    proper_pmf_free(&got);
}

/* Geometric closed forms for K ~ P(K = i) = (1-p) p^i:
 *   E[T] = E[K] E[X] = p/(1-p) E[X],
 *   Var[T] = E[K] Var[X] + Var[K] E[X]^2,  Var[K] = p/(1-p)^2.
 * The truncated mass must be at most eps and sit in the tail. */
static void test_markov_loop_closed_form(void) {
    static const double ps[] = {0.1, 0.5, 0.9, 0.98};
    proper_rng rng;
    proper_pmf body, got;
    size_t t;
    proper_rng_seed(&rng, 15);
    proper_pmf_init(&body);
    proper_pmf_init(&got);
    for (t = 0; t < sizeof ps / sizeof ps[0]; t++) {
        double p = ps[t], ek = p / (1 - p), vk = p / ((1 - p) * (1 - p)), eps = 1e-13;
        double ex, vx;
        random_pmf(&body, &rng, 64, 2.0, 1.0);
        ex = proper_pmf_mean(&body);
        vx = proper_pmf_variance(&body);
        CHECK_INT(proper_pmf_markov_loop(&got, &body, p, eps, NULL), 0);
        CHECK(got.tail <= eps);
        CHECK_ABS(proper_pmf_mass(&got) + got.tail, 1.0, 1e-12);
        CHECK_REL(proper_pmf_mean(&got), ek * ex, 1e-9);
        CHECK_REL(proper_pmf_variance(&got), ek * vx + vk * ex * ex, 1e-8);
        /* P(T = 0) = 1 - p: zero iterations (the body's offset is 2 > 0) */
        CHECK_ABS(got.p[0], 1 - p, 1e-12);
    }
    proper_pmf_free(&body);
    proper_pmf_free(&got);
}

/* Against an explicit truncated sum of convolutions, bin by bin: a small
 * body and p = 0.6; terms up to i = 80 (0.6^80 < 1e-17). */
static void test_markov_loop_explicit(void) {
    static const double vals[] = {1, 2, 4}, probs[] = {0.5, 0.3, 0.2};
    proper_pmf body, got, power;
    double *acc;
    size_t i, k, bins = 80 * 4 + 1;
    double p = 0.6, w = 1.0;
    proper_pmf_init(&body);
    proper_pmf_init(&got);
    proper_pmf_init(&power);
    CHECK_INT(proper_pmf_from_values(&body, vals, probs, 3, 1.0, NULL), 0);
    CHECK_INT(proper_pmf_markov_loop(&got, &body, p, 1e-14, NULL), 0);
    acc = (double *)proper_calloc(bins, sizeof(double));
    CHECK_INT(proper_pmf_point(&power, 0.0, 1.0, NULL), 0);
    for (i = 0; i <= 80; i++) {
        if (i > 0) CHECK_INT(proper_pmf_convolve_direct(&power, &power, &body, NULL), 0);
        for (k = 0; k < power.n; k++) acc[(size_t)(power.offset + (double)k)] += (1 - p) * w * power.p[k];
        w *= p;
    }
    for (k = 0; k < got.n && k < bins; k++) CHECK_ABS(got.p[k], acc[k], 1e-13);
    CHECK(got.tail <= 1e-14);
    PROPER_FREE(acc);
    proper_pmf_free(&body);
    proper_pmf_free(&got);
    proper_pmf_free(&power);
}

/* Hand-computed: values {1: 0.2, 2: 0.5, 4: 0.3}:
 * mean 2.4, E[X^2] = 0.2 + 2 + 4.8 = 7, variance 7 - 5.76 = 1.24, mode 2,
 * cdf(3) = 0.7, quantiles: q <= 0.2 -> 1, q <= 0.7 -> 2, above -> 4. */
static void test_stats_hand_computed(void) {
    static const double vals[] = {4, 1, 2}, probs[] = {0.3, 0.2, 0.5};
    proper_pmf x;
    proper_pmf_init(&x);
    CHECK_INT(proper_pmf_from_values(&x, vals, probs, 3, 0.0, NULL), 0);
    CHECK_INT(x.n, 4);
    CHECK_ABS(x.width, 1.0, 1e-15);
    CHECK_ABS(x.offset, 1.0, 0.0);
    CHECK_REL(proper_pmf_mean(&x), 2.4, 1e-15);
    CHECK_REL(proper_pmf_variance(&x), 1.24, 1e-14);
    CHECK_REL(proper_pmf_std(&x), sqrt(1.24), 1e-14);
    CHECK_ABS(proper_pmf_mode(&x), 2.0, 0.0);
    CHECK_ABS(proper_pmf_cdf(&x, 3.0), 0.7, 1e-15);
    CHECK_ABS(proper_pmf_cdf(&x, 0.99), 0.0, 0.0);
    CHECK_ABS(proper_pmf_cdf(&x, 4.0), 1.0, 1e-15);
    CHECK_ABS(proper_pmf_quantile(&x, 0.0), 1.0, 0.0);
    CHECK_ABS(proper_pmf_quantile(&x, 0.2), 1.0, 0.0);
    CHECK_ABS(proper_pmf_quantile(&x, 0.5), 2.0, 0.0);
    CHECK_ABS(proper_pmf_quantile(&x, 0.7), 2.0, 0.0);
    CHECK_ABS(proper_pmf_quantile(&x, 0.71), 4.0, 0.0);
    CHECK_ABS(proper_pmf_quantile(&x, 1.0), 4.0, 0.0);
    CHECK(isnan(proper_pmf_quantile(&x, 1.5)));
    proper_pmf_free(&x);
    CHECK(isnan(proper_pmf_mean(&x))); /* empty */
}

/* Tail semantics: truncating bins {0.5, 0.3, 0.15, 0.05} with eps 0.06 moves
 * the last bin into the tail; moments condition on the grid (mean of
 * {0:0.5, 1:0.3, 2:0.15} / 0.95 = 0.6 / 0.95), the cdf does not, and the
 * 0.99-quantile lies in the tail (+inf). */
static void test_truncate_and_tail_semantics(void) {
    static const double vals[] = {0, 1, 2, 3}, probs[] = {0.5, 0.3, 0.15, 0.05};
    proper_pmf x;
    proper_pmf_init(&x);
    CHECK_INT(proper_pmf_from_values(&x, vals, probs, 4, 1.0, NULL), 0);
    proper_pmf_truncate(&x, 0.06);
    CHECK_INT(x.n, 3);
    CHECK_ABS(x.tail, 0.05, 1e-15);
    CHECK_REL(proper_pmf_mean(&x), 0.6 / 0.95, 1e-14);
    CHECK_ABS(proper_pmf_cdf(&x, 10.0), 0.95, 1e-15);
    CHECK_ABS(proper_pmf_quantile(&x, 0.9), 2.0, 0.0);
    CHECK(isinf(proper_pmf_quantile(&x, 0.99)));
    CHECK_INT(proper_pmf_validate(&x, NULL), 0);
    proper_pmf_free(&x);
}

/* Convolution combines tails as 1 - (1-ta)(1-tb); loops as
 * 1 - sum_i l(i) (1-t)^i. */
static void test_tail_propagation(void) {
    static const double vals[] = {0, 1, 2, 3}, probs[] = {0.5, 0.3, 0.15, 0.05};
    static const double iters[] = {0.5, 0.25, 0.25};
    proper_pmf x, c;
    proper_pmf_init(&x);
    proper_pmf_init(&c);
    CHECK_INT(proper_pmf_from_values(&x, vals, probs, 4, 1.0, NULL), 0);
    proper_pmf_truncate(&x, 0.06); /* tail 0.05 */
    CHECK_INT(proper_pmf_convolve(&c, &x, &x, NULL), 0);
    CHECK_ABS(c.tail, 1 - 0.95 * 0.95, 1e-15);
    CHECK_ABS(proper_pmf_mass(&c) + c.tail, 1.0, 1e-12);
    CHECK_INT(proper_pmf_loop(&c, &x, iters, 3, NULL), 0);
    CHECK_ABS(c.tail, 1 - (0.5 + 0.25 * 0.95 + 0.25 * 0.95 * 0.95), 1e-15);
    CHECK_ABS(proper_pmf_mass(&c) + c.tail, 1.0, 1e-12);
    /* Markovian: grid mass sum_i (1-p) p^i 0.95^i = (1-p) / (1 - 0.95 p),
     * less at most eps of truncation */
    CHECK_INT(proper_pmf_markov_loop(&c, &x, 0.5, 1e-12, NULL), 0);
    CHECK(c.tail >= 1 - 0.5 / (1 - 0.95 * 0.5) - 1e-12);
    CHECK(c.tail <= 1 - 0.5 / (1 - 0.95 * 0.5) + 1e-12 + 1e-12);
    CHECK_ABS(proper_pmf_mass(&c) + c.tail, 1.0, 1e-12);
    proper_pmf_free(&x);
    proper_pmf_free(&c);
}

/* Mixture: bin-wise weighted sum on the union grid; mean is the weighted
 * mean (law of total expectation). */
static void test_mixture(void) {
    static const double va[] = {1, 2}, pa[] = {0.5, 0.5}, vb[] = {3, 5}, pb[] = {0.25, 0.75};
    static const double weights[] = {0.4, 0.6};
    proper_pmf a, b, m;
    const proper_pmf *xs[2];
    proper_pmf_init(&a);
    proper_pmf_init(&b);
    proper_pmf_init(&m);
    CHECK_INT(proper_pmf_from_values(&a, va, pa, 2, 1.0, NULL), 0);
    CHECK_INT(proper_pmf_from_values(&b, vb, pb, 2, 1.0, NULL), 0);
    xs[0] = &a;
    xs[1] = &b;
    CHECK_INT(proper_pmf_mixture(&m, xs, weights, 2, NULL), 0);
    /* grid 1..5: {0.2, 0.2, 0.15, 0, 0.45} */
    CHECK_INT(m.n, 5);
    CHECK_ABS(m.offset, 1.0, 0.0);
    CHECK_ABS(m.p[0], 0.2, 1e-15);
    CHECK_ABS(m.p[1], 0.2, 1e-15);
    CHECK_ABS(m.p[2], 0.15, 1e-15);
    CHECK_ABS(m.p[3], 0.0, 0.0);
    CHECK_ABS(m.p[4], 0.45, 1e-15);
    CHECK_REL(proper_pmf_mean(&m), 0.4 * 1.5 + 0.6 * 4.5, 1e-14);
    proper_pmf_free(&a);
    proper_pmf_free(&b);
    proper_pmf_free(&m);
}

/* from_samples: grid anchored at multiples of width, nearest point.
 * Samples {1.1, 1.9, 2.0, 3.4} at width 1 -> bins 1:1/4, 2:2/4, 3:1/4. */
static void test_from_samples_and_gcd(void) {
    static const double xs[] = {1.1, 1.9, 2.0, 3.4};
    static const double ms[] = {0.3, 0.6, 1.5, 0.9};
    proper_pmf x;
    double w = 0;
    proper_pmf_init(&x);
    CHECK_INT(proper_pmf_from_samples(&x, xs, 4, 1.0, NULL), 0);
    CHECK_INT(x.n, 3);
    CHECK_ABS(x.offset, 1.0, 0.0);
    CHECK_ABS(x.p[0], 0.25, 0.0);
    CHECK_ABS(x.p[1], 0.5, 0.0);
    CHECK_ABS(x.p[2], 0.25, 0.0);
    /* Koziolek & Firus gcd rule: gcd(3, 6, 15, 9) tenths = 0.3 */
    CHECK_INT(proper_pmf_gcd_width(ms, 4, 0.1, &w, NULL), 0);
    CHECK_REL(w, 0.3, 1e-15);
    CHECK_INT(proper_pmf_from_samples(&x, ms, 4, w, NULL), 0);
    CHECK_INT(x.n, 5); /* 0.3 .. 1.5 */
    CHECK_ABS(x.p[0], 0.25, 0.0);
    CHECK_ABS(x.p[1], 0.25, 0.0);
    CHECK_ABS(x.p[2], 0.25, 0.0);
    CHECK_ABS(x.p[3], 0.0, 0.0);
    CHECK_ABS(x.p[4], 0.25, 0.0);
    proper_pmf_free(&x);
}

/* Resampling splits mass linearly: the mean is exact. Hand case: values
 * {0: 0.5, 1: 0.5} at width 2 -> 0 gets 0.5 + 0.25, 2 gets 0.25. */
static void test_resample(void) {
    static const double vals[] = {0, 1}, probs[] = {0.5, 0.5};
    proper_rng rng;
    proper_pmf x, r;
    proper_rng_seed(&rng, 16);
    proper_pmf_init(&x);
    proper_pmf_init(&r);
    CHECK_INT(proper_pmf_from_values(&x, vals, probs, 2, 1.0, NULL), 0);
    CHECK_INT(proper_pmf_resample(&r, &x, 2.0, NULL), 0);
    CHECK_INT(r.n, 2);
    CHECK_ABS(r.p[0], 0.75, 1e-15);
    CHECK_ABS(r.p[1], 0.25, 1e-15);
    random_pmf(&x, &rng, 1000, 0.37, 0.01);
    CHECK_INT(proper_pmf_resample(&r, &x, 0.07, NULL), 0);
    CHECK_REL(proper_pmf_mean(&r), proper_pmf_mean(&x), 1e-12);
    CHECK(proper_pmf_variance(&r) >= proper_pmf_variance(&x) - 1e-12);
    CHECK(proper_pmf_variance(&r) <= proper_pmf_variance(&x) + 0.07 * 0.07 / 4);
    proper_pmf_free(&x);
    proper_pmf_free(&r);
}

static void test_csv_parse_and_round_trip(void) {
    static const char text[] =
        "# response times\n"
        "value, prob\n"
        "0.1, 0.25\n"
        "\n"
        "0.3,0.5\r\n"
        "0.4 ,0.25\n";
    proper_pmf x, y;
    proper_error err;
    char buf[4096];
    FILE *f;
    size_t len;
    proper_pmf_init(&x);
    proper_pmf_init(&y);
    CHECK_INT(proper_pmf_parse_csv(&x, text, strlen(text), "t.csv", 0.0, &err), 0);
    /* inferred width 0.1, grid 0.1..0.4 with a zero at 0.2 */
    CHECK_INT(x.n, 4);
    CHECK_REL(x.width, 0.1, 1e-9);
    CHECK_ABS(x.p[1], 0.0, 0.0);
    CHECK_ABS(x.p[2], 0.5, 0.0);
    CHECK_REL(proper_pmf_mean(&x), 0.025 + 0.15 + 0.1, 1e-12);
    /* explicit width: values go to the nearest multiple of 0.25:
     * 0.1 -> 0, 0.3 -> 0.25, 0.4 -> 0.5 */
    CHECK_INT(proper_pmf_parse_csv(&y, text, strlen(text), "t.csv", 0.25, &err), 0);
    CHECK_ABS(y.offset, 0.0, 0.0);
    CHECK_INT(y.n, 3);
    CHECK_ABS(y.p[0], 0.25, 1e-15);
    CHECK_ABS(y.p[1], 0.5, 1e-15);
    CHECK_ABS(y.p[2], 0.25, 1e-15);
    /* write and read back, with a tail */
    proper_pmf_truncate(&x, 0.3);
    CHECK_ABS(x.tail, 0.25, 0.0);
    f = tmpfile();
    CHECK(f != NULL);
    if (!f) return;
    CHECK_INT(proper_pmf_write_csv(&x, f, &err), 0);
    rewind(f);
    len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = '\0';
    fclose(f);
    CHECK_CONTAINS(buf, "inf,0.25");
    CHECK_INT(proper_pmf_parse_csv(&y, buf, len, "w.csv", 0.0, &err), 0);
    CHECK_INT(y.n, x.n);
    CHECK_ABS(y.tail, 0.25, 1e-15);
    CHECK_REL(proper_pmf_mean(&y), proper_pmf_mean(&x), 1e-12);
    proper_pmf_free(&x);
    proper_pmf_free(&y);
}

/* parse text; expect failure with code, line, col and a message fragment */
static void expect_csv_error(const char *text, int code, int line, int col, const char *fragment) {
    proper_pmf x;
    proper_error err;
    int rc;
    proper_pmf_init(&x);
    proper_error_clear(&err);
    rc = proper_pmf_parse_csv(&x, text, strlen(text), "bad.csv", 0.0, &err);
    CHECK_INT(rc, code);
    CHECK_INT(err.line, line);
    CHECK_INT(err.col, col);
    CHECK_STR(err.file, "bad.csv");
    CHECK_CONTAINS(err.message, fragment);
    CHECK(x.n == 0 && x.p == NULL); /* untouched on failure */
    proper_pmf_free(&x);
}

static void test_bad_csv(void) {
    expect_csv_error("value,prob\n1,0.5\n2;0.5\n", PROPER_EPARSE, 3, 2, "expected ','");
    expect_csv_error("1,0.5\n2,0.5x\n", PROPER_EPARSE, 2, 6, "unexpected 'x'");
    expect_csv_error("1,0.5\n2,abc\n", PROPER_EPARSE, 2, 3, "expected a number");
    expect_csv_error("1,0.5\n2,0.5,7\n", PROPER_EPARSE, 2, 6, "end of the line");
    expect_csv_error("1,1.5\n2,-0.5\n", PROPER_EPROB, 2, 3, "negative probability");
    expect_csv_error("1,0.5\n  2, nan\n", PROPER_EPROB, 2, 6, "probability is nan");
    expect_csv_error("nan,0.5\n2,0.5\n", PROPER_EINVAL, 1, 1, "value is nan");
    expect_csv_error("1,0\n2,0\n", PROPER_EPROB, 0, 0, "sum to zero");
    expect_csv_error("1,0.5\n2,0.4\n", PROPER_EPROB, 0, 0, "sum to 0.9");
    expect_csv_error("value,prob\n# nothing\n", PROPER_EPARSE, 3, 1, "no \"value,prob\" rows");
    expect_csv_error("1,0.5\nvalue,prob\n", PROPER_EPARSE, 2, 1, "expected a number");
}

static void test_bad_arguments(void) {
    static const double vals[] = {0, 1}, probs[] = {0.5, 0.5}, iters[] = {0.5, 0.5};
    static const double bad_probs[] = {0.5, -0.5}, nan_iters[] = {NAN, 1.0};
    proper_pmf a, b, c;
    proper_error err;
    double w;
    proper_pmf_init(&a);
    proper_pmf_init(&b);
    proper_pmf_init(&c);
    CHECK_INT(proper_pmf_from_values(&a, vals, probs, 2, 1.0, NULL), 0);
    CHECK_INT(proper_pmf_from_values(&b, vals, probs, 2, 0.5, NULL), 0);
    /* mismatched widths: an error, never a silent resample */
    CHECK_INT(proper_pmf_convolve(&c, &a, &b, &err), PROPER_EINVAL);
    CHECK_CONTAINS(err.message, "bin widths differ");
    CHECK_INT(proper_pmf_convolve_fft(&c, &a, &b, &err), PROPER_EINVAL);
    {
        const proper_pmf *xs[2];
        double ws[2] = {0.5, 0.5};
        xs[0] = &a;
        xs[1] = &b;
        CHECK_INT(proper_pmf_mixture(&c, xs, ws, 2, &err), PROPER_EINVAL);
        CHECK_CONTAINS(err.message, "bin widths differ");
    }
    CHECK(c.n == 0);
    CHECK_INT(proper_pmf_from_values(&c, vals, bad_probs, 2, 1.0, &err), PROPER_EPROB);
    CHECK_CONTAINS(err.message, "negative probability");
    CHECK_INT(proper_pmf_loop(&c, &a, nan_iters, 2, &err), PROPER_EPROB);
    CHECK_INT(proper_pmf_markov_loop(&c, &a, 1.0, 1e-12, &err), PROPER_EPROB);
    CHECK_INT(proper_pmf_markov_loop(&c, &a, 0.5, 0.0, &err), PROPER_EINVAL);
    CHECK_INT(proper_pmf_point(&c, 1.0, 0.0, &err), PROPER_EINVAL);
    CHECK_INT(proper_pmf_from_samples(&c, vals, 2, -1.0, &err), PROPER_EINVAL);
    CHECK_INT(proper_pmf_gcd_width(vals, 2, 0.0, &w, &err), PROPER_EINVAL);
    /* a loop body whose offset is not a whole number of widths */
    a.offset = 0.5;
    CHECK_INT(proper_pmf_loop(&c, &a, iters, 2, &err), PROPER_EINVAL);
    CHECK_CONTAINS(err.message, "whole number of bin widths");
    CHECK(c.n == 0);
    CHECK_INT(proper_pmf_convolve(&c, &a, &c, &err), PROPER_EINVAL); /* empty operand */
    CHECK_CONTAINS(err.message, "empty PMF");
    proper_pmf_free(&a);
    proper_pmf_free(&b);
    proper_pmf_free(&c);
}

/* "count,prob" rows to a dense iteration PMF; bad counts with positions. */
static void test_parse_counts(void) {
    static const char good[] = "count,prob\n0,0.25\n3,0.5\n0,0.25\n";
    static const char frac[] = "0,0.5\n1.5,0.5\n";
    static const char neg[] = "0,0.5\n-1,0.5\n";
    static const char badp[] = "0,1.5\n1, -0.5\n";
    double *probs = NULL;
    size_t n = 0;
    proper_error err;
    CHECK_INT(proper_pmf_parse_counts(good, strlen(good), "it.csv", &probs, &n, &err), 0);
    CHECK_INT(n, 4);
    if (probs && n == 4) {
        CHECK_ABS(probs[0], 0.5, 0.0); /* repeated counts add */
        CHECK_ABS(probs[1], 0.0, 0.0);
        CHECK_ABS(probs[3], 0.5, 0.0);
    }
    PROPER_FREE(probs);
    CHECK_INT(proper_pmf_parse_counts(frac, strlen(frac), "it.csv", &probs, &n, &err), PROPER_EINVAL);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.col, 1);
    CHECK_CONTAINS(err.message, "iteration count must be an integer");
    CHECK(probs == NULL && n == 0);
    CHECK_INT(proper_pmf_parse_counts(neg, strlen(neg), "it.csv", &probs, &n, &err), PROPER_EINVAL);
    CHECK_INT(err.line, 2);
    CHECK_INT(proper_pmf_parse_counts(badp, strlen(badp), "it.csv", &probs, &n, &err), PROPER_EPROB);
    CHECK_INT(err.line, 2);
    CHECK_INT(err.col, 4);
    CHECK_CONTAINS(err.message, "negative probability");
}

/* Issue 14: an operation whose result leaves the range of doubles fails
 * (PROPER_ERANGE) and leaves its output alone, instead of returning a PMF
 * with offset -inf (mean -inf, NaN quantiles). */
static void test_result_out_of_double_range_fails(void) {
    static const char text[] = "value,prob\n0,0.5\n-1e308,0.5\n";
    static const double twice[] = {0.0, 0.0, 1.0};
    proper_pmf x, r;
    proper_error err;
    proper_pmf_init(&x);
    proper_pmf_init(&r);
    CHECK_INT(proper_pmf_parse_csv(&x, text, sizeof text - 1, "big.csv", 0.0, NULL), 0);
    CHECK_REL(proper_pmf_mean(&x), -5e307, 1e-15);
    CHECK_INT(proper_pmf_point(&r, 7.0, 1.0, NULL), 0);
    CHECK_INT(proper_pmf_convolve(&r, &x, &x, &err), PROPER_ERANGE);
    CHECK_CONTAINS(err.message, "range of a double");
    CHECK_INT(r.n, 1); /* unchanged */
    CHECK_ABS(r.offset, 7.0, 0.0);
    CHECK_INT(proper_pmf_convolve_direct(&r, &x, &x, NULL), PROPER_ERANGE);
    CHECK_INT(proper_pmf_convolve_fft(&r, &x, &x, NULL), PROPER_ERANGE);
    CHECK_INT(proper_pmf_power(&r, &x, 2, NULL), PROPER_ERANGE);
    CHECK_INT(proper_pmf_loop(&r, &x, twice, 3, NULL), PROPER_ERANGE);
    CHECK_ABS(r.offset, 7.0, 0.0);
    proper_pmf_free(&x);
    proper_pmf_free(&r);
}

/* Issue 14: moments of tiny spreads and far locations, against exact
 * values: two equal masses d apart have std d/2 (the width^2 of the old
 * formula underflowed 1e-600 to 0); 1e15 + {0, 1, 2} with 1/4, 1/2, 1/4
 * has mean 1e15 + 1 and variance 1/2. */
static void test_moments_tiny_spread_exact(void) {
    static const char tiny[] = "value,prob\n0,0.5\n1e-300,0.5\n";
    static const double v[] = {1e15, 1e15 + 1, 1e15 + 2}, q[] = {0.25, 0.5, 0.25};
    proper_pmf x;
    proper_pmf_init(&x);
    CHECK_INT(proper_pmf_parse_csv(&x, tiny, sizeof tiny - 1, "tiny.csv", 0.0, NULL), 0);
    CHECK_REL(proper_pmf_std(&x), 5e-301, 1e-15);
    CHECK_REL(proper_pmf_mean(&x), 5e-301, 1e-15);
    CHECK_INT(proper_pmf_from_values(&x, v, q, 3, 1.0, NULL), 0);
    CHECK_ABS(proper_pmf_mean(&x), 1e15 + 1, 0.0);
    CHECK_ABS(proper_pmf_variance(&x), 0.5, 1e-15);
    proper_pmf_free(&x);
}

/* P(sum of j copies of 1 + Bernoulli(1/2) = v) = C(j, v - j) 2^-j. */
static double binom_half(size_t j, long long k) {
    if (k < 0 || (size_t)k > j) return 0.0;
    return exp(lgamma((double)j + 1) - lgamma((double)k + 1) - lgamma((double)(j - (size_t)k) + 1) - (double)j * log(2.0));
}

/* Issue 14: a loop over 10^6 iteration counts (uniform on 0..10^6-1) of the
 * body {1: 1/2, 2: 1/2} took over 90 s (Horner's rule at every frequency);
 * with the halving it takes about a second. Checked against closed forms:
 * E = 1.5 E[J], Var = 0.25 E[J] + 2.25 Var[J] (Var[J] = (D^2 - 1) / 12),
 * and bins against the binomial sum sum_j C(j, v - j) 2^-j / D. */
static void test_loop_1e6_counts_in_seconds(void) {
    const size_t D = 1000000;
    double *c = (double *)proper_calloc(D, sizeof(double)), ej = (double)(D - 1) / 2.0;
    double vj = ((double)D * (double)D - 1.0) / 12.0;
    static const double bv[] = {1.0, 2.0}, bq[] = {0.5, 0.5};
    static const long long probe[] = {0, 1, 3, 100, 750000, 1499997};
    proper_pmf body, r;
    clock_t t0;
    size_t i, k;
    proper_pmf_init(&body);
    proper_pmf_init(&r);
    for (i = 0; i < D; i++) c[i] = 1.0 / (double)D;
    CHECK_INT(proper_pmf_from_values(&body, bv, bq, 2, 1.0, NULL), 0);
    t0 = clock();
    CHECK_INT(proper_pmf_loop(&r, &body, c, D, NULL), 0);
    CHECK((double)(clock() - t0) / CLOCKS_PER_SEC < 30.0);
    CHECK_INT(proper_pmf_validate(&r, NULL), 0);
    CHECK_REL(proper_pmf_mean(&r), 1.5 * ej, 1e-9);
    CHECK_REL(proper_pmf_variance(&r), 0.25 * ej + 2.25 * vj, 1e-9);
    for (k = 0; k < sizeof probe / sizeof probe[0]; k++) {
        long long v = probe[k];
        double want = 0.0;
        size_t j;
        for (j = 0; j < D; j++) want += binom_half(j, v - (long long)j) / (double)D;
        CHECK_ABS(proper_pmf_cdf(&r, (double)v) - proper_pmf_cdf(&r, (double)v - 1.0), want, 1e-13);
    }
    PROPER_FREE(c);
    proper_pmf_free(&body);
    proper_pmf_free(&r);
}

/* The halving path (more than PROPER_PMF_LOOP_SPLIT counts) with a body
 * of negative offset and counts starting above 0, against the explicit
 * sum of repeated direct convolutions. */
static void test_loop_halving_negative_offset(void) {
    proper_rng rng;
    proper_pmf body, power, got;
    double iters[300], s = 0.0, *acc, worst = 0.0, lo;
    size_t i, k, bins;
    proper_rng_seed(&rng, 23);
    proper_pmf_init(&body);
    proper_pmf_init(&power);
    proper_pmf_init(&got);
    random_pmf(&body, &rng, 5, -2.0, 1.0); /* values -2..2 */
    for (i = 0; i < 300; i++) s += (iters[i] = i < 37 ? 0.0 : proper_rng_uniform(&rng));
    for (i = 0; i < 300; i++) iters[i] /= s;
    CHECK_INT(proper_pmf_loop(&got, &body, iters, 300, NULL), 0);
    lo = -2.0 * 299;
    bins = 4 * 299 + 1;
    acc = (double *)proper_calloc(bins, sizeof(double));
    CHECK_INT(proper_pmf_point(&power, 0.0, 1.0, NULL), 0);
    for (i = 0; i < 300; i++) {
        if (i > 0) CHECK_INT(proper_pmf_convolve_direct(&power, &power, &body, NULL), 0);
        for (k = 0; k < power.n; k++) acc[(size_t)(power.offset + (double)k - lo)] += iters[i] * power.p[k];
    }
    CHECK_INT(got.n, bins);
    CHECK_ABS(got.offset, lo, 0.0);
    for (k = 0; k < bins && k < got.n; k++) worst = fmax(worst, fabs(got.p[k] - acc[k]));
    CHECK(worst <= 1e-12);
    PROPER_FREE(acc);
    proper_pmf_free(&body);
    proper_pmf_free(&power);
    proper_pmf_free(&got);
}

/* Issue 14: a leading UTF-8 BOM is skipped by the CSV and counts readers;
 * columns count from after it (1:3 is the 'x' below). */
static void test_bom_accepted(void) {
    static const char csv[] = "\xEF\xBB\xBFvalue,prob\n1,0.25\n3,0.75\n";
    static const char nohead[] = "\xEF\xBB\xBF" "2,1\n";
    static const char bad[] = "\xEF\xBB\xBF" "1,x\n";
    static const char counts[] = "\xEF\xBB\xBF" "0,0.5\n2,0.5\n";
    proper_pmf x;
    proper_error err;
    double *probs = NULL;
    size_t n = 0;
    proper_pmf_init(&x);
    CHECK_INT(proper_pmf_parse_csv(&x, csv, sizeof csv - 1, "b.csv", 0.0, &err), 0);
    CHECK_ABS(proper_pmf_mean(&x), 2.5, 1e-15);
    CHECK_INT(proper_pmf_parse_csv(&x, nohead, sizeof nohead - 1, "b.csv", 0.0, &err), 0);
    CHECK_ABS(proper_pmf_mean(&x), 2.0, 0.0);
    CHECK_INT(proper_pmf_parse_csv(&x, bad, sizeof bad - 1, "b.csv", 0.0, &err), PROPER_EPARSE);
    CHECK_INT(err.line, 1);
    CHECK_INT(err.col, 3);
    CHECK_INT(proper_pmf_parse_counts(counts, sizeof counts - 1, "c.csv", &probs, &n, &err), 0);
    CHECK_INT(n, 3);
    if (n == 3) CHECK_ABS(probs[2], 0.5, 0.0);
    PROPER_FREE(probs);
    proper_pmf_free(&x);
}

int main(void) {
    RUN(test_bom_accepted);
    RUN(test_fft_equals_direct);
    RUN(test_convolve_auto_and_alias);
    RUN(test_moments_of_sums);
    RUN(test_power);
    RUN(test_loop_equals_explicit_sum);
    RUN(test_long_loop_equals_explicit_sum);
    RUN(test_markov_loop_closed_form);
    RUN(test_markov_loop_explicit);
    RUN(test_stats_hand_computed);
    RUN(test_truncate_and_tail_semantics);
    RUN(test_tail_propagation);
    RUN(test_mixture);
    RUN(test_from_samples_and_gcd);
    RUN(test_resample);
    RUN(test_csv_parse_and_round_trip);
    RUN(test_bad_csv);
    RUN(test_bad_arguments);
    RUN(test_parse_counts);
    RUN(test_result_out_of_double_range_fails);
    RUN(test_moments_tiny_spread_exact);
    RUN(test_loop_1e6_counts_in_seconds);
    RUN(test_loop_halving_negative_offset);
    return test_summary();
}
