/* proper-mpi annot — annotation records' sufficient statistics on MPI ranks.
 *
 * The sums are a proper_annot_stats (src/annot.h, "Sufficient statistics"):
 * per function and metric the record count, the features' ranges and
 * smallest distinct values, and the exact sums S[i][j] of the products of
 * the regression terms (X'X and X'y), all of which add exactly. Logs (the
 * record format or CSV) go whole to a rank: a record's meaning depends on
 * its function's schema line, which may be anywhere above it; a log goes to
 * the rank whose byte range holds its middle (docs/mpi.md, "Shares"). The tree
 * reduction moves the statistics text (proper_annot_stats_format, hex sums:
 * exact) and adds it with proper_annot_stats_parse + _merge. Rank 0 writes
 * the bytes `proper annot stats LOG...` writes for the same logs, and `fit`
 * fits them as `proper annot fit STATS` does (the regression scope of each
 * function; the annotations' text alike). */
#include <stdlib.h>
#include <string.h>

#include "../../src/annot.h"
#include "mpi.h"

static void annot_usage(FILE *out) {
    fprintf(out,
            "usage: mpirun -np P proper-mpi annot stats LOG... [--function F] [--metric M]\n"
            "                                          [-o STATS] [--stats]\n"
            "       mpirun -np P proper-mpi annot fit   LOG... [--function F] [--metric M]\n"
            "                                          [--r2 X] [-o ANNOT] [--save-stats STATS]\n"
            "                                          [--stats]\n\n"
            "As 'proper annot stats LOG...' and 'proper annot fit STATS' (see 'proper annot\n"
            "--help'), on P ranks: each log goes whole to the rank whose byte range holds\n"
            "its middle, each rank counts the sufficient statistics of its logs (exact\n"
            "sums of the regression terms' products per function), a tree reduction adds\n"
            "them and rank 0 writes them, byte-identical to the single-process statistics;\n"
            "fit then fits each function's regression from them.\n\n"
            "  --function F          only this function\n"
            "  --metric M            the metric column (default time)\n"
            "  --r2 X                (fit) R^2 a regression needs to be good (default %g)\n"
            "  -o, --output FILE     stats: the statistics; fit: the annotations\n"
            "                        (default '-': stdout)\n"
            "  --save-stats STATS    (fit) also write the statistics\n"
            "  --stats               per-rank figures on stderr\n",
            PROPER_ANNOT_R2);
}

typedef struct annot_args {
    const char **inputs;
    size_t n_inputs;
    const char *function, *metric, *out, *save;
    proper_annot_opts opts;
} annot_args;

/* As `proper annot`'s parser (cli/cmd_annot.c) for the options proper-mpi
 * has. argv[0] is the subcommand. CLI_OK or CLI_BAD_INPUT. */
static int annot_parse(mpi_ctx *m, int fit, int argc, char **argv, annot_args *a) {
    cli_args ca;
    a->opts = proper_annot_opts_default();
    a->metric = "time";
    a->out = "-";
    cli_args_init(&ca, "annot", argc, argv);
    while (cli_next(&ca)) {
        if (cli_flag(&ca, "--stats")) m->stats = 1;
        else if (cli_opt(&ca, "--function")) a->function = ca.value;
        else if (cli_opt(&ca, "--metric")) a->metric = ca.value;
        else if (cli_opt(&ca, "-o|--output")) a->out = ca.value;
        else if (fit && cli_opt(&ca, "--save-stats")) a->save = ca.value;
        else if (fit && cli_opt_double(&ca, "--r2", "[0,1]", &a->opts.r2)) {
        } else if (cli_positional(&ca)) a->inputs[a->n_inputs++] = ca.value;
        else cli_unknown(&ca);
    }
    if (ca.status) return ca.status;
    if (!a->n_inputs) return cli_usage_error(&ca, "%s needs at least one LOG", argv[0]);
    if (a->save && strcmp(a->save, "-") == 0 && strcmp(a->out, "-") == 0)
        return cli_fail("annot fit: -o and --save-stats cannot both be '-'");
    return CLI_OK;
}

/* ---- the learner's sums ---- */

/* A rank's statistics, and what `proper annot stats` checks over all logs. */
typedef struct annot_acc {
    proper_annot_stats s;
    const annot_args *args;
    int has_function; /* some log has --function F */
    size_t counted;   /* functions counted (one per log and function) */
} annot_acc;

static const annot_args *annot_current; /* the command's arguments, for create() */

static void *annot_create(void) {
    annot_acc *a = (annot_acc *)calloc(1, sizeof *a);
    if (a) {
        proper_annot_stats_init(&a->s);
        a->args = annot_current;
    }
    return a;
}

static void annot_destroy(void *acc) {
    proper_annot_stats_free(&((annot_acc *)acc)->s);
    free(acc);
}

/* One log, as `proper annot stats` counts it (the same checks and words). */
static int annot_add_file(void *acc, const char *path, proper_error *err) {
    annot_acc *a = (annot_acc *)acc;
    proper_annot_log L;
    int rc;
    proper_annot_log_init(&L);
    rc = proper_annot_log_read(&L, path, err);
    if (!rc) rc = proper_annot_stats_add_log(&a->s, &L, a->args->function, a->args->metric, &a->has_function, &a->counted, err);
    if (rc && !err->file[0]) snprintf(err->file, sizeof err->file, "%s", path);
    proper_annot_log_free(&L);
    return rc;
}

static int annot_write(const void *acc, FILE *f, proper_error *err) {
    return proper_annot_stats_write(&((const annot_acc *)acc)->s, f, err);
}

static int annot_merge(void *acc, const char *text, size_t len, proper_error *err) {
    proper_annot_stats other;
    int rc;
    proper_annot_stats_init(&other);
    rc = proper_annot_stats_parse(&other, text, len, "(statistics from another rank)", err);
    if (!rc) rc = proper_annot_stats_merge(&((annot_acc *)acc)->s, &other, err);
    proper_annot_stats_free(&other);
    return rc;
}

static uint64_t annot_events(const void *acc) {
    const proper_annot_stats *s = &((const annot_acc *)acc)->s;
    uint64_t n = 0;
    size_t i;
    for (i = 0; i < s->n; i++) n += s->f[i].n;
    return n;
}

static const mpi_ops annot_ops = {NULL, annot_add_file, NULL, annot_create, annot_destroy,
                                  annot_write, annot_merge, annot_events};

/* Over all ranks: `proper annot stats`'s checks that need every log (some
 * log has F; something was counted), reported by rank 0. */
static int annot_check_all(mpi_ctx *m, const annot_acc *acc) {
    const annot_args *o = acc->args;
    int has_f = acc->has_function;
    unsigned long long counted = acc->counted;
    proper_error err;
    MPI_Allreduce(MPI_IN_PLACE, &has_f, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &counted, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (!proper_annot_stats_found(o->function, o->metric, has_f, (size_t)counted, o->inputs, o->n_inputs, &err)) return CLI_OK;
    return m->rank == 0 ? cli_report(&err) : CLI_BAD_INPUT;
}

/* ---- fitting on rank 0 ---- */

/* Fits the reduced statistics text as `proper annot fit STATS` would. */
static int annot_fit_text(const annot_args *o, const char *text, size_t len) {
    proper_annot_stats S;
    proper_annot a;
    proper_error err;
    size_t i, fitted = 0;
    FILE *out;
    int rc = CLI_OK;
    proper_annot_stats_init(&S);
    proper_annot_init(&a);
    if (proper_annot_stats_parse(&S, text, len, o->save ? o->save : "(statistics)", &err) ||
        proper_annot_stats_fit_matching(&a, &S, o->function, o->metric, &o->opts, NULL, &fitted, &err)) {
        rc = cli_report(&err);
        goto done;
    }
    for (i = 0; i < a.n_fns; i++) {
        /* the words of `proper annot fit STATS` (cli/cmd_annot.c) */
        const proper_annot_item *it = &a.it[a.fns[i].body];
        if (it->r2 < o->opts.r2)
            fprintf(stderr, "proper-mpi annot: %s.%s: R2 %.4f is below %g: the records would be split or clustered, "
                            "which sums cannot do; this regression is only the best single one\n",
                    a.fns[i].name, a.fns[i].metric, it->r2, o->opts.r2);
    }
    out = strcmp(o->out, "-") == 0 ? stdout : fopen(o->out, "w");
    if (!out) {
        rc = cli_fail("%s: cannot write", o->out);
        goto done;
    }
    if (proper_annot_write(&a, out, &err)) rc = cli_report(&err);
    if ((out == stdout ? fflush(out) : fclose(out)) != 0 && !rc) rc = cli_fail("%s: write failed", o->out);
done:
    proper_annot_stats_free(&S);
    proper_annot_free(&a);
    return rc;
}

int mpi_cmd_annot(mpi_ctx *m, int argc, char **argv) {
    annot_args a;
    void *acc;
    size_t len;
    char *text;
    cli_args help;
    int rc, fit;
    cli_args_init(&help, "annot", argc, argv);
    if (help.help || argc < 2) {
        if (m->rank == 0) annot_usage(help.help ? stdout : stderr);
        return help.help ? CLI_OK : CLI_BAD_INPUT;
    }
    if (strcmp(argv[1], "stats") != 0 && strcmp(argv[1], "fit") != 0)
        return cli_fail("annot: unknown subcommand '%s' (stats, fit)", argv[1]);
    fit = strcmp(argv[1], "fit") == 0;
    memset(&a, 0, sizeof a);
    if (!(a.inputs = (const char **)calloc((size_t)argc, sizeof *a.inputs))) return cli_fail("out of memory");
    annot_current = &a;
    rc = annot_parse(m, fit, argc - 1, argv + 1, &a);
    rc = mpi_sum_inputs(m, rc, a.inputs, a.n_inputs, &annot_ops, &acc, &text, &len);
    if (rc == CLI_OK) rc = annot_check_all(m, (const annot_acc *)acc);
    if (rc == CLI_OK && m->rank == 0) {
        if (!fit) rc = mpi_write_file(a.out, text, len);
        else if (a.save) rc = mpi_write_file(a.save, text, len);
        if (rc == CLI_OK && fit) rc = annot_fit_text(&a, text, len);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    mpi_print_stats(m);
    free(text);
    if (acc) annot_destroy(acc);
    free(a.inputs);
    return rc;
}
