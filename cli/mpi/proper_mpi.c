/* proper-mpi — proper's learners on MPI: each rank reads a share of the
 * inputs, the sums are combined by a tree reduction, rank 0 writes the
 * result byte for byte as the single-process `proper` would. See mpi.h. */
#define _POSIX_C_SOURCE 200809L /* fseeko, fileno, open_memstream, getrusage */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "mpi.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: mpirun -np P proper-mpi COMMAND [ARGS...]\n\n"
            "proper's learners whose statistics are sums, on P MPI ranks: each rank reads\n"
            "its share of the inputs (whole files, or the lines of large text files that\n"
            "start in its byte range), the sums are combined by a tree reduction, and\n"
            "rank 0 writes exactly what the single-process command writes.\n\n"
            "commands:\n"
            "  vlmc count TRACE... -o COUNTS     as 'proper vlmc count'\n"
            "  vlmc fit   TRACE... [options]     as 'proper vlmc fit' (--alpha, --nmin,\n"
            "                                    --cfg, --extend-cfg, --general,\n"
            "                                    --max-order, --pst, --dot, --json;\n"
            "                                    -o COUNTS also writes the counts)\n"
            "  trace TRACE... -o DIR [--width W] per-step PMFs for SRE models, one\n"
            "                                    'value,prob' CSV per step, as\n"
            "                                    'proper sre --csv' of trace(FILE, STEP)\n"
            "  counts LOG... [-o FILE]           count-log totals per column (runs, sum,\n"
            "                                    sum of squares; docs/mpi.md)\n"
            "  annot stats LOG... [-o STATS]     as 'proper annot stats' (annotation\n"
            "                                    records' sufficient statistics)\n"
            "  annot fit LOG... [-o ANNOT]       as 'proper annot fit STATS' of those\n\n"
            "every command: --stats prints per-rank figures (events/s, bytes, reduction\n"
            "time, peak memory) on stderr. 'proper-mpi COMMAND --help' says more.\n"
            "Exit status: 0 ok, 2 bad input (errors as file:line:col: message).\n");
}

/* ---- shares ---------------------------------------------------------------- */

/* One piece of a rank's share: a whole file, or the lines of a file that
 * start in the byte range [lo, hi). */
typedef struct mpi_piece {
    const char *path;
    int whole;
    uint64_t lo, hi;
} mpi_piece;

/* Start of rank r's byte range: floor(total * r / size) without overflow. */
static uint64_t mpi__range_start(uint64_t total, int r, int size) {
    uint64_t p = (uint64_t)size, q = (uint64_t)r;
    return total / p * q + total % p * q / p;
}

/* The rank whose range holds byte `at` (the last rank for at == total). */
static int mpi__owner(uint64_t total, int size, uint64_t at) {
    int lo = 0, hi = size - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (mpi__range_start(total, mid, size) <= at) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* This rank's share of the files paths[0..n): the concatenation of the
 * files is cut into P equal byte ranges; rank r gets the lines that start in
 * its range and the whole files (those not splittable) whose middle byte
 * is in it. */
static int mpi__share(mpi_ctx *m, const char *const *paths, size_t n, const mpi_ops *ops, mpi_piece **pieces,
                      size_t *n_pieces) {
    uint64_t *size = (uint64_t *)calloc(n + 1, sizeof *size), total = 0, lo, hi, off;
    int *split = (int *)calloc(n + 1, sizeof *split);
    size_t i, k = 0;
    *pieces = (mpi_piece *)calloc(n + 1, sizeof **pieces);
    *n_pieces = 0;
    if (!size || !split || !*pieces) {
        free(size);
        free(split);
        free(*pieces);
        *pieces = NULL;
        return cli_fail("out of memory");
    }
    if (m->rank == 0) /* rank 0 looks at the files once; the others are told */
        for (i = 0; i < n; i++) {
            struct stat st;
            FILE *f;
            char head[64];
            size_t got = 0;
            if (stat(paths[i], &st) == 0 && S_ISREG(st.st_mode)) size[i] = (uint64_t)st.st_size;
            if (ops->splittable && size[i] > 0 && (f = fopen(paths[i], "rb")) != NULL) {
                got = fread(head, 1, sizeof head, f);
                fclose(f);
                split[i] = ops->splittable(head, got);
            }
        }
    MPI_Bcast(size, (int)n, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    MPI_Bcast(split, (int)n, MPI_INT, 0, MPI_COMM_WORLD);
    for (i = 0; i < n; i++) total += size[i];
    lo = mpi__range_start(total, m->rank, m->size);
    hi = m->rank + 1 == m->size ? total : mpi__range_start(total, m->rank + 1, m->size);
    for (i = 0, off = 0; i < n; off += size[i], i++) {
        uint64_t a, b;
        if (!split[i]) { /* whole, to the rank that holds its middle byte (equal files spread evenly) */
            if (mpi__owner(total, m->size, off + size[i] / 2) == m->rank) {
                (*pieces)[k].path = paths[i];
                (*pieces)[k].whole = 1;
                (*pieces)[k].hi = size[i];
                k++;
            }
            continue;
        }
        a = lo > off ? lo : off;
        b = hi < off + size[i] ? hi : off + size[i];
        if (a < b) {
            (*pieces)[k].path = paths[i];
            (*pieces)[k].lo = a - off;
            (*pieces)[k].hi = b - off;
            k++;
        }
    }
    *n_pieces = k;
    free(size);
    free(split);
    return CLI_OK;
}

/* The first line start at or after byte `at` of f (size bytes). */
static int mpi__line_start(FILE *f, uint64_t at, uint64_t size, uint64_t *out) {
    int ch;
    uint64_t pos;
    if (at == 0 || at >= size) {
        *out = at == 0 ? 0 : size;
        return 0;
    }
    if (fseeko(f, (off_t)(at - 1), SEEK_SET) != 0) return -1;
    for (pos = at - 1; (ch = getc(f)) != EOF; pos++)
        if (ch == '\n') {
            *out = pos + 1;
            return 0;
        }
    if (ferror(f)) return -1;
    *out = size;
    return 0;
}

/* Streams the lines of path that start in [p->lo, p->hi) to ops->add_lines
 * in blocks cut at newlines. */
static int mpi__read_piece(mpi_ctx *m, const mpi_piece *p, const mpi_ops *ops, void *acc, proper_error *err) {
    FILE *f = fopen(p->path, "rb");
    struct stat st;
    uint64_t size, start, end, pos;
    size_t cap = PROPER_MPI_BLOCK, have = 0;
    char *buf;
    int rc = PROPER_OK;
    if (!f) return proper_error_set(err, PROPER_EIO, p->path, 0, 0, "cannot open file");
    if (fstat(fileno(f), &st) != 0 || mpi__line_start(f, p->lo, size = (uint64_t)st.st_size, &start) ||
        mpi__line_start(f, p->hi, size, &end) || fseeko(f, (off_t)start, SEEK_SET) != 0) {
        fclose(f);
        return proper_error_set(err, PROPER_EIO, p->path, 0, 0, "read error");
    }
    if (!(buf = (char *)malloc(cap))) {
        fclose(f);
        return proper_error_set(err, PROPER_ENOMEM, p->path, 0, 0, "out of memory");
    }
    for (pos = start; rc == PROPER_OK && pos < end;) {
        size_t want = cap - have, got, cut;
        if ((uint64_t)want > end - pos) want = (size_t)(end - pos);
        got = fread(buf + have, 1, want, f);
        if (got == 0) {
            rc = proper_error_set(err, PROPER_EIO, p->path, 0, 0, "read error (the file changed while being read?)");
            break;
        }
        have += got;
        pos += got;
        if (pos == end) cut = have;
        else
            for (cut = have; cut > 0 && buf[cut - 1] != '\n'; cut--) {
            }
        if (cut == 0) { /* a line longer than the buffer */
            char *bigger = (char *)realloc(buf, cap * 2);
            if (!bigger) rc = proper_error_set(err, PROPER_ENOMEM, p->path, 0, 0, "out of memory");
            else buf = bigger, cap *= 2;
            continue;
        }
        rc = ops->add_lines(acc, p->path, buf, cut, err);
        memmove(buf, buf + cut, have - cut);
        have -= cut;
    }
    m->bytes_in += end - start;
    free(buf);
    fclose(f);
    return rc;
}

/* Reads the pieces into acc. On an error in a piece of a split file the file
 * is read again from its start into fresh sums, so that the message (line,
 * run number) is the one a single process reports. */
static int mpi__read_share(mpi_ctx *m, const mpi_piece *pieces, size_t n, const mpi_ops *ops, void *acc,
                           proper_error *err) {
    size_t i;
    int rc = PROPER_OK;
    double t0 = MPI_Wtime();
    clock_t c0 = clock();
    for (i = 0; i < n && rc == PROPER_OK; i++) {
        if (pieces[i].whole) {
            rc = ops->add_file(acc, pieces[i].path, err);
            m->bytes_in += pieces[i].hi;
            continue;
        }
        if ((rc = mpi__read_piece(m, &pieces[i], ops, acc, err)) != PROPER_OK) {
            /* line and run numbers of a piece are relative to the piece: read
             * the file from its start to get the single-process message */
            void *fresh = ops->create();
            proper_error whole;
            if (fresh && ops->add_file(fresh, pieces[i].path, &whole) != PROPER_OK && err) *err = whole;
            if (fresh) ops->destroy(fresh);
        }
    }
    m->events = ops->events(acc);
    m->t_read = MPI_Wtime() - t0;
    m->cpu_read = (double)(clock() - c0) / CLOCKS_PER_SEC;
    return rc;
}

/* After each rank's local step: 0 when every rank succeeded; otherwise the
 * lowest failing rank (the first error in input order) prints its error and
 * every rank gets CLI_BAD_INPUT. */
static int mpi__agree(mpi_ctx *m, int rc, const proper_error *err) {
    int mine = rc ? m->rank : m->size, first;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == m->size) return CLI_OK;
    if (first == m->rank) cli_report(err);
    return CLI_BAD_INPUT;
}

/* ---- moving text ----------------------------------------------------------- */

/* MPI counts are ints: long texts travel in pieces of this many bytes. */
#define MPI__CHUNK ((size_t)1 << 30)
#define MPI__FAILED UINT64_MAX

static void mpi__send(const char *text, uint64_t len, int to) {
    uint64_t off;
    MPI_Send(&len, 1, MPI_UINT64_T, to, 0, MPI_COMM_WORLD);
    if (len == MPI__FAILED) return;
    for (off = 0; off < len; off += MPI__CHUNK) {
        uint64_t n = len - off < MPI__CHUNK ? len - off : MPI__CHUNK;
        MPI_Send((void *)(text + off), (int)n, MPI_BYTE, to, 1, MPI_COMM_WORLD);
    }
}

/* Receives a text (NUL-terminated); *len = MPI__FAILED when the sender
 * failed. Running out of memory here aborts the job (the sender would
 * otherwise wait for a receive that never comes). */
static void mpi__recv(char **text, uint64_t *len, int from) {
    uint64_t off;
    *text = NULL;
    MPI_Recv(len, 1, MPI_UINT64_T, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (*len == MPI__FAILED) return;
    if (*len + 1 == 0 || !(*text = (char *)malloc((size_t)*len + 1))) {
        cli_fail("out of memory receiving %llu bytes from rank %d", (unsigned long long)*len, from);
        MPI_Abort(MPI_COMM_WORLD, CLI_BAD_INPUT);
    }
    for (off = 0; off < *len; off += MPI__CHUNK) {
        uint64_t n = *len - off < MPI__CHUNK ? *len - off : MPI__CHUNK;
        MPI_Recv(*text + off, (int)n, MPI_BYTE, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    (*text)[*len] = '\0';
}

/* The sums as text, written by ops->write into memory. */
static int mpi__serialise(const mpi_ops *ops, const void *acc, char **text, size_t *len) {
    proper_error err;
    FILE *f;
    int rc;
    *text = NULL;
    *len = 0;
    if (!(f = open_memstream(text, len))) return cli_fail("out of memory");
    rc = ops->write(acc, f, &err);
    if (fclose(f) != 0 && rc == PROPER_OK) rc = proper_error_set(&err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    if (rc == PROPER_OK) return CLI_OK;
    free(*text);
    *text = NULL;
    return cli_report(&err);
}

/* Tree reduction of acc into rank 0; on rank 0, *text and *len (NULL
 * on the other ranks; free with free()) is the reduced sums written by ops->write.
 * Returns the same status on every rank. */
static int mpi__reduce(mpi_ctx *m, void *acc, const mpi_ops *ops, char **text, size_t *len) {
    int step, status = CLI_OK;
    double t0 = MPI_Wtime();
    *text = NULL;
    *len = 0;
    for (step = 1; step < m->size; step <<= 1) {
        if (m->rank & step) { /* send to the partner below and stop */
            char *mine = NULL;
            size_t n = 0;
            if (status == CLI_OK) status = mpi__serialise(ops, acc, &mine, &n);
            mpi__send(mine, status == CLI_OK ? (uint64_t)n : MPI__FAILED, m->rank - step);
            if (status == CLI_OK) m->sent += n;
            free(mine);
            break;
        }
        if (m->rank + step < m->size) {
            char *theirs;
            uint64_t n;
            mpi__recv(&theirs, &n, m->rank + step);
            if (n == MPI__FAILED) status = CLI_BAD_INPUT;
            else {
                proper_error err;
                m->received += n;
                if (status == CLI_OK && ops->merge(acc, theirs, (size_t)n, &err) != PROPER_OK)
                    status = cli_report(&err);
            }
            free(theirs);
        }
    }
    if (m->rank == 0 && status == CLI_OK) {
        status = mpi__serialise(ops, acc, text, len);
        m->result = *len;
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (status != CLI_OK) {
        free(*text);
        *text = NULL;
    }
    m->t_reduce = MPI_Wtime() - t0;
    return status;
}

int mpi_sum_inputs(mpi_ctx *m, int rc, const char *const *inputs, size_t n, const mpi_ops *ops, void **acc,
                   char **text, size_t *len) {
    mpi_piece *pieces = NULL;
    size_t n_pieces = 0;
    proper_error err;
    *acc = NULL;
    *text = NULL;
    *len = 0;
    cli_set_quiet(0); /* from here on every rank speaks */
    if (rc == CLI_OK) rc = mpi__share(m, inputs, n, ops, &pieces, &n_pieces);
    if (rc != CLI_OK) {
        m->stats = 0; /* nothing was read: no --stats table */
        return rc;
    }
    if (!(*acc = ops->create())) rc = proper_error_set(&err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    else rc = mpi__read_share(m, pieces, n_pieces, ops, *acc, &err);
    free(pieces);
    rc = mpi__agree(m, rc, &err);
    if (rc == CLI_OK) rc = mpi__reduce(m, *acc, ops, text, len);
    return rc;
}

int mpi_write_file(const char *path, const char *text, size_t len) {
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
    int bad;
    if (!f) return cli_fail("%s: cannot open for writing", path);
    bad = fwrite(text, 1, len, f) != len;
    bad |= f == stdout ? fflush(f) != 0 : fclose(f) != 0;
    return bad ? cli_fail("%s: write error", path) : CLI_OK;
}

/* ---- --stats ---------------------------------------------------------------- */

#define MPI__NSTATS 11

void mpi_print_stats(mpi_ctx *m) {
    double mine[MPI__NSTATS], *all = NULL;
    struct rusage ru;
    int r;
    if (!m->stats) return;
    getrusage(RUSAGE_SELF, &ru);
    mine[0] = m->t_read;
    mine[1] = (double)m->events;
    mine[2] = (double)m->bytes_in;
    mine[3] = m->t_reduce;
    mine[4] = (double)m->sent;
    mine[5] = (double)m->received;
    mine[6] = (double)ru.ru_maxrss / 1024.0; /* kB -> MB */
    mine[7] = (double)m->result;
    mine[8] = MPI_Wtime() - m->t_start;
    /* CPU seconds (user + system) of the whole process: unlike the wall
     * times, not inflated by other processes on a shared machine */
    mine[9] = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_sec +
              1e-6 * (double)ru.ru_stime.tv_usec;
    mine[10] = m->cpu_read;
    if (m->rank == 0 && !(all = (double *)malloc(sizeof mine * (size_t)m->size))) {
        cli_fail("out of memory");
        m->stats = 0;
    }
    MPI_Gather(mine, MPI__NSTATS, MPI_DOUBLE, all, MPI__NSTATS, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (m->rank != 0 || !all) return;
    fprintf(stderr, "# proper-mpi --stats: %d rank(s), wall %.3f s, reduced sums %.0f bytes\n", m->size, all[8],
            all[7]);
    fprintf(stderr, "# rank  read_s  events  events_per_s  input_bytes  reduce_s  sent_bytes  received_bytes  maxrss_mb  cpu_s  read_cpu_s\n");
    for (r = 0; r < m->size; r++) {
        const double *s = all + (size_t)r * MPI__NSTATS;
        fprintf(stderr, "stats %d %.6f %.0f %.0f %.0f %.6f %.0f %.0f %.1f %.3f %.3f\n", r, s[0], s[1], s[0] > 0 ? s[1] / s[0] : 0.0,
                s[2], s[3], s[4], s[5], s[6], s[9], s[10]);
    }
    free(all);
}

int main(int argc, char **argv) {
    mpi_ctx m;
    int rc;
    MPI_Init(&argc, &argv);
    memset(&m, 0, sizeof m);
    m.t_start = MPI_Wtime();
    MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m.size);
    /* while the command line is parsed (alike on every rank) only rank 0
     * speaks; every rank does from the data phase on (mpi_sum_inputs) */
    cli_set_program("proper-mpi");
    cli_set_quiet(m.rank != 0);
    if (argc < 2) {
        if (m.rank == 0) usage(stderr);
        rc = CLI_BAD_INPUT;
    } else if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        if (m.rank == 0) usage(stdout);
        rc = CLI_OK;
    } else if (strcmp(argv[1], "--version") == 0) {
        if (m.rank == 0) printf("proper-mpi %s\n", PROPER_VERSION_STRING);
        rc = CLI_OK;
    } else if (strcmp(argv[1], "vlmc") == 0) {
        rc = mpi_cmd_vlmc(&m, argc - 1, argv + 1);
    } else if (strcmp(argv[1], "trace") == 0) {
        rc = mpi_cmd_trace(&m, argc - 1, argv + 1);
    } else if (strcmp(argv[1], "counts") == 0) {
        rc = mpi_cmd_counts(&m, argc - 1, argv + 1);
    } else if (strcmp(argv[1], "annot") == 0) {
        rc = mpi_cmd_annot(&m, argc - 1, argv + 1);
    } else {
        rc = cli_fail("unknown %s '%s' (see 'proper-mpi --help')", argv[1][0] == '-' ? "option" : "command", argv[1]);
    }
    MPI_Finalize();
    return rc;
}

