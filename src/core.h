/* core.h — proper's foundation: errors, allocation, growable arrays, RNG,
 * file reading and small parsing helpers.
 *
 * Every other module includes this one. Nothing here prints, exits or keeps
 * global mutable state.
 */
#ifndef PROPER_CORE_H
#define PROPER_CORE_H

/* The implementation uses POSIX (clocks, threads, processes) in trace.h and
 * backend.h; under -std=c99 those need _POSIX_C_SOURCE before the first
 * system header. Define PROPER_IMPLEMENTATION before including any system
 * header, or define _POSIX_C_SOURCE (200809L) yourself. */
#if defined(PROPER_IMPLEMENTATION) && !defined(_POSIX_C_SOURCE) && !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif

#include <stddef.h>
#include <stdint.h>

#define PROPER_VERSION_MAJOR 0
#define PROPER_VERSION_MINOR 1
#define PROPER_VERSION_PATCH 0
#define PROPER_VERSION_STRING "0.1.0"

#ifndef PROPER_API
#ifdef PROPER_STATIC
#define PROPER_API static
#else
#define PROPER_API extern
#endif
#endif

/* PROPER_MALLOC/REALLOC/FREE: define all three or none. */
#if defined(PROPER_MALLOC) && defined(PROPER_REALLOC) && defined(PROPER_FREE)
/* user-provided allocator */
#elif !defined(PROPER_MALLOC) && !defined(PROPER_REALLOC) && !defined(PROPER_FREE)
#include <stdlib.h>
#define PROPER_MALLOC(size) malloc(size)
#define PROPER_REALLOC(ptr, size) realloc(ptr, size)
#define PROPER_FREE(ptr) free(ptr)
#else
#error "proper: define all of PROPER_MALLOC, PROPER_REALLOC and PROPER_FREE, or none"
#endif

/* PROPER_ASSERT is for programmer errors only (a NULL where the API forbids
 * it), never for bad input. Define it to nothing to remove the checks. */
#ifndef PROPER_ASSERT
#include <assert.h>
#define PROPER_ASSERT(cond) assert(cond)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Status codes ------------------------------------------------------ */

enum proper_status {
    PROPER_OK = 0,
    PROPER_ENOMEM = -1,      /* an allocation failed */
    PROPER_EINVAL = -2,      /* an argument is invalid */
    PROPER_EPARSE = -3,      /* input text is malformed */
    PROPER_EIO = -4,         /* a file could not be read or written */
    PROPER_ERANGE = -5,      /* a value is outside its allowed range */
    PROPER_EPROB = -6,       /* probabilities negative, NaN, or not summing to 1 */
    PROPER_EUNDEFINED = -7,  /* an unknown name (symbol, label, constant) */
    PROPER_ELIMIT = -8,      /* a configured limit (states, size) was exceeded */
    PROPER_ENOCONV = -9,     /* an iterative method did not converge */
    PROPER_EUNSUPPORTED = -10, /* valid input that proper does not handle */
    PROPER_EBACKEND = -11,   /* an external tool failed or answered oddly */
    PROPER_ETIMEOUT = -12,   /* an external tool ran out of time */
    PROPER_EINFEASIBLE = -13,/* an optimisation problem has no solution */
    PROPER_EUNBOUNDED = -14, /* an optimisation problem is unbounded */
    PROPER_ESTATE = -15      /* the object is not in a state that allows this */
};

/* proper_result_string: a short English name for every status code. */
PROPER_API const char *proper_result_string(int code);

/* ---- Errors -------------------------------------------------------------
 * Functions that can fail take a `proper_error *err` (may be NULL) and fill
 * it on failure. Positions are 1-based; 0 means "unknown". */

#define PROPER_ERROR_MESSAGE_MAX 512
#define PROPER_ERROR_FILE_MAX 256

typedef struct proper_error {
    int code;
    int line, col;
    char file[PROPER_ERROR_FILE_MAX];
    char message[PROPER_ERROR_MESSAGE_MAX];
} proper_error;

/* Clear an error record (code 0, empty strings). */
PROPER_API void proper_error_clear(proper_error *err);

/* Fill `err` (if not NULL) with code, position and a printf-style message;
 * returns `code` so that callers can write `return proper_error_set(...)`. */
PROPER_API int proper_error_set(proper_error *err, int code, const char *file,
                                int line, int col, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Write "file:line:col: message" (parts that are unknown are left out) into
 * buf; returns buf. */
PROPER_API char *proper_error_format(const proper_error *err, char *buf, size_t size);

/* ---- Growable arrays ----------------------------------------------------
 * Any struct with `T *data; size_t len, cap;` members (or any three
 * variables) can grow with proper_reserve:
 *
 *     double *xs = NULL; size_t n = 0, cap = 0;
 *     if (proper_reserve(&xs, &cap, n + 1, sizeof *xs)) return PROPER_ENOMEM;
 *     xs[n++] = 3.0;
 *
 * proper_reserve makes room for at least `need` elements, growing the
 * capacity geometrically. On failure the old block stays valid. */
PROPER_API int proper_reserve(void *ptr_to_data, size_t *cap, size_t need, size_t elem_size);

/* Push one value; evaluates to 0 or PROPER_ENOMEM. */
#define PROPER_PUSH(data, len, cap, value)                                        \
    (proper_reserve(&(data), &(cap), (len) + 1, sizeof *(data)) ? PROPER_ENOMEM  \
                                                                 : ((data)[(len)++] = (value), 0))

/* Overflow-checked size arithmetic: 0 on success, PROPER_ENOMEM on overflow. */
PROPER_API int proper_size_mul(size_t a, size_t b, size_t *out);

/* Allocate n elements of size elem (overflow-checked), zeroed. NULL on failure. */
PROPER_API void *proper_calloc(size_t n, size_t elem);

/* ---- Random numbers ------------------------------------------------------
 * xoshiro256** (Blackman & Vigna 2018), seeded through splitmix64. The state
 * is passed explicitly; two generators never share anything. */

typedef struct proper_rng {
    uint64_t s[4];
} proper_rng;

PROPER_API void proper_rng_seed(proper_rng *rng, uint64_t seed);
PROPER_API uint64_t proper_rng_u64(proper_rng *rng);
/* Uniform double in [0, 1) with 53 random bits. */
PROPER_API double proper_rng_uniform(proper_rng *rng);
/* Uniform integer in [0, n), unbiased (Lemire's method); n > 0. */
PROPER_API uint64_t proper_rng_below(proper_rng *rng, uint64_t n);
/* Standard normal N(0,1) (Marsaglia polar method). */
PROPER_API double proper_rng_normal(proper_rng *rng);
/* Exponential with the given rate (> 0). */
PROPER_API double proper_rng_exponential(proper_rng *rng, double rate);
/* Index i with probability w[i] / sum(w); weights non-negative with a
 * positive sum (programmer error otherwise). Linear time; for many draws
 * from one distribution build a proper_alias table. */
PROPER_API size_t proper_rng_discrete(proper_rng *rng, const double *w, size_t n);
/* Jump ahead 2^128 draws: gives non-overlapping streams for parallel runs. */
PROPER_API void proper_rng_jump(proper_rng *rng);

/* Walker/Vose alias table: O(1) discrete sampling after O(n) set-up. */
typedef struct proper_alias {
    size_t n;
    double *prob;
    size_t *alias;
} proper_alias;

PROPER_API int proper_alias_init(proper_alias *a, const double *w, size_t n, proper_error *err);
PROPER_API size_t proper_alias_sample(const proper_alias *a, proper_rng *rng);
PROPER_API void proper_alias_free(proper_alias *a);

/* ---- Files and text -----------------------------------------------------*/

/* Read a whole file into a NUL-terminated buffer (free with PROPER_FREE).
 * `path` "-" is not special here: callers decide about stdin. */
PROPER_API int proper_read_file(const char *path, char **data, size_t *len, proper_error *err);

/* A cursor over text that tracks line and column for error messages. */
typedef struct proper_cursor {
    const char *p;    /* current position */
    const char *end;  /* one past the last character */
    const char *file; /* name used in errors (not owned); may be NULL */
    int line, col;    /* 1-based position of p */
} proper_cursor;

PROPER_API void proper_cursor_init(proper_cursor *c, const char *text, size_t len, const char *file);
/* Advance one character, keeping line/col right. */
PROPER_API void proper_cursor_advance(proper_cursor *c);
/* Skip spaces and tabs (not newlines). */
PROPER_API void proper_cursor_skip_blanks(proper_cursor *c);
/* Set `err` at the cursor's position; returns code. */
PROPER_API int proper_cursor_error(const proper_cursor *c, proper_error *err, int code,
                                   const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Parse a decimal floating-point number at the cursor: optional blanks,
 * optional sign, digits with an optional fraction and exponent, or
 * inf/infinity/nan (any case). Hexadecimal floats and locale decimal commas
 * are rejected. On success the cursor moves past the number; on failure it
 * does not move and `err` names the position and what was expected.
 * Conversion is correctly rounded (strtod on the validated span). */
PROPER_API int proper_parse_double(proper_cursor *c, double *out, proper_error *err);

/* Parse a (signed) decimal integer that fits in a long long. */
PROPER_API int proper_parse_int(proper_cursor *c, long long *out, proper_error *err);

/* Parse a whole string as one number (surrounding blanks allowed). `what`
 * names the value in error messages, e.g. "--width". */
PROPER_API int proper_parse_double_str(const char *s, double *out, const char *what, proper_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_CORE_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_CORE_IMPLEMENTATION
#define PROPER_CORE_IMPLEMENTATION

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

PROPER_API const char *proper_result_string(int code) {
    switch (code) {
    case PROPER_OK: return "ok";
    case PROPER_ENOMEM: return "out of memory";
    case PROPER_EINVAL: return "invalid argument";
    case PROPER_EPARSE: return "parse error";
    case PROPER_EIO: return "input/output error";
    case PROPER_ERANGE: return "value out of range";
    case PROPER_EPROB: return "invalid probabilities";
    case PROPER_EUNDEFINED: return "undefined name";
    case PROPER_ELIMIT: return "limit exceeded";
    case PROPER_ENOCONV: return "no convergence";
    case PROPER_EUNSUPPORTED: return "unsupported";
    case PROPER_EBACKEND: return "backend failed";
    case PROPER_ETIMEOUT: return "timed out";
    case PROPER_EINFEASIBLE: return "infeasible";
    case PROPER_EUNBOUNDED: return "unbounded";
    case PROPER_ESTATE: return "invalid state";
    default: return "unknown status";
    }
}

PROPER_API void proper_error_clear(proper_error *err) {
    if (!err) return;
    err->code = 0;
    err->line = err->col = 0;
    err->file[0] = '\0';
    err->message[0] = '\0';
}

PROPER_API int proper_error_set(proper_error *err, int code, const char *file, int line,
                                int col, const char *fmt, ...) {
    va_list ap;
    if (!err) return code;
    err->code = code;
    err->line = line;
    err->col = col;
    if (file) {
        size_t n = strlen(file);
        if (n >= sizeof err->file) n = sizeof err->file - 1;
        memcpy(err->file, file, n);
        err->file[n] = '\0';
    } else {
        err->file[0] = '\0';
    }
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return code;
}

PROPER_API char *proper_error_format(const proper_error *err, char *buf, size_t size) {
    char pos[PROPER_ERROR_FILE_MAX + 48];
    size_t k = 0;
    pos[0] = '\0';
    if (size == 0) return buf;
    if (err->file[0]) k += (size_t)snprintf(pos, sizeof pos, "%s:", err->file);
    if (err->line > 0) k += (size_t)snprintf(pos + k, sizeof pos - k, "%d:", err->line);
    if (err->line > 0 && err->col > 0) snprintf(pos + k, sizeof pos - k, "%d:", err->col);
    snprintf(buf, size, "%s%s%s", pos, pos[0] ? " " : "",
             err->message[0] ? err->message : proper_result_string(err->code));
    return buf;
}

/* ---- arrays ---- */

PROPER_API int proper_size_mul(size_t a, size_t b, size_t *out) {
    if (b != 0 && a > (size_t)-1 / b) return PROPER_ENOMEM;
    *out = a * b;
    return PROPER_OK;
}

PROPER_API void *proper_calloc(size_t n, size_t elem) {
    size_t bytes;
    void *p;
    if (proper_size_mul(n, elem, &bytes)) return NULL;
    p = PROPER_MALLOC(bytes ? bytes : 1);
    if (p) memset(p, 0, bytes);
    return p;
}

PROPER_API int proper_reserve(void *ptr_to_data, size_t *cap, size_t need, size_t elem_size) {
    void *data, *grown;
    size_t new_cap, bytes;
    if (need <= *cap) return PROPER_OK;
    new_cap = *cap ? *cap : 8;
    while (new_cap < need) {
        if (new_cap > (size_t)-1 / 2) { new_cap = need; break; }
        new_cap *= 2;
    }
    if (proper_size_mul(new_cap, elem_size, &bytes)) return PROPER_ENOMEM;
    memcpy(&data, ptr_to_data, sizeof data); /* read the caller's T* as void* */
    grown = PROPER_REALLOC(data, bytes);
    if (!grown) return PROPER_ENOMEM;
    memcpy(ptr_to_data, &grown, sizeof grown);
    *cap = new_cap;
    return PROPER_OK;
}

/* ---- RNG ---- */

static uint64_t proper__splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t proper__rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

PROPER_API void proper_rng_seed(proper_rng *rng, uint64_t seed) {
    int i;
    for (i = 0; i < 4; i++) rng->s[i] = proper__splitmix64(&seed);
}

PROPER_API uint64_t proper_rng_u64(proper_rng *rng) {
    uint64_t *s = rng->s;
    uint64_t result = proper__rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = proper__rotl(s[3], 45);
    return result;
}

PROPER_API double proper_rng_uniform(proper_rng *rng) {
    return (double)(proper_rng_u64(rng) >> 11) * (1.0 / 9007199254740992.0); /* 2^-53 */
}

PROPER_API uint64_t proper_rng_below(proper_rng *rng, uint64_t n) {
    /* Lemire's nearly-divisionless method, with 64x64->128 multiplication
     * done in two halves to stay within C99. */
    uint64_t x, hi, lo, threshold;
    PROPER_ASSERT(n > 0);
    threshold = (0 - n) % n;
    for (;;) {
        uint64_t a, b, c, d, mid1, mid2;
        x = proper_rng_u64(rng);
        a = x >> 32; b = x & 0xffffffffu; c = n >> 32; d = n & 0xffffffffu;
        mid1 = a * d;
        mid2 = b * c;
        lo = b * d;
        hi = a * c + (mid1 >> 32) + (mid2 >> 32);
        {
            uint64_t t = (mid1 & 0xffffffffu) + (mid2 & 0xffffffffu) + (lo >> 32);
            hi += t >> 32;
            lo = (t << 32) | (lo & 0xffffffffu);
        }
        if (lo >= threshold) return hi;
    }
}

PROPER_API double proper_rng_normal(proper_rng *rng) {
    double u, v, s;
    do {
        u = 2.0 * proper_rng_uniform(rng) - 1.0;
        v = 2.0 * proper_rng_uniform(rng) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    return u * sqrt(-2.0 * log(s) / s);
}

PROPER_API double proper_rng_exponential(proper_rng *rng, double rate) {
    /* 1 - U lies in (0, 1], so the logarithm is finite. */
    return -log(1.0 - proper_rng_uniform(rng)) / rate;
}

PROPER_API size_t proper_rng_discrete(proper_rng *rng, const double *w, size_t n) {
    double total = 0.0, u;
    size_t i, last = 0;
    for (i = 0; i < n; i++) total += w[i];
    PROPER_ASSERT(n > 0 && total > 0.0);
    u = proper_rng_uniform(rng) * total;
    for (i = 0; i < n; i++) {
        if (w[i] <= 0.0) continue;
        last = i;
        if (u < w[i]) return i;
        u -= w[i];
    }
    return last; /* round-off pushed u past the end: the last positive weight */
}

PROPER_API void proper_rng_jump(proper_rng *rng) {
    static const uint64_t jump[4] = {0x180ec6d33cfd0abaULL, 0xd5a61266f0c9392cULL,
                                     0xa9582618e03fc9aaULL, 0x39abdc4529b1661cULL};
    uint64_t t[4] = {0, 0, 0, 0};
    int i, b;
    for (i = 0; i < 4; i++)
        for (b = 0; b < 64; b++) {
            if (jump[i] & ((uint64_t)1 << b)) {
                t[0] ^= rng->s[0]; t[1] ^= rng->s[1]; t[2] ^= rng->s[2]; t[3] ^= rng->s[3];
            }
            proper_rng_u64(rng);
        }
    for (i = 0; i < 4; i++) rng->s[i] = t[i];
}

PROPER_API int proper_alias_init(proper_alias *a, const double *w, size_t n, proper_error *err) {
    double total = 0.0, *scaled;
    size_t *small, *large, ns = 0, nl = 0, i;
    a->n = 0; a->prob = NULL; a->alias = NULL;
    if (n == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "alias table of no outcomes");
    for (i = 0; i < n; i++) {
        if (!(w[i] >= 0.0) || isinf(w[i]))
            return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "weight %zu is %g (must be finite and >= 0)", i, w[i]);
        total += w[i];
    }
    if (!(total > 0.0)) return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "weights sum to zero");
    a->prob = (double *)proper_calloc(n, sizeof *a->prob);
    a->alias = (size_t *)proper_calloc(n, sizeof *a->alias);
    scaled = (double *)proper_calloc(n, sizeof *scaled);
    small = (size_t *)proper_calloc(n, sizeof *small);
    large = (size_t *)proper_calloc(n, sizeof *large);
    if (!a->prob || !a->alias || !scaled || !small || !large) {
        PROPER_FREE(a->prob); PROPER_FREE(a->alias); a->prob = NULL; a->alias = NULL;
        PROPER_FREE(scaled); PROPER_FREE(small); PROPER_FREE(large);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory building alias table");
    }
    /* Vose's method: split outcomes into those below and above the mean. */
    for (i = 0; i < n; i++) {
        scaled[i] = w[i] * (double)n / total;
        if (scaled[i] < 1.0) small[ns++] = i; else large[nl++] = i;
    }
    while (ns && nl) {
        size_t s = small[--ns], l = large[--nl];
        a->prob[s] = scaled[s];
        a->alias[s] = l;
        scaled[l] = (scaled[l] + scaled[s]) - 1.0;
        if (scaled[l] < 1.0) small[ns++] = l; else large[nl++] = l;
    }
    while (nl) { size_t l = large[--nl]; a->prob[l] = 1.0; a->alias[l] = l; }
    while (ns) { size_t s = small[--ns]; a->prob[s] = 1.0; a->alias[s] = s; }
    a->n = n;
    PROPER_FREE(scaled); PROPER_FREE(small); PROPER_FREE(large);
    return PROPER_OK;
}

PROPER_API size_t proper_alias_sample(const proper_alias *a, proper_rng *rng) {
    size_t i = (size_t)proper_rng_below(rng, a->n);
    return proper_rng_uniform(rng) < a->prob[i] ? i : a->alias[i];
}

PROPER_API void proper_alias_free(proper_alias *a) {
    PROPER_FREE(a->prob);
    PROPER_FREE(a->alias);
    a->prob = NULL; a->alias = NULL; a->n = 0;
}

/* ---- files ---- */

PROPER_API int proper_read_file(const char *path, char **data, size_t *len, proper_error *err) {
    FILE *f;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    *data = NULL;
    if (len) *len = 0;
    f = fopen(path, "rb");
    if (!f) return proper_error_set(err, PROPER_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
    for (;;) {
        size_t got;
        if (proper_reserve(&buf, &cap, n + 65536 + 1, 1)) {
            PROPER_FREE(buf);
            fclose(f);
            return proper_error_set(err, PROPER_ENOMEM, path, 0, 0, "out of memory reading file");
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        PROPER_FREE(buf);
        fclose(f);
        return proper_error_set(err, PROPER_EIO, path, 0, 0, "read error");
    }
    fclose(f);
    buf[n] = '\0';
    *data = buf;
    if (len) *len = n;
    return PROPER_OK;
}

/* ---- cursor ---- */

PROPER_API void proper_cursor_init(proper_cursor *c, const char *text, size_t len, const char *file) {
    c->p = text;
    c->end = text + len;
    c->file = file;
    c->line = 1;
    c->col = 1;
}

PROPER_API void proper_cursor_advance(proper_cursor *c) {
    if (c->p >= c->end) return;
    if (*c->p == '\n') { c->line++; c->col = 1; } else { c->col++; }
    c->p++;
}

PROPER_API void proper_cursor_skip_blanks(proper_cursor *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r')) proper_cursor_advance(c);
}

PROPER_API int proper_cursor_error(const proper_cursor *c, proper_error *err, int code, const char *fmt, ...) {
    va_list ap;
    char msg[PROPER_ERROR_MESSAGE_MAX];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return proper_error_set(err, code, c->file, c->line, c->col, "%s", msg);
}

static int proper__is_digit(char ch) { return ch >= '0' && ch <= '9'; }

static int proper__lower_eq(const char *p, const char *end, const char *word) {
    size_t i, n = strlen(word);
    if ((size_t)(end - p) < n) return 0;
    for (i = 0; i < n; i++) {
        char ch = p[i];
        if (ch >= 'A' && ch <= 'Z') ch = (char)(ch - 'A' + 'a');
        if (ch != word[i]) return 0;
    }
    return 1;
}

/* Length of a decimal number at p (0 if none): [+-]? (d+ (.d*)? | .d+) ([eE][+-]?d+)? */
static size_t proper__number_span(const char *p, const char *end) {
    const char *q = p;
    size_t digits = 0;
    if (q < end && (*q == '+' || *q == '-')) q++;
    while (q < end && proper__is_digit(*q)) { q++; digits++; }
    if (q < end && *q == '.') {
        q++;
        while (q < end && proper__is_digit(*q)) { q++; digits++; }
    }
    if (digits == 0) return 0;
    if (q < end && (*q == 'e' || *q == 'E')) {
        const char *e = q + 1;
        if (e < end && (*e == '+' || *e == '-')) e++;
        if (e < end && proper__is_digit(*e)) {
            while (e < end && proper__is_digit(*e)) e++;
            q = e;
        }
    }
    return (size_t)(q - p);
}

PROPER_API int proper_parse_double(proper_cursor *c, double *out, proper_error *err) {
    proper_cursor start;
    const char *p;
    size_t n;
    int neg = 0;
    proper_cursor_skip_blanks(c);
    start = *c;
    p = c->p;
    n = proper__number_span(p, c->end);
    if (n == 0) {
        const char *q = p;
        if (q < c->end && (*q == '+' || *q == '-')) { neg = *q == '-'; q++; }
        if (proper__lower_eq(q, c->end, "infinity")) n = (size_t)(q - p) + 8;
        else if (proper__lower_eq(q, c->end, "inf")) n = (size_t)(q - p) + 3;
        else if (proper__lower_eq(q, c->end, "nan")) n = (size_t)(q - p) + 3;
        if (n == 0) return proper_cursor_error(&start, err, PROPER_EPARSE, "expected a number");
        *out = proper__lower_eq(q, c->end, "nan") ? NAN : (neg ? -INFINITY : INFINITY);
    } else {
        char small[64], *buf = small;
        if (n >= sizeof small) {
            buf = (char *)PROPER_MALLOC(n + 1);
            if (!buf) return proper_cursor_error(&start, err, PROPER_ENOMEM, "out of memory");
        }
        memcpy(buf, p, n);
        buf[n] = '\0';
        *out = strtod(buf, NULL);
        if (buf != small) PROPER_FREE(buf);
        if (isinf(*out)) return proper_cursor_error(&start, err, PROPER_ERANGE, "number too large for a double");
    }
    while (n--) proper_cursor_advance(c);
    /* "1.5x" or "2.0.1" is not a number followed by something else. */
    if (c->p < c->end && (proper__is_digit(*c->p) || *c->p == '.' || (*c->p >= 'a' && *c->p <= 'z') ||
                          (*c->p >= 'A' && *c->p <= 'Z') || *c->p == '_')) {
        proper_cursor bad = *c;
        *c = start;
        return proper_cursor_error(&bad, err, PROPER_EPARSE, "unexpected '%c' in number", *bad.p);
    }
    return PROPER_OK;
}

PROPER_API int proper_parse_int(proper_cursor *c, long long *out, proper_error *err) {
    proper_cursor start;
    long long v = 0;
    int neg = 0, digits = 0;
    proper_cursor_skip_blanks(c);
    start = *c;
    if (c->p < c->end && (*c->p == '+' || *c->p == '-')) { neg = *c->p == '-'; proper_cursor_advance(c); }
    while (c->p < c->end && proper__is_digit(*c->p)) {
        int d = *c->p - '0';
        if (v > (9223372036854775807LL - d) / 10) {
            proper_cursor bad = start;
            *c = start;
            return proper_cursor_error(&bad, err, PROPER_ERANGE, "integer too large");
        }
        v = v * 10 + d;
        digits++;
        proper_cursor_advance(c);
    }
    if (!digits) {
        *c = start;
        return proper_cursor_error(&start, err, PROPER_EPARSE, "expected an integer");
    }
    if (c->p < c->end && (*c->p == '.' || *c->p == 'e' || *c->p == 'E' || *c->p == '_' ||
                          (*c->p >= 'a' && *c->p <= 'z') || (*c->p >= 'A' && *c->p <= 'Z'))) {
        proper_cursor bad = *c;
        *c = start;
        return proper_cursor_error(&bad, err, PROPER_EPARSE, "expected an integer, found '%c'", *bad.p);
    }
    *out = neg ? -v : v;
    return PROPER_OK;
}

PROPER_API int proper_parse_double_str(const char *s, double *out, const char *what, proper_error *err) {
    proper_cursor c;
    proper_error e;
    proper_cursor_init(&c, s, strlen(s), NULL);
    if (proper_parse_double(&c, out, &e))
        return proper_error_set(err, e.code, NULL, 0, 0, "%s: %s (got '%s')", what, e.message, s);
    proper_cursor_skip_blanks(&c);
    if (c.p != c.end)
        return proper_error_set(err, PROPER_EPARSE, NULL, 0, 0, "%s: trailing characters in number '%s'", what, s);
    return PROPER_OK;
}

#endif /* PROPER_CORE_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
