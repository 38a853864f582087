/* proper.c — entry point of the `proper` command-line tool. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int cmd_version(int argc, char **argv) {
    (void)argc; (void)argv;
    printf("proper %s\n", PROPER_VERSION_STRING);
    return CLI_OK;
}

static const struct {
    const char *name;
    cli_command_fn run;
    const char *summary;
} commands[] = {
    {"synth", cmd_synth, "annotated C/Java source -> parametric DTMC (PRISM language)"},
    {"analyze", cmd_analyze, "source + count log -> estimates and confidence intervals"},
    {"trace", cmd_trace, "summarise trace files: step durations, branches, loops, T and C"},
    {"pmf", cmd_pmf, "PMFs from CSV: stats, convolution (sequence), loops; SVG plots"},
    {"sre", cmd_sre, "stochastic regular expressions: predict a response-time PMF, compare, plot"},
    {"check", cmd_check, "PRISM-language or explicit DTMC + properties -> values; exports"},
    {"crosscheck", cmd_crosscheck, "check properties natively and with PRISM/Storm; compare the values"},
    {"vlmc", cmd_vlmc, "learn a VLMC of a program from location traces; steps to termination"},
    {"qn", cmd_qn, "closed queueing networks: simulate, learn rates and routing (LP/QP), what-if"},
    {"sim", cmd_sim, "simulation models of multithreaded programs: build from a trace, run, what-if"},
    {"lp", cmd_lp, "solve a linear program (CPLEX LP format): native simplex or glpsol"},
    {"annot", cmd_annot, "performance annotations (Freud): fit to a log, check a log, diff two versions"},
    {"version", cmd_version, "print the version"},
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out) {
    size_t i;
    fprintf(out,
            "usage: proper COMMAND [ARGS...]\n"
            "       proper --help | --version\n\n"
            "Probabilistic performance analysis of software.\n\ncommands:\n");
    for (i = 0; i < N_COMMANDS; i++) fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\n'proper COMMAND --help' describes a command.\n"
            "Exit status: 0 success, 1 a requested check failed, 2 bad input.\n");
}

int main(int argc, char **argv) {
    size_t i;
    if (argc < 2) {
        usage(stderr);
        return CLI_BAD_INPUT;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--version") == 0) return cmd_version(argc - 1, argv + 1);
    for (i = 0; i < N_COMMANDS; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    if (argv[1][0] == '-') return cli_fail("unknown option '%s' (see 'proper --help')", argv[1]);
    return cli_fail("unknown command '%s' (see 'proper --help')", argv[1]);
}
