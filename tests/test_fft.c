/* Tests for fft.h: transforms against a direct DFT and closed forms, round
 * trips up to 2^22, the unordered layout, and plan validation. */
#define PROPER_IMPLEMENTATION
#include "../src/fft.h"
#include "test.h"

#include <stdlib.h>

#define PI_L 3.141592653589793238462643383279502884L

static double *alloc_doubles(size_t n) { return (double *)proper_calloc(n, sizeof(double)); }

static void fill_random(proper_rng *rng, double *x, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) x[i] = 2.0 * proper_rng_uniform(rng) - 1.0;
}

/* Direct DFT in long double with exact argument reduction (j*k mod n):
 * an independent reference for X[k] = sum_j x[j] e^{-2 pi i jk/n}. */
static void direct_dft(const double *x, size_t n, size_t k, double *re, double *im) {
    long double sr = 0, si = 0;
    size_t j;
    for (j = 0; j < n; j++) {
        long double a = -2.0L * PI_L * (long double)((j * k) % n) / (long double)n;
        sr += (long double)x[j] * cosl(a);
        si += (long double)x[j] * sinl(a);
    }
    *re = (double)sr;
    *im = (double)si;
}

static void test_forward_matches_direct_dft(void) {
    proper_rng rng;
    size_t n;
    proper_rng_seed(&rng, 1);
    for (n = 2; n <= 2048; n *= 2) {
        proper_fft_plan plan;
        double *x = alloc_doubles(n), *spec = alloc_doubles(n + 2), worst = 0, scale = 0;
        size_t k;
        proper_fft_plan_init(&plan);
        CHECK_INT(proper_fft_plan_create(&plan, n, NULL), 0);
        fill_random(&rng, x, n);
        proper_fft_forward(&plan, x, spec);
        for (k = 0; k < n; k++) scale += x[k] * x[k];
        scale = sqrt(scale * (double)n); /* |X[k]| <= ||x||_2 sqrt(n) */
        for (k = 0; k <= n / 2; k++) {
            double re, im;
            direct_dft(x, n, k, &re, &im);
            worst = fmax(worst, fmax(fabs(spec[k] - re), fabs(spec[n / 2 + 1 + k] - im)));
        }
        /* bound: a few ulps times log2(n) relative to the largest possible bin */
        CHECK(worst <= 1e-15 * 8 * log2((double)n + 1) * scale);
        proper_fft_plan_free(&plan);
        PROPER_FREE(x);
        PROPER_FREE(spec);
    }
}

/* An impulse at position j has the closed-form spectrum e^{-2 pi i jk/n};
 * checks the cache-blocked large sizes bin by bin. */
static void test_impulse_spectrum_large(void) {
    size_t sizes[] = {1u << 13, 1u << 16, 1u << 20}, t;
    for (t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        size_t n = sizes[t], j = n / 3 + 1, k;
        proper_fft_plan plan;
        double *x = alloc_doubles(n), *spec = alloc_doubles(n + 2), worst = 0;
        proper_fft_plan_init(&plan);
        CHECK_INT(proper_fft_plan_create(&plan, n, NULL), 0);
        x[j] = 1.0;
        proper_fft_forward(&plan, x, spec);
        for (k = 0; k <= n / 2; k++) {
            long double a = -2.0L * PI_L * (long double)((j * k) % n) / (long double)n;
            worst = fmax(worst, fabs(spec[k] - (double)cosl(a)));
            worst = fmax(worst, fabs(spec[n / 2 + 1 + k] - (double)sinl(a)));
        }
        CHECK(worst < 1e-13);
        proper_fft_plan_free(&plan);
        PROPER_FREE(x);
        PROPER_FREE(spec);
    }
}

/* The acceptance bound from issue 2: ||inverse(forward(x)) - x||_2 below
 * 1e-13 ||x||_2 for every power of two up to 2^22. */
static void test_round_trip_to_2_22(void) {
    proper_rng rng;
    size_t n, max_n = (size_t)1 << 22;
    double *x = alloc_doubles(max_n), *y = alloc_doubles(max_n), *spec = alloc_doubles(max_n + 2);
    proper_rng_seed(&rng, 2);
    for (n = 2; n <= max_n; n *= 2) {
        proper_fft_plan plan;
        double err2 = 0, norm2 = 0;
        size_t i;
        proper_fft_plan_init(&plan);
        CHECK_INT(proper_fft_plan_create(&plan, n, NULL), 0);
        fill_random(&rng, x, n);
        proper_fft_forward(&plan, x, spec);
        proper_fft_inverse(&plan, spec, y);
        for (i = 0; i < n; i++) {
            err2 += (y[i] - x[i]) * (y[i] - x[i]);
            norm2 += x[i] * x[i];
        }
        if (!(sqrt(err2) < 1e-13 * sqrt(norm2))) printf("  n=%zu relative error %g\n", n, sqrt(err2 / norm2));
        CHECK(sqrt(err2) < 1e-13 * sqrt(norm2));
        /* the unordered pair must round trip as well */
        proper_fft_forward_unordered(&plan, x, spec);
        proper_fft_inverse_unordered(&plan, spec, y);
        err2 = 0;
        for (i = 0; i < n; i++) err2 += (y[i] - x[i]) * (y[i] - x[i]);
        CHECK(sqrt(err2) < 1e-13 * sqrt(norm2));
        proper_fft_plan_free(&plan);
    }
    PROPER_FREE(x);
    PROPER_FREE(y);
    PROPER_FREE(spec);
}

static size_t bit_reverse(size_t p, size_t m) {
    size_t r = 0, bit;
    for (bit = 1; bit < m; bit <<= 1) r = (r << 1) | ((p & bit) ? 1 : 0);
    return r;
}

/* The unordered spectrum holds bin rev(p) at index p, bin n/2 last. */
static void test_unordered_layout(void) {
    proper_rng rng;
    size_t n;
    proper_rng_seed(&rng, 3);
    for (n = 2; n <= ((size_t)1 << 15); n *= 2) {
        proper_fft_plan plan;
        size_t m = n / 2, p, bad = 0;
        double *x = alloc_doubles(n), *a = alloc_doubles(n + 2), *b = alloc_doubles(n + 2);
        proper_fft_plan_init(&plan);
        CHECK_INT(proper_fft_plan_create(&plan, n, NULL), 0);
        fill_random(&rng, x, n);
        proper_fft_forward(&plan, x, a);
        proper_fft_forward_unordered(&plan, x, b);
        for (p = 0; p < m; p++) {
            size_t k = bit_reverse(p, m);
            if (a[k] != b[p] || a[m + 1 + k] != b[m + 1 + p]) bad++;
        }
        if (a[m] != b[m] || a[2 * m + 1] != b[2 * m + 1]) bad++;
        CHECK_INT(bad, 0);
        proper_fft_plan_free(&plan);
        PROPER_FREE(x);
        PROPER_FREE(a);
        PROPER_FREE(b);
    }
}

/* Pointwise products of unordered spectra invert to the circular
 * convolution, compared with the direct O(n^2) sum. */
static void test_circular_convolution(void) {
    proper_rng rng;
    size_t n;
    proper_rng_seed(&rng, 4);
    for (n = 2; n <= 1024; n *= 2) {
        proper_fft_plan plan;
        double *x = alloc_doubles(n), *y = alloc_doubles(n), *z = alloc_doubles(n);
        double *sx = alloc_doubles(n + 2), *sy = alloc_doubles(n + 2), worst = 0;
        size_t i, j;
        proper_fft_plan_init(&plan);
        CHECK_INT(proper_fft_plan_create(&plan, n, NULL), 0);
        fill_random(&rng, x, n);
        fill_random(&rng, y, n);
        proper_fft_forward_unordered(&plan, x, sx);
        proper_fft_forward_unordered(&plan, y, sy);
        proper_fft_multiply(&plan, sx, sy, sx);
        proper_fft_inverse_unordered(&plan, sx, z);
        for (i = 0; i < n; i++) {
            double direct = 0;
            for (j = 0; j < n; j++) direct += x[j] * y[(i + n - j) % n];
            worst = fmax(worst, fabs(z[i] - direct));
        }
        CHECK(worst < 1e-13 * (double)n);
        proper_fft_plan_free(&plan);
        PROPER_FREE(x); PROPER_FREE(y); PROPER_FREE(z); PROPER_FREE(sx); PROPER_FREE(sy);
    }
}

static void test_plan_validation(void) {
    proper_fft_plan plan;
    proper_error err;
    size_t bad[] = {0, 1, 3, 6, 1000}, i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        proper_fft_plan_init(&plan);
        CHECK_INT(proper_fft_plan_create(&plan, bad[i], &err), PROPER_EINVAL);
        CHECK_CONTAINS(err.message, "power of two");
        proper_fft_plan_free(&plan); /* empty on failure: freeing is harmless */
    }
    /* an output that holds a plan: unchanged on failure, replaced on success */
    proper_fft_plan_init(&plan);
    CHECK_INT(proper_fft_plan_create(&plan, 8, &err), 0);
    CHECK_INT(proper_fft_plan_create(&plan, 6, &err), PROPER_EINVAL);
    CHECK_INT(plan.n, 8);
    CHECK_INT(proper_fft_plan_create(&plan, 32, &err), 0);
    CHECK_INT(plan.n, 32);
    proper_fft_plan_free(&plan);
    proper_fft_plan_free(&plan);
    CHECK_INT(plan.n, 0);
    CHECK_INT(proper_fft_next_pow2(1), 1);
    CHECK_INT(proper_fft_next_pow2(5), 8);
    CHECK_INT(proper_fft_next_pow2(4096), 4096);
    CHECK_INT(proper_fft_next_pow2((size_t)-1), 0);
    CHECK(proper_fft_is_pow2(64) && !proper_fft_is_pow2(96) && !proper_fft_is_pow2(0));
}

int main(void) {
    RUN(test_forward_matches_direct_dft);
    RUN(test_impulse_spectrum_large);
    RUN(test_round_trip_to_2_22);
    RUN(test_unordered_layout);
    RUN(test_circular_convolution);
    RUN(test_plan_validation);
    return test_summary();
}
