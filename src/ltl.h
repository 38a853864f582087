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
 * analysis, not by rounding. The root itself (under any negations and X)
 * is not refined: its probabilities are computed on the last chain.
 * docs/ltl.md has the details and the reasons for this choice over a
 * Rabin automaton.
 *
 * ---- Rewards: proper_ltl_reward_cosafe -----------------------------------
 * For a syntactically co-safe formula (in negation normal form, only X, U,
 * F, and G, W, R with a finite upper bound), the expected reward
 * accumulated until the formula is first satisfied, as PRISM's
 * R=? [ cosafe-LTL ]: a deterministic finite automaton is built by formula
 * progression (its states are residual formulas in minimised disjunctive
 * normal form; X phi leaves the obligation "phi at the next state", met
 * only once that state is read, so X true is satisfied after two states,
 * as in PRISM), the product with the chain is explored from every state,
 * and dtmc.h's reachability reward is solved on it. Infinity where the
 * formula is satisfied with probability < 1. The automaton reads only the
 * letters (sets of propositions) the chain's states carry; at most 64
 * propositions.
 *
 * ---- Interval models: proper_ltl_interval_prob ------------------------------
 * Pmin/Pmax of an LTL formula on a model whose transitions carry
 * probability intervals (PRISM's IDTMCs, nature choosing a distribution
 * within them at every step): the formula's tableau semi-determinised
 * (subset construction, then a jump chosen by the maximiser into a
 * breakpoint construction), its product with the model as an interval MDP,
 * the accepting maximal end components and the largest probability of
 * reaching them (dtmc.h's interval solver); Pmin [ f ] = 1 - Pmax [ !f ].
 *
 * ---- Limits ------------------------------------------------------------------
 * Automaton states, product states, refinements and residual formulas are
 * bounded by tunables (below, and per call in proper_ltl_opts); beyond them the call
 * fails with PROPER_ELIMIT and a message naming the limit, before the memory
 * is used.
 *
 * ---- Text syntax -------------------------------------------------------------
 * proper_ltl_parse reads PRISM's LTL syntax over named propositions, for
 * tests, fuzzing and programs that have no PRISM model:
 *     true false NAME "NAME" ! & | => <=> X U W R F G ( )
 *     F<=k F<k F>=k F>k F=k F[a,b] (bounds on F G U W R, as above)
 * with PRISM's precedence: the binary temporal operators U W R bind
 * loosest (right-associative), then the unary X F G, then <=>, =>, |, &,
 * and ! tightest; so `G F a | b` is G F (a | b) and `! F a` needs
 * parentheses, `!(F a)`. Nesting is limited to PROPER_LTL_MAX_DEPTH.
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

/* Largest product chain (refined chain or chain x automaton), in states;
 * also the largest table of step-bounded values (states x (bound + 2)). */
#ifndef PROPER_LTL_MAX_PRODUCT_STATES
#define PROPER_LTL_MAX_PRODUCT_STATES 10000000
#endif

/* Most refinements of the chain for one formula: temporal subformulas
 * below the root, each step of a lower step bound below the root counting
 * as one X; also the largest lower step bound at the root. */
#ifndef PROPER_LTL_MAX_REFINEMENTS
#define PROPER_LTL_MAX_REFINEMENTS 4096
#endif

/* Largest number of clauses in one residual formula. */
#ifndef PROPER_LTL_MAX_CLAUSES
#define PROPER_LTL_MAX_CLAUSES 1024
#endif

/* Most atom steps of clause comparisons (minimising residual formulas:
 * each test of a clause against a kept one walks at most its atoms) while
 * building one co-safe automaton, and most tableau nodes visited while
 * building the product of an interval model (successor sets and jumps):
 * about a second of work at -O2; nested step bounds such as
 * F<=4 F F>74 F F>74 a make residuals of hundreds of clauses at every
 * step, which this refuses quickly instead of working for minutes. */
#ifndef PROPER_LTL_MAX_AUTOMATON_WORK
#define PROPER_LTL_MAX_AUTOMATON_WORK 1000000000
#endif

/* Most temporal subformulas (after step bounds are expanded into X) of a
 * formula under a path quantifier (proper_ltl_exists): its tableau has up
 * to 2^this value masks per state. */
#ifndef PROPER_LTL_MAX_TABLEAU
#define PROPER_LTL_MAX_TABLEAU 20
#endif

/* Interval models (proper_ltl_interval_prob): most untils promised at
 * once in a state of the automaton's initial part, which has a jump for
 * each set of them (2^this value). */
#ifndef PROPER_LTL_MAX_JUMP_UNTILS
#define PROPER_LTL_MAX_JUMP_UNTILS 12
#endif

/* Deepest formula accepted (operators nested), by the parser, the
 * formatter and the co-safe automaton, which recurse over the formula. */
#ifndef PROPER_LTL_MAX_DEPTH
#define PROPER_LTL_MAX_DEPTH 1000
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

/* Append the formula in the text syntax above, every operand in
 * parentheses (so it parses back to the same formula); names[i] (may be NULL, or shorter than needed: n_names) is the
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
    size_t max_refinements;         /* PROPER_LTL_MAX_REFINEMENTS */
    size_t max_automaton_work;      /* PROPER_LTL_MAX_AUTOMATON_WORK */
} proper_ltl_opts;

PROPER_API proper_ltl_opts proper_ltl_opts_default(void);

/* What a model-checking call built (optional; pass NULL). */
typedef struct proper_ltl_stats {
    size_t automaton_states;  /* co-safe: residual formulas built */
    size_t product_states;    /* largest product chain built */
    uint64_t product_trans;   /* its transitions */
    size_t refinements;       /* proper_ltl_prob: temporal subformulas eliminated */
    double max_error;         /* proper_ltl_interval_prob: the proven bound of the
                               * reachability solve, INFINITY when none; 0 elsewhere */
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

/* Path quantifiers, as PRISM's non-probabilistic E[ ltl ] on a DTMC: out
 * (an output bitset of m->n_states bits: initialised or holding an earlier
 * set, replaced on success, unchanged on failure) receives the states from
 * which SOME path of the chain's graph (transitions of positive
 * probability, whatever their probability) satisfies f. A[ f ] is the
 * complement of E[ !f ]. This is not P>0: from a state with a self-loop
 * of probability 1/2, E[ G stay ] holds while P[ G stay ] = 0. Method: the
 * tableau product (Vardi–Wolper) of the graph with the values of the
 * temporal subformulas, and a reachable fair strongly connected component
 * (docs/ltl.md); step bounds are expanded into X. Formulas with more than
 * PROPER_LTL_MAX_TABLEAU temporal subformulas after expansion are refused
 * (PROPER_ELIMIT), as are products beyond max_product_states. */
PROPER_API int proper_ltl_exists(const proper_dtmc *m, const proper_ltl *f, const proper_bitset *aps, size_t n_aps,
                                 const proper_ltl_opts *opts, proper_bitset *out, proper_ltl_stats *stats,
                                 proper_error *err);

/* Interval models (PRISM's IDTMCs): lo[e], hi[e] (aligned with m->col;
 * m's probabilities are not used) bound the probability of transition e,
 * and at every step nature picks any distribution within the current
 * state's intervals, knowing the whole history. x[s] = the largest
 * (maximise = 1) or smallest (0) probability over nature's choices that a
 * path from s satisfies f (Pmin [ f ] = 1 - Pmax [ !f ]). The intervals
 * must lie in [0, 1] with each row's lower ends summing to at most 1 and
 * upper ends to at least 1 (PROPER_EPROB naming the state otherwise).
 * Method (docs/ltl.md): f's tableau, semi-determinised (subset
 * construction, then a jump chosen by the maximiser into a breakpoint
 * construction: Courcoubetis and Yannakakis 1995, section 4), its product
 * with the model as an interval MDP, its accepting maximal end components
 * and the largest probability of reaching them
 * (proper_dtmc_interval_prob_until). Formulas with more than
 * PROPER_LTL_MAX_TABLEAU temporal subformulas after step bounds are
 * expanded into X, and products beyond max_product_states states, are
 * refused (PROPER_ELIMIT), as are subset states promising more than
 * PROPER_LTL_MAX_JUMP_UNTILS untils at once. stats->max_error: the
 * reachability solve's proven bound (absolute, every state), INFINITY when
 * dtmc.h gives none (an end component of value below 1 outside the target,
 * which the run could stay in or leave). */
PROPER_API int proper_ltl_interval_prob(const proper_dtmc *m, const double *lo, const double *hi, const proper_ltl *f,
                                        const proper_bitset *aps, size_t n_aps, int maximise,
                                        const proper_ltl_opts *opts, double *x, proper_ltl_stats *stats,
                                        proper_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_LTL_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_LTL_IMPLEMENTATION
#define PROPER_LTL_IMPLEMENTATION

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- The arena ------------------------------------------------------------ */

PROPER_API void proper_ltl_init(proper_ltl *f) {
    memset(f, 0, sizeof *f);
    f->root = PROPER_LTL_NONE;
}

PROPER_API void proper_ltl_free(proper_ltl *f) {
    PROPER_FREE(f->nodes);
    proper_ltl_init(f);
}

static int proper__ltl_arity(proper_ltl_op op) {
    switch (op) {
    case PROPER_LTL_TRUE: case PROPER_LTL_FALSE: case PROPER_LTL_AP: return 0;
    case PROPER_LTL_NOT: case PROPER_LTL_NEXT: case PROPER_LTL_EVENTUALLY: case PROPER_LTL_ALWAYS: return 1;
    default: return 2;
    }
}

static int proper__ltl_is_boundable(proper_ltl_op op) {
    return op == PROPER_LTL_UNTIL || op == PROPER_LTL_WEAK_UNTIL || op == PROPER_LTL_RELEASE ||
           op == PROPER_LTL_EVENTUALLY || op == PROPER_LTL_ALWAYS;
}

static int proper__ltl_push(proper_ltl *f, proper_ltl_node nd, uint32_t *index, proper_error *err) {
    if (f->len >= (size_t)PROPER_LTL_NONE - 1)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "LTL formula: too many nodes");
    if (proper_reserve(&f->nodes, &f->cap, f->len + 1, sizeof *f->nodes))
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    f->nodes[f->len] = nd;
    f->root = (uint32_t)f->len++;
    if (index) *index = f->root;
    return 0;
}

PROPER_API int proper_ltl_add_bounded(proper_ltl *f, proper_ltl_op op, uint32_t left, uint32_t right,
                                      unsigned long lo, unsigned long hi, uint32_t *index,
                                      proper_error *err) {
    proper_ltl_node nd;
    int arity;
    if ((int)op < (int)PROPER_LTL_TRUE || (int)op > (int)PROPER_LTL_ALWAYS || op == PROPER_LTL_AP)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "LTL formula: invalid operator %d", (int)op);
    if ((lo != 0 || hi != PROPER_LTL_UNBOUNDED) && !proper__ltl_is_boundable(op))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "LTL formula: only F, G, U, W and R take step bounds");
    arity = proper__ltl_arity(op);
    if ((arity >= 1 && left >= f->len) || (arity >= 2 && right >= f->len))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "LTL formula: operand is not an existing node");
    nd.op = op;
    nd.left = arity >= 1 ? left : PROPER_LTL_NONE;
    nd.right = arity >= 2 ? right : PROPER_LTL_NONE;
    nd.ap = 0;
    nd.lo = lo;
    nd.hi = hi;
    return proper__ltl_push(f, nd, index, err);
}

PROPER_API int proper_ltl_add(proper_ltl *f, proper_ltl_op op, uint32_t left, uint32_t right,
                              uint32_t *index, proper_error *err) {
    return proper_ltl_add_bounded(f, op, left, right, 0, PROPER_LTL_UNBOUNDED, index, err);
}

PROPER_API int proper_ltl_add_ap(proper_ltl *f, uint32_t ap, uint32_t *index, proper_error *err) {
    proper_ltl_node nd;
    nd.op = PROPER_LTL_AP;
    nd.left = nd.right = PROPER_LTL_NONE;
    nd.ap = ap;
    nd.lo = 0;
    nd.hi = PROPER_LTL_UNBOUNDED;
    return proper__ltl_push(f, nd, index, err);
}

/* Checks shared by the entry points: a root, and depth within `max_depth`
 * (0: no depth limit). Children always precede their parents in the arena
 * (proper_ltl_add checks it), so one pass in index order computes depths. */
static int proper__ltl_check_formula(const proper_ltl *f, size_t max_depth, proper_error *err) {
    uint32_t *depth;
    size_t i;
    int rc = 0;
    if (f->root == PROPER_LTL_NONE || f->root >= f->len)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "LTL formula: no root node");
    if (!max_depth) return 0;
    depth = (uint32_t *)proper_calloc(f->len, sizeof *depth);
    if (!depth) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (i = 0; i < f->len; i++) {
        const proper_ltl_node *nd = &f->nodes[i];
        uint32_t d = 0;
        if (nd->left != PROPER_LTL_NONE && depth[nd->left] > d) d = depth[nd->left];
        if (nd->right != PROPER_LTL_NONE && depth[nd->right] > d) d = depth[nd->right];
        depth[i] = d + 1;
    }
    if (depth[f->root] > max_depth)
        rc = proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                              "LTL formula nested %lu deep, more than PROPER_LTL_MAX_DEPTH (%lu)",
                              (unsigned long)depth[f->root], (unsigned long)max_depth);
    PROPER_FREE(depth);
    return rc;
}

/* ---- Co-safety -------------------------------------------------------------
 * cs[2i + neg]: node i under `neg` negations is co-safe once in negation
 * normal form. Negation turns U into R and F into G (and back); W is an R
 * (a W b = b R (a | b)); an R or G is co-safe only with a finite upper
 * bound (or an empty window, which is the constant true). */
static int proper__ltl_window_finite(const proper_ltl_node *nd) {
    return nd->hi != PROPER_LTL_UNBOUNDED || nd->lo > nd->hi;
}

PROPER_API int proper_ltl_is_cosafe(const proper_ltl *f) {
    unsigned char *cs;
    size_t i;
    int result;
    if (f->root == PROPER_LTL_NONE || f->root >= f->len) return 0;
    cs = (unsigned char *)proper_calloc(f->len, 2);
    if (!cs) return 0;
    for (i = 0; i < f->len; i++) {
        const proper_ltl_node *nd = &f->nodes[i];
        int neg;
        for (neg = 0; neg < 2; neg++) {
            size_t l = nd->left, r = nd->right;
            int ok;
            switch (nd->op) {
            case PROPER_LTL_NOT: ok = cs[2 * l + !neg]; break;
            case PROPER_LTL_AND: case PROPER_LTL_OR: ok = cs[2 * l + neg] && cs[2 * r + neg]; break;
            case PROPER_LTL_IMPLIES: ok = cs[2 * l + !neg] && cs[2 * r + neg]; break;
            case PROPER_LTL_IFF: ok = cs[2 * l] && cs[2 * l + 1] && cs[2 * r] && cs[2 * r + 1]; break;
            case PROPER_LTL_NEXT: ok = cs[2 * l + neg]; break;
            case PROPER_LTL_UNTIL: case PROPER_LTL_RELEASE: {
                int is_release = (nd->op == PROPER_LTL_RELEASE) != neg;
                ok = cs[2 * l + neg] && cs[2 * r + neg] && (!is_release || proper__ltl_window_finite(nd));
                break;
            }
            case PROPER_LTL_WEAK_UNTIL:
                ok = cs[2 * l + neg] && cs[2 * r + neg] && (neg || proper__ltl_window_finite(nd));
                break;
            case PROPER_LTL_EVENTUALLY: ok = cs[2 * l + neg] && (!neg || proper__ltl_window_finite(nd)); break;
            case PROPER_LTL_ALWAYS: ok = cs[2 * l + neg] && (neg || proper__ltl_window_finite(nd)); break;
            default: ok = 1; break;
            }
            cs[2 * i + neg] = (unsigned char)ok;
        }
    }
    result = cs[2 * (size_t)f->root];
    PROPER_FREE(cs);
    return result;
}

/* ---- Formatting ------------------------------------------------------------- */

static void proper__ltl_format_bound(proper_strbuf *out, const proper_ltl_node *nd) {
    if (nd->lo == 0 && nd->hi == PROPER_LTL_UNBOUNDED) return;
    if (nd->lo == 0) proper_strbuf_printf(out, "<=%lu", nd->hi);
    else if (nd->hi == PROPER_LTL_UNBOUNDED) proper_strbuf_printf(out, ">=%lu", nd->lo);
    else if (nd->lo == nd->hi) proper_strbuf_printf(out, "=%lu", nd->lo);
    else proper_strbuf_printf(out, "[%lu,%lu]", nd->lo, nd->hi);
}

/* Largest formatted text: a formula DAG with much sharing prints
 * exponentially long, so the formatter stops here. */
#define PROPER__LTL_FORMAT_MAX ((size_t)1 << 20)

static void proper__ltl_format_node(const proper_ltl *f, uint32_t i, proper_strbuf *out,
                                    const char *const *names, size_t n_names) {
    static const char *const binary[] = {"&", "|", "=>", "<=>"};
    const proper_ltl_node *nd = &f->nodes[i];
    if (out->len > PROPER__LTL_FORMAT_MAX) return;
    switch (nd->op) {
    case PROPER_LTL_TRUE: proper_strbuf_puts(out, "true"); return;
    case PROPER_LTL_FALSE: proper_strbuf_puts(out, "false"); return;
    case PROPER_LTL_AP:
        if (names && nd->ap < n_names && names[nd->ap]) proper_strbuf_printf(out, "\"%s\"", names[nd->ap]);
        else proper_strbuf_printf(out, "ap%lu", (unsigned long)nd->ap);
        return;
    case PROPER_LTL_NOT:
        proper_strbuf_puts(out, "!(");
        break;
    case PROPER_LTL_NEXT: case PROPER_LTL_EVENTUALLY: case PROPER_LTL_ALWAYS:
        proper_strbuf_puts(out, nd->op == PROPER_LTL_NEXT ? "(X" : nd->op == PROPER_LTL_EVENTUALLY ? "(F" : "(G");
        proper__ltl_format_bound(out, nd);
        proper_strbuf_puts(out, " (");
        break;
    default:
        proper_strbuf_puts(out, "((");
        proper__ltl_format_node(f, nd->left, out, names, n_names);
        if (nd->op >= PROPER_LTL_AND && nd->op <= PROPER_LTL_IFF) {
            proper_strbuf_printf(out, ") %s (", binary[nd->op - PROPER_LTL_AND]);
        } else {
            proper_strbuf_puts(out, nd->op == PROPER_LTL_UNTIL ? ") U" : nd->op == PROPER_LTL_WEAK_UNTIL ? ") W" : ") R");
            proper__ltl_format_bound(out, nd);
            proper_strbuf_puts(out, " (");
        }
        proper__ltl_format_node(f, nd->right, out, names, n_names);
        proper_strbuf_puts(out, "))");
        return;
    }
    proper__ltl_format_node(f, nd->left, out, names, n_names);
    proper_strbuf_puts(out, nd->op == PROPER_LTL_NOT ? ")" : "))");
}

PROPER_API int proper_ltl_format(const proper_ltl *f, proper_strbuf *out, const char *const *names,
                                 size_t n_names, proper_error *err) {
    int rc = proper__ltl_check_formula(f, PROPER_LTL_MAX_DEPTH, err);
    size_t start = out->len;
    if (rc) return rc;
    proper__ltl_format_node(f, f->root, out, names, n_names);
    if (out->failed) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    if (out->len - start > PROPER__LTL_FORMAT_MAX) {
        out->len = start;
        if (out->data) out->data[start] = '\0';
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "LTL formula: text longer than %lu bytes",
                                (unsigned long)PROPER__LTL_FORMAT_MAX);
    }
    return 0;
}

/* ---- Parsing ------------------------------------------------------------------ */

typedef struct proper__ltl_parser {
    proper_cursor c;
    proper_ltl f;
    proper_intern *names;
    proper_error *err;
    size_t depth;
} proper__ltl_parser;

static void proper__ltl_skip_space(proper__ltl_parser *p) {
    while (p->c.p < p->c.end && (*p->c.p == ' ' || *p->c.p == '\t' || *p->c.p == '\r' || *p->c.p == '\n'))
        proper_cursor_advance(&p->c);
}

static int proper__ltl_ident_char(char ch, int first) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || (!first && ch >= '0' && ch <= '9');
}

/* Length of the identifier at the cursor (after blanks), 0 if none. */
static size_t proper__ltl_ident_len(proper__ltl_parser *p) {
    const char *q = p->c.p;
    proper__ltl_skip_space(p);
    q = p->c.p;
    if (q >= p->c.end || !proper__ltl_ident_char(*q, 1)) return 0;
    while (q < p->c.end && proper__ltl_ident_char(*q, 0)) q++;
    return (size_t)(q - p->c.p);
}

static int proper__ltl_is_word(proper__ltl_parser *p, const char *word) {
    size_t n = proper__ltl_ident_len(p);
    return n == strlen(word) && memcmp(p->c.p, word, n) == 0;
}

static void proper__ltl_skip(proper__ltl_parser *p, size_t n) {
    while (n--) proper_cursor_advance(&p->c);
}

/* Skip blanks; 1 (and consume it) if the text continues with `tok`. */
static int proper__ltl_accept(proper__ltl_parser *p, const char *tok) {
    size_t n = strlen(tok);
    proper__ltl_skip_space(p);
    if ((size_t)(p->c.end - p->c.p) < n || memcmp(p->c.p, tok, n) != 0) return 0;
    proper__ltl_skip(p, n);
    return 1;
}

static int proper__ltl_expected(proper__ltl_parser *p, const char *what) {
    proper__ltl_skip_space(p);
    if (p->c.p >= p->c.end) return proper_cursor_error(&p->c, p->err, PROPER_EPARSE, "expected %s, found the end", what);
    return proper_cursor_error(&p->c, p->err, PROPER_EPARSE, "expected %s, found '%c'", what, *p->c.p);
}

/* A step count: decimal digits, below PROPER_LTL_UNBOUNDED. */
static int proper__ltl_parse_count(proper__ltl_parser *p, unsigned long *out) {
    unsigned long v = 0;
    proper__ltl_skip_space(p);
    if (p->c.p >= p->c.end || *p->c.p < '0' || *p->c.p > '9') return proper__ltl_expected(p, "a step count");
    while (p->c.p < p->c.end && *p->c.p >= '0' && *p->c.p <= '9') {
        unsigned d = (unsigned)(*p->c.p - '0');
        if (v > (PROPER_LTL_UNBOUNDED - 1 - d) / 10)
            return proper_cursor_error(&p->c, p->err, PROPER_ERANGE, "step count too large");
        v = v * 10 + d;
        proper_cursor_advance(&p->c);
    }
    *out = v;
    return 0;
}

/* An optional bound after F G U W R: <=k <k >=k >k =k [a,b]. */
static int proper__ltl_parse_bound(proper__ltl_parser *p, unsigned long *lo, unsigned long *hi) {
    unsigned long k;
    int rc;
    *lo = 0;
    *hi = PROPER_LTL_UNBOUNDED;
    if (proper__ltl_accept(p, "<=")) {
        if ((rc = proper__ltl_parse_count(p, hi))) return rc;
    } else if (proper__ltl_accept(p, "<")) {
        if ((rc = proper__ltl_parse_count(p, &k))) return rc;
        if (k == 0) *lo = 1, *hi = 0; /* the empty window */
        else *hi = k - 1;
    } else if (proper__ltl_accept(p, ">=")) {
        if ((rc = proper__ltl_parse_count(p, lo))) return rc;
    } else if (proper__ltl_accept(p, ">")) {
        if ((rc = proper__ltl_parse_count(p, &k))) return rc;
        if (k + 1 == PROPER_LTL_UNBOUNDED)
            return proper_cursor_error(&p->c, p->err, PROPER_ERANGE, "step count too large");
        *lo = k + 1;
    } else if (proper__ltl_accept(p, "=")) {
        if ((rc = proper__ltl_parse_count(p, lo))) return rc;
        *hi = *lo;
    } else if (proper__ltl_accept(p, "[")) {
        if ((rc = proper__ltl_parse_count(p, lo))) return rc;
        if (!proper__ltl_accept(p, ",")) return proper__ltl_expected(p, "',' in a step window [a,b]");
        if ((rc = proper__ltl_parse_count(p, hi))) return rc;
        if (!proper__ltl_accept(p, "]")) return proper__ltl_expected(p, "']' closing a step window");
    }
    return 0;
}

static int proper__ltl_parse_bin(proper__ltl_parser *p, uint32_t *out);

static int proper__ltl_enter(proper__ltl_parser *p) {
    if (++p->depth > PROPER_LTL_MAX_DEPTH)
        return proper_cursor_error(&p->c, p->err, PROPER_ELIMIT,
                                   "formula nested deeper than PROPER_LTL_MAX_DEPTH (%d)", PROPER_LTL_MAX_DEPTH);
    return 0;
}

static int proper__ltl_parse_ap(proper__ltl_parser *p, const char *s, size_t n, uint32_t *out) {
    size_t index;
    if (proper_intern_add(p->names, s, n, &index, NULL))
        return proper_error_set(p->err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    if (index >= PROPER_LTL_NONE) return proper_cursor_error(&p->c, p->err, PROPER_ELIMIT, "too many propositions");
    return proper_ltl_add_ap(&p->f, (uint32_t)index, out, p->err);
}

static int proper__ltl_parse_primary(proper__ltl_parser *p, uint32_t *out) {
    size_t n;
    int rc;
    if (proper__ltl_accept(p, "(")) {
        if ((rc = proper__ltl_parse_bin(p, out))) return rc;
        if (!proper__ltl_accept(p, ")")) return proper__ltl_expected(p, "')'");
        return 0;
    }
    if (proper__ltl_accept(p, "\"")) {
        const char *start = p->c.p;
        while (p->c.p < p->c.end && *p->c.p != '"' && *p->c.p != '\n') proper_cursor_advance(&p->c);
        if (p->c.p >= p->c.end || *p->c.p != '"') return proper__ltl_expected(p, "'\"' closing a name");
        n = (size_t)(p->c.p - start);
        proper_cursor_advance(&p->c);
        if (n == 0 || memchr(start, '\0', n)) return proper_cursor_error(&p->c, p->err, PROPER_EPARSE, "empty or invalid name");
        return proper__ltl_parse_ap(p, start, n, out);
    }
    n = proper__ltl_ident_len(p);
    if (n == 0) return proper__ltl_expected(p, "a proposition, true, false or '('");
    if (n == 4 && !memcmp(p->c.p, "true", 4)) {
        proper__ltl_skip(p, n);
        return proper_ltl_add(&p->f, PROPER_LTL_TRUE, PROPER_LTL_NONE, PROPER_LTL_NONE, out, p->err);
    }
    if (n == 5 && !memcmp(p->c.p, "false", 5)) {
        proper__ltl_skip(p, n);
        return proper_ltl_add(&p->f, PROPER_LTL_FALSE, PROPER_LTL_NONE, PROPER_LTL_NONE, out, p->err);
    }
    if (n == 1 && strchr("XFGUWR", *p->c.p))
        return proper_cursor_error(&p->c, p->err, PROPER_EPARSE,
                                   "temporal operator %c where a proposition was expected (use parentheses)",
                                   *p->c.p);
    {
        const char *start = p->c.p;
        proper__ltl_skip(p, n);
        return proper__ltl_parse_ap(p, start, n, out);
    }
}

static int proper__ltl_parse_not(proper__ltl_parser *p, uint32_t *out) {
    uint32_t a;
    int rc;
    if (!proper__ltl_accept(p, "!")) return proper__ltl_parse_primary(p, out);
    if ((rc = proper__ltl_enter(p)) || (rc = proper__ltl_parse_not(p, &a))) return rc;
    p->depth--;
    return proper_ltl_add(&p->f, PROPER_LTL_NOT, a, PROPER_LTL_NONE, out, p->err);
}

static int proper__ltl_parse_and(proper__ltl_parser *p, uint32_t *out) {
    uint32_t a, b;
    int rc = proper__ltl_parse_not(p, &a);
    while (!rc && proper__ltl_accept(p, "&")) {
        if (!(rc = proper__ltl_parse_not(p, &b))) rc = proper_ltl_add(&p->f, PROPER_LTL_AND, a, b, &a, p->err);
    }
    *out = a;
    return rc;
}

static int proper__ltl_parse_or(proper__ltl_parser *p, uint32_t *out) {
    uint32_t a, b;
    int rc = proper__ltl_parse_and(p, &a);
    while (!rc && proper__ltl_accept(p, "|")) {
        if (!(rc = proper__ltl_parse_and(p, &b))) rc = proper_ltl_add(&p->f, PROPER_LTL_OR, a, b, &a, p->err);
    }
    *out = a;
    return rc;
}

static int proper__ltl_parse_implies(proper__ltl_parser *p, uint32_t *out) {
    uint32_t a, b;
    int rc = proper__ltl_parse_or(p, &a);
    if (rc) return rc;
    if (!proper__ltl_accept(p, "=>")) return *out = a, 0;
    if ((rc = proper__ltl_enter(p)) || (rc = proper__ltl_parse_implies(p, &b))) return rc;
    p->depth--;
    return proper_ltl_add(&p->f, PROPER_LTL_IMPLIES, a, b, out, p->err);
}

static int proper__ltl_parse_iff(proper__ltl_parser *p, uint32_t *out) {
    uint32_t a, b;
    int rc = proper__ltl_parse_implies(p, &a);
    while (!rc && proper__ltl_accept(p, "<=>")) {
        if (!(rc = proper__ltl_parse_implies(p, &b))) rc = proper_ltl_add(&p->f, PROPER_LTL_IFF, a, b, &a, p->err);
    }
    *out = a;
    return rc;
}

/* X F G bind looser than the boolean operators (PRISM): F a & b = F (a & b). */
static int proper__ltl_parse_unary(proper__ltl_parser *p, uint32_t *out) {
    proper_ltl_op op;
    unsigned long lo = 0, hi = PROPER_LTL_UNBOUNDED;
    uint32_t a;
    int rc;
    if (proper__ltl_is_word(p, "X")) op = PROPER_LTL_NEXT;
    else if (proper__ltl_is_word(p, "F")) op = PROPER_LTL_EVENTUALLY;
    else if (proper__ltl_is_word(p, "G")) op = PROPER_LTL_ALWAYS;
    else return proper__ltl_parse_iff(p, out);
    proper__ltl_skip(p, 1);
    if (op != PROPER_LTL_NEXT && (rc = proper__ltl_parse_bound(p, &lo, &hi))) return rc;
    if ((rc = proper__ltl_enter(p)) || (rc = proper__ltl_parse_unary(p, &a))) return rc;
    p->depth--;
    return proper_ltl_add_bounded(&p->f, op, a, PROPER_LTL_NONE, lo, hi, out, p->err);
}

static int proper__ltl_parse_bin(proper__ltl_parser *p, uint32_t *out) {
    proper_ltl_op op;
    unsigned long lo, hi;
    uint32_t a, b;
    int rc;
    if ((rc = proper__ltl_enter(p)) || (rc = proper__ltl_parse_unary(p, &a))) return rc;
    if (proper__ltl_is_word(p, "U")) op = PROPER_LTL_UNTIL;
    else if (proper__ltl_is_word(p, "W")) op = PROPER_LTL_WEAK_UNTIL;
    else if (proper__ltl_is_word(p, "R")) op = PROPER_LTL_RELEASE;
    else {
        p->depth--;
        return *out = a, 0;
    }
    proper__ltl_skip(p, 1);
    if ((rc = proper__ltl_parse_bound(p, &lo, &hi)) || (rc = proper__ltl_parse_bin(p, &b))) return rc;
    p->depth--;
    return proper_ltl_add_bounded(&p->f, op, a, b, lo, hi, out, p->err);
}

PROPER_API int proper_ltl_parse(proper_ltl *f, const char *text, size_t len, const char *file,
                                proper_intern *names, proper_error *err) {
    proper__ltl_parser p;
    uint32_t root;
    int rc;
    memset(&p, 0, sizeof p);
    proper_cursor_init(&p.c, text, len, file);
    proper_ltl_init(&p.f);
    p.names = names;
    p.err = err;
    rc = proper__ltl_parse_bin(&p, &root);
    if (!rc) {
        proper__ltl_skip_space(&p);
        if (p.c.p < p.c.end) rc = proper__ltl_expected(&p, "an operator or the end of the formula");
    }
    if (!rc) {
        p.f.root = root;
        rc = proper__ltl_check_formula(&p.f, PROPER_LTL_MAX_DEPTH, err);
        if (rc && err) {
            char msg[PROPER_ERROR_MESSAGE_MAX];
            memcpy(msg, err->message, sizeof msg);
            proper_error_set(err, rc, file, 1, 1, "%s", msg);
        }
    }
    if (rc) {
        proper_ltl_free(&p.f);
        return rc;
    }
    proper_ltl_free(f);
    *f = p.f;
    return 0;
}

/* ---- Internal formulas ----------------------------------------------------------
 * Both methods rewrite the caller's formula into a hash-consed store of
 * their own (equal subformulas are one node, children precede parents):
 *  - proper_ltl_prob into a kernel of boolean operators, X and U[0,k] only
 *    (PROPER__LTL_K_AP ... K_U), by the dualities of the header;
 *  - the co-safe automaton into negation normal form (literals, AND, OR,
 *    X, U and R with windows). */
enum {
    PROPER__LTL_K_TRUE, PROPER__LTL_K_FALSE, PROPER__LTL_K_AP, PROPER__LTL_K_NOT, PROPER__LTL_K_AND,
    PROPER__LTL_K_OR, PROPER__LTL_K_IFF, PROPER__LTL_K_X, PROPER__LTL_K_U, PROPER__LTL_K_R,
    PROPER__LTL_K_LIT,    /* a = proposition, b = 1 when negated */
    PROPER__LTL_K_PENDING /* automaton obligation: a holds at the state read next */
};

typedef struct proper__ltl_k {
    int op;
    uint32_t a, b;
    unsigned long lo, hi;
} proper__ltl_k;

typedef struct proper__ltl_store {
    proper__ltl_k *n;
    size_t len, cap;
    uint32_t *slot;  /* node + 1, or 0 */
    size_t nslot;
    int failed;      /* PROPER_ENOMEM or PROPER_ELIMIT once a node could not be made */
} proper__ltl_store;

/* Most nodes one internal formula may hold. */
#define PROPER__LTL_STORE_MAX ((size_t)1 << 26)

static void proper__ltl_store_free(proper__ltl_store *st) {
    PROPER_FREE(st->n);
    PROPER_FREE(st->slot);
    memset(st, 0, sizeof *st);
}

static uint64_t proper__ltl_k_hash(const proper__ltl_k *k) {
    uint64_t h = PROPER_FNV_OFFSET;
    h = proper_fnv1a(h, &k->op, sizeof k->op);
    h = proper_fnv1a(h, &k->a, sizeof k->a);
    h = proper_fnv1a(h, &k->b, sizeof k->b);
    h = proper_fnv1a(h, &k->lo, sizeof k->lo);
    return proper_fnv1a(h, &k->hi, sizeof k->hi);
}

static int proper__ltl_k_equal(const proper__ltl_k *x, const proper__ltl_k *y) {
    return x->op == y->op && x->a == y->a && x->b == y->b && x->lo == y->lo && x->hi == y->hi;
}

static int proper__ltl_store_grow(proper__ltl_store *st) {
    size_t nslot = st->nslot ? st->nslot * 2 : 64, i;
    uint32_t *slot = (uint32_t *)proper_calloc(nslot, sizeof *slot);
    if (!slot) return PROPER_ENOMEM;
    for (i = 0; i < st->len; i++) {
        size_t h = (size_t)proper__ltl_k_hash(&st->n[i]) & (nslot - 1);
        while (slot[h]) h = (h + 1) & (nslot - 1);
        slot[h] = (uint32_t)i + 1;
    }
    PROPER_FREE(st->slot);
    st->slot = slot;
    st->nslot = nslot;
    return 0;
}

/* The node (op, a, b, lo, hi), made once; PROPER_LTL_NONE after a failure. */
static uint32_t proper__ltl_node(proper__ltl_store *st, int op, uint32_t a, uint32_t b, unsigned long lo,
                                 unsigned long hi) {
    proper__ltl_k k;
    size_t h;
    if (st->failed) return PROPER_LTL_NONE;
    k.op = op;
    k.a = a;
    k.b = b;
    k.lo = lo;
    k.hi = hi;
    if (2 * (st->len + 1) > st->nslot && proper__ltl_store_grow(st)) {
        st->failed = PROPER_ENOMEM;
        return PROPER_LTL_NONE;
    }
    h = (size_t)proper__ltl_k_hash(&k) & (st->nslot - 1);
    while (st->slot[h]) {
        if (proper__ltl_k_equal(&st->n[st->slot[h] - 1], &k)) return st->slot[h] - 1;
        h = (h + 1) & (st->nslot - 1);
    }
    if (st->len >= PROPER__LTL_STORE_MAX) {
        st->failed = PROPER_ELIMIT;
        return PROPER_LTL_NONE;
    }
    if (proper_reserve(&st->n, &st->cap, st->len + 1, sizeof *st->n)) {
        st->failed = PROPER_ENOMEM;
        return PROPER_LTL_NONE;
    }
    st->n[st->len] = k;
    st->slot[h] = (uint32_t)st->len + 1;
    return (uint32_t)st->len++;
}

#define PROPER__LTL_OP(st, i) ((st)->n[i].op)

static uint32_t proper__ltl_const(proper__ltl_store *st, int value) {
    return proper__ltl_node(st, value ? PROPER__LTL_K_TRUE : PROPER__LTL_K_FALSE, 0, 0, 0, 0);
}

static uint32_t proper__ltl_not(proper__ltl_store *st, uint32_t a) {
    if (a == PROPER_LTL_NONE) return a;
    switch (PROPER__LTL_OP(st, a)) {
    case PROPER__LTL_K_TRUE: return proper__ltl_const(st, 0);
    case PROPER__LTL_K_FALSE: return proper__ltl_const(st, 1);
    case PROPER__LTL_K_NOT: return st->n[a].a;
    default: return proper__ltl_node(st, PROPER__LTL_K_NOT, a, 0, 0, 0);
    }
}

/* AND (is_and) or OR of a and b, with the constants folded. */
static uint32_t proper__ltl_junction(proper__ltl_store *st, int is_and, uint32_t a, uint32_t b) {
    int unit = is_and ? PROPER__LTL_K_TRUE : PROPER__LTL_K_FALSE;
    int zero = is_and ? PROPER__LTL_K_FALSE : PROPER__LTL_K_TRUE;
    uint32_t t;
    if (a == PROPER_LTL_NONE || b == PROPER_LTL_NONE) return PROPER_LTL_NONE;
    if (PROPER__LTL_OP(st, a) == zero || PROPER__LTL_OP(st, b) == unit || a == b) return a;
    if (PROPER__LTL_OP(st, b) == zero || PROPER__LTL_OP(st, a) == unit) return b;
    if (a > b) t = a, a = b, b = t;
    return proper__ltl_node(st, is_and ? PROPER__LTL_K_AND : PROPER__LTL_K_OR, a, b, 0, 0);
}

/* Kernel a U[lo,hi] b (section "Step bounds" of the header): an empty
 * window is false; at the root (keep_lower) a lower bound stays in the node;
 * elsewhere a lower bound lo > 0 becomes
 *     G[0,lo-1] a  &  X^lo (a U[0,hi-lo] b),   G[0,j] a = !(true U[0,j] !a),
 * since a must hold at steps 0..lo-1 and from step lo on the rest is an
 * until with the window shifted. `x_max` bounds lo (each X is one
 * refinement of the chain). */
static uint32_t proper__ltl_kernel_until(proper__ltl_store *st, uint32_t a, uint32_t b, unsigned long lo,
                                         unsigned long hi, size_t x_max, int keep_lower) {
    uint32_t head, tail;
    unsigned long i;
    if (a == PROPER_LTL_NONE || b == PROPER_LTL_NONE) return PROPER_LTL_NONE;
    if (lo > hi) return proper__ltl_const(st, 0);
    if (keep_lower && lo > 0 && lo <= x_max) return proper__ltl_node(st, PROPER__LTL_K_U, a, b, lo, hi);
    if (lo == 0) {
        if (PROPER__LTL_OP(st, b) == PROPER__LTL_K_TRUE || PROPER__LTL_OP(st, b) == PROPER__LTL_K_FALSE ||
            PROPER__LTL_OP(st, a) == PROPER__LTL_K_FALSE || hi == 0)
            return b;
        return proper__ltl_node(st, PROPER__LTL_K_U, a, b, 0, hi);
    }
    if (lo > x_max) {
        if (!st->failed) st->failed = PROPER_ELIMIT;
        return PROPER_LTL_NONE;
    }
    head = proper__ltl_not(st, proper__ltl_kernel_until(st, proper__ltl_const(st, 1), proper__ltl_not(st, a), 0,
                                                        lo - 1, x_max, 0));
    tail = proper__ltl_kernel_until(st, a, b, 0, hi == PROPER_LTL_UNBOUNDED ? hi : hi - lo, x_max, 0);
    for (i = 0; i < lo && tail != PROPER_LTL_NONE; i++) {
        int op = PROPER__LTL_OP(st, tail);
        if (op != PROPER__LTL_K_TRUE && op != PROPER__LTL_K_FALSE)
            tail = proper__ltl_node(st, PROPER__LTL_K_X, tail, 0, 0, 0);
    }
    return proper__ltl_junction(st, 1, head, tail);
}

/* The kernel of every node of f (kernel[i] for node i), in index order. */
static int proper__ltl_kernel(const proper_ltl *f, size_t n_aps, size_t x_max, int keep_root, proper__ltl_store *st,
                              uint32_t *kernel, proper_error *err) {
    size_t i, top = f->root;
    while (f->nodes[top].op == PROPER_LTL_NOT || f->nodes[top].op == PROPER_LTL_NEXT) top = f->nodes[top].left;
    for (i = 0; i < f->len; i++) {
        const proper_ltl_node *nd = &f->nodes[i];
        uint32_t l = nd->left != PROPER_LTL_NONE ? kernel[nd->left] : PROPER_LTL_NONE;
        uint32_t r = nd->right != PROPER_LTL_NONE ? kernel[nd->right] : PROPER_LTL_NONE;
        uint32_t t = proper__ltl_const(st, 1), k;
        int keep = keep_root && i == top; /* the root keeps a lower bound: proper__ltl_root computes it */
        switch (nd->op) {
        case PROPER_LTL_TRUE: k = t; break;
        case PROPER_LTL_FALSE: k = proper__ltl_const(st, 0); break;
        case PROPER_LTL_AP:
            if (nd->ap >= n_aps)
                return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                        "LTL formula: proposition %lu, but only %lu state sets were given",
                                        (unsigned long)nd->ap, (unsigned long)n_aps);
            k = proper__ltl_node(st, PROPER__LTL_K_AP, nd->ap, 0, 0, 0);
            break;
        case PROPER_LTL_NOT: k = proper__ltl_not(st, l); break;
        case PROPER_LTL_AND: k = proper__ltl_junction(st, 1, l, r); break;
        case PROPER_LTL_OR: k = proper__ltl_junction(st, 0, l, r); break;
        case PROPER_LTL_IMPLIES: k = proper__ltl_junction(st, 0, proper__ltl_not(st, l), r); break;
        case PROPER_LTL_IFF:
            k = (l == PROPER_LTL_NONE || r == PROPER_LTL_NONE) ? PROPER_LTL_NONE
                : proper__ltl_node(st, PROPER__LTL_K_IFF, l < r ? l : r, l < r ? r : l, 0, 0);
            break;
        case PROPER_LTL_NEXT:
            k = l == PROPER_LTL_NONE || PROPER__LTL_OP(st, l) <= PROPER__LTL_K_FALSE ? l
                : proper__ltl_node(st, PROPER__LTL_K_X, l, 0, 0, 0);
            break;
        case PROPER_LTL_UNTIL: k = proper__ltl_kernel_until(st, l, r, nd->lo, nd->hi, x_max, keep); break;
        case PROPER_LTL_EVENTUALLY: k = proper__ltl_kernel_until(st, t, l, nd->lo, nd->hi, x_max, keep); break;
        case PROPER_LTL_ALWAYS:
            k = proper__ltl_not(st, proper__ltl_kernel_until(st, t, proper__ltl_not(st, l), nd->lo, nd->hi, x_max, keep));
            break;
        case PROPER_LTL_WEAK_UNTIL: /* a W b = !((!b) U (!a & !b)) */
            k = proper__ltl_not(st, proper__ltl_kernel_until(
                                        st, proper__ltl_not(st, r),
                                        proper__ltl_junction(st, 1, proper__ltl_not(st, l), proper__ltl_not(st, r)),
                                        nd->lo, nd->hi, x_max, keep));
            break;
        default: /* RELEASE: a R b = !((!a) U (!b)) */
            k = proper__ltl_not(st, proper__ltl_kernel_until(st, proper__ltl_not(st, l), proper__ltl_not(st, r),
                                                             nd->lo, nd->hi, x_max, keep));
            break;
        }
        if (k == PROPER_LTL_NONE) {
            if (st->failed == PROPER_ELIMIT)
                return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                        "LTL formula: a lower step bound above %lu (PROPER_LTL_MAX_REFINEMENTS) "
                                        "or more than %lu internal nodes",
                                        (unsigned long)x_max, (unsigned long)PROPER__LTL_STORE_MAX);
            return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        }
        kernel[i] = k;
    }
    return 0;
}

/* ---- proper_ltl_prob: the Courcoubetis–Yannakakis refinement ---------------
 * The current chain `cur` (the caller's model, then each refinement) has
 * for every state u the original state orig[u] it stands for and the
 * probability w[u] that a path from orig[u] has the subformula values u
 * encodes; for each original state s the w of its copies sum to 1, and
 *     Pr_s(phi) = sum over copies u of s of w[u] * Pr_u(phi).
 * Kernel nodes are processed children first; each holds the set of states
 * of `cur` where it is true while a parent still needs it. A temporal node
 * (X, U) other than the root refines the chain by its values (below). */

typedef struct proper__ltl_cy {
    const proper_bitset *aps;
    const proper_ltl_opts *opts;
    proper_ltl_stats *stats;
    proper_error *err;
    proper__ltl_store *st;
    const proper_dtmc *cur;  /* the caller's model or &own */
    proper_dtmc own;
    uint32_t *orig;
    double *w;
    proper_bitset *val;      /* per kernel node; n == 0 while not held */
    uint32_t *uses;          /* parents still to be processed */
} proper__ltl_cy;

/* A refinement: the values a temporal node can take in a state, with
 * their probabilities q[v * n + u] and the exact set ex of (value, state)
 * pairs of positive probability. Values: X and U: 0 false, 1 true. U[0,k]:
 * the step d <= k at which the until is fulfilled, or k + 1 for "not within
 * k steps"; the node is true for d <= k. */
typedef struct proper__ltl_values {
    int kind;                /* PROPER__LTL_K_X or PROPER__LTL_K_U */
    unsigned long k;         /* U: the upper bound, or PROPER_LTL_UNBOUNDED */
    size_t nv;               /* values per state */
    double *q;
    proper_bitset ex;
    const proper_bitset *a, *b; /* U: the operands; X: b is the operand */
} proper__ltl_values;

static void proper__ltl_values_free(proper__ltl_values *v) {
    PROPER_FREE(v->q);
    proper_bitset_free(&v->ex);
}

static int proper__ltl_oom(proper_error *err) {
    return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
}

static int proper__ltl_product_limit(size_t n, size_t limit, proper_error *err) {
    if (n > limit)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                "LTL product needs more than %lu states (PROPER_LTL_MAX_PRODUCT_STATES)",
                                (unsigned long)limit);
    return 0;
}

/* X b: q1[u] = sum of P(u,v) over successors v in b, q0 the rest. */
static void proper__ltl_values_next(const proper_dtmc *m, proper__ltl_values *v) {
    uint32_t n = m->n_states, u;
    uint64_t t;
    for (u = 0; u < n; u++) {
        for (t = m->row[u]; t < m->row[u + 1]; t++) {
            int in = PROPER_BITSET_GET(v->b, m->col[t]);
            v->q[(size_t)in * n + u] += m->prob[t];
            proper_bitset_set(&v->ex, (size_t)in * n + u);
        }
    }
}

/* a U b unbounded: q1 = Pr(a U b), exactly 0 on prob0 and 1 on prob1. */
static int proper__ltl_values_until(proper__ltl_cy *cy, proper__ltl_values *v) {
    const proper_dtmc *m = cy->cur;
    uint32_t n = m->n_states, u;
    proper_bitset zero, one;
    int rc;
    proper_bitset_init(&zero);
    proper_bitset_init(&one);
    if ((rc = proper_dtmc_prob0(m, v->a, v->b, &zero, cy->err)) || (rc = proper_dtmc_prob1(m, v->a, v->b, &one, cy->err)) ||
        (rc = proper_dtmc_prob_until(m, v->a, v->b, &cy->opts->solve, v->q + n, NULL, cy->err)))
        goto done;
    for (u = 0; u < n; u++) {
        double y = v->q[n + u];
        if (PROPER_BITSET_GET(&zero, u)) y = 0;
        else if (PROPER_BITSET_GET(&one, u)) y = 1;
        else y = y < 0 ? 0 : y > 1 ? 1 : y;
        v->q[n + u] = y;
        v->q[u] = 1 - y;
        if (!PROPER_BITSET_GET(&zero, u)) proper_bitset_set(&v->ex, n + (size_t)u);
        if (!PROPER_BITSET_GET(&one, u)) proper_bitset_set(&v->ex, u);
    }
done:
    proper_bitset_free(&zero);
    proper_bitset_free(&one);
    return rc;
}

/* a U[0,k] b: with D the first step with b along a-steps,
 *     Pr_u(D = 0) = [b](u),  Pr_u(D = j) = [a & !b](u) sum_v P(u,v) Pr_v(D = j-1),
 *     Pr_u(D > 0) = [!b](u), Pr_u(D > j) = [!b](u) ([!a](u) + [a](u) sum_v P(u,v) Pr_v(D > j-1)),
 * sums of non-negative terms, so a value is positive exactly when a path
 * makes it so; the same recursion on booleans gives ex without rounding. */
static int proper__ltl_values_bounded(const proper_dtmc *m, proper__ltl_values *v, proper_error *err) {
    size_t n = m->n_states, k = v->k, j;
    double *tail = (double *)proper_calloc(2 * n, sizeof *tail);
    unsigned char *tail_pos = (unsigned char *)proper_calloc(2 * n, 1);
    size_t u;
    if (!tail || !tail_pos) {
        PROPER_FREE(tail);
        PROPER_FREE(tail_pos);
        return proper__ltl_oom(err);
    }
    for (u = 0; u < n; u++) {
        int b = PROPER_BITSET_GET(v->b, u);
        v->q[u] = b;
        if (b) proper_bitset_set(&v->ex, u);
        tail[u] = !b;
        tail_pos[u] = (unsigned char)!b;
    }
    for (j = 1; j <= k; j++) {
        double *prev_tail = tail + ((j - 1) & 1) * n, *next_tail = tail + (j & 1) * n;
        unsigned char *prev_pos = tail_pos + ((j - 1) & 1) * n, *next_pos = tail_pos + (j & 1) * n;
        for (u = 0; u < n; u++) {
            int a = PROPER_BITSET_GET(v->a, u), b = PROPER_BITSET_GET(v->b, u);
            double s = 0, ts = 0;
            int pos = 0, tpos = 0;
            uint64_t t;
            if (!b && a) {
                for (t = m->row[u]; t < m->row[u + 1]; t++) {
                    size_t w = m->col[t];
                    s += m->prob[t] * v->q[(j - 1) * n + w];
                    pos |= PROPER_BITSET_GET(&v->ex, (j - 1) * n + w);
                    ts += m->prob[t] * prev_tail[w];
                    tpos |= prev_pos[w];
                }
            }
            v->q[j * n + u] = s;
            if (pos) proper_bitset_set(&v->ex, j * n + u);
            next_tail[u] = b ? 0 : a ? ts : 1;
            next_pos[u] = (unsigned char)(b ? 0 : a ? tpos : 1);
        }
    }
    for (u = 0; u < n; u++) {
        v->q[(k + 1) * n + u] = tail[(k & 1) * n + u];
        if (tail_pos[(k & 1) * n + u]) proper_bitset_set(&v->ex, (k + 1) * n + u);
    }
    PROPER_FREE(tail);
    PROPER_FREE(tail_pos);
    return 0;
}

/* The values of kernel node i on the current chain. */
static int proper__ltl_values_make(proper__ltl_cy *cy, uint32_t i, proper__ltl_values *v) {
    const proper__ltl_k *k = &cy->st->n[i];
    size_t n = cy->cur->n_states, cells;
    int rc;
    memset(v, 0, sizeof *v);
    v->kind = k->op;
    v->k = k->hi;
    if (k->op == PROPER__LTL_K_X) {
        v->nv = 2;
        v->b = &cy->val[k->a];
    } else {
        v->a = &cy->val[k->a];
        v->b = &cy->val[k->b];
        v->nv = k->hi == PROPER_LTL_UNBOUNDED ? 2 : (k->hi > cy->opts->max_product_states ? (size_t)-1 : k->hi + 2);
    }
    if (v->nv == (size_t)-1 || proper_size_mul(v->nv, n, &cells) ||
        (rc = proper__ltl_product_limit(cells, cy->opts->max_product_states, cy->err)))
        return proper_error_set(cy->err, PROPER_ELIMIT, NULL, 0, 0,
                                "LTL step bound %lu on a chain of %lu states needs more than %lu value cells "
                                "(PROPER_LTL_MAX_PRODUCT_STATES)",
                                k->hi, (unsigned long)n, (unsigned long)cy->opts->max_product_states);
    v->q = (double *)proper_calloc(cells, sizeof *v->q);
    if (!v->q || proper_bitset_create(&v->ex, cells, cy->err)) {
        proper__ltl_values_free(v);
        return proper__ltl_oom(cy->err);
    }
    if (k->op == PROPER__LTL_K_X) proper__ltl_values_next(cy->cur, v);
    else if (k->hi == PROPER_LTL_UNBOUNDED) rc = proper__ltl_values_until(cy, v);
    else rc = proper__ltl_values_bounded(cy->cur, v, cy->err);
    if (rc) proper__ltl_values_free(v);
    return rc;
}

/* The values allowed at the successor v of (u, value): writes them to
 * next[] and returns how many, or returns (size_t)-1 for "any value".
 * X b: v must agree with the value (b holds at v exactly when X b holds
 * at u), then any value. U: a state where b holds, or where neither a nor
 * b hold, decides the until now, and the successor is free; otherwise the
 * until's value passes on (unbounded) or its step counts down, with
 * "not within k" (k + 1) at u coming from k or k + 1 at v. */
static size_t proper__ltl_allowed(const proper__ltl_values *vals, uint32_t u, size_t value, uint32_t v,
                                  size_t *next) {
    if (vals->kind == PROPER__LTL_K_X)
        return (size_t)PROPER_BITSET_GET(vals->b, v) == value ? (size_t)-1 : 0;
    if (PROPER_BITSET_GET(vals->b, u) || !PROPER_BITSET_GET(vals->a, u)) return (size_t)-1;
    if (vals->k == PROPER_LTL_UNBOUNDED || value <= vals->k) {
        next[0] = vals->k == PROPER_LTL_UNBOUNDED ? value : value - 1;
        return 1;
    }
    next[0] = vals->k;
    next[1] = vals->k + 1;
    return 2;
}

/* Lift a set of old states to the refined chain: bit i of the result is
 * bit par[i] of the old set. */
static int proper__ltl_lift(proper_bitset *set, const uint32_t *par, size_t n_new, proper_error *err) {
    proper_bitset lifted;
    size_t i;
    proper_bitset_init(&lifted);
    if (proper_bitset_create(&lifted, n_new, err)) return PROPER_ENOMEM;
    for (i = 0; i < n_new; i++)
        if (PROPER_BITSET_GET(set, par[i])) proper_bitset_set(&lifted, i);
    proper_bitset_free(set);
    *set = lifted;
    return 0;
}

/* Replace the current chain by its refinement by node i, whose values
 * are `vals`: states (u, value) for every pair in vals->ex, transitions
 *     (u,x) -> (v,y)  with weight P(u,v) q_y(v), y allowed after (u,x) at v,
 * each row divided by its sum (which is q_x(u) up to rounding). */
static int proper__ltl_refine(proper__ltl_cy *cy, uint32_t i, const proper__ltl_values *vals) {
    const proper_dtmc *m = cy->cur;
    size_t n = m->n_states, nv = vals->nv, n_new = proper_bitset_count(&vals->ex), c, j, r, cap = 0, cap_p = 0;
    uint32_t *index = NULL, *par = NULL, *orig = NULL, *dst = NULL;
    size_t *value = NULL;
    double *w = NULL, *p = NULL;
    proper_dtmc_builder b;
    proper_dtmc refined;
    proper_bitset label;
    int rc;
    if ((rc = proper__ltl_product_limit(n_new, cy->opts->max_product_states, cy->err))) return rc;
    proper_dtmc_builder_init(&b);
    proper_dtmc_init(&refined);
    proper_bitset_init(&label);
    index = (uint32_t *)PROPER_MALLOC(nv * n * sizeof *index);
    par = (uint32_t *)PROPER_MALLOC((n_new ? n_new : 1) * sizeof *par);
    value = (size_t *)PROPER_MALLOC((n_new ? n_new : 1) * sizeof *value);
    orig = (uint32_t *)PROPER_MALLOC((n_new ? n_new : 1) * sizeof *orig);
    w = (double *)PROPER_MALLOC((n_new ? n_new : 1) * sizeof *w);
    if (!index || !par || !value || !orig || !w || proper_bitset_create(&label, n_new, cy->err)) {
        rc = proper__ltl_oom(cy->err);
        goto done;
    }
    for (c = 0, j = 0; j < n; j++) {
        size_t x;
        for (x = 0; x < nv; x++) {
            if (!PROPER_BITSET_GET(&vals->ex, x * n + j)) continue;
            index[x * n + j] = (uint32_t)c;
            par[c] = (uint32_t)j;
            value[c] = x;
            orig[c] = cy->orig[j];
            w[c] = cy->w[j] * vals->q[x * n + j];
            if (vals->kind == PROPER__LTL_K_U && vals->k != PROPER_LTL_UNBOUNDED ? x <= vals->k : x == 1)
                proper_bitset_set(&label, c);
            c++;
        }
    }
    for (r = 0; r < n_new; r++) {
        uint32_t u = par[r];
        size_t len = 0, k;
        double sum = 0;
        uint64_t t;
        for (t = m->row[u]; t < m->row[u + 1]; t++) {
            uint32_t v = m->col[t];
            size_t next[2], n_next = proper__ltl_allowed(vals, u, value[r], v, next);
            size_t all = n_next == (size_t)-1, count = all ? nv : n_next;
            for (k = 0; k < count; k++) {
                size_t y = all ? k : next[k];
                double weight;
                if (!PROPER_BITSET_GET(&vals->ex, y * n + v)) continue;
                if (proper_reserve(&dst, &cap, len + 1, sizeof *dst) ||
                    proper_reserve(&p, &cap_p, len + 1, sizeof *p)) {
                    rc = proper__ltl_oom(cy->err);
                    goto done;
                }
                weight = m->prob[t] * vals->q[y * n + v];
                if (!(weight >= DBL_MIN)) weight = DBL_MIN; /* positive by ex: keep the edge */
                dst[len] = index[y * n + v];
                p[len++] = weight;
                sum += weight;
            }
        }
        for (k = 0; k < len; k++) p[k] /= sum;
        if ((rc = proper_dtmc_builder_add_row(&b, dst, p, len, cy->err))) goto done;
    }
    if ((rc = proper_dtmc_builder_finish(&b, (uint32_t)n_new, &refined, cy->err))) goto done;
    for (j = 0; j <= i; j++)
        if (cy->val[j].n == n && j != i && (rc = proper__ltl_lift(&cy->val[j], par, n_new, cy->err))) goto done;
    proper_bitset_free(&cy->val[i]);
    cy->val[i] = label;
    proper_bitset_init(&label);
    proper_dtmc_free(&cy->own);
    cy->own = refined;
    proper_dtmc_init(&refined);
    cy->cur = &cy->own;
    PROPER_FREE(cy->orig);
    PROPER_FREE(cy->w);
    cy->orig = orig;
    cy->w = w;
    orig = NULL;
    w = NULL;
    if (cy->stats) {
        cy->stats->refinements++;
        if (n_new > cy->stats->product_states) {
            cy->stats->product_states = n_new;
            cy->stats->product_trans = cy->own.n_trans;
        }
    }
done:
    proper_dtmc_builder_free(&b);
    proper_dtmc_free(&refined);
    proper_bitset_free(&label);
    PROPER_FREE(index);
    PROPER_FREE(par);
    PROPER_FREE(value);
    PROPER_FREE(orig);
    PROPER_FREE(w);
    PROPER_FREE(dst);
    PROPER_FREE(p);
    return rc;
}

/* The set of states of the current chain where boolean kernel node i
 * holds, from its children's sets (or the caller's, for a proposition). */
static int proper__ltl_boolean(proper__ltl_cy *cy, uint32_t i) {
    const proper__ltl_k *k = &cy->st->n[i];
    size_t n = cy->cur->n_states, u;
    proper_bitset *out = &cy->val[i];
    if (proper_bitset_create(out, n, cy->err)) return PROPER_ENOMEM;
    switch (k->op) {
    case PROPER__LTL_K_TRUE: proper_bitset_not(out); return 0;
    case PROPER__LTL_K_FALSE: return 0;
    case PROPER__LTL_K_AP:
        for (u = 0; u < n; u++)
            if (PROPER_BITSET_GET(&cy->aps[k->a], cy->orig[u])) proper_bitset_set(out, u);
        return 0;
    case PROPER__LTL_K_NOT:
        proper_bitset_or(out, &cy->val[k->a]);
        proper_bitset_not(out);
        return 0;
    case PROPER__LTL_K_AND:
        proper_bitset_or(out, &cy->val[k->a]);
        proper_bitset_and(out, &cy->val[k->b]);
        return 0;
    case PROPER__LTL_K_OR:
        proper_bitset_or(out, &cy->val[k->a]);
        proper_bitset_or(out, &cy->val[k->b]);
        return 0;
    default: /* IFF */
        for (u = 0; u < n; u++)
            if (PROPER_BITSET_GET(&cy->val[k->a], u) == PROPER_BITSET_GET(&cy->val[k->b], u)) proper_bitset_set(out, u);
        return 0;
    }
}

/* a U[lo,hi] b with lo > 0 from the operands' sets: y = Pr(a U[0,hi-lo] b),
 * then lo times y(u) = [a](u) sum_v P(u,v) y(v) (a holds now and the rest
 * of the window starts one step later). */
static int proper__ltl_lower_bounded(proper__ltl_cy *cy, const proper__ltl_k *k, double *y) {
    const proper_dtmc *m = cy->cur;
    const proper_bitset *a = &cy->val[k->a], *b = &cy->val[k->b];
    unsigned long width = k->hi == PROPER_LTL_UNBOUNDED ? k->hi : k->hi - k->lo, j;
    double *z = (double *)proper_calloc(m->n_states ? m->n_states : 1, sizeof *z);
    int rc;
    if (!z) return proper__ltl_oom(cy->err);
    rc = width == PROPER_LTL_UNBOUNDED ? proper_dtmc_prob_until(m, a, b, &cy->opts->solve, y, NULL, cy->err)
                                       : proper_dtmc_prob_bounded_until(m, a, b, width, y, cy->err);
    for (j = 0; j < k->lo && !rc; j++) {
        uint32_t u;
        for (u = 0; u < m->n_states; u++) {
            double sum = 0;
            uint64_t t;
            if (PROPER_BITSET_GET(a, u))
                for (t = m->row[u]; t < m->row[u + 1]; t++) sum += m->prob[t] * y[m->col[t]];
            z[u] = sum;
        }
        memcpy(y, z, m->n_states * sizeof *y);
    }
    PROPER_FREE(z);
    return rc;
}

/* y = P y, `times` times: the probability of "X ... X phi" from that of phi. */
static int proper__ltl_next_steps(const proper_dtmc *m, size_t times, double *y, proper_error *err) {
    double *z = (double *)proper_calloc(m->n_states ? m->n_states : 1, sizeof *z);
    size_t j;
    uint32_t u;
    if (!z) return proper__ltl_oom(err);
    for (j = 0; j < times; j++) {
        for (u = 0; u < m->n_states; u++) {
            double sum = 0;
            uint64_t t;
            for (t = m->row[u]; t < m->row[u + 1]; t++) sum += m->prob[t] * y[m->col[t]];
            z[u] = sum;
        }
        memcpy(y, z, m->n_states * sizeof *y);
    }
    PROPER_FREE(z);
    return 0;
}

/* The root is `core` (an until or a boolean node) under n_next X and
 * `negate` negations: y[u] = Pr_u(core) on the current chain, then
 * n_next steps back (y = P y), then x[s] = sum over the copies u of s of
 * w[u] y[u], or of w[u] (1 - y[u]). */
static int proper__ltl_root(proper__ltl_cy *cy, uint32_t core, int negate, size_t n_next, size_t n_orig,
                            double *x) {
    const proper__ltl_k *k = &cy->st->n[core];
    size_t n = cy->cur->n_states, u;
    double *y = (double *)proper_calloc(n ? n : 1, sizeof *y);
    int rc = 0;
    if (!y) return proper__ltl_oom(cy->err);
    if (k->op == PROPER__LTL_K_U && k->lo > 0) {
        rc = proper__ltl_lower_bounded(cy, k, y);
    } else if (k->op == PROPER__LTL_K_U && k->hi == PROPER_LTL_UNBOUNDED) {
        rc = proper_dtmc_prob_until(cy->cur, &cy->val[k->a], &cy->val[k->b], &cy->opts->solve, y, NULL, cy->err);
    } else if (k->op == PROPER__LTL_K_U) {
        rc = proper_dtmc_prob_bounded_until(cy->cur, &cy->val[k->a], &cy->val[k->b], k->hi, y, cy->err);
    } else {
        for (u = 0; u < n; u++) y[u] = PROPER_BITSET_GET(&cy->val[core], u);
    }
    if (!rc) rc = proper__ltl_next_steps(cy->cur, n_next, y, cy->err);
    if (!rc) {
        for (u = 0; u < n_orig; u++) x[u] = 0;
        for (u = 0; u < n; u++) x[cy->orig[u]] += cy->w[u] * (negate ? 1 - y[u] : y[u]);
        for (u = 0; u < n_orig; u++) x[u] = x[u] < 0 ? 0 : x[u] > 1 ? 1 : x[u];
    }
    PROPER_FREE(y);
    return rc;
}

/* Mark the kernel nodes the root needs and count their parents. */
static void proper__ltl_count_uses(const proper__ltl_store *st, uint32_t root, unsigned char *needed, uint32_t *uses) {
    size_t i = root + 1;
    needed[root] = 1;
    while (i-- > 0) {
        const proper__ltl_k *k = &st->n[i];
        int arity;
        if (!needed[i]) continue;
        arity = k->op == PROPER__LTL_K_NOT || k->op == PROPER__LTL_K_X ? 1
              : k->op >= PROPER__LTL_K_AND && k->op <= PROPER__LTL_K_U && k->op != PROPER__LTL_K_X ? 2 : 0;
        if (arity >= 1) needed[k->a] = 1, uses[k->a]++;
        if (arity >= 2) needed[k->b] = 1, uses[k->b]++;
    }
}

static void proper__ltl_release(proper__ltl_cy *cy, uint32_t i) {
    const proper__ltl_k *k = &cy->st->n[i];
    if (k->op == PROPER__LTL_K_NOT || k->op == PROPER__LTL_K_X) {
        if (--cy->uses[k->a] == 0) proper_bitset_free(&cy->val[k->a]);
    } else if (k->op >= PROPER__LTL_K_AND && k->op <= PROPER__LTL_K_U) {
        if (--cy->uses[k->a] == 0) proper_bitset_free(&cy->val[k->a]);
        if (--cy->uses[k->b] == 0) proper_bitset_free(&cy->val[k->b]);
    }
}

PROPER_API proper_ltl_opts proper_ltl_opts_default(void) {
    proper_ltl_opts o;
    o.solve = proper_dtmc_solve_opts_default();
    o.max_automaton_states = PROPER_LTL_MAX_AUTOMATON_STATES;
    o.max_product_states = PROPER_LTL_MAX_PRODUCT_STATES;
    o.max_refinements = PROPER_LTL_MAX_REFINEMENTS;
    o.max_automaton_work = PROPER_LTL_MAX_AUTOMATON_WORK;
    return o;
}

/* Checks of the model-checking entry points' arguments. */
static int proper__ltl_check_args(const proper_dtmc *m, const proper_ltl *f, const proper_bitset *aps,
                                  size_t n_aps, size_t max_depth, proper_error *err) {
    size_t i;
    int rc = proper__ltl_check_formula(f, max_depth, err);
    if (rc) return rc;
    for (i = 0; i < n_aps; i++)
        if (aps[i].n != m->n_states)
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                    "LTL: state set of proposition %lu has %lu states, the model %lu",
                                    (unsigned long)i, (unsigned long)aps[i].n, (unsigned long)m->n_states);
    return 0;
}

PROPER_API int proper_ltl_prob_ex(const proper_dtmc *m, const proper_ltl *f, const proper_bitset *aps,
                                  size_t n_aps, const proper_ltl_opts *opts, double *x,
                                  proper_ltl_stats *stats, proper_error *err) {
    proper_ltl_opts defaults = proper_ltl_opts_default();
    proper__ltl_store st;
    proper__ltl_cy cy;
    uint32_t *kernel = NULL, root, i;
    unsigned char *needed = NULL;
    size_t n = m->n_states, u, n_next = 0;
    int rc, negate = 0;
    if ((rc = proper__ltl_check_args(m, f, aps, n_aps, 0, err))) return rc;
    if (stats) memset(stats, 0, sizeof *stats);
    memset(&st, 0, sizeof st);
    memset(&cy, 0, sizeof cy);
    proper_dtmc_init(&cy.own);
    cy.aps = aps;
    cy.opts = opts ? opts : &defaults;
    cy.stats = stats;
    cy.err = err;
    cy.st = &st;
    cy.cur = m;
    kernel = (uint32_t *)proper_calloc(f->len, sizeof *kernel);
    cy.orig = (uint32_t *)proper_calloc(n ? n : 1, sizeof *cy.orig);
    cy.w = (double *)proper_calloc(n ? n : 1, sizeof *cy.w);
    if (!kernel || !cy.orig || !cy.w) {
        rc = proper__ltl_oom(err);
        goto done;
    }
    if ((rc = proper__ltl_kernel(f, n_aps, cy.opts->max_refinements, 1, &st, kernel, err))) goto done;
    root = kernel[f->root];
    for (u = 0; u < n; u++) cy.orig[u] = (uint32_t)u, cy.w[u] = 1;
    if (stats) stats->product_states = n, stats->product_trans = m->n_trans;
    needed = (unsigned char *)proper_calloc(st.len, 1);
    cy.uses = (uint32_t *)proper_calloc(st.len, sizeof *cy.uses);
    cy.val = (proper_bitset *)proper_calloc(st.len, sizeof *cy.val);
    if (!needed || !cy.uses || !cy.val) {
        rc = proper__ltl_oom(err);
        goto done;
    }
    /* negations and X at the top are applied to the probabilities of
     * what is below them (X commutes with negation), not refined */
    while (st.n[root].op == PROPER__LTL_K_NOT || st.n[root].op == PROPER__LTL_K_X) {
        if (st.n[root].op == PROPER__LTL_K_NOT) negate = !negate;
        else n_next++;
        root = st.n[root].a;
    }
    proper__ltl_count_uses(&st, root, needed, cy.uses);
    for (i = 0, u = 0; i < root; i++) u += needed[i] && (st.n[i].op == PROPER__LTL_K_X || st.n[i].op == PROPER__LTL_K_U);
    if (u > cy.opts->max_refinements) {
        rc = proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                              "LTL formula needs %lu refinements of the chain, more than %lu "
                              "(PROPER_LTL_MAX_REFINEMENTS)", (unsigned long)u, (unsigned long)cy.opts->max_refinements);
        goto done;
    }
    for (i = 0; i < root && !rc; i++) {
        int op = st.n[i].op;
        if (!needed[i]) continue;
        if (op == PROPER__LTL_K_X || op == PROPER__LTL_K_U) {
            proper__ltl_values v;
            if ((rc = proper__ltl_values_make(&cy, i, &v))) break;
            rc = proper__ltl_refine(&cy, i, &v);
            proper__ltl_values_free(&v);
        } else {
            rc = proper__ltl_boolean(&cy, i);
        }
        if (!rc) proper__ltl_release(&cy, i);
    }
    if (!rc && st.n[root].op != PROPER__LTL_K_U) rc = proper__ltl_boolean(&cy, root);
    if (!rc) rc = proper__ltl_root(&cy, root, negate, n_next, n, x);
done:
    if (cy.val)
        for (u = 0; u < st.len; u++) proper_bitset_free(&cy.val[u]);
    PROPER_FREE(cy.val);
    PROPER_FREE(cy.uses);
    PROPER_FREE(needed);
    PROPER_FREE(kernel);
    PROPER_FREE(cy.orig);
    PROPER_FREE(cy.w);
    proper_dtmc_free(&cy.own);
    proper__ltl_store_free(&st);
    return rc;
}

PROPER_API int proper_ltl_prob(const proper_dtmc *m, const proper_ltl *f, const proper_bitset *aps,
                               size_t n_aps, const proper_dtmc_solve_opts *opts, double *x,
                               proper_error *err) {
    proper_ltl_opts o = proper_ltl_opts_default();
    if (opts) o.solve = *opts;
    return proper_ltl_prob_ex(m, f, aps, n_aps, &o, x, NULL, err);
}

/* ---- Co-safe formulas: the automaton by formula progression ----------------
 * Negation normal form (nnf[2i + neg] for node i under neg negations):
 *     !(a U b) = (!a) R (!b),  F a = true U a,  G a = false R a,
 *     a W b = b R (a | b),     X is its own dual,
 * windows carried along. A residual formula is a positive boolean
 * combination of atoms (literals, X, U, R and pending obligations), kept as
 * a minimised DNF: clauses are sorted sets of atoms, sorted, with no clause
 * containing another. Its progression by a letter (Esparza, Křetínský,
 * Sickert, "One theorem to rule them all", LICS 2018, the function af):
 *     af(p) = [p in letter]          af(X a) = pending(a),  af(pending(a)) = af(a)
 *     af(a U[0,k] b) = af(b) | (af(a) & a U[0,k-1] b)     (k = 0: af(b))
 *     af(a U[j,k] b) = af(a) & a U[j-1,k-1] b              (j > 0)
 *     af(a R[0,k] b) = af(b) & (af(a) | a R[0,k-1] b)     (k = 0: af(b))
 *     af(a R[j,k] b) = af(a) | a R[j-1,k-1] b              (j > 0)
 * (k - 1 of an unbounded window stays unbounded). The empty clause is the
 * accepting residual true, no clause the rejecting residual false. */

static uint32_t proper__ltl_window(proper__ltl_store *st, int op, uint32_t a, uint32_t b, unsigned long lo,
                                   unsigned long hi) {
    if (lo > hi) return proper__ltl_const(st, op == PROPER__LTL_K_R);
    if (a == PROPER_LTL_NONE || b == PROPER_LTL_NONE) return PROPER_LTL_NONE;
    return proper__ltl_node(st, op, a, b, lo, hi);
}

static int proper__ltl_nnf(const proper_ltl *f, proper__ltl_store *st, uint32_t *nnf, proper_error *err) {
    size_t i;
    for (i = 0; i < f->len; i++) {
        const proper_ltl_node *nd = &f->nodes[i];
        int neg;
        for (neg = 0; neg < 2; neg++) {
            size_t l = nd->left, r = nd->right;
            uint32_t k, t = proper__ltl_const(st, 1), fl = proper__ltl_const(st, 0);
            int u = neg ? PROPER__LTL_K_R : PROPER__LTL_K_U, rl = neg ? PROPER__LTL_K_U : PROPER__LTL_K_R;
            switch (nd->op) {
            case PROPER_LTL_TRUE: k = neg ? fl : t; break;
            case PROPER_LTL_FALSE: k = neg ? t : fl; break;
            case PROPER_LTL_AP: k = proper__ltl_node(st, PROPER__LTL_K_LIT, nd->ap, (uint32_t)neg, 0, 0); break;
            case PROPER_LTL_NOT: k = nnf[2 * l + !neg]; break;
            case PROPER_LTL_AND: k = proper__ltl_junction(st, !neg, nnf[2 * l + neg], nnf[2 * r + neg]); break;
            case PROPER_LTL_OR: k = proper__ltl_junction(st, neg, nnf[2 * l + neg], nnf[2 * r + neg]); break;
            case PROPER_LTL_IMPLIES: k = proper__ltl_junction(st, neg, nnf[2 * l + !neg], nnf[2 * r + neg]); break;
            case PROPER_LTL_IFF: /* (a & b) | (!a & !b), negated (a & !b) | (!a & b) */
                k = proper__ltl_junction(st, 0, proper__ltl_junction(st, 1, nnf[2 * l], nnf[2 * r + neg]),
                                         proper__ltl_junction(st, 1, nnf[2 * l + 1], nnf[2 * r + !neg]));
                break;
            case PROPER_LTL_NEXT:
                k = nnf[2 * l + neg] == PROPER_LTL_NONE ? PROPER_LTL_NONE
                    : proper__ltl_node(st, PROPER__LTL_K_X, nnf[2 * l + neg], 0, 0, 0);
                break;
            case PROPER_LTL_UNTIL: k = proper__ltl_window(st, u, nnf[2 * l + neg], nnf[2 * r + neg], nd->lo, nd->hi); break;
            case PROPER_LTL_RELEASE: k = proper__ltl_window(st, rl, nnf[2 * l + neg], nnf[2 * r + neg], nd->lo, nd->hi); break;
            case PROPER_LTL_EVENTUALLY: k = proper__ltl_window(st, u, neg ? fl : t, nnf[2 * l + neg], nd->lo, nd->hi); break;
            case PROPER_LTL_ALWAYS: k = proper__ltl_window(st, rl, neg ? t : fl, nnf[2 * l + neg], nd->lo, nd->hi); break;
            default: /* W: b R (a | b); negated (!b) U (!a & !b) */
                k = proper__ltl_window(st, rl, nnf[2 * r + neg],
                                       proper__ltl_junction(st, neg, nnf[2 * l + neg], nnf[2 * r + neg]), nd->lo, nd->hi);
                break;
            }
            if (k == PROPER_LTL_NONE)
                return st->failed == PROPER_ELIMIT
                           ? proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "LTL formula: more than %lu internal nodes",
                                              (unsigned long)PROPER__LTL_STORE_MAX)
                           : proper__ltl_oom(err);
            nnf[2 * i + neg] = k;
        }
    }
    return 0;
}

/* A DNF: n clauses in `data` as [size, atoms...] one after another. */
typedef struct proper__ltl_dnf {
    uint32_t *data;
    size_t len, cap;
    size_t n;
} proper__ltl_dnf;

static void proper__ltl_dnf_free(proper__ltl_dnf *d) {
    PROPER_FREE(d->data);
    memset(d, 0, sizeof *d);
}

/* Context of one automaton construction. */
typedef struct proper__ltl_da {
    proper__ltl_store *st;
    const uint32_t *slot;  /* proposition -> bit of a letter */
    size_t max_states;
    size_t max_work, work_left; /* atom steps of clause comparisons allowed, and left */
    proper_error *err;
    /* states: their DNFs, back to back, found through a hash table */
    uint32_t *words;
    size_t words_len, words_cap;
    size_t *start;         /* state q is words[start[q] .. start[q+1]) */
    size_t n_states, start_cap;
    uint32_t *table;       /* state + 1, or 0 */
    size_t n_table;
    /* transitions found so far: (state, letter) -> state */
    uint64_t *tr_letter;
    uint32_t *tr_from, *tr_to; /* tr_from: state + 1, or 0 */
    size_t n_tr, tr_slots;
} proper__ltl_da;

static int proper__ltl_dnf_push(proper__ltl_dnf *d, uint32_t v) {
    return PROPER_PUSH(d->data, d->len, d->cap, v);
}

static int proper__ltl_dnf_set_const(proper__ltl_dnf *d, int value) {
    d->len = 0;
    d->n = 0;
    if (!value) return 0;
    d->n = 1;
    return proper__ltl_dnf_push(d, 0);
}

/* Clause order: by size, then atoms; clause at data + a is [size, atoms...]. */
static int proper__ltl_clause_cmp(const uint32_t *data, size_t a, size_t b) {
    uint32_t i;
    if (data[a] != data[b]) return data[a] < data[b] ? -1 : 1;
    for (i = 1; i <= data[a]; i++)
        if (data[a + i] != data[b + i]) return data[a + i] < data[b + i] ? -1 : 1;
    return 0;
}

/* Sort clause offsets off[0..n) (merge sort through tmp). */
static void proper__ltl_sort_clauses(const uint32_t *data, size_t *off, size_t *tmp, size_t n) {
    size_t width, i;
    for (width = 1; width < n; width *= 2) {
        for (i = 0; i < n; i += 2 * width) {
            size_t lo = i, mid = i + width < n ? i + width : n, hi = i + 2 * width < n ? i + 2 * width : n;
            size_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi) tmp[k++] = proper__ltl_clause_cmp(data, off[a], off[b]) <= 0 ? off[a++] : off[b++];
            while (a < mid) tmp[k++] = off[a++];
            while (b < hi) tmp[k++] = off[b++];
        }
        memcpy(off, tmp, n * sizeof *off);
    }
}

/* The sorted atoms of clause a are a subset of those of clause b. */
static int proper__ltl_clause_subset(const uint32_t *data, size_t a, size_t b) {
    uint32_t i = 1, j = 1;
    while (i <= data[a]) {
        if (j > data[b] || data[b + j] > data[a + i]) return 0;
        if (data[b + j] == data[a + i]) i++;
        j++;
    }
    return 1;
}

static int proper__ltl_too_many_clauses(proper_error *err) {
    return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                            "LTL co-safe automaton: a residual formula with more than %d clauses "
                            "(PROPER_LTL_MAX_CLAUSES)", PROPER_LTL_MAX_CLAUSES);
}

/* Charge `cost` atom steps to the automaton's work (PROPER_LTL_MAX_AUTOMATON_WORK). */
static int proper__ltl_charge(proper__ltl_da *da, size_t cost) {
    if (da->work_left < cost)
        return proper_error_set(da->err, PROPER_ELIMIT, NULL, 0, 0,
                                "LTL co-safe automaton: more than %lu atom steps comparing or merging clauses "
                                "(PROPER_LTL_MAX_AUTOMATON_WORK)", (unsigned long)da->max_work);
    da->work_left -= cost;
    return 0;
}

/* Put d in canonical form: clauses sorted, no duplicates, none that
 * contains another (a | (a & b) = a). Clause atoms are already sorted. */
static int proper__ltl_dnf_normalise(proper__ltl_dnf *d, proper__ltl_da *da) {
    proper_error *err = da->err;
    size_t *off, *tmp, *kept, i, j, n_kept = 0, pos = 0;
    proper__ltl_dnf out;
    int rc = 0;
    if (d->n > 16 * (size_t)PROPER_LTL_MAX_CLAUSES) return proper__ltl_too_many_clauses(err);
    if (d->n <= 1) return 0;
    memset(&out, 0, sizeof out);
    off = (size_t *)PROPER_MALLOC(3 * d->n * sizeof *off);
    if (!off) return proper__ltl_oom(err);
    tmp = off + d->n;
    kept = tmp + d->n;
    for (i = 0; i < d->n; i++) {
        off[i] = pos;
        pos += 1 + d->data[pos];
    }
    proper__ltl_sort_clauses(d->data, off, tmp, d->n);
    for (i = 0; i < d->n && n_kept <= PROPER_LTL_MAX_CLAUSES; i++) {
        /* each test against a kept clause walks at most the atoms of clause i */
        size_t cost = (n_kept + 1) * (1 + (size_t)d->data[off[i]]);
        int absorbed = 0;
        if ((rc = proper__ltl_charge(da, cost))) goto done;
        for (j = 0; j < n_kept && !absorbed; j++) absorbed = proper__ltl_clause_subset(d->data, kept[j], off[i]);
        if (!absorbed) kept[n_kept++] = off[i];
    }
    if (n_kept > PROPER_LTL_MAX_CLAUSES) {
        rc = proper__ltl_too_many_clauses(err);
        goto done;
    }
    for (i = 0; i < n_kept && !rc; i++)
        for (j = 0; j <= d->data[kept[i]] && !rc; j++) rc = proper__ltl_dnf_push(&out, d->data[kept[i] + j]);
    if (rc) {
        rc = proper__ltl_oom(err);
        goto done;
    }
    out.n = n_kept;
    proper__ltl_dnf_free(d);
    *d = out;
    memset(&out, 0, sizeof out);
done:
    proper__ltl_dnf_free(&out);
    PROPER_FREE(off);
    return rc;
}

/* d = d | e (e is consumed). */
static int proper__ltl_dnf_or(proper__ltl_dnf *d, proper__ltl_dnf *e, proper__ltl_da *da) {
    proper_error *err = da->err;
    size_t i;
    for (i = 0; i < e->len; i++)
        if (proper__ltl_dnf_push(d, e->data[i])) return proper__ltl_oom(err);
    d->n += e->n;
    proper__ltl_dnf_free(e);
    return proper__ltl_dnf_normalise(d, da);
}

/* d = d & e (e is consumed): every pair of clauses merged. */
static int proper__ltl_dnf_and(proper__ltl_dnf *d, proper__ltl_dnf *e, proper__ltl_da *da) {
    proper_error *err = da->err;
    proper__ltl_dnf out;
    size_t i, j, pi = 0;
    int rc = 0, limit = 0;
    memset(&out, 0, sizeof out);
    if (d->n * e->n > 16 * (size_t)PROPER_LTL_MAX_CLAUSES) {
        proper__ltl_dnf_free(e);
        return proper__ltl_too_many_clauses(err);
    }
    for (i = 0; i < d->n && !rc && !limit; i++) {
        size_t pj = 0;
        for (j = 0; j < e->n && !rc && !limit; j++) {
            uint32_t a = 1, b = 1, na = d->data[pi], nb = e->data[pj];
            size_t size_at = out.len;
            if ((limit = proper__ltl_charge(da, 1 + (size_t)na + nb))) break; /* the merge walks both clauses */
            rc = proper__ltl_dnf_push(&out, 0);
            while (!rc && (a <= na || b <= nb)) {
                uint32_t x;
                if (b > nb || (a <= na && d->data[pi + a] < e->data[pj + b])) x = d->data[pi + a++];
                else if (a > na || e->data[pj + b] < d->data[pi + a]) x = e->data[pj + b++];
                else x = d->data[pi + a++], b++;
                rc = proper__ltl_dnf_push(&out, x);
            }
            if (!rc) out.data[size_at] = (uint32_t)(out.len - size_at - 1);
            out.n++;
            pj += 1 + nb;
        }
        pi += 1 + d->data[pi];
    }
    proper__ltl_dnf_free(e);
    if (rc || limit) {
        proper__ltl_dnf_free(&out);
        return limit ? limit : proper__ltl_oom(err);
    }
    proper__ltl_dnf_free(d);
    *d = out;
    return proper__ltl_dnf_normalise(d, da);
}

/* d = the single atom a. */
static int proper__ltl_dnf_atom(proper__ltl_dnf *d, uint32_t a, proper_error *err) {
    d->len = 0;
    d->n = 1;
    if (proper__ltl_dnf_push(d, 1) || proper__ltl_dnf_push(d, a)) return proper__ltl_oom(err);
    return 0;
}

/* d = the NNF node i read as a residual: its AND/OR structure over atoms. */
static int proper__ltl_dnf_of(proper__ltl_da *da, uint32_t i, proper__ltl_dnf *d) {
    const proper__ltl_k *k = &da->st->n[i];
    proper__ltl_dnf e;
    int rc;
    if (k->op == PROPER__LTL_K_TRUE || k->op == PROPER__LTL_K_FALSE)
        return proper__ltl_dnf_set_const(d, k->op == PROPER__LTL_K_TRUE) ? proper__ltl_oom(da->err) : 0;
    if (k->op != PROPER__LTL_K_AND && k->op != PROPER__LTL_K_OR) return proper__ltl_dnf_atom(d, i, da->err);
    memset(&e, 0, sizeof e);
    if ((rc = proper__ltl_dnf_of(da, k->a, d)) || (rc = proper__ltl_dnf_of(da, k->b, &e))) {
        proper__ltl_dnf_free(&e);
        return rc;
    }
    return k->op == PROPER__LTL_K_AND ? proper__ltl_dnf_and(d, &e, da) : proper__ltl_dnf_or(d, &e, da);
}

static int proper__ltl_af(proper__ltl_da *da, uint32_t i, uint64_t letter, proper__ltl_dnf *d);

static int proper__ltl_store_error(proper__ltl_da *da) {
    if (da->st->failed == PROPER_ELIMIT)
        return proper_error_set(da->err, PROPER_ELIMIT, NULL, 0, 0, "LTL formula: more than %lu internal nodes",
                                (unsigned long)PROPER__LTL_STORE_MAX);
    return proper__ltl_oom(da->err);
}

/* d = (af(a) combined with the atom `next`): AND (is_and) or OR. */
static int proper__ltl_af_step(proper__ltl_da *da, uint32_t a, uint64_t letter, int is_and, uint32_t next,
                               proper__ltl_dnf *d) {
    proper__ltl_dnf e;
    int rc;
    memset(&e, 0, sizeof e);
    if (next == PROPER_LTL_NONE) return proper__ltl_store_error(da);
    if ((rc = proper__ltl_af(da, a, letter, d)) || (rc = proper__ltl_dnf_of(da, next, &e))) {
        proper__ltl_dnf_free(&e);
        return rc;
    }
    return is_and ? proper__ltl_dnf_and(d, &e, da) : proper__ltl_dnf_or(d, &e, da);
}

/* d = af(node i, letter), the progression of the header's table. */
static int proper__ltl_af(proper__ltl_da *da, uint32_t i, uint64_t letter, proper__ltl_dnf *d) {
    proper__ltl_k k = da->st->n[i];
    unsigned long hi1 = k.hi == PROPER_LTL_UNBOUNDED ? k.hi : k.hi - 1;
    proper__ltl_dnf e;
    int rc;
    memset(&e, 0, sizeof e);
    switch (k.op) {
    case PROPER__LTL_K_TRUE: case PROPER__LTL_K_FALSE:
        return proper__ltl_dnf_set_const(d, k.op == PROPER__LTL_K_TRUE) ? proper__ltl_oom(da->err) : 0;
    case PROPER__LTL_K_LIT:
        return proper__ltl_dnf_set_const(d, (int)((letter >> da->slot[k.a]) & 1u) != (int)k.b)
                   ? proper__ltl_oom(da->err) : 0;
    case PROPER__LTL_K_AND: case PROPER__LTL_K_OR:
        if ((rc = proper__ltl_af(da, k.a, letter, d)) || (rc = proper__ltl_af(da, k.b, letter, &e))) break;
        return k.op == PROPER__LTL_K_AND ? proper__ltl_dnf_and(d, &e, da) : proper__ltl_dnf_or(d, &e, da);
    case PROPER__LTL_K_X: {
        uint32_t pending = proper__ltl_node(da->st, PROPER__LTL_K_PENDING, k.a, 0, 0, 0);
        return pending == PROPER_LTL_NONE ? proper__ltl_store_error(da) : proper__ltl_dnf_atom(d, pending, da->err);
    }
    case PROPER__LTL_K_PENDING:
        return proper__ltl_af(da, k.a, letter, d);
    case PROPER__LTL_K_U:
        if (k.lo > 0)
            return proper__ltl_af_step(da, k.a, letter, 1,
                                       proper__ltl_window(da->st, PROPER__LTL_K_U, k.a, k.b, k.lo - 1, hi1), d);
        if (k.hi == 0) return proper__ltl_af(da, k.b, letter, d);
        if ((rc = proper__ltl_af(da, k.b, letter, d)) ||
            (rc = proper__ltl_af_step(da, k.a, letter, 1,
                                      proper__ltl_window(da->st, PROPER__LTL_K_U, k.a, k.b, 0, hi1), &e)))
            break;
        return proper__ltl_dnf_or(d, &e, da);
    default: /* R */
        if (k.lo > 0)
            return proper__ltl_af_step(da, k.a, letter, 0,
                                       proper__ltl_window(da->st, PROPER__LTL_K_R, k.a, k.b, k.lo - 1, hi1), d);
        if (k.hi == 0) return proper__ltl_af(da, k.b, letter, d);
        if ((rc = proper__ltl_af(da, k.b, letter, d)) ||
            (rc = proper__ltl_af_step(da, k.a, letter, 0,
                                      proper__ltl_window(da->st, PROPER__LTL_K_R, k.a, k.b, 0, hi1), &e)))
            break;
        return proper__ltl_dnf_and(d, &e, da);
    }
    proper__ltl_dnf_free(&e);
    return rc;
}

static void proper__ltl_da_free(proper__ltl_da *da) {
    PROPER_FREE(da->words);
    PROPER_FREE(da->start);
    PROPER_FREE(da->table);
    PROPER_FREE(da->tr_letter);
    PROPER_FREE(da->tr_from);
    PROPER_FREE(da->tr_to);
}

static uint64_t proper__ltl_words_hash(const uint32_t *w, size_t n) {
    return proper_fnv1a(PROPER_FNV_OFFSET, w, n * sizeof *w);
}

static int proper__ltl_da_rehash(proper__ltl_da *da) {
    size_t n_table = da->n_table ? 2 * da->n_table : 256, q;
    uint32_t *table = (uint32_t *)proper_calloc(n_table, sizeof *table);
    if (!table) return PROPER_ENOMEM;
    for (q = 0; q < da->n_states; q++) {
        size_t h = (size_t)proper__ltl_words_hash(da->words + da->start[q], da->start[q + 1] - da->start[q]) & (n_table - 1);
        while (table[h]) h = (h + 1) & (n_table - 1);
        table[h] = (uint32_t)q + 1;
    }
    PROPER_FREE(da->table);
    da->table = table;
    da->n_table = n_table;
    return 0;
}

/* The automaton state of residual d (stored as [clauses, d...]), added
 * if new. */
static int proper__ltl_da_state(proper__ltl_da *da, const proper__ltl_dnf *d, uint32_t *q) {
    size_t n = d->len + 1, h, i;
    if (2 * (da->n_states + 1) > da->n_table && proper__ltl_da_rehash(da)) return proper__ltl_oom(da->err);
    if (proper_reserve(&da->words, &da->words_cap, da->words_len + n, sizeof *da->words) ||
        proper_reserve(&da->start, &da->start_cap, da->n_states + 2, sizeof *da->start))
        return proper__ltl_oom(da->err);
    if (da->n_states == 0) da->start[0] = 0;
    da->words[da->words_len] = (uint32_t)d->n;
    for (i = 0; i < d->len; i++) da->words[da->words_len + 1 + i] = d->data[i];
    h = (size_t)proper__ltl_words_hash(da->words + da->words_len, n) & (da->n_table - 1);
    while (da->table[h]) {
        size_t o = da->table[h] - 1;
        if (da->start[o + 1] - da->start[o] == n &&
            !memcmp(da->words + da->start[o], da->words + da->words_len, n * sizeof *da->words)) {
            *q = (uint32_t)o;
            return 0;
        }
        h = (h + 1) & (da->n_table - 1);
    }
    if (da->n_states >= da->max_states)
        return proper_error_set(da->err, PROPER_ELIMIT, NULL, 0, 0,
                                "LTL co-safe automaton needs more than %lu states (PROPER_LTL_MAX_AUTOMATON_STATES)",
                                (unsigned long)da->max_states);
    da->table[h] = (uint32_t)da->n_states + 1;
    da->words_len += n;
    da->start[++da->n_states] = da->words_len;
    *q = (uint32_t)da->n_states - 1;
    return 0;
}

/* Residual of state q: 1 accepting (true), 0 rejecting (false), -1 neither. */
static int proper__ltl_da_verdict(const proper__ltl_da *da, uint32_t q) {
    const uint32_t *w = da->words + da->start[q];
    if (w[0] == 0) return 0;
    return w[0] == 1 && w[1] == 0 ? 1 : -1;
}

/* The successor of state q on `letter` (progression, remembered). */
static int proper__ltl_da_next(proper__ltl_da *da, uint32_t q, uint64_t letter, uint32_t *next) {
    size_t h, pos, c, n_clauses;
    proper__ltl_dnf d, e, f;
    int rc = 0;
    if (2 * (da->n_tr + 1) > da->tr_slots) {
        size_t slots = da->tr_slots ? 2 * da->tr_slots : 1024, i;
        uint64_t *tl = (uint64_t *)proper_calloc(slots, sizeof *tl);
        uint32_t *tf = (uint32_t *)proper_calloc(slots, sizeof *tf), *tt = (uint32_t *)proper_calloc(slots, sizeof *tt);
        if (!tl || !tf || !tt) {
            PROPER_FREE(tl), PROPER_FREE(tf), PROPER_FREE(tt);
            return proper__ltl_oom(da->err);
        }
        for (i = 0; i < da->tr_slots; i++) {
            if (!da->tr_from[i]) continue;
            h = (size_t)proper_fnv1a(proper_fnv1a(PROPER_FNV_OFFSET, &da->tr_from[i], 4), &da->tr_letter[i], 8) & (slots - 1);
            while (tf[h]) h = (h + 1) & (slots - 1);
            tf[h] = da->tr_from[i], tl[h] = da->tr_letter[i], tt[h] = da->tr_to[i];
        }
        PROPER_FREE(da->tr_letter), PROPER_FREE(da->tr_from), PROPER_FREE(da->tr_to);
        da->tr_letter = tl, da->tr_from = tf, da->tr_to = tt, da->tr_slots = slots;
    }
    {
        uint32_t key = q + 1;
        h = (size_t)proper_fnv1a(proper_fnv1a(PROPER_FNV_OFFSET, &key, 4), &letter, 8) & (da->tr_slots - 1);
        while (da->tr_from[h]) {
            if (da->tr_from[h] == key && da->tr_letter[h] == letter) return *next = da->tr_to[h], 0;
            h = (h + 1) & (da->tr_slots - 1);
        }
    }
    /* af(q) = OR over clauses of AND over atoms of af(atom) */
    memset(&d, 0, sizeof d);
    memset(&e, 0, sizeof e);
    memset(&f, 0, sizeof f);
    n_clauses = da->words[da->start[q]];
    pos = da->start[q] + 1;
    for (c = 0; c < n_clauses && !rc; c++) {
        uint32_t size = da->words[pos], a;
        rc = proper__ltl_dnf_set_const(&e, 1) ? proper__ltl_oom(da->err) : 0;
        for (a = 1; a <= size && !rc; a++) {
            if (!(rc = proper__ltl_af(da, da->words[pos + a], letter, &f))) rc = proper__ltl_dnf_and(&e, &f, da);
        }
        if (!rc) rc = proper__ltl_dnf_or(&d, &e, da);
        pos += 1 + size;
    }
    if (!rc) rc = proper__ltl_da_state(da, &d, next);
    if (!rc) {
        da->tr_from[h] = q + 1;
        da->tr_letter[h] = letter;
        da->tr_to[h] = *next;
        da->n_tr++;
    }
    proper__ltl_dnf_free(&d);
    proper__ltl_dnf_free(&e);
    proper__ltl_dnf_free(&f);
    return rc;
}

/* The product of the chain with the co-safe automaton, explored from
 * (s, af(phi, letter(s))) for every state s: product state (s, q) has
 * read the path up to s with residual q; an accepting or rejecting q
 * makes it absorbing. entry[s] is the product state of s. */
typedef struct proper__ltl_product {
    proper_dtmc chain;
    uint32_t *entry;      /* n_states of the model */
    uint32_t *state;      /* product state -> model state */
    proper_bitset accept; /* product states with residual true */
} proper__ltl_product;

static void proper__ltl_product_free(proper__ltl_product *p) {
    proper_dtmc_free(&p->chain);
    PROPER_FREE(p->entry);
    PROPER_FREE(p->state);
    proper_bitset_free(&p->accept);
}

/* Index of product state (s, q) in the open-addressing table keys/ids,
 * added to the queue (states, autom) if new. */
typedef struct proper__ltl_pmap {
    uint64_t *keys;     /* (q << 32 | s) + 1, or 0 */
    uint32_t *ids;
    size_t slots, n;
    uint32_t *states, *autom;
    size_t cap_s, cap_a;
} proper__ltl_pmap;

static int proper__ltl_pmap_get(proper__ltl_pmap *pm, uint32_t s, uint32_t q, size_t limit, uint32_t *id,
                                proper_error *err) {
    uint64_t key = (((uint64_t)q << 32) | s) + 1;
    size_t h;
    int rc;
    if (2 * (pm->n + 1) > pm->slots) {
        size_t slots = pm->slots ? 2 * pm->slots : 1024, i;
        uint64_t *keys = (uint64_t *)proper_calloc(slots, sizeof *keys);
        uint32_t *ids = (uint32_t *)proper_calloc(slots, sizeof *ids);
        if (!keys || !ids) {
            PROPER_FREE(keys), PROPER_FREE(ids);
            return proper__ltl_oom(err);
        }
        for (i = 0; i < pm->slots; i++) {
            if (!pm->keys[i]) continue;
            h = (size_t)proper_fnv1a(PROPER_FNV_OFFSET, &pm->keys[i], 8) & (slots - 1);
            while (keys[h]) h = (h + 1) & (slots - 1);
            keys[h] = pm->keys[i], ids[h] = pm->ids[i];
        }
        PROPER_FREE(pm->keys), PROPER_FREE(pm->ids);
        pm->keys = keys, pm->ids = ids, pm->slots = slots;
    }
    h = (size_t)proper_fnv1a(PROPER_FNV_OFFSET, &key, 8) & (pm->slots - 1);
    while (pm->keys[h]) {
        if (pm->keys[h] == key) return *id = pm->ids[h], 0;
        h = (h + 1) & (pm->slots - 1);
    }
    if ((rc = proper__ltl_product_limit(pm->n + 1, limit, err))) return rc;
    if (proper_reserve(&pm->states, &pm->cap_s, pm->n + 1, sizeof *pm->states) ||
        proper_reserve(&pm->autom, &pm->cap_a, pm->n + 1, sizeof *pm->autom))
        return proper__ltl_oom(err);
    pm->keys[h] = key;
    pm->ids[h] = (uint32_t)pm->n;
    pm->states[pm->n] = s;
    pm->autom[pm->n] = q;
    *id = (uint32_t)pm->n++;
    return 0;
}

/* Letters: bit slot[p] of letters[s] is proposition p at state s. */
static int proper__ltl_letters(const proper_dtmc *m, const proper_ltl *f, const proper_bitset *aps, size_t n_aps,
                               uint32_t *slot, uint64_t *letters, proper_error *err) {
    size_t i, used = 0, s;
    for (i = 0; i < n_aps; i++) slot[i] = PROPER_LTL_NONE;
    for (i = 0; i < f->len; i++) {
        const proper_ltl_node *nd = &f->nodes[i];
        if (nd->op != PROPER_LTL_AP) continue;
        if (nd->ap >= n_aps)
            return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                    "LTL formula: proposition %lu, but only %lu state sets were given",
                                    (unsigned long)nd->ap, (unsigned long)n_aps);
        if (slot[nd->ap] != PROPER_LTL_NONE) continue;
        if (used == 64)
            return proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0,
                                    "co-safe LTL over more than 64 propositions");
        slot[nd->ap] = (uint32_t)used++;
    }
    for (s = 0; s < m->n_states; s++) {
        uint64_t l = 0;
        for (i = 0; i < n_aps; i++)
            if (slot[i] != PROPER_LTL_NONE && PROPER_BITSET_GET(&aps[i], s)) l |= (uint64_t)1 << slot[i];
        letters[s] = l;
    }
    return 0;
}

static int proper__ltl_product_build(const proper_dtmc *m, const proper_ltl *f, const proper_bitset *aps,
                                     size_t n_aps, const proper_ltl_opts *opts, proper__ltl_product *out,
                                     proper_ltl_stats *stats, proper_error *err) {
    proper__ltl_store st;
    proper__ltl_da da;
    proper__ltl_pmap pm;
    proper_dtmc_builder b;
    proper__ltl_dnf d0;
    uint32_t *nnf = NULL, *slot = NULL, *dst = NULL, q0;
    uint64_t *letters = NULL;
    double *p = NULL;
    size_t s, i, cap_d = 0, cap_p = 0;
    int rc;
    memset(&st, 0, sizeof st);
    memset(&da, 0, sizeof da);
    memset(&pm, 0, sizeof pm);
    memset(&d0, 0, sizeof d0);
    memset(out, 0, sizeof *out);
    proper_dtmc_builder_init(&b);
    if (!proper_ltl_is_cosafe(f)) {
        proper_strbuf text;
        proper_strbuf_init(&text);
        proper_ltl_format(f, &text, NULL, 0, NULL);
        rc = proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0,
                              "LTL formula %s is not co-safe (in negation normal form only X, U, F and "
                              "G, W, R with an upper step bound are allowed)", text.data && !text.failed ? text.data : "");
        proper_strbuf_free(&text);
        return rc;
    }
    nnf = (uint32_t *)proper_calloc(2 * f->len, sizeof *nnf);
    slot = (uint32_t *)proper_calloc(n_aps ? n_aps : 1, sizeof *slot);
    letters = (uint64_t *)proper_calloc(m->n_states ? m->n_states : 1, sizeof *letters);
    out->entry = (uint32_t *)proper_calloc(m->n_states ? m->n_states : 1, sizeof *out->entry);
    if (!nnf || !slot || !letters || !out->entry) {
        rc = proper__ltl_oom(err);
        goto done;
    }
    if ((rc = proper__ltl_letters(m, f, aps, n_aps, slot, letters, err)) || (rc = proper__ltl_nnf(f, &st, nnf, err)))
        goto done;
    da.st = &st;
    da.slot = slot;
    da.max_states = opts->max_automaton_states;
    da.max_work = da.work_left = opts->max_automaton_work;
    da.err = err;
    if ((rc = proper__ltl_dnf_of(&da, nnf[2 * (size_t)f->root], &d0)) || (rc = proper__ltl_da_state(&da, &d0, &q0)))
        goto done;
    for (s = 0; s < m->n_states && !rc; s++) {
        uint32_t q;
        if (!(rc = proper__ltl_da_next(&da, q0, letters[s], &q)))
            rc = proper__ltl_pmap_get(&pm, (uint32_t)s, q, opts->max_product_states, &out->entry[s], err);
    }
    /* rows in product-state order; new states join the end of the queue */
    for (i = 0; i < pm.n && !rc; i++) {
        uint32_t u = pm.states[i], q = pm.autom[i];
        size_t len = 0;
        uint64_t t;
        if (proper__ltl_da_verdict(&da, q) >= 0) {
            uint32_t self = (uint32_t)i;
            double one = 1;
            rc = proper_dtmc_builder_add_row(&b, &self, &one, 1, err);
            continue;
        }
        for (t = m->row[u]; t < m->row[u + 1] && !rc; t++) {
            uint32_t v = m->col[t], qn, id;
            if ((rc = proper__ltl_da_next(&da, q, letters[v], &qn)) ||
                (rc = proper__ltl_pmap_get(&pm, v, qn, opts->max_product_states, &id, err)))
                break;
            if (proper_reserve(&dst, &cap_d, len + 1, sizeof *dst) || proper_reserve(&p, &cap_p, len + 1, sizeof *p)) {
                rc = proper__ltl_oom(err);
                break;
            }
            dst[len] = id;
            p[len++] = m->prob[t];
        }
        if (!rc) rc = proper_dtmc_builder_add_row(&b, dst, p, len, err);
    }
    if (rc) goto done;
    if ((rc = proper_dtmc_builder_finish(&b, (uint32_t)pm.n, &out->chain, err))) goto done;
    if ((rc = proper_bitset_create(&out->accept, pm.n, err))) goto done;
    for (i = 0; i < pm.n; i++)
        if (proper__ltl_da_verdict(&da, pm.autom[i]) == 1) proper_bitset_set(&out->accept, i);
    out->state = pm.states;
    pm.states = NULL;
    if (stats) {
        stats->automaton_states = da.n_states;
        stats->product_states = pm.n;
        stats->product_trans = out->chain.n_trans;
    }
done:
    proper_dtmc_builder_free(&b);
    proper__ltl_dnf_free(&d0);
    proper__ltl_da_free(&da);
    proper__ltl_store_free(&st);
    PROPER_FREE(pm.keys), PROPER_FREE(pm.ids), PROPER_FREE(pm.states), PROPER_FREE(pm.autom);
    PROPER_FREE(nnf), PROPER_FREE(slot), PROPER_FREE(letters), PROPER_FREE(dst), PROPER_FREE(p);
    if (rc) proper__ltl_product_free(out);
    return rc;
}

PROPER_API int proper_ltl_prob_cosafe(const proper_dtmc *m, const proper_ltl *f, const proper_bitset *aps,
                                      size_t n_aps, const proper_ltl_opts *opts, double *x,
                                      proper_ltl_stats *stats, proper_error *err) {
    proper_ltl_opts defaults = proper_ltl_opts_default();
    proper__ltl_product pr;
    double *y = NULL;
    size_t s;
    int rc;
    if ((rc = proper__ltl_check_args(m, f, aps, n_aps, PROPER_LTL_MAX_DEPTH, err))) return rc;
    if (stats) memset(stats, 0, sizeof *stats);
    if ((rc = proper__ltl_product_build(m, f, aps, n_aps, opts ? opts : &defaults, &pr, stats, err))) return rc;
    y = (double *)proper_calloc(pr.chain.n_states ? pr.chain.n_states : 1, sizeof *y);
    if (!y) rc = proper__ltl_oom(err);
    else rc = proper_dtmc_prob_until(&pr.chain, NULL, &pr.accept, &(opts ? opts : &defaults)->solve, y, NULL, err);
    if (!rc)
        for (s = 0; s < m->n_states; s++) x[s] = y[pr.entry[s]];
    PROPER_FREE(y);
    proper__ltl_product_free(&pr);
    return rc;
}

PROPER_API int proper_ltl_reward_cosafe_ex(const proper_dtmc *m, const proper_dtmc_reward *r,
                                           const proper_ltl *f, const proper_bitset *aps, size_t n_aps,
                                           const proper_ltl_opts *opts, double *x, proper_ltl_stats *stats,
                                           proper_error *err) {
    proper_ltl_opts defaults = proper_ltl_opts_default();
    proper__ltl_product pr;
    proper_dtmc_reward pr_reward;
    double *y = NULL;
    size_t s, i;
    int rc;
    if ((rc = proper__ltl_check_args(m, f, aps, n_aps, PROPER_LTL_MAX_DEPTH, err))) return rc;
    if (stats) memset(stats, 0, sizeof *stats);
    if (!opts) opts = &defaults;
    if ((rc = proper__ltl_product_build(m, f, aps, n_aps, opts, &pr, stats, err))) return rc;
    /* the reward of product state (s, q): the state reward of s plus the
     * expected transition reward out of s (which leaves every expected
     * accumulated reward unchanged); what absorbing states earn does not
     * matter (0 in accepting ones, infinity in rejecting ones) */
    pr_reward.name = NULL;
    pr_reward.trans = NULL;
    pr_reward.state = (double *)proper_calloc(pr.chain.n_states ? pr.chain.n_states : 1, sizeof *pr_reward.state);
    y = (double *)proper_calloc(pr.chain.n_states ? pr.chain.n_states : 1, sizeof *y);
    if (!pr_reward.state || !y) {
        rc = proper__ltl_oom(err);
        goto done;
    }
    for (i = 0; i < pr.chain.n_states; i++) {
        uint32_t u = pr.state[i];
        double v = 0;
        uint64_t t;
        if (r->state) v += r->state[u];
        if (r->trans)
            for (t = m->row[u]; t < m->row[u + 1]; t++) v += m->prob[t] * r->trans[t];
        pr_reward.state[i] = v;
    }
    rc = proper_dtmc_reward_reach(&pr.chain, &pr_reward, &pr.accept, &opts->solve, y, NULL, err);
    if (!rc)
        for (s = 0; s < m->n_states; s++) x[s] = y[pr.entry[s]];
done:
    PROPER_FREE(pr_reward.state);
    PROPER_FREE(y);
    proper__ltl_product_free(&pr);
    return rc;
}

PROPER_API int proper_ltl_reward_cosafe(const proper_dtmc *m, const proper_dtmc_reward *r, const proper_ltl *f,
                                        const proper_bitset *aps, size_t n_aps,
                                        const proper_dtmc_solve_opts *opts, double *x, proper_error *err) {
    proper_ltl_opts o = proper_ltl_opts_default();
    if (opts) o.solve = *opts;
    return proper_ltl_reward_cosafe_ex(m, r, f, aps, n_aps, &o, x, NULL, err);
}

/* ---- E[ f ]: the tableau product -------------------------------------------
 * The kernel (boolean operators, X, U) with every bounded until expanded,
 *     a U[0,0] b = b,   a U[0,k] b = b | (a & X (a U[0,k-1] b)),
 * has m temporal subformulas t_0..t_{m-1} (X and unbounded U). A node of
 * the product is a state s with a value for each of them (a bit mask A)
 * that is locally consistent: an until is true where its right operand
 * holds and false where neither operand holds. (s,A) -> (t,B) when s -> t
 * has positive probability, every X psi of A has the value of psi at
 * (t,B), and every until whose value A leaves to the next state (left
 * operand true, right false) has the same value in B. A path of the
 * graph satisfies f exactly when it lifts to a path of nodes, starting
 * where f is true, that fulfils every until it promises: it ends in a
 * strongly connected component with an internal edge that contains, for
 * each until, a node where it is false or its right operand holds
 * (Vardi and Wolper 1986; Lichtenstein and Pnueli 1985). */

typedef struct proper__ltl_tnode {
    uint32_t s;      /* model state */
    uint32_t mask;   /* values of the temporal subformulas */
    uint32_t xarg;   /* bit k: the operand of X node k holds here */
    uint32_t ustep;  /* bit k: until k passes its value to the next node */
    uint32_t ufair;  /* bit k: until k is false or fulfilled here */
    unsigned char root;
} proper__ltl_tnode;

typedef struct proper__ltl_tab {
    const proper_dtmc *m;
    const proper_bitset *aps;
    proper__ltl_store *st;
    uint32_t root;
    unsigned char *needed, *val;
    uint32_t temporal[PROPER_LTL_MAX_TABLEAU];
    size_t n_temporal;
    uint32_t x_mask, u_mask;
    proper__ltl_tnode *nodes;
    size_t n_nodes, cap_nodes, max_nodes;
    proper_error *err;
} proper__ltl_tab;

/* The kernel of `from` with bounded untils expanded, into `to`; map[i] is
 * the node of kernel node i. */
static int proper__ltl_expand_bounded(const proper__ltl_store *from, proper__ltl_store *to, uint32_t *map, size_t x_max,
                                      proper_error *err) {
    size_t i;
    for (i = 0; i < from->len; i++) {
        const proper__ltl_k *k = &from->n[i];
        uint32_t a = k->op >= PROPER__LTL_K_NOT && k->op <= PROPER__LTL_K_U ? map[k->a] : 0;
        uint32_t b = k->op >= PROPER__LTL_K_AND && k->op <= PROPER__LTL_K_U && k->op != PROPER__LTL_K_X ? map[k->b] : 0;
        uint32_t r;
        unsigned long j;
        switch (k->op) {
        case PROPER__LTL_K_TRUE: case PROPER__LTL_K_FALSE: r = proper__ltl_const(to, k->op == PROPER__LTL_K_TRUE); break;
        case PROPER__LTL_K_AP: r = proper__ltl_node(to, PROPER__LTL_K_AP, k->a, 0, 0, 0); break;
        case PROPER__LTL_K_NOT: r = proper__ltl_not(to, a); break;
        case PROPER__LTL_K_AND: case PROPER__LTL_K_OR: r = proper__ltl_junction(to, k->op == PROPER__LTL_K_AND, a, b); break;
        case PROPER__LTL_K_IFF: r = proper__ltl_node(to, PROPER__LTL_K_IFF, a, b, 0, 0); break;
        case PROPER__LTL_K_X: r = proper__ltl_node(to, PROPER__LTL_K_X, a, 0, 0, 0); break;
        default: /* U */
            if (k->hi == PROPER_LTL_UNBOUNDED) {
                r = proper__ltl_node(to, PROPER__LTL_K_U, a, b, 0, k->hi);
                break;
            }
            if (k->hi > x_max)
                return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                        "LTL path quantifier: a step bound above %lu (PROPER_LTL_MAX_REFINEMENTS)",
                                        (unsigned long)x_max);
            for (r = b, j = 0; j < k->hi && r != PROPER_LTL_NONE; j++)
                r = proper__ltl_junction(to, 0, b, proper__ltl_junction(to, 1, a, proper__ltl_node(to, PROPER__LTL_K_X, r, 0, 0, 0)));
            break;
        }
        if (r == PROPER_LTL_NONE)
            return to->failed == PROPER_ELIMIT ? proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                                                  "LTL formula: more than %lu internal nodes",
                                                                  (unsigned long)PROPER__LTL_STORE_MAX)
                                               : proper__ltl_oom(err);
        map[i] = r;
    }
    return 0;
}

/* Values of the non-temporal needed nodes with index in [lo, hi) at state s. */
static void proper__ltl_tab_eval(proper__ltl_tab *T, uint32_t s, size_t lo, size_t hi) {
    size_t i;
    for (i = lo; i < hi; i++) {
        const proper__ltl_k *k = &T->st->n[i];
        if (!T->needed[i]) continue;
        switch (k->op) {
        case PROPER__LTL_K_TRUE: T->val[i] = 1; break;
        case PROPER__LTL_K_FALSE: T->val[i] = 0; break;
        case PROPER__LTL_K_AP: T->val[i] = (unsigned char)PROPER_BITSET_GET(&T->aps[k->a], s); break;
        case PROPER__LTL_K_NOT: T->val[i] = !T->val[k->a]; break;
        case PROPER__LTL_K_AND: T->val[i] = T->val[k->a] && T->val[k->b]; break;
        case PROPER__LTL_K_OR: T->val[i] = T->val[k->a] || T->val[k->b]; break;
        case PROPER__LTL_K_IFF: T->val[i] = T->val[k->a] == T->val[k->b]; break;
        default: break; /* temporal: set by the enumeration */
        }
    }
}

/* Every consistent value mask at state s, from temporal subformula j on. */
static int proper__ltl_tab_enumerate(proper__ltl_tab *T, uint32_t s, size_t j, uint32_t mask) {
    size_t start = j == 0 ? 0 : T->temporal[j - 1] + 1, end = j < T->n_temporal ? T->temporal[j] : T->root + 1;
    const proper__ltl_k *k;
    int lo = 0, hi = 1, v, rc;
    proper__ltl_tab_eval(T, s, start, end);
    if (j == T->n_temporal) {
        proper__ltl_tnode nd;
        size_t q;
        if (T->n_nodes >= T->max_nodes)
            return proper_error_set(T->err, PROPER_ELIMIT, NULL, 0, 0,
                                    "LTL tableau product needs more than %lu states (PROPER_LTL_MAX_PRODUCT_STATES)",
                                    (unsigned long)T->max_nodes);
        memset(&nd, 0, sizeof nd);
        nd.s = s;
        nd.mask = mask;
        for (q = 0; q < T->n_temporal; q++) {
            const proper__ltl_k *t = &T->st->n[T->temporal[q]];
            if (t->op == PROPER__LTL_K_X) {
                if (T->val[t->a]) nd.xarg |= (uint32_t)1 << q;
            } else {
                if (T->val[t->a] && !T->val[t->b]) nd.ustep |= (uint32_t)1 << q;
                if (!(mask >> q & 1u) || T->val[t->b]) nd.ufair |= (uint32_t)1 << q;
            }
        }
        nd.root = T->val[T->root];
        return PROPER_PUSH(T->nodes, T->n_nodes, T->cap_nodes, nd) ? proper__ltl_oom(T->err) : 0;
    }
    k = &T->st->n[T->temporal[j]];
    if (k->op == PROPER__LTL_K_U) {
        if (T->val[k->b]) lo = 1;       /* fulfilled now */
        else if (!T->val[k->a]) hi = 0; /* broken now */
    }
    for (v = lo; v <= hi; v++) {
        T->val[T->temporal[j]] = (unsigned char)v;
        if ((rc = proper__ltl_tab_enumerate(T, s, j + 1, mask | (uint32_t)v << j))) return rc;
    }
    return 0;
}

/* The candidate edges of the product (node pairs along the chain's
 * transitions), counted before any is examined, so that a product beyond
 * max_pairs is refused at once rather than after max_pairs checks. */
static int proper__ltl_tab_check_pairs(const proper__ltl_tab *T, const size_t *node_start, size_t max_pairs) {
    const proper_dtmc *m = T->m;
    size_t i, pairs = 0;
    for (i = 0; i < T->n_nodes; i++) {
        uint64_t t;
        for (t = m->row[T->nodes[i].s]; t < m->row[T->nodes[i].s + 1]; t++) {
            pairs += node_start[m->col[t] + 1] - node_start[m->col[t]];
            if (pairs > max_pairs)
                return proper_error_set(T->err, PROPER_ELIMIT, NULL, 0, 0,
                                        "LTL tableau product has more than %lu candidate edges",
                                        (unsigned long)max_pairs);
        }
    }
    return 0;
}

/* The product as a chain (uniform probabilities: only its graph is used),
 * rows in node order; node_start[s] is the first node of state s. */
static int proper__ltl_tab_graph(proper__ltl_tab *T, const size_t *node_start, size_t max_pairs, proper_dtmc *out) {
    const proper_dtmc *m = T->m;
    proper_dtmc_builder b;
    uint32_t *dst = NULL;
    double *p = NULL;
    size_t cap_d = 0, cap_p = 0, i;
    int rc;
    if ((rc = proper__ltl_tab_check_pairs(T, node_start, max_pairs))) return rc;
    proper_dtmc_builder_init(&b);
    b.fix_deadlocks = 1; /* a node without consistent successor: marked, never fair */
    for (i = 0; i < T->n_nodes && !rc; i++) {
        const proper__ltl_tnode *a = &T->nodes[i];
        size_t len = 0, k;
        uint64_t t;
        for (t = m->row[a->s]; t < m->row[a->s + 1] && !rc; t++) {
            uint32_t v = m->col[t];
            size_t q;
            for (q = node_start[v]; q < node_start[v + 1]; q++) {
                const proper__ltl_tnode *c = &T->nodes[q];
                if ((a->mask & T->x_mask) != c->xarg || ((a->mask ^ c->mask) & a->ustep)) continue;
                if (proper_reserve(&dst, &cap_d, len + 1, sizeof *dst) || proper_reserve(&p, &cap_p, len + 1, sizeof *p)) {
                    rc = proper__ltl_oom(T->err);
                    break;
                }
                dst[len++] = (uint32_t)q;
            }
        }
        for (k = 0; k < len; k++) p[k] = 1.0 / (double)len;
        if (!rc) rc = proper_dtmc_builder_add_row(&b, dst, p, len, T->err);
    }
    if (!rc) rc = proper_dtmc_builder_finish(&b, (uint32_t)T->n_nodes, out, T->err);
    else proper_dtmc_builder_free(&b);
    PROPER_FREE(dst);
    PROPER_FREE(p);
    return rc;
}

/* The nodes of fair components: with an internal edge (not a deadlock's
 * added self-loop) and, for each until, a node where it is false or
 * fulfilled. */
static int proper__ltl_tab_fair(const proper__ltl_tab *T, const proper_dtmc *g, proper_bitset *fair, proper_error *err) {
    uint32_t *comp = NULL, n_comp = 0, *acc = NULL;
    unsigned char *edge = NULL;
    size_t i;
    int rc;
    comp = (uint32_t *)proper_calloc(T->n_nodes + 1, sizeof *comp);
    if (!comp) return proper__ltl_oom(err);
    if ((rc = proper_dtmc_scc(g, NULL, comp, &n_comp, err))) goto done;
    acc = (uint32_t *)proper_calloc((size_t)n_comp + 1, sizeof *acc);
    edge = (unsigned char *)proper_calloc((size_t)n_comp + 1, 1);
    if (!acc || !edge || (rc = proper_bitset_create(fair, T->n_nodes, err))) {
        rc = rc ? rc : proper__ltl_oom(err);
        goto done;
    }
    for (i = 0; i < T->n_nodes; i++) {
        uint64_t t;
        acc[comp[i]] |= T->nodes[i].ufair;
        if (g->deadlock.n && PROPER_BITSET_GET(&g->deadlock, i)) continue;
        for (t = g->row[i]; t < g->row[i + 1]; t++)
            if (comp[g->col[t]] == comp[i]) edge[comp[i]] = 1;
    }
    for (i = 0; i < T->n_nodes; i++)
        if (edge[comp[i]] && (acc[comp[i]] & T->u_mask) == T->u_mask) proper_bitset_set(fair, i);
done:
    PROPER_FREE(comp);
    PROPER_FREE(acc);
    PROPER_FREE(edge);
    return rc;
}

/* The tableau of a formula over a chain: the kernel with bounded untils
 * expanded (ex), its temporal subformulas, and every consistent node of
 * every state (node_start[s]: the first node of state s). Shared by the
 * path quantifiers and the interval models. */
typedef struct proper__ltl_tableau {
    proper__ltl_store st, ex;
    proper__ltl_tab T;
    size_t *node_start;
} proper__ltl_tableau;

static void proper__ltl_tableau_free(proper__ltl_tableau *tb) {
    PROPER_FREE(tb->T.nodes);
    PROPER_FREE(tb->T.needed);
    PROPER_FREE(tb->T.val);
    PROPER_FREE(tb->node_start);
    proper__ltl_store_free(&tb->st);
    proper__ltl_store_free(&tb->ex);
    memset(tb, 0, sizeof *tb);
}

static int proper__ltl_tableau_make(const proper_dtmc *m, const proper_ltl *f, const proper_bitset *aps, size_t n_aps,
                                    const proper_ltl_opts *opts, proper__ltl_tableau *tb, proper_error *err) {
    proper__ltl_tab *T = &tb->T;
    uint32_t *kernel = NULL, *map = NULL, *uses = NULL, s;
    size_t i;
    int rc;
    memset(tb, 0, sizeof *tb);
    kernel = (uint32_t *)proper_calloc(f->len, sizeof *kernel);
    tb->node_start = (size_t *)proper_calloc((size_t)m->n_states + 1, sizeof *tb->node_start);
    if (!kernel || !tb->node_start) {
        rc = proper__ltl_oom(err);
        goto done;
    }
    if ((rc = proper__ltl_kernel(f, n_aps, opts->max_refinements, 0, &tb->st, kernel, err))) goto done;
    map = (uint32_t *)proper_calloc(tb->st.len + 1, sizeof *map);
    if (!map) {
        rc = proper__ltl_oom(err);
        goto done;
    }
    if ((rc = proper__ltl_expand_bounded(&tb->st, &tb->ex, map, opts->max_refinements, err))) goto done;
    T->m = m;
    T->aps = aps;
    T->st = &tb->ex;
    T->root = map[kernel[f->root]];
    T->err = err;
    T->max_nodes = opts->max_product_states;
    T->needed = (unsigned char *)proper_calloc(tb->ex.len, 1);
    T->val = (unsigned char *)proper_calloc(tb->ex.len, 1);
    uses = (uint32_t *)proper_calloc(tb->ex.len, sizeof *uses);
    if (!T->needed || !T->val || !uses) {
        rc = proper__ltl_oom(err);
        goto done;
    }
    proper__ltl_count_uses(&tb->ex, T->root, T->needed, uses);
    for (i = 0; i <= T->root; i++) {
        int op = tb->ex.n[i].op;
        if (!T->needed[i] || (op != PROPER__LTL_K_X && op != PROPER__LTL_K_U)) continue;
        if (T->n_temporal == PROPER_LTL_MAX_TABLEAU) {
            rc = proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                  "LTL tableau over more than %d temporal subformulas (PROPER_LTL_MAX_TABLEAU; "
                                  "step bounds count one per step)", PROPER_LTL_MAX_TABLEAU);
            goto done;
        }
        if (op == PROPER__LTL_K_X) T->x_mask |= (uint32_t)1 << T->n_temporal;
        else T->u_mask |= (uint32_t)1 << T->n_temporal;
        T->temporal[T->n_temporal++] = (uint32_t)i;
    }
    for (s = 0; s < m->n_states && !rc; s++) {
        tb->node_start[s] = T->n_nodes;
        rc = proper__ltl_tab_enumerate(T, s, 0, 0);
    }
    if (!rc) tb->node_start[m->n_states] = T->n_nodes;
done:
    PROPER_FREE(kernel);
    PROPER_FREE(map);
    PROPER_FREE(uses);
    if (rc) proper__ltl_tableau_free(tb);
    return rc;
}

PROPER_API int proper_ltl_exists(const proper_dtmc *m, const proper_ltl *f, const proper_bitset *aps, size_t n_aps,
                                 const proper_ltl_opts *opts, proper_bitset *out, proper_ltl_stats *stats,
                                 proper_error *err) {
    proper_ltl_opts defaults = proper_ltl_opts_default();
    proper__ltl_tableau tb;
    proper_dtmc g;
    proper_bitset fair, stuck, result;
    size_t i;
    int rc;
    if ((rc = proper__ltl_check_args(m, f, aps, n_aps, 0, err))) return rc;
    if (!opts) opts = &defaults;
    if (stats) memset(stats, 0, sizeof *stats);
    proper_dtmc_init(&g);
    proper_bitset_init(&fair);
    proper_bitset_init(&stuck);
    proper_bitset_init(&result);
    if ((rc = proper__ltl_tableau_make(m, f, aps, n_aps, opts, &tb, err))) return rc;
    if ((rc = proper__ltl_tab_graph(&tb.T, tb.node_start, 64 * opts->max_product_states, &g)) ||
        (rc = proper__ltl_tab_fair(&tb.T, &g, &fair, err)) || (rc = proper_dtmc_prob0(&g, NULL, &fair, &stuck, err)) ||
        (rc = proper_bitset_create(&result, m->n_states, err)))
        goto done;
    for (i = 0; i < tb.T.n_nodes; i++)
        if (tb.T.nodes[i].root && !PROPER_BITSET_GET(&stuck, i)) proper_bitset_set(&result, tb.T.nodes[i].s);
    proper_bitset_free(out);
    *out = result;
    proper_bitset_init(&result);
    if (stats) {
        stats->product_states = tb.T.n_nodes;
        stats->product_trans = g.n_trans;
    }
done:
    proper_dtmc_free(&g);
    proper_bitset_free(&fair);
    proper_bitset_free(&stuck);
    proper_bitset_free(&result);
    proper__ltl_tableau_free(&tb);
    return rc;
}

/* ---- Interval models: a limit-deterministic automaton -----------------------
 * PRISM's interval DTMC is an interval MDP: at each step nature picks any
 * distribution within the intervals. Pmax [ f ] is the largest probability
 * over nature's (history-dependent) choices, Pmin [ f ] = 1 - Pmax [ !f ].
 * The CY refinement needs a Markov chain, so here the formula's tableau (a
 * generalised Buchi automaton: node = state x values of the temporal
 * subformulas, one acceptance set per until) is semi-determinised
 * (Courcoubetis and Yannakakis, J. ACM 42(4), 1995, section 4): an initial
 * part that follows the set of tableau nodes consistent with the path so
 * far (the subset construction), from which the maximiser may jump, at any
 * step, to a part of the set (proper__ltl_ip_row_subset says which); after
 * the jump a deterministic breakpoint construction follows the nodes
 * reachable from that part (P) and those among them reached through a node
 * of the current acceptance set since the last breakpoint (O); when O
 * covers P the automaton visits an accepting state and moves to the next
 * acceptance set. The product with
 * the interval model is an interval MDP whose choices are the jumps and
 * nature's distributions, both resolved by the maximiser; it is encoded as
 * an interval DTMC: a subset state (s, S) has intervals [0, 1] to its step
 * node (which carries the model's intervals) and to each jump target, so
 * that nature's choice among them is the maximiser's. Pmax [ f ] is then
 * the largest probability of reaching the union of the accepting maximal
 * end components (docs/ltl.md). */

enum { PROPER__LTL_I_SUB, PROPER__LTL_I_STEP, PROPER__LTL_I_BP, PROPER__LTL_I_SINK };

/* Product states are interned word sequences:
 *   SUB  (s, S):          [SUB, s, S...]        S sorted tableau nodes of s
 *   STEP (s, S):          [STEP, s, S...]
 *   BP   (s, P, O, k, a): [BP | a << 2 | k << 3, s, |P|, P..., O...]
 *   SINK:                 [SINK]                 (no node left: rejecting) */
typedef struct proper__ltl_ip {
    const proper_dtmc *m;
    const double *lo, *hi;
    const proper__ltl_tab *T;
    const size_t *node_start;
    uint32_t n_acc;                      /* acceptance sets (untils; 1 when none) */
    uint32_t acc_bit[PROPER_LTL_MAX_TABLEAU];
    uint32_t *words;                     /* the keys */
    size_t n_words, cap_words;
    size_t *start;                       /* key of state q: words[start[q] .. start[q+1]) */
    size_t n, cap_start, max_states, max_words, max_jump_bits;
    uint64_t work, max_work;             /* nodes examined for successors and jumps */
    uint32_t *table;                     /* open addressing: state + 1, 0 empty */
    size_t n_table;
    unsigned char *accepting;            /* per product state */
    size_t cap_accepting;
    uint32_t *key, *set, *cover, *cover_tmp; /* scratch: one key, one set, one cover */
    size_t cap_key, cap_set, cap_cover, cap_cover_tmp;
    struct proper__ltl_ip_req *req;      /* scratch: distinct requirements of a set */
    size_t n_req, cap_req;
    uint32_t *row_dst;                   /* the row being built */
    double *row_lo, *row_hi;
    size_t row_len, cap_row_dst, cap_row_lo, cap_row_hi;
    double *plo, *phi;                   /* intervals of the product, aligned with its transitions */
    size_t n_ptrans, cap_plo, cap_phi;
    proper_error *err;
} proper__ltl_ip;

static void proper__ltl_ip_free(proper__ltl_ip *ip) {
    PROPER_FREE(ip->words); PROPER_FREE(ip->start); PROPER_FREE(ip->table); PROPER_FREE(ip->accepting);
    PROPER_FREE(ip->key); PROPER_FREE(ip->set); PROPER_FREE(ip->cover); PROPER_FREE(ip->cover_tmp); PROPER_FREE(ip->req);
    PROPER_FREE(ip->row_dst); PROPER_FREE(ip->row_lo); PROPER_FREE(ip->row_hi);
    PROPER_FREE(ip->plo); PROPER_FREE(ip->phi);
}

static int proper__ltl_ip_rehash(proper__ltl_ip *ip) {
    size_t n_table = ip->n_table ? 2 * ip->n_table : 1024, q;
    uint32_t *table = (uint32_t *)proper_calloc(n_table, sizeof *table);
    if (!table) return PROPER_ENOMEM;
    for (q = 0; q < ip->n; q++) {
        size_t h = (size_t)proper__ltl_words_hash(ip->words + ip->start[q], ip->start[q + 1] - ip->start[q]) & (n_table - 1);
        while (table[h]) h = (h + 1) & (n_table - 1);
        table[h] = (uint32_t)q + 1;
    }
    PROPER_FREE(ip->table);
    ip->table = table;
    ip->n_table = n_table;
    return 0;
}

/* The product state of key ip->key[0 .. len), added if new. */
static int proper__ltl_ip_state(proper__ltl_ip *ip, size_t len, uint32_t *q) {
    size_t h;
    if (2 * (ip->n + 1) > ip->n_table && proper__ltl_ip_rehash(ip)) return proper__ltl_oom(ip->err);
    h = (size_t)proper__ltl_words_hash(ip->key, len) & (ip->n_table - 1);
    while (ip->table[h]) {
        size_t o = ip->table[h] - 1;
        if (ip->start[o + 1] - ip->start[o] == len && !memcmp(ip->words + ip->start[o], ip->key, len * sizeof *ip->key)) {
            *q = (uint32_t)o;
            return 0;
        }
        h = (h + 1) & (ip->n_table - 1);
    }
    if (ip->n >= ip->max_states || ip->n_words + len > ip->max_words)
        return proper_error_set(ip->err, PROPER_ELIMIT, NULL, 0, 0,
                                "LTL on probability intervals: the product with the automaton needs more than %lu "
                                "states or %lu words of automaton states (PROPER_LTL_MAX_PRODUCT_STATES)",
                                (unsigned long)ip->max_states, (unsigned long)ip->max_words);
    if (proper_reserve(&ip->words, &ip->cap_words, ip->n_words + len, sizeof *ip->words) ||
        proper_reserve(&ip->start, &ip->cap_start, ip->n + 2, sizeof *ip->start) ||
        proper_reserve(&ip->accepting, &ip->cap_accepting, ip->n + 1, 1))
        return proper__ltl_oom(ip->err);
    memcpy(ip->words + ip->n_words, ip->key, len * sizeof *ip->key);
    ip->start[ip->n] = ip->n_words;
    ip->n_words += len;
    ip->start[ip->n + 1] = ip->n_words;
    ip->accepting[ip->n] = (ip->key[0] & 7u) == (PROPER__LTL_I_BP | 4u);
    ip->table[h] = (uint32_t)ip->n + 1;
    *q = (uint32_t)ip->n++;
    return 0;
}

static int proper__ltl_ip_key_room(proper__ltl_ip *ip, size_t len) {
    return proper_reserve(&ip->key, &ip->cap_key, len, sizeof *ip->key) ? proper__ltl_oom(ip->err) : 0;
}

/* The subset or step state (kind) of state s and nodes set[0 .. n). */
static int proper__ltl_ip_subset(proper__ltl_ip *ip, uint32_t kind, uint32_t s, const uint32_t *set, size_t n,
                                 uint32_t *q) {
    int rc;
    if ((rc = proper__ltl_ip_key_room(ip, n + 2))) return rc;
    ip->key[0] = kind;
    ip->key[1] = s;
    if (n) memmove(ip->key + 2, set, n * sizeof *set);
    return proper__ltl_ip_state(ip, n + 2, q);
}

static int proper__ltl_ip_sink(proper__ltl_ip *ip, uint32_t *q) {
    int rc;
    if ((rc = proper__ltl_ip_key_room(ip, 1))) return rc;
    ip->key[0] = PROPER__LTL_I_SINK;
    return proper__ltl_ip_state(ip, 1, q);
}

/* The breakpoint state (s, P, O, k, accepting). */
static int proper__ltl_ip_breakpoint(proper__ltl_ip *ip, uint32_t s, const uint32_t *P, size_t np, const uint32_t *O,
                                     size_t no, uint32_t k, int accepting, uint32_t *q) {
    int rc;
    if ((rc = proper__ltl_ip_key_room(ip, np + no + 3))) return rc;
    ip->key[0] = PROPER__LTL_I_BP | (uint32_t)(accepting != 0) << 2 | k << 3;
    ip->key[1] = s;
    ip->key[2] = (uint32_t)np;
    if (np) memmove(ip->key + 3, P, np * sizeof *P);
    if (no) memmove(ip->key + 3 + np, O, no * sizeof *O);
    return proper__ltl_ip_state(ip, np + no + 3, q);
}

/* What a node requires of its successors: their X operands (xarg) and
 * the values of the untils it passes on (mask & ustep). Successor sets
 * are computed against the distinct requirements of a set, far fewer
 * than its nodes when X operands are guessed. */
typedef struct proper__ltl_ip_req {
    uint32_t xarg, ustep, uval;
} proper__ltl_ip_req;

static int proper__ltl_ip_req_cmp(const void *x, const void *y) {
    const proper__ltl_ip_req *a = (const proper__ltl_ip_req *)x, *b = (const proper__ltl_ip_req *)y;
    if (a->xarg != b->xarg) return a->xarg < b->xarg ? -1 : 1;
    if (a->ustep != b->ustep) return a->ustep < b->ustep ? -1 : 1;
    return a->uval < b->uval ? -1 : a->uval > b->uval;
}

/* The distinct requirements of the nodes from[0 .. n_from) into ip->req. */
static int proper__ltl_ip_requirements(proper__ltl_ip *ip, const uint32_t *from, size_t n_from) {
    size_t i, n = 0;
    if (proper_reserve(&ip->req, &ip->cap_req, n_from + 1, sizeof *ip->req)) return proper__ltl_oom(ip->err);
    for (i = 0; i < n_from; i++) {
        const proper__ltl_tnode *a = &ip->T->nodes[from[i]];
        ip->req[i].xarg = a->mask & ip->T->x_mask;
        ip->req[i].ustep = a->ustep;
        ip->req[i].uval = a->mask & a->ustep;
    }
    qsort(ip->req, n_from, sizeof *ip->req, proper__ltl_ip_req_cmp);
    for (i = 0; i < n_from; i++)
        if (n == 0 || proper__ltl_ip_req_cmp(&ip->req[n - 1], &ip->req[i])) ip->req[n++] = ip->req[i];
    ip->n_req = n;
    return 0;
}

/* Whether node c meets one of the requirements in ip->req (sorted by
 * xarg first: a binary search finds those on c's X operands). */
static int proper__ltl_ip_meets(const proper__ltl_ip *ip, uint32_t c) {
    const proper__ltl_tnode *y = &ip->T->nodes[c];
    size_t lo = 0, hi = ip->n_req, i;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ip->req[mid].xarg < y->xarg) lo = mid + 1;
        else hi = mid;
    }
    for (i = lo; i < ip->n_req && ip->req[i].xarg == y->xarg; i++)
        if ((y->mask & ip->req[i].ustep) == ip->req[i].uval) return 1;
    return 0;
}

/* Count `cost` node visits against max_automaton_work: sets of thousands
 * of tableau nodes (many X operands) make each successor set and each jump
 * costly, whatever the number of product states. */
static int proper__ltl_ip_charge(proper__ltl_ip *ip, uint64_t cost) {
    ip->work += cost;
    if (ip->work <= ip->max_work) return 0;
    return proper_error_set(ip->err, PROPER_ELIMIT, NULL, 0, 0,
                            "LTL on probability intervals: building the product with the automaton takes more than "
                            "%lu node visits (PROPER_LTL_MAX_AUTOMATON_WORK)", (unsigned long)ip->max_work);
}

/* out (n_out) = the nodes of state v with an edge from some node of from
 * (sorted, as the nodes of v are numbered in order). */
static int proper__ltl_ip_successors(proper__ltl_ip *ip, const uint32_t *from, size_t n_from, uint32_t v, uint32_t **out,
                                     size_t *cap, size_t *n_out) {
    size_t c;
    int rc;
    *n_out = 0;
    if ((rc = proper__ltl_ip_charge(ip, n_from + ip->node_start[v + 1] - ip->node_start[v])) ||
        (rc = proper__ltl_ip_requirements(ip, from, n_from)))
        return rc;
    for (c = ip->node_start[v]; c < ip->node_start[v + 1]; c++)
        if (proper__ltl_ip_meets(ip, (uint32_t)c)) {
            if (proper_reserve(out, cap, *n_out + 1, sizeof **out)) return proper__ltl_oom(ip->err);
            (*out)[(*n_out)++] = (uint32_t)c;
        }
    return 0;
}

/* Node c is in acceptance set k: until number k is false or fulfilled
 * there (every node, when the formula has no until). */
static int proper__ltl_ip_in_acc(const proper__ltl_ip *ip, uint32_t c, uint32_t k) {
    return ip->T->u_mask == 0 || (ip->T->nodes[c].ufair >> ip->acc_bit[k] & 1u);
}

static int proper__ltl_ip_row_add(proper__ltl_ip *ip, uint32_t dst, double lo, double hi) {
    if (proper_reserve(&ip->row_dst, &ip->cap_row_dst, ip->row_len + 1, sizeof *ip->row_dst) ||
        proper_reserve(&ip->row_lo, &ip->cap_row_lo, ip->row_len + 1, sizeof *ip->row_lo) ||
        proper_reserve(&ip->row_hi, &ip->cap_row_hi, ip->row_len + 1, sizeof *ip->row_hi))
        return proper__ltl_oom(ip->err);
    ip->row_dst[ip->row_len] = dst;
    ip->row_lo[ip->row_len] = lo;
    ip->row_hi[ip->row_len] = hi;
    ip->row_len++;
    return 0;
}

/* Close the row: sort by destination (as the builder stores it), merge
 * repeated destinations (the sink) by adding their intervals, which is
 * exact (the mass a set of edges can take ranges over the sums of their
 * ends), and append the intervals and the row (uniform probabilities: only
 * the structure is used) to the product. */
static int proper__ltl_ip_row_close(proper__ltl_ip *ip, proper_dtmc_builder *b) {
    size_t i, j, len = 0;
    double *p;
    int rc;
    for (i = 1; i < ip->row_len; i++) /* insertion sort: rows are short */
        for (j = i; j > 0 && ip->row_dst[j - 1] > ip->row_dst[j]; j--) {
            uint32_t d = ip->row_dst[j]; double l = ip->row_lo[j], h = ip->row_hi[j];
            ip->row_dst[j] = ip->row_dst[j - 1]; ip->row_lo[j] = ip->row_lo[j - 1]; ip->row_hi[j] = ip->row_hi[j - 1];
            ip->row_dst[j - 1] = d; ip->row_lo[j - 1] = l; ip->row_hi[j - 1] = h;
        }
    for (i = 0; i < ip->row_len; i++) {
        if (len > 0 && ip->row_dst[len - 1] == ip->row_dst[i]) {
            ip->row_lo[len - 1] = fmin(1.0, ip->row_lo[len - 1] + ip->row_lo[i]);
            ip->row_hi[len - 1] = fmin(1.0, ip->row_hi[len - 1] + ip->row_hi[i]);
            continue;
        }
        ip->row_dst[len] = ip->row_dst[i]; ip->row_lo[len] = ip->row_lo[i]; ip->row_hi[len] = ip->row_hi[i];
        len++;
    }
    if (proper_reserve(&ip->plo, &ip->cap_plo, ip->n_ptrans + len, sizeof *ip->plo) ||
        proper_reserve(&ip->phi, &ip->cap_phi, ip->n_ptrans + len, sizeof *ip->phi))
        return proper__ltl_oom(ip->err);
    p = (double *)proper_calloc(len ? len : 1, sizeof *p);
    if (!p) return proper__ltl_oom(ip->err);
    for (i = 0; i < len; i++) {
        p[i] = 1.0 / (double)len;
        ip->plo[ip->n_ptrans + i] = ip->row_lo[i];
        ip->phi[ip->n_ptrans + i] = ip->row_hi[i];
    }
    ip->n_ptrans += len;
    rc = proper_dtmc_builder_add_row(b, ip->row_dst, p, len, ip->err);
    PROPER_FREE(p);
    ip->row_len = 0;
    return rc;
}

/* The row of a subset state (s, S): [0, 1] to its step state and to the
 * jumps: for each set W of untils, the breakpoint state (P, {}) with P the
 * nodes of S in which every until of W is false (distinct P only). A node
 * promising an until that the path never fulfils, its left operand
 * holding forever, would never be covered; the maximiser excludes such
 * promises by choosing W (the untils false from here on), while the guesses
 * of X operands and of untils the path keeps fulfilling or breaking stay
 * in P: wrong ones die out (docs/ltl.md). */
static int proper__ltl_ip_row_subset(proper__ltl_ip *ip, uint32_t s, size_t from, size_t n) {
    uint32_t q, w, n_w = 0, bits[PROPER_LTL_MAX_TABLEAU];
    size_t i, k;
    int rc;
    if ((rc = proper_reserve(&ip->set, &ip->cap_set, n + 1, sizeof *ip->set) ? proper__ltl_oom(ip->err) : 0)) return rc;
    memcpy(ip->set, ip->words + from, n * sizeof *ip->set);
    if (proper_reserve(&ip->cover_tmp, &ip->cap_cover_tmp, n + 1, sizeof *ip->cover_tmp)) return proper__ltl_oom(ip->err);
    if ((rc = proper__ltl_ip_subset(ip, PROPER__LTL_I_STEP, s, ip->set, n, &q)) || (rc = proper__ltl_ip_row_add(ip, q, 0.0, 1.0)))
        return rc;
    for (w = 0; w < ip->T->n_temporal; w++) /* the untils some node of S promises */
        for (i = 0; i < n; i++)
            if ((ip->T->u_mask >> w & 1u) && (ip->T->nodes[ip->set[i]].mask >> w & 1u)) {
                bits[n_w++] = w;
                break;
            }
    if (n_w > ip->max_jump_bits)
        return proper_error_set(ip->err, PROPER_ELIMIT, NULL, 0, 0,
                                "LTL on probability intervals: more than %lu untils promised at once (2^n jumps)",
                                (unsigned long)ip->max_jump_bits);
    if ((rc = proper__ltl_ip_charge(ip, ((uint64_t)1 << n_w) * n))) return rc;
    for (w = 0; w < (uint32_t)1 << n_w; w++) {
        uint32_t forbid = 0, b;
        for (b = 0; b < n_w; b++)
            if (w >> b & 1u) forbid |= (uint32_t)1 << bits[b];
        for (i = k = 0; i < n; i++)
            if (!(ip->T->nodes[ip->set[i]].mask & forbid)) ip->cover_tmp[k++] = ip->set[i];
        if (k == 0) continue;
        if ((rc = proper__ltl_ip_breakpoint(ip, s, ip->cover_tmp, k, NULL, 0, 0, 0, &q)) ||
            (rc = proper__ltl_ip_row_add(ip, q, 0.0, 1.0)))
            return rc;
    }
    return 0;
}

/* The row of a step state (s, S): along each transition s -> v with its
 * interval, to the subset state of the nodes of v reached from S. */
static int proper__ltl_ip_row_step(proper__ltl_ip *ip, uint32_t s, size_t from, size_t n) {
    const proper_dtmc *m = ip->m;
    uint64_t e;
    int rc;
    if ((rc = proper_reserve(&ip->set, &ip->cap_set, n + 1, sizeof *ip->set) ? proper__ltl_oom(ip->err) : 0)) return rc;
    memcpy(ip->set, ip->words + from, n * sizeof *ip->set);
    for (e = m->row[s]; e < m->row[s + 1]; e++) {
        size_t nn;
        uint32_t q;
        if ((rc = proper__ltl_ip_successors(ip, ip->set, n, m->col[e], &ip->cover, &ip->cap_cover, &nn))) return rc;
        rc = nn ? proper__ltl_ip_subset(ip, PROPER__LTL_I_SUB, m->col[e], ip->cover, nn, &q) : proper__ltl_ip_sink(ip, &q);
        if (rc || (rc = proper__ltl_ip_row_add(ip, q, ip->lo[e], ip->hi[e]))) return rc;
    }
    return 0;
}

/* The row of a breakpoint state (s, P, O, k): along s -> v, P' = the nodes
 * of v reached from P, O' = those reached from O or in acceptance set k;
 * O' = P' is a breakpoint: the next state is accepting, with O = {} and
 * the next acceptance set. */
static int proper__ltl_ip_row_breakpoint(proper__ltl_ip *ip, uint32_t s, size_t q0) {
    const proper_dtmc *m = ip->m;
    uint32_t head = ip->words[ip->start[q0]], k = head >> 3, *P, *O, *P2 = NULL, *O2 = NULL;
    size_t np = ip->words[ip->start[q0] + 2], no = ip->start[q0 + 1] - ip->start[q0] - 3 - np, cap_p2 = 0, cap_o2 = 0;
    uint64_t e;
    int rc = 0;
    if (proper_reserve(&ip->set, &ip->cap_set, np + no + 1, sizeof *ip->set)) return proper__ltl_oom(ip->err);
    memcpy(ip->set, ip->words + ip->start[q0] + 3, (np + no) * sizeof *ip->set);
    P = ip->set;
    O = ip->set + np;
    for (e = m->row[s]; e < m->row[s + 1] && !rc; e++) {
        uint32_t v = m->col[e], q;
        size_t n2, no2 = 0, i;
        if ((rc = proper__ltl_ip_successors(ip, P, np, v, &P2, &cap_p2, &n2))) break;
        if (n2 == 0) {
            if (!(rc = proper__ltl_ip_sink(ip, &q))) rc = proper__ltl_ip_row_add(ip, q, ip->lo[e], ip->hi[e]);
            continue;
        }
        if ((rc = proper__ltl_ip_requirements(ip, O, no))) break;
        for (i = 0; i < n2; i++) {
            if (!proper__ltl_ip_in_acc(ip, P2[i], k) && !proper__ltl_ip_meets(ip, P2[i])) continue;
            if (proper_reserve(&O2, &cap_o2, no2 + 1, sizeof *O2)) { rc = proper__ltl_oom(ip->err); break; }
            O2[no2++] = P2[i];
        }
        if (rc) break;
        if (no2 == n2) rc = proper__ltl_ip_breakpoint(ip, v, P2, n2, NULL, 0, (k + 1) % ip->n_acc, 1, &q);
        else rc = proper__ltl_ip_breakpoint(ip, v, P2, n2, O2, no2, k, 0, &q);
        if (!rc) rc = proper__ltl_ip_row_add(ip, q, ip->lo[e], ip->hi[e]);
    }
    PROPER_FREE(P2);
    PROPER_FREE(O2);
    return rc;
}

/* Explore the product from the subset states of the initial tableau nodes
 * (those where the formula holds) of every model state, which become
 * product states 0 .. n_states - 1 (the sink where a state has none),
 * rows in state order. */
static int proper__ltl_ip_build(proper__ltl_ip *ip, proper_dtmc *out) {
    const proper_dtmc *m = ip->m;
    const proper__ltl_tab *T = ip->T;
    proper_dtmc_builder b;
    uint32_t s, q, *init = NULL;
    size_t cap_init = 0, n_init, i, done;
    int rc = 0;
    proper_dtmc_builder_init(&b);
    for (s = 0; s < m->n_states && !rc; s++) {
        n_init = 0;
        for (i = ip->node_start[s]; i < ip->node_start[s + 1] && !rc; i++)
            if (T->nodes[i].root) rc = PROPER_PUSH(init, n_init, cap_init, (uint32_t)i) ? proper__ltl_oom(ip->err) : 0;
        if (!rc) rc = proper__ltl_ip_subset(ip, PROPER__LTL_I_SUB, s, init, n_init, &q);
    }
    PROPER_FREE(init);
    for (done = 0; done < ip->n && !rc; done++) {
        size_t from = ip->start[done], len = ip->start[done + 1] - from;
        uint32_t kind = ip->words[from] & 3u, st = len > 1 ? ip->words[from + 1] : 0;
        if (kind == PROPER__LTL_I_SUB && len == 2) {
            if (!(rc = proper__ltl_ip_sink(ip, &q))) rc = proper__ltl_ip_row_add(ip, q, 1.0, 1.0);
        } else if (kind == PROPER__LTL_I_SUB) rc = proper__ltl_ip_row_subset(ip, st, from + 2, len - 2);
        else if (kind == PROPER__LTL_I_STEP) rc = proper__ltl_ip_row_step(ip, st, from + 2, len - 2);
        else if (kind == PROPER__LTL_I_BP) rc = proper__ltl_ip_row_breakpoint(ip, st, done);
        else rc = proper__ltl_ip_row_add(ip, (uint32_t)done, 1.0, 1.0);
        if (!rc) rc = proper__ltl_ip_row_close(ip, &b);
    }
    if (rc) {
        proper_dtmc_builder_free(&b);
        return rc;
    }
    if ((rc = proper_dtmc_builder_finish(&b, (uint32_t)ip->n, out, ip->err))) return rc;
    if (out->n_trans != ip->n_ptrans) /* the builder keeps sorted, merged, non-zero rows: so do the intervals */
        return proper_error_set(ip->err, PROPER_EINVAL, NULL, 0, 0, "LTL on probability intervals: product rows misaligned");
    return 0;
}

/* The maximal end components of an interval product g (intervals lo, hi
 * aligned with its transitions): sets C in which nature can keep the run
 * forever (every state has a distribution within its intervals with
 * support in C: edges leaving C have lower end 0 and the upper ends inside
 * reach 1) and which are strongly connected along the edges it can use
 * inside C (positive mass possible: proper_dtmc_interval_can). The usual
 * refinement: drop the states that cannot stay in their component,
 * recompute the components on the usable edges inside the old ones,
 * repeat until nothing changes. target receives the states of the
 * components holding an accepting state. */
static int proper__ltl_ip_stays(const proper_dtmc *g, const double *lo, const double *hi, const uint32_t *comp, uint32_t s) {
    double inside = 0.0;
    uint64_t e;
    for (e = g->row[s]; e < g->row[s + 1]; e++) {
        if (comp[g->col[e]] == comp[s]) inside += hi[e];
        else if (lo[e] > 0.0) return 0;
    }
    return inside >= 1.0 - PROPER_DTMC_ROW_SUM_TOL;
}

/* The graph of the usable edges inside components (comp UINT32_MAX: not
 * in any), uniform probabilities. */
static int proper__ltl_ip_inner_graph(const proper_dtmc *g, const double *lo, const double *hi, const uint32_t *comp,
                                      proper_dtmc *out, proper_error *err) {
    proper_dtmc_builder b;
    uint32_t s, *dst = NULL;
    double *p = NULL;
    int rc = 0;
    dst = (uint32_t *)proper_calloc(g->n_trans + 1, sizeof *dst);
    p = (double *)proper_calloc(g->n_trans + 1, sizeof *p);
    if (!dst || !p) {
        PROPER_FREE(dst);
        PROPER_FREE(p);
        return proper__ltl_oom(err);
    }
    proper_dtmc_builder_init(&b);
    b.fix_deadlocks = 1; /* rows of states outside: the components ignore them */
    for (s = 0; s < g->n_states && !rc; s++) {
        size_t len = 0, i;
        double sum_lo = 0.0;
        uint64_t e;
        for (e = g->row[s]; e < g->row[s + 1]; e++) sum_lo += lo[e];
        if (comp[s] != UINT32_MAX)
            for (e = g->row[s]; e < g->row[s + 1]; e++)
                if (comp[g->col[e]] == comp[s] && proper_dtmc_interval_can(lo, hi, e, sum_lo)) dst[len++] = g->col[e];
        for (i = 0; i < len; i++) p[i] = 1.0 / (double)len;
        rc = proper_dtmc_builder_add_row(&b, dst, p, len, err);
    }
    if (!rc) rc = proper_dtmc_builder_finish(&b, g->n_states, out, err);
    else proper_dtmc_builder_free(&b);
    PROPER_FREE(dst);
    PROPER_FREE(p);
    return rc;
}

static int proper__ltl_ip_accepting_mecs(const proper_dtmc *g, const double *lo, const double *hi,
                                         const unsigned char *accepting, proper_bitset *target, proper_error *err) {
    uint32_t n = g->n_states, s, n_comp = 1, n_new = 0, *comp = NULL, *fresh = NULL;
    unsigned char *acc_comp = NULL;
    proper_bitset alive;
    int rc = 0, changed = 1;
    proper_bitset_init(&alive);
    comp = (uint32_t *)proper_calloc((size_t)n + 1, sizeof *comp);
    fresh = (uint32_t *)proper_calloc((size_t)n + 1, sizeof *fresh);
    if (!comp || !fresh) { rc = proper__ltl_oom(err); goto done; }
    if ((rc = proper_bitset_create(&alive, n, err))) goto done;
    for (s = 0; s < n; s++) proper_bitset_set(&alive, s);
    while (changed) {
        proper_dtmc inner;
        changed = 0;
        for (s = 0; s < n; s++)
            if (comp[s] != UINT32_MAX && !proper__ltl_ip_stays(g, lo, hi, comp, s)) {
                comp[s] = UINT32_MAX;
                proper_bitset_clear(&alive, s);
                changed = 1;
            }
        proper_dtmc_init(&inner);
        rc = proper__ltl_ip_inner_graph(g, lo, hi, comp, &inner, err);
        if (!rc) rc = proper_dtmc_scc(&inner, &alive, fresh, &n_new, err);
        proper_dtmc_free(&inner);
        if (rc) goto done;
        /* the new components refine the old ones: as many means the same */
        if (n_new != n_comp) changed = 1;
        n_comp = n_new;
        memcpy(comp, fresh, (size_t)n * sizeof *comp);
    }
    acc_comp = (unsigned char *)proper_calloc((size_t)n_comp + 1, 1);
    if (!acc_comp) { rc = proper__ltl_oom(err); goto done; }
    for (s = 0; s < n; s++)
        if (comp[s] != UINT32_MAX && accepting[s]) acc_comp[comp[s]] = 1;
    if ((rc = proper_bitset_create(target, n, err))) goto done;
    for (s = 0; s < n; s++)
        if (comp[s] != UINT32_MAX && acc_comp[comp[s]]) proper_bitset_set(target, s);
done:
    proper_bitset_free(&alive);
    PROPER_FREE(comp);
    PROPER_FREE(fresh);
    PROPER_FREE(acc_comp);
    return rc;
}

/* Add to target the states from which the maximiser reaches it with
 * probability 1 (their value is 1: the solver then need not approach it,
 * and the end components they form outside the target no longer stand in
 * the way of its certificate). The classic nested fixed point: R = all
 * states; Y = the states that reach target inside R, each step a
 * distribution with support in R; R = Y until it no longer shrinks. The
 * inner fixed point grows Y by a worklist over predecessors. */
static int proper__ltl_ip_sure(const proper_dtmc *g, const double *lo, const double *hi, proper_bitset *target,
                               proper_error *err) {
    uint32_t n = g->n_states, s, *queue = NULL, head, tail;
    uint64_t *prow = NULL, e;
    uint32_t *pcol = NULL;
    unsigned char *in = NULL, *y = NULL;
    int rc = 0, shrunk = 1;
    prow = (uint64_t *)proper_calloc((size_t)n + 2, sizeof *prow);
    pcol = (uint32_t *)proper_calloc(g->n_trans + 1, sizeof *pcol);
    queue = (uint32_t *)proper_calloc((size_t)n + 1, sizeof *queue);
    in = (unsigned char *)proper_calloc((size_t)n + 1, 1);
    y = (unsigned char *)proper_calloc((size_t)n + 1, 1);
    if (!prow || !pcol || !queue || !in || !y) { rc = proper__ltl_oom(err); goto done; }
    for (e = 0; e < g->n_trans; e++) prow[g->col[e] + 2]++; /* predecessors, by counting sort */
    for (s = 0; s < n; s++) prow[s + 2] += prow[s + 1];
    for (s = 0; s < n; s++)
        for (e = g->row[s]; e < g->row[s + 1]; e++) pcol[prow[g->col[e] + 1]++] = s;
    memset(in, 1, n);
    while (shrunk) {
        head = tail = 0;
        for (s = 0; s < n; s++) {
            y[s] = in[s] && PROPER_BITSET_GET(target, s);
            if (y[s]) queue[tail++] = s;
        }
        while (head < tail) { /* each state enters y, and the queue, once */
            uint32_t t = queue[head++];
            for (e = prow[t]; e < prow[t + 1]; e++) {
                uint32_t p = pcol[e];
                if (in[p] && !y[p] && proper_dtmc_interval_stays_hits(g, lo, hi, p, in, y)) {
                    y[p] = 1;
                    queue[tail++] = p;
                }
            }
        }
        shrunk = 0;
        for (s = 0; s < n; s++)
            if (in[s] && !y[s]) in[s] = 0, shrunk = 1;
    }
    for (s = 0; s < n; s++)
        if (in[s]) proper_bitset_set(target, s);
done:
    PROPER_FREE(prow); PROPER_FREE(pcol); PROPER_FREE(queue); PROPER_FREE(in); PROPER_FREE(y);
    return rc;
}

/* Pmax [ f ] in every state: the product, its accepting end components,
 * and the largest probability of reaching them (dtmc.h). */
static int proper__ltl_interval_max(const proper_dtmc *m, const double *lo, const double *hi, const proper_ltl *f,
                                    const proper_bitset *aps, size_t n_aps, const proper_ltl_opts *opts, double *x,
                                    proper_ltl_stats *stats, proper_error *err) {
    proper__ltl_tableau tb;
    proper__ltl_ip ip;
    proper_dtmc g;
    proper_bitset target;
    proper_dtmc_solve_stats ds;
    double *y = NULL;
    uint32_t s, q;
    int rc;
    memset(&ip, 0, sizeof ip);
    proper_dtmc_init(&g);
    proper_bitset_init(&target);
    if ((rc = proper__ltl_tableau_make(m, f, aps, n_aps, opts, &tb, err))) return rc;
    ip.m = m;
    ip.lo = lo;
    ip.hi = hi;
    ip.T = &tb.T;
    ip.node_start = tb.node_start;
    ip.err = err;
    ip.max_states = opts->max_product_states;
    ip.max_words = 16 * opts->max_product_states;
    ip.max_jump_bits = PROPER_LTL_MAX_JUMP_UNTILS;
    ip.max_work = opts->max_automaton_work;
    for (q = 0; q < tb.T.n_temporal; q++)
        if (tb.T.u_mask >> q & 1u) ip.acc_bit[ip.n_acc++] = q;
    if (ip.n_acc == 0) ip.n_acc = 1;
    if ((rc = proper__ltl_ip_build(&ip, &g)) ||
        (rc = proper__ltl_ip_accepting_mecs(&g, ip.plo, ip.phi, ip.accepting, &target, err)) ||
        (rc = proper__ltl_ip_sure(&g, ip.plo, ip.phi, &target, err)))
        goto done;
    y = (double *)proper_calloc((size_t)g.n_states + 1, sizeof *y);
    if (!y) { rc = proper__ltl_oom(err); goto done; }
    if ((rc = proper_dtmc_interval_prob_until(&g, ip.plo, ip.phi, NULL, &target, 1, &opts->solve, y, &ds, err))) goto done;
    for (s = 0; s < m->n_states; s++) x[s] = y[s];
    if (stats) {
        stats->automaton_states = tb.T.n_nodes;
        stats->product_states = g.n_states;
        stats->product_trans = g.n_trans;
        stats->max_error = ds.max_error;
    }
done:
    PROPER_FREE(y);
    proper_dtmc_free(&g);
    proper_bitset_free(&target);
    proper__ltl_ip_free(&ip);
    proper__ltl_tableau_free(&tb);
    return rc;
}

/* A copy of f with its root negated. */
static int proper__ltl_negated(const proper_ltl *f, proper_ltl *out, proper_error *err) {
    proper_ltl_init(out);
    if (proper_reserve(&out->nodes, &out->cap, f->len + 1, sizeof *out->nodes)) return proper__ltl_oom(err);
    memcpy(out->nodes, f->nodes, f->len * sizeof *f->nodes);
    out->len = f->len;
    return proper_ltl_add(out, PROPER_LTL_NOT, f->root, PROPER_LTL_NONE, NULL, err);
}

PROPER_API int proper_ltl_interval_prob(const proper_dtmc *m, const double *lo, const double *hi, const proper_ltl *f,
                                        const proper_bitset *aps, size_t n_aps, int maximise,
                                        const proper_ltl_opts *opts, double *x, proper_ltl_stats *stats,
                                        proper_error *err) {
    proper_ltl_opts defaults = proper_ltl_opts_default();
    proper_ltl neg;
    uint32_t s;
    int rc;
    if ((rc = proper__ltl_check_args(m, f, aps, n_aps, 0, err)) || (rc = proper_dtmc_check_intervals(m, lo, hi, err)))
        return rc;
    if (!opts) opts = &defaults;
    if (stats) memset(stats, 0, sizeof *stats);
    if (maximise) return proper__ltl_interval_max(m, lo, hi, f, aps, n_aps, opts, x, stats, err);
    if ((rc = proper__ltl_negated(f, &neg, err)) == 0 &&
        (rc = proper__ltl_interval_max(m, lo, hi, &neg, aps, n_aps, opts, x, stats, err)) == 0)
        for (s = 0; s < m->n_states; s++) x[s] = fmax(0.0, 1.0 - x[s]); /* not -0 or -1e-16 from a value rounded above 1 */
    proper_ltl_free(&neg);
    return rc;
}

#endif /* PROPER_LTL_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
