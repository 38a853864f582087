/* dtmc.h — sparse discrete-time Markov chains: model, builder, solvers,
 * PRISM explicit import/export, Storm DRN, flat PRISM-language and DOT export.
 *
 * The PRISM language (parser, exploration, property files) is in prism.h,
 * built on this module.
 *
 * ---- The model -----------------------------------------------------------
 * A proper_dtmc stores the transition matrix in compressed sparse rows:
 * the transitions of state s are col[row[s] .. row[s+1]-1] with
 * probabilities prob[...], sorted by destination without repeats or zero
 * probabilities. Every state has at least one transition and every row sums
 * to 1 within the tolerance it was checked with (see the builder). Code that
 * fills a proper_dtmc by hand must keep these invariants.
 * Memory: 8 bytes per state for row offsets plus 12 bytes per transition
 * (uint32_t column + double probability), plus labels (1 bit per state per
 * label) and rewards (8 bytes per state / per transition when present).
 *
 * Model kind: `kind` is PROPER_DTMC_KIND_DTMC (0, what proper_dtmc_init
 * gives) or PROPER_DTMC_KIND_CTMC. In a CTMC the stored values are rates
 * R(s,t) (finite, > 0; rows need not sum to 1) and the exit rate of s is
 * E(s) = sum_t R(s,t), self-loops included as PRISM counts them; its
 * embedded DTMC has P(s,t) = R(s,t) / E(s). The builder option `rates`
 * and the import option `ctmc` make CTMCs; see "CTMCs" under Solvers.
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
 * Parametric rows (proper_dtmc_set_param_rows) go one step further: row
 * `state` of parameter k has two successors, `taken` with probability p_k
 * and `not_taken` with 1 - p_k, and the stored numbers are one point of the
 * parameter space. proper_dtmc_param_instantiate makes the plain chain at
 * any other point, and proper_dtmc_param_reward_range gives the exact
 * minimum and maximum of an expected reward over a box of parameters (see
 * "Parametric rows" under Solvers). synth.h builds PROPER's models so.
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
 * component of one state is solved exactly (one division, with its
 * self-loop if any); a cyclic component of at most dense_max states by
 * dense LU with partial pivoting; a larger one whose coefficients form a
 * narrow band in state order (chains such as birth-death or gambler's ruin)
 * by banded elimination; both direct methods refine once with a residual in
 * long double, and when their certificate then misses the precision, up
 * to 4 more times with a residual in twice the working precision (Dot2),
 * certified the same way. Any other component is solved by Gauss–Seidel sweeps in
 * decreasing state order with the stopping rule of proper_dtmc_solve_opts;
 * one of at most direct_max states that the sweeps do not settle within
 * the work of a dense LU (sz^3 / 3 multiply-adds) is then solved by dense
 * LU. Sweeps whose changes shrink too slowly to reach the precision within
 * max_sweeps (projected at 8192, 16384, 32768, ... sweeps; two check points
 * in a row) stop early: the component then falls back as above, or the
 * solve is refused naming the rate per sweep and the sweeps it would need.
 * A directly solved component is accepted when its proven bound (below)
 * is within PROPER_DTMC_FLOOR_FACTOR x rel_precision of its largest value,
 * as a Gauss–Seidel one is; otherwise the solve fails (PROPER_ENOCONV)
 * naming the bound it could prove, or saying that none could be proven
 * (expected stays far beyond 1e15 steps), rather than return a number no
 * bound covers.
 * The components a component depends on are solved before it, so each is
 * solved once, and a chain of loops never needs global iteration.
 *
 * Guaranteed bounds: every value solved by prob_until and reward_reach
 * carries a proven bound on its error, reported as
 * proper_dtmc_solve_stats.max_error (the largest over the states solved).
 * For a component with M = I - A (A: its transitions inside), values y,
 * residual r of the model's own equations (accumulated in long double, its
 * rounding added) and inherited errors of at most E_out in the values it
 * leaves to: any w with M w > 0 gives
 *   |exact - y| <= w max_i |r_i| / (M w)_i  +  E_out (1 + mu w)
 * because M^{-1} >= 0 (mu >= 0 covers rows summing to more than 1 by
 * rounding; it is 0 for rows summing to at most 1, and then an inherited
 * error never grows). For Gauss–Seidel w is swept alongside (M w = 1: the
 * expected steps before leaving), and the sweeps stop when the first term,
 * not an estimate, is within rel_precision of the component's largest
 * value. That term cannot fall below the rounding of the residual times
 * the stay (u |y| w: 8.6e-9 relative for PRISM's fms example at n = 6,
 * whose true error was 5.5e-13), so at that floor the solution is refined:
 * a correction delta ~ M^{-1} r swept from a residual in twice the working
 * precision and certified as |delta| + w max_i |r - M delta|_i / (M w)_i
 * (proper__dtmc_gs_refine); for dense and banded components w = M^{-1} 1 from the factors,
 * so their bound shows the rounding of the direct solve; a single state's
 * bound is the rounding of its one division plus what it inherits. Along a
 * chain of components the bounds add up, and a value can be small beside
 * its component's largest: the bound at the initial state is reported
 * (init_error) and, when it is above rel_precision of the value there, the
 * solve is repeated once with rel_precision tightened by the missing
 * factor; what the rounding of doubles still leaves above it (tiny values
 * in components of long expected stays) stands in init_error, never hidden.
 * The bounds are of the linear systems built from the
 * stored model: a CTMC's embedded chain is itself rounded once from the
 * rates. proper_dtmc_param_reward_range reports the bounds of the solves
 * of its two extreme corners.
 *
 * The model's own rounding: a model whose exact probabilities were
 * rounded to the stored doubles (P = R/E of a CTMC, decimal literals) can
 * say so with opts.model_rel_error = delta, when every stored probability
 * (self-loops included) is within delta, relative, of the exact one. The
 * certificates then bound the error against the exact model: with
 * dl = delta / (1 - delta), the residual grows by dl (|b| + sum |a~ y|),
 * M w shrinks by dl sum |a~| w and 1 - (row sum) by dl sum |a~|
 * (proper__dtmc_model_row); a single state's division charges c and
 * d = 1 - a_ss the same; GTH's relative bound grows by 4 (n-1) delta (the
 * tree theorem, every rate scaled within 1 +- delta); the steady
 * distribution's absorption probabilities by dl. The bounds grow to about
 * delta times the expected stays, so rel_precision must allow them:
 * a finer one is refused as any unprovable precision is. For a CTMC the
 * solvers work on its embedded or uniformised chain as stored, and delta
 * must cover that chain's entries (its own rounding of R/E or R/q
 * included). The step- and time-bounded solvers do not take it.
 *
 * What the other solvers carry (they take no stats; no bound is reported,
 * except by the _stats variants named below):
 *  - step-bounded (U<=k, F<=k, I=k, C<=k; proper_dtmc_prob_bounded_until_stats,
 *    proper_dtmc_reward_instant_stats and proper_dtmc_reward_cumulative_stats
 *    report the a priori bound below): k exact-in-exact-arithmetic
 *    matrix-vector products, fewer only when an iterate repeats bit for
 *    bit (then the skipped steps are exact) or when a proven bound pins
 *    the rest within PROPER_DTMC_REL_PRECISION (see
 *    proper_dtmc_prob_bounded_until). The rounding of the products is
 *    not tracked; a priori, with d the longest row, u = 2^-53 and rows
 *    summing to at most 1 + t (the stored doubles of each row summed
 *    exactly, so t = 0 when every row's doubles add up to 1 exactly),
 *    each product adds at most d u (1 + t) max|x| and passes earlier
 *    errors on grown by at most 1 + t, so after j products
 *    |error| <= j d u (1 + t)^j max|x|: 1e-9 relative for d = 10 and
 *    j = 10^6 with t = 0; C<=k adds the rounding of its step rewards and
 *    of the sum of its k step values (proper__dtmc_cumul_bound).
 *  - steady state: proper_dtmc_steady_stats, _reward_steady_stats and
 *    _steady_distribution_stats carry the stationary solves' proven bounds
 *    through the normalisation and the BSCC reachability (see there).
 *    A bottom SCC of up to gth_max states (PROPER_DTMC_GTH_MAX) whose a
 *    priori GTH bound meets rel_precision, and any of up to direct_max
 *    states that the other route cannot bound, is solved by GTH
 *    elimination in long double, whose bound is entrywise RELATIVE
 *    (about (4/3) n^3 u for n states, u = 2^-64: 5.9e-13 for 201 states,
 *    7.8e-11 for 1024; "Stationary distributions by GTH" derives it):
 *    a long-run probability of 1e-200 keeps its digits, and a birth-death
 *    chain whose stationary probabilities span hundreds of orders of
 *    magnitude (PRISM's cell example at N = 200) gets an answer. A
 *    long-run value (S=?, R=?[S]) whose bound from the expected-visits
 *    route is not within rel_precision of itself (a sum of tiny
 *    stationary probabilities) is solved again with GTH on the bottom
 *    SCCs of up to direct_max states, and that answer is kept when it
 *    proves the means better. The expected-visits route fixes a
 *    reference state of large stationary mass, guessed by 64 steps of P
 *    and 64 Gauss-Seidel sweeps of the stationary equations (the sweeps
 *    find the heavy states of stiff chains that the steps do not reach;
 *    proper__dtmc_reference_states).
 *  - CTMC time bounds (U<=t, U[t1,t2], U>=t, F<=t, C<=t, I=t, the transient
 *    distribution): proper_dtmc_ctmc_bounded_until_stats, _transient_stats,
 *    _reward_cumulative_stats and _reward_instant_stats report the proven
 *    bound of "Error bounds of uniformisation" (under CTMCs).
 *
 * ---- Output parameters -------------------------------------------------------
 * This module follows the project's contract: a function that produces a
 * model or a bit set (proper_dtmc_builder_finish, _read_tra, _parse_tra,
 * _copy, _label_get, _prob0, _prob1) writes it through an output parameter
 * that the caller has initialised (proper_dtmc_init, proper_bitset_init) or
 * that holds an earlier result. On success the old contents are released
 * and replaced; on failure the output is left unchanged and nothing leaks.
 * Readers that add to a model (.lab, .srew, .trew) leave it unchanged on
 * failure. Writers are proper_dtmc_write_<format>(model, FILE *, err).
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

/* Relative precision of the iterative solver for large cyclic components:
 * a proven bound on the distance to the exact solution of the component's
 * linear system, relative to the component's largest value (see
 * "Guaranteed bounds" and proper_dtmc_solve_opts). */
#ifndef PROPER_DTMC_REL_PRECISION
#define PROPER_DTMC_REL_PRECISION 1e-10
#endif

/* When Gauss–Seidel reaches the rounding floor of doubles before its
 * certificate reaches rel_precision, a proven bound within this factor of
 * rel_precision is accepted (and reported in max_error); a larger one
 * fails the solve (PROPER_ENOCONV, naming the bound proven). */
#ifndef PROPER_DTMC_FLOOR_FACTOR
#define PROPER_DTMC_FLOOR_FACTOR 100.0
#endif

/* Cyclic components with at most this many states are solved by dense LU. */
#ifndef PROPER_DTMC_DENSE_MAX
#define PROPER_DTMC_DENSE_MAX 256
#endif

/* Cyclic components of at most this many states that Gauss–Seidel does
 * not settle within about the work of a dense LU (sz^3 / 3 multiply-adds:
 * a sweep costs its transitions) are solved by dense LU instead: a
 * component whose expected stay is far beyond its size (a gambler's ruin
 * whose losses fall back to the start of a long run of wins) needs more
 * sweeps than any budget allows. 1024 states factor in 0.13 s of CPU
 * (-O2, this machine). */
#ifndef PROPER_DTMC_DIRECT_MAX
#define PROPER_DTMC_DIRECT_MAX 1024
#endif

/* Bottom SCCs of up to this many states get their stationary distribution
 * by GTH elimination in long double when its a priori entrywise relative
 * bound is within rel_precision (up to about 240 states for 1e-12, 256
 * for 1e-10); see "Stationary distributions by GTH". 256 states take about
 * 20 ms (this machine). */
#ifndef PROPER_DTMC_GTH_MAX
#define PROPER_DTMC_GTH_MAX 256
#endif

/* Larger cyclic components whose coefficient band (in the order Tarjan
 * lists them) is at most this wide are solved by banded elimination; a
 * chain of N states (a birth-death or gambler's-ruin chain) has width 2 and
 * is solved in O(N), where iteration needs O(N^2) sweeps. */
#ifndef PROPER_DTMC_BAND_MAX
#define PROPER_DTMC_BAND_MAX 64
#endif

/* Gauss–Seidel sweeps allowed per component before PROPER_ENOCONV. */
#ifndef PROPER_DTMC_MAX_SWEEPS
#define PROPER_DTMC_MAX_SWEEPS 1000000
#endif

/* Bounded properties (F<=k, U<=k, C<=k, I=k) iterate a deterministic map
 * k times; when an iterate repeats bit for bit after p steps (p = 1: a fixed
 * point, the vector no longer changes; p > 1: a periodic chain), every later
 * iterate is known and the rest of the k steps is skipped exactly. Periods
 * up to this many steps are found by hashing the iterates; a longer period
 * of C<=k and I=k (a ring of 1000 states) is taken from the graph (the
 * lcm of the bottom SCCs' periods) and checked directly. */
#ifndef PROPER_DTMC_CYCLE_MAX
#define PROPER_DTMC_CYCLE_MAX 256
#endif

/* CTMC transient analysis: the Poisson probability mass that uniformisation
 * may leave out (Fox-Glynn truncation), per time-bounded solve. */
#ifndef PROPER_DTMC_TRANSIENT_ACCURACY
#define PROPER_DTMC_TRANSIENT_ACCURACY 1e-12
#endif

/* Uniformisation needs about q t steps (q: the largest exit rate); beyond
 * this many steps, or beyond PROPER_DTMC_MAX_STEP_WORK's worth of them, a
 * time-bounded solve is refused (PROPER_ELIMIT) instead of running for
 * hours, unless the iterates settle first (see "Transient analysis"). */
#ifndef PROPER_DTMC_MAX_POISSON_STEPS
#define PROPER_DTMC_MAX_POISSON_STEPS 1000000000UL
#endif

/* Bounded iterations that have not repeated after this many steps, with
 * at least as many steps still to go, start checking (at intervals growing
 * by 1/16, so the O(n) checks cost a small fraction of the steps) whether a proven bound already pins the result within
 * PROPER_DTMC_REL_PRECISION; see proper_dtmc_prob_bounded_until. */
#ifndef PROPER_DTMC_BOUND_CHECK_FROM
#define PROPER_DTMC_BOUND_CHECK_FROM 4096UL
#endif

/* Step-bounded iterations (U<=k, I=k, C<=k, their interval forms, and the
 * step windows of LTL) whose iterates neither repeat nor settle are
 * refused (PROPER_ELIMIT) once they have spent this many multiply-adds
 * (steps times transitions plus states; a CTMC's uniformisation counts
 * transitions plus two per state plus 16 a step), instead of running for hours:
 * F<=1e9 of an event with probability 1e-17 per step settles only after
 * about 1e17 steps. See proper_dtmc_max_steps. */
#ifndef PROPER_DTMC_MAX_STEP_WORK
#define PROPER_DTMC_MAX_STEP_WORK 1e11
#endif

/* Policy iteration over the corners of a parameter box
 * (proper_dtmc_param_reward_range): a row moves to its other corner only
 * when that changes its value by more than this, relative to the values
 * involved; and at most this many improvement rounds are run. */
#ifndef PROPER_DTMC_PARAM_TIE
#define PROPER_DTMC_PARAM_TIE 1e-12
#endif
#ifndef PROPER_DTMC_PARAM_MAX_ITER
#define PROPER_DTMC_PARAM_MAX_ITER 10000UL
#endif

/* Largest number of states a model (or an imported file) may declare. */
#ifndef PROPER_DTMC_MAX_STATES
#define PROPER_DTMC_MAX_STATES 0xFFFFFFF0u
#endif

/* ---- The model ---------------------------------------------------------- */

#define PROPER_DTMC_KIND_DTMC 0 /* prob[] holds probabilities, rows sum to 1 */
#define PROPER_DTMC_KIND_CTMC 1 /* prob[] holds rates */

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
    double *prob;   /* n_trans probabilities (a CTMC: rates) */
    int kind;       /* PROPER_DTMC_KIND_DTMC or PROPER_DTMC_KIND_CTMC */

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
    /* parametric rows (proper_dtmc_set_param_rows), or 0 and NULL: row k of
     * param_rows is {state, taken, not_taken} of parameter k, whose name
     * and recorded value are param_names[k] and param_values[k] */
    size_t n_param_rows;
    uint32_t (*param_rows)[3];

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
/* The states of label `name` ("init", "deadlock" or stored) into the
 * bitset `out` (an output: see "Output parameters"). PROPER_EUNDEFINED if
 * unknown. */
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

/* Parameters: record the names and values used to instantiate the model.
 * On a model with parametric rows, n must be n_param_rows (the names and
 * values are then those of the rows' parameters). */
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
    int rates;          /* 0 after init; 1: the values are rates of a CTMC (finite,
                         * >= 0, rows not checked against 1) and finish makes a
                         * PROPER_DTMC_KIND_CTMC model; a fixed deadlock gets a
                         * self-loop of rate 1 (as PRISM's -fixdl) */
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
    int has_dst;        /* max_dst is valid */
} proper_dtmc_builder;

PROPER_API void proper_dtmc_builder_init(proper_dtmc_builder *b);
/* Optional: reserve room for this many states and transitions. */
PROPER_API int proper_dtmc_builder_reserve(proper_dtmc_builder *b, size_t states, size_t trans,
                                           proper_error *err);
/* Add the row of the next state (state number b->n_rows). k may be 0 (a
 * deadlock). A rejected row (bad probability or sum) leaves the builder as
 * it was. */
PROPER_API int proper_dtmc_builder_add_row(proper_dtmc_builder *b, const uint32_t *dst, const double *prob,
                                           size_t k, proper_error *err);
/* Add one transition; src must be >= the state of the last transition
 * added (rows of skipped states are empty). Mixing with add_row is allowed
 * as long as states stay in order. */
PROPER_API int proper_dtmc_builder_add_transition(proper_dtmc_builder *b, uint32_t src, uint32_t dst,
                                                  double prob, proper_error *err);
/* Close the model into *out (an output: see "Output parameters") and free
 * the builder, whether or not it succeeds. */
PROPER_API int proper_dtmc_builder_finish(proper_dtmc_builder *b, uint32_t n_states, proper_dtmc *out,
                                          proper_error *err);
PROPER_API void proper_dtmc_builder_free(proper_dtmc_builder *b);

/* ---- Graph algorithms --------------------------------------------------- */

/* prob0: states from which phi2 is reached (through phi1 states; phi1 NULL
 * = all) with probability 0. prob1: with probability 1. `out` is an output
 * bitset (see "Output parameters"). */
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
    /* Precision of components solved by Gauss–Seidel: sweeps go on until
     * a certificate (see "Guaranteed bounds") proves every value of the
     * component within rel_precision times the component's largest value.
     * The sweeps are paced by an estimate (with d_k the largest change of
     * sweep k relative to the largest value and r the largest ratio
     * d_j / d_{j-1} over the last three sweeps, the tail d_k r / (1 - r));
     * the certificate, not the estimate, decides when to stop. When the
     * changes reach the rounding floor of doubles before the bound does
     * (expected times to leave the component near 1 / (1e-16 rel_precision)),
     * the solution is refined (see "Guaranteed bounds"), and then a bound
     * up to PROPER_DTMC_FLOOR_FACTOR times rel_precision is accepted and
     * reported in max_error; beyond that the solve fails with
     * PROPER_ENOCONV naming the bound it could prove. */
    double rel_precision;
    unsigned long max_sweeps; /* per component; PROPER_ENOCONV beyond */
    /* 1 (default): Gauss–Seidel stops on the certificate. 0: on the
     * estimate alone, as value-iteration tools do by default (faster when
     * the estimate is right; such components report max_error INFINITY). */
    int sound;
    uint32_t dense_max;       /* cyclic components up to this size: dense LU */
    uint32_t band_max;        /* larger ones with band width <= this: banded elimination (0: never) */
    uint32_t direct_max;      /* Gauss-Seidel components up to this size that it does not settle within
                               * a dense LU's work: dense LU (0: never) */
    /* CTMC transient analysis (uniformisation): the Poisson weights left out
     * by the Fox-Glynn truncation sum to at most this. */
    double transient_accuracy;
    /* Steady state: bottom SCCs of 2 to gth_max states whose a priori GTH
     * bound is within rel_precision are solved by GTH (0: only when the
     * other route fails; see "Stationary distributions by GTH"). */
    uint32_t gth_max;
    /* The model's own rounding: every stored probability (self-loops
     * included) is within model_rel_error, relative, of the model's exact
     * one. 0 (default): the bounds are of the chain as stored. Covered by
     * the unbounded solves' certificates (prob_until, reward_reach, the
     * steady-state solves: "The model's own rounding" under "Guaranteed
     * bounds"); the step- and time-bounded solvers do not take it. */
    double model_rel_error;
} proper_dtmc_solve_opts;

PROPER_API proper_dtmc_solve_opts proper_dtmc_solve_opts_default(void);

/* Statistics of the last solve, optional (pass NULL). */
typedef struct proper_dtmc_solve_stats {
    uint32_t n_components;   /* SCCs of the states solved */
    uint32_t n_cyclic;       /* of which cyclic */
    uint32_t largest;        /* states in the largest component */
    unsigned long sweeps;    /* Gauss–Seidel sweeps over all components (the certificate's included) */
    uint32_t n_dense;        /* components solved by dense LU (with those Gauss-Seidel did not settle
                              * within direct_max: their sweeps count in sweeps) */
    uint32_t n_band;         /* components solved by banded elimination */
    uint32_t n_iterative;    /* components solved by Gauss-Seidel (to the end) */
    /* A proven bound on the absolute error of every value solved (see
     * "Guaranteed bounds" above): |x[s] - exact(s)| <= max_error; and the
     * bound at the initial state (the init_dist-weighted bound). */
    double max_error;
    double init_error;
} proper_dtmc_solve_stats;

/* P=? [ phi1 U phi2 ] (phi1 NULL: P=? [ F phi2 ]). */
PROPER_API int proper_dtmc_prob_until(const proper_dtmc *m, const proper_bitset *phi1, const proper_bitset *phi2,
                                      const proper_dtmc_solve_opts *opts, double *x,
                                      proper_dtmc_solve_stats *stats, proper_error *err);
/* P=? [ phi1 U<=k phi2 ] (phi1 NULL: F<=k), by k matrix-vector products,
 * fewer when the iterates repeat (PROPER_DTMC_CYCLE_MAX): the result is then
 * bit for bit the one all k products give. A long run that does not repeat
 * (past PROPER_DTMC_BOUND_CHECK_FROM steps, half of k or less done) stops
 * when a proven bound pins the rest: x_j <= x_k <= the unbounded until
 * plus its proven error; once those are within 2 PROPER_DTMC_REL_PRECISION
 * relative in every state, the midpoint is returned (within the precision
 * of the exact x_k). I=k and C<=k stop the same way when the step values
 * P^j r lie within a range that narrow (each later one lies in the range of
 * the current one, P being stochastic). */
PROPER_API int proper_dtmc_prob_bounded_until(const proper_dtmc *m, const proper_bitset *phi1,
                                              const proper_bitset *phi2, unsigned long k, double *x,
                                              proper_error *err);
/* The most steps a step-bounded iteration on m may take within
 * PROPER_DTMC_MAX_STEP_WORK; the step-bounded solvers return PROPER_ELIMIT
 * (see proper_dtmc_steps_refused) when an iteration that has neither
 * repeated nor settled would go past it. */
PROPER_API unsigned long proper_dtmc_max_steps(const proper_dtmc *m);
/* Sets err to that refusal for a bound of k steps; returns PROPER_ELIMIT. */
PROPER_API int proper_dtmc_steps_refused(const proper_dtmc *m, unsigned long k, proper_error *err);
/* The same with a proven bound in stats->max_error (and init_error): the
 * a priori rounding bound of the products done (all k when iterates
 * repeat: the skipped ones are reproduced bit for bit), plus the pinned
 * midpoint's rel_precision when the run stopped early; see "What the other
 * solvers carry". It is loose for huge k (k = 2^31 and rows of 10: about
 * 2e-6) and infinite when rows summing above 1 make (1 + t)^k overflow. */
PROPER_API int proper_dtmc_prob_bounded_until_stats(const proper_dtmc *m, const proper_bitset *phi1,
                                                    const proper_bitset *phi2, unsigned long k, double *x,
                                                    proper_dtmc_solve_stats *stats, proper_error *err);
/* R{r}=? [ F phi ]: expected reward accumulated until phi is first reached
 * (state reward of each state left, plus the transition reward of each
 * transition taken; 0 in phi states); INFINITY in states that reach phi with
 * probability < 1 (PRISM semantics). Rewards must be >= 0. */
PROPER_API int proper_dtmc_reward_reach(const proper_dtmc *m, const proper_dtmc_reward *r,
                                        const proper_bitset *phi, const proper_dtmc_solve_opts *opts,
                                        double *x, proper_dtmc_solve_stats *stats, proper_error *err);
/* R{r}=? [ C<=k ]: expected reward over the first k steps, as the sum of
 * the expected step rewards d_j = P^j step (j < k); once d_j repeats after
 * p steps (p = 1: the distribution is stationary) the remaining sum is
 * (the number of remaining periods) x (the sum over one period) plus the
 * rest, so a huge k costs only the steps to reach the repetition. */
PROPER_API int proper_dtmc_reward_cumulative(const proper_dtmc *m, const proper_dtmc_reward *r, unsigned long k,
                                             double *x, proper_error *err);
/* The same with a proven bound in stats->max_error (and init_error): the
 * a priori rounding bound of the step rewards, the products done (all k
 * when iterates repeat: the skipped ones are the same floats) and the sum,
 * plus, when the run stopped early, the width of the range the midpoint
 * stands for; see proper__dtmc_cumul_bound for its derivation. Like the
 * bound of I=k it grows with k (a two-state chain: 1.9e-12 relative for
 * k = 3000, 5.4e-11 for k = 10^6 and for k = 10^9, which stops early) and
 * is infinite when rows summing above 1 make (1 + t)^k overflow. */
PROPER_API int proper_dtmc_reward_cumulative_stats(const proper_dtmc *m, const proper_dtmc_reward *r,
                                                   unsigned long k, double *x, proper_dtmc_solve_stats *stats,
                                                   proper_error *err);
/* R{r}=? [ I=k ]: expected state reward at step k (transition rewards are
 * not used, as in PRISM); repetitions are skipped as for U<=k. */
PROPER_API int proper_dtmc_reward_instant(const proper_dtmc *m, const proper_dtmc_reward *r, unsigned long k,
                                          double *x, proper_error *err);
/* The same with a proven bound in stats->max_error (and init_error), as
 * for proper_dtmc_prob_bounded_until_stats: the a priori rounding bound of
 * the products done on values of magnitude max |state reward| (all k when
 * iterates repeat), plus the pinned midpoint's rel_precision of the largest
 * value when the run stopped early. */
PROPER_API int proper_dtmc_reward_instant_stats(const proper_dtmc *m, const proper_dtmc_reward *r, unsigned long k,
                                                double *x, proper_dtmc_solve_stats *stats, proper_error *err);
/* S=? [ phi ]: long-run probability of being in phi starting from each
 * state: sum over bottom SCCs B of P(reach B) * (stationary mass of phi in B).
 * A state that can reach only one BSCC reaches it surely (graph analysis,
 * no solve); the reachability of the others is solved linearly. */
PROPER_API int proper_dtmc_steady(const proper_dtmc *m, const proper_bitset *phi,
                                  const proper_dtmc_solve_opts *opts, double *x, proper_error *err);
/* Long-run distribution from the initial state/distribution: pi[s] for every
 * state (0 for transient states): each BSCC's stationary distribution
 * times the probability of ending in it (states that reach only one BSCC
 * pass their mass to it; the others by their expected visits, a
 * transposed linear solve). */
PROPER_API int proper_dtmc_steady_distribution(const proper_dtmc *m, const proper_dtmc_solve_opts *opts,
                                               double *pi, proper_error *err);
/* The same with a proven bound in stats->max_error (init_error: the same):
 * |pi[s] - exact| for every state. Each BSCC's normalised stationary
 * bounds (as for proper_dtmc_steady_stats) and the absorption
 * probability's bound (the visits' certificate through the mass they pass
 * on, plus the rounding of that sum) combine as |pi~ a~ - pi a| <=
 * e_pi (a~ + e_a) + pi~ e_a. A CTMC's stationary bounds are of its
 * uniformised chain, its absorption bounds of its embedded chain (each
 * rounded once from the rates). The other fields are zero. */
PROPER_API int proper_dtmc_steady_distribution_stats(const proper_dtmc *m, const proper_dtmc_solve_opts *opts,
                                                     double *pi, proper_dtmc_solve_stats *stats, proper_error *err);
/* R{r}=? [ S ]: long-run average reward per step (a CTMC: per time unit)
 * starting from each state: sum over bottom SCCs B of P(reach B) times the
 * stationary mean of the step reward (state reward plus expected transition
 * reward; a CTMC: state reward rate plus sum_t R(s,t) transition reward). */
PROPER_API int proper_dtmc_reward_steady(const proper_dtmc *m, const proper_dtmc_reward *r,
                                         const proper_dtmc_solve_opts *opts, double *x, proper_error *err);
/* S=? and R=?[S] with a proven bound in stats (max_error, init_error; the
 * other fields those of the transient solve): each BSCC's stationary
 * solve's proven bounds, carried through the normalisation
 * (|pi~_s / S - exact_s| <= (e_s + pi_s E) / (S - E), E the sum of the
 * bounds and of the sum's rounding) and the weighting by f (plus its
 * rounding), are the bounds of the values the solve of the transient
 * states starts from; that solve's certificate carries them on. A CTMC's
 * bound is of its uniformised chain, rounded once from the rates. */
PROPER_API int proper_dtmc_steady_stats(const proper_dtmc *m, const proper_bitset *phi,
                                        const proper_dtmc_solve_opts *opts, double *x,
                                        proper_dtmc_solve_stats *stats, proper_error *err);
PROPER_API int proper_dtmc_reward_steady_stats(const proper_dtmc *m, const proper_dtmc_reward *r,
                                               const proper_dtmc_solve_opts *opts, double *x,
                                               proper_dtmc_solve_stats *stats, proper_error *err);
/* Value for the initial state, or the init_dist-weighted sum (a zero weight
 * never multiplies an infinity). */
PROPER_API double proper_dtmc_value_at_init(const proper_dtmc *m, const double *x);

/* ---- Parametric rows -----------------------------------------------------
 * A DTMC whose rows `state[k]` (k < n) each have two successors: taken[k]
 * with probability p_k and not_taken[k] with 1 - p_k (taken == not_taken
 * is allowed: the row then goes there surely, whatever p_k). Each state
 * carries at most one parameter and each parameter one row; every other
 * row is a plain row of numbers. This is the model of PROPER (synth.h):
 * one parameter per conditional and per loop.
 *
 * set_param_rows marks the rows of model m (a DTMC) as parametric: each
 * state[k] must exist, be given once, and have no successor other than
 * taken[k] and not_taken[k] (its stored probabilities are the point the
 * model was built at, recorded as param_values: the probability of taken[k]
 * in the row, 1 when taken == not_taken). Names are copied (param_names).
 * On failure m is unchanged. */
PROPER_API int proper_dtmc_set_param_rows(proper_dtmc *m, size_t n, const char *const *names,
                                          const uint32_t *state, const uint32_t *taken,
                                          const uint32_t *not_taken, proper_error *err);
/* The plain chain at point p (n_param_rows values in [0,1]; PROPER_EPROB
 * naming the parameter otherwise) into *out (an output: see "Output
 * parameters"): the parametric rows hold p_k and 1 - p_k (an edge of
 * probability 0 is left out, as the builder does), everything else is
 * copied: labels, rewards (a transition reward on an edge that the point
 * leaves out is dropped; an edge the stored point left out has transition
 * reward 0), initial state or distribution, valuations. The result has no
 * parametric rows; its parameters record the names and p. */
PROPER_API int proper_dtmc_param_instantiate(const proper_dtmc *m, const double *p, proper_dtmc *out,
                                             proper_error *err);
/* Minimum and maximum, over the box lo[k] <= p_k <= hi[k], of the expected
 * reward `reward` (an index into m->rewards) accumulated until `target` is
 * reached from the initial state or distribution (the semantics of
 * proper_dtmc_reward_reach: INFINITY where target is missed with positive
 * probability).
 *
 * Method: the rows a box allows at state[k] are the mixtures of its two
 * corners (p_k = lo[k] and p_k = hi[k]), so the box is the set of
 * randomised memoryless policies of an MDP with two actions per
 * parametric row, and the extremes are attained by deterministic ones: a
 * corner of the box (Puterman, Markov Decision Processes, Thm 7.1.9 and
 * Sec. 7.2 for total expected reward). Graph analysis first: the maximum is
 * INFINITY from the states where some corner misses target with positive
 * probability (they can reach a set of non-target states that a corner
 * keeps the run in forever), the minimum from the states where every corner
 * does. Policy iteration then runs from a corner that reaches target surely
 * wherever any does (for the minimum: built from the attractor of target,
 * so it never moves to a policy that loops forever at zero reward), each
 * corner evaluated by proper_dtmc_reward_reach; a row changes corner only
 * when that improves its value by more than PROPER_DTMC_PARAM_TIE relative.
 *
 * *min and *max (either may be NULL) are the values at the initial state;
 * argmin and argmax (n_param_rows values, may be NULL) the corners that
 * attain them (for an infinite maximum, a corner that misses target with
 * positive probability). Bounds: each value is the exact expected reward of
 * its corner within stats->init_error (the larger of the two solves'
 * proven bounds; max_error likewise; sweeps add up; the other fields are
 * those of the last solve); that the corner is the optimum is exact up to
 * the tie tolerance above (policy iteration ends when no row improves by
 * more). PROPER_ENOCONV after PROPER_DTMC_PARAM_MAX_ITER improvements. */
PROPER_API int proper_dtmc_param_reward_range(const proper_dtmc *m, size_t reward, const proper_bitset *target,
                                              const double *lo, const double *hi,
                                              const proper_dtmc_solve_opts *opts, double *min, double *max,
                                              double *argmin, double *argmax, proper_dtmc_solve_stats *stats,
                                              proper_error *err);

/* ---- Interval DTMCs ------------------------------------------------------
 * PRISM's IDTMCs: the transitions of m (its structure: its probabilities are
 * not used) carry probability intervals [lo[e], hi[e]], arrays aligned with
 * m->col, with 0 <= lo <= hi <= 1, the lower ends of each row summing to at
 * most 1 and the upper ends to at least 1 (within PROPER_DTMC_ROW_SUM_TOL;
 * PROPER_EPROB naming the state otherwise). At every step nature picks any
 * distribution within the current state's intervals; maximise = 1 asks for
 * the largest probability over all such choices (Pmax), 0 for the smallest
 * (Pmin), as PRISM's robust value iteration answers them. One step's
 * optimum over a row is the greedy solution of its linear program: every
 * successor gets its lower end, the mass left goes to the best successors
 * first, each up to its upper end.
 *
 * interval_prob_until: P{min,max}=? [ phi1 U phi2 ] (phi1 NULL: F phi2).
 * Graph precomputation (the states whose value is 0: for Pmax those that
 * cannot reach phi2 along edges of positive upper end, for Pmin those in
 * which nature can keep the run away from phi2 forever; worklists over
 * predecessor lists, linear in the transitions for each fixed point),
 * value iteration from below, each strongly connected component of the
 * unknown states swept to convergence in turn, successors' components
 * first (a chain is one pass), its updates rounded down so that x stays
 * below the value in floating point, then a certificate: u = x + tau w, w
 * the most expected steps nature can keep the run among the states still
 * unknown, checked to satisfy T u <= u in doubles with their rounding
 * counted against it; the value is the least fixed point of T, so
 * x <= value <= u (Knaster-Tarski). The answer is one more update of x
 * not rounded down (0.8 stays 0.8), within max(u - v, v - x) of the value.
 * stats->max_error (and init_error) is that proven bound (rel_precision,
 * absolute, is asked of it), or INFINITY when no such certificate exists:
 * Pmax over a set of states in which nature can keep the run forever while
 * it could also leave (an end component; x is then value iteration's
 * estimate), or opts->sound = 0. stats->sweeps: the most sweeps one
 * component took, added over the rounds of the certificate.
 * interval_prob_bounded_until: P{min,max}=? [ phi1 U<=k phi2 ], k robust
 * steps, fewer when a step changes nothing (exact up to the rounding of the
 * steps) or, as for proper_dtmc_prob_bounded_until, when the unbounded
 * until plus its proven bound pins the rest within PROPER_DTMC_REL_PRECISION
 * (from PROPER_DTMC_BOUND_CHECK_FROM steps, half of k or less done: the
 * iterates only grow towards it; the midpoint is returned).
 * interval_next: P{min,max}=? [ X phi ], one robust step (exact up to its
 * rounding).
 * interval_reward_reach: R{min,max}=? [ F target ] with state_rewards
 * (n_states values) and trans_rewards (aligned with m->col, NULL: none),
 * finite and >= 0 (PROPER_ERANGE naming the state otherwise); state_rewards
 * NULL is all zero. Nature chooses the distributions as above; the value is
 * infinite where the optimising choice reaches target with probability
 * < 1 (as PRISM: Rmax is infinite where Pmin [ F target ] < 1, Rmin where
 * Pmax [ F target ] < 1, both decided on the graph: the edges nature can
 * give positive mass to, and those it must), 0 on target. The rest is
 * solved by value iteration from below (the least fixed point of the
 * robust Bellman operator) and the certificate of interval_prob_until
 * (u = x + tau w, T u <= u checked with rounding): stats->max_error is the
 * proven absolute bound (rel_precision is asked of it relative to the
 * largest finite value), INFINITY without a certificate (Rmin where nature
 * can keep the run among the unknown states forever at a positive
 * reward). Rmin where nature could keep the run forever in states and
 * transitions of zero reward without reaching target (an end component of
 * zero reward: the least fixed point would not be the minimum over the
 * choices that reach target) is refused with PROPER_EUNSUPPORTED naming a
 * state; PRISM refuses every zero lower end, which excludes it.
 * interval_reward_cumul: R{min,max}=? [ C<=k ], k robust steps of the same
 * operator over all states, fewer when a step changes nothing (exact up to
 * the rounding of the steps) or when the increments pin the rest (from
 * PROPER_DTMC_BOUND_CHECK_FROM steps, half of k or less done: each later
 * increment lies in the range of the current one, the operator being
 * monotone and commuting with constants; the midpoint is returned within
 * PROPER_DTMC_REL_PRECISION relative), so that k = 2^31 - 1 is fast. */
PROPER_API int proper_dtmc_interval_prob_until(const proper_dtmc *m, const double *lo, const double *hi,
                                               const proper_bitset *phi1, const proper_bitset *phi2, int maximise,
                                               const proper_dtmc_solve_opts *opts, double *x,
                                               proper_dtmc_solve_stats *stats, proper_error *err);
PROPER_API int proper_dtmc_interval_prob_bounded_until(const proper_dtmc *m, const double *lo, const double *hi,
                                                       const proper_bitset *phi1, const proper_bitset *phi2,
                                                       unsigned long k, int maximise, double *x, proper_error *err);
PROPER_API int proper_dtmc_interval_next(const proper_dtmc *m, const double *lo, const double *hi,
                                         const proper_bitset *phi, int maximise, double *x, proper_error *err);
PROPER_API int proper_dtmc_interval_reward_reach(const proper_dtmc *m, const double *lo, const double *hi,
                                                 const double *state_rewards, const double *trans_rewards,
                                                 const proper_bitset *target, int maximise,
                                                 const proper_dtmc_solve_opts *opts, double *x,
                                                 proper_dtmc_solve_stats *stats, proper_error *err);
PROPER_API int proper_dtmc_interval_reward_cumul(const proper_dtmc *m, const double *lo, const double *hi,
                                                 const double *state_rewards, const double *trans_rewards,
                                                 unsigned long k, int maximise, double *x, proper_error *err);
/* What nature can do in one row of an interval model (ltl.h's interval
 * products use them too): whether edge e can get positive mass (a positive
 * lower end, or a positive upper end with room left by the row's other
 * lower ends; sum_lo is the row's sum of lower ends), and whether state s
 * has a distribution within its intervals with support in the states
 * marked in `u` that gives the states marked in `v` positive mass. */
/* Whether lo and hi are intervals of m: m a DTMC, each interval within
 * [0, 1], each row's lower ends summing to at most 1 and its upper ends to
 * at least 1 (within PROPER_DTMC_ROW_SUM_TOL); PROPER_EPROB (or
 * PROPER_EUNSUPPORTED for a CTMC) naming the state otherwise. */
PROPER_API int proper_dtmc_check_intervals(const proper_dtmc *m, const double *lo, const double *hi, proper_error *err);
PROPER_API int proper_dtmc_interval_can(const double *lo, const double *hi, uint64_t e, double sum_lo);
PROPER_API int proper_dtmc_interval_stays_hits(const proper_dtmc *m, const double *lo, const double *hi, uint32_t s,
                                               const unsigned char *u, const unsigned char *v);

/* ---- CTMCs ---------------------------------------------------------------
 * For a model of kind PROPER_DTMC_KIND_CTMC the unbounded solvers above
 * answer the CSL property of the same shape: proper_dtmc_prob_until and
 * proper_dtmc_reward_reach on the embedded DTMC (a state reward is a rate:
 * it is earned for the mean sojourn 1/E(s) per visit), proper_dtmc_steady,
 * _steady_distribution and _reward_steady on the uniformised chain, whose
 * stationary distributions are those of the CTMC. The step-bounded solvers
 * (prob_bounded_until, reward_cumulative, reward_instant) refuse a CTMC
 * (PROPER_EUNSUPPORTED); time bounds are the functions below.
 *
 * Transient analysis is by uniformisation: with q = max_s (E(s) - R(s,s))
 * and P = I + Q/q, the state at time t is that of P after N ~ Poisson(q t)
 * steps; the Poisson weights come from Fox-Glynn truncation
 * (proper_dtmc_fox_glynn) with opts->transient_accuracy. Times must be
 * finite and >= 0 (PROPER_EINVAL otherwise). A long series (q t of
 * millions of steps) stops early when its iterate repeats bit for bit, or
 * when a proven bound pins the rest within PROPER_DTMC_REL_PRECISION (the
 * until's iterates only grow towards the unbounded until plus its proven
 * error; C<=t's and I=t's stay within the range of the current one), as
 * the step-bounded solvers do; else it is refused past
 * PROPER_DTMC_MAX_POISSON_STEPS or the steps PROPER_DTMC_MAX_STEP_WORK
 * allows (proper__dtmc_unif_max_steps), and refused early when the rate
 * at which the iterates' changes shrink says, from some check point up to
 * 16 times as many steps, that they cannot settle before that cap (a stiff
 * chain: rates of 1.7e9 and 1 need 5e9 steps for t = 3 and settle after
 * none of them: refused after 70,000; the refusal names the exit rates'
 * ratio; proper__dtmc_settle_hopeless).
 *
 * Error bounds of uniformisation: the _stats variants below bound
 * |value - exact| for every state by the sum of (derived term by term at
 * proper__dtmc_series_bound and proper__dtmc_forward_bound):
 *  - the Poisson mass left out of the Fox-Glynn window, a proven
 *    out_mass (about transient_accuracy or far below: see
 *    proper_dtmc_poisson), times the width max v - min v of the values
 *    iterated (the weights are renormalised to sum 1, which makes the
 *    error of a constant 0); C<=t's coefficients (1/q) P(N > i) and their
 *    tail past the window, bounded by a geometric series;
 *  - the weights' own rounding (weight_error, relative);
 *  - the rounding of the steps, a priori: about u max|v| + (d + 4) u
 *    (max v - min v) per step (d the longest row; u = 2^-53), errors not
 *    growing since the uniformised chain is stochastic (q is raised by its
 *    own rounding so that it is, and is taken as fl(q t) / t exactly so
 *    that the time is not rounded); the transient distribution's forward
 *    steps 3 (D + 3) u per step in the 1-norm, D the largest in- plus
 *    out-degree. After an iterate repeats bit for bit, a residual |P v - v|
 *    computed in long double (0 when v is constant along every row, as
 *    when everything is absorbed) bounds the steps skipped;
 *  - the rounding of the weighted sum;
 *  - an early stop: the half-width of the range its midpoint stands for
 *    (at most PROPER_DTMC_REL_PRECISION / 2 relative) plus the iterate's
 *    error; U[t1,t2]: phase 2's bound passes through phase 1 unchanged (an
 *    average of stochastic steps), phase 1's own is added; U>=t1 starts
 *    from proper_dtmc_prob_until's bound.
 * With the default accuracy this is at most 1e-10 relative to the
 * largest value (or, for until, to 1) up to about q t = 10^5 (d = 4): on
 * random CTMCs with q t up to 10^4 the bounds are at most 4.1e-11 of the
 * scale and errors reach 0.97 of their bound (the truncation at small
 * q t: the bound is tight there). Beyond, the a priori rounding grows with
 * the number of steps (q t = 10^9 on a slowly mixing chain stops early
 * after 2.5 10^6 steps: 4e-9 relative while the error is 1.5e-13): the
 * bound is reported as it is, not refused: it says how far the value can
 * be trusted. Not covered: the unbounded until an early stop of U<=t and
 * U>=t1 lean on is proper_dtmc_prob_until's, of the embedded chain as
 * stored (its probabilities are rounded once from the rates), as for every
 * unbounded CTMC answer. */

/* Poisson(lambda) probabilities from `left` to `right`: w[i - left] is
 * P(N = i) / T, where T (the in-window mass) is >= 1 - accuracy:
 * the weights sum to 1 and the mass left out of [left, right] is at most
 * accuracy (the tails are bounded by geometric series, not estimated).
 * Proven, with rounding: the mass left out is at most out_mass (a bound
 * from the end weights, about accuracy or far below) and every computed weight is within a factor 1 +- weight_error of
 * P(N = i) / T (gamma_{4K + n}, K the farthest weight from the mode, n the
 * window's length: each weight is 2 |i - mode| roundings from the mode's,
 * their sum n - 1 more, the division one; Higham, Accuracy and Stability
 * of Numerical Algorithms, 2002, Lemmas 3.1 and 3.3). `total` estimates T
 * from exp(log P(N = mode)), whose rounding (up to 8 u (lambda + mode
 * |log lambda| + log mode!) relative: 5e-9 at lambda = 10^6) makes 1 - total
 * no bound of the mass left out: the solvers use out_mass. */
typedef struct proper_dtmc_poisson {
    unsigned long left, right;
    double *w;     /* right - left + 1 weights */
    double total;  /* in-window probability before normalisation (an estimate, see above) */
    double out_mass;     /* proven bound on P(N < left) + P(N > right) */
    double weight_error; /* proven bound on |w[i - left] T / P(N = i) - 1| */
} proper_dtmc_poisson;

PROPER_API void proper_dtmc_poisson_init(proper_dtmc_poisson *p);
PROPER_API void proper_dtmc_poisson_free(proper_dtmc_poisson *p);
/* Fox & Glynn, "Computing Poisson probabilities", CACM 31(4), 1988: weights
 * computed outward from the mode, so that none underflows before the
 * truncation points. lambda finite and >= 0, accuracy in (0, 0.5). `out` is
 * an output (see "Output parameters"). */
PROPER_API int proper_dtmc_fox_glynn(double lambda, double accuracy, proper_dtmc_poisson *out, proper_error *err);

/* Exit rates E(s) of a CTMC (n_states doubles; a DTMC: all 1). */
PROPER_API void proper_dtmc_exit_rates(const proper_dtmc *m, double *exit_rate);
/* The embedded DTMC of a CTMC (P(s,t) = R(s,t)/E(s)), with labels,
 * initial state/distribution, valuations and rewards copied unchanged
 * (state rewards stay rates). `out` is an output. */
PROPER_API int proper_dtmc_embedded(const proper_dtmc *ctmc, proper_dtmc *out, proper_error *err);
/* The uniformised DTMC P = I + Q/q (q as above; q = 1 if every state is
 * absorbing), with *q_out receiving q. `out` is an output. */
PROPER_API int proper_dtmc_uniformised(const proper_dtmc *ctmc, proper_dtmc *out, double *q_out, proper_error *err);

/* P=? [ phi1 U[t1,t2] phi2 ] (phi1 NULL = true: F[t1,t2]; t1 = 0: U<=t2;
 * t2 = INFINITY: U>=t1) for every state. */
PROPER_API int proper_dtmc_ctmc_bounded_until(const proper_dtmc *m, const proper_bitset *phi1,
                                              const proper_bitset *phi2, double t1, double t2,
                                              const proper_dtmc_solve_opts *opts, double *x, proper_error *err);
/* Transient distribution at time t from the initial state/distribution (p0
 * NULL) or from p0 (n_states probabilities): pt[s] = P(X_t = s). */
PROPER_API int proper_dtmc_ctmc_transient(const proper_dtmc *m, double t, const double *p0,
                                          const proper_dtmc_solve_opts *opts, double *pt, proper_error *err);
/* R{r}=? [ C<=t ]: expected reward accumulated up to time t (state rewards
 * as rates, transition rewards per transition taken). */
PROPER_API int proper_dtmc_ctmc_reward_cumulative(const proper_dtmc *m, const proper_dtmc_reward *r, double t,
                                                  const proper_dtmc_solve_opts *opts, double *x, proper_error *err);
/* R{r}=? [ I=t ]: expected state reward at time t. */
PROPER_API int proper_dtmc_ctmc_reward_instant(const proper_dtmc *m, const proper_dtmc_reward *r, double t,
                                               const proper_dtmc_solve_opts *opts, double *x, proper_error *err);
/* The same four with a proven bound on the error of every value in
 * stats->max_error (= init_error; the other fields 0): see "Error bounds of
 * uniformisation" above. U>=t1 (t2 = INFINITY) adds proper_dtmc_prob_until's
 * bound of the embedded chain to phase 1's. */
PROPER_API int proper_dtmc_ctmc_bounded_until_stats(const proper_dtmc *m, const proper_bitset *phi1,
                                                    const proper_bitset *phi2, double t1, double t2,
                                                    const proper_dtmc_solve_opts *opts, double *x,
                                                    proper_dtmc_solve_stats *stats, proper_error *err);
PROPER_API int proper_dtmc_ctmc_transient_stats(const proper_dtmc *m, double t, const double *p0,
                                                const proper_dtmc_solve_opts *opts, double *pt,
                                                proper_dtmc_solve_stats *stats, proper_error *err);
PROPER_API int proper_dtmc_ctmc_reward_cumulative_stats(const proper_dtmc *m, const proper_dtmc_reward *r, double t,
                                                        const proper_dtmc_solve_opts *opts, double *x,
                                                        proper_dtmc_solve_stats *stats, proper_error *err);
PROPER_API int proper_dtmc_ctmc_reward_instant_stats(const proper_dtmc *m, const proper_dtmc_reward *r, double t,
                                                     const proper_dtmc_solve_opts *opts, double *x,
                                                     proper_dtmc_solve_stats *stats, proper_error *err);

/* ---- PRISM explicit import ----------------------------------------------
 * .tra: first line "STATES TRANSITIONS", then one line "src dst prob" per
 * transition (any order; rows are checked after reading; an action label
 * may follow the probability), or one line per row as PRISM's -exportrows
 * writes it: "src prob:dst prob:dst ...". PRISM lists a transition once
 * per action when commands of different actions overlap (as many entries
 * as the header counts): in a file with action labels or row lines a
 * repeated transition gets the sum of its probabilities (rates), as the
 * model has it; in a plain file a repeat is an error. .lab: first line
 * `0="init" 1="deadlock" 2="name" ...`, then lines "state: id id ...".
 * .srew: "STATES NONZERO" then "state reward". .trew: "STATES TRANSITIONS"
 * then "src dst reward", or rows "src reward:dst ..." (a line "src" alone
 * for a state without entries, as -exportrows writes them). Lines starting
 * with '#' (comments PRISM writes) and blank lines are skipped, as is a
 * UTF-8 byte order mark at the start of a file. Errors give file:line:col.
 * PRISM's comment "# Transitions (CTMC)" before a .tra's header makes it a
 * CTMC (rates) without opts.ctmc; "(DTMC)" with opts.ctmc set, or any other
 * kind ("(MDP)"), is refused. Files without the comment (-exportrows,
 * -noexportheaders, -exporttrans) are a DTMC unless opts.ctmc says rates.
 * A DTMC's rows summing to 1 within row_sum_tol are scaled to sum to 1
 * (the file's decimals are roundings; PRISM keeps them as written).
 * The "init" label of a .lab sets m->init; several initial states (PRISM's
 * init...endinit) become a uniform m->init_dist over them, as prism.h
 * builds such models, so results are ranges over them as PRISM gives;
 * "deadlock" sets m->deadlock; others become labels. */
typedef struct proper_dtmc_import_opts {
    double row_sum_tol;   /* PROPER_DTMC_ROW_SUM_TOL */
    int ctmc;             /* 0: as the file's comment says (else a DTMC); 1: the .tra holds rates (PRISM -ctmc) */
    int fix_deadlocks;    /* 0: a state without transitions is an error */
    uint32_t max_states;  /* PROPER_DTMC_MAX_STATES: larger headers are PROPER_ELIMIT */
} proper_dtmc_import_opts;

PROPER_API proper_dtmc_import_opts proper_dtmc_import_opts_default(void);

/* Read a .tra file into the model *m (an output: see "Output
 * parameters"; opts NULL = defaults). */
PROPER_API int proper_dtmc_read_tra(proper_dtmc *m, const char *path, const proper_dtmc_import_opts *opts,
                                    proper_error *err);
/* The same from text in memory; `name` is used in error messages. */
PROPER_API int proper_dtmc_parse_tra(proper_dtmc *m, const char *text, size_t len, const char *name,
                                     const proper_dtmc_import_opts *opts, proper_error *err);
/* Read labels into an existing model (state numbers checked). These and
 * the reward readers below add to *m; on failure *m is unchanged. */
PROPER_API int proper_dtmc_read_lab(proper_dtmc *m, const char *path, proper_error *err);
PROPER_API int proper_dtmc_parse_lab(proper_dtmc *m, const char *text, size_t len, const char *name,
                                     proper_error *err);
/* Read PRISM's state valuations (.sta: "(x,y,b)" then one "STATE:(1,-2,true)"
 * line per state, ints or true/false) into an existing model, replacing
 * its valuations: every state exactly once, each variable's values all
 * ints or all booleans, names PRISM identifiers. Properties over the
 * variables can then be checked (proper_prism_model_of_valuations). */
PROPER_API int proper_dtmc_read_sta(proper_dtmc *m, const char *path, proper_error *err);
PROPER_API int proper_dtmc_parse_sta(proper_dtmc *m, const char *text, size_t len, const char *name,
                                     proper_error *err);
/* Read state / transition rewards into the reward structure `reward_name`
 * (created if absent; "" = unnamed; NULL = the name in PRISM's header
 * comment `# Reward structure "NAME"`, unnamed for `# Reward structure`
 * alone; a file without that comment, as -exportrows writes a .trew, joins
 * the model's last structure when that lacks this kind of rewards: the
 * other half of a .srew/.trew pair read one after the other; else a new
 * unnamed one). Transition rewards must name existing transitions. */
PROPER_API int proper_dtmc_read_srew(proper_dtmc *m, const char *path, const char *reward_name,
                                     proper_error *err);
PROPER_API int proper_dtmc_parse_srew(proper_dtmc *m, const char *text, size_t len, const char *name,
                                      const char *reward_name, proper_error *err);
PROPER_API int proper_dtmc_read_trew(proper_dtmc *m, const char *path, const char *reward_name,
                                     proper_error *err);
PROPER_API int proper_dtmc_parse_trew(proper_dtmc *m, const char *text, size_t len, const char *name,
                                      const char *reward_name, proper_error *err);

/* ---- Export --------------------------------------------------------------
 * Numbers are printed as the shortest decimal that reads back as the same
 * double (proper_format_double: the shortest of %.15g, %.16g, %.17g that
 * round-trips), so a file written and read again gives the same model.
 * Every writer takes the model, an open stream and an error record;
 * PROPER_EIO if a write fails. */
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
PROPER_API int proper_dtmc_write_explicit_files(const proper_dtmc *m, const char *prefix, proper_error *err);
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
/* Any of the one-stream writers above (tra, lab, sta, drn, prism, dot) to
 * a file: create `path`, write, close; errors name the path. */
typedef int proper_dtmc_writer(const proper_dtmc *m, FILE *f, proper_error *err);
PROPER_API int proper_dtmc_write_file(const proper_dtmc *m, proper_dtmc_writer *write, const char *path,
                                      proper_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_DTMC_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_DTMC_IMPLEMENTATION
#define PROPER_DTMC_IMPLEMENTATION

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

/* ---- model -------------------------------------------------------------- */

PROPER_API void proper_dtmc_init(proper_dtmc *m) { memset(m, 0, sizeof *m); }

static void proper__dtmc_free_rewards(proper_dtmc *m) {
    size_t i;
    for (i = 0; i < m->n_rewards; i++) {
        PROPER_FREE(m->rewards[i].name);
        PROPER_FREE(m->rewards[i].state);
        PROPER_FREE(m->rewards[i].trans);
    }
    PROPER_FREE(m->rewards);
    m->rewards = NULL;
    m->n_rewards = 0;
}

static void proper__dtmc_free_labels(proper_dtmc *m) {
    size_t i;
    for (i = 0; i < m->n_labels; i++) {
        PROPER_FREE(m->labels[i].name);
        proper_bitset_free(&m->labels[i].states);
    }
    PROPER_FREE(m->labels);
    m->labels = NULL;
    m->n_labels = 0;
}

static void proper__dtmc_free_names(char **names, size_t n) {
    size_t i;
    if (!names) return;
    for (i = 0; i < n; i++) PROPER_FREE(names[i]);
    PROPER_FREE(names);
}

static void proper__dtmc_free_params(proper_dtmc *m) {
    proper__dtmc_free_names(m->param_names, m->n_params);
    PROPER_FREE(m->param_values);
    m->param_names = NULL;
    m->param_values = NULL;
    m->n_params = 0;
}

static void proper__dtmc_free_param_rows(proper_dtmc *m) {
    PROPER_FREE(m->param_rows);
    m->param_rows = NULL;
    m->n_param_rows = 0;
}

static void proper__dtmc_free_valuations(proper_dtmc *m) {
    proper__dtmc_free_names(m->var_names, m->n_vars);
    PROPER_FREE(m->var_is_bool);
    PROPER_FREE(m->vals);
    m->var_names = NULL;
    m->var_is_bool = NULL;
    m->vals = NULL;
    m->n_vars = 0;
}

PROPER_API void proper_dtmc_free(proper_dtmc *m) {
    PROPER_FREE(m->row);
    PROPER_FREE(m->col);
    PROPER_FREE(m->prob);
    PROPER_FREE(m->init_dist);
    proper_bitset_free(&m->deadlock);
    proper__dtmc_free_labels(m);
    proper__dtmc_free_rewards(m);
    proper__dtmc_free_params(m);
    proper__dtmc_free_param_rows(m);
    proper__dtmc_free_valuations(m);
    proper_dtmc_init(m);
}

static int proper__dtmc_is_builtin_label(const char *name) {
    return strcmp(name, "init") == 0 || strcmp(name, "deadlock") == 0;
}

PROPER_API long proper_dtmc_find_label(const proper_dtmc *m, const char *name) {
    size_t i;
    for (i = 0; i < m->n_labels; i++)
        if (strcmp(m->labels[i].name, name) == 0) return (long)i;
    return -1;
}

PROPER_API int proper_dtmc_add_label(proper_dtmc *m, const char *name, const proper_bitset *states,
                                     size_t *index, proper_error *err) {
    proper_dtmc_label lab;
    size_t cap = m->n_labels;
    if (states->n != m->n_states)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "label \"%s\" covers %zu states, the model has %u",
                                name, states->n, (unsigned)m->n_states);
    if (proper__dtmc_is_builtin_label(name))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "label \"%s\" is predefined", name);
    if (proper_dtmc_find_label(m, name) >= 0)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "label \"%s\" defined twice", name);
    proper_bitset_init(&lab.states);
    lab.name = proper_strdup(name);
    if (!lab.name || proper_bitset_copy(&lab.states, states, NULL) ||
        proper_reserve(&m->labels, &cap, m->n_labels + 1, sizeof *m->labels)) {
        PROPER_FREE(lab.name);
        proper_bitset_free(&lab.states);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory adding label");
    }
    m->labels[m->n_labels] = lab;
    if (index) *index = m->n_labels;
    m->n_labels++;
    return PROPER_OK;
}

PROPER_API int proper_dtmc_label_get(const proper_dtmc *m, const char *name, proper_bitset *out,
                                     proper_error *err) {
    long i;
    if (strcmp(name, "init") == 0) {
        uint32_t s;
        proper_bitset t;
        proper_bitset_init(&t);
        if (proper_bitset_create(&t, m->n_states, err)) return PROPER_ENOMEM;
        if (m->init_dist) {
            for (s = 0; s < m->n_states; s++)
                if (m->init_dist[s] > 0.0) proper_bitset_set(&t, s);
        } else if (m->init < m->n_states) {
            proper_bitset_set(&t, m->init);
        }
        proper_bitset_free(out);
        *out = t;
        return PROPER_OK;
    }
    if (strcmp(name, "deadlock") == 0) {
        if (m->deadlock.n == m->n_states && m->n_states) return proper_bitset_copy(out, &m->deadlock, err);
        return proper_bitset_create(out, m->n_states, err);
    }
    i = proper_dtmc_find_label(m, name);
    if (i < 0) return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "unknown label \"%s\"", name);
    return proper_bitset_copy(out, &m->labels[i].states, err);
}

PROPER_API long proper_dtmc_find_reward(const proper_dtmc *m, const char *name) {
    size_t i;
    if (!name) name = "";
    for (i = 0; i < m->n_rewards; i++)
        if (strcmp(m->rewards[i].name, name) == 0) return (long)i;
    return -1;
}

PROPER_API int proper_dtmc_add_reward(proper_dtmc *m, const char *name, int with_state, int with_trans,
                                      size_t *index, proper_error *err) {
    proper_dtmc_reward r;
    size_t cap = m->n_rewards;
    if (!name) name = "";
    if (proper_dtmc_find_reward(m, name) >= 0)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "reward structure \"%s\" defined twice", name);
    r.name = proper_strdup(name);
    r.state = with_state ? (double *)proper_calloc(m->n_states, sizeof(double)) : NULL;
    r.trans = with_trans ? (double *)proper_calloc((size_t)m->n_trans, sizeof(double)) : NULL;
    if (!r.name || (with_state && !r.state) || (with_trans && !r.trans) ||
        proper_reserve(&m->rewards, &cap, m->n_rewards + 1, sizeof *m->rewards)) {
        PROPER_FREE(r.name);
        PROPER_FREE(r.state);
        PROPER_FREE(r.trans);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory adding reward structure");
    }
    m->rewards[m->n_rewards] = r;
    if (index) *index = m->n_rewards;
    m->n_rewards++;
    return PROPER_OK;
}

static int proper__dtmc_check_reward_value(double v, proper_error *err) {
    if (!isfinite(v))
        return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "reward %g is not finite", v);
    return PROPER_OK;
}

PROPER_API int proper_dtmc_reward_add_state(proper_dtmc *m, size_t r, uint32_t s, double value,
                                            proper_error *err) {
    proper_dtmc_reward *rw;
    if (r >= m->n_rewards || s >= m->n_states)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no reward structure %zu or state %u", r, (unsigned)s);
    if (proper__dtmc_check_reward_value(value, err)) return PROPER_ERANGE;
    rw = &m->rewards[r];
    if (!rw->state) {
        rw->state = (double *)proper_calloc(m->n_states, sizeof(double));
        if (!rw->state) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    }
    rw->state[s] += value;
    return PROPER_OK;
}

/* Position of transition src->dst in the CSR arrays, or -1 (rows are
 * sorted by destination: binary search). */
static long long proper__dtmc_find_trans(const proper_dtmc *m, uint32_t src, uint32_t dst) {
    uint64_t lo, hi;
    if (src >= m->n_states) return -1;
    lo = m->row[src];
    hi = m->row[src + 1];
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (m->col[mid] < dst) lo = mid + 1; else hi = mid;
    }
    return lo < m->row[src + 1] && m->col[lo] == dst ? (long long)lo : -1;
}

PROPER_API int proper_dtmc_reward_add_trans(proper_dtmc *m, size_t r, uint32_t src, uint32_t dst,
                                            double value, proper_error *err) {
    proper_dtmc_reward *rw;
    long long k;
    if (r >= m->n_rewards)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no reward structure %zu", r);
    if (proper__dtmc_check_reward_value(value, err)) return PROPER_ERANGE;
    k = proper__dtmc_find_trans(m, src, dst);
    if (k < 0)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no transition %u -> %u for a transition reward",
                                (unsigned)src, (unsigned)dst);
    rw = &m->rewards[r];
    if (!rw->trans) {
        rw->trans = (double *)proper_calloc((size_t)m->n_trans, sizeof(double));
        if (!rw->trans) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    }
    rw->trans[k] += value;
    return PROPER_OK;
}

static int proper__dtmc_copy_names(char ***dst, const char *const *src, size_t n) {
    size_t i;
    *dst = NULL;
    if (n == 0) return PROPER_OK;
    *dst = (char **)proper_calloc(n, sizeof **dst);
    if (!*dst) return PROPER_ENOMEM;
    for (i = 0; i < n; i++) {
        (*dst)[i] = proper_strdup(src[i]);
        if (!(*dst)[i]) {
            proper__dtmc_free_names(*dst, n);
            *dst = NULL;
            return PROPER_ENOMEM;
        }
    }
    return PROPER_OK;
}

/* set_params without the parametric rows' check. */
static int proper__dtmc_store_params(proper_dtmc *m, const char *const *names, const double *values, size_t n,
                                     proper_error *err) {
    char **nm;
    double *v = NULL;
    if (proper__dtmc_copy_names(&nm, names, n)) goto nomem;
    if (n) {
        v = (double *)proper_calloc(n, sizeof *v);
        if (!v) { proper__dtmc_free_names(nm, n); goto nomem; }
        memcpy(v, values, n * sizeof *v);
    }
    proper__dtmc_free_params(m);
    m->param_names = nm;
    m->param_values = v;
    m->n_params = n;
    return PROPER_OK;
nomem:
    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
}

PROPER_API int proper_dtmc_set_params(proper_dtmc *m, const char *const *names, const double *values,
                                      size_t n, proper_error *err) {
    if (m->n_param_rows && n != m->n_param_rows)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "the model has %zu parametric rows: %zu parameter values do not fit",
                                m->n_param_rows, n);
    return proper__dtmc_store_params(m, names, values, n, err);
}

PROPER_API int proper_dtmc_set_valuations(proper_dtmc *m, const char *const *names,
                                          const unsigned char *is_bool, size_t n_vars,
                                          const int32_t *vals, proper_error *err) {
    char **nm;
    unsigned char *fl = NULL;
    int32_t *v = NULL;
    size_t cells;
    if (proper_size_mul(n_vars, m->n_states, &cells)) goto nomem;
    if (proper__dtmc_copy_names(&nm, names, n_vars)) goto nomem;
    fl = (unsigned char *)proper_calloc(n_vars ? n_vars : 1, 1);
    v = (int32_t *)proper_calloc(cells ? cells : 1, sizeof *v);
    if (!fl || !v) {
        proper__dtmc_free_names(nm, n_vars);
        PROPER_FREE(fl);
        PROPER_FREE(v);
        goto nomem;
    }
    if (is_bool && n_vars) memcpy(fl, is_bool, n_vars);
    if (cells) memcpy(v, vals, cells * sizeof *v);
    proper__dtmc_free_valuations(m);
    m->var_names = nm;
    m->var_is_bool = fl;
    m->vals = v;
    m->n_vars = n_vars;
    return PROPER_OK;
nomem:
    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
}

PROPER_API int proper_dtmc_set_init_dist(proper_dtmc *m, const double *dist, proper_error *err) {
    double sum = 0.0, *d;
    uint32_t s, first = UINT32_MAX;
    if (!dist) {
        PROPER_FREE(m->init_dist);
        m->init_dist = NULL;
        return PROPER_OK;
    }
    for (s = 0; s < m->n_states; s++) {
        if (!(dist[s] >= 0.0) || !isfinite(dist[s]))
            return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "initial probability of state %u is %g",
                                    (unsigned)s, dist[s]);
        if (dist[s] > 0.0 && first == UINT32_MAX) first = s;
        sum += dist[s];
    }
    if (fabs(sum - 1.0) > PROPER_DTMC_ROW_SUM_TOL)
        return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "initial distribution sums to %.17g", sum);
    d = (double *)proper_calloc(m->n_states, sizeof *d);
    if (!d) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    memcpy(d, dist, (size_t)m->n_states * sizeof *d);
    PROPER_FREE(m->init_dist);
    m->init_dist = d;
    m->init = first;
    return PROPER_OK;
}

/* Duplicate n elements of `size` bytes (NULL stays NULL). */
static int proper__dtmc_dup_array(void *dst_ptr, const void *src, size_t n, size_t size) {
    void *d = NULL;
    if (src) {
        d = proper_calloc(n ? n : 1, size);
        if (!d) return PROPER_ENOMEM;
        if (n) memcpy(d, src, n * size);
    }
    memcpy(dst_ptr, &d, sizeof d);
    return PROPER_OK;
}

PROPER_API int proper_dtmc_copy(proper_dtmc *dst, const proper_dtmc *src, proper_error *err) {
    size_t i, n = src->n_states, t = (size_t)src->n_trans;
    int rc;
    proper_dtmc c;
    proper_dtmc_init(&c);
    c.n_states = src->n_states;
    c.n_trans = src->n_trans;
    c.kind = src->kind;
    c.init = src->init;
    if (proper__dtmc_dup_array(&c.row, src->row, n + 1, sizeof *src->row) ||
        proper__dtmc_dup_array(&c.col, src->col, t, sizeof *src->col) ||
        proper__dtmc_dup_array(&c.prob, src->prob, t, sizeof *src->prob) ||
        proper__dtmc_dup_array(&c.init_dist, src->init_dist, n, sizeof *src->init_dist))
        goto nomem;
    if (proper_bitset_copy(&c.deadlock, &src->deadlock, NULL)) goto nomem;
    for (i = 0; i < src->n_labels; i++)
        if ((rc = proper_dtmc_add_label(&c, src->labels[i].name, &src->labels[i].states, NULL, err))) goto fail;
    for (i = 0; i < src->n_rewards; i++) {
        proper_dtmc_reward *r;
        if ((rc = proper_dtmc_add_reward(&c, src->rewards[i].name, 0, 0, NULL, err))) goto fail;
        r = &c.rewards[i];
        if (proper__dtmc_dup_array(&r->state, src->rewards[i].state, n, sizeof(double)) ||
            proper__dtmc_dup_array(&r->trans, src->rewards[i].trans, t, sizeof(double)))
            goto nomem;
    }
    if ((rc = proper__dtmc_store_params(&c, (const char *const *)src->param_names, src->param_values,
                                        src->n_params, err)))
        goto fail;
    if (proper__dtmc_dup_array(&c.param_rows, src->param_rows, src->n_param_rows, sizeof *src->param_rows))
        goto nomem;
    c.n_param_rows = src->n_param_rows;
    if (src->n_vars && (rc = proper_dtmc_set_valuations(&c, (const char *const *)src->var_names,
                                                        src->var_is_bool, src->n_vars, src->vals, err)))
        goto fail;
    proper_dtmc_free(dst);
    *dst = c;
    return PROPER_OK;
nomem:
    rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory copying model");
fail:
    proper_dtmc_free(&c);
    return rc;
}

PROPER_API size_t proper_dtmc_memory(const proper_dtmc *m) {
    size_t i, n = m->n_states, t = (size_t)m->n_trans, bytes;
    bytes = (n + 1) * sizeof(uint64_t) + t * (sizeof(uint32_t) + sizeof(double));
    if (m->init_dist) bytes += n * sizeof(double);
    bytes += ((m->deadlock.n + 63) / 64) * 8;
    for (i = 0; i < m->n_labels; i++) bytes += ((m->labels[i].states.n + 63) / 64) * 8;
    for (i = 0; i < m->n_rewards; i++) {
        if (m->rewards[i].state) bytes += n * sizeof(double);
        if (m->rewards[i].trans) bytes += t * sizeof(double);
    }
    if (m->vals) bytes += n * m->n_vars * sizeof(int32_t);
    bytes += m->n_param_rows * sizeof *m->param_rows;
    return bytes;
}

/* ---- builder ------------------------------------------------------------ */

typedef struct proper__dtmc_entry {
    uint32_t dst;
    double p;
} proper__dtmc_entry;

static int proper__dtmc_entry_cmp(const void *a, const void *b) {
    uint32_t x = ((const proper__dtmc_entry *)a)->dst, y = ((const proper__dtmc_entry *)b)->dst;
    return x < y ? -1 : x > y;
}

/* Sort entries by destination: insertion sort for short rows, qsort else. */
static void proper__dtmc_sort_entries(proper__dtmc_entry *e, size_t k) {
    size_t i, j;
    if (k > 32) {
        qsort(e, k, sizeof *e, proper__dtmc_entry_cmp);
        return;
    }
    for (i = 1; i < k; i++) {
        proper__dtmc_entry v = e[i];
        for (j = i; j > 0 && e[j - 1].dst > v.dst; j--) e[j] = e[j - 1];
        e[j] = v;
    }
}

PROPER_API void proper_dtmc_builder_init(proper_dtmc_builder *b) {
    memset(b, 0, sizeof *b);
    b->row_sum_tol = PROPER_DTMC_ROW_SUM_TOL;
}

PROPER_API void proper_dtmc_builder_free(proper_dtmc_builder *b) {
    PROPER_FREE(b->row);
    PROPER_FREE(b->col);
    PROPER_FREE(b->prob);
    proper_dtmc_builder_init(b);
}

static int proper__dtmc_builder_grow(proper_dtmc_builder *b, size_t states, size_t trans) {
    if (proper_reserve(&b->row, &b->row_cap, states + 1, sizeof *b->row)) return PROPER_ENOMEM;
    if (trans > b->trans_cap) {
        size_t cap = b->trans_cap;
        if (proper_reserve(&b->col, &cap, trans, sizeof *b->col)) return PROPER_ENOMEM;
        cap = b->trans_cap;
        if (proper_reserve(&b->prob, &cap, trans, sizeof *b->prob)) return PROPER_ENOMEM;
        b->trans_cap = cap;
    }
    if (b->n_rows == 0) b->row[0] = 0;
    return PROPER_OK;
}

PROPER_API int proper_dtmc_builder_reserve(proper_dtmc_builder *b, size_t states, size_t trans,
                                           proper_error *err) {
    if (proper__dtmc_builder_grow(b, states, trans))
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory reserving %zu states, %zu transitions",
                                states, trans);
    return PROPER_OK;
}

/* Check one probability at the boundary. */
static int proper__dtmc_check_prob(uint32_t src, uint32_t dst, double p, proper_error *err) {
    if (!(p >= 0.0) || !isfinite(p))
        return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "transition %u -> %u has probability %g",
                                (unsigned)src, (unsigned)dst, p);
    if (dst >= PROPER_DTMC_MAX_STATES)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "transition %u -> %u: state number too large",
                                (unsigned)src, (unsigned)dst);
    return PROPER_OK;
}

/* Sort, merge and check the entries [row[s], n_trans) of the row being
 * closed (state s), then fix row[s + 1]. */
static int proper__dtmc_builder_close_row(proper_dtmc_builder *b, uint32_t s, proper_error *err) {
    uint64_t start = b->row[s], end = b->n_trans, i, out;
    size_t k = (size_t)(end - start);
    double sum = 0.0;
    if (k > 1) {
        proper__dtmc_entry small[32], *e = small;
        if (k > 32) {
            e = (proper__dtmc_entry *)proper_calloc(k, sizeof *e);
            if (!e) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        }
        for (i = 0; i < k; i++) { e[i].dst = b->col[start + i]; e[i].p = b->prob[start + i]; }
        proper__dtmc_sort_entries(e, k);
        out = start;
        for (i = 0; i < k; i++) {
            if (out > start && b->col[out - 1] == e[i].dst) {
                b->prob[out - 1] += e[i].p; /* repeated destination: add */
            } else {
                b->col[out] = e[i].dst;
                b->prob[out] = e[i].p;
                out++;
            }
        }
        if (e != small) PROPER_FREE(e);
        end = out;
    }
    /* drop zero-probability entries: they are no edges */
    out = start;
    for (i = start; i < end; i++) {
        if (b->prob[i] == 0.0) continue;
        b->col[out] = b->col[i];
        b->prob[out] = b->prob[i];
        sum += b->prob[i];
        out++;
    }
    b->n_trans = out;
    b->row[s + 1] = out;
    if (b->rates && !isfinite(sum))
        return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "state %u: outgoing rates sum to %g (the exit rate "
                                "must be finite)", (unsigned)s, sum);
    if (!b->rates && out > start && !(fabs(sum - 1.0) <= b->row_sum_tol))
        return proper_error_set(err, PROPER_EPROB, NULL, 0, 0,
                                "state %u: outgoing probabilities sum to %.15g (must be 1 within %g)",
                                (unsigned)s, sum, b->row_sum_tol);
    return PROPER_OK;
}

/* Open empty rows up to and including state s. */
static int proper__dtmc_builder_open_rows_to(proper_dtmc_builder *b, uint32_t s, proper_error *err) {
    if (proper__dtmc_builder_grow(b, (size_t)s + 1, (size_t)b->n_trans))
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    while (b->n_rows < s) {
        b->row[b->n_rows + 1] = b->n_trans;
        b->n_rows++;
    }
    return PROPER_OK;
}

static int proper__dtmc_builder_close_open(proper_dtmc_builder *b, proper_error *err) {
    if (!b->open_src) return PROPER_OK;
    b->open_src = 0;
    if (proper__dtmc_builder_close_row(b, b->open_row, err)) return err ? err->code : PROPER_EPROB;
    b->n_rows = b->open_row + 1;
    return PROPER_OK;
}

PROPER_API int proper_dtmc_builder_add_row(proper_dtmc_builder *b, const uint32_t *dst, const double *prob,
                                           size_t k, proper_error *err) {
    size_t i;
    int rc, had_dst = b->has_dst;
    uint32_t max_dst = b->max_dst;
    uint64_t n_trans = b->n_trans;
    if ((rc = proper__dtmc_builder_close_open(b, err))) return rc;
    if (b->n_rows >= PROPER_DTMC_MAX_STATES)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "too many states");
    for (i = 0; i < k; i++)
        if ((rc = proper__dtmc_check_prob(b->n_rows, dst[i], prob[i], err))) return rc;
    if (proper__dtmc_builder_grow(b, (size_t)b->n_rows + 1, (size_t)b->n_trans + k))
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory adding a row");
    for (i = 0; i < k; i++) {
        b->col[b->n_trans + i] = dst[i];
        b->prob[b->n_trans + i] = prob[i];
        if (!b->has_dst || dst[i] > b->max_dst) b->max_dst = dst[i];
        b->has_dst = 1;
    }
    b->n_trans += k;
    if ((rc = proper__dtmc_builder_close_row(b, b->n_rows, err))) { /* a rejected row is not added */
        b->n_trans = n_trans;
        b->has_dst = had_dst;
        b->max_dst = max_dst;
        return rc;
    }
    b->n_rows++;
    return PROPER_OK;
}

PROPER_API int proper_dtmc_builder_add_transition(proper_dtmc_builder *b, uint32_t src, uint32_t dst,
                                                  double prob, proper_error *err) {
    int rc;
    if (b->open_src && src == b->open_row) {
        /* same row */
    } else {
        if (src < b->n_rows || (b->open_src && src < b->open_row))
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                    "transition from state %u added after state %u's row was closed",
                                    (unsigned)src, (unsigned)(b->open_src ? b->open_row : b->n_rows - 1));
        if (src >= PROPER_DTMC_MAX_STATES)
            return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "state number %u too large", (unsigned)src);
        if ((rc = proper__dtmc_builder_close_open(b, err))) return rc;
        if ((rc = proper__dtmc_builder_open_rows_to(b, src, err))) return rc;
        b->open_src = 1;
        b->open_row = src;
    }
    if ((rc = proper__dtmc_check_prob(src, dst, prob, err))) return rc;
    if (proper__dtmc_builder_grow(b, (size_t)src + 1, (size_t)b->n_trans + 1))
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory adding a transition");
    b->col[b->n_trans] = dst;
    b->prob[b->n_trans] = prob;
    b->n_trans++;
    if (!b->has_dst || dst > b->max_dst) b->max_dst = dst;
    b->has_dst = 1;
    return PROPER_OK;
}

/* Give every state without transitions a self-loop (fix) or fail. */
static int proper__dtmc_fix_deadlocks(proper_dtmc *m, int fix, proper_error *err) {
    uint32_t s, n = m->n_states, n_dead = 0;
    uint64_t *row, k, out;
    uint32_t *col;
    double *prob;
    for (s = 0; s < n; s++)
        if (m->row[s] == m->row[s + 1]) {
            if (!fix)
                return proper_error_set(err, PROPER_EPROB, NULL, 0, 0,
                                        "state %u has no outgoing transitions (deadlock; fix_deadlocks adds a self-loop)",
                                        (unsigned)s);
            n_dead++;
        }
    if (proper_bitset_create(&m->deadlock, n, NULL)) goto nomem;
    if (!n_dead) return PROPER_OK;
    row = (uint64_t *)proper_calloc((size_t)n + 1, sizeof *row);
    col = (uint32_t *)proper_calloc((size_t)(m->n_trans + n_dead), sizeof *col);
    prob = (double *)proper_calloc((size_t)(m->n_trans + n_dead), sizeof *prob);
    if (!row || !col || !prob) {
        PROPER_FREE(row); PROPER_FREE(col); PROPER_FREE(prob);
        goto nomem;
    }
    out = 0;
    for (s = 0; s < n; s++) {
        row[s] = out;
        if (m->row[s] == m->row[s + 1]) {
            col[out] = s;
            prob[out] = 1.0;
            out++;
            proper_bitset_set(&m->deadlock, s);
        }
        for (k = m->row[s]; k < m->row[s + 1]; k++) {
            col[out] = m->col[k];
            prob[out] = m->prob[k];
            out++;
        }
    }
    row[n] = out;
    PROPER_FREE(m->row); PROPER_FREE(m->col); PROPER_FREE(m->prob);
    m->row = row; m->col = col; m->prob = prob;
    m->n_trans = out;
    return PROPER_OK;
nomem:
    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory fixing deadlocks");
}

PROPER_API int proper_dtmc_builder_finish(proper_dtmc_builder *b, uint32_t n_states, proper_dtmc *out,
                                          proper_error *err) {
    uint32_t n;
    int rc, fix = b->fix_deadlocks;
    proper_dtmc c;
    proper_dtmc_init(&c);
    if ((rc = proper__dtmc_builder_close_open(b, err))) goto fail;
    n = b->n_rows;
    if (b->has_dst && b->max_dst + 1 > n) n = b->max_dst + 1;
    if (n_states > n) n = n_states;
    if (n == 0) {
        rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "a model needs at least one state");
        goto fail;
    }
    if (b->init >= n) {
        rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "initial state %u but only %u states",
                              (unsigned)b->init, (unsigned)n);
        goto fail;
    }
    if ((rc = proper__dtmc_builder_open_rows_to(b, n, err))) goto fail;
    c.n_states = n;
    c.n_trans = b->n_trans;
    c.row = b->row;
    c.init = b->init;
    c.kind = b->rates ? PROPER_DTMC_KIND_CTMC : PROPER_DTMC_KIND_DTMC;
    /* shrink the arrays to their final size (never fails: keep old on NULL) */
    c.col = b->col;
    c.prob = b->prob;
    if (b->n_trans && b->n_trans < b->trans_cap) {
        uint32_t *cols = (uint32_t *)PROPER_REALLOC(b->col, (size_t)b->n_trans * sizeof *cols);
        double *p;
        if (cols) c.col = cols;
        p = (double *)PROPER_REALLOC(b->prob, (size_t)b->n_trans * sizeof *p);
        if (p) c.prob = p;
    }
    b->row = NULL; b->col = NULL; b->prob = NULL;
    proper_dtmc_builder_free(b);
    if ((rc = proper__dtmc_fix_deadlocks(&c, fix, err))) {
        proper_dtmc_free(&c);
        return rc;
    }
    proper_dtmc_free(out);
    *out = c;
    return PROPER_OK;
fail:
    proper_dtmc_builder_free(b);
    return rc;
}

/* ---- graphs ------------------------------------------------------------- */

/* A sparse matrix in compressed rows: row i holds entries col/val[row[i] ..
 * row[i+1]-1]. val may be NULL for a pattern. */
typedef struct proper__dtmc_csr {
    uint32_t n;
    uint64_t *row;
    uint32_t *col;
    double *val;
} proper__dtmc_csr;

static void proper__dtmc_csr_view(const proper_dtmc *m, proper__dtmc_csr *g) {
    g->n = m->n_states;
    g->row = m->row;
    g->col = m->col;
    g->val = m->prob;
}

static void proper__dtmc_csr_free(proper__dtmc_csr *g) {
    PROPER_FREE(g->row);
    PROPER_FREE(g->col);
    PROPER_FREE(g->val);
    g->row = NULL; g->col = NULL; g->val = NULL; g->n = 0;
}

/* The transpose of g restricted to entries s->t with both ends in `keep`
 * (NULL = all); with values when with_val. Entry (t, s) of the result holds
 * g's value of s->t. */
static int proper__dtmc_transpose(const proper__dtmc_csr *g, const proper_bitset *keep, int with_val, proper__dtmc_csr *t) {
    uint32_t n = g->n, s;
    uint64_t k, nnz = 0;
    t->n = n;
    t->col = NULL; t->val = NULL;
    t->row = (uint64_t *)proper_calloc((size_t)n + 1, sizeof *t->row);
    if (!t->row) return PROPER_ENOMEM;
    for (s = 0; s < n; s++) {
        if (keep && !PROPER_BITSET_GET(keep, s)) continue;
        for (k = g->row[s]; k < g->row[s + 1]; k++) {
            uint32_t d = g->col[k];
            if (keep && !PROPER_BITSET_GET(keep, d)) continue;
            t->row[d + 1]++;
            nnz++;
        }
    }
    for (s = 0; s < n; s++) t->row[s + 1] += t->row[s];
    t->col = (uint32_t *)proper_calloc((size_t)(nnz ? nnz : 1), sizeof *t->col);
    if (with_val) t->val = (double *)proper_calloc((size_t)(nnz ? nnz : 1), sizeof *t->val);
    if (!t->col || (with_val && !t->val)) { proper__dtmc_csr_free(t); return PROPER_ENOMEM; }
    /* fill using row[] as insertion cursors, then shift back */
    for (s = 0; s < n; s++) {
        if (keep && !PROPER_BITSET_GET(keep, s)) continue;
        for (k = g->row[s]; k < g->row[s + 1]; k++) {
            uint32_t d = g->col[k];
            uint64_t at;
            if (keep && !PROPER_BITSET_GET(keep, d)) continue;
            at = t->row[d]++;
            t->col[at] = s;
            if (with_val) t->val[at] = g->val[k];
        }
    }
    for (s = n; s > 0; s--) t->row[s] = t->row[s - 1];
    t->row[0] = 0;
    return PROPER_OK;
}

/* out = target ∪ { s ∈ through : some successor of s is in out } (least
 * fixed point), by breadth-first search over predecessors `pred`. */
static int proper__dtmc_backward_reach(const proper__dtmc_csr *pred, const proper_bitset *target,
                                  const proper_bitset *through, proper_bitset *out) {
    uint32_t n = pred->n, s, *queue;
    size_t head = 0, tail = 0;
    proper_bitset_init(out);
    if (proper_bitset_copy(out, target, NULL)) return PROPER_ENOMEM;
    queue = (uint32_t *)proper_calloc(n ? n : 1, sizeof *queue);
    if (!queue) { proper_bitset_free(out); return PROPER_ENOMEM; }
    for (s = 0; s < n; s++)
        if (PROPER_BITSET_GET(target, s)) queue[tail++] = s;
    while (head < tail) {
        uint32_t t = queue[head++];
        uint64_t k;
        for (k = pred->row[t]; k < pred->row[t + 1]; k++) {
            uint32_t p = pred->col[k];
            if (PROPER_BITSET_GET(out, p)) continue;
            if (through && !PROPER_BITSET_GET(through, p)) continue;
            proper_bitset_set(out, p);
            queue[tail++] = p;
        }
    }
    PROPER_FREE(queue);
    return PROPER_OK;
}

/* prob0 given predecessors: states that cannot reach phi2 through phi1. */
static int proper__dtmc_prob0(const proper__dtmc_csr *pred, const proper_bitset *phi1, const proper_bitset *phi2,
                         proper_bitset *out) {
    if (proper__dtmc_backward_reach(pred, phi2, phi1, out)) return PROPER_ENOMEM;
    proper_bitset_not(out);
    return PROPER_OK;
}

/* prob1 given predecessors and prob0 (`no`): states that cannot reach a
 * `no` state through phi1 & !phi2 states (Baier & Katoen, Alg. 46). */
static int proper__dtmc_prob1(const proper__dtmc_csr *pred, const proper_bitset *phi1, const proper_bitset *phi2,
                         const proper_bitset *no, proper_bitset *out) {
    proper_bitset through;
    int rc;
    proper_bitset_init(&through);
    if (proper_bitset_copy(&through, phi2, NULL)) return PROPER_ENOMEM;
    proper_bitset_not(&through);
    if (phi1) proper_bitset_and(&through, phi1);
    rc = proper__dtmc_backward_reach(pred, no, &through, out);
    proper_bitset_free(&through);
    if (rc) return rc;
    proper_bitset_not(out);
    return PROPER_OK;
}

static int proper__dtmc_check_set(const proper_dtmc *m, const proper_bitset *b, const char *what, proper_error *err) {
    if (b && b->n != m->n_states)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s has %zu bits, the model %u states", what, b->n,
                                (unsigned)m->n_states);
    return PROPER_OK;
}

static int proper__dtmc_prob01(const proper_dtmc *m, const proper_bitset *phi1, const proper_bitset *phi2,
                          proper_bitset *out, int want_one, proper_error *err) {
    proper__dtmc_csr g, pred;
    proper_bitset no, yes;
    int rc;
    if ((rc = proper__dtmc_check_set(m, phi1, "phi1", err)) || (rc = proper__dtmc_check_set(m, phi2, "phi2", err))) return rc;
    proper__dtmc_csr_view(m, &g);
    if (proper__dtmc_transpose(&g, NULL, 0, &pred)) goto nomem;
    if (proper__dtmc_prob0(&pred, phi1, phi2, &no)) { proper__dtmc_csr_free(&pred); goto nomem; }
    if (!want_one) {
        proper__dtmc_csr_free(&pred);
        proper_bitset_free(out);
        *out = no;
        return PROPER_OK;
    }
    rc = proper__dtmc_prob1(&pred, phi1, phi2, &no, &yes);
    proper_bitset_free(&no);
    proper__dtmc_csr_free(&pred);
    if (rc) goto nomem;
    proper_bitset_free(out);
    *out = yes;
    return PROPER_OK;
nomem:
    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory in graph precomputation");
}

PROPER_API int proper_dtmc_prob0(const proper_dtmc *m, const proper_bitset *phi1, const proper_bitset *phi2,
                                 proper_bitset *out, proper_error *err) {
    return proper__dtmc_prob01(m, phi1, phi2, out, 0, err);
}

PROPER_API int proper_dtmc_prob1(const proper_dtmc *m, const proper_bitset *phi1, const proper_bitset *phi2,
                                 proper_bitset *out, proper_error *err) {
    return proper__dtmc_prob01(m, phi1, phi2, out, 1, err);
}

/* Strongly connected components of the subgraph of g induced by mask
 * (NULL = all), by Tarjan's algorithm with an explicit call stack.
 * comp[v]: component of v (UINT32_MAX outside the mask), numbered in the
 * order Tarjan completes them, which is reverse topological. order[]: the
 * states grouped by component; start[c] .. start[c+1]-1 index component c
 * in order[] (start has room for n + 1 entries). */
typedef struct proper__dtmc_sccs {
    uint32_t n_comp;
    uint32_t *comp;
    uint32_t *order;
    uint32_t *start;
} proper__dtmc_sccs;

static void proper__dtmc_sccs_free(proper__dtmc_sccs *c) {
    PROPER_FREE(c->comp);
    PROPER_FREE(c->order);
    PROPER_FREE(c->start);
    c->comp = c->order = c->start = NULL;
    c->n_comp = 0;
}

#define PROPER__DONE UINT32_MAX

static int proper__dtmc_tarjan(const proper__dtmc_csr *g, const proper_bitset *mask, proper__dtmc_sccs *out) {
    uint32_t n = g->n, r, counter = 0, sp = 0, depth, written = 0;
    uint32_t *idx, *low, *order, *cs_v;
    uint64_t *cs_e;
    out->n_comp = 0;
    out->comp = (uint32_t *)proper_calloc(n ? n : 1, sizeof(uint32_t));
    out->order = (uint32_t *)proper_calloc(n ? n : 1, sizeof(uint32_t));
    out->start = (uint32_t *)proper_calloc((size_t)n + 1, sizeof(uint32_t));
    idx = (uint32_t *)proper_calloc(n ? n : 1, sizeof *idx);
    cs_v = (uint32_t *)proper_calloc(n ? n : 1, sizeof *cs_v);
    cs_e = (uint64_t *)proper_calloc(n ? n : 1, sizeof *cs_e);
    if (!out->comp || !out->order || !out->start || !idx || !cs_v || !cs_e) {
        proper__dtmc_sccs_free(out);
        PROPER_FREE(idx); PROPER_FREE(cs_v); PROPER_FREE(cs_e);
        return PROPER_ENOMEM;
    }
    low = out->comp; /* lowlink while active, component number once done */
    order = out->order; /* finished states grow from the front, the Tarjan stack from the back */
    for (r = 0; r < n; r++) {
        if (mask && !PROPER_BITSET_GET(mask, r)) { low[r] = UINT32_MAX; idx[r] = PROPER__DONE; continue; }
        if (idx[r]) continue;
        idx[r] = low[r] = ++counter;
        order[n - 1 - sp++] = r;
        cs_v[0] = r; cs_e[0] = g->row[r]; depth = 1;
        while (depth) {
            uint32_t v = cs_v[depth - 1];
            uint64_t e = cs_e[depth - 1];
            if (e < g->row[v + 1]) {
                uint32_t w = g->col[e];
                cs_e[depth - 1] = e + 1;
                if (mask && !PROPER_BITSET_GET(mask, w)) continue;
                if (idx[w] == 0) {
                    idx[w] = low[w] = ++counter;
                    order[n - 1 - sp++] = w;
                    cs_v[depth] = w; cs_e[depth] = g->row[w]; depth++;
                } else if (idx[w] != PROPER__DONE && idx[w] < low[v]) {
                    low[v] = idx[w];
                }
                continue;
            }
            depth--;
            if (low[v] == idx[v]) {
                /* v roots a component: the stack down to v */
                uint32_t c = out->n_comp++;
                out->start[c] = written;
                for (;;) {
                    uint32_t w = order[n - sp];
                    sp--;
                    order[written++] = w;
                    idx[w] = PROPER__DONE;
                    low[w] = c;
                    if (w == v) break;
                }
            } else if (depth) {
                uint32_t u = cs_v[depth - 1];
                if (low[v] < low[u]) low[u] = low[v];
            }
        }
    }
    out->start[out->n_comp] = written;
    PROPER_FREE(idx); PROPER_FREE(cs_v); PROPER_FREE(cs_e);
    return PROPER_OK;
}

PROPER_API int proper_dtmc_scc(const proper_dtmc *m, const proper_bitset *restrict_to, uint32_t *comp,
                               uint32_t *n_comp, proper_error *err) {
    proper__dtmc_csr g;
    proper__dtmc_sccs c;
    int rc;
    if ((rc = proper__dtmc_check_set(m, restrict_to, "restrict_to", err))) return rc;
    proper__dtmc_csr_view(m, &g);
    if (proper__dtmc_tarjan(&g, restrict_to, &c))
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory computing SCCs");
    memcpy(comp, c.comp, (size_t)m->n_states * sizeof *comp);
    *n_comp = c.n_comp;
    proper__dtmc_sccs_free(&c);
    return PROPER_OK;
}

/* List the members of every component in increasing state order (a
 * counting sort by component; `cursor` has room for n entries). Models are
 * usually numbered in exploration order, so this keeps neighbours close in
 * memory; it also keeps chains in band form for the banded solver. */
static void proper__dtmc_sccs_sort_members(proper__dtmc_sccs *c, uint32_t n, uint32_t *cursor) {
    uint32_t s, k;
    for (k = 0; k < c->n_comp; k++) cursor[k] = c->start[k];
    for (s = 0; s < n; s++)
        if (c->comp[s] != UINT32_MAX) c->order[cursor[c->comp[s]]++] = s;
}

/* Components of c (over g) that no edge leaves: bottom components. */
static int proper__dtmc_is_bottom(const proper__dtmc_csr *g, const proper__dtmc_sccs *c, uint32_t k) {
    uint32_t i;
    for (i = c->start[k]; i < c->start[k + 1]; i++) {
        uint32_t s = c->order[i];
        uint64_t e;
        for (e = g->row[s]; e < g->row[s + 1]; e++)
            if (c->comp[g->col[e]] != k) return 0;
    }
    return 1;
}

PROPER_API int proper_dtmc_bscc(const proper_dtmc *m, uint32_t *bscc, uint32_t *n_bscc, proper_error *err) {
    proper__dtmc_csr g;
    proper__dtmc_sccs c;
    uint32_t k, i, nb = 0;
    proper__dtmc_csr_view(m, &g);
    if (proper__dtmc_tarjan(&g, NULL, &c))
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory computing SCCs");
    for (i = 0; i < m->n_states; i++) bscc[i] = UINT32_MAX;
    for (k = 0; k < c.n_comp; k++) {
        if (!proper__dtmc_is_bottom(&g, &c, k)) continue;
        for (i = c.start[k]; i < c.start[k + 1]; i++) bscc[c.order[i]] = nb;
        nb++;
    }
    *n_bscc = nb;
    proper__dtmc_sccs_free(&c);
    return PROPER_OK;
}

/* ---- linear systems x = A x + b, component by component ----------------- */

PROPER_API proper_dtmc_solve_opts proper_dtmc_solve_opts_default(void) {
    proper_dtmc_solve_opts o;
    o.rel_precision = PROPER_DTMC_REL_PRECISION;
    o.max_sweeps = PROPER_DTMC_MAX_SWEEPS;
    o.sound = 1;
    o.dense_max = PROPER_DTMC_DENSE_MAX;
    o.band_max = PROPER_DTMC_BAND_MAX;
    o.direct_max = PROPER_DTMC_DIRECT_MAX;
    o.gth_max = PROPER_DTMC_GTH_MAX;
    o.model_rel_error = 0.0;
    o.transient_accuracy = PROPER_DTMC_TRANSIENT_ACCURACY;
    return o;
}

/* Working storage of one solve: the current component in local numbering
 * (off-diagonal in-component coefficients as CSR, constant part c, diagonal
 * d = 1 - a_ii) and buffers for the direct methods. */
typedef struct proper__dtmc_lin {
    const proper__dtmc_csr *g;
    const double *b;
    double *x;
    proper_dtmc_solve_opts o;
    proper_dtmc_solve_stats *st;
    proper__dtmc_sccs sccs;
    uint32_t *loc;
    uint64_t *lrow;
    uint32_t width;   /* > 0: every local row padded to this many entries (Gauss-Seidel's fixed-width sweep) */
    uint32_t *lcol;
    double *lval, *c, *d, *y, *r;
    double *w, *wc;   /* certificate: w ~ expected steps before leaving the component, wc = 1/d */
    double *ein, *mag; /* per local state: inherited error sum_out a(s,t) errb[t], sum_out |a(s,t) x[t]| */
    size_t cap_states, cap_nnz;
    double *mat;
    size_t cap_mat;
    size_t *piv;
    double *errb;     /* n states: proven bound on |x[s] - exact(s)| (0 outside the mask) */
    double gs_rate, gs_need; /* a hopeless run (proper__dtmc_gs_hopeless): its rate per sweep and the sweeps it needs */
} proper__dtmc_lin;

static void proper__dtmc_lin_free(proper__dtmc_lin *L) {
    proper__dtmc_sccs_free(&L->sccs);
    PROPER_FREE(L->loc); PROPER_FREE(L->lrow); PROPER_FREE(L->lcol); PROPER_FREE(L->lval);
    PROPER_FREE(L->c); PROPER_FREE(L->d); PROPER_FREE(L->y); PROPER_FREE(L->r);
    PROPER_FREE(L->w); PROPER_FREE(L->wc); PROPER_FREE(L->ein); PROPER_FREE(L->mag);
    PROPER_FREE(L->mat); PROPER_FREE(L->piv); PROPER_FREE(L->errb);
}

static int proper__dtmc_lin_reserve_states(proper__dtmc_lin *L, size_t k) {
    size_t cap;
    if (k + 1 <= L->cap_states) return PROPER_OK;
    cap = L->cap_states;
    if (proper_reserve(&L->lrow, &cap, k + 1, sizeof *L->lrow)) return PROPER_ENOMEM;
#define PROPER__GROW(arr) \
    cap = L->cap_states; \
    if (proper_reserve(&arr, &cap, k + 1, sizeof *arr)) return PROPER_ENOMEM;
    PROPER__GROW(L->c)
    PROPER__GROW(L->d)
    PROPER__GROW(L->y)
    PROPER__GROW(L->r)
    PROPER__GROW(L->w)
    PROPER__GROW(L->wc)
    PROPER__GROW(L->ein)
    PROPER__GROW(L->mag)
    PROPER__GROW(L->piv)
#undef PROPER__GROW
    L->cap_states = cap;
    return PROPER_OK;
}

/* Local system of component k: y_i = (c_i + sum_j lval_ij y_j) / d_i. */
static int proper__dtmc_lin_local(proper__dtmc_lin *L, uint32_t k, uint32_t *size, uint64_t *nnz_out) {
    const proper__dtmc_csr *g = L->g;
    uint32_t first = L->sccs.start[k], sz = L->sccs.start[k + 1] - first, i;
    uint64_t nnz = 0, e;
    if (proper__dtmc_lin_reserve_states(L, sz)) return PROPER_ENOMEM;
    for (i = 0; i < sz; i++) L->loc[L->sccs.order[first + i]] = i;
    for (i = 0; i < sz; i++) {
        uint32_t s = L->sccs.order[first + i];
        double ci = L->b ? L->b[s] : 0.0, di = 1.0, ein = 0.0, mag = fabs(ci);
        L->lrow[i] = nnz;
        for (e = g->row[s]; e < g->row[s + 1]; e++) {
            uint32_t t = g->col[e];
            double a = g->val[e];
            if (t == s) {
                di -= a;
            } else if (L->sccs.comp[t] == k) {
                if (nnz >= L->cap_nnz) {
                    size_t cap = L->cap_nnz;
                    if (proper_reserve(&L->lcol, &cap, (size_t)nnz + 1, sizeof *L->lcol)) return PROPER_ENOMEM;
                    cap = L->cap_nnz;
                    if (proper_reserve(&L->lval, &cap, (size_t)nnz + 1, sizeof *L->lval)) return PROPER_ENOMEM;
                    L->cap_nnz = cap;
                }
                L->lcol[nnz] = L->loc[t];
                L->lval[nnz] = a;
                nnz++;
            } else {
                ci += a * L->x[t];
                mag += fabs(a * L->x[t]);
                ein += a * L->errb[t];
            }
        }
        L->c[i] = ci;
        L->d[i] = di;
        L->ein[i] = ein;
        L->mag[i] = mag;
    }
    L->lrow[sz] = nnz;
    *size = sz;
    *nnz_out = nnz;
    return PROPER_OK;
}

/* Sums of products in twice the working precision, for the certificate of
 * a direct solve: Dot2 of Ogita, Rump and Oishi, "Accurate sum and dot
 * product", SIAM J. Sci. Comput. 26(6), 2005, Algorithm 5.3, with Dekker's
 * error-free product (Veltkamp's split: no fused multiply-add needed) and
 * Knuth's TwoSum. Their Proposition 5.5: the result is within
 * u |sum| + gamma_n^2 sum |terms| of the exact sum of n products, u the
 * unit roundoff of doubles; a residual of a solve whose error is near the
 * rounding of doubles thus keeps its value where long double (u = 2^-64)
 * would bury it under u |y| w, which limits a proven bound to expected
 * stays of about 1e9 steps. The transformations are exact barring
 * overflow and underflow: a non-finite result makes the caller fall back
 * to long double, and a non-zero product below 2^-968 (whose low part may
 * underflow) adds 4 DBL_MIN to the bound. */
typedef struct proper__dtmc_dot2 {
    double p, s, mag;
    unsigned long n, tiny;
} proper__dtmc_dot2;

static void proper__dtmc_dot2_init(proper__dtmc_dot2 *d) {
    d->p = d->s = d->mag = 0.0;
    d->n = d->tiny = 0;
}

static void proper__dtmc_two_sum(double a, double b, double *sum, double *err) {
    double s = a + b, bv = s - a;
    *sum = s;
    *err = (a - (s - bv)) + (b - bv);
}

/* d += a * b */
static void proper__dtmc_dot2_add(proper__dtmc_dot2 *d, double a, double b) {
    const double split = 134217729.0; /* 2^27 + 1 */
    double ca = split * a, cb = split * b, ah = ca - (ca - a), al = a - ah, bh = cb - (cb - b), bl = b - bh;
    double h = a * b, r = ((ah * bh - h) + ah * bl + al * bh) + al * bl, q;
    proper__dtmc_two_sum(d->p, h, &d->p, &q);
    d->s += q + r;
    d->mag += fabs(h);
    d->n++;
    if (h != 0.0 && fabs(h) < DBL_MIN * 18014398509481984.0) d->tiny++; /* 2^-1022 2^54 */
}

/* An upper bound of |exact sum| (hi = 1) or a lower bound of the exact sum
 * (hi = 0), or NAN when a step overflowed. */
static double proper__dtmc_dot2_bound(const proper__dtmc_dot2 *d, int hi) {
    double u = DBL_EPSILON / 2.0, n = (double)d->n + 1.0, g = n * u / (1.0 - n * u), v = d->p + d->s;
    double slack = g * g * d->mag * (1.0 + 4.0 * u) + 4.0 * (double)d->tiny * DBL_MIN;
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
    return NAN; /* doubles evaluated in wider registers: the transformations are not exact */
#endif
    if (!isfinite(v) || !isfinite(slack)) return NAN;
    return hi ? (fabs(v) + slack) / (1.0 - u) * (1.0 + 2.0 * u) : (v - slack) * (v - slack > 0 ? 1.0 - 2.0 * u : 1.0 + 2.0 * u);
}

/* r = c - (D - A) y: the residual of the local system, accumulated in
 * long double, or (precise) r = b + A y - y over the component's rows as
 * the model stores them (the values outside from x), summed by Dot2 and
 * rounded once. With the residual in extended precision, refinement steps
 * (y += M^{-1} r) bring the forward error of a direct solve down to about
 * cond(M) times the residual's unit roundoff instead of cond(M) times the
 * double rounding unit (mixed-precision iterative refinement; Higham,
 * Accuracy and Stability, ch. 12). It matters for chains of components (a
 * large downstream value passes through every component's solve) and,
 * with Dot2, for components of long expected stays: long double leaves
 * about cond(M) 5e-20 relative (5e-8 for a stay of 1e12 steps), Dot2 the
 * rounding of doubles while cond(M) u < 1. A Dot2 sum that overflows falls
 * back to long double. */
static void proper__dtmc_lin_residual(const proper__dtmc_lin *L, uint32_t k, uint32_t sz, int precise, const double *y,
                                      double *r) {
    const proper__dtmc_csr *g = L->g;
    uint32_t i;
    for (i = 0; i < sz; i++) {
        uint32_t s = L->sccs.order[L->sccs.start[k] + i];
        long double v = (long double)L->c[i] - (long double)L->d[i] * y[i];
        uint64_t e;
        if (precise) {
            proper__dtmc_dot2 d;
            proper__dtmc_dot2_init(&d);
            proper__dtmc_dot2_add(&d, L->b ? L->b[s] : 0.0, 1.0);
            proper__dtmc_dot2_add(&d, y[i], -1.0);
            for (e = g->row[s]; e < g->row[s + 1]; e++) {
                uint32_t t = g->col[e];
                proper__dtmc_dot2_add(&d, g->val[e], L->sccs.comp[t] == k ? y[L->loc[t]] : L->x[t]);
            }
            r[i] = d.p + d.s;
            if (isfinite(r[i])) continue;
        }
        for (e = L->lrow[i]; e < L->lrow[i + 1]; e++) v += (long double)L->lval[e] * y[L->lcol[e]];
        r[i] = (double)v;
    }
}

static int proper__dtmc_lin_reserve_mat(proper__dtmc_lin *L, size_t cells) {
    return proper_reserve(&L->mat, &L->cap_mat, cells, sizeof *L->mat);
}

/* Dense LU with partial pivoting of M = D - A (sz x sz, row-major), by
 * core.h's proper_lu_factor; an exactly singular M is PROPER_ENOCONV. */
static int proper__dtmc_dense_factor(proper__dtmc_lin *L, uint32_t sz) {
    double *M;
    uint32_t i;
    uint64_t e;
    if (proper__dtmc_lin_reserve_mat(L, (size_t)sz * sz)) return PROPER_ENOMEM;
    M = L->mat;
    memset(M, 0, (size_t)sz * sz * sizeof *M);
    for (i = 0; i < sz; i++) {
        M[(size_t)i * sz + i] = L->d[i];
        for (e = L->lrow[i]; e < L->lrow[i + 1]; e++) M[(size_t)i * sz + L->lcol[e]] -= L->lval[e];
    }
    return proper_lu_factor(M, sz, L->piv, 0.0) ? PROPER_ENOCONV : PROPER_OK;
}

/* Banded elimination of M = D - A without pivoting: M is an M-matrix with
 * weak row diagonal dominance, for which Gaussian elimination without
 * pivoting is stable (growth factor <= 2; Wilkinson 1961) and its factors
 * keep M's band. Band storage: entry (i, j) at mat[i * w + (j - i + bl)]. */
static int proper__dtmc_band_factor(proper__dtmc_lin *L, uint32_t sz, uint32_t bl, uint32_t bu) {
    size_t w = (size_t)bl + bu + 1;
    double *B;
    uint32_t i, p, j;
    uint64_t e;
    if (proper__dtmc_lin_reserve_mat(L, (size_t)sz * w)) return PROPER_ENOMEM;
    B = L->mat;
    memset(B, 0, (size_t)sz * w * sizeof *B);
    for (i = 0; i < sz; i++) {
        B[(size_t)i * w + bl] = L->d[i];
        for (e = L->lrow[i]; e < L->lrow[i + 1]; e++) B[(size_t)i * w + (L->lcol[e] + bl - i)] -= L->lval[e];
    }
    for (p = 0; p < sz; p++) {
        double piv = B[(size_t)p * w + bl];
        uint32_t ilast = p + bl < sz - 1 ? p + bl : sz - 1;
        uint32_t jlast = p + bu < sz - 1 ? p + bu : sz - 1;
        if (!(piv > 0.0)) return PROPER_ENOCONV;
        for (i = p + 1; i <= ilast; i++) {
            double *Bi = B + (size_t)i * w + bl - i;
            double f = Bi[p] / piv;
            Bi[p] = f;
            if (f == 0.0) continue;
            for (j = p + 1; j <= jlast; j++) Bi[j] -= f * B[(size_t)p * w + bl - p + j];
        }
    }
    return PROPER_OK;
}

static void proper__dtmc_band_solve(const proper__dtmc_lin *L, uint32_t sz, uint32_t bl, uint32_t bu, double *v) {
    size_t w = (size_t)bl + bu + 1;
    const double *B = L->mat;
    uint32_t i, p, j;
    for (p = 0; p < sz; p++) {
        uint32_t ilast = p + bl < sz - 1 ? p + bl : sz - 1;
        for (i = p + 1; i <= ilast; i++) v[i] -= B[(size_t)i * w + bl - i + p] * v[p];
    }
    for (i = sz; i-- > 0;) {
        uint32_t jlast = i + bu < sz - 1 ? i + bu : sz - 1;
        double s = v[i];
        for (j = i + 1; j <= jlast; j++) s -= B[(size_t)i * w + bl - i + j] * v[j];
        v[i] = s / B[(size_t)i * w + bl];
    }
}

/* Refinement steps in twice the working precision when the certificate of
 * a direct solve asks for them. */
#define PROPER__DTMC_REFINE_STEPS 4

/* Refinement of a direct solve (factors in L->mat): y += M^{-1} r until a
 * correction is at the rounding of y, at most `steps` times (each gains a
 * factor of about cond(M) times the residual's unit roundoff). */
static void proper__dtmc_lin_refine(proper__dtmc_lin *L, uint32_t k, uint32_t sz, int band, uint32_t bl, uint32_t bu,
                                    int precise, int steps) {
    uint32_t i;
    int step;
    for (step = 0; step < steps; step++) {
        double change = 0.0, top = 0.0;
        proper__dtmc_lin_residual(L, k, sz, precise, L->y, L->r);
        if (band) proper__dtmc_band_solve(L, sz, bl, bu, L->r); else proper_lu_solve(L->mat, sz, L->piv, L->r);
        for (i = 0; i < sz; i++) {
            L->y[i] += L->r[i];
            change = fmax(change, fabs(L->r[i]));
            top = fmax(top, fabs(L->y[i]));
        }
        if (!(change > DBL_EPSILON * top)) break;
    }
}

/* Solve the local system of component k directly (dense or banded) with
 * one step of refinement in long double (the precise steps come only when
 * the certificate asks for them: proper__dtmc_lin_accept_direct). */
static int proper__dtmc_lin_direct(proper__dtmc_lin *L, uint32_t k, uint32_t sz, int band, uint32_t bl, uint32_t bu) {
    int rc = band ? proper__dtmc_band_factor(L, sz, bl, bu) : proper__dtmc_dense_factor(L, sz);
    if (rc) return rc;
    memcpy(L->y, L->c, sz * sizeof *L->y);
    if (band) proper__dtmc_band_solve(L, sz, bl, bu, L->y); else proper_lu_solve(L->mat, sz, L->piv, L->y);
    proper__dtmc_lin_refine(L, k, sz, band, bl, bu, 0, 1);
    return PROPER_OK;
}

/* One Gauss–Seidel sweep on y = c + A y (rows already divided by their
 * diagonal), from the last local state to the first: models numbered in
 * exploration order mostly point forward, so this uses fresh successor
 * values (half the sweeps of the forward order on the benchmark models).
 * Returns the largest change; *maxabs the largest |y|. */
static double proper__dtmc_gs_sweep(const uint64_t *row, const uint32_t *col, const double *val, const double *c,
                               double *y, uint32_t sz, double *maxabs) {
    double maxdiff = 0.0, top = 0.0;
    uint32_t i;
    for (i = sz; i-- > 0;) {
        double v = c[i], diff;
        uint64_t e, end = row[i + 1];
        for (e = row[i]; e < end; e++) v += val[e] * y[col[e]];
        diff = fabs(v - y[i]);
        maxdiff = diff > maxdiff ? diff : maxdiff;
        top = fabs(v) > top ? fabs(v) : top;
        y[i] = v;
    }
    *maxabs = top;
    return maxdiff;
}

/* The same sweep over rows padded to exactly w entries (zero coefficients
 * on the row's own column): with a fixed trip count the inner loop has no
 * branch to mispredict, which on rows of random lengths costs more than
 * the padding's bytes. The last entry of a row is the freshest value
 * (proper__dtmc_lin_order_rows); when it is the row just computed it is
 * taken from the register rather than reloaded from y, which takes the
 * store-to-load round trip out of the chain that links row to row (0.86 s
 * to 0.74 s on the bench's random 10^6 model, 0.63 s to 0.49 s on spread,
 * bit for bit the same values). */
static double proper__dtmc_gs_sweep_fixed(const uint32_t *col, const double *val, const double *c, double *y,
                                          uint32_t sz, uint32_t w, double *maxabs) {
    double maxdiff = 0.0, top = 0.0, last = 0.0;
    uint32_t i, k;
    for (i = sz; i-- > 0;) {
        const uint32_t *cr = col + (uint64_t)i * w;
        const double *vr = val + (uint64_t)i * w;
        double v = c[i], diff;
        for (k = 0; k + 1 < w; k++) v += vr[k] * y[cr[k]];
        v += vr[w - 1] * (cr[w - 1] == i + 1 ? last : y[cr[w - 1]]);
        last = v;
        diff = fabs(v - y[i]);
        maxdiff = diff > maxdiff ? diff : maxdiff;
        top = fabs(v) > top ? fabs(v) : top;
        y[i] = v;
    }
    *maxabs = top;
    return maxdiff;
}

/* One sweep of the local system y = c + A y in place; the padded widths
 * get a kernel each so that the compiler unrolls the row. */
static double proper__dtmc_lin_sweep(const proper__dtmc_lin *L, uint32_t sz, const double *c, double *y,
                                     double *maxabs) {
    switch (L->width) {
    case 1: return proper__dtmc_gs_sweep_fixed(L->lcol, L->lval, c, y, sz, 1, maxabs);
    case 2: return proper__dtmc_gs_sweep_fixed(L->lcol, L->lval, c, y, sz, 2, maxabs);
    case 3: return proper__dtmc_gs_sweep_fixed(L->lcol, L->lval, c, y, sz, 3, maxabs);
    case 4: return proper__dtmc_gs_sweep_fixed(L->lcol, L->lval, c, y, sz, 4, maxabs);
    default: return proper__dtmc_gs_sweep(L->lrow, L->lcol, L->lval, c, y, sz, maxabs);
    }
}

/* The last five rate estimates agree to 0.1% and show a slow mode (at
 * least 0.5 per sweep: a faster one is not worth a jump). */
static int proper__dtmc_slow_mode_settled(const double *h) {
    double lo = h[0], hi = h[0];
    int j;
    for (j = 1; j < 5; j++) {
        lo = h[j] < lo ? h[j] : lo;
        hi = h[j] > hi ? h[j] : hi;
    }
    return lo >= 0.5 && hi < 0.9999 && hi - lo <= 1e-3 * hi;
}

/* Whether Gauss-Seidel cannot reach eps within its sweep budget, judged at
 * check points 8192, 16384, 32768, ... sweeps: between two of them the
 * changes shrank by rho per sweep, and the estimate rel rho / (1 - rho)
 * reaches eps after log(rel rho / ((1 - rho) eps)) / -log(rho) more sweeps.
 * When two check points in a row put that past max_sweeps, the run stops
 * (L->gs_rate and L->gs_need say why) instead of sweeping to the limit: a
 * chain whose values fill up by a constant amount per sweep (changes
 * shrinking as 1/k, not geometrically) needs many times any budget. */
static int proper__dtmc_gs_hopeless(proper__dtmc_lin *L, unsigned long sweep, unsigned long done, double rel,
                                    double eps, double *at_rel, unsigned long *at, int *strikes) {
    double rho, need;
    if (sweep < 8192 || (*at > 0 && sweep < 2 * *at)) return 0;
    if (*at == 0) { /* the first check point (a sweep that jumped may have skipped it: the next one) */
        *at = sweep;
        *at_rel = rel;
        return 0;
    }
    rho = pow(rel / *at_rel, 1.0 / (double)(sweep - *at));
    need = rho < 1.0 ? log(rel * rho / ((1.0 - rho) * eps)) / -log(rho) : INFINITY;
    *at = sweep;
    *at_rel = rel;
    *strikes = (double)done + need > (double)L->o.max_sweeps ? *strikes + 1 : 0;
    if (*strikes < 2) return 0;
    L->gs_rate = rho;
    L->gs_need = (double)done + need;
    return 1;
}

/* Gauss–Seidel sweeps on the local system (rows already divided by their
 * diagonal) from the current y, until the estimated error is below
 * `target` relative to the largest |y|.
 *
 * Estimate: with delta_k the largest change of sweep k relative to the
 * largest |y|, and rho the largest ratio delta_j / delta_{j-1} over the last
 * three sweeps (an estimate of the contraction factor), the remaining error
 * of a geometric tail is about delta_k * rho / (1 - rho). This only decides
 * when to try a certificate (proper__dtmc_lin_certify), which decides
 * whether to stop.
 *
 * Rounding floor: near the solution the changes become rounding noise and
 * their ratios scatter around 1. When no sweep has set a new smallest
 * change for 10 sweeps, the tail is measured with the smallest change and
 * the last rate seen while the changes still contracted cleanly (three
 * ratios below 1); *floor is set, as after 500 sweeps without a new low
 * (stagnation: the certificate then proves what was reached).
 *
 * Slow modes: when the error is one isolated slow mode (five successive
 * ratios equal to 0.1%, lambda >= 0.5), successive changes satisfy
 * dy_{k+1} = lambda dy_k and the limit is y_k + dy_k lambda / (1 - lambda)
 * (Lyusternik's extrapolation, Aitken's delta-squared on vectors). At most 4
 * jumps, and none once a jump has not cut the changes tenfold by the time
 * the next one is due; none at all when `jumps` is 0 (a run continued
 * after a certificate: the changes are then too small to measure a mode).
 * After a jump rho is never taken below lambda, so whatever remains of that
 * mode still counts at its own rate. A jump is judged by the sweep after
 * it: when that sweep changes y more than the one before the jump did (the
 * rate was not one mode's: the polling example of PRISM's suite, poll7,
 * has a damped oscillation whose ratios agreed to 0.1% for five sweeps,
 * and its jump of 1200 times the change multiplied the error by 300), y is
 * put back to where it was before the jump and no more jumps are made.
 * Either way the stagnation count starts again after the jump. */
static int proper__dtmc_gs_run(proper__dtmc_lin *L, uint32_t sz, double eps, int jumps, unsigned long *sweeps,
                               int *floor) {
    double hist[5] = {0.0, 0.0, 0.0, 0.0, 0.0}, prev = 0.0, best = INFINITY;
    double clean = -1.0, slow = 0.0, slow_at_jump = 0.0, rel_at_jump = INFINITY, at_rel = 0.0;
    unsigned long sweep, since_best = 0, since_jump = 0, at = 0;
    int n_jumps = jumps ? 0 : 4, pending = 0, strikes = 0, j;
    uint32_t i;
    *floor = 0;
    L->gs_need = 0.0;
    for (sweep = 1; *sweeps < L->o.max_sweeps; sweep++) {
        double maxabs, rel, rho;
        double maxdiff = proper__dtmc_lin_sweep(L, sz, L->c, L->y, &maxabs);
        ++*sweeps;
        if (maxdiff == 0.0) { *floor = 1; return PROPER_OK; }
        rel = maxdiff / maxabs;
        if (rel <= 2.0 * DBL_EPSILON) { *floor = 1; return PROPER_OK; } /* changes at rounding level */
        for (j = 0; j < 4; j++) hist[j] = hist[j + 1];
        hist[4] = prev > 0.0 ? rel / prev : 1.0;
        prev = rel;
        since_jump++;
        if (pending) { /* L->r holds the previous sweep: jump along the change, keeping y in L->r */
            double lambda = hist[4], f = lambda / (1.0 - lambda);
            for (i = 0; i < sz; i++) {
                double before = L->y[i];
                L->y[i] += f * (before - L->r[i]);
                L->r[i] = before;
            }
            n_jumps++;
            pending = 0;
            since_jump = 0;
            prev = 0.0;
            rel_at_jump = rel;
            slow_at_jump = lambda;
            continue;
        }
        if (since_jump == 1 && n_jumps > 0 && jumps) { /* the sweep after a jump judges it */
            if (rel > rel_at_jump) {
                memcpy(L->y, L->r, sz * sizeof *L->y);
                n_jumps = 4;
                prev = 0.0;
            } else if (slow_at_jump > slow) {
                slow = slow_at_jump;
            }
            best = INFINITY;
            since_best = 0;
            continue;
        }
        if (rel < best) { best = rel; since_best = 0; }
        else since_best++;
        if (proper__dtmc_gs_hopeless(L, sweep, *sweeps, rel, eps, &at_rel, &at, &strikes)) return PROPER_ENOCONV;
        if (sweep < 4 || since_jump < 4) continue;
        rho = hist[2] > hist[3] ? hist[2] : hist[3];
        if (hist[4] > rho) rho = hist[4];
        if (slow > rho) rho = slow;
        if (rho < 1.0) {
            if (rel * rho / (1.0 - rho) <= eps) return PROPER_OK;
            if (since_best == 0) clean = rho;
        }
        if ((since_best >= 10 && clean >= 0.0 && best * clean / (1.0 - clean) <= eps) || since_best >= 500) {
            *floor = 1; /* the certificate says what this precision is worth */
            return PROPER_OK;
        }
        if (n_jumps < 4 && since_jump >= 6 && proper__dtmc_slow_mode_settled(hist)) {
            if (rel > 0.1 * rel_at_jump) {
                n_jumps = 4; /* the last jump did not pay: plain sweeps from here */
            } else {
                memcpy(L->r, L->y, sz * sizeof *L->r);
                pending = 1;
            }
        }
    }
    return PROPER_ENOCONV;
}


/* The certificate's three quantities of local row i (see below) in twice
 * the working precision: *vr >= |r_i - (M delta)_i|, *vm <= (M w)_i,
 * *vd <= 1 - (row sum); also the largest inherited error met. Returns 0,
 * or -1 when a sum overflowed (the caller then uses long double). */
static int proper__dtmc_certify_row_dot2(const proper__dtmc_lin *L, uint32_t k, uint32_t i, const double *w,
                                         const double *delta_corr, double *vr, double *vm, double *vd,
                                         double *e_out) {
    const proper__dtmc_csr *g = L->g;
    uint32_t s = L->sccs.order[L->sccs.start[k] + i];
    proper__dtmc_dot2 r, mw, dl;
    uint64_t e;
    proper__dtmc_dot2_init(&r);
    proper__dtmc_dot2_init(&mw);
    proper__dtmc_dot2_init(&dl);
    proper__dtmc_dot2_add(&r, L->b ? L->b[s] : 0.0, 1.0);
    proper__dtmc_dot2_add(&r, L->y[i], -1.0);
    proper__dtmc_dot2_add(&r, delta_corr[i], -1.0);
    proper__dtmc_dot2_add(&mw, w[i], 1.0);
    proper__dtmc_dot2_add(&dl, 1.0, 1.0);
    for (e = g->row[s]; e < g->row[s + 1]; e++) {
        uint32_t t = g->col[e];
        double a = g->val[e];
        proper__dtmc_dot2_add(&dl, a, -1.0);
        if (L->sccs.comp[t] == k) {
            uint32_t j = L->loc[t];
            proper__dtmc_dot2_add(&r, a, L->y[j]);
            proper__dtmc_dot2_add(&r, a, delta_corr[j]);
            proper__dtmc_dot2_add(&mw, a, -w[j]);
        } else {
            proper__dtmc_dot2_add(&r, a, L->x[t]);
            if (L->errb[t] > *e_out) *e_out = L->errb[t];
        }
    }
    *vr = proper__dtmc_dot2_bound(&r, 1);
    *vm = proper__dtmc_dot2_bound(&mw, 0);
    *vd = proper__dtmc_dot2_bound(&dl, 0);
    return isnan(*vr) || isnan(*vm) || isnan(*vd) ? -1 : 0;
}

/* The same in long double, with the rounding of its terms counted: r, M w
 * and delta accumulated from the model's own coefficients, at most
 * (k + 3) u |terms| off for a row of k terms (u the long double unit
 * roundoff), then rounded against the bound: v up, M w and delta down (the
 * conversions to double and this arithmetic: 2 ud relative). */
static void proper__dtmc_certify_row_ld(const proper__dtmc_lin *L, uint32_t k, uint32_t i, const double *w,
                                        const double *delta_corr, double *vr, double *vm, double *vd,
                                        double *e_out) {
    const proper__dtmc_csr *g = L->g;
    const double u = LDBL_EPSILON / 2.0, ud = DBL_EPSILON;
    uint32_t s = L->sccs.order[L->sccs.start[k] + i];
    long double r = L->b ? L->b[s] : 0.0, mw = w[i], delta = 1.0L, rmag, wmag = fabs(w[i]), dmag = 1.0L;
    uint64_t e, terms = g->row[s + 1] - g->row[s] + 3;
    rmag = fabsl(r) + fabs(L->y[i]);
    for (e = g->row[s]; e < g->row[s + 1]; e++) {
        uint32_t t = g->col[e];
        long double a = g->val[e];
        delta -= a;
        dmag += fabsl(a);
        if (L->sccs.comp[t] == k) {
            uint32_t j = L->loc[t];
            r += a * L->y[j];
            rmag += fabsl(a * L->y[j]);
            if (delta_corr) { /* r - M delta: + a delta_j */
                r += a * delta_corr[j];
                rmag += fabsl(a * delta_corr[j]);
            }
            mw -= a * w[j];
            wmag += fabsl(a * w[j]);
        } else {
            r += a * L->x[t];
            rmag += fabsl(a * L->x[t]);
            if (L->errb[t] > *e_out) *e_out = L->errb[t];
        }
    }
    r -= L->y[i];
    if (delta_corr) {
        r -= delta_corr[i];
        rmag += fabs(delta_corr[i]);
    }
    *vr = (fabs((double)r) + (double)((long double)terms * u * rmag)) * (1.0 + 2.0 * ud);
    *vm = ((double)mw - (double)((long double)terms * u * wmag)) * (1.0 - 2.0 * ud);
    *vd = (double)delta - (double)((long double)terms * u * dmag) - 2.0 * ud * fabs((double)delta);
}

/* The model's own rounding (opts.model_rel_error = delta): the exact
 * coefficients a differ from the stored a~ by at most dl |a~|,
 * dl = delta / (1 - delta) (proper__dtmc_model_factor, rounded up; the
 * stored b, a sum of stored probabilities or a reward, is charged the same).
 * Then the exact model's residual is within dl (|b| + sum |a~| (|v| +
 * |delta_corr|)) of the stored one's, (M w)_i within dl sum |a~| w, and
 * 1 - (row sum) within dl sum |a~|: vr grows and vm and vd shrink by
 * those, summed in double and rounded up by (terms + 2) u. */
static double proper__dtmc_model_factor(double delta) {
    if (!(delta > 0.0)) return 0.0;
    if (!(delta < 0.5)) return INFINITY;
    return delta / (1.0 - delta) * (1.0 + 4.0 * DBL_EPSILON);
}

static void proper__dtmc_model_row(const proper__dtmc_lin *L, uint32_t k, uint32_t i, const double *w,
                                   const double *delta_corr, double dl, double *vr, double *vm, double *vd) {
    const proper__dtmc_csr *g = L->g;
    uint32_t s = L->sccs.order[L->sccs.start[k] + i];
    double mr = L->b ? fabs(L->b[s]) : 0.0, mw = 0.0, ma = 0.0, grow;
    uint64_t e;
    for (e = g->row[s]; e < g->row[s + 1]; e++) {
        uint32_t t = g->col[e];
        double a = fabs(g->val[e]);
        ma += a;
        if (L->sccs.comp[t] == k) {
            uint32_t j = L->loc[t];
            mr += a * (fabs(L->y[j]) + (delta_corr ? fabs(delta_corr[j]) : 0.0));
            mw += a * fabs(w[j]);
        } else {
            mr += a * fabs(L->x[t]);
        }
    }
    grow = (1.0 + (double)(g->row[s + 1] - g->row[s] + 4) * DBL_EPSILON) * dl;
    *vr += mr * grow;
    *vm -= mw * grow;
    *vd -= ma * grow;
}

/* A proven bound on the error of the values y of component k (local
 * numbering), written to errb for its states.
 *
 * With M = I - A restricted to the component (a non-singular M-matrix:
 * the callers' graph precomputation makes every state leave it with
 * positive probability, so M^{-1} >= 0), the error e = exact - y solves
 * M e = r + A_out e_out: r is the residual of the original equations
 * x_s = b_s + sum_t a(s,t) x_t, e_out the errors of the values outside,
 * at most E_out each. Two vectors bound the two parts (monotonicity of
 * M-matrices: M z >= v >= 0 implies z >= M^{-1} v; Berman & Plemmons,
 * Nonnegative Matrices in the Mathematical Sciences, ch. 6):
 *  - the residual: for w with M w > 0 and v >= |r|, lambda = max_i v_i /
 *    (M w)_i gives M (lambda w) >= v, so that part is at most lambda w;
 *    w is close to the expected number of steps before leaving (M w = 1);
 *  - the inheritance: M 1 = A_out 1 + delta with delta_i = 1 - (row sum
 *    of i), so z = 1 + mu w with mu = max(0, max_i -delta_i / (M w)_i)
 *    has M z >= A_out 1: that part is at most E_out z (E_out z = E_out for
 *    rows summing to at most 1: errors do not grow along the chain).
 * r, M w and delta are accumulated in long double from the model's own
 * coefficients; their rounding (at most (k + 3) u |terms| for a row of k
 * terms, u the long double unit roundoff) is added against the bound.
 * A direct solve's (delta given) are summed in twice the working precision
 * instead when `precise` (proper__dtmc_certify_row_dot2; long double if a
 * sum overflows).
 * With a correction delta ~ M^{-1} r (a direct solve's refinement step,
 * not applied), e = delta + M^{-1} (r - M delta): the bound becomes
 * |delta| + lambda' w with lambda' from the far smaller r - M delta, which
 * removes the factor w from the rounding of y (delta NULL: no correction).
 * *own receives the component's own part (max over its states), *min_mw
 * the smallest (M w)_i. Returns -1 when some (M w)_i is not proven
 * positive. */
static int proper__dtmc_lin_certify(proper__dtmc_lin *L, uint32_t k, uint32_t sz, const double *w,
                                    const double *delta_corr, int precise, double *own, double *min_mw) {
    const double ud = DBL_EPSILON;
    uint32_t first = L->sccs.start[k], i;
    double lam = 0.0, mu = 0.0, e_out = 0.0, wmax = 0.0, low = INFINITY, dmax = 0.0;
    double dl = proper__dtmc_model_factor(L->o.model_rel_error);
    for (i = 0; i < sz; i++) {
        double vr, vm, vd;
        if (!precise || !delta_corr || proper__dtmc_certify_row_dot2(L, k, i, w, delta_corr, &vr, &vm, &vd, &e_out))
            proper__dtmc_certify_row_ld(L, k, i, w, delta_corr, &vr, &vm, &vd, &e_out);
        if (dl > 0.0) proper__dtmc_model_row(L, k, i, w, delta_corr, dl, &vr, &vm, &vd);
        if (!(vm > 0.0)) return -1;
        if (vm < low) low = vm;
        if (vr / vm > lam) lam = vr / vm;
        if (vd < 0.0 && -vd / vm > mu) mu = -vd / vm;
        if (w[i] > wmax) wmax = w[i];
        if (delta_corr && fabs(delta_corr[i]) > dmax) dmax = fabs(delta_corr[i]);
    }
    lam *= 1.0 + 4.0 * ud;
    mu *= 1.0 + 4.0 * ud;
    for (i = 0; i < sz; i++)
        L->errb[L->sccs.order[first + i]] =
            ((delta_corr ? fabs(delta_corr[i]) : 0.0) + lam * w[i] + e_out * (1.0 + mu * w[i])) * (1.0 + 6.0 * ud);
    *own = (dmax + lam * wmax) * (1.0 + 4.0 * ud);
    *min_mw = low;
    return 0;
}

/* Sweep w = wc + A w (wc = 1/d: the expected steps before leaving) from
 * its current value until the certificate's M w is at least 1/2 in every
 * state; then certify y. The first check waits until a sweep changes w by
 * less than 5% (a certificate pass costs about two sweeps), later ones
 * double the sweeps between checks. Returns 0 with *own set, or -1 if no
 * usable w was found within the sweep budget. */
static int proper__dtmc_lin_certify_gs(proper__dtmc_lin *L, uint32_t k, uint32_t sz, int *have_w,
                                       unsigned long *sweeps, double *own) {
    unsigned long batch = 4, b;
    double maxabs, min_mw, change = INFINITY;
    int rc;
    for (;;) {
        if (!*have_w)
            for (b = 0; (b < batch || change > 0.05) && *sweeps < L->o.max_sweeps; b++, ++*sweeps)
                change = proper__dtmc_lin_sweep(L, sz, L->wc, L->w, &maxabs) / maxabs;
        rc = proper__dtmc_lin_certify(L, k, sz, L->w, NULL, 0, own, &min_mw);
        if (rc == 0 && min_mw >= 0.5) { *have_w = 1; return 0; }
        if (*have_w && rc == 0) return 0; /* a usable w already: y is what failed */
        *have_w = 0;
        if (*sweeps >= L->o.max_sweeps) return -1;
        batch *= 2;
    }
}

/* Move, in each local row, the entry of the state swept just before it
 * (the smallest index above the row's) to the end of the row. The row's sum
 * then waits for that freshly written value only in its last multiply-add
 * instead of in every one after it: a descending sweep is a chain of such
 * waits (fall-through edges s -> s+1), and this shortens each link. */
static void proper__dtmc_lin_order_rows(proper__dtmc_lin *L, uint32_t sz) {
    uint32_t i;
    for (i = 0; i < sz; i++) {
        uint64_t a = L->lrow[i], b = L->lrow[i + 1], e, best = b;
        for (e = a; e < b; e++)
            if (L->lcol[e] > i && (best == b || L->lcol[e] < L->lcol[best])) best = e;
        if (best < b && best + 1 < b) {
            uint32_t cb = L->lcol[best];
            double vb = L->lval[best];
            L->lcol[best] = L->lcol[b - 1];
            L->lval[best] = L->lval[b - 1];
            L->lcol[b - 1] = cb;
            L->lval[b - 1] = vb;
        }
    }
}

/* Pad every local row to the longest row's length, up to 4 and when the
 * padding at most doubles the entries (a padded entry is the row's own
 * column with coefficient 0: it adds nothing anywhere), so that the sweep
 * runs with a fixed width; L->width stays 0 otherwise. */
static int proper__dtmc_lin_pad_rows(proper__dtmc_lin *L, uint32_t sz) {
    uint64_t nnz = L->lrow[sz], w = 0, i, k;
    L->width = 0;
    for (i = 0; i < sz; i++) w = L->lrow[i + 1] - L->lrow[i] > w ? L->lrow[i + 1] - L->lrow[i] : w;
    if (w == 0 || w > 4 || sz * w > 2 * nnz) return PROPER_OK;
    if (sz * w > L->cap_nnz) {
        size_t cap = L->cap_nnz;
        if (proper_reserve(&L->lcol, &cap, (size_t)(sz * w), sizeof *L->lcol)) return PROPER_ENOMEM;
        cap = L->cap_nnz;
        if (proper_reserve(&L->lval, &cap, (size_t)(sz * w), sizeof *L->lval)) return PROPER_ENOMEM;
        L->cap_nnz = cap;
    }
    for (i = sz; i-- > 0;) { /* from the last row, so that no entry is overwritten before it moves */
        uint64_t a = L->lrow[i], len = L->lrow[i + 1] - a;
        for (k = w; k-- > 0;) { /* padding first in the row: the freshest value stays last */
            uint64_t to = i * w + k;
            if (k >= w - len) {
                L->lcol[to] = L->lcol[a + k - (w - len)];
                L->lval[to] = L->lval[a + k - (w - len)];
            } else {
                L->lcol[to] = (uint32_t)i;
                L->lval[to] = 0.0;
            }
        }
    }
    for (i = 0; i <= sz; i++) L->lrow[i] = i * w;
    L->width = (uint32_t)w;
    return PROPER_OK;
}

/* Rounds of proper__dtmc_gs_refine. */
#define PROPER__DTMC_GS_REFINE 3

/* Iterative refinement of a Gauss-Seidel solution at its rounding floor.
 * The plain certificate bounds the error by lambda w with lambda no
 * smaller than the residual of y as stored in doubles (about u |y| per
 * row, even for the exact solution rounded), so it floors near u times
 * the expected stay in the component, whatever the sweeps do: 3.4e-10 for
 * PRISM's fms example at n = 5, 8.6e-9 at n = 6. Here the residual r of
 * y is taken in twice the working precision (Dot2), a correction
 * delta ~ M^{-1} r is swept (from r / d, the same sweeps on the same
 * scaled rows) to an estimated 1e-4 relative, and the certificate of a
 * direct solve's correction applies: |delta| + lambda' w, lambda' from
 * r - M delta (about 1e-4 of r), so the bound follows the actual error of
 * y instead of the rounding's worst case. A round that misses 10 eps either
 * moves y += delta and starts again (when |delta|, y's own error, is most
 * of the bound) or sweeps delta 100 times finer (when its residual is);
 * PROPER__DTMC_GS_REFINE rounds at most. Returns 0 with *own the proven
 * bound of the final y (its bounds in errb), or -1 (out of memory, sweeps
 * exhausted, no certificate) with y and errb those of the plain
 * certificate. */
static int proper__dtmc_gs_refine(proper__dtmc_lin *L, uint32_t k, uint32_t sz, unsigned long *sweeps, double eps,
                                  double *own) {
    double *delta = (double *)proper_calloc(2 * (size_t)sz, sizeof *delta), *cd = delta + sz, *y = L->y, *c = L->c;
    double min_mw, ymax, dmax, tol = 1e-4, got = INFINITY;
    uint32_t i;
    int round, floor, ok = -1, fresh = 1, moved = 0;
    if (!delta) return -1;
    for (round = 0; round < PROPER__DTMC_GS_REFINE; round++) {
        if (fresh) {
            proper__dtmc_lin_residual(L, k, sz, 1, y, L->r);
            for (i = 0; i < sz; i++) delta[i] = cd[i] = L->r[i] * L->wc[i];
        }
        L->y = delta;
        L->c = cd;
        ok = proper__dtmc_gs_run(L, sz, tol, fresh, sweeps, &floor) ? -1 : 0;
        L->y = y;
        L->c = c;
        if (ok || (ok = proper__dtmc_lin_certify(L, k, sz, L->w, delta, 1, &got, &min_mw))) break;
        for (ymax = dmax = 0.0, i = 0; i < sz; i++) {
            ymax = fmax(ymax, fabs(y[i]));
            dmax = fmax(dmax, fabs(delta[i]));
        }
        /* within ten times eps: another round costs as many sweeps as the
         * first (fms at n = 6: 12,769 after 7,965) for less than a digit */
        if (got <= 10.0 * eps * ymax || round + 1 == PROPER__DTMC_GS_REFINE) break;
        fresh = dmax >= 0.5 * got;
        if (fresh) {
            for (i = 0; i < sz; i++) y[i] += delta[i];
            moved = 1;
        } else {
            tol *= 1e-2;
        }
    }
    if (ok && moved) /* y moved: its plain certificate */
        ok = proper__dtmc_lin_certify(L, k, sz, L->w, NULL, 0, &got, &min_mw);
    PROPER_FREE(delta);
    if (!ok) *own = got;
    return ok;
}

/* Gauss–Seidel on the local system, stopped by a certificate: sweep to an
 * estimated precision, certify, and if the proven bound is not yet within
 * rel_precision of the largest |y|, sweep on to a tighter estimate.
 * PROPER_ERANGE when no certificate reaches the precision (*bound: the best
 * relative bound proven, INFINITY if none). */
static int proper__dtmc_lin_gauss_seidel(proper__dtmc_lin *L, uint32_t k, uint32_t sz, unsigned long *sweeps_out,
                                         double *bound) {
    double eps = L->o.rel_precision, target = eps, own = INFINITY, ymax;
    int have_w = 0, floor = 0, round, rc;
    uint32_t i;
    uint64_t e;
    proper__dtmc_lin_order_rows(L, sz);
    if ((rc = proper__dtmc_lin_pad_rows(L, sz))) return rc;
    for (i = 0; i < sz; i++) { /* divide each row by its diagonal once */
        double f = 1.0 / L->d[i];
        L->c[i] *= f;
        for (e = L->lrow[i]; e < L->lrow[i + 1]; e++) L->lval[e] *= f;
        L->y[i] = L->c[i];
        L->wc[i] = f;
        L->w[i] = f;
    }
    *sweeps_out = 0;
    if (!L->o.sound) {
        rc = proper__dtmc_gs_run(L, sz, target, 1, sweeps_out, &floor);
        for (i = 0; i < sz; i++) L->errb[L->sccs.order[L->sccs.start[k] + i]] = INFINITY;
        return rc;
    }
    for (round = 0;; round++) {
        if ((rc = proper__dtmc_gs_run(L, sz, target, round == 0, sweeps_out, &floor))) return rc;
        if (proper__dtmc_lin_certify_gs(L, k, sz, &have_w, sweeps_out, &own)) return PROPER_ERANGE;
        ymax = 0.0;
        for (i = 0; i < sz; i++) ymax = fabs(L->y[i]) > ymax ? fabs(L->y[i]) : ymax;
        if (own <= eps * ymax) return PROPER_OK;
        *bound = ymax > 0.0 ? own / ymax : own;
        if (floor || round == 11) { /* the rounding floor: refine, then accept what it allows, within reason */
            double plain = own, min_mw;
            if (proper__dtmc_gs_refine(L, k, sz, sweeps_out, eps, &own) == 0) {
                for (ymax = 0.0, i = 0; i < sz; i++) ymax = fmax(ymax, fabs(L->y[i]));
                *bound = ymax > 0.0 ? own / ymax : own;
            }
            if (own > plain && proper__dtmc_lin_certify(L, k, sz, L->w, NULL, 0, &plain, &min_mw) == 0) {
                /* refinement did worse: the plain certificate of the same y */
                for (ymax = 0.0, i = 0; i < sz; i++) ymax = fmax(ymax, fabs(L->y[i]));
                own = plain;
                *bound = ymax > 0.0 ? own / ymax : own;
            }
            if (own <= eps * ymax) return PROPER_OK;
            return own <= PROPER_DTMC_FLOOR_FACTOR * eps * ymax ? PROPER_OK : PROPER_ERANGE;
        }
        target *= fmax(1e-4, 0.2 * eps * ymax / own);
    }
}

/* Error bound of a directly solved component: w = M^{-1} 1 and the
 * correction delta = M^{-1} r from the factorisation in L->mat (r the
 * residual of the local system in long double), then the certificate.
 * Returns the component's own part of the bound (see
 * proper__dtmc_lin_certify), or INFINITY, with INFINITY in errb, when it
 * cannot be proven (a badly conditioned component). */
static double proper__dtmc_lin_certify_direct(proper__dtmc_lin *L, uint32_t k, uint32_t sz, int band, uint32_t bl,
                                              uint32_t bu, int precise) {
    double own, min_mw;
    uint32_t i;
    for (i = 0; i < sz; i++) L->w[i] = 1.0;
    if (band) proper__dtmc_band_solve(L, sz, bl, bu, L->w); else proper_lu_solve(L->mat, sz, L->piv, L->w);
    proper__dtmc_lin_residual(L, k, sz, precise, L->y, L->r);
    if (band) proper__dtmc_band_solve(L, sz, bl, bu, L->r); else proper_lu_solve(L->mat, sz, L->piv, L->r);
    if (proper__dtmc_lin_certify(L, k, sz, L->w, L->r, precise, &own, &min_mw) == 0) return own;
    for (i = 0; i < sz; i++) L->errb[L->sccs.order[L->sccs.start[k] + i]] = INFINITY;
    return INFINITY;
}

/* Sweeps of Gauss-Seidel worth one dense LU of the component: sz^3 / 3
 * multiply-adds against nnz + sz per sweep (at least 64). */
static unsigned long proper__dtmc_direct_budget(uint32_t sz, uint64_t nnz) {
    double b = (double)sz * (double)sz * (double)sz / (3.0 * (double)(nnz + sz));
    return b < 64.0 ? 64UL : b > 1e15 ? 1000000000000000UL : (unsigned long)b;
}

/* Gauss-Seidel on component k; when it does not settle within a dense
 * LU's work and the component has at most direct_max states, the local
 * system is rebuilt (the sweeps scaled and reordered it) and solved by
 * dense LU instead (*direct set). */
static int proper__dtmc_lin_iterate(proper__dtmc_lin *L, uint32_t k, uint32_t *sz, uint64_t *nnz, int *direct,
                                    proper_error *err) {
    proper_dtmc_solve_stats *st = L->st;
    unsigned long sweeps = 0, max_sweeps = L->o.max_sweeps;
    double bound = INFINITY;
    int may_fall_back = *sz <= L->o.direct_max, rc;
    if (may_fall_back && proper__dtmc_direct_budget(*sz, *nnz) < max_sweeps)
        L->o.max_sweeps = proper__dtmc_direct_budget(*sz, *nnz);
    rc = proper__dtmc_lin_gauss_seidel(L, k, *sz, &sweeps, &bound);
    L->o.max_sweeps = max_sweeps;
    if (st) st->sweeps += sweeps;
    if (may_fall_back && (rc == PROPER_ENOCONV || rc == PROPER_ERANGE)) {
        L->width = 0;
        if (proper__dtmc_lin_local(L, k, sz, nnz)) return PROPER_ENOMEM;
        *direct = 1;
        rc = proper__dtmc_lin_direct(L, k, *sz, 0, 0, 0);
        if (st && !rc) st->n_dense++;
        return rc;
    }
    if (st) st->n_iterative++;
    if (rc == PROPER_ENOCONV && L->gs_need > 0.0)
        return proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0,
                                "Gauss-Seidel cannot reach relative precision %g on a component of %u states: "
                                "after %lu sweeps its changes shrink by a factor of only 1 - %.2g per sweep, "
                                "which needs about %.3g sweeps, past the limit of %lu (PROPER_DTMC_MAX_SWEEPS; "
                                "a stiff chain whose slow transitions the sweeps cross one at a time)",
                                L->o.rel_precision, (unsigned)*sz, sweeps, 1.0 - L->gs_rate, L->gs_need,
                                L->o.max_sweeps);
    if (rc == PROPER_ENOCONV)
        return proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0,
                                "Gauss-Seidel did not reach relative precision %g in %lu sweeps "
                                "(component of %u states)", L->o.rel_precision, sweeps, (unsigned)*sz);
    if (rc == PROPER_ERANGE)
        return proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0,
                                "Gauss-Seidel could not prove relative precision %g for a component of %u "
                                "states: the best proven bound is %.3g after %lu sweeps (the rounding of "
                                "doubles limits it; ask for a coarser precision)",
                                L->o.rel_precision, (unsigned)*sz, bound, sweeps);
    return rc;
}

/* A directly solved component is accepted, as Gauss-Seidel's are, when its
 * proven bound (the component's own part) is within
 * PROPER_DTMC_FLOOR_FACTOR x rel_precision of its largest value (always
 * when the solve is not sound). The cheap certificate (long double) comes
 * first; when it misses, the solution is refined and certified in twice
 * the working precision; when that misses too, the solve is refused with
 * the bound that could be proven. */
static int proper__dtmc_lin_accept_direct(proper__dtmc_lin *L, uint32_t k, uint32_t sz, int band, uint32_t bl,
                                          uint32_t bu, proper_error *err) {
    double ymax = 0.0, own = proper__dtmc_lin_certify_direct(L, k, sz, band, bl, bu, 0);
    uint32_t i;
    for (i = 0; i < sz; i++) ymax = fabs(L->y[i]) > ymax ? fabs(L->y[i]) : ymax;
    if (!L->o.sound || own <= PROPER_DTMC_FLOOR_FACTOR * L->o.rel_precision * ymax) return PROPER_OK;
    proper__dtmc_lin_refine(L, k, sz, band, bl, bu, 1, PROPER__DTMC_REFINE_STEPS);
    own = proper__dtmc_lin_certify_direct(L, k, sz, band, bl, bu, 1);
    for (ymax = 0.0, i = 0; i < sz; i++) ymax = fabs(L->y[i]) > ymax ? fabs(L->y[i]) : ymax;
    if (own <= PROPER_DTMC_FLOOR_FACTOR * L->o.rel_precision * ymax) return PROPER_OK;
    if (isfinite(own))
        return proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0,
                                "the direct solve of a component of %u states could not prove relative precision "
                                "%g: the best proven bound is %.3g (its expected stays are too long for the "
                                "rounding of doubles; ask for a coarser precision)",
                                (unsigned)sz, L->o.rel_precision, ymax > 0.0 ? own / ymax : own);
    return proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0,
                            "no error bound can be proven for the direct solve of a component of %u states: its "
                            "linear system is too badly conditioned for doubles (expected stays in it far beyond "
                            "1e15 steps)", (unsigned)sz);
}

/* A component of one state s without edges inside it but its self-loop:
 * x = c / d, d = 1 - a_ss, one division. Its bound: the inherited error
 * scaled by 1/d, the rounding of c (at most (k + 2) u |terms|), of d and of
 * the quotient; with the model's own rounding, c within dl mag and d within
 * dl a_ss. A sound solve refuses when its own part (without the inherited
 * error) is above PROPER_DTMC_FLOOR_FACTOR x rel_precision of |x|, as the
 * other components do: a self-loop of 1 - 2e-14 stated to within 1e-16
 * leaves d known to 1% (fuzz_explicit's finding, where a CTMC's self-loop
 * rate 3.3e16 reached its embedded chain and an absorption probability
 * came out as 1.0014 with rc 0 at rel_precision 1e-12). */
static int proper__dtmc_lin_single(proper__dtmc_lin *L, uint32_t first, proper_error *err) {
    uint32_t s = L->sccs.order[first];
    uint64_t terms = L->g->row[s + 1] - L->g->row[s] + 2;
    double v = L->c[0] / L->d[0], ud = DBL_EPSILON / 2.0, dl = proper__dtmc_model_factor(L->o.model_rel_error), own;
    L->x[s] = v;
    if (dl > 0.0) {
        double ds = (1.0 - L->d[0]) * dl * (1.0 + 4.0 * ud) + ud, lo = (L->d[0] - ds) * (1.0 - 2.0 * ud);
        own = lo > 0.0 ? ((((double)terms * ud + dl) * L->mag[0] + fabs(v) * ds) / lo + 3.0 * ud * fabs(v)) *
                             (1.0 + 8.0 * ud)
                       : INFINITY;
        L->errb[s] = lo > 0.0 ? own + (1.0 + dl) * L->ein[0] / lo * (1.0 + 8.0 * ud) : INFINITY;
    } else {
        own = ((double)terms * ud * L->mag[0] / L->d[0] + 3.0 * ud * fabs(v)) * (1.0 + 4.0 * ud);
        L->errb[s] = own + L->ein[0] / L->d[0] * (1.0 + 4.0 * ud);
    }
    if (L->st && L->d[0] != 1.0) L->st->n_cyclic++;
    if (L->o.sound && !(own <= PROPER_DTMC_FLOOR_FACTOR * L->o.rel_precision * fabs(v)))
        return proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0,
                                "could not prove relative precision %g for state %u: its self-loop keeps it with "
                                "probability %.17g, and 1 minus that is known only to within %.3g relative (the "
                                "model's own rounding); ask for a coarser precision",
                                L->o.rel_precision, (unsigned)s, 1.0 - L->d[0],
                                dl > 0.0 ? ((1.0 - L->d[0]) * dl + ud) / L->d[0] : ud / L->d[0]);
    return PROPER_OK;
}

/* Solve component k; results go to x, error bounds to errb. */
static int proper__dtmc_lin_component(proper__dtmc_lin *L, uint32_t k, proper_error *err) {
    uint32_t sz, i, bl = 0, bu = 0, first = L->sccs.start[k];
    uint64_t nnz, e;
    int rc, band = 0, direct = 0;
    proper_dtmc_solve_stats *st = L->st;
    if (proper__dtmc_lin_local(L, k, &sz, &nnz)) goto nomem;
    if (st) {
        st->n_components++;
        if (sz > st->largest) st->largest = sz;
    }
    for (i = 0; i < sz; i++)
        if (!(L->d[i] > 0.0)) {
            uint32_t s = L->sccs.order[first + i];
            return proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0,
                                    "state %u can never leave its self-loop: the system is singular", (unsigned)s);
        }
    if (sz == 1 && nnz == 0) return proper__dtmc_lin_single(L, first, err);
    if (st) st->n_cyclic++;
    for (i = 0; i < sz; i++)
        for (e = L->lrow[i]; e < L->lrow[i + 1]; e++) {
            uint32_t j = L->lcol[e];
            if (j < i && i - j > bl) bl = i - j;
            if (j > i && j - i > bu) bu = j - i;
        }
    if (sz <= L->o.dense_max) {
        direct = 1;
        rc = proper__dtmc_lin_direct(L, k, sz, 0, 0, 0);
        if (st && !rc) st->n_dense++;
    } else if (bl + bu <= L->o.band_max && (double)sz * (bl + bu + 1) <= 4.0 * (double)(nnz + sz) + 4096.0 &&
               (double)sz * bl * bu <= 256.0 * (double)(nnz + sz)) {
        direct = band = 1;
        rc = proper__dtmc_lin_direct(L, k, sz, 1, bl, bu);
        if (st && !rc) st->n_band++;
    } else {
        rc = proper__dtmc_lin_iterate(L, k, &sz, &nnz, &direct, err);
        if (rc == PROPER_ENOCONV && !direct) return rc;
    }
    if (rc == PROPER_ENOMEM) goto nomem;
    if (rc)
        return proper_error_set(err, rc, NULL, 0, 0, "singular linear system in a component of %u states",
                                (unsigned)sz);
    if (direct && (rc = proper__dtmc_lin_accept_direct(L, k, sz, band, bl, bu, err))) return rc;
    for (i = 0; i < sz; i++) L->x[L->sccs.order[first + i]] = L->y[i];
    return PROPER_OK;
nomem:
    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory solving a component");
}

/* Solve x[s] = b[s] + sum_t a(s,t) x[t] for the states s in mask; x holds
 * the (constant) values of the states outside the mask on entry. Requires
 * I - A restricted to the mask to be non-singular (guaranteed by the graph
 * precomputation of each caller). */
static int proper__dtmc_solve_linear(const proper__dtmc_csr *g, const proper_bitset *mask, const double *b, double *x,
                                const proper_dtmc_solve_opts *opts, proper_dtmc_solve_stats *st, double **errb_out,
                                const double *errb_in, proper_error *err) {
    proper__dtmc_lin L;
    uint32_t k;
    int rc = PROPER_OK;
    memset(&L, 0, sizeof L);
    L.g = g; L.b = b; L.x = x; L.st = st;
    if (opts) L.o = *opts; else L.o = proper_dtmc_solve_opts_default();
    if (!(L.o.rel_precision > 0.0)) L.o.rel_precision = PROPER_DTMC_REL_PRECISION;
    if (proper__dtmc_tarjan(g, mask, &L.sccs)) goto nomem;
    L.loc = (uint32_t *)proper_calloc(g->n ? g->n : 1, sizeof *L.loc);
    L.errb = (double *)proper_calloc(g->n ? g->n : 1, sizeof *L.errb);
    if (!L.loc || !L.errb) goto nomem;
    if (errb_in) memcpy(L.errb, errb_in, (size_t)g->n * sizeof *L.errb); /* the bounds of the values given */
    proper__dtmc_sccs_sort_members(&L.sccs, g->n, L.loc);
    for (k = 0; k < L.sccs.n_comp && !rc; k++) rc = proper__dtmc_lin_component(&L, k, err);
    if (!rc && st) {
        uint32_t s;
        for (s = 0; s < g->n; s++)
            if (L.errb[s] > st->max_error || isnan(L.errb[s])) st->max_error = L.errb[s];
    }
    if (!rc && errb_out) { /* hand the bounds over */
        *errb_out = L.errb;
        L.errb = NULL;
    }
    proper__dtmc_lin_free(&L);
    return rc;
nomem:
    proper__dtmc_lin_free(&L);
    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory solving a linear system");
}

/* The linear solve of an answer read at the initial state: its proven
 * bound there (init_error) goes to the stats, and when it is above
 * rel_precision of the value there (bounds that added up along a chain of
 * components, or a value small beside its component's largest), the solve
 * is repeated once with the precision tightened by the missing factor. */
static int proper__dtmc_solve_linear_at_init(const proper_dtmc *m, const proper__dtmc_csr *g, const proper_bitset *mask,
                                             const double *b, double *x, const proper_dtmc_solve_opts *opts,
                                             proper_dtmc_solve_stats *st, proper_error *err) {
    proper_dtmc_solve_opts o = opts ? *opts : proper_dtmc_solve_opts_default();
    proper_dtmc_solve_stats local;
    double *errb = NULL, *x0 = NULL, v, e;
    uint32_t n = m->n_states;
    int rc, pass;
    if (!(o.rel_precision > 0.0)) o.rel_precision = PROPER_DTMC_REL_PRECISION;
    if (!st) st = &local;
    x0 = (double *)proper_calloc(n ? n : 1, sizeof *x0); /* the fixed values, for a second pass */
    if (!x0) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    memcpy(x0, x, (size_t)n * sizeof *x0);
    for (pass = 0;; pass++) {
        memset(st, 0, sizeof *st);
        if ((rc = proper__dtmc_solve_linear(g, mask, b, x, &o, st, &errb, NULL, err))) break;
        v = proper_dtmc_value_at_init(m, x);
        e = proper_dtmc_value_at_init(m, errb);
        st->init_error = e;
        PROPER_FREE(errb);
        errb = NULL;
        /* tightening helps only iterative components (direct ones are at
         * their rounding already) */
        if (pass == 1 || !(e > o.rel_precision * fabs(v)) || !o.sound || !isfinite(e) || v == 0.0 ||
            st->n_iterative == 0)
            break;
        o.rel_precision *= fmax(1e-3, 0.5 * o.rel_precision * fabs(v) / e);
        memcpy(x, x0, (size_t)n * sizeof *x);
    }
    PROPER_FREE(x0);
    return rc;
}

/* ---- solvers ------------------------------------------------------------ */

static int proper__dtmc_nomem(proper_error *err) {
    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
}

static int proper__dtmc_need_ctmc(const proper_dtmc *m, const char *what, proper_error *err) {
    if (m->kind != PROPER_DTMC_KIND_CTMC)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s needs a CTMC; this model is a DTMC", what);
    return PROPER_OK;
}

static int proper__dtmc_refuse_ctmc(const proper_dtmc *m, const char *what, proper_error *err) {
    if (m->kind == PROPER_DTMC_KIND_CTMC)
        return proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0,
                                "%s counts discrete steps: a CTMC takes time bounds (the proper_dtmc_ctmc_* solvers)",
                                what);
    return PROPER_OK;
}

/* The options the solves on a CTMC's derived chains take: their
 * entries are rounded from the rates (R(s,t)/E(s) with E(s) a sum of at
 * most d rates: d + 1 roundings; R(s,t)/q likewise), so the rounding is
 * stated as model_rel_error, on top of the rates' own (twice: a quotient of
 * two rates). Without it a stiff chain's absorption probability came out
 * as 1.0000159 with a "proven" bound of 7e-16 (fuzz_explicit's finding,
 * tests/corpus/explicit/fuzz_stiff_ctmc_rounding); with it the solve
 * proves what it can or refuses. The model_rel_error given is taken as the
 * rates' own; prism.h's bound for a CTMC is of R/E, so it covers the
 * rates' error too and is counted here on top (a wider bound, not a
 * wrong one). */
static proper_dtmc_solve_opts proper__dtmc_ctmc_derived_opts(const proper_dtmc *m, const proper_dtmc_solve_opts *opts) {
    proper_dtmc_solve_opts o = opts ? *opts : proper_dtmc_solve_opts_default();
    double d = 0.0, delta = o.model_rel_error > 0.0 ? o.model_rel_error : 0.0;
    uint32_t s;
    for (s = 0; s < m->n_states; s++)
        if ((double)(m->row[s + 1] - m->row[s]) > d) d = (double)(m->row[s + 1] - m->row[s]);
    o.model_rel_error = (2.0 * delta / (1.0 - delta) + (d + 2.0) * DBL_EPSILON / 2.0) * (1.0 + 4.0 * DBL_EPSILON);
    return o;
}

/* The rate of leaving state s of a CTMC: its rates to other states. */
static double proper__dtmc_leave_rate(const proper_dtmc *m, uint32_t s) {
    double leave = 0.0;
    uint64_t k;
    for (k = m->row[s]; k < m->row[s + 1]; k++)
        if (m->col[k] != s) leave += m->prob[k];
    return leave;
}

/* The jump chain of a CTMC, on which its path probabilities, absorption
 * and expected rewards are solved: the embedded chain without self-loops,
 * P(s,t) = R(s,t)/E'(s) with E'(s) the rate of leaving s (a state whose
 * only transition is a self-loop keeps it, with probability 1). A
 * self-loop does not change where the CTMC goes next, but in the embedded
 * chain one of rate 3.3e16 beside rates near 1 made P(s,s) = 1 - 2.2e-14,
 * whose complement the solve recovered from doubles: P=? [ F ] came out as
 * 1.0014 with a "proven" bound of 9e-16 (fuzz_explicit's finding,
 * tests/corpus/explicit/fuzz_ctmc_self_loop). Only the structure, the
 * probabilities and the initial state(s) are set; orig (may be NULL) gets
 * a fresh array: each transition's index in m (a state never left gets
 * one self-loop; its index is m's self-loop's, or its row's first when m
 * has none there: the transition rewards check the destination). */
static int proper__dtmc_jump_chain(const proper_dtmc *m, proper_dtmc *out, uint64_t **orig, proper_error *err) {
    proper_dtmc c;
    uint64_t k, n = 0, at = 0, *from = NULL;
    uint32_t s;
    int rc;
    proper_dtmc_init(&c);
    for (s = 0; s < m->n_states; s++) { /* the entries the loop below writes */
        if (proper__dtmc_leave_rate(m, s) == 0.0) n += m->row[s + 1] > m->row[s];
        else
            for (k = m->row[s]; k < m->row[s + 1]; k++) n += m->col[k] != s;
    }
    c.kind = PROPER_DTMC_KIND_DTMC;
    c.n_states = m->n_states;
    c.n_trans = n;
    c.init = m->init;
    c.row = (uint64_t *)proper_calloc((size_t)m->n_states + 1, sizeof *c.row);
    c.col = (uint32_t *)proper_calloc(n ? (size_t)n : 1, sizeof *c.col);
    c.prob = (double *)proper_calloc(n ? (size_t)n : 1, sizeof *c.prob);
    from = (uint64_t *)proper_calloc(n ? (size_t)n : 1, sizeof *from);
    if (!c.row || !c.col || !c.prob || !from) {
        rc = proper__dtmc_nomem(err);
        goto fail;
    }
    if (m->init_dist && (rc = proper_dtmc_set_init_dist(&c, m->init_dist, err))) goto fail;
    for (s = 0; s < m->n_states; s++) {
        double leave = proper__dtmc_leave_rate(m, s);
        if (leave == 0.0 && m->row[s + 1] > m->row[s]) { /* never left: one self-loop */
            long long loop = proper__dtmc_find_trans(m, s, s);
            c.col[at] = s;
            c.prob[at] = 1.0;
            from[at++] = loop >= 0 ? (uint64_t)loop : m->row[s];
        } else {
            for (k = m->row[s]; k < m->row[s + 1]; k++)
                if (m->col[k] != s) {
                    c.col[at] = m->col[k];
                    c.prob[at] = m->prob[k] / leave;
                    from[at++] = k;
                }
        }
        c.row[s + 1] = at;
    }
    if (orig) *orig = from;
    else PROPER_FREE(from);
    proper_dtmc_free(out);
    *out = c;
    return PROPER_OK;
fail:
    PROPER_FREE(from);
    proper_dtmc_free(&c);
    return rc;
}

PROPER_API int proper_dtmc_prob_until(const proper_dtmc *m, const proper_bitset *phi1, const proper_bitset *phi2,
                                      const proper_dtmc_solve_opts *opts, double *x,
                                      proper_dtmc_solve_stats *stats, proper_error *err) {
    proper__dtmc_csr g, pred;
    proper_bitset no, yes, maybe;
    uint32_t s;
    int rc;
    if (stats) memset(stats, 0, sizeof *stats);
    if ((rc = proper__dtmc_check_set(m, phi1, "phi1", err)) || (rc = proper__dtmc_check_set(m, phi2, "phi2", err))) return rc;
    if (m->kind == PROPER_DTMC_KIND_CTMC) { /* the jump chain has the same path probabilities */
        proper_dtmc e;
        proper_dtmc_solve_opts o = proper__dtmc_ctmc_derived_opts(m, opts);
        proper_dtmc_init(&e);
        if ((rc = proper__dtmc_jump_chain(m, &e, NULL, err))) return rc;
        rc = proper_dtmc_prob_until(&e, phi1, phi2, &o, x, stats, err);
        proper_dtmc_free(&e);
        return rc;
    }
    proper__dtmc_csr_view(m, &g);
    if (proper__dtmc_transpose(&g, NULL, 0, &pred)) return proper__dtmc_nomem(err);
    if (proper__dtmc_prob0(&pred, phi1, phi2, &no)) { proper__dtmc_csr_free(&pred); return proper__dtmc_nomem(err); }
    rc = proper__dtmc_prob1(&pred, phi1, phi2, &no, &yes);
    proper__dtmc_csr_free(&pred);
    if (rc) { proper_bitset_free(&no); return proper__dtmc_nomem(err); }
    proper_bitset_init(&maybe);
    if (proper_bitset_copy(&maybe, &no, NULL)) { proper_bitset_free(&no); proper_bitset_free(&yes); return proper__dtmc_nomem(err); }
    proper_bitset_or(&maybe, &yes);
    proper_bitset_not(&maybe);
    for (s = 0; s < m->n_states; s++) x[s] = PROPER_BITSET_GET(&yes, s) ? 1.0 : 0.0;
    rc = proper__dtmc_solve_linear_at_init(m, &g, &maybe, NULL, x, opts, stats, err);
    proper_bitset_free(&no);
    proper_bitset_free(&yes);
    proper_bitset_free(&maybe);
    return rc;
}

/* Finds when a deterministic iteration x_{j+1} = f(x_j) repeats: a table
 * keeps, per hash slot, the hash and index of the latest iterate; when x_j's
 * hash equals that of x_{j-p}, p <= PROPER_DTMC_CYCLE_MAX, x_j is kept and
 * compared bit for bit with x_{j+p}. Equal means x_{j+p+i} = x_{j+i} for
 * every i (f is deterministic): the period p is proven, not estimated. (A
 * slot shared by two iterates of one cycle may hide them; another iterate
 * of the cycle, or the next pass, is then found.) */
#define PROPER__DTMC_CYCLE_SLOTS 1024
typedef struct proper__dtmc_cycle {
    uint64_t hash[PROPER__DTMC_CYCLE_SLOTS];
    unsigned long at[PROPER__DTMC_CYCLE_SLOTS]; /* index + 1 of the iterate in the slot; 0: empty */
    unsigned long n;        /* iterates recorded so far */
    double *saved;          /* the candidate iterate (n_states doubles), or NULL */
    unsigned long saved_at; /* its index */
    unsigned long period;   /* the period being verified; 0: none */
    unsigned long hint;     /* a period longer than PROPER_DTMC_CYCLE_MAX known from the graph; 0: none */
} proper__dtmc_cycle;

#define PROPER__DTMC_CYCLE_NONE 0
#define PROPER__DTMC_CYCLE_SAVED 1 /* x_j was kept: a period is being verified from j */
#define PROPER__DTMC_CYCLE_FOUND 2 /* x_j equals x_{j - period} bit for bit */

static void proper__dtmc_cycle_init(proper__dtmc_cycle *c) { memset(c, 0, sizeof *c); }
static void proper__dtmc_cycle_free(proper__dtmc_cycle *c) { PROPER_FREE(c->saved); c->saved = NULL; }

/* FNV-1a over the vector's 64-bit words (not bytes: one multiply per
 * entry keeps the hash cheaper than the step it follows), with a final
 * shift so that the low bits mix too. */
static uint64_t proper__dtmc_hash_vec(const double *x, uint32_t n) {
    uint64_t h = PROPER_FNV_OFFSET, w;
    uint32_t i;
    for (i = 0; i < n; i++) {
        memcpy(&w, x + i, sizeof w);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    return h;
}

/* Record x_j (j = the number of iterates recorded before it); returns one of
 * PROPER__DTMC_CYCLE_*, or PROPER_ENOMEM. */
static int proper__dtmc_cycle_step(proper__dtmc_cycle *c, const double *x, uint32_t n) {
    size_t bytes = (size_t)n * sizeof *x;
    uint64_t h = proper__dtmc_hash_vec(x, n);
    size_t slot = (size_t)((h ^ (h >> 32)) % PROPER__DTMC_CYCLE_SLOTS);
    unsigned long j = c->n;
    int ev = PROPER__DTMC_CYCLE_NONE;
    if (c->period && j == c->saved_at + c->period) {
        if (memcmp(c->saved, x, bytes) == 0) return PROPER__DTMC_CYCLE_FOUND;
        c->period = 0; /* a hash collision, or not yet periodic: look again */
    }
    if (!c->period && c->hint && j > 0 && j % c->hint == 0) { /* verify the graph's period from here */
        if (!c->saved && !(c->saved = (double *)PROPER_MALLOC(bytes ? bytes : 1))) return PROPER_ENOMEM;
        memcpy(c->saved, x, bytes);
        c->saved_at = j;
        c->period = c->hint;
        ev = PROPER__DTMC_CYCLE_SAVED;
    } else if (!c->period && c->at[slot] && c->hash[slot] == h && j - (c->at[slot] - 1) <= PROPER_DTMC_CYCLE_MAX) {
        if (!c->saved && !(c->saved = (double *)PROPER_MALLOC(bytes ? bytes : 1))) return PROPER_ENOMEM;
        memcpy(c->saved, x, bytes);
        c->saved_at = j;
        c->period = j - (c->at[slot] - 1);
        ev = PROPER__DTMC_CYCLE_SAVED;
    }
    c->hash[slot] = h;
    c->at[slot] = j + 1;
    c->n++;
    return ev;
}

static unsigned long proper__dtmc_gcd(unsigned long a, unsigned long b) {
    while (b) {
        unsigned long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The least common multiple of the periods of the bottom SCCs, if at most
 * cap (else, or out of memory, 0). Every iterate P^j v becomes periodic
 * with a divisor of it: the periodic chains whose period exceeds
 * PROPER_DTMC_CYCLE_MAX (a ring of 1000 states) are found by comparing
 * iterates that many steps apart. The period of a strongly connected
 * component is the gcd over its edges u -> v of level(u) + 1 - level(v),
 * with breadth-first levels from any of its states (Jarvis & Shier,
 * "Graph-theoretic analysis of finite Markov chains", 1999). */
static unsigned long proper__dtmc_bscc_period_lcm(const proper_dtmc *m, unsigned long cap) {
    uint32_t n = m->n_states, nb, s, *bscc, *level, *queue;
    unsigned long lcm = 1;
    bscc = (uint32_t *)proper_calloc(n ? n : 1, sizeof *bscc);
    level = (uint32_t *)proper_calloc(n ? n : 1, sizeof *level);
    queue = (uint32_t *)proper_calloc(n ? n : 1, sizeof *queue);
    if (!bscc || !level || !queue || proper_dtmc_bscc(m, bscc, &nb, NULL)) { lcm = 0; goto done; }
    for (s = 0; s < n; s++) level[s] = UINT32_MAX;
    for (s = 0; s < n && lcm; s++) {
        uint32_t head = 0, tail = 0;
        unsigned long g = 0;
        if (bscc[s] == UINT32_MAX || level[s] != UINT32_MAX) continue;
        level[s] = 0;
        queue[tail++] = s;
        while (head < tail) { /* a bottom SCC has no edge out of it */
            uint32_t u = queue[head++];
            uint64_t e;
            for (e = m->row[u]; e < m->row[u + 1]; e++) {
                uint32_t v = m->col[e];
                if (level[v] == UINT32_MAX) {
                    level[v] = level[u] + 1;
                    queue[tail++] = v;
                }
                g = proper__dtmc_gcd(g, (unsigned long)(level[u] + 1 - level[v]));
            }
        }
        lcm = lcm / proper__dtmc_gcd(lcm, g) > cap / g ? 0 : lcm / proper__dtmc_gcd(lcm, g) * g;
    }
done:
    PROPER_FREE(bscc);
    PROPER_FREE(level);
    PROPER_FREE(queue);
    return lcm;
}

/* The cycle finder of P^j v over k steps, told the graph's long period. */
static void proper__dtmc_cycle_hint(proper__dtmc_cycle *c, const proper_dtmc *m, unsigned long k) {
    unsigned long p;
    if (k <= 2 * (unsigned long)PROPER_DTMC_CYCLE_MAX) return;
    p = proper__dtmc_bscc_period_lcm(m, k / 2);
    if (p > PROPER_DTMC_CYCLE_MAX) c->hint = p;
}

/* One step of P=? [ phi1 U phi2 ]: x(s) = 1 on phi2, 0 outside phi1 (kept
 * as they are), else sum_t P(s,t) prev(t). */
static void proper__dtmc_until_step(const proper_dtmc *m, const proper_bitset *phi1, const proper_bitset *phi2,
                                    const double *prev, double *x) {
    uint32_t s;
    for (s = 0; s < m->n_states; s++) {
        double v = 0.0;
        uint64_t e;
        if (PROPER_BITSET_GET(phi2, s) || (phi1 && !PROPER_BITSET_GET(phi1, s))) continue;
        for (e = m->row[s]; e < m->row[s + 1]; e++) v += m->prob[e] * prev[m->col[e]];
        x[s] = v;
    }
}

/* One step of x = P prev. */
static void proper__dtmc_mul(const proper_dtmc *m, const double *prev, double *x) {
    uint32_t s;
    for (s = 0; s < m->n_states; s++) {
        double v = 0.0;
        uint64_t e;
        for (e = m->row[s]; e < m->row[s + 1]; e++) v += m->prob[e] * prev[m->col[e]];
        x[s] = v;
    }
}

/* Smallest and largest entry of v. */
static void proper__dtmc_range(const double *v, uint32_t n, double *lo, double *hi) {
    uint32_t s;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (s = 0; s < n; s++) {
        if (v[s] < *lo) *lo = v[s];
        if (v[s] > *hi) *hi = v[s];
    }
}

/* Early stop of x_k = P^(k-j) x_j (I=k) when every later iterate is
 * pinned: P is stochastic, so each entry of P v lies between the smallest
 * and the largest entry of v, and so does every entry of x_k. When that
 * range is within 2 rel_precision of its magnitude, x_k is its midpoint
 * to within rel_precision. Returns 1 (x set) or 0. */
static int proper__dtmc_pinned_power(double *x, uint32_t n) {
    double lo, hi, mid;
    uint32_t s;
    proper__dtmc_range(x, n, &lo, &hi);
    mid = lo + (hi - lo) / 2.0;
    if (!(hi - lo <= 2.0 * PROPER_DTMC_REL_PRECISION * fmax(fabs(lo), fabs(hi)))) return 0;
    for (s = 0; s < n; s++) x[s] = mid;
    return 1;
}

/* Early stop of phi1 U<=k phi2 at step j: x_j <= x_k <= x_inf, where x_inf
 * (the unbounded until) comes with a proven bound; when upper - x_j is
 * within 2 rel_precision of x_j in every state, x_k is the midpoint to
 * within rel_precision. `upper` is x_inf + its bound, computed on first
 * use (NULL until then). Returns 1 (x set), 0, or a negative error. */
static int proper__dtmc_pinned_until(const proper_dtmc *m, const proper_bitset *phi1, const proper_bitset *phi2,
                                     double **upper, double *x, proper_error *err) {
    uint32_t s, n = m->n_states;
    if (!*upper) {
        proper_dtmc_solve_stats st;
        int rc;
        *upper = (double *)proper_calloc(n ? n : 1, sizeof **upper);
        if (!*upper) return proper__dtmc_nomem(err);
        if ((rc = proper_dtmc_prob_until(m, phi1, phi2, NULL, *upper, &st, err))) return rc;
        for (s = 0; s < n; s++) /* 0: reaching phi2 is impossible (prob0), exactly */
            if ((*upper)[s] > 0.0) (*upper)[s] = fmin(1.0, (*upper)[s] + st.max_error);
    }
    for (s = 0; s < n; s++)
        if (!((*upper)[s] - x[s] <= 2.0 * PROPER_DTMC_REL_PRECISION * x[s]) && (*upper)[s] != x[s]) return 0;
    for (s = 0; s < n; s++) x[s] += ((*upper)[s] - x[s]) / 2.0;
    return 1;
}

PROPER_API unsigned long proper_dtmc_max_steps(const proper_dtmc *m) {
    double per_step = (double)m->row[m->n_states] + (double)m->n_states + 1.0;
    double steps = floor(PROPER_DTMC_MAX_STEP_WORK / per_step);
    return steps >= (double)ULONG_MAX ? ULONG_MAX : (unsigned long)steps;
}

PROPER_API int proper_dtmc_steps_refused(const proper_dtmc *m, unsigned long k, proper_error *err) {
    return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                            "step bound %lu: the iterates neither repeat nor settle within %lu steps, the most "
                            "%u states and %llu transitions allow (PROPER_DTMC_MAX_STEP_WORK = %g multiply-adds)",
                            k, proper_dtmc_max_steps(m), (unsigned)m->n_states,
                            (unsigned long long)m->row[m->n_states], (double)PROPER_DTMC_MAX_STEP_WORK);
}

/* x_k of the iteration x_{j+1} = f(x_j) from x_0 = x (f: one step of
 * phi1 U phi2 when phi2 is given, else x = P x), skipping the rest once the
 * iterates repeat: x_j = x_{j-p} gives x_k = x_{j + (k - j) mod p}; or, for
 * long runs that do not repeat, once a proven bound pins x_k (above). */
static int proper__dtmc_iterate(const proper_dtmc *m, const proper_bitset *phi1, const proper_bitset *phi2,
                                unsigned long k, double *x, unsigned long *pinned_at, proper_error *err) {
    proper__dtmc_cycle c;
    double *prev, *upper = NULL;
    unsigned long j, next_check = PROPER_DTMC_BOUND_CHECK_FROM, cap = proper_dtmc_max_steps(m);
    int ev, skipping = 0, rc = PROPER_OK;
    prev = (double *)proper_calloc(m->n_states ? m->n_states : 1, sizeof *prev);
    if (!prev) return proper__dtmc_nomem(err);
    proper__dtmc_cycle_init(&c);
    if (!phi2) proper__dtmc_cycle_hint(&c, m, k); /* an until's iterates only grow: no period */
    if (k > 0 && proper__dtmc_cycle_step(&c, x, m->n_states) < 0) goto nomem;
    for (j = 1; j <= k; j++) {
        memcpy(prev, x, (size_t)m->n_states * sizeof *prev);
        if (phi2) proper__dtmc_until_step(m, phi1, phi2, prev, x);
        else proper__dtmc_mul(m, prev, x);
        if (skipping) continue;
        if (j > cap) {
            rc = proper_dtmc_steps_refused(m, k, err);
            break;
        }
        if ((ev = proper__dtmc_cycle_step(&c, x, m->n_states)) < 0) goto nomem;
        if (ev == PROPER__DTMC_CYCLE_FOUND) {
            skipping = 1;
            k = j + (k - j) % c.period;
            continue;
        }
        if (j == next_check && k - j >= j) {
            next_check += next_check / 16;
            rc = phi2 ? proper__dtmc_pinned_until(m, phi1, phi2, &upper, x, err)
                      : proper__dtmc_pinned_power(x, m->n_states);
            if (rc) {
                if (rc > 0 && pinned_at) *pinned_at = j;
                break;
            }
        }
    }
    proper__dtmc_cycle_free(&c);
    PROPER_FREE(prev);
    PROPER_FREE(upper);
    return rc < 0 ? rc : PROPER_OK;
nomem:
    proper__dtmc_cycle_free(&c);
    PROPER_FREE(prev);
    PROPER_FREE(upper);
    return proper__dtmc_nomem(err);
}

PROPER_API int proper_dtmc_prob_bounded_until(const proper_dtmc *m, const proper_bitset *phi1,
                                              const proper_bitset *phi2, unsigned long k, double *x,
                                              proper_error *err) {
    uint32_t s;
    int rc;
    if ((rc = proper__dtmc_refuse_ctmc(m, "a step-bounded until", err)) ||
        (rc = proper__dtmc_check_set(m, phi1, "phi1", err)) || (rc = proper__dtmc_check_set(m, phi2, "phi2", err)))
        return rc;
    for (s = 0; s < m->n_states; s++) x[s] = PROPER_BITSET_GET(phi2, s) ? 1.0 : 0.0;
    return proper__dtmc_iterate(m, phi1, phi2, k, x, NULL, err);
}

/* sum - 1 of one row, exactly, as a sum of non-overlapping doubles h[0..len)
 * (Shewchuk's grow-expansion, Adaptive Precision Floating-Point Arithmetic,
 * 1997, Thm 10, with Knuth's error-free TwoSum; zero parts dropped). Returns
 * upper bounds of |sum - 1| (*defect) and of max(0, sum - 1) (*excess): the
 * parts' sum is at most len u away from its rounded value. A row whose
 * doubles sum to 1 exactly gets 0 and 0. More than 60 parts (not possible
 * for doubles, whose exponents span 2098 bits) would fall back to the
 * rounding bound d u sum. */
static void proper__dtmc_row_sum_minus_one(const double *p, uint64_t d, double *defect, double *excess) {
    double h[64], u = DBL_EPSILON / 2.0, value = 0.0, size = 0.0, plain = 0.0;
    uint64_t i;
    int len = 1, j, k, exact = 1;
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
    exact = 0; /* doubles evaluated in wider registers: TwoSum is not exact, take the rounding bound */
#endif
    h[0] = -1.0;
    for (i = 0; i < d && exact; i++) {
        double q = p[i];
        for (j = 0, k = 0; j < len; j++) {
            double sum = q + h[j], bv = sum - q, err = (q - (sum - bv)) + (h[j] - bv);
            q = sum;
            if (err != 0.0) h[k++] = err;
        }
        if (q != 0.0) h[k++] = q;
        len = k;
        if (len > 60) exact = 0; /* not reached by doubles; stay sound regardless */
    }
    if (!exact) {
        for (i = 0; i < d; i++) plain += p[i];
        *defect = (fabs(plain - 1.0) + (double)(d + 1) * u * (plain + 1.0)) * (1.0 + 2.0 * u);
        *excess = fmax(0.0, plain - 1.0 + *defect);
        return;
    }
    for (j = 0; j < len; j++) {
        value += h[j];
        size += fabs(h[j]);
    }
    size *= 1.0 + (double)(len + 2) * u;
    *defect = size;
    *excess = value > -size ? fmin(size, value + (double)(len + 1) * u * size) : 0.0;
    if (*excess < 0.0) *excess = 0.0;
}

/* Over all rows: the largest excess t of a row sum over 1 and the largest
 * |row sum - 1| T, both proven upper bounds (above), and the longest row. */
static void proper__dtmc_row_sums(const proper_dtmc *m, double *t, double *T, uint32_t *longest) {
    uint32_t s, d = 1;
    *t = 0.0;
    *T = 0.0;
    for (s = 0; s < m->n_states; s++) {
        double defect, excess;
        uint64_t deg = m->row[s + 1] - m->row[s];
        if (deg > d) d = (uint32_t)deg;
        proper__dtmc_row_sum_minus_one(m->prob + m->row[s], deg, &defect, &excess);
        *t = fmax(*t, excess);
        *T = fmax(*T, defect);
    }
    *longest = d;
}

/* gamma_k = k u / (1 - k u) (Higham, Accuracy and Stability of Numerical
 * Algorithms, 2002, Lemma 3.1): k roundings, each a factor 1 + delta with
 * |delta| <= u = eps_mach / 2, multiply to 1 + theta with |theta| <=
 * gamma_k; rounded up here by a few units, INFINITY when k u >= 1/2. */
static double proper__dtmc_gamma(double k) {
    double u = DBL_EPSILON / 2.0;
    if (!(k * u < 0.5)) return INFINITY;
    return k * u / (1.0 - k * u) * (1.0 + 4.0 * u);
}

/* The a priori bound of j steps of x <- P x on values of magnitude at most
 * big: j d u (1 + t)^j big, d the longest row, u = eps_mach / 2, 1 + t the
 * largest row sum (see "What the other solvers carry"); the dot product
 * of a row of d terms is within gamma_d = d u / (1 - d u) of its value. */
static double proper__dtmc_steps_bound(const proper_dtmc *m, double j, double big) {
    uint32_t d;
    double t, T, u = DBL_EPSILON / 2.0;
    proper__dtmc_row_sums(m, &t, &T, &d);
    return j * proper__dtmc_gamma((double)d) * pow(1.0 + t, j) * big * (1.0 + 4.0 * u);
}

PROPER_API int proper_dtmc_prob_bounded_until_stats(const proper_dtmc *m, const proper_bitset *phi1,
                                                    const proper_bitset *phi2, unsigned long k, double *x,
                                                    proper_dtmc_solve_stats *stats, proper_error *err) {
    uint32_t s;
    unsigned long pinned_at = 0;
    int rc;
    if (stats) memset(stats, 0, sizeof *stats);
    if ((rc = proper__dtmc_refuse_ctmc(m, "a step-bounded until", err)) ||
        (rc = proper__dtmc_check_set(m, phi1, "phi1", err)) || (rc = proper__dtmc_check_set(m, phi2, "phi2", err)))
        return rc;
    for (s = 0; s < m->n_states; s++) x[s] = PROPER_BITSET_GET(phi2, s) ? 1.0 : 0.0;
    if ((rc = proper__dtmc_iterate(m, phi1, phi2, k, x, &pinned_at, err))) return rc;
    if (stats) {
        double top = 0.0;
        for (s = 0; s < m->n_states; s++) top = x[s] > top ? x[s] : top;
        if (pinned_at) /* the products up to the stop, then the midpoint of a range of 2 rel_precision */
            stats->max_error = proper__dtmc_steps_bound(m, (double)pinned_at, 1.0) +
                               PROPER_DTMC_REL_PRECISION * top * (1.0 + 4.0 * DBL_EPSILON);
        else /* repeated iterates reproduce the skipped products bit for bit: k of them */
            stats->max_error = proper__dtmc_steps_bound(m, (double)k, 1.0);
        stats->init_error = stats->max_error;
    }
    return PROPER_OK;
}

static int proper__dtmc_check_reward(const proper_dtmc *m, const proper_dtmc_reward *r, int nonneg, proper_error *err) {
    uint64_t i;
    if (r->state)
        for (i = 0; i < m->n_states; i++)
            if (!isfinite(r->state[i]) || (nonneg && r->state[i] < 0.0))
                return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "state reward of state %u is %g%s",
                                        (unsigned)i, r->state[i], nonneg ? " (must be finite and >= 0)" : "");
    if (r->trans)
        for (i = 0; i < m->n_trans; i++)
            if (!isfinite(r->trans[i]) || (nonneg && r->trans[i] < 0.0))
                return proper_error_set(err, PROPER_ERANGE, NULL, 0, 0, "a transition reward is %g%s", r->trans[i],
                                        nonneg ? " (must be finite and >= 0)" : "");
    return PROPER_OK;
}

/* Expected reward of one step from s: state reward + expected transition reward. */
static double proper__dtmc_step_reward(const proper_dtmc *m, const proper_dtmc_reward *r, uint32_t s) {
    double v = r->state ? r->state[s] : 0.0;
    uint64_t e;
    if (r->trans)
        for (e = m->row[s]; e < m->row[s + 1]; e++) v += m->prob[e] * r->trans[e];
    return v;
}

/* R=? [ F phi ] on a CTMC: on the jump chain (proper__dtmc_jump_chain),
 * each visit to s earns the state reward rate times the mean sojourn
 * 1/E'(s) (E' the rate of leaving s), the transition reward of its
 * self-loop times the loop's expected firings R(s,s)/E'(s), and the
 * transition reward of the jump taken. */
static int proper__dtmc_ctmc_reward_reach(const proper_dtmc *m, const proper_dtmc_reward *r, const proper_bitset *phi,
                                          const proper_dtmc_solve_opts *opts, double *x,
                                          proper_dtmc_solve_stats *stats, proper_error *err) {
    proper_dtmc e;
    proper_dtmc_reward per_visit;
    proper_dtmc_solve_opts o = proper__dtmc_ctmc_derived_opts(m, opts);
    double *state = NULL, *trans = NULL;
    uint64_t *orig = NULL, k;
    uint32_t s;
    int rc;
    proper_dtmc_init(&e);
    if ((rc = proper__dtmc_jump_chain(m, &e, &orig, err))) return rc;
    per_visit = *r;
    state = (double *)proper_calloc(m->n_states ? m->n_states : 1, sizeof *state);
    if (r->trans) trans = (double *)proper_calloc(e.n_trans ? (size_t)e.n_trans : 1, sizeof *trans);
    if (!state || (r->trans && !trans)) { rc = proper__dtmc_nomem(err); goto done; }
    for (s = 0; s < m->n_states; s++) {
        double leave = 0.0, loop = 0.0;
        for (k = m->row[s]; k < m->row[s + 1]; k++) {
            if (m->col[k] != s) leave += m->prob[k];
            else if (r->trans) loop = m->prob[k] * r->trans[k];
        }
        if (leave == 0.0) leave = 1.0; /* absorbing: never left, earns nothing it can reach phi by */
        state[s] = ((r->state ? r->state[s] : 0.0) + loop) / leave;
    }
    if (trans)
        for (k = 0; k < e.n_trans; k++) trans[k] = m->col[orig[k]] == e.col[k] ? r->trans[orig[k]] : 0.0;
    per_visit.state = state;
    per_visit.trans = trans;
    rc = proper_dtmc_reward_reach(&e, &per_visit, phi, &o, x, stats, err);
done:
    PROPER_FREE(state);
    PROPER_FREE(trans);
    PROPER_FREE(orig);
    proper_dtmc_free(&e);
    return rc;
}

PROPER_API int proper_dtmc_reward_reach(const proper_dtmc *m, const proper_dtmc_reward *r,
                                        const proper_bitset *phi, const proper_dtmc_solve_opts *opts,
                                        double *x, proper_dtmc_solve_stats *stats, proper_error *err) {
    proper__dtmc_csr g, pred;
    proper_bitset no, sure;
    double *b;
    uint32_t s;
    int rc;
    if (stats) memset(stats, 0, sizeof *stats);
    if ((rc = proper__dtmc_check_set(m, phi, "phi", err)) || (rc = proper__dtmc_check_reward(m, r, 1, err))) return rc;
    if (m->kind == PROPER_DTMC_KIND_CTMC) return proper__dtmc_ctmc_reward_reach(m, r, phi, opts, x, stats, err);
    proper__dtmc_csr_view(m, &g);
    if (proper__dtmc_transpose(&g, NULL, 0, &pred)) return proper__dtmc_nomem(err);
    if (proper__dtmc_prob0(&pred, NULL, phi, &no)) { proper__dtmc_csr_free(&pred); return proper__dtmc_nomem(err); }
    rc = proper__dtmc_prob1(&pred, NULL, phi, &no, &sure);
    proper__dtmc_csr_free(&pred);
    proper_bitset_free(&no);
    if (rc) return proper__dtmc_nomem(err);
    b = (double *)proper_calloc(m->n_states, sizeof *b);
    if (!b) { proper_bitset_free(&sure); return proper__dtmc_nomem(err); }
    /* unknowns: states that reach phi surely but are not in phi */
    for (s = 0; s < m->n_states; s++) {
        if (PROPER_BITSET_GET(phi, s)) {
            x[s] = 0.0;
            proper_bitset_clear(&sure, s);
        } else if (!PROPER_BITSET_GET(&sure, s)) {
            x[s] = INFINITY; /* phi missed with positive probability: PRISM's infinity */
        } else {
            x[s] = 0.0;
            b[s] = proper__dtmc_step_reward(m, r, s);
        }
    }
    rc = proper__dtmc_solve_linear_at_init(m, &g, &sure, b, x, opts, stats, err);
    PROPER_FREE(b);
    proper_bitset_free(&sure);
    return rc;
}

/* Where a C<=k run stopped early on a pinned range (see below): the step
 * j, and the range [lo, hi] of d_j, whose midpoint stands for the k - j
 * terms left. at == 0: no such stop. */
typedef struct proper__dtmc_cumul_pin {
    unsigned long at;
    double lo, hi;
} proper__dtmc_cumul_pin;

static int proper__dtmc_cumulative(const proper_dtmc *m, const proper_dtmc_reward *r, unsigned long k, double *x,
                                   proper__dtmc_cumul_pin *pin, proper_error *err) {
    proper__dtmc_cycle c;
    double *d, *prev, *period_sum;
    unsigned long j, next_check = PROPER_DTMC_BOUND_CHECK_FROM, cap;
    uint32_t s, n = m->n_states;
    int rc, ev;
    pin->at = 0;
    if ((rc = proper__dtmc_refuse_ctmc(m, "a step-bounded cumulative reward", err)) ||
        (rc = proper__dtmc_check_reward(m, r, 0, err)))
        return rc;
    d = (double *)proper_calloc(n ? n : 1, sizeof *d);
    prev = (double *)proper_calloc(n ? n : 1, sizeof *prev);
    period_sum = (double *)proper_calloc(n ? n : 1, sizeof *period_sum);
    proper__dtmc_cycle_init(&c);
    if (!d || !prev || !period_sum) { rc = proper__dtmc_nomem(err); goto done; }
    proper__dtmc_cycle_hint(&c, m, k);
    cap = proper_dtmc_max_steps(m);
    /* x = sum_{j<k} d_j with d_0 = the expected reward of one step and
     * d_{j+1} = P d_j; period_sum = the sum of the d_j since the iterate
     * whose repetition is being verified */
    for (s = 0; s < n; s++) { x[s] = 0.0; d[s] = proper__dtmc_step_reward(m, r, s); }
    for (j = 0; j < k; j++) {
        if (j > cap) { rc = proper_dtmc_steps_refused(m, k, err); goto done; }
        if ((ev = proper__dtmc_cycle_step(&c, d, n)) < 0) { rc = proper__dtmc_nomem(err); goto done; }
        if (ev == PROPER__DTMC_CYCLE_FOUND) {
            /* d_j = d_{j-p}: the k - j terms left are q whole periods, each
             * summing to period_sum, then the first (k - j) mod p terms */
            unsigned long left = k - j, q = left / c.period, rest = left % c.period, i;
            for (s = 0; s < n; s++) x[s] += (double)q * period_sum[s];
            for (i = 0; i < rest; i++) {
                for (s = 0; s < n; s++) x[s] += d[s];
                memcpy(prev, d, (size_t)n * sizeof *prev);
                proper__dtmc_mul(m, prev, d);
            }
            break;
        }
        if (ev == PROPER__DTMC_CYCLE_SAVED) memset(period_sum, 0, (size_t)n * sizeof *period_sum);
        if (j == next_check && k - j >= j) {
            /* every later d_i lies between the smallest and largest entry of
             * d_j (P is stochastic): the k - j terms left add (k - j) times
             * a value in [lo, hi]; stop when that pins x within
             * rel_precision, with the midpoint */
            double lo, hi, rest = (double)(k - j), least = INFINITY;
            next_check += next_check / 16;
            proper__dtmc_range(d, n, &lo, &hi);
            for (s = 0; s < n; s++) least = fmin(least, fabs(x[s] + rest * (lo + (hi - lo) / 2.0)));
            if (rest * (hi - lo) <= 2.0 * PROPER_DTMC_REL_PRECISION * least) {
                for (s = 0; s < n; s++) x[s] += rest * (lo + (hi - lo) / 2.0);
                pin->at = j;
                pin->lo = lo;
                pin->hi = hi;
                break;
            }
        }
        for (s = 0; s < n; s++) {
            x[s] += d[s];
            period_sum[s] += d[s];
        }
        if (j + 1 < k) {
            memcpy(prev, d, (size_t)n * sizeof *prev);
            proper__dtmc_mul(m, prev, d);
        }
    }
done:
    proper__dtmc_cycle_free(&c);
    PROPER_FREE(d);
    PROPER_FREE(prev);
    PROPER_FREE(period_sum);
    return rc;
}

PROPER_API int proper_dtmc_reward_cumulative(const proper_dtmc *m, const proper_dtmc_reward *r, unsigned long k,
                                             double *x, proper_error *err) {
    proper__dtmc_cumul_pin pin;
    return proper__dtmc_cumulative(m, r, k, x, &pin, err);
}

/* The proven bound of C<=k (a priori, as for I=k; see "What the other
 * solvers carry"), with u = eps_mach / 2, gamma_n = n u / (1 - n u), d the
 * longest row, 1 + t the largest row sum and T the largest |row sum - 1|:
 *  - d_0, the step reward, is a sum of d + 1 terms of magnitude at most B
 *    in all (B = max_s |state| + sum P |trans|): error e_0 <= gamma_{d+1} B;
 *  - the j-th floating iterate d_j, from products of rows of d terms, is
 *    within e_j <= e_0 (1 + t)^j + j gamma_d (1 + t)^j (B + e_0) of P^j d_0
 *    (Higham, Accuracy and Stability, 3.5: |fl(a.b) - a.b| <= gamma_d
 *    |a|.|b|; an error passes through P grown by at most 1 + t); iterates
 *    skipped because they repeat are the same floats, so J terms (J = k,
 *    or the step of an early stop) carry at most J e_J;
 *  - summing them (recursively, or by whole periods times their count) is
 *    within gamma_{2J+4} sum |d_j| (Higham 4.2), sum |d_j| <= J (B (1 + t)^J
 *    + e_J);
 *  - an early stop at step j replaces the k - j terms left by the midpoint
 *    of the range [lo, hi] of d_j: each exact later term P^i d_j lies in
 *    [lo, hi] widened by ((1 + T)^i - 1) max(|lo|, |hi|) (induction: a row
 *    of sum within 1 +- T moves a value w by at most T |w|), plus the
 *    error e_j carried by P^i, at most e_j (1 + T)^i; the product and the
 *    add cost 2 u (|x| + (k - j) |mid|). */
static double proper__dtmc_cumul_bound(const proper_dtmc *m, const proper_dtmc_reward *r, unsigned long k,
                                       const proper__dtmc_cumul_pin *pin, const double *x) {
    double u = DBL_EPSILON / 2.0, B = 0.0, t, T, e0, eJ, J, bound, xmax = 0.0;
    uint32_t s, dmax;
    for (s = 0; s < m->n_states; s++) {
        double mag = r->state ? fabs(r->state[s]) : 0.0;
        uint64_t e;
        if (r->trans)
            for (e = m->row[s]; e < m->row[s + 1]; e++) mag += m->prob[e] * fabs(r->trans[e]);
        B = fmax(B, mag);
        xmax = fmax(xmax, fabs(x[s]));
    }
    proper__dtmc_row_sums(m, &t, &T, &dmax);
    B *= 1.0 + (double)(dmax + 2) * u;  /* B's own rounding, up */
    e0 = (dmax + 1) * u / (1.0 - (dmax + 1) * u) * B;
    J = pin->at ? (double)pin->at : (double)k;
    eJ = e0 * pow(1.0 + t, J) + proper__dtmc_steps_bound(m, J, B + e0);
    bound = J * eJ + (2.0 * J + 4.0) * u / (1.0 - (2.0 * J + 4.0) * u) * J * (B * pow(1.0 + t, J) + eJ);
    if (pin->at) {
        double rest = (double)(k - pin->at), mid = pin->lo + (pin->hi - pin->lo) / 2.0;
        double grow = pow(1.0 + T, rest), wide = fmax(fabs(pin->lo), fabs(pin->hi));
        bound += rest * ((pin->hi - pin->lo) / 2.0 + (grow - 1.0) * wide + eJ * grow) +
                 2.0 * u * (xmax + rest * fabs(mid));
    }
    return bound * (1.0 + 8.0 * u);
}

PROPER_API int proper_dtmc_reward_cumulative_stats(const proper_dtmc *m, const proper_dtmc_reward *r,
                                                   unsigned long k, double *x, proper_dtmc_solve_stats *stats,
                                                   proper_error *err) {
    proper__dtmc_cumul_pin pin;
    int rc;
    if (stats) memset(stats, 0, sizeof *stats);
    if ((rc = proper__dtmc_cumulative(m, r, k, x, &pin, err))) return rc;
    if (stats) stats->init_error = stats->max_error = proper__dtmc_cumul_bound(m, r, k, &pin, x);
    return PROPER_OK;
}

PROPER_API int proper_dtmc_reward_instant(const proper_dtmc *m, const proper_dtmc_reward *r, unsigned long k,
                                          double *x, proper_error *err) {
    uint32_t s;
    int rc;
    if ((rc = proper__dtmc_refuse_ctmc(m, "a step-bounded instantaneous reward", err)) ||
        (rc = proper__dtmc_check_reward(m, r, 0, err)))
        return rc;
    /* i_j = P i_{j-1}, i_0 = state rewards */
    for (s = 0; s < m->n_states; s++) x[s] = r->state ? r->state[s] : 0.0;
    return proper__dtmc_iterate(m, NULL, NULL, k, x, NULL, err);
}

PROPER_API int proper_dtmc_reward_instant_stats(const proper_dtmc *m, const proper_dtmc_reward *r, unsigned long k,
                                                double *x, proper_dtmc_solve_stats *stats, proper_error *err) {
    uint32_t s;
    unsigned long pinned_at = 0;
    double big = 0.0, top = 0.0;
    int rc;
    if (stats) memset(stats, 0, sizeof *stats);
    if ((rc = proper__dtmc_refuse_ctmc(m, "a step-bounded instantaneous reward", err)) ||
        (rc = proper__dtmc_check_reward(m, r, 0, err)))
        return rc;
    for (s = 0; s < m->n_states; s++) {
        x[s] = r->state ? r->state[s] : 0.0;
        big = fmax(big, fabs(x[s]));
    }
    if ((rc = proper__dtmc_iterate(m, NULL, NULL, k, x, &pinned_at, err))) return rc;
    if (stats) {
        for (s = 0; s < m->n_states; s++) top = fmax(top, fabs(x[s]));
        if (pinned_at) /* the products up to the stop, then the midpoint of a range of 2 rel_precision */
            stats->max_error = proper__dtmc_steps_bound(m, (double)pinned_at, big) +
                               PROPER_DTMC_REL_PRECISION * top * (1.0 + 4.0 * DBL_EPSILON);
        else /* repeated iterates reproduce the skipped products bit for bit: k of them */
            stats->max_error = proper__dtmc_steps_bound(m, (double)k, big);
        stats->init_error = stats->max_error;
    }
    return PROPER_OK;
}

/* Reference state of each bottom SCC for the stationary solve: one of
 * large stationary mass, so that the other values (masses relative to it)
 * are not huge. A state of tiny mass (a rare failure state of a CTMC whose
 * rates differ by 1e5) made them climb to 1e10 by bounded steps, a sweep
 * at a time. The mass is guessed by PROPER__DTMC_REF_STEPS steps of
 * pi <- pi P from the uniform distribution over the BSCC states, then
 * PROPER__DTMC_REF_SWEEPS Gauss-Seidel sweeps of the stationary equations
 * pi_t (1 - P(t,t)) = sum_{s != t} pi_s P(s,t) over the predecessors `tr`
 * (each BSCC's values keep their scale: the equations are homogeneous).
 * The sweeps matter for stiff chains: a step of P moves a state of exit
 * rate E by E/q of its mass, a sweep by all of it. PRISM's erlangen model
 * (rates from 0.00035 to 48) chose a state of small mass after the 64
 * steps alone, and the values climbed by about 1/850000 of themselves per
 * sweep: 10^6 sweeps (160 s) and no answer. pi[ref[b]] is the heaviest
 * state of BSCC b. */
#define PROPER__DTMC_REF_STEPS 64
#define PROPER__DTMC_REF_SWEEPS 64
static void proper__dtmc_reference_sweeps(const proper__dtmc_csr *tr, const uint32_t *bscc, double *a) {
    uint32_t j, t;
    for (j = 0; j < PROPER__DTMC_REF_SWEEPS; j++)
        for (t = tr->n; t-- > 0;) {
            double in = 0.0, stay = 0.0;
            uint64_t e;
            if (bscc[t] == UINT32_MAX) continue;
            for (e = tr->row[t]; e < tr->row[t + 1]; e++) {
                if (tr->col[e] == t) stay += tr->val[e];
                else in += a[tr->col[e]] * tr->val[e];
            }
            if (stay < 1.0 && in > 0.0) a[t] = in / (1.0 - stay);
        }
}

static int proper__dtmc_reference_states(const proper_dtmc *m, const proper__dtmc_csr *tr, const uint32_t *bscc,
                                         uint32_t nb, uint32_t *ref) {
    uint32_t n = m->n_states, s, j;
    double *a = (double *)proper_calloc(n ? n : 1, sizeof *a), *b = (double *)proper_calloc(n ? n : 1, sizeof *b);
    if (!a || !b) { PROPER_FREE(a); PROPER_FREE(b); return PROPER_ENOMEM; }
    for (s = 0; s < n; s++) a[s] = bscc[s] != UINT32_MAX ? 1.0 : 0.0;
    for (j = 0; j < PROPER__DTMC_REF_STEPS; j++) {
        double *t;
        memset(b, 0, (size_t)n * sizeof *b);
        for (s = 0; s < n; s++) {
            uint64_t e;
            if (a[s] == 0.0) continue;
            for (e = m->row[s]; e < m->row[s + 1]; e++) b[m->col[e]] += a[s] * m->prob[e];
        }
        t = a; a = b; b = t;
    }
    proper__dtmc_reference_sweeps(tr, bscc, a);
    for (j = 0; j < nb; j++) ref[j] = UINT32_MAX;
    for (s = 0; s < n; s++)
        if (bscc[s] != UINT32_MAX && (ref[bscc[s]] == UINT32_MAX || a[s] > a[ref[bscc[s]]])) ref[bscc[s]] = s;
    PROPER_FREE(a);
    PROPER_FREE(b);
    return PROPER_OK;
}

/* ---- Stationary distributions by GTH ----------------------------------------
 * Grassmann, Taksar and Heyman, "Regenerative analysis and steady state
 * distributions for Markov chains", Oper. Res. 33(5), 1985: Gaussian
 * elimination on the off-diagonal rates (for a DTMC its off-diagonal
 * probabilities: pi P = pi and pi (P - I) = 0 are the same equations) that
 * never subtracts. Eliminating state k censors the chain to 0..k-1:
 * a_ij += a_ik a_kj / s_k with s_k = sum_{j<k} a_kj (its exit rate to the
 * states left, a sum instead of a diagonal); back substitution gives
 * pi_0 = 1, pi_k = sum_{i<k} pi_i a_ik / s_k (balance of state k in the
 * chain censored to 0..k). All in long double, on a dense copy of one
 * bottom SCC: (n^3)/3 multiply-adds, n^2 long doubles.
 *
 * Error bound (an entrywise RELATIVE one, after O'Cinneide, "Entrywise
 * perturbation theory and error analysis for Markov chains", Numer. Math.
 * 65, 1993; the constant derived here for this code). u is the unit
 * roundoff of long double, g_k = -log(1 - gamma_{k-1}) with
 * gamma_j = j u / (1 - j u) (Higham, Accuracy and Stability, Lemma 3.1:
 * a recursive sum of k positive terms is their exact sum with each term
 * scaled by a factor within [1/(1+gamma_{k-1}), 1+gamma_{k-1}]).
 *  (1) Markov chain tree theorem: pi_j is proportional to the sum over
 *      spanning trees directed into j of the product of their rates; an
 *      m-state chain's trees have m - 1 edges, so scaling every rate by a
 *      factor within e^{+-b} moves every ratio pi_i / pi_0 by at most
 *      e^{+-2 (m-1) b}; scaling only the rates out of one state k != 0,
 *      i moves it by e^{+-2 b} (each tree into i or 0 has one edge out of k).
 *  (2) Elimination of k: the computed s_k is the exact sum of row k
 *      scaled entrywise within e^{+-g_k} (call that row a'); the computed
 *      entry fl(a_ij + fl(a_ik fl(a_kj / s_k))) is the exact censoring of
 *      the chain with row a' times a factor within e^{+-b_k},
 *      b_k = -3 log(1 - u) + g_k (a division, a product and a sum
 *      rounded, and a_kj = a'_kj / (1 + theta_j)); both terms are
 *      non-negative, so the sum's factor lies between theirs. By (1) the
 *      ratios of the exact stationary vectors of the computed chains on
 *      0..k and on 0..k-1 differ by at most L_k = 2 g_k + 2 (k-1) b_k.
 *  (3) Back substitution of pi_k: k products, a sum of k terms and the
 *      quotient by the computed s_k: c_k = 2 g_k - 2 log(1 - u) against
 *      the exact balance of the computed chain on 0..k.
 *  With f_k the largest |log pi~_i - log rho_i| over i <= k against the
 *  exact stationary ratios rho of the computed chain on 0..k, f_0 = 0 and
 *  f_k <= f_{k-1} + L_k + c_k, so the unnormalised ratios are within
 *  e^{+-E} of the exact ones of the stored chain, E = sum_{k=1}^{n-1}
 *  (L_k + c_k) ~ (2/3) n^3 u. Normalising (a sum of n terms, a quotient)
 *  and rounding to double: every pi~_s = pi_s e^{eps_s} with
 *  |eps_s| <= T = 2 E + g_{n} - log(1 - u) - log(1 - u_double), hence
 *  |pi~_s - pi_s| <= (e^T - 1) pi~_s. For n = 201 that is 5.9e-13, for
 *  1024 states 7.8e-11 (x86 long double, u = 2^-64; where long double is
 *  double the bound is 2048 times larger and says so). T is summed in
 *  double: its own rounding (n terms, below 1e-12 relative) is covered
 *  by a margin of 1e-9 relative. The analysis assumes no underflow: a
 *  product or quotient below LDBL_MIN (or a non-finite one) makes the
 *  solve report no bound (PROPER_ERANGE); a value below DBL_MIN is
 *  rounded to a subnormal double or 0, and DBL_MIN is added to its bound. */
static double proper__dtmc_gth_log_gamma(double k, double u) { return -log1p(-(k * u / (1.0 - k * u))); }

static double proper__dtmc_gth_relerr(uint32_t n, double model_rel_error) {
    double u = LDBL_EPSILON / 2.0, ud = DBL_EPSILON / 2.0, e = 0.0, t;
    uint32_t k;
    for (k = 1; k < n; k++) {
        double g = proper__dtmc_gth_log_gamma((double)k - 1.0, u);
        double b = -3.0 * log1p(-u) + g;
        e += 2.0 * g + 2.0 * ((double)k - 1.0) * b /* L_k */ + 2.0 * g - 2.0 * log1p(-u) /* c_k */;
    }
    t = 2.0 * e + proper__dtmc_gth_log_gamma((double)n - 1.0, u) - log1p(-u) - log1p(-ud);
    /* the model's own rounding: every rate within e^{+-b}, b = -log(1 - delta):
     * by (1) ratios within e^{+-2 (n-1) b}, normalised e^{+-4 (n-1) b} */
    if (model_rel_error > 0.0)
        t += model_rel_error < 1.0 ? -4.0 * ((double)n - 1.0) * log1p(-model_rel_error) : INFINITY;
    return expm1(t) * (1.0 + 1e-9);
}

/* Eliminates states n-1 .. 1 of the dense rates a (n x n, row-major,
 * diagonal unused), keeping each s_k in s[k]. -1 on underflow. */
static int proper__dtmc_gth_eliminate(long double *a, uint32_t n, long double *s) {
    uint32_t i, j, k;
    for (k = n; k-- > 1;) {
        long double *rk = a + (size_t)k * n, sum = 0.0L, min_q = 1.0L, min_a = LDBL_MAX;
        for (j = 0; j < k; j++) sum += rk[j];
        if (!(sum >= LDBL_MIN) || !isfinite(sum)) return -1;
        s[k] = sum;
        for (j = 0; j < k; j++)
            if (rk[j] != 0.0L) {
                rk[j] /= sum;
                if (rk[j] < min_q) min_q = rk[j];
            }
        for (i = 0; i < k; i++)
            if (a[(size_t)i * n + k] != 0.0L && a[(size_t)i * n + k] < min_a) min_a = a[(size_t)i * n + k];
        if (min_q < LDBL_MIN || (min_a < LDBL_MAX && min_a * min_q < LDBL_MIN)) return -1;
        for (i = 0; i < k; i++) {
            long double *ri = a + (size_t)i * n, aik = ri[k];
            if (aik == 0.0L) continue;
            for (j = 0; j < k; j++)
                if (j != i) ri[j] += aik * rk[j];
        }
    }
    return 0;
}

/* Back substitution and normalisation into p (long double); -1 on
 * underflow or overflow. */
static int proper__dtmc_gth_back(const long double *a, uint32_t n, const long double *s, long double *p) {
    long double total = 1.0L;
    uint32_t i, k;
    p[0] = 1.0L;
    for (k = 1; k < n; k++) {
        long double sum = 0.0L;
        for (i = 0; i < k; i++) {
            long double t = p[i] * a[(size_t)i * n + k];
            if (t != 0.0L && t < LDBL_MIN) return -1;
            sum += t;
        }
        p[k] = sum / s[k];
        if (!(p[k] >= LDBL_MIN) || !isfinite(p[k])) return -1;
        total += p[k];
    }
    if (!isfinite(total)) return -1;
    for (k = 0; k < n; k++) p[k] /= total;
    return 0;
}

/* Stationary distribution of the bottom SCC `states` (n states; no
 * transition leaves it) by GTH into pi, and when epi is not NULL the
 * entrywise bound |pi~_s - pi_s| <= relerr pi~_s (plus DBL_MIN below
 * DBL_MIN). loc: scratch of m->n_states. PROPER_ERANGE when an underflow
 * voids the bound, PROPER_ENOMEM. */
static int proper__dtmc_gth_bscc(const proper_dtmc *m, const uint32_t *states, uint32_t n, double model_rel_error,
                                 uint32_t *loc, double *pi, double *epi, double *relerr) {
    long double *a, *s, *p;
    size_t cells;
    uint32_t i;
    uint64_t e;
    double rel, ud = DBL_EPSILON / 2.0;
    if (proper_size_mul(n, n, &cells) || cells > SIZE_MAX - 2 * (size_t)n) return PROPER_ENOMEM;
    a = (long double *)proper_calloc(cells + 2 * (size_t)n, sizeof *a);
    if (!a) return PROPER_ENOMEM;
    s = a + cells;
    p = s + n;
    for (i = 0; i < n; i++) loc[states[i]] = i;
    for (i = 0; i < n; i++)
        for (e = m->row[states[i]]; e < m->row[states[i] + 1]; e++)
            if (m->col[e] != states[i]) a[(size_t)i * n + loc[m->col[e]]] += m->prob[e];
    if (proper__dtmc_gth_eliminate(a, n, s) || proper__dtmc_gth_back(a, n, s, p)) {
        PROPER_FREE(a);
        return PROPER_ERANGE;
    }
    rel = proper__dtmc_gth_relerr(n, model_rel_error);
    for (i = 0; i < n; i++) {
        pi[states[i]] = (double)p[i];
        if (epi) epi[states[i]] = rel * pi[states[i]] * (1.0 + 2.0 * ud) + (p[i] < DBL_MIN ? DBL_MIN : 0.0);
    }
    *relerr = rel;
    PROPER_FREE(a);
    return PROPER_OK;
}

/* One pass of the stationary solve (see proper__dtmc_bscc_stationary):
 * the bottom SCCs of 2 to gth_max states whose a priori GTH bound is
 * within gth_rel by GTH (accepted when that bound is within
 * PROPER_DTMC_FLOOR_FACTOR x rel_precision, as a direct solve is), the
 * others by one transposed system over their states with each reference
 * state fixed to 1, then normalised. */
static int proper__dtmc_stationary_pass(const proper_dtmc *m, const proper__dtmc_csr *tr, const proper__dtmc_sccs *c,
                                        const proper_bitset *in_b, const uint32_t *ref, uint32_t nb,
                                        const proper_dtmc_solve_opts *o, uint32_t gth_max, double gth_rel, double *pi,
                                        double *epi, uint32_t *loc, proper_error *err) {
    proper_bitset mask;
    uint32_t k, i;
    double *eb = NULL, u = DBL_EPSILON / 2.0;
    unsigned char *by_gth = (unsigned char *)proper_calloc(c->n_comp ? c->n_comp : 1, 1);
    int rc = PROPER_OK;
    proper_bitset_init(&mask);
    if (!by_gth || proper_bitset_copy(&mask, in_b, NULL)) { PROPER_FREE(by_gth); return proper__dtmc_nomem(err); }
    for (i = 0; i < m->n_states; i++) pi[i] = 0.0;
    for (k = 0; k < nb; k++) {
        pi[ref[k]] = 1.0;
        proper_bitset_clear(&mask, ref[k]);
    }
    for (k = 0; k < c->n_comp && !rc; k++) {
        uint32_t size = c->start[k + 1] - c->start[k];
        double rel;
        if (!PROPER_BITSET_GET(in_b, c->order[c->start[k]]) || size < 2 || size > gth_max ||
            !(proper__dtmc_gth_relerr(size, o->model_rel_error) <= gth_rel))
            continue;
        by_gth[k] = 1;
        for (i = c->start[k]; i < c->start[k + 1]; i++) proper_bitset_clear(&mask, c->order[i]);
        rc = proper__dtmc_gth_bscc(m, c->order + c->start[k], size, o->model_rel_error, loc, pi, epi, &rel);
        if (rc == PROPER_ENOMEM) rc = proper__dtmc_nomem(err);
        else if (rc)
            rc = proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0,
                                  "no error bound can be proven for the stationary distribution of a bottom SCC of "
                                  "%u states: its probabilities span more than long double's range",
                                  (unsigned)size);
        else if (o->sound && rel > PROPER_DTMC_FLOOR_FACTOR * o->rel_precision)
            rc = proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0,
                                  "the stationary distribution of a bottom SCC of %u states could not be proven to "
                                  "relative precision %g: the GTH elimination's bound is %.3g (ask for a coarser "
                                  "precision)", (unsigned)size, o->rel_precision, rel);
    }
    if (!rc) rc = proper__dtmc_solve_linear(tr, &mask, NULL, pi, o, NULL, epi ? &eb : NULL, NULL, err);
    proper_bitset_free(&mask);
    for (k = 0; k < c->n_comp && !rc; k++) {
        double sum = 0.0, esum = 0.0;
        uint32_t size = c->start[k + 1] - c->start[k];
        if (!PROPER_BITSET_GET(in_b, c->order[c->start[k]]) || by_gth[k]) continue;
        for (i = c->start[k]; i < c->start[k + 1]; i++) {
            sum += pi[c->order[i]];
            if (eb) esum += eb[c->order[i]];
        }
        /* normalised: with |pi~ - exact| <= e (E their sum, the rounding of
         * the sum added), |pi~_s / S - exact_s / S*| <= (e_s + pi_s E) / (S - E) */
        esum = (esum + (double)size * u * sum) * (1.0 + (double)size * u);
        for (i = c->start[k]; i < c->start[k + 1]; i++) {
            uint32_t s = c->order[i];
            pi[s] /= sum;
            if (epi) epi[s] = sum > esum ? (eb[s] + pi[s] * esum) / (sum - esum) * (1.0 + 8.0 * u) + u * pi[s] : INFINITY;
        }
    }
    PROPER_FREE(eb);
    PROPER_FREE(by_gth);
    return rc;
}

/* Whether a second pass would solve some bottom SCC by GTH that the
 * first (GTH up to gth_max states within gth_rel) did not. */
static int proper__dtmc_gth_more(const proper__dtmc_sccs *c, const proper_bitset *in_b,
                                 const proper_dtmc_solve_opts *o, double gth_rel) {
    uint32_t k;
    for (k = 0; k < c->n_comp; k++) {
        uint32_t size = c->start[k + 1] - c->start[k];
        if (!PROPER_BITSET_GET(in_b, c->order[c->start[k]]) || size < 2 || size > o->direct_max) continue;
        if (size > o->gth_max || !(proper__dtmc_gth_relerr(size, o->model_rel_error) <= gth_rel)) return 1;
    }
    return 0;
}

/* Stationary distribution of every bottom SCC, normalised within each:
 * pi[s] for BSCC states, bscc[s] its BSCC or UINT32_MAX. For a BSCC B with
 * a reference state r, the unnormalised pi_t (t != r, pi_r = 1) solves
 * pi_t = sum_{s in B} pi_s P(s,t): the expected visits to t between two
 * visits to r (Kemeny & Snell, Finite Markov Chains, 6.2), a transient
 * system that the component solver handles like any other. A BSCC of
 * 2 to gth_max states whose a priori GTH bound (proper__dtmc_gth_relerr)
 * is within rel_precision is solved by GTH instead: its bound is
 * entrywise relative, so tiny stationary probabilities keep their digits.
 * When the first pass fails (no bound within reach: a chain whose
 * stationary probabilities span hundreds of orders of magnitude has
 * expected visits beyond any double precision solve), every BSCC of up to
 * direct_max states is solved again by GTH and the others as before.
 * by_gth set: that second pass straight away (a caller whose long-run
 * value the first pass could not bound relatively: a sum of tiny
 * stationary probabilities, proper__dtmc_steady_mean); *more (when not
 * NULL) says whether it would solve any BSCC differently. */
static int proper__dtmc_bscc_stationary(const proper_dtmc *m, const proper_dtmc_solve_opts *opts, int by_gth,
                                        double *pi, double *epi, uint32_t *bscc, uint32_t *n_bscc, int *more,
                                        proper_error *err) {
    proper__dtmc_csr g, tr;
    proper__dtmc_sccs c;
    proper_bitset in_b;
    proper_dtmc_solve_opts o = opts ? *opts : proper_dtmc_solve_opts_default();
    uint32_t k, i, nb = 0, *ref = NULL, *loc = NULL;
    double gth_rel;
    int rc = PROPER_OK;
    if (!(o.rel_precision > 0.0)) o.rel_precision = PROPER_DTMC_REL_PRECISION;
    proper__dtmc_csr_view(m, &g);
    if (proper__dtmc_tarjan(&g, NULL, &c)) return proper__dtmc_nomem(err);
    proper_bitset_init(&in_b);
    if (proper_bitset_create(&in_b, m->n_states, NULL)) { proper__dtmc_sccs_free(&c); return proper__dtmc_nomem(err); }
    for (i = 0; i < m->n_states; i++) bscc[i] = UINT32_MAX;
    for (k = 0; k < c.n_comp; k++) {
        if (!proper__dtmc_is_bottom(&g, &c, k)) continue;
        for (i = c.start[k]; i < c.start[k + 1]; i++) {
            bscc[c.order[i]] = nb;
            proper_bitset_set(&in_b, c.order[i]);
        }
        nb++;
    }
    /* each BSCC's reference state: proper__dtmc_reference_states */
    ref = (uint32_t *)proper_calloc(nb ? nb : 1, sizeof *ref);
    loc = (uint32_t *)proper_calloc(m->n_states ? m->n_states : 1, sizeof *loc);
    if (!ref || !loc || proper__dtmc_transpose(&g, &in_b, 1, &tr)) { rc = proper__dtmc_nomem(err); goto done; }
    if (proper__dtmc_reference_states(m, &tr, bscc, nb, ref)) {
        proper__dtmc_csr_free(&tr);
        rc = proper__dtmc_nomem(err);
        goto done;
    }
    gth_rel = o.sound ? o.rel_precision : INFINITY;
    if (more) *more = proper__dtmc_gth_more(&c, &in_b, &o, gth_rel);
    if (!by_gth || !proper__dtmc_gth_more(&c, &in_b, &o, gth_rel))
        rc = proper__dtmc_stationary_pass(m, &tr, &c, &in_b, ref, nb, &o, o.gth_max, gth_rel, pi, epi, loc, err);
    if ((by_gth || (rc && rc != PROPER_ENOMEM)) && proper__dtmc_gth_more(&c, &in_b, &o, gth_rel))
        rc = proper__dtmc_stationary_pass(m, &tr, &c, &in_b, ref, nb, &o, o.direct_max, INFINITY, pi, epi, loc, err);
    proper__dtmc_csr_free(&tr);
    if (!rc) *n_bscc = nb;
done:
    PROPER_FREE(ref);
    PROPER_FREE(loc);
    proper_bitset_free(&in_b);
    proper__dtmc_sccs_free(&c);
    return rc;
}

/* The one bottom SCC each state can reach: sole[s] = bscc[s] in a BSCC;
 * for a transient state the only BSCC it can reach, which it then reaches
 * with probability 1 (a finite chain leaves its transient states surely),
 * or UINT32_MAX when it can reach several. Components are visited in
 * Tarjan's reverse topological order, so successors are labelled first.
 * Long-run values of such states need no linear solve: a gambler's ruin
 * whose losses fall back to the start of a long run of wins reaches its
 * goal after ~2^511 steps, a transient system no double precision solve
 * can settle, and yet surely. */
static int proper__dtmc_sole_bscc(const proper_dtmc *m, const uint32_t *bscc, uint32_t *sole) {
    const uint32_t none = UINT32_MAX - 1;
    proper__dtmc_csr g;
    proper__dtmc_sccs c;
    uint32_t k, i;
    proper__dtmc_csr_view(m, &g);
    if (proper__dtmc_tarjan(&g, NULL, &c)) return PROPER_ENOMEM;
    for (k = 0; k < c.n_comp; k++) {
        uint32_t tag = bscc[c.order[c.start[k]]] != UINT32_MAX ? bscc[c.order[c.start[k]]] : none;
        for (i = c.start[k]; i < c.start[k + 1] && tag != UINT32_MAX; i++) {
            uint32_t s = c.order[i];
            uint64_t e;
            for (e = m->row[s]; e < m->row[s + 1] && tag != UINT32_MAX; e++) {
                uint32_t t = m->col[e], other;
                if (c.comp[t] == k) continue;
                other = sole[t];
                tag = tag == none || tag == other ? other : UINT32_MAX;
            }
        }
        for (i = c.start[k]; i < c.start[k + 1]; i++) sole[c.order[i]] = tag;
    }
    proper__dtmc_sccs_free(&c);
    return PROPER_OK;
}

/* Each BSCC's mean of f under pi into mass[b], and with epi its bound
 * (the stationary bounds weighted by |f|, plus the rounding of the sum)
 * into mass[nb + b]; returns the largest bound relative to its mean
 * (INFINITY for a bound on a zero mean, 0 without epi). */
static double proper__dtmc_bscc_means(const proper_dtmc *m, const double *f, const double *pi, const double *epi,
                                      const uint32_t *bscc, uint32_t nb, double *mass) {
    double u = DBL_EPSILON / 2.0, worst = 0.0, *emass = mass + nb;
    uint32_t s, b;
    for (b = 0; b < 2 * nb; b++) mass[b] = 0.0;
    for (s = 0; s < m->n_states; s++)
        if (bscc[s] != UINT32_MAX && pi[s] != 0.0) {
            mass[bscc[s]] += pi[s] * f[s];
            if (epi) emass[bscc[s]] += fabs(f[s]) * epi[s] + (double)m->n_states * u * fabs(pi[s] * f[s]);
        }
    for (b = 0; b < nb && epi; b++)
        if (emass[b] > 0.0) worst = fmax(worst, mass[b] != 0.0 ? emass[b] / fabs(mass[b]) : INFINITY);
    return worst;
}

/* Long-run average of f from each state: x = sum over BSCCs B of
 * P(reach B) * sum_{s in B} pi_B(s) f(s) (f: an indicator for S=? [phi],
 * the step reward for R=? [S]). With st: the proven bounds, from those of
 * the stationary solve (normalised), the weighting by f and its rounding,
 * handed to the transient solve as the bounds of the values it starts
 * from. */
/* Long-run mean of f from every state of m; the transient states' solve
 * x = P x runs on `jump`, a chain with m's states and m's absorption
 * probabilities (m itself, or a CTMC's embedded chain: see below). */
static int proper__dtmc_steady_mean_on(const proper_dtmc *m, const proper_dtmc *jump, const double *f,
                                       const proper_dtmc_solve_opts *opts, double *x, proper_dtmc_solve_stats *st,
                                       proper_error *err) {
    proper__dtmc_csr g;
    proper_bitset transient;
    double *pi, *mass = NULL, *epi = NULL, *emass = NULL, *eb = NULL, u = DBL_EPSILON / 2.0;
    uint32_t *bscc, *sole, nb = 0, s;
    int rc, more = 0;
    double rel = opts && opts->rel_precision > 0.0 ? opts->rel_precision : PROPER_DTMC_REL_PRECISION, worst;
    proper_dtmc_solve_stats local;
    pi = (double *)proper_calloc(m->n_states, sizeof *pi);
    bscc = (uint32_t *)proper_calloc(2 * (size_t)m->n_states, sizeof *bscc);
    sole = bscc + m->n_states;
    if (st) epi = (double *)proper_calloc(m->n_states, sizeof *epi);
    if (!pi || !bscc || (st && !epi)) { PROPER_FREE(pi); PROPER_FREE(bscc); PROPER_FREE(epi); return proper__dtmc_nomem(err); }
    proper_bitset_init(&transient);
    rc = proper__dtmc_bscc_stationary(m, opts, 0, pi, epi, bscc, &nb, &more, err);
    if (!rc && !(mass = (double *)proper_calloc(2 * (size_t)(nb ? nb : 1), sizeof *mass))) rc = proper__dtmc_nomem(err);
    if (rc) goto done;
    emass = mass + nb; /* the bound of each BSCC's mean */
    worst = proper__dtmc_bscc_means(m, f, pi, epi, bscc, nb, mass);
    /* a BSCC mean not proven within rel_precision of itself (tiny
     * stationary probabilities under the expected-visits route's absolute
     * bound) makes a second try with GTH's relative bounds, when that would
     * solve some BSCC differently; kept only when it succeeds and proves
     * the means better */
    if (epi && worst > rel && more && (!opts || opts->sound)) {
        double *pi2 = (double *)proper_calloc(2 * (size_t)m->n_states + 2 * (size_t)(nb ? nb : 1), sizeof *pi2);
        double *epi2 = pi2 + m->n_states, *mass2 = epi2 + m->n_states;
        proper_error ignored;
        uint32_t nb2 = 0;
        if (pi2 && !proper__dtmc_bscc_stationary(m, opts, 1, pi2, epi2, bscc, &nb2, NULL, &ignored) &&
            proper__dtmc_bscc_means(m, f, pi2, epi2, bscc, nb, mass2) < worst) {
            memcpy(pi, pi2, (size_t)m->n_states * sizeof *pi);
            memcpy(epi, epi2, (size_t)m->n_states * sizeof *epi);
            memcpy(mass, mass2, 2 * (size_t)nb * sizeof *mass);
        }
        PROPER_FREE(pi2);
    }
    if (proper_bitset_create(&transient, m->n_states, NULL)) { rc = proper__dtmc_nomem(err); goto done; }
    /* x = long-run mean of f in the BSCC (also in the transient states
     * that reach only that BSCC), then x = P x on the other transient
     * states; epi becomes the bounds of the values the solve starts from */
    if (proper__dtmc_sole_bscc(m, bscc, sole)) { rc = proper__dtmc_nomem(err); goto done; }
    for (s = 0; s < m->n_states; s++) {
        if (sole[s] != UINT32_MAX) {
            x[s] = mass[sole[s]];
            if (epi) epi[s] = emass[sole[s]] * (1.0 + 4.0 * u);
        } else {
            x[s] = 0.0;
            if (epi) epi[s] = 0.0;
            proper_bitset_set(&transient, s);
        }
    }
    proper__dtmc_csr_view(jump, &g);
    memset(&local, 0, sizeof local);
    rc = proper__dtmc_solve_linear(&g, &transient, NULL, x, opts, st ? &local : NULL, st ? &eb : NULL, epi, err);
    if (!rc && st) {
        double at_init = 0.0;
        local.max_error = 0.0;
        for (s = 0; s < m->n_states; s++)
            if (eb[s] > local.max_error || isnan(eb[s])) local.max_error = eb[s];
        if (!m->init_dist) at_init = eb[m->init];
        else
            for (s = 0; s < m->n_states; s++)
                if (m->init_dist[s] > 0.0) at_init += m->init_dist[s] * eb[s];
        local.init_error = at_init;
        *st = local;
    }
done:
    proper_bitset_free(&transient);
    PROPER_FREE(mass);
    PROPER_FREE(pi);
    PROPER_FREE(epi);
    PROPER_FREE(eb);
    PROPER_FREE(bscc);
    return rc;
}

static int proper__dtmc_steady_mean(const proper_dtmc *m, const double *f, const proper_dtmc_solve_opts *opts,
                                    double *x, proper_dtmc_solve_stats *st, proper_error *err) {
    return proper__dtmc_steady_mean_on(m, m, f, opts, x, st, err);
}

/* The CTMC's long-run questions: the BSCCs' stationary distributions on its
 * uniformised chain (the same as the CTMC's), the probabilities of reaching
 * them on its embedded chain (the same as the uniformised chain's). The
 * uniformised chain's self-loop 1 - E(s)/q keeps few digits of E(s)/q when
 * rates differ by many orders: with rates 3e13 and 0.14 the transient
 * solve on it gave a long-run probability of 1.0009 (found by fuzzing; the
 * value is 1 - 2.3e-14); the embedded chain's entries R(s,t)/E(s) are
 * rounded once each. */
static int proper__dtmc_ctmc_steady_mean(const proper_dtmc *m, const double *f, const proper_dtmc_solve_opts *opts,
                                         double *x, proper_dtmc_solve_stats *st, proper_error *err) {
    proper_dtmc u, e;
    proper_dtmc_solve_opts o = proper__dtmc_ctmc_derived_opts(m, opts);
    int rc;
    proper_dtmc_init(&u);
    proper_dtmc_init(&e);
    if (!(rc = proper_dtmc_uniformised(m, &u, NULL, err)) && !(rc = proper__dtmc_jump_chain(m, &e, NULL, err)))
        rc = proper__dtmc_steady_mean_on(&u, &e, f, &o, x, st, err);
    proper_dtmc_free(&u);
    proper_dtmc_free(&e);
    return rc;
}

PROPER_API int proper_dtmc_steady(const proper_dtmc *m, const proper_bitset *phi,
                                  const proper_dtmc_solve_opts *opts, double *x, proper_error *err) {
    return proper_dtmc_steady_stats(m, phi, opts, x, NULL, err);
}

PROPER_API int proper_dtmc_steady_stats(const proper_dtmc *m, const proper_bitset *phi,
                                        const proper_dtmc_solve_opts *opts, double *x,
                                        proper_dtmc_solve_stats *stats, proper_error *err) {
    double *f;
    uint32_t s;
    int rc;
    if ((rc = proper__dtmc_check_set(m, phi, "phi", err))) return rc;
    f = (double *)proper_calloc(m->n_states ? m->n_states : 1, sizeof *f);
    if (!f) return proper__dtmc_nomem(err);
    for (s = 0; s < m->n_states; s++) f[s] = PROPER_BITSET_GET(phi, s) ? 1.0 : 0.0;
    rc = m->kind == PROPER_DTMC_KIND_CTMC ? proper__dtmc_ctmc_steady_mean(m, f, opts, x, stats, err)
                                          : proper__dtmc_steady_mean(m, f, opts, x, stats, err);
    PROPER_FREE(f);
    return rc;
}

PROPER_API int proper_dtmc_reward_steady(const proper_dtmc *m, const proper_dtmc_reward *r,
                                         const proper_dtmc_solve_opts *opts, double *x, proper_error *err) {
    return proper_dtmc_reward_steady_stats(m, r, opts, x, NULL, err);
}

PROPER_API int proper_dtmc_reward_steady_stats(const proper_dtmc *m, const proper_dtmc_reward *r,
                                               const proper_dtmc_solve_opts *opts, double *x,
                                               proper_dtmc_solve_stats *stats, proper_error *err) {
    double *f;
    uint32_t s;
    int rc;
    if ((rc = proper__dtmc_check_reward(m, r, 0, err))) return rc;
    f = (double *)proper_calloc(m->n_states ? m->n_states : 1, sizeof *f);
    if (!f) return proper__dtmc_nomem(err);
    for (s = 0; s < m->n_states; s++) f[s] = proper__dtmc_step_reward(m, r, s);
    rc = m->kind == PROPER_DTMC_KIND_CTMC ? proper__dtmc_ctmc_steady_mean(m, f, opts, x, stats, err)
                                          : proper__dtmc_steady_mean(m, f, opts, x, stats, err);
    PROPER_FREE(f);
    return rc;
}

PROPER_API int proper_dtmc_steady_distribution(const proper_dtmc *m, const proper_dtmc_solve_opts *opts,
                                               double *pi, proper_error *err) {
    return proper_dtmc_steady_distribution_stats(m, opts, pi, NULL, err);
}

/* The bound of each BSCC's absorption probability a_b = sum of mu0 over the
 * states reaching only b (exact) + sum over open states s of v_s P(s, t)
 * (t reaching only b): the visits' proven bounds ev_s times P(s, t), plus
 * the rounding of the products and of the sum of the c_b non-zero terms,
 * at most (c_b + 2) u a_b (non-negative terms; Higham 4.2), rounded up. */
static void proper__dtmc_absorb_bounds(const proper_dtmc *m, const uint32_t *sole, const double *mu0,
                                       const double *visits, const double *ev, const double *absorb, uint32_t nb,
                                       double dl, double *eabs) {
    double u = DBL_EPSILON / 2.0, *count = eabs + nb; /* count: the non-zero terms added */
    uint32_t s, b;
    uint64_t e;
    for (b = 0; b < nb; b++) eabs[b] = count[b] = 0.0;
    for (s = 0; s < m->n_states; s++) {
        if (sole[s] != UINT32_MAX) { count[sole[s]] += mu0[s] != 0.0; continue; }
        for (e = m->row[s]; e < m->row[s + 1]; e++)
            if (sole[m->col[e]] != UINT32_MAX) {
                eabs[sole[m->col[e]]] += ev[s] * m->prob[e];
                count[sole[m->col[e]]] += visits[s] != 0.0;
            }
    }
    /* dl: the model's own rounding of the P(s, t) (every term within dl of itself) */
    for (b = 0; b < nb; b++) eabs[b] = (eabs[b] + ((count[b] + 2.0) * u + dl) * absorb[b]) * (1.0 + 4.0 * u);
}

/* The long-run distribution: each BSCC's stationary distribution on m,
 * weighted by the probability of ending in it, found on `jump` (m itself, or
 * a CTMC's embedded chain while m is its uniformised chain: the two have the
 * same BSCCs and absorption probabilities, and the embedded chain's entries
 * are rounded once from the rates; see proper__dtmc_ctmc_steady_mean). */
static int proper__dtmc_steady_distribution_on(const proper_dtmc *m, const proper_dtmc *jump,
                                               const proper_dtmc_solve_opts *opts, double *pi,
                                               proper_dtmc_solve_stats *stats, proper_error *err) {
    proper__dtmc_csr g, tr;
    proper_bitset open;
    double *visits = NULL, *absorb = NULL, *mu0 = NULL, *epi = NULL, *ev = NULL, *eabs = NULL;
    double u = DBL_EPSILON / 2.0;
    uint32_t *bscc, *sole, nb = 0, s;
    uint64_t e;
    int rc;
    if (stats) memset(stats, 0, sizeof *stats);
    proper_bitset_init(&open);
    bscc = (uint32_t *)proper_calloc(2 * (size_t)m->n_states, sizeof *bscc);
    if (stats) epi = (double *)proper_calloc(m->n_states, sizeof *epi);
    if (!bscc || (stats && !epi)) { PROPER_FREE(bscc); PROPER_FREE(epi); return proper__dtmc_nomem(err); }
    sole = bscc + m->n_states;
    if ((rc = proper__dtmc_bscc_stationary(m, opts, 0, pi, epi, bscc, &nb, NULL, err))) goto done;
    visits = (double *)proper_calloc(m->n_states, sizeof *visits);
    absorb = (double *)proper_calloc(nb ? nb : 1, sizeof *absorb);
    mu0 = (double *)proper_calloc(m->n_states, sizeof *mu0);
    if (!visits || !absorb || !mu0 || proper_bitset_create(&open, m->n_states, NULL) ||
        proper__dtmc_sole_bscc(m, bscc, sole)) {
        rc = proper__dtmc_nomem(err);
        goto done;
    }
    /* the mass that enters a state reaching only one BSCC ends there; for
     * the other transient states (open), the expected visits v from the
     * initial distribution: v_t = mu0(t) + sum_{s open} v_s P(s,t), a
     * transposed system, and the mass they pass on */
    for (s = 0; s < m->n_states; s++)
        if (sole[s] == UINT32_MAX) proper_bitset_set(&open, s);
    if (m->init_dist) memcpy(mu0, m->init_dist, (size_t)m->n_states * sizeof *mu0);
    else mu0[m->init] = 1.0;
    proper__dtmc_csr_view(jump, &g);
    if (proper__dtmc_transpose(&g, &open, 1, &tr)) { rc = proper__dtmc_nomem(err); goto done; }
    rc = proper__dtmc_solve_linear(&tr, &open, mu0, visits, opts, NULL, stats ? &ev : NULL, NULL, err);
    proper__dtmc_csr_free(&tr);
    if (rc) goto done;
    for (s = 0; s < m->n_states; s++) {
        if (sole[s] != UINT32_MAX) {
            absorb[sole[s]] += mu0[s];
            continue;
        }
        if (visits[s] == 0.0) continue;
        for (e = jump->row[s]; e < jump->row[s + 1]; e++)
            if (sole[jump->col[e]] != UINT32_MAX) absorb[sole[jump->col[e]]] += visits[s] * jump->prob[e];
    }
    if (stats) {
        if (!(eabs = (double *)proper_calloc(2 * (size_t)(nb ? nb : 1), sizeof *eabs))) {
            rc = proper__dtmc_nomem(err);
            goto done;
        }
        proper__dtmc_absorb_bounds(jump, sole, mu0, visits, ev, absorb, nb,
                                   proper__dtmc_model_factor(opts ? opts->model_rel_error : 0.0), eabs);
    }
    for (s = 0; s < m->n_states; s++) {
        double a, ea, bound;
        if (bscc[s] == UINT32_MAX) { pi[s] = 0.0; continue; }
        a = absorb[bscc[s]];
        if (stats) { /* |pi~ a~ - pi a| <= e_pi (a~ + e_a) + pi~ e_a, plus the product's rounding */
            ea = eabs[bscc[s]];
            bound = (epi[s] * (a + ea) + pi[s] * ea + u * pi[s] * a) * (1.0 + 4.0 * u);
            if (bound > stats->max_error || isnan(bound)) stats->max_error = bound;
        }
        pi[s] *= a;
    }
    if (stats) stats->init_error = stats->max_error;
done:
    proper_bitset_free(&open);
    PROPER_FREE(visits);
    PROPER_FREE(absorb);
    PROPER_FREE(mu0);
    PROPER_FREE(epi);
    PROPER_FREE(ev);
    PROPER_FREE(eabs);
    PROPER_FREE(bscc);
    return rc;
}

PROPER_API int proper_dtmc_steady_distribution_stats(const proper_dtmc *m, const proper_dtmc_solve_opts *opts,
                                                     double *pi, proper_dtmc_solve_stats *stats, proper_error *err) {
    proper_dtmc u, e;
    proper_dtmc_solve_opts o;
    int rc;
    if (m->kind != PROPER_DTMC_KIND_CTMC) return proper__dtmc_steady_distribution_on(m, m, opts, pi, stats, err);
    if (stats) memset(stats, 0, sizeof *stats);
    o = proper__dtmc_ctmc_derived_opts(m, opts);
    proper_dtmc_init(&u);
    proper_dtmc_init(&e);
    if (!(rc = proper_dtmc_uniformised(m, &u, NULL, err)) && !(rc = proper__dtmc_jump_chain(m, &e, NULL, err)))
        rc = proper__dtmc_steady_distribution_on(&u, &e, &o, pi, stats, err);
    proper_dtmc_free(&u);
    proper_dtmc_free(&e);
    return rc;
}

PROPER_API double proper_dtmc_value_at_init(const proper_dtmc *m, const double *x) {
    double v = 0.0;
    uint32_t s;
    if (!m->init_dist) return x[m->init];
    for (s = 0; s < m->n_states; s++)
        if (m->init_dist[s] > 0.0) v += m->init_dist[s] * x[s];
    return v;
}

/* ---- parametric rows ------------------------------------------------------ */

#define PROPER__DTMC_NO_PARAM UINT32_MAX

PROPER_API int proper_dtmc_set_param_rows(proper_dtmc *m, size_t n, const char *const *names,
                                          const uint32_t *state, const uint32_t *taken,
                                          const uint32_t *not_taken, proper_error *err) {
    uint32_t(*rows)[3] = NULL;
    double *values = NULL;
    proper_bitset seen;
    size_t k;
    int rc = PROPER_OK;
    if (m->kind != PROPER_DTMC_KIND_DTMC)
        return proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0, "parametric rows need a DTMC, not a CTMC");
    proper_bitset_init(&seen);
    if (proper_bitset_create(&seen, m->n_states, err)) return PROPER_ENOMEM;
    rows = (uint32_t(*)[3])proper_calloc(n ? n : 1, sizeof *rows);
    values = (double *)proper_calloc(n ? n : 1, sizeof *values);
    if (!rows || !values) { rc = proper__dtmc_nomem(err); goto done; }
    for (k = 0; k < n && !rc; k++) {
        uint32_t s = state[k], t = taken[k], u = not_taken[k];
        uint64_t e;
        if (!names[k] || !names[k][0]) {
            rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "parameter %zu has no name", k);
        } else if (s >= m->n_states || t >= m->n_states || u >= m->n_states) {
            rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                  "parameter %s: state %u, taken %u or not-taken %u is not below %u states", names[k],
                                  (unsigned)s, (unsigned)t, (unsigned)u, (unsigned)m->n_states);
        } else if (PROPER_BITSET_GET(&seen, s)) {
            rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "parameter %s: state %u already has a parameter",
                                  names[k], (unsigned)s);
        } else {
            proper_bitset_set(&seen, s);
            rows[k][0] = s; rows[k][1] = t; rows[k][2] = u;
            for (e = m->row[s]; e < m->row[s + 1] && !rc; e++) {
                if (m->col[e] == t) values[k] += m->prob[e];
                else if (m->col[e] != u)
                    rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                          "parameter %s: state %u has a successor %u besides %u and %u", names[k],
                                          (unsigned)s, (unsigned)m->col[e], (unsigned)t, (unsigned)u);
            }
        }
    }
    if (rc) goto done;
    if ((rc = proper__dtmc_store_params(m, names, values, n, err))) goto done;
    proper__dtmc_free_param_rows(m);
    m->param_rows = rows;
    m->n_param_rows = n;
    rows = NULL;
done:
    proper_bitset_free(&seen);
    PROPER_FREE(rows);
    PROPER_FREE(values);
    return rc;
}

/* param_of[s] = the parameter at state s, or PROPER__DTMC_NO_PARAM. */
static uint32_t *proper__dtmc_param_of(const proper_dtmc *m) {
    uint32_t *of = (uint32_t *)proper_calloc(m->n_states ? m->n_states : 1, sizeof *of);
    size_t k;
    uint32_t s;
    if (!of) return NULL;
    for (s = 0; s < m->n_states; s++) of[s] = PROPER__DTMC_NO_PARAM;
    for (k = 0; k < m->n_param_rows; k++) of[m->param_rows[k][0]] = (uint32_t)k;
    return of;
}

static int proper__dtmc_check_point(const proper_dtmc *m, const double *p, proper_error *err) {
    size_t k;
    for (k = 0; k < m->n_param_rows; k++)
        if (!(p[k] >= 0.0 && p[k] <= 1.0))
            return proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "parameter %s = %g is not a probability",
                                    m->param_names[k], p[k]);
    return PROPER_OK;
}

/* The transition reward of src -> dst in m (0 when m has no such edge). */
static double proper__dtmc_trans_reward_of(const proper_dtmc *m, const double *trans, uint32_t src, uint32_t dst) {
    uint64_t e;
    for (e = m->row[src]; e < m->row[src + 1]; e++)
        if (m->col[e] == dst) return trans[e];
    return 0.0;
}

/* Everything of m but its rows and parameters, onto the chain c of the same
 * states: initial state or distribution, deadlocks, labels, rewards
 * (transition rewards looked up by edge), valuations. */
static int proper__dtmc_copy_decorations(const proper_dtmc *m, proper_dtmc *c, proper_error *err) {
    size_t i;
    uint32_t s;
    uint64_t e;
    int rc;
    c->init = m->init;
    if (proper__dtmc_dup_array(&c->init_dist, m->init_dist, m->n_states, sizeof *m->init_dist) ||
        proper_bitset_copy(&c->deadlock, &m->deadlock, NULL))
        return proper__dtmc_nomem(err);
    for (i = 0; i < m->n_labels; i++)
        if ((rc = proper_dtmc_add_label(c, m->labels[i].name, &m->labels[i].states, NULL, err))) return rc;
    for (i = 0; i < m->n_rewards; i++) {
        const proper_dtmc_reward *r = &m->rewards[i];
        if ((rc = proper_dtmc_add_reward(c, r->name, 0, r->trans != NULL, NULL, err))) return rc;
        if (proper__dtmc_dup_array(&c->rewards[i].state, r->state, m->n_states, sizeof(double)))
            return proper__dtmc_nomem(err);
        if (r->trans)
            for (s = 0; s < c->n_states; s++)
                for (e = c->row[s]; e < c->row[s + 1]; e++)
                    c->rewards[i].trans[e] = proper__dtmc_trans_reward_of(m, r->trans, s, c->col[e]);
    }
    if (m->n_vars)
        return proper_dtmc_set_valuations(c, (const char *const *)m->var_names, m->var_is_bool, m->n_vars, m->vals,
                                          err);
    return PROPER_OK;
}

PROPER_API int proper_dtmc_param_instantiate(const proper_dtmc *m, const double *p, proper_dtmc *out,
                                             proper_error *err) {
    proper_dtmc_builder b;
    proper_dtmc c;
    uint32_t *of, s;
    int rc;
    if ((rc = proper__dtmc_check_point(m, p, err))) return rc;
    if (!(of = proper__dtmc_param_of(m))) return proper__dtmc_nomem(err);
    proper_dtmc_init(&c);
    proper_dtmc_builder_init(&b);
    rc = proper_dtmc_builder_reserve(&b, m->n_states, (size_t)m->n_trans + m->n_param_rows, err);
    for (s = 0; s < m->n_states && !rc; s++) {
        uint32_t k = of[s];
        if (k == PROPER__DTMC_NO_PARAM) {
            rc = proper_dtmc_builder_add_row(&b, m->col + m->row[s], m->prob + m->row[s],
                                             (size_t)(m->row[s + 1] - m->row[s]), err);
        } else {
            uint32_t dst[2];
            double pr[2];
            dst[0] = m->param_rows[k][1]; pr[0] = p[k];
            dst[1] = m->param_rows[k][2]; pr[1] = 1.0 - p[k];
            rc = proper_dtmc_builder_add_row(&b, dst, pr, 2, err);
        }
    }
    PROPER_FREE(of);
    if (rc) { proper_dtmc_builder_free(&b); return rc; }
    if ((rc = proper_dtmc_builder_finish(&b, m->n_states, &c, err))) return rc;
    if ((rc = proper__dtmc_copy_decorations(m, &c, err)) ||
        (rc = proper__dtmc_store_params(&c, (const char *const *)m->param_names, p, m->n_param_rows, err))) {
        proper_dtmc_free(&c);
        return rc;
    }
    proper_dtmc_free(out);
    *out = c;
    return PROPER_OK;
}

/* ---- the corner MDP of a parameter box ----
 * Action 0 of parametric row k sets p_k = lo[k], action 1 sets hi[k]; a
 * plain row has one action. pred is the transposed graph of every edge some
 * action allows. */
typedef struct proper__dtmc_box {
    const proper_dtmc *m;
    const proper_bitset *target;
    const double *lo, *hi;
    uint32_t *param_of;
    proper__dtmc_csr pred;
} proper__dtmc_box;

/* The corner value p_k of action a at parametric row k. */
static double proper__dtmc_box_corner(const proper__dtmc_box *bx, uint32_t k, int a) {
    return a ? bx->hi[k] : bx->lo[k];
}

/* Successors of state s under action a (a parametric row: at most 2, put
 * in buf; a plain row: its columns). */
static size_t proper__dtmc_box_succ(const proper__dtmc_box *bx, uint32_t s, int a, uint32_t *buf,
                                    const uint32_t **succ) {
    uint32_t k = bx->param_of[s];
    size_t n = 0;
    double q;
    if (k == PROPER__DTMC_NO_PARAM) {
        *succ = bx->m->col + bx->m->row[s];
        return (size_t)(bx->m->row[s + 1] - bx->m->row[s]);
    }
    q = proper__dtmc_box_corner(bx, k, a);
    if (q > 0.0) buf[n++] = bx->m->param_rows[k][1];
    if (q < 1.0 && (n == 0 || buf[0] != bx->m->param_rows[k][2])) buf[n++] = bx->m->param_rows[k][2];
    *succ = buf;
    return n;
}

static int proper__dtmc_box_actions(const proper__dtmc_box *bx, uint32_t s) {
    return bx->param_of[s] == PROPER__DTMC_NO_PARAM ? 1 : 2;
}

/* The transposed union graph: u -> v whenever some action of u reaches v. */
static int proper__dtmc_box_pred(proper__dtmc_box *bx) {
    const proper_dtmc *m = bx->m;
    proper__dtmc_csr *g = &bx->pred;
    uint32_t s, buf[2], n = m->n_states;
    const uint32_t *succ;
    size_t i, ns;
    uint64_t *fill;
    int pass, a;
    memset(g, 0, sizeof *g);
    g->n = n;
    g->row = (uint64_t *)proper_calloc((size_t)n + 1, sizeof *g->row);
    fill = (uint64_t *)proper_calloc((size_t)n + 1, sizeof *fill);
    if (!g->row || !fill) { PROPER_FREE(fill); return PROPER_ENOMEM; }
    for (pass = 0; pass < 2; pass++) {
        if (pass) {
            for (s = 0; s < n; s++) g->row[s + 1] += g->row[s];
            g->col = (uint32_t *)proper_calloc((size_t)g->row[n] + 1, sizeof *g->col);
            if (!g->col) { PROPER_FREE(fill); return PROPER_ENOMEM; }
        }
        for (s = 0; s < n; s++)
            for (a = 0; a < proper__dtmc_box_actions(bx, s); a++) {
                ns = proper__dtmc_box_succ(bx, s, a, buf, &succ);
                for (i = 0; i < ns; i++) {
                    if (pass == 0) g->row[succ[i] + 1]++;
                    else g->col[g->row[succ[i]] + fill[succ[i]]++] = s;
                }
            }
    }
    PROPER_FREE(fill);
    return PROPER_OK;
}

/* Whether every successor of (s, a) lies in `in`; and whether one lies in `hit`. */
static int proper__dtmc_box_inside(const proper__dtmc_box *bx, uint32_t s, int a, const unsigned char *in,
                                   const unsigned char *hit, int *hits) {
    uint32_t buf[2];
    const uint32_t *succ;
    size_t i, ns = proper__dtmc_box_succ(bx, s, a, buf, &succ);
    *hits = 0;
    for (i = 0; i < ns; i++) {
        if (!in[succ[i]]) return 0;
        if (hit && hit[succ[i]]) *hits = 1;
    }
    return 1;
}

/* Pushes s on the worklist unless it is there already. */
static void proper__dtmc_box_push(uint32_t *work, uint32_t *top, unsigned char *queued, uint32_t s) {
    if (queued[s]) return;
    queued[s] = 1;
    work[(*top)++] = s;
}

/* The largest set X of non-target states in which some action of every
 * state keeps the run forever (keep[s]: that action): states whose every
 * action leaves X are removed, their predecessors rechecked. */
static int proper__dtmc_box_trap(const proper__dtmc_box *bx, unsigned char *x, unsigned char *keep) {
    uint32_t n = bx->m->n_states, s, *work, top = 0;
    unsigned char *queued;
    uint64_t e;
    int hits;
    work = (uint32_t *)proper_calloc((size_t)n + 1, sizeof *work);
    queued = (unsigned char *)proper_calloc((size_t)n + 1, 1);
    if (!work || !queued) { PROPER_FREE(work); PROPER_FREE(queued); return PROPER_ENOMEM; }
    for (s = 0; s < n; s++) x[s] = !PROPER_BITSET_GET(bx->target, s);
    for (s = n; s-- > 0;)
        if (x[s]) proper__dtmc_box_push(work, &top, queued, s);
    while (top) {
        int a, kept = 0;
        s = work[--top];
        queued[s] = 0;
        for (a = 0; a < proper__dtmc_box_actions(bx, s) && !kept; a++)
            if (proper__dtmc_box_inside(bx, s, a, x, NULL, &hits)) { kept = 1; keep[s] = (unsigned char)a; }
        if (kept) continue;
        x[s] = 0;
        for (e = bx->pred.row[s]; e < bx->pred.row[s + 1]; e++)
            if (x[bx->pred.col[e]]) proper__dtmc_box_push(work, &top, queued, bx->pred.col[e]);
    }
    PROPER_FREE(work);
    PROPER_FREE(queued);
    return PROPER_OK;
}

/* The action of s one of whose successors is v. */
static int proper__dtmc_box_action_to(const proper__dtmc_box *bx, uint32_t s, uint32_t v) {
    uint32_t buf[2];
    const uint32_t *succ;
    int a;
    size_t i, ns;
    for (a = 0; a < proper__dtmc_box_actions(bx, s); a++)
        for (ns = proper__dtmc_box_succ(bx, s, a, buf, &succ), i = 0; i < ns; i++)
            if (succ[i] == v) return a;
    return 0;
}

/* States from which some corner misses target with positive probability:
 * those that reach the trap X (given in inf) along edges of the box
 * without passing through target; toward[s] is an action that moves
 * towards X (breadth-first from X backwards). */
static int proper__dtmc_box_can_miss(const proper__dtmc_box *bx, unsigned char *inf, unsigned char *toward) {
    uint32_t n = bx->m->n_states, s, *queue, head = 0, tail = 0;
    uint64_t e;
    queue = (uint32_t *)proper_calloc((size_t)n + 1, sizeof *queue);
    if (!queue) return PROPER_ENOMEM;
    for (s = 0; s < n; s++)
        if (inf[s]) queue[tail++] = s;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (e = bx->pred.row[v]; e < bx->pred.row[v + 1]; e++) {
            uint32_t u = bx->pred.col[e];
            if (inf[u] || PROPER_BITSET_GET(bx->target, u)) continue;
            inf[u] = 1;
            toward[u] = (unsigned char)proper__dtmc_box_action_to(bx, u, v);
            queue[tail++] = u;
        }
    }
    PROPER_FREE(queue);
    return PROPER_OK;
}

/* States from which some corner reaches target surely (sure[s]), with a
 * corner that does (act[s]): the greatest fixed point of "R := the states
 * of R with an action staying in R that reaches target with positive
 * probability", each round an attractor of target computed backwards. A
 * state's action is the one it joined the last attractor with, so the run
 * moves closer to target with positive probability at every step and
 * never leaves R: a policy that reaches target surely from all of R. */
static int proper__dtmc_box_sure(const proper__dtmc_box *bx, unsigned char *sure, unsigned char *act) {
    uint32_t n = bx->m->n_states, s, *queue;
    unsigned char *in_a;
    int changed = 1, hits;
    queue = (uint32_t *)proper_calloc((size_t)n + 1, sizeof *queue);
    in_a = (unsigned char *)proper_calloc((size_t)n + 1, 1);
    if (!queue || !in_a) { PROPER_FREE(queue); PROPER_FREE(in_a); return PROPER_ENOMEM; }
    for (s = 0; s < n; s++) sure[s] = 1;
    while (changed) {
        uint32_t head = 0, tail = 0;
        uint64_t e;
        for (s = 0; s < n; s++) {
            in_a[s] = (unsigned char)PROPER_BITSET_GET(bx->target, s);
            if (in_a[s]) queue[tail++] = s;
        }
        while (head < tail) {
            uint32_t v = queue[head++];
            for (e = bx->pred.row[v]; e < bx->pred.row[v + 1]; e++) {
                uint32_t u = bx->pred.col[e];
                int a;
                if (in_a[u] || !sure[u]) continue;
                for (a = 0; a < proper__dtmc_box_actions(bx, u); a++)
                    if (proper__dtmc_box_inside(bx, u, a, sure, in_a, &hits) && hits) {
                        in_a[u] = 1;
                        act[u] = (unsigned char)a;
                        queue[tail++] = u;
                        break;
                    }
            }
        }
        changed = 0;
        for (s = 0; s < n; s++)
            if (sure[s] && !in_a[s]) { sure[s] = 0; changed = 1; }
    }
    PROPER_FREE(queue);
    PROPER_FREE(in_a);
    return PROPER_OK;
}

/* Sets row k of the chain w (an instantiation of the box's model) to
 * p_k = q in place; 1 when its edges differ (w must be instantiated anew). */
static int proper__dtmc_box_set_row(const proper__dtmc_box *bx, proper_dtmc *w, uint32_t k, double q) {
    uint32_t s = bx->m->param_rows[k][0], t = bx->m->param_rows[k][1], u = bx->m->param_rows[k][2], buf[2];
    const uint32_t *succ;
    size_t i, ns;
    uint64_t e;
    int a = q == bx->hi[k];
    ns = proper__dtmc_box_succ(bx, s, a, buf, &succ);
    if (ns != (size_t)(w->row[s + 1] - w->row[s])) return 1;
    for (e = w->row[s]; e < w->row[s + 1]; e++) {
        int found = 0;
        for (i = 0; i < ns; i++) found |= succ[i] == w->col[e];
        if (!found) return 1;
    }
    for (e = w->row[s]; e < w->row[s + 1]; e++)
        w->prob[e] = t == u ? 1.0 : w->col[e] == t ? q : 1.0 - q;
    return 0;
}

/* The chain w at the corner `policy` (p_k = lo or hi); `changed` (NULL:
 * every row) says which rows differ from w's. */
static int proper__dtmc_box_chain(const proper__dtmc_box *bx, const unsigned char *policy, const unsigned char *changed,
                                  double *p, proper_dtmc *w, int fresh, proper_error *err) {
    uint32_t k, K = (uint32_t)bx->m->n_param_rows;
    int rebuild = fresh;
    for (k = 0; k < K; k++) p[k] = proper__dtmc_box_corner(bx, k, policy[k]);
    for (k = 0; k < K && !rebuild; k++)
        if (!changed || changed[k]) rebuild = proper__dtmc_box_set_row(bx, w, k, p[k]);
    if (rebuild) return proper_dtmc_param_instantiate(bx->m, p, w, err);
    if (K) memcpy(w->param_values, p, K * sizeof *p);
    return PROPER_OK;
}

/* One round of policy improvement (sign +1: maximise, -1: minimise) over the
 * rows whose state is not frozen; changed[k] marks the rows that move. */
static int proper__dtmc_box_improve(const proper__dtmc_box *bx, const proper_dtmc_reward *r, const double *x, int sign,
                                    const unsigned char *frozen, unsigned char *policy, unsigned char *changed) {
    uint32_t k, K = (uint32_t)bx->m->n_param_rows;
    int any = 0;
    for (k = 0; k < K; k++) {
        uint32_t s = bx->m->param_rows[k][0], t = bx->m->param_rows[k][1], u = bx->m->param_rows[k][2];
        double vt, vu, gain, tie;
        int want = policy[k];
        changed[k] = 0;
        if (frozen[s] || PROPER_BITSET_GET(bx->target, s) || t == u || bx->lo[k] == bx->hi[k]) continue;
        vt = x[t] + (r->trans ? proper__dtmc_trans_reward_of(bx->m, r->trans, s, t) : 0.0);
        vu = x[u] + (r->trans ? proper__dtmc_trans_reward_of(bx->m, r->trans, s, u) : 0.0);
        /* the row's value is r(s) + p_k vt + (1 - p_k) vu: raising p_k
         * (action 1, hi) helps iff sign * (vt - vu) > 0 */
        gain = sign * (vt - vu);
        if (isnan(gain)) continue;
        tie = isinf(gain) ? 0.0 : PROPER_DTMC_PARAM_TIE * (fabs(vt) + fabs(vu));
        if (gain > tie) want = 1;
        else if (gain < -tie) want = 0;
        if (want != policy[k]) { policy[k] = (unsigned char)want; changed[k] = 1; any = 1; }
    }
    return any;
}

static void proper__dtmc_box_add_stats(proper_dtmc_solve_stats *total, const proper_dtmc_solve_stats *st) {
    unsigned long sweeps = total->sweeps + st->sweeps;
    double max_error = total->max_error > st->max_error ? total->max_error : st->max_error;
    double init_error = total->init_error > st->init_error ? total->init_error : st->init_error;
    *total = *st;
    total->sweeps = sweeps;
    total->max_error = max_error;
    total->init_error = init_error;
}

/* Policy iteration from `policy` until no row improves: the value of the
 * last corner at the initial state in *value, its solve's stats added. */
static int proper__dtmc_box_optimise(const proper__dtmc_box *bx, size_t reward, int sign, const unsigned char *frozen,
                                     unsigned char *policy, const proper_dtmc_solve_opts *opts, double *x, double *p,
                                     proper_dtmc_solve_stats *total, double *value, proper_error *err) {
    size_t K = bx->m->n_param_rows;
    unsigned char *changed = (unsigned char *)proper_calloc(K + 1, 1);
    proper_dtmc w;
    proper_dtmc_solve_stats st;
    unsigned long iter;
    int rc = PROPER_OK, more = 1;
    if (!changed) return proper__dtmc_nomem(err);
    proper_dtmc_init(&w);
    for (iter = 0; more && !rc; iter++) {
        if (iter > PROPER_DTMC_PARAM_MAX_ITER) {
            rc = proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0,
                                  "policy iteration over the parameter box did not settle in %lu rounds",
                                  (unsigned long)PROPER_DTMC_PARAM_MAX_ITER);
            break;
        }
        if ((rc = proper__dtmc_box_chain(bx, policy, iter ? changed : NULL, p, &w, iter == 0, err))) break;
        if ((rc = proper_dtmc_reward_reach(&w, &w.rewards[reward], bx->target, opts, x, &st, err))) break;
        proper__dtmc_box_add_stats(total, &st);
        more = proper__dtmc_box_improve(bx, &bx->m->rewards[reward], x, sign, frozen, policy, changed);
    }
    if (!rc) {
        *value = proper_dtmc_value_at_init(&w, x);
        for (iter = 0; iter < K; iter++) p[iter] = proper__dtmc_box_corner(bx, (uint32_t)iter, policy[iter]);
    }
    proper_dtmc_free(&w);
    PROPER_FREE(changed);
    return rc;
}

static int proper__dtmc_check_box(const proper_dtmc *m, size_t reward, const proper_bitset *target, const double *lo,
                                  const double *hi, proper_error *err) {
    size_t k;
    int rc;
    if (m->kind != PROPER_DTMC_KIND_DTMC)
        return proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0, "a parameter box needs a DTMC");
    if (reward >= m->n_rewards)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no reward structure %zu", reward);
    if (!target) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no target set");
    if ((rc = proper__dtmc_check_set(m, target, "target", err)) || (rc = proper__dtmc_check_point(m, lo, err)) ||
        (rc = proper__dtmc_check_point(m, hi, err)))
        return rc;
    for (k = 0; k < m->n_param_rows; k++)
        if (lo[k] > hi[k])
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "interval of %s is empty: [%g, %g]",
                                    m->param_names[k], lo[k], hi[k]);
    return PROPER_OK;
}

/* Whether the initial state (or a state of the initial distribution) is in set. */
static int proper__dtmc_init_in(const proper_dtmc *m, const unsigned char *set) {
    uint32_t s;
    if (!m->init_dist) return set[m->init];
    for (s = 0; s < m->n_states; s++)
        if (m->init_dist[s] > 0.0 && set[s]) return 1;
    return 0;
}

PROPER_API int proper_dtmc_param_reward_range(const proper_dtmc *m, size_t reward, const proper_bitset *target,
                                              const double *lo, const double *hi,
                                              const proper_dtmc_solve_opts *opts, double *min, double *max,
                                              double *argmin, double *argmax, proper_dtmc_solve_stats *stats,
                                              proper_error *err) {
    proper__dtmc_box bx;
    size_t n = m->n_states, K = m->n_param_rows, k;
    unsigned char *trap, *keep, *sure, *act, *unsure, *policy;
    double *x, *p, vmin, vmax;
    proper_dtmc_solve_stats total;
    int rc;
    if ((rc = proper__dtmc_check_box(m, reward, target, lo, hi, err))) return rc;
    memset(&total, 0, sizeof total);
    memset(&bx, 0, sizeof bx);
    bx.m = m; bx.target = target; bx.lo = lo; bx.hi = hi;
    trap = (unsigned char *)proper_calloc(n + 1, 1);
    keep = (unsigned char *)proper_calloc(n + 1, 1);
    sure = (unsigned char *)proper_calloc(n + 1, 1);
    act = (unsigned char *)proper_calloc(n + 1, 1);
    unsure = (unsigned char *)proper_calloc(n + 1, 1);
    policy = (unsigned char *)proper_calloc(K + 1, 1);
    x = (double *)proper_calloc(n + 1, sizeof *x);
    p = (double *)proper_calloc(K + 1, sizeof *p);
    bx.param_of = proper__dtmc_param_of(m);
    if (!trap || !keep || !sure || !act || !unsure || !policy || !x || !p || !bx.param_of ||
        proper__dtmc_box_pred(&bx) || proper__dtmc_box_trap(&bx, trap, keep) || proper__dtmc_box_sure(&bx, sure, act)) {
        rc = proper__dtmc_nomem(err);
        goto done;
    }
    /* the minimum: from a corner that reaches target surely wherever one can */
    for (k = 0; k < n; k++) unsure[k] = !sure[k];
    for (k = 0; k < K; k++) policy[k] = act[m->param_rows[k][0]];
    if ((rc = proper__dtmc_box_optimise(&bx, reward, -1, unsure, policy, opts, x, p, &total, &vmin, err))) goto done;
    if (argmin) memcpy(argmin, p, K * sizeof *p);
    /* the maximum: infinite where a corner can miss target; elsewhere every
     * corner reaches it surely, so any start will do */
    memcpy(unsure, trap, n);
    if ((rc = proper__dtmc_box_can_miss(&bx, unsure, act))) { rc = proper__dtmc_nomem(err); goto done; }
    memset(policy, 0, K);
    if ((rc = proper__dtmc_box_optimise(&bx, reward, +1, unsure, policy, opts, x, p, &total, &vmax, err))) goto done;
    if (proper__dtmc_init_in(m, unsure)) {
        /* a corner that misses: stay in the trap, move towards it elsewhere */
        vmax = INFINITY;
        for (k = 0; k < K; k++) {
            uint32_t s = m->param_rows[k][0];
            p[k] = proper__dtmc_box_corner(&bx, (uint32_t)k, trap[s] ? keep[s] : unsure[s] ? act[s] : 0);
        }
    }
    if (argmax) memcpy(argmax, p, K * sizeof *p);
    if (min) *min = vmin;
    if (max) *max = vmax;
    if (stats) *stats = total;
done:
    PROPER_FREE(trap); PROPER_FREE(keep); PROPER_FREE(sure); PROPER_FREE(act); PROPER_FREE(unsure);
    PROPER_FREE(policy); PROPER_FREE(x); PROPER_FREE(p); PROPER_FREE(bx.param_of);
    proper__dtmc_csr_free(&bx.pred);
    return rc;
}

/* ---- interval DTMCs ---------------------------------------------------- */

PROPER_API int proper_dtmc_check_intervals(const proper_dtmc *m, const double *lo, const double *hi, proper_error *err) {
    uint32_t s;
    uint64_t e;
    if (m->kind != PROPER_DTMC_KIND_DTMC)
        return proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0, "probability intervals need a DTMC");
    for (s = 0; s < m->n_states; s++) {
        double sum_lo = 0.0, sum_hi = 0.0;
        for (e = m->row[s]; e < m->row[s + 1]; e++) {
            if (!(lo[e] >= 0.0 && lo[e] <= hi[e] && hi[e] <= 1.0))
                return proper_error_set(err, PROPER_EPROB, NULL, 0, 0,
                                        "state %u: the interval [%g, %g] of its transition to %u is not within [0, 1]",
                                        (unsigned)s, lo[e], hi[e], (unsigned)m->col[e]);
            sum_lo += lo[e];
            sum_hi += hi[e];
        }
        if (sum_lo > 1.0 + PROPER_DTMC_ROW_SUM_TOL || sum_hi < 1.0 - PROPER_DTMC_ROW_SUM_TOL)
            return proper_error_set(err, PROPER_EPROB, NULL, 0, 0,
                                    "state %u: no distribution fits its intervals (lower ends sum to %.17g, upper "
                                    "ends to %.17g)", (unsigned)s, sum_lo, sum_hi);
    }
    return PROPER_OK;
}

/* The optimal expectation of x over the distributions a row's intervals
 * allow (maximise or minimise): every successor gets its lower end, and
 * the mass left goes to the successors in order of value, best first, each
 * up to its upper end (the greedy solution of this knapsack-shaped linear
 * program). order: scratch of the row's length. _edges: the value of edge
 * e is trans[e] + x[col[e]] (trans NULL: x alone), and edges into states
 * marked in skip (NULL: none) take no mass (interval_reward_reach calls it
 * only where nature can give them none). */
static double proper__dtmc_interval_step_edges(const proper_dtmc *m, const double *lo, const double *hi, uint32_t s,
                                               const double *x, const double *trans, const unsigned char *skip,
                                               int maximise, uint64_t *order) {
    uint64_t a = m->row[s], b = m->row[s + 1], n = 0, i, j;
    double v = 0.0, left = 1.0;
#define PROPER__DTMC_EDGE_VALUE(e) (x[m->col[e]] + (trans ? trans[e] : 0.0))
    for (i = a; i < b; i++) {
        double xe;
        if (skip && skip[m->col[i]]) continue;
        xe = PROPER__DTMC_EDGE_VALUE(i);
        v += lo[i] * xe;
        left -= lo[i];
        /* insertion sort by value, best first (rows are short) */
        for (j = n; j > 0; j--) {
            double xp = PROPER__DTMC_EDGE_VALUE(order[j - 1]);
            if (maximise ? xp >= xe : xp <= xe) break;
            order[j] = order[j - 1];
        }
        order[j] = i;
        n++;
    }
    for (i = 0; i < n && left > 0.0; i++) {
        uint64_t e = order[i];
        double add = hi[e] - lo[e] < left ? hi[e] - lo[e] : left;
        v += add * PROPER__DTMC_EDGE_VALUE(e);
        left -= add;
    }
#undef PROPER__DTMC_EDGE_VALUE
    return v;
}

static double proper__dtmc_interval_step(const proper_dtmc *m, const double *lo, const double *hi, uint32_t s,
                                         const double *x, int maximise, uint64_t *order) {
    return proper__dtmc_interval_step_edges(m, lo, hi, s, x, NULL, NULL, maximise, order);
}

/* Scratch for proper__dtmc_interval_step's sort of a row: as many entries
 * as the longest row, whose length goes to *longest (NULL: not wanted);
 * NULL when out of memory. */
static uint64_t *proper__dtmc_interval_order_scratch(const proper_dtmc *m, uint32_t *longest) {
    uint32_t s, most = 1;
    for (s = 0; s < m->n_states; s++)
        if (m->row[s + 1] - m->row[s] > most) most = (uint32_t)(m->row[s + 1] - m->row[s]);
    if (longest) *longest = most;
    return (uint64_t *)proper_calloc(most, sizeof(uint64_t));
}

/* The qualitative fixed points of the interval solvers, by worklist:
 * a state is examined once at the start and again only when one of its
 * successors changed (predecessor lists), each change being final (the sets
 * only grow or only shrink). Sweeps until nothing changes would add one
 * state a sweep on a chain numbered against its edges: quadratic. */
typedef struct proper__dtmc_ivl_graph {
    uint64_t *prow;        /* predecessors of t: pcol[prow[t] .. prow[t+1]-1] */
    uint32_t *pcol;
    uint32_t *queue;       /* circular, n entries: a state is queued at most once at a time */
    unsigned char *queued;
} proper__dtmc_ivl_graph;

static void proper__dtmc_ivl_graph_free(proper__dtmc_ivl_graph *g) {
    PROPER_FREE(g->prow); PROPER_FREE(g->pcol); PROPER_FREE(g->queue); PROPER_FREE(g->queued);
    memset(g, 0, sizeof *g);
}

static int proper__dtmc_ivl_graph_make(const proper_dtmc *m, proper__dtmc_ivl_graph *g) {
    uint32_t n = m->n_states, s;
    uint64_t e;
    memset(g, 0, sizeof *g);
    g->prow = (uint64_t *)proper_calloc((size_t)n + 2, sizeof *g->prow);
    g->pcol = (uint32_t *)proper_calloc(m->n_trans ? (size_t)m->n_trans : 1, sizeof *g->pcol);
    g->queue = (uint32_t *)proper_calloc(n ? n : 1, sizeof *g->queue);
    g->queued = (unsigned char *)proper_calloc(n ? n : 1, 1);
    if (!g->prow || !g->pcol || !g->queue || !g->queued) { proper__dtmc_ivl_graph_free(g); return PROPER_ENOMEM; }
    for (e = 0; e < m->n_trans; e++) g->prow[m->col[e] + 2]++; /* counting sort by target */
    for (s = 0; s < n; s++) g->prow[s + 2] += g->prow[s + 1];
    for (s = 0; s < n; s++)
        for (e = m->row[s]; e < m->row[s + 1]; e++) g->pcol[g->prow[m->col[e] + 1]++] = s;
    return PROPER_OK;
}

enum { PROPER__IVL_NO_MAX, PROPER__IVL_NO_MIN, PROPER__IVL_REACH_AVOID, PROPER__IVL_STAYS_HITS, PROPER__IVL_ZERO_EC };

/* One fixed point: the set `a` changes, state by state (a[s] 1 -> 0 for
 * the shrinking kinds NO_MAX (no: 1 = cannot reach), NO_MIN, ZERO_EC; 0 ->
 * 1 for REACH_AVOID and STAYS_HITS); b: the fixed outer set of STAYS_HITS. */
typedef struct proper__dtmc_ivl_qual {
    const proper_dtmc *m;
    const double *lo, *hi, *state_rewards, *trans_rewards;
    const proper_bitset *phi1, *phi2;
    unsigned char *a;
    const unsigned char *b;
    int kind;
} proper__dtmc_ivl_qual;

PROPER_API int proper_dtmc_interval_can(const double *lo, const double *hi, uint64_t e, double sum_lo) {
    return lo[e] > 0.0 || (hi[e] > 0.0 && sum_lo - lo[e] < 1.0);
}

static double proper__dtmc_interval_sum_lo(const proper_dtmc *m, const double *lo, uint32_t s) {
    double sum = 0.0;
    uint64_t e;
    for (e = m->row[s]; e < m->row[s + 1]; e++) sum += lo[e];
    return sum;
}

PROPER_API int proper_dtmc_interval_stays_hits(const proper_dtmc *m, const double *lo, const double *hi, uint32_t s,
                                               const unsigned char *u, const unsigned char *v) {
    double sum_lo = 0.0, sum_hi = 0.0;
    uint64_t e;
    for (e = m->row[s]; e < m->row[s + 1]; e++) {
        if (!u[m->col[e]] && lo[e] > 0.0) return 0;
        if (u[m->col[e]]) { sum_lo += lo[e]; sum_hi += hi[e]; }
    }
    if (sum_hi < 1.0 - PROPER_DTMC_ROW_SUM_TOL) return 0;
    for (e = m->row[s]; e < m->row[s + 1]; e++)
        if (v[m->col[e]] && proper_dtmc_interval_can(lo, hi, e, sum_lo)) return 1;
    return 0;
}

/* Whether s changes now (and change it). */
static int proper__dtmc_ivl_examine(const proper__dtmc_ivl_qual *q, uint32_t s) {
    const proper_dtmc *m = q->m;
    const double *lo = q->lo, *hi = q->hi;
    unsigned char *a = q->a;
    uint64_t e;
    switch (q->kind) {
    case PROPER__IVL_NO_MAX: /* reaches a state that can reach phi2 along an edge of positive upper end */
        if (!a[s] || (q->phi1 && !PROPER_BITSET_GET(q->phi1, s))) return 0;
        for (e = m->row[s]; e < m->row[s + 1]; e++)
            if (hi[e] > 0.0 && !a[m->col[e]]) return !(a[s] = 0);
        return 0;
    case PROPER__IVL_NO_MIN: /* nature can no longer keep the run in the set */
    case PROPER__IVL_ZERO_EC: {
        double inside = 0.0;
        int keeps = 1, zero = q->kind == PROPER__IVL_ZERO_EC;
        if (!a[s] || (!zero && q->phi1 && !PROPER_BITSET_GET(q->phi1, s))) return 0;
        for (e = m->row[s]; e < m->row[s + 1] && keeps; e++) {
            if (a[m->col[e]] && !(zero && q->trans_rewards && q->trans_rewards[e] > 0.0)) inside += hi[e];
            else keeps = lo[e] == 0.0;
        }
        if (keeps && inside >= (zero ? 1.0 - PROPER_DTMC_ROW_SUM_TOL : 1.0)) return 0;
        a[s] = 0;
        return 1;
    }
    case PROPER__IVL_REACH_AVOID: { /* nature can move, outside phi2, into the set */
        double sum_lo;
        if (a[s] || PROPER_BITSET_GET(q->phi2, s)) return 0;
        sum_lo = proper__dtmc_interval_sum_lo(m, lo, s);
        for (e = m->row[s]; e < m->row[s + 1]; e++)
            if (a[m->col[e]] && proper_dtmc_interval_can(lo, hi, e, sum_lo)) return (a[s] = 1);
        return 0;
    }
    default: /* PROPER__IVL_STAYS_HITS */
        if (!q->b[s] || a[s] || !proper_dtmc_interval_stays_hits(m, lo, hi, s, q->b, a)) return 0;
        return (a[s] = 1);
    }
}

static void proper__dtmc_ivl_fixpoint(const proper__dtmc_ivl_qual *q, proper__dtmc_ivl_graph *g) {
    uint32_t n = q->m->n_states, head = 0, count = n, s;
    for (s = 0; s < n; s++) { g->queue[s] = s; g->queued[s] = 1; }
    while (count) {
        uint64_t e;
        s = g->queue[head];
        head = head + 1 == n ? 0 : head + 1;
        count--;
        g->queued[s] = 0;
        if (!proper__dtmc_ivl_examine(q, s)) continue;
        for (e = g->prow[s]; e < g->prow[s + 1]; e++) {
            uint32_t p = g->pcol[e];
            if (g->queued[p]) continue;
            g->queued[p] = 1;
            g->queue[(head + count) % n] = p;
            count++;
        }
    }
}

/* States that reach phi2 through phi1 with probability 0 under the
 * intervals: for the maximum, those that cannot reach it along edges of
 * positive upper end; for the minimum, the largest set X of states outside
 * phi2 in which nature can keep the run (every edge with a positive lower
 * end stays in X and the upper ends inside X reach 1), with the states
 * outside phi1. no[s] = 1 for them. */
static void proper__dtmc_interval_no(const proper_dtmc *m, const double *lo, const double *hi,
                                     const proper_bitset *phi1, const proper_bitset *phi2, int maximise,
                                     unsigned char *no, proper__dtmc_ivl_graph *g) {
    proper__dtmc_ivl_qual q;
    uint32_t s;
    memset(&q, 0, sizeof q);
    q.m = m; q.lo = lo; q.hi = hi; q.phi1 = phi1; q.phi2 = phi2; q.a = no;
    q.kind = maximise ? PROPER__IVL_NO_MAX : PROPER__IVL_NO_MIN;
    for (s = 0; s < m->n_states; s++) no[s] = !PROPER_BITSET_GET(phi2, s);
    proper__dtmc_ivl_fixpoint(&q, g);
}

/* The unknown states of an interval solve grouped by strongly connected
 * component (of the graph of all transitions), components in reverse
 * topological order (Tarjan's completion order): a component's values
 * depend only on its own and on those of components listed before it, so
 * each is swept to convergence once, in turn, and a chain of states is
 * solved in one pass instead of one sweep per state. loop[k]: component k
 * has a cycle (several states, or a self-loop); one update settles the
 * others. */
typedef struct proper__dtmc_ivl_comps {
    proper__dtmc_sccs sccs;
    unsigned char *loop;
} proper__dtmc_ivl_comps;

static void proper__dtmc_ivl_comps_free(proper__dtmc_ivl_comps *c) {
    proper__dtmc_sccs_free(&c->sccs);
    PROPER_FREE(c->loop);
    c->loop = NULL;
}

static int proper__dtmc_ivl_comps_make(const proper_dtmc *m, const unsigned char *unknown,
                                       proper__dtmc_ivl_comps *c) {
    proper__dtmc_csr g;
    proper_bitset mask;
    uint32_t n = m->n_states, s, k, *cursor = NULL;
    int rc = PROPER_ENOMEM;
    memset(c, 0, sizeof *c);
    proper_bitset_init(&mask);
    if (proper_bitset_create(&mask, n, NULL)) return PROPER_ENOMEM;
    for (s = 0; s < n; s++)
        if (unknown[s]) proper_bitset_set(&mask, s);
    proper__dtmc_csr_view(m, &g);
    cursor = (uint32_t *)proper_calloc(n ? n : 1, sizeof *cursor);
    if (!cursor || proper__dtmc_tarjan(&g, &mask, &c->sccs)) goto done;
    proper__dtmc_sccs_sort_members(&c->sccs, n, cursor);
    c->loop = (unsigned char *)proper_calloc((size_t)c->sccs.n_comp + 1, 1);
    if (!c->loop) goto done;
    for (k = 0; k < c->sccs.n_comp; k++) {
        uint32_t first = c->sccs.order[c->sccs.start[k]];
        uint64_t e;
        c->loop[k] = c->sccs.start[k + 1] - c->sccs.start[k] > 1;
        for (e = m->row[first]; e < m->row[first + 1] && !c->loop[k]; e++) c->loop[k] = m->col[e] == first;
    }
    rc = PROPER_OK;
done:
    PROPER_FREE(cursor);
    proper_bitset_free(&mask);
    if (rc) proper__dtmc_ivl_comps_free(c);
    return rc;
}

/* One robust Bellman update of s: plus + its state reward + the optimal
 * expectation of transition reward + x over its intervals, edges into the
 * states marked in inf taking no mass (any of the arrays NULL: none). The
 * probabilities (plus 0, no rewards), the expected rewards and the
 * certificate's weights (plus 1, the maximum) are all such updates.
 * down: the update is rounded down, so that iterates from below stay below
 * the least fixed point in floating point too (every term is >= 0: the
 * sums of a row of d successors, the masses' own rounding included, are
 * within (2 d + 2) eps_mach of their value; one more eps_mach for the
 * scaling itself). */
typedef struct proper__dtmc_ivl_op {
    const proper_dtmc *m;
    const double *lo, *hi, *state_rewards, *trans_rewards;
    const unsigned char *inf;
    int maximise, down;
    double plus;
    uint64_t *order; /* scratch of the longest row's length */
} proper__dtmc_ivl_op;

static double proper__dtmc_ivl_update(const proper__dtmc_ivl_op *op, uint32_t s, const double *x) {
    double v = op->plus + (op->state_rewards ? op->state_rewards[s] : 0.0) +
               proper__dtmc_interval_step_edges(op->m, op->lo, op->hi, s, x, op->trans_rewards, op->inf, op->maximise,
                                                op->order);
    if (op->down) v *= 1.0 - (double)(2 * (op->m->row[s + 1] - op->m->row[s]) + 4) * DBL_EPSILON;
    return v;
}

/* Sweeps of each component in turn (in place, its states in decreasing
 * order) until a sweep changes none of its values by more than eps
 * (relative: eps times the component's largest value), at most budget
 * sweeps a component. Returns the most sweeps a component took; *settled:
 * every component met its tolerance; *top: the largest value. A value
 * beyond 1 / eps_mach stops it unsettled (the weights: nature can keep the
 * run in that component forever). */
static unsigned long proper__dtmc_ivl_sweeps(const proper__dtmc_ivl_comps *cs, const proper__dtmc_ivl_op *op,
                                             double eps, int relative, unsigned long budget, double *x, int *settled,
                                             double *top) {
    unsigned long most = 0;
    uint32_t k;
    *settled = 1;
    *top = 0.0;
    for (k = 0; k < cs->sccs.n_comp; k++) {
        uint32_t a = cs->sccs.start[k], b = cs->sccs.start[k + 1], i;
        unsigned long sw = 0;
        double d, big;
        do {
            d = 0.0;
            big = 0.0;
            for (i = b; i-- > a;) {
                uint32_t s = cs->sccs.order[i];
                double v = proper__dtmc_ivl_update(op, s, x);
                d = fmax(d, fabs(v - x[s]));
                big = fmax(big, fabs(v));
                x[s] = v;
            }
            sw++;
            if (!(big <= 1.0 / DBL_EPSILON)) { *settled = 0; return sw > most ? sw : most; }
            if (!cs->loop[k]) d = 0.0; /* one update is the value */
        } while (!(d <= (relative ? eps * big : eps)) && sw < budget);
        most = sw > most ? sw : most;
        *top = fmax(*top, big);
        if (!(d <= (relative ? eps * big : eps))) *settled = 0;
    }
    return most;
}

/* The answer: one update, not rounded down, of every unknown state from
 * the lower iterate x (the rounding down serves the bound, not the value:
 * 0.8 stays 0.8), and the bound that still holds: with x <= value <= u,
 * a value v is within max(u - v, v - x) of it. Returns the largest such
 * bound (INFINITY when `bound`, the certificate's, is). */
static double proper__dtmc_ivl_finish(const proper__dtmc_ivl_comps *cs, const proper__dtmc_ivl_op *op, double *x,
                                      const double *u, double bound) {
    proper__dtmc_ivl_op fop = *op;
    uint32_t i;
    double out = 0.0;
    fop.down = 0;
    for (i = 0; i < cs->sccs.start[cs->sccs.n_comp]; i++) {
        uint32_t s = cs->sccs.order[i];
        double v = proper__dtmc_ivl_update(&fop, s, x);
        out = fmax(out, fmax(u[s] - v, v - x[s]));
        x[s] = v;
    }
    return isfinite(bound) ? out * (1.0 + 4.0 * DBL_EPSILON) : INFINITY;
}

/* The certificate's weights: w = 1 + max over the intervals of the
 * expected w of the successors, over the unknown states (0 elsewhere): the
 * most expected steps nature can make the run stay among them, swept until
 * no sweep changes w by more than 1e-3 relative; *ok = 0 when it does not
 * settle (nature can keep the run there forever: an end component) within
 * the budget. */
static unsigned long proper__dtmc_ivl_weights(const proper__dtmc_ivl_comps *cs, const proper__dtmc_ivl_op *op,
                                              const unsigned char *unknown, unsigned long budget, double *w, int *ok) {
    proper__dtmc_ivl_op wop = *op;
    uint32_t s;
    double top;
    wop.state_rewards = wop.trans_rewards = NULL;
    wop.maximise = 1;
    wop.down = 0;
    wop.plus = 1.0;
    for (s = 0; s < op->m->n_states; s++) w[s] = unknown[s] ? 1.0 : 0.0;
    return proper__dtmc_ivl_sweeps(cs, &wop, 1e-3, 1, budget, w, ok, &top);
}

/* Whether u is a proven upper bound: T u <= u in every unknown state,
 * with T u computed in doubles and its rounding (at most (d + 2) eps_mach
 * of the row's largest term, d successors) counted against it. The value
 * is the least fixed point of T, below every such u (Knaster-Tarski). */
static int proper__dtmc_interval_inductive(const proper_dtmc *m, const double *lo, const double *hi,
                                           const unsigned char *unknown, int maximise, const double *u,
                                           uint64_t *order) {
    uint32_t s;
    for (s = 0; s < m->n_states; s++) {
        double v, big = 0.0;
        uint64_t e;
        if (!unknown[s] || u[s] >= 1.0) continue; /* T u <= 1 for values <= 1 */
        for (e = m->row[s]; e < m->row[s + 1]; e++) big = u[m->col[e]] > big ? u[m->col[e]] : big;
        v = proper__dtmc_interval_step(m, lo, hi, s, u, maximise, order);
        if (v + (double)(m->row[s + 1] - m->row[s] + 2) * DBL_EPSILON * big > u[s]) return 0;
    }
    return 1;
}

/* An upper bound u = min(1, x + tau w) from the lower iterate x and the
 * weights w, tau twice the largest residual T x - x (at least the rounding
 * floor); returns the bound max(u - x) when u is inductive, else INFINITY.
 * T(x + tau w) <= T x + tau max_p sum p w <= x + tau (w - 1) + residual. */
static double proper__dtmc_interval_upper(const proper_dtmc *m, const double *lo, const double *hi,
                                          const unsigned char *unknown, int maximise, const double *x,
                                          const double *w, double *u, uint64_t *order, uint32_t longest) {
    double res = 0.0, tau, gap = 0.0;
    uint32_t s;
    for (s = 0; s < m->n_states; s++)
        if (unknown[s]) {
            double r = proper__dtmc_interval_step(m, lo, hi, s, x, maximise, order) - x[s];
            if (r > res) res = r;
        }
    tau = fmax(2.0 * res, 8.0 * (double)(longest + 2) * DBL_EPSILON);
    for (s = 0; s < m->n_states; s++) {
        u[s] = unknown[s] ? fmin(1.0, x[s] + tau * w[s]) : x[s];
        if (u[s] - x[s] > gap) gap = u[s] - x[s];
    }
    return proper__dtmc_interval_inductive(m, lo, hi, unknown, maximise, u, order) ? gap : INFINITY;
}

PROPER_API int proper_dtmc_interval_prob_until(const proper_dtmc *m, const double *lo, const double *hi,
                                               const proper_bitset *phi1, const proper_bitset *phi2, int maximise,
                                               const proper_dtmc_solve_opts *opts, double *x,
                                               proper_dtmc_solve_stats *stats, proper_error *err) {
    proper_dtmc_solve_opts o = opts ? *opts : proper_dtmc_solve_opts_default();
    uint32_t n = m->n_states, s, longest;
    unsigned char *no, *unknown;
    uint64_t *order;
    double *u, *w, top, eps, bound = INFINITY;
    unsigned long sweeps = 0;
    int rc, have_w = 0, attempt, settled = 0;
    proper__dtmc_ivl_comps cs;
    proper__dtmc_ivl_op op;
    proper__dtmc_ivl_graph qg;
    memset(&cs, 0, sizeof cs);
    memset(&qg, 0, sizeof qg);
    if (stats) memset(stats, 0, sizeof *stats);
    if ((rc = proper__dtmc_check_set(m, phi1, "phi1", err)) || (rc = proper__dtmc_check_set(m, phi2, "phi2", err)) ||
        (rc = proper_dtmc_check_intervals(m, lo, hi, err)))
        return rc;
    if (!(o.rel_precision > 0.0)) o.rel_precision = PROPER_DTMC_REL_PRECISION;
    no = (unsigned char *)proper_calloc((size_t)n + 1, 1);
    unknown = (unsigned char *)proper_calloc((size_t)n + 1, 1);
    order = proper__dtmc_interval_order_scratch(m, &longest);
    u = (double *)proper_calloc((size_t)n + 1, sizeof *u);
    w = (double *)proper_calloc((size_t)n + 1, sizeof *w);
    if (!no || !unknown || !order || !u || !w) { rc = proper__dtmc_nomem(err); goto done; }
    if (proper__dtmc_ivl_graph_make(m, &qg)) { rc = proper__dtmc_nomem(err); goto done; }
    proper__dtmc_interval_no(m, lo, hi, phi1, phi2, maximise, no, &qg);
    for (s = 0; s < n; s++) {
        x[s] = PROPER_BITSET_GET(phi2, s) ? 1.0 : 0.0;
        unknown[s] = !no[s] && !PROPER_BITSET_GET(phi2, s);
    }
    if ((rc = proper__dtmc_ivl_comps_make(m, unknown, &cs))) { rc = proper__dtmc_nomem(err); goto done; }
    memset(&op, 0, sizeof op);
    op.m = m; op.lo = lo; op.hi = hi; op.maximise = maximise; op.order = order; op.down = 1;
    /* value iteration from below to an estimated precision, then a proven
     * upper bound (the certificate); sweep on while it is too wide */
    eps = o.rel_precision;
    for (attempt = 0; attempt < 6 && sweeps < o.max_sweeps; attempt++, eps = fmax(eps * 0.01, 4.0 * DBL_EPSILON)) {
        sweeps += proper__dtmc_ivl_sweeps(&cs, &op, eps, 0, o.max_sweeps - sweeps, x, &settled, &top);
        if (!o.sound) break;
        if (attempt == 0) /* an end component makes w grow without end: give it a budget */
            sweeps += proper__dtmc_ivl_weights(&cs, &op, unknown, 100 + 4 * sweeps, w, &have_w);
        if (!have_w) break; /* an end component: no certificate of this kind */
        bound = proper__dtmc_interval_upper(m, lo, hi, unknown, maximise, x, w, u, order, longest);
        if (bound <= o.rel_precision) break;
    }
    if (!settled) {
        rc = proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0, "value iteration did not converge in %lu sweeps",
                              sweeps);
        goto done;
    }
    bound = proper__dtmc_ivl_finish(&cs, &op, x, u, bound);
    if (stats) {
        stats->sweeps = sweeps;
        stats->n_iterative = 1;
        stats->max_error = bound;
        stats->init_error = stats->max_error;
    }
done:
    proper__dtmc_ivl_graph_free(&qg);
    proper__dtmc_ivl_comps_free(&cs);
    PROPER_FREE(no); PROPER_FREE(unknown); PROPER_FREE(order); PROPER_FREE(u); PROPER_FREE(w);
    return rc;
}

/* The early stop of interval_prob_bounded_until at step j (x = x_j): the
 * optimal probability within j steps only grows with j (more steps reach
 * more, whatever nature does) and stays below the unbounded one, so
 * x_j <= x_k <= upper, the unbounded until plus its proven bound (solved on
 * first use, *tried then set; *upper stays NULL, and nothing stops early,
 * when it has no bound). Once upper - x_j is within 2 rel_precision of x_j
 * in every state, x becomes the midpoint. Returns 1 then, 0, or
 * PROPER_ENOMEM. */
static int proper__dtmc_interval_until_pinned(const proper_dtmc *m, const double *lo, const double *hi,
                                              const proper_bitset *phi1, const proper_bitset *phi2, int maximise,
                                              double **upper, int *tried, double *x) {
    uint32_t n = m->n_states, s;
    if (!*tried) {
        proper_dtmc_solve_stats st;
        proper_error e2;
        double *u = (double *)proper_calloc((size_t)n + 1, sizeof *u);
        int rc;
        *tried = 1;
        if (!u) return PROPER_ENOMEM;
        rc = proper_dtmc_interval_prob_until(m, lo, hi, phi1, phi2, maximise, NULL, u, &st, &e2);
        if (rc || !isfinite(st.max_error)) {
            PROPER_FREE(u);
            return rc == PROPER_ENOMEM ? rc : 0;
        }
        for (s = 0; s < n; s++) u[s] = fmin(1.0, u[s] + st.max_error);
        *upper = u;
    }
    if (!*upper) return 0;
    for (s = 0; s < n; s++)
        if (!((*upper)[s] - x[s] <= 2.0 * PROPER_DTMC_REL_PRECISION * x[s])) return 0;
    for (s = 0; s < n; s++) x[s] += ((*upper)[s] - x[s]) / 2.0;
    return 1;
}

PROPER_API int proper_dtmc_interval_prob_bounded_until(const proper_dtmc *m, const double *lo, const double *hi,
                                                       const proper_bitset *phi1, const proper_bitset *phi2,
                                                       unsigned long k, int maximise, double *x, proper_error *err) {
    uint32_t n = m->n_states, s;
    uint64_t *order;
    double *next, *upper = NULL;
    unsigned long j, next_check = PROPER_DTMC_BOUND_CHECK_FROM;
    int rc, tried = 0;
    if ((rc = proper__dtmc_check_set(m, phi1, "phi1", err)) || (rc = proper__dtmc_check_set(m, phi2, "phi2", err)) ||
        (rc = proper_dtmc_check_intervals(m, lo, hi, err)))
        return rc;
    order = proper__dtmc_interval_order_scratch(m, NULL);
    next = (double *)proper_calloc((size_t)n + 1, sizeof *next);
    if (!order || !next) { PROPER_FREE(order); PROPER_FREE(next); return proper__dtmc_nomem(err); }
    for (s = 0; s < n; s++) x[s] = PROPER_BITSET_GET(phi2, s) ? 1.0 : 0.0;
    /* x_j = the optimal probability within j steps; a fixed point ends
     * early, and so does a pinned rest (proper__dtmc_interval_until_pinned) */
    for (j = 0; j < k; j++) {
        int same = 1;
        if (j > proper_dtmc_max_steps(m)) { rc = proper_dtmc_steps_refused(m, k, err); break; }
        for (s = 0; s < n; s++) {
            if (PROPER_BITSET_GET(phi2, s) || (phi1 && !PROPER_BITSET_GET(phi1, s))) next[s] = x[s];
            else next[s] = proper__dtmc_interval_step(m, lo, hi, s, x, maximise, order);
            same &= next[s] == x[s];
        }
        memcpy(x, next, (size_t)n * sizeof *x);
        if (same) break;
        if (j + 1 == next_check && k - j - 1 >= j + 1) {
            next_check += next_check / 16;
            if ((rc = proper__dtmc_interval_until_pinned(m, lo, hi, phi1, phi2, maximise, &upper, &tried, x)) < 0)
                break;
            if (rc) { rc = PROPER_OK; break; }
        }
    }
    PROPER_FREE(order);
    PROPER_FREE(next);
    PROPER_FREE(upper);
    return rc == PROPER_ELIMIT ? rc : rc < 0 ? proper__dtmc_nomem(err) : PROPER_OK;
}

PROPER_API int proper_dtmc_interval_next(const proper_dtmc *m, const double *lo, const double *hi,
                                         const proper_bitset *phi, int maximise, double *x, proper_error *err) {
    uint32_t n = m->n_states, s;
    uint64_t *order;
    double *ind;
    int rc;
    if ((rc = proper__dtmc_check_set(m, phi, "phi", err)) || (rc = proper_dtmc_check_intervals(m, lo, hi, err)))
        return rc;
    order = proper__dtmc_interval_order_scratch(m, NULL);
    ind = (double *)proper_calloc((size_t)n + 1, sizeof *ind);
    if (!order || !ind) { PROPER_FREE(order); PROPER_FREE(ind); return proper__dtmc_nomem(err); }
    for (s = 0; s < n; s++) ind[s] = PROPER_BITSET_GET(phi, s) ? 1.0 : 0.0;
    for (s = 0; s < n; s++) x[s] = proper__dtmc_interval_step(m, lo, hi, s, ind, maximise, order);
    PROPER_FREE(order);
    PROPER_FREE(ind);
    return PROPER_OK;
}

static int proper__dtmc_interval_check_rewards(const proper_dtmc *m, const double *state_rewards,
                                               const double *trans_rewards, proper_error *err) {
    proper_dtmc_reward r;
    r.name = NULL;
    r.state = (double *)state_rewards;
    r.trans = (double *)trans_rewards;
    return proper__dtmc_check_reward(m, &r, 1, err);
}


/* sure[s] = 1 where Pmin [ F target ] = 1: every choice of nature reaches
 * target almost surely. Its complement is the states from which nature can
 * reach, with positive probability outside target, a state where it can
 * keep the run away from target forever (Pmin = 0; Baier and Katoen,
 * Principles of Model Checking, 10.6.1, for MDPs). */
static void proper__dtmc_interval_sure_all(const proper_dtmc *m, const double *lo, const double *hi,
                                           const proper_bitset *target, unsigned char *sure,
                                           proper__dtmc_ivl_graph *g) {
    proper__dtmc_ivl_qual q;
    uint32_t s;
    proper__dtmc_interval_no(m, lo, hi, NULL, target, 0, sure, g); /* sure = the Pmin = 0 states, for now */
    memset(&q, 0, sizeof q); /* then the closure over the edges nature can use */
    q.m = m; q.lo = lo; q.hi = hi; q.phi2 = target; q.a = sure; q.kind = PROPER__IVL_REACH_AVOID;
    proper__dtmc_ivl_fixpoint(&q, g);
    for (s = 0; s < m->n_states; s++) sure[s] = !sure[s];
}

/* u[s] = 1 where Pmax [ F target ] = 1: some choice of nature reaches
 * target almost surely. The greatest fixed point of U = the states that
 * reach target within U by choices that never leave U (Baier and Katoen,
 * 10.6.1, Prob1E for MDPs); v: scratch. */
static void proper__dtmc_interval_sure_some(const proper_dtmc *m, const double *lo, const double *hi,
                                            const proper_bitset *target, unsigned char *u, unsigned char *v,
                                            proper__dtmc_ivl_graph *g) {
    proper__dtmc_ivl_qual q;
    uint32_t n = m->n_states, s;
    memset(&q, 0, sizeof q);
    q.m = m; q.lo = lo; q.hi = hi; q.a = v; q.b = u; q.kind = PROPER__IVL_STAYS_HITS;
    for (s = 0; s < n; s++) u[s] = 1;
    for (;;) {
        int shrunk = 0;
        for (s = 0; s < n; s++) v[s] = PROPER_BITSET_GET(target, s) ? 1 : 0;
        proper__dtmc_ivl_fixpoint(&q, g);
        for (s = 0; s < n; s++) {
            shrunk |= u[s] && !v[s];
            u[s] = v[s];
        }
        if (!shrunk) return;
    }
}

/* For Rmin: a state among the unknown ones from which nature can keep the
 * run forever in states of zero reward along transitions of zero reward
 * (the greatest such set: every edge outside it has lower end 0 and the
 * edges inside carry upper ends summing to 1); UINT32_MAX when none. */
static uint32_t proper__dtmc_interval_zero_ec(const proper_dtmc *m, const double *lo, const double *hi,
                                              const double *state_rewards, const double *trans_rewards,
                                              const unsigned char *unknown, unsigned char *z,
                                              proper__dtmc_ivl_graph *g) {
    proper__dtmc_ivl_qual q;
    uint32_t n = m->n_states, s;
    memset(&q, 0, sizeof q);
    q.m = m; q.lo = lo; q.hi = hi; q.state_rewards = state_rewards; q.trans_rewards = trans_rewards; q.a = z;
    q.kind = PROPER__IVL_ZERO_EC;
    for (s = 0; s < n; s++) z[s] = unknown[s] && !(state_rewards && state_rewards[s] > 0.0);
    proper__dtmc_ivl_fixpoint(&q, g);
    for (s = 0; s < n; s++)
        if (z[s]) return s;
    return UINT32_MAX;
}

/* One robust Bellman step of the expected reward in s: its state reward
 * plus the optimal expectation of transition reward + value, edges into
 * the infinite states (inf) taking no mass. */
static double proper__dtmc_interval_reward_step(const proper_dtmc *m, const double *lo, const double *hi, uint32_t s,
                                                const double *state_rewards, const double *trans_rewards,
                                                const unsigned char *inf, const double *x, int maximise,
                                                uint64_t *order) {
    return (state_rewards ? state_rewards[s] : 0.0) +
           proper__dtmc_interval_step_edges(m, lo, hi, s, x, trans_rewards, inf, maximise, order);
}

/* Whether u bounds the least fixed point of the reward operator from above:
 * T u <= u in every unknown state, T u's rounding ((d + 2) eps_mach of its
 * largest term, d successors) counted against it (Knaster-Tarski). */
static int proper__dtmc_interval_reward_inductive(const proper_dtmc *m, const double *lo, const double *hi,
                                                  const double *state_rewards, const double *trans_rewards,
                                                  const unsigned char *inf, const unsigned char *unknown,
                                                  int maximise, const double *u, uint64_t *order) {
    uint32_t s;
    for (s = 0; s < m->n_states; s++) {
        double v, big = state_rewards ? state_rewards[s] : 0.0;
        uint64_t e;
        if (!unknown[s]) continue;
        for (e = m->row[s]; e < m->row[s + 1]; e++)
            if (!inf[m->col[e]]) big = fmax(big, u[m->col[e]] + (trans_rewards ? trans_rewards[e] : 0.0));
        v = proper__dtmc_interval_reward_step(m, lo, hi, s, state_rewards, trans_rewards, inf, u, maximise, order);
        if (v + (double)(m->row[s + 1] - m->row[s] + 2) * DBL_EPSILON * big > u[s]) return 0;
    }
    return 1;
}

PROPER_API int proper_dtmc_interval_reward_reach(const proper_dtmc *m, const double *lo, const double *hi,
                                                 const double *state_rewards, const double *trans_rewards,
                                                 const proper_bitset *target, int maximise,
                                                 const proper_dtmc_solve_opts *opts, double *x,
                                                 proper_dtmc_solve_stats *stats, proper_error *err) {
    proper_dtmc_solve_opts o = opts ? *opts : proper_dtmc_solve_opts_default();
    uint32_t n = m->n_states, s, stuck, longest;
    unsigned char *inf, *unknown, *z;
    uint64_t *order;
    double *u, *w, top = 0.0, eps, bound = INFINITY;
    unsigned long sweeps = 0;
    int rc, have_w = 0, attempt, any = 0, settled = 1;
    proper__dtmc_ivl_comps cs;
    proper__dtmc_ivl_op op;
    proper__dtmc_ivl_graph qg;
    memset(&cs, 0, sizeof cs);
    memset(&qg, 0, sizeof qg);
    if (stats) memset(stats, 0, sizeof *stats);
    if ((rc = proper__dtmc_check_set(m, target, "target", err)) || (rc = proper_dtmc_check_intervals(m, lo, hi, err)) ||
        (rc = proper__dtmc_interval_check_rewards(m, state_rewards, trans_rewards, err)))
        return rc;
    if (!(o.rel_precision > 0.0)) o.rel_precision = PROPER_DTMC_REL_PRECISION;
    inf = (unsigned char *)proper_calloc((size_t)n + 1, 1);
    unknown = (unsigned char *)proper_calloc((size_t)n + 1, 1);
    z = (unsigned char *)proper_calloc((size_t)n + 1, 1);
    order = proper__dtmc_interval_order_scratch(m, &longest);
    u = (double *)proper_calloc((size_t)n + 1, sizeof *u);
    w = (double *)proper_calloc((size_t)n + 1, sizeof *w);
    if (!inf || !unknown || !z || !order || !u || !w) { rc = proper__dtmc_nomem(err); goto done; }
    /* finite where the optimising choice can reach target surely: Rmax
     * needs every choice to (Pmin = 1), Rmin some choice (Pmax = 1) */
    if (proper__dtmc_ivl_graph_make(m, &qg)) { rc = proper__dtmc_nomem(err); goto done; }
    if (maximise) proper__dtmc_interval_sure_all(m, lo, hi, target, inf, &qg);
    else proper__dtmc_interval_sure_some(m, lo, hi, target, inf, z, &qg);
    for (s = 0; s < n; s++) {
        inf[s] = !inf[s];
        unknown[s] = !inf[s] && !PROPER_BITSET_GET(target, s);
        any |= unknown[s];
        x[s] = inf[s] ? INFINITY : 0.0;
    }
    if (!maximise && (stuck = proper__dtmc_interval_zero_ec(m, lo, hi, state_rewards, trans_rewards, unknown, z, &qg)) !=
                         UINT32_MAX) {
        rc = proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0,
                              "state %u: nature can keep the run forever in states of zero reward without reaching "
                              "the target (an end component; Rmin is not solved there)", (unsigned)stuck);
        goto done;
    }
    if (any && proper__dtmc_ivl_comps_make(m, unknown, &cs)) { rc = proper__dtmc_nomem(err); goto done; }
    memset(&op, 0, sizeof op);
    op.m = m; op.lo = lo; op.hi = hi; op.maximise = maximise; op.order = order; op.down = 1;
    op.state_rewards = state_rewards; op.trans_rewards = trans_rewards; op.inf = inf;
    eps = o.rel_precision;
    for (attempt = 0; any && attempt < 6 && sweeps < o.max_sweeps;
         attempt++, eps = fmax(eps * 0.01, 4.0 * DBL_EPSILON)) {
        double res = 0.0, tau;
        sweeps += proper__dtmc_ivl_sweeps(&cs, &op, eps, 1, o.max_sweeps - sweeps, x, &settled, &top);
        if (!o.sound) break;
        if (attempt == 0) /* nature keeping the run among them makes w grow without end: a budget */
            sweeps += proper__dtmc_ivl_weights(&cs, &op, unknown, 100 + 4 * sweeps, w, &have_w);
        if (!have_w) break;
        /* u = x + tau w with tau twice the residual: T u <= T x + tau (w - 1) <= u */
        for (s = 0; s < n; s++)
            if (unknown[s])
                res = fmax(res, proper__dtmc_interval_reward_step(m, lo, hi, s, state_rewards, trans_rewards, inf, x,
                                                                  maximise, order) - x[s]);
        tau = fmax(2.0 * res, 8.0 * (double)(longest + 2) * DBL_EPSILON * top);
        bound = 0.0;
        for (s = 0; s < n; s++) {
            u[s] = unknown[s] ? x[s] + tau * w[s] : x[s];
            bound = fmax(bound, u[s] - x[s]);
        }
        if (!proper__dtmc_interval_reward_inductive(m, lo, hi, state_rewards, trans_rewards, inf, unknown, maximise, u,
                                                    order))
            bound = INFINITY;
        if (bound <= o.rel_precision * top) break;
    }
    if (any && !settled) {
        rc = proper_error_set(err, PROPER_ENOCONV, NULL, 0, 0, "value iteration did not converge in %lu sweeps",
                              sweeps);
        goto done;
    }
    if (any) bound = proper__dtmc_ivl_finish(&cs, &op, x, u, bound);
    if (stats) {
        stats->sweeps = sweeps;
        stats->n_iterative = any;
        stats->max_error = any ? bound : 0.0;
        stats->init_error = stats->max_error;
    }
done:
    proper__dtmc_ivl_graph_free(&qg);
    proper__dtmc_ivl_comps_free(&cs);
    PROPER_FREE(inf); PROPER_FREE(unknown); PROPER_FREE(z); PROPER_FREE(order); PROPER_FREE(u); PROPER_FREE(w);
    return rc;
}

/* The early stop of interval_reward_cumul after step j + 1 (next = x_{j+1},
 * x = x_j, `left` steps to go): with d = next - x in [dlo, dhi], x_k lies
 * in next + left [dlo, dhi]; when that is within 2 rel_precision of its
 * magnitude in every state, next becomes the midpoint x_k. Returns 1 then. */
static int proper__dtmc_interval_cumul_pinned(const double *x, double *next, uint32_t n, unsigned long left) {
    double dlo = INFINITY, dhi = -INFINITY, l = (double)left, mid;
    uint32_t s;
    for (s = 0; s < n; s++) {
        dlo = fmin(dlo, next[s] - x[s]);
        dhi = fmax(dhi, next[s] - x[s]);
    }
    mid = dlo + (dhi - dlo) / 2.0;
    for (s = 0; s < n; s++)
        if (!(l * (dhi - dlo) <= 2.0 * PROPER_DTMC_REL_PRECISION * fabs(next[s] + l * mid))) return 0;
    for (s = 0; s < n; s++) next[s] += l * mid;
    return 1;
}

PROPER_API int proper_dtmc_interval_reward_cumul(const proper_dtmc *m, const double *lo, const double *hi,
                                                 const double *state_rewards, const double *trans_rewards,
                                                 unsigned long k, int maximise, double *x, proper_error *err) {
    uint32_t n = m->n_states, s;
    uint64_t *order;
    double *next;
    unsigned long j, next_check = PROPER_DTMC_BOUND_CHECK_FROM;
    int rc;
    if ((rc = proper_dtmc_check_intervals(m, lo, hi, err)) ||
        (rc = proper__dtmc_interval_check_rewards(m, state_rewards, trans_rewards, err)))
        return rc;
    order = proper__dtmc_interval_order_scratch(m, NULL);
    next = (double *)proper_calloc((size_t)n + 1, sizeof *next);
    if (!order || !next) { PROPER_FREE(order); PROPER_FREE(next); return proper__dtmc_nomem(err); }
    for (s = 0; s < n; s++) x[s] = 0.0;
    /* x_j = the optimal reward over j steps; a fixed point ends early, and
     * so does a pinned rest: the operator is monotone and commutes with
     * adding a constant, so each later increment x_{i+1} - x_i lies within
     * the smallest and largest entry of the current one, and the k - j
     * steps left add (k - j) times a value in that range; once that range
     * pins x_k within rel_precision, x_k is the midpoint */
    for (j = 0; j < k; j++) {
        int same = 1;
        if (j > proper_dtmc_max_steps(m)) { rc = proper_dtmc_steps_refused(m, k, err); break; }
        for (s = 0; s < n; s++) {
            next[s] = proper__dtmc_interval_reward_step(m, lo, hi, s, state_rewards, trans_rewards, NULL, x, maximise,
                                                        order);
            same &= next[s] == x[s];
        }
        if (j + 1 == next_check && k - j - 1 >= j + 1 && proper__dtmc_interval_cumul_pinned(x, next, n, k - j - 1)) {
            memcpy(x, next, (size_t)n * sizeof *x);
            break;
        }
        if (j + 1 == next_check) next_check += next_check / 16;
        memcpy(x, next, (size_t)n * sizeof *x);
        if (same) break;
    }
    PROPER_FREE(order);
    PROPER_FREE(next);
    return rc;
}

/* ---- CTMCs -------------------------------------------------------------- */

PROPER_API void proper_dtmc_exit_rates(const proper_dtmc *m, double *exit_rate) {
    uint32_t s;
    for (s = 0; s < m->n_states; s++) {
        double e = 0.0;
        uint64_t k;
        if (m->kind == PROPER_DTMC_KIND_CTMC)
            for (k = m->row[s]; k < m->row[s + 1]; k++) e += m->prob[k];
        else
            e = 1.0;
        exit_rate[s] = e;
    }
}

PROPER_API int proper_dtmc_embedded(const proper_dtmc *ctmc, proper_dtmc *out, proper_error *err) {
    proper_dtmc c;
    uint32_t s;
    int rc;
    if ((rc = proper__dtmc_need_ctmc(ctmc, "the embedded DTMC", err))) return rc;
    proper_dtmc_init(&c);
    if ((rc = proper_dtmc_copy(&c, ctmc, err))) return rc;
    for (s = 0; s < c.n_states; s++) {
        double e = 0.0;
        uint64_t k;
        for (k = c.row[s]; k < c.row[s + 1]; k++) e += c.prob[k];
        for (k = c.row[s]; k < c.row[s + 1]; k++) c.prob[k] /= e; /* e > 0: every state has a transition */
    }
    c.kind = PROPER_DTMC_KIND_DTMC;
    proper_dtmc_free(out);
    *out = c;
    return PROPER_OK;
}

/* Uniformisation rate: the largest rate of leaving a state (self-loops do
 * not leave) among the states not in `frozen` (NULL: none frozen). */
static double proper__dtmc_unif_rate(const proper_dtmc *m, const proper_bitset *frozen) {
    double q = 0.0;
    uint32_t s;
    for (s = 0; s < m->n_states; s++) {
        double e = 0.0;
        uint64_t k;
        if (frozen && PROPER_BITSET_GET(frozen, s)) continue;
        for (k = m->row[s]; k < m->row[s + 1]; k++)
            if (m->col[k] != s) e += m->prob[k];
        if (e > q) q = e;
    }
    return q;
}

PROPER_API int proper_dtmc_uniformised(const proper_dtmc *ctmc, proper_dtmc *out, double *q_out, proper_error *err) {
    proper_dtmc c;
    uint32_t s;
    uint64_t k, n_new = 0, at = 0;
    double q;
    size_t i;
    int rc;
    if ((rc = proper__dtmc_need_ctmc(ctmc, "uniformisation", err))) return rc;
    q = proper__dtmc_unif_rate(ctmc, NULL);
    if (q == 0.0) q = 1.0;
    for (s = 0; s < ctmc->n_states; s++) n_new += proper__dtmc_find_trans(ctmc, s, s) < 0;
    proper_dtmc_init(&c);
    c.n_states = ctmc->n_states;
    c.n_trans = ctmc->n_trans + n_new;
    c.init = ctmc->init;
    c.row = (uint64_t *)proper_calloc((size_t)c.n_states + 1, sizeof *c.row);
    c.col = (uint32_t *)proper_calloc((size_t)c.n_trans, sizeof *c.col);
    c.prob = (double *)proper_calloc((size_t)c.n_trans, sizeof *c.prob);
    if (!c.row || !c.col || !c.prob) goto nomem;
    /* row s: R(s,t)/q off the diagonal, 1 - (E(s) - R(s,s))/q on it */
    for (s = 0; s < c.n_states; s++) {
        double leave = 0.0;
        uint64_t diag = UINT64_MAX;
        int placed = 0;
        for (k = ctmc->row[s]; k < ctmc->row[s + 1]; k++)
            if (ctmc->col[k] != s) leave += ctmc->prob[k];
        c.row[s] = at;
        for (k = ctmc->row[s]; k < ctmc->row[s + 1]; k++) {
            if (!placed && ctmc->col[k] >= s) {
                diag = at++;
                placed = 1;
            }
            if (ctmc->col[k] == s) continue;
            c.col[at] = ctmc->col[k];
            c.prob[at++] = ctmc->prob[k] / q;
        }
        if (!placed) diag = at++;
        c.col[diag] = s;
        c.prob[diag] = 1.0 - leave / q;
    }
    c.row[c.n_states] = at;
    c.n_trans = at;
    if (ctmc->init_dist && proper_dtmc_set_init_dist(&c, ctmc->init_dist, NULL)) goto nomem;
    c.init = ctmc->init;
    if (proper_bitset_copy(&c.deadlock, &ctmc->deadlock, NULL)) goto nomem;
    for (i = 0; i < ctmc->n_labels; i++)
        if (proper_dtmc_add_label(&c, ctmc->labels[i].name, &ctmc->labels[i].states, NULL, err)) goto fail;
    if (q_out) *q_out = q;
    proper_dtmc_free(out);
    *out = c;
    return PROPER_OK;
nomem:
    proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory uniformising");
fail:
    proper_dtmc_free(&c);
    return err ? err->code : PROPER_ENOMEM;
}

/* ---- Fox-Glynn ---- */

PROPER_API void proper_dtmc_poisson_init(proper_dtmc_poisson *p) { memset(p, 0, sizeof *p); }

PROPER_API void proper_dtmc_poisson_free(proper_dtmc_poisson *p) {
    PROPER_FREE(p->w);
    proper_dtmc_poisson_init(p);
}

/* Window [*left, *right] around the mode m of Poisson(lambda) outside of
 * which the mass is at most acc/2 on each side, with p_m = pm. Tails are
 * bounded by geometric series: beyond i > lambda - 1 the ratio
 * p_{j+1}/p_j = lambda/(j+1) is at most r = lambda/(i+2) for every j > i,
 * so sum_{j>i} p_j <= p_{i+1} / (1 - r) = p_i (lambda/(i+1)) / (1 - r)
 * (the first ratio is lambda/(i+1), not r); below i <= lambda the ratio
 * p_{j-1}/p_j = j/lambda is at most i/lambda for every j < i, so
 * sum_{j<i} p_j <= p_i (i/lambda) / (1 - i/lambda). `slack` >= 1 covers
 * the rounding of pm. */
static void proper__dtmc_fg_window(double lambda, unsigned long m, double pm, double acc, double slack,
                                   unsigned long *left, unsigned long *right) {
    double p = pm, r;
    unsigned long i = m;
    for (;;) {
        r = lambda / ((double)i + 2.0);
        if (r < 1.0 && slack * p * (lambda / ((double)i + 1.0)) / (1.0 - r) <= acc / 2.0) break;
        i++;
        p *= lambda / (double)i;
    }
    *right = i;
    p = pm;
    i = m;
    while (i > 0) {
        r = (double)i / lambda;
        if (r < 1.0 && slack * p * r / (1.0 - r) <= acc / 2.0) break;
        p *= (double)i / lambda;
        i--;
    }
    *left = i;
}

/* A proven bound on the Poisson mass beyond a window end whose computed
 * weight is w (w T within 1 +- eta of the exact probability, T <= 1), the
 * next term r0 times it and each further one at most r < 1 times the one
 * before (see proper__dtmc_fg_window): w / (1 - eta) r0 / (1 - r), its
 * rounding added (r0, r and 1 - r: u each, relative u / (1 - r) on 1 - r,
 * three more). */
static double proper__dtmc_fg_tail(double w, double eta, double r0, double r) {
    double u = DBL_EPSILON / 2.0;
    return w / (1.0 - eta) * r0 / (1.0 - r) * (1.0 + 10.0 * u + 2.0 * u / (1.0 - r));
}

/* out_mass and weight_error of a window around the mode m (see
 * proper_dtmc_poisson). The tails beyond the window ends are bounded by
 * geometric series from the end weights (proper__dtmc_fg_tail): often far
 * below accuracy (the window grows by whole terms: q t = 0.01 leaves
 * 1e-15 out of 1e-12), else about it (the window test bounded the same
 * series from its own running p_i). */
static void proper__dtmc_fg_rounding(proper_dtmc_poisson *p, double lambda, unsigned long m) {
    double K = (double)(m - p->left), n = (double)(p->right - p->left + 1);
    if ((double)(p->right - m) > K) K = (double)(p->right - m);
    p->weight_error = proper__dtmc_gamma(4.0 * K + n);
    p->out_mass = 0.0;
    if (lambda == 0.0) return;
    p->out_mass = proper__dtmc_fg_tail(p->w[p->right - p->left], p->weight_error, lambda / ((double)p->right + 1.0),
                                       lambda / ((double)p->right + 2.0));
    if (p->left > 0) {
        double r = (double)p->left / lambda;
        p->out_mass += proper__dtmc_fg_tail(p->w[0], p->weight_error, r, r);
    }
}

PROPER_API int proper_dtmc_fox_glynn(double lambda, double accuracy, proper_dtmc_poisson *out, proper_error *err) {
    proper_dtmc_poisson p;
    unsigned long m, i, n;
    double log_pm, pm, slack, sum = 0.0;
    if (!isfinite(lambda) || lambda < 0.0)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "Poisson rate %g must be finite and >= 0", lambda);
    if (!(accuracy > 0.0 && accuracy < 0.5))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "Poisson accuracy %g must be in (0, 0.5)", accuracy);
    if (lambda > 1e11) /* the window alone would be 10^7 weights and q t steps */
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "Poisson rate %g is too large (at most 1e11)", lambda);
    proper_dtmc_poisson_init(&p);
    m = (unsigned long)floor(lambda);
    /* log p_m = -lambda + m log lambda - log m!, in long double: its
     * rounding is at most a few units of the largest term, which `slack`
     * covers (with the units of a double, should long double be one) */
    if (lambda > 0.0) {
        long double l = lambda, lm = (long double)m;
        long double big = l + lm * fabsl(logl(l)) + lgammal(lm + 1.0L) + 1.0L;
        log_pm = (double)(-l + lm * logl(l) - lgammal(lm + 1.0L));
        slack = exp(8.0 * 2.220446049250313e-16 * (double)big);
    } else {
        log_pm = 0.0;
        slack = 1.0;
    }
    pm = exp(log_pm);
    if (lambda == 0.0) {
        p.left = p.right = 0;
    } else {
        proper__dtmc_fg_window(lambda, m, pm, accuracy, slack, &p.left, &p.right);
    }
    n = p.right - p.left + 1;
    p.w = (double *)proper_calloc((size_t)n, sizeof *p.w);
    if (!p.w) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory for %lu Poisson weights", n);
    /* weights relative to the mode (1 there), outward; the smallest is about
     * accuracy / pm, far from underflow */
    p.w[m - p.left] = 1.0;
    for (i = m; i > p.left; i--) p.w[i - 1 - p.left] = p.w[i - p.left] * ((double)i / lambda);
    for (i = m; i < p.right; i++) p.w[i + 1 - p.left] = p.w[i - p.left] * (lambda / ((double)i + 1.0));
    /* sum from the small ends inward (less rounding) */
    {
        unsigned long a = 0, b = n - 1;
        while (a <= b && b < n) {
            if (p.w[a] <= p.w[b]) sum += p.w[a++];
            else if (b == 0) { sum += p.w[b]; break; }
            else sum += p.w[b--];
        }
    }
    for (i = 0; i < n; i++) p.w[i] /= sum;
    p.total = pm * sum;
    if (p.total > 1.0) p.total = 1.0;
    proper__dtmc_fg_rounding(&p, lambda, m);
    proper_dtmc_poisson_free(out);
    *out = p;
    return PROPER_OK;
}

/* ---- uniformisation ---- */

/* One step of the uniformised chain applied to a value vector, without
 * building it: (P v)(s) = v(s) + (1/q) sum_t R(s,t) (v(t) - v(s)); states
 * in `frozen` keep their value (they are made absorbing). Returns whether
 * any value changed. */
static int proper__dtmc_unif_step(const proper_dtmc *m, const proper_bitset *frozen, double inv_q, const double *v,
                                  double *out) {
    uint32_t s;
    int changed = 0;
    for (s = 0; s < m->n_states; s++) {
        double acc = 0.0, vs = v[s];
        uint64_t k;
        if (!frozen || !PROPER_BITSET_GET(frozen, s))
            for (k = m->row[s]; k < m->row[s + 1]; k++) acc += m->prob[k] * (v[m->col[k]] - vs);
        out[s] = vs + inv_q * acc;
        changed |= out[s] != vs;
    }
    return changed;
}

/* x = sum_{i >= 0} c_i P^i v for the uniformised chain (rate q, `frozen`
 * states absorbing). Transient values: c_i = w_i, the Poisson weights.
 * Cumulative rewards: c_i = (1/q) (1 - F(i)) with F the (truncated)
 * Poisson distribution function, since E[time spent in the i-th state of
 * the uniformised chain before t] = P(N(t) > i) / q (Kwiatkowska, Norman,
 * Parker, "Stochastic model checking", SFM 2007, eq. for C<=t). Terms past
 * `right` are 0; below `left` c_i is 0 (transient) or 1/q (cumulative).
 * When the iterate stops changing bit for bit, every later term is c_i
 * times it: the remaining coefficients are added at once. */
typedef struct proper__dtmc_series {
    const proper_dtmc_poisson *pw;
    double inv_q;
    int cumulative;
    double *coef; /* c_i for i = left..right */
    double *tail; /* sum_{j >= i} c_j for i = left..right+1 */
} proper__dtmc_series;

static void proper__dtmc_series_free(proper__dtmc_series *se) {
    PROPER_FREE(se->coef);
    PROPER_FREE(se->tail);
}

static int proper__dtmc_series_init(proper__dtmc_series *se, const proper_dtmc_poisson *pw, double q, int cumulative) {
    unsigned long n = pw->right - pw->left + 1, i;
    double upper = 0.0;
    se->pw = pw;
    se->inv_q = 1.0 / q;
    se->cumulative = cumulative;
    se->coef = (double *)proper_calloc((size_t)n, sizeof *se->coef);
    se->tail = (double *)proper_calloc((size_t)n + 1, sizeof *se->tail);
    if (!se->coef || !se->tail) { proper__dtmc_series_free(se); return PROPER_ENOMEM; }
    /* from the top: upper = sum_{j > i} w_j before w_i is added */
    for (i = n; i-- > 0;) {
        se->coef[i] = cumulative ? upper * se->inv_q : pw->w[i];
        upper += pw->w[i];
        se->tail[i] = se->tail[i + 1] + se->coef[i];
    }
    return PROPER_OK;
}

static double proper__dtmc_series_coef(const proper__dtmc_series *se, unsigned long i) {
    if (i < se->pw->left) return se->cumulative ? se->inv_q : 0.0;
    return se->coef[i - se->pw->left];
}

/* sum_{j >= i} c_j */
static double proper__dtmc_series_tail(const proper__dtmc_series *se, unsigned long i) {
    if (i < se->pw->left) return se->tail[0] + (se->cumulative ? (double)(se->pw->left - i) * se->inv_q : 0.0);
    return se->tail[i - se->pw->left];
}

/* What a series run did, for its error bound. */
typedef struct proper__dtmc_series_done {
    unsigned long steps; /* products P v the terms rest on (all `right` of them when an iterate repeated) */
    unsigned long terms; /* terms added to x */
    double rest;         /* an early stop: the coefficients its midpoint stands for (0: none) */
    double half;         /* ... and the largest half-width of the range that midpoint is the middle of */
    int fixed;           /* the iterate after `steps` products repeated bit for bit, ... */
    double residual;     /* ... and |P v - v| is at most this there (proper__dtmc_fixed_residual) */
} proper__dtmc_series_done;

/* gamma_k in the units of long double (see proper__dtmc_gamma), computed
 * in doubles and rounded up by their units. */
static double proper__dtmc_gamma_ld(double k) {
    double u = (double)LDBL_EPSILON / 2.0;
    if (!(k * u < 0.5)) return INFINITY;
    return k * u / (1.0 - k * u) * (1.0 + 2.0 * DBL_EPSILON);
}

/* At a computed fixed point v (a step gives v back bit for bit), a bound
 * on max_s |(P v)_s - v_s| = max_s |(1/q) sum_k R_k (v_t - v_s)| of the
 * exact P, summed in long double: |acc| plus gamma_{d+3} (in long double
 * units) of the sum of magnitudes, times inv_q (within 2 u of 1/q); 0
 * exactly for rows on which v is constant (an absorbed value). */
static double proper__dtmc_fixed_residual(const proper_dtmc *m, const proper_bitset *frozen, double inv_q,
                                          const double *v) {
    double worst = 0.0, u = DBL_EPSILON / 2.0;
    uint32_t s;
    for (s = 0; s < m->n_states; s++) {
        long double acc = 0.0L, mag = 0.0L;
        uint64_t k;
        if (frozen && PROPER_BITSET_GET(frozen, s)) continue;
        for (k = m->row[s]; k < m->row[s + 1]; k++) {
            long double d = (long double)v[m->col[k]] - (long double)v[s];
            acc += (long double)m->prob[k] * d;
            mag += (long double)m->prob[k] * fabsl(d);
        }
        worst = fmax(worst, (double)(fabsl(acc) + proper__dtmc_gamma_ld((double)(m->row[s + 1] - m->row[s]) + 3.0) * mag));
    }
    return worst * inv_q * (1.0 + 8.0 * u);
}

/* Early stop of a long series after term i, with rest = the sum of the
 * coefficients still to come: every later P^j v lies between v and `upper`
 * (upper non-NULL: a monotone until, upper its unbounded value plus the
 * proven bound) or between the smallest and largest entry of v (P is
 * stochastic); when that pins x within PROPER_DTMC_REL_PRECISION relative
 * in every state (a range that wide: its midpoint is within half of it,
 * which leaves room for the rounding in the bound), the midpoint is added
 * and *half receives the largest half-width of the range it stands for.
 * Returns 1 (x complete) or 0. */
static int proper__dtmc_series_pinned(const double *v, const double *upper, double rest, double *x, uint32_t n,
                                      double *half) {
    const double eps = PROPER_DTMC_REL_PRECISION;
    uint32_t s;
    *half = 0.0;
    if (upper) {
        for (s = 0; s < n; s++)
            if (upper[s] != v[s] && !(rest * (upper[s] - v[s]) <= eps * (x[s] + rest * v[s]))) return 0;
        for (s = 0; s < n; s++) {
            x[s] += rest * (v[s] + (upper[s] - v[s]) / 2.0);
            *half = fmax(*half, (upper[s] - v[s]) / 2.0);
        }
    } else {
        double lo, hi, mid;
        proper__dtmc_range(v, n, &lo, &hi);
        mid = lo + (hi - lo) / 2.0;
        for (s = 0; s < n; s++)
            if (!(rest * (hi - lo) <= eps * fabs(x[s] + rest * mid))) return 0;
        for (s = 0; s < n; s++) x[s] += rest * mid;
        *half = (hi - lo) / 2.0;
    }
    return 1;
}

/* The most steps a uniformisation of m may take: PROPER_DTMC_MAX_POISSON_STEPS,
 * or fewer when that many steps would spend more than PROPER_DTMC_MAX_STEP_WORK
 * multiply-adds, a step counted as its transitions plus two per state plus
 * 16 (the step's own overhead: a chain of 4 states takes 8 ns a step on
 * this machine, about 30 such units). */
static unsigned long proper__dtmc_unif_max_steps(const proper_dtmc *m) {
    double per_step = (double)m->row[m->n_states] + 2.0 * (double)m->n_states + 16.0;
    double steps = floor(PROPER_DTMC_MAX_STEP_WORK / per_step);
    return steps >= (double)PROPER_DTMC_MAX_POISSON_STEPS ? PROPER_DTMC_MAX_POISSON_STEPS : (unsigned long)steps;
}

/* Watch over a long uniformisation (one that needs more steps than
 * proper__dtmc_unif_max_steps allows and can only end by settling: an
 * iterate that repeats, or a range that pins the rest). At its check
 * points it is given the largest change of a step relative to the largest
 * |value|; two check points give the rate rho at which the changes shrink
 * per step. Settling needs the iterate within about PROPER_DTMC_REL_PRECISION
 * of its limit, which is change rho / (1 - rho) away, so at least
 * log(change / ((1 - rho) 1e-3 eps)) / -log(rho) more steps. When a
 * window says that this goes past the cap (changes that shrink, rho < 1,
 * but too slowly) and none from there on up to 16 times as many steps
 * says otherwise (a window whose changes do not shrink measurably says
 * nothing either way), the run cannot settle in time: a stiff chain (a
 * rate of 1.7e9 beside one of 1: the slow state's value moves by 6e-10
 * of itself per step, below what a window of a few hundred steps
 * resolves) is refused after some 70,000 steps instead of after 10^9. A
 * front that moves through a long chain for more than 16 times the steps
 * of the first such window would be refused too, though it might settle
 * later; the cap would refuse it anyway unless it settled before. */
typedef struct proper__dtmc_settle {
    unsigned long at;    /* the last check point, 0 before the first */
    double change;       /* the relative change measured there */
    unsigned long since; /* the check point from which every window projected past the cap, 0: none */
} proper__dtmc_settle;

static int proper__dtmc_settle_hopeless(proper__dtmc_settle *w, unsigned long i, double change, unsigned long cap) {
    double rho = 1.0, need;
    if (w->at > 0 && change > 0.0 && w->change > 0.0) rho = pow(change / w->change, 1.0 / (double)(i - w->at));
    w->at = i;
    w->change = change;
    if (!(rho < 1.0)) return w->since > 0 && i >= 16 * w->since; /* no measurable shrinking: no news */
    need = log(change / ((1.0 - rho) * 1e-3 * PROPER_DTMC_REL_PRECISION)) / -log(rho);
    if ((double)i + need <= (double)cap) {
        w->since = 0;
        return 0;
    }
    if (w->since == 0) w->since = i;
    return i >= 16 * w->since;
}

/* The largest |a_s - b_s| over the largest |b_s| (0 for a zero b). */
static double proper__dtmc_rel_change(const double *a, const double *b, uint32_t n) {
    double d = 0.0, top = 0.0;
    uint32_t s;
    for (s = 0; s < n; s++) {
        d = fmax(d, fabs(a[s] - b[s]));
        top = fmax(top, fabs(b[s]));
    }
    return top > 0.0 ? d / top : 0.0;
}

/* The refusal of a uniformisation that needs `right` steps at rate q
 * (stopped after `done` of them, or before the first when done is 0): the
 * largest and smallest positive exit rates name the stiffness. */
static int proper__dtmc_unif_refused(const proper_dtmc *m, double q, unsigned long right, unsigned long cap,
                                     unsigned long done, proper_error *err) {
    double lo = INFINITY, hi = 0.0;
    uint32_t s;
    for (s = 0; s < m->n_states; s++) {
        double e = 0.0;
        uint64_t k;
        for (k = m->row[s]; k < m->row[s + 1]; k++)
            if (m->col[k] != s) e += m->prob[k];
        if (e > 0.0) { lo = fmin(lo, e); hi = fmax(hi, e); }
    }
    return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                            "uniformisation needs %lu steps (rate %.3g times the time) and its iterates cannot "
                            "settle within the %lu steps allowed for %u states and %llu transitions "
                            "(PROPER_DTMC_MAX_STEP_WORK, PROPER_DTMC_MAX_POISSON_STEPS); stopped after %lu: the "
                            "exit rates range from %.3g to %.3g, a ratio of %.3g, too stiff for uniformisation",
                            right, q, cap, (unsigned)m->n_states, (unsigned long long)m->row[m->n_states], done,
                            isfinite(lo) ? lo : 0.0, hi, isfinite(lo) ? hi / lo : 0.0);
}

static int proper__dtmc_series_run(const proper_dtmc *m, const proper_bitset *frozen, const proper__dtmc_series *se,
                                   const double *upper, double *v, double *x, proper__dtmc_series_done *dn,
                                   proper_error *err) {
    uint32_t s, n = m->n_states;
    unsigned long i, next_check = PROPER_DTMC_BOUND_CHECK_FROM, cap = proper__dtmc_unif_max_steps(m);
    double *own = (double *)proper_calloc(n ? n : 1, sizeof *own), *next = own;
    proper__dtmc_settle watch = {0, 0.0, 0UL};
    int check;
    if (!own) return proper__dtmc_nomem(err);
    memset(dn, 0, sizeof *dn);
    for (s = 0; s < n; s++) x[s] = 0.0;
    for (i = 0;; i++) {
        double c = proper__dtmc_series_coef(se, i), *t;
        if (c != 0.0) {
            for (s = 0; s < n; s++) x[s] += c * v[s];
            dn->terms++;
        }
        dn->steps = i;
        if (i == se->pw->right) break;
        check = i == next_check;
        if (check) {
            double rest = proper__dtmc_series_tail(se, i + 1);
            next_check += next_check / 16;
            if (se->pw->right - i >= i && proper__dtmc_series_pinned(v, upper, rest, x, n, &dn->half)) {
                dn->rest = rest;
                dn->terms++;
                break;
            }
        }
        if (i >= cap) {
            PROPER_FREE(own);
            return proper__dtmc_unif_refused(m, 1.0 / se->inv_q, se->pw->right, cap, i, err);
        }
        if (!proper__dtmc_unif_step(m, frozen, se->inv_q, v, next)) { /* a fixed point: later terms are c_j v */
            double rest = proper__dtmc_series_tail(se, i + 1);
            for (s = 0; s < n; s++) x[s] += rest * v[s];
            dn->terms++;
            dn->fixed = 1;
            dn->residual = proper__dtmc_fixed_residual(m, frozen, se->inv_q, v);
            break;
        }
        if (check && se->pw->right > cap &&
            proper__dtmc_settle_hopeless(&watch, i, proper__dtmc_rel_change(next, v, n), cap)) {
            PROPER_FREE(own);
            return proper__dtmc_unif_refused(m, 1.0 / se->inv_q, se->pw->right, cap, i + 1, err);
        }
        t = v; v = next; next = t;
    }
    PROPER_FREE(own);
    return PROPER_OK;
}

static int proper__dtmc_check_time(double t, const char *what, proper_error *err) {
    if (!isfinite(t) || t < 0.0)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "%s %g must be finite and >= 0", what, t);
    return PROPER_OK;
}

static double proper__dtmc_accuracy(const proper_dtmc_solve_opts *opts) {
    double a = opts ? opts->transient_accuracy : PROPER_DTMC_TRANSIENT_ACCURACY;
    return a > 0.0 && a < 0.5 ? a : PROPER_DTMC_TRANSIENT_ACCURACY;
}

/* The uniformisation rate of the states not frozen, with their longest row
 * in *longest: proper__dtmc_unif_rate's largest computed exit rate, which
 * may lie below an exact one by gamma_{d-1} (a sum of d rates), raised by
 * gamma_{d+3} (its own rounding and the next one's included) so that the
 * rate the bounds speak of, q = fl(q t) / t exactly (so that the Poisson
 * weights are those of q t: the time is not rounded), is >= E(s) - R(s,s)
 * exactly and P = I + Q/q is stochastic; fl(1/q_computed) is within 2 u
 * of 1/q. Any q >= the largest exit rate gives the same exact e^{Qt}. */
static double proper__dtmc_series_rate(const proper_dtmc *m, const proper_bitset *frozen, uint32_t *longest) {
    uint32_t s, d = 1;
    for (s = 0; s < m->n_states; s++)
        if ((!frozen || !PROPER_BITSET_GET(frozen, s)) && m->row[s + 1] - m->row[s] > d)
            d = (uint32_t)(m->row[s + 1] - m->row[s]);
    *longest = d;
    return proper__dtmc_unif_rate(m, frozen) * (1.0 + proper__dtmc_gamma((double)d + 3.0));
}

/* The rounding carried by the j-th iterate of a step that adds at most
 * a + b E to an error E and does not grow it otherwise (P stochastic):
 * E_j <= (a / b) ((1 + b)^j - 1) <= j a / (1 - j b) (INFINITY when
 * j b >= 1/2). */
static double proper__dtmc_unif_steps_error(double a, double b, unsigned long j) {
    double jb = (double)j * b;
    return jb < 0.5 ? (double)j * a / (1.0 - jb) * (1.0 + 4.0 * DBL_EPSILON) : INFINITY;
}

/* A proven bound on |x - exact| of a backward series run, x = sum_i c_i
 * P^i v over the uniformised chain P = I + Q/q (stochastic: see
 * proper__dtmc_series_rate), with v within e0 of the exact vector, B =
 * max |v|, W = max v - min v, d the longest row stepped, lambda = q t
 * (q as proper__dtmc_series_rate says: lambda is the double the weights
 * were computed for). Exactly, x* = sum_i c*_i P^i v*: c*_i = p_i = P(N = i), N ~ Poisson(q t)
 * (transient), or c*_i = P(N > i) / q (cumulative; Kwiatkowska, Norman,
 * Parker, SFM 2007, eq. (7)). With y_i = P^i v exact, all in [min v,
 * max v] (P stochastic), the error is the sum of:
 *  - the truncation and the weights (transient): the exact in-window
 *    weights renormalised, p_i / T, and the full series agree on constants,
 *    so with y_i = c + z_i, c the middle of [min v, max v], |z_i| <= W/2:
 *    |sum_in (p_i/T) y_i - sum_all p_i y_i| = |sum_in p_i z_i (1/T - 1) -
 *    sum_out p_i z_i| <= (1 - T) W <= out_mass W; the computed weights are
 *    p_i / T within 1 +- weight_error: weight_error B more;
 *  - the coefficients (cumulative): c_i = fl(fl(1/q) U_i), U_i the sum from
 *    the top of the weights above i, within (1 + rho) of P(N > i) plus the
 *    mass P(N > right), rho = (1 + weight_error)(1 + gamma_{n+2}) / (1 -
 *    out_mass) - 1; below `left`, 1/q stands for P(N > i) / q, off by at
 *    most P(N <= i) <= out_mass, and inv_q is within 2 u of 1/q;
 *    sum_i P(N > i) = E N = lambda, so these add (B / q)(rho lambda +
 *    (right + 1)(out_mass + 2 u)); the terms past
 *    `right` add (B / q) sum_{i > right} P(N > i) <= (B / q) out_mass r /
 *    (1 - r), r = lambda / (right + 2), as P(N > i + 1) <= r P(N > i)
 *    there (p_{j+1} / p_j = lambda / (j + 1));
 *  - the steps: one computed step fl(v_s + fl(inv_q sum_k R_k fl(v_t -
 *    v_s))) on a computed v within E of the exact iterate, inv_q within
 *    2 u of 1/q, is within u (B + E) + (1 + u) gamma_{d+4} (E(s)/q) (W + 2 E)
 *    of P v (Higham, Lemma 3.1; |(P v)_s| <= B + E, the width of v at most
 *    W + 2 E, E(s) <= q); P does not grow errors (||P||_inf = 1), so with
 *    g = (1 + u) gamma_{d+4}, a = u B + g W and b = u + 2 g, E_j <= j a /
 *    (1 - j b) (proper__dtmc_unif_steps_error). After a fixed point v* at
 *    step j (every later computed term is v*), e_{i+1} = v* - P y_i =
 *    (v* - P v*) + P e_i, so E_i <= E_j +
 *    (i - j) rho for i up to `right`, rho >= |P v* - v*|
 *    (proper__dtmc_fixed_residual; 0 when v* is constant on every row
 *    stepped), or the a priori E_right, whichever is smaller. Weighted by
 *    the coefficients, S E with S >= sum_i c_i; e0 likewise adds S e0;
 *  - the sum of `terms` products c_i v_i, the coefficients' sum rest
 *    included: gamma_{terms + n + 2} S (B + E) (Higham, eq. (4.4));
 *  - an early stop after step j: every later exact term lies in a range of
 *    half-width `half` about the midpoint, widened by E_j (the computed
 *    iterate's error): rest (half + E_j). */
static double proper__dtmc_series_bound(const proper__dtmc_series *se, double lambda, uint32_t d, double B, double W,
                                        double e0, const proper__dtmc_series_done *dn) {
    const proper_dtmc_poisson *pw = se->pw;
    double u = DBL_EPSILON / 2.0, g = (1.0 + u) * proper__dtmc_gamma((double)d + 4.0), a = u * B + g * W, b = u + 2.0 * g;
    double n = (double)(pw->right - pw->left + 1), E, S, bound;
    E = proper__dtmc_unif_steps_error(a, b, dn->steps);
    if (dn->fixed)
        E = fmin(proper__dtmc_unif_steps_error(a, b, pw->right),
                 E + (double)(pw->right - dn->steps) * dn->residual * (1.0 + 4.0 * u));
    if (!se->cumulative) {
        S = 1.0 + pw->weight_error;
        bound = pw->out_mass * W + pw->weight_error * B;
    } else {
        double r = lambda / ((double)pw->right + 2.0), inv_q = se->inv_q * (1.0 + 4.0 * u);
        double rho = (1.0 + pw->weight_error) * (1.0 + proper__dtmc_gamma(n + 2.0)) / (1.0 - pw->out_mass) - 1.0;
        S = proper__dtmc_series_tail(se, 0) * (1.0 + proper__dtmc_gamma((double)pw->right + 4.0));
        bound = B * inv_q *
                (rho * lambda + ((double)pw->right + 1.0) * (pw->out_mass + 2.0 * u) + pw->out_mass * r / (1.0 - r));
    }
    bound += S * (E + e0) + proper__dtmc_gamma((double)dn->terms + n + 2.0) * S * (B + E) + dn->rest * (dn->half + E);
    return bound * (1.0 + 8.0 * u);
}

/* x = sum_i c_i P^i v over the uniformised chain of m with `frozen` states
 * absorbing, for time t (transient weights or cumulative coefficients);
 * v within e0 of its exact value; *bound receives the proven bound on
 * |x - exact| (proper__dtmc_series_bound). */
static int proper__dtmc_uniformise_apply(const proper_dtmc *m, const proper_bitset *frozen, double t, int cumulative,
                                         const double *upper, const proper_dtmc_solve_opts *opts, double *v,
                                         double e0, double *x, double *bound, proper_error *err) {
    proper_dtmc_poisson pw;
    proper__dtmc_series se;
    proper__dtmc_series_done dn;
    uint32_t s, d;
    double q = proper__dtmc_series_rate(m, frozen, &d), lo, hi, B, lambda;
    int rc;
    proper__dtmc_range(v, m->n_states, &lo, &hi);
    if (!m->n_states) lo = hi = 0.0;
    B = fmax(fabs(lo), fabs(hi));
    if (q == 0.0 || t == 0.0) { /* nothing moves: x = v (cumulative: t v, one rounding) */
        for (s = 0; s < m->n_states; s++) x[s] = cumulative ? t * v[s] : v[s];
        *bound = cumulative ? t * (e0 + DBL_EPSILON * B) : e0;
        return PROPER_OK;
    }
    lambda = q * t;
    proper_dtmc_poisson_init(&pw);
    if ((rc = proper_dtmc_fox_glynn(lambda, proper__dtmc_accuracy(opts), &pw, err))) return rc;
    if (proper__dtmc_series_init(&se, &pw, q, cumulative)) {
        proper_dtmc_poisson_free(&pw);
        return proper__dtmc_nomem(err);
    }
    rc = proper__dtmc_series_run(m, frozen, &se, upper, v, x, &dn, err);
    if (!rc) *bound = proper__dtmc_series_bound(&se, lambda, d, B, hi - lo, e0, &dn);
    proper__dtmc_series_free(&se);
    proper_dtmc_poisson_free(&pw);
    return rc;
}

static void proper__dtmc_stats_bound(proper_dtmc_solve_stats *stats, double bound) {
    if (!stats) return;
    memset(stats, 0, sizeof *stats);
    stats->max_error = stats->init_error = bound;
}

PROPER_API int proper_dtmc_ctmc_bounded_until(const proper_dtmc *m, const proper_bitset *phi1,
                                              const proper_bitset *phi2, double t1, double t2,
                                              const proper_dtmc_solve_opts *opts, double *x, proper_error *err) {
    return proper_dtmc_ctmc_bounded_until_stats(m, phi1, phi2, t1, t2, opts, x, NULL, err);
}

/* The bound of U[t1,t2] composes the two phases: phase 1's exact operator
 * sum_i p_i P1^i is an average (weights summing to 1, P1 stochastic), so
 * phase 2's error e2 reaches the result no larger, and phase 1's own bound
 * is taken with e0 = e2. */
PROPER_API int proper_dtmc_ctmc_bounded_until_stats(const proper_dtmc *m, const proper_bitset *phi1,
                                                    const proper_bitset *phi2, double t1, double t2,
                                                    const proper_dtmc_solve_opts *opts, double *x,
                                                    proper_dtmc_solve_stats *stats, proper_error *err) {
    proper_bitset frozen;
    double *v, bound = 0.0;
    uint32_t s, n = m->n_states;
    int rc;
    if ((rc = proper__dtmc_need_ctmc(m, "a time-bounded until", err)) ||
        (rc = proper__dtmc_check_set(m, phi1, "phi1", err)) || (rc = proper__dtmc_check_set(m, phi2, "phi2", err)) ||
        (rc = proper__dtmc_check_time(t1, "lower time bound", err)))
        return rc;
    if (isnan(t2) || t2 < t1)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "time interval [%g, %g] is empty", t1, t2);
    v = (double *)proper_calloc(n ? n : 1, sizeof *v);
    proper_bitset_init(&frozen);
    if (!v || proper_bitset_create(&frozen, n, NULL)) { PROPER_FREE(v); return proper__dtmc_nomem(err); }
    /* phase 2, the window [t1, t2]: phi1 U<=(t2-t1) phi2, with phi2 and
     * not-phi1 states absorbing (unbounded: the embedded chain) */
    if (isinf(t2)) {
        proper_dtmc_solve_stats st;
        if (!(rc = proper_dtmc_prob_until(m, phi1, phi2, opts, x, &st, err))) bound = st.max_error;
    } else {
        double *upper = NULL;
        for (s = 0; s < n; s++) {
            int goal = PROPER_BITSET_GET(phi2, s);
            v[s] = goal ? 1.0 : 0.0;
            if (goal || (phi1 && !PROPER_BITSET_GET(phi1, s))) proper_bitset_set(&frozen, s);
        }
        /* a long series may stop early against the unbounded until (its
         * iterates only grow towards it) */
        if (proper__dtmc_unif_rate(m, &frozen) * (t2 - t1) > 2.0 * (double)PROPER_DTMC_BOUND_CHECK_FROM) {
            proper_dtmc_solve_stats st;
            upper = (double *)proper_calloc(n ? n : 1, sizeof *upper);
            if (!upper) rc = proper__dtmc_nomem(err);
            else if (!(rc = proper_dtmc_prob_until(m, phi1, phi2, opts, upper, &st, err)))
                for (s = 0; s < n; s++) /* 0: impossible (prob0), exactly */
                    if (upper[s] > 0.0) upper[s] = fmin(1.0, upper[s] + st.max_error);
        }
        if (!rc) rc = proper__dtmc_uniformise_apply(m, &frozen, t2 - t1, 0, upper, opts, v, 0.0, x, &bound, err);
        PROPER_FREE(upper);
    }
    /* phase 1, [0, t1): the path stays in phi1; at t1 (entered earlier
     * almost surely) it is worth the phase-2 value if in phi1, else 0 */
    if (!rc && t1 > 0.0) {
        for (s = 0; s < n; s++) {
            int stay = !phi1 || PROPER_BITSET_GET(phi1, s);
            v[s] = stay ? x[s] : 0.0;
            if (stay) proper_bitset_clear(&frozen, s); else proper_bitset_set(&frozen, s);
        }
        rc = proper__dtmc_uniformise_apply(m, &frozen, t1, 0, NULL, opts, v, bound, x, &bound, err);
    }
    proper_bitset_free(&frozen);
    PROPER_FREE(v);
    if (!rc) proper__dtmc_stats_bound(stats, bound);
    return rc;
}

/* The longest in-plus-out list of a state, self-loops left out: the number
 * of updates one forward step makes to a state's entry. */
static uint32_t proper__dtmc_forward_degree(const proper_dtmc *m, int *nomem) {
    uint32_t s, d = 0, *cnt = (uint32_t *)proper_calloc(m->n_states ? m->n_states : 1, sizeof *cnt);
    uint64_t k;
    *nomem = !cnt;
    if (!cnt) return 0;
    for (s = 0; s < m->n_states; s++)
        for (k = m->row[s]; k < m->row[s + 1]; k++)
            if (m->col[k] != s) {
                cnt[s]++;
                cnt[m->col[k]]++;
            }
    for (s = 0; s < m->n_states; s++) d = cnt[s] > d ? cnt[s] : d;
    PROPER_FREE(cnt);
    return d;
}

/* A proven bound on |pt(s) - exact| of the forward series, as
 * proper__dtmc_series_bound with distributions for values: p0 of mass
 * M = sum |p0| (each exact p0 P^i (s) in [0, M] when p0 >= 0, W = M; else
 * in [-M, M], W = 2 M). One forward step adds to each entry t its own value
 * and at most D (in- plus out-degree) terms fl(fl(p(s) / q_computed) R),
 * each within gamma_3 of p(s) R / q: the entry is within gamma_{D+3}
 * (|p(t)| + sum |terms|) of exact, and summed over t at most
 * 3 gamma_{D+3} ||p||_1 (the terms of a row s add up to |p(s)| E(s)/q <=
 * |p(s)| twice); P stochastic does not grow the 1-norm, so after j steps
 * the 1-norm error, and with it every entry's, is at most j kappa M / (1 -
 * j kappa), kappa = 3 gamma_{D+3}; after a fixed point at step j, E_j plus
 * (right - j) times a bound on ||p* P - p*||_1 (proper__dtmc_forward_residual),
 * if smaller. */
static double proper__dtmc_forward_bound(const proper_dtmc_poisson *pw, uint32_t D, double M, double W,
                                         unsigned long steps, unsigned long terms, int fixed, double residual) {
    double u = DBL_EPSILON / 2.0, kappa = 3.0 * proper__dtmc_gamma((double)D + 3.0);
    double n = (double)(pw->right - pw->left + 1), S = 1.0 + pw->weight_error, E, bound;
    E = proper__dtmc_unif_steps_error(kappa * M, kappa, steps);
    if (fixed)
        E = fmin(proper__dtmc_unif_steps_error(kappa * M, kappa, pw->right),
                 E + (double)(pw->right - steps) * residual * (1.0 + 4.0 * u));
    bound = pw->out_mass * W + pw->weight_error * M + S * E + proper__dtmc_gamma((double)terms + n + 2.0) * S * (M + E);
    return bound * (1.0 + 8.0 * u);
}

/* At a computed fixed point p of the forward step, a bound on ||p P -
 * p||_1 = (1/q) sum_t |sum_s p(s) R(s,t) - p(t) E(t)| (self-loops left
 * out), accumulated in long double per state with the magnitudes for the
 * rounding (gamma_{D+2} in long double units each, gamma_{n+1} for the
 * sum over states); inv_q is within 2 u of 1/q. INFINITY without memory. */
static double proper__dtmc_forward_residual(const proper_dtmc *m, double inv_q, const double *p, uint32_t D) {
    uint32_t s, n = m->n_states;
    long double *acc = (long double *)proper_calloc(2 * (size_t)(n ? n : 1), sizeof *acc), *mag = acc + n, sum = 0.0L;
    uint64_t k;
    if (!acc) return INFINITY;
    for (s = 0; s < n; s++)
        for (k = m->row[s]; k < m->row[s + 1]; k++)
            if (m->col[k] != s) {
                long double f = (long double)p[s] * (long double)m->prob[k];
                acc[m->col[k]] += f;
                acc[s] -= f;
                mag[m->col[k]] += fabsl(f);
                mag[s] += fabsl(f);
            }
    for (s = 0; s < n; s++) sum += fabsl(acc[s]) + (long double)proper__dtmc_gamma_ld((double)D + 2.0) * mag[s];
    sum *= 1.0L + (long double)proper__dtmc_gamma_ld((double)n + 1.0);
    PROPER_FREE(acc);
    return (double)sum * inv_q * (1.0 + 8.0 * (DBL_EPSILON / 2.0));
}

PROPER_API int proper_dtmc_ctmc_transient(const proper_dtmc *m, double t, const double *p0,
                                          const proper_dtmc_solve_opts *opts, double *pt, proper_error *err) {
    return proper_dtmc_ctmc_transient_stats(m, t, p0, opts, pt, NULL, err);
}

PROPER_API int proper_dtmc_ctmc_transient_stats(const proper_dtmc *m, double t, const double *p0,
                                                const proper_dtmc_solve_opts *opts, double *pt,
                                                proper_dtmc_solve_stats *stats, proper_error *err) {
    proper_dtmc_poisson pw;
    double *cur, *next, q, M = 0.0, W, residual = 0.0;
    uint32_t s, n = m->n_states, d, D;
    unsigned long i, steps = 0, terms = 0, cap = proper__dtmc_unif_max_steps(m), next_check = PROPER_DTMC_BOUND_CHECK_FROM;
    int rc, nomem, negative = 0, fixed = 0;
    proper__dtmc_settle watch = {0, 0.0, 0UL};
    if ((rc = proper__dtmc_need_ctmc(m, "transient analysis", err)) ||
        (rc = proper__dtmc_check_time(t, "time", err)))
        return rc;
    D = proper__dtmc_forward_degree(m, &nomem);
    cur = (double *)proper_calloc(n ? n : 1, sizeof *cur);
    next = (double *)proper_calloc(n ? n : 1, sizeof *next);
    if (!cur || !next || nomem) { PROPER_FREE(cur); PROPER_FREE(next); return proper__dtmc_nomem(err); }
    if (p0) memcpy(cur, p0, (size_t)n * sizeof *cur);
    else if (m->init_dist) memcpy(cur, m->init_dist, (size_t)n * sizeof *cur);
    else cur[m->init] = 1.0;
    for (s = 0; s < n; s++) {
        M += fabs(cur[s]);
        negative |= cur[s] < 0.0;
    }
    M *= 1.0 + proper__dtmc_gamma((double)n); /* its own rounding, up */
    W = negative ? 2.0 * M : M;
    q = proper__dtmc_series_rate(m, NULL, &d);
    proper_dtmc_poisson_init(&pw);
    if (q == 0.0 || t == 0.0) {
        memcpy(pt, cur, (size_t)n * sizeof *pt);
        proper__dtmc_stats_bound(stats, 0.0);
        goto done;
    }
    if ((rc = proper_dtmc_fox_glynn(q * t, proper__dtmc_accuracy(opts), &pw, err))) goto done;
    for (s = 0; s < n; s++) pt[s] = 0.0;
    /* forward: p_{i+1}(t') = p_i(t') + (1/q) (sum_s p_i(s) R(s,t') - p_i(t') leave(t')) */
    for (i = 0;; i++) {
        double *tmp;
        int changed = 0;
        if (i >= pw.left) {
            for (s = 0; s < n; s++) pt[s] += pw.w[i - pw.left] * cur[s];
            terms++;
        }
        steps = i;
        if (i == pw.right) break;
        if (i >= cap) {
            rc = proper__dtmc_unif_refused(m, q, pw.right, cap, i, err);
            goto done;
        }
        memcpy(next, cur, (size_t)n * sizeof *next);
        for (s = 0; s < n; s++) {
            uint64_t k;
            double f = cur[s] / q;
            if (f == 0.0) continue;
            for (k = m->row[s]; k < m->row[s + 1]; k++) {
                if (m->col[k] == s) continue;
                next[m->col[k]] += f * m->prob[k];
                next[s] -= f * m->prob[k];
            }
        }
        for (s = 0; s < n && !changed; s++) changed = next[s] != cur[s];
        if (changed && i == next_check) {
            next_check += next_check / 16;
            if (pw.right > cap && proper__dtmc_settle_hopeless(&watch, i, proper__dtmc_rel_change(next, cur, n), cap)) {
                rc = proper__dtmc_unif_refused(m, q, pw.right, cap, i + 1, err);
                goto done;
            }
        }
        tmp = cur; cur = next; next = tmp;
        if (!changed) { /* stationary: the remaining weights all multiply cur */
            double rest = 0.0;
            unsigned long j;
            for (j = pw.right; j > i && j >= pw.left; j--) rest += pw.w[j - pw.left];
            for (s = 0; s < n; s++) pt[s] += rest * cur[s];
            terms++;
            fixed = 1;
            if (stats) residual = proper__dtmc_forward_residual(m, 1.0 / q, cur, D);
            break;
        }
    }
    if (stats) proper__dtmc_stats_bound(stats, proper__dtmc_forward_bound(&pw, D, M, W, steps, terms, fixed, residual));
done:
    proper_dtmc_poisson_free(&pw);
    PROPER_FREE(cur);
    PROPER_FREE(next);
    return rc;
}

/* The reward rate of each state, v(s) = state reward + sum_t R(s,t)
 * trans(s,t) (proper__dtmc_step_reward); returns a bound on its rounding,
 * gamma_{d+2} max_s (|state(s)| + sum_t R(s,t) |trans(s,t)|). */
static double proper__dtmc_rate_rewards(const proper_dtmc *m, const proper_dtmc_reward *r, double *v) {
    double big = 0.0;
    uint32_t s, d = 1;
    for (s = 0; s < m->n_states; s++) {
        double mag = r->state ? fabs(r->state[s]) : 0.0;
        uint64_t k;
        v[s] = proper__dtmc_step_reward(m, r, s);
        if (r->trans)
            for (k = m->row[s]; k < m->row[s + 1]; k++) mag += m->prob[k] * fabs(r->trans[k]);
        if (m->row[s + 1] - m->row[s] > d) d = (uint32_t)(m->row[s + 1] - m->row[s]);
        big = fmax(big, mag);
    }
    return r->trans ? proper__dtmc_gamma((double)d + 4.0) * big : 0.0;
}

PROPER_API int proper_dtmc_ctmc_reward_cumulative(const proper_dtmc *m, const proper_dtmc_reward *r, double t,
                                                  const proper_dtmc_solve_opts *opts, double *x, proper_error *err) {
    return proper_dtmc_ctmc_reward_cumulative_stats(m, r, t, opts, x, NULL, err);
}

PROPER_API int proper_dtmc_ctmc_reward_cumulative_stats(const proper_dtmc *m, const proper_dtmc_reward *r, double t,
                                                        const proper_dtmc_solve_opts *opts, double *x,
                                                        proper_dtmc_solve_stats *stats, proper_error *err) {
    double *v, e0, bound = 0.0;
    int rc;
    if ((rc = proper__dtmc_need_ctmc(m, "a time-bounded cumulative reward", err)) ||
        (rc = proper__dtmc_check_time(t, "time bound", err)) || (rc = proper__dtmc_check_reward(m, r, 0, err)))
        return rc;
    v = (double *)proper_calloc(m->n_states ? m->n_states : 1, sizeof *v);
    if (!v) return proper__dtmc_nomem(err);
    e0 = proper__dtmc_rate_rewards(m, r, v);
    rc = proper__dtmc_uniformise_apply(m, NULL, t, 1, NULL, opts, v, e0, x, &bound, err);
    PROPER_FREE(v);
    if (!rc) proper__dtmc_stats_bound(stats, bound);
    return rc;
}

PROPER_API int proper_dtmc_ctmc_reward_instant(const proper_dtmc *m, const proper_dtmc_reward *r, double t,
                                               const proper_dtmc_solve_opts *opts, double *x, proper_error *err) {
    return proper_dtmc_ctmc_reward_instant_stats(m, r, t, opts, x, NULL, err);
}

PROPER_API int proper_dtmc_ctmc_reward_instant_stats(const proper_dtmc *m, const proper_dtmc_reward *r, double t,
                                                     const proper_dtmc_solve_opts *opts, double *x,
                                                     proper_dtmc_solve_stats *stats, proper_error *err) {
    double *v, bound = 0.0;
    uint32_t s;
    int rc;
    if ((rc = proper__dtmc_need_ctmc(m, "an instantaneous reward at a time", err)) ||
        (rc = proper__dtmc_check_time(t, "time", err)) || (rc = proper__dtmc_check_reward(m, r, 0, err)))
        return rc;
    v = (double *)proper_calloc(m->n_states ? m->n_states : 1, sizeof *v);
    if (!v) return proper__dtmc_nomem(err);
    for (s = 0; s < m->n_states; s++) v[s] = r->state ? r->state[s] : 0.0;
    rc = proper__dtmc_uniformise_apply(m, NULL, t, 0, NULL, opts, v, 0.0, x, &bound, err);
    PROPER_FREE(v);
    if (!rc) proper__dtmc_stats_bound(stats, bound);
    return rc;
}

/* ---- PRISM explicit import ---------------------------------------------- */

PROPER_API proper_dtmc_import_opts proper_dtmc_import_opts_default(void) {
    proper_dtmc_import_opts o;
    o.row_sum_tol = PROPER_DTMC_ROW_SUM_TOL;
    o.ctmc = 0;
    o.fix_deadlocks = 0;
    o.max_states = PROPER_DTMC_MAX_STATES;
    return o;
}

/* Line reader over a FILE (in 1 MiB chunks) or a block of memory. */
typedef struct proper__dtmc_reader {
    FILE *f;
    const char *mem;
    size_t mem_len, mem_pos;
    char *buf;
    size_t cap, len, pos;
    int eof;
    const char *name;
    int line;               /* number of the line last returned */
    const char *text, *end; /* that line, without its newline */
} proper__dtmc_reader;

#define PROPER__READ_CHUNK ((size_t)1 << 20)

static void proper__dtmc_reader_mem(proper__dtmc_reader *r, const char *text, size_t len, const char *name) {
    memset(r, 0, sizeof *r);
    r->mem = text;
    r->mem_len = len;
    r->name = name;
}

static void proper__dtmc_reader_file(proper__dtmc_reader *r, FILE *f, const char *name) {
    memset(r, 0, sizeof *r);
    r->f = f;
    r->name = name;
}

static void proper__dtmc_reader_free(proper__dtmc_reader *r) {
    PROPER_FREE(r->buf);
    r->buf = NULL;
}

/* Next line into r->text/r->end: 1 a line, 0 end of input, <0 error. */
static int proper__dtmc_reader_next(proper__dtmc_reader *r) {
    const char *nl;
    if (!r->f) {
        const char *p = r->mem + r->mem_pos, *end = r->mem + r->mem_len;
        if (r->mem_pos >= r->mem_len) return 0;
        nl = (const char *)memchr(p, '\n', (size_t)(end - p));
        r->text = p;
        r->end = nl ? nl : end;
        r->mem_pos = (size_t)((nl ? nl + 1 : end) - r->mem);
    } else {
        for (;;) {
            nl = r->pos < r->len ? (const char *)memchr(r->buf + r->pos, '\n', r->len - r->pos) : NULL;
            if (nl || r->eof) break;
            /* keep the partial line, read more */
            if (r->pos > 0) {
                memmove(r->buf, r->buf + r->pos, r->len - r->pos);
                r->len -= r->pos;
                r->pos = 0;
            }
            if (proper_reserve(&r->buf, &r->cap, r->len + PROPER__READ_CHUNK, 1)) return PROPER_ENOMEM;
            {
                size_t got = fread(r->buf + r->len, 1, r->cap - r->len, r->f);
                if (got == 0) {
                    if (ferror(r->f)) return PROPER_EIO;
                    r->eof = 1;
                }
                r->len += got;
            }
        }
        if (r->pos >= r->len) return 0;
        r->text = r->buf + r->pos;
        r->end = nl ? nl : r->buf + r->len;
        r->pos = (size_t)((nl ? nl + 1 : r->buf + r->len) - r->buf);
    }
    if (r->end > r->text && r->end[-1] == '\r') r->end--;
    if (r->line == 0 && r->end - r->text >= 3 && memcmp(r->text, "\xEF\xBB\xBF", 3) == 0)
        r->text += 3; /* a UTF-8 byte order mark, as some editors write: not content */
    r->line++;
    return 1;
}

/* Error at position `at` of the current line (NULL: the line itself). */
static int proper__dtmc_reader_error(const proper__dtmc_reader *r, proper_error *err, const char *at, int code,
                                const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static int proper__dtmc_reader_error(const proper__dtmc_reader *r, proper_error *err, const char *at, int code,
                                const char *fmt, ...) {
    va_list ap;
    int col = at && r->line ? (int)(at - r->text) + 1 : 0;
    va_start(ap, fmt);
    proper_error_setv(err, code, r->name, r->line, col, fmt, ap);
    va_end(ap);
    return code;
}

static const char *proper__dtmc_skip_blanks(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    return p;
}

/* A line with nothing but blanks, or a '#' comment. */
static int proper__dtmc_skippable_line(const proper__dtmc_reader *r) {
    const char *p = proper__dtmc_skip_blanks(r->text, r->end);
    return p == r->end || *p == '#';
}

/* Next line that is not blank or a comment: 1, 0 at end, <0 error. */
static int proper__dtmc_next_content_line(proper__dtmc_reader *r, proper_error *err) {
    int rc;
    while ((rc = proper__dtmc_reader_next(r)) == 1)
        if (!proper__dtmc_skippable_line(r)) return 1;
    if (rc < 0)
        return proper_error_set(err, rc, r->name, r->line, 0, rc == PROPER_ENOMEM ? "out of memory" : "read error");
    return 0;
}

static int proper__dtmc_is_digit_ch(char c) { return c >= '0' && c <= '9'; }

/* After a token: the end of the line or a blank. */
static int proper__dtmc_token_end(const proper__dtmc_reader *r, const char *p, const char *what, proper_error *err) {
    if (p < r->end && *p != ' ' && *p != '\t')
        return proper__dtmc_reader_error(r, err, p, PROPER_EPARSE, "unexpected '%c' after %s", *p, what);
    return PROPER_OK;
}

/* Digits of a non-negative integer <= max (after blanks). */
static int proper__dtmc_scan_uint(const proper__dtmc_reader *r, const char **pp, uint64_t max, uint64_t *out,
                             const char *what, proper_error *err) {
    const char *p = proper__dtmc_skip_blanks(*pp, r->end), *start = p;
    uint64_t v = 0;
    if (p == r->end || !proper__dtmc_is_digit_ch(*p))
        return proper__dtmc_reader_error(r, err, p, PROPER_EPARSE, "expected %s (a non-negative integer)", what);
    while (p < r->end && proper__dtmc_is_digit_ch(*p)) {
        unsigned d = (unsigned)(*p - '0');
        if (v > max / 10 || (v == max / 10 && d > max % 10))
            return proper__dtmc_reader_error(r, err, start, PROPER_ERANGE, "%s is too large (at most %llu)", what,
                                        (unsigned long long)max);
        v = v * 10 + d;
        p++;
    }
    *out = v;
    *pp = p;
    return PROPER_OK;
}

/* An integer token (followed by a blank or the end of the line). */
static int proper__dtmc_read_uint(const proper__dtmc_reader *r, const char **pp, uint64_t max, uint64_t *out,
                             const char *what, proper_error *err) {
    int rc = proper__dtmc_scan_uint(r, pp, max, out, what, err);
    if (rc) return rc;
    return proper__dtmc_token_end(r, *pp, what, err);
}

/* "STATE:" at the start of a .lab line. */
static int proper__dtmc_read_uint_colon(const proper__dtmc_reader *r, const char **pp, uint64_t max, uint64_t *out,
                                   proper_error *err) {
    int rc = proper__dtmc_scan_uint(r, pp, max, out, "state number", err);
    if (rc) return rc;
    if (*pp == r->end || **pp != ':')
        return proper__dtmc_reader_error(r, err, *pp, PROPER_EPARSE, "expected ':' after the state number");
    (*pp)++;
    return PROPER_OK;
}

/* Decimal number [+-]? (d+ (. d*)? | . d+) ([eE] [+-]? d+)?. Short
 * decimals are converted exactly by Clinger's fast path (a mantissa below
 * 2^53 times or divided by an exact power of ten <= 1e22 is one correctly
 * rounded operation); others go through strtod. */
static int proper__dtmc_scan_real(const proper__dtmc_reader *r, const char **pp, double *out, const char *what,
                             proper_error *err) {
    static const double pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = proper__dtmc_skip_blanks(*pp, r->end), *start = p, *q;
    uint64_t mant = 0;
    int neg = 0, digits = 0, sig = 0, exp10 = 0, many = 0;
    double v;
    if (p < r->end && (*p == '+' || *p == '-')) { neg = *p == '-'; p++; }
    for (; p < r->end && proper__dtmc_is_digit_ch(*p); p++, digits++) {
        if (sig < 19) { mant = mant * 10 + (uint64_t)(*p - '0'); if (mant) sig++; }
        else { many = 1; exp10++; }
    }
    if (p < r->end && *p == '.') {
        for (p++; p < r->end && proper__dtmc_is_digit_ch(*p); p++, digits++) {
            if (sig < 19) { mant = mant * 10 + (uint64_t)(*p - '0'); if (mant) sig++; exp10--; }
            else many = 1;
        }
    }
    if (!digits) return proper__dtmc_reader_error(r, err, start, PROPER_EPARSE, "expected %s (a number)", what);
    if (p < r->end && (*p == 'e' || *p == 'E')) {
        int eneg = 0, e = 0;
        q = p + 1;
        if (q < r->end && (*q == '+' || *q == '-')) { eneg = *q == '-'; q++; }
        if (q == r->end || !proper__dtmc_is_digit_ch(*q))
            return proper__dtmc_reader_error(r, err, q, PROPER_EPARSE, "expected exponent digits in %s", what);
        for (; q < r->end && proper__dtmc_is_digit_ch(*q); q++)
            if (e < 100000) e = e * 10 + (*q - '0');
        exp10 += eneg ? -e : e;
        p = q;
    }
    if (!many && mant <= ((uint64_t)1 << 53) && exp10 >= -22 && exp10 <= 22) {
        v = exp10 < 0 ? (double)mant / pow10[-exp10] : (double)mant * pow10[exp10];
    } else {
        char small[64], *buf = small;
        size_t n = (size_t)(p - start);
        if (n >= sizeof small) {
            buf = (char *)PROPER_MALLOC(n + 1);
            if (!buf) return proper__dtmc_reader_error(r, err, start, PROPER_ENOMEM, "out of memory");
        }
        memcpy(buf, start, n);
        buf[n] = '\0';
        v = strtod(buf, NULL);
        if (buf != small) PROPER_FREE(buf);
        neg = 0;
    }
    if (isinf(v)) return proper__dtmc_reader_error(r, err, start, PROPER_ERANGE, "%s is too large for a double", what);
    *out = neg ? -v : v;
    *pp = p;
    return PROPER_OK;
}

/* A number token (followed by a blank or the end of the line). */
static int proper__dtmc_read_real(const proper__dtmc_reader *r, const char **pp, double *out, const char *what,
                             proper_error *err) {
    int rc = proper__dtmc_scan_real(r, pp, out, what, err);
    if (rc) return rc;
    return proper__dtmc_token_end(r, *pp, what, err);
}

/* Whether the next token (after blanks) is PRISM's -exportrows entry
 * "VALUE:STATE" (a ':' before the next blank). */
static int proper__dtmc_rows_entry_next(const proper__dtmc_reader *r, const char *p) {
    p = proper__dtmc_skip_blanks(p, r->end);
    for (; p < r->end && *p != ' ' && *p != '\t'; p++)
        if (*p == ':') return 1;
    return 0;
}

/* One -exportrows entry "VALUE:STATE": the value into *val, the state
 * (< n) into *dst. */
static int proper__dtmc_read_rows_entry(const proper__dtmc_reader *r, const char **pp, uint64_t n, double *val,
                                        uint64_t *dst, const char *what, proper_error *err) {
    int rc = proper__dtmc_scan_real(r, pp, val, what, err);
    if (rc) return rc;
    if (*pp == r->end || **pp != ':')
        return proper__dtmc_reader_error(r, err, *pp, PROPER_EPARSE, "expected ':' after the %s", what);
    (*pp)++;
    return proper__dtmc_read_uint(r, pp, n - 1, dst, "target state", err);
}

/* The rest of the line must be blank. */
static int proper__dtmc_line_done(const proper__dtmc_reader *r, const char *p, proper_error *err) {
    p = proper__dtmc_skip_blanks(p, r->end);
    if (p != r->end) return proper__dtmc_reader_error(r, err, p, PROPER_EPARSE, "unexpected text at the end of the line");
    return PROPER_OK;
}

static int proper__dtmc_is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int proper__dtmc_is_ident_char(char c) { return proper__dtmc_is_ident_start(c) || proper__dtmc_is_digit_ch(c); }

/* Check the probability of a transition read from a file. */
static int proper__dtmc_check_file_prob(const proper__dtmc_reader *r, const char *at, double p, double tol, proper_error *err) {
    if (!(p >= 0.0))
        return proper__dtmc_reader_error(r, err, at, PROPER_EPROB, "%s %g is negative", isinf(tol) ? "rate" : "probability", p);
    if (p > 1.0 + tol) return proper__dtmc_reader_error(r, err, at, PROPER_EPROB, "probability %.17g is above 1", p);
    return PROPER_OK;
}

static int proper__dtmc_row_sum_error(const proper__dtmc_reader *r, int line, uint32_t s, double sum, double tol,
                                 proper_error *err) {
    if (isinf(tol)) /* rates */
        return proper_error_set(err, PROPER_ERANGE, r->name, line, line ? 1 : 0,
                                "state %u: outgoing rates sum to %g (the exit rate must be finite)", (unsigned)s, sum);
    return proper_error_set(err, PROPER_EPROB, r->name, line, line ? 1 : 0,
                            "state %u: outgoing probabilities sum to %.15g (must be 1 within %g)", (unsigned)s, sum,
                            tol);
}

/* Sort rows of an unsorted .tra by source (counting sort) and each row by
 * destination; a repeated transition is summed when `sum_repeats` (PRISM's
 * per-action lines), else an error. */
static int proper__dtmc_tra_sort(proper_dtmc *m, const proper__dtmc_reader *r, uint32_t *srcs, double tol,
                                 int sum_repeats, proper_error *err) {
    uint64_t n = m->n_states, t = m->n_trans, i, *at, w = 0;
    uint32_t *col, s;
    double *prob;
    at = (uint64_t *)proper_calloc((size_t)n + 1, sizeof *at);
    col = (uint32_t *)proper_calloc((size_t)(t ? t : 1), sizeof *col);
    prob = (double *)proper_calloc((size_t)(t ? t : 1), sizeof *prob);
    if (!at || !col || !prob) {
        PROPER_FREE(at); PROPER_FREE(col); PROPER_FREE(prob);
        return proper_error_set(err, PROPER_ENOMEM, r->name, 0, 0, "out of memory sorting transitions");
    }
    memset(m->row, 0, ((size_t)n + 1) * sizeof *m->row);
    for (i = 0; i < t; i++) m->row[srcs[i] + 1]++;
    for (i = 0; i < n; i++) m->row[i + 1] += m->row[i];
    memcpy(at, m->row, ((size_t)n + 1) * sizeof *at);
    for (i = 0; i < t; i++) {
        uint64_t k = at[srcs[i]]++;
        col[k] = m->col[i];
        prob[k] = m->prob[i];
    }
    PROPER_FREE(at);
    PROPER_FREE(m->col);
    PROPER_FREE(m->prob);
    m->col = col;
    m->prob = prob;
    for (s = 0; s < n; s++) {
        uint64_t a = m->row[s], b = m->row[s + 1], k;
        double sum = 0.0;
        proper__dtmc_entry small[32], *e = small;
        if (b - a > 32) {
            e = (proper__dtmc_entry *)proper_calloc((size_t)(b - a), sizeof *e);
            if (!e) return proper_error_set(err, PROPER_ENOMEM, r->name, 0, 0, "out of memory sorting transitions");
        }
        for (k = a; k < b; k++) { e[k - a].dst = m->col[k]; e[k - a].p = m->prob[k]; }
        proper__dtmc_sort_entries(e, (size_t)(b - a));
        m->row[s] = w; /* rows move down by the repeats summed before them */
        for (k = 0; k < b - a; k++) {
            sum += e[k].p;
            if (w > m->row[s] && m->col[w - 1] == e[k].dst) {
                if (!sum_repeats) {
                    uint32_t dst = e[k].dst;
                    if (e != small) PROPER_FREE(e);
                    return proper_error_set(err, PROPER_EPARSE, r->name, 0, 0, "transition %u -> %u is listed twice",
                                            (unsigned)s, (unsigned)dst);
                }
                m->prob[w - 1] += e[k].p;
                continue;
            }
            m->col[w] = e[k].dst;
            m->prob[w++] = e[k].p;
        }
        if (e != small) PROPER_FREE(e);
        if (b > a && (!(fabs(sum - 1.0) <= tol) || !isfinite(sum))) return proper__dtmc_row_sum_error(r, 0, s, sum, tol, err);
    }
    m->row[n] = w;
    m->n_trans = w;
    return PROPER_OK;
}

/* A file's rows that sum to 1 within the tolerance are scaled to sum to 1:
 * its decimals are roundings of probabilities, and a row summing to
 * 1 + 7e-7 made long-run probabilities exceed 1 (found by fuzzing). PRISM
 * keeps such rows as written, so on them the two differ by about the rows'
 * error. A row within the rounding of its own sum ((len + 1) units of
 * 2^-52, twice over) is left as it is, so a written model reads back to the
 * same numbers. */
static void proper__dtmc_normalise_rows(proper_dtmc *m) {
    uint32_t s;
    uint64_t k;
    for (s = 0; s < m->n_states; s++) {
        uint64_t a = m->row[s], b = m->row[s + 1];
        double sum = 0.0;
        for (k = a; k < b; k++) sum += m->prob[k];
        if (b > a && fabs(sum - 1.0) > 2.0 * (double)(b - a + 1) * DBL_EPSILON)
            for (k = a; k < b; k++) m->prob[k] /= sum;
    }
}

/* State of a .tra being read in source order (the usual case: PRISM and
 * Storm write sorted files); srcs is only allocated if the order breaks. */
typedef struct proper__dtmc_tra_state {
    uint32_t cur;       /* row being filled */
    int have_prev;
    uint32_t prev_dst;
    double sum;
    int first_line;     /* line of the current row's first transition */
    uint32_t *srcs;     /* sources of all entries, once unsorted */
    size_t cap;         /* capacity of col/prob (and srcs) */
    int sum_repeats;    /* the file lists transitions per action (action labels, or -exportrows lines) */
} proper__dtmc_tra_state;

static int proper__dtmc_tra_grow(proper_dtmc *m, proper__dtmc_tra_state *st, uint64_t need) {
    size_t cap = st->cap;
    if (need <= st->cap) return PROPER_OK;
    if (proper_reserve(&m->col, &cap, (size_t)need, sizeof *m->col)) return PROPER_ENOMEM;
    cap = st->cap;
    if (proper_reserve(&m->prob, &cap, (size_t)need, sizeof *m->prob)) return PROPER_ENOMEM;
    if (st->srcs) {
        cap = st->cap;
        if (proper_reserve(&st->srcs, &cap, (size_t)need, sizeof *st->srcs)) return PROPER_ENOMEM;
    }
    st->cap = cap;
    return PROPER_OK;
}

/* Close rows st->cur .. upto-1 (the current row is checked). */
static int proper__dtmc_tra_close_rows(proper_dtmc *m, proper__dtmc_tra_state *st, const proper__dtmc_reader *r, uint32_t upto,
                                  double tol, proper_error *err) {
    if (m->n_trans > m->row[st->cur] && (!(fabs(st->sum - 1.0) <= tol) || !isfinite(st->sum)))
        return proper__dtmc_row_sum_error(r, st->first_line, st->cur, st->sum, tol, err);
    while (st->cur < upto) m->row[++st->cur] = m->n_trans;
    st->sum = 0.0;
    st->have_prev = 0;
    return PROPER_OK;
}

/* Switch to unsorted mode: record the source of every entry so far. */
static int proper__dtmc_tra_unsorted(proper_dtmc *m, proper__dtmc_tra_state *st) {
    uint64_t k;
    uint32_t s;
    st->srcs = (uint32_t *)proper_calloc(st->cap ? st->cap : 1, sizeof *st->srcs);
    if (!st->srcs) return PROPER_ENOMEM;
    for (s = 0; s < st->cur; s++)
        for (k = m->row[s]; k < m->row[s + 1]; k++) st->srcs[k] = s;
    for (k = m->row[st->cur]; k < m->n_trans; k++) st->srcs[k] = st->cur;
    return PROPER_OK;
}

/* Skip comment and blank lines before a .tra's header. PRISM's -exportmodel
 * writes the comment "# Transitions (DTMC)" or "(CTMC)": that kind is
 * checked against opts->ctmc (a file of rates read as probabilities, or
 * the other way round, would give wrong numbers without an error), and
 * o->ctmc is set for a CTMC; any other kind (MDP, ...) is refused. Returns
 * 1 with the header line current, 0 at end of input, <0 on error. */
static int proper__dtmc_tra_preamble(proper__dtmc_reader *r, proper_dtmc_import_opts *o, int asked_ctmc,
                                     proper_error *err) {
    static const char tag[] = "# Transitions (";
    int rc;
    while ((rc = proper__dtmc_reader_next(r)) == 1) {
        const char *p = proper__dtmc_skip_blanks(r->text, r->end), *kind, *close;
        if (p == r->end) continue;
        if (*p != '#') return 1;
        if ((size_t)(r->end - p) < sizeof tag - 1 || memcmp(p, tag, sizeof tag - 1) != 0) continue;
        kind = p + sizeof tag - 1;
        close = (const char *)memchr(kind, ')', (size_t)(r->end - kind));
        if (!close) continue;
        if (close - kind == 4 && (memcmp(kind, "DTMC", 4) == 0 || memcmp(kind, "CTMC", 4) == 0)) {
            int file_ctmc = kind[0] == 'C';
            if (asked_ctmc && !file_ctmc)
                return proper__dtmc_reader_error(r, err, kind, PROPER_EINVAL,
                                                 "the file says it holds a DTMC, but a CTMC (rates) was asked for");
            o->ctmc = file_ctmc;
        } else if (close - kind == 5 && memcmp(kind, "IDTMC", 5) == 0) {
            return proper__dtmc_reader_error(r, err, kind, PROPER_EUNSUPPORTED,
                                             "the file holds an interval DTMC (IDTMC): proper reads interval "
                                             "models from the PRISM language only");
        } else {
            return proper__dtmc_reader_error(r, err, kind, PROPER_EUNSUPPORTED,
                                             "the file holds a model of type %.*s: proper reads DTMCs and CTMCs",
                                             (int)(close - kind), kind);
        }
    }
    if (rc < 0)
        return proper_error_set(err, rc, r->name, r->line, 0, rc == PROPER_ENOMEM ? "out of memory" : "read error");
    return 0;
}

/* Add transition src -> dst (the entry at `at` of the current line) to the rows
 * being filled: in source order the row is closed and checked as the next
 * source begins; the first entry out of order (or repeated, in a file
 * whose repeats are summed) switches to recording every entry's source
 * (sorted, and repeats summed, at the end). A probability of 0 is no edge. */
static int proper__dtmc_tra_add(proper_dtmc *m, proper__dtmc_tra_state *st, const proper__dtmc_reader *r,
                                const char *at, uint64_t src, uint64_t dst, double pr, double tol,
                                proper_error *err) {
    int rc;
    if (!st->srcs) {
        if (src < st->cur || (src == st->cur && st->have_prev && dst <= st->prev_dst)) {
            if (src == st->cur && dst == st->prev_dst && !st->sum_repeats)
                return proper__dtmc_reader_error(r, err, at, PROPER_EPARSE, "transition %u -> %u is listed twice",
                                                 (unsigned)src, (unsigned)dst);
            if (proper__dtmc_tra_unsorted(m, st)) return PROPER_ENOMEM;
        } else if (src > st->cur) {
            if ((rc = proper__dtmc_tra_close_rows(m, st, r, (uint32_t)src, tol, err))) return rc;
        }
        if (!st->have_prev) st->first_line = r->line;
        st->have_prev = 1;
        st->prev_dst = (uint32_t)dst;
    }
    if (pr == 0.0) return PROPER_OK;
    if (proper__dtmc_tra_grow(m, st, m->n_trans + 1)) return PROPER_ENOMEM;
    m->col[m->n_trans] = (uint32_t)dst;
    m->prob[m->n_trans] = pr;
    if (st->srcs) st->srcs[m->n_trans] = (uint32_t)src;
    else st->sum += pr;
    m->n_trans++;
    return PROPER_OK;
}

/* One line of transitions: "SRC DST PROB [action]", or PRISM's -exportrows
 * "SRC PROB:DST PROB:DST ..." (a whole row; just "SRC" for a row without
 * entries). *count counts the entries against the header's t. */
static int proper__dtmc_tra_line(proper_dtmc *m, proper__dtmc_tra_state *st, const proper__dtmc_reader *r,
                                 const proper_dtmc_import_opts *o, uint64_t t, uint64_t *count, proper_error *err) {
    const char *p = r->text, *what = o->ctmc ? "rate" : "probability";
    uint64_t n = m->n_states, src, dst;
    double pr;
    int rc, rows;
    if ((rc = proper__dtmc_read_uint(r, &p, n - 1, &src, "source state", err))) return rc;
    rows = proper__dtmc_rows_entry_next(r, p) || proper__dtmc_skip_blanks(p, r->end) == r->end;
    if (rows) st->sum_repeats = 1;
    do {
        const char *at = proper__dtmc_skip_blanks(p, r->end), *entry = rows ? at : r->text;
        if (rows && at == r->end) break;
        if (rows) {
            if ((rc = proper__dtmc_read_rows_entry(r, &p, n, &pr, &dst, what, err))) return rc;
        } else {
            if ((rc = proper__dtmc_read_uint(r, &p, n - 1, &dst, "target state", err))) return rc;
            at = proper__dtmc_skip_blanks(p, r->end);
            if ((rc = proper__dtmc_read_real(r, &p, &pr, what, err))) return rc;
            p = proper__dtmc_skip_blanks(p, r->end);
            if (p < r->end && proper__dtmc_is_ident_start(*p)) { /* an action label, as PRISM writes them */
                while (p < r->end && proper__dtmc_is_ident_char(*p)) p++;
                st->sum_repeats = 1;
            }
        }
        if (*count == t)
            return proper__dtmc_reader_error(r, err, entry, PROPER_EPARSE,
                                             "more transitions than the %llu the header declares",
                                             (unsigned long long)t);
        if ((rc = proper__dtmc_check_file_prob(r, at, pr, o->row_sum_tol, err))) return rc;
        (*count)++;
        if ((rc = proper__dtmc_tra_add(m, st, r, entry, src, dst, pr, o->row_sum_tol, err))) return rc;
    } while (rows);
    return proper__dtmc_line_done(r, p, err);
}

static int proper__dtmc_parse_tra(proper_dtmc *m, proper__dtmc_reader *r, uint64_t size_hint,
                             const proper_dtmc_import_opts *opts, proper_error *err) {
    proper_dtmc_import_opts o;
    proper__dtmc_tra_state st;
    uint64_t n, t, lines = 0;
    const char *p;
    int rc;
    if (opts) o = *opts; else o = proper_dtmc_import_opts_default();
    proper_dtmc_init(m);
    memset(&st, 0, sizeof st);
    if ((rc = proper__dtmc_tra_preamble(r, &o, o.ctmc, err)) <= 0) {
        if (rc == 0) rc = proper_error_set(err, PROPER_EPARSE, r->name, r->line ? r->line : 1, 0,
                                           "empty file: expected the header \"STATES TRANSITIONS\"");
        return rc;
    }
    if (o.ctmc) o.row_sum_tol = INFINITY; /* rates: no bound above, rows not summed against 1 */
    m->kind = o.ctmc ? PROPER_DTMC_KIND_CTMC : PROPER_DTMC_KIND_DTMC;
    p = r->text;
    if ((rc = proper__dtmc_read_uint(r, &p, UINT64_MAX, &n, "number of states", err))) return rc;
    if (n > o.max_states || n > PROPER_DTMC_MAX_STATES)
        return proper__dtmc_reader_error(r, err, proper__dtmc_skip_blanks(r->text, r->end), PROPER_ELIMIT,
                                    "%llu states exceed the limit of %lu", (unsigned long long)n,
                                    (unsigned long)(o.max_states < PROPER_DTMC_MAX_STATES ? o.max_states
                                                                                         : PROPER_DTMC_MAX_STATES));
    if (n == 0) return proper__dtmc_reader_error(r, err, r->text, PROPER_EPARSE, "a model needs at least one state");
    if ((rc = proper__dtmc_read_uint(r, &p, UINT64_MAX, &t, "number of transitions", err))) return rc;
    p = proper__dtmc_skip_blanks(p, r->end);
    if (p < r->end && proper__dtmc_is_digit_ch(*p))
        return proper__dtmc_reader_error(r, err, p, PROPER_EUNSUPPORTED,
                                    "a third number in the header: this is an MDP .tra file; proper reads DTMCs");
    if ((rc = proper__dtmc_line_done(r, p, err))) return rc;
    m->n_states = (uint32_t)n;
    m->row = (uint64_t *)proper_calloc((size_t)n + 1, sizeof *m->row);
    if (!m->row) goto nomem;
    /* reserve what the header promises, bounded by what the input can hold
     * (an entry "0 0 1" or " 1:0" is at least 4 bytes) */
    if (proper__dtmc_tra_grow(m, &st, size_hint && t > size_hint / 4 + 1 ? size_hint / 4 + 1 : (t ? t : 1))) goto nomem;
    while ((rc = proper__dtmc_next_content_line(r, err)) == 1)
        if ((rc = proper__dtmc_tra_line(m, &st, r, &o, t, &lines, err))) {
            if (rc == PROPER_ENOMEM) goto nomem;
            goto fail;
        }
    if (rc < 0) goto fail;
    if (lines < t) {
        rc = proper_error_set(err, PROPER_EPARSE, r->name, r->line, 0,
                              "the header declares %llu transitions but the file has %llu", (unsigned long long)t,
                              (unsigned long long)lines);
        goto fail;
    }
    if (!st.srcs) {
        if ((rc = proper__dtmc_tra_close_rows(m, &st, r, (uint32_t)n, o.row_sum_tol, err))) goto fail;
    } else if ((rc = proper__dtmc_tra_sort(m, r, st.srcs, o.row_sum_tol, st.sum_repeats, err))) {
        goto fail;
    }
    PROPER_FREE(st.srcs);
    st.srcs = NULL;
    if (m->kind == PROPER_DTMC_KIND_DTMC) proper__dtmc_normalise_rows(m);
    if (m->n_trans && m->n_trans < st.cap) {
        uint32_t *c = (uint32_t *)PROPER_REALLOC(m->col, (size_t)m->n_trans * sizeof *c);
        double *pp2;
        if (c) m->col = c;
        pp2 = (double *)PROPER_REALLOC(m->prob, (size_t)m->n_trans * sizeof *pp2);
        if (pp2) m->prob = pp2;
    }
    if ((rc = proper__dtmc_fix_deadlocks(m, o.fix_deadlocks, err))) {
        if (err && r->name) {
            char msg[PROPER_ERROR_MESSAGE_MAX];
            memcpy(msg, err->message, sizeof msg);
            proper_error_set(err, rc, r->name, 0, 0, "%s", msg);
        }
        goto fail;
    }
    return PROPER_OK;
nomem:
    rc = proper_error_set(err, PROPER_ENOMEM, r->name, r->line, 0, "out of memory reading transitions");
fail:
    PROPER_FREE(st.srcs);
    proper_dtmc_free(m);
    return rc;
}

PROPER_API int proper_dtmc_parse_tra(proper_dtmc *m, const char *text, size_t len, const char *name,
                                     const proper_dtmc_import_opts *opts, proper_error *err) {
    proper__dtmc_reader r;
    proper_dtmc c;
    int rc;
    proper__dtmc_reader_mem(&r, text, len, name);
    if ((rc = proper__dtmc_parse_tra(&c, &r, len, opts, err))) return rc;
    proper_dtmc_free(m);
    *m = c;
    return PROPER_OK;
}

/* Open a file for reading; its size (0 if unknown) into *size. */
static FILE *proper__dtmc_open_read(const char *path, uint64_t *size, proper_error *err) {
    FILE *f = fopen(path, "rb");
    long end;
    *size = 0;
    if (!f) {
        proper_error_set(err, PROPER_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) == 0 && (end = ftell(f)) > 0) *size = (uint64_t)end;
    if (fseek(f, 0, SEEK_SET) != 0) {
        clearerr(f);
        rewind(f);
    }
    return f;
}

PROPER_API int proper_dtmc_read_tra(proper_dtmc *m, const char *path, const proper_dtmc_import_opts *opts,
                                    proper_error *err) {
    proper__dtmc_reader r;
    uint64_t size;
    int rc;
    proper_dtmc c;
    FILE *f = proper__dtmc_open_read(path, &size, err);
    if (!f) return PROPER_EIO;
    proper__dtmc_reader_file(&r, f, path);
    rc = proper__dtmc_parse_tra(&c, &r, size, opts, err);
    proper__dtmc_reader_free(&r);
    fclose(f);
    if (rc) return rc;
    proper_dtmc_free(m);
    *m = c;
    return PROPER_OK;
}

/* ---- .lab ---- */

typedef struct proper__dtmc_labdecl {
    uint64_t id;
    char *name;
    proper_bitset states;
} proper__dtmc_labdecl;

static void proper__dtmc_labdecls_free(proper__dtmc_labdecl *d, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        PROPER_FREE(d[i].name);
        proper_bitset_free(&d[i].states);
    }
    PROPER_FREE(d);
}

/* Header: ID="name" ID="name" ... */
static int proper__dtmc_lab_header(const proper__dtmc_reader *r, uint32_t n_states, proper__dtmc_labdecl **decls, size_t *n_decls,
                              proper_error *err) {
    const char *p = r->text;
    size_t cap = 0, i;
    int rc;
    for (;;) {
        uint64_t id;
        const char *q, *name_start;
        proper__dtmc_labdecl d;
        p = proper__dtmc_skip_blanks(p, r->end);
        if (p == r->end) break;
        q = p;
        while (q < r->end && proper__dtmc_is_digit_ch(*q)) q++;
        if (q == p) return proper__dtmc_reader_error(r, err, p, PROPER_EPARSE, "expected a label number");
        {
            const char *t = p;
            id = 0;
            for (; t < q; t++) {
                if (id > 100000000ULL) return proper__dtmc_reader_error(r, err, p, PROPER_ERANGE, "label number too large");
                id = id * 10 + (uint64_t)(*t - '0');
            }
        }
        if (q == r->end || *q != '=') return proper__dtmc_reader_error(r, err, q, PROPER_EPARSE, "expected '=' after a label number");
        q++;
        if (q == r->end || *q != '"') return proper__dtmc_reader_error(r, err, q, PROPER_EPARSE, "expected '\"' to start a label name");
        name_start = ++q;
        while (q < r->end && *q != '"') q++;
        if (q == r->end) return proper__dtmc_reader_error(r, err, name_start - 1, PROPER_EPARSE, "unterminated label name");
        for (i = 0; i < *n_decls; i++)
            if ((*decls)[i].id == id)
                return proper__dtmc_reader_error(r, err, p, PROPER_EPARSE, "label number %llu declared twice",
                                            (unsigned long long)id);
        d.id = id;
        d.name = (char *)PROPER_MALLOC((size_t)(q - name_start) + 1);
        if (!d.name) return proper__dtmc_reader_error(r, err, p, PROPER_ENOMEM, "out of memory");
        memcpy(d.name, name_start, (size_t)(q - name_start));
        d.name[q - name_start] = '\0';
        for (i = 0; i < *n_decls; i++)
            if (strcmp((*decls)[i].name, d.name) == 0) {
                rc = proper__dtmc_reader_error(r, err, name_start, PROPER_EPARSE, "label \"%s\" declared twice", d.name);
                PROPER_FREE(d.name);
                return rc;
            }
        proper_bitset_init(&d.states);
        if (proper_bitset_create(&d.states, n_states, NULL) || proper_reserve(decls, &cap, *n_decls + 1, sizeof **decls)) {
            PROPER_FREE(d.name);
            proper_bitset_free(&d.states);
            return proper__dtmc_reader_error(r, err, p, PROPER_ENOMEM, "out of memory");
        }
        (*decls)[(*n_decls)++] = d;
        p = q + 1;
        if (p < r->end && *p != ' ' && *p != '\t')
            return proper__dtmc_reader_error(r, err, p, PROPER_EPARSE, "expected a blank between labels");
    }
    return PROPER_OK;
}

/* Several initial states (PRISM's init...endinit): a uniform initial
 * distribution over them, as prism.h builds it, whose support is the
 * "init" label that results are taken over (a range, as PRISM reports). */
static double *proper__dtmc_lab_init_dist(const proper_bitset *init, uint32_t n_states, size_t count) {
    double *dist = (double *)proper_calloc(n_states, sizeof *dist);
    uint32_t s;
    if (!dist) return NULL;
    for (s = 0; s < n_states; s++)
        if (PROPER_BITSET_GET(init, s)) dist[s] = 1.0 / (double)count;
    return dist;
}

/* Apply the parsed labels to the model: init, deadlock, the rest stored. */
static int proper__dtmc_lab_apply(proper_dtmc *m, const proper__dtmc_reader *r, proper__dtmc_labdecl *d, size_t n,
                             proper_error *err) {
    size_t i, n_before = m->n_labels;
    double *dist = NULL;
    int rc;
    for (i = 0; i < n; i++) { /* check everything before changing anything */
        size_t c = proper_bitset_count(&d[i].states);
        if (proper_dtmc_find_label(m, d[i].name) >= 0)
            return proper_error_set(err, PROPER_EINVAL, r->name, 1, 0, "the model already has a label \"%s\"",
                                    d[i].name);
        if (strcmp(d[i].name, "init") != 0) continue;
        if (c == 0) return proper_error_set(err, PROPER_EPARSE, r->name, 1, 0, "the \"init\" label holds no state");
        if (c > 1 && !(dist = proper__dtmc_lab_init_dist(&d[i].states, m->n_states, c)))
            return proper_error_set(err, PROPER_ENOMEM, r->name, 1, 0, "out of memory");
    }
    for (i = 0; i < n; i++) { /* the labels first: only they can fail (out of memory) */
        if (proper__dtmc_is_builtin_label(d[i].name)) continue;
        if ((rc = proper_dtmc_add_label(m, d[i].name, &d[i].states, NULL, err))) {
            while (m->n_labels > n_before) { /* leave the model as it was */
                m->n_labels--;
                PROPER_FREE(m->labels[m->n_labels].name);
                proper_bitset_free(&m->labels[m->n_labels].states);
            }
            PROPER_FREE(dist);
            return proper_error_set(err, rc, r->name, 1, 0, "out of memory adding label \"%s\"", d[i].name);
        }
    }
    for (i = 0; i < n; i++) {
        if (strcmp(d[i].name, "init") == 0) {
            uint32_t s;
            for (s = 0; !PROPER_BITSET_GET(&d[i].states, s); s++) continue;
            m->init = s;
            PROPER_FREE(m->init_dist);
            m->init_dist = dist; /* NULL for one initial state */
        } else if (strcmp(d[i].name, "deadlock") == 0) {
            proper_bitset_free(&m->deadlock);
            m->deadlock = d[i].states;
            proper_bitset_init(&d[i].states);
        }
    }
    return PROPER_OK;
}

static int proper__dtmc_parse_lab(proper_dtmc *m, proper__dtmc_reader *r, proper_error *err) {
    proper__dtmc_labdecl *d = NULL;
    size_t n = 0, i;
    int rc;
    if (!m->n_states) return proper_error_set(err, PROPER_ESTATE, r->name, 0, 0, "labels for a model without states");
    if ((rc = proper__dtmc_next_content_line(r, err)) <= 0) {
        if (rc == 0) rc = proper_error_set(err, PROPER_EPARSE, r->name, 1, 0, "empty file: expected label declarations");
        return rc;
    }
    if ((rc = proper__dtmc_lab_header(r, m->n_states, &d, &n, err))) goto done;
    while ((rc = proper__dtmc_next_content_line(r, err)) == 1) {
        const char *p = r->text;
        uint64_t s;
        if ((rc = proper__dtmc_read_uint_colon(r, &p, m->n_states - 1, &s, err))) goto done;
        for (;;) {
            uint64_t id;
            const char *at;
            p = proper__dtmc_skip_blanks(p, r->end);
            if (p == r->end) break;
            at = p;
            if ((rc = proper__dtmc_read_uint(r, &p, 100000000ULL, &id, "label number", err))) goto done;
            for (i = 0; i < n && d[i].id != id; i++) continue;
            if (i == n) {
                rc = proper__dtmc_reader_error(r, err, at, PROPER_EUNDEFINED, "label number %llu is not declared",
                                          (unsigned long long)id);
                goto done;
            }
            proper_bitset_set(&d[i].states, (size_t)s);
        }
    }
    if (rc < 0) goto done;
    rc = proper__dtmc_lab_apply(m, r, d, n, err);
done:
    proper__dtmc_labdecls_free(d, n);
    return rc;
}

PROPER_API int proper_dtmc_parse_lab(proper_dtmc *m, const char *text, size_t len, const char *name,
                                     proper_error *err) {
    proper__dtmc_reader r;
    proper__dtmc_reader_mem(&r, text, len, name);
    return proper__dtmc_parse_lab(m, &r, err);
}

/* Open path and run a reader's parser over it (errors name the path). */
static int proper__dtmc_read_file_with(proper_dtmc *m, const char *path,
                                       int (*parse)(proper_dtmc *, proper__dtmc_reader *, proper_error *),
                                       proper_error *err) {
    proper__dtmc_reader r;
    uint64_t size;
    int rc;
    FILE *f = proper__dtmc_open_read(path, &size, err);
    if (!f) return PROPER_EIO;
    proper__dtmc_reader_file(&r, f, path);
    rc = parse(m, &r, err);
    proper__dtmc_reader_free(&r);
    fclose(f);
    return rc;
}

PROPER_API int proper_dtmc_read_lab(proper_dtmc *m, const char *path, proper_error *err) {
    return proper__dtmc_read_file_with(m, path, proper__dtmc_parse_lab, err);
}

/* ---- .sta ---- */

/* The header "(x,y,b)": the names, comma-separated, into a fresh array. */
static int proper__dtmc_sta_header(proper__dtmc_reader *r, char ***names, size_t *n, proper_error *err) {
    const char *p = proper__dtmc_skip_blanks(r->text, r->end);
    size_t cap = 0;
    *names = NULL;
    *n = 0;
    if (p == r->end || *p != '(')
        return proper__dtmc_reader_error(r, err, p, PROPER_EPARSE, "expected '(' and the variable names, as in (x,y)");
    p = proper__dtmc_skip_blanks(p + 1, r->end);
    if (p < r->end && *p == ')') return proper__dtmc_line_done(r, p + 1, err); /* no variables */
    for (;;) {
        const char *a = p;
        char *name;
        size_t i;
        if (p == r->end || !proper__dtmc_is_ident_start(*p))
            return proper__dtmc_reader_error(r, err, p, PROPER_EPARSE, "expected a variable name");
        while (p < r->end && proper__dtmc_is_ident_char(*p)) p++;
        for (i = 0; i < *n; i++)
            if (strlen((*names)[i]) == (size_t)(p - a) && memcmp((*names)[i], a, (size_t)(p - a)) == 0)
                return proper__dtmc_reader_error(r, err, a, PROPER_EPARSE, "variable '%s' is named twice", (*names)[i]);
        if (proper_reserve(names, &cap, *n + 1, sizeof **names) || !(name = proper_strndup(a, (size_t)(p - a))))
            return proper__dtmc_reader_error(r, err, a, PROPER_ENOMEM, "out of memory");
        (*names)[(*n)++] = name;
        p = proper__dtmc_skip_blanks(p, r->end);
        if (p < r->end && *p == ')') return proper__dtmc_line_done(r, p + 1, err);
        if (p == r->end || *p != ',')
            return proper__dtmc_reader_error(r, err, p, PROPER_EPARSE, "expected ',' or ')' after a variable name");
        p = proper__dtmc_skip_blanks(p + 1, r->end);
    }
}

/* One value of a state line: an int32 or true/false. *kind records the
 * variable's kind at its first value (1 int, 2 bool) and must stay. */
static int proper__dtmc_sta_value(const proper__dtmc_reader *r, const char **pp, const char *var, unsigned char *kind,
                                  int32_t *out, proper_error *err) {
    const char *p = proper__dtmc_skip_blanks(*pp, r->end), *a = p;
    unsigned char k;
    if ((size_t)(r->end - p) >= 4 && memcmp(p, "true", 4) == 0) {
        k = 2, *out = 1, p += 4;
    } else if ((size_t)(r->end - p) >= 5 && memcmp(p, "false", 5) == 0) {
        k = 2, *out = 0, p += 5;
    } else {
        uint64_t v;
        int neg = p < r->end && *p == '-', rc;
        p += neg;
        if (p == r->end || !proper__dtmc_is_digit_ch(*p))
            return proper__dtmc_reader_error(r, err, a, PROPER_EPARSE,
                                             "expected a value of '%s': an integer or true/false", var);
        rc = proper__dtmc_scan_uint(r, &p, neg ? 2147483648ULL : 2147483647ULL, &v, "value (a 32-bit integer)", err);
        if (rc) return rc;
        k = 1, *out = neg ? (int32_t)(-(int64_t)v) : (int32_t)v;
    }
    if (p < r->end && (proper__dtmc_is_ident_char(*p) || *p == '.'))
        return proper__dtmc_reader_error(r, err, a, PROPER_EPARSE,
                                         "expected a value of '%s': an integer or true/false", var);
    if (*kind && *kind != k)
        return proper__dtmc_reader_error(r, err, a, PROPER_EPARSE, "variable '%s' was %s in earlier states", var,
                                         *kind == 2 ? "a boolean" : "an integer");
    *kind = k;
    *pp = p;
    return PROPER_OK;
}

/* A state line "STATE:(v1,...,vn)": the state into *state, the values
 * into row[0..n). */
static int proper__dtmc_sta_line(const proper__dtmc_reader *r, const proper_dtmc *m, char **names, size_t n,
                                 unsigned char *kind, unsigned char *seen, uint32_t *state, int32_t *row,
                                 proper_error *err) {
    const char *p = r->text, *at = proper__dtmc_skip_blanks(r->text, r->end);
    uint64_t s;
    size_t v;
    int rc;
    if ((rc = proper__dtmc_read_uint_colon(r, &p, m->n_states - 1, &s, err))) return rc;
    if (seen[s]) return proper__dtmc_reader_error(r, err, at, PROPER_EPARSE, "state %llu is listed twice", (unsigned long long)s);
    seen[s] = 1;
    *state = (uint32_t)s;
    p = proper__dtmc_skip_blanks(p, r->end);
    if (p == r->end || *p != '(') return proper__dtmc_reader_error(r, err, p, PROPER_EPARSE, "expected '(' after the state number");
    p++;
    for (v = 0; v < n; v++) {
        if ((rc = proper__dtmc_sta_value(r, &p, names[v], &kind[v], &row[v], err))) return rc;
        p = proper__dtmc_skip_blanks(p, r->end);
        if (p == r->end || *p != (v + 1 < n ? ',' : ')'))
            return proper__dtmc_reader_error(r, err, p, PROPER_EPARSE, v + 1 < n ? "expected ',' and %zu more values"
                                                                                : "expected ')' after %zu values",
                                             v + 1 < n ? n - v - 1 : n);
        p++;
    }
    if (n == 0) {
        p = proper__dtmc_skip_blanks(p, r->end);
        if (p == r->end || *p != ')') return proper__dtmc_reader_error(r, err, p, PROPER_EPARSE, "expected ')': no variables");
        p++;
    }
    return proper__dtmc_line_done(r, p, err);
}

/* The rows of a .sta as read (rows[i * n ..], of state order[i]) in state
 * order, as proper_dtmc_set_valuations takes them. Reading in file order
 * keeps memory in proportion to the file: a header of a million names over
 * a large model allocates nothing until its values are there. */
static int32_t *proper__dtmc_sta_by_state(const int32_t *rows, const uint32_t *order, uint32_t n_states, size_t n) {
    int32_t *vals = (int32_t *)proper_calloc(n ? n * n_states : 1, sizeof *vals);
    uint32_t i;
    if (!vals) return NULL;
    for (i = 0; i < n_states; i++) memcpy(vals + (size_t)order[i] * n, rows + (size_t)i * n, n * sizeof *vals);
    return vals;
}

static int proper__dtmc_parse_sta(proper_dtmc *m, proper__dtmc_reader *r, proper_error *err) {
    char **names = NULL;
    size_t n = 0, v, rows_cap = 0, order_cap = 0;
    unsigned char *kind = NULL, *seen = NULL;
    int32_t *rows = NULL, *vals = NULL;
    uint32_t *order = NULL, count = 0, s;
    int rc;
    if (!m->n_states) return proper_error_set(err, PROPER_ESTATE, r->name, 0, 0, "valuations for a model without states");
    if ((rc = proper__dtmc_next_content_line(r, err)) <= 0) {
        if (rc == 0) rc = proper_error_set(err, PROPER_EPARSE, r->name, 1, 0, "empty file: expected the variable names, as in (x,y)");
        return rc;
    }
    if ((rc = proper__dtmc_sta_header(r, &names, &n, err))) goto done;
    if (!(kind = (unsigned char *)proper_calloc(n + 1, 1)) || !(seen = (unsigned char *)proper_calloc(m->n_states, 1)))
        goto nomem;
    while ((rc = proper__dtmc_next_content_line(r, err)) == 1) {
        if (count == m->n_states) { /* the line's state number is out of range or repeated */
            uint32_t ignored;
            rc = proper__dtmc_sta_line(r, m, names, 0, kind, seen, &ignored, NULL, err);
            goto done;
        }
        if (proper_reserve(&rows, &rows_cap, ((size_t)count + 1) * (n ? n : 1), sizeof *rows) ||
            proper_reserve(&order, &order_cap, (size_t)count + 1, sizeof *order))
            goto nomem;
        if ((rc = proper__dtmc_sta_line(r, m, names, n, kind, seen, &order[count], rows + (size_t)count * n, err)))
            goto done;
        count++;
    }
    if (rc < 0) goto done;
    for (s = 0; s < m->n_states && seen[s]; s++) continue;
    if (s < m->n_states) {
        rc = proper_error_set(err, PROPER_EPARSE, r->name, 0, 0, "state %u has no valuation (the model has %u states)",
                              (unsigned)s, (unsigned)m->n_states);
        goto done;
    }
    if (!(vals = proper__dtmc_sta_by_state(rows, order, m->n_states, n))) goto nomem;
    for (v = 0; v < n; v++) kind[v] = kind[v] == 2;
    rc = proper_dtmc_set_valuations(m, (const char *const *)names, kind, n, vals, err);
    goto done;
nomem:
    rc = proper_error_set(err, PROPER_ENOMEM, r->name, r->line, 0, "out of memory");
done:
    proper__dtmc_free_names(names, n);
    PROPER_FREE(rows);
    PROPER_FREE(order);
    PROPER_FREE(vals);
    PROPER_FREE(kind);
    PROPER_FREE(seen);
    return rc;
}

PROPER_API int proper_dtmc_parse_sta(proper_dtmc *m, const char *text, size_t len, const char *name,
                                     proper_error *err) {
    proper__dtmc_reader r;
    proper__dtmc_reader_mem(&r, text, len, name);
    return proper__dtmc_parse_sta(m, &r, err);
}

PROPER_API int proper_dtmc_read_sta(proper_dtmc *m, const char *path, proper_error *err) {
    return proper__dtmc_read_file_with(m, path, proper__dtmc_parse_sta, err);
}

/* ---- .srew / .trew ---- */

/* Skip comment and blank lines before a reward file's header, picking up
 * the name from PRISM's comment `# Reward structure "NAME"` (`# Reward
 * structure` alone: unnamed); *named says whether that comment was there.
 * Returns 1 with the header line current, 0 at end of input, <0 on error. */
static int proper__dtmc_rew_preamble(proper__dtmc_reader *r, char *name, size_t name_size, int *named,
                                     proper_error *err) {
    static const char tag[] = "# Reward structure";
    int rc;
    name[0] = '\0';
    *named = 0;
    while ((rc = proper__dtmc_reader_next(r)) == 1) {
        const char *p = proper__dtmc_skip_blanks(r->text, r->end);
        size_t n = (size_t)(r->end - p);
        if (p == r->end) continue;
        if (*p != '#') return 1;
        if (n >= sizeof tag - 1 && memcmp(p, tag, sizeof tag - 1) == 0) {
            const char *a = proper__dtmc_skip_blanks(p + sizeof tag - 1, r->end), *b;
            *named = 1;
            if (a == r->end || *a != '"') continue;
            a++;
            b = (const char *)memchr(a, '"', (size_t)(r->end - a));
            if (b && (size_t)(b - a) < name_size) {
                memcpy(name, a, (size_t)(b - a));
                name[b - a] = '\0';
            }
        }
    }
    if (rc < 0) return proper_error_set(err, rc, r->name, r->line, 0, "read error");
    return 0;
}

/* Header "STATES COUNT" of a reward file: STATES must match the model. */
static int proper__dtmc_rew_header(proper__dtmc_reader *r, const proper_dtmc *m, uint64_t max_count, uint64_t *count,
                              char *name, size_t name_size, int *named, proper_error *err) {
    const char *p;
    uint64_t n;
    int rc;
    if (!m->n_states) return proper_error_set(err, PROPER_ESTATE, r->name, 0, 0, "rewards for a model without states");
    rc = proper__dtmc_rew_preamble(r, name, name_size, named, err);
    if (rc <= 0) {
        if (rc == 0) rc = proper_error_set(err, PROPER_EPARSE, r->name, r->line ? r->line : 1, 0,
                                           "empty file: expected the header line");
        return rc;
    }
    p = r->text;
    if ((rc = proper__dtmc_read_uint(r, &p, UINT64_MAX, &n, "number of states", err))) return rc;
    if (n != m->n_states)
        return proper__dtmc_reader_error(r, err, proper__dtmc_skip_blanks(r->text, r->end), PROPER_EINVAL,
                                    "%llu states, but the model has %u", (unsigned long long)n, (unsigned)m->n_states);
    if ((rc = proper__dtmc_read_uint(r, &p, max_count, count, "number of entries", err))) return rc;
    return proper__dtmc_line_done(r, p, err);
}

/* Attach parsed reward values (state or transition array) to the named
 * structure, creating it if needed. reward_name NULL: the name the file
 * gives (file_name); NULL too (a file without PRISM's comment, as
 * -exportrows and -noexportheaders write them): the last structure when it
 * lacks this kind of rewards (the other half of a .srew/.trew pair), else
 * a new unnamed one. */
static int proper__dtmc_rew_attach(proper_dtmc *m, const char *reward_name, const char *file_name, double **values,
                              int is_trans, const char *path, proper_error *err) {
    const char *nm = reward_name ? reward_name : file_name ? file_name : "";
    long idx = proper_dtmc_find_reward(m, nm);
    size_t at;
    double **slot;
    int rc;
    if (!reward_name && !file_name && m->n_rewards > 0) {
        const proper_dtmc_reward *last = &m->rewards[m->n_rewards - 1];
        if (!(is_trans ? last->trans : last->state)) {
            idx = (long)m->n_rewards - 1;
            nm = last->name ? last->name : "";
        }
    }
    if (idx < 0) {
        if ((rc = proper_dtmc_add_reward(m, nm, 0, 0, &at, err))) return rc;
        idx = (long)at;
    }
    slot = is_trans ? &m->rewards[idx].trans : &m->rewards[idx].state;
    if (*slot)
        return proper_error_set(err, PROPER_EINVAL, path, 0, 0, "reward structure \"%s\" already has %s rewards", nm,
                                is_trans ? "transition" : "state");
    *slot = *values;
    *values = NULL;
    return PROPER_OK;
}

static int proper__dtmc_parse_srew(proper_dtmc *m, proper__dtmc_reader *r, const char *reward_name, proper_error *err) {
    char file_name[128];
    uint64_t count, lines = 0;
    double *v = NULL;
    proper_bitset seen;
    int rc, named;
    proper_bitset_init(&seen);
    if ((rc = proper__dtmc_rew_header(r, m, m->n_states, &count, file_name, sizeof file_name, &named, err))) return rc;
    v = (double *)proper_calloc(m->n_states, sizeof *v);
    if (!v || proper_bitset_create(&seen, m->n_states, NULL)) {
        rc = proper_error_set(err, PROPER_ENOMEM, r->name, r->line, 0, "out of memory");
        goto done;
    }
    while ((rc = proper__dtmc_next_content_line(r, err)) == 1) {
        const char *p = r->text;
        uint64_t s;
        double val;
        if (lines == count) {
            rc = proper__dtmc_reader_error(r, err, p, PROPER_EPARSE, "more entries than the %llu the header declares",
                                      (unsigned long long)count);
            goto done;
        }
        if ((rc = proper__dtmc_read_uint(r, &p, m->n_states - 1, &s, "state", err))) goto done;
        if ((rc = proper__dtmc_read_real(r, &p, &val, "reward", err)) || (rc = proper__dtmc_line_done(r, p, err))) goto done;
        if (PROPER_BITSET_GET(&seen, s)) {
            rc = proper__dtmc_reader_error(r, err, r->text, PROPER_EPARSE, "state %llu is listed twice", (unsigned long long)s);
            goto done;
        }
        proper_bitset_set(&seen, (size_t)s);
        v[s] = val;
        lines++;
    }
    if (rc < 0) goto done;
    if (lines < count) {
        rc = proper_error_set(err, PROPER_EPARSE, r->name, r->line, 0, "the header declares %llu entries, the file has %llu",
                              (unsigned long long)count, (unsigned long long)lines);
        goto done;
    }
    rc = proper__dtmc_rew_attach(m, reward_name, named ? file_name : NULL, &v, 0, r->name, err);
done:
    PROPER_FREE(v);
    proper_bitset_free(&seen);
    return rc;
}

/* Store the reward of transition s -> d (its entry at `at` of the current
 * line): the transition must exist and be listed once. */
static int proper__dtmc_trew_set(const proper_dtmc *m, const proper__dtmc_reader *r, const char *at, uint64_t s,
                                 uint64_t d, double val, double *v, unsigned char *seen, proper_error *err) {
    long long k = proper__dtmc_find_trans(m, (uint32_t)s, (uint32_t)d);
    if (k < 0)
        return proper__dtmc_reader_error(r, err, at, PROPER_EINVAL, "the model has no transition %llu -> %llu",
                                         (unsigned long long)s, (unsigned long long)d);
    if (seen[k])
        return proper__dtmc_reader_error(r, err, at, PROPER_EPARSE, "transition %llu -> %llu is listed twice",
                                         (unsigned long long)s, (unsigned long long)d);
    seen[k] = 1;
    v[k] = val;
    return PROPER_OK;
}

/* One line of a .trew: "SRC DST REWARD", or PRISM's -exportrows
 * "SRC REWARD:DST REWARD:DST ..." (just "SRC" for a state without
 * entries). *count counts the entries against the header's. */
static int proper__dtmc_trew_line(const proper_dtmc *m, const proper__dtmc_reader *r, uint64_t count,
                                  uint64_t *lines, double *v, unsigned char *seen, proper_error *err) {
    const char *p = r->text;
    uint64_t s, d, n = m->n_states;
    double val;
    int rc, rows;
    if ((rc = proper__dtmc_read_uint(r, &p, n - 1, &s, "source state", err))) return rc;
    rows = proper__dtmc_rows_entry_next(r, p) || proper__dtmc_skip_blanks(p, r->end) == r->end;
    do {
        const char *at = proper__dtmc_skip_blanks(p, r->end), *entry = rows ? at : r->text;
        if (rows && at == r->end) break;
        if (rows) rc = proper__dtmc_read_rows_entry(r, &p, n, &val, &d, "reward", err);
        else if (!(rc = proper__dtmc_read_uint(r, &p, n - 1, &d, "target state", err)))
            rc = proper__dtmc_read_real(r, &p, &val, "reward", err);
        if (rc) return rc;
        if (*lines == count)
            return proper__dtmc_reader_error(r, err, entry, PROPER_EPARSE,
                                             "more entries than the %llu the header declares",
                                             (unsigned long long)count);
        if ((rc = proper__dtmc_trew_set(m, r, entry, s, d, val, v, seen, err))) return rc;
        (*lines)++;
    } while (rows);
    return proper__dtmc_line_done(r, p, err);
}

static int proper__dtmc_parse_trew(proper_dtmc *m, proper__dtmc_reader *r, const char *reward_name, proper_error *err) {
    char file_name[128];
    uint64_t count, lines = 0;
    double *v = NULL;
    unsigned char *seen = NULL;
    int rc, named;
    if ((rc = proper__dtmc_rew_header(r, m, m->n_trans, &count, file_name, sizeof file_name, &named, err))) return rc;
    v = (double *)proper_calloc((size_t)(m->n_trans ? m->n_trans : 1), sizeof *v);
    seen = (unsigned char *)proper_calloc((size_t)(m->n_trans ? m->n_trans : 1), 1);
    if (!v || !seen) {
        rc = proper_error_set(err, PROPER_ENOMEM, r->name, r->line, 0, "out of memory");
        goto done;
    }
    while ((rc = proper__dtmc_next_content_line(r, err)) == 1)
        if ((rc = proper__dtmc_trew_line(m, r, count, &lines, v, seen, err))) goto done;
    if (rc < 0) goto done;
    if (lines < count) {
        rc = proper_error_set(err, PROPER_EPARSE, r->name, r->line, 0, "the header declares %llu entries, the file has %llu",
                              (unsigned long long)count, (unsigned long long)lines);
        goto done;
    }
    rc = proper__dtmc_rew_attach(m, reward_name, named ? file_name : NULL, &v, 1, r->name, err);
done:
    PROPER_FREE(v);
    PROPER_FREE(seen);
    return rc;
}

PROPER_API int proper_dtmc_parse_srew(proper_dtmc *m, const char *text, size_t len, const char *name,
                                      const char *reward_name, proper_error *err) {
    proper__dtmc_reader r;
    proper__dtmc_reader_mem(&r, text, len, name);
    return proper__dtmc_parse_srew(m, &r, reward_name, err);
}

PROPER_API int proper_dtmc_parse_trew(proper_dtmc *m, const char *text, size_t len, const char *name,
                                      const char *reward_name, proper_error *err) {
    proper__dtmc_reader r;
    proper__dtmc_reader_mem(&r, text, len, name);
    return proper__dtmc_parse_trew(m, &r, reward_name, err);
}

static int proper__dtmc_read_rew_file(proper_dtmc *m, const char *path, const char *reward_name, int is_trans,
                                 proper_error *err) {
    proper__dtmc_reader r;
    uint64_t size;
    int rc;
    FILE *f = proper__dtmc_open_read(path, &size, err);
    if (!f) return PROPER_EIO;
    proper__dtmc_reader_file(&r, f, path);
    rc = is_trans ? proper__dtmc_parse_trew(m, &r, reward_name, err) : proper__dtmc_parse_srew(m, &r, reward_name, err);
    proper__dtmc_reader_free(&r);
    fclose(f);
    return rc;
}

PROPER_API int proper_dtmc_read_srew(proper_dtmc *m, const char *path, const char *reward_name,
                                     proper_error *err) {
    return proper__dtmc_read_rew_file(m, path, reward_name, 0, err);
}

PROPER_API int proper_dtmc_read_trew(proper_dtmc *m, const char *path, const char *reward_name,
                                     proper_error *err) {
    return proper__dtmc_read_rew_file(m, path, reward_name, 1, err);
}

/* ---- export ------------------------------------------------------------- */

static int proper__dtmc_write_status(FILE *f, const char *what, proper_error *err) {
    if (ferror(f)) return proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write error in %s", what);
    return PROPER_OK;
}

PROPER_API int proper_dtmc_write_tra(const proper_dtmc *m, FILE *f, proper_error *err) {
    uint32_t s;
    uint64_t k;
    char num[PROPER_DOUBLE_CHARS];
    /* rates say so as PRISM's -exportmodel does, so the file reads back as a CTMC */
    if (m->kind == PROPER_DTMC_KIND_CTMC) fputs("# Transitions (CTMC)\n", f);
    fprintf(f, "%u %llu\n", (unsigned)m->n_states, (unsigned long long)m->n_trans);
    for (s = 0; s < m->n_states; s++)
        for (k = m->row[s]; k < m->row[s + 1]; k++)
            fprintf(f, "%u %u %s\n", (unsigned)s, (unsigned)m->col[k], proper_format_double(num, m->prob[k]));
    return proper__dtmc_write_status(f, ".tra", err);
}

PROPER_API int proper_dtmc_write_lab(const proper_dtmc *m, FILE *f, proper_error *err) {
    uint32_t s;
    size_t i;
    int has_dead = m->deadlock.n == m->n_states && m->n_states;
    fprintf(f, "0=\"init\" 1=\"deadlock\"");
    for (i = 0; i < m->n_labels; i++) fprintf(f, " %zu=\"%s\"", i + 2, m->labels[i].name);
    fputc('\n', f);
    for (s = 0; s < m->n_states; s++) {
        int any = 0;
        int is_init = m->init_dist ? m->init_dist[s] > 0.0 : s == m->init;
        if (is_init) { fprintf(f, "%u: 0", (unsigned)s); any = 1; }
        if (has_dead && PROPER_BITSET_GET(&m->deadlock, s)) {
            fprintf(f, any ? " 1" : "%u: 1", (unsigned)s);
            any = 1;
        }
        for (i = 0; i < m->n_labels; i++)
            if (PROPER_BITSET_GET(&m->labels[i].states, s)) {
                if (!any) fprintf(f, "%u:", (unsigned)s);
                fprintf(f, " %zu", i + 2);
                any = 1;
            }
        if (any) fputc('\n', f);
    }
    return proper__dtmc_write_status(f, ".lab", err);
}

static void proper__dtmc_rew_comment(const proper_dtmc_reward *r, const char *kind, FILE *f) {
    fprintf(f, "# Reward structure");
    if (r->name[0]) fprintf(f, " \"%s\"", r->name);
    fprintf(f, "\n# %s rewards\n", kind);
}

PROPER_API int proper_dtmc_write_srew(const proper_dtmc *m, size_t r, FILE *f, proper_error *err) {
    const proper_dtmc_reward *rw;
    uint32_t s, nz = 0;
    char num[PROPER_DOUBLE_CHARS];
    if (r >= m->n_rewards) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no reward structure %zu", r);
    rw = &m->rewards[r];
    if (rw->state)
        for (s = 0; s < m->n_states; s++) nz += rw->state[s] != 0.0;
    proper__dtmc_rew_comment(rw, "State", f);
    fprintf(f, "%u %u\n", (unsigned)m->n_states, (unsigned)nz);
    if (rw->state)
        for (s = 0; s < m->n_states; s++)
            if (rw->state[s] != 0.0) fprintf(f, "%u %s\n", (unsigned)s, proper_format_double(num, rw->state[s]));
    return proper__dtmc_write_status(f, ".srew", err);
}

PROPER_API int proper_dtmc_write_trew(const proper_dtmc *m, size_t r, FILE *f, proper_error *err) {
    const proper_dtmc_reward *rw;
    uint32_t s;
    uint64_t k, nz = 0;
    char num[PROPER_DOUBLE_CHARS];
    if (r >= m->n_rewards) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no reward structure %zu", r);
    rw = &m->rewards[r];
    if (rw->trans)
        for (k = 0; k < m->n_trans; k++) nz += rw->trans[k] != 0.0;
    proper__dtmc_rew_comment(rw, "Transition", f);
    fprintf(f, "%u %llu\n", (unsigned)m->n_states, (unsigned long long)nz);
    if (rw->trans)
        for (s = 0; s < m->n_states; s++)
            for (k = m->row[s]; k < m->row[s + 1]; k++)
                if (rw->trans[k] != 0.0)
                    fprintf(f, "%u %u %s\n", (unsigned)s, (unsigned)m->col[k], proper_format_double(num, rw->trans[k]));
    return proper__dtmc_write_status(f, ".trew", err);
}

/* One variable's value as PRISM prints it. */
static void proper__dtmc_write_value(const proper_dtmc *m, uint32_t s, size_t v, FILE *f) {
    int32_t x = m->vals[(size_t)s * m->n_vars + v];
    if (m->var_is_bool && m->var_is_bool[v]) fputs(x ? "true" : "false", f);
    else fprintf(f, "%ld", (long)x);
}

PROPER_API int proper_dtmc_write_sta(const proper_dtmc *m, FILE *f, proper_error *err) {
    uint32_t s;
    size_t v;
    if (!m->vals || !m->n_vars)
        return proper_error_set(err, PROPER_ESTATE, NULL, 0, 0, "the model has no variable valuations to export");
    fputc('(', f);
    for (v = 0; v < m->n_vars; v++) fprintf(f, v ? ",%s" : "%s", m->var_names[v]);
    fputs(")\n", f);
    for (s = 0; s < m->n_states; s++) {
        fprintf(f, "%u:(", (unsigned)s);
        for (v = 0; v < m->n_vars; v++) {
            if (v) fputc(',', f);
            proper__dtmc_write_value(m, s, v, f);
        }
        fputs(")\n", f);
    }
    return proper__dtmc_write_status(f, ".sta", err);
}

typedef int (*proper__dtmc_writer_fn)(const proper_dtmc *m, size_t r, FILE *f, proper_error *err);

/* Open path, run the writer, close; errors name the path. */
/* Write with fn (reward structure r) or, when fn is NULL, with write. */
static int proper__dtmc_export_to(const proper_dtmc *m, const char *path, proper__dtmc_writer_fn fn,
                                  proper_dtmc_writer *write, size_t r, proper_error *err) {
    FILE *f = fopen(path, "wb");
    int rc;
    if (!f) return proper_error_set(err, PROPER_EIO, path, 0, 0, "cannot create: %s", strerror(errno));
    rc = fn ? fn(m, r, f, err) : write(m, f, err);
    if (fclose(f) != 0 && !rc) rc = proper_error_set(err, PROPER_EIO, path, 0, 0, "write error: %s", strerror(errno));
    if (rc && err && !err->file[0]) {
        char msg[PROPER_ERROR_MESSAGE_MAX];
        memcpy(msg, err->message, sizeof msg);
        proper_error_set(err, rc, path, 0, 0, "%s", msg);
    }
    return rc;
}

PROPER_API int proper_dtmc_write_file(const proper_dtmc *m, proper_dtmc_writer *write, const char *path,
                                      proper_error *err) {
    return proper__dtmc_export_to(m, path, NULL, write, 0, err);
}

PROPER_API int proper_dtmc_write_explicit_files(const proper_dtmc *m, const char *prefix, proper_error *err) {
    size_t n = strlen(prefix), i;
    char *path = (char *)PROPER_MALLOC(n + 32);
    int rc;
    if (!path) return proper__dtmc_nomem(err);
#define PROPER__EXPORT(suffix, fn, write, r)                                   \
    do {                                                                       \
        memcpy(path, prefix, n);                                               \
        strcpy(path + n, suffix);                                              \
        if ((rc = proper__dtmc_export_to(m, path, fn, write, r, err))) goto done; \
    } while (0)
    PROPER__EXPORT(".tra", NULL, proper_dtmc_write_tra, 0);
    PROPER__EXPORT(".lab", NULL, proper_dtmc_write_lab, 0);
    if (m->vals && m->n_vars) PROPER__EXPORT(".sta", NULL, proper_dtmc_write_sta, 0);
    for (i = 0; i < m->n_rewards; i++) {
        char suffix[32];
        if (m->n_rewards == 1) suffix[0] = '\0';
        else snprintf(suffix, sizeof suffix, "%zu", i + 1);
        if (m->rewards[i].state || !m->rewards[i].trans) {
            strcat(suffix, ".srew");
            PROPER__EXPORT(suffix, proper_dtmc_write_srew, NULL, i);
            suffix[strlen(suffix) - 5] = '\0';
        }
        if (m->rewards[i].trans) {
            strcat(suffix, ".trew");
            PROPER__EXPORT(suffix, proper_dtmc_write_trew, NULL, i);
        }
    }
#undef PROPER__EXPORT
    rc = PROPER_OK;
done:
    PROPER_FREE(path);
    return rc;
}

/* Storm's DRN names a reward model by one token: ours, or reward<i>. */
static void proper__dtmc_drn_reward_name(const proper_dtmc *m, size_t i, char *buf, size_t size) {
    if (m->rewards[i].name[0]) snprintf(buf, size, "%s", m->rewards[i].name);
    else snprintf(buf, size, "reward%zu", i + 1);
}

static int proper__dtmc_drn_label(const char *name, FILE *f, proper_error *err) {
    const char *c;
    int space = 0;
    for (c = name; *c; c++) {
        if (*c == '"')
            return proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0,
                                    "label \"%s\": DRN cannot hold a quote in a label name", name);
        if (*c == ' ' || *c == '\t') space = 1;
    }
    fprintf(f, space ? " \"%s\"" : " %s", name);
    return PROPER_OK;
}

PROPER_API int proper_dtmc_write_drn(const proper_dtmc *m, FILE *f, proper_error *err) {
    uint32_t s;
    uint64_t k;
    size_t i;
    char num[PROPER_DOUBLE_CHARS], name[256];
    int rc, has_dead = m->deadlock.n == m->n_states && m->n_states;
    fprintf(f, "// Exported by proper %s\n", PROPER_VERSION_STRING);
    if (m->n_params) {
        fprintf(f, "// Parameters instantiated:");
        for (i = 0; i < m->n_params; i++)
            fprintf(f, " %s=%s", m->param_names[i], proper_format_double(num, m->param_values[i]));
        fputc('\n', f);
    }
    fprintf(f, "@type: %s\n@parameters\n\n@reward_models\n", m->kind == PROPER_DTMC_KIND_CTMC ? "CTMC" : "DTMC");
    for (i = 0; i < m->n_rewards; i++) {
        proper__dtmc_drn_reward_name(m, i, name, sizeof name);
        fprintf(f, "%s ", name);
    }
    fprintf(f, "\n@nr_states\n%u\n@nr_choices\n%u\n@model\n", (unsigned)m->n_states, (unsigned)m->n_states);
    for (s = 0; s < m->n_states; s++) {
        fprintf(f, "state %u", (unsigned)s);
        if (m->n_rewards) {
            fputs(" [", f);
            for (i = 0; i < m->n_rewards; i++)
                fprintf(f, "%s%s", i ? ", " : "",
                        proper_format_double(num, m->rewards[i].state ? m->rewards[i].state[s] : 0.0));
            fputc(']', f);
        }
        if (m->init_dist ? m->init_dist[s] > 0.0 : s == m->init) fputs(" init", f);
        if (has_dead && PROPER_BITSET_GET(&m->deadlock, s)) fputs(" deadlock", f);
        for (i = 0; i < m->n_labels; i++)
            if (PROPER_BITSET_GET(&m->labels[i].states, s) && (rc = proper__dtmc_drn_label(m->labels[i].name, f, err)))
                return rc;
        fputc('\n', f);
        if (m->vals && m->n_vars) {
            fputs("//[", f);
            for (i = 0; i < m->n_vars; i++) {
                fprintf(f, "%s%s=", i ? " & " : "", m->var_names[i]);
                proper__dtmc_write_value(m, s, i, f);
            }
            fputs("]\n", f);
        }
        fputs("\taction 0", f);
        if (m->n_rewards) {
            /* transition rewards become the action's expected reward */
            fputs(" [", f);
            for (i = 0; i < m->n_rewards; i++) {
                double v = 0.0;
                if (m->rewards[i].trans)
                    for (k = m->row[s]; k < m->row[s + 1]; k++) v += m->prob[k] * m->rewards[i].trans[k];
                fprintf(f, "%s%s", i ? ", " : "", proper_format_double(num, v));
            }
            fputc(']', f);
        }
        fputc('\n', f);
        for (k = m->row[s]; k < m->row[s + 1]; k++)
            fprintf(f, "\t\t%u : %s\n", (unsigned)m->col[k], proper_format_double(num, m->prob[k]));
    }
    return proper__dtmc_write_status(f, "DRN", err);
}

/* A set of states as a PRISM expression over s: runs of consecutive states
 * become (s>=a&s<=b). */
static void proper__dtmc_write_state_set(const proper_bitset *b, FILE *f) {
    size_t s = 0, n = b->n;
    int any = 0;
    while (s < n) {
        size_t e;
        if (!PROPER_BITSET_GET(b, s)) { s++; continue; }
        for (e = s; e + 1 < n && PROPER_BITSET_GET(b, e + 1); e++) continue;
        if (any) fputs(" | ", f);
        if (e == s) fprintf(f, "s=%zu", s);
        else fprintf(f, "(s>=%zu & s<=%zu)", s, e);
        any = 1;
        s = e + 1;
    }
    if (!any) fputs("false", f);
}

PROPER_API int proper_dtmc_write_prism(const proper_dtmc *m, FILE *f, proper_error *err) {
    uint32_t s;
    uint64_t k;
    size_t i, v;
    char num[PROPER_DOUBLE_CHARS];
    if (m->init_dist)
        return proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0,
                                "the PRISM language cannot express an initial distribution");
    fprintf(f, "// Flat %s exported by proper %s: state s of the model is s=%s.\n",
            m->kind == PROPER_DTMC_KIND_CTMC ? "CTMC" : "DTMC", PROPER_VERSION_STRING, "its number");
    if (m->n_params) {
        fputs("// Parameters instantiated:", f);
        for (i = 0; i < m->n_params; i++)
            fprintf(f, " %s=%s", m->param_names[i], proper_format_double(num, m->param_values[i]));
        fputc('\n', f);
    }
    fprintf(f, "%s\n\nmodule flat\n  s : [0..%u] init %u;\n", m->kind == PROPER_DTMC_KIND_CTMC ? "ctmc" : "dtmc",
            (unsigned)(m->n_states - 1), (unsigned)m->init);
    for (s = 0; s < m->n_states; s++) {
        fprintf(f, "  [] s=%u -> ", (unsigned)s);
        for (k = m->row[s]; k < m->row[s + 1]; k++)
            fprintf(f, "%s%s:(s'=%u)", k > m->row[s] ? " + " : "", proper_format_double(num, m->prob[k]),
                    (unsigned)m->col[k]);
        fputc(';', f);
        if (m->vals && m->n_vars) {
            fputs(" // (", f);
            for (v = 0; v < m->n_vars; v++) {
                fprintf(f, "%s%s=", v ? "," : "", m->var_names[v]);
                proper__dtmc_write_value(m, s, v, f);
            }
            fputc(')', f);
        }
        fputc('\n', f);
    }
    fputs("endmodule\n", f);
    for (i = 0; i < m->n_labels; i++) {
        fprintf(f, "\nlabel \"%s\" = ", m->labels[i].name);
        proper__dtmc_write_state_set(&m->labels[i].states, f);
        fputs(";\n", f);
    }
    for (i = 0; i < m->n_rewards; i++) {
        const proper_dtmc_reward *r = &m->rewards[i];
        fprintf(f, r->name[0] ? "\nrewards \"%s\"\n" : "\nrewards\n", r->name);
        for (s = 0; s < m->n_states; s++) {
            double tv = 0.0;
            if (r->state && r->state[s] != 0.0)
                fprintf(f, "  s=%u : %s;\n", (unsigned)s, proper_format_double(num, r->state[s]));
            if (r->trans)
                for (k = m->row[s]; k < m->row[s + 1]; k++) tv += m->prob[k] * r->trans[k];
            if (tv != 0.0) fprintf(f, "  [] s=%u : %s;\n", (unsigned)s, proper_format_double(num, tv));
        }
        fputs("endrewards\n", f);
    }
    return proper__dtmc_write_status(f, "PRISM model", err);
}

/* A string inside DOT double quotes. */
static void proper__dtmc_dot_string(const char *str, FILE *f) {
    for (; *str; str++) {
        if (*str == '"' || *str == '\\') fputc('\\', f);
        fputc(*str, f);
    }
}

PROPER_API int proper_dtmc_write_dot(const proper_dtmc *m, FILE *f, proper_error *err) {
    uint32_t s;
    uint64_t k;
    size_t i, v;
    char num[PROPER_DOUBLE_CHARS];
    int has_dead = m->deadlock.n == m->n_states && m->n_states;
    fputs("digraph dtmc {\n  node [shape=circle];\n", f);
    for (s = 0; s < m->n_states; s++) {
        int is_init = m->init_dist ? m->init_dist[s] > 0.0 : s == m->init;
        int first = 1;
        fprintf(f, "  %u [label=\"%u", (unsigned)s, (unsigned)s);
        if (m->vals && m->n_vars) {
            fputs("\\n(", f);
            for (v = 0; v < m->n_vars; v++) {
                fprintf(f, "%s", v ? "," : "");
                proper__dtmc_dot_string(m->var_names[v], f);
                fputc('=', f);
                proper__dtmc_write_value(m, s, v, f);
            }
            fputc(')', f);
        }
        if (has_dead && PROPER_BITSET_GET(&m->deadlock, s)) { fputs("\\ndeadlock", f); first = 0; }
        for (i = 0; i < m->n_labels; i++)
            if (PROPER_BITSET_GET(&m->labels[i].states, s)) {
                fputs(first ? "\\n" : ", ", f);
                proper__dtmc_dot_string(m->labels[i].name, f);
                first = 0;
            }
        fprintf(f, "\"%s];\n", is_init ? ", style=bold, peripheries=2" : "");
    }
    for (s = 0; s < m->n_states; s++)
        for (k = m->row[s]; k < m->row[s + 1]; k++)
            fprintf(f, "  %u -> %u [label=\"%s\"];\n", (unsigned)s, (unsigned)m->col[k],
                    proper_format_double(num, m->prob[k]));
    fputs("}\n", f);
    return proper__dtmc_write_status(f, "DOT", err);
}

#endif /* PROPER_DTMC_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
