/* core.h — proper's foundation: errors, allocation, growable arrays,
 * strings and a string builder, interning, number parsing and shortest
 * round-trip formatting, a small dense LU, RNG and file reading.
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

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define PROPER_VERSION_MAJOR 0
#define PROPER_VERSION_MINOR 8
#define PROPER_VERSION_PATCH 5
#define PROPER_VERSION_STRING "0.8.5"

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

/* proper_error_setv: proper_error_set with a va_list, for modules' own
 * error helpers (a parser's "error at this token"). Returns `code`. */
PROPER_API int proper_error_setv(proper_error *err, int code, const char *file, int line, int col,
                                 const char *fmt, va_list ap);

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

/* ---- Strings --------------------------------------------------------------
 * Copies are NUL-terminated and freed with PROPER_FREE; NULL means out of
 * memory. */
PROPER_API char *proper_strdup(const char *s);
PROPER_API char *proper_strndup(const char *s, size_t n);

/* A growable NUL-terminated string. Zero-initialised (or proper_strbuf_init)
 * it is empty; every append keeps `data` NUL-terminated. An append that runs
 * out of memory sets `failed` and makes every later append a no-op, so a
 * writer can append freely and check once at the end:
 *
 *     proper_strbuf b; proper_strbuf_init(&b);
 *     proper_strbuf_printf(&b, "%zu states\n", n);
 *     if (b.failed) ...; use b.data, b.len; proper_strbuf_free(&b);
 */
typedef struct proper_strbuf {
    char *data;  /* NULL until the first append */
    size_t len, cap;
    int failed;  /* an append ran out of memory */
} proper_strbuf;

PROPER_API void proper_strbuf_init(proper_strbuf *b);
PROPER_API void proper_strbuf_free(proper_strbuf *b);
PROPER_API void proper_strbuf_append(proper_strbuf *b, const char *s, size_t n);
PROPER_API void proper_strbuf_puts(proper_strbuf *b, const char *s);
PROPER_API void proper_strbuf_printf(proper_strbuf *b, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
PROPER_API void proper_strbuf_vprintf(proper_strbuf *b, const char *fmt, va_list ap);
/* Append the shortest decimal that reads back as v (proper_format_double). */
PROPER_API void proper_strbuf_double(proper_strbuf *b, double v);
/* Hand over the text (never NULL on success: "" when empty) and leave b
 * empty; NULL if an append had failed (b is then freed). */
PROPER_API char *proper_strbuf_take(proper_strbuf *b);

/* ---- Numbers as text --------------------------------------------------------
 * proper_format_double writes the shortest of %.15g, %.16g, %.17g that
 * strtod reads back as exactly v (so 0.1 prints as "0.1", 1e300 as
 * "1e+300", 100 as "100"); -0 prints as "0"; non-finite values as "inf",
 * "-inf" and "nan". `buf` needs PROPER_DOUBLE_CHARS bytes. Returns buf. */
#define PROPER_DOUBLE_CHARS 32
PROPER_API char *proper_format_double(char *buf, double v);

/* ---- Interning: names to dense indices ---------------------------------------
 * An open-addressing hash table (FNV-1a, linear probing, load <= 1/2) that
 * gives each distinct name the next index 0, 1, 2, ... and owns a copy of
 * it in names[index]. */
typedef struct proper_intern {
    char **names;    /* names[i]: the i-th distinct name, NUL-terminated */
    size_t len, cap; /* len names */
    size_t *slot;    /* index + 1, or 0 for an empty slot */
    size_t nslot;    /* a power of two, or 0 before the first add */
} proper_intern;

#define PROPER_INTERN_NONE ((size_t)-1)

PROPER_API void proper_intern_init(proper_intern *t);
PROPER_API void proper_intern_free(proper_intern *t);
/* Index of the name s[0..n), or PROPER_INTERN_NONE. */
PROPER_API size_t proper_intern_find(const proper_intern *t, const char *s, size_t n);
/* Index of s[0..n), added if new (*added = 1, else 0; added may be NULL).
 * Returns 0 or PROPER_ENOMEM (the table is then unchanged). */
PROPER_API int proper_intern_add(proper_intern *t, const char *s, size_t n, size_t *index, int *added);

/* FNV-1a: continue hash h over n bytes; start with PROPER_FNV_OFFSET. */
#define PROPER_FNV_OFFSET 14695981039346656037ULL
PROPER_API uint64_t proper_fnv1a(uint64_t h, const void *data, size_t n);

/* ---- Small dense linear algebra --------------------------------------------
 * LU with partial pivoting of the n x n row-major matrix a, in place
 * (unit lower factor below the diagonal, upper factor on and above it);
 * piv[k] is the row swapped with row k at step k. Returns PROPER_ERANGE
 * (a left half-done) when no candidate pivot at some step exceeds `tiny` in
 * magnitude (use 0 to fail only on exact singularity) or one is NaN. */
PROPER_API int proper_lu_factor(double *a, size_t n, size_t *piv, double tiny);
/* Solve A x = b with the factors of proper_lu_factor; b is overwritten by x. */
PROPER_API void proper_lu_solve(const double *lu, size_t n, const size_t *piv, double *b);

/* ---- Bit sets ----------------------------------------------------------------
 * A fixed-size set of bits 0..n-1 (sets of states, for instance). Bits past
 * n in the last word are always 0, so whole-word operations stay exact.
 * proper_bitset_create and proper_bitset_copy follow the output rule: `b`
 * (`dst`) is initialised or holds an earlier set, which is released on
 * success; on failure it is left unchanged. */
typedef struct proper_bitset {
    size_t n;        /* number of bits */
    uint64_t *words; /* (n + 63) / 64 words, NULL when n == 0 */
} proper_bitset;

/* The empty set of 0 bits; allocates nothing. */
PROPER_API void proper_bitset_init(proper_bitset *b);
/* A set of n bits, all clear. PROPER_ENOMEM when out of memory. */
PROPER_API int proper_bitset_create(proper_bitset *b, size_t n, proper_error *err);
/* Release; leaves b as after proper_bitset_init. */
PROPER_API void proper_bitset_free(proper_bitset *b);
/* dst = src (dst may be src). */
PROPER_API int proper_bitset_copy(proper_bitset *dst, const proper_bitset *src, proper_error *err);
/* Bit i (i < n, checked with PROPER_ASSERT). */
PROPER_API void proper_bitset_set(proper_bitset *b, size_t i);
PROPER_API void proper_bitset_clear(proper_bitset *b, size_t i);
PROPER_API int proper_bitset_get(const proper_bitset *b, size_t i);
/* Number of bits set. */
PROPER_API size_t proper_bitset_count(const proper_bitset *b);
/* In place: a = a & b, a = a | b, a = !a (both of the same size n). */
PROPER_API void proper_bitset_and(proper_bitset *a, const proper_bitset *b);
PROPER_API void proper_bitset_or(proper_bitset *a, const proper_bitset *b);
PROPER_API void proper_bitset_not(proper_bitset *a);
/* Fast inline test for hot loops: no bounds check. */
#define PROPER_BITSET_GET(b, i) ((int)(((b)->words[(size_t)(i) >> 6] >> ((size_t)(i) & 63)) & 1u))

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

/* An empty table (n = 0): nothing allocated, safe to free. */
PROPER_API void proper_alias_init(proper_alias *a);
/* Build the table of the weights w[0..n) (finite, >= 0, positive sum) into
 * an initialised table: an earlier table is released on success, and the
 * table is unchanged on failure. */
PROPER_API int proper_alias_create(proper_alias *a, const double *w, size_t n, proper_error *err);
/* Index i with probability w[i] / sum(w); the table must not be empty. */
PROPER_API size_t proper_alias_sample(const proper_alias *a, proper_rng *rng);
/* Release the table; it is then empty. */
PROPER_API void proper_alias_free(proper_alias *a);

/* ---- Files and text -----------------------------------------------------*/

/* Largest file proper_read_file accepts, in bytes: a larger file (or an
 * endless one such as /dev/zero) fails with PROPER_ELIMIT after reading at
 * most this much, instead of exhausting memory. */
#ifndef PROPER_MAX_FILE_BYTES
#define PROPER_MAX_FILE_BYTES ((size_t)1 << 30)
#endif

/* Read a whole file into a NUL-terminated buffer (free with PROPER_FREE).
 * `path` "-" is not special here: callers decide about stdin. Files over
 * PROPER_MAX_FILE_BYTES fail with PROPER_ELIMIT. */
PROPER_API int proper_read_file(const char *path, char **data, size_t *len, proper_error *err);

/* Every reader accepts a UTF-8 byte order mark at the start of its text, as
 * some editors write one, and treats it as no text: this advances *text past
 * it and shortens *len (columns then count from after it). Returns 1 when
 * one was skipped, else 0. */
PROPER_API int proper_skip_bom(const char **text, size_t *len);

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
    va_start(ap, fmt);
    proper_error_setv(err, code, file, line, col, fmt, ap);
    va_end(ap);
    return code;
}

PROPER_API int proper_error_setv(proper_error *err, int code, const char *file, int line, int col,
                                 const char *fmt, va_list ap) {
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
    vsnprintf(err->message, sizeof err->message, fmt, ap);
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

/* ---- strings ---- */

PROPER_API char *proper_strndup(const char *s, size_t n) {
    char *copy = (char *)PROPER_MALLOC(n + 1);
    if (!copy) return NULL;
    memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}

PROPER_API char *proper_strdup(const char *s) { return proper_strndup(s, strlen(s)); }

PROPER_API void proper_strbuf_init(proper_strbuf *b) { memset(b, 0, sizeof *b); }

PROPER_API void proper_strbuf_free(proper_strbuf *b) {
    PROPER_FREE(b->data);
    proper_strbuf_init(b);
}

/* Room for `extra` more characters and the NUL. */
static int proper__core_strbuf_room(proper_strbuf *b, size_t extra) {
    if (b->failed) return 0;
    if (extra > (size_t)-1 - b->len - 1 || proper_reserve(&b->data, &b->cap, b->len + extra + 1, 1)) {
        b->failed = 1;
        return 0;
    }
    return 1;
}

PROPER_API void proper_strbuf_append(proper_strbuf *b, const char *s, size_t n) {
    if (!proper__core_strbuf_room(b, n)) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

PROPER_API void proper_strbuf_puts(proper_strbuf *b, const char *s) { proper_strbuf_append(b, s, strlen(s)); }

PROPER_API void proper_strbuf_vprintf(proper_strbuf *b, const char *fmt, va_list ap) {
    va_list again;
    int n;
    if (!proper__core_strbuf_room(b, 64)) return;
    va_copy(again, ap);
    n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
    if (n < 0) b->failed = 1;
    else if ((size_t)n >= b->cap - b->len && proper__core_strbuf_room(b, (size_t)n))
        vsnprintf(b->data + b->len, b->cap - b->len, fmt, again);
    va_end(again);
    if (n >= 0 && !b->failed) b->len += (size_t)n;
    else if (b->data) b->data[b->len] = '\0';
}

PROPER_API void proper_strbuf_printf(proper_strbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    proper_strbuf_vprintf(b, fmt, ap);
    va_end(ap);
}

PROPER_API void proper_strbuf_double(proper_strbuf *b, double v) {
    char text[PROPER_DOUBLE_CHARS];
    proper_strbuf_puts(b, proper_format_double(text, v));
}

PROPER_API char *proper_strbuf_take(proper_strbuf *b) {
    char *text;
    if (b->failed) {
        proper_strbuf_free(b);
        return NULL;
    }
    text = b->data ? b->data : proper_strdup("");
    proper_strbuf_init(b);
    return text;
}

PROPER_API char *proper_format_double(char *buf, double v) {
    int digits;
    if (v != v) return strcpy(buf, "nan");
    if (isinf(v)) return strcpy(buf, v > 0 ? "inf" : "-inf");
    if (v == 0.0) return strcpy(buf, "0");
    for (digits = 15; digits <= 17; digits++) {
        snprintf(buf, PROPER_DOUBLE_CHARS, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) break;
    }
    return buf;
}

/* ---- interning ---- */

PROPER_API uint64_t proper_fnv1a(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = (const unsigned char *)data;
    size_t i;
    for (i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

PROPER_API void proper_intern_init(proper_intern *t) { memset(t, 0, sizeof *t); }

PROPER_API void proper_intern_free(proper_intern *t) {
    size_t i;
    for (i = 0; i < t->len; i++) PROPER_FREE(t->names[i]);
    PROPER_FREE(t->names);
    PROPER_FREE(t->slot);
    proper_intern_init(t);
}

/* The slot holding s[0..n), or the empty slot where it would go. */
static size_t proper__core_intern_slot(const size_t *slot, size_t nslot, char *const *names, const char *s,
                                       size_t n) {
    size_t mask = nslot - 1, i = (size_t)proper_fnv1a(PROPER_FNV_OFFSET, s, n) & mask;
    for (;; i = (i + 1) & mask) {
        const char *other;
        if (!slot[i]) return i;
        other = names[slot[i] - 1];
        if (strncmp(other, s, n) == 0 && other[n] == '\0') return i;
    }
}

PROPER_API size_t proper_intern_find(const proper_intern *t, const char *s, size_t n) {
    size_t i;
    if (!t->nslot) return PROPER_INTERN_NONE;
    i = proper__core_intern_slot(t->slot, t->nslot, t->names, s, n);
    return t->slot[i] ? t->slot[i] - 1 : PROPER_INTERN_NONE;
}

static int proper__core_intern_grow(proper_intern *t) {
    size_t nslot = t->nslot ? t->nslot * 2 : 16, i, *slot;
    if (nslot < t->nslot) return PROPER_ENOMEM;
    slot = (size_t *)proper_calloc(nslot, sizeof *slot);
    if (!slot) return PROPER_ENOMEM;
    for (i = 0; i < t->len; i++)
        slot[proper__core_intern_slot(slot, nslot, t->names, t->names[i], strlen(t->names[i]))] = i + 1;
    PROPER_FREE(t->slot);
    t->slot = slot;
    t->nslot = nslot;
    return PROPER_OK;
}

PROPER_API int proper_intern_add(proper_intern *t, const char *s, size_t n, size_t *index, int *added) {
    size_t i;
    char *copy;
    if (added) *added = 0;
    if ((*index = proper_intern_find(t, s, n)) != PROPER_INTERN_NONE) return PROPER_OK;
    if (2 * (t->len + 1) > t->nslot && proper__core_intern_grow(t)) return PROPER_ENOMEM;
    if (proper_reserve(&t->names, &t->cap, t->len + 1, sizeof *t->names)) return PROPER_ENOMEM;
    if (!(copy = proper_strndup(s, n))) return PROPER_ENOMEM;
    i = proper__core_intern_slot(t->slot, t->nslot, t->names, s, n);
    t->names[t->len] = copy;
    t->slot[i] = ++t->len;
    *index = t->len - 1;
    if (added) *added = 1;
    return PROPER_OK;
}

/* ---- dense LU ---- */

PROPER_API int proper_lu_factor(double *a, size_t n, size_t *piv, double tiny) {
    size_t i, j, k;
    for (k = 0; k < n; k++) {
        size_t best = k;
        double big = fabs(a[k * n + k]);
        for (i = k + 1; i < n; i++)
            if (fabs(a[i * n + k]) > big) { big = fabs(a[i * n + k]); best = i; }
        if (!(big > tiny)) return PROPER_ERANGE; /* also NaN */
        piv[k] = best;
        if (best != k)
            for (j = 0; j < n; j++) {
                double t = a[k * n + j];
                a[k * n + j] = a[best * n + j];
                a[best * n + j] = t;
            }
        for (i = k + 1; i < n; i++) {
            double f = a[i * n + k] / a[k * n + k];
            a[i * n + k] = f;
            if (f == 0.0) continue;
            for (j = k + 1; j < n; j++) a[i * n + j] -= f * a[k * n + j];
        }
    }
    return PROPER_OK;
}

PROPER_API void proper_lu_solve(const double *lu, size_t n, const size_t *piv, double *b) {
    size_t i, j, k;
    /* the factorisation swapped whole rows: apply every swap, then L, then U */
    for (k = 0; k < n; k++)
        if (piv[k] != k) { double t = b[k]; b[k] = b[piv[k]]; b[piv[k]] = t; }
    for (k = 0; k < n; k++)
        for (i = k + 1; i < n; i++) b[i] -= lu[i * n + k] * b[k];
    for (i = n; i-- > 0;) {
        double s = b[i];
        for (j = i + 1; j < n; j++) s -= lu[i * n + j] * b[j];
        b[i] = s / lu[i * n + i];
    }
}

/* ---- bit sets ---- */

static size_t proper__core_bitset_words(size_t n) { return n / 64 + (n % 64 != 0); }

PROPER_API void proper_bitset_init(proper_bitset *b) {
    b->n = 0;
    b->words = NULL;
}

PROPER_API int proper_bitset_create(proper_bitset *b, size_t n, proper_error *err) {
    uint64_t *words = NULL;
    if (n && !(words = (uint64_t *)proper_calloc(proper__core_bitset_words(n), sizeof *words)))
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory (a set of %lu bits)", (unsigned long)n);
    PROPER_FREE(b->words);
    b->n = n;
    b->words = words;
    return PROPER_OK;
}

PROPER_API void proper_bitset_free(proper_bitset *b) {
    PROPER_FREE(b->words);
    proper_bitset_init(b);
}

PROPER_API int proper_bitset_copy(proper_bitset *dst, const proper_bitset *src, proper_error *err) {
    proper_bitset t;
    if (dst == src) return PROPER_OK;
    proper_bitset_init(&t);
    if (proper_bitset_create(&t, src->n, err)) return PROPER_ENOMEM;
    if (src->n) memcpy(t.words, src->words, proper__core_bitset_words(src->n) * sizeof *t.words);
    proper_bitset_free(dst);
    *dst = t;
    return PROPER_OK;
}

PROPER_API void proper_bitset_set(proper_bitset *b, size_t i) {
    PROPER_ASSERT(i < b->n);
    b->words[i >> 6] |= (uint64_t)1 << (i & 63);
}

PROPER_API void proper_bitset_clear(proper_bitset *b, size_t i) {
    PROPER_ASSERT(i < b->n);
    b->words[i >> 6] &= ~((uint64_t)1 << (i & 63));
}

PROPER_API int proper_bitset_get(const proper_bitset *b, size_t i) {
    PROPER_ASSERT(i < b->n);
    return PROPER_BITSET_GET(b, i);
}

static unsigned proper__core_popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (unsigned)((x * 0x0101010101010101ULL) >> 56);
}

PROPER_API size_t proper_bitset_count(const proper_bitset *b) {
    size_t i, c = 0, w = proper__core_bitset_words(b->n);
    for (i = 0; i < w; i++) c += proper__core_popcount64(b->words[i]);
    return c;
}

PROPER_API void proper_bitset_and(proper_bitset *a, const proper_bitset *b) {
    size_t i, w = proper__core_bitset_words(a->n);
    PROPER_ASSERT(a->n == b->n);
    for (i = 0; i < w; i++) a->words[i] &= b->words[i];
}

PROPER_API void proper_bitset_or(proper_bitset *a, const proper_bitset *b) {
    size_t i, w = proper__core_bitset_words(a->n);
    PROPER_ASSERT(a->n == b->n);
    for (i = 0; i < w; i++) a->words[i] |= b->words[i];
}

PROPER_API void proper_bitset_not(proper_bitset *a) {
    size_t i, w = proper__core_bitset_words(a->n);
    for (i = 0; i < w; i++) a->words[i] = ~a->words[i];
    if (a->n % 64) a->words[a->n / 64] &= ((uint64_t)1 << (a->n % 64)) - 1;
}

/* ---- RNG ---- */

static uint64_t proper__core_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t proper__core_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

PROPER_API void proper_rng_seed(proper_rng *rng, uint64_t seed) {
    int i;
    for (i = 0; i < 4; i++) rng->s[i] = proper__core_splitmix64(&seed);
}

PROPER_API uint64_t proper_rng_u64(proper_rng *rng) {
    uint64_t *s = rng->s;
    uint64_t result = proper__core_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = proper__core_rotl(s[3], 45);
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

PROPER_API void proper_alias_init(proper_alias *a) {
    a->n = 0;
    a->prob = NULL;
    a->alias = NULL;
}

PROPER_API int proper_alias_create(proper_alias *out, const double *w, size_t n, proper_error *err) {
    double total = 0.0, *scaled;
    size_t *small, *large, ns = 0, nl = 0, i;
    proper_alias fresh, *a = &fresh;
    proper_alias_init(a);
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
    proper_alias_free(out);
    *out = fresh;
    return PROPER_OK;
}

PROPER_API size_t proper_alias_sample(const proper_alias *a, proper_rng *rng) {
    size_t i;
    PROPER_ASSERT(a->n > 0);
    i = (size_t)proper_rng_below(rng, a->n);
    return proper_rng_uniform(rng) < a->prob[i] ? i : a->alias[i];
}

PROPER_API void proper_alias_free(proper_alias *a) {
    PROPER_FREE(a->prob);
    PROPER_FREE(a->alias);
    proper_alias_init(a);
}

/* ---- files ---- */

PROPER_API int proper_skip_bom(const char **text, size_t *len) {
    if (*len < 3 || memcmp(*text, "\xEF\xBB\xBF", 3) != 0) return 0;
    *text += 3;
    *len -= 3;
    return 1;
}

static void proper__core_read_abandon(FILE *f, char *buf) {
    PROPER_FREE(buf);
    fclose(f);
}

PROPER_API int proper_read_file(const char *path, char **data, size_t *len, proper_error *err) {
    FILE *f;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    *data = NULL;
    if (len) *len = 0;
    f = fopen(path, "rb");
    if (!f) return proper_error_set(err, PROPER_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
    for (;;) {
        size_t room, got;
        if (proper_reserve(&buf, &cap, n + 65536 + 1, 1)) {
            proper__core_read_abandon(f, buf);
            return proper_error_set(err, PROPER_ENOMEM, path, 0, 0, "out of memory reading file");
        }
        room = cap - n - 1;
        if (room > PROPER_MAX_FILE_BYTES + 1 - n) room = PROPER_MAX_FILE_BYTES + 1 - n; /* one byte past the limit */
        got = fread(buf + n, 1, room, f);
        n += got;
        if (n > PROPER_MAX_FILE_BYTES) {
            proper__core_read_abandon(f, buf);
            return proper_error_set(err, PROPER_ELIMIT, path, 0, 0, "file is larger than %zu bytes (PROPER_MAX_FILE_BYTES)",
                                    (size_t)PROPER_MAX_FILE_BYTES);
        }
        if (got == 0) break;
    }
    if (ferror(f)) {
        proper__core_read_abandon(f, buf);
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
    va_start(ap, fmt);
    proper_error_setv(err, code, c->file, c->line, c->col, fmt, ap);
    va_end(ap);
    return code;
}

static int proper__core_is_digit(char ch) { return ch >= '0' && ch <= '9'; }

static int proper__core_lower_eq(const char *p, const char *end, const char *word) {
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
static size_t proper__core_number_span(const char *p, const char *end) {
    const char *q = p;
    size_t digits = 0;
    if (q < end && (*q == '+' || *q == '-')) q++;
    while (q < end && proper__core_is_digit(*q)) { q++; digits++; }
    if (q < end && *q == '.') {
        q++;
        while (q < end && proper__core_is_digit(*q)) { q++; digits++; }
    }
    if (digits == 0) return 0;
    if (q < end && (*q == 'e' || *q == 'E')) {
        const char *e = q + 1;
        if (e < end && (*e == '+' || *e == '-')) e++;
        if (e < end && proper__core_is_digit(*e)) {
            while (e < end && proper__core_is_digit(*e)) e++;
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
    n = proper__core_number_span(p, c->end);
    if (n == 0) {
        const char *q = p;
        if (q < c->end && (*q == '+' || *q == '-')) { neg = *q == '-'; q++; }
        if (proper__core_lower_eq(q, c->end, "infinity")) n = (size_t)(q - p) + 8;
        else if (proper__core_lower_eq(q, c->end, "inf")) n = (size_t)(q - p) + 3;
        else if (proper__core_lower_eq(q, c->end, "nan")) n = (size_t)(q - p) + 3;
        if (n == 0) return proper_cursor_error(&start, err, PROPER_EPARSE, "expected a number");
        *out = proper__core_lower_eq(q, c->end, "nan") ? NAN : (neg ? -INFINITY : INFINITY);
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
    if (c->p < c->end && (proper__core_is_digit(*c->p) || *c->p == '.' || (*c->p >= 'a' && *c->p <= 'z') ||
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
    while (c->p < c->end && proper__core_is_digit(*c->p)) {
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
