/* reproduce — the PROPER paper's experiments on proper's own case studies:
 *   Tables 2-3: point-estimate error as the log grows from 10^2 to 10^5 runs;
 *   Figs. 7-11: whether the property interval encloses the ground truth at
 *               every log size and confidence level;
 *   coverage:   minPathSum, 1000 independent 10^3-run logs, fraction of 95%
 *               intervals containing the ground truth.
 * Ground truth: the expected reward at the parameters of a 10^6-run log.
 * (That equals the program's true expected reward up to that log's
 * sampling error: the DTMC reproduces the mean visit counts exactly, see
 * estimate.h.) Prints Markdown; `make proper-results` stores it in
 * docs/proper-results.md.
 *
 *   reproduce [--quick]     (--quick: 10^5-run truth, 200 coverage logs)
 */
#define PROPER_IMPLEMENTATION
#include "../../src/estimate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"

/* A count log of `runs` fresh executions, built in memory. */
static int make_log(const case_study *c, proper_rng *rng, long runs, proper_counts *log) {
    long r, counts[CASE_MAX_PARAMS + 1];
    int k;
    memset(log, 0, sizeof *log);
    log->n_runs = (size_t)runs;
    log->n_cols = (size_t)c->n_params;
    log->names = (char (*)[32])calloc((size_t)c->n_params, sizeof *log->names);
    log->values = (double *)calloc((size_t)runs * (size_t)c->n_params, sizeof *log->values);
    log->lines = (int *)calloc((size_t)runs, sizeof *log->lines);
    if (!log->names || !log->values || !log->lines) return PROPER_ENOMEM;
    for (k = 0; k < c->n_params; k++) snprintf(log->names[k], sizeof log->names[k], "p%d", k + 1);
    for (r = 0; r < runs; r++) {
        case_run(c, rng, counts);
        for (k = 0; k < c->n_params; k++) log->values[(size_t)r * log->n_cols + (size_t)k] = (double)counts[k + 1];
        log->lines[r] = (int)r + 2;
    }
    return PROPER_OK;
}

/* Point estimate and interval of every reward from one log. */
static int analyse(const proper_synth_model *m, const proper_counts *log, double level, double *point, double *lo,
                   double *hi) {
    proper_estimate est;
    proper_error err;
    size_t r;
    char msg[800];
    if (proper_estimate_from_counts(&est, m, log, level, PROPER_CI_NORMAL, &err)) {
        fprintf(stderr, "reproduce: %s\n", proper_error_format(&err, msg, sizeof msg));
        return 1;
    }
    for (r = 0; r < m->n_rewards; r++)
        if (proper_estimate_property(m, (int)r, &est, &point[r], &lo[r], &hi[r], &err)) {
            fprintf(stderr, "reproduce: %s\n", proper_error_format(&err, msg, sizeof msg));
            proper_estimate_free(&est);
            return 1;
        }
    proper_estimate_free(&est);
    return 0;
}

static const long sizes[] = {100, 1000, 10000, 100000};
static const double levels[] = {0.90, 0.95, 0.99};

static int study(const case_study *c, const char *source, long truth_runs, proper_rng *rng, double *truth_out) {
    proper_synth_model m;
    proper_counts log;
    proper_error err;
    double truth[8], point[8], lo[8], hi[8];
    size_t s, l, r;
    char msg[800];
    if (proper_synth_from_file(&m, source, c->name, &err)) {
        fprintf(stderr, "reproduce: %s\n", proper_error_format(&err, msg, sizeof msg));
        return 1;
    }
    if (make_log(c, rng, truth_runs, &log) || analyse(&m, &log, 0.95, truth, lo, hi)) return 1;
    proper_counts_free(&log);
    printf("\n### %s\n\nInputs: %s. %u parameters; ground truth from %ld runs:", c->name, c->input,
           (unsigned)m.n_params, truth_runs);
    for (r = 0; r < m.n_rewards; r++) printf(" %s = %.6g%s", m.reward_names[r], truth[r], r + 1 < m.n_rewards ? "," : ".");
    printf("\n\n| runs | reward | estimate | error %% |");
    for (l = 0; l < sizeof levels / sizeof *levels; l++) printf(" %.0f%% interval | encloses |", 100 * levels[l]);
    printf("\n|---:|---|---:|---:|");
    for (l = 0; l < sizeof levels / sizeof *levels; l++) printf("---|:-:|");
    printf("\n");
    for (s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        double est_point[8], ilo[3][8], ihi[3][8];
        if (make_log(c, rng, sizes[s], &log)) return 1;
        for (l = 0; l < sizeof levels / sizeof *levels; l++)
            if (analyse(&m, &log, levels[l], est_point, ilo[l], ihi[l])) return 1;
        proper_counts_free(&log);
        for (r = 0; r < m.n_rewards; r++) {
            printf("| %ld | %s | %.6g | %.2f |", sizes[s], m.reward_names[r], est_point[r],
                   100 * (est_point[r] - truth[r]) / truth[r]);
            for (l = 0; l < sizeof levels / sizeof *levels; l++)
                printf(" [%.5g, %.5g] | %s |", ilo[l][r], ihi[l][r],
                       ilo[l][r] <= truth[r] && truth[r] <= ihi[l][r] ? "yes" : "**no**");
            printf("\n");
        }
    }
    (void)point;
    *truth_out = truth[0];
    proper_synth_free(&m);
    return 0;
}

static int coverage(const char *source, int logs, long runs, double truth, proper_rng *rng) {
    const case_study *c = case_find("minPathSum");
    proper_synth_model m;
    proper_counts log;
    proper_error err;
    double point[8], lo[8], hi[8];
    int i, inside = 0;
    if (proper_synth_from_file(&m, source, c->name, &err)) return 1;
    for (i = 0; i < logs; i++) {
        if (make_log(c, rng, runs, &log) || analyse(&m, &log, 0.95, point, lo, hi)) return 1;
        proper_counts_free(&log);
        if (lo[0] <= truth && truth <= hi[0]) inside++;
    }
    printf("\n## Coverage\n\nminPathSum, %d independent logs of %ld runs: %d of %d 95%% intervals of `%s` contain "
           "the ground truth (%.4f).\n",
           logs, runs, inside, logs, m.reward_names[0], (double)inside / logs);
    proper_synth_free(&m);
    return 0;
}

int main(int argc, char **argv) {
    const char *source = "examples/proper/cases.c";
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0, i;
    long truth_runs = quick ? 100000 : 1000000;
    double truth = 0, mps_truth = 0;
    proper_rng rng;
    proper_rng_seed(&rng, 2023);
    printf("# PROPER case studies: estimates and intervals\n\n"
           "Produced by `build/ex/reproduce%s` (examples/proper/reproduce.c): proper's own C\n"
           "re-implementations of the paper's six methods (examples/proper/cases.c), normal\n"
           "intervals at simultaneous level c^(1/m), property interval = exact extremes\n"
           "over the parameter box.\n",
           quick ? " --quick" : "");
    for (i = 0; i < n_case_studies; i++) {
        if (study(&case_studies[i], source, truth_runs, &rng, &truth)) return 1;
        if (strcmp(case_studies[i].name, "minPathSum") == 0) mps_truth = truth;
    }
    return coverage(source, quick ? 200 : 1000, 1000, mps_truth, &rng);
}
