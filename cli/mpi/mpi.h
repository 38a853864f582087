/* mpi.h — shared pieces of proper-mpi, the MPI build of proper's learners.
 *
 * Every learner here has sufficient statistics that are sums (VLMC counts:
 * a multiset of runs; step histograms; count-log totals; annotation
 * records' regression sums), so the work is
 *   1. each rank reads its share of the inputs (mpi_share, mpi_read_share)
 *      and sums what it read;
 *   2. the ranks' sums are combined by a binomial tree (mpi_reduce): in
 *      round k, rank r with r mod 2^(k+1) = 2^k sends its sums, serialised
 *      as text with the library's public writer, to rank r - 2^k, which
 *      parses them back with the public parser, adding them to its own;
 *      after ceil(log2 P) rounds rank 0 holds the total;
 *   3. rank 0 writes the result (and fits a model from it) exactly as the
 *      single-process `proper` command would (vlmc: `proper vlmc count/fit`;
 *      trace: `proper sre --csv` of each step's trace() source; counts: a
 *      totals file, which `proper` has no writer for: docs/mpi.md; annot:
 *      `proper annot stats LOG...`, then `proper annot fit STATS`).
 * The library (src/) stays MPI-free: this directory is its only user of MPI.
 * Options are parsed, errors printed and JSON written by the CLI's own
 * helpers (cli/cli.h, cli/json.h), so proper-mpi reads and speaks as
 * `proper` does; its messages start with "proper-mpi" (cli_set_program).
 */
#ifndef PROPER_MPI_H
#define PROPER_MPI_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include "../../src/core.h"
#include "../cli.h"

/* Input is read in blocks of this many bytes (cut at the last newline). */
#ifndef PROPER_MPI_BLOCK
#define PROPER_MPI_BLOCK ((size_t)1 << 22)
#endif

/* Per-rank figures for --stats. */
typedef struct mpi_ctx {
    int rank, size;
    int stats;           /* --stats: print the per-rank table on stderr */
    double t_start;      /* MPI_Wtime() at start */
    double t_read;       /* seconds reading and summing the share */
    double cpu_read;     /* CPU seconds (clock()) of that */
    double t_reduce;     /* seconds in the tree reduction */
    uint64_t events;     /* items summed: location visits, samples, count-log rows */
    uint64_t bytes_in;   /* input bytes this rank read */
    uint64_t sent, received; /* bytes of serialised sums sent / received */
    uint64_t result;     /* bytes of the reduced text (rank 0) */
} mpi_ctx;

/* What a learner does with its share (acc is the learner's sums). */
typedef struct mpi_ops {
    /* 1 when a file whose first bytes are head[0..n) may be split at line
     * boundaries (NULL: never split). */
    int (*splittable)(const char *head, size_t n);
    /* Add a whole file. */
    int (*add_file)(void *acc, const char *path, proper_error *err);
    /* Add complete lines text[0..len) of a splittable file. */
    int (*add_lines)(void *acc, const char *path, const char *text, size_t len, proper_error *err);
    /* Fresh / released sums (for re-reading a file to explain an error). */
    void *(*create)(void);
    void (*destroy)(void *acc);
    /* Serialise the sums as text into a stream / add serialised sums. */
    int (*write)(const void *acc, FILE *f, proper_error *err);
    int (*merge)(void *acc, const char *text, size_t len, proper_error *err);
    /* Items summed so far (for --stats). */
    uint64_t (*events)(const void *acc);
} mpi_ops;

/* Writes text to path ("-" = stdout); CLI_OK or CLI_BAD_INPUT. */
int mpi_write_file(const char *path, const char *text, size_t len);
/* Messages: cli_fail and cli_report (exit statuses CLI_OK, CLI_BAD_INPUT).
 * While a command's options are parsed (identically on every rank) only
 * rank 0 prints (cli_set_quiet on the others); from mpi_sum_inputs on every
 * rank does. */

/* Steps 1 and 2 of every command, after its options are parsed with status
 * rc (read identically on every rank): the share of inputs[0..n), read into
 * fresh sums *acc (ops->create; the caller releases them with ops->destroy,
 * NULL when they could not be made), agreed on, and reduced. On CLI_OK rank 0
 * holds the reduced text in *text and *len (free with free()). Returns the
 * same status on every rank. */
int mpi_sum_inputs(mpi_ctx *m, int rc, const char *const *inputs, size_t n, const mpi_ops *ops, void **acc,
                   char **text, size_t *len);
/* Prints the per-rank --stats table (collective): per rank the read time,
 * events, events/s, input bytes, reduction time, bytes sent and received,
 * peak RSS (MB), the process's CPU seconds (user + system) and the CPU
 * seconds of the read phase. */
void mpi_print_stats(mpi_ctx *m);

/* Subcommands. */
int mpi_cmd_vlmc(mpi_ctx *m, int argc, char **argv);
int mpi_cmd_trace(mpi_ctx *m, int argc, char **argv);
int mpi_cmd_counts(mpi_ctx *m, int argc, char **argv);
int mpi_cmd_annot(mpi_ctx *m, int argc, char **argv);

#endif
