/* cli.h — shared pieces of the `proper` command-line tool.
 *
 * Each subcommand lives in its own cli/cmd_NAME.c and is listed in the table
 * in cli/proper.c. Exit codes: 0 success, 1 a requested check failed,
 * 2 bad input or usage. Errors go to stderr as "proper: file:line:col: msg".
 * The helpers below (cli/args.c) are the one option parser, the one set of
 * number parsers and the one clock of every command; JSON output comes from
 * cli/json.h.
 */
#ifndef PROPER_CLI_H
#define PROPER_CLI_H

#include "../src/core.h"

#define CLI_OK 0
#define CLI_CHECK_FAILED 1
#define CLI_BAD_INPUT 2

/* The default of --precision, the one of every command (check, crosscheck:
 * relative precision asked of a model checker; pmf: tail mass a loop may
 * leave). */
#define CLI_DEFAULT_PRECISION 1e-12

#if defined(__GNUC__) || defined(__clang__)
#define CLI_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define CLI_PRINTF(fmt, args)
#endif

/* Print "proper: <formatted error>" to stderr; returns CLI_BAD_INPUT. */
int cli_report(const proper_error *err);
/* Print "proper: <message>" to stderr; returns CLI_BAD_INPUT. */
int cli_fail(const char *fmt, ...) CLI_PRINTF(1, 2);
/* Print each line of `lines` (newline-separated, may be NULL) to stderr as
 * "proper: warning: <line>". */
void cli_warn_lines(const char *lines);
/* The warning for n deadlock states given a self-loop (nothing when n = 0),
 * in the words every command uses. */
void cli_warn_deadlocks(size_t n);
/* Report a properties error of a model read from explicit files: an unknown
 * name there may be a variable, known only from the .sta (--sta). */
int cli_report_explicit_props(proper_error *err, int have_sta);
/* Another tool built on these helpers (proper-mpi, cli/mpi/) names itself:
 * every message above and below then starts with `name` instead of
 * "proper" ("proper-mpi: ...", "proper-mpi vlmc: ... (see 'proper-mpi vlmc
 * --help')"), the rest of the wording unchanged. With quiet set nothing is
 * printed and the return values are the same: proper-mpi's ranks parse the
 * command line alike and only rank 0 says what is wrong with it. */
void cli_set_program(const char *name);
void cli_set_quiet(int quiet);

/* ---- Options ------------------------------------------------------------------
 * One loop per command, one helper call per option:
 *
 *     cli_args a;
 *     cli_args_init(&a, "crosscheck", argc, argv);   (argv[0] is the command)
 *     if (a.help) { usage(stdout); return CLI_OK; }
 *     while (cli_next(&a)) {
 *         if (cli_flag(&a, "--json")) o.json = 1;
 *         else if (cli_opt(&a, "-o|--output")) o.output = a.value;
 *         else if (cli_opt_double(&a, "--precision", "(0,1)", &o.precision)) {}
 *         else if (cli_opt_uint(&a, "--seed", 0, ULLONG_MAX, &seed)) {}
 *         else if (cli_positional(&a)) { if (n < 2) pos[n++] = a.value; else ...too many... }
 *         else cli_unknown(&a);
 *     }
 *     if (a.status) return a.status;
 *
 * A spec names the option's spellings separated by '|': "-o|--output".
 * Long options take "--name VALUE" or "--name=VALUE", short ones "-o VALUE"
 * or "-oVALUE"; a flag given a value ("--json=1") is an error. "--" ends
 * the options. "-" and negative numbers ("-3", "-.5") are positional.
 * `help` is set by init when -h or --help appears anywhere before "--", so
 * that a command prints its usage even after a bad option. After an error
 * has been reported `status` is CLI_BAD_INPUT and cli_next returns 0.
 * Errors read "proper CMD: unknown option '--x' (see 'proper CMD --help')",
 * "proper CMD: option '--x' needs a value" and, for values,
 * "proper: --x: expected ..., got 'text'".
 * Subcommands ("vlmc fit", "lp solve", "qn simulate"): the command checks
 * -h/--help on its whole argv (init never looks at argv[0], so "proper lp
 * --help" needs this), checks the subcommand word argv[1], then parses the
 * rest with cli_args_init(&a, "lp", argc - 1, argv + 1): argv[0] is then the
 * subcommand, skipped as a command's name is, and messages still name the
 * command ("proper lp: ..."). */
typedef struct cli_args {
    const char *cmd;    /* the command's name, for messages */
    int argc;
    char **argv;
    int i;              /* index of the argument being looked at */
    int options_done;   /* after "--" */
    const char *arg;    /* the current argument */
    const char *value;  /* value of the option or positional just matched */
    char name[48];      /* the spelling of the option just matched ("--output") */
    int help;           /* -h or --help was given */
    int status;         /* CLI_OK, or CLI_BAD_INPUT once an error was reported */
} cli_args;

void cli_args_init(cli_args *a, const char *cmd, int argc, char **argv);
/* Move to the next argument; 0 when there is none or after an error. */
int cli_next(cli_args *a);
/* 1 when the current argument is the flag `spec`. */
int cli_flag(cli_args *a, const char *spec);
/* 1 when the current argument is the option `spec`; its value is a->value
 * (0 with an error reported when the value is missing). */
int cli_opt(cli_args *a, const char *spec);
/* The argument after the option just matched, as its next value (for
 * options of two values: "--measured TRACE STEP"): 1 with a->value set, or
 * 0 with "option '--x' needs 2 values" reported. */
int cli_opt_next(cli_args *a);
/* cli_opt, then the value parsed by cli_parse_uint / cli_parse_double; 1
 * when the option matched (whether or not its value was good). */
int cli_opt_uint(cli_args *a, const char *spec, unsigned long long min, unsigned long long max,
                 unsigned long long *out);
int cli_opt_double(cli_args *a, const char *spec, const char *range, double *out);
/* 1 when the current argument is positional (a->value is it). */
int cli_positional(cli_args *a);
/* Report the current argument as an unknown option. */
void cli_unknown(cli_args *a);
/* Report a usage error "proper CMD: <message> (see 'proper CMD --help')";
 * sets a->status and returns CLI_BAD_INPUT. */
int cli_usage_error(cli_args *a, const char *fmt, ...) CLI_PRINTF(2, 3);

/* ---- Numbers --------------------------------------------------------------------
 * Each parses all of `text` (blanks around allowed), reports a clear error
 * naming `what` (e.g. "--steps") and returns CLI_BAD_INPUT, or stores the
 * value and returns CLI_OK. */
/* A whole number in [min, max]: "12", "+12"; not "-1", "1.5", "1e3", "0x10". */
int cli_parse_uint(const char *text, unsigned long long min, unsigned long long max, const char *what,
                   unsigned long long *out);
/* A signed whole number in [min, max]. */
int cli_parse_int(const char *text, long long min, long long max, const char *what, long long *out);
/* A number (proper_parse_double_str) in `range`, an interval written
 * "(0,1)", "[0,inf)", "(0,inf)", "[0,1]"; NULL means any finite number.
 * "inf" and "nan" are rejected unless the range includes inf. */
int cli_parse_double(const char *text, const char *range, const char *what, double *out);

/* ---- Time ------------------------------------------------------------------------ */
/* Seconds on a monotonic clock (CLOCK_MONOTONIC): differences are elapsed
 * wall time. */
double cli_now(void);

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
int cmd_annot(int argc, char **argv);
int cmd_sim(int argc, char **argv);

#endif
