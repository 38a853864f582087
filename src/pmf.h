/* pmf.h — discrete probability mass functions on a grid.
 *
 * A proper_pmf is a distribution on the grid offset + i*width, i = 0..n-1,
 * plus an explicit `tail`: probability mass that truncation removed from the
 * grid. Nothing is silently lost: sum(p) + tail == 1 (to round-off) always.
 *
 * The tail. Mass goes to the tail when a PMF is truncated (proper_pmf_truncate,
 * the Markovian loop's infinite support). Where a single truncation put it, it
 * lies beyond the last bin. Operations carry it along exactly:
 *   convolution  tail = 1 - (1 - ta)(1 - tb)    (either operand off the grid)
 *   mixture      tail = sum_i w_i t_i
 *   loops        tail = 1 - sum_i P(i) (1 - t)^i  (any iteration off the grid)
 * After a convolution the tail's location is no longer "beyond the last bin"
 * but only "somewhere above the first bin": it is mass of unknown location.
 *
 * Statistics and the tail.
 *   mean, variance, std, mode: of the grid part only, conditioned on it (the
 *     grid probabilities divided by their sum 1 - tail);
 *   cdf(v): P(X <= v and X on the grid), unconditioned: a lower bound on the
 *     true CDF, exact when tail == 0;
 *   quantile(q): the smallest grid value whose unconditioned cdf reaches q,
 *     an upper bound on the true quantile, exact when tail == 0, and +INFINITY
 *     when the grid mass is below q (the quantile lies in the tail).
 * An empty PMF (n == 0) gives NaN for every statistic.
 *
 * Offsets. Values are offset + i*width. The convolution of PMFs with offsets
 * oa and ob has offset oa + ob (bins add). A mixture's grid starts at the
 * smallest offset; its operands' offsets must differ by whole widths. An
 * i-fold sum of X has offset i*offset(X); loops mix different i, so their
 * body's offset must be a whole number of widths (else the sums of different
 * iteration counts fall on different grids: PROPER_EINVAL).
 *
 * Widths. Binary operations require equal widths (relative difference below
 * PROPER_PMF_WIDTH_RTOL) and report PROPER_EINVAL otherwise: they never
 * resample silently. proper_pmf_resample changes a width explicitly.
 *
 * Building. proper_pmf_from_samples and the explicit-width forms of
 * proper_pmf_from_values / proper_pmf_parse_csv put every value on the nearest
 * point of the grid anchored at multiples of width (offset = width *
 * round(min / width)). With width <= 0, proper_pmf_from_values and the CSV
 * parser infer the width as the (tolerant) greatest common divisor of the
 * differences between distinct values, anchored at the smallest value, so that
 * every value lies on the grid exactly. proper_pmf_gcd_width chooses a width
 * from samples by the rule of Koziolek & Firus (2007): the greatest common
 * divisor of the sample values, measured in units of a resolution.
 *
 * Convolution picks direct O(na*nb) summation or an FFT of length
 * N = next_pow2(na + nb - 1) by a cost model: FFT when
 *   na * nb > PROPER_PMF_FFT_COST * N * log2(N)
 * with PROPER_PMF_FFT_COST measured on the development machine (AMD EPYC,
 * AVX+FMA, gcc -O2/-O3; bench/bench_fft.c prints the measurement): see the
 * constant's comment for the crossover sizes. FFT results are clamped of
 * round-off negatives and renormalised so the grid mass equals its exact value
 * (e.g. (1 - ta)(1 - tb)) to 1e-12.
 *
 * Loops are computed in the frequency domain in one pass: one forward FFT of
 * the body, the iteration-count PMF applied as a polynomial in the transform
 * by Horner's rule (times F^imin by repeated squaring), one inverse FFT. The
 * transform length covers the whole support of the result, so nothing wraps
 * around. The Markovian loop uses the closed form G(F) = (1-p) / (1 - p F) of
 * the geometric iteration count; see proper_pmf_markov_loop for how its
 * truncation and transform length are chosen.
 *
 * `out` may be the same object as an input in every operation: the result is
 * computed into a fresh PMF which then replaces *out, freeing what *out held.
 * So every PMF passed as `out` must be initialised first (proper_pmf_init) or
 * hold an earlier result. On failure *out is left unchanged.
 */
#ifndef PROPER_PMF_H
#define PROPER_PMF_H

#include "core.h"
#include "fft.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct proper_pmf {
    double offset; /* value of bin 0 */
    double width;  /* bin width, > 0 */
    size_t n;      /* number of bins */
    double *p;     /* n probabilities */
    double tail;   /* mass dropped by truncation (see above); sum(p) + tail == 1 */
} proper_pmf;

/* Input probabilities (CSV rows, from_values, iteration PMFs, mixture
 * weights) must sum to 1 within this; they are then renormalised exactly. */
#ifndef PROPER_PMF_SUM_TOL
#define PROPER_PMF_SUM_TOL 1e-6
#endif
/* Two widths are equal when they differ by less than this fraction. */
#ifndef PROPER_PMF_WIDTH_RTOL
#define PROPER_PMF_WIDTH_RTOL 1e-9
#endif
/* Offsets (in widths) and values that are this close to a grid point are on it. */
#ifndef PROPER_PMF_GRID_TOL
#define PROPER_PMF_GRID_TOL 1e-6
#endif
/* Largest number of bins any operation will create (PROPER_ELIMIT beyond);
 * define it before including to change it. */
#ifndef PROPER_PMF_MAX_BINS
#define PROPER_PMF_MAX_BINS ((size_t)1 << 27)
#endif
/* Largest number of bins an inferred width may produce (PROPER_EINVAL beyond:
 * the values have no usable common spacing; pass a width). */
#ifndef PROPER_PMF_MAX_INFERRED_BINS
#define PROPER_PMF_MAX_INFERRED_BINS ((size_t)1 << 20)
#endif
/* quantile(q) accepts a cumulative mass of q - PROPER_PMF_QUANTILE_TOL, so that
 * round-off in the running sum does not skip a bin. */
#ifndef PROPER_PMF_QUANTILE_TOL
#define PROPER_PMF_QUANTILE_TOL 1e-12
#endif
/* Loops skip Horner terms below this in the transform (see
 * proper__pmf_poly_spectrum); output bins move by at most twice this. */
#ifndef PROPER_PMF_HORNER_TOL
#define PROPER_PMF_HORNER_TOL 1e-18
#endif
/* Direct-vs-FFT cost constant (see the header comment). Measured on the
 * development machine (AMD EPYC, CPU time of whole calls including plan
 * creation), the two methods cost the same at x = na*nb / (N log2 N) of
 * about 4-5 with gcc -O2 (direct summation stays scalar: equal lengths 64
 * take 1.1 us direct vs 1.4 us FFT, 128 take 4.3 vs 2.7 us) and about 6-10
 * with gcc -O3 -march=native (vectorised direct summation: 128 x 128 take
 * 1.2 vs 1.6 us, 1024 x 128 10.8 vs 10.6 us, 8192 x 256 127 vs 124 us).
 * 6 sits between the two; a choice on the wrong side near the crossover
 * costs at most about 1.3x. bench/bench_fft.c prints the crossover. Define
 * it before including to tune it for other machines or flags. */
/* A loop whose iteration counts span more than this many values is computed
 * by halving its count polynomial, H(X) = H_lo(X) + X^m H_hi(X), with each
 * product an FFT convolution of only the bins it needs (about N log N log D
 * for N result bins and D counts), instead of Horner's rule on the result's
 * whole transform (up to N D when the body's spectrum is near 1 in
 * magnitude, e.g. 10^6 counts took minutes). */
#ifndef PROPER_PMF_LOOP_SPLIT
#define PROPER_PMF_LOOP_SPLIT 64
#endif
#ifndef PROPER_PMF_FFT_COST
#define PROPER_PMF_FFT_COST 6.0
#endif

PROPER_API void proper_pmf_init(proper_pmf *x);              /* empty; safe to free */
PROPER_API void proper_pmf_free(proper_pmf *x);
PROPER_API int proper_pmf_copy(proper_pmf *out, const proper_pmf *x, proper_error *err);
/* All mass at `value` (one bin of the given width). */
PROPER_API int proper_pmf_point(proper_pmf *out, double value, double width, proper_error *err);
/* Empirical PMF of n finite samples on the grid of multiples of width (> 0). */
PROPER_API int proper_pmf_from_samples(proper_pmf *out, const double *xs, size_t n, double width, proper_error *err);
/* PMF from (value, probability) pairs. Probabilities finite, >= 0, summing to
 * 1 within PROPER_PMF_SUM_TOL; a value of +INFINITY puts its probability in
 * the tail; repeated values add. width <= 0: infer (see above). */
PROPER_API int proper_pmf_from_values(proper_pmf *out, const double *values, const double *probs, size_t n, double width, proper_error *err);
/* "value,prob" rows, optional header line, '#' comment lines and blank lines
 * ignored; `name` is the file name used in error positions; width as in
 * proper_pmf_from_values. Errors carry name:line:col. */
PROPER_API int proper_pmf_parse_csv(proper_pmf *out, const char *text, size_t len, const char *name, double width, proper_error *err);
/* proper_pmf_parse_csv on the file at `path`. */
PROPER_API int proper_pmf_read_csv(proper_pmf *out, const char *path, double width, proper_error *err);
/* An iteration-count PMF from "count,prob" rows (header, comments and blank
 * lines as above): counts are non-negative integers below
 * PROPER_PMF_MAX_BINS, probabilities as in proper_pmf_from_values (no tail
 * row). On success *probs (free with PROPER_FREE) holds P(i) for
 * i = 0..*n-1, *n = largest count + 1, summing to 1: the form that
 * proper_pmf_loop takes. Errors carry name:line:col. */
PROPER_API int proper_pmf_parse_counts(const char *text, size_t len, const char *name, double **probs, size_t *n,
                                       proper_error *err);
/* proper_pmf_parse_counts on the file at `path`. */
PROPER_API int proper_pmf_read_counts(const char *path, double **probs, size_t *n, proper_error *err);
/* Write "value,prob" with a header, one row per bin, and a row "inf,<tail>"
 * when tail > 0; proper_pmf_parse_csv reads it back. */
PROPER_API int proper_pmf_write_csv(const proper_pmf *x, FILE *f, proper_error *err);

/* Koziolek & Firus's rule: the greatest common divisor of the samples, after
 * rounding each to a multiple of `resolution` (> 0); samples all zero give
 * `resolution`. Samples must be finite with |x| / resolution < 2^53. */
PROPER_API int proper_pmf_gcd_width(const double *xs, size_t n, double resolution, double *width, proper_error *err);

/* Value of bin i: offset + i * width. */
PROPER_API double proper_pmf_value(const proper_pmf *x, size_t i);
/* Grid mass sum(p) (== 1 - tail up to round-off). */
PROPER_API double proper_pmf_mass(const proper_pmf *x);
/* Check the invariants: width > 0 and finite, p finite and >= 0, tail in
 * [0, 1], sum(p) + tail == 1 within PROPER_PMF_SUM_TOL. */
PROPER_API int proper_pmf_validate(const proper_pmf *x, proper_error *err);

PROPER_API double proper_pmf_mean(const proper_pmf *x);
PROPER_API double proper_pmf_variance(const proper_pmf *x);
PROPER_API double proper_pmf_std(const proper_pmf *x);
PROPER_API double proper_pmf_mode(const proper_pmf *x);
PROPER_API double proper_pmf_quantile(const proper_pmf *x, double q);
PROPER_API double proper_pmf_cdf(const proper_pmf *x, double value);

/* Move to a new width (> 0). Each bin's mass is split between the two nearest
 * points of the new grid (anchored at multiples of the new width) in
 * proportion to proximity, which keeps the mean exact; to a coarser width the
 * variance grows by at most width^2 / 4. */
PROPER_API int proper_pmf_resample(proper_pmf *out, const proper_pmf *x, double width, proper_error *err);
/* Drop trailing bins whose total mass is at most eps into the tail, and
 * leading and trailing bins of zero mass. Keeps at least one bin. */
PROPER_API void proper_pmf_truncate(proper_pmf *x, double eps);

PROPER_API int proper_pmf_convolve(proper_pmf *out, const proper_pmf *a, const proper_pmf *b, proper_error *err);
/* The two convolution methods, for tests and benchmarks. */
PROPER_API int proper_pmf_convolve_direct(proper_pmf *out, const proper_pmf *a, const proper_pmf *b, proper_error *err);
PROPER_API int proper_pmf_convolve_fft(proper_pmf *out, const proper_pmf *a, const proper_pmf *b, proper_error *err);
/* Weighted mixture of k PMFs; weights >= 0 summing to 1 within PROPER_PMF_SUM_TOL. */
PROPER_API int proper_pmf_mixture(proper_pmf *out, const proper_pmf *const *xs, const double *weights, size_t k, proper_error *err);
PROPER_API int proper_pmf_power(proper_pmf *out, const proper_pmf *x, unsigned n, proper_error *err);   /* n-fold convolution; n = 0 gives the point mass at 0 */
/* Non-Markovian loop (Koziolek & Firus): sum_i iters[i] * body^{*i};
 * iters[i] = P(i iterations), i = 0..n_iters-1, summing to 1. */
PROPER_API int proper_pmf_loop(proper_pmf *out, const proper_pmf *body, const double *iters, size_t n_iters, proper_error *err);
/* Markovian loop: P(i iterations) = (1-p) p^i, i >= 0, p in [0, 1), body
 * offset >= 0 (a duration). The grid is cut at the smallest L with
 * P(T >= L) <= eps, bounded by Chernoff's inequality
 *   P(T >= L) <= min_theta E[theta^T] theta^-L,
 *   E[theta^T] = (1-p) / (1 - p B(theta)),  B = the body's PGF (grid part),
 * minimised over theta in (1, theta_max) where p B(theta_max) = 1. Bins from L
 * on go to the tail, then trailing bins whose mass fits in what is left of
 * eps (the bound is conservative), so the tail is at most eps beyond what the
 * body's own tail implies. The FFT length N = next_pow2(L) >= L, so the mass
 * wrapping around onto the grid is at most P(T >= N) <= eps. eps in (0, 1). */
PROPER_API int proper_pmf_markov_loop(proper_pmf *out, const proper_pmf *body, double p_reenter, double eps, proper_error *err); /* P(i iterations) = (1-p) p^i, i>=0; mass beyond the grid where < eps goes to tail */

#ifdef __cplusplus
}
#endif
#endif /* PROPER_PMF_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_PMF_IMPLEMENTATION
#define PROPER_PMF_IMPLEMENTATION

#include <math.h>
#include <stdlib.h>
#include <string.h>

PROPER_API void proper_pmf_init(proper_pmf *x) {
    x->offset = 0.0;
    x->width = 1.0;
    x->n = 0;
    x->p = NULL;
    x->tail = 0.0;
}

PROPER_API void proper_pmf_free(proper_pmf *x) {
    PROPER_FREE(x->p);
    proper_pmf_init(x);
}

/* A fresh PMF of n zeroed bins. */
static int proper__pmf_alloc(proper_pmf *x, size_t n, double offset, double width, proper_error *err) {
    proper_pmf_init(x);
    if (n > PROPER_PMF_MAX_BINS)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                "PMF of %zu bins exceeds the limit of %zu (PROPER_PMF_MAX_BINS)", n,
                                (size_t)PROPER_PMF_MAX_BINS);
    x->p = (double *)proper_calloc(n ? n : 1, sizeof(double));
    if (!x->p) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory for a PMF of %zu bins", n);
    x->n = n;
    x->offset = offset;
    x->width = width;
    return PROPER_OK;
}

/* Replace *out by *fresh (taking ownership). */
static void proper__pmf_replace(proper_pmf *out, proper_pmf *fresh) {
    PROPER_FREE(out->p);
    *out = *fresh;
    proper_pmf_init(fresh);
}

PROPER_API int proper_pmf_validate(const proper_pmf *x, proper_error *err);

/* Hand a freshly computed result over to *out after checking it: values
 * finite (offset and last bin: an operation on values near the double range
 * can overflow them) and the invariants of proper_pmf_validate. On failure the
 * result is freed, *out is unchanged and the error names the operation. */
static int proper__pmf_commit(proper_pmf *out, proper_pmf *r, const char *what, proper_error *err) {
    double last = r->offset + (double)(r->n ? r->n - 1 : 0) * r->width;
    proper_error inner;
    if (!isfinite(r->offset) || !isfinite(last)) {
        int rc = proper_error_set(err, PROPER_ERANGE, NULL, 0, 0,
                                  "the %s's values would lie beyond the range of a double (%zu bins of width %g "
                                  "from %g)",
                                  what, r->n, r->width, r->offset);
        proper_pmf_free(r);
        return rc;
    }
    memset(&inner, 0, sizeof inner);
    if (proper_pmf_validate(r, &inner) != PROPER_OK) {
        int rc = proper_error_set(err, inner.code, NULL, 0, 0, "the %s is not a valid PMF: %s", what, inner.message);
        proper_pmf_free(r);
        return rc;
    }
    proper__pmf_replace(out, r);
    return PROPER_OK;
}

static int proper__pmf_check_width(double width, proper_error *err) {
    if (!(width > 0.0) || isinf(width))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "bin width %g must be finite and > 0", width);
    return PROPER_OK;
}

static int proper__pmf_nonempty(const proper_pmf *x, const char *what, proper_error *err) {
    if (x->n == 0 || !x->p) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s is an empty PMF", what);
    return PROPER_OK;
}

static int proper__pmf_same_width(const proper_pmf *a, const proper_pmf *b, proper_error *err) {
    double big = fmax(a->width, b->width);
    if (fabs(a->width - b->width) > PROPER_PMF_WIDTH_RTOL * big)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "bin widths differ (%.17g vs %.17g): resample one PMF first", a->width, b->width);
    return PROPER_OK;
}

/* Number of bins needed to span [lo, hi] with the given width, or an error. */
static int proper__pmf_span_bins(double lo, double hi, double width, size_t *n, proper_error *err) {
    double bins = floor((hi - lo) / width + 0.5) + 1.0;
    if (!(bins <= (double)PROPER_PMF_MAX_BINS))
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                "range [%g, %g] at width %g needs %.3g bins, more than PROPER_PMF_MAX_BINS (%zu)", lo,
                                hi, width, bins, (size_t)PROPER_PMF_MAX_BINS);
    *n = (size_t)bins;
    return PROPER_OK;
}

PROPER_API int proper_pmf_copy(proper_pmf *out, const proper_pmf *x, proper_error *err) {
    proper_pmf r;
    int rc = proper__pmf_alloc(&r, x->n, x->offset, x->width, err);
    if (rc) return rc;
    if (x->n) memcpy(r.p, x->p, x->n * sizeof(double));
    r.tail = x->tail;
    proper__pmf_replace(out, &r);
    return PROPER_OK;
}

PROPER_API int proper_pmf_point(proper_pmf *out, double value, double width, proper_error *err) {
    proper_pmf r;
    int rc;
    if (!isfinite(value)) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "point value %g is not finite", value);
    if ((rc = proper__pmf_check_width(width, err)) != 0) return rc;
    if ((rc = proper__pmf_alloc(&r, 1, value, width, err)) != 0) return rc;
    r.p[0] = 1.0;
    return proper__pmf_commit(out, &r, "point mass", err);
}

PROPER_API double proper_pmf_value(const proper_pmf *x, size_t i) { return x->offset + (double)i * x->width; }

PROPER_API double proper_pmf_mass(const proper_pmf *x) {
    double s = 0.0;
    size_t i;
    for (i = 0; i < x->n; i++) s += x->p[i];
    return s;
}

PROPER_API int proper_pmf_validate(const proper_pmf *x, proper_error *err) {
    size_t i;
    double mass;
    int rc;
    if ((rc = proper__pmf_check_width(x->width, err)) != 0) return rc;
    if (!isfinite(x->offset)) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "offset %g is not finite", x->offset);
    if (x->n && !x->p) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "PMF of %zu bins has no data", x->n);
    for (i = 0; i < x->n; i++)
        if (!(x->p[i] >= 0.0) || isinf(x->p[i]))
            return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "bin %zu has probability %g", i, x->p[i]);
    if (!(x->tail >= 0.0 && x->tail <= 1.0))
        return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "tail mass %g is outside [0, 1]", x->tail);
    mass = proper_pmf_mass(x) + x->tail;
    if (fabs(mass - 1.0) > PROPER_PMF_SUM_TOL)
        return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "grid mass plus tail is %.15g, not 1", mass);
    return PROPER_OK;
}

/* ---- building ---- */

/* Values and probabilities to bins. `pos` (may be NULL) gives each pair's
 * file position for error messages: {line, col of value, col of prob}. */
typedef struct proper__pmf_pos {
    int line, value_col, prob_col;
} proper__pmf_pos;

static int proper__pmf_pair_error(proper_error *err, int code, const char *file, const proper__pmf_pos *pos, size_t i,
                                  int at_prob, const char *what, double v) {
    if (pos)
        return proper_error_set(err, code, file, pos[i].line, at_prob ? pos[i].prob_col : pos[i].value_col, "%s %g",
                                what, v);
    return proper_error_set(err, code, file, 0, 0, "%s %g (pair %zu)", what, v, i);
}

static int proper__pmf_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

/* Greatest common divisor of a, b >= 0 by Euclid's algorithm, treating
 * remainders within tol of 0 or of the divisor as 0. */
static double proper__pmf_fgcd(double a, double b, double tol) {
    while (b > tol) {
        double r = fmod(a, b);
        if (b - r <= tol) r = 0.0;
        a = b;
        b = r;
    }
    return a;
}

/* Width inferred from the spacing of the distinct finite values. */
static int proper__pmf_infer_width(const double *values, size_t n, const char *file, double *width, proper_error *err) {
    double *v = NULL, w = 0.0, dmin = 0.0, tol, bins_d;
    size_t i, k = 0;
    v = (double *)proper_calloc(n, sizeof(double));
    if (!v) return proper_error_set(err, PROPER_ENOMEM, file, 0, 0, "out of memory");
    for (i = 0; i < n; i++)
        if (isfinite(values[i])) v[k++] = values[i];
    qsort(v, k, sizeof(double), proper__pmf_cmp_double);
    for (i = 1; i < k; i++) {
        double d = v[i] - v[i - 1];
        if (d > 0.0 && (dmin == 0.0 || d < dmin)) dmin = d;
    }
    if (dmin == 0.0) { /* one distinct value: any width represents it */
        PROPER_FREE(v);
        *width = 1.0;
        return PROPER_OK;
    }
    tol = PROPER_PMF_GRID_TOL * dmin;
    w = dmin;
    for (i = 1; i < k; i++) {
        double d = v[i] - v[0];
        if (d > tol) w = proper__pmf_fgcd(d, w, tol);
    }
    bins_d = (v[k - 1] - v[0]) / w + 1.0;
    PROPER_FREE(v);
    if (!(w > tol) || !(bins_d <= (double)PROPER_PMF_MAX_INFERRED_BINS))
        return proper_error_set(err, PROPER_EINVAL, file, 0, 0,
                                "cannot infer a bin width: the values have no common spacing above %g "
                                "(inferred %g would need %.3g bins); give a width",
                                tol, w, bins_d);
    *width = w;
    return PROPER_OK;
}

/* Bin pairs (values[i], probs[i]): checks probabilities, sums them, moves
 * +inf values to the tail, snaps values to the grid, renormalises. */
static int proper__pmf_build(proper_pmf *out, const double *values, const double *probs, size_t n, double width,
                             const char *file, const proper__pmf_pos *pos, proper_error *err) {
    proper_pmf r;
    double total = 0.0, tail = 0.0, lo = INFINITY, hi = -INFINITY, offset;
    size_t i, bins = 0;
    int rc, anchored = width > 0.0;
    if (n == 0) return proper_error_set(err, PROPER_EINVAL, file, 0, 0, "no values: a PMF needs at least one");
    if (width > 0.0 && isinf(width)) return proper__pmf_check_width(width, err);
    for (i = 0; i < n; i++) {
        if (isnan(values[i])) return proper__pmf_pair_error(err, PROPER_EINVAL, file, pos, i, 0, "value is", values[i]);
        if (values[i] == -INFINITY) return proper__pmf_pair_error(err, PROPER_EINVAL, file, pos, i, 0, "value is", values[i]);
        if (isnan(probs[i])) return proper__pmf_pair_error(err, PROPER_EPROB, file, pos, i, 1, "probability is", probs[i]);
        if (probs[i] < 0.0) return proper__pmf_pair_error(err, PROPER_EPROB, file, pos, i, 1, "negative probability", probs[i]);
        if (isinf(probs[i])) return proper__pmf_pair_error(err, PROPER_EPROB, file, pos, i, 1, "probability is", probs[i]);
        total += probs[i];
        if (isinf(values[i])) {
            tail += probs[i];
        } else {
            lo = fmin(lo, values[i]);
            hi = fmax(hi, values[i]);
        }
    }
    if (!(total > 0.0)) return proper_error_set(err, PROPER_EPROB, file, 0, 0, "probabilities sum to zero");
    if (fabs(total - 1.0) > PROPER_PMF_SUM_TOL)
        return proper_error_set(err, PROPER_EPROB, file, 0, 0, "probabilities sum to %.15g, not 1 (tolerance %g)", total,
                                PROPER_PMF_SUM_TOL);
    if (lo > hi) return proper_error_set(err, PROPER_EINVAL, file, 0, 0, "no finite values: all the mass is in the tail");
    if (!anchored && (rc = proper__pmf_infer_width(values, n, file, &width, err)) != 0) return rc;
    offset = anchored ? width * floor(lo / width + 0.5) : lo;
    if ((rc = proper__pmf_span_bins(offset, anchored ? width * floor(hi / width + 0.5) : hi, width, &bins, err)) != 0)
        return rc;
    if ((rc = proper__pmf_alloc(&r, bins, offset, width, err)) != 0) return rc;
    for (i = 0; i < n; i++) {
        double k;
        if (isinf(values[i]) || probs[i] == 0.0) continue;
        k = floor((values[i] - offset) / width + 0.5);
        if (k < 0.0) k = 0.0;
        if (k > (double)(bins - 1)) k = (double)(bins - 1);
        r.p[(size_t)k] += probs[i] / total;
    }
    r.tail = tail / total;
    return proper__pmf_commit(out, &r, "PMF read", err);
}

PROPER_API int proper_pmf_from_values(proper_pmf *out, const double *values, const double *probs, size_t n,
                                      double width, proper_error *err) {
    return proper__pmf_build(out, values, probs, n, width, NULL, NULL, err);
}

PROPER_API int proper_pmf_from_samples(proper_pmf *out, const double *xs, size_t n, double width, proper_error *err) {
    proper_pmf r;
    double lo = INFINITY, hi = -INFINITY, offset;
    size_t i, bins = 0;
    int rc;
    if ((rc = proper__pmf_check_width(width, err)) != 0) return rc;
    if (n == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no samples");
    for (i = 0; i < n; i++) {
        if (!isfinite(xs[i]))
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "sample %zu is %g (must be finite)", i, xs[i]);
        lo = fmin(lo, xs[i]);
        hi = fmax(hi, xs[i]);
    }
    offset = width * floor(lo / width + 0.5);
    if ((rc = proper__pmf_span_bins(offset, width * floor(hi / width + 0.5), width, &bins, err)) != 0) return rc;
    if ((rc = proper__pmf_alloc(&r, bins, offset, width, err)) != 0) return rc;
    for (i = 0; i < n; i++) {
        double k = floor((xs[i] - offset) / width + 0.5);
        if (k < 0.0) k = 0.0;
        if (k > (double)(bins - 1)) k = (double)(bins - 1);
        r.p[(size_t)k] += 1.0;
    }
    for (i = 0; i < bins; i++) r.p[i] /= (double)n;
    return proper__pmf_commit(out, &r, "empirical PMF", err);
}

static unsigned long long proper__pmf_gcd_u64(unsigned long long a, unsigned long long b) {
    while (b) {
        unsigned long long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

PROPER_API int proper_pmf_gcd_width(const double *xs, size_t n, double resolution, double *width, proper_error *err) {
    unsigned long long g = 0;
    size_t i;
    int rc;
    if ((rc = proper__pmf_check_width(resolution, err)) != 0) return rc;
    for (i = 0; i < n; i++) {
        double units;
        if (!isfinite(xs[i]))
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "sample %zu is %g (must be finite)", i, xs[i]);
        units = fabs(floor(xs[i] / resolution + 0.5));
        if (!(units < 9007199254740992.0)) /* 2^53: integers stay exact */
            return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0,
                                    "sample %g is more than 2^53 resolutions of %g from zero", xs[i], resolution);
        g = proper__pmf_gcd_u64(g, (unsigned long long)units);
    }
    *width = g ? (double)g * resolution : resolution;
    return PROPER_OK;
}

/* ---- CSV ---- */

static int proper__pmf_at_line_end(const proper_cursor *c) {
    return c->p >= c->end || *c->p == '\n';
}

static void proper__pmf_skip_line(proper_cursor *c) {
    while (c->p < c->end && *c->p != '\n') proper_cursor_advance(c);
    proper_cursor_advance(c);
}

/* Parse "value,prob" at the cursor (blanks allowed around fields). */
static int proper__pmf_parse_row(proper_cursor *c, double *value, double *prob, proper__pmf_pos *pos, proper_error *err) {
    int rc;
    proper_cursor_skip_blanks(c);
    pos->line = c->line;
    pos->value_col = c->col;
    if ((rc = proper_parse_double(c, value, err)) != 0) return rc;
    proper_cursor_skip_blanks(c);
    if (c->p >= c->end || *c->p != ',') return proper_cursor_error(c, err, PROPER_EPARSE, "expected ',' after the value");
    proper_cursor_advance(c);
    proper_cursor_skip_blanks(c);
    pos->prob_col = c->col;
    if ((rc = proper_parse_double(c, prob, err)) != 0) return rc;
    proper_cursor_skip_blanks(c);
    if (!proper__pmf_at_line_end(c))
        return proper_cursor_error(c, err, PROPER_EPARSE, "expected the end of the line after the probability");
    return PROPER_OK;
}

/* A line that does not start like a number (a header). */
static int proper__pmf_is_header(const proper_cursor *c) {
    proper_cursor probe = *c;
    double v;
    return proper_parse_double(&probe, &v, NULL) != 0;
}

/* The rows of a "value,prob" text: values[], probs[] and positions. */
typedef struct proper__pmf_rows {
    double *values, *probs;
    proper__pmf_pos *pos;
    size_t n, cap_v, cap_p, cap_pos;
} proper__pmf_rows;

static void proper__pmf_rows_free(proper__pmf_rows *r) {
    PROPER_FREE(r->values);
    PROPER_FREE(r->probs);
    PROPER_FREE(r->pos);
}

static int proper__pmf_read_rows(proper__pmf_rows *rows, const char *text, size_t len, const char *name,
                                 proper_error *err) {
    proper_cursor c;
    int rc, seen_content = 0;
    memset(rows, 0, sizeof *rows);
    proper_skip_bom(&text, &len);
    proper_cursor_init(&c, text, len, name);
    while (c.p < c.end) {
        double value, prob;
        proper__pmf_pos here;
        proper_cursor_skip_blanks(&c);
        if (proper__pmf_at_line_end(&c) || *c.p == '#') {
            proper__pmf_skip_line(&c);
            continue;
        }
        if (!seen_content && proper__pmf_is_header(&c)) {
            seen_content = 1;
            proper__pmf_skip_line(&c);
            continue;
        }
        seen_content = 1;
        if ((rc = proper__pmf_parse_row(&c, &value, &prob, &here, err)) != 0) return rc;
        if (PROPER_PUSH(rows->values, rows->n, rows->cap_v, value) ||
            proper_reserve(&rows->probs, &rows->cap_p, rows->n, sizeof *rows->probs) ||
            proper_reserve(&rows->pos, &rows->cap_pos, rows->n, sizeof *rows->pos))
            return proper_error_set(err, PROPER_ENOMEM, name, 0, 0, "out of memory reading a PMF");
        rows->probs[rows->n - 1] = prob;
        rows->pos[rows->n - 1] = here;
        proper__pmf_skip_line(&c);
    }
    if (rows->n == 0) return proper_error_set(err, PROPER_EPARSE, name, c.line, c.col, "no \"value,prob\" rows");
    return PROPER_OK;
}

PROPER_API int proper_pmf_parse_csv(proper_pmf *out, const char *text, size_t len, const char *name, double width,
                                    proper_error *err) {
    proper__pmf_rows rows;
    int rc = proper__pmf_read_rows(&rows, text, len, name, err);
    if (rc == PROPER_OK) rc = proper__pmf_build(out, rows.values, rows.probs, rows.n, width, name, rows.pos, err);
    proper__pmf_rows_free(&rows);
    return rc;
}

PROPER_API int proper_pmf_parse_counts(const char *text, size_t len, const char *name, double **probs, size_t *n,
                                       proper_error *err) {
    proper__pmf_rows rows;
    double *dense = NULL, total = 0.0, top = 0.0;
    size_t i;
    int rc = proper__pmf_read_rows(&rows, text, len, name, err);
    *probs = NULL;
    *n = 0;
    for (i = 0; rc == PROPER_OK && i < rows.n; i++) {
        double v = rows.values[i], q = rows.probs[i];
        if (!(v >= 0.0) || v != floor(v) || !(v < (double)PROPER_PMF_MAX_BINS))
            rc = proper__pmf_pair_error(err, PROPER_EINVAL, name, rows.pos, i, 0,
                                        "iteration count must be an integer in [0, PROPER_PMF_MAX_BINS), got", v);
        else if (!(q >= 0.0) || isinf(q))
            rc = proper__pmf_pair_error(err, PROPER_EPROB, name, rows.pos, i, 1,
                                        q < 0.0 ? "negative probability" : "probability is", q);
        else {
            total += q;
            top = fmax(top, v);
        }
    }
    if (rc == PROPER_OK && !(total > 0.0)) rc = proper_error_set(err, PROPER_EPROB, name, 0, 0, "probabilities sum to zero");
    if (rc == PROPER_OK && fabs(total - 1.0) > PROPER_PMF_SUM_TOL)
        rc = proper_error_set(err, PROPER_EPROB, name, 0, 0, "probabilities sum to %.15g, not 1 (tolerance %g)", total,
                              PROPER_PMF_SUM_TOL);
    if (rc == PROPER_OK && !(dense = (double *)proper_calloc((size_t)top + 1, sizeof(double))))
        rc = proper_error_set(err, PROPER_ENOMEM, name, 0, 0, "out of memory");
    if (rc == PROPER_OK) {
        for (i = 0; i < rows.n; i++) dense[(size_t)rows.values[i]] += rows.probs[i] / total;
        *probs = dense;
        *n = (size_t)top + 1;
    }
    proper__pmf_rows_free(&rows);
    return rc;
}

PROPER_API int proper_pmf_read_counts(const char *path, double **probs, size_t *n, proper_error *err) {
    char *text;
    size_t len;
    int rc = proper_read_file(path, &text, &len, err);
    if (rc) return rc;
    rc = proper_pmf_parse_counts(text, len, path, probs, n, err);
    PROPER_FREE(text);
    return rc;
}

PROPER_API int proper_pmf_read_csv(proper_pmf *out, const char *path, double width, proper_error *err) {
    char *text;
    size_t len;
    int rc = proper_read_file(path, &text, &len, err);
    if (rc) return rc;
    rc = proper_pmf_parse_csv(out, text, len, path, width, err);
    PROPER_FREE(text);
    return rc;
}

PROPER_API int proper_pmf_write_csv(const proper_pmf *x, FILE *f, proper_error *err) {
    char v[PROPER_DOUBLE_CHARS], p[PROPER_DOUBLE_CHARS];
    size_t i;
    if (fprintf(f, "value,prob\n") < 0) return proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write failed");
    for (i = 0; i < x->n; i++)
        if (fprintf(f, "%s,%s\n", proper_format_double(v, proper_pmf_value(x, i)), proper_format_double(p, x->p[i])) < 0)
            return proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write failed");
    if (x->tail > 0.0 && fprintf(f, "inf,%s\n", proper_format_double(p, x->tail)) < 0)
        return proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write failed");
    return PROPER_OK;
}

/* ---- statistics ---- */

/* Moments in units of bins, about bin 0 and then about the mean, with
 * compensated (Neumaier) sums, and only then scaled by the width: a spread
 * of 1e-300 or a location of 1e300 stays exact instead of under- or
 * overflowing in width^2 or in offset + value. */
static void proper__pmf_add(double *sum, double *comp, double v) {
    double t = *sum + v;
    if (fabs(*sum) >= fabs(v)) *comp += (*sum - t) + v;
    else *comp += (v - t) + *sum;
    *sum = t;
}

static int proper__pmf_bin_moments(const proper_pmf *x, double *mean_bins, double *sd_bins) {
    double s = 0.0, cs = 0.0, m = 0.0, cm = 0.0, v = 0.0, cv = 0.0, mu;
    size_t i;
    for (i = 0; i < x->n; i++) {
        proper__pmf_add(&s, &cs, x->p[i]);
        proper__pmf_add(&m, &cm, x->p[i] * (double)i);
    }
    s += cs;
    if (!(s > 0.0)) return 0;
    mu = (m + cm) / s;
    for (i = 0; i < x->n; i++) {
        double d = (double)i - mu;
        proper__pmf_add(&v, &cv, x->p[i] * d * d);
    }
    *mean_bins = mu;
    *sd_bins = sqrt(fmax(0.0, (v + cv) / s));
    return 1;
}

PROPER_API double proper_pmf_mean(const proper_pmf *x) {
    double mu, sd;
    if (!proper__pmf_bin_moments(x, &mu, &sd)) return NAN;
    return x->offset + x->width * mu;
}

PROPER_API double proper_pmf_std(const proper_pmf *x) {
    double mu, sd;
    if (!proper__pmf_bin_moments(x, &mu, &sd)) return NAN;
    return x->width * sd;
}

PROPER_API double proper_pmf_variance(const proper_pmf *x) {
    double sd = proper_pmf_std(x);
    return sd * sd;
}

PROPER_API double proper_pmf_mode(const proper_pmf *x) {
    size_t i, best = 0;
    if (x->n == 0) return NAN;
    for (i = 1; i < x->n; i++)
        if (x->p[i] > x->p[best]) best = i;
    if (!(x->p[best] > 0.0)) return NAN;
    return proper_pmf_value(x, best);
}

PROPER_API double proper_pmf_quantile(const proper_pmf *x, double q) {
    double cum = 0.0;
    size_t i;
    if (x->n == 0 || !(q >= 0.0 && q <= 1.0)) return NAN;
    for (i = 0; i < x->n; i++) {
        cum += x->p[i];
        if (x->p[i] > 0.0 && cum >= q - PROPER_PMF_QUANTILE_TOL) return proper_pmf_value(x, i);
    }
    return INFINITY;
}

PROPER_API double proper_pmf_cdf(const proper_pmf *x, double value) {
    double cum = 0.0, k;
    size_t i, last;
    if (x->n == 0 || isnan(value)) return NAN;
    /* bins with offset + i*width <= value, allowing round-off in the value */
    k = floor((value - x->offset) / x->width + PROPER_PMF_GRID_TOL);
    if (k < 0.0) return 0.0;
    last = k >= (double)(x->n - 1) ? x->n - 1 : (size_t)k;
    for (i = 0; i <= last; i++) cum += x->p[i];
    return cum;
}

/* ---- resample and truncate ---- */

PROPER_API int proper_pmf_resample(proper_pmf *out, const proper_pmf *x, double width, proper_error *err) {
    proper_pmf r;
    double offset, first, last;
    size_t i, bins = 0;
    int rc;
    if ((rc = proper__pmf_check_width(width, err)) != 0) return rc;
    if ((rc = proper__pmf_nonempty(x, "resample input", err)) != 0) return rc;
    first = x->offset;
    last = proper_pmf_value(x, x->n - 1);
    offset = width * floor(first / width);
    if ((rc = proper__pmf_span_bins(offset, width * ceil(last / width), width, &bins, err)) != 0) return rc;
    if ((rc = proper__pmf_alloc(&r, bins, offset, width, err)) != 0) return rc;
    for (i = 0; i < x->n; i++) {
        /* position in new bins; split between floor and floor + 1 */
        double pos = (proper_pmf_value(x, i) - offset) / width, k = floor(pos), frac = pos - k;
        size_t lo;
        if (x->p[i] == 0.0) continue;
        if (k < 0.0) { k = 0.0; frac = 0.0; }
        lo = (size_t)k;
        if (lo >= bins - 1) { lo = bins - 1; frac = 0.0; }
        if (frac < PROPER_PMF_GRID_TOL) frac = 0.0;
        if (frac > 1.0 - PROPER_PMF_GRID_TOL) { frac = 0.0; lo += lo + 1 < bins ? 1 : 0; }
        r.p[lo] += x->p[i] * (1.0 - frac);
        if (frac > 0.0) r.p[lo + 1] += x->p[i] * frac;
    }
    r.tail = x->tail;
    return proper__pmf_commit(out, &r, "resampled PMF", err);
}

PROPER_API void proper_pmf_truncate(proper_pmf *x, double eps) {
    size_t first = 0, end = x->n;
    double dropped = 0.0;
    if (x->n == 0) return;
    while (end > 1 && (x->p[end - 1] == 0.0 || dropped + x->p[end - 1] <= eps)) dropped += x->p[--end];
    while (first + 1 < end && x->p[first] == 0.0) first++;
    if (first > 0) memmove(x->p, x->p + first, (end - first) * sizeof(double));
    x->offset += (double)first * x->width;
    x->n = end - first;
    x->tail += dropped;
}

/* ---- convolution ---- */

/* Clamp round-off negatives to zero and scale so that the sum is `mass`. */
static void proper__pmf_clamp_normalise(double *p, size_t n, double mass) {
    double s = 0.0;
    size_t i;
    for (i = 0; i < n; i++) {
        if (p[i] < 0.0) p[i] = 0.0;
        s += p[i];
    }
    if (s > 0.0) {
        double scale = mass / s;
        for (i = 0; i < n; i++) p[i] *= scale;
    }
}

static int proper__pmf_binary_check(const proper_pmf *a, const proper_pmf *b, proper_error *err) {
    int rc;
    if ((rc = proper__pmf_nonempty(a, "first operand", err)) != 0) return rc;
    if ((rc = proper__pmf_nonempty(b, "second operand", err)) != 0) return rc;
    return proper__pmf_same_width(a, b, err);
}

static int proper__pmf_conv_alloc(proper_pmf *r, const proper_pmf *a, const proper_pmf *b, proper_error *err) {
    int rc;
    if (a->n > PROPER_PMF_MAX_BINS || b->n > PROPER_PMF_MAX_BINS - a->n + 1)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                "convolution of %zu and %zu bins exceeds PROPER_PMF_MAX_BINS", a->n, b->n);
    if ((rc = proper__pmf_alloc(r, a->n + b->n - 1, a->offset + b->offset, a->width, err)) != 0) return rc;
    r->tail = a->tail + b->tail - a->tail * b->tail;
    return PROPER_OK;
}

PROPER_API int proper_pmf_convolve_direct(proper_pmf *out, const proper_pmf *a, const proper_pmf *b, proper_error *err) {
    proper_pmf r;
    size_t i, j;
    int rc;
    if ((rc = proper__pmf_binary_check(a, b, err)) != 0) return rc;
    if ((rc = proper__pmf_conv_alloc(&r, a, b, err)) != 0) return rc;
    for (i = 0; i < a->n; i++) {
        double ai = a->p[i];
        double *dst = r.p + i;
        const double *bp = b->p;
        if (ai == 0.0) continue;
        for (j = 0; j < b->n; j++) dst[j] += ai * bp[j];
    }
    return proper__pmf_commit(out, &r, "convolution", err);
}

/* FFT workspace for one transform length: the plan and two buffers. */
typedef struct proper__pmf_fft {
    proper_fft_plan plan;
    double *x;    /* n reals */
    double *spec; /* n + 2 */
    double *spec2;/* n + 2, when asked for */
} proper__pmf_fft;

static void proper__pmf_fft_free(proper__pmf_fft *w) {
    proper_fft_plan_free(&w->plan);
    PROPER_FREE(w->x);
    PROPER_FREE(w->spec);
    PROPER_FREE(w->spec2);
    w->x = w->spec = w->spec2 = NULL;
}

static int proper__pmf_fft_init(proper__pmf_fft *w, size_t n, int two_spectra, proper_error *err) {
    int rc;
    w->x = w->spec = w->spec2 = NULL;
    proper_fft_plan_init(&w->plan);
    if (n < 2) n = 2;
    if ((rc = proper_fft_plan_create(&w->plan, n, err)) != 0) return rc;
    /* every buffer is written in full before it is read */
    w->x = (double *)PROPER_MALLOC(n * sizeof(double));
    w->spec = (double *)PROPER_MALLOC((n + 2) * sizeof(double));
    if (two_spectra) w->spec2 = (double *)PROPER_MALLOC((n + 2) * sizeof(double));
    if (!w->x || !w->spec || (two_spectra && !w->spec2)) {
        proper__pmf_fft_free(w);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory for an FFT of %zu points", n);
    }
    return PROPER_OK;
}

/* x = p[0..n) placed at circular index `at` (mod plan.n), zeros elsewhere;
 * n <= plan.n. */
static void proper__pmf_fft_load(proper__pmf_fft *w, const double *p, size_t n, size_t at) {
    size_t len = w->plan.n, first = n < len - at ? n : len - at;
    memset(w->x, 0, len * sizeof(double));
    memcpy(w->x + at, p, first * sizeof(double));
    memcpy(w->x, p + first, (n - first) * sizeof(double));
}

/* Hand the transform's real buffer over as `span` bins starting at circular
 * index `start`: rotate them to the front and shrink the block. Frees the
 * rest of the workspace. */
static int proper__pmf_fft_take(proper__pmf_fft *w, size_t start, size_t span, double **out, proper_error *err) {
    size_t len = w->plan.n;
    double *x = w->x, *shrunk;
    if (start + span <= len) {
        if (start) memmove(x, x + start, span * sizeof(double));
    } else { /* x[start..len) then x[0..start+span-len) */
        size_t first = len - start, second = span - first;
        double *tmp = (double *)PROPER_MALLOC(second * sizeof(double));
        if (!tmp) {
            proper__pmf_fft_free(w);
            return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        }
        memcpy(tmp, x, second * sizeof(double));
        memmove(x, x + start, first * sizeof(double));
        memcpy(x + first, tmp, second * sizeof(double));
        PROPER_FREE(tmp);
    }
    shrunk = (double *)PROPER_REALLOC(x, (span ? span : 1) * sizeof(double));
    *out = shrunk ? shrunk : x;
    w->x = NULL;
    proper__pmf_fft_free(w);
    return PROPER_OK;
}

PROPER_API int proper_pmf_convolve_fft(proper_pmf *out, const proper_pmf *a, const proper_pmf *b, proper_error *err) {
    proper_pmf r;
    proper__pmf_fft w;
    int rc;
    if ((rc = proper__pmf_binary_check(a, b, err)) != 0) return rc;
    if (a->n > PROPER_PMF_MAX_BINS || b->n > PROPER_PMF_MAX_BINS - a->n + 1)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                "convolution of %zu and %zu bins exceeds PROPER_PMF_MAX_BINS", a->n, b->n);
    proper_pmf_init(&r);
    r.n = a->n + b->n - 1;
    r.offset = a->offset + b->offset;
    r.width = a->width;
    r.tail = a->tail + b->tail - a->tail * b->tail;
    if ((rc = proper__pmf_fft_init(&w, proper_fft_next_pow2(r.n), 1, err)) != 0) return rc;
    proper__pmf_fft_load(&w, a->p, a->n, 0);
    proper_fft_forward_unordered(&w.plan, w.x, w.spec);
    proper__pmf_fft_load(&w, b->p, b->n, 0);
    proper_fft_forward_unordered(&w.plan, w.x, w.spec2);
    proper_fft_multiply(&w.plan, w.spec, w.spec2, w.spec);
    proper_fft_inverse_unordered(&w.plan, w.spec, w.x);
    if ((rc = proper__pmf_fft_take(&w, 0, r.n, &r.p, err)) != 0) return rc;
    proper__pmf_clamp_normalise(r.p, r.n, 1.0 - r.tail);
    return proper__pmf_commit(out, &r, "convolution", err);
}

/* The cost model of the header comment. */
static int proper__pmf_prefer_fft(size_t na, size_t nb) {
    size_t n = proper_fft_next_pow2(na + nb - 1);
    double log_n = 0.0;
    size_t t;
    for (t = n; t > 1; t >>= 1) log_n += 1.0;
    return (double)na * (double)nb > PROPER_PMF_FFT_COST * (double)n * log_n;
}

PROPER_API int proper_pmf_convolve(proper_pmf *out, const proper_pmf *a, const proper_pmf *b, proper_error *err) {
    int rc;
    if ((rc = proper__pmf_binary_check(a, b, err)) != 0) return rc;
    if (proper__pmf_prefer_fft(a->n, b->n)) return proper_pmf_convolve_fft(out, a, b, err);
    return proper_pmf_convolve_direct(out, a, b, err);
}

/* ---- mixture ---- */

/* Check probabilities w[0..k): finite, >= 0, sum 1 within tolerance. */
static int proper__pmf_check_probs(const double *w, size_t k, const char *what, double *sum, proper_error *err) {
    double s = 0.0;
    size_t i;
    for (i = 0; i < k; i++) {
        if (!(w[i] >= 0.0) || isinf(w[i]))
            return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "%s %zu is %g (must be finite and >= 0)", what, i, w[i]);
        s += w[i];
    }
    if (!(s > 0.0)) return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "%ss sum to zero", what);
    if (fabs(s - 1.0) > PROPER_PMF_SUM_TOL)
        return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "%ss sum to %.15g, not 1 (tolerance %g)", what, s,
                                PROPER_PMF_SUM_TOL);
    *sum = s;
    return PROPER_OK;
}

/* Whole number of widths in d, or an error when d is not one. */
static int proper__pmf_whole_bins(double d, double width, const char *what, long long *k, proper_error *err) {
    double units = d / width, r = floor(units + 0.5);
    if (fabs(units - r) > PROPER_PMF_GRID_TOL || fabs(r) > 4.0e18)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s %g is not a whole number of bin widths (%g)", what,
                                d, width);
    *k = (long long)r;
    return PROPER_OK;
}

PROPER_API int proper_pmf_mixture(proper_pmf *out, const proper_pmf *const *xs, const double *weights, size_t k,
                                  proper_error *err) {
    proper_pmf r;
    double lo = INFINITY, hi = -INFINITY, wsum = 1.0, tail = 0.0;
    size_t i, bins = 0;
    int rc;
    if (k == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "mixture of no PMFs");
    if ((rc = proper__pmf_check_probs(weights, k, "mixture weight", &wsum, err)) != 0) return rc;
    for (i = 0; i < k; i++) {
        long long shift;
        if ((rc = proper__pmf_nonempty(xs[i], "mixture operand", err)) != 0) return rc;
        if ((rc = proper__pmf_same_width(xs[0], xs[i], err)) != 0) return rc;
        if ((rc = proper__pmf_whole_bins(xs[i]->offset - xs[0]->offset, xs[0]->width,
                                         "offset difference between mixture operands", &shift, err)) != 0)
            return rc;
        lo = fmin(lo, xs[i]->offset);
        hi = fmax(hi, proper_pmf_value(xs[i], xs[i]->n - 1));
    }
    if ((rc = proper__pmf_span_bins(lo, hi, xs[0]->width, &bins, err)) != 0) return rc;
    if ((rc = proper__pmf_alloc(&r, bins, lo, xs[0]->width, err)) != 0) return rc;
    for (i = 0; i < k; i++) {
        double w = weights[i] / wsum;
        size_t at = (size_t)floor((xs[i]->offset - lo) / xs[0]->width + 0.5), j;
        for (j = 0; j < xs[i]->n; j++) r.p[at + j] += w * xs[i]->p[j];
        tail += w * xs[i]->tail;
    }
    r.tail = tail;
    return proper__pmf_commit(out, &r, "mixture", err);
}

/* ---- loops: polynomials in the transform ---- */

/* Pointwise, over a block of bins, acc <- acc * f (complex). */
static void proper__pmf_cmul(double *ar, double *ai, const double *fr, const double *fi, size_t len) {
    size_t k;
    for (k = 0; k < len; k++) {
        double r = ar[k] * fr[k] - ai[k] * fi[k];
        ai[k] = ar[k] * fi[k] + ai[k] * fr[k];
        ar[k] = r;
    }
}

/* Bins of the spectrum that share one Horner degree (see below). */
#define PROPER__PMF_GROUP 32

/* In place on the spectrum fr/fi (h bins):
 *   F <- F^imin * H(F),  H(F) = sum_{j=0}^{D} c[imin + j] F^j,  D = imax - imin,
 * H by Horner's rule, F^imin by repeated squaring. Terms of H that cannot
 * matter are skipped: when |F| <= a < 1 on a group of bins, the terms
 * j > d contribute at most a^(d+1) sum(c) <= a^(d+1), so Horner starts at
 * the smallest d with a^(d+1) <= PROPER_PMF_HORNER_TOL. After the inverse
 * transform (a mean over the bins) every output bin moves by at most 2 *
 * PROPER_PMF_HORNER_TOL, far below the transform's own round-off. A body's
 * spectrum is near 1 in magnitude only close to frequency 0, so most groups
 * need a small fraction of the D steps. */
static void proper__pmf_poly_spectrum(double *fr, double *fi, size_t h, const double *c, size_t imin, size_t imax) {
    double accr[PROPER__PMF_GROUP], acci[PROPER__PMF_GROUP], pr[PROPER__PMF_GROUP], pi[PROPER__PMF_GROUP];
    double log_tol = log(PROPER_PMF_HORNER_TOL);
    size_t b, full = imax - imin;
    for (b = 0; b < h; b += PROPER__PMF_GROUP) {
        size_t len = h - b < PROPER__PMF_GROUP ? h - b : PROPER__PMF_GROUP, k, j, e, d = full;
        double *br = fr + b, *bi = fi + b, a2 = 0.0;
        for (k = 0; k < len; k++) {
            double m2 = br[k] * br[k] + bi[k] * bi[k];
            if (m2 > a2) a2 = m2;
        }
        if (a2 == 0.0) d = 0;
        else if (a2 < 1.0) {
            double needed = ceil(log_tol / (0.5 * log(a2))) - 1.0; /* a^(d+1) <= tol */
            if (needed < (double)full) d = needed > 0.0 ? (size_t)needed : 0;
        }
        for (k = 0; k < len; k++) { accr[k] = c[imin + d]; acci[k] = 0.0; }
        /* Horner: acc = acc * F + c[imin + j] */
        for (j = d; j-- > 0;) {
            double cj = c[imin + j];
            for (k = 0; k < len; k++) {
                double r = accr[k] * br[k] - acci[k] * bi[k] + cj;
                acci[k] = accr[k] * bi[k] + acci[k] * br[k];
                accr[k] = r;
            }
        }
        /* times F^imin by repeated squaring */
        memcpy(pr, br, len * sizeof(double));
        memcpy(pi, bi, len * sizeof(double));
        for (e = imin; e; e >>= 1) {
            if (e & 1) proper__pmf_cmul(accr, acci, pr, pi, len);
            if (e > 1) proper__pmf_cmul(pr, pi, pr, pi, len);
        }
        memcpy(br, accr, len * sizeof(double));
        memcpy(bi, acci, len * sizeof(double));
    }
}

/* v mod n in [0, n). */
static size_t proper__pmf_mod(long long v, size_t n) {
    long long r = v % (long long)n;
    return (size_t)(r < 0 ? r + (long long)n : r);
}

/* ---- loops with many counts: halving the count polynomial ---- */

/* Work arrays of the halving: proper_pmf with width 1 and a whole-number
 * offset (in bins); n == 0 is the zero polynomial. Their masses need not be
 * 1: out = a * b, clamped and scaled to mass(a) mass(b). */
static int proper__pmf_conv_raw(proper_pmf *out, const proper_pmf *a, const proper_pmf *b, proper_error *err) {
    proper_pmf r;
    size_t i, j;
    int rc;
    if (a->n > PROPER_PMF_MAX_BINS || b->n > PROPER_PMF_MAX_BINS - a->n + 1)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                "convolution of %zu and %zu bins exceeds PROPER_PMF_MAX_BINS", a->n, b->n);
    if (proper__pmf_prefer_fft(a->n, b->n)) {
        proper__pmf_fft w;
        double mass = proper_pmf_mass(a) * proper_pmf_mass(b);
        proper_pmf_init(&r);
        r.n = a->n + b->n - 1;
        r.offset = a->offset + b->offset;
        if ((rc = proper__pmf_fft_init(&w, proper_fft_next_pow2(r.n), 1, err)) != 0) return rc;
        proper__pmf_fft_load(&w, a->p, a->n, 0);
        proper_fft_forward_unordered(&w.plan, w.x, w.spec);
        proper__pmf_fft_load(&w, b->p, b->n, 0);
        proper_fft_forward_unordered(&w.plan, w.x, w.spec2);
        proper_fft_multiply(&w.plan, w.spec, w.spec2, w.spec);
        proper_fft_inverse_unordered(&w.plan, w.spec, w.x);
        if ((rc = proper__pmf_fft_take(&w, 0, r.n, &r.p, err)) != 0) return rc;
        proper__pmf_clamp_normalise(r.p, r.n, mass);
    } else {
        if ((rc = proper__pmf_alloc(&r, a->n + b->n - 1, a->offset + b->offset, 1.0, err)) != 0) return rc;
        for (i = 0; i < a->n; i++)
            for (j = 0; j < b->n; j++) r.p[i + j] += a->p[i] * b->p[j];
    }
    proper__pmf_replace(out, &r);
    return PROPER_OK;
}

/* acc += b (whole-number offsets). */
static int proper__pmf_add_raw(proper_pmf *acc, const proper_pmf *b, proper_error *err) {
    proper_pmf r;
    double lo, hi;
    size_t i, at;
    int rc;
    if (b->n == 0) return PROPER_OK;
    if (acc->n == 0) return proper_pmf_copy(acc, b, err);
    lo = fmin(acc->offset, b->offset);
    hi = fmax(acc->offset + (double)(acc->n - 1), b->offset + (double)(b->n - 1));
    if ((rc = proper__pmf_alloc(&r, (size_t)(hi - lo) + 1, lo, 1.0, err)) != 0) return rc;
    at = (size_t)(acc->offset - lo);
    for (i = 0; i < acc->n; i++) r.p[at + i] += acc->p[i];
    at = (size_t)(b->offset - lo);
    for (i = 0; i < b->n; i++) r.p[at + i] += b->p[i];
    proper__pmf_replace(acc, &r);
    return PROPER_OK;
}

/* out = sum_{j < len} c[j] X^j with c[j] = 0 for j >= n_c; len a power of
 * two; pw[k] = X^(2^k). */
static int proper__pmf_poly_split(proper_pmf *out, const double *c, size_t n_c, size_t len, const proper_pmf *pw,
                                  int k, proper_error *err) {
    proper_pmf lo, hi;
    size_t half = len / 2, i;
    int rc, any = 0;
    for (i = 0; i < n_c && !any; i++) any = c[i] != 0.0;
    proper_pmf_free(out);
    if (!any) return PROPER_OK;
    if (len == 1) {
        if ((rc = proper__pmf_alloc(out, 1, 0.0, 1.0, err)) != 0) return rc;
        out->p[0] = c[0];
        return PROPER_OK;
    }
    proper_pmf_init(&lo);
    proper_pmf_init(&hi);
    rc = proper__pmf_poly_split(&lo, c, n_c < half ? n_c : half, half, pw, k - 1, err);
    if (rc == PROPER_OK && n_c > half) rc = proper__pmf_poly_split(&hi, c + half, n_c - half, half, pw, k - 1, err);
    if (rc == PROPER_OK && hi.n) rc = proper__pmf_conv_raw(&hi, &hi, &pw[k - 1], err);
    if (rc == PROPER_OK) rc = proper__pmf_add_raw(&lo, &hi, err);
    proper_pmf_free(&hi);
    if (rc == PROPER_OK) proper__pmf_replace(out, &lo);
    proper_pmf_free(&lo);
    return rc;
}

/* sum_{i <= imax} c[i] X^{*i} on bins [lo, lo + span) of the body's grid,
 * X's first bin at whole bin s, by proper__pmf_poly_split. */
static int proper__pmf_poly_halving(double **out, const proper_pmf *x, long long s, const double *c, size_t imax,
                                    long long lo, size_t span, proper_error *err) {
    proper_pmf pw[64], h;
    size_t len = 1, i, at;
    int k = 0, levels, rc = PROPER_OK;
    double *p;
    while (len < imax + 1) { len *= 2; k++; }
    levels = k;
    for (i = 0; i < 64; i++) proper_pmf_init(&pw[i]);
    proper_pmf_init(&h);
    if ((rc = proper__pmf_alloc(&pw[0], x->n, (double)s, 1.0, err)) != 0) return rc;
    memcpy(pw[0].p, x->p, x->n * sizeof(double));
    for (k = 1; rc == PROPER_OK && k < levels; k++) rc = proper__pmf_conv_raw(&pw[k], &pw[k - 1], &pw[k - 1], err);
    if (rc == PROPER_OK) rc = proper__pmf_poly_split(&h, c, imax + 1, len, pw, levels, err);
    for (i = 0; i < 64; i++) proper_pmf_free(&pw[i]);
    if (rc == PROPER_OK && !(p = (double *)proper_calloc(span ? span : 1, sizeof(double))))
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory for a loop of %zu bins", span);
    if (rc == PROPER_OK) {
        /* h's bins lie inside [lo, lo + span): its support is the loop's */
        for (i = 0; i < h.n; i++) {
            long long b = (long long)h.offset + (long long)i - lo;
            at = (size_t)b;
            if (b >= 0 && at < span) p[at] += h.p[i];
        }
        *out = p;
    }
    proper_pmf_free(&h);
    return rc;
}

/* sum_{i=imin}^{imax} c[i] X^{*i}, c[imin] and c[imax] > 0, imax >= 1;
 * `tail` is the result's tail, `mass` its grid mass. When imin == imax the
 * body's offset is free (offset imin * offset(X)); otherwise it must be a
 * whole number of widths. */
static int proper__pmf_poly(proper_pmf *out, const proper_pmf *x, const double *c, size_t imin, size_t imax,
                            double mass, double tail, proper_error *err) {
    proper_pmf r;
    proper__pmf_fft w;
    long long s = 0, lo, hi;
    double lo_d, hi_d, base = 0.0;
    size_t span, n_fft;
    int rc;
    if ((rc = proper__pmf_nonempty(x, "loop body", err)) != 0) return rc;
    if (imin == imax) base = (double)imin * x->offset;
    else if ((rc = proper__pmf_whole_bins(x->offset, x->width, "loop body offset", &s, err)) != 0) return rc;
    /* support of the result in bins, as doubles first to catch overflow */
    lo_d = s >= 0 ? (double)imin * (double)s : (double)imax * (double)s;
    hi_d = (double)s + (double)(x->n - 1) >= 0 ? (double)imax * ((double)s + (double)(x->n - 1))
                                                : (double)imin * ((double)s + (double)(x->n - 1));
    if (!(hi_d - lo_d + 1.0 <= (double)PROPER_PMF_MAX_BINS))
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                "loop result would span %.3g bins, more than PROPER_PMF_MAX_BINS (%zu)",
                                hi_d - lo_d + 1.0, (size_t)PROPER_PMF_MAX_BINS);
    lo = (long long)lo_d;
    hi = (long long)hi_d;
    span = (size_t)(hi - lo + 1);
    if (imax - imin > PROPER_PMF_LOOP_SPLIT) {
        if ((rc = proper__pmf_poly_halving(&r.p, x, s, c, imax, lo, span, err)) != 0) return rc;
        r.n = span;
        r.offset = base + (double)lo * x->width;
        r.width = x->width;
        proper__pmf_clamp_normalise(r.p, r.n, mass);
        r.tail = tail;
        return proper__pmf_commit(out, &r, "loop result", err);
    }
    n_fft = proper_fft_next_pow2(span > x->n ? span : x->n);
    if ((rc = proper__pmf_fft_init(&w, n_fft, 0, err)) != 0) return rc;
    n_fft = w.plan.n;
    /* body bin j (value (s + j) * width) at circular index (s + j) mod n_fft;
     * result bin u (value (lo + u) * width) at (lo + u) mod n_fft */
    proper__pmf_fft_load(&w, x->p, x->n, proper__pmf_mod(s, n_fft));
    proper_fft_forward_unordered(&w.plan, w.x, w.spec);
    proper__pmf_poly_spectrum(w.spec, w.spec + n_fft / 2 + 1, n_fft / 2 + 1, c, imin, imax);
    proper_fft_inverse_unordered(&w.plan, w.spec, w.x);
    proper_pmf_init(&r);
    r.n = span;
    r.offset = base + (double)lo * x->width;
    r.width = x->width;
    if ((rc = proper__pmf_fft_take(&w, proper__pmf_mod(lo, n_fft), span, &r.p, err)) != 0) return rc;
    proper__pmf_clamp_normalise(r.p, r.n, mass);
    r.tail = tail;
    return proper__pmf_commit(out, &r, "loop result", err);
}

PROPER_API int proper_pmf_power(proper_pmf *out, const proper_pmf *x, unsigned n, proper_error *err) {
    double *c, keep, mass;
    int rc;
    unsigned i;
    if ((rc = proper__pmf_nonempty(x, "power base", err)) != 0) return rc;
    if (n == 0) return proper_pmf_point(out, 0.0, x->width, err);
    if (n == 1) return proper_pmf_copy(out, x, err);
    c = (double *)proper_calloc((size_t)n + 1, sizeof(double));
    if (!c) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    c[n] = 1.0;
    keep = 1.0 - x->tail;
    mass = 1.0;
    for (i = 0; i < n; i++) mass *= keep;
    rc = proper__pmf_poly(out, x, c, n, n, mass, 1.0 - mass, err);
    PROPER_FREE(c);
    return rc;
}

PROPER_API int proper_pmf_loop(proper_pmf *out, const proper_pmf *body, const double *iters, size_t n_iters,
                               proper_error *err) {
    double *c, sum = 1.0, mass = 0.0, keep;
    size_t imin = 0, imax, i;
    int rc;
    if ((rc = proper__pmf_nonempty(body, "loop body", err)) != 0) return rc;
    if (n_iters == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "loop iteration PMF is empty");
    if ((rc = proper__pmf_check_probs(iters, n_iters, "iteration probability", &sum, err)) != 0) return rc;
    while (iters[imin] == 0.0) imin++;
    imax = n_iters - 1;
    while (iters[imax] == 0.0) imax--;
    if (imax == 0) return proper_pmf_point(out, 0.0, body->width, err);
    c = (double *)proper_calloc(n_iters, sizeof(double));
    if (!c) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (i = 0; i < n_iters; i++) c[i] = iters[i] / sum;
    /* grid mass sum_i c_i (1 - t)^i by Horner */
    keep = 1.0 - body->tail;
    for (i = imax + 1; i-- > 0;) mass = mass * keep + c[i];
    if (mass > 1.0) mass = 1.0; /* round-off in the sum of many counts */
    rc = proper__pmf_poly(out, body, c, imin, imax, mass, 1.0 - mass, err);
    PROPER_FREE(c);
    return rc;
}

/* ---- Markovian loop ---- */

/* log B(theta) = log sum_j b_j theta^(s + j) for theta = e^u, by Horner on
 * the grid part; +inf when it overflows. */
static double proper__pmf_log_pgf(const proper_pmf *x, long long s, double u) {
    double theta = exp(u), h = 0.0;
    size_t j;
    for (j = x->n; j-- > 0;) h = h * theta + x->p[j];
    if (!(h > 0.0)) return -INFINITY;
    return log(h) + (double)s * u;
}

/* Chernoff bound: the smallest L with P(T >= L) <= eps, as a double. */
static double proper__pmf_markov_cut(const proper_pmf *x, long long s, double p, double eps) {
    double log_p = log(p), u_hi = 1.0, u_lo = 0.0, best = INFINITY, a, b;
    int it;
    /* u_max: largest u with p B(e^u) < 1 (bracket, then bisect) */
    while (log_p + proper__pmf_log_pgf(x, s, u_hi) < 0.0 && u_hi < 700.0) u_hi *= 2.0;
    if (u_hi > 700.0) u_hi = 700.0;
    for (it = 0; it < 60; it++) {
        double mid = 0.5 * (u_lo + u_hi);
        if (log_p + proper__pmf_log_pgf(x, s, mid) < 0.0) u_lo = mid;
        else u_hi = mid;
    }
    /* minimise L(u) = (log(1-p) - log(1 - p B(e^u)) - log eps) / u over (0, u_lo]
     * by golden-section search; every u gives a valid bound */
    a = 0.0;
    b = u_lo;
    for (it = 0; it < 80; it++) {
        double m1 = b - 0.6180339887498949 * (b - a), m2 = a + 0.6180339887498949 * (b - a), l1, l2;
        double q1 = exp(log_p + proper__pmf_log_pgf(x, s, m1)), q2 = exp(log_p + proper__pmf_log_pgf(x, s, m2));
        l1 = q1 < 1.0 && m1 > 0.0 ? (log1p(-p) - log1p(-q1) - log(eps)) / m1 : INFINITY;
        l2 = q2 < 1.0 && m2 > 0.0 ? (log1p(-p) - log1p(-q2) - log(eps)) / m2 : INFINITY;
        best = fmin(best, fmin(l1, l2));
        if (l1 < l2) b = m2;
        else a = m1;
    }
    return ceil(best);
}

PROPER_API int proper_pmf_markov_loop(proper_pmf *out, const proper_pmf *body, double p_reenter, double eps,
                                      proper_error *err) {
    proper_pmf r;
    proper__pmf_fft w;
    long long s = 0;
    double cut, total, kept = 0.0;
    size_t L, n_fft, j, k, h;
    int rc;
    if ((rc = proper__pmf_nonempty(body, "loop body", err)) != 0) return rc;
    if (!(p_reenter >= 0.0 && p_reenter < 1.0))
        return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "re-entry probability %g must be in [0, 1)", p_reenter);
    if (!(eps > 0.0 && eps < 1.0))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "truncation eps %g must be in (0, 1)", eps);
    if (p_reenter == 0.0) return proper_pmf_point(out, 0.0, body->width, err);
    if ((rc = proper__pmf_whole_bins(body->offset, body->width, "loop body offset", &s, err)) != 0) return rc;
    if (s < 0)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "Markovian loop body has negative values (offset %g): it must be a duration",
                                body->offset);
    cut = proper__pmf_markov_cut(body, s, p_reenter, eps);
    if (cut < 1.0) cut = 1.0;
    if (!(cut <= (double)PROPER_PMF_MAX_BINS))
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                "Markovian loop with p = %g needs %.3g bins for eps = %g, more than PROPER_PMF_MAX_BINS",
                                p_reenter, cut, eps);
    L = (size_t)cut;
    n_fft = proper_fft_next_pow2(L);
    if ((rc = proper__pmf_fft_init(&w, n_fft, 0, err)) != 0) return rc;
    n_fft = w.plan.n;
    memset(w.x, 0, n_fft * sizeof(double));
    for (j = 0; j < body->n; j++) w.x[((size_t)s + j) % n_fft] += body->p[j];
    proper_fft_forward_unordered(&w.plan, w.x, w.spec);
    /* G = (1 - p) / (1 - p F) pointwise */
    h = n_fft / 2 + 1;
    for (k = 0; k < h; k++) {
        double fr = w.spec[k], fi = w.spec[h + k];
        double dr = 1.0 - p_reenter * fr, di = -p_reenter * fi, d2 = dr * dr + di * di;
        w.spec[k] = (1.0 - p_reenter) * dr / d2;
        w.spec[h + k] = -(1.0 - p_reenter) * di / d2;
    }
    proper_fft_inverse_unordered(&w.plan, w.spec, w.x);
    /* all n_fft bins together carry the grid mass (1-p) / (1 - p (1 - t)) */
    total = (1.0 - p_reenter) / (1.0 - p_reenter * (1.0 - body->tail));
    proper__pmf_clamp_normalise(w.x, n_fft, total);
    for (j = 0; j < L; j++) kept += w.x[j];
    proper_pmf_init(&r);
    r.n = L;
    r.width = body->width;
    if ((rc = proper__pmf_fft_take(&w, 0, L, &r.p, err)) != 0) return rc;
    r.tail = 1.0 - kept;
    if (r.tail < 0.0) r.tail = 0.0;
    /* the Chernoff cut is conservative: trailing bins that together carry
     * less than what is left of eps join the tail as well */
    if (r.tail < eps) proper_pmf_truncate(&r, eps - r.tail);
    return proper__pmf_commit(out, &r, "Markovian loop result", err);
}

#endif /* PROPER_PMF_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
