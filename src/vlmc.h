/* vlmc.h — variable-length Markov chains of programs learned from location
 * traces (ProgramToVLMC), their Markov hull as a dtmc.h model, and the
 * distribution of the number of steps until a run ends.
 *
 * Method: Napolitano, "Automated Learning of Quantitative Software Models
 * from System Traces", PhD thesis, IMT Lucca 2022, ch. 3.4 and 5; Incerto,
 * Napolitano & Tribastone, "Statistical Learning of Markov Chains of
 * Programs", MASCOTS 2020: Algorithms 1 and 2 of the thesis's §5.1.3, with
 * the choices below stated where the thesis leaves room. With its traces
 * (one location per condition of the unrolled program, see
 * examples/vlmc/unrolled.h) and --cutoff-df alphabet, the trees have the
 * thesis's node counts and orders where its numbers pin the locations
 * down: Double Loop, Nested Loop and Insertion Sort (tests/test_vlmc.c
 * checks the two loops), and Bubble Sort's orders; for the other programs
 * the locations are a reading, and docs/vlmc-results.md lists the
 * differences that remain.
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
 * V lines) and from counts files (below). proper_vlmc_counts_read detects
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
 * repeated as nodes become leaves: a leaf u = a·w is removed when
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
 * Single-sequence mode (opts.single): R's VLMC package (Mächler & Bühlmann,
 * `vlmc()`, version 1.4-4) on one sequence: the input must be exactly one
 * run, read as a plain sequence, with no run anchoring and no end: contexts
 * never contain ^ (a context that would reach before the first symbol does
 * not occur there), and the last symbol predicts nothing ($ is not a
 * symbol). Otherwise as general mode over the L symbols, with R's cutoff
 * K = χ²_{L−1}(1 − α)/2 (R: cutoff.prune = qchisq(alpha.c, L − 1,
 * lower.tail = FALSE)/2, so α here is R's alpha.c) and n_min = R's
 * threshold.gen (R's defaults: alpha.c = 0.05, threshold.gen = 2). The tree
 * then equals R's: same contexts, same counts (R's root count is one lower
 * after fitting: it drops the first symbol, which has no context). Runs
 * fitted in general mode are R's input with an end symbol appended to each
 * run and never crossed: one more symbol, so the same α gives R's cutoff
 * with L instead of L − 1 degrees of freedom; opts.cutoff sets K for both.
 * Single-sequence models have no end: no hull, steps or sampling.
 *
 * Cutoff choices: opts.cutoff >= 0 gives K directly for every location
 * (R's cutoff.prune; α is then not used); opts.cutoff_df =
 * PROPER_VLMC_DF_ALPHABET uses K = χ²_{L−1}(1 − α)/2 with L the number of
 * locations for every location in CFG mode, the cutoff as the thesis's
 * §5.1.3 writes it (χ²_{|L|−1;1−α}/2), instead of each location's own
 * k_l − 1 degrees of freedom (PROPER_VLMC_DF_CFG, the default).
 *
 * Counts come from the context index (below), built once per fit; the tree
 * is grown depth first and each node's leaf children are tested when the
 * node is finished, which prunes exactly as repeated bottom-up passes would
 * (a leaf's test depends only on itself and its parent) while keeping memory
 * near the size of the final tree. In a fitted model locations are numbered
 * in the canonical order of their names (m->names).
 *
 * Reported: nodes (CFG mode: the contexts, i.e. all nodes but the empty
 * root; general mode: all nodes including it), order (the longest context,
 * ^ counted as a symbol), log-likelihood (natural log of the probability
 * the VLMC gives the training runs, each prediction made by the longest
 * context in the tree that matches the history).
 *
 * ==== Markov hull and steps to termination ===============================
 * proper_vlmc_hull closes the contexts under "drop the newest symbol": its
 * states are the prefixes (oldest part) of the PST's contexts, each
 * predicting with its longest suffix that is a PST context (the Markov hull
 * of Ron, Singer & Tishby 1996; Magarick). After emitting x from state u the
 * state is the longest such prefix that is a suffix of u x — a function of u
 * and x, so the states form a first-order chain, with one more absorbing
 * state for $. It is built as an Aho–Corasick automaton over the contexts
 * (failure links give "longest suffix that is a state"), keeping only the
 * states reachable from ^. proper_vlmc_to_dtmc turns it
 * into a proper_dtmc (label "end", reward "steps" = 1 per location visited,
 * valuations loc and depth), so every dtmc.h solver and exporter applies.
 * proper_vlmc_steps_pmf computes P(a run visits exactly m locations) by
 * forward iteration until the mass not yet absorbed is below eps.
 *
 * Sizes: positions (all locations of distinct runs plus one ^ per distinct
 * run) must stay below 2^32 - 1; so must the number of tree nodes.
 *
 * ==== Objects and outputs ================================================
 * Every type has _init (empty, allocates nothing) and _free. Counts and
 * CFGs are accumulators: proper_vlmc_counts_add_*, _parse_runs,
 * _parse_counts, _read and _merge, and proper_vlmc_cfg_add_edge, _parse and
 * _read add to what the object holds (several files are one data set); on
 * failure the object keeps what was added before the error and the caller
 * discards it. proper_vlmc_index_build, proper_vlmc_fit and
 * proper_vlmc_to_dtmc follow the output rule: the output is initialised or
 * holds an earlier result, which is replaced on success; on failure it is
 * left unchanged.
 *
 * ==== Configuration (define before including to override) ================
 *   PROPER_VLMC_NAME_MAX    longest location name, in bytes (255)
 *   PROPER_VLMC_STEPS_EPS   default stopping mass of proper_vlmc_steps_pmf (1e-12)
 *   PROPER_VLMC_MAX_STEPS   default cap on the steps iteration and on the
 *                           length of a sampled run (10^8)
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
#ifndef PROPER_VLMC_NAME_MAX
#define PROPER_VLMC_NAME_MAX 255
#endif
/* Default stopping mass for proper_vlmc_steps_pmf: iteration stops once the
 * probability of not having ended yet is below this. */
#ifndef PROPER_VLMC_STEPS_EPS
#define PROPER_VLMC_STEPS_EPS 1e-12
#endif
/* proper_vlmc_hull refuses (PROPER_ELIMIT) a PST whose contexts have more
 * than this many symbols in all: building the hull walks every context from
 * its oldest symbol, so one run of 5 M steps fitted without --max-order (a
 * PST of order 5 M, 10 M nodes) needed ~10^13 steps; about 10^8 take a
 * second. */
#ifndef PROPER_VLMC_MAX_HULL_WORK
#define PROPER_VLMC_MAX_HULL_WORK 2000000000.0
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
    proper_intern locations; /* location names: id i is locations.names[i],
                              * ids 0.. in order of first appearance */
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
    size_t runs_cap, files_cap;
    size_t sym_cap;
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
/* Add `mult` copies of a run given as location ids (< locations.len), n >= 1.
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
/* Add the runs of the file at `path`, in any of the three formats (runs
 * text is streamed: memory grows with the distinct runs, not the file). */
PROPER_API int proper_vlmc_counts_read(proper_vlmc_counts *c, const char *path, proper_error *err);
/* dst += src (locations matched by name). */
PROPER_API int proper_vlmc_counts_merge(proper_vlmc_counts *dst, const proper_vlmc_counts *src,
                                        proper_error *err);
/* Write in the counts-file format (canonical order). */
PROPER_API int proper_vlmc_counts_write(const proper_vlmc_counts *c, FILE *f, proper_error *err);
/* Empirical distribution of the number of locations per run: pmf[m] for
 * m < *len (fresh array, free with PROPER_FREE). */
PROPER_API int proper_vlmc_counts_steps(const proper_vlmc_counts *c, double **pmf, size_t *len, proper_error *err);

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
/* proper_vlmc_cfg_parse of the file at `path`. */
PROPER_API int proper_vlmc_cfg_read(proper_vlmc_cfg *g, const char *path, proper_error *err);

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

/* The empty index; allocates nothing. */
PROPER_API void proper_vlmc_index_init(proper_vlmc_index *ix);
/* The index of the runs of c (output rule: see the manual). */
PROPER_API int proper_vlmc_index_build(proper_vlmc_index *ix, const proper_vlmc_counts *c, proper_error *err);
PROPER_API void proper_vlmc_index_free(proper_vlmc_index *ix);
/* N(w) into *n and N(w x) into next[0 .. L] (x a counts id, L =
 * locations.len for $) for the context w = ctx[0..len-1] (counts ids, oldest first),
 * preceded by ^ when `anchored`. len = 0 and anchored: the context "^";
 * len = 0 otherwise: the empty context (every position). next may be NULL. */
PROPER_API int proper_vlmc_index_count(const proper_vlmc_index *ix, const uint32_t *ctx, size_t len,
                                       int anchored, uint64_t *n, uint64_t *next, proper_error *err);

/* ---- Fitting ----------------------------------------------------------------*/

/* Degrees of freedom of the cutoff χ²_df(1 − α)/2 in CFG mode. */
enum { PROPER_VLMC_DF_CFG = 0, PROPER_VLMC_DF_ALPHABET = 1 };

typedef void (*proper_vlmc_progress_fn)(void *user, const char *phase, double fraction);

typedef struct proper_vlmc_opts {
    double alpha;        /* in (0, 1]; 1 after opts_default (thesis Figure 16) */
    uint64_t n_min;      /* >= 1; 1 after opts_default */
    int general;         /* 1: classical context algorithm (no CFG) */
    int single;          /* 1: one plain sequence, R's vlmc() (no CFG; see above) */
    double cutoff;       /* K for every location when >= 0 (R's cutoff.prune);
                          * negative (-1 after opts_default): from alpha */
    int cutoff_df;       /* PROPER_VLMC_DF_CFG (default) or PROPER_VLMC_DF_ALPHABET */
    unsigned max_order;  /* longest context; 0 = unlimited */
    int extend_cfg;      /* 1: add a run's transitions missing from the CFG */
    size_t max_nodes;    /* tree + hull node limit (PROPER_ELIMIT beyond); 0 = 2^32 - 2 */
    proper_vlmc_progress_fn progress; /* optional; called now and then */
    void *progress_user;
} proper_vlmc_opts;

/* The defaults: alpha 1, n_min 1, CFG mode, cutoff from alpha with each
 * location's own degrees of freedom, no limits, no progress. */
PROPER_API proper_vlmc_opts proper_vlmc_opts_default(void);

typedef struct proper_vlmc_node {
    uint32_t parent, child, sibling; /* PROPER_VLMC_NONE when absent */
    uint32_t sym;     /* oldest symbol of the context (history symbol); NONE at the root */
    uint32_t loc;     /* newest symbol (the current location); NONE at the root */
    uint32_t depth;   /* context length */
    uint64_t count;   /* N(w) */
    uint64_t next;    /* offset in m->next_counts of N(w x), aligned with the
                       * successor list of loc (root: all L + 1 predicted symbols) */
    double delta;     /* Δ against the parent (NAN where not tested) */
} proper_vlmc_node;

typedef struct proper_vlmc {
    size_t n_loc;         /* locations, canonical order */
    char **names;
    int general;
    int single;           /* fitted in single-sequence mode */
    double alpha;
    double cutoff_given;  /* opts.cutoff: K given directly (>= 0), else -1 */
    uint64_t n_min;
    unsigned max_order;
    uint32_t *succ_off, *succ; /* observed successors per history symbol (as in the index) */
    uint32_t *cfg_k;      /* CFG successors per history symbol (degrees of freedom + 1) */
    double *cutoff;       /* K per history symbol */
    size_t n_nodes;
    proper_vlmc_node *nodes; /* the PST in preorder; node 0 is the empty context */
    uint64_t *next_counts;
    size_t n_contexts;    /* reported node count (see above) */
    unsigned order;
    double loglik;
    uint64_t total_runs, total_steps;
    /* Markov hull chain (after proper_vlmc_hull): states in BFS order from
     * init = 0 (the context ^); the last state is $ (absorbing, self-loop).
     * The transitions of state s are col/prob/emit[row[s] .. row[s+1]-1]. */
    uint32_t n_states, end_state;
    uint64_t *row;
    uint32_t *col;
    double *prob;
    uint32_t *emit;        /* location emitted by each transition (canonical id, n_loc for $) */
    uint32_t *state_pst;   /* PST node predicting in each state (NONE for $) */
    int32_t *state_loc;    /* current location (-1 at ^ or unknown, -2 for $) */
    uint32_t *state_depth; /* length of the state's context */
} proper_vlmc;

/* The empty model; allocates nothing. */
PROPER_API void proper_vlmc_init(proper_vlmc *m);
/* Learn the PST from counts (cfg may be NULL; must be NULL in general mode;
 * opts NULL: the defaults). Output rule: see the manual. */
PROPER_API int proper_vlmc_fit(proper_vlmc *m, const proper_vlmc_counts *c, const proper_vlmc_cfg *cfg,
                               const proper_vlmc_opts *opts, proper_error *err);
PROPER_API void proper_vlmc_free(proper_vlmc *m);
/* Context of a node as text ("^ a b", oldest first; "" for the root). */
PROPER_API int proper_vlmc_context_string(const proper_vlmc *m, uint32_t node, char *buf, size_t size);
/* P̂(x | node) for a predicted symbol x (canonical id, n_loc for $). */
PROPER_API double proper_vlmc_prob(const proper_vlmc *m, uint32_t node, uint32_t x);
/* The PST as text: a header comment, then one line per node in preorder:
 * depth, count, delta, context, "next:prob(count)" pairs (tab-separated). */
PROPER_API int proper_vlmc_write_pst(const proper_vlmc *m, FILE *f, proper_error *err);
/* The PST as a Graphviz digraph. */
PROPER_API int proper_vlmc_write_dot(const proper_vlmc *m, FILE *f, proper_error *err);

/* Build the Markov hull and its chain (idempotent). max_nodes bounds the
 * automaton's size (0 = 2^32 - 2; PROPER_ELIMIT beyond). */
PROPER_API int proper_vlmc_hull(proper_vlmc *m, size_t max_nodes, proper_error *err);
/* The hull chain as a dtmc.h model (output rule: see the manual). */
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
 * runs distributed as E under V (-INFINITY likewise). kl, loglik may be NULL. */
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
    proper_intern_free(&c->locations);
    for (i = 0; i < c->n_files; i++) PROPER_FREE(c->files[i]);
    PROPER_FREE(c->files);
    PROPER_FREE(c->runs);
    PROPER_FREE(c->sym);
    PROPER_FREE(c->run_slots);
    PROPER_FREE(c->line_slots);
    PROPER_FREE(c->line_pool);
    PROPER_FREE(c->tok);
    proper_vlmc_counts_init(c);
}

/* Checks a location name; 0 when valid. */
static int proper__vlmc_check_name(const char *s, size_t n, const char **why) {
    size_t i;
    if (n == 0) { *why = "empty location name"; return 1; }
    if (n > PROPER_VLMC_NAME_MAX) { *why = "location name too long"; return 1; }
    if (n == 1 && (s[0] == '^' || s[0] == '$')) { *why = "'^' and '$' are reserved (run start and end)"; return 1; }
    for (i = 0; i < n; i++)
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n' || s[i] == '\0') {
            *why = "location name contains a blank or control character";
            return 1;
        }
    return 0;
}

PROPER_API int proper_vlmc_counts_location(proper_vlmc_counts *c, const char *name, size_t len, uint32_t *id,
                                           proper_error *err) {
    const char *why;
    size_t index;
    if (proper__vlmc_check_name(name, len, &why))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s", why);
    if (c->locations.len >= 0x7FFFFFF0u && proper_intern_find(&c->locations, name, len) == PROPER_INTERN_NONE)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "more than 2^31 - 16 locations");
    if (proper_intern_add(&c->locations, name, len, &index, NULL)) return proper__vlmc_oom(err);
    *id = (uint32_t)index;
    return PROPER_OK;
}

static int proper__vlmc_file_index(proper_vlmc_counts *c, const char *file, uint32_t *out) {
    size_t i;
    if (!file) file = "(api)";
    for (i = c->n_files; i-- > 0;)
        if (strcmp(c->files[i], file) == 0) { *out = (uint32_t)i; return PROPER_OK; }
    if (proper_reserve(&c->files, &c->files_cap, c->n_files + 1, sizeof *c->files)) return PROPER_ENOMEM;
    c->files[c->n_files] = proper_strndup(file, strlen(file));
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
        if (ids[i] >= c->locations.len)
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "location id %lu at position %lu is not below %lu",
                                    (unsigned long)ids[i], (unsigned long)(i + 1), (unsigned long)c->locations.len);
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
    proper_skip_bom(&text, &len);
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
    proper_skip_bom(&text, &len);
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

PROPER_API int proper_vlmc_counts_read(proper_vlmc_counts *c, const char *path, proper_error *err) {
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
    {
        const char *text = buf; /* a streamed file's BOM: the rule of proper_skip_bom */
        if (proper_skip_bom(&text, &have)) memmove(buf, text, have);
    }
    if (proper__vlmc_header_is(buf, have, "proper-trace") || proper__vlmc_header_is(buf, have, "proper-vlmc-counts")) {
        /* whole-file formats (their parsers skip the BOM themselves) */
        int is_trace = proper__vlmc_header_is(buf, have, "proper-trace");
        PROPER_FREE(buf);
        fclose(fp);
        if (is_trace) {
            proper_trace t;
            proper_trace_init(&t);
            rc = proper_trace_read(&t, path, err);
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
    map = (uint32_t *)proper_calloc(src->locations.len + 1, sizeof *map);
    fmap = (uint32_t *)proper_calloc(src->n_files + 1, sizeof *fmap);
    if (!map || !fmap) { PROPER_FREE(map); PROPER_FREE(fmap); return proper__vlmc_oom(err); }
    for (i = 0; i < src->locations.len && rc == PROPER_OK; i++)
        rc = proper_vlmc_counts_location(dst, src->locations.names[i], strlen(src->locations.names[i]), &map[i], err);
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
    uint32_t *ids = (uint32_t *)proper_calloc(c->locations.len + 1, sizeof *ids);
    uint32_t *rank = (uint32_t *)proper_calloc(c->locations.len + 1, sizeof *rank);
    size_t i;
    if (!ids || !rank) goto fail;
    for (i = 0; i < c->locations.len; i++) ids[i] = (uint32_t)i;
    if (proper__vlmc_sort_idx(ids, c->locations.len, proper__vlmc_name_idx_cmp, c->locations.names)) goto fail;
    for (i = 0; i < c->locations.len; i++) rank[ids[i]] = (uint32_t)i;
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
    for (i = 0; i < c->locations.len; i++) bad |= fprintf(f, "location %s\n", c->locations.names[ids[i]]) < 0;
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
    e->from = proper_strndup(from, nf);
    e->to = proper_strndup(to, nt);
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
    proper_skip_bom(&text, &len);
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

PROPER_API int proper_vlmc_cfg_read(proper_vlmc_cfg *g, const char *path, proper_error *err) {
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
    uint32_t *rank = NULL, *rank2 = NULL, *tmp = NULL, *fill;
    uint32_t i, groups, h;
    rank = (uint32_t *)proper_calloc(n, sizeof *rank);
    rank2 = (uint32_t *)proper_calloc(n, sizeof *rank2);
    tmp = (uint32_t *)proper_calloc(n, sizeof *tmp);
    fill = (uint32_t *)proper_calloc((size_t)sigma + 1, sizeof *fill);
    if (!rank || !rank2 || !tmp || !fill) {
        PROPER_FREE(rank); PROPER_FREE(rank2); PROPER_FREE(tmp); PROPER_FREE(fill);
        return PROPER_ENOMEM;
    }
    /* round 0: counting sort by the first symbol */
    for (i = 0; i < n; i++) fill[text[i] + 1]++;
    for (i = 1; i <= sigma; i++) fill[i] += fill[i - 1];
    for (i = 0; i < n; i++) sa[fill[text[i]]++] = i;
    PROPER_FREE(fill);
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
        /* stable placement by the first key; rank2 serves as the fill
         * pointers until the new ranks are written into it below */
        for (i = 0; i < n; i++) rank2[i] = i;
        for (i = 0; i < n; i++) {
            uint32_t p = tmp[i];
            sa[rank2[rank[p]]++] = p;
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
    PROPER_FREE(rank); PROPER_FREE(rank2); PROPER_FREE(tmp);
    return PROPER_OK;
}

PROPER_API void proper_vlmc_index_init(proper_vlmc_index *ix) { memset(ix, 0, sizeof *ix); }

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
    proper_vlmc_index_init(ix);
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

/* Builds the index of c into the empty index ix (released on failure). */
static int proper__vlmc_index_new(proper_vlmc_index *ix, const proper_vlmc_counts *c, proper_error *err) {
    uint32_t L, n, pos, i, h;
    uint64_t n64, total_csum = 0;
    uint32_t *left = NULL, *stamp = NULL, *slot = NULL;
    uint64_t *wpos = NULL;
    size_t r;
    memset(ix, 0, sizeof *ix);
    if (c->n_runs == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no runs to index");
    n64 = c->n_sym + c->n_runs;
    if (n64 >= 0xFFFFFFF0u || c->locations.len >= 0x7FFFFFF0u)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                "%llu positions: the index holds at most 2^32 - 16 (distinct runs' locations plus one per run)",
                                (unsigned long long)n64);
    L = (uint32_t)c->locations.len;
    n = (uint32_t)n64;
    ix->n_loc = L;
    ix->n = n;
    if (proper__vlmc_canonical(c, &ix->ids, &ix->canon)) goto oom;
    ix->text = (uint32_t *)proper_calloc(n, sizeof *ix->text);
    ix->sa = (uint32_t *)proper_calloc(n, sizeof *ix->sa);
    left = (uint32_t *)proper_calloc(n, sizeof *left);
    if (!ix->text || !ix->sa || !left) goto oom;
    pos = 0;
    for (r = 0; r < c->n_runs; r++) {
        const proper_vlmc_run *run = &c->runs[r];
        uint32_t m = run->len, o;
        for (o = 0; o < m; o++) {
            ix->text[pos + o] = 1 + ix->canon[c->sym[run->start + m - 1 - o]];
            left[pos + o] = m + 1 - o;
        }
        ix->text[pos + m] = 0;
        left[pos + m] = 1;
        if (m + 1 > ix->max_len) ix->max_len = m + 1;
        pos += m + 1;
    }
    if (proper__vlmc_suffix_sort(ix->text, left, n, L + 1, ix->max_len, ix->sa)) goto oom;
    PROPER_FREE(left);
    left = NULL;
    /* weights (each position weighs its run's multiplicity) and blocks */
    wpos = (uint64_t *)proper_calloc(n, sizeof *wpos);
    if (!wpos) goto oom;
    for (pos = 0, r = 0; r < c->n_runs; r++) {
        uint32_t o;
        for (o = 0; o <= c->runs[r].len; o++) wpos[pos + o] = c->runs[r].mult;
        pos += c->runs[r].len + 1;
    }
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
    PROPER_FREE(wpos); /* from here on a weight is a difference of wsum */
    wpos = NULL;
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
            uint64_t w = ix->wsum[b0 + i + 1] - ix->wsum[b0 + i];
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

PROPER_API int proper_vlmc_index_build(proper_vlmc_index *out, const proper_vlmc_counts *c, proper_error *err) {
    proper_vlmc_index ix;
    int rc = proper__vlmc_index_new(&ix, c, err);
    if (rc) return rc;
    proper_vlmc_index_free(out);
    *out = ix;
    return PROPER_OK;
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

/* 64 x 64 -> 128-bit product, for exact proportionality tests. */
static void proper__vlmc_mul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
    uint64_t a1 = a >> 32, a0 = a & 0xffffffffu, b1 = b >> 32, b0 = b & 0xffffffffu;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

static int proper__vlmc_products_equal(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
    uint64_t h1, l1, h2, l2;
    proper__vlmc_mul128(a, b, &h1, &l1);
    proper__vlmc_mul128(c, d, &h2, &l2);
    return h1 == h2 && l1 == l2;
}


/* ---- fitting ---- */

PROPER_API proper_vlmc_opts proper_vlmc_opts_default(void) {
    proper_vlmc_opts o;
    memset(&o, 0, sizeof o);
    o.alpha = 1.0;
    o.n_min = 1;
    o.cutoff = -1.0;
    return o;
}

PROPER_API void proper_vlmc_init(proper_vlmc *m) { memset(m, 0, sizeof *m); }

static void proper__vlmc_free_chain(proper_vlmc *m) {
    PROPER_FREE(m->row);
    PROPER_FREE(m->col);
    PROPER_FREE(m->prob);
    PROPER_FREE(m->emit);
    PROPER_FREE(m->state_pst);
    PROPER_FREE(m->state_loc);
    PROPER_FREE(m->state_depth);
    m->row = NULL;
    m->col = NULL;
    m->prob = NULL;
    m->emit = NULL;
    m->state_pst = NULL;
    m->state_loc = NULL;
    m->state_depth = NULL;
    m->n_states = 0;
    m->end_state = 0;
}

PROPER_API void proper_vlmc_free(proper_vlmc *m) {
    size_t i;
    if (m->names)
        for (i = 0; i < m->n_loc; i++) PROPER_FREE(m->names[i]);
    PROPER_FREE(m->names);
    PROPER_FREE(m->succ_off);
    PROPER_FREE(m->succ);
    PROPER_FREE(m->cfg_k);
    PROPER_FREE(m->cutoff);
    PROPER_FREE(m->nodes);
    PROPER_FREE(m->next_counts);
    proper__vlmc_free_chain(m);
    proper_vlmc_init(m);
}

/* A set of (history symbol, predicted symbol) edges. */
typedef struct proper__vlmc_edges {
    uint64_t *slot; /* key + 1; 0 empty */
    size_t cap, used;
} proper__vlmc_edges;

static int proper__vlmc_edges_has(const proper__vlmc_edges *e, uint64_t key) {
    size_t j;
    if (!e->cap) return 0;
    for (j = (size_t)proper__vlmc_mix(key) & (e->cap - 1); e->slot[j]; j = (j + 1) & (e->cap - 1))
        if (e->slot[j] == key + 1) return 1;
    return 0;
}

/* Inserts key; *added tells whether it was new. */
static int proper__vlmc_edges_add(proper__vlmc_edges *e, uint64_t key, int *added) {
    size_t j;
    *added = 0;
    if (proper__vlmc_edges_has(e, key)) return PROPER_OK;
    if ((e->used + 1) * 2 > e->cap) {
        size_t cap = e->cap ? e->cap * 2 : 256, i;
        uint64_t *s = (uint64_t *)proper_calloc(cap, sizeof *s);
        if (!s) return PROPER_ENOMEM;
        for (i = 0; i < e->cap; i++)
            if (e->slot[i]) {
                for (j = (size_t)proper__vlmc_mix(e->slot[i] - 1) & (cap - 1); s[j]; j = (j + 1) & (cap - 1)) {
                }
                s[j] = e->slot[i];
            }
        PROPER_FREE(e->slot);
        e->slot = s;
        e->cap = cap;
    }
    for (j = (size_t)proper__vlmc_mix(key) & (e->cap - 1); e->slot[j]; j = (j + 1) & (e->cap - 1)) {
    }
    e->slot[j] = key + 1;
    e->used++;
    *added = 1;
    return PROPER_OK;
}

/* Canonical id of a CFG name, or an error at the edge's position. */
static int proper__vlmc_cfg_resolve(const proper_vlmc_counts *c, const proper_vlmc_index *ix, const proper_vlmc_cfg *g,
                                    const char *name, int line, int col, uint32_t *out, proper_error *err) {
    size_t id = proper_intern_find(&c->locations, name, strlen(name));
    if (id == PROPER_INTERN_NONE)
        return proper_error_set(err, PROPER_EUNDEFINED, g->file[0] ? g->file : NULL, line, col,
                                "unknown location '%s' in the CFG: no run visits it", name);
    *out = ix->canon[id];
    return PROPER_OK;
}

static const char *proper__vlmc_hist_name(const proper_vlmc *m, uint32_t h) {
    return h == 0 ? "^" : m->names[h - 1];
}

static const char *proper__vlmc_pred_name(const proper_vlmc *m, uint32_t x) {
    return x >= m->n_loc ? "$" : m->names[x];
}

/* Sets m->cfg_k: from the CFG (checking every run's transitions, or adding
 * missing ones when extending), or from the observed successors. */
static int proper__vlmc_apply_cfg(proper_vlmc *m, const proper_vlmc_index *ix, const proper_vlmc_counts *c,
                                  const proper_vlmc_cfg *g, int extend, proper_error *err) {
    uint32_t L = ix->n_loc, h;
    proper__vlmc_edges set;
    size_t i;
    int rc = PROPER_OK, added;
    m->cfg_k = (uint32_t *)proper_calloc((size_t)L + 1, sizeof *m->cfg_k);
    if (!m->cfg_k) return proper__vlmc_oom(err);
    if (!g) {
        for (h = 0; h <= L; h++) m->cfg_k[h] = ix->succ_off[h + 1] - ix->succ_off[h];
        return PROPER_OK;
    }
    memset(&set, 0, sizeof set);
    for (i = 0; i < g->n_edges && rc == PROPER_OK; i++) {
        const proper_vlmc_cfg_edge *e = &g->edges[i];
        uint32_t from = 0, to = L;
        if (strcmp(e->from, "^") != 0) {
            if ((rc = proper__vlmc_cfg_resolve(c, ix, g, e->from, e->line, e->col_from, &from, err))) break;
            from += 1;
        }
        if (strcmp(e->to, "$") != 0 && (rc = proper__vlmc_cfg_resolve(c, ix, g, e->to, e->line, e->col_to, &to, err)))
            break;
        if (proper__vlmc_edges_add(&set, (uint64_t)from * (L + 1) + to, &added)) { rc = proper__vlmc_oom(err); break; }
        m->cfg_k[from] += (uint32_t)added;
    }
    for (i = 0; i < c->n_runs && rc == PROPER_OK; i++) {
        const proper_vlmc_run *r = &c->runs[i];
        uint32_t k, prev = 0;
        for (k = 0; k <= r->len && rc == PROPER_OK; k++) {
            uint32_t x = k < r->len ? ix->canon[c->sym[r->start + k]] : L;
            uint64_t key = (uint64_t)prev * (L + 1) + x;
            if (!proper__vlmc_edges_has(&set, key)) {
                if (extend) {
                    if (proper__vlmc_edges_add(&set, key, &added)) { rc = proper__vlmc_oom(err); break; }
                    m->cfg_k[prev] += (uint32_t)added;
                } else {
                    rc = proper_error_set(err, PROPER_EPARSE, c->files[r->file], (int)r->line, 0,
                                          "run %llu, position %lu: transition '%s' -> '%s' is not an edge of the CFG "
                                          "(extend_cfg / --extend-cfg adds such edges)",
                                          (unsigned long long)r->ordinal, (unsigned long)(k + 1),
                                          proper__vlmc_hist_name(m, prev), proper__vlmc_pred_name(m, x));
                    break;
                }
            }
            prev = x + 1;
        }
    }
    PROPER_FREE(set.slot);
    return rc;
}

/* Growth-phase tree node: a context as an interval of the suffix array. */
typedef struct proper__vlmc_gnode {
    uint32_t parent, child, sibling, lo, hi, depth, sym, expanded;
} proper__vlmc_gnode;

typedef struct proper__vlmc_grow {
    const proper_vlmc_index *ix;
    proper_vlmc *m;
    const proper_vlmc_opts *o;
    proper__vlmc_gnode *g;
    size_t n_g, cap_g, live, max_nodes;
    uint32_t free_head;
    uint32_t *stack;
    size_t n_stack, cap_stack;
    uint64_t *ca, *cb; /* scratch count vectors */
    double k_general;
    uint32_t end_rank; /* single-sequence mode: suffix-array rank of the position
                        * predicting $ (no prediction there); else NONE */
} proper__vlmc_grow;

static int proper__vlmc_gnew(proper__vlmc_grow *G, uint32_t *out, proper_error *err) {
    uint32_t u;
    if (G->live >= G->max_nodes)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "the tree exceeds %lu nodes (max_nodes)",
                                (unsigned long)G->max_nodes);
    if (G->free_head != PROPER_VLMC_NONE) {
        u = G->free_head;
        G->free_head = G->g[u].sibling;
    } else {
        if (proper_reserve(&G->g, &G->cap_g, G->n_g + 1, sizeof *G->g)) return proper__vlmc_oom(err);
        u = (uint32_t)G->n_g++;
    }
    G->live++;
    *out = u;
    return PROPER_OK;
}

/* Current location (history symbol) of a non-root growth node. */
static uint32_t proper__vlmc_gloc(const proper__vlmc_grow *G, uint32_t u) {
    return G->ix->text[G->ix->sa[G->g[u].lo]];
}

/* Whether the suffix-array interval [lo, hi) holds the single sequence's
 * last position, whose "prediction" $ is no prediction in that mode. */
static int proper__vlmc_holds_end(const proper__vlmc_grow *G, uint32_t lo, uint32_t hi) {
    return G->end_rank != PROPER_VLMC_NONE && lo <= G->end_rank && G->end_rank < hi;
}

/* Counts of node u over its location's observed successors; returns N. In
 * single-sequence mode the last position is left out (its $ count is 0). */
static uint64_t proper__vlmc_gcounts(const proper__vlmc_grow *G, uint32_t u, uint64_t *out) {
    uint32_t h = proper__vlmc_gloc(G, u), k = G->ix->succ_off[h + 1] - G->ix->succ_off[h];
    uint64_t n = proper__vlmc_counts_at(G->ix, h, G->g[u].lo, G->g[u].hi, out);
    if (proper__vlmc_holds_end(G, G->g[u].lo, G->g[u].hi)) {
        out[k - 1]--; /* $ sorts last among the successors */
        n--;
    }
    return n;
}

/* The empty context's N and N(x) over the symbols list[0..k-1] (counts ids,
 * L for $). */
static uint64_t proper__vlmc_root_counts(const proper__vlmc_grow *G, const uint32_t *list, uint32_t k, uint64_t *out) {
    const proper_vlmc_index *ix = G->ix;
    uint64_t n = ix->wsum[ix->n];
    uint32_t j;
    for (j = 0; j < k; j++) {
        uint32_t x = list ? list[j] : j;
        out[j] = ix->marginal[x];
        if (x == ix->n_loc && G->end_rank != PROPER_VLMC_NONE) out[j]--;
    }
    return G->end_rank != PROPER_VLMC_NONE ? n - 1 : n;
}

/* Δ of node c against its parent p (context algorithm statistic), with the
 * cutoff that applies; returns 1 when c may be pruned. */
static int proper__vlmc_delta(const proper__vlmc_grow *G, uint32_t c, uint32_t p, double *delta) {
    const proper_vlmc_index *ix = G->ix;
    uint32_t h = proper__vlmc_gloc(G, c), k = ix->succ_off[h + 1] - ix->succ_off[h], j;
    uint64_t nc, np, *cc = G->ca, *pc = G->cb;
    double d = 0.0, cutoff;
    int proportional = 1;
    nc = proper__vlmc_gcounts(G, c, cc);
    if (G->g[p].depth == 0) {
        if (!G->o->general && !G->o->single) { *delta = NAN; return 0; }
        np = proper__vlmc_root_counts(G, ix->succ + ix->succ_off[h], k, pc);
        cutoff = G->k_general;
    } else {
        np = proper__vlmc_gcounts(G, p, pc);
        cutoff = G->m->cutoff[h];
    }
    for (j = 0; j < k; j++)
        if (!proper__vlmc_products_equal(cc[j], np, pc[j], nc)) { proportional = 0; break; }
    if (proportional) { *delta = 0.0; return 1; }
    for (j = 0; j < k; j++)
        if (cc[j]) d += (double)cc[j] * log(((double)cc[j] * (double)np) / ((double)pc[j] * (double)nc));
    if (d < 0.0) d = 0.0; /* round-off: Δ is a weighted KL divergence */
    *delta = d;
    return d <= cutoff;
}

/* Whether node u gets children. */
static int proper__vlmc_growable(const proper__vlmc_grow *G, uint32_t u) {
    const proper__vlmc_gnode *n = &G->g[u];
    uint32_t h, k, j, nonzero = 0;
    if (n->depth == 0) return 1;
    if (n->sym == 0) return 0; /* the context reaches ^ */
    if (G->o->max_order && n->depth >= G->o->max_order) return 0;
    h = proper__vlmc_gloc(G, u);
    k = G->ix->succ_off[h + 1] - G->ix->succ_off[h];
    if (k <= 1) return 0;
    proper__vlmc_gcounts(G, u, G->ca);
    for (j = 0; j < k; j++) nonzero += G->ca[j] != 0;
    /* a certain next symbol: every extension has Δ = 0 and would be pruned */
    return nonzero > 1;
}

static int proper__vlmc_expand(proper__vlmc_grow *G, uint32_t u, proper_error *err) {
    const proper_vlmc_index *ix = G->ix;
    uint32_t d = G->g[u].depth, i = G->g[u].lo, hi = G->g[u].hi, tail = PROPER_VLMC_NONE;
    size_t first = G->n_stack;
    while (i < hi) {
        uint32_t s = ix->text[ix->sa[i] + d], j = proper__vlmc_bound(ix, i, hi, d, s, 1), c;
        uint64_t w = ix->wsum[j] - ix->wsum[i] - (uint64_t)proper__vlmc_holds_end(G, i, j);
        int keep = (d == 0 && !G->o->general && !G->o->single) ? 1 : w >= G->o->n_min;
        if (s == 0 && G->o->single) keep = 0; /* a plain sequence has no ^ */
        if (keep) {
            int rc = proper__vlmc_gnew(G, &c, err);
            if (rc) return rc;
            G->g[c].parent = u;
            G->g[c].child = PROPER_VLMC_NONE;
            G->g[c].sibling = PROPER_VLMC_NONE;
            G->g[c].lo = i;
            G->g[c].hi = j;
            G->g[c].depth = d + 1;
            G->g[c].sym = s;
            G->g[c].expanded = 0;
            if (tail == PROPER_VLMC_NONE) G->g[u].child = c;
            else G->g[tail].sibling = c;
            tail = c;
            if (PROPER_PUSH(G->stack, G->n_stack, G->cap_stack, c)) return proper__vlmc_oom(err);
        }
        i = j;
    }
    /* reverse the pushed children so the smallest symbol is grown first */
    {
        size_t a = first, b = G->n_stack;
        while (a + 1 < b) {
            uint32_t t = G->stack[a];
            G->stack[a] = G->stack[b - 1];
            G->stack[b - 1] = t;
            a++;
            b--;
        }
    }
    return PROPER_OK;
}

/* Post-order step: remove the leaf children of u that the test prunes.
 * Children were pruned before, so this repeats pruning exactly as leaves
 * appear (a leaf's test depends only on itself and its parent). */
static void proper__vlmc_prune_children(proper__vlmc_grow *G, uint32_t u) {
    uint32_t prev = PROPER_VLMC_NONE, c = G->g[u].child;
    while (c != PROPER_VLMC_NONE) {
        uint32_t nx = G->g[c].sibling;
        double delta;
        if (G->g[c].child == PROPER_VLMC_NONE && proper__vlmc_delta(G, c, u, &delta)) {
            if (prev == PROPER_VLMC_NONE) G->g[u].child = nx;
            else G->g[prev].sibling = nx;
            G->g[c].sibling = G->free_head;
            G->free_head = c;
            G->live--;
        } else {
            prev = c;
        }
        c = nx;
    }
}

static int proper__vlmc_grow_tree(proper__vlmc_grow *G, proper_error *err) {
    uint32_t root;
    int rc;
    double done = 0.0, reported = 0.0;
    if ((rc = proper__vlmc_gnew(G, &root, err))) return rc;
    G->g[root].parent = G->g[root].child = G->g[root].sibling = PROPER_VLMC_NONE;
    G->g[root].lo = 0;
    G->g[root].hi = G->ix->n;
    G->g[root].depth = 0;
    G->g[root].sym = PROPER_VLMC_NONE;
    G->g[root].expanded = 0;
    if (PROPER_PUSH(G->stack, G->n_stack, G->cap_stack, root)) return proper__vlmc_oom(err);
    while (G->n_stack) {
        uint32_t u = G->stack[G->n_stack - 1];
        if (!G->g[u].expanded) {
            G->g[u].expanded = 1;
            if (proper__vlmc_growable(G, u) && (rc = proper__vlmc_expand(G, u, err))) return rc;
            continue;
        }
        G->n_stack--;
        proper__vlmc_prune_children(G, u);
        if (G->g[u].depth == 1 && G->o->progress) {
            done += (double)(G->g[u].hi - G->g[u].lo) / (double)G->ix->n;
            if (done - reported >= 0.01) {
                G->o->progress(G->o->progress_user, "growing the PST", done);
                reported = done;
            }
        }
    }
    return PROPER_OK;
}

/* Copies the grown tree into m->nodes in preorder, with counts, Δ, order
 * and log-likelihood. */
static int proper__vlmc_compact(proper__vlmc_grow *G, proper_error *err) {
    proper_vlmc *m = G->m;
    const proper_vlmc_index *ix = G->ix;
    uint32_t *map = NULL, *order = NULL, *st = NULL, L = ix->n_loc;
    size_t n_order = 0, n_st = 0, cap_st = 0, i, pool = 0;
    map = (uint32_t *)proper_calloc(G->n_g + 1, sizeof *map);
    order = (uint32_t *)proper_calloc(G->live + 1, sizeof *order);
    if (!map || !order) goto oom;
    if (PROPER_PUSH(st, n_st, cap_st, (uint32_t)0)) goto oom;
    while (n_st) {
        uint32_t u = st[--n_st], c;
        size_t first = n_st;
        map[u] = (uint32_t)n_order;
        order[n_order++] = u;
        for (c = G->g[u].child; c != PROPER_VLMC_NONE; c = G->g[c].sibling)
            if (PROPER_PUSH(st, n_st, cap_st, c)) goto oom;
        {
            size_t a = first, b = n_st;
            while (a + 1 < b) {
                uint32_t t = st[a];
                st[a] = st[b - 1];
                st[b - 1] = t;
                a++;
                b--;
            }
        }
    }
    m->nodes = (proper_vlmc_node *)proper_calloc(n_order + 1, sizeof *m->nodes);
    if (!m->nodes) goto oom;
    m->n_nodes = n_order;
    for (i = 0; i < n_order; i++) {
        const proper__vlmc_gnode *g = &G->g[order[i]];
        proper_vlmc_node *n = &m->nodes[i];
        n->parent = g->parent == PROPER_VLMC_NONE ? PROPER_VLMC_NONE : map[g->parent];
        n->child = g->child == PROPER_VLMC_NONE ? PROPER_VLMC_NONE : map[g->child];
        n->sibling = (i == 0 || g->sibling == PROPER_VLMC_NONE) ? PROPER_VLMC_NONE : map[g->sibling];
        n->sym = g->sym;
        n->depth = g->depth;
        n->loc = g->depth ? ix->text[ix->sa[g->lo]] : PROPER_VLMC_NONE;
        n->next = pool;
        pool += g->depth ? ix->succ_off[n->loc + 1] - ix->succ_off[n->loc] : (size_t)L + 1;
        if (g->depth > m->order) m->order = g->depth;
    }
    m->next_counts = (uint64_t *)proper_calloc(pool + 1, sizeof *m->next_counts);
    if (!m->next_counts) goto oom;
    for (i = 0; i < n_order; i++) {
        proper_vlmc_node *n = &m->nodes[i];
        uint64_t *cnt = m->next_counts + n->next;
        if (n->depth == 0) {
            n->count = proper__vlmc_root_counts(G, NULL, L + 1, cnt);
            n->delta = NAN;
        } else {
            n->count = proper__vlmc_gcounts(G, order[i], cnt);
            proper__vlmc_delta(G, order[i], G->g[order[i]].parent, &n->delta);
        }
    }
    /* log-likelihood: each position is predicted by the deepest node that
     * contains it, so a node predicts its counts minus its children's */
    {
        double ll = 0.0;
        uint64_t *own = G->ca;
        for (i = 0; i < n_order; i++) {
            const proper_vlmc_node *n = &m->nodes[i];
            const uint64_t *cnt = m->next_counts + n->next;
            size_t k = n->depth ? ix->succ_off[n->loc + 1] - ix->succ_off[n->loc] : (size_t)L + 1, j;
            uint32_t c;
            memcpy(own, cnt, k * sizeof *own);
            for (c = n->child; c != PROPER_VLMC_NONE; c = m->nodes[c].sibling) {
                const proper_vlmc_node *cn = &m->nodes[c];
                const uint64_t *cc = m->next_counts + cn->next;
                size_t kc = ix->succ_off[cn->loc + 1] - ix->succ_off[cn->loc];
                for (j = 0; j < kc; j++) own[n->depth ? j : ix->succ[ix->succ_off[cn->loc] + j]] -= cc[j];
            }
            for (j = 0; j < k; j++)
                if (own[j]) ll += (double)own[j] * log((double)cnt[j] / (double)n->count);
        }
        m->loglik = ll;
    }
    m->n_contexts = m->general || m->single ? n_order : n_order - 1;
    PROPER_FREE(map);
    PROPER_FREE(order);
    PROPER_FREE(st);
    return PROPER_OK;
oom:
    PROPER_FREE(map);
    PROPER_FREE(order);
    PROPER_FREE(st);
    return proper__vlmc_oom(err);
}

/* K = χ²_df(1 − α)/2, 0 without degrees of freedom. */
static double proper__vlmc_chi2_cutoff(double alpha, double df) {
    return df >= 1.0 ? proper_stats_chi2_quantile(1.0 - alpha, df) / 2.0 : 0.0;
}

/* Learns into the empty model m (released on failure). */
static int proper__vlmc_fit_new(proper_vlmc *m, const proper_vlmc_counts *c, const proper_vlmc_cfg *cfg,
                                const proper_vlmc_opts *opts, proper_error *err) {
    proper_vlmc_opts def;
    proper_vlmc_index ix;
    proper__vlmc_grow G;
    uint32_t L, h;
    int rc;
    proper_vlmc_init(m);
    proper_vlmc_index_init(&ix);
    if (!opts) {
        def = proper_vlmc_opts_default();
        opts = &def;
    }
    if (!(opts->alpha > 0.0 && opts->alpha <= 1.0))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "alpha %g is outside (0, 1]", opts->alpha);
    if (opts->n_min < 1) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "n_min must be at least 1");
    if (opts->general && cfg)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "the general-purpose mode does not use a CFG");
    if (opts->single && (cfg || opts->general))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "the single-sequence mode is a general-purpose mode of its own: no CFG, not general");
    if (!(opts->cutoff < 0.0 || (opts->cutoff >= 0.0 && opts->cutoff < INFINITY)))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "cutoff %g is not a finite number >= 0", opts->cutoff);
    if (opts->cutoff_df != PROPER_VLMC_DF_CFG && opts->cutoff_df != PROPER_VLMC_DF_ALPHABET)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "unknown cutoff_df %d", opts->cutoff_df);
    if (c->n_runs == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no runs to learn from");
    if (opts->single && c->total_runs != 1)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "the single-sequence mode reads one sequence, but there are %llu runs "
                                "(join them into one line, or fit them as runs)",
                                (unsigned long long)c->total_runs);
    if (opts->progress) opts->progress(opts->progress_user, "indexing", 0.0);
    if ((rc = proper_vlmc_index_build(&ix, c, err))) return rc;
    L = ix.n_loc;
    m->n_loc = L;
    m->general = opts->general;
    m->single = opts->single;
    m->alpha = opts->alpha;
    m->cutoff_given = opts->cutoff >= 0.0 ? opts->cutoff : -1.0;
    m->n_min = opts->n_min;
    m->max_order = opts->max_order;
    m->total_runs = c->total_runs;
    m->total_steps = c->total_steps;
    memset(&G, 0, sizeof G);
    m->names = (char **)proper_calloc((size_t)L + 1, sizeof *m->names);
    m->succ_off = (uint32_t *)proper_calloc((size_t)L + 2, sizeof *m->succ_off);
    m->succ = (uint32_t *)proper_calloc((size_t)ix.succ_off[L + 1] + 1, sizeof *m->succ);
    m->cutoff = (double *)proper_calloc((size_t)L + 1, sizeof *m->cutoff);
    G.ca = (uint64_t *)proper_calloc((size_t)L + 2, sizeof *G.ca);
    G.cb = (uint64_t *)proper_calloc((size_t)L + 2, sizeof *G.cb);
    if (!m->names || !m->succ_off || !m->succ || !m->cutoff || !G.ca || !G.cb) { rc = proper__vlmc_oom(err); goto done; }
    for (h = 0; h < L; h++) {
        const char *nm = c->locations.names[ix.ids[h]];
        m->names[h] = proper_strndup(nm, strlen(nm));
        if (!m->names[h]) { rc = proper__vlmc_oom(err); goto done; }
    }
    memcpy(m->succ_off, ix.succ_off, ((size_t)L + 2) * sizeof *m->succ_off);
    memcpy(m->succ, ix.succ, (size_t)ix.succ_off[L + 1] * sizeof *m->succ);
    if ((rc = proper__vlmc_apply_cfg(m, &ix, c, cfg, opts->extend_cfg, err))) goto done;
    /* cutoffs K = χ²_{df}(1 − α) / 2 (K = 0 without degrees of freedom) */
    G.k_general = proper__vlmc_chi2_cutoff(opts->alpha, opts->single ? (double)L - 1.0 : (double)L);
    for (h = 0; h <= L; h++) {
        uint32_t k = m->cfg_k[h];
        if (opts->general || opts->single) m->cutoff[h] = G.k_general;
        else if (opts->cutoff_df == PROPER_VLMC_DF_ALPHABET)
            m->cutoff[h] = proper__vlmc_chi2_cutoff(opts->alpha, (double)L - 1.0);
        else m->cutoff[h] = proper__vlmc_chi2_cutoff(opts->alpha, (double)k - 1.0);
    }
    if (opts->cutoff >= 0.0) {
        G.k_general = opts->cutoff;
        for (h = 0; h <= L; h++) m->cutoff[h] = opts->cutoff;
    }
    G.end_rank = PROPER_VLMC_NONE;
    if (opts->single) /* the one run's last location is text position 0 */
        for (h = 0; h < ix.n && G.end_rank == PROPER_VLMC_NONE; h++)
            if (ix.sa[h] == 0) G.end_rank = h;
    G.ix = &ix;
    G.m = m;
    G.o = opts;
    G.free_head = PROPER_VLMC_NONE;
    G.max_nodes = opts->max_nodes ? opts->max_nodes : (size_t)0xFFFFFFFEu;
    if ((rc = proper__vlmc_grow_tree(&G, err))) goto done;
    if (opts->progress) opts->progress(opts->progress_user, "growing the PST", 1.0);
    rc = proper__vlmc_compact(&G, err);
done:
    PROPER_FREE(G.g);
    PROPER_FREE(G.stack);
    PROPER_FREE(G.ca);
    PROPER_FREE(G.cb);
    proper_vlmc_index_free(&ix);
    if (rc) proper_vlmc_free(m);
    return rc;
}

PROPER_API int proper_vlmc_fit(proper_vlmc *out, const proper_vlmc_counts *c, const proper_vlmc_cfg *cfg,
                               const proper_vlmc_opts *opts, proper_error *err) {
    proper_vlmc m;
    int rc = proper__vlmc_fit_new(&m, c, cfg, opts, err);
    if (rc) return rc;
    proper_vlmc_free(out);
    *out = m;
    return PROPER_OK;
}

/* ---- output ---- */

/* Successor list and counts that predict at PST node u. */
static size_t proper__vlmc_node_succ(const proper_vlmc *m, uint32_t u, const uint32_t **list, const uint64_t **cnt,
                                     uint64_t *total, const uint32_t *all) {
    const proper_vlmc_node *d = &m->nodes[u];
    *cnt = m->next_counts + d->next;
    *total = d->count;
    if (d->depth == 0) {
        *list = all;
        return m->n_loc + 1;
    }
    *list = m->succ + m->succ_off[d->loc];
    return m->succ_off[d->loc + 1] - m->succ_off[d->loc];
}

PROPER_API double proper_vlmc_prob(const proper_vlmc *m, uint32_t node, uint32_t x) {
    const proper_vlmc_node *d;
    const uint64_t *cnt;
    if (node >= m->n_nodes || x > m->n_loc) return 0.0;
    d = &m->nodes[node];
    cnt = m->next_counts + d->next;
    if (d->count == 0) return 0.0;
    if (d->depth == 0) return (double)cnt[x] / (double)d->count;
    {
        const uint32_t *list = m->succ + m->succ_off[d->loc];
        uint32_t k = m->succ_off[d->loc + 1] - m->succ_off[d->loc], j;
        for (j = 0; j < k; j++)
            if (list[j] == x) return (double)cnt[j] / (double)d->count;
    }
    return 0.0;
}

PROPER_API int proper_vlmc_context_string(const proper_vlmc *m, uint32_t node, char *buf, size_t size) {
    size_t k = 0;
    uint32_t u = node;
    if (size == 0) return PROPER_EINVAL;
    buf[0] = '\0';
    if (node >= m->n_nodes) return PROPER_EINVAL;
    while (u != PROPER_VLMC_NONE && m->nodes[u].depth > 0) {
        const char *nm = proper__vlmc_hist_name(m, m->nodes[u].sym);
        size_t n = strlen(nm);
        if (k + n + 2 > size) return PROPER_ELIMIT;
        if (k) buf[k++] = ' ';
        memcpy(buf + k, nm, n);
        k += n;
        buf[k] = '\0';
        u = m->nodes[u].parent;
    }
    return PROPER_OK;
}

/* The context of a node into a growable buffer (contexts can be long). */
static int proper__vlmc_context_dyn(const proper_vlmc *m, uint32_t node, char **buf, size_t *cap) {
    size_t need = 1;
    uint32_t u;
    for (u = node; u != PROPER_VLMC_NONE && m->nodes[u].depth > 0; u = m->nodes[u].parent)
        need += strlen(proper__vlmc_hist_name(m, m->nodes[u].sym)) + 1;
    if (proper_reserve(buf, cap, need + 1, 1)) return PROPER_ENOMEM;
    return proper_vlmc_context_string(m, node, *buf, *cap);
}

PROPER_API int proper_vlmc_write_pst(const proper_vlmc *m, FILE *f, proper_error *err) {
    char *ctx = NULL;
    size_t cap = 0, i;
    int bad = 0;
    bad |= fprintf(f,
                   "# proper vlmc PST: mode %s, alpha %.17g, n_min %llu, max_order %u\n"
                   "# nodes %lu, order %u, log-likelihood %.17g, runs %llu, steps %llu\n"
                   "# depth\tcount\tdelta\tcontext\tnext (symbol:probability(count))\n",
                   m->single ? "single" : m->general ? "general" : "cfg", m->alpha, (unsigned long long)m->n_min,
                   m->max_order,
                   (unsigned long)m->n_contexts, m->order, m->loglik, (unsigned long long)m->total_runs,
                   (unsigned long long)m->total_steps) < 0;
    for (i = 0; i < m->n_nodes && !bad; i++) {
        const proper_vlmc_node *n = &m->nodes[i];
        const uint32_t *list;
        const uint64_t *cnt;
        uint64_t total;
        size_t k, j, printed;
        if (n->depth == 0 && !m->general && !m->single) continue;
        if (proper__vlmc_context_dyn(m, (uint32_t)i, &ctx, &cap)) { PROPER_FREE(ctx); return proper__vlmc_oom(err); }
        if (n->depth == 0) {
            k = m->n_loc + 1;
            list = NULL;
        } else {
            list = m->succ + m->succ_off[n->loc];
            k = m->succ_off[n->loc + 1] - m->succ_off[n->loc];
        }
        cnt = m->next_counts + n->next;
        total = n->count;
        bad |= fprintf(f, "%u\t%llu\t", n->depth, (unsigned long long)total) < 0;
        bad |= (isnan(n->delta) ? fprintf(f, "-\t") : fprintf(f, "%.6g\t", n->delta)) < 0;
        bad |= fprintf(f, "%s\t", n->depth ? ctx : ".") < 0;
        for (j = 0, printed = 0; j < k; j++) {
            uint32_t x = list ? list[j] : (uint32_t)j;
            if (!cnt[j]) continue;
            bad |= fprintf(f, "%s%s:%.6g(%llu)", printed++ ? " " : "", proper__vlmc_pred_name(m, x),
                           (double)cnt[j] / (double)total, (unsigned long long)cnt[j]) < 0;
        }
        bad |= fputc('\n', f) == EOF;
    }
    PROPER_FREE(ctx);
    if (bad || ferror(f)) return proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write error");
    return PROPER_OK;
}

static int proper__vlmc_dot_name(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') {
            if (fputc('\\', f) == EOF) return 1;
        }
        if (fputc(*s, f) == EOF) return 1;
    }
    return 0;
}

PROPER_API int proper_vlmc_write_dot(const proper_vlmc *m, FILE *f, proper_error *err) {
    size_t i;
    int bad = 0;
    bad |= fprintf(f, "digraph pst {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n") < 0;
    for (i = 0; i < m->n_nodes && !bad; i++) {
        const proper_vlmc_node *n = &m->nodes[i];
        const uint64_t *cnt = m->next_counts + n->next;
        size_t k = n->depth ? m->succ_off[n->loc + 1] - m->succ_off[n->loc] : m->n_loc + 1, j;
        uint32_t u;
        if (n->depth == 0 && !m->general && !m->single) continue;
        bad |= fprintf(f, "  n%lu [label=\"", (unsigned long)i) < 0;
        if (n->depth == 0) bad |= fputs("(empty)", f) == EOF;
        for (u = (uint32_t)i; u != PROPER_VLMC_NONE && m->nodes[u].depth > 0; u = m->nodes[u].parent) {
            if (u != i) bad |= fputc(' ', f) == EOF;
            bad |= proper__vlmc_dot_name(f, proper__vlmc_hist_name(m, m->nodes[u].sym));
        }
        bad |= fprintf(f, "\\nN=%llu", (unsigned long long)n->count) < 0;
        for (j = 0; j < k; j++) {
            uint32_t x = n->depth ? m->succ[m->succ_off[n->loc] + j] : (uint32_t)j;
            if (!cnt[j]) continue;
            bad |= fputs("\\n", f) == EOF;
            bad |= proper__vlmc_dot_name(f, proper__vlmc_pred_name(m, x));
            bad |= fprintf(f, " %.4g", (double)cnt[j] / (double)n->count) < 0;
        }
        bad |= fprintf(f, "\"];\n") < 0;
        if (n->parent != PROPER_VLMC_NONE && (m->general || m->single || m->nodes[n->parent].depth > 0)) {
            bad |= fprintf(f, "  n%lu -> n%lu [label=\"", (unsigned long)n->parent, (unsigned long)i) < 0;
            bad |= proper__vlmc_dot_name(f, proper__vlmc_hist_name(m, n->sym));
            bad |= fprintf(f, "\"];\n") < 0;
        }
    }
    bad |= fprintf(f, "}\n") < 0;
    if (bad || ferror(f)) return proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write error");
    return PROPER_OK;
}

/* ---- Markov hull ---- */

/* Aho–Corasick automaton over the PST's contexts read oldest first: node =
 * a prefix of some context; fail = its longest proper suffix that is a
 * node; out = its longest suffix that is a PST context. */
typedef struct proper__vlmc_ac {
    uint32_t *child, *sibling, *sym, *fail, *out, *depth;
    size_t n, cap, limit;
} proper__vlmc_ac;

static void proper__vlmc_ac_free(proper__vlmc_ac *a) {
    PROPER_FREE(a->child);
    PROPER_FREE(a->sibling);
    PROPER_FREE(a->sym);
    PROPER_FREE(a->fail);
    PROPER_FREE(a->out);
    PROPER_FREE(a->depth);
}

static int proper__vlmc_ac_grow(proper__vlmc_ac *a) {
    size_t cap = a->cap ? 2 * a->cap : 1024;
    uint32_t **arrays[6];
    int i;
    arrays[0] = &a->child; arrays[1] = &a->sibling; arrays[2] = &a->sym;
    arrays[3] = &a->fail; arrays[4] = &a->out; arrays[5] = &a->depth;
    for (i = 0; i < 6; i++) {
        uint32_t *p = (uint32_t *)PROPER_REALLOC(*arrays[i], cap * sizeof **arrays[i]);
        if (!p) return PROPER_ENOMEM;
        *arrays[i] = p;
    }
    a->cap = cap;
    return PROPER_OK;
}

static uint32_t proper__vlmc_ac_child(const proper__vlmc_ac *a, uint32_t p, uint32_t s) {
    uint32_t c;
    for (c = a->child[p]; c != PROPER_VLMC_NONE; c = a->sibling[c])
        if (a->sym[c] == s) return c;
    return PROPER_VLMC_NONE;
}

/* The child of p for history symbol s, created if missing. */
static int proper__vlmc_ac_step(proper__vlmc_ac *a, uint32_t p, uint32_t s, uint32_t *out, proper_error *err) {
    uint32_t c = proper__vlmc_ac_child(a, p, s);
    if (c == PROPER_VLMC_NONE) {
        if (a->n >= a->limit)
            return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "the Markov hull exceeds %lu states",
                                    (unsigned long)a->limit);
        if (a->n == a->cap && proper__vlmc_ac_grow(a)) return proper__vlmc_oom(err);
        c = (uint32_t)a->n++;
        a->child[c] = PROPER_VLMC_NONE;
        a->sibling[c] = a->child[p];
        a->child[p] = c;
        a->sym[c] = s;
        a->fail[c] = 0;
        a->out[c] = PROPER_VLMC_NONE;
        a->depth[c] = a->depth[p] + 1;
    }
    *out = c;
    return PROPER_OK;
}

/* Longest node that is a suffix of (string of p) followed by s. */
static uint32_t proper__vlmc_ac_goto(const proper__vlmc_ac *a, uint32_t p, uint32_t s) {
    for (;;) {
        uint32_t c = proper__vlmc_ac_child(a, p, s);
        if (c != PROPER_VLMC_NONE) return c;
        if (p == 0) return 0;
        p = a->fail[p];
    }
}

static int proper__vlmc_ac_build(const proper_vlmc *m, proper__vlmc_ac *a, proper_error *err) {
    uint32_t *queue = NULL, u, head, tail, hat;
    int rc;
    if ((rc = proper__vlmc_ac_grow(a))) return proper__vlmc_oom(err);
    a->n = 1;
    a->child[0] = a->sibling[0] = a->sym[0] = PROPER_VLMC_NONE;
    a->fail[0] = 0;
    a->out[0] = 0; /* the empty context */
    a->depth[0] = 0;
    /* a PST node's context, oldest first, is its chain of parents */
    for (u = 1; u < m->n_nodes; u++) {
        uint32_t cur = 0, v;
        for (v = u; m->nodes[v].depth > 0; v = m->nodes[v].parent)
            if ((rc = proper__vlmc_ac_step(a, cur, m->nodes[v].sym, &cur, err))) return rc;
        a->out[cur] = u;
    }
    if ((rc = proper__vlmc_ac_step(a, 0, 0, &hat, err))) return rc; /* every run starts in "^" */
    queue = (uint32_t *)proper_calloc(a->n, sizeof *queue);
    if (!queue) return proper__vlmc_oom(err);
    head = tail = 0;
    queue[tail++] = 0;
    while (head < tail) {
        uint32_t p = queue[head++], c;
        for (c = a->child[p]; c != PROPER_VLMC_NONE; c = a->sibling[c]) {
            a->fail[c] = p == 0 ? 0 : proper__vlmc_ac_goto(a, a->fail[p], a->sym[c]);
            if (a->out[c] == PROPER_VLMC_NONE) a->out[c] = a->out[a->fail[c]];
            queue[tail++] = c;
        }
    }
    PROPER_FREE(queue);
    return PROPER_OK;
}

PROPER_API int proper_vlmc_hull(proper_vlmc *m, size_t max_nodes, proper_error *err) {
    proper__vlmc_ac a;
    uint32_t *state = NULL, *queue = NULL, *all = NULL, L = (uint32_t)m->n_loc, n_states = 0, init, i;
    size_t n_tr = 0, cap_tr = 0;
    int rc;
    if (m->row) return PROPER_OK;
    if (!m->nodes) return proper_error_set(err, PROPER_ESTATE, NULL, 0, 0, "no PST: fit first");
    if (m->single)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "a single-sequence model has no end: no Markov hull, steps or samples "
                                "(fit the runs instead)");
    {
        double work = 0.0;
        for (i = 1; i < (uint32_t)m->n_nodes; i++) work += (double)m->nodes[i].depth;
        if (work > PROPER_VLMC_MAX_HULL_WORK)
            return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                    "the Markov hull of this PST (order %u, %lu nodes) would walk %.3g context "
                                    "symbols, more than PROPER_VLMC_MAX_HULL_WORK (%.3g): limit the context "
                                    "length (--max-order, e.g. 1000)",
                                    m->order, (unsigned long)m->n_nodes, work, (double)PROPER_VLMC_MAX_HULL_WORK);
    }
    memset(&a, 0, sizeof a);
    a.limit = max_nodes ? max_nodes : (size_t)0xFFFFFFFEu;
    if ((rc = proper__vlmc_ac_build(m, &a, err))) goto done;
    state = (uint32_t *)proper_calloc(a.n, sizeof *state);
    queue = (uint32_t *)proper_calloc(a.n, sizeof *queue);
    all = (uint32_t *)proper_calloc((size_t)L + 1, sizeof *all);
    m->row = (uint64_t *)proper_calloc(a.n + 2, sizeof *m->row);
    if (!state || !queue || !all || !m->row) { rc = proper__vlmc_oom(err); goto done; }
    for (i = 0; i <= L; i++) all[i] = i;
    for (i = 0; i < a.n; i++) state[i] = PROPER_VLMC_NONE;
    /* states reachable from ^, breadth first; transitions in state order */
    init = proper__vlmc_ac_child(&a, 0, 0);
    state[init] = n_states;
    queue[n_states++] = init;
    for (i = 0; i < n_states; i++) {
        uint32_t p = queue[i], j, k;
        const uint32_t *list;
        const uint64_t *cnt;
        uint64_t total;
        m->row[i] = n_tr;
        k = (uint32_t)proper__vlmc_node_succ(m, a.out[p], &list, &cnt, &total, all);
        for (j = 0; j < k; j++) {
            uint32_t x = list[j], t;
            if (!cnt[j]) continue;
            if (n_tr + 1 > cap_tr) {
                size_t c2 = cap_tr ? 2 * cap_tr : 1024;
                uint32_t *nc = (uint32_t *)PROPER_REALLOC(m->col, c2 * sizeof *nc), *ne;
                double *np;
                if (!nc) { rc = proper__vlmc_oom(err); goto done; }
                m->col = nc;
                ne = (uint32_t *)PROPER_REALLOC(m->emit, c2 * sizeof *ne);
                if (!ne) { rc = proper__vlmc_oom(err); goto done; }
                m->emit = ne;
                np = (double *)PROPER_REALLOC(m->prob, c2 * sizeof *np);
                if (!np) { rc = proper__vlmc_oom(err); goto done; }
                m->prob = np;
                cap_tr = c2;
            }
            if (x == L) {
                m->col[n_tr] = PROPER_VLMC_NONE; /* $: numbered once all states are known */
            } else {
                t = proper__vlmc_ac_goto(&a, p, x + 1);
                if (state[t] == PROPER_VLMC_NONE) {
                    state[t] = n_states;
                    queue[n_states++] = t;
                }
                m->col[n_tr] = state[t];
            }
            m->emit[n_tr] = x;
            m->prob[n_tr] = (double)cnt[j] / (double)total;
            n_tr++;
        }
    }
    m->n_states = n_states + 1;
    m->end_state = n_states;
    m->row[n_states] = n_tr;
    for (i = 0; i < n_tr; i++)
        if (m->col[i] == PROPER_VLMC_NONE) m->col[i] = m->end_state;
    /* $ loops on itself */
    {
        uint32_t *nc = (uint32_t *)PROPER_REALLOC(m->col, (n_tr + 1) * sizeof *nc), *ne;
        double *np;
        if (!nc) { rc = proper__vlmc_oom(err); goto done; }
        m->col = nc;
        ne = (uint32_t *)PROPER_REALLOC(m->emit, (n_tr + 1) * sizeof *ne);
        if (!ne) { rc = proper__vlmc_oom(err); goto done; }
        m->emit = ne;
        np = (double *)PROPER_REALLOC(m->prob, (n_tr + 1) * sizeof *np);
        if (!np) { rc = proper__vlmc_oom(err); goto done; }
        m->prob = np;
        m->col[n_tr] = m->end_state;
        m->emit[n_tr] = L;
        m->prob[n_tr] = 1.0;
        m->row[n_states + 1] = n_tr + 1;
    }
    m->state_pst = (uint32_t *)proper_calloc(m->n_states, sizeof *m->state_pst);
    m->state_loc = (int32_t *)proper_calloc(m->n_states, sizeof *m->state_loc);
    m->state_depth = (uint32_t *)proper_calloc(m->n_states, sizeof *m->state_depth);
    if (!m->state_pst || !m->state_loc || !m->state_depth) { rc = proper__vlmc_oom(err); goto done; }
    for (i = 0; i < n_states; i++) {
        uint32_t p = queue[i];
        m->state_pst[i] = a.out[p];
        m->state_loc[i] = (a.depth[p] == 0 || a.sym[p] == 0) ? -1 : (int32_t)(a.sym[p] - 1);
        m->state_depth[i] = a.depth[p];
    }
    m->state_pst[n_states] = PROPER_VLMC_NONE;
    m->state_loc[n_states] = -2;
    m->state_depth[n_states] = 0;
done:
    if (rc) proper__vlmc_free_chain(m);
    proper__vlmc_ac_free(&a);
    PROPER_FREE(state);
    PROPER_FREE(queue);
    PROPER_FREE(all);
    return rc;
}

/* The hull chain into the empty model out (released on failure). */
static int proper__vlmc_dtmc_new(const proper_vlmc *m, proper_dtmc *out, proper_error *err) {
    proper_dtmc_builder b;
    proper_bitset end;
    int32_t *vals = NULL;
    size_t r, s;
    const char *vars[2];
    int rc;
    proper_dtmc_init(out);
    if (!m->row) return proper_error_set(err, PROPER_ESTATE, NULL, 0, 0, "no Markov hull: call proper_vlmc_hull first");
    proper_dtmc_builder_init(&b);
    if ((rc = proper_dtmc_builder_reserve(&b, m->n_states, (size_t)m->row[m->n_states], err))) {
        proper_dtmc_builder_free(&b);
        return rc;
    }
    for (s = 0; s < m->n_states; s++)
        if ((rc = proper_dtmc_builder_add_row(&b, m->col + m->row[s], m->prob + m->row[s],
                                              (size_t)(m->row[s + 1] - m->row[s]), err))) {
            proper_dtmc_builder_free(&b);
            return rc;
        }
    if ((rc = proper_dtmc_builder_finish(&b, m->n_states, out, err))) return rc;
    proper_bitset_init(&end);
    if ((rc = proper_bitset_create(&end, m->n_states, NULL))) { proper_dtmc_free(out); return proper__vlmc_oom(err); }
    proper_bitset_set(&end, m->end_state);
    rc = proper_dtmc_add_label(out, "end", &end, NULL, err);
    proper_bitset_free(&end);
    if (rc == PROPER_OK) rc = proper_dtmc_add_reward(out, "steps", 1, 0, &r, err);
    /* every state but ^ (state 0) and $ is entered by visiting a location */
    for (s = 1; s < m->end_state && rc == PROPER_OK; s++) rc = proper_dtmc_reward_add_state(out, r, (uint32_t)s, 1.0, err);
    if (rc == PROPER_OK) {
        vals = (int32_t *)proper_calloc((size_t)m->n_states * 2, sizeof *vals);
        if (!vals) rc = proper__vlmc_oom(err);
    }
    if (rc == PROPER_OK) {
        for (s = 0; s < m->n_states; s++) {
            vals[2 * s] = m->state_loc[s];
            vals[2 * s + 1] = (int32_t)m->state_depth[s];
        }
        vars[0] = "loc";
        vars[1] = "depth";
        rc = proper_dtmc_set_valuations(out, vars, NULL, 2, vals, err);
    }
    PROPER_FREE(vals);
    if (rc) proper_dtmc_free(out);
    return rc;
}

PROPER_API int proper_vlmc_to_dtmc(const proper_vlmc *m, proper_dtmc *out, proper_error *err) {
    proper_dtmc d;
    int rc;
    proper_dtmc_init(&d);
    if ((rc = proper__vlmc_dtmc_new(m, &d, err))) return rc;
    proper_dtmc_free(out);
    *out = d;
    return PROPER_OK;
}

PROPER_API int proper_vlmc_steps_pmf(const proper_vlmc *m, double eps, size_t min_len, size_t max_steps,
                                     double **pmf, size_t *len, double *tail, proper_error *err) {
    double *cur = NULL, *nxt = NULL, *out = NULL, remaining = 1.0;
    uint32_t *act = NULL, *act2 = NULL;
    unsigned char *mark = NULL;
    size_t n_act = 1, n_out = 0, cap_out = 0, t = 0;
    int rc = PROPER_OK;
    *pmf = NULL;
    *len = 0;
    if (tail) *tail = 0.0;
    if (!m->row) return proper_error_set(err, PROPER_ESTATE, NULL, 0, 0, "no Markov hull: call proper_vlmc_hull first");
    if (!(eps > 0.0)) eps = PROPER_VLMC_STEPS_EPS;
    if (!max_steps) max_steps = PROPER_VLMC_MAX_STEPS;
    cur = (double *)proper_calloc(m->n_states, sizeof *cur);
    nxt = (double *)proper_calloc(m->n_states, sizeof *nxt);
    act = (uint32_t *)proper_calloc(m->n_states, sizeof *act);
    act2 = (uint32_t *)proper_calloc(m->n_states, sizeof *act2);
    mark = (unsigned char *)proper_calloc(m->n_states, 1);
    if (!cur || !nxt || !act || !act2 || !mark) { rc = proper__vlmc_oom(err); goto done; }
    /* mass vector after t locations: only states holding mass are visited */
    cur[0] = 1.0;
    act[0] = 0;
    for (;;) {
        double end_mass = 0.0;
        size_t n2 = 0, i;
        for (i = 0; i < n_act; i++) {
            uint32_t s = act[i];
            double v = cur[s];
            uint64_t e;
            cur[s] = 0.0;
            for (e = m->row[s]; e < m->row[s + 1]; e++) {
                uint32_t d = m->col[e];
                double w = v * m->prob[e];
                if (d == m->end_state) {
                    end_mass += w;
                } else {
                    if (!mark[d]) { mark[d] = 1; act2[n2++] = d; }
                    nxt[d] += w;
                }
            }
        }
        if (PROPER_PUSH(out, n_out, cap_out, end_mass)) { rc = proper__vlmc_oom(err); goto done; }
        remaining = 0.0;
        for (i = 0; i < n2; i++) { remaining += nxt[act2[i]]; mark[act2[i]] = 0; }
        { double *tmp = cur; cur = nxt; nxt = tmp; }
        { uint32_t *tmp = act; act = act2; act2 = tmp; }
        n_act = n2;
        t++;
        if (n_act == 0 || (remaining < eps && t > min_len) || t > max_steps) break;
    }
    *pmf = out;
    *len = n_out;
    if (tail) *tail = n_act ? remaining : 0.0;
    out = NULL;
done:
    PROPER_FREE(cur);
    PROPER_FREE(nxt);
    PROPER_FREE(act);
    PROPER_FREE(act2);
    PROPER_FREE(mark);
    PROPER_FREE(out);
    return rc;
}

PROPER_API int proper_vlmc_sample(const proper_vlmc *m, proper_rng *rng, uint32_t **run, size_t *len, size_t *cap,
                                  size_t max_len, proper_error *err) {
    uint32_t s = 0;
    *len = 0;
    if (!m->row) return proper_error_set(err, PROPER_ESTATE, NULL, 0, 0, "no Markov hull: call proper_vlmc_hull first");
    if (!max_len) max_len = PROPER_VLMC_MAX_STEPS;
    for (;;) {
        double u = proper_rng_uniform(rng);
        uint64_t e = m->row[s], last = m->row[s + 1] - 1;
        uint32_t d;
        for (; e < last; e++) {
            if (u < m->prob[e]) break;
            u -= m->prob[e];
        }
        d = m->col[e];
        if (d == m->end_state) return PROPER_OK;
        if (*len >= max_len)
            return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "a sampled run exceeds %lu locations",
                                    (unsigned long)max_len);
        if (proper_reserve(run, cap, *len + 1, sizeof **run)) return proper__vlmc_oom(err);
        (*run)[(*len)++] = m->emit[e];
        s = d;
    }
}

PROPER_API int proper_vlmc_compare_steps(const double *e, size_t ne, const double *v, size_t nv, double v_tail,
                                         uint64_t runs, double *kl, double *loglik, proper_error *err) {
    size_t n = (ne > nv ? ne : nv) + 1, i;
    double *p = (double *)proper_calloc(n, sizeof *p), *q = (double *)proper_calloc(n, sizeof *q), ll = 0.0, d;
    int rc;
    if (!p || !q) { PROPER_FREE(p); PROPER_FREE(q); return proper__vlmc_oom(err); }
    for (i = 0; i < ne; i++) p[i] = e[i];
    for (i = 0; i < nv; i++) q[i] = v[i];
    q[n - 1] += v_tail > 0.0 ? v_tail : 0.0; /* keeps V a distribution; E has no mass there */
    rc = proper_stats_kl_divergence(p, q, n, &d, err);
    if (kl) *kl = d;
    for (i = 0; i < ne && rc == PROPER_OK; i++) {
        if (e[i] <= 0.0) continue;
        if (i >= nv || v[i] <= 0.0) { ll = -INFINITY; break; }
        ll += e[i] * (double)runs * log(v[i]);
    }
    if (loglik) *loglik = ll;
    PROPER_FREE(p);
    PROPER_FREE(q);
    return rc;
}

#endif /* PROPER_VLMC_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
