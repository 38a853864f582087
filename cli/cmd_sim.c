/* proper sim — simulation models of multithreaded programs (src/sim.h):
 * run a model, sweep a what-if grid, print a model in its normal form. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/sim.h"
#include "cli.h"
#include "json.h"
#include "svg.h"

/* Most --set and --grid options, and most grid points. */
#define SIM_MAX_SETS 64
#define SIM_MAX_GRID 8
#define SIM_MAX_POINTS 4096
/* Default --max-events: 10^9 events (about 100 s of CPU) per replication,
 * so that a model whose events never thin out (a tiny inter-arrival time or
 * time slice) stops with an error instead of running for hours. */
#define SIM_MAX_EVENTS 1000000000ULL

static void sim_usage(FILE *out) {
    fprintf(out,
            "usage: proper sim run MODEL [--set KEY=VALUE]... [options]\n"
            "       proper sim whatif MODEL --grid KEY=V1,V2,... [--grid ...] [options]\n"
            "       proper sim print MODEL [-o FILE]\n"
            "       proper sim build TRACE... -o MODEL [--merge T] [--io-hit S] [--points N]\n"
            "                        [--no-loops] [--no-wakeup]\n\n"
            "Simulates a model of a multithreaded program (thread pools walking\n"
            "probabilistic call graphs over CPU cores, a disk, locks and task queues;\n"
            "the model file's grammar is in src/sim.h) and prints throughput, mean and\n"
            "quantile response time, CPU utilisation (all cores and each core), disk\n"
            "utilisation, the mean holders of each\n"
            "lock and the mean length of each queue, each with a confidence interval over\n"
            "independent replications. 'whatif' runs the model at every point of the\n"
            "grid (the product of the --grid lists) and prints one row per point. 'print'\n"
            "writes the model back in its normal form. 'build' makes a model from\n"
            "thread-event traces of one or more runs of the program (the format and\n"
            "the method are in src/sim.h): a PCG per thread pool, code fragments below\n"
            "T of the pool's CPU time (or bytes) merged away (--merge, default 0.03),\n"
            "file operations that read no block from the device counted as page-cache\n"
            "hits (traces without block counts: those shorter than S seconds,\n"
            "--io-hit, default 5e-05), at most N points per empirical distribution\n"
            "(--points, default 32), cycles whose body is a straight path made explicit\n"
            "loops with their observed iteration counts (--no-loops leaves them PCG\n"
            "cycles, whose counts are geometric), the mean wake-up latency of the\n"
            "traced hand-offs to waiting threads as the model's wakeup (--no-wakeup:\n"
            "none), the trace's latency on its open sources; --cores N sets the\n"
            "model's cores instead of the trace's declaration.\n\n"
            "configuration (KEY=VALUE, for --set and --grid):\n"
            "  cores=N  quantum=T|ps|fifo  wakeup=T  disks=N  workers=N (the pools that\n"
            "  get tasks and complete them)  threads.POOL=N  capacity.QUEUE=N  permits.LOCK=N\n"
            "  rate=R (arrivals per second of every open source; rate.SOURCE=R for one)\n"
            "  clients=N  think=T (closed sources; clients.SOURCE=, think.SOURCE=)\n"
            "  --cores N, --workers N and --rate R are short for --set cores=N etc.\n\n"
            "options:\n"
            "  --horizon T          simulated seconds per replication (default 1000)\n"
            "  --warmup T|auto      seconds left out at the start of each replication, or\n"
            "                       auto: the MSER cut of the mean response time over\n"
            "                       the replications (default auto)\n"
            "  --replications N     independent replications (default 10)\n"
            "  --level L            confidence level of every interval (default 0.95)\n"
            "  --quantile Q         the response-time quantile reported (default 0.95)\n"
            "  --max-events N       events one replication may take; more is an error\n"
            "                       (default 1e9)\n"
            "  --seed N             random seed (default 1); a seed gives the same output\n"
            "  --json               print JSON: every figure is an object {\"estimate\",\n"
            "                       \"lo\", \"hi\"}; null where it is not defined (no\n"
            "                       completion with a response time, or one replication\n"
            "                       for an interval)\n"
            "  --svg FILE           whatif: predicted throughput against the first grid\n"
            "                       parameter, one line per value of the others, with the\n"
            "                       intervals as error bars\n"
            "  --svg-response FILE  whatif: the same for the mean response time\n"
            "  -o, --output FILE    write the output there instead of stdout\n\n"
            "Exit status: 0 success; 2 bad input (an unreadable or invalid model, a bad\n"
            "option, or a model error found while simulating, such as a thread that\n"
            "unlocks a mutex it does not hold).\n");
}

typedef struct sim_cli {
    const char *verb, *model, *output, *svg, *svg_response;
    const char *traces[SIM_MAX_SETS];
    size_t n_traces;
    const char *sets[SIM_MAX_SETS];
    size_t n_sets;
    const char *grid[SIM_MAX_GRID];
    size_t n_grid;
    int json;
    proper_sim_opts opts;
    proper_sim_build_opts build;
    char shortcut[3][64];
} sim_cli;

static int sim_add_set(cli_args *a, sim_cli *o, const char *s) {
    if (o->n_sets == SIM_MAX_SETS) return cli_usage_error(a, "more than %d --set options", SIM_MAX_SETS);
    o->sets[o->n_sets++] = s;
    return CLI_OK;
}

/* --cores N, --workers N, --rate R: the same as --set cores=N etc. */
static int sim_shortcut(cli_args *a, sim_cli *o, int k) {
    snprintf(o->shortcut[k], sizeof o->shortcut[k], "%s=%s", a->name + 2, a->value);
    return sim_add_set(a, o, o->shortcut[k]);
}

static int sim_parse_args(int argc, char **argv, sim_cli *o) {
    cli_args a;
    unsigned long long u;
    int npos = 0;
    memset(o, 0, sizeof *o);
    o->opts = proper_sim_opts_default();
    o->opts.max_events = SIM_MAX_EVENTS;
    o->build = proper_sim_build_opts_default();
    cli_args_init(&a, "sim", argc, argv);
    if (a.help) {
        sim_usage(stdout);
        return -1;
    }
    while (cli_next(&a)) {
        if (cli_flag(&a, "--json")) o->json = 1;
        else if (cli_flag(&a, "--no-loops")) o->build.loops = 0;
        else if (cli_flag(&a, "--no-wakeup")) o->build.wakeup = 0;
        else if (cli_opt(&a, "-o|--output")) o->output = a.value;
        else if (cli_opt(&a, "--svg")) o->svg = a.value;
        else if (cli_opt(&a, "--svg-response")) o->svg_response = a.value;
        else if (cli_opt(&a, "--set")) {
            if (a.value && sim_add_set(&a, o, a.value)) break;
        } else if (cli_opt(&a, "--cores")) {
            if (!a.value || sim_shortcut(&a, o, 0)) break;
            o->build.cores = (size_t)strtoul(a.value, NULL, 10);
        } else if (cli_opt(&a, "--workers")) {
            if (!a.value || sim_shortcut(&a, o, 1)) break;
        } else if (cli_opt(&a, "--rate")) {
            if (!a.value || sim_shortcut(&a, o, 2)) break;
        } else if (cli_opt(&a, "--grid")) {
            if (!a.value) break;
            if (o->n_grid == SIM_MAX_GRID) { cli_usage_error(&a, "more than %d --grid options", SIM_MAX_GRID); break; }
            if (!strchr(a.value, '=')) { cli_usage_error(&a, "--grid: expected KEY=V1,V2,..., got '%s'", a.value); break; }
            o->grid[o->n_grid++] = a.value;
        } else if (cli_opt_double(&a, "--merge", "[0,1)", &o->build.merge)) {
        } else if (cli_opt_double(&a, "--io-hit", "[0,inf)", &o->build.io_hit)) {
        } else if (cli_opt_uint(&a, "--points", 1, 100000, &u)) {
            o->build.points = (size_t)u;
        } else if (cli_opt_double(&a, "--horizon", "(0,inf)", &o->opts.horizon)) {
        } else if (cli_opt(&a, "--warmup")) {
            if (!a.value) break;
            if (strcmp(a.value, "auto") == 0) o->opts.warmup = -1;
            else if (cli_parse_double(a.value, "[0,inf)", "--warmup", &o->opts.warmup)) { a.status = CLI_BAD_INPUT; break; }
        } else if (cli_opt_uint(&a, "--replications", 1, 1000000, &u)) {
            o->opts.replications = (size_t)u;
        } else if (cli_opt_double(&a, "--level", "(0,1)", &o->opts.level)) {
        } else if (cli_opt_double(&a, "--quantile", "[0,1]", &o->opts.quantile)) {
        } else if (cli_opt_uint(&a, "--max-events", 1, ~0ULL, &u)) {
            o->opts.max_events = u;
        } else if (cli_opt_uint(&a, "--seed", 0, ~0ULL, &u)) {
            o->opts.seed = u;
        } else if (cli_positional(&a)) {
            if (npos == 0) o->verb = a.value;
            else if (npos == 1) o->model = a.value;
            else if (strcmp(o->verb, "build") != 0) { cli_usage_error(&a, "unexpected argument '%s'", a.value); break; }
            if (npos >= 1 && strcmp(o->verb, "build") == 0) {
                if (o->n_traces == SIM_MAX_SETS) { cli_usage_error(&a, "more than %d traces", SIM_MAX_SETS); break; }
                o->traces[o->n_traces++] = a.value;
            }
            npos++;
        } else {
            cli_unknown(&a);
        }
    }
    if (a.status) return a.status;
    if (!o->verb) return cli_usage_error(&a, "expected run, whatif, print or build");
    if (strcmp(o->verb, "run") && strcmp(o->verb, "whatif") && strcmp(o->verb, "print") && strcmp(o->verb, "build"))
        return cli_usage_error(&a, "unknown verb '%s': expected run, whatif, print or build", o->verb);
    if (!o->model) return cli_usage_error(&a, strcmp(o->verb, "build") ? "expected a MODEL file" : "expected a TRACE file");
    if (strcmp(o->verb, "build") == 0 && !o->output) return cli_usage_error(&a, "build needs -o MODEL");
    if (strcmp(o->verb, "whatif") == 0 && o->n_grid == 0) return cli_usage_error(&a, "whatif needs at least one --grid");
    if (strcmp(o->verb, "whatif") != 0 && (o->n_grid || o->svg || o->svg_response))
        return cli_usage_error(&a, "--grid, --svg and --svg-response are for whatif");
    if (o->opts.warmup >= o->opts.horizon) return cli_usage_error(&a, "--warmup must be shorter than --horizon");
    return CLI_OK;
}

static int sim_apply(proper_sim_model *m, const char *assignment) {
    proper_error err;
    if (proper_sim_set(m, assignment, &err)) return cli_fail("--set %s: %s", assignment, err.message);
    return CLI_OK;
}

static void sim_json_interval(cli_json *j, const char *key, proper_interval iv) {
    cli_json_key(j, key);
    cli_json_object_begin(j);
    cli_json_key_number(j, "estimate", iv.estimate);
    cli_json_key_number(j, "lo", iv.lo);
    cli_json_key_number(j, "hi", iv.hi);
    cli_json_object_end(j);
}

static void sim_json_result(cli_json *j, const proper_sim_model *m, const proper_sim_result *r) {
    size_t i;
    sim_json_interval(j, "throughput", r->throughput);
    sim_json_interval(j, "response_mean", r->response);
    sim_json_interval(j, "response_quantile", r->response_q);
    sim_json_interval(j, "cpu_utilisation", r->cpu_util);
    cli_json_key(j, "cores");
    cli_json_array_begin(j);
    for (i = 0; i < r->n_cores; i++) {
        cli_json_object_begin(j);
        cli_json_key_uint(j, "core", i);
        sim_json_interval(j, "utilisation", r->core_util[i]);
        cli_json_object_end(j);
    }
    cli_json_array_end(j);
    sim_json_interval(j, "disk_utilisation", r->disk_util);
    cli_json_key(j, "locks");
    cli_json_array_begin(j);
    for (i = 0; i < r->n_locks; i++) {
        cli_json_object_begin(j);
        cli_json_key_string(j, "name", m->locks[i].name);
        sim_json_interval(j, "mean", r->lock_util[i]);
        cli_json_object_end(j);
    }
    cli_json_array_end(j);
    cli_json_key(j, "queues");
    cli_json_array_begin(j);
    for (i = 0; i < r->n_queues; i++) {
        cli_json_object_begin(j);
        cli_json_key_string(j, "name", m->queues[i].name);
        sim_json_interval(j, "mean_length", r->queue_len[i]);
        cli_json_object_end(j);
    }
    cli_json_array_end(j);
    cli_json_key_number(j, "warmup", r->warmup);
    cli_json_key_number(j, "completed", r->completed);
    cli_json_key_number(j, "dropped", r->dropped);
    cli_json_key_uint(j, "events", r->events);
}

static void sim_text_line(FILE *f, const char *what, proper_interval iv, const char *unit) {
    fprintf(f, "  %-26s %12.6g %-4s [%.6g, %.6g]\n", what, iv.estimate, unit, iv.lo, iv.hi);
}

static int sim_run(const sim_cli *o, const proper_sim_model *m, FILE *f) {
    proper_sim_result r;
    proper_error err;
    double t0 = cli_now(), secs;
    size_t i;
    char what[300];
    proper_sim_result_init(&r);
    if (proper_sim_run(m, &o->opts, &r, &err)) {
        cli_fail("%s: %s", o->model, err.message);
        return CLI_BAD_INPUT;
    }
    secs = cli_now() - t0;
    if (o->json) {
        cli_json j;
        cli_json_init(&j, f);
        cli_json_object_begin(&j);
        cli_json_key_string(&j, "model", o->model);
        cli_json_key_number(&j, "horizon", o->opts.horizon);
        cli_json_key_uint(&j, "replications", o->opts.replications);
        cli_json_key_number(&j, "level", o->opts.level);
        cli_json_key_number(&j, "quantile", o->opts.quantile);
        cli_json_key_uint(&j, "seed", o->opts.seed);
        sim_json_result(&j, m, &r);
        cli_json_object_end(&j);
    } else {
        fprintf(f, "model %s: %lu replications of %g s, warm-up %g s, seed %llu, %g%% intervals\n", o->model,
                (unsigned long)o->opts.replications, o->opts.horizon, r.warmup, (unsigned long long)o->opts.seed,
                100 * o->opts.level);
        sim_text_line(f, "throughput", r.throughput, "/s");
        sim_text_line(f, "response time, mean", r.response, "s");
        snprintf(what, sizeof what, "response time, q%g", 100 * o->opts.quantile);
        sim_text_line(f, what, r.response_q, "s");
        sim_text_line(f, "cpu utilisation", r.cpu_util, "");
        for (i = 0; i < r.n_cores; i++) {
            snprintf(what, sizeof what, "  core %lu", (unsigned long)i);
            sim_text_line(f, what, r.core_util[i], "");
        }
        sim_text_line(f, "disk utilisation", r.disk_util, "");
        for (i = 0; i < r.n_locks; i++) {
            snprintf(what, sizeof what, "lock %.200s", m->locks[i].name);
            sim_text_line(f, what, r.lock_util[i], "");
        }
        for (i = 0; i < r.n_queues; i++) {
            snprintf(what, sizeof what, "queue %.200s length", m->queues[i].name);
            sim_text_line(f, what, r.queue_len[i], "");
        }
        fprintf(f, "%g completions measured, %g dropped; %llu events in %.3g s (%.3g events/s)\n", r.completed,
                r.dropped, r.events, secs, secs > 0 ? (double)r.events / secs : 0.0);
    }
    proper_sim_result_free(&r);
    return CLI_OK;
}

/* One --grid: "key=v1,v2,...". */
typedef struct sim_axis {
    char key[128];
    char *values[SIM_MAX_POINTS];
    size_t n;
    char *buf;
} sim_axis;

static int sim_axis_parse(sim_axis *ax, const char *spec) {
    const char *eq = strchr(spec, '=');
    char *p;
    memset(ax, 0, sizeof *ax);
    if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof ax->key)
        return cli_fail("--grid: expected KEY=V1,V2,..., got '%s'", spec);
    memcpy(ax->key, spec, (size_t)(eq - spec));
    if (!(ax->buf = proper_strdup(eq + 1))) return cli_fail("out of memory");
    for (p = ax->buf;;) {
        char *c = strchr(p, ',');
        if (c) *c = '\0';
        if (*p == '\0') return cli_fail("--grid %s: an empty value", spec);
        if (strlen(p) > 300) return cli_fail("--grid: a value longer than 300 characters");
        if (ax->n == SIM_MAX_POINTS) return cli_fail("--grid %s: more than %d values", spec, SIM_MAX_POINTS);
        ax->values[ax->n++] = p;
        if (!c) break;
        p = c + 1;
    }
    return CLI_OK;
}

static int sim_whatif(const sim_cli *o, const proper_sim_model *base, FILE *f) {
    sim_axis ax[SIM_MAX_GRID];
    size_t na = 0, points = 1, pt, i, k;
    proper_sim_result *res = NULL;
    double *xv = NULL;
    int rc = CLI_OK;
    cli_json j;
    char assign[512];
    for (i = 0; i < o->n_grid; i++) {
        if ((rc = sim_axis_parse(&ax[na], o->grid[i]))) { if (ax[na].buf) na++; goto done; }
        points *= ax[na].n;
        na++;
        if (points > SIM_MAX_POINTS) { rc = cli_fail("the grid has more than %d points", SIM_MAX_POINTS); goto done; }
    }
    res = (proper_sim_result *)proper_calloc(points, sizeof *res);
    xv = (double *)proper_calloc(points, sizeof(double));
    if (!res || !xv) { rc = cli_fail("out of memory"); goto done; }
    /* check every value first, so that a typo fails before the long runs */
    for (i = 0; i < na; i++)
        for (k = 0; k < ax[i].n; k++) {
            proper_sim_model t;
            proper_error err;
            proper_sim_init(&t);
            snprintf(assign, sizeof assign, "%.127s=%.300s", ax[i].key, ax[i].values[k]);
            if (proper_sim_copy(&t, base, &err) || proper_sim_set(&t, assign, &err) || proper_sim_validate(&t, &err)) {
                proper_sim_free(&t);
                rc = cli_fail("--grid %s: %s", assign, err.message);
                goto done;
            }
            proper_sim_free(&t);
        }
    if (o->json) {
        cli_json_init(&j, f);
        cli_json_object_begin(&j);
        cli_json_key_string(&j, "model", o->model);
        cli_json_key_number(&j, "horizon", o->opts.horizon);
        cli_json_key_uint(&j, "replications", o->opts.replications);
        cli_json_key_number(&j, "level", o->opts.level);
        cli_json_key_number(&j, "quantile", o->opts.quantile);
        cli_json_key_uint(&j, "seed", o->opts.seed);
        cli_json_key(&j, "parameters");
        cli_json_array_begin(&j);
        for (i = 0; i < na; i++) cli_json_string(&j, ax[i].key);
        cli_json_array_end(&j);
        cli_json_key(&j, "points");
        cli_json_array_begin(&j);
    } else {
        fprintf(f, "model %s: %lu replications of %g s each, seed %llu, %g%% intervals\n", o->model,
                (unsigned long)o->opts.replications, o->opts.horizon, (unsigned long long)o->opts.seed,
                100 * o->opts.level);
        for (i = 0; i < na; i++) fprintf(f, "%-10.10s ", ax[i].key);
        fprintf(f, "%12s %12s %12s %12s %12s %8s %8s\n", "throughput", "+-", "resp_mean", "+-", "resp_q", "cpu", "disk");
    }
    for (pt = 0; pt < points; pt++) {
        proper_sim_model t;
        proper_error err;
        size_t rem = pt, idx[SIM_MAX_GRID];
        proper_sim_init(&t);
        for (i = na; i-- > 0;) {
            idx[i] = rem % ax[i].n;
            rem /= ax[i].n;
        }
        if (proper_sim_copy(&t, base, &err)) { rc = cli_report(&err); goto done; }
        for (i = 0; i < na; i++) {
            snprintf(assign, sizeof assign, "%.127s=%.300s", ax[i].key, ax[i].values[idx[i]]);
            if ((rc = sim_apply(&t, assign))) { proper_sim_free(&t); goto done; }
        }
        xv[pt] = strtod(ax[0].values[idx[0]], NULL);
        if (proper_sim_run(&t, &o->opts, &res[pt], &err)) {
            proper_sim_free(&t);
            rc = cli_fail("%s: %s", o->model, err.message);
            goto done;
        }
        if (o->json) {
            cli_json_object_begin(&j);
            cli_json_key(&j, "settings");
            cli_json_object_begin(&j);
            for (i = 0; i < na; i++) cli_json_key_string(&j, ax[i].key, ax[i].values[idx[i]]);
            cli_json_object_end(&j);
            sim_json_result(&j, &t, &res[pt]);
            cli_json_object_end(&j);
        } else {
            const proper_sim_result *r = &res[pt];
            for (i = 0; i < na; i++) fprintf(f, "%-10.10s ", ax[i].values[idx[i]]);
            fprintf(f, "%12.6g %12.3g %12.6g %12.3g %12.6g %8.3f %8.3f\n", r->throughput.estimate,
                    (r->throughput.hi - r->throughput.lo) / 2, r->response.estimate, (r->response.hi - r->response.lo) / 2,
                    r->response_q.estimate, r->cpu_util.estimate, r->disk_util.estimate);
        }
        proper_sim_free(&t);
    }
    if (o->json) {
        cli_json_array_end(&j);
        cli_json_object_end(&j);
    }
    /* plots: against the first parameter, one line per combination of the others */
    for (k = 0; k < 2; k++) {
        const char *path = k == 0 ? o->svg : o->svg_response;
        size_t lines = points / ax[0].n, l, n0 = ax[0].n;
        svg_plot plot;
        svg_series *s;
        double *ys, *lo, *hi;
        char (*labels)[256];
        if (!path) continue;
        s = (svg_series *)proper_calloc(2 * lines, sizeof *s);
        ys = (double *)proper_calloc(points, sizeof(double));
        lo = (double *)proper_calloc(points, sizeof(double));
        hi = (double *)proper_calloc(points, sizeof(double));
        labels = (char (*)[256])proper_calloc(lines, sizeof *labels);
        if (!s || !ys || !lo || !hi || !labels) {
            rc = cli_fail("out of memory");
        } else {
            double *xs = (double *)proper_calloc(points, sizeof(double));
            if (!xs) rc = cli_fail("out of memory");
            for (l = 0; xs && l < lines; l++) {
                size_t q, off = 0, rem = l;
                /* the points of line l: the first axis varies, the others fixed */
                for (q = 0; q < n0; q++) {
                    size_t p = q * lines + l;
                    proper_interval iv = k == 0 ? res[p].throughput : res[p].response;
                    xs[l * n0 + q] = xv[p];
                    ys[l * n0 + q] = iv.estimate;
                    lo[l * n0 + q] = iv.lo;
                    hi[l * n0 + q] = iv.hi;
                }
                {
                    size_t vi[SIM_MAX_GRID];
                    labels[l][0] = '\0';
                    for (i = na; i-- > 1;) {
                        vi[i] = rem % ax[i].n;
                        rem /= ax[i].n;
                    }
                    for (i = 1; i < na; i++) {
                        off += (size_t)snprintf(labels[l] + off, off < 256 ? 256 - off : 0, "%s%s=%s", off ? " " : "",
                                                ax[i].key, ax[i].values[vi[i]]);
                        if (off >= 256) off = 255;
                    }
                }
                svg_series_init(&s[2 * l], labels[l][0] ? labels[l] : "predicted", xs + l * n0, ys + l * n0, n0, SVG_LINE);
                svg_series_init(&s[2 * l + 1], NULL, xs + l * n0, lo + l * n0, n0, SVG_ERRORBAR);
                s[2 * l + 1].y2 = hi + l * n0;
            }
            if (xs) {
                svg_plot_init(&plot);
                plot.title = k == 0 ? "predicted throughput" : "predicted mean response time";
                plot.xlabel = ax[0].key;
                plot.ylabel = k == 0 ? "throughput (per second)" : "response time (s)";
                if (svg_write_file(path, &plot, s, 2 * lines) != 0) rc = cli_fail("%s: cannot write the plot", path);
                PROPER_FREE(xs);
            }
        }
        PROPER_FREE(s);
        PROPER_FREE(ys);
        PROPER_FREE(lo);
        PROPER_FREE(hi);
        PROPER_FREE(labels);
        if (rc) goto done;
    }
done:
    if (res)
        for (pt = 0; pt < points; pt++) proper_sim_result_free(&res[pt]);
    PROPER_FREE(res);
    PROPER_FREE(xv);
    for (i = 0; i < na; i++) PROPER_FREE(ax[i].buf);
    return rc;
}

static int sim_build(const sim_cli *o) {
    proper_sim_trace tr;
    proper_sim_model m;
    proper_sim_build_stats st;
    proper_error err;
    FILE *f;
    size_t i;
    int rc = CLI_OK;
    proper_sim_trace_init(&tr);
    proper_sim_init(&m);
    if (proper_sim_trace_read(&tr, o->traces[0], &err)) return cli_report(&err);
    for (i = 1; i < o->n_traces; i++) {
        proper_sim_trace more;
        proper_sim_trace_init(&more);
        if (proper_sim_trace_read(&more, o->traces[i], &err)) {
            proper_sim_trace_free(&tr);
            return cli_report(&err);
        }
        rc = proper_sim_trace_append(&tr, &more, &err);
        proper_sim_trace_free(&more);
        if (rc) {
            proper_sim_trace_free(&tr);
            return cli_fail("%s: %s", o->traces[i], err.message);
        }
    }
    if (proper_sim_build(&m, &tr, &o->build, &st, &err)) {
        proper_sim_trace_free(&tr);
        return cli_fail("%s: %s", o->model, err.message);
    }
    for (i = 0; i < o->n_sets && rc == CLI_OK; i++) rc = sim_apply(&m, o->sets[i]);
    if (rc == CLI_OK) {
        if (strcmp(o->output, "-") == 0) f = stdout;
        else if (!(f = fopen(o->output, "w"))) rc = cli_fail("%s: cannot open for writing", o->output);
        if (rc == CLI_OK) {
            fprintf(f, "# built by proper sim build from %s%s: %lu threads, PCG nodes %lu -> %lu after merging below %g\n"
                       "# (%lu of them loops made explicit), %.4g%% of the traced CPU time kept, %lu threads still\n"
                       "# running at the end of the trace; wake-up latency %g s (traced hand-offs), latency %g s\n",
                    o->model, o->n_traces > 1 ? " and more traces" : "", (unsigned long)tr.n_threads, (unsigned long)st.nodes_before, (unsigned long)st.nodes_after,
                    o->build.merge, (unsigned long)st.loops, 100 * st.cpu_kept, (unsigned long)st.threads_running,
                    m.wakeup, tr.latency > 0 ? (double)tr.latency / 1e9 : 0.0);
            if (proper_sim_write(&m, f, &err)) rc = cli_report(&err);
            if (f != stdout && fclose(f) != 0 && rc == CLI_OK) rc = cli_fail("%s: write error", o->output);
        }
    }
    proper_sim_free(&m);
    proper_sim_trace_free(&tr);
    return rc;
}

int cmd_sim(int argc, char **argv) {
    sim_cli o;
    proper_sim_model m;
    proper_error err;
    FILE *f = stdout;
    size_t i;
    int rc = sim_parse_args(argc, argv, &o);
    if (rc < 0) return CLI_OK;
    if (rc) return rc;
    proper_sim_init(&m);
    if (strcmp(o.verb, "build") == 0) return sim_build(&o);
    if (proper_sim_read(&m, o.model, &err)) return cli_report(&err);
    for (i = 0; i < o.n_sets; i++)
        if ((rc = sim_apply(&m, o.sets[i]))) goto done;
    if (proper_sim_validate(&m, &err)) {
        rc = cli_fail("%s: %s", o.model, err.message);
        goto done;
    }
    if (o.output && strcmp(o.output, "-") != 0 && !(f = fopen(o.output, "w"))) {
        rc = cli_fail("%s: cannot open for writing", o.output);
        goto done;
    }
    if (strcmp(o.verb, "print") == 0) {
        if (proper_sim_write(&m, f, &err)) rc = cli_report(&err);
    } else if (strcmp(o.verb, "run") == 0) {
        rc = sim_run(&o, &m, f);
    } else {
        rc = sim_whatif(&o, &m, f);
    }
    if (f != stdout && fclose(f) != 0 && rc == CLI_OK) rc = cli_fail("%s: write error", o.output);
done:
    proper_sim_free(&m);
    return rc;
}
