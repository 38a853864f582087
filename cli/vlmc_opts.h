/* vlmc_opts.h — what `proper vlmc` (cli/cmd_vlmc.c) and `proper-mpi vlmc`
 * (cli/mpi/mpi_vlmc.c) share: the fit options, with one set of spellings,
 * ranges and error wordings, and the summary `vlmc fit` prints (text or
 * JSON), so that the two tools read and write alike. */
#ifndef PROPER_CLI_VLMC_OPTS_H
#define PROPER_CLI_VLMC_OPTS_H

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../src/vlmc.h"
#include "cli.h"
#include "json.h"

/* The fit options' help lines, for the tools' usage texts. */
#define CLI_VLMC_FIT_HELP                                                                  \
    "  --alpha A        in (0, 1] (default 1: keep every context that changes\n"          \
    "                   the prediction); K = chi2_df(1-A)/2, A = R's alpha.c\n"           \
    "  --cutoff K       prune with this K instead (R's cutoff.prune; >= 0)\n"             \
    "  --cutoff-df cfg|alphabet  degrees of freedom of K in CFG mode: each\n"            \
    "                   location's successors - 1 (cfg, default) or the number\n"        \
    "                   of locations - 1 (alphabet, as the thesis writes it)\n"          \
    "  --nmin N         grow contexts seen at least N times (default 1)\n"               \
    "  --cfg FILE       control-flow graph, one edge 'FROM TO [TO...]' per line;\n"      \
    "                   '^ L' = runs may start at L, 'L $' = may end after L\n"          \
    "                   (default: the observed successor relation)\n"                    \
    "  --extend-cfg     add run transitions missing from the CFG instead of\n"          \
    "                   failing\n"                                                       \
    "  --general        classical context algorithm over the full alphabet\n"           \
    "  --single         one plain sequence (the input is one run): no start\n"          \
    "                   anchoring, no end symbol; the tree equals R's\n"                \
    "                   VLMC::vlmc() (its defaults: --alpha 0.05 --nmin 2)\n"           \
    "  --max-order D    longest context (default unlimited)\n"

/* 1 when the current argument is a fit option (--general, --single,
 * --extend-cfg, --alpha, --cutoff, --cutoff-df, --nmin, --max-order, --cfg),
 * stored in *o or *cfg (errors are reported through a). Use in a cli_next
 * loop; afterwards call cli_vlmc_fit_check. */
static inline int cli_vlmc_fit_option(cli_args *a, proper_vlmc_opts *o, const char **cfg) {
    unsigned long long u;
    if (cli_flag(a, "--general")) o->general = 1;
    else if (cli_flag(a, "--single")) o->single = 1;
    else if (cli_flag(a, "--extend-cfg")) o->extend_cfg = 1;
    else if (cli_opt_double(a, "--alpha", "(0,1]", &o->alpha)) {
    } else if (cli_opt_double(a, "--cutoff", "[0,inf)", &o->cutoff)) {
    } else if (cli_opt(a, "--cutoff-df")) {
        if (strcmp(a->value, "cfg") == 0) o->cutoff_df = PROPER_VLMC_DF_CFG;
        else if (strcmp(a->value, "alphabet") == 0) o->cutoff_df = PROPER_VLMC_DF_ALPHABET;
        else a->status = cli_fail("--cutoff-df: expected cfg or alphabet, got '%s'", a->value);
    } else if (cli_opt_uint(a, "--nmin", 1, ULLONG_MAX, &u)) o->n_min = u;
    else if (cli_opt_uint(a, "--max-order", 0, 0xFFFFFFFFu, &u)) o->max_order = (unsigned)u;
    else if (cli_opt(a, "--cfg")) *cfg = a->value;
    else return 0;
    return 1;
}

/* The fit options together: CLI_OK, or CLI_BAD_INPUT (reported). */
static inline int cli_vlmc_fit_check(const proper_vlmc_opts *o, const char *cfg) {
    if (o->general && cfg) return cli_fail("--general does not use a CFG (drop --cfg)");
    if (o->single && (cfg || o->general)) return cli_fail("--single takes no --cfg and no --general");
    return CLI_OK;
}

/* The summary of a fit to stdout: with json one object {runs, distinct_runs,
 * locations, steps, mode, alpha, cutoff (when given), nmin, nodes, order,
 * loglik, hull_states (when the hull was built), seconds}, else text lines; `cfg` is the --cfg
 * file or NULL, `timed` what the seconds cover ("reading and fitting"). */
static inline void cli_vlmc_fit_summary(int json, const proper_vlmc_counts *c, const proper_vlmc *m, const char *cfg,
                                        double secs, const char *timed) {
    if (json) {
        cli_json j;
        cli_json_init(&j, stdout);
        cli_json_object_begin(&j);
        cli_json_key_uint(&j, "runs", c->total_runs);
        cli_json_key_uint(&j, "distinct_runs", c->n_runs);
        cli_json_key_uint(&j, "locations", c->locations.len);
        cli_json_key_uint(&j, "steps", c->total_steps);
        cli_json_key_string(&j, "mode", m->single ? "single" : m->general ? "general" : "cfg");
        cli_json_key_number(&j, "alpha", m->alpha);
        if (m->cutoff_given >= 0.0) cli_json_key_number(&j, "cutoff", m->cutoff_given);
        cli_json_key_uint(&j, "nmin", m->n_min);
        cli_json_key_uint(&j, "nodes", m->n_contexts);
        cli_json_key_uint(&j, "order", m->order);
        cli_json_key_number(&j, "loglik", m->loglik);
        if (m->row) cli_json_key_uint(&j, "hull_states", m->n_states);
        cli_json_key_number(&j, "seconds", secs);
        cli_json_object_end(&j);
        return;
    }
    printf("runs           %llu (%lu distinct, %lu locations, %llu steps)\n", (unsigned long long)c->total_runs,
           (unsigned long)c->n_runs, (unsigned long)c->locations.len, (unsigned long long)c->total_steps);
    printf("mode           %s, ", m->single ? "single" : m->general ? "general" : "cfg");
    if (m->cutoff_given >= 0.0) printf("cutoff %g", m->cutoff_given);
    else printf("alpha %g", m->alpha);
    printf(", nmin %llu%s\n", (unsigned long long)m->n_min, cfg ? ", CFG given" : "");
    printf("nodes          %lu\n", (unsigned long)m->n_contexts);
    printf("order          %u\n", m->order);
    printf("log-likelihood %.10g\n", m->loglik);
    if (m->row) printf("hull states    %u (including the end state)\n", m->n_states);
    printf("time           %.3f s (%s)\n", secs, timed);
}

#endif
