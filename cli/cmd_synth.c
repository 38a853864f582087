/* proper synth — annotated source → parametric DTMC (PRISM language), or
 * the chain at a point exported as DRN, PRISM explicit files or a flat
 * PRISM-language model (the export flags of 'proper check'). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/synth.h"
#include "cli.h"

static void synth_usage(FILE *out) {
    fprintf(out,
            "usage: proper synth FILE --function NAME [--table] [--lenient] [-o OUT.pm]\n"
            "                    [--const p1=X,p2=Y,... (--export-drn F | --export-explicit PREFIX |\n"
            "                     --export-prism F)]\n\n"
            "Builds the parametric DTMC of function NAME in the C or Java source FILE\n"
            "(PROPER's Algorithm 1): one state per statement, one parameter p1..pn per\n"
            "conditional and loop in source order, one reward structure per annotation\n"
            "(// @time=0.01, //@cost=0.25,@time=0.03, /* @energy=60 */). An annotation\n"
            "belongs to the statement it is written in, including a multi-line\n"
            "statement's continuation lines; a comment on a line of its own annotates\n"
            "the next statement. Inside the function every @word in a comment must be\n"
            "NAME=NUMBER: anything else (@energy:67) is an error. A tail call of the\n"
            "function itself (return f(...);) jumps back to its first statement (the\n"
            "paper's construction); any other self-call, or a function defined twice\n"
            "in FILE, is refused.\n\n"
            "  --function NAME  the function to model (required)\n"
            "  --table          print the table state -> line -> statement -> parameter\n"
            "  --lenient        malformed annotations are warnings (and ignored)\n"
            "  -o, --output FILE  write to FILE instead of stdout\n"
            "  --const p1=X,...   a value in [0,1] for every parameter: the exports below\n"
            "                   write the chain at that point (e.g. the estimates of\n"
            "                   'proper analyze --json'), to solve or cross-check with\n"
            "                   any tool; the label \"end\" marks the end state\n"
            "  --export-drn FILE  Storm's DRN format\n"
            "  --export-explicit PREFIX  PRISM explicit files PREFIX.tra .lab .srew\n"
            "                   (PREFIX1.srew, PREFIX2.srew, ... when there are several\n"
            "                   rewards, in the order of 'proper synth --table')\n"
            "  --export-prism FILE  a flat PRISM-language DTMC\n");
}

typedef struct synth_opts {
    const char *file, *function, *output;
    const char *consts, *export_drn, *export_explicit, *export_prism;
    int table, lenient;
} synth_opts;

/* CLI_OK to go on, -1 after --help (usage printed), or CLI_BAD_INPUT. */
static int synth_parse_args(int argc, char **argv, synth_opts *o) {
    cli_args a;
    memset(o, 0, sizeof *o);
    cli_args_init(&a, "synth", argc, argv);
    if (a.help) {
        synth_usage(stdout);
        return -1;
    }
    while (cli_next(&a)) {
        if (cli_flag(&a, "--table")) o->table = 1;
        else if (cli_flag(&a, "--lenient")) o->lenient = 1;
        else if (cli_opt(&a, "--function")) o->function = a.value;
        else if (cli_opt(&a, "-o|--output")) o->output = a.value;
        else if (cli_opt(&a, "--const")) o->consts = a.value;
        else if (cli_opt(&a, "--export-drn")) o->export_drn = a.value;
        else if (cli_opt(&a, "--export-explicit")) o->export_explicit = a.value;
        else if (cli_opt(&a, "--export-prism")) o->export_prism = a.value;
        else if (cli_positional(&a)) {
            if (o->file) return cli_usage_error(&a, "unexpected argument '%s'", a.value);
            o->file = a.value;
        } else cli_unknown(&a);
    }
    if (a.status) return a.status;
    if (!o->file) return cli_usage_error(&a, "no source FILE");
    if (!o->function) return cli_usage_error(&a, "--function NAME is required");
    if (o->consts && !o->export_drn && !o->export_explicit && !o->export_prism)
        return cli_usage_error(&a, "--const is for the exports: add --export-drn, --export-explicit or --export-prism");
    return CLI_OK;
}

/* The value of every parameter from "p1=0.3,p2=0.5" (names of m->params,
 * each once, each in [0,1]). */
static int synth_point(const proper_synth_model *m, const char *consts, double *p) {
    const char *s = consts ? consts : "";
    size_t i;
    int rc;
    for (i = 0; i < m->n_params; i++) p[i] = -1.0;
    while (*s) {
        const char *eq = strchr(s, '='), *end = strchr(s, ',');
        char value[64];
        size_t len;
        if (!end) end = s + strlen(s);
        if (!eq || eq > end) return cli_fail("--const: expected NAME=VALUE at '%.*s'", (int)(end - s), s);
        for (i = 0; i < m->n_params; i++)
            if (strlen(m->params[i].name) == (size_t)(eq - s) && strncmp(m->params[i].name, s, (size_t)(eq - s)) == 0)
                break;
        if (i == m->n_params) return cli_fail("--const: the model has no parameter '%.*s'", (int)(eq - s), s);
        if (p[i] >= 0.0) return cli_fail("--const: %s given twice", m->params[i].name);
        len = (size_t)(end - eq - 1);
        if (len >= sizeof value) len = sizeof value - 1;
        memcpy(value, eq + 1, len);
        value[len] = 0;
        if ((rc = cli_parse_double(value, "[0,1]", m->params[i].name, &p[i])) != CLI_OK) return rc;
        s = *end ? end + 1 : end;
    }
    for (i = 0; i < m->n_params; i++)
        if (p[i] < 0.0)
            return cli_fail("--const: no value for %s (the %s at line %d)", m->params[i].name,
                            m->params[i].is_loop ? "loop" : "conditional", m->params[i].line);
    return CLI_OK;
}

/* The chain at the point of --const, written by each export asked for. */
static int synth_export(const synth_opts *o, const proper_synth_model *m, proper_error *err) {
    double *p = (double *)calloc(m->n_params + 1, sizeof *p);
    proper_dtmc chain;
    int rc;
    if (!p) return cli_fail("out of memory");
    proper_dtmc_init(&chain);
    if ((rc = synth_point(m, o->consts, p)) == CLI_OK) {
        if (proper_dtmc_param_instantiate(&m->dtmc, p, &chain, err) ||
            (o->export_drn && proper_dtmc_write_file(&chain, proper_dtmc_write_drn, o->export_drn, err)) ||
            (o->export_prism && proper_dtmc_write_file(&chain, proper_dtmc_write_prism, o->export_prism, err)) ||
            (o->export_explicit && proper_dtmc_write_explicit_files(&chain, o->export_explicit, err)))
            rc = cli_report(err);
    }
    proper_dtmc_free(&chain);
    free(p);
    return rc;
}

int cmd_synth(int argc, char **argv) {
    synth_opts o;
    proper_synth_model m;
    proper_synth_opts so = proper_synth_opts_default();
    proper_error err;
    FILE *out = stdout;
    int rc;
    if ((rc = synth_parse_args(argc, argv, &o)) != CLI_OK) return rc < 0 ? CLI_OK : rc;
    proper_synth_init(&m);
    so.lenient = o.lenient;
    if (proper_synth_read_opts(&m, o.file, o.function, so, &err)) return cli_report(&err);
    cli_warn_lines(m.warnings);
    if (o.export_drn || o.export_explicit || o.export_prism) {
        rc = synth_export(&o, &m, &err);
        if (rc != CLI_OK || !o.output) {
            proper_synth_free(&m);
            return rc;
        }
    }
    if (o.output && !(out = fopen(o.output, "w"))) {
        proper_synth_free(&m);
        return cli_fail("%s: cannot write", o.output);
    }
    rc = o.table ? proper_synth_write_table(&m, out, &err) : proper_synth_write_prism(&m, out, &err);
    if (out != stdout && fclose(out) != 0 && !rc) rc = proper_error_set(&err, PROPER_EIO, o.output, 0, 0, "write error");
    proper_synth_free(&m);
    return rc ? cli_report(&err) : CLI_OK;
}
