/* backends/storm.h — the Storm adapter: hands a DTMC to the Storm model
 * checker (https://www.stormchecker.org) and reads its answers.
 *
 * Storm is optional: proper never needs it. This header holds Storm's part
 * of backends/tool.h's machinery (answers, argv arrays, options, runs), as
 * backends/prism.h holds PRISM's. Outputs follow tool.h's rule: initialised
 * by the caller, replaced on success, unchanged on failure.
 *
 * ---- Command lines (Storm documentation, "Running Storm"; option names as
 * defined in Storm's IOSettings and GeneralSettings) -------------------------
 *   storm --prism MODEL.pm --prismcompat --prop PROPS [--constants SPEC]
 *         (--precision E | --exact) [extra...]
 *   storm --explicit-drn D.drn --prop PROPS [--constants SPEC] ...
 * Explicit models go as DRN, which carries every reward structure with its
 * name (Storm's --explicit takes a single --staterew/--transrew file), and
 * labels, but no variables: properties naming variables or constants are
 * refused before Storm runs (below).
 *
 * ---- Output (Storm 1.12.0, tests/transcripts/storm_*.txt, recorded from a
 * real Storm by tests/transcripts/record_storm.sh; its source:
 * storm-cli-utilities/model-handling.h, ExplicitQuantitativeCheckResult.cpp,
 * utility/initialize.cpp, the l3pp log format, SpiritErrorHandler.h) -------
 *   Storm 1.12.0 (dev)                           first line: name and version
 *   Model checking property "1": R{"time"}=? [F "end"] ...
 *   Result (for initial states): 0.628714651740632791
 *   Time for model checking: 0.000s.
 * Values: a double printed by C++ streams with P significant digits, where
 * P = max(10, ceil(-log10(precision)) + 4) for --precision (10 by default,
 * where the precision is 1e-6); the digits are not an error bound (at
 * 1e-14 Storm's 18 digits are 5.8e-15 off on minPathSum). "inf" for
 * infinity; "-nan"/"nan"; "true"/"false"; in --exact mode a rational and its
 * approximation "32504164372/51699390625 (approx. 0.6287146517)" ("inf"
 * alone). Several initial states print "{0, 0.5}" (or "[min, max] (range)"):
 * not one value, reported as that property's error.
 * Log lines: "ERROR (file.cpp:123): message", " WARN (file.cpp:45): ...".
 * A property Storm cannot check (LTL without Spot) prints "ERROR ... Storm is
 * compiled without Spot support." and "ERROR ... Property is unsupported by
 * selected engine/settings." and no result; Storm goes on (exit status 0).
 * An exception ends the run with exit status 1 ("An exception caused Storm
 * to terminate. The message of the exception is: WrongFormatException:
 * ...", the class name dropped here) or 2 (other exceptions; the message is
 * then in the ERROR line before); a parse error reads "Parsing error at L:C:
 * expecting ..., here:" followed by the line and a caret, or "Parsing error
 * in line L of file F.". An unknown label ends the run in Storm 1.12.
 * A filter's result reads "Result (for 'F' states): v".
 * Properties: Storm 1.12 separates them by ';' only and reads R{"time"} in a
 * property named "time" as that property, and it lacks some of PRISM's
 * forms (label definitions, {F}{max} filters, two-argument filters, =>
 * between formulas), so the adapter rewrites the properties file (below).
 * A parse error "at L:C" is named after the properties or the model file,
 * whichever Storm was reading.
 */
#ifndef PROPER_BACKEND_STORM_H
#define PROPER_BACKEND_STORM_H

#include "tool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The Storm command line: argv[0] = storm (the binary's path), then the
 * model (--prism FILE, or --explicit-drn DRN), --prop PROPS_FILE,
 * constants and options (NULL = proper_tool_opts_default(); max_iters and
 * java_max_mem do not apply). */
PROPER_API int proper_stormtool_argv(const char *storm, const proper_tool_model *model, const char *props_file,
                                     const char *consts, const proper_tool_opts *opts, proper_tool_argv *out,
                                     proper_error *err);

/* Significant digits Storm prints values with under these options. */
PROPER_API int proper_stormtool_digits(const proper_tool_opts *opts);

/* Read Storm's output. `digits` (from proper_stormtool_digits, or 0 when
 * unknown) turns into each value's error: half a unit in the last printed
 * digit. Errors as proper_prismtool_parse ("storm: ..."). */
PROPER_API int proper_stormtool_parse(const char *text, size_t len, int exit_status, int digits,
                                      proper_tool_output *out, proper_error *err);

/* The version from a run's banner ("Storm 1.9.0") or `storm --version`
 * ("Version 1.9.0 ..."): a fresh string, or NULL. */
PROPER_API char *proper_stormtool_version(const char *text, size_t len);

/* Check every property of in->props with Storm in one run, as
 * proper_prismtool_check does with PRISM (binary NULL: PROPER_STORM or
 * `storm` in PATH). A DTMC or PRISM explicit files go to Storm as DRN,
 * which has labels only: properties naming anything else than labels,
 * reward structures and Storm's keywords (a variable, a constant the
 * properties do not declare) are refused first with PROPER_EINVAL, naming
 * them, at the first one's line:col in in->props_name. */
PROPER_API int proper_stormtool_check(const char *binary, const proper_tool_input *in, const proper_tool_opts *opts,
                                      proper_tool_output *out, proper_error *err);

/* The Storm backend for the registry of src/backend.h ("storm"). */
PROPER_API const proper_backend *proper_backend_storm(void);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_BACKEND_STORM_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_BACKEND_STORM_IMPLEMENTATION
#define PROPER_BACKEND_STORM_IMPLEMENTATION

#include <math.h>
#include <stdio.h>
#include <string.h>

PROPER_API int proper_stormtool_digits(const proper_tool_opts *opts) {
    /* Storm's setOutputDigitsFromGeneralPrecision: ceil(-log10(eps)) + 4, at least 10. */
    int digits = 10;
    if (opts && !opts->exact && opts->epsilon > 0.0 && opts->epsilon < 1.0) {
        digits = (int)ceil(-log10(opts->epsilon)) + 4;
        if (digits < 10) digits = 10;
    }
    return digits;
}

static int proper__stormtool_argv_into(const char *storm, const proper_tool_model *model, const char *props_file,
                                     const char *consts, const proper_tool_opts *opts, proper_tool_argv *out,
                                     proper_error *err) {
    proper_tool_opts def = proper_tool_opts_default();
    char num[40];
    size_t i;
    int rc = PROPER_OK;
    if (!opts) opts = &def;
    if (!opts->exact && !(opts->epsilon > 0.0 && opts->epsilon < 1.0))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "storm: precision %g must lie in (0, 1)", opts->epsilon);
    if (!model->language_file && !model->drn)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "storm: no model file and no DRN file");
#define PROPER__PUSH(s) do { if ((rc = proper_tool_argv_push(out, (s))) != PROPER_OK) goto fail; } while (0)
    PROPER__PUSH(storm);
    if (model->language_file) {
        PROPER__PUSH("--prism");
        PROPER__PUSH(model->language_file);
        /* PRISM's reading of the language: without it Storm refuses a CTMC
         * whose commands are written as PRISM writes them ("uses
         * probabilistic commands like they are used in PRISM") */
        PROPER__PUSH("--prismcompat");
    } else {
        PROPER__PUSH("--explicit-drn");
        PROPER__PUSH(model->drn);
    }
    if (props_file) {
        PROPER__PUSH("--prop");
        PROPER__PUSH(props_file);
    }
    if (consts && consts[0]) {
        PROPER__PUSH("--constants");
        PROPER__PUSH(consts);
    }
    if (opts->exact) {
        PROPER__PUSH("--exact");
    } else {
        proper_format_double(num, opts->epsilon);
        PROPER__PUSH("--precision");
        PROPER__PUSH(num);
    }
    for (i = 0; opts->extra && opts->extra[i]; i++) PROPER__PUSH(opts->extra[i]);
#undef PROPER__PUSH
    return PROPER_OK;
fail:
    proper_tool_argv_free(out);
    return proper_error_set(err, rc, NULL, 0, 0, "out of memory building the storm command line");
}

PROPER_API char *proper_stormtool_version(const char *text, size_t len) {
    const char *p = text, *end = text + len;
    proper_tool_line l;
    while (proper_tool_line_next(&p, end, &l)) {
        const char *v = NULL;
        size_t n = 0;
        if (proper_tool_line_starts(&l, "Storm ") && l.n > 6 && l.s[6] >= '0' && l.s[6] <= '9') v = l.s + 6;
        else if (proper_tool_line_starts(&l, "Version ") && l.n > 8 && l.s[8] >= '0' && l.s[8] <= '9') v = l.s + 8;
        if (!v) continue;
        while (v + n < l.s + l.n && v[n] != ' ') n++;
        return proper_strndup(v, n);
    }
    return NULL;
}

/* Half a unit in the last of `digits` significant digits of v. */
static double proper__stormtool_print_error(double v, int digits) {
    if (digits <= 0 || v == 0.0 || isinf(v) || v != v) return 0.0;
    return 0.5 * pow(10.0, floor(log10(fabs(v))) - (digits - 1));
}

/* The value after "Result (for initial states): ": 0, 1 when it is not
 * one value, PROPER_ENOMEM. */
static int proper__stormtool_result(proper_tool_answer *a, const char *s, size_t n, int digits) {
    const char *approx;
    proper_tool_trim(&s, &n);
    a->accuracy = PROPER_TOOL_ACC_NONE;
    a->error = 0.0;
    if (n == 0 || s[0] == '{' || s[0] == '[') return 1; /* several initial states */
    if (n == 4 && memcmp(s, "true", 4) == 0) { a->is_bool = 1; a->value = 1.0; a->accuracy = PROPER_TOOL_ACC_EXACT; }
    else if (n == 5 && memcmp(s, "false", 5) == 0) { a->is_bool = 1; a->value = 0.0; a->accuracy = PROPER_TOOL_ACC_EXACT; }
    else if ((approx = proper_tool_find(s, n, " (approx. ")) != NULL) {
        int exact_div;
        size_t vn = (size_t)(approx - s);
        if (vn == 3 && memcmp(s, "inf", 3) == 0) {
            a->value = INFINITY;
        } else {
            if (proper_tool_rational(s, vn, &a->value, &exact_div)) return 1;
            if (!exact_div) a->error = fabs(a->value) * 4.0 * 2.220446049250313e-16;
            a->exact = proper_strndup(s, vn);
            if (!a->exact) return PROPER_ENOMEM;
        }
        a->accuracy = PROPER_TOOL_ACC_EXACT;
    } else {
        /* C++ prints -nan for a NaN with the sign bit set */
        if (n == 4 && memcmp(s, "-nan", 4) == 0) a->value = NAN;
        else if (proper_tool_number(s, n, &a->value)) return 1;
        a->error = proper__stormtool_print_error(a->value, digits);
    }
    a->ok = 1;
    return 0;
}

/* "Parsing error at L:C:" or "Parsing error in line L of file F." */
static void proper__stormtool_position(const char *s, size_t n, int *line, int *col, const char **file, size_t *file_n) {
    const char *p, *end = s + n;
    long l = 0, c = 0;
    *line = *col = 0;
    *file = NULL;
    *file_n = 0;
    if ((p = proper_tool_find(s, n, "Parsing error at ")) != NULL) {
        p = proper_tool_digits(p + 17, end, &l);
        if (p < end && *p == ':') proper_tool_digits(p + 1, end, &c);
    } else if ((p = proper_tool_find(s, n, "Parsing error in line ")) != NULL) {
        p = proper_tool_digits(p + 22, end, &l);
        if (p + 9 <= end && memcmp(p, " of file ", 9) == 0) {
            const char *f = p + 9, *fe = end;
            while (fe > f && (fe[-1] == '.' || fe[-1] == ' ')) fe--;
            *file = f;
            *file_n = (size_t)(fe - f);
        }
    }
    if (l > 0 && l < 1000000000L && c < 1000000000L) {
        *line = (int)l;
        *col = (int)c;
    }
}

/* The message of a log line "LEVEL (file:line): message", or NULL. */
static const char *proper__stormtool_log(const proper_tool_line *l, const char *level, size_t *n) {
    const char *close;
    proper_tool_line t = *l;
    while (t.n && t.s[0] == ' ') { t.s++; t.n--; } /* Storm 1.12 writes " WARN (" */
    if (!proper_tool_line_starts(&t, level)) return NULL;
    close = proper_tool_find(t.s, t.n, "): ");
    if (!close || memchr(t.s, '(', (size_t)(close - t.s)) == NULL) return NULL;
    *n = (size_t)(t.s + t.n - close - 3);
    return close + 3;
}

/* Past the exception class names Storm 1.12 puts before a message
 * ("WrongFormatException: WrongFormatException: Parsing error ..."). */
static void proper__stormtool_skip_exception_names(const char **s, size_t *n) {
    for (;;) {
        size_t k = 0;
        while (k < *n && ((*s)[k] == '_' || ((*s)[k] >= 'a' && (*s)[k] <= 'z') || ((*s)[k] >= 'A' && (*s)[k] <= 'Z') ||
                          ((*s)[k] >= '0' && (*s)[k] <= '9')))
            k++;
        if (!(k > 9 && k + 2 <= *n && memcmp(*s + k - 9, "Exception", 9) == 0 && (*s)[k] == ':' && (*s)[k + 1] == ' '))
            return;
        *s += k + 2;
        *n -= k + 2;
    }
}

static const char proper__stormtool_terminate[] = "The message of the exception is: ";

/* A fatal error: the exception's message up to the end of its first line
 * (a parse error's excerpt and caret follow on the next lines). A "Parsing
 * error at L:C" names no file: it is in the properties when Storm had read
 * the model or logged from its properties reader (model_read), else in the
 * model; tool.h's "(property)" and "(model)" become the user's names. */
static int proper__stormtool_fatal(proper_error *err, const char *msg, size_t n, int model_read) {
    const char *m = proper_tool_find(msg, n, proper__stormtool_terminate), *file;
    char fname[PROPER_ERROR_FILE_MAX];
    size_t file_n;
    int line, col;
    if (m) {
        n -= (size_t)(m + sizeof proper__stormtool_terminate - 1 - msg);
        msg = m + sizeof proper__stormtool_terminate - 1;
    }
    proper_tool_trim(&msg, &n);
    proper__stormtool_skip_exception_names(&msg, &n);
    if (n >= 7 && memcmp(msg + n - 7, ", here:", 7) == 0) n -= 7; /* the excerpt follows */
    while (n && msg[n - 1] == '.') n--;
    proper__stormtool_position(msg, n, &line, &col, &file, &file_n);
    if (file_n >= sizeof fname) file_n = sizeof fname - 1;
    if (file) {
        memcpy(fname, file, file_n);
        fname[file_n] = '\0';
    }
    if (n > PROPER_ERROR_MESSAGE_MAX - 16) n = PROPER_ERROR_MESSAGE_MAX - 16;
    if (file) return proper_error_set(err, PROPER_EBACKEND, fname, line, line ? col : 0, "storm: %.*s", (int)n, msg);
    return proper_error_set(err, PROPER_EBACKEND, line ? (model_read ? "(property)" : "(model)") : NULL, line,
                            line ? col : 0, "storm: %.*s", (int)n, msg);
}

/* Read Storm's output into *out (empty); freed on error. */
static int proper__stormtool_read(const char *text, size_t len, int exit_status, int digits,
                                  proper_tool_output *out, proper_error *err) {
    const char *p = text, *end = text + len;
    const char *fatal = NULL, *warn = NULL, *last = NULL, *states;
    size_t fatal_n = 0, warn_n = 0, last_n = 0;
    proper_tool_answer *cur = NULL;
    proper_tool_line l;
    size_t i;
    int rc, model_read = 0;
    out->version = proper_stormtool_version(text, len);
    while (proper_tool_line_next(&p, end, &l)) {
        const char *s;
        size_t n;
        if (l.n) { last = l.s; last_n = l.n; }
        /* Storm reads a PRISM model before the properties, a DRN model after */
        if (proper_tool_line_starts(&l, "Time for model input parsing: ") || proper_tool_find(l.s, l.n, "(properties.cpp:"))
            model_read = 1;
        if (proper_tool_line_starts(&l, "Model checking property ")) {
            const char *colon = proper_tool_find(l.s, l.n, "\": ");
            s = colon ? colon + 3 : l.s + 24;
            n = (size_t)(l.s + l.n - s);
            if (n >= 4 && memcmp(s + n - 4, " ...", 4) == 0) n -= 4;
            cur = proper_tool_output_add(out, s, n);
            if (!cur) goto nomem;
            warn = NULL;
        } else if ((proper_tool_line_starts(&l, "Result (for ") || proper_tool_line_starts(&l, "Result till abort (for ")) &&
                   (states = proper_tool_find(l.s, l.n, "states): ")) != NULL) {
            /* "initial states", or a filter's "'F' states" */
            if (!cur || cur->ok || cur->message) continue;
            s = states + 9;
            n = (size_t)(l.s + l.n - s);
            proper_tool_trim(&s, &n);
            rc = proper__stormtool_result(cur, s, n, digits);
            if (rc == PROPER_ENOMEM) goto nomem;
            if (rc) {
                char msg[PROPER_ERROR_MESSAGE_MAX];
                snprintf(msg, sizeof msg, "not one value for the initial state: '%.*s'", (int)(n > 200 ? 200 : n), s);
                if (proper_tool_answer_fail(cur, msg, strlen(msg))) goto nomem;
            } else if (proper_tool_line_starts(&l, "Result till abort")) {
                cur->ok = 0;
                if (proper_tool_answer_fail(cur, "aborted before a result", 23)) goto nomem;
            }
        } else if (proper_tool_line_starts(&l, "Time for model checking: ") && cur) {
            double t;
            s = l.s + 25;
            n = l.n - 25;
            if (n > 2 && memcmp(s + n - 2, "s.", 2) == 0 && proper_tool_number(s, n - 2, &t) == 0) cur->seconds = t;
        } else if ((s = proper__stormtool_log(&l, "WARN", &n)) != NULL) {
            warn = s; warn_n = n;
        } else if ((s = proper__stormtool_log(&l, "ERROR", &n)) != NULL) {
            if (proper_tool_find(s, n, proper__stormtool_terminate) || !fatal) {
                /* the exception's message may go on over the next lines */
                fatal = s;
                fatal_n = (size_t)(end - s);
                {
                    const char *nl = (const char *)memchr(s, '\n', (size_t)(end - s));
                    if (nl) fatal_n = (size_t)(nl - s);
                }
            }
            if (cur && !cur->ok && !cur->message) {
                /* "Cannot handle property: <why>" says more than the ERROR line after it */
                if (warn && proper_tool_find(warn, warn_n, "Cannot handle property")) { s = warn; n = warn_n; }
                if (proper_tool_answer_fail(cur, s, n)) goto nomem;
            }
        }
    }
    if (exit_status != 0) {
        proper_tool_output_free(out);
        if (fatal) return proper__stormtool_fatal(err, fatal, fatal_n, model_read);
        return proper_error_set(err, PROPER_EBACKEND, NULL, 0, 0, "storm %s %d%s%.*s",
                                exit_status < 0 ? "did not exit normally, status" : "exited with status", exit_status,
                                last ? "; last output: " : "", (int)(last_n > 300 ? 300 : last_n), last ? last : "");
    }
    for (i = 0; i < out->n_answers; i++) {
        proper_tool_answer *a = &out->answers[i];
        if (!a->ok && !a->message && proper_tool_answer_fail(a, "Storm printed no result", 23)) goto nomem;
    }
    if (out->n_answers == 0 && fatal) {
        proper_tool_output_free(out);
        return proper__stormtool_fatal(err, fatal, fatal_n, model_read);
    }
    return PROPER_OK;
nomem:
    proper_tool_output_free(out);
    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory reading Storm's output");
}

/* ---- the public entry points ---- */

PROPER_API int proper_stormtool_argv(const char *storm, const proper_tool_model *model, const char *props_file,
                                     const char *consts, const proper_tool_opts *opts, proper_tool_argv *out,
                                     proper_error *err) {
    proper_tool_argv av;
    int rc;
    proper_tool_argv_init(&av);
    if ((rc = proper__stormtool_argv_into(storm, model, props_file, consts, opts, &av, err))) {
        proper_tool_argv_free(&av);
        return rc;
    }
    proper_tool_argv_free(out);
    *out = av;
    return PROPER_OK;
}

PROPER_API int proper_stormtool_parse(const char *text, size_t len, int exit_status, int digits,
                                      proper_tool_output *out, proper_error *err) {
    proper_tool_output o;
    int rc;
    proper_tool_output_init(&o);
    if ((rc = proper__stormtool_read(text, len, exit_status, digits, &o, err))) return rc;
    proper_tool_output_free(out);
    *out = o;
    return PROPER_OK;
}

/* ---- the Storm backend ---- */

/* ---- the properties file as Storm reads it ----
 * Storm 1.12 (built here, see the header) reads a properties file as
 * properties separated by ';' only (two properties on two lines fail the
 * whole run: "Could not parse formula"), and reads R{"time"} in a property
 * named "time" as a reference to that property. So comments are blanked, a
 * ';' ends every line that ends a property (brackets closed, the line not
 * ending and the next not starting with an operator, not already ending
 * with ';'), and property names are blanked unless some property refers to
 * one by name (answers are matched by order, so names are not needed).
 * Lines stay where they were, so Storm's messages point at the user's. */

/* A property name `"ident" :` at p: its end (one past ':'), or NULL. */
static const char *proper__stormtool_name_end(const char *p, const char **name, size_t *name_len) {
    const char *q;
    if (*p != '"') return NULL;
    for (q = p + 1; *q == '_' || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9'); q++)
        continue;
    if (q == p + 1 || *q != '"') return NULL;
    *name = p + 1;
    *name_len = (size_t)(q - p - 1);
    for (q++; *q == ' ' || *q == '\t'; q++) continue;
    return *q == ':' ? q + 1 : NULL;
}

/* Whether the quoted word at q (q[0] == '"') is `name` used as a
 * reference: not a reward structure's name (R{"name"}). */
static int proper__stormtool_refers(const char *text, const char *q, const char *name, size_t len) {
    const char *b = q;
    if (strncmp(q + 1, name, len) != 0 || q[len + 1] != '"') return 0;
    while (b > text && (b[-1] == ' ' || b[-1] == '\t')) b--;
    return !(b > text && b[-1] == '{');
}

static void proper__stormtool_blank_comments(char *s) {
    int quoted = 0;
    for (; *s; s++) {
        if (*s == '\n') quoted = 0;
        else if (*s == '"') quoted = !quoted;
        else if (!quoted && s[0] == '/' && s[1] == '/')
            while (*s && *s != '\n') *s++ = ' ';
        if (!*s) break;
    }
}

/* Blanks the property names at the starts of lines of s, unless one is
 * referred to. */
static void proper__stormtool_blank_names(char *s) {
    char *p, *q;
    const char *name, *end, *r;
    size_t len;
    int pass;
    for (pass = 0; pass < 2; pass++) { /* 0: look for references; 1: blank */
        for (p = s; *p; p++) {
            if (p != s && p[-1] != '\n' && p[-1] != ';') continue;
            for (q = p; *q == ' ' || *q == '\t' || *q == '\r'; q++) continue;
            if (!(end = proper__stormtool_name_end(q, &name, &len))) continue;
            if (pass == 1) memset(q, ' ', (size_t)(end - q));
            else
                for (r = s; (r = strchr(r, '"')) != NULL; r++)
                    if (r != q && proper__stormtool_refers(s, r, name, len)) return;
        }
    }
}

static int proper__stormtool_operator_char(char c) { return c && strchr("&|+-*/?:=<>!,", c) != NULL; }

/* The last and first non-blank characters of the line [a, b). */
static char proper__stormtool_last(const char *a, const char *b) {
    while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r')) b--;
    return b > a ? b[-1] : '\0';
}

static char proper__stormtool_next_first(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return *p;
}

/* ---- PRISM's property forms Storm 1.12 lacks ----
 * Storm's property grammar (storm-parsers/parser/FormulaParserGrammar.cpp)
 * has no `label` definitions, no old-style filters `[ ... {F}{max} ]`,
 * filters with three arguments only (`filter(op, property, states)`), and
 * `=>` only inside plain expressions, not between formulas. The adapter
 * translates each statement of the rewritten properties:
 *   label "l" = e;          blanked; every other "l" becomes (e)
 *   OP [ ... {F}{max} ]     filter(max, OP [ ... ], F)   ({min} alike)
 *   OP [ ... {"init"} ]     OP [ ... ]   (Storm's own default states)
 *   filter(op, p)           filter(op, p, true)
 *   A => B                  !(A) | (B)   (one `=>` at the formula's top)
 * PRISM's old filters mean the same as these (its parser/ast/Filter.java
 * turns {F}{max} into filter(max, ..., F)). Forms with no Storm counterpart
 * (a range {F}{min}{max}, the value at a single state {F}) are left for
 * Storm to refuse. Statements keep their lines, so Storm's line numbers
 * still point at the user's file; columns may shift. */

#define PROPER__STORMTOOL_LABEL_DEPTH 16 /* labels naming labels, at most */
/* Labels are substituted until the translation reaches this many bytes
 * (labels naming labels twice double it at every level); later references
 * stay as they are, and Storm refuses them as unknown labels. */
#ifndef PROPER_STORMTOOL_MAX_PROPS
#define PROPER_STORMTOOL_MAX_PROPS ((size_t)1 << 22)
#endif

typedef struct {
    proper_intern names; /* the properties' own labels */
    char **exprs;        /* exprs[i]: the definition of names.names[i] (NULL: none) */
    size_t n_exprs, cap;
} proper__stormtool_labels;

static int proper__stormtool_is_ident_char(char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int proper__stormtool_is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Past the quoted text at p (p[0] == '"'); a line end ends it too. */
static const char *proper__stormtool_past_quote(const char *p, const char *end) {
    for (p++; p < end && *p != '"' && *p != '\n'; p++) continue;
    return p < end && *p == '"' ? p + 1 : p;
}

/* The bracket closing the one at p ('(', '[' or '{'), or NULL. */
static const char *proper__stormtool_closing(const char *p, const char *end) {
    int depth = 0;
    while (p < end) {
        if (*p == '"') { p = proper__stormtool_past_quote(p, end); continue; }
        if (*p == '(' || *p == '[' || *p == '{') depth++;
        else if ((*p == ')' || *p == ']' || *p == '}') && --depth == 0) return p;
        p++;
    }
    return NULL;
}

/* The end of the statement at p: its ';' outside brackets and quotes, or end. */
static const char *proper__stormtool_statement_end(const char *p, const char *end) {
    int depth = 0;
    while (p < end && !(*p == ';' && depth <= 0)) {
        if (*p == '"') { p = proper__stormtool_past_quote(p, end); continue; }
        depth += (*p == '(' || *p == '[' || *p == '{') - (*p == ')' || *p == ']' || *p == '}');
        p++;
    }
    return p;
}

static const char *proper__stormtool_skip_blanks(const char *p, const char *end) {
    while (p < end && proper__stormtool_is_blank(*p)) p++;
    return p;
}

/* Whether [p, end) starts with the word w (not followed by a name character). */
static int proper__stormtool_starts_word(const char *p, const char *end, const char *w) {
    size_t n = strlen(w);
    return (size_t)(end - p) >= n && memcmp(p, w, n) == 0 && (p + n == end || !proper__stormtool_is_ident_char(p[n]));
}

/* Whether [p, end) is a definition `label "l" = e`; it is stored into
 * labels unless labels is NULL or l was defined before. */
static int proper__stormtool_label_definition(const char *p, const char *end, proper__stormtool_labels *labels) {
    const char *name, *q;
    size_t index;
    int added;
    p = proper__stormtool_skip_blanks(p, end);
    if (!proper__stormtool_starts_word(p, end, "label")) return 0;
    p = proper__stormtool_skip_blanks(p + 5, end);
    if (p == end || *p != '"') return 0;
    name = p + 1;
    q = proper__stormtool_past_quote(p, end);
    if (q[-1] != '"' || q - 1 == name) return 0;
    p = proper__stormtool_skip_blanks(q, end);
    if (p == end || *p != '=') return 0;
    if (!labels || proper_reserve(&labels->exprs, &labels->cap, labels->names.len + 1, sizeof *labels->exprs) ||
        proper_intern_add(&labels->names, name, (size_t)(q - 1 - name), &index, &added) != PROPER_OK || !added)
        return 1; /* a second definition: PRISM refuses it, and Storm sees neither */
    labels->exprs[index] = proper_strndup(p + 1, (size_t)(end - p - 1));
    labels->n_exprs = index + 1;
    return 1;
}

/* Whether the word ending at p (in [s, p)) is R, Rmin or Rmax: the braces
 * at p then name a reward structure, not a filter. */
static int proper__stormtool_after_reward_operator(const char *s, const char *p) {
    const char *w;
    while (p > s && proper__stormtool_is_blank(p[-1])) p--;
    for (w = p; w > s && proper__stormtool_is_ident_char(w[-1]); w--) continue;
    return (p - w == 1 && *w == 'R') || (p - w == 4 && (memcmp(w, "Rmin", 4) == 0 || memcmp(w, "Rmax", 4) == 0));
}

/* Whether the quoted name at q (in [s, ...)) stands in R{"name"}. */
static int proper__stormtool_names_reward(const char *s, const char *q) {
    while (q > s && proper__stormtool_is_blank(q[-1])) q--;
    return q > s && q[-1] == '{' && proper__stormtool_after_reward_operator(s, q - 1);
}

/* [s, end) into b with every reference to a label (not R{"l"}) replaced by
 * its parenthesised definition, itself translated up to `depth` levels;
 * `before` bytes of the translation are elsewhere. */
static void proper__stormtool_put_labels(proper_strbuf *b, const char *s, const char *end,
                                         const proper__stormtool_labels *labels, int depth, size_t before) {
    const char *p = s;
    while (p < end) {
        const char *q;
        size_t index;
        if (*p != '"') {
            proper_strbuf_append(b, proper__stormtool_is_blank(*p) && depth ? " " : p, 1);
            p++;
            continue;
        }
        q = proper__stormtool_past_quote(p, end);
        index = q[-1] == '"' && q - p > 2 ? proper_intern_find(&labels->names, p + 1, (size_t)(q - p - 2))
                                          : PROPER_INTERN_NONE;
        if (index < labels->n_exprs && labels->exprs[index] && depth < PROPER__STORMTOOL_LABEL_DEPTH &&
            before + b->len < PROPER_STORMTOOL_MAX_PROPS && !proper__stormtool_names_reward(s, p)) {
            const char *e = labels->exprs[index];
            proper_strbuf_append(b, "(", 1);
            proper__stormtool_put_labels(b, e, e + strlen(e), labels, depth + 1, before);
            proper_strbuf_append(b, ")", 1);
        } else {
            proper_strbuf_append(b, p, (size_t)(q - p));
        }
        p = q;
    }
}

/* An old-style filter closing the property [s, end): `{F}`, optional
 * `{min}` and `{max}`, then the property's last ']'. Its start, F's span,
 * the ']' and the Storm filter type ("min", "max", "" to drop {"init"}), or
 * NULL when there is none with a Storm counterpart. */
static const char *proper__stormtool_old_filter(const char *s, const char *end, const char **f, const char **f_end,
                                                const char **close, const char **type) {
    const char *p = s;
    int square = 0;
    while (p < end) {
        if (*p == '"') { p = proper__stormtool_past_quote(p, end); continue; }
        if (*p == '[') square++;
        else if (*p == ']') square--;
        else if (*p == '{' && square > 0 && !proper__stormtool_after_reward_operator(s, p)) {
            const char *brace = p, *q = proper__stormtool_closing(p, end);
            int min = 0, max = 0;
            if (!q) return NULL;
            *f = brace + 1;
            *f_end = q;
            for (q = proper__stormtool_skip_blanks(q + 1, end); q + 5 <= end && *q == '{';
                 q = proper__stormtool_skip_blanks(q + 5, end)) {
                if (memcmp(q, "{min}", 5) == 0) min = 1;
                else if (memcmp(q, "{max}", 5) == 0) max = 1;
                else return NULL;
            }
            if (q == end || *q != ']' || proper__stormtool_skip_blanks(q + 1, end) != end) return NULL;
            *close = q;
            if (min != max) *type = min ? "min" : "max";
            else if (!min && *f_end - *f == 6 && memcmp(*f, "\"init\"", 6) == 0) *type = "";
            else return NULL;
            return brace;
        }
        p++;
    }
    return NULL;
}

/* [s, end) into b, `A => B` (one `=>` outside brackets, no `?`, no `<=>`)
 * as `!(A) | (B)`. */
static void proper__stormtool_put_implication(proper_strbuf *b, const char *s, const char *end) {
    const char *p = s, *arrow = NULL;
    int depth = 0, arrows = 0, other = 0;
    while (p < end) {
        if (*p == '"') { p = proper__stormtool_past_quote(p, end); continue; }
        depth += (*p == '(' || *p == '[' || *p == '{') - (*p == ')' || *p == ']' || *p == '}');
        if (depth == 0 && *p == '?') other = 1;
        if (depth == 0 && p + 1 < end && p[0] == '=' && p[1] == '>') {
            if (p > s && p[-1] == '<') other = 1;
            arrow = p;
            arrows++;
        }
        p++;
    }
    if (arrows != 1 || other) {
        proper_strbuf_append(b, s, (size_t)(end - s));
        return;
    }
    proper_strbuf_append(b, "!(", 2);
    proper_strbuf_append(b, s, (size_t)(arrow - s));
    proper_strbuf_append(b, ") | (", 5);
    proper_strbuf_append(b, arrow + 2, (size_t)(end - arrow - 2));
    proper_strbuf_append(b, ")", 1);
}

/* A property [s, end) (its name already written) into b as Storm reads it. */
static void proper__stormtool_put_property(proper_strbuf *b, const char *s, const char *end) {
    const char *f, *f_end, *close, *type, *brace = proper__stormtool_old_filter(s, end, &f, &f_end, &close, &type);
    const char *p = proper__stormtool_skip_blanks(s, end), *open, *shut, *q, *comma = NULL;
    int depth = 0, commas = 0;
    if (brace) {
        if (*type) proper_strbuf_printf(b, "filter(%s, ", type);
        proper_strbuf_append(b, s, (size_t)(brace - s));
        proper_strbuf_append(b, close, (size_t)(end - close));
        if (*type) {
            proper_strbuf_append(b, ", ", 2);
            proper_strbuf_append(b, f, (size_t)(f_end - f));
            proper_strbuf_append(b, ")", 1);
        }
        return;
    }
    open = proper__stormtool_starts_word(p, end, "filter") ? proper__stormtool_skip_blanks(p + 6, end) : end;
    shut = open < end && *open == '(' ? proper__stormtool_closing(open, end) : NULL;
    if (!shut || proper__stormtool_skip_blanks(shut + 1, end) != end) {
        proper__stormtool_put_implication(b, s, end);
        return;
    }
    for (q = open + 1; q < shut; q++) {
        if (*q == '"') { q = proper__stormtool_past_quote(q, shut) - 1; continue; }
        depth += (*q == '(' || *q == '[' || *q == '{') - (*q == ')' || *q == ']' || *q == '}');
        if (depth == 0 && *q == ',' && ++commas == 1) comma = q;
    }
    if (commas != 1) {
        proper_strbuf_append(b, s, (size_t)(end - s));
        return;
    }
    proper_strbuf_append(b, s, (size_t)(comma + 1 - s));
    proper__stormtool_put_implication(b, comma + 1, shut);
    proper_strbuf_append(b, ", true", 6);
    proper_strbuf_append(b, shut, (size_t)(end - shut));
}

/* One statement [s, end) of the rewritten properties into b. */
static void proper__stormtool_put_statement(proper_strbuf *b, const char *s, const char *end,
                                            const proper__stormtool_labels *labels) {
    proper_strbuf st;
    const char *p, *name, *body, *st_end;
    size_t name_n;
    if (proper__stormtool_label_definition(s, end, NULL)) {
        for (p = s; p < end; p++) proper_strbuf_append(b, *p == '\n' ? "\n" : " ", 1);
        return;
    }
    proper_strbuf_init(&st);
    proper__stormtool_put_labels(&st, s, end, labels, 0, b->len);
    if (st.failed || !st.data) {
        b->failed |= st.failed;
        proper_strbuf_free(&st);
        return;
    }
    st_end = st.data + st.len;
    p = proper__stormtool_skip_blanks(st.data, st_end);
    if (proper__stormtool_starts_word(p, st_end, "const")) {
        proper_strbuf_append(b, st.data, st.len);
    } else {
        if (!(body = proper__stormtool_name_end(p, &name, &name_n))) body = st.data;
        body = proper__stormtool_skip_blanks(body, st_end); /* a filter( added goes on the property's line */
        proper_strbuf_append(b, st.data, (size_t)(body - st.data));
        proper__stormtool_put_property(b, body, st_end);
    }
    proper_strbuf_free(&st);
}

/* The translation above, in place on the rewritten properties *props. */
static void proper__stormtool_translate(proper_strbuf *props) {
    proper__stormtool_labels labels;
    proper_strbuf b;
    const char *p, *end, *e;
    size_t i;
    if (props->failed || !props->data) return;
    memset(&labels, 0, sizeof labels);
    proper_intern_init(&labels.names);
    end = props->data + props->len;
    for (p = props->data; p < end; p = e + 1) { /* labels first: PRISM's may be used before they are defined */
        e = proper__stormtool_statement_end(p, end);
        proper__stormtool_label_definition(p, e, &labels);
        if (e == end) break;
    }
    proper_strbuf_init(&b);
    for (p = props->data; p < end; p = e + 1) {
        e = proper__stormtool_statement_end(p, end);
        proper__stormtool_put_statement(&b, p, e, &labels);
        if (e == end) break;
        proper_strbuf_append(&b, ";", 1);
    }
    for (i = 0; i < labels.n_exprs; i++) PROPER_FREE(labels.exprs[i]);
    PROPER_FREE(labels.exprs);
    proper_intern_free(&labels.names);
    proper_strbuf_free(props);
    *props = b;
}

static void proper__stormtool_rewrite_props(const char *text, proper_strbuf *out) {
    size_t n = strlen(text);
    char *s = (char *)PROPER_MALLOC(n + 1), *line, *nl;
    int depth = 0;
    if (!s) {
        out->failed = 1;
        return;
    }
    memcpy(s, text, n + 1);
    proper__stormtool_blank_comments(s);
    proper__stormtool_blank_names(s);
    for (line = s; *line; line = nl + 1) {
        char *c, last;
        nl = strchr(line, '\n');
        if (!nl) nl = line + strlen(line);
        for (c = line; c < nl; c++) depth += (*c == '(' || *c == '[' || *c == '{') - (*c == ')' || *c == ']' || *c == '}');
        last = proper__stormtool_last(line, nl);
        proper_strbuf_append(out, line, (size_t)(nl - line));
        if (depth <= 0 && last && last != ';' && !proper__stormtool_operator_char(last) &&
            !proper__stormtool_operator_char(proper__stormtool_next_first(nl))) {
            proper_strbuf_append(out, ";", 1);
            depth = 0;
        }
        if (!*nl) break;
        proper_strbuf_append(out, "\n", 1);
    }
    PROPER_FREE(s);
    proper__stormtool_translate(out);
}

/* ---- properties a DRN model cannot answer ----
 * A model proper built (or PRISM's explicit files) goes to Storm as DRN,
 * which carries labels and reward structures but no variables and no
 * constants: Storm's DRN reader skips proper's "//[s=0 & d=0]" comments
 * (storm-parsers/parser/DirectEncodingParser.cpp), and its properties
 * parser then fails on the first variable with "expecting <basic path
 * formula>". So the adapter refuses such properties before running Storm,
 * naming every identifier that is neither a keyword of Storm's property
 * grammar (FormulaParserGrammar.h, ExpressionParser.h) nor a constant the
 * properties declare themselves. */

static int proper__stormtool_keyword(const char *s, size_t n) {
    static const char *const words[] = {
        "true", "false", "min", "max", "F", "G", "X", "U", "W", "R", "C", "I", "P", "S", "T", "LRA", "MP", "E", "A",
        "Pmin", "Pmax", "Rmin", "Rmax", "Smin", "Smax", "Tmin", "Tmax", "LRAmin", "LRAmax", "multi", "multilex",
        "quantile", "HOA", "filter", "sum", "avg", "count", "forall", "exists", "argmin", "argmax", "values", "rew",
        "steps", "time", "exp", "const", "int", "double", "bool", "floor", "ceil", "pow", "mod", "log",
        "atLeastOneOf", "atMostOneOf", "exactlyOneOf",
        "label", /* PRISM's definitions in a properties file: the adapter substitutes them */ NULL};
    size_t i;
    for (i = 0; words[i]; i++)
        if (strlen(words[i]) == n && memcmp(words[i], s, n) == 0) return 1;
    return 0;
}

static int proper__stormtool_word_is(const char *s, size_t n, const char *word) {
    return s && strlen(word) == n && memcmp(s, word, n) == 0;
}

static int proper__stormtool_type_word(const char *s, size_t n) {
    return proper__stormtool_word_is(s, n, "int") || proper__stormtool_word_is(s, n, "double") ||
           proper__stormtool_word_is(s, n, "bool");
}

/* Whether the word s[0..n) is one of the ", "-separated words of list. */
static int proper__stormtool_listed(const proper_strbuf *list, const char *s, size_t n) {
    const char *p = list->data;
    while (p && *p) {
        size_t k = strcspn(p, ",");
        if (k == n && memcmp(p, s, n) == 0) return 1;
        p += k;
        while (*p == ',' || *p == ' ') p++;
    }
    return 0;
}

static void proper__stormtool_list_add(proper_strbuf *list, const char *s, size_t n) {
    if (list->len) proper_strbuf_append(list, ", ", 2);
    proper_strbuf_append(list, s, n);
}

/* The identifiers of props (comments blanked) that Storm would read as
 * variables or undeclared constants, into *names (", "-separated); the
 * line and column of the first into *line, *col. */
static void proper__stormtool_unknown_names(const char *props, proper_strbuf *names, int *line, int *col) {
    proper_strbuf declared;
    const char *p = props, *line_start = props, *prev = NULL, *prev2 = NULL;
    size_t prev_n = 0, prev2_n = 0;
    int ln = 1;
    proper_strbuf_init(&declared);
    while (*p) {
        if (*p == '\n') {
            ln++;
            line_start = ++p;
        } else if (*p == '"') { /* a label, reward structure or property name */
            for (p++; *p && *p != '"' && *p != '\n'; p++) continue;
            if (*p == '"') p++;
        } else if ((*p >= '0' && *p <= '9') || *p == '.') { /* a number, exponent included */
            for (p++; (*p >= '0' && *p <= '9') || *p == '.'; p++) continue;
            if ((*p == 'e' || *p == 'E') &&
                ((p[1] >= '0' && p[1] <= '9') || ((p[1] == '+' || p[1] == '-') && p[2] >= '0' && p[2] <= '9')))
                for (p += 2; *p >= '0' && *p <= '9'; p++) continue;
        } else if (proper__stormtool_is_ident_char(*p)) {
            const char *w = p;
            size_t n;
            while (proper__stormtool_is_ident_char(*p)) p++;
            n = (size_t)(p - w);
            /* const NAME = ..., or const TYPE NAME = ... */
            if ((proper__stormtool_word_is(prev, prev_n, "const") && !proper__stormtool_type_word(w, n)) ||
                (proper__stormtool_word_is(prev2, prev2_n, "const") && proper__stormtool_type_word(prev, prev_n)))
                proper__stormtool_list_add(&declared, w, n);
            else if (!proper__stormtool_keyword(w, n) && !proper__stormtool_listed(&declared, w, n) &&
                     !proper__stormtool_listed(names, w, n)) {
                if (!names->len) {
                    *line = ln;
                    *col = (int)(w - line_start) + 1;
                }
                proper__stormtool_list_add(names, w, n);
            }
            prev2 = prev;
            prev2_n = prev_n;
            prev = w;
            prev_n = n;
        } else {
            p++;
        }
    }
    if (declared.failed) names->failed = 1;
    proper_strbuf_free(&declared);
}

/* PROPER_EINVAL, naming them, when props name variables or constants a DRN
 * model cannot give Storm; props_name names the properties in the error. */
static int proper__stormtool_refuse_unknown_names(const char *props, const char *props_name, proper_error *err) {
    proper_strbuf names;
    char *text = proper_strdup(props);
    int line = 0, col = 0, rc = PROPER_OK;
    if (!text) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory for the properties");
    proper__stormtool_blank_comments(text);
    proper_strbuf_init(&names);
    proper__stormtool_unknown_names(text, &names, &line, &col);
    if (names.failed)
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory for the properties");
    else if (names.len)
        rc = proper_error_set(err, PROPER_EINVAL, props_name ? props_name : "(property)", line, col,
                              "storm: the properties name %.200s%s, but the model goes to Storm as DRN, which "
                              "carries labels only (no variables, no constants): write those conditions as "
                              "labels (\"name\") or hand Storm the PRISM-language model",
                              names.data, names.len > 200 ? "..." : "");
    proper_strbuf_free(&names);
    PROPER_FREE(text);
    return rc;
}

static const proper_tool_kind proper__stormtool_kind = {
    "storm", "PROPER_STORM", "storm", "--version", "Storm", proper_stormtool_version,
    1, proper_stormtool_argv, proper_stormtool_parse, proper_stormtool_digits, proper__stormtool_rewrite_props};

PROPER_API int proper_stormtool_check(const char *binary, const proper_tool_input *in, const proper_tool_opts *opts,
                                      proper_tool_output *out, proper_error *err) {
    int rc;
    if (!in->model_file && in->props && (rc = proper__stormtool_refuse_unknown_names(in->props, in->props_name, err)))
        return rc;
    return proper_tool_check(&proper__stormtool_kind, binary, in, opts, out, err);
}

static int proper__stormtool_probe(const proper_backend *self, proper_backend_info *info, proper_error *err) {
    (void)self;
    return proper_tool_probe(&proper__stormtool_kind, info, err);
}

static int proper__stormtool_check(const proper_backend *self, const proper_backend_check_request *req,
                                   proper_backend_check_result *out, proper_error *err) {
    int rc;
    (void)self;
    if (req->model_kind == PROPER_BACKEND_MODEL_EXPLICIT && req->property &&
        (rc = proper__stormtool_refuse_unknown_names(req->property, NULL, err)))
        return rc;
    return proper_tool_check_request(&proper__stormtool_kind, req, out, err);
}

static const proper_backend proper__stormtool_backend = {
    "storm", "Storm model checker (PROPER_STORM or storm in PATH)", proper__stormtool_probe, proper__stormtool_check, NULL, NULL};

PROPER_API const proper_backend *proper_backend_storm(void) { return &proper__stormtool_backend; }

#endif /* PROPER_BACKEND_STORM_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
