/* proper annot — probabilistic performance annotations (src/annot.h): fit
 * them to a log, check a log against them, compare two versions; count a
 * log's sufficient statistics, merge them, fit the regression from them. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/annot.h"
#include "cli.h"
#include "json.h"
#include "svg.h"

static void annot_usage(FILE *out) {
    fprintf(out,
            "usage: proper annot fit LOG|STATS [--function F] [--metric M] [-o FILE] [--svg DIR] [--json]\n"
            "       proper annot check ANNOT LOG [--alpha A] [--json]\n"
            "       proper annot diff OLD.log NEW.log [--function F] [--metric M] [--alpha A] [--json]\n"
            "       proper annot stats LOG... [--function F] [--metric M] [-o STATS]\n"
            "       proper annot merge STATS... [-o STATS]\n\n"
            "Probabilistic performance annotations (Rogora et al., EuroSys 2020): how a\n"
            "function's metric (time, cpu, heap, lock wait, ...) is distributed as a\n"
            "function of its input features, e.g.\n"
            "    sort.time(s) { [s <= 1450341] Norm(53350.31 + 0.12*s*log(s), 12463.88); ... }\n\n"
            "LOG is the record format (first line 'proper-annot-log 1', see src/annot.h)\n"
            "or CSV with a header row (a 'function' column names the function).\n\n"
            "fit    fits every function of LOG (or F) for metric M (default time) and\n"
            "       prints the annotations; --svg DIR writes DIR/FUNCTION.METRIC.svg, the\n"
            "       metric against the first feature with each scope's fitted mean, and\n"
            "       DIR/FUNCTION.METRIC.density.svg, the metric's density (the\n"
            "       variable-bandwidth KDE of Algorithm 2) with its cluster boundaries.\n"
            "check  tests each function of ANNOT on LOG's records: per scope a\n"
            "       Kolmogorov-Smirnov test of F(y | x) against Uniform(0,1), each at\n"
            "       level A/(scopes tested) (Bonferroni; A defaults to 0.01).\n"
            "diff   fits OLD, then per regression scope of OLD refits its terms on the\n"
            "       records of OLD and of NEW in that scope and says which coefficients\n"
            "       moved: z = (new - old)/sqrt(se_old² + se_new²), two-sided, each at\n"
            "       level A/(coefficients compared); also checks NEW against OLD's fit.\n"
            "stats  writes the sufficient statistics of every function of the LOGs (or\n"
            "       F) for metric M: exact sums of the products of the regression terms,\n"
            "       so that logs counted apart merge into the statistics of their\n"
            "       concatenation, byte for byte, in any order and grouping (src/annot.h;\n"
            "       'proper-mpi annot stats' counts them on MPI ranks, docs/mpi.md).\n"
            "merge  adds statistics files (of the same functions' features) into one.\n"
            "fit STATS fits the regression part only: one scope per function (the\n"
            "       classes, elimination, R2 and BIC from the sums); splits, clusters,\n"
            "       mixtures, --svg and the heuristics need the records.\n\n"
            "options:\n"
            "  --function F    only this function\n"
            "  --metric M      the metric column (default time)\n"
            "  -o, --output F  write the annotations (fit) to F instead of stdout\n"
            "  --svg DIR       (fit) one SVG per function into DIR (must exist)\n"
            "  --alpha A       family-wise level of check and diff (default 0.01)\n"
            "  --r2 X          R^2 a regression needs to be good (default %g)\n"
            "  --min-leaf N    fewest records in a scope (default %d)\n"
            "  --envelope      fit the lower envelope over the first feature (removes\n"
            "                  additive positive noise)\n"
            "  --dominant      fit the dominant cluster per value of the first feature\n"
            "  --no-branches   do not split on branch outcomes\n"
            "  --seed N        sampling seed (default 1)\n"
            "  --json          JSON output; a null r2 or p_value means none is defined\n"
            "                  (an input-independent distribution, a scope with too few\n"
            "                  records to test)\n\n"
            "Exit status: 0 ok; 1 check found a violated scope, or diff found a\n"
            "coefficient that moved significantly or NEW violating OLD's fit; 2 bad input.\n",
            PROPER_ANNOT_R2, PROPER_ANNOT_MIN_LEAF);
}

/* Most files of one command line (merge). */
#define ANNOT_MAX_FILES 1024

typedef struct annot_cli {
    const char *verb, *pos[ANNOT_MAX_FILES], *function, *metric, *output, *svg;
    int json, npos;
    double alpha;
    proper_annot_opts o;
} annot_cli;

static int parse_args(int argc, char **argv, annot_cli *o) {
    cli_args a;
    unsigned long long seed = 1, min_leaf = PROPER_ANNOT_MIN_LEAF;
    memset(o, 0, sizeof *o);
    o->o = proper_annot_opts_default();
    o->metric = "time";
    o->alpha = 0.01;
    cli_args_init(&a, "annot", argc, argv);
    if (a.help) {
        annot_usage(stdout);
        return -1;
    }
    while (cli_next(&a)) {
        if (cli_flag(&a, "--json")) o->json = 1;
        else if (cli_flag(&a, "--envelope")) o->o.envelope = 1;
        else if (cli_flag(&a, "--dominant")) o->o.dominant = 1;
        else if (cli_flag(&a, "--no-branches")) o->o.use_branches = 0;
        else if (cli_opt(&a, "--function")) o->function = a.value;
        else if (cli_opt(&a, "--metric")) o->metric = a.value;
        else if (cli_opt(&a, "-o|--output")) o->output = a.value;
        else if (cli_opt(&a, "--svg")) o->svg = a.value;
        else if (cli_opt_double(&a, "--alpha", "(0,1)", &o->alpha)) {
        } else if (cli_opt_double(&a, "--r2", "[0,1]", &o->o.r2)) {
        } else if (cli_opt_uint(&a, "--min-leaf", 4, 1000000000ULL, &min_leaf)) {
        } else if (cli_opt_uint(&a, "--seed", 0, ~0ULL, &seed)) {
        } else if (cli_positional(&a)) {
            if (!o->verb) o->verb = a.value;
            else if (o->npos < ANNOT_MAX_FILES) o->pos[o->npos++] = a.value;
            else cli_usage_error(&a, "unexpected argument '%s'", a.value);
        } else {
            cli_unknown(&a);
        }
    }
    if (a.status) return a.status;
    o->o.seed = seed;
    o->o.min_leaf = (size_t)min_leaf;
    if (!o->verb) return cli_usage_error(&a, "expected fit, check, diff, stats or merge");
    if (strcmp(o->verb, "fit") == 0) {
        if (o->npos != 1) return cli_usage_error(&a, "fit needs one LOG");
    } else if (strcmp(o->verb, "check") == 0 || strcmp(o->verb, "diff") == 0) {
        if (o->npos != 2) return cli_usage_error(&a, "%s needs two files", o->verb);
        if (o->svg || o->output) return cli_usage_error(&a, "--svg and --output are for fit");
    } else if (strcmp(o->verb, "stats") == 0 || strcmp(o->verb, "merge") == 0) {
        int stats = o->verb[0] == 's';
        if (o->npos < 1) return cli_usage_error(&a, stats ? "stats needs at least one LOG" : "merge needs at least one STATS file");
        if (o->npos == ANNOT_MAX_FILES) return cli_usage_error(&a, "%s takes at most %d files at once", o->verb, ANNOT_MAX_FILES - 1);
        if (o->svg || o->json) return cli_usage_error(&a, "--svg and --json are not for %s", o->verb);
        if (!stats && o->function) return cli_usage_error(&a, "--function is not for merge");
    } else {
        return cli_usage_error(&a, "unknown subcommand '%s': expected fit, check, diff, stats or merge", o->verb);
    }
    return CLI_OK;
}

static const char *class_name(int cls) {
    static const char *const names[] = {"constant", "linear", "nlogn", "quadratic", "distribution"};
    return cls >= 0 && cls <= 4 ? names[cls] : "?";
}

/* The group an item sits in (-1 at the top), searched from first. */
static int parent_of(const proper_annot *a, int first, int it, int parent) {
    int i;
    for (i = first; i >= 0; i = a->it[i].next) {
        if (i == it) return parent;
        if (a->it[i].dist == PROPER_ANNOT_GROUP) {
            int p = parent_of(a, a->it[i].child, it, i);
            if (p != -2) return p;
        }
    }
    return -2; /* not below first */
}

/* The condition under which an item applies: its own and its groups',
 * joined by && ("" when none). */
static void item_condition(const proper_annot *a, int it, proper_strbuf *b) {
    int chain[64], n = 0, k, first = 1, top;
    size_t f;
    b->len = 0;
    if (b->data) b->data[0] = '\0';
    /* the function body the item belongs to */
    for (f = 0, top = -1; f < a->n_fns && top < 0; f++)
        if (parent_of(a, a->fns[f].body, it, -1) != -2) top = a->fns[f].body;
    for (k = it; k >= 0 && n < 64; k = top >= 0 ? parent_of(a, top, k, -1) : -1) chain[n++] = k;
    for (k = n - 1; k >= 0; k--) {
        const proper_annot_item *x = &a->it[chain[k]];
        int paren;
        if (x->guard != PROPER_ANNOT_COND) continue;
        paren = a->ex[x->cond].kind == PROPER_ANNOT_OR;
        if (!first) proper_strbuf_puts(b, " && ");
        if (paren) proper_strbuf_puts(b, "(");
        proper_annot_format_expr(a, x->cond, b);
        if (paren) proper_strbuf_puts(b, ")");
        first = 0;
    }
}

/* Scopes of a fitted function: its leaf items (distributions), depth first. */
static void leaves(const proper_annot *a, int first, int *out, size_t *n, size_t cap) {
    int i;
    for (i = first; i >= 0; i = a->it[i].next) {
        if (a->it[i].dist == PROPER_ANNOT_GROUP) leaves(a, a->it[i].child, out, n, cap);
        else if (*n < cap) out[(*n)++] = i;
    }
}

#define ANNOT_MAX_LEAVES 4096
/* Most record dots in a scatter plot. */
#define ANNOT_SVG_POINTS 5000

typedef struct xy_pair { double x, y; } xy_pair;
static int cmp_xy_pair(const void *p, const void *q) {
    double a = ((const xy_pair *)p)->x, b = ((const xy_pair *)q)->x;
    return a < b ? -1 : a > b;
}

/* --svg: metric against the first feature, each leaf's mean at its records. */
static int write_svg(const char *dir, const proper_annot *a, const proper_annot_fn *fn, const proper_annot_table *t) {
    char path[4096];
    size_t xcol = fn->n_params ? proper_annot_table_column(t, fn->params[0]) : (size_t)-1;
    size_t ycol = proper_annot_table_column(t, fn->metric), r, k, nl = 0, nv = a->names.len;
    int *leaf = (int *)malloc(sizeof *leaf * ANNOT_MAX_LEAVES);
    double *xs = (double *)malloc(sizeof *xs * (t->n + 1)), *ys = (double *)malloc(sizeof *ys * (t->n + 1));
    double *fx = NULL, *fy = NULL;
    double *sx = (double *)malloc(sizeof *sx * (ANNOT_SVG_POINTS + 1)), *sy = (double *)malloc(sizeof *sy * (ANNOT_SVG_POINTS + 1));
    size_t fxcap = 0, fycap = 0;
    double *vars = (double *)malloc(sizeof *vars * (nv + 1));
    svg_series *ser = (svg_series *)malloc(sizeof *ser * (ANNOT_MAX_LEAVES + 1));
    char **labels = (char **)calloc(ANNOT_MAX_LEAVES + 1, sizeof *labels);
    size_t *start = (size_t *)calloc(ANNOT_MAX_LEAVES + 1, sizeof *start);
    svg_plot plot;
    char title[600], xl[300];
    int rc = CLI_OK;
    unsigned char *safe;
    if (!leaf || !xs || !ys || !sx || !sy || !vars || !ser || !labels || !start) { rc = cli_fail("out of memory"); goto done; }
    snprintf(path, sizeof path, "%s/%s.%s.svg", dir, fn->name, fn->metric);
    /* a function name may hold '/' or '<': keep the file name plain */
    for (safe = (unsigned char *)path + strlen(dir) + 1; *safe; safe++)
        if (*safe == '/' || *safe == '<' || *safe == '>' || *safe == ':' || *safe == ' ') *safe = '_';
    for (r = 0; r < t->n; r++) {
        xs[r] = xcol != (size_t)-1 ? t->v[r * t->ncol + xcol] : (double)r;
        ys[r] = t->v[r * t->ncol + ycol];
    }
    leaves(a, fn->body, leaf, &nl, ANNOT_MAX_LEAVES);
    svg_plot_init(&plot);
    snprintf(title, sizeof title, "%s.%s", fn->name, fn->metric);
    snprintf(xl, sizeof xl, "%s", xcol != (size_t)-1 ? fn->params[0] : "record");
    plot.title = title;
    plot.xlabel = xl;
    plot.ylabel = fn->metric;
    {
        /* at most ANNOT_SVG_POINTS dots: every k-th record beyond that */
        size_t step = t->n / ANNOT_SVG_POINTS + 1, m2 = 0;
        for (r = 0; r < t->n; r += step) { sx[m2] = xs[r]; sy[m2] = ys[r]; m2++; }
        svg_series_init(&ser[0], step > 1 ? "records (a uniform subset)" : "records", sx, sy, m2, SVG_POINTS);
    }
    /* each leaf's fitted mean, at the records it covers, in x order */
    {
        size_t nf = 0, m;
        for (k = 0; k < nl; k++) {
            const proper_annot_item *it = &a->it[leaf[k]];
            start[k] = nf;
            if (it->dist != PROPER_ANNOT_NORM) continue;
            for (r = 0; r < t->n; r++) {
                size_t j;
                int inside;
                for (j = 0; j < nv; j++) {
                    size_t c = proper_annot_table_column(t, a->names.names[j]);
                    vars[j] = c != (size_t)-1 ? t->v[r * t->ncol + c] : NAN;
                }
                /* inside when the record's scope is this leaf, or the mixture it is a part of */
                {
                    double br[64];
                    int sc, par = parent_of(a, fn->body, leaf[k], -1);
                    size_t nb2;
                    for (nb2 = 0; nb2 < 64; nb2++) br[nb2] = proper_annot_table_branch(t, r, nb2);
                    sc = proper_annot_scope(a, fn, vars, br, 64);
                    inside = sc == leaf[k] ||
                             (it->guard == PROPER_ANNOT_PROB && sc >= 0 && sc == (par >= 0 ? a->it[par].child : fn->body));
                }
                if (!inside) continue;
                /* a leaf may cover every record (mixture components do) */
                if (proper_reserve(&fx, &fxcap, nf + 1, sizeof *fx) || proper_reserve(&fy, &fycap, nf + 1, sizeof *fy)) {
                    rc = cli_fail("out of memory");
                    goto done;
                }
                fx[nf] = xs[r];
                fy[nf] = proper_annot_eval(a, it->arg[0], vars, NULL, 0);
                nf++;
            }
            /* sort this leaf's points by x */
            if (nf > start[k] + 1) {
                size_t cnt = nf - start[k];
                xy_pair *pr = (xy_pair *)malloc(sizeof *pr * cnt);
                if (!pr) { rc = cli_fail("out of memory"); goto done; }
                for (m = 0; m < cnt; m++) { pr[m].x = fx[start[k] + m]; pr[m].y = fy[start[k] + m]; }
                qsort(pr, cnt, sizeof *pr, cmp_xy_pair);
                for (m = 0; m < cnt; m++) { fx[start[k] + m] = pr[m].x; fy[start[k] + m] = pr[m].y; }
                free(pr);
            }
        }
        start[nl] = nf;
    }
    {
        size_t ns = 1;
        for (k = 0; k < nl; k++) {
            proper_strbuf c;
            if (start[k + 1] == start[k]) continue;
            proper_strbuf_init(&c);
            item_condition(a, leaf[k], &c);
            labels[k] = proper_strbuf_take(&c);
            if (!labels[k]) labels[k] = proper_strdup("");
            svg_series_init(&ser[ns], labels[k] && labels[k][0] ? labels[k] : "fit", fx + start[k], fy + start[k],
                            start[k + 1] - start[k], SVG_LINE);
            ns++;
        }
        if (svg_write_file(path, &plot, ser, ns) != 0) rc = cli_fail("%s: cannot write", path);
    }
    /* the metric's density with the cluster boundaries (Algorithm 2) */
    if (!rc) {
        double *gx = (double *)malloc(sizeof *gx * PROPER_ANNOT_KDE_GRID), *gf = (double *)malloc(sizeof *gf * PROPER_ANNOT_KDE_GRID);
        double *cuts = NULL, *cy = NULL, top = 0;
        size_t nc = 0, g;
        proper_error err;
        svg_series ds[2];
        size_t min_size = (size_t)(PROPER_ANNOT_MIN_CLUSTER * (double)t->n);
        if (min_size < PROPER_ANNOT_MIN_LEAF) min_size = PROPER_ANNOT_MIN_LEAF;
        if (gx && gf && !proper_annot_kde(ys, t->n, 1, gx, gf, &err) &&
            !proper_annot_kde_cuts(ys, t->n, min_size, 1, &cuts, &nc, &err)) {
            for (g = 0; g < PROPER_ANNOT_KDE_GRID; g++)
                if (gf[g] > top) top = gf[g];
            cy = (double *)malloc(sizeof *cy * (nc + 1));
            for (g = 0; cy && g < nc; g++) cy[g] = top;
            snprintf(path + strlen(path) - 4, 16, ".density.svg");
            svg_plot_init(&plot);
            snprintf(title, sizeof title, "%s.%s: density and cluster boundaries", fn->name, fn->metric);
            plot.title = title;
            plot.xlabel = fn->metric;
            plot.ylabel = "density";
            svg_series_init(&ds[0], "variable-bandwidth KDE", gx, gf, PROPER_ANNOT_KDE_GRID, SVG_LINE);
            svg_series_init(&ds[1], "cluster boundaries", cuts, cy, nc, SVG_STEMS);
            if (svg_write_file(path, &plot, ds, nc && cy ? 2 : 1) != 0) rc = cli_fail("%s: cannot write", path);
        }
        free(gx);
        free(gf);
        free(cy);
        PROPER_FREE(cuts);
    }
done:
    if (labels)
        for (k = 0; k <= ANNOT_MAX_LEAVES; k++) free(labels[k]);
    free(labels);
    free(leaf);
    free(xs);
    free(ys);
    free(sx);
    free(sy);
    free(fx);
    free(fy);
    free(vars);
    free(ser);
    free(start);
    return rc;
}

static void json_scopes(cli_json *j, const proper_annot *a, const proper_annot_fn *fn) {
    int leaf[ANNOT_MAX_LEAVES];
    size_t nl = 0, k;
    proper_strbuf c;
    proper_strbuf_init(&c);
    leaves(a, fn->body, leaf, &nl, ANNOT_MAX_LEAVES);
    cli_json_key(j, "scopes");
    cli_json_array_begin(j);
    for (k = 0; k < nl; k++) {
        const proper_annot_item *it = &a->it[leaf[k]];
        static const char *const dn[] = {"group", "Norm", "Exp", "Binom"};
        cli_json_object_begin(j);
        item_condition(a, leaf[k], &c);
        cli_json_key_string(j, "condition", c.data && c.data[0] ? c.data : NULL);
        if (it->guard == PROPER_ANNOT_PROB) cli_json_key_number(j, "probability", it->prob);
        else cli_json_key_null(j, "probability");
        cli_json_key_string(j, "distribution", dn[it->dist]);
        cli_json_key_string(j, "class", class_name(it->cls));
        cli_json_key_uint(j, "records", it->n_obs);
        cli_json_key_number(j, "r2", it->r2);
        cli_json_object_end(j);
    }
    cli_json_array_end(j);
    proper_strbuf_free(&c);
}

/* Write annotations a as text or JSON to -o or stdout; records[i] is
 * function i's count of records, source_key names o->pos[0] in the JSON. */
static int write_annotations(const annot_cli *o, const proper_annot *a, const char *source_key, const uint64_t *records) {
    proper_error err;
    FILE *out = stdout;
    size_t i;
    int rc = CLI_OK;
    if (o->output && strcmp(o->output, "-") != 0 && !(out = fopen(o->output, "w"))) return cli_fail("%s: cannot write", o->output);
    if (o->json) {
        cli_json j;
        proper_strbuf s;
        cli_json_init(&j, out);
        cli_json_object_begin(&j);
        cli_json_key_string(&j, source_key, o->pos[0]);
        cli_json_key_string(&j, "metric", o->metric);
        cli_json_key(&j, "functions");
        cli_json_array_begin(&j);
        for (i = 0; i < a->n_fns; i++) {
            proper_annot one = *a;
            one.fns = &a->fns[i];
            one.n_fns = 1;
            proper_strbuf_init(&s);
            proper_annot_format(&one, &s, &err);
            cli_json_object_begin(&j);
            cli_json_key_string(&j, "function", a->fns[i].name);
            cli_json_key_uint(&j, "records", (unsigned long long)records[i]);
            cli_json_key_string(&j, "annotation", s.data);
            json_scopes(&j, a, &a->fns[i]);
            cli_json_object_end(&j);
            proper_strbuf_free(&s);
        }
        cli_json_array_end(&j);
        cli_json_object_end(&j);
    } else if (proper_annot_write(a, out, &err)) {
        rc = cli_report(&err);
    }
    if (out != stdout && fclose(out) != 0 && !rc) rc = cli_fail("%s: write failed", o->output);
    return rc;
}

/* fit STATS: the regression of every function (or F) for the metric. */
static int annot_fit_stats(const annot_cli *o, const char *text, size_t len) {
    proper_annot_stats S;
    proper_annot a;
    proper_error err;
    uint64_t *records = NULL;
    size_t i, fitted = 0;
    int rc = CLI_OK;
    if (o->svg || o->o.envelope || o->o.dominant)
        return cli_fail("%s: statistics hold sums, not records: --svg, --envelope and --dominant need the log", o->pos[0]);
    proper_annot_stats_init(&S);
    proper_annot_init(&a);
    if (proper_annot_stats_parse(&S, text, len, o->pos[0], &err)) return cli_report(&err);
    if (!(records = (uint64_t *)calloc(S.n + 1, sizeof *records))) { rc = cli_fail("out of memory"); goto done; }
    if (proper_annot_stats_fit_matching(&a, &S, o->function, o->metric, &o->o, records, &fitted, &err)) {
        rc = cli_report(&err);
        goto done;
    }
    for (i = 0; i < a.n_fns; i++) {
        /* a regression below the good-model threshold is what the sums
         * allow; from the records the fit would go on to split or cluster */
        const proper_annot_item *it = &a.it[a.fns[i].body];
        if (it->r2 < o->o.r2)
            fprintf(stderr, "proper annot: %s.%s: R2 %.4f is below %g: the records would be split or clustered, "
                            "which sums cannot do; this regression is only the best single one\n",
                    a.fns[i].name, a.fns[i].metric, it->r2, o->o.r2);
    }
    if (!fitted) {
        rc = o->function ? cli_fail("%s: no statistics of function '%s' for metric '%s'", o->pos[0], o->function, o->metric)
                         : cli_fail("%s: no statistics for metric '%s'", o->pos[0], o->metric);
        goto done;
    }
    rc = write_annotations(o, &a, "stats", records);
done:
    free(records);
    proper_annot_stats_free(&S);
    proper_annot_free(&a);
    return rc;
}

static int annot_fit(const annot_cli *o) {
    proper_annot_log L;
    proper_annot a;
    proper_error err;
    size_t i, fitted = 0;
    int rc = CLI_OK;
    uint64_t *records = NULL;
    char *text;
    size_t len;
    static const char stats_magic[] = "proper-annot-stats 1";
    proper_annot_log_init(&L);
    proper_annot_init(&a);
    if (proper_read_file(o->pos[0], &text, &len, &err)) return cli_report(&err);
    if (len >= sizeof stats_magic - 1 && !memcmp(text, stats_magic, sizeof stats_magic - 1)) {
        rc = annot_fit_stats(o, text, len);
        PROPER_FREE(text);
        return rc;
    }
    rc = proper_annot_log_parse(&L, text, len, o->pos[0], &err);
    PROPER_FREE(text);
    if (rc) return cli_report(&err);
    if (o->function && !proper_annot_log_find(&L, o->function)) {
        rc = cli_fail("%s: no function '%s'", o->pos[0], o->function);
        goto done;
    }
    for (i = 0; i < L.n; i++) {
        const proper_annot_table *t = &L.t[i];
        if (o->function && strcmp(t->name, o->function) != 0) continue;
        if (proper_annot_table_column(t, o->metric) == (size_t)-1) {
            if (o->function) { rc = cli_fail("%s: function '%s' has no column '%s'", o->pos[0], t->name, o->metric); goto done; }
            continue;
        }
        if (proper_annot_fit(&a, t, o->metric, &o->o, &err)) {
            rc = cli_report(&err);
            goto done;
        }
        fitted++;
        if (o->svg && (rc = write_svg(o->svg, &a, &a.fns[a.n_fns - 1], t))) goto done;
    }
    if (!fitted) {
        rc = cli_fail("%s: no function has a column '%s'", o->pos[0], o->metric);
        goto done;
    }
    if (!(records = (uint64_t *)calloc(a.n_fns + 1, sizeof *records))) { rc = cli_fail("out of memory"); goto done; }
    for (i = 0; i < a.n_fns; i++) records[i] = proper_annot_log_find(&L, a.fns[i].name)->n;
    rc = write_annotations(o, &a, "log", records);
done:
    free(records);
    proper_annot_log_free(&L);
    proper_annot_free(&a);
    return rc;
}

/* Write statistics to -o or stdout. */
static int write_stats(const annot_cli *o, const proper_annot_stats *S) {
    proper_error err;
    FILE *out = stdout;
    int rc = CLI_OK;
    if (o->output && strcmp(o->output, "-") != 0 && !(out = fopen(o->output, "w"))) return cli_fail("%s: cannot write", o->output);
    if (proper_annot_stats_write(S, out, &err)) rc = cli_report(&err);
    if (out != stdout && fclose(out) != 0 && !rc) rc = cli_fail("%s: write failed", o->output);
    return rc;
}

/* stats LOG...: the logs' statistics (those of their concatenation). */
static int annot_stats(const annot_cli *o) {
    proper_annot_stats S;
    proper_annot_log L;
    proper_error err;
    size_t counted = 0;
    int k, has_f = 0, rc = CLI_OK;
    proper_annot_stats_init(&S);
    for (k = 0; k < o->npos && !rc; k++) {
        proper_annot_log_init(&L);
        if (proper_annot_log_read(&L, o->pos[k], &err) ||
            proper_annot_stats_add_log(&S, &L, o->function, o->metric, &has_f, &counted, &err)) {
            if (!err.file[0]) snprintf(err.file, sizeof err.file, "%s", o->pos[k]);
            rc = cli_report(&err);
        }
        proper_annot_log_free(&L);
    }
    if (!rc && proper_annot_stats_found(o->function, o->metric, has_f, counted, o->pos, (size_t)o->npos, &err))
        rc = cli_report(&err);
    if (!rc) rc = write_stats(o, &S);
    proper_annot_stats_free(&S);
    return rc;
}

static int annot_merge(const annot_cli *o) {
    proper_annot_stats S, one;
    proper_error err;
    int k, rc = CLI_OK;
    proper_annot_stats_init(&S);
    proper_annot_stats_init(&one);
    for (k = 0; k < o->npos && !rc; k++) {
        if (proper_annot_stats_read(&one, o->pos[k], &err)) rc = cli_report(&err);
        else if (proper_annot_stats_merge(&S, &one, &err)) rc = cli_fail("%s: %s", o->pos[k], err.message);
    }
    if (!rc) rc = write_stats(o, &S);
    proper_annot_stats_free(&S);
    proper_annot_stats_free(&one);
    return rc;
}

static int annot_check(const annot_cli *o) {
    proper_annot a;
    proper_annot_log L;
    proper_error err;
    size_t i, k, matched = 0, violations = 0;
    int rc = CLI_OK;
    cli_json j;
    proper_strbuf c;
    proper_annot_init(&a);
    proper_annot_log_init(&L);
    proper_strbuf_init(&c);
    if (proper_annot_read(&a, o->pos[0], &err) || proper_annot_log_read(&L, o->pos[1], &err)) {
        rc = cli_report(&err);
        goto done;
    }
    if (o->json) {
        cli_json_init(&j, stdout);
        cli_json_object_begin(&j);
        cli_json_key_string(&j, "annotations", o->pos[0]);
        cli_json_key_string(&j, "log", o->pos[1]);
        cli_json_key_number(&j, "alpha", o->alpha);
        cli_json_key(&j, "functions");
        cli_json_array_begin(&j);
    }
    for (i = 0; i < a.n_fns; i++) {
        const proper_annot_fn *fn = &a.fns[i];
        const proper_annot_table *t = proper_annot_log_find(&L, fn->name);
        proper_annot_check ch;
        if (o->function && strcmp(fn->name, o->function) != 0) continue;
        if (!t || proper_annot_table_column(t, fn->metric) == (size_t)-1) {
            if (!o->json) printf("%s.%s: not in the log\n", fn->name, fn->metric);
            continue;
        }
        proper_annot_check_init(&ch);
        if (proper_annot_check_table(&ch, &a, fn, t, o->alpha, o->o.seed, &err)) {
            rc = cli_report(&err);
            goto done;
        }
        matched++;
        violations += ch.violations;
        if (o->json) {
            cli_json_object_begin(&j);
            cli_json_key_string(&j, "function", fn->name);
            cli_json_key_string(&j, "metric", fn->metric);
            cli_json_key_uint(&j, "records", t->n);
            cli_json_key_uint(&j, "uncovered", ch.uncovered);
            cli_json_key_number(&j, "level", ch.level);
            cli_json_key_uint(&j, "violations", ch.violations);
            cli_json_key(&j, "scopes");
            cli_json_array_begin(&j);
        } else {
            printf("%s.%s: %zu records, %zu scope(s) tested at level %.3g each, %zu violated\n", fn->name, fn->metric,
                   t->n, ch.tested, ch.level, ch.violations);
            if (ch.uncovered) printf("  %zu record(s) outside every scope\n", ch.uncovered);
        }
        for (k = 0; k < ch.n_scopes; k++) {
            const proper_annot_scope_check *s = &ch.scopes[k];
            item_condition(&a, s->item, &c);
            if (o->json) {
                cli_json_object_begin(&j);
                cli_json_key_string(&j, "condition", c.data && c.data[0] ? c.data : NULL);
                cli_json_key_uint(&j, "records", s->n);
                cli_json_key_number(&j, "ks", s->ks);
                cli_json_key_number(&j, "p_value", s->p_value);
                cli_json_key_bool(&j, "violated", s->violated);
                cli_json_object_end(&j);
            } else {
                printf("  %-9s [%s] n=%zu D=%.4g p=%.4g\n", s->violated ? "VIOLATED" : isnan(s->p_value) ? "untested" : "ok",
                       c.data && c.data[0] ? c.data : "all", s->n, s->ks, s->p_value);
            }
        }
        if (o->json) {
            cli_json_array_end(&j);
            cli_json_object_end(&j);
        }
        proper_annot_check_free(&ch);
    }
    if (o->json) {
        cli_json_array_end(&j);
        cli_json_key_uint(&j, "violations", violations);
        cli_json_object_end(&j);
    }
    if (!matched) rc = cli_fail("%s: no function of %s is in the log", o->pos[1], o->pos[0]);
    else if (violations) rc = CLI_CHECK_FAILED;
done:
    proper_strbuf_free(&c);
    proper_annot_free(&a);
    proper_annot_log_free(&L);
    return rc;
}

/* The terms of a fitted mean c0 ± c1*t1 ± ...: the right operands of the
 * ADD/SUB chain (each coefficient times its term). */
static size_t mean_terms(const proper_annot *a, int e, int *terms, size_t cap) {
    size_t n = 0;
    while (e >= 0 && (a->ex[e].kind == PROPER_ANNOT_ADD || a->ex[e].kind == PROPER_ANNOT_SUB) && n < cap) {
        terms[n++] = a->ex[e].b;
        e = a->ex[e].a;
    }
    return n;
}

/* The coefficient literal of a term c*x*..., found leftmost. */
static double term_coef(const proper_annot *a, int e) {
    while (a->ex[e].kind == PROPER_ANNOT_MUL) e = a->ex[e].a;
    return a->ex[e].kind == PROPER_ANNOT_NUM ? a->ex[e].value : NAN;
}

static int annot_diff(const annot_cli *o) {
    proper_annot_log L0, L1;
    proper_annot a;
    proper_error err;
    size_t i, k, r, compared = 0, moved = 0, violations = 0;
    int rc = CLI_OK;
    cli_json j;
    proper_strbuf c, txt;
    proper_annot_log_init(&L0);
    proper_annot_log_init(&L1);
    proper_annot_init(&a);
    proper_strbuf_init(&c);
    proper_strbuf_init(&txt);
    if (proper_annot_log_read(&L0, o->pos[0], &err) || proper_annot_log_read(&L1, o->pos[1], &err)) {
        rc = cli_report(&err);
        goto done;
    }
    for (i = 0; i < L0.n; i++) {
        const proper_annot_table *t0 = &L0.t[i], *t1 = proper_annot_log_find(&L1, t0->name);
        if (o->function && strcmp(t0->name, o->function) != 0) continue;
        if (!t1 || proper_annot_table_column(t0, o->metric) == (size_t)-1 || proper_annot_table_column(t1, o->metric) == (size_t)-1)
            continue;
        if (proper_annot_fit(&a, t0, o->metric, &o->o, &err)) { rc = cli_report(&err); goto done; }
    }
    if (!a.n_fns) { rc = cli_fail("no function with column '%s' is in both logs", o->metric); goto done; }
    /* first pass counts the coefficients for the Bonferroni level */
    {
        int pass;
        double level = o->alpha;
        for (pass = 0; pass < 2; pass++) {
            if (pass == 1) {
                level = compared ? o->alpha / (double)compared : o->alpha;
                if (o->json) {
                    cli_json_init(&j, stdout);
                    cli_json_object_begin(&j);
                    cli_json_key_string(&j, "old", o->pos[0]);
                    cli_json_key_string(&j, "new", o->pos[1]);
                    cli_json_key_string(&j, "metric", o->metric);
                    cli_json_key_number(&j, "level", level);
                    cli_json_key(&j, "functions");
                    cli_json_array_begin(&j);
                }
            }
            for (i = 0; i < a.n_fns; i++) {
                const proper_annot_fn *fn = &a.fns[i];
                const proper_annot_table *tt[2];
                int leaf[ANNOT_MAX_LEAVES];
                size_t nl = 0, nv = a.names.len;
                proper_annot_check ch;
                tt[0] = proper_annot_log_find(&L0, fn->name);
                tt[1] = proper_annot_log_find(&L1, fn->name);
                leaves(&a, fn->body, leaf, &nl, ANNOT_MAX_LEAVES);
                if (pass == 1) {
                    proper_annot one = a;
                    one.fns = &a.fns[i];
                    one.n_fns = 1;
                    txt.len = 0;
                    if (txt.data) txt.data[0] = '\0';
                    proper_annot_format(&one, &txt, &err);
                    proper_annot_check_init(&ch);
                    if (proper_annot_check_table(&ch, &a, fn, tt[1], o->alpha, o->o.seed, &err)) { rc = cli_report(&err); goto done; }
                    violations += ch.violations;
                    if (o->json) {
                        cli_json_object_begin(&j);
                        cli_json_key_string(&j, "function", fn->name);
                        cli_json_key_string(&j, "old_annotation", txt.data);
                        cli_json_key_uint(&j, "new_violations", ch.violations);
                        cli_json_key(&j, "coefficients");
                        cli_json_array_begin(&j);
                    } else {
                        printf("%s", txt.data ? txt.data : "");
                        printf("  new log against this fit: %zu of %zu scope(s) violated\n", ch.violations, ch.tested);
                    }
                    proper_annot_check_free(&ch);
                }
                for (k = 0; k < nl; k++) {
                    const proper_annot_item *it = &a.it[leaf[k]];
                    int terms[PROPER_ANNOT_MAX_TERMS];
                    size_t nt, p, side;
                    proper_annot_lsq fit[2];
                    int ok[2] = {0, 0};
                    if (it->dist != PROPER_ANNOT_NORM) continue;
                    nt = mean_terms(&a, it->arg[0], terms, PROPER_ANNOT_MAX_TERMS - 1);
                    p = nt + 1;
                    if (pass == 0) { compared += p; continue; }
                    for (side = 0; side < 2; side++) {
                        const proper_annot_table *t = tt[side];
                        size_t ycol = proper_annot_table_column(t, fn->metric), n = 0, q;
                        double *X = (double *)malloc(sizeof *X * (t->n * p + 1)), *y = (double *)malloc(sizeof *y * (t->n + 1));
                        double *vars = (double *)malloc(sizeof *vars * (nv + 1));
                        if (!X || !y || !vars) { free(X); free(y); free(vars); rc = cli_fail("out of memory"); goto done; }
                        for (r = 0; r < t->n; r++) {
                            int p2, inside = 0;
                            for (q = 0; q < nv; q++) {
                                size_t col = proper_annot_table_column(t, a.names.names[q]);
                                vars[q] = col != (size_t)-1 ? t->v[r * t->ncol + col] : NAN;
                            }
                            /* the records in this leaf's scope */
                            {
                                double br[64];
                                size_t nb2;
                                for (nb2 = 0; nb2 < 64; nb2++) br[nb2] = proper_annot_table_branch(t, r, nb2);
                                p2 = proper_annot_scope(&a, fn, vars, br, 64);
                                inside = p2 == leaf[k];
                            }
                            if (!inside) continue;
                            X[n * p] = 1;
                            for (q = 0; q < nt; q++) {
                                double cf = term_coef(&a, terms[q]);
                                X[n * p + 1 + q] = cf != 0 ? proper_annot_eval(&a, terms[q], vars, NULL, 0) / cf : 0;
                            }
                            y[n] = t->v[r * t->ncol + ycol];
                            n++;
                        }
                        ok[side] = n > p && !proper_annot_lsq_fit(&fit[side], X, y, n, p, NULL);
                        free(X);
                        free(y);
                        free(vars);
                    }
                    item_condition(&a, leaf[k], &c);
                    for (p = 0; p < nt + 1; p++) {
                        double b0 = ok[0] ? fit[0].coef[p] : NAN, b1 = ok[1] ? fit[1].coef[p] : NAN;
                        double s0 = ok[0] ? fit[0].se[p] : NAN, s1 = ok[1] ? fit[1].se[p] : NAN;
                        double z = (b1 - b0) / sqrt(s0 * s0 + s1 * s1), pv = 2 * proper_stats_normal_cdf(-fabs(z));
                        int mv = pv < level;
                        char term[256];
                        if (p == 0) snprintf(term, sizeof term, "1");
                        else {
                            /* the term's text without its leading coefficient */
                            proper_strbuf s;
                            const char *star;
                            proper_strbuf_init(&s);
                            proper_annot_format_expr(&a, terms[p - 1], &s);
                            star = s.data ? strchr(s.data, '*') : NULL;
                            snprintf(term, sizeof term, "%s", star ? star + 1 : "?");
                            proper_strbuf_free(&s);
                        }
                        if (!ok[0] || !ok[1]) { mv = 0; pv = NAN; z = NAN; }
                        moved += (size_t)mv;
                        if (o->json) {
                            cli_json_object_begin(&j);
                            cli_json_key_string(&j, "condition", c.data && c.data[0] ? c.data : NULL);
                            cli_json_key_string(&j, "term", term);
                            cli_json_key_number(&j, "old", b0);
                            cli_json_key_number(&j, "old_se", s0);
                            cli_json_key_number(&j, "new", b1);
                            cli_json_key_number(&j, "new_se", s1);
                            cli_json_key_number(&j, "z", z);
                            cli_json_key_number(&j, "p_value", pv);
                            cli_json_key_bool(&j, "moved", mv);
                            cli_json_object_end(&j);
                        } else {
                            printf("  %-6s [%s] %s: old %.6g ± %.2g, new %.6g ± %.2g, z = %.3g, p = %.3g\n",
                                   mv ? "MOVED" : "same", c.data && c.data[0] ? c.data : "all", term, b0, s0, b1, s1, z, pv);
                        }
                    }
                }
                if (pass == 1 && o->json) {
                    cli_json_array_end(&j);
                    cli_json_object_end(&j);
                }
            }
        }
    }
    if (o->json) {
        cli_json_array_end(&j);
        cli_json_key_uint(&j, "moved", moved);
        cli_json_key_uint(&j, "new_violations", violations);
        cli_json_object_end(&j);
    }
    if (moved || violations) rc = CLI_CHECK_FAILED;
done:
    proper_strbuf_free(&c);
    proper_strbuf_free(&txt);
    proper_annot_log_free(&L0);
    proper_annot_log_free(&L1);
    proper_annot_free(&a);
    return rc;
}

int cmd_annot(int argc, char **argv) {
    annot_cli o;
    int rc = parse_args(argc, argv, &o);
    if (rc < 0) return CLI_OK;
    if (rc) return rc;
    if (strcmp(o.verb, "fit") == 0) return annot_fit(&o);
    if (strcmp(o.verb, "check") == 0) return annot_check(&o);
    if (strcmp(o.verb, "stats") == 0) return annot_stats(&o);
    if (strcmp(o.verb, "merge") == 0) return annot_merge(&o);
    return annot_diff(&o);
}
