/* reproduce — the PROPER paper's experiments on proper's own case studies:
 *   Tables 2-3: point-estimate error as the log grows from 10^2 to 10^5 runs;
 *   Figs. 7-11: whether the property interval encloses the ground truth at
 *               every log size and confidence level;
 *   coverage:   minPathSum, 1000 independent 10^3-run logs, fraction of 95%
 *               intervals containing the ground truth.
 * Ground truth: the expected reward at the parameters of a 10^6-run log.
 * With --svg DIR it also draws, per case study, the first reward's 90/95/99%
 * intervals against the log size with the ground truth (as Figs. 7-11).
 * (That equals the program's true expected reward up to that log's
 * sampling error: the DTMC reproduces the mean visit counts exactly, see
 * estimate.h.) Prints Markdown; `make annotated-results` stores it in
 * docs/annotated-results.md.
 *
 *   reproduce [--quick] [--svg DIR]  (--quick: 10^5-run truth, 200 coverage logs)
 */
#define PROPER_IMPLEMENTATION
#include "../../src/estimate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/svg.h"
#include "cases.h"

/* Point estimate and interval of every reward from one log. */
static int analyse(const proper_synth_model *m, const proper_estimate_counts *log, double level, int box, double *point,
                   double *lo, double *hi) {
    proper_estimate est;
    proper_error err;
    size_t r;
    char msg[800];
    proper_estimate_init(&est);
    if (proper_estimate_from_counts(&est, m, log, level, PROPER_ESTIMATE_NORMAL, &err)) {
        fprintf(stderr, "reproduce: %s\n", proper_error_format(&err, msg, sizeof msg));
        return 1;
    }
    est.box = box;
    for (r = 0; r < m->n_rewards; r++)
        if (proper_estimate_property(m, (int)r, &est, &point[r], &lo[r], &hi[r], &err)) {
            fprintf(stderr, "reproduce: %s\n", proper_error_format(&err, msg, sizeof msg));
            proper_estimate_free(&est);
            return 1;
        }
    proper_estimate_free(&est);
    return 0;
}

#define N_SIZES 4
#define N_LEVELS 3
static const long sizes[N_SIZES] = {100, 1000, 10000, 100000};
static const double levels[N_LEVELS] = {0.90, 0.95, 0.99};

/* Figs. 7-11: intervals of reward 0 at each level against log10(runs). */
static int write_figure(const char *dir, const char *name, const char *reward, double truth,
                        double lo[N_SIZES][N_LEVELS], double hi[N_SIZES][N_LEVELS], const double *point) {
    double x[N_SIZES], truth_line[N_SIZES], l[N_LEVELS][N_SIZES], h[N_LEVELS][N_SIZES];
    char path[1024], title[256], ylabel[64], labels[N_LEVELS][32];
    svg_plot plot;
    svg_series s[N_LEVELS + 2];
    int i, k;
    for (i = 0; i < N_SIZES; i++) {
        x[i] = log10((double)sizes[i]);
        truth_line[i] = truth;
        for (k = 0; k < N_LEVELS; k++) { l[k][i] = lo[i][k]; h[k][i] = hi[i][k]; }
    }
    svg_plot_init(&plot);
    snprintf(title, sizeof title, "%s: %s interval against log size", name, reward);
    snprintf(ylabel, sizeof ylabel, "expected %s", reward);
    plot.title = title;
    plot.xlabel = "log10(runs in the log)";
    plot.ylabel = ylabel;
    plot.y_from_zero = 0;
    for (k = N_LEVELS; k-- > 0;) { /* widest first, so the narrower bands sit on top */
        snprintf(labels[k], sizeof labels[k], "%.0f%% interval", 100 * levels[k]);
        svg_series_init(&s[N_LEVELS - 1 - k], labels[k], x, l[k], N_SIZES, SVG_BAND);
        s[N_LEVELS - 1 - k].y2 = h[k];
    }
    svg_series_init(&s[N_LEVELS], "point estimate", x, point, N_SIZES, SVG_POINTS);
    svg_series_init(&s[N_LEVELS + 1], "ground truth", x, truth_line, N_SIZES, SVG_LINE);
    snprintf(path, sizeof path, "%s/%s.svg", dir, name);
    if (svg_write_file(path, &plot, s, N_LEVELS + 2)) {
        fprintf(stderr, "reproduce: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

static int study(const case_study *c, const char *source, long truth_runs, proper_rng *rng, double *truth_out,
                 const char *svg_dir) {
    proper_synth_model m;
    proper_estimate_counts log;
    proper_error err;
    double truth[8], lo[8], hi[8], fig_lo[N_SIZES][N_LEVELS], fig_hi[N_SIZES][N_LEVELS], fig_point[N_SIZES];
    size_t s, l, r;
    char msg[800];
    proper_synth_init(&m);
    if (proper_synth_read(&m, source, c->name, &err)) {
        fprintf(stderr, "reproduce: %s\n", proper_error_format(&err, msg, sizeof msg));
        return 1;
    }
    if (case_make_log(c, rng, truth_runs, &log) || analyse(&m, &log, 0.95, PROPER_ESTIMATE_BOX_MEANS, truth, lo, hi)) return 1;
    proper_estimate_counts_free(&log);
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
        if (case_make_log(c, rng, sizes[s], &log)) return 1;
        for (l = 0; l < sizeof levels / sizeof *levels; l++) {
            if (analyse(&m, &log, levels[l], PROPER_ESTIMATE_BOX_MEANS, est_point, ilo[l], ihi[l])) return 1;
            fig_lo[s][l] = ilo[l][0];
            fig_hi[s][l] = ihi[l][0];
        }
        fig_point[s] = est_point[0];
        proper_estimate_counts_free(&log);
        for (r = 0; r < m.n_rewards; r++) {
            printf("| %ld | %s | %.6g | %.2f |", sizes[s], m.reward_names[r], est_point[r],
                   100 * (est_point[r] - truth[r]) / truth[r]);
            for (l = 0; l < sizeof levels / sizeof *levels; l++)
                printf(" [%.5g, %.5g] | %s |", ilo[l][r], ihi[l][r],
                       ilo[l][r] <= truth[r] && truth[r] <= ihi[l][r] ? "yes" : "**no**");
            printf("\n");
        }
    }
    *truth_out = truth[0];
    if (svg_dir && write_figure(svg_dir, c->name, m.reward_names[0], truth[0], fig_lo, fig_hi, fig_point)) return 1;
    proper_synth_free(&m);
    return 0;
}

/* One case study's coverage row: `logs` independent logs of `runs` runs,
 * the 95% interval of the first reward over the box of mean counts and over
 * the box of probabilities: how often each holds the truth, and their mean
 * widths. */
static int coverage(const case_study *c, const char *source, int logs, long runs, double truth, proper_rng *rng) {
    proper_synth_model m;
    proper_estimate_counts log;
    proper_error err;
    double point[8], lo[8], hi[8], width[2] = {0, 0};
    int i, inside[2] = {0, 0}, box, infinite = 0;
    proper_synth_init(&m);
    if (proper_synth_read(&m, source, c->name, &err)) return 1;
    for (i = 0; i < logs; i++) {
        if (case_make_log(c, rng, runs, &log)) return 1;
        for (box = 0; box < 2; box++) {
            if (analyse(&m, &log, 0.95, box, point, lo, hi)) return 1;
            inside[box] += lo[0] <= truth && truth <= hi[0];
            if (isinf(hi[0])) infinite += box == PROPER_ESTIMATE_BOX_PROBABILITIES;
            else width[box] += (hi[0] - lo[0]) / logs;
        }
        proper_estimate_counts_free(&log);
    }
    printf("| %s | %s | %d/%d | %.6g | %d/%d | %.6g%s | %.2f |\n", c->name, m.reward_names[0], inside[0], logs,
           width[0], inside[1], logs, width[1], infinite ? " (finite ones)" : "", width[1] / width[0]);
    proper_synth_free(&m);
    return 0;
}

int main(int argc, char **argv) {
    const char *source = "examples/annotated/cases.c", *svg_dir = NULL;
    int quick = 0, i;
    long truth_runs;
    double truth[16];
    proper_rng rng;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) quick = 1;
        else if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc) svg_dir = argv[++i];
        else {
            fprintf(stderr, "usage: reproduce [--quick] [--svg DIR]\n");
            return 2;
        }
    }
    truth_runs = quick ? 100000 : 1000000;
    proper_rng_seed(&rng, 2023);
    printf("# PROPER case studies: estimates and intervals\n\n"
           "Produced by `build/ex/reproduce%s` (examples/annotated/reproduce.c): proper's own C\n"
           "re-implementations of the paper's six methods (examples/annotated/cases.c), normal\n"
           "intervals of the mean counts at simultaneous level c^(1/m), property interval = exact\n"
           "extremes over their box (the default of `proper analyze`). Figures (as the paper's\n"
           "Figs. 7-11): docs/annotated/*.svg. The paper's artifact and its published intervals:\n"
           "docs/annotated/artifact-results.md.\n"
           "The paper's artifact itself, read as shipped: docs/annotated/artifact-reading.md.\n"
           "Each case's model exported at its estimated point and solved by a real PRISM (default\n"
           "and -exact): docs/annotated/prism-crosscheck.md.\n",
           quick ? " --quick" : "");
    for (i = 0; i < n_case_studies; i++)
        if (study(&case_studies[i], source, truth_runs, &rng, &truth[i], svg_dir)) return 1;
    printf("\n## Coverage and width: the box of mean counts against the box of probabilities\n\n"
           "Per case study, %d independent logs of 1000 runs; the 95%% interval of the first reward over\n"
           "the box of mean-count intervals (the default, the paper's Section 4.3.2) and over the box of\n"
           "probability intervals (`--box probabilities`): how many hold the ground truth, and the mean width.\n\n"
           "| case | reward | means: covered | means: width | probabilities: covered | probabilities: width | ratio |\n"
           "|---|---|---:|---:|---:|---:|---:|\n", quick ? 200 : 1000);
    for (i = 0; i < n_case_studies; i++)
        if (coverage(&case_studies[i], source, quick ? 200 : 1000, 1000, truth[i], &rng)) return 1;
    return 0;
}
