/* proper synth — annotated source → parametric DTMC (PRISM language). */
#include <stdio.h>
#include <string.h>

#include "../src/synth.h"
#include "cli.h"

static void synth_usage(FILE *out) {
    fprintf(out,
            "usage: proper synth FILE --function NAME [--table] [--lenient] [-o OUT.pm]\n\n"
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
            "  -o, --output FILE  write to FILE instead of stdout\n");
}

typedef struct synth_opts {
    const char *file, *function, *output;
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
        else if (cli_positional(&a)) {
            if (o->file) return cli_usage_error(&a, "unexpected argument '%s'", a.value);
            o->file = a.value;
        } else cli_unknown(&a);
    }
    if (a.status) return a.status;
    if (!o->file) return cli_usage_error(&a, "no source FILE");
    if (!o->function) return cli_usage_error(&a, "--function NAME is required");
    return CLI_OK;
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
    if (o.output && !(out = fopen(o.output, "w"))) {
        proper_synth_free(&m);
        return cli_fail("%s: cannot write", o.output);
    }
    rc = o.table ? proper_synth_write_table(&m, out, &err) : proper_synth_write_prism(&m, out, &err);
    if (out != stdout && fclose(out) != 0 && !rc) rc = proper_error_set(&err, PROPER_EIO, o.output, 0, 0, "write error");
    proper_synth_free(&m);
    return rc ? cli_report(&err) : CLI_OK;
}
