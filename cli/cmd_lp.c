/* proper lp — solve a linear program given in CPLEX LP format with the
 * native simplex (lp.h) or with glpsol (backends/glpk.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../src/lp.h"
#include "../backends/glpk.h"
#include "cli.h"
#include "json.h"

static void lp_usage(FILE *out) {
    fprintf(out,
            "usage: proper lp solve FILE.lp [--backend native|glpsol] [--method auto|primal|dual]\n"
            "                     [--values] [--json]\n\n"
            "Solves a linear program in CPLEX LP format (the subset GLPK reads; `proper qn\n"
            "fit --write-lp` writes such files) and prints the status, the objective, the\n"
            "simplex iterations and the time; --values adds every variable's value.\n\n"
            "  --backend native|glpsol  the solver (default native: lp.h's simplex)\n"
            "  --method auto|primal|dual  native only: solve the primal problem, its dual,\n"
            "                       or the smaller of the two (default auto)\n"
            "  --json               one JSON object instead of the table; \"values\" maps\n"
            "                       each variable's name to its value\n\n"
            "Every optimum printed is verified on the LP as given: \"residual\" is the\n"
            "largest relative violation of feasibility, dual feasibility or\n"
            "complementary slackness, \"gap\" the relative duality gap, \"condition\"\n"
            "the estimated condition number of the final basis (null for glpsol).\n\n"
            "Exit status: 0 optimal; 1 the LP has no optimum to print: infeasible,\n"
            "unbounded, or numerically unreliable (the native solver could not verify\n"
            "any optimum: the residuals and the basis condition of each attempt are\n"
            "printed; see VERIFICATION in src/lp.h); 2 bad input (an unreadable file, a\n"
            "malformed LP, one with integer columns) or a solver failure (iteration\n"
            "limit, an LP too large for the native solver, glpsol failed). With\n"
            "--json the status 1 cases print {\"status\": \"infeasible\" | \"unbounded\" |\n"
            "\"unreliable\", \"message\": ...} on stdout as well.\n");
}

typedef struct lp_args {
    const char *path, *backend;
    int method, json, values;
} lp_args;

static int lp_method(cli_args *a, const char *name, int *method) {
    if (strcmp(name, "auto") == 0) *method = PROPER_LP_AUTO;
    else if (strcmp(name, "primal") == 0) *method = PROPER_LP_PRIMAL;
    else if (strcmp(name, "dual") == 0) *method = PROPER_LP_DUAL;
    else return cli_usage_error(a, "--method must be auto, primal or dual (got '%s')", name);
    return CLI_OK;
}

/* Returns CLI_OK, CLI_BAD_INPUT, or -1 after printing the usage. */
static int lp_parse(int argc, char **argv, lp_args *o) {
    cli_args a;
    memset(o, 0, sizeof *o);
    o->method = PROPER_LP_AUTO;
    cli_args_init(&a, "lp", argc, argv);
    if (a.help) {
        lp_usage(stdout);
        return -1;
    }
    if (argc < 2 || strcmp(argv[1], "solve") != 0)
        return cli_usage_error(&a, "expected 'solve' (got '%s')", argc < 2 ? "" : argv[1]);
    cli_args_init(&a, "lp", argc - 1, argv + 1); /* the words after "solve" (cli.h) */
    while (cli_next(&a)) {
        if (cli_flag(&a, "--json")) o->json = 1;
        else if (cli_flag(&a, "--values")) o->values = 1;
        else if (cli_opt(&a, "--backend")) {
            if (a.value && strcmp(a.value, "native") != 0 && strcmp(a.value, "glpsol") != 0)
                return cli_usage_error(&a, "--backend must be native or glpsol (got '%s')", a.value);
            o->backend = a.value;
        } else if (cli_opt(&a, "--method")) {
            if (a.value && lp_method(&a, a.value, &o->method)) return CLI_BAD_INPUT;
        } else if (cli_positional(&a) && !o->path) {
            o->path = a.value;
        } else {
            cli_unknown(&a);
        }
    }
    if (a.status) return a.status;
    if (!o->path) return cli_usage_error(&a, "lp solve needs FILE.lp");
    return CLI_OK;
}

static int lp_glpsol(const proper_lp *lp, proper_lp_solution *sol, proper_error *err) {
    char bin[PROPER_BACKEND_PATH_MAX];
    int rc = proper_backend_find_binary("PROPER_GLPSOL", "glpsol", bin, sizeof bin, err);
    return rc ? rc : proper_glpsol_solve(bin, lp, 0, sol, NULL, err);
}

static const char *lp_col_name(const proper_lp *lp, size_t j, char *buf, size_t size) {
    if (lp->col_name && lp->col_name[j]) return lp->col_name[j];
    snprintf(buf, size, "x%zu", j + 1);
    return buf;
}

/* The largest relative residual of the verification (src/lp.h). */
static double lp_residual(const proper_lp_check *c) {
    double r = c->primal;
    if (!(c->dual <= r)) r = c->dual;
    if (!(c->slack <= r)) r = c->slack;
    return r;
}

static void lp_print_json(const lp_args *o, const proper_lp *lp, const proper_lp_solution *sol, const proper_lp_check *chk,
                          double seconds) {
    cli_json j;
    size_t c;
    char buf[32];
    cli_json_init(&j, stdout);
    cli_json_object_begin(&j);
    cli_json_key_string(&j, "status", "optimal");
    cli_json_key_number(&j, "objective", sol->objective);
    cli_json_key_uint(&j, "iterations", sol->iterations);
    cli_json_key_uint(&j, "rows", lp->nrows);
    cli_json_key_uint(&j, "columns", lp->ncols);
    cli_json_key_number(&j, "seconds", seconds);
    cli_json_key_bool(&j, "solved_dual", sol->solved_dual);
    cli_json_key_number(&j, "residual", lp_residual(chk));
    cli_json_key_number(&j, "gap", chk->gap);
    cli_json_key_number(&j, "condition", chk->condition > 0 ? chk->condition : NAN); /* null: not estimated (glpsol) */
    if (o->values) {
        cli_json_key(&j, "values");
        cli_json_object_begin(&j);
        for (c = 0; c < lp->ncols; c++) cli_json_key_number(&j, lp_col_name(lp, c, buf, sizeof buf), sol->x[c]);
        cli_json_object_end(&j);
    }
    cli_json_object_end(&j);
}

static void lp_print_table(const lp_args *o, const proper_lp *lp, const proper_lp_solution *sol, const proper_lp_check *chk,
                           double seconds) {
    size_t c;
    char buf[32];
    printf("status      optimal\nobjective   %.15g\nrows        %zu\ncolumns     %zu\n", sol->objective, lp->nrows,
           lp->ncols);
    if (!o->backend || strcmp(o->backend, "glpsol") != 0)
        printf("iterations  %zu (%s problem)\n", sol->iterations, sol->solved_dual ? "dual" : "primal");
    if (chk->condition > 0)
        printf("verified    residual %.1g, gap %.1g, basis condition %.1g\n", lp_residual(chk), chk->gap, chk->condition);
    else
        printf("verified    residual %.1g, gap %.1g\n", lp_residual(chk), chk->gap);
    printf("time        %.3f s\n", seconds);
    if (o->values)
        for (c = 0; c < lp->ncols; c++) printf("%-20s %.15g\n", lp_col_name(lp, c, buf, sizeof buf), sol->x[c]);
}

int cmd_lp(int argc, char **argv) {
    lp_args o;
    proper_lp lp;
    proper_lp_solution sol;
    proper_lp_opts opt = proper_lp_opts_default();
    proper_lp_check chk;
    proper_error err;
    double t0, seconds;
    int rc = lp_parse(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    proper_lp_init(&lp);
    proper_lp_solution_init(&sol);
    if (proper_lp_read_cplex(&lp, o.path, &err)) return cli_report(&err);
    opt.method = o.method;
    opt.check = &chk;
    memset(&chk, 0, sizeof chk);
    t0 = cli_now();
    if (o.backend && strcmp(o.backend, "glpsol") == 0) rc = lp_glpsol(&lp, &sol, &err);
    else rc = proper_lp_solve(&lp, &opt, &sol, &err);
    seconds = cli_now() - t0; /* wall clock, including writing and reading files for glpsol */
    if (rc == 0 && o.backend && strcmp(o.backend, "glpsol") == 0) proper_lp_verify(&lp, &sol, &chk);
    if (rc) {
        /* no optimum: infeasible, unbounded and unreliable are answers about
         * the LP (exit 1); anything else is bad input or a failed solver */
        char msg[PROPER_ERROR_MESSAGE_MAX];
        const char *status = rc == PROPER_EINFEASIBLE ? "infeasible" : rc == PROPER_EUNBOUNDED ? "unbounded"
                             : (rc == PROPER_ENOCONV && chk.verdict == PROPER_LP_UNRELIABLE) ? "unreliable" : NULL;
        snprintf(msg, sizeof msg, "%s", err.message);
        proper_error_set(&err, err.code, o.path, 0, 0, "%s", msg);
        rc = cli_report(&err);
        if (status) {
            rc = CLI_CHECK_FAILED;
            if (o.json) {
                cli_json j;
                cli_json_init(&j, stdout);
                cli_json_object_begin(&j);
                cli_json_key_string(&j, "status", status);
                cli_json_key_string(&j, "message", msg);
                cli_json_object_end(&j);
            }
        }
    } else if (o.json) {
        lp_print_json(&o, &lp, &sol, &chk, seconds);
    } else {
        lp_print_table(&o, &lp, &sol, &chk, seconds);
    }
    proper_lp_solution_free(&sol);
    proper_lp_free(&lp);
    return rc;
}
