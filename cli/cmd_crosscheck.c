/* proper crosscheck — check every property with proper's own engine and with
 * each installed external model checker (PRISM, Storm), and compare. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../backends/prism.h"
#include "../backends/storm.h"
#include "../src/prism.h"
#include "cli.h"
#include "json.h"

/* Default relative tolerance of the comparison. */
#define CROSSCHECK_TOLERANCE 1e-6
/* Default seconds one tool run may take. */
#define CROSSCHECK_TIMEOUT 600.0

static void crosscheck_usage(FILE *out) {
    fprintf(out,
            "usage: proper crosscheck MODEL.pm PROPS [options]\n"
            "       proper crosscheck --explicit MODEL.tra MODEL.lab PROPS [--sta F] [--srew F] [--trew F]\n"
            "                         [options]\n\n"
            "Checks every property of PROPS with proper's own engine (native) and with\n"
            "each installed external model checker: PRISM (PROPER_PRISM, or prism in\n"
            "PATH) and Storm (PROPER_STORM, or storm in PATH). Prints, per property and\n"
            "backend, the value, its absolute and relative difference from native, and\n"
            "the time.\n\n"
            "PROPS is a properties file when a file of that name exists, otherwise the\n"
            "text of one or more properties; text that does not parse and ends like a\n"
            "file name (die.pctl) is reported as a missing file. PROPS must hold at\n"
            "least one property.\n\n"
            "Two values agree when they are equal (Infinity, NaN, true/false included),\n"
            "or differ by at most the tolerance relative to the larger one, or by at\n"
            "most --abs-tolerance, or by at most the error the tool states for its value\n"
            "(PRISM's \"+/- E estimated\", the digits Storm prints) plus native's own:\n"
            "its proven bound when that covers the model's own rounding, else its\n"
            "relative stopping target times the value (plus the bound of the chain as\n"
            "stored, when it has one).\n\n"
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
            "                      checks proper's model construction too; the properties\n"
            "                      go with each constant written as its value and each\n"
            "                      formula as its body (the tools do not see the model)\n"
            "  --fixdl             (the default) give states without any enabled command a\n"
            "                      self-loop, with a warning, as PRISM and Storm do\n"
            "  --nofixdl           refuse a model with deadlock states instead\n"
            "  --sta F             (with --explicit) PRISM's state valuations (.sta), for\n"
            "                      properties that name the model's variables; PRISM gets\n"
            "                      it too (-importstates), Storm's DRN has no variables\n"
            "  --backend NAME      only this external backend (prism or storm)\n"
            "  --prism-arg ARG     one more argument for PRISM's command line, as given\n"
            "                      (repeatable: --prism-arg -sor --prism-arg -maxiters\n"
            "                      --prism-arg 100000); --storm-arg ARG likewise\n"
            "  --timeout S         seconds one tool run may take (default %g); a tool's\n"
            "                      version probe waits at most this, and at most %g s\n"
            "  --require           fail (exit 1) when no external model checker is\n"
            "                      installed, instead of printing native values only\n"
            "  --json              print the results as JSON; a value that is not a finite\n"
            "                      number is null there, with \"value_text\" saying which\n"
            "                      (\"Infinity\", \"-Infinity\", \"NaN\"); \"abs_diff\" and\n"
            "                      \"rel_diff\" are null when no difference is defined\n\n"
            "Exit status: 0 every value agrees, or no external model checker is\n"
            "installed and --require is not given (then only the native column is\n"
            "printed, with a note saying so); 1 a value differs, a tool failed or timed\n"
            "out (its version probe included: a tool that is there but does not answer\n"
            "is a failure, not a missing tool), or --require and no external model\n"
            "checker is installed; 2 bad input.\n",
            CROSSCHECK_TOLERANCE, CLI_DEFAULT_PRECISION, CROSSCHECK_TIMEOUT, PROPER_TOOL_PROBE_TIMEOUT);
}

/* Most --prism-arg (or --storm-arg) arguments one run takes. */
#define CROSSCHECK_MAX_TOOL_ARGS 32

typedef struct xc_opts {
    const char *model, *lab, *props, *consts, *srew, *trew, *sta, *only;
    const char *prism_args[CROSSCHECK_MAX_TOOL_ARGS + 1], *storm_args[CROSSCHECK_MAX_TOOL_ARGS + 1];
    size_t n_prism_args, n_storm_args;
    int explicit_files, json, exact, via_explicit, props_is_file, require, nofixdl;
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

/* Native results; `failure` holds native's own error message when it
 * refused or failed that property (the tools' answers to it are then not
 * compared, and the check fails). */
typedef struct xc_native {
    double value, seconds, error;
    int type;
    char failure[PROPER_ERROR_MESSAGE_MAX + PROPER_ERROR_FILE_MAX + 64];
} xc_native;

/* Appends one argument to a NULL-terminated list of at most
 * CROSSCHECK_MAX_TOOL_ARGS; 1 (with a message) when it is full. */
static int add_tool_arg(const char **list, size_t *n, const char *flag, const char *arg) {
    if (*n == CROSSCHECK_MAX_TOOL_ARGS) {
        cli_fail("%s: at most %d arguments", flag, CROSSCHECK_MAX_TOOL_ARGS);
        return 1;
    }
    list[(*n)++] = arg;
    list[*n] = NULL;
    return 0;
}

static int parse_args(int argc, char **argv, xc_opts *o) {
    cli_args a;
    int positional = 0;
    const char *pos[3] = {NULL, NULL, NULL};
    memset(o, 0, sizeof *o);
    o->tolerance = CROSSCHECK_TOLERANCE;
    o->precision = CLI_DEFAULT_PRECISION;
    o->timeout = CROSSCHECK_TIMEOUT;
    cli_args_init(&a, "crosscheck", argc, argv);
    if (a.help) {
        crosscheck_usage(stdout);
        return -1;
    }
    while (cli_next(&a)) {
        if (cli_flag(&a, "--explicit")) o->explicit_files = 1;
        else if (cli_flag(&a, "--json")) o->json = 1;
        else if (cli_flag(&a, "--exact")) o->exact = 1;
        else if (cli_flag(&a, "--via-explicit")) o->via_explicit = 1;
        else if (cli_flag(&a, "--require")) o->require = 1;
        else if (cli_flag(&a, "--fixdl")) o->nofixdl = 0;
        else if (cli_flag(&a, "--nofixdl")) o->nofixdl = 1;
        else if (cli_opt(&a, "--const")) o->consts = a.value;
        else if (cli_opt(&a, "--srew")) o->srew = a.value;
        else if (cli_opt(&a, "--trew")) o->trew = a.value;
        else if (cli_opt(&a, "--sta")) o->sta = a.value;
        else if (cli_opt(&a, "--prism-arg")) {
            if (a.value && add_tool_arg(o->prism_args, &o->n_prism_args, "--prism-arg", a.value)) return CLI_BAD_INPUT;
        } else if (cli_opt(&a, "--storm-arg")) {
            if (a.value && add_tool_arg(o->storm_args, &o->n_storm_args, "--storm-arg", a.value)) return CLI_BAD_INPUT;
        } else if (cli_opt(&a, "--backend")) {
            if (a.value && strcmp(a.value, "prism") != 0 && strcmp(a.value, "storm") != 0)
                return cli_fail("--backend: expected prism or storm, got '%s'", a.value);
            o->only = a.value;
        } else if (cli_opt_double(&a, "--tolerance", "[0,inf)", &o->tolerance)) {
        } else if (cli_opt_double(&a, "--abs-tolerance", "[0,inf)", &o->abs_tolerance)) {
        } else if (cli_opt_double(&a, "--precision", "(0,1)", &o->precision)) {
        } else if (cli_opt_double(&a, "--timeout", "(0,inf)", &o->timeout)) {
        } else if (cli_positional(&a) && positional < 3) {
            pos[positional++] = a.value;
        } else {
            cli_unknown(&a);
        }
    }
    if (a.status) return a.status;
    if (o->explicit_files) {
        if (positional != 3) return cli_usage_error(&a, "--explicit needs MODEL.tra MODEL.lab PROPS");
        o->model = pos[0];
        o->lab = pos[1];
        o->props = pos[2];
        if (o->via_explicit) return cli_usage_error(&a, "--via-explicit is for PRISM-language models");
    } else {
        if (positional > 2) return cli_usage_error(&a, "unexpected argument '%s'", pos[2]);
        if (positional != 2) return cli_usage_error(&a, "expected MODEL.pm and PROPS");
        if (o->srew || o->trew || o->sta) return cli_usage_error(&a, "--srew/--trew/--sta need --explicit");
        o->model = pos[0];
        o->props = pos[1];
    }
    return CLI_OK;
}

/* Model, properties, constants, built DTMC, and the bounds of the model's
 * own rounding the build found (iv; none for explicit files). */
static int load(xc_opts *o, proper_prism_model **pm, proper_prism_props **props, char **props_text,
                proper_dtmc *d, proper_prism_intervals *iv) {
    proper_error err;
    if (o->explicit_files) {
        if (proper_dtmc_read_tra(d, o->model, NULL, &err) || proper_dtmc_read_lab(d, o->lab, &err) ||
            (o->srew && proper_dtmc_read_srew(d, o->srew, NULL, &err)) ||
            (o->trew && proper_dtmc_read_trew(d, o->trew, NULL, &err)) ||
            (o->sta && (proper_dtmc_read_sta(d, o->sta, &err) ||
                        (d->n_vars && proper_prism_model_of_valuations(pm, d, o->sta, &err)))))
            return cli_report(&err);
    } else if (proper_prism_read(pm, o->model, &err)) {
        return cli_report(&err);
    }
    if (proper_prism_props_from_arg(props, *pm, o->props, props_text, &o->props_is_file, &err))
        return o->explicit_files ? cli_report_explicit_props(&err, o->sta != NULL) : cli_report(&err);
    if (o->consts && proper_prism_set_consts(*pm, *props, o->consts, &err)) return cli_report(&err);
    if (o->via_explicit) { /* the tools get no model text: constants and formulas go in as what they stand for */
        char *standalone;
        if (proper_prism_props_standalone(*props, *props_text, strlen(*props_text), &standalone, &err))
            return cli_report(&err);
        PROPER_FREE(*props_text);
        *props_text = standalone;
    }
    if (!o->explicit_files && proper_prism_has_intervals(*pm))
        return cli_fail("%s: an interval DTMC (probabilities [lo,hi]): crosscheck compares single chains; "
                        "check it with 'proper check' (Pmin=?, Pmax=?)", o->model);
    if (!o->explicit_files) {
        proper_prism_build_opts bo = proper_prism_build_opts_default();
        bo.fix_deadlocks = !o->nofixdl;
        if (proper_prism_build_intervals(*pm, &bo, d, iv, &err)) return cli_report(&err);
        cli_warn_deadlocks(proper_bitset_count(&d->deadlock));
    }
    return CLI_OK;
}

static int run_native(const proper_prism_props *props, const proper_dtmc *d, const proper_prism_intervals *iv,
                      xc_native *nat) {
    proper_prism_check_opts co;
    proper_error err;
    size_t i, n = proper_prism_props_count(props);
    co = proper_prism_check_opts_default();
    co.intervals = iv;
    for (i = 0; i < n; i++) {
        double start = cli_now();
        proper_prism_result res;
        nat[i].type = proper_prism_props_type(props, i);
        if (proper_prism_props_result(props, i, d, &co, &res, &err)) {
            if (err.code == PROPER_ENOMEM) return cli_report(&err);
            proper_error_format(&err, nat[i].failure, sizeof nat[i].failure);
            nat[i].seconds = cli_now() - start;
            nat[i].value = NAN;
            continue;
        }
        if (!(res.value == res.hi) && res.value == res.value)
            return cli_fail("property %lu has a range of values [%.17g, %.17g] over several initial states: "
                            "crosscheck compares single values", (unsigned long)i + 1, res.value, res.hi);
        nat[i].seconds = cli_now() - start;
        nat[i].value = res.value;
        /* native's own stated error: the solver's proven bound where it has
         * one that covers the model's own rounding (a transient CTMC
         * probability of 1e-77 is only known to within its absolute
         * truncation error), else its relative stopping target, plus the
         * bound of the chain as stored when there is one */
        nat[i].error = isfinite(res.value) ? fabs(res.value) * co.solve.rel_precision : 0.0;
        if (res.error_bound >= 0.0) nat[i].error = res.covers_model ? res.error_bound : nat[i].error + res.error_bound;
    }
    return CLI_OK;
}

static void run_tool(const xc_opts *o, xc_tool *t, const char *props_text, const proper_dtmc *d) {
    proper_tool_input in;
    proper_tool_opts to;
    proper_error err;
    int rc;
    proper_tool_input_init(&in);
    to = proper_tool_opts_default();
    to.epsilon = o->precision;
    to.exact = o->exact;
    if (strcmp(t->name, "prism") == 0 && o->n_prism_args) to.extra = o->prism_args;
    if (strcmp(t->name, "storm") == 0 && o->n_storm_args) to.extra = o->storm_args;
    if (o->explicit_files) {
        in.tra = o->model;
        in.lab = o->lab;
        in.srew = o->srew;
        in.trew = o->trew;
        in.sta = o->sta;
    } else if (o->via_explicit) {
        in.dtmc = d;
    } else {
        in.model_file = o->model;
    }
    in.props = props_text;
    in.props_name = o->props_is_file ? o->props : NULL;
    in.consts = o->via_explicit ? NULL : o->consts; /* --via-explicit: in the properties text already */
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

/* A value as the table shows it: true/false, Infinity, NaN as PRISM and
 * Storm print them, numbers as the shortest decimal that reads back as v. */
static void format_value(char *buf, size_t size, double v, int is_bool) {
    char num[PROPER_DOUBLE_CHARS];
    if (is_bool) snprintf(buf, size, "%s", v != 0 ? "true" : "false");
    else if (isinf(v)) snprintf(buf, size, "%sInfinity", v < 0 ? "-" : "");
    else if (v != v) snprintf(buf, size, "NaN");
    else snprintf(buf, size, "%s", proper_format_double(num, v));
}

/* "value" (a number, a boolean, or null when not finite) and, for
 * non-finite numbers, "value_text" ("Infinity", "-Infinity", "NaN"). */
static void json_value(cli_json *j, double v, int is_bool) {
    if (is_bool) {
        cli_json_key_bool(j, "value", v != 0);
    } else {
        cli_json_key_number(j, "value", v);
        if (!isfinite(v)) {
            char text[32];
            format_value(text, sizeof text, v, 0);
            cli_json_key_string(j, "value_text", text);
        }
    }
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
    size_t i, k, n = proper_prism_props_count(p), width = 8, installed = 0, broken = 0;
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
    for (k = 0; k < n_tools; k++) {
        if (tools[k].info.installed) continue;
        if (tools[k].info.found) { /* there, but broken or hung: a failed check, not a missing tool */
            printf("  %s: FAILED: %s\n", tools[k].name, tools[k].reason);
            status = CLI_CHECK_FAILED;
            broken++;
        } else {
            printf("  %s: not installed (%s)\n", tools[k].name, tools[k].reason);
        }
    }
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
        if (nat[i].failure[0]) {
            status = CLI_CHECK_FAILED;
            printf("%-*s  %-7s  %-24s  %-9s  %-9s  %7.3f s  FAILED: %s\n", (int)width, label, "native", "-", "-", "-",
                   nat[i].seconds, nat[i].failure);
        } else {
            format_value(value, sizeof value, nat[i].value, is_bool);
            printf("%-*s  %-7s  %-24s  %-9s  %-9s  %7.3f s\n", (int)width, label, "native", value, "-", "-",
                   nat[i].seconds);
        }
        for (k = 0; k < n_tools; k++) {
            const proper_tool_answer *a = answer_of(&tools[k], i, n);
            char ad[32] = "-", rd[32] = "-", tm[32] = "-", verdict[PROPER_ERROR_MESSAGE_MAX + 64];
            xc_cmp c;
            if (!tools[k].ran) continue;
            if (a && a->ok && nat[i].failure[0]) {
                format_value(value, sizeof value, a->value, a->is_bool || is_bool);
                if (a->seconds >= 0) snprintf(tm, sizeof tm, "%7.3f s", a->seconds);
                printf("%-*s  %-7s  %-24s  %-9s  %-9s  %-9s  not compared (native failed)\n", (int)width, "",
                       tools[k].name, value, "-", "-", tm);
                continue;
            }
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
            format_value(value, sizeof value, a->value, a->is_bool || is_bool);
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
    if (broken) {
        printf("cross-check FAILED: %lu external model checker%s did not answer its probe\n", (unsigned long)broken,
               broken == 1 ? "" : "s");
    } else if (installed == 0) {
        printf("no external model checker is installed: native values only, nothing compared\n");
        if (o->require) {
            fprintf(stderr, "proper: crosscheck --require: no external model checker is installed (nothing compared)\n");
            status = CLI_CHECK_FAILED;
        }
    }
    else if (status == CLI_OK) printf("all values agree (tolerance %g relative, %g absolute)\n", o->tolerance, o->abs_tolerance);
    else printf("cross-check FAILED\n");
    return status;
}

static int report_json(const xc_opts *o, const proper_prism_props *p, const proper_dtmc *d, const xc_native *nat,
                       xc_tool *tools, size_t n_tools) {
    size_t i, k, n = proper_prism_props_count(p);
    int status = CLI_OK, any = 0;
    char version[64];
    cli_json j;
    cli_json_init(&j, stdout);
    cli_json_object_begin(&j);
    cli_json_key_string(&j, "model", o->model);
    cli_json_key_uint(&j, "states", (unsigned long long)d->n_states);
    cli_json_key_uint(&j, "transitions", (unsigned long long)d->n_trans);
    cli_json_key_string(&j, "constants", o->consts);
    cli_json_key_number(&j, "tolerance", o->tolerance);
    cli_json_key_number(&j, "abs_tolerance", o->abs_tolerance);
    cli_json_key(&j, "backends");
    cli_json_array_begin(&j);
    cli_json_object_begin(&j);
    cli_json_key_string(&j, "name", "native");
    cli_json_key_bool(&j, "installed", 1);
    snprintf(version, sizeof version, "proper %s", PROPER_VERSION_STRING);
    cli_json_key_string(&j, "version", version);
    cli_json_object_end(&j);
    for (k = 0; k < n_tools; k++) {
        cli_json_object_begin(&j);
        cli_json_key_string(&j, "name", tools[k].name);
        cli_json_key_bool(&j, "installed", tools[k].info.installed);
        cli_json_key_bool(&j, "found", tools[k].info.found);
        if (tools[k].info.found && !tools[k].info.installed) status = CLI_CHECK_FAILED;
        cli_json_key_string(&j, "version", tools[k].info.installed ? tools[k].info.version : NULL);
        cli_json_key_string(&j, "path", tools[k].info.installed ? tools[k].info.path : NULL);
        if (tools[k].ran && !tools[k].failed) cli_json_key_number(&j, "seconds", tools[k].out.seconds);
        cli_json_key_string(&j, "error", tools[k].reason[0] ? tools[k].reason : NULL);
        cli_json_object_end(&j);
        any |= tools[k].ran;
    }
    cli_json_array_end(&j);
    cli_json_key(&j, "properties");
    cli_json_array_begin(&j);
    for (i = 0; i < n; i++) {
        int is_bool = nat[i].type == PROPER_PRISM_BOOL;
        cli_json_object_begin(&j);
        cli_json_key_string(&j, "name", proper_prism_props_name(p, i));
        cli_json_key_string(&j, "property", proper_prism_props_text(p, i));
        cli_json_key(&j, "native");
        cli_json_object_begin(&j);
        json_value(&j, nat[i].value, is_bool);
        cli_json_key_number(&j, "seconds", nat[i].seconds);
        cli_json_key_string(&j, "error", nat[i].failure[0] ? nat[i].failure : NULL);
        cli_json_object_end(&j);
        if (nat[i].failure[0]) status = CLI_CHECK_FAILED;
        cli_json_key(&j, "tools");
        cli_json_array_begin(&j);
        for (k = 0; k < n_tools; k++) {
            const proper_tool_answer *a = answer_of(&tools[k], i, n);
            xc_cmp c;
            if (!tools[k].ran) continue;
            cli_json_object_begin(&j);
            cli_json_key_string(&j, "backend", tools[k].name);
            if (!a || !a->ok) {
                status = CLI_CHECK_FAILED;
                cli_json_key_bool(&j, "agree", 0);
                cli_json_key_string(&j, "error", !a ? (tools[k].failed ? tools[k].reason : "different number of properties")
                                                    : (a->message ? a->message : "no result"));
                cli_json_object_end(&j);
                continue;
            }
            c = compare(o, &nat[i], a);
            if (nat[i].failure[0]) c.agree = c.within_stated = c.have_diff = 0;
            if (!c.agree) status = CLI_CHECK_FAILED;
            json_value(&j, a->value, a->is_bool || is_bool);
            cli_json_key_number(&j, "stated_error", a->error);
            cli_json_key_string(&j, "exact", a->exact);
            if (c.have_diff) {
                cli_json_key_number(&j, "abs_diff", c.abs_diff);
                cli_json_key_number(&j, "rel_diff", c.rel_diff);
            } else {
                cli_json_key_null(&j, "abs_diff");
                cli_json_key_null(&j, "rel_diff");
            }
            if (a->seconds >= 0) cli_json_key_number(&j, "seconds", a->seconds);
            cli_json_key_bool(&j, "agree", c.agree);
            cli_json_object_end(&j);
        }
        cli_json_array_end(&j);
        cli_json_object_end(&j);
    }
    cli_json_array_end(&j);
    cli_json_key_bool(&j, "compared", any);
    cli_json_key_bool(&j, "agree", status == CLI_OK);
    cli_json_object_end(&j);
    if (!any && o->require && status == CLI_OK) {
        fprintf(stderr, "proper: crosscheck --require: no external model checker is installed (nothing compared)\n");
        status = CLI_CHECK_FAILED;
    }
    return status;
}

int cmd_crosscheck(int argc, char **argv) {
    xc_opts o;
    proper_prism_model *pm = NULL;
    proper_prism_props *props = NULL;
    char *props_text = NULL;
    proper_dtmc d;
    proper_prism_intervals iv;
    xc_native *nat = NULL;
    xc_tool tools[2];
    size_t k, n_tools = 0;
    int rc;
    if ((rc = parse_args(argc, argv, &o)) != CLI_OK) return rc < 0 ? CLI_OK : rc;
    proper_dtmc_init(&d);
    proper_prism_intervals_init(&iv);
    memset(tools, 0, sizeof tools);
    if ((rc = load(&o, &pm, &props, &props_text, &d, &iv)) != CLI_OK) goto done;
    nat = (xc_native *)proper_calloc(proper_prism_props_count(props) + 1, sizeof *nat);
    if (!nat) {
        rc = cli_fail("out of memory");
        goto done;
    }
    if ((rc = run_native(props, &d, &iv, nat)) != CLI_OK) goto done;
    if (!o.only || strcmp(o.only, "prism") == 0) tools[n_tools++].backend = proper_backend_prism();
    if (!o.only || strcmp(o.only, "storm") == 0) tools[n_tools++].backend = proper_backend_storm();
    for (k = 0; k < n_tools; k++) {
        proper_error err;
        xc_tool *t = &tools[k];
        proper_tool_output_init(&t->out);
        t->name = t->backend->name;
        proper_error_clear(&err);
        if ((rc = proper_backend_probe_within(t->backend, o.timeout, &t->info, &err)) != PROPER_OK) {
            rc = cli_report(&err);
            goto done;
        }
        if (!t->info.installed) {
            snprintf(t->reason, sizeof t->reason, "%s", err.message[0] ? err.message : "probe failed");
            if (o.only && !t->info.found) {
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
    proper_prism_intervals_free(&iv);
    proper_dtmc_free(&d);
    return rc;
}
