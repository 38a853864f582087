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
#include "json.h"

/* Default seconds an external tool may run per property. */
#define CHECK_TIMEOUT 600.0

static void check_usage(FILE *out) {
    fprintf(out,
            "usage: proper check MODEL.pm [PROPS] [options]\n"
            "       proper check --explicit MODEL.tra MODEL.lab [PROPS] [--sta F] [--srew F]... [--trew F]...\n"
            "                   [options]\n\n"
            "Builds the DTMC or CTMC of a PRISM-language model (dtmc/ctmc: constants,\n"
            "formulas, labels, modules with bounded int/bool variables, renaming,\n"
            "synchronising actions, rewards, init...endinit), or reads PRISM explicit\n"
            "files, and prints each property's result as PRISM reports it (the value in\n"
            "the initial state, or a range [lo, hi] over several) to 15 significant digits.\n\n"
            "PROPS is a properties file when a file of that name exists, otherwise the\n"
            "text of one or more properties, e.g. 'P=? [ F \"end\" ]' or 'N+0'; text that\n"
            "does not parse and ends like a file name (die.pctl) is reported as a missing\n"
            "file. PROPS must hold at least one property.\n"
            "Properties: any expression over P=? [ path ], R{\"r\"}=? [ F phi | C<=k | C |\n"
            "I=k | S | co-safe LTL ], S=? [ phi ], bounds P>=0.9 [ ... ] (true/false),\n"
            "CTL E [ path ] and A [ path ], filter(op, prop, states) and named properties\n"
            "\"name\"; paths X, F, G, U, W, R with step bounds <=k <k >=k >k =k [a,b]\n"
            "(CTMC: times), or LTL; labels \"name\", \"init\", \"deadlock\".\n"
            "Probability intervals ([0.1,0.2]:(x'=1), PRISM's interval DTMCs): Pmin=? and\n"
            "Pmax=? (P>=b: the minimum, P<=b: the maximum) of any path formula: X, F, U,\n"
            "G, W, R with any step bounds, and LTL; Rmin=?/Rmax=? of F phi, X F phi and\n"
            "C<=k; over every choice of distributions within the intervals, which may\n"
            "depend on the history (any operator when every interval is a point); P=?\n"
            "and R=? are refused, as PRISM refuses them; no exports, --exact or --param.\n\n");
    fprintf(out,
            "options:\n"
            "  --const A=1,B=0.5  values of constants declared without one (model or\n"
            "                     properties): numbers, true/false, or expressions (p=1/3);\n"
            "                     ranges N=1:5 or p=0:0.1:1 run every combination (as\n"
            "                     PRISM's -const); a name declared nowhere is ignored\n"
            "                     with a warning, as PRISM ignores it\n"
            "  --fixdl            (the default) give states without any enabled command a\n"
            "                     self-loop, as PRISM does, with a warning\n"
            "  --nofixdl          refuse a model with deadlock states instead\n"
            "  --noprobchecks     accept commands whose probabilities do not sum to 1:\n"
            "                     each state's row is normalised, as PRISM -noprobchecks\n"
            "                     does (not with --exact or --param)\n"
            "  --max-states N     stop with an error beyond N reachable states (default %u)\n"
            "  --max-transitions N  stop with an error beyond N transitions (default %llu)\n"
            "  --property P       check only property P: its number (1 = the first) or\n"
            "                     its name (as PRISM's -property)\n"
            "  --test             PRISM's test mode: compare each result with the\n"
            "                     \"RESULT: v\" (or \"RESULT (N=3): v\") comment above the\n"
            "                     property; print PASS, WRONG, UNSUPPORTED, ERROR, SKIP or\n"
            "                     BEYOND (PRISM expects its own 'not supported' error, or\n"
            "                     cannot decide a bound within its accuracy, and proper\n"
            "                     answers) per property (relative tolerance 1e-5;\n"
            "                     \"Error\" expects an error); exit 1 when one is WRONG or ERROR\n"
            "  --json             print the results as JSON; a value that is not a finite\n"
            "                     number is null there, with \"value_text\" saying which\n"
            "                     (\"Infinity\", \"-Infinity\", \"NaN\"); a tool's\n"
            "                     \"tool_error\" is null when it states none; \"error_bound\" is\n"
            "                     the solver's proven bound on |value - exact value| for one\n"
            "                     P=?, R=? or S=? operator whose solver proves one, else null;\n"
            "                     it covers the model's own rounding (its literals,\n"
            "                     constants and arithmetic in doubles: PRISM's poll6 example\n"
            "                     is 1.1e-14 off its exact value, within the bound 7.4e-13).\n"
            "                     Where that rounding is not bounded (pow, log, a guard the\n"
            "                     doubles decide, interval models, explicit files) the bound\n"
            "                     is \"stored_chain_error_bound\" instead: of the chain as\n"
            "                     built in doubles only (docs/prism.md). --exact gives the\n"
            "                     exact value. The table prints a bound beside its value\n"
            "                     when it is wider than --precision relative to the value,\n"
            "                     and a bound of the stored chain always, saying so\n",
            (unsigned)PROPER_PRISM_MAX_STATES, (unsigned long long)PROPER_PRISM_MAX_TRANSITIONS);
    fprintf(out,
            "  --export-explicit PREFIX   write PREFIX.tra .lab .sta .srew .trew (PRISM\n"
            "                     explicit format; states numbered as PRISM numbers them;\n"
            "                     several reward structures: PREFIX1.srew, PREFIX2.srew, ...)\n"
            "  --export-drn FILE  write the model in Storm's DRN format\n"
            "  --export-prism FILE  write the model as a flat PRISM-language DTMC\n"
            "  --dot FILE         write a Graphviz picture of the model\n"
            "  --srew F, --trew F (with --explicit) state / transition rewards; repeat them\n"
            "                     for several reward structures (PRISM's M1.srew, M2.srew,\n"
            "                     ...), read in the order given: a file without PRISM's\n"
            "                     name comment joins the last structure lacking its kind\n"
            "  --sta F            (with --explicit) PRISM's state valuations (.sta): the\n"
            "                     properties may then name the model's variables, as in\n"
            "                     'P=? [ F d=6 ]' (without it only labels)\n"
            "  --ctmc             (with --explicit) the .tra holds rates: a CTMC (PRISM's\n"
            "                     '# Transitions (CTMC)' comment says so by itself)\n"
            "  --backend NAME     check with NAME: native (default), prism or storm (tools\n"
            "                     from PROPER_PRISM / PROPER_STORM or PATH); the default\n"
            "                     comes from PROPER_BACKEND when set\n"
            "  --precision R      relative precision of the iterative solver, and asked of\n"
            "                     an external tool (default %g); a bound P>=b whose value\n"
            "                     lies within it of b is decided exactly on a model of at\n"
            "                     most 200 states, else refused as undecidable\n"
            "  --exact            exact rational answers (\"32504164372/51699390625 (exact)\",\n"
            "                     JSON \"rational\" and \"exact\": true), as PRISM -exact prints\n"
            "                     them: literals read as written (0.1 is 1/10), P=?, R=? [F, C<=k,\n"
            "                     I=k, S] and S=? of DTMCs, and their unbounded forms on\n"
            "                     CTMCs (P=? [U], R=? [F], R=? [S], S=?); with --backend,\n"
            "                     asked of the tool\n"
            "  --param P,Q        keep the double constants P, Q (declared without a value,\n"
            "                     or 'param') open: each property as a rational function of\n"
            "                     them, as PRISM -param prints it (p=0:1,q=0:1 is accepted)\n"
            "  --timeout S        seconds an external tool may run per property (default %g);\n"
            "                     its version probe waits at most this, and at most %g s\n\n"
            "Exit status: 0 ok, 1 a boolean property (e.g. P>=0.9 [...]) is false,\n"
            "2 bad input (errors as file:line:col: message).\n",
            CLI_DEFAULT_PRECISION, CHECK_TIMEOUT, PROPER_TOOL_PROBE_TIMEOUT);
}

#define CHECK_MAX_REWARD_FILES 64

/* A --srew (trans = 0) or --trew (trans = 1) file. */
typedef struct reward_file {
    int trans;
    const char *path;
} reward_file;

typedef struct check_opts {
    const char *model, *lab, *sta, *props, *consts;
    reward_file rewards[CHECK_MAX_REWARD_FILES]; /* in the order given */
    size_t n_rewards, n_srew, n_trew;
    const char *export_explicit, *export_drn, *export_prism, *dot;
    const char *backend, *property, *params;
    const char *run_consts; /* the constants of this run (one combination of --const ranges) */
    int explicit_files, ctmc, json, fixdl, nofixdl, noprobchecks, exact, test;
    uint32_t max_states;
    uint64_t max_transitions;
    double precision, timeout;
    const proper_prism_intervals *intervals; /* the built model's probability intervals (none: n = 0) */
} check_opts;

/* Value text: %.15g, Infinity, NaN, true/false. */
static void format_value(char *buf, size_t size, double v, int type) {
    if (type == PROPER_PRISM_BOOL) snprintf(buf, size, "%s", v != 0 ? "true" : "false");
    else if (isinf(v)) snprintf(buf, size, "%sInfinity", v < 0 ? "-" : "");
    else if (v != v) snprintf(buf, size, "NaN");
    else snprintf(buf, size, "%.15g", v);
}

/* "value" (a number, a boolean, or null when not finite) and, for
 * non-finite numbers, "value_text" ("Infinity", "-Infinity", "NaN"). */
static void json_value(cli_json *j, double v, int type) {
    if (type == PROPER_PRISM_BOOL) {
        cli_json_key_bool(j, "value", v != 0);
    } else {
        cli_json_key_number(j, "value", v);
        if (!isfinite(v)) {
            char text[32];
            format_value(text, sizeof text, v, type);
            cli_json_key_string(j, "value_text", text);
        }
    }
}

static const char *type_name(int type) {
    return type == PROPER_PRISM_BOOL ? "bool" : type == PROPER_PRISM_INT ? "int" : "double";
}

/* The positional arguments: MODEL.pm [PROPS], or with --explicit
 * MODEL.tra MODEL.lab [PROPS]. */
static int take_positionals(cli_args *a, check_opts *o, const char **pos, int n) {
    if (o->explicit_files) {
        if (n < 2) return cli_usage_error(a, "--explicit needs MODEL.tra and MODEL.lab");
        o->model = pos[0];
        o->lab = pos[1];
        o->props = pos[2];
        return CLI_OK;
    }
    if (n < 1) return cli_usage_error(a, "missing MODEL.pm");
    if (n > 2) return cli_usage_error(a, "unexpected argument '%s'", pos[2]);
    if (o->n_rewards || o->ctmc || o->sta) return cli_usage_error(a, "--srew/--trew/--sta/--ctmc need --explicit");
    o->model = pos[0];
    o->props = pos[1];
    return CLI_OK;
}

/* The --srew/--trew file a.value, in order. */
static void add_reward_file(cli_args *a, check_opts *o, int trans) {
    if (o->n_rewards == CHECK_MAX_REWARD_FILES) {
        cli_usage_error(a, "more than %d --srew/--trew files", CHECK_MAX_REWARD_FILES);
        return;
    }
    o->rewards[o->n_rewards].trans = trans;
    o->rewards[o->n_rewards++].path = a->value;
    if (trans) o->n_trew++;
    else o->n_srew++;
}

/* The first --srew (trans = 0) or --trew (trans = 1) file, or NULL. */
static const char *first_reward_file(const check_opts *o, int trans) {
    size_t i;
    for (i = 0; i < o->n_rewards; i++)
        if (o->rewards[i].trans == trans) return o->rewards[i].path;
    return NULL;
}

/* Options into *o; -1 after printing the usage for --help. */
static int parse_args(int argc, char **argv, check_opts *o) {
    cli_args a;
    int n = 0;
    const char *pos[3] = {NULL, NULL, NULL};
    unsigned long long max_states = PROPER_PRISM_MAX_STATES, max_transitions = PROPER_PRISM_MAX_TRANSITIONS;
    memset(o, 0, sizeof *o);
    o->precision = CLI_DEFAULT_PRECISION;
    o->timeout = CHECK_TIMEOUT;
    cli_args_init(&a, "check", argc, argv);
    if (a.help) {
        check_usage(stdout);
        return -1;
    }
    while (cli_next(&a)) {
        if (cli_flag(&a, "--explicit")) o->explicit_files = 1;
        else if (cli_flag(&a, "--exact")) o->exact = 1;
        else if (cli_flag(&a, "--json")) o->json = 1;
        else if (cli_flag(&a, "--fixdl")) o->fixdl = 1;
        else if (cli_flag(&a, "--nofixdl")) o->nofixdl = 1;
        else if (cli_flag(&a, "--noprobchecks")) o->noprobchecks = 1;
        else if (cli_flag(&a, "--test")) o->test = 1;
        else if (cli_opt(&a, "--backend")) o->backend = a.value;
        else if (cli_opt(&a, "--const")) o->consts = a.value;
        else if (cli_opt(&a, "--property")) o->property = a.value;
        else if (cli_opt(&a, "--param")) o->params = a.value;
        else if (cli_opt(&a, "--export-explicit")) o->export_explicit = a.value;
        else if (cli_opt(&a, "--export-drn")) o->export_drn = a.value;
        else if (cli_opt(&a, "--export-prism")) o->export_prism = a.value;
        else if (cli_opt(&a, "--dot")) o->dot = a.value;
        else if (cli_flag(&a, "--ctmc")) o->ctmc = 1;
        else if (cli_opt(&a, "--sta")) o->sta = a.value;
        else if (cli_opt(&a, "--srew")) add_reward_file(&a, o, 0);
        else if (cli_opt(&a, "--trew")) add_reward_file(&a, o, 1);
        else if (cli_opt_double(&a, "--precision", "(0,1)", &o->precision)) {
        } else if (cli_opt_double(&a, "--timeout", "(0,inf)", &o->timeout)) {
        } else if (cli_opt_uint(&a, "--max-states", 1, 0xFFFFFFF0ull, &max_states)) {
        } else if (cli_opt_uint(&a, "--max-transitions", 1, ~0ull, &max_transitions)) {
        } else if (cli_positional(&a)) {
            if (n == 3) return cli_usage_error(&a, "unexpected argument '%s'", a.value);
            pos[n++] = a.value;
        } else {
            cli_unknown(&a);
        }
    }
    if (a.status) return a.status;
    o->max_states = (uint32_t)max_states;
    o->max_transitions = max_transitions;
    return take_positionals(&a, o, pos, n);
}

/* Build from the PRISM language, or read the explicit files. */
static int load_model(const check_opts *o, proper_prism_model **pm, proper_dtmc *d, proper_error *err) {
    proper_dtmc_init(d);
    if (o->explicit_files) {
        proper_dtmc_import_opts io;
        size_t i;
        io = proper_dtmc_import_opts_default();
        io.fix_deadlocks = o->fixdl;
        io.max_states = o->max_states;
        io.ctmc = o->ctmc;
        if (proper_dtmc_read_tra(d, o->model, &io, err) || proper_dtmc_read_lab(d, o->lab, err)) return cli_report(err);
        for (i = 0; i < o->n_rewards; i++)
            if ((o->rewards[i].trans ? proper_dtmc_read_trew : proper_dtmc_read_srew)(d, o->rewards[i].path, NULL, err))
                return cli_report(err);
        /* the variables of the .sta, for the properties to name */
        if (o->sta && (proper_dtmc_read_sta(d, o->sta, err) ||
                       (d->n_vars && proper_prism_model_of_valuations(pm, d, o->sta, err))))
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

/* Options of the native checker: --precision is the solver's. */
static proper_prism_check_opts native_opts(const check_opts *o) {
    proper_prism_check_opts co = proper_prism_check_opts_default();
    co.solve.rel_precision = o->precision;
    co.intervals = o->intervals;
    return co;
}

/* Property i is checked: no --property, or it names i (1-based) or i's name. */
static int selected(const check_opts *o, const proper_prism_props *p, size_t i) {
    const char *name = proper_prism_props_name(p, i);
    char num[32];
    if (!o->property) return 1;
    snprintf(num, sizeof num, "%lu", (unsigned long)i + 1);
    return strcmp(o->property, num) == 0 || (name && strcmp(o->property, name) == 0);
}

/* Width of the property column of the table. */
static size_t label_width(const proper_prism_props *p, size_t n) {
    size_t i, width = 8;
    for (i = 0; i < n; i++) {
        size_t w = strlen(proper_prism_props_text(p, i)) +
                   (proper_prism_props_name(p, i) ? strlen(proper_prism_props_name(p, i)) + 4 : 0);
        if (w > width && w <= 70) width = w;
    }
    return width;
}

/* A result: its value, or "[lo, hi]" for a range (as PRISM prints one). */
static void format_result(char *buf, size_t size, const proper_prism_result *r) {
    char lo[64], hi[64];
    format_value(lo, sizeof lo, r->value, r->type);
    if (r->type == PROPER_PRISM_BOOL || r->value == r->hi || r->value != r->value) {
        snprintf(buf, size, "%s", lo);
        return;
    }
    format_value(hi, sizeof hi, r->hi, r->type);
    snprintf(buf, size, "[%s, %s]", lo, hi);
}

/* One row of the table. A proven bound wider than the precision asked,
 * relative to the value (a CTMC time bound's truncation is absolute: a
 * probability of 1e-77 is known to about 1e-12 only), is printed beside the
 * value, whose digits say more than is known. A bound that does not cover
 * the model's own rounding (of its numbers into doubles) says so, always. */
static void table_row(const proper_prism_props *p, size_t i, size_t width, const proper_prism_result *r,
                      double precision) {
    const char *name = proper_prism_props_name(p, i), *text = proper_prism_props_text(p, i);
    char value[140], label[600];
    format_result(value, sizeof value, r);
    if (name) snprintf(label, sizeof label, "\"%s\": %s", name, text);
    else snprintf(label, sizeof label, "%s", text);
    if (r->error_bound >= 0 && !r->covers_model && isfinite(r->value) && r->value == r->hi)
        printf("%-*s  %s  (+/- %.2g proven for the chain as stored; the model's own rounding not covered)\n", (int)width,
               label, value, r->error_bound);
    else if (r->error_bound > precision * fabs(r->value) && isfinite(r->value) && r->value == r->hi)
        printf("%-*s  %s  (+/- %.2g proven)\n", (int)width, label, value, r->error_bound);
    else
        printf("%-*s  %s\n", (int)width, label, value);
}

/* One property of the JSON output. */
static void json_property(cli_json *j, const proper_prism_props *p, size_t i, const proper_prism_result *r) {
    int type = proper_prism_props_type(p, i);
    cli_json_object_begin(j);
    cli_json_key_string(j, "name", proper_prism_props_name(p, i));
    cli_json_key_string(j, "property", proper_prism_props_text(p, i));
    cli_json_key_string(j, "type", type_name(type));
    json_value(j, r->value, type);
    /* error_bound: against the exact model (null: none proven); a bound of
     * the chain as stored only is stored_chain_error_bound */
    cli_json_key_number(j, "error_bound", r->error_bound >= 0 && r->covers_model ? r->error_bound : NAN);
    if (r->error_bound >= 0 && !r->covers_model) cli_json_key_number(j, "stored_chain_error_bound", r->error_bound);
    if (type != PROPER_PRISM_BOOL && r->value != r->hi && r->value == r->value) { /* a range over initial states */
        cli_json_key(j, "range");
        cli_json_array_begin(j);
        cli_json_number(j, r->value);
        cli_json_number(j, r->hi);
        cli_json_array_end(j);
    }
    cli_json_object_end(j);
}

/* Opens one run's JSON object up to its "properties" array: into runs (one
 * element per --const combination) when given, else into j on stdout. */
static void json_run_begin(const check_opts *o, const proper_dtmc *d, cli_json *runs, cli_json *j) {
    cli_json *jj = runs ? runs : j;
    if (!runs) cli_json_init(j, stdout);
    cli_json_object_begin(jj);
    if (runs) cli_json_key_string(jj, "constants", o->run_consts);
    cli_json_key_string(jj, "model", o->model);
    cli_json_key_uint(jj, "states", (unsigned long long)d->n_states);
    cli_json_key_uint(jj, "transitions", (unsigned long long)d->n_trans);
    if (o->intervals && o->intervals->n) cli_json_key_bool(jj, "intervals", 1);
    cli_json_key(jj, "properties");
    cli_json_array_begin(jj);
}

/* Check every property; print a table or JSON. Returns the exit status. */
static int check_properties(const check_opts *o, const proper_prism_props *p, const proper_dtmc *d, cli_json *runs) {
    size_t i, n = p ? proper_prism_props_count(p) : 0, width = label_width(p, n);
    proper_prism_result *v = (proper_prism_result *)proper_calloc(n + 1, sizeof *v);
    proper_prism_check_opts co = native_opts(o);
    int status = CLI_OK;
    proper_error err;
    cli_json j;
    if (!v) return cli_fail("out of memory");
    for (i = 0; i < n; i++) {
        if (!selected(o, p, i)) continue;
        if (proper_prism_props_result(p, i, d, &co, &v[i], &err)) {
            PROPER_FREE(v);
            return cli_report(&err);
        }
        if (proper_prism_props_type(p, i) == PROPER_PRISM_BOOL && v[i].value == 0) status = CLI_CHECK_FAILED;
    }
    if (o->json) {
        cli_json *jj = runs ? runs : &j;
        json_run_begin(o, d, runs, &j);
        for (i = 0; i < n; i++)
            if (selected(o, p, i)) json_property(jj, p, i, &v[i]);
        cli_json_array_end(jj);
        cli_json_object_end(jj);
    } else {
        printf("model: %s (%lu states, %llu transitions%s)\n", o->model, (unsigned long)d->n_states,
               (unsigned long long)d->n_trans, o->intervals && o->intervals->n ? ", an interval DTMC" : "");
        if (n) printf("%-*s  %s\n", (int)width, "property", "value");
        for (i = 0; i < n; i++)
            if (selected(o, p, i)) table_row(p, i, width, &v[i], o->precision);
    }
    PROPER_FREE(v);
    return status;
}

/* ---- PRISM's test mode (--test) ---- */

/* Relative tolerance of a numeric RESULT, PRISM's default testing accuracy. */
#define TEST_RTOL 1e-5

/* BEYOND: the RESULT expects PRISM's own "not supported" error, or its
 * refusal of a bound it cannot decide within its accuracy ("accuracy": proper
 * decides such ties exactly on small models), and proper answers (not a
 * pass, not a wrong value). */
enum { TEST_PASS, TEST_WRONG, TEST_UNSUPPORTED, TEST_ERROR, TEST_SKIP, TEST_BEYOND };

static const char *const test_verdicts[] = {"PASS", "WRONG", "UNSUPPORTED", "ERROR", "SKIP", "BEYOND"};

/* s holds a whole number (strtod accepts all of it, blanks aside). */
static int parse_whole_double(const char *s, size_t n, double *out) {
    char buf[128], *end;
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n == 0 || n >= sizeof buf) return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    *out = strtod(buf, &end);
    return *end == '\0';
}

/* The value given for constant name[0..n) in consts ("N=3,p=0.5"), or NULL;
 * *vlen gets its length. */
static const char *given_const(const char *consts, const char *name, size_t n, size_t *vlen) {
    const char *s = consts;
    while (s && *s) {
        const char *end = strchr(s, ','), *eq;
        if (!end) end = s + strlen(s);
        eq = (const char *)memchr(s, '=', (size_t)(end - s));
        if (eq && (size_t)(eq - s) == n && memcmp(s, name, n) == 0) {
            *vlen = (size_t)(end - eq - 1);
            return eq + 1;
        }
        s = *end ? end + 1 : end;
    }
    return NULL;
}

/* "N=3,p=0.5" of a RESULT's parentheses all match the constants given
 * (numbers numerically, anything else as text). */
static int result_consts_match(const char *spec, size_t len, const char *consts) {
    const char *s = spec, *stop = spec + len;
    while (s < stop) {
        const char *end = (const char *)memchr(s, ',', (size_t)(stop - s)), *eq, *name, *val, *given;
        size_t nlen, vlen, glen;
        double a, b;
        if (!end) end = stop;
        eq = (const char *)memchr(s, '=', (size_t)(end - s));
        if (!eq) return 0;
        for (name = s; name < eq && (*name == ' ' || *name == '\t'); name++) {}
        for (nlen = (size_t)(eq - name); nlen && (name[nlen - 1] == ' ' || name[nlen - 1] == '\t'); nlen--) {}
        for (val = eq + 1; val < end && (*val == ' ' || *val == '\t'); val++) {}
        for (vlen = (size_t)(end - val); vlen && (val[vlen - 1] == ' ' || val[vlen - 1] == '\t'); vlen--) {}
        if (nlen && !(given = given_const(consts, name, nlen, &glen))) return 0;
        if (nlen && parse_whole_double(val, vlen, &a) && parse_whole_double(given, glen, &b)) {
            if (!(fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b)))) return 0;
        } else if (nlen && (vlen != glen || memcmp(val, given, vlen) != 0)) {
            return 0;
        }
        s = end + 1;
    }
    return 1;
}

/* The expected result of a property, as PRISM's test mode finds it: the
 * first "RESULT: v" or "RESULT (N=3,p=0.5): v" in its comment whose
 * constants match the ones given (an expected error with the rest of its
 * line: Error "accuracy"). 0 when there is none. */
static int expected_result(const char *comment, const char *consts, char *out, size_t size) {
    const char *s = comment;
    while (s && (s = strstr(s, "RESULT")) != NULL) {
        const char *q = s + 6, *spec = NULL, *v;
        size_t spec_len = 0, n;
        s += 6;
        while (*q == ' ' || *q == '\t') q++;
        if (*q == '(') {
            const char *close = strchr(q, ')');
            if (!close || close == q + 1) continue;
            spec = q + 1;
            spec_len = (size_t)(close - spec);
            q = close + 1;
            while (*q == ' ' || *q == '\t') q++;
        }
        if (*q != ':') continue;
        q++;
        while (*q == ' ' || *q == '\t') q++;
        for (v = q; *q && *q != ' ' && *q != '\t' && *q != '\n' && *q != '\r'; q++) {}
        if (strncmp(v, "Error", 5) == 0) /* Error "accuracy": the rest of the line says which */
            while (*q && *q != '\n' && *q != '\r') q++;
        n = (size_t)(q - v);
        if (n == 0 || (spec && !result_consts_match(spec, spec_len, consts ? consts : ""))) continue;
        if (n >= size) n = size - 1;
        memcpy(out, v, n);
        out[n] = '\0';
        return 1;
    }
    return 0;
}

/* a within the relative tolerance of b (or both tiny), infinities equal. */
static int test_close(double a, double b) {
    if (isinf(a) || isinf(b)) return a == b;
    return fabs(a - b) <= TEST_RTOL * fmax(fabs(a), fabs(b)) || fabs(a - b) <= 1e-12;
}

/* Value of an expected result written as an expression ("1/6", "N/2"):
 * checked as a property of the same model (its constants as given). */
static int expected_expression(const char *text, proper_prism_model *pm, const proper_dtmc *d, double *v) {
    proper_prism_props *e = NULL;
    proper_error err;
    int rc = proper_prism_props_parse(&e, pm, text, strlen(text), "(RESULT)", &err);
    if (rc == 0 && proper_prism_props_count(e) != 1) rc = PROPER_EPARSE;
    if (rc == 0) rc = proper_prism_props_check(e, 0, d, NULL, v, &err);
    proper_prism_props_free(e);
    return rc;
}

/* An exact result written as a fraction of integers of any length
 * ("-1503982516387544510687823213516750681753609533738014/...") as a double:
 * the leading 17 digits of each and the difference of their lengths. */
static int big_fraction(const char *s, double *v) {
    const char *num = s + (*s == '-'), *slash = strchr(num, '/'), *q;
    double a = 0, b = 0;
    long da = 0, db = 0;
    if (!slash || slash == num || !slash[1]) return 0;
    for (q = num; q < slash; q++) {
        if (*q < '0' || *q > '9') return 0;
        if (q - num < 17) a = a * 10 + (*q - '0');
        else da++;
    }
    for (q = slash + 1; *q; q++) {
        if (*q < '0' || *q > '9') return 0;
        if (q - slash - 1 < 17) b = b * 10 + (*q - '0');
        else db++;
    }
    if (b == 0) return 0;
    *v = (*s == '-' ? -1 : 1) * a / b * pow(10.0, (double)(da - db));
    return 1;
}

/* Compare a result with the expected text; why gets the reason of a WRONG. */
static int test_compare(const char *exp, const proper_prism_result *r, proper_prism_model *pm, const proper_dtmc *d,
                        char *why, size_t size) {
    double e, lo, hi, v = r->value;
    int type = r->type;
    char got[140];
    format_result(got, sizeof got, r);
    if (exp[0] == '~') exp++;
    if (strncmp(exp, "Error", 5) == 0) {
        snprintf(why, size, "expected an error, got %s", got);
        return strstr(exp, "supported") || strstr(exp, "accuracy") ? TEST_BEYOND : TEST_WRONG;
    }
    if (type == PROPER_PRISM_BOOL && (strcmp(exp, "true") == 0 || strcmp(exp, "false") == 0)) {
        if ((v != 0) == (strcmp(exp, "true") == 0)) return TEST_PASS;
        snprintf(why, size, "expected %.200s, got %s", exp, got);
        return TEST_WRONG;
    }
    if (strcmp(exp, "NaN") == 0) {
        if (v != v) return TEST_PASS;
        snprintf(why, size, "expected NaN, got %s", got);
        return TEST_WRONG;
    }
    if (exp[0] == '[' && sscanf(exp, "[%lf,%lf]", &lo, &hi) == 2) { /* the result (a range or a value) meets it */
        if (r->hi >= lo - TEST_RTOL * fabs(r->hi) && v <= hi + TEST_RTOL * fabs(v)) return TEST_PASS;
        snprintf(why, size, "expected %.200s, got %s", exp, got);
        return TEST_WRONG;
    }
    if (strcmp(exp, "Infinity") == 0 || strcmp(exp, "-Infinity") == 0) e = exp[0] == '-' ? -INFINITY : INFINITY;
    else if (!big_fraction(exp, &e) && !parse_whole_double(exp, strlen(exp), &e) &&
             expected_expression(exp, pm, d, &e) != 0) {
        snprintf(why, size, "cannot read the expected result '%.200s'", exp);
        return TEST_ERROR;
    }
    if (type == PROPER_PRISM_INT ? v == e && r->hi == e
        : type == PROPER_PRISM_BOOL ? (v != 0) == (e != 0) : test_close(v, e) && test_close(r->hi, e))
        return TEST_PASS;
    snprintf(why, size, "expected %.200s, got %s", exp, got);
    return TEST_WRONG;
}

/* Test mode: every property against its RESULT. Returns the exit status. */
static int test_properties(const check_opts *o, proper_prism_model *pm, const proper_prism_props *p,
                           const proper_dtmc *d) {
    size_t i, n = p ? proper_prism_props_count(p) : 0;
    proper_prism_check_opts co = native_opts(o);
    int status = CLI_OK;
    for (i = 0; i < n; i++) {
        char exp[4096], why[PROPER_ERROR_MESSAGE_MAX + 64] = "";
        proper_error err;
        proper_prism_result r;
        int verdict, rc;
        if (!selected(o, p, i)) continue;
        if (!expected_result(proper_prism_props_comment(p, i), o->run_consts, exp, sizeof exp) || strcmp(exp, "?") == 0) {
            verdict = TEST_SKIP;
        } else if ((rc = proper_prism_props_result(p, i, d, &co, &r, &err)) != 0) {
            if (strncmp(exp, "Error", 5) == 0) verdict = TEST_PASS;
            else verdict = rc == PROPER_EUNSUPPORTED ? TEST_UNSUPPORTED : TEST_ERROR;
            proper_error_format(&err, why, sizeof why);
        } else {
            verdict = test_compare(exp, &r, pm, d, why, sizeof why);
        }
        if (verdict == TEST_WRONG || verdict == TEST_ERROR) status = CLI_CHECK_FAILED;
        printf("%s  %s%s%s\n", test_verdicts[verdict], proper_prism_props_text(p, i), why[0] ? "  -- " : "", why);
    }
    return status;
}

/* ---- Exact and parametric answers (--exact, --param) ---- */

/* Most parameters --param takes. */
#define CHECK_MAX_PARAMS 64

/* --param "p,q" or PRISM's "p=0:1,q=0:1" (the ranges are PRISM's regions;
 * the function found holds wherever the model's graph is the same): the
 * names into names[] (storage in buf). */
static int parse_params(const char *spec, char *buf, size_t size, const char **names, size_t *n) {
    char *s, *tok;
    size_t i;
    *n = 0;
    if (strlen(spec) >= size) return cli_fail("--param: '%s' is too long", spec);
    memcpy(buf, spec, strlen(spec) + 1);
    for (s = buf; (tok = s) != NULL && *tok; s = s ? s + 1 : NULL) {
        char *eq;
        s = strchr(tok, ',');
        if (s) *s = '\0';
        if ((eq = strchr(tok, '=')) != NULL) *eq = '\0';
        if (!tok[0]) return cli_fail("--param: expected NAME or NAME=lo:hi, found an empty name in '%s'", spec);
        if (*n == CHECK_MAX_PARAMS) return cli_fail("--param: more than %d parameters", CHECK_MAX_PARAMS);
        for (i = 0; i < *n; i++)
            if (strcmp(names[i], tok) == 0) return cli_fail("--param: '%s' is named twice", tok);
        names[(*n)++] = tok;
        if (!s) break;
    }
    if (!*n) return cli_fail("--param: no parameter named");
    return CLI_OK;
}

/* Property i exactly: its value text in the initial state and, for a
 * rational, the nearest double. */
static int exact_value(const proper_prism_props *p, size_t i, const proper_dtmc *d, const proper_exact_dtmc *e,
                       proper_strbuf *text, double *v, proper_error *err) {
    proper_exact_vec x;
    int rc;
    proper_exact_vec_init(&x);
    text->len = 0;
    if (text->data) text->data[0] = '\0';
    *v = NAN;
    if (d->init_dist) return proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0, "exact: the model has several initial states");
    if ((rc = proper_prism_props_exact(p, i, d, e, &x, err)) != 0) return rc;
    if (proper_prism_props_type(p, i) == PROPER_PRISM_BOOL) {
        proper_rat q; /* 0 or 1 (a function of the parameters: constant) */
        proper_rat_init(&q);
        *v = x.n_params ? proper_ratfun_is_const(&x.f[d->init], &q) && proper_rat_is_one(&q) : proper_rat_is_one(&x.q[d->init]);
        proper_rat_free(&q);
        proper_strbuf_puts(text, *v != 0 ? "true" : "false");
        proper_exact_vec_free(&x);
        return text->failed ? proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory") : PROPER_OK;
    }
    proper_exact_vec_format(&x, e, d->init, text);
    if (x.inf[d->init]) *v = INFINITY;
    else if (!x.n_params) *v = proper_rat_to_double(&x.q[d->init]);
    proper_exact_vec_free(&x);
    if (text->failed) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    return PROPER_OK;
}

/* The constants of this run ("p=0.5,N=3") as names and exact values, for
 * a RESULT written as a function of them ("1-p"); values that are not
 * numbers or fractions are left out. */
static size_t run_constants(const char *consts, char *buf, size_t size, const char **names, proper_rat *vals, size_t max) {
    char *s, *tok;
    size_t n = 0;
    proper_error err;
    if (strlen(consts) >= size) return 0;
    memcpy(buf, consts, strlen(consts) + 1);
    for (s = buf; s && *s && n < max; s = s ? s + 1 : NULL) {
        char *eq;
        tok = s;
        s = strchr(tok, ',');
        if (s) *s = '\0';
        if (!(eq = strchr(tok, '='))) continue;
        *eq = '\0';
        if (proper_rat_parse(&vals[n], eq + 1, strlen(eq + 1), "constant", &err) == PROPER_OK) names[n++] = tok;
        if (!s) break;
    }
    return n;
}

/* The RESULT exactly: a rational function of the parameters (with
 * parameters), or else a number, fraction or expression over the run's
 * constants, evaluated exactly. */
static int exact_expected(const char *exp, const proper_exact_dtmc *e, const char *consts, proper_ratfun *out) {
    const char *names[CHECK_MAX_PARAMS];
    proper_rat vals[CHECK_MAX_PARAMS], q;
    char buf[4096];
    proper_error err;
    size_t n, i;
    int rc;
    if (e->n_params) return proper_ratfun_parse(out, exp, strlen(exp), "RESULT", (const char *const *)e->param_names, e->n_params, &err);
    for (i = 0; i < CHECK_MAX_PARAMS; i++) proper_rat_init(&vals[i]);
    proper_rat_init(&q);
    n = run_constants(consts, buf, sizeof buf, names, vals, CHECK_MAX_PARAMS);
    rc = proper_ratfun_parse(out, exp, strlen(exp), "RESULT", names, n, &err);
    if (!rc && n) rc = proper_ratfun_eval_rat(&q, out, vals, n);
    if (!rc && n) rc = proper_ratfun_set_rat(out, &q);
    for (i = 0; i < CHECK_MAX_PARAMS; i++) proper_rat_free(&vals[i]);
    proper_rat_free(&q);
    return rc;
}

/* Test mode: the RESULT read exactly (a rational or, with parameters, a
 * function of them) against the exact answer. */
static int exact_test_compare(const char *exp, const char *got, const proper_exact_dtmc *e, const char *consts, char *why,
                              size_t size) {
    proper_ratfun a, b;
    proper_error err;
    int same = 0;
    if (exp[0] == '~') exp++;
    if (strcmp(exp, "Infinity") == 0 || strcmp(got, "Infinity") == 0 || strcmp(got, "true") == 0 ||
        strcmp(got, "false") == 0) {
        same = strcmp(exp, got) == 0;
    } else {
        proper_ratfun_init(&a);
        proper_ratfun_init(&b);
        if (exact_expected(exp, e, consts, &a)) {
            snprintf(why, size, "cannot read the expected result '%.200s' exactly", exp);
            proper_ratfun_free(&a);
            proper_ratfun_free(&b);
            return TEST_ERROR;
        }
        same = proper_ratfun_parse(&b, got, strlen(got), "result", (const char *const *)e->param_names, e->n_params, &err) == 0 &&
               proper_ratfun_equal(&a, &b);
        proper_ratfun_free(&a);
        proper_ratfun_free(&b);
    }
    if (same) return TEST_PASS;
    snprintf(why, size, "expected %.200s, got %.200s", exp, got);
    return TEST_WRONG;
}

/* Check (or test) every property exactly; print a table or JSON. */
static int exact_properties(const check_opts *o, const proper_prism_props *p, const proper_dtmc *d,
                            const proper_exact_dtmc *e, cli_json *runs) {
    size_t i, n = p ? proper_prism_props_count(p) : 0, width = label_width(p, n);
    proper_strbuf text;
    proper_error err;
    cli_json j, *jj = runs ? runs : &j;
    int status = CLI_OK;
    proper_strbuf_init(&text);
    if (o->json) {
        json_run_begin(o, d, runs, &j);
    } else if (!o->test) {
        printf("model: %s (%lu states, %llu transitions)\n", o->model, (unsigned long)d->n_states,
               (unsigned long long)d->n_trans);
        if (n) printf("%-*s  %s\n", (int)width, "property", "value");
    }
    for (i = 0; i < n; i++) {
        const char *name = proper_prism_props_name(p, i), *prop = proper_prism_props_text(p, i);
        char exp[4096], why[PROPER_ERROR_MESSAGE_MAX + 64] = "", label[600];
        double v;
        int rc;
        if (!selected(o, p, i)) continue;
        if (o->test && (!expected_result(proper_prism_props_comment(p, i), o->run_consts, exp, sizeof exp) || strcmp(exp, "?") == 0)) {
            printf("%s  %s\n", test_verdicts[TEST_SKIP], prop);
            continue;
        }
        rc = exact_value(p, i, d, e, &text, &v, &err);
        if (o->test) {
            int verdict;
            if (rc) {
                verdict = strncmp(exp, "Error", 5) == 0 ? TEST_PASS : rc == PROPER_EUNSUPPORTED ? TEST_UNSUPPORTED : TEST_ERROR;
                proper_error_format(&err, why, sizeof why);
            } else {
                verdict = exact_test_compare(exp, text.data, e, o->run_consts, why, sizeof why);
            }
            if (verdict == TEST_WRONG || verdict == TEST_ERROR) status = CLI_CHECK_FAILED;
            printf("%s  %s%s%s\n", test_verdicts[verdict], prop, why[0] ? "  -- " : "", why);
            continue;
        }
        if (rc) {
            status = cli_report(&err);
            break;
        }
        if (proper_prism_props_type(p, i) == PROPER_PRISM_BOOL && v == 0) status = CLI_CHECK_FAILED;
        if (o->json) {
            cli_json_object_begin(jj);
            cli_json_key_string(jj, "name", name);
            cli_json_key_string(jj, "property", prop);
            cli_json_key_string(jj, "type", type_name(proper_prism_props_type(p, i)));
            json_value(jj, v, proper_prism_props_type(p, i));
            if (proper_prism_props_type(p, i) != PROPER_PRISM_BOOL)
                cli_json_key_string(jj, e->n_params ? "function" : "rational", text.data);
            cli_json_key_bool(jj, "exact", 1);
            cli_json_object_end(jj);
        } else {
            if (name) snprintf(label, sizeof label, "\"%s\": %s", name, prop);
            else snprintf(label, sizeof label, "%s", prop);
            printf("%-*s  %s  (%s)\n", (int)width, label, text.data, e->n_params ? "parametric" : "exact");
        }
    }
    if (o->json) {
        cli_json_array_end(jj);
        cli_json_object_end(jj);
    }
    proper_strbuf_free(&text);
    return status;
}

/* Exact or parametric run: open the parameters, build, make the exact
 * companion, check. */
static int exact_run(const check_opts *o, proper_prism_model *pm, const proper_prism_props *props, proper_dtmc *d,
                     cli_json *runs, int first) {
    const char *names[CHECK_MAX_PARAMS];
    char buf[4096];
    size_t n = 0;
    proper_prism_build_opts bo = proper_prism_build_opts_default();
    proper_exact_dtmc e;
    proper_error err;
    int rc;
    if (o->explicit_files) return cli_fail("check: --exact and --param need a PRISM-language model (not explicit files)");
    if (proper_prism_has_intervals(pm))
        return cli_fail("check: --exact and --param do not support models with probability intervals");
    if (o->params && (rc = parse_params(o->params, buf, sizeof buf, names, &n)) != CLI_OK) return rc;
    if (n && proper_prism_open_params(pm, names, n, &err)) return cli_report(&err);
    if (proper_prism_decide_exactly(pm, names, n, &err)) return cli_report(&err);
    bo.fix_deadlocks = !o->nofixdl;
    bo.max_states = o->max_states;
    bo.max_transitions = o->max_transitions;
    if (proper_prism_build(pm, &bo, d, &err)) return cli_report(&err);
    if (first) cli_warn_deadlocks(proper_bitset_count(&d->deadlock));
    if ((rc = export_model(o, d, &err)) != CLI_OK) return rc;
    proper_exact_dtmc_init(&e);
    if (proper_prism_build_exact(pm, d, names, n, &e, &err)) return cli_report(&err);
    rc = exact_properties(o, props, d, &e, runs);
    proper_exact_dtmc_free(&e);
    return rc;
}

/* The request for property i of an external tool. */
static proper_backend_check_request tool_request(const check_opts *o, const proper_prism_props *p, size_t i) {
    proper_backend_check_request req = proper_backend_check_request_default();
    req.model_kind = o->explicit_files ? PROPER_BACKEND_MODEL_EXPLICIT : PROPER_BACKEND_MODEL_PRISM;
    req.model_path = o->model;
    req.labels_path = o->lab;
    req.state_rewards_path = first_reward_file(o, 0);
    req.trans_rewards_path = first_reward_file(o, 1);
    req.states_path = o->sta;
    req.constants = o->run_consts;
    req.property = proper_prism_props_text(p, i);
    req.rel_precision = o->precision;
    req.exact = o->exact;
    req.timeout = o->timeout;
    return req;
}

/* One property's answer from a tool: a JSON object or a line. */
static void print_tool_answer(const check_opts *o, cli_json *j, const proper_backend *b, const char *property, int type,
                              const proper_backend_check_result *res) {
    char value[64];
    int stated = res->error_estimate == res->error_estimate;
    if (o->json) {
        cli_json_object_begin(j);
        cli_json_key_string(j, "property", property);
        json_value(j, res->value, type);
        cli_json_key_number(j, "tool_error", stated ? res->error_estimate : NAN);
        cli_json_key_number(j, "seconds", res->seconds);
        cli_json_object_end(j);
        return;
    }
    format_value(value, sizeof value, res->value, type);
    if (stated && res->error_estimate > 0) printf("%s  %s  (+/- %.3g stated by %s)\n", property, value, res->error_estimate, b->name);
    else printf("%s  %s%s\n", property, value, res->exact[0] ? "  (exact)" : "");
}

/* Check every property with an external tool (PRISM or Storm), handing it
 * the model file as given. Returns the exit status. */
static int check_with_tool(const check_opts *o, const proper_backend *b, const proper_prism_props *p) {
    proper_backend_info info;
    proper_error err;
    size_t i, n = p ? proper_prism_props_count(p) : 0;
    int status = CLI_OK;
    cli_json j;
    proper_error_clear(&err);
    if (o->n_srew > 1 || o->n_trew > 1)
        return cli_fail("check: --backend %s takes at most one --srew and one --trew", b->name);
    if (o->ctmc) return cli_fail("check: --backend %s reads PRISM's own CTMC comment, not --ctmc", b->name);
    if (proper_backend_probe_within(b, o->timeout, &info, &err)) return cli_report(&err);
    if (!info.installed && info.found)
        return cli_fail("backend %s (%s) is there but unusable: %s", b->name, info.path, err.message);
    if (!info.installed)
        return cli_fail("backend %s is not installed (set PROPER_%s or put it in PATH)%s%s", b->name,
                        strcmp(b->name, "prism") == 0 ? "PRISM" : "STORM", err.message[0] ? ": " : "", err.message);
    cli_json_init(&j, stdout);
    if (o->json) {
        cli_json_object_begin(&j);
        cli_json_key_string(&j, "model", o->model);
        cli_json_key_string(&j, "backend", b->name);
        cli_json_key_string(&j, "version", info.version);
        cli_json_key(&j, "properties");
        cli_json_array_begin(&j);
    } else {
        printf("model: %s, backend: %s (%s, %s)\n", o->model, b->name, info.version, info.path);
    }
    for (i = 0; i < n; i++) {
        proper_backend_check_request req = tool_request(o, p, i);
        proper_backend_check_result res;
        int type = proper_prism_props_type(p, i);
        if (proper_backend_check_dtmc(b, &req, &res, &err)) {
            if (o->json) {
                cli_json_array_end(&j);
                cli_json_object_end(&j);
            }
            fflush(stdout);
            return cli_report(&err);
        }
        if (type == PROPER_PRISM_BOOL && res.value == 0) status = CLI_CHECK_FAILED;
        print_tool_answer(o, &j, b, req.property, type, &res);
    }
    if (o->json) {
        cli_json_array_end(&j);
        cli_json_object_end(&j);
    }
    return status;
}

/* ---- --const ranges ---- */

/* Most combinations of --const ranges one run may take. */
#define CHECK_MAX_RUNS 100000

/* One --const item: name=value, or name=lo:hi / name=lo:step:hi. */
typedef struct const_item {
    char text[256]; /* "name=value" (no range), or the name */
    int is_range;
    double lo, step;
    unsigned long count, at;
} const_item;

/* The value of one part of a range. */
static int range_part(const char *name, const char *text, size_t n, double *v) {
    char buf[256];
    proper_error err;
    if (n >= sizeof buf) return cli_fail("constant %s: range too long", name);
    memcpy(buf, text, n);
    buf[n] = '\0';
    if (proper_prism_eval_constant(buf, v, &err)) return cli_fail("constant %s: bad range value '%s': %s", name, buf, err.message);
    return CLI_OK;
}

/* Parse "name=lo:hi" or "name=lo:step:hi" into it (PRISM's -const ranges:
 * lo, lo+step, ... up to hi, within 1e-10 relative). */
static int parse_range(const_item *it, const char *name, const char *value) {
    const char *c1 = strchr(value, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    double hi, span;
    int rc;
    snprintf(it->text, sizeof it->text, "%s", name);
    it->is_range = 1;
    it->step = 1;
    if ((rc = range_part(name, value, (size_t)(c1 - value), &it->lo)) != CLI_OK) return rc;
    if (c2) {
        if ((rc = range_part(name, c1 + 1, (size_t)(c2 - c1 - 1), &it->step)) != CLI_OK) return rc;
        if ((rc = range_part(name, c2 + 1, strlen(c2 + 1), &hi)) != CLI_OK) return rc;
    } else if ((rc = range_part(name, c1 + 1, strlen(c1 + 1), &hi)) != CLI_OK) {
        return rc;
    }
    span = (hi - it->lo) / it->step;
    if (!(it->step != 0) || !(span >= -1e-10) || !(span < CHECK_MAX_RUNS))
        return cli_fail("constant %s: the range %s is empty, or longer than %d values", name, value, CHECK_MAX_RUNS);
    it->count = (unsigned long)floor(span + 1e-10) + 1;
    return CLI_OK;
}

/* Split --const into items; *runs gets the number of combinations. */
static int parse_const_items(const char *spec, const_item **items, size_t *n, unsigned long *runs) {
    const char *s = spec;
    *items = NULL;
    *n = 0;
    *runs = 1;
    while (s && *s) {
        const char *end = strchr(s, ','), *eq;
        char name[256];
        const_item it, *grown;
        size_t len;
        int rc;
        if (!end) end = s + strlen(s);
        len = (size_t)(end - s);
        memset(&it, 0, sizeof it);
        eq = (const char *)memchr(s, '=', len);
        if (len >= sizeof it.text) return cli_fail("constants: '%.*s' is too long", (int)len, s);
        if (eq && memchr(eq, ':', (size_t)(end - eq))) {
            char value[256];
            snprintf(name, sizeof name, "%.*s", (int)(eq - s), s);
            snprintf(value, sizeof value, "%.*s", (int)(end - eq - 1), eq + 1);
            if ((rc = parse_range(&it, name, value)) != CLI_OK) return rc;
            if (*runs * it.count > CHECK_MAX_RUNS) return cli_fail("--const ranges give more than %d combinations", CHECK_MAX_RUNS);
            *runs *= it.count;
        } else {
            memcpy(it.text, s, len);
            it.text[len] = '\0';
        }
        if (!(grown = (const_item *)PROPER_REALLOC(*items, (*n + 1) * sizeof *grown))) return cli_fail("out of memory");
        *items = grown;
        (*items)[(*n)++] = it;
        s = *end ? end + 1 : end;
    }
    return CLI_OK;
}

/* The constants of the current combination, "N=3,p=0.1"; then step to the
 * next (the last range varies fastest). */
static void const_combination(const_item *items, size_t n, char *buf, size_t size) {
    size_t i, k = 0;
    buf[0] = '\0';
    for (i = 0; i < n && k < size; i++) {
        if (items[i].is_range)
            k += (size_t)snprintf(buf + k, size - k, "%s%s=%.15g", k ? "," : "", items[i].text,
                                  items[i].lo + (double)items[i].at * items[i].step);
        else
            k += (size_t)snprintf(buf + k, size - k, "%s%s", k ? "," : "", items[i].text);
    }
    for (i = n; i-- > 0;)
        if (items[i].is_range) {
            if (++items[i].at < items[i].count) break;
            items[i].at = 0;
        }
}

/* Warn (once) about --const names declared nowhere. */
static void warn_unknown(const char *unknown, int *warned) {
    char line[700];
    if (*warned || !unknown[0]) return;
    *warned = 1;
    snprintf(line, sizeof line, "constants not declared in the model or the properties, ignored (as PRISM does): %s", unknown);
    cli_warn_lines(line);
}

/* Warn when deadlock states were given self-loops. */
/* One run: the constants of o->run_consts, build, export, check. An
 * interval model's intervals go to iv (and o->intervals). */
static int check_run(check_opts *o, const proper_backend *backend, proper_prism_model *pm, proper_prism_props *props,
                     proper_dtmc *d, proper_prism_intervals *iv, cli_json *runs, int first, int *warned) {
    proper_error err;
    char unknown[512];
    int rc;
    if (o->run_consts[0] && proper_prism_set_consts_lenient(pm, props, o->run_consts, unknown, sizeof unknown, &err))
        return cli_report(&err);
    if (o->run_consts[0]) warn_unknown(unknown, warned);
    if (backend != proper_backend_native() && !o->export_explicit && !o->export_drn && !o->export_prism && !o->dot)
        return check_with_tool(o, backend, props);
    if (backend == proper_backend_native() && (o->exact || o->params)) return exact_run(o, pm, props, d, runs, first);
    if (!o->explicit_files) {
        proper_prism_build_opts bo;
        bo = proper_prism_build_opts_default();
        bo.fix_deadlocks = !o->nofixdl;
        bo.max_states = o->max_states;
        bo.max_transitions = o->max_transitions;
        if (o->noprobchecks) bo.prob_tol = INFINITY;
        if (proper_prism_build_intervals(pm, &bo, d, iv, &err)) return cli_report(&err);
        if (first) cli_warn_deadlocks(proper_bitset_count(&d->deadlock));
        o->intervals = iv;
    }
    if (iv->n && (o->export_explicit || o->export_drn || o->export_prism || o->dot))
        return cli_fail("check: exports of models with probability intervals are not supported");
    if ((rc = export_model(o, d, &err)) != CLI_OK) return rc;
    if (backend != proper_backend_native()) return check_with_tool(o, backend, props);
    return o->test ? test_properties(o, pm, props, d) : check_properties(o, props, d, runs);
}

int cmd_check(int argc, char **argv) {
    check_opts o;
    proper_prism_model *pm = NULL;
    proper_prism_props *props = NULL;
    proper_dtmc d;
    proper_prism_intervals iv;
    proper_error err;
    proper_backend_registry reg;
    const proper_backend *backend;
    const_item *items = NULL;
    size_t n_items = 0;
    unsigned long runs = 1, r;
    char combo[4096];
    int rc, status = CLI_OK, warned = 0;
    cli_json j;
    if ((rc = parse_args(argc, argv, &o)) != CLI_OK) return rc < 0 ? CLI_OK : rc;
    if (o.fixdl && o.nofixdl) return cli_fail("check: --fixdl and --nofixdl contradict each other");
    if (o.noprobchecks && (o.exact || o.params))
        return cli_fail("check: --noprobchecks is not supported with --exact or --param (rows must sum to exactly 1)");
    if (o.noprobchecks && o.explicit_files)
        return cli_fail("check: --noprobchecks applies to PRISM-language models (not explicit files)");
    proper_backend_registry_init(&reg);
    if (proper_backend_register(&reg, proper_backend_native(), &err) ||
        proper_backend_register(&reg, proper_backend_prism(), &err) ||
        proper_backend_register(&reg, proper_backend_storm(), &err) ||
        proper_backend_select(&reg, o.backend, &backend, &err))
        return cli_report(&err);
    proper_dtmc_init(&d);
    proper_prism_intervals_init(&iv);
    if ((rc = parse_const_items(o.consts, &items, &n_items, &runs)) != CLI_OK) goto done;
    if (runs > 1 && (o.export_explicit || o.export_drn || o.export_prism || o.dot)) {
        rc = cli_fail("check: exports need one value per constant (no --const ranges)");
        goto done;
    }
    if ((rc = load_model(&o, &pm, &d, &err)) != CLI_OK) goto done;
    if (o.props && proper_prism_props_from_arg(&props, pm, o.props, NULL, NULL, &err)) {
        rc = o.explicit_files ? cli_report_explicit_props(&err, o.sta != NULL) : cli_report(&err);
        goto done;
    }
    if (runs > 1 && o.json) {
        cli_json_init(&j, stdout);
        cli_json_object_begin(&j);
        cli_json_key(&j, "runs");
        cli_json_array_begin(&j);
    }
    o.run_consts = combo;
    for (r = 0; r < runs; r++) {
        const_combination(items, n_items, combo, sizeof combo);
        if (runs > 1 && !o.json) printf("%sconstants: %s\n", r ? "\n" : "", combo);
        rc = check_run(&o, backend, pm, props, &d, &iv, runs > 1 && o.json ? &j : NULL, r == 0, &warned);
        if (rc == CLI_BAD_INPUT) break;
        if (rc == CLI_CHECK_FAILED) status = rc;
        fflush(stdout);
    }
    if (runs > 1 && o.json && rc != CLI_BAD_INPUT) {
        cli_json_array_end(&j);
        cli_json_object_end(&j);
    }
    if (rc != CLI_BAD_INPUT) rc = status;
done:
    PROPER_FREE(items);
    proper_prism_props_free(props);
    proper_prism_free(pm);
    proper_dtmc_free(&d);
    proper_prism_intervals_free(&iv);
    return rc;
}
