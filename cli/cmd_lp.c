/* proper lp — solve a linear program given in CPLEX LP format with the
 * native simplex (lp.h) or with glpsol (backends/glpk.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../src/lp.h"
#include "../backends/glpk.h"
#include "cli.h"

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
            "  --json               one JSON object instead of the table\n\n"
            "Exit status: 0 optimal, 2 bad input, an infeasible or unbounded LP, or a\n"
            "solver failure.\n");
}

static double lp_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void print_name(const proper_lp *lp, size_t j, char *buf, size_t size) {
    if (lp->col_name && lp->col_name[j]) snprintf(buf, size, "%s", lp->col_name[j]);
    else snprintf(buf, size, "x%zu", j + 1);
}

int cmd_lp(int argc, char **argv) {
    const char *path = NULL, *backend = NULL, *method = NULL;
    int i, missing, json = 0, values = 0, rc;
    proper_lp lp;
    proper_lp_solution sol;
    proper_lp_options opt;
    proper_error err;
    char *text;
    size_t len, j;
    double t0, seconds;
    if (argc < 2) { lp_usage(stderr); return CLI_BAD_INPUT; }
    for (i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) { lp_usage(stdout); return CLI_OK; }
    if (strcmp(argv[1], "solve") != 0) return cli_fail("unknown lp command '%s' (solve)", argv[1]);
    for (i = 2; i < argc; i++) {
        const char *v;
        if ((v = cli_option(argc, argv, &i, "--backend", &missing))) backend = v;
        else if ((v = cli_option(argc, argv, &i, "--method", &missing))) method = v;
        else if (missing) return cli_fail("%s needs a value", argv[i]);
        else if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--values") == 0) values = 1;
        else if (argv[i][0] == '-' && argv[i][1]) return cli_fail("unknown option '%s' (try 'proper lp --help')", argv[i]);
        else if (path) return cli_fail("one LP file at a time ('%s' and '%s')", path, argv[i]);
        else path = argv[i];
    }
    if (!path) return cli_fail("lp solve needs FILE.lp");
    proper_lp_options_default(&opt);
    if (method) {
        if (strcmp(method, "auto") == 0) opt.method = PROPER_LP_AUTO;
        else if (strcmp(method, "primal") == 0) opt.method = PROPER_LP_PRIMAL;
        else if (strcmp(method, "dual") == 0) opt.method = PROPER_LP_DUAL;
        else return cli_fail("--method must be auto, primal or dual (got '%s')", method);
    }
    if (backend && strcmp(backend, "native") != 0 && strcmp(backend, "glpsol") != 0)
        return cli_fail("--backend must be native or glpsol (got '%s')", backend);
    if (proper_read_file(path, &text, &len, &err)) return cli_report(&err);
    rc = proper_lp_read_cplex(&lp, text, len, path, &err);
    PROPER_FREE(text);
    if (rc) { proper_lp_free(&lp); return cli_report(&err); }
    t0 = lp_now();
    if (backend && strcmp(backend, "glpsol") == 0) {
        char bin[PROPER_BACKEND_PATH_MAX];
        if ((rc = proper_backend_find_binary("PROPER_GLPSOL", "glpsol", bin, sizeof bin, &err)) == 0)
            rc = proper_glpsol_solve(bin, &lp, 0, &sol, NULL, &err);
        else
            memset(&sol, 0, sizeof sol);
    } else
        rc = proper_lp_solve(&lp, &opt, &sol, &err);
    seconds = lp_now() - t0; /* wall clock, including writing and reading files for glpsol */
    if (rc) {
        char msg[PROPER_ERROR_MESSAGE_MAX];
        snprintf(msg, sizeof msg, "%s", err.message);
        proper_error_set(&err, err.code, path, 0, 0, "%s", msg);
        proper_lp_solution_free(&sol);
        proper_lp_free(&lp);
        return cli_report(&err);
    }
    if (json) {
        printf("{\"status\": \"optimal\", \"objective\": %.17g, \"iterations\": %zu, \"rows\": %zu, \"columns\": %zu, "
               "\"seconds\": %.6f, \"solved_dual\": %s",
               sol.objective, sol.iterations, lp.nrows, lp.ncols, seconds, sol.solved_dual ? "true" : "false");
        if (values) {
            printf(", \"values\": {");
            for (j = 0; j < lp.ncols; j++) {
                char name[300];
                print_name(&lp, j, name, sizeof name);
                printf("%s\"%s\": %.17g", j ? ", " : "", name, sol.x[j]);
            }
            printf("}");
        }
        printf("}\n");
    } else {
        printf("status      optimal\nobjective   %.15g\nrows        %zu\ncolumns     %zu\n", sol.objective, lp.nrows, lp.ncols);
        if (!backend || strcmp(backend, "glpsol") != 0)
            printf("iterations  %zu (%s problem)\n", sol.iterations, sol.solved_dual ? "dual" : "primal");
        printf("time        %.3f s\n", seconds);
        if (values)
            for (j = 0; j < lp.ncols; j++) {
                char name[300];
                print_name(&lp, j, name, sizeof name);
                printf("%-20s %.15g\n", name, sol.x[j]);
            }
    }
    proper_lp_solution_free(&sol);
    proper_lp_free(&lp);
    return CLI_OK;
}
