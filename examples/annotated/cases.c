/* cases.c — the six case-study methods of Stefanakos, Calinescu & Gerasimou
 * (IST 2023), re-implemented in C, annotated for `proper synth`, and
 * instrumented for the count log.
 *
 * Instrumentation does not change the statement structure: a condition is
 * wrapped as `if (BR(k, cond))` / `while (LP(k, cond))`, which counts one
 * for construct k each time the condition holds (the if-branch is taken or
 * the loop body runs) and returns the condition. So this very file is both
 * the program that writes the log and the source that `proper synth`
 * models; the construct numbers k are the parameters p1..pn in source order
 * within each function.
 *
 * minPathSum carries the rewards of the paper's Fig. 5 model (time 0.01 in
 * each edge loop's body, time 0.03 and cost 0.25 in the inner loop's body),
 * so at the paper's parameters p1=0.0912, p2=0.8181, p3=0.8, p4=p5=0.8181
 * its expected time is the paper's 32504164372/51699390625 = 0.62871...
 * (tests/test_annotated_cases.c). The other methods' reward values are this
 * file's own (time in ms, cost and energy in abstract units): the paper's
 * annotation values for them were not available to us.
 * The input generators draw inputs uniformly as described next to each.
 */
#include "cases.h"

#include <string.h>

long case_counts[CASE_MAX_PARAMS + 1];

int case_count(int k, int cond) {
    if (cond) case_counts[k]++;
    return cond;
}

/* Levenshtein distance of two strings (dynamic programming). */
int distance1(const char *s, int n, const char *t, int m, int *row) {
    int i, j;                                               // @time=0.002
    for (j = 0; LP(1, j <= m); j++) row[j] = j;             // @time=0.003
    for (i = 1; LP(2, i <= n); i++) {                       // @time=0.003
        int diag = row[0];                                  // @time=0.002
        row[0] = i;                                         // @time=0.001
        for (j = 1; LP(3, j <= m); j++) {                   // @time=0.003
            int up = row[j], best = diag + 1;               // @time=0.004
            if (BR(4, s[i - 1] == t[j - 1])) best = diag;   // @time=0.002
            if (BR(5, up + 1 < best)) best = up + 1;        // @time=0.002
            if (BR(6, row[j - 1] + 1 < best)) best = row[j - 1] + 1; // @time=0.002
            diag = up;                                      // @time=0.001
            row[j] = best;                                  // @time=0.001
        }
    }
    return row[m];                                          // @time=0.001
}

/* Telegram's SharedConfig.getDevicePerformanceClass, C control structure. */
int devPerf(const struct device *d) {
    int total_freq = 0, resolved = 0, i, max_freq;          // @time=0.01, @energy=1
    for (i = 0; LP(1, i < d->cpu_count); i++) {             // @time=0.01, @energy=1
        if (BR(2, d->freq_readable[i])) {                   // @time=2.5, @energy=40
            total_freq += d->freq_mhz[i];                   // @time=0.01, @energy=1
            resolved++;                                     // @time=0.01, @energy=1
        }
    }
    max_freq = resolved == 0 ? -1 : (total_freq + resolved - 1) / resolved; // @time=0.02, @energy=1
    if (BR(3, d->android < 21 || d->cpu_count <= 2 || d->memory_class <= 100 || // @time=0.05, @energy=2
              (d->cpu_count <= 4 && max_freq != -1 && max_freq <= 1250) ||
              (d->cpu_count <= 4 && max_freq <= 1600 && d->memory_class <= 128 && d->android <= 21) ||
              (d->cpu_count <= 4 && max_freq <= 1300 && d->memory_class <= 128 && d->android <= 24 &&
               max_freq != -1))) {
        return 0;                                           // @time=0.01, @energy=1
    } else if (BR(4, d->cpu_count < 8 || d->memory_class <= 160 || // @time=0.04, @energy=2
                     (max_freq != -1 && max_freq <= 2050) ||
                     (max_freq == -1 && d->cpu_count == 8 && d->android <= 23))) {
        return 1;                                           // @time=0.01, @energy=1
    } else {
        return 2;                                           // @time=0.01, @energy=1
    }
}

/* fst: index of the first occurrence of x in a[0..n), or -1. */
int fst(const int *a, int n, int x) {
    int i;                                                  // @time=0.001
    for (i = 0; LP(1, i < n); i++) {                        // @time=0.002
        if (BR(2, a[i] == x)) {                             // @time=0.003
            return i;                                       // @time=0.001
        }
    }
    return -1;                                              // @time=0.001
}

/* 0/1 knapsack by dynamic programming over capacities. */
int knapsackDP(const int *w, const int *v, int n, int cap, int *best) {
    int i, c;                                               // @time=0.002, @cost=1
    for (c = 0; LP(1, c <= cap); c++) best[c] = 0;          // @time=0.002, @cost=1
    for (i = 0; LP(2, i < n); i++) {                        // @time=0.003, @cost=1
        for (c = cap; LP(3, c >= w[i]); c--) {              // @time=0.003, @cost=1
            if (BR(4, best[c - w[i]] + v[i] > best[c])) {   // @time=0.004, @cost=2
                best[c] = best[c - w[i]] + v[i];            // @time=0.002, @cost=3
            }
        }
    }
    return best[cap];                                       // @time=0.001, @cost=1
}

/* Minimum path sum from the top-left to the bottom-right of an m x n grid
 * moving right or down (in place). */
int minPathSum(int *g, int m, int n) {
    int i, j;
    if (BR(1, m == 0 || n == 0)) return 0;
    for (i = 1; LP(2, i < m); i++) {
        g[i * n] += g[(i - 1) * n];                         // @time=0.01
    }
    for (j = 1; LP(3, j < n); j++) {
        g[j] += g[j - 1];                                   // @time=0.01
    }
    for (i = 1; LP(4, i < m); i++) {
        for (j = 1; LP(5, j < n); j++) {
            int up = g[(i - 1) * n + j], left = g[i * n + j - 1];
            g[i * n + j] += up < left ? up : left;          // @time=0.03, @cost=0.25
        }
    }
    return g[m * n - 1];
}

/* Index of x in the sorted a[0..n), or -(insertion point) - 1. */
int binarySearch(const int *a, int n, int x) {
    int lo = 0, hi = n - 1;                                 // @time=0.002
    while (LP(1, lo <= hi)) {                               // @time=0.002
        int mid = (lo + hi) >> 1;                           // @time=0.003
        if (BR(2, a[mid] < x)) {                            // @time=0.002
            lo = mid + 1;                                   // @time=0.001
        } else if (BR(3, a[mid] > x)) {                     // @time=0.002
            hi = mid - 1;                                   // @time=0.001
        } else {
            return mid;                                     // @time=0.001
        }
    }
    return -(lo + 1);                                       // @time=0.001
}
