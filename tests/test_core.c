/* Tests for core.h: errors, arrays, RNG, number parsing. */
#define PROPER_IMPLEMENTATION
#include "../src/core.h"
#include "test.h"

static void test_error_format(void) {
    proper_error e;
    char buf[600];
    CHECK_INT(proper_error_set(&e, PROPER_EPARSE, "m.pm", 3, 7, "expected '%s'", ";"), PROPER_EPARSE);
    CHECK_STR(proper_error_format(&e, buf, sizeof buf), "m.pm:3:7: expected ';'");
    proper_error_set(&e, PROPER_EIO, "x.csv", 0, 0, "cannot open");
    CHECK_STR(proper_error_format(&e, buf, sizeof buf), "x.csv: cannot open");
    proper_error_set(&e, PROPER_EINVAL, NULL, 0, 0, "bad width");
    CHECK_STR(proper_error_format(&e, buf, sizeof buf), "bad width");
    CHECK(proper_error_set(NULL, PROPER_ENOMEM, NULL, 0, 0, "x") == PROPER_ENOMEM);
}

static void test_result_strings(void) {
    int code;
    for (code = PROPER_ESTATE; code <= PROPER_OK; code++)
        CHECK(strcmp(proper_result_string(code), "unknown status") != 0);
    CHECK_STR(proper_result_string(-1000), "unknown status");
}

static void test_reserve_and_push(void) {
    int *xs = NULL;
    size_t n = 0, cap = 0, i;
    int failed = 0;
    for (i = 0; i < 10000; i++) failed |= PROPER_PUSH(xs, n, cap, (int)i * 3);
    CHECK(!failed);
    CHECK_INT(n, 10000);
    CHECK(cap >= n);
    for (i = 0; i < n; i++) if (xs[i] != (int)i * 3) failed = 1;
    CHECK(!failed);
    /* a request whose byte size overflows size_t fails and keeps the block */
    CHECK_INT(proper_reserve(&xs, &cap, (size_t)-1 / 2, sizeof *xs), PROPER_ENOMEM);
    CHECK_INT(xs[9999], 9999 * 3);
    PROPER_FREE(xs);
}

/* xoshiro256** from state {1,2,3,4}: the first output is rotl(2*5, 7) * 9 = 11520,
 * the second rotl(s1*5,7)*9 with s1 = 2^(1^3) ... = 0 (s1 becomes 0 after one step:
 * s1 ^= s2 where s2 = 3^1 = 2, so s1 = 2^2 = 0). */
static void test_rng_reference(void) {
    proper_rng r;
    r.s[0] = 1; r.s[1] = 2; r.s[2] = 3; r.s[3] = 4;
    CHECK(proper_rng_u64(&r) == 11520u);
    CHECK(proper_rng_u64(&r) == 0u);
}

static void test_rng_uniform_moments(void) {
    proper_rng r;
    double sum = 0, sum2 = 0, mn = 1, mx = 0;
    int i, n = 1000000;
    proper_rng_seed(&r, 42);
    for (i = 0; i < n; i++) {
        double u = proper_rng_uniform(&r);
        sum += u; sum2 += u * u;
        if (u < mn) mn = u;
        if (u > mx) mx = u;
    }
    /* mean 1/2 with sd sqrt(1/12/n) = 2.9e-4: allow 5 sd */
    CHECK_ABS(sum / n, 0.5, 5 * 2.9e-4);
    CHECK_ABS(sum2 / n - (sum / n) * (sum / n), 1.0 / 12, 5e-4);
    CHECK(mn >= 0.0 && mx < 1.0);
}

static void test_rng_normal_moments(void) {
    proper_rng r;
    double sum = 0, sum2 = 0, sum4 = 0;
    int i, n = 1000000;
    proper_rng_seed(&r, 7);
    for (i = 0; i < n; i++) {
        double z = proper_rng_normal(&r);
        sum += z; sum2 += z * z; sum4 += z * z * z * z;
    }
    CHECK_ABS(sum / n, 0.0, 5e-3);     /* sd 1e-3 */
    CHECK_ABS(sum2 / n, 1.0, 7.5e-3);  /* sd sqrt(2/n) = 1.4e-3 */
    CHECK_ABS(sum4 / n, 3.0, 5e-2);    /* sd sqrt(96/n) = 9.8e-3 */
}

static void test_rng_exponential_mean(void) {
    proper_rng r;
    double sum = 0;
    int i, n = 1000000;
    proper_rng_seed(&r, 9);
    for (i = 0; i < n; i++) sum += proper_rng_exponential(&r, 4.0);
    CHECK_ABS(sum / n, 0.25, 5 * 0.25 / 1000.0);
}

/* Chi-square statistic of observed counts against expected probabilities;
 * with k-1 = 4 degrees of freedom the 99.99% quantile is 23.51. */
static double chi2(const long *obs, const double *p, int k, long n) {
    double s = 0;
    int i;
    for (i = 0; i < k; i++) { double e = p[i] * (double)n; s += (obs[i] - e) * (obs[i] - e) / e; }
    return s;
}

static void test_rng_below_discrete_alias(void) {
    proper_rng r;
    double w[5] = {1, 2, 3, 4, 0}, p[5] = {0.1, 0.2, 0.3, 0.4, 0};
    double uni[5] = {0.2, 0.2, 0.2, 0.2, 0.2};
    long below[5] = {0}, disc[5] = {0}, alias[5] = {0};
    long n = 200000, i;
    proper_alias a;
    proper_error e;
    proper_rng_seed(&r, 123);
    CHECK_INT(proper_alias_init(&a, w, 5, &e), 0);
    for (i = 0; i < n; i++) {
        below[proper_rng_below(&r, 5)]++;
        disc[proper_rng_discrete(&r, w, 5)]++;
        alias[proper_alias_sample(&a, &r)]++;
    }
    CHECK(chi2(below, uni, 5, n) < 23.51);
    CHECK(chi2(disc, p, 4, n) < 21.11 /* 3 dof, 99.99% */);
    CHECK(chi2(alias, p, 4, n) < 21.11);
    CHECK_INT(disc[4], 0);
    CHECK_INT(alias[4], 0);
    proper_alias_free(&a);
    w[1] = -1;
    CHECK_INT(proper_alias_init(&a, w, 5, &e), PROPER_EPROB);
}

static void test_rng_jump_differs(void) {
    proper_rng a, b;
    proper_rng_seed(&a, 5);
    b = a;
    proper_rng_jump(&b);
    CHECK(proper_rng_u64(&a) != proper_rng_u64(&b));
}

static int parse(const char *s, double *v, proper_error *e) {
    proper_cursor c;
    proper_cursor_init(&c, s, strlen(s), "in");
    return proper_parse_double(&c, v, e);
}

static void test_parse_double(void) {
    double v;
    proper_error e;
    CHECK_INT(parse("0.1", &v, &e), 0); CHECK(v == 0.1);
    CHECK_INT(parse("  -2.5e3", &v, &e), 0); CHECK(v == -2500.0);
    CHECK_INT(parse("+.5", &v, &e), 0); CHECK(v == 0.5);
    CHECK_INT(parse("7.", &v, &e), 0); CHECK(v == 7.0);
    CHECK_INT(parse("1e-320", &v, &e), 0); CHECK(v > 0 && v < 1e-300);
    CHECK_INT(parse("Infinity", &v, &e), 0); CHECK(isinf(v) && v > 0);
    CHECK_INT(parse("-inf", &v, &e), 0); CHECK(isinf(v) && v < 0);
    CHECK_INT(parse("NaN", &v, &e), 0); CHECK(isnan(v));
    CHECK_INT(parse("0.30000000000000004", &v, &e), 0); CHECK(v == 0.1 + 0.2);
    CHECK_INT(parse("1.5x", &v, &e), PROPER_EPARSE); CHECK_INT(e.col, 4);
    CHECK_INT(parse("abc", &v, &e), PROPER_EPARSE); CHECK_INT(e.col, 1); CHECK_STR(e.file, "in");
    CHECK_INT(parse("0x1p3", &v, &e), PROPER_EPARSE);
    CHECK_INT(parse("1,5", &v, &e), 0); CHECK(v == 1.0); /* the comma is a separator */
    CHECK_INT(parse("1e400", &v, &e), PROPER_ERANGE);
    CHECK_INT(parse("", &v, &e), PROPER_EPARSE);
    CHECK_INT(proper_parse_double_str(" 2.5 ", &v, "--width", &e), 0); CHECK(v == 2.5);
    CHECK_INT(proper_parse_double_str("2.5 3", &v, "--width", &e), PROPER_EPARSE);
    CHECK_CONTAINS(e.message, "--width");
}

static void test_parse_int_and_positions(void) {
    const char *text = "12\n  -34 5x";
    proper_cursor c;
    long long v;
    proper_error e;
    proper_cursor_init(&c, text, strlen(text), "f");
    CHECK_INT(proper_parse_int(&c, &v, &e), 0); CHECK_INT(v, 12);
    proper_cursor_advance(&c); /* newline */
    CHECK_INT(c.line, 2); CHECK_INT(c.col, 1);
    CHECK_INT(proper_parse_int(&c, &v, &e), 0); CHECK_INT(v, -34);
    CHECK_INT(c.col, 6);
    CHECK_INT(proper_parse_int(&c, &v, &e), PROPER_EPARSE);
    CHECK_INT(e.line, 2); CHECK_INT(e.col, 8);
    proper_cursor_init(&c, "99999999999999999999", 20, NULL);
    CHECK_INT(proper_parse_int(&c, &v, &e), PROPER_ERANGE);
}

static void test_read_file_errors(void) {
    char *data;
    size_t len;
    proper_error e;
    CHECK_INT(proper_read_file("/nonexistent/proper/x", &data, &len, &e), PROPER_EIO);
    CHECK_STR(e.file, "/nonexistent/proper/x");
    CHECK_INT(proper_read_file("tests/test.h", &data, &len, &e), 0);
    CHECK(len > 100 && data[len] == '\0');
    PROPER_FREE(data);
}

int main(void) {
    RUN(test_error_format);
    RUN(test_result_strings);
    RUN(test_reserve_and_push);
    RUN(test_rng_reference);
    RUN(test_rng_uniform_moments);
    RUN(test_rng_normal_moments);
    RUN(test_rng_exponential_mean);
    RUN(test_rng_below_discrete_alias);
    RUN(test_rng_jump_differs);
    RUN(test_parse_double);
    RUN(test_parse_int_and_positions);
    RUN(test_read_file_errors);
    return test_summary();
}
