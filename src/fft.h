/* fft.h — real-input FFT plans for power-of-two sizes.
 *
 * A plan for length n (a power of two, n >= 2) holds precomputed twiddle
 * factors; transforms never allocate. The real transform of length n is a
 * complex FFT of length m = n/2 on the packed sequence z[j] = x[2j] + i x[2j+1]
 * followed by a "real-packing" pass that separates the spectra of the even and
 * odd samples (X[k] = E[k] + W_n^k O[k]). The complex FFT is an iterative
 * radix-4 decimation in frequency (one radix-2 stage when log2(m) is odd) on
 * separate real and imaginary arrays, so that the butterfly loops run over
 * contiguous memory and vectorise. Stages whose span exceeds
 * PROPER_FFT_BLOCK complex points run as whole-array passes; all smaller
 * stages run block by block while the block stays in cache.
 *
 * Spectrum layout ("split"): a spectrum of a length-n transform is n + 2
 * doubles: re[k] = spec[k] for k = 0..n/2, then im[k] = spec[n/2 + 1 + k].
 * Bins 0 and n/2 have zero imaginary part for real input.
 *
 * Two orders are offered:
 *   - natural order (proper_fft_forward / proper_fft_inverse): bin k at index k;
 *   - unordered (proper_fft_forward_unordered / proper_fft_inverse_unordered):
 *     bins 0..n/2-1 in bit-reversed order (index p holds bin rev(p) over
 *     log2(n/2) bits), bin n/2 at index n/2. It skips the bit-reversal
 *     permutation and is the fast path for convolution, where the spectrum is
 *     only multiplied pointwise: a pointwise product of two unordered spectra,
 *     inverted with proper_fft_inverse_unordered, is the circular convolution.
 *
 * Scaling: forward is unnormalised, X[k] = sum_j x[j] e^{-2 pi i jk/n}; inverse
 * divides by n, so inverse(forward(x)) == x up to round-off.
 *
 * Inverse transforms use their input spectrum as workspace and overwrite it
 * (as FFTW's c2r does). The forward transform leaves its input untouched.
 *
 * Thread safety: a plan is read-only during transforms and the transforms
 * need no scratch memory, so one plan may be shared by any number of threads
 * running transforms at the same time on different buffers.
 *
 * Accuracy: the round trip error is below 1e-13 of the input's 2-norm for
 * all sizes up to 2^22 (tests/test_fft.c checks every size); twiddles are
 * computed directly with cos/sin, never by recurrence.
 */
#ifndef PROPER_FFT_H
#define PROPER_FFT_H

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest number of radix-4 stages a plan can hold (m up to 2^62). */
#define PROPER_FFT_MAX_STAGES 32

typedef struct proper_fft_plan {
    size_t n;          /* real transform length, a power of two >= 2 */
    size_t m;          /* n / 2: length of the inner complex FFT */
    double *twiddle;   /* radix-4 stage twiddles, largest span first */
    size_t stage_offset[PROPER_FFT_MAX_STAGES]; /* twiddle offset of the stage by index */
    int n_radix4;      /* number of radix-4 stages (spans m, m/4, ...) */
    int has_radix2;    /* 1 when log2(m) is odd: one radix-2 stage of span 2 */
    double *post;      /* W_n^rev(p) for the real-packing pass: re[m], then im[m] */
} proper_fft_plan;

/* Zero a plan so that proper_fft_plan_free is safe on it. */
PROPER_API void proper_fft_plan_zero(proper_fft_plan *plan);

/* Build a plan for real transforms of length n (a power of two >= 2).
 * PROPER_EINVAL for other n, PROPER_ENOMEM when the tables do not fit. */
PROPER_API int proper_fft_plan_init(proper_fft_plan *plan, size_t n, proper_error *err);

PROPER_API void proper_fft_plan_free(proper_fft_plan *plan);

/* 1 when n is a power of two (n >= 1). */
PROPER_API int proper_fft_is_pow2(size_t n);

/* Smallest power of two >= n (n >= 1); 0 when it does not fit in size_t. */
PROPER_API size_t proper_fft_next_pow2(size_t n);

/* Number of doubles in a spectrum of a length-n plan: n + 2. */
PROPER_API size_t proper_fft_spectrum_size(const proper_fft_plan *plan);

/* x: n reals (unchanged). spec: n + 2 doubles, natural order split layout. */
PROPER_API void proper_fft_forward(const proper_fft_plan *plan, const double *x, double *spec);

/* spec: n + 2 doubles (natural order; overwritten). x: n reals, scaled by 1/n. */
PROPER_API void proper_fft_inverse(const proper_fft_plan *plan, double *spec, double *x);

/* As above, with the spectrum in bit-reversed (unordered) order. */
PROPER_API void proper_fft_forward_unordered(const proper_fft_plan *plan, const double *x, double *spec);
PROPER_API void proper_fft_inverse_unordered(const proper_fft_plan *plan, double *spec, double *x);

/* out = a * b pointwise (complex), for spectra of the same plan and order.
 * out may alias a or b. */
PROPER_API void proper_fft_multiply(const proper_fft_plan *plan, const double *a, const double *b,
                                    double *out);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_FFT_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_FFT_IMPLEMENTATION
#define PROPER_FFT_IMPLEMENTATION

#include <math.h>
#include <string.h>

/* Stages with a span of at most this many complex points run block by block
 * (two arrays of doubles: 64 KiB per block, which stays in L1/L2). */
#ifndef PROPER_FFT_BLOCK
#define PROPER_FFT_BLOCK 4096
#endif

/* The butterfly loops read and write disjoint quarters of a block; tell gcc
 * so that it vectorises them without run-time alias checks. (clang inserts
 * the checks itself, and its assume_safety pragma warns under sanitizers.) */
#if defined(__GNUC__) && !defined(__clang__) && (__GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ >= 9))
#define PROPER__FFT_VECTORIZE _Pragma("GCC ivdep")
#else
#define PROPER__FFT_VECTORIZE
#endif

#define PROPER__TWO_PI 6.283185307179586476925286766559

PROPER_API int proper_fft_is_pow2(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

PROPER_API size_t proper_fft_next_pow2(size_t n) {
    size_t p = 1;
    while (p < n) {
        if (p > (size_t)-1 / 2) return 0;
        p <<= 1;
    }
    return p;
}

PROPER_API size_t proper_fft_spectrum_size(const proper_fft_plan *plan) { return plan->n + 2; }

PROPER_API void proper_fft_plan_zero(proper_fft_plan *plan) {
    memset(plan, 0, sizeof *plan);
}

PROPER_API void proper_fft_plan_free(proper_fft_plan *plan) {
    PROPER_FREE(plan->twiddle);
    PROPER_FREE(plan->post);
    proper_fft_plan_zero(plan);
}

static int proper__fft_log2(size_t n) {
    int b = 0;
    while (((size_t)1 << b) < n) b++;
    return b;
}

/* Roots of unity W_n^e = e^{-2 pi i e/n} without one cos/sin call each:
 * e = hi * S + lo with S ~ sqrt(n), W^e = W^(hi S) W^lo from two small tables
 * computed directly, so plan creation costs O(sqrt n) trig calls and every
 * root is within a few ulps (one rounded complex product of two correctly
 * computed values). */
typedef struct proper__fft_roots {
    double *hi;   /* W^(h S): re, im interleaved, h = 0 .. n/S */
    double *lo;   /* W^l: re, im interleaved, l = 0 .. S-1 */
    int shift;    /* log2(S) */
    size_t mask;  /* S - 1 */
} proper__fft_roots;

static int proper__fft_roots_init(proper__fft_roots *r, size_t n) {
    int log_n = proper__fft_log2(n);
    size_t S, n_hi, k;
    r->shift = (log_n + 1) / 2;
    S = (size_t)1 << r->shift;
    r->mask = S - 1;
    n_hi = n / S + 1;
    r->hi = (double *)proper_calloc(2 * n_hi, sizeof(double));
    r->lo = (double *)proper_calloc(2 * S, sizeof(double));
    if (!r->hi || !r->lo) {
        PROPER_FREE(r->hi);
        PROPER_FREE(r->lo);
        return PROPER_ENOMEM;
    }
    for (k = 0; k < n_hi; k++) {
        /* k*S <= n + S is exact; dividing by a power of two is exact */
        double angle = -PROPER__TWO_PI * ((double)(k * S) / (double)n);
        r->hi[2 * k] = cos(angle);
        r->hi[2 * k + 1] = sin(angle);
    }
    for (k = 0; k < S; k++) {
        double angle = -PROPER__TWO_PI * ((double)k / (double)n);
        r->lo[2 * k] = cos(angle);
        r->lo[2 * k + 1] = sin(angle);
    }
    return PROPER_OK;
}

static void proper__fft_roots_free(proper__fft_roots *r) {
    PROPER_FREE(r->hi);
    PROPER_FREE(r->lo);
}

/* W_n^e for 0 <= e <= n. */
static void proper__fft_root(const proper__fft_roots *r, size_t e, double *re, double *im) {
    const double *a = r->hi + 2 * (e >> r->shift), *b = r->lo + 2 * (e & r->mask);
    *re = a[0] * b[0] - a[1] * b[1];
    *im = a[0] * b[1] + a[1] * b[0];
}

/* Twiddles of the radix-4 stage of span L: w_L^{rj} = W_n^{rj n/L} for
 * r = 1, 2, 3 and j < L/4, as six arrays of L/4: w1r, w1i, w2r, w2i, w3r, w3i. */
static void proper__fft_stage_twiddles(const proper__fft_roots *roots, size_t n, double *tw, size_t L) {
    size_t q = L / 4, j, step = n / L;
    int r;
    for (r = 1; r <= 3; r++) {
        double *wr = tw + (size_t)(2 * (r - 1)) * q, *wi = wr + q;
        for (j = 0; j < q; j++) proper__fft_root(roots, (size_t)r * j * step, wr + j, wi + j);
    }
}

PROPER_API int proper_fft_plan_init(proper_fft_plan *plan, size_t n, proper_error *err) {
    size_t m, total = 0, L, p, k;
    int log_m, s;
    proper__fft_roots roots;
    proper_fft_plan_zero(plan);
    if (n < 2 || !proper_fft_is_pow2(n))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "FFT length %zu is not a power of two >= 2", n);
    m = n / 2;
    log_m = proper__fft_log2(m);
    plan->n = n;
    plan->m = m;
    plan->n_radix4 = log_m / 2;
    plan->has_radix2 = log_m % 2;
    for (s = 0, L = m; s < plan->n_radix4; s++, L /= 4) {
        plan->stage_offset[s] = total;
        total += 6 * (L / 4);
    }
    plan->twiddle = (double *)proper_calloc(total ? total : 1, sizeof(double));
    plan->post = (double *)proper_calloc(2 * m, sizeof(double));
    if (!plan->twiddle || !plan->post || proper__fft_roots_init(&roots, n)) {
        proper_fft_plan_free(plan);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory for an FFT plan of %zu", n);
    }
    for (s = 0, L = m; s < plan->n_radix4; s++, L /= 4)
        proper__fft_stage_twiddles(&roots, n, plan->twiddle + plan->stage_offset[s], L);
    /* post[p] = W_n^k, k = rev(p) over log2(m) bits, by a bit-reversed counter */
    for (p = 0, k = 0; p < m; p++) {
        size_t bit = m >> 1;
        proper__fft_root(&roots, k, plan->post + p, plan->post + m + p);
        while (bit && (k & bit)) { k ^= bit; bit >>= 1; }
        k |= bit;
    }
    proper__fft_roots_free(&roots);
    return PROPER_OK;
}

/* ---- radix-4 decimation in frequency (forward) ----
 * For a block of span L = 4q and j < q, with a_r = x[j + rq]:
 *   y_r = w_L^{rj} sum_s a_s (-i)^{rs},
 * stored as quarter 0 <- y0, 1 <- y2, 2 <- y1, 3 <- y3 so that after all
 * stages the output is in bit-reversed order. */
static void proper__fft_dif4_block(double *re, double *im, size_t q, const double *tw) {
    double *r0 = re, *r1 = re + q, *r2 = re + 2 * q, *r3 = re + 3 * q;
    double *i0 = im, *i1 = im + q, *i2 = im + 2 * q, *i3 = im + 3 * q;
    const double *w1r = tw, *w1i = tw + q, *w2r = tw + 2 * q, *w2i = tw + 3 * q;
    const double *w3r = tw + 4 * q, *w3i = tw + 5 * q;
    size_t j;
    PROPER__FFT_VECTORIZE
    for (j = 0; j < q; j++) {
        double t0r = r0[j] + r2[j], t0i = i0[j] + i2[j];
        double t1r = r0[j] - r2[j], t1i = i0[j] - i2[j];
        double t2r = r1[j] + r3[j], t2i = i1[j] + i3[j];
        double t3r = i1[j] - i3[j], t3i = r3[j] - r1[j]; /* (a1 - a3) * (-i) */
        double ar = t0r - t2r, ai = t0i - t2i;
        double br = t1r + t3r, bi = t1i + t3i;
        double cr = t1r - t3r, ci = t1i - t3i;
        r0[j] = t0r + t2r;
        i0[j] = t0i + t2i;
        r1[j] = ar * w2r[j] - ai * w2i[j];
        i1[j] = ar * w2i[j] + ai * w2r[j];
        r2[j] = br * w1r[j] - bi * w1i[j];
        i2[j] = br * w1i[j] + bi * w1r[j];
        r3[j] = cr * w3r[j] - ci * w3i[j];
        i3[j] = cr * w3i[j] + ci * w3r[j];
    }
}

/* The span-4 stage has no twiddles: one 4-point DFT per block of four. */
static void proper__fft_dif4_last(double *re, double *im, size_t len) {
    size_t s;
    for (s = 0; s < len; s += 4) {
        double t0r = re[s] + re[s + 2], t0i = im[s] + im[s + 2];
        double t1r = re[s] - re[s + 2], t1i = im[s] - im[s + 2];
        double t2r = re[s + 1] + re[s + 3], t2i = im[s + 1] + im[s + 3];
        double t3r = im[s + 1] - im[s + 3], t3i = re[s + 3] - re[s + 1];
        re[s] = t0r + t2r; im[s] = t0i + t2i;
        re[s + 1] = t0r - t2r; im[s + 1] = t0i - t2i;
        re[s + 2] = t1r + t3r; im[s + 2] = t1i + t3i;
        re[s + 3] = t1r - t3r; im[s + 3] = t1i - t3i;
    }
}

static void proper__fft_radix2(double *re, double *im, size_t len) {
    size_t s;
    for (s = 0; s < len; s += 2) {
        double ar = re[s], ai = im[s], br = re[s + 1], bi = im[s + 1];
        re[s] = ar + br; im[s] = ai + bi;
        re[s + 1] = ar - br; im[s + 1] = ai - bi;
    }
}

/* Radix-4 DIT (inverse, conjugate twiddles): the transpose of dif4_block. */
static void proper__fft_dit4_block(double *re, double *im, size_t q, const double *tw) {
    double *r0 = re, *r1 = re + q, *r2 = re + 2 * q, *r3 = re + 3 * q;
    double *i0 = im, *i1 = im + q, *i2 = im + 2 * q, *i3 = im + 3 * q;
    const double *w1r = tw, *w1i = tw + q, *w2r = tw + 2 * q, *w2i = tw + 3 * q;
    const double *w3r = tw + 4 * q, *w3i = tw + 5 * q;
    size_t j;
    PROPER__FFT_VECTORIZE
    for (j = 0; j < q; j++) {
        /* quarter 1 holds y2, quarter 2 holds y1; multiply by conj(w^{rj}) */
        double y2r = r1[j] * w2r[j] + i1[j] * w2i[j], y2i = i1[j] * w2r[j] - r1[j] * w2i[j];
        double y1r = r2[j] * w1r[j] + i2[j] * w1i[j], y1i = i2[j] * w1r[j] - r2[j] * w1i[j];
        double y3r = r3[j] * w3r[j] + i3[j] * w3i[j], y3i = i3[j] * w3r[j] - r3[j] * w3i[j];
        double u0r = r0[j] + y2r, u0i = i0[j] + y2i;
        double u1r = r0[j] - y2r, u1i = i0[j] - y2i;
        double u2r = y1r + y3r, u2i = y1i + y3i;
        double u3r = y3i - y1i, u3i = y1r - y3r; /* (y1 - y3) * i */
        r0[j] = u0r + u2r; i0[j] = u0i + u2i;
        r2[j] = u0r - u2r; i2[j] = u0i - u2i;
        r1[j] = u1r + u3r; i1[j] = u1i + u3i;
        r3[j] = u1r - u3r; i3[j] = u1i - u3i;
    }
}

static void proper__fft_dit4_first(double *re, double *im, size_t len) {
    size_t s;
    for (s = 0; s < len; s += 4) {
        double u0r = re[s] + re[s + 1], u0i = im[s] + im[s + 1];
        double u1r = re[s] - re[s + 1], u1i = im[s] - im[s + 1];
        double u2r = re[s + 2] + re[s + 3], u2i = im[s + 2] + im[s + 3];
        double u3r = im[s + 3] - im[s + 2], u3i = re[s + 2] - re[s + 3];
        re[s] = u0r + u2r; im[s] = u0i + u2i;
        re[s + 2] = u0r - u2r; im[s + 2] = u0i - u2i;
        re[s + 1] = u1r + u3r; im[s + 1] = u1i + u3i;
        re[s + 3] = u1r - u3r; im[s + 3] = u1i - u3i;
    }
}

/* One forward stage s (span m / 4^s; the radix-2 stage when s ==
 * n_radix4) over a block of length len, a multiple of the span. */
static void proper__fft_dif_stage(const proper_fft_plan *plan, double *re, double *im, size_t len, int s) {
    size_t L, b;
    if (s == plan->n_radix4) {
        proper__fft_radix2(re, im, len);
        return;
    }
    L = plan->m >> (2 * s);
    if (L == 4) {
        proper__fft_dif4_last(re, im, len);
        return;
    }
    for (b = 0; b < len; b += L)
        proper__fft_dif4_block(re + b, im + b, L / 4, plan->twiddle + plan->stage_offset[s]);
}

static void proper__fft_dit_stage(const proper_fft_plan *plan, double *re, double *im, size_t len, int s) {
    size_t L, b;
    if (s == plan->n_radix4) {
        proper__fft_radix2(re, im, len);
        return;
    }
    L = plan->m >> (2 * s);
    if (L == 4) {
        proper__fft_dit4_first(re, im, len);
        return;
    }
    for (b = 0; b < len; b += L)
        proper__fft_dit4_block(re + b, im + b, L / 4, plan->twiddle + plan->stage_offset[s]);
}

/* Index one past the last stage (radix-2 counts as a stage). */
static int proper__fft_n_stages(const proper_fft_plan *plan) { return plan->n_radix4 + plan->has_radix2; }

/* Stages with a span above PROPER_FFT_BLOCK: indices [0, n_big). */
static int proper__fft_n_big(const proper_fft_plan *plan) {
    int s = 0;
    while (s < plan->n_radix4 && (plan->m >> (2 * s)) > PROPER_FFT_BLOCK) s++;
    return s;
}

/* Complex forward FFT of length m on split arrays, output bit-reversed. */
static void proper__fft_complex_forward(const proper_fft_plan *plan, double *re, double *im) {
    size_t m = plan->m, chunk = m < PROPER_FFT_BLOCK ? m : PROPER_FFT_BLOCK, b;
    int s, n_big = proper__fft_n_big(plan), n_stages = proper__fft_n_stages(plan);
    for (s = 0; s < n_big; s++) proper__fft_dif_stage(plan, re, im, m, s);
    for (b = 0; b < m; b += chunk)
        for (s = n_big; s < n_stages; s++) proper__fft_dif_stage(plan, re + b, im + b, chunk, s);
}

/* Complex inverse (unnormalised) FFT of length m: bit-reversed in, natural out. */
static void proper__fft_complex_inverse(const proper_fft_plan *plan, double *re, double *im) {
    size_t m = plan->m, chunk = m < PROPER_FFT_BLOCK ? m : PROPER_FFT_BLOCK, b;
    int s, n_big = proper__fft_n_big(plan), n_stages = proper__fft_n_stages(plan);
    for (b = 0; b < m; b += chunk)
        for (s = n_stages - 1; s >= n_big; s--) proper__fft_dit_stage(plan, re + b, im + b, chunk, s);
    for (s = n_big - 1; s >= 0; s--) proper__fft_dit_stage(plan, re, im, m, s);
}

/* Real-packing pass on a bit-reversed spectrum Z (re[0..m-1], im[0..m-1]):
 * for each pair of bins k, m-k,
 *   E = (Z[k] + conj Z[m-k]) / 2,  O = (Z[k] - conj Z[m-k]) / (2i),
 *   X[k] = E + W_n^k O,  X[m-k] = conj(E - W_n^k O).
 * In bit-reversed order the partner of index p in [2^s, 2^(s+1)) is
 * 3*2^s - 1 - p: each octave is walked from both ends. Bin 0 pairs with
 * bin m: X[0] = Re Z0 + Im Z0, X[m] = Re Z0 - Im Z0. */
static void proper__fft_post(const proper_fft_plan *plan, double *re, double *im) {
    size_t m = plan->m, lo, p;
    const double *wr = plan->post, *wi = plan->post + m;
    double z0r = re[0], z0i = im[0];
    re[0] = z0r + z0i; im[0] = 0.0;
    re[m] = z0r - z0i; im[m] = 0.0;
    for (lo = 1; lo < m; lo *= 2) {
        size_t hi = 3 * lo - 1;
        for (p = lo; p <= hi - p; p++) {
            size_t p2 = hi - p;
            double ar = re[p], ai = im[p], br = re[p2], bi = im[p2];
            double er = 0.5 * (ar + br), ei = 0.5 * (ai - bi);
            double or_ = 0.5 * (ai + bi), oi = 0.5 * (br - ar);
            double tr = wr[p] * or_ - wi[p] * oi, ti = wr[p] * oi + wi[p] * or_;
            re[p] = er + tr; im[p] = ei + ti;
            re[p2] = er - tr; im[p2] = ti - ei;
        }
    }
}

/* Inverse of proper__fft_post, scaled by `scale` (2/n gives the 1/n inverse
 * normalisation after the unnormalised complex inverse of length m):
 *   E = (X[k] + conj X[m-k]) / 2,  O = (X[k] - conj X[m-k]) W_n^-k / 2,
 *   Z[k] = E + i O,  Z[m-k] = conj E + i conj O. */
static void proper__fft_pre(const proper_fft_plan *plan, double *re, double *im, double scale) {
    size_t m = plan->m, lo, p;
    const double *wr = plan->post, *wi = plan->post + m;
    double h = 0.5 * scale;
    double x0 = re[0], xm = re[m];
    re[0] = h * (x0 + xm);
    im[0] = h * (x0 - xm);
    for (lo = 1; lo < m; lo *= 2) {
        size_t hi = 3 * lo - 1;
        for (p = lo; p <= hi - p; p++) {
            size_t p2 = hi - p;
            double ar = re[p], ai = im[p], br = re[p2], bi = im[p2];
            double er = h * (ar + br), ei = h * (ai - bi);
            double dr = h * (ar - br), di = h * (ai + bi);
            /* O = d * conj(W) */
            double or_ = dr * wr[p] + di * wi[p], oi = di * wr[p] - dr * wi[p];
            re[p] = er - oi; im[p] = ei + or_;
            re[p2] = er + oi; im[p2] = or_ - ei;
        }
    }
}

PROPER_API void proper_fft_forward_unordered(const proper_fft_plan *plan, const double *x, double *spec) {
    size_t m = plan->m, j;
    double *re = spec, *im = spec + m + 1;
    for (j = 0; j < m; j++) {
        re[j] = x[2 * j];
        im[j] = x[2 * j + 1];
    }
    proper__fft_complex_forward(plan, re, im);
    proper__fft_post(plan, re, im);
}

PROPER_API void proper_fft_inverse_unordered(const proper_fft_plan *plan, double *spec, double *x) {
    size_t m = plan->m, j;
    double *re = spec, *im = spec + m + 1;
    proper__fft_pre(plan, re, im, 2.0 / (double)plan->n);
    proper__fft_complex_inverse(plan, re, im);
    for (j = 0; j < m; j++) {
        x[2 * j] = re[j];
        x[2 * j + 1] = im[j];
    }
}

/* Swap bins 0..m-1 into bit-reversed positions (an involution). */
static void proper__fft_bitrev_permute(const proper_fft_plan *plan, double *re, double *im) {
    size_t m = plan->m, p, r = 0;
    for (p = 0; p < m; p++) {
        if (p < r) {
            double t = re[p]; re[p] = re[r]; re[r] = t;
            t = im[p]; im[p] = im[r]; im[r] = t;
        }
        /* increment r as a bit-reversed counter */
        {
            size_t bit = m >> 1;
            while (bit && (r & bit)) { r ^= bit; bit >>= 1; }
            r |= bit;
        }
    }
}

PROPER_API void proper_fft_forward(const proper_fft_plan *plan, const double *x, double *spec) {
    proper_fft_forward_unordered(plan, x, spec);
    proper__fft_bitrev_permute(plan, spec, spec + plan->m + 1);
}

PROPER_API void proper_fft_inverse(const proper_fft_plan *plan, double *spec, double *x) {
    proper__fft_bitrev_permute(plan, spec, spec + plan->m + 1);
    proper_fft_inverse_unordered(plan, spec, x);
}

PROPER_API void proper_fft_multiply(const proper_fft_plan *plan, const double *a, const double *b, double *out) {
    size_t h = plan->m + 1, k;
    const double *ar = a, *ai = a + h, *br = b, *bi = b + h;
    double *or_ = out, *oi = out + h;
    for (k = 0; k < h; k++) {
        double xr = ar[k] * br[k] - ai[k] * bi[k];
        double xi = ar[k] * bi[k] + ai[k] * br[k];
        or_[k] = xr;
        oi[k] = xi;
    }
}

#endif /* PROPER_FFT_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
