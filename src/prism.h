/* prism.h — the PRISM modelling language (DTMCs and CTMCs), reachable
 * state-space exploration into a proper_dtmc, and PRISM property files.
 *
 * ---- The language --------------------------------------------------------
 * Accepted (as the PRISM manual defines it, https://www.prismmodelchecker.org/manual):
 *   dtmc | probabilistic                    model type; ctmc | stochastic: updates
 *                                           carry rates (mdp/pta/... rejected)
 *   const int N = 5;  const double p;       constants, with or without a value
 *   const bool b = true;  const K = 3;      (no type = int). Constants without
 *                                           a value are parameters: give them with
 *                                           proper_prism_set_const(s) before building
 *   param double p;                         a parameter (PROPER/FACT): a constant
 *                                           without a value, open to parametric
 *                                           checking; FACT's `param double x = 20 5 7;`
 *                                           (outcome counts) declares x1, x2, and
 *                                           `param double n = "f.csv";` the names n1,
 *                                           n2, ... the model uses
 *   formula f = x + 1;                      macros, usable wherever expressions are
 *   label "end" = s = 21;                   named state sets (also used by properties)
 *   module M
 *     x : [0..N] init 0;                    bounded ints (init defaults to the low bound)
 *     b : bool init false;                  booleans (init defaults to false)
 *     [] x < N -> p:(x'=x+1) + (1-p):(x'=0);
 *     [a] b -> (b'=false) & (x'=0);         one update with probability 1
 *     [] x = N -> true;                     "true": no change
 *   endmodule
 *   module M2 = M [x = y, a = c] endmodule  renaming (variables, actions, constants,
 *                                           formulas: every identifier in the copy)
 *   rewards "time" x = 1 : 2.5; [a] true : 1; endrewards   (name optional)
 * Expressions: + - * / ^, unary -, = != < <= > >=, ! & | => <=>, c ? a : b,
 * min max floor ceil round pow mod log, literals, with PRISM's precedence
 * and typing: ints are 32-bit (overflow is an error), `/` always gives a
 * double, + - * ^ min max pow of ints give ints, floor/ceil/round give
 * ints, mod(i, n) takes ints and n > 0 and returns a value in [0, n),
 * pow(i, j) of ints needs j >= 0, log(x, b) = ln x / ln b.
 * Comments: // to end of line (and / * ... * /).
 * init <predicate> endinit: every valuation of the variables (within their
 * ranges) that satisfies it is an initial state (no variable may then have
 * its own init); results are then taken over all of them, as PRISM takes
 * them (see proper_prism_props_result), and the DTMC gets a uniform
 * initial distribution over them, whose support is its "init" label.
 * global x : [0..3];  a global variable (declared before the modules; any
 * module's command may change it).
 * [] x=0 -> [0.1,0.2]:(x'=1) + [0.8,0.9]:(x'=2);   probability intervals
 * (PRISM's interval DTMCs, IDTMC): both ends are expressions; a plain
 * probability p is [p,p]. See "Interval models" below.
 * Not accepted (clear error): global variables after a module, system
 * ...endsystem, unbounded or double variables, nondeterministic model
 * types, probability intervals in a ctmc.
 *
 * ---- Semantics (as PRISM builds a DTMC) ---------------------------------
 * In every state the "choices" are: each enabled unlabelled command of each
 * module, and for each action a, every combination of one enabled a-command
 * from each module that has a in its alphabet (the action is blocked when
 * one of them has none); a combined choice takes the product of the
 * commands' update probabilities and applies all their assignments. PRISM
 * chooses among the choices uniformly: every transition probability is
 * divided by the sum of the probabilities of all choices (= their number,
 * as each sums to 1), which also resolves a module's overlapping guards.
 * The updates of one command must have probabilities >= 0 summing to 1
 * within PROPER_PRISM_PROB_TOL (PRISM's default "sumroundoff" is 1e-5);
 * zero-probability updates are ignored. With prob_tol = INFINITY (PRISM's
 * -noprobchecks) any positive sum is accepted, and the division below
 * normalises each state's row, as PRISM does (a lone command 0.2:a + 0.3:b
 * gives 0.4 and 0.6); a sum of 0 stays an error (PRISM's explicit engine). Assignments read the old state.
 * A state with no choice is a deadlock: an error unless fix_deadlocks (then
 * a self-loop and the built-in label "deadlock", like PRISM's -fixdl).
 * The reachable states are numbered as PRISM numbers them for its explicit
 * exports: sorted lexicographically by the variable values in declaration
 * order (module by module), false < true.
 * A CTMC (ctmc/stochastic): the same, except that updates carry rates (any
 * finite value >= 0, no sum), the rates of all choices add (no division),
 * synchronised commands multiply their rates, and the model is a dtmc.h
 * model of kind PROPER_DTMC_KIND_CTMC (a fixed deadlock: rate-1 self-loop).
 * Exploration evaluates, in each state, only the unlabelled commands that
 * may be enabled there: commands whose guard has a conjunct `v = c` (c
 * constant, v an int variable of range up to 4 x commands + 1024) are
 * indexed by that value, so a model with one command per state builds in
 * linear time (bench/bench_prism.c: 10^6 states and commands in about
 * 1.4 s). States are explored breadth-first, each level in key order (the
 * order such commands are written in), and found by key in a direct table
 * when their keys fit in PROPER_PRISM_DIRECT_BITS bits, else by hash; the
 * model file is lexed as it is parsed, in blocks of tokens.
 * Rewards: a state's reward is the sum of the values of all state items
 * whose guard holds. A transition item [a] g : r applies to the choices of
 * action a (`[]` = unlabelled choices) in states satisfying g; the reward of
 * a transition s->t is the probability-weighted mean over the choices that
 * produce it, so that the expected reward of a step, the quantity every
 * R[F]/R[C<=k] result depends on, is exactly PRISM's. Fixed deadlocks get no
 * transition reward.
 *
 * ---- Interval models -------------------------------------------------------
 * A dtmc with some `[lo,hi]:update` is an interval DTMC: in every state,
 * each step may follow any distribution within the intervals (nature's
 * choice), and P and R ask for the least or largest value over all
 * choices. Built as PRISM builds it (proper_prism_build_intervals):
 * - a command's intervals must not be empty (lo <= hi), lower ends >= 0,
 *   and admit a distribution: lower ends summing to at most 1, upper ends
 *   to at least 1 (within the smaller of prob_tol and dtmc.h's
 *   PROPER_DTMC_ROW_SUM_TOL); an upper end above 1 is allowed (trimmed);
 * - synchronised commands multiply their intervals end by end;
 * - updates reaching the same state add their intervals;
 * - each state's intervals are then delimited as PRISM delimits them
 *   (lo_j >= 1 - sum of the other upper ends, hi_j <= 1 - sum of the other
 *   lower ends: the same distributions, tight ends), and [0,0] dropped;
 * - a state must have one choice (one enabled command or synchronised
 *   combination), or choices that all lead to one state (a step to it):
 *   PRISM adds the intervals of several choices, which seldom leaves a
 *   distribution, and the uniform choice of a DTMC is not an IDTMC's;
 * - a fixed deadlock is a self-loop [1,1].
 * Properties (proper_prism_check_opts.intervals): Pmin=? and Pmax=? of
 * X, F, U, G, W, R and their upper step bounds <=k, and X of such a path
 * formula (X F a, X X a: one robust step over the inner values); Rmin=?
 * and Rmax=? of F phi, X F phi and C<=k (state and transition rewards),
 * through dtmc.h's interval solvers (the unbounded ones with a proven
 * error bound, relative to the value at the initial state); P>=b and P>b
 * take the minimum, P<=b and P<b the maximum (holding for every choice),
 * R likewise. P=? and R=? are refused, as PRISM refuses them. Not
 * supported on interval models (PROPER_EUNSUPPORTED): lower step bounds,
 * other LTL, R of I=k, C, S and other co-safe LTL, S, and exact or
 * parametric checking, except when every interval is a point (lo = hi once
 * delimited): nature has no choice, and these take the DTMC's value as
 * both minimum and maximum. Unlike PRISM, lower ends 0 are accepted (PRISM
 * refuses to check such a model), and so are transition rewards and C<=k
 * (PRISM refuses both on IDTMCs).
 *
 * ---- Properties -----------------------------------------------------------
 * A property is an expression (PRISM's grammar and precedence) in which
 * these operators may appear anywhere, nested and combined with arithmetic
 * and logic ("P=? [ F x=1 ] + 1", "P>0.5 [ F P>=1 [ G y=0 ] ]"):
 *   P=? [ path ]  P>=b [ path ] (also <, <=, >; Pmin=?, Pmax=? = P=? on a
 *                 chain; on an interval model see above). Paths: X phi,
 *                 F phi, G phi, phi U psi, phi W psi, phi R psi, with step
 *                 bounds <=k <k >=k >k =k [a,b] on F G U W R (PRISM's
 *                 semantics: the steps before a lower bound must
 *                 satisfy the left operand, DTMCModelChecker's restricted
 *                 next); any other path formula is LTL (ltl.h: each maximal
 *                 state subformula an atomic proposition). CTMC: bounds are
 *                 times (uniformisation), LTL untimed on the embedded chain.
 *   R{"r"}=? [ F phi | C<=k | C | I=k | S | co-safe LTL ]  (R{2}: the second
 *                 structure, R: the first). C is the total reward (infinite
 *                 from states that may reach a bottom component earning a
 *                 positive reward); S the long-run average per step (per
 *                 time unit in a CTMC). Bounds R>=b [...] as for P.
 *   S=? [ phi ]   long-run probability of phi; S>=b [ phi ].
 *   E [ path ], A [ path ]  on the graph (PRISM's NonProbModelChecker:
 *                 some/every path): CTL (one unbounded temporal operator),
 *                 or LTL through ltl.h's proper_ltl_exists (A = !E !).
 *   filter(op, e, states)  op: min max argmin argmax count sum avg first
 *                 range forall exists print printall state (+ & |); the
 *                 old-style P=? [ path {states}{min}{max} ] too.
 *   "name"        a label (the model's, the file's own, "init", "deadlock"),
 *                 or else a named property of the file ("a": P=? [...]).
 * A bound whose value lies within the solver's relative precision of the
 * bound (other than 0 and 1, which are exact) is decided exactly (exact.h,
 * literals as written: P>0.98 of a value 98/100 is false) when the DTMC has
 * at most PROPER_PRISM_TIE_EXACT_STATES (200) states and was built from the
 * properties' model (no intervals, no CTMC), and refused (PROPER_ENOCONV)
 * otherwise, rather than decided by rounding. The result of a property is PRISM's
 * (proper_prism_props_result): a filter giving one value gives it; else a
 * boolean must hold in every initial state, and a number is its value in
 * the initial state, or the range [lo, hi] over several initial states.
 * Properties files hold several properties (optionally ended by `;`),
 * `// comments` (the comment above a property is kept:
 * proper_prism_props_comment, where PRISM's test mode reads "RESULT: v"),
 * `const` declarations (with or without a value), `formula`s, `label`s and
 * named properties `"name": P=? [...]`.
 *
 * ---- The model's own rounding ------------------------------------------------
 * The exact model has its numbers as written (decimal literals, constants
 * as given, "1/3" given as text included) and exact arithmetic, as
 * --exact and PRISM -exact read it; the DTMC is built in doubles. The
 * build bounds the difference (proper_prism_build_intervals: iv->rel_prob,
 * rel_reward, exact): every double value is evaluated with a proven bound
 * on its distance to the exact one (a running error analysis: a literal
 * is exact when its decimal is its double, else within u = 2^-53
 * relative; + - * / add their operands' bounds and their own rounding,
 * found exactly (TwoSum, fma residuals), so 0.5 * 0.5 or 1 - 0.25 stay
 * exact); then the products of synchronised commands, the division of a
 * DTMC's row by its total and the sums of merged transitions (a CTMC: the
 * embedded chain R/E that dtmc.h forms) are bounded from the largest
 * relative error of a factor, the most factors of a choice and the most
 * transitions of a state (proper__prism_rounding_bounds; when every
 * factor and every sum and division was exact, rel_prob is 0). rel_reward
 * covers the reward terms of R's systems too. No bound (-1) when a double
 * decides an int or a bool the build uses (a comparison with a double
 * operand that reads the state or is within its operands' bounds, floor,
 * ceil or round of an inexact double), when pow or log of doubles (libm
 * proves no bound) enters a probability, rate or reward, for a command
 * whose probabilities provably do not sum to exactly 1 (PRISM's exact
 * model then divides by the number of choices, not by their sum), and for
 * interval models. The check (opts->intervals) uses it so that a result's
 * error_bound is against the exact model (covers_model = 1):
 *  - unbounded P, R [ F ], R [ C ], a DTMC's S and R [ S ]: dtmc.h's
 *    certificates with model_rel_error = rel_prob (rel_reward for R);
 *    their bounds grow to about delta times the expected stays, and when
 *    that refuses the precision asked (PROPER_ENOCONV) the solve is
 *    repeated with it 1000 times coarser, up to 3 times
 *    (proper__prism_loosen): the value comes with its wider proven bound;
 *  - step- and time-bounded P, I=k, C<=k (and a CTMC's I=t, C<=t): the
 *    solver's bound of the stored chain plus an a priori bound of the
 *    model's perturbation (proper__prism_bounded_covers,
 *    proper__prism_reward_covers);
 *  - a CTMC's S and R [ S ]: with one bottom component, the tree theorem's
 *    bound (proper__prism_ctmc_steady_covers).
 * Otherwise (no bound known, a CTMC's steady state with several bottom
 * components, U>=t, interval models, a check without opts->intervals)
 * covers_model is 0 and error_bound is of the chain as stored only; proper
 * check says so beside the value. On PRISM's poll6 example
 * P=? [ !(s=2 & a=1) U (s=1 & a=1) ] is 1.1e-14 off the exact value: the
 * stored chain's bound was 7.8e-15, the model's is 7.4e-13.
 *
 * ---- Use -------------------------------------------------------------------
 *     proper_prism_model *m = NULL;  proper_prism_props *p = NULL;  proper_dtmc d;  double v;
 *     proper_dtmc_init(&d);
 *     proper_prism_read(&m, "gambler.pm", &err);               // parse, resolve, type-check
 *     proper_prism_set_consts(m, NULL, "p=0.4", &err);         // parameters
 *     proper_prism_build(m, NULL, &d, &err);                   // explore -> sparse DTMC
 *     proper_prism_props_parse(&p, m, "P=? [ F x=10 ]", 14, NULL, &err);
 *     proper_prism_props_check(p, 0, &d, NULL, &v, &err);      // v in the initial state
 *     proper_prism_props_free(p); proper_dtmc_free(&d); proper_prism_free(m);
 * (each call returns 0 or a negative PROPER_E* code; check them). The model
 * is read-only after its constants are set: several threads may build or
 * check with it at once.
 *
 * ---- Output parameters ---------------------------------------------------------
 * This module follows the project's contract. Models and property sets are
 * handles: proper_prism_parse/read and proper_prism_props_parse/read take a
 * pointer that the caller has set to NULL (or that holds an earlier result);
 * on success the earlier object is freed and replaced, on failure the
 * pointer is left as it was. proper_prism_build writes a proper_dtmc that
 * the caller has initialised (proper_dtmc_init) the same way. Nothing leaks
 * on an error path.
 *
 * ---- Limits -----------------------------------------------------------------
 * The number of reachable states is capped (max_states, default
 * PROPER_PRISM_MAX_STATES = 10^7): exploration stops with PROPER_ELIMIT before
 * memory runs out, whatever the declared ranges. When the ranges allow more
 * states than the cap, independent groups of modules (no variable read
 * across groups, no shared action) are explored on their own first: their
 * product is the exact count, and one above the cap is refused at once.
 * A model whose modules are all coupled is explored until the count passes
 * the cap (two coupled variables of 4000 values each: refused after 4.0 s
 * CPU at 0.60 GB on this project's test machine; lower max_states to find out
 * sooner; bench/bench_prism.c measures it). Transitions are capped too
 * (max_transitions, default PROPER_PRISM_MAX_TRANSITIONS = 2 x 10^8): the
 * exploration keeps some 12 bytes per transition and the DTMC is assembled
 * beside it (as many again), so many successors per state cannot exhaust
 * memory below the state cap. Expressions nest at most
 * PROPER_PRISM_MAX_DEPTH deep and expand (through formulas) to at most
 * PROPER_PRISM_MAX_NODES nodes, so evaluation time and stack are bounded.
 */
#ifndef PROPER_PRISM_H
#define PROPER_PRISM_H

#include "dtmc.h"
#include "exact.h"
#include "ltl.h"

/* Probabilities of one command's updates must sum to 1 within this
 * (absolute), PRISM's default prism.sumRoundOff. */
#ifndef PROPER_PRISM_PROB_TOL
#define PROPER_PRISM_PROB_TOL 1e-5
#endif

/* Default cap on reachable states. */
#ifndef PROPER_PRISM_MAX_STATES
#define PROPER_PRISM_MAX_STATES 10000000u
#endif

/* Default cap on the transitions of the explored states. */
#ifndef PROPER_PRISM_MAX_TRANSITIONS
#define PROPER_PRISM_MAX_TRANSITIONS 200000000u
#endif

/* Largest nesting of an expression (after formula expansion). */
#ifndef PROPER_PRISM_MAX_DEPTH
#define PROPER_PRISM_MAX_DEPTH 400
#endif

/* Largest size (nodes) of one expression after formula expansion. */
#ifndef PROPER_PRISM_MAX_NODES
#define PROPER_PRISM_MAX_NODES 1000000
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Types of constants, expressions and property results. */
#define PROPER_PRISM_INT 1
#define PROPER_PRISM_DOUBLE 2
#define PROPER_PRISM_BOOL 3

/* ---- Models ---------------------------------------------------------------*/

typedef struct proper_prism_model proper_prism_model;

/* Parse model text (`file` names it in errors; may be NULL). Names are
 * resolved and types checked here; errors carry file:line:col. */
PROPER_API int proper_prism_parse(proper_prism_model **out, const char *text, size_t len, const char *file,
                                  proper_error *err);
/* Read and parse a file. */
PROPER_API int proper_prism_read(proper_prism_model **out, const char *path, proper_error *err);
PROPER_API void proper_prism_free(proper_prism_model *m);
/* A model that only declares d's state variables (d->var_names, as read
 * from a .sta by proper_dtmc_read_sta), one module, each int variable's
 * range the span of its values: properties parsed against it may name the
 * variables ("P=? [ F d=6 ]") and are checked on d itself. `file` names
 * the valuations' source in errors (a name that is a PRISM keyword).
 * PROPER_ESTATE when d has no valuations. */
PROPER_API int proper_prism_model_of_valuations(proper_prism_model **out, const proper_dtmc *d, const char *file,
                                                proper_error *err);

/* Constants in declaration order: name, type (PROPER_PRISM_*), and whether
 * it has a value (from the model or given since). */
PROPER_API size_t proper_prism_const_count(const proper_prism_model *m);
PROPER_API const char *proper_prism_const_name(const proper_prism_model *m, size_t i);
PROPER_API int proper_prism_const_type(const proper_prism_model *m, size_t i);
PROPER_API int proper_prism_const_has_value(const proper_prism_model *m, size_t i);

/* Give a value to a constant declared without one (a parameter). An int
 * constant needs an integral value, a bool 0 or 1. Naming an unknown
 * constant is PROPER_EUNDEFINED; one defined in the model, PROPER_EINVAL.
 * Giving it again replaces the value. */
PROPER_API int proper_prism_set_const(proper_prism_model *m, const char *name, double value, proper_error *err);

/* Number of variables and their names, in state-vector order. */
PROPER_API size_t proper_prism_var_count(const proper_prism_model *m);
PROPER_API const char *proper_prism_var_name(const proper_prism_model *m, size_t i);

typedef struct proper_prism_build_opts {
    uint32_t max_states; /* PROPER_PRISM_MAX_STATES; more reachable states: PROPER_ELIMIT */
    uint64_t max_transitions; /* PROPER_PRISM_MAX_TRANSITIONS; more transitions: PROPER_ELIMIT */
    int fix_deadlocks;   /* 0: a deadlock is an error; 1: self-loop + "deadlock" label */
    double prob_tol;     /* PROPER_PRISM_PROB_TOL; INFINITY: no check of the sums (PRISM's -noprobchecks) */
} proper_prism_build_opts;

PROPER_API proper_prism_build_opts proper_prism_build_opts_default(void);

/* Explore the reachable states and build the DTMC into *out (an output:
 * initialised by the caller, unchanged on failure; free it with
 * proper_dtmc_free). Every constant needs a value. The
 * model keeps its labels (as dtmc labels), reward structures (in
 * declaration order), variable valuations (for .sta and for properties) and
 * the values of the parameters used. opts NULL = defaults. */
PROPER_API int proper_prism_build(const proper_prism_model *m, const proper_prism_build_opts *opts,
                                  proper_dtmc *out, proper_error *err);

/* ---- Interval models (PRISM's IDTMCs) ---------------------------------------
 * The probability intervals of a model with `[lo,hi]:update`, aligned with
 * its DTMC's transitions (d->col): nature picks, in each state, any
 * distribution within them (dtmc.h's "Interval DTMCs"). */
typedef struct proper_prism_intervals {
    uint64_t n;      /* = the DTMC's n_trans */
    double *lo, *hi; /* n each */
    /* The model's own rounding, for every model (with intervals or not):
     * the exact model (literals as written, constants as given, exact
     * arithmetic) differs from the DTMC as built by at most rel_prob,
     * relative, in every probability (a CTMC: in every entry of its
     * embedded chain R/E as dtmc.h forms it), and by at most rel_reward in
     * every probability and in every reward term of R's linear systems
     * (r(s), P(s,t) r(s,t); a CTMC's r(s) / E(s)); see "The model's own
     * rounding" above. -1: no bound (pow or log of doubles, a double
     * deciding a guard, an interval model, ...); 0: the DTMC is exact.
     * exact: 1 when the stored probabilities (a CTMC: rates) and rewards
     * are exactly the model's (then the step- and time-bounded solvers'
     * bounds cover the model too). proper_prism_intervals_init sets -1, -1
     * and 0 (unknown). */
    double rel_prob, rel_reward;
    int exact;
} proper_prism_intervals;

PROPER_API void proper_prism_intervals_init(proper_prism_intervals *iv);
PROPER_API void proper_prism_intervals_free(proper_prism_intervals *iv);
/* Whether some update of m has a probability interval. */
PROPER_API int proper_prism_has_intervals(const proper_prism_model *m);
/* proper_prism_build for any model; for one with intervals, *iv (an output:
 * initialised by the caller, unchanged on failure) gets them, and the DTMC
 * holds one distribution within them (its structure: every transition that
 * some distribution uses). A model without intervals leaves *iv empty
 * (n = 0, NULL arrays). proper_prism_build refuses a model with intervals
 * (PROPER_EUNSUPPORTED). */
PROPER_API int proper_prism_build_intervals(const proper_prism_model *m, const proper_prism_build_opts *opts,
                                            proper_dtmc *out, proper_prism_intervals *iv, proper_error *err);

/* ---- Properties -----------------------------------------------------------*/

typedef struct proper_prism_props proper_prism_props;

/* Parse a properties file (or a single property string). `m` is the model
 * whose variables, constants, formulas and labels the properties may use;
 * it must outlive the properties. NULL for a model read from explicit files:
 * then only labels and the file's own constants are known. */
PROPER_API int proper_prism_props_parse(proper_prism_props **out, const proper_prism_model *m, const char *text,
                                        size_t len, const char *file, proper_error *err);
PROPER_API int proper_prism_props_read(proper_prism_props **out, const proper_prism_model *m, const char *path,
                                       proper_error *err);
PROPER_API void proper_prism_props_free(proper_prism_props *p);

/* PROPS as a command line gives it (proper check, proper crosscheck): the
 * properties file `arg` when a file of that name can be opened, else arg
 * itself as the text of properties ("P=? [ F x=1 ]", "N+0"; errors name it
 * "(property)"). When that text does not parse and ends like a file name
 * (a '.' then a letter and letters, digits or '_': "die.pctl") and has no
 * blank, the error is the file's: "ARG: cannot open: No such file ...".
 * At least one property is required: an empty file, one of comments and
 * declarations only, or empty text is PROPER_EPARSE "no property in ARG".
 * text (may be NULL) gets, on success, a fresh copy of the properties' text
 * (the caller frees it with PROPER_FREE); is_file (may be NULL) whether arg
 * was read as a file. */
PROPER_API int proper_prism_props_from_arg(proper_prism_props **out, const proper_prism_model *m, const char *arg,
                                           char **text, int *is_file, proper_error *err);

PROPER_API size_t proper_prism_props_count(const proper_prism_props *p);
/* The property as written (blanks collapsed), and its name or NULL. */
PROPER_API const char *proper_prism_props_text(const proper_prism_props *p, size_t i);
PROPER_API const char *proper_prism_props_name(const proper_prism_props *p, size_t i);
/* The blanks and comments written just before property i (before its name
 * when it has one), as in the file: where PRISM's test mode finds
 * "// RESULT: 0.5". */
PROPER_API const char *proper_prism_props_comment(const proper_prism_props *p, size_t i);
/* Type of the result: PROPER_PRISM_DOUBLE for P=?, R=?, S=?; PROPER_PRISM_BOOL
 * for bounded operators; the expression's type for a plain expression. */
PROPER_API int proper_prism_props_type(const proper_prism_props *p, size_t i);

/* Properties files' own constants: like proper_prism_set_const. */
PROPER_API int proper_prism_props_set_const(proper_prism_props *p, const char *name, double value,
                                            proper_error *err);

/* Apply "a=1,b=0.25,c=true,d=1/3" to the model's constants and (when a
 * name is not the model's) the properties' constants; either may be NULL.
 * Values are numbers, true/false, or constant expressions over literals
 * (proper_prism_eval_constant). An unknown name is PROPER_EUNDEFINED. */
PROPER_API int proper_prism_set_consts(proper_prism_model *m, proper_prism_props *p, const char *spec,
                                       proper_error *err);
/* The same, except that a name neither declares is skipped, as PRISM skips
 * it; unknown (may be NULL) gets those names, comma-separated (truncated to
 * size). */
PROPER_API int proper_prism_set_consts_lenient(proper_prism_model *m, proper_prism_props *p, const char *spec,
                                               char *unknown, size_t size, proper_error *err);

/* The properties text `text` (from which p was parsed) for a tool that
 * gets the model as explicit files (crosscheck --via-explicit), where the
 * model's constants and formulas are unknown: every name of a constant
 * (the model's or the properties') becomes its value, every formula (the
 * model's or the properties') its body in parentheses, and the properties'
 * const and formula declarations go (PRISM 4.10.2-dev fails with a
 * NullPointerException on a properties constant when the model is
 * imported; PRISM's properties files have no formulas). Values are
 * written so that they read back as the same double, an int stays an int
 * and a double a double ("4.0"). Comments go; line breaks stay where they
 * were, so a tool's line numbers still point at the right line; a value
 * is set apart by a blank from a next token it would merge with ("K.2" is
 * K and .2: "7 .2"). A properties constant without a value is
 * PROPER_EUNDEFINED at its use.
 * *out gets the text (PROPER_FREE it). */
PROPER_API int proper_prism_props_standalone(const proper_prism_props *p, const char *text, size_t len, char **out,
                                             proper_error *err);

/* The value of a constant written as text: a number, true/false (1/0), or
 * an expression over literals with PRISM's operators and functions
 * ("1/3", "2^10", "max(1,2)*0.5"). */
PROPER_API int proper_prism_eval_constant(const char *text, double *value, proper_error *err);

typedef struct proper_prism_check_opts {
    proper_dtmc_solve_opts solve;
    unsigned long max_steps; /* largest k in F<=k, U<=k, C<=k, I=k (PROPER_ELIMIT above); ULONG_MAX */
    /* NULL, or what proper_prism_build_intervals gave with the DTMC
     * checked: its probability intervals ("Interval models" above) and its
     * rounding bounds ("The model's own rounding"; without them, bounds are
     * of the chain as stored: covers_model = 0) */
    const proper_prism_intervals *intervals;
} proper_prism_check_opts;

PROPER_API proper_prism_check_opts proper_prism_check_opts_default(void);

/* The result of a property as PRISM reports it. */
typedef struct proper_prism_result {
    int type;     /* PROPER_PRISM_INT, _DOUBLE or _BOOL (0 or 1) */
    double value; /* the value (infinity is INFINITY); for a range, its low end */
    double hi;    /* a range's high end (several initial states, filter(range, ...)); = value otherwise */
    /* The solver's proven bound on |value - exact value| (dtmc.h's
     * init_error; max_error over several initial states) when the property
     * is one P=?, R=? or S=? operator solved by one solve that proves its
     * bound (until, bounded until without a lower bound, reachability
     * reward, steady state, R=? [ S ], a DTMC's R=? [ C<=k ], [ I=k ] and
     * [ C ], and a CTMC's time bounds: P=? [ U<=t ], [ U[t1,t2] ],
     * [ U>=t ], [ F<=t ], R=? [ C<=t ], [ I=t ] and [ C ]); -1 otherwise
     * (LTL, lower step bounds, expressions over operators). A
     * CTMC's bound can be wider than the solver's 1e-10 relative target
     * when uniformisation takes millions of steps (their a priori rounding,
     * see dtmc.h's "Error bounds of uniformisation"): it is reported as it
     * is, not refused. */
    double error_bound;
    /* With a bound: 1 when it bounds the distance to the exact model's
     * value, its own rounding included (the model's rounding known to the
     * check, opts->intervals from proper_prism_build_intervals, and covered
     * by the solve: see "The model's own rounding"); 0 when it bounds the
     * distance to the exact value of the chain as stored only. */
    int covers_model;
} proper_prism_result;

/* Property i on d, with PRISM's default filter: a filter that gives one
 * value (filter(min, ...), filter(count, ...), ...) gives it; otherwise a
 * boolean is true when it holds in every initial state, and a number is
 * its value in the initial state, or the range [value, hi] of its values
 * over several initial states. */
PROPER_API int proper_prism_props_result(const proper_prism_props *p, size_t i, const proper_dtmc *d,
                                         const proper_prism_check_opts *opts, proper_prism_result *res,
                                         proper_error *err);

/* Value of property i in the initial state of d (a boolean is 0 or 1;
 * infinity is INFINITY); a range over several initial states whose ends
 * differ is PROPER_EINVAL (use proper_prism_props_result). d must be built from the model the properties were
 * parsed with, or (for properties of a NULL model) be any DTMC. opts NULL =
 * defaults. */
PROPER_API int proper_prism_props_check(const proper_prism_props *p, size_t i, const proper_dtmc *d,
                                        const proper_prism_check_opts *opts, double *value, proper_error *err);
/* The same in every state: x has d->n_states entries. */
PROPER_API int proper_prism_props_check_states(const proper_prism_props *p, size_t i, const proper_dtmc *d,
                                               const proper_prism_check_opts *opts, double *x,
                                               proper_error *err);

/* ---- Exact and parametric results (exact.h) ----------------------------------
 * The DTMC is built as usual; its exact companion holds every probability
 * and reward exactly: literals as written ("0.1" is 1/10), constants as
 * given to proper_prism_set_consts ("1/3"), int and bool expressions as
 * usual. Parameters (constants left open, 'param' declarations) may appear
 * in probabilities and rewards (and the constants they use), not in guards,
 * assignments, conditions, labels or min/max. A CTMC's companion holds
 * its rates (exact.h solves its unbounded properties; time bounds are
 * refused there). A
 * comparison of non-integer values that decides the chain's states or
 * transitions is decided exactly once proper_prism_decide_exactly has run:
 * at once when it reads neither the state nor a constant given from
 * outside, state by state when the chain is built when it reads the state
 * (and else only literals and constants defined in the model); one that
 * reads a given constant or a parameter is refused (it would be decided in
 * floating point). */

/* Keep the named constants open as parameters: each must be a double
 * constant without a value; it gets a sample value (1/(n+2+i), distinct and
 * summing to less than 1) at which the DTMC's structure is built.
 * proper_prism_build_exact refuses a transition that vanishes there but not
 * for every value. */
PROPER_API int proper_prism_open_params(proper_prism_model *m, const char *const *names, size_t n, proper_error *err);
/* Decide exactly, in m, every comparison of non-integer values that
 * depends neither on the state nor on a constant given from outside (a
 * parameter, or one set by proper_prism_set_consts): "1/3 = 0.333333333333333333"
 * is false, though the doubles are equal. Each becomes the literal true or
 * false; those that read the state (and else only literals and the
 * model's own constants) are marked to be decided exactly in each state by
 * every later build of m. A DTMC built from m next has the structure exact
 * arithmetic gives, as PRISM's -exact and -param build it. For exact and
 * parametric checking: after proper_prism_open_params (params as given to
 * proper_prism_build_exact), before proper_prism_build. */
PROPER_API int proper_prism_decide_exactly(proper_prism_model *m, const char *const *params, size_t n_params,
                                           proper_error *err);
/* The exact companion of d (built from m) into *out (an output: see
 * exact.h): rationals when n_params == 0, else rational functions of the
 * named parameters. A DTMC's rows are checked to sum to exactly 1; a
 * CTMC's hold rates. */
PROPER_API int proper_prism_build_exact(const proper_prism_model *m, const proper_dtmc *d, const char *const *params,
                                        size_t n_params, proper_exact_dtmc *out, proper_error *err);
/* Property i exactly in every state (x: an output vector): P=? [ X phi ],
 * [ phi U psi ], [ F phi ], [ G phi ] (also W, R) and their step-bounded
 * forms (no lower bound), R=? [ F phi ], [ C<=k ], [ I=k ], S=? [ phi ];
 * a bound (P>=b [ ... ], b a number or + - * / of numbers) gives 1 or 0 per
 * state, decided exactly (rationals only); a property reference as the
 * property; E [ ... ] and A [ ... ] (on the graph) as 1 or 0. Any other
 * expression has its value in the initial states (the states of interest;
 * 0 elsewhere): + - * / and integer powers exactly, with the operators
 * inside it exact ("P=? [ F a ] + P=? [ F b ]", 2*"name"), the int and
 * bool parts around operators (round(1+P=? [...]), P=? [...] = 1/2) on
 * their doubles when a double holds the exact value (rationals only; else
 * PROPER_EUNSUPPORTED: it would be decided in floating point). Filters and
 * the rest are PROPER_EUNSUPPORTED. */
PROPER_API int proper_prism_props_exact(const proper_prism_props *p, size_t i, const proper_dtmc *d,
                                        const proper_exact_dtmc *e, proper_exact_vec *x, proper_error *err);
/* Its value in the initial state as PRISM -exact / -param prints it
 * ("1/28", "p*q/(p*q-p+1)", "Infinity"), appended to text. */
PROPER_API int proper_prism_props_exact_text(const proper_prism_props *p, size_t i, const proper_dtmc *d,
                                             const proper_exact_dtmc *e, proper_strbuf *text, proper_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_PRISM_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_PRISM_IMPLEMENTATION
#define PROPER_PRISM_IMPLEMENTATION

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Tokens ---------------------------------------------------------------*/

enum {
    PROPER__PM_TK_EOF, PROPER__PM_TK_IDENT, PROPER__PM_TK_INT, PROPER__PM_TK_DOUBLE, PROPER__PM_TK_STRING,
    PROPER__PM_TK_LBRACK, PROPER__PM_TK_RBRACK, PROPER__PM_TK_LPAREN, PROPER__PM_TK_RPAREN, PROPER__PM_TK_LBRACE,
    PROPER__PM_TK_RBRACE, PROPER__PM_TK_SEMI, PROPER__PM_TK_COLON, PROPER__PM_TK_COMMA, PROPER__PM_TK_PRIME,
    PROPER__PM_TK_EQ, PROPER__PM_TK_NE, PROPER__PM_TK_LT, PROPER__PM_TK_LE, PROPER__PM_TK_GT, PROPER__PM_TK_GE,
    PROPER__PM_TK_PLUS, PROPER__PM_TK_MINUS, PROPER__PM_TK_STAR, PROPER__PM_TK_SLASH, PROPER__PM_TK_CARET,
    PROPER__PM_TK_AND, PROPER__PM_TK_OR, PROPER__PM_TK_NOT, PROPER__PM_TK_IMPLIES, PROPER__PM_TK_IFF,
    PROPER__PM_TK_QMARK, PROPER__PM_TK_ARROW, PROPER__PM_TK_DOTDOT
};

/* 40 bytes: a file of 10^6 commands has some 2 x 10^7 tokens. */
typedef struct proper__prism_tok {
    const char *p;   /* source text of the token (strings: without quotes) */
    const char *gap; /* start of the blanks and comments before the token */
    double num;      /* INT and DOUBLE: the value (an int fits exactly) */
    uint32_t len;
    int kind;
    int line, col;
} proper__prism_tok;

static const char *proper__prism_tok_name(int kind) {
    static const char *const names[] = {
        "end of input", "identifier", "integer", "number", "string", "'['", "']'", "'('", "')'", "'{'",
        "'}'", "';'", "':'", "','", "'''", "'='", "'!='", "'<'", "'<='", "'>'", "'>='", "'+'", "'-'",
        "'*'", "'/'", "'^'", "'&'", "'|'", "'!'", "'=>'", "'<=>'", "'?'", "'->'", "'..'"};
    return kind >= 0 && kind <= PROPER__PM_TK_DOTDOT ? names[kind] : "token";
}

static int proper__prism_is_ident_start(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}
static int proper__prism_is_ident_char(char ch) { return proper__prism_is_ident_start(ch) || (ch >= '0' && ch <= '9'); }
static int proper__prism_is_dec(char ch) { return ch >= '0' && ch <= '9'; }

/* Skip blanks, newlines and comments. */
static int proper__prism_lex_skip(proper_cursor *c, proper_error *err) {
    for (;;) {
        while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r' || *c->p == '\n' ||
                                 *c->p == '\f' || *c->p == '\v'))
            proper_cursor_advance(c);
        if (c->end - c->p >= 2 && c->p[0] == '/' && c->p[1] == '/') {
            while (c->p < c->end && *c->p != '\n') proper_cursor_advance(c);
        } else if (c->end - c->p >= 2 && c->p[0] == '/' && c->p[1] == '*') {
            proper_cursor start = *c;
            proper_cursor_advance(c);
            proper_cursor_advance(c);
            while (c->p < c->end && !(c->end - c->p >= 2 && c->p[0] == '*' && c->p[1] == '/'))
                proper_cursor_advance(c);
            if (c->p >= c->end) return proper_cursor_error(&start, err, PROPER_EPARSE, "unterminated comment");
            proper_cursor_advance(c);
            proper_cursor_advance(c);
        } else {
            return PROPER_OK;
        }
    }
}

/* A number: digits [. digits] [e [+-] digits], or . digits [...]. The dot
 * of "0..5" belongs to the range operator. Ints must fit in 32 bits. */
static int proper__prism_lex_number(proper_cursor *c, proper__prism_tok *t, proper_error *err) {
    const char *p = c->p, *q = c->p;
    int is_double = 0;
    char buf[128];
    size_t n;
    while (q < c->end && proper__prism_is_dec(*q)) q++;
    if (q + 1 < c->end && q[0] == '.' && proper__prism_is_dec(q[1])) {
        is_double = 1;
        q++;
        while (q < c->end && proper__prism_is_dec(*q)) q++;
    }
    if (q < c->end && (*q == 'e' || *q == 'E')) {
        const char *e = q + 1;
        if (e < c->end && (*e == '+' || *e == '-')) e++;
        if (e < c->end && proper__prism_is_dec(*e)) {
            while (e < c->end && proper__prism_is_dec(*e)) e++;
            q = e;
            is_double = 1;
        }
    }
    n = (size_t)(q - p);
    if (q < c->end && proper__prism_is_ident_char(*q))
        return proper_cursor_error(c, err, PROPER_EPARSE, "malformed number");
    if (n >= sizeof buf) return proper_cursor_error(c, err, PROPER_EPARSE, "number too long");
    memcpy(buf, p, n);
    buf[n] = '\0';
    t->p = p;
    t->len = (uint32_t)n;
    if (is_double) {
        t->kind = PROPER__PM_TK_DOUBLE;
        t->num = strtod(buf, NULL);
        if (isinf(t->num)) return proper_cursor_error(c, err, PROPER_ERANGE, "number too large for a double");
    } else {
        size_t i;
        long long v = 0;
        for (i = 0; i < n; i++) {
            v = v * 10 + (buf[i] - '0');
            if (v > 2147483647LL)
                return proper_cursor_error(c, err, PROPER_ERANGE, "integer %s does not fit in 32 bits", buf);
        }
        t->kind = PROPER__PM_TK_INT;
        t->num = (double)v;
    }
    while (c->p < q) proper_cursor_advance(c);
    return PROPER_OK;
}

/* Whether the decimal number text[0..n) (digits, an optional fraction, an
 * optional exponent: a literal as the lexer takes it, or a value as given)
 * is exactly the double x, i.e. x was read without rounding. The text is
 * N 10^k for an integer N; that is a double when k >= 0 and N 10^k <= 2^53,
 * or when k < 0, 5^-k divides N and N / 5^-k <= 2^53 (then it is
 * (N / 5^-k) 2^k). Anything larger, or other text, answers 0: read as
 * rounded, which only widens the bounds. */
static int proper__prism_decimal_exact(const char *text, size_t n, double x) {
    uint64_t N = 0, pow5 = 1;
    long k = 0, ex = 0;
    size_t i = 0, digits = 0;
    int seen_point = 0, ex_neg = 0;
    for (; i < n && (proper__prism_is_dec(text[i]) || (text[i] == '.' && !seen_point)); i++) {
        if (text[i] == '.') {
            seen_point = 1;
            continue;
        }
        if (N == 0 && text[i] == '0') {
            if (seen_point) k--;
            continue;
        }
        if (++digits > 19) return 0;
        N = N * 10 + (uint64_t)(text[i] - '0');
        if (seen_point) k--;
    }
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        i++;
        if (i < n && (text[i] == '+' || text[i] == '-')) ex_neg = text[i++] == '-';
        for (; i < n && proper__prism_is_dec(text[i]); i++)
            if ((ex = ex * 10 + (text[i] - '0')) > 400) return 0;
    }
    if (i != n) return 0;
    if (N == 0) return x == 0.0;
    k += ex_neg ? -ex : ex;
    while (N % 10 == 0) {
        N /= 10;
        k++;
    }
    if (k >= 0) {
        for (; k > 0; k--) {
            if (N > (UINT64_C(1) << 53) / 10) return 0;
            N *= 10;
        }
        return N <= (UINT64_C(1) << 53) && (double)N == x;
    }
    if (k < -27) return 0; /* 5^28 > 2^64: N < 10^19 has no such factor */
    for (i = 0; i < (size_t)-k; i++) pow5 *= 5;
    if (N % pow5 != 0 || N / pow5 > (UINT64_C(1) << 53)) return 0;
    return ldexp((double)(N / pow5), (int)k) == x;
}

/* An operator at the cursor, the longest that matches (<=> before <=
 * before <), decided by its first character. */
static int proper__prism_lex_operator(proper_cursor *c, proper__prism_tok *t) {
    size_t avail = (size_t)(c->end - c->p), n = 1, k;
    char a = c->p[0], b = avail > 1 ? c->p[1] : '\0', d = avail > 2 ? c->p[2] : '\0';
    int kind;
    switch (a) {
    case '<':
        if (b == '=' && d == '>') kind = PROPER__PM_TK_IFF, n = 3;
        else if (b == '=') kind = PROPER__PM_TK_LE, n = 2;
        else kind = PROPER__PM_TK_LT;
        break;
    case '>': kind = b == '=' ? (n = 2, PROPER__PM_TK_GE) : PROPER__PM_TK_GT; break;
    case '=': kind = b == '>' ? (n = 2, PROPER__PM_TK_IMPLIES) : PROPER__PM_TK_EQ; break;
    case '-': kind = b == '>' ? (n = 2, PROPER__PM_TK_ARROW) : PROPER__PM_TK_MINUS; break;
    case '!': kind = b == '=' ? (n = 2, PROPER__PM_TK_NE) : PROPER__PM_TK_NOT; break;
    case '.':
        if (b != '.') return 0;
        kind = PROPER__PM_TK_DOTDOT, n = 2;
        break;
    case '[': kind = PROPER__PM_TK_LBRACK; break;
    case ']': kind = PROPER__PM_TK_RBRACK; break;
    case '(': kind = PROPER__PM_TK_LPAREN; break;
    case ')': kind = PROPER__PM_TK_RPAREN; break;
    case '{': kind = PROPER__PM_TK_LBRACE; break;
    case '}': kind = PROPER__PM_TK_RBRACE; break;
    case ';': kind = PROPER__PM_TK_SEMI; break;
    case ':': kind = PROPER__PM_TK_COLON; break;
    case ',': kind = PROPER__PM_TK_COMMA; break;
    case '\'': kind = PROPER__PM_TK_PRIME; break;
    case '+': kind = PROPER__PM_TK_PLUS; break;
    case '*': kind = PROPER__PM_TK_STAR; break;
    case '/': kind = PROPER__PM_TK_SLASH; break;
    case '^': kind = PROPER__PM_TK_CARET; break;
    case '&': kind = PROPER__PM_TK_AND; break;
    case '|': kind = PROPER__PM_TK_OR; break;
    case '?': kind = PROPER__PM_TK_QMARK; break;
    default: return 0;
    }
    t->kind = kind;
    t->p = c->p;
    t->len = (uint32_t)n;
    for (k = 0; k < n; k++) proper_cursor_advance(c);
    return 1;
}

/* The token at the cursor (EOF at the end), after the blanks and comments
 * before it. */
static int proper__prism_lex_next(proper_cursor *c, proper__prism_tok *t, proper_error *err) {
    const char *gap = c->p;
    int rc;
    if ((rc = proper__prism_lex_skip(c, err)) != 0) return rc;
    memset(t, 0, sizeof *t);
    t->gap = gap;
    t->line = c->line;
    t->col = c->col;
    if (c->p >= c->end) {
        t->kind = PROPER__PM_TK_EOF;
        t->p = c->p;
    } else if (proper__prism_is_ident_start(*c->p)) {
        const char *q = c->p;
        t->kind = PROPER__PM_TK_IDENT;
        t->p = q;
        while (q < c->end && proper__prism_is_ident_char(*q)) q++;
        if ((size_t)(q - t->p) > 0xFFFFFFFFu) return proper_cursor_error(c, err, PROPER_ELIMIT, "token longer than 4 GB");
        t->len = (uint32_t)(q - t->p);
        c->col += (int)(q - c->p); /* no newline inside an identifier */
        c->p = q;
    } else if (proper__prism_is_dec(*c->p) || (*c->p == '.' && c->p + 1 < c->end && proper__prism_is_dec(c->p[1]))) {
        if ((rc = proper__prism_lex_number(c, t, err)) != 0) return rc;
    } else if (*c->p == '"') {
        proper_cursor start = *c;
        proper_cursor_advance(c);
        t->kind = PROPER__PM_TK_STRING;
        t->p = c->p;
        while (c->p < c->end && *c->p != '"' && *c->p != '\n' && *c->p != '\0') proper_cursor_advance(c);
        if (c->p < c->end && *c->p == '\0') return proper_cursor_error(c, err, PROPER_EPARSE, "unexpected byte 0x00 in string");
        if (c->p >= c->end || *c->p != '"') return proper_cursor_error(&start, err, PROPER_EPARSE, "unterminated string");
        if ((size_t)(c->p - t->p) > 0xFFFFFFFFu) return proper_cursor_error(c, err, PROPER_ELIMIT, "token longer than 4 GB");
        t->len = (uint32_t)(c->p - t->p);
        proper_cursor_advance(c);
    } else if (!proper__prism_lex_operator(c, t)) {
        unsigned char ch = (unsigned char)*c->p;
        if (ch >= 32 && ch < 127) return proper_cursor_error(c, err, PROPER_EPARSE, "unexpected character '%c'", (char)ch);
        return proper_cursor_error(c, err, PROPER_EPARSE, "unexpected byte 0x%02x", ch);
    }
    return PROPER_OK;
}

/* Split text into tokens (ending with one EOF token). */
static int proper__prism_lex(const char *text, size_t len, const char *file, proper__prism_tok **out, size_t *n_out,
                       proper_error *err) {
    proper_cursor c;
    proper__prism_tok *toks = NULL, t;
    size_t n = 0, cap = 0;
    int rc;
    proper_skip_bom(&text, &len);
    proper_cursor_init(&c, text, len, file);
    for (;;) {
        if ((rc = proper__prism_lex_next(&c, &t, err)) != 0) goto fail;
        if (PROPER_PUSH(toks, n, cap, t)) {
            rc = proper_error_set(err, PROPER_ENOMEM, file, 0, 0, "out of memory");
            goto fail;
        }
        if (t.kind == PROPER__PM_TK_EOF) break;
    }
    *out = toks;
    *n_out = n;
    return PROPER_OK;
fail:
    PROPER_FREE(toks);
    return rc;
}

/* A model file is lexed as it is parsed, in blocks of tokens that the
 * parser gives back once it is past them (proper__prism_release): a file
 * of 10^6 commands (2.4 x 10^7 tokens) needs a few blocks, not 1 GB.
 * Tokens stay where they are until their block is given back. The first
 * lexing error ends the tokens (an EOF token where it occurred) and is
 * kept in err; the parse reports it rather than what the parser made of
 * the shortened input. */
#ifndef PROPER_PRISM_TOK_BLOCK
#define PROPER_PRISM_TOK_BLOCK 4096
#endif

typedef struct proper__prism_lexer {
    const char *text; /* the input (after a byte-order mark) */
    size_t len;
    proper_cursor c;
    proper__prism_tok **blocks; /* block k: tokens k * PROPER_PRISM_TOK_BLOCK ..; NULL once given back */
    size_t n_blocks, cap_blocks;
    proper__prism_tok **spare; /* given-back blocks, reused */
    size_t n_spare, cap_spare;
    size_t n;               /* tokens lexed (the EOF token not counted) */
    proper__prism_tok eof;  /* valid once done */
    int done, rc;           /* rc: the lexing error (err holds it), or 0 */
    proper_error err;
} proper__prism_lexer;

static void proper__prism_lexer_init(proper__prism_lexer *lx, const char *text, size_t len, const char *file) {
    memset(lx, 0, sizeof *lx);
    proper_skip_bom(&text, &len);
    lx->text = text;
    lx->len = len;
    proper_cursor_init(&lx->c, text, len, file);
}

static void proper__prism_lexer_free(proper__prism_lexer *lx) {
    size_t i;
    for (i = 0; i < lx->n_blocks; i++) PROPER_FREE(lx->blocks[i]);
    for (i = 0; i < lx->n_spare; i++) PROPER_FREE(lx->spare[i]);
    PROPER_FREE(lx->blocks);
    PROPER_FREE(lx->spare);
    memset(lx, 0, sizeof *lx);
}

/* Lex the next block of tokens (or up to the end of the input). */
static void proper__prism_lexer_fill(proper__prism_lexer *lx) {
    proper__prism_tok *block, t;
    size_t k = 0;
    if (lx->n_spare) block = lx->spare[--lx->n_spare];
    else block = (proper__prism_tok *)proper_calloc(PROPER_PRISM_TOK_BLOCK, sizeof *block);
    if (!block || proper_reserve(&lx->blocks, &lx->cap_blocks, lx->n_blocks + 1, sizeof *lx->blocks)) {
        PROPER_FREE(block);
        lx->rc = proper_error_set(&lx->err, PROPER_ENOMEM, lx->c.file, 0, 0, "out of memory");
    } else {
        lx->blocks[lx->n_blocks++] = block;
        while (k < PROPER_PRISM_TOK_BLOCK && (lx->rc = proper__prism_lex_next(&lx->c, &t, &lx->err)) == 0 &&
               t.kind != PROPER__PM_TK_EOF)
            block[k++] = t;
        lx->n += k;
        if (lx->rc == 0 && k == PROPER_PRISM_TOK_BLOCK) return;
        if (lx->rc == 0) {
            lx->eof = t;
            lx->done = 1;
            return;
        }
    }
    memset(&lx->eof, 0, sizeof lx->eof); /* an error ends the tokens where it occurred */
    lx->eof.kind = PROPER__PM_TK_EOF;
    lx->eof.p = lx->eof.gap = lx->c.p;
    lx->eof.line = lx->c.line;
    lx->eof.col = lx->c.col;
    lx->done = 1;
}

/* Token k (the EOF token at and past the end). */
static const proper__prism_tok *proper__prism_lexer_at(proper__prism_lexer *lx, size_t k) {
    while (k >= lx->n && !lx->done) proper__prism_lexer_fill(lx);
    if (k >= lx->n) return &lx->eof;
    return &lx->blocks[k / PROPER_PRISM_TOK_BLOCK][k % PROPER_PRISM_TOK_BLOCK];
}

/* Give back the blocks wholly before token k. */
static void proper__prism_lexer_release(proper__prism_lexer *lx, size_t k) {
    size_t b;
    for (b = k / PROPER_PRISM_TOK_BLOCK; b-- > 0 && lx->blocks[b];) {
        if (proper_reserve(&lx->spare, &lx->cap_spare, lx->n_spare + 1, sizeof *lx->spare)) return;
        lx->spare[lx->n_spare++] = lx->blocks[b];
        lx->blocks[b] = NULL;
    }
}

/* Lex the rest of the input (after a parse error: a lexing error further
 * on is reported first, as when the whole file was lexed before parsing). */
static void proper__prism_lexer_drain(proper__prism_lexer *lx) {
    while (!lx->done) {
        proper__prism_lexer_release(lx, lx->n);
        proper__prism_lexer_fill(lx);
    }
}

/* ---- Interned names (identifiers and strings) ------------------------------*/

/* Names live in a core.h proper_intern table; ids are int32_t, -1 = none. */

/* Index of name p[0..n) or -1. */
static int32_t proper__prism_names_find(const proper_intern *nm, const char *p, size_t n) {
    size_t i = proper_intern_find(nm, p, n);
    return i == PROPER_INTERN_NONE ? -1 : (int32_t)i;
}

/* Intern p[0..n); *id receives its index. */
static int proper__prism_names_intern(proper_intern *nm, const char *p, size_t n, int32_t *id) {
    size_t i;
    if (nm->len >= 0x7fffffff) return PROPER_ENOMEM;
    if (proper_intern_add(nm, p, n, &i, NULL)) return PROPER_ENOMEM;
    *id = (int32_t)i;
    return PROPER_OK;
}

/* ---- Expression nodes ------------------------------------------------------*/

enum {
    PROPER__PM_N_INT, PROPER__PM_N_DOUBLE, PROPER__PM_N_BOOL,
    PROPER__PM_N_NAME,     /* unresolved identifier: sym */
    PROPER__PM_N_VAR,      /* variable: idx */
    PROPER__PM_N_CONST,    /* model constant: idx */
    PROPER__PM_N_PCONST,   /* properties-file constant: idx */
    PROPER__PM_N_FORMULA,  /* formula of the same node pool: a = body */
    PROPER__PM_N_MFORMULA, /* (properties) model formula: a = body in the model's pool */
    PROPER__PM_N_LABEL,    /* label "sym" resolved against the DTMC when checked */
    PROPER__PM_N_PLABEL,   /* (properties) the file's own label: a = body */
    PROPER__PM_N_NEG, PROPER__PM_N_NOT, PROPER__PM_N_BIN, PROPER__PM_N_ITE, PROPER__PM_N_FUNC,
    /* properties only; op is the relation of a bound (PROPER__PM_OP_LT..GE) or PROPER__PM_QUERY */
    PROPER__PM_N_PROB,    /* P: a = path formula, b = bound or -1 */
    PROPER__PM_N_REWARD,  /* R: a = reward formula (a PATH node), b = bound, c = index expression; idx = name id */
    PROPER__PM_N_STEADY,  /* S: a = state formula, b = bound */
    PROPER__PM_N_EXISTS,  /* CTL E[a] */
    PROPER__PM_N_FORALL,  /* CTL A[a] */
    PROPER__PM_N_FILTER,  /* filter(op, a, b): op a PROPER__PM_FL_*, b = states or -1 (all) */
    PROPER__PM_N_PROPREF, /* "name" of a property: idx = its index */
    PROPER__PM_N_PATH,    /* temporal operator op (PROPER__PM_T_*): a, b operands (a -1 for unary ones),
                             c = upper step bound, idx = lower step bound (-1 none), num: 1 upper strict, 2 lower strict */
    PROPER__PM_N_XCMP     /* (models) a comparison op of non-integer values that reads the state, decided
                             exactly where an exact context is at hand (proper_prism_decide_exactly makes them) */
};

#define PROPER__PM_QUERY 31 /* "=?" (also min=?, max=?: one choice in a DTMC) */
/* P, R and S nodes: num = PROPER__PM_MIN or PROPER__PM_MAX when the
 * operator asks for one (Pmin=?, R{"r"}max=?), else 0 (an interval model's
 * solvers need it) */
#define PROPER__PM_MIN 1
#define PROPER__PM_MAX 2

/* Temporal operators of paths, and the formulas of R[...]. */
enum {
    PROPER__PM_T_X, PROPER__PM_T_F, PROPER__PM_T_G, PROPER__PM_T_U, PROPER__PM_T_W, PROPER__PM_T_R,
    PROPER__PM_T_C,     /* C<=k: c = k */
    PROPER__PM_T_TOTAL, /* C: total reward */
    PROPER__PM_T_I,     /* I=k: c = k */
    PROPER__PM_T_LRA    /* S: long-run average reward */
};

/* Filter operators, in the order of PRISM's names (proper__prism_filter_names). */
enum {
    PROPER__PM_FL_MIN, PROPER__PM_FL_MAX, PROPER__PM_FL_ARGMIN, PROPER__PM_FL_ARGMAX, PROPER__PM_FL_COUNT,
    PROPER__PM_FL_SUM, PROPER__PM_FL_AVG, PROPER__PM_FL_FIRST, PROPER__PM_FL_RANGE, PROPER__PM_FL_FORALL,
    PROPER__PM_FL_EXISTS, PROPER__PM_FL_PRINT, PROPER__PM_FL_PRINTALL, PROPER__PM_FL_STATE, PROPER__PM_FL_N
};

enum {
    PROPER__PM_OP_ADD, PROPER__PM_OP_SUB, PROPER__PM_OP_MUL, PROPER__PM_OP_DIV, PROPER__PM_OP_POW, PROPER__PM_OP_EQ,
    PROPER__PM_OP_NE, PROPER__PM_OP_LT, PROPER__PM_OP_LE, PROPER__PM_OP_GT, PROPER__PM_OP_GE, PROPER__PM_OP_AND,
    PROPER__PM_OP_OR, PROPER__PM_OP_IMPLIES, PROPER__PM_OP_IFF
};

enum {
    PROPER__PM_FN_MIN, PROPER__PM_FN_MAX, PROPER__PM_FN_FLOOR, PROPER__PM_FN_CEIL, PROPER__PM_FN_ROUND, PROPER__PM_FN_POW,
    PROPER__PM_FN_MOD, PROPER__PM_FN_LOG
};

/* A double literal's op: the decimal as written is exactly its double. */
#define PROPER__PM_LIT_EXACT 1

/* Node flags, computed bottom-up by the resolver. */
#define PROPER__PM_F_VARS 1u   /* refers to a state variable */
#define PROPER__PM_F_LABELS 2u /* refers to a label */
#define PROPER__PM_F_DONE 4u   /* resolved and typed */
#define PROPER__PM_F_BUSY 8u   /* being resolved (formula cycles) */
#define PROPER__PM_F_OPS 16u   /* contains a P, R, S, E, A operator, a filter or a property reference */
#define PROPER__PM_F_PATH 32u  /* contains a temporal operator (inside P, E, A, R) */
#define PROPER__PM_F_STATE (PROPER__PM_F_VARS | PROPER__PM_F_LABELS | PROPER__PM_F_OPS) /* may differ by state */

typedef struct proper__prism_node {
    unsigned char kind, op, type, flags;
    int32_t a, b, c; /* children (-1 none) */
    int32_t idx;     /* NAME/LABEL: name id; VAR/CONST/PCONST: index */
    int line, col;
    int depth;       /* nesting after formula expansion */
    double num;      /* INT/BOOL/DOUBLE literal (an int fits exactly); PATH: strictness */
    double size;     /* nodes after formula expansion (saturating) */
} proper__prism_node;

typedef struct proper__prism_pool {
    proper__prism_node *n;
    size_t len, cap;
} proper__prism_pool;

/* A runtime value; the node's static type says which field is used. */
typedef struct proper__prism_val {
    long long i; /* INT and BOOL */
    double d;    /* DOUBLE */
} proper__prism_val;

static double proper__prism_as_double(int type, proper__prism_val v) { return type == PROPER_PRISM_DOUBLE ? v.d : (double)v.i; }

/* ---- Model declarations ----------------------------------------------------*/

typedef struct proper__prism_const_decl {
    int32_t sym;
    int type;
    int32_t expr;  /* -1: a parameter */
    int has_given; /* a value was given for a parameter */
    proper__prism_val given;
    char given_text[256]; /* the value as given to proper_prism_set_consts ("" otherwise): read exactly */
    int is_param;  /* declared with 'param' (PROPER / FACT) */
    int line, col;
} proper__prism_const_decl;

typedef struct proper__prism_formula_decl {
    int32_t sym, expr;
    int line, col;
} proper__prism_formula_decl;

typedef struct proper__prism_label_decl {
    int32_t name, expr; /* name: interned string */
    int line, col;
} proper__prism_label_decl;

typedef struct proper__prism_var_decl {
    int32_t sym;
    int is_bool;
    int32_t lo, hi, init; /* expressions; init -1 = default */
    int module;
    int line, col;
} proper__prism_var_decl;

typedef struct proper__prism_assign {
    int32_t var; /* sym while parsing, variable index after resolution */
    int32_t expr;
    int line, col;
} proper__prism_assign;

typedef struct proper__prism_update {
    int32_t prob;    /* expression, -1 = probability 1; an interval's lower end */
    int32_t prob_hi; /* an interval [prob, prob_hi]: its upper end; -1 = no interval */
    size_t first, n; /* assignments */
    int line, col;
} proper__prism_update;

typedef struct proper__prism_command {
    int32_t action; /* sym while parsing, action index after (-1 = unlabelled) */
    int32_t guard;
    size_t first, n; /* updates */
    int module;
    int line, col;
} proper__prism_command;

typedef struct proper__prism_module_decl {
    int32_t sym;
    size_t first_var, n_vars, first_cmd, n_cmds;
    int line, col;
} proper__prism_module_decl;

typedef struct proper__prism_reward_item {
    int is_trans;
    int32_t action; /* transition items: sym then action index (-1 = []) */
    int32_t guard, value;
    int line, col;
} proper__prism_reward_item;

typedef struct proper__prism_reward_decl {
    int32_t name; /* interned string, -1 unnamed */
    size_t first, n;
    int has_state, has_trans;
    int line, col;
} proper__prism_reward_decl;

struct proper_prism_model {
    char *file;
    proper_intern names;
    proper__prism_pool pool;
    proper__prism_const_decl *consts;
    size_t n_consts, cap_consts;
    proper__prism_formula_decl *formulas;
    size_t n_formulas, cap_formulas;
    proper__prism_label_decl *labels;
    size_t n_labels, cap_labels;
    proper__prism_var_decl *vars;
    size_t n_vars, cap_vars;
    proper__prism_module_decl *modules;
    size_t n_modules, cap_modules;
    proper__prism_command *cmds;
    size_t n_cmds, cap_cmds;
    proper__prism_update *updates;
    size_t n_updates, cap_updates;
    proper__prism_assign *assigns;
    size_t n_assigns, cap_assigns;
    proper__prism_reward_decl *rewards;
    size_t n_rewards, cap_rewards;
    proper__prism_reward_item *items;
    size_t n_items, cap_items;
    int is_ctmc;       /* ctmc/stochastic: updates carry rates */
    int has_intervals; /* some update has a probability interval [a,b] (PRISM's IDTMC) */
    int interval_line, interval_col; /* where the first one is */
    int32_t init_expr; /* init ... endinit: the initial states' predicate, or -1 */
    int init_line, init_col;
    int32_t *actions; /* action index -> name id */
    size_t n_actions, cap_actions;
    unsigned char *alphabet; /* n_modules * n_actions: module uses action */
    int exact_cmps; /* some nodes are PROPER__PM_N_XCMP: a build decides them exactly */
    /* name id -> declaration index, or -1 (sized names.len after parsing) */
    int32_t *sym_var, *sym_const, *sym_formula;
};

/* ---- Parser ----------------------------------------------------------------*/

typedef struct proper__prism_parser {
    const proper__prism_tok *t; /* all the tokens (properties), or NULL: lx lexes them as needed (models) */
    size_t n, i;
    proper__prism_lexer *lx;
    const char *file;
    proper_error *err;
    proper__prism_pool *pool;
    proper_intern *names;
    int depth;
    int props; /* properties: strings in expressions are labels, P/R/S/E/A/filter operators */
    int path;  /* inside P[...], E[...], A[...] or R[...]: temporal operators allowed */
} proper__prism_parser;

static const proper__prism_tok *proper__prism_peek(const proper__prism_parser *ps, size_t ahead) {
    size_t k = ps->i + ahead;
    if (ps->lx) return proper__prism_lexer_at(ps->lx, k);
    return &ps->t[k < ps->n ? k : ps->n - 1];
}

/* The parser is past the tokens before the current one, and holds no
 * pointer to them: their memory may be reused. */
static void proper__prism_release(proper__prism_parser *ps) {
    if (ps->lx) proper__prism_lexer_release(ps->lx, ps->i);
}

static int proper__prism_at(const proper__prism_parser *ps, int kind) { return proper__prism_peek(ps, 0)->kind == kind; }

static int proper__prism_tok_is(const proper__prism_tok *t, const char *word) {
    return t->kind == PROPER__PM_TK_IDENT && t->p[0] == word[0] && strlen(word) == t->len && memcmp(t->p, word, t->len) == 0;
}

static int proper__prism_at_word(const proper__prism_parser *ps, const char *word) {
    return proper__prism_tok_is(proper__prism_peek(ps, 0), word);
}

static int proper__prism_perr(const proper__prism_parser *ps, const proper__prism_tok *t, int code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int proper__prism_perr(const proper__prism_parser *ps, const proper__prism_tok *t, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    proper_error_setv(ps->err, code, ps->file, t->line, t->col, fmt, ap);
    va_end(ap);
    return code;
}

/* Describe a token for "expected X, found Y" messages. */
static void proper__prism_tok_describe(const proper__prism_tok *t, char *buf, size_t size) {
    if (t->kind == PROPER__PM_TK_IDENT || t->kind == PROPER__PM_TK_INT || t->kind == PROPER__PM_TK_DOUBLE)
        snprintf(buf, size, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->p);
    else if (t->kind == PROPER__PM_TK_STRING)
        snprintf(buf, size, "\"%.*s\"", (int)(t->len > 40 ? 40 : t->len), t->p);
    else
        snprintf(buf, size, "%s", proper__prism_tok_name(t->kind));
}

static int proper__prism_expect(proper__prism_parser *ps, int kind, const char *context) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    char found[64];
    if (t->kind == kind) {
        ps->i++;
        return PROPER_OK;
    }
    proper__prism_tok_describe(t, found, sizeof found);
    return proper__prism_perr(ps, t, PROPER_EPARSE, "expected %s %s, found %s", proper__prism_tok_name(kind), context, found);
}

/* "expected WHAT, found TOKEN" at the current token (nothing consumed). */
static int proper__prism_expected(proper__prism_parser *ps, const char *what) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    char found[64];
    proper__prism_tok_describe(t, found, sizeof found);
    return proper__prism_perr(ps, t, PROPER_EPARSE, "expected %s, found %s", what, found);
}

static int proper__prism_expect_word(proper__prism_parser *ps, const char *word, const char *context) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    char found[64];
    if (proper__prism_tok_is(t, word)) {
        ps->i++;
        return PROPER_OK;
    }
    proper__prism_tok_describe(t, found, sizeof found);
    return proper__prism_perr(ps, t, PROPER_EPARSE, "expected '%s' %s, found %s", word, context, found);
}

/* Words that cannot name a variable, constant, formula or module (PRISM's
 * keywords, including the property operators), in byte order for a binary
 * search (every identifier of a model is looked up). */
static int proper__prism_is_reserved(const char *p, size_t n) {
    static const char *const words[] = {
        "A", "C", "E", "F", "G", "I", "P", "Pmax", "Pmin", "R", "Rmax", "Rmin", "S", "U", "W", "X", "bool", "ceil",
        "clock", "const", "ctmc", "ctmdp", "double", "dtmc", "endinit", "endinvariant", "endmodule", "endobservables",
        "endplayer", "endrewards", "endsystem", "false", "filter", "floor", "formula", "func", "global", "init", "int",
        "invariant", "label", "log", "lts", "ma", "max", "mdp", "min", "mod", "module", "nondeterministic",
        "observable", "observables", "player", "pomdp", "popta", "pow", "prob", "probabilistic", "pta", "rate",
        "rewards", "round", "smg", "stochastic", "system", "true"};
    size_t lo = 0, hi = sizeof words / sizeof words[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2, len = strlen(words[mid]);
        int c = memcmp(p, words[mid], n < len ? n : len);
        if (c == 0) c = n < len ? -1 : n > len;
        if (c == 0) return 1;
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return 0;
}

static int proper__prism_function_code(const proper__prism_tok *t) {
    static const char *const fns[] = {"min", "max", "floor", "ceil", "round", "pow", "mod", "log"};
    int i;
    if (t->kind != PROPER__PM_TK_IDENT) return -1;
    for (i = 0; i < 8; i++)
        if (proper__prism_tok_is(t, fns[i])) return i;
    return -1;
}

/* Append a node; children's depth and size give the node's. */
static int32_t proper__prism_node_new(proper__prism_parser *ps, int kind, int op, int32_t a, int32_t b, int32_t c,
                                const proper__prism_tok *at) {
    proper__prism_node nd;
    proper__prism_pool *pool = ps->pool;
    int32_t kids[3];
    int k;
    memset(&nd, 0, sizeof nd);
    nd.kind = (unsigned char)kind;
    nd.op = (unsigned char)op;
    nd.a = a;
    nd.b = b;
    nd.c = c;
    nd.idx = -1;
    nd.line = at->line;
    nd.col = at->col;
    if ((kind == PROPER__PM_N_BIN || kind == PROPER__PM_N_ITE) && a >= 0) { /* an expression starts where its left operand does */
        nd.line = pool->n[a].line;
        nd.col = pool->n[a].col;
    }
    nd.depth = 1;
    nd.size = 1;
    kids[0] = a;
    kids[1] = b;
    kids[2] = c;
    for (k = 0; k < 3; k++)
        if (kids[k] >= 0) {
            const proper__prism_node *ch = &pool->n[kids[k]];
            if (ch->depth + 1 > nd.depth) nd.depth = ch->depth + 1;
            nd.size += ch->size;
        }
    if (nd.depth > PROPER_PRISM_MAX_DEPTH) {
        proper__prism_perr(ps, at, PROPER_ELIMIT, "expression nested more than %d deep", PROPER_PRISM_MAX_DEPTH);
        return -1;
    }
    if (pool->len >= 0x7fffffff || PROPER_PUSH(pool->n, pool->len, pool->cap, nd)) {
        proper__prism_perr(ps, at, PROPER_ENOMEM, "out of memory");
        return -1;
    }
    return (int32_t)(pool->len - 1);
}

static int32_t proper__prism_parse_expr(proper__prism_parser *ps);

static int32_t proper__prism_parse_args(proper__prism_parser *ps, int fn, const proper__prism_tok *name) {
    int32_t args[2], acc;
    int nargs = 0, want_min = 2, want_max = 2;
    if (fn == PROPER__PM_FN_FLOOR || fn == PROPER__PM_FN_CEIL || fn == PROPER__PM_FN_ROUND) want_min = want_max = 1;
    if (fn == PROPER__PM_FN_MIN || fn == PROPER__PM_FN_MAX) {
        want_min = 1;
        want_max = INT_MAX;
    }
    ps->i++; /* name */
    if (proper__prism_expect(ps, PROPER__PM_TK_LPAREN, "after function name")) return -1;
    acc = -1;
    for (;;) {
        int32_t e = proper__prism_parse_expr(ps);
        if (e < 0) return -1;
        nargs++;
        if (fn == PROPER__PM_FN_MIN || fn == PROPER__PM_FN_MAX) {
            /* min(a, b, c) = min(min(a, b), c): the same value and type */
            acc = acc < 0 ? e : proper__prism_node_new(ps, PROPER__PM_N_FUNC, fn, acc, e, -1, name);
            if (acc < 0) return -1;
        } else if (nargs <= 2) {
            args[nargs - 1] = e;
        }
        if (proper__prism_at(ps, PROPER__PM_TK_COMMA)) {
            ps->i++;
            continue;
        }
        break;
    }
    if (proper__prism_expect(ps, PROPER__PM_TK_RPAREN, "after function arguments")) return -1;
    if (nargs < want_min || nargs > want_max) {
        proper__prism_perr(ps, name, PROPER_EPARSE, "%.*s takes %d argument%s, not %d", (int)name->len, name->p,
                     want_min, want_min == 1 ? "" : "s", nargs);
        return -1;
    }
    if (fn == PROPER__PM_FN_MIN || fn == PROPER__PM_FN_MAX) return acc; /* min(a) is a */
    return proper__prism_node_new(ps, PROPER__PM_N_FUNC, fn, args[0], want_max == 2 ? args[1] : -1, -1, name);
}

/* ---- Property operators (properties files only) ------------------------------*/

static int32_t proper__prism_parse_plusminus(proper__prism_parser *ps);
static int32_t proper__prism_parse_temporal(proper__prism_parser *ps);
static int proper__prism_enter(proper__prism_parser *ps);

static const char *const proper__prism_filter_names[PROPER__PM_FL_N] = {
    "min", "max", "argmin", "argmax", "count", "sum", "avg", "first", "range", "forall", "exists", "print",
    "printall", "state"};

/* A temporal operator word at t: X F G (unary) or U W R (binary), or -1. */
static int proper__prism_temporal_op(const proper__prism_tok *t, int binary) {
    if (binary)
        return proper__prism_tok_is(t, "U") ? PROPER__PM_T_U : proper__prism_tok_is(t, "W") ? PROPER__PM_T_W :
               proper__prism_tok_is(t, "R") ? PROPER__PM_T_R : -1;
    return proper__prism_tok_is(t, "X") ? PROPER__PM_T_X : proper__prism_tok_is(t, "F") ? PROPER__PM_T_F :
           proper__prism_tok_is(t, "G") ? PROPER__PM_T_G : -1;
}

/* A path node: operator op over a (-1 for unary) and b, step bounds lo..hi
 * (-1 none), strict: 1 upper, 2 lower. */
static int32_t proper__prism_path_node(proper__prism_parser *ps, int op, int32_t a, int32_t b, int32_t lo, int32_t hi,
                                       int strict, const proper__prism_tok *at) {
    int32_t id = proper__prism_node_new(ps, PROPER__PM_N_PATH, op, a, b, hi, at);
    if (id >= 0) {
        ps->pool->n[id].idx = lo;
        ps->pool->n[id].num = strict;
    }
    return id;
}

/* One bound expression (a constant; parsed outside path mode). */
static int32_t proper__prism_parse_bound_expr(proper__prism_parser *ps, int whole) {
    int saved = ps->path;
    int32_t e;
    ps->path = 0;
    e = whole ? proper__prism_parse_expr(ps) : proper__prism_parse_plusminus(ps);
    ps->path = saved;
    return e;
}

/* Optional step bound of a temporal operator: <=k <k >=k >k =k [a,b]. */
static int proper__prism_parse_time_bound(proper__prism_parser *ps, int32_t *lo, int32_t *hi, int *strict) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    *lo = *hi = -1;
    *strict = 0;
    switch (t->kind) {
    case PROPER__PM_TK_LE: case PROPER__PM_TK_LT:
        ps->i++;
        if (t->kind == PROPER__PM_TK_LT) *strict = 1;
        return (*hi = proper__prism_parse_bound_expr(ps, 0)) < 0 ? PROPER_EPARSE : PROPER_OK;
    case PROPER__PM_TK_GE: case PROPER__PM_TK_GT:
        ps->i++;
        if (t->kind == PROPER__PM_TK_GT) *strict = 2;
        return (*lo = proper__prism_parse_bound_expr(ps, 0)) < 0 ? PROPER_EPARSE : PROPER_OK;
    case PROPER__PM_TK_EQ:
        ps->i++;
        *lo = *hi = proper__prism_parse_bound_expr(ps, 0);
        return *lo < 0 ? PROPER_EPARSE : PROPER_OK;
    case PROPER__PM_TK_LBRACK:
        ps->i++;
        if ((*lo = proper__prism_parse_bound_expr(ps, 1)) < 0 ||
            proper__prism_expect(ps, PROPER__PM_TK_COMMA, "between the bounds of '[a,b]'") ||
            (*hi = proper__prism_parse_bound_expr(ps, 1)) < 0 ||
            proper__prism_expect(ps, PROPER__PM_TK_RBRACK, "to close the bounds '[a,b]'"))
            return PROPER_EPARSE;
        return PROPER_OK;
    default: return PROPER_OK;
    }
}

/* X, F, G [bound] operand (right-recursive), or an expression. */
static int32_t proper__prism_parse_temporal_unary(proper__prism_parser *ps) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    int op = ps->path ? proper__prism_temporal_op(t, 0) : -1, strict;
    int32_t lo, hi, e;
    if (op < 0) return proper__prism_parse_expr(ps);
    ps->i++;
    if (proper__prism_enter(ps)) return -1;
    if (proper__prism_parse_time_bound(ps, &lo, &hi, &strict)) {
        ps->depth--;
        return -1;
    }
    e = proper__prism_parse_temporal_unary(ps);
    ps->depth--;
    return e < 0 ? -1 : proper__prism_path_node(ps, op, -1, e, lo, hi, strict, t);
}

/* a (U|W|R) [bound] b, or one unary level (PRISM's precedence: temporal
 * operators bind loosest). */
static int32_t proper__prism_parse_temporal(proper__prism_parser *ps) {
    int32_t l = proper__prism_parse_temporal_unary(ps), r, lo, hi;
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    int op = ps->path && l >= 0 ? proper__prism_temporal_op(t, 1) : -1, strict;
    if (op < 0) return l;
    ps->i++;
    if (proper__prism_parse_time_bound(ps, &lo, &hi, &strict)) return -1;
    if ((r = proper__prism_parse_temporal_unary(ps)) < 0) return -1;
    return proper__prism_path_node(ps, op, l, r, lo, hi, strict, t);
}

/* The contents of [ ... ] in path mode (or not), ended by ']' or an old-style filter '{'. */
static int32_t proper__prism_parse_bracketed(proper__prism_parser *ps, int path) {
    int saved = ps->path;
    int32_t e;
    ps->path = path;
    e = proper__prism_parse_temporal(ps);
    ps->path = saved;
    return e;
}

/* "=?", "min=?", "max=?" (*op = PROPER__PM_QUERY) or a bound "op expr" after P, R{..} or S. */
/* The query of P, R or S: "=?" or a bound. *dir is the min or max given
 * with the operator's letter (Pmin: PROPER__PM_MIN, Pmax: PROPER__PM_MAX,
 * else 0); a following word min or max sets it (P min=?). */
static int proper__prism_parse_query(proper__prism_parser *ps, int *dir, int *op, int32_t *bound) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    int minmax_done = *dir != 0;
    *bound = -1;
    if (!minmax_done && (proper__prism_tok_is(t, "min") || proper__prism_tok_is(t, "max"))) {
        *dir = proper__prism_tok_is(t, "min") ? PROPER__PM_MIN : PROPER__PM_MAX;
        ps->i++;
        t = proper__prism_peek(ps, 0);
        minmax_done = 1;
    }
    if (t->kind == PROPER__PM_TK_EQ) {
        ps->i++;
        *op = PROPER__PM_QUERY;
        return proper__prism_expect(ps, PROPER__PM_TK_QMARK, "in '=?'");
    }
    if (!minmax_done && (t->kind == PROPER__PM_TK_LT || t->kind == PROPER__PM_TK_LE || t->kind == PROPER__PM_TK_GT ||
                         t->kind == PROPER__PM_TK_GE)) {
        *op = t->kind == PROPER__PM_TK_LT ? PROPER__PM_OP_LT : t->kind == PROPER__PM_TK_LE ? PROPER__PM_OP_LE :
              t->kind == PROPER__PM_TK_GT ? PROPER__PM_OP_GT : PROPER__PM_OP_GE;
        ps->i++;
        return (*bound = proper__prism_parse_bound_expr(ps, 0)) < 0 ? PROPER_EPARSE : PROPER_OK;
    }
    return proper__prism_expect(ps, PROPER__PM_TK_EQ, "('=?' or a bound such as '>=0.5')");
}

/* An old-style filter "{states}{min}{max}" before the ']' of P, R or S:
 * wraps operator node e as PRISM does (a bound: forall; min and max: range;
 * min: min; max: max; neither: the value in the one state). */
static int32_t proper__prism_parse_old_filter(proper__prism_parser *ps, int32_t e, int bounded) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    int32_t states;
    int want_min = 0, want_max = 0, op;
    if (t->kind != PROPER__PM_TK_LBRACE) return e;
    ps->i++;
    if ((states = proper__prism_parse_bracketed(ps, 0)) < 0 ||
        proper__prism_expect(ps, PROPER__PM_TK_RBRACE, "to close the filter '{...}'"))
        return -1;
    while (proper__prism_at(ps, PROPER__PM_TK_LBRACE)) {
        const proper__prism_tok *w = proper__prism_peek(ps, 1);
        if (!proper__prism_tok_is(w, "min") && !proper__prism_tok_is(w, "max")) {
            proper__prism_expected(ps, "'min' or 'max' in a filter '{min}'");
            return -1;
        }
        if (proper__prism_tok_is(w, "min")) want_min = 1;
        else want_max = 1;
        ps->i += 2;
        if (proper__prism_expect(ps, PROPER__PM_TK_RBRACE, "after '{min' or '{max'")) return -1;
    }
    op = bounded ? PROPER__PM_FL_FORALL : want_min && want_max ? PROPER__PM_FL_RANGE : want_min ? PROPER__PM_FL_MIN :
         want_max ? PROPER__PM_FL_MAX : PROPER__PM_FL_STATE;
    return proper__prism_node_new(ps, PROPER__PM_N_FILTER, op, e, states, -1, t);
}

/* P|Pmin|Pmax query [ path {filter} ] (kind PROPER__PM_N_PROB) and
 * S query [ state formula {filter} ] (PROPER__PM_N_STEADY): the same shape,
 * a path formula or a state formula inside. */
static int32_t proper__prism_parse_prob_or_steady(proper__prism_parser *ps, int kind) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    int op, path = kind == PROPER__PM_N_PROB;
    int dir = !path ? 0 : proper__prism_tok_is(t, "Pmin") ? PROPER__PM_MIN : proper__prism_tok_is(t, "Pmax") ? PROPER__PM_MAX : 0;
    int32_t bound, inner, e;
    ps->i++;
    if (proper__prism_parse_query(ps, &dir, &op, &bound) ||
        proper__prism_expect(ps, PROPER__PM_TK_LBRACK, path ? "to open the path formula" : "to open the state formula") ||
        (inner = proper__prism_parse_bracketed(ps, path)) < 0)
        return -1;
    if ((e = proper__prism_node_new(ps, kind, op, inner, bound, -1, t)) < 0) return -1;
    ps->pool->n[e].num = dir;
    if ((e = proper__prism_parse_old_filter(ps, e, bound >= 0)) < 0) return -1;
    return proper__prism_expect(ps, PROPER__PM_TK_RBRACK, path ? "to close the path formula" : "to close the state formula")
               ? -1 : e;
}

/* The formula of R[...]: S, C<=k, C, I=k, or a path formula (F phi). */
static int32_t proper__prism_parse_reward_formula(proper__prism_parser *ps) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0), *next = proper__prism_peek(ps, 1);
    int end = next->kind == PROPER__PM_TK_RBRACK || next->kind == PROPER__PM_TK_LBRACE;
    int32_t k;
    if (proper__prism_tok_is(t, "S") && end) {
        ps->i++;
        return proper__prism_path_node(ps, PROPER__PM_T_LRA, -1, -1, -1, -1, 0, t);
    }
    if (proper__prism_tok_is(t, "C") && end) {
        ps->i++;
        return proper__prism_path_node(ps, PROPER__PM_T_TOTAL, -1, -1, -1, -1, 0, t);
    }
    if ((proper__prism_tok_is(t, "C") && next->kind == PROPER__PM_TK_LE) ||
        (proper__prism_tok_is(t, "I") && next->kind == PROPER__PM_TK_EQ)) {
        ps->i += 2;
        if ((k = proper__prism_parse_bound_expr(ps, 0)) < 0) return -1;
        return proper__prism_path_node(ps, proper__prism_tok_is(t, "C") ? PROPER__PM_T_C : PROPER__PM_T_I, -1, -1, -1, k, 0,
                                       t);
    }
    return proper__prism_parse_bracketed(ps, 1);
}

/* R|Rmin|Rmax [{"name"} | {index}] query [ formula {filter} ] */
static int32_t proper__prism_parse_reward(proper__prism_parser *ps) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    int op, dir = proper__prism_tok_is(t, "Rmin") ? PROPER__PM_MIN : proper__prism_tok_is(t, "Rmax") ? PROPER__PM_MAX : 0;
    int32_t bound, index = -1, name = -1, formula, e;
    ps->i++;
    if (!dir && proper__prism_at(ps, PROPER__PM_TK_LBRACE)) {
        const proper__prism_tok *nt = proper__prism_peek(ps, 1);
        ps->i++;
        if (nt->kind == PROPER__PM_TK_STRING) {
            ps->i++;
            if (proper__prism_names_intern(ps->names, nt->p, nt->len, &name)) {
                proper__prism_perr(ps, nt, PROPER_ENOMEM, "out of memory");
                return -1;
            }
        } else if ((index = proper__prism_parse_bound_expr(ps, 1)) < 0) {
            return -1;
        }
        if (proper__prism_expect(ps, PROPER__PM_TK_RBRACE, "after the reward structure")) return -1;
        if (proper__prism_at(ps, PROPER__PM_TK_SLASH)) {
            proper__prism_perr(ps, proper__prism_peek(ps, 0), PROPER_EUNSUPPORTED,
                               "ratio rewards R{..}/{..} are not supported");
            return -1;
        }
    }
    if (proper__prism_parse_query(ps, &dir, &op, &bound) ||
        proper__prism_expect(ps, PROPER__PM_TK_LBRACK, "to open the reward formula") ||
        (formula = proper__prism_parse_reward_formula(ps)) < 0)
        return -1;
    if ((e = proper__prism_node_new(ps, PROPER__PM_N_REWARD, op, formula, bound, index, t)) < 0) return -1;
    ps->pool->n[e].idx = name;
    ps->pool->n[e].num = dir;
    if ((e = proper__prism_parse_old_filter(ps, e, bound >= 0)) < 0) return -1;
    return proper__prism_expect(ps, PROPER__PM_TK_RBRACK, "to close the reward formula") ? -1 : e;
}

/* E [ path ] or A [ path ] (CTL). */
static int32_t proper__prism_parse_ctl(proper__prism_parser *ps) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    int32_t path;
    ps->i += 2;
    if ((path = proper__prism_parse_bracketed(ps, 1)) < 0 ||
        proper__prism_expect(ps, PROPER__PM_TK_RBRACK, "to close the path formula"))
        return -1;
    return proper__prism_node_new(ps, proper__prism_tok_is(t, "E") ? PROPER__PM_N_EXISTS : PROPER__PM_N_FORALL, 0, path,
                                  -1, -1, t);
}

/* filter(op, expression [, states]); op one of PRISM's names, or + & |. */
static int32_t proper__prism_parse_filter(proper__prism_parser *ps) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0), *w;
    int op = -1, k;
    int32_t a, b = -1;
    ps->i += 2;
    w = proper__prism_peek(ps, 0);
    if (w->kind == PROPER__PM_TK_PLUS) op = PROPER__PM_FL_SUM;
    else if (w->kind == PROPER__PM_TK_AND) op = PROPER__PM_FL_FORALL;
    else if (w->kind == PROPER__PM_TK_OR) op = PROPER__PM_FL_EXISTS;
    for (k = 0; op < 0 && k < PROPER__PM_FL_N; k++)
        if (proper__prism_tok_is(w, proper__prism_filter_names[k])) op = k;
    if (op < 0) {
        proper__prism_expected(ps, "a filter operator (min, max, argmin, argmax, count, sum, avg, first, range, "
                                   "forall, exists, print, printall, state)");
        return -1;
    }
    ps->i++;
    if (proper__prism_expect(ps, PROPER__PM_TK_COMMA, "after the filter operator") ||
        (a = proper__prism_parse_temporal(ps)) < 0)
        return -1;
    if (proper__prism_at(ps, PROPER__PM_TK_COMMA)) {
        ps->i++;
        if ((b = proper__prism_parse_temporal(ps)) < 0) return -1;
    }
    if (proper__prism_expect(ps, PROPER__PM_TK_RPAREN, "to close 'filter('")) return -1;
    return proper__prism_node_new(ps, PROPER__PM_N_FILTER, op, a, b, -1, t);
}

/* A property operator starts at the next token (properties only). */
static int32_t proper__prism_parse_operator(proper__prism_parser *ps, int *found) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0), *next = proper__prism_peek(ps, 1);
    *found = 1;
    if (proper__prism_tok_is(t, "P") || proper__prism_tok_is(t, "Pmin") || proper__prism_tok_is(t, "Pmax"))
        return proper__prism_parse_prob_or_steady(ps, PROPER__PM_N_PROB);
    if (proper__prism_tok_is(t, "R") || proper__prism_tok_is(t, "Rmin") || proper__prism_tok_is(t, "Rmax"))
        return proper__prism_parse_reward(ps);
    if (proper__prism_tok_is(t, "S")) return proper__prism_parse_prob_or_steady(ps, PROPER__PM_N_STEADY);
    if ((proper__prism_tok_is(t, "E") || proper__prism_tok_is(t, "A")) && next->kind == PROPER__PM_TK_LBRACK)
        return proper__prism_parse_ctl(ps);
    if (proper__prism_tok_is(t, "filter") && next->kind == PROPER__PM_TK_LPAREN) return proper__prism_parse_filter(ps);
    *found = 0;
    return -1;
}

static int32_t proper__prism_parse_primary(proper__prism_parser *ps) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    int32_t id, e;
    char found[64];
    switch (t->kind) {
    case PROPER__PM_TK_INT:
        ps->i++;
        id = proper__prism_node_new(ps, PROPER__PM_N_INT, 0, -1, -1, -1, t);
        if (id >= 0) ps->pool->n[id].num = t->num;
        return id;
    case PROPER__PM_TK_DOUBLE:
        ps->i++;
        id = proper__prism_node_new(ps, PROPER__PM_N_DOUBLE, 0, -1, -1, -1, t);
        if (id >= 0) { /* the literal as written, for exact evaluation */
            ps->pool->n[id].num = t->num;
            ps->pool->n[id].op = (unsigned char)(proper__prism_decimal_exact(t->p, t->len, t->num) ? PROPER__PM_LIT_EXACT : 0);
            if (proper__prism_names_intern(ps->names, t->p, t->len, &ps->pool->n[id].idx)) {
                proper__prism_perr(ps, t, PROPER_ENOMEM, "out of memory");
                return -1;
            }
        }
        return id;
    case PROPER__PM_TK_LPAREN:
        ps->i++;
        e = ps->path ? proper__prism_parse_temporal(ps) : proper__prism_parse_expr(ps);
        if (e < 0 || proper__prism_expect(ps, PROPER__PM_TK_RPAREN, "to close '('")) return -1;
        return e;
    case PROPER__PM_TK_STRING:
        if (!ps->props) {
            proper__prism_perr(ps, t, PROPER_EPARSE, "labels (\"%.*s\") can only be used in properties",
                         (int)(t->len > 40 ? 40 : t->len), t->p);
            return -1;
        }
        ps->i++;
        id = proper__prism_node_new(ps, PROPER__PM_N_LABEL, 0, -1, -1, -1, t);
        if (id >= 0 && proper__prism_names_intern(ps->names, t->p, t->len, &ps->pool->n[id].idx)) {
            proper__prism_perr(ps, t, PROPER_ENOMEM, "out of memory");
            return -1;
        }
        return id;
    case PROPER__PM_TK_IDENT:
        if (proper__prism_tok_is(t, "true") || proper__prism_tok_is(t, "false")) {
            ps->i++;
            id = proper__prism_node_new(ps, PROPER__PM_N_BOOL, 0, -1, -1, -1, t);
            if (id >= 0) ps->pool->n[id].num = proper__prism_tok_is(t, "true");
            return id;
        }
        if (proper__prism_function_code(t) >= 0 && proper__prism_peek(ps, 1)->kind == PROPER__PM_TK_LPAREN)
            return proper__prism_parse_args(ps, proper__prism_function_code(t), t);
        if (ps->props) {
            int found;
            if (proper__prism_enter(ps)) return -1;
            e = proper__prism_parse_operator(ps, &found);
            ps->depth--;
            if (found) return e;
        }
        if (proper__prism_is_reserved(t->p, t->len)) {
            proper__prism_perr(ps, t, PROPER_EPARSE, "unexpected '%.*s' in expression", (int)t->len, t->p);
            return -1;
        }
        ps->i++;
        id = proper__prism_node_new(ps, PROPER__PM_N_NAME, 0, -1, -1, -1, t);
        if (id >= 0 && proper__prism_names_intern(ps->names, t->p, t->len, &ps->pool->n[id].idx)) {
            proper__prism_perr(ps, t, PROPER_ENOMEM, "out of memory");
            return -1;
        }
        return id;
    default:
        proper__prism_tok_describe(t, found, sizeof found);
        proper__prism_perr(ps, t, PROPER_EPARSE, "expected an expression, found %s", found);
        return -1;
    }
}

/* Recursion guard for the right-recursive rules. */
static int proper__prism_enter(proper__prism_parser *ps) {
    if (++ps->depth > PROPER_PRISM_MAX_DEPTH) {
        proper__prism_perr(ps, proper__prism_peek(ps, 0), PROPER_ELIMIT, "expression nested more than %d deep",
                     PROPER_PRISM_MAX_DEPTH);
        return -1;
    }
    return 0;
}

static int32_t proper__prism_parse_unary(proper__prism_parser *ps) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    int32_t e;
    if (t->kind != PROPER__PM_TK_MINUS) return proper__prism_parse_primary(ps);
    ps->i++;
    if (proper__prism_enter(ps)) return -1;
    e = proper__prism_parse_unary(ps);
    ps->depth--;
    return e < 0 ? -1 : proper__prism_node_new(ps, PROPER__PM_N_NEG, 0, e, -1, -1, t);
}

/* a ^ b ^ c = a ^ (b ^ c) */
static int32_t proper__prism_parse_power(proper__prism_parser *ps) {
    int32_t l = proper__prism_parse_unary(ps), r;
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    if (l < 0 || t->kind != PROPER__PM_TK_CARET) return l;
    ps->i++;
    if (proper__prism_enter(ps)) return -1;
    r = proper__prism_parse_power(ps);
    ps->depth--;
    return r < 0 ? -1 : proper__prism_node_new(ps, PROPER__PM_N_BIN, PROPER__PM_OP_POW, l, r, -1, t);
}

/* One left-associative level: operators ops[k] map to node ops opc[k]. */
static int32_t proper__prism_parse_left(proper__prism_parser *ps, int32_t (*next)(proper__prism_parser *), const int *toks,
                                  const int *opc, int nops) {
    int32_t l = next(ps);
    while (l >= 0) {
        const proper__prism_tok *t = proper__prism_peek(ps, 0);
        int k, found = -1;
        int32_t r;
        for (k = 0; k < nops; k++)
            if (t->kind == toks[k]) found = k;
        if (found < 0) break;
        ps->i++;
        r = next(ps);
        if (r < 0) return -1;
        l = proper__prism_node_new(ps, PROPER__PM_N_BIN, opc[found], l, r, -1, t);
    }
    return l;
}

static int32_t proper__prism_parse_timesdiv(proper__prism_parser *ps) {
    static const int toks[] = {PROPER__PM_TK_STAR, PROPER__PM_TK_SLASH};
    static const int ops[] = {PROPER__PM_OP_MUL, PROPER__PM_OP_DIV};
    return proper__prism_parse_left(ps, proper__prism_parse_power, toks, ops, 2);
}

static int32_t proper__prism_parse_plusminus(proper__prism_parser *ps) {
    static const int toks[] = {PROPER__PM_TK_PLUS, PROPER__PM_TK_MINUS};
    static const int ops[] = {PROPER__PM_OP_ADD, PROPER__PM_OP_SUB};
    return proper__prism_parse_left(ps, proper__prism_parse_timesdiv, toks, ops, 2);
}

static int32_t proper__prism_parse_relop(proper__prism_parser *ps) {
    static const int toks[] = {PROPER__PM_TK_LT, PROPER__PM_TK_LE, PROPER__PM_TK_GT, PROPER__PM_TK_GE};
    static const int ops[] = {PROPER__PM_OP_LT, PROPER__PM_OP_LE, PROPER__PM_OP_GT, PROPER__PM_OP_GE};
    return proper__prism_parse_left(ps, proper__prism_parse_plusminus, toks, ops, 4);
}

static int32_t proper__prism_parse_equality(proper__prism_parser *ps) {
    static const int toks[] = {PROPER__PM_TK_EQ, PROPER__PM_TK_NE};
    static const int ops[] = {PROPER__PM_OP_EQ, PROPER__PM_OP_NE};
    return proper__prism_parse_left(ps, proper__prism_parse_relop, toks, ops, 2);
}

static int32_t proper__prism_parse_not(proper__prism_parser *ps) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    int32_t e;
    if (t->kind != PROPER__PM_TK_NOT) return proper__prism_parse_equality(ps);
    ps->i++;
    if (proper__prism_enter(ps)) return -1;
    e = proper__prism_parse_not(ps);
    ps->depth--;
    return e < 0 ? -1 : proper__prism_node_new(ps, PROPER__PM_N_NOT, 0, e, -1, -1, t);
}

static int32_t proper__prism_parse_and(proper__prism_parser *ps) {
    static const int toks[] = {PROPER__PM_TK_AND};
    static const int ops[] = {PROPER__PM_OP_AND};
    return proper__prism_parse_left(ps, proper__prism_parse_not, toks, ops, 1);
}

static int32_t proper__prism_parse_or(proper__prism_parser *ps) {
    static const int toks[] = {PROPER__PM_TK_OR};
    static const int ops[] = {PROPER__PM_OP_OR};
    return proper__prism_parse_left(ps, proper__prism_parse_and, toks, ops, 1);
}

static int32_t proper__prism_parse_iff(proper__prism_parser *ps) {
    static const int toks[] = {PROPER__PM_TK_IFF};
    static const int ops[] = {PROPER__PM_OP_IFF};
    return proper__prism_parse_left(ps, proper__prism_parse_or, toks, ops, 1);
}

/* a => b => c = a => (b => c) */
static int32_t proper__prism_parse_implies(proper__prism_parser *ps) {
    int32_t l = proper__prism_parse_iff(ps), r;
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    if (l < 0 || t->kind != PROPER__PM_TK_IMPLIES) return l;
    ps->i++;
    if (proper__prism_enter(ps)) return -1;
    r = proper__prism_parse_implies(ps);
    ps->depth--;
    return r < 0 ? -1 : proper__prism_node_new(ps, PROPER__PM_N_BIN, PROPER__PM_OP_IMPLIES, l, r, -1, t);
}

/* c ? a : b, right-associative in b. */
static int32_t proper__prism_parse_expr(proper__prism_parser *ps) {
    int32_t c, a, b;
    const proper__prism_tok *t;
    if (proper__prism_enter(ps)) return -1;
    c = proper__prism_parse_implies(ps);
    t = proper__prism_peek(ps, 0);
    if (c >= 0 && t->kind == PROPER__PM_TK_QMARK) {
        ps->i++;
        a = proper__prism_parse_implies(ps);
        if (a < 0 || proper__prism_expect(ps, PROPER__PM_TK_COLON, "in '? :'")) {
            ps->depth--;
            return -1;
        }
        b = proper__prism_parse_expr(ps);
        c = b < 0 ? -1 : proper__prism_node_new(ps, PROPER__PM_N_ITE, 0, c, a, b, t);
    }
    ps->depth--;
    return c;
}

/* ---- Model parser ----------------------------------------------------------*/

typedef struct proper__prism_mparser {
    proper__prism_parser ps;
    proper_prism_model *m;
} proper__prism_mparser;

static int proper__prism_oom(proper__prism_parser *ps) {
    return proper__prism_perr(ps, proper__prism_peek(ps, 0), PROPER_ENOMEM, "out of memory");
}

/* An identifier being declared: not reserved. */
static int proper__prism_decl_name(proper__prism_parser *ps, const char *what, int32_t *sym, const proper__prism_tok **at) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    char found[64];
    if (t->kind != PROPER__PM_TK_IDENT) {
        proper__prism_tok_describe(t, found, sizeof found);
        return proper__prism_perr(ps, t, PROPER_EPARSE, "expected the name of the %s, found %s", what, found);
    }
    if (proper__prism_is_reserved(t->p, t->len))
        return proper__prism_perr(ps, t, PROPER_EPARSE, "'%.*s' is a reserved word and cannot name a %s", (int)t->len,
                            t->p, what);
    ps->i++;
    if (at) *at = t;
    return proper__prism_names_intern(ps->names, t->p, t->len, sym) ? proper__prism_oom(ps) : PROPER_OK;
}

/* Type keyword of a const: int, double, bool, or none (= int). */
static int proper__prism_parse_const_type(proper__prism_parser *ps) {
    if (proper__prism_at_word(ps, "int")) { ps->i++; return PROPER_PRISM_INT; }
    if (proper__prism_at_word(ps, "double")) { ps->i++; return PROPER_PRISM_DOUBLE; }
    if (proper__prism_at_word(ps, "bool")) { ps->i++; return PROPER_PRISM_BOOL; }
    return PROPER_PRISM_INT;
}

/* const [type] name [= expr] ; */
static int proper__prism_parse_const(proper__prism_parser *ps, proper__prism_const_decl **arr, size_t *len, size_t *cap) {
    proper__prism_const_decl d;
    const proper__prism_tok *at;
    ps->i++; /* const */
    memset(&d, 0, sizeof d);
    d.type = proper__prism_parse_const_type(ps);
    d.expr = -1;
    if (proper__prism_decl_name(ps, "constant", &d.sym, &at)) return PROPER_EPARSE;
    d.line = at->line;
    d.col = at->col;
    if (proper__prism_at(ps, PROPER__PM_TK_EQ)) {
        ps->i++;
        if ((d.expr = proper__prism_parse_expr(ps)) < 0) return PROPER_EPARSE;
    }
    if (proper__prism_expect(ps, PROPER__PM_TK_SEMI, "after constant declaration")) return PROPER_EPARSE;
    return PROPER_PUSH(*arr, *len, *cap, d) ? proper__prism_oom(ps) : PROPER_OK;
}

/* A parameter named text[0..n) (with suffix k > 0 appended when k > 0). */
static int proper__prism_push_param(proper__prism_parser *ps, const proper__prism_tok *at, const char *text, size_t n,
                                    unsigned long k, proper__prism_const_decl **arr, size_t *len, size_t *cap) {
    proper__prism_const_decl d;
    char name[96];
    int w;
    memset(&d, 0, sizeof d);
    d.type = PROPER_PRISM_DOUBLE;
    d.expr = -1;
    d.is_param = 1;
    d.line = at->line;
    d.col = at->col;
    w = k ? snprintf(name, sizeof name, "%.*s%lu", (int)n, text, k) : snprintf(name, sizeof name, "%.*s", (int)n, text);
    if (w < 0 || (size_t)w >= sizeof name) return proper__prism_perr(ps, at, PROPER_EPARSE, "parameter name too long");
    if (proper__prism_names_intern(ps->names, name, (size_t)w, &d.sym)) return proper__prism_oom(ps);
    return PROPER_PUSH(*arr, *len, *cap, d) ? proper__prism_oom(ps) : PROPER_OK;
}

/* Whether identifier t is base followed by decimal digits only (n1 -> n11, n12). */
static unsigned long proper__prism_suffix_of(const proper__prism_tok *t, const proper__prism_tok *base) {
    unsigned long k = 0;
    size_t i;
    if (t->kind != PROPER__PM_TK_IDENT || t->len <= base->len || t->len - base->len > 6 ||
        memcmp(t->p, base->p, base->len) != 0)
        return 0;
    for (i = base->len; i < t->len; i++) {
        if (t->p[i] < '0' || t->p[i] > '9') return 0;
        k = k * 10 + (unsigned long)(t->p[i] - '0');
    }
    return k;
}

/* param [type] name [= expr] ;             a parameter (a value makes it a constant
 *                                          with a default, still open to --param)
 * param double x = c1 c2 ... ck ;          FACT: observed counts of k outcomes; the
 *                                          parameters are x1 .. x(k-1)
 * param double n = "file.csv" ;            FACT: data in a file; the parameters are
 *                                          the names n1, n2, ... the model uses
 * The counts and files are FACT's data for confidence intervals: here they
 * only declare the parameters, which need values (--const) or --param. */
static int proper__prism_parse_param(proper__prism_parser *ps, proper__prism_const_decl **arr, size_t *len, size_t *cap) {
    const proper__prism_tok *at, *t;
    proper__prism_const_decl d;
    size_t i, first = *len;
    ps->i++; /* param */
    memset(&d, 0, sizeof d);
    d.type = proper__prism_parse_const_type(ps);
    d.expr = -1;
    d.is_param = 1;
    if (proper__prism_decl_name(ps, "parameter", &d.sym, &at)) return PROPER_EPARSE;
    d.line = at->line;
    d.col = at->col;
    if (!proper__prism_at(ps, PROPER__PM_TK_EQ)) {
        if (proper__prism_expect(ps, PROPER__PM_TK_SEMI, "after parameter declaration")) return PROPER_EPARSE;
        return PROPER_PUSH(*arr, *len, *cap, d) ? proper__prism_oom(ps) : PROPER_OK;
    }
    ps->i++;
    t = proper__prism_peek(ps, 0);
    if (t->kind == PROPER__PM_TK_STRING) { /* FACT's data file: the names the model uses, anywhere in it */
        const proper__prism_tok *all = ps->t;
        proper__prism_tok *own = NULL;
        size_t n_all = ps->n;
        proper_error ignored; /* a lexing error is the parse's own (ps->lx reports it) */
        ps->i++;
        if (ps->lx && proper__prism_lex(ps->lx->text, ps->lx->len, ps->file, &own, &n_all, &ignored) != 0) n_all = 0;
        if (ps->lx) all = own;
        for (i = 0; i < n_all; i++) {
            unsigned long k = proper__prism_suffix_of(&all[i], at);
            size_t j;
            int seen = 0;
            if (!k) continue;
            for (j = first; j < *len && !seen; j++)
                seen = strlen(ps->names->names[(*arr)[j].sym]) == all[i].len &&
                       memcmp(ps->names->names[(*arr)[j].sym], all[i].p, all[i].len) == 0;
            if (!seen && proper__prism_push_param(ps, at, at->p, at->len, k, arr, len, cap)) {
                PROPER_FREE(own);
                return PROPER_EPARSE;
            }
        }
        PROPER_FREE(own);
    } else if ((t->kind == PROPER__PM_TK_INT || t->kind == PROPER__PM_TK_DOUBLE) &&
               (proper__prism_peek(ps, 1)->kind == PROPER__PM_TK_INT || proper__prism_peek(ps, 1)->kind == PROPER__PM_TK_DOUBLE)) {
        unsigned long k = 0; /* FACT's counts: one parameter per outcome but the last */
        while (proper__prism_at(ps, PROPER__PM_TK_INT) || proper__prism_at(ps, PROPER__PM_TK_DOUBLE)) {
            if (k && proper__prism_push_param(ps, at, at->p, at->len, k, arr, len, cap)) return PROPER_EPARSE;
            ps->i++;
            k++;
        }
    } else {
        if ((d.expr = proper__prism_parse_expr(ps)) < 0) return PROPER_EPARSE;
        if (PROPER_PUSH(*arr, *len, *cap, d)) return proper__prism_oom(ps);
    }
    return proper__prism_expect(ps, PROPER__PM_TK_SEMI, "after parameter declaration") ? PROPER_EPARSE : PROPER_OK;
}

static int proper__prism_parse_formula(proper__prism_parser *ps, proper__prism_formula_decl **arr, size_t *len, size_t *cap) {
    proper__prism_formula_decl d;
    const proper__prism_tok *at;
    ps->i++; /* formula */
    if (proper__prism_decl_name(ps, "formula", &d.sym, &at)) return PROPER_EPARSE;
    d.line = at->line;
    d.col = at->col;
    if (proper__prism_expect(ps, PROPER__PM_TK_EQ, "after formula name")) return PROPER_EPARSE;
    if ((d.expr = proper__prism_parse_expr(ps)) < 0) return PROPER_EPARSE;
    if (proper__prism_expect(ps, PROPER__PM_TK_SEMI, "after formula")) return PROPER_EPARSE;
    return PROPER_PUSH(*arr, *len, *cap, d) ? proper__prism_oom(ps) : PROPER_OK;
}

static int proper__prism_parse_label(proper__prism_parser *ps, proper__prism_label_decl **arr, size_t *len, size_t *cap) {
    proper__prism_label_decl d;
    const proper__prism_tok *t;
    ps->i++; /* label */
    t = proper__prism_peek(ps, 0);
    if (proper__prism_expect(ps, PROPER__PM_TK_STRING, "(the label's name) after 'label'")) return PROPER_EPARSE;
    if (proper__prism_names_intern(ps->names, t->p, t->len, &d.name)) return proper__prism_oom(ps);
    d.line = t->line;
    d.col = t->col;
    if (proper__prism_expect(ps, PROPER__PM_TK_EQ, "after label name")) return PROPER_EPARSE;
    if ((d.expr = proper__prism_parse_expr(ps)) < 0) return PROPER_EPARSE;
    if (proper__prism_expect(ps, PROPER__PM_TK_SEMI, "after label")) return PROPER_EPARSE;
    return PROPER_PUSH(*arr, *len, *cap, d) ? proper__prism_oom(ps) : PROPER_OK;
}

/* x : [lo..hi] [init e];  or  b : bool [init e]; */
static int proper__prism_parse_var(proper__prism_mparser *mp, int module) {
    proper__prism_parser *ps = &mp->ps;
    proper__prism_var_decl d;
    const proper__prism_tok *at;
    memset(&d, 0, sizeof d);
    d.module = module;
    d.init = -1;
    if (proper__prism_decl_name(ps, "variable", &d.sym, &at)) return PROPER_EPARSE;
    d.line = at->line;
    d.col = at->col;
    if (proper__prism_expect(ps, PROPER__PM_TK_COLON, "after variable name")) return PROPER_EPARSE;
    if (proper__prism_at_word(ps, "bool")) {
        ps->i++;
        d.is_bool = 1;
        d.lo = d.hi = -1;
    } else if (proper__prism_at(ps, PROPER__PM_TK_LBRACK)) {
        ps->i++;
        if ((d.lo = proper__prism_parse_expr(ps)) < 0) return PROPER_EPARSE;
        if (proper__prism_expect(ps, PROPER__PM_TK_DOTDOT, "in range [lo..hi]")) return PROPER_EPARSE;
        if ((d.hi = proper__prism_parse_expr(ps)) < 0) return PROPER_EPARSE;
        if (proper__prism_expect(ps, PROPER__PM_TK_RBRACK, "to close the range")) return PROPER_EPARSE;
    } else if (proper__prism_at_word(ps, "int") || proper__prism_at_word(ps, "double") || proper__prism_at_word(ps, "clock")) {
        const proper__prism_tok *t = proper__prism_peek(ps, 0);
        return proper__prism_perr(ps, t, PROPER_EUNSUPPORTED,
                            "unbounded '%.*s' variables are not supported (declare a range [lo..hi])", (int)t->len,
                            t->p);
    } else {
        return proper__prism_expected(ps, "a range [lo..hi] or 'bool' after ':'");
    }
    if (proper__prism_at_word(ps, "init")) {
        ps->i++;
        if ((d.init = proper__prism_parse_expr(ps)) < 0) return PROPER_EPARSE;
    }
    if (proper__prism_expect(ps, PROPER__PM_TK_SEMI, "after variable declaration")) return PROPER_EPARSE;
    return PROPER_PUSH(mp->m->vars, mp->m->n_vars, mp->m->cap_vars, d) ? proper__prism_oom(ps) : PROPER_OK;
}

/* (x'=e) & (y'=e)  or  true */
static int proper__prism_parse_update_body(proper__prism_mparser *mp, proper__prism_update *u) {
    proper__prism_parser *ps = &mp->ps;
    proper_prism_model *m = mp->m;
    u->first = m->n_assigns;
    u->n = 0;
    if (proper__prism_at_word(ps, "true")) {
        ps->i++;
        return PROPER_OK;
    }
    for (;;) {
        proper__prism_assign a;
        const proper__prism_tok *t;
        if (proper__prism_expect(ps, PROPER__PM_TK_LPAREN, "to start an assignment (x'=...)")) return PROPER_EPARSE;
        t = proper__prism_peek(ps, 0);
        if (t->kind != PROPER__PM_TK_IDENT || proper__prism_is_reserved(t->p, t->len))
            return proper__prism_expected(ps, "a variable in an assignment (x'=...)");
        ps->i++;
        if (proper__prism_names_intern(ps->names, t->p, t->len, &a.var)) return proper__prism_oom(ps);
        a.line = t->line;
        a.col = t->col;
        if (proper__prism_expect(ps, PROPER__PM_TK_PRIME, "after the variable of an assignment")) return PROPER_EPARSE;
        if (proper__prism_expect(ps, PROPER__PM_TK_EQ, "in assignment")) return PROPER_EPARSE;
        if ((a.expr = proper__prism_parse_expr(ps)) < 0) return PROPER_EPARSE;
        if (proper__prism_expect(ps, PROPER__PM_TK_RPAREN, "to close the assignment")) return PROPER_EPARSE;
        if (PROPER_PUSH(m->assigns, m->n_assigns, m->cap_assigns, a)) return proper__prism_oom(ps);
        u->n++;
        if (!proper__prism_at(ps, PROPER__PM_TK_AND)) return PROPER_OK;
        ps->i++;
    }
}

/* An update starts directly (no probability) with "(ident '" or "true". */
static int proper__prism_update_starts_here(const proper__prism_parser *ps) {
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    if (proper__prism_tok_is(t, "true")) {
        int k = proper__prism_peek(ps, 1)->kind;
        return k == PROPER__PM_TK_SEMI || k == PROPER__PM_TK_PLUS;
    }
    return t->kind == PROPER__PM_TK_LPAREN && proper__prism_peek(ps, 1)->kind == PROPER__PM_TK_IDENT &&
           proper__prism_peek(ps, 2)->kind == PROPER__PM_TK_PRIME;
}

/* A probability interval [lo, hi] before an update's ':' (PRISM's IDTMCs);
 * the model remembers where its first one is. */
static int proper__prism_parse_interval(proper__prism_mparser *mp, proper__prism_update *u) {
    proper__prism_parser *ps = &mp->ps;
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    ps->i++; /* [ */
    if ((u->prob = proper__prism_parse_expr(ps)) < 0) return PROPER_EPARSE;
    if (proper__prism_expect(ps, PROPER__PM_TK_COMMA, "between the ends of a probability interval [lo,hi]"))
        return PROPER_EPARSE;
    if ((u->prob_hi = proper__prism_parse_expr(ps)) < 0) return PROPER_EPARSE;
    if (proper__prism_expect(ps, PROPER__PM_TK_RBRACK, "to close the probability interval [lo,hi]")) return PROPER_EPARSE;
    if (!mp->m->has_intervals) {
        mp->m->has_intervals = 1;
        mp->m->interval_line = t->line;
        mp->m->interval_col = t->col;
    }
    return PROPER_OK;
}

/* [action] guard -> p:u + q:v ;  (p, q: expressions or intervals [lo,hi]) */
static int proper__prism_parse_command(proper__prism_mparser *mp, int module) {
    proper__prism_parser *ps = &mp->ps;
    proper_prism_model *m = mp->m;
    proper__prism_command cmd;
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    cmd.line = t->line;
    cmd.col = t->col;
    cmd.module = module;
    cmd.action = -1;
    ps->i++; /* [ */
    if (proper__prism_at(ps, PROPER__PM_TK_IDENT)) {
        const proper__prism_tok *a = proper__prism_peek(ps, 0);
        ps->i++;
        if (proper__prism_names_intern(ps->names, a->p, a->len, &cmd.action)) return proper__prism_oom(ps);
    }
    if (proper__prism_expect(ps, PROPER__PM_TK_RBRACK, "after the action of a command")) return PROPER_EPARSE;
    if ((cmd.guard = proper__prism_parse_expr(ps)) < 0) return PROPER_EPARSE;
    if (proper__prism_expect(ps, PROPER__PM_TK_ARROW, "after the guard")) return PROPER_EPARSE;
    cmd.first = m->n_updates;
    cmd.n = 0;
    for (;;) {
        proper__prism_update u;
        const proper__prism_tok *ut = proper__prism_peek(ps, 0);
        u.line = ut->line;
        u.col = ut->col;
        u.prob = u.prob_hi = -1;
        if (!proper__prism_update_starts_here(ps)) {
            if (ut->kind == PROPER__PM_TK_LBRACK) {
                if (proper__prism_parse_interval(mp, &u)) return PROPER_EPARSE;
            } else if ((u.prob = proper__prism_parse_expr(ps)) < 0) {
                return PROPER_EPARSE;
            }
            if (proper__prism_expect(ps, PROPER__PM_TK_COLON, "after an update's probability")) return PROPER_EPARSE;
        }
        if (proper__prism_parse_update_body(mp, &u)) return PROPER_EPARSE;
        if (PROPER_PUSH(m->updates, m->n_updates, m->cap_updates, u)) return proper__prism_oom(ps);
        cmd.n++;
        if (!proper__prism_at(ps, PROPER__PM_TK_PLUS)) break;
        ps->i++;
    }
    if (proper__prism_expect(ps, PROPER__PM_TK_SEMI, "after a command")) return PROPER_EPARSE;
    return PROPER_PUSH(m->cmds, m->n_cmds, m->cap_cmds, cmd) ? proper__prism_oom(ps) : PROPER_OK;
}

/* ---- Module renaming: copy a module with identifiers substituted ---------- */

typedef struct proper__prism_rename {
    int32_t *from, *to;
    size_t n;
} proper__prism_rename;

static int32_t proper__prism_rename_sym(const proper__prism_rename *rn, int32_t sym) {
    size_t i;
    for (i = 0; i < rn->n; i++)
        if (rn->from[i] == sym) return rn->to[i];
    return sym;
}

/* Deep copy of expression e with names renamed; returns the copy's index. */
static int32_t proper__prism_copy_expr(proper__prism_parser *ps, const proper__prism_rename *rn, int32_t e) {
    proper__prism_node nd;
    int32_t a = -1, b = -1, c = -1;
    if (e < 0) return -1;
    nd = ps->pool->n[e];
    if (nd.a >= 0 && (a = proper__prism_copy_expr(ps, rn, nd.a)) < 0) return -2;
    if (nd.b >= 0 && (b = proper__prism_copy_expr(ps, rn, nd.b)) < 0) return -2;
    if (nd.c >= 0 && (c = proper__prism_copy_expr(ps, rn, nd.c)) < 0) return -2;
    nd.a = a;
    nd.b = b;
    nd.c = c;
    if (nd.kind == PROPER__PM_N_NAME) nd.idx = proper__prism_rename_sym(rn, nd.idx);
    if (PROPER_PUSH(ps->pool->n, ps->pool->len, ps->pool->cap, nd)) {
        proper__prism_oom(ps);
        return -2;
    }
    return (int32_t)(ps->pool->len - 1);
}

/* Copy with error signalling: -1 input stays -1; failure returns 0 status. */
static int proper__prism_copy_opt(proper__prism_parser *ps, const proper__prism_rename *rn, int32_t e, int32_t *out) {
    if (e < 0) {
        *out = -1;
        return PROPER_OK;
    }
    *out = proper__prism_copy_expr(ps, rn, e);
    return *out < 0 ? PROPER_ENOMEM : PROPER_OK;
}

static int proper__prism_copy_module(proper__prism_mparser *mp, int base, int module, const proper__prism_rename *rn) {
    proper__prism_parser *ps = &mp->ps;
    proper_prism_model *m = mp->m;
    const proper__prism_module_decl bm = m->modules[base];
    size_t i, j, k;
    for (i = 0; i < bm.n_vars; i++) {
        proper__prism_var_decl d = m->vars[bm.first_var + i];
        d.sym = proper__prism_rename_sym(rn, d.sym);
        d.module = module;
        if (proper__prism_copy_opt(ps, rn, d.lo, &d.lo) || proper__prism_copy_opt(ps, rn, d.hi, &d.hi) ||
            proper__prism_copy_opt(ps, rn, d.init, &d.init))
            return PROPER_ENOMEM;
        if (PROPER_PUSH(m->vars, m->n_vars, m->cap_vars, d)) return proper__prism_oom(ps);
    }
    for (i = 0; i < bm.n_cmds; i++) {
        proper__prism_command cmd = m->cmds[bm.first_cmd + i];
        size_t first_update = m->n_updates;
        cmd.module = module;
        if (cmd.action >= 0) cmd.action = proper__prism_rename_sym(rn, cmd.action);
        if (proper__prism_copy_opt(ps, rn, cmd.guard, &cmd.guard)) return PROPER_ENOMEM;
        for (j = 0; j < cmd.n; j++) {
            proper__prism_update u = m->updates[cmd.first + j];
            size_t first_assign = m->n_assigns;
            if (proper__prism_copy_opt(ps, rn, u.prob, &u.prob) || proper__prism_copy_opt(ps, rn, u.prob_hi, &u.prob_hi))
                return PROPER_ENOMEM;
            for (k = 0; k < u.n; k++) {
                proper__prism_assign a = m->assigns[u.first + k];
                a.var = proper__prism_rename_sym(rn, a.var);
                if (proper__prism_copy_opt(ps, rn, a.expr, &a.expr)) return PROPER_ENOMEM;
                if (PROPER_PUSH(m->assigns, m->n_assigns, m->cap_assigns, a)) return proper__prism_oom(ps);
            }
            u.first = first_assign;
            if (PROPER_PUSH(m->updates, m->n_updates, m->cap_updates, u)) return proper__prism_oom(ps);
        }
        cmd.first = first_update;
        if (PROPER_PUSH(m->cmds, m->n_cmds, m->cap_cmds, cmd)) return proper__prism_oom(ps);
    }
    return PROPER_OK;
}

/* module M2 = M1 [a=b, c=d] endmodule (after "module M2 =") */
static int proper__prism_parse_renamed(proper__prism_mparser *mp, int module) {
    proper__prism_parser *ps = &mp->ps;
    proper_prism_model *m = mp->m;
    proper__prism_rename rn;
    size_t cap_from = 0, cap_to = 0, n_to = 0;
    int32_t base_sym;
    const proper__prism_tok *bt;
    int base = -1, rc = PROPER_EPARSE;
    size_t i;
    memset(&rn, 0, sizeof rn);
    if (proper__prism_decl_name(ps, "module", &base_sym, &bt)) return PROPER_EPARSE;
    for (i = 0; i < m->n_modules; i++)
        if (m->modules[i].sym == base_sym) base = (int)i;
    if (base < 0)
        return proper__prism_perr(ps, bt, PROPER_EUNDEFINED, "unknown module '%.*s' (rename a module defined above)",
                            (int)bt->len, bt->p);
    if (proper__prism_expect(ps, PROPER__PM_TK_LBRACK, "to start the renaming list")) return PROPER_EPARSE;
    for (;;) {
        int32_t from, to;
        const proper__prism_tok *ft = proper__prism_peek(ps, 0), *tt;
        if (ft->kind != PROPER__PM_TK_IDENT) {
            proper__prism_expected(ps, "a name to rename");
            goto done;
        }
        ps->i++;
        if (proper__prism_names_intern(ps->names, ft->p, ft->len, &from)) { rc = proper__prism_oom(ps); goto done; }
        if (proper__prism_expect(ps, PROPER__PM_TK_EQ, "in renaming")) goto done;
        tt = proper__prism_peek(ps, 0);
        if (tt->kind != PROPER__PM_TK_IDENT || proper__prism_is_reserved(tt->p, tt->len)) {
            proper__prism_expected(ps, "the new name in a renaming");
            goto done;
        }
        ps->i++;
        if (proper__prism_names_intern(ps->names, tt->p, tt->len, &to)) { rc = proper__prism_oom(ps); goto done; }
        for (i = 0; i < rn.n; i++)
            if (rn.from[i] == from) {
                proper__prism_perr(ps, ft, PROPER_EPARSE, "'%.*s' is renamed twice", (int)ft->len, ft->p);
                goto done;
            }
        if (PROPER_PUSH(rn.from, rn.n, cap_from, from)) { rc = proper__prism_oom(ps); goto done; }
        if (PROPER_PUSH(rn.to, n_to, cap_to, to)) { rc = proper__prism_oom(ps); goto done; }
        if (!proper__prism_at(ps, PROPER__PM_TK_COMMA)) break;
        ps->i++;
    }
    if (proper__prism_expect(ps, PROPER__PM_TK_RBRACK, "to close the renaming list")) goto done;
    if (proper__prism_expect_word(ps, "endmodule", "after a renamed module")) goto done;
    {
        proper__prism_module_decl *md = &m->modules[module];
        md->first_var = m->n_vars;
        md->first_cmd = m->n_cmds;
        if (proper__prism_copy_module(mp, base, module, &rn)) { rc = PROPER_ENOMEM; goto done; }
        md = &m->modules[module];
        md->n_vars = m->n_vars - md->first_var;
        md->n_cmds = m->n_cmds - md->first_cmd;
    }
    rc = PROPER_OK;
done:
    PROPER_FREE(rn.from);
    PROPER_FREE(rn.to);
    return rc;
}

static int proper__prism_parse_module(proper__prism_mparser *mp) {
    proper__prism_parser *ps = &mp->ps;
    proper_prism_model *m = mp->m;
    proper__prism_module_decl md;
    const proper__prism_tok *at;
    int module = (int)m->n_modules;
    size_t i;
    ps->i++; /* module */
    memset(&md, 0, sizeof md);
    if (proper__prism_decl_name(ps, "module", &md.sym, &at)) return PROPER_EPARSE;
    md.line = at->line;
    md.col = at->col;
    for (i = 0; i < m->n_modules; i++)
        if (m->modules[i].sym == md.sym)
            return proper__prism_perr(ps, at, PROPER_EPARSE, "module '%.*s' is defined twice", (int)at->len, at->p);
    md.first_var = m->n_vars;
    md.first_cmd = m->n_cmds;
    if (PROPER_PUSH(m->modules, m->n_modules, m->cap_modules, md)) return proper__prism_oom(ps);
    if (proper__prism_at(ps, PROPER__PM_TK_EQ)) {
        ps->i++;
        return proper__prism_parse_renamed(mp, module);
    }
    for (;;) {
        const proper__prism_tok *t;
        int rc;
        proper__prism_release(ps);
        t = proper__prism_peek(ps, 0);
        if (proper__prism_tok_is(t, "endmodule")) {
            ps->i++;
            break;
        }
        if (t->kind == PROPER__PM_TK_LBRACK)
            rc = proper__prism_parse_command(mp, module);
        else if (t->kind == PROPER__PM_TK_IDENT && proper__prism_peek(ps, 1)->kind == PROPER__PM_TK_COLON)
            rc = proper__prism_parse_var(mp, module);
        else {
            char found[64];
            proper__prism_tok_describe(t, found, sizeof found);
            return proper__prism_perr(ps, t, PROPER_EPARSE,
                                "expected a variable declaration, a command '[...] guard -> ...;' or 'endmodule', "
                                "found %s",
                                found);
        }
        if (rc) return rc;
    }
    m->modules[module].n_vars = m->n_vars - m->modules[module].first_var;
    m->modules[module].n_cmds = m->n_cmds - m->modules[module].first_cmd;
    return PROPER_OK;
}

/* rewards ["name"] items endrewards */
static int proper__prism_parse_rewards(proper__prism_mparser *mp) {
    proper__prism_parser *ps = &mp->ps;
    proper_prism_model *m = mp->m;
    proper__prism_reward_decl rd;
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    memset(&rd, 0, sizeof rd);
    rd.line = t->line;
    rd.col = t->col;
    rd.name = -1;
    ps->i++; /* rewards */
    if (proper__prism_at(ps, PROPER__PM_TK_STRING)) {
        const proper__prism_tok *nt = proper__prism_peek(ps, 0);
        ps->i++;
        if (proper__prism_names_intern(ps->names, nt->p, nt->len, &rd.name)) return proper__prism_oom(ps);
    }
    rd.first = m->n_items;
    for (;;) {
        proper__prism_reward_item it;
        const proper__prism_tok *st;
        proper__prism_release(ps);
        st = proper__prism_peek(ps, 0);
        if (proper__prism_tok_is(st, "endrewards")) {
            ps->i++;
            break;
        }
        memset(&it, 0, sizeof it);
        it.line = st->line;
        it.col = st->col;
        it.action = -1;
        if (st->kind == PROPER__PM_TK_EOF) return proper__prism_expect_word(ps, "endrewards", "to close 'rewards'");
        if (st->kind == PROPER__PM_TK_LBRACK) {
            ps->i++;
            it.is_trans = 1;
            if (proper__prism_at(ps, PROPER__PM_TK_IDENT)) {
                const proper__prism_tok *a = proper__prism_peek(ps, 0);
                ps->i++;
                if (proper__prism_names_intern(ps->names, a->p, a->len, &it.action)) return proper__prism_oom(ps);
            }
            if (proper__prism_expect(ps, PROPER__PM_TK_RBRACK, "after a reward's action")) return PROPER_EPARSE;
        }
        if ((it.guard = proper__prism_parse_expr(ps)) < 0) return PROPER_EPARSE;
        if (proper__prism_expect(ps, PROPER__PM_TK_COLON, "after a reward's guard")) return PROPER_EPARSE;
        if ((it.value = proper__prism_parse_expr(ps)) < 0) return PROPER_EPARSE;
        if (proper__prism_expect(ps, PROPER__PM_TK_SEMI, "after a reward item")) return PROPER_EPARSE;
        if (it.is_trans) rd.has_trans = 1; else rd.has_state = 1;
        if (PROPER_PUSH(m->items, m->n_items, m->cap_items, it)) return proper__prism_oom(ps);
    }
    rd.n = m->n_items - rd.first;
    return PROPER_PUSH(m->rewards, m->n_rewards, m->cap_rewards, rd) ? proper__prism_oom(ps) : PROPER_OK;
}

static int proper__prism_parse_model_file(proper__prism_mparser *mp) {
    proper__prism_parser *ps = &mp->ps;
    proper_prism_model *m = mp->m;
    int seen_type = 0;
    for (;;) {
        const proper__prism_tok *t;
        int rc = PROPER_OK;
        proper__prism_release(ps);
        t = proper__prism_peek(ps, 0);
        if (t->kind == PROPER__PM_TK_EOF) break;
        if (proper__prism_tok_is(t, "dtmc") || proper__prism_tok_is(t, "probabilistic") || proper__prism_tok_is(t, "ctmc") ||
            proper__prism_tok_is(t, "stochastic")) {
            if (seen_type) return proper__prism_perr(ps, t, PROPER_EPARSE, "the model type is given twice");
            seen_type = 1;
            m->is_ctmc = proper__prism_tok_is(t, "ctmc") || proper__prism_tok_is(t, "stochastic");
            ps->i++;
        } else if (proper__prism_tok_is(t, "mdp") || proper__prism_tok_is(t, "nondeterministic") ||
                   proper__prism_tok_is(t, "pta") || proper__prism_tok_is(t, "ctmdp") ||
                   proper__prism_tok_is(t, "pomdp") || proper__prism_tok_is(t, "popta") || proper__prism_tok_is(t, "ma") ||
                   proper__prism_tok_is(t, "lts") || proper__prism_tok_is(t, "smg")) {
            return proper__prism_perr(ps, t, PROPER_EUNSUPPORTED, "'%.*s' models are not supported (only dtmc and ctmc)",
                                (int)t->len, t->p);
        } else if (proper__prism_tok_is(t, "const")) {
            rc = proper__prism_parse_const(ps, &m->consts, &m->n_consts, &m->cap_consts);
        } else if (proper__prism_tok_is(t, "param")) {
            rc = proper__prism_parse_param(ps, &m->consts, &m->n_consts, &m->cap_consts);
        } else if (proper__prism_tok_is(t, "formula")) {
            rc = proper__prism_parse_formula(ps, &m->formulas, &m->n_formulas, &m->cap_formulas);
        } else if (proper__prism_tok_is(t, "label")) {
            rc = proper__prism_parse_label(ps, &m->labels, &m->n_labels, &m->cap_labels);
        } else if (proper__prism_tok_is(t, "module")) {
            rc = proper__prism_parse_module(mp);
        } else if (proper__prism_tok_is(t, "rewards")) {
            rc = proper__prism_parse_rewards(mp);
        } else if (proper__prism_tok_is(t, "global")) {
            if (m->n_modules) /* PRISM puts globals first in the state: so does the declaration order here */
                return proper__prism_perr(ps, t, PROPER_EUNSUPPORTED, "declare global variables before the modules");
            ps->i++;
            rc = proper__prism_parse_var(mp, -1);
        } else if (proper__prism_tok_is(t, "init")) {
            if (m->init_expr >= 0) return proper__prism_perr(ps, t, PROPER_EPARSE, "a second 'init ... endinit' block");
            ps->i++;
            m->init_line = t->line;
            m->init_col = t->col;
            if ((m->init_expr = proper__prism_parse_expr(ps)) < 0) return PROPER_EPARSE;
            rc = proper__prism_expect_word(ps, "endinit", "to close 'init'");
        } else if (proper__prism_tok_is(t, "system")) {
            return proper__prism_perr(ps, t, PROPER_EUNSUPPORTED,
                                "'system ... endsystem' is not supported (modules are composed in parallel)");
        } else {
            char found[64];
            proper__prism_tok_describe(t, found, sizeof found);
            return proper__prism_perr(ps, t, PROPER_EPARSE,
                                "expected 'dtmc', 'const', 'formula', 'label', 'module' or 'rewards', found %s",
                                found);
        }
        if (rc) return rc;
    }
    if (m->n_modules == 0)
        return proper__prism_perr(ps, proper__prism_peek(ps, 0), PROPER_EPARSE, "the model has no module");
    return PROPER_OK;
}

/* ---- Properties declarations ----------------------------------------------*/

typedef struct proper__prism_prop {
    int32_t expr;  /* the property: an expression of the properties pool */
    char *text, *name;
    char *comment; /* blanks and comments just before the property */
    int type;
    int line, col;
} proper__prism_prop;

struct proper_prism_props {
    char *file;
    const proper_prism_model *m;
    proper_intern names;
    proper__prism_pool pool;
    proper__prism_const_decl *consts;
    size_t n_consts, cap_consts;
    proper__prism_formula_decl *formulas;
    size_t n_formulas, cap_formulas;
    proper__prism_label_decl *labels;
    size_t n_labels, cap_labels;
    proper__prism_prop *props;
    size_t n_props, cap_props;
    int32_t *sym_const, *sym_formula, *sym_label;
};

/* ---- Name resolution and type checking --------------------------------------*/

typedef struct proper__prism_resolver {
    proper__prism_pool *pool;
    const proper_intern *names;
    const char *file;
    proper_error *err;
    const proper_prism_model *m;  /* symbols of the model (may be NULL for properties) */
    const proper_prism_props *p;  /* NULL while resolving the model itself */
    int nesting;                  /* formulas resolved inside formulas */
    size_t pconst_limit;          /* properties constants usable: index < this */
} proper__prism_resolver;

#define PROPER__PM_MAX_FORWARD 64 /* formulas/constants used before their definition, nested */

static const char *proper__prism_type_name(int type) {
    return type == PROPER_PRISM_INT ? "int" : type == PROPER_PRISM_DOUBLE ? "double" : type == PROPER_PRISM_BOOL ? "bool" : "?";
}

static int proper__prism_is_num(int type) { return type == PROPER_PRISM_INT || type == PROPER_PRISM_DOUBLE; }

static int proper__prism_rerr(const proper__prism_resolver *r, const proper__prism_node *nd, int code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int proper__prism_rerr(const proper__prism_resolver *r, const proper__prism_node *nd, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    proper_error_setv(r->err, code, r->file, nd->line, nd->col, fmt, ap);
    va_end(ap);
    return code;
}

static const char *proper__prism_op_text(int op) {
    static const char *const t[] = {"+", "-", "*", "/", "^", "=", "!=", "<", "<=", ">", ">=", "&", "|", "=>", "<=>"};
    return op >= 0 && op <= PROPER__PM_OP_IFF ? t[op] : "?";
}

static const char *proper__prism_fn_text(int fn) {
    static const char *const t[] = {"min", "max", "floor", "ceil", "round", "pow", "mod", "log"};
    return fn >= 0 && fn <= PROPER__PM_FN_LOG ? t[fn] : "?";
}

static int proper__prism_resolve(proper__prism_resolver *r, int32_t e);

/* Model symbol of a name given as text (properties look into the model). */
static int32_t proper__prism_model_sym(const proper_prism_model *m, const char *name) {
    return m ? proper__prism_names_find(&m->names, name, strlen(name)) : -1;
}

static int proper__prism_resolve_name(proper__prism_resolver *r, int32_t e) {
    proper__prism_node *nd = &r->pool->n[e];
    const char *name = r->names->names[nd->idx];
    const proper_prism_model *m = r->m;
    int32_t msym, k;
    if (r->p) {
        const proper_prism_props *p = r->p;
        if ((k = p->sym_const[nd->idx]) >= 0) {
            if ((size_t)k >= r->pconst_limit)
                return proper__prism_rerr(r, nd, PROPER_EPARSE, "constant '%s' is used before its definition", name);
            nd->kind = PROPER__PM_N_PCONST;
            nd->idx = k;
            nd->type = (unsigned char)p->consts[k].type;
            return PROPER_OK;
        }
        if ((k = p->sym_formula[nd->idx]) >= 0) {
            nd->kind = PROPER__PM_N_FORMULA;
            nd->a = p->formulas[k].expr;
            return PROPER_OK; /* typed by the caller from the body */
        }
        msym = proper__prism_model_sym(m, name);
    } else {
        msym = nd->idx;
    }
    if (msym >= 0 && m) {
        if ((k = m->sym_var[msym]) >= 0) {
            nd->kind = PROPER__PM_N_VAR;
            nd->idx = k;
            nd->type = (unsigned char)(m->vars[k].is_bool ? PROPER_PRISM_BOOL : PROPER_PRISM_INT);
            nd->flags |= PROPER__PM_F_VARS;
            return PROPER_OK;
        }
        if ((k = m->sym_const[msym]) >= 0) {
            nd->kind = PROPER__PM_N_CONST;
            nd->idx = k;
            nd->type = (unsigned char)m->consts[k].type;
            return PROPER_OK;
        }
        if ((k = m->sym_formula[msym]) >= 0) {
            nd->kind = (unsigned char)(r->p ? PROPER__PM_N_MFORMULA : PROPER__PM_N_FORMULA);
            nd->a = m->formulas[k].expr;
            return PROPER_OK;
        }
    }
    return proper__prism_rerr(r, nd, PROPER_EUNDEFINED, "unknown identifier '%s'", name);
}

/* Type of a binary operator's result, or an error. */
static int proper__prism_type_binary(proper__prism_resolver *r, proper__prism_node *nd, int ta, int tb) {
    int op = nd->op;
    switch (op) {
    case PROPER__PM_OP_ADD: case PROPER__PM_OP_SUB: case PROPER__PM_OP_MUL: case PROPER__PM_OP_POW: case PROPER__PM_OP_DIV:
        if (!proper__prism_is_num(ta) || !proper__prism_is_num(tb)) break;
        nd->type = (unsigned char)(op != PROPER__PM_OP_DIV && ta == PROPER_PRISM_INT && tb == PROPER_PRISM_INT
                                       ? PROPER_PRISM_INT : PROPER_PRISM_DOUBLE);
        return PROPER_OK;
    case PROPER__PM_OP_EQ: case PROPER__PM_OP_NE:
        if (!(proper__prism_is_num(ta) && proper__prism_is_num(tb)) && !(ta == PROPER_PRISM_BOOL && tb == PROPER_PRISM_BOOL))
            break;
        nd->type = PROPER_PRISM_BOOL;
        return PROPER_OK;
    case PROPER__PM_OP_LT: case PROPER__PM_OP_LE: case PROPER__PM_OP_GT: case PROPER__PM_OP_GE:
        if (!proper__prism_is_num(ta) || !proper__prism_is_num(tb)) break;
        nd->type = PROPER_PRISM_BOOL;
        return PROPER_OK;
    default: /* & | => <=> */
        if (ta != PROPER_PRISM_BOOL || tb != PROPER_PRISM_BOOL) break;
        nd->type = PROPER_PRISM_BOOL;
        return PROPER_OK;
    }
    return proper__prism_rerr(r, nd, PROPER_EPARSE, "type error: operands of '%s' are %s and %s", proper__prism_op_text(op),
                        proper__prism_type_name(ta), proper__prism_type_name(tb));
}

static int proper__prism_type_function(proper__prism_resolver *r, proper__prism_node *nd, int ta, int tb) {
    int fn = nd->op;
    if (!proper__prism_is_num(ta) || (nd->b >= 0 && !proper__prism_is_num(tb)))
        return proper__prism_rerr(r, nd, PROPER_EPARSE, "type error: %s needs numbers, found %s%s%s", proper__prism_fn_text(fn),
                            proper__prism_type_name(ta), nd->b >= 0 ? " and " : "", nd->b >= 0 ? proper__prism_type_name(tb) : "");
    switch (fn) {
    case PROPER__PM_FN_MIN: case PROPER__PM_FN_MAX: case PROPER__PM_FN_POW:
        nd->type = (unsigned char)(ta == PROPER_PRISM_INT && tb == PROPER_PRISM_INT ? PROPER_PRISM_INT : PROPER_PRISM_DOUBLE);
        break;
    case PROPER__PM_FN_FLOOR: case PROPER__PM_FN_CEIL: case PROPER__PM_FN_ROUND:
        nd->type = PROPER_PRISM_INT;
        break;
    case PROPER__PM_FN_MOD:
        if (ta != PROPER_PRISM_INT || tb != PROPER_PRISM_INT)
            return proper__prism_rerr(r, nd, PROPER_EPARSE, "type error: mod needs ints, found %s and %s",
                                proper__prism_type_name(ta), proper__prism_type_name(tb));
        nd->type = PROPER_PRISM_INT;
        break;
    default: /* log */
        nd->type = PROPER_PRISM_DOUBLE;
        break;
    }
    return PROPER_OK;
}

/* Node summary of a formula body from another pool (a model formula used
 * in a property). */
static const proper__prism_node *proper__prism_body(const proper__prism_resolver *r, const proper__prism_node *nd) {
    if (nd->kind == PROPER__PM_N_MFORMULA) return &r->m->pool.n[nd->a];
    return &r->pool->n[nd->a];
}

static int proper__prism_resolve_children(proper__prism_resolver *r, int32_t e) {
    proper__prism_node *nd = &r->pool->n[e];
    int32_t kids[3];
    int k, rc;
    double size = 1;
    int depth = 1;
    unsigned flags = 0;
    kids[0] = nd->a;
    kids[1] = nd->b;
    kids[2] = nd->c;
    for (k = 0; k < 3; k++) {
        const proper__prism_node *ch;
        if (kids[k] < 0) continue;
        if ((rc = proper__prism_resolve(r, kids[k])) != 0) return rc;
        ch = &r->pool->n[kids[k]];
        if (ch->depth + 1 > depth) depth = ch->depth + 1;
        size += ch->size;
        flags |= ch->flags & (PROPER__PM_F_STATE | PROPER__PM_F_PATH);
    }
    nd = &r->pool->n[e];
    nd->depth = depth;
    nd->size = size;
    nd->flags |= (unsigned char)flags;
    return PROPER_OK;
}

static int proper__prism_resolve_as(proper__prism_resolver *r, int32_t e, int want, int constant, const char *what);

/* Resolve child e of an operator node and check it is bool (a state or path formula). */
static int proper__prism_resolve_formula(proper__prism_resolver *r, int32_t e, const char *what) {
    const proper__prism_node *nd;
    int rc;
    if (e < 0) return PROPER_OK;
    if ((rc = proper__prism_resolve(r, e)) != 0) return rc;
    nd = &r->pool->n[e];
    if (nd->type != PROPER_PRISM_BOOL)
        return proper__prism_rerr(r, nd, PROPER_EPARSE, "type error: %s must be bool, not %s", what,
                                  proper__prism_type_name(nd->type));
    return PROPER_OK;
}

/* Depth, size and state flags of node e from its children a, b, c. */
static void proper__prism_absorb(proper__prism_resolver *r, int32_t e) {
    proper__prism_node *nd = &r->pool->n[e];
    int32_t kids[3];
    int k;
    kids[0] = nd->a;
    kids[1] = nd->b;
    kids[2] = nd->c;
    nd->depth = 1;
    nd->size = 1;
    for (k = 0; k < 3; k++) {
        const proper__prism_node *ch;
        if (kids[k] < 0) continue;
        ch = &r->pool->n[kids[k]];
        if (ch->depth + 1 > nd->depth) nd->depth = ch->depth + 1;
        nd->size += ch->size;
        nd->flags |= ch->flags & (PROPER__PM_F_STATE | PROPER__PM_F_PATH);
    }
}

/* Type of filter(op, operand): PRISM's rules (count: int; argmin, argmax,
 * forall, exists: bool; avg: double; the others the operand's). */
static int proper__prism_type_filter(proper__prism_resolver *r, proper__prism_node *nd, int ta) {
    int op = nd->op, want_bool = op == PROPER__PM_FL_COUNT || op == PROPER__PM_FL_FORALL || op == PROPER__PM_FL_EXISTS;
    int want_num = op == PROPER__PM_FL_MIN || op == PROPER__PM_FL_MAX || op == PROPER__PM_FL_ARGMIN ||
                   op == PROPER__PM_FL_ARGMAX || op == PROPER__PM_FL_SUM || op == PROPER__PM_FL_AVG || op == PROPER__PM_FL_RANGE;
    if ((want_bool && ta != PROPER_PRISM_BOOL) || (want_num && !proper__prism_is_num(ta)))
        return proper__prism_rerr(r, nd, PROPER_EPARSE, "type error: filter %s needs %s, not %s",
                                  proper__prism_filter_names[op], want_bool ? "bool" : "a number", proper__prism_type_name(ta));
    nd->type = (unsigned char)(op == PROPER__PM_FL_COUNT ? PROPER_PRISM_INT : op == PROPER__PM_FL_AVG ? PROPER_PRISM_DOUBLE :
                               op == PROPER__PM_FL_ARGMIN || op == PROPER__PM_FL_ARGMAX || want_bool ? PROPER_PRISM_BOOL : ta);
    return PROPER_OK;
}

/* P, R, S, E, A, filter and temporal operators. */
static int proper__prism_resolve_operator(proper__prism_resolver *r, int32_t e) {
    proper__prism_node *nd = &r->pool->n[e];
    int rc, kind = nd->kind, op = nd->op;
    int32_t a = nd->a, b = nd->b, c = nd->c, lo = nd->idx;
    switch (kind) {
    case PROPER__PM_N_PATH:
        if ((rc = proper__prism_resolve_formula(r, a, "an operand of a temporal operator")) != 0 ||
            (rc = proper__prism_resolve_formula(r, b, "an operand of a temporal operator")) != 0)
            return rc;
        {   /* a CTMC's bounds are times; a model read from explicit files may be either */
            int type = !r->m || r->m->is_ctmc ? PROPER_PRISM_DOUBLE : PROPER_PRISM_INT;
            if (c >= 0 && (rc = proper__prism_resolve_as(r, c, type, 1, "a step bound")) != 0) return rc;
            if (lo >= 0 && (rc = proper__prism_resolve_as(r, lo, type, 1, "a step bound")) != 0) return rc;
        }
        nd = &r->pool->n[e];
        nd->type = PROPER_PRISM_BOOL;
        if (op <= PROPER__PM_T_R) nd->flags |= PROPER__PM_F_PATH;
        break;
    case PROPER__PM_N_PROB: case PROPER__PM_N_EXISTS: case PROPER__PM_N_FORALL: case PROPER__PM_N_STEADY:
        if ((rc = proper__prism_resolve_formula(r, a, kind == PROPER__PM_N_STEADY ? "the formula of S" : "a path formula")) != 0)
            return rc;
        break;
    case PROPER__PM_N_REWARD:
        if ((rc = proper__prism_resolve_formula(r, a, "a reward formula")) != 0) return rc;
        if (c >= 0 && (rc = proper__prism_resolve_as(r, c, PROPER_PRISM_INT, 1, "a reward structure index")) != 0) return rc;
        break;
    default: /* filter */
        if ((rc = proper__prism_resolve(r, a)) != 0 || (rc = proper__prism_resolve_formula(r, b, "a filter's states")) != 0)
            return rc;
        nd = &r->pool->n[e];
        if ((rc = proper__prism_type_filter(r, nd, r->pool->n[a].type)) != 0) return rc;
        break;
    }
    if (kind != PROPER__PM_N_PATH && kind != PROPER__PM_N_FILTER && b >= 0 &&
        (rc = proper__prism_resolve_as(r, b, PROPER_PRISM_DOUBLE, 1, "a bound")) != 0)
        return rc;
    nd = &r->pool->n[e];
    if (kind != PROPER__PM_N_PATH && kind != PROPER__PM_N_FILTER)
        nd->type = (unsigned char)(kind == PROPER__PM_N_EXISTS || kind == PROPER__PM_N_FORALL || op != PROPER__PM_QUERY
                                       ? PROPER_PRISM_BOOL : PROPER_PRISM_DOUBLE);
    proper__prism_absorb(r, e);
    nd = &r->pool->n[e];
    if (kind != PROPER__PM_N_PATH) { /* an operator's value differs by state; its inside is its own */
        nd->flags &= (unsigned char)~PROPER__PM_F_PATH;
        nd->flags |= PROPER__PM_F_OPS;
    }
    return PROPER_OK;
}

/* "name" refers to a property (not a label) when no label has that name
 * and a property of the file does (PRISM's rule: labels first). */
static int proper__prism_is_propref(const proper__prism_resolver *r, const proper__prism_node *nd) {
    const proper_prism_props *p = r->p;
    const char *name = r->names->names[nd->idx];
    size_t i;
    if (p->sym_label[nd->idx] >= 0 || strcmp(name, "init") == 0 || strcmp(name, "deadlock") == 0) return 0;
    for (i = 0; r->m && i < r->m->n_labels; i++)
        if (strcmp(r->m->names.names[r->m->labels[i].name], name) == 0) return 0;
    for (i = 0; i < p->n_props; i++)
        if (p->props[i].name && strcmp(p->props[i].name, name) == 0) return 1;
    return 0;
}

/* A reference to a named property: its type and flags; cycles are errors. */
static int proper__prism_resolve_propref(proper__prism_resolver *r, int32_t e) {
    proper__prism_node *nd = &r->pool->n[e];
    const proper_prism_props *p = r->p;
    const char *name = r->names->names[nd->idx];
    size_t i;
    int rc;
    for (i = 0; i < p->n_props; i++)
        if (p->props[i].name && strcmp(p->props[i].name, name) == 0) break;
    if (r->nesting >= PROPER__PM_MAX_FORWARD)
        return proper__prism_rerr(r, nd, PROPER_ELIMIT, "property references nested more than %d deep", PROPER__PM_MAX_FORWARD);
    nd->kind = PROPER__PM_N_PROPREF;
    nd->idx = (int32_t)i;
    nd->flags |= PROPER__PM_F_BUSY;
    r->nesting++;
    rc = proper__prism_resolve(r, p->props[i].expr);
    r->nesting--;
    nd = &r->pool->n[e];
    nd->flags &= (unsigned char)~PROPER__PM_F_BUSY;
    if (rc) return rc;
    nd->type = r->pool->n[p->props[i].expr].type;
    nd->flags |= PROPER__PM_F_OPS;
    return PROPER_OK;
}

static int proper__prism_resolve(proper__prism_resolver *r, int32_t e) {
    proper__prism_node *nd = &r->pool->n[e];
    int ta, tb, tc, rc;
    if (nd->flags & PROPER__PM_F_DONE) return PROPER_OK;
    if (nd->flags & PROPER__PM_F_BUSY) return proper__prism_rerr(r, nd, PROPER_EPARSE, "formula refers to itself");
    if (nd->kind == PROPER__PM_N_NAME && (rc = proper__prism_resolve_name(r, e)) != 0) return rc;
    nd = &r->pool->n[e];
    switch (nd->kind) {
    case PROPER__PM_N_INT: nd->type = PROPER_PRISM_INT; break;
    case PROPER__PM_N_DOUBLE: nd->type = PROPER_PRISM_DOUBLE; break;
    case PROPER__PM_N_BOOL: nd->type = PROPER_PRISM_BOOL; break;
    case PROPER__PM_N_VAR: case PROPER__PM_N_CONST: case PROPER__PM_N_PCONST: break;
    case PROPER__PM_N_LABEL:
        if (r->p && proper__prism_is_propref(r, nd)) {
            if ((rc = proper__prism_resolve_propref(r, e)) != 0) return rc;
            break;
        }
        if (r->p && r->p->sym_label[nd->idx] >= 0) {
            nd->kind = PROPER__PM_N_PLABEL;
            nd->a = r->p->labels[r->p->sym_label[nd->idx]].expr;
        } else {
            nd->type = PROPER_PRISM_BOOL;
            nd->flags |= PROPER__PM_F_LABELS;
            break;
        }
        /* fall through: a file label is a formula */
    case PROPER__PM_N_FORMULA: case PROPER__PM_N_PLABEL: case PROPER__PM_N_MFORMULA: {
        const proper__prism_node *body;
        if (nd->kind != PROPER__PM_N_MFORMULA) {
            if (r->nesting >= PROPER__PM_MAX_FORWARD)
                return proper__prism_rerr(r, nd, PROPER_ELIMIT, "formulas nested more than %d deep", PROPER__PM_MAX_FORWARD);
            nd->flags |= PROPER__PM_F_BUSY;
            r->nesting++;
            rc = proper__prism_resolve(r, nd->a);
            r->nesting--;
            nd = &r->pool->n[e];
            nd->flags &= (unsigned char)~PROPER__PM_F_BUSY;
            if (rc) return rc;
        }
        body = proper__prism_body(r, nd);
        nd->type = body->type;
        nd->depth = body->depth + 1;
        nd->size = body->size;
        nd->flags |= body->flags & (PROPER__PM_F_STATE | PROPER__PM_F_PATH);
        if (nd->kind == PROPER__PM_N_PLABEL && nd->type != PROPER_PRISM_BOOL)
            return proper__prism_rerr(r, nd, PROPER_EPARSE, "label is %s, not bool", proper__prism_type_name(nd->type));
        break;
    }
    case PROPER__PM_N_PROB: case PROPER__PM_N_REWARD: case PROPER__PM_N_STEADY: case PROPER__PM_N_EXISTS:
    case PROPER__PM_N_FORALL: case PROPER__PM_N_FILTER: case PROPER__PM_N_PATH:
        if ((rc = proper__prism_resolve_operator(r, e)) != 0) return rc;
        nd = &r->pool->n[e];
        break;
    default:
        if ((rc = proper__prism_resolve_children(r, e)) != 0) return rc;
        nd = &r->pool->n[e];
        ta = nd->a >= 0 ? r->pool->n[nd->a].type : 0;
        tb = nd->b >= 0 ? r->pool->n[nd->b].type : 0;
        tc = nd->c >= 0 ? r->pool->n[nd->c].type : 0;
        if (nd->kind == PROPER__PM_N_NEG) {
            if (!proper__prism_is_num(ta))
                return proper__prism_rerr(r, nd, PROPER_EPARSE, "type error: unary '-' of %s", proper__prism_type_name(ta));
            nd->type = (unsigned char)ta;
        } else if (nd->kind == PROPER__PM_N_NOT) {
            if (ta != PROPER_PRISM_BOOL)
                return proper__prism_rerr(r, nd, PROPER_EPARSE, "type error: '!' of %s", proper__prism_type_name(ta));
            nd->type = PROPER_PRISM_BOOL;
        } else if (nd->kind == PROPER__PM_N_BIN) {
            if ((rc = proper__prism_type_binary(r, nd, ta, tb)) != 0) return rc;
        } else if (nd->kind == PROPER__PM_N_FUNC) {
            if (nd->b < 0) tb = PROPER_PRISM_INT;
            if ((rc = proper__prism_type_function(r, nd, ta, tb)) != 0) return rc;
        } else { /* ITE */
            if (ta != PROPER_PRISM_BOOL)
                return proper__prism_rerr(r, nd, PROPER_EPARSE, "type error: condition of '? :' is %s", proper__prism_type_name(ta));
            if (tb == PROPER_PRISM_BOOL && tc == PROPER_PRISM_BOOL)
                nd->type = PROPER_PRISM_BOOL;
            else if (proper__prism_is_num(tb) && proper__prism_is_num(tc))
                nd->type = (unsigned char)(tb == PROPER_PRISM_INT && tc == PROPER_PRISM_INT ? PROPER_PRISM_INT : PROPER_PRISM_DOUBLE);
            else
                return proper__prism_rerr(r, nd, PROPER_EPARSE, "type error: branches of '? :' are %s and %s",
                                    proper__prism_type_name(tb), proper__prism_type_name(tc));
        }
        break;
    }
    if (nd->depth > PROPER_PRISM_MAX_DEPTH)
        return proper__prism_rerr(r, nd, PROPER_ELIMIT, "expression nested more than %d deep (after expanding formulas)",
                            PROPER_PRISM_MAX_DEPTH);
    if (nd->size > PROPER_PRISM_MAX_NODES)
        return proper__prism_rerr(r, nd, PROPER_ELIMIT, "expression larger than %d nodes (after expanding formulas)",
                            PROPER_PRISM_MAX_NODES);
    nd->flags |= PROPER__PM_F_DONE;
    return PROPER_OK;
}

/* Resolve e and check it has type `want` (PROPER_PRISM_DOUBLE accepts any
 * number); `constant`: no variables or labels. `what` names it in errors. */
static int proper__prism_resolve_as(proper__prism_resolver *r, int32_t e, int want, int constant, const char *what) {
    const proper__prism_node *nd;
    int rc = proper__prism_resolve(r, e);
    if (rc) return rc;
    nd = &r->pool->n[e];
    if (want == PROPER_PRISM_DOUBLE ? !proper__prism_is_num(nd->type) : nd->type != want)
        return proper__prism_rerr(r, nd, PROPER_EPARSE, "type error: %s must be %s, not %s", what,
                            want == PROPER_PRISM_DOUBLE ? "a number" : proper__prism_type_name(want),
                            proper__prism_type_name(nd->type));
    if (constant && (nd->flags & PROPER__PM_F_VARS))
        return proper__prism_rerr(r, nd, PROPER_EPARSE, "%s must be constant (it refers to a variable)", what);
    if (nd->flags & PROPER__PM_F_LABELS)
        return proper__prism_rerr(r, nd, PROPER_EPARSE, "%s cannot refer to a label", what);
    if (constant && (nd->flags & PROPER__PM_F_OPS))
        return proper__prism_rerr(r, nd, PROPER_EPARSE, "%s must be constant (it holds a property operator)", what);
    return PROPER_OK;
}

/* Record declaration i of name `sym` in map; a name already declared (in
 * map or in one of the `taken` maps) is an error at (line, col). */
static int proper__prism_declare(proper__prism_resolver *r, int32_t *map, const int32_t *const *taken, int n_taken,
                           int32_t sym, size_t i, int line, int col, const char *what) {
    int k, dup = map[sym] >= 0;
    for (k = 0; k < n_taken; k++)
        if (taken[k][sym] >= 0) dup = 1;
    if (dup)
        return proper_error_set(r->err, PROPER_EPARSE, r->file, line, col, "%s '%s' is already declared", what,
                                r->names->names[sym]);
    map[sym] = (int32_t)i;
    return PROPER_OK;
}

static int32_t *proper__prism_sym_map(size_t n) {
    int32_t *map = (int32_t *)proper_calloc(n ? n : 1, sizeof *map);
    size_t i;
    if (map)
        for (i = 0; i < n; i++) map[i] = -1;
    return map;
}

/* Actions: distinct names of labelled commands; alphabet per module. */
static int proper__prism_index_actions(proper_prism_model *m, proper_error *err) {
    int32_t *map = proper__prism_sym_map(m->names.len);
    size_t i;
    if (!map) return proper_error_set(err, PROPER_ENOMEM, m->file, 0, 0, "out of memory");
    for (i = 0; i < m->n_cmds; i++) {
        int32_t a = m->cmds[i].action;
        if (a < 0) continue;
        if (map[a] < 0) {
            map[a] = (int32_t)m->n_actions;
            if (PROPER_PUSH(m->actions, m->n_actions, m->cap_actions, a)) goto oom;
        }
        m->cmds[i].action = map[a];
    }
    for (i = 0; i < m->n_items; i++) {
        proper__prism_reward_item *it = &m->items[i];
        /* an action no module has never matches a choice */
        if (it->is_trans && it->action >= 0) it->action = map[it->action] >= 0 ? map[it->action] : -2;
    }
    m->alphabet = (unsigned char *)proper_calloc(m->n_modules * (m->n_actions ? m->n_actions : 1), 1);
    if (!m->alphabet) goto oom;
    for (i = 0; i < m->n_cmds; i++)
        if (m->cmds[i].action >= 0) m->alphabet[(size_t)m->cmds[i].module * m->n_actions + (size_t)m->cmds[i].action] = 1;
    PROPER_FREE(map);
    return PROPER_OK;
oom:
    PROPER_FREE(map);
    return proper_error_set(err, PROPER_ENOMEM, m->file, 0, 0, "out of memory");
}

static int proper__prism_resolve_commands(proper__prism_resolver *r, proper_prism_model *m) {
    size_t i, j, k, l;
    int rc;
    if (m->is_ctmc && m->has_intervals) /* PRISM: intervals only in DTMCs (and MDPs) */
        return proper_error_set(r->err, PROPER_EPARSE, r->file, m->interval_line, m->interval_col,
                                "probability intervals [lo,hi] need a dtmc (the updates of a ctmc carry rates)");
    for (i = 0; i < m->n_cmds; i++) {
        proper__prism_command *cmd = &m->cmds[i];
        if ((rc = proper__prism_resolve_as(r, cmd->guard, PROPER_PRISM_BOOL, 0, "a guard")) != 0) return rc;
        for (j = 0; j < cmd->n; j++) {
            proper__prism_update *u = &m->updates[cmd->first + j];
            if (u->prob >= 0 && (rc = proper__prism_resolve_as(r, u->prob, PROPER_PRISM_DOUBLE, 0, "a probability")) != 0)
                return rc;
            if (u->prob_hi >= 0 &&
                (rc = proper__prism_resolve_as(r, u->prob_hi, PROPER_PRISM_DOUBLE, 0, "a probability")) != 0)
                return rc;
            for (k = 0; k < u->n; k++) {
                proper__prism_assign *a = &m->assigns[u->first + k];
                int32_t v = m->sym_var[a->var];
                const proper__prism_node *ex;
                if (v < 0)
                    return proper_error_set(r->err, PROPER_EUNDEFINED, r->file, a->line, a->col,
                                            "unknown variable '%s' in assignment", m->names.names[a->var]);
                if (m->vars[v].module >= 0 && m->vars[v].module != cmd->module)
                    return proper_error_set(r->err, PROPER_EPARSE, r->file, a->line, a->col,
                                            "module '%s' cannot change variable '%s' of module '%s'",
                                            m->names.names[m->modules[cmd->module].sym], m->names.names[a->var],
                                            m->names.names[m->modules[m->vars[v].module].sym]);
                for (l = 0; l < k; l++)
                    if (m->assigns[u->first + l].var == v)
                        return proper_error_set(r->err, PROPER_EPARSE, r->file, a->line, a->col,
                                                "variable '%s' is assigned twice in one update", m->names.names[a->var]);
                a->var = v;
                if ((rc = proper__prism_resolve(r, a->expr)) != 0) return rc;
                ex = &m->pool.n[a->expr];
                if (m->vars[v].is_bool ? ex->type != PROPER_PRISM_BOOL : ex->type != PROPER_PRISM_INT)
                    return proper_error_set(r->err, PROPER_EPARSE, r->file, ex->line, ex->col,
                                            "type error: cannot assign %s to %s variable '%s'",
                                            proper__prism_type_name(ex->type), m->vars[v].is_bool ? "bool" : "int",
                                            m->names.names[m->vars[v].sym]);
            }
        }
    }
    return PROPER_OK;
}

/* Constants, formulas, labels, variables, commands and rewards. */
static int proper__prism_resolve_model(proper_prism_model *m, proper_error *err) {
    proper__prism_resolver r;
    const int32_t *taken[2];
    size_t i;
    int rc;
    memset(&r, 0, sizeof r);
    r.pool = &m->pool;
    r.names = &m->names;
    r.file = m->file;
    r.err = err;
    r.m = m;
    m->sym_var = proper__prism_sym_map(m->names.len);
    m->sym_const = proper__prism_sym_map(m->names.len);
    m->sym_formula = proper__prism_sym_map(m->names.len);
    if (!m->sym_var || !m->sym_const || !m->sym_formula)
        return proper_error_set(err, PROPER_ENOMEM, m->file, 0, 0, "out of memory");
    taken[0] = m->sym_var;
    taken[1] = m->sym_const;
    for (i = 0; i < m->n_vars; i++)
        if ((rc = proper__prism_declare(&r, m->sym_var, NULL, 0, m->vars[i].sym, i, m->vars[i].line, m->vars[i].col,
                                  "variable")) != 0)
            return rc;
    for (i = 0; i < m->n_consts; i++)
        if ((rc = proper__prism_declare(&r, m->sym_const, taken, 1, m->consts[i].sym, i, m->consts[i].line,
                                  m->consts[i].col, "constant")) != 0)
            return rc;
    for (i = 0; i < m->n_formulas; i++)
        if ((rc = proper__prism_declare(&r, m->sym_formula, taken, 2, m->formulas[i].sym, i, m->formulas[i].line,
                                  m->formulas[i].col, "formula")) != 0)
            return rc;
    for (i = 0; i < m->n_labels; i++) {
        size_t j;
        const char *name = m->names.names[m->labels[i].name];
        if (strcmp(name, "init") == 0 || strcmp(name, "deadlock") == 0)
            return proper_error_set(err, PROPER_EPARSE, m->file, m->labels[i].line, m->labels[i].col,
                                    "label \"%s\" is built in and cannot be redefined", name);
        for (j = 0; j < i; j++)
            if (m->labels[j].name == m->labels[i].name)
                return proper_error_set(err, PROPER_EPARSE, m->file, m->labels[i].line, m->labels[i].col,
                                        "label \"%s\" is defined twice", name);
    }
    for (i = 0; i < m->n_consts; i++) {
        const proper__prism_const_decl *c = &m->consts[i];
        if (c->expr >= 0 && (rc = proper__prism_resolve_as(&r, c->expr, c->type == PROPER_PRISM_DOUBLE ? PROPER_PRISM_DOUBLE : c->type,
                                                     1, "a constant's value")) != 0)
            return rc;
    }
    for (i = 0; i < m->n_formulas; i++)
        if ((rc = proper__prism_resolve(&r, m->formulas[i].expr)) != 0) return rc;
    for (i = 0; i < m->n_labels; i++)
        if ((rc = proper__prism_resolve_as(&r, m->labels[i].expr, PROPER_PRISM_BOOL, 0, "a label")) != 0) return rc;
    for (i = 0; i < m->n_vars; i++) {
        const proper__prism_var_decl *v = &m->vars[i];
        if (!v->is_bool && ((rc = proper__prism_resolve_as(&r, v->lo, PROPER_PRISM_INT, 1, "a variable's lower bound")) != 0 ||
                            (rc = proper__prism_resolve_as(&r, v->hi, PROPER_PRISM_INT, 1, "a variable's upper bound")) != 0))
            return rc;
        if (v->init >= 0 && (rc = proper__prism_resolve_as(&r, v->init, v->is_bool ? PROPER_PRISM_BOOL : PROPER_PRISM_INT, 1,
                                                     "a variable's initial value")) != 0)
            return rc;
    }
    if (m->init_expr >= 0) {
        if ((rc = proper__prism_resolve_as(&r, m->init_expr, PROPER_PRISM_BOOL, 0, "'init ... endinit'")) != 0) return rc;
        for (i = 0; i < m->n_vars; i++)
            if (m->vars[i].init >= 0)
                return proper_error_set(err, PROPER_EPARSE, m->file, m->vars[i].line, m->vars[i].col,
                                        "variable '%s' has an initial value although the model has 'init ... endinit'",
                                        m->names.names[m->vars[i].sym]);
    }
    if ((rc = proper__prism_resolve_commands(&r, m)) != 0) return rc;
    for (i = 0; i < m->n_items; i++) {
        const proper__prism_reward_item *it = &m->items[i];
        if ((rc = proper__prism_resolve_as(&r, it->guard, PROPER_PRISM_BOOL, 0, "a reward's guard")) != 0 ||
            (rc = proper__prism_resolve_as(&r, it->value, PROPER_PRISM_DOUBLE, 0, "a reward")) != 0)
            return rc;
    }
    for (i = 0; i < m->n_rewards; i++) {
        size_t j;
        for (j = 0; j < i; j++)
            if (m->rewards[i].name >= 0 && m->rewards[j].name == m->rewards[i].name)
                return proper_error_set(err, PROPER_EPARSE, m->file, m->rewards[i].line, m->rewards[i].col,
                                        "reward structure \"%s\" is defined twice", m->names.names[m->rewards[i].name]);
    }
    return proper__prism_index_actions(m, err);
}

/* ---- Evaluation -------------------------------------------------------------*/

typedef struct proper__prism_ectx {
    const proper_prism_model *m;  /* for the model's pool, names and constants */
    const proper__prism_pool *pool;     /* pool of the expression evaluated */
    const char *file;             /* file of that pool */
    const proper__prism_val *cv;        /* model constant values */
    const proper__prism_val *pcv;       /* properties constant values */
    const unsigned char *pmiss;      /* properties constants without a value */
    const proper_prism_props *props; /* ... and their declarations */
    const int32_t *vals;          /* the state's variable values, or NULL */
    proper_bitset *const *labels; /* properties: label sets by name id */
    double *const *opvals;        /* properties: values of operator nodes in every state, by node id */
    size_t state;                 /* state index for labels */
    int *cstate;                  /* constants being evaluated: 0 todo, 1 busy, 2 done (or NULL) */
    proper__prism_val *cvals;           /* ... and their values */
    int cnest;
    proper_error *err;
    struct proper__prism_xctx *xc; /* NULL, or the exact context PROPER__PM_N_XCMP nodes are decided in */
    double *cerr;                 /* NULL, or the model constants' error bounds (NaN: not yet known) */
} proper__prism_ectx;

/* "(x=1,b=true)" for error messages. */
static void proper__prism_describe_state(const proper_prism_model *m, const int32_t *vals, char *buf, size_t size) {
    size_t i, k = 0;
    if (size == 0) return;
    buf[0] = '\0';
    if (!m || !vals) return;
    k += (size_t)snprintf(buf + k, size - k, "(");
    for (i = 0; i < m->n_vars && k < size; i++) {
        const proper__prism_var_decl *v = &m->vars[i];
        if (v->is_bool)
            k += (size_t)snprintf(buf + k, size - k, "%s%s=%s", i ? "," : "", m->names.names[v->sym], vals[i] ? "true" : "false");
        else
            k += (size_t)snprintf(buf + k, size - k, "%s%s=%ld", i ? "," : "", m->names.names[v->sym], (long)vals[i]);
    }
    if (k < size) snprintf(buf + k, size - k, ")");
}

static int proper__prism_eval_fail(const proper__prism_ectx *cx, const proper__prism_node *nd, int code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int proper__prism_eval_fail(const proper__prism_ectx *cx, const proper__prism_node *nd, int code, const char *fmt, ...) {
    char st[PROPER_ERROR_MESSAGE_MAX / 2];
    va_list ap;
    va_start(ap, fmt);
    proper_error_setv(cx->err, code, cx->file, nd->line, nd->col, fmt, ap);
    va_end(ap);
    proper__prism_describe_state(cx->m, cx->vals, st, sizeof st);
    if (cx->err && st[0]) {
        size_t k = strlen(cx->err->message);
        snprintf(cx->err->message + k, sizeof cx->err->message - k, " in state %s", st);
    }
    return code;
}

static int proper__prism_eval(const proper__prism_ectx *cx, int32_t e, proper__prism_val *out);
static int proper__prism_eval_const(const proper__prism_ectx *cx, int32_t k);

/* 32-bit range check of an int result (PRISM's ints are Java ints and it
 * reports overflow). */
static int proper__prism_int_result(const proper__prism_ectx *cx, const proper__prism_node *nd, long long v, proper__prism_val *out) {
    if (v < -2147483647LL - 1 || v > 2147483647LL)
        return proper__prism_eval_fail(cx, nd, PROPER_ERANGE, "integer overflow in '%s' (%lld)",
                                 nd->kind == PROPER__PM_N_FUNC ? proper__prism_fn_text(nd->op) :
                                 nd->kind == PROPER__PM_N_NEG ? "-" : proper__prism_op_text(nd->op), v);
    out->i = v;
    return PROPER_OK;
}

/* floor/ceil/round of a double into an int. */
static int proper__prism_to_int(const proper__prism_ectx *cx, const proper__prism_node *nd, double x, proper__prism_val *out) {
    if (!(x >= -2147483648.0 && x <= 2147483647.0))
        return proper__prism_eval_fail(cx, nd, PROPER_ERANGE, "%s(%g) is not a 32-bit integer", proper__prism_fn_text(nd->op), x);
    out->i = (long long)x;
    return PROPER_OK;
}

/* pow of ints: exponent >= 0, result must fit in 32 bits. */
static int proper__prism_int_pow(const proper__prism_ectx *cx, const proper__prism_node *nd, long long base, long long ex, proper__prism_val *out) {
    long long r = 1;
    if (ex < 0) return proper__prism_eval_fail(cx, nd, PROPER_ERANGE, "negative exponent %lld in an integer power", ex);
    if (base == 0 || base == 1) return out->i = (ex == 0 ? 1 : base), PROPER_OK;
    if (base == -1) return out->i = (ex % 2 ? -1 : 1), PROPER_OK;
    while (ex-- > 0) {
        r *= base;
        if (r < -2147483647LL - 1 || r > 2147483647LL) return proper__prism_int_result(cx, nd, r, out);
    }
    out->i = r;
    return PROPER_OK;
}

static int proper__prism_eval_func(const proper__prism_ectx *cx, const proper__prism_node *nd, proper__prism_val *out) {
    proper__prism_val a, b;
    int ta = cx->pool->n[nd->a].type, tb = nd->b >= 0 ? cx->pool->n[nd->b].type : 0, rc;
    double x, y;
    if ((rc = proper__prism_eval(cx, nd->a, &a)) != 0) return rc;
    if (nd->b >= 0 && (rc = proper__prism_eval(cx, nd->b, &b)) != 0) return rc;
    x = proper__prism_as_double(ta, a);
    y = nd->b >= 0 ? proper__prism_as_double(tb, b) : 0;
    switch (nd->op) {
    case PROPER__PM_FN_MIN: case PROPER__PM_FN_MAX: {
        int lt = x < y;
        if (nd->type == PROPER_PRISM_INT) out->i = (nd->op == PROPER__PM_FN_MIN) == (a.i < b.i) ? a.i : b.i;
        else out->d = (nd->op == PROPER__PM_FN_MIN) == lt ? x : y;
        if (nd->type != PROPER_PRISM_INT && (x != x || y != y)) out->d = x + y; /* NaN propagates */
        return PROPER_OK;
    }
    case PROPER__PM_FN_FLOOR: return proper__prism_to_int(cx, nd, floor(x), out);
    case PROPER__PM_FN_CEIL: return proper__prism_to_int(cx, nd, ceil(x), out);
    case PROPER__PM_FN_ROUND: return proper__prism_to_int(cx, nd, floor(x + 0.5), out); /* Java Math.round */
    case PROPER__PM_FN_POW:
        if (nd->type == PROPER_PRISM_INT) return proper__prism_int_pow(cx, nd, a.i, b.i, out);
        out->d = pow(x, y);
        return PROPER_OK;
    case PROPER__PM_FN_MOD: {
        long long rem;
        if (b.i <= 0) return proper__prism_eval_fail(cx, nd, PROPER_ERANGE, "mod(%lld, %lld): the divisor must be positive", a.i, b.i);
        rem = a.i % b.i;
        out->i = rem < 0 ? rem + b.i : rem;
        return PROPER_OK;
    }
    default: /* log(x, base) */
        out->d = log(x) / log(y);
        return PROPER_OK;
    }
}

static int proper__prism_eval_binary(const proper__prism_ectx *cx, const proper__prism_node *nd, proper__prism_val *out) {
    proper__prism_val a, b;
    int ta = cx->pool->n[nd->a].type, tb = cx->pool->n[nd->b].type, rc, both_int;
    double x, y;
    if ((rc = proper__prism_eval(cx, nd->a, &a)) != 0) return rc;
    /* short-circuit logic */
    switch (nd->op) {
    case PROPER__PM_OP_AND: if (!a.i) return out->i = 0, PROPER_OK; return proper__prism_eval(cx, nd->b, out);
    case PROPER__PM_OP_OR: if (a.i) return out->i = 1, PROPER_OK; return proper__prism_eval(cx, nd->b, out);
    case PROPER__PM_OP_IMPLIES: if (!a.i) return out->i = 1, PROPER_OK; return proper__prism_eval(cx, nd->b, out);
    default: break;
    }
    if ((rc = proper__prism_eval(cx, nd->b, &b)) != 0) return rc;
    both_int = ta != PROPER_PRISM_DOUBLE && tb != PROPER_PRISM_DOUBLE; /* ints or bools */
    x = proper__prism_as_double(ta, a);
    y = proper__prism_as_double(tb, b);
    switch (nd->op) {
    case PROPER__PM_OP_IFF: out->i = a.i == b.i; return PROPER_OK;
    case PROPER__PM_OP_EQ: out->i = both_int ? a.i == b.i : x == y; return PROPER_OK;
    case PROPER__PM_OP_NE: out->i = both_int ? a.i != b.i : x != y; return PROPER_OK;
    case PROPER__PM_OP_LT: out->i = both_int ? a.i < b.i : x < y; return PROPER_OK;
    case PROPER__PM_OP_LE: out->i = both_int ? a.i <= b.i : x <= y; return PROPER_OK;
    case PROPER__PM_OP_GT: out->i = both_int ? a.i > b.i : x > y; return PROPER_OK;
    case PROPER__PM_OP_GE: out->i = both_int ? a.i >= b.i : x >= y; return PROPER_OK;
    case PROPER__PM_OP_DIV: out->d = x / y; return PROPER_OK;
    case PROPER__PM_OP_ADD:
        if (nd->type == PROPER_PRISM_INT) return proper__prism_int_result(cx, nd, a.i + b.i, out);
        out->d = x + y;
        return PROPER_OK;
    case PROPER__PM_OP_SUB:
        if (nd->type == PROPER_PRISM_INT) return proper__prism_int_result(cx, nd, a.i - b.i, out);
        out->d = x - y;
        return PROPER_OK;
    case PROPER__PM_OP_MUL:
        if (nd->type == PROPER_PRISM_INT) return proper__prism_int_result(cx, nd, a.i * b.i, out);
        out->d = x * y;
        return PROPER_OK;
    default: /* ^ */
        if (nd->type == PROPER_PRISM_INT) return proper__prism_int_pow(cx, nd, a.i, b.i, out);
        out->d = pow(x, y);
        return PROPER_OK;
    }
}

static int proper__prism_eval_xcmp(const proper__prism_ectx *cx, int32_t e, proper__prism_val *out);

static int proper__prism_eval(const proper__prism_ectx *cx, int32_t e, proper__prism_val *out) {
    const proper__prism_node *nd = &cx->pool->n[e];
    proper__prism_ectx sub;
    int rc;
    out->i = 0;
    out->d = 0;
    switch (nd->kind) {
    case PROPER__PM_N_INT: case PROPER__PM_N_BOOL: out->i = (long long)nd->num; return PROPER_OK;
    case PROPER__PM_N_DOUBLE: out->d = nd->num; return PROPER_OK;
    case PROPER__PM_N_VAR:
        if (!cx->vals) return proper__prism_eval_fail(cx, nd, PROPER_EINVAL, "variables cannot be used here");
        out->i = cx->vals[nd->idx];
        return PROPER_OK;
    case PROPER__PM_N_CONST:
        if (cx->cstate && cx->cstate[nd->idx] != 2) {
            if ((rc = proper__prism_eval_const(cx, nd->idx)) != 0) return rc;
            *out = cx->cvals[nd->idx];
        } else {
            *out = cx->cv[nd->idx];
        }
        return PROPER_OK;
    case PROPER__PM_N_PCONST:
        if (cx->pmiss && cx->pmiss[nd->idx])
            return proper__prism_eval_fail(cx, nd, PROPER_EUNDEFINED, "constant '%s' has no value (give it, e.g. --const %s=...)",
                                        cx->props->names.names[cx->props->consts[nd->idx].sym],
                                        cx->props->names.names[cx->props->consts[nd->idx].sym]);
        *out = cx->pcv[nd->idx];
        return PROPER_OK;
    case PROPER__PM_N_FORMULA: case PROPER__PM_N_PLABEL: return proper__prism_eval(cx, nd->a, out);
    case PROPER__PM_N_MFORMULA:
        sub = *cx;
        sub.pool = &cx->m->pool;
        sub.file = cx->m->file;
        return proper__prism_eval(&sub, nd->a, out);
    case PROPER__PM_N_LABEL:
        if (!cx->labels || !cx->labels[nd->idx])
            return proper__prism_eval_fail(cx, nd, PROPER_EINVAL, "labels cannot be used here");
        out->i = PROPER_BITSET_GET(cx->labels[nd->idx], cx->state);
        return PROPER_OK;
    case PROPER__PM_N_NEG:
        if ((rc = proper__prism_eval(cx, nd->a, out)) != 0) return rc;
        if (nd->type == PROPER_PRISM_INT) return proper__prism_int_result(cx, nd, -out->i, out);
        out->d = -out->d;
        return PROPER_OK;
    case PROPER__PM_N_NOT:
        if ((rc = proper__prism_eval(cx, nd->a, out)) != 0) return rc;
        out->i = !out->i;
        return PROPER_OK;
    case PROPER__PM_N_ITE: {
        proper__prism_val c;
        int tb, tc;
        if ((rc = proper__prism_eval(cx, nd->a, &c)) != 0) return rc;
        if ((rc = proper__prism_eval(cx, c.i ? nd->b : nd->c, out)) != 0) return rc;
        tb = cx->pool->n[c.i ? nd->b : nd->c].type;
        tc = nd->type;
        if (tc == PROPER_PRISM_DOUBLE && tb == PROPER_PRISM_INT) out->d = (double)out->i;
        return PROPER_OK;
    }
    case PROPER__PM_N_BIN: return proper__prism_eval_binary(cx, nd, out);
    case PROPER__PM_N_XCMP: return cx->xc ? proper__prism_eval_xcmp(cx, e, out) : proper__prism_eval_binary(cx, nd, out);
    case PROPER__PM_N_FUNC: return proper__prism_eval_func(cx, nd, out);
    case PROPER__PM_N_PROB: case PROPER__PM_N_REWARD: case PROPER__PM_N_STEADY: case PROPER__PM_N_EXISTS:
    case PROPER__PM_N_FORALL: case PROPER__PM_N_FILTER: case PROPER__PM_N_PROPREF: {
        double x;
        if (!cx->opvals || !cx->opvals[e]) return proper__prism_eval_fail(cx, nd, PROPER_EINVAL, "operators cannot be used here");
        x = cx->opvals[e][cx->state];
        if (nd->type == PROPER_PRISM_DOUBLE) out->d = x;
        else out->i = (long long)x;
        return PROPER_OK;
    }
    default: return proper__prism_eval_fail(cx, nd, PROPER_EINVAL, "unresolved name");
    }
}

/* Value of model constant k, computing (and caching) those it depends on. */
static int proper__prism_eval_const(const proper__prism_ectx *cx, int32_t k) {
    const proper__prism_const_decl *c = &cx->m->consts[k];
    proper__prism_ectx sub = *cx;
    proper__prism_val v;
    int rc;
    if (cx->cstate[k] == 2) return PROPER_OK;
    if (cx->cstate[k] == 1)
        return proper_error_set(cx->err, PROPER_EPARSE, cx->m->file, c->line, c->col,
                                "constant '%s' is defined in terms of itself", cx->m->names.names[c->sym]);
    if (c->expr < 0) {
        if (!c->has_given && c->is_param)
            return proper_error_set(cx->err, PROPER_EUNDEFINED, cx->m->file, c->line, c->col,
                                    "parameter '%s' has no value (give it, e.g. --const %s=..., or keep it open with --param %s)",
                                    cx->m->names.names[c->sym], cx->m->names.names[c->sym], cx->m->names.names[c->sym]);
        if (!c->has_given)
            return proper_error_set(cx->err, PROPER_EUNDEFINED, cx->m->file, c->line, c->col,
                                    "constant '%s' has no value (give it, e.g. --const %s=...)",
                                    cx->m->names.names[c->sym], cx->m->names.names[c->sym]);
        cx->cvals[k] = c->given;
        cx->cstate[k] = 2;
        return PROPER_OK;
    }
    if (cx->cnest >= PROPER__PM_MAX_FORWARD)
        return proper_error_set(cx->err, PROPER_ELIMIT, cx->m->file, c->line, c->col,
                                "constants defined in terms of later constants more than %d deep", PROPER__PM_MAX_FORWARD);
    cx->cstate[k] = 1;
    sub.pool = &cx->m->pool;
    sub.file = cx->m->file;
    sub.vals = NULL;
    sub.labels = NULL;
    sub.cnest = cx->cnest + 1;
    if ((rc = proper__prism_eval(&sub, c->expr, &v)) != 0) return rc;
    if (c->type == PROPER_PRISM_DOUBLE) v.d = proper__prism_as_double(cx->m->pool.n[c->expr].type, v);
    cx->cvals[k] = v;
    cx->cstate[k] = 2;
    return PROPER_OK;
}

/* Values of all model constants into *out (PROPER_FREE it). */
static int proper__prism_model_consts(const proper_prism_model *m, proper__prism_val **out, proper_error *err) {
    proper__prism_ectx cx;
    int *state = (int *)proper_calloc(m->n_consts, sizeof *state);
    proper__prism_val *vals = (proper__prism_val *)proper_calloc(m->n_consts, sizeof *vals);
    size_t i;
    int rc = PROPER_OK;
    *out = NULL;
    if (!state || !vals) {
        PROPER_FREE(state);
        PROPER_FREE(vals);
        return proper_error_set(err, PROPER_ENOMEM, m->file, 0, 0, "out of memory");
    }
    memset(&cx, 0, sizeof cx);
    cx.m = m;
    cx.pool = &m->pool;
    cx.file = m->file;
    cx.cv = vals;
    cx.cstate = state;
    cx.cvals = vals;
    cx.err = err;
    for (i = 0; i < m->n_consts && rc == PROPER_OK; i++) rc = proper__prism_eval_const(&cx, (int32_t)i);
    PROPER_FREE(state);
    if (rc) {
        PROPER_FREE(vals);
        return rc;
    }
    *out = vals;
    return PROPER_OK;
}

/* ---- Model: public parse/free/constants -------------------------------------*/

/* ---- The model's own rounding ------------------------------------------------
 * The exact model has the numbers as written (decimal literals, constants
 * as given) and exact arithmetic; the build computes in doubles. Each
 * double-typed value is evaluated with a bound on its distance to the
 * exact value (running error analysis: Higham, Accuracy and Stability of
 * Numerical Algorithms, 2nd ed., ch. 3, fl(a op b) = (a op b)(1 + e),
 * |e| <= u = 2^-53): a literal is exact when its decimal is its double
 * (proper__prism_decimal_exact), else within u |x~|; a + b, a * b and a / b
 * add the propagated bounds and the rounding of the operation itself,
 * which is computed exactly (the error-free TwoSum and the fma residuals)
 * so that exact operations (0.5 * 0.5, 1 - 0.25, 1 / 4) stay exact; pow and
 * log of doubles have no proven bound (libm documents none): INFINITY.
 * Ints and bools are exact, provided no double decides them
 * (proper__prism_decisions_exact). */
#define PROPER__PM_U (DBL_EPSILON / 2.0)
/* 2^-900 and 2^900 (decimal: hexadecimal floating constants are not C++):
 * magnitudes whose products' and quotients' residuals are exact */
#define PROPER__PM_SAFE_LO 1.1830521861667747e-271
#define PROPER__PM_SAFE_HI 8.452712498170644e+270
#define PROPER__PM_TINY 4.9406564584124654e-324 /* 2^-1074, the least subnormal */

/* A bound on one rounding of r in any range (subnormals included). */
static double proper__prism_one_rounding(double r) { return 2.0 * PROPER__PM_U * fabs(r) + PROPER__PM_TINY; }

static int proper__prism_safe_mag(double x) { return fabs(x) >= PROPER__PM_SAFE_LO && fabs(x) <= PROPER__PM_SAFE_HI; }

/* |(x op y) - r| for r = fl(x op y): exact (Knuth's TwoSum; fma residuals,
 * Boldo & Muller, "Exact and approximated error of the FMA", IEEE TC 60(2),
 * 2011) when the magnitudes are safe, else a bound. */
static double proper__prism_rounding_of(int op, double x, double y, double r) {
    if (!isfinite(r)) return INFINITY;
    if (op == PROPER__PM_OP_ADD || op == PROPER__PM_OP_SUB) {
        double b = op == PROPER__PM_OP_SUB ? -y : y, bb = r - x;
        return fabs((x - (r - bb)) + (b - bb));
    }
    if (!proper__prism_safe_mag(x) || !proper__prism_safe_mag(y) || !proper__prism_safe_mag(r))
        return x == 0.0 || (op == PROPER__PM_OP_MUL && y == 0.0) ? 0.0 : proper__prism_one_rounding(r);
    if (op == PROPER__PM_OP_MUL) return fabs(fma(x, y, -r));
    return fabs(fma(-r, y, x)) / fabs(y) * (1.0 + 2.0 * PROPER__PM_U); /* x/y - r = (x - r y) / y */
}

/* The bound on a x~ op y~ within ex, ey of the exact operands, r its
 * computed value (all terms >= 0; their sum rounded up by 1 + 8u). */
static double proper__prism_op_error(int op, double x, double ex, double y, double ey, double r) {
    double prop, rnd = proper__prism_rounding_of(op, x, y, r);
    switch (op) {
    case PROPER__PM_OP_ADD: case PROPER__PM_OP_SUB: prop = ex + ey; break;
    case PROPER__PM_OP_MUL: prop = fabs(x) * ey + fabs(y) * ex + ex * ey; break;
    default: /* x/y - x~/y~ = (dx y~ - x~ dy) / (y~ (y~ + dy)) */
        if (!(ey < fabs(y))) return INFINITY;
        prop = ex == 0.0 && ey == 0.0 ? 0.0
             : (ex * fabs(y) + fabs(x) * ey) / (fabs(y) * (fabs(y) - ey) * (1.0 - 4.0 * PROPER__PM_U));
        break;
    }
    prop = (prop + rnd) * (1.0 + 8.0 * PROPER__PM_U);
    return prop == prop ? prop : INFINITY;
}

static int proper__prism_eval_text(const char *text, double *value, double *er, proper_error *err);

/* The error of a constant given as text (proper_prism_set_consts: "0.1",
 * "1/3", evaluated with its error bound as the model's expressions are);
 * given as a double (proper_prism_set_const), the double is the value. */
static double proper__prism_given_error(const proper__prism_const_decl *c) {
    proper_error scratch;
    double x, er;
    if (c->type != PROPER_PRISM_DOUBLE || !c->given_text[0]) return 0.0;
    if (proper__prism_eval_text(c->given_text, &x, &er, &scratch) != 0 || x != c->given.d) return INFINITY;
    return er;
}

static int proper__prism_eval_err(const proper__prism_ectx *cx, int32_t e, proper__prism_val *out, double *er);

/* Value (as a double) and error bound of e, whatever its type. */
static int proper__prism_eval_num(const proper__prism_ectx *cx, int32_t e, double *x, double *er) {
    proper__prism_val v;
    int rc = proper__prism_eval_err(cx, e, &v, er);
    *x = proper__prism_as_double(cx->pool->n[e].type, v);
    return rc;
}

/* The error bound of model constant k (memoised in cx->cerr, NaN: not yet;
 * forward references nest at most PROPER__PM_MAX_FORWARD deep, as their
 * values did). */
static double proper__prism_const_error(const proper__prism_ectx *cx, int32_t k) {
    const proper__prism_const_decl *c = &cx->m->consts[k];
    proper__prism_ectx sub = *cx;
    proper__prism_val v;
    double er;
    if (!cx->cerr) return INFINITY;
    if (cx->cerr[k] == cx->cerr[k]) return cx->cerr[k];
    if (c->expr < 0) return cx->cerr[k] = proper__prism_given_error(c);
    sub.pool = &cx->m->pool;
    sub.file = cx->m->file;
    sub.vals = NULL;
    if (proper__prism_eval_err(&sub, c->expr, &v, &er) != 0) er = INFINITY;
    return cx->cerr[k] = er;
}

static int proper__prism_eval_err(const proper__prism_ectx *cx, int32_t e, proper__prism_val *out, double *er) {
    const proper__prism_node *nd = &cx->pool->n[e];
    proper__prism_ectx sub;
    double x, y, ex, ey;
    int rc;
    *er = 0.0;
    if (nd->type != PROPER_PRISM_DOUBLE) return proper__prism_eval(cx, e, out);
    out->i = 0;
    switch (nd->kind) {
    case PROPER__PM_N_DOUBLE:
        out->d = nd->num;
        if (nd->op != PROPER__PM_LIT_EXACT) *er = PROPER__PM_U * fabs(nd->num) + PROPER__PM_TINY;
        return PROPER_OK;
    case PROPER__PM_N_CONST:
        if ((rc = proper__prism_eval(cx, e, out)) != 0) return rc;
        *er = proper__prism_const_error(cx, nd->idx);
        return PROPER_OK;
    case PROPER__PM_N_FORMULA: return proper__prism_eval_err(cx, nd->a, out, er);
    case PROPER__PM_N_MFORMULA:
        sub = *cx;
        sub.pool = &cx->m->pool;
        sub.file = cx->m->file;
        return proper__prism_eval_err(&sub, nd->a, out, er);
    case PROPER__PM_N_NEG:
        if ((rc = proper__prism_eval_num(cx, nd->a, &x, er)) != 0) return rc;
        out->d = -x;
        return PROPER_OK;
    case PROPER__PM_N_ITE: {
        proper__prism_val c;
        if ((rc = proper__prism_eval(cx, nd->a, &c)) != 0) return rc;
        if ((rc = proper__prism_eval_num(cx, c.i ? nd->b : nd->c, &x, er)) != 0) return rc;
        out->d = x;
        return PROPER_OK;
    }
    case PROPER__PM_N_BIN:
        if (nd->op > PROPER__PM_OP_DIV) break; /* ^ */
        if ((rc = proper__prism_eval_num(cx, nd->a, &x, &ex)) != 0 || (rc = proper__prism_eval_num(cx, nd->b, &y, &ey)) != 0)
            return rc;
        out->d = nd->op == PROPER__PM_OP_ADD ? x + y : nd->op == PROPER__PM_OP_SUB ? x - y
               : nd->op == PROPER__PM_OP_MUL ? x * y : x / y;
        *er = proper__prism_op_error(nd->op, x, ex, y, ey, out->d);
        return PROPER_OK;
    case PROPER__PM_N_FUNC:
        if (nd->op != PROPER__PM_FN_MIN && nd->op != PROPER__PM_FN_MAX) break;
        if ((rc = proper__prism_eval_num(cx, nd->a, &x, &ex)) != 0 || (rc = proper__prism_eval_num(cx, nd->b, &y, &ey)) != 0)
            return rc;
        out->d = (nd->op == PROPER__PM_FN_MIN) == (x < y) ? x : y;
        *er = x == x && y == y ? fmax(ex, ey) : INFINITY; /* min and max move by at most the larger error */
        return PROPER_OK;
    default: break;
    }
    *er = INFINITY; /* pow, log */
    return proper__prism_eval(cx, e, out);
}

/* Whether every int and bool the build computes is exact: a comparison
 * with a double operand (one not decided exactly, PROPER__PM_N_XCMP) and
 * floor, ceil or round of a double, anywhere in the model, must not read
 * the state, and must come out the same for every value within its
 * operands' error bounds (a comparison: operands apart by more than their
 * bounds; floor, ceil, round: an exact operand). */
static int proper__prism_decisions_exact(const proper__prism_ectx *cx) {
    const proper_prism_model *m = cx->m;
    proper__prism_ectx sub = *cx;
    proper_error scratch;
    size_t i;
    sub.pool = &m->pool;
    sub.file = m->file;
    sub.vals = NULL;
    sub.err = &scratch;
    for (i = 0; i < m->pool.len; i++) {
        const proper__prism_node *nd = &m->pool.n[i];
        int cmp = nd->kind == PROPER__PM_N_BIN && nd->op >= PROPER__PM_OP_EQ && nd->op <= PROPER__PM_OP_GE &&
                  (m->pool.n[nd->a].type == PROPER_PRISM_DOUBLE || m->pool.n[nd->b].type == PROPER_PRISM_DOUBLE);
        int to_int = nd->kind == PROPER__PM_N_FUNC && nd->op >= PROPER__PM_FN_FLOOR && nd->op <= PROPER__PM_FN_ROUND &&
                     m->pool.n[nd->a].type == PROPER_PRISM_DOUBLE;
        double x, y = 0.0, ex, ey = 0.0;
        if (!cmp && !to_int) continue;
        if (nd->flags & PROPER__PM_F_STATE) return 0;
        if (proper__prism_eval_num(&sub, nd->a, &x, &ex) != 0 || (cmp && proper__prism_eval_num(&sub, nd->b, &y, &ey) != 0))
            return 0;
        if (ex == 0.0 && ey == 0.0) continue;
        if (!cmp || !(fabs(x - y) * (1.0 - 2.0 * PROPER__PM_U) > (ex + ey) * (1.0 + 4.0 * PROPER__PM_U))) return 0;
    }
    return 1;
}

/* Whether fl(a + b) and fl(a / b) (= q) are exact. */
static int proper__prism_add_exact(double a, double b) { return proper__prism_rounding_of(PROPER__PM_OP_ADD, a, b, a + b) == 0.0; }
static int proper__prism_div_exact(double a, double b, double q) {
    if (a == 0.0 || b == 1.0) return 1; /* the common row total 1 first */
    return proper__prism_safe_mag(a) && proper__prism_safe_mag(b) && proper__prism_safe_mag(q) && fma(-q, b, a) == 0.0;
}

/* Whether the embedded chain dtmc.h forms from CTMC d (proper_dtmc_embedded:
 * each row's rates summed in order, then divided by the sum) is exact. */
static int proper__prism_embedded_exact(const proper_dtmc *d) {
    uint32_t s;
    uint64_t k;
    for (s = 0; s < d->n_states; s++) {
        double e = 0.0;
        for (k = d->row[s]; k < d->row[s + 1]; k++) {
            if (!proper__prism_add_exact(e, d->prob[k])) return 0;
            e += d->prob[k];
        }
        for (k = d->row[s]; k < d->row[s + 1]; k++)
            if (!proper__prism_div_exact(d->prob[k], e, d->prob[k] / e)) return 0;
    }
    return 1;
}

/* Relative errors (against the exact value, |x~ - x| <= r |x|) through
 * the build's arithmetic; each rounds up by 1 + 4u. A value x~ within e
 * of the exact one: e / (|x~| - e). */
static double proper__prism_rel_of(double x, double e) {
    if (e == 0.0) return 0.0;
    return e < fabs(x) ? e / ((fabs(x) - e) * (1.0 - 2.0 * PROPER__PM_U)) : INFINITY;
}
/* a~ b~, rounded once: (1+a)(1+b)(1+u) - 1. */
static double proper__prism_rel_mul(double a, double b) {
    double r = a + b + a * b;
    return (r + PROPER__PM_U * (1.0 + r)) * (1.0 + 4.0 * PROPER__PM_U);
}
/* A sum of n >= 1 values >= 0, each within a, summed in any order (in
 * double or wider): (1+a)(1+u)^n - 1, with (1+u)^n - 1 <= n u / (1 - n u). */
static double proper__prism_rel_sum(double a, double n) {
    double g = n * PROPER__PM_U < 0.5 ? n * PROPER__PM_U / (1.0 - n * PROPER__PM_U) : INFINITY;
    return (a + g + a * g) * (1.0 + 4.0 * PROPER__PM_U);
}
/* a~ / b~, rounded once: (1+a)/(1-b)(1+u) - 1 = (a + b + u (1+a)) / (1-b). */
static double proper__prism_rel_div(double a, double b) {
    if (!(b < 1.0)) return INFINITY;
    return (a + b + PROPER__PM_U * (1.0 + a)) / (1.0 - b) * (1.0 + 4.0 * PROPER__PM_U);
}

PROPER_API void proper_prism_free(proper_prism_model *m) {
    if (!m) return;
    PROPER_FREE(m->file);
    proper_intern_free(&m->names);
    PROPER_FREE(m->pool.n);
    PROPER_FREE(m->consts);
    PROPER_FREE(m->formulas);
    PROPER_FREE(m->labels);
    PROPER_FREE(m->vars);
    PROPER_FREE(m->modules);
    PROPER_FREE(m->cmds);
    PROPER_FREE(m->updates);
    PROPER_FREE(m->assigns);
    PROPER_FREE(m->rewards);
    PROPER_FREE(m->items);
    PROPER_FREE(m->actions);
    PROPER_FREE(m->alphabet);
    PROPER_FREE(m->sym_var);
    PROPER_FREE(m->sym_const);
    PROPER_FREE(m->sym_formula);
    PROPER_FREE(m);
}

PROPER_API int proper_prism_parse(proper_prism_model **out, const char *text, size_t len, const char *file,
                                  proper_error *err) {
    proper_prism_model *m;
    proper__prism_mparser mp;
    proper__prism_lexer lx;
    proper_error local;
    int rc;
    if (!err) err = &local; /* the parser's functions report their code through err */
    proper_error_clear(err);
    m = (proper_prism_model *)proper_calloc(1, sizeof *m);
    if (!m || !(m->file = proper_strdup(file ? file : ""))) {
        PROPER_FREE(m);
        return proper_error_set(err, PROPER_ENOMEM, file, 0, 0, "out of memory");
    }
    m->init_expr = -1;
    proper__prism_lexer_init(&lx, text, len, m->file[0] ? m->file : NULL);
    memset(&mp, 0, sizeof mp);
    mp.m = m;
    mp.ps.lx = &lx;
    mp.ps.file = m->file[0] ? m->file : NULL;
    mp.ps.err = err;
    mp.ps.pool = &m->pool;
    mp.ps.names = &m->names;
    rc = proper__prism_parse_model_file(&mp);
    proper__prism_lexer_drain(&lx);
    if (lx.rc) { /* a lexing error comes first (what the parser made of the shortened input does not count) */
        *err = lx.err;
        rc = lx.rc;
    }
    proper__prism_lexer_free(&lx);
    if (rc != 0) goto fail;
    if ((rc = proper__prism_resolve_model(m, err)) != 0) goto fail;
    proper_prism_free(*out);
    *out = m;
    return PROPER_OK;
fail:
    proper_prism_free(m);
    if (!err->code) proper_error_set(err, rc ? rc : PROPER_EPARSE, file, 0, 0, "malformed model");
    return err->code;
}

PROPER_API int proper_prism_read(proper_prism_model **out, const char *path, proper_error *err) {
    char *text;
    size_t len;
    int rc;
    if ((rc = proper_read_file(path, &text, &len, err)) != 0) return rc;
    rc = proper_prism_parse(out, text, len, path, err);
    PROPER_FREE(text);
    return rc;
}

/* The declaration text of proper_prism_model_of_valuations: "dtmc module
 * valuations x : [lo..hi]; b : bool; endmodule" (ctmc for a CTMC). */
static int proper__prism_valuations_text(const proper_dtmc *d, const char *file, proper_strbuf *b, proper_error *err) {
    size_t v;
    uint32_t s;
    proper_strbuf_printf(b, "%s\nmodule valuations\n", d->kind == PROPER_DTMC_KIND_CTMC ? "ctmc" : "dtmc");
    for (v = 0; v < d->n_vars; v++) {
        const char *name = d->var_names[v];
        int32_t lo = INT32_MAX, hi = INT32_MIN;
        if (proper__prism_is_reserved(name, strlen(name)) || strcmp(name, "valuations") == 0)
            return proper_error_set(err, PROPER_EPARSE, file, 0, 0,
                                    "state variable '%s' has the name of a PRISM keyword (or of proper's module "
                                    "'valuations'): properties could not name it", name);
        if (d->var_is_bool && d->var_is_bool[v]) {
            proper_strbuf_printf(b, "  %s : bool;\n", name);
            continue;
        }
        for (s = 0; s < d->n_states; s++) {
            int32_t x = d->vals[(size_t)s * d->n_vars + v];
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        /* -2147483648 is a negated literal too large for an int: written as a difference */
        if (lo == INT32_MIN) proper_strbuf_printf(b, "  %s : [-2147483647-1..%ld];\n", name, (long)hi);
        else proper_strbuf_printf(b, "  %s : [%ld..%ld];\n", name, (long)lo, (long)hi);
    }
    proper_strbuf_puts(b, "endmodule\n");
    return b->failed ? proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory") : PROPER_OK;
}

PROPER_API int proper_prism_model_of_valuations(proper_prism_model **out, const proper_dtmc *d, const char *file,
                                                proper_error *err) {
    proper_strbuf b;
    int rc;
    if (!d->vals || !d->n_vars || !d->n_states)
        return proper_error_set(err, PROPER_ESTATE, file, 0, 0, "the model has no state variables");
    proper_strbuf_init(&b);
    if ((rc = proper__prism_valuations_text(d, file, &b, err)) == PROPER_OK)
        rc = proper_prism_parse(out, b.data, b.len, file, err);
    proper_strbuf_free(&b);
    return rc;
}

PROPER_API size_t proper_prism_const_count(const proper_prism_model *m) { return m->n_consts; }
PROPER_API const char *proper_prism_const_name(const proper_prism_model *m, size_t i) {
    return i < m->n_consts ? m->names.names[m->consts[i].sym] : NULL;
}
PROPER_API int proper_prism_const_type(const proper_prism_model *m, size_t i) {
    return i < m->n_consts ? m->consts[i].type : 0;
}
PROPER_API int proper_prism_const_has_value(const proper_prism_model *m, size_t i) {
    return i < m->n_consts && (m->consts[i].expr >= 0 || m->consts[i].has_given);
}
PROPER_API size_t proper_prism_var_count(const proper_prism_model *m) { return m->n_vars; }
PROPER_API const char *proper_prism_var_name(const proper_prism_model *m, size_t i) {
    return i < m->n_vars ? m->names.names[m->vars[i].sym] : NULL;
}

/* Check and store a given value for constant c. */
static int proper__prism_give_const(proper__prism_const_decl *c, const char *name, double value, proper_error *err) {
    if (c->expr >= 0)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "constant '%s' is defined in the model; it cannot be given",
                                name);
    if (c->type == PROPER_PRISM_INT) {
        if (!(value == floor(value)) || value < -2147483648.0 || value > 2147483647.0)
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "constant '%s' is an int; %.17g is not", name, value);
        c->given.i = (long long)value;
        c->given.d = value;
    } else if (c->type == PROPER_PRISM_BOOL) {
        if (value != 0 && value != 1)
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "constant '%s' is a bool; give true or false", name);
        c->given.i = value != 0;
    } else {
        if (value != value)
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "constant '%s' cannot be NaN", name);
        c->given.d = value;
    }
    c->has_given = 1;
    return PROPER_OK;
}

PROPER_API int proper_prism_set_const(proper_prism_model *m, const char *name, double value, proper_error *err) {
    int32_t sym = proper__prism_names_find(&m->names, name, strlen(name));
    if (sym < 0 || m->sym_const[sym] < 0)
        return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "the model has no constant '%s'", name);
    m->consts[m->sym_const[sym]].given_text[0] = '\0';
    return proper__prism_give_const(&m->consts[m->sym_const[sym]], name, value, err);
}

/* ---- State-space exploration --------------------------------------------------
 * States are packed into W 64-bit words: variable i takes bits[i] bits
 * holding value - lo, the first variable in the most significant bits of
 * word 0, and no variable straddles two words. Comparing the words in order
 * as unsigned numbers therefore compares the valuations lexicographically
 * in declaration order, which is the order PRISM numbers states in. */

typedef struct proper__prism_layout {
    size_t nv, W;
    unsigned bits_last;    /* bits used in the last word */
    unsigned direct_shift; /* one word: the key >> direct_shift is below 2^bits_last */
    int32_t *lo, *hi;
    unsigned *word, *shift;
    uint64_t *mask;
    unsigned char *is_bool;
} proper__prism_layout;

static void proper__prism_layout_free(proper__prism_layout *L) {
    PROPER_FREE(L->lo);
    PROPER_FREE(L->hi);
    PROPER_FREE(L->word);
    PROPER_FREE(L->shift);
    PROPER_FREE(L->mask);
    PROPER_FREE(L->is_bool);
    memset(L, 0, sizeof *L);
}

static unsigned proper__prism_bits_for(uint64_t span) { /* bits to hold 0..span */
    unsigned b = 0;
    while (b < 64 && (span >> b) != 0) b++;
    return b;
}

/* Ranges (constant expressions) into the layout; the initial values into init. */
static int proper__prism_layout_init(proper__prism_layout *L, const proper_prism_model *m, const proper__prism_ectx *cx,
                                  int32_t *init, proper_error *err) {
    size_t i, n = m->n_vars, used = 0;
    memset(L, 0, sizeof *L);
    L->nv = n;
    L->lo = (int32_t *)proper_calloc(n, sizeof *L->lo);
    L->hi = (int32_t *)proper_calloc(n, sizeof *L->hi);
    L->word = (unsigned *)proper_calloc(n, sizeof *L->word);
    L->shift = (unsigned *)proper_calloc(n, sizeof *L->shift);
    L->mask = (uint64_t *)proper_calloc(n, sizeof *L->mask);
    L->is_bool = (unsigned char *)proper_calloc(n, 1);
    if (!L->lo || !L->hi || !L->word || !L->shift || !L->mask || !L->is_bool)
        return proper_error_set(err, PROPER_ENOMEM, m->file, 0, 0, "out of memory");
    for (i = 0; i < n; i++) {
        const proper__prism_var_decl *v = &m->vars[i];
        proper__prism_val lo, hi, iv;
        unsigned bits;
        int rc;
        lo.i = 0;
        hi.i = 1;
        if (!v->is_bool && ((rc = proper__prism_eval(cx, v->lo, &lo)) != 0 || (rc = proper__prism_eval(cx, v->hi, &hi)) != 0))
            return rc;
        if (lo.i > hi.i)
            return proper_error_set(err, PROPER_ERANGE, m->file, v->line, v->col, "variable '%s' has an empty range [%lld..%lld]",
                                    m->names.names[v->sym], lo.i, hi.i);
        iv.i = lo.i;
        if (v->init >= 0 && (rc = proper__prism_eval(cx, v->init, &iv)) != 0) return rc;
        if (iv.i < lo.i || iv.i > hi.i)
            return proper_error_set(err, PROPER_ERANGE, m->file, v->line, v->col,
                                    "initial value %lld of '%s' is outside its range [%lld..%lld]", iv.i,
                                    m->names.names[v->sym], lo.i, hi.i);
        init[i] = (int32_t)iv.i;
        L->lo[i] = (int32_t)lo.i;
        L->hi[i] = (int32_t)hi.i;
        L->is_bool[i] = (unsigned char)v->is_bool;
        bits = proper__prism_bits_for((uint64_t)(hi.i - lo.i));
        if (used + bits > 64) {
            L->W++;
            used = 0;
        }
        L->word[i] = (unsigned)L->W;
        L->shift[i] = bits ? (unsigned)(64 - used - bits) : 0; /* one value: no bits, no shift */
        L->mask[i] = bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
        used += bits;
    }
    L->W++;
    L->bits_last = (unsigned)used;
    L->direct_shift = used ? (unsigned)(64 - used) : 0;
    return PROPER_OK;
}

static void proper__prism_pack(const proper__prism_layout *L, const int32_t *vals, uint64_t *key) {
    size_t i;
    for (i = 0; i < L->W; i++) key[i] = 0;
    for (i = 0; i < L->nv; i++)
        if (L->mask[i]) key[L->word[i]] |= (uint64_t)((int64_t)vals[i] - L->lo[i]) << L->shift[i];
}

static void proper__prism_unpack(const proper__prism_layout *L, const uint64_t *key, int32_t *vals) {
    size_t i;
    for (i = 0; i < L->nv; i++)
        vals[i] = (int32_t)((int64_t)L->lo[i] + (int64_t)((key[L->word[i]] >> L->shift[i]) & L->mask[i]));
}

static int proper__prism_key_cmp(const uint64_t *a, const uint64_t *b, size_t W) {
    size_t i;
    for (i = 0; i < W; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

static uint64_t proper__prism_key_hash(const uint64_t *k, size_t W) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    size_t i;
    for (i = 0; i < W; i++) {
        h ^= k[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
        h ^= h >> 31;
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 29;
    }
    return h;
}

/* Breadth-first exploration: the states found so far (packed keys, hash
 * table), the transitions of the states explored, and scratch space for the
 * outcomes (probability, successor values) of the choice being assembled. */
typedef struct proper__prism_explorer {
    const proper_prism_model *m;
    const proper_prism_build_opts *o;
    proper__prism_ectx cx;
    proper__prism_layout L;
    proper_error *err;
    /* states */
    uint64_t *keys;
    size_t n_states, cap_keys;
    size_t n_init;   /* the initial states are the first n_init explored */
    uint32_t *slots; /* state + 1, 0 = empty */
    size_t nslots;
    uint32_t *direct; /* keys of one word and few bits: state + 1 by key, 0 = none (else NULL: slots) */
    /* transitions of the explored states, in exploration order: state s's
     * are row[2s] .. row[2s+1] */
    uint64_t *row;
    size_t cap_row;
    uint32_t *batch; /* the level being explored, in key order */
    size_t cap_batch;
    uint32_t *dst;
    double *prob, *tw; /* tw: n_trew values per transition, probability-weighted rewards */
    size_t n_trans, cap_dst, cap_prob, cap_tw;
    size_t n_trew;   /* reward structures with transition rewards */
    int *trew_slot;  /* reward structure -> slot in tw, or -1 */
    /* commands grouped by action: unlabelled first, then per action */
    size_t *by_action, *action_start; /* action_start[a+1] .. for action a (-1 = unlabelled) */
    /* Unlabelled commands indexed by a variable value their guard pins
     * (a conjunct v = c): only those matching the state are evaluated. */
    size_t *free_cmds, n_free;        /* not pinned: evaluated in every state */
    size_t *pin_start, *pin_cmds;     /* slot pin_base[v] + value - lo[v]: pin_cmds[pin_start[slot] ..] */
    size_t *pin_base;                 /* per variable, or (size_t)-1 when no command pins it */
    size_t *cand;                     /* the candidates of the current state */
    unsigned char *pin_whole;         /* by command: its guard is its pin (a candidate is enabled) */
    int indexed;
    /* scratch */
    int32_t *cur;
    uint64_t *key;
    int32_t *ovals, *nvals;    /* outcomes: values (nv each) */
    double *oprob, *nprob;
    size_t n_out, cap_out, cap_nout, cap_oprob, cap_nprob;
    size_t *combo, *enabled, *group_start; /* synchronisation: enabled commands by module */
    double *choice_rew;                    /* n_trew rewards of the current choice */
    size_t n_choices;                      /* choices of the current state */
    size_t state_first;                    /* first transition of the current state */
    const unsigned char *module_on;        /* NULL, or: only these modules' commands (one
                                              independent group, counted on its own) */
    size_t cur_index;                      /* index of the state being explored */
    /* An interval model (m->has_intervals): prob, oprob and nprob hold the
     * lower ends of the probability intervals, thi, ohi and nhi the upper
     * ends; tw holds a transition's reward itself (one choice per state). */
    int interval;
    size_t choice_cmd[2]; /* a command of the current state's first two choices (for errors) */
    double *thi, *ohi, *nhi;
    size_t cap_thi, cap_ohi, cap_nhi;
    /* The model's own rounding (see proper__prism_rounding_bounds), while
     * `rounding`: the largest relative error of a probability or rate
     * evaluated, the most commands combined in one choice, the most
     * transitions of a state before merging, the largest relative errors
     * of a choice's transition reward and of a state reward. */
    int rounding;
    int exact_rows; /* so far every row's sums and divisions were exact */
    double factor_rel, choice_rew_rel, state_rew_rel;
    size_t n_factors, max_factors, max_outcomes;
    /* the merged, delimited intervals of the rows as built: state i's are
     * ivdst/ivlo/ivhi[ivrow[i] .. ivrow[i+1]), sorted by destination */
    uint32_t *ivdst;
    double *ivlo, *ivhi;
    uint64_t *ivrow;
    size_t n_iv, cap_ivdst, cap_ivlo, cap_ivhi;
} proper__prism_explorer;

/* Outcomes of one state (before merging equal successors) are capped like
 * states, so products of synchronised updates cannot exhaust memory. */
static int proper__prism_too_many(proper__prism_explorer *X, size_t n) {
    char st[PROPER_ERROR_MESSAGE_MAX / 2];
    if (n <= (size_t)X->o->max_states) return PROPER_OK;
    proper__prism_describe_state(X->m, X->cur, st, sizeof st);
    return proper_error_set(X->err, PROPER_ELIMIT, X->m->file, 0, 0,
                            "state %s has more than %lu outgoing transitions (the state limit; raise max_states)", st,
                            (unsigned long)X->o->max_states);
}

static void proper__prism_explorer_free(proper__prism_explorer *X) {
    proper__prism_layout_free(&X->L);
    PROPER_FREE(X->keys);
    PROPER_FREE(X->slots);
    PROPER_FREE(X->direct);
    PROPER_FREE(X->row);
    PROPER_FREE(X->batch);
    PROPER_FREE(X->dst);
    PROPER_FREE(X->prob);
    PROPER_FREE(X->tw);
    PROPER_FREE(X->trew_slot);
    PROPER_FREE(X->by_action);
    PROPER_FREE(X->action_start);
    PROPER_FREE(X->free_cmds);
    PROPER_FREE(X->pin_start);
    PROPER_FREE(X->pin_cmds);
    PROPER_FREE(X->pin_base);
    PROPER_FREE(X->cand);
    PROPER_FREE(X->pin_whole);
    PROPER_FREE(X->cur);
    PROPER_FREE(X->key);
    PROPER_FREE(X->ovals);
    PROPER_FREE(X->nvals);
    PROPER_FREE(X->oprob);
    PROPER_FREE(X->nprob);
    PROPER_FREE(X->combo);
    PROPER_FREE(X->enabled);
    PROPER_FREE(X->group_start);
    PROPER_FREE(X->choice_rew);
    PROPER_FREE(X->thi);
    PROPER_FREE(X->ohi);
    PROPER_FREE(X->nhi);
    PROPER_FREE(X->ivdst);
    PROPER_FREE(X->ivlo);
    PROPER_FREE(X->ivhi);
    PROPER_FREE(X->ivrow);
}

static int proper__prism_xoom(proper__prism_explorer *X) {
    return proper_error_set(X->err, PROPER_ENOMEM, X->m->file, 0, 0, "out of memory during state exploration");
}

/* States whose keys fit in this many bits are found by key in a table of
 * 2^bits entries (4 bytes each, 16 MB at most, pages touched only where
 * states are) rather than by hash: successors in key order then touch the
 * table in order. */
#ifndef PROPER_PRISM_DIRECT_BITS
#define PROPER_PRISM_DIRECT_BITS 22
#endif

static int proper__prism_state_limit(proper__prism_explorer *X) {
    double range = 1;
    size_t v;
    for (v = 0; v < X->L.nv; v++) range *= (double)X->L.hi[v] - (double)X->L.lo[v] + 1;
    return proper_error_set(X->err, PROPER_ELIMIT, X->m->file, 0, 0,
                            "more than %lu reachable states (the state limit; raise it with max_states / --max-states; "
                            "the variables' ranges allow at most %.4g)",
                            (unsigned long)X->o->max_states, range);
}

/* Index of the state with key X->key, adding it if new. */
static int proper__prism_lookup(proper__prism_explorer *X, uint32_t *index) {
    size_t W = X->L.W, h;
    if (X->direct) {
        uint32_t *at = &X->direct[X->key[0] >> X->L.direct_shift];
        if (*at) {
            *index = *at - 1;
            return PROPER_OK;
        }
        if (X->n_states >= X->o->max_states) return proper__prism_state_limit(X);
        if (proper_reserve(&X->keys, &X->cap_keys, X->n_states + 1, sizeof *X->keys)) return proper__prism_xoom(X);
        X->keys[X->n_states] = X->key[0];
        *at = (uint32_t)(X->n_states + 1);
        *index = (uint32_t)X->n_states++;
        return PROPER_OK;
    }
    if ((X->n_states + 1) * 2 > X->nslots) { /* grow the table to keep it at most half full */
        size_t ns = X->nslots ? X->nslots * 2 : 1024, i;
        uint32_t *slots = (uint32_t *)proper_calloc(ns, sizeof *slots);
        if (!slots) return proper__prism_xoom(X);
        for (i = 0; i < X->n_states; i++) {
            size_t g = (size_t)proper__prism_key_hash(X->keys + i * W, W) & (ns - 1);
            while (slots[g]) g = (g + 1) & (ns - 1);
            slots[g] = (uint32_t)(i + 1);
        }
        PROPER_FREE(X->slots);
        X->slots = slots;
        X->nslots = ns;
    }
    h = (size_t)proper__prism_key_hash(X->key, W) & (X->nslots - 1);
    while (X->slots[h]) {
        size_t s = X->slots[h] - 1;
        if (proper__prism_key_cmp(X->keys + s * W, X->key, W) == 0) {
            *index = (uint32_t)s;
            return PROPER_OK;
        }
        h = (h + 1) & (X->nslots - 1);
    }
    if (X->n_states >= X->o->max_states) return proper__prism_state_limit(X);
    if (proper_reserve(&X->keys, &X->cap_keys, (X->n_states + 1) * W, sizeof *X->keys)) return proper__prism_xoom(X);
    memcpy(X->keys + X->n_states * W, X->key, W * sizeof *X->key);
    X->slots[h] = (uint32_t)(X->n_states + 1);
    *index = (uint32_t)X->n_states++;
    return PROPER_OK;
}

/* Commands grouped: unlabelled, then by action (module order kept). */
static int proper__prism_group_commands(proper__prism_explorer *X) {
    const proper_prism_model *m = X->m;
    size_t na = m->n_actions, i, a;
    X->by_action = (size_t *)proper_calloc(m->n_cmds, sizeof *X->by_action);
    X->action_start = (size_t *)proper_calloc(na + 2, sizeof *X->action_start);
    if (!X->by_action || !X->action_start) return proper__prism_xoom(X);
    for (i = 0; i < m->n_cmds; i++) X->action_start[m->cmds[i].action + 2]++;
    for (a = 1; a < na + 2; a++) X->action_start[a] += X->action_start[a - 1];
    {
        size_t *fill = (size_t *)proper_calloc(na + 1, sizeof *fill);
        if (!fill) return proper__prism_xoom(X);
        for (i = 0; i < m->n_cmds; i++) {
            size_t g = (size_t)(m->cmds[i].action + 1);
            X->by_action[X->action_start[g] + fill[g]++] = i;
        }
        PROPER_FREE(fill);
    }
    return PROPER_OK;
}

/* The value of probability expression e (-1: probability 1); while the
 * rounding is tracked, *er gets its error bound (else 0). */
static int proper__prism_prob_value(proper__prism_explorer *X, int32_t e, double *p, double *er) {
    proper__prism_val v;
    int rc;
    *p = 1;
    *er = 0.0;
    if (e < 0) return PROPER_OK;
    if (X->rounding) return proper__prism_eval_num(&X->cx, e, p, er);
    if ((rc = proper__prism_eval(&X->cx, e, &v)) != 0) return rc;
    *p = proper__prism_as_double(X->m->pool.n[e].type, v);
    return PROPER_OK;
}

/* A value x~ within e of the exact one enters the stored chain (a
 * probability, a rate or a reward) with relative error e / (|x~| - e):
 * into *worst. The transition rewards of several choices add, which needs
 * them of one sign: negative sums count as unbounded (dtmc.h's
 * reachability rewards refuse them anyway). */
static void proper__prism_track(double x, double e, int signed_ok, double *worst) {
    double r = !signed_ok && x < 0 ? INFINITY : proper__prism_rel_of(x, e);
    if (!(r <= *worst)) *worst = r;
}

/* Evaluate the update probabilities of command c in the current state and
 * check them (>= 0, finite, summing to 1 within prob_tol). In an interval
 * model his (else NULL) gets the upper ends (a plain probability p is
 * [p, p]); the intervals must not be empty and must admit a distribution
 * (lower ends summing to at most 1, upper ends to at least 1, within
 * prob_tol: PRISM's check). */
static int proper__prism_command_probs(proper__prism_explorer *X, size_t c, double *probs, double *his) {
    const proper_prism_model *m = X->m;
    const proper__prism_command *cmd = &m->cmds[c];
    double sum = 0, sum_hi = 0, sum_err = 0;
    size_t j;
    int rc;
    proper__prism_node at;
    for (j = 0; j < cmd->n; j++) {
        const proper__prism_update *u = &m->updates[cmd->first + j];
        double p, h, er, er_hi;
        if ((rc = proper__prism_prob_value(X, u->prob, &p, &er)) != 0) return rc;
        h = p;
        if (u->prob_hi >= 0 && (rc = proper__prism_prob_value(X, u->prob_hi, &h, &er_hi)) != 0) return rc;
        if (!(p >= 0) || isinf(p))
            return proper__prism_eval_fail(&X->cx, &m->pool.n[u->prob], PROPER_EPROB,
                                           m->is_ctmc ? "rate %g is not finite and >= 0" : "probability %g is not in [0, 1]", p);
        if (!(h >= p) || isinf(h))
            return proper__prism_eval_fail(&X->cx, &m->pool.n[u->prob_hi], PROPER_EPROB,
                                           "probability interval [%g, %g] is %s", p, h,
                                           h == h && !isinf(h) ? "empty (its lower end is above its upper end)" : "not finite");
        probs[j] = p;
        if (his) his[j] = h;
        sum += p;
        sum_hi += h;
        sum_err += er;
        if (X->rounding) proper__prism_track(p, er, 1, &X->factor_rel); /* a 0 within er > 0: unbounded */
        if (!(X->factor_rel < INFINITY)) X->rounding = 0;
    }
    /* PRISM's exact model divides a DTMC's row by the number of choices,
     * the doubles by their probability sum: the same only when each
     * command's probabilities sum to exactly 1 */
    if (X->rounding && !m->is_ctmc &&
        fabs(sum - 1) * (1 - 2 * PROPER__PM_U) > (sum_err + (double)cmd->n * PROPER__PM_U * sum) * (1 + 4 * PROPER__PM_U))
        X->rounding = 0;
    memset(&at, 0, sizeof at);
    at.line = cmd->line;
    at.col = cmd->col;
    if (X->interval) { /* within the solvers' row tolerance too, when it is the smaller */
        double tol = fmin(X->o->prob_tol, PROPER_DTMC_ROW_SUM_TOL);
        if (sum > 1 + tol)
            return proper__prism_eval_fail(&X->cx, &at, PROPER_EPROB,
                                           "the lower ends of the command's probabilities sum to %.15g, above 1", sum);
        if (sum_hi < 1 - tol)
            return proper__prism_eval_fail(&X->cx, &at, PROPER_EPROB,
                                           "the upper ends of the command's probabilities sum to %.15g, below 1", sum_hi);
    } else if (!m->is_ctmc && (fabs(sum - 1) > X->o->prob_tol || !(sum > 0))) {
        return proper__prism_eval_fail(&X->cx, &at, PROPER_EPROB, "probabilities of the command sum to %.15g, not 1", sum);
    }
    return PROPER_OK;
}

/* Multiply the outcomes so far by command c's updates (assignments read
 * the current state X->cur). */
static int proper__prism_apply_command(proper__prism_explorer *X, size_t c) {
    const proper_prism_model *m = X->m;
    const proper__prism_command *cmd = &m->cmds[c];
    size_t nv = X->L.nv, o, j, k, n_new = 0;
    double probs_small[32], *probs = probs_small, *his = NULL;
    int rc = PROPER_OK;
    if (cmd->n > 16 && !(probs = (double *)proper_calloc(2 * cmd->n, sizeof *probs))) return proper__prism_xoom(X);
    if (X->interval) his = probs + (cmd->n > 16 ? cmd->n : 16);
    if ((rc = proper__prism_command_probs(X, c, probs, his)) != 0) goto done;
    X->n_factors++;
    for (o = 0; o < X->n_out; o++)
        for (j = 0; j < cmd->n; j++) {
            const proper__prism_update *u = &m->updates[cmd->first + j];
            int32_t *nv_row;
            if (probs[j] == 0 && (!his || his[j] == 0)) continue;
            if ((rc = proper__prism_too_many(X, n_new + 1)) != 0) goto done;
            if (proper_reserve(&X->nvals, &X->cap_nout, (n_new + 1) * (nv ? nv : 1), sizeof *X->nvals) ||
                proper_reserve(&X->nprob, &X->cap_nprob, n_new + 1, sizeof *X->nprob) ||
                (his && proper_reserve(&X->nhi, &X->cap_nhi, n_new + 1, sizeof *X->nhi))) {
                rc = proper__prism_xoom(X);
                goto done;
            }
            nv_row = X->nvals + n_new * nv;
            if (nv) memcpy(nv_row, X->ovals + o * nv, nv * sizeof *nv_row);
            /* synchronised intervals multiply end by end (all ends >= 0) */
            X->nprob[n_new] = X->oprob[o] * probs[j];
            if (his) X->nhi[n_new] = X->ohi[o] * his[j];
            for (k = 0; k < u->n; k++) {
                const proper__prism_assign *a = &m->assigns[u->first + k];
                proper__prism_val v;
                if ((rc = proper__prism_eval(&X->cx, a->expr, &v)) != 0) goto done;
                if (v.i < X->L.lo[a->var] || v.i > X->L.hi[a->var]) {
                    proper__prism_node at;
                    memset(&at, 0, sizeof at);
                    at.line = a->line;
                    at.col = a->col;
                    rc = proper__prism_eval_fail(&X->cx, &at, PROPER_ERANGE,
                                              "the command at line %d sets '%s' to %lld, outside its range [%ld..%ld],",
                                              cmd->line, m->names.names[m->vars[a->var].sym], v.i, (long)X->L.lo[a->var],
                                              (long)X->L.hi[a->var]);
                    goto done;
                }
                nv_row[a->var] = (int32_t)v.i;
            }
            n_new++;
        }
    { /* swap buffers */
        int32_t *tv = X->ovals;
        double *tp = X->oprob;
        size_t tc = X->cap_out;
        X->ovals = X->nvals;
        X->nvals = tv;
        X->cap_out = X->cap_nout;
        X->cap_nout = tc;
        tc = X->cap_oprob;
        X->oprob = X->nprob;
        X->nprob = tp;
        X->cap_oprob = X->cap_nprob;
        X->cap_nprob = tc;
        tp = X->ohi;
        tc = X->cap_ohi;
        X->ohi = X->nhi;
        X->nhi = tp;
        X->cap_ohi = X->cap_nhi;
        X->cap_nhi = tc;
    }
    X->n_out = n_new;
done:
    if (probs != probs_small) PROPER_FREE(probs);
    return rc;
}

static int proper__prism_start_choice(proper__prism_explorer *X) {
    size_t nv = X->L.nv;
    if (proper_reserve(&X->ovals, &X->cap_out, nv ? nv : 1, sizeof *X->ovals) ||
        proper_reserve(&X->oprob, &X->cap_oprob, 1, sizeof *X->oprob))
        return proper__prism_xoom(X);
    if (X->interval && proper_reserve(&X->ohi, &X->cap_ohi, 1, sizeof *X->ohi)) return proper__prism_xoom(X);
    if (nv) memcpy(X->ovals, X->cur, nv * sizeof *X->cur);
    X->n_factors = 0;
    X->oprob[0] = 1;
    if (X->interval) X->ohi[0] = 1;
    X->n_out = 1;
    return PROPER_OK;
}

/* Transition rewards of a choice of `action` (-1 unlabelled) in the current state. */
static int proper__prism_choice_rewards(proper__prism_explorer *X, int action) {
    const proper_prism_model *m = X->m;
    size_t r, i;
    int rc;
    for (r = 0; r < m->n_rewards; r++) {
        const proper__prism_reward_decl *rd = &m->rewards[r];
        double sum = 0, err = 0;
        if (X->trew_slot[r] < 0) continue;
        for (i = rd->first; i < rd->first + rd->n; i++) {
            const proper__prism_reward_item *it = &m->items[i];
            proper__prism_val g;
            double x, e;
            if (!it->is_trans || it->action != action) continue;
            if ((rc = proper__prism_eval(&X->cx, it->guard, &g)) != 0) return rc;
            if (!g.i) continue;
            if ((rc = proper__prism_eval_num(&X->cx, it->value, &x, &e)) != 0) return rc;
            if (!(x == x) || isinf(x))
                return proper__prism_eval_fail(&X->cx, &m->pool.n[it->value], PROPER_ERANGE, "reward is %g", x);
            err += e + proper__prism_rounding_of(PROPER__PM_OP_ADD, sum, x, sum + x);
            sum += x;
        }
        X->choice_rew[X->trew_slot[r]] = sum;
        if (X->rounding) proper__prism_track(sum, err, 0, &X->choice_rew_rel);
    }
    return PROPER_OK;
}

/* Append the outcomes of the current choice as transitions (probabilities
 * are normalised when the state is complete). */
static int proper__prism_finish_choice(proper__prism_explorer *X, int action) {
    size_t o, r, nt = X->n_trew;
    int rc;
    if (nt && (rc = proper__prism_choice_rewards(X, action)) != 0) return rc;
    if ((rc = proper__prism_too_many(X, X->n_trans - X->state_first + X->n_out)) != 0) return rc;
    if ((uint64_t)X->n_trans + X->n_out > X->o->max_transitions)
        return proper_error_set(X->err, PROPER_ELIMIT, X->m->file, 0, 0,
                                "more than %llu transitions (the transition limit; raise it with max_transitions / "
                                "--max-transitions)", (unsigned long long)X->o->max_transitions);
    X->n_choices++;
    if (X->n_factors > X->max_factors) X->max_factors = X->n_factors;
    for (o = 0; o < X->n_out; o++) {
        uint32_t dst;
        proper__prism_pack(&X->L, X->ovals + o * X->L.nv, X->key);
        /* a self-loop (common: an update that leaves the state as it is)
         * needs no hash lookup */
        if (proper__prism_key_cmp(X->key, X->keys + X->cur_index * X->L.W, X->L.W) == 0) dst = (uint32_t)X->cur_index;
        else if ((rc = proper__prism_lookup(X, &dst)) != 0) return rc;
        if (proper_reserve(&X->dst, &X->cap_dst, X->n_trans + 1, sizeof *X->dst) ||
            proper_reserve(&X->prob, &X->cap_prob, X->n_trans + 1, sizeof *X->prob) ||
            (nt && proper_reserve(&X->tw, &X->cap_tw, (X->n_trans + 1) * nt, sizeof *X->tw)) ||
            (X->interval && proper_reserve(&X->thi, &X->cap_thi, X->n_trans + 1, sizeof *X->thi)))
            return proper__prism_xoom(X);
        X->dst[X->n_trans] = dst;
        X->prob[X->n_trans] = X->oprob[o];
        if (X->interval) X->thi[X->n_trans] = X->ohi[o];
        for (r = 0; r < nt; r++)
            X->tw[X->n_trans * nt + r] = X->interval ? X->choice_rew[r] : X->oprob[o] * X->choice_rew[r];
        X->n_trans++;
    }
    return PROPER_OK;
}

/* Choices of action a: every combination of one enabled a-command per
 * module with a in its alphabet. */
/* Largest range (values) of a variable that commands are indexed by. */
#define PROPER__PM_PIN_RANGE(n_cmds) (4 * (double)(n_cmds) + 1024)

/* A conjunct "v = c" (or "c = v") of guard e with c constant: *var and
 * *value; 0 when there is none. *whole: the conjunct is the whole guard. */
static int proper__prism_pinned(proper__prism_explorer *X, int32_t e, int32_t *var, long long *value, int *whole) {
    const proper__prism_pool *pool = &X->m->pool;
    const proper__prism_node *nd = &pool->n[e];
    while (nd->kind == PROPER__PM_N_FORMULA) nd = &pool->n[nd->a];
    *whole = 1;
    if (nd->kind == PROPER__PM_N_BIN && nd->op == PROPER__PM_OP_AND) {
        int found = proper__prism_pinned(X, nd->a, var, value, whole) || proper__prism_pinned(X, nd->b, var, value, whole);
        *whole = 0;
        return found;
    }
    if (nd->kind == PROPER__PM_N_BIN && nd->op == PROPER__PM_OP_EQ) {
        const proper__prism_node *l = &pool->n[nd->a], *r = &pool->n[nd->b];
        int32_t c = -1;
        proper__prism_val v;
        proper_error tmp;
        proper__prism_ectx cx = X->cx;
        if (l->kind == PROPER__PM_N_VAR && !X->L.is_bool[l->idx] && !(r->flags & PROPER__PM_F_STATE)) {
            *var = l->idx;
            c = nd->b;
        } else if (r->kind == PROPER__PM_N_VAR && !X->L.is_bool[r->idx] && !(l->flags & PROPER__PM_F_STATE)) {
            *var = r->idx;
            c = nd->a;
        }
        if (c < 0 || pool->n[c].type != PROPER_PRISM_INT) return 0;
        cx.err = &tmp;
        if (proper__prism_eval(&cx, c, &v) != 0) return 0; /* left to the guard's own evaluation */
        *value = v.i;
        return 1;
    }
    return 0;
}

/* Index the unlabelled commands by the variable values their guards pin,
 * so that exploring a state costs its enabled commands, not all of them:
 * a model with one command per state (s=17 -> ...) builds in linear time.
 * A command whose pinned value lies outside the variable's range is never
 * enabled. */
static int proper__prism_index_commands(proper__prism_explorer *X) {
    const proper_prism_model *m = X->m;
    size_t lo = X->action_start[0], hi = X->action_start[1], nv = X->L.nv, i, slots = 0, n_pinned = 0;
    int32_t *pin_var = (int32_t *)proper_calloc(hi - lo + 1, sizeof *pin_var);
    long long *pin_val = (long long *)proper_calloc(hi - lo + 1, sizeof *pin_val);
    size_t *fill = NULL;
    int rc = PROPER_OK;
    X->pin_base = (size_t *)proper_calloc(nv + 1, sizeof *X->pin_base);
    X->free_cmds = (size_t *)proper_calloc(hi - lo + 1, sizeof *X->free_cmds);
    X->cand = (size_t *)proper_calloc(hi - lo + 1, sizeof *X->cand);
    X->pin_whole = (unsigned char *)proper_calloc(m->n_cmds + 1, 1);
    if (!pin_var || !pin_val || !X->pin_base || !X->free_cmds || !X->cand || !X->pin_whole) {
        rc = proper__prism_xoom(X);
        goto done;
    }
    for (i = 0; i < nv; i++) X->pin_base[i] = (size_t)-1;
    for (i = lo; i < hi; i++) {
        size_t c = X->by_action[i];
        int32_t v;
        long long val;
        int whole;
        pin_var[i - lo] = -1;
        if (!proper__prism_pinned(X, m->cmds[c].guard, &v, &val, &whole) ||
            (double)X->L.hi[v] - (double)X->L.lo[v] + 1 > PROPER__PM_PIN_RANGE(m->n_cmds)) {
            X->free_cmds[X->n_free++] = c;
            continue;
        }
        pin_var[i - lo] = v;
        pin_val[i - lo] = val;
        X->pin_whole[c] = (unsigned char)whole;
        n_pinned++;
        if (X->pin_base[v] == (size_t)-1) {
            X->pin_base[v] = slots;
            slots += (size_t)(X->L.hi[v] - X->L.lo[v] + 1);
        }
    }
    if (n_pinned == 0) goto done; /* nothing to index: the plain loop */
    X->pin_start = (size_t *)proper_calloc(slots + 1, sizeof *X->pin_start);
    X->pin_cmds = (size_t *)proper_calloc(n_pinned + 1, sizeof *X->pin_cmds);
    fill = (size_t *)proper_calloc(slots + 1, sizeof *fill);
    if (!X->pin_start || !X->pin_cmds || !fill) {
        rc = proper__prism_xoom(X);
        goto done;
    }
    for (i = 0; i < hi - lo; i++) /* count per slot (out-of-range values: never enabled) */
        if (pin_var[i] >= 0 && pin_val[i] >= X->L.lo[pin_var[i]] && pin_val[i] <= X->L.hi[pin_var[i]])
            X->pin_start[X->pin_base[pin_var[i]] + (size_t)(pin_val[i] - X->L.lo[pin_var[i]]) + 1]++;
    for (i = 0; i < slots; i++) X->pin_start[i + 1] += X->pin_start[i];
    for (i = 0; i < hi - lo; i++)
        if (pin_var[i] >= 0 && pin_val[i] >= X->L.lo[pin_var[i]] && pin_val[i] <= X->L.hi[pin_var[i]]) {
            size_t slot = X->pin_base[pin_var[i]] + (size_t)(pin_val[i] - X->L.lo[pin_var[i]]);
            X->pin_cmds[X->pin_start[slot] + fill[slot]++] = X->by_action[lo + i];
        }
    X->indexed = 1;
done:
    PROPER_FREE(pin_var);
    PROPER_FREE(pin_val);
    PROPER_FREE(fill);
    return rc;
}

static int proper__prism_size_cmp(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* The unlabelled commands that may be enabled in the current state, in
 * declaration order (the order of the plain loop, so that the rows sum in
 * the same order). */
static size_t proper__prism_candidates(proper__prism_explorer *X) {
    size_t v, n = 0, k, sources = X->n_free > 0;
    memcpy(X->cand, X->free_cmds, X->n_free * sizeof *X->cand);
    n = X->n_free;
    for (v = 0; v < X->L.nv; v++) {
        size_t slot, b, e;
        if (X->pin_base[v] == (size_t)-1) continue;
        slot = X->pin_base[v] + (size_t)(X->cur[v] - X->L.lo[v]);
        b = X->pin_start[slot];
        e = X->pin_start[slot + 1];
        for (k = b; k < e; k++) X->cand[n++] = X->pin_cmds[k];
        sources += e > b;
    }
    if (sources > 1) qsort(X->cand, n, sizeof *X->cand, proper__prism_size_cmp);
    return n;
}

static int proper__prism_sync_choices(proper__prism_explorer *X, size_t a) {
    const proper_prism_model *m = X->m;
    size_t lo = X->action_start[a + 1], hi = X->action_start[a + 2], i, n_en = 0, groups = 0, k;
    int last_module = -1, rc;
    proper__prism_val g;
    if (X->module_on && lo < hi && !X->module_on[m->cmds[X->by_action[lo]].module]) return PROPER_OK; /* another group's */
    for (i = lo; i < hi; i++) {
        size_t c = X->by_action[i];
        int mod = m->cmds[c].module;
        if (mod != last_module) {
            if (last_module >= 0 && X->group_start[groups - 1] == n_en) return PROPER_OK; /* blocked */
            X->group_start[groups++] = n_en;
            last_module = mod;
        }
        if ((rc = proper__prism_eval(&X->cx, m->cmds[c].guard, &g)) != 0) return rc;
        if (g.i) X->enabled[n_en++] = c;
    }
    if (groups == 0 || X->group_start[groups - 1] == n_en) return PROPER_OK; /* blocked */
    X->group_start[groups] = n_en;
    for (k = 0; k < groups; k++) X->combo[k] = 0;
    for (;;) { /* odometer over the modules' enabled commands */
        if ((rc = proper__prism_start_choice(X)) != 0) return rc;
        for (k = 0; k < groups; k++)
            if ((rc = proper__prism_apply_command(X, X->enabled[X->group_start[k] + X->combo[k]])) != 0) return rc;
        if (X->n_choices < 2) X->choice_cmd[X->n_choices] = X->enabled[X->group_start[0] + X->combo[0]];
        if ((rc = proper__prism_finish_choice(X, (int)a)) != 0) return rc;
        for (k = groups; k-- > 0;) {
            if (++X->combo[k] < X->group_start[k + 1] - X->group_start[k]) break;
            X->combo[k] = 0;
        }
        if (k == (size_t)-1) return PROPER_OK;
    }
}

/* Several choices in a state of an interval model: one successor for all
 * of them is a step to it ([1, 1], the mean of the outcomes' transition
 * rewards);
 * else an error (PRISM adds the choices' intervals, which seldom leaves a
 * distribution; choosing uniformly is a DTMC's rule, not an IDTMC's). */
static int proper__prism_interval_choices(proper__prism_explorer *X, size_t first) {
    size_t i, r, nt = X->n_trew, n = X->n_trans - first;
    const proper__prism_command *a = &X->m->cmds[X->choice_cmd[0]], *b = &X->m->cmds[X->choice_cmd[1]];
    char st[PROPER_ERROR_MESSAGE_MAX / 2];
    for (i = first + 1; i < X->n_trans && X->dst[i] == X->dst[first]; i++) {}
    if (i == X->n_trans) {
        for (r = 0; r < nt; r++) {
            double sum = 0;
            for (i = first; i < X->n_trans; i++) sum += X->tw[i * nt + r];
            X->tw[first * nt + r] = sum / (double)n;
        }
        X->prob[first] = X->thi[first] = 1;
        X->n_trans = first + 1;
        return PROPER_OK;
    }
    if (X->module_on) return PROPER_OK; /* counting one group's states: the whole model is checked when built */
    proper__prism_describe_state(X->m, X->cur, st, sizeof st);
    return proper_error_set(X->err, PROPER_EPROB, X->m->file, b->line, b->col,
                            "%lu choices in state %s of a model with probability intervals (this command's and line "
                            "%d's): it needs one, or choices that all lead to one state",
                            (unsigned long)X->n_choices, st, a->line);
}

static int proper__prism_explore_state(proper__prism_explorer *X, size_t s) {
    const proper_prism_model *m = X->m;
    size_t i, a, first = X->n_trans, n_cand;
    double total = 0;
    int rc;
    proper__prism_val g;
    proper__prism_unpack(&X->L, X->keys + s * X->L.W, X->cur);
    X->n_choices = 0;
    X->state_first = first;
    X->cur_index = s;
    n_cand = X->indexed ? proper__prism_candidates(X) : X->action_start[1] - X->action_start[0];
    for (i = 0; i < n_cand; i++) {
        size_t c = X->indexed ? X->cand[i] : X->by_action[X->action_start[0] + i];
        if (X->module_on && !X->module_on[m->cmds[c].module]) continue;
        if (X->indexed && X->pin_whole[c]) g.i = 1; /* a candidate by its value: enabled */
        else if ((rc = proper__prism_eval(&X->cx, m->cmds[c].guard, &g)) != 0) return rc;
        if (!g.i) continue;
        if (X->n_choices < 2) X->choice_cmd[X->n_choices] = c;
        if ((rc = proper__prism_start_choice(X)) != 0 || (rc = proper__prism_apply_command(X, c)) != 0 ||
            (rc = proper__prism_finish_choice(X, -1)) != 0)
            return rc;
    }
    for (a = 0; a < m->n_actions; a++)
        if ((rc = proper__prism_sync_choices(X, a)) != 0) return rc;
    if (X->n_choices == 0 && !X->o->fix_deadlocks && !X->module_on) { /* a group alone may stop */
        char st[PROPER_ERROR_MESSAGE_MAX / 2];
        proper__prism_describe_state(m, X->cur, st, sizeof st);
        return proper_error_set(X->err, PROPER_EPROB, m->file, 0, 0,
                                "deadlock: no command is enabled in state %s (fix deadlocks with a self-loop: --fixdl)", st);
    }
    if (X->interval && X->n_choices > 1 && (rc = proper__prism_interval_choices(X, first)) != 0) return rc;
    /* PRISM (DTMC): divide by the probability sum of all choices; a CTMC
     * adds the choices' rates; an interval model has one choice */
    if (X->n_trans - first > X->max_outcomes) X->max_outcomes = X->n_trans - first;
    for (i = first; i < X->n_trans; i++) {
        if (X->exact_rows && !proper__prism_add_exact(total, X->prob[i])) X->exact_rows = 0;
        total += X->prob[i];
    }
    if (!m->is_ctmc && !X->interval) {
        for (i = first; i < X->n_trans; i++) {
            double q = X->prob[i] / total;
            if (X->exact_rows && !proper__prism_div_exact(X->prob[i], total, q)) X->exact_rows = 0;
            X->prob[i] = q;
        }
        for (i = first * X->n_trew; i < X->n_trans * X->n_trew; i++) X->tw[i] /= total;
    }
    X->row[2 * s] = first;
    X->row[2 * s + 1] = X->n_trans;
    return PROPER_OK;
}

/* The model's own rounding, once the chain is built (relative errors
 * against the exact model, all monotone in their arguments, so the
 * largest factor error f, the most factors k of a choice and the most
 * transitions n of a state bound every state's): an outcome's probability
 * is a product of k factors, o = (1+f)^k (1+u)^k - 1; a DTMC divides each
 * by the state's total T (a sum of up to n outcomes) and adds those
 * reaching the same state: P = sum(div(o, sum(o))); a CTMC adds the rates,
 * R = sum(o), and dtmc.h forms P = R / E with E a sum of up to n rates.
 * A transition reward is the probability-weighted mean of its choices'
 * (sum(tw) / P, tw = o times the choice's reward, divided by T in a
 * DTMC); R's systems multiply it by P, and a CTMC's state reward is
 * divided by E. `exact`: every probability (a CTMC: of the embedded chain)
 * was computed exactly. -1 when some part is unbounded. */
static void proper__prism_rounding_bounds(const proper__prism_explorer *X, int exact, proper_prism_intervals *iv) {
    double *rel_prob = &iv->rel_prob, *rel_reward = &iv->rel_reward;
    double n = (double)(X->max_outcomes ? X->max_outcomes : 1), o = 0.0, t, p, e, tw, w, trew, srew;
    size_t k;
    *rel_prob = *rel_reward = -1.0;
    iv->exact = 0;
    if (!X->rounding || X->interval) return;
    iv->exact = X->factor_rel == 0.0 && X->exact_rows && X->state_rew_rel == 0.0 && X->n_trew == 0;
    for (k = 0; k < X->max_factors && !exact; k++) o = proper__prism_rel_mul(o, X->factor_rel);
    tw = proper__prism_rel_mul(o, X->choice_rew_rel);
    if (X->m->is_ctmc) {
        t = exact ? 0.0 : proper__prism_rel_sum(o, n); /* a stored rate */
        e = exact ? 0.0 : proper__prism_rel_sum(t, n);
        p = exact ? 0.0 : proper__prism_rel_div(t, e);
        w = proper__prism_rel_sum(tw, n);
        srew = proper__prism_rel_div(X->state_rew_rel, e);
    } else {
        t = exact ? 0.0 : proper__prism_rel_sum(o, n);
        p = exact ? 0.0 : proper__prism_rel_sum(proper__prism_rel_div(o, t), n);
        w = proper__prism_rel_sum(proper__prism_rel_div(tw, t), n);
        srew = X->state_rew_rel;
        t = p;
    }
    trew = proper__prism_rel_mul(p, proper__prism_rel_div(w, t));
    if (!(p < INFINITY)) return;
    *rel_prob = p;
    if (X->n_trew == 0) trew = 0.0;
    *rel_reward = fmax(p, fmax(srew, trew));
    if (!(*rel_reward < INFINITY)) *rel_reward = -1.0;
}

/* Most valuations 'init ... endinit' is evaluated on. */
#ifndef PROPER_PRISM_MAX_INIT_VALUATIONS
#define PROPER_PRISM_MAX_INIT_VALUATIONS 100000000.0
#endif

/* The initial states of 'init ... endinit': every valuation of the
 * variables within their ranges that satisfies the predicate, added in
 * lexicographic order (PRISM's). */
static int proper__prism_init_states(proper__prism_explorer *X) {
    const proper_prism_model *m = X->m;
    size_t nv = X->L.nv, i;
    double count = 1;
    uint32_t idx;
    int rc;
    for (i = 0; i < nv; i++) count *= (double)X->L.hi[i] - (double)X->L.lo[i] + 1;
    if (count > PROPER_PRISM_MAX_INIT_VALUATIONS)
        return proper_error_set(X->err, PROPER_ELIMIT, m->file, m->init_line, m->init_col,
                                "'init ... endinit' would be evaluated on %.0f valuations (at most %.0f)", count,
                                PROPER_PRISM_MAX_INIT_VALUATIONS);
    for (i = 0; i < nv; i++) X->cur[i] = X->L.lo[i];
    for (;;) {
        proper__prism_val v;
        if ((rc = proper__prism_eval(&X->cx, m->init_expr, &v)) != 0) return rc;
        if (v.i) {
            proper__prism_pack(&X->L, X->cur, X->key);
            if ((rc = proper__prism_lookup(X, &idx)) != 0) return rc;
        }
        for (i = nv; i-- > 0;) { /* the last variable fastest */
            if (X->cur[i] < X->L.hi[i]) {
                X->cur[i]++;
                break;
            }
            X->cur[i] = X->L.lo[i];
        }
        if (i == (size_t)-1) break;
    }
    if (X->n_states == 0)
        return proper_error_set(X->err, PROPER_EINVAL, m->file, m->init_line, m->init_col,
                                "'init ... endinit' holds in no state");
    return PROPER_OK;
}

static int proper__prism_sort_by_key(const proper__prism_explorer *X, uint32_t *idx, size_t n);

static int proper__prism_explore(proper__prism_explorer *X, const int32_t *init_vals) {
    const proper_prism_model *m = X->m;
    size_t next, r, nv = X->L.nv;
    uint32_t init;
    int rc;
    X->interval = m->has_intervals;
    X->trew_slot = (int *)proper_calloc(m->n_rewards, sizeof *X->trew_slot);
    X->cur = (int32_t *)proper_calloc(nv, sizeof *X->cur);
    X->key = (uint64_t *)proper_calloc(X->L.W, sizeof *X->key);
    X->combo = (size_t *)proper_calloc(m->n_modules + 1, sizeof *X->combo);
    X->group_start = (size_t *)proper_calloc(m->n_modules + 1, sizeof *X->group_start);
    X->enabled = (size_t *)proper_calloc(m->n_cmds, sizeof *X->enabled);
    if (!X->trew_slot || !X->cur || !X->key || !X->combo || !X->group_start || !X->enabled) return proper__prism_xoom(X);
    for (r = 0; r < m->n_rewards; r++) X->trew_slot[r] = m->rewards[r].has_trans ? (int)X->n_trew++ : -1;
    X->choice_rew = (double *)proper_calloc(X->n_trew, sizeof *X->choice_rew);
    if (!X->choice_rew) return proper__prism_xoom(X);
    if ((rc = proper__prism_group_commands(X)) != 0 || (rc = proper__prism_index_commands(X)) != 0) return rc;
    if (X->L.W == 1 && X->L.bits_last <= PROPER_PRISM_DIRECT_BITS &&
        !(X->direct = (uint32_t *)proper_calloc((size_t)1 << X->L.bits_last, sizeof *X->direct)))
        return proper__prism_xoom(X);
    X->cx.vals = X->cur;
    if (m->init_expr >= 0) {
        if ((rc = proper__prism_init_states(X)) != 0) return rc;
    } else {
        if (nv) memcpy(X->cur, init_vals, nv * sizeof *X->cur);
        proper__prism_pack(&X->L, X->cur, X->key);
        if ((rc = proper__prism_lookup(X, &init)) != 0) return rc;
    }
    X->n_init = X->n_states;
    /* Breadth-first, level by level (states are appended as found); each
     * level in the order of the state keys, so that the commands, whose
     * guards usually follow the same order (one per state: s=0, s=1, ...),
     * are read in order rather than at random (four times faster on 10^6
     * one-state commands reached at random). */
    for (next = 0; next < X->n_states;) {
        size_t end = X->n_states, i;
        if (proper_reserve(&X->row, &X->cap_row, 2 * end, sizeof *X->row) ||
            proper_reserve(&X->batch, &X->cap_batch, end - next, sizeof *X->batch))
            return proper__prism_xoom(X);
        for (i = next; i < end; i++) X->batch[i - next] = (uint32_t)i;
        if (proper__prism_sort_by_key(X, X->batch, end - next)) return proper__prism_xoom(X);
        for (i = 0; i < end - next; i++)
            if ((rc = proper__prism_explore_state(X, X->batch[i])) != 0) return rc;
        next = end;
    }
    return PROPER_OK;
}

/* ---- Numbering in PRISM's order and building the DTMC ---------------------- */

/* Sort state indices by key (bottom-up merge sort; stable). */
static int proper__prism_sort_states(const proper__prism_explorer *X, uint32_t *order) {
    size_t i;
    for (i = 0; i < X->n_states; i++) order[i] = (uint32_t)i;
    return proper__prism_sort_by_key(X, order, X->n_states);
}

/* Sort the state indices idx[0..n) by key (bottom-up merge sort; stable). */
static int proper__prism_sort_by_key(const proper__prism_explorer *X, uint32_t *idx, size_t n) {
    size_t W = X->L.W, width, i;
    uint32_t *tmp, *src = idx, *dst, *order = idx;
    int sorted = 1;
    for (i = 1; i < n && sorted; i++)
        if (proper__prism_key_cmp(X->keys + (size_t)idx[i - 1] * W, X->keys + (size_t)idx[i] * W, W) > 0) sorted = 0;
    if (sorted) return PROPER_OK; /* found in order already */
    tmp = (uint32_t *)proper_calloc(n, sizeof *tmp);
    if (!tmp) return PROPER_ENOMEM;
    dst = tmp;
    for (width = 1; width < n; width *= 2) {
        for (i = 0; i < n; i += 2 * width) {
            size_t l = i, mid = i + width < n ? i + width : n, hi = i + 2 * width < n ? i + 2 * width : n;
            size_t a = l, b = mid, k = l;
            while (a < mid && b < hi)
                dst[k++] = proper__prism_key_cmp(X->keys + (size_t)src[b] * W, X->keys + (size_t)src[a] * W, W) < 0 ? src[b++] : src[a++];
            while (a < mid) dst[k++] = src[a++];
            while (b < hi) dst[k++] = src[b++];
        }
        {
            uint32_t *t = src;
            src = dst;
            dst = t;
        }
    }
    if (src != order) memcpy(order, src, n * sizeof *order);
    PROPER_FREE(tmp);
    return PROPER_OK;
}

typedef struct proper__prism_entry {
    uint32_t dst, j; /* new destination; position in the explored row */
} proper__prism_entry;

static int proper__prism_entry_cmp(const void *a, const void *b) {
    const proper__prism_entry *x = (const proper__prism_entry *)a, *y = (const proper__prism_entry *)b;
    if (x->dst != y->dst) return x->dst < y->dst ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

/* Transition rewards found while building rows: (state, dst, value). */
typedef struct proper__prism_trew {
    uint32_t s, d;
    size_t slot;
    double v;
} proper__prism_trew;

/* Tighten the intervals [lo_j, hi_j] of one row (n entries) to the ends
 * that some distribution within them attains: lo_j >= 1 - (sum hi - hi_j)
 * and hi_j <= 1 - (sum lo - lo_j), from the sums before tightening (PRISM's
 * IntervalUtils.delimit). The set of distributions is unchanged. */
static void proper__prism_delimit(double *lo, double *hi, size_t n) {
    double sum_lo = 0, sum_hi = 0;
    size_t j;
    for (j = 0; j < n; j++) {
        sum_lo += lo[j];
        sum_hi += hi[j];
    }
    for (j = 0; j < n; j++) {
        double l = lo[j], h = hi[j];
        if (1 - sum_hi + h > l) lo[j] = fmin(1 - sum_hi + h, h);
        if (h > 1 - sum_lo + l) hi[j] = fmax(1 - sum_lo + l, l);
        if (lo[j] > hi[j]) lo[j] = hi[j]; /* sums off 1 by up to prob_tol: no distribution fits exactly */
    }
}

/* One merged row of an interval model (n entries: dst, lower ends in p,
 * upper ends in h, n_w reward values each in w): delimited, entries [0, 0]
 * dropped, the intervals recorded in X->iv*, and p replaced by one
 * distribution within them that gives every kept entry a positive
 * probability (lo + t (hi - lo), t the same for all: the DTMC's structure). */
static int proper__prism_interval_row(proper__prism_explorer *X, uint32_t *dst, double *p, double *h, double *w,
                                      size_t n_w, size_t *n) {
    double sum_lo = 0, sum_hi = 0, t, total = 0;
    size_t j, k = 0, r;
    proper__prism_delimit(p, h, *n);
    for (j = 0; j < *n; j++) {
        if (h[j] <= 0) continue;
        dst[k] = dst[j];
        p[k] = p[j];
        h[k] = h[j];
        for (r = 0; r < n_w; r++) w[k * n_w + r] = w[j * n_w + r];
        sum_lo += p[k];
        sum_hi += h[k];
        k++;
    }
    *n = k;
    if (proper_reserve(&X->ivdst, &X->cap_ivdst, X->n_iv + k + 1, sizeof *X->ivdst) ||
        proper_reserve(&X->ivlo, &X->cap_ivlo, X->n_iv + k + 1, sizeof *X->ivlo) ||
        proper_reserve(&X->ivhi, &X->cap_ivhi, X->n_iv + k + 1, sizeof *X->ivhi))
        return proper__prism_xoom(X);
    t = sum_hi > sum_lo ? (1 - sum_lo) / (sum_hi - sum_lo) : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    for (j = 0; j < k; j++) {
        X->ivdst[X->n_iv] = dst[j];
        X->ivlo[X->n_iv] = p[j];
        X->ivhi[X->n_iv++] = h[j];
        p[j] += t * (h[j] - p[j]);
        if (!(p[j] > 0)) p[j] = h[j]; /* t = 0 leaves a lower end 0 only when rounding kept its upper end */
        total += p[j];
    }
    for (j = 0; j < k; j++) p[j] /= total;
    return PROPER_OK;
}

/* Feed the rows, renumbered, to the dtmc builder; collect transition rewards. */
static int proper__prism_build_rows(proper__prism_explorer *X, const uint32_t *order, const uint32_t *rank,
                                 proper_dtmc_builder *b, proper__prism_trew **trews, size_t *n_trews) {
    size_t i, nt = X->n_trew, cap_tr = 0, cap_e = 0, cap_d = 0, cap_p = 0, cap_w = 0;
    proper__prism_entry *e = NULL;
    uint32_t *dst = NULL;
    double *p = NULL, *w = NULL, *h = NULL;
    size_t cap_h = 0;
    int rc = PROPER_OK;
    if (X->interval && !(X->ivrow = (uint64_t *)proper_calloc(X->n_states + 1, sizeof *X->ivrow)))
        return proper__prism_xoom(X);
    for (i = 0; i < X->n_states && rc == PROPER_OK; i++) {
        size_t s = order[i], lo = (size_t)X->row[2 * s], hi = (size_t)X->row[2 * s + 1], k = hi - lo, j, n = 0, r;
        if (proper_reserve(&e, &cap_e, k + 1, sizeof *e) || proper_reserve(&dst, &cap_d, k + 1, sizeof *dst) ||
            proper_reserve(&p, &cap_p, k + 1, sizeof *p) || proper_reserve(&w, &cap_w, (k + 1) * (nt ? nt : 1), sizeof *w) ||
            (X->interval && proper_reserve(&h, &cap_h, k + 1, sizeof *h))) {
            rc = proper__prism_xoom(X);
            break;
        }
        for (j = 0; j < k; j++) {
            e[j].dst = rank[X->dst[lo + j]];
            e[j].j = (uint32_t)j;
        }
        qsort(e, k, sizeof *e, proper__prism_entry_cmp);
        for (j = 0; j < k; j++) { /* merge equal destinations */
            size_t t = lo + e[j].j;
            if (n == 0 || dst[n - 1] != e[j].dst) {
                dst[n] = e[j].dst;
                p[n] = 0;
                if (h) h[n] = 0;
                for (r = 0; r < nt; r++) w[n * nt + r] = 0;
                n++;
            }
            if (X->exact_rows && !proper__prism_add_exact(p[n - 1], X->prob[t])) X->exact_rows = 0;
            p[n - 1] += X->prob[t]; /* an interval model: the ends add (PRISM's) */
            if (h) h[n - 1] += X->thi[t];
            for (r = 0; r < nt; r++) /* an interval model's one choice gives every outcome the same reward */
                w[(n - 1) * nt + r] = h ? X->tw[t * nt + r] : w[(n - 1) * nt + r] + X->tw[t * nt + r];
        }
        if (h) {
            if ((rc = proper__prism_interval_row(X, dst, p, h, w, nt, &n)) != 0) break;
            X->ivrow[i + 1] = X->n_iv;
        }
        for (j = 0; j < n && rc == PROPER_OK; j++)
            for (r = 0; r < nt; r++) {
                proper__prism_trew tr;
                if (w[j * nt + r] == 0) continue;
                tr.s = (uint32_t)i;
                tr.d = dst[j];
                tr.slot = r;
                tr.v = h ? w[j * nt + r] : w[j * nt + r] / p[j]; /* probability-weighted mean over the choices */
                if (PROPER_PUSH(*trews, *n_trews, cap_tr, tr)) {
                    rc = proper__prism_xoom(X);
                    break;
                }
            }
        if (rc == PROPER_OK) rc = proper_dtmc_builder_add_row(b, dst, p, n, X->err);
    }
    PROPER_FREE(e);
    PROPER_FREE(dst);
    PROPER_FREE(p);
    PROPER_FREE(w);
    PROPER_FREE(h);
    return rc;
}

/* Labels, valuations, rewards and parameters of the built model. */
static int proper__prism_decorate(proper__prism_explorer *X, const uint32_t *order, const proper__prism_trew *trews,
                               size_t n_trews, proper_dtmc *d) {
    const proper_prism_model *m = X->m;
    size_t n = X->n_states, nv = X->L.nv, i, r, s, n_params = 0;
    int32_t *vals = (int32_t *)proper_calloc(n * (nv ? nv : 1), sizeof *vals);
    const char **names = (const char **)proper_calloc(nv + m->n_consts + 1, sizeof *names);
    double *pvals = (double *)proper_calloc(m->n_consts + 1, sizeof *pvals);
    proper_bitset set;
    int rc = PROPER_OK;
    memset(&set, 0, sizeof set);
    if (!vals || !names || !pvals) {
        rc = proper__prism_xoom(X);
        goto done;
    }
    for (s = 0; s < n; s++) proper__prism_unpack(&X->L, X->keys + (size_t)order[s] * X->L.W, vals + s * nv);
    for (i = 0; i < nv; i++) names[i] = m->names.names[m->vars[i].sym];
    if (nv && (rc = proper_dtmc_set_valuations(d, names, X->L.is_bool, nv, vals, X->err)) != 0) goto done;
    for (i = 0; i < m->n_labels && rc == PROPER_OK; i++) {
        const proper__prism_label_decl *lb = &m->labels[i];
        proper_bitset_init(&set);
        if ((rc = proper_bitset_create(&set, n, NULL)) != 0) {
            rc = proper__prism_xoom(X);
            goto done;
        }
        for (s = 0; s < n && rc == PROPER_OK; s++) {
            proper__prism_val v;
            X->cx.vals = vals + s * nv;
            if ((rc = proper__prism_eval(&X->cx, lb->expr, &v)) == 0 && v.i) proper_bitset_set(&set, s);
        }
        if (rc == PROPER_OK) rc = proper_dtmc_add_label(d, m->names.names[lb->name], &set, NULL, X->err);
        proper_bitset_free(&set);
    }
    for (r = 0; r < m->n_rewards && rc == PROPER_OK; r++) {
        const proper__prism_reward_decl *rd = &m->rewards[r];
        size_t idx, k;
        rc = proper_dtmc_add_reward(d, rd->name >= 0 ? m->names.names[rd->name] : "", rd->has_state, rd->has_trans, &idx, X->err);
        for (s = 0; s < n && rc == PROPER_OK && rd->has_state; s++) {
            double sum = 0, err = 0;
            X->cx.vals = vals + s * nv;
            for (k = rd->first; k < rd->first + rd->n && rc == PROPER_OK; k++) {
                const proper__prism_reward_item *it = &m->items[k];
                proper__prism_val g;
                double x, e;
                if (it->is_trans) continue;
                if ((rc = proper__prism_eval(&X->cx, it->guard, &g)) != 0 || !g.i) continue;
                if ((rc = proper__prism_eval_num(&X->cx, it->value, &x, &e)) != 0) continue;
                if (!(x == x) || isinf(x))
                    rc = proper__prism_eval_fail(&X->cx, &m->pool.n[it->value], PROPER_ERANGE, "reward is %g", x);
                err += e + proper__prism_rounding_of(PROPER__PM_OP_ADD, sum, x, sum + x);
                sum += x;
            }
            if (X->rounding) proper__prism_track(sum, err, 0, &X->state_rew_rel);
            if (rc == PROPER_OK && sum != 0) rc = proper_dtmc_reward_add_state(d, idx, (uint32_t)s, sum, X->err);
        }
        for (k = 0; k < n_trews && rc == PROPER_OK; k++)
            if ((int)trews[k].slot == X->trew_slot[r])
                rc = proper_dtmc_reward_add_trans(d, idx, trews[k].s, trews[k].d, trews[k].v, X->err);
    }
    for (i = 0; i < m->n_consts && rc == PROPER_OK; i++)
        if (m->consts[i].expr < 0) { /* the parameters, with the values used */
            names[n_params] = m->names.names[m->consts[i].sym];
            pvals[n_params++] = proper__prism_as_double(m->consts[i].type, m->consts[i].given);
        }
    if (rc == PROPER_OK && n_params) rc = proper_dtmc_set_params(d, names, pvals, n_params, X->err);
done:
    X->cx.vals = X->cur;
    PROPER_FREE(vals);
    PROPER_FREE(names);
    PROPER_FREE(pvals);
    return rc;
}

/* Several initial states: a uniform initial distribution over them, whose
 * support is the "init" label the results are taken over (PRISM's
 * semantics: a range over the initial states, or forall). */
static int proper__prism_init_dist(proper__prism_explorer *X, const uint32_t *rank, proper_dtmc *d) {
    double *dist = (double *)proper_calloc(X->n_states, sizeof *dist);
    size_t i;
    int rc;
    if (!dist) return proper__prism_xoom(X);
    for (i = 0; i < X->n_init; i++) dist[rank[i]] = 1.0 / (double)X->n_init;
    rc = proper_dtmc_set_init_dist(d, dist, X->err);
    PROPER_FREE(dist);
    return rc;
}

/* ---- Refusing a state space that is too large, before exploring it -------- */

static size_t proper__prism_uf_find(size_t *parent, size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

static void proper__prism_uf_union(size_t *parent, size_t a, size_t b) {
    a = proper__prism_uf_find(parent, a);
    b = proper__prism_uf_find(parent, b);
    if (a != b) parent[a < b ? b : a] = a < b ? a : b;
}

/* Join module `mi` with the owner of every variable expression e reads
 * (through formulas; stamp marks the nodes seen for this module). 1 when e
 * refers to something that is not a variable or constant (a label): then
 * no grouping is attempted. */
static int proper__prism_join_reads(const proper_prism_model *m, int32_t e, size_t mi, size_t *parent, size_t *stamp,
                                    int32_t *stack) {
    size_t top = 0;
    if (e < 0) return 0;
    stack[top++] = e;
    while (top) {
        int32_t k = stack[--top];
        const proper__prism_node *nd;
        if (k < 0 || (size_t)k >= m->pool.len || stamp[k] == mi + 1) continue;
        stamp[k] = mi + 1;
        nd = &m->pool.n[k];
        if (nd->kind == PROPER__PM_N_VAR) {
            if (nd->idx >= 0 && (size_t)nd->idx < m->n_vars && m->vars[nd->idx].module >= 0)
                proper__prism_uf_union(parent, mi, (size_t)m->vars[nd->idx].module);
            continue;
        }
        if (nd->kind == PROPER__PM_N_NAME || nd->kind == PROPER__PM_N_LABEL || nd->kind == PROPER__PM_N_PLABEL ||
            nd->kind == PROPER__PM_N_MFORMULA || nd->kind == PROPER__PM_N_PCONST)
            return 1;
        /* each node is pushed at most once per module: the stack holds at
         * most 3 entries per node */
        if (nd->a >= 0) stack[top++] = nd->a;
        if (nd->b >= 0) stack[top++] = nd->b;
        if (nd->c >= 0) stack[top++] = nd->c;
    }
    return 0;
}

/* Modules that neither read each other's variables nor share an action
 * move independently: the reachable states are exactly the product of each
 * group's own reachable states (every combination is reached by moving one
 * group after another, and PRISM's uniform choice gives each move a
 * positive probability; a state is reachable only through its groups' own
 * paths). When the variables' ranges allow more than max_states states,
 * each group is explored on its own first (other variables at their
 * initial values), and a product above the limit is refused at once, in
 * the time the groups take, instead of after exploring max_states states
 * (40 two-state modules: 52 s and 1.7 GB before). */
static int proper__prism_refuse_early(const proper__prism_explorer *X, const int32_t *init) {
    const proper_prism_model *m = X->m;
    double range = 1.0, product = 1.0;
    size_t *parent = NULL, *stamp = NULL, *group_of = NULL, i, a, g, n_groups = 0, nm = m->n_modules;
    int32_t *stack = NULL;
    unsigned char *on = NULL;
    double *sizes = NULL;
    int rc = PROPER_OK, opaque = 0;
    for (i = 0; i < X->L.nv; i++) range *= (double)X->L.hi[i] - (double)X->L.lo[i] + 1.0;
    if (range <= (double)X->o->max_states || nm < 2) return PROPER_OK;
    parent = (size_t *)proper_calloc(nm, sizeof *parent);
    group_of = (size_t *)proper_calloc(nm, sizeof *group_of);
    stamp = (size_t *)proper_calloc(m->pool.len + 1, sizeof *stamp);
    stack = (int32_t *)proper_calloc(3 * m->pool.len + 1, sizeof *stack);
    on = (unsigned char *)proper_calloc(nm, 1);
    sizes = (double *)proper_calloc(nm, sizeof *sizes);
    if (!parent || !group_of || !stamp || !stack || !on || !sizes) {
        rc = proper__prism_xoom((proper__prism_explorer *)X);
        goto done;
    }
    for (i = 0; i < nm; i++) parent[i] = i;
    for (i = 0; i < m->n_cmds && !opaque; i++) {
        const proper__prism_command *c = &m->cmds[i];
        size_t mi = (size_t)c->module, u, k;
        if (c->module < 0 || mi >= nm) { opaque = 1; break; }
        opaque |= proper__prism_join_reads(m, c->guard, mi, parent, stamp, stack);
        for (u = c->first; u < c->first + c->n && !opaque; u++) {
            const proper__prism_update *up = &m->updates[u];
            opaque |= proper__prism_join_reads(m, up->prob, mi, parent, stamp, stack);
            opaque |= proper__prism_join_reads(m, up->prob_hi, mi, parent, stamp, stack);
            for (k = up->first; k < up->first + up->n && !opaque; k++) {
                const proper__prism_assign *as = &m->assigns[k];
                if (as->var < 0 || (size_t)as->var >= m->n_vars || m->vars[as->var].module != c->module) opaque = 1;
                else opaque |= proper__prism_join_reads(m, as->expr, mi, parent, stamp, stack);
            }
        }
    }
    for (a = 0; a < m->n_actions && !opaque; a++) { /* modules sharing an action synchronise */
        size_t first = nm;
        for (i = 0; i < nm; i++)
            if (m->alphabet && m->alphabet[i * m->n_actions + a]) {
                if (first == nm) first = i;
                else proper__prism_uf_union(parent, first, i);
            }
    }
    if (opaque) goto done;
    for (i = 0; i < nm; i++)
        if (proper__prism_uf_find(parent, i) == i) group_of[i] = n_groups++;
    if (n_groups < 2) goto done;
    for (g = 0; g < n_groups && rc == PROPER_OK; g++) {
        proper__prism_explorer Y;
        int32_t *init_copy = (int32_t *)proper_calloc(m->n_vars + 1, sizeof *init_copy);
        if (!init_copy) { rc = proper__prism_xoom((proper__prism_explorer *)X); break; }
        for (i = 0; i < nm; i++) on[i] = group_of[proper__prism_uf_find(parent, i)] == g;
        memset(&Y, 0, sizeof Y);
        Y.m = m;
        Y.o = X->o;
        Y.err = X->err;
        Y.cx = X->cx;
        Y.module_on = on;
        if ((rc = proper__prism_layout_init(&Y.L, m, &Y.cx, init_copy, X->err)) == PROPER_OK &&
            (rc = proper__prism_explore(&Y, init)) == PROPER_OK) {
            sizes[g] = (double)Y.n_states;
            product *= (double)Y.n_states;
        }
        proper__prism_explorer_free(&Y);
        PROPER_FREE(init_copy);
    }
    if (rc == PROPER_OK && product > (double)X->o->max_states) {
        char list[160];
        size_t len = 0;
        for (g = 0; g < n_groups && len + 24 < sizeof list; g++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%.0f", g ? " x " : "", sizes[g]);
        if (g < n_groups) snprintf(list + len, sizeof list - len, " x ...");
        rc = proper_error_set(X->err, PROPER_ELIMIT, m->file, 0, 0,
                              "more than %lu reachable states (the state limit; raise it with max_states / --max-states): "
                              "the model has %.17g, the product of its %lu independent groups of modules (%s states)",
                              (unsigned long)X->o->max_states, product, (unsigned long)n_groups, list);
    }
done:
    PROPER_FREE(parent);
    PROPER_FREE(group_of);
    PROPER_FREE(stamp);
    PROPER_FREE(stack);
    PROPER_FREE(on);
    PROPER_FREE(sizes);
    return rc;
}

PROPER_API proper_prism_build_opts proper_prism_build_opts_default(void) {
    proper_prism_build_opts o;
    o.max_states = PROPER_PRISM_MAX_STATES;
    o.max_transitions = PROPER_PRISM_MAX_TRANSITIONS;
    o.fix_deadlocks = 0;
    o.prob_tol = PROPER_PRISM_PROB_TOL;
    return o;
}

/* The intervals of the built DTMC d, aligned with d->col, from the rows as
 * fed to the builder (X->iv*): a transition the builder added is a fixed
 * deadlock's self-loop, [1, 1]. */
static int proper__prism_align_intervals(const proper__prism_explorer *X, const proper_dtmc *d,
                                         proper_prism_intervals *iv) {
    uint32_t s;
    uint64_t e;
    iv->lo = (double *)proper_calloc((size_t)d->n_trans + 1, sizeof *iv->lo);
    iv->hi = (double *)proper_calloc((size_t)d->n_trans + 1, sizeof *iv->hi);
    if (!iv->lo || !iv->hi) return proper__prism_xoom((proper__prism_explorer *)X);
    iv->n = d->n_trans;
    for (s = 0; s < d->n_states; s++)
        for (e = d->row[s]; e < d->row[s + 1]; e++) {
            uint64_t a = X->ivrow[s], b = X->ivrow[s + 1];
            while (a < b) { /* binary search: the row is sorted by destination */
                uint64_t mid = a + (b - a) / 2;
                if (X->ivdst[mid] < d->col[e]) a = mid + 1;
                else b = mid;
            }
            if (a < X->ivrow[s + 1] && X->ivdst[a] == d->col[e]) {
                iv->lo[e] = X->ivlo[a];
                iv->hi[e] = X->ivhi[a];
            } else {
                iv->lo[e] = iv->hi[e] = 1;
            }
        }
    return PROPER_OK;
}

PROPER_API void proper_prism_intervals_init(proper_prism_intervals *iv) {
    memset(iv, 0, sizeof *iv);
    iv->rel_prob = iv->rel_reward = -1.0;
}

PROPER_API void proper_prism_intervals_free(proper_prism_intervals *iv) {
    PROPER_FREE(iv->lo);
    PROPER_FREE(iv->hi);
    proper_prism_intervals_init(iv);
}

PROPER_API int proper_prism_has_intervals(const proper_prism_model *m) { return m->has_intervals; }

static int proper__prism_build(const proper_prism_model *m, const proper_prism_build_opts *opts, proper_dtmc *out,
                               proper_prism_intervals *iv_out, proper_error *err);

PROPER_API int proper_prism_build(const proper_prism_model *m, const proper_prism_build_opts *opts, proper_dtmc *out,
                                  proper_error *err) {
    if (m->has_intervals)
        return proper_error_set(err, PROPER_EUNSUPPORTED, m->file, m->interval_line, m->interval_col,
                                "the model has probability intervals [lo,hi] (an interval DTMC): build it with its "
                                "intervals (proper_prism_build_intervals)");
    return proper__prism_build(m, opts, out, NULL, err);
}

PROPER_API int proper_prism_build_intervals(const proper_prism_model *m, const proper_prism_build_opts *opts,
                                            proper_dtmc *out, proper_prism_intervals *iv, proper_error *err) {
    return proper__prism_build(m, opts, out, iv, err);
}

static int proper__prism_xcmp_open(const proper_prism_model *m, struct proper__prism_xctx **out, proper_error *err);
static void proper__prism_xcmp_close(struct proper__prism_xctx *xc);

static int proper__prism_build(const proper_prism_model *m, const proper_prism_build_opts *opts, proper_dtmc *out,
                               proper_prism_intervals *iv_out, proper_error *err) {
    proper__prism_explorer X;
    proper_prism_intervals iv;
    proper_prism_build_opts defaults;
    proper__prism_val *cv = NULL;
    double *cerr = NULL;
    int32_t *init = NULL;
    uint32_t *order = NULL, *rank = NULL;
    proper__prism_trew *trews = NULL;
    size_t n_trews = 0, i;
    proper_dtmc_builder b;
    proper_dtmc d;
    int rc, have_builder = 0;
    proper_dtmc_init(&d);
    proper_prism_intervals_init(&iv);
    memset(&X, 0, sizeof X);
    if (!opts) {
        defaults = proper_prism_build_opts_default();
        opts = &defaults;
    }
    X.m = m;
    X.o = opts;
    X.err = err;
    if ((rc = proper__prism_model_consts(m, &cv, err)) != 0) goto done;
    X.cx.m = m;
    X.cx.pool = &m->pool;
    X.cx.file = m->file;
    X.cx.cv = cv;
    X.cx.err = err;
    if (m->exact_cmps && (rc = proper__prism_xcmp_open(m, &X.cx.xc, err)) != 0) goto done;
    init = (int32_t *)proper_calloc(m->n_vars, sizeof *init);
    cerr = (double *)proper_calloc(m->n_consts + 1, sizeof *cerr);
    if (!init || !cerr) {
        rc = proper__prism_xoom(&X);
        goto done;
    }
    for (i = 0; i < m->n_consts; i++) cerr[i] = NAN;
    X.cx.cerr = cerr;
    X.rounding = X.exact_rows = !m->has_intervals && proper__prism_decisions_exact(&X.cx);
    if ((rc = proper__prism_layout_init(&X.L, m, &X.cx, init, err)) != 0) goto done;
    if (m->init_expr < 0 && (rc = proper__prism_refuse_early(&X, init)) != 0) goto done;
    if ((rc = proper__prism_explore(&X, init)) != 0) goto done;
    order = (uint32_t *)proper_calloc(X.n_states, sizeof *order);
    rank = (uint32_t *)proper_calloc(X.n_states, sizeof *rank);
    if (!order || !rank || proper__prism_sort_states(&X, order)) {
        rc = proper__prism_xoom(&X);
        goto done;
    }
    for (i = 0; i < X.n_states; i++) rank[order[i]] = (uint32_t)i;
    proper_dtmc_builder_init(&b);
    have_builder = 1;
    b.fix_deadlocks = opts->fix_deadlocks;
    b.rates = m->is_ctmc;
    b.init = rank[0];
    if ((rc = proper_dtmc_builder_reserve(&b, X.n_states, X.n_trans, err)) != 0) goto done;
    if ((rc = proper__prism_build_rows(&X, order, rank, &b, &trews, &n_trews)) != 0) goto done;
    PROPER_FREE(X.dst); /* the explored rows are in the builder now: lower the peak */
    PROPER_FREE(X.prob);
    PROPER_FREE(X.tw);
    PROPER_FREE(X.slots);
    X.dst = NULL;
    X.prob = X.tw = NULL;
    X.slots = NULL;
    have_builder = 0;
    if ((rc = proper_dtmc_builder_finish(&b, (uint32_t)X.n_states, &d, err)) != 0) goto done;
    if (X.n_init > 1 && (rc = proper__prism_init_dist(&X, rank, &d)) != 0) goto done;
    if ((rc = proper__prism_decorate(&X, order, trews, n_trews, &d)) != 0) goto done;
    if (X.interval && (rc = proper__prism_align_intervals(&X, &d, &iv)) != 0) goto done;
    proper__prism_rounding_bounds(&X, X.factor_rel == 0.0 && X.exact_rows && (!m->is_ctmc || proper__prism_embedded_exact(&d)),
                                  &iv);
    proper_dtmc_free(out);
    *out = d;
    proper_dtmc_init(&d);
    if (iv_out) {
        proper_prism_intervals_free(iv_out);
        *iv_out = iv;
        proper_prism_intervals_init(&iv);
    }
done:
    proper_prism_intervals_free(&iv);
    if (have_builder) proper_dtmc_builder_free(&b);
    proper_dtmc_free(&d);
    proper__prism_xcmp_close(X.cx.xc);
    proper__prism_explorer_free(&X);
    PROPER_FREE(cv);
    PROPER_FREE(cerr);
    PROPER_FREE(init);
    PROPER_FREE(order);
    PROPER_FREE(rank);
    PROPER_FREE(trews);
    return rc;
}

/* ---- Properties: parser ---------------------------------------------------------*/

PROPER_API void proper_prism_props_free(proper_prism_props *p) {
    size_t i;
    if (!p) return;
    for (i = 0; i < p->n_props; i++) {
        PROPER_FREE(p->props[i].text);
        PROPER_FREE(p->props[i].name);
        PROPER_FREE(p->props[i].comment);
    }
    PROPER_FREE(p->props);
    PROPER_FREE(p->file);
    proper_intern_free(&p->names);
    PROPER_FREE(p->pool.n);
    PROPER_FREE(p->consts);
    PROPER_FREE(p->formulas);
    PROPER_FREE(p->labels);
    PROPER_FREE(p->sym_const);
    PROPER_FREE(p->sym_formula);
    PROPER_FREE(p->sym_label);
    PROPER_FREE(p);
}

/* The property's text from its tokens [first, last]: blanks and comments
 * between tokens become one space. */
static char *proper__prism_prop_text(const proper__prism_tok *t, size_t first, size_t last) {
    size_t i, n = 0, k = 0;
    char *s;
    for (i = first; i <= last; i++) n += t[i].len + 3;
    if (!(s = (char *)PROPER_MALLOC(n + 1))) return NULL;
    for (i = first; i <= last; i++) {
        int quoted = t[i].kind == PROPER__PM_TK_STRING;
        const char *end = t[i].p + t[i].len + (quoted ? 1 : 0);
        if (quoted) s[k++] = '"';
        memcpy(s + k, t[i].p, t[i].len);
        k += t[i].len;
        if (quoted) s[k++] = '"';
        if (i < last && t[i + 1].p - (t[i + 1].kind == PROPER__PM_TK_STRING ? 1 : 0) > end) s[k++] = ' ';
    }
    s[k] = '\0';
    return s;
}

/* A copy of the blanks and comments before token t. */
static char *proper__prism_gap_text(const proper__prism_tok *t) {
    const char *end = t->p - (t->kind == PROPER__PM_TK_STRING ? 1 : 0);
    size_t n = end > t->gap ? (size_t)(end - t->gap) : 0;
    char *s = (char *)PROPER_MALLOC(n + 1);
    if (!s) return NULL;
    memcpy(s, t->gap, n);
    s[n] = '\0';
    return s;
}

/* One property: ["name":] expression. */
static int proper__prism_parse_property(proper__prism_parser *ps, proper_prism_props *p) {
    proper__prism_prop pr;
    size_t first;
    const proper__prism_tok *t = proper__prism_peek(ps, 0);
    int rc = PROPER_EPARSE;
    memset(&pr, 0, sizeof pr);
    if (!(pr.comment = proper__prism_gap_text(t))) return proper__prism_oom(ps);
    if (t->kind == PROPER__PM_TK_STRING && proper__prism_peek(ps, 1)->kind == PROPER__PM_TK_COLON) {
        if (!(pr.name = (char *)PROPER_MALLOC(t->len + 1))) goto oom;
        memcpy(pr.name, t->p, t->len);
        pr.name[t->len] = '\0';
        ps->i += 2;
        t = proper__prism_peek(ps, 0);
    }
    first = ps->i;
    pr.line = t->line;
    pr.col = t->col;
    if ((pr.expr = proper__prism_parse_expr(ps)) < 0) goto fail;
    if (!(pr.text = proper__prism_prop_text(ps->t, first, ps->i - 1))) goto oom;
    if (PROPER_PUSH(p->props, p->n_props, p->cap_props, pr)) goto oom;
    return PROPER_OK;
oom:
    rc = proper__prism_oom(ps);
fail:
    PROPER_FREE(pr.name);
    PROPER_FREE(pr.text);
    PROPER_FREE(pr.comment);
    return rc;
}

static int proper__prism_parse_props_file(proper__prism_parser *ps, proper_prism_props *p) {
    for (;;) {
        const proper__prism_tok *t = proper__prism_peek(ps, 0);
        int rc;
        if (t->kind == PROPER__PM_TK_EOF) return PROPER_OK;
        if (t->kind == PROPER__PM_TK_SEMI) {
            ps->i++;
            continue;
        }
        if (proper__prism_tok_is(t, "const"))
            rc = proper__prism_parse_const(ps, &p->consts, &p->n_consts, &p->cap_consts);
        else if (proper__prism_tok_is(t, "formula"))
            rc = proper__prism_parse_formula(ps, &p->formulas, &p->n_formulas, &p->cap_formulas);
        else if (proper__prism_tok_is(t, "label"))
            rc = proper__prism_parse_label(ps, &p->labels, &p->n_labels, &p->cap_labels);
        else
            rc = proper__prism_parse_property(ps, p);
        if (rc) return rc;
    }
}

/* ---- Properties: resolution ------------------------------------------------------*/

static int proper__prism_props_declare(proper__prism_resolver *r, proper_prism_props *p) {
    const proper_prism_model *m = p->m;
    size_t i, j;
    int rc;
    p->sym_const = proper__prism_sym_map(p->names.len);
    p->sym_formula = proper__prism_sym_map(p->names.len);
    p->sym_label = proper__prism_sym_map(p->names.len);
    if (!p->sym_const || !p->sym_formula || !p->sym_label)
        return proper_error_set(r->err, PROPER_ENOMEM, r->file, 0, 0, "out of memory");
    for (i = 0; i < p->n_consts; i++) {
        const proper__prism_const_decl *c = &p->consts[i];
        int32_t msym = proper__prism_model_sym(m, p->names.names[c->sym]);
        if (msym >= 0 && (m->sym_var[msym] >= 0 || m->sym_const[msym] >= 0 || m->sym_formula[msym] >= 0))
            return proper_error_set(r->err, PROPER_EPARSE, r->file, c->line, c->col,
                                    "'%s' is already declared in the model", p->names.names[c->sym]);
        if ((rc = proper__prism_declare(r, p->sym_const, NULL, 0, c->sym, i, c->line, c->col, "constant")) != 0) return rc;
    }
    for (i = 0; i < p->n_formulas; i++) {
        const proper__prism_formula_decl *f = &p->formulas[i];
        const int32_t *taken[1];
        int32_t msym = proper__prism_model_sym(m, p->names.names[f->sym]);
        taken[0] = p->sym_const;
        if (msym >= 0 && (m->sym_var[msym] >= 0 || m->sym_const[msym] >= 0 || m->sym_formula[msym] >= 0))
            return proper_error_set(r->err, PROPER_EPARSE, r->file, f->line, f->col,
                                    "'%s' is already declared in the model", p->names.names[f->sym]);
        if ((rc = proper__prism_declare(r, p->sym_formula, taken, 1, f->sym, i, f->line, f->col, "formula")) != 0) return rc;
    }
    for (i = 0; i < p->n_labels; i++) {
        const proper__prism_label_decl *lb = &p->labels[i];
        const char *name = p->names.names[lb->name];
        int builtin = strcmp(name, "init") == 0 || strcmp(name, "deadlock") == 0;
        for (j = 0; m && j < m->n_labels; j++)
            if (strcmp(m->names.names[m->labels[j].name], name) == 0) builtin = 1;
        if (builtin || p->sym_label[lb->name] >= 0)
            return proper_error_set(r->err, PROPER_EPARSE, r->file, lb->line, lb->col, "label \"%s\" is already defined",
                                    name);
        p->sym_label[lb->name] = (int32_t)i;
    }
    return PROPER_OK;
}

static int proper__prism_resolve_props(proper_prism_props *p, proper_error *err) {
    proper__prism_resolver r;
    size_t i;
    int rc;
    memset(&r, 0, sizeof r);
    r.pool = &p->pool;
    r.names = &p->names;
    r.file = p->file[0] ? p->file : NULL;
    r.err = err;
    r.m = p->m;
    r.p = p;
    if ((rc = proper__prism_props_declare(&r, p)) != 0) return rc;
    for (i = 0; i < p->n_consts; i++) {
        const proper__prism_const_decl *c = &p->consts[i];
        r.pconst_limit = i;
        if (c->expr >= 0 && (rc = proper__prism_resolve_as(&r, c->expr, c->type, 1, "a constant's value")) != 0) return rc;
    }
    r.pconst_limit = p->n_consts;
    for (i = 0; i < p->n_formulas; i++)
        if ((rc = proper__prism_resolve(&r, p->formulas[i].expr)) != 0) return rc;
    for (i = 0; i < p->n_labels; i++) {
        if ((rc = proper__prism_resolve(&r, p->labels[i].expr)) != 0) return rc;
        if (p->pool.n[p->labels[i].expr].type != PROPER_PRISM_BOOL)
            return proper__prism_rerr(&r, &p->pool.n[p->labels[i].expr], PROPER_EPARSE, "type error: a label must be bool");
    }
    for (i = 0; i < p->n_props; i++) {
        proper__prism_prop *pr = &p->props[i];
        size_t j;
        for (j = 0; pr->name && j < i; j++)
            if (p->props[j].name && strcmp(p->props[j].name, pr->name) == 0)
                return proper_error_set(err, PROPER_EPARSE, r.file, pr->line, pr->col, "a property named \"%s\" is already defined",
                                        pr->name);
    }
    for (i = 0; i < p->n_props; i++) {
        if ((rc = proper__prism_resolve(&r, p->props[i].expr)) != 0) return rc;
        p->props[i].type = p->pool.n[p->props[i].expr].type;
    }
    return PROPER_OK;
}

PROPER_API int proper_prism_props_parse(proper_prism_props **out, const proper_prism_model *m, const char *text,
                                        size_t len, const char *file, proper_error *err) {
    proper_prism_props *p;
    proper__prism_parser ps;
    proper__prism_tok *toks = NULL;
    proper_error local;
    size_t n = 0;
    int rc;
    if (!err) err = &local;
    proper_error_clear(err);
    p = (proper_prism_props *)proper_calloc(1, sizeof *p);
    if (!p || !(p->file = proper_strdup(file ? file : ""))) {
        PROPER_FREE(p);
        return proper_error_set(err, PROPER_ENOMEM, file, 0, 0, "out of memory");
    }
    p->m = m;
    if ((rc = proper__prism_lex(text, len, p->file[0] ? p->file : NULL, &toks, &n, err)) != 0) goto fail;
    memset(&ps, 0, sizeof ps);
    ps.t = toks;
    ps.n = n;
    ps.file = p->file[0] ? p->file : NULL;
    ps.err = err;
    ps.pool = &p->pool;
    ps.names = &p->names;
    ps.props = 1;
    if ((rc = proper__prism_parse_props_file(&ps, p)) != 0) goto fail;
    PROPER_FREE(toks);
    toks = NULL;
    if ((rc = proper__prism_resolve_props(p, err)) != 0) goto fail;
    proper_prism_props_free(*out);
    *out = p;
    return PROPER_OK;
fail:
    PROPER_FREE(toks);
    proper_prism_props_free(p);
    if (!err->code) proper_error_set(err, rc ? rc : PROPER_EPARSE, file, 0, 0, "malformed properties");
    return err->code;
}

PROPER_API int proper_prism_props_read(proper_prism_props **out, const proper_prism_model *m, const char *path,
                                       proper_error *err) {
    char *text;
    size_t len;
    int rc;
    if ((rc = proper_read_file(path, &text, &len, err)) != 0) return rc;
    rc = proper_prism_props_parse(out, m, text, len, path, err);
    PROPER_FREE(text);
    return rc;
}

/* arg ends in ".ext" (a letter, then letters, digits, '_') and has no blank. */
static int proper__prism_looks_like_file(const char *arg) {
    const char *dot = strrchr(arg, '.'), *q;
    if (strpbrk(arg, " \t\r\n")) return 0;
    if (!dot || !((dot[1] >= 'a' && dot[1] <= 'z') || (dot[1] >= 'A' && dot[1] <= 'Z'))) return 0;
    for (q = dot + 1; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_')) return 0;
    return 1;
}

PROPER_API int proper_prism_props_from_arg(proper_prism_props **out, const proper_prism_model *m, const char *arg,
                                           char **text, int *is_file, proper_error *err) {
    proper_prism_props *p = NULL;
    proper_error local;
    char *t = NULL;
    size_t len = 0;
    FILE *f;
    int file, rc;
    if (!err) err = &local;
    f = fopen(arg, "rb");
    file = f != NULL;
    if (f) fclose(f);
    if (file) {
        if ((rc = proper_read_file(arg, &t, &len, err)) != 0) return rc;
        rc = proper_prism_props_parse(&p, m, t, len, arg, err);
    } else {
        len = strlen(arg);
        if (!(t = proper_strdup(arg))) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        rc = proper_prism_props_parse(&p, m, t, len, "(property)", err);
        if (rc && rc != PROPER_ENOMEM && proper__prism_looks_like_file(arg)) {
            PROPER_FREE(t);
            return proper_error_set(err, PROPER_EIO, arg, 0, 0, "cannot open: %s", strerror(ENOENT));
        }
    }
    if (rc == 0 && p->n_props == 0)
        rc = file ? proper_error_set(err, PROPER_EPARSE, arg, 0, 0, "no property in %s", arg)
                  : proper_error_set(err, PROPER_EPARSE, "(property)", 0, 0, "no property in the text '%.200s'", arg);
    if (rc) {
        proper_prism_props_free(p);
        PROPER_FREE(t);
        return rc;
    }
    proper_prism_props_free(*out);
    *out = p;
    if (text) *text = t;
    else PROPER_FREE(t);
    if (is_file) *is_file = file;
    return PROPER_OK;
}

PROPER_API size_t proper_prism_props_count(const proper_prism_props *p) { return p->n_props; }
PROPER_API const char *proper_prism_props_text(const proper_prism_props *p, size_t i) {
    return i < p->n_props ? p->props[i].text : NULL;
}
PROPER_API const char *proper_prism_props_name(const proper_prism_props *p, size_t i) {
    return i < p->n_props ? p->props[i].name : NULL;
}
PROPER_API const char *proper_prism_props_comment(const proper_prism_props *p, size_t i) {
    return i < p->n_props ? p->props[i].comment : NULL;
}
PROPER_API int proper_prism_props_type(const proper_prism_props *p, size_t i) {
    return i < p->n_props ? p->props[i].type : 0;
}

PROPER_API int proper_prism_props_set_const(proper_prism_props *p, const char *name, double value, proper_error *err) {
    int32_t sym = proper__prism_names_find(&p->names, name, strlen(name));
    if (sym < 0 || p->sym_const[sym] < 0)
        return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0, "the properties have no constant '%s'", name);
    return proper__prism_give_const(&p->consts[p->sym_const[sym]], name, value, err);
}

/* The value of a constant written as text, and the bound on its distance
 * to the exact value (proper__prism_eval_err) in *er. */
static int proper__prism_eval_text(const char *text, double *value, double *er, proper_error *err) {
    proper__prism_parser ps;
    proper__prism_resolver r;
    proper__prism_ectx cx;
    proper__prism_pool pool;
    proper_intern names;
    proper__prism_tok *toks = NULL;
    proper__prism_val v;
    size_t n = 0;
    int32_t e;
    int rc;
    memset(&pool, 0, sizeof pool);
    memset(&names, 0, sizeof names);
    if ((rc = proper__prism_lex(text, strlen(text), NULL, &toks, &n, err)) != 0) return rc;
    memset(&ps, 0, sizeof ps);
    ps.t = toks;
    ps.n = n;
    ps.err = err;
    ps.pool = &pool;
    ps.names = &names;
    if ((e = proper__prism_parse_expr(&ps)) < 0) {
        rc = err->code ? err->code : PROPER_EPARSE;
    } else if (!proper__prism_at(&ps, PROPER__PM_TK_EOF)) {
        rc = proper__prism_expected(&ps, "the end of the value");
    } else {
        memset(&r, 0, sizeof r);
        r.pool = &pool;
        r.names = &names;
        r.err = err;
        memset(&cx, 0, sizeof cx);
        cx.pool = &pool;
        cx.err = err;
        if ((rc = proper__prism_resolve(&r, e)) == 0 && (rc = proper__prism_eval_err(&cx, e, &v, er)) == 0)
            *value = proper__prism_as_double(pool.n[e].type, v);
    }
    PROPER_FREE(toks);
    PROPER_FREE(pool.n);
    proper_intern_free(&names);
    return rc;
}

PROPER_API int proper_prism_eval_constant(const char *text, double *value, proper_error *err) {
    double er;
    return proper__prism_eval_text(text, value, &er, err);
}

/* Whether `name` is a constant of the model / of the properties. */
static int proper__prism_model_has_const(const proper_prism_model *m, const char *name) {
    int32_t sym = m ? proper__prism_names_find(&m->names, name, strlen(name)) : -1;
    return sym >= 0 && m->sym_const[sym] >= 0;
}
static int proper__prism_props_has_const(const proper_prism_props *p, const char *name) {
    int32_t sym = p ? proper__prism_names_find(&p->names, name, strlen(name)) : -1;
    return sym >= 0 && p->sym_const[sym] >= 0;
}

/* Append name to the comma-separated list buf (size bytes, truncated). */
static void proper__prism_list_add(char *buf, size_t size, const char *name) {
    size_t k;
    if (!buf || size == 0) return;
    k = strlen(buf);
    if (k + 1 < size) snprintf(buf + k, size - k, "%s%s", k ? "," : "", name);
}

static int proper__prism_set_consts(proper_prism_model *m, proper_prism_props *p, const char *spec, int strict,
                                    char *unknown, size_t size, proper_error *err) {
    const char *s = spec;
    if (unknown && size) unknown[0] = '\0';
    while (*s) {
        const char *eq, *end = strchr(s, ',');
        char name[256], value[256];
        size_t nlen, vlen;
        double v;
        int rc;
        if (!end) end = s + strlen(s);
        eq = (const char *)memchr(s, '=', (size_t)(end - s));
        if (!eq || eq == s)
            return proper_error_set(err, PROPER_EPARSE, NULL, 0, 0, "constants: expected name=value, found '%.*s'",
                                    (int)(end - s), s);
        nlen = (size_t)(eq - s);
        vlen = (size_t)(end - eq - 1);
        if (nlen >= sizeof name || vlen >= sizeof value)
            return proper_error_set(err, PROPER_EPARSE, NULL, 0, 0, "constants: '%.*s' is too long", (int)(end - s), s);
        memcpy(name, s, nlen);
        name[nlen] = '\0';
        memcpy(value, eq + 1, vlen);
        value[vlen] = '\0';
        s = *end ? end + 1 : end;
        if (!proper__prism_model_has_const(m, name) && !proper__prism_props_has_const(p, name)) {
            if (strict)
                return proper_error_set(err, PROPER_EUNDEFINED, NULL, 0, 0,
                                        "unknown constant '%s' (not declared in the model%s)", name, p ? " or the properties" : "");
            proper__prism_list_add(unknown, size, name);
            continue;
        }
        if ((rc = proper_prism_eval_constant(value, &v, err)) != 0) {
            char msg[PROPER_ERROR_MESSAGE_MAX];
            snprintf(msg, sizeof msg, "%s", err->message);
            return proper_error_set(err, rc, NULL, 0, 0, "constant %s: value '%s': %s", name, value, msg);
        }
        rc = proper__prism_model_has_const(m, name) ? proper_prism_set_const(m, name, v, err)
                                                   : proper_prism_props_set_const(p, name, v, err);
        if (rc) return rc;
        if (proper__prism_model_has_const(m, name)) /* kept for exact evaluation */
            memcpy(m->consts[m->sym_const[proper__prism_names_find(&m->names, name, nlen)]].given_text, value, vlen + 1);
    }
    return PROPER_OK;
}

PROPER_API int proper_prism_set_consts(proper_prism_model *m, proper_prism_props *p, const char *spec,
                                       proper_error *err) {
    return proper__prism_set_consts(m, p, spec, 1, NULL, 0, err);
}

PROPER_API int proper_prism_set_consts_lenient(proper_prism_model *m, proper_prism_props *p, const char *spec,
                                               char *unknown, size_t size, proper_error *err) {
    return proper__prism_set_consts(m, p, spec, 0, unknown, size, err);
}

/* ---- Properties: checking ----------------------------------------------------------*/

PROPER_API proper_prism_check_opts proper_prism_check_opts_default(void) {
    proper_prism_check_opts o;
    o.solve = proper_dtmc_solve_opts_default();
    o.max_steps = ULONG_MAX;
    o.intervals = NULL;
    return o;
}

typedef struct proper__prism_checker {
    const proper_prism_props *p;
    const proper_dtmc *d;
    const proper_prism_check_opts *o;
    proper__prism_ectx cx;
    proper__prism_val *cv, *pcv;
    unsigned char *pmiss;   /* properties constants without a value */
    proper_bitset **labels; /* by properties name id */
    double **opvals;        /* by properties node id: an operator's value in every state, once computed */
    proper_exact_vec **xvals; /* exact checking: by node id, an operator's exact values, once computed */
    unsigned char *busy;    /* properties being computed (references) */
    double range_lo, range_hi; /* the last range filter's result */
    int n_proven;              /* solves that proved an error bound, */
    double proven;             /* ... and the largest of those bounds */
    int unproven;              /* a step whose rounding no bound covers */
    int uncovered;             /* a proven bound of the chain as stored, not of the model */
    double rel_prob, rel_reward; /* the model's own rounding (proper_prism_intervals; -1: unknown) */
    int exact;                 /* ... the stored chain is the model's */
    proper_error *err;
} proper__prism_checker;

static void proper__prism_checker_free(proper__prism_checker *C) {
    size_t i;
    if (C->labels) {
        for (i = 0; i < C->p->names.len; i++)
            if (C->labels[i]) {
                proper_bitset_free(C->labels[i]);
                PROPER_FREE(C->labels[i]);
            }
        PROPER_FREE(C->labels);
    }
    if (C->opvals) {
        for (i = 0; i < C->p->pool.len; i++) PROPER_FREE(C->opvals[i]);
        PROPER_FREE(C->opvals);
    }
    if (C->xvals) {
        for (i = 0; i < C->p->pool.len; i++)
            if (C->xvals[i]) {
                proper_exact_vec_free(C->xvals[i]);
                PROPER_FREE(C->xvals[i]);
            }
        PROPER_FREE(C->xvals);
    }
    PROPER_FREE(C->busy);
    PROPER_FREE(C->cv);
    PROPER_FREE(C->pcv);
    PROPER_FREE(C->pmiss);
}

static int proper__prism_cerr(const proper__prism_checker *C, int line, int col, int code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static int proper__prism_cerr(const proper__prism_checker *C, int line, int col, int code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static int proper__prism_cerr(const proper__prism_checker *C, int line, int col, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    proper_error_setv(C->err, code, C->p->file[0] ? C->p->file : NULL, line, col, fmt, ap);
    va_end(ap);
    return code;
}

/* Record a solve's proven error bound (at the initial state, or the
 * largest over the states with several initial states). */
/* A solve's proven bound; `covered`: it covers the model's own rounding
 * too (else it is of the chain as stored). */
static void proper__prism_proven(proper__prism_checker *C, const proper_dtmc_solve_stats *st, int covered) {
    double b = C->d->init_dist ? st->max_error : st->init_error;
    if (!(b >= 0)) b = INFINITY; /* NaN: nothing proven */
    if (C->n_proven++ == 0 || b > C->proven) C->proven = b;
    if (!covered) C->uncovered = 1;
}

/* The step- and time-bounded solvers bound the error against the chain
 * as stored; the model's rounding (delta = rel_prob, relative, in every
 * probability and, for a CTMC, in every rate: rel_prob bounds those too)
 * adds, for values in [0, 1] (probabilities, within their bound B):
 *  - k steps of a DTMC: each step x_j = A x_{j-1} (A substochastic, exact
 *    rows summing to at most 1) adds at most delta max|x~| <= delta (1 + B):
 *    k delta (1 + B) in all;
 *  - time t of a CTMC: e^{Qt} - e^{Q~t} = int_0^t e^{Q(t-s)} (Q - Q~)
 *    e^{Q~s} ds (Duhamel), and a generator's exponential has norm 1 in
 *    the max norm, so at most t ||Q - Q~|| <= t 2 delta (1 + delta) max_s E~(s),
 *    E~(s) the row's stored rates summed (off-diagonal and diagonal both
 *    move by at most delta times the exact rates).
 * Both are added to the solve's bounds (st, rounded up); the result then
 * covers the model. */
static void proper__prism_widen(proper_dtmc_solve_stats *st, double extra) {
    st->init_error = (st->init_error + extra) * (1.0 + 4.0 * PROPER__PM_U);
    st->max_error = (st->max_error + extra) * (1.0 + 4.0 * PROPER__PM_U);
}

static double proper__prism_max_row_rate(const proper_dtmc *d) {
    double q = 0.0;
    uint32_t s;
    uint64_t k;
    for (s = 0; s < d->n_states; s++) {
        double e = 0.0;
        for (k = d->row[s]; k < d->row[s + 1]; k++) e += d->prob[k];
        if (e > q) q = e;
    }
    return q * (1.0 + (double)(d->n_trans + 2) * DBL_EPSILON);
}

/* Whether a step- or time-bounded probability's bound covers the model,
 * widened as above when the model's rounding is known: `steps` steps of a
 * DTMC, or time t of a CTMC (INFINITY: an unbounded part, not covered). */
static int proper__prism_bounded_covers(const proper__prism_checker *C, proper_dtmc_solve_stats *st, double steps, double t) {
    double delta = C->rel_prob, b = C->d->init_dist ? st->max_error : st->init_error;
    if (C->exact) return 1;
    if (!(delta >= 0) || !(b >= 0)) return 0;
    if (C->d->kind == PROPER_DTMC_KIND_CTMC) {
        if (!isfinite(t)) return 0;
        proper__prism_widen(st, t * 2.0 * delta * (1.0 + delta) * proper__prism_max_row_rate(C->d));
    } else {
        proper__prism_widen(st, steps * delta * (1.0 + b));
    }
    return 1;
}

/* The same for a step- or time-bounded reward (covered when the stored
 * chain and rewards are the model's; else widened when rel_reward is
 * known): with r~ the stored step reward (a CTMC: reward rate, state plus
 * sum_t R(s,t) r(s,t)), within dr = rel_reward of the exact r, and
 * delta = rel_prob, g = (1 + delta)^k <= 1 / (1 - k delta) bounding the
 * stored chain's k-step norm: I=k adds (k delta g + dr) max|r~|, C<=k the
 * sum over its steps, (k (k-1) / 2 delta g + k dr) max|r~|; a CTMC's I=t
 * adds (t ||Q - Q~|| + dr) max|r~| and C<=t integrates it, (t^2 / 2
 * ||Q - Q~|| + t dr) max|r~| (as above, ||Q - Q~|| <= 2 delta (1 + delta)
 * max_s E~(s)). */
static void proper__prism_step_reward(const proper_dtmc *d, const proper_dtmc_reward *rew, double *r);
static int proper__prism_reward_covers(proper__prism_checker *C, const proper_dtmc_reward *rew, proper_dtmc_solve_stats *st,
                                       double k, int cumulative) {
    const proper_dtmc *d = C->d;
    double delta = C->rel_prob, dr = C->rel_reward, rmax = 0.0, a, extra;
    double *r;
    uint32_t s;
    if (C->exact) return 1;
    if (!(delta >= 0) || !(dr >= 0) || !(r = (double *)proper_calloc(d->n_states, sizeof *r))) return 0;
    proper__prism_step_reward(d, rew, r);
    for (s = 0; s < d->n_states; s++) rmax = fmax(rmax, fabs(r[s]));
    PROPER_FREE(r);
    rmax *= 1.0 + (double)(d->n_trans + 4) * DBL_EPSILON; /* the rounding of the step rewards */
    if (d->kind == PROPER_DTMC_KIND_CTMC) {
        a = 2.0 * delta * (1.0 + delta) * proper__prism_max_row_rate(d);
        extra = cumulative ? (k * k / 2.0 * a + k * dr) : (k * a + dr);
    } else {
        if (!(k * delta < 0.5)) return 0;
        a = delta / (1.0 - k * delta);
        extra = cumulative ? (k * (k - 1.0) / 2.0 * a + k * dr) : (k * a + dr);
    }
    extra *= rmax * (1.0 + dr);
    if (!(extra < INFINITY)) return 0;
    proper__prism_widen(st, extra);
    return 1;
}

/* A CTMC's S and R [ S ] (solved on its uniformised chain, whose bound
 * covers neither the model's rounding nor that of R/q): when the chain has
 * one bottom component (every state reaches it; the same graph in the
 * exact model), the value is the stationary mean over it, and by the
 * Markov chain tree theorem (Leighton & Rivest 1986; the same argument as
 * dtmc.h's GTH bound) each stationary probability is a ratio of sums of
 * products of m - 1 off-diagonal rates, m <= n states: rates within
 * delta' (the model's delta, then the rounding u of R/q) move it by a
 * factor within ((1 + delta') / (1 - delta'))^(n-1) <= 1 + N a / (1 - N a),
 * a = 2 delta' / (1 - delta'), N = n - 1. The value v~ (within B of the
 * stored chain's) then moves by at most that times (|v~| + B), rewards
 * within dr adding dr: the bound is widened by (k (1 + dr) + dr)
 * (max|v~| + B), k = N a / (1 - N a). rel: rel_prob (S) or rel_reward. */
static int proper__prism_ctmc_steady_covers(proper__prism_checker *C, proper_dtmc_solve_stats *st, const double *x,
                                            double dr) {
    const proper_dtmc *d = C->d;
    double delta = C->rel_prob, a, na, k, vmax = 0.0, b = fmax(st->max_error, st->init_error);
    uint32_t nb = 0, s, *bscc;
    proper_error scratch;
    int rc;
    if (!(delta >= 0) || !(dr >= 0) || !(b >= 0)) return 0;
    if (!(bscc = (uint32_t *)proper_calloc((size_t)d->n_states + 1, sizeof *bscc))) return 0;
    rc = proper_dtmc_bscc(d, bscc, &nb, &scratch);
    PROPER_FREE(bscc);
    if (rc != 0 || nb != 1) return 0;
    delta = proper__prism_rel_mul(delta, 0.0); /* then R/q's rounding */
    if (!(delta < 0.5)) return 0;
    a = 2.0 * delta / (1.0 - delta) * (1.0 + 4.0 * PROPER__PM_U);
    na = (double)(d->n_states - 1) * a * (1.0 + 2.0 * PROPER__PM_U);
    if (!(na < 0.5)) return 0;
    k = na / (1.0 - na) * (1.0 + 4.0 * PROPER__PM_U);
    for (s = 0; s < d->n_states; s++) vmax = fmax(vmax, fabs(x[s]));
    proper__prism_widen(st, (k * (1.0 + dr) + dr) * (vmax + b));
    return 1;
}

/* The options of an unbounded solve (dtmc.h's certificates take the
 * model's own rounding: model_rel_error = rel, the relative error of the
 * chain's probabilities, and of its reward terms for R) and whether its
 * bound will cover the model (rel >= 0; rel < 0: not known, the bound is
 * of the chain as stored). */
static proper_dtmc_solve_opts proper__prism_model_opts(const proper__prism_checker *C, double rel, int *covered) {
    proper_dtmc_solve_opts so = C->o->solve;
    *covered = rel >= 0;
    if (rel > 0) so.model_rel_error = rel;
    return so;
}

/* An unbounded solve that takes the model's rounding was refused
 * (PROPER_ENOCONV): its bound, about delta times the expected stays, may
 * not meet the precision asked where the chain as stored would. Then it is
 * solved again with the precision 1000 times coarser, up to
 * PROPER__PM_ROUNDING_RETRIES times, and its value comes with the wider
 * proven bound (proper check prints it beside the value). */
#define PROPER__PM_ROUNDING_RETRIES 3
static int proper__prism_loosen(int rc, proper_dtmc_solve_opts *so, int *k) {
    if (rc != PROPER_ENOCONV || !(so->model_rel_error > 0) || *k >= PROPER__PM_ROUNDING_RETRIES) return 0;
    so->rel_precision *= 1e3;
    (*k)++;
    return 1;
}

/* Fetch from the DTMC every label the expression uses (properties pool). */
static int proper__prism_load_labels(proper__prism_checker *C, int32_t e) {
    const proper__prism_node *nd;
    int rc;
    if (e < 0) return PROPER_OK;
    nd = &C->p->pool.n[e];
    if (!(nd->flags & PROPER__PM_F_LABELS)) return PROPER_OK;
    if (nd->kind == PROPER__PM_N_LABEL) {
        proper_bitset *set;
        proper_error tmp;
        if (C->labels[nd->idx]) return PROPER_OK;
        if (!(set = (proper_bitset *)proper_calloc(1, sizeof *set)))
            return proper_error_set(C->err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        if (proper_dtmc_label_get(C->d, C->p->names.names[nd->idx], set, &tmp)) {
            PROPER_FREE(set);
            return proper__prism_cerr(C, nd->line, nd->col, tmp.code == PROPER_ENOMEM ? PROPER_ENOMEM : PROPER_EUNDEFINED,
                                   "unknown label \"%s\"", C->p->names.names[nd->idx]);
        }
        C->labels[nd->idx] = set;
        return PROPER_OK;
    }
    if ((rc = proper__prism_load_labels(C, nd->a)) != 0) return rc;
    if (nd->kind == PROPER__PM_N_FORMULA || nd->kind == PROPER__PM_N_PLABEL) return PROPER_OK;
    if ((rc = proper__prism_load_labels(C, nd->b)) != 0) return rc;
    return proper__prism_load_labels(C, nd->c);
}

/* The values of the model's constants and of the properties' (C->cv,
 * C->pcv; C->pmiss marks properties constants without one), and the
 * evaluation context over them. C is zeroed first. */
static int proper__prism_checker_consts(proper__prism_checker *C, const proper_prism_props *p, proper_error *err) {
    const proper_prism_model *m = p->m;
    size_t i;
    int rc;
    memset(C, 0, sizeof *C);
    C->p = p;
    C->err = err;
    if (m && (rc = proper__prism_model_consts(m, &C->cv, err)) != 0) return rc;
    C->pcv = (proper__prism_val *)proper_calloc(p->n_consts, sizeof *C->pcv);
    C->pmiss = (unsigned char *)proper_calloc(p->n_consts, 1);
    if (!C->pcv || !C->pmiss) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    C->cx.m = m;
    C->cx.pool = &p->pool;
    C->cx.file = p->file[0] ? p->file : NULL;
    C->cx.cv = C->cv;
    C->cx.pcv = C->pcv;
    C->cx.err = err;
    C->cx.pmiss = C->pmiss;
    C->cx.props = p;
    for (i = 0; i < p->n_consts; i++) { /* a constant without a value is an error only where it is used */
        const proper__prism_const_decl *c = &p->consts[i];
        proper_error tmp;
        if (c->expr < 0) {
            if (c->has_given) C->pcv[i] = c->given;
            else C->pmiss[i] = 1;
            continue;
        }
        C->cx.err = &tmp;
        if (proper__prism_eval(&C->cx, c->expr, &C->pcv[i]) != 0) {
            C->cx.err = err;
            if (tmp.code != PROPER_EUNDEFINED) {
                *err = tmp;
                return tmp.code;
            }
            C->pmiss[i] = 1;
            continue;
        }
        C->cx.err = err;
        if (c->type == PROPER_PRISM_DOUBLE) C->pcv[i].d = proper__prism_as_double(p->pool.n[c->expr].type, C->pcv[i]);
    }
    return PROPER_OK;
}

/* Constants of the model and of the properties, label sets, checks that
 * the DTMC has the variables the properties use. */
static int proper__prism_checker_init(proper__prism_checker *C, const proper_prism_props *p, const proper_dtmc *d,
                                   const proper_prism_check_opts *o, proper_error *err) {
    const proper_prism_model *m = p->m;
    size_t i;
    int rc;
    if ((rc = proper__prism_checker_consts(C, p, err)) != 0) return rc;
    C->d = d;
    C->o = o;
    C->rel_prob = o->intervals ? o->intervals->rel_prob : -1.0;
    C->rel_reward = o->intervals ? o->intervals->rel_reward : -1.0;
    C->exact = o->intervals && o->intervals->exact;
    C->labels = (proper_bitset **)proper_calloc(p->names.len, sizeof *C->labels);
    C->opvals = (double **)proper_calloc(p->pool.len + 1, sizeof *C->opvals);
    C->busy = (unsigned char *)proper_calloc(p->n_props + 1, 1);
    if (!C->labels || !C->opvals || !C->busy) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    C->cx.labels = C->labels;
    C->cx.opvals = C->opvals;
    if (o->intervals && o->intervals->lo && o->intervals->n != d->n_trans)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "the probability intervals (%llu) are not those of the DTMC (%llu transitions)",
                                (unsigned long long)o->intervals->n, (unsigned long long)d->n_trans);
    if (m && d->n_vars) {
        if (d->n_vars != m->n_vars)
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "the DTMC was not built from the properties' model");
        for (i = 0; i < m->n_vars; i++)
            if (strcmp(d->var_names[i], m->names.names[m->vars[i].sym]) != 0)
                return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "the DTMC was not built from the properties' model");
    }
    return PROPER_OK;
}

/* Value of expression e in state s. */
static int proper__prism_eval_at(proper__prism_checker *C, int32_t e, size_t s, proper__prism_val *v) {
    const proper__prism_node *nd = &C->p->pool.n[e];
    if (nd->flags & PROPER__PM_F_VARS) {
        if (!C->d->vals)
            return proper__prism_cerr(C, nd->line, nd->col, PROPER_EINVAL, "the model has no variables to evaluate this in");
        C->cx.vals = C->d->vals + s * C->d->n_vars;
    }
    C->cx.state = s;
    return proper__prism_eval(&C->cx, e, v);
}

static int proper__prism_vec(proper__prism_checker *C, int32_t e, double *x);

/* Values of expression e in every state (as doubles; bools 0/1), its
 * operators already computed. */
static int proper__prism_eval_states(proper__prism_checker *C, int32_t e, double *x) {
    const proper__prism_node *nd = &C->p->pool.n[e];
    size_t s, n = C->d->n_states;
    proper__prism_val v;
    int rc;
    if ((rc = proper__prism_load_labels(C, e)) != 0) return rc;
    if (!(nd->flags & PROPER__PM_F_STATE)) { /* the same everywhere */
        if ((rc = proper__prism_eval_at(C, e, 0, &v)) != 0) return rc;
        for (s = 0; s < n; s++) x[s] = proper__prism_as_double(nd->type, v);
        return PROPER_OK;
    }
    for (s = 0; s < n; s++) {
        if ((rc = proper__prism_eval_at(C, e, s, &v)) != 0) return rc;
        x[s] = proper__prism_as_double(nd->type, v);
    }
    return PROPER_OK;
}

/* A fresh vector of n_states doubles (zero). */
static double *proper__prism_vec_new(proper__prism_checker *C) {
    double *x = (double *)proper_calloc(C->d->n_states + 1, sizeof *x);
    if (!x) proper_error_set(C->err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    return x;
}

/* The states satisfying boolean expression e, into fresh bitset *set. */
static int proper__prism_state_set(proper__prism_checker *C, int32_t e, proper_bitset *set) {
    const proper__prism_node *nd = &C->p->pool.n[e];
    size_t s, n = C->d->n_states;
    double *x;
    int rc;
    proper_bitset_init(set);
    if (nd->kind == PROPER__PM_N_LABEL) {
        if ((rc = proper__prism_load_labels(C, e)) != 0) return rc;
        return proper_bitset_copy(set, C->labels[nd->idx], C->err);
    }
    if (!(x = proper__prism_vec_new(C))) return PROPER_ENOMEM;
    if ((rc = proper__prism_vec(C, e, x)) == 0 && (rc = proper_bitset_create(set, n, C->err)) == 0)
        for (s = 0; s < n; s++)
            if (x[s] != 0) proper_bitset_set(set, s);
    PROPER_FREE(x);
    return rc;
}

/* A constant int expression (a step bound, a reward index). */
static int proper__prism_const_int(proper__prism_checker *C, int32_t e, long long *out) {
    const proper__prism_node *nd = &C->p->pool.n[e];
    proper__prism_val v;
    int rc = proper__prism_eval_at(C, e, 0, &v);
    if (rc) return rc;
    if (nd->type == PROPER_PRISM_DOUBLE) { /* a bound of a model read from files */
        if (!(v.d == floor(v.d) && fabs(v.d) < 9e15))
            return proper__prism_cerr(C, nd->line, nd->col, PROPER_EINVAL, "step bound %g of a DTMC is not an integer", v.d);
        v.i = (long long)v.d;
    }
    *out = v.i;
    return PROPER_OK;
}

/* A constant double expression (a time bound of a CTMC). */
static int proper__prism_const_double(proper__prism_checker *C, int32_t e, double *out) {
    proper__prism_val v;
    int rc = proper__prism_eval_at(C, e, 0, &v);
    if (rc == 0) *out = proper__prism_as_double(C->p->pool.n[e].type, v);
    return rc;
}

/* Time bounds [t1, t2] of path node nd of a CTMC (PRISM: < and <= alike). */
static int proper__prism_time_bounds(proper__prism_checker *C, const proper__prism_node *nd, double *t1, double *t2) {
    int rc;
    *t1 = 0;
    *t2 = INFINITY;
    if (nd->idx >= 0 && (rc = proper__prism_const_double(C, nd->idx, t1)) != 0) return rc;
    if (nd->c >= 0 && (rc = proper__prism_const_double(C, nd->c, t2)) != 0) return rc;
    if (!(*t1 >= 0) || !(*t2 >= 0))
        return proper__prism_cerr(C, nd->line, nd->col, PROPER_ERANGE, "negative time bound");
    if (*t1 > *t2) return proper__prism_cerr(C, nd->line, nd->col, PROPER_ERANGE, "empty time bound [%g, %g]", *t1, *t2);
    return PROPER_OK;
}

/* ---- Probabilities of path formulas ---- */

/* A path formula in PRISM's until form (Expression.convertSimplePathFormulaToCanonicalForm):
 * P[path] = neg ? 1 - P[phi1 U[lo,hi] phi2] : P[phi1 U[lo,hi] phi2], or X phi2. */
typedef struct proper__prism_until {
    const proper__prism_node *path; /* the temporal operator (its bounds) */
    int neg, next;
    proper_bitset phi1, phi2;
    long long lo, hi; /* step bounds, -1: none */
} proper__prism_until;

static void proper__prism_until_free(proper__prism_until *u) {
    proper_bitset_free(&u->phi1);
    proper_bitset_free(&u->phi2);
}

/* The step bounds of path node nd: >k means >=k+1, <k means <=k-1; negative
 * or empty bounds are errors (as in PRISM). */
static int proper__prism_step_bounds(proper__prism_checker *C, const proper__prism_node *nd, long long *lo, long long *hi) {
    int rc;
    *lo = *hi = -1;
    if (nd->idx >= 0) {
        if ((rc = proper__prism_const_int(C, nd->idx, lo)) != 0) return rc;
        if ((int)nd->num & 2) *lo += 1;
    }
    if (nd->c >= 0) {
        if ((rc = proper__prism_const_int(C, nd->c, hi)) != 0) return rc;
        if ((int)nd->num & 1) *hi -= 1;
    }
    if ((nd->idx >= 0 && *lo < 0) || (nd->c >= 0 && *hi < 0))
        return proper__prism_cerr(C, nd->line, nd->col, PROPER_ERANGE, "negative step bound");
    if (nd->idx >= 0 && nd->c >= 0 && *lo > *hi)
        return proper__prism_cerr(C, nd->line, nd->col, PROPER_ERANGE, "empty step bound (%lld > %lld)", *lo, *hi);
    if ((*lo >= 0 && (unsigned long long)*lo > C->o->max_steps) || (*hi >= 0 && (unsigned long long)*hi > C->o->max_steps))
        return proper__prism_cerr(C, nd->line, nd->col, PROPER_ELIMIT, "step bound above the limit %lu", C->o->max_steps);
    return PROPER_OK;
}

/* Path formula e (one temporal operator over state formulas, possibly
 * negated) in until form; EUNSUPPORTED for LTL. */
static int proper__prism_until_form(proper__prism_checker *C, int32_t e, proper__prism_until *u) {
    const proper__prism_pool *pool = &C->p->pool;
    const proper__prism_node *nd = &pool->n[e];
    proper_bitset A, B;
    int rc, op;
    memset(u, 0, sizeof *u);
    while (nd->kind == PROPER__PM_N_NOT || nd->kind == PROPER__PM_N_FORMULA || nd->kind == PROPER__PM_N_PLABEL) {
        if (nd->kind == PROPER__PM_N_NOT) u->neg ^= 1;
        nd = &pool->n[nd->a];
    }
    if (nd->kind != PROPER__PM_N_PATH || (nd->a >= 0 && (pool->n[nd->a].flags & PROPER__PM_F_PATH)) ||
        (pool->n[nd->b].flags & PROPER__PM_F_PATH))
        return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED,
                                  "LTL path formulas (temporal operators nested or combined with & | ! =>) are not supported");
    op = nd->op;
    u->path = nd;
    u->lo = u->hi = -1;
    if (C->d->kind != PROPER_DTMC_KIND_CTMC && (rc = proper__prism_step_bounds(C, nd, &u->lo, &u->hi)) != 0) return rc;
    proper_bitset_init(&A);
    if (nd->a >= 0) {
        if ((rc = proper__prism_state_set(C, nd->a, &A)) != 0) return rc;
    } else if ((rc = proper_bitset_create(&A, C->d->n_states, C->err)) == 0) {
        proper_bitset_not(&A); /* true */
    } else {
        return rc;
    }
    if ((rc = proper__prism_state_set(C, nd->b, &B)) != 0) {
        proper_bitset_free(&A);
        return rc;
    }
    if (op == PROPER__PM_T_X) {
        proper_bitset_free(&A);
        if (nd->idx >= 0 || nd->c >= 0) { /* the caller keeps nothing of a failed form */
            proper_bitset_free(&B);
            return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED, "X takes no step bound");
        }
        u->next = 1;
        u->phi2 = B;
        return PROPER_OK;
    }
    if (op == PROPER__PM_T_G || op == PROPER__PM_T_R) { /* G b = !(true U !b); a R b = !(!a U !b) */
        proper_bitset_not(&B);
        if (op == PROPER__PM_T_R) proper_bitset_not(&A);
        u->neg ^= 1;
    } else if (op == PROPER__PM_T_W) { /* a W b = !((a & !b) U (!a & !b)) */
        proper_bitset nb;
        proper_bitset_init(&nb);
        if ((rc = proper_bitset_copy(&nb, &B, C->err)) != 0) {
            proper_bitset_free(&A);
            proper_bitset_free(&B);
            return rc;
        }
        proper_bitset_not(&nb);
        proper_bitset_and(&A, &nb); /* A = a & !b */
        proper_bitset_or(&B, &A);
        proper_bitset_not(&B);      /* B = !(b | (a & !b)) = !a & !b */
        proper_bitset_free(&nb);
        u->neg ^= 1;
    }
    u->phi1 = A;
    u->phi2 = B;
    return PROPER_OK;
}

/* y[s] = phi1(s) ? sum_t P(s,t) y[t] : 0, k times (the steps before a
 * lower bound; PRISM's computeRestrictedNext). Stops early at a fixed point. */
static int proper__prism_restricted_next(proper__prism_checker *C, const proper_bitset *phi1, long long k, double *y) {
    const proper_dtmc *d = C->d;
    double *z = proper__prism_vec_new(C);
    long long i;
    if (!z) return PROPER_ENOMEM;
    for (i = 0; i < k; i++) {
        uint32_t s;
        uint64_t j;
        for (s = 0; s < d->n_states; s++) {
            double sum = 0;
            if (PROPER_BITSET_GET(phi1, s))
                for (j = d->row[s]; j < d->row[s + 1]; j++) sum += d->prob[j] * y[d->col[j]];
            z[s] = sum;
        }
        if (memcmp(z, y, d->n_states * sizeof *y) == 0) break;
        memcpy(y, z, d->n_states * sizeof *y);
    }
    PROPER_FREE(z);
    return PROPER_OK;
}

/* Probability of moving to phi in one step (a CTMC: of its embedded DTMC,
 * each rate over the state's exit rate). */
static void proper__prism_next(const proper_dtmc *d, const proper_bitset *phi, double *x) {
    uint32_t s;
    uint64_t j;
    for (s = 0; s < d->n_states; s++) {
        double sum = 0, exit = 0;
        for (j = d->row[s]; j < d->row[s + 1]; j++) {
            exit += d->prob[j];
            if (PROPER_BITSET_GET(phi, d->col[j])) sum += d->prob[j];
        }
        x[s] = d->kind == PROPER_DTMC_KIND_CTMC ? sum / exit : sum;
    }
}

/* ---- LTL: path formulas beyond one temporal operator, through ltl.h ---- */

/* A path formula being translated: the formula and one state set per
 * atomic proposition (each maximal state subformula). */
typedef struct proper__prism_ltl {
    proper_ltl f;
    proper_bitset *aps;
    size_t n_aps, cap_aps;
} proper__prism_ltl;

static void proper__prism_ltl_free(proper__prism_ltl *L) {
    size_t i;
    for (i = 0; i < L->n_aps; i++) proper_bitset_free(&L->aps[i]);
    PROPER_FREE(L->aps);
    proper_ltl_free(&L->f);
}

/* Node e of a path formula as an LTL node (*out). */
static int proper__prism_to_ltl(proper__prism_checker *C, proper__prism_ltl *L, int32_t e, uint32_t *out) {
    const proper__prism_node *nd = &C->p->pool.n[e];
    uint32_t a = PROPER_LTL_NONE, b = PROPER_LTL_NONE;
    int rc;
    while (nd->kind == PROPER__PM_N_FORMULA || nd->kind == PROPER__PM_N_PLABEL) {
        e = nd->a;
        nd = &C->p->pool.n[e];
    }
    if (!(nd->flags & PROPER__PM_F_PATH)) { /* a maximal state subformula: a proposition */
        proper_bitset set;
        if ((rc = proper__prism_state_set(C, e, &set)) != 0) return rc;
        if (PROPER_PUSH(L->aps, L->n_aps, L->cap_aps, set)) {
            proper_bitset_free(&set);
            return proper_error_set(C->err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        }
        return proper_ltl_add_ap(&L->f, (uint32_t)(L->n_aps - 1), out, C->err);
    }
    if (nd->kind == PROPER__PM_N_NOT) {
        if ((rc = proper__prism_to_ltl(C, L, nd->a, &a)) != 0) return rc;
        return proper_ltl_add(&L->f, PROPER_LTL_NOT, a, PROPER_LTL_NONE, out, C->err);
    }
    if (nd->kind == PROPER__PM_N_BIN && nd->op >= PROPER__PM_OP_AND) {
        static const proper_ltl_op ops[] = {PROPER_LTL_AND, PROPER_LTL_OR, PROPER_LTL_IMPLIES, PROPER_LTL_IFF};
        if ((rc = proper__prism_to_ltl(C, L, nd->a, &a)) != 0 || (rc = proper__prism_to_ltl(C, L, nd->b, &b)) != 0) return rc;
        return proper_ltl_add(&L->f, ops[nd->op - PROPER__PM_OP_AND], a, b, out, C->err);
    }
    if (nd->kind == PROPER__PM_N_PATH && nd->op <= PROPER__PM_T_R) {
        static const proper_ltl_op ops[] = {PROPER_LTL_NEXT, PROPER_LTL_EVENTUALLY, PROPER_LTL_ALWAYS, PROPER_LTL_UNTIL,
                                            PROPER_LTL_WEAK_UNTIL, PROPER_LTL_RELEASE};
        long long lo = -1, hi = -1;
        if (C->d->kind == PROPER_DTMC_KIND_CTMC && (nd->idx >= 0 || nd->c >= 0))
            return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED, "time-bounded LTL of a CTMC is not supported");
        if (C->d->kind != PROPER_DTMC_KIND_CTMC && (rc = proper__prism_step_bounds(C, nd, &lo, &hi)) != 0) return rc;
        if (nd->a >= 0 && (rc = proper__prism_to_ltl(C, L, nd->a, &a)) != 0) return rc;
        if ((rc = proper__prism_to_ltl(C, L, nd->b, &b)) != 0) return rc;
        if (nd->op == PROPER__PM_T_X) {
            if (lo >= 0 || hi >= 0) return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED, "X takes no step bound");
            return proper_ltl_add(&L->f, PROPER_LTL_NEXT, b, PROPER_LTL_NONE, out, C->err);
        }
        if (nd->a < 0) { /* F, G: the operand is ltl.h's left */
            a = b;
            b = PROPER_LTL_NONE;
        }
        return proper_ltl_add_bounded(&L->f, ops[nd->op], a, b, lo < 0 ? 0 : (unsigned long)lo,
                                      hi < 0 ? PROPER_LTL_UNBOUNDED : (unsigned long)hi, out, C->err);
    }
    return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED, "this operator is not supported in an LTL formula");
}

/* The LTL options of the checker's solver options. */
static proper_ltl_opts proper__prism_ltl_opts(const proper__prism_checker *C) {
    proper_ltl_opts o = proper_ltl_opts_default();
    o.solve = C->o->solve;
    return o;
}

/* The LTL formula of path formula e, with its propositions, into *L
 * (free it with proper__prism_ltl_free whatever this returns). */
static int proper__prism_ltl_of(proper__prism_checker *C, int32_t e, proper__prism_ltl *L) {
    uint32_t root;
    int rc;
    memset(L, 0, sizeof *L);
    proper_ltl_init(&L->f);
    if ((rc = proper__prism_to_ltl(C, L, e, &root)) == 0) L->f.root = root;
    return rc;
}

/* P=? [ ltl ] in every state (proper_ltl_prob). */
static int proper__prism_prob_ltl(proper__prism_checker *C, int32_t e, double *x) {
    proper__prism_ltl L;
    proper_ltl_opts o = proper__prism_ltl_opts(C);
    int rc;
    if ((rc = proper__prism_ltl_of(C, e, &L)) == 0) {
        if (C->d->kind == PROPER_DTMC_KIND_CTMC) { /* untimed LTL of a CTMC: its embedded DTMC's */
            proper_dtmc emb;
            proper_dtmc_init(&emb);
            if ((rc = proper_dtmc_embedded(C->d, &emb, C->err)) == 0)
                rc = proper_ltl_prob_ex(&emb, &L.f, L.aps, L.n_aps, &o, x, NULL, C->err);
            proper_dtmc_free(&emb);
        } else {
            rc = proper_ltl_prob_ex(C->d, &L.f, L.aps, L.n_aps, &o, x, NULL, C->err);
        }
    }
    proper__prism_ltl_free(&L);
    return rc;
}

/* R=? [ co-safe ltl ] in every state (proper_ltl_reward_cosafe). */
static int proper__prism_reward_ltl(proper__prism_checker *C, const proper_dtmc *d, const proper_dtmc_reward *rew, int32_t e,
                                    double *x) {
    proper__prism_ltl L;
    proper_ltl_opts o = proper__prism_ltl_opts(C);
    const proper__prism_node *nd = &C->p->pool.n[e];
    int rc;
    if ((rc = proper__prism_ltl_of(C, e, &L)) == 0) {
        if (!proper_ltl_is_cosafe(&L.f))
            rc = proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED,
                                    "a reward of an LTL formula needs a co-safe formula (X, U, F; G, W, R bounded)");
        else
            rc = proper_ltl_reward_cosafe_ex(d, rew, &L.f, L.aps, L.n_aps, &o, x, NULL, C->err);
    }
    proper__prism_ltl_free(&L);
    return rc;
}

/* The path formula at e has one temporal operator over state formulas
 * (possibly negated): PRISM's "simple" path formulas. */
static int proper__prism_is_simple_path(const proper__prism_checker *C, int32_t e) {
    const proper__prism_pool *pool = &C->p->pool;
    const proper__prism_node *nd = &pool->n[e];
    while (nd->kind == PROPER__PM_N_NOT || nd->kind == PROPER__PM_N_FORMULA || nd->kind == PROPER__PM_N_PLABEL)
        nd = &pool->n[nd->a];
    return nd->kind == PROPER__PM_N_PATH && nd->op <= PROPER__PM_T_R &&
           !(nd->a >= 0 && (pool->n[nd->a].flags & PROPER__PM_F_PATH)) && !(pool->n[nd->b].flags & PROPER__PM_F_PATH);
}

/* P=? [ path ] in every state. A state formula as the path is its value in
 * the first state (an LTL formula without temporal operators). */
static int proper__prism_prob_path(proper__prism_checker *C, int32_t e, double *x) {
    const proper_dtmc *d = C->d;
    proper__prism_until u;
    size_t s;
    int rc;
    if (!(C->p->pool.n[e].flags & PROPER__PM_F_PATH)) return proper__prism_vec(C, e, x);
    if (!proper__prism_is_simple_path(C, e)) return proper__prism_prob_ltl(C, e, x);
    if ((rc = proper__prism_until_form(C, e, &u)) != 0) return rc;
    if (u.next) {
        proper__prism_next(d, &u.phi2, x);
    } else if (d->kind == PROPER_DTMC_KIND_CTMC && (u.path->idx >= 0 || u.path->c >= 0)) { /* CSL time bounds */
        double t1, t2;
        proper_dtmc_solve_stats st;
        if ((rc = proper__prism_time_bounds(C, u.path, &t1, &t2)) == 0 &&
            (rc = proper_dtmc_ctmc_bounded_until_stats(d, &u.phi1, &u.phi2, t1, t2, &C->o->solve, x, &st, C->err)) == 0)
            proper__prism_proven(C, &st, proper__prism_bounded_covers(C, &st, 0, t2));
    } else if (u.hi < 0) { /* no upper bound: unbounded until from the lower bound on */
        proper_dtmc_solve_stats st;
        int covered, k = 0;
        proper_dtmc_solve_opts so = proper__prism_model_opts(C, C->rel_prob, &covered);
        do rc = proper_dtmc_prob_until(d, &u.phi1, &u.phi2, &so, x, &st, C->err);
        while (proper__prism_loosen(rc, &so, &k));
        if (rc == 0) proper__prism_proven(C, &st, covered);
    } else if (u.hi - (u.lo > 0 ? u.lo : 0) == 0) { /* a window of 0 steps: phi2 now */
        for (s = 0; s < d->n_states; s++) x[s] = PROPER_BITSET_GET(&u.phi2, s);
    } else {
        proper_dtmc_solve_stats st;
        if ((rc = proper_dtmc_prob_bounded_until_stats(d, &u.phi1, &u.phi2, (unsigned long)(u.hi - (u.lo > 0 ? u.lo : 0)), x,
                                                       &st, C->err)) == 0)
            proper__prism_proven(C, &st, proper__prism_bounded_covers(C, &st, (double)(u.hi - (u.lo > 0 ? u.lo : 0)), 0));
    }
    if (rc == 0 && u.lo > 0) {
        rc = proper__prism_restricted_next(C, &u.phi1, u.lo, x);
        C->unproven = 1; /* the restricted steps' rounding is not bounded */
    }
    if (rc == 0 && u.neg)
        for (s = 0; s < d->n_states; s++) x[s] = 1 - x[s];
    proper__prism_until_free(&u);
    return rc;
}

/* ---- Interval models: Pmin, Pmax (dtmc.h's interval solvers) ---- */

/* The intervals of C->d, or NULL for a chain without them. */
static const proper_prism_intervals *proper__prism_intervals(const proper__prism_checker *C) {
    const proper_prism_intervals *iv = C->o->intervals;
    return iv && iv->lo ? iv : NULL;
}

/* Whether every interval is a point (lo = hi): nature has no choice, the
 * model is the DTMC itself, and an operator the interval solvers lack
 * (LTL, lower step bounds, R of other forms, S) is its value on the DTMC,
 * both the minimum and the maximum. */
static int proper__prism_intervals_are_points(const proper_prism_intervals *iv) {
    uint64_t k;
    for (k = 0; k < iv->n; k++)
        if (iv->lo[k] != iv->hi[k]) return 0;
    return 1;
}

/* Whether operator nd (P or R) on an interval model asks for the largest
 * value: its min or max, or, for a bound, the side that decides it for
 * every choice of nature (as PRISM: P>=b, P>b the minimum; P<=b, P<b the
 * maximum). P=? and R=? are refused, as PRISM refuses them. */
static int proper__prism_interval_dir(proper__prism_checker *C, const proper__prism_node *nd, int *maximise) {
    const char *letter = nd->kind == PROPER__PM_N_PROB ? "P" : "R";
    int dir = (int)nd->num;
    if (!dir && nd->b >= 0) dir = nd->op == PROPER__PM_OP_GE || nd->op == PROPER__PM_OP_GT ? PROPER__PM_MIN : PROPER__PM_MAX;
    if (!dir)
        return proper__prism_cerr(C, nd->line, nd->col, PROPER_EINVAL,
                                  "%s=? on a model with probability intervals: ask for %smin=? or %smax=? (the value "
                                  "depends on how the probabilities are chosen within their intervals)",
                                  letter, letter, letter);
    *maximise = dir == PROPER__PM_MAX;
    return PROPER_OK;
}

/* The smallest value of x over the initial states of d. */
static double proper__prism_init_min(const proper_dtmc *d, const double *x) {
    double lo = INFINITY;
    uint32_t s;
    if (!d->init_dist) return x[d->init];
    for (s = 0; s < d->n_states; s++)
        if (d->init_dist[s] > 0 && x[s] < lo) lo = x[s];
    return lo;
}

/* dtmc.h's unbounded interval solvers ask their precision of the absolute
 * error (or of it relative to the largest value); a solve is repeated (at
 * most PROPER__PM_INTERVAL_RETRIES times) with the precision scaled down
 * to the value at the initial states until its proven error is within the
 * relative precision of that value, as the other solvers give it. Whether
 * to solve again, with so->rel_precision lowered, after attempt k. */
#define PROPER__PM_INTERVAL_RETRIES 3
static int proper__prism_interval_again(const proper__prism_checker *C, const proper_dtmc_solve_stats *st, const double *x,
                                        int k, proper_dtmc_solve_opts *so) {
    double error = C->d->init_dist ? st->max_error : st->init_error;
    double target = C->o->solve.rel_precision * proper__prism_init_min(C->d, x);
    if (k == PROPER__PM_INTERVAL_RETRIES || !(error > target) || !(target > 0) || isinf(error) || isinf(target)) return 0;
    so->rel_precision = target;
    return 1;
}

/* Pmin or Pmax [ phi1 U phi2 ] on an interval model. */
static int proper__prism_interval_until(proper__prism_checker *C, const proper_prism_intervals *iv, const proper__prism_until *u,
                                        int maximise, double *x) {
    proper_dtmc_solve_opts so = C->o->solve;
    proper_dtmc_solve_stats st;
    int rc, k = 0;
    do {
        if ((rc = proper_dtmc_interval_prob_until(C->d, iv->lo, iv->hi, &u->phi1, &u->phi2, maximise, &so, x, &st, C->err)) != 0)
            return rc;
    } while (proper__prism_interval_again(C, &st, x, k++, &so));
    proper__prism_proven(C, &st, 0);
    return PROPER_OK;
}

/* Rmin or Rmax [ F phi ] on an interval model (phi: a state formula). */
static int proper__prism_interval_reward_reach(proper__prism_checker *C, const proper_prism_intervals *iv,
                                               const proper_dtmc_reward *rew, int32_t phi_expr, int maximise, double *x) {
    proper_dtmc_solve_opts so = C->o->solve;
    proper_dtmc_solve_stats st;
    proper_bitset phi;
    int rc, k = 0;
    if ((rc = proper__prism_state_set(C, phi_expr, &phi)) != 0) return rc;
    do {
        rc = proper_dtmc_interval_reward_reach(C->d, iv->lo, iv->hi, rew->state, rew->trans, &phi, maximise, &so, x, &st,
                                               C->err);
    } while (rc == 0 && proper__prism_interval_again(C, &st, x, k++, &so));
    if (rc == 0) proper__prism_proven(C, &st, 0);
    proper_bitset_free(&phi);
    return rc;
}

/* One robust step over the values y of the successors, in every state:
 * the least or largest sum_t p_t (r(s,t) + y_t) + r(s) over the
 * distributions p within the intervals, r the reward structure rew (NULL:
 * none). It is R [ C<=1 ] with transition rewards r(s,t) + y_t, so
 * dtmc.h's cumulative-reward step computes it; y must be finite and >= 0. */
static int proper__prism_interval_step(proper__prism_checker *C, const double *y, const proper_dtmc_reward *rew,
                                       int maximise, double *x) {
    const proper_dtmc *d = C->d;
    const proper_prism_intervals *iv = proper__prism_intervals(C);
    double *t = (double *)proper_calloc((size_t)d->n_trans + 1, sizeof *t);
    uint64_t e;
    int rc;
    if (!t) return proper_error_set(C->err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (e = 0; e < d->n_trans; e++) t[e] = y[d->col[e]] + (rew && rew->trans ? rew->trans[e] : 0);
    rc = proper_dtmc_interval_reward_cumul(d, iv->lo, iv->hi, rew ? rew->state : NULL, t, 1, maximise, x, C->err);
    C->unproven = 1; /* the step's rounding: no bound is reported */
    PROPER_FREE(t);
    return rc;
}

static int proper__prism_interval_path(proper__prism_checker *C, int32_t e, int maximise, double *x);

/* Pmin or Pmax [ X path ] (path a formula with temporal operators): the
 * inner optimum one robust step earlier, as nature may choose the first
 * step knowing the rest (dynamic programming); !(X path) through the
 * other extreme. 0 with *done = 0 when e is not of that form. */
static int proper__prism_interval_next_path(proper__prism_checker *C, int32_t e, int maximise, double *x, int *done) {
    const proper__prism_pool *pool = &C->p->pool;
    const proper__prism_node *nd = &pool->n[e];
    int neg = 0, rc;
    double *y;
    size_t s;
    *done = 0;
    while (nd->kind == PROPER__PM_N_NOT || nd->kind == PROPER__PM_N_FORMULA || nd->kind == PROPER__PM_N_PLABEL) {
        if (nd->kind == PROPER__PM_N_NOT) neg ^= 1;
        nd = &pool->n[nd->a];
    }
    if (nd->kind != PROPER__PM_N_PATH || nd->op != PROPER__PM_T_X || nd->idx >= 0 || nd->c >= 0 ||
        !(pool->n[nd->b].flags & PROPER__PM_F_PATH))
        return PROPER_OK;
    *done = 1;
    if (neg) maximise = !maximise;
    if (!(y = proper__prism_vec_new(C))) return PROPER_ENOMEM;
    if ((rc = proper__prism_interval_path(C, nd->b, maximise, y)) == 0) rc = proper__prism_interval_step(C, y, NULL, maximise, x);
    if (rc == 0 && neg)
        for (s = 0; s < C->d->n_states; s++) x[s] = 1 - x[s];
    PROPER_FREE(y);
    return rc;
}

/* Pmin or Pmax [ ltl ] on an interval model, in every state
 * (proper_ltl_interval_prob: nature's choices and the automaton's jumps
 * in one interval MDP). No bound is reported: the product solve's bound is
 * proven, but that the automaton lets the maximiser reach the true value
 * (completeness) rests on tests, not on a proof (docs/ltl.md), so only
 * Pmax >= value (Pmin <= value) is certain. */
static int proper__prism_interval_ltl(proper__prism_checker *C, const proper_prism_intervals *iv, int32_t e, int maximise,
                                      double *x) {
    proper__prism_ltl L;
    proper_ltl_opts o = proper__prism_ltl_opts(C);
    int rc;
    if ((rc = proper__prism_ltl_of(C, e, &L)) == 0)
        rc = proper_ltl_interval_prob(C->d, iv->lo, iv->hi, &L.f, L.aps, L.n_aps, maximise, &o, x, NULL, C->err);
    C->unproven = 1;
    proper__prism_ltl_free(&L);
    return rc;
}

/* Pmin or Pmax of path formula e on an interval model, in every state: a
 * state formula, one temporal operator (negated ones through the other
 * extreme: Pmin [ G a ] = 1 - Pmax [ F !a ]), or X of a path formula. */
static int proper__prism_interval_path(proper__prism_checker *C, int32_t e, int maximise, double *x) {
    const proper_dtmc *d = C->d;
    const proper_prism_intervals *iv = proper__prism_intervals(C);
    const proper__prism_node *nd = &C->p->pool.n[e];
    proper__prism_until u;
    int rc, done;
    size_t s;
    if (!(nd->flags & PROPER__PM_F_PATH)) return proper__prism_vec(C, e, x);
    if (!proper__prism_is_simple_path(C, e)) {
        if ((rc = proper__prism_interval_next_path(C, e, maximise, x, &done)) != 0 || done) return rc;
        if (proper__prism_intervals_are_points(iv)) return proper__prism_prob_path(C, e, x);
        return proper__prism_interval_ltl(C, iv, e, maximise, x);
    }
    if ((rc = proper__prism_until_form(C, e, &u)) != 0) return rc;
    if (u.neg) maximise = !maximise;
    if (u.next) {
        rc = proper_dtmc_interval_next(d, iv->lo, iv->hi, &u.phi2, maximise, x, C->err);
        C->unproven = 1; /* the step's rounding: no bound is reported */
    } else if (u.lo > 0 && proper__prism_intervals_are_points(iv)) {
        proper__prism_until_free(&u);
        return proper__prism_prob_path(C, e, x);
    } else if (u.lo > 0) { /* as LTL: the window's first steps become X */
        int neg = u.neg;
        proper__prism_until_free(&u);
        return proper__prism_interval_ltl(C, iv, e, neg ? !maximise : maximise, x);
    } else if (u.hi < 0) {
        rc = proper__prism_interval_until(C, iv, &u, maximise, x);
    } else {
        rc = proper_dtmc_interval_prob_bounded_until(d, iv->lo, iv->hi, &u.phi1, &u.phi2, (unsigned long)u.hi, maximise, x,
                                                     C->err);
        C->unproven = 1; /* the steps' rounding: no bound is reported */
    }
    if (rc == 0 && u.neg)
        for (s = 0; s < d->n_states; s++) x[s] = 1 - x[s];
    proper__prism_until_free(&u);
    return rc;
}

/* Pmin or Pmax [ path ] (P node nd) on an interval model, in every state. */
static int proper__prism_interval_prob(proper__prism_checker *C, const proper__prism_node *nd, double *x) {
    int maximise = 0, rc;
    if ((rc = proper__prism_interval_dir(C, nd, &maximise)) != 0) return rc;
    return proper__prism_interval_path(C, nd->a, maximise, x);
}

static int proper__prism_reward_of(proper__prism_checker *C, const proper__prism_node *nd, const proper_dtmc_reward **rew);

/* Path node f is F phi without step bounds, phi a state formula. */
static int proper__prism_is_plain_eventually(const proper__prism_checker *C, const proper__prism_node *f) {
    return f->kind == PROPER__PM_N_PATH && f->op == PROPER__PM_T_F && f->c < 0 && f->idx < 0 &&
           !(C->p->pool.n[f->b].flags & PROPER__PM_F_PATH);
}

/* Rmin or Rmax [ X F phi ] (co-safe: the reward until phi holds at step 1
 * or later): the first step's reward plus R [ F phi ] of the successor,
 * one robust step over R [ F phi ] (finite there, else refused). */
static int proper__prism_interval_reward_next(proper__prism_checker *C, const proper_dtmc_reward *rew, int32_t phi_expr,
                                              int maximise, double *x) {
    double *y = proper__prism_vec_new(C);
    uint32_t s;
    int rc;
    if (!y) return PROPER_ENOMEM;
    rc = proper__prism_interval_reward_reach(C, proper__prism_intervals(C), rew, phi_expr, maximise, y);
    for (s = 0; s < C->d->n_states && rc == 0; s++)
        if (isinf(y[s]))
            rc = proper_error_set(C->err, PROPER_EUNSUPPORTED, NULL, 0, 0,
                                  "R [ X F ... ] on a model with probability intervals where R [ F ... ] is infinite "
                                  "(state %lu) is not supported", (unsigned long)s);
    if (rc == 0) rc = proper__prism_interval_step(C, y, rew, maximise, x);
    PROPER_FREE(y);
    return rc;
}

static int proper__prism_reward(proper__prism_checker *C, const proper__prism_node *nd, double *x);

/* Rmin or Rmax on an interval model: of F phi, X F phi and C<=k (any form
 * when the intervals are points). */
static int proper__prism_interval_reward(proper__prism_checker *C, const proper__prism_node *nd, double *x) {
    const proper_prism_intervals *iv = proper__prism_intervals(C);
    const proper__prism_pool *pool = &C->p->pool;
    const proper__prism_node *f = &pool->n[nd->a];
    const proper_dtmc_reward *rew = NULL;
    long long k;
    int maximise = 0, rc;
    if ((rc = proper__prism_interval_dir(C, nd, &maximise)) != 0 || (rc = proper__prism_reward_of(C, nd, &rew)) != 0)
        return rc;
    if (proper__prism_is_plain_eventually(C, f)) return proper__prism_interval_reward_reach(C, iv, rew, f->b, maximise, x);
    if (f->kind == PROPER__PM_N_PATH && f->op == PROPER__PM_T_X && f->idx < 0 && f->c < 0 &&
        proper__prism_is_plain_eventually(C, &pool->n[f->b]))
        return proper__prism_interval_reward_next(C, rew, pool->n[f->b].b, maximise, x);
    if ((f->kind != PROPER__PM_N_PATH || f->op != PROPER__PM_T_C) && proper__prism_intervals_are_points(iv))
        return proper__prism_reward(C, nd, x);
    if (f->kind != PROPER__PM_N_PATH || f->op != PROPER__PM_T_C)
        return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED,
                                  "R on a model with probability intervals: only F phi, X F phi and C<=k are supported");
    if ((rc = proper__prism_const_int(C, f->c, &k)) != 0) return rc;
    if (k < 0) return proper__prism_cerr(C, f->line, f->col, PROPER_ERANGE, "negative step bound %lld", k);
    if ((unsigned long long)k > C->o->max_steps)
        return proper__prism_cerr(C, f->line, f->col, PROPER_ELIMIT, "step bound %lld is above the limit %lu", k,
                                  C->o->max_steps);
    C->unproven = 1; /* the steps' rounding: no bound is reported */
    return proper_dtmc_interval_reward_cumul(C->d, iv->lo, iv->hi, rew->state, rew->trans, (unsigned long)k, maximise, x,
                                             C->err);
}

/* ---- CTL (E, A) on the graph, as PRISM's NonProbModelChecker ---- */

/* E[ a R b ]: a path with G b, or b U (a & b): the greatest set Z within b
 * whose states satisfy a or have a successor in Z. */
static int proper__prism_exists_release(proper__prism_checker *C, const proper_bitset *a, const proper_bitset *b, double *x) {
    const proper_dtmc *d = C->d;
    uint32_t n = d->n_states, s, *cnt, *pred_row, *pred, *queue, head = 0, tail = 0;
    uint64_t j;
    pred_row = (uint32_t *)proper_calloc((size_t)n + 1, sizeof *pred_row);
    pred = (uint32_t *)proper_calloc((size_t)d->n_trans + 1, sizeof *pred);
    cnt = (uint32_t *)proper_calloc((size_t)n + 1, sizeof *cnt);
    queue = (uint32_t *)proper_calloc((size_t)n + 1, sizeof *queue);
    if (!pred_row || !pred || !cnt || !queue) {
        PROPER_FREE(pred_row);
        PROPER_FREE(pred);
        PROPER_FREE(cnt);
        PROPER_FREE(queue);
        return proper_error_set(C->err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    }
    for (j = 0; j < d->n_trans; j++) pred_row[d->col[j] + 1]++;
    for (s = 0; s < n; s++) pred_row[s + 1] += pred_row[s];
    for (s = 0; s < n; s++)
        for (j = d->row[s]; j < d->row[s + 1]; j++) pred[pred_row[d->col[j]] + cnt[d->col[j]]++] = s;
    for (s = 0; s < n; s++) {
        x[s] = PROPER_BITSET_GET(b, s);
        cnt[s] = 0;
    }
    for (s = 0; s < n; s++)
        for (j = d->row[s]; j < d->row[s + 1]; j++)
            if (x[d->col[j]] != 0) cnt[s]++;
    for (s = 0; s < n; s++)
        if (x[s] != 0 && !PROPER_BITSET_GET(a, s) && cnt[s] == 0) queue[tail++] = s;
    while (head < tail) {
        uint32_t t = queue[head++];
        x[t] = 0;
        for (j = pred_row[t]; j < pred_row[t + 1]; j++) {
            uint32_t q = pred[j];
            if (x[q] != 0 && --cnt[q] == 0 && !PROPER_BITSET_GET(a, q)) queue[tail++] = q;
        }
    }
    PROPER_FREE(pred_row);
    PROPER_FREE(pred);
    PROPER_FREE(cnt);
    PROPER_FREE(queue);
    return PROPER_OK;
}

/* E[ ltl ] and A[ ltl ] = !E[ !ltl ] on the graph (ltl.h's tableau product). */
static int proper__prism_ctl_ltl(proper__prism_checker *C, int32_t e, int forall, double *x) {
    proper__prism_ltl L;
    proper_ltl_opts o = proper__prism_ltl_opts(C);
    proper_bitset out;
    uint32_t s;
    int rc;
    proper_bitset_init(&out);
    if ((rc = proper__prism_ltl_of(C, e, &L)) == 0 &&
        (!forall || (rc = proper_ltl_add(&L.f, PROPER_LTL_NOT, L.f.root, PROPER_LTL_NONE, &L.f.root, C->err)) == 0)) {
        if ((rc = proper_ltl_exists(C->d, &L.f, L.aps, L.n_aps, &o, &out, NULL, C->err)) == 0)
            for (s = 0; s < C->d->n_states; s++) x[s] = PROPER_BITSET_GET(&out, s) != forall;
    }
    proper_bitset_free(&out);
    proper__prism_ltl_free(&L);
    return rc;
}

/* E[path] (forall = 0) or A[path] = !E[!path] (forall = 1), 1 or 0 per state. */
static int proper__prism_ctl(proper__prism_checker *C, const proper__prism_node *nd, int forall, double *x) {
    const proper_dtmc *d = C->d;
    proper__prism_until u;
    proper_bitset z;
    uint32_t s;
    uint64_t j;
    int rc;
    if (!proper__prism_is_simple_path(C, nd->a)) return proper__prism_ctl_ltl(C, nd->a, forall, x);
    if ((rc = proper__prism_until_form(C, nd->a, &u)) != 0) return rc;
    if (u.path->idx >= 0 || u.path->c >= 0) {
        proper__prism_until_free(&u);
        return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED, "bounded CTL operators are not supported");
    }
    u.neg ^= forall;
    if (u.next) { /* E[X b]; E[!X b] = E[X !b] */
        if (u.neg) proper_bitset_not(&u.phi2);
        for (s = 0; s < d->n_states; s++) {
            x[s] = 0;
            for (j = d->row[s]; j < d->row[s + 1]; j++)
                if (PROPER_BITSET_GET(&u.phi2, d->col[j])) x[s] = 1;
        }
    } else if (!u.neg) { /* E[a U b]: b reachable through a */
        proper_bitset_init(&z);
        if ((rc = proper_dtmc_prob0(d, &u.phi1, &u.phi2, &z, C->err)) == 0)
            for (s = 0; s < d->n_states; s++) x[s] = !PROPER_BITSET_GET(&z, s);
        proper_bitset_free(&z);
    } else { /* E[!(a U b)] = E[!a R !b] */
        proper_bitset_not(&u.phi1);
        proper_bitset_not(&u.phi2);
        rc = proper__prism_exists_release(C, &u.phi1, &u.phi2, x);
    }
    if (rc == 0 && forall)
        for (s = 0; s < d->n_states; s++) x[s] = x[s] == 0;
    proper__prism_until_free(&u);
    return rc;
}

/* ---- Rewards ---- */

/* The reward structure of R{"name"}, R{k} or R (the first). */
static int proper__prism_reward_of(proper__prism_checker *C, const proper__prism_node *nd, const proper_dtmc_reward **rew) {
    const proper_dtmc *d = C->d;
    long r = 0;
    int rc;
    if (nd->idx >= 0) {
        r = proper_dtmc_find_reward(d, C->p->names.names[nd->idx]);
        if (r < 0)
            return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNDEFINED, "the model has no reward structure \"%s\"",
                                      C->p->names.names[nd->idx]);
    } else if (nd->c >= 0) {
        long long k;
        if ((rc = proper__prism_const_int(C, nd->c, &k)) != 0) return rc;
        if (k < 1 || (size_t)k > d->n_rewards)
            return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNDEFINED, "the model has no reward structure %lld", k);
        r = (long)k - 1;
    } else if (d->n_rewards == 0) {
        return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNDEFINED, "the model has no reward structure");
    }
    *rew = &d->rewards[r];
    return PROPER_OK;
}

/* Expected reward of one step from each state: its state reward plus the
 * probability-weighted transition rewards. */
static void proper__prism_step_reward(const proper_dtmc *d, const proper_dtmc_reward *rew, double *r) {
    uint32_t s;
    uint64_t j;
    for (s = 0; s < d->n_states; s++) {
        r[s] = rew->state ? rew->state[s] : 0;
        if (rew->trans)
            for (j = d->row[s]; j < d->row[s + 1]; j++) r[s] += d->prob[j] * rew->trans[j];
    }
}

/* R=? [ C ]: the reward until a bottom component is entered, infinite from
 * states that reach (with positive probability) a bottom component where
 * some step earns a positive reward (exactly so: found on the graph). st
 * (NULL: not wanted) receives the proven bound of the reachability solve
 * that gives the finite values. */
static int proper__prism_total_reward(proper__prism_checker *C, const proper_dtmc *d, const proper_dtmc_reward *rew,
                                      double *x, proper_dtmc_solve_stats *st, int *covered) {
    uint32_t n = d->n_states, nb = 0, s, *bscc = (uint32_t *)proper_calloc((size_t)n + 1, sizeof *bscc);
    unsigned char *pos = NULL;
    double *r = proper__prism_vec_new(C);
    proper_bitset bottom, positive, zero;
    int rc;
    proper_bitset_init(&bottom);
    proper_bitset_init(&positive);
    proper_bitset_init(&zero);
    if (!bscc || !r) {
        rc = proper_error_set(C->err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    proper__prism_step_reward(d, rew, r);
    if ((rc = proper_dtmc_bscc(d, bscc, &nb, C->err)) != 0) goto done;
    if (!(pos = (unsigned char *)proper_calloc((size_t)nb + 1, 1))) {
        rc = proper_error_set(C->err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    for (s = 0; s < n; s++)
        if (bscc[s] != UINT32_MAX && r[s] > 0) pos[bscc[s]] = 1;
    if ((rc = proper_bitset_create(&bottom, n, C->err)) != 0 || (rc = proper_bitset_create(&positive, n, C->err)) != 0) goto done;
    for (s = 0; s < n; s++)
        if (bscc[s] != UINT32_MAX) {
            proper_bitset_set(&bottom, s);
            if (pos[bscc[s]]) proper_bitset_set(&positive, s);
        }
    if ((rc = proper_dtmc_prob0(d, NULL, &positive, &zero, C->err)) != 0) goto done;
    {
        int k = 0;
        proper_dtmc_solve_opts so = proper__prism_model_opts(C, C->rel_reward, covered);
        do rc = proper_dtmc_reward_reach(d, rew, &bottom, &so, x, st, C->err);
        while (proper__prism_loosen(rc, &so, &k));
        if (rc != 0) goto done;
    }
    for (s = 0; s < n; s++)
        if (!PROPER_BITSET_GET(&zero, s)) x[s] = INFINITY;
done:
    proper_bitset_free(&bottom);
    proper_bitset_free(&positive);
    proper_bitset_free(&zero);
    PROPER_FREE(bscc);
    PROPER_FREE(pos);
    PROPER_FREE(r);
    return rc;
}

/* A CTMC's total reward (path -1): the bottom components and which of them
 * earn are found on its graph, and the finite values come from dtmc.h's
 * reachability reward of the CTMC (on its jump chain, whose rounding the
 * bound then covers). The reward of a co-safe LTL formula (path node): on
 * the embedded DTMC (its steps are the ones the formula reads), each state
 * reward rate earned for the mean sojourn 1/E(s) of a visit and transition
 * rewards per transition taken. */
static int proper__prism_ctmc_reward(proper__prism_checker *C, const proper_dtmc_reward *rew, int32_t path, double *x) {
    const proper_dtmc *d = C->d;
    proper_dtmc emb;
    proper_dtmc_reward scaled;
    double *exit, *state;
    uint32_t s;
    int rc;
    if (path < 0) {
        proper_dtmc_solve_stats st;
        int covered;
        if ((rc = proper__prism_total_reward(C, d, rew, x, &st, &covered)) == 0) proper__prism_proven(C, &st, covered);
        return rc;
    }
    exit = proper__prism_vec_new(C);
    state = proper__prism_vec_new(C);
    proper_dtmc_init(&emb);
    if (!exit || !state) {
        PROPER_FREE(exit);
        PROPER_FREE(state);
        return PROPER_ENOMEM;
    }
    proper_dtmc_exit_rates(d, exit);
    for (s = 0; s < d->n_states; s++) state[s] = rew->state ? rew->state[s] / exit[s] : 0;
    scaled = *rew;
    scaled.state = state;
    if ((rc = proper_dtmc_embedded(d, &emb, C->err)) == 0) {
        if (emb.n_trans != d->n_trans) /* the transitions' rewards are aligned with the CTMC's */
            rc = proper_error_set(C->err, PROPER_EINVAL, NULL, 0, 0, "the embedded DTMC has other transitions than the CTMC");
        else
            rc = proper__prism_reward_ltl(C, &emb, &scaled, path, x);
    }
    proper_dtmc_free(&emb);
    PROPER_FREE(exit);
    PROPER_FREE(state);
    return rc;
}

static int proper__prism_reward(proper__prism_checker *C, const proper__prism_node *nd, double *x) {
    const proper_dtmc *d = C->d;
    const proper__prism_node *f = &C->p->pool.n[nd->a];
    const proper_dtmc_reward *rew = NULL;
    long long k = 0;
    proper_bitset phi;
    proper_dtmc_solve_stats st;
    proper_dtmc_solve_opts so;
    int rc, covered, tries = 0;
    if ((rc = proper__prism_reward_of(C, nd, &rew)) != 0) return rc;
    if (f->kind != PROPER__PM_N_PATH || (f->op != PROPER__PM_T_F && f->op < PROPER__PM_T_C) ||
        (f->op == PROPER__PM_T_F && (f->c >= 0 || f->idx >= 0 || (C->p->pool.n[f->b].flags & PROPER__PM_F_PATH))))
        return d->kind == PROPER_DTMC_KIND_CTMC ? proper__prism_ctmc_reward(C, rew, nd->a, x)
                                                : proper__prism_reward_ltl(C, C->d, rew, nd->a, x); /* co-safe LTL */
    switch (f->op) {
    case PROPER__PM_T_F:
        if ((rc = proper__prism_state_set(C, f->b, &phi)) != 0) return rc;
        so = proper__prism_model_opts(C, C->rel_reward, &covered);
        do rc = proper_dtmc_reward_reach(d, rew, &phi, &so, x, &st, C->err);
        while (proper__prism_loosen(rc, &so, &tries));
        if (rc == 0) proper__prism_proven(C, &st, covered);
        proper_bitset_free(&phi);
        return rc;
    case PROPER__PM_T_TOTAL:
        if (d->kind == PROPER_DTMC_KIND_CTMC) return proper__prism_ctmc_reward(C, rew, -1, x);
        if ((rc = proper__prism_total_reward(C, d, rew, x, &st, &covered)) == 0) proper__prism_proven(C, &st, covered);
        return rc;
    case PROPER__PM_T_LRA: /* a CTMC's: of its uniformised chain, covered by proper__prism_ctmc_steady_covers */
        so = proper__prism_model_opts(C, d->kind == PROPER_DTMC_KIND_CTMC ? -1.0 : C->rel_reward, &covered);
        do rc = proper_dtmc_reward_steady_stats(d, rew, &so, x, &st, C->err);
        while (proper__prism_loosen(rc, &so, &tries));
        if (rc == 0 && d->kind == PROPER_DTMC_KIND_CTMC) covered = proper__prism_ctmc_steady_covers(C, &st, x, C->rel_reward);
        if (rc == 0) proper__prism_proven(C, &st, covered);
        return rc;
    default:
        if (d->kind == PROPER_DTMC_KIND_CTMC) {
            double t;
            if ((rc = proper__prism_const_double(C, f->c, &t)) != 0) return rc;
            if (!(t >= 0)) return proper__prism_cerr(C, f->line, f->col, PROPER_ERANGE, "negative time bound %g", t);
            rc = f->op == PROPER__PM_T_C ? proper_dtmc_ctmc_reward_cumulative_stats(d, rew, t, &C->o->solve, x, &st, C->err)
                                         : proper_dtmc_ctmc_reward_instant_stats(d, rew, t, &C->o->solve, x, &st, C->err);
            if (rc == 0) proper__prism_proven(C, &st, proper__prism_reward_covers(C, rew, &st, t, f->op == PROPER__PM_T_C));
            return rc;
        }
        if ((rc = proper__prism_const_int(C, f->c, &k)) != 0) return rc;
        if (k < 0) return proper__prism_cerr(C, f->line, f->col, PROPER_ERANGE, "negative step bound %lld", k);
        if ((unsigned long long)k > C->o->max_steps)
            return proper__prism_cerr(C, f->line, f->col, PROPER_ELIMIT, "step bound %lld is above the limit %lu", k,
                                      C->o->max_steps);
        rc = f->op == PROPER__PM_T_C ? proper_dtmc_reward_cumulative_stats(d, rew, (unsigned long)k, x, &st, C->err)
                                     : proper_dtmc_reward_instant_stats(d, rew, (unsigned long)k, x, &st, C->err);
        if (rc == 0) proper__prism_proven(C, &st, proper__prism_reward_covers(C, rew, &st, (double)k, f->op == PROPER__PM_T_C));
        return rc;
    }
}

/* Most states of a model whose bound the doubles cannot decide (a value
 * within the solver's precision of it) is decided exactly instead. */
#ifndef PROPER_PRISM_TIE_EXACT_STATES
#define PROPER_PRISM_TIE_EXACT_STATES 200
#endif

static int proper__prism_xoperator(proper__prism_checker *C, const proper_exact_dtmc *e, const proper__prism_node *nd,
                                   proper_exact_vec *x);
static int proper__prism_xapply_bound(proper__prism_checker *C, const proper__prism_node *nd, proper_exact_vec *x);

/* The bound of operator nd decided exactly in every state (x: 1 or 0),
 * through the model's exact companion (literals as written: 0.98 is
 * 49/50): for a small DTMC built from the properties' model whose exact
 * companion can be built. Nonzero otherwise (x untouched, C->err as it
 * was): the caller's refusal stands. */
static int proper__prism_bound_exactly(proper__prism_checker *C, const proper__prism_node *nd, double *x) {
    proper_exact_dtmc e;
    proper_exact_vec v;
    proper_error scratch, *saved = C->err;
    uint32_t s;
    int rc;
    if (!C->p->m || C->d->n_states > PROPER_PRISM_TIE_EXACT_STATES || C->d->kind == PROPER_DTMC_KIND_CTMC ||
        (C->o->intervals && C->o->intervals->n))
        return PROPER_EUNSUPPORTED;
    proper_exact_dtmc_init(&e);
    proper_exact_vec_init(&v);
    proper_error_clear(&scratch);
    C->err = &scratch;
    rc = proper_prism_build_exact(C->p->m, C->d, NULL, 0, &e, &scratch);
    if (!rc) rc = proper__prism_xoperator(C, &e, nd, &v);
    if (!rc) rc = proper__prism_xapply_bound(C, nd, &v);
    if (!rc && (v.n != C->d->n_states || !v.q)) rc = PROPER_EUNSUPPORTED;
    for (s = 0; !rc && s < C->d->n_states; s++) x[s] = proper_rat_is_zero(&v.q[s]) ? 0 : 1;
    C->err = saved;
    proper_exact_vec_free(&v);
    proper_exact_dtmc_free(&e);
    return rc;
}

/* Compare with the bound of P>=b and the like: 1 or 0 per state. A value
 * within the solver's relative precision of the bound cannot decide it in
 * doubles (0 and 1 are exact: the graph precomputation sets them): a small
 * model decides it exactly (proper__prism_bound_exactly), else it is
 * refused (PROPER_ENOCONV). */
static int proper__prism_apply_bound(proper__prism_checker *C, const proper__prism_node *nd, double *x) {
    const proper__prism_node *bn = &C->p->pool.n[nd->b];
    proper__prism_val v;
    double b;
    size_t s;
    int rc;
    if ((rc = proper__prism_eval_at(C, nd->b, 0, &v)) != 0) return rc;
    b = proper__prism_as_double(bn->type, v);
    if (nd->kind != PROPER__PM_N_REWARD && !(b >= 0 && b <= 1))
        return proper__prism_cerr(C, bn->line, bn->col, PROPER_ERANGE, "probability bound %g is not in [0, 1]", b);
    for (s = 0; s < C->d->n_states; s++) {
        double y = x[s];
        if (fabs(y - b) <= C->o->solve.rel_precision * fabs(b) && !(y == b && (b == 0 || b == 1))) {
            if (proper__prism_bound_exactly(C, nd, x) == PROPER_OK) return PROPER_OK;
            return proper__prism_cerr(C, nd->line, nd->col, PROPER_ENOCONV,
                                      "cannot decide the bound %g: the value %.17g is within the accuracy (relative %g) "
                                      "of it", b, y, C->o->solve.rel_precision);
        }
    }
    for (s = 0; s < C->d->n_states; s++) {
        double y = x[s];
        x[s] = nd->op == PROPER__PM_OP_LT ? y < b : nd->op == PROPER__PM_OP_LE ? y <= b : nd->op == PROPER__PM_OP_GT ? y > b : y >= b;
    }
    return PROPER_OK;
}

/* ---- Filters ---- */

/* filter(op, a, states): PRISM's StateModelChecker.checkExpressionFilter.
 * Single-valued operators fill x with their value; argmin/argmax give the
 * states attaining it; print, printall and range leave the operand's values
 * (a range's ends go to C->range_lo/hi). */
static int proper__prism_filter(proper__prism_checker *C, const proper__prism_node *nd, double *x) {
    const proper_dtmc *d = C->d;
    uint32_t n = d->n_states, s, first = UINT32_MAX, count = 0;
    double *in = proper__prism_vec_new(C), lo = INFINITY, hi = -INFINITY, sum = 0, value = 0;
    size_t truths = 0;
    int rc, op = nd->op;
    if (!in) return PROPER_ENOMEM;
    if (nd->b >= 0) rc = proper__prism_vec(C, nd->b, in);
    else {
        for (s = 0; s < n; s++) in[s] = 1;
        rc = PROPER_OK;
    }
    if (rc == 0) rc = proper__prism_vec(C, nd->a, x);
    if (rc) {
        PROPER_FREE(in);
        return rc;
    }
    for (s = 0; s < n; s++) {
        if (in[s] == 0) continue;
        if (first == UINT32_MAX) first = s;
        count++;
        if (x[s] < lo) lo = x[s];
        if (x[s] > hi) hi = x[s];
        sum += x[s];
        truths += x[s] != 0;
    }
    if (count == 0) {
        PROPER_FREE(in);
        return proper__prism_cerr(C, nd->line, nd->col, PROPER_EINVAL, "filter satisfies no states");
    }
    if (op == PROPER__PM_FL_STATE && count != 1) {
        PROPER_FREE(in);
        return proper__prism_cerr(C, nd->line, nd->col, PROPER_EINVAL,
                                  "filter should be satisfied in exactly 1 state (it is in %lu)", (unsigned long)count);
    }
    switch (op) {
    case PROPER__PM_FL_MIN: value = lo; break;
    case PROPER__PM_FL_MAX: value = hi; break;
    case PROPER__PM_FL_COUNT: value = (double)truths; break;
    case PROPER__PM_FL_SUM: value = sum; break;
    case PROPER__PM_FL_AVG: value = sum / count; break;
    case PROPER__PM_FL_FIRST: case PROPER__PM_FL_STATE: value = x[first]; break;
    case PROPER__PM_FL_FORALL: value = truths == count; break;
    case PROPER__PM_FL_EXISTS: value = truths > 0; break;
    case PROPER__PM_FL_ARGMIN: case PROPER__PM_FL_ARGMAX: {
        double m = op == PROPER__PM_FL_ARGMIN ? lo : hi;
        for (s = 0; s < n; s++) x[s] = in[s] != 0 && x[s] == m;
        break;
    }
    case PROPER__PM_FL_RANGE:
        C->range_lo = lo;
        C->range_hi = hi;
        break;
    default: break; /* print, printall: the values themselves */
    }
    if (op != PROPER__PM_FL_ARGMIN && op != PROPER__PM_FL_ARGMAX && op != PROPER__PM_FL_RANGE && op != PROPER__PM_FL_PRINT &&
        op != PROPER__PM_FL_PRINTALL)
        for (s = 0; s < n; s++) x[s] = value;
    PROPER_FREE(in);
    return PROPER_OK;
}

/* ---- Operators and expressions ---- */

static int proper__prism_is_operator(int kind) {
    return kind == PROPER__PM_N_PROB || kind == PROPER__PM_N_REWARD || kind == PROPER__PM_N_STEADY ||
           kind == PROPER__PM_N_EXISTS || kind == PROPER__PM_N_FORALL || kind == PROPER__PM_N_FILTER ||
           kind == PROPER__PM_N_PROPREF;
}

/* The value of operator node e in every state. */
static int proper__prism_operator(proper__prism_checker *C, int32_t e, double *x) {
    const proper__prism_node *nd = &C->p->pool.n[e];
    proper_bitset phi;
    int rc;
    if (proper__prism_intervals(C) && nd->kind == PROPER__PM_N_STEADY &&
        !proper__prism_intervals_are_points(proper__prism_intervals(C)))
        return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED,
                                  "S on a model with probability intervals is not supported");
    switch (nd->kind) {
    case PROPER__PM_N_PROB:
        rc = proper__prism_intervals(C) ? proper__prism_interval_prob(C, nd, x) : proper__prism_prob_path(C, nd->a, x);
        break;
    case PROPER__PM_N_REWARD:
        rc = proper__prism_intervals(C) ? proper__prism_interval_reward(C, nd, x) : proper__prism_reward(C, nd, x);
        break;
    case PROPER__PM_N_STEADY: {
        proper_dtmc_solve_stats st;
        int covered, k = 0; /* a CTMC's: of its uniformised chain, covered by proper__prism_ctmc_steady_covers */
        proper_dtmc_solve_opts so = proper__prism_model_opts(C, C->d->kind == PROPER_DTMC_KIND_CTMC ? -1.0 : C->rel_prob, &covered);
        if ((rc = proper__prism_state_set(C, nd->a, &phi)) != 0) return rc;
        do rc = proper_dtmc_steady_stats(C->d, &phi, &so, x, &st, C->err);
        while (proper__prism_loosen(rc, &so, &k));
        if (rc == 0 && C->d->kind == PROPER_DTMC_KIND_CTMC) covered = proper__prism_ctmc_steady_covers(C, &st, x, 0.0);
        if (rc == 0) proper__prism_proven(C, &st, covered);
        proper_bitset_free(&phi);
        break;
    }
    case PROPER__PM_N_EXISTS: case PROPER__PM_N_FORALL:
        return proper__prism_ctl(C, nd, nd->kind == PROPER__PM_N_FORALL, x);
    case PROPER__PM_N_FILTER: return proper__prism_filter(C, nd, x);
    default: /* a property reference */
        if (C->busy[nd->idx])
            return proper__prism_cerr(C, nd->line, nd->col, PROPER_EINVAL, "property \"%s\" refers to itself",
                                      C->p->props[nd->idx].name);
        C->busy[nd->idx] = 1;
        rc = proper__prism_vec(C, C->p->props[nd->idx].expr, x);
        C->busy[nd->idx] = 0;
        return rc;
    }
    if (rc == 0 && nd->b >= 0) rc = proper__prism_apply_bound(C, nd, x);
    return rc;
}

/* Compute (once) every operator inside expression e. */
static int proper__prism_prepare(proper__prism_checker *C, int32_t e) {
    const proper__prism_node *nd;
    double *x;
    int rc;
    if (e < 0) return PROPER_OK;
    nd = &C->p->pool.n[e];
    if (!(nd->flags & PROPER__PM_F_OPS)) return PROPER_OK;
    if (proper__prism_is_operator(nd->kind)) {
        if (C->opvals[e]) return PROPER_OK;
        if (!(x = proper__prism_vec_new(C))) return PROPER_ENOMEM;
        if ((rc = proper__prism_operator(C, e, x)) != 0) {
            PROPER_FREE(x);
            return rc;
        }
        C->opvals[e] = x;
        return PROPER_OK;
    }
    if (nd->kind == PROPER__PM_N_FORMULA || nd->kind == PROPER__PM_N_PLABEL) return proper__prism_prepare(C, nd->a);
    if ((rc = proper__prism_prepare(C, nd->a)) != 0 || (rc = proper__prism_prepare(C, nd->b)) != 0) return rc;
    return proper__prism_prepare(C, nd->c);
}

/* Value of expression e (with operators) in every state. */
static int proper__prism_vec(proper__prism_checker *C, int32_t e, double *x) {
    int rc = proper__prism_prepare(C, e);
    if (rc) return rc;
    if (C->opvals[e]) {
        memcpy(x, C->opvals[e], C->d->n_states * sizeof *x);
        return PROPER_OK;
    }
    return proper__prism_eval_states(C, e, x);
}

/* The result of property pr, as PRISM reports it: a filter that gives one
 * value gives it; otherwise (PRISM's default filter) a boolean must hold in
 * every initial state, and a number is its value in the initial state, or
 * the range of its values over several initial states. */
static int proper__prism_result(proper__prism_checker *C, const proper__prism_prop *pr, double *x, proper_prism_result *res) {
    const proper__prism_node *nd = &C->p->pool.n[pr->expr];
    const proper_dtmc *d = C->d;
    proper_bitset init;
    size_t s, k = 0;
    int rc;
    proper_bitset_init(&init);
    if (!proper__prism_is_operator(nd->kind) && (nd->flags & PROPER__PM_F_STATE)) {
        /* an expression over the state (and operators, computed everywhere):
         * evaluated in the initial states only, the states of interest
         * (PRISM's ints wrap elsewhere; an overflow there is no error of the
         * result) */
        proper__prism_val v;
        if ((rc = proper_dtmc_label_get(d, "init", &init, C->err)) != 0 || (rc = proper__prism_prepare(C, pr->expr)) != 0 ||
            (rc = proper__prism_load_labels(C, pr->expr)) != 0) {
            proper_bitset_free(&init);
            return rc;
        }
        for (s = 0; s < d->n_states && rc == 0; s++)
            if (PROPER_BITSET_GET(&init, s) && (rc = proper__prism_eval_at(C, pr->expr, s, &v)) == 0)
                x[s] = proper__prism_as_double(nd->type, v);
        proper_bitset_free(&init);
    } else {
        rc = proper__prism_vec(C, pr->expr, x);
    }
    if (rc) return rc;
    res->type = pr->type;
    res->error_bound = -1;
    res->covers_model = 0;
    { /* one P=? or R=? operator, one solve that proved its bound */
        const proper__prism_node *top = nd;
        while (top->kind == PROPER__PM_N_FORMULA || top->kind == PROPER__PM_N_PLABEL) top = &C->p->pool.n[top->a];
        if ((top->kind == PROPER__PM_N_PROB || top->kind == PROPER__PM_N_REWARD || top->kind == PROPER__PM_N_STEADY) &&
            top->op == PROPER__PM_QUERY && C->n_proven == 1 && !C->unproven && C->proven < INFINITY) {
            res->error_bound = C->proven;
            res->covers_model = !C->uncovered;
        }
    }
    if (nd->kind == PROPER__PM_N_FILTER && nd->op == PROPER__PM_FL_RANGE) {
        res->value = C->range_lo;
        res->hi = C->range_hi;
        return PROPER_OK;
    }
    if (!(nd->flags & PROPER__PM_F_STATE) ||
        (nd->kind == PROPER__PM_N_FILTER && nd->op != PROPER__PM_FL_ARGMIN && nd->op != PROPER__PM_FL_ARGMAX &&
         nd->op != PROPER__PM_FL_PRINT && nd->op != PROPER__PM_FL_PRINTALL)) {
        res->value = res->hi = x[0];
        return PROPER_OK;
    }
    proper_bitset_init(&init);
    if ((rc = proper_dtmc_label_get(d, "init", &init, C->err)) != 0) return rc;
    res->value = pr->type == PROPER_PRISM_BOOL ? 1 : INFINITY;
    res->hi = -INFINITY;
    for (s = 0; s < d->n_states; s++) {
        if (!PROPER_BITSET_GET(&init, s)) continue;
        k++;
        if (pr->type == PROPER_PRISM_BOOL) {
            if (x[s] == 0) res->value = 0;
        } else {
            if (x[s] < res->value || k == 1) res->value = x[s];
            if (x[s] > res->hi || k == 1) res->hi = x[s];
        }
    }
    proper_bitset_free(&init);
    if (pr->type == PROPER_PRISM_BOOL || k == 0) res->hi = res->value;
    if (k == 0) return proper_error_set(C->err, PROPER_EINVAL, NULL, 0, 0, "the model has no initial state");
    return PROPER_OK;
}

/* Check property i; x (n_states values) gets its values in every state. */
static int proper__prism_check(const proper_prism_props *p, size_t i, const proper_dtmc *d,
                               const proper_prism_check_opts *opts, double *x, proper_prism_result *res, proper_error *err) {
    proper__prism_checker C;
    proper_prism_check_opts defaults;
    proper_prism_result local;
    int rc;
    if (i >= p->n_props) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no property %lu", (unsigned long)i);
    if (d->n_states == 0) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "the model has no states");
    if (!opts) {
        defaults = proper_prism_check_opts_default();
        opts = &defaults;
    }
    if ((rc = proper__prism_checker_init(&C, p, d, opts, err)) == 0)
        rc = proper__prism_result(&C, &p->props[i], x, res ? res : &local);
    proper__prism_checker_free(&C);
    return rc;
}

PROPER_API int proper_prism_props_check_states(const proper_prism_props *p, size_t i, const proper_dtmc *d,
                                               const proper_prism_check_opts *opts, double *x, proper_error *err) {
    return proper__prism_check(p, i, d, opts, x, NULL, err);
}

PROPER_API int proper_prism_props_result(const proper_prism_props *p, size_t i, const proper_dtmc *d,
                                         const proper_prism_check_opts *opts, proper_prism_result *res, proper_error *err) {
    double *x = (double *)proper_calloc((size_t)d->n_states + 1, sizeof *x);
    int rc;
    if (!x) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    rc = proper__prism_check(p, i, d, opts, x, res, err);
    PROPER_FREE(x);
    return rc;
}

PROPER_API int proper_prism_props_check(const proper_prism_props *p, size_t i, const proper_dtmc *d,
                                        const proper_prism_check_opts *opts, double *value, proper_error *err) {
    proper_prism_result res;
    int rc = proper_prism_props_result(p, i, d, opts, &res, err);
    if (rc) return rc;
    if (!(res.value == res.hi) && !(res.value != res.value))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "property %lu has a range of values [%.17g, %.17g] (several initial states): read it "
                                "with proper_prism_props_result", (unsigned long)i + 1, res.value, res.hi);
    *value = res.value;
    return PROPER_OK;
}

/* ---- Properties for a tool that gets the model as explicit files ---------- */

/* A value as a PRISM literal of its type: an int, true/false, or a double
 * that reads back as the same double, kept a double by a '.' or an
 * exponent (PRISM types "4" as an int); infinities and NaN as 1.0/0.0,
 * -1.0/0.0 and 0.0/0.0 (PRISM divides doubles as Java does). */
static void proper__prism_print_value(proper_strbuf *out, int type, proper__prism_val v) {
    char buf[PROPER_DOUBLE_CHARS];
    if (type == PROPER_PRISM_INT) proper_strbuf_printf(out, v.i < 0 ? "(%lld)" : "%lld", v.i);
    else if (type == PROPER_PRISM_BOOL) proper_strbuf_puts(out, v.i ? "true" : "false");
    else if (v.d != v.d) proper_strbuf_puts(out, "(0.0/0.0)");
    else if (isinf(v.d)) proper_strbuf_puts(out, v.d > 0 ? "(1.0/0.0)" : "(-1.0/0.0)");
    else {
        proper_format_double(buf, v.d);
        proper_strbuf_printf(out, v.d < 0 ? "(%s%s)" : "%s%s", buf, strpbrk(buf, ".e") ? "" : ".0");
    }
}

/* Node e of the model's pool (a formula's body: no labels, no operators)
 * as PRISM text, fully parenthesised, constants as their values (C->cv)
 * and formulas expanded. */
static void proper__prism_print_model_expr(const proper__prism_checker *C, int32_t e, proper_strbuf *out) {
    static const char *const fns[] = {"min", "max", "floor", "ceil", "round", "pow", "mod", "log"};
    static const char *const ops[] = {"+", "-", "*", "/", "^", "=", "!=", "<", "<=", ">", ">=", "&", "|", "=>", "<=>"};
    const proper_prism_model *m = C->p->m;
    const proper__prism_node *nd = &m->pool.n[e];
    proper__prism_val v;
    switch (nd->kind) {
    case PROPER__PM_N_INT: case PROPER__PM_N_BOOL: case PROPER__PM_N_DOUBLE:
        v.i = (long long)nd->num;
        v.d = nd->num;
        proper__prism_print_value(out, nd->kind == PROPER__PM_N_INT ? PROPER_PRISM_INT
                                       : nd->kind == PROPER__PM_N_BOOL ? PROPER_PRISM_BOOL : PROPER_PRISM_DOUBLE, v);
        return;
    case PROPER__PM_N_VAR: proper_strbuf_puts(out, m->names.names[m->vars[nd->idx].sym]); return;
    case PROPER__PM_N_CONST: proper__prism_print_value(out, m->consts[nd->idx].type, C->cv[nd->idx]); return;
    case PROPER__PM_N_FORMULA: proper__prism_print_model_expr(C, nd->a, out); return;
    case PROPER__PM_N_NEG: case PROPER__PM_N_NOT:
        proper_strbuf_puts(out, nd->kind == PROPER__PM_N_NEG ? "-(" : "!(");
        proper__prism_print_model_expr(C, nd->a, out);
        proper_strbuf_puts(out, ")");
        return;
    case PROPER__PM_N_ITE:
        proper_strbuf_puts(out, "(");
        proper__prism_print_model_expr(C, nd->a, out);
        proper_strbuf_puts(out, " ? ");
        proper__prism_print_model_expr(C, nd->b, out);
        proper_strbuf_puts(out, " : ");
        proper__prism_print_model_expr(C, nd->c, out);
        proper_strbuf_puts(out, ")");
        return;
    case PROPER__PM_N_FUNC:
        proper_strbuf_printf(out, "%s(", fns[nd->op]);
        proper__prism_print_model_expr(C, nd->a, out);
        if (nd->b >= 0) {
            proper_strbuf_puts(out, ", ");
            proper__prism_print_model_expr(C, nd->b, out);
        }
        proper_strbuf_puts(out, ")");
        return;
    default: /* BIN, XCMP */
        proper_strbuf_puts(out, "(");
        proper__prism_print_model_expr(C, nd->a, out);
        proper_strbuf_printf(out, " %s ", ops[nd->op]);
        proper__prism_print_model_expr(C, nd->b, out);
        proper_strbuf_puts(out, ")");
        return;
    }
}

/* The properties text rewritten token by token (proper_prism_props_standalone). */
typedef struct proper__prism_standalone {
    const proper__prism_checker *C;
    const proper__prism_tok *t; /* the tokens, the last one EOF */
    size_t n;
    size_t *body;               /* properties formula i: its body's first token (its end: the ';') */
    proper_strbuf *out;
    proper_error *err;
} proper__prism_standalone;

/* The blanks and comments before token k as their line breaks, or one
 * blank when they have none (inside an expanded formula, flat: always one
 * blank): the tool needs no comments (a comment may hold any byte, a NUL
 * included), and the rest of the text keeps its line numbers. */
static void proper__prism_standalone_gap(proper__prism_standalone *S, size_t k, int flat) {
    const char *a = S->t[k].gap, *b = S->t[k].p - (S->t[k].kind == PROPER__PM_TK_STRING);
    int breaks = 0;
    if (a >= b) return;
    for (; a < b && !flat; a++)
        if (*a == '\n') {
            proper_strbuf_puts(S->out, "\n");
            breaks++;
        }
    if (!breaks) proper_strbuf_puts(S->out, " ");
}

static int proper__prism_standalone_range(proper__prism_standalone *S, size_t from, size_t to, int top);

/* A constant's value in place of identifier token k, then a blank when the
 * next token is a number that starts with its point right after the name:
 * "K.2" is K and .2, but "7.2" one number. (A letter or a digit right after
 * a name is part of it, and "1K" is a malformed number, so no other
 * neighbour can merge with a value.) */
static void proper__prism_standalone_value(proper__prism_standalone *S, size_t k, int type, proper__prism_val v) {
    const proper__prism_tok *next = &S->t[k + 1];
    proper__prism_print_value(S->out, type, v);
    if (next->kind != PROPER__PM_TK_EOF && next->gap == next->p && next->p[0] == '.') proper_strbuf_puts(S->out, " ");
}

/* Identifier token k: a constant becomes its value, a formula its body in
 * parentheses; *done = 0 leaves it as written (a variable, a keyword). */
static int proper__prism_standalone_ident(proper__prism_standalone *S, size_t k, int *done) {
    const proper__prism_checker *C = S->C;
    const proper_prism_props *p = C->p;
    const proper_prism_model *m = p->m;
    const proper__prism_tok *t = &S->t[k];
    int32_t sym = proper__prism_names_find(&p->names, t->p, t->len), f;
    int rc;
    *done = 1;
    if (sym >= 0 && p->sym_const[sym] >= 0) {
        if (C->pmiss[p->sym_const[sym]])
            return proper_error_set(S->err, PROPER_EUNDEFINED, p->file[0] ? p->file : NULL, t->line, t->col,
                                    "constant '%.*s' has no value (give it with --const)", (int)t->len, t->p);
        proper__prism_standalone_value(S, k, p->consts[p->sym_const[sym]].type, C->pcv[p->sym_const[sym]]);
    } else if (sym >= 0 && (f = p->sym_formula[sym]) >= 0) {
        proper_strbuf_puts(S->out, "(");
        if ((rc = proper__prism_standalone_range(S, S->body[f], S->body[f + p->n_formulas], 0)) != 0) return rc;
        proper_strbuf_puts(S->out, ")");
    } else if (m && (sym = proper__prism_names_find(&m->names, t->p, t->len)) >= 0 && m->sym_const[sym] >= 0) {
        proper__prism_standalone_value(S, k, m->consts[m->sym_const[sym]].type, C->cv[m->sym_const[sym]]);
    } else if (m && sym >= 0 && m->sym_formula[sym] >= 0) {
        proper_strbuf_puts(S->out, "(");
        proper__prism_print_model_expr(C, m->formulas[m->sym_formula[sym]].expr, S->out);
        proper_strbuf_puts(S->out, ")");
    } else {
        *done = 0;
    }
    return PROPER_OK;
}

/* Tokens [from, to) into S->out. At the top level (the whole text) the
 * const and formula declarations go, leaving their line breaks. */
static int proper__prism_standalone_range(proper__prism_standalone *S, size_t from, size_t to, int top) {
    size_t k;
    int rc, done;
    for (k = from; k < to; k++) {
        const proper__prism_tok *t = &S->t[k];
        if (top && t->kind == PROPER__PM_TK_IDENT && (proper__prism_tok_is(t, "const") || proper__prism_tok_is(t, "formula"))) {
            const char *a = t->gap;
            while (k + 1 < to && S->t[k].kind != PROPER__PM_TK_SEMI) k++; /* the parser saw the ';' */
            for (; a < S->t[k + 1].gap; a++)
                if (*a == '\n') proper_strbuf_puts(S->out, "\n");
            continue;
        }
        proper__prism_standalone_gap(S, k, !top);
        if (t->kind == PROPER__PM_TK_IDENT) {
            if ((rc = proper__prism_standalone_ident(S, k, &done)) != 0) return rc;
            if (done) continue;
        }
        if (t->kind == PROPER__PM_TK_EOF) break;
        { /* the token as written, up to the next token's gap (a string with its quotes) */
            const char *from = t->p - (t->kind == PROPER__PM_TK_STRING);
            proper_strbuf_append(S->out, from, (size_t)(S->t[k + 1].gap - from));
        }
    }
    return PROPER_OK;
}

/* The first token of each properties formula's body and its ';' (formula
 * NAME = BODY ;), by the formula's index. */
static int proper__prism_standalone_bodies(proper__prism_standalone *S) {
    const proper_prism_props *p = S->C->p;
    size_t k, end;
    int32_t sym;
    if (!(S->body = (size_t *)proper_calloc(2 * p->n_formulas + 1, sizeof *S->body)))
        return proper_error_set(S->err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (k = 0; k + 3 < S->n; k++) {
        if (S->t[k].kind != PROPER__PM_TK_IDENT || !proper__prism_tok_is(&S->t[k], "formula")) continue;
        sym = proper__prism_names_find(&p->names, S->t[k + 1].p, S->t[k + 1].len);
        for (end = k + 3; end + 1 < S->n && S->t[end].kind != PROPER__PM_TK_SEMI; end++) {}
        if (sym < 0 || p->sym_formula[sym] < 0) continue;
        S->body[p->sym_formula[sym]] = k + 3;
        S->body[p->sym_formula[sym] + p->n_formulas] = end;
    }
    return PROPER_OK;
}

PROPER_API int proper_prism_props_standalone(const proper_prism_props *p, const char *text, size_t len, char **out,
                                             proper_error *err) {
    proper__prism_checker C;
    proper__prism_standalone S;
    proper__prism_tok *toks = NULL;
    proper_strbuf b;
    size_t n = 0;
    int rc;
    *out = NULL;
    proper_strbuf_init(&b);
    memset(&S, 0, sizeof S);
    if ((rc = proper__prism_checker_consts(&C, p, err)) == 0 &&
        (rc = proper__prism_lex(text, len, p->file[0] ? p->file : NULL, &toks, &n, err)) == 0) {
        S.C = &C;
        S.t = toks;
        S.n = n;
        S.out = &b;
        S.err = err;
        if (!(rc = proper__prism_standalone_bodies(&S)) && !(rc = proper__prism_standalone_range(&S, 0, n, 1)) &&
            !(*out = proper_strbuf_take(&b)))
            rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    }
    proper_strbuf_free(&b);
    PROPER_FREE(S.body);
    PROPER_FREE(toks);
    proper__prism_checker_free(&C);
    return rc;
}

/* ---- Exact and parametric values (exact.h) -----------------------------------
 * The chain is built as usual (proper_prism_build, with the parameters at
 * sample values: proper_prism_open_params); proper_prism_build_exact then
 * walks its states again and evaluates every update probability and reward
 * exactly, as a rational function of the parameters (a rational when there
 * are none): literals as written ("0.1" is 1/10), constants given to
 * proper_prism_set_consts as written, int and bool subexpressions (guards,
 * assignments, conditions) with the ordinary evaluator, which is exact for
 * them. Parameters may appear only where values are numbers (probabilities,
 * rewards and the constants they use); a guard, an assignment, a condition
 * or min/max that depends on one is refused. */

typedef struct proper__prism_xctx {
    const proper_prism_model *m;
    proper__prism_ectx cx;      /* the ordinary evaluator, for int and bool subexpressions */
    size_t n_params;
    int32_t *param_of;          /* constant -> parameter index, or -1 */
    proper__prism_val *cv;      /* the constants' ordinary values (cx.cv) */
    proper_ratfun *cval;        /* exact constant values, cached */
    unsigned char *cdone;
    proper_error *err;
} proper__prism_xctx;

/* Whether expression e (of the model's pool) depends on a parameter. */
static int proper__prism_uses_param(const proper__prism_xctx *X, int32_t e) {
    const proper__prism_node *nd;
    if (e < 0 || !X->n_params) return 0;
    nd = &X->m->pool.n[e];
    if (nd->kind == PROPER__PM_N_CONST)
        return X->param_of[nd->idx] >= 0 || proper__prism_uses_param(X, X->m->consts[nd->idx].expr);
    if (nd->kind == PROPER__PM_N_FORMULA) return proper__prism_uses_param(X, nd->a);
    if (nd->kind == PROPER__PM_N_INT || nd->kind == PROPER__PM_N_DOUBLE || nd->kind == PROPER__PM_N_BOOL ||
        nd->kind == PROPER__PM_N_VAR)
        return 0;
    return proper__prism_uses_param(X, nd->a) || proper__prism_uses_param(X, nd->b) || proper__prism_uses_param(X, nd->c);
}

static int proper__prism_xfail(const proper__prism_xctx *X, const proper__prism_node *nd, int code, const char *what) {
    return proper__prism_eval_fail(&X->cx, nd, code, "%s", what);
}

/* rc, described at (line, col) of file when err holds no error yet: the
 * exact entry points clear err first, so an empty err means that exact.h's
 * arithmetic (bigint, rat, poly, ratfun), which reports a failure by its
 * code only, failed. what ("constant 'c': ") prefixes the message. */
static int proper__prism_xdescribe(proper_error *err, const char *file, int line, int col, const char *what, int rc) {
    if (!rc || !err || err->code) return rc;
    if (rc == PROPER_ELIMIT)
        return proper_error_set(err, rc, file, line, col,
                                "%sexact: a number or polynomial beyond the exact limits (PROPER_EXACT_MAX_LIMBS = %lu limbs, "
                                "PROPER_EXACT_MAX_TERMS = %lu terms, or the work limits PROPER_EXACT_MAX_WORK and "
                                "PROPER_EXACT_MAX_GCD_WORK)",
                                what, (unsigned long)PROPER_EXACT_MAX_LIMBS, (unsigned long)PROPER_EXACT_MAX_TERMS);
    return proper_error_set(err, rc, file, line, col, "%s%s", what,
                            rc == PROPER_ENOMEM ? "out of memory"
                            : rc == PROPER_EINVAL ? "exact: division by zero" : proper_result_string(rc));
}

/* The shortest decimal that reads back as v ("0.3", not 0.299999...). */
static int proper__prism_rat_of_double(proper_rat *out, double v) {
    char buf[40];
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v) break;
    }
    return proper_rat_parse(out, buf, strlen(buf), "value", NULL);
}

static int proper__prism_xeval(proper__prism_xctx *X, int32_t e, proper_ratfun *out);

static int proper__prism_is_cmp(int op) {
    return op == PROPER__PM_OP_EQ || op == PROPER__PM_OP_NE || op == PROPER__PM_OP_LT || op == PROPER__PM_OP_LE ||
           op == PROPER__PM_OP_GT || op == PROPER__PM_OP_GE;
}

/* A condition decided exactly: comparisons of non-integer values compare
 * the exact values (1/3 = 0.333333333333333333 is false), the logic
 * around them is the usual one, and anything else is the ordinary
 * evaluator's. */
static int proper__prism_xbool(proper__prism_xctx *X, int32_t e, int *out) {
    const proper__prism_node *nd = &X->m->pool.n[e];
    proper__prism_val v;
    int a, b, rc;
    while (nd->kind == PROPER__PM_N_FORMULA) nd = &X->m->pool.n[nd->a];
    if (nd->kind == PROPER__PM_N_NOT) {
        if ((rc = proper__prism_xbool(X, nd->a, &a)) != 0) return rc;
        *out = !a;
        return PROPER_OK;
    }
    if (nd->kind == PROPER__PM_N_BIN && (nd->op == PROPER__PM_OP_AND || nd->op == PROPER__PM_OP_OR ||
                                         nd->op == PROPER__PM_OP_IMPLIES || nd->op == PROPER__PM_OP_IFF)) {
        if ((rc = proper__prism_xbool(X, nd->a, &a)) != 0 || (rc = proper__prism_xbool(X, nd->b, &b)) != 0) return rc;
        *out = nd->op == PROPER__PM_OP_AND ? a && b : nd->op == PROPER__PM_OP_OR ? a || b
               : nd->op == PROPER__PM_OP_IMPLIES ? !a || b : a == b;
        return PROPER_OK;
    }
    if ((nd->kind == PROPER__PM_N_BIN || nd->kind == PROPER__PM_N_XCMP) && proper__prism_is_cmp(nd->op) &&
        (X->m->pool.n[nd->a].type == PROPER_PRISM_DOUBLE || X->m->pool.n[nd->b].type == PROPER_PRISM_DOUBLE)) {
        proper_ratfun fa, fb;
        proper_rat qa, qb;
        int c;
        proper_ratfun_init(&fa);
        proper_ratfun_init(&fb);
        proper_rat_init(&qa);
        proper_rat_init(&qb);
        rc = proper__prism_xeval(X, nd->a, &fa);
        if (!rc) rc = proper__prism_xeval(X, nd->b, &fb);
        if (!rc && (!proper_ratfun_is_const(&fa, &qa) || !proper_ratfun_is_const(&fb, &qb)))
            rc = proper__prism_xfail(X, nd, PROPER_EUNSUPPORTED, "a comparison may not depend on a parameter");
        if (!rc) {
            c = proper_rat_cmp(&qa, &qb);
            *out = nd->op == PROPER__PM_OP_EQ ? c == 0 : nd->op == PROPER__PM_OP_NE ? c != 0 : nd->op == PROPER__PM_OP_LT ? c < 0
                   : nd->op == PROPER__PM_OP_LE ? c <= 0 : nd->op == PROPER__PM_OP_GT ? c > 0 : c >= 0;
        }
        proper_ratfun_free(&fa);
        proper_ratfun_free(&fb);
        proper_rat_free(&qa);
        proper_rat_free(&qb);
        return rc;
    }
    if ((rc = proper__prism_eval(&X->cx, (int32_t)(nd - X->m->pool.n), &v)) != 0) return rc;
    *out = v.i != 0;
    return PROPER_OK;
}

/* A comparison that reads the state, decided exactly in the current state
 * (the ordinary evaluator's cx->vals). */
static int proper__prism_eval_xcmp(const proper__prism_ectx *cx, int32_t e, proper__prism_val *out) {
    proper__prism_xctx *X = cx->xc;
    const int32_t *saved = X->cx.vals;
    int truth, rc;
    X->cx.vals = cx->vals;
    if (X->err) proper_error_clear(X->err); /* proper__prism_xdescribe then names exact.h's limits */
    rc = proper__prism_xbool(X, e, &truth);
    X->cx.vals = saved;
    if (!rc) out->i = truth;
    return rc;
}

/* Whether expression e compares non-integer values (through formulas and
 * constants): decided in floating point when the chain is built. */
static int proper__prism_double_cmp(const proper_prism_model *m, int32_t e, int depth) {
    const proper__prism_node *nd;
    if (e < 0 || depth > PROPER_PRISM_MAX_DEPTH) return 0;
    nd = &m->pool.n[e];
    if (nd->kind == PROPER__PM_N_BIN && proper__prism_is_cmp(nd->op) &&
        (m->pool.n[nd->a].type == PROPER_PRISM_DOUBLE || m->pool.n[nd->b].type == PROPER_PRISM_DOUBLE))
        return 1;
    if (nd->kind == PROPER__PM_N_CONST) return proper__prism_double_cmp(m, m->consts[nd->idx].expr, depth + 1);
    if (nd->kind == PROPER__PM_N_INT || nd->kind == PROPER__PM_N_DOUBLE || nd->kind == PROPER__PM_N_BOOL ||
        nd->kind == PROPER__PM_N_VAR)
        return 0;
    return proper__prism_double_cmp(m, nd->a, depth + 1) || proper__prism_double_cmp(m, nd->b, depth + 1) ||
           proper__prism_double_cmp(m, nd->c, depth + 1);
}

static int proper__prism_xconst(proper__prism_xctx *X, const proper__prism_node *nd, proper_ratfun *out) {
    const proper__prism_const_decl *c = &X->m->consts[nd->idx];
    proper_rat q;
    int rc = PROPER_OK;
    if (X->param_of[nd->idx] >= 0) return proper_ratfun_set_var(out, (uint32_t)X->param_of[nd->idx], (uint32_t)X->n_params);
    if (X->cdone[nd->idx]) return proper_ratfun_copy(out, &X->cval[nd->idx]);
    proper_rat_init(&q);
    if (c->expr >= 0) {
        rc = proper__prism_xeval(X, c->expr, &X->cval[nd->idx]);
    } else if (c->type != PROPER_PRISM_DOUBLE) {
        if (!(rc = proper_rat_set_i64(&q, c->given.i, 1))) rc = proper_ratfun_set_rat(&X->cval[nd->idx], &q);
    } else if (c->given_text[0]) { /* as given: "1/3", "0.1" */
        proper_error tmp;
        rc = proper_ratfun_parse(&X->cval[nd->idx], c->given_text, strlen(c->given_text), "value", NULL, 0, &tmp);
        if (rc == PROPER_EPARSE || rc == PROPER_EUNDEFINED)
            return proper_error_set(X->err, PROPER_EUNSUPPORTED, X->m->file, c->line, c->col,
                                    "constant '%s': the value '%s' cannot be read exactly (give a number or a fraction)",
                                    X->m->names.names[c->sym], c->given_text);
    } else {
        if (!(rc = proper__prism_rat_of_double(&q, c->given.d))) rc = proper_ratfun_set_rat(&X->cval[nd->idx], &q);
    }
    proper_rat_free(&q);
    if (rc) {
        char what[PROPER_ERROR_MESSAGE_MAX / 4];
        snprintf(what, sizeof what, "constant '%s': ", X->m->names.names[c->sym]);
        return proper__prism_xdescribe(X->err, X->m->file, c->line, c->col, what, rc);
    }
    X->cdone[nd->idx] = 1;
    return proper_ratfun_copy(out, &X->cval[nd->idx]);
}

/* An exact integer exponent k of a power (an int expression, or a double
 * one whose exact value is an integer). */
static int proper__prism_xexponent(proper__prism_xctx *X, int32_t e, long long *k) {
    const proper__prism_node *nd = &X->m->pool.n[e];
    proper_ratfun f;
    proper_rat q;
    int64_t v = 0, den = 0;
    int rc;
    proper_ratfun_init(&f);
    proper_rat_init(&q);
    rc = proper__prism_xeval(X, e, &f);
    if (!rc && proper_ratfun_is_const(&f, &q) && proper_bigint_to_i64(&q.den, &den) && den != 1)
        rc = proper__prism_xfail(X, nd, PROPER_EINVAL, "exact: a power with a fractional exponent has no exact value in general");
    else if (!rc && (!proper_ratfun_is_const(&f, &q) || !proper_bigint_to_i64(&q.den, &den) || den != 1 ||
                     !proper_bigint_to_i64(&q.num, &v) ||
                     v > PROPER_EXACT_MAX_POWER || v < -(int64_t)PROPER_EXACT_MAX_POWER))
        rc = proper__prism_xfail(X, nd, PROPER_EUNSUPPORTED, "an exact power needs an integer exponent (at most 1000)");
    if (!rc) *k = (long long)v;
    proper_ratfun_free(&f);
    proper_rat_free(&q);
    return rc;
}

static int proper__prism_xpow(proper__prism_xctx *X, int32_t base, int32_t ex, proper_ratfun *out) {
    long long k = 0; /* set by proper__prism_xexponent */
    int rc;
    if ((rc = proper__prism_xexponent(X, ex, &k)) || (rc = proper__prism_xeval(X, base, out))) return rc;
    if (k < 0) {
        proper_ratfun one;
        proper_rat q;
        if (proper_ratfun_is_zero(out)) return proper__prism_xfail(X, &X->m->pool.n[base], PROPER_EINVAL, "0 to a negative power");
        proper_ratfun_init(&one);
        proper_rat_init(&q);
        rc = proper_rat_set_i64(&q, 1, 1);
        if (!rc) rc = proper_ratfun_set_rat(&one, &q);
        if (!rc) rc = proper_ratfun_div(out, &one, out);
        proper_ratfun_free(&one);
        proper_rat_free(&q);
        k = -k;
    }
    return rc ? rc : proper_ratfun_pow(out, out, (unsigned)k);
}

static int proper__prism_xbinary(proper__prism_xctx *X, const proper__prism_node *nd, proper_ratfun *out) {
    proper_ratfun b;
    int rc;
    if (nd->op == PROPER__PM_OP_POW) return proper__prism_xpow(X, nd->a, nd->b, out);
    proper_ratfun_init(&b);
    rc = proper__prism_xeval(X, nd->a, out);
    if (!rc) rc = proper__prism_xeval(X, nd->b, &b);
    if (!rc) switch (nd->op) {
        case PROPER__PM_OP_ADD: rc = proper_ratfun_add(out, out, &b); break;
        case PROPER__PM_OP_SUB: rc = proper_ratfun_sub(out, out, &b); break;
        case PROPER__PM_OP_MUL: rc = proper_ratfun_mul(out, out, &b); break;
        case PROPER__PM_OP_DIV:
            rc = proper_ratfun_is_zero(&b) ? proper__prism_xfail(X, nd, PROPER_EINVAL, "division by zero")
                                           : proper_ratfun_div(out, out, &b);
            break;
        default: rc = proper__prism_xfail(X, nd, PROPER_EUNSUPPORTED, "this operator has no exact value"); break;
        }
    proper_ratfun_free(&b);
    return rc;
}

/* min/max of two exact values: rationals only (a parametric one has no
 * single order). */
static int proper__prism_xminmax(proper__prism_xctx *X, const proper__prism_node *nd, proper_ratfun *out) {
    proper_ratfun b;
    proper_rat qa, qb;
    int rc;
    proper_ratfun_init(&b);
    proper_rat_init(&qa);
    proper_rat_init(&qb);
    rc = proper__prism_xeval(X, nd->a, out);
    if (!rc) rc = proper__prism_xeval(X, nd->b, &b);
    if (!rc && (!proper_ratfun_is_const(out, &qa) || !proper_ratfun_is_const(&b, &qb)))
        rc = proper__prism_xfail(X, nd, PROPER_EUNSUPPORTED, "min/max of a parametric value");
    if (!rc && (proper_rat_cmp(&qb, &qa) < 0) == (nd->op == PROPER__PM_FN_MIN)) rc = proper_ratfun_copy(out, &b);
    proper_ratfun_free(&b);
    proper_rat_free(&qa);
    proper_rat_free(&qb);
    return rc;
}

/* Exact value of expression e of the model's pool in the state X->cx.vals
 * (proper__prism_xeval names the node where exact arithmetic failed). */
static int proper__prism_xeval_node(proper__prism_xctx *X, int32_t e, proper_ratfun *out) {
    const proper__prism_node *nd = &X->m->pool.n[e];
    proper_rat q;
    int rc;
    if (nd->type != PROPER_PRISM_DOUBLE) { /* ints and bools: exact in the ordinary evaluator */
        proper__prism_val v;
        if (proper__prism_uses_param(X, e))
            return proper__prism_xfail(X, nd, PROPER_EUNSUPPORTED,
                                       "a parameter may appear only in probabilities, rates and rewards, not in an int or bool expression");
        if ((rc = proper__prism_eval(&X->cx, e, &v)) != 0) return rc;
        proper_rat_init(&q);
        rc = proper_rat_set_i64(&q, v.i, 1);
        if (!rc) rc = proper_ratfun_set_rat(out, &q);
        proper_rat_free(&q);
        return rc;
    }
    switch (nd->kind) {
    case PROPER__PM_N_DOUBLE: {
        const char *text = X->m->names.names[nd->idx];
        proper_rat_init(&q);
        rc = proper_rat_parse(&q, text, strlen(text), "literal", NULL);
        if (!rc) rc = proper_ratfun_set_rat(out, &q);
        proper_rat_free(&q);
        return rc;
    }
    case PROPER__PM_N_CONST: return proper__prism_xconst(X, nd, out);
    case PROPER__PM_N_FORMULA: return proper__prism_xeval(X, nd->a, out);
    case PROPER__PM_N_NEG:
        if ((rc = proper__prism_xeval(X, nd->a, out)) != 0) return rc;
        return proper_ratfun_neg(out, out);
    case PROPER__PM_N_BIN: return proper__prism_xbinary(X, nd, out);
    case PROPER__PM_N_ITE: {
        proper__prism_val c;
        int holds;
        (void)c;
        if (proper__prism_uses_param(X, nd->a))
            return proper__prism_xfail(X, nd, PROPER_EUNSUPPORTED, "a condition c ? a : b may not depend on a parameter");
        if ((rc = proper__prism_xbool(X, nd->a, &holds)) != 0) return rc;
        return proper__prism_xeval(X, holds ? nd->b : nd->c, out);
    }
    case PROPER__PM_N_FUNC:
        if (nd->op == PROPER__PM_FN_MIN || nd->op == PROPER__PM_FN_MAX) return proper__prism_xminmax(X, nd, out);
        if (nd->op == PROPER__PM_FN_POW) return proper__prism_xpow(X, nd->a, nd->b, out);
        return proper__prism_xfail(X, nd, PROPER_EUNSUPPORTED, "log has no exact value");
    default: return proper__prism_xfail(X, nd, PROPER_EUNSUPPORTED, "this expression has no exact value");
    }
}

static int proper__prism_xeval(proper__prism_xctx *X, int32_t e, proper_ratfun *out) {
    const proper__prism_node *nd = &X->m->pool.n[e];
    return proper__prism_xdescribe(X->err, X->m->file, nd->line, nd->col, "", proper__prism_xeval_node(X, e, out));
}

/* The state of d whose valuation is vals (d's states are sorted
 * lexicographically by valuation), or UINT32_MAX. */
static uint32_t proper__prism_find_state(const proper_dtmc *d, const int32_t *vals) {
    uint32_t lo = 0, hi = d->n_states;
    size_t nv = d->n_vars;
    if (nv == 0) return hi ? 0 : UINT32_MAX; /* no variables: one state */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const int32_t *v = d->vals + (size_t)mid * nv;
        size_t i;
        int c = 0;
        for (i = 0; i < nv && !c; i++) c = v[i] < vals[i] ? -1 : v[i] > vals[i];
        if (!c) return mid;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return UINT32_MAX;
}

/* One state's exact row while its choices are walked: per transition of
 * d's row, the probability summed over choices and, per reward structure,
 * the probability-weighted transition reward. */
typedef struct proper__prism_xrow {
    proper__prism_xctx *X;
    const proper_dtmc *d;
    uint32_t s;
    proper_ratfun *prob;    /* row length */
    proper_ratfun *trew;    /* row length * n_rewards */
    proper_ratfun *crew;    /* n_rewards: the current choice's transition rewards */
    int32_t *outv;          /* outcomes: valuations */
    proper_ratfun *outp;    /* ... and probabilities */
    size_t n_out, cap_out, n_choices;
} proper__prism_xrow;

static int proper__prism_xrow_oom(proper__prism_xrow *R) {
    return proper_error_set(R->X->err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
}

/* Multiply the outcomes so far by command c's updates. */
static int proper__prism_xapply(proper__prism_xrow *R, size_t c) {
    proper__prism_xctx *X = R->X;
    const proper_prism_model *m = X->m;
    const proper__prism_command *cmd = &m->cmds[c];
    size_t nv = m->n_vars, n = R->n_out, o, j, k, n_new = 0;
    proper_ratfun p;
    int32_t *nvals;
    proper_ratfun *np;
    int rc = PROPER_OK;
    nvals = (int32_t *)proper_calloc(n * cmd->n * (nv ? nv : 1) + 1, sizeof *nvals);
    np = (proper_ratfun *)proper_calloc(n * cmd->n + 1, sizeof *np);
    if (!nvals || !np) {
        PROPER_FREE(nvals);
        PROPER_FREE(np);
        return proper__prism_xrow_oom(R);
    }
    proper_ratfun_init(&p);
    for (j = 0; j < cmd->n && !rc; j++) {
        const proper__prism_update *u = &m->updates[cmd->first + j];
        proper_rat one;
        proper_rat_init(&one);
        if (u->prob >= 0) rc = proper__prism_xeval(X, u->prob, &p);
        else if (!(rc = proper_rat_set_i64(&one, 1, 1))) rc = proper_ratfun_set_rat(&p, &one);
        proper_rat_free(&one);
        if (rc || proper_ratfun_is_zero(&p)) continue;
        for (o = 0; o < n && !rc; o++) {
            int32_t *row = nvals + n_new * nv;
            if (nv) memcpy(row, R->outv + o * nv, nv * sizeof *row);
            for (k = 0; k < u->n && !rc; k++) {
                const proper__prism_assign *a = &m->assigns[u->first + k];
                proper__prism_val v;
                if ((rc = proper__prism_eval(&X->cx, a->expr, &v)) == 0) row[a->var] = (int32_t)v.i;
            }
            proper_ratfun_init(&np[n_new]);
            if (!rc) rc = proper_ratfun_mul(&np[n_new], &R->outp[o], &p);
            n_new++;
        }
    }
    proper_ratfun_free(&p);
    for (o = 0; o < R->n_out; o++) proper_ratfun_free(&R->outp[o]);
    PROPER_FREE(R->outv);
    PROPER_FREE(R->outp);
    R->outv = nvals;
    R->outp = np;
    R->n_out = n_new;
    return proper__prism_xdescribe(X->err, m->file, cmd->line, cmd->col, "", rc);
}

/* Transition rewards of a choice of `action` (-1 unlabelled) into R->crew. */
static int proper__prism_xchoice_rewards(proper__prism_xrow *R, int action) {
    proper__prism_xctx *X = R->X;
    const proper_prism_model *m = X->m;
    proper_ratfun v;
    size_t r, i;
    int rc = PROPER_OK;
    proper_ratfun_init(&v);
    for (r = 0; r < m->n_rewards && !rc; r++) {
        const proper__prism_reward_decl *rd = &m->rewards[r];
        proper_ratfun_free(&R->crew[r]);
        for (i = rd->first; i < rd->first + rd->n && !rc; i++) {
            const proper__prism_reward_item *it = &m->items[i];
            proper__prism_val g;
            if (!it->is_trans || it->action != action) continue;
            if ((rc = proper__prism_eval(&X->cx, it->guard, &g)) != 0 || !g.i) continue;
            if (!(rc = proper__prism_xeval(X, it->value, &v))) rc = proper_ratfun_add(&R->crew[r], &R->crew[r], &v);
        }
    }
    proper_ratfun_free(&v);
    return rc;
}

/* Add the outcomes of the current choice to the row. */
static int proper__prism_xfinish(proper__prism_xrow *R, int action) {
    proper__prism_xctx *X = R->X;
    const proper_dtmc *d = R->d;
    size_t nr = X->m->n_rewards, o, r;
    proper_ratfun t;
    int rc;
    if ((rc = proper__prism_xchoice_rewards(R, action)) != 0) return rc;
    R->n_choices++;
    proper_ratfun_init(&t);
    for (o = 0; o < R->n_out && !rc; o++) {
        uint32_t dst = proper__prism_find_state(d, R->outv + o * d->n_vars);
        uint64_t k;
        for (k = d->row[R->s]; dst != UINT32_MAX && k < d->row[R->s + 1] && d->col[k] != dst; k++) {}
        if (dst == UINT32_MAX || k == d->row[R->s + 1]) {
            char st[PROPER_ERROR_MESSAGE_MAX / 2];
            proper__prism_describe_state(X->m, R->outv + o * d->n_vars, st, sizeof st);
            rc = proper_error_set(X->err, PROPER_EUNSUPPORTED, X->m->file, 0, 0,
                                  "the transition from state %lu to %s has probability 0 at the values the model was "
                                  "built with but not for every parameter value: build it at other values",
                                  (unsigned long)R->s, st);
            break;
        }
        k -= d->row[R->s];
        rc = proper_ratfun_add(&R->prob[k], &R->prob[k], &R->outp[o]);
        for (r = 0; r < nr && !rc; r++) {
            if (proper_ratfun_is_zero(&R->crew[r])) continue;
            if (!(rc = proper_ratfun_mul(&t, &R->outp[o], &R->crew[r])))
                rc = proper_ratfun_add(&R->trew[k * nr + r], &R->trew[k * nr + r], &t);
        }
    }
    proper_ratfun_free(&t);
    return rc;
}

static int proper__prism_xstart(proper__prism_xrow *R, const int32_t *vals) {
    size_t nv = R->d->n_vars, o;
    proper_rat one;
    int rc;
    for (o = 0; o < R->n_out; o++) proper_ratfun_free(&R->outp[o]);
    PROPER_FREE(R->outv);
    PROPER_FREE(R->outp);
    R->n_out = 0;
    R->outv = (int32_t *)proper_calloc(nv ? nv : 1, sizeof *R->outv);
    R->outp = (proper_ratfun *)proper_calloc(1, sizeof *R->outp);
    if (!R->outv || !R->outp) return proper__prism_xrow_oom(R);
    if (nv) memcpy(R->outv, vals, nv * sizeof *vals);
    proper_ratfun_init(&R->outp[0]);
    proper_rat_init(&one);
    rc = proper_rat_set_i64(&one, 1, 1);
    if (!rc) rc = proper_ratfun_set_rat(&R->outp[0], &one);
    proper_rat_free(&one);
    R->n_out = 1;
    return rc;
}

/* Every choice of the current state, as the builder makes them: each
 * enabled unlabelled command, and for each action every combination of one
 * enabled command per module that has it (blocked when one has none). */
static int proper__prism_xchoices(proper__prism_xrow *R, const int32_t *vals) {
    proper__prism_xctx *X = R->X;
    const proper_prism_model *m = X->m;
    size_t c, a, nc = m->n_cmds;
    size_t *en = (size_t *)proper_calloc(nc + 1, sizeof *en), *gs = (size_t *)proper_calloc(m->n_modules + 2, sizeof *gs),
           *combo = (size_t *)proper_calloc(m->n_modules + 2, sizeof *combo);
    proper__prism_val g;
    int rc = PROPER_OK;
    if (!en || !gs || !combo) rc = proper__prism_xrow_oom(R);
    for (c = 0; c < nc && !rc; c++) {
        if (m->cmds[c].action != -1) continue;
        if ((rc = proper__prism_eval(&X->cx, m->cmds[c].guard, &g)) != 0 || !g.i) continue;
        if (!(rc = proper__prism_xstart(R, vals)) && !(rc = proper__prism_xapply(R, c))) rc = proper__prism_xfinish(R, -1);
    }
    for (a = 0; a < m->n_actions && !rc; a++) {
        size_t n_en = 0, groups = 0, k;
        int last = -1, blocked = 0;
        for (c = 0; c < nc && !rc && !blocked; c++) {
            if (m->cmds[c].action != (int32_t)a) continue;
            if (m->cmds[c].module != last) {
                if (groups && gs[groups - 1] == n_en) blocked = 1;
                gs[groups++] = n_en;
                last = m->cmds[c].module;
            }
            if ((rc = proper__prism_eval(&X->cx, m->cmds[c].guard, &g)) == 0 && g.i) en[n_en++] = c;
        }
        if (rc || blocked || !groups || gs[groups - 1] == n_en) continue;
        gs[groups] = n_en;
        for (k = 0; k < groups; k++) combo[k] = 0;
        for (;;) { /* odometer over the modules' enabled commands */
            if ((rc = proper__prism_xstart(R, vals)) != 0) break;
            for (k = 0; k < groups && !rc; k++) rc = proper__prism_xapply(R, en[gs[k] + combo[k]]);
            if (rc || (rc = proper__prism_xfinish(R, (int)a)) != 0) break;
            for (k = groups; k-- > 0;) {
                if (++combo[k] < gs[k + 1] - gs[k]) break;
                combo[k] = 0;
            }
            if (k == (size_t)-1) break;
        }
    }
    PROPER_FREE(en);
    PROPER_FREE(gs);
    PROPER_FREE(combo);
    return rc;
}

/* Store a value into the companion (a rational when there are no parameters). */
static int proper__prism_xstore(proper_exact_dtmc *e, int what, size_t r, uint64_t k, const proper_ratfun *f,
                                proper_error *err) {
    proper_rat q;
    int rc;
    if (e->n_params) {
        if (what == 0) return proper_exact_dtmc_set_fprob(e, k, f, err);
        if (what == 1) return proper_exact_dtmc_set_state_freward(e, r, (uint32_t)k, f, err);
        return proper_exact_dtmc_set_trans_freward(e, r, k, f, err);
    }
    proper_rat_init(&q);
    if (!proper_ratfun_is_const(f, &q)) rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "not a number");
    else if (what == 0) rc = proper_exact_dtmc_set_prob(e, k, &q, err);
    else if (what == 1) rc = proper_exact_dtmc_set_state_reward(e, r, (uint32_t)k, &q, err);
    else rc = proper_exact_dtmc_set_trans_reward(e, r, k, &q, err);
    proper_rat_free(&q);
    return rc;
}

/* State s's exact row and rewards into e. */
static int proper__prism_xstate(proper__prism_xctx *X, const proper_dtmc *d, uint32_t s, proper_exact_dtmc *e) {
    const proper_prism_model *m = X->m;
    size_t len = (size_t)(d->row[s + 1] - d->row[s]), nr = m->n_rewards, j, r, i;
    const int32_t *vals = d->vals ? d->vals + (size_t)s * d->n_vars : NULL; /* NULL: no variables */
    proper__prism_xrow R;
    proper_ratfun v, n;
    proper_rat q;
    int rc = PROPER_OK;
    memset(&R, 0, sizeof R);
    R.X = X;
    R.d = d;
    R.s = s;
    R.prob = (proper_ratfun *)proper_calloc(len + 1, sizeof *R.prob);
    R.trew = (proper_ratfun *)proper_calloc(len * nr + 1, sizeof *R.trew);
    R.crew = (proper_ratfun *)proper_calloc(nr + 1, sizeof *R.crew);
    proper_ratfun_init(&v);
    proper_ratfun_init(&n);
    proper_rat_init(&q);
    X->cx.vals = vals;
    if (!R.prob || !R.trew || !R.crew) rc = proper__prism_xrow_oom(&R);
    if (!rc) rc = proper__prism_xchoices(&R, vals);
    /* PRISM divides a DTMC's rows by the number of choices (a CTMC's rates
     * add); a deadlock keeps its self-loop */
    if (!rc && R.n_choices && !(rc = proper_rat_set_i64(&q, m->is_ctmc ? 1 : (int64_t)R.n_choices, 1)) &&
        !(rc = proper_ratfun_set_rat(&n, &q)))
        for (j = 0; j < len && !rc; j++) {
            if (proper_ratfun_is_zero(&R.prob[j])) {
                rc = proper_error_set(X->err, PROPER_EUNSUPPORTED, m->file, 0, 0,
                                      "exact: the transition from state %lu to %lu has probability %g in floating point but "
                                      "0 exactly: a chain whose graph differs in exact arithmetic is not supported",
                                      (unsigned long)s, (unsigned long)d->col[d->row[s] + j], d->prob[d->row[s] + j]);
                break;
            }
            if (!(rc = proper_ratfun_div(&v, &R.prob[j], &n))) rc = proper__prism_xstore(e, 0, 0, d->row[s] + j, &v, X->err);
            for (r = 0; r < nr && !rc; r++) /* the probability-weighted mean over the choices */
                if (e->rewards[r].trans || e->rewards[r].ftrans) {
                    if (!proper_ratfun_is_zero(&R.trew[j * nr + r]))
                        rc = proper_ratfun_div(&v, &R.trew[j * nr + r], &R.prob[j]);
                    else
                        proper_ratfun_free(&v);
                    if (!rc) rc = proper__prism_xstore(e, 2, r, d->row[s] + j, &v, X->err);
                }
        }
    for (r = 0; r < nr && !rc; r++) { /* state rewards: the sum of the items that hold */
        const proper__prism_reward_decl *rd = &m->rewards[r];
        if (!e->rewards[r].state && !e->rewards[r].fstate) continue;
        proper_ratfun_free(&n);
        for (i = rd->first; i < rd->first + rd->n && !rc; i++) {
            const proper__prism_reward_item *it = &m->items[i];
            proper__prism_val g;
            if (it->is_trans) continue;
            if ((rc = proper__prism_eval(&X->cx, it->guard, &g)) != 0 || !g.i) continue;
            if (!(rc = proper__prism_xeval(X, it->value, &v))) rc = proper_ratfun_add(&n, &n, &v);
        }
        if (!rc) rc = proper__prism_xstore(e, 1, r, s, &n, X->err);
    }
    for (j = 0; j < len; j++) proper_ratfun_free(&R.prob[j]);
    for (j = 0; j < len * nr; j++) proper_ratfun_free(&R.trew[j]);
    for (r = 0; r < nr; r++) proper_ratfun_free(&R.crew[r]);
    for (j = 0; j < R.n_out; j++) proper_ratfun_free(&R.outp[j]);
    PROPER_FREE(R.prob);
    PROPER_FREE(R.trew);
    PROPER_FREE(R.crew);
    PROPER_FREE(R.outv);
    PROPER_FREE(R.outp);
    proper_ratfun_free(&v);
    proper_ratfun_free(&n);
    proper_rat_free(&q);
    if (rc && X->err && !X->err->code) {
        char what[PROPER_ERROR_MESSAGE_MAX / 2], st[PROPER_ERROR_MESSAGE_MAX / 4];
        if (vals) proper__prism_describe_state(m, vals, st, sizeof st);
        else snprintf(st, sizeof st, "%lu", (unsigned long)s);
        snprintf(what, sizeof what, "the exact row of state %s: ", st);
        rc = proper__prism_xdescribe(X->err, m->file, 0, 0, what, rc);
    }
    return rc;
}

/* A parameter may not decide which commands are enabled, where they go, or
 * which reward items apply. */
static int proper__prism_check_param_use(proper__prism_xctx *X) {
    const proper_prism_model *m = X->m;
    size_t c, j, k;
    const char *msg = "a parameter may appear only in probabilities, rates and rewards";
    for (c = 0; c < m->n_cmds; c++) {
        if (proper__prism_uses_param(X, m->cmds[c].guard))
            return proper__prism_xfail(X, &m->pool.n[m->cmds[c].guard], PROPER_EUNSUPPORTED, msg);
        for (j = 0; j < m->cmds[c].n; j++) {
            const proper__prism_update *u = &m->updates[m->cmds[c].first + j];
            for (k = 0; k < u->n; k++)
                if (proper__prism_uses_param(X, m->assigns[u->first + k].expr))
                    return proper__prism_xfail(X, &m->pool.n[m->assigns[u->first + k].expr], PROPER_EUNSUPPORTED, msg);
        }
    }
    for (c = 0; c < m->n_items; c++)
        if (proper__prism_uses_param(X, m->items[c].guard))
            return proper__prism_xfail(X, &m->pool.n[m->items[c].guard], PROPER_EUNSUPPORTED, msg);
    for (c = 0; c < m->n_labels; c++)
        if (proper__prism_uses_param(X, m->labels[c].expr))
            return proper__prism_xfail(X, &m->pool.n[m->labels[c].expr], PROPER_EUNSUPPORTED, msg);
    return PROPER_OK;
}

/* The chain's structure (initial states, guards, assignments) is built in
 * floating point: a comparison of non-integer values there could decide
 * differently in exact arithmetic, so exact checking refuses it. */
static int proper__prism_check_structure_exact(proper__prism_xctx *X) {
    const proper_prism_model *m = X->m;
    size_t c, j, k;
    int32_t bad = -1;
    for (c = 0; c < m->n_vars && bad < 0; c++)
        if (proper__prism_double_cmp(m, m->vars[c].init, 0)) bad = m->vars[c].init;
    if (bad < 0 && proper__prism_double_cmp(m, m->init_expr, 0)) bad = m->init_expr;
    for (c = 0; c < m->n_cmds && bad < 0; c++) {
        if (proper__prism_double_cmp(m, m->cmds[c].guard, 0)) bad = m->cmds[c].guard;
        for (j = 0; j < m->cmds[c].n && bad < 0; j++) {
            const proper__prism_update *u = &m->updates[m->cmds[c].first + j];
            for (k = 0; k < u->n && bad < 0; k++)
                if (proper__prism_double_cmp(m, m->assigns[u->first + k].expr, 0)) bad = m->assigns[u->first + k].expr;
        }
    }
    if (bad < 0) return PROPER_OK;
    return proper_error_set(X->err, PROPER_EUNSUPPORTED, m->file, m->pool.n[bad].line, m->pool.n[bad].col,
                            "exact: a comparison of non-integer values that decides the chain's states or transitions "
                            "is not supported (it is decided in floating point)");
}

/* Whether expression e of the model (through formulas and constants)
 * reads a state variable, a label, or a constant without a value of its
 * own in the model. */
static int proper__prism_reads_outside(const proper_prism_model *m, int32_t e, int depth) {
    const proper__prism_node *nd;
    if (e < 0) return 0;
    if (depth > PROPER_PRISM_MAX_DEPTH) return 1;
    nd = &m->pool.n[e];
    if (nd->kind == PROPER__PM_N_VAR || nd->kind == PROPER__PM_N_LABEL || nd->kind == PROPER__PM_N_NAME) return 1;
    if (nd->kind == PROPER__PM_N_CONST)
        return m->consts[nd->idx].expr < 0 || proper__prism_reads_outside(m, m->consts[nd->idx].expr, depth + 1);
    return proper__prism_reads_outside(m, nd->a, depth + 1) || proper__prism_reads_outside(m, nd->b, depth + 1) ||
           proper__prism_reads_outside(m, nd->c, depth + 1);
}

static int proper__prism_xctx_open(proper__prism_xctx *X, const proper_prism_model *m, const char *const *params,
                                   size_t n_params, proper_error *err);
static void proper__prism_xctx_close(proper__prism_xctx *X);

/* Whether expression e of the model reads, besides literals and constants
 * with values in the model, only state variables. */
static int proper__prism_reads_state_only(const proper_prism_model *m, int32_t e, int depth) {
    const proper__prism_node *nd;
    if (e < 0) return 1;
    if (depth > PROPER_PRISM_MAX_DEPTH) return 0;
    nd = &m->pool.n[e];
    if (nd->kind == PROPER__PM_N_LABEL || nd->kind == PROPER__PM_N_NAME) return 0;
    if (nd->kind == PROPER__PM_N_CONST)
        return m->consts[nd->idx].expr >= 0 && proper__prism_reads_state_only(m, m->consts[nd->idx].expr, depth + 1);
    return proper__prism_reads_state_only(m, nd->a, depth + 1) && proper__prism_reads_state_only(m, nd->b, depth + 1) &&
           proper__prism_reads_state_only(m, nd->c, depth + 1);
}

PROPER_API int proper_prism_decide_exactly(proper_prism_model *m, const char *const *params, size_t n_params,
                                           proper_error *err) {
    proper__prism_xctx X;
    proper_error scratch; /* a comparison that cannot be decided here stays, and is refused where it is used */
    size_t i;
    int rc = PROPER_OK, opened = 0;
    memset(&X, 0, sizeof X);
    proper_error_clear(&scratch);
    for (i = 0; i < m->pool.len && rc == PROPER_OK; i++) {
        proper__prism_node *nd = &m->pool.n[i];
        int truth;
        if (nd->kind != PROPER__PM_N_BIN || !proper__prism_is_cmp(nd->op) ||
            (m->pool.n[nd->a].type != PROPER_PRISM_DOUBLE && m->pool.n[nd->b].type != PROPER_PRISM_DOUBLE))
            continue;
        if (!opened) {
            opened = 1;
            if ((rc = proper__prism_xctx_open(&X, m, params, n_params, &scratch)) != 0) break;
        }
        if (proper__prism_reads_outside(m, (int32_t)i, 0)) {
            if (proper__prism_reads_state_only(m, (int32_t)i, 0)) {
                nd->kind = PROPER__PM_N_XCMP; /* decided state by state when the chain is built */
                m->exact_cmps = 1;
            }
            continue;
        }
        if ((rc = proper__prism_xbool(&X, (int32_t)i, &truth)) != 0) {
            if (rc != PROPER_ENOMEM) rc = PROPER_OK;
            continue;
        }
        nd->kind = PROPER__PM_N_BOOL; /* the node becomes the literal (its operands stay, unread) */
        nd->num = truth;
    }
    if (X.m) proper__prism_xctx_close(&X);
    if (rc == PROPER_ENOMEM) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    return PROPER_OK; /* constants without values: the build says which */
}

PROPER_API int proper_prism_open_params(proper_prism_model *m, const char *const *names, size_t n, proper_error *err) {
    size_t i;
    for (i = 0; i < n; i++) {
        int32_t sym = proper__prism_names_find(&m->names, names[i], strlen(names[i]));
        proper__prism_const_decl *c;
        int rc;
        if (sym < 0 || m->sym_const[sym] < 0)
            return proper_error_set(err, PROPER_EUNDEFINED, m->file, 0, 0, "--param: the model has no constant '%s'", names[i]);
        c = &m->consts[m->sym_const[sym]];
        if (c->expr >= 0 || c->type != PROPER_PRISM_DOUBLE)
            return proper_error_set(err, PROPER_EINVAL, m->file, c->line, c->col,
                                    "--param: '%s' is %s; a parameter is a double constant without a value", names[i],
                                    c->expr >= 0 ? "defined in the model" : "not a double");
        /* distinct small sample values, summing to less than 1 */
        if ((rc = proper__prism_give_const(c, names[i], 1.0 / (double)(n + 2 + i), err)) != 0) return rc;
        c->given_text[0] = '\0';
    }
    return PROPER_OK;
}

/* An exact evaluation context for model m with the named parameters. */
static int proper__prism_xctx_open(proper__prism_xctx *X, const proper_prism_model *m, const char *const *params,
                                   size_t n_params, proper_error *err) {
    proper__prism_val *cv = NULL;
    int32_t *param_of;
    size_t i;
    int rc;
    memset(X, 0, sizeof *X);
    if ((rc = proper__prism_model_consts(m, &cv, err)) != 0) return rc;
    X->m = m;
    X->n_params = n_params;
    X->err = err;
    X->cx.m = m;
    X->cx.pool = &m->pool;
    X->cx.file = m->file;
    X->cx.cv = X->cv = cv;
    X->cx.err = err;
    X->cx.xc = X;
    X->param_of = param_of = (int32_t *)proper_calloc(m->n_consts + 1, sizeof *param_of);
    X->cval = (proper_ratfun *)proper_calloc(m->n_consts + 1, sizeof *X->cval);
    X->cdone = (unsigned char *)proper_calloc(m->n_consts + 1, 1);
    if (!param_of || !X->cval || !X->cdone) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (i = 0; i < m->n_consts; i++) param_of[i] = -1;
    for (i = 0; i < n_params; i++) {
        int32_t sym = proper__prism_names_find(&m->names, params[i], strlen(params[i]));
        if (sym < 0 || m->sym_const[sym] < 0 || m->consts[m->sym_const[sym]].expr >= 0)
            return proper_error_set(err, PROPER_EUNDEFINED, m->file, 0, 0, "the model has no parameter '%s'", params[i]);
        param_of[m->sym_const[sym]] = (int32_t)i;
    }
    return PROPER_OK;
}

/* The exact context a build decides PROPER__PM_N_XCMP nodes in. */
static int proper__prism_xcmp_open(const proper_prism_model *m, proper__prism_xctx **out, proper_error *err) {
    proper__prism_xctx *X = (proper__prism_xctx *)proper_calloc(1, sizeof *X);
    int rc;
    *out = NULL;
    if (!X) return proper_error_set(err, PROPER_ENOMEM, m->file, 0, 0, "out of memory");
    if ((rc = proper__prism_xctx_open(X, m, NULL, 0, err)) != 0) {
        if (X->m) proper__prism_xctx_close(X);
        PROPER_FREE(X);
        return rc;
    }
    *out = X;
    return PROPER_OK;
}

static void proper__prism_xcmp_close(proper__prism_xctx *xc) {
    if (!xc) return;
    proper__prism_xctx_close(xc);
    PROPER_FREE(xc);
}

static void proper__prism_xctx_close(proper__prism_xctx *X) {
    size_t i;
    for (i = 0; X->cval && i < X->m->n_consts; i++) proper_ratfun_free(&X->cval[i]);
    PROPER_FREE(X->cval);
    PROPER_FREE(X->cdone);
    PROPER_FREE(X->param_of);
    PROPER_FREE(X->cv);
}

PROPER_API int proper_prism_build_exact(const proper_prism_model *m, const proper_dtmc *d, const char *const *params,
                                        size_t n_params, proper_exact_dtmc *out, proper_error *err) {
    proper__prism_xctx X;
    proper_exact_dtmc e;
    uint32_t s;
    int rc;
    if (m->has_intervals)
        return proper_error_set(err, PROPER_EUNSUPPORTED, m->file, m->interval_line, m->interval_col,
                                "exact and parametric checking of models with probability intervals is not supported");
    if (d->n_vars != m->n_vars || (m->n_vars && !d->vals))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "the DTMC was not built from this model");
    if (err) proper_error_clear(err); /* an error without a message is then exact.h's arithmetic's */
    proper_exact_dtmc_init(&e);
    if ((rc = proper__prism_xctx_open(&X, m, params, n_params, err)) == 0 && (rc = proper__prism_check_param_use(&X)) == 0 &&
        (rc = proper__prism_check_structure_exact(&X)) == 0 && (rc = proper_exact_dtmc_create(&e, d, n_params, params, err)) == 0) {
        for (s = 0; s < d->n_states && !rc; s++) rc = proper__prism_xstate(&X, d, s, &e);
        if (!rc) rc = proper_exact_dtmc_check(&e, d, err);
    }
    if (!rc) {
        proper_exact_dtmc_free(out);
        *out = e;
        proper_exact_dtmc_init(&e);
    }
    proper__prism_xctx_close(&X);
    proper_exact_dtmc_free(&e);
    return proper__prism_xdescribe(err, m->file, 0, 0, "", rc);
}

/* x = 1 - x in every state (a negated path formula). */
static int proper__prism_xcomplement(proper_exact_vec *x) {
    proper_rat one;
    proper_ratfun fone;
    uint32_t s;
    int rc;
    proper_rat_init(&one);
    proper_ratfun_init(&fone);
    rc = proper_rat_set_i64(&one, 1, 1);
    if (!rc) rc = proper_ratfun_set_rat(&fone, &one);
    for (s = 0; s < x->n && !rc; s++)
        rc = x->n_params ? proper_ratfun_sub(&x->f[s], &fone, &x->f[s]) : proper_rat_sub(&x->q[s], &one, &x->q[s]);
    proper_rat_free(&one);
    proper_ratfun_free(&fone);
    return rc;
}

static int proper__prism_xprob(proper__prism_checker *C, const proper_exact_dtmc *e, const proper__prism_node *nd,
                               const proper_exact_opts *o, proper_exact_vec *x) {
    proper__prism_until u;
    int rc;
    if ((rc = proper__prism_until_form(C, nd->a, &u)) != 0) return rc;
    if (C->d->kind == PROPER_DTMC_KIND_CTMC && (u.path->idx >= 0 || u.path->c >= 0)) /* until_form leaves times out */
        rc = proper__prism_cerr(C, u.path->line, u.path->col, PROPER_EUNSUPPORTED,
                                "exact: a CTMC's time bounds are not rational (exp(-qt))");
    else if (u.lo > 0)
        rc = proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED, "exact: a lower step bound is not supported");
    else if (u.next)
        rc = proper_exact_prob_next(C->d, e, &u.phi2, x, C->err);
    else if (u.hi >= 0)
        rc = proper_exact_prob_bounded_until(C->d, e, &u.phi1, &u.phi2, (unsigned long)u.hi, x, C->err);
    else
        rc = proper_exact_prob_until(C->d, e, &u.phi1, &u.phi2, o, x, NULL, C->err);
    if (!rc && u.neg) rc = proper__prism_xcomplement(x);
    proper__prism_until_free(&u);
    return rc;
}

static int proper__prism_xreward(proper__prism_checker *C, const proper_exact_dtmc *e, const proper__prism_node *nd,
                                 const proper_exact_opts *o, proper_exact_vec *x) {
    const proper__prism_node *f = &C->p->pool.n[nd->a];
    const proper_dtmc_reward *rew = NULL;
    size_t r;
    long long k;
    proper_bitset phi;
    int rc;
    if ((rc = proper__prism_reward_of(C, nd, &rew)) != 0) return rc;
    r = (size_t)(rew - C->d->rewards);
    if (f->kind == PROPER__PM_N_PATH && f->op == PROPER__PM_T_F && f->c < 0 && f->idx < 0 &&
        !(C->p->pool.n[f->b].flags & PROPER__PM_F_PATH)) {
        if ((rc = proper__prism_state_set(C, f->b, &phi)) != 0) return rc;
        rc = proper_exact_reward_reach(C->d, e, r, &phi, o, x, NULL, C->err);
        proper_bitset_free(&phi);
        return rc;
    }
    if (f->kind == PROPER__PM_N_PATH && f->op == PROPER__PM_T_LRA) return proper_exact_reward_steady(C->d, e, r, o, x, NULL, C->err);
    if (f->kind == PROPER__PM_N_PATH && (f->op == PROPER__PM_T_C || f->op == PROPER__PM_T_I)) {
        if ((rc = proper__prism_const_int(C, f->c, &k)) != 0) return rc;
        if (k < 0) return proper__prism_cerr(C, f->line, f->col, PROPER_ERANGE, "negative step bound %lld", k);
        return f->op == PROPER__PM_T_C ? proper_exact_reward_cumulative(C->d, e, r, (unsigned long)k, x, C->err)
                                       : proper_exact_reward_instant(C->d, e, r, (unsigned long)k, x, C->err);
    }
    return proper__prism_cerr(C, f->line, f->col, PROPER_EUNSUPPORTED,
                              "exact: the reward operators solved exactly are F, C<=k, I=k and S");
}

static int proper__prism_xbound(proper__prism_checker *C, int32_t e, proper_rat *out);

/* A constant expression of the properties (a bound) exactly: numbers as
 * written, + - * / and parentheses (proper__prism_xbound names the node
 * where exact arithmetic failed). */
static int proper__prism_xbound_node(proper__prism_checker *C, int32_t e, proper_rat *out) {
    const proper__prism_node *nd = &C->p->pool.n[e];
    proper_rat b;
    int rc;
    switch (nd->kind) {
    case PROPER__PM_N_INT: return proper_rat_set_i64(out, (int64_t)nd->num, 1);
    case PROPER__PM_N_DOUBLE: {
        const char *text = C->p->names.names[nd->idx];
        return proper_rat_parse(out, text, strlen(text), "bound", C->err);
    }
    case PROPER__PM_N_FORMULA: case PROPER__PM_N_PLABEL: return proper__prism_xbound(C, nd->a, out);
    case PROPER__PM_N_NEG:
        if ((rc = proper__prism_xbound(C, nd->a, out)) != 0) return rc;
        return proper_rat_neg(out, out);
    case PROPER__PM_N_BIN:
        if (nd->op != PROPER__PM_OP_ADD && nd->op != PROPER__PM_OP_SUB && nd->op != PROPER__PM_OP_MUL &&
            nd->op != PROPER__PM_OP_DIV)
            break;
        proper_rat_init(&b);
        rc = proper__prism_xbound(C, nd->a, out);
        if (!rc) rc = proper__prism_xbound(C, nd->b, &b);
        if (!rc && nd->op == PROPER__PM_OP_DIV && proper_rat_is_zero(&b))
            rc = proper__prism_cerr(C, nd->line, nd->col, PROPER_EINVAL, "division by zero in a bound");
        if (!rc)
            rc = nd->op == PROPER__PM_OP_ADD ? proper_rat_add(out, out, &b) : nd->op == PROPER__PM_OP_SUB ? proper_rat_sub(out, out, &b)
                 : nd->op == PROPER__PM_OP_MUL ? proper_rat_mul(out, out, &b) : proper_rat_div(out, out, &b);
        proper_rat_free(&b);
        return rc;
    default: break;
    }
    return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED,
                              "exact: a bound is read exactly when it is a number or + - * / of numbers");
}

static int proper__prism_xbound(proper__prism_checker *C, int32_t e, proper_rat *out) {
    const proper__prism_node *nd = &C->p->pool.n[e];
    return proper__prism_xdescribe(C->err, C->p->file[0] ? C->p->file : NULL, nd->line, nd->col, "",
                                   proper__prism_xbound_node(C, e, out));
}

/* P>=b [...] and the like exactly: 1 or 0 in every state (rationals only:
 * a parametric value has no single truth value). */
static int proper__prism_xapply_bound(proper__prism_checker *C, const proper__prism_node *nd, proper_exact_vec *x) {
    proper_rat b, v;
    uint32_t s;
    int rc;
    proper_rat_init(&b);
    proper_rat_init(&v);
    rc = proper__prism_xbound(C, nd->b, &b);
    for (s = 0; s < x->n && !rc; s++) {
        int c, holds;
        if (!x->inf[s] && x->n_params && !proper_ratfun_is_const(&x->f[s], &v)) { /* depends on the parameters */
            rc = proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED, "parametric: a bound has no single truth value");
            break;
        }
        c = x->inf[s] ? 1 : proper_rat_cmp(x->n_params ? &v : &x->q[s], &b);
        holds = nd->op == PROPER__PM_OP_LT ? c < 0 : nd->op == PROPER__PM_OP_LE ? c <= 0 : nd->op == PROPER__PM_OP_GT ? c > 0 : c >= 0;
        x->inf[s] = 0;
        if (!x->n_params) rc = proper_rat_set_i64(&x->q[s], holds, 1);
        else if (!(rc = proper_rat_set_i64(&v, holds, 1))) rc = proper_ratfun_set_rat(&x->f[s], &v);
    }
    proper_rat_free(&b);
    proper_rat_free(&v);
    return rc;
}

static int proper__prism_xoperator(proper__prism_checker *C, const proper_exact_dtmc *e, const proper__prism_node *nd,
                                   proper_exact_vec *x);

static int proper__prism_xexpr(proper__prism_checker *C, proper__prism_xctx *X, int32_t e, size_t s, proper_ratfun *out);

/* a ^ b of a properties expression, b an exact integer. */
static int proper__prism_xexpr_pow(proper__prism_checker *C, proper__prism_xctx *X, const proper__prism_node *nd, size_t s,
                                   proper_ratfun *out) {
    proper_ratfun k;
    proper_rat q;
    int64_t v = 0, den = 0;
    int rc;
    proper_ratfun_init(&k);
    proper_rat_init(&q);
    rc = proper__prism_xexpr(C, X, nd->b, s, &k);
    if (!rc && (!proper_ratfun_is_const(&k, &q) || !proper_bigint_to_i64(&q.den, &den) || den != 1 ||
                !proper_bigint_to_i64(&q.num, &v) || v > PROPER_EXACT_MAX_POWER || v < -(int64_t)PROPER_EXACT_MAX_POWER))
        rc = proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED, "an exact power needs an integer exponent (at most 1000)");
    if (!rc) rc = proper__prism_xexpr(C, X, nd->a, s, out);
    if (!rc && v < 0) {
        if (proper_ratfun_is_zero(out)) rc = proper__prism_cerr(C, nd->line, nd->col, PROPER_EINVAL, "0 to a negative power");
        else if (!(rc = proper_rat_set_i64(&q, 1, 1)) && !(rc = proper_ratfun_set_rat(&k, &q))) rc = proper_ratfun_div(out, &k, out);
        v = -v;
    }
    if (!rc) rc = proper_ratfun_pow(out, out, (unsigned)v);
    proper_ratfun_free(&k);
    proper_rat_free(&q);
    return rc;
}

/* A properties expression without operators, exactly, in state s: int and
 * bool parts by the ordinary evaluator, numbers as written, model
 * constants and formulas through the model's exact evaluator
 * (proper__prism_xexpr names the node where exact arithmetic failed). */
static int proper__prism_xexpr_node(proper__prism_checker *C, proper__prism_xctx *X, int32_t e, size_t s,
                                    proper_ratfun *out) {
    const proper__prism_node *nd = &C->p->pool.n[e];
    proper_ratfun b;
    proper_rat q;
    proper__prism_val v;
    int rc;
    if (C->d->vals) X->cx.vals = C->d->vals + s * C->d->n_vars;
    if (nd->type == PROPER_PRISM_DOUBLE && C->xvals && C->xvals[e]) { /* an operator, computed exactly */
        const proper_exact_vec *xv = C->xvals[e];
        if (xv->inf[s])
            return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED, "exact: an infinite value inside an expression");
        if (xv->n_params) return proper_ratfun_copy(out, &xv->f[s]);
        return proper_ratfun_set_rat(out, &xv->q[s]);
    }
    if (nd->type != PROPER_PRISM_DOUBLE || nd->kind == PROPER__PM_N_PCONST) {
        if ((rc = proper__prism_eval_at(C, e, s, &v)) != 0) return rc;
        proper_rat_init(&q);
        rc = nd->type == PROPER_PRISM_DOUBLE ? proper__prism_rat_of_double(&q, v.d) : proper_rat_set_i64(&q, v.i, 1);
        if (!rc) rc = proper_ratfun_set_rat(out, &q);
        proper_rat_free(&q);
        return rc;
    }
    switch (nd->kind) {
    case PROPER__PM_N_DOUBLE: {
        const char *text = C->p->names.names[nd->idx];
        proper_rat_init(&q);
        rc = proper_rat_parse(&q, text, strlen(text), "literal", C->err);
        if (!rc) rc = proper_ratfun_set_rat(out, &q);
        proper_rat_free(&q);
        return rc;
    }
    case PROPER__PM_N_CONST: return proper__prism_xconst(X, nd, out);
    case PROPER__PM_N_MFORMULA: return proper__prism_xeval(X, nd->a, out);
    case PROPER__PM_N_FORMULA: case PROPER__PM_N_PLABEL: return proper__prism_xexpr(C, X, nd->a, s, out);
    case PROPER__PM_N_NEG:
        if ((rc = proper__prism_xexpr(C, X, nd->a, s, out)) != 0) return rc;
        return proper_ratfun_neg(out, out);
    case PROPER__PM_N_ITE:
        if ((rc = proper__prism_eval_at(C, nd->a, s, &v)) != 0) return rc;
        return proper__prism_xexpr(C, X, v.i ? nd->b : nd->c, s, out);
    case PROPER__PM_N_FUNC:
        if (nd->op == PROPER__PM_FN_POW) return proper__prism_xexpr_pow(C, X, nd, s, out);
        break;
    case PROPER__PM_N_BIN:
        if (nd->op == PROPER__PM_OP_POW) return proper__prism_xexpr_pow(C, X, nd, s, out);
        if (nd->op != PROPER__PM_OP_ADD && nd->op != PROPER__PM_OP_SUB && nd->op != PROPER__PM_OP_MUL && nd->op != PROPER__PM_OP_DIV)
            break;
        proper_ratfun_init(&b);
        rc = proper__prism_xexpr(C, X, nd->a, s, out);
        if (!rc) rc = proper__prism_xexpr(C, X, nd->b, s, &b);
        if (!rc && nd->op == PROPER__PM_OP_DIV && proper_ratfun_is_zero(&b))
            rc = proper__prism_cerr(C, nd->line, nd->col, PROPER_EINVAL, "division by zero");
        if (!rc)
            rc = nd->op == PROPER__PM_OP_ADD ? proper_ratfun_add(out, out, &b) : nd->op == PROPER__PM_OP_SUB ? proper_ratfun_sub(out, out, &b)
                 : nd->op == PROPER__PM_OP_MUL ? proper_ratfun_mul(out, out, &b) : proper_ratfun_div(out, out, &b);
        proper_ratfun_free(&b);
        return rc;
    default: break;
    }
    return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED, "exact: this expression has no exact value here");
}

static int proper__prism_xexpr(proper__prism_checker *C, proper__prism_xctx *X, int32_t e, size_t s, proper_ratfun *out) {
    const proper__prism_node *nd = &C->p->pool.n[e];
    return proper__prism_xdescribe(C->err, C->p->file[0] ? C->p->file : NULL, nd->line, nd->col, "",
                                   proper__prism_xexpr_node(C, X, e, s, out));
}

static int proper__prism_xproperty(proper__prism_checker *C, const proper_exact_dtmc *e, int32_t top, proper_exact_vec *x);

/* The operators inside expression e, each computed once: P, R and S
 * exactly (their exact values in C->xvals, the nearest doubles in
 * C->opvals for the int and bool parts around them: round(1+P=?[...]),
 * P=?[...] = 1/2), a property reference as its property, E and A on the
 * graph (exact as they are). Filters are refused, and so is a value that
 * no double holds exactly inside an int or bool part (in_float: the
 * ordinary evaluator computes e, in doubles). */
static int proper__prism_xprepare(proper__prism_checker *C, const proper_exact_dtmc *e, int32_t top, int in_float) {
    const proper__prism_node *nd;
    proper_exact_vec *xv;
    proper_rat back;
    uint32_t s;
    int rc;
    if (top < 0) return PROPER_OK;
    nd = &C->p->pool.n[top];
    if (!(nd->flags & PROPER__PM_F_OPS)) return PROPER_OK;
    in_float |= nd->type != PROPER_PRISM_DOUBLE;
    if (!proper__prism_is_operator(nd->kind)) {
        if (nd->kind == PROPER__PM_N_FORMULA || nd->kind == PROPER__PM_N_PLABEL)
            return proper__prism_xprepare(C, e, nd->a, in_float);
        if ((rc = proper__prism_xprepare(C, e, nd->a, in_float)) != 0 || (rc = proper__prism_xprepare(C, e, nd->b, in_float)) != 0)
            return rc;
        return proper__prism_xprepare(C, e, nd->c, in_float);
    }
    if (C->opvals[top]) return PROPER_OK;
    if (nd->kind == PROPER__PM_N_EXISTS || nd->kind == PROPER__PM_N_FORALL) return proper__prism_prepare(C, top);
    if (nd->kind == PROPER__PM_N_FILTER)
        return proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED, "exact: filters are not computed exactly");
    if (!C->xvals && !(C->xvals = (proper_exact_vec **)proper_calloc(C->p->pool.len + 1, sizeof *C->xvals)))
        return proper_error_set(C->err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    if (!(xv = (proper_exact_vec *)proper_calloc(1, sizeof *xv)) ||
        !(C->opvals[top] = (double *)proper_calloc((size_t)C->d->n_states + 1, sizeof(double)))) {
        PROPER_FREE(xv);
        return proper_error_set(C->err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    }
    proper_exact_vec_init(xv);
    C->xvals[top] = xv;
    if (nd->kind == PROPER__PM_N_PROPREF) {
        if (C->busy[nd->idx])
            return proper__prism_cerr(C, nd->line, nd->col, PROPER_EINVAL, "property \"%s\" refers to itself",
                                      C->p->props[nd->idx].name);
        C->busy[nd->idx] = 1;
        rc = proper__prism_xproperty(C, e, C->p->props[nd->idx].expr, xv);
        C->busy[nd->idx] = 0;
    } else {
        rc = proper__prism_xproperty(C, e, top, xv);
    }
    proper_rat_init(&back);
    for (s = 0; s < C->d->n_states && rc == 0 && in_float; s++) {
        if (xv->inf[s]) {
            C->opvals[top][s] = INFINITY;
        } else if (xv->n_params) { /* a function of the parameters has no one double */
            rc = proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED,
                                    "parametric: an operator inside an int or bool expression");
        } else {
            C->opvals[top][s] = proper_rat_to_double(&xv->q[s]);
            if ((rc = proper_rat_from_double(&back, C->opvals[top][s])) == 0 && proper_rat_cmp(&back, &xv->q[s]) != 0)
                rc = proper__prism_cerr(C, nd->line, nd->col, PROPER_EUNSUPPORTED,
                                        "exact: an operator's value that no double holds exactly, inside an int or "
                                        "bool expression (it would be decided in floating point)");
        }
    }
    proper_rat_free(&back);
    return rc;
}

/* A property without P, R or S operators at its top, exactly in the
 * initial states, the states of interest (0 elsewhere: an int expression
 * such as 16^(d+3) may overflow in states nobody asked about), as
 * proper__prism_result evaluates such a property; the operators inside it
 * through proper__prism_xprepare. */
static int proper__prism_xplain(proper__prism_checker *C, const proper_exact_dtmc *e, int32_t top, proper_exact_vec *x) {
    proper__prism_xctx X;
    proper_ratfun f;
    proper_rat q;
    proper_bitset init;
    uint32_t s;
    int rc;
    if (!C->p->m) return proper__prism_cerr(C, 0, 0, PROPER_EUNSUPPORTED, "exact: the properties have no model");
    if ((rc = proper__prism_xprepare(C, e, top, 0)) != 0) return rc;
    proper_bitset_init(&init);
    if ((rc = proper_dtmc_label_get(C->d, "init", &init, C->err)) != 0) return rc;
    proper_ratfun_init(&f);
    proper_rat_init(&q);
    if ((rc = proper_exact_vec_create(x, C->d->n_states, e->n_params)) != 0) {
        proper_bitset_free(&init);
        return proper_error_set(C->err, rc, NULL, 0, 0, "out of memory");
    }
    if ((rc = proper__prism_xctx_open(&X, C->p->m, (const char *const *)e->param_names, e->n_params, C->err)) == 0 &&
        (rc = proper__prism_load_labels(C, top)) == 0)
        for (s = 0; s < x->n && !rc; s++) {
            if (!PROPER_BITSET_GET(&init, s)) continue;
            if ((rc = proper__prism_xexpr(C, &X, top, s, &f)) != 0) break;
            if (x->n_params) rc = proper_ratfun_copy(&x->f[s], &f);
            else if (!proper_ratfun_is_const(&f, &q)) rc = proper__prism_cerr(C, 0, 0, PROPER_EINVAL, "not a number");
            else rc = proper_rat_copy(&x->q[s], &q);
        }
    proper__prism_xctx_close(&X);
    proper_ratfun_free(&f);
    proper_rat_free(&q);
    proper_bitset_free(&init);
    return rc;
}

/* Property top node e exactly, in every state (a bounded operator gives 1
 * or 0). */
static int proper__prism_xproperty(proper__prism_checker *C, const proper_exact_dtmc *e, int32_t top,
                                   proper_exact_vec *x) {
    const proper__prism_pool *pool = &C->p->pool;
    const proper__prism_node *nd = &pool->n[top];
    int rc;
    while (nd->kind == PROPER__PM_N_FORMULA || nd->kind == PROPER__PM_N_PLABEL) nd = &pool->n[nd->a];
    rc = proper__prism_xoperator(C, e, nd, x);
    if (!rc && (nd->kind == PROPER__PM_N_PROB || nd->kind == PROPER__PM_N_REWARD || nd->kind == PROPER__PM_N_STEADY) &&
        nd->op != PROPER__PM_QUERY)
        rc = proper__prism_xapply_bound(C, nd, x);
    return proper__prism_xdescribe(C->err, C->p->file[0] ? C->p->file : NULL, nd->line, nd->col, "", rc);
}

static int proper__prism_xoperator(proper__prism_checker *C, const proper_exact_dtmc *e, const proper__prism_node *nd,
                                   proper_exact_vec *x) {
    proper_exact_opts o = proper_exact_opts_default();
    proper_bitset phi;
    int rc;
    switch (nd->kind) {
    case PROPER__PM_N_PROB: return proper__prism_xprob(C, e, nd, &o, x);
    case PROPER__PM_N_REWARD: return proper__prism_xreward(C, e, nd, &o, x);
    case PROPER__PM_N_STEADY:
        if ((rc = proper__prism_state_set(C, nd->a, &phi)) != 0) return rc;
        rc = proper_exact_steady(C->d, e, &phi, &o, x, NULL, C->err);
        proper_bitset_free(&phi);
        return rc;
    case PROPER__PM_N_PROPREF:
        if (C->busy[nd->idx])
            return proper__prism_cerr(C, nd->line, nd->col, PROPER_EINVAL, "property \"%s\" refers to itself",
                                      C->p->props[nd->idx].name);
        C->busy[nd->idx] = 1;
        rc = proper__prism_xproperty(C, e, C->p->props[nd->idx].expr, x);
        C->busy[nd->idx] = 0;
        return rc;
    default: return proper__prism_xplain(C, e, (int32_t)(nd - C->p->pool.n), x);
    }
}

PROPER_API int proper_prism_props_exact(const proper_prism_props *p, size_t i, const proper_dtmc *d,
                                        const proper_exact_dtmc *e, proper_exact_vec *x, proper_error *err) {
    proper__prism_checker C;
    proper_prism_check_opts o = proper_prism_check_opts_default();
    proper_exact_vec v;
    int rc;
    if (i >= p->n_props) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no property %lu", (unsigned long)i);
    if (err) proper_error_clear(err); /* an error without a message is then exact.h's arithmetic's */
    proper_exact_vec_init(&v);
    if ((rc = proper__prism_checker_init(&C, p, d, &o, err)) == 0) rc = proper__prism_xproperty(&C, e, p->props[i].expr, &v);
    proper__prism_checker_free(&C);
    if (rc == 0) { /* x is an output: replaced on success only */
        proper_exact_vec_free(x);
        *x = v;
    } else {
        proper_exact_vec_free(&v);
    }
    return proper__prism_xdescribe(err, p->file[0] ? p->file : NULL, 0, 0, "", rc);
}

PROPER_API int proper_prism_props_exact_text(const proper_prism_props *p, size_t i, const proper_dtmc *d,
                                             const proper_exact_dtmc *e, proper_strbuf *text, proper_error *err) {
    proper_exact_vec x;
    int rc;
    if (d->init_dist)
        return proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0,
                                "exact: the model has several initial states (one is needed)");
    proper_exact_vec_init(&x);
    rc = proper_prism_props_exact(p, i, d, e, &x, err);
    if (!rc) proper_exact_vec_format(&x, e, d->init, text);
    if (!rc && text->failed) rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    proper_exact_vec_free(&x);
    return rc;
}
#endif /* PROPER_PRISM_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
