/* cli.h — shared pieces of the `proper` command-line tool.
 *
 * Each subcommand lives in its own cli/cmd_NAME.c and is listed in the table
 * in cli/proper.c. Exit codes: 0 success, 1 a requested check failed,
 * 2 bad input or usage. Errors go to stderr as "proper: file:line:col: msg".
 */
#ifndef PROPER_CLI_H
#define PROPER_CLI_H

#include "../src/core.h"

#define CLI_OK 0
#define CLI_CHECK_FAILED 1
#define CLI_BAD_INPUT 2

/* Print "proper: <formatted error>" to stderr; returns CLI_BAD_INPUT. */
int cli_report(const proper_error *err);
/* Print "proper: <message>" to stderr; returns CLI_BAD_INPUT. */
int cli_fail(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* 1 when argv[i] is "--help" or "-h". */
int cli_is_help(const char *arg);
/* Value of option `name` at argv[*i]: accepts "--name VALUE" and
 * "--name=VALUE". Returns the value and advances *i past it, or NULL when
 * argv[*i] is not that option. Sets *missing when the value is absent. */
const char *cli_option(int argc, char **argv, int *i, const char *name, int *missing);

typedef int (*cli_command_fn)(int argc, char **argv);

/* Subcommands (argv[0] is the subcommand's name), one per cli/cmd_NAME.c. */
int cmd_synth(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_pmf(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_vlmc(int argc, char **argv);
int cmd_sre(int argc, char **argv);
int cmd_qn(int argc, char **argv);
int cmd_lp(int argc, char **argv);
int cmd_crosscheck(int argc, char **argv);

#endif
