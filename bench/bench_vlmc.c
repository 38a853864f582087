/* bench_vlmc.c — speed and memory of ProgramToVLMC (thesis Table 5).
 *
 * Rows: Double Loop with I = 10, 15, 20, 30 and Nested Loop with I = 4, 5,
 * 6, 8, 10^6 runs each (examples/vlmc/programs.h), alpha = 1, n_min = 1,
 * with the program's CFG. Each row's trace file is written first (not
 * timed); then a fresh child process reads it and fits the PST, and reports
 * the wall time of reading + fitting and its peak resident memory (VmHWM).
 * The file is in the page cache, as it would be right after tracing.
 *
 * Baseline measured in the same run: the same fit with distinct-run
 * compression switched off (every run indexed separately,
 * `keep_duplicates`), on the first 10^5 runs of each row (10^6 would need
 * ~2 GB), next to ours on the same 10^5 runs. The thesis's own Table 5
 * (its programs, its published times, and R's VLMC package on identical
 * work) is reproduced by scripts/vlmc-tables.sh, not here: these rows use
 * the CFG-level programs of programs.h.
 * Also Bubble Sort (9 elements) at alpha = 1, n_min = 1, 10^5 runs (thesis:
 * 1.8 M nodes): time, memory, nodes, and the Markov hull + steps PMF on top.
 *
 * Target: every Table 5 row under 1.5 s and 256 MB on the 2-core machine.
 */
#include "bench.h"
#define PROPER_IMPLEMENTATION
#include "../src/core.h"
#include "../src/trace.h"
#include "../src/stats.h"
#include "../src/dtmc.h"
#include "../src/vlmc.h"
#include "../examples/vlmc/programs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct result {
    int ok;
    double seconds;
    double peak_mb;
    unsigned long distinct, nodes, states;
    unsigned order;
    double hull_seconds; /* hull + steps PMF, when asked */
    char msg[160];
} result;

/* Peak resident set size of this process, from /proc (MB); -1 if unknown. */
static double peak_rss_mb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double mb = -1.0;
    if (!f) return mb;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0) mb = atof(line + 6) / 1024.0;
    fclose(f);
    return mb;
}

/* Child: read `path`, fit, report. `limit_runs` > 0 reads only that many
 * lines (the baseline subsets). */
static void fit_child(const char *path, const char *cfg_text, int naive, unsigned long limit_runs, int with_hull,
                      result *r) {
    proper_vlmc_counts c;
    proper_vlmc_cfg g;
    proper_vlmc m;
    proper_vlmc_init(&m);
    proper_vlmc_opts o;
    proper_error err;
    double t0 = bench_now(BENCH_WALL);
    int rc;
    proper_vlmc_counts_init(&c);
    c.keep_duplicates = naive;
    if (limit_runs) {
        /* read the first limit_runs lines into memory, then parse them */
        FILE *f = fopen(path, "rb");
        char *buf = NULL;
        size_t len = 0, cap = 0;
        unsigned long lines = 0;
        int ch;
        if (!f) { snprintf(r->msg, sizeof r->msg, "cannot open %s", path); return; }
        while (lines < limit_runs && (ch = getc(f)) != EOF) {
            if (len + 1 >= cap) {
                cap = cap ? 2 * cap : 1 << 20;
                buf = (char *)realloc(buf, cap);
                if (!buf) { fclose(f); snprintf(r->msg, sizeof r->msg, "out of memory"); return; }
            }
            buf[len++] = (char)ch;
            if (ch == '\n') lines++;
        }
        fclose(f);
        t0 = bench_now(BENCH_WALL); /* the subset is timed from memory: reading a prefix is not the workload */
        rc = proper_vlmc_counts_parse_runs(&c, buf, len, path, &err);
        free(buf);
    } else {
        rc = proper_vlmc_counts_read(&c, path, &err);
    }
    proper_vlmc_cfg_init(&g);
    if (rc == PROPER_OK) rc = proper_vlmc_cfg_parse(&g, cfg_text, strlen(cfg_text), "cfg", &err);
    o = proper_vlmc_opts_default();
    if (rc == PROPER_OK) rc = proper_vlmc_fit(&m, &c, &g, &o, &err);
    r->seconds = bench_now(BENCH_WALL) - t0;
    if (rc) {
        proper_error_format(&err, r->msg, sizeof r->msg);
    } else {
        r->ok = 1;
        r->nodes = (unsigned long)m.n_contexts;
        r->order = m.order;
        r->distinct = (unsigned long)c.n_runs;
        if (with_hull) {
            double *v, tail, t1 = bench_now(BENCH_WALL);
            size_t nv;
            if (proper_vlmc_hull(&m, 0, &err) || proper_vlmc_steps_pmf(&m, 0, 0, 0, &v, &nv, &tail, &err)) {
                r->ok = 0;
                proper_error_format(&err, r->msg, sizeof r->msg);
            } else {
                r->states = m.n_states;
                free(v);
            }
            r->hull_seconds = bench_now(BENCH_WALL) - t1;
        }
        proper_vlmc_free(&m);
    }
    proper_vlmc_cfg_free(&g);
    proper_vlmc_counts_free(&c);
    r->peak_mb = peak_rss_mb();
}

/* Runs fit_child in a fresh process so that each peak RSS is its own. */
static result measure(const char *path, const char *cfg_text, int naive, unsigned long limit_runs, int with_hull) {
    result r;
    int fd[2];
    pid_t pid;
    memset(&r, 0, sizeof r);
    fflush(stdout);
    if (pipe(fd) != 0) { snprintf(r.msg, sizeof r.msg, "pipe failed"); return r; }
    pid = fork();
    if (pid < 0) { snprintf(r.msg, sizeof r.msg, "fork failed"); close(fd[0]); close(fd[1]); return r; }
    if (pid == 0) {
        close(fd[0]);
        fit_child(path, cfg_text, naive, limit_runs, with_hull, &r);
        if (write(fd[1], &r, sizeof r) != (ssize_t)sizeof r) _exit(1);
        _exit(0);
    }
    close(fd[1]);
    if (read(fd[0], &r, sizeof r) != (ssize_t)sizeof r) snprintf(r.msg, sizeof r.msg, "child failed");
    close(fd[0]);
    waitpid(pid, NULL, 0);
    return r;
}

static int write_trace(const char *path, const vlmc_program *p, unsigned long runs, int param, uint64_t seed) {
    FILE *f = fopen(path, "wb");
    proper_rng rng;
    int rc;
    if (!f) return 1;
    proper_rng_seed(&rng, seed);
    rc = vlmc_write_runs(p, f, runs, param, &rng);
    return fclose(f) != 0 || rc;
}

int main(void) {
    static const struct { const char *prog; int I; } rows[] = {
        {"double_loop", 10}, {"double_loop", 15}, {"double_loop", 20}, {"double_loop", 30},
        {"nested_loop", 4},  {"nested_loop", 5},  {"nested_loop", 6},  {"nested_loop", 8},
    };
    char dir[] = "/tmp/proper-bench-vlmc-XXXXXX", path[256];
    size_t i;
    int failed = 0;
    double worst_s = 0.0, worst_mb = 0.0;
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    snprintf(path, sizeof path, "%s/trace.runs", dir);

    printf("ProgramToVLMC, thesis Table 5 rows: 10^6 runs, alpha = 1, n_min = 1, CFG given\n");
    printf("%-12s %3s %8s %7s %5s %8s %8s | %8s %8s %8s %8s %7s %7s\n", "program", "I", "distinct", "nodes", "order",
           "time s", "peak MB", "10^5:", "ours", "naive", "naive", "naive/", "naive/");
    printf("%-12s %3s %8s %7s %5s %8s %8s | %8s %8s %8s %8s %7s %7s\n", "", "", "", "", "", "", "", "ours s", "MB", "s",
           "MB", "ours t", "ours m");
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const vlmc_program *p = vlmc_find_program(rows[i].prog);
        result full, small, naive;
        if (write_trace(path, p, 1000000UL, rows[i].I, 42)) { printf("cannot write %s\n", path); failed = 1; break; }
        full = measure(path, p->cfg, 0, 0, 0);
        small = measure(path, p->cfg, 0, 100000UL, 0);
        naive = measure(path, p->cfg, 1, 100000UL, 0);
        if (!full.ok || !small.ok || !naive.ok) {
            printf("%-12s %3d failed: %s%s%s\n", p->title, rows[i].I, full.msg, small.msg, naive.msg);
            failed = 1;
            continue;
        }
        if (full.seconds > worst_s) worst_s = full.seconds;
        if (full.peak_mb > worst_mb) worst_mb = full.peak_mb;
        printf("%-12s %3d %8lu %7lu %5u %8.3f %8.1f | %8.3f %8.1f %8.3f %8.1f %6.1fx %6.1fx\n", p->title, rows[i].I,
               full.distinct, full.nodes, full.order, full.seconds, full.peak_mb, small.seconds, small.peak_mb,
               naive.seconds, naive.peak_mb, naive.seconds / small.seconds, naive.peak_mb / small.peak_mb);
    }
    printf("worst row: %.3f s, %.1f MB (target: < 1.5 s and < 256 MB): %s\n\n", worst_s, worst_mb,
           worst_s < 1.5 && worst_mb < 256.0 && !failed ? "met" : "NOT met");

    printf("Bubble Sort (9 elements), alpha = 1, n_min = 1, 10^5 runs (thesis: 1.8 M nodes):\n");
    {
        const vlmc_program *p = vlmc_find_program("bubble_sort");
        result r;
        if (write_trace(path, p, 100000UL, 9, 42)) {
            failed = 1;
        } else {
            r = measure(path, p->cfg, 0, 0, 1);
            if (!r.ok) { printf("failed: %s\n", r.msg); failed = 1; }
            else
                printf("  fit: %lu distinct runs, %lu nodes, order %u: %.3f s (reading and fitting)\n"
                       "  Markov hull (%lu states) and steps PMF: %.3f s more; peak %.1f MB for all of it\n",
                       r.distinct, r.nodes, r.order, r.seconds, r.states, r.hull_seconds, r.peak_mb);
        }
    }
    remove(path);
    rmdir(dir);
    return failed;
}
