/* backends/prism.h — the PRISM adapter: hands a DTMC to the PRISM model
 * checker (https://www.prismmodelchecker.org) and reads its answers.
 *
 * PRISM is optional: proper never needs it. This header holds what the
 * adapter needs apart from running a process (src/backend.h runs it):
 *
 * - the answer types shared with the Storm adapter (backends/storm.h):
 *   proper_tool_answer (one property) and proper_tool_output (one run);
 * - proper_prismtool_argv: the command line, as an argv array (no shell);
 * - proper_prismtool_parse: PRISM's console output -> answers or an error.
 *
 * ---- Command lines (PRISM manual, "Running PRISM") -------------------------
 *   prism MODEL.pm PROPS [-const SPEC] (-epsilon E | -exact) [-maxiters N]
 *         [-javamaxmem M] [extra...]
 *   prism -importtrans D.tra [-importstates D.sta] -importlabels D.lab
 *         (-importstaterewards Di.srew -importtransrewards Di.trew)... -dtmc
 *         PROPS [-const SPEC] (-epsilon E | -exact) ...
 * PRISM pairs the i-th -importstaterewards file with the i-th
 * -importtransrewards file into reward structure i and takes its name from
 * the file's `# Reward structure "NAME"` comment, so the adapter writes both
 * files for every structure. PRISM's -epsilon is relative by default.
 *
 * ---- Output (PRISM 4.9, read in its source and in real transcripts in
 * tests/transcripts/prism_*.txt) ---------------------------------------------
 * Everything goes to standard output. Each property starts a block
 *   Model checking: <property>
 * that ends with one of
 *   Result: 0.6287146517400535 (+/- 6.217248937900938E-14 estimated; rel err 9.9E-14)
 *   Result: 1.0 (exact floating point)
 *   Result: 32504164372/51699390625 (exact) (~0.6287146517406365)     (-exact)
 *   Result: Infinity (exact floating point)   Result: NaN   Result: true
 *   Error: Multi-objective model checking is not supported for DTMCs.
 * (the explicit engine may write "Result (probability): ..."). An error in a
 * property block with exit status 0 is that property's error; PRISM goes on
 * with the next one. Any other error is fatal, exit status 1:
 *   Error: Syntax error ("(", line 5, column 32).
 *   Error: Undefined constants "p1", "p2" must be defined.
 *   Error: Undeclared label (""nolabel"", line 1, column 9).
 * The file an error's line and column refer to is the file PRISM was
 * parsing when it stopped ("Parsing PRISM model file "X"...", "Parsing
 * properties file "Y"..."), or the property given as text.
 */
#ifndef PROPER_BACKEND_PRISM_H
#define PROPER_BACKEND_PRISM_H

#include "../src/core.h"

/* Relative convergence threshold the adapter asks of PRISM (-epsilon) unless
 * told otherwise; PRISM's own default is 1e-6, which leaves errors near 1e-5
 * (tests/transcripts/prism_minpathsum_default.txt). */
#ifndef PROPER_PRISMTOOL_EPSILON
#define PROPER_PRISMTOOL_EPSILON 1e-14
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* How a tool qualifies a value. */
#define PROPER_TOOL_ACC_NONE 0      /* nothing said (the number as printed) */
#define PROPER_TOOL_ACC_ESTIMATED 1 /* "+/- E estimated": the tool's own estimate */
#define PROPER_TOOL_ACC_BOUNDED 2   /* "+/- E": a guaranteed bound */
#define PROPER_TOOL_ACC_EXACT 3     /* exact (rational arithmetic, or exact in floating point) */

/* One property's answer. */
typedef struct proper_tool_answer {
    char *property;  /* the property as the tool echoes it, or NULL */
    int ok;          /* 1: value holds the result; 0: message holds the tool's error */
    int is_bool;     /* the result is true (1.0) or false (0.0) */
    double value;    /* full precision as printed; INFINITY, -INFINITY, NAN */
    double error;    /* absolute error bound the tool states or that printing implies; 0 if none */
    int accuracy;    /* PROPER_TOOL_ACC_* */
    char *exact;     /* the rational as printed ("32504164372/51699390625") in exact mode, else NULL */
    double seconds;  /* time for model checking the tool reports, or -1 */
    char *message;   /* the tool's error for this property (ok == 0), else NULL */
} proper_tool_answer;

/* One run of a tool: its version and one answer per property, in order. */
typedef struct proper_tool_output {
    char *version;   /* as the tool prints it, or NULL */
    proper_tool_answer *answers;
    size_t n_answers, cap;
} proper_tool_output;

PROPER_API void proper_tool_output_init(proper_tool_output *o);
PROPER_API void proper_tool_output_free(proper_tool_output *o);

/* A growable argv array (NULL-terminated, strings owned). */
typedef struct proper_tool_argv {
    char **argv;
    size_t argc, cap;
} proper_tool_argv;

PROPER_API void proper_tool_argv_init(proper_tool_argv *a);
/* Append a copy of s; PROPER_ENOMEM on failure (the array stays valid). */
PROPER_API int proper_tool_argv_push(proper_tool_argv *a, const char *s);
PROPER_API void proper_tool_argv_free(proper_tool_argv *a);

/* What to ask of the tool. */
typedef struct proper_tool_opts {
    double epsilon;       /* relative precision (-epsilon / --precision); PROPER_PRISMTOOL_EPSILON */
    int exact;            /* 1: exact rational arithmetic (-exact / --exact) instead */
    unsigned long max_iters; /* PRISM -maxiters (0: the tool's default) */
    const char *java_max_mem; /* PRISM -javamaxmem, e.g. "4g" (NULL: default) */
    const char *const *extra; /* more arguments appended as given (NULL-terminated), or NULL */
} proper_tool_opts;

PROPER_API void proper_tool_opts_default(proper_tool_opts *o);

/* The model as the tool receives it: a PRISM-language file as written, or
 * explicit files written by the adapter under `prefix` (PREFIX.tra,
 * PREFIX.lab, PREFIX.sta when has_states, PREFIX<i>.srew and PREFIX<i>.trew
 * for i = 1..n_rewards; Storm: PREFIX.drn). */
typedef struct proper_tool_model {
    const char *language_file; /* PRISM-language model, or NULL for explicit files */
    const char *prefix;
    int has_states;
    size_t n_rewards;
} proper_tool_model;

/* The PRISM command line: argv[0] = prism (the binary's path), then the
 * model, the properties file, constants (NULL or "" for none) and options.
 * out is initialised here. */
PROPER_API int proper_prismtool_argv(const char *prism, const proper_tool_model *model, const char *props_file,
                                     const char *consts, const proper_tool_opts *opts, proper_tool_argv *out,
                                     proper_error *err);

/* Read PRISM's output (text of len bytes, exit_status as the process ended:
 * its exit code, or negative when it did not exit normally). On success
 * *out (initialised here) holds one answer per "Model checking:" block. A
 * fatal error (exit status not 0) is PROPER_EBACKEND with err->message the
 * tool's own message ("prism: Syntax error (...)") and, when PRISM names a
 * line and column, err->file/line/col pointing there (file as PRISM
 * printed it, "(property)" for a property given on the command line). */
PROPER_API int proper_prismtool_parse(const char *text, size_t len, int exit_status, proper_tool_output *out,
                                      proper_error *err);

/* The version from `prism -version` ("PRISM version 4.9") or from a run's
 * banner ("Version: 4.9"): a fresh string (PROPER_FREE it), or NULL. */
PROPER_API char *proper_prismtool_version(const char *text, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_BACKEND_PRISM_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_BACKEND_PRISM_IMPLEMENTATION
#define PROPER_BACKEND_PRISM_IMPLEMENTATION

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- small text helpers (shared with backends/storm.h) ---- */

/* A line of text without its newline (and without a trailing '\r'). */
typedef struct proper__tline {
    const char *s;
    size_t n;
} proper__tline;

/* Next line from *p (before end); 0 at the end of the text. */
static int proper__tool_next_line(const char **p, const char *end, proper__tline *line) {
    const char *q = *p;
    if (q >= end) return 0;
    line->s = q;
    while (q < end && *q != '\n') q++;
    line->n = (size_t)(q - line->s);
    if (line->n && line->s[line->n - 1] == '\r') line->n--;
    *p = q < end ? q + 1 : q;
    return 1;
}

static int proper__tool_starts(const proper__tline *l, const char *prefix) {
    size_t n = strlen(prefix);
    return l->n >= n && memcmp(l->s, prefix, n) == 0;
}

/* Position of `needle` in the line, or NULL. */
static const char *proper__tool_find(const char *s, size_t n, const char *needle) {
    size_t k = strlen(needle), i;
    if (k > n) return NULL;
    for (i = 0; i + k <= n; i++)
        if (memcmp(s + i, needle, k) == 0) return s + i;
    return NULL;
}

static char *proper__tool_strndup(const char *s, size_t n) {
    char *d = (char *)PROPER_MALLOC(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static void proper__tool_trim(const char **s, size_t *n) {
    while (*n && (**s == ' ' || **s == '\t')) { (*s)++; (*n)--; }
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t')) (*n)--;
}

/* A whole span as a double (decimal, inf/infinity/nan in any case, as
 * proper_parse_double reads them); 0 on success. */
static int proper__tool_number(const char *s, size_t n, double *out) {
    proper_cursor c;
    proper_cursor_init(&c, s, n, NULL);
    if (proper_parse_double(&c, out, NULL)) return -1;
    proper_cursor_skip_blanks(&c);
    return c.p == c.end ? 0 : -1;
}

/* "p/q" or "p" (optional sign, decimal integers) as the nearest double.
 * Integers up to 2^53 are exact in a double and one division of exact
 * operands is correctly rounded; larger ones go through strtod, which is
 * then within a few ulps. 0 on success, *is_exact_division tells which. */
static int proper__tool_rational(const char *s, size_t n, double *out, int *is_exact_division) {
    const char *slash = (const char *)memchr(s, '/', n);
    double num, den = 1.0;
    size_t i, nn = slash ? (size_t)(slash - s) : n;
    for (i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || s + i == slash || (i == 0 && (s[i] == '-' || s[i] == '+')))) return -1;
    if (nn == 0 || (slash && (size_t)(slash - s) + 1 >= n)) return -1;
    if (proper__tool_number(s, nn, &num)) return -1;
    if (slash && proper__tool_number(slash + 1, n - nn - 1, &den)) return -1;
    if (den == 0.0) return -1;
    *is_exact_division = fabs(num) <= 9007199254740992.0 && den <= 9007199254740992.0;
    *out = num / den;
    return 0;
}

static proper_tool_answer *proper__tool_add_answer(proper_tool_output *o, const char *property, size_t n) {
    proper_tool_answer *a;
    if (proper_reserve(&o->answers, &o->cap, o->n_answers + 1, sizeof *o->answers)) return NULL;
    a = &o->answers[o->n_answers];
    memset(a, 0, sizeof *a);
    a->seconds = -1.0;
    a->value = NAN;
    if (property) {
        a->property = proper__tool_strndup(property, n);
        if (!a->property) return NULL;
    }
    o->n_answers++;
    return a;
}

static int proper__tool_set_message(proper_tool_answer *a, const char *s, size_t n) {
    char *m = proper__tool_strndup(s, n);
    if (!m) return PROPER_ENOMEM;
    PROPER_FREE(a->message);
    a->message = m;
    a->ok = 0;
    return PROPER_OK;
}

PROPER_API void proper_tool_output_init(proper_tool_output *o) {
    o->version = NULL;
    o->answers = NULL;
    o->n_answers = o->cap = 0;
}

PROPER_API void proper_tool_output_free(proper_tool_output *o) {
    size_t i;
    for (i = 0; i < o->n_answers; i++) {
        PROPER_FREE(o->answers[i].property);
        PROPER_FREE(o->answers[i].exact);
        PROPER_FREE(o->answers[i].message);
    }
    PROPER_FREE(o->answers);
    PROPER_FREE(o->version);
    proper_tool_output_init(o);
}

PROPER_API void proper_tool_argv_init(proper_tool_argv *a) {
    a->argv = NULL;
    a->argc = a->cap = 0;
}

PROPER_API int proper_tool_argv_push(proper_tool_argv *a, const char *s) {
    char *copy;
    if (proper_reserve(&a->argv, &a->cap, a->argc + 2, sizeof *a->argv)) return PROPER_ENOMEM;
    copy = proper__tool_strndup(s, strlen(s));
    if (!copy) return PROPER_ENOMEM;
    a->argv[a->argc++] = copy;
    a->argv[a->argc] = NULL;
    return PROPER_OK;
}

PROPER_API void proper_tool_argv_free(proper_tool_argv *a) {
    size_t i;
    for (i = 0; i < a->argc; i++) PROPER_FREE(a->argv[i]);
    PROPER_FREE(a->argv);
    proper_tool_argv_init(a);
}

PROPER_API void proper_tool_opts_default(proper_tool_opts *o) {
    o->epsilon = PROPER_PRISMTOOL_EPSILON;
    o->exact = 0;
    o->max_iters = 0;
    o->java_max_mem = NULL;
    o->extra = NULL;
}

/* Push PREFIX + suffix. */
static int proper__tool_push_path(proper_tool_argv *a, const char *prefix, const char *suffix) {
    size_t n = strlen(prefix), k = strlen(suffix);
    char *p = (char *)PROPER_MALLOC(n + k + 1);
    int rc;
    if (!p) return PROPER_ENOMEM;
    memcpy(p, prefix, n);
    memcpy(p + n, suffix, k + 1);
    rc = proper_tool_argv_push(a, p);
    PROPER_FREE(p);
    return rc;
}

/* Shortest decimal that reads back as v ("1e-14", not "1.0000000000000001e-14"). */
static void proper__tool_format_double(char *buf, size_t size, double v) {
    int digits;
    for (digits = 1; digits <= 17; digits++) {
        snprintf(buf, size, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) return;
    }
}

PROPER_API int proper_prismtool_argv(const char *prism, const proper_tool_model *model, const char *props_file,
                                     const char *consts, const proper_tool_opts *opts, proper_tool_argv *out,
                                     proper_error *err) {
    proper_tool_opts def;
    char num[40];
    size_t i;
    int rc = PROPER_OK;
    proper_tool_argv_init(out);
    if (!opts) {
        proper_tool_opts_default(&def);
        opts = &def;
    }
    if (!opts->exact && !(opts->epsilon > 0.0 && opts->epsilon < 1.0))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "prism: precision %g must lie in (0, 1)", opts->epsilon);
    if (!model->language_file && !model->prefix)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "prism: no model file and no explicit files");
#define PROPER__PUSH(s) do { if ((rc = proper_tool_argv_push(out, (s))) != PROPER_OK) goto fail; } while (0)
#define PROPER__PUSH_PATH(suffix) do { if ((rc = proper__tool_push_path(out, model->prefix, (suffix))) != PROPER_OK) goto fail; } while (0)
    PROPER__PUSH(prism);
    if (model->language_file) {
        PROPER__PUSH(model->language_file);
    } else {
        PROPER__PUSH("-importtrans");
        PROPER__PUSH_PATH(".tra");
        if (model->has_states) {
            PROPER__PUSH("-importstates");
            PROPER__PUSH_PATH(".sta");
        }
        PROPER__PUSH("-importlabels");
        PROPER__PUSH_PATH(".lab");
        for (i = 0; i < model->n_rewards; i++) {
            char suffix[40];
            snprintf(suffix, sizeof suffix, "%lu.srew", (unsigned long)(i + 1));
            PROPER__PUSH("-importstaterewards");
            PROPER__PUSH_PATH(suffix);
            snprintf(suffix, sizeof suffix, "%lu.trew", (unsigned long)(i + 1));
            PROPER__PUSH("-importtransrewards");
            PROPER__PUSH_PATH(suffix);
        }
        PROPER__PUSH("-dtmc");
    }
    if (props_file) PROPER__PUSH(props_file);
    if (consts && consts[0]) {
        PROPER__PUSH("-const");
        PROPER__PUSH(consts);
    }
    if (opts->exact) {
        PROPER__PUSH("-exact");
    } else {
        proper__tool_format_double(num, sizeof num, opts->epsilon);
        PROPER__PUSH("-epsilon");
        PROPER__PUSH(num);
    }
    if (opts->max_iters) {
        snprintf(num, sizeof num, "%lu", opts->max_iters);
        PROPER__PUSH("-maxiters");
        PROPER__PUSH(num);
    }
    if (opts->java_max_mem) {
        PROPER__PUSH("-javamaxmem");
        PROPER__PUSH(opts->java_max_mem);
    }
    for (i = 0; opts->extra && opts->extra[i]; i++) PROPER__PUSH(opts->extra[i]);
#undef PROPER__PUSH
#undef PROPER__PUSH_PATH
    return PROPER_OK;
fail:
    proper_tool_argv_free(out);
    return proper_error_set(err, rc, NULL, 0, 0, "out of memory building the prism command line");
}

/* ---- PRISM output ---- */

/* The value part of a "Result" line: VALUE [(ACCURACY)] [(~APPROX)].
 * Fills a; 0 on success, 1 when the value is not one PRISM prints for a
 * single initial state, PROPER_ENOMEM. */
static int proper__prism_result(proper_tool_answer *a, const char *s, size_t n) {
    const char *paren, *end = s + n;
    size_t vn;
    int exact_div = 0;
    proper__tool_trim(&s, &n);
    end = s + n;
    paren = (const char *)memchr(s, '(', n);
    vn = paren ? (size_t)(paren - s) : n;
    while (vn && s[vn - 1] == ' ') vn--;
    if (vn == 0) return 1;
    a->accuracy = PROPER_TOOL_ACC_NONE;
    a->error = 0.0;
    if (vn == 4 && memcmp(s, "true", 4) == 0) {
        a->is_bool = 1; a->value = 1.0;
    } else if (vn == 5 && memcmp(s, "false", 5) == 0) {
        a->is_bool = 1; a->value = 0.0;
    } else if (proper__tool_number(s, vn, &a->value) != 0) {
        /* an exact rational, "p/q (exact) (~approx)" */
        if (proper__tool_rational(s, vn, &a->value, &exact_div)) return 1;
        a->exact = proper__tool_strndup(s, vn);
        if (!a->exact) return PROPER_ENOMEM;
        a->accuracy = PROPER_TOOL_ACC_EXACT;
        if (!exact_div) a->error = fabs(a->value) * 4.0 * 2.220446049250313e-16; /* strtod of huge integers */
    }
    /* qualifiers in parentheses */
    while (paren && paren < end) {
        const char *close = (const char *)memchr(paren, ')', (size_t)(end - paren));
        const char *q = paren + 1;
        size_t qn;
        if (!close) break;
        qn = (size_t)(close - q);
        if (qn >= 3 && memcmp(q, "+/-", 3) == 0) {
            const char *semi = (const char *)memchr(q, ';', qn);
            const char *num = q + 3, *num_end = semi ? semi : close;
            const char *sp;
            while (num < num_end && *num == ' ') num++;
            sp = (const char *)memchr(num, ' ', (size_t)(num_end - num));
            if (sp) num_end = sp;
            if (proper__tool_number(num, (size_t)(num_end - num), &a->error) == 0) {
                a->error = fabs(a->error);
                a->accuracy = proper__tool_find(q, qn, "estimated") ? PROPER_TOOL_ACC_ESTIMATED : PROPER_TOOL_ACC_BOUNDED;
            }
        } else if (qn == 5 && memcmp(q, "exact", 5) == 0) {
            /* rational arithmetic (-exact): an integer result has no '/' */
            a->accuracy = PROPER_TOOL_ACC_EXACT;
            if (!a->exact && !a->is_bool) {
                a->exact = proper__tool_strndup(s, vn);
                if (!a->exact) return PROPER_ENOMEM;
            }
        } else if (qn == 20 && memcmp(q, "exact floating point", 20) == 0) {
            a->accuracy = PROPER_TOOL_ACC_EXACT;
        }
        paren = (const char *)memchr(close, '(', (size_t)(end - close));
    }
    a->ok = 1;
    return 0;
}

/* "... (line L, column C)" at the end of a PRISM message: fills line/col. */
static void proper__prism_position(const char *s, size_t n, int *line, int *col) {
    const char *p = proper__tool_find(s, n, "line ");
    *line = *col = 0;
    while (p) {
        const char *q = p + 5, *end = s + n;
        long l = 0, c = 0;
        while (q < end && *q >= '0' && *q <= '9') l = l * 10 + (*q++ - '0');
        if (q + 9 <= end && memcmp(q, ", column ", 9) == 0) {
            q += 9;
            while (q < end && *q >= '0' && *q <= '9') c = c * 10 + (*q++ - '0');
            if (l > 0 && l < 1000000000L && c < 1000000000L) {
                *line = (int)l;
                *col = (int)c;
            }
        } else if (l > 0 && l < 1000000000L) {
            *line = (int)l; /* "at line L of labels file ..." */
        }
        p = proper__tool_find(q, (size_t)(end - q), "line ");
    }
}

/* Text between the first pair of double quotes after `prefix`. */
static int proper__tool_quoted(const proper__tline *l, const char *prefix, const char **s, size_t *n) {
    const char *q, *e;
    size_t k = strlen(prefix);
    if (!proper__tool_starts(l, prefix)) return 0;
    q = (const char *)memchr(l->s + k, '"', l->n - k);
    if (!q) return 0;
    e = (const char *)memchr(q + 1, '"', (size_t)(l->s + l->n - q - 1));
    if (!e) return 0;
    *s = q + 1;
    *n = (size_t)(e - q - 1);
    return 1;
}

PROPER_API char *proper_prismtool_version(const char *text, size_t len) {
    const char *p = text, *end = text + len;
    proper__tline l;
    while (proper__tool_next_line(&p, end, &l)) {
        const char *v = NULL;
        size_t n;
        if (proper__tool_starts(&l, "PRISM version ")) v = l.s + 14;
        else if (proper__tool_starts(&l, "Version: ")) v = l.s + 9;
        if (!v) continue;
        n = (size_t)(l.s + l.n - v);
        proper__tool_trim(&v, &n);
        if (n) return proper__tool_strndup(v, n);
    }
    return NULL;
}

/* A fatal error: the message as PRISM printed it (without "Error: " and the
 * final '.'), with the position it names. */
static int proper__prism_fatal(proper_error *err, const char *msg, size_t n, const char *file, size_t file_n) {
    char fname[PROPER_ERROR_FILE_MAX];
    int line, col;
    while (n && (msg[n - 1] == '.' || msg[n - 1] == ' ')) n--;
    proper__prism_position(msg, n, &line, &col);
    if (n > PROPER_ERROR_MESSAGE_MAX - 16) n = PROPER_ERROR_MESSAGE_MAX - 16;
    if (file_n >= sizeof fname) file_n = sizeof fname - 1;
    if (line > 0 && file) {
        memcpy(fname, file, file_n);
        fname[file_n] = '\0';
    }
    return proper_error_set(err, PROPER_EBACKEND, line > 0 && file ? fname : NULL, line, col, "prism: %.*s", (int)n, msg);
}

PROPER_API int proper_prismtool_parse(const char *text, size_t len, int exit_status, proper_tool_output *out,
                                      proper_error *err) {
    const char *p = text, *end = text + len;
    const char *file = NULL, *fatal = NULL, *last = NULL;
    size_t file_n = 0, fatal_n = 0, fatal_file_n = 0, last_n = 0;
    const char *fatal_file = NULL;
    proper_tool_answer *cur = NULL;
    proper__tline l;
    int rc;
    proper_tool_output_init(out);
    out->version = proper_prismtool_version(text, len);
    while (proper__tool_next_line(&p, end, &l)) {
        const char *s;
        size_t n;
        if (l.n) { last = l.s; last_n = l.n; }
        if (proper__tool_quoted(&l, "Parsing PRISM model file", &s, &n) ||
            proper__tool_quoted(&l, "Parsing properties file", &s, &n)) {
            file = s; file_n = n;
        } else if (proper__tool_starts(&l, "Type:") || proper__tool_starts(&l, "Importing model from")) {
            file = "(property)"; file_n = 10; /* later errors: in a property given as text */
        } else if (proper__tool_starts(&l, "Model checking: ")) {
            cur = proper__tool_add_answer(out, l.s + 16, l.n - 16);
            if (!cur) goto nomem;
            file = NULL; file_n = 0;
        } else if (proper__tool_starts(&l, "Result")) {
            const char *colon = (const char *)memchr(l.s, ':', l.n);
            if (!cur || !colon || cur->ok) continue; /* "Results (...)" tables or a second line */
            s = colon + 1;
            n = (size_t)(l.s + l.n - s);
            proper__tool_trim(&s, &n);
            rc = proper__prism_result(cur, s, n);
            if (rc == PROPER_ENOMEM) goto nomem;
            if (rc) {
                char msg[PROPER_ERROR_MESSAGE_MAX];
                snprintf(msg, sizeof msg, "cannot read PRISM's result '%.*s'", (int)(n > 200 ? 200 : n), s);
                if (proper__tool_set_message(cur, msg, strlen(msg))) goto nomem;
            }
        } else if (proper__tool_starts(&l, "Time for model checking: ") && cur) {
            double t;
            s = l.s + 25;
            n = l.n - 25;
            if (n > 9 && memcmp(s + n - 9, " seconds.", 9) == 0 && proper__tool_number(s, n - 9, &t) == 0)
                cur->seconds = t;
        } else if (proper__tool_starts(&l, "Error: ")) {
            fatal = l.s + 7;
            fatal_n = l.n - 7;
            fatal_file = file;
            fatal_file_n = file_n;
            if (cur && !cur->ok && !cur->message) {
                n = fatal_n;
                while (n && fatal[n - 1] == '.') n--;
                if (proper__tool_set_message(cur, fatal, n)) goto nomem;
            }
        }
    }
    if (exit_status != 0) {
        proper_tool_output_free(out);
        if (fatal) return proper__prism_fatal(err, fatal, fatal_n, fatal_file, fatal_file_n);
        if (exit_status < 0)
            return proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "prism did not exit normally%s%.*s",
                                    last ? "; last output: " : "", (int)(last_n > 300 ? 300 : last_n), last ? last : "");
        return proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "prism exited with status %d%s%.*s", exit_status,
                                last ? "; last output: " : "", (int)(last_n > 300 ? 300 : last_n), last ? last : "");
    }
    {
        size_t i;
        for (i = 0; i < out->n_answers; i++) {
            proper_tool_answer *a = &out->answers[i];
            if (!a->ok && !a->message && proper__tool_set_message(a, "PRISM printed no result", 23)) goto nomem;
        }
    }
    if (out->n_answers == 0 && fatal) {
        proper_tool_output_free(out);
        return proper__prism_fatal(err, fatal, fatal_n, fatal_file, fatal_file_n);
    }
    return PROPER_OK;
nomem:
    proper_tool_output_free(out);
    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory reading PRISM's output");
}

#endif /* PROPER_BACKEND_PRISM_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
