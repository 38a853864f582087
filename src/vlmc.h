/* vlmc.h — variable-length Markov chains of programs learned from location
 * traces (ProgramToVLMC), their Markov hull as a dtmc.h model, and the
 * distribution of the number of steps until a run ends.
 *
 * Method: Napolitano, "Automated Learning of Quantitative Software Models
 * from System Traces", PhD thesis, IMT Lucca 2022, ch. 3.4 and 5; Incerto,
 * Napolitano & Tribastone, "Statistical Learning of Markov Chains of
 * Programs", MASCOTS 2020. The thesis text was not available to us; this
 * module follows the algorithm as the issue describes it, with the choices
 * below stated where the description leaves room.
 *
 * ==== Runs ===============================================================
 * A run is the sequence of program locations one execution visited. Runs
 * are independent: no context ever spans two runs. Each run is modelled as
 *
 *     ^ s1 s2 ... sm $
 *
 * where `^` (start) is a history symbol that only ever stands first and `$`
 * (end) is the symbol predicted after the last location, so termination is
 * part of the model. The names "^" and "$" are reserved.
 *
 * Text format of runs (PROPER_VLMC "runs" files): one run per line, its
 * locations as names separated by spaces or tabs. A name is any sequence of
 * bytes other than space, tab, CR and LF, at most PROPER_VLMC_NAME_MAX bytes
 * (so numeric ids such as "17" and source positions such as "main.c:42"
 * both work). Lines whose first non-blank character is '#' are comments. A
 * line with no location is an empty run and an error: a run visits at least
 * one location. CRLF line ends are accepted.
 *
 *     # double loop, I = 2
 *     s h1 h2 x
 *     s h1 b1 h1 h2 b2 h2 b2 h2 x
 *
 * Runs can also come from trace.h files (one run per record, the record's
 * V lines) and from counts files (below). proper_vlmc_counts_load detects
 * the format from the first line ("proper-trace", "proper-vlmc-counts", or
 * anything else for runs text).
 *
 * ==== Counts ===============================================================
 * A proper_vlmc_counts holds the distinct runs with their multiplicities:
 * every context count N(w), N(w x) is a function of that multiset, so
 * counting distinct runs first is exact, and two shards' counts merge
 * exactly by adding multiplicities. Counts files (`proper vlmc count`)
 * store that multiset:
 *
 *     proper-vlmc-counts 1
 *     location NAME            one per location; the k-th line is id k-1
 *     run MULT ID ID ...        a distinct run: multiplicity >= 1, then ids
 *
 * Comment lines ('#') and blank lines may appear after the header. The
 * writer sorts locations by name (numeric names numerically) and runs
 * lexicographically, so equal multisets give byte-identical files.
 *
 * ==== CFG ==================================================================
 * Optional control-flow graph, one edge per line `FROM TO [TO ...]` (names
 * separated by blanks, '#' comments). `^ L` says a run may start at L,
 * `L $` that a run may end after L. Every name must be a location some run
 * visits (else PROPER_EUNDEFINED at file:line:col, "unknown location"); a
 * transition of a run that is not a CFG edge is PROPER_EPARSE naming the
 * run's file, line, run number and position, unless opts.extend_cfg adds
 * such edges. Without a CFG, the CFG is the observed successor relation.
 *
 * ==== ProgramToVLMC =======================================================
 * A context w = w1..wd is a sequence of history symbols, oldest first, the
 * newest wd being the current location; N(w) counts the positions of all
 * runs whose history ends with w (weighted by multiplicity) and N(w x) those
 * followed by x. The PST is a tree rooted at the empty context with the
 * single locations (and ^) at depth 1 — the roots of the location-PSTs —
 * and the child a·w of w extending the context one step into the past.
 *
 * CFG mode (default): every depth-1 node is kept; a node w with current
 * location l is grown backwards, one child per predecessor observed before
 * w, keeping children with N(a·w) >= n_min; growth stops at ^, at
 * max_order, and at contexts whose next symbol is certain (every extension
 * of such a context has the same distribution, Δ = 0, and would be pruned).
 * Next-symbol distributions are over l's successors. Pruning, bottom-up and
 * repeated as leaves become leaves: a leaf u = a·w is removed when
 *
 *     Δ(u) = Σ_x N(u x) log( P̂(x|u) / P̂(x|w) )  <=  K_l,
 *     K_l  = χ²_{k_l − 1}(1 − α) / 2,
 *
 * k_l the number of CFG successors of l (K = 0 when k_l = 1), i.e. the
 * context algorithm's test (Bühlmann & Wyner 1999) with l's own degrees of
 * freedom. α ∈ (0, 1]; α = 1 gives K = 0, removing exactly the contexts
 * that do not change the prediction. Δ is taken as 0 when the two count
 * vectors are exactly proportional (checked in integers).
 *
 * General mode (opts.general): the classical context algorithm over the
 * full alphabet: one tree, depth-1 nodes also grown only if N >= n_min and
 * prunable against the empty context's distribution, K = χ²_L(1 − α)/2
 * with L + 1 predicted symbols (L locations and $), optional max_order.
 *
 * Reported: nodes (CFG mode: the contexts, i.e. all nodes but the empty
 * root; general mode: all nodes including it), order (the longest context,
 * ^ counted as a symbol), log-likelihood (natural log of the probability
 * the VLMC gives the training runs, each prediction made by the longest
 * context in the tree that matches the history).
 *
 * ==== Markov hull and steps to termination ===============================
 * proper_vlmc_hull adds, for every context u·x in the tree, the context u
 * (and, recursively, what that needs), each new node predicting as its
 * longest suffix in the PST (Ron, Singer & Tishby 1996; Magarick). Then the
 * longest context matching the history after emitting x is a function of
 * the current context and x, so the contexts are the states of a first-order
 * chain, with one more absorbing state for $. proper_vlmc_to_dtmc turns it
 * into a proper_dtmc (label "end", reward "steps" = 1 per location visited,
 * valuations loc and depth), so every dtmc.h solver and exporter applies.
 * proper_vlmc_steps_pmf computes P(a run visits exactly m locations) by
 * forward iteration until the mass not yet absorbed is below eps.
 *
 * Sizes: positions (all locations of distinct runs plus one ^ per distinct
 * run) must stay below 2^32 - 1; so must the number of tree nodes.
 */
#ifndef PROPER_VLMC_H
#define PROPER_VLMC_H

#include "core.h"
#include "trace.h"
#include "stats.h"
#include "dtmc.h"
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Longest location name, in bytes. */
#define PROPER_VLMC_NAME_MAX 255
/* Default stopping mass for proper_vlmc_steps_pmf: iteration stops once the
 * probability of not having ended yet is below this. */
#ifndef PROPER_VLMC_STEPS_EPS
#define PROPER_VLMC_STEPS_EPS 1e-12
#endif
/* Default cap on the steps iteration / the length of a sampled run. */
#ifndef PROPER_VLMC_MAX_STEPS
#define PROPER_VLMC_MAX_STEPS 100000000UL
#endif
#define PROPER_VLMC_NONE 0xFFFFFFFFu

/* ---- Counts: distinct runs with multiplicities ---------------------------- */

/* One distinct run: its locations are sym[start .. start+len-1]. */
typedef struct proper_vlmc_run {
    uint64_t start;   /* offset into counts->sym */
    uint64_t mult;    /* how many runs had exactly this sequence */
    uint64_t line;    /* line of its first occurrence in its source (0 unknown) */
    uint64_t ordinal; /* run number (1-based) of that occurrence in its source */
    uint64_t hash;    /* private: hash of the sequence */
    uint32_t len;     /* number of locations (>= 1) */
    uint32_t file;    /* index into counts->files */
} proper_vlmc_run;

typedef struct proper_vlmc_line_slot {
    uint64_t hash, off; /* line text in line_pool */
    uint32_t len, run;  /* run = PROPER_VLMC_NONE for an empty slot */
} proper_vlmc_line_slot;

typedef struct proper_vlmc_counts {
    size_t n_names;       /* locations, ids 0.. in order of first appearance */
    char **names;
    size_t n_runs;        /* distinct runs */
    proper_vlmc_run *runs;
    uint32_t *sym;        /* all location ids of the distinct runs */
    uint64_t n_sym;
    uint64_t total_runs;  /* sum of multiplicities */
    uint64_t total_steps; /* sum of multiplicity * length */
    size_t n_files;       /* sources the runs came from (error messages) */
    char **files;
    /* Set to 1 before adding runs to keep every run separately (multiplicity
     * 1, no hashing): the naive baseline of the benchmark. */
    int keep_duplicates;
    /* private */
    size_t names_cap, runs_cap, files_cap;
    size_t sym_cap;
    uint32_t *name_slots; size_t name_slots_cap;
    uint32_t *run_slots; size_t run_slots_cap;
    proper_vlmc_line_slot *line_slots; size_t line_slots_cap, line_slots_used;
    char *line_pool; size_t line_pool_len, line_pool_cap;
    uint32_t *tok; size_t tok_cap;
} proper_vlmc_counts;

PROPER_API void proper_vlmc_counts_init(proper_vlmc_counts *c);
PROPER_API void proper_vlmc_counts_free(proper_vlmc_counts *c);
/* Id of a location name, adding it if new (PROPER_EINVAL for "^", "$", an
 * empty name, blanks inside, or a name longer than PROPER_VLMC_NAME_MAX). */
PROPER_API int proper_vlmc_counts_location(proper_vlmc_counts *c, const char *name, size_t len,
                                           uint32_t *id, proper_error *err);
/* Add `mult` copies of a run given as location ids (< n_names), n >= 1.
 * `file` names its source in later error messages (NULL: "(api)"). */
PROPER_API int proper_vlmc_counts_add_ids(proper_vlmc_counts *c, const uint32_t *ids, size_t n, uint64_t mult,
                                          const char *file, uint64_t line, uint64_t ordinal, proper_error *err);
/* Add a run given by names. */
PROPER_API int proper_vlmc_counts_add_names(proper_vlmc_counts *c, const char *const *names, size_t n,
                                            uint64_t mult, proper_error *err);
/* Parse runs text (format above). */
PROPER_API int proper_vlmc_counts_parse_runs(proper_vlmc_counts *c, const char *text, size_t len,
                                             const char *file, proper_error *err);
/* Parse a counts file's text and add its runs. */
PROPER_API int proper_vlmc_counts_parse_counts(proper_vlmc_counts *c, const char *text, size_t len,
                                               const char *file, proper_error *err);
/* Add one run per record of a trace.h trace (its V locations, in order);
 * a record without locations is an empty run (PROPER_EPARSE). */
PROPER_API int proper_vlmc_counts_add_trace(proper_vlmc_counts *c, const proper_trace *t, const char *file,
                                            proper_error *err);
/* Read a file of any of the three formats (runs text is streamed: memory
 * grows with the distinct runs, not with the file). */
PROPER_API int proper_vlmc_counts_load(proper_vlmc_counts *c, const char *path, proper_error *err);
/* dst += src (locations matched by name). */
PROPER_API int proper_vlmc_counts_merge(proper_vlmc_counts *dst, const proper_vlmc_counts *src,
                                        proper_error *err);
/* Write / save in the counts-file format (canonical order). */
PROPER_API int proper_vlmc_counts_write(const proper_vlmc_counts *c, FILE *f, proper_error *err);
PROPER_API int proper_vlmc_counts_save(const proper_vlmc_counts *c, const char *path, proper_error *err);
/* Empirical distribution of the number of locations per run: pmf[m] for
 * m < *len (fresh array, free with PROPER_FREE). */
PROPER_API int proper_vlmc_counts_steps(const proper_vlmc_counts *c, double **pmf, size_t *len, proper_error *err);
/* Bytes held. */
PROPER_API size_t proper_vlmc_counts_memory(const proper_vlmc_counts *c);

/* Canonical order of location names: numeric names (digits only) by value,
 * before other names, which compare bytewise. Returns <0, 0, >0. */
PROPER_API int proper_vlmc_name_cmp(const char *a, const char *b);

/* ---- Control-flow graph --------------------------------------------------- */

typedef struct proper_vlmc_cfg_edge {
    char *from, *to; /* names; "^" start, "$" end */
    int line, col_from, col_to;
} proper_vlmc_cfg_edge;

typedef struct proper_vlmc_cfg {
    proper_vlmc_cfg_edge *edges;
    size_t n_edges, cap;
    char file[PROPER_ERROR_FILE_MAX]; /* source name for errors ("" none) */
} proper_vlmc_cfg;

PROPER_API void proper_vlmc_cfg_init(proper_vlmc_cfg *g);
PROPER_API void proper_vlmc_cfg_free(proper_vlmc_cfg *g);
/* Add an edge by names ("^" may only be a source, "$" only a target). */
PROPER_API int proper_vlmc_cfg_add_edge(proper_vlmc_cfg *g, const char *from, const char *to, proper_error *err);
PROPER_API int proper_vlmc_cfg_parse(proper_vlmc_cfg *g, const char *text, size_t len, const char *file,
                                     proper_error *err);
PROPER_API int proper_vlmc_cfg_load(proper_vlmc_cfg *g, const char *path, proper_error *err);

/* ---- Context index ---------------------------------------------------------
 * Suffix array over the reversed distinct runs (each ending in ^), built once
 * by prefix doubling with radix sorts: O(n log R) for n positions and runs
 * of length < R. Per location, prefix sums of the weights of each observed
 * successor in suffix-array order make N(w) and every N(w x) O(1) for a
 * suffix-array interval; a context's interval is found by binary search,
 * O(|w| log n). */
typedef struct proper_vlmc_index {
    uint32_t n_loc;      /* L locations; history symbols: 0 = ^, 1+i = location i */
    uint32_t n;          /* positions */
    uint32_t max_len;    /* longest reversed run (locations + 1) */
    uint32_t *text;      /* reversed runs as history symbols (canonical ids) */
    uint32_t *sa;        /* suffix array */
    uint64_t *wsum;      /* n + 1 prefix sums of the weights in SA order */
    uint32_t *block;     /* L + 2: SA range of history symbol h is [block[h], block[h+1]) */
    uint32_t *succ_off;  /* L + 2 offsets into succ */
    uint32_t *succ;      /* observed successors of each history symbol: canonical
                          * location ids, L for $, ascending */
    uint64_t *csum_off;  /* L + 1 offsets into csum */
    uint64_t *csum;      /* block h: (k_h - 1) arrays of |block| + 1 prefix sums */
    uint64_t *marginal;  /* L + 1 totals per predicted symbol */
    uint32_t *canon;     /* counts id -> canonical id */
    uint32_t *ids;       /* canonical id -> counts id */
} proper_vlmc_index;

PROPER_API int proper_vlmc_index_build(proper_vlmc_index *ix, const proper_vlmc_counts *c, proper_error *err);
PROPER_API void proper_vlmc_index_free(proper_vlmc_index *ix);
/* N(w) into *n and N(w x) into next[0 .. n_names] (x a counts id, n_names
 * for $) for the context w = ctx[0..len-1] (counts ids, oldest first),
 * preceded by ^ when `anchored`. len = 0 and anchored: the context "^";
 * len = 0 otherwise: the empty context (every position). next may be NULL. */
PROPER_API int proper_vlmc_index_count(const proper_vlmc_index *ix, const uint32_t *ctx, size_t len,
                                       int anchored, uint64_t *n, uint64_t *next, proper_error *err);
PROPER_API size_t proper_vlmc_index_memory(const proper_vlmc_index *ix);

/* ---- Fitting ----------------------------------------------------------------*/

typedef void (*proper_vlmc_progress_fn)(void *user, const char *phase, double fraction);

typedef struct proper_vlmc_opts {
    double alpha;        /* in (0, 1]; 1 after opts_default (thesis Figure 16) */
    uint64_t n_min;      /* >= 1; 1 after opts_default */
    int general;         /* 1: classical context algorithm (no CFG) */
    unsigned max_order;  /* longest context; 0 = unlimited */
    int extend_cfg;      /* 1: add a run's transitions missing from the CFG */
    size_t max_nodes;    /* tree + hull node limit (PROPER_ELIMIT beyond); 0 = 2^32 - 2 */
    proper_vlmc_progress_fn progress; /* optional; called now and then */
    void *progress_user;
} proper_vlmc_opts;

PROPER_API void proper_vlmc_opts_default(proper_vlmc_opts *o);

typedef struct proper_vlmc_node {
    uint32_t parent, child, sibling; /* PROPER_VLMC_NONE when absent */
    uint32_t sym;     /* oldest symbol of the context (history symbol); NONE at the root */
    uint32_t loc;     /* newest symbol (the current location); NONE at the root */
    uint32_t depth;   /* context length */
    uint32_t dist;    /* node whose distribution applies (itself in the PST) */
    uint32_t in_pst;  /* 1 for a PST node, 0 for a node the hull added */
    uint64_t count;   /* N(w) (of `dist` for hull nodes) */
    uint64_t next;    /* offset in m->next_counts of N(w x), aligned with the
                       * successor list of loc (root: all L + 1 predicted symbols) */
    double delta;     /* Δ against the parent (NAN where not tested) */
} proper_vlmc_node;

typedef struct proper_vlmc {
    size_t n_loc;         /* locations, canonical order */
    char **names;
    int general;
    double alpha;
    uint64_t n_min;
    unsigned max_order;
    uint32_t *succ_off, *succ; /* observed successors per history symbol (as in the index) */
    uint32_t *cfg_k;      /* CFG successors per history symbol (degrees of freedom + 1) */
    double *cutoff;       /* K per history symbol */
    size_t n_nodes, nodes_cap;
    proper_vlmc_node *nodes; /* node 0 is the empty context; PST nodes first, in preorder */
    size_t n_pst;         /* PST nodes (including the root) */
    uint64_t *next_counts;
    size_t n_contexts;    /* reported node count (see above) */
    unsigned order;
    double loglik;
    uint64_t total_runs, total_steps;
    /* Markov hull chain (after proper_vlmc_hull): states in BFS order from
     * init = 0; the last state is $ (absorbing). */
    uint32_t n_states, end_state;
    uint64_t *row;
    uint32_t *col;
    double *prob;
    uint32_t *state_node; /* hull node of each state (NONE for $) */
} proper_vlmc;

/* Learn the PST from counts (cfg may be NULL; must be NULL in general mode). */
PROPER_API int proper_vlmc_fit(proper_vlmc *m, const proper_vlmc_counts *c, const proper_vlmc_cfg *cfg,
                               const proper_vlmc_opts *opts, proper_error *err);
PROPER_API void proper_vlmc_free(proper_vlmc *m);
PROPER_API size_t proper_vlmc_memory(const proper_vlmc *m);
/* Context of a node as text ("^ a b", oldest first; "" for the root). */
PROPER_API int proper_vlmc_context_string(const proper_vlmc *m, uint32_t node, char *buf, size_t size);
/* P̂(x | node) for a predicted symbol x (canonical id, n_loc for $). */
PROPER_API double proper_vlmc_prob(const proper_vlmc *m, uint32_t node, uint32_t x);
/* The PST as text: a header comment, then one line per node in preorder:
 * depth, count, delta, context, "next:prob(count)" pairs (tab-separated). */
PROPER_API int proper_vlmc_write_pst(const proper_vlmc *m, FILE *f, proper_error *err);
/* The PST as a Graphviz digraph. */
PROPER_API int proper_vlmc_write_dot(const proper_vlmc *m, FILE *f, proper_error *err);

/* Build the Markov hull and its chain (idempotent). max_nodes as in opts
 * (0 = 2^32 - 2). */
PROPER_API int proper_vlmc_hull(proper_vlmc *m, size_t max_nodes, proper_error *err);
/* The hull chain as a dtmc.h model. */
PROPER_API int proper_vlmc_to_dtmc(const proper_vlmc *m, proper_dtmc *out, proper_error *err);
/* Steps to termination: pmf[k] = P(the run visits exactly k locations), for
 * k < *len, iterating until the mass not yet ended is < eps (<= 0: default)
 * and k exceeds min_len; *tail gets that remaining mass. More than max_steps
 * iterations (0: PROPER_VLMC_MAX_STEPS) stop with the tail reported. */
PROPER_API int proper_vlmc_steps_pmf(const proper_vlmc *m, double eps, size_t min_len, size_t max_steps,
                                     double **pmf, size_t *len, double *tail, proper_error *err);
/* Sample one run from the hull chain into *run (canonical ids, grown with
 * proper_reserve: pass *run = NULL, *cap = 0 the first time). A run longer
 * than max_len (0: PROPER_VLMC_MAX_STEPS) is PROPER_ELIMIT. */
PROPER_API int proper_vlmc_sample(const proper_vlmc *m, proper_rng *rng, uint32_t **run, size_t *len,
                                  size_t *cap, size_t max_len, proper_error *err);

/* Compare an empirical steps PMF E (e[0..ne-1]) with a model's V
 * (v[0..nv-1], tail mass v_tail): KL(E‖V) in nats (+INFINITY when V misses
 * a length E has; stats.h conventions) and the log-likelihood of `runs`
 * runs distributed as E under V (-INFINITY likewise). */
PROPER_API int proper_vlmc_compare_steps(const double *e, size_t ne, const double *v, size_t nv, double v_tail,
                                         uint64_t runs, double *kl, double *loglik, proper_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_VLMC_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_VLMC_IMPLEMENTATION
#define PROPER_VLMC_IMPLEMENTATION

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ---- */

static uint64_t proper__vlmc_mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* Hash of a byte string, eight bytes at a time (the line cache hashes whole
 * trace lines, so this is on the hot path of reading). */
static uint64_t proper__vlmc_hash_bytes(const char *s, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0x9FB21C651E98DF25ULL;
        h = (h << 29) | (h >> 35);
        s += 8;
        n -= 8;
    }
    if (n) {
        uint64_t w = 0;
        memcpy(&w, s, n);
        h = (h ^ w) * 0x9FB21C651E98DF25ULL;
    }
    return proper__vlmc_mix(h);
}

static uint64_t proper__vlmc_hash_ids(const uint32_t *ids, size_t n) {
    uint64_t h = 0x243F6A8885A308D3ULL ^ (uint64_t)n;
    size_t i = 0;
    for (; i + 1 < n; i += 2) {
        h = (h ^ ((uint64_t)ids[i] | ((uint64_t)ids[i + 1] << 32))) * 0x9FB21C651E98DF25ULL;
        h = (h << 29) | (h >> 35);
    }
    if (i < n) h = (h ^ (uint64_t)ids[i]) * 0x9FB21C651E98DF25ULL;
    return proper__vlmc_mix(h);
}

static int proper__vlmc_oom(proper_error *err) {
    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
}

static char *proper__vlmc_strndup(const char *s, size_t n) {
    char *d = (char *)PROPER_MALLOC(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static int proper__vlmc_is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r'; }

static int proper__vlmc_all_digits(const char *s) {
    if (!*s) return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

PROPER_API int proper_vlmc_name_cmp(const char *a, const char *b) {
    int da = proper__vlmc_all_digits(a), db = proper__vlmc_all_digits(b);
    if (da && db) {
        const char *pa = a, *pb = b;
        size_t la, lb;
        int c;
        while (*pa == '0' && pa[1]) pa++;
        while (*pb == '0' && pb[1]) pb++;
        la = strlen(pa);
        lb = strlen(pb);
        if (la != lb) return la < lb ? -1 : 1;
        c = strcmp(pa, pb);
        if (c) return c;
        return strcmp(a, b); /* "07" and "7": fall back to the spelling */
    }
    if (da != db) return da ? -1 : 1;
    return strcmp(a, b);
}

/* Stable merge sort of an index array with a comparator that takes a
 * context (C99 has no qsort_r). */
typedef int (*proper__vlmc_cmp_fn)(const void *ctx, uint32_t a, uint32_t b);

static int proper__vlmc_sort_idx(uint32_t *idx, size_t n, proper__vlmc_cmp_fn cmp, const void *ctx) {
    uint32_t *tmp, *src, *dst;
    size_t width;
    if (n < 2) return PROPER_OK;
    tmp = (uint32_t *)proper_calloc(n, sizeof *tmp);
    if (!tmp) return PROPER_ENOMEM;
    src = idx;
    dst = tmp;
    for (width = 1; width < n; width *= 2) {
        size_t lo;
        for (lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) dst[k++] = cmp(ctx, src[j], src[i]) < 0 ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        { uint32_t *t = src; src = dst; dst = t; }
    }
    if (src != idx) memcpy(idx, src, n * sizeof *idx);
    PROPER_FREE(tmp);
    return PROPER_OK;
}

static int proper__vlmc_name_idx_cmp(const void *ctx, uint32_t a, uint32_t b) {
    char *const *names = (char *const *)ctx;
    return proper_vlmc_name_cmp(names[a], names[b]);
}

/* Gives an error without a position the position of its source. */
static int proper__vlmc_locate(proper_error *err, int rc, const char *file, uint64_t line) {
    if (err && !err->file[0] && file) {
        size_t n = strlen(file);
        if (n >= sizeof err->file) n = sizeof err->file - 1;
        memcpy(err->file, file, n);
        err->file[n] = '\0';
        if (!err->line) err->line = (int)line;
    }
    return rc;
}

/* ---- counts ---- */

PROPER_API void proper_vlmc_counts_init(proper_vlmc_counts *c) { memset(c, 0, sizeof *c); }

PROPER_API void proper_vlmc_counts_free(proper_vlmc_counts *c) {
    size_t i;
    for (i = 0; i < c->n_names; i++) PROPER_FREE(c->names[i]);
    for (i = 0; i < c->n_files; i++) PROPER_FREE(c->files[i]);
    PROPER_FREE(c->names);
    PROPER_FREE(c->files);
    PROPER_FREE(c->runs);
    PROPER_FREE(c->sym);
    PROPER_FREE(c->name_slots);
    PROPER_FREE(c->run_slots);
    PROPER_FREE(c->line_slots);
    PROPER_FREE(c->line_pool);
    PROPER_FREE(c->tok);
    proper_vlmc_counts_init(c);
}

PROPER_API size_t proper_vlmc_counts_memory(const proper_vlmc_counts *c) {
    size_t b = c->names_cap * sizeof(char *) + c->runs_cap * sizeof(proper_vlmc_run) +
               c->sym_cap * sizeof(uint32_t) + c->name_slots_cap * sizeof(uint32_t) +
               c->run_slots_cap * sizeof(uint32_t) + c->line_slots_cap * sizeof(proper_vlmc_line_slot) +
               c->line_pool_cap + c->tok_cap * sizeof(uint32_t);
    size_t i;
    for (i = 0; i < c->n_names; i++) b += strlen(c->names[i]) + 1;
    return b;
}

/* Checks a location name; 0 when valid. */
static int proper__vlmc_check_name(const char *s, size_t n, const char **why) {
    size_t i;
    if (n == 0) { *why = "empty location name"; return 1; }
    if (n > PROPER_VLMC_NAME_MAX) { *why = "location name longer than 255 bytes"; return 1; }
    if (n == 1 && (s[0] == '^' || s[0] == '$')) { *why = "'^' and '$' are reserved (run start and end)"; return 1; }
    for (i = 0; i < n; i++)
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n' || s[i] == '\0') {
            *why = "location name contains a blank or control character";
            return 1;
        }
    return 0;
}

static uint32_t proper__vlmc_find_name(const proper_vlmc_counts *c, const char *s, size_t n) {
    size_t mask, i;
    if (!c->name_slots_cap) return PROPER_VLMC_NONE;
    mask = c->name_slots_cap - 1;
    for (i = (size_t)proper__vlmc_hash_bytes(s, n) & mask;; i = (i + 1) & mask) {
        uint32_t v = c->name_slots[i];
        if (!v) return PROPER_VLMC_NONE;
        if (strlen(c->names[v - 1]) == n && memcmp(c->names[v - 1], s, n) == 0) return v - 1;
    }
}

static int proper__vlmc_name_table_grow(proper_vlmc_counts *c) {
    size_t cap = c->name_slots_cap ? c->name_slots_cap * 2 : 64, i;
    uint32_t *slots = (uint32_t *)proper_calloc(cap, sizeof *slots);
    if (!slots) return PROPER_ENOMEM;
    for (i = 0; i < c->n_names; i++) {
        size_t j = (size_t)proper__vlmc_hash_bytes(c->names[i], strlen(c->names[i])) & (cap - 1);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = (uint32_t)(i + 1);
    }
    PROPER_FREE(c->name_slots);
    c->name_slots = slots;
    c->name_slots_cap = cap;
    return PROPER_OK;
}

PROPER_API int proper_vlmc_counts_location(proper_vlmc_counts *c, const char *name, size_t len, uint32_t *id,
                                           proper_error *err) {
    const char *why;
    uint32_t found;
    size_t j;
    if (proper__vlmc_check_name(name, len, &why))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s", why);
    found = proper__vlmc_find_name(c, name, len);
    if (found != PROPER_VLMC_NONE) { *id = found; return PROPER_OK; }
    if (c->n_names >= 0x7FFFFFF0u)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "more than 2^31 - 16 locations");
    if ((c->n_names + 1) * 2 > c->name_slots_cap && proper__vlmc_name_table_grow(c)) return proper__vlmc_oom(err);
    if (proper_reserve(&c->names, &c->names_cap, c->n_names + 1, sizeof *c->names)) return proper__vlmc_oom(err);
    c->names[c->n_names] = proper__vlmc_strndup(name, len);
    if (!c->names[c->n_names]) return proper__vlmc_oom(err);
    for (j = (size_t)proper__vlmc_hash_bytes(name, len) & (c->name_slots_cap - 1); c->name_slots[j];
         j = (j + 1) & (c->name_slots_cap - 1)) {
    }
    c->name_slots[j] = (uint32_t)(c->n_names + 1);
    *id = (uint32_t)c->n_names++;
    return PROPER_OK;
}

static int proper__vlmc_file_index(proper_vlmc_counts *c, const char *file, uint32_t *out) {
    size_t i;
    if (!file) file = "(api)";
    for (i = c->n_files; i-- > 0;)
        if (strcmp(c->files[i], file) == 0) { *out = (uint32_t)i; return PROPER_OK; }
    if (proper_reserve(&c->files, &c->files_cap, c->n_files + 1, sizeof *c->files)) return PROPER_ENOMEM;
    c->files[c->n_files] = proper__vlmc_strndup(file, strlen(file));
    if (!c->files[c->n_files]) return PROPER_ENOMEM;
    *out = (uint32_t)c->n_files++;
    return PROPER_OK;
}

static int proper__vlmc_run_table_grow(proper_vlmc_counts *c) {
    size_t cap = c->run_slots_cap ? c->run_slots_cap * 2 : 1024, i;
    uint32_t *slots = (uint32_t *)proper_calloc(cap, sizeof *slots);
    if (!slots) return PROPER_ENOMEM;
    for (i = 0; i < c->n_runs; i++) {
        size_t j = (size_t)c->runs[i].hash & (cap - 1);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = (uint32_t)(i + 1);
    }
    PROPER_FREE(c->run_slots);
    c->run_slots = slots;
    c->run_slots_cap = cap;
    return PROPER_OK;
}

static int proper__vlmc_add_mult(proper_vlmc_counts *c, uint32_t r, uint64_t mult, proper_error *err) {
    uint64_t len = c->runs[r].len;
    if (c->runs[r].mult > UINT64_MAX - mult || c->total_runs > UINT64_MAX - mult ||
        (mult > 0 && len > (UINT64_MAX - c->total_steps) / mult))
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "run counts overflow 64 bits");
    c->runs[r].mult += mult;
    c->total_runs += mult;
    c->total_steps += mult * len;
    return PROPER_OK;
}

/* Adds a run of location ids; *out (may be NULL) gets its distinct index. */
static int proper__vlmc_add_run(proper_vlmc_counts *c, const uint32_t *ids, size_t n, uint64_t mult,
                                uint32_t file, uint64_t line, uint64_t ordinal, uint32_t *out, proper_error *err) {
    uint64_t h;
    size_t j = 0;
    proper_vlmc_run *r;
    if (n == 0) return proper_error_set(err, PROPER_EPARSE, NULL, 0, 0, "empty run");
    if (n >= 0xFFFFFFF0u) return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "run longer than 2^32 - 16 locations");
    if (mult == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "multiplicity 0");
    h = proper__vlmc_hash_ids(ids, n);
    if (!c->keep_duplicates && c->run_slots_cap) {
        size_t mask = c->run_slots_cap - 1;
        for (j = (size_t)h & mask; c->run_slots[j]; j = (j + 1) & mask) {
            uint32_t k = c->run_slots[j] - 1;
            r = &c->runs[k];
            if (r->hash == h && r->len == n && memcmp(c->sym + r->start, ids, n * sizeof *ids) == 0) {
                if (out) *out = k;
                return proper__vlmc_add_mult(c, k, mult, err);
            }
        }
    }
    if (c->n_runs >= 0xFFFFFFF0u) return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "more than 2^32 - 16 distinct runs");
    if (proper_reserve(&c->runs, &c->runs_cap, c->n_runs + 1, sizeof *c->runs) ||
        proper_reserve(&c->sym, &c->sym_cap, (size_t)c->n_sym + n, sizeof *c->sym))
        return proper__vlmc_oom(err);
    memcpy(c->sym + c->n_sym, ids, n * sizeof *ids);
    r = &c->runs[c->n_runs];
    r->start = c->n_sym;
    r->len = (uint32_t)n;
    r->mult = 0;
    r->hash = h;
    r->file = file;
    r->line = line;
    r->ordinal = ordinal;
    c->n_sym += n;
    c->n_runs++;
    if (!c->keep_duplicates) {
        if (c->n_runs * 2 > c->run_slots_cap) {
            if (proper__vlmc_run_table_grow(c)) return proper__vlmc_oom(err);
        } else {
            size_t mask = c->run_slots_cap - 1;
            for (j = (size_t)h & mask; c->run_slots[j]; j = (j + 1) & mask) {
            }
            c->run_slots[j] = (uint32_t)c->n_runs;
        }
    }
    if (out) *out = (uint32_t)(c->n_runs - 1);
    return proper__vlmc_add_mult(c, (uint32_t)(c->n_runs - 1), mult, err);
}

PROPER_API int proper_vlmc_counts_add_ids(proper_vlmc_counts *c, const uint32_t *ids, size_t n, uint64_t mult,
                                          const char *file, uint64_t line, uint64_t ordinal, proper_error *err) {
    uint32_t f;
    size_t i;
    for (i = 0; i < n; i++)
        if (ids[i] >= c->n_names)
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "location id %lu at position %lu is not below %lu",
                                    (unsigned long)ids[i], (unsigned long)(i + 1), (unsigned long)c->n_names);
    if (proper__vlmc_file_index(c, file, &f)) return proper__vlmc_oom(err);
    return proper__vlmc_add_run(c, ids, n, mult, f, line, ordinal, NULL, err);
}

PROPER_API int proper_vlmc_counts_add_names(proper_vlmc_counts *c, const char *const *names, size_t n,
                                            uint64_t mult, proper_error *err) {
    size_t i;
    int rc;
    uint32_t f;
    if (proper_reserve(&c->tok, &c->tok_cap, n + 1, sizeof *c->tok)) return proper__vlmc_oom(err);
    for (i = 0; i < n; i++)
        if ((rc = proper_vlmc_counts_location(c, names[i], strlen(names[i]), &c->tok[i], err))) return rc;
    if (proper__vlmc_file_index(c, NULL, &f)) return proper__vlmc_oom(err);
    return proper__vlmc_add_run(c, c->tok, n, mult, f, 0, c->total_runs + 1, NULL, err);
}

/* ---- runs text ---- */

static int proper__vlmc_line_cache_grow(proper_vlmc_counts *c) {
    size_t cap = c->line_slots_cap ? c->line_slots_cap * 2 : 1024, i;
    proper_vlmc_line_slot *slots = (proper_vlmc_line_slot *)proper_calloc(cap, sizeof *slots);
    if (!slots) return PROPER_ENOMEM;
    for (i = 0; i < cap; i++) slots[i].run = PROPER_VLMC_NONE;
    for (i = 0; i < c->line_slots_cap; i++) {
        size_t j;
        if (c->line_slots[i].run == PROPER_VLMC_NONE) continue;
        for (j = (size_t)c->line_slots[i].hash & (cap - 1); slots[j].run != PROPER_VLMC_NONE; j = (j + 1) & (cap - 1)) {
        }
        slots[j] = c->line_slots[i];
    }
    PROPER_FREE(c->line_slots);
    c->line_slots = slots;
    c->line_slots_cap = cap;
    return PROPER_OK;
}

/* Tokenises one run line into location ids (c->tok); errors at file:line:col. */
static int proper__vlmc_tokenize(proper_vlmc_counts *c, const char *p, size_t n, const char *file, uint64_t line,
                                 size_t *count, proper_error *err) {
    size_t i = 0, k = 0;
    while (i < n) {
        size_t b;
        const char *why;
        while (i < n && proper__vlmc_is_blank(p[i])) i++;
        if (i >= n) break;
        b = i;
        while (i < n && !proper__vlmc_is_blank(p[i])) i++;
        if (proper__vlmc_check_name(p + b, i - b, &why))
            return proper_error_set(err, PROPER_EPARSE, file, (int)line, (int)(b + 1), "%s", why);
        if (proper_reserve(&c->tok, &c->tok_cap, k + 1, sizeof *c->tok)) return proper__vlmc_oom(err);
        {
            proper_error e;
            int rc = proper_vlmc_counts_location(c, p + b, i - b, &c->tok[k], &e);
            if (rc) return proper_error_set(err, rc, file, (int)line, (int)(b + 1), "%s", e.message);
        }
        k++;
    }
    *count = k;
    return PROPER_OK;
}

/* One line of a runs file. `ordinal` counts the runs of the file so far.
 * Identical lines are recognised by a hash of their text (the line cache)
 * without tokenising them again. */
static int proper__vlmc_runs_line(proper_vlmc_counts *c, const char *p, size_t n, uint32_t file_idx,
                                  const char *file, uint64_t line, uint64_t *ordinal, proper_error *err) {
    size_t b = 0, e = n, k;
    uint64_t h = 0;
    uint32_t run;
    int rc;
    while (b < e && proper__vlmc_is_blank(p[b])) b++;
    while (e > b && proper__vlmc_is_blank(p[e - 1])) e--;
    if (b < e && p[b] == '#') return PROPER_OK;
    ++*ordinal;
    if (b == e)
        return proper_error_set(err, PROPER_EPARSE, file, (int)line, 1,
                                "run %llu is empty (a run visits at least one location)", (unsigned long long)*ordinal);
    if (!c->keep_duplicates) {
        size_t j, mask;
        h = proper__vlmc_hash_bytes(p + b, e - b);
        if (c->line_slots_cap) {
            mask = c->line_slots_cap - 1;
            for (j = (size_t)h & mask; c->line_slots[j].run != PROPER_VLMC_NONE; j = (j + 1) & mask) {
                const proper_vlmc_line_slot *s = &c->line_slots[j];
                if (s->hash == h && s->len == e - b && memcmp(c->line_pool + s->off, p + b, e - b) == 0)
                    return proper__vlmc_add_mult(c, s->run, 1, err);
            }
        }
    }
    if ((rc = proper__vlmc_tokenize(c, p, e, file, line, &k, err))) return rc;
    if ((rc = proper__vlmc_add_run(c, c->tok, k, 1, file_idx, line, *ordinal, &run, err)))
        return proper__vlmc_locate(err, rc, file, line);
    if (!c->keep_duplicates && e - b < 0xFFFFFFFFu) {
        size_t j, mask;
        if ((c->line_slots_used + 1) * 2 > c->line_slots_cap && proper__vlmc_line_cache_grow(c))
            return proper__vlmc_oom(err);
        if (proper_reserve(&c->line_pool, &c->line_pool_cap, c->line_pool_len + (e - b), 1)) return proper__vlmc_oom(err);
        mask = c->line_slots_cap - 1;
        for (j = (size_t)h & mask; c->line_slots[j].run != PROPER_VLMC_NONE; j = (j + 1) & mask) {
        }
        c->line_slots[j].hash = h;
        c->line_slots[j].off = c->line_pool_len;
        c->line_slots[j].len = (uint32_t)(e - b);
        c->line_slots[j].run = run;
        memcpy(c->line_pool + c->line_pool_len, p + b, e - b);
        c->line_pool_len += e - b;
        c->line_slots_used++;
    }
    return PROPER_OK;
}

PROPER_API int proper_vlmc_counts_parse_runs(proper_vlmc_counts *c, const char *text, size_t len, const char *file,
                                             proper_error *err) {
    size_t pos = 0;
    uint64_t line = 0, ordinal = 0;
    uint32_t f;
    int rc;
    if (proper__vlmc_file_index(c, file, &f)) return proper__vlmc_oom(err);
    while (pos < len) {
        const char *nl = (const char *)memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        line++;
        if ((rc = proper__vlmc_runs_line(c, text + pos, end - pos, f, file, line, &ordinal, err))) return rc;
        pos = end + 1;
    }
    return PROPER_OK;
}

/* ---- counts files ---- */

/* Next blank-separated token of [*p, end): its start and length; 0 if none. */
static size_t proper__vlmc_token(const char **p, const char *end, const char **tok) {
    const char *q = *p;
    while (q < end && proper__vlmc_is_blank(*q)) q++;
    *tok = q;
    while (q < end && !proper__vlmc_is_blank(*q)) q++;
    *p = q;
    return (size_t)(q - *tok);
}

static int proper__vlmc_parse_u64(const char *s, size_t n, uint64_t *out) {
    uint64_t v = 0;
    size_t i;
    if (n == 0 || n > 20) return 1;
    for (i = 0; i < n; i++) {
        unsigned d;
        if (s[i] < '0' || s[i] > '9') return 1;
        d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) return 1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int proper__vlmc_header_is(const char *text, size_t len, const char *word) {
    size_t n = strlen(word);
    return len >= n && memcmp(text, word, n) == 0 && (len == n || proper__vlmc_is_blank(text[n]) || text[n] == '\n');
}


PROPER_API int proper_vlmc_counts_parse_counts(proper_vlmc_counts *c, const char *text, size_t len, const char *file,
                                               proper_error *err) {
    uint32_t *map = NULL, f;
    size_t n_map = 0, map_cap = 0, pos = 0;
    uint64_t line = 0, ordinal = 0;
    int rc = PROPER_OK;
    if (proper__vlmc_file_index(c, file, &f)) return proper__vlmc_oom(err);
    while (pos < len && rc == PROPER_OK) {
        const char *nl = (const char *)memchr(text + pos, '\n', len - pos);
        const char *ls = text + pos, *p = ls, *end = nl ? nl : text + len, *tok;
        size_t n;
        line++;
        pos = (size_t)(end - text) + 1;
        n = proper__vlmc_token(&p, end, &tok);
        if (line == 1) {
            const char *t2;
            if (!(n == 18 && memcmp(tok, "proper-vlmc-counts", 18) == 0) || proper__vlmc_token(&p, end, &t2) != 1 ||
                t2[0] != '1' || proper__vlmc_token(&p, end, &tok) != 0)
                rc = proper_error_set(err, PROPER_EPARSE, file, 1, 1, "expected the header 'proper-vlmc-counts 1'");
            continue;
        }
        if (n == 0 || tok[0] == '#') continue;
        if (n == 8 && memcmp(tok, "location", 8) == 0) {
            const char *name, *extra;
            size_t nn = proper__vlmc_token(&p, end, &name), k;
            uint32_t id;
            proper_error e;
            if (nn == 0) {
                rc = proper_error_set(err, PROPER_EPARSE, file, (int)line, (int)(name - ls) + 1, "expected a location name");
                break;
            }
            if (proper__vlmc_token(&p, end, &extra)) {
                rc = proper_error_set(err, PROPER_EPARSE, file, (int)line, (int)(extra - ls) + 1,
                                      "unexpected text after the location name");
                break;
            }
            if ((rc = proper_vlmc_counts_location(c, name, nn, &id, &e))) {
                rc = proper_error_set(err, rc, file, (int)line, (int)(name - ls) + 1, "%s", e.message);
                break;
            }
            for (k = 0; k < n_map; k++)
                if (map[k] == id) break;
            if (k < n_map) {
                rc = proper_error_set(err, PROPER_EPARSE, file, (int)line, (int)(name - ls) + 1,
                                      "location '%.*s' declared twice", (int)nn, name);
                break;
            }
            if (PROPER_PUSH(map, n_map, map_cap, id)) { rc = proper__vlmc_oom(err); break; }
        } else if (n == 3 && memcmp(tok, "run", 3) == 0) {
            uint64_t mult, v;
            size_t k = 0;
            n = proper__vlmc_token(&p, end, &tok);
            if (n == 0 || proper__vlmc_parse_u64(tok, n, &mult) || mult == 0) {
                rc = proper_error_set(err, PROPER_EPARSE, file, (int)line, (int)(tok - ls) + 1,
                                      "expected a multiplicity >= 1 after 'run'");
                break;
            }
            while ((n = proper__vlmc_token(&p, end, &tok)) != 0) {
                if (proper__vlmc_parse_u64(tok, n, &v) || v >= n_map) {
                    rc = proper_error_set(err, PROPER_EPARSE, file, (int)line, (int)(tok - ls) + 1,
                                          "'%.*s' at position %lu is not the id of a declared location",
                                          (int)(n > 40 ? 40 : n), tok, (unsigned long)(k + 1));
                    break;
                }
                if (proper_reserve(&c->tok, &c->tok_cap, k + 1, sizeof *c->tok)) { rc = proper__vlmc_oom(err); break; }
                c->tok[k++] = map[v];
            }
            if (rc) break;
            ordinal++;
            if (k == 0) {
                rc = proper_error_set(err, PROPER_EPARSE, file, (int)line, (int)(p - ls) + 1,
                                      "run %llu is empty (a run visits at least one location)", (unsigned long long)ordinal);
                break;
            }
            if ((rc = proper__vlmc_add_run(c, c->tok, k, mult, f, line, ordinal, NULL, err))) {
                if (err) { err->line = (int)line; err->col = 1; }
                break;
            }
        } else {
            rc = proper_error_set(err, PROPER_EPARSE, file, (int)line, (int)(tok - ls) + 1,
                                  "expected 'location' or 'run', found '%.*s'", (int)(n > 40 ? 40 : n), tok);
        }
    }
    if (rc == PROPER_OK && line == 0)
        rc = proper_error_set(err, PROPER_EPARSE, file, 1, 1, "expected the header 'proper-vlmc-counts 1'");
    PROPER_FREE(map);
    return rc;
}

PROPER_API int proper_vlmc_counts_add_trace(proper_vlmc_counts *c, const proper_trace *t, const char *file,
                                            proper_error *err) {
    uint32_t *map, f;
    size_t i;
    int rc = PROPER_OK;
    if (proper__vlmc_file_index(c, file, &f)) return proper__vlmc_oom(err);
    map = (uint32_t *)proper_calloc(t->locations.n + 1, sizeof *map);
    if (!map) return proper__vlmc_oom(err);
    for (i = 0; i < t->locations.n && rc == PROPER_OK; i++) {
        const char *nm = t->locations.names[i];
        if ((rc = proper_vlmc_counts_location(c, nm, strlen(nm), &map[i], err)))
            proper__vlmc_locate(err, rc, file, 0);
    }
    for (i = 0; i < t->nrecords && rc == PROPER_OK; i++) {
        const proper_trace_record *r = &t->records[i];
        size_t k;
        if (r->nvisits == 0) {
            rc = proper_error_set(err, PROPER_EPARSE, file, r->line, 1,
                                  "record %llu has no visited locations (an empty run)", (unsigned long long)r->id);
            break;
        }
        if (proper_reserve(&c->tok, &c->tok_cap, r->nvisits, sizeof *c->tok)) { rc = proper__vlmc_oom(err); break; }
        for (k = 0; k < r->nvisits; k++) c->tok[k] = map[r->visits[k]];
        if ((rc = proper__vlmc_add_run(c, c->tok, r->nvisits, 1, f, (uint64_t)r->line, i + 1, NULL, err)))
            proper__vlmc_locate(err, rc, file, (uint64_t)r->line);
    }
    PROPER_FREE(map);
    return rc;
}

/* Streams a runs file through a buffer, one line at a time; a line longer
 * than the buffer doubles it. */
static int proper__vlmc_stream_runs(proper_vlmc_counts *c, FILE *fp, const char *path, char **bufp, size_t *capp,
                                    size_t have, proper_error *err) {
    uint64_t line = 0, ordinal = 0;
    uint32_t f;
    size_t pos = 0;
    int eof = 0, rc;
    if (proper__vlmc_file_index(c, path, &f)) return proper__vlmc_oom(err);
    for (;;) {
        char *buf = *bufp;
        const char *nl = (const char *)memchr(buf + pos, '\n', have - pos);
        if (nl) {
            size_t end = (size_t)(nl - buf);
            line++;
            if ((rc = proper__vlmc_runs_line(c, buf + pos, end - pos, f, path, line, &ordinal, err))) return rc;
            pos = end + 1;
            continue;
        }
        if (eof) {
            if (pos < have) {
                line++;
                if ((rc = proper__vlmc_runs_line(c, buf + pos, have - pos, f, path, line, &ordinal, err))) return rc;
            }
            return PROPER_OK;
        }
        memmove(buf, buf + pos, have - pos);
        have -= pos;
        pos = 0;
        if (have == *capp) {
            char *bigger = *capp > ((size_t)-1) / 2 ? NULL : (char *)PROPER_REALLOC(buf, *capp * 2);
            if (!bigger) return proper__vlmc_oom(err);
            *bufp = buf = bigger;
            *capp *= 2;
        }
        {
            size_t got = fread(buf + have, 1, *capp - have, fp);
            if (got == 0) {
                if (ferror(fp)) return proper_error_set(err, PROPER_EIO, path, 0, 0, "read error");
                eof = 1;
            }
            have += got;
        }
    }
}

PROPER_API int proper_vlmc_counts_load(proper_vlmc_counts *c, const char *path, proper_error *err) {
    FILE *fp;
    char *buf;
    size_t cap = (size_t)1 << 20, have;
    int rc;
    fp = fopen(path, "rb");
    if (!fp) return proper_error_set(err, PROPER_EIO, path, 0, 0, "cannot open file");
    buf = (char *)PROPER_MALLOC(cap);
    if (!buf) { fclose(fp); return proper__vlmc_oom(err); }
    have = fread(buf, 1, cap, fp);
    if (ferror(fp)) {
        PROPER_FREE(buf);
        fclose(fp);
        return proper_error_set(err, PROPER_EIO, path, 0, 0, "read error");
    }
    if (proper__vlmc_header_is(buf, have, "proper-trace") || proper__vlmc_header_is(buf, have, "proper-vlmc-counts")) {
        /* whole-file formats */
        int is_trace = proper__vlmc_header_is(buf, have, "proper-trace");
        PROPER_FREE(buf);
        fclose(fp);
        if (is_trace) {
            proper_trace t;
            proper_trace_init(&t);
            rc = proper_trace_load(&t, path, err);
            if (rc == PROPER_OK) rc = proper_vlmc_counts_add_trace(c, &t, path, err);
            proper_trace_free(&t);
        } else {
            char *text;
            size_t len;
            if ((rc = proper_read_file(path, &text, &len, err))) return rc;
            rc = proper_vlmc_counts_parse_counts(c, text, len, path, err);
            PROPER_FREE(text);
        }
        return rc;
    }
    rc = proper__vlmc_stream_runs(c, fp, path, &buf, &cap, have, err);
    PROPER_FREE(buf);
    fclose(fp);
    return rc;
}

PROPER_API int proper_vlmc_counts_merge(proper_vlmc_counts *dst, const proper_vlmc_counts *src, proper_error *err) {
    uint32_t *map, *fmap, *ids = NULL;
    size_t i, ids_cap = 0;
    int rc = PROPER_OK;
    map = (uint32_t *)proper_calloc(src->n_names + 1, sizeof *map);
    fmap = (uint32_t *)proper_calloc(src->n_files + 1, sizeof *fmap);
    if (!map || !fmap) { PROPER_FREE(map); PROPER_FREE(fmap); return proper__vlmc_oom(err); }
    for (i = 0; i < src->n_names && rc == PROPER_OK; i++)
        rc = proper_vlmc_counts_location(dst, src->names[i], strlen(src->names[i]), &map[i], err);
    for (i = 0; i < src->n_files && rc == PROPER_OK; i++)
        if (proper__vlmc_file_index(dst, src->files[i], &fmap[i])) rc = proper__vlmc_oom(err);
    for (i = 0; i < src->n_runs && rc == PROPER_OK; i++) {
        const proper_vlmc_run *r = &src->runs[i];
        uint32_t k;
        if (proper_reserve(&ids, &ids_cap, r->len, sizeof *ids)) { rc = proper__vlmc_oom(err); break; }
        for (k = 0; k < r->len; k++) ids[k] = map[src->sym[r->start + k]];
        rc = proper__vlmc_add_run(dst, ids, r->len, r->mult, fmap[r->file], r->line, r->ordinal, NULL, err);
    }
    PROPER_FREE(ids);
    PROPER_FREE(map);
    PROPER_FREE(fmap);
    return rc;
}

/* Canonical order: location ranks by name, runs lexicographically by ranks. */
typedef struct proper__vlmc_run_order {
    const proper_vlmc_counts *c;
    const uint32_t *rank;
} proper__vlmc_run_order;

static int proper__vlmc_run_cmp(const void *ctx, uint32_t a, uint32_t b) {
    const proper__vlmc_run_order *o = (const proper__vlmc_run_order *)ctx;
    const proper_vlmc_run *ra = &o->c->runs[a], *rb = &o->c->runs[b];
    const uint32_t *sa = o->c->sym + ra->start, *sb = o->c->sym + rb->start;
    uint32_t n = ra->len < rb->len ? ra->len : rb->len, i;
    for (i = 0; i < n; i++)
        if (o->rank[sa[i]] != o->rank[sb[i]]) return o->rank[sa[i]] < o->rank[sb[i]] ? -1 : 1;
    return ra->len == rb->len ? 0 : (ra->len < rb->len ? -1 : 1);
}

/* ids[k] = the location of rank k; rank[id] = its rank. */
static int proper__vlmc_canonical(const proper_vlmc_counts *c, uint32_t **ids_out, uint32_t **rank_out) {
    uint32_t *ids = (uint32_t *)proper_calloc(c->n_names + 1, sizeof *ids);
    uint32_t *rank = (uint32_t *)proper_calloc(c->n_names + 1, sizeof *rank);
    size_t i;
    if (!ids || !rank) goto fail;
    for (i = 0; i < c->n_names; i++) ids[i] = (uint32_t)i;
    if (proper__vlmc_sort_idx(ids, c->n_names, proper__vlmc_name_idx_cmp, c->names)) goto fail;
    for (i = 0; i < c->n_names; i++) rank[ids[i]] = (uint32_t)i;
    *ids_out = ids;
    *rank_out = rank;
    return PROPER_OK;
fail:
    PROPER_FREE(ids);
    PROPER_FREE(rank);
    return PROPER_ENOMEM;
}

PROPER_API int proper_vlmc_counts_write(const proper_vlmc_counts *c, FILE *f, proper_error *err) {
    uint32_t *ids, *rank, *order;
    proper__vlmc_run_order ro;
    size_t i;
    int bad = 0;
    if (proper__vlmc_canonical(c, &ids, &rank)) return proper__vlmc_oom(err);
    order = (uint32_t *)proper_calloc(c->n_runs + 1, sizeof *order);
    if (!order) { PROPER_FREE(ids); PROPER_FREE(rank); return proper__vlmc_oom(err); }
    for (i = 0; i < c->n_runs; i++) order[i] = (uint32_t)i;
    ro.c = c;
    ro.rank = rank;
    if (proper__vlmc_sort_idx(order, c->n_runs, proper__vlmc_run_cmp, &ro)) {
        PROPER_FREE(ids); PROPER_FREE(rank); PROPER_FREE(order);
        return proper__vlmc_oom(err);
    }
    bad |= fprintf(f, "proper-vlmc-counts 1\n# %llu runs, %llu distinct, %llu locations visited in all\n",
                   (unsigned long long)c->total_runs, (unsigned long long)c->n_runs,
                   (unsigned long long)c->total_steps) < 0;
    for (i = 0; i < c->n_names; i++) bad |= fprintf(f, "location %s\n", c->names[ids[i]]) < 0;
    for (i = 0; i < c->n_runs && !bad; i++) {
        const proper_vlmc_run *r = &c->runs[order[i]];
        uint32_t k;
        bad |= fprintf(f, "run %llu", (unsigned long long)r->mult) < 0;
        for (k = 0; k < r->len; k++) bad |= fprintf(f, " %lu", (unsigned long)rank[c->sym[r->start + k]]) < 0;
        bad |= fputc('\n', f) == EOF;
    }
    PROPER_FREE(ids);
    PROPER_FREE(rank);
    PROPER_FREE(order);
    if (bad || ferror(f)) return proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write error");
    return PROPER_OK;
}

PROPER_API int proper_vlmc_counts_save(const proper_vlmc_counts *c, const char *path, proper_error *err) {
    FILE *f = fopen(path, "wb");
    int rc;
    if (!f) return proper_error_set(err, PROPER_EIO, path, 0, 0, "cannot open for writing");
    rc = proper_vlmc_counts_write(c, f, err);
    if (fclose(f) != 0 && rc == PROPER_OK) rc = proper_error_set(err, PROPER_EIO, path, 0, 0, "write error");
    if (rc) proper__vlmc_locate(err, rc, path, 0);
    return rc;
}

PROPER_API int proper_vlmc_counts_steps(const proper_vlmc_counts *c, double **pmf, size_t *len, proper_error *err) {
    size_t i, n = 0;
    double *p;
    *pmf = NULL;
    *len = 0;
    if (c->total_runs == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no runs");
    for (i = 0; i < c->n_runs; i++)
        if (c->runs[i].len + (size_t)1 > n) n = c->runs[i].len + (size_t)1;
    p = (double *)proper_calloc(n, sizeof *p);
    if (!p) return proper__vlmc_oom(err);
    for (i = 0; i < c->n_runs; i++) p[c->runs[i].len] += (double)c->runs[i].mult;
    for (i = 0; i < n; i++) p[i] /= (double)c->total_runs;
    *pmf = p;
    *len = n;
    return PROPER_OK;
}

/* ---- CFG ---- */

PROPER_API void proper_vlmc_cfg_init(proper_vlmc_cfg *g) { memset(g, 0, sizeof *g); }

PROPER_API void proper_vlmc_cfg_free(proper_vlmc_cfg *g) {
    size_t i;
    for (i = 0; i < g->n_edges; i++) {
        PROPER_FREE(g->edges[i].from);
        PROPER_FREE(g->edges[i].to);
    }
    PROPER_FREE(g->edges);
    proper_vlmc_cfg_init(g);
}

static int proper__vlmc_cfg_push(proper_vlmc_cfg *g, const char *from, size_t nf, const char *to, size_t nt, int line,
                                 int cf, int ct, proper_error *err) {
    proper_vlmc_cfg_edge *e;
    if (proper_reserve(&g->edges, &g->cap, g->n_edges + 1, sizeof *g->edges)) return proper__vlmc_oom(err);
    e = &g->edges[g->n_edges];
    e->from = proper__vlmc_strndup(from, nf);
    e->to = proper__vlmc_strndup(to, nt);
    if (!e->from || !e->to) {
        PROPER_FREE(e->from);
        PROPER_FREE(e->to);
        return proper__vlmc_oom(err);
    }
    e->line = line;
    e->col_from = cf;
    e->col_to = ct;
    g->n_edges++;
    return PROPER_OK;
}

/* Checks one CFG endpoint name; `as_source` tells which reserved name fits. */
static int proper__vlmc_cfg_name_ok(const char *s, size_t n, int as_source, const char **why) {
    if (n == 1 && s[0] == '^') {
        if (!as_source) { *why = "'^' (run start) can only be the source of an edge"; return 0; }
        return 1;
    }
    if (n == 1 && s[0] == '$') {
        if (as_source) { *why = "'$' (run end) can only be the target of an edge"; return 0; }
        return 1;
    }
    return !proper__vlmc_check_name(s, n, why);
}

PROPER_API int proper_vlmc_cfg_add_edge(proper_vlmc_cfg *g, const char *from, const char *to, proper_error *err) {
    const char *why;
    if (!proper__vlmc_cfg_name_ok(from, strlen(from), 1, &why) || !proper__vlmc_cfg_name_ok(to, strlen(to), 0, &why))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s", why);
    return proper__vlmc_cfg_push(g, from, strlen(from), to, strlen(to), 0, 0, 0, err);
}

PROPER_API int proper_vlmc_cfg_parse(proper_vlmc_cfg *g, const char *text, size_t len, const char *file,
                                     proper_error *err) {
    size_t pos = 0;
    int line = 0, rc;
    if (file) {
        size_t n = strlen(file);
        if (n >= sizeof g->file) n = sizeof g->file - 1;
        memcpy(g->file, file, n);
        g->file[n] = '\0';
    }
    while (pos < len) {
        const char *nl = (const char *)memchr(text + pos, '\n', len - pos);
        const char *ls = text + pos, *p = ls, *end = nl ? nl : text + len, *from, *to;
        size_t nf, nt, targets = 0;
        const char *why;
        line++;
        pos = (size_t)(end - text) + 1;
        nf = proper__vlmc_token(&p, end, &from);
        if (nf == 0 || from[0] == '#') continue;
        if (!proper__vlmc_cfg_name_ok(from, nf, 1, &why))
            return proper_error_set(err, PROPER_EPARSE, file, line, (int)(from - ls) + 1, "%s", why);
        while ((nt = proper__vlmc_token(&p, end, &to)) != 0) {
            if (to[0] == '#') break;
            if (!proper__vlmc_cfg_name_ok(to, nt, 0, &why))
                return proper_error_set(err, PROPER_EPARSE, file, line, (int)(to - ls) + 1, "%s", why);
            if ((rc = proper__vlmc_cfg_push(g, from, nf, to, nt, line, (int)(from - ls) + 1, (int)(to - ls) + 1, err)))
                return rc;
            targets++;
        }
        if (!targets)
            return proper_error_set(err, PROPER_EPARSE, file, line, (int)(p - ls) + 1,
                                    "an edge needs a target: 'FROM TO [TO ...]'");
    }
    return PROPER_OK;
}

PROPER_API int proper_vlmc_cfg_load(proper_vlmc_cfg *g, const char *path, proper_error *err) {
    char *text;
    size_t len;
    int rc;
    if ((rc = proper_read_file(path, &text, &len, err))) return rc;
    rc = proper_vlmc_cfg_parse(g, text, len, path, err);
    PROPER_FREE(text);
    return rc;
}

/* ---- context index ---- */

/* Prefix doubling (Manber & Myers 1993) over suffixes that end at their
 * run's ^ (left[p] = symbols from p to that ^, inclusive). Ranks are the
 * index of the first suffix of their group, so the radix pass by rank needs
 * no counting: group g fills sa[g ..]. Each round is O(n); rounds double h
 * until every group is one suffix or h covers the longest run. Suffixes
 * that are equal up to their ^ (equal histories of different runs) stay
 * tied, in arbitrary order. */
static int proper__vlmc_suffix_sort(const uint32_t *text, const uint32_t *left, uint32_t n, uint32_t sigma,
                                    uint32_t max_len, uint32_t *sa) {
    uint32_t *rank = NULL, *rank2 = NULL, *tmp = NULL, *fill = NULL;
    uint32_t i, groups, h;
    size_t cnt_n = (size_t)(sigma > n ? sigma : n) + 1;
    rank = (uint32_t *)proper_calloc(n, sizeof *rank);
    rank2 = (uint32_t *)proper_calloc(n, sizeof *rank2);
    tmp = (uint32_t *)proper_calloc(n, sizeof *tmp);
    fill = (uint32_t *)proper_calloc(cnt_n, sizeof *fill);
    if (!rank || !rank2 || !tmp || !fill) {
        PROPER_FREE(rank); PROPER_FREE(rank2); PROPER_FREE(tmp); PROPER_FREE(fill);
        return PROPER_ENOMEM;
    }
    /* round 0: counting sort by the first symbol */
    for (i = 0; i < n; i++) fill[text[i] + 1]++;
    for (i = 1; i <= sigma; i++) fill[i] += fill[i - 1];
    for (i = 0; i < n; i++) sa[fill[text[i]]++] = i;
    groups = 0;
    for (i = 0; i < n; i++) {
        if (i == 0 || text[sa[i]] != text[sa[i - 1]]) { rank[sa[i]] = i; groups++; }
        else rank[sa[i]] = rank[sa[i - 1]];
    }
    for (h = 1; h < max_len && groups < n; h *= 2) {
        uint32_t k = 0;
        /* order by the second key rank[p + h]; suffixes ending within h first */
        for (i = 0; i < n; i++)
            if (left[i] <= h) tmp[k++] = i;
        for (i = 0; i < n; i++) {
            uint32_t q = sa[i];
            if (q >= h && left[q - h] > h) tmp[k++] = q - h;
        }
        /* stable placement by the first key */
        for (i = 0; i < n; i++) fill[i] = i;
        for (i = 0; i < n; i++) {
            uint32_t p = tmp[i];
            sa[fill[rank[p]]++] = p;
        }
        groups = 0;
        for (i = 0; i < n; i++) {
            uint32_t b = sa[i];
            if (i > 0) {
                uint32_t a = sa[i - 1];
                uint32_t ka = left[a] > h ? rank[a + h] + 1 : 0, kb = left[b] > h ? rank[b + h] + 1 : 0;
                if (rank[a] == rank[b] && ka == kb) { rank2[b] = rank2[a]; continue; }
            }
            rank2[b] = i;
            groups++;
        }
        { uint32_t *t = rank; rank = rank2; rank2 = t; }
    }
    PROPER_FREE(rank); PROPER_FREE(rank2); PROPER_FREE(tmp); PROPER_FREE(fill);
    return PROPER_OK;
}

PROPER_API void proper_vlmc_index_free(proper_vlmc_index *ix) {
    PROPER_FREE(ix->text);
    PROPER_FREE(ix->sa);
    PROPER_FREE(ix->wsum);
    PROPER_FREE(ix->block);
    PROPER_FREE(ix->succ_off);
    PROPER_FREE(ix->succ);
    PROPER_FREE(ix->csum_off);
    PROPER_FREE(ix->csum);
    PROPER_FREE(ix->marginal);
    PROPER_FREE(ix->canon);
    PROPER_FREE(ix->ids);
    memset(ix, 0, sizeof *ix);
}

PROPER_API size_t proper_vlmc_index_memory(const proper_vlmc_index *ix) {
    size_t L = ix->n_loc, csum = 0, h;
    if (!ix->text) return 0;
    for (h = 0; h <= L; h++) {
        size_t k = ix->succ_off[h + 1] - ix->succ_off[h], b = ix->block[h + 1] - ix->block[h];
        if (k >= 2) csum += (k - 1) * (b + 1);
    }
    return (size_t)ix->n * 8 + ((size_t)ix->n + 1) * 8 + (L + 2) * 12 + ix->succ_off[L + 1] * 4 + (L + 1) * 24 +
           (L + 1) * 8 + csum * 8;
}

/* The predicted symbol after position p: the previous text symbol of its
 * reversed run, or $ at the first position of a reversed run. */
static uint32_t proper__vlmc_next_sym(const proper_vlmc_index *ix, uint32_t p) {
    return (p == 0 || ix->text[p - 1] == 0) ? ix->n_loc : ix->text[p - 1] - 1;
}

static int proper__vlmc_u32_cmp(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

PROPER_API int proper_vlmc_index_build(proper_vlmc_index *ix, const proper_vlmc_counts *c, proper_error *err) {
    uint32_t L, n, pos, i, h;
    uint64_t n64, total_csum = 0;
    uint32_t *left = NULL, *stamp = NULL, *slot = NULL;
    uint64_t *wpos = NULL;
    size_t r;
    memset(ix, 0, sizeof *ix);
    if (c->n_runs == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no runs to index");
    n64 = c->n_sym + c->n_runs;
    if (n64 >= 0xFFFFFFF0u || c->n_names >= 0x7FFFFFF0u)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                "%llu positions: the index holds at most 2^32 - 16 (distinct runs' locations plus one per run)",
                                (unsigned long long)n64);
    L = (uint32_t)c->n_names;
    n = (uint32_t)n64;
    ix->n_loc = L;
    ix->n = n;
    if (proper__vlmc_canonical(c, &ix->ids, &ix->canon)) goto oom;
    ix->text = (uint32_t *)proper_calloc(n, sizeof *ix->text);
    ix->sa = (uint32_t *)proper_calloc(n, sizeof *ix->sa);
    left = (uint32_t *)proper_calloc(n, sizeof *left);
    wpos = (uint64_t *)proper_calloc(n, sizeof *wpos);
    if (!ix->text || !ix->sa || !left || !wpos) goto oom;
    pos = 0;
    for (r = 0; r < c->n_runs; r++) {
        const proper_vlmc_run *run = &c->runs[r];
        uint32_t m = run->len, o;
        for (o = 0; o < m; o++) {
            ix->text[pos + o] = 1 + ix->canon[c->sym[run->start + m - 1 - o]];
            left[pos + o] = m + 1 - o;
            wpos[pos + o] = run->mult;
        }
        ix->text[pos + m] = 0;
        left[pos + m] = 1;
        wpos[pos + m] = run->mult;
        if (m + 1 > ix->max_len) ix->max_len = m + 1;
        pos += m + 1;
    }
    if (proper__vlmc_suffix_sort(ix->text, left, n, L + 1, ix->max_len, ix->sa)) goto oom;
    PROPER_FREE(left);
    left = NULL;
    /* weights and blocks */
    ix->wsum = (uint64_t *)proper_calloc((size_t)n + 1, sizeof *ix->wsum);
    ix->block = (uint32_t *)proper_calloc((size_t)L + 2, sizeof *ix->block);
    ix->succ_off = (uint32_t *)proper_calloc((size_t)L + 2, sizeof *ix->succ_off);
    ix->csum_off = (uint64_t *)proper_calloc((size_t)L + 1, sizeof *ix->csum_off);
    ix->marginal = (uint64_t *)proper_calloc((size_t)L + 1, sizeof *ix->marginal);
    stamp = (uint32_t *)proper_calloc((size_t)L + 1, sizeof *stamp);
    slot = (uint32_t *)proper_calloc((size_t)L + 1, sizeof *slot);
    if (!ix->wsum || !ix->block || !ix->succ_off || !ix->csum_off || !ix->marginal || !stamp || !slot) goto oom;
    for (i = 0; i < n; i++) {
        ix->wsum[i + 1] = ix->wsum[i] + wpos[ix->sa[i]];
        ix->block[ix->text[ix->sa[i]] + 1] = i + 1;
    }
    for (h = 1; h <= L + 1; h++)
        if (ix->block[h] < ix->block[h - 1]) ix->block[h] = ix->block[h - 1];
    /* observed successors per history symbol */
    {
        uint32_t *succ = NULL;
        size_t ns = 0, cap = 0;
        for (h = 0; h <= L; h++) {
            uint32_t first = (uint32_t)ns;
            ix->succ_off[h] = first;
            for (i = ix->block[h]; i < ix->block[h + 1]; i++) {
                uint32_t x = proper__vlmc_next_sym(ix, ix->sa[i]);
                if (stamp[x] != h + 1) {
                    stamp[x] = h + 1;
                    if (PROPER_PUSH(succ, ns, cap, x)) { PROPER_FREE(succ); goto oom; }
                }
            }
            qsort(succ + first, ns - first, sizeof *succ, proper__vlmc_u32_cmp);
            if (ns - first >= 2) {
                ix->csum_off[h] = total_csum;
                total_csum += (uint64_t)(ns - first - 1) * (ix->block[h + 1] - ix->block[h] + 1);
            }
        }
        ix->succ_off[L + 1] = (uint32_t)ns;
        ix->succ = succ ? succ : (uint32_t *)proper_calloc(1, sizeof *succ);
        if (!ix->succ) goto oom;
    }
    if (total_csum > ((size_t)-1) / 8) goto oom;
    ix->csum = (uint64_t *)proper_calloc((size_t)total_csum + 1, sizeof *ix->csum);
    if (!ix->csum) goto oom;
    for (h = 0; h <= L; h++) {
        uint32_t k = ix->succ_off[h + 1] - ix->succ_off[h], b0 = ix->block[h], nb = ix->block[h + 1] - b0, j;
        uint64_t *base = ix->csum + ix->csum_off[h];
        for (j = 0; j < k; j++) slot[ix->succ[ix->succ_off[h] + j]] = j;
        for (i = 0; i < nb; i++) {
            uint32_t p = ix->sa[b0 + i], x = proper__vlmc_next_sym(ix, p);
            uint64_t w = wpos[p];
            ix->marginal[x] += w;
            if (k >= 2) {
                for (j = 0; j + 1 < k; j++) base[(size_t)j * (nb + 1) + i + 1] = base[(size_t)j * (nb + 1) + i];
                if (slot[x] + 1 < k) base[(size_t)slot[x] * (nb + 1) + i + 1] += w;
            }
        }
    }
    PROPER_FREE(wpos);
    PROPER_FREE(stamp);
    PROPER_FREE(slot);
    return PROPER_OK;
oom:
    PROPER_FREE(left);
    PROPER_FREE(wpos);
    PROPER_FREE(stamp);
    PROPER_FREE(slot);
    proper_vlmc_index_free(ix);
    return proper__vlmc_oom(err);
}

/* Counts of the k observed successors of history symbol h over the SA
 * interval [lo, hi) inside h's block; returns N. */
static uint64_t proper__vlmc_counts_at(const proper_vlmc_index *ix, uint32_t h, uint32_t lo, uint32_t hi, uint64_t *out) {
    uint32_t k = ix->succ_off[h + 1] - ix->succ_off[h], b0 = ix->block[h], nb = ix->block[h + 1] - b0, j;
    uint64_t total = ix->wsum[hi] - ix->wsum[lo], rest = total;
    if (k >= 2) {
        const uint64_t *base = ix->csum + ix->csum_off[h];
        for (j = 0; j + 1 < k; j++) {
            const uint64_t *cs = base + (size_t)j * (nb + 1);
            out[j] = cs[hi - b0] - cs[lo - b0];
            rest -= out[j];
        }
    }
    if (k >= 1) out[k - 1] = rest;
    return total;
}

/* First index in [lo, hi) whose suffix has a symbol > s (upper) or >= s
 * (lower) at offset d; every suffix in range has length > d. */
static uint32_t proper__vlmc_bound(const proper_vlmc_index *ix, uint32_t lo, uint32_t hi, uint32_t d, uint32_t s,
                                   int upper) {
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2, v = ix->text[ix->sa[mid] + d];
        if (upper ? v <= s : v < s) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

PROPER_API int proper_vlmc_index_count(const proper_vlmc_index *ix, const uint32_t *ctx, size_t len, int anchored,
                                       uint64_t *n, uint64_t *next, proper_error *err) {
    uint32_t lo = 0, hi = ix->n, d, h;
    size_t i;
    for (i = 0; i < len; i++)
        if (ctx[i] >= ix->n_loc)
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "location id %lu is not below %lu",
                                    (unsigned long)ctx[i], (unsigned long)ix->n_loc);
    if (next) memset(next, 0, ((size_t)ix->n_loc + 1) * sizeof *next);
    if (len == 0 && !anchored) {
        *n = ix->wsum[ix->n];
        if (next)
            for (i = 0; i <= ix->n_loc; i++) next[i < ix->n_loc ? ix->ids[i] : ix->n_loc] = ix->marginal[i];
        return PROPER_OK;
    }
    /* narrow symbol by symbol, newest first */
    for (d = 0; d <= len; d++) {
        uint32_t s;
        if (d == len) {
            if (!anchored) break;
            s = 0;
        } else {
            s = 1 + ix->canon[ctx[len - 1 - d]];
        }
        if (d == 0) {
            lo = ix->block[s];
            hi = ix->block[s + 1];
        } else {
            uint32_t a = proper__vlmc_bound(ix, lo, hi, d, s, 0);
            hi = proper__vlmc_bound(ix, a, hi, d, s, 1);
            lo = a;
        }
        if (lo >= hi) { *n = 0; return PROPER_OK; }
    }
    h = len ? 1 + ix->canon[ctx[len - 1]] : 0;
    {
        uint32_t k = ix->succ_off[h + 1] - ix->succ_off[h], j;
        uint64_t tmp[64], *buf = k <= 64 ? tmp : (uint64_t *)proper_calloc(k, sizeof *buf);
        if (!buf) return proper__vlmc_oom(err);
        *n = proper__vlmc_counts_at(ix, h, lo, hi, buf);
        if (next)
            for (j = 0; j < k; j++) {
                uint32_t x = ix->succ[ix->succ_off[h] + j];
                next[x < ix->n_loc ? ix->ids[x] : ix->n_loc] = buf[j];
            }
        if (buf != tmp) PROPER_FREE(buf);
    }
    return PROPER_OK;
}

#endif /* PROPER_VLMC_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
