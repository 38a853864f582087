/* Tests for exact.h: big integers against identities and 64-bit
 * arithmetic, rationals and rational functions against hand-computed
 * values, the exact solvers against closed forms (gambler's ruin), a dense
 * rational Gaussian elimination written independently, dtmc.h's numeric
 * solve at random parameter points, and values printed by PRISM 4.x
 * (built from the PRISM repository; commands cited at each test). */
#define PROPER_IMPLEMENTATION
#define PROPER_EXACT_MAX_STEPS 200ul
#include "../src/exact.h"
#include "test.h"

#include <stdlib.h>

/* ---- helpers ---------------------------------------------------------------------- */

static char *fmt_rat(const proper_rat *r) {
    proper_strbuf b;
    proper_strbuf_init(&b);
    proper_rat_format(r, &b);
    return proper_strbuf_take(&b);
}

static char *fmt_fun(const proper_ratfun *f, const char *const *names) {
    proper_strbuf b;
    proper_strbuf_init(&b);
    proper_ratfun_format(f, names, &b);
    return proper_strbuf_take(&b);
}

static int parse_rat(proper_rat *r, const char *s) { return proper_rat_parse(r, s, strlen(s), "t", NULL); }

static void check_rat_text(const proper_rat *r, const char *want, int line) {
    char *s = fmt_rat(r);
    if (!s || strcmp(s, want) != 0) {
        test__checks_failed++;
        printf("  line %d: got %s, expected %s\n", line, s ? s : "(null)", want);
    }
    PROPER_FREE(s);
}
#define CHECK_RAT(r, want) check_rat_text((r), (want), __LINE__)

/* A transition with its exact value as text (a rational, or a function of
 * the parameters). */
typedef struct tr {
    uint32_t src, dst;
    const char *value;
} tr;

/* Build the chain from transitions (in order of src) and its companion:
 * the numeric probabilities are the values at `point` (parametric) or the
 * rationals rounded. */
static int build_r(const tr *t, size_t n, uint32_t n_states, const char *const *names, size_t n_params,
                   const double *point, int unit_reward, proper_dtmc *m, proper_exact_dtmc *e) {
    proper_dtmc_builder b;
    proper_error err;
    size_t i;
    proper_ratfun f;
    proper_dtmc_builder_init(&b);
    proper_ratfun_init(&f);
    for (i = 0; i < n; i++) {
        if (proper_ratfun_parse(&f, t[i].value, strlen(t[i].value), "t", names, n_params, &err)) return -1;
        if (proper_dtmc_builder_add_transition(&b, t[i].src, t[i].dst, proper_ratfun_eval_double(&f, point, n_params),
                                               &err))
            return -1;
    }
    if (proper_dtmc_builder_finish(&b, n_states, m, &err)) return -1;
    if (unit_reward) { /* reward structure "r": 1 in every state (unit_reward 1) or s (2) */
        size_t ri;
        uint32_t s;
        if (proper_dtmc_add_reward(m, "r", 1, 0, &ri, &err)) return -1;
        for (s = 0; s < n_states; s++)
            if ((unit_reward == 1 || s) && proper_dtmc_reward_add_state(m, ri, s, unit_reward == 1 ? 1 : s, &err)) return -1;
    }
    if (proper_exact_dtmc_create(e, m, n_params, names, &err)) return -1;
    for (i = 0; i < n; i++) {
        uint64_t k;
        proper_rat q;
        proper_rat_init(&q);
        if (proper_ratfun_parse(&f, t[i].value, strlen(t[i].value), "t", names, n_params, &err)) return -1;
        for (k = m->row[t[i].src]; k < m->row[t[i].src + 1]; k++)
            if (m->col[k] == t[i].dst) break;
        if (n_params) {
            if (proper_exact_dtmc_set_fprob(e, k, &f, &err)) return -1;
        } else {
            if (!proper_ratfun_is_const(&f, &q) || proper_exact_dtmc_set_prob(e, k, &q, &err)) return -1;
        }
        proper_rat_free(&q);
    }
    proper_ratfun_free(&f);
    if (proper_exact_dtmc_check(e, m, &err)) {
        printf("  check: %s\n", err.message);
        return -1;
    }
    return 0;
}

static int build(const tr *t, size_t n, uint32_t n_states, const char *const *names, size_t n_params,
                 const double *point, proper_dtmc *m, proper_exact_dtmc *e) {
    return build_r(t, n, n_states, names, n_params, point, 0, m, e);
}

static void set_of(proper_bitset *b, uint32_t n, const uint32_t *states, size_t k) {
    size_t i;
    proper_bitset_init(b);
    proper_bitset_create(b, n, NULL);
    for (i = 0; i < k; i++) proper_bitset_set(b, states[i]);
}

/* ---- big integers ------------------------------------------------------------------- */

static void test_bigint_arith(void) {
    proper_rng rng;
    proper_bigint a, b, q, r, t;
    int i;
    proper_rng_seed(&rng, 7);
    proper_bigint_init(&a);
    proper_bigint_init(&b);
    proper_bigint_init(&q);
    proper_bigint_init(&r);
    proper_bigint_init(&t);
    /* 64-bit values: every operation agrees with the machine's */
    for (i = 0; i < 2000; i++) {
        int64_t x = (int64_t)(proper_rng_u64(&rng) >> 34) - (1LL << 29), y = (int64_t)(proper_rng_u64(&rng) >> 36) - (1LL << 27);
        int64_t v;
        if (y == 0) y = 3;
        proper_bigint_set_i64(&a, x);
        proper_bigint_set_i64(&b, y);
        proper_bigint_mul(&t, &a, &b);
        CHECK(proper_bigint_to_i64(&t, &v) && v == x * y);
        proper_bigint_add(&t, &a, &b);
        CHECK(proper_bigint_to_i64(&t, &v) && v == x + y);
        proper_bigint_sub(&t, &a, &b);
        CHECK(proper_bigint_to_i64(&t, &v) && v == x - y);
        proper_bigint_divmod(&q, &r, &a, &b);
        CHECK(proper_bigint_to_i64(&q, &v) && v == x / y);
        CHECK(proper_bigint_to_i64(&r, &v) && v == x % y);
    }
    /* many-limb values: a = q b + r with |r| < |b| and r of a's sign */
    for (i = 0; i < 300; i++) {
        int na = 1 + (int)proper_rng_below(&rng, 12), nb = 1 + (int)proper_rng_below(&rng, 8), k;
        proper_bigint_set_u64(&a, 0);
        proper_bigint_set_u64(&b, 0);
        for (k = 0; k < na; k++) {
            proper_bigint w;
            proper_bigint_init(&w);
            proper_bigint_set_u64(&w, proper_rng_u64(&rng) >> (proper_rng_below(&rng, 2) ? 0 : 40));
            proper_bigint_shl(&a, &a, 64);
            proper_bigint_add(&a, &a, &w);
            if (k < nb) {
                proper_bigint_shl(&b, &b, 64);
                proper_bigint_add(&b, &b, &w);
                proper_bigint_set_u64(&w, proper_rng_u64(&rng));
                proper_bigint_add(&b, &b, &w);
            }
            proper_bigint_free(&w);
        }
        if (proper_rng_below(&rng, 2)) a.neg = a.len != 0;
        if (proper_rng_below(&rng, 2)) b.neg = b.len != 0;
        if (!b.len) continue;
        CHECK(proper_bigint_divmod(&q, &r, &a, &b) == 0);
        proper_bigint_mul(&t, &q, &b);
        proper_bigint_add(&t, &t, &r);
        CHECK(proper_bigint_cmp(&t, &a) == 0);
        {
            proper_bigint ar = r, ab = b;
            ar.neg = 0;
            ab.neg = 0;
            CHECK(proper_bigint_cmp(&ar, &ab) < 0);
        }
        CHECK(r.len == 0 || r.neg == a.neg);
    }
    proper_bigint_set_u64(&t, 0);
    CHECK(proper_bigint_divmod(&q, &r, &a, &t) == PROPER_EINVAL);
    proper_bigint_free(&a);
    proper_bigint_free(&b);
    proper_bigint_free(&q);
    proper_bigint_free(&r);
    proper_bigint_free(&t);
}

/* Lehmer's gcd against Euclid's algorithm written with divmod, on random
 * numbers of up to 20 limbs sharing a random common factor. */
static void test_bigint_gcd(void) {
    proper_rng rng;
    int it;
    proper_rng_seed(&rng, 99);
    for (it = 0; it < 300; it++) {
        proper_bigint a, b, c, g, x, y, r;
        int k, na = 1 + (int)proper_rng_below(&rng, 10), nb = 1 + (int)proper_rng_below(&rng, 10), nc = (int)proper_rng_below(&rng, 5);
        proper_bigint_init(&a);
        proper_bigint_init(&b);
        proper_bigint_init(&c);
        proper_bigint_init(&g);
        proper_bigint_init(&x);
        proper_bigint_init(&y);
        proper_bigint_init(&r);
        proper_bigint_set_u64(&a, 1 + proper_rng_u64(&rng));
        proper_bigint_set_u64(&b, 1 + proper_rng_u64(&rng));
        proper_bigint_set_u64(&c, 1 + (proper_rng_u64(&rng) >> 3));
        for (k = 0; k < na; k++) {
            proper_bigint_set_u64(&x, proper_rng_u64(&rng));
            proper_bigint_shl(&a, &a, 64);
            proper_bigint_add(&a, &a, &x);
        }
        for (k = 0; k < nb; k++) {
            proper_bigint_set_u64(&x, proper_rng_u64(&rng));
            proper_bigint_shl(&b, &b, 64);
            proper_bigint_add(&b, &b, &x);
        }
        for (k = 0; k < nc; k++) {
            proper_bigint_set_u64(&x, proper_rng_u64(&rng) | 1);
            proper_bigint_mul(&c, &c, &x);
        }
        proper_bigint_mul(&a, &a, &c);
        proper_bigint_mul(&b, &b, &c);
        CHECK(proper_bigint_gcd(&g, &a, &b) == 0);
        proper_bigint_copy(&x, &a);
        proper_bigint_copy(&y, &b);
        while (y.len) {
            proper_bigint_divmod(NULL, &r, &x, &y);
            proper_bigint_copy(&x, &y);
            proper_bigint_copy(&y, &r);
        }
        CHECK(proper_bigint_cmp(&g, &x) == 0);
        proper_bigint_free(&a);
        proper_bigint_free(&b);
        proper_bigint_free(&c);
        proper_bigint_free(&g);
        proper_bigint_free(&x);
        proper_bigint_free(&y);
        proper_bigint_free(&r);
    }
}

static void test_bigint_text(void) {
    /* 2^200 = 1606938044258990275541962092341162602522202993782792835301376 */
    proper_bigint a, b, g;
    proper_strbuf s;
    proper_error err;
    const char *p200 = "1606938044258990275541962092341162602522202993782792835301376";
    proper_bigint_init(&a);
    proper_bigint_init(&b);
    proper_bigint_init(&g);
    proper_strbuf_init(&s);
    proper_bigint_set_u64(&a, 1);
    proper_bigint_shl(&a, &a, 200);
    proper_bigint_format(&a, &s);
    CHECK_STR(s.data, p200);
    CHECK(proper_bigint_parse(&b, p200, strlen(p200), "t", &err) == 0);
    CHECK(proper_bigint_cmp(&a, &b) == 0);
    CHECK_REL(proper_bigint_to_double(&a), ldexp(1, 200), 0);
    /* gcd(2^200, 6^50) = 2^50 */
    proper_bigint_set_u64(&b, 1);
    {
        int i;
        proper_bigint six;
        proper_bigint_init(&six);
        proper_bigint_set_u64(&six, 6);
        for (i = 0; i < 50; i++) proper_bigint_mul(&b, &b, &six);
        proper_bigint_free(&six);
    }
    proper_bigint_gcd(&g, &a, &b);
    proper_bigint_set_u64(&b, 1);
    proper_bigint_shl(&b, &b, 50);
    CHECK(proper_bigint_cmp(&g, &b) == 0);
    CHECK(proper_bigint_parse(&b, "12a", 3, "t", &err) == PROPER_EPARSE);
    CHECK_INT(err.col, 3);
    CHECK(proper_bigint_parse(&b, "-", 1, "t", &err) == PROPER_EPARSE);
    proper_bigint_free(&a);
    proper_bigint_free(&b);
    proper_bigint_free(&g);
    proper_strbuf_free(&s);
}

/* ---- rationals -------------------------------------------------------------------- */

static void test_rat(void) {
    proper_rat a, b, c;
    proper_error err;
    proper_rat_init(&a);
    proper_rat_init(&b);
    proper_rat_init(&c);
    CHECK(parse_rat(&a, "0.1") == 0);
    CHECK_RAT(&a, "1/10");
    CHECK(parse_rat(&b, "1/3") == 0);
    proper_rat_add(&c, &a, &b);
    CHECK_RAT(&c, "13/30");
    proper_rat_sub(&c, &a, &b);
    CHECK_RAT(&c, "-7/30");
    proper_rat_mul(&c, &a, &b);
    CHECK_RAT(&c, "1/30");
    proper_rat_div(&c, &a, &b);
    CHECK_RAT(&c, "3/10");
    CHECK(parse_rat(&a, " -2.5e-3 ") == 0);
    CHECK_RAT(&a, "-1/400");
    CHECK(parse_rat(&a, "3E2") == 0);
    CHECK_RAT(&a, "300");
    CHECK(parse_rat(&a, "0.5/3") == 0);
    CHECK_RAT(&a, "1/6");
    CHECK(parse_rat(&a, ".25") == 0);
    CHECK_RAT(&a, "1/4");
    /* 0.1 as a double is 3602879701896397 / 2^55 exactly */
    proper_rat_from_double(&a, 0.1);
    CHECK_RAT(&a, "3602879701896397/36028797018963968");
    CHECK(proper_rat_to_double(&a) == 0.1);
    proper_rat_from_double(&a, -1e300);
    CHECK(proper_rat_to_double(&a) == -1e300);
    proper_rat_from_double(&a, 4.9406564584124654e-324);
    CHECK(proper_rat_to_double(&a) == 4.9406564584124654e-324);
    CHECK(proper_rat_from_double(&a, INFINITY) == PROPER_EINVAL);
    /* 1/3 rounds to the nearest double */
    CHECK(proper_rat_to_double(&b) == 1.0 / 3.0);
    parse_rat(&a, "2/7");
    CHECK(proper_rat_to_double(&a) == 2.0 / 7.0);
    proper_rat_pow(&c, &a, 3);
    CHECK_RAT(&c, "8/343");
    CHECK(proper_rat_cmp(&a, &b) < 0);
    /* errors: position and kind */
    CHECK(proper_rat_parse(&a, "1/0", 3, "x.txt", &err) == PROPER_EINVAL);
    CHECK_INT(err.col, 2);
    CHECK(proper_rat_parse(&a, "1/3x", 4, "x.txt", &err) == PROPER_EPARSE);
    CHECK_INT(err.col, 4);
    CHECK(proper_rat_parse(&a, "", 0, "x.txt", &err) == PROPER_EPARSE);
    CHECK(proper_rat_parse(&a, "1e999999999", 11, "x.txt", &err) == PROPER_ERANGE);
    CHECK(proper_rat_div(&c, &a, &c) == 0);
    proper_rat_set_i64(&b, 0, 1);
    CHECK(proper_rat_div(&c, &a, &b) == PROPER_EINVAL);
    proper_rat_free(&a);
    proper_rat_free(&b);
    proper_rat_free(&c);
}

/* ---- rational functions -------------------------------------------------------------- */

static const char *const PQ[] = {"p", "q"};

static void check_fun(const char *in, const char *want, int line) {
    proper_ratfun f;
    proper_error err;
    char *s;
    proper_ratfun_init(&f);
    if (proper_ratfun_parse(&f, in, strlen(in), "t", PQ, 2, &err)) {
        test__checks_failed++;
        printf("  line %d: %s: %s\n", line, in, err.message);
        return;
    }
    s = fmt_fun(&f, PQ);
    if (!s || strcmp(s, want) != 0) {
        test__checks_failed++;
        printf("  line %d: %s printed %s, expected %s\n", line, in, s ? s : "(null)", want);
    }
    PROPER_FREE(s);
    proper_ratfun_free(&f);
}
#define CHECK_FUN(in, want) check_fun((in), (want), __LINE__)

static void test_ratfun(void) {
    /* canonical form: common factors cancel, whatever the input's shape */
    CHECK_FUN("(p^2-q^2)/(p-q)", "p+q");
    CHECK_FUN("(p^2*q - q^3)/(p*q+q^2)", "p-q");
    CHECK_FUN("(p+q)^3/(p^2+2*p*q+q^2)", "p+q");
    CHECK_FUN("(p^3*q^2 - p*q^2 + 2*p^2*q - 2*q)/(p^2*q + p*q + q*q*p - q*q)", "(p^3*q+2*p^2-p*q-2)/(p^2+p*q+p-q)");
    CHECK_FUN("((1-p)*(2+q))/((2+q)*(1-p)*(1+p))", "1/(p+1)");
    CHECK_FUN("0.1*p-0.1", "(p-1)/10");
    CHECK_FUN("(3*p+1)/4", "(3*p+1)/4");
    CHECK_FUN("1/28", "1/28");
    CHECK_FUN("p-p", "0");
    /* PRISM's printing (JasFunction.jasPoly2expr and Expression.toString):
     * strings PRISM 4.x printed for these functions (see test_prism_param) */
    CHECK_FUN("p*q/(p*q-p+1)", "p*q/(p*q-p+1)");
    CHECK_FUN("(3-p)/(p*q)", "(3-p)/(p*q)");
    CHECK_FUN("-p+3", "3-p");
    CHECK_FUN("2*p^2/(2*p^2-7*p+7)", "2*p^2/(2*p^2-7*p+7)");
    CHECK_FUN("p-2*p*q+q", "p-2*p*q+q");
    CHECK_FUN("p/(2*q)", "p/(2*q)");
    CHECK_FUN("p/q^2", "p/q^2");
    {
        /* derivative: d/dp p*q/(p*q-p+1) = q/(p*q-p+1)^2 */
        proper_ratfun f, d, g;
        proper_error err;
        const char *s1 = "p*q/(p*q-p+1)", *s2 = "q/(p*q-p+1)^2";
        double pt[2] = {0.3, 0.7};
        proper_ratfun_init(&f);
        proper_ratfun_init(&d);
        proper_ratfun_init(&g);
        CHECK(proper_ratfun_parse(&f, s1, strlen(s1), "t", PQ, 2, &err) == 0);
        CHECK(proper_ratfun_parse(&g, s2, strlen(s2), "t", PQ, 2, &err) == 0);
        CHECK(proper_ratfun_deriv(&d, &f, 0) == 0);
        CHECK(proper_ratfun_equal(&d, &g));
        CHECK_REL(proper_ratfun_eval_double(&f, pt, 2), 0.21 / (0.21 - 0.3 + 1), 1e-15);
        {
            proper_rat pq[2], v;
            proper_rat_init(&pq[0]);
            proper_rat_init(&pq[1]);
            proper_rat_init(&v);
            parse_rat(&pq[0], "3/10");
            parse_rat(&pq[1], "7/10");
            CHECK(proper_ratfun_eval_rat(&v, &f, pq, 2) == 0);
            CHECK_RAT(&v, "3/13"); /* 0.21 / 0.91 = 21/91 = 3/13 */
            proper_rat_free(&pq[0]);
            proper_rat_free(&pq[1]);
            proper_rat_free(&v);
        }
        proper_ratfun_free(&f);
        proper_ratfun_free(&d);
        proper_ratfun_free(&g);
    }
    {
        proper_ratfun f;
        proper_error err;
        proper_ratfun_init(&f);
        CHECK(proper_ratfun_parse(&f, "1/(p-p)", 7, "t", PQ, 2, &err) == PROPER_EINVAL);
        CHECK(proper_ratfun_parse(&f, "x+1", 3, "t", PQ, 2, &err) == PROPER_EUNDEFINED);
        CHECK_INT(err.col, 1);
        CHECK(proper_ratfun_parse(&f, "((p)", 4, "t", PQ, 2, &err) == PROPER_EPARSE);
        CHECK_INT(err.col, 5);
        CHECK(proper_ratfun_parse(&f, "p^1001", 6, "t", PQ, 2, &err) == PROPER_ELIMIT);
        CHECK(proper_ratfun_parse(&f, "p q", 3, "t", PQ, 2, &err) == PROPER_EPARSE);
        proper_ratfun_free(&f);
    }
}

/* gcd against a brute-force check: g = gcd(a c, b c) must be c up to a
 * constant for random coprime a, b (checked by dividing both). */
static void test_poly_gcd_random(void) {
    proper_rng rng;
    int it;
    proper_rng_seed(&rng, 11);
    for (it = 0; it < 60; it++) {
        proper_poly a, b, c, x, y, g, q;
        int k, which;
        proper_poly_init(&a);
        proper_poly_init(&b);
        proper_poly_init(&c);
        proper_poly_init(&x);
        proper_poly_init(&y);
        proper_poly_init(&g);
        proper_poly_init(&q);
        for (which = 0; which < 3; which++) {
            proper_poly *p = which == 0 ? &a : which == 1 ? &b : &c;
            for (k = 0; k < 3; k++) {
                proper_poly t, v;
                proper_rat r;
                int e;
                proper_poly_init(&t);
                proper_poly_init(&v);
                proper_rat_init(&r);
                proper_rat_set_i64(&r, (int64_t)proper_rng_below(&rng, 7) - 3, 1 + (int64_t)proper_rng_below(&rng, 3));
                proper_poly_set_rat(&t, &r);
                for (e = (int)proper_rng_below(&rng, 3); e > 0; e--) {
                    proper_poly_set_var(&v, (uint32_t)proper_rng_below(&rng, 2), 2);
                    proper_poly_mul(&t, &t, &v);
                }
                proper_poly_add(p, p, &t);
                proper_poly_free(&t);
                proper_poly_free(&v);
                proper_rat_free(&r);
            }
        }
        if (proper_poly_is_zero(&c) || proper_poly_is_zero(&a) || proper_poly_is_zero(&b)) goto next;
        proper_poly_mul(&x, &a, &c);
        proper_poly_mul(&y, &b, &c);
        CHECK(proper_poly_gcd(&g, &x, &y) == 0);
        /* g divides both, and c divides g */
        CHECK(proper_poly_div_exact(&q, &x, &g) == 0);
        CHECK(proper_poly_div_exact(&q, &y, &g) == 0);
        CHECK(proper_poly_div_exact(&q, &g, &c) == 0);
    next:
        proper_poly_free(&a);
        proper_poly_free(&b);
        proper_poly_free(&c);
        proper_poly_free(&x);
        proper_poly_free(&y);
        proper_poly_free(&g);
        proper_poly_free(&q);
    }
}

/* Three variables with repeated factors (the remainder sequence's hard
 * case) and the shortcuts (a monomial, coprime images, one divides the
 * other): the gcd of x = f^3 g^2 h and y = f^2 g k must be f^2 g up to a
 * constant, checked by dividing both ways; the fuzz input that took 11.7 s
 * in the sanitised build before the modular bound (tests/corpus/exact)
 * equals the product written with its factors apart, at a point too. */
static void test_poly_gcd_factors(void) {
    static const char *const PQR[] = {"p", "q", "r"};
    static const char *const cases[][3] = {
        {"(p+q)^3*(p-r)^2*(q+2*r)", "(p+q)^2*(p-r)*(3*p*q+r-1)", "(p+q)^2*(p-r)"},
        {"p^3*q*r^2", "p*q^2*r+p^2*q*r", "p*q*r"},
        {"(p+r)^5", "(p+q+r)^5", "1"},
        {"(p*q-r)^2*(p+1)", "(p*q-r)*(p+1)", "(p*q-r)*(p+1)"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        proper_ratfun x, y, want;
        proper_poly g, q;
        proper_error err;
        proper_ratfun_init(&x);
        proper_ratfun_init(&y);
        proper_ratfun_init(&want);
        proper_poly_init(&g);
        proper_poly_init(&q);
        CHECK(proper_ratfun_parse(&x, cases[i][0], strlen(cases[i][0]), "t", PQR, 3, &err) == 0);
        CHECK(proper_ratfun_parse(&y, cases[i][1], strlen(cases[i][1]), "t", PQR, 3, &err) == 0);
        CHECK(proper_ratfun_parse(&want, cases[i][2], strlen(cases[i][2]), "t", PQR, 3, &err) == 0);
        CHECK(proper_poly_gcd(&g, &x.num, &y.num) == 0);
        CHECK(proper_poly_div_exact(&q, &g, &want.num) == 0);
        CHECK(proper_poly_is_const(&q, NULL));
        CHECK(proper_poly_div_exact(&q, &x.num, &g) == 0);
        CHECK(proper_poly_div_exact(&q, &y.num, &g) == 0);
        proper_ratfun_free(&x);
        proper_ratfun_free(&y);
        proper_ratfun_free(&want);
        proper_poly_free(&g);
        proper_poly_free(&q);
    }
    {
        const char *in = "(p+r)^5/(p+q+r)^5/(p/q+r)^4", *apart = "q^4*(p+r)^5/((p+q+r)^5*(p+q*r)^4)";
        double pt[3] = {0.3, 0.7, 1.9};
        proper_ratfun f, g;
        proper_error err;
        proper_ratfun_init(&f);
        proper_ratfun_init(&g);
        CHECK(proper_ratfun_parse(&f, in, strlen(in), "t", PQR, 3, &err) == 0);
        CHECK(proper_ratfun_parse(&g, apart, strlen(apart), "t", PQR, 3, &err) == 0);
        CHECK(proper_ratfun_equal(&f, &g));
        CHECK_REL(proper_ratfun_eval_double(&f, pt, 3),
                  pow(2.2, 5) / pow(2.9, 5) / pow(0.3 / 0.7 + 1.9, 4), 1e-13);
        proper_ratfun_free(&f);
        proper_ratfun_free(&g);
    }
    {
        /* a fuzz input whose 1379-term denominator prints to 29.5 kB: the
         * print reads back to the same function (the fuzz target reads back
         * only prints of at most 4096 bytes), and its exact value at
         * (1/2, 1/3, 1/5) is the product computed factor by factor:
         * (41+q)^6 / ((16+q)^6 (1+q+r)^7 (p+2+q+r)^7 (p+2+r)) */
        const char *in = "(39+q+2)^6/(1+9+q+6)^6/(1+q+r)^7/(p+2+q+r)^7/(p+2+r)^1";
        static const int64_t factor[][4] = { /* constant, p, q, r coefficients; power (negative: divides) */
            {41, 0, 1, 0}, {16, 0, 1, 0}, {1, 0, 1, 1}, {2, 1, 1, 1}, {2, 1, 0, 1}};
        static const int power[] = {6, -6, -7, -7, -1};
        proper_ratfun f, g;
        proper_rat pt[3], want, x, y, t;
        proper_strbuf text;
        proper_error err;
        size_t i, k;
        proper_ratfun_init(&f);
        proper_ratfun_init(&g);
        proper_strbuf_init(&text);
        proper_rat_init(&want);
        proper_rat_init(&x);
        proper_rat_init(&y);
        proper_rat_init(&t);
        for (k = 0; k < 3; k++) proper_rat_init(&pt[k]);
        CHECK(proper_rat_set_i64(&pt[0], 1, 2) == 0 && proper_rat_set_i64(&pt[1], 1, 3) == 0 &&
              proper_rat_set_i64(&pt[2], 1, 5) == 0);
        CHECK(proper_ratfun_parse(&f, in, strlen(in), "t", PQR, 3, &err) == 0);
        CHECK_INT(f.den.n_terms, 1379);
        proper_ratfun_format(&f, PQR, &text);
        CHECK(!text.failed && text.len > 4096);
        CHECK(proper_ratfun_parse(&g, text.data, text.len, "printed", PQR, 3, &err) == 0);
        CHECK(proper_ratfun_equal(&f, &g));
        CHECK(proper_rat_set_i64(&want, 1, 1) == 0);
        for (i = 0; i < 5; i++) {
            CHECK(proper_rat_set_i64(&x, factor[i][0], 1) == 0);
            for (k = 0; k < 3; k++) { /* x += coefficient * point */
                CHECK(proper_rat_set_i64(&t, factor[i][k + 1], 1) == 0);
                CHECK(proper_rat_mul(&t, &t, &pt[k]) == 0 && proper_rat_add(&x, &x, &t) == 0);
            }
            CHECK(proper_rat_pow(&y, &x, (unsigned)abs(power[i])) == 0);
            CHECK((power[i] > 0 ? proper_rat_mul(&want, &want, &y) : proper_rat_div(&want, &want, &y)) == 0);
        }
        CHECK(proper_ratfun_eval_rat(&x, &g, pt, 3) == 0);
        CHECK(proper_rat_cmp(&x, &want) == 0);
        proper_ratfun_free(&f);
        proper_ratfun_free(&g);
        proper_strbuf_free(&text);
        proper_rat_free(&want);
        proper_rat_free(&x);
        proper_rat_free(&y);
        proper_rat_free(&t);
        for (k = 0; k < 3; k++) proper_rat_free(&pt[k]);
    }
}

/* The work estimate of a power: (p+q+r+1)^1000 would have C(1003, 3) =
 * 1.7e8 terms, refused before any product and named at the power; the 20th
 * power is computed, and its coefficients are the multinomials: 1771 =
 * C(23, 3) terms summing to 4^20, p^5 q^5 r^5 with 20!/(5!)^4 =
 * 11732745024. */
static void test_ratfun_pow_work(void) {
    static const char *const PQR[] = {"p", "q", "r"};
    static const uint32_t e555[3] = {5, 5, 5};
    const double one[3] = {1, 1, 1};
    proper_ratfun f;
    proper_error err;
    size_t i, found = 0;
    proper_ratfun_init(&f);
    CHECK_INT(proper_ratfun_parse(&f, "(p+q+r+1)^1000", 14, "t", PQR, 3, &err), PROPER_ELIMIT);
    CHECK_INT(err.col, 11);
    CHECK_CONTAINS(err.message, "PROPER_EXACT_MAX_WORK");
    CHECK_INT(proper_ratfun_parse(&f, "(p+q+r+1)^20", 12, "t", PQR, 3, &err), 0);
    CHECK(f.num.n_terms == 1771 && f.den.n_terms == 0);
    CHECK_REL(proper_poly_eval_double(&f.num, one, 3), pow(4, 20), 1e-15);
    for (i = 0; i < f.num.n_terms; i++) {
        if (memcmp(f.num.exp + 3 * i, e555, sizeof e555) != 0) continue;
        CHECK(proper_rat_to_double(&f.num.coef[i]) == 11732745024.0);
        found++;
    }
    CHECK_INT(found, 1);
    proper_ratfun_free(&f);
}

/* Long sums are added by sizes (exact.h, parse_sum): the value is the
 * left-to-right one. (p+q+r+1)^20 printed (1771 terms) reads back equal;
 * 1 - 2 + 3 - ... - 3000 is -1500 (pairs of -1), and
 * sum_{k=1}^{3000} k p = 4501500 p (n(n+1)/2). */
static void test_ratfun_long_sum(void) {
    static const char *const PQR[] = {"p", "q", "r"};
    proper_ratfun f, g;
    proper_error err;
    proper_strbuf b, t;
    int k;
    proper_ratfun_init(&f);
    proper_ratfun_init(&g);
    proper_strbuf_init(&b);
    proper_strbuf_init(&t);
    CHECK_INT(proper_ratfun_parse(&f, "(p+q+r+1)^20", 12, "t", PQR, 3, &err), 0);
    proper_ratfun_format(&f, PQR, &b);
    CHECK(!b.failed);
    CHECK_INT(proper_ratfun_parse(&g, b.data, b.len, "printed", PQR, 3, &err), 0);
    CHECK(proper_ratfun_equal(&f, &g));
    for (k = 1; k <= 3000; k++) proper_strbuf_printf(&t, "%s%d", k == 1 ? "" : k % 2 ? "+" : "-", k);
    CHECK_INT(proper_ratfun_parse(&g, t.data, t.len, "t", PQR, 3, &err), 0);
    CHECK(g.num.n_terms == 1 && proper_rat_to_double(&g.num.coef[0]) == -1500.0);
    t.len = 0;
    for (k = 1; k <= 3000; k++) proper_strbuf_printf(&t, "%s%d*p", k == 1 ? "" : "+", k);
    CHECK_INT(proper_ratfun_parse(&g, t.data, t.len, "t", PQR, 3, &err), 0);
    CHECK(g.num.n_terms == 1 && proper_rat_to_double(&g.num.coef[0]) == 4501500.0 && g.num.exp[0] == 1);
    proper_strbuf_free(&b);
    proper_strbuf_free(&t);
    proper_ratfun_free(&f);
    proper_ratfun_free(&g);
}

/* A power whose extreme coefficient must outgrow PROPER_EXACT_MAX_LIMBS is
 * refused before the work: (p + 3^60000)^400 has the constant term
 * 3^24000000, 38 million bits (the limit is 2^20 limbs, 33.5 million bits);
 * its square is computed, with 3^120000 as the constant term. */
static void test_ratfun_pow_limit(void) {
    static const char *const P[] = {"p"};
    proper_ratfun f, g;
    proper_rat c, c2, got;
    proper_error err;
    proper_ratfun_init(&f);
    proper_ratfun_init(&g);
    proper_rat_init(&c);
    proper_rat_init(&c2);
    proper_rat_init(&got);
    CHECK(proper_rat_set_i64(&c, 3, 1) == 0 && proper_rat_pow(&c, &c, 60000) == 0);
    CHECK(proper_ratfun_parse(&f, "p", 1, "t", P, 1, &err) == 0);
    CHECK(proper_ratfun_set_rat(&g, &c) == 0 && proper_ratfun_add(&f, &f, &g) == 0);
    CHECK_INT(proper_ratfun_pow(&g, &f, 400), PROPER_ELIMIT);
    CHECK_INT(proper_ratfun_pow(&g, &f, 2), 0);
    CHECK(proper_rat_mul(&c2, &c, &c) == 0);
    CHECK(g.num.n_terms == 3 && proper_rat_cmp(&g.num.coef[2], &c2) == 0);
    proper_ratfun_free(&f);
    proper_ratfun_free(&g);
    proper_rat_free(&c);
    proper_rat_free(&c2);
    proper_rat_free(&got);
}

/* ---- exact solvers ------------------------------------------------------------------- */

/* Gambler's ruin on 0..N with win probability p = 2/5: P(reach N from k) =
 * (1 - r^k) / (1 - r^N) with r = q/p = 3/2 (Feller, vol. 1, XIV.2), and
 * the expected duration D_k = k/(q-p) - N/(q-p) (1 - r^k)/(1 - r^N). */
static void test_gamblers_ruin(void) {
    enum { N = 40 };
    tr t[2 * N + 2];
    size_t n = 0;
    uint32_t k, goal[1] = {N}, ends[2] = {0, N};
    proper_dtmc m;
    proper_exact_dtmc e;
    proper_bitset phi, both;
    proper_exact_vec x;
    proper_error err;
    proper_exact_stats st;
    proper_rat r, rk, rN, num, den, want, c, qp;
    t[n].src = 0, t[n].dst = 0, t[n++].value = "1";
    for (k = 1; k < N; k++) {
        t[n].src = k, t[n].dst = k - 1, t[n++].value = "3/5";
        t[n].src = k, t[n].dst = k + 1, t[n++].value = "2/5";
    }
    t[n].src = N, t[n].dst = N, t[n++].value = "1";
    proper_dtmc_init(&m);
    proper_exact_dtmc_init(&e);
    proper_exact_vec_init(&x);
    CHECK(build(t, n, N + 1, NULL, 0, NULL, &m, &e) == 0);
    set_of(&phi, N + 1, goal, 1);
    set_of(&both, N + 1, ends, 2);
    CHECK(proper_exact_prob_until(&m, &e, NULL, &phi, NULL, &x, &st, &err) == 0);
    CHECK_INT(st.n_solved, N - 1);
    proper_rat_init(&r);
    proper_rat_init(&rk);
    proper_rat_init(&rN);
    proper_rat_init(&num);
    proper_rat_init(&den);
    proper_rat_init(&want);
    proper_rat_init(&c);
    proper_rat_init(&qp);
    proper_rat_set_i64(&r, 3, 2);
    proper_rat_pow(&rN, &r, N);
    proper_rat_set_i64(&c, 1, 1);
    proper_rat_sub(&den, &c, &rN);
    for (k = 0; k <= N; k++) {
        proper_rat_pow(&rk, &r, k);
        proper_rat_sub(&num, &c, &rk);
        proper_rat_div(&want, &num, &den);
        CHECK(proper_rat_cmp(&x.q[k], &want) == 0);
    }
    /* expected duration with reward 1 per step until 0 or N */
    {
        size_t ri;
        proper_rat one, dk, t1;
        proper_rat_init(&one);
        proper_rat_init(&dk);
        proper_rat_init(&t1);
        proper_dtmc_add_reward(&m, "steps", 1, 0, &ri, &err);
        for (k = 0; k <= N; k++) proper_dtmc_reward_add_state(&m, ri, k, 1, &err);
        CHECK(proper_exact_dtmc_create(&e, &m, 0, NULL, &err) == 0);
        /* the probabilities again, exactly: the companion was re-made */
        for (k = 0; k < (uint32_t)m.n_trans; k++) {
            proper_rat v;
            proper_rat_init(&v);
            parse_rat(&v, m.prob[k] == 1 ? "1" : m.prob[k] > 0.5 ? "3/5" : "2/5");
            proper_exact_dtmc_set_prob(&e, k, &v, &err);
            proper_rat_free(&v);
        }
        CHECK(proper_exact_dtmc_check(&e, &m, &err) == 0);
        CHECK(proper_exact_reward_reach(&m, &e, 0, &both, NULL, &x, NULL, &err) == 0);
        proper_rat_set_i64(&qp, 1, 5); /* q - p */
        for (k = 0; k <= N; k++) {
            proper_rat_set_i64(&dk, k, 1);
            proper_rat_div(&dk, &dk, &qp);
            proper_rat_pow(&rk, &r, k);
            proper_rat_sub(&num, &c, &rk);
            proper_rat_div(&t1, &num, &den);
            proper_rat_set_i64(&one, N, 1);
            proper_rat_div(&one, &one, &qp);
            proper_rat_mul(&t1, &t1, &one);
            proper_rat_sub(&want, &dk, &t1);
            CHECK(!x.inf[k]);
            CHECK(proper_rat_cmp(&x.q[k], &want) == 0);
        }
        proper_rat_free(&one);
        proper_rat_free(&dk);
        proper_rat_free(&t1);
    }
    proper_rat_free(&r);
    proper_rat_free(&rk);
    proper_rat_free(&rN);
    proper_rat_free(&num);
    proper_rat_free(&den);
    proper_rat_free(&want);
    proper_rat_free(&c);
    proper_rat_free(&qp);
    proper_bitset_free(&phi);
    proper_bitset_free(&both);
    proper_exact_vec_free(&x);
    proper_exact_dtmc_free(&e);
    proper_dtmc_free(&m);
}

/* Dense Gauss-Jordan elimination over the rationals of (I - A) x = b on
 * the given states, with x known elsewhere: the independent reference. */
static int dense_solve(const proper_dtmc *m, const proper_exact_dtmc *e, const unsigned char *solve, proper_rat *x) {
    uint32_t n = m->n_states, i, j, k, *idx, cnt = 0;
    proper_rat *a, t;
    idx = (uint32_t *)calloc(n, sizeof *idx);
    for (i = 0; i < n; i++) idx[i] = solve[i] ? cnt++ : UINT32_MAX;
    a = (proper_rat *)calloc((size_t)cnt * (cnt + 1), sizeof *a);
    proper_rat_init(&t);
    for (i = 0; i < n; i++) {
        uint64_t q;
        if (!solve[i]) continue;
        proper_rat_set_i64(&a[(size_t)idx[i] * (cnt + 1) + idx[i]], 1, 1);
        for (q = m->row[i]; q < m->row[i + 1]; q++) {
            uint32_t c = m->col[q];
            if (solve[c]) {
                proper_rat *cell = &a[(size_t)idx[i] * (cnt + 1) + idx[c]];
                proper_rat_sub(cell, cell, &e->prob[q]);
            } else {
                proper_rat *cell = &a[(size_t)idx[i] * (cnt + 1) + cnt];
                proper_rat_mul(&t, &e->prob[q], &x[c]);
                proper_rat_add(cell, cell, &t);
            }
        }
    }
    for (k = 0; k < cnt; k++) {
        uint32_t piv = k;
        while (piv < cnt && proper_rat_is_zero(&a[(size_t)piv * (cnt + 1) + k])) piv++;
        if (piv == cnt) return -1;
        for (j = 0; j <= cnt; j++) {
            proper_rat s = a[(size_t)k * (cnt + 1) + j];
            a[(size_t)k * (cnt + 1) + j] = a[(size_t)piv * (cnt + 1) + j];
            a[(size_t)piv * (cnt + 1) + j] = s;
        }
        for (i = 0; i < cnt; i++) {
            proper_rat f;
            if (i == k || proper_rat_is_zero(&a[(size_t)i * (cnt + 1) + k])) continue;
            proper_rat_init(&f);
            proper_rat_div(&f, &a[(size_t)i * (cnt + 1) + k], &a[(size_t)k * (cnt + 1) + k]);
            for (j = k; j <= cnt; j++) {
                proper_rat_mul(&t, &f, &a[(size_t)k * (cnt + 1) + j]);
                proper_rat_sub(&a[(size_t)i * (cnt + 1) + j], &a[(size_t)i * (cnt + 1) + j], &t);
            }
            proper_rat_free(&f);
        }
    }
    for (i = 0; i < n; i++)
        if (solve[i])
            proper_rat_div(&x[i], &a[(size_t)idx[i] * (cnt + 1) + cnt], &a[(size_t)idx[i] * (cnt + 1) + idx[i]]);
    for (i = 0; i < cnt * (cnt + 1); i++) proper_rat_free(&a[i]);
    proper_rat_free(&t);
    free(a);
    free(idx);
    return 0;
}

/* A random chain of n states, each with 1 to 3 successors of weights
 * 1..6 (probabilities w / total, small denominators), into m and its exact
 * companion e (both initialised here); with_reward: reward structure 0
 * with state rewards 0..3 and dyadic probabilities (totals 4, 8 or 16:
 * the doubles are the exact values, so the double and the exact chain are
 * the same chain). */
static void random_rational_chain(proper_rng *rng, uint32_t n, int with_reward, proper_dtmc *m,
                                  proper_exact_dtmc *e) {
    proper_dtmc_builder b;
    proper_error err;
    uint32_t s, dst[4];
    int w[4];
    proper_dtmc_builder_init(&b);
    proper_dtmc_init(m);
    proper_exact_dtmc_init(e);
    for (s = 0; s < n; s++) {
        int k, deg = 1 + (int)proper_rng_below(rng, 3), tot = 0;
        double p[4];
        for (k = 0; k < deg; k++) {
            int d;
            dst[k] = (uint32_t)proper_rng_below(rng, n);
            for (d = 0; d < k; d++)
                if (dst[d] == dst[k]) break;
            if (d < k) { deg = k; break; }
            w[k] = 1 + (int)proper_rng_below(rng, 6);
            tot += w[k];
        }
        if (with_reward) { /* the same successors, weights re-drawn to a power-of-two total */
            int left;
            tot = 4 << proper_rng_below(rng, 3);
            for (k = 0; k < deg; k++) w[k] = 1;
            for (left = tot - deg; left > 0; left--) w[proper_rng_below(rng, (uint64_t)deg)]++;
        }
        for (k = 0; k < deg; k++) p[k] = (double)w[k] / tot;
        proper_dtmc_builder_add_row(&b, dst, p, (size_t)deg, &err);
    }
    CHECK(proper_dtmc_builder_finish(&b, n, m, &err) == 0);
    if (with_reward) {
        CHECK(proper_dtmc_add_reward(m, "r", 1, 0, NULL, &err) == 0);
        for (s = 0; s < n; s++) m->rewards[0].state[s] = (double)proper_rng_below(rng, 4);
    }
    CHECK(proper_exact_dtmc_create(e, m, 0, NULL, &err) == 0);
    /* exact weights: w / total of the row, recovered from the doubles */
    for (s = 0; s < n; s++) {
        uint64_t k;
        int tot;
        for (tot = 1; tot <= 18; tot++) {
            int ok = 1;
            for (k = m->row[s]; k < m->row[s + 1]; k++) {
                double v = m->prob[k] * tot;
                if (fabs(v - floor(v + 0.5)) > 1e-9) ok = 0;
            }
            if (ok) break;
        }
        for (k = m->row[s]; k < m->row[s + 1]; k++) {
            proper_rat v;
            proper_rat_init(&v);
            proper_rat_set_i64(&v, (int64_t)floor(m->prob[k] * tot + 0.5), tot);
            proper_exact_dtmc_set_prob(e, k, &v, &err);
            proper_rat_free(&v);
        }
    }
}

/* Random chains with small-denominator rational probabilities: state
 * elimination (SCCs, min-fill order) equals dense Gauss-Jordan exactly. */
static void test_random_vs_dense(void) {
    proper_rng rng;
    int it;
    proper_rng_seed(&rng, 2024);
    for (it = 0; it < 40; it++) {
        uint32_t n = 3 + (uint32_t)proper_rng_below(&rng, 25), s, goal = (uint32_t)proper_rng_below(&rng, n);
        proper_dtmc m;
        proper_exact_dtmc e;
        proper_bitset phi, no, yes;
        proper_exact_vec x;
        proper_error err;
        proper_rat *ref;
        unsigned char *solve;
        proper_exact_vec_init(&x);
        random_rational_chain(&rng, n, 0, &m, &e);
        CHECK(proper_exact_dtmc_check(&e, &m, &err) == 0);
        set_of(&phi, n, &goal, 1);
        CHECK(proper_exact_prob_until(&m, &e, NULL, &phi, NULL, &x, NULL, &err) == 0);
        proper_bitset_init(&no);
        proper_bitset_init(&yes);
        proper_dtmc_prob0(&m, NULL, &phi, &no, &err);
        proper_dtmc_prob1(&m, NULL, &phi, &yes, &err);
        ref = (proper_rat *)calloc(n, sizeof *ref);
        solve = (unsigned char *)calloc(n, 1);
        for (s = 0; s < n; s++) {
            solve[s] = !proper_bitset_get(&no, s) && !proper_bitset_get(&yes, s);
            if (proper_bitset_get(&yes, s)) proper_rat_set_i64(&ref[s], 1, 1);
        }
        CHECK(dense_solve(&m, &e, solve, ref) == 0);
        for (s = 0; s < n; s++) CHECK(proper_rat_cmp(&x.q[s], &ref[s]) == 0);
        /* and the double solve agrees to rounding */
        {
            double *xd = (double *)calloc(n, sizeof *xd);
            proper_dtmc_solve_opts o = proper_dtmc_solve_opts_default();
            CHECK(proper_dtmc_prob_until(&m, NULL, &phi, &o, xd, NULL, &err) == 0);
            for (s = 0; s < n; s++) CHECK_ABS(proper_rat_to_double(&x.q[s]), xd[s], 1e-9);
            free(xd);
        }
        for (s = 0; s < n; s++) proper_rat_free(&ref[s]);
        free(ref);
        free(solve);
        proper_bitset_free(&phi);
        proper_bitset_free(&no);
        proper_bitset_free(&yes);
        proper_exact_vec_free(&x);
        proper_exact_dtmc_free(&e);
        proper_dtmc_free(&m);
    }
}

/* |x - exact| <= bound, decided in rationals (the double x and bound
 * read exactly); an infinite exact value must come out infinite. */
static int within_bound(const proper_exact_vec *ex, uint32_t s, double x, double bound) {
    proper_rat d, b;
    int ok;
    if (ex->inf[s]) return isinf(x) && x > 0;
    if (!isfinite(x) || !(bound >= 0.0)) return 0;
    proper_rat_init(&d);
    proper_rat_init(&b);
    proper_rat_from_double(&d, x);
    proper_rat_sub(&d, &d, &ex->q[s]);
    if (proper_rat_sign(&d) < 0) proper_rat_neg(&d, &d);
    if (isinf(bound)) ok = 1;
    else {
        proper_rat_from_double(&b, bound);
        ok = proper_rat_cmp(&d, &b) <= 0;
    }
    proper_rat_free(&d);
    proper_rat_free(&b);
    return ok;
}

/* The proven bounds of dtmc.h's solves contain the exact values, on random
 * small chains, by both direct routes: dense LU from the start, and dense
 * LU after Gauss-Seidel gives up (a budget of one sweep). Every answer
 * must carry a finite bound or be refused; refusals are counted. */
static void test_direct_bounds_vs_exact(void) {
    proper_rng rng;
    int it, route, refused = 0, checked = 0, fell_back = 0;
    proper_rng_seed(&rng, 1606);
    for (it = 0; it < 150; it++) {
        uint32_t n = 3 + (uint32_t)proper_rng_below(&rng, 40), s, goal = (uint32_t)proper_rng_below(&rng, n);
        proper_dtmc m;
        proper_exact_dtmc e;
        proper_bitset phi;
        proper_exact_vec ex;
        proper_error err;
        proper_dtmc_solve_stats st;
        const size_t r = 0;
        double *x = (double *)calloc(n, sizeof *x);
        random_rational_chain(&rng, n, 1, &m, &e);
        CHECK(proper_exact_dtmc_check(&e, &m, &err) == 0);
        set_of(&phi, n, &goal, 1);
        proper_exact_vec_init(&ex);
        for (route = 0; route < 2; route++) {
            proper_dtmc_solve_opts o = proper_dtmc_solve_opts_default();
            int rc, q;
            if (route) { o.dense_max = 0; o.band_max = 0; o.max_sweeps = 1; }
            for (q = 0; q < 3; q++) {
                if (q == 0) {
                    CHECK(proper_exact_prob_until(&m, &e, NULL, &phi, NULL, &ex, NULL, &err) == 0);
                    rc = proper_dtmc_prob_until(&m, NULL, &phi, &o, x, &st, &err);
                } else if (q == 1) {
                    CHECK(proper_exact_reward_reach(&m, &e, r, &phi, NULL, &ex, NULL, &err) == 0);
                    rc = proper_dtmc_reward_reach(&m, &m.rewards[r], &phi, &o, x, &st, &err);
                } else {
                    CHECK(proper_exact_steady(&m, &e, &phi, NULL, &ex, NULL, &err) == 0);
                    rc = proper_dtmc_steady_stats(&m, &phi, &o, x, &st, &err);
                }
                if (rc == PROPER_ENOCONV) { refused++; continue; }
                CHECK_INT(rc, 0);
                CHECK(isfinite(st.max_error));
                for (s = 0; s < n; s++) CHECK(within_bound(&ex, s, x[s], st.max_error));
                if (route && st.n_dense > 0) fell_back++;
                checked++;
            }
        }
        proper_exact_vec_free(&ex);
        proper_bitset_free(&phi);
        proper_exact_dtmc_free(&e);
        proper_dtmc_free(&m);
        free(x);
    }
    printf("  %d solves within their proven bounds (%d after Gauss-Seidel gave up), %d refused\n", checked,
           fell_back, refused);
    CHECK(checked >= 850);
    CHECK(fell_back >= 100);
}

/* C<=k's proven bound contains the exact expected reward (rational
 * iteration) on random dyadic chains, for k up to 40, with transition
 * rewards on some. */
static void test_cumulative_bound_vs_exact(void) {
    proper_rng rng;
    int it, checked = 0;
    proper_rng_seed(&rng, 4116);
    for (it = 0; it < 120; it++) {
        uint32_t n = 2 + (uint32_t)proper_rng_below(&rng, 20), s;
        unsigned long k = (unsigned long)proper_rng_below(&rng, 41);
        proper_dtmc m;
        proper_exact_dtmc e;
        proper_exact_vec ex;
        proper_error err;
        proper_dtmc_solve_stats st;
        double *x = (double *)calloc(n, sizeof *x);
        random_rational_chain(&rng, n, 1, &m, &e);
        if (it % 2) { /* transition rewards 0..2 (in halves), exact in both */
            uint64_t q;
            proper_exact_dtmc_free(&e);
            m.rewards[0].trans = (double *)calloc((size_t)m.n_trans, sizeof(double));
            for (q = 0; q < m.n_trans; q++) m.rewards[0].trans[q] = 0.5 * (double)proper_rng_below(&rng, 5);
            CHECK(proper_exact_dtmc_create(&e, &m, 0, NULL, &err) == 0);
        }
        CHECK(proper_exact_dtmc_check(&e, &m, &err) == 0);
        proper_exact_vec_init(&ex);
        CHECK(proper_exact_reward_cumulative(&m, &e, 0, k, &ex, &err) == 0);
        CHECK_INT(proper_dtmc_reward_cumulative_stats(&m, &m.rewards[0], k, x, &st, &err), 0);
        CHECK(st.max_error <= 1e-12 * (1.0 + (double)k * 3.0));
        for (s = 0; s < n; s++) {
            CHECK(within_bound(&ex, s, x[s], st.max_error));
            checked++;
        }
        proper_exact_vec_free(&ex);
        proper_exact_dtmc_free(&e);
        proper_dtmc_free(&m);
        free(x);
    }
    printf("  %d values of C<=k within their proven bounds\n", checked);
}

/* The steady distribution's proven bound contains the exact long-run
 * probability of each state from the initial one (exact S=? [ s=t ]), on
 * random dyadic chains, by dense LU and by the fallback after Gauss-Seidel
 * gives up. */
static void test_steady_distribution_bound_vs_exact(void) {
    proper_rng rng;
    int it, route, checked = 0;
    proper_rng_seed(&rng, 5150);
    for (it = 0; it < 60; it++) {
        uint32_t n = 2 + (uint32_t)proper_rng_below(&rng, 14), s, t;
        proper_dtmc m;
        proper_exact_dtmc e;
        proper_exact_vec ex;
        proper_error err;
        proper_dtmc_solve_stats st;
        double *pi = (double *)calloc(n, sizeof *pi);
        random_rational_chain(&rng, n, 1, &m, &e);
        m.init = (uint32_t)proper_rng_below(&rng, n);
        CHECK(proper_exact_dtmc_check(&e, &m, &err) == 0);
        proper_exact_vec_init(&ex);
        for (route = 0; route < 2; route++) {
            proper_dtmc_solve_opts o = proper_dtmc_solve_opts_default();
            if (route) { o.dense_max = 0; o.band_max = 0; o.max_sweeps = 1; }
            CHECK_INT(proper_dtmc_steady_distribution_stats(&m, &o, pi, &st, &err), 0);
            CHECK(st.max_error < 1e-12);
            for (t = 0; t < n; t++) {
                proper_bitset one;
                set_of(&one, n, &t, 1);
                CHECK(proper_exact_steady(&m, &e, &one, NULL, &ex, NULL, &err) == 0);
                s = m.init;
                CHECK(within_bound(&ex, s, pi[t], st.max_error));
                proper_bitset_free(&one);
                checked++;
            }
        }
        proper_exact_vec_free(&ex);
        proper_exact_dtmc_free(&e);
        proper_dtmc_free(&m);
        free(pi);
    }
    printf("  %d long-run probabilities within their proven bounds\n", checked);
}

/* Solve P=?[phi1 U phi2] (phi1_n == SIZE_MAX: F phi2) or, with reward,
 * R{"r"}=?[F phi2] with one per step, on a chain given by its transitions;
 * the value in state 0 as printed. */
static char *solve_text(const tr *t, size_t n, uint32_t n_states, const char *const *names, size_t n_params,
                        const uint32_t *phi1, size_t phi1_n, const uint32_t *phi2, size_t phi2_n, int reward) {
    proper_dtmc m;
    proper_exact_dtmc e;
    proper_exact_vec x;
    proper_error err;
    proper_bitset a, b;
    proper_strbuf s;
    double pt[3] = {0.3, 0.6, 0.45};
    int rc;
    proper_dtmc_init(&m);
    proper_exact_dtmc_init(&e);
    proper_exact_vec_init(&x);
    proper_strbuf_init(&s);
    if (build_r(t, n, n_states, names, n_params, pt, reward, &m, &e)) return NULL;
    set_of(&b, n_states, phi2, phi2_n);
    if (phi1_n != (size_t)-1) set_of(&a, n_states, phi1, phi1_n);
    if (reward) rc = proper_exact_reward_reach(&m, &e, 0, &b, NULL, &x, NULL, &err);
    else rc = proper_exact_prob_until(&m, &e, phi1_n == (size_t)-1 ? NULL : &a, &b, NULL, &x, NULL, &err);
    if (rc) printf("  solve: %s\n", err.message);
    else proper_exact_vec_format(&x, &e, 0, &s);
    if (phi1_n != (size_t)-1) proper_bitset_free(&a);
    proper_bitset_free(&b);
    proper_exact_vec_free(&x);
    proper_exact_dtmc_free(&e);
    proper_dtmc_free(&m);
    return rc ? NULL : proper_strbuf_take(&s);
}

#define CHECK_SOLVE(call, want)      \
    do {                             \
        char *got_ = (call);         \
        CHECK_STR(got_, want);       \
        PROPER_FREE(got_);           \
    } while (0)

/* Values printed by PRISM 4.10.2-dev (built from the PRISM repository),
 * on models written for this test (not copied from PRISM):
 *
 * a.pm: dtmc; const double p; const double q;
 *   s=0 -> p:(s'=1) + (1-p):(s'=2);  s=1 -> q:(s'=3) + (1-q):(s'=0);
 *   s=2 -> 0.5:(s'=0) + 0.5:(s'=2);  s=3 -> true;
 *   label "goal" = s=3;  rewards "r" true : 1; endrewards
 *   prism a.pm -pf 'P=? [F "goal"]' -param p=0:1,q=0:1            -> 1
 *   prism a.pm -pf 'P=? [ (s=0|s=1) U s=3 ]' -param p=0:1,q=0:1   -> p*q/(p*q-p+1)
 *   prism a.pm -pf 'R{"r"}=? [F "goal"]' -param p=0:1,q=0:1       -> (3-p)/(p*q)
 * b.pm: a.pm with p = 0.1 and q = 1/3 written into the model:
 *   prism b.pm -pf 'R{"r"}=? [F "goal"]' -exact                   -> 87
 *   prism b.pm -pf 'P=? [ s!=2 U s=3 ]' -exact                    -> 1/28
 * c.pm: a.pm with one parameter, s=1 -> 2/7*p:(s'=3) + (1-2/7*p):(s'=0):
 *   prism c.pm -pf 'P=? [ s!=2 U s=3 ]' -param p=0:1              -> 2*p^2/(2*p^2-7*p+7)
 *   prism c.pm -pf 'P=? [ F s=2 ]' -param p=0:1                   -> (7-7*p)/(2*p^2-7*p+7)
 * d.pm: s=0 -> p:1 + (1-p):2; s=1 -> q:5 + (1-q):3; s=2 -> q:3 + (1-q):4;
 *   s=3 -> p:5 + (1-p):6; s=4 -> q:5 + (1-q):6; s>=5 -> true
 *   prism d.pm -pf 'P=? [ F s=5 ]' -param q=0:1,p=0:1             -> q^2*p-2*q*p^2-q^2+q*p+p^2+q
 *   prism d.pm -pf 'P=? [ F s=3 ]' -param p=0:1,q=0:1             -> p-2*p*q+q
 * (the order of -param is the order of the variables in the output) */
static const tr MODEL_A[] = {{0, 1, "p"}, {0, 2, "1-p"}, {1, 3, "q"}, {1, 0, "1-q"}, {2, 0, "1/2"}, {2, 2, "0.5"}, {3, 3, "1"}};
static const tr MODEL_B[] = {{0, 1, "0.1"}, {0, 2, "0.9"}, {1, 3, "1/3"}, {1, 0, "2/3"}, {2, 0, "0.5"}, {2, 2, "0.5"}, {3, 3, "1"}};
static const tr MODEL_C[] = {{0, 1, "p"}, {0, 2, "1-p"}, {1, 3, "2/7*p"}, {1, 0, "1-2/7*p"}, {2, 0, "0.5"}, {2, 2, "0.5"}, {3, 3, "1"}};
static const tr MODEL_D[] = {{0, 1, "p"}, {0, 2, "1-p"}, {1, 5, "q"}, {1, 3, "1-q"}, {2, 3, "q"}, {2, 4, "1-q"},
                             {3, 5, "p"}, {3, 6, "1-p"}, {4, 5, "q"}, {4, 6, "1-q"}, {5, 5, "1"}, {6, 6, "1"}};

static void test_prism_param(void) {
    static const char *const QP[] = {"q", "p"};
    static const char *const P1[] = {"p"};
    uint32_t s3 = 3, s2 = 2, s5 = 5, s01[2] = {0, 1}, not2[3] = {0, 1, 3};
    CHECK_SOLVE(solve_text(MODEL_A, 7, 4, PQ, 2, NULL, (size_t)-1, &s3, 1, 0), "1");
    CHECK_SOLVE(solve_text(MODEL_A, 7, 4, PQ, 2, s01, 2, &s3, 1, 0), "p*q/(p*q-p+1)");
    CHECK_SOLVE(solve_text(MODEL_A, 7, 4, PQ, 2, NULL, (size_t)-1, &s3, 1, 1), "(3-p)/(p*q)");
    CHECK_SOLVE(solve_text(MODEL_C, 7, 4, P1, 1, not2, 3, &s3, 1, 0), "2*p^2/(2*p^2-7*p+7)");
    CHECK_SOLVE(solve_text(MODEL_C, 7, 4, P1, 1, NULL, (size_t)-1, &s2, 1, 0), "(7-7*p)/(2*p^2-7*p+7)");
    CHECK_SOLVE(solve_text(MODEL_D, 12, 7, QP, 2, NULL, (size_t)-1, &s5, 1, 0), "q^2*p-2*q*p^2-q^2+q*p+p^2+q");
    CHECK_SOLVE(solve_text(MODEL_D, 12, 7, PQ, 2, NULL, (size_t)-1, &s3, 1, 0), "p-2*p*q+q");
}

static void test_prism_exact(void) {
    uint32_t s3 = 3, not2[3] = {0, 1, 3};
    CHECK_SOLVE(solve_text(MODEL_B, 7, 4, NULL, 0, NULL, (size_t)-1, &s3, 1, 1), "87");
    CHECK_SOLVE(solve_text(MODEL_B, 7, 4, NULL, 0, not2, 3, &s3, 1, 0), "1/28");
}

/* PROPER's minPathSum model (tests/corpus/prism/minpathsum.pm: Stefanakos,
 * Calinescu, Gerasimou, IST 2023, Fig. 5), written here as transitions.
 * References, PRISM 4.10.2-dev:
 *   prism tests/corpus/prism/minpathsum.pm -pf 'R{"time"}=? [ F "end" ]' \
 *         -const p1=0.0912,p2=0.8181,p3=0.8,p4=0.8181,p5=0.8181 -exact
 *     -> 32504164372/51699390625   (cost: 9503884062/2067975625;
 *        also tests/transcripts/prism_minpathsum_exact.txt, PRISM 4.9)
 *   the same with -param p1=0:1,p2=0:1,p3=0:1,p4=0:1,p5=0:1 -> MPS_TIME, MPS_COST below. */
static const tr MODEL_MPS[] = {
    {0, 1, "1"},      {1, 2, "p1"},     {1, 3, "1-p1"},   {2, 21, "1"},    {3, 4, "1"},      {4, 5, "1"},
    {5, 6, "1"},      {6, 7, "p2"},     {6, 9, "1-p2"},   {7, 8, "1"},     {8, 6, "1"},      {9, 10, "1"},
    {10, 11, "p3"},   {10, 13, "1-p3"}, {11, 12, "1"},    {12, 10, "1"},   {13, 14, "1"},    {14, 15, "p4"},
    {14, 20, "1-p4"}, {15, 16, "1"},    {16, 17, "p5"},   {16, 19, "1-p5"}, {17, 18, "1"},   {18, 16, "1"},
    {19, 14, "1"},    {20, 21, "1"},    {21, 21, "1"}};
static const char *const MPS_P[] = {"p1", "p2", "p3", "p4", "p5"};
static const char *const MPS_TIME =
    "(2*p1*p2*p4*p5-p1*p2*p3*p4*p5-2*p1*p2*p3*p4-2*p1*p2*p3*p5+2*p1*p3*p4*p5+p2*p3*p4*p5+2*p1*p2*p3+p1*p2*p4+"
    "p1*p2*p5+p1*p3*p4+p1*p3*p5-3*p1*p4*p5+2*p2*p3*p4+2*p2*p3*p5-2*p2*p4*p5-2*p3*p4*p5-p1*p2-p1*p3-2*p2*p3-"
    "p2*p4-p2*p5-p3*p4-p3*p5+3*p4*p5+p2+p3)/(100*p2*p3*p4*p5-100*p2*p3*p4-100*p2*p3*p5-100*p2*p4*p5-"
    "100*p3*p4*p5+100*p2*p3+100*p2*p4+100*p2*p5+100*p3*p4+100*p3*p5+100*p4*p5-100*p2-100*p3-100*p4-100*p5+100)";
static const char *const MPS_COST = "(p4*p5-p1*p4*p5)/(4*p4*p5-4*p4-4*p5+4)";

/* The chain with rewards "time" (0.01 in 7 and 11, 0.03 in 18) and "cost"
 * (0.25 in 18); n_params 0: the paper's estimates as exact decimals. */
static int build_mps(size_t n_params, proper_dtmc *m, proper_exact_dtmc *e) {
    static const char *const est[] = {"0.0912", "0.8181", "0.8", "0.8181", "0.8181"};
    tr t[27];
    size_t i, ri;
    proper_error err;
    double pt[5] = {0.0912, 0.8181, 0.8, 0.8181, 0.8181};
    proper_rat v;
    memcpy(t, MODEL_MPS, sizeof t);
    if (!n_params) { /* substitute the estimates into the text */
        static char buf[27][16];
        for (i = 0; i < 27; i++) {
            const char *x = t[i].value;
            int neg = x[0] == '1' && x[1] == '-';
            if (x[0] == '1' && !x[1]) continue;
            snprintf(buf[i], sizeof buf[i], "%s%s", neg ? "1-" : "", est[x[neg ? 3 : 1] - '1']);
            t[i].value = buf[i];
        }
    }
    if (build_r(t, 27, 22, MPS_P, n_params, pt, 0, m, e)) return -1;
    if (proper_dtmc_add_reward(m, "time", 1, 0, &ri, &err) || proper_dtmc_reward_add_state(m, ri, 7, 0.01, &err) ||
        proper_dtmc_reward_add_state(m, ri, 11, 0.01, &err) || proper_dtmc_reward_add_state(m, ri, 18, 0.03, &err) ||
        proper_dtmc_add_reward(m, "cost", 1, 0, &ri, &err) || proper_dtmc_reward_add_state(m, ri, 18, 0.25, &err))
        return -1;
    /* re-create the companion for the rewards, then the exact values again */
    {
        proper_exact_dtmc e2;
        uint64_t k;
        proper_exact_dtmc_init(&e2);
        if (proper_exact_dtmc_create(&e2, m, n_params, MPS_P, &err)) return -1;
        for (k = 0; k < m->n_trans; k++) {
            if (n_params) proper_ratfun_copy(&e2.fprob[k], &e->fprob[k]);
            else proper_rat_copy(&e2.prob[k], &e->prob[k]);
        }
        proper_exact_dtmc_free(e);
        *e = e2;
    }
    proper_rat_init(&v);
    parse_rat(&v, "0.01");
    for (i = 0; i < 2; i++) {
        proper_ratfun f;
        proper_ratfun_init(&f);
        proper_ratfun_set_rat(&f, &v);
        if (n_params) {
            proper_exact_dtmc_set_state_freward(e, 0, i ? 11 : 7, &f, &err);
        } else {
            proper_exact_dtmc_set_state_reward(e, 0, i ? 11 : 7, &v, &err);
        }
        proper_ratfun_free(&f);
    }
    {
        proper_rat w;
        proper_ratfun f;
        proper_rat_init(&w);
        proper_ratfun_init(&f);
        parse_rat(&w, "0.03");
        proper_ratfun_set_rat(&f, &w);
        if (n_params) proper_exact_dtmc_set_state_freward(e, 0, 18, &f, &err);
        else proper_exact_dtmc_set_state_reward(e, 0, 18, &w, &err);
        parse_rat(&w, "1/4");
        proper_ratfun_set_rat(&f, &w);
        if (n_params) proper_exact_dtmc_set_state_freward(e, 1, 18, &f, &err);
        else proper_exact_dtmc_set_state_reward(e, 1, 18, &w, &err);
        proper_rat_free(&w);
        proper_ratfun_free(&f);
    }
    proper_rat_free(&v);
    return proper_exact_dtmc_check(e, m, &err);
}

static void test_minpathsum_exact(void) {
    proper_dtmc m;
    proper_exact_dtmc e;
    proper_exact_vec x;
    proper_error err;
    proper_bitset end;
    uint32_t done = 21;
    proper_dtmc_init(&m);
    proper_exact_dtmc_init(&e);
    proper_exact_vec_init(&x);
    CHECK(build_mps(0, &m, &e) == 0);
    set_of(&end, 22, &done, 1);
    CHECK(proper_exact_reward_reach(&m, &e, 0, &end, NULL, &x, NULL, &err) == 0);
    CHECK_RAT(&x.q[0], "32504164372/51699390625");
    CHECK(proper_exact_reward_reach(&m, &e, 1, &end, NULL, &x, NULL, &err) == 0);
    CHECK_RAT(&x.q[0], "9503884062/2067975625");
    proper_bitset_free(&end);
    proper_exact_vec_free(&x);
    proper_exact_dtmc_free(&e);
    proper_dtmc_free(&m);
}

/* The parametric solve: PRISM's closed forms, exact at the estimates, equal
 * to dtmc.h's numeric solve of the instantiated chain at random points, and
 * derivatives equal to central differences. */
static void test_minpathsum_param(void) {
    proper_dtmc m, mi;
    proper_exact_dtmc e;
    proper_exact_vec x;
    proper_error err;
    proper_bitset end;
    proper_rng rng;
    uint32_t done = 21, r;
    int it;
    proper_dtmc_init(&m);
    proper_dtmc_init(&mi);
    proper_exact_dtmc_init(&e);
    proper_exact_vec_init(&x);
    proper_rng_seed(&rng, 5);
    CHECK(build_mps(5, &m, &e) == 0);
    set_of(&end, 22, &done, 1);
    for (r = 0; r < 2; r++) {
        proper_strbuf s;
        proper_rat pt[5], v;
        const char *est[] = {"0.0912", "0.8181", "0.8", "0.8181", "0.8181"};
        int i;
        proper_strbuf_init(&s);
        CHECK(proper_exact_reward_reach(&m, &e, r, &end, NULL, &x, NULL, &err) == 0);
        proper_exact_vec_format(&x, &e, 0, &s);
        CHECK_STR(s.data, r ? MPS_COST : MPS_TIME);
        proper_strbuf_free(&s);
        for (i = 0; i < 5; i++) {
            proper_rat_init(&pt[i]);
            parse_rat(&pt[i], est[i]);
        }
        proper_rat_init(&v);
        CHECK(proper_ratfun_eval_rat(&v, &x.f[0], pt, 5) == 0);
        CHECK_RAT(&v, r ? "9503884062/2067975625" : "32504164372/51699390625");
        for (i = 0; i < 5; i++) proper_rat_free(&pt[i]);
        proper_rat_free(&v);
        for (it = 0; it < 50; it++) {
            double p[5], *xd = (double *)calloc(22, sizeof(double)), h = 1e-6;
            proper_dtmc_solve_opts o = proper_dtmc_solve_opts_default();
            proper_ratfun d;
            uint32_t k;
            for (k = 0; k < 5; k++) p[k] = 0.05 + 0.9 * proper_rng_uniform(&rng);
            CHECK(proper_exact_dtmc_instantiate(&e, &m, p, &mi, &err) == 0);
            CHECK(proper_dtmc_reward_reach(&mi, &mi.rewards[r], &end, &o, xd, NULL, &err) == 0);
            CHECK_REL(proper_ratfun_eval_double(&x.f[0], p, 5), xd[0], 1e-11);
            proper_ratfun_init(&d);
            k = (uint32_t)proper_rng_below(&rng, 5);
            CHECK(proper_ratfun_deriv(&d, &x.f[0], k) == 0);
            {
                double pp[5], pm[5], fd;
                memcpy(pp, p, sizeof pp);
                memcpy(pm, p, sizeof pm);
                pp[k] += h;
                pm[k] -= h;
                fd = (proper_ratfun_eval_double(&x.f[0], pp, 5) - proper_ratfun_eval_double(&x.f[0], pm, 5)) / (2 * h);
                CHECK_ABS(proper_ratfun_eval_double(&d, p, 5), fd, 1e-5 * (1 + fabs(fd)));
            }
            proper_ratfun_free(&d);
            free(xd);
        }
    }
    proper_bitset_free(&end);
    proper_exact_vec_free(&x);
    proper_exact_dtmc_free(&e);
    proper_dtmc_free(&m);
    proper_dtmc_free(&mi);
}

/* e.pm (written for this test): s=0 -> 1/4:0 + 1/2:1 + 1/4:4;
 * s=1 -> 1/3:2 + 2/3:3; s=2 -> 1/2:1 + 1/2:3; s=3 -> 1/5:1 + 4/5:2;
 * s=4 -> 0.1:4 + 0.9:5; s=5 -> 0.3:4 + 0.7:5; rewards "r" true : s.
 * PRISM 4.10.2-dev, prism e.pm -pf PROP -exact:
 *   S=? [ s=2 ] -> 52/207,  S=? [ s=5 ] -> 1/4,  S=? [ s=1|s=4 ] -> 71/276.
 * PRISM's exact engine refuses X and bounded operators; its explicit engine
 * (prism e.pm -pf PROP -ex) prints P=?[X s=1] 0.5, P=?[s<2 U<=3 s=2]
 * 0.20833333333333331, P=?[F<=5 s=5] 0.33139687500000004, R=?[C<=4] 7.28,
 * R=?[I=3] 2.8466666666666667: the exact values below (hand-checked:
 * X: 1/2; U<=3: 1/2 * 1/3 + 1/4 * 1/2 * 1/3 + (1/16 * 1/2 + 1/2 * 2/3 * 1/5) * 1/3
 * = 5/24) round to them. */
static const tr MODEL_E[] = {{0, 0, "1/4"}, {0, 1, "1/2"}, {0, 4, "1/4"}, {1, 2, "1/3"}, {1, 3, "2/3"},
                             {2, 1, "1/2"}, {2, 3, "1/2"}, {3, 1, "1/5"}, {3, 2, "4/5"}, {4, 4, "0.1"},
                             {4, 5, "0.9"}, {5, 4, "0.3"}, {5, 5, "0.7"}};

static void check_vec0(const proper_exact_vec *x, const proper_exact_dtmc *e, const char *want, double approx, int line) {
    proper_strbuf s;
    proper_strbuf_init(&s);
    proper_exact_vec_format(x, e, 0, &s);
    if (!s.data || strcmp(s.data, want) != 0) {
        test__checks_failed++;
        printf("  line %d: got %s, expected %s\n", line, s.data ? s.data : "(null)", want);
    }
    if (approx == approx && fabs(proper_rat_to_double(&x->q[0]) - approx) > 4e-16 * fabs(approx)) {
        test__checks_failed++;
        printf("  line %d: %.17g is not PRISM's %.17g\n", line, proper_rat_to_double(&x->q[0]), approx);
    }
    proper_strbuf_free(&s);
}

static void test_prism_steady_bounded(void) {
    proper_dtmc m;
    proper_exact_dtmc e;
    proper_exact_vec x;
    proper_error err;
    proper_bitset a, b;
    uint32_t s2 = 2, s5 = 5, s14[2] = {1, 4}, s1 = 1, lt2[2] = {0, 1};
    proper_dtmc_init(&m);
    proper_exact_dtmc_init(&e);
    proper_exact_vec_init(&x);
    CHECK(build_r(MODEL_E, 13, 6, NULL, 0, NULL, 2, &m, &e) == 0);
    set_of(&a, 6, &s2, 1);
    CHECK(proper_exact_steady(&m, &e, &a, NULL, &x, NULL, &err) == 0);
    check_vec0(&x, &e, "52/207", NAN, __LINE__);
    proper_bitset_free(&a);
    set_of(&a, 6, &s5, 1);
    CHECK(proper_exact_steady(&m, &e, &a, NULL, &x, NULL, &err) == 0);
    check_vec0(&x, &e, "1/4", NAN, __LINE__);
    proper_bitset_free(&a);
    set_of(&a, 6, s14, 2);
    CHECK(proper_exact_steady(&m, &e, &a, NULL, &x, NULL, &err) == 0);
    check_vec0(&x, &e, "71/276", NAN, __LINE__);
    proper_bitset_free(&a);
    set_of(&a, 6, &s1, 1);
    CHECK(proper_exact_prob_next(&m, &e, &a, &x, &err) == 0);
    check_vec0(&x, &e, "1/2", 0.5, __LINE__);
    proper_bitset_free(&a);
    set_of(&a, 6, lt2, 2);
    set_of(&b, 6, &s2, 1);
    CHECK(proper_exact_prob_bounded_until(&m, &e, &a, &b, 3, &x, &err) == 0);
    check_vec0(&x, &e, "5/24", 0.20833333333333331, __LINE__);
    proper_bitset_free(&a);
    proper_bitset_free(&b);
    set_of(&b, 6, &s5, 1);
    CHECK(proper_exact_prob_bounded_until(&m, &e, NULL, &b, 5, &x, &err) == 0);
    CHECK_REL(proper_rat_to_double(&x.q[0]), 0.33139687500000004, 4e-16);
    /* with a cycle the exact iterates never repeat: a huge bound is refused */
    CHECK(proper_exact_prob_bounded_until(&m, &e, NULL, &b, 2147483647ul, &x, &err) == PROPER_ELIMIT);
    CHECK_CONTAINS(err.message, "beyond the 200 steps");
    proper_bitset_free(&b);
    CHECK(proper_exact_reward_cumulative(&m, &e, 0, 4, &x, &err) == 0);
    check_vec0(&x, &e, "182/25", 7.28, __LINE__);
    CHECK(proper_exact_reward_instant(&m, &e, 0, 3, &x, &err) == 0);
    check_vec0(&x, &e, "427/150", 2.8466666666666667, __LINE__);
    proper_exact_vec_free(&x);
    proper_exact_dtmc_free(&e);
    proper_dtmc_free(&m);
}

/* Bad input is refused with a message, never solved wrongly. */
static void test_errors(void) {
    proper_dtmc m;
    proper_exact_dtmc e;
    proper_exact_vec x;
    proper_error err;
    proper_bitset goal;
    proper_exact_opts o = proper_exact_opts_default();
    proper_rat v;
    uint32_t s3 = 3;
    proper_dtmc_init(&m);
    proper_exact_dtmc_init(&e);
    proper_exact_vec_init(&x);
    proper_rat_init(&v);
    CHECK(build(MODEL_B, 7, 4, NULL, 0, NULL, &m, &e) == 0);
    set_of(&goal, 4, &s3, 1);
    /* a row whose exact values do not sum to 1 (0.1 + 0.9 became 0.1 + 0.8) */
    parse_rat(&v, "0.8");
    CHECK(proper_exact_dtmc_set_prob(&e, 1, &v, &err) == 0);
    CHECK(proper_exact_dtmc_check(&e, &m, &err) == PROPER_EPROB);
    CHECK_CONTAINS(err.message, "state 0: exact probabilities sum to 9/10");
    parse_rat(&v, "0.9");
    proper_exact_dtmc_set_prob(&e, 1, &v, &err);
    CHECK(proper_exact_dtmc_check(&e, &m, &err) == 0);
    /* kinds and indices */
    CHECK(proper_exact_dtmc_set_prob(&e, 7, &v, &err) == PROPER_EINVAL);
    {
        proper_ratfun f;
        proper_ratfun_init(&f);
        CHECK(proper_exact_dtmc_set_fprob(&e, 0, &f, &err) == PROPER_EINVAL);
        proper_ratfun_free(&f);
    }
    /* the state limit (s!=2 U s=3 solves states 0 and 1) */
    o.max_states = 1;
    {
        uint32_t not2[3] = {0, 1, 3};
        proper_bitset a;
        set_of(&a, 4, not2, 3);
        CHECK(proper_exact_prob_until(&m, &e, &a, &goal, &o, &x, NULL, &err) == PROPER_ELIMIT);
        CHECK_CONTAINS(err.message, "more than the limit");
        proper_bitset_free(&a);
    }
    /* a CTMC's step bounds are not taken as time bounds */
    m.kind = PROPER_DTMC_KIND_CTMC;
    CHECK(proper_exact_prob_bounded_until(&m, &e, NULL, &goal, 2, &x, &err) == PROPER_EUNSUPPORTED);
    CHECK_CONTAINS(err.message, "time bounds are not rational");
    m.kind = PROPER_DTMC_KIND_DTMC;
    /* the output is left unchanged on failure */
    CHECK(x.n == 0);
    proper_rat_free(&v);
    proper_bitset_free(&goal);
    proper_exact_vec_free(&x);
    proper_exact_dtmc_free(&e);
    proper_dtmc_free(&m);
}

/* MODEL_E with parameters: the long-run and bounded operators as rational
 * functions equal dtmc.h's numeric solves of the instantiated chain at
 * random points (every state, not just the initial one). */
static void test_param_steady_bounded(void) {
    static const tr model[] = {{0, 0, "p/2"},   {0, 1, "1-p"},   {0, 4, "p/2"},   {1, 2, "q"},     {1, 3, "1-q"},
                               {2, 1, "1/2"},   {2, 3, "1/2"},   {3, 1, "p*q"},   {3, 2, "1-p*q"}, {4, 4, "q"},
                               {4, 5, "1-q"},   {5, 4, "0.3"},   {5, 5, "0.7"}};
    proper_dtmc m, mi;
    proper_exact_dtmc e;
    proper_exact_vec xs, xb, xc;
    proper_error err;
    proper_bitset phi, lt2;
    proper_rng rng;
    uint32_t s24[2] = {2, 4}, s01[2] = {0, 1}, s;
    double pt[2] = {0.4, 0.55};
    int it;
    proper_dtmc_init(&m);
    proper_dtmc_init(&mi);
    proper_exact_dtmc_init(&e);
    proper_exact_vec_init(&xs);
    proper_exact_vec_init(&xb);
    proper_exact_vec_init(&xc);
    proper_rng_seed(&rng, 17);
    CHECK(build_r(model, 13, 6, PQ, 2, pt, 2, &m, &e) == 0);
    set_of(&phi, 6, s24, 2);
    set_of(&lt2, 6, s01, 2);
    CHECK(proper_exact_steady(&m, &e, &phi, NULL, &xs, NULL, &err) == 0);
    CHECK(proper_exact_prob_bounded_until(&m, &e, &lt2, &phi, 4, &xb, &err) == 0);
    CHECK(proper_exact_reward_cumulative(&m, &e, 0, 3, &xc, &err) == 0);
    for (it = 0; it < 30; it++) {
        double p[2], ys[6], yb[6], yc[6];
        proper_dtmc_solve_opts o = proper_dtmc_solve_opts_default();
        p[0] = 0.05 + 0.9 * proper_rng_uniform(&rng);
        p[1] = 0.05 + 0.9 * proper_rng_uniform(&rng);
        CHECK(proper_exact_dtmc_instantiate(&e, &m, p, &mi, &err) == 0);
        CHECK(proper_dtmc_steady(&mi, &phi, &o, ys, &err) == 0);
        CHECK(proper_dtmc_prob_bounded_until(&mi, &lt2, &phi, 4, yb, &err) == 0);
        CHECK(proper_dtmc_reward_cumulative(&mi, &mi.rewards[0], 3, yc, &err) == 0);
        for (s = 0; s < 6; s++) {
            CHECK_ABS(proper_ratfun_eval_double(&xs.f[s], p, 2), ys[s], 1e-10);
            CHECK_ABS(proper_ratfun_eval_double(&xb.f[s], p, 2), yb[s], 1e-12);
            CHECK_ABS(proper_ratfun_eval_double(&xc.f[s], p, 2), yc[s], 1e-12);
        }
    }
    proper_bitset_free(&phi);
    proper_bitset_free(&lt2);
    proper_exact_vec_free(&xs);
    proper_exact_vec_free(&xb);
    proper_exact_vec_free(&xc);
    proper_exact_dtmc_free(&e);
    proper_dtmc_free(&m);
    proper_dtmc_free(&mi);
}

/* Random strings over the parsers' alphabet: each either parses (then it
 * prints to text that parses back to an equal value) or fails with a
 * position inside the text. */
static void test_parse_random(void) {
    static const char alphabet[] = "pq0123456789.+-*/^() e";
    proper_rng rng;
    int it, parsed = 0;
    proper_rng_seed(&rng, 31);
    for (it = 0; it < 3000; it++) {
        char text[24];
        size_t len = 1 + (size_t)proper_rng_below(&rng, 20), i;
        proper_ratfun f, g;
        proper_rat a, b;
        proper_error err;
        proper_strbuf sb;
        for (i = 0; i < len; i++) text[i] = alphabet[proper_rng_below(&rng, sizeof alphabet - 1)];
        text[len] = '\0';
        proper_ratfun_init(&f);
        proper_ratfun_init(&g);
        proper_rat_init(&a);
        proper_rat_init(&b);
        proper_strbuf_init(&sb);
        if (proper_ratfun_parse(&f, text, len, "t", PQ, 2, &err) == 0) {
            parsed++;
            proper_ratfun_format(&f, PQ, &sb);
            CHECK(proper_ratfun_parse(&g, sb.data, sb.len, "printed", PQ, 2, &err) == 0);
            CHECK(proper_ratfun_equal(&f, &g));
        } else {
            CHECK(err.line == 1 && err.col >= 1 && (size_t)err.col <= len + 1 && err.message[0]);
        }
        proper_strbuf_free(&sb);
        if (proper_rat_parse(&a, text, len, "t", &err) == 0) {
            proper_rat_format(&a, &sb);
            CHECK(proper_rat_parse(&b, sb.data, sb.len, "printed", &err) == 0);
            CHECK(proper_rat_cmp(&a, &b) == 0);
        } else {
            CHECK(err.col >= 1 && (size_t)err.col <= len + 1 && err.message[0]);
        }
        proper_strbuf_free(&sb);
        proper_ratfun_free(&f);
        proper_ratfun_free(&g);
        proper_rat_free(&a);
        proper_rat_free(&b);
    }
    CHECK(parsed > 30); /* the alphabet makes valid expressions often enough to test printing */
}

/* A CTMC from transitions with rates as text (functions of "p" when
 * parametric, else rationals), state rewards sr and transition rewards
 * tr_rew (per listed transition; both may be NULL) in reward structure 0,
 * initial state init. */
static int build_ctmc(const tr *t, size_t n, uint32_t n_states, int parametric, const double *sr,
                      const double *tr_rew, uint32_t init, proper_dtmc *m, proper_exact_dtmc *e) {
    static const char *const P[] = {"p"};
    proper_dtmc_builder b;
    proper_error err;
    proper_ratfun f;
    proper_rat q;
    double pt[1] = {1.25};
    size_t i, ri;
    uint32_t s;
    proper_dtmc_builder_init(&b);
    b.rates = 1;
    b.init = init;
    proper_ratfun_init(&f);
    proper_rat_init(&q);
    for (i = 0; i < n; i++) {
        if (proper_ratfun_parse(&f, t[i].value, strlen(t[i].value), "t", P, 1, &err) ||
            proper_dtmc_builder_add_transition(&b, t[i].src, t[i].dst, proper_ratfun_eval_double(&f, pt, 1), &err))
            return -1;
    }
    if (proper_dtmc_builder_finish(&b, n_states, m, &err)) return -1;
    if (proper_dtmc_add_reward(m, "r", sr != NULL, tr_rew != NULL, &ri, &err)) return -1;
    for (s = 0; sr && s < n_states; s++) m->rewards[ri].state[s] = sr[s];
    for (i = 0; tr_rew && i < n; i++)
        if (tr_rew[i] != 0.0 && proper_dtmc_reward_add_trans(m, ri, t[i].src, t[i].dst, tr_rew[i], &err)) return -1;
    if (proper_exact_dtmc_create(e, m, parametric ? 1 : 0, P, &err)) return -1;
    for (i = 0; i < n; i++) {
        uint64_t k;
        if (proper_ratfun_parse(&f, t[i].value, strlen(t[i].value), "t", P, 1, &err)) return -1;
        for (k = m->row[t[i].src]; k < m->row[t[i].src + 1]; k++)
            if (m->col[k] == t[i].dst) break;
        if (parametric ? proper_exact_dtmc_set_fprob(e, k, &f, &err)
                       : (!proper_ratfun_is_const(&f, &q) || proper_exact_dtmc_set_prob(e, k, &q, &err)))
            return -1;
    }
    proper_ratfun_free(&f);
    proper_rat_free(&q);
    if (proper_exact_dtmc_check(e, m, &err)) {
        printf("  check: %s\n", err.message);
        return -1;
    }
    return 0;
}

/* The value at the initial state of S=? [ s = target ] (what 0), R=? [ S ]
 * (1), P=? [ F s = target ] (2) or R=? [ F s = target ] (3), as printed. */
static char *ctmc_text(const proper_dtmc *m, const proper_exact_dtmc *e, int what, uint32_t target) {
    proper_exact_vec x;
    proper_bitset phi;
    proper_error err;
    proper_strbuf b;
    int rc;
    proper_exact_vec_init(&x);
    proper_strbuf_init(&b);
    set_of(&phi, m->n_states, &target, 1);
    rc = what == 0   ? proper_exact_steady(m, e, &phi, NULL, &x, NULL, &err)
         : what == 1 ? proper_exact_reward_steady(m, e, 0, NULL, &x, NULL, &err)
         : what == 2 ? proper_exact_prob_until(m, e, NULL, &phi, NULL, &x, NULL, &err)
                     : proper_exact_reward_reach(m, e, 0, &phi, NULL, &x, NULL, &err);
    if (rc) printf("  ctmc: %s\n", err.message);
    else proper_exact_vec_format(&x, e, m->init, &b);
    proper_bitset_free(&phi);
    proper_exact_vec_free(&x);
    return rc ? NULL : proper_strbuf_take(&b);
}

/* CTMCs exactly and parametrically, on the embedded chain with the mean
 * sojourns as PRISM's engines do. Expected values: PRISM 4.10.2-dev (built
 * from its repository), on models written for this test, except
 * ctmc_rewards.prism, which is PRISM's own regression model
 * (prism-tests/functionality/verify/param/ctmcs; its RESULT lines give
 * 2/x, (5*x+14)/(7*x), (12*x+14)/(7*x) and 0 for R{"a"}):
 *   cyc.sm: ctmc; const double p; s : [0..4] init 3;
 *     s=0 -> p:(s'=1); s=1 -> 2:(s'=2); s=2 -> 3:(s'=0);
 *     s=3 -> 1:(s'=0) + 1:(s'=4); s=4 -> 5:(s'=4);
 *     rewards "r": s=0 : 1; [] s=2 : 4; s=4 : 2;
 *   prism cyc.sm -pf 'S=? [ s=0 ]' -param p=1:10         -> 3/(5*p+6)
 *   prism cyc.sm -pf 'S=? [ s=0 ]' -exact -const p=3/2    -> 2/9
 *   prism cyc.sm -pf 'R{"r"}=? [ S ]' -param p=1:10       -> (17*p+9)/(5*p+6)
 *   prism cyc.sm -pf 'R{"r"}=? [ S ]' -exact -const p=3/2 -> 23/9
 *   prism cyc.sm -pf 'P=? [ F s=2 ]' -param p=1:10        -> 1/2
 *   prism cyc.sm -pf 'R{"r"}=? [ F s=4 ]' -param p=1:10   -> Inf
 *   prism ctmc_rewards.prism -pf 'R{"b"}=? [ F s>2 ]' -param x=1:10 -> (82*x+14)/(7*x)
 *   prism ctmc_rewards.prism -pf 'R{"b"}=? [ S ]' -param x=1:10     -> 186
 *   prism ctmc_rewards.prism -pf 'R{"a"}=? [ F s=2 ]' -exact -const x=5 -> 39/35 */
static void test_ctmc_exact_param(void) {
    static const tr CYC_P[] = {{0, 1, "p"}, {1, 2, "2"}, {2, 0, "3"}, {3, 0, "1"}, {3, 4, "1"}, {4, 4, "5"}};
    static const tr CYC_Q[] = {{0, 1, "3/2"}, {1, 2, "2"}, {2, 0, "3"}, {3, 0, "1"}, {3, 4, "1"}, {4, 4, "5"}};
    static const tr REW_P[] = {{0, 1, "p"}, {1, 2, "7"}, {2, 3, "11"}, {3, 3, "13"}};
    static const tr REW_Q[] = {{0, 1, "5"}, {1, 2, "7"}, {2, 3, "11"}, {3, 3, "13"}};
    const double cyc_sr[5] = {1, 0, 0, 0, 2}, cyc_tr[6] = {0, 0, 4, 0, 0, 0};
    const double a_sr[4] = {2, 5, 11, 0}, b_sr[4] = {2, 5, 11, 17}, b_tr[4] = {3, 7, 0, 13};
    proper_dtmc m;
    proper_exact_dtmc e;
    proper_exact_vec x;
    proper_bitset phi;
    proper_error err;
    uint32_t two = 2;
    CHECK(build_ctmc(CYC_P, 6, 5, 1, cyc_sr, cyc_tr, 3, &m, &e) == 0);
    CHECK_SOLVE(ctmc_text(&m, &e, 0, 0), "3/(5*p+6)");
    CHECK_SOLVE(ctmc_text(&m, &e, 1, 0), "(17*p+9)/(5*p+6)");
    CHECK_SOLVE(ctmc_text(&m, &e, 2, 2), "1/2");
    CHECK_SOLVE(ctmc_text(&m, &e, 3, 4), "Infinity");
    /* time bounds are not rational: refused, as PRISM's exact engine does */
    proper_exact_vec_init(&x);
    set_of(&phi, 5, &two, 1);
    CHECK_INT(proper_exact_prob_bounded_until(&m, &e, NULL, &phi, 3, &x, &err), PROPER_EUNSUPPORTED);
    proper_bitset_free(&phi);
    proper_exact_dtmc_free(&e);
    proper_dtmc_free(&m);
    CHECK(build_ctmc(CYC_Q, 6, 5, 0, cyc_sr, cyc_tr, 3, &m, &e) == 0);
    CHECK_SOLVE(ctmc_text(&m, &e, 0, 0), "2/9");
    CHECK_SOLVE(ctmc_text(&m, &e, 1, 0), "23/9");
    proper_exact_dtmc_free(&e);
    proper_dtmc_free(&m);
    CHECK(build_ctmc(REW_P, 4, 4, 1, a_sr, NULL, 0, &m, &e) == 0);
    CHECK_SOLVE(ctmc_text(&m, &e, 3, 1), "2/p");
    CHECK_SOLVE(ctmc_text(&m, &e, 3, 2), "(5*p+14)/(7*p)");
    CHECK_SOLVE(ctmc_text(&m, &e, 3, 3), "(12*p+14)/(7*p)");
    CHECK_SOLVE(ctmc_text(&m, &e, 1, 0), "0");
    proper_exact_dtmc_free(&e);
    proper_dtmc_free(&m);
    CHECK(build_ctmc(REW_P, 4, 4, 1, b_sr, b_tr, 0, &m, &e) == 0);
    CHECK_SOLVE(ctmc_text(&m, &e, 3, 3), "(82*p+14)/(7*p)");
    CHECK_SOLVE(ctmc_text(&m, &e, 1, 0), "186");
    proper_exact_dtmc_free(&e);
    proper_dtmc_free(&m);
    CHECK(build_ctmc(REW_Q, 4, 4, 0, a_sr, NULL, 0, &m, &e) == 0);
    CHECK_SOLVE(ctmc_text(&m, &e, 3, 2), "39/35");
    proper_exact_dtmc_free(&e);
    proper_dtmc_free(&m);
}

int main(void) {
    RUN(test_bigint_arith);
    RUN(test_bigint_gcd);
    RUN(test_bigint_text);
    RUN(test_rat);
    RUN(test_ratfun);
    RUN(test_parse_random);
    RUN(test_poly_gcd_random);
    RUN(test_poly_gcd_factors);
    RUN(test_ratfun_pow_limit);
    RUN(test_ratfun_pow_work);
    RUN(test_ratfun_long_sum);
    RUN(test_gamblers_ruin);
    RUN(test_random_vs_dense);
    RUN(test_prism_param);
    RUN(test_prism_exact);
    RUN(test_prism_steady_bounded);
    RUN(test_param_steady_bounded);
    RUN(test_errors);
    RUN(test_minpathsum_exact);
    RUN(test_minpathsum_param);
    RUN(test_direct_bounds_vs_exact);
    RUN(test_cumulative_bound_vs_exact);
    RUN(test_steady_distribution_bound_vs_exact);
    RUN(test_ctmc_exact_param);
    return test_summary();
}
