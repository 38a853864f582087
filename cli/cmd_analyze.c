/* proper analyze — annotated source + count log → estimates, intervals,
 * property intervals and a verdict against a bound. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "../src/estimate.h"
#include "cli.h"
#include "json.h"
#include "svg.h"

static void analyze_usage(FILE *out) {
    fprintf(out,
            "usage: proper analyze FILE --function NAME (--log LOG.csv | --artifact MAP|DIR)\n"
            "                      [--confidence 0.95] [--method normal|wilson]\n"
            "                      [--box means|probabilities]\n"
            "                      [--bound REWARD<=X] [--svg OUT.svg] [--json] [--lenient]\n\n"
            "Synthesises the parametric DTMC of NAME (see 'proper synth'), estimates its\n"
            "parameters from the count log, and prints each expected reward as a point\n"
            "estimate and a confidence interval (exact extremes over the box of\n"
            "simultaneous intervals: of the mean counts by default, as the paper and\n"
            "FACT do, or of the probabilities).\n\n"
            "  --log FILE        per-run count log: CSV with a header naming columns p1..pn\n"
            "                    (or n1..nn), one row per execution with the number of\n"
            "                    times each conditional's branch was taken or loop body\n"
            "                    ran; or a trace with N pK counters, a record per run;\n"
            "                    or the totals file of 'proper-mpi counts' (per column:\n"
            "                    runs, sum, sum of squares; the same results as the rows)\n"
            "  --artifact MAP    PROPER artifact logs: p1=n1.csv,p2=n2.csv,p3=n3.csv\n"
            "                    (one integer per line per execution reaching the\n"
            "                    construct; a nested loop's file holds the run's total\n"
            "                    and is paired with its enclosing loop's file, which the\n"
            "                    model knows: ':pK' may confirm it, a different K is an\n"
            "                    error). Files that contradict the model (a conditional's\n"
            "                    count above 1, a line count the model cannot explain)\n"
            "                    are refused with what the model expected. A conditional\n"
            "                    in a loop may give one 0/1 line per reach or per-run\n"
            "                    totals, one line per line of its loop's file.\n"
            "                    A directory (the artifact's op_logs/<case>) stands for\n"
            "                    p1=DIR/n1.csv,...,pn=DIR/nn.csv; a DIR/n(n+1).csv is an\n"
            "                    error (the files are for another model)\n"
            "  --confidence C    overall confidence level (default 0.95); each of the m\n"
            "                    parameter intervals uses C^(1/m)\n"
            "  --method M        parameter intervals: normal (default; eqs. 6-8) or wilson\n"
            "                    (Wilson score intervals: taken count out of visits; not\n"
            "                    degenerate when a construct is never or always taken).\n"
            "                    A normal interval of zero width (every run with the same\n"
            "                    count) is reported in a note: it claims no uncertainty\n"
            "  --box B           what the reward interval ranges over: means (default\n"
            "                    with normal intervals: the box of mean-count intervals,\n"
            "                    the paper's Section 4.3.2) or probabilities (the box of\n"
            "                    parameter intervals; wider when a mean enters two\n"
            "                    probabilities, as a nested loop's; the only one with\n"
            "                    --method wilson)\n"
            "  --bound R<=X      check that reward R stays <= X (or R>=X), X finite; exit 1\n"
            "                    unless the whole interval satisfies it\n"
            "  --lenient         malformed @annotations are warnings (see 'proper synth')\n"
            "  --svg FILE        plot the property interval against confidence 0.90..0.99\n"
            "  --json            machine-readable output; an interval end that is not a\n"
            "                    finite number (an expected reward that is infinite\n"
            "                    somewhere in the box: a loop that may never end) is null;\n"
            "                    \"notes\" explains infinite ends and zero-width intervals\n");
}

typedef struct analyze_opts {
    const char *file, *function, *log, *artifact, *bound, *svg;
    double confidence;
    int method, box, json, lenient;
} analyze_opts;

/* Significant digits of every number in the human-readable output. */
#define ANALYZE_DIGITS 8

/* --artifact p1=a.csv,p3=c.csv:p2 → files[] and parent[] per parameter. */
static int parse_artifact_map(char *map, const proper_synth_model *m, const char **files, int *parent) {
    char *item = strtok(map, ",");
    for (; item; item = strtok(NULL, ",")) {
        char *eq = strchr(item, '='), *colon, *end = NULL;
        unsigned long k, q;
        if (!eq || (item[0] != 'p' && item[0] != 'n') || (k = strtoul(item + 1, &end, 10)) < 1 || k > m->n_params ||
            end != eq)
            return cli_fail("--artifact: '%s' is not pK=FILE with K in 1..%u", item, (unsigned)m->n_params);
        if (files[k - 1]) return cli_fail("--artifact: two files for p%lu", k);
        colon = strrchr(eq + 1, ':');
        if (colon && colon[1] == 'p') {
            q = strtoul(colon + 2, NULL, 10);
            if (q < 1 || q > m->n_params) return cli_fail("--artifact: bad parent in '%s'", item);
            *colon = '\0';
            parent[k - 1] = (int)q - 1;
        }
        files[k - 1] = eq + 1;
    }
    return CLI_OK;
}

/* --artifact DIR: "p1=DIR/n1.csv,...,pn=DIR/nn.csv" in buf; a DIR/n(n+1).csv
 * means the files were written for a model with more constructs. */
static int artifact_dir_map(const char *dir, const proper_synth_model *m, proper_strbuf *map, proper_error *err) {
    char path[4096];
    FILE *f;
    size_t k;
    for (k = 1; k <= m->n_params; k++) {
        snprintf(path, sizeof path, "%s/n%u.csv", dir, (unsigned)k);
        if (!(f = fopen(path, "r")))
            return proper_error_set(err, PROPER_EUNDEFINED, path, 0, 0, "--artifact %s: no file n%u.csv for p%u (the %s at "
                                    "line %d)", dir, (unsigned)k, (unsigned)k,
                                    m->params[k - 1].is_loop ? "loop" : "conditional", m->params[k - 1].line);
        fclose(f);
        proper_strbuf_printf(map, "%sp%u=%s", k > 1 ? "," : "", (unsigned)k, path);
    }
    snprintf(path, sizeof path, "%s/n%u.csv", dir, (unsigned)k);
    if ((f = fopen(path, "r"))) {
        fclose(f);
        return proper_error_set(err, PROPER_EINVAL, path, 0, 0, "--artifact %s: n%u.csv, but the model of %s has %u "
                                "conditional(s) and loop(s): are the logs for another function or version of the code?",
                                dir, (unsigned)k, m->function, (unsigned)m->n_params);
    }
    return CLI_OK;
}

static int is_directory(const char *path) {
    char probe[4096];
    FILE *f;
    snprintf(probe, sizeof probe, "%s/.", path);
    if (!(f = fopen(probe, "r"))) return 0;
    fclose(f);
    return 1;
}

static int estimate(const analyze_opts *o, const proper_synth_model *m, proper_estimate *est, proper_error *err,
                    double confidence) {
    int rc;
    if (o->log) {
        proper_estimate_counts log;
        proper_estimate_counts_init(&log);
        if ((rc = proper_estimate_counts_read(&log, o->log, err))) return rc;
        rc = proper_estimate_from_counts(est, m, &log, confidence, o->method, err);
        proper_estimate_counts_free(&log);
        if (rc == PROPER_OK) est->box = o->box;
        return rc;
    } else {
        const char **files = (const char **)calloc(m->n_params + 1, sizeof *files);
        int *parent = (int *)calloc(m->n_params + 1, sizeof *parent);
        proper_strbuf dir_map;
        char *map;
        size_t i;
        proper_strbuf_init(&dir_map);
        if (is_directory(o->artifact) && (rc = artifact_dir_map(o->artifact, m, &dir_map, err))) {
            free(files); free(parent); proper_strbuf_free(&dir_map);
            return rc;
        }
        map = (char *)malloc((dir_map.data ? strlen(dir_map.data) : strlen(o->artifact)) + 1);
        if (!files || !parent || !map) { free(files); free(parent); free(map); proper_strbuf_free(&dir_map); return PROPER_ENOMEM; }
        strcpy(map, dir_map.data ? dir_map.data : o->artifact);
        proper_strbuf_free(&dir_map);
        for (i = 0; i < m->n_params; i++) parent[i] = -1;
        proper_error_clear(err);
        rc = parse_artifact_map(map, m, files, parent) ? PROPER_EINVAL
             : proper_estimate_from_artifact(est, m, files, parent, confidence, o->method, err);
        if (rc == PROPER_OK) est->box = o->box;
        if (rc == PROPER_EINVAL && !err->message[0]) proper_error_set(err, rc, NULL, 0, 0, "bad --artifact map");
        free(files); free(parent); free(map);
        return rc;
    }
}

/* Fig. 6 of the paper: the property interval of reward `r` at confidence
 * levels 0.90, 0.91, ..., 0.99, with the point estimate and the bound. */
static int write_level_plot(const analyze_opts *o, const proper_synth_model *m, int r, double limit, int has_bound) {
    enum { LEVELS = 10 };
    double level[LEVELS], lo[LEVELS], hi[LEVELS], point[LEVELS], bound[LEVELS];
    char title[400], ylabel[64];
    svg_plot plot;
    svg_series s[3];
    proper_error err;
    int k;
    for (k = 0; k < LEVELS; k++) {
        proper_estimate est;
        proper_estimate_init(&est);
        level[k] = 0.90 + 0.01 * k;
        bound[k] = limit;
        if (estimate(o, m, &est, &err, level[k])) return cli_report(&err);
        if (proper_estimate_property(m, r, &est, &point[k], &lo[k], &hi[k], &err)) {
            proper_estimate_free(&est);
            return cli_report(&err);
        }
        proper_estimate_free(&est);
    }
    svg_plot_init(&plot);
    snprintf(title, sizeof title, "%s: expected %s against confidence level", m->function, m->reward_names[r]);
    for (k = 0; k < LEVELS; k++)
        if (isinf(hi[k])) { /* the band cannot be drawn to infinity: say where it is missing */
            snprintf(title, sizeof title, "%s: expected %s against confidence level (upper end infinite from %.2f on: "
                     "band not drawn there)", m->function, m->reward_names[r], level[k]);
            break;
        }
    snprintf(ylabel, sizeof ylabel, "expected %s", m->reward_names[r]);
    plot.title = title;
    plot.xlabel = "confidence level";
    plot.ylabel = ylabel;
    plot.y_from_zero = 0;
    svg_series_init(&s[0], "confidence interval", level, lo, LEVELS, SVG_BAND);
    s[0].y2 = hi;
    svg_series_init(&s[1], "point estimate", level, point, LEVELS, SVG_LINE);
    svg_series_init(&s[2], "bound", level, bound, LEVELS, SVG_LINE);
    if (svg_write_file(o->svg, &plot, s, has_bound ? 3 : 2)) return cli_fail("%s: cannot write", o->svg);
    return CLI_OK;
}

/* "time<=0.66" → reward index, sense (+1 for <=, -1 for >=), limit. */
static int parse_bound(const char *bound, const proper_synth_model *m, int *reward, int *upper, double *limit) {
    const char *op = strstr(bound, "<=");
    char name[64];
    proper_error err;
    size_t n;
    *upper = 1;
    if (!op) { op = strstr(bound, ">="); *upper = 0; }
    if (!op || (n = (size_t)(op - bound)) == 0 || n >= sizeof name)
        return cli_fail("--bound: expected REWARD<=X or REWARD>=X, got '%s'", bound);
    memcpy(name, bound, n);
    name[n] = '\0';
    if ((*reward = proper_synth_reward_index(m, name)) < 0)
        return cli_fail("--bound: no reward '%s' in the model (annotations define rewards)", name);
    if (proper_parse_double_str(op + 2, limit, "--bound", &err)) return cli_report(&err);
    if (!isfinite(*limit)) return cli_fail("--bound: the limit must be a finite number, got '%s'", op + 2);
    return CLI_OK;
}

static const char *verdict(int upper, double limit, double lo, double hi) {
    if (upper) return hi <= limit ? "satisfied" : lo > limit ? "violated" : "inconclusive";
    return lo >= limit ? "satisfied" : hi < limit ? "violated" : "inconclusive";
}

/* Sentences that explain what the numbers cannot say by themselves: zero-
 * width parameter intervals and infinite ends of reward intervals. */
static void collect_notes(const proper_synth_model *m, const proper_estimate *est, const double *lo, const double *hi,
                          proper_strbuf *notes) {
    size_t i, r;
    for (i = 0; i < m->n_params; i++)
        if (est->zero_width[i])
            proper_strbuf_printf(notes,
                                 "%s (the %s at line %d): every run has the same count, so its normal interval [%.6g, "
                                 "%.6g] has zero width and claims a certainty that %.0f samples cannot give; "
                                 "--method wilson gives an interval that is not degenerate\n",
                                 m->params[i].name, m->params[i].is_loop ? "loop" : "conditional", m->params[i].line,
                                 est->lo[i], est->hi[i], est->samples[i]);
    for (r = 0; r < m->n_rewards; r++) {
        int any = 0;
        if (!isinf(hi[r]) && !isinf(lo[r])) continue;
        proper_strbuf_printf(notes, "%s: the upper end is infinite: at some corner of the %.0f%% confidence box",
                             m->reward_names[r], 100 * est->confidence);
        for (i = 0; i < m->n_params; i++)
            if (m->params[i].is_loop && est->hi[i] >= 1.0) {
                proper_strbuf_printf(notes, "%s loop %s (line %d, interval [%.6g, 1])", any ? "," : "",
                                     m->params[i].name, m->params[i].line, est->lo[i]);
                any = 1;
            }
        if (any)
            proper_strbuf_printf(notes, " repeats with probability 1 and never ends, so no finite upper bound holds at "
                                        "this confidence; more runs that reach the loop narrow its interval\n");
        else
            proper_strbuf_printf(notes, " the run never reaches the end (a loop's exit has probability 0), so no "
                                        "finite upper bound holds at this confidence; more runs narrow the intervals\n");
        (void)lo;
    }
}

static void print_notes(const proper_strbuf *notes) {
    const char *w = notes->data;
    if (!w || !*w) return;
    printf("\n");
    while (*w) {
        const char *nl = strchr(w, '\n');
        int n = nl ? (int)(nl - w) : (int)strlen(w);
        printf("note: %.*s\n", n, w);
        w += n + (nl != NULL);
    }
}

static const char *box_name(int box) { return box == PROPER_ESTIMATE_BOX_MEANS ? "means" : "probabilities"; }

/* "cost: line 18 (throw) 5": what the model was built with, so that a
 * value that differs from the one meant (the artifact's Distance.java says
 * @cost=5, its published model 7) is in plain sight. */
static void print_annotations(const proper_synth_model *m) {
    size_t r, s;
    printf("\nannotations used (reward: line (statement) value)\n");
    for (r = 0; r < m->n_rewards; r++) {
        const char *sep = "";
        printf("  %s:", m->reward_names[r]);
        for (s = 0; s < m->n_states; s++) {
            double v = proper_synth_reward_at(m, r, s);
            if (v == 0.0) continue;
            printf("%s line %d (%s) %.*g", sep, m->states[s].line, m->states[s].what, ANALYZE_DIGITS, v);
            sep = ",";
        }
        printf("\n");
    }
}

static void print_human(const analyze_opts *o, const proper_synth_model *m, const proper_estimate *est,
                        const double *point, const double *lo, const double *hi) {
    size_t i;
    const int d = ANALYZE_DIGITS;
    printf("%s in %s: %u parameter(s), %.0f%% confidence (%.4f%% per parameter, %s intervals, box of %s)\n\n",
           m->function, o->file, (unsigned)m->n_params, 100 * est->confidence, 100 * est->per_param_confidence,
           est->method == PROPER_ESTIMATE_WILSON ? "Wilson score" : "normal", box_name(est->box));
    printf("%-6s %-5s %-8s %10s %10s %14s  %s\n", "param", "line", "kind", "taken", "reached", "estimate", "interval");
    for (i = 0; i < m->n_params; i++)
        printf("%-6s %-5d %-8s %10.0f %10.0f %14.*g  [%.*g, %.*g]\n", m->params[i].name, m->params[i].line,
               m->states[m->params[i].state].what, est->taken[i], est->reached[i], d, est->p[i], d, est->lo[i], d,
               est->hi[i]);
    printf("\n%-10s %14s  %s\n", "reward", "estimate", "interval");
    for (i = 0; i < m->n_rewards; i++)
        printf("%-10s %14.*g  [%.*g, %.*g]\n", m->reward_names[i], d, point[i], d, lo[i], d, hi[i]);
    print_annotations(m);
}

static void print_json(const analyze_opts *o, const proper_synth_model *m, const proper_estimate *est,
                       const double *point, const double *lo, const double *hi, const char *bound_verdict,
                       const proper_strbuf *notes) {
    size_t i;
    cli_json j;
    cli_json_init(&j, stdout);
    cli_json_object_begin(&j);
    cli_json_key_string(&j, "function", m->function);
    cli_json_key_number(&j, "confidence", est->confidence);
    cli_json_key_number(&j, "per_parameter_confidence", est->per_param_confidence);
    cli_json_key_string(&j, "method", est->method == PROPER_ESTIMATE_WILSON ? "wilson" : "normal");
    cli_json_key_string(&j, "box", box_name(est->box));
    cli_json_key(&j, "parameters");
    cli_json_array_begin(&j);
    for (i = 0; i < m->n_params; i++) {
        cli_json_object_begin(&j);
        cli_json_key_string(&j, "name", m->params[i].name);
        cli_json_key_int(&j, "line", m->params[i].line);
        cli_json_key_bool(&j, "loop", m->params[i].is_loop);
        cli_json_key_number(&j, "taken", est->taken[i]);
        cli_json_key_number(&j, "reached", est->reached[i]);
        cli_json_key_number(&j, "estimate", est->p[i]);
        cli_json_key_number(&j, "lo", est->lo[i]);
        cli_json_key_number(&j, "hi", est->hi[i]);
        cli_json_key_bool(&j, "zero_width", est->zero_width[i]);
        cli_json_object_end(&j);
    }
    cli_json_array_end(&j);
    cli_json_key(&j, "rewards");
    cli_json_array_begin(&j);
    for (i = 0; i < m->n_rewards; i++) {
        cli_json_object_begin(&j);
        cli_json_key_string(&j, "name", m->reward_names[i]);
        cli_json_key_number(&j, "estimate", point[i]);
        cli_json_key_number(&j, "lo", lo[i]);
        cli_json_key_number(&j, "hi", hi[i]);
        cli_json_key(&j, "annotations");
        cli_json_array_begin(&j);
        {
            size_t s;
            for (s = 0; s < m->n_states; s++) {
                double v = proper_synth_reward_at(m, i, s);
                if (v == 0.0) continue;
                cli_json_object_begin(&j);
                cli_json_key_int(&j, "line", m->states[s].line);
                cli_json_key_string(&j, "statement", m->states[s].what);
                cli_json_key_number(&j, "value", v);
                cli_json_object_end(&j);
            }
        }
        cli_json_array_end(&j);
        cli_json_object_end(&j);
    }
    cli_json_array_end(&j);
    cli_json_key(&j, "notes");
    cli_json_array_begin(&j);
    {
        const char *w = notes->data;
        while (w && *w) {
            const char *nl = strchr(w, '\n');
            size_t n = nl ? (size_t)(nl - w) : strlen(w);
            cli_json_string_n(&j, w, n);
            w += n + (nl != NULL);
        }
    }
    cli_json_array_end(&j);
    if (bound_verdict) {
        cli_json_key(&j, "bound");
        cli_json_object_begin(&j);
        cli_json_key_string(&j, "text", o->bound);
        cli_json_key_string(&j, "verdict", bound_verdict);
        cli_json_object_end(&j);
    }
    cli_json_object_end(&j);
}

/* CLI_OK to go on, -1 after --help (usage printed), or CLI_BAD_INPUT. */
static int analyze_parse_args(int argc, char **argv, analyze_opts *o) {
    cli_args a;
    memset(o, 0, sizeof *o);
    o->confidence = 0.95;
    o->method = PROPER_ESTIMATE_NORMAL;
    o->box = -1;
    cli_args_init(&a, "analyze", argc, argv);
    if (a.help) {
        analyze_usage(stdout);
        return -1;
    }
    while (cli_next(&a)) {
        if (cli_flag(&a, "--json")) o->json = 1;
        else if (cli_flag(&a, "--lenient")) o->lenient = 1;
        else if (cli_opt(&a, "--function")) o->function = a.value;
        else if (cli_opt(&a, "--log")) o->log = a.value;
        else if (cli_opt(&a, "--artifact")) o->artifact = a.value;
        else if (cli_opt(&a, "--bound")) o->bound = a.value;
        else if (cli_opt(&a, "--svg")) o->svg = a.value;
        else if (cli_opt_double(&a, "--confidence", "(0,1)", &o->confidence)) {
        } else if (cli_opt(&a, "--method")) {
            if (a.value && strcmp(a.value, "normal") == 0) o->method = PROPER_ESTIMATE_NORMAL;
            else if (a.value && strcmp(a.value, "wilson") == 0) o->method = PROPER_ESTIMATE_WILSON;
            else if (a.value) return cli_fail("--method: expected normal or wilson, got '%s'", a.value);
        } else if (cli_opt(&a, "--box")) {
            if (a.value && strcmp(a.value, "means") == 0) o->box = PROPER_ESTIMATE_BOX_MEANS;
            else if (a.value && strcmp(a.value, "probabilities") == 0) o->box = PROPER_ESTIMATE_BOX_PROBABILITIES;
            else if (a.value) return cli_fail("--box: expected means or probabilities, got '%s'", a.value);
        } else if (cli_positional(&a)) {
            if (o->file) return cli_usage_error(&a, "unexpected argument '%s'", a.value);
            o->file = a.value;
        } else cli_unknown(&a);
    }
    if (a.status) return a.status;
    if (!o->file) return cli_usage_error(&a, "no source FILE");
    if (!o->function) return cli_usage_error(&a, "--function NAME is required");
    if (!o->log == !o->artifact) return cli_usage_error(&a, "give one of --log and --artifact");
    if (o->box == PROPER_ESTIMATE_BOX_MEANS && o->method == PROPER_ESTIMATE_WILSON)
        return cli_usage_error(&a, "--box means needs normal intervals of the mean counts; Wilson intervals bound "
                                   "probabilities (--box probabilities)");
    if (o->box < 0)
        o->box = o->method == PROPER_ESTIMATE_WILSON ? PROPER_ESTIMATE_BOX_PROBABILITIES : PROPER_ESTIMATE_BOX_MEANS;
    return CLI_OK;
}

int cmd_analyze(int argc, char **argv) {
    analyze_opts o;
    proper_synth_model m;
    proper_synth_opts so = proper_synth_opts_default();
    proper_estimate est;
    proper_error err;
    proper_strbuf notes;
    double *point = NULL, *lo = NULL, *hi = NULL, limit = 0;
    int status, bound_reward = -1, upper = 1;
    const char *bound_verdict = NULL;
    size_t r;
    if ((status = analyze_parse_args(argc, argv, &o)) != CLI_OK) return status < 0 ? CLI_OK : status;
    proper_synth_init(&m);
    proper_estimate_init(&est);
    so.lenient = o.lenient;
    if (proper_synth_read_opts(&m, o.file, o.function, so, &err)) return cli_report(&err);
    cli_warn_lines(m.warnings);
    if (m.n_rewards == 0) { proper_synth_free(&m); return cli_fail("%s: %s has no @reward annotations", o.file, o.function); }
    if (o.bound && (status = parse_bound(o.bound, &m, &bound_reward, &upper, &limit))) { proper_synth_free(&m); return status; }
    if (estimate(&o, &m, &est, &err, o.confidence)) { proper_synth_free(&m); return cli_report(&err); }
    point = (double *)proper_calloc(m.n_rewards, sizeof *point);
    lo = (double *)proper_calloc(m.n_rewards, sizeof *lo);
    hi = (double *)proper_calloc(m.n_rewards, sizeof *hi);
    for (r = 0; point && lo && hi && r < m.n_rewards; r++)
        if (proper_estimate_property(&m, (int)r, &est, &point[r], &lo[r], &hi[r], &err)) { status = cli_report(&err); break; }
    if (!point || !lo || !hi) status = cli_fail("out of memory");
    proper_strbuf_init(&notes);
    if (status == CLI_OK) {
        if (bound_reward >= 0) {
            bound_verdict = verdict(upper, limit, lo[bound_reward], hi[bound_reward]);
            if (strcmp(bound_verdict, "satisfied") != 0) status = CLI_CHECK_FAILED;
        }
        collect_notes(&m, &est, lo, hi, &notes);
        if (o.json) print_json(&o, &m, &est, point, lo, hi, bound_verdict, &notes);
        else print_human(&o, &m, &est, point, lo, hi);
        if (bound_verdict && !o.json)
            printf("\nbound %s: %s (interval [%.*g, %.*g])\n", o.bound, bound_verdict, ANALYZE_DIGITS, lo[bound_reward],
                   ANALYZE_DIGITS, hi[bound_reward]);
        if (!o.json) print_notes(&notes);
        if (o.svg) {
            int plot_status = write_level_plot(&o, &m, bound_reward >= 0 ? bound_reward : 0, limit, bound_reward >= 0);
            if (plot_status) status = plot_status;
        }
    }
    PROPER_FREE(point); PROPER_FREE(lo); PROPER_FREE(hi);
    proper_strbuf_free(&notes);
    proper_estimate_free(&est);
    proper_synth_free(&m);
    return status;
}
