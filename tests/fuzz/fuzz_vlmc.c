/* Fuzz target for vlmc.h: runs text or a counts file, optionally followed by
 * a line "@@" and a CFG. Whatever parses is fitted (options taken from the
 * input's first byte) and checked:
 *   - errors name a line inside their part;
 *   - the counts file round-trips (write, parse, write gives the same text);
 *   - the index counts every position: N(empty context) = steps + runs;
 *   - a fit has log-likelihood <= 0 and order <= longest run + 1; the hull's
 *     steps PMF plus its tail sums to 1; with alpha = 1, n_min = 1 and no
 *     order limit the model reproduces the empirical steps PMF (KL ~ 0);
 *   - sampled runs use known locations;
 *   - one run fitted in single-sequence mode (knob bit 6) has no context
 *     with ^, a root counting every location (the last predicts nothing),
 *     nodes seen at least n_min times, log-likelihood <= 0, and no hull.
 * Without PROPER_LIBFUZZER, main replays every file of directory argv[1]. */
#define PROPER_IMPLEMENTATION
#include "../../src/core.h"
#include "../../src/trace.h"
#include "../../src/stats.h"
#include "../../src/dtmc.h"
#include "../../src/vlmc.h"

#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_SYMBOLS 20000

static void check_error(const proper_error *err, const char *part, size_t len) {
    size_t lines = 1, i;
    for (i = 0; i < len; i++) lines += part[i] == '\n';
    if (err->code == PROPER_ENOMEM) return;
    if (err->code >= 0 || err->message[0] == '\0' || err->line < 0 || (size_t)err->line > lines) abort();
}

static char *write_counts(const proper_vlmc_counts *c, size_t *len) {
    FILE *f = tmpfile();
    proper_error err;
    long n;
    char *text;
    if (!f) return NULL;
    if (proper_vlmc_counts_write(c, f, &err)) abort();
    n = ftell(f);
    rewind(f);
    text = (char *)malloc((size_t)n + 1);
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) abort();
    text[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return text;
}

static void round_trip(const proper_vlmc_counts *c) {
    proper_vlmc_counts back;
    proper_error err;
    size_t n1, n2;
    char *t1 = write_counts(c, &n1), *t2;
    if (!t1) return;
    proper_vlmc_counts_init(&back);
    if (proper_vlmc_counts_parse_counts(&back, t1, n1, "printed", &err)) abort();
    t2 = write_counts(&back, &n2);
    if (!t2 || n1 != n2 || memcmp(t1, t2, n1) != 0) abort();
    if (back.total_runs != c->total_runs || back.total_steps != c->total_steps) abort();
    free(t1);
    free(t2);
    proper_vlmc_counts_free(&back);
}

static void check_model(const proper_vlmc_counts *c, proper_vlmc *m, int full) {
    proper_error err;
    double *v, *e, tail, sum = 0.0, kl;
    size_t nv, ne, i, longest = 0, len, cap = 0;
    uint32_t *run = NULL;
    proper_rng rng;
    for (i = 0; i < c->n_runs; i++)
        if (c->runs[i].len > longest) longest = c->runs[i].len;
    if (!(m->loglik <= 1e-9) || m->order > longest + 1 || m->n_nodes < 1) abort();
    if (proper_vlmc_hull(m, 200000, &err)) {
        check_error(&err, "", 0);
        return;
    }
    /* at most 20000 iterations and about 4 * 10^6 transitions visited: a chain
     * that rarely ends (fuzz finding timeout_rare_end: 2.9 s in the replay build) is
     * still checked, on a shorter prefix with its tail */
    {
        double work = (double)m->row[m->n_states] + 1.0;
        size_t max_steps = work * 20000.0 > 4e6 ? (size_t)(4e6 / work) + 1 : 20000;
        if (proper_vlmc_steps_pmf(m, 1e-12, 0, max_steps, &v, &nv, &tail, &err)) return;
    }
    for (i = 0; i < nv; i++) {
        if (!(v[i] >= 0.0 && v[i] <= 1.0 + 1e-12)) abort();
        sum += v[i];
    }
    if (!(fabs(sum + tail - 1.0) <= 1e-9)) abort();
    if (full && tail == 0.0 && proper_vlmc_counts_steps(c, &e, &ne, &err) == 0) {
        if (proper_vlmc_compare_steps(e, ne, v, nv, tail, c->total_runs, &kl, NULL, &err) == 0 && !(kl < 1e-9)) abort();
        free(e);
    }
    free(v);
    proper_rng_seed(&rng, 7);
    for (i = 0; i < 5; i++) {
        size_t k;
        if (proper_vlmc_sample(m, &rng, &run, &len, &cap, 10000, &err)) break;
        for (k = 0; k < len; k++)
            if (run[k] >= m->n_loc) abort();
    }
    free(run);
}

/* The invariants of a single-sequence model (see the header). */
static void check_single(const proper_vlmc_counts *c, proper_vlmc *m) {
    proper_error err;
    size_t i;
    if (m->nodes[0].count != c->total_steps || !(m->loglik <= 1e-9)) abort();
    for (i = 1; i < m->n_nodes; i++)
        if (m->nodes[i].sym == 0 || m->nodes[i].count < m->n_min) abort();
    if (proper_vlmc_hull(m, 0, &err) != PROPER_EINVAL) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data, *cfg_text = NULL;
    size_t len = size, cfg_len = 0, i;
    proper_vlmc_counts c;
    proper_vlmc_cfg g;
    proper_vlmc_opts o;
    proper_vlmc m;
    proper_vlmc_init(&m);
    proper_error err;
    unsigned char knob = size ? data[0] : 0;
    int rc, have_cfg = 0;
    for (i = 0; i + 3 <= size; i++)
        if (memcmp(text + i, "@@\n", 3) == 0 && (i == 0 || text[i - 1] == '\n')) {
            len = i;
            cfg_text = text + i + 3;
            cfg_len = size - i - 3;
            break;
        }
    proper_vlmc_counts_init(&c);
    if (len >= 18 && memcmp(text, "proper-vlmc-counts", 18) == 0) rc = proper_vlmc_counts_parse_counts(&c, text, len, "in", &err);
    else rc = proper_vlmc_counts_parse_runs(&c, text, len, "in", &err);
    if (rc) {
        check_error(&err, text, len);
        proper_vlmc_counts_free(&c);
        return 0;
    }
    if (c.n_runs == 0 || c.n_sym > FUZZ_MAX_SYMBOLS) {
        proper_vlmc_counts_free(&c);
        return 0;
    }
    round_trip(&c);
    {
        proper_vlmc_index ix;
        proper_vlmc_index_init(&ix);
        uint64_t n;
        if (proper_vlmc_index_build(&ix, &c, &err) == 0) {
            if (proper_vlmc_index_count(&ix, NULL, 0, 0, &n, NULL, &err) || n != c.total_steps + c.total_runs) abort();
            if (proper_vlmc_index_count(&ix, NULL, 0, 1, &n, NULL, &err) || n != c.total_runs) abort();
            proper_vlmc_index_free(&ix);
        }
    }
    proper_vlmc_cfg_init(&g);
    if (cfg_text) {
        if (proper_vlmc_cfg_parse(&g, cfg_text, cfg_len, "cfg", &err)) check_error(&err, cfg_text, cfg_len);
        else have_cfg = 1;
    }
    o = proper_vlmc_opts_default();
    o.alpha = (knob & 3) == 0 ? 1.0 : (knob & 3) == 1 ? 0.9 : (knob & 3) == 2 ? 0.5 : 0.05;
    o.n_min = (knob >> 2) & 1 ? 3 : 1;
    o.general = !have_cfg && ((knob >> 3) & 1);
    o.max_order = (knob >> 4) & 1 ? 2 : 0;
    o.extend_cfg = (knob >> 5) & 1;
    o.single = !have_cfg && !o.general && c.total_runs == 1 && ((knob >> 6) & 1);
    o.cutoff_df = (knob >> 7) & 1 ? PROPER_VLMC_DF_ALPHABET : PROPER_VLMC_DF_CFG;
    o.max_nodes = 200000;
    rc = proper_vlmc_fit(&m, &c, have_cfg ? &g : NULL, &o, &err);
    if (rc) {
        if (err.code >= 0 || err.message[0] == '\0') abort();
    } else if (o.single) {
        check_single(&c, &m);
        proper_vlmc_free(&m);
    } else {
        check_model(&c, &m, o.alpha == 1.0 && o.n_min == 1 && o.max_order == 0 && !o.general);
        proper_vlmc_free(&m);
    }
    proper_vlmc_cfg_free(&g);
    proper_vlmc_counts_free(&c);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_vlmc"
#include "replay.h"
