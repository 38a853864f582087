/* proper synth — annotated source → parametric DTMC (PRISM language). */
#include <stdio.h>
#include <string.h>

#include "../src/synth.h"
#include "cli.h"

static void synth_usage(FILE *out) {
    fprintf(out,
            "usage: proper synth FILE --function NAME [--table] [-o OUT.pm]\n\n"
            "Builds the parametric DTMC of function NAME in the C or Java source FILE\n"
            "(PROPER's Algorithm 1): one state per statement, one parameter p1..pn per\n"
            "conditional and loop in source order, one reward structure per annotation\n"
            "(// @time=0.01, //@cost=0.25,@time=0.03, /* @energy=60 */).\n\n"
            "  --function NAME  the function to model (required)\n"
            "  --table          print the table state -> line -> statement -> parameter\n"
            "  -o FILE          write the PRISM model to FILE instead of stdout\n");
}

int cmd_synth(int argc, char **argv) {
    const char *file = NULL, *function = NULL, *out_path = NULL;
    int i, table = 0, rc, missing;
    proper_synth_model m;
    proper_error err;
    FILE *out = stdout;
    for (i = 1; i < argc; i++) {
        const char *v;
        if (cli_is_help(argv[i])) { synth_usage(stdout); return CLI_OK; }
        if ((v = cli_option(argc, argv, &i, "--function", &missing))) function = v;
        else if ((v = cli_option(argc, argv, &i, "-o", &missing))) out_path = v;
        else if (missing) return cli_fail("%s needs a value", argv[i]);
        else if (strcmp(argv[i], "--table") == 0) table = 1;
        else if (argv[i][0] == '-' && argv[i][1]) return cli_fail("synth: unknown option '%s' (see --help)", argv[i]);
        else if (!file) file = argv[i];
        else return cli_fail("synth: unexpected argument '%s'", argv[i]);
    }
    if (!file || !function) { synth_usage(stderr); return CLI_BAD_INPUT; }
    if (proper_synth_from_file(&m, file, function, &err)) return cli_report(&err);
    if (out_path && !(out = fopen(out_path, "w"))) {
        proper_synth_free(&m);
        return cli_fail("%s: cannot write", out_path);
    }
    rc = table ? proper_synth_write_table(&m, out) : proper_synth_write_prism(&m, out);
    if (out != stdout) fclose(out);
    proper_synth_free(&m);
    return rc ? cli_fail("write failed") : CLI_OK;
}
