/* backends/prism.h — the PRISM adapter: hands a DTMC to the PRISM model
 * checker (https://www.prismmodelchecker.org) and reads its answers.
 *
 * PRISM is optional: proper never needs it. This header holds PRISM's part
 * of backends/tool.h's machinery (answers, options, runs):
 *
 * - proper_prismtool_argv: the command line, as an argv array (no shell);
 * - proper_prismtool_parse: PRISM's console output -> answers or an error;
 * - proper_prismtool_version: the version in its output;
 * - proper_prismtool_check: one run of PRISM on every property of a
 *   properties text (the model as a PRISM-language file, a proper_dtmc
 *   exported to explicit files, or PRISM explicit files);
 * - proper_backend_prism: the "prism" backend for src/backend.h's registry.
 * Outputs follow the rule of backends/tool.h: initialised by the caller,
 * replaced on success, unchanged on failure.
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
 * (the explicit engine may write "Result (probability): ..."). A "+/- E"
 * whose E is not a finite number >= 0 ("+/- 1e400", "+/- -0.5") makes that
 * property's answer an error ("the stated error is not a finite number
 * >= 0"): such an error would let any difference pass. An error in a
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

#include "tool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The PRISM command line: argv[0] = prism (the binary's path), then the
 * model, the properties file, constants (NULL or "" for none) and options
 * (NULL = proper_tool_opts_default()). */
PROPER_API int proper_prismtool_argv(const char *prism, const proper_tool_model *model, const char *props_file,
                                     const char *consts, const proper_tool_opts *opts, proper_tool_argv *out,
                                     proper_error *err);

/* Read PRISM's output (text of len bytes, exit_status as the process ended:
 * its exit code, or negative when it did not exit normally). On success
 * *out holds one answer per "Model checking:" block. A
 * fatal error (exit status not 0) is PROPER_EBACKEND with err->message the
 * tool's own message ("prism: Syntax error (...)") and, when PRISM names a
 * line and column, err->file/line/col pointing there (file as PRISM
 * printed it, "(property)" for a property given on the command line). */
PROPER_API int proper_prismtool_parse(const char *text, size_t len, int exit_status, proper_tool_output *out,
                                      proper_error *err);

/* The version from `prism -version` ("PRISM version 4.9") or from a run's
 * banner ("Version: 4.9"): a fresh string (PROPER_FREE it), or NULL. */
PROPER_API char *proper_prismtool_version(const char *text, size_t len);


/* Check every property of in->props with PRISM in one run: a private
 * directory (removed afterwards) gets the properties and any exported model
 * files; PRISM runs there without a shell; *out gets one
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

static int proper__prismtool_argv_into(const char *prism, const proper_tool_model *model, const char *props_file,
                                     const char *consts, const proper_tool_opts *opts, proper_tool_argv *out,
                                     proper_error *err) {
    proper_tool_opts def = proper_tool_opts_default();
    char num[40];
    size_t i;
    int rc = PROPER_OK;
    if (!opts) opts = &def;
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
        PROPER__PUSH(model->ctmc ? "-ctmc" : "-dtmc");
    }
    if (props_file) PROPER__PUSH(props_file);
    if (consts && consts[0]) {
        PROPER__PUSH("-const");
        PROPER__PUSH(consts);
    }
    if (opts->exact) {
        PROPER__PUSH("-exact");
    } else {
        proper_format_double(num, opts->epsilon);
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
 * single initial state, 2 when a "+/- E" states an error E that is not a
 * finite number >= 0, PROPER_ENOMEM. */
static int proper__prismtool_result(proper_tool_answer *a, const char *s, size_t n) {
    const char *paren, *end = s + n;
    size_t vn;
    int exact_div = 0;
    proper_tool_trim(&s, &n);
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
    } else if (proper_tool_number(s, vn, &a->value) != 0) {
        /* an exact rational, "p/q (exact) (~approx)" */
        if (proper_tool_rational(s, vn, &a->value, &exact_div)) return 1;
        a->exact = proper_strndup(s, vn);
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
            /* a stated error must be a finite number >= 0: "+/- 1e400" or
             * "+/- -0.5" would make any difference look like agreement */
            if (num == num_end || *num == '-' || proper_tool_number(num, (size_t)(num_end - num), &a->error) != 0 ||
                !(a->error >= 0.0 && a->error < INFINITY))
                return 2;
            a->accuracy = proper_tool_find(q, qn, "estimated") ? PROPER_TOOL_ACC_ESTIMATED : PROPER_TOOL_ACC_BOUNDED;
        } else if (qn == 5 && memcmp(q, "exact", 5) == 0) {
            /* rational arithmetic (-exact): an integer result has no '/' */
            a->accuracy = PROPER_TOOL_ACC_EXACT;
            if (!a->exact && !a->is_bool) {
                a->exact = proper_strndup(s, vn);
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
static void proper__prismtool_position(const char *s, size_t n, int *line, int *col) {
    const char *p = proper_tool_find(s, n, "line ");
    *line = *col = 0;
    while (p) {
        const char *q = p + 5, *end = s + n;
        long l = 0, c = 0;
        q = proper_tool_digits(q, end, &l);
        if (q + 9 <= end && memcmp(q, ", column ", 9) == 0) {
            q = proper_tool_digits(q + 9, end, &c);
            if (l > 0 && l < 1000000000L && c < 1000000000L) {
                *line = (int)l;
                *col = (int)c;
            }
        } else if (l > 0 && l < 1000000000L) {
            *line = (int)l; /* "at line L of labels file ..." */
        }
        p = proper_tool_find(q, (size_t)(end - q), "line ");
    }
}

/* Text between the first pair of double quotes after `prefix`. */
static int proper__prismtool_quoted(const proper_tool_line *l, const char *prefix, const char **s, size_t *n) {
    const char *q, *e;
    size_t k = strlen(prefix);
    if (!proper_tool_line_starts(l, prefix)) return 0;
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
    proper_tool_line l;
    while (proper_tool_line_next(&p, end, &l)) {
        const char *v = NULL;
        size_t n;
        if (proper_tool_line_starts(&l, "PRISM version ")) v = l.s + 14;
        else if (proper_tool_line_starts(&l, "Version: ")) v = l.s + 9;
        if (!v) continue;
        n = (size_t)(l.s + l.n - v);
        proper_tool_trim(&v, &n);
        if (n) return proper_strndup(v, n);
    }
    return NULL;
}

/* A fatal error: the message as PRISM printed it (without "Error: " and the
 * final '.'), with the position it names. */
static int proper__prismtool_fatal(proper_error *err, const char *msg, size_t n, const char *file, size_t file_n) {
    char fname[PROPER_ERROR_FILE_MAX];
    int line, col;
    while (n && (msg[n - 1] == '.' || msg[n - 1] == ' ')) n--;
    proper__prismtool_position(msg, n, &line, &col);
    if (n > PROPER_ERROR_MESSAGE_MAX - 16) n = PROPER_ERROR_MESSAGE_MAX - 16;
    if (file_n >= sizeof fname) file_n = sizeof fname - 1;
    if (line > 0 && file) {
        memcpy(fname, file, file_n);
        fname[file_n] = '\0';
    }
    return proper_error_set(err, PROPER_EBACKEND, line > 0 && file ? fname : NULL, line, col, "prism: %.*s", (int)n, msg);
}

/* What a user can do about two of PRISM's per-property failures that come
 * from the options rather than the model: its Fox-Glynn computation
 * overflows when -epsilon is small (PRISM 4.10.2-dev at 1e-10 and 1e-12 on
 * an M/M/1/K queue with q t = 90: tests/transcripts/prism_mm1k_foxglynn.txt),
 * and its iterative methods stop at -maxiters (10000 by default). Returns "" when there is nothing to add. */
static const char *proper__prismtool_hint(const char *msg, size_t n) {
    if (proper_tool_find(msg, n, "Overflow in Fox-Glynn"))
        return " (PRISM's Fox-Glynn fails at a small -epsilon: ask for less precision, e.g. --precision 1e-8)";
    if (proper_tool_find(msg, n, "did not converge within"))
        return " (raise PRISM's -maxiters or change its method: crosscheck --prism-arg -maxiters --prism-arg "
               "100000, or --prism-arg -sor)";
    return "";
}

/* Read PRISM's output into *out (empty); freed on error. */
static int proper__prismtool_read(const char *text, size_t len, int exit_status, proper_tool_output *out,
                                  proper_error *err) {
    const char *p = text, *end = text + len;
    const char *file = NULL, *fatal = NULL, *last = NULL;
    size_t file_n = 0, fatal_n = 0, fatal_file_n = 0, last_n = 0;
    const char *fatal_file = NULL;
    proper_tool_answer *cur = NULL;
    proper_tool_line l;
    unsigned long line_no = 0;
    int rc;
    out->version = proper_prismtool_version(text, len);
    while (proper_tool_line_next(&p, end, &l)) {
        const char *s;
        size_t n;
        line_no++;
        if (l.n) { last = l.s; last_n = l.n; }
        if (proper__prismtool_quoted(&l, "Parsing PRISM model file", &s, &n) ||
            proper__prismtool_quoted(&l, "Parsing properties file", &s, &n)) {
            file = s; file_n = n;
        } else if (proper_tool_line_starts(&l, "Type:") || proper_tool_line_starts(&l, "Importing model from")) {
            file = "(property)"; file_n = 10; /* later errors: in a property given as text */
        } else if (proper_tool_line_starts(&l, "Model checking: ")) {
            cur = proper_tool_output_add(out, l.s + 16, l.n - 16);
            if (!cur) goto nomem;
            file = NULL; file_n = 0;
        } else if (proper_tool_line_starts(&l, "Result")) {
            const char *colon = (const char *)memchr(l.s, ':', l.n);
            if (!cur || !colon || cur->ok || cur->message) continue; /* "Results (...)" tables or a second line */
            s = colon + 1;
            n = (size_t)(l.s + l.n - s);
            proper_tool_trim(&s, &n);
            rc = proper__prismtool_result(cur, s, n);
            if (rc == PROPER_ENOMEM) goto nomem;
            if (rc) {
                char msg[PROPER_ERROR_MESSAGE_MAX];
                cur->value = NAN; /* nothing of the unreadable result stays */
                cur->error = 0.0;
                cur->is_bool = 0;
                cur->accuracy = PROPER_TOOL_ACC_NONE;
                PROPER_FREE(cur->exact);
                cur->exact = NULL;
                if (rc == 2)
                    snprintf(msg, sizeof msg, "cannot read PRISM's result '%.*s' (output line %lu): the stated error is not a finite number >= 0",
                             (int)(n > 200 ? 200 : n), s, (unsigned long)line_no);
                else
                    snprintf(msg, sizeof msg, "cannot read PRISM's result '%.*s'", (int)(n > 200 ? 200 : n), s);
                if (proper_tool_answer_fail(cur, msg, strlen(msg))) goto nomem;
            }
        } else if (proper_tool_line_starts(&l, "Time for model checking: ") && cur) {
            double t;
            s = l.s + 25;
            n = l.n - 25;
            if (n > 9 && memcmp(s + n - 9, " seconds.", 9) == 0 && proper_tool_number(s, n - 9, &t) == 0)
                cur->seconds = t;
        } else if (proper_tool_line_starts(&l, "Error: ")) {
            fatal = l.s + 7;
            fatal_n = l.n - 7;
            fatal_file = file;
            fatal_file_n = file_n;
            if (cur && !cur->ok && !cur->message) {
                char msg[PROPER_ERROR_MESSAGE_MAX];
                const char *hint;
                n = fatal_n;
                while (n && fatal[n - 1] == '.') n--;
                hint = proper__prismtool_hint(fatal, n);
                snprintf(msg, sizeof msg, "%.*s%s", (int)(n > 400 ? 400 : n), fatal, hint);
                if (proper_tool_answer_fail(cur, msg, strlen(msg))) goto nomem;
            }
        }
    }
    if (exit_status != 0) {
        proper_tool_output_free(out);
        if (fatal) return proper__prismtool_fatal(err, fatal, fatal_n, fatal_file, fatal_file_n);
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
            if (!a->ok && !a->message && proper_tool_answer_fail(a, "PRISM printed no result", 23)) goto nomem;
        }
    }
    if (out->n_answers == 0 && fatal) {
        proper_tool_output_free(out);
        return proper__prismtool_fatal(err, fatal, fatal_n, fatal_file, fatal_file_n);
    }
    return PROPER_OK;
nomem:
    proper_tool_output_free(out);
    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory reading PRISM's output");
}


/* ---- the public entry points ---- */

PROPER_API int proper_prismtool_argv(const char *prism, const proper_tool_model *model, const char *props_file,
                                     const char *consts, const proper_tool_opts *opts, proper_tool_argv *out,
                                     proper_error *err) {
    proper_tool_argv av;
    int rc;
    proper_tool_argv_init(&av);
    if ((rc = proper__prismtool_argv_into(prism, model, props_file, consts, opts, &av, err))) {
        proper_tool_argv_free(&av);
        return rc;
    }
    proper_tool_argv_free(out);
    *out = av;
    return PROPER_OK;
}

PROPER_API int proper_prismtool_parse(const char *text, size_t len, int exit_status, proper_tool_output *out,
                                      proper_error *err) {
    proper_tool_output o;
    int rc;
    proper_tool_output_init(&o);
    if ((rc = proper__prismtool_read(text, len, exit_status, &o, err))) return rc;
    proper_tool_output_free(out);
    *out = o;
    return PROPER_OK;
}

/* ---- the PRISM backend ---- */

static int proper__prismtool_parse_fn(const char *text, size_t len, int exit_status, int digits, proper_tool_output *out,
                                      proper_error *err) {
    (void)digits;
    return proper_prismtool_parse(text, len, exit_status, out, err);
}

static const proper_tool_kind proper__prismtool_kind = {
    "prism", "PROPER_PRISM", "prism", "-version", "PRISM", proper_prismtool_version,
    0, proper_prismtool_argv, proper__prismtool_parse_fn, NULL, NULL};

PROPER_API int proper_prismtool_check(const char *binary, const proper_tool_input *in, const proper_tool_opts *opts,
                                      proper_tool_output *out, proper_error *err) {
    return proper_tool_check(&proper__prismtool_kind, binary, in, opts, out, err);
}

static int proper__prismtool_probe(const proper_backend *self, proper_backend_info *info, proper_error *err) {
    (void)self;
    return proper_tool_probe(&proper__prismtool_kind, info, err);
}

static int proper__prismtool_check(const proper_backend *self, const proper_backend_check_request *req,
                                   proper_backend_check_result *out, proper_error *err) {
    (void)self;
    return proper_tool_check_request(&proper__prismtool_kind, req, out, err);
}

static const proper_backend proper__prismtool_backend = {
    "prism", "PRISM model checker (PROPER_PRISM or prism in PATH)", proper__prismtool_probe, proper__prismtool_check, NULL, NULL};

PROPER_API const proper_backend *proper_backend_prism(void) { return &proper__prismtool_backend; }

#endif /* PROPER_BACKEND_PRISM_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
