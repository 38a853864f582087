/* Tests for core.h: errors, arrays, RNG, number parsing. */
#define PROPER_IMPLEMENTATION
#define PROPER_MAX_FILE_BYTES 4096 /* small, to test the limit */
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
    proper_alias_init(&a);
    CHECK_INT(proper_alias_create(&a, w, 5, &e), 0);
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
    w[1] = -1;
    CHECK_INT(proper_alias_create(&a, w, 5, &e), PROPER_EPROB);
    CHECK_INT(a.n, 5); /* a failed create leaves the earlier table */
    CHECK(a.prob[0] > 0.0 && a.prob[0] <= 1.0);
    w[1] = 2;
    CHECK_INT(proper_alias_create(&a, w, 2, &e), 0); /* replaces it */
    CHECK_INT(a.n, 2);
    proper_alias_free(&a);
    proper_alias_free(&a);
    CHECK_INT(a.n, 0);
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
    CHECK_INT(proper_read_file("LICENSE", &data, &len, &e), 0);
    CHECK(len > 100 && data[len] == '\0');
    PROPER_FREE(data);
}

/* Writes n bytes of 'x' to a temporary file and returns its path. */
static const char *file_of_size(size_t n) {
    static char path[] = "build/test_core_size.tmp";
    FILE *f = fopen(path, "wb");
    size_t i;
    for (i = 0; f && i < n; i++) fputc('x', f);
    if (f) fclose(f);
    return path;
}

static void test_read_file_limit(void) {
    char *data = NULL;
    size_t len = 0;
    proper_error e;
    CHECK_INT(proper_read_file(file_of_size(4096), &data, &len, &e), 0);
    CHECK(len == 4096 && data[4095] == 'x' && data[4096] == '\0');
    PROPER_FREE(data);
    CHECK_INT(proper_read_file(file_of_size(4097), &data, &len, &e), PROPER_ELIMIT);
    CHECK(data == NULL && len == 0);
    CHECK(strstr(e.message, "larger than 4096 bytes") != NULL);
    /* an endless file ends with the same error, not with memory exhausted */
    CHECK_INT(proper_read_file("/dev/zero", &data, &len, &e), PROPER_ELIMIT);
    CHECK_INT(proper_read_file(file_of_size(0), &data, &len, &e), 0);
    CHECK(len == 0 && data[0] == '\0');
    PROPER_FREE(data);
    remove(file_of_size(0));
}

static void test_strings_and_builder(void) {
    proper_strbuf b;
    char *copy = proper_strndup("abcdef", 3), *text;
    size_t i;
    CHECK_STR(copy, "abc");
    PROPER_FREE(copy);
    copy = proper_strdup("");
    CHECK_STR(copy, "");
    PROPER_FREE(copy);
    proper_strbuf_init(&b);
    text = proper_strbuf_take(&b); /* empty builder: "", not NULL */
    CHECK(text && text[0] == '\0');
    PROPER_FREE(text);
    /* appends longer than the first reservation, and the same text built by hand */
    for (i = 0; i < 300; i++) proper_strbuf_printf(&b, "%zu:%s;", i, i % 7 ? "x" : "a longer piece of text");
    proper_strbuf_puts(&b, "|");
    proper_strbuf_double(&b, 0.1);
    CHECK(!b.failed);
    CHECK_INT(b.len, strlen(b.data));
    {
        char expect[20000];
        size_t k = 0;
        for (i = 0; i < 300; i++)
            k += (size_t)sprintf(expect + k, "%zu:%s;", i, i % 7 ? "x" : "a longer piece of text");
        sprintf(expect + k, "|0.1");
        CHECK_STR(b.data, expect);
    }
    text = proper_strbuf_take(&b);
    CHECK(b.data == NULL && b.len == 0);
    PROPER_FREE(text);
}

/* The shortest round trip, against a brute-force search over every %.Ng. */
static void test_format_double_shortest(void) {
    proper_rng rng;
    char buf[PROPER_DOUBLE_CHARS], brute[64];
    int i, bad = 0;
    CHECK_STR(proper_format_double(buf, 0.1), "0.1");
    CHECK_STR(proper_format_double(buf, 100), "100");
    CHECK_STR(proper_format_double(buf, 1e300), "1e+300");
    CHECK_STR(proper_format_double(buf, -0.0), "0");
    CHECK_STR(proper_format_double(buf, 1.0 / 3), "0.3333333333333333");
    CHECK_STR(proper_format_double(buf, 5e-324), "4.94065645841247e-324"); /* 15 digits suffice */
    CHECK_STR(proper_format_double(buf, HUGE_VAL), "inf");
    CHECK_STR(proper_format_double(buf, -HUGE_VAL), "-inf");
    CHECK_STR(proper_format_double(buf, NAN), "nan");
    proper_rng_seed(&rng, 7);
    for (i = 0; i < 20000; i++) {
        uint64_t bits = proper_rng_u64(&rng);
        double v;
        int digits;
        memcpy(&v, &bits, sizeof v);
        if (!isfinite(v) || v == 0) continue;
        if (i % 2) v = (double)(proper_rng_below(&rng, 100000)) / 1000.0; /* short decimals too */
        proper_format_double(buf, v);
        if (strtod(buf, NULL) != v) bad++;
        for (digits = 1; digits <= 17; digits++) { /* fewest significant digits that round-trip */
            snprintf(brute, sizeof brute, "%.*g", digits, v);
            if (strtod(brute, NULL) == v) break;
        }
        {   /* the same digits: compare the significands, ignoring %g's exponent choice */
            double a = strtod(buf, NULL), c = strtod(brute, NULL);
            char *e1 = strpbrk(buf, "e"), sig[64];
            size_t n = e1 ? (size_t)(e1 - buf) : strlen(buf), k, d = 0;
            memcpy(sig, buf, n); sig[n] = '\0';
            for (k = 0; k < n; k++) if (sig[k] >= '0' && sig[k] <= '9') d++;
            for (k = 0; k < n && (sig[k] == '-' || sig[k] == '0' || sig[k] == '.'); k++)
                if (sig[k] == '0') d--;
            if (a != c || (digits < 15 ? 0 : (int)d > digits)) bad++;
        }
    }
    CHECK_INT(bad, 0);
}

/* Interning against a linear search over the names added so far. */
static void test_intern_against_linear_search(void) {
    proper_intern t;
    proper_rng rng;
    char name[16];
    char names[3000][16];
    size_t nnames = 0, i, idx;
    int added, bad = 0;
    proper_intern_init(&t);
    CHECK(proper_intern_find(&t, "x", 1) == PROPER_INTERN_NONE);
    proper_rng_seed(&rng, 11);
    for (i = 0; i < 6000; i++) {
        size_t j, expect = PROPER_INTERN_NONE;
        sprintf(name, "n%u", (unsigned)proper_rng_below(&rng, 2500));
        for (j = 0; j < nnames; j++) if (!strcmp(names[j], name)) expect = j;
        CHECK_INT(proper_intern_add(&t, name, strlen(name), &idx, &added), 0);
        if (expect == PROPER_INTERN_NONE) {
            if (!added || idx != nnames) bad++;
            strcpy(names[nnames++], name);
        } else if (added || idx != expect) {
            bad++;
        }
    }
    CHECK_INT(bad, 0);
    CHECK_INT(t.len, nnames);
    for (i = 0; i < nnames; i++) if (proper_intern_find(&t, names[i], strlen(names[i])) != i) bad++;
    CHECK_INT(bad, 0);
    /* a prefix of a name is another name */
    CHECK(proper_intern_find(&t, names[0], 1) == PROPER_INTERN_NONE);
    CHECK_STR(t.names[3], names[3]);
    proper_intern_free(&t);
    CHECK(t.len == 0 && t.names == NULL);
    /* FNV-1a reference values (the published test vectors) */
    CHECK(proper_fnv1a(PROPER_FNV_OFFSET, "", 0) == 0xcbf29ce484222325ULL);
    CHECK(proper_fnv1a(PROPER_FNV_OFFSET, "a", 1) == 0xaf63dc4c8601ec8cULL);
    CHECK(proper_fnv1a(PROPER_FNV_OFFSET, "foobar", 6) == 0x85944171f73967e8ULL);
}

/* LU solve of a system with a known solution; a singular matrix is refused. */
static void test_dense_lu(void) {
    enum { N = 6 };
    double a[N * N], lu[N * N], x[N], b[N];
    size_t piv[N], i, j;
    double sing[4] = {1, 2, 2, 4};
    proper_rng rng;
    proper_rng_seed(&rng, 3);
    for (i = 0; i < N * N; i++) a[i] = proper_rng_uniform(&rng) - 0.5;
    a[0] = 0; /* the first step must pivot */
    for (i = 0; i < N; i++) x[i] = (double)i - 2.5;
    for (i = 0; i < N; i++) {
        b[i] = 0;
        for (j = 0; j < N; j++) b[i] += a[i * N + j] * x[j];
    }
    memcpy(lu, a, sizeof a);
    CHECK_INT(proper_lu_factor(lu, N, piv, 0.0), 0);
    proper_lu_solve(lu, N, piv, b);
    for (i = 0; i < N; i++) CHECK_ABS(b[i], x[i], 1e-12);
    CHECK_INT(proper_lu_factor(sing, 2, piv, 0.0), PROPER_ERANGE);
}

static int test__setv(proper_error *e, const char *fmt, ...) {
    va_list ap;
    int rc;
    va_start(ap, fmt);
    rc = proper_error_setv(e, PROPER_EPARSE, "f.txt", 2, 5, fmt, ap);
    va_end(ap);
    return rc;
}

static void test_error_setv(void) {
    proper_error e;
    char buf[600];
    CHECK_INT(test__setv(&e, "expected %s, found %d", "a name", 42), PROPER_EPARSE);
    CHECK_STR(proper_error_format(&e, buf, sizeof buf), "f.txt:2:5: expected a name, found 42");
    CHECK_INT(test__setv(NULL, "x"), PROPER_EPARSE);
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
    RUN(test_read_file_limit);
    RUN(test_strings_and_builder);
    RUN(test_format_double_shortest);
    RUN(test_intern_against_linear_search);
    RUN(test_dense_lu);
    RUN(test_error_setv);
    return test_summary();
}
