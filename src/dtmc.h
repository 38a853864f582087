/* dtmc.h — sparse discrete-time Markov chains: model, builder, solvers,
 * PRISM explicit import/export, Storm DRN, flat PRISM-language and DOT export.
 *
 * The PRISM language (parser, exploration, property files) is in prism.h,
 * built on this module.
 *
 * ---- The model -----------------------------------------------------------
 * A proper_dtmc stores the transition matrix in compressed sparse rows:
 * the transitions of state s are col[row[s] .. row[s+1]-1] with
 * probabilities prob[...]. Every state has at least one transition and every
 * row sums to 1 within the tolerance it was checked with (see the builder).
 * Memory: 8 bytes per state for row offsets plus 12 bytes per transition
 * (uint32_t column + double probability), plus labels (1 bit per state per
 * label) and rewards (8 bytes per state / per transition when present).
 *
 * Labels are named bitsets over states. Two labels are predefined as PRISM
 * defines them and are not stored in `labels`:
 *   "init"     the initial state (or the support of the initial distribution),
 *   "deadlock" the states that had no transitions and were given a self-loop
 *              (builder option fix_deadlocks, like PRISM's -fixdl).
 * proper_dtmc_label_get resolves both and every stored label.
 *
 * Reward structures have a name ("" for an unnamed one), optional state
 * rewards (one double per state) and optional transition rewards (one double
 * per transition, aligned with col/prob). Missing arrays mean zero.
 *
 * Parameters: a numeric proper_dtmc holds numbers only. A parametric builder
 * (prism.h for undefined `const`s, synth.h for PROPER's p1..pn) resolves each
 * parameter to a value before it calls the builder, and records the names and
 * values used with proper_dtmc_set_params so that exports can say which
 * instantiation they show (DRN comment, PRISM-language constants).
 *
 * Variable valuations (optional): names of the model's variables and one int
 * per state and variable, used for the .sta export and DOT/flat exports.
 *
 * Initial state: `init` (default 0). An initial distribution `init_dist`
 * (n_states doubles summing to 1, set with proper_dtmc_set_init_dist) takes
 * precedence when present; proper_dtmc_value_at_init weights a result vector
 * by it.
 *
 * ---- Solvers -------------------------------------------------------------
 * Every solver fills a caller-provided vector x of n_states doubles with the
 * value of the property in each state; proper_dtmc_value_at_init reads the
 * value for the initial state/distribution. Sets of states are
 * proper_bitset; a NULL phi1 means "true".
 *
 * Unbounded properties are solved as PRISM's explicit engine defines them,
 * with graph precomputation (prob0/prob1) first, then the strongly connected
 * components of the remaining states in reverse topological order: a
 * component of one state without a self-loop is solved exactly by
 * back-substitution; a cyclic component of at most dense_max states is
 * solved by dense LU with partial pivoting; a larger one by Gauss–Seidel
 * with the stopping rule of proper_dtmc_solve_opts. The components a
 * component depends on are solved before it, so each is solved once.
 */
#ifndef PROPER_DTMC_H
#define PROPER_DTMC_H

#include "core.h"
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Tolerances and limits (all overridable before including) ---------- */

/* Rows must sum to 1 within this absolute tolerance (builder, importers).
 * PRISM accepts 1e-5 when it checks a model's probabilities; 1e-6 still
 * accepts files printed with 6 significant digits while catching real
 * mistakes. The builder field row_sum_tol overrides it per model. */
#ifndef PROPER_DTMC_ROW_SUM_TOL
#define PROPER_DTMC_ROW_SUM_TOL 1e-6
#endif

/* Relative precision of the iterative solver for cyclic components: the
 * computed values differ from the exact solution of the linear system by at
 * most this, relative to each value (see proper_dtmc_solve_opts). */
#ifndef PROPER_DTMC_REL_PRECISION
#define PROPER_DTMC_REL_PRECISION 1e-12
#endif

/* Cyclic components with at most this many states are solved by dense LU. */
#ifndef PROPER_DTMC_DENSE_MAX
#define PROPER_DTMC_DENSE_MAX 64
#endif

/* Gauss–Seidel sweeps allowed per component before PROPER_ENOCONV. */
#ifndef PROPER_DTMC_MAX_SWEEPS
#define PROPER_DTMC_MAX_SWEEPS 1000000
#endif

/* Largest number of states a model (or an imported file) may declare. */
#ifndef PROPER_DTMC_MAX_STATES
#define PROPER_DTMC_MAX_STATES 0xFFFFFFF0u
#endif

/* ---- Bitsets over states ------------------------------------------------ */

typedef struct proper_bitset {
    size_t n;        /* number of bits */
    uint64_t *words; /* (n + 63) / 64 words; bits past n are always 0 */
} proper_bitset;

/* All bits clear. b->words is NULL when n == 0. */
PROPER_API int proper_bitset_init(proper_bitset *b, size_t n);
PROPER_API void proper_bitset_free(proper_bitset *b);
PROPER_API int proper_bitset_copy(proper_bitset *dst, const proper_bitset *src);
PROPER_API void proper_bitset_set(proper_bitset *b, size_t i);
PROPER_API void proper_bitset_clear(proper_bitset *b, size_t i);
PROPER_API int proper_bitset_get(const proper_bitset *b, size_t i);
PROPER_API void proper_bitset_fill(proper_bitset *b, int value);
PROPER_API size_t proper_bitset_count(const proper_bitset *b);
/* In place: a = a & b, a = a | b, a = !a (both of the same size n). */
PROPER_API void proper_bitset_and(proper_bitset *a, const proper_bitset *b);
PROPER_API void proper_bitset_or(proper_bitset *a, const proper_bitset *b);
PROPER_API void proper_bitset_not(proper_bitset *a);
/* Fast inline test for hot loops: no bounds check. */
#define PROPER_BITSET_GET(b, i) ((int)(((b)->words[(size_t)(i) >> 6] >> ((size_t)(i) & 63)) & 1u))

/* ---- The model ---------------------------------------------------------- */

typedef struct proper_dtmc_label {
    char *name;
    proper_bitset states;
} proper_dtmc_label;

typedef struct proper_dtmc_reward {
    char *name;    /* "" for an unnamed reward structure */
    double *state; /* n_states values, or NULL (all zero) */
    double *trans; /* n_trans values aligned with col/prob, or NULL */
} proper_dtmc_reward;

typedef struct proper_dtmc {
    uint32_t n_states;
    uint64_t n_trans;
    uint64_t *row;  /* n_states + 1 offsets */
    uint32_t *col;  /* n_trans destinations */
    double *prob;   /* n_trans probabilities */

    uint32_t init;      /* initial state */
    double *init_dist;  /* NULL, or n_states probabilities (overrides init) */
    proper_bitset deadlock; /* states given a self-loop by fix_deadlocks */

    size_t n_labels;
    proper_dtmc_label *labels;
    size_t n_rewards;
    proper_dtmc_reward *rewards;

    size_t n_params;
    char **param_names;  /* parameters this model instantiates */
    double *param_values;

    size_t n_vars;
    char **var_names;    /* state variables, or none */
    unsigned char *var_is_bool; /* n_vars flags: print false/true */
    int32_t *vals;       /* n_states * n_vars values, row-major, or NULL */
} proper_dtmc;

/* Zero a model (valid to free). */
PROPER_API void proper_dtmc_init(proper_dtmc *m);
PROPER_API void proper_dtmc_free(proper_dtmc *m);

/* Labels. add_label copies name and bitset (bitset size must be n_states);
 * a second label of the same name is an error, as are "init"/"deadlock".
 * Returns the index in m->labels through *index (may be NULL). */
PROPER_API int proper_dtmc_add_label(proper_dtmc *m, const char *name, const proper_bitset *states,
                                     size_t *index, proper_error *err);
/* Index of a stored label, or -1. */
PROPER_API long proper_dtmc_find_label(const proper_dtmc *m, const char *name);
/* The states of label `name` ("init", "deadlock" or stored) into a fresh
 * bitset `out` (free with proper_bitset_free). PROPER_EUNDEFINED if unknown. */
PROPER_API int proper_dtmc_label_get(const proper_dtmc *m, const char *name, proper_bitset *out,
                                     proper_error *err);

/* Reward structures. add_reward creates an all-zero structure with the given
 * name (NULL or "" for unnamed; duplicate names are an error) and with state
 * and/or transition arrays as asked. add_state / add_trans ADD a value (PRISM
 * sums all items of a rewards block that apply); add_trans finds the
 * transition src->dst (PROPER_EINVAL if there is none). Values must be
 * finite; negative rewards are allowed in the model but rejected by the
 * reachability-reward solver, as in PRISM. */
PROPER_API int proper_dtmc_add_reward(proper_dtmc *m, const char *name, int with_state, int with_trans,
                                      size_t *index, proper_error *err);
PROPER_API long proper_dtmc_find_reward(const proper_dtmc *m, const char *name);
PROPER_API int proper_dtmc_reward_add_state(proper_dtmc *m, size_t r, uint32_t s, double value,
                                            proper_error *err);
PROPER_API int proper_dtmc_reward_add_trans(proper_dtmc *m, size_t r, uint32_t src, uint32_t dst,
                                            double value, proper_error *err);

/* Parameters: record the names and values used to instantiate the model. */
PROPER_API int proper_dtmc_set_params(proper_dtmc *m, const char *const *names, const double *values,
                                      size_t n, proper_error *err);
/* Variable valuations: copies names, flags (NULL = all int) and
 * n_states * n_vars values (row-major). */
PROPER_API int proper_dtmc_set_valuations(proper_dtmc *m, const char *const *names,
                                          const unsigned char *is_bool, size_t n_vars,
                                          const int32_t *vals, proper_error *err);
/* Initial distribution: n_states non-negative values summing to 1 within
 * PROPER_DTMC_ROW_SUM_TOL; NULL removes it. init becomes its first state. */
PROPER_API int proper_dtmc_set_init_dist(proper_dtmc *m, const double *dist, proper_error *err);

/* Deep copy. */
PROPER_API int proper_dtmc_copy(proper_dtmc *dst, const proper_dtmc *src, proper_error *err);

/* Bytes held by the model (arrays only), for memory reports. */
PROPER_API size_t proper_dtmc_memory(const proper_dtmc *m);

/* ---- Builder -------------------------------------------------------------
 * Rows are added in state order: the k-th row added is state k (k from 0).
 * Destinations may name states whose rows come later. finish() closes the
 * model; the number of states is max(rows added, largest destination + 1,
 * n_states argument); states without a row are deadlocks.
 *
 * Checks at the boundary (each once): probabilities finite and >= 0
 * (zero-probability entries are dropped), destinations < PROPER_DTMC_MAX_STATES,
 * each row summing to 1 within row_sum_tol (PROPER_EPROB naming the state
 * and the sum). Repeated destinations within a row are merged by adding
 * their probabilities (as PRISM does for updates reaching the same state).
 * Rows are stored exactly as given (no renormalisation). A deadlock state is
 * an error (PROPER_EPROB) unless fix_deadlocks is set: then it gets a
 * self-loop of probability 1 and joins the "deadlock" label.
 *
 *     proper_dtmc_builder b;
 *     proper_dtmc m;
 *     uint32_t dst[2] = {1, 2};
 *     double p[2] = {0.5, 0.5};
 *     proper_dtmc_builder_init(&b);
 *     proper_dtmc_builder_add_row(&b, dst, p, 2, err);       // state 0
 *     ...
 *     proper_dtmc_builder_finish(&b, 0, &m, err);            // frees b
 */
typedef struct proper_dtmc_builder {
    double row_sum_tol; /* PROPER_DTMC_ROW_SUM_TOL after init; change before adding rows */
    int fix_deadlocks;  /* 0 after init */
    uint32_t init;      /* initial state, 0 after init */
    /* internal */
    uint32_t n_rows, max_dst;
    uint64_t *row;
    size_t row_cap;
    uint32_t *col;
    double *prob;
    size_t trans_cap;
    uint64_t n_trans;
    int open_src;       /* add_transition: a row is open */
    uint32_t open_row;  /* its state */
} proper_dtmc_builder;

PROPER_API void proper_dtmc_builder_init(proper_dtmc_builder *b);
/* Optional: reserve room for this many states and transitions. */
PROPER_API int proper_dtmc_builder_reserve(proper_dtmc_builder *b, size_t states, size_t trans,
                                           proper_error *err);
/* Add the row of the next state (state number b->n_rows). k may be 0 (a
 * deadlock). */
PROPER_API int proper_dtmc_builder_add_row(proper_dtmc_builder *b, const uint32_t *dst, const double *prob,
                                           size_t k, proper_error *err);
/* Add one transition; src must be >= the state of the last transition
 * added (rows of skipped states are empty). Mixing with add_row is allowed
 * as long as states stay in order. */
PROPER_API int proper_dtmc_builder_add_transition(proper_dtmc_builder *b, uint32_t src, uint32_t dst,
                                                  double prob, proper_error *err);
/* Close the model into *out (initialised here) and free the builder,
 * whether or not it succeeds. */
PROPER_API int proper_dtmc_builder_finish(proper_dtmc_builder *b, uint32_t n_states, proper_dtmc *out,
                                          proper_error *err);
PROPER_API void proper_dtmc_builder_free(proper_dtmc_builder *b);

/* ---- Graph algorithms --------------------------------------------------- */

/* prob0: states from which phi2 is reached (through phi1 states; phi1 NULL
 * = all) with probability 0. prob1: with probability 1. `out` is
 * initialised here. */
PROPER_API int proper_dtmc_prob0(const proper_dtmc *m, const proper_bitset *phi1, const proper_bitset *phi2,
                                 proper_bitset *out, proper_error *err);
PROPER_API int proper_dtmc_prob1(const proper_dtmc *m, const proper_bitset *phi1, const proper_bitset *phi2,
                                 proper_bitset *out, proper_error *err);

/* Strongly connected components (iterative Tarjan) of the subgraph induced
 * by `restrict_to` (NULL = all states; edges leaving it are ignored).
 * comp[s] receives the component number of s, numbered in reverse
 * topological order: every edge s->t inside the subgraph has
 * comp[t] <= comp[s], so solving components 0, 1, 2, ... in turn always
 * finds successors solved. States outside get UINT32_MAX. *n_comp receives
 * the number of components. */
PROPER_API int proper_dtmc_scc(const proper_dtmc *m, const proper_bitset *restrict_to, uint32_t *comp,
                               uint32_t *n_comp, proper_error *err);

/* Bottom strongly connected components: bscc[s] = index of the BSCC of s
 * (0..*n_bscc-1) or UINT32_MAX for transient states. */
PROPER_API int proper_dtmc_bscc(const proper_dtmc *m, uint32_t *bscc, uint32_t *n_bscc, proper_error *err);

/* ---- Solvers -------------------------------------------------------------*/

typedef struct proper_dtmc_solve_opts {
    /* Relative precision target for cyclic components solved iteratively.
     * Gauss–Seidel stops when a sweep changes every value by at most
     * rel_precision * |value| * (1 - r) where r is the observed contraction
     * of successive changes (an estimate of the spectral radius), so the
     * distance to the fixed point, change * r / (1 - r), stays below
     * rel_precision relative. */
    double rel_precision;
    unsigned long max_sweeps; /* per component; PROPER_ENOCONV beyond */
    uint32_t dense_max;       /* cyclic components up to this size: dense LU */
} proper_dtmc_solve_opts;

PROPER_API void proper_dtmc_solve_opts_default(proper_dtmc_solve_opts *o);

/* Statistics of the last solve, optional (pass NULL). */
typedef struct proper_dtmc_solve_stats {
    uint32_t n_components;   /* SCCs of the states solved */
    uint32_t n_cyclic;       /* of which cyclic */
    uint32_t largest;        /* states in the largest component */
    unsigned long sweeps;    /* Gauss–Seidel sweeps over all components */
    uint32_t n_dense;        /* components solved by dense LU */
} proper_dtmc_solve_stats;

/* P=? [ phi1 U phi2 ] (phi1 NULL: P=? [ F phi2 ]). */
PROPER_API int proper_dtmc_prob_until(const proper_dtmc *m, const proper_bitset *phi1, const proper_bitset *phi2,
                                      const proper_dtmc_solve_opts *opts, double *x,
                                      proper_dtmc_solve_stats *stats, proper_error *err);
/* P=? [ phi1 U<=k phi2 ] (phi1 NULL: F<=k), by k matrix-vector products. */
PROPER_API int proper_dtmc_prob_bounded_until(const proper_dtmc *m, const proper_bitset *phi1,
                                              const proper_bitset *phi2, unsigned long k, double *x,
                                              proper_error *err);
/* R{r}=? [ F phi ]: expected reward accumulated until phi is first reached
 * (state reward of each state left, plus the transition reward of each
 * transition taken; 0 in phi states); INFINITY in states that reach phi with
 * probability < 1 (PRISM semantics). Rewards must be >= 0. */
PROPER_API int proper_dtmc_reward_reach(const proper_dtmc *m, const proper_dtmc_reward *r,
                                        const proper_bitset *phi, const proper_dtmc_solve_opts *opts,
                                        double *x, proper_dtmc_solve_stats *stats, proper_error *err);
/* R{r}=? [ C<=k ]: expected reward over the first k steps. */
PROPER_API int proper_dtmc_reward_cumulative(const proper_dtmc *m, const proper_dtmc_reward *r, unsigned long k,
                                             double *x, proper_error *err);
/* R{r}=? [ I=k ]: expected state reward at step k (transition rewards are
 * not used, as in PRISM). */
PROPER_API int proper_dtmc_reward_instant(const proper_dtmc *m, const proper_dtmc_reward *r, unsigned long k,
                                          double *x, proper_error *err);
/* S=? [ phi ]: long-run probability of being in phi starting from each
 * state: sum over bottom SCCs B of P(reach B) * (stationary mass of phi in B). */
PROPER_API int proper_dtmc_steady(const proper_dtmc *m, const proper_bitset *phi,
                                  const proper_dtmc_solve_opts *opts, double *x, proper_error *err);
/* Long-run distribution from the initial state/distribution: pi[s] for every
 * state (0 for transient states). */
PROPER_API int proper_dtmc_steady_distribution(const proper_dtmc *m, const proper_dtmc_solve_opts *opts,
                                               double *pi, proper_error *err);
/* Value for the initial state, or the init_dist-weighted sum (a zero weight
 * never multiplies an infinity). */
PROPER_API double proper_dtmc_value_at_init(const proper_dtmc *m, const double *x);

/* ---- PRISM explicit import ----------------------------------------------
 * .tra: first line "STATES TRANSITIONS", then one line "src dst prob" per
 * transition (any order; rows are checked after reading). .lab: first line
 * `0="init" 1="deadlock" 2="name" ...`, then lines "state: id id ...".
 * .srew: "STATES NONZERO" then "state reward". .trew: "STATES TRANSITIONS"
 * then "src dst reward". Lines starting with '#' (comments PRISM writes in
 * reward files) and blank lines are skipped. Errors give file:line:col.
 * The "init" label of a .lab sets m->init (more than one initial state is
 * PROPER_EUNSUPPORTED); "deadlock" sets m->deadlock; others become labels. */
typedef struct proper_dtmc_import_opts {
    double row_sum_tol;   /* PROPER_DTMC_ROW_SUM_TOL */
    int fix_deadlocks;    /* 0: a state without transitions is an error */
    uint32_t max_states;  /* PROPER_DTMC_MAX_STATES: larger headers are PROPER_ELIMIT */
} proper_dtmc_import_opts;

PROPER_API void proper_dtmc_import_opts_default(proper_dtmc_import_opts *o);

/* Read a .tra file into a fresh model *m (opts NULL = defaults). */
PROPER_API int proper_dtmc_read_tra(proper_dtmc *m, const char *path, const proper_dtmc_import_opts *opts,
                                    proper_error *err);
/* The same from text in memory; `name` is used in error messages. */
PROPER_API int proper_dtmc_parse_tra(proper_dtmc *m, const char *text, size_t len, const char *name,
                                     const proper_dtmc_import_opts *opts, proper_error *err);
/* Read labels into an existing model (state numbers checked). */
PROPER_API int proper_dtmc_read_lab(proper_dtmc *m, const char *path, proper_error *err);
PROPER_API int proper_dtmc_parse_lab(proper_dtmc *m, const char *text, size_t len, const char *name,
                                     proper_error *err);
/* Read state / transition rewards into the reward structure `reward_name`
 * (created if absent; NULL or "" = unnamed). Transition rewards must name
 * existing transitions. */
PROPER_API int proper_dtmc_read_srew(proper_dtmc *m, const char *path, const char *reward_name,
                                     proper_error *err);
PROPER_API int proper_dtmc_parse_srew(proper_dtmc *m, const char *text, size_t len, const char *name,
                                      const char *reward_name, proper_error *err);
PROPER_API int proper_dtmc_read_trew(proper_dtmc *m, const char *path, const char *reward_name,
                                     proper_error *err);
PROPER_API int proper_dtmc_parse_trew(proper_dtmc *m, const char *text, size_t len, const char *name,
                                      const char *reward_name, proper_error *err);

/* ---- Export --------------------------------------------------------------
 * Numbers are printed with %.17g (round-trip exact). The FILE* versions
 * write to an open stream; PROPER_EIO if a write fails. */
PROPER_API int proper_dtmc_write_tra(const proper_dtmc *m, FILE *f, proper_error *err);
PROPER_API int proper_dtmc_write_lab(const proper_dtmc *m, FILE *f, proper_error *err);
/* Reward structure r: .srew (state rewards, nonzero entries) and .trew. */
PROPER_API int proper_dtmc_write_srew(const proper_dtmc *m, size_t r, FILE *f, proper_error *err);
PROPER_API int proper_dtmc_write_trew(const proper_dtmc *m, size_t r, FILE *f, proper_error *err);
/* .sta: "(x,y,...)" header then "state:(v1,v2,...)"; PROPER_ESTATE without
 * valuations. */
PROPER_API int proper_dtmc_write_sta(const proper_dtmc *m, FILE *f, proper_error *err);
/* Write PREFIX.tra, PREFIX.lab, PREFIX.sta (if valuations), and for reward
 * structure i PREFIX.srew / PREFIX.trew when there is one structure, or
 * PREFIX<i+1>.srew / .trew when there are several (PRISM's numbering). */
PROPER_API int proper_dtmc_export_explicit(const proper_dtmc *m, const char *prefix, proper_error *err);
/* Storm DRN (DTMC, one action per state, rewards and labels per state;
 * transition rewards become their expected value per state, which leaves
 * every R[F], R[C<=k] result unchanged). */
PROPER_API int proper_dtmc_write_drn(const proper_dtmc *m, FILE *f, proper_error *err);
/* Flat PRISM language: one module, variable s in [0..n-1], one command per
 * state, labels as disjunctions of s=..., rewards blocks (transition rewards
 * as their expected value per command). PROPER_EUNSUPPORTED with an initial
 * distribution. */
PROPER_API int proper_dtmc_write_prism(const proper_dtmc *m, FILE *f, proper_error *err);
/* Graphviz DOT: states (with valuations and labels) and edges with
 * probabilities. */
PROPER_API int proper_dtmc_write_dot(const proper_dtmc *m, FILE *f, proper_error *err);
/* Path versions of the writers above: open path for writing, write, close. */
PROPER_API int proper_dtmc_export_drn(const proper_dtmc *m, const char *path, proper_error *err);
PROPER_API int proper_dtmc_export_prism(const proper_dtmc *m, const char *path, proper_error *err);
PROPER_API int proper_dtmc_export_dot(const proper_dtmc *m, const char *path, proper_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_DTMC_H */
