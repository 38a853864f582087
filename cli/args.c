/* args.c — the CLI's one option parser, number parsers, error printing and
 * clock (declared in cli.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* The name messages start with, and whether they are printed (cli.h). */
static const char *proper__cli_program = "proper";
static int proper__cli_quiet = 0;

void cli_set_program(const char *name) { proper__cli_program = name; }

void cli_set_quiet(int quiet) { proper__cli_quiet = quiet; }

void cli_warn_lines(const char *lines) {
    while (lines && *lines && !proper__cli_quiet) {
        const char *nl = strchr(lines, '\n');
        int n = nl ? (int)(nl - lines) : (int)strlen(lines);
        fprintf(stderr, "%s: warning: %.*s\n", proper__cli_program, n, lines);
        lines += n + (nl != NULL);
    }
}

void cli_warn_deadlocks(size_t n) {
    char line[160];
    if (!n) return;
    snprintf(line, sizeof line, "%lu deadlock state%s given a self-loop, as PRISM does (--nofixdl refuses them)",
             (unsigned long)n, n == 1 ? "" : "s");
    cli_warn_lines(line);
}

int cli_report_explicit_props(proper_error *err, int have_sta) {
    size_t n = strlen(err->message);
    if (err->code == PROPER_EUNDEFINED && !have_sta && strstr(err->message, "unknown identifier"))
        snprintf(err->message + n, sizeof err->message - n, " (explicit files name variables in their .sta: give it with --sta)");
    return cli_report(err);
}

int cli_report(const proper_error *err) {
    char buf[PROPER_ERROR_MESSAGE_MAX + PROPER_ERROR_FILE_MAX + 64];
    if (proper__cli_quiet) return CLI_BAD_INPUT;
    fprintf(stderr, "%s: %s\n", proper__cli_program, proper_error_format(err, buf, sizeof buf));
    return CLI_BAD_INPUT;
}

int cli_fail(const char *fmt, ...) {
    va_list ap;
    if (proper__cli_quiet) return CLI_BAD_INPUT;
    fprintf(stderr, "%s: ", proper__cli_program);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_BAD_INPUT;
}

/* ---- options ---- */

void cli_args_init(cli_args *a, const char *cmd, int argc, char **argv) {
    int i;
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->argc = argc;
    a->argv = argv;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) break;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) a->help = 1;
    }
}

int cli_next(cli_args *a) {
    if (a->status) return 0;
    for (;;) {
        a->i++;
        a->value = NULL;
        a->name[0] = '\0';
        if (a->i >= a->argc) {
            a->arg = NULL;
            return 0;
        }
        a->arg = a->argv[a->i];
        if (!a->options_done && strcmp(a->arg, "--") == 0) {
            a->options_done = 1;
            continue;
        }
        return 1;
    }
}

/* An option, not "-", a negative number or anything after "--". */
static int proper__cli_is_option(const cli_args *a) {
    const char *s = a->arg;
    if (a->options_done || s[0] != '-' || s[1] == '\0') return 0;
    if (isdigit((unsigned char)s[1])) return 0;
    if (s[1] == '.' && isdigit((unsigned char)s[2])) return 0;
    return 1;
}

enum { CLI__NO_MATCH, CLI__MATCH, CLI__MATCH_VALUE };

/* Whether the current argument is one of the spellings of `spec`; on a
 * match a->name holds the spelling and *inline_value the text after
 * "--name=" or "-o" (or NULL). */
static int proper__cli_match(cli_args *a, const char *spec, const char **inline_value) {
    const char *p = spec;
    *inline_value = NULL;
    if (!a->arg || !proper__cli_is_option(a)) return CLI__NO_MATCH;
    while (*p) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        PROPER_ASSERT(n >= 2 && p[0] == '-' && n < sizeof a->name);
        if (strncmp(a->arg, p, n) == 0) {
            int is_long = p[1] == '-';
            const char *rest = a->arg + n;
            if (*rest == '\0' || (is_long && *rest == '=') || !is_long) {
                memcpy(a->name, p, n);
                a->name[n] = '\0';
                if (*rest == '\0') return CLI__MATCH;
                *inline_value = is_long ? rest + 1 : rest;
                return CLI__MATCH_VALUE;
            }
        }
        p += n;
        if (*p == '|') p++;
    }
    return CLI__NO_MATCH;
}

int cli_flag(cli_args *a, const char *spec) {
    const char *v;
    int m;
    if (a->status) return 0;
    m = proper__cli_match(a, spec, &v);
    if (m == CLI__NO_MATCH) return 0;
    if (m == CLI__MATCH_VALUE) {
        /* "-xy" is not the flag "-x"; "--json=1" is the flag with a value */
        if (a->name[1] != '-') return 0;
        cli_usage_error(a, "option '%s' takes no value", a->name);
    }
    return 1;
}

int cli_opt(cli_args *a, const char *spec) {
    const char *v;
    int m;
    if (a->status) return 0;
    m = proper__cli_match(a, spec, &v);
    if (m == CLI__NO_MATCH) return 0;
    if (m == CLI__MATCH_VALUE) {
        a->value = v;
    } else if (a->i + 1 < a->argc) {
        a->i++;
        a->value = a->argv[a->i];
    } else {
        cli_usage_error(a, "option '%s' needs a value", a->name);
    }
    return 1;
}

int cli_opt_next(cli_args *a) {
    if (a->status) return 0;
    if (a->i + 1 >= a->argc) {
        cli_usage_error(a, "option '%s' needs 2 values", a->name);
        return 0;
    }
    a->i++;
    a->value = a->argv[a->i];
    return 1;
}

int cli_opt_uint(cli_args *a, const char *spec, unsigned long long min, unsigned long long max,
                 unsigned long long *out) {
    if (!cli_opt(a, spec)) return 0;
    if (!a->status && cli_parse_uint(a->value, min, max, a->name, out)) a->status = CLI_BAD_INPUT;
    return 1;
}

int cli_opt_double(cli_args *a, const char *spec, const char *range, double *out) {
    if (!cli_opt(a, spec)) return 0;
    if (!a->status && cli_parse_double(a->value, range, a->name, out)) a->status = CLI_BAD_INPUT;
    return 1;
}

int cli_positional(cli_args *a) {
    if (a->status || !a->arg || proper__cli_is_option(a)) return 0;
    a->value = a->arg;
    return 1;
}

void cli_unknown(cli_args *a) {
    if (a->status || !a->arg) return;
    if (proper__cli_is_option(a)) cli_usage_error(a, "unknown option '%s'", a->arg);
    else cli_usage_error(a, "unexpected argument '%s'", a->arg);
}

int cli_usage_error(cli_args *a, const char *fmt, ...) {
    va_list ap;
    a->status = CLI_BAD_INPUT;
    if (proper__cli_quiet) return CLI_BAD_INPUT;
    fprintf(stderr, "%s %s: ", proper__cli_program, a->cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see '%s %s --help')\n", proper__cli_program, a->cmd);
    return CLI_BAD_INPUT;
}

/* ---- numbers ---- */

/* `text` without the blanks around it: [*begin, *end). */
static void proper__cli_trim(const char *text, const char **begin, const char **end) {
    const char *b = text, *e = text + strlen(text);
    while (b < e && isspace((unsigned char)*b)) b++;
    while (e > b && isspace((unsigned char)e[-1])) e--;
    *begin = b;
    *end = e;
}

/* Digits [p, end) as a magnitude; 0 = ok, 1 = not digits, 2 = above limit. */
static int proper__cli_digits(const char *p, const char *end, unsigned long long limit, unsigned long long *out) {
    unsigned long long v = 0;
    if (p == end) return 1;
    for (; p < end; p++) {
        unsigned d;
        if (!isdigit((unsigned char)*p)) return 1;
        d = (unsigned)(*p - '0');
        if (v > (limit - d) / 10) {
            /* still garbage if a non-digit follows */
            for (; p < end; p++)
                if (!isdigit((unsigned char)*p)) return 1;
            return 2;
        }
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int cli_parse_uint(const char *text, unsigned long long min, unsigned long long max, const char *what,
                   unsigned long long *out) {
    const char *p, *end;
    char range[80];
    unsigned long long v;
    int neg = 0, rc;
    if (max == ULLONG_MAX) snprintf(range, sizeof range, "a whole number of at least %llu", min);
    else snprintf(range, sizeof range, "a whole number from %llu to %llu", min, max);
    if (min == 0 && max == ULLONG_MAX) snprintf(range, sizeof range, "a non-negative whole number");
    proper__cli_trim(text, &p, &end);
    if (p < end && (*p == '+' || *p == '-')) neg = *p++ == '-';
    rc = proper__cli_digits(p, end, ULLONG_MAX, &v);
    if (rc == 1) return cli_fail("%s: expected %s, got '%s'", what, range, text);
    if (neg && !(rc == 0 && v == 0 && min == 0))
        return cli_fail("%s: '%s' is negative; expected %s", what, text, range);
    if (rc == 2) return cli_fail("%s: '%s' is too large; expected %s", what, text, range);
    if (v < min || v > max) return cli_fail("%s: '%s' is out of range; expected %s", what, text, range);
    *out = v;
    return CLI_OK;
}

int cli_parse_int(const char *text, long long min, long long max, const char *what, long long *out) {
    const char *p, *end;
    char range[96];
    unsigned long long mag, limit;
    long long v;
    int neg = 0, rc;
    snprintf(range, sizeof range, "a whole number from %lld to %lld", min, max);
    proper__cli_trim(text, &p, &end);
    if (p < end && (*p == '+' || *p == '-')) neg = *p++ == '-';
    limit = neg ? (unsigned long long)LLONG_MAX + 1u : (unsigned long long)LLONG_MAX;
    rc = proper__cli_digits(p, end, limit, &mag);
    if (rc == 1) return cli_fail("%s: expected %s, got '%s'", what, range, text);
    if (rc == 2) return cli_fail("%s: '%s' is out of range; expected %s", what, text, range);
    if (neg) v = mag == (unsigned long long)LLONG_MAX + 1u ? LLONG_MIN : -(long long)mag;
    else v = (long long)mag;
    if (v < min || v > max) return cli_fail("%s: '%s' is out of range; expected %s", what, text, range);
    *out = v;
    return CLI_OK;
}

int cli_parse_double(const char *text, const char *range, const char *what, double *out) {
    proper_error err;
    double v, lo = -HUGE_VAL, hi = HUGE_VAL;
    int lo_in = 0, hi_in = 0, ok;
    char desc[96];
    if (proper_parse_double_str(text, &v, what, &err)) return cli_report(&err);
    if (range) {
        char *p;
        PROPER_ASSERT(range[0] == '(' || range[0] == '[');
        lo_in = range[0] == '[';
        lo = strtod(range + 1, &p);
        PROPER_ASSERT(*p == ',');
        hi = strtod(p + 1, &p);
        PROPER_ASSERT(*p == ')' || *p == ']');
        hi_in = *p == ']';
    }
    ok = (lo_in ? v >= lo : v > lo) && (hi_in ? v <= hi : v < hi);
    if (ok) {
        *out = v;
        return CLI_OK;
    }
    if (!range) snprintf(desc, sizeof desc, "a finite number");
    else if (lo == 0.0 && hi == HUGE_VAL && !hi_in) snprintf(desc, sizeof desc, "a %s number", lo_in ? "non-negative" : "positive");
    else snprintf(desc, sizeof desc, "a number in %s", range);
    return cli_fail("%s: expected %s, got '%s'", what, desc, text);
}

/* ---- time ---- */

double cli_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
