/* Tests for estimate.h: count logs, eq. (2) point estimates through the
 * flow forms (checked against counts from a brute-force simulation of the
 * program), normal and Wilson intervals (closed forms), coverage, errors. */
#define PROPER_IMPLEMENTATION
#include "../src/estimate.h"
#include "test.h"
#include <stdio.h>

/* p1: outer if; p2: while in the then-branch; p3: if in its body;
 * p4: for(;;) in the else-branch; p5: the break inside it. */
static const char *nested_src =
    "void f() {\n"
    "  if (a()) {            // @time=1\n"
    "    while (b()) {       // @time=2\n"
    "      if (c()) x();     // @time=3\n"
    "    }\n"
    "  } else {\n"
    "    for (;;) {          // @time=4\n"
    "      if (d()) break;   // @time=5\n"
    "    }\n"
    "  }\n"
    "}\n";

/* Runs the program f with branch probabilities q and returns per-run counts
 * N1..N5 (taken counts), as an instrumented run would log them. */
static void simulate_f(proper_rng *rng, const double *q, double *n) {
    int i;
    for (i = 0; i < 5; i++) n[i] = 0;
    if (proper_rng_uniform(rng) < q[0]) {
        n[0]++;
        while (proper_rng_uniform(rng) < q[1]) {
            n[1]++;
            if (proper_rng_uniform(rng) < q[2]) n[2]++;
        }
    } else {
        for (;;) {
            n[3]++;
            if (proper_rng_uniform(rng) < q[4]) { n[4]++; break; }
        }
    }
}

static int build_log(proper_estimate_counts *log, proper_rng *rng, const double *q, int runs, double *totals) {
    char *text = (char *)malloc((size_t)runs * 80 + 64);
    size_t k = 0;
    int r, i, rc;
    proper_error e;
    k += (size_t)sprintf(text + k, "run,p1,p2,p3,p4,p5\n");
    for (i = 0; i < 5; i++) totals[i] = 0;
    for (r = 0; r < runs; r++) {
        double n[5];
        simulate_f(rng, q, n);
        for (i = 0; i < 5; i++) totals[i] += n[i];
        k += (size_t)sprintf(text + k, "%d,%g,%g,%g,%g,%g\n", r, n[0], n[1], n[2], n[3], n[4]);
    }
    rc = proper_estimate_counts_parse(log, text, k, "log.csv", &e);
    free(text);
    return rc;
}

/* Eq. (2) written out by hand for this program: p1 = N1/R, p2 = N2/(N1+N2),
 * p3 = N3/N2, p4 = N4/((R-N1) + (N4-N5)) (entries plus returns from
 * iterations that did not break), p5 = N5/N4. */
static void test_point_estimates_eq2(void) {
    proper_synth_model m;
    proper_synth_init(&m);
    proper_estimate_counts log;
    proper_estimate_counts_init(&log);
    proper_estimate est;
    proper_estimate_init(&est);
    proper_error e;
    proper_rng rng;
    double q[5] = {0.4, 0.7, 0.3, 1.0, 0.2}, N[5], R = 5000;
    proper_rng_seed(&rng, 11);
    CHECK_INT(proper_synth_parse(&m, nested_src, strlen(nested_src), "f.c", "f", &e), 0);
    CHECK_INT(m.n_params, 5);
    CHECK_INT(build_log(&log, &rng, q, (int)R, N), 0);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_REL(est.p[0], N[0] / R, 1e-14);
    CHECK_REL(est.p[1], N[1] / (N[0] + N[1]), 1e-14);
    CHECK_REL(est.p[2], N[2] / N[1], 1e-14);
    CHECK_REL(est.p[3], N[3] / ((R - N[0]) + (N[3] - N[4])), 1e-14);
    CHECK_REL(est.p[3], 1.0, 1e-14);
    CHECK_REL(est.p[4], N[4] / N[3], 1e-14);
    CHECK_REL(est.reached[2], N[1], 1e-12);
    CHECK_REL(est.per_param_confidence, pow(0.95, 1.0 / 5), 1e-14);
    proper_estimate_free(&est);
    proper_estimate_counts_free(&log);
    proper_synth_free(&m);
}

/* One top-level branch: the normal interval is mean ± z sd/√R of the 0/1
 * counts (z = Φ⁻¹(0.975) = 1.959963984540054 with m = 1), and Wilson's is
 * the textbook score interval. */
static void test_intervals_closed_form(void) {
    const char *src = "void g() {\n  if (c()) x(); // @time=1\n}\n";
    const char *csv = "p1\n1\n0\n1\n1\n0\n1\n1\n1\n0\n1\n";
    proper_synth_model m;
    proper_synth_init(&m);
    proper_estimate_counts log;
    proper_estimate_counts_init(&log);
    proper_estimate est;
    proper_estimate_init(&est);
    proper_error e;
    double n = 10, k = 7, mean = k / n, sd = sqrt((k * (1 - mean) * (1 - mean) + (n - k) * mean * mean) / (n - 1));
    double z = 1.959963984540054, z2 = z * z;
    double center = (k + z2 / 2) / (n + z2), half = z / (n + z2) * sqrt(k * (n - k) / n + z2 / 4);
    CHECK_INT(proper_synth_parse(&m, src, strlen(src), "g.c", "g", &e), 0);
    CHECK_INT(proper_estimate_counts_parse(&log, csv, strlen(csv), "g.csv", &e), 0);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_REL(est.p[0], 0.7, 1e-15);
    CHECK_REL(est.lo[0], mean - z * sd / sqrt(n), 1e-12);
    CHECK_REL(est.hi[0], fmin(1.0, mean + z * sd / sqrt(n)), 1e-12);
    proper_estimate_free(&est);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_WILSON, &e), 0);
    CHECK_REL(est.lo[0], center - half, 1e-12);
    CHECK_REL(est.hi[0], center + half, 1e-12);
    proper_estimate_free(&est);
    proper_estimate_counts_free(&log);
    proper_synth_free(&m);
}

/* Coverage: over 300 independent logs of 400 runs, the 95% property
 * interval of the expected time must contain the true expected time in at
 * least 95% of logs (it is conservative: interval arithmetic on a box). */
static void test_property_interval_coverage(void) {
    proper_synth_model m;
    proper_synth_init(&m);
    proper_error e;
    proper_rng rng;
    double q[5] = {0.4, 0.7, 0.3, 1.0, 0.2}, truth, N[5];
    int rep, covered = 0, reps = 300;
    proper_rng_seed(&rng, 99);
    CHECK_INT(proper_synth_parse(&m, nested_src, strlen(nested_src), "f.c", "f", &e), 0);
    CHECK_INT(proper_synth_expected_reward(&m, 0, q, &truth, &e), 0);
    /* closed form: 1 + 0.4*(2/(1-0.7) + 3*0.7/(1-0.7)) + 0.6*(4+5)/0.2 */
    CHECK_REL(truth, 1 + 0.4 * (2 / 0.3 + 3 * 0.7 / 0.3) + 0.6 * 9 / 0.2, 1e-13);
    for (rep = 0; rep < reps; rep++) {
        proper_estimate_counts log;
        proper_estimate_counts_init(&log);
        proper_estimate est;
        proper_estimate_init(&est);
        double point, lo, hi;
        if (build_log(&log, &rng, q, 400, N)) { CHECK(0); break; }
        if (proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e) ||
            proper_estimate_property(&m, 0, &est, &point, &lo, &hi, &e)) { CHECK(0); proper_estimate_counts_free(&log); break; }
        CHECK(lo <= point && point <= hi);
        if (lo <= truth && truth <= hi) covered++;
        proper_estimate_free(&est);
        proper_estimate_counts_free(&log);
    }
    printf("  coverage %d/%d\n", covered, reps);
    CHECK(covered >= (int)(0.95 * reps));
    proper_synth_free(&m);
}

static void expect_log_error(const char *csv, int code, int line, int col, const char *msg) {
    proper_estimate_counts log;
    proper_estimate_counts_init(&log);
    proper_error e;
    proper_error_clear(&e);
    CHECK_INT(proper_estimate_counts_parse(&log, csv, strlen(csv), "bad.csv", &e), code);
    CHECK_INT(e.line, line);
    CHECK_INT(e.col, col);
    CHECK_CONTAINS(e.message, msg);
}

static void test_log_errors(void) {
    proper_synth_model m;
    proper_synth_init(&m);
    proper_estimate_counts log;
    proper_estimate_counts_init(&log);
    proper_estimate est;
    proper_estimate_init(&est);
    proper_error e;
    const char *inconsistent = "p1,p2,p3,p4,p5\n1,2,3,0,0\n0,0,0,1,1\n";
    const char *never_entered = "p1,p2,p3,p4,p5\n1,2,1,0,0\n0,2,0,1,1\n";
    expect_log_error("", PROPER_EPARSE, 1, 1, "header");
    expect_log_error("p1,p2\n", PROPER_EPARSE, 2, 1, "no executions");
    expect_log_error("p1,p2\n1,2\n3,-4\n", PROPER_ERANGE, 3, 3, "negative");
    expect_log_error("p1,p2\n1,2\n3\n", PROPER_EPARSE, 3, 2, "1 more column");
    expect_log_error("p1,p2\n1,2,5\n", PROPER_EPARSE, 2, 4, "more fields");
    expect_log_error("p1,p2\n1,x\n", PROPER_EPARSE, 2, 3, "integer");
    expect_log_error("p1,p2\n1,2.5\n", PROPER_EPARSE, 2, 4, "integer");
    CHECK_INT(proper_synth_parse(&m, nested_src, strlen(nested_src), "f.c", "f", &e), 0);
    CHECK_INT(proper_estimate_counts_parse(&log, "p1,p2\n1,2\n0,0\n", 14, "two.csv", &e), 0);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_EUNDEFINED);
    CHECK_CONTAINS(e.message, "p3");
    proper_estimate_counts_free(&log);
    /* run 1 takes the inner if 3 times in 2 loop iterations */
    CHECK_INT(proper_estimate_counts_parse(&log, inconsistent, strlen(inconsistent), "inc.csv", &e), 0);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_ERANGE);
    CHECK_INT(e.line, 2);
    CHECK_CONTAINS(e.message, "p3");
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 1.5, PROPER_ESTIMATE_NORMAL, &e), PROPER_ERANGE);
    proper_estimate_counts_free(&log);
    /* run 2 took the else branch (p1 = 0) yet its while loop in the
     * then-branch ran twice: a loop that was never entered cannot iterate */
    CHECK_INT(proper_estimate_counts_parse(&log, never_entered, strlen(never_entered), "ent.csv", &e), 0);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_ERANGE);
    CHECK_INT(e.line, 3);
    CHECK_CONTAINS(e.message, "never entered");
    proper_estimate_counts_free(&log);
    proper_synth_free(&m);
}

/* Artifact logs: a branch file of 0/1 gives p = mean; a loop file of body
 * counts per entry gives p = mean/(1+mean) (eq. 2 with N_{i-1} = entries). */
static void test_artifact_logs(void) {
    const char *src = "void h() {\n  if (c()) x();   // @time=1\n  while (w()) y(); // @time=2\n}\n";
    const char *f1 = "build/tests/artifact_n1.csv", *f2 = "build/tests/artifact_n2.csv";
    const char *files[2];
    FILE *fp;
    proper_synth_model m;
    proper_synth_init(&m);
    proper_estimate est;
    proper_estimate_init(&est);
    proper_error e;
    files[0] = f1; files[1] = f2;
    fp = fopen(f1, "w"); fputs("1\n0\n1\n1\n0\n", fp); fclose(fp);
    fp = fopen(f2, "w"); fputs("3\n0\n5\n4\n0\n", fp); fclose(fp);
    CHECK_INT(proper_synth_parse(&m, src, strlen(src), "h.c", "h", &e), 0);
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, NULL, 0.9, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_REL(est.p[0], 0.6, 1e-15);
    CHECK_REL(est.p[1], 12.0 / (5 + 12), 1e-15);
    CHECK_REL(est.samples[0], 5, 0);
    CHECK_REL(est.samples[1], 5, 0);
    CHECK(est.lo[1] < est.p[1] && est.p[1] < est.hi[1] && est.hi[1] < 1);
    proper_estimate_free(&est);
    fp = fopen(f1, "w"); fputs("1\n2\n", fp); fclose(fp);
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, NULL, 0.9, PROPER_ESTIMATE_NORMAL, &e), PROPER_ERANGE);
    fp = fopen(f1, "w"); fputs("1\n-1\n", fp); fclose(fp);
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, NULL, 0.9, PROPER_ESTIMATE_NORMAL, &e), PROPER_ERANGE);
    CHECK_INT(e.line, 2);
    remove(f1); remove(f2);
    proper_synth_free(&m);
}

/* A count log given as a trace: counters are the columns (summed within a
 * record; absent ones count 0), records the rows, lines the records' lines. */
static void test_counts_from_trace(void) {
    const char *text = "proper-trace 1\nR 1\nN p1 2\nN p2 1\nN p1 1\nE\nR 2\nN p2 4\nE\n";
    proper_estimate_counts log;
    proper_error e;
    size_t c1, c2;
    proper_estimate_counts_init(&log);
    CHECK_INT(proper_estimate_counts_parse(&log, text, strlen(text), "t.trace", &e), 0);
    CHECK_INT(log.n_runs, 2);
    CHECK_INT(log.n_cols, 2);
    c1 = strcmp(log.names[0], "p1") == 0 ? 0 : 1;
    c2 = 1 - c1;
    CHECK_STR(log.names[c1], "p1");
    CHECK_STR(log.names[c2], "p2");
    CHECK_REL(log.values[c1], 3, 0);
    CHECK_REL(log.values[c2], 1, 0);
    CHECK_REL(log.values[2 + c1], 0, 0);
    CHECK_REL(log.values[2 + c2], 4, 0);
    CHECK_INT(log.lines[1], 7);
    CHECK_STR(log.file, "t.trace");
    proper_estimate_counts_free(&log);
}

/* Readers and estimators leave their output unchanged on failure and
 * replace it on success. */
static void test_output_rule(void) {
    const char *src = "void g() {\n  if (c()) x(); // @time=1\n}\n";
    proper_synth_model m;
    proper_estimate_counts log;
    proper_estimate est;
    proper_error e;
    proper_synth_init(&m);
    proper_estimate_counts_init(&log);
    proper_estimate_init(&est);
    CHECK_INT(proper_synth_parse(&m, src, strlen(src), "g.c", "g", &e), 0);
    CHECK_INT(proper_estimate_counts_parse(&log, "p1\n1\n0\n1\n1\n", 11, "a.csv", &e), 0);
    CHECK_INT(proper_estimate_counts_parse(&log, "p1\n1\n-1\n", 8, "b.csv", &e), PROPER_ERANGE);
    CHECK_INT(proper_estimate_counts_read(&log, "build/tests/no/such/log.csv", &e), PROPER_EIO);
    CHECK_INT(log.n_runs, 4);
    CHECK_STR(log.file, "a.csv");
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_REL(est.p[0], 0.75, 1e-15);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 1.5, PROPER_ESTIMATE_NORMAL, &e), PROPER_ERANGE);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, 7, &e), PROPER_EINVAL);
    CHECK_INT(est.n_params, 1);
    CHECK_REL(est.p[0], 0.75, 1e-15);
    CHECK_INT(proper_estimate_counts_parse(&log, "p1\n0\n0\n0\n1\n", 11, "c.csv", &e), 0);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_REL(est.p[0], 0.25, 1e-15);
    proper_estimate_free(&est);
    proper_estimate_counts_free(&log);
    proper_synth_free(&m);
}

/* Writes an artifact file: for each k, reps[k] lines holding values[k],
 * interleaved (k = 0, 1, ..., 0, 1, ...) until all are written. */
static void write_counts(const char *path, const long *values, const long *reps, int k) {
    long left[8], more = 1;
    int i;
    FILE *fp = fopen(path, "w");
    for (i = 0; i < k; i++) left[i] = reps[i];
    while (more) {
        more = 0;
        for (i = 0; i < k; i++)
            if (left[i] > 0) { fprintf(fp, "%ld\n", values[i]); left[i]--; more = 1; }
    }
    fclose(fp);
}

/* The shape of the artifact's FastSineTransformer.fst: two guards whose
 * `throw` spans three lines with `//@cost=5` on the last, an early return,
 * two loops. */
static const char *fst_src =
    "class T {\n"
    "  double[] fst(double[] f) {\n"
    "    double[] t = new double[f.length];\n"
    "    if (!isPowerOfTwo(f.length)) {\n"
    "      throw new IllegalArgumentException(\n"
    "          \"not a power of two\",\n"
    "          Integer.valueOf(f.length)); //@cost=5\n"
    "    }\n"
    "    if (f[0] != 0.0) {\n"
    "      throw new IllegalArgumentException(\n"
    "          \"first element not zero\",\n"
    "          Double.valueOf(f[0])); //@cost=5\n"
    "    }\n"
    "    int n = f.length;\n"
    "    if (n == 1) {\n"
    "      t[0] = 0.0;\n"
    "      return t;\n"
    "    }\n"
    "    int i = 1;\n"
    "    while (i < (n >> 1)) {\n"
    "      double a = Math.sin(i * Math.PI / n) * (f[i] + f[n - i]); //@time=1.5\n"
    "      i++;\n"
    "    }\n"
    "    int j = 1;\n"
    "    while (j < (n >> 1)) {\n"
    "      t[2 * j] = -y[j];\n"
    "      j++;\n"
    "    }\n"
    "    return t;\n"
    "  }\n"
    "}\n";

/* Issue 17 item 1 end to end, with the artifact's fst log sizes (100000
 * runs; n1 31464 ones; n2 68536 lines, 6921 ones; n3 61615 lines, 4677
 * ones; n4, n5 56938 lines). Each throw ends the run, so the expected cost
 * is 5 (N1 + N2) / N0 = 1.91925 exactly (proper said 6.50755: the @cost of
 * the first throw went to the second `if`, the second to `int n`), and the
 * expected time 1.5 T4 / N0 (loop body runs per run). Swapping two files
 * no longer passes: their line counts contradict the model. */
static void test_artifact_fst(void) {
    const char *fn[5] = {"build/tests/fst_n1.csv", "build/tests/fst_n2.csv", "build/tests/fst_n3.csv",
                         "build/tests/fst_n4.csv", "build/tests/fst_n5.csv"};
    const char *files[5];
    long one[2] = {1, 0}, loopv[3] = {3, 0, 1};
    long r1[2] = {31464, 68536}, r2[2] = {6921, 61615}, r3[2] = {4677, 56938}, r4[3] = {19093, 19036, 18809};
    proper_synth_model m;
    proper_estimate est;
    proper_error e;
    double cost, time, lo, hi;
    int k;
    proper_synth_init(&m);
    proper_estimate_init(&est);
    write_counts(fn[0], one, r1, 2);
    write_counts(fn[1], one, r2, 2);
    write_counts(fn[2], one, r3, 2);
    write_counts(fn[3], loopv, r4, 3);
    write_counts(fn[4], loopv, r4, 3);
    for (k = 0; k < 5; k++) files[k] = fn[k];
    CHECK_INT(proper_synth_parse(&m, fst_src, strlen(fst_src), "T.java", "fst", &e), 0);
    CHECK_INT(m.n_params, 5);
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_INT(proper_estimate_property(&m, proper_synth_reward_index(&m, "cost"), &est, &cost, &lo, &hi, &e), 0);
    CHECK_REL(cost, 5.0 * (31464 + 6921) / 100000, 1e-12);
    CHECK(lo < cost && cost < hi);
    CHECK_INT(proper_estimate_property(&m, proper_synth_reward_index(&m, "time"), &est, &time, &lo, &hi, &e), 0);
    CHECK_REL(time, 1.5 * (3 * 19093 + 18809) / 100000.0, 1e-12);
    files[1] = fn[2];
    files[2] = fn[1];
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_EINVAL);
    CHECK_CONTAINS(e.message, "61615 line(s), but the model (conditional p2 at source line 9)");
    CHECK_CONTAINS(e.message, "reached 68536 time(s)");
    proper_estimate_free(&est);
    proper_synth_free(&m);
    for (k = 0; k < 5; k++) remove(fn[k]);
}

/* Issue 17 item 3: minPathSum's nested loop (p5 in p4, Fig. 1 of the paper)
 * given without a pairing is paired with its parent from the model. Runs
 * over an m x n grid log n-1, m-1, m-1 and (m-1)(n-1) body runs; the
 * expected time is (0.01 (T2 + T3) + 0.03 T5) / N0 and the cost
 * 0.25 T5 / N0 (totals over the 10 runs, one of which returns early). As a
 * plain loop, p5 = T5 / (T5 + 9) gave a different time (and so did 2.565
 * against 0.634 on the artifact's logs). */
static void test_artifact_nested_pairing(void) {
    const char *src =
        "int minPathSum(int[][] grid) {\n"
        "  if (grid.length == 0) return 0;\n"
        "  int m = grid.length, n = grid[0].length;\n"
        "  int i = 0;\n"
        "  while (i < n - 1) {\n"
        "    dp[0][i + 1] = dp[0][i] + grid[0][i + 1]; //@time=0.01\n"
        "    i++;\n"
        "  }\n"
        "  i = 0;\n"
        "  while (i < m - 1) {\n"
        "    dp[i + 1][0] = dp[i][0] + grid[i + 1][0]; //@time=0.01\n"
        "    i++;\n"
        "  }\n"
        "  i = 1;\n"
        "  while (i < m) {\n"
        "    int j = 1;\n"
        "    while (j < n) {\n"
        "      dp[i][j] = Math.min(dp[i - 1][j], dp[i][j - 1]) + grid[i][j]; //@cost=0.25,@time=0.03\n"
        "      j++;\n"
        "    }\n"
        "    i++;\n"
        "  }\n"
        "  return dp[m - 1][n - 1];\n"
        "}\n";
    int mm[9] = {2, 3, 4, 1, 5, 3, 2, 4, 3}, nn[9] = {3, 3, 2, 5, 4, 1, 2, 4, 5};
    const char *fn[5] = {"build/tests/mps_n1.csv", "build/tests/mps_n2.csv", "build/tests/mps_n3.csv",
                         "build/tests/mps_n4.csv", "build/tests/mps_n5.csv"};
    const char *files[5];
    int parent[5] = {-1, -1, -1, -1, -1};
    double t2 = 0, t3 = 0, t5 = 0, time, cost, lo, hi;
    proper_synth_model m;
    proper_estimate est;
    proper_error e;
    FILE *fp[5];
    int k;
    proper_synth_init(&m);
    proper_estimate_init(&est);
    for (k = 0; k < 5; k++) { files[k] = fn[k]; fp[k] = fopen(fn[k], "w"); }
    fputs("1\n", fp[0]);
    for (k = 0; k < 9; k++) {
        fprintf(fp[0], "0\n");
        fprintf(fp[1], "%d\n", nn[k] - 1);
        fprintf(fp[2], "%d\n", mm[k] - 1);
        fprintf(fp[3], "%d\n", mm[k] - 1);
        fprintf(fp[4], "%d\n", (mm[k] - 1) * (nn[k] - 1));
        t2 += nn[k] - 1; t3 += mm[k] - 1; t5 += (mm[k] - 1) * (nn[k] - 1);
    }
    for (k = 0; k < 5; k++) fclose(fp[k]);
    CHECK_INT(proper_synth_parse(&m, src, strlen(src), "D.java", "minPathSum", &e), 0);
    CHECK_INT(m.n_params, 5);
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_REL(est.p[4], t5 / (t5 + t3), 1e-15);
    CHECK_INT(proper_estimate_property(&m, proper_synth_reward_index(&m, "time"), &est, &time, &lo, &hi, &e), 0);
    CHECK_REL(time, (0.01 * (t2 + t3) + 0.03 * t5) / 10, 1e-12);
    CHECK_INT(proper_estimate_property(&m, proper_synth_reward_index(&m, "cost"), &est, &cost, &lo, &hi, &e), 0);
    CHECK_REL(cost, 0.25 * t5 / 10, 1e-12);
    /* the model's pairing, given explicitly, is the same */
    parent[4] = 3;
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, parent, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_REL(est.p[4], t5 / (t5 + t3), 1e-15);
    /* a pairing that contradicts the model is refused, saying what the model has */
    parent[4] = 2;
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, parent, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_EINVAL);
    CHECK_CONTAINS(e.message, "p5 is paired with p3, but in the model the loop p5 (source line 17) is inside the loop p4 (source line 15)");
    parent[4] = -1;
    parent[2] = 1;
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, parent, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_EINVAL);
    CHECK_CONTAINS(e.message, "is not inside a loop: drop the pairing");
    /* the previous estimate is unchanged by the failures */
    CHECK_REL(est.p[4], t5 / (t5 + t3), 1e-15);
    /* a nested file that does not pair line by line */
    fp[4] = fopen(fn[4], "w"); fputs("1\n2\n", fp[4]); fclose(fp[4]);
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_EINVAL);
    CHECK_CONTAINS(e.message, "nested in p4");
    proper_estimate_free(&est);
    proper_synth_free(&m);
    for (k = 0; k < 5; k++) remove(fn[k]);
}

/* Values impossible for the construct: a conditional's 2 (outside loops:
 * "is this a loop's file?"; inside a loop: 0/1 per reach or per-run totals
 * paired with the loop's lines, each total at most the loop's iterations),
 * a do-while body that ran 0 times. A do-while's body runs N times per
 * entry with the condition taken N - 1 times: p = (T - E) / T, so the
 * expected body runs are T / E (here 10 / 4); the plain-loop formula said
 * T / (T + E) and 3.5 runs. */
static void test_artifact_impossible_values(void) {
    const char *br = "void b() {\n  if (c()) x(); // @t=1\n}\n";
    const char *inloop = "void k() {\n  while (a()) {\n    if (b()) x(); // @t=1\n  }\n}\n";
    const char *dowhile = "void d() {\n  do {\n    x(); // @time=1\n  } while (c());\n}\n";
    const char *f1 = "build/tests/imp_n1.csv", *f2 = "build/tests/imp_n2.csv";
    const char *files[2];
    proper_synth_model m;
    proper_estimate est;
    proper_error e;
    FILE *fp;
    double time, lo, hi;
    proper_synth_init(&m);
    proper_estimate_init(&est);
    files[0] = f1; files[1] = f2;
    fp = fopen(f1, "w"); fputs("1\n0\n2\n0\n", fp); fclose(fp);
    CHECK_INT(proper_synth_parse(&m, br, strlen(br), "b.c", "b", &e), 0);
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_ERANGE);
    CHECK_INT(e.line, 3);
    CHECK_CONTAINS(e.message, "is this a loop's file?");
    fp = fopen(f1, "w"); fputs("3\n2\n", fp); fclose(fp);
    fp = fopen(f2, "w"); fputs("2\n1\n", fp); fclose(fp);
    CHECK_INT(proper_synth_parse(&m, inloop, strlen(inloop), "k.c", "k", &e), 0);
    /* per-run totals, one line per line of the loop's file: the ratio of totals 3/5 */
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_REL(est.p[1], 0.6, 1e-15);
    fp = fopen(f2, "w"); fputs("2\n3\n", fp); fclose(fp);
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_ERANGE);
    CHECK_INT(e.line, 2);
    CHECK_CONTAINS(e.message, "iterated 2 time(s)");
    fp = fopen(f2, "w"); fputs("2\n0\n1\n", fp); fclose(fp);
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_ERANGE);
    CHECK_CONTAINS(e.message, "or per-run totals with one line per line of p1's file (it has 2, this 3)");
    /* one 0/1 line per reach (5 reaches: the loop's 3 + 2 body runs) is the format */
    fp = fopen(f2, "w"); fputs("1\n0\n1\n1\n0\n", fp); fclose(fp);
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_REL(est.p[1], 0.6, 1e-15);
    fp = fopen(f1, "w"); fputs("1\n2\n3\n4\n", fp); fclose(fp);
    CHECK_INT(proper_synth_parse(&m, dowhile, strlen(dowhile), "d.c", "d", &e), 0);
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_REL(est.p[0], 0.6, 1e-15);
    CHECK_INT(proper_estimate_property(&m, 0, &est, &time, &lo, &hi, &e), 0);
    CHECK_REL(time, 2.5, 1e-13);
    fp = fopen(f1, "w"); fputs("1\n0\n3\n", fp); fclose(fp);
    CHECK_INT(proper_estimate_from_artifact(&est, &m, files, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_ERANGE);
    CHECK_INT(e.line, 2);
    CHECK_CONTAINS(e.message, "do-while");
    proper_estimate_free(&est);
    proper_synth_free(&m);
    remove(f1); remove(f2);
}

/* A per-run log whose columns do not fit the model: p6 of a 1-parameter
 * model (another version of the code), or p1 and n1 together. */
static void test_log_columns_fit_model(void) {
    const char *src = "void g() {\n  if (c()) x(); // @time=1\n}\n";
    const char *extra = "p1,p6\n1,0\n0,1\n", *dup = "p1,n1\n1,1\n0,0\n";
    proper_synth_model m;
    proper_estimate_counts log;
    proper_estimate est;
    proper_error e;
    proper_synth_init(&m);
    proper_estimate_counts_init(&log);
    proper_estimate_init(&est);
    CHECK_INT(proper_synth_parse(&m, src, strlen(src), "g.c", "g", &e), 0);
    CHECK_INT(proper_estimate_counts_parse(&log, extra, strlen(extra), "x.csv", &e), 0);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_EINVAL);
    CHECK_CONTAINS(e.message, "column 'p6', but the model of g has 1");
    CHECK_INT(proper_estimate_counts_parse(&log, dup, strlen(dup), "x.csv", &e), 0);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_EINVAL);
    CHECK_CONTAINS(e.message, "columns 'p1' and 'n1' both count p1");
    proper_estimate_counts_free(&log);
    proper_synth_free(&m);
}

/* Issue 14: a loop that never ran in 4 runs. The normal interval of its
 * count has zero width (sd 0): flagged, so the caller can say so. Wilson's
 * interval, now for loops too (0 body runs in 4 condition visits), is
 * [0, z^2/(4 + z^2)] (the score interval at k = 0), and the time interval
 * follows from E[time](p) = 1 + 2/(1-p) + 3p/(1-p) + 4 at its ends. */
static void test_zero_counts_not_degenerate(void) {
    const char *src =
        "int f(int n) {\n  int s = 0;        // @time=1\n  while (n > 0) {   // @time=2\n"
        "    s += n--;       // @time=3\n  }\n  return s;         // @time=4\n}\n";
    const char *zeros = "run,p1\n1,0\n2,0\n3,0\n4,0\n";
    double z = 1.959963984540054, up = z * z / (4 + z * z), point, lo, hi;
    proper_synth_model m;
    proper_estimate_counts log;
    proper_estimate est;
    proper_error e;
    proper_synth_init(&m);
    proper_estimate_counts_init(&log);
    proper_estimate_init(&est);
    CHECK_INT(proper_synth_parse(&m, src, strlen(src), "f.c", "f", &e), 0);
    CHECK_INT(proper_estimate_counts_parse(&log, zeros, strlen(zeros), "z.csv", &e), 0);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_INT(est.zero_width[0], 1);
    CHECK_REL(est.hi[0], 0, 0);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_WILSON, &e), 0);
    CHECK_INT(est.zero_width[0], 0);
    CHECK_REL(est.lo[0], 0, 0);
    CHECK_REL(est.hi[0], up, 1e-12);
    CHECK_INT(proper_estimate_property(&m, 0, &est, &point, &lo, &hi, &e), 0);
    CHECK_REL(point, 7, 1e-15);
    CHECK_REL(lo, 7, 1e-15);
    CHECK_REL(hi, 1 + 2 / (1 - up) + 3 * up / (1 - up) + 4, 1e-12);
    proper_estimate_free(&est);
    proper_estimate_counts_free(&log);
    proper_synth_free(&m);
}

/* Issue 17 item 5: the artifact's recursive binarySearch (Fig. 14 of the
 * paper), modelled with the tail call as a jump back to the entry, against
 * a simulation of the program: sorted arrays a[i] = 2i of length U{1..16},
 * keys U{0..2n} (odd keys are absent). Artifact logs have one line per
 * call that reaches each conditional. The point estimate equals the
 * simulated runs' mean time exactly (the visit counts of a chain whose
 * probabilities are the logged ratios reproduce the logged totals), and the
 * 95% interval holds the true mean (10^6 simulated runs) in at least 94% of
 * 200 logs of 300 runs. A per-run count log cannot say how many calls a run
 * made: refused. */
static const char *search_src =
    "class BinarySearch {\n"
    "  public int search(int array[], int key, int left, int right) {\n"
    "    if (right < left) {\n"
    "      return -1;\n"
    "    }\n"
    "    int median = (left + right) >>> 1;\n"
    "    if (Integer.compare(key, array[median]) == 0) { //@time=0.0238\n"
    "      return median;\n"
    "    } else {\n"
    "      if (Integer.compare(key, array[median]) < 0) { //@time=0.0238\n"
    "        return search(array, key, left, median - 1);\n"
    "      } else {\n"
    "        return search(array, key, median + 1, right);\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

/* One run of the search on a fresh input; writes its lines (files may be
 * NULL) and returns its time. */
static double simulate_search(proper_rng *rng, FILE **f) {
    int n = 1 + (int)proper_rng_below(rng, 16), key = (int)proper_rng_below(rng, (uint64_t)(2 * n + 1));
    int left = 0, right = n - 1;
    double time = 0;
    for (;;) {
        int median, found, less;
        if (f) fprintf(f[0], "%d\n", right < left);
        if (right < left) return time;
        median = (left + right) / 2;
        found = key == 2 * median;
        time += 0.0238;
        if (f) fprintf(f[1], "%d\n", found);
        if (found) return time;
        less = key < 2 * median;
        time += 0.0238;
        if (f) fprintf(f[2], "%d\n", less);
        if (less) right = median - 1;
        else left = median + 1;
    }
}

static void test_recursive_search_vs_simulation(void) {
    const char *fn[3] = {"build/tests/bs_n1.csv", "build/tests/bs_n2.csv", "build/tests/bs_n3.csv"};
    const char *csv = "p1,p2,p3\n0,1,0\n1,0,1\n";
    proper_synth_model m;
    proper_estimate est;
    proper_estimate_counts log;
    proper_error e;
    proper_rng rng;
    double truth = 0, sum, point, lo, hi;
    int k, rep, covered = 0, reps = 200, runs = 300;
    long r;
    FILE *f[3];
    proper_synth_init(&m);
    proper_estimate_init(&est);
    proper_estimate_counts_init(&log);
    CHECK_INT(proper_synth_parse(&m, search_src, strlen(search_src), "BinarySearch.java", "search", &e), 0);
    CHECK_INT(m.n_params, 3);
    proper_rng_seed(&rng, 2023);
    for (r = 0; r < 1000000; r++) truth += simulate_search(&rng, NULL);
    truth /= 1000000;
    for (rep = 0; rep < reps; rep++) {
        for (k = 0; k < 3; k++) f[k] = fopen(fn[k], "w");
        for (sum = 0, r = 0; r < runs; r++) sum += simulate_search(&rng, f);
        for (k = 0; k < 3; k++) fclose(f[k]);
        if (proper_estimate_from_artifact(&est, &m, fn, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e) ||
            proper_estimate_property(&m, 0, &est, &point, &lo, &hi, &e)) {
            CHECK(0);
            break;
        }
        if (rep == 0) CHECK_REL(point, sum / runs, 1e-12);
        covered += lo <= truth && truth <= hi;
    }
    printf("  truth %.6g; 95%% interval covered it in %d/%d logs\n", truth, covered, reps);
    CHECK(covered >= 0.94 * reps);
    CHECK_INT(proper_estimate_counts_parse(&log, csv, strlen(csv), "bs.csv", &e), 0);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_EUNSUPPORTED);
    CHECK_CONTAINS(e.message, "search is recursive (the tail call at source line 11)");
    proper_estimate_counts_free(&log);
    proper_estimate_free(&est);
    proper_synth_free(&m);
    for (k = 0; k < 3; k++) remove(fn[k]);
}

/* A function that starts with its loop: the loop is entered once per run
 * from the function's entry, not from another statement. Every log of such
 * a function was refused ("ran 3 times but the other counts say it was
 * never entered"), and its artifact file would have been held to 0 lines.
 * Runs of 3, 0, 5 and 4 iterations visit the header 16 times in 4 runs:
 * E[time] = 4 (= mean iterations + 1). */
static void test_loop_first_statement(void) {
    const char *src = "void f() {\n  while (a()) x(); // @time=1\n}\n";
    const char *csv = "p1\n3\n0\n5\n4\n";
    const char *fn = "build/tests/first_n1.csv";
    proper_synth_model m;
    proper_estimate_counts log;
    proper_estimate est;
    proper_error e;
    double point, lo, hi;
    FILE *fp;
    proper_synth_init(&m);
    proper_estimate_counts_init(&log);
    proper_estimate_init(&est);
    CHECK_INT(proper_synth_parse(&m, src, strlen(src), "f.c", "f", &e), 0);
    CHECK_INT(proper_estimate_counts_parse(&log, csv, strlen(csv), "f.csv", &e), 0);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    if (est.n_params == 1) {
        CHECK_REL(est.p[0], 12.0 / 16, 1e-15);
        CHECK_INT(proper_estimate_property(&m, 0, &est, &point, &lo, &hi, &e), 0);
        CHECK_REL(point, 4, 1e-14);
    }
    proper_estimate_free(&est);
    fp = fopen(fn, "w"); fputs("3\n0\n5\n4\n", fp); fclose(fp);
    CHECK_INT(proper_estimate_from_artifact(&est, &m, &fn, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    if (est.n_params == 1) {
        CHECK_INT(proper_estimate_property(&m, 0, &est, &point, &lo, &hi, &e), 0);
        CHECK_REL(point, 4, 1e-14);
    }
    remove(fn);
    proper_estimate_free(&est);
    proper_estimate_counts_free(&log);
    proper_synth_free(&m);
}

/* A conditional inside a loop, logged as per-run totals (the artifact's
 * knapsack n5): each run iterates K ~ U{0..6} times and takes the branch
 * with its own probability q ~ U(0.1, 0.9) (so branch outcomes are
 * correlated within a run), p = E[T]/E[K] = 1/2, expected time =
 * 0.5 E[K] + 1 E[T] = 1.5 + 1.5 = 3. Independent simulation; 1000 logs of
 * 150 runs. Checked: the 95% interval of the time (box of mean counts) and
 * of p2 (eq. 9 from the totals' run-level spread, per-parameter level
 * 0.95^(1/2)) hold the truth in >= 94% of the logs; one 0/1 line per reach
 * (the same data, run structure dropped) gives a p2 interval about a third
 * as wide, whose coverage falls short of its level (eq. 9 bounds the two
 * totals separately and is conservative: it ignores their correlation). */
static void test_totals_in_loop_coverage(void) {
    const char *src = "void k() {\n  while (a()) {\n    y();  // @time=0.5\n    if (b()) {\n      x();  // @time=1\n    }\n  }\n}\n";
    const char *f1 = "build/tests/tot_n1.csv", *f2 = "build/tests/tot_n2.csv", *f2r = "build/tests/tot_n2r.csv";
    const char *files[2], *files_reach[2];
    proper_synth_model m;
    proper_estimate est, reach;
    proper_error e;
    proper_rng rng;
    int rep, covered_time = 0, covered_p = 0, covered_reach = 0, failures = 0;
    double width_ratio = 0.0;
    proper_synth_init(&m);
    proper_estimate_init(&est);
    proper_estimate_init(&reach);
    proper_rng_seed(&rng, 17);
    files[0] = f1; files[1] = f2;
    files_reach[0] = f1; files_reach[1] = f2r;
    CHECK_INT(proper_synth_parse(&m, src, strlen(src), "k.c", "k", &e), 0);
    for (rep = 0; rep < 1000; rep++) {
        FILE *a = fopen(f1, "w"), *b = fopen(f2, "w"), *c = fopen(f2r, "w");
        double time, lo, hi;
        int r;
        for (r = 0; r < 150; r++) {
            int k = (int)proper_rng_below(&rng, 7), t = 0, it;
            double q = 0.1 + 0.8 * proper_rng_uniform(&rng);
            for (it = 0; it < k; it++) {
                int taken = proper_rng_uniform(&rng) < q;
                t += taken;
                fprintf(c, "%d\n", taken);
            }
            fprintf(a, "%d\n", k);
            fprintf(b, "%d\n", t);
        }
        fclose(a); fclose(b); fclose(c);
        if (proper_estimate_from_artifact(&est, &m, files, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e) ||
            proper_estimate_from_artifact(&reach, &m, files_reach, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e) ||
            proper_estimate_property(&m, 0, &est, &time, &lo, &hi, &e)) {
            failures++;
            continue;
        }
        covered_time += lo <= 3.0 && 3.0 <= hi;
        covered_p += est.lo[1] <= 0.5 && 0.5 <= est.hi[1];
        covered_reach += reach.lo[1] <= 0.5 && 0.5 <= reach.hi[1];
        width_ratio += (reach.hi[1] - reach.lo[1]) / (est.hi[1] - est.lo[1]) / 1000.0;
    }
    printf("  per-run totals: time covered %d/1000, p2 %d/1000; 0/1 per reach: p2 %d/1000, width ratio %.3f\n",
           covered_time, covered_p, covered_reach, width_ratio);
    CHECK_INT(failures, 0);
    CHECK(covered_time >= 940);
    CHECK(covered_p >= 940);
    CHECK(width_ratio < 0.8);
    CHECK(covered_reach < covered_p);
    proper_estimate_free(&est);
    proper_estimate_free(&reach);
    proper_synth_free(&m);
    remove(f1); remove(f2); remove(f2r);
}

/* The box of mean counts against the box of probabilities, on a per-run
 * log of a loop nested in a loop: the time is 0.01 mu1 + 0.03 mu2 (mean
 * body runs per run), linear in the means, so its interval is exactly
 * 0.01 [lo1, hi1] + 0.03 [lo2, hi2] with lo, hi = mean -+ z sd / sqrt(n)
 * at level 0.95^(1/2) (computed here from the raw counts). The box of
 * probabilities lets the inner loop's p2 = mu2/(mu2 + mu1) take its ends
 * at both ends of mu1 at once, and is wider. */
static void test_means_box_closed_form(void) {
    const char *src = "void g() {\n  while (a()) {\n    y();  // @time=0.01\n    while (b()) {\n      x();  // @time=0.03\n    }\n  }\n}\n";
    const char *text = "p1,p2\n3,7\n1,0\n4,12\n0,0\n2,5\n5,9\n";
    const double c1[] = {3, 1, 4, 0, 2, 5}, c2[] = {7, 0, 12, 0, 5, 9};
    proper_synth_model m;
    proper_estimate_counts log;
    proper_estimate est;
    proper_error e;
    double time, lo, hi, plo, phi, z = proper_stats_normal_quantile(0.5 + sqrt(0.95) / 2.0);
    double m1 = 0, m2 = 0, s1 = 0, s2 = 0, lo1, hi1, lo2, hi2;
    int r;
    for (r = 0; r < 6; r++) { m1 += c1[r] / 6; m2 += c2[r] / 6; }
    for (r = 0; r < 6; r++) { s1 += (c1[r] - m1) * (c1[r] - m1) / 5; s2 += (c2[r] - m2) * (c2[r] - m2) / 5; }
    lo1 = m1 - z * sqrt(s1 / 6); hi1 = m1 + z * sqrt(s1 / 6);
    lo2 = m2 - z * sqrt(s2 / 6); hi2 = m2 + z * sqrt(s2 / 6);
    proper_synth_init(&m);
    proper_estimate_counts_init(&log);
    proper_estimate_init(&est);
    CHECK_INT(proper_synth_parse(&m, src, strlen(src), "g.c", "g", &e), 0);
    CHECK_INT(proper_estimate_counts_parse(&log, text, strlen(text), "g.csv", &e), 0);
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_INT(est.box, PROPER_ESTIMATE_BOX_MEANS);
    CHECK_INT(proper_estimate_property(&m, 0, &est, &time, &lo, &hi, &e), 0);
    CHECK_REL(time, 0.01 * m1 + 0.03 * m2, 1e-12);
    CHECK_REL(lo, 0.01 * lo1 + 0.03 * lo2, 1e-12);
    CHECK_REL(hi, 0.01 * hi1 + 0.03 * hi2, 1e-12);
    est.box = PROPER_ESTIMATE_BOX_PROBABILITIES;
    CHECK_INT(proper_estimate_property(&m, 0, &est, &time, &plo, &phi, &e), 0);
    CHECK(plo < lo && phi > hi);
    /* Wilson intervals bound probabilities: the estimator picks their box */
    CHECK_INT(proper_estimate_from_counts(&est, &m, &log, 0.95, PROPER_ESTIMATE_WILSON, &e), 0);
    CHECK_INT(est.box, PROPER_ESTIMATE_BOX_PROBABILITIES);
    est.box = PROPER_ESTIMATE_BOX_MEANS;
    CHECK_INT(proper_estimate_property(&m, 0, &est, &time, &lo, &hi, &e), PROPER_EINVAL);
    proper_estimate_free(&est);
    proper_estimate_counts_free(&log);
    proper_synth_free(&m);
}

/* The totals that proper-mpi counts writes (per column: runs, sum, sum of
 * squares), here written from the log's rows by the test: the same
 * estimates and intervals, bit for bit; columns with different run counts
 * and impossible means are refused. */
static void test_totals_file_equals_rows(void) {
    const char *text = "run,p1,p2,p3,p4,p5\n1,1,3,2,0,0\n2,0,0,0,4,1\n3,1,5,4,0,0\n4,0,0,0,2,1\n5,1,1,0,0,0\n6,0,0,0,1,1\n";
    proper_synth_model m;
    proper_estimate_counts log, tot;
    proper_estimate a, b;
    proper_error e;
    proper_strbuf t;
    size_t k, r;
    double pa, la, ha, pb, lb, hb;
    proper_synth_init(&m);
    proper_estimate_counts_init(&log);
    proper_estimate_counts_init(&tot);
    proper_estimate_init(&a);
    proper_estimate_init(&b);
    proper_strbuf_init(&t);
    CHECK_INT(proper_synth_parse(&m, nested_src, strlen(nested_src), "f.c", "f", &e), 0);
    CHECK_INT(proper_estimate_counts_parse(&log, text, strlen(text), "f.csv", &e), 0);
    proper_strbuf_printf(&t, "proper-count-totals 1\ncolumn,runs,sum,sum_sq\n");
    for (k = 1; k < log.n_cols; k++) {
        double s = 0, q = 0;
        for (r = 0; r < log.n_runs; r++) { double x = log.values[r * log.n_cols + k]; s += x; q += x * x; }
        proper_strbuf_printf(&t, "%s,%u,%.0f,%.0f\n", log.names[k], (unsigned)log.n_runs, s, q);
    }
    CHECK_INT(proper_estimate_counts_parse(&tot, t.data, strlen(t.data), "f.totals", &e), 0);
    CHECK_INT(tot.is_totals, 1);
    CHECK_INT(proper_estimate_from_counts(&a, &m, &log, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_INT(proper_estimate_from_counts(&b, &m, &tot, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK(memcmp(a.p, b.p, 5 * sizeof *a.p) == 0 && memcmp(a.lo, b.lo, 5 * sizeof *a.lo) == 0 &&
          memcmp(a.hi, b.hi, 5 * sizeof *a.hi) == 0 && memcmp(a.taken, b.taken, 5 * sizeof *a.taken) == 0 &&
          memcmp(a.reached, b.reached, 5 * sizeof *a.reached) == 0);
    CHECK_INT(proper_estimate_property(&m, 0, &a, &pa, &la, &ha, &e), 0);
    CHECK_INT(proper_estimate_property(&m, 0, &b, &pb, &lb, &hb, &e), 0);
    CHECK(pa == pb && la == lb && ha == hb);
    /* a column counted over fewer runs: logs with different columns were added */
    CHECK_INT(proper_estimate_counts_parse(&tot, "proper-count-totals 1\ncolumn,runs,sum,sum_sq\np1,6,3,3\np2,5,9,35\n"
                                           "p3,6,6,20\np4,6,7,21\np5,6,3,3\n", 93, "g.totals", &e), 0);
    CHECK_INT(proper_estimate_from_counts(&b, &m, &tot, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_EINVAL);
    CHECK_CONTAINS(e.message, "column p2 counts 5 run(s), p1 6");
    /* taken more often than reached: p3 (in p2's loop body) taken 20 times in 9 iterations */
    CHECK_INT(proper_estimate_counts_parse(&tot, "proper-count-totals 1\ncolumn,runs,sum,sum_sq\np1,6,3,3\np2,6,9,35\n"
                                           "p3,6,20,80\np4,6,7,21\np5,6,3,3\n", 94, "h.totals", &e), 0);
    CHECK_INT(proper_estimate_from_counts(&b, &m, &tot, 0.95, PROPER_ESTIMATE_NORMAL, &e), PROPER_ERANGE);
    CHECK_CONTAINS(e.message, "the mean counts are inconsistent: p3");
    CHECK_INT(proper_estimate_counts_parse(&tot, "proper-count-totals 1\ncolumn,runs,sum,sum_sq\np1,6,3,99999999999999999\n",
                                           70, "i.totals", &e), PROPER_ERANGE);
    CHECK_INT(proper_estimate_counts_parse(&tot, "proper-count-totals 1\ncolumn,runs\n", 34, "j.totals", &e), PROPER_EPARSE);
    proper_strbuf_free(&t);
    proper_estimate_free(&a);
    proper_estimate_free(&b);
    proper_estimate_counts_free(&log);
    proper_estimate_counts_free(&tot);
    proper_synth_free(&m);
}

/* The box of mean counts from artifact files is ranged over its corners;
 * that is exact when the reward is monotone in each file's mean. Checked
 * on the artifact's knapsackDP shape (a loop, a loop nested in a loop, a
 * conditional in the inner loop given as per-run totals) against a grid
 * of 7^5 points of the box, with the parameters computed here from the
 * published model's formulas (p1 = n1, p2 = n2/(1 + n2), p3 = n3/(1 + n3),
 * p4 = n4/(n4 + n3), p5 = n5/n4): no grid point leaves the corners' range,
 * and the range lies inside the box of probabilities'. */
static void test_artifact_corners_vs_grid(void) {
    const char *src =
        "int k(int n, int W) {\n"
        "  if (n <= 0) {\n    return 0;\n  }\n"
        "  int j = 0;\n"
        "  while (j <= W) {\n    x();  // @time=1\n    j++;\n  }\n"
        "  int i = 1;\n"
        "  while (i <= n) {\n"
        "    int c = 1;\n"
        "    while (c <= W) {\n"
        "      if (w() > c) {\n        a();  // @time=2\n      } else {\n        b();  // @time=3\n      }\n"
        "      c++;\n"
        "    }\n"
        "    i++;\n"
        "  }\n"
        "  return 0;\n"
        "}\n";
    const char *fn[5] = {"build/tests/grid_n1.csv", "build/tests/grid_n2.csv", "build/tests/grid_n3.csv",
                         "build/tests/grid_n4.csv", "build/tests/grid_n5.csv"};
    FILE *fp[5];
    proper_synth_model m;
    proper_estimate est;
    proper_error e;
    proper_rng rng;
    double point, lo, hi, plo, phi, gmin = INFINITY, gmax = -INFINITY;
    int r, k, idx[5];
    proper_synth_init(&m);
    proper_estimate_init(&est);
    proper_rng_seed(&rng, 5);
    for (k = 0; k < 5; k++) fp[k] = fopen(fn[k], "w");
    for (r = 0; r < 60; r++) {
        int n = (int)proper_rng_below(&rng, 4), W = (int)proper_rng_below(&rng, 4), it, c, taken = 0;
        fprintf(fp[0], "%d\n", n <= 0);
        if (n <= 0) continue;
        fprintf(fp[1], "%d\n", W + 1);
        fprintf(fp[2], "%d\n", n);
        for (it = 0; it < n; it++)
            for (c = 1; c <= W; c++) taken += proper_rng_uniform(&rng) < 0.4;
        fprintf(fp[3], "%d\n", n * W);
        fprintf(fp[4], "%d\n", taken);
    }
    for (k = 0; k < 5; k++) fclose(fp[k]);
    CHECK_INT(proper_synth_parse(&m, src, strlen(src), "k.c", "k", &e), 0);
    CHECK_INT(m.n_params, 5);
    CHECK_INT(proper_estimate_from_artifact(&est, &m, fn, NULL, 0.95, PROPER_ESTIMATE_NORMAL, &e), 0);
    CHECK_INT(proper_estimate_property(&m, 0, &est, &point, &lo, &hi, &e), 0);
    for (idx[0] = 0; idx[0] < 7; idx[0]++)
        for (idx[1] = 0; idx[1] < 7; idx[1]++)
            for (idx[2] = 0; idx[2] < 7; idx[2]++)
                for (idx[3] = 0; idx[3] < 7; idx[3]++)
                    for (idx[4] = 0; idx[4] < 7; idx[4]++) {
                        double x[5], p[5], v;
                        for (k = 0; k < 5; k++) x[k] = est.var_lo[1 + k] + (est.var_hi[1 + k] - est.var_lo[1 + k]) * idx[k] / 6.0;
                        p[0] = x[0]; p[1] = x[1] / (1 + x[1]); p[2] = x[2] / (1 + x[2]);
                        p[3] = x[3] / (x[3] + x[2]); p[4] = x[4] / x[3];
                        for (k = 0; k < 5; k++) p[k] = p[k] < 0 ? 0 : p[k] > 1 ? 1 : p[k];
                        if (proper_synth_expected_reward(&m, 0, p, &v, &e)) continue;
                        if (v < gmin) gmin = v;
                        if (v > gmax) gmax = v;
                    }
    printf("  corners [%.10g, %.10g], grid [%.10g, %.10g]\n", lo, hi, gmin, gmax);
    CHECK(gmin >= lo * (1 - 1e-12) && gmax <= hi * (1 + 1e-12));
    CHECK_REL(gmin, lo, 1e-12); /* the corners are grid points */
    CHECK_REL(gmax, hi, 1e-12);
    est.box = PROPER_ESTIMATE_BOX_PROBABILITIES;
    CHECK_INT(proper_estimate_property(&m, 0, &est, &point, &plo, &phi, &e), 0);
    CHECK(plo <= lo && phi >= hi && phi - plo > 1.05 * (hi - lo));
    proper_estimate_free(&est);
    proper_synth_free(&m);
    for (k = 0; k < 5; k++) remove(fn[k]);
}

int main(void) {
    RUN(test_point_estimates_eq2);
    RUN(test_intervals_closed_form);
    RUN(test_property_interval_coverage);
    RUN(test_log_errors);
    RUN(test_artifact_logs);
    RUN(test_counts_from_trace);
    RUN(test_output_rule);
    RUN(test_artifact_fst);
    RUN(test_artifact_nested_pairing);
    RUN(test_artifact_impossible_values);
    RUN(test_log_columns_fit_model);
    RUN(test_zero_counts_not_degenerate);
    RUN(test_recursive_search_vs_simulation);
    RUN(test_loop_first_statement);
    RUN(test_totals_in_loop_coverage);
    RUN(test_means_box_closed_form);
    RUN(test_totals_file_equals_rows);
    RUN(test_artifact_corners_vs_grid);
    return test_summary();
}
