/* proper-mpi vlmc — VLMC counts and fits over MPI ranks.
 *
 * The sums are a proper_vlmc_counts (the multiset of distinct runs). Ranks
 * read runs-text files in byte ranges split at line starts (one run per
 * line), trace and counts files whole (a trace's records with one id form
 * one run, so a trace is never split). The tree reduction moves counts as
 * the counts-file text (proper_vlmc_counts_write) and adds them with
 * proper_vlmc_counts_parse_counts. Rank 0 writes the reduced text, which is
 * the canonical counts file `proper vlmc count` writes for the same runs,
 * and fits from that text exactly as `proper vlmc fit COUNTS` does. */
#include <stdlib.h>
#include <string.h>

#include "../../src/vlmc.h"
#include "../vlmc_opts.h"
#include "mpi.h"

static void vlmc_usage(FILE *out) {
    fprintf(out,
            "usage: mpirun -np P proper-mpi vlmc count TRACE... -o|--output COUNTS [--stats]\n"
            "       mpirun -np P proper-mpi vlmc fit   TRACE... [fit options] [--pst FILE]\n"
            "                                          [--dot FILE] [--json] [-o COUNTS] [--stats]\n\n"
            "As 'proper vlmc count' and 'proper vlmc fit' (see 'proper vlmc --help'), on P\n"
            "ranks: runs-text files are split at line starts into P byte ranges, trace and\n"
            "counts files go whole to the rank whose range holds their middle; the counts\n"
            "are combined by a tree reduction and rank 0 writes the counts file and fits.\n"
            "The counts file and the PST are byte-identical to the single-process ones;\n"
            "the options, their errors and the --json summary are those of 'proper vlmc'.\n\n"
            "fit options: --alpha A, --nmin N, --cfg FILE, --extend-cfg, --general,\n"
            "             --max-order D (as 'proper vlmc fit')\n"
            "  --json               the fit's summary as JSON (as 'proper vlmc fit --json')\n"
            "  -o, --output COUNTS  the counts file ('-' = stdout; required for count)\n"
            "  --stats              per-rank figures on stderr\n");
}

typedef struct vlmc_args {
    const char **inputs;
    size_t n_inputs;
    const char *cfg, *pst, *dot, *out;
    proper_vlmc_opts opts;
    int json;
} vlmc_args;

/* As `proper vlmc`'s parser (cli/cmd_vlmc.c), with the same fit options
 * (cli/vlmc_opts.h) and those outputs proper-mpi has: --pst, --dot, --json,
 * -o/--output; and --stats. argv[0] is the subcommand. CLI_OK or
 * CLI_BAD_INPUT (reported by rank 0). */
static int vlmc_parse(mpi_ctx *m, int fit, int argc, char **argv, vlmc_args *a) {
    cli_args ca;
    a->opts = proper_vlmc_opts_default();
    cli_args_init(&ca, "vlmc", argc, argv);
    while (cli_next(&ca)) {
        if (cli_vlmc_fit_option(&ca, &a->opts, &a->cfg)) {
        } else if (cli_flag(&ca, "--json")) a->json = 1;
        else if (cli_flag(&ca, "--stats")) m->stats = 1;
        else if (cli_opt(&ca, "--pst")) a->pst = ca.value;
        else if (cli_opt(&ca, "--dot")) a->dot = ca.value;
        else if (cli_opt(&ca, "-o|--output")) a->out = ca.value;
        else if (cli_positional(&ca)) a->inputs[a->n_inputs++] = ca.value;
        else cli_unknown(&ca);
    }
    if (ca.status) return ca.status;
    if (!a->n_inputs) return cli_usage_error(&ca, "%s: no input files", argv[0]);
    if (cli_vlmc_fit_check(&a->opts, a->cfg)) return CLI_BAD_INPUT;
    if (!fit && !a->out) return cli_fail("vlmc count: -o/--output COUNTS is required ('-' for stdout)");
    if (fit && a->out && a->pst && strcmp(a->out, "-") == 0 && strcmp(a->pst, "-") == 0)
        return cli_fail("vlmc fit: -o and --pst cannot both be '-'");
    return CLI_OK;
}

/* ---- the learner's sums ---- */

/* Runs text may be split; trace and counts files are whole-file formats. */
static int vlmc_header_is(const char *text, size_t len, const char *word) {
    size_t n = strlen(word);
    return len >= n && memcmp(text, word, n) == 0 &&
           (len == n || text[n] == ' ' || text[n] == '\t' || text[n] == '\r' || text[n] == '\n');
}

static int vlmc_splittable(const char *head, size_t n) {
    return !vlmc_header_is(head, n, "proper-trace") && !vlmc_header_is(head, n, "proper-vlmc-counts");
}

static int vlmc_add_file(void *acc, const char *path, proper_error *err) {
    return proper_vlmc_counts_read((proper_vlmc_counts *)acc, path, err);
}

static int vlmc_add_lines(void *acc, const char *path, const char *text, size_t len, proper_error *err) {
    return proper_vlmc_counts_parse_runs((proper_vlmc_counts *)acc, text, len, path, err);
}

static void *vlmc_create(void) {
    proper_vlmc_counts *c = (proper_vlmc_counts *)malloc(sizeof *c);
    if (c) proper_vlmc_counts_init(c);
    return c;
}

static void vlmc_destroy(void *acc) {
    proper_vlmc_counts_free((proper_vlmc_counts *)acc);
    free(acc);
}

static int vlmc_write(const void *acc, FILE *f, proper_error *err) {
    return proper_vlmc_counts_write((const proper_vlmc_counts *)acc, f, err);
}

static int vlmc_merge(void *acc, const char *text, size_t len, proper_error *err) {
    return proper_vlmc_counts_parse_counts((proper_vlmc_counts *)acc, text, len, "(counts from another rank)", err);
}

static uint64_t vlmc_events(const void *acc) { return ((const proper_vlmc_counts *)acc)->total_steps; }

static const mpi_ops vlmc_ops = {vlmc_splittable, vlmc_add_file, vlmc_add_lines, vlmc_create, vlmc_destroy,
                                 vlmc_write,      vlmc_merge,    vlmc_events};

/* ---- fitting on rank 0 ---- */

static int vlmc_write_with(const char *path, int (*writer)(const proper_vlmc *, FILE *, proper_error *),
                           const proper_vlmc *v) {
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
    proper_error err;
    int rc;
    if (!f) return cli_fail("%s: cannot open for writing", path);
    rc = writer(v, f, &err);
    if ((f == stdout ? fflush(f) : fclose(f)) != 0 && rc == PROPER_OK) return cli_fail("%s: write error", path);
    return rc ? cli_report(&err) : CLI_OK;
}

static void vlmc_summary(const vlmc_args *a, const proper_vlmc_counts *c, const proper_vlmc *v, double secs) {
    if (a->pst && strcmp(a->pst, "-") == 0) return; /* stdout carries the tree */
    if (a->out && strcmp(a->out, "-") == 0) return;  /* ... or the counts */
    cli_vlmc_fit_summary(a->json, c, v, a->cfg, secs, "reading, reducing and fitting");
}

/* Fits the reduced counts text as `proper vlmc fit COUNTS` would (errors
 * name the counts file: its line is the run's line). */
static int vlmc_fit_text(mpi_ctx *m, vlmc_args *a, const char *text, size_t len) {
    proper_vlmc_counts c;
    proper_vlmc_cfg g;
    proper_vlmc v;
    proper_vlmc_init(&v);
    proper_error err;
    int rc = CLI_OK;
    proper_vlmc_counts_init(&c);
    proper_vlmc_cfg_init(&g);
    if (proper_vlmc_counts_parse_counts(&c, text, len, a->out && strcmp(a->out, "-") ? a->out : "(counts)", &err) ||
        (a->cfg && proper_vlmc_cfg_read(&g, a->cfg, &err))) {
        rc = cli_report(&err);
    } else if (proper_vlmc_fit(&v, &c, a->cfg ? &g : NULL, &a->opts, &err)) {
        rc = cli_report(&err);
    } else {
        if (a->pst) rc = vlmc_write_with(a->pst, proper_vlmc_write_pst, &v);
        if (rc == CLI_OK && a->dot) rc = vlmc_write_with(a->dot, proper_vlmc_write_dot, &v);
        if (rc == CLI_OK) vlmc_summary(a, &c, &v, MPI_Wtime() - m->t_start);
        proper_vlmc_free(&v);
    }
    proper_vlmc_cfg_free(&g);
    proper_vlmc_counts_free(&c);
    return rc;
}

int mpi_cmd_vlmc(mpi_ctx *m, int argc, char **argv) {
    vlmc_args a;
    void *acc;
    size_t len;
    char *text;
    cli_args help;
    int rc, fit;
    cli_args_init(&help, "vlmc", argc, argv);
    if (help.help || argc < 2) {
        if (m->rank == 0) vlmc_usage(help.help ? stdout : stderr);
        return help.help ? CLI_OK : CLI_BAD_INPUT;
    }
    if (strcmp(argv[1], "fit") != 0 && strcmp(argv[1], "count") != 0)
        return cli_fail("vlmc: unknown subcommand '%s' (count, fit)", argv[1]);
    fit = strcmp(argv[1], "fit") == 0;
    memset(&a, 0, sizeof a);
    if (!(a.inputs = (const char **)calloc((size_t)argc, sizeof *a.inputs))) return cli_fail("out of memory");
    rc = vlmc_parse(m, fit, argc - 1, argv + 1, &a);
    rc = mpi_sum_inputs(m, rc, a.inputs, a.n_inputs, &vlmc_ops, &acc, &text, &len);
    if (rc == CLI_OK && m->rank == 0) {
        const proper_vlmc_counts *c = (const proper_vlmc_counts *)acc;
        if (a.out) rc = mpi_write_file(a.out, text, len);
        if (rc == CLI_OK && fit) rc = vlmc_fit_text(m, &a, text, len);
        else if (rc == CLI_OK && strcmp(a.out, "-") != 0)
            fprintf(stderr, "proper-mpi vlmc: %s: %llu runs, %lu distinct, %lu locations\n", a.out,
                    (unsigned long long)c->total_runs, (unsigned long)c->n_runs, (unsigned long)c->locations.len);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    mpi_print_stats(m);
    free(text);
    if (acc) vlmc_destroy(acc);
    free(a.inputs);
    return rc;
}
