/* exact.h — exact and parametric numerics: arbitrary-precision integers,
 * rationals, multivariate polynomials and rational functions over the
 * rationals, and exact / parametric solvers for proper_dtmc.
 *
 * ---- Numbers -------------------------------------------------------------
 * proper_bigint  a signed integer of any size: 32-bit limbs, 64-bit products
 *                (portable C99), schoolbook multiplication, Knuth's
 *                algorithm D for division, Euclid for gcd.
 * proper_rat     a rational num/den in lowest terms with den > 0 (zero is
 *                0/1). "0.1" parses as 1/10 and "1/3" as 1/3; a double
 *                converts exactly (0.1 as a double is
 *                3602879701896397/36028797018963968).
 * proper_poly    a polynomial in variables x0..x(n-1) with rational
 *                coefficients: terms sorted by descending graded-lex order of
 *                their exponent vectors, no zero coefficients.
 * proper_ratfun  a rational function num/den of two polynomials, kept in a
 *                canonical form: gcd(num, den) = 1 (multivariate gcd by the
 *                recursive primitive polynomial remainder sequence), both
 *                with integer coefficients whose common content is 1, and
 *                the leading coefficient of den positive. Equal functions
 *                therefore have equal representations, and results stay as
 *                small as the function allows.
 * Variables are indices; their names live with the caller (the model's
 * parameter names) and are passed to parse and format.
 *
 * Every value type follows the project's contract: _init makes 0 (without
 * allocating), _free releases and leaves 0, and every operation writes an
 * output that the caller initialised; outputs may alias inputs. Arithmetic
 * returns 0, PROPER_ENOMEM, PROPER_EINVAL (division by zero) or
 * PROPER_ELIMIT (a number beyond PROPER_EXACT_MAX_LIMBS limbs); on failure
 * the output keeps its old value. Parsers report file:line:col.
 *
 * ---- Exact values over a proper_dtmc ------------------------------------------
 * The chain's structure stays THE proper_dtmc (states, CSR rows, labels,
 * initial state); a proper_exact_dtmc is a companion holding one exact value
 * per transition, aligned with the model's col[] array, and exact reward
 * structures aligned with the model's states and transitions. With
 * n_params == 0 the values are rationals (prob, reward state/trans arrays of
 * proper_rat); otherwise rational functions of the named parameters
 * (fprob, fstate, ftrans arrays of proper_ratfun). The numeric prob[] of the
 * model is only used for its structure (which transitions exist): a
 * parametric model must be built at a point where every transition that
 * exists for some parameter values has a non-zero probability.
 *
 * ---- Solvers -------------------------------------------------------------
 * P=? [ phi1 U phi2 ] and R=? [ F phi ] with PRISM's conventions: graph
 * precomputation (dtmc.h's prob0/prob1 on the structure), value 0 on prob0
 * states and 1 on prob1 states; for rewards the value is infinite where phi
 * is reached with probability < 1 and 0 on phi. The remaining states are
 * solved by strongly connected components in reverse topological order (a
 * state all of whose successors are known is one sum) and each cyclic
 * component by state elimination (Gaussian elimination without pivoting in
 * a min-fill order, then back substitution): the pivot 1 - (return
 * probability) is never zero because every state solved can leave its
 * component or reach the target (otherwise it would be in prob0). The same
 * algorithm runs over rationals (--exact) and over rational functions
 * (parametric; the result is the property as a function of the parameters,
 * valid wherever the graph is the one of the model, as for PRISM -param and
 * Storm-pars).
 */
#ifndef PROPER_EXACT_H
#define PROPER_EXACT_H

#include "core.h"
#include "dtmc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Limits (overridable before including) -------------------------------- */

/* Largest number of 32-bit limbs of any integer (about 9.6 digits each):
 * results that would grow beyond fail with PROPER_ELIMIT instead of
 * exhausting memory. 2^20 limbs is ten million digits. */
#ifndef PROPER_EXACT_MAX_LIMBS
#define PROPER_EXACT_MAX_LIMBS (1u << 20)
#endif

/* Largest decimal exponent accepted by the parsers ("1e400" is fine,
 * "1e99999999" is refused with PROPER_ERANGE). */
#ifndef PROPER_EXACT_MAX_EXP10
#define PROPER_EXACT_MAX_EXP10 100000
#endif

/* Largest power accepted by the rational-function parser (x^k). */
#ifndef PROPER_EXACT_MAX_POWER
#define PROPER_EXACT_MAX_POWER 1000
#endif

/* Largest number of terms of one polynomial (PROPER_ELIMIT beyond). */
#ifndef PROPER_EXACT_MAX_TERMS
#define PROPER_EXACT_MAX_TERMS 1000000
#endif

/* Default limit on the states an exact or parametric solve takes on. */
#ifndef PROPER_EXACT_MAX_STATES
#define PROPER_EXACT_MAX_STATES 1000000
#endif

/* ---- Big integers ---------------------------------------------------------- */

typedef struct proper_bigint {
    uint32_t *limb; /* little-endian magnitude, limb[len-1] != 0 */
    uint32_t len;   /* 0 for zero */
    uint32_t cap;
    int neg;        /* 1 if negative (never for zero) */
} proper_bigint;

PROPER_API void proper_bigint_init(proper_bigint *a);
PROPER_API void proper_bigint_free(proper_bigint *a);
PROPER_API int proper_bigint_set_i64(proper_bigint *out, int64_t v);
PROPER_API int proper_bigint_set_u64(proper_bigint *out, uint64_t v);
PROPER_API int proper_bigint_copy(proper_bigint *out, const proper_bigint *a);
/* -1, 0, 1 as a <, =, > b. */
PROPER_API int proper_bigint_cmp(const proper_bigint *a, const proper_bigint *b);
/* Sign of a: -1, 0, 1. */
PROPER_API int proper_bigint_sign(const proper_bigint *a);
/* 1 if a fits in int64_t (then *v receives it). */
PROPER_API int proper_bigint_to_i64(const proper_bigint *a, int64_t *v);
PROPER_API int proper_bigint_add(proper_bigint *out, const proper_bigint *a, const proper_bigint *b);
PROPER_API int proper_bigint_sub(proper_bigint *out, const proper_bigint *a, const proper_bigint *b);
PROPER_API int proper_bigint_mul(proper_bigint *out, const proper_bigint *a, const proper_bigint *b);
/* Truncated division: q = trunc(a / b), r = a - q b (r has the sign of a);
 * q or r may be NULL. PROPER_EINVAL when b is zero. */
PROPER_API int proper_bigint_divmod(proper_bigint *q, proper_bigint *r, const proper_bigint *a,
                                    const proper_bigint *b);
/* gcd(a, b) >= 0; gcd(0, 0) = 0. */
PROPER_API int proper_bigint_gcd(proper_bigint *out, const proper_bigint *a, const proper_bigint *b);
/* a * 10^k (k >= 0) and a * 2^k (k >= 0). */
PROPER_API int proper_bigint_mul_pow10(proper_bigint *out, const proper_bigint *a, unsigned k);
PROPER_API int proper_bigint_shl(proper_bigint *out, const proper_bigint *a, unsigned k);
/* The nearest double (inf beyond the double range). */
PROPER_API double proper_bigint_to_double(const proper_bigint *a);
/* Parse an optionally signed decimal integer (the whole text; no blanks). */
PROPER_API int proper_bigint_parse(proper_bigint *out, const char *text, size_t len, const char *name,
                                   proper_error *err);
/* Append the decimal digits (with '-' if negative). */
PROPER_API void proper_bigint_format(const proper_bigint *a, proper_strbuf *b);

/* ---- Rationals ------------------------------------------------------------ */

typedef struct proper_rat {
    proper_bigint num; /* sign of the value */
    proper_bigint den; /* > 0, gcd(num, den) = 1; den of 0 is 1 */
} proper_rat;

/* _init makes 0 (0/1, without allocating). */
PROPER_API void proper_rat_init(proper_rat *r);
PROPER_API void proper_rat_free(proper_rat *r);
PROPER_API int proper_rat_copy(proper_rat *out, const proper_rat *a);
/* n/d (d != 0, else PROPER_EINVAL), normalised. */
PROPER_API int proper_rat_set_i64(proper_rat *out, int64_t n, int64_t d);
/* The exact value of a finite double (PROPER_EINVAL for inf/nan). */
PROPER_API int proper_rat_from_double(proper_rat *out, double v);
/* The double nearest to the value (ties may round either way; the error is
 * below one unit in the last place). */
PROPER_API double proper_rat_to_double(const proper_rat *a);
PROPER_API int proper_rat_sign(const proper_rat *a);
PROPER_API int proper_rat_is_zero(const proper_rat *a);
PROPER_API int proper_rat_is_one(const proper_rat *a);
PROPER_API int proper_rat_cmp(const proper_rat *a, const proper_rat *b);
PROPER_API int proper_rat_add(proper_rat *out, const proper_rat *a, const proper_rat *b);
PROPER_API int proper_rat_sub(proper_rat *out, const proper_rat *a, const proper_rat *b);
PROPER_API int proper_rat_mul(proper_rat *out, const proper_rat *a, const proper_rat *b);
/* PROPER_EINVAL when b is 0. */
PROPER_API int proper_rat_div(proper_rat *out, const proper_rat *a, const proper_rat *b);
PROPER_API int proper_rat_neg(proper_rat *out, const proper_rat *a);
/* a^k for k >= 0 (0^0 = 1). */
PROPER_API int proper_rat_pow(proper_rat *out, const proper_rat *a, unsigned k);
/* Parse the whole text as a rational: an optionally signed decimal
 * (digits, optional fraction, optional exponent: "0.1", "-2.5e-3", "3E2")
 * optionally followed by "/" and a second such decimal ("1/3", "0.5/3").
 * Blanks around the parts are allowed. Decimals are read exactly. */
PROPER_API int proper_rat_parse(proper_rat *out, const char *text, size_t len, const char *name,
                                proper_error *err);
/* Append "p/q", or "p" when q = 1 (PRISM -exact's form: "1/28", "87"). */
PROPER_API void proper_rat_format(const proper_rat *a, proper_strbuf *b);

/* ---- Polynomials --------------------------------------------------------------- */

typedef struct proper_poly {
    size_t n_terms, cap;
    uint32_t n_vars;  /* length of each exponent vector */
    uint32_t *exp;    /* n_terms * n_vars exponents, row-major */
    proper_rat *coef; /* n_terms non-zero coefficients */
} proper_poly;

PROPER_API void proper_poly_init(proper_poly *p);
PROPER_API void proper_poly_free(proper_poly *p);
PROPER_API int proper_poly_copy(proper_poly *out, const proper_poly *a);
/* The constant c (zero: no terms). */
PROPER_API int proper_poly_set_rat(proper_poly *out, const proper_rat *c);
/* The variable x_var in a space of n_vars variables (var < n_vars). */
PROPER_API int proper_poly_set_var(proper_poly *out, uint32_t var, uint32_t n_vars);
PROPER_API int proper_poly_is_zero(const proper_poly *a);
/* 1 if a is a constant (zero included); *c (may be NULL) receives it. */
PROPER_API int proper_poly_is_const(const proper_poly *a, proper_rat *c);
PROPER_API int proper_poly_equal(const proper_poly *a, const proper_poly *b);
/* Binary operations accept different n_vars (missing variables have
 * exponent 0); the result has the larger n_vars. */
PROPER_API int proper_poly_add(proper_poly *out, const proper_poly *a, const proper_poly *b);
PROPER_API int proper_poly_sub(proper_poly *out, const proper_poly *a, const proper_poly *b);
PROPER_API int proper_poly_mul(proper_poly *out, const proper_poly *a, const proper_poly *b);
PROPER_API int proper_poly_scale(proper_poly *out, const proper_poly *a, const proper_rat *c);
/* Exact division: q = a / b when b divides a (PROPER_EINVAL otherwise or
 * when b is zero). */
PROPER_API int proper_poly_div_exact(proper_poly *q, const proper_poly *a, const proper_poly *b);
/* A greatest common divisor, normalised: integer coefficients with content
 * 1 and a positive leading coefficient (gcd(0, 0) = 0). */
PROPER_API int proper_poly_gcd(proper_poly *out, const proper_poly *a, const proper_poly *b);
/* d a / d x_var. */
PROPER_API int proper_poly_deriv(proper_poly *out, const proper_poly *a, uint32_t var);
/* Value at a point (point[i] for x_i; n_point >= a->n_vars). */
PROPER_API double proper_poly_eval_double(const proper_poly *a, const double *point, size_t n_point);
PROPER_API int proper_poly_eval_rat(proper_rat *out, const proper_poly *a, const proper_rat *point,
                                    size_t n_point);

/* ---- Rational functions --------------------------------------------------- */

typedef struct proper_ratfun {
    proper_poly num, den; /* canonical: see the top of this file; 0 is 0/1 */
} proper_ratfun;

/* _init makes the function 0 (den 1 is implicit while den has no terms). */
PROPER_API void proper_ratfun_init(proper_ratfun *f);
PROPER_API void proper_ratfun_free(proper_ratfun *f);
PROPER_API int proper_ratfun_copy(proper_ratfun *out, const proper_ratfun *a);
PROPER_API int proper_ratfun_set_rat(proper_ratfun *out, const proper_rat *c);
PROPER_API int proper_ratfun_set_var(proper_ratfun *out, uint32_t var, uint32_t n_vars);
/* num/den, brought to the canonical form (PROPER_EINVAL if den is 0). */
PROPER_API int proper_ratfun_set_polys(proper_ratfun *out, const proper_poly *num, const proper_poly *den);
PROPER_API int proper_ratfun_is_zero(const proper_ratfun *a);
/* 1 if a is a constant; *c (may be NULL) receives it. */
PROPER_API int proper_ratfun_is_const(const proper_ratfun *a, proper_rat *c);
PROPER_API int proper_ratfun_equal(const proper_ratfun *a, const proper_ratfun *b);
PROPER_API int proper_ratfun_add(proper_ratfun *out, const proper_ratfun *a, const proper_ratfun *b);
PROPER_API int proper_ratfun_sub(proper_ratfun *out, const proper_ratfun *a, const proper_ratfun *b);
PROPER_API int proper_ratfun_mul(proper_ratfun *out, const proper_ratfun *a, const proper_ratfun *b);
/* PROPER_EINVAL when b is the zero function. */
PROPER_API int proper_ratfun_div(proper_ratfun *out, const proper_ratfun *a, const proper_ratfun *b);
PROPER_API int proper_ratfun_neg(proper_ratfun *out, const proper_ratfun *a);
PROPER_API int proper_ratfun_pow(proper_ratfun *out, const proper_ratfun *a, unsigned k);
/* Partial derivative d a / d x_var (quotient rule, then canonical form). */
PROPER_API int proper_ratfun_deriv(proper_ratfun *out, const proper_ratfun *a, uint32_t var);
/* Value at a point in doubles (nan where the denominator is 0). */
PROPER_API double proper_ratfun_eval_double(const proper_ratfun *a, const double *point, size_t n_point);
/* Exact value at a rational point (PROPER_EINVAL where the denominator is 0). */
PROPER_API int proper_ratfun_eval_rat(proper_rat *out, const proper_ratfun *a, const proper_rat *point,
                                      size_t n_point);
/* Append the function as PRISM -param prints it: terms in descending
 * graded-lex order with "*" and "^" and no blanks ("p*q-p+1",
 * "2*p^2-7*p+7"), a leading negative term moved after the first positive
 * one when there is one ("3-p" rather than "-p+3"), a numerator or
 * denominator of several terms in parentheses, "/den" left out when it is
 * 1: "p*q/(p*q-p+1)", "(3-p)/(p*q)", "1/28". names[i] names x_i. */
PROPER_API void proper_ratfun_format(const proper_ratfun *a, const char *const *names, proper_strbuf *b);
/* Parse an expression over numbers (exact decimals as proper_rat_parse
 * reads them), the names names[0..n_names-1] (x_i), + - * / ^ (a
 * non-negative integer power up to PROPER_EXACT_MAX_POWER) and
 * parentheses: the whole text, blanks allowed. PROPER_EUNDEFINED names an
 * unknown identifier, PROPER_EINVAL a division by zero. */
PROPER_API int proper_ratfun_parse(proper_ratfun *out, const char *text, size_t len, const char *name,
                                   const char *const *names, size_t n_names, proper_error *err);

/* ---- Exact values over a proper_dtmc -------------------------------------------- */

typedef struct proper_exact_reward {
    char *name;            /* as the model's reward structure it shadows ("" unnamed) */
    proper_rat *state;     /* n_states values or NULL (n_params == 0) */
    proper_rat *trans;     /* n_trans values or NULL (n_params == 0) */
    proper_ratfun *fstate; /* n_states values or NULL (n_params > 0) */
    proper_ratfun *ftrans; /* n_trans values or NULL (n_params > 0) */
} proper_exact_reward;

typedef struct proper_exact_dtmc {
    uint32_t n_states;    /* of the model it was created for */
    uint64_t n_trans;
    size_t n_params;      /* 0: rational values; > 0: rational functions */
    char **param_names;   /* n_params names (x_i is param_names[i]) */
    proper_rat *prob;     /* n_trans exact probabilities (n_params == 0) */
    proper_ratfun *fprob; /* n_trans functions (n_params > 0) */
    size_t n_rewards;
    proper_exact_reward *rewards;
} proper_exact_dtmc;

PROPER_API void proper_exact_dtmc_init(proper_exact_dtmc *e);
PROPER_API void proper_exact_dtmc_free(proper_exact_dtmc *e);
/* Make the companion of model m (an output: see the contract) with
 * n_params parameters named names[0..n_params-1] (copied). Every
 * probability starts as the exact value of the model's double (rational
 * mode) or as that constant (parametric mode); every reward structure of m
 * is shadowed the same way (same names, same state/transition arrays
 * present). The caller then overwrites the values it knows exactly. */
PROPER_API int proper_exact_dtmc_create(proper_exact_dtmc *e, const proper_dtmc *m, size_t n_params,
                                        const char *const *names, proper_error *err);
/* Set the value of transition k (index into m->col) or of a reward entry.
 * The _f forms are for parametric companions, the others for rational
 * ones (PROPER_EINVAL when the kind or an index does not fit). */
PROPER_API int proper_exact_dtmc_set_prob(proper_exact_dtmc *e, uint64_t k, const proper_rat *v,
                                          proper_error *err);
PROPER_API int proper_exact_dtmc_set_fprob(proper_exact_dtmc *e, uint64_t k, const proper_ratfun *v,
                                           proper_error *err);
PROPER_API int proper_exact_dtmc_set_state_reward(proper_exact_dtmc *e, size_t r, uint32_t s,
                                                  const proper_rat *v, proper_error *err);
PROPER_API int proper_exact_dtmc_set_state_freward(proper_exact_dtmc *e, size_t r, uint32_t s,
                                                   const proper_ratfun *v, proper_error *err);
PROPER_API int proper_exact_dtmc_set_trans_reward(proper_exact_dtmc *e, size_t r, uint64_t k,
                                                  const proper_rat *v, proper_error *err);
PROPER_API int proper_exact_dtmc_set_trans_freward(proper_exact_dtmc *e, size_t r, uint64_t k,
                                                   const proper_ratfun *v, proper_error *err);
/* Check at the boundary: every row sums to exactly 1 (to the function 1 in
 * parametric mode) and, in rational mode, no probability or reward is
 * negative and every transition of m has a non-zero exact probability.
 * PROPER_EPROB names the first offending state and its sum. */
PROPER_API int proper_exact_dtmc_check(const proper_exact_dtmc *e, const proper_dtmc *m, proper_error *err);
/* The numeric chain at a parameter point (point[i] for parameter i): the
 * structure of m with each probability evaluated in doubles, through the
 * builder (so rows are checked and zero probabilities dropped), and the
 * reward structures evaluated the same way. Rational companions
 * (n_params == 0) give the chain of the exact values rounded to doubles. */
PROPER_API int proper_exact_dtmc_instantiate(const proper_exact_dtmc *e, const proper_dtmc *m,
                                             const double *point, proper_dtmc *out, proper_error *err);

/* ---- Exact solvers --------------------------------------------------------- */

typedef struct proper_exact_opts {
    uint32_t max_states; /* states solved (not counting prob0/prob1): PROPER_ELIMIT beyond */
} proper_exact_opts;

PROPER_API proper_exact_opts proper_exact_opts_default(void);

/* A result vector: one exact value per state of the model; inf[s] marks an
 * infinite value (expected rewards), whose q/f entry is then 0. */
typedef struct proper_exact_vec {
    uint32_t n;
    size_t n_params;   /* 0: q holds the values; > 0: f does */
    proper_rat *q;
    proper_ratfun *f;
    unsigned char *inf;
} proper_exact_vec;

PROPER_API void proper_exact_vec_init(proper_exact_vec *x);
PROPER_API void proper_exact_vec_free(proper_exact_vec *x);

/* Statistics of the last solve, optional (pass NULL). */
typedef struct proper_exact_stats {
    uint32_t n_solved;     /* states neither prob0 nor prob1 (nor target) */
    uint32_t n_cyclic;     /* of which in cyclic components */
    uint32_t largest;      /* states in the largest component */
    uint64_t fill;         /* matrix entries created by elimination */
    size_t max_limbs;      /* largest integer met in a result, in 32-bit limbs */
} proper_exact_stats;

/* P=? [ phi1 U phi2 ] (phi1 NULL: F phi2), exactly. x is an output vector. */
PROPER_API int proper_exact_prob_until(const proper_dtmc *m, const proper_exact_dtmc *e,
                                       const proper_bitset *phi1, const proper_bitset *phi2,
                                       const proper_exact_opts *opts, proper_exact_vec *x,
                                       proper_exact_stats *stats, proper_error *err);
/* R{r}=? [ F phi ] with the exact reward structure e->rewards[r]; rational
 * mode requires non-negative rewards, as in PRISM. */
PROPER_API int proper_exact_reward_reach(const proper_dtmc *m, const proper_exact_dtmc *e, size_t r,
                                         const proper_bitset *phi, const proper_exact_opts *opts,
                                         proper_exact_vec *x, proper_exact_stats *stats, proper_error *err);
/* Append the value of state s: "p/q" or "inf" (rational), the function as
 * proper_ratfun_format writes it, or "inf" (parametric). */
PROPER_API void proper_exact_vec_format(const proper_exact_vec *x, const proper_exact_dtmc *e, uint32_t s,
                                        proper_strbuf *b);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_EXACT_H */
