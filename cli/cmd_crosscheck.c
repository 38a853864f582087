/* proper crosscheck — check every property with proper's own engine and with
 * each installed external model checker (PRISM, Storm), and compare. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../backends/storm.h"
#include "cli.h"

/* Default relative tolerance of the comparison. */
#define CROSSCHECK_TOLERANCE 1e-6
/* Default seconds one tool run may take. */
#define CROSSCHECK_TIMEOUT 600.0

static void crosscheck_usage(FILE *out) {
    fprintf(out,
            "usage: proper crosscheck MODEL.pm PROPS [options]\n"
            "       proper crosscheck --explicit MODEL.tra MODEL.lab PROPS [--srew F] [--trew F] [options]\n\n"
            "Checks every property of PROPS (a properties file, or one property as text)\n"
            "with proper's own engine (native) and with each installed external model\n"
            "checker: PRISM (PROPER_PRISM, or prism in PATH) and Storm (PROPER_STORM, or\n"
            "storm in PATH). Prints, per property and backend, the value, its absolute\n"
            "and relative difference from native, and the time.\n\n"
            "Two values agree when they are equal (Infinity, NaN, true/false included),\n"
            "or differ by at most the tolerance relative to the larger one, or by at\n"
            "most --abs-tolerance, or by at most the error the tool states for its value\n"
            "(PRISM's \"+/- E estimated\", the digits Storm prints) plus native's own\n"
            "(its relative stopping target times the value).\n\n"
            "options:\n"
            "  --const A=1,B=0.5   values of undefined constants (given to every backend)\n"
            "  --tolerance T       relative tolerance (default %g)\n"
            "  --abs-tolerance A   absolute tolerance (default 0)\n"
            "  --precision E       relative precision asked of the tools (PRISM -epsilon,\n"
            "                      Storm --precision; default %g)\n"
            "  --exact             ask the tools for exact rational arithmetic instead\n"
            "                      (PRISM 4.9 fails on -exact with imported explicit\n"
            "                      files, so not with --via-explicit or --explicit)\n"
            "  --via-explicit      hand the tools the DTMC proper built (PRISM explicit\n"
            "                      files, Storm DRN) instead of the PRISM-language model:\n"
            "                      checks proper's model construction too\n"
            "  --backend NAME      only this external backend (prism or storm)\n"
            "  --timeout S         seconds one tool run may take (default %g)\n"
            "  --json              print the results as JSON\n\n"
            "Exit status: 0 every value agrees, or no external model checker is\n"
            "installed (then only the native column is printed, with a note saying so);\n"
            "1 a value differs, or a tool failed or timed out; 2 bad input.\n",
            CROSSCHECK_TOLERANCE, PROPER_PRISMTOOL_EPSILON, CROSSCHECK_TIMEOUT);
}

typedef struct xc_opts {
    const char *model, *lab, *props, *consts, *srew, *trew, *only;
    int explicit_files, json, exact, via_explicit;
    double tolerance, abs_tolerance, precision, timeout;
} xc_opts;

/* One external backend's run. */
typedef struct xc_tool {
    const char *name;    /* "prism" */
    const proper_backend *backend;
    proper_backend_info info;
    char reason[PROPER_ERROR_MESSAGE_MAX + 64]; /* why not installed / why the run failed */
    int ran, failed;
    proper_tool_output out;
} xc_tool;

/* Native results. */
typedef struct xc_native {
    double value, seconds, error;
    int type;
} xc_native;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int parse_number(const char *v, const char *what, double *out, int positive) {
    proper_error err;
    if (proper_parse_double_str(v, out, what, &err)) return cli_report(&err);
    if (positive ? !(*out > 0.0) || isinf(*out) : !(*out >= 0.0) || isinf(*out))
        return cli_fail("%s: expected a %s number, got '%s'", what, positive ? "positive" : "non-negative", v);
    return CLI_OK;
}

static int parse_args(int argc, char **argv, xc_opts *o) {
    int i, missing, positional = 0, rc;
    const char *pos[4] = {NULL, NULL, NULL, NULL};
    memset(o, 0, sizeof *o);
    o->tolerance = CROSSCHECK_TOLERANCE;
    o->precision = PROPER_PRISMTOOL_EPSILON;
    o->timeout = CROSSCHECK_TIMEOUT;
    for (i = 1; i < argc; i++) {
        const char *v;
        if (strcmp(argv[i], "--explicit") == 0) { o->explicit_files = 1; continue; }
        if (strcmp(argv[i], "--json") == 0) { o->json = 1; continue; }
        if (strcmp(argv[i], "--exact") == 0) { o->exact = 1; continue; }
        if (strcmp(argv[i], "--via-explicit") == 0) { o->via_explicit = 1; continue; }
        if ((v = cli_option(argc, argv, &i, "--const", &missing))) { o->consts = v; continue; }
        if ((v = cli_option(argc, argv, &i, "--srew", &missing))) { o->srew = v; continue; }
        if ((v = cli_option(argc, argv, &i, "--trew", &missing))) { o->trew = v; continue; }
        if ((v = cli_option(argc, argv, &i, "--backend", &missing))) {
            if (strcmp(v, "prism") != 0 && strcmp(v, "storm") != 0)
                return cli_fail("--backend: expected prism or storm, got '%s'", v);
            o->only = v;
            continue;
        }
        if ((v = cli_option(argc, argv, &i, "--tolerance", &missing))) {
            if ((rc = parse_number(v, "--tolerance", &o->tolerance, 0))) return rc;
            continue;
        }
        if ((v = cli_option(argc, argv, &i, "--abs-tolerance", &missing))) {
            if ((rc = parse_number(v, "--abs-tolerance", &o->abs_tolerance, 0))) return rc;
            continue;
        }
        if ((v = cli_option(argc, argv, &i, "--precision", &missing))) {
            if ((rc = parse_number(v, "--precision", &o->precision, 1))) return rc;
            if (o->precision >= 1.0) return cli_fail("--precision: expected a number below 1, got '%s'", v);
            continue;
        }
        if ((v = cli_option(argc, argv, &i, "--timeout", &missing))) {
            if ((rc = parse_number(v, "--timeout", &o->timeout, 1))) return rc;
            continue;
        }
        if (missing) return cli_fail("%s needs a value", argv[i]);
        if (argv[i][0] == '-' && argv[i][1] == '-')
            return cli_fail("unknown option '%s' (try 'proper crosscheck --help')", argv[i]);
        if (positional >= 4) return cli_fail("too many arguments ('%s'); see 'proper crosscheck --help'", argv[i]);
        pos[positional++] = argv[i];
    }
    if (o->explicit_files) {
        if (positional != 3) return cli_fail("--explicit needs MODEL.tra MODEL.lab PROPS (see 'proper crosscheck --help')");
        o->model = pos[0];
        o->lab = pos[1];
        o->props = pos[2];
        if (o->via_explicit) return cli_fail("--via-explicit is for PRISM-language models");
    } else {
        if (positional != 2) return cli_fail("expected MODEL.pm and PROPS (see 'proper crosscheck --help')");
        if (o->srew || o->trew) return cli_fail("--srew/--trew need --explicit");
        o->model = pos[0];
        o->props = pos[1];
    }
    return CLI_OK;
}

/* PROPS names a file when one exists there; otherwise it is a property. */
static int props_is_file(const char *s) {
    FILE *f = fopen(s, "rb");
    if (!f) return 0;
    fclose(f);
    return 1;
}

/* Model, properties, constants, built DTMC. */
static int load(const xc_opts *o, proper_prism_model **pm, proper_prism_props **props, char **props_text,
                proper_dtmc *d) {
    proper_error err;
    int is_file = props_is_file(o->props);
    if (o->explicit_files) {
        if (proper_dtmc_read_tra(d, o->model, NULL, &err) || proper_dtmc_read_lab(d, o->lab, &err) ||
            (o->srew && proper_dtmc_read_srew(d, o->srew, NULL, &err)) ||
            (o->trew && proper_dtmc_read_trew(d, o->trew, NULL, &err)))
            return cli_report(&err);
    } else if (proper_prism_read(pm, o->model, &err)) {
        return cli_report(&err);
    }
    if (is_file) {
        if (proper_read_file(o->props, props_text, NULL, &err)) return cli_report(&err);
    } else {
        size_t n = strlen(o->props);
        *props_text = (char *)PROPER_MALLOC(n + 1);
        if (!*props_text) return cli_fail("out of memory");
        memcpy(*props_text, o->props, n + 1);
    }
    if (proper_prism_props_parse(props, *pm, *props_text, strlen(*props_text), is_file ? o->props : "(property)", &err))
        return cli_report(&err);
    if (o->consts && proper_prism_set_consts(*pm, *props, o->consts, &err)) return cli_report(&err);
    if (!o->explicit_files && proper_prism_build(*pm, NULL, d, &err)) return cli_report(&err);
    return CLI_OK;
}

static int run_native(const proper_prism_props *props, const proper_dtmc *d, xc_native *nat) {
    proper_prism_check_opts co;
    proper_error err;
    size_t i, n = proper_prism_props_count(props);
    proper_prism_check_opts_default(&co);
    for (i = 0; i < n; i++) {
        double start = now_seconds();
        if (proper_prism_props_check(props, i, d, &co, &nat[i].value, &err)) return cli_report(&err);
        nat[i].seconds = now_seconds() - start;
        nat[i].type = proper_prism_props_type(props, i);
        /* native's own stated error: its relative stopping target */
        nat[i].error = isfinite(nat[i].value) ? fabs(nat[i].value) * co.solve.rel_precision : 0.0;
    }
    return CLI_OK;
}

static void run_tool(const xc_opts *o, xc_tool *t, const char *props_text, const proper_dtmc *d) {
    proper_tool_input in;
    proper_tool_opts to;
    proper_error err;
    int rc;
    proper_tool_input_init(&in);
    proper_tool_opts_default(&to);
    to.epsilon = o->precision;
    to.exact = o->exact;
    if (o->explicit_files) {
        in.tra = o->model;
        in.lab = o->lab;
        in.srew = o->srew;
        in.trew = o->trew;
    } else if (o->via_explicit) {
        in.dtmc = d;
    } else {
        in.model_file = o->model;
    }
    in.props = props_text;
    in.props_name = props_is_file(o->props) ? o->props : NULL;
    in.consts = o->consts;
    in.timeout = o->timeout;
    if (strcmp(t->name, "prism") == 0) rc = proper_prismtool_check(t->info.path, &in, &to, &t->out, &err);
    else rc = proper_stormtool_check(t->info.path, &in, &to, &t->out, &err);
    t->ran = 1;
    if (rc) {
        char buf[PROPER_ERROR_MESSAGE_MAX + PROPER_ERROR_FILE_MAX + 64];
        t->failed = 1;
        snprintf(t->reason, sizeof t->reason, "%s", proper_error_format(&err, buf, sizeof buf));
    }
}

/* Comparison of one tool answer with native. */
typedef struct xc_cmp {
    int agree, within_stated, have_diff;
    double abs_diff, rel_diff;
} xc_cmp;

static xc_cmp compare(const xc_opts *o, const xc_native *n, const proper_tool_answer *a) {
    xc_cmp c;
    double scale;
    memset(&c, 0, sizeof c);
    if (!a->ok) return c;
    if (n->value != n->value || a->value != a->value) {
        c.agree = n->value != n->value && a->value != a->value;
        return c;
    }
    if (isinf(n->value) || isinf(a->value)) {
        c.agree = n->value == a->value;
        return c;
    }
    c.have_diff = 1;
    c.abs_diff = fabs(a->value - n->value);
    scale = fabs(n->value) > fabs(a->value) ? fabs(n->value) : fabs(a->value);
    c.rel_diff = scale > 0.0 ? c.abs_diff / scale : 0.0;
    if (c.abs_diff <= o->tolerance * scale || c.abs_diff <= o->abs_tolerance) c.agree = 1;
    else if (c.abs_diff <= a->error + n->error) c.agree = c.within_stated = 1;
    return c;
}

static void format_value(char *buf, size_t size, double v, int is_bool, int json) {
    if (is_bool) snprintf(buf, size, "%s", v != 0 ? "true" : "false");
    else if (isinf(v)) snprintf(buf, size, json ? "\"%sInfinity\"" : "%sInfinity", v < 0 ? "-" : "");
    else if (v != v) snprintf(buf, size, json ? "\"NaN\"" : "NaN");
    else {
        /* the shortest decimal that reads back as v (as PRISM prints doubles) */
        int digits;
        for (digits = 15; digits < 17; digits++) {
            snprintf(buf, size, "%.*g", digits, v);
            if (strtod(buf, NULL) == v) return;
        }
        snprintf(buf, size, "%.17g", v);
    }
}

static void print_json_string(const char *s) {
    putchar('"');
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') printf("\\%c", ch);
        else if (ch < 0x20) printf("\\u%04x", ch);
        else putchar(ch);
    }
    putchar('"');
}

static void json_string_or_null(const char *s) {
    if (s) print_json_string(s);
    else printf("null");
}

/* Property label: "name": text, or text. */
static void property_label(char *buf, size_t size, const proper_prism_props *p, size_t i) {
    const char *name = proper_prism_props_name(p, i), *text = proper_prism_props_text(p, i);
    if (name) snprintf(buf, size, "\"%s\": %s", name, text);
    else snprintf(buf, size, "%s", text);
}

/* The tool's answer to property i, or NULL when its run failed or it
 * answered a different number of properties. */
static const proper_tool_answer *answer_of(const xc_tool *t, size_t i, size_t n) {
    if (!t->ran || t->failed || t->out.n_answers != n) return NULL;
    return &t->out.answers[i];
}

static int report_table(const xc_opts *o, const proper_prism_props *p, const proper_dtmc *d, const xc_native *nat,
                        xc_tool *tools, size_t n_tools) {
    size_t i, k, n = proper_prism_props_count(p), width = 8, installed = 0;
    int status = CLI_OK;
    printf("model: %s (%lu states, %llu transitions)%s%s\n", o->model, (unsigned long)d->n_states,
           (unsigned long long)d->n_trans, o->consts ? ", constants " : "", o->consts ? o->consts : "");
    printf("backends: native (proper %s)", PROPER_VERSION_STRING);
    for (k = 0; k < n_tools; k++) {
        if (tools[k].info.installed) {
            installed++;
            printf(", %s (%s, %s)", tools[k].name, tools[k].info.version[0] ? tools[k].info.version : "version unknown",
                   tools[k].info.path);
        }
    }
    printf("\n");
    for (k = 0; k < n_tools; k++)
        if (!tools[k].info.installed) printf("  %s: not installed (%s)\n", tools[k].name, tools[k].reason);
    for (i = 0; i < n; i++) {
        char label[600];
        property_label(label, sizeof label, p, i);
        if (strlen(label) > width && strlen(label) <= 60) width = strlen(label);
    }
    printf("\n%-*s  %-7s  %-24s  %-9s  %-9s  %-9s  %s\n", (int)width, "property", "backend", "value", "abs diff",
           "rel diff", "time", "verdict");
    for (i = 0; i < n; i++) {
        char label[600], value[64];
        int is_bool = nat[i].type == PROPER_PRISM_BOOL;
        property_label(label, sizeof label, p, i);
        format_value(value, sizeof value, nat[i].value, is_bool, 0);
        printf("%-*s  %-7s  %-24s  %-9s  %-9s  %7.3f s\n", (int)width, label, "native", value, "-", "-",
               nat[i].seconds);
        for (k = 0; k < n_tools; k++) {
            const proper_tool_answer *a = answer_of(&tools[k], i, n);
            char ad[32] = "-", rd[32] = "-", tm[32] = "-", verdict[PROPER_ERROR_MESSAGE_MAX + 64];
            xc_cmp c;
            if (!tools[k].ran) continue;
            if (!a) {
                status = CLI_CHECK_FAILED;
                printf("%-*s  %-7s  %-24s  %-9s  %-9s  %-9s  %s\n", (int)width, "", tools[k].name, "-", "-", "-", "-",
                       tools[k].failed ? "FAILED (see below)" : "FAILED: different number of properties");
                continue;
            }
            if (!a->ok) {
                status = CLI_CHECK_FAILED;
                printf("%-*s  %-7s  %-24s  %-9s  %-9s  %-9s  FAILED: %s\n", (int)width, "", tools[k].name, "-", "-",
                       "-", "-", a->message ? a->message : "no result");
                continue;
            }
            c = compare(o, &nat[i], a);
            if (!c.agree) status = CLI_CHECK_FAILED;
            format_value(value, sizeof value, a->value, a->is_bool || is_bool, 0);
            if (c.have_diff) {
                snprintf(ad, sizeof ad, "%.2g", c.abs_diff);
                snprintf(rd, sizeof rd, "%.2g", c.rel_diff);
            }
            if (a->seconds >= 0) snprintf(tm, sizeof tm, "%7.3f s", a->seconds);
            if (!c.agree) snprintf(verdict, sizeof verdict, "DIFFERS");
            else if (c.within_stated) snprintf(verdict, sizeof verdict, "ok (within the stated error %.2g)", a->error + nat[i].error);
            else snprintf(verdict, sizeof verdict, "ok");
            if (a->exact) {
                size_t len = strlen(verdict);
                snprintf(verdict + len, sizeof verdict - len, " [exact %s]", a->exact);
            }
            printf("%-*s  %-7s  %-24s  %-9s  %-9s  %-9s  %s\n", (int)width, "", tools[k].name, value, ad, rd, tm, verdict);
        }
    }
    printf("\n");
    for (k = 0; k < n_tools; k++) {
        if (!tools[k].ran) continue;
        if (tools[k].failed) printf("%s failed: %s\n", tools[k].name, tools[k].reason);
        else if (tools[k].out.n_answers != n)
            printf("%s answered %lu properties, native %lu\n", tools[k].name, (unsigned long)tools[k].out.n_answers,
                   (unsigned long)n);
        else printf("%s: %.3f s for the whole run (start-up included)\n", tools[k].name, tools[k].out.seconds);
    }
    if (installed == 0) printf("no external model checker is installed: native values only, nothing compared\n");
    else if (status == CLI_OK) printf("all values agree (tolerance %g relative, %g absolute)\n", o->tolerance, o->abs_tolerance);
    else printf("cross-check FAILED\n");
    return status;
}

static int report_json(const xc_opts *o, const proper_prism_props *p, const proper_dtmc *d, const xc_native *nat,
                       xc_tool *tools, size_t n_tools) {
    size_t i, k, shown, n = proper_prism_props_count(p);
    int status = CLI_OK, any = 0;
    char value[64];
    printf("{\"model\": ");
    print_json_string(o->model);
    printf(", \"states\": %lu, \"transitions\": %llu, \"constants\": ", (unsigned long)d->n_states,
           (unsigned long long)d->n_trans);
    json_string_or_null(o->consts);
    printf(", \"tolerance\": %.17g, \"abs_tolerance\": %.17g, \"backends\": [{\"name\": \"native\", \"installed\": true, "
           "\"version\": \"proper %s\"}",
           o->tolerance, o->abs_tolerance, PROPER_VERSION_STRING);
    for (k = 0; k < n_tools; k++) {
        printf(", {\"name\": \"%s\", \"installed\": %s, \"version\": ", tools[k].name,
               tools[k].info.installed ? "true" : "false");
        json_string_or_null(tools[k].info.installed ? tools[k].info.version : NULL);
        printf(", \"path\": ");
        json_string_or_null(tools[k].info.installed ? tools[k].info.path : NULL);
        if (tools[k].ran && !tools[k].failed) printf(", \"seconds\": %.6f", tools[k].out.seconds);
        printf(", \"error\": ");
        json_string_or_null(tools[k].reason[0] ? tools[k].reason : NULL);
        printf("}");
        any |= tools[k].ran;
    }
    printf("], \"properties\": [");
    for (i = 0; i < n; i++) {
        int is_bool = nat[i].type == PROPER_PRISM_BOOL;
        printf("%s{\"name\": ", i ? ", " : "");
        json_string_or_null(proper_prism_props_name(p, i));
        printf(", \"property\": ");
        print_json_string(proper_prism_props_text(p, i));
        format_value(value, sizeof value, nat[i].value, is_bool, 1);
        printf(", \"native\": {\"value\": %s, \"seconds\": %.6f}, \"tools\": [", value, nat[i].seconds);
        for (k = 0, shown = 0; k < n_tools; k++) {
            const proper_tool_answer *a = answer_of(&tools[k], i, n);
            xc_cmp c;
            if (!tools[k].ran) continue;
            printf("%s{\"backend\": \"%s\", ", shown++ ? ", " : "", tools[k].name);
            if (!a || !a->ok) {
                status = CLI_CHECK_FAILED;
                printf("\"agree\": false, \"error\": ");
                print_json_string(!a ? (tools[k].failed ? tools[k].reason : "different number of properties")
                                     : (a->message ? a->message : "no result"));
                printf("}");
                continue;
            }
            c = compare(o, &nat[i], a);
            if (!c.agree) status = CLI_CHECK_FAILED;
            format_value(value, sizeof value, a->value, a->is_bool || is_bool, 1);
            printf("\"value\": %s, \"stated_error\": %.6g, \"exact\": ", value, a->error);
            json_string_or_null(a->exact);
            if (c.have_diff) printf(", \"abs_diff\": %.6g, \"rel_diff\": %.6g", c.abs_diff, c.rel_diff);
            else printf(", \"abs_diff\": null, \"rel_diff\": null");
            if (a->seconds >= 0) printf(", \"seconds\": %.6f", a->seconds);
            printf(", \"agree\": %s}", c.agree ? "true" : "false");
        }
        printf("]}");
    }
    printf("], \"compared\": %s, \"agree\": %s}\n", any ? "true" : "false", status == CLI_OK ? "true" : "false");
    return status;
}

int cmd_crosscheck(int argc, char **argv) {
    xc_opts o;
    proper_prism_model *pm = NULL;
    proper_prism_props *props = NULL;
    char *props_text = NULL;
    proper_dtmc d;
    xc_native *nat = NULL;
    xc_tool tools[2];
    size_t k, n_tools = 0;
    int rc, i;
    for (i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            crosscheck_usage(stdout);
            return CLI_OK;
        }
    if ((rc = parse_args(argc, argv, &o)) != CLI_OK) return rc;
    proper_dtmc_init(&d);
    memset(tools, 0, sizeof tools);
    if ((rc = load(&o, &pm, &props, &props_text, &d)) != CLI_OK) goto done;
    nat = (xc_native *)proper_calloc(proper_prism_props_count(props) + 1, sizeof *nat);
    if (!nat) {
        rc = cli_fail("out of memory");
        goto done;
    }
    if ((rc = run_native(props, &d, nat)) != CLI_OK) goto done;
    if (!o.only || strcmp(o.only, "prism") == 0) tools[n_tools++].backend = proper_backend_prism();
    if (!o.only || strcmp(o.only, "storm") == 0) tools[n_tools++].backend = proper_backend_storm();
    for (k = 0; k < n_tools; k++) {
        proper_error err;
        xc_tool *t = &tools[k];
        proper_tool_output_init(&t->out);
        t->name = t->backend->name;
        proper_error_clear(&err);
        if ((rc = proper_backend_probe(t->backend, &t->info, &err)) != PROPER_OK) {
            rc = cli_report(&err);
            goto done;
        }
        if (!t->info.installed) {
            snprintf(t->reason, sizeof t->reason, "%s", err.message[0] ? err.message : "probe failed");
            if (o.only) {
                rc = cli_fail("%s is not installed: %s", t->name, t->reason);
                goto done;
            }
            continue;
        }
        run_tool(&o, t, props_text, &d);
    }
    rc = o.json ? report_json(&o, props, &d, nat, tools, n_tools) : report_table(&o, props, &d, nat, tools, n_tools);
done:
    for (k = 0; k < n_tools; k++) proper_tool_output_free(&tools[k].out);
    PROPER_FREE(nat);
    PROPER_FREE(props_text);
    proper_prism_props_free(props);
    proper_prism_free(pm);
    proper_dtmc_free(&d);
    return rc;
}
