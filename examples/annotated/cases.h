/* cases.h — the six PROPER case studies (cases.c), their input generators
 * (inputs.c) and the counters that make the count log. */
#ifndef PROPER_EXAMPLE_CASES_H
#define PROPER_EXAMPLE_CASES_H

#include "../../src/core.h"

#define CASE_MAX_PARAMS 8

/* case_counts[k]: times construct k's branch was taken / loop body ran in
 * the current run (reset by the driver before each run). */
extern long case_counts[CASE_MAX_PARAMS + 1];
int case_count(int k, int cond);
#define BR(k, cond) case_count((k), (cond) != 0)
#define LP(k, cond) case_count((k), (cond) != 0)

struct device {
    int android, cpu_count, memory_class;
    int freq_readable[8], freq_mhz[8];
};

int distance1(const char *s, int n, const char *t, int m, int *row);
int devPerf(const struct device *d);
int fst(const int *a, int n, int x);
int knapsackDP(const int *w, const int *v, int n, int cap, int *best);
int minPathSum(int *g, int m, int n);
int binarySearch(const int *a, int n, int x);

typedef struct case_study {
    const char *name;     /* the function's name in cases.c */
    int n_params;         /* its conditionals and loops */
    const char *input;    /* how inputs are drawn */
    void (*run_once)(proper_rng *rng); /* draw an input, run the method once */
} case_study;

extern const case_study case_studies[];
extern const int n_case_studies;

const case_study *case_find(const char *name);
/* Runs the method once on a fresh input; counts[1..n_params] get its counts. */
void case_run(const case_study *c, proper_rng *rng, long *counts);

/* A count log (estimate.h) of `runs` fresh executions, built in memory;
 * columns p1..pn. Returns 0 or PROPER_ENOMEM; free with proper_estimate_counts_free. */
struct proper_estimate_counts;
int case_make_log(const case_study *c, proper_rng *rng, long runs, struct proper_estimate_counts *log);

#endif
