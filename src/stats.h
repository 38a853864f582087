/* stats.h — the statistics proper needs: normal, Student-t and chi-square
 * distributions (CDFs and quantiles), confidence intervals for a mean and for
 * a proportion (Wilson score), simultaneous confidence levels (Šidák,
 * Bonferroni), KL divergence, chi-square goodness-of-fit and
 * Kolmogorov–Smirnov distances.
 *
 * Conventions
 * - Distribution functions (CDFs, quantiles, special functions) return a
 *   double and NaN for invalid arguments (a NaN input, a probability outside
 *   [0, 1], degrees of freedom <= 0). Quantiles return -INFINITY at p = 0 and
 *   +INFINITY at p = 1 (0 at p = 0 for chi-square).
 * - Intervals and tests return an int status (0 or a negative PROPER_E*) and
 *   fill a proper_error; they check their inputs once, at this boundary.
 * - A confidence `level` is the two-sided coverage c in (0, 1), e.g. 0.95.
 * - Logarithms are natural (KL divergence in nats).
 * - Only proper_stats_ks_sample allocates (one sorted copy of the sample).
 *   Everything is reentrant: no global state (the log-gamma here is our own,
 *   so libm's lgamma and its global `signgam` are never touched).
 *
 * Accuracy, measured against mpmath at 50 digits over df = 0.3 .. 1e6 and
 * p = 1e-300 .. 1 - 1e-15 (1167 points; tests/test_stats.c keeps 108 of
 * them): normal quantile 2e-16 relative; t and chi-square CDFs, upper tails
 * and quantiles below 1e-13 relative (the far tails, p near 1e-300, lose
 * digits in proportion to |log p|: that is exp's condition number).
 * Results that fall outside the doubles are 0 or ±INFINITY.
 */
#ifndef PROPER_STATS_H
#define PROPER_STATS_H

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Relative tolerance of the continued fractions and series behind the
 * incomplete beta and gamma functions. */
#ifndef PROPER_STATS_SERIES_EPS
#define PROPER_STATS_SERIES_EPS 1e-16
#endif
/* Iteration cap of those expansions. They need O(sqrt(max(a, b))) terms, so
 * the cap allows shape parameters (df/2) up to about 1e10; beyond it the
 * functions return NaN. */
#ifndef PROPER_STATS_SERIES_MAX_ITER
#define PROPER_STATS_SERIES_MAX_ITER 1000000
#endif
/* Quantiles are found by safeguarded Newton iteration; it stops when a step
 * changes the root by at most this much relative to the root. */
#ifndef PROPER_STATS_ROOT_RTOL
#define PROPER_STATS_ROOT_RTOL 4e-16
#endif
#ifndef PROPER_STATS_ROOT_MAX_ITER
#define PROPER_STATS_ROOT_MAX_ITER 400
#endif
/* Tolerance on probability totals (KS on PMFs: each total must be <= 1 + this). */
/* Below this a p-value is printed as "< 1e-300" (proper_stats_format_pvalue). */
#ifndef PROPER_STATS_PVALUE_FLOOR
#define PROPER_STATS_PVALUE_FLOOR 1e-300
#endif

#ifndef PROPER_STATS_PROB_TOL
#define PROPER_STATS_PROB_TOL 1e-9
#endif
/* Cochran's rule: chi-square bins whose expected count is below this are
 * merged with neighbours (the usual default for min_expected). */
#ifndef PROPER_STATS_CHI2_MIN_EXPECTED
#define PROPER_STATS_CHI2_MIN_EXPECTED 5.0
#endif

/* ---- Special functions -------------------------------------------------- */

/* log Γ(x) for x > 0 (NaN otherwise); absolute error below 4e-15. Reentrant. */
PROPER_API double proper_stats_lgamma(double x);
/* Regularized incomplete beta I_x(a, b), a, b > 0, 0 <= x <= 1. */
PROPER_API double proper_stats_incbeta(double a, double b, double x);
/* Regularized lower and upper incomplete gamma P(a, x), Q(a, x) = 1 - P(a, x);
 * a > 0, x >= 0. Each is accurate in relative terms where it is small. */
PROPER_API double proper_stats_gamma_p(double a, double x);
PROPER_API double proper_stats_gamma_q(double a, double x);

/* ---- Distributions ------------------------------------------------------ */

/* Standard normal CDF Φ(x) = erfc(-x/√2)/2 (accurate in the lower tail). */
PROPER_API double proper_stats_normal_cdf(double x);
/* Standard normal quantile Φ⁻¹(p): Halley iterations on erf (centre) or
 * erfc (tails) from the Abramowitz–Stegun 26.2.23 starting value; relative
 * error below 1e-14 (z(0.975) = 1.959963984540054). */
PROPER_API double proper_stats_normal_quantile(double p);

/* Student-t CDF with df > 0 degrees of freedom (df need not be an integer). */
PROPER_API double proper_stats_t_cdf(double t, double df);
/* Student-t quantile: the t with P(T <= t) = p. */
PROPER_API double proper_stats_t_quantile(double p, double df);

/* Chi-square CDF P(X <= x), upper tail P(X > x) (use it for p-values: it
 * keeps its relative accuracy where it is tiny) and quantile; df > 0. */
PROPER_API double proper_stats_chi2_cdf(double x, double df);
PROPER_API double proper_stats_chi2_sf(double x, double df);
PROPER_API double proper_stats_chi2_quantile(double p, double df);

/* ---- Intervals ------------------------------------------------------------ */

typedef struct proper_interval {
    double estimate; /* the point estimate (sample mean, or successes/trials) */
    double lo, hi;   /* the two-sided interval */
} proper_interval;

/* Sample mean and standard deviation (denominator n - 1, two passes); n >= 2. */
PROPER_API int proper_stats_mean_sd(const double *x, size_t n, double *mean, double *sd,
                                    proper_error *err);
/* mean ± z·sd/√n with z = Φ⁻¹((1 + level)/2): known (or large-sample) sd. n >= 1. */
PROPER_API int proper_stats_normal_interval(double mean, double sd, size_t n, double level,
                                            proper_interval *out, proper_error *err);
/* mean ± t·sd/√n with t the (1 + level)/2 quantile of Student-t with n - 1
 * degrees of freedom (sd the sample sd); n >= 2. */
PROPER_API int proper_stats_t_interval(double mean, double sd, size_t n, double level,
                                       proper_interval *out, proper_error *err);
/* Wilson score interval for a binomial proportion from `successes` out of
 * `trials` (counts; non-integers are accepted, 0 <= successes <= trials,
 * trials > 0). continuity = 0: Wilson (1927), Newcombe (1998) method 3;
 * continuity = 1: with continuity correction, Newcombe method 4 (lower bound
 * 0 when successes = 0, upper bound 1 when successes = trials). */
PROPER_API int proper_stats_wilson_interval(double successes, double trials, double level,
                                            int continuity, proper_interval *out,
                                            proper_error *err);

/* ---- Simultaneous confidence levels ---------------------------------------
 * To make m intervals hold simultaneously with overall confidence c, give
 * each the per-construct level returned here. Šidák (independent
 * constructs): c^(1/m), i.e. per-construct α' = 1 - (1 - α)^(1/m). Bonferroni
 * (any dependence): 1 - (1 - c)/m. Both return NaN unless 0 < c < 1 and m >= 1. */
PROPER_API double proper_stats_sidak_level(double overall_level, size_t m);
PROPER_API double proper_stats_bonferroni_level(double overall_level, size_t m);

/* ---- Divergences and tests ------------------------------------------------ */

/* Kullback–Leibler divergence D(P‖Q) = Σ p_i log(p_i / q_i) in nats. p and q
 * are non-negative weights on the same n outcomes (counts or probabilities);
 * each is divided by its own total first (append a PMF's tail mass as an
 * extra outcome if it matters). Zeros: a term with p_i = 0 is 0 (0·log 0 = 0);
 * a term with p_i > 0 and q_i = 0 makes the divergence +INFINITY (status 0).
 * Errors: n = 0, a negative/NaN/infinite weight, a zero total. */
PROPER_API int proper_stats_kl_divergence(const double *p, const double *q, size_t n,
                                          double *out, proper_error *err);

typedef struct proper_chi2_test {
    double statistic; /* Pearson's X² over the merged bins */
    double df;        /* degrees of freedom */
    double p_value;   /* P(χ²_df >= statistic) */
    size_t bins;      /* number of bins after merging */
} proper_chi2_test;

/* Chi-square goodness of fit of observed counts to a predicted distribution
 * on n ordered bins (e.g. a PMF's grid; append its tail mass as a last bin).
 * `expected` holds non-negative weights (probabilities or expected counts),
 * rescaled to the observed total N. `estimated_params` is the number of
 * model parameters fitted to these same data (0 for a prediction made
 * without them); df = bins - 1 - estimated_params, which must be >= 1.
 *
 * Merging: bins are scanned in order and accumulated into a group until the
 * group's expected count is positive and at least `min_expected` (use
 * PROPER_STATS_CHI2_MIN_EXPECTED = 5 for Cochran's rule, 0 for none); a
 * trailing group below that is merged into the group before it. So every
 * group has expected count >= min_expected and > 0, and bins the model
 * deems impossible (expected 0) are pooled with their neighbours. */
PROPER_API int proper_stats_chi2_gof(const double *observed, const double *expected, size_t n,
                                     size_t estimated_params, double min_expected,
                                     proper_chi2_test *out, proper_error *err);

/* Two-sample chi-square test that counts a[i] and b[i] on the same n ordered
 * bins come from one distribution (e.g. measured histogram vs. a histogram
 * simulated from a predicted PMF). Under homogeneity the expected counts are
 * E_a = (a_i + b_i)·A/(A + B) and E_b = (a_i + b_i)·B/(A + B) with A, B the
 * totals; X² = Σ (a - E_a)²/E_a + (b - E_b)²/E_b over groups, df = bins - 1.
 * Groups are merged as in proper_stats_chi2_gof, closing when both expected
 * counts of the group are positive and >= min_expected. */
PROPER_API int proper_stats_chi2_two_sample(const double *a, const double *b, size_t n,
                                            double min_expected, proper_chi2_test *out,
                                            proper_error *err);

/* Kolmogorov–Smirnov distance max_i |F_i - G_i| between two CDFs given by
 * their values on the same grid points (finite, within [0, 1] up to
 * PROPER_STATS_PROB_TOL). For step CDFs on a grid this is the exact sup. */
PROPER_API int proper_stats_ks_distance_cdf(const double *F, const double *G, size_t n,
                                            double *out, proper_error *err);
/* The same from two PMFs on the same grid: the CDFs are their running sums.
 * Masses are used as given (not renormalised): mass missing from a total
 * (a PMF's tail) is taken to lie beyond the last grid point. Each total must
 * be <= 1 + PROPER_STATS_PROB_TOL; masses non-negative and finite. To compare
 * a sample of a lattice distribution, bin it onto the grid first. */
PROPER_API int proper_stats_ks_distance_pmf(const double *p, const double *q, size_t n,
                                            double *out, proper_error *err);

/* A CDF given as a callback, e.g. a fitted parametric model. */
typedef double (*proper_cdf_fn)(double x, void *ctx);

/* One-sample KS distance sup_x |F_n(x) - F(x)| between the empirical CDF of
 * x[0..n) and a continuous CDF F (ties in the sample are handled exactly).
 * For a discrete F use proper_stats_ks_distance_pmf on binned data: its left
 * limits matter and a callback cannot give them. Sorts a copy of x. */
PROPER_API int proper_stats_ks_sample(const double *x, size_t n, proper_cdf_fn cdf, void *ctx,
                                      double *out, proper_error *err);

/* Asymptotic p-value P(D_n >= d) of the KS statistic for a sample of size n
 * (two samples: n = n1·n2/(n1 + n2)), using the Kolmogorov distribution at
 * λ = (√n + 0.12 + 0.11/√n)·d (Stephens 1970; Numerical Recipes §14.3).
 * NaN when d is NaN or n <= 0. */
PROPER_API double proper_stats_ks_pvalue(double d, double n);

/* A p-value as text for reports: `digits` significant digits (1..17), or
 * "< 1e-300" below PROPER_STATS_PVALUE_FLOOR, where the tail functions no
 * longer hold their relative accuracy and a printed 3.29e-312 would claim
 * digits it does not have; "nan" for NaN (no test). Writes at most `size`
 * bytes into buf and returns buf. */
PROPER_API char *proper_stats_format_pvalue(double p, int digits, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_STATS_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_STATS_IMPLEMENTATION
#define PROPER_STATS_IMPLEMENTATION

#include <float.h>
#include <math.h>
#include <string.h>

#define PROPER__STATS_LN_SQRT_2PI 0.91893853320467274178 /* log(√(2π)) */
#define PROPER__STATS_SQRT_2PI 2.50662827463100050242
#define PROPER__STATS_PI 3.14159265358979323846
#define PROPER__STATS_SQRT1_2 0.70710678118654752440
#define PROPER__STATS_TINY 1e-300 /* keeps Lentz's continued fractions off zero */

/* ---- log-gamma ---- */

/* Stirling remainder δ(x) = log Γ(x) - [(x - ½)log x - x + log √(2π)] for
 * x >= 10: the asymptotic series Σ B_2k / (2k(2k-1) x^(2k-1)) (DLMF 5.11.1)
 * through B_14; the first omitted term is below 1e-17 at x = 10. */
static double proper__stats_stirling_delta(double x) {
    double r = 1.0 / x, r2 = r * r;
    return r * (1.0 / 12 + r2 * (-1.0 / 360 + r2 * (1.0 / 1260 + r2 * (-1.0 / 1680 +
           r2 * (1.0 / 1188 + r2 * (-691.0 / 360360 + r2 * (1.0 / 156)))))));
}

PROPER_API double proper_stats_lgamma(double x) {
    double prod = 1.0;
    if (!(x > 0.0)) return NAN;
    if (isinf(x)) return INFINITY;
    /* Γ(x) = Γ(x + k) / (x (x+1) ... (x+k-1)): move x up to the Stirling range. */
    while (x < 10.0) {
        prod *= x;
        x += 1.0;
    }
    return (x - 0.5) * log(x) - x + PROPER__STATS_LN_SQRT_2PI + proper__stats_stirling_delta(x) - log(prod);
}

/* log B(a, b) without the cancellation of lgamma(a) + lgamma(b) - lgamma(a+b)
 * when a or b is large: Stirling's form with the remainders δ. */
static double proper__stats_lbeta(double a, double b) {
    double lo = a < b ? a : b, hi = a < b ? b : a, s = lo + hi;
    if (lo >= 10.0)
        return PROPER__STATS_LN_SQRT_2PI - 0.5 * log(hi) + (lo - 0.5) * log(lo / s) +
               hi * log1p(-lo / s) + proper__stats_stirling_delta(lo) + proper__stats_stirling_delta(hi) -
               proper__stats_stirling_delta(s);
    if (hi >= 10.0) /* log Γ(hi) - log Γ(hi + lo) in Stirling form, plus log Γ(lo) */
        return proper_stats_lgamma(lo) + (hi - 0.5) * log1p(-lo / s) - lo * log(s) + lo +
               proper__stats_stirling_delta(hi) - proper__stats_stirling_delta(s);
    return proper_stats_lgamma(lo) + proper_stats_lgamma(hi) - proper_stats_lgamma(s);
}

/* log(1 + e) - e without cancellation for small e. */
static double proper__stats_log1pmx(double e) {
    double term, sum = 0.0, pw;
    int k;
    if (fabs(e) > 0.25) return log1p(e) - e;
    pw = e * e;
    for (k = 2; k < 200; k++) {
        term = pw / k;
        sum += (k % 2 == 0) ? -term : term;
        if (fabs(term) <= 1e-17 * fabs(sum)) break;
        pw *= e;
    }
    return sum;
}

/* ---- incomplete gamma ---- */

/* x^a e^(-x) / Γ(a), computed for large a as
 * exp(a·log1pmx((x-a)/a) + ½ log(a/2π) - δ(a)) to avoid cancelling huge terms
 * (Temme's form, DLMF 8.12). */
static double proper__stats_gamma_prefactor(double a, double x) {
    double e, core;
    if (x == 0.0) return 0.0;
    if (a < 10.0) return exp(a * log(x) - x - proper_stats_lgamma(a));
    /* a (log(x/a) - (x-a)/a): with log1pmx near x = a; directly elsewhere,
     * where 1 + e would lose the digits of a small x/a */
    e = (x - a) / a;
    core = fabs(e) <= 0.25 ? a * proper__stats_log1pmx(e) : a * log(x / a) + (a - x);
    return exp(core + 0.5 * log(a / (2.0 * PROPER__STATS_PI)) - proper__stats_stirling_delta(a));
}

/* P(a, x) and Q(a, x): the power series for x < a + 1 (DLMF 8.11.4), the
 * continued fraction for Q otherwise (DLMF 8.9.2, modified Lentz). Returns 0,
 * or -1 when the expansion did not converge. */
static int proper__stats_gamma_pq(double a, double x, double *p, double *q) {
    double front = proper__stats_gamma_prefactor(a, x);
    int i;
    if (x == 0.0) { *p = 0.0; *q = 1.0; return 0; }
    if (isinf(x)) { *p = 1.0; *q = 0.0; return 0; }
    if (x < a + 1.0) {
        double term = 1.0 / a, sum = term, ap = a;
        for (i = 0; i < PROPER_STATS_SERIES_MAX_ITER; i++) {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if (term <= sum * PROPER_STATS_SERIES_EPS) break;
        }
        if (i == PROPER_STATS_SERIES_MAX_ITER) return -1;
        *p = front * sum;
        if (*p > 1.0) *p = 1.0;
        *q = 1.0 - *p;
    } else {
        double b = x + 1.0 - a, c = 1.0 / PROPER__STATS_TINY, d = 1.0 / b, h = d;
        for (i = 1; i <= PROPER_STATS_SERIES_MAX_ITER; i++) {
            double an = -i * (i - a), delta;
            b += 2.0;
            d = an * d + b;
            if (fabs(d) < PROPER__STATS_TINY) d = PROPER__STATS_TINY;
            c = b + an / c;
            if (fabs(c) < PROPER__STATS_TINY) c = PROPER__STATS_TINY;
            d = 1.0 / d;
            delta = d * c;
            h *= delta;
            if (fabs(delta - 1.0) <= PROPER_STATS_SERIES_EPS) break;
        }
        if (i > PROPER_STATS_SERIES_MAX_ITER) return -1;
        *q = front * h;
        if (*q > 1.0) *q = 1.0;
        *p = 1.0 - *q;
    }
    return 0;
}

PROPER_API double proper_stats_gamma_p(double a, double x) {
    double p, q;
    if (!(a > 0.0) || isinf(a) || !(x >= 0.0)) return NAN;
    return proper__stats_gamma_pq(a, x, &p, &q) ? NAN : p;
}

PROPER_API double proper_stats_gamma_q(double a, double x) {
    double p, q;
    if (!(a > 0.0) || isinf(a) || !(x >= 0.0)) return NAN;
    return proper__stats_gamma_pq(a, x, &p, &q) ? NAN : q;
}

/* ---- incomplete beta ---- */

/* Continued fraction for I_x(a, b) / (x^a y^b / (a B(a, b))) (DLMF 8.17.22),
 * modified Lentz; converges fast for x < (a + 1)/(a + b + 2). NaN when it
 * does not converge. */
static double proper__stats_incbeta_cf(double a, double b, double x) {
    double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;
    int m;
    if (fabs(d) < PROPER__STATS_TINY) d = PROPER__STATS_TINY;
    d = 1.0 / d;
    h = d;
    for (m = 1; m <= PROPER_STATS_SERIES_MAX_ITER; m++) {
        double m2 = 2.0 * m, num, delta;
        /* even step d_2m = m (b - m) x / ((a + 2m - 1)(a + 2m)) */
        num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 + num * d;
        if (fabs(d) < PROPER__STATS_TINY) d = PROPER__STATS_TINY;
        c = 1.0 + num / c;
        if (fabs(c) < PROPER__STATS_TINY) c = PROPER__STATS_TINY;
        d = 1.0 / d;
        h *= d * c;
        /* odd step d_2m+1 = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)) */
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 + num * d;
        if (fabs(d) < PROPER__STATS_TINY) d = PROPER__STATS_TINY;
        c = 1.0 + num / c;
        if (fabs(c) < PROPER__STATS_TINY) c = PROPER__STATS_TINY;
        d = 1.0 / d;
        delta = d * c;
        h *= delta;
        if (fabs(delta - 1.0) <= PROPER_STATS_SERIES_EPS) return h;
    }
    return NAN;
}

/* Power series I_x(a, b) / (x^a y^b / (a B(a, b))) = Σ_n (a+b)_n/(a+1)_n x^n
 * (DLMF 8.17.8 with 8.17.7): positive terms, so no cancellation; it needs
 * about (a + b) x / (1 - x) terms. Used where Lentz's evaluation of the
 * continued fraction stalls (one shape huge, the other small, e.g. the t
 * distribution with df = 1e6): there its steps can round to exactly 1 long
 * before it has converged. NaN when it does not converge. */
static double proper__stats_incbeta_log_series(double a, double b, double x) {
    /* terms can grow to about e^((a+b)x/(1-x)) before they fall: rescale
     * by 2^-900 whenever the sum passes 2^900 and count the rescalings */
    const double big = 8.452712498170644e270, log_big = 623.8324625039508; /* 2^900, its log */
    double term = 1.0, sum = 1.0, scaled = 0.0;
    int n;
    for (n = 0; n < PROPER_STATS_SERIES_MAX_ITER; n++) {
        double ratio = (a + b + n) * x / (a + 1.0 + n);
        term *= ratio;
        sum += term;
        if (sum > big) { sum /= big; term /= big; scaled += log_big; }
        if (ratio < 1.0 && term <= sum * PROPER_STATS_SERIES_EPS * (1.0 - ratio)) return log(sum) + scaled;
    }
    return NAN;
}

/* Terms the power series needs for I_x(a, b): about (a + b) x / (1 - x). */
#define PROPER__STATS_INCBETA_SERIES_TERMS 4000.0 /* beyond it, the continued fraction */

/* I_x(a, b) for large a and small b, from Temme's expansion (the form
 * behind DiDonato & Morris's BGRAT, ACM TOMS 18 (1992)): with t = e^-u and
 * ν = a + (b-1)/2,
 *   B(a,b) I_x(a,b) = ∫_ξ^∞ e^(-νu) u^(b-1) (sinh(u/2)/(u/2))^(b-1) du,  ξ = -log x,
 * and expanding (sinh(u/2)/(u/2))^(b-1) = Σ d_j u^(2j) gives
 *   I_x(a,b) = Σ_j d_j Γ(b+2j) Q(b+2j, νξ) / (ν^(b+2j) B(a,b)).
 * log(sinh(w)/w) = Σ_k 2^(2k) B_2k w^(2k) / (2k (2k)!), so d_j follows from
 * the exponential of a power series. The terms fall like (ξ/2π)² and
 * (2j/2πν)²; returns -1 when they have not fallen below the tolerance
 * after PROPER__STATS_TEMME_TERMS terms. (The continued fraction loses up to 1e-10
 * in this regime, e.g. for the t distribution with df = 1e6.) */
#define PROPER__STATS_TEMME_TERMS 12
static int proper__stats_incbeta_large_a(double a, double b, double y, double *out) {
    /* B_2, B_4, ..., B_24 */
    static const double bern[PROPER__STATS_TEMME_TERMS] = {
        1.0 / 6, -1.0 / 30, 1.0 / 42, -1.0 / 30, 5.0 / 66, -691.0 / 2730, 7.0 / 6,
        -3617.0 / 510, 43867.0 / 798, -174611.0 / 330, 854513.0 / 138, -236364091.0 / 2730};
    double e[PROPER__STATS_TEMME_TERMS + 1], d[PROPER__STATS_TEMME_TERMS];
    double nu = a + 0.5 * (b - 1.0), xi = -log1p(-y), z = nu * xi, lbeta = proper__stats_lbeta(a, b);
    double p, q, s = b, sum = 0.0, fact = 1.0;
    int j, k;
    /* e_k: coefficient of u^(2k) in (b-1) log(sinh(u/2)/(u/2)) = (b-1) B_2k / (2k (2k)!) */
    for (k = 1; k <= PROPER__STATS_TEMME_TERMS; k++) {
        fact *= (2.0 * k - 1.0) * (2.0 * k);
        e[k] = (b - 1.0) * bern[k - 1] / (2.0 * k * fact);
    }
    /* d = exp(Σ e_k w^k): d_0 = 1, d_n = (1/n) Σ_k k e_k d_(n-k) */
    d[0] = 1.0;
    for (j = 1; j < PROPER__STATS_TEMME_TERMS; j++) {
        double acc = 0.0;
        for (k = 1; k <= j; k++) acc += k * e[k] * d[j - k];
        d[j] = acc / j;
    }
    if (proper__stats_gamma_pq(b, z, &p, &q)) return -1;
    for (j = 0; j < PROPER__STATS_TEMME_TERMS; j++) {
        double term = d[j] * exp(proper_stats_lgamma(s) - s * log(nu) - lbeta) * q;
        sum += term;
        if (fabs(term) <= PROPER_STATS_SERIES_EPS * fabs(sum)) {
            *out = sum;
            return 0;
        }
        /* Q(s+1, z) = Q(s, z) + z^s e^-z / Γ(s+1) (DLMF 8.8.6), twice */
        q += proper__stats_gamma_prefactor(s, z) / s;
        q += proper__stats_gamma_prefactor(s + 1.0, z) / (s + 1.0);
        s += 2.0;
    }
    return -1;
}

/* Where the expansion above is used: shape a at least this, b at most 10. */
#define PROPER__STATS_TEMME_MIN_A 100.0

/* I_x(a, b) into *i and 1 - I_x(a, b) into *j, where y = 1 - x is passed
 * separately so that callers keep its precision. Whichever of the two is
 * computed directly by the continued fraction is accurate in relative
 * terms; the other is 1 minus it. Returns -1 on non-convergence. */
static int proper__stats_incbeta2(double a, double b, double x, double y, double *i, double *j) {
    double cf, lx, ly;
    int swap, use_series;
    if (x <= 0.0) { *i = 0.0; *j = 1.0; return 0; }
    if (y <= 0.0) { *i = 1.0; *j = 0.0; return 0; }
    /* orient so that the computed side is the smaller one (x below the mean) */
    swap = x > (a + 1.0) / (a + b + 2.0);
    if (swap) {
        double t = a; a = b; b = t;
        t = x; x = y; y = t;
    }
    use_series = (a + b) * x / y <= PROPER__STATS_INCBETA_SERIES_TERMS;
    if (!use_series && a >= PROPER__STATS_TEMME_MIN_A && b <= 10.0 && !proper__stats_incbeta_large_a(a, b, y, &cf)) {
        if (cf > 1.0) cf = 1.0;
        if (swap) { *j = cf; *i = 1.0 - cf; }
        else { *i = cf; *j = 1.0 - cf; }
        return 0;
    }
    /* take the logarithm of whichever of x, y is small: log x = log1p(-y) for
     * x near 1 keeps a·log x exact to rounding even when a is huge */
    lx = x > 0.5 ? log1p(-y) : log(x);
    ly = y > 0.5 ? log1p(-x) : log(y);
    cf = use_series ? proper__stats_incbeta_log_series(a, b, x) : log(proper__stats_incbeta_cf(a, b, x));
    if (isnan(cf)) return -1;
    cf = exp(a * lx + b * ly - proper__stats_lbeta(a, b) + cf) / a;
    if (cf > 1.0) cf = 1.0;
    if (swap) { *j = cf; *i = 1.0 - cf; }
    else { *i = cf; *j = 1.0 - cf; }
    return 0;
}

PROPER_API double proper_stats_incbeta(double a, double b, double x) {
    double i, j;
    if (!(a > 0.0) || !(b > 0.0) || isinf(a) || isinf(b) || !(x >= 0.0 && x <= 1.0)) return NAN;
    return proper__stats_incbeta2(a, b, x, 1.0 - x, &i, &j) ? NAN : i;
}

/* ---- root finding ---- */

/* g(x): a strictly increasing function on (0, ∞) whose root is wanted, and
 * its derivative *dg. The quantiles use differences of logarithms of tail
 * probabilities, e.g. log P(a, y) - log p, which are nearly linear in log x
 * far out in the tails. */
typedef double (*proper__stats_resid_fn)(double x, const void *ctx, double *dg);

/* Safeguarded Newton on (0, ∞) from x0 > 0. The bracket [lo, hi] starts as
 * [0, ∞]; a Newton step that leaves it is replaced by a jump (multiply or
 * divide x by a factor that squares each time) while a side is still open,
 * and by bisection (geometric when the bracket spans a factor above 4)
 * once both are known. Returns 0 when the root lies below the smallest
 * subnormal and INFINITY when it lies beyond DBL_MAX. */
static double proper__stats_solve_increasing(proper__stats_resid_fn g, const void *ctx, double x0) {
    const double smallest = 4.9406564584124654e-324; /* the least subnormal */
    double lo = 0.0, hi = INFINITY, x = x0, factor = 2.0, gx, d, next;
    int it;
    for (it = 0; it < PROPER_STATS_ROOT_MAX_ITER; it++) {
        gx = g(x, ctx, &d);
        if (isnan(gx)) return NAN;
        if (gx == 0.0) return x;
        if (gx < 0.0) {
            if (x == DBL_MAX) return INFINITY;
            lo = x;
        } else {
            if (x == smallest) return 0.0;
            hi = x;
        }
        next = (d > 0.0 && isfinite(d) && isfinite(gx)) ? x - gx / d : NAN;
        if (!(next > lo && next < hi)) {
            if (isinf(hi)) {
                next = x * factor;
                if (isinf(next)) next = DBL_MAX;
                if (factor < 1e150) factor *= factor;
            } else if (lo == 0.0) {
                next = x / factor;
                if (next == 0.0) next = smallest;
                if (factor < 1e150) factor *= factor;
            } else {
                next = hi > 4.0 * lo ? sqrt(lo) * sqrt(hi) : lo + 0.5 * (hi - lo);
            }
        }
        if (fabs(next - x) <= PROPER_STATS_ROOT_RTOL * next) return next;
        if (next == lo || next == hi) return next; /* the bracket cannot shrink further */
        x = next;
    }
    return x;
}

/* ---- normal ---- */

PROPER_API double proper_stats_normal_cdf(double x) {
    if (isnan(x)) return NAN;
    return 0.5 * erfc(-x * PROPER__STATS_SQRT1_2);
}

/* Abramowitz & Stegun 26.2.23: for 0 < p <= 0.5, Φ⁻¹(p) ≈ -(t - c(t)/d(t)) with
 * t = √(-2 log p); absolute error below 4.5e-4. The starting point only. */
static double proper__stats_normal_quantile_start(double p) {
    double t = sqrt(-2.0 * log(p));
    return -(t - (2.515517 + t * (0.802853 + t * 0.010328)) /
                     (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
}

PROPER_API double proper_stats_normal_quantile(double p) {
    double r, x, q;
    int it, central, upper;
    if (!(p >= 0.0 && p <= 1.0)) return NAN;
    if (p == 0.0) return -INFINITY;
    if (p == 1.0) return INFINITY;
    if (p == 0.5) return 0.0;
    upper = p > 0.5;
    r = upper ? 1.0 - p : p; /* exact for p >= 0.5 (Sterbenz) */
    q = p - 0.5;             /* exact for p in [0.25, 1]; within 3e-17 elsewhere */
    central = fabs(q) <= 0.425;
    x = proper__stats_normal_quantile_start(r); /* x <= 0: the lower-tail quantile of r */
    /* Halley's method on g(x) = Φ(x) - r, g' = φ, g'' = -x φ:
     * x ← x - u / (1 + x u / 2) with u = g/φ. In the centre, g is written
     * as erf(|x|/√2)/2 - |q| so that quantiles near 0 keep their digits. */
    for (it = 0; it < 8; it++) {
        double g, phi, u, step;
        phi = exp(-0.5 * x * x) / PROPER__STATS_SQRT_2PI;
        if (!(phi > DBL_MIN)) break; /* deep in the subnormal tail: keep the estimate */
        /* Φ(x) - r; in the centre Φ(x) - r = |q| - erf(-x/√2)/2 */
        g = central ? fabs(q) - 0.5 * erf(-x * PROPER__STATS_SQRT1_2) : 0.5 * erfc(-x * PROPER__STATS_SQRT1_2) - r;
        u = g / phi;
        step = u / (1.0 + 0.5 * x * u);
        x -= step;
        if (fabs(step) <= 1e-17 * fabs(x) || step == 0.0) break;
    }
    return upper ? -x : x;
}

/* Two-sided critical value z with P(|Z| <= z) = level. */
static double proper__stats_normal_critical(double level) {
    return -proper_stats_normal_quantile(0.5 * (1.0 - level));
}

/* ---- Student t ---- */

/* For t >= 0: *tail2 = P(|T| > t) = I_x(df/2, 1/2) with x = df/(df + t²),
 * *central = P(|T| <= t) = 1 - *tail2, each accurate where it is small. */
static int proper__stats_t_tails(double t, double df, double *tail2, double *central) {
    double s = t / sqrt(df), x, y;
    if (s > 1e150) {
        /* x = 1/(1+s²) underflows: the series of proper__stats_incbeta2 is just
         * its first term, x^a / (a B(a, 1/2)) with y = 1 (log s from log t:
         * s itself may overflow) */
        *tail2 = exp(-df * (log(t) - 0.5 * log(df)) - proper__stats_lbeta(0.5 * df, 0.5)) / (0.5 * df);
        *central = 1.0 - *tail2;
        return 0;
    }
    if (s > 1e8) { /* 1 + s² rounds to s²: avoid its overflow */
        x = (1.0 / s) * (1.0 / s);
        y = 1.0 / (1.0 + x);
    } else {
        x = 1.0 / (1.0 + s * s);
        y = s * s * x;
    }
    return proper__stats_incbeta2(0.5 * df, 0.5, x, y, tail2, central);
}

static double proper__stats_t_pdf(double t, double df) {
    double s = t / sqrt(df);
    return exp(-0.5 * (df + 1.0) * log1p(s * s) - proper__stats_lbeta(0.5 * df, 0.5)) / sqrt(df);
}

PROPER_API double proper_stats_t_cdf(double t, double df) {
    double tail2, central;
    if (isnan(t) || !(df > 0.0)) return NAN;
    if (isinf(t)) return t > 0 ? 1.0 : 0.0;
    if (isinf(df)) return proper_stats_normal_cdf(t);
    if (proper__stats_t_tails(fabs(t), df, &tail2, &central)) return NAN;
    if (tail2 < 0.5) return t < 0 ? 0.5 * tail2 : 1.0 - 0.5 * tail2;
    return t < 0 ? 0.5 - 0.5 * central : 0.5 + 0.5 * central;
}

typedef struct proper__stats_t_target {
    double df;
    double log_target; /* log of the wanted P(T > t), or of the wanted P(|T| <= t) */
    int central;       /* solve through P(|T| <= t) (wanted tail above 0.25) */
} proper__stats_t_target;

static double proper__stats_t_resid(double t, const void *ctx, double *dg) {
    const proper__stats_t_target *g = (const proper__stats_t_target *)ctx;
    double tail2, central, pdf;
    if (proper__stats_t_tails(t, g->df, &tail2, &central)) return NAN;
    pdf = proper__stats_t_pdf(t, g->df);
    if (g->central) { /* log P(|T| <= t) - log target */
        *dg = 2.0 * pdf / central;
        return log(central) - g->log_target;
    }
    /* log target - log P(T > t) */
    *dg = 2.0 * pdf / tail2;
    return g->log_target - log(0.5 * tail2);
}

PROPER_API double proper_stats_t_quantile(double p, double df) {
    proper__stats_t_target g;
    double t0, t, tail;
    if (!(p >= 0.0 && p <= 1.0) || !(df > 0.0)) return NAN;
    if (p == 0.0) return -INFINITY;
    if (p == 1.0) return INFINITY;
    if (p == 0.5) return 0.0;
    if (isinf(df)) return proper_stats_normal_quantile(p);
    g.df = df;
    tail = p > 0.5 ? 1.0 - p : p;
    g.central = tail > 0.25;
    g.log_target = g.central ? log(1.0 - 2.0 * tail) : log(tail); /* 1 - 2 tail is exact here */
    /* Start from the normal quantile with the first Cornish–Fisher term
     * (z + (z³ + z)/(4 df)); Newton corrects it. */
    t0 = -proper_stats_normal_quantile(tail);
    t0 += (t0 * t0 * t0 + t0) / (4.0 * df);
    t = proper__stats_solve_increasing(proper__stats_t_resid, &g, t0);
    return p > 0.5 ? t : -t;
}

/* ---- chi-square ---- */

PROPER_API double proper_stats_chi2_cdf(double x, double df) {
    if (isnan(x) || !(df > 0.0) || isinf(df)) return NAN;
    if (x <= 0.0) return 0.0;
    return proper_stats_gamma_p(0.5 * df, 0.5 * x);
}

PROPER_API double proper_stats_chi2_sf(double x, double df) {
    if (isnan(x) || !(df > 0.0) || isinf(df)) return NAN;
    if (x <= 0.0) return 1.0;
    return proper_stats_gamma_q(0.5 * df, 0.5 * x);
}

typedef struct proper__stats_gamma_target {
    double a;
    double log_p; /* log of the wanted P(a, y) when lower, else of the wanted Q(a, y) */
    int lower;
} proper__stats_gamma_target;

static double proper__stats_gamma_resid(double y, const void *ctx, double *dg) {
    const proper__stats_gamma_target *g = (const proper__stats_gamma_target *)ctx;
    double p, q, density;
    if (proper__stats_gamma_pq(g->a, y, &p, &q)) return NAN;
    density = proper__stats_gamma_prefactor(g->a, y) / y;
    if (g->lower) { /* log P(a, y) - log p */
        *dg = density / p;
        return log(p) - g->log_p;
    }
    *dg = density / q; /* log q - log Q(a, y) */
    return g->log_p - log(q);
}

PROPER_API double proper_stats_chi2_quantile(double p, double df) {
    proper__stats_gamma_target g;
    double z, h, y0;
    if (!(p >= 0.0 && p <= 1.0) || !(df > 0.0) || isinf(df)) return NAN;
    if (p == 0.0) return 0.0;
    if (p == 1.0) return INFINITY;
    g.a = 0.5 * df;
    g.lower = p <= 0.5;
    g.log_p = log(g.lower ? p : 1.0 - p);
    /* Start: Wilson–Hilferty, x ≈ df (1 - h + z √h)³ with h = 2/(9 df); where
     * that is not positive, the small-x form P(a, y) ≈ y^a / Γ(a + 1). */
    z = proper_stats_normal_quantile(p);
    h = 2.0 / (9.0 * df);
    y0 = 1.0 - h + z * sqrt(h);
    y0 = 0.5 * df * y0 * y0 * y0;
    if (!(y0 > 0.0) || (g.lower && g.a < 1.0))
        y0 = exp((log(p) + proper_stats_lgamma(g.a + 1.0)) / g.a);
    if (!(y0 > 0.0)) y0 = DBL_MIN; /* the small-x form underflowed */
    return 2.0 * proper__stats_solve_increasing(proper__stats_gamma_resid, &g, y0);
}

/* ---- intervals ---- */

static int proper__stats_check_level(double level, proper_error *err) {
    if (!(level > 0.0 && level < 1.0))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "confidence level %g is not in (0, 1)", level);
    return PROPER_OK;
}

PROPER_API int proper_stats_mean_sd(const double *x, size_t n, double *mean, double *sd,
                                    proper_error *err) {
    double sum = 0.0, ss = 0.0, m;
    size_t i;
    if (n < 2) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "a standard deviation needs at least 2 values (got %zu)", n);
    for (i = 0; i < n; i++) {
        if (!isfinite(x[i])) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "value %zu is %g", i, x[i]);
        sum += x[i];
    }
    m = sum / (double)n;
    for (i = 0; i < n; i++) ss += (x[i] - m) * (x[i] - m);
    *mean = m;
    *sd = sqrt(ss / (double)(n - 1));
    return PROPER_OK;
}

static int proper__stats_check_mean_sd(double mean, double sd, proper_error *err) {
    if (!isfinite(mean)) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "mean is %g", mean);
    if (!(sd >= 0.0) || isinf(sd)) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "standard deviation %g is not finite and >= 0", sd);
    return PROPER_OK;
}

PROPER_API int proper_stats_normal_interval(double mean, double sd, size_t n, double level,
                                            proper_interval *out, proper_error *err) {
    double half;
    int rc;
    if ((rc = proper__stats_check_level(level, err)) || (rc = proper__stats_check_mean_sd(mean, sd, err))) return rc;
    if (n < 1) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "an interval needs at least 1 observation");
    half = proper__stats_normal_critical(level) * sd / sqrt((double)n);
    out->estimate = mean;
    out->lo = mean - half;
    out->hi = mean + half;
    return PROPER_OK;
}

PROPER_API int proper_stats_t_interval(double mean, double sd, size_t n, double level,
                                       proper_interval *out, proper_error *err) {
    double half;
    int rc;
    if ((rc = proper__stats_check_level(level, err)) || (rc = proper__stats_check_mean_sd(mean, sd, err))) return rc;
    if (n < 2) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "a t interval needs at least 2 observations (got %zu)", n);
    half = -proper_stats_t_quantile(0.5 * (1.0 - level), (double)(n - 1)) * sd / sqrt((double)n);
    out->estimate = mean;
    out->lo = mean - half;
    out->hi = mean + half;
    return PROPER_OK;
}

PROPER_API int proper_stats_wilson_interval(double successes, double trials, double level,
                                            int continuity, proper_interval *out,
                                            proper_error *err) {
    double z, z2, n = trials, r = successes, p, q, denom, lo, hi;
    int rc;
    if ((rc = proper__stats_check_level(level, err))) return rc;
    if (!(n > 0.0) || isinf(n))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "trials %g is not finite and > 0", n);
    if (!(r >= 0.0 && r <= n))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "successes %g is not in [0, trials = %g]", r, n);
    z = proper__stats_normal_critical(level);
    z2 = z * z;
    p = r / n;
    q = (n - r) / n;
    denom = 2.0 * (n + z2);
    if (!continuity) {
        /* Newcombe (1998) eq. for method 3: (2r + z² ∓ z √(z² + 4 r q)) / (2 (n + z²)) */
        double root = z * sqrt(z2 + 4.0 * r * q);
        lo = (2.0 * r + z2 - root) / denom;
        hi = (2.0 * r + z2 + root) / denom;
    } else {
        /* Newcombe (1998) method 4:
         * L = (2r + z² - 1 - z √(z² - 2 - 1/n + 4p(nq + 1))) / (2(n + z²)), 0 if r = 0
         * U = (2r + z² + 1 + z √(z² + 2 - 1/n + 4p(nq - 1))) / (2(n + z²)), 1 if r = n */
        double lo_rad = z2 - 2.0 - 1.0 / n + 4.0 * p * (n * q + 1.0);
        double hi_rad = z2 + 2.0 - 1.0 / n + 4.0 * p * (n * q - 1.0);
        lo = r == 0.0 ? 0.0 : (2.0 * r + z2 - 1.0 - z * sqrt(lo_rad > 0.0 ? lo_rad : 0.0)) / denom;
        hi = r == n ? 1.0 : (2.0 * r + z2 + 1.0 + z * sqrt(hi_rad > 0.0 ? hi_rad : 0.0)) / denom;
    }
    out->estimate = p;
    out->lo = lo < 0.0 ? 0.0 : lo;
    out->hi = hi > 1.0 ? 1.0 : hi;
    return PROPER_OK;
}

/* ---- simultaneous levels ---- */

PROPER_API double proper_stats_sidak_level(double overall_level, size_t m) {
    if (!(overall_level > 0.0 && overall_level < 1.0) || m == 0) return NAN;
    return exp(log(overall_level) / (double)m);
}

PROPER_API double proper_stats_bonferroni_level(double overall_level, size_t m) {
    if (!(overall_level > 0.0 && overall_level < 1.0) || m == 0) return NAN;
    return 1.0 - (1.0 - overall_level) / (double)m;
}

/* ---- divergences and tests ---- */

/* Checks that w[0..n) are finite and >= 0; returns their sum in *total. */
static int proper__stats_check_weights(const double *w, size_t n, const char *what, double *total,
                                 proper_error *err) {
    double s = 0.0;
    size_t i;
    for (i = 0; i < n; i++) {
        if (!(w[i] >= 0.0) || isinf(w[i]))
            return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "%s[%zu] is %g (must be finite and >= 0)", what, i, w[i]);
        s += w[i];
    }
    *total = s;
    return PROPER_OK;
}

static int proper__stats_check_positive_weights(const double *w, size_t n, const char *what,
                                          double *total, proper_error *err) {
    int rc;
    if (n == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s is empty", what);
    if ((rc = proper__stats_check_weights(w, n, what, total, err))) return rc;
    if (!(*total > 0.0)) return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "%s has zero total", what);
    return PROPER_OK;
}

PROPER_API int proper_stats_kl_divergence(const double *p, const double *q, size_t n,
                                          double *out, proper_error *err) {
    double sp, sq, d = 0.0;
    size_t i;
    int rc;
    if ((rc = proper__stats_check_positive_weights(p, n, "p", &sp, err)) ||
        (rc = proper__stats_check_positive_weights(q, n, "q", &sq, err)))
        return rc;
    for (i = 0; i < n; i++) {
        double pi = p[i] / sp, qi = q[i] / sq;
        if (pi == 0.0) continue;
        if (qi == 0.0) { *out = INFINITY; return PROPER_OK; }
        d += pi * log(pi / qi);
    }
    *out = d > 0.0 ? d : 0.0; /* round-off can make D(P‖P) a hair negative */
    return PROPER_OK;
}

/* Adds one merged group to the statistic. */
static double proper__stats_pearson_term(double observed, double expected) {
    double diff = observed - expected;
    return diff * diff / expected;
}

static int proper__stats_finish_chi2(double stat, size_t bins, size_t params, proper_chi2_test *out,
                               proper_error *err) {
    if (bins < params + 2)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "%zu bin(s) after merging leave no degrees of freedom (with %zu estimated parameter(s)); "
                                "use more data, fewer parameters or a smaller min_expected", bins, params);
    out->statistic = stat;
    out->bins = bins;
    out->df = (double)(bins - 1 - params);
    out->p_value = proper_stats_chi2_sf(stat, out->df);
    return PROPER_OK;
}

PROPER_API int proper_stats_chi2_gof(const double *observed, const double *expected, size_t n,
                                     size_t estimated_params, double min_expected,
                                     proper_chi2_test *out, proper_error *err) {
    double total_obs, total_exp, scale, stat = 0.0;
    double g_obs = 0.0, g_exp = 0.0, last_obs = 0.0, last_exp = 0.0;
    size_t i, bins = 0;
    int rc;
    if ((rc = proper__stats_check_positive_weights(observed, n, "observed", &total_obs, err)) ||
        (rc = proper__stats_check_positive_weights(expected, n, "expected", &total_exp, err)))
        return rc;
    if (!(min_expected >= 0.0) || isinf(min_expected))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "min_expected %g is not finite and >= 0", min_expected);
    scale = total_obs / total_exp;
    for (i = 0; i < n; i++) {
        g_obs += observed[i];
        g_exp += expected[i] * scale;
        if (g_exp > 0.0 && g_exp >= min_expected) {
            if (bins > 0) stat += proper__stats_pearson_term(last_obs, last_exp);
            last_obs = g_obs; last_exp = g_exp; bins++;
            g_obs = g_exp = 0.0;
        }
    }
    /* the trailing group (below min_expected) joins the last closed group */
    last_obs += g_obs;
    last_exp += g_exp;
    if (bins == 0) bins = 1;
    stat += proper__stats_pearson_term(last_obs, last_exp);
    return proper__stats_finish_chi2(stat, bins, estimated_params, out, err);
}

PROPER_API int proper_stats_chi2_two_sample(const double *a, const double *b, size_t n,
                                            double min_expected, proper_chi2_test *out,
                                            proper_error *err) {
    double ta, tb, fa, fb, stat = 0.0, ga = 0.0, gb = 0.0, la = 0.0, lb = 0.0;
    size_t i, bins = 0;
    int rc;
    if ((rc = proper__stats_check_positive_weights(a, n, "a", &ta, err)) ||
        (rc = proper__stats_check_positive_weights(b, n, "b", &tb, err)))
        return rc;
    if (!(min_expected >= 0.0) || isinf(min_expected))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "min_expected %g is not finite and >= 0", min_expected);
    fa = ta / (ta + tb); /* share of the pooled count expected in sample a */
    fb = tb / (ta + tb);
    for (i = 0; i < n; i++) {
        double pooled;
        ga += a[i];
        gb += b[i];
        pooled = ga + gb;
        if (pooled > 0.0 && pooled * fa >= min_expected && pooled * fb >= min_expected) {
            if (bins > 0)
                stat += proper__stats_pearson_term(la, (la + lb) * fa) + proper__stats_pearson_term(lb, (la + lb) * fb);
            la = ga; lb = gb; bins++;
            ga = gb = 0.0;
        }
    }
    la += ga;
    lb += gb;
    if (bins == 0) bins = 1;
    stat += proper__stats_pearson_term(la, (la + lb) * fa) + proper__stats_pearson_term(lb, (la + lb) * fb);
    return proper__stats_finish_chi2(stat, bins, 0, out, err);
}

PROPER_API int proper_stats_ks_distance_cdf(const double *F, const double *G, size_t n,
                                            double *out, proper_error *err) {
    double d = 0.0;
    size_t i;
    if (n == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "empty grid");
    for (i = 0; i < n; i++) {
        if (!(F[i] >= -PROPER_STATS_PROB_TOL && F[i] <= 1.0 + PROPER_STATS_PROB_TOL))
            return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "F[%zu] = %g is not a probability", i, F[i]);
        if (!(G[i] >= -PROPER_STATS_PROB_TOL && G[i] <= 1.0 + PROPER_STATS_PROB_TOL))
            return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "G[%zu] = %g is not a probability", i, G[i]);
        if (fabs(F[i] - G[i]) > d) d = fabs(F[i] - G[i]);
    }
    *out = d;
    return PROPER_OK;
}

PROPER_API int proper_stats_ks_distance_pmf(const double *p, const double *q, size_t n,
                                            double *out, proper_error *err) {
    double sp = 0.0, sq = 0.0, cp = 0.0, cq = 0.0, d = 0.0;
    size_t i;
    int rc;
    if (n == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "empty grid");
    if ((rc = proper__stats_check_weights(p, n, "p", &sp, err)) || (rc = proper__stats_check_weights(q, n, "q", &sq, err)))
        return rc;
    if (sp > 1.0 + PROPER_STATS_PROB_TOL || sq > 1.0 + PROPER_STATS_PROB_TOL)
        return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "PMF total %g exceeds 1", sp > sq ? sp : sq);
    for (i = 0; i < n; i++) {
        cp += p[i];
        cq += q[i];
        if (fabs(cp - cq) > d) d = fabs(cp - cq);
    }
    *out = d;
    return PROPER_OK;
}

static int proper__stats_compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

PROPER_API int proper_stats_ks_sample(const double *x, size_t n, proper_cdf_fn cdf, void *ctx,
                                      double *out, proper_error *err) {
    double *s, d = 0.0;
    size_t i;
    if (n == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "empty sample");
    for (i = 0; i < n; i++)
        if (isnan(x[i])) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "sample value %zu is NaN", i);
    s = (double *)proper_calloc(n, sizeof *s);
    if (!s) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory sorting the sample");
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, proper__stats_compare_doubles);
    /* D = max_i max(i/n - F(x_(i)), F(x_(i)) - (i-1)/n) (1-based). With ties
     * the extra candidates are dominated by those of the first and last
     * tied values, so the maximum is still the exact sup. */
    for (i = 0; i < n; i++) {
        double f = cdf(s[i], ctx), above, below;
        if (!(f >= 0.0 && f <= 1.0)) {
            PROPER_FREE(s);
            return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "the CDF returned %g at %g", f, x[i]);
        }
        above = (double)(i + 1) / (double)n - f;
        below = f - (double)i / (double)n;
        if (above > d) d = above;
        if (below > d) d = below;
    }
    PROPER_FREE(s);
    *out = d;
    return PROPER_OK;
}

PROPER_API char *proper_stats_format_pvalue(double p, int digits, char *buf, size_t size) {
    if (digits < 1) digits = 1;
    if (digits > 17) digits = 17;
    if (isnan(p)) snprintf(buf, size, "nan");
    else if (p < PROPER_STATS_PVALUE_FLOOR) snprintf(buf, size, "< %.0e", PROPER_STATS_PVALUE_FLOOR);
    else snprintf(buf, size, "%.*g", digits, p);
    return buf;
}

PROPER_API double proper_stats_ks_pvalue(double d, double n) {
    double sn, lambda, sum = 0.0;
    int k;
    if (isnan(d) || !(n > 0.0)) return NAN;
    if (d <= 0.0) return 1.0;
    sn = sqrt(n);
    lambda = (sn + 0.12 + 0.11 / sn) * d;
    if (lambda < 1.18) {
        /* Q = 1 - (√(2π)/λ) Σ_k exp(-(2k-1)² π² / (8 λ²)): fast for small λ */
        double base = PROPER__STATS_PI * PROPER__STATS_PI / (8.0 * lambda * lambda);
        for (k = 1; k <= 20; k++) sum += exp(-(double)((2 * k - 1) * (2 * k - 1)) * base);
        return 1.0 - PROPER__STATS_SQRT_2PI / lambda * sum;
    }
    /* Q = 2 Σ_k (-1)^(k-1) exp(-2 k² λ²): fast for large λ */
    for (k = 1; k <= 100; k++) {
        double term = exp(-2.0 * (double)k * (double)k * lambda * lambda);
        sum += (k % 2) ? term : -term;
        if (term < 1e-300) break;
    }
    return 2.0 * sum;
}

#endif /* PROPER_STATS_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
