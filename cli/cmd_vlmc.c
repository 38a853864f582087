/* proper vlmc — learn a variable-length Markov chain of a program from
 * location traces (ProgramToVLMC), count and merge trace shards, predict
 * the distribution of steps to termination, sample runs. */
#define _POSIX_C_SOURCE 200809L /* isatty, fileno: progress only on a terminal */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../src/vlmc.h"
#include "cli.h"
#include "json.h"
#include "svg.h"
#include "vlmc_opts.h"

static void vlmc_usage(FILE *out) {
    fprintf(out,
            "usage: proper vlmc fit    TRACE... [fit options] [--pst FILE] [--dot FILE]\n"
            "                          [--export-explicit PREFIX] [--export-prism FILE]\n"
            "                          [--export-drn FILE] [--json]\n"
            "       proper vlmc steps  TRACE... [fit options] [--eps E] [--csv | --json]\n"
            "                          [--svg FILE]\n"
            "       proper vlmc sample TRACE... [fit options] [-n N] [--seed S]\n"
            "       proper vlmc count  TRACE... -o|--output COUNTS\n"
            "       proper vlmc merge  COUNTS... -o|--output COUNTS\n\n"
            "Learns a variable-length Markov chain (probabilistic suffix tree) of a\n"
            "program from traces of the locations its runs visit (ProgramToVLMC,\n"
            "Napolitano 2022): one location-PST per location, grown backwards along\n"
            "CFG predecessors while a context occurs at least NMIN times, pruned with\n"
            "the context algorithm's test, Δ <= χ²_{k-1}(1-α)/2 (k successors).\n\n"
            "TRACE files: one run per line of location names separated by blanks\n"
            "('#' comments), trace.h files (one run per record, its V lines), or counts\n"
            "files written by 'count'/'merge'; several files are one data set.\n\n"
            "fit options:\n" CLI_VLMC_FIT_HELP "\n"
            "fit outputs: a summary (runs, nodes, order, log-likelihood); --pst FILE the\n"
            "tree as text ('-' = stdout); --dot FILE as Graphviz; --export-explicit\n"
            "PREFIX the Markov hull as a DTMC in PRISM explicit files (.tra .lab .sta\n"
            ".srew; label \"end\", reward \"steps\"); --export-prism FILE as a flat\n"
            "PRISM-language model; --export-drn FILE in Storm's DRN format.\n"
            "steps: P(run visits k locations), empirical and from the hull DTMC (forward\n"
            "iteration until the remaining mass is below --eps, default %g), with\n"
            "KL(E||V) and log-likelihoods (--json: a value that is not a finite number,\n"
            "such as KL = +inf when the model misses a length the runs have, is null);\n"
            "--svg FILE draws both distributions ('-' = stdout).\n"
            "count: writes the distinct runs with multiplicities (proper-vlmc-counts 1);\n"
            "merge adds counts files exactly; fitting the merge equals fitting all runs.\n\n"
            "Exit status: 0 ok, 2 bad input (errors as file:line:col: message).\n",
            PROPER_VLMC_STEPS_EPS);
}

typedef struct vlmc_args {
    const char **inputs;
    size_t n_inputs;
    const char *cfg, *pst, *dot, *export_explicit, *export_prism, *export_drn, *out, *svg;
    proper_vlmc_opts opts;
    int json, csv;
    double eps;
    unsigned long n_samples;
    unsigned long long seed;
    int allow_empty; /* merge: a counts file of 0 runs adds nothing, rightly */
} vlmc_args;

/* CLI_OK to go on, or CLI_BAD_INPUT (reported). argv[0] is the subcommand. */
static int vlmc_parse(int argc, char **argv, vlmc_args *a) {
    cli_args ca;
    unsigned long long u;
    memset(a, 0, sizeof *a);
    a->opts = proper_vlmc_opts_default();
    a->n_samples = 10;
    a->seed = 1;
    a->inputs = (const char **)proper_calloc((size_t)argc + 1, sizeof *a->inputs);
    if (!a->inputs) return cli_fail("out of memory");
    cli_args_init(&ca, "vlmc", argc, argv);
    while (cli_next(&ca)) {
        if (cli_vlmc_fit_option(&ca, &a->opts, &a->cfg)) {
        } else if (cli_flag(&ca, "--json")) a->json = 1;
        else if (cli_flag(&ca, "--csv")) a->csv = 1;
        else if (cli_opt_double(&ca, "--eps", "(0,1)", &a->eps)) {
        } else if (cli_opt_uint(&ca, "-n", 0, ULONG_MAX, &u)) a->n_samples = (unsigned long)u;
        else if (cli_opt_uint(&ca, "--seed", 0, ULLONG_MAX, &a->seed)) {
        } else if (cli_opt(&ca, "--pst")) a->pst = ca.value;
        else if (cli_opt(&ca, "--dot")) a->dot = ca.value;
        else if (cli_opt(&ca, "--svg")) a->svg = ca.value;
        else if (cli_opt(&ca, "--export-explicit")) a->export_explicit = ca.value;
        else if (cli_opt(&ca, "--export-prism")) a->export_prism = ca.value;
        else if (cli_opt(&ca, "--export-drn")) a->export_drn = ca.value;
        else if (cli_opt(&ca, "-o|--output")) a->out = ca.value;
        else if (cli_positional(&ca)) a->inputs[a->n_inputs++] = ca.value;
        else cli_unknown(&ca);
    }
    if (ca.status) return ca.status;
    if (!a->n_inputs) return cli_usage_error(&ca, "%s: no input files", argv[0]);
    return cli_vlmc_fit_check(&a->opts, a->cfg);
}

/* Progress line on a terminal only. */
typedef struct vlmc_progress {
    int tty;
    int shown;
} vlmc_progress;

static void vlmc_on_progress(void *user, const char *phase, double fraction) {
    vlmc_progress *p = (vlmc_progress *)user;
    if (!p->tty) return;
    fprintf(stderr, "\rproper vlmc: %s %3.0f%%   ", phase, 100.0 * fraction);
    fflush(stderr);
    p->shown = 1;
}

static void vlmc_progress_done(vlmc_progress *p) {
    if (p->shown) fprintf(stderr, "\r%60s\r", "");
    p->shown = 0;
}

static int vlmc_load(const vlmc_args *a, proper_vlmc_counts *c, vlmc_progress *pr) {
    size_t i;
    proper_error err;
    proper_vlmc_counts_init(c);
    for (i = 0; i < a->n_inputs; i++) {
        if (pr->tty) {
            fprintf(stderr, "\rproper vlmc: reading %s   ", a->inputs[i]);
            fflush(stderr);
            pr->shown = 1;
        }
        unsigned long long before = (unsigned long long)c->total_runs;
        if (proper_vlmc_counts_read(c, a->inputs[i], &err)) {
            vlmc_progress_done(pr);
            proper_vlmc_counts_free(c);
            return cli_report(&err);
        }
        if ((unsigned long long)c->total_runs == before && !a->allow_empty) {
            /* an empty file (or only comments) would silently add nothing */
            vlmc_progress_done(pr);
            proper_vlmc_counts_free(c);
            return cli_fail("%s:1:1: no runs in %s", a->inputs[i], a->inputs[i]);
        }
    }
    return CLI_OK;
}

static int vlmc_learn(vlmc_args *a, proper_vlmc_counts *c, proper_vlmc *m, vlmc_progress *pr) {
    proper_vlmc_cfg g;
    proper_error err;
    int rc;
    proper_vlmc_init(m);
    if ((rc = vlmc_load(a, c, pr))) return rc;
    proper_vlmc_cfg_init(&g);
    if (a->cfg && proper_vlmc_cfg_read(&g, a->cfg, &err)) {
        vlmc_progress_done(pr);
        proper_vlmc_cfg_free(&g);
        proper_vlmc_counts_free(c);
        return cli_report(&err);
    }
    a->opts.progress = vlmc_on_progress;
    a->opts.progress_user = pr;
    rc = proper_vlmc_fit(m, c, a->cfg ? &g : NULL, &a->opts, &err);
    vlmc_progress_done(pr);
    proper_vlmc_cfg_free(&g);
    if (rc) {
        proper_vlmc_counts_free(c);
        return cli_report(&err);
    }
    return CLI_OK;
}

static FILE *vlmc_open_out(const char *path) {
    if (strcmp(path, "-") == 0) return stdout;
    return fopen(path, "wb");
}

static int vlmc_close_out(FILE *f, const char *path) {
    if (f == stdout) return fflush(f) == 0 ? CLI_OK : cli_fail("%s: write error", path);
    return fclose(f) == 0 ? CLI_OK : cli_fail("%s: write error", path);
}

static int vlmc_write_with(const char *path, int (*writer)(const proper_vlmc *, FILE *, proper_error *),
                           const proper_vlmc *m) {
    FILE *f = vlmc_open_out(path);
    proper_error err;
    int rc;
    if (!f) return cli_fail("%s: cannot open for writing", path);
    rc = writer(m, f, &err);
    if (rc) {
        if (f != stdout) fclose(f);
        return cli_report(&err);
    }
    return vlmc_close_out(f, path);
}

static int vlmc_fit_cmd(vlmc_args *a, vlmc_progress *pr) {
    proper_vlmc_counts c;
    proper_vlmc m;
    proper_error err;
    double t0 = cli_now(), secs;
    int rc;
    if ((rc = vlmc_learn(a, &c, &m, pr))) return rc;
    secs = cli_now() - t0;
    if (a->pst && (rc = vlmc_write_with(a->pst, proper_vlmc_write_pst, &m))) goto done;
    if (a->dot && (rc = vlmc_write_with(a->dot, proper_vlmc_write_dot, &m))) goto done;
    if (a->export_explicit || a->export_prism || a->export_drn) {
        proper_dtmc d;
        proper_dtmc_init(&d);
        if (proper_vlmc_hull(&m, 0, &err) || proper_vlmc_to_dtmc(&m, &d, &err)) {
            rc = cli_report(&err);
            goto done;
        }
        if ((a->export_explicit && proper_dtmc_write_explicit_files(&d, a->export_explicit, &err)) ||
            (a->export_prism && proper_dtmc_write_file(&d, proper_dtmc_write_prism, a->export_prism, &err)) ||
            (a->export_drn && proper_dtmc_write_file(&d, proper_dtmc_write_drn, a->export_drn, &err)))
            rc = cli_report(&err);
        proper_dtmc_free(&d);
        if (rc) goto done;
    }
    if (a->pst && strcmp(a->pst, "-") == 0) goto done; /* stdout carries the tree */
    cli_vlmc_fit_summary(a->json, &c, &m, a->cfg, secs, "reading and fitting");
done:
    proper_vlmc_free(&m);
    proper_vlmc_counts_free(&c);
    return rc;
}

/* The steps-to-termination PMFs as a picture: the runs' lengths as stems,
 * the model's as points, at the lengths either gives mass (a model mass
 * below 1e-12, the table's threshold, is not drawn). */
static int vlmc_steps_svg(const char *path, const double *e, size_t ne, const double *v, size_t nv, double kl) {
    size_t n = ne > nv ? ne : nv, k, m = 0;
    double *x = (double *)proper_calloc(n + 1, sizeof *x), *ye = (double *)proper_calloc(n + 1, sizeof *ye);
    double *yv = (double *)proper_calloc(n + 1, sizeof *yv);
    char title[160];
    svg_plot plot;
    svg_series s[2];
    int rc = CLI_OK;
    if (!x || !ye || !yv) rc = cli_fail("out of memory");
    for (k = 0; rc == CLI_OK && k < n; k++) {
        double ek = k < ne ? e[k] : 0.0, vk = k < nv ? v[k] : 0.0;
        if (ek == 0.0 && vk < 1e-12) continue;
        x[m] = (double)k;
        ye[m] = ek;
        yv[m] = vk;
        m++;
    }
    if (rc == CLI_OK) {
        snprintf(title, sizeof title, "Steps to termination (KL(E||V) = %.3g nats)", kl);
        svg_plot_init(&plot);
        plot.title = title;
        plot.xlabel = "locations visited by a run";
        plot.ylabel = "probability";
        svg_series_init(&s[0], "runs (empirical)", x, ye, m, SVG_STEMS);
        svg_series_init(&s[1], "VLMC (Markov hull)", x, yv, m, SVG_POINTS);
        if (svg_write_file(path, &plot, s, 2) != 0) rc = cli_fail("%s: cannot write the SVG: %s", path, strerror(errno));
    }
    PROPER_FREE(x);
    PROPER_FREE(ye);
    PROPER_FREE(yv);
    return rc;
}

static int vlmc_steps_cmd(vlmc_args *a, vlmc_progress *pr) {
    proper_vlmc_counts c;
    proper_vlmc m;
    proper_error err;
    double *v = NULL, *e = NULL, tail = 0.0, kl, ll_v, ll_e;
    size_t nv, ne, k, n;
    int rc;
    if ((rc = vlmc_learn(a, &c, &m, pr))) return rc;
    if (proper_vlmc_counts_steps(&c, &e, &ne, &err) || proper_vlmc_hull(&m, 0, &err) ||
        proper_vlmc_steps_pmf(&m, a->eps, ne, 0, &v, &nv, &tail, &err) ||
        proper_vlmc_compare_steps(e, ne, v, nv, tail, c.total_runs, &kl, &ll_v, &err) ||
        proper_vlmc_compare_steps(e, ne, e, ne, 0.0, c.total_runs, NULL, &ll_e, &err)) {
        rc = cli_report(&err);
        goto done;
    }
    n = ne > nv ? ne : nv;
    if (a->svg && (rc = vlmc_steps_svg(a->svg, e, ne, v, nv, kl))) goto done;
    if (a->svg && strcmp(a->svg, "-") == 0) goto done; /* stdout carries the picture */
    if (a->json) {
        cli_json j;
        cli_json_init(&j, stdout);
        cli_json_object_begin(&j);
        cli_json_key_number(&j, "kl", kl);
        cli_json_key_number(&j, "loglik_model", ll_v);
        cli_json_key_number(&j, "loglik_empirical", ll_e);
        cli_json_key_number(&j, "tail", tail);
        cli_json_key_uint(&j, "hull_states", m.n_states);
        cli_json_key(&j, "pmf");
        cli_json_array_begin(&j);
        for (k = 0; k < n; k++) {
            cli_json_array_begin(&j);
            cli_json_uint(&j, k);
            cli_json_number(&j, k < ne ? e[k] : 0.0);
            cli_json_number(&j, k < nv ? v[k] : 0.0);
            cli_json_array_end(&j);
        }
        cli_json_array_end(&j);
        cli_json_object_end(&j);
    } else if (a->csv) {
        printf("steps,empirical,model\n");
        for (k = 0; k < n; k++) printf("%lu,%.17g,%.17g\n", (unsigned long)k, k < ne ? e[k] : 0.0, k < nv ? v[k] : 0.0);
    } else {
        printf("# KL(E||V) %.6g nats; log-likelihood of the %llu run lengths: model %.10g, empirical %.10g\n", kl,
               (unsigned long long)c.total_runs, ll_v, ll_e);
        printf("# hull states %u; mass beyond the last length: %.3g\n", m.n_states, tail);
        printf("%8s  %12s  %12s\n", "steps", "empirical", "model");
        for (k = 0; k < n; k++) {
            double ek = k < ne ? e[k] : 0.0, vk = k < nv ? v[k] : 0.0;
            if (ek == 0.0 && vk < 1e-12) continue;
            printf("%8lu  %12.6g  %12.6g\n", (unsigned long)k, ek, vk);
        }
    }
done:
    PROPER_FREE(v);
    PROPER_FREE(e);
    proper_vlmc_free(&m);
    proper_vlmc_counts_free(&c);
    return rc;
}

static int vlmc_sample_cmd(vlmc_args *a, vlmc_progress *pr) {
    proper_vlmc_counts c;
    proper_vlmc m;
    proper_error err;
    proper_rng rng;
    uint32_t *run = NULL;
    size_t len, cap = 0, k;
    unsigned long i;
    int rc;
    if ((rc = vlmc_learn(a, &c, &m, pr))) return rc;
    if (proper_vlmc_hull(&m, 0, &err)) {
        rc = cli_report(&err);
        goto done;
    }
    proper_rng_seed(&rng, (uint64_t)a->seed);
    for (i = 0; i < a->n_samples; i++) {
        if (proper_vlmc_sample(&m, &rng, &run, &len, &cap, 0, &err)) {
            rc = cli_report(&err);
            goto done;
        }
        for (k = 0; k < len; k++) printf("%s%s", k ? " " : "", m.names[run[k]]);
        putchar('\n');
    }
    if (fflush(stdout) != 0) rc = cli_fail("write error");
done:
    PROPER_FREE(run);
    proper_vlmc_free(&m);
    proper_vlmc_counts_free(&c);
    return rc;
}

static int vlmc_count_cmd(vlmc_args *a, vlmc_progress *pr, int merge) {
    proper_vlmc_counts c;
    proper_error err;
    FILE *f;
    int rc;
    if (!a->out) return cli_fail("vlmc %s: -o/--output COUNTS is required ('-' for stdout)", merge ? "merge" : "count");
    if (merge) {
        size_t i;
        for (i = 0; i < a->n_inputs; i++) {
            FILE *in = fopen(a->inputs[i], "rb");
            char head[32];
            size_t got;
            if (!in) return cli_fail("%s: cannot open", a->inputs[i]);
            got = fread(head, 1, sizeof head - 1, in);
            fclose(in);
            head[got] = '\0';
            if (strncmp(head + (strncmp(head, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0), "proper-vlmc-counts", 18) != 0)
                return cli_fail("%s:1:1: not a counts file (merge takes files written by 'proper vlmc count')",
                                a->inputs[i]);
        }
    }
    a->allow_empty = merge;
    if ((rc = vlmc_load(a, &c, pr))) return rc;
    vlmc_progress_done(pr);
    f = vlmc_open_out(a->out);
    if (!f) {
        proper_vlmc_counts_free(&c);
        return cli_fail("%s: cannot open for writing", a->out);
    }
    rc = proper_vlmc_counts_write(&c, f, &err) ? cli_report(&err) : CLI_OK;
    if (rc == CLI_OK) rc = vlmc_close_out(f, a->out);
    else if (f != stdout) fclose(f);
    if (rc == CLI_OK && f != stdout)
        fprintf(stderr, "proper vlmc: %s: %llu runs, %lu distinct, %lu locations\n", a->out,
                (unsigned long long)c.total_runs, (unsigned long)c.n_runs, (unsigned long)c.locations.len);
    proper_vlmc_counts_free(&c);
    return rc;
}

int cmd_vlmc(int argc, char **argv) {
    vlmc_args a;
    vlmc_progress pr;
    cli_args help;
    const char *sub;
    int rc;
    cli_args_init(&help, "vlmc", argc, argv);
    if (help.help || argc < 2) {
        vlmc_usage(help.help ? stdout : stderr);
        return help.help ? CLI_OK : CLI_BAD_INPUT;
    }
    sub = argv[1];
    if (strcmp(sub, "fit") != 0 && strcmp(sub, "steps") != 0 && strcmp(sub, "sample") != 0 &&
        strcmp(sub, "count") != 0 && strcmp(sub, "merge") != 0)
        return cli_fail("vlmc: unknown subcommand '%s' (fit, steps, sample, count, merge)", sub);
    if ((rc = vlmc_parse(argc - 1, argv + 1, &a))) {
        PROPER_FREE(a.inputs);
        return rc;
    }
    pr.tty = isatty(fileno(stderr));
    pr.shown = 0;
    if (strcmp(sub, "fit") == 0) rc = vlmc_fit_cmd(&a, &pr);
    else if (strcmp(sub, "steps") == 0) rc = vlmc_steps_cmd(&a, &pr);
    else if (strcmp(sub, "sample") == 0) rc = vlmc_sample_cmd(&a, &pr);
    else rc = vlmc_count_cmd(&a, &pr, strcmp(sub, "merge") == 0);
    PROPER_FREE(a.inputs);
    return rc;
}
