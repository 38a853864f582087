/* Fuzz target for the PMF readers: "value,prob" CSV with inferred and with
 * explicit width, and "count,prob" iteration counts. Any input either parses
 * into a PMF that keeps the invariants (non-negative bins, sum + tail == 1,
 * quantiles non-decreasing, mean inside the grid) and survives convolution,
 * truncation, a CSV round trip and a loop, or fails with an error whose
 * position lies inside the input. Without PROPER_LIBFUZZER, main replays
 * every file of directory argv[1]. */
#define PROPER_PMF_MAX_BINS ((size_t)1 << 16) /* keep each input small and fast */
#define PROPER_IMPLEMENTATION
#include "../../src/pmf.h"

#include <stdlib.h>
#include <string.h>

#define PROPER_FUZZ_NAME "fuzz_pmf_csv"

static void check_error(int rc, const proper_error *err, const char *text, size_t len) {
    size_t lines = 1, i;
    for (i = 0; i < len; i++) lines += text[i] == '\n';
    if (rc >= 0 || err->code != rc || err->message[0] == '\0') abort();
    if (err->line < 0 || (size_t)err->line > lines || err->col < 0) abort();
    if (err->line > 0 && strcmp(err->file, "fuzz.csv") != 0) abort();
}

static void check_pmf(const proper_pmf *x) {
    double prev = -INFINITY, mean;
    int q;
    if (proper_pmf_validate(x, NULL) != 0) abort();
    if (fabs(proper_pmf_mass(x) + x->tail - 1.0) > 1e-9) abort();
    mean = proper_pmf_mean(x);
    if (proper_pmf_mass(x) > 0.0 &&
        !(mean >= x->offset - 1e-9 * fabs(x->offset) - 1e-300 &&
          mean <= proper_pmf_value(x, x->n - 1) + 1e-9 * fabs(proper_pmf_value(x, x->n - 1)) + 1e-300))
        abort();
    for (q = 0; q <= 10; q++) {
        double v = proper_pmf_quantile(x, q / 10.0);
        if (v < prev) abort();
        prev = v;
    }
}

/* Write as CSV and read back: same grid and probabilities (to round-off). */
static void round_trip(const proper_pmf *x) {
    FILE *f = tmpfile();
    proper_pmf back;
    proper_error err;
    long n;
    char *text;
    if (!f) return;
    if (proper_pmf_write_csv(x, f, &err)) abort();
    n = ftell(f);
    rewind(f);
    text = (char *)malloc((size_t)n + 1);
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) abort();
    fclose(f);
    proper_pmf_init(&back);
    if (proper_pmf_parse_csv(&back, text, (size_t)n, "printed", x->width, &err) == 0) {
        if (fabs(proper_pmf_mass(&back) + back.tail - 1.0) > 1e-9) abort();
        proper_pmf_free(&back);
    }
    free(text);
}

static void exercise(const proper_pmf *x) {
    proper_pmf y;
    proper_error err;
    static const double iters[] = {0.25, 0.5, 0.25};
    check_pmf(x);
    proper_pmf_init(&y);
    if (x->n <= 4096 && proper_pmf_convolve(&y, x, x, &err) == 0) check_pmf(&y);
    if (x->n <= 512 && proper_pmf_loop(&y, x, iters, 3, &err) == 0) check_pmf(&y);
    if (proper_pmf_copy(&y, x, &err) == 0) {
        proper_pmf_truncate(&y, 1e-3);
        check_pmf(&y);
    }
    if (x->n <= 4096) round_trip(x);
    proper_pmf_free(&y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    static const double widths[] = {0.0, 0.25, 1.0};
    proper_pmf x;
    proper_error err;
    double *probs = NULL;
    size_t n = 0, w;
    int rc;
    proper_pmf_init(&x);
    for (w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        rc = proper_pmf_parse_csv(&x, text, size, "fuzz.csv", widths[w], &err);
        if (rc == 0) exercise(&x);
        else check_error(rc, &err, text, size);
        proper_pmf_free(&x);
    }
    rc = proper_pmf_parse_counts(text, size, "fuzz.csv", &probs, &n, &err);
    if (rc == 0) {
        double s = 0.0;
        size_t i;
        for (i = 0; i < n; i++) {
            if (!(probs[i] >= 0.0)) abort();
            s += probs[i];
        }
        if (fabs(s - 1.0) > 1e-12 || n == 0) abort(); /* zero-probability counts may trail */
        /* the parsed counts as a loop over the body {1: 1/2, 2: 1/2}, whose
         * mean is 1.5 E[J] exactly (more than PROPER_PMF_LOOP_SPLIT counts
         * take the halving path) */
        if (n <= 20000) {
            static const double bv[] = {1.0, 2.0}, bq[] = {0.5, 0.5};
            proper_pmf body, y;
            double ej = 0.0;
            proper_pmf_init(&body);
            proper_pmf_init(&y);
            for (i = 0; i < n; i++) ej += (double)i * probs[i];
            if (proper_pmf_from_values(&body, bv, bq, 2, 1.0, &err)) abort();
            if (proper_pmf_loop(&y, &body, probs, n, &err) == 0) {
                check_pmf(&y);
                if (fabs(proper_pmf_mean(&y) - 1.5 * ej) > 1e-9 * (1.0 + 1.5 * ej)) abort();
            } else if (err.code != PROPER_ELIMIT) {
                abort();
            }
            proper_pmf_free(&body);
            proper_pmf_free(&y);
        }
    } else {
        check_error(rc, &err, text, size);
    }
    PROPER_FREE(probs);
    return 0;
}

#include "replay.h"
