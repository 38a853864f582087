/* Tests for stats.h.
 *
 * Where the numbers come from:
 * - "mpmath": computed independently with mpmath 1.3.0 at 50 significant
 *   digits (normal: findroot on ncdf; t: findroot on 1 - betainc(df/2, 1/2,
 *   0, df/(df+t²))/2; chi-square: findroot on gammainc(df/2, 0, x/2,
 *   regularized=True)), rounded to 20 digits here.
 * - "NIST": NIST/SEMATECH e-Handbook of Statistical Methods, tables 1.3.6.7.1
 *   (normal), 1.3.6.7.2 (t) and 1.3.6.7.4 (chi-square), 3 decimals.
 * - "Newcombe": R. G. Newcombe, Two-sided confidence intervals for the single
 *   proportion: comparison of seven methods, Stat. Med. 17 (1998) 857-872,
 *   Table II, methods 3 (score) and 4 (score with continuity correction).
 * - "Stephens": critical values of the Kolmogorov distribution (Stephens
 *   1970; Numerical Recipes §14.3): P(K > 1.358) = 0.05, P(K > 1.628) = 0.01.
 */
#define PROPER_IMPLEMENTATION
#include "../src/stats.h"
#include "test.h"

#include <stdlib.h>

static void test_normal_quantile_published(void) {
    /* the value and mpmath: Φ⁻¹(0.975) = 1.9599639845400542355 */
    CHECK_REL(proper_stats_normal_quantile(0.975), 1.959963984540054, 1e-15);
    CHECK_REL(proper_stats_normal_quantile(0.975), 1.9599639845400542355, 1e-14);
    /* mpmath: Φ⁻¹(0.995) = 2.575829303548900761 (tables: 2.5758293035489) */
    CHECK_REL(proper_stats_normal_quantile(0.995), 2.575829303548900761, 1e-14);
    CHECK_REL(proper_stats_normal_quantile(0.9), 1.281551565544600467, 1e-14);
    CHECK_REL(proper_stats_normal_quantile(0.025), -1.9599639845400542355, 1e-14);
    /* NIST 1.3.6.7.1: z at upper tail 0.05 is 1.645, at 0.01 is 2.326 */
    CHECK_ABS(proper_stats_normal_quantile(0.95), 1.645, 5e-4);
    CHECK_ABS(proper_stats_normal_quantile(0.99), 2.326, 5e-4);
    CHECK(proper_stats_normal_quantile(0.5) == 0.0);
    CHECK(proper_stats_normal_quantile(0.0) == -INFINITY);
    CHECK(proper_stats_normal_quantile(1.0) == INFINITY);
    CHECK(isnan(proper_stats_normal_quantile(-0.1)));
    CHECK(isnan(proper_stats_normal_quantile(NAN)));
}

static void test_normal_quantile_tails_and_centre(void) {
    /* mpmath, at the double nearest each p: */
    CHECK_REL(proper_stats_normal_quantile(1e-10), -6.3613409024040561991, 1e-14);
    CHECK_REL(proper_stats_normal_quantile(1e-300), -37.047096299361199237, 1e-14);
    /* p = 0.5 + 2^-30: the quantile is tiny, its digits must survive */
    CHECK_REL(proper_stats_normal_quantile(0.5 + 1.0 / 1073741824.0), 2.3344794983332981399e-9, 1e-13);
}

/* Round trip Φ(Φ⁻¹(p)) = p over the whole range: the relative error of the
 * quantile is |Φ(x) - p| / (x φ(x)), checked from p = 1e-300 to 1 - 1e-12. */
static void test_normal_round_trip(void) {
    double worst = 0.0, p;
    for (p = 1e-300; p < 0.5; p *= 1.7) {
        double x = proper_stats_normal_quantile(p);
        double back = proper_stats_normal_cdf(x);
        double phi = exp(-0.5 * x * x) / sqrt(2.0 * 3.14159265358979323846);
        double rel = fabs(back - p) / (fabs(x) * phi);
        if (rel > worst) worst = rel;
        /* symmetry: Φ⁻¹(1 - p) = -Φ⁻¹(p) where 1 - p is exact */
        if (p > 1e-12) CHECK_REL(proper_stats_normal_quantile(1.0 - p), -proper_stats_normal_quantile(1.0 - (1.0 - p)), 1e-14);
    }
    CHECK(worst < 1e-13);
}

static void test_normal_cdf(void) {
    /* mpmath: Φ(1.96) = 0.97500210485177956379, Φ(-10) = 7.6198530241605260659e-24 */
    CHECK_REL(proper_stats_normal_cdf(1.96), 0.97500210485177956379, 1e-15);
    CHECK_REL(proper_stats_normal_cdf(-10.0), 7.6198530241605260659e-24, 1e-13);
    CHECK(proper_stats_normal_cdf(0.0) == 0.5);
}

static void test_t_quantile_published(void) {
    /* issue / mpmath: t_{0.975,10} = 2.228138852 (2.2281388519862747484) */
    CHECK_ABS(proper_stats_t_quantile(0.975, 10), 2.228138852, 5e-10);
    CHECK_REL(proper_stats_t_quantile(0.975, 10), 2.2281388519862747484, 1e-13);
    /* mpmath */
    CHECK_REL(proper_stats_t_quantile(0.975, 1), 12.706204736174704646, 1e-13);
    CHECK_REL(proper_stats_t_quantile(0.95, 1), 6.313751514675043099, 1e-13);
    CHECK_REL(proper_stats_t_quantile(0.995, 30), 2.7499956535672253324, 1e-13);
    CHECK_REL(proper_stats_t_quantile(0.95, 30), 1.6972608865939578486, 1e-13);
    CHECK_REL(proper_stats_t_quantile(0.975, 100), 1.9839715185235522866, 1e-13);
    CHECK_REL(proper_stats_t_quantile(0.9995, 3), 12.923978636687483065, 1e-13);
    CHECK_REL(proper_stats_t_quantile(0.6, 2.5), 0.28145951274854765657, 1e-13);
    CHECK_REL(proper_stats_t_quantile(0.025, 10), -2.2281388519862747484, 1e-13);
    /* NIST 1.3.6.7.2 (upper-tail 0.05 / 0.025 / 0.005) */
    CHECK_ABS(proper_stats_t_quantile(0.95, 5), 2.015, 5e-4);
    CHECK_ABS(proper_stats_t_quantile(0.975, 20), 2.086, 5e-4);
    CHECK_ABS(proper_stats_t_quantile(0.995, 60), 2.660, 5e-4);
    /* closed forms: df = 1 is Cauchy, t = tan(π(p - 1/2)); df = 2 has
     * t = (2p - 1)/√(2p(1 - p)) */
    CHECK_REL(proper_stats_t_quantile(0.9, 1), tan(3.14159265358979323846 * 0.4), 1e-13);
    CHECK_REL(proper_stats_t_quantile(0.99, 2), 0.98 / sqrt(2.0 * 0.99 * 0.01), 1e-13);
    /* large df tends to the normal quantile */
    CHECK_REL(proper_stats_t_quantile(0.975, 1e9), 1.9599639845400542355, 1e-8);
    CHECK(proper_stats_t_quantile(0.5, 7) == 0.0);
    CHECK(isnan(proper_stats_t_quantile(0.5, 0.0)));
    CHECK(isnan(proper_stats_t_quantile(1.5, 3.0)));
}

static void test_t_cdf(void) {
    /* mpmath */
    CHECK_REL(proper_stats_t_cdf(2.0, 5), 0.94903026058507082188, 1e-14);
    CHECK_REL(proper_stats_t_cdf(-1.5, 3), 0.11529193262241152614, 1e-13);
    CHECK_REL(proper_stats_t_cdf(0.1, 1), 0.53172551743055357126, 1e-14);
    CHECK_REL(proper_stats_t_cdf(10, 2), 0.99507377148833715458, 1e-14);
    /* Cauchy closed form F(t) = 1/2 + atan(t)/π, deep in the tail */
    CHECK_REL(proper_stats_t_cdf(-1e12, 1), atan(1.0 / 1e12) / 3.14159265358979323846, 1e-12);
    CHECK(proper_stats_t_cdf(0.0, 4) == 0.5);
    CHECK(proper_stats_t_cdf(INFINITY, 4) == 1.0);
}

/* quantile(cdf(t)) = t across df and t, through the lower tail (where p
 * keeps its relative precision) and, for the centre, directly. */
static void test_t_round_trip(void) {
    static const double dfs[] = {0.5, 1, 2, 3, 7.5, 30, 1000, 1e6};
    static const double ts[] = {50, 3, 1, 0.01, 0.2, 1.5, 4, 25};
    size_t i, j;
    for (i = 0; i < sizeof dfs / sizeof *dfs; i++)
        for (j = 0; j < sizeof ts / sizeof *ts; j++) {
            double p = proper_stats_t_cdf(-ts[j], dfs[i]);
            if (p == 0.0) continue; /* underflow (df = 1e6, t = 50: about 1e-545) */
            CHECK_REL(proper_stats_t_quantile(p, dfs[i]), -ts[j], 1e-12);
            if (p > 0.25) CHECK_REL(proper_stats_t_quantile(1.0 - p, dfs[i]), ts[j], 1e-12);
        }
    /* mpmath at df = 1e6, where a·log x must not lose digits and the
     * continued fraction would (Temme's expansion takes over) */
    CHECK_REL(proper_stats_t_cdf(-1, 1e6), 0.15865537491678906464, 1e-14);
    CHECK_REL(proper_stats_t_cdf(-3, 1e6), 0.0013499312707108985294, 1e-13);
    CHECK_REL(proper_stats_t_cdf(-30, 1e6), 6.0100471168317189e-198, 1e-13);
    CHECK_REL(proper_stats_t_cdf(-30, 1e3), 7.6873437220217411e-142, 2e-13);
    CHECK_REL(proper_stats_t_cdf(1.5, 1e6), 0.93319264088160361538, 1e-14);
}

/* Quantiles over df = 0.3 .. 1e6 and p = 1e-300 .. 1 - 1e-6, from mpmath
 * (findroot at 50 digits on log P(T <= t) - log p, resp. log of the upper
 * tail for p > 1/2; likewise for chi-square with gammainc). */
static const struct { double p, df, q; } t_quantile_table[] = {
    {1e-08, 0.3, -1.3958120070683004615e+25},
    {0.01, 0.3, -139581.20070622240124},
    {0.3, 0.3, -1.6126582577896125625},
    {0.6, 0.3, 0.50230128205930502301},
    {0.95, 0.3, 653.02052102907287317},
    {0.999999, 0.3, 3007185808502728475.8},
    {1e-300, 1, -3.1830988618379066356e+299},
    {1e-50, 1, -3.1830988618379066911e+49},
    {1e-08, 1, -31830988.618379056016},
    {0.01, 1, -31.820515953773957377},
    {0.3, 1, -0.72654252800536093919},
    {0.6, 1, 0.32491969623290624903},
    {0.95, 1, 6.3137515146750373979},
    {0.999999, 1, 318309.88617359026169},
    {1e-300, 2.5, -8.7654378822799918617e+119},
    {1e-50, 2.5, -87654378822799919229.0},
    {1e-08, 2.5, -1389.2275830275380505},
    {0.01, 2.5, -5.3531111730308742682},
    {0.3, 2.5, -0.59730773825231749483},
    {0.6, 2.5, 0.28145951274854759175},
    {0.95, 2.5, 2.5582186141359354586},
    {0.999999, 2.5, 220.17342917570424649},
    {1e-300, 10, -2.5645257189481978216e+30},
    {1e-50, 10, -256452.57187694773204},
    {1e-08, 10, -15.895687652513544632},
    {0.01, 10, -2.7637694581126961866},
    {0.3, 10, -0.54152803875501569144},
    {0.6, 10, 0.26018482949208017615},
    {0.95, 10, 1.8124611228116758693},
    {0.999999, 10, 9.7519954909098546085},
    {1e-300, 100, -9682.7342870695636445},
    {1e-50, 100, -28.95840731265984027},
    {1e-08, 100, -6.1015734720297957686},
    {0.01, 100, -2.3642173662384821281},
    {0.3, 100, -0.52607627060034633238},
    {0.6, 100, 0.25402218245822775892},
    {0.95, 100, 1.660234326085339115},
    {0.999999, 100, 5.0488308772214468406},
    {1e-300, 10000.0, -38.356384321004240738},
    {1e-50, 10000.0, -15.017359617235282992},
    {1e-08, 10000.0, -5.6165634289168672502},
    {0.01, 10000.0, -2.3267208386694756846},
    {0.3, 10000.0, -0.52441722834546679058},
    {0.6, 10000.0, 0.25335384344572679407},
    {0.95, 10000.0, 1.6450060180692425337},
    {0.999999, 10000.0, 4.7562296850509578241},
    {1e-300, 1000000.0, -37.059820872774391305},
    {1e-50, 1000000.0, -14.934173857988044656},
    {1e-08, 1000000.0, -5.612046834369281528},
    {0.01, 1000000.0, -2.3263516031208054101},
    {0.3, 1000000.0, -0.52440067986020892095},
    {0.6, 1000000.0, 0.253347170537841622},
    {0.95, 1000000.0, 1.644855150722040062},
    {0.999999, 1000000.0, 4.753452348273869515},
};
static const struct { double p, df, q; } chi2_quantile_table[] = {
    {1e-08, 0.3, 5.848367240403018397e-54},
    {0.01, 0.3, 5.8483672404031867451e-14},
    {0.3, 0.3, 0.0004117061968224817919},
    {0.6, 0.3, 0.042597608071566516293},
    {0.95, 0.3, 1.6511748729089378706},
    {0.999999, 0.3, 19.916841013210776699},
    {1e-50, 1, 1.5707963267948967217e-100},
    {1e-08, 1, 1.5707963267948967672e-16},
    {0.01, 1, 0.00015708785790970198404},
    {0.3, 1, 0.14847186183254543808},
    {0.6, 1, 0.70832630080079374211},
    {0.95, 1, 3.8414588206941244691},
    {0.999999, 1, 23.928126976879469057},
    {1e-300, 2.5, 2.2101150046389037042e-240},
    {1e-50, 2.5, 2.2101150046389036734e-40},
    {1e-08, 2.5, 8.7986280312983521553e-7},
    {0.01, 2.5, 0.056212054834822120371},
    {0.3, 2.5, 1.0580425215960218907},
    {0.6, 2.5, 2.3915035391171392473},
    {0.95, 2.5, 6.9280761134524232551},
    {0.999999, 2.5, 29.200485729645118982},
    {1e-300, 10, 5.2103421693947040713e-60},
    {1e-50, 10, 5.2103421696209343386e-10},
    {1e-08, 10, 0.13232794458438146124},
    {0.01, 10, 2.5582121601872060709},
    {0.3, 10, 7.2672181659276061505},
    {0.6, 10, 10.47323623139545295},
    {0.95, 10, 18.307038053275144003},
    {0.999999, 10, 46.863046846715684936},
    {1e-300, 100, 0.000038966523340135559033},
    {1e-50, 100, 4.0546033436410201363},
    {1e-08, 100, 39.714472355456965587},
    {0.01, 100, 70.064894925399799418},
    {0.3, 100, 92.128944338896695679},
    {0.6, 100, 102.94594421545680662},
    {0.95, 100, 124.34211340400407469},
    {0.999999, 100, 182.12677711942614326},
    {1e-300, 10000.0, 5632.4554498716628434},
    {1e-50, 10000.0, 8033.5003924624095176},
    {1e-08, 10000.0, 9226.5632927022562305},
    {0.01, 10000.0, 9673.948839577636146},
    {0.3, 10000.0, 9925.3580098349684879},
    {0.6, 10000.0, 10035.203441190379684},
    {0.95, 10000.0, 10233.748897677936358},
    {0.999999, 10000.0, 10686.689829866038625},
    {1e-300, 1000000.0, 948517.81629976136474},
    {1e-50, 1000000.0, 979028.82039544538391},
    {1e-08, 1000000.0, 992083.75061787319853},
    {0.01, 1000000.0, 996712.98883841151435},
    {0.3, 1000000.0, 999257.90262388863478},
    {0.6, 1000000.0, 1000357.6628944328672},
    {0.95, 1000000.0, 1002327.3107812190613},
    {0.999999, 1000000.0, 1006736.7596362823007},
};

static void test_quantile_tables(void) {
    size_t i;
    for (i = 0; i < sizeof t_quantile_table / sizeof *t_quantile_table; i++)
        CHECK_REL(proper_stats_t_quantile(t_quantile_table[i].p, t_quantile_table[i].df), t_quantile_table[i].q, 2e-13);
    for (i = 0; i < sizeof chi2_quantile_table / sizeof *chi2_quantile_table; i++)
        CHECK_REL(proper_stats_chi2_quantile(chi2_quantile_table[i].p, chi2_quantile_table[i].df), chi2_quantile_table[i].q, 2e-13);
    /* beyond the doubles: t_{1e-100} with df = 0.3 is about -1e333; χ² at
     * p = 1e-300 with df = 1 is about 7.85e-601 */
    CHECK(proper_stats_t_quantile(1e-100, 0.3) == -INFINITY);
    CHECK(proper_stats_chi2_quantile(1e-300, 1.0) == 0.0);
}

static void test_chi2_quantile_published(void) {
    /* issue / mpmath: χ²_{0.95,10} = 18.30703805 (18.307038053275146872) */
    CHECK_ABS(proper_stats_chi2_quantile(0.95, 10), 18.30703805, 5e-9);
    CHECK_REL(proper_stats_chi2_quantile(0.95, 10), 18.307038053275146872, 1e-13);
    /* mpmath: lower 5% point with 1 df = 0.0039321400000195227313 */
    CHECK_REL(proper_stats_chi2_quantile(0.05, 1), 0.0039321400000195227313, 1e-13);
    CHECK_REL(proper_stats_chi2_quantile(0.95, 1), 3.8414588206941259584, 1e-13);
    CHECK_REL(proper_stats_chi2_quantile(0.99, 5), 15.086272469388990113, 1e-13);
    CHECK_REL(proper_stats_chi2_quantile(0.025, 20), 9.5907773922648672714, 1e-13);
    CHECK_REL(proper_stats_chi2_quantile(0.999, 100), 149.44925277903871123, 1e-13);
    CHECK_REL(proper_stats_chi2_quantile(0.5, 0.5), 0.087347604705746820734, 1e-13);
    /* NIST 1.3.6.7.4 */
    CHECK_ABS(proper_stats_chi2_quantile(0.90, 4), 7.779, 5e-4);
    CHECK_ABS(proper_stats_chi2_quantile(0.01, 10), 2.558, 5e-4);
    /* closed form for df = 2: x = -2 log(1 - p) */
    CHECK_REL(proper_stats_chi2_quantile(0.3, 2), -2.0 * log(0.7), 1e-14);
    CHECK_REL(proper_stats_chi2_quantile(1e-12, 2), -2.0 * log1p(-1e-12), 1e-12);
    CHECK(proper_stats_chi2_quantile(0.0, 3) == 0.0);
    CHECK(proper_stats_chi2_quantile(1.0, 3) == INFINITY);
    CHECK(isnan(proper_stats_chi2_quantile(0.5, -1.0)));
}

static void test_chi2_cdf_sf(void) {
    /* mpmath upper tails */
    CHECK_REL(proper_stats_chi2_sf(3.84, 1), 0.050043521248705103189, 1e-13);
    CHECK_REL(proper_stats_chi2_sf(18.307, 10), 0.050000589091398120291, 1e-13);
    CHECK_REL(proper_stats_chi2_sf(100, 50), 0.000034549313829848639421, 1e-12);
    CHECK_REL(proper_stats_chi2_sf(0.5, 3), 0.91889141165467585936, 1e-14);
    /* df = 2: P(X > x) = exp(-x/2), far in the tail */
    CHECK_REL(proper_stats_chi2_sf(1000.0, 2), exp(-500.0), 1e-12);
    CHECK_REL(proper_stats_chi2_cdf(1e-6, 2), -expm1(-0.5e-6), 1e-13);
    CHECK(proper_stats_chi2_cdf(-1.0, 2) == 0.0);
}

static void test_chi2_round_trip(void) {
    static const double dfs[] = {0.3, 1, 2, 5, 17, 100, 1e4, 1e6};
    static const double ps[] = {1e-30, 1e-6, 0.01, 0.3, 0.5, 0.7, 0.99, 0.999999};
    size_t i, j;
    for (i = 0; i < sizeof dfs / sizeof *dfs; i++)
        for (j = 0; j < sizeof ps / sizeof *ps; j++) {
            double x = proper_stats_chi2_quantile(ps[j], dfs[i]);
            double back = ps[j] <= 0.5 ? proper_stats_chi2_cdf(x, dfs[i]) : 1.0 - proper_stats_chi2_sf(x, dfs[i]);
            CHECK_REL(back, ps[j], 1e-11);
        }
}

/* log Γ against exact factorials and Γ(1/2) = √π */
static void test_lgamma(void) {
    CHECK_ABS(proper_stats_lgamma(1.0), 0.0, 4e-15);
    CHECK_ABS(proper_stats_lgamma(2.0), 0.0, 4e-15);
    CHECK_REL(proper_stats_lgamma(0.5), 0.5 * log(3.14159265358979323846), 1e-14);
    CHECK_REL(proper_stats_lgamma(11.0), log(3628800.0), 1e-15);
    CHECK_REL(proper_stats_lgamma(1e-8), -log(1e-8) - 0.57721566490153286061e-8, 1e-14);
    CHECK(isnan(proper_stats_lgamma(0.0)));
    /* I_x(1, b) = 1 - (1 - x)^b and P(1, x) = 1 - e^{-x} */
    CHECK_REL(proper_stats_incbeta(1.0, 3.0, 0.2), 1.0 - 0.8 * 0.8 * 0.8, 1e-14);
    CHECK_REL(proper_stats_gamma_p(1.0, 0.25), -expm1(-0.25), 1e-14);
    CHECK_REL(proper_stats_gamma_q(1.0, 30.0), exp(-30.0), 1e-13);
}

static void test_intervals_for_a_mean(void) {
    static const double xs[] = {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0};
    proper_interval iv;
    proper_error err;
    double mean, sd;
    /* mean 5, sum of squares 32, sd = √(32/7) */
    CHECK_INT(proper_stats_mean_sd(xs, 8, &mean, &sd, &err), 0);
    CHECK_REL(mean, 5.0, 1e-15);
    CHECK_REL(sd, sqrt(32.0 / 7.0), 1e-15);
    CHECK_INT(proper_stats_normal_interval(10.0, 2.0, 16, 0.95, &iv, &err), 0);
    CHECK_REL(iv.lo, 10.0 - 1.9599639845400542355 * 0.5, 1e-14);
    CHECK_REL(iv.hi, 10.0 + 1.9599639845400542355 * 0.5, 1e-14);
    CHECK(iv.estimate == 10.0);
    /* n = 11 gives df = 10: half-width t_{0.975,10}·sd/√11 */
    CHECK_INT(proper_stats_t_interval(3.0, 1.5, 11, 0.95, &iv, &err), 0);
    CHECK_REL(iv.hi - 3.0, 2.2281388519862747484 * 1.5 / sqrt(11.0), 1e-13);
    CHECK_REL(3.0 - iv.lo, 2.2281388519862747484 * 1.5 / sqrt(11.0), 1e-13);
    CHECK_INT(proper_stats_t_interval(3.0, 1.5, 1, 0.95, &iv, &err), PROPER_EINVAL);
    CHECK_INT(proper_stats_normal_interval(3.0, 1.5, 5, 1.0, &iv, &err), PROPER_EINVAL);
    CHECK_CONTAINS(err.message, "confidence level");
    CHECK_INT(proper_stats_normal_interval(3.0, -1.0, 5, 0.9, &iv, &err), PROPER_EINVAL);
    CHECK_INT(proper_stats_mean_sd(xs, 1, &mean, &sd, &err), PROPER_EINVAL);
}

static void test_wilson_newcombe(void) {
    /* Newcombe (1998) Table II, 95%, 4 decimals. */
    static const struct { double r, n, lo3, hi3, lo4, hi4; } cases[] = {
        {81, 263, 0.2553, 0.3662, 0.2535, 0.3682},
        {15, 148, 0.0624, 0.1605, 0.0598, 0.1644},
        {0, 20, 0.0000, 0.1611, 0.0000, 0.2005},
        {1, 29, 0.0061, 0.1718, 0.0018, 0.1963},
    };
    size_t i;
    proper_interval iv;
    proper_error err;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        CHECK_INT(proper_stats_wilson_interval(cases[i].r, cases[i].n, 0.95, 0, &iv, &err), 0);
        CHECK_ABS(iv.lo, cases[i].lo3, 5e-5);
        CHECK_ABS(iv.hi, cases[i].hi3, 5e-5);
        CHECK_REL(iv.estimate, cases[i].r / cases[i].n, 1e-15);
        CHECK_INT(proper_stats_wilson_interval(cases[i].r, cases[i].n, 0.95, 1, &iv, &err), 0);
        CHECK_ABS(iv.lo, cases[i].lo4, 5e-5);
        CHECK_ABS(iv.hi, cases[i].hi4, 5e-5);
    }
    /* Symmetry: r/n and (n - r)/n give mirrored intervals. */
    CHECK_INT(proper_stats_wilson_interval(182, 263, 0.95, 0, &iv, &err), 0);
    CHECK_ABS(iv.lo, 1.0 - 0.3662, 5e-5);
    CHECK_INT(proper_stats_wilson_interval(20, 20, 0.95, 1, &iv, &err), 0);
    CHECK(iv.hi == 1.0);
    CHECK_ABS(iv.lo, 1.0 - 0.2005, 5e-5);
    CHECK_INT(proper_stats_wilson_interval(5, 4, 0.95, 0, &iv, &err), PROPER_EINVAL);
    CHECK_INT(proper_stats_wilson_interval(0, 0, 0.95, 0, &iv, &err), PROPER_EINVAL);
    CHECK_INT(proper_stats_wilson_interval(1, 2, 0.0, 0, &iv, &err), PROPER_EINVAL);
}

static void test_simultaneous_levels(void) {
    /* Šidák: per-construct c^(1/m); 0.95 over 5 constructs → 0.95^0.2 */
    CHECK_REL(proper_stats_sidak_level(0.95, 5), 0.98979378168698849498, 1e-15);
    CHECK_REL(pow(proper_stats_sidak_level(0.9, 7), 7), 0.9, 1e-14);
    CHECK(proper_stats_sidak_level(0.95, 1) == 0.95);
    /* Bonferroni: 1 - 0.05/5 = 0.99; it is never above Šidák */
    CHECK_REL(proper_stats_bonferroni_level(0.95, 5), 0.99, 1e-15);
    CHECK(proper_stats_bonferroni_level(0.95, 5) >= proper_stats_sidak_level(0.95, 5));
    CHECK(isnan(proper_stats_sidak_level(0.95, 0)));
    CHECK(isnan(proper_stats_bonferroni_level(1.0, 3)));
}

static void test_kl(void) {
    static const double p[] = {0.5, 0.5, 0.0};
    static const double q[] = {0.25, 0.25, 0.5};
    static const double counts[] = {10, 10, 0};
    static const double bad[] = {0.5, -0.1, 0.6};
    proper_error err;
    double d;
    /* D(p‖q) = 2·0.5·log(2) = log 2 (the 0·log(0/0.5) term is 0) */
    CHECK_INT(proper_stats_kl_divergence(p, q, 3, &d, &err), 0);
    CHECK_REL(d, log(2.0), 1e-15);
    /* counts are normalised first: same answer */
    CHECK_INT(proper_stats_kl_divergence(counts, q, 3, &d, &err), 0);
    CHECK_REL(d, log(2.0), 1e-15);
    /* q has mass where p has none: D(q‖p) = +inf */
    CHECK_INT(proper_stats_kl_divergence(q, p, 3, &d, &err), 0);
    CHECK(d == INFINITY);
    CHECK_INT(proper_stats_kl_divergence(p, p, 3, &d, &err), 0);
    CHECK(d == 0.0);
    CHECK_INT(proper_stats_kl_divergence(bad, q, 3, &d, &err), PROPER_EPROB);
    CHECK_CONTAINS(err.message, "p[1]");
    CHECK_INT(proper_stats_kl_divergence(p, q, 0, &d, &err), PROPER_EINVAL);
}

/* Brute-force Pearson statistic for the merged groups written out by hand. */
static void test_chi2_gof(void) {
    /* a fair die rolled 60 times: textbook X² = Σ (o - 10)²/10 */
    static const double die_obs[] = {5, 8, 9, 8, 10, 20};
    static const double die_exp[] = {1, 1, 1, 1, 1, 1};
    /* bins with small expected counts: probs .02 .03 .15 .6 .15 .03 .02 on 100 */
    static const double obs[] = {1, 4, 12, 60, 16, 5, 2};
    static const double probs[] = {0.02, 0.03, 0.15, 0.6, 0.15, 0.03, 0.02};
    static const double zeros_exp[] = {0.0, 0.5, 0.5};
    static const double zeros_obs[] = {3, 40, 57};
    proper_chi2_test t;
    proper_error err;
    double x2;
    CHECK_INT(proper_stats_chi2_gof(die_obs, die_exp, 6, 0, 5.0, &t, &err), 0);
    x2 = (25.0 + 4.0 + 1.0 + 4.0 + 0.0 + 100.0) / 10.0; /* 13.4 */
    CHECK_REL(t.statistic, x2, 1e-14);
    CHECK(t.df == 5.0);
    CHECK_INT(t.bins, 6);
    /* mpmath: P(χ²_5 >= 13.4) = 0.019905220334774378171 */
    CHECK_REL(t.p_value, 0.019905220334774378171, 1e-12);
    /* merging at 5: bins {2,3} (exp 5), {15}, {60}, {15}, {3,2} (exp 5) */
    CHECK_INT(proper_stats_chi2_gof(obs, probs, 7, 0, 5.0, &t, &err), 0);
    x2 = (5.0 - 5) * (5.0 - 5) / 5 + (12.0 - 15) * (12.0 - 15) / 15 + 0.0 / 60 +
         (16.0 - 15) * (16.0 - 15) / 15 + (7.0 - 5) * (7.0 - 5) / 5;
    CHECK_REL(t.statistic, x2, 1e-14);
    CHECK_INT(t.bins, 5);
    CHECK(t.df == 4.0);
    /* with one estimated parameter df drops by one */
    CHECK_INT(proper_stats_chi2_gof(obs, probs, 7, 1, 5.0, &t, &err), 0);
    CHECK(t.df == 3.0);
    CHECK_REL(t.p_value, proper_stats_chi2_sf(x2, 3.0), 1e-15);
    /* no merging: all 7 bins */
    CHECK_INT(proper_stats_chi2_gof(obs, probs, 7, 0, 0.0, &t, &err), 0);
    CHECK_INT(t.bins, 7);
    /* a bin the model deems impossible joins its neighbour: {0, 0.5}, {0.5} */
    CHECK_INT(proper_stats_chi2_gof(zeros_obs, zeros_exp, 3, 0, 0.0, &t, &err), 0);
    CHECK_INT(t.bins, 2);
    CHECK_REL(t.statistic, (43.0 - 50) * (43.0 - 50) / 50 + (57.0 - 50) * (57.0 - 50) / 50, 1e-14);
    /* too little data for one degree of freedom */
    CHECK_INT(proper_stats_chi2_gof(die_obs, die_exp, 6, 0, 100.0, &t, &err), PROPER_EINVAL);
    CHECK_INT(proper_stats_chi2_gof(die_obs, die_exp, 6, 5, 5.0, &t, &err), PROPER_EINVAL);
}

static void test_chi2_two_sample(void) {
    static const double a[] = {10, 20, 30, 40};
    static const double b[] = {20, 40, 60, 80};
    static const double c[] = {40, 30, 20, 10};
    proper_chi2_test t;
    proper_error err;
    double x2 = 0.0;
    int i;
    /* proportional histograms: X² = 0, p = 1 */
    CHECK_INT(proper_stats_chi2_two_sample(a, b, 4, 5.0, &t, &err), 0);
    CHECK_ABS(t.statistic, 0.0, 1e-12);
    CHECK(t.df == 3.0);
    CHECK_REL(t.p_value, 1.0, 1e-12);
    /* a vs c, equal totals: E = (a_i + c_i)/2; X² = Σ 2 (a_i - c_i)²/(2 (a_i + c_i)) */
    for (i = 0; i < 4; i++) x2 += (a[i] - c[i]) * (a[i] - c[i]) / (a[i] + c[i]);
    CHECK_INT(proper_stats_chi2_two_sample(a, c, 4, 5.0, &t, &err), 0);
    CHECK_REL(t.statistic, x2, 1e-14);
    CHECK_REL(t.p_value, proper_stats_chi2_sf(x2, 3.0), 1e-15);
}

static void test_ks(void) {
    static const double F[] = {0.1, 0.4, 0.8, 1.0};
    static const double G[] = {0.2, 0.3, 0.5, 1.0};
    static const double p[] = {0.1, 0.3, 0.4, 0.2};
    static const double q[] = {0.2, 0.1, 0.2, 0.3}; /* 0.2 of tail beyond the grid */
    static const double over[] = {0.6, 0.6};
    proper_error err;
    double d;
    CHECK_INT(proper_stats_ks_distance_cdf(F, G, 4, &d, &err), 0);
    CHECK_REL(d, 0.3, 1e-15);
    /* running sums: p 0.1 0.4 0.8 1.0, q 0.2 0.3 0.5 0.8 → max 0.3 */
    CHECK_INT(proper_stats_ks_distance_pmf(p, q, 4, &d, &err), 0);
    CHECK_REL(d, 0.3, 1e-14);
    CHECK_INT(proper_stats_ks_distance_pmf(over, q, 2, &d, &err), PROPER_EPROB);
    CHECK_INT(proper_stats_ks_distance_cdf(F, over, 2, &d, &err), 0);
}

static double uniform_cdf(double x, void *ctx) {
    (void)ctx;
    return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
}

/* Brute force: sup |F_n - F| evaluated just left and right of every sample
 * point of a hand-made sample against U(0,1). */
static void test_ks_sample(void) {
    static const double xs[] = {0.9, 0.1, 0.5, 0.5, 0.5, 0.95};
    proper_error err;
    double d;
    /* sorted 0.1 .5 .5 .5 .9 .95; F_n jumps to 1/6 at .1, 4/6 at .5, 5/6 at .9, 1 at .95.
     * Gaps: at .1: |1/6 - .1| = .0667, left |0 - .1|; at .5 left: |1/6 - .5| = 1/3;
     * right |4/6 - .5| = 1/6; at .9 left |4/6 - .9| = .2333; right |5/6-.9|; at .95
     * left |5/6 - .95| = .1167 → sup = 1/3 */
    CHECK_INT(proper_stats_ks_sample(xs, 6, uniform_cdf, NULL, &d, &err), 0);
    CHECK_REL(d, 1.0 / 3.0, 1e-15);
    CHECK_INT(proper_stats_ks_sample(xs, 0, uniform_cdf, NULL, &d, &err), PROPER_EINVAL);
    /* Stephens / Kolmogorov critical values, in the large-n limit */
    CHECK_ABS(proper_stats_ks_pvalue(1.358 / 1e6, 1e12), 0.05, 1e-4);
    CHECK_ABS(proper_stats_ks_pvalue(1.628 / 1e6, 1e12), 0.01, 1e-4);
    /* mpmath: Q_KS(0.5) = 0.96394524366487509439, Q_KS(1.0) = 0.2699996716773545212,
     * Q_KS(2.0) = 0.00067092525577969534654 (both series) */
    CHECK_REL(proper_stats_ks_pvalue(0.5 / 1e10, 1e20), 0.96394524366487509439, 1e-9);
    CHECK_REL(proper_stats_ks_pvalue(1.0 / 1e10, 1e20), 0.2699996716773545212, 1e-9);
    CHECK_REL(proper_stats_ks_pvalue(2.0 / 1e10, 1e20), 0.00067092525577969534654, 1e-9);
    CHECK(proper_stats_ks_pvalue(0.0, 10) == 1.0);
}

/* Issue 14: p-values below 1e-300 print as "< 1e-300" (3.29e-312 claimed
 * digits the tails do not have); at and above it, the digits asked for. */
static void test_format_pvalue(void) {
    char b[32];
    CHECK_STR(proper_stats_format_pvalue(3.29e-312, 3, b, sizeof b), "< 1e-300");
    CHECK_STR(proper_stats_format_pvalue(0.0, 3, b, sizeof b), "< 1e-300");
    CHECK_STR(proper_stats_format_pvalue(1e-300, 3, b, sizeof b), "1e-300");
    CHECK_STR(proper_stats_format_pvalue(0.04567, 3, b, sizeof b), "0.0457");
    CHECK_STR(proper_stats_format_pvalue(1.0, 4, b, sizeof b), "1");
    CHECK_STR(proper_stats_format_pvalue(NAN, 3, b, sizeof b), "nan");
    CHECK_STR(proper_stats_format_pvalue(proper_stats_chi2_sf(1500.0, 1.0), 3, b, sizeof b), "< 1e-300");
}

int main(void) {
    RUN(test_normal_quantile_published);
    RUN(test_normal_quantile_tails_and_centre);
    RUN(test_normal_round_trip);
    RUN(test_normal_cdf);
    RUN(test_t_quantile_published);
    RUN(test_t_cdf);
    RUN(test_t_round_trip);
    RUN(test_chi2_quantile_published);
    RUN(test_quantile_tables);
    RUN(test_chi2_cdf_sf);
    RUN(test_chi2_round_trip);
    RUN(test_lgamma);
    RUN(test_intervals_for_a_mean);
    RUN(test_wilson_newcombe);
    RUN(test_simultaneous_levels);
    RUN(test_kl);
    RUN(test_chi2_gof);
    RUN(test_chi2_two_sample);
    RUN(test_ks);
    RUN(test_ks_sample);
    RUN(test_format_pvalue);
    return test_summary();
}
