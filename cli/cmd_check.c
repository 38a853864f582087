/* proper check — build a DTMC from a PRISM-language model (or PRISM explicit
 * files) and check properties on it; optionally export the built model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/backend_native.h"
#include "../backends/prism.h"
#include "../backends/storm.h"
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
            "                     explicit format; states numbered as PRISM numbers them;\n"
            "                     several reward structures: PREFIX1.srew, PREFIX2.srew, ...)\n"
            "  --export-drn FILE  write the model in Storm's DRN format\n"
            "  --export-prism FILE  write the model as a flat PRISM-language DTMC\n"
            "  --dot FILE         write a Graphviz picture of the model\n"
            "  --srew F, --trew F (with --explicit) state / transition rewards\n"
            "  --backend NAME     check with NAME: native (default), prism or storm (tools\n"
            "                     from PROPER_PRISM / PROPER_STORM or PATH); the default\n"
            "                     comes from PROPER_BACKEND when set\n"
            "  --precision R      relative precision asked of an external tool (default 1e-12)\n"
            "  --exact            ask an external tool for exact (rational) arithmetic\n"
            "  --timeout S        seconds an external tool may run per property (default 600)\n\n"
            "Exit status: 0 ok, 1 a boolean property (e.g. P>=0.9 [...]) is false,\n"
            "2 bad input (errors as file:line:col: message).\n",
            (unsigned)PROPER_PRISM_MAX_STATES);
}

typedef struct check_opts {
    const char *model, *lab, *props, *consts, *srew, *trew;
    const char *export_explicit, *export_drn, *export_prism, *dot;
    const char *backend;
    int explicit_files, json, fixdl, exact;
    uint32_t max_states;
    double precision, timeout;
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
    proper_error err;
    memset(o, 0, sizeof *o);
    o->max_states = PROPER_PRISM_MAX_STATES;
    o->precision = 1e-12;
    o->timeout = 600;
    for (i = 1; i < argc; i++) {
        const char *v;
        if (strcmp(argv[i], "--explicit") == 0) { o->explicit_files = 1; continue; }
        if (strcmp(argv[i], "--exact") == 0) { o->exact = 1; continue; }
        if ((v = cli_option(argc, argv, &i, "--backend", &missing)) != NULL) { o->backend = v; continue; }
        if ((v = cli_option(argc, argv, &i, "--precision", &missing)) != NULL) {
            if (proper_parse_double_str(v, &o->precision, "--precision", &err)) return cli_report(&err);
            if (!(o->precision > 0 && o->precision < 1)) return cli_fail("--precision must lie in (0, 1), got '%s'", v);
            continue;
        }
        if ((v = cli_option(argc, argv, &i, "--timeout", &missing)) != NULL) {
            if (proper_parse_double_str(v, &o->timeout, "--timeout", &err)) return cli_report(&err);
            if (!(o->timeout > 0) || isinf(o->timeout)) return cli_fail("--timeout must be a positive number of seconds, got '%s'", v);
            continue;
        }
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
        io = proper_dtmc_import_opts_default();
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
    if ((o->export_explicit && proper_dtmc_write_explicit_files(d, o->export_explicit, err)) ||
        (o->export_drn && proper_dtmc_write_file(d, proper_dtmc_write_drn, o->export_drn, err)) ||
        (o->export_prism && proper_dtmc_write_file(d, proper_dtmc_write_prism, o->export_prism, err)) ||
        (o->dot && proper_dtmc_write_file(d, proper_dtmc_write_dot, o->dot, err)))
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

/* Check every property with an external tool (PRISM or Storm), handing it
 * the model file as given. Returns the exit status. */
static int check_with_tool(const check_opts *o, const proper_backend *b, const proper_prism_props *p) {
    proper_backend_info info;
    proper_error err;
    size_t i, n = p ? proper_prism_props_count(p) : 0;
    int status = CLI_OK;
    if (proper_backend_probe(b, &info, &err)) return cli_report(&err);
    if (!info.installed)
        return cli_fail("backend %s is not installed (set PROPER_%s or put it in PATH)%s%s", b->name,
                        strcmp(b->name, "prism") == 0 ? "PRISM" : "STORM", err.message[0] ? ": " : "", err.message);
    if (!o->json) printf("model: %s, backend: %s (%s, %s)\n", o->model, b->name, info.version, info.path);
    else printf("{\"model\": \"%s\", \"backend\": \"%s\", \"version\": \"%s\", \"properties\": [", o->model, b->name, info.version);
    for (i = 0; i < n; i++) {
        proper_backend_check_request req;
        proper_backend_check_result res;
        int type = proper_prism_props_type(p, i);
        char value[64];
        req = proper_backend_check_request_default();
        req.model_kind = o->explicit_files ? PROPER_BACKEND_MODEL_EXPLICIT : PROPER_BACKEND_MODEL_PRISM;
        req.model_path = o->model;
        req.labels_path = o->lab;
        req.state_rewards_path = o->srew;
        req.trans_rewards_path = o->trew;
        req.constants = o->consts;
        req.property = proper_prism_props_text(p, i);
        req.rel_precision = o->precision;
        req.exact = o->exact;
        req.timeout = o->timeout;
        if (proper_backend_check_dtmc(b, &req, &res, &err)) {
            if (o->json) printf("]}\n");
            fflush(stdout);
            return cli_report(&err);
        }
        if (type == PROPER_PRISM_BOOL && res.value == 0) status = CLI_CHECK_FAILED;
        format_value(value, sizeof value, res.value, type, o->json);
        if (o->json)
            printf("%s{\"property\": \"%s\", \"value\": %s, \"tool_error\": %.17g, \"seconds\": %.6f}", i ? ", " : "",
                   req.property, value, res.error_estimate == res.error_estimate ? res.error_estimate : -1.0, res.seconds);
        else if (res.error_estimate == res.error_estimate && res.error_estimate > 0)
            printf("%s  %s  (+/- %.3g stated by %s)\n", req.property, value, res.error_estimate, b->name);
        else
            printf("%s  %s%s\n", req.property, value, res.exact[0] ? "  (exact)" : "");
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
    proper_backend_registry reg;
    const proper_backend *backend;
    int rc, i;
    for (i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            check_usage(stdout);
            return CLI_OK;
        }
    if ((rc = parse_args(argc, argv, &o)) != CLI_OK) return rc;
    proper_backend_registry_init(&reg);
    if (proper_backend_register(&reg, proper_backend_native(), &err) ||
        proper_backend_register(&reg, proper_backend_prism(), &err) ||
        proper_backend_register(&reg, proper_backend_storm(), &err) ||
        proper_backend_select(&reg, o.backend, &backend, &err))
        return cli_report(&err);
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
    if (backend != proper_backend_native() && !o.export_explicit && !o.export_drn && !o.export_prism && !o.dot) {
        rc = check_with_tool(&o, backend, props);
        goto done;
    }
    if (!o.explicit_files) {
        proper_prism_build_opts bo;
        bo = proper_prism_build_opts_default();
        bo.fix_deadlocks = o.fixdl;
        bo.max_states = o.max_states;
        if (proper_prism_build(pm, &bo, &d, &err)) {
            rc = cli_report(&err);
            goto done;
        }
    }
    if ((rc = export_model(&o, &d, &err)) != CLI_OK) goto done;
    rc = backend != proper_backend_native() ? check_with_tool(&o, backend, props) : check_properties(&o, props, &d);
done:
    proper_prism_props_free(props);
    proper_prism_free(pm);
    proper_dtmc_free(&d);
    return rc;
}
