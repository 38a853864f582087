/* proper check — build a DTMC from a PRISM-language model (or PRISM explicit
 * files) and check properties on it; optionally export the built model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/prism.h"
#include "cli.h"

static void check_usage(FILE *out) {
    fprintf(out,
            "usage: proper check MODEL.pm [PROPS] [options]\n"
            "       proper check --explicit MODEL.tra MODEL.lab [PROPS] [--srew F] [--trew F] [options]\n\n"
            "Builds the DTMC of a PRISM-language model (dtmc: constants, formulas, labels,\n"
            "modules with bounded int/bool variables, renaming, synchronising actions,\n"
            "rewards), or reads PRISM explicit files, and prints the value of each property\n"
            "in the initial state to 15 significant digits.\n\n"
            "PROPS is a properties file, or one property as text, e.g. 'P=? [ F \"end\" ]'.\n"
            "Properties: P=? [ F phi | phi U psi | F<=k phi | G phi | X phi ],\n"
            "R{\"r\"}=? [ F phi | C<=k | I=k ] (R=? takes the first reward structure),\n"
            "S=? [ phi ], P>=0.9 [ ... ] (true/false), or any expression; labels \"name\",\n"
            "\"init\", \"deadlock\".\n\n"
            "options:\n"
            "  --const A=1,B=0.5  values of constants declared without one (model or\n"
            "                     properties); true/false for bools\n"
            "  --fixdl            give states without any enabled command a self-loop (as\n"
            "                     PRISM's -fixdl) instead of failing\n"
            "  --max-states N     stop with an error beyond N reachable states (default %u)\n"
            "  --json             print the results as JSON\n"
            "  --export-explicit PREFIX   write PREFIX.tra .lab .sta .srew .trew (PRISM\n"
            "                     explicit format; states numbered as PRISM numbers them)\n"
            "  --export-drn FILE  write the model in Storm's DRN format\n"
            "  --export-prism FILE  write the model as a flat PRISM-language DTMC\n"
            "  --dot FILE         write a Graphviz picture of the model\n"
            "  --srew F, --trew F (with --explicit) state / transition rewards\n\n"
            "Exit status: 0 ok, 1 a boolean property (e.g. P>=0.9 [...]) is false,\n"
            "2 bad input (errors as file:line:col: message).\n",
            (unsigned)PROPER_PRISM_MAX_STATES);
}

typedef struct check_opts {
    const char *model, *lab, *props, *consts, *srew, *trew;
    const char *export_explicit, *export_drn, *export_prism, *dot;
    int explicit_files, json, fixdl;
    uint32_t max_states;
} check_opts;

/* PROPS names a file when one exists there; otherwise text that looks like
 * a property is the property itself. */
static int props_is_text(const char *s) {
    FILE *f = fopen(s, "rb");
    if (f) {
        fclose(f);
        return 0;
    }
    return strchr(s, '[') || strchr(s, '"') || strchr(s, '=') || strchr(s, '<') || strchr(s, '>');
}

static void print_json_string(const char *s) {
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') printf("\\%c", ch);
        else if (ch < 0x20) printf("\\u%04x", ch);
        else putchar(ch);
    }
    putchar('"');
}

/* Value text: %.15g, Infinity, NaN, true/false. */
static void format_value(char *buf, size_t size, double v, int type, int json) {
    if (type == PROPER_PRISM_BOOL) snprintf(buf, size, "%s", v != 0 ? "true" : "false");
    else if (isinf(v)) snprintf(buf, size, json ? "\"%sInfinity\"" : "%sInfinity", v < 0 ? "-" : "");
    else if (v != v) snprintf(buf, size, json ? "\"NaN\"" : "NaN");
    else snprintf(buf, size, json ? "%.17g" : "%.15g", v);
}

static int parse_args(int argc, char **argv, check_opts *o) {
    int i, missing, positional = 0;
    const char *pos[3] = {NULL, NULL, NULL};
    memset(o, 0, sizeof *o);
    o->max_states = PROPER_PRISM_MAX_STATES;
    for (i = 1; i < argc; i++) {
        const char *v;
        if (strcmp(argv[i], "--explicit") == 0) { o->explicit_files = 1; continue; }
        if (strcmp(argv[i], "--json") == 0) { o->json = 1; continue; }
        if (strcmp(argv[i], "--fixdl") == 0) { o->fixdl = 1; continue; }
        if ((v = cli_option(argc, argv, &i, "--const", &missing)) != NULL) {
            o->consts = v;
            continue;
        }
        if ((v = cli_option(argc, argv, &i, "--max-states", &missing)) != NULL) {
            char *end;
            unsigned long n = strtoul(v, &end, 10);
            if (*v < '0' || *v > '9' || *end || n == 0 || n > 0xFFFFFFF0ul)
                return cli_fail("--max-states: expected a positive integer, got '%s'", v);
            o->max_states = (uint32_t)n;
            continue;
        }
        if ((v = cli_option(argc, argv, &i, "--export-explicit", &missing)) != NULL) { o->export_explicit = v; continue; }
        if ((v = cli_option(argc, argv, &i, "--export-drn", &missing)) != NULL) { o->export_drn = v; continue; }
        if ((v = cli_option(argc, argv, &i, "--export-prism", &missing)) != NULL) { o->export_prism = v; continue; }
        if ((v = cli_option(argc, argv, &i, "--dot", &missing)) != NULL) { o->dot = v; continue; }
        if ((v = cli_option(argc, argv, &i, "--srew", &missing)) != NULL) { o->srew = v; continue; }
        if ((v = cli_option(argc, argv, &i, "--trew", &missing)) != NULL) { o->trew = v; continue; }
        if (missing) return cli_fail("%s needs a value", argv[i]);
        if (argv[i][0] == '-' && argv[i][1] == '-') return cli_fail("unknown option '%s' (try 'proper check --help')", argv[i]);
        if (positional >= 3) return cli_fail("too many arguments ('%s'); see 'proper check --help'", argv[i]);
        pos[positional++] = argv[i];
    }
    if (o->explicit_files) {
        if (positional < 2) return cli_fail("--explicit needs MODEL.tra and MODEL.lab");
        o->model = pos[0];
        o->lab = pos[1];
        o->props = pos[2];
    } else {
        if (positional < 1) return cli_fail("missing MODEL.pm (see 'proper check --help')");
        if (positional > 2) return cli_fail("too many arguments ('%s'); see 'proper check --help'", pos[2]);
        if (o->srew || o->trew) return cli_fail("--srew/--trew need --explicit");
        o->model = pos[0];
        o->props = pos[1];
    }
    return CLI_OK;
}

/* Build from the PRISM language, or read the explicit files. */
static int load_model(const check_opts *o, proper_prism_model **pm, proper_dtmc *d, proper_error *err) {
    proper_dtmc_init(d);
    if (o->explicit_files) {
        proper_dtmc_import_opts io;
        proper_dtmc_import_opts_default(&io);
        io.fix_deadlocks = o->fixdl;
        io.max_states = o->max_states;
        if (proper_dtmc_read_tra(d, o->model, &io, err) || proper_dtmc_read_lab(d, o->lab, err) ||
            (o->srew && proper_dtmc_read_srew(d, o->srew, NULL, err)) ||
            (o->trew && proper_dtmc_read_trew(d, o->trew, NULL, err)))
            return cli_report(err);
        return CLI_OK;
    }
    if (proper_prism_read(pm, o->model, err)) return cli_report(err);
    return CLI_OK;
}

static int export_model(const check_opts *o, const proper_dtmc *d, proper_error *err) {
    if ((o->export_explicit && proper_dtmc_export_explicit(d, o->export_explicit, err)) ||
        (o->export_drn && proper_dtmc_export_drn(d, o->export_drn, err)) ||
        (o->export_prism && proper_dtmc_export_prism(d, o->export_prism, err)) ||
        (o->dot && proper_dtmc_export_dot(d, o->dot, err)))
        return cli_report(err);
    return CLI_OK;
}

/* Check every property; print a table or JSON. Returns the exit status. */
static int check_properties(const check_opts *o, const proper_prism_props *p, const proper_dtmc *d) {
    size_t i, n = p ? proper_prism_props_count(p) : 0, width = 8;
    int status = CLI_OK;
    proper_error err;
    for (i = 0; i < n; i++) {
        size_t w = strlen(proper_prism_props_text(p, i)) +
                   (proper_prism_props_name(p, i) ? strlen(proper_prism_props_name(p, i)) + 4 : 0);
        if (w > width && w <= 70) width = w;
    }
    if (o->json) {
        printf("{\"model\": ");
        print_json_string(o->model);
        printf(", \"states\": %lu, \"transitions\": %llu, \"properties\": [", (unsigned long)d->n_states,
               (unsigned long long)d->n_trans);
    } else {
        printf("model: %s (%lu states, %llu transitions)\n", o->model, (unsigned long)d->n_states,
               (unsigned long long)d->n_trans);
        if (n) printf("%-*s  %s\n", (int)width, "property", "value");
    }
    for (i = 0; i < n; i++) {
        const char *name = proper_prism_props_name(p, i), *text = proper_prism_props_text(p, i);
        int type = proper_prism_props_type(p, i);
        char value[64], label[600];
        double v;
        if (proper_prism_props_check(p, i, d, NULL, &v, &err)) {
            if (o->json) printf("]}\n");
            fflush(stdout);
            return cli_report(&err);
        }
        if (type == PROPER_PRISM_BOOL && v == 0) status = CLI_CHECK_FAILED;
        format_value(value, sizeof value, v, type, o->json);
        if (o->json) {
            printf("%s{\"name\": ", i ? ", " : "");
            if (name) print_json_string(name);
            else printf("null");
            printf(", \"property\": ");
            print_json_string(text);
            printf(", \"type\": \"%s\", \"value\": %s}",
                   type == PROPER_PRISM_BOOL ? "bool" : type == PROPER_PRISM_INT ? "int" : "double", value);
        } else {
            if (name) snprintf(label, sizeof label, "\"%s\": %s", name, text);
            else snprintf(label, sizeof label, "%s", text);
            printf("%-*s  %s\n", (int)width, label, value);
        }
    }
    if (o->json) printf("]}\n");
    return status;
}

int cmd_check(int argc, char **argv) {
    check_opts o;
    proper_prism_model *pm = NULL;
    proper_prism_props *props = NULL;
    proper_dtmc d;
    proper_error err;
    int rc, i;
    for (i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            check_usage(stdout);
            return CLI_OK;
        }
    if ((rc = parse_args(argc, argv, &o)) != CLI_OK) return rc;
    proper_dtmc_init(&d);
    if ((rc = load_model(&o, &pm, &d, &err)) != CLI_OK) goto done;
    if (o.props) {
        if (props_is_text(o.props))
            rc = proper_prism_props_parse(&props, pm, o.props, strlen(o.props), "(property)", &err);
        else
            rc = proper_prism_props_read(&props, pm, o.props, &err);
        if (rc) {
            rc = cli_report(&err);
            goto done;
        }
    }
    if (o.consts && proper_prism_set_consts(pm, props, o.consts, &err)) {
        rc = cli_report(&err);
        goto done;
    }
    if (!o.explicit_files) {
        proper_prism_build_opts bo;
        proper_prism_build_opts_default(&bo);
        bo.fix_deadlocks = o.fixdl;
        bo.max_states = o.max_states;
        if (proper_prism_build(pm, &bo, &d, &err)) {
            rc = cli_report(&err);
            goto done;
        }
    }
    if ((rc = export_model(&o, &d, &err)) != CLI_OK) goto done;
    rc = check_properties(&o, props, &d);
done:
    proper_prism_props_free(props);
    proper_prism_free(pm);
    proper_dtmc_free(&d);
    return rc;
}
