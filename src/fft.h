/* fft.h — real-input FFT plans for power-of-two sizes.
 *
 * A plan for length n (a power of two, n >= 2) holds precomputed twiddle
 * factors; transforms never allocate. The real transform of length n is a
 * complex FFT of length m = n/2 on the packed sequence z[j] = x[2j] + i x[2j+1]
 * followed by a "real-packing" pass that separates the spectra of the even and
 * odd samples (X[k] = E[k] + W_n^k O[k]). The complex FFT is an iterative
 * radix-4 decimation in frequency (when log2(m) is odd, the last radix-4
 * stage and one radix-2 stage run fused as 8-point transforms) on separate
 * real and imaginary arrays, so that the butterfly loops run over contiguous
 * memory and vectorise. Stages whose span exceeds PROPER_FFT_BLOCK complex
 * points run as whole-array passes (the first of them reading the interleaved
 * input directly, and keeping only w^1 twiddles to save memory traffic); all
 * smaller stages run block by block while the block stays in cache. The
 * inverse is the exact transpose (decimation in time, conjugate twiddles).
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
    int n_big;         /* stages 0..n_big-1 span more than `block`: whole-array passes */
    size_t block;      /* PROPER_FFT_BLOCK when the plan was made */
    double *post;      /* real-packing twiddles W_n^rev(p): re[m/2+1], then im[m/2+1] */
} proper_fft_plan;

/* An empty plan (n = 0): nothing allocated, safe to free. */
PROPER_API void proper_fft_plan_init(proper_fft_plan *plan);

/* Build a plan for real transforms of length n (a power of two >= 2) into
 * an initialised plan (an earlier plan in it is released on success; on
 * failure it is left unchanged). PROPER_EINVAL for other n, PROPER_ENOMEM
 * when the tables do not fit. */
PROPER_API int proper_fft_plan_create(proper_fft_plan *plan, size_t n, proper_error *err);

/* Release the tables; the plan is then empty. */
PROPER_API void proper_fft_plan_free(proper_fft_plan *plan);

/* 1 when n is a power of two (n >= 1). */
PROPER_API int proper_fft_is_pow2(size_t n);

/* Smallest power of two >= n (n >= 1); 0 when it does not fit in size_t. */
PROPER_API size_t proper_fft_next_pow2(size_t n);

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

#define PROPER__FFT_TWO_PI 6.283185307179586476925286766559

PROPER_API int proper_fft_is_pow2(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

PROPER_API size_t proper_fft_next_pow2(size_t n) {
    size_t p = 1;
    while (p < n) {
        if (p > (size_t)-1 / 2) return 0;
        p <<= 1;
    }
    return p;
}

PROPER_API void proper_fft_plan_init(proper_fft_plan *plan) {
    memset(plan, 0, sizeof *plan);
}

PROPER_API void proper_fft_plan_free(proper_fft_plan *plan) {
    PROPER_FREE(plan->twiddle);
    PROPER_FREE(plan->post);
    proper_fft_plan_init(plan);
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
        double angle = -PROPER__FFT_TWO_PI * ((double)(k * S) / (double)n);
        r->hi[2 * k] = cos(angle);
        r->hi[2 * k + 1] = sin(angle);
    }
    for (k = 0; k < S; k++) {
        double angle = -PROPER__FFT_TWO_PI * ((double)k / (double)n);
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

/* Twiddles of the radix-4 stage of span L: w_L^{rj} = W_n^{rj n/L} for j < L/4.
 * Stages that run as whole-array passes (span above the cache block) keep
 * only r = 1 (w1r[q], w1i[q]) and derive w^2, w^3 in the butterfly, which
 * cuts their memory traffic; the others keep w1r, w1i, w2r, w2i, w3r, w3i. */
static void proper__fft_stage_twiddles(const proper__fft_roots *roots, size_t n, double *tw, size_t L, int w1_only) {
    size_t q = L / 4, j, step = n / L;
    int r, n_r = w1_only ? 1 : 3;
    for (r = 1; r <= n_r; r++) {
        double *wr = tw + (size_t)(2 * (r - 1)) * q, *wi = wr + q;
        for (j = 0; j < q; j++) proper__fft_root(roots, (size_t)r * j * step, wr + j, wi + j);
    }
}

/* Real-packing twiddles: for each octave [lo, 2 lo) of bit-reversed indices,
 * the pass needs W_n^rev(p) for p = lo .. lo + (lo-1)/2 only (the rest are
 * partners). Octave lo starts at index lo/2 (0 for lo = 1) of post_re/im. */
static size_t proper__fft_post_base(size_t lo) { return lo / 2; }

static void proper__fft_post_twiddles(const proper__fft_roots *roots, size_t m, double *wr, double *wi) {
    size_t lo;
    for (lo = 1; lo < m; lo *= 2) {
        size_t base = proper__fft_post_base(lo), count = (lo - 1) / 2 + 1, i, r = 0;
        /* rev(lo + i) = rev(lo) + rev(i): rev(lo) = m / (2 lo), and r runs
         * through rev(i) as a bit-reversed counter over log2(m) bits */
        for (i = 0; i < count; i++) {
            size_t bit = m >> 1;
            proper__fft_root(roots, m / (2 * lo) + r, wr + base + i, wi + base + i);
            while (bit && (r & bit)) { r ^= bit; bit >>= 1; }
            r |= bit;
        }
    }
}

PROPER_API int proper_fft_plan_create(proper_fft_plan *out, size_t n, proper_error *err) {
    size_t m, total = 0, L, n_post;
    int log_m, s;
    proper__fft_roots roots;
    proper_fft_plan fresh, *plan = &fresh;
    proper_fft_plan_init(plan);
    if (n < 2 || !proper_fft_is_pow2(n))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "FFT length %zu is not a power of two >= 2", n);
    m = n / 2;
    log_m = proper__fft_log2(m);
    plan->n = n;
    plan->m = m;
    plan->n_radix4 = log_m / 2;
    plan->has_radix2 = log_m % 2;
    plan->block = PROPER_FFT_BLOCK;
    while (plan->n_big < plan->n_radix4 && (m >> (2 * plan->n_big)) > plan->block) plan->n_big++;
    for (s = 0, L = m; s < plan->n_radix4; s++, L /= 4) {
        plan->stage_offset[s] = total;
        total += (s < plan->n_big ? 2 : 6) * (L / 4);
    }
    n_post = m / 2 + 1;
    plan->twiddle = (double *)PROPER_MALLOC((total ? total : 1) * sizeof(double));
    plan->post = (double *)PROPER_MALLOC(2 * n_post * sizeof(double));
    if (!plan->twiddle || !plan->post || proper__fft_roots_init(&roots, n)) {
        proper_fft_plan_free(plan);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory for an FFT plan of %zu", n);
    }
    for (s = 0, L = m; s < plan->n_radix4; s++, L /= 4)
        proper__fft_stage_twiddles(&roots, n, plan->twiddle + plan->stage_offset[s], L, s < plan->n_big);
    proper__fft_post_twiddles(&roots, m, plan->post, plan->post + n_post);
    proper__fft_roots_free(&roots);
    proper_fft_plan_free(out);
    *out = fresh;
    return PROPER_OK;
}

/* ---- radix-4 butterflies ----
 * Forward (decimation in frequency), for a block of span L = 4q, j < q and
 * a_r = x[j + rq]:
 *   y_r = w_L^{rj} sum_s a_s (-i)^{rs},
 * stored as quarter 0 <- y0, 1 <- y2, 2 <- y1, 3 <- y3 so that after all
 * stages the output is in bit-reversed order. The inverse (decimation in
 * time, conjugate twiddles) is its transpose: it reads y0, y2, y1, y3 and
 * writes a_m = sum_r conj(w^{rj}) y_r i^{rm}. Each butterfly exists in
 * three forms: full twiddle tables, w1 only (w2 = w1^2, w3 = w1 w2), and,
 * for the outermost stage, w1 only reading (forward) or writing (inverse)
 * the interleaved real array of the packed transform. */

#define PROPER__FFT_DIF4_BODY                                                     \
    double t0r = a0r + a2r, t0i = a0i + a2i, t1r = a0r - a2r, t1i = a0i - a2i;   \
    double t2r = a1r + a3r, t2i = a1i + a3i;                                      \
    double t3r = a1i - a3i, t3i = a3r - a1r; /* (a1 - a3) * (-i) */              \
    double ar = t0r - t2r, ai = t0i - t2i, br = t1r + t3r, bi = t1i + t3i;        \
    double cr = t1r - t3r, ci = t1i - t3i;                                        \
    double y0r = t0r + t2r, y0i = t0i + t2i;                                      \
    double y2r = ar * w2r - ai * w2i, y2i = ar * w2i + ai * w2r;                  \
    double y1r = br * w1r - bi * w1i, y1i = br * w1i + bi * w1r;                  \
    double y3r = cr * w3r - ci * w3i, y3i = cr * w3i + ci * w3r;

#define PROPER__FFT_DIT4_BODY                                                     \
    double u2r = b2r * w2r + b2i * w2i, u2i = b2i * w2r - b2r * w2i;              \
    double u1r = b1r * w1r + b1i * w1i, u1i = b1i * w1r - b1r * w1i;              \
    double u3r = b3r * w3r + b3i * w3i, u3i = b3i * w3r - b3r * w3i;              \
    double s0r = b0r + u2r, s0i = b0i + u2i, s1r = b0r - u2r, s1i = b0i - u2i;    \
    double s2r = u1r + u3r, s2i = u1i + u3i;                                      \
    double s3r = u3i - u1i, s3i = u1r - u3r; /* (y1 - y3) * i */                 \
    double a0r = s0r + s2r, a0i = s0i + s2i, a2r = s0r - s2r, a2i = s0i - s2i;    \
    double a1r = s1r + s3r, a1i = s1i + s3i, a3r = s1r - s3r, a3i = s1i - s3i;

#define PROPER__FFT_W23_FROM_W1                                                   \
    double w2r = w1r * w1r - w1i * w1i, w2i = 2.0 * w1r * w1i;                    \
    double w3r = w1r * w2r - w1i * w2i, w3i = w1r * w2i + w1i * w2r;

static void proper__fft_dif4(double *re, double *im, size_t q, const double *tw) {
    double *r0 = re, *r1 = re + q, *r2 = re + 2 * q, *r3 = re + 3 * q;
    double *i0 = im, *i1 = im + q, *i2 = im + 2 * q, *i3 = im + 3 * q;
    size_t j;
    PROPER__FFT_VECTORIZE
    for (j = 0; j < q; j++) {
        double a0r = r0[j], a0i = i0[j], a1r = r1[j], a1i = i1[j];
        double a2r = r2[j], a2i = i2[j], a3r = r3[j], a3i = i3[j];
        double w1r = tw[j], w1i = tw[q + j], w2r = tw[2 * q + j], w2i = tw[3 * q + j];
        double w3r = tw[4 * q + j], w3i = tw[5 * q + j];
        PROPER__FFT_DIF4_BODY
        r0[j] = y0r; i0[j] = y0i; r1[j] = y2r; i1[j] = y2i;
        r2[j] = y1r; i2[j] = y1i; r3[j] = y3r; i3[j] = y3i;
    }
}

static void proper__fft_dif4_w1(double *re, double *im, size_t q, const double *tw) {
    double *r0 = re, *r1 = re + q, *r2 = re + 2 * q, *r3 = re + 3 * q;
    double *i0 = im, *i1 = im + q, *i2 = im + 2 * q, *i3 = im + 3 * q;
    size_t j;
    PROPER__FFT_VECTORIZE
    for (j = 0; j < q; j++) {
        double a0r = r0[j], a0i = i0[j], a1r = r1[j], a1i = i1[j];
        double a2r = r2[j], a2i = i2[j], a3r = r3[j], a3i = i3[j];
        double w1r = tw[j], w1i = tw[q + j];
        PROPER__FFT_W23_FROM_W1
        PROPER__FFT_DIF4_BODY
        r0[j] = y0r; i0[j] = y0i; r1[j] = y2r; i1[j] = y2i;
        r2[j] = y1r; i2[j] = y1i; r3[j] = y3r; i3[j] = y3i;
    }
}

/* Outermost forward stage: reads z[j] = x[2j] + i x[2j+1], writes split. */
static void proper__fft_dif4_w1_from(const double *x, double *re, double *im, size_t q, const double *tw) {
    const double *x0 = x, *x1 = x + 2 * q, *x2 = x + 4 * q, *x3 = x + 6 * q;
    double *r0 = re, *r1 = re + q, *r2 = re + 2 * q, *r3 = re + 3 * q;
    double *i0 = im, *i1 = im + q, *i2 = im + 2 * q, *i3 = im + 3 * q;
    size_t j;
    PROPER__FFT_VECTORIZE
    for (j = 0; j < q; j++) {
        double a0r = x0[2 * j], a0i = x0[2 * j + 1], a1r = x1[2 * j], a1i = x1[2 * j + 1];
        double a2r = x2[2 * j], a2i = x2[2 * j + 1], a3r = x3[2 * j], a3i = x3[2 * j + 1];
        double w1r = tw[j], w1i = tw[q + j];
        PROPER__FFT_W23_FROM_W1
        PROPER__FFT_DIF4_BODY
        r0[j] = y0r; i0[j] = y0i; r1[j] = y2r; i1[j] = y2i;
        r2[j] = y1r; i2[j] = y1i; r3[j] = y3r; i3[j] = y3i;
    }
}

static void proper__fft_dit4(double *re, double *im, size_t q, const double *tw) {
    double *r0 = re, *r1 = re + q, *r2 = re + 2 * q, *r3 = re + 3 * q;
    double *i0 = im, *i1 = im + q, *i2 = im + 2 * q, *i3 = im + 3 * q;
    size_t j;
    PROPER__FFT_VECTORIZE
    for (j = 0; j < q; j++) {
        double b0r = r0[j], b0i = i0[j], b2r = r1[j], b2i = i1[j];
        double b1r = r2[j], b1i = i2[j], b3r = r3[j], b3i = i3[j];
        double w1r = tw[j], w1i = tw[q + j], w2r = tw[2 * q + j], w2i = tw[3 * q + j];
        double w3r = tw[4 * q + j], w3i = tw[5 * q + j];
        PROPER__FFT_DIT4_BODY
        r0[j] = a0r; i0[j] = a0i; r1[j] = a1r; i1[j] = a1i;
        r2[j] = a2r; i2[j] = a2i; r3[j] = a3r; i3[j] = a3i;
    }
}

static void proper__fft_dit4_w1(double *re, double *im, size_t q, const double *tw) {
    double *r0 = re, *r1 = re + q, *r2 = re + 2 * q, *r3 = re + 3 * q;
    double *i0 = im, *i1 = im + q, *i2 = im + 2 * q, *i3 = im + 3 * q;
    size_t j;
    PROPER__FFT_VECTORIZE
    for (j = 0; j < q; j++) {
        double b0r = r0[j], b0i = i0[j], b2r = r1[j], b2i = i1[j];
        double b1r = r2[j], b1i = i2[j], b3r = r3[j], b3i = i3[j];
        double w1r = tw[j], w1i = tw[q + j];
        PROPER__FFT_W23_FROM_W1
        PROPER__FFT_DIT4_BODY
        r0[j] = a0r; i0[j] = a0i; r1[j] = a1r; i1[j] = a1i;
        r2[j] = a2r; i2[j] = a2i; r3[j] = a3r; i3[j] = a3i;
    }
}

/* Outermost inverse stage: reads split, writes x[2j] = Re z[j], x[2j+1] = Im z[j]. */
static void proper__fft_dit4_w1_to(const double *re, const double *im, double *x, size_t q, const double *tw) {
    const double *r0 = re, *r1 = re + q, *r2 = re + 2 * q, *r3 = re + 3 * q;
    const double *i0 = im, *i1 = im + q, *i2 = im + 2 * q, *i3 = im + 3 * q;
    double *x0 = x, *x1 = x + 2 * q, *x2 = x + 4 * q, *x3 = x + 6 * q;
    size_t j;
    PROPER__FFT_VECTORIZE
    for (j = 0; j < q; j++) {
        double b0r = r0[j], b0i = i0[j], b2r = r1[j], b2i = i1[j];
        double b1r = r2[j], b1i = i2[j], b3r = r3[j], b3i = i3[j];
        double w1r = tw[j], w1i = tw[q + j];
        PROPER__FFT_W23_FROM_W1
        PROPER__FFT_DIT4_BODY
        x0[2 * j] = a0r; x0[2 * j + 1] = a0i; x1[2 * j] = a1r; x1[2 * j + 1] = a1i;
        x2[2 * j] = a2r; x2[2 * j + 1] = a2i; x3[2 * j] = a3r; x3[2 * j + 1] = a3i;
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

/* When log2(m) is odd the last two stages (span 8, then the radix-2 stage)
 * run fused: one 8-point transform per block of eight, in registers.
 * Span 8 with j = 0, 1 uses w_8^0 = 1 and w_8^1 = (1 - i)/sqrt(2),
 * w_8^2 = -i, w_8^3 = -(1 + i)/sqrt(2). */
#define PROPER__FFT_SQRT1_2 0.70710678118654752440084436210485
static void proper__fft_dif8_last(double *re, double *im, size_t len) {
    size_t s;
    for (s = 0; s < len; s += 8) {
        double *r = re + s, *i = im + s;
        /* j = 0: a = x0, x2, x4, x6 */
        double t0r = r[0] + r[4], t0i = i[0] + i[4], t1r = r[0] - r[4], t1i = i[0] - i[4];
        double t2r = r[2] + r[6], t2i = i[2] + i[6], t3r = i[2] - i[6], t3i = r[6] - r[2];
        double p0r = t0r + t2r, p0i = t0i + t2i, p2r = t0r - t2r, p2i = t0i - t2i;
        double p4r = t1r + t3r, p4i = t1i + t3i, p6r = t1r - t3r, p6i = t1i - t3i;
        /* j = 1: a = x1, x3, x5, x7 */
        double v0r = r[1] + r[5], v0i = i[1] + i[5], v1r = r[1] - r[5], v1i = i[1] - i[5];
        double v2r = r[3] + r[7], v2i = i[3] + i[7], v3r = i[3] - i[7], v3i = r[7] - r[3];
        double q1r = v0r + v2r, q1i = v0i + v2i;
        double ar = v0r - v2r, ai = v0i - v2i; /* times w_8^2 = -i */
        double br = v1r + v3r, bi = v1i + v3i; /* times w_8^1 */
        double cr = v1r - v3r, ci = v1i - v3i; /* times w_8^3 */
        double q3r = ai, q3i = -ar;
        double q5r = PROPER__FFT_SQRT1_2 * (br + bi), q5i = PROPER__FFT_SQRT1_2 * (bi - br);
        double q7r = PROPER__FFT_SQRT1_2 * (ci - cr), q7i = -PROPER__FFT_SQRT1_2 * (cr + ci);
        /* radix-2 on the pairs (0,1), (2,3), (4,5), (6,7) */
        r[0] = p0r + q1r; i[0] = p0i + q1i; r[1] = p0r - q1r; i[1] = p0i - q1i;
        r[2] = p2r + q3r; i[2] = p2i + q3i; r[3] = p2r - q3r; i[3] = p2i - q3i;
        r[4] = p4r + q5r; i[4] = p4i + q5i; r[5] = p4r - q5r; i[5] = p4i - q5i;
        r[6] = p6r + q7r; i[6] = p6i + q7i; r[7] = p6r - q7r; i[7] = p6i - q7i;
    }
}

/* The transpose of proper__fft_dif8_last with conjugate twiddles. */
static void proper__fft_dit8_first(double *re, double *im, size_t len) {
    size_t s;
    for (s = 0; s < len; s += 8) {
        double *r = re + s, *i = im + s;
        /* radix-2 on the pairs */
        double p0r = r[0] + r[1], p0i = i[0] + i[1], q1r = r[0] - r[1], q1i = i[0] - i[1];
        double p2r = r[2] + r[3], p2i = i[2] + i[3], q3r = r[2] - r[3], q3i = i[2] - i[3];
        double p4r = r[4] + r[5], p4i = i[4] + i[5], q5r = r[4] - r[5], q5i = i[4] - i[5];
        double p6r = r[6] + r[7], p6i = i[6] + i[7], q7r = r[6] - r[7], q7i = i[6] - i[7];
        /* j = 0 (no twiddles): quarters hold y0 = p0, y2 = p2, y1 = p4, y3 = p6 */
        double s0r = p0r + p2r, s0i = p0i + p2i, s1r = p0r - p2r, s1i = p0i - p2i;
        double s2r = p4r + p6r, s2i = p4i + p6i, s3r = p6i - p4i, s3i = p4r - p6r;
        /* j = 1: y2 = q3 * conj(w_8^2) = q3 * i, y1 = q5 * conj(w_8^1), y3 = q7 * conj(w_8^3) */
        double y2r = -q3i, y2i = q3r;
        double y1r = PROPER__FFT_SQRT1_2 * (q5r - q5i), y1i = PROPER__FFT_SQRT1_2 * (q5r + q5i);
        double y3r = -PROPER__FFT_SQRT1_2 * (q7r + q7i), y3i = PROPER__FFT_SQRT1_2 * (q7r - q7i);
        double u0r = q1r + y2r, u0i = q1i + y2i, u1r = q1r - y2r, u1i = q1i - y2i;
        double u2r = y1r + y3r, u2i = y1i + y3i, u3r = y3i - y1i, u3i = y1r - y3r;
        r[0] = s0r + s2r; i[0] = s0i + s2i; r[4] = s0r - s2r; i[4] = s0i - s2i;
        r[2] = s1r + s3r; i[2] = s1i + s3i; r[6] = s1r - s3r; i[6] = s1i - s3i;
        r[1] = u0r + u2r; i[1] = u0i + u2i; r[5] = u0r - u2r; i[5] = u0i - u2i;
        r[3] = u1r + u3r; i[3] = u1i + u3i; r[7] = u1r - u3r; i[7] = u1i - u3i;
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

/* One in-place stage s (span m / 4^s; the radix-2 stage when s ==
 * n_radix4) over a block of length len, a multiple of the span. */
static void proper__fft_dif_stage(const proper_fft_plan *plan, double *re, double *im, size_t len, int s) {
    size_t L, b;
    const double *tw = plan->twiddle + plan->stage_offset[s < plan->n_radix4 ? s : 0];
    if (s == plan->n_radix4) {
        proper__fft_radix2(re, im, len);
        return;
    }
    L = plan->m >> (2 * s);
    if (L == 4) proper__fft_dif4_last(re, im, len);
    else if (s < plan->n_big)
        for (b = 0; b < len; b += L) proper__fft_dif4_w1(re + b, im + b, L / 4, tw);
    else
        for (b = 0; b < len; b += L) proper__fft_dif4(re + b, im + b, L / 4, tw);
}

static void proper__fft_dit_stage(const proper_fft_plan *plan, double *re, double *im, size_t len, int s) {
    size_t L, b;
    const double *tw = plan->twiddle + plan->stage_offset[s < plan->n_radix4 ? s : 0];
    if (s == plan->n_radix4) {
        proper__fft_radix2(re, im, len);
        return;
    }
    L = plan->m >> (2 * s);
    if (L == 4) proper__fft_dit4_first(re, im, len);
    else if (s < plan->n_big)
        for (b = 0; b < len; b += L) proper__fft_dit4_w1(re + b, im + b, L / 4, tw);
    else
        for (b = 0; b < len; b += L) proper__fft_dit4(re + b, im + b, L / 4, tw);
}

/* Index one past the last stage (radix-2 counts as a stage). */
static int proper__fft_n_stages(const proper_fft_plan *plan) { return plan->n_radix4 + plan->has_radix2; }

/* Complex forward FFT of length m of z[j] = x[2j] + i x[2j+1] into split
 * arrays re, im, output bit-reversed. Whole-array passes first (the first
 * one reading x), then every remaining stage block by block. */
static void proper__fft_complex_forward(const proper_fft_plan *plan, const double *x, double *re, double *im) {
    size_t m = plan->m, chunk = m < plan->block ? m : plan->block, b, j;
    int s, n_stages = proper__fft_n_stages(plan);
    if (plan->n_big > 0) {
        proper__fft_dif4_w1_from(x, re, im, m / 4, plan->twiddle);
        for (s = 1; s < plan->n_big; s++) proper__fft_dif_stage(plan, re, im, m, s);
    } else {
        for (j = 0; j < m; j++) {
            re[j] = x[2 * j];
            im[j] = x[2 * j + 1];
        }
    }
    for (b = 0; b < m; b += chunk)
        for (s = plan->n_big; s < n_stages; s++) {
            if (plan->has_radix2 && s == plan->n_radix4 - 1) { /* span 8, then radix 2 */
                proper__fft_dif8_last(re + b, im + b, chunk);
                break;
            }
            proper__fft_dif_stage(plan, re + b, im + b, chunk, s);
        }
}

/* Complex inverse (unnormalised) FFT of length m: bit-reversed split arrays
 * in (overwritten), natural order interleaved into x. */
static void proper__fft_complex_inverse(const proper_fft_plan *plan, double *re, double *im, double *x) {
    size_t m = plan->m, chunk = m < plan->block ? m : plan->block, b, j;
    int s, n_stages = proper__fft_n_stages(plan);
    for (b = 0; b < m; b += chunk)
        for (s = n_stages - 1; s >= plan->n_big; s--) {
            if (plan->has_radix2 && s == plan->n_radix4 && s >= 1 && plan->n_big <= s - 1) {
                proper__fft_dit8_first(re + b, im + b, chunk); /* radix 2, then span 8 */
                s--;
                continue;
            }
            proper__fft_dit_stage(plan, re + b, im + b, chunk, s);
        }
    if (plan->n_big > 0) {
        for (s = plan->n_big - 1; s >= 1; s--) proper__fft_dit_stage(plan, re, im, m, s);
        proper__fft_dit4_w1_to(re, im, x, m / 4, plan->twiddle);
    } else {
        for (j = 0; j < m; j++) {
            x[2 * j] = re[j];
            x[2 * j + 1] = im[j];
        }
    }
}

/* Real-packing pass on a bit-reversed spectrum Z (re[0..m-1], im[0..m-1]):
 * for each pair of bins k, m-k,
 *   E = (Z[k] + conj Z[m-k]) / 2,  O = (Z[k] - conj Z[m-k]) / (2i),
 *   X[k] = E + W_n^k O,  X[m-k] = conj(E - W_n^k O).
 * In bit-reversed order the partner of index p in [2^s, 2^(s+1)) is
 * 3*2^s - 1 - p: each octave is walked from both ends. Bin 0 pairs with
 * bin m: X[0] = Re Z0 + Im Z0, X[m] = Re Z0 - Im Z0. */
static void proper__fft_post(const proper_fft_plan *plan, double *re, double *im) {
    size_t m = plan->m, n_post = m / 2 + 1, lo, p;
    double z0r = re[0], z0i = im[0];
    re[0] = z0r + z0i; im[0] = 0.0;
    re[m] = z0r - z0i; im[m] = 0.0;
    for (lo = 1; lo < m; lo *= 2) {
        size_t hi = 3 * lo - 1;
        const double *wr = plan->post + proper__fft_post_base(lo) - lo;
        const double *wi = plan->post + n_post + proper__fft_post_base(lo) - lo;
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
    size_t m = plan->m, n_post = m / 2 + 1, lo, p;
    double h = 0.5 * scale;
    double x0 = re[0], xm = re[m];
    re[0] = h * (x0 + xm);
    im[0] = h * (x0 - xm);
    for (lo = 1; lo < m; lo *= 2) {
        size_t hi = 3 * lo - 1;
        const double *wr = plan->post + proper__fft_post_base(lo) - lo;
        const double *wi = plan->post + n_post + proper__fft_post_base(lo) - lo;
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
    double *re = spec, *im = spec + plan->m + 1;
    proper__fft_complex_forward(plan, x, re, im);
    proper__fft_post(plan, re, im);
}

PROPER_API void proper_fft_inverse_unordered(const proper_fft_plan *plan, double *spec, double *x) {
    double *re = spec, *im = spec + plan->m + 1;
    proper__fft_pre(plan, re, im, 2.0 / (double)plan->n);
    proper__fft_complex_inverse(plan, re, im, x);
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
