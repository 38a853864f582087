/* backends/prism.h — the PRISM adapter: hands a DTMC to the PRISM model
 * checker (https://www.prismmodelchecker.org) and reads its answers.
 *
 * PRISM is optional: proper never needs it. This header holds:
 *
 * - the answer types shared with the Storm adapter (backends/storm.h):
 *   proper_tool_answer (one property) and proper_tool_output (one run);
 * - proper_prismtool_argv: the command line, as an argv array (no shell);
 * - proper_prismtool_parse: PRISM's console output -> answers or an error;
 * - proper_prismtool_check: one run of PRISM on every property of a
 *   properties text (the model as a PRISM-language file, a proper_dtmc
 *   exported to explicit files, or PRISM explicit files), through the
 *   runner and private directories of src/backend.h;
 * - proper_backend_prism: the "prism" backend of src/backend.h's registry.
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
 * PRISM 4.9 crashes on -exact with imported explicit files
 * (tests/transcripts/prism_explicit_exact_crash.txt): the adapter reports
 * that as PRISM's error; exact mode works on PRISM-language models.
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

#include "../src/backend.h"

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
    double seconds;  /* wall-clock time of the run, start-up included (0 when not run) */
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
 * explicit files. PRISM reads PRISM's explicit files (tra, lab, optional
 * sta, and per reward structure i an optional state and transition rewards
 * file: srew[i], trew[i], either may be NULL); Storm reads a DRN file. */
typedef struct proper_tool_model {
    const char *language_file;   /* PRISM-language model, or NULL */
    const char *tra, *lab, *sta; /* PRISM explicit files (sta may be NULL) */
    const char *const *srew;     /* n_rewards entries (or NULL) */
    const char *const *trew;     /* n_rewards entries (or NULL) */
    size_t n_rewards;
    const char *drn;             /* Storm's explicit input */
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


/* ---- Running the tool --------------------------------------------------- */

/* Seconds a probe (prism -version, storm --version) may take. */
#ifndef PROPER_TOOL_PROBE_TIMEOUT
#define PROPER_TOOL_PROBE_TIMEOUT 120.0
#endif

/* What to check: the model in one of three forms, the properties and the
 * constants. */
typedef struct proper_tool_input {
    const char *model_file;   /* a PRISM-language model, handed over as written */
    const proper_dtmc *dtmc;  /* or a model proper built (prism.h, synth, vlmc), exported
                                 as explicit files (PRISM) or DRN (Storm) */
    const char *tra, *lab, *srew, *trew; /* or PRISM explicit files (srew/trew may be NULL) */
    const char *props;        /* properties: a properties file's text, or one property */
    const char *props_name;   /* how errors name the properties (their file); NULL = "(property)" */
    const char *consts;       /* "a=1,b=0.5,c=true" or NULL */
    double timeout;           /* seconds; <= 0: none */
} proper_tool_input;

PROPER_API void proper_tool_input_init(proper_tool_input *in);

/* Check every property of in->props with PRISM in one run: a private
 * directory (removed afterwards) gets the properties and any exported model
 * files; PRISM runs there without a shell; *out (initialised here) gets one
 * answer per property, in order, and the run's wall-clock time. `binary`:
 * the PRISM executable, or NULL to take PROPER_PRISM or `prism` in PATH.
 * PROPER_EBACKEND: PRISM missing, or a fatal error in its own words (with
 * the position it names; the properties' file is named as in->props_name);
 * PROPER_ETIMEOUT after in->timeout seconds (the tool is killed). */
PROPER_API int proper_prismtool_check(const char *binary, const proper_tool_input *in, const proper_tool_opts *opts,
                                      proper_tool_output *out, proper_error *err);

/* The PRISM backend for the registry of src/backend.h ("prism"): probe runs
 * `prism -version`; check_dtmc checks one property (rel_precision becomes
 * -epsilon, exact -exact). */
PROPER_API const proper_backend *proper_backend_prism(void);

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
    char *m;
    const char *nul = (const char *)memchr(s, '\0', n);
    if (nul) n = (size_t)(nul - s); /* a NUL byte ends the message */
    proper__tool_trim(&s, &n);
    if (n == 0) {
        s = "error without a message";
        n = strlen(s);
    }
    m = proper__tool_strndup(s, n);
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
    o->seconds = 0.0;
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
    if (!model->language_file && (!model->tra || !model->lab))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "prism: no model file and no explicit .tra/.lab files");
#define PROPER__PUSH(s) do { if ((rc = proper_tool_argv_push(out, (s))) != PROPER_OK) goto fail; } while (0)
    PROPER__PUSH(prism);
    if (model->language_file) {
        PROPER__PUSH(model->language_file);
    } else {
        PROPER__PUSH("-importtrans");
        PROPER__PUSH(model->tra);
        if (model->sta) {
            PROPER__PUSH("-importstates");
            PROPER__PUSH(model->sta);
        }
        PROPER__PUSH("-importlabels");
        PROPER__PUSH(model->lab);
        for (i = 0; i < model->n_rewards; i++) {
            if (model->srew && model->srew[i]) {
                PROPER__PUSH("-importstaterewards");
                PROPER__PUSH(model->srew[i]);
            }
            if (model->trew && model->trew[i]) {
                PROPER__PUSH("-importtransrewards");
                PROPER__PUSH(model->trew[i]);
            }
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

/* Decimal digits at p (saturating at 10^9, which no position reaches). */
static const char *proper__tool_digits(const char *p, const char *end, long *out) {
    long v = 0;
    while (p < end && *p >= '0' && *p <= '9') {
        if (v < 1000000000L) v = v * 10 + (*p - '0');
        p++;
    }
    *out = v;
    return p;
}

/* "... (line L, column C)" at the end of a PRISM message: fills line/col. */
static void proper__prism_position(const char *s, size_t n, int *line, int *col) {
    const char *p = proper__tool_find(s, n, "line ");
    *line = *col = 0;
    while (p) {
        const char *q = p + 5, *end = s + n;
        long l = 0, c = 0;
        q = proper__tool_digits(q, end, &l);
        if (q + 9 <= end && memcmp(q, ", column ", 9) == 0) {
            q = proper__tool_digits(q + 9, end, &c);
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
            if (!cur || !colon || cur->ok || cur->message) continue; /* "Results (...)" tables or a second line */
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


/* ---- running a tool (shared with backends/storm.h) ---- */

PROPER_API void proper_tool_input_init(proper_tool_input *in) { memset(in, 0, sizeof *in); }

typedef int (*proper__tool_argv_fn)(const char *bin, const proper_tool_model *model, const char *props_file,
                                    const char *consts, const proper_tool_opts *opts, proper_tool_argv *out,
                                    proper_error *err);
typedef int (*proper__tool_parse_fn)(const char *text, size_t len, int exit_status, int digits,
                                     proper_tool_output *out, proper_error *err);

/* How one tool is driven. */
typedef struct proper__tool_kind {
    const char *name;       /* "prism": messages */
    const char *env_var;    /* "PROPER_PRISM" */
    const char *program;    /* "prism": looked up in PATH */
    int wants_drn;          /* explicit models as DRN (Storm) instead of PRISM's files */
    proper__tool_argv_fn argv;
    proper__tool_parse_fn parse;
    int (*digits)(const proper_tool_opts *opts); /* passed to parse; NULL: 0 */
} proper__tool_kind;

/* Writer of one file of an exported model. */
typedef int (*proper__tool_writer)(const proper_dtmc *m, size_t r, FILE *f, proper_error *err);

static int proper__tw_tra(const proper_dtmc *m, size_t r, FILE *f, proper_error *err) { (void)r; return proper_dtmc_write_tra(m, f, err); }
static int proper__tw_lab(const proper_dtmc *m, size_t r, FILE *f, proper_error *err) { (void)r; return proper_dtmc_write_lab(m, f, err); }
static int proper__tw_sta(const proper_dtmc *m, size_t r, FILE *f, proper_error *err) { (void)r; return proper_dtmc_write_sta(m, f, err); }
static int proper__tw_drn(const proper_dtmc *m, size_t r, FILE *f, proper_error *err) { (void)r; return proper_dtmc_write_drn(m, f, err); }

/* Write file `name` of the private directory with `fn`; its path into path. */
static int proper__tool_write(const proper_tmpdir *d, const char *name, proper__tool_writer fn, const proper_dtmc *m,
                              size_t r, char *path, size_t size, proper_error *err) {
    FILE *f;
    int rc;
    if ((rc = proper_backend_tmpdir_file(d, name, path, size, err))) return rc;
    f = fopen(path, "wb");
    if (!f) return proper_error_set(err, PROPER_EIO, path, 0, 0, "cannot create the file for the tool");
    rc = fn(m, r, f, err);
    if (fclose(f) != 0 && rc == PROPER_OK) rc = proper_error_set(err, PROPER_EIO, path, 0, 0, "write error");
    return rc;
}

/* Paths of the files a model is exported to (the private directory holds them). */
typedef struct proper__tool_files {
    char tra[PROPER_BACKEND_PATH_MAX], lab[PROPER_BACKEND_PATH_MAX], sta[PROPER_BACKEND_PATH_MAX];
    char drn[PROPER_BACKEND_PATH_MAX], props[PROPER_BACKEND_PATH_MAX];
    char **srew, **trew; /* n_rewards paths each */
    size_t n_rewards;
} proper__tool_files;

static void proper__tool_files_free(proper__tool_files *fs) {
    size_t i;
    for (i = 0; i < fs->n_rewards; i++) {
        if (fs->srew) PROPER_FREE(fs->srew[i]);
        if (fs->trew) PROPER_FREE(fs->trew[i]);
    }
    PROPER_FREE(fs->srew);
    PROPER_FREE(fs->trew);
    fs->srew = fs->trew = NULL;
    fs->n_rewards = 0;
}

/* PRISM's explicit files for m: model.tra, model.lab, model.sta (with
 * valuations), and both model<i>.srew and model<i>.trew for every reward
 * structure i (PRISM pairs them by position). */
static int proper__tool_export_prism(const proper_tmpdir *d, const proper_dtmc *m, proper__tool_files *fs,
                                     proper_tool_model *model, proper_error *err) {
    size_t i;
    int rc;
    if ((rc = proper__tool_write(d, "model.tra", proper__tw_tra, m, 0, fs->tra, sizeof fs->tra, err)) ||
        (rc = proper__tool_write(d, "model.lab", proper__tw_lab, m, 0, fs->lab, sizeof fs->lab, err)))
        return rc;
    model->tra = fs->tra;
    model->lab = fs->lab;
    if (m->vals && m->n_vars) {
        if ((rc = proper__tool_write(d, "model.sta", proper__tw_sta, m, 0, fs->sta, sizeof fs->sta, err))) return rc;
        model->sta = fs->sta;
    }
    if (m->n_rewards) {
        fs->srew = (char **)proper_calloc(m->n_rewards, sizeof *fs->srew);
        fs->trew = (char **)proper_calloc(m->n_rewards, sizeof *fs->trew);
        if (!fs->srew || !fs->trew) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        fs->n_rewards = m->n_rewards;
    }
    for (i = 0; i < m->n_rewards; i++) {
        char name[64];
        fs->srew[i] = (char *)PROPER_MALLOC(PROPER_BACKEND_PATH_MAX);
        fs->trew[i] = (char *)PROPER_MALLOC(PROPER_BACKEND_PATH_MAX);
        if (!fs->srew[i] || !fs->trew[i]) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        snprintf(name, sizeof name, "model%lu.srew", (unsigned long)(i + 1));
        if ((rc = proper__tool_write(d, name, proper_dtmc_write_srew, m, i, fs->srew[i], PROPER_BACKEND_PATH_MAX, err)))
            return rc;
        snprintf(name, sizeof name, "model%lu.trew", (unsigned long)(i + 1));
        if ((rc = proper__tool_write(d, name, proper_dtmc_write_trew, m, i, fs->trew[i], PROPER_BACKEND_PATH_MAX, err)))
            return rc;
    }
    model->srew = (const char *const *)fs->srew;
    model->trew = (const char *const *)fs->trew;
    model->n_rewards = m->n_rewards;
    return PROPER_OK;
}

/* PRISM explicit files read back with dtmc.h (for a tool that wants DRN). */
static int proper__tool_read_explicit(const proper_tool_input *in, proper_dtmc *m, proper_error *err) {
    int rc;
    proper_dtmc_init(m);
    if ((rc = proper_dtmc_read_tra(m, in->tra, NULL, err)) || (rc = proper_dtmc_read_lab(m, in->lab, err)) ||
        (in->srew && (rc = proper_dtmc_read_srew(m, in->srew, NULL, err))) ||
        (in->trew && (rc = proper_dtmc_read_trew(m, in->trew, NULL, err))))
        return rc;
    return PROPER_OK;
}

/* The model argument of the tool, exporting what needs exporting. */
static int proper__tool_prepare_model(const proper__tool_kind *k, const proper_tool_input *in, const proper_tmpdir *d,
                                      proper__tool_files *fs, proper_tool_model *model, proper_error *err) {
    memset(model, 0, sizeof *model);
    if (in->model_file) {
        model->language_file = in->model_file;
        return PROPER_OK;
    }
    if (in->dtmc) {
        if (k->wants_drn) {
            int rc = proper__tool_write(d, "model.drn", proper__tw_drn, in->dtmc, 0, fs->drn, sizeof fs->drn, err);
            model->drn = fs->drn;
            return rc;
        }
        return proper__tool_export_prism(d, in->dtmc, fs, model, err);
    }
    if (!in->tra || !in->lab)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s: no model (a PRISM-language file, a DTMC, or .tra and .lab files)", k->name);
    if (k->wants_drn) {
        proper_dtmc m;
        int rc = proper__tool_read_explicit(in, &m, err);
        if (rc == PROPER_OK) rc = proper__tool_write(d, "model.drn", proper__tw_drn, &m, 0, fs->drn, sizeof fs->drn, err);
        proper_dtmc_free(&m);
        model->drn = fs->drn;
        return rc;
    }
    model->tra = in->tra;
    model->lab = in->lab;
    if (in->srew || in->trew) {
        model->srew = &in->srew;
        model->trew = &in->trew;
        model->n_rewards = 1;
    }
    return PROPER_OK;
}

/* Errors name files as the user knows them: the properties by props_name,
 * other files of the private directory by their name in it. */
static void proper__tool_rename_file(proper_error *err, const proper_tmpdir *d, const proper__tool_files *fs,
                                     const proper_tool_input *in) {
    const char *props_name = in->props_name ? in->props_name : "(property)";
    size_t n = strlen(d->path);
    if (!err || !err->file[0]) return;
    if (strcmp(err->file, fs->props) == 0 || strcmp(err->file, "(property)") == 0) {
        proper_error_set(err, err->code, props_name, err->line, err->col, "%s", err->message);
    } else if (n && strncmp(err->file, d->path, n) == 0 && err->file[n] == '/') {
        char name[PROPER_ERROR_FILE_MAX];
        snprintf(name, sizeof name, "%s", err->file + n + 1);
        proper_error_set(err, err->code, name, err->line, err->col, "%s", err->message);
    }
}

/* Run the tool on the prepared argv; parse standard output followed by standard error. */
static int proper__tool_run_parse(const proper__tool_kind *k, const proper_tool_argv *av, const proper_tmpdir *d,
                                  double timeout, int digits, proper_tool_output *out, proper_error *err) {
    proper_run_opts ro;
    proper_run_result res;
    char *text;
    int rc, status;
    proper_backend_run_opts_init(&ro);
    ro.timeout = timeout;
    ro.tmpdir = d->path;
    rc = proper_backend_run((const char *const *)av->argv, &ro, &res, err);
    if (rc == PROPER_ETIMEOUT) {
        proper_backend_run_result_free(&res);
        return proper_error_set(err, PROPER_ETIMEOUT, NULL, 0, 0, "%s: timed out after %g s (killed)", k->name, timeout);
    }
    if (rc) {
        proper_backend_run_result_free(&res);
        return rc;
    }
    text = (char *)PROPER_MALLOC(res.out_len + res.err_len + 2);
    if (!text) {
        proper_backend_run_result_free(&res);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    }
    memcpy(text, res.out, res.out_len);
    text[res.out_len] = '\n';
    memcpy(text + res.out_len + 1, res.err, res.err_len);
    text[res.out_len + 1 + res.err_len] = '\0';
    status = res.exited ? res.exit_code : -1;
    rc = k->parse(text, res.out_len + 1 + res.err_len, status, digits, out, err);
    out->seconds = res.seconds;
    PROPER_FREE(text);
    proper_backend_run_result_free(&res);
    return rc;
}

static int proper__tool_check(const proper__tool_kind *k, const char *binary, const proper_tool_input *in,
                              const proper_tool_opts *opts, proper_tool_output *out, proper_error *err) {
    char bin[PROPER_BACKEND_PATH_MAX];
    proper_tmpdir d;
    proper__tool_files fs;
    proper_tool_model model;
    proper_tool_argv av;
    proper_error ignored;
    int rc;
    proper_tool_output_init(out);
    proper_tool_argv_init(&av);
    memset(&fs, 0, sizeof fs);
    if (!in->props) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s: no properties", k->name);
    if ((rc = proper_backend_find_binary(binary ? NULL : k->env_var, binary ? binary : k->program, bin, sizeof bin, err)))
        return rc;
    if ((rc = proper_backend_tmpdir_create(&d, err))) return rc;
    if ((rc = proper_backend_tmpdir_write(&d, "props.props", in->props, strlen(in->props), err)) == PROPER_OK &&
        (rc = proper_backend_tmpdir_file(&d, "props.props", fs.props, sizeof fs.props, err)) == PROPER_OK &&
        (rc = proper__tool_prepare_model(k, in, &d, &fs, &model, err)) == PROPER_OK &&
        (rc = k->argv(bin, &model, fs.props, in->consts, opts, &av, err)) == PROPER_OK) {
        proper_tool_opts def;
        if (!opts) {
            proper_tool_opts_default(&def);
            opts = &def;
        }
        rc = proper__tool_run_parse(k, &av, &d, in->timeout, k->digits ? k->digits(opts) : 0, out, err);
        if (rc) proper__tool_rename_file(err, &d, &fs, in);
    }
    proper_tool_argv_free(&av);
    proper__tool_files_free(&fs);
    proper_backend_tmpdir_remove(&d, &ignored);
    return rc;
}

/* Probe: run `binary ARG` and read a version. */
static int proper__tool_probe(const proper__tool_kind *k, const char *arg, char *(*version)(const char *, size_t),
                              const char *label, proper_backend_info *info, proper_error *err) {
    const char *argv[3];
    proper_run_opts ro;
    proper_run_result res;
    char *v;
    int rc;
    memset(info, 0, sizeof *info);
    if (proper_backend_find_binary(k->env_var, k->program, info->path, sizeof info->path, err)) {
        info->path[0] = '\0';
        return PROPER_OK; /* not installed: err says why */
    }
    argv[0] = info->path;
    argv[1] = arg;
    argv[2] = NULL;
    proper_backend_run_opts_init(&ro);
    ro.timeout = PROPER_TOOL_PROBE_TIMEOUT;
    rc = proper_backend_run(argv, &ro, &res, err);
    if (rc == PROPER_ENOMEM) return rc;
    if (rc == PROPER_OK && res.exited && res.exit_code == 0) {
        info->installed = 1;
        v = version(res.out, res.out_len);
        if (v) snprintf(info->version, sizeof info->version, "%s %s", label, v);
        PROPER_FREE(v);
    } else if (rc == PROPER_OK) {
        proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "%s %s failed (%s %d)", info->path, arg,
                         res.exited ? "exit status" : "signal", res.exited ? res.exit_code : res.signal);
    }
    proper_backend_run_result_free(&res);
    return PROPER_OK;
}

/* check_dtmc of the backend interface: one property, one run. */
static int proper__tool_check_one(const proper__tool_kind *k, const proper_check_request *req,
                                  proper_check_result *res, proper_error *err) {
    proper_tool_input in;
    proper_tool_opts opts;
    proper_tool_output out;
    const proper_tool_answer *a;
    int rc;
    proper_tool_input_init(&in);
    proper_tool_opts_default(&opts);
    if (req->rel_precision > 0.0 && req->rel_precision < 1.0) opts.epsilon = req->rel_precision;
    opts.exact = req->exact;
    if (req->model_kind == PROPER_MODEL_EXPLICIT) {
        in.tra = req->model_path;
        in.lab = req->labels_path;
        in.srew = req->state_rewards_path;
        in.trew = req->trans_rewards_path;
    } else {
        in.model_file = req->model_path;
    }
    in.props = req->property;
    in.consts = req->constants;
    in.timeout = req->timeout;
    if ((rc = proper__tool_check(k, NULL, &in, &opts, &out, err))) return rc;
    if (out.n_answers == 0) {
        proper_tool_output_free(&out);
        return proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "%s printed no result", k->name);
    }
    a = &out.answers[0];
    if (!a->ok) {
        rc = proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "%s: %s", k->name, a->message ? a->message : "no result");
        proper_tool_output_free(&out);
        return rc;
    }
    res->value = a->value;
    res->error_estimate = a->accuracy == PROPER_TOOL_ACC_NONE && a->error == 0.0 ? NAN : a->error;
    snprintf(res->exact, sizeof res->exact, "%s", a->exact ? a->exact : "");
    res->seconds = out.seconds;
    proper_tool_output_free(&out);
    return PROPER_OK;
}

/* ---- the PRISM backend ---- */

static int proper__prism_parse_fn(const char *text, size_t len, int exit_status, int digits, proper_tool_output *out,
                                  proper_error *err) {
    (void)digits;
    return proper_prismtool_parse(text, len, exit_status, out, err);
}

static const proper__tool_kind proper__prism_kind = {"prism", "PROPER_PRISM", "prism", 0, proper_prismtool_argv,
                                                     proper__prism_parse_fn, NULL};

PROPER_API int proper_prismtool_check(const char *binary, const proper_tool_input *in, const proper_tool_opts *opts,
                                      proper_tool_output *out, proper_error *err) {
    return proper__tool_check(&proper__prism_kind, binary, in, opts, out, err);
}

static int proper__prism_probe(const proper_backend *self, proper_backend_info *info, proper_error *err) {
    (void)self;
    return proper__tool_probe(&proper__prism_kind, "-version", proper_prismtool_version, "PRISM", info, err);
}

static int proper__prism_check(const proper_backend *self, const proper_check_request *req, proper_check_result *out,
                               proper_error *err) {
    (void)self;
    return proper__tool_check_one(&proper__prism_kind, req, out, err);
}

static const proper_backend proper__prism_backend = {
    "prism", "PRISM model checker (PROPER_PRISM or prism in PATH)", proper__prism_probe, proper__prism_check, NULL, NULL};

PROPER_API const proper_backend *proper_backend_prism(void) { return &proper__prism_backend; }

#endif /* PROPER_BACKEND_PRISM_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
