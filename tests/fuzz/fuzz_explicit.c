/* Fuzz target for the PRISM explicit readers (.tra, .lab, .srew, .trew,
 * .sta) and what runs on their result. The input is split at lines "@@"
 * into a .tra part and optional .lab, .srew, .trew and .sta parts. Any part either parses or
 * fails with an error naming a line of that part. A model that parses must
 * keep the CSR invariants (rows sorted, no repeats, rows summing to 1), print
 * to a .tra that reads back to the same numbers, and survive the solvers
 * (small models only, to keep each input fast), whose proven error bound
 * must be a number >= 0. A .tra part whose first line is the comment
 * "#ctmc" is read as a rate file (a CTMC: rates > 0, rows not summed) and
 * goes through the CSL solvers, whose results must be probabilities
 * (transient distributions summing to 1) and non-negative rewards. A .sta
 * that parses must print and read back to the same valuations, give the
 * properties a model of its variables (unless one is named like a PRISM
 * keyword), and a property over its first variable must check to a
 * probability. Without PROPER_LIBFUZZER, main replays every file of
 * directory argv[1]. */
#define PROPER_IMPLEMENTATION
#include "../../src/prism.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_STATES 5000
#define FUZZ_SOLVE_STATES 300

/* An error must be inside the part (line 0 = the file as a whole). */
static void check_error(const proper_error *err, const char *part, size_t len) {
    size_t lines = 1, i;
    for (i = 0; i < len; i++) lines += part[i] == '\n';
    if (err->code == PROPER_ENOMEM) return;
    if (err->line < 0 || (size_t)err->line > lines || err->message[0] == '\0' || err->code >= 0) abort();
}

static void check_invariants(const proper_dtmc *m) {
    uint32_t s;
    uint64_t k;
    if (m->row[0] != 0 || m->row[m->n_states] != m->n_trans || m->init >= m->n_states) abort();
    for (s = 0; s < m->n_states; s++) {
        double sum = 0.0;
        if (m->row[s + 1] <= m->row[s]) abort(); /* every state has a transition */
        for (k = m->row[s]; k < m->row[s + 1]; k++) {
            if (m->col[k] >= m->n_states || !(m->prob[k] > 0.0) || !isfinite(m->prob[k])) abort();
            if (k > m->row[s] && m->col[k] <= m->col[k - 1]) abort();
            sum += m->prob[k];
        }
        if (m->kind == PROPER_DTMC_KIND_DTMC && !(fabs(sum - 1.0) <= PROPER_DTMC_ROW_SUM_TOL * 1.0000001)) abort();
    }
}

static void check_probabilities(const double *x, uint32_t n) {
    uint32_t s;
    for (s = 0; s < n; s++)
        if (!(x[s] >= -1e-9 && x[s] <= 1.0 + 1e-9)) abort();
}

/* The CSL solvers on a small CTMC, with times short enough that
 * uniformisation takes at most a few hundred steps. */
static void solve_ctmc(const proper_dtmc *m, const proper_bitset *target) {
    uint32_t n = m->n_states, s;
    double *x = (double *)malloc(n * sizeof *x), q = 0.0, t, sum = 0.0;
    proper_error err;
    proper_dtmc_reward r;
    if (!x) return;
    proper_dtmc_exit_rates(m, x);
    for (s = 0; s < n; s++) q = q > x[s] ? q : x[s];
    t = q > 0.0 ? 30.0 / q : 1.0;
    if (proper_dtmc_ctmc_transient(m, t, NULL, NULL, x, &err) == 0) {
        check_probabilities(x, n);
        for (s = 0; s < n; s++) sum += x[s];
        if (!(fabs(sum - 1.0) <= 1e-9)) abort();
    }
    if (proper_dtmc_ctmc_bounded_until(m, NULL, target, 0.0, t, NULL, x, &err) == 0) check_probabilities(x, n);
    if (proper_dtmc_ctmc_bounded_until(m, NULL, target, t / 3.0, t, NULL, x, &err) == 0) check_probabilities(x, n);
    if (proper_dtmc_steady(m, target, NULL, x, &err) == 0) check_probabilities(x, n);
    if (m->n_rewards) {
        r = m->rewards[0];
        if (proper_dtmc_ctmc_reward_cumulative(m, &r, t, NULL, x, &err) == 0 && !r.trans && r.state)
            for (s = 0; s < n; s++) {
                uint32_t i;
                double lo = 0.0, hi = 0.0; /* between t times the smallest and the largest rate of reward */
                for (i = 0; i < n; i++) {
                    lo = fmin(lo, r.state[i]);
                    hi = fmax(hi, r.state[i]);
                }
                if (!(x[s] >= t * lo * (1.0 + 1e-9) - 1e-9 && x[s] <= t * hi * (1.0 + 1e-9) + 1e-9)) abort();
            }
        proper_dtmc_reward_steady(m, &r, NULL, x, &err);
    }
    free(x);
}

static void round_trip(const proper_dtmc *m) {
    FILE *f = tmpfile();
    proper_error err;
    proper_dtmc back;
    long n;
    char *text;
    uint64_t k;
    if (!f) return;
    if (proper_dtmc_write_tra(m, f, &err)) abort();
    n = ftell(f);
    rewind(f);
    text = (char *)malloc((size_t)n + 1);
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) abort();
    fclose(f);
    proper_dtmc_init(&back);
    if (proper_dtmc_parse_tra(&back, text, (size_t)n, "printed", NULL, &err)) abort();
    if (back.n_states != m->n_states || back.n_trans != m->n_trans) abort();
    for (k = 0; k < m->n_trans; k++)
        if (back.col[k] != m->col[k] || back.prob[k] != m->prob[k]) abort();
    proper_dtmc_free(&back);
    free(text);
}

/* The bounded iterations skip the steps after a repetition (dtmc.h,
 * PROPER_DTMC_CYCLE_MAX): on small models, k steps done one by one here
 * must give F<=k and I=k bit for bit, and C<=k (summed by periods there)
 * within rounding. k runs past the largest period found. */
static void bounded_differential(const proper_dtmc *m, const proper_bitset *target) {
    enum { K = 700 };
    uint32_t n = m->n_states, s;
    double *x = (double *)calloc(n, sizeof *x), *y = (double *)calloc(n, sizeof *y), *p = (double *)calloc(n, sizeof *p);
    double *c = (double *)calloc(n, sizeof *c), *d = (double *)calloc(n, sizeof *d), scale = 0.0;
    proper_dtmc_reward r;
    proper_error err;
    unsigned long j, k;
    uint64_t e;
    if (!x || !y || !p || !c || !d) goto done;
    for (k = 0; k <= K; k += K / 7 + 3) {
        for (s = 0; s < n; s++) y[s] = PROPER_BITSET_GET(target, s) ? 1.0 : 0.0;
        for (j = 0; j < k; j++) {
            memcpy(p, y, n * sizeof *p);
            for (s = 0; s < n; s++) {
                double v = 0.0;
                if (PROPER_BITSET_GET(target, s)) continue;
                for (e = m->row[s]; e < m->row[s + 1]; e++) v += m->prob[e] * p[m->col[e]];
                y[s] = v;
            }
        }
        if (proper_dtmc_prob_bounded_until(m, NULL, target, k, x, &err)) abort();
        if (memcmp(x, y, n * sizeof *x) != 0) abort();
    }
    /* state rewards: the target's indicator plus the state's index */
    memset(&r, 0, sizeof r);
    r.state = c;
    for (s = 0; s < n; s++) c[s] = (PROPER_BITSET_GET(target, s) ? 1.0 : 0.0) + (double)(s % 3);
    for (s = 0; s < n; s++) scale = scale > c[s] ? scale : c[s];
    for (k = 0; k <= K; k += K / 7 + 3) {
        double *sum = y;
        memcpy(d, c, n * sizeof *d);
        memset(sum, 0, n * sizeof *sum);
        for (j = 0; j < k; j++) {
            for (s = 0; s < n; s++) sum[s] += d[s];
            memcpy(p, d, n * sizeof *p);
            for (s = 0; s < n; s++) {
                double v = 0.0;
                for (e = m->row[s]; e < m->row[s + 1]; e++) v += m->prob[e] * p[m->col[e]];
                d[s] = v;
            }
        }
        if (proper_dtmc_reward_cumulative(m, &r, k, x, &err)) abort();
        for (s = 0; s < n; s++)
            if (!(fabs(x[s] - sum[s]) <= 1e-9 * scale * (double)(k + 1))) abort();
        if (proper_dtmc_reward_instant(m, &r, k, x, &err)) abort();
        if (memcmp(x, d, n * sizeof *x) != 0) abort(); /* d = P^k c */
    }
done:
    free(x);
    free(y);
    free(p);
    free(c);
    free(d);
}

static void solve(const proper_dtmc *m) {
    proper_bitset target;
    proper_error err;
    proper_dtmc_solve_stats st;
    double *x = (double *)malloc(m->n_states * sizeof *x);
    uint32_t s;
    if (!x) return;
    proper_bitset_init(&target);
    if (m->n_labels) {
        if (proper_bitset_copy(&target, &m->labels[0].states, NULL)) { free(x); return; }
    } else {
        if (proper_bitset_create(&target, m->n_states, NULL)) { free(x); return; }
        proper_bitset_set(&target, m->n_states - 1);
    }
    if (m->kind == PROPER_DTMC_KIND_CTMC) {
        solve_ctmc(m, &target);
        proper_bitset_free(&target);
        free(x);
        return;
    }
    if (proper_dtmc_prob_until(m, NULL, &target, NULL, x, &st, &err) == 0) {
        if (!(st.max_error >= 0.0)) abort();
        for (s = 0; s < m->n_states; s++)
            if (!(x[s] >= -1e-9 - st.max_error && x[s] <= 1.0 + 1e-9 + st.max_error)) abort();
    }
    if (m->n_rewards && proper_dtmc_reward_reach(m, &m->rewards[0], &target, NULL, x, &st, &err) == 0 &&
        !(st.max_error >= 0.0))
        abort();
    if (proper_dtmc_steady(m, &target, NULL, x, &err) == 0)
        for (s = 0; s < m->n_states; s++)
            if (!(x[s] >= -1e-9 && x[s] <= 1.0 + 1e-9)) abort();
    proper_dtmc_prob_bounded_until(m, NULL, &target, 5, x, &err);
    if (m->n_states <= 64) bounded_differential(m, &target);
    proper_bitset_free(&target);
    free(x);
}

/* P=? [ F v=value ] for the first variable v of m's valuations (its value
 * in the last state) on a model of the valuations: a probability. */
static void check_over_variables(const proper_dtmc *m, const proper_prism_model *vm) {
    size_t size = strlen(m->var_names[0]) + 40; /* names have no length limit */
    char *text = (char *)malloc(size);
    proper_prism_props *p = NULL;
    proper_error err;
    double *x;
    uint32_t s;
    int32_t v = m->vals[(size_t)(m->n_states - 1) * m->n_vars];
    if (!text) return;
    if (m->var_is_bool[0]) snprintf(text, size, "P=? [ F %s%s ]", v ? "" : "!", m->var_names[0]);
    else snprintf(text, size, "P=? [ F %s=%ld ]", m->var_names[0], (long)v);
    if (proper_prism_props_parse(&p, vm, text, strlen(text), "(property)", &err)) abort();
    free(text);
    x = (double *)malloc(m->n_states * sizeof *x);
    if (x && proper_prism_props_check_states(p, 0, m, NULL, x, &err) == 0) {
        for (s = 0; s < m->n_states; s++)
            if (!(x[s] >= -1e-9 && x[s] <= 1.0 + 1e-9)) abort();
        if (x[m->n_states - 1] != 1.0) abort(); /* the last state is in the target */
    }
    free(x);
    proper_prism_props_free(p);
}

/* The .sta part: valuations that print and read back the same, and a
 * model of their variables for the properties. */
static void sta_part(proper_dtmc *m, const char *text, size_t len) {
    proper_error err;
    proper_prism_model *vm = NULL;
    FILE *f;
    char *printed;
    int32_t *vals;
    size_t cells, i;
    long n;
    int rc;
    if ((rc = proper_dtmc_parse_sta(m, text, len, "f.sta", &err))) {
        check_error(&err, text, len);
        return;
    }
    cells = m->n_vars * m->n_states;
    for (i = 0; i < cells; i++)
        if (m->var_is_bool[i % m->n_vars] && (m->vals[i] & ~1)) abort();
    if (!m->n_vars || !(f = tmpfile())) return;
    if (proper_dtmc_write_sta(m, f, &err)) abort();
    n = ftell(f);
    rewind(f);
    printed = (char *)malloc((size_t)n + 1);
    vals = (int32_t *)malloc(cells * sizeof *vals);
    if (!printed || !vals || fread(printed, 1, (size_t)n, f) != (size_t)n) abort();
    fclose(f);
    memcpy(vals, m->vals, cells * sizeof *vals);
    if (proper_dtmc_parse_sta(m, printed, (size_t)n, "printed", &err) || memcmp(vals, m->vals, cells * sizeof *vals))
        abort();
    free(printed);
    free(vals);
    rc = proper_prism_model_of_valuations(&vm, m, "f.sta", &err);
    if (rc) {
        if (rc != PROPER_EPARSE || !strstr(err.message, "keyword")) abort();
        return;
    }
    if (m->n_states <= FUZZ_SOLVE_STATES) check_over_variables(m, vm);
    proper_prism_free(vm);
}

/* Split at lines "@@": up to 5 parts. */
static size_t split(const char *data, size_t size, const char **part, size_t *len) {
    size_t n = 0, start = 0, i = 0;
    while (i <= size && n < 5) {
        int at_line = i == 0 || data[i - 1] == '\n';
        if (i < size && at_line && i + 2 <= size && data[i] == '@' && data[i + 1] == '@' &&
            (i + 2 == size || data[i + 2] == '\n')) {
            part[n] = data + start; len[n] = i - start; n++;
            i += 3;
            start = i;
            continue;
        }
        if (i == size) { part[n] = data + start; len[n] = size > start ? size - start : 0; n++; break; }
        i++;
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *part[5];
    size_t len[5], n, i;
    proper_dtmc m;
    proper_error err;
    proper_dtmc_import_opts o;
    int rc;
    n = split((const char *)data, size, part, len);
    if (n == 0) return 0;
    o = proper_dtmc_import_opts_default();
    o.max_states = FUZZ_MAX_STATES;
    o.fix_deadlocks = size & 1;
    o.ctmc = len[0] >= 6 && memcmp(part[0], "#ctmc\n", 6) == 0;
    proper_dtmc_init(&m);
    rc = proper_dtmc_parse_tra(&m, part[0], len[0], "f.tra", &o, &err);
    if (rc) {
        check_error(&err, part[0], len[0]);
        return 0;
    }
    check_invariants(&m);
    for (i = 1; i < n; i++) {
        if (i == 1) rc = proper_dtmc_parse_lab(&m, part[i], len[i], "f.lab", &err);
        else if (i == 2) rc = proper_dtmc_parse_srew(&m, part[i], len[i], "f.srew", NULL, &err);
        else if (i == 3) /* by its header comment's name or joining the .srew's structure, or unnamed */
            rc = proper_dtmc_parse_trew(&m, part[i], len[i], "f.trew", size & 2 ? NULL : "", &err);
        else {
            sta_part(&m, part[i], len[i]);
            continue;
        }
        if (rc) check_error(&err, part[i], len[i]);
    }
    check_invariants(&m);
    if (m.kind == PROPER_DTMC_KIND_DTMC) round_trip(&m);
    if (m.n_states <= FUZZ_SOLVE_STATES) solve(&m);
    proper_dtmc_free(&m);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_explicit"
#include "replay.h"
