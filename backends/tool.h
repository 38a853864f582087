/* backends/tool.h — what the adapters of external model checkers share
 * (backends/prism.h, backends/storm.h; backends/glpk.h uses the probe):
 * the answer of a run, command lines, options, how a model is handed over,
 * reading console output line by line, and driving one run of a tool
 * through src/backend.h's runner and private directories.
 *
 * ---- Answers ----------------------------------------------------------------
 * A run gives a proper_tool_output: the tool's version and one
 * proper_tool_answer per property, in order, each a value (with the error
 * the tool states or its printing implies, PROPER_TOOL_ACC_*) or the tool's
 * own message for that property.
 *
 * ---- Reading output ---------------------------------------------------------
 * proper_tool_line_next walks a text line by line (without '\n' and a
 * trailing '\r'); proper_tool_find, _trim, _number, _rational and _digits
 * read pieces of a line; proper_tool_output_add starts an answer and
 * proper_tool_answer_fail gives it the tool's message.
 *
 * ---- Driving a tool ---------------------------------------------------------
 * An adapter describes its tool with a proper_tool_kind: its name, where the
 * binary is (env var, program in PATH), how to ask its version, whether it
 * wants explicit models as Storm's DRN or as PRISM's files, its command line
 * builder and its output reader. proper_tool_check then does one run:
 * finds the binary, makes a private directory (removed afterwards), writes
 * the properties and, when the model is a proper_dtmc or explicit files the
 * tool cannot read, the exported model into it, runs the tool there without
 * a shell, and reads standard output followed by standard error.
 * proper_tool_probe and proper_tool_check_request are the probe and
 * check_dtmc of src/backend.h's interface for such a tool.
 *
 * ---- Outputs ----------------------------------------------------------------
 * Functions that produce a proper_tool_output or proper_tool_argv take one
 * the caller initialised, replace it on success and leave it unchanged on
 * failure.
 *
 * ---- Configuration (define before including) -------------------------------
 *   PROPER_TOOL_EPSILON        relative precision asked of a tool by default (1e-14)
 *   PROPER_TOOL_PROBE_TIMEOUT  seconds a version probe may take at most (30; a
 *                              shorter timeout of the caller's wins)
 */
#ifndef PROPER_BACKEND_TOOL_H
#define PROPER_BACKEND_TOOL_H

#include "../src/backend.h"
#include "../src/dtmc.h"

/* Relative convergence threshold asked of a tool (PRISM -epsilon, Storm
 * --precision) unless told otherwise; PRISM's own default is 1e-6, which
 * leaves errors near 1e-5 (tests/transcripts/prism_minpathsum_default.txt). */
#ifndef PROPER_TOOL_EPSILON
#define PROPER_TOOL_EPSILON 1e-14
#endif

/* Seconds a probe (prism -version, storm --version) may take at most; a
 * caller's shorter timeout (proper_backend_probe_within) wins. A tool that
 * does not answer in time is reported as found but not answering
 * (info->found 1, installed 0), never as "not installed". */
#ifndef PROPER_TOOL_PROBE_TIMEOUT
#define PROPER_TOOL_PROBE_TIMEOUT 30.0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Answers ---------------------------------------------------------------- */

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

/* ---- Command lines and options ------------------------------------------------ */

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
    double epsilon;       /* relative precision (-epsilon / --precision); PROPER_TOOL_EPSILON */
    int exact;            /* 1: exact rational arithmetic (-exact / --exact) instead */
    unsigned long max_iters; /* PRISM -maxiters (0: the tool's default) */
    const char *java_max_mem; /* PRISM -javamaxmem, e.g. "4g" (NULL: default) */
    const char *const *extra; /* more arguments appended as given (NULL-terminated), or NULL */
} proper_tool_opts;

/* epsilon PROPER_TOOL_EPSILON, not exact, the tool's own defaults otherwise. */
PROPER_API proper_tool_opts proper_tool_opts_default(void);

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
    int ctmc;                    /* the explicit files hold a CTMC's rates */
    const char *drn;             /* Storm's explicit input */
} proper_tool_model;

/* What to check: the model in one of three forms, the properties and the
 * constants. */
typedef struct proper_tool_input {
    const char *model_file;   /* a PRISM-language model, handed over as written */
    const proper_dtmc *dtmc;  /* or a model proper built (prism.h, synth, vlmc), exported
                                 as explicit files (PRISM) or DRN (Storm) */
    const char *tra, *lab, *srew, *trew, *sta; /* or PRISM explicit files (srew, trew, sta may be NULL;
                                                  a DRN for Storm carries no .sta) */
    const char *props;        /* properties: a properties file's text, or one property */
    const char *props_name;   /* how errors name the properties (their file); NULL = "(property)" */
    const char *consts;       /* "a=1,b=0.5,c=true" or NULL */
    double timeout;           /* seconds; <= 0: none */
} proper_tool_input;

/* No model, no properties, no constants, no timeout. */
PROPER_API void proper_tool_input_init(proper_tool_input *in);

/* ---- Reading output ------------------------------------------------------------ */

/* A line of text without its newline (and without a trailing '\r'). */
typedef struct proper_tool_line {
    const char *s;
    size_t n;
} proper_tool_line;

/* The next line from *p (before end) into *line; 0 at the end of the text. */
PROPER_API int proper_tool_line_next(const char **p, const char *end, proper_tool_line *line);
/* 1 when the line starts with prefix. */
PROPER_API int proper_tool_line_starts(const proper_tool_line *l, const char *prefix);
/* Position of `needle` in s[0..n), or NULL. */
PROPER_API const char *proper_tool_find(const char *s, size_t n, const char *needle);
/* Move *s and shrink *n past blanks (spaces, tabs) on both sides. */
PROPER_API void proper_tool_trim(const char **s, size_t *n);
/* All of s[0..n) as a double (decimal, inf/infinity/nan in any case, as
 * proper_parse_double reads them); 0 on success, -1 otherwise. */
PROPER_API int proper_tool_number(const char *s, size_t n, double *out);
/* "p/q" or "p" (optional sign, decimal integers) as the nearest double;
 * *is_exact_division says whether both were exact in a double (then the
 * result is correctly rounded). 0 on success, -1 otherwise. */
PROPER_API int proper_tool_rational(const char *s, size_t n, double *out, int *is_exact_division);
/* The decimal digits at p (before end) into *out, saturating at 10^9;
 * returns the first character after them. */
PROPER_API const char *proper_tool_digits(const char *p, const char *end, long *out);
/* A new answer at the end of o for `property` (n bytes; NULL for none):
 * no value yet (NAN), no message, seconds -1. NULL when out of memory. */
PROPER_API proper_tool_answer *proper_tool_output_add(proper_tool_output *o, const char *property, size_t n);
/* Make a the tool's error `s` (n bytes, cut at a NUL, trimmed; "error
 * without a message" when empty). PROPER_ENOMEM or 0. */
PROPER_API int proper_tool_answer_fail(proper_tool_answer *a, const char *s, size_t n);

/* ---- Driving a tool -------------------------------------------------------------- */

/* Builds the tool's command line into *out (initialised by the caller). */
typedef int (*proper_tool_argv_fn)(const char *bin, const proper_tool_model *model, const char *props_file,
                                   const char *consts, const proper_tool_opts *opts, proper_tool_argv *out,
                                   proper_error *err);
/* Reads the tool's output into *out (initialised by the caller); `digits`
 * as the kind's digits() gives it. */
typedef int (*proper_tool_parse_fn)(const char *text, size_t len, int exit_status, int digits,
                                    proper_tool_output *out, proper_error *err);

/* How one tool is driven. */
typedef struct proper_tool_kind {
    const char *name;          /* "prism": in messages */
    const char *env_var;       /* "PROPER_PRISM" */
    const char *program;       /* "prism": looked up in PATH */
    const char *version_arg;   /* "-version": the probe's argument */
    const char *version_label; /* "PRISM": the probe reports "PRISM 4.9" */
    char *(*version)(const char *text, size_t len); /* the version in the probe's output (fresh), or NULL */
    int wants_drn;             /* explicit models as DRN (Storm) instead of PRISM's files */
    proper_tool_argv_fn argv;  /* NULL for a tool not driven by proper_tool_check */
    proper_tool_parse_fn parse;
    int (*digits)(const proper_tool_opts *opts); /* passed to parse; NULL: 0 */
    /* Appends to `out` the properties text as the tool is to read it, where
     * it reads the language differently (keeping every line where it was,
     * so that its messages point at the user's lines); NULL: as written. */
    void (*rewrite_props)(const char *text, proper_strbuf *out);
} proper_tool_kind;

/* Check every property of in->props with the tool in one run (see the
 * manual above); *out (initialised by the caller) gets one answer per
 * property, in order, and the run's wall-clock time. `binary`: the
 * executable, or NULL for the kind's env var or program in PATH. opts NULL
 * = proper_tool_opts_default(). PROPER_EBACKEND: the tool missing, or a
 * fatal error in its own words (with the position it names; the
 * properties' file named as in->props_name); PROPER_ETIMEOUT after
 * in->timeout seconds (the tool is killed). */
PROPER_API int proper_tool_check(const proper_tool_kind *k, const char *binary, const proper_tool_input *in,
                                 const proper_tool_opts *opts, proper_tool_output *out, proper_error *err);

/* A backend's probe: find the binary, run it with the kind's version_arg
 * (waiting at most info->timeout seconds when that is > 0, and at most
 * PROPER_TOOL_PROBE_TIMEOUT) and read the version. 0 also when the tool is
 * not installed (info->installed = 0, err says why) and when it is found
 * but fails or does not answer in time (info->found = 1, installed = 0,
 * err: "PATH -version did not answer within N s (killed)"). */
PROPER_API int proper_tool_probe(const proper_tool_kind *k, proper_backend_info *info, proper_error *err);

/* A backend's check_dtmc: one property in one run (rel_precision in (0, 1)
 * becomes the tool's epsilon, exact its exact mode); the first answer's
 * value and stated error (NAN when it states none) go to *res. */
PROPER_API int proper_tool_check_request(const proper_tool_kind *k, const proper_backend_check_request *req,
                                         proper_backend_check_result *res, proper_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_BACKEND_TOOL_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_BACKEND_TOOL_IMPLEMENTATION
#define PROPER_BACKEND_TOOL_IMPLEMENTATION

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- reading output ---- */

/* Next line from *p (before end); 0 at the end of the text. */
PROPER_API int proper_tool_line_next(const char **p, const char *end, proper_tool_line *line) {
    const char *q = *p;
    if (q >= end) return 0;
    line->s = q;
    while (q < end && *q != '\n') q++;
    line->n = (size_t)(q - line->s);
    if (line->n && line->s[line->n - 1] == '\r') line->n--;
    *p = q < end ? q + 1 : q;
    return 1;
}

PROPER_API int proper_tool_line_starts(const proper_tool_line *l, const char *prefix) {
    size_t n = strlen(prefix);
    return l->n >= n && memcmp(l->s, prefix, n) == 0;
}

/* Position of `needle` in the line, or NULL. */
PROPER_API const char *proper_tool_find(const char *s, size_t n, const char *needle) {
    size_t k = strlen(needle), i;
    if (k > n) return NULL;
    for (i = 0; i + k <= n; i++)
        if (memcmp(s + i, needle, k) == 0) return s + i;
    return NULL;
}

PROPER_API void proper_tool_trim(const char **s, size_t *n) {
    while (*n && (**s == ' ' || **s == '\t')) { (*s)++; (*n)--; }
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t')) (*n)--;
}

/* A whole span as a double (decimal, inf/infinity/nan in any case, as
 * proper_parse_double reads them); 0 on success. */
PROPER_API int proper_tool_number(const char *s, size_t n, double *out) {
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
PROPER_API int proper_tool_rational(const char *s, size_t n, double *out, int *is_exact_division) {
    const char *slash = (const char *)memchr(s, '/', n);
    double num, den = 1.0;
    size_t i, nn = slash ? (size_t)(slash - s) : n;
    for (i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || s + i == slash || (i == 0 && (s[i] == '-' || s[i] == '+')))) return -1;
    if (nn == 0 || (slash && (size_t)(slash - s) + 1 >= n)) return -1;
    if (proper_tool_number(s, nn, &num)) return -1;
    if (slash && proper_tool_number(slash + 1, n - nn - 1, &den)) return -1;
    if (den == 0.0) return -1;
    *is_exact_division = fabs(num) <= 9007199254740992.0 && den <= 9007199254740992.0;
    *out = num / den;
    return 0;
}

PROPER_API proper_tool_answer *proper_tool_output_add(proper_tool_output *o, const char *property, size_t n) {
    proper_tool_answer *a;
    if (proper_reserve(&o->answers, &o->cap, o->n_answers + 1, sizeof *o->answers)) return NULL;
    a = &o->answers[o->n_answers];
    memset(a, 0, sizeof *a);
    a->seconds = -1.0;
    a->value = NAN;
    if (property) {
        a->property = proper_strndup(property, n);
        if (!a->property) return NULL;
    }
    o->n_answers++;
    return a;
}

PROPER_API int proper_tool_answer_fail(proper_tool_answer *a, const char *s, size_t n) {
    char *m;
    const char *nul = (const char *)memchr(s, '\0', n);
    if (nul) n = (size_t)(nul - s); /* a NUL byte ends the message */
    proper_tool_trim(&s, &n);
    if (n == 0) {
        s = "error without a message";
        n = strlen(s);
    }
    m = proper_strndup(s, n);
    if (!m) return PROPER_ENOMEM;
    PROPER_FREE(a->message);
    a->message = m;
    a->ok = 0;
    return PROPER_OK;
}

/* Decimal digits at p (saturating at 10^9, which no position reaches). */
PROPER_API const char *proper_tool_digits(const char *p, const char *end, long *out) {
    long v = 0;
    while (p < end && *p >= '0' && *p <= '9') {
        if (v < 1000000000L) v = v * 10 + (*p - '0');
        p++;
    }
    *out = v;
    return p;
}


/* ---- answers, command lines, options ---- */

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
    copy = proper_strndup(s, strlen(s));
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

PROPER_API proper_tool_opts proper_tool_opts_default(void) {
    proper_tool_opts o;
    o.epsilon = PROPER_TOOL_EPSILON;
    o.exact = 0;
    o.max_iters = 0;
    o.java_max_mem = NULL;
    o.extra = NULL;
    return o;
}

/* ---- driving a tool ---- */

PROPER_API void proper_tool_input_init(proper_tool_input *in) { memset(in, 0, sizeof *in); }

/* Writer of one file of an exported model. */
typedef int (*proper__tool_writer)(const proper_dtmc *m, size_t r, FILE *f, proper_error *err);

static int proper__tool_write_tra(const proper_dtmc *m, size_t r, FILE *f, proper_error *err) { (void)r; return proper_dtmc_write_tra(m, f, err); }
static int proper__tool_write_lab(const proper_dtmc *m, size_t r, FILE *f, proper_error *err) { (void)r; return proper_dtmc_write_lab(m, f, err); }
static int proper__tool_write_sta(const proper_dtmc *m, size_t r, FILE *f, proper_error *err) { (void)r; return proper_dtmc_write_sta(m, f, err); }
static int proper__tool_write_drn(const proper_dtmc *m, size_t r, FILE *f, proper_error *err) { (void)r; return proper_dtmc_write_drn(m, f, err); }

/* Write file `name` of the private directory with `fn`; its path into path. */
static int proper__tool_write(const proper_backend_tmpdir *d, const char *name, proper__tool_writer fn, const proper_dtmc *m,
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
static int proper__tool_export_prism(const proper_backend_tmpdir *d, const proper_dtmc *m, proper__tool_files *fs,
                                     proper_tool_model *model, proper_error *err) {
    size_t i;
    int rc;
    if ((rc = proper__tool_write(d, "model.tra", proper__tool_write_tra, m, 0, fs->tra, sizeof fs->tra, err)) ||
        (rc = proper__tool_write(d, "model.lab", proper__tool_write_lab, m, 0, fs->lab, sizeof fs->lab, err)))
        return rc;
    model->tra = fs->tra;
    model->lab = fs->lab;
    if (m->vals && m->n_vars) {
        if ((rc = proper__tool_write(d, "model.sta", proper__tool_write_sta, m, 0, fs->sta, sizeof fs->sta, err))) return rc;
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
static int proper__tool_prepare_model(const proper_tool_kind *k, const proper_tool_input *in, const proper_backend_tmpdir *d,
                                      proper__tool_files *fs, proper_tool_model *model, proper_error *err) {
    memset(model, 0, sizeof *model);
    if (in->model_file) {
        model->language_file = in->model_file;
        return PROPER_OK;
    }
    if (in->dtmc) {
        if (k->wants_drn) {
            int rc = proper__tool_write(d, "model.drn", proper__tool_write_drn, in->dtmc, 0, fs->drn, sizeof fs->drn, err);
            model->drn = fs->drn;
            return rc;
        }
        model->ctmc = in->dtmc->kind == PROPER_DTMC_KIND_CTMC;
        return proper__tool_export_prism(d, in->dtmc, fs, model, err);
    }
    if (!in->tra || !in->lab)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s: no model (a PRISM-language file, a DTMC, or .tra and .lab files)", k->name);
    if (k->wants_drn) {
        proper_dtmc m;
        int rc = proper__tool_read_explicit(in, &m, err);
        if (rc == PROPER_OK) rc = proper__tool_write(d, "model.drn", proper__tool_write_drn, &m, 0, fs->drn, sizeof fs->drn, err);
        proper_dtmc_free(&m);
        model->drn = fs->drn;
        return rc;
    }
    model->tra = in->tra;
    model->lab = in->lab;
    model->sta = in->sta;
    { /* the kind, as proper reads the .tra (PRISM's "# Transitions (CTMC)") */
        proper_dtmc m;
        int rc;
        proper_dtmc_init(&m);
        rc = proper_dtmc_read_tra(&m, in->tra, NULL, err);
        model->ctmc = m.kind == PROPER_DTMC_KIND_CTMC;
        proper_dtmc_free(&m);
        if (rc) return rc;
    }
    if (in->srew || in->trew) {
        model->srew = &in->srew;
        model->trew = &in->trew;
        model->n_rewards = 1;
    }
    return PROPER_OK;
}

/* Errors name files as the user knows them: the properties by props_name,
 * a PRISM-language model ("(model)") by its path, other files of the
 * private directory by their name in it. */
static void proper__tool_rename_file(proper_error *err, const proper_backend_tmpdir *d, const proper__tool_files *fs,
                                     const proper_tool_input *in) {
    const char *props_name = in->props_name ? in->props_name : "(property)";
    size_t n = strlen(d->path);
    char name[PROPER_ERROR_FILE_MAX];
    if (!err || !err->file[0]) return;
    if (strcmp(err->file, fs->props) == 0 || strcmp(err->file, "(property)") == 0)
        snprintf(name, sizeof name, "%s", props_name);
    else if (strcmp(err->file, "(model)") == 0 && in->model_file)
        snprintf(name, sizeof name, "%s", in->model_file);
    else if (n && strncmp(err->file, d->path, n) == 0 && err->file[n] == '/')
        snprintf(name, sizeof name, "%s", err->file + n + 1);
    else
        return;
    /* only the file changes: printing the message into itself left it empty */
    memcpy(err->file, name, sizeof name);
}

/* Standard output, a newline, then standard error, as one text for the
 * output readers (NULL when out of memory). */
static char *proper__tool_both_streams(const proper_backend_run_result *res, size_t *len) {
    char *text = (char *)PROPER_MALLOC(res->out_len + res->err_len + 2);
    if (!text) return NULL;
    memcpy(text, res->out, res->out_len);
    text[res->out_len] = '\n';
    memcpy(text + res->out_len + 1, res->err, res->err_len);
    *len = res->out_len + 1 + res->err_len;
    text[*len] = '\0';
    return text;
}

/* Run the tool on the prepared argv; read its output into *out (empty). */
static int proper__tool_run_parse(const proper_tool_kind *k, const proper_tool_argv *av, const proper_backend_tmpdir *d,
                                  double timeout, int digits, proper_tool_output *out, proper_error *err) {
    proper_backend_run_opts ro = proper_backend_run_opts_default();
    proper_backend_run_result res;
    char *text;
    size_t len;
    int rc;
    ro.timeout = timeout;
    ro.tmpdir = d->path;
    proper_backend_run_result_init(&res);
    rc = proper_backend_run((const char *const *)av->argv, &ro, &res, err);
    if (rc == PROPER_ETIMEOUT)
        rc = proper_error_set(err, PROPER_ETIMEOUT, NULL, 0, 0, "%s: timed out after %g s (killed)", k->name, timeout);
    else if (rc == PROPER_OK && !(text = proper__tool_both_streams(&res, &len)))
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    else if (rc == PROPER_OK) {
        rc = k->parse(text, len, res.exited ? res.exit_code : -1, digits, out, err);
        out->seconds = res.seconds;
        PROPER_FREE(text);
    }
    proper_backend_run_result_free(&res);
    return rc;
}

/* One run in a private directory d: properties file, model, argv, run. */
static int proper__tool_run_in(const proper_tool_kind *k, const char *bin, const proper_backend_tmpdir *d,
                               const proper_tool_input *in, const proper_tool_opts *opts, proper_tool_output *out,
                               proper_error *err) {
    proper__tool_files fs;
    proper_tool_model model;
    proper_tool_argv av;
    proper_strbuf props;
    int rc;
    proper_strbuf_init(&props);
    if (k->rewrite_props) k->rewrite_props(in->props, &props);
    else proper_strbuf_puts(&props, in->props);
    if (props.failed) {
        proper_strbuf_free(&props);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory for the properties");
    }
    memset(&fs, 0, sizeof fs);
    proper_tool_argv_init(&av);
    if ((rc = proper_backend_tmpdir_write(d, "props.props", props.data ? props.data : "", props.len, err)) == PROPER_OK &&
        (rc = proper_backend_tmpdir_file(d, "props.props", fs.props, sizeof fs.props, err)) == PROPER_OK &&
        (rc = proper__tool_prepare_model(k, in, d, &fs, &model, err)) == PROPER_OK &&
        (rc = k->argv(bin, &model, fs.props, in->consts, opts, &av, err)) == PROPER_OK) {
        rc = proper__tool_run_parse(k, &av, d, in->timeout, k->digits ? k->digits(opts) : 0, out, err);
        if (rc) proper__tool_rename_file(err, d, &fs, in);
    }
    proper_tool_argv_free(&av);
    proper__tool_files_free(&fs);
    proper_strbuf_free(&props);
    return rc;
}

PROPER_API int proper_tool_check(const proper_tool_kind *k, const char *binary, const proper_tool_input *in,
                                 const proper_tool_opts *opts, proper_tool_output *out, proper_error *err) {
    char bin[PROPER_BACKEND_PATH_MAX];
    proper_tool_opts def = proper_tool_opts_default();
    proper_backend_tmpdir d;
    proper_tool_output o;
    proper_error ignored;
    int rc;
    if (!opts) opts = &def;
    if (!in->props) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s: no properties", k->name);
    if ((rc = proper_backend_find_binary(binary ? NULL : k->env_var, binary ? binary : k->program, bin, sizeof bin, err)))
        return rc;
    if ((rc = proper_backend_tmpdir_create(&d, err))) return rc;
    proper_tool_output_init(&o);
    rc = proper__tool_run_in(k, bin, &d, in, opts, &o, err);
    proper_backend_tmpdir_remove(&d, &ignored);
    if (rc) {
        proper_tool_output_free(&o);
        return rc;
    }
    proper_tool_output_free(out);
    *out = o;
    return PROPER_OK;
}

PROPER_API int proper_tool_probe(const proper_tool_kind *k, proper_backend_info *info, proper_error *err) {
    const char *argv[3];
    proper_backend_run_opts ro = proper_backend_run_opts_default();
    proper_backend_run_result res;
    char *v;
    double timeout = info->timeout > 0.0 && info->timeout < PROPER_TOOL_PROBE_TIMEOUT ? info->timeout
                                                                                      : PROPER_TOOL_PROBE_TIMEOUT;
    int rc;
    memset(info, 0, sizeof *info);
    info->timeout = timeout;
    if (proper_backend_find_binary(k->env_var, k->program, info->path, sizeof info->path, err)) {
        info->path[0] = '\0';
        return PROPER_OK; /* not installed: err says why */
    }
    info->found = 1;
    argv[0] = info->path;
    argv[1] = k->version_arg;
    argv[2] = NULL;
    ro.timeout = timeout;
    proper_backend_run_result_init(&res);
    rc = proper_backend_run(argv, &ro, &res, err);
    if (rc == PROPER_ENOMEM) return rc;
    if (rc == PROPER_ETIMEOUT) {
        proper_error_set(err, PROPER_ETIMEOUT, NULL, 0, 0, "%s %s did not answer within %g s (killed)", info->path,
                         k->version_arg, timeout);
    } else if (rc == PROPER_OK && res.exited && res.exit_code == 0) {
        info->installed = 1;
        v = k->version(res.out, res.out_len);
        if (v) snprintf(info->version, sizeof info->version, "%s %s", k->version_label, v);
        PROPER_FREE(v);
    } else if (rc == PROPER_OK) {
        proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "%s %s failed (%s %d)", info->path, k->version_arg,
                         res.exited ? "exit status" : "signal", res.exited ? res.exit_code : res.signal);
    }
    proper_backend_run_result_free(&res);
    return PROPER_OK;
}

/* The tool's input for a check request. */
static proper_tool_input proper__tool_request_input(const proper_backend_check_request *req) {
    proper_tool_input in;
    proper_tool_input_init(&in);
    if (req->model_kind == PROPER_BACKEND_MODEL_EXPLICIT) {
        in.tra = req->model_path;
        in.lab = req->labels_path;
        in.srew = req->state_rewards_path;
        in.trew = req->trans_rewards_path;
        in.sta = req->states_path;
    } else {
        in.model_file = req->model_path;
    }
    in.props = req->property;
    in.consts = req->constants;
    in.timeout = req->timeout;
    return in;
}

PROPER_API int proper_tool_check_request(const proper_tool_kind *k, const proper_backend_check_request *req,
                                         proper_backend_check_result *res, proper_error *err) {
    proper_tool_input in = proper__tool_request_input(req);
    proper_tool_opts opts = proper_tool_opts_default();
    proper_tool_output out;
    const proper_tool_answer *a;
    int rc;
    if (req->rel_precision > 0.0 && req->rel_precision < 1.0) opts.epsilon = req->rel_precision;
    opts.exact = req->exact;
    proper_tool_output_init(&out);
    if ((rc = proper_tool_check(k, NULL, &in, &opts, &out, err))) return rc;
    a = out.n_answers ? &out.answers[0] : NULL;
    if (!a)
        rc = proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "%s printed no result", k->name);
    else if (!a->ok)
        rc = proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "%s: %s", k->name, a->message ? a->message : "no result");
    else {
        res->value = a->value;
        res->error_estimate = a->accuracy == PROPER_TOOL_ACC_NONE && a->error == 0.0 ? NAN : a->error;
        snprintf(res->exact, sizeof res->exact, "%s", a->exact ? a->exact : "");
        res->seconds = out.seconds;
    }
    proper_tool_output_free(&out);
    return rc;
}

#endif /* PROPER_BACKEND_TOOL_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
