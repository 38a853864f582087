/* ltl.h — LTL model checking of discrete-time Markov chains.
 *
 * ---- Formulas -------------------------------------------------------------
 * A proper_ltl is an arena of nodes; a formula is built bottom-up, each
 * node naming its children by index, and `root` names the whole formula
 * (proper_ltl_add sets it to the node just added, so the last node added
 * is the root unless the caller changes it). Nodes may be shared (a DAG).
 *
 * Atomic propositions are numbers 0..n_aps-1: the caller (prism.h turns
 * every maximal state subformula into one) passes one proper_bitset over the
 * chain's states per proposition.
 *
 * Step bounds, as PRISM defines them, on F, G, U, W and R: an operator
 * carries the window [lo, hi] of steps (hi = PROPER_LTL_UNBOUNDED for none);
 * an unbounded operator has [0, PROPER_LTL_UNBOUNDED]. PRISM's forms map as
 *     F<=k: [0,k]   F<k: [0,k-1]   F>=k: [k,inf]   F>k: [k+1,inf]
 *     F=k: [k,k]    F[a,b]: [a,b]  (the same for G, U, W, R)
 * with the meanings
 *     a U[lo,hi] b   some step i in [lo,hi] has b, and every step < i has a
 *     F[lo,hi] b     true U[lo,hi] b
 *     G[lo,hi] a     every step i in [lo,hi] has a  (= !F[lo,hi] !a)
 *     a W[lo,hi] b   !((!b) U[lo,hi] (!a & !b))     (PRISM's rewriting)
 *     a R[lo,hi] b   !((!a) U[lo,hi] (!b))
 * NEXT takes no bound (X X a is two nodes). A window with lo > hi is empty:
 * F and U over it are false, G, W and R true (the dualities above).
 *
 * ---- Probabilities: proper_ltl_prob ---------------------------------------
 * x[s] = the probability that a path from state s satisfies the formula,
 * for every state. The method is the Courcoubetis–Yannakakis construction
 * (J. ACM 42(4), 1995, section 3), which is exact for Markov chains
 * without determinising an automaton: the temporal subformulas are
 * eliminated innermost first; for each, the current chain is refined into
 * a product whose states are (state, value of the subformula on the path
 * from here) with the conditioned transition probabilities
 *     P'((u,b),(v,b')) = P(u,v) * Pr_v(b') / Pr_u(b)       (a Doob h-transform)
 * over the successor values b' consistent with b, so the subformula becomes
 * an atomic proposition of the refined chain while the law of the paths is
 * unchanged. Which product states exist (Pr > 0) is decided by graph
 * analysis, not by rounding. docs/ltl.md has the details and the reasons
 * for this choice over a Rabin automaton.
 *
 * ---- Rewards: proper_ltl_reward_cosafe -----------------------------------
 * For a syntactically co-safe formula (in negation normal form, only X, U,
 * F, and G, W, R with a finite upper bound), the expected reward
 * accumulated until the formula is first satisfied (until the path read so
 * far is a good prefix), as PRISM's R=? [ cosafe-LTL ]: a deterministic
 * finite automaton is built by formula progression (states are residual
 * formulas in minimised disjunctive normal form; a state accepts when every
 * continuation satisfies it), the product with the chain is explored from
 * every state, and dtmc.h's reachability reward is solved on it. Infinity
 * where the formula is satisfied with probability < 1.
 *
 * ---- Limits ------------------------------------------------------------------
 * Automaton states, product states and the number of letters are bounded by
 * tunables (below, and per call in proper_ltl_opts); beyond them the call
 * fails with PROPER_ELIMIT and a message naming the limit, before the memory
 * is used.
 *
 * ---- Text syntax -------------------------------------------------------------
 * proper_ltl_parse reads PRISM's LTL syntax over named propositions, for
 * tests, fuzzing and programs that have no PRISM model:
 *     true false NAME "NAME" ! & | => <=> X U W R F G ( )
 *     F<=k F<k F>=k F>k F=k F[a,b] (bounds on F G U W R, as above)
 * precedence from loosest: <=>, =>, |, &, binary temporal operators (U W R,
 * right-associative), unary operators (! X F G).
 */
#ifndef PROPER_LTL_H
#define PROPER_LTL_H

#include "core.h"
#include "dtmc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Tunables (overridable before including) ------------------------------ */

/* Largest deterministic automaton (residual formulas) built for a co-safe
 * formula. */
#ifndef PROPER_LTL_MAX_AUTOMATON_STATES
#define PROPER_LTL_MAX_AUTOMATON_STATES 100000
#endif

/* Largest product chain (refined chain or chain x automaton), in states. */
#ifndef PROPER_LTL_MAX_PRODUCT_STATES
#define PROPER_LTL_MAX_PRODUCT_STATES 20000000
#endif

/* Largest alphabet (2^propositions used) over which a co-safe automaton
 * state is checked for accepting every continuation. */
#ifndef PROPER_LTL_MAX_LETTERS
#define PROPER_LTL_MAX_LETTERS 4096
#endif

/* Largest number of clauses in one residual formula. */
#ifndef PROPER_LTL_MAX_CLAUSES
#define PROPER_LTL_MAX_CLAUSES 4096
#endif

/* Deepest nesting the text parser accepts. */
#ifndef PROPER_LTL_MAX_DEPTH
#define PROPER_LTL_MAX_DEPTH 200
#endif

#define PROPER_LTL_UNBOUNDED ((unsigned long)-1)
#define PROPER_LTL_NONE ((uint32_t)-1)

/* ---- Formulas ------------------------------------------------------------- */

typedef enum proper_ltl_op {
    PROPER_LTL_TRUE,
    PROPER_LTL_FALSE,
    PROPER_LTL_AP,          /* atomic proposition `ap` */
    PROPER_LTL_NOT,         /* !left */
    PROPER_LTL_AND,         /* left & right */
    PROPER_LTL_OR,          /* left | right */
    PROPER_LTL_IMPLIES,     /* left => right */
    PROPER_LTL_IFF,         /* left <=> right */
    PROPER_LTL_NEXT,        /* X left */
    PROPER_LTL_UNTIL,       /* left U[lo,hi] right */
    PROPER_LTL_WEAK_UNTIL,  /* left W[lo,hi] right */
    PROPER_LTL_RELEASE,     /* left R[lo,hi] right */
    PROPER_LTL_EVENTUALLY,  /* F[lo,hi] left */
    PROPER_LTL_ALWAYS       /* G[lo,hi] left */
} proper_ltl_op;

typedef struct proper_ltl_node {
    proper_ltl_op op;
    uint32_t left, right;  /* children (PROPER_LTL_NONE where unused) */
    uint32_t ap;           /* PROPER_LTL_AP: the proposition's number */
    unsigned long lo, hi;  /* step window of F G U W R; [0, UNBOUNDED] otherwise */
} proper_ltl_node;

typedef struct proper_ltl {
    proper_ltl_node *nodes;
    size_t len, cap;
    uint32_t root;         /* PROPER_LTL_NONE while empty */
} proper_ltl;

PROPER_API void proper_ltl_init(proper_ltl *f);
PROPER_API void proper_ltl_free(proper_ltl *f);

/* Add a node of any operator but AP, unbounded; children must be existing
 * nodes (PROPER_LTL_NONE where the operator takes fewer). *index (may be
 * NULL) receives the new node's index, which also becomes f->root. */
PROPER_API int proper_ltl_add(proper_ltl *f, proper_ltl_op op, uint32_t left, uint32_t right,
                              uint32_t *index, proper_error *err);
/* Add F, G, U, W or R with the step window [lo, hi]. */
PROPER_API int proper_ltl_add_bounded(proper_ltl *f, proper_ltl_op op, uint32_t left, uint32_t right,
                                      unsigned long lo, unsigned long hi, uint32_t *index,
                                      proper_error *err);
/* Add atomic proposition number `ap`. */
PROPER_API int proper_ltl_add_ap(proper_ltl *f, uint32_t ap, uint32_t *index, proper_error *err);

/* 1 when the formula (from root) is syntactically co-safe: in negation
 * normal form it uses only X, U and F, plus G, W and R with a finite upper
 * bound. */
PROPER_API int proper_ltl_is_cosafe(const proper_ltl *f);

/* Append the formula in the text syntax above, fully parenthesised where
 * needed; names[i] (may be NULL, or shorter than needed: n_names) is the
 * name of proposition i, printed quoted; others print as "ap<i>". */
PROPER_API int proper_ltl_format(const proper_ltl *f, proper_strbuf *out, const char *const *names,
                                 size_t n_names, proper_error *err);

/* Parse the text syntax into *f (an output: initialised or holding an
 * earlier formula, replaced on success, unchanged on failure).
 * Proposition names are interned into *names (proposition i is
 * names->names[i]); errors name file:line:col. */
PROPER_API int proper_ltl_parse(proper_ltl *f, const char *text, size_t len, const char *file,
                                proper_intern *names, proper_error *err);

/* ---- Model checking ------------------------------------------------------- */

typedef struct proper_ltl_opts {
    proper_dtmc_solve_opts solve;   /* for every linear system solved */
    size_t max_automaton_states;    /* PROPER_LTL_MAX_AUTOMATON_STATES */
    size_t max_product_states;      /* PROPER_LTL_MAX_PRODUCT_STATES */
    size_t max_letters;             /* PROPER_LTL_MAX_LETTERS */
} proper_ltl_opts;

PROPER_API proper_ltl_opts proper_ltl_opts_default(void);

/* What a model-checking call built (optional; pass NULL). */
typedef struct proper_ltl_stats {
    size_t automaton_states;  /* co-safe: residual formulas built */
    size_t product_states;    /* largest product chain built */
    uint64_t product_trans;   /* its transitions */
    size_t refinements;       /* proper_ltl_prob: temporal subformulas eliminated */
} proper_ltl_stats;

/* x[s] (n_states doubles) = probability that a path from s satisfies the
 * formula f; aps[i] (i < n_aps, each of m->n_states bits) are the states
 * where proposition i holds. opts NULL = defaults. */
PROPER_API int proper_ltl_prob(const proper_dtmc *m, const proper_ltl *f, const proper_bitset *aps,
                               size_t n_aps, const proper_dtmc_solve_opts *opts, double *x,
                               proper_error *err);
PROPER_API int proper_ltl_prob_ex(const proper_dtmc *m, const proper_ltl *f, const proper_bitset *aps,
                                  size_t n_aps, const proper_ltl_opts *opts, double *x,
                                  proper_ltl_stats *stats, proper_error *err);

/* x[s] = expected reward r (state rewards of the states left and
 * transition rewards of the transitions taken) accumulated from s until
 * the co-safe formula f is first satisfied; INFINITY where that happens
 * with probability < 1. PROPER_EUNSUPPORTED when f is not syntactically
 * co-safe. Rewards must be >= 0 (dtmc.h's reachability reward). */
PROPER_API int proper_ltl_reward_cosafe(const proper_dtmc *m, const proper_dtmc_reward *r, const proper_ltl *f,
                                        const proper_bitset *aps, size_t n_aps,
                                        const proper_dtmc_solve_opts *opts, double *x, proper_error *err);
PROPER_API int proper_ltl_reward_cosafe_ex(const proper_dtmc *m, const proper_dtmc_reward *r,
                                           const proper_ltl *f, const proper_bitset *aps, size_t n_aps,
                                           const proper_ltl_opts *opts, double *x, proper_ltl_stats *stats,
                                           proper_error *err);

/* x[s] = probability that a path from s satisfies the co-safe formula f,
 * through the same automaton product as the reward (reachability of the
 * accepting product states): an independent route to proper_ltl_prob's
 * value on co-safe formulas. PROPER_EUNSUPPORTED when f is not co-safe. */
PROPER_API int proper_ltl_prob_cosafe(const proper_dtmc *m, const proper_ltl *f, const proper_bitset *aps,
                                      size_t n_aps, const proper_ltl_opts *opts, double *x,
                                      proper_ltl_stats *stats, proper_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_LTL_H */
