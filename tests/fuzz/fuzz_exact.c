/* Fuzz target for exact.h's parsers: the first byte chooses the reader
 * (even: a rational, odd: a rational function of p, q and r), the rest is
 * the text. Any input either parses or fails with an error inside the input;
 * whatever parses must print to text that parses back to an equal value
 * (round trip), and a function's derivatives and values must not crash.
 * Smaller limits than the defaults keep each input fast. Without
 * PROPER_LIBFUZZER, main replays every file of directory argv[1]. */
#define PROPER_EXACT_MAX_TERMS 2000
#define PROPER_EXACT_MAX_POWER 64
#define PROPER_EXACT_MAX_LIMBS 512
#define PROPER_EXACT_MAX_EXP10 2000
#define PROPER_EXACT_MAX_GCD_WORK 2000000ull
#define PROPER_EXACT_MAX_WORK 20000000ull
#define PROPER_IMPLEMENTATION
#include "../../src/exact.h"

#include <stdlib.h>
#include <string.h>

static void check_error(const proper_error *err, const uint8_t *data, size_t size) {
    size_t lines = 1, i;
    for (i = 0; i < size; i++) lines += data[i] == '\n';
    if (err->code == PROPER_ENOMEM || err->code == PROPER_ELIMIT) return;
    if (err->line < 1 || (size_t)err->line > lines || err->col < 1 || err->message[0] == '\0') abort();
}

static void fuzz_rat(const char *text, size_t len) {
    proper_rat a, b;
    proper_error err;
    proper_strbuf s;
    proper_rat_init(&a);
    proper_rat_init(&b);
    proper_strbuf_init(&s);
    if (proper_rat_parse(&a, text, len, "fuzz", &err) == PROPER_OK) {
        double d = proper_rat_to_double(&a);
        proper_rat_format(&a, &s);
        if (s.failed) abort();
        if (proper_rat_parse(&b, s.data, s.len, "printed", &err)) abort();
        if (proper_rat_cmp(&a, &b) != 0) abort();
        /* the double is the value's nearest or next to it */
        if (d == d && d - d == 0 && !proper_rat_is_zero(&a)) {
            if (proper_rat_from_double(&b, d)) abort();
            if ((proper_rat_sign(&b) != proper_rat_sign(&a)) && d != 0) abort();
        }
    } else {
        check_error(&err, (const uint8_t *)text, len);
    }
    proper_strbuf_free(&s);
    proper_rat_free(&a);
    proper_rat_free(&b);
}

static void fuzz_fun(const char *text, size_t len) {
    static const char *const names[] = {"p", "q", "r"};
    proper_ratfun a, b, d;
    proper_error err;
    proper_strbuf s;
    proper_ratfun_init(&a);
    proper_ratfun_init(&b);
    proper_ratfun_init(&d);
    proper_strbuf_init(&s);
    if (proper_ratfun_parse(&a, text, len, "fuzz", names, 3, &err) == PROPER_OK) {
        double pt[3] = {0.25, 0.5, 0.75};
        int rc;
        proper_ratfun_format(&a, names, &s);
        /* the round trip reads back only texts the fuzzer could have fed
         * itself (at most 4096 bytes): a longer print is a larger function
         * whose reading is legitimate work of seconds sanitised (a 1379-term
         * denominator printed in 29.5 kB: its monomials are read as rational
         * functions, 16,000 products each with its cancelling gcds, 0.35 s
         * at -O1 and 5.3 s sanitised) */
        if (!s.failed && s.len <= 4096) {
            rc = proper_ratfun_parse(&b, s.data, s.len, "printed", names, 3, &err);
            if (rc && rc != PROPER_ELIMIT && rc != PROPER_ENOMEM) abort();
            if (!rc && !proper_ratfun_equal(&a, &b)) abort();
        }
        (void)proper_ratfun_eval_double(&a, pt, 3);
        /* the derivative of a large function is legitimate work of seconds,
         * so only smaller ones are differentiated here.  The quotient rule
         * forms num'*den - num*den' over den^2 and then cancels their gcd,
         * so the work grows with den * (num + den) term products, not with
         * num * den: 348 / 321 terms took 5 s at -O2, and 7 / 260 terms
         * took 4.6 s sanitised (0.3 s at -O2) */
        if ((a.den.n_terms + 1) * (a.num.n_terms + a.den.n_terms + 1) <= 20000 &&
            proper_ratfun_deriv(&d, &a, 1) == PROPER_OK)
            (void)proper_ratfun_eval_double(&d, pt, 3);
    } else {
        check_error(&err, (const uint8_t *)text, len);
    }
    proper_strbuf_free(&s);
    proper_ratfun_free(&a);
    proper_ratfun_free(&b);
    proper_ratfun_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0 || size > 4096) return 0;
    if (data[0] & 1) fuzz_fun((const char *)data + 1, size - 1);
    else fuzz_rat((const char *)data + 1, size - 1);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_exact"
#include "replay.h"
