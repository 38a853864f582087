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
 *                recursive primitive polynomial remainder sequence, after
 *                shortcuts: a monomial side, and a degree bound from one
 *                modular image that proves most coprime pairs at once and
 *                finds a divisor by trial division; sums by Henrici's
 *                method and products by cross-cancellation, so the gcds
 *                taken are of the smaller parts), both
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
 * PROPER_ELIMIT (a number beyond PROPER_EXACT_MAX_LIMBS limbs, a polynomial
 * beyond PROPER_EXACT_MAX_TERMS terms, or a product or power whose
 * estimated work is beyond PROPER_EXACT_MAX_WORK); on failure the output
 * keeps its old value. Parsers report file:line:col.
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
 * CTMCs (m->kind == PROPER_DTMC_KIND_CTMC; the companion holds exact rates,
 * checked positive, rows of any sum) are solved as PRISM's exact and
 * parametric engines solve them (param/ValueComputer.java), on the
 * embedded chain P(s,t) = R(s,t) / E(s), E(s) the row's sum of rates
 * (self-loops included, as PRISM counts them): P=? [ U ] is the embedded
 * chain's; R=? [ F ] takes state rewards (rates) per visit, r(s) / E(s),
 * and transition rewards as they are; S=? and R=? [ S ] weigh each BSCC's
 * embedded stationary distribution by the mean sojourns 1 / E(s) (the
 * long-run fraction of time is sum pi tau over phi / sum pi tau; the
 * reward per unit of time sum pi (r/E + sum_t P trans) / sum pi tau). Time
 * bounds (X, U<=t, C<=t, I=t on a CTMC) are refused with
 * PROPER_EUNSUPPORTED: they need exp(-q t), not a rational (PRISM's
 * engines refuse them too).
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
 * Storm-pars). S=? [ phi ] solves each bottom SCC's balance equations with
 * the same elimination on the transposed component (R=? [ S ] weights its
 * states by their expected step rewards); X, U<=k, C<=k and I=k
 * take k exact steps (PROPER_EXACT_MAX_STEPS).
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

/* Largest step bound (U<=k, C<=k, I=k) solved exactly: exact iterates of
 * a chain with a cycle never repeat, and their numbers grow with every
 * step, so larger bounds fail with PROPER_ELIMIT instead of running for
 * hours (the double solvers of dtmc.h take them). */
#ifndef PROPER_EXACT_MAX_STEPS
#define PROPER_EXACT_MAX_STEPS 1000ul
#endif

/* Largest power accepted by the rational-function parser (x^k). */
#ifndef PROPER_EXACT_MAX_POWER
#define PROPER_EXACT_MAX_POWER 1000
#endif

/* Largest number of terms of one polynomial (PROPER_ELIMIT beyond). */
#ifndef PROPER_EXACT_MAX_TERMS
#define PROPER_EXACT_MAX_TERMS 100000
#endif

/* Largest work of one polynomial gcd, in products of terms taken by the
 * remainder sequence, each weighted by the size of the remainder's
 * coefficients in limbs (10^9: several seconds on one core): beyond, the gcd (and the rational-function operation
 * that needed it) fails with PROPER_ELIMIT instead of running for minutes.
 * Remainder sequences of polynomials with repeated factors in several
 * variables are the expensive case. */
#ifndef PROPER_EXACT_MAX_GCD_WORK
#define PROPER_EXACT_MAX_GCD_WORK 1000000000ull
#endif

/* Largest estimated work of one polynomial product, and of all the
 * products of one power x^k, in limb products: terms(a) x terms(b) x
 * (limbs(a) + limbs(b))^2, where limbs is the largest coefficient's
 * numerator plus denominator (each product of coefficients and each sum
 * into the result takes a gcd about that quadratic in the sizes). A power's
 * work is estimated before the first product from bounds on the sizes of
 * its partial powers, so a power that would take long is refused at once
 * (PROPER_ELIMIT). 3*10^10 is a few seconds on one core. */
#ifndef PROPER_EXACT_MAX_WORK
#define PROPER_EXACT_MAX_WORK 30000000000ull
#endif

/* Default limit on the states an exact or parametric solve takes on. */
#ifndef PROPER_EXACT_MAX_STATES
#define PROPER_EXACT_MAX_STATES 1000000
#endif

/* Default limit on the matrix entries state elimination may hold at once
 * (fill-in included): a model whose elimination would need more fails with
 * PROPER_ELIMIT instead of exhausting memory. */
#ifndef PROPER_EXACT_MAX_ENTRIES
#define PROPER_EXACT_MAX_ENTRIES 20000000u
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
 * when b is zero; PROPER_ELIMIT when its steps, each charged as a product
 * of b and the remainder, exceed PROPER_EXACT_MAX_WORK). */
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
/* a^k by squaring; refused at once (PROPER_ELIMIT) when its extreme
 * coefficients must outgrow PROPER_EXACT_MAX_LIMBS or the estimated work of
 * all its products exceeds PROPER_EXACT_MAX_WORK. */
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
 * non-negative integer power up to PROPER_EXACT_MAX_POWER, else PROPER_ELIMIT) and
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
 * parametric mode; a CTMC's rows are rates, of any sum) and, in rational
 * mode, no probability or reward is negative and every transition of m has
 * a non-zero exact probability (rate).
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
    uint32_t max_states;  /* states solved (not counting prob0/prob1): PROPER_ELIMIT beyond */
    uint64_t max_entries; /* matrix entries held during elimination: PROPER_ELIMIT beyond */
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
/* n zero values (rationals when n_params == 0, else functions), into x
 * (an output: replaced on success). */
PROPER_API int proper_exact_vec_create(proper_exact_vec *x, uint32_t n, size_t n_params);

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
/* P=? [ X phi ]: x_s = sum of P(s,t) over t in phi. */
PROPER_API int proper_exact_prob_next(const proper_dtmc *m, const proper_exact_dtmc *e, const proper_bitset *phi,
                                      proper_exact_vec *x, proper_error *err);
/* P=? [ phi1 U<=k phi2 ] (phi1 NULL: F<=k) by k exact steps; an iterate
 * equal to the one before is a fixed point and ends the iteration early
 * (an acyclic chain reaches one; a chain with a cycle never does, and
 * k > PROPER_EXACT_MAX_STEPS is then refused with PROPER_ELIMIT). */
PROPER_API int proper_exact_prob_bounded_until(const proper_dtmc *m, const proper_exact_dtmc *e,
                                               const proper_bitset *phi1, const proper_bitset *phi2, unsigned long k,
                                               proper_exact_vec *x, proper_error *err);
/* R{r}=? [ C<=k ] (state reward of each state left plus transition rewards
 * taken, over k steps) and R{r}=? [ I=k ] (state reward at step k). */
PROPER_API int proper_exact_reward_cumulative(const proper_dtmc *m, const proper_exact_dtmc *e, size_t r,
                                              unsigned long k, proper_exact_vec *x, proper_error *err);
PROPER_API int proper_exact_reward_instant(const proper_dtmc *m, const proper_exact_dtmc *e, size_t r,
                                           unsigned long k, proper_exact_vec *x, proper_error *err);
/* S=? [ phi ] from each state: the stationary mass of phi in each bottom
 * SCC (balance equations solved by the same elimination, on the transposed
 * component), weighted by the probability of reaching that BSCC. */
PROPER_API int proper_exact_steady(const proper_dtmc *m, const proper_exact_dtmc *e, const proper_bitset *phi,
                                   const proper_exact_opts *opts, proper_exact_vec *x, proper_exact_stats *stats,
                                   proper_error *err);
/* R{r}=? [ S ]: the long-run average reward per step (state reward plus
 * the expected transition reward of a step), the same way with the step
 * reward as the weight of each state of a BSCC. */
PROPER_API int proper_exact_reward_steady(const proper_dtmc *m, const proper_exact_dtmc *e, size_t r,
                                          const proper_exact_opts *opts, proper_exact_vec *x, proper_exact_stats *stats,
                                          proper_error *err);
/* Append the value of state s as PRISM prints it: "p/q" (rational) or the
 * function as proper_ratfun_format writes it (parametric), "Infinity" for
 * an infinite value. */
PROPER_API void proper_exact_vec_format(const proper_exact_vec *x, const proper_exact_dtmc *e, uint32_t s,
                                        proper_strbuf *b);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_EXACT_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_EXACT_IMPLEMENTATION
#define PROPER_EXACT_IMPLEMENTATION

#include <math.h>
#include <string.h>

/* ---- big integers: magnitudes ---------------------------------------------- */

static int proper__exact_reserve(proper_bigint *a, uint32_t n) {
    uint32_t *p;
    uint32_t cap;
    if (n <= a->cap) return PROPER_OK;
    if (n > PROPER_EXACT_MAX_LIMBS) return PROPER_ELIMIT;
    cap = a->cap ? a->cap : 2;
    while (cap < n) cap = cap > PROPER_EXACT_MAX_LIMBS / 2 ? PROPER_EXACT_MAX_LIMBS : cap * 2;
    p = (uint32_t *)PROPER_REALLOC(a->limb, (size_t)cap * sizeof *p);
    if (!p) return PROPER_ENOMEM;
    a->limb = p;
    a->cap = cap;
    return PROPER_OK;
}

static void proper__exact_trim(proper_bigint *a) {
    while (a->len && a->limb[a->len - 1] == 0) a->len--;
    if (!a->len) a->neg = 0;
}

/* Replace *out by *t (moving t's storage). */
static void proper__exact_move(proper_bigint *out, proper_bigint *t) {
    PROPER_FREE(out->limb);
    *out = *t;
    proper_bigint_init(t);
}

static int proper__exact_mag_cmp(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb) {
    if (na != nb) return na < nb ? -1 : 1;
    while (na--) {
        if (a[na] != b[na]) return a[na] < b[na] ? -1 : 1;
    }
    return 0;
}

/* r = a + b; r has room for max(na, nb) + 1 limbs and may alias a or b. */
static uint32_t proper__exact_mag_add(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b,
                                      uint32_t nb) {
    uint64_t carry = 0;
    uint32_t i, n = na > nb ? na : nb;
    for (i = 0; i < n; i++) {
        uint64_t s = carry + (i < na ? a[i] : 0) + (i < nb ? b[i] : 0);
        r[i] = (uint32_t)s;
        carry = s >> 32;
    }
    if (carry) r[n++] = (uint32_t)carry;
    return n;
}

/* r = a - b for a >= b; r has room for na limbs and may alias a or b. */
static uint32_t proper__exact_mag_sub(uint32_t *r, const uint32_t *a, uint32_t na, const uint32_t *b,
                                      uint32_t nb) {
    uint32_t i, borrow = 0;
    for (i = 0; i < na; i++) {
        uint64_t sub = (uint64_t)(i < nb ? b[i] : 0) + borrow;
        borrow = (uint64_t)a[i] < sub;
        r[i] = (uint32_t)((uint64_t)a[i] - sub);
    }
    while (na && r[na - 1] == 0) na--;
    return na;
}

/* a * m + add, in place over n limbs; returns the carry out. */
static uint32_t proper__exact_mag_mul_small(uint32_t *a, uint32_t n, uint32_t m, uint32_t add) {
    uint64_t carry = add;
    uint32_t i;
    for (i = 0; i < n; i++) {
        uint64_t p = (uint64_t)a[i] * m + carry;
        a[i] = (uint32_t)p;
        carry = p >> 32;
    }
    return (uint32_t)carry;
}

/* a / d in place over n limbs; returns the remainder. */
static uint32_t proper__exact_mag_div_small(uint32_t *a, uint32_t n, uint32_t d) {
    uint64_t rem = 0;
    while (n--) {
        uint64_t cur = (rem << 32) | a[n];
        a[n] = (uint32_t)(cur / d);
        rem = cur % d;
    }
    return (uint32_t)rem;
}

static unsigned proper__exact_clz32(uint32_t x) {
    unsigned n = 0;
    if (!x) return 32;
    while (!(x & 0x80000000u)) { x <<= 1; n++; }
    return n;
}

/* ---- big integers: public ---------------------------------------------------- */

PROPER_API void proper_bigint_init(proper_bigint *a) { memset(a, 0, sizeof *a); }

PROPER_API void proper_bigint_free(proper_bigint *a) {
    PROPER_FREE(a->limb);
    proper_bigint_init(a);
}

PROPER_API int proper_bigint_set_u64(proper_bigint *out, uint64_t v) {
    int rc = proper__exact_reserve(out, 2);
    if (rc) return rc;
    out->limb[0] = (uint32_t)v;
    out->limb[1] = (uint32_t)(v >> 32);
    out->len = 2;
    out->neg = 0;
    proper__exact_trim(out);
    return PROPER_OK;
}

PROPER_API int proper_bigint_set_i64(proper_bigint *out, int64_t v) {
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    int rc = proper_bigint_set_u64(out, mag);
    if (!rc) out->neg = v < 0;
    return rc;
}

PROPER_API int proper_bigint_copy(proper_bigint *out, const proper_bigint *a) {
    int rc;
    if (out == a) return PROPER_OK;
    if ((rc = proper__exact_reserve(out, a->len))) return rc;
    if (a->len) memcpy(out->limb, a->limb, (size_t)a->len * sizeof *a->limb);
    out->len = a->len;
    out->neg = a->neg;
    return PROPER_OK;
}

PROPER_API int proper_bigint_sign(const proper_bigint *a) { return a->len == 0 ? 0 : a->neg ? -1 : 1; }

PROPER_API int proper_bigint_cmp(const proper_bigint *a, const proper_bigint *b) {
    int c;
    if (a->neg != b->neg) return a->neg ? -1 : 1;
    c = proper__exact_mag_cmp(a->limb, a->len, b->limb, b->len);
    return a->neg ? -c : c;
}

PROPER_API int proper_bigint_to_i64(const proper_bigint *a, int64_t *v) {
    uint64_t mag;
    if (a->len > 2) return 0;
    mag = a->len == 0 ? 0 : a->len == 1 ? a->limb[0] : ((uint64_t)a->limb[1] << 32) | a->limb[0];
    if (a->neg) {
        if (mag > (uint64_t)INT64_MAX + 1) return 0;
        *v = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
    } else {
        if (mag > (uint64_t)INT64_MAX) return 0;
        *v = (int64_t)mag;
    }
    return 1;
}

/* out = a + (negate_b ? -b : b) */
static int proper__exact_addsub(proper_bigint *out, const proper_bigint *a, const proper_bigint *b, int negate_b) {
    proper_bigint t;
    int bneg = b->len ? (b->neg ^ negate_b) : 0;
    int rc;
    uint32_t n = (a->len > b->len ? a->len : b->len) + 1;
    proper_bigint_init(&t);
    if ((rc = proper__exact_reserve(&t, n))) return rc;
    if (a->neg == bneg) {
        t.len = proper__exact_mag_add(t.limb, a->limb, a->len, b->limb, b->len);
        t.neg = a->neg;
    } else if (proper__exact_mag_cmp(a->limb, a->len, b->limb, b->len) >= 0) {
        t.len = proper__exact_mag_sub(t.limb, a->limb, a->len, b->limb, b->len);
        t.neg = a->neg;
    } else {
        t.len = proper__exact_mag_sub(t.limb, b->limb, b->len, a->limb, a->len);
        t.neg = bneg;
    }
    proper__exact_trim(&t);
    proper__exact_move(out, &t);
    return PROPER_OK;
}

PROPER_API int proper_bigint_add(proper_bigint *out, const proper_bigint *a, const proper_bigint *b) {
    return proper__exact_addsub(out, a, b, 0);
}

PROPER_API int proper_bigint_sub(proper_bigint *out, const proper_bigint *a, const proper_bigint *b) {
    return proper__exact_addsub(out, a, b, 1);
}

PROPER_API int proper_bigint_mul(proper_bigint *out, const proper_bigint *a, const proper_bigint *b) {
    proper_bigint t;
    uint32_t i, j;
    int rc;
    if (!a->len || !b->len) {
        out->len = 0;
        out->neg = 0;
        return PROPER_OK;
    }
    if ((uint64_t)a->len + b->len > PROPER_EXACT_MAX_LIMBS) return PROPER_ELIMIT;
    proper_bigint_init(&t);
    if ((rc = proper__exact_reserve(&t, a->len + b->len))) return rc;
    memset(t.limb, 0, (size_t)(a->len + b->len) * sizeof *t.limb);
    for (i = 0; i < a->len; i++) {
        uint64_t carry = 0, ai = a->limb[i];
        for (j = 0; j < b->len; j++) {
            uint64_t p = ai * b->limb[j] + t.limb[i + j] + carry;
            t.limb[i + j] = (uint32_t)p;
            carry = p >> 32;
        }
        t.limb[i + b->len] = (uint32_t)carry;
    }
    t.len = a->len + b->len;
    t.neg = a->neg ^ b->neg;
    proper__exact_trim(&t);
    proper__exact_move(out, &t);
    return PROPER_OK;
}

/* Knuth's algorithm D (TAOCP vol. 2, 4.3.1) on magnitudes, nb >= 2:
 * q gets na - nb + 1 limbs, r gets nb limbs. */
static int proper__exact_mag_divmod(proper_bigint *q, proper_bigint *r, const proper_bigint *a,
                                    const proper_bigint *b) {
    uint32_t na = a->len, nb = b->len, i;
    unsigned s = proper__exact_clz32(b->limb[nb - 1]);
    uint32_t *un, *vn;
    long j;
    int rc;
    un = (uint32_t *)PROPER_MALLOC(((size_t)na + 1 + nb) * sizeof *un);
    if (!un) return PROPER_ENOMEM;
    vn = un + na + 1;
    if ((rc = proper__exact_reserve(q, na - nb + 1))) { PROPER_FREE(un); return rc; }
    for (i = nb - 1; i > 0; i--) vn[i] = (b->limb[i] << s) | (s ? b->limb[i - 1] >> (32 - s) : 0);
    vn[0] = b->limb[0] << s;
    un[na] = s ? a->limb[na - 1] >> (32 - s) : 0;
    for (i = na - 1; i > 0; i--) un[i] = (a->limb[i] << s) | (s ? a->limb[i - 1] >> (32 - s) : 0);
    un[0] = a->limb[0] << s;
    for (j = (long)(na - nb); j >= 0; j--) {
        uint64_t num = ((uint64_t)un[j + nb] << 32) | un[j + nb - 1];
        uint64_t qhat = num / vn[nb - 1], rhat = num % vn[nb - 1], borrow = 0;
        uint32_t top;
        while (qhat >> 32 || qhat * vn[nb - 2] > ((rhat << 32) | un[j + nb - 2])) {
            qhat--;
            rhat += vn[nb - 1];
            if (rhat >> 32) break;
        }
        for (i = 0; i < nb; i++) {
            uint64_t p = qhat * vn[i] + borrow;
            uint32_t lo = (uint32_t)p;
            borrow = p >> 32;
            if (un[i + j] < lo) borrow++;
            un[i + j] -= lo;
        }
        top = un[j + nb];
        un[j + nb] = (uint32_t)(top - borrow);
        if ((uint64_t)top < borrow) { /* qhat was one too large: add back */
            uint64_t carry = 0;
            qhat--;
            for (i = 0; i < nb; i++) {
                uint64_t sum = (uint64_t)un[i + j] + vn[i] + carry;
                un[i + j] = (uint32_t)sum;
                carry = sum >> 32;
            }
            un[j + nb] += (uint32_t)carry;
        }
        q->limb[j] = (uint32_t)qhat;
    }
    q->len = na - nb + 1;
    if (r) {
        if ((rc = proper__exact_reserve(r, nb))) { PROPER_FREE(un); return rc; }
        for (i = 0; i < nb; i++) r->limb[i] = (un[i] >> s) | (s ? un[i + 1] << (32 - s) : 0);
        r->len = nb;
    }
    PROPER_FREE(un);
    return PROPER_OK;
}

PROPER_API int proper_bigint_divmod(proper_bigint *q, proper_bigint *r, const proper_bigint *a,
                                    const proper_bigint *b) {
    proper_bigint tq, tr;
    int rc = PROPER_OK, qneg = a->neg ^ b->neg, rneg = a->neg;
    if (!b->len) return PROPER_EINVAL;
    proper_bigint_init(&tq);
    proper_bigint_init(&tr);
    if (proper__exact_mag_cmp(a->limb, a->len, b->limb, b->len) < 0) {
        rc = proper_bigint_copy(&tr, a);
    } else if (b->len == 1) {
        if (!(rc = proper_bigint_copy(&tq, a))) {
            uint32_t rem = proper__exact_mag_div_small(tq.limb, tq.len, b->limb[0]);
            rc = proper_bigint_set_u64(&tr, rem);
        }
    } else {
        rc = proper__exact_mag_divmod(&tq, &tr, a, b);
    }
    if (rc) {
        proper_bigint_free(&tq);
        proper_bigint_free(&tr);
        return rc;
    }
    tq.neg = qneg;
    tr.neg = rneg;
    proper__exact_trim(&tq);
    proper__exact_trim(&tr);
    if (q) proper__exact_move(q, &tq);
    if (r) proper__exact_move(r, &tr);
    proper_bigint_free(&tq);
    proper_bigint_free(&tr);
    return PROPER_OK;
}

static uint64_t proper__exact_gcd_u64(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Bits s .. s+63 of |a| (a >> s, truncated to 64 bits). */
static uint64_t proper__exact_bits_at(const proper_bigint *a, uint64_t s) {
    uint64_t v = 0;
    uint32_t w = (uint32_t)(s / 32), b = (uint32_t)(s % 32), i;
    for (i = 0; i < 3 && w + i < a->len; i++) {
        uint64_t limb = a->limb[w + i];
        if (i == 0) v |= limb >> b;
        else if (32 * i - b < 64) v |= limb << (32 * i - b);
    }
    return v;
}

/* out = A x + B y for Lehmer's cofactors: |A|, |B| < 2^32, not both
 * negative, the result known to be >= 0. One pass: both products are
 * formed limb by limb with their own carries, then added, or subtracted
 * with a borrow when one cofactor is negative (out must not be x or y). */
static int proper__exact_lincomb(proper_bigint *out, int64_t A, const proper_bigint *x, int64_t B,
                                 const proper_bigint *y) {
    const proper_bigint *pa = A >= 0 ? x : y, *pb = A >= 0 ? y : x;
    int subtract = (A < 0) != (B < 0);
    uint32_t P = (uint32_t)(A >= 0 ? A : B), Q = (uint32_t)(A >= 0 ? (B < 0 ? -B : B) : -A);
    uint32_t n = x->len > y->len ? x->len : y->len, i, borrow = 0;
    uint64_t ca = 0, cb = 0, carry = 0;
    int rc = proper__exact_reserve(out, n + 2);
    if (rc) return rc;
    for (i = 0; i < n; i++) {
        uint64_t p = (uint64_t)(i < pa->len ? pa->limb[i] : 0) * P + ca; /* < 2^64 */
        uint64_t q = (uint64_t)(i < pb->len ? pb->limb[i] : 0) * Q + cb;
        if (subtract) {
            uint64_t d = (uint64_t)(uint32_t)p - (uint32_t)q - borrow;
            out->limb[i] = (uint32_t)d;
            borrow = (uint32_t)(d >> 63);
        } else {
            uint64_t sum = (uint64_t)(uint32_t)p + (uint32_t)q + carry;
            out->limb[i] = (uint32_t)sum;
            carry = sum >> 32;
        }
        ca = p >> 32;
        cb = q >> 32;
    }
    if (subtract) {
        out->limb[n] = (uint32_t)(ca - cb - borrow);
        out->len = n + 1;
    } else {
        uint64_t sum = ca + cb + carry;
        out->limb[n] = (uint32_t)sum;
        out->limb[n + 1] = (uint32_t)(sum >> 32);
        out->len = n + 2;
    }
    out->neg = 0;
    proper__exact_trim(out);
    return PROPER_OK;
}

static uint64_t proper__exact_bitlen(const proper_bigint *a);

PROPER_API int proper_bigint_gcd(proper_bigint *out, const proper_bigint *a, const proper_bigint *b) {
    proper_bigint x, y, r, t1, t2;
    int rc = PROPER_OK;
    if (a->len <= 2 && b->len <= 2) {
        uint64_t ua = a->len == 0 ? 0 : a->len == 1 ? a->limb[0] : ((uint64_t)a->limb[1] << 32) | a->limb[0];
        uint64_t ub = b->len == 0 ? 0 : b->len == 1 ? b->limb[0] : ((uint64_t)b->limb[1] << 32) | b->limb[0];
        return proper_bigint_set_u64(out, proper__exact_gcd_u64(ua, ub));
    }
    proper_bigint_init(&x);
    proper_bigint_init(&y);
    proper_bigint_init(&r);
    proper_bigint_init(&t1);
    proper_bigint_init(&t2);
    if ((rc = proper_bigint_copy(&x, a)) || (rc = proper_bigint_copy(&y, b))) goto done;
    x.neg = y.neg = 0;
    if (proper__exact_mag_cmp(x.limb, x.len, y.limb, y.len) < 0) {
        proper_bigint z = x;
        x = y;
        y = z;
    }
    /* Lehmer's algorithm (Knuth, TAOCP vol. 2, 4.5.2, algorithm L): run
     * Euclid on the leading 62 bits of x and the same bits of y while the
     * quotients are certain and the cofactors stay below 2^31 (so that the
     * update below sees cofactors under 2^32), then apply the cofactors to
     * the full numbers at once; a plain division step when no quotient is
     * certain. */
    while (y.len > 2) {
        uint64_t sh = proper__exact_bitlen(&x) - 62;
        int64_t xh = (int64_t)proper__exact_bits_at(&x, sh), yh = (int64_t)proper__exact_bits_at(&y, sh);
        int64_t A = 1, B = 0, C = 0, D = 1;
        const int64_t lim = (int64_t)1 << 30;
        while (yh + C != 0 && yh + D != 0) {
            int64_t q = (xh + A) / (yh + C), q2 = (xh + B) / (yh + D), T;
            if (q != q2) break;
            if ((C && q > lim / (C < 0 ? -C : C)) || (D && q > lim / (D < 0 ? -D : D))) break;
            T = A - q * C; A = C; C = T;
            T = B - q * D; B = D; D = T;
            T = xh - q * yh; xh = yh; yh = T;
        }
        if (B == 0) {
            if ((rc = proper_bigint_divmod(NULL, &r, &x, &y))) goto done;
            proper__exact_move(&x, &y);
            proper__exact_move(&y, &r);
        } else {
            proper_bigint swap;
            if ((rc = proper__exact_lincomb(&t1, A, &x, B, &y)) || (rc = proper__exact_lincomb(&t2, C, &x, D, &y)))
                goto done;
            swap = x; x = t1; t1 = swap;
            swap = y; y = t2; t2 = swap;
        }
    }
    if (y.len == 0) {
        proper__exact_move(out, &x);
        goto done;
    }
    if ((rc = proper_bigint_divmod(NULL, &r, &x, &y))) goto done;
    {
        uint64_t uy = y.len == 1 ? y.limb[0] : ((uint64_t)y.limb[1] << 32) | y.limb[0];
        uint64_t ur = r.len == 0 ? 0 : r.len == 1 ? r.limb[0] : ((uint64_t)r.limb[1] << 32) | r.limb[0];
        rc = proper_bigint_set_u64(out, proper__exact_gcd_u64(uy, ur));
    }
done:
    proper_bigint_free(&x);
    proper_bigint_free(&y);
    proper_bigint_free(&r);
    proper_bigint_free(&t1);
    proper_bigint_free(&t2);
    return rc;
}

PROPER_API int proper_bigint_mul_pow10(proper_bigint *out, const proper_bigint *a, unsigned k) {
    int rc = proper_bigint_copy(out, a);
    while (!rc && k > 0 && out->len) {
        unsigned step = k > 9 ? 9 : k;
        uint32_t m = 1, carry;
        unsigned i;
        for (i = 0; i < step; i++) m *= 10;
        carry = proper__exact_mag_mul_small(out->limb, out->len, m, 0);
        if (carry) {
            if ((rc = proper__exact_reserve(out, out->len + 1))) break;
            out->limb[out->len++] = carry;
        }
        k -= step;
    }
    return rc;
}

PROPER_API int proper_bigint_shl(proper_bigint *out, const proper_bigint *a, unsigned k) {
    uint32_t words = k / 32, bits = k % 32, n, i;
    int rc;
    if (!a->len) return proper_bigint_set_u64(out, 0);
    if ((uint64_t)a->len + words + 1 > PROPER_EXACT_MAX_LIMBS) return PROPER_ELIMIT;
    n = a->len + words + 1;
    if (out == a) {
        if ((rc = proper__exact_reserve(out, n))) return rc;
    } else {
        if ((rc = proper__exact_reserve(out, n))) return rc;
        memcpy(out->limb, a->limb, (size_t)a->len * sizeof *a->limb);
        out->neg = a->neg;
    }
    /* shift from the top so that out may be a */
    out->limb[n - 1] = bits ? out->limb[a->len - 1] >> (32 - bits) : 0;
    for (i = a->len - 1; i > 0; i--)
        out->limb[i + words] = (out->limb[i] << bits) | (bits ? out->limb[i - 1] >> (32 - bits) : 0);
    out->limb[words] = out->limb[0] << bits;
    for (i = 0; i < words; i++) out->limb[i] = 0;
    out->len = n;
    proper__exact_trim(out);
    return PROPER_OK;
}

static uint64_t proper__exact_bitlen(const proper_bigint *a) {
    if (!a->len) return 0;
    return (uint64_t)a->len * 32 - proper__exact_clz32(a->limb[a->len - 1]);
}

/* The top 64 bits of |a| (|a| >> shift, shift = max(0, bitlen - 64)) and
 * whether any lower bit is set (for rounding). */
static uint64_t proper__exact_top64(const proper_bigint *a, uint64_t *shift, int *sticky) {
    uint64_t bl = proper__exact_bitlen(a), sh = bl > 64 ? bl - 64 : 0, v = 0;
    uint32_t i;
    int st = 0;
    for (i = 0; i < a->len; i++) {
        uint64_t lo = (uint64_t)i * 32;
        if (lo + 32 <= sh) { st |= a->limb[i] != 0; continue; }
        if (lo < sh) {
            unsigned b = (unsigned)(sh - lo);
            st |= (a->limb[i] & ((1u << b) - 1)) != 0;
            v |= (uint64_t)a->limb[i] >> b;
        } else {
            v |= (uint64_t)a->limb[i] << (lo - sh);
        }
    }
    *shift = sh;
    *sticky = st;
    return v;
}

/* A 64-bit value with a sticky bit to a double, rounded once: keep 53
 * significant bits and round to nearest even using the rest. */
static double proper__exact_u64_to_double(uint64_t v, int sticky, int64_t exp2) {
    unsigned bl = 64;
    uint64_t half, rest, m;
    unsigned drop;
    if (!v) return 0.0;
    while (!(v >> (bl - 1))) bl--;
    if (bl <= 53) return ldexp((double)v, (int)(exp2 > 100000 ? 100000 : exp2 < -100000 ? -100000 : exp2));
    drop = bl - 53;
    m = v >> drop;
    rest = v & (((uint64_t)1 << drop) - 1);
    half = (uint64_t)1 << (drop - 1);
    if (rest > half || (rest == half && (sticky || (m & 1)))) m++;
    exp2 += drop;
    return ldexp((double)m, (int)(exp2 > 100000 ? 100000 : exp2 < -100000 ? -100000 : exp2));
}

PROPER_API double proper_bigint_to_double(const proper_bigint *a) {
    uint64_t sh;
    int sticky;
    uint64_t top = proper__exact_top64(a, &sh, &sticky);
    double v = proper__exact_u64_to_double(top, sticky, (int64_t)sh);
    return a->neg ? -v : v;
}

static int proper__exact_is_digit(char c) { return c >= '0' && c <= '9'; }

/* |out| = the decimal digits s[0..n-1] (all digits), sign untouched. */
static int proper__exact_digits(proper_bigint *out, const char *s, size_t n) {
    size_t i = 0;
    int rc;
    out->len = 0;
    while (i < n && s[i] == '0') i++;
    while (i < n) {
        uint32_t chunk = 0, mul = 1, carry;
        size_t k;
        for (k = 0; k < 9 && i < n; k++, i++) {
            chunk = chunk * 10 + (uint32_t)(s[i] - '0');
            mul *= 10;
        }
        carry = proper__exact_mag_mul_small(out->limb, out->len, mul, chunk);
        if (carry) {
            if ((rc = proper__exact_reserve(out, out->len + 1))) return rc;
            out->limb[out->len++] = carry;
        }
    }
    return PROPER_OK;
}

PROPER_API int proper_bigint_parse(proper_bigint *out, const char *text, size_t len, const char *name,
                                   proper_error *err) {
    proper_bigint t;
    size_t i = 0;
    int neg = 0, rc;
    if (i < len && (text[i] == '-' || text[i] == '+')) neg = text[i++] == '-';
    if (i == len) return proper_error_set(err, PROPER_EPARSE, name, 1, (int)i + 1, "expected a digit");
    for (; i < len; i++)
        if (!proper__exact_is_digit(text[i]))
            return proper_error_set(err, PROPER_EPARSE, name, 1, (int)i + 1, "expected a digit, found '%c'",
                                    text[i]);
    proper_bigint_init(&t);
    rc = proper__exact_digits(&t, text + (text[0] == '-' || text[0] == '+'), len - (text[0] == '-' || text[0] == '+'));
    if (rc) {
        proper_bigint_free(&t);
        return proper_error_set(err, rc, name, 1, 1, "integer too large");
    }
    t.neg = neg;
    proper__exact_trim(&t);
    proper__exact_move(out, &t);
    return PROPER_OK;
}

PROPER_API void proper_bigint_format(const proper_bigint *a, proper_strbuf *b) {
    uint32_t *tmp, *chunks, n = a->len, k = 0;
    if (!a->len) { proper_strbuf_puts(b, "0"); return; }
    /* base 10^9 chunks: a limb holds log10(2^32) = 9.63 digits, so n limbs
     * make at most n * 32 / 29 + 1 chunks of 9 digits (2^29 < 10^9) */
    tmp = (uint32_t *)PROPER_MALLOC(((size_t)n + (size_t)n * 32 / 29 + 2) * sizeof *tmp);
    if (!tmp) { b->failed = 1; return; }
    chunks = tmp + n;
    memcpy(tmp, a->limb, (size_t)n * sizeof *tmp);
    while (n) {
        chunks[k++] = proper__exact_mag_div_small(tmp, n, 1000000000u);
        while (n && tmp[n - 1] == 0) n--;
    }
    if (a->neg) proper_strbuf_puts(b, "-");
    proper_strbuf_printf(b, "%lu", (unsigned long)chunks[--k]);
    while (k) proper_strbuf_printf(b, "%09lu", (unsigned long)chunks[--k]);
    PROPER_FREE(tmp);
}

/* ---- rationals ------------------------------------------------------------------ */

PROPER_API void proper_rat_init(proper_rat *r) {
    proper_bigint_init(&r->num);
    proper_bigint_init(&r->den);
}

PROPER_API void proper_rat_free(proper_rat *r) {
    proper_bigint_free(&r->num);
    proper_bigint_free(&r->den);
}

/* The denominator, reading an empty one (a fresh 0) as 1. */
static int proper__exact_den_is_one(const proper_rat *a) {
    return a->den.len == 0 || (a->den.len == 1 && a->den.limb[0] == 1);
}

static void proper__exact_rat_move(proper_rat *out, proper_rat *t) {
    proper_rat_free(out);
    *out = *t;
    proper_rat_init(t);
}

PROPER_API int proper_rat_copy(proper_rat *out, const proper_rat *a) {
    int rc;
    if (out == a) return PROPER_OK;
    if ((rc = proper_bigint_copy(&out->num, &a->num))) return rc;
    return proper_bigint_copy(&out->den, &a->den);
}

/* Bring num/den (den != 0) to lowest terms with den > 0; den 1 is stored
 * as 1 (a zero numerator gets den 1). */
static int proper__exact_rat_normalise(proper_rat *r) {
    proper_bigint g;
    int rc;
    if (r->den.neg) { r->den.neg = 0; r->num.neg = r->num.len ? !r->num.neg : 0; }
    if (!r->num.len) return proper_bigint_set_u64(&r->den, 1);
    if (r->den.len == 1 && r->den.limb[0] == 1) return PROPER_OK;
    proper_bigint_init(&g);
    if ((rc = proper_bigint_gcd(&g, &r->num, &r->den))) return rc;
    if (!(g.len == 1 && g.limb[0] == 1)) {
        if ((rc = proper_bigint_divmod(&r->num, NULL, &r->num, &g)) ||
            (rc = proper_bigint_divmod(&r->den, NULL, &r->den, &g))) {
            proper_bigint_free(&g);
            return rc;
        }
    }
    proper_bigint_free(&g);
    return PROPER_OK;
}

PROPER_API int proper_rat_set_i64(proper_rat *out, int64_t n, int64_t d) {
    proper_rat t;
    int rc;
    if (d == 0) return PROPER_EINVAL;
    proper_rat_init(&t);
    if ((rc = proper_bigint_set_i64(&t.num, n)) || (rc = proper_bigint_set_i64(&t.den, d)) ||
        (rc = proper__exact_rat_normalise(&t))) {
        proper_rat_free(&t);
        return rc;
    }
    proper__exact_rat_move(out, &t);
    return PROPER_OK;
}

PROPER_API int proper_rat_from_double(proper_rat *out, double v) {
    proper_rat t;
    int e, rc;
    double m;
    uint64_t mant;
    if (!(v == v) || v - v != 0) return PROPER_EINVAL;
    m = frexp(fabs(v), &e); /* |v| = m 2^e, m in [0.5, 1) */
    mant = (uint64_t)ldexp(m, 53);
    e -= 53;
    while (mant && !(mant & 1)) { mant >>= 1; e++; }
    proper_rat_init(&t);
    rc = proper_bigint_set_u64(&t.num, mant);
    if (!rc) rc = proper_bigint_set_u64(&t.den, 1);
    if (!rc && mant && e > 0) rc = proper_bigint_shl(&t.num, &t.num, (unsigned)e);
    if (!rc && mant && e < 0) rc = proper_bigint_shl(&t.den, &t.den, (unsigned)-e);
    if (rc) { proper_rat_free(&t); return rc; }
    t.num.neg = v < 0 && mant;
    proper__exact_rat_move(out, &t);
    return PROPER_OK;
}

PROPER_API double proper_rat_to_double(const proper_rat *a) {
    proper_bigint n, q, r;
    int64_t k, nb, db;
    double v;
    if (!a->num.len) return 0.0;
    if (proper__exact_den_is_one(a)) return proper_bigint_to_double(&a->num);
    /* q = floor(|num| 2^k / den) with at least 65 significant bits; the
     * remainder is the sticky bit of the rounding. */
    nb = (int64_t)proper__exact_bitlen(&a->num);
    db = (int64_t)proper__exact_bitlen(&a->den);
    k = 66 - (nb - db);
    proper_bigint_init(&n);
    proper_bigint_init(&q);
    proper_bigint_init(&r);
    if (proper_bigint_copy(&n, &a->num)) { v = NAN; goto done; }
    n.neg = 0;
    if (k > 0) {
        if (proper_bigint_shl(&n, &n, (unsigned)k) || proper_bigint_divmod(&q, &r, &n, &a->den)) { v = NAN; goto done; }
    } else {
        proper_bigint d;
        proper_bigint_init(&d);
        if (proper_bigint_shl(&d, &a->den, (unsigned)-k) || proper_bigint_divmod(&q, &r, &n, &d)) {
            proper_bigint_free(&d);
            v = NAN;
            goto done;
        }
        proper_bigint_free(&d);
    }
    {
        uint64_t sh;
        int sticky;
        uint64_t top = proper__exact_top64(&q, &sh, &sticky);
        v = proper__exact_u64_to_double(top, sticky || r.len != 0, (int64_t)sh - k);
    }
    if (a->num.neg) v = -v;
done:
    proper_bigint_free(&n);
    proper_bigint_free(&q);
    proper_bigint_free(&r);
    return v;
}

PROPER_API int proper_rat_sign(const proper_rat *a) { return proper_bigint_sign(&a->num); }
PROPER_API int proper_rat_is_zero(const proper_rat *a) { return a->num.len == 0; }
PROPER_API int proper_rat_is_one(const proper_rat *a) {
    return !a->num.neg && a->num.len == 1 && a->num.limb[0] == 1 && proper__exact_den_is_one(a);
}

/* A denominator for arithmetic: an empty one (fresh zero) reads as 1. */
static const proper_bigint *proper__exact_den(const proper_rat *a, proper_bigint *one_storage, uint32_t *limb) {
    if (a->den.len) return &a->den;
    *limb = 1;
    one_storage->limb = limb;
    one_storage->len = one_storage->cap = 1;
    one_storage->neg = 0;
    return one_storage;
}

PROPER_API int proper_rat_cmp(const proper_rat *a, const proper_rat *b) {
    proper_bigint l, r, o1, o2;
    uint32_t w1, w2;
    int c, sa = proper_rat_sign(a), sb = proper_rat_sign(b);
    if (sa != sb) return sa < sb ? -1 : 1;
    if (proper__exact_den_is_one(a) && proper__exact_den_is_one(b)) return proper_bigint_cmp(&a->num, &b->num);
    proper_bigint_init(&l);
    proper_bigint_init(&r);
    if (proper_bigint_mul(&l, &a->num, proper__exact_den(b, &o2, &w2)) ||
        proper_bigint_mul(&r, &b->num, proper__exact_den(a, &o1, &w1))) {
        /* out of memory: fall back on the doubles */
        double x = proper_rat_to_double(a), y = proper_rat_to_double(b);
        c = x < y ? -1 : x > y;
    } else {
        c = proper_bigint_cmp(&l, &r);
    }
    proper_bigint_free(&l);
    proper_bigint_free(&r);
    return c;
}

/* out = a +- b by Henrici's method (Knuth, TAOCP vol. 2, 4.5.1): with
 * g = gcd(da, db), t = na (db/g) +- nb (da/g) and h = gcd(t, g), the sum in
 * lowest terms is (t/h) / ((da/g) (db/h)); the gcds are of the
 * denominators and of t with the small g, never of the full products. */
static int proper__exact_rat_addsub(proper_rat *out, const proper_rat *a, const proper_rat *b, int negate) {
    proper_rat t;
    proper_bigint g, h, x, y, o1, o2;
    uint32_t w1, w2;
    const proper_bigint *da = proper__exact_den(a, &o1, &w1), *db = proper__exact_den(b, &o2, &w2);
    int rc;
    proper_rat_init(&t);
    proper_bigint_init(&g);
    proper_bigint_init(&h);
    proper_bigint_init(&x);
    proper_bigint_init(&y);
    if ((rc = proper_bigint_gcd(&g, da, db))) goto done;
    if (g.len == 1 && g.limb[0] == 1) { /* coprime denominators: no gcd of the result needed */
        if ((rc = proper_bigint_mul(&x, &a->num, db)) || (rc = proper_bigint_mul(&y, &b->num, da))) goto done;
        rc = negate ? proper_bigint_sub(&t.num, &x, &y) : proper_bigint_add(&t.num, &x, &y);
        if (!rc) rc = proper_bigint_mul(&t.den, da, db);
        if (!rc && !t.num.len) rc = proper_bigint_set_u64(&t.den, 1);
        goto done;
    }
    /* x = db / g, y = da / g */
    if ((rc = proper_bigint_divmod(&x, NULL, db, &g)) || (rc = proper_bigint_divmod(&y, NULL, da, &g))) goto done;
    if ((rc = proper_bigint_mul(&t.num, &a->num, &x)) || (rc = proper_bigint_mul(&h, &b->num, &y))) goto done;
    if ((rc = negate ? proper_bigint_sub(&t.num, &t.num, &h) : proper_bigint_add(&t.num, &t.num, &h))) goto done;
    if (!t.num.len) {
        rc = proper_bigint_set_u64(&t.den, 1);
        goto done;
    }
    if ((rc = proper_bigint_gcd(&h, &t.num, &g))) goto done;
    if (!(h.len == 1 && h.limb[0] == 1)) {
        if ((rc = proper_bigint_divmod(&t.num, NULL, &t.num, &h)) || (rc = proper_bigint_divmod(&x, NULL, db, &h)))
            goto done;
    } else {
        rc = proper_bigint_copy(&x, db);
        if (rc) goto done;
    }
    rc = proper_bigint_mul(&t.den, &y, &x); /* (da/g) (db/h) */
done:
    proper_bigint_free(&g);
    proper_bigint_free(&h);
    proper_bigint_free(&x);
    proper_bigint_free(&y);
    if (rc) { proper_rat_free(&t); return rc; }
    proper__exact_rat_move(out, &t);
    return PROPER_OK;
}

PROPER_API int proper_rat_add(proper_rat *out, const proper_rat *a, const proper_rat *b) {
    return proper__exact_rat_addsub(out, a, b, 0);
}

PROPER_API int proper_rat_sub(proper_rat *out, const proper_rat *a, const proper_rat *b) {
    return proper__exact_rat_addsub(out, a, b, 1);
}

/* out = (an / ad) * (bn / bd), cross-cancelling first so that no gcd of the
 * full products is needed (Knuth 4.5.1). */
static int proper__exact_rat_mul_parts(proper_rat *out, const proper_bigint *an, const proper_bigint *ad,
                                       const proper_bigint *bn, const proper_bigint *bd) {
    proper_rat t;
    proper_bigint g1, g2, x, y;
    int rc;
    proper_rat_init(&t);
    proper_bigint_init(&g1);
    proper_bigint_init(&g2);
    proper_bigint_init(&x);
    proper_bigint_init(&y);
    if (!an->len || !bn->len) {
        rc = proper_bigint_set_u64(&t.den, 1);
        goto done;
    }
    if ((rc = proper_bigint_gcd(&g1, an, bd)) || (rc = proper_bigint_gcd(&g2, bn, ad))) goto done;
    if ((rc = proper_bigint_divmod(&x, NULL, an, &g1)) || (rc = proper_bigint_divmod(&y, NULL, bn, &g2)) ||
        (rc = proper_bigint_mul(&t.num, &x, &y)))
        goto done;
    if ((rc = proper_bigint_divmod(&x, NULL, ad, &g2)) || (rc = proper_bigint_divmod(&y, NULL, bd, &g1)) ||
        (rc = proper_bigint_mul(&t.den, &x, &y)))
        goto done;
    if (t.den.neg) { t.den.neg = 0; t.num.neg = !t.num.neg; }
done:
    proper_bigint_free(&g1);
    proper_bigint_free(&g2);
    proper_bigint_free(&x);
    proper_bigint_free(&y);
    if (rc) { proper_rat_free(&t); return rc; }
    proper__exact_rat_move(out, &t);
    return PROPER_OK;
}

PROPER_API int proper_rat_mul(proper_rat *out, const proper_rat *a, const proper_rat *b) {
    proper_bigint o1, o2;
    uint32_t w1, w2;
    return proper__exact_rat_mul_parts(out, &a->num, proper__exact_den(a, &o1, &w1), &b->num,
                                       proper__exact_den(b, &o2, &w2));
}

PROPER_API int proper_rat_div(proper_rat *out, const proper_rat *a, const proper_rat *b) {
    proper_bigint o1, o2;
    uint32_t w1, w2;
    if (!b->num.len) return PROPER_EINVAL;
    return proper__exact_rat_mul_parts(out, &a->num, proper__exact_den(a, &o1, &w1),
                                       proper__exact_den(b, &o2, &w2), &b->num);
}

PROPER_API int proper_rat_neg(proper_rat *out, const proper_rat *a) {
    int rc = proper_rat_copy(out, a);
    if (!rc && out->num.len) out->num.neg = !out->num.neg;
    return rc;
}

PROPER_API int proper_rat_pow(proper_rat *out, const proper_rat *a, unsigned k) {
    proper_rat base, acc;
    int rc;
    proper_rat_init(&base);
    proper_rat_init(&acc);
    rc = proper_rat_set_i64(&acc, 1, 1);
    if (!rc) rc = proper_rat_copy(&base, a);
    while (!rc && k) {
        if (k & 1) rc = proper_rat_mul(&acc, &acc, &base);
        k >>= 1;
        if (!rc && k) rc = proper_rat_mul(&base, &base, &base);
    }
    proper_rat_free(&base);
    if (rc) { proper_rat_free(&acc); return rc; }
    proper__exact_rat_move(out, &acc);
    return PROPER_OK;
}

/* One exact decimal "[+-]?(d+(.d*)?|.d+)([eE][+-]?d+)?" at text[*pos]; on
 * success *pos moves past it. */
static int proper__exact_decimal(proper_rat *out, const char *text, size_t len, size_t *pos, const char *name,
                                 int line, int col, proper_error *err) {
    size_t i = *pos, int_start, int_end, frac_start = 0, frac_end = 0, ndig = 0;
    long exp10 = 0;
    int neg = 0, rc;
    char *digits;
    proper_rat t;
    if (i < len && (text[i] == '+' || text[i] == '-')) neg = text[i++] == '-';
    int_start = i;
    while (i < len && proper__exact_is_digit(text[i])) i++;
    int_end = i;
    ndig = int_end - int_start;
    if (i < len && text[i] == '.') {
        frac_start = ++i;
        while (i < len && proper__exact_is_digit(text[i])) i++;
        frac_end = i;
        ndig += frac_end - frac_start;
    }
    if (ndig == 0)
        return proper_error_set(err, PROPER_EPARSE, name, line, col + (int)*pos, "expected a number");
    if (i < len && (text[i] == 'e' || text[i] == 'E')) {
        size_t j = i + 1;
        int eneg = 0;
        if (j < len && (text[j] == '+' || text[j] == '-')) eneg = text[j++] == '-';
        if (j < len && proper__exact_is_digit(text[j])) {
            while (j < len && proper__exact_is_digit(text[j])) {
                if (exp10 <= PROPER_EXACT_MAX_EXP10) exp10 = exp10 * 10 + (text[j] - '0');
                j++;
            }
            if (exp10 > PROPER_EXACT_MAX_EXP10)
                return proper_error_set(err, PROPER_ERANGE, name, line, col + (int)i,
                                        "exponent beyond %d", PROPER_EXACT_MAX_EXP10);
            if (eneg) exp10 = -exp10;
            i = j;
        }
    }
    digits = (char *)PROPER_MALLOC(ndig + 1);
    if (!digits) return proper_error_set(err, PROPER_ENOMEM, name, line, col, "out of memory");
    memcpy(digits, text + int_start, int_end - int_start);
    if (frac_end > frac_start) memcpy(digits + (int_end - int_start), text + frac_start, frac_end - frac_start);
    exp10 -= (long)(frac_end - frac_start);
    if (-exp10 > 2L * PROPER_EXACT_MAX_EXP10 || exp10 > 2L * PROPER_EXACT_MAX_EXP10) {
        PROPER_FREE(digits);
        return proper_error_set(err, PROPER_ERANGE, name, line, col + (int)*pos, "number too long");
    }
    proper_rat_init(&t);
    rc = proper__exact_digits(&t.num, digits, ndig);
    PROPER_FREE(digits);
    if (!rc) rc = proper_bigint_set_u64(&t.den, 1);
    if (!rc && exp10 > 0) rc = proper_bigint_mul_pow10(&t.num, &t.num, (unsigned)exp10);
    if (!rc && exp10 < 0) rc = proper_bigint_mul_pow10(&t.den, &t.den, (unsigned)-exp10);
    proper__exact_trim(&t.num);
    if (!rc) rc = proper__exact_rat_normalise(&t);
    if (rc) {
        proper_rat_free(&t);
        return proper_error_set(err, rc, name, line, col + (int)*pos, "number too large");
    }
    if (neg && t.num.len) t.num.neg = 1;
    proper__exact_rat_move(out, &t);
    *pos = i;
    return PROPER_OK;
}

static size_t proper__exact_skip_blanks(const char *text, size_t len, size_t i) {
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n')) i++;
    return i;
}

PROPER_API int proper_rat_parse(proper_rat *out, const char *text, size_t len, const char *name,
                                proper_error *err) {
    proper_rat a, b;
    size_t i = proper__exact_skip_blanks(text, len, 0);
    int rc;
    proper_rat_init(&a);
    proper_rat_init(&b);
    if ((rc = proper__exact_decimal(&a, text, len, &i, name, 1, 1, err))) goto done;
    i = proper__exact_skip_blanks(text, len, i);
    if (i < len && text[i] == '/') {
        size_t slash = i;
        i = proper__exact_skip_blanks(text, len, i + 1);
        if ((rc = proper__exact_decimal(&b, text, len, &i, name, 1, 1, err))) goto done;
        if (proper_rat_is_zero(&b)) {
            rc = proper_error_set(err, PROPER_EINVAL, name, 1, (int)slash + 1, "division by zero");
            goto done;
        }
        if ((rc = proper_rat_div(&a, &a, &b))) {
            rc = proper_error_set(err, rc, name, 1, 1, "number too large");
            goto done;
        }
        i = proper__exact_skip_blanks(text, len, i);
    }
    if (i < len) {
        rc = proper_error_set(err, PROPER_EPARSE, name, 1, (int)i + 1, "expected the end of the number");
        goto done;
    }
    proper__exact_rat_move(out, &a);
done:
    proper_rat_free(&a);
    proper_rat_free(&b);
    return rc;
}

PROPER_API void proper_rat_format(const proper_rat *a, proper_strbuf *b) {
    proper_bigint_format(&a->num, b);
    if (!proper__exact_den_is_one(a)) {
        proper_strbuf_puts(b, "/");
        proper_bigint_format(&a->den, b);
    }
}

/* ---- polynomials ------------------------------------------------------------------ */

PROPER_API void proper_poly_init(proper_poly *p) { memset(p, 0, sizeof *p); }

PROPER_API void proper_poly_free(proper_poly *p) {
    size_t i;
    for (i = 0; i < p->n_terms; i++) proper_rat_free(&p->coef[i]);
    PROPER_FREE(p->coef);
    PROPER_FREE(p->exp);
    proper_poly_init(p);
}

static void proper__exact_poly_move(proper_poly *out, proper_poly *t) {
    proper_poly_free(out);
    *out = *t;
    proper_poly_init(t);
}

static int proper__exact_poly_reserve(proper_poly *p, size_t n) {
    size_t cap;
    proper_rat *c;
    uint32_t *e;
    if (n <= p->cap) return PROPER_OK;
    if (n > PROPER_EXACT_MAX_TERMS) return PROPER_ELIMIT;
    cap = p->cap ? p->cap * 2 : 4;
    if (cap < n) cap = n;
    c = (proper_rat *)PROPER_REALLOC(p->coef, cap * sizeof *c);
    if (!c) return PROPER_ENOMEM;
    p->coef = c;
    if (p->n_vars) {
        e = (uint32_t *)PROPER_REALLOC(p->exp, cap * p->n_vars * sizeof *e);
        if (!e) return PROPER_ENOMEM;
        p->exp = e;
    }
    p->cap = cap;
    return PROPER_OK;
}

/* Append a term (coefficient moved in; zero coefficients are dropped). */
static int proper__exact_poly_push(proper_poly *p, const uint32_t *e, proper_rat *c) {
    int rc;
    if (proper_rat_is_zero(c)) { proper_rat_free(c); return PROPER_OK; }
    if ((rc = proper__exact_poly_reserve(p, p->n_terms + 1))) return rc;
    if (p->n_vars) memcpy(p->exp + p->n_terms * p->n_vars, e, p->n_vars * sizeof *e);
    p->coef[p->n_terms++] = *c;
    proper_rat_init(c);
    return PROPER_OK;
}

/* The exponent vector of term i (NULL for polynomials without variables:
 * no arithmetic on a null pointer). */
static const uint32_t *proper__exact_term(const proper_poly *p, size_t i) {
    return p->exp ? p->exp + i * p->n_vars : NULL;
}

/* Graded lexicographic comparison of exponent vectors: higher total degree
 * first, then the larger exponent of x0, x1, ... */
static int proper__exact_mono_cmp(const uint32_t *a, const uint32_t *b, uint32_t nv) {
    uint64_t da = 0, db = 0;
    uint32_t i;
    for (i = 0; i < nv; i++) { da += a[i]; db += b[i]; }
    if (da != db) return da < db ? -1 : 1;
    for (i = 0; i < nv; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* A copy of a with nv >= a->n_vars variables. */
static int proper__exact_poly_widen(proper_poly *out, const proper_poly *a, uint32_t nv) {
    proper_poly t;
    size_t i;
    int rc;
    uint32_t *e = NULL;
    proper_poly_init(&t);
    t.n_vars = nv;
    if (nv && !(e = (uint32_t *)proper_calloc(nv, sizeof *e))) return PROPER_ENOMEM;
    if ((rc = proper__exact_poly_reserve(&t, a->n_terms))) goto fail;
    for (i = 0; i < a->n_terms; i++) {
        proper_rat c;
        proper_rat_init(&c);
        if (a->n_vars) memcpy(e, proper__exact_term(a, i), a->n_vars * sizeof *e);
        if ((rc = proper_rat_copy(&c, &a->coef[i])) || (rc = proper__exact_poly_push(&t, e, &c))) {
            proper_rat_free(&c);
            goto fail;
        }
    }
    PROPER_FREE(e);
    proper__exact_poly_move(out, &t);
    return PROPER_OK;
fail:
    PROPER_FREE(e);
    proper_poly_free(&t);
    return rc;
}

/* Bring a and b to the same number of variables: pa and pb point at a and
 * b or at widened copies in wa and wb. */
static int proper__exact_poly_align(const proper_poly *a, const proper_poly *b, const proper_poly **pa,
                                    const proper_poly **pb, proper_poly *wa, proper_poly *wb) {
    int rc = PROPER_OK;
    *pa = a;
    *pb = b;
    if (a->n_vars < b->n_vars) {
        rc = proper__exact_poly_widen(wa, a, b->n_vars);
        *pa = wa;
    } else if (b->n_vars < a->n_vars) {
        rc = proper__exact_poly_widen(wb, b, a->n_vars);
        *pb = wb;
    }
    return rc;
}

PROPER_API int proper_poly_copy(proper_poly *out, const proper_poly *a) {
    if (out == a) return PROPER_OK;
    return proper__exact_poly_widen(out, a, a->n_vars);
}

PROPER_API int proper_poly_set_rat(proper_poly *out, const proper_rat *c) {
    proper_poly t;
    proper_rat k;
    int rc;
    proper_poly_init(&t);
    proper_rat_init(&k);
    if ((rc = proper_rat_copy(&k, c)) || (rc = proper__exact_poly_push(&t, NULL, &k))) {
        proper_rat_free(&k);
        proper_poly_free(&t);
        return rc;
    }
    proper__exact_poly_move(out, &t);
    return PROPER_OK;
}

PROPER_API int proper_poly_set_var(proper_poly *out, uint32_t var, uint32_t n_vars) {
    proper_poly t;
    proper_rat one;
    uint32_t *e;
    int rc;
    if (var >= n_vars) return PROPER_EINVAL;
    if (!(e = (uint32_t *)proper_calloc(n_vars, sizeof *e))) return PROPER_ENOMEM;
    e[var] = 1;
    proper_poly_init(&t);
    t.n_vars = n_vars;
    proper_rat_init(&one);
    rc = proper_rat_set_i64(&one, 1, 1);
    if (!rc) rc = proper__exact_poly_push(&t, e, &one);
    PROPER_FREE(e);
    proper_rat_free(&one);
    if (rc) { proper_poly_free(&t); return rc; }
    proper__exact_poly_move(out, &t);
    return PROPER_OK;
}

PROPER_API int proper_poly_is_zero(const proper_poly *a) { return a->n_terms == 0; }

static int proper__exact_mono_is_one(const uint32_t *e, uint32_t nv) {
    uint32_t i;
    for (i = 0; i < nv; i++)
        if (e[i]) return 0;
    return 1;
}

PROPER_API int proper_poly_is_const(const proper_poly *a, proper_rat *c) {
    if (a->n_terms > 1) return 0;
    if (a->n_terms == 1 && !proper__exact_mono_is_one(proper__exact_term(a, 0), a->n_vars)) return 0;
    if (c) {
        if (a->n_terms == 0) {
            if (proper_rat_set_i64(c, 0, 1)) return 0;
        } else if (proper_rat_copy(c, &a->coef[0])) {
            return 0;
        }
    }
    return 1;
}

PROPER_API int proper_poly_equal(const proper_poly *a, const proper_poly *b) {
    size_t i;
    uint32_t k, nv = a->n_vars > b->n_vars ? a->n_vars : b->n_vars;
    if (a->n_terms != b->n_terms) return 0;
    for (i = 0; i < a->n_terms; i++) {
        for (k = 0; k < nv; k++) {
            uint32_t ea = k < a->n_vars ? a->exp[i * a->n_vars + k] : 0;
            uint32_t eb = k < b->n_vars ? b->exp[i * b->n_vars + k] : 0;
            if (ea != eb) return 0;
        }
        if (proper_rat_cmp(&a->coef[i], &b->coef[i]) != 0) return 0;
    }
    return 1;
}

/* out = a + sign * b (sign +1 or -1), by merging the sorted term lists. */
static int proper__exact_poly_addsub(proper_poly *out, const proper_poly *a0, const proper_poly *b0, int sign) {
    proper_poly t, wa, wb;
    const proper_poly *a, *b;
    size_t i = 0, j = 0, n;
    int rc;
    proper_poly_init(&t);
    proper_poly_init(&wa);
    proper_poly_init(&wb);
    if ((rc = proper__exact_poly_align(a0, b0, &a, &b, &wa, &wb))) goto done;
    t.n_vars = a->n_vars;
    n = a->n_terms + b->n_terms;
    /* the sum may have fewer terms than both together: push checks the limit */
    if ((rc = proper__exact_poly_reserve(&t, n > PROPER_EXACT_MAX_TERMS ? PROPER_EXACT_MAX_TERMS : n))) goto done;
    while (i < a->n_terms || j < b->n_terms) {
        proper_rat c;
        const uint32_t *e;
        int cmp = i == a->n_terms ? -1 : j == b->n_terms ? 1
                : proper__exact_mono_cmp(proper__exact_term(a, i), proper__exact_term(b, j), a->n_vars);
        proper_rat_init(&c);
        if (cmp > 0) {
            e = proper__exact_term(a, i);
            rc = proper_rat_copy(&c, &a->coef[i++]);
        } else if (cmp < 0) {
            e = proper__exact_term(b, j);
            rc = sign > 0 ? proper_rat_copy(&c, &b->coef[j]) : proper_rat_neg(&c, &b->coef[j]);
            j++;
        } else {
            e = proper__exact_term(a, i);
            rc = sign > 0 ? proper_rat_add(&c, &a->coef[i], &b->coef[j]) : proper_rat_sub(&c, &a->coef[i], &b->coef[j]);
            i++;
            j++;
        }
        if (!rc) rc = proper__exact_poly_push(&t, e, &c);
        proper_rat_free(&c);
        if (rc) goto done;
    }
    proper__exact_poly_move(out, &t);
done:
    proper_poly_free(&t);
    proper_poly_free(&wa);
    proper_poly_free(&wb);
    return rc;
}

PROPER_API int proper_poly_add(proper_poly *out, const proper_poly *a, const proper_poly *b) {
    return proper__exact_poly_addsub(out, a, b, 1);
}

PROPER_API int proper_poly_sub(proper_poly *out, const proper_poly *a, const proper_poly *b) {
    return proper__exact_poly_addsub(out, a, b, -1);
}

/* out = c * x^e * a (a monomial times a polynomial keeps the term order). */
static int proper__exact_poly_mul_term(proper_poly *out, const proper_poly *a, const uint32_t *e, const proper_rat *c) {
    proper_poly t;
    size_t i;
    uint32_t k, nv = a->n_vars;
    uint32_t *f = NULL;
    int rc = PROPER_OK;
    proper_poly_init(&t);
    t.n_vars = nv;
    if (nv && !(f = (uint32_t *)PROPER_MALLOC(nv * sizeof *f))) return PROPER_ENOMEM;
    if ((rc = proper__exact_poly_reserve(&t, a->n_terms))) goto done;
    for (i = 0; i < a->n_terms; i++) {
        proper_rat x;
        proper_rat_init(&x);
        for (k = 0; k < nv; k++) {
            uint64_t s = (uint64_t)a->exp[i * nv + k] + (e ? e[k] : 0);
            if (s > UINT32_MAX) { rc = PROPER_ELIMIT; break; }
            f[k] = (uint32_t)s;
        }
        if (!rc) rc = proper_rat_mul(&x, &a->coef[i], c);
        if (!rc) rc = proper__exact_poly_push(&t, f, &x);
        proper_rat_free(&x);
        if (rc) goto done;
    }
    proper__exact_poly_move(out, &t);
done:
    PROPER_FREE(f);
    proper_poly_free(&t);
    return rc;
}

PROPER_API int proper_poly_scale(proper_poly *out, const proper_poly *a, const proper_rat *c) {
    return proper__exact_poly_mul_term(out, a, NULL, c);
}

/* acc += s for polynomials in the same variables, consuming s: terms move
 * into the sum instead of being copied, so adding many partial products
 * (proper_poly_mul) costs their sizes, not copies of the growing sum. On
 * failure both are released. */
static int proper__exact_poly_absorb(proper_poly *acc, proper_poly *s) {
    proper_poly t;
    size_t i = 0, j = 0, n = acc->n_terms + s->n_terms;
    int rc;
    proper_poly_init(&t);
    t.n_vars = acc->n_vars;
    rc = proper__exact_poly_reserve(&t, n > PROPER_EXACT_MAX_TERMS ? PROPER_EXACT_MAX_TERMS : n);
    while (!rc && (i < acc->n_terms || j < s->n_terms)) {
        int cmp = i == acc->n_terms ? -1 : j == s->n_terms ? 1
                : proper__exact_mono_cmp(proper__exact_term(acc, i), proper__exact_term(s, j), t.n_vars);
        if (cmp < 0) {
            rc = proper__exact_poly_push(&t, proper__exact_term(s, j), &s->coef[j]);
            j++;
            continue;
        }
        if (cmp == 0) rc = proper_rat_add(&acc->coef[i], &acc->coef[i], &s->coef[j++]);
        if (!rc) rc = proper__exact_poly_push(&t, proper__exact_term(acc, i), &acc->coef[i]);
        i++;
    }
    /* moved coefficients were left zero (no limbs) by the push */
    proper_poly_free(acc);
    proper_poly_free(s);
    if (rc) { proper_poly_free(&t); return rc; }
    *acc = t;
    return PROPER_OK;
}

/* The largest coefficient of a in limbs, numerator and denominator
 * together (at least 1). */
static double proper__exact_poly_coef_limbs(const proper_poly *a) {
    size_t i, m = 1;
    for (i = 0; i < a->n_terms; i++) {
        size_t l = a->coef[i].num.len + a->coef[i].den.len;
        if (l > m) m = l;
    }
    return (double)m;
}

/* Estimated work of a product of polynomials with na and nb terms whose
 * coefficients have la and lb limbs (see PROPER_EXACT_MAX_WORK). */
static double proper__exact_mul_work(double na, double nb, double la, double lb) {
    return na * nb * (la + lb) * (la + lb);
}

PROPER_API int proper_poly_mul(proper_poly *out, const proper_poly *a0, const proper_poly *b0) {
    proper_poly t, s, wa, wb;
    const proper_poly *a, *b;
    size_t i;
    int rc;
    if (proper__exact_mul_work((double)a0->n_terms, (double)b0->n_terms, proper__exact_poly_coef_limbs(a0),
                               proper__exact_poly_coef_limbs(b0)) > (double)PROPER_EXACT_MAX_WORK)
        return PROPER_ELIMIT;
    proper_poly_init(&t);
    proper_poly_init(&s);
    proper_poly_init(&wa);
    proper_poly_init(&wb);
    if ((rc = proper__exact_poly_align(a0, b0, &a, &b, &wa, &wb))) goto done;
    t.n_vars = a->n_vars;
    if (a->n_terms > b->n_terms) { const proper_poly *x = a; a = b; b = x; }
    for (i = 0; i < a->n_terms; i++) {
        if ((rc = proper__exact_poly_mul_term(&s, b, proper__exact_term(a, i), &a->coef[i])) ||
            (rc = proper__exact_poly_absorb(&t, &s)))
            goto done;
    }
    proper__exact_poly_move(out, &t);
done:
    proper_poly_free(&t);
    proper_poly_free(&s);
    proper_poly_free(&wa);
    proper_poly_free(&wb);
    return rc;
}

PROPER_API int proper_poly_div_exact(proper_poly *q, const proper_poly *a0, const proper_poly *b0) {
    proper_poly t, r, s, wa, wb;
    const proper_poly *a, *b;
    uint32_t *e = NULL, k, nv;
    double work = 0.0;
    int rc;
    if (!b0->n_terms) return PROPER_EINVAL;
    if (b0->n_terms == 1 && b0->n_vars <= a0->n_vars && proper_poly_is_const(b0, NULL)) {
        /* a constant divisor (the gcd 1 of coprime parts, often): one scaling */
        proper_rat c;
        proper_rat_init(&c);
        rc = proper_rat_set_i64(&c, 1, 1);
        if (!rc) rc = proper_rat_div(&c, &c, &b0->coef[0]);
        if (!rc) rc = proper_poly_scale(q, a0, &c);
        proper_rat_free(&c);
        return rc;
    }
    proper_poly_init(&t);
    proper_poly_init(&r);
    proper_poly_init(&s);
    proper_poly_init(&wa);
    proper_poly_init(&wb);
    if ((rc = proper__exact_poly_align(a0, b0, &a, &b, &wa, &wb))) goto done;
    nv = a->n_vars;
    t.n_vars = nv;
    if (nv && !(e = (uint32_t *)PROPER_MALLOC(nv * sizeof *e))) { rc = PROPER_ENOMEM; goto done; }
    if ((rc = proper_poly_copy(&r, a))) goto done;
    while (r.n_terms) {
        proper_rat c;
        /* each step multiplies b by a term and subtracts it from r: charged
         * as a product of b and r's sizes, against PROPER_EXACT_MAX_WORK */
        work += proper__exact_mul_work((double)b->n_terms + (double)r.n_terms, 1.0, proper__exact_poly_coef_limbs(b),
                                       proper__exact_poly_coef_limbs(&r));
        if (work > (double)PROPER_EXACT_MAX_WORK) { rc = PROPER_ELIMIT; goto done; }
        /* the leading term of r over the leading term of b */
        for (k = 0; k < nv; k++) {
            if (r.exp[k] < b->exp[k]) { rc = PROPER_EINVAL; goto done; }
            e[k] = r.exp[k] - b->exp[k];
        }
        proper_rat_init(&c);
        if ((rc = proper_rat_div(&c, &r.coef[0], &b->coef[0])) ||
            (rc = proper__exact_poly_mul_term(&s, b, e, &c)) || (rc = proper_poly_sub(&r, &r, &s)) ||
            (rc = proper__exact_poly_push(&t, e, &c))) {
            proper_rat_free(&c);
            goto done;
        }
    }
    proper__exact_poly_move(q, &t);
done:
    PROPER_FREE(e);
    proper_poly_free(&t);
    proper_poly_free(&r);
    proper_poly_free(&s);
    proper_poly_free(&wa);
    proper_poly_free(&wb);
    return rc;
}

/* Scale a by the rational that makes its coefficients coprime integers with
 * a positive leading coefficient (its primitive part over the integers). */
static int proper__exact_poly_primitive(proper_poly *a) {
    proper_bigint l, g, t;
    proper_rat s;
    size_t i;
    int rc = PROPER_OK;
    if (!a->n_terms) return PROPER_OK;
    proper_bigint_init(&l);
    proper_bigint_init(&g);
    proper_bigint_init(&t);
    proper_rat_init(&s);
    if ((rc = proper_bigint_set_u64(&l, 1))) goto done;
    for (i = 0; i < a->n_terms && !rc; i++) { /* l = lcm of the denominators */
        const proper_rat *c = &a->coef[i];
        if (proper__exact_den_is_one(c)) continue;
        if (!(rc = proper_bigint_gcd(&t, &l, &c->den)) && !(rc = proper_bigint_divmod(&t, NULL, &c->den, &t)))
            rc = proper_bigint_mul(&l, &l, &t);
    }
    for (i = 0; i < a->n_terms && !rc; i++) /* g = gcd of the numerators */
        rc = proper_bigint_gcd(&g, &g, &a->coef[i].num);
    if (rc) goto done;
    /* s = l / g, with the sign of the leading coefficient */
    if ((rc = proper_bigint_copy(&s.num, &l)) || (rc = proper_bigint_copy(&s.den, &g)) ||
        (rc = proper__exact_rat_normalise(&s)))
        goto done;
    if (a->coef[0].num.neg) s.num.neg = 1;
    if (!proper_rat_is_one(&s))
        for (i = 0; i < a->n_terms && !rc; i++) rc = proper_rat_mul(&a->coef[i], &a->coef[i], &s);
done:
    proper_bigint_free(&l);
    proper_bigint_free(&g);
    proper_bigint_free(&t);
    proper_rat_free(&s);
    return rc;
}

static uint32_t proper__exact_poly_deg(const proper_poly *a, uint32_t v) {
    size_t i;
    uint32_t d = 0;
    if (v >= a->n_vars) return 0;
    for (i = 0; i < a->n_terms; i++)
        if (a->exp[i * a->n_vars + v] > d) d = a->exp[i * a->n_vars + v];
    return d;
}

/* The coefficient of x_v^k in a, as a polynomial without x_v (the term
 * order is kept: terms with the same power of x_v compare as before). */
static int proper__exact_poly_coef(proper_poly *out, const proper_poly *a, uint32_t v, uint32_t k) {
    proper_poly t;
    size_t i;
    uint32_t nv = a->n_vars, *e = NULL;
    int rc = PROPER_OK;
    proper_poly_init(&t);
    t.n_vars = nv;
    if (nv && !(e = (uint32_t *)PROPER_MALLOC(nv * sizeof *e))) return PROPER_ENOMEM;
    for (i = 0; i < a->n_terms && !rc; i++) {
        proper_rat c;
        if ((v < nv ? a->exp[i * nv + v] : 0) != k) continue;
        if (nv) memcpy(e, proper__exact_term(a, i), nv * sizeof *e);
        if (v < nv) e[v] = 0;
        proper_rat_init(&c);
        if (!(rc = proper_rat_copy(&c, &a->coef[i]))) rc = proper__exact_poly_push(&t, e, &c);
        proper_rat_free(&c);
    }
    PROPER_FREE(e);
    if (rc) { proper_poly_free(&t); return rc; }
    proper__exact_poly_move(out, &t);
    return PROPER_OK;
}

static int proper__exact_poly_gcd_rec(proper_poly *out, const proper_poly *a, const proper_poly *b, uint64_t *work);

/* The content of a with respect to x_v: the gcd of its coefficients as a
 * polynomial in x_v. */
static int proper__exact_poly_content(proper_poly *out, const proper_poly *a, uint32_t v, uint64_t *work) {
    proper_poly g, c;
    uint32_t k, d = proper__exact_poly_deg(a, v);
    int rc = PROPER_OK, first = 1;
    proper_poly_init(&g);
    proper_poly_init(&c);
    for (k = 0; k <= d && !rc; k++) {
        if ((rc = proper__exact_poly_coef(&c, a, v, k)) || !c.n_terms) continue;
        if (first) {
            rc = proper_poly_copy(&g, &c);
            first = 0;
        } else {
            rc = proper__exact_poly_gcd_rec(&g, &g, &c, work);
        }
        if (!rc && proper_poly_is_const(&g, NULL)) break; /* a unit: the content is 1 */
    }
    if (!rc) rc = proper__exact_poly_primitive(&g);
    proper_poly_free(&c);
    if (rc) { proper_poly_free(&g); return rc; }
    proper__exact_poly_move(out, &g);
    return PROPER_OK;
}

/* The primitive part of a with respect to x_v, integer-primitive too. */
static int proper__exact_poly_pp(proper_poly *out, const proper_poly *a, uint32_t v, uint64_t *work) {
    proper_poly c;
    int rc;
    proper_poly_init(&c);
    rc = proper__exact_poly_content(&c, a, v, work);
    if (!rc) rc = proper_poly_div_exact(out, a, &c);
    if (!rc) rc = proper__exact_poly_primitive(out);
    proper_poly_free(&c);
    return rc;
}

/* The largest numerator of a's coefficients, in limbs. */
static size_t proper__exact_poly_limbs(const proper_poly *a) {
    size_t i, l = 0;
    for (i = 0; i < a->n_terms; i++)
        if (a->coef[i].num.len > l) l = a->coef[i].num.len;
    return l;
}

/* Pseudo-remainder of a by b in x_v (deg_v b >= 1): r = lc(b)^k a - q b
 * with deg_v r < deg_v b; scaled to integer-primitive after each step. */
static int proper__exact_poly_prem(proper_poly *out, const proper_poly *a, const proper_poly *b, uint32_t v,
                                   uint64_t *work) {
    proper_poly r, lcb, lcr, s;
    proper_rat one;
    uint32_t db = proper__exact_poly_deg(b, v), dr, *e = NULL, nv = a->n_vars;
    int rc;
    proper_poly_init(&r);
    proper_poly_init(&lcb);
    proper_poly_init(&lcr);
    proper_poly_init(&s);
    proper_rat_init(&one);
    if (!(e = (uint32_t *)proper_calloc(nv ? nv : 1, sizeof *e))) return PROPER_ENOMEM;
    if ((rc = proper_rat_set_i64(&one, 1, 1)) || (rc = proper_poly_copy(&r, a)) ||
        (rc = proper__exact_poly_coef(&lcb, b, v, db)))
        goto done;
    while (r.n_terms && (dr = proper__exact_poly_deg(&r, v)) >= db) {
        e[v] = dr - db;
        *work += ((uint64_t)r.n_terms * lcb.n_terms + (uint64_t)b->n_terms * r.n_terms) * (1 + proper__exact_poly_limbs(&r));
        if (*work > PROPER_EXACT_MAX_GCD_WORK) { rc = PROPER_ELIMIT; goto done; }
        if ((rc = proper__exact_poly_coef(&lcr, &r, v, dr)) || (rc = proper_poly_mul(&r, &r, &lcb)) ||
            (rc = proper__exact_poly_mul_term(&s, b, e, &one)) || (rc = proper_poly_mul(&s, &s, &lcr)) ||
            (rc = proper_poly_sub(&r, &r, &s)) || (rc = proper__exact_poly_primitive(&r)))
            goto done;
    }
    proper__exact_poly_move(out, &r);
done:
    PROPER_FREE(e);
    proper_poly_free(&r);
    proper_poly_free(&lcb);
    proper_poly_free(&lcr);
    proper_poly_free(&s);
    proper_rat_free(&one);
    return rc;
}

/* The smallest variable index that occurs in a or b, or UINT32_MAX. */
static uint32_t proper__exact_poly_main_var(const proper_poly *a, const proper_poly *b) {
    uint32_t v;
    for (v = 0; v < a->n_vars; v++)
        if (proper__exact_poly_deg(a, v) || proper__exact_poly_deg(b, v)) return v;
    return UINT32_MAX;
}

/* gcd(m, b) for a single term m (b non-zero, same n_vars): the monomial of
 * the smallest exponent of each variable over m and all terms of b, with
 * coefficient 1 (no non-constant factor of a monomial is anything else). */
static int proper__exact_poly_mono_gcd(proper_poly *out, const proper_poly *m, const proper_poly *b) {
    proper_poly t;
    proper_rat one;
    uint32_t *e = NULL, u, nv = m->n_vars;
    size_t i;
    int rc;
    proper_poly_init(&t);
    proper_rat_init(&one);
    t.n_vars = nv;
    if (nv && !(e = (uint32_t *)PROPER_MALLOC(nv * sizeof *e))) return PROPER_ENOMEM;
    for (u = 0; u < nv; u++) {
        e[u] = m->exp[u];
        for (i = 0; i < b->n_terms && e[u]; i++)
            if (b->exp[i * nv + u] < e[u]) e[u] = b->exp[i * nv + u];
    }
    rc = proper_rat_set_i64(&one, 1, 1);
    if (!rc) rc = proper__exact_poly_push(&t, e, &one);
    PROPER_FREE(e);
    proper_rat_free(&one);
    if (rc) { proper_poly_free(&t); return rc; }
    proper__exact_poly_move(out, &t);
    return PROPER_OK;
}

/* ---- modular images for the gcd ----------------------------------------------
 * The gcd G of two polynomials A, B primitive in x_v has integer
 * coefficients (Gauss's lemma), and its image modulo a prime P with the
 * other variables set to values divides the images of A and B. When the
 * leading coefficients of A and B in x_v do not vanish there, neither does
 * G's (it divides them), so deg_v G <= the degree of the gcd of the two
 * univariate images. That bound proves A and B coprime when it is 0 and
 * proves B | A worth a trial division when it is deg_v B; otherwise the
 * remainder sequence decides. */
#define PROPER__EXACT_P 2147483647u /* 2^31 - 1 */
#ifndef PROPER_EXACT_MOD_MAX_DEG
#define PROPER_EXACT_MOD_MAX_DEG 65536u /* larger degrees skip the modular bound */
#endif

static uint64_t proper__exact_mod_pow(uint64_t b, uint64_t k) {
    uint64_t r = 1;
    b %= PROPER__EXACT_P;
    while (k) {
        if (k & 1) r = r * b % PROPER__EXACT_P;
        b = b * b % PROPER__EXACT_P;
        k >>= 1;
    }
    return r;
}

static uint64_t proper__exact_mod_inv(uint64_t a) { return proper__exact_mod_pow(a, PROPER__EXACT_P - 2); }

static uint64_t proper__exact_bigint_mod(const proper_bigint *a) {
    uint64_t r = 0;
    uint32_t i = a->len;
    while (i--) r = ((r << 32) | a->limb[i]) % PROPER__EXACT_P;
    return a->neg && r ? PROPER__EXACT_P - r : r;
}

/* The image of a in x_v (every other x_u at point[u]) into img[0..deg_v a];
 * 0 when a coefficient's denominator vanishes modulo P. */
static int proper__exact_poly_image(const proper_poly *a, uint32_t v, const uint64_t *point, uint64_t *img) {
    uint32_t nv = a->n_vars, u, d = proper__exact_poly_deg(a, v);
    size_t i;
    memset(img, 0, ((size_t)d + 1) * sizeof *img);
    for (i = 0; i < a->n_terms; i++) {
        const uint32_t *e = a->exp + i * nv;
        uint64_t den = proper__exact_den_is_one(&a->coef[i]) ? 1 : proper__exact_bigint_mod(&a->coef[i].den);
        uint64_t c = proper__exact_bigint_mod(&a->coef[i].num);
        if (!den) return 0;
        c = c * proper__exact_mod_inv(den) % PROPER__EXACT_P;
        for (u = 0; u < nv; u++)
            if (u != v && e[u]) c = c * proper__exact_mod_pow(point[u], e[u]) % PROPER__EXACT_P;
        img[e[v]] = (img[e[v]] + c) % PROPER__EXACT_P;
    }
    return 1;
}

/* Degree of gcd(a, b) over GF(P) for a of degree da and b of degree db
 * (leading coefficients non-zero); a and b are overwritten. */
static uint32_t proper__exact_mod_gcd_deg(uint64_t *a, uint32_t da, uint64_t *b, uint32_t db) {
    for (;;) {
        uint64_t inv;
        uint32_t i, j;
        if (!db) return 0; /* a non-zero constant */
        inv = proper__exact_mod_inv(b[db]);
        for (i = da + 1; i-- > db;) { /* a = a mod b */
            uint64_t f = a[i] * inv % PROPER__EXACT_P;
            if (!f) continue;
            for (j = 0; j <= db; j++)
                a[i - db + j] = (a[i - db + j] + PROPER__EXACT_P - f * b[j] % PROPER__EXACT_P) % PROPER__EXACT_P;
        }
        for (da = db; da-- > 0 && !a[da];) {}
        if (da == UINT32_MAX) return db; /* b divides a */
        { uint64_t *x = a; a = b; b = x; }
        { uint32_t x = da; da = db; db = x; }
    }
}

/* An upper bound on deg_v gcd(a, b) from one modular image, or UINT32_MAX
 * when the image is unusable (a leading coefficient or a denominator
 * vanishes, or the degrees are beyond PROPER_EXACT_MOD_MAX_DEG). */
static int proper__exact_gcd_deg_bound(const proper_poly *a, const proper_poly *b, uint32_t v, uint32_t *bound) {
    uint32_t da = proper__exact_poly_deg(a, v), db = proper__exact_poly_deg(b, v), u, nv = a->n_vars;
    uint64_t *ia, *ib, *point, seed = 0x9e3779b97f4a7c15ull;
    int ok;
    *bound = UINT32_MAX;
    if (da > PROPER_EXACT_MOD_MAX_DEG || db > PROPER_EXACT_MOD_MAX_DEG) return PROPER_OK;
    ia = (uint64_t *)PROPER_MALLOC(((size_t)da + 1) * sizeof *ia);
    ib = (uint64_t *)PROPER_MALLOC(((size_t)db + 1) * sizeof *ib);
    point = (uint64_t *)PROPER_MALLOC(((size_t)nv + 1) * sizeof *point);
    if (!ia || !ib || !point) {
        PROPER_FREE(ia);
        PROPER_FREE(ib);
        PROPER_FREE(point);
        return PROPER_ENOMEM;
    }
    for (u = 0; u < nv; u++) { /* fixed pseudo-random values: reproducible answers */
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        point[u] = 2 + (seed >> 33) % (PROPER__EXACT_P - 3);
    }
    ok = proper__exact_poly_image(a, v, point, ia) && proper__exact_poly_image(b, v, point, ib) && ia[da] && ib[db];
    if (ok) *bound = da >= db ? proper__exact_mod_gcd_deg(ia, da, ib, db) : proper__exact_mod_gcd_deg(ib, db, ia, da);
    PROPER_FREE(ia);
    PROPER_FREE(ib);
    PROPER_FREE(point);
    return PROPER_OK;
}

/* gcd by recursion on the variables (a and b have the same n_vars): split
 * off the contents in the smallest variable x_v, whose gcd is a gcd in
 * fewer variables, and run the primitive polynomial remainder sequence on
 * the primitive parts (Knuth, TAOCP vol. 2, 4.6.1, algorithm E). */
static int proper__exact_poly_gcd_rec(proper_poly *out, const proper_poly *a, const proper_poly *b, uint64_t *work) {
    proper_poly ca, cb, pa, pb, r, c;
    uint32_t v, bound;
    int rc = PROPER_OK;
    if (!a->n_terms || !b->n_terms) {
        if ((rc = proper_poly_copy(out, a->n_terms ? a : b))) return rc;
        return proper__exact_poly_primitive(out);
    }
    if (a->n_terms == 1) return proper__exact_poly_mono_gcd(out, a, b);
    if (b->n_terms == 1) return proper__exact_poly_mono_gcd(out, b, a);
    v = proper__exact_poly_main_var(a, b);
    if (v == UINT32_MAX) { /* two non-zero constants */
        proper_rat one;
        proper_rat_init(&one);
        if (!(rc = proper_rat_set_i64(&one, 1, 1))) {
            uint32_t nv = a->n_vars;
            rc = proper_poly_set_rat(out, &one);
            out->n_vars = 0;
            if (!rc && nv) rc = proper__exact_poly_widen(out, out, nv);
        }
        proper_rat_free(&one);
        return rc;
    }
    proper_poly_init(&ca);
    proper_poly_init(&cb);
    proper_poly_init(&pa);
    proper_poly_init(&pb);
    proper_poly_init(&r);
    proper_poly_init(&c);
    if (!proper__exact_poly_deg(a, v) || !proper__exact_poly_deg(b, v)) {
        /* one of them is free of x_v: the gcd divides the other's content */
        const proper_poly *free_of_v = proper__exact_poly_deg(a, v) ? b : a;
        const proper_poly *with_v = free_of_v == a ? b : a;
        if (!(rc = proper__exact_poly_content(&cb, with_v, v, work)))
            rc = proper__exact_poly_gcd_rec(&c, free_of_v, &cb, work);
        goto finish;
    }
    if ((rc = proper__exact_poly_content(&ca, a, v, work)) || (rc = proper__exact_poly_content(&cb, b, v, work)) ||
        (rc = proper_poly_div_exact(&pa, a, &ca)) || (rc = proper_poly_div_exact(&pb, b, &cb)) ||
        (rc = proper__exact_poly_gcd_rec(&c, &ca, &cb, work)))
        goto finish;
    if (proper__exact_poly_deg(&pa, v) < proper__exact_poly_deg(&pb, v)) {
        proper_poly x = pa;
        pa = pb;
        pb = x;
    }
    if ((rc = proper__exact_gcd_deg_bound(&pa, &pb, v, &bound))) goto finish;
    if (bound == 0) { /* coprime primitive parts */
        proper_poly_free(&pb);
        goto finish_pp;
    }
    if (bound == proper__exact_poly_deg(&pb, v)) { /* pb may divide pa */
        rc = proper_poly_div_exact(&r, &pa, &pb);
        if (rc != PROPER_EINVAL) goto finish_pp;
        rc = PROPER_OK;
    }
    for (;;) {
        if ((rc = proper__exact_poly_prem(&r, &pa, &pb, v, work))) goto finish;
        if (!r.n_terms) break;                        /* pb is the gcd of the primitive parts */
        if (!proper__exact_poly_deg(&r, v)) {         /* coprime primitive parts */
            proper_poly_free(&pb);
            break;
        }
        proper_poly_free(&pa);
        pa = pb;
        proper_poly_init(&pb);
        if ((rc = proper__exact_poly_pp(&pb, &r, v, work))) goto finish;
    }
finish_pp:
    if (!rc && pb.n_terms) {
        if ((rc = proper__exact_poly_pp(&pb, &pb, v, work)) || (rc = proper_poly_mul(&c, &c, &pb))) goto finish;
    }
finish:
    if (!rc) rc = proper__exact_poly_primitive(&c);
    if (!rc) proper__exact_poly_move(out, &c);
    proper_poly_free(&ca);
    proper_poly_free(&cb);
    proper_poly_free(&pa);
    proper_poly_free(&pb);
    proper_poly_free(&r);
    proper_poly_free(&c);
    return rc;
}

PROPER_API int proper_poly_gcd(proper_poly *out, const proper_poly *a0, const proper_poly *b0) {
    proper_poly wa, wb;
    uint64_t work = 0;
    const proper_poly *a, *b;
    int rc;
    proper_poly_init(&wa);
    proper_poly_init(&wb);
    rc = proper__exact_poly_align(a0, b0, &a, &b, &wa, &wb);
    if (!rc) rc = proper__exact_poly_gcd_rec(out, a, b, &work);
    proper_poly_free(&wa);
    proper_poly_free(&wb);
    return rc;
}

PROPER_API int proper_poly_deriv(proper_poly *out, const proper_poly *a, uint32_t var) {
    proper_poly t;
    size_t i;
    uint32_t nv = a->n_vars, *e = NULL;
    int rc = PROPER_OK;
    proper_poly_init(&t);
    t.n_vars = nv;
    if (var < nv) {
        if (!(e = (uint32_t *)PROPER_MALLOC(nv * sizeof *e))) return PROPER_ENOMEM;
        for (i = 0; i < a->n_terms && !rc; i++) {
            proper_rat c, k;
            uint32_t p = a->exp[i * nv + var];
            if (!p) continue;
            memcpy(e, proper__exact_term(a, i), nv * sizeof *e);
            e[var] = p - 1;
            proper_rat_init(&c);
            proper_rat_init(&k);
            if (!(rc = proper_rat_set_i64(&k, p, 1)) && !(rc = proper_rat_mul(&c, &a->coef[i], &k)))
                rc = proper__exact_poly_push(&t, e, &c); /* monomial orders are shift-invariant */
            proper_rat_free(&c);
            proper_rat_free(&k);
        }
        PROPER_FREE(e);
    }
    if (rc) { proper_poly_free(&t); return rc; }
    proper__exact_poly_move(out, &t);
    return PROPER_OK;
}

PROPER_API double proper_poly_eval_double(const proper_poly *a, const double *point, size_t n_point) {
    double s = 0;
    size_t i;
    uint32_t k;
    for (i = 0; i < a->n_terms; i++) {
        double t = proper_rat_to_double(&a->coef[i]);
        for (k = 0; k < a->n_vars; k++) {
            uint32_t p = a->exp[i * a->n_vars + k];
            if (p) t *= k < n_point ? pow(point[k], (double)p) : NAN;
        }
        s += t;
    }
    return s;
}

PROPER_API int proper_poly_eval_rat(proper_rat *out, const proper_poly *a, const proper_rat *point, size_t n_point) {
    proper_rat s, t, x;
    size_t i;
    uint32_t k;
    int rc = PROPER_OK;
    if (a->n_vars > n_point) {
        for (i = 0; i < a->n_terms; i++)
            for (k = (uint32_t)n_point; k < a->n_vars; k++)
                if (a->exp[i * a->n_vars + k]) return PROPER_EINVAL;
    }
    proper_rat_init(&s);
    proper_rat_init(&t);
    proper_rat_init(&x);
    for (i = 0; i < a->n_terms && !rc; i++) {
        rc = proper_rat_copy(&t, &a->coef[i]);
        for (k = 0; k < a->n_vars && !rc; k++) {
            uint32_t p = a->exp[i * a->n_vars + k];
            if (!p) continue;
            if (!(rc = proper_rat_pow(&x, &point[k], p))) rc = proper_rat_mul(&t, &t, &x);
        }
        if (!rc) rc = proper_rat_add(&s, &s, &t);
    }
    proper_rat_free(&t);
    proper_rat_free(&x);
    if (rc) { proper_rat_free(&s); return rc; }
    proper__exact_rat_move(out, &s);
    return PROPER_OK;
}

/* ---- rational functions ---------------------------------------------------------- */

PROPER_API void proper_ratfun_init(proper_ratfun *f) {
    proper_poly_init(&f->num);
    proper_poly_init(&f->den);
}

PROPER_API void proper_ratfun_free(proper_ratfun *f) {
    proper_poly_free(&f->num);
    proper_poly_free(&f->den);
}

static void proper__exact_ratfun_move(proper_ratfun *out, proper_ratfun *t) {
    proper_ratfun_free(out);
    *out = *t;
    proper_ratfun_init(t);
}

PROPER_API int proper_ratfun_copy(proper_ratfun *out, const proper_ratfun *a) {
    int rc;
    if (out == a) return PROPER_OK;
    if ((rc = proper_poly_copy(&out->num, &a->num))) return rc;
    return proper_poly_copy(&out->den, &a->den);
}

/* The denominator, with the implicit 1 of an empty one made explicit in
 * *one (which the caller frees). */
static int proper__exact_ratfun_den(const proper_ratfun *a, proper_poly *one, const proper_poly **den) {
    proper_rat c;
    int rc;
    *den = &a->den;
    if (a->den.n_terms) return PROPER_OK;
    proper_rat_init(&c);
    rc = proper_rat_set_i64(&c, 1, 1);
    if (!rc) rc = proper_poly_set_rat(one, &c);
    proper_rat_free(&c);
    *den = one;
    return rc;
}

/* out = num / den in canonical form: common factors removed, den monic
 * (leading coefficient 1), a constant den folded into num (den empty).
 * Every common factor of num and den divides *cancel (den itself when
 * nothing better is known; NULL when num and den are known coprime), so
 * gcd(num, *cancel) is the one to remove. */
static int proper__exact_ratfun_make(proper_ratfun *out, proper_poly *num, proper_poly *den,
                                     const proper_poly *cancel) {
    proper_ratfun t;
    proper_rat lc;
    proper_poly g;
    int rc = PROPER_OK;
    if (!den->n_terms) return PROPER_EINVAL;
    proper_ratfun_init(&t);
    proper_rat_init(&lc);
    proper_poly_init(&g);
    if (!num->n_terms) goto finish;
    if (cancel && !proper_poly_is_const(num, NULL) && !proper_poly_is_const(cancel, NULL)) {
        if ((rc = proper_poly_gcd(&g, num, cancel))) goto finish;
        if (!proper_poly_is_const(&g, NULL)) {
            if ((rc = proper_poly_div_exact(num, num, &g)) || (rc = proper_poly_div_exact(den, den, &g))) goto finish;
        }
    }
    if ((rc = proper_rat_copy(&lc, &den->coef[0]))) goto finish;
    if (proper_poly_is_const(den, NULL)) {
        if ((rc = proper_rat_div(&lc, &lc, &lc)) || (rc = proper_rat_div(&lc, &lc, &den->coef[0]))) goto finish;
        if ((rc = proper_poly_scale(&t.num, num, &lc))) goto finish;
    } else {
        if ((rc = proper_rat_div(&lc, &lc, &lc)) || (rc = proper_rat_div(&lc, &lc, &den->coef[0])) ||
            (rc = proper_poly_scale(&t.num, num, &lc)) || (rc = proper_poly_scale(&t.den, den, &lc)))
            goto finish;
    }
finish:
    proper_rat_free(&lc);
    proper_poly_free(&g);
    if (rc) { proper_ratfun_free(&t); return rc; }
    proper__exact_ratfun_move(out, &t);
    return PROPER_OK;
}

PROPER_API int proper_ratfun_set_polys(proper_ratfun *out, const proper_poly *num, const proper_poly *den) {
    proper_poly n, d;
    int rc;
    proper_poly_init(&n);
    proper_poly_init(&d);
    rc = proper_poly_copy(&n, num);
    if (!rc) rc = proper_poly_copy(&d, den);
    if (!rc) rc = proper__exact_ratfun_make(out, &n, &d, &d);
    proper_poly_free(&n);
    proper_poly_free(&d);
    return rc;
}

PROPER_API int proper_ratfun_set_rat(proper_ratfun *out, const proper_rat *c) {
    proper_ratfun t;
    int rc;
    proper_ratfun_init(&t);
    if ((rc = proper_poly_set_rat(&t.num, c))) { proper_ratfun_free(&t); return rc; }
    proper__exact_ratfun_move(out, &t);
    return PROPER_OK;
}

PROPER_API int proper_ratfun_set_var(proper_ratfun *out, uint32_t var, uint32_t n_vars) {
    proper_ratfun t;
    int rc;
    proper_ratfun_init(&t);
    if ((rc = proper_poly_set_var(&t.num, var, n_vars))) { proper_ratfun_free(&t); return rc; }
    proper__exact_ratfun_move(out, &t);
    return PROPER_OK;
}

PROPER_API int proper_ratfun_is_zero(const proper_ratfun *a) { return a->num.n_terms == 0; }

PROPER_API int proper_ratfun_is_const(const proper_ratfun *a, proper_rat *c) {
    return a->den.n_terms == 0 && proper_poly_is_const(&a->num, c);
}

PROPER_API int proper_ratfun_equal(const proper_ratfun *a, const proper_ratfun *b) {
    return proper_poly_equal(&a->num, &b->num) && proper_poly_equal(&a->den, &b->den);
}

/* out = a + sign b by Henrici's method (Knuth, TAOCP vol. 2, 4.5.1): with
 * g = gcd(da, db), a/da + b/db = (a (db/g) + b (da/g)) / (da (db/g)), and
 * since a, da and b, db are coprime pairs, every common factor of that
 * numerator and denominator divides g. */
static int proper__exact_ratfun_addsub(proper_ratfun *out, const proper_ratfun *a, const proper_ratfun *b, int sign) {
    proper_poly n, d, x, g, ca, cb, o1, o2;
    const proper_poly *da, *db;
    int rc;
    proper_poly_init(&n);
    proper_poly_init(&d);
    proper_poly_init(&x);
    proper_poly_init(&g);
    proper_poly_init(&ca);
    proper_poly_init(&cb);
    proper_poly_init(&o1);
    proper_poly_init(&o2);
    if ((rc = proper__exact_ratfun_den(a, &o1, &da)) || (rc = proper__exact_ratfun_den(b, &o2, &db))) goto done;
    if (proper_poly_equal(da, db)) { /* a common denominator: no products */
        rc = sign > 0 ? proper_poly_add(&n, &a->num, &b->num) : proper_poly_sub(&n, &a->num, &b->num);
        if (!rc) rc = proper_poly_copy(&d, da);
        if (!rc) rc = proper__exact_ratfun_make(out, &n, &d, &d);
        goto done;
    }
    if ((rc = proper_poly_gcd(&g, da, db)) || (rc = proper_poly_div_exact(&ca, da, &g)) ||
        (rc = proper_poly_div_exact(&cb, db, &g)))
        goto done;
    rc = proper_poly_mul(&n, &a->num, &cb);
    if (!rc) rc = proper_poly_mul(&x, &b->num, &ca);
    if (!rc) rc = sign > 0 ? proper_poly_add(&n, &n, &x) : proper_poly_sub(&n, &n, &x);
    if (!rc) rc = proper_poly_mul(&d, da, &cb);
    if (!rc) rc = proper__exact_ratfun_make(out, &n, &d, &g);
done:
    proper_poly_free(&n);
    proper_poly_free(&d);
    proper_poly_free(&x);
    proper_poly_free(&g);
    proper_poly_free(&ca);
    proper_poly_free(&cb);
    proper_poly_free(&o1);
    proper_poly_free(&o2);
    return rc;
}

PROPER_API int proper_ratfun_add(proper_ratfun *out, const proper_ratfun *a, const proper_ratfun *b) {
    return proper__exact_ratfun_addsub(out, a, b, 1);
}

PROPER_API int proper_ratfun_sub(proper_ratfun *out, const proper_ratfun *a, const proper_ratfun *b) {
    return proper__exact_ratfun_addsub(out, a, b, -1);
}

/* out = (an / ad) (bn / bd) for coprime pairs an, ad and bn, bd: the
 * cross gcds g1 = gcd(an, bd) and g2 = gcd(bn, ad) are all the two
 * products can have in common, and they are smaller than the gcd of the
 * products. */
static int proper__exact_ratfun_mul_parts(proper_ratfun *out, const proper_poly *an, const proper_poly *ad,
                                          const proper_poly *bn, const proper_poly *bd) {
    proper_poly n, d, x, g1, g2;
    int rc;
    if (!bd->n_terms) return PROPER_EINVAL;
    proper_poly_init(&n);
    proper_poly_init(&d);
    proper_poly_init(&x);
    proper_poly_init(&g1);
    proper_poly_init(&g2);
    if (!an->n_terms || !bn->n_terms) { /* zero */
        rc = proper_poly_copy(&d, bd);
        if (!rc) rc = proper__exact_ratfun_make(out, &n, &d, NULL);
        goto done;
    }
    if ((rc = proper_poly_gcd(&g1, an, bd)) || (rc = proper_poly_gcd(&g2, bn, ad)) ||
        (rc = proper_poly_div_exact(&n, an, &g1)) || (rc = proper_poly_div_exact(&x, bn, &g2)) ||
        (rc = proper_poly_mul(&n, &n, &x)) || (rc = proper_poly_div_exact(&d, ad, &g2)) ||
        (rc = proper_poly_div_exact(&x, bd, &g1)) || (rc = proper_poly_mul(&d, &d, &x)))
        goto done;
    rc = proper__exact_ratfun_make(out, &n, &d, NULL);
done:
    proper_poly_free(&n);
    proper_poly_free(&d);
    proper_poly_free(&x);
    proper_poly_free(&g1);
    proper_poly_free(&g2);
    return rc;
}

PROPER_API int proper_ratfun_mul(proper_ratfun *out, const proper_ratfun *a, const proper_ratfun *b) {
    proper_poly o1, o2;
    const proper_poly *da, *db;
    int rc;
    if (!a->den.n_terms && !b->den.n_terms) { /* two polynomials: nothing to cancel */
        proper_ratfun t;
        proper_ratfun_init(&t);
        if ((rc = proper_poly_mul(&t.num, &a->num, &b->num))) { proper_ratfun_free(&t); return rc; }
        proper__exact_ratfun_move(out, &t);
        return PROPER_OK;
    }
    proper_poly_init(&o1);
    proper_poly_init(&o2);
    rc = proper__exact_ratfun_den(a, &o1, &da);
    if (!rc) rc = proper__exact_ratfun_den(b, &o2, &db);
    if (!rc) rc = proper__exact_ratfun_mul_parts(out, &a->num, da, &b->num, db);
    proper_poly_free(&o1);
    proper_poly_free(&o2);
    return rc;
}

PROPER_API int proper_ratfun_div(proper_ratfun *out, const proper_ratfun *a, const proper_ratfun *b) {
    proper_poly o1, o2;
    const proper_poly *da, *db;
    int rc;
    if (!b->num.n_terms) return PROPER_EINVAL;
    proper_poly_init(&o1);
    proper_poly_init(&o2);
    rc = proper__exact_ratfun_den(a, &o1, &da);
    if (!rc) rc = proper__exact_ratfun_den(b, &o2, &db);
    if (!rc) rc = proper__exact_ratfun_mul_parts(out, &a->num, da, db, &b->num);
    proper_poly_free(&o1);
    proper_poly_free(&o2);
    return rc;
}

PROPER_API int proper_ratfun_neg(proper_ratfun *out, const proper_ratfun *a) {
    proper_rat m;
    int rc;
    proper_rat_init(&m);
    rc = proper_rat_set_i64(&m, -1, 1);
    if (!rc) rc = proper_ratfun_copy(out, a);
    if (!rc) rc = proper_poly_scale(&out->num, &out->num, &m);
    proper_rat_free(&m);
    return rc;
}

/* Whether a^k certainly holds an integer beyond PROPER_EXACT_MAX_LIMBS:
 * the largest and the smallest monomial of a power are the powers of a's
 * (in any monomial order), with the k-th powers of their coefficients, so
 * those coefficients' numerators and denominators grow to at least k (b - 1)
 * + 1 bits from b. Checked before the work that would fail anyway. */
static int proper__exact_poly_pow_too_big(const proper_poly *a, unsigned k) {
    const double limit = 32.0 * PROPER_EXACT_MAX_LIMBS;
    size_t ends[2], i;
    if (!a->n_terms || k < 2) return 0;
    ends[0] = 0;
    ends[1] = a->n_terms - 1;
    for (i = 0; i < 2; i++) {
        const proper_rat *c = &a->coef[ends[i]];
        double bn = (double)proper__exact_bitlen(&c->num), bd = c->den.len ? (double)proper__exact_bitlen(&c->den) : 1;
        if ((double)k * (bn - 1) + 1 > limit || (double)k * (bd - 1) + 1 > limit) return 1;
    }
    return 0;
}

/* A bound on the terms of a^j: the products of j of a's n terms are at
 * most the multisets of j terms, C(j + n - 1, j), and at most the exponent
 * vectors with each variable's exponent up to j times its degree in a. */
static double proper__exact_pow_terms(const proper_poly *a, double j) {
    double n = (double)a->n_terms, lo = j < n - 1 ? j : n - 1, hi = j < n - 1 ? n - 1 : j, multisets = 1, vectors = 1, i;
    uint32_t v;
    size_t t;
    for (i = 1; i <= lo && multisets < 1e30; i++) multisets = multisets * (hi + i) / i; /* C(hi + lo, lo) */
    for (v = 0; v < a->n_vars; v++) {
        uint32_t deg = 0;
        for (t = 0; t < a->n_terms; t++)
            if (a->exp[t * a->n_vars + v] > deg) deg = a->exp[t * a->n_vars + v];
        vectors *= j * deg + 1;
    }
    return multisets < vectors ? multisets : vectors;
}

/* Estimated work (PROPER_EXACT_MAX_WORK) of a^k by the square-and-multiply
 * of proper_ratfun_pow, from the bounds on the terms of each partial power
 * a^j and the estimate j limbs(a) of its coefficients (the coefficients of
 * a^j are products of j of a's). */
static double proper__exact_pow_work(const proper_poly *a, unsigned k) {
    double work = 0, la = proper__exact_poly_coef_limbs(a), jacc = 0, jbase = 1;
    if (!a->n_terms) return 0;
    while (k) {
        double tb = proper__exact_pow_terms(a, jbase);
        if (k & 1) {
            if (jacc > 0) work += proper__exact_mul_work(proper__exact_pow_terms(a, jacc), tb, jacc * la, jbase * la);
            jacc += jbase;
        }
        k >>= 1;
        if (k) work += proper__exact_mul_work(tb, tb, jbase * la, jbase * la);
        jbase *= 2;
    }
    return work;
}

/* Why a^k is refused before any product (NULL: it is not). */
static const char *proper__exact_pow_refusal(const proper_ratfun *a, unsigned k) {
    if (proper__exact_poly_pow_too_big(&a->num, k) || proper__exact_poly_pow_too_big(&a->den, k))
        return "power whose coefficients must exceed PROPER_EXACT_MAX_LIMBS";
    if (proper__exact_pow_work(&a->num, k) + proper__exact_pow_work(&a->den, k) > (double)PROPER_EXACT_MAX_WORK)
        return "power whose estimated work exceeds PROPER_EXACT_MAX_WORK";
    return NULL;
}

PROPER_API int proper_ratfun_pow(proper_ratfun *out, const proper_ratfun *a, unsigned k) {
    proper_ratfun base, acc;
    proper_rat one;
    int rc;
    if (proper__exact_pow_refusal(a, k)) return PROPER_ELIMIT;
    proper_ratfun_init(&base);
    proper_ratfun_init(&acc);
    proper_rat_init(&one);
    rc = proper_rat_set_i64(&one, 1, 1);
    if (!rc) rc = proper_ratfun_set_rat(&acc, &one);
    if (!rc) rc = proper_ratfun_copy(&base, a);
    while (!rc && k) {
        if (k & 1) rc = proper_ratfun_mul(&acc, &acc, &base);
        k >>= 1;
        if (!rc && k) rc = proper_ratfun_mul(&base, &base, &base);
    }
    proper_ratfun_free(&base);
    proper_rat_free(&one);
    if (rc) { proper_ratfun_free(&acc); return rc; }
    proper__exact_ratfun_move(out, &acc);
    return PROPER_OK;
}

PROPER_API int proper_ratfun_deriv(proper_ratfun *out, const proper_ratfun *a, uint32_t var) {
    proper_poly dn, dd, x, y, d2, o;
    const proper_poly *den;
    int rc;
    proper_poly_init(&dn);
    proper_poly_init(&dd);
    proper_poly_init(&x);
    proper_poly_init(&y);
    proper_poly_init(&d2);
    proper_poly_init(&o);
    /* (n/d)' = (n' d - n d') / d^2 */
    rc = proper__exact_ratfun_den(a, &o, &den);
    if (!rc) rc = proper_poly_deriv(&dn, &a->num, var);
    if (!rc) rc = proper_poly_deriv(&dd, den, var);
    if (!rc) rc = proper_poly_mul(&x, &dn, den);
    if (!rc) rc = proper_poly_mul(&y, &a->num, &dd);
    if (!rc) rc = proper_poly_sub(&x, &x, &y);
    if (!rc) rc = proper_poly_mul(&d2, den, den);
    if (!rc) rc = proper__exact_ratfun_make(out, &x, &d2, &d2);
    proper_poly_free(&dn);
    proper_poly_free(&dd);
    proper_poly_free(&x);
    proper_poly_free(&y);
    proper_poly_free(&d2);
    proper_poly_free(&o);
    return rc;
}

PROPER_API double proper_ratfun_eval_double(const proper_ratfun *a, const double *point, size_t n_point) {
    double n = proper_poly_eval_double(&a->num, point, n_point);
    double d = a->den.n_terms ? proper_poly_eval_double(&a->den, point, n_point) : 1.0;
    return d == 0 ? NAN : n / d;
}

PROPER_API int proper_ratfun_eval_rat(proper_rat *out, const proper_ratfun *a, const proper_rat *point, size_t n_point) {
    proper_rat n, d;
    int rc;
    proper_rat_init(&n);
    proper_rat_init(&d);
    rc = proper_poly_eval_rat(&n, &a->num, point, n_point);
    if (!rc) rc = a->den.n_terms ? proper_poly_eval_rat(&d, &a->den, point, n_point) : proper_rat_set_i64(&d, 1, 1);
    if (!rc) rc = proper_rat_div(out, &n, &d);
    proper_rat_free(&n);
    proper_rat_free(&d);
    return rc;
}

/* Append one polynomial with integer coefficients as PRISM writes it
 * (JasFunction.jasPoly2expr: the first positive term first, the others in
 * order, joined by + and -). *sum_out is set when it has several terms and
 * *product_out when it is one term with two or more factors. */
static void proper__exact_poly_format(const proper_poly *p, const char *const *names, proper_strbuf *b,
                                      int *sum_out, int *product_out) {
    size_t i, first = 0;
    *sum_out = p->n_terms > 1;
    *product_out = 0;
    if (!p->n_terms) { proper_strbuf_puts(b, "0"); return; }
    for (i = 0; i < p->n_terms; i++)
        if (proper_rat_sign(&p->coef[i]) > 0) { first = i; break; }
    for (i = 0; i < p->n_terms; i++) {
        size_t t = i == 0 ? first : (i <= first ? i - 1 : i);
        const proper_rat *c = &p->coef[t];
        int neg = proper_rat_sign(c) < 0, unit = c->num.len == 1 && c->num.limb[0] == 1, nfac = 0;
        uint32_t k;
        proper_bigint mag = c->num;
        mag.neg = 0;
        for (k = 0; k < p->n_vars; k++) nfac += p->exp[t * p->n_vars + k] != 0;
        if (i > 0) proper_strbuf_puts(b, neg ? "-" : "+");
        else if (neg && nfac) proper_strbuf_puts(b, "-");
        if (i == 0 && neg && !nfac) proper_strbuf_puts(b, "-");
        if (!nfac) {
            proper_bigint_format(&mag, b);
            continue;
        }
        if (!unit) proper_bigint_format(&mag, b);
        /* PRISM negates a lone first monomial x*y with a unary minus: -(x*y) */
        if (i == 0 && neg && unit && nfac > 1) proper_strbuf_puts(b, "(");
        {
            int printed = 0;
            for (k = 0; k < p->n_vars; k++) {
                uint32_t e = p->exp[t * p->n_vars + k];
                if (!e) continue;
                if (printed || !unit) proper_strbuf_puts(b, "*");
                proper_strbuf_puts(b, names && names[k] ? names[k] : "?");
                if (e > 1) proper_strbuf_printf(b, "^%lu", (unsigned long)e);
                printed = 1;
            }
        }
        if (i == 0 && neg && unit && nfac > 1) proper_strbuf_puts(b, ")");
        if (p->n_terms == 1) *product_out = nfac + !unit > 1;
    }
}

PROPER_API void proper_ratfun_format(const proper_ratfun *a, const char *const *names, proper_strbuf *b) {
    proper_poly n, d, all;
    int rc, nsum, nprod, dsum, dprod;
    size_t i;
    proper_strbuf nb, db;
    proper_poly_init(&n);
    proper_poly_init(&d);
    proper_poly_init(&all);
    proper_strbuf_init(&nb);
    proper_strbuf_init(&db);
    /* scale numerator and denominator by the one positive rational that
     * makes all their coefficients coprime integers (PRISM's form) */
    rc = a->den.n_terms ? proper_poly_copy(&d, &a->den) : PROPER_OK;
    if (!rc && !a->den.n_terms) {
        proper_rat one;
        proper_rat_init(&one);
        rc = proper_rat_set_i64(&one, 1, 1);
        if (!rc) rc = proper_poly_set_rat(&d, &one);
        proper_rat_free(&one);
    }
    if (!rc) rc = proper_poly_copy(&n, &a->num);
    if (!rc) rc = proper_poly_copy(&all, &d);
    for (i = 0; !rc && i < n.n_terms; i++) { /* a coefficient list of both (order irrelevant) */
        proper_rat c;
        proper_rat_init(&c);
        all.n_vars = 0;
        if (!(rc = proper_rat_copy(&c, &n.coef[i]))) rc = proper__exact_poly_reserve(&all, all.n_terms + 1);
        if (!rc) all.coef[all.n_terms++] = c;
        else proper_rat_free(&c);
    }
    if (!rc) {
        proper_rat s;
        proper_rat_init(&s);
        rc = proper_rat_copy(&s, &all.coef[0]);
        /* all.coef[0] is d's leading coefficient, positive: primitive() keeps its sign */
        if (!rc) rc = proper__exact_poly_primitive(&all);
        if (!rc) rc = proper_rat_div(&s, &all.coef[0], &s);
        if (!rc) rc = proper_poly_scale(&n, &n, &s);
        if (!rc) rc = proper_poly_scale(&d, &d, &s);
        proper_rat_free(&s);
    }
    if (rc) {
        b->failed = 1;
    } else {
        proper__exact_poly_format(&n, names, &nb, &nsum, &nprod);
        proper__exact_poly_format(&d, names, &db, &dsum, &dprod);
        if (d.n_terms == 1 && proper_rat_is_one(&d.coef[0]) && proper_poly_is_const(&d, NULL)) {
            proper_strbuf_puts(b, nb.data);
        } else {
            if (nsum) proper_strbuf_printf(b, "(%s)", nb.data);
            else proper_strbuf_puts(b, nb.data);
            if (dsum || dprod) proper_strbuf_printf(b, "/(%s)", db.data);
            else proper_strbuf_printf(b, "/%s", db.data);
        }
        if (nb.failed || db.failed) b->failed = 1;
    }
    proper_poly_free(&n);
    proper_poly_free(&d);
    proper_poly_free(&all);
    proper_strbuf_free(&nb);
    proper_strbuf_free(&db);
}

/* ---- rational-function expressions -------------------------------------------------- */

#define PROPER__EXACT_MAX_DEPTH 200

typedef struct proper__exact_parser {
    const char *text, *name;
    size_t len, pos;
    const char *const *names;
    size_t n_names;
    int depth;
    proper_error *err;
} proper__exact_parser;

static int proper__exact_perr(proper__exact_parser *p, int code, size_t at, const char *msg) {
    int line = 1, col = 1;
    size_t i;
    for (i = 0; i < at && i < p->len; i++) {
        if (p->text[i] == '\n') { line++; col = 1; } else { col++; }
    }
    return proper_error_set(p->err, code, p->name, line, col, "%s", msg);
}

static void proper__exact_pskip(proper__exact_parser *p) { p->pos = proper__exact_skip_blanks(p->text, p->len, p->pos); }

static int proper__exact_parse_sum(proper__exact_parser *p, proper_ratfun *out);

static int proper__exact_is_ident(char c, int first) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!first && proper__exact_is_digit(c));
}

static int proper__exact_parse_primary(proper__exact_parser *p, proper_ratfun *out) {
    size_t at;
    int rc;
    proper__exact_pskip(p);
    at = p->pos;
    if (at >= p->len) return proper__exact_perr(p, PROPER_EPARSE, at, "expected a number, a name or '('");
    if (p->text[at] == '(') {
        p->pos++;
        if ((rc = proper__exact_parse_sum(p, out))) return rc;
        proper__exact_pskip(p);
        if (p->pos >= p->len || p->text[p->pos] != ')') return proper__exact_perr(p, PROPER_EPARSE, p->pos, "expected ')'");
        p->pos++;
        return PROPER_OK;
    }
    if (proper__exact_is_digit(p->text[at]) || p->text[at] == '.') {
        proper_rat c;
        proper_rat_init(&c);
        rc = proper__exact_decimal(&c, p->text, p->len, &p->pos, p->name, 1, 1, NULL);
        if (rc) {
            proper_rat_free(&c);
            return proper__exact_perr(p, rc, at, rc == PROPER_EPARSE ? "expected a number" : "number out of range");
        }
        rc = proper_ratfun_set_rat(out, &c);
        proper_rat_free(&c);
        return rc ? proper__exact_perr(p, rc, at, "out of memory") : PROPER_OK;
    }
    if (proper__exact_is_ident(p->text[at], 1)) {
        size_t end = at, k;
        while (end < p->len && proper__exact_is_ident(p->text[end], 0)) end++;
        for (k = 0; k < p->n_names; k++)
            if (strlen(p->names[k]) == end - at && memcmp(p->names[k], p->text + at, end - at) == 0) break;
        if (k == p->n_names) return proper__exact_perr(p, PROPER_EUNDEFINED, at, "unknown parameter name");
        p->pos = end;
        rc = proper_ratfun_set_var(out, (uint32_t)k, (uint32_t)p->n_names);
        return rc ? proper__exact_perr(p, rc, at, "out of memory") : PROPER_OK;
    }
    return proper__exact_perr(p, PROPER_EPARSE, at, "expected a number, a name or '('");
}

/* power := primary ('^' integer)? */
static int proper__exact_parse_power(proper__exact_parser *p, proper_ratfun *out) {
    int rc = proper__exact_parse_primary(p, out);
    if (rc) return rc;
    proper__exact_pskip(p);
    if (p->pos < p->len && p->text[p->pos] == '^') {
        unsigned long k = 0;
        size_t at;
        const char *why;
        p->pos++;
        proper__exact_pskip(p);
        at = p->pos;
        if (at >= p->len || !proper__exact_is_digit(p->text[at]))
            return proper__exact_perr(p, PROPER_EPARSE, at, "expected a non-negative integer power");
        while (p->pos < p->len && proper__exact_is_digit(p->text[p->pos])) {
            if (k <= PROPER_EXACT_MAX_POWER) k = k * 10 + (unsigned long)(p->text[p->pos] - '0');
            p->pos++;
        }
        if (k > PROPER_EXACT_MAX_POWER) return proper__exact_perr(p, PROPER_ELIMIT, at, "power above PROPER_EXACT_MAX_POWER");
        if ((why = proper__exact_pow_refusal(out, (unsigned)k))) return proper__exact_perr(p, PROPER_ELIMIT, at, why);
        if ((rc = proper_ratfun_pow(out, out, (unsigned)k))) return proper__exact_perr(p, rc, at, "result too large");
    }
    return PROPER_OK;
}

/* unary := '-' unary | '+' unary | power */
static int proper__exact_parse_unary(proper__exact_parser *p, proper_ratfun *out) {
    int rc;
    proper__exact_pskip(p);
    if (++p->depth > PROPER__EXACT_MAX_DEPTH)
        return proper__exact_perr(p, PROPER_ELIMIT, p->pos, "expression nested too deeply");
    if (p->pos < p->len && (p->text[p->pos] == '-' || p->text[p->pos] == '+')) {
        int neg = p->text[p->pos++] == '-';
        rc = proper__exact_parse_unary(p, out);
        if (!rc && neg && (rc = proper_ratfun_neg(out, out))) rc = proper__exact_perr(p, rc, p->pos, "out of memory");
    } else {
        rc = proper__exact_parse_power(p, out);
    }
    p->depth--;
    return rc;
}

/* product := unary (('*' | '/') unary)* */
static int proper__exact_parse_product(proper__exact_parser *p, proper_ratfun *out) {
    proper_ratfun r;
    int rc = proper__exact_parse_unary(p, out);
    proper_ratfun_init(&r);
    while (!rc) {
        char op;
        size_t at;
        proper__exact_pskip(p);
        if (p->pos >= p->len || (p->text[p->pos] != '*' && p->text[p->pos] != '/')) break;
        at = p->pos;
        op = p->text[p->pos++];
        if ((rc = proper__exact_parse_unary(p, &r))) break;
        if (op == '/' && proper_ratfun_is_zero(&r)) {
            rc = proper__exact_perr(p, PROPER_EINVAL, at, "division by zero");
            break;
        }
        rc = op == '*' ? proper_ratfun_mul(out, out, &r) : proper_ratfun_div(out, out, &r);
        if (rc) rc = proper__exact_perr(p, rc, at, "result too large");
    }
    proper_ratfun_free(&r);
    return rc;
}

/* A long sum is added by sizes, as a binary counter: level k holds the sum
 * of 2^k terms, and a new term is carried up through the occupied levels.
 * Each term then takes part in O(log n) additions of operands of similar
 * size, so n terms cost O(n log n) term operations instead of the O(n^2)
 * of adding them one by one to a growing total (a printed polynomial of
 * 1631 terms read back: 0.37 s -> 0.01 s at -O2). Levels are allocated at
 * the second operator: a short sum, the common case, needs none. */
#define PROPER__EXACT_SUM_LEVELS 48

static int proper__exact_sum_carry(proper_ratfun *level, unsigned char *used, proper_ratfun *r) {
    size_t k;
    for (k = 0; k < PROPER__EXACT_SUM_LEVELS; k++) {
        proper_ratfun swap;
        int rc;
        if (!used[k]) {
            swap = level[k]; /* level[k] takes r's value; r gets the empty one */
            level[k] = *r;
            *r = swap;
            used[k] = 1;
            return PROPER_OK;
        }
        if ((rc = proper_ratfun_add(r, &level[k], r))) return rc;
        used[k] = 0;
    }
    return PROPER_ELIMIT; /* 2^48 terms: not reachable from a text */
}

/* sum := product (('+' | '-') product)* */
static int proper__exact_parse_sum(proper__exact_parser *p, proper_ratfun *out) {
    proper_ratfun r, *level = NULL;
    unsigned char used[PROPER__EXACT_SUM_LEVELS];
    size_t k;
    int rc;
    if (++p->depth > PROPER__EXACT_MAX_DEPTH)
        return proper__exact_perr(p, PROPER_ELIMIT, p->pos, "expression nested too deeply");
    memset(used, 0, sizeof used);
    rc = proper__exact_parse_product(p, out);
    proper_ratfun_init(&r);
    while (!rc) {
        char op;
        size_t at;
        proper__exact_pskip(p);
        if (p->pos >= p->len || (p->text[p->pos] != '+' && p->text[p->pos] != '-')) break;
        at = p->pos;
        op = p->text[p->pos++];
        if ((rc = proper__exact_parse_product(p, &r))) break;
        if (!level) {
            if (!(level = (proper_ratfun *)proper_calloc(PROPER__EXACT_SUM_LEVELS, sizeof *level))) {
                rc = proper__exact_perr(p, PROPER_ENOMEM, at, "out of memory");
                break;
            }
            for (k = 0; k < PROPER__EXACT_SUM_LEVELS; k++) proper_ratfun_init(&level[k]);
        }
        if ((op == '-' && (rc = proper_ratfun_neg(&r, &r))) || (rc = proper__exact_sum_carry(level, used, &r)))
            rc = proper__exact_perr(p, rc, at, "result too large");
    }
    for (k = 0; level && k < PROPER__EXACT_SUM_LEVELS; k++) {
        if (!rc && used[k] && (rc = proper_ratfun_add(out, out, &level[k])))
            rc = proper__exact_perr(p, rc, p->pos, "result too large");
        proper_ratfun_free(&level[k]);
    }
    PROPER_FREE(level);
    proper_ratfun_free(&r);
    p->depth--;
    return rc;
}

PROPER_API int proper_ratfun_parse(proper_ratfun *out, const char *text, size_t len, const char *name,
                                   const char *const *names, size_t n_names, proper_error *err) {
    proper__exact_parser p;
    proper_ratfun t;
    int rc;
    p.text = text;
    p.len = len;
    p.pos = 0;
    p.name = name;
    p.names = names;
    p.n_names = n_names;
    p.depth = 0;
    p.err = err;
    proper_ratfun_init(&t);
    rc = proper__exact_parse_sum(&p, &t);
    if (!rc) {
        proper__exact_pskip(&p);
        if (p.pos < len) rc = proper__exact_perr(&p, PROPER_EPARSE, p.pos, "expected an operator or the end");
    }
    if (rc) { proper_ratfun_free(&t); return rc; }
    proper__exact_ratfun_move(out, &t);
    return PROPER_OK;
}

/* ---- one solver over two fields ------------------------------------------------------ */

/* The operations state elimination needs, for proper_rat and proper_ratfun
 * alike. A zeroed element is a valid 0 of both. */
typedef struct proper__exact_field {
    size_t size;
    void (*free)(void *);
    int (*copy)(void *, const void *);
    int (*add)(void *, const void *, const void *);
    int (*sub)(void *, const void *, const void *);
    int (*mul)(void *, const void *, const void *);
    int (*div)(void *, const void *, const void *);
    int (*is_zero)(const void *);
    int (*set_int)(void *, int64_t);
} proper__exact_field;

static void proper__exact_q_free(void *a) { proper_rat_free((proper_rat *)a); }
static int proper__exact_q_copy(void *o, const void *a) { return proper_rat_copy((proper_rat *)o, (const proper_rat *)a); }
static int proper__exact_q_add(void *o, const void *a, const void *b) {
    return proper_rat_add((proper_rat *)o, (const proper_rat *)a, (const proper_rat *)b);
}
static int proper__exact_q_sub(void *o, const void *a, const void *b) {
    return proper_rat_sub((proper_rat *)o, (const proper_rat *)a, (const proper_rat *)b);
}
static int proper__exact_q_mul(void *o, const void *a, const void *b) {
    return proper_rat_mul((proper_rat *)o, (const proper_rat *)a, (const proper_rat *)b);
}
static int proper__exact_q_div(void *o, const void *a, const void *b) {
    return proper_rat_div((proper_rat *)o, (const proper_rat *)a, (const proper_rat *)b);
}
static int proper__exact_q_is_zero(const void *a) { return proper_rat_is_zero((const proper_rat *)a); }
static int proper__exact_q_set_int(void *o, int64_t v) { return proper_rat_set_i64((proper_rat *)o, v, 1); }

static void proper__exact_f_free(void *a) { proper_ratfun_free((proper_ratfun *)a); }
static int proper__exact_f_copy(void *o, const void *a) {
    return proper_ratfun_copy((proper_ratfun *)o, (const proper_ratfun *)a);
}
static int proper__exact_f_add(void *o, const void *a, const void *b) {
    return proper_ratfun_add((proper_ratfun *)o, (const proper_ratfun *)a, (const proper_ratfun *)b);
}
static int proper__exact_f_sub(void *o, const void *a, const void *b) {
    return proper_ratfun_sub((proper_ratfun *)o, (const proper_ratfun *)a, (const proper_ratfun *)b);
}
static int proper__exact_f_mul(void *o, const void *a, const void *b) {
    return proper_ratfun_mul((proper_ratfun *)o, (const proper_ratfun *)a, (const proper_ratfun *)b);
}
static int proper__exact_f_div(void *o, const void *a, const void *b) {
    return proper_ratfun_div((proper_ratfun *)o, (const proper_ratfun *)a, (const proper_ratfun *)b);
}
static int proper__exact_f_is_zero(const void *a) { return proper_ratfun_is_zero((const proper_ratfun *)a); }
static int proper__exact_f_set_int(void *o, int64_t v) {
    proper_rat c;
    int rc;
    proper_rat_init(&c);
    rc = proper_rat_set_i64(&c, v, 1);
    if (!rc) rc = proper_ratfun_set_rat((proper_ratfun *)o, &c);
    proper_rat_free(&c);
    return rc;
}

static const proper__exact_field proper__exact_rat_field = {
    sizeof(proper_rat), proper__exact_q_free, proper__exact_q_copy, proper__exact_q_add, proper__exact_q_sub,
    proper__exact_q_mul, proper__exact_q_div, proper__exact_q_is_zero, proper__exact_q_set_int};
static const proper__exact_field proper__exact_fun_field = {
    sizeof(proper_ratfun), proper__exact_f_free, proper__exact_f_copy, proper__exact_f_add, proper__exact_f_sub,
    proper__exact_f_mul, proper__exact_f_div, proper__exact_f_is_zero, proper__exact_f_set_int};

#define PROPER__EXACT_AT(F, base, i) ((void *)((char *)(base) + (size_t)(i) * (F)->size))

static void *proper__exact_alloc_elems(const proper__exact_field *F, size_t n) {
    return proper_calloc(n ? n : 1, F->size);
}

static void proper__exact_free_elems(const proper__exact_field *F, void *a, size_t n) {
    size_t i;
    if (!a) return;
    for (i = 0; i < n; i++) F->free(PROPER__EXACT_AT(F, a, i));
    PROPER_FREE(a);
}

/* acc += a * b, with t as scratch */
static int proper__exact_fma(const proper__exact_field *F, void *acc, const void *a, const void *b, void *t) {
    int rc = F->mul(t, a, b);
    return rc ? rc : F->add(acc, acc, t);
}

/* One sparse row of the system being eliminated: x_i = sum val[k] x_col[k] + b. */
typedef struct proper__exact_row {
    uint32_t *col;
    void *val;
    uint32_t len, cap;
} proper__exact_row;

typedef struct proper__exact_elim {
    const proper__exact_field *F;
    uint32_t n;
    proper__exact_row *row;
    void *b;            /* n constants */
    uint32_t **pred;    /* pred[j]: rows that had an entry j (may hold eliminated rows) */
    uint32_t *npred_len, *npred_cap;
    uint32_t *live_in;  /* live rows other than j with an entry j */
    unsigned char *done;
    void *inv;          /* inv[p] = 1 / (1 - a_pp) of pivot p with a self-loop */
    unsigned char *has_inv;
    uint32_t *mark;     /* position + 1 of a column in the row being updated */
    uint64_t entries, max_entries, fill;
    uint64_t *heap_cost;
    uint32_t *heap_idx;
    size_t heap_len, heap_cap;
} proper__exact_elim;

static int proper__exact_row_push(proper__exact_elim *E, proper__exact_row *r, uint32_t j, void **slot) {
    const proper__exact_field *F = E->F;
    if (r->len == r->cap) {
        uint32_t cap = r->cap ? r->cap * 2 : 4;
        uint32_t *c = (uint32_t *)PROPER_REALLOC(r->col, cap * sizeof *c);
        void *v;
        if (!c) return PROPER_ENOMEM;
        r->col = c;
        v = PROPER_REALLOC(r->val, cap * F->size);
        if (!v) return PROPER_ENOMEM;
        memset((char *)v + (size_t)r->cap * F->size, 0, (size_t)(cap - r->cap) * F->size);
        r->val = v;
        r->cap = cap;
    }
    if (++E->entries > E->max_entries) return PROPER_ELIMIT;
    r->col[r->len] = j;
    *slot = PROPER__EXACT_AT(F, r->val, r->len);
    r->len++;
    return PROPER_OK;
}

static int proper__exact_pred_push(proper__exact_elim *E, uint32_t j, uint32_t i) {
    if (E->npred_len[j] == E->npred_cap[j]) {
        uint32_t cap = E->npred_cap[j] ? E->npred_cap[j] * 2 : 4;
        uint32_t *p = (uint32_t *)PROPER_REALLOC(E->pred[j], cap * sizeof *p);
        if (!p) return PROPER_ENOMEM;
        E->pred[j] = p;
        E->npred_cap[j] = cap;
    }
    E->pred[j][E->npred_len[j]++] = i;
    return PROPER_OK;
}

/* Markowitz cost of eliminating i: (rows that would change) x (entries each gets) */
static uint64_t proper__exact_cost(const proper__exact_elim *E, uint32_t i) {
    return (uint64_t)E->live_in[i] * E->row[i].len;
}

static int proper__exact_heap_push(proper__exact_elim *E, uint32_t i) {
    size_t k;
    uint64_t c = proper__exact_cost(E, i);
    if (E->heap_len == E->heap_cap) {
        size_t cap = E->heap_cap ? E->heap_cap * 2 : 64;
        uint64_t *hc = (uint64_t *)PROPER_REALLOC(E->heap_cost, cap * sizeof *hc);
        uint32_t *hi;
        if (!hc) return PROPER_ENOMEM;
        E->heap_cost = hc;
        hi = (uint32_t *)PROPER_REALLOC(E->heap_idx, cap * sizeof *hi);
        if (!hi) return PROPER_ENOMEM;
        E->heap_idx = hi;
        E->heap_cap = cap;
    }
    k = E->heap_len++;
    while (k > 0 && E->heap_cost[(k - 1) / 2] > c) {
        E->heap_cost[k] = E->heap_cost[(k - 1) / 2];
        E->heap_idx[k] = E->heap_idx[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    E->heap_cost[k] = c;
    E->heap_idx[k] = i;
    return PROPER_OK;
}

static void proper__exact_heap_pop(proper__exact_elim *E, uint64_t *cost, uint32_t *idx) {
    size_t k = 0, n = --E->heap_len;
    uint64_t c = E->heap_cost[n];
    uint32_t x = E->heap_idx[n];
    *cost = E->heap_cost[0];
    *idx = E->heap_idx[0];
    for (;;) {
        size_t ch = 2 * k + 1;
        if (ch >= n) break;
        if (ch + 1 < n && E->heap_cost[ch + 1] < E->heap_cost[ch]) ch++;
        if (E->heap_cost[ch] >= c) break;
        E->heap_cost[k] = E->heap_cost[ch];
        E->heap_idx[k] = E->heap_idx[ch];
        k = ch;
    }
    if (n) {
        E->heap_cost[k] = c;
        E->heap_idx[k] = x;
    }
}

static void proper__exact_elim_free(proper__exact_elim *E) {
    uint32_t i;
    if (E->row)
        for (i = 0; i < E->n; i++) {
            proper__exact_free_elems(E->F, E->row[i].val, E->row[i].cap);
            PROPER_FREE(E->row[i].col);
        }
    if (E->pred)
        for (i = 0; i < E->n; i++) PROPER_FREE(E->pred[i]);
    proper__exact_free_elems(E->F, E->b, E->n);
    proper__exact_free_elems(E->F, E->inv, E->inv ? E->n : 0);
    PROPER_FREE(E->has_inv);
    PROPER_FREE(E->row);
    PROPER_FREE(E->pred);
    PROPER_FREE(E->npred_len);
    PROPER_FREE(E->npred_cap);
    PROPER_FREE(E->live_in);
    PROPER_FREE(E->done);
    PROPER_FREE(E->mark);
    PROPER_FREE(E->heap_cost);
    PROPER_FREE(E->heap_idx);
}

/* Exchange two elements' bytes (both types are plain structs). */
static void proper__exact_swap(const proper__exact_field *F, void *a, void *b) {
    union { proper_rat q; proper_ratfun f; } buf;
    memcpy(&buf, a, F->size);
    memmove(a, b, F->size);
    memcpy(b, &buf, F->size);
}

/* Eliminate pivot p: x_p = inv_p (b_p + sum_j a_pj x_j) with inv_p =
 * 1 / (1 - a_pp) (the self-loop dropped), substituted into every live row
 * with an entry p (Gaussian elimination, one column at a time). The row of
 * p is kept unscaled: inv_p multiplies each substituting row's a_rp once
 * instead of every entry of row p. */
static int proper__exact_eliminate(proper__exact_elim *E, uint32_t p, void *t, void *f) {
    const proper__exact_field *F = E->F;
    proper__exact_row *rp = &E->row[p];
    uint32_t k, q;
    int rc;
    for (k = 0; k < rp->len; k++)
        if (rp->col[k] == p) break;
    if (k < rp->len) { /* inv_p = 1 / (1 - a_pp), then drop the entry */
        void *inv = PROPER__EXACT_AT(F, E->inv, p);
        if ((rc = F->set_int(inv, 1)) || (rc = F->sub(t, inv, PROPER__EXACT_AT(F, rp->val, k)))) return rc;
        if (F->is_zero(t)) return PROPER_EINVAL; /* cannot happen on a checked model: see the top */
        if ((rc = F->div(inv, inv, t))) return rc;
        E->has_inv[p] = 1;
        rp->len--;
        E->entries--;
        if (k != rp->len) {
            rp->col[k] = rp->col[rp->len];
            proper__exact_swap(F, PROPER__EXACT_AT(F, rp->val, k), PROPER__EXACT_AT(F, rp->val, rp->len));
        }
        F->free(PROPER__EXACT_AT(F, rp->val, rp->len));
    }
    E->done[p] = 1;
    for (k = 0; k < rp->len; k++) E->live_in[rp->col[k]]--;
    for (q = 0; q < E->npred_len[p]; q++) {
        uint32_t r = E->pred[p][q], pos;
        proper__exact_row *rr = &E->row[r];
        if (E->done[r] || r == p) continue;
        for (pos = 0; pos < rr->len; pos++) E->mark[rr->col[pos]] = pos + 1;
        if (!E->mark[p]) { /* already substituted (a repeated predecessor) */
            for (pos = 0; pos < rr->len; pos++) E->mark[rr->col[pos]] = 0;
            continue;
        }
        pos = E->mark[p] - 1;
        rc = E->has_inv[p] ? F->mul(f, PROPER__EXACT_AT(F, rr->val, pos), PROPER__EXACT_AT(F, E->inv, p))
                           : F->copy(f, PROPER__EXACT_AT(F, rr->val, pos));
        if (rc) return rc;
        /* drop entry p of row r: move the last entry into its place */
        E->mark[p] = 0;
        rr->len--;
        E->entries--;
        if (pos != rr->len) {
            proper__exact_swap(F, PROPER__EXACT_AT(F, rr->val, pos), PROPER__EXACT_AT(F, rr->val, rr->len));
            rr->col[pos] = rr->col[rr->len];
            E->mark[rr->col[pos]] = pos + 1;
        }
        F->free(PROPER__EXACT_AT(F, rr->val, rr->len));
        for (k = 0; k < rp->len && !rc; k++) {
            uint32_t j = rp->col[k];
            void *slot;
            if (E->mark[j]) {
                slot = PROPER__EXACT_AT(F, rr->val, E->mark[j] - 1);
            } else {
                if ((rc = proper__exact_row_push(E, rr, j, &slot))) break;
                E->mark[j] = rr->len;
                E->fill++;
                if (j != r) {
                    E->live_in[j]++;
                    if ((rc = proper__exact_pred_push(E, j, r))) break;
                }
            }
            rc = proper__exact_fma(F, slot, f, PROPER__EXACT_AT(F, rp->val, k), t);
        }
        if (!rc) rc = proper__exact_fma(F, PROPER__EXACT_AT(F, E->b, r), f, PROPER__EXACT_AT(F, E->b, p), t);
        for (pos = 0; pos < rr->len; pos++) E->mark[rr->col[pos]] = 0;
        if (!rc) rc = proper__exact_heap_push(E, r);
        if (rc) return rc;
    }
    for (k = 0; k < rp->len; k++)
        if ((rc = proper__exact_heap_push(E, rp->col[k]))) return rc;
    return PROPER_OK;
}

/* Solve one cyclic component: states comp[0..n-1], x known outside. */
static int proper__exact_solve_cyclic(const proper_dtmc *m, const proper__exact_field *F, const void *prob,
                                      const void *bconst, const uint32_t *members, uint32_t n, uint32_t *local,
                                      void *x, const proper_exact_opts *opts, proper_exact_stats *stats) {
    proper__exact_elim E;
    uint32_t i, *order = NULL, n_order = 0;
    void *t = NULL, *f = NULL;
    int rc = PROPER_OK;
    memset(&E, 0, sizeof E);
    E.F = F;
    E.n = n;
    E.max_entries = opts->max_entries;
    if (!(E.row = (proper__exact_row *)proper_calloc(n, sizeof *E.row)) ||
        !(E.pred = (uint32_t **)proper_calloc(n, sizeof *E.pred)) ||
        !(E.npred_len = (uint32_t *)proper_calloc(n, sizeof(uint32_t))) ||
        !(E.npred_cap = (uint32_t *)proper_calloc(n, sizeof(uint32_t))) ||
        !(E.live_in = (uint32_t *)proper_calloc(n, sizeof(uint32_t))) ||
        !(E.done = (unsigned char *)proper_calloc(n, 1)) || !(E.mark = (uint32_t *)proper_calloc(n, sizeof(uint32_t))) ||
        !(E.has_inv = (unsigned char *)proper_calloc(n, 1)) || !(E.inv = proper__exact_alloc_elems(F, n)) ||
        !(E.b = proper__exact_alloc_elems(F, n)) || !(order = (uint32_t *)proper_calloc(n, sizeof *order)) ||
        !(t = proper__exact_alloc_elems(F, 1)) || !(f = proper__exact_alloc_elems(F, 1))) {
        rc = PROPER_ENOMEM;
        goto done;
    }
    /* rows: the component's own entries; the rest goes into b */
    for (i = 0; i < n && !rc; i++) {
        uint32_t s = members[i];
        uint64_t k;
        void *bi = PROPER__EXACT_AT(F, E.b, i);
        if (bconst && (rc = F->copy(bi, PROPER__EXACT_AT(F, bconst, s)))) break;
        for (k = m->row[s]; k < m->row[s + 1] && !rc; k++) {
            uint32_t tgt = m->col[k];
            const void *pk = PROPER__EXACT_AT(F, prob, k);
            if (local[tgt] != UINT32_MAX) {
                void *slot;
                if (!(rc = proper__exact_row_push(&E, &E.row[i], local[tgt], &slot))) rc = F->copy(slot, pk);
                if (!rc && local[tgt] != i) {
                    E.live_in[local[tgt]]++;
                    rc = proper__exact_pred_push(&E, local[tgt], i);
                }
            } else {
                rc = proper__exact_fma(F, bi, pk, PROPER__EXACT_AT(F, x, tgt), t);
            }
        }
    }
    for (i = 0; i < n && !rc; i++) rc = proper__exact_heap_push(&E, i);
    while (!rc && E.heap_len) {
        uint64_t cost;
        uint32_t p;
        proper__exact_heap_pop(&E, &cost, &p);
        if (E.done[p]) continue;
        if (cost != proper__exact_cost(&E, p)) { /* stale: its row or column changed */
            rc = proper__exact_heap_push(&E, p);
            continue;
        }
        rc = proper__exact_eliminate(&E, p, t, f);
        order[n_order++] = p;
    }
    /* back substitution in reverse order of elimination */
    while (!rc && n_order) {
        uint32_t p = order[--n_order], k;
        void *xp = PROPER__EXACT_AT(F, x, members[p]);
        rc = F->copy(xp, PROPER__EXACT_AT(F, E.b, p));
        for (k = 0; k < E.row[p].len && !rc; k++)
            rc = proper__exact_fma(F, xp, PROPER__EXACT_AT(F, E.row[p].val, k),
                                   PROPER__EXACT_AT(F, x, members[E.row[p].col[k]]), t);
        if (!rc && E.has_inv[p]) rc = F->mul(xp, xp, PROPER__EXACT_AT(F, E.inv, p));
    }
    if (stats) stats->fill += E.fill;
done:
    proper__exact_elim_free(&E);
    PROPER_FREE(order);
    proper__exact_free_elems(F, t, 1);
    proper__exact_free_elems(F, f, 1);
    return rc;
}

/* x_s = b_s + sum_t P(s,t) x_t for every state in `solve`; x is given on
 * all other states. By strongly connected components of `solve` in reverse
 * topological order. */
static int proper__exact_solve(const proper_dtmc *m, const proper__exact_field *F, const void *prob,
                               const void *bconst, const proper_bitset *solve, void *x,
                               const proper_exact_opts *opts, proper_exact_stats *stats, proper_error *err) {
    uint32_t *comp = NULL, *start = NULL, *members = NULL, *local = NULL, n_comp = 0, c, s;
    uint32_t n = m->n_states, n_solve = (uint32_t)proper_bitset_count(solve);
    void *t = NULL, *acc = NULL, *self = NULL;
    int rc;
    if (n_solve > opts->max_states)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                "%lu states to solve exactly, more than the limit of %lu",
                                (unsigned long)n_solve, (unsigned long)opts->max_states);
    if (stats) stats->n_solved = n_solve;
    if (!(comp = (uint32_t *)proper_calloc(n ? n : 1, sizeof *comp)) ||
        !(local = (uint32_t *)PROPER_MALLOC((n ? n : 1) * sizeof *local)) ||
        !(members = (uint32_t *)proper_calloc(n_solve ? n_solve : 1, sizeof *members)) ||
        !(t = proper__exact_alloc_elems(F, 1)) || !(acc = proper__exact_alloc_elems(F, 1)) ||
        !(self = proper__exact_alloc_elems(F, 1))) {
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    if ((rc = proper_dtmc_scc(m, solve, comp, &n_comp, err))) goto done;
    if (!(start = (uint32_t *)proper_calloc((size_t)n_comp + 1, sizeof *start))) {
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    for (s = 0; s < n; s++) {
        local[s] = UINT32_MAX;
        if (comp[s] != UINT32_MAX) start[comp[s] + 1]++;
    }
    for (c = 0; c < n_comp; c++) start[c + 1] += start[c];
    for (s = 0; s < n; s++)
        if (comp[s] != UINT32_MAX) members[start[comp[s]]++] = s;
    for (c = n_comp; c > 0; c--) start[c] = start[c - 1];
    start[0] = 0;
    for (c = 0; c < n_comp && !rc; c++) {
        uint32_t size = start[c + 1] - start[c];
        if (stats && size > stats->largest) stats->largest = size;
        if (size == 1) { /* x_s = (b_s + sum_{t != s} P x_t) / (1 - P(s,s)) */
            uint64_t k;
            void *xs;
            s = members[start[c]];
            xs = PROPER__EXACT_AT(F, x, s);
            rc = bconst ? F->copy(acc, PROPER__EXACT_AT(F, bconst, s)) : F->set_int(acc, 0);
            if (!rc) rc = F->set_int(self, 0);
            for (k = m->row[s]; k < m->row[s + 1] && !rc; k++) {
                if (m->col[k] == s) rc = F->copy(self, PROPER__EXACT_AT(F, prob, k));
                else rc = proper__exact_fma(F, acc, PROPER__EXACT_AT(F, prob, k), PROPER__EXACT_AT(F, x, m->col[k]), t);
            }
            if (!rc && !F->is_zero(self)) {
                if (!(rc = F->set_int(t, 1)) && !(rc = F->sub(self, t, self))) {
                    if (F->is_zero(self)) rc = PROPER_EINVAL;
                    else rc = F->div(acc, acc, self);
                }
            }
            if (!rc) rc = F->copy(xs, acc);
        } else {
            uint32_t i;
            if (stats) stats->n_cyclic += size;
            for (i = 0; i < size; i++) local[members[start[c] + i]] = i;
            rc = proper__exact_solve_cyclic(m, F, prob, bconst, members + start[c], size, local, x, opts, stats);
            for (i = 0; i < size; i++) local[members[start[c] + i]] = UINT32_MAX;
        }
    }
    if (rc == PROPER_EINVAL)
        rc = proper_error_set(err, rc, NULL, 0, 0,
                              "a state returns to itself with probability 1 in the exact values although the "
                              "model's graph says it can leave: exact and numeric transitions disagree");
    else if (rc == PROPER_ELIMIT)
        rc = proper_error_set(err, rc, NULL, 0, 0,
                              "exact elimination needs more than %lu matrix entries or a number beyond %lu limbs",
                              (unsigned long)opts->max_entries, (unsigned long)PROPER_EXACT_MAX_LIMBS);
    else if (rc && rc != PROPER_ENOMEM && (!err || err->code != rc))
        rc = proper_error_set(err, rc, NULL, 0, 0, "exact solve failed");
    else if (rc == PROPER_ENOMEM)
        rc = proper_error_set(err, rc, NULL, 0, 0, "out of memory");
done:
    PROPER_FREE(comp);
    PROPER_FREE(start);
    PROPER_FREE(members);
    PROPER_FREE(local);
    proper__exact_free_elems(F, t, 1);
    proper__exact_free_elems(F, acc, 1);
    proper__exact_free_elems(F, self, 1);
    return rc;
}

/* ---- exact companion of a proper_dtmc -------------------------------------------------- */

PROPER_API void proper_exact_dtmc_init(proper_exact_dtmc *e) { memset(e, 0, sizeof *e); }

static const proper__exact_field *proper__exact_field_of(size_t n_params) {
    return n_params ? &proper__exact_fun_field : &proper__exact_rat_field;
}

/* The values of a companion or a vector, of whichever kind it holds. */
static const void *proper__exact_probs(const proper_exact_dtmc *e) {
    return e->n_params ? (const void *)e->fprob : (const void *)e->prob;
}

static void *proper__exact_vec_data(proper_exact_vec *v) { return v->n_params ? (void *)v->f : (void *)v->q; }

PROPER_API void proper_exact_dtmc_free(proper_exact_dtmc *e) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    size_t i;
    for (i = 0; i < e->n_params; i++) PROPER_FREE(e->param_names[i]);
    PROPER_FREE(e->param_names);
    proper__exact_free_elems(&proper__exact_rat_field, e->prob, e->prob ? e->n_trans : 0);
    proper__exact_free_elems(&proper__exact_fun_field, e->fprob, e->fprob ? e->n_trans : 0);
    for (i = 0; i < e->n_rewards; i++) {
        proper_exact_reward *r = &e->rewards[i];
        PROPER_FREE(r->name);
        proper__exact_free_elems(F, e->n_params ? (void *)r->fstate : (void *)r->state,
                                 (r->fstate || r->state) ? e->n_states : 0);
        proper__exact_free_elems(F, e->n_params ? (void *)r->ftrans : (void *)r->trans,
                                 (r->ftrans || r->trans) ? e->n_trans : 0);
    }
    PROPER_FREE(e->rewards);
    proper_exact_dtmc_init(e);
}

/* n exact values from doubles (rationals or constant functions). */
static int proper__exact_from_doubles(const proper__exact_field *F, void **out, const double *v, size_t n) {
    size_t i;
    int rc = PROPER_OK;
    proper_rat q;
    void *a = proper__exact_alloc_elems(F, n);
    if (!a) return PROPER_ENOMEM;
    proper_rat_init(&q);
    for (i = 0; i < n && !rc; i++) {
        if (!v[i]) continue;
        if (F == &proper__exact_rat_field) rc = proper_rat_from_double((proper_rat *)PROPER__EXACT_AT(F, a, i), v[i]);
        else if (!(rc = proper_rat_from_double(&q, v[i]))) rc = proper_ratfun_set_rat((proper_ratfun *)PROPER__EXACT_AT(F, a, i), &q);
    }
    proper_rat_free(&q);
    if (rc) { proper__exact_free_elems(F, a, n); return rc; }
    *out = a;
    return PROPER_OK;
}

PROPER_API int proper_exact_dtmc_create(proper_exact_dtmc *e, const proper_dtmc *m, size_t n_params,
                                        const char *const *names, proper_error *err) {
    proper_exact_dtmc t;
    const proper__exact_field *F = proper__exact_field_of(n_params);
    size_t i;
    int rc = PROPER_OK;
    void *a;
    proper_exact_dtmc_init(&t);
    t.n_states = m->n_states;
    t.n_trans = m->n_trans;
    if (n_params && !(t.param_names = (char **)proper_calloc(n_params, sizeof *t.param_names))) goto nomem;
    for (i = 0; i < n_params; i++) {
        if (!(t.param_names[i] = proper_strdup(names[i]))) goto nomem;
        t.n_params = i + 1;
    }
    t.n_params = n_params;
    if ((rc = proper__exact_from_doubles(F, &a, m->prob, m->n_trans))) goto fail;
    if (n_params) t.fprob = (proper_ratfun *)a;
    else t.prob = (proper_rat *)a;
    if (m->n_rewards && !(t.rewards = (proper_exact_reward *)proper_calloc(m->n_rewards, sizeof *t.rewards))) goto nomem;
    for (i = 0; i < m->n_rewards; i++) {
        const proper_dtmc_reward *r = &m->rewards[i];
        proper_exact_reward *x = &t.rewards[i];
        t.n_rewards = i + 1;
        if (!(x->name = proper_strdup(r->name ? r->name : ""))) goto nomem;
        if (r->state) {
            if ((rc = proper__exact_from_doubles(F, &a, r->state, m->n_states))) goto fail;
            if (n_params) x->fstate = (proper_ratfun *)a;
            else x->state = (proper_rat *)a;
        }
        if (r->trans) {
            if ((rc = proper__exact_from_doubles(F, &a, r->trans, m->n_trans))) goto fail;
            if (n_params) x->ftrans = (proper_ratfun *)a;
            else x->trans = (proper_rat *)a;
        }
    }
    proper_exact_dtmc_free(e);
    *e = t;
    return PROPER_OK;
nomem:
    rc = PROPER_ENOMEM;
fail:
    proper_exact_dtmc_free(&t);
    return proper_error_set(err, rc, NULL, 0, 0, rc == PROPER_ENOMEM ? "out of memory" : "a model value is not finite");
}

/* One setter for all six: entry i (< limit) of array (rationals when
 * parametric == 0, functions otherwise) becomes a copy of v; the kind of the
 * companion must match the setter's, and the array must exist. */
static int proper__exact_set(const proper_exact_dtmc *e, int parametric, void *array, uint64_t i, uint64_t limit,
                             const void *v, const char *what, proper_error *err) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    if ((e->n_params != 0) != parametric || i >= limit || !array)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no such %s %s", parametric ? "parametric" : "rational", what);
    if (F->copy(PROPER__EXACT_AT(F, array, i), v)) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    return PROPER_OK;
}

/* The reward structure r's state or transition array of the given kind, or
 * NULL (no such structure or array). */
static void *proper__exact_reward_array(const proper_exact_dtmc *e, size_t r, int parametric, int trans) {
    const proper_exact_reward *w;
    if (r >= e->n_rewards) return NULL;
    w = &e->rewards[r];
    return trans ? (parametric ? (void *)w->ftrans : (void *)w->trans) : (parametric ? (void *)w->fstate : (void *)w->state);
}

PROPER_API int proper_exact_dtmc_set_prob(proper_exact_dtmc *e, uint64_t k, const proper_rat *v, proper_error *err) {
    return proper__exact_set(e, 0, e->prob, k, e->n_trans, v, "transition", err);
}

PROPER_API int proper_exact_dtmc_set_fprob(proper_exact_dtmc *e, uint64_t k, const proper_ratfun *v,
                                           proper_error *err) {
    return proper__exact_set(e, 1, e->fprob, k, e->n_trans, v, "transition", err);
}

PROPER_API int proper_exact_dtmc_set_state_reward(proper_exact_dtmc *e, size_t r, uint32_t s, const proper_rat *v,
                                                  proper_error *err) {
    return proper__exact_set(e, 0, proper__exact_reward_array(e, r, 0, 0), s, e->n_states, v, "state reward", err);
}

PROPER_API int proper_exact_dtmc_set_state_freward(proper_exact_dtmc *e, size_t r, uint32_t s,
                                                   const proper_ratfun *v, proper_error *err) {
    return proper__exact_set(e, 1, proper__exact_reward_array(e, r, 1, 0), s, e->n_states, v, "state reward", err);
}

PROPER_API int proper_exact_dtmc_set_trans_reward(proper_exact_dtmc *e, size_t r, uint64_t k, const proper_rat *v,
                                                  proper_error *err) {
    return proper__exact_set(e, 0, proper__exact_reward_array(e, r, 0, 1), k, e->n_trans, v, "transition reward", err);
}

PROPER_API int proper_exact_dtmc_set_trans_freward(proper_exact_dtmc *e, size_t r, uint64_t k,
                                                   const proper_ratfun *v, proper_error *err) {
    return proper__exact_set(e, 1, proper__exact_reward_array(e, r, 1, 1), k, e->n_trans, v, "transition reward", err);
}

static int proper__exact_fits(const proper_exact_dtmc *e, const proper_dtmc *m, proper_error *err) {
    if (e->n_states != m->n_states || e->n_trans != m->n_trans || (!e->prob && !e->fprob))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                "the exact values were made for another model (%lu states, %lu transitions)",
                                (unsigned long)e->n_states, (unsigned long)e->n_trans);
    return PROPER_OK;
}

/* The step-bounded solvers take DTMCs only: a CTMC's time bounds need
 * exp(-qt) (uniformisation), which is not rational; PRISM's exact and
 * parametric engines refuse them too. */
static int proper__exact_fits_dtmc(const proper_exact_dtmc *e, const proper_dtmc *m, proper_error *err) {
    if (m->kind != PROPER_DTMC_KIND_DTMC)
        return proper_error_set(err, PROPER_EUNSUPPORTED, NULL, 0, 0,
                                "exact and parametric solving of a CTMC takes unbounded properties only (P=? [ U ], "
                                "R=? [ F ], S=?, R=? [ S ]): time bounds are not rational");
    return proper__exact_fits(e, m, err);
}

PROPER_API int proper_exact_dtmc_check(const proper_exact_dtmc *e, const proper_dtmc *m, proper_error *err) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    const void *prob = proper__exact_probs(e);
    void *sum, *one;
    uint32_t s;
    size_t r;
    int rc;
    if ((rc = proper__exact_fits(e, m, err))) return rc;
    sum = proper__exact_alloc_elems(F, 1);
    one = proper__exact_alloc_elems(F, 1);
    if (!sum || !one || F->set_int(one, 1)) { rc = PROPER_ENOMEM; goto done; }
    for (s = 0; s < m->n_states && !rc; s++) {
        uint64_t k;
        if ((rc = F->set_int(sum, 0))) break;
        for (k = m->row[s]; k < m->row[s + 1] && !rc; k++) {
            const void *pk = PROPER__EXACT_AT(F, prob, k);
            if (!e->n_params && proper_rat_sign((const proper_rat *)pk) <= 0) {
                proper_strbuf b;
                proper_strbuf_init(&b);
                proper_rat_format((const proper_rat *)pk, &b);
                rc = proper_error_set(err, PROPER_EPROB, NULL, 0, 0,
                                      "state %lu: transition to %lu has exact %s %s (must be > 0)",
                                      (unsigned long)s, (unsigned long)m->col[k],
                                      m->kind == PROPER_DTMC_KIND_CTMC ? "rate" : "probability", b.data ? b.data : "?");
                proper_strbuf_free(&b);
                goto done;
            }
            rc = F->add(sum, sum, pk);
        }
        if (rc) break;
        if (m->kind == PROPER_DTMC_KIND_CTMC) continue; /* rates: positive, any sum */
        if (!(e->n_params ? proper_ratfun_equal((proper_ratfun *)sum, (proper_ratfun *)one)
                          : proper_rat_is_one((proper_rat *)sum))) {
            proper_strbuf b;
            proper_strbuf_init(&b);
            if (e->n_params) proper_ratfun_format((proper_ratfun *)sum, (const char *const *)e->param_names, &b);
            else proper_rat_format((proper_rat *)sum, &b);
            rc = proper_error_set(err, PROPER_EPROB, NULL, 0, 0, "state %lu: exact probabilities sum to %s, not 1",
                                  (unsigned long)s, b.data ? b.data : "?");
            proper_strbuf_free(&b);
            goto done;
        }
    }
    for (r = 0; !rc && !e->n_params && r < e->n_rewards; r++) {
        const proper_exact_reward *x = &e->rewards[r];
        uint64_t k;
        for (k = 0; x->state && k < e->n_states && !rc; k++)
            if (proper_rat_sign(&x->state[k]) < 0)
                rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "reward structure \"%s\": state %lu has a negative reward",
                                      x->name, (unsigned long)k);
        for (k = 0; x->trans && k < e->n_trans && !rc; k++)
            if (proper_rat_sign(&x->trans[k]) < 0)
                rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                      "reward structure \"%s\": transition %lu has a negative reward", x->name,
                                      (unsigned long)k);
    }
done:
    if (rc == PROPER_ENOMEM) proper_error_set(err, rc, NULL, 0, 0, "out of memory");
    proper__exact_free_elems(F, sum, 1);
    proper__exact_free_elems(F, one, 1);
    return rc;
}

static double proper__exact_value_double(const proper_exact_dtmc *e, const void *v, const double *point) {
    if (e->n_params) return proper_ratfun_eval_double((const proper_ratfun *)v, point, e->n_params);
    return proper_rat_to_double((const proper_rat *)v);
}

PROPER_API int proper_exact_dtmc_instantiate(const proper_exact_dtmc *e, const proper_dtmc *m, const double *point,
                                             proper_dtmc *out, proper_error *err) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    const void *prob = proper__exact_probs(e);
    proper_dtmc_builder b;
    proper_dtmc t;
    uint32_t s;
    size_t i;
    int rc;
    if ((rc = proper__exact_fits(e, m, err))) return rc;
    proper_dtmc_builder_init(&b);
    proper_dtmc_init(&t);
    b.init = m->init;
    b.rates = m->kind == PROPER_DTMC_KIND_CTMC;
    for (s = 0; s < m->n_states && !rc; s++) {
        uint64_t k;
        for (k = m->row[s]; k < m->row[s + 1] && !rc; k++) {
            double v = proper__exact_value_double(e, PROPER__EXACT_AT(F, prob, k), point);
            if (v != 0) rc = proper_dtmc_builder_add_transition(&b, s, m->col[k], v, err);
        }
    }
    if (rc) { proper_dtmc_builder_free(&b); return rc; }
    if ((rc = proper_dtmc_builder_finish(&b, m->n_states, &t, err))) return rc;
    for (i = 0; i < m->n_labels && !rc; i++) rc = proper_dtmc_add_label(&t, m->labels[i].name, &m->labels[i].states, NULL, err);
    for (i = 0; i < e->n_rewards && !rc; i++) {
        const proper_exact_reward *x = &e->rewards[i];
        const void *st = proper__exact_reward_array(e, i, e->n_params != 0, 0);
        const void *tr = proper__exact_reward_array(e, i, e->n_params != 0, 1);
        size_t ri;
        if ((rc = proper_dtmc_add_reward(&t, x->name, st != NULL, tr != NULL, &ri, err))) break;
        for (s = 0; st && s < m->n_states && !rc; s++) {
            double v = proper__exact_value_double(e, PROPER__EXACT_AT(F, st, s), point);
            if (v != 0) rc = proper_dtmc_reward_add_state(&t, ri, s, v, err);
        }
        for (s = 0; tr && s < m->n_states && !rc; s++) {
            uint64_t k;
            for (k = m->row[s]; k < m->row[s + 1] && !rc; k++) {
                double v = proper__exact_value_double(e, PROPER__EXACT_AT(F, tr, k), point);
                if (v != 0) rc = proper_dtmc_reward_add_trans(&t, ri, s, m->col[k], v, err);
            }
        }
    }
    if (rc) { proper_dtmc_free(&t); return rc; }
    proper_dtmc_free(out);
    *out = t;
    return PROPER_OK;
}

/* ---- exact solvers ------------------------------------------------------------- */

PROPER_API proper_exact_opts proper_exact_opts_default(void) {
    proper_exact_opts o;
    o.max_states = PROPER_EXACT_MAX_STATES;
    o.max_entries = PROPER_EXACT_MAX_ENTRIES;
    return o;
}

PROPER_API void proper_exact_vec_init(proper_exact_vec *x) { memset(x, 0, sizeof *x); }

PROPER_API void proper_exact_vec_free(proper_exact_vec *x) {
    proper__exact_free_elems(&proper__exact_rat_field, x->q, x->q ? x->n : 0);
    proper__exact_free_elems(&proper__exact_fun_field, x->f, x->f ? x->n : 0);
    PROPER_FREE(x->inf);
    proper_exact_vec_init(x);
}

static int proper__exact_vec_alloc(proper_exact_vec *x, uint32_t n, size_t n_params) {
    const proper__exact_field *F = proper__exact_field_of(n_params);
    void *a = proper__exact_alloc_elems(F, n);
    proper_exact_vec_init(x);
    if (!a || !(x->inf = (unsigned char *)proper_calloc(n ? n : 1, 1))) {
        PROPER_FREE(a);
        return PROPER_ENOMEM;
    }
    x->n = n;
    x->n_params = n_params;
    if (n_params) x->f = (proper_ratfun *)a;
    else x->q = (proper_rat *)a;
    return PROPER_OK;
}

PROPER_API int proper_exact_vec_create(proper_exact_vec *x, uint32_t n, size_t n_params) {
    proper_exact_vec t;
    int rc = proper__exact_vec_alloc(&t, n, n_params);
    if (rc) return rc;
    proper_exact_vec_free(x);
    *x = t;
    return PROPER_OK;
}

static void proper__exact_vec_stats(const proper_exact_vec *x, proper_exact_stats *stats) {
    uint32_t s;
    if (!stats) return;
    for (s = 0; s < x->n; s++) {
        if (x->q) {
            size_t l = x->q[s].num.len > x->q[s].den.len ? x->q[s].num.len : x->q[s].den.len;
            if (l > stats->max_limbs) stats->max_limbs = l;
        } else {
            size_t i;
            const proper_poly *ps[2];
            int k;
            ps[0] = &x->f[s].num;
            ps[1] = &x->f[s].den;
            for (k = 0; k < 2; k++)
                for (i = 0; i < ps[k]->n_terms; i++) {
                    size_t l = ps[k]->coef[i].num.len > ps[k]->coef[i].den.len ? ps[k]->coef[i].num.len
                                                                                : ps[k]->coef[i].den.len;
                    if (l > stats->max_limbs) stats->max_limbs = l;
                }
        }
    }
}

static void proper__exact_stats_start(proper_exact_stats *stats) {
    if (stats) memset(stats, 0, sizeof *stats);
}

/* A CTMC's unbounded properties on its embedded DTMC, as PRISM's exact and
 * parametric engines solve them (param/ValueComputer.java): dm is dtmc.h's
 * embedded chain (the same rows in the same order) and de its exact values,
 * P(s,t) = R(s,t) / E(s) with E(s) the sum of the row's rates (self-loops
 * included, as PRISM counts them); state rewards, which are rates, become
 * rewards per visit r(s) / E(s) (the mean sojourn is 1 / E(s)); transition
 * rewards stay. With `sojourn`, the n_states values 1 / E(s) too. */
static int proper__exact_embed(const proper_dtmc *m, const proper_exact_dtmc *e, proper_dtmc *dm, proper_exact_dtmc *de,
                               void **sojourn, proper_error *err) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    const void *rate = proper__exact_probs(e);
    void *exit = NULL, *unit = NULL, *dprob;
    uint32_t s;
    uint64_t k;
    size_t r;
    int rc;
    proper_dtmc_init(dm);
    proper_exact_dtmc_init(de);
    if ((rc = proper_dtmc_embedded(m, dm, err)) ||
        (rc = proper_exact_dtmc_create(de, dm, e->n_params, (const char *const *)e->param_names, err)))
        goto done;
    if (!(exit = proper__exact_alloc_elems(F, m->n_states)) || !(unit = proper__exact_alloc_elems(F, 1)) ||
        F->set_int(unit, 1)) {
        rc = PROPER_ENOMEM;
        goto done;
    }
    dprob = e->n_params ? (void *)de->fprob : (void *)de->prob;
    for (s = 0; s < m->n_states && !rc; s++) {
        void *es = PROPER__EXACT_AT(F, exit, s);
        for (k = m->row[s]; k < m->row[s + 1] && !rc; k++) rc = F->add(es, es, PROPER__EXACT_AT(F, rate, k));
        for (k = m->row[s]; k < m->row[s + 1] && !rc; k++)
            rc = F->div(PROPER__EXACT_AT(F, dprob, k), PROPER__EXACT_AT(F, rate, k), es);
        for (r = 0; r < e->n_rewards && r < de->n_rewards && !rc; r++) {
            const void *st = proper__exact_reward_array(e, r, e->n_params != 0, 0);
            void *dst = proper__exact_reward_array(de, r, e->n_params != 0, 0);
            if (st && dst) rc = F->div(PROPER__EXACT_AT(F, dst, s), PROPER__EXACT_AT(F, st, s), es);
        }
        if (!rc) rc = F->div(es, unit, es); /* the mean sojourn 1 / E(s) */
    }
    for (r = 0; r < e->n_rewards && r < de->n_rewards && !rc; r++) {
        const void *tr = proper__exact_reward_array(e, r, e->n_params != 0, 1);
        void *dtr = proper__exact_reward_array(de, r, e->n_params != 0, 1);
        for (k = 0; tr && dtr && k < m->n_trans && !rc; k++)
            rc = F->copy(PROPER__EXACT_AT(F, dtr, k), PROPER__EXACT_AT(F, tr, k));
    }
    if (rc) proper_error_set(err, rc, NULL, 0, 0, rc == PROPER_EINVAL ? "a state of the CTMC has exit rate 0" : "out of memory");
done:
    proper__exact_free_elems(F, unit, unit ? 1 : 0);
    if (!rc && sojourn) {
        *sojourn = exit;
        return PROPER_OK;
    }
    proper__exact_free_elems(F, exit, exit ? m->n_states : 0);
    if (rc) {
        proper_dtmc_free(dm);
        proper_exact_dtmc_free(de);
        if (rc == PROPER_ENOMEM) proper_error_set(err, rc, NULL, 0, 0, "out of memory");
    }
    return rc;
}

PROPER_API int proper_exact_prob_until(const proper_dtmc *m, const proper_exact_dtmc *e, const proper_bitset *phi1,
                                       const proper_bitset *phi2, const proper_exact_opts *opts, proper_exact_vec *x,
                                       proper_exact_stats *stats, proper_error *err) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    const void *prob = proper__exact_probs(e);
    proper_exact_opts o = opts ? *opts : proper_exact_opts_default();
    proper_bitset no, yes, maybe;
    proper_exact_vec v;
    uint32_t s;
    int rc;
    if ((rc = proper__exact_fits(e, m, err))) return rc;
    if (phi2->n != m->n_states || (phi1 && phi1->n != m->n_states))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "state sets do not match the model");
    if (m->kind == PROPER_DTMC_KIND_CTMC) { /* the embedded chain's */
        proper_dtmc dm;
        proper_exact_dtmc de;
        if ((rc = proper__exact_embed(m, e, &dm, &de, NULL, err))) return rc;
        rc = proper_exact_prob_until(&dm, &de, phi1, phi2, opts, x, stats, err);
        proper_dtmc_free(&dm);
        proper_exact_dtmc_free(&de);
        return rc;
    }
    proper__exact_stats_start(stats);
    proper_bitset_init(&no);
    proper_bitset_init(&yes);
    proper_bitset_init(&maybe);
    proper_exact_vec_init(&v);
    if ((rc = proper_dtmc_prob0(m, phi1, phi2, &no, err)) || (rc = proper_dtmc_prob1(m, phi1, phi2, &yes, err)) ||
        (rc = proper_bitset_copy(&maybe, &no, err)))
        goto done;
    proper_bitset_or(&maybe, &yes);
    proper_bitset_not(&maybe);
    if ((rc = proper__exact_vec_alloc(&v, m->n_states, e->n_params))) {
        rc = proper_error_set(err, rc, NULL, 0, 0, "out of memory");
        goto done;
    }
    for (s = 0; s < m->n_states && !rc; s++)
        if (PROPER_BITSET_GET(&yes, s)) rc = F->set_int(PROPER__EXACT_AT(F, proper__exact_vec_data(&v), s), 1);
    if (rc) { rc = proper_error_set(err, rc, NULL, 0, 0, "out of memory"); goto done; }
    rc = proper__exact_solve(m, F, prob, NULL, &maybe, proper__exact_vec_data(&v), &o, stats, err);
    if (!rc) {
        proper__exact_vec_stats(&v, stats);
        proper_exact_vec_free(x);
        *x = v;
        proper_exact_vec_init(&v);
    }
done:
    proper_exact_vec_free(&v);
    proper_bitset_free(&no);
    proper_bitset_free(&yes);
    proper_bitset_free(&maybe);
    return rc;
}

PROPER_API int proper_exact_reward_reach(const proper_dtmc *m, const proper_exact_dtmc *e, size_t r,
                                         const proper_bitset *phi, const proper_exact_opts *opts, proper_exact_vec *x,
                                         proper_exact_stats *stats, proper_error *err) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    const void *prob = proper__exact_probs(e);
    proper_exact_opts o = opts ? *opts : proper_exact_opts_default();
    const proper_exact_reward *rw;
    const void *st, *tr;
    proper_bitset yes, solve;
    proper_exact_vec v;
    void *b = NULL, *t = NULL;
    uint32_t s;
    int rc;
    if ((rc = proper__exact_fits(e, m, err))) return rc;
    if (r >= e->n_rewards) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no reward structure %lu", (unsigned long)r);
    if (phi->n != m->n_states) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "state set does not match the model");
    if (m->kind == PROPER_DTMC_KIND_CTMC) { /* the embedded chain's, state rewards per visit */
        proper_dtmc dm;
        proper_exact_dtmc de;
        if ((rc = proper__exact_embed(m, e, &dm, &de, NULL, err))) return rc;
        rc = proper_exact_reward_reach(&dm, &de, r, phi, opts, x, stats, err);
        proper_dtmc_free(&dm);
        proper_exact_dtmc_free(&de);
        return rc;
    }
    rw = &e->rewards[r];
    st = proper__exact_reward_array(e, r, e->n_params != 0, 0);
    tr = proper__exact_reward_array(e, r, e->n_params != 0, 1);
    proper__exact_stats_start(stats);
    proper_bitset_init(&yes);
    proper_bitset_init(&solve);
    proper_exact_vec_init(&v);
    /* R=?[F phi] is finite exactly where phi is reached with probability 1 */
    if ((rc = proper_dtmc_prob1(m, NULL, phi, &yes, err)) || (rc = proper_bitset_copy(&solve, phi, err))) goto done;
    proper_bitset_not(&solve);
    proper_bitset_and(&solve, &yes);
    if ((rc = proper__exact_vec_alloc(&v, m->n_states, e->n_params)) || !(b = proper__exact_alloc_elems(F, m->n_states)) ||
        !(t = proper__exact_alloc_elems(F, 1))) {
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    /* b_s = state reward + sum_t P(s,t) trans_reward(s,t) */
    for (s = 0; s < m->n_states && !rc; s++) {
        uint64_t k;
        void *bs = PROPER__EXACT_AT(F, b, s);
        if (!PROPER_BITSET_GET(&yes, s)) { v.inf[s] = 1; continue; }
        if (!PROPER_BITSET_GET(&solve, s)) continue;
        if (st) rc = F->copy(bs, PROPER__EXACT_AT(F, st, s));
        for (k = m->row[s]; tr && k < m->row[s + 1] && !rc; k++)
            rc = proper__exact_fma(F, bs, PROPER__EXACT_AT(F, prob, k), PROPER__EXACT_AT(F, tr, k), t);
        if (!rc && !e->n_params && proper_rat_sign((const proper_rat *)bs) < 0) {
            rc = proper_error_set(err, PROPER_EINVAL, NULL, 0, 0,
                                  "reward structure \"%s\": state %lu has a negative expected reward", rw->name,
                                  (unsigned long)s);
            goto done;
        }
    }
    if (rc) { rc = proper_error_set(err, rc, NULL, 0, 0, "out of memory"); goto done; }
    rc = proper__exact_solve(m, F, prob, b, &solve, proper__exact_vec_data(&v), &o, stats, err);
    if (!rc) {
        proper__exact_vec_stats(&v, stats);
        proper_exact_vec_free(x);
        *x = v;
        proper_exact_vec_init(&v);
    }
done:
    proper__exact_free_elems(F, b, b ? m->n_states : 0);
    proper__exact_free_elems(F, t, t ? 1 : 0);
    proper_exact_vec_free(&v);
    proper_bitset_free(&yes);
    proper_bitset_free(&solve);
    return rc;
}

PROPER_API void proper_exact_vec_format(const proper_exact_vec *x, const proper_exact_dtmc *e, uint32_t s,
                                        proper_strbuf *b) {
    if (s >= x->n) { b->failed = 1; return; }
    if (x->inf[s]) proper_strbuf_puts(b, "Infinity");
    else if (x->q) proper_rat_format(&x->q[s], b);
    else proper_ratfun_format(&x->f[s], (const char *const *)e->param_names, b);
}

/* ---- next, bounded and long-run operators ---------------------------------------------- */

/* y = P x on every state (y != x). */
static int proper__exact_step(const proper_dtmc *m, const proper__exact_field *F, const void *prob, const void *x,
                              void *y, void *t) {
    uint32_t s;
    int rc = PROPER_OK;
    for (s = 0; s < m->n_states && !rc; s++) {
        uint64_t k;
        void *ys = PROPER__EXACT_AT(F, y, s);
        rc = F->set_int(ys, 0);
        for (k = m->row[s]; k < m->row[s + 1] && !rc; k++)
            rc = proper__exact_fma(F, ys, PROPER__EXACT_AT(F, prob, k), PROPER__EXACT_AT(F, x, m->col[k]), t);
    }
    return rc;
}

static int proper__exact_equal(const proper__exact_field *F, const void *a, const void *b, uint32_t n) {
    uint32_t s;
    for (s = 0; s < n; s++) {
        const void *x = PROPER__EXACT_AT(F, a, s), *y = PROPER__EXACT_AT(F, b, s);
        if (F == &proper__exact_rat_field ? proper_rat_cmp((const proper_rat *)x, (const proper_rat *)y) != 0
                                          : !proper_ratfun_equal((const proper_ratfun *)x, (const proper_ratfun *)y))
            return 0;
    }
    return 1;
}


/* The value of every state after k steps of
 *   x_{i+1} = b + P x_i, then x_{i+1}[s] = fix[s] where fix_mask has s,
 * from x_0 = init (NULL: 0). An iterate equal to the previous one is a
 * fixed point: the remaining steps are skipped (exactly). */
static int proper__exact_iterate(const proper_dtmc *m, const proper_exact_dtmc *e, const void *init, const void *b,
                                 const proper_bitset *fix_mask, const void *fix, unsigned long k, proper_exact_vec *x,
                                 proper_error *err) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    const void *prob = proper__exact_probs(e);
    proper_exact_vec u, w;
    void *t = NULL;
    uint32_t s;
    unsigned long i;
    int rc;
    proper_exact_vec_init(&u);
    proper_exact_vec_init(&w);
    if ((rc = proper__exact_vec_alloc(&u, m->n_states, e->n_params)) ||
        (rc = proper__exact_vec_alloc(&w, m->n_states, e->n_params)) || !(t = proper__exact_alloc_elems(F, 1))) {
        rc = PROPER_ENOMEM;
        goto done;
    }
    for (s = 0; init && s < m->n_states && !rc; s++)
        rc = F->copy(PROPER__EXACT_AT(F, proper__exact_vec_data(&u), s), PROPER__EXACT_AT(F, init, s));
    for (i = 0; i < k && !rc; i++) {
        void *xu = proper__exact_vec_data(&u), *xw = proper__exact_vec_data(&w);
        if (i == PROPER_EXACT_MAX_STEPS) {
            rc = proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0,
                                  "a step bound of %lu is beyond the %lu steps solved exactly (the iterates have "
                                  "not reached a fixed point)", k, (unsigned long)PROPER_EXACT_MAX_STEPS);
            goto done;
        }
        proper_exact_vec swap;
        if ((rc = proper__exact_step(m, F, prob, xu, xw, t))) break;
        for (s = 0; s < m->n_states && !rc; s++) {
            void *ws = PROPER__EXACT_AT(F, xw, s);
            if (fix_mask && PROPER_BITSET_GET(fix_mask, s)) rc = F->copy(ws, PROPER__EXACT_AT(F, fix, s));
            else if (b) rc = F->add(ws, ws, PROPER__EXACT_AT(F, b, s));
        }
        if (rc) break;
        swap = u;
        u = w;
        w = swap;
        if (proper__exact_equal(F, proper__exact_vec_data(&u), proper__exact_vec_data(&w), m->n_states)) break;
    }
    if (!rc) {
        proper_exact_vec_free(x);
        *x = u;
        proper_exact_vec_init(&u);
    }
done:
    proper_exact_vec_free(&u);
    proper_exact_vec_free(&w);
    proper__exact_free_elems(F, t, t ? 1 : 0);
    if (rc == PROPER_ELIMIT && (!err || err->code != rc))
        return proper_error_set(err, rc, NULL, 0, 0, "a number beyond %lu limbs", (unsigned long)PROPER_EXACT_MAX_LIMBS);
    if (rc == PROPER_ELIMIT) return rc;
    if (rc) return proper_error_set(err, rc, NULL, 0, 0, "out of memory");
    return PROPER_OK;
}

/* n values: 1 on the states of `set`, 0 elsewhere. */
static int proper__exact_indicator(const proper__exact_field *F, const proper_bitset *set, uint32_t n, void **out) {
    uint32_t s;
    int rc = PROPER_OK;
    void *a = proper__exact_alloc_elems(F, n);
    if (!a) return PROPER_ENOMEM;
    for (s = 0; s < n && !rc; s++)
        if (PROPER_BITSET_GET(set, s)) rc = F->set_int(PROPER__EXACT_AT(F, a, s), 1);
    if (rc) { proper__exact_free_elems(F, a, n); return rc; }
    *out = a;
    return PROPER_OK;
}

static int proper__exact_sets_fit(const proper_dtmc *m, const proper_bitset *a, const proper_bitset *b, proper_error *err) {
    if ((a && a->n != m->n_states) || (b && b->n != m->n_states))
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "state sets do not match the model");
    return PROPER_OK;
}

PROPER_API int proper_exact_prob_next(const proper_dtmc *m, const proper_exact_dtmc *e, const proper_bitset *phi,
                                      proper_exact_vec *x, proper_error *err) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    void *ind = NULL;
    int rc;
    if ((rc = proper__exact_fits_dtmc(e, m, err)) || (rc = proper__exact_sets_fit(m, phi, NULL, err))) return rc;
    if (proper__exact_indicator(F, phi, m->n_states, &ind)) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    rc = proper__exact_iterate(m, e, ind, NULL, NULL, NULL, 1, x, err);
    proper__exact_free_elems(F, ind, m->n_states);
    return rc;
}

PROPER_API int proper_exact_prob_bounded_until(const proper_dtmc *m, const proper_exact_dtmc *e,
                                               const proper_bitset *phi1, const proper_bitset *phi2, unsigned long k,
                                               proper_exact_vec *x, proper_error *err) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    proper_bitset fixed;
    void *ind = NULL;
    int rc;
    if ((rc = proper__exact_fits_dtmc(e, m, err)) || (rc = proper__exact_sets_fit(m, phi1, phi2, err))) return rc;
    /* states in phi2 keep 1, states in neither phi1 nor phi2 keep 0 */
    proper_bitset_init(&fixed);
    if (phi1) {
        if ((rc = proper_bitset_copy(&fixed, phi1, err))) return rc;
        proper_bitset_not(&fixed);
        proper_bitset_or(&fixed, phi2);
    } else if ((rc = proper_bitset_copy(&fixed, phi2, err))) {
        return rc;
    }
    if (proper__exact_indicator(F, phi2, m->n_states, &ind)) {
        proper_bitset_free(&fixed);
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    }
    rc = proper__exact_iterate(m, e, ind, NULL, &fixed, ind, k, x, err);
    proper__exact_free_elems(F, ind, m->n_states);
    proper_bitset_free(&fixed);
    return rc;
}

/* The expected reward of one step from each state: state reward plus the
 * transition rewards weighted by the probabilities. */
static int proper__exact_step_reward(const proper_dtmc *m, const proper_exact_dtmc *e, size_t r, void **out) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    const void *prob = proper__exact_probs(e);
    const void *st = proper__exact_reward_array(e, r, e->n_params != 0, 0);
    const void *tr = proper__exact_reward_array(e, r, e->n_params != 0, 1);
    void *b = proper__exact_alloc_elems(F, m->n_states), *t = proper__exact_alloc_elems(F, 1);
    uint32_t s;
    int rc = b && t ? PROPER_OK : PROPER_ENOMEM;
    for (s = 0; s < m->n_states && !rc; s++) {
        uint64_t k;
        void *bs = PROPER__EXACT_AT(F, b, s);
        if (st) rc = F->copy(bs, PROPER__EXACT_AT(F, st, s));
        for (k = m->row[s]; tr && k < m->row[s + 1] && !rc; k++)
            rc = proper__exact_fma(F, bs, PROPER__EXACT_AT(F, prob, k), PROPER__EXACT_AT(F, tr, k), t);
    }
    proper__exact_free_elems(F, t, t ? 1 : 0);
    if (rc) { proper__exact_free_elems(F, b, b ? m->n_states : 0); return rc; }
    *out = b;
    return PROPER_OK;
}

PROPER_API int proper_exact_reward_cumulative(const proper_dtmc *m, const proper_exact_dtmc *e, size_t r,
                                              unsigned long k, proper_exact_vec *x, proper_error *err) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    void *b = NULL;
    int rc;
    if ((rc = proper__exact_fits_dtmc(e, m, err))) return rc;
    if (r >= e->n_rewards) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no reward structure %lu", (unsigned long)r);
    if (proper__exact_step_reward(m, e, r, &b)) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    rc = proper__exact_iterate(m, e, NULL, b, NULL, NULL, k, x, err);
    proper__exact_free_elems(F, b, m->n_states);
    return rc;
}

PROPER_API int proper_exact_reward_instant(const proper_dtmc *m, const proper_exact_dtmc *e, size_t r,
                                           unsigned long k, proper_exact_vec *x, proper_error *err) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    const proper_exact_reward *rw;
    const void *st;
    void *zero = NULL;
    int rc;
    if ((rc = proper__exact_fits_dtmc(e, m, err))) return rc;
    if (r >= e->n_rewards) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no reward structure %lu", (unsigned long)r);
    rw = &e->rewards[r];
    st = e->n_params ? (const void *)rw->fstate : (const void *)rw->state;
    if (!st && !(zero = proper__exact_alloc_elems(F, m->n_states)))
        return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    rc = proper__exact_iterate(m, e, st ? st : zero, NULL, NULL, NULL, k, x, err);
    proper__exact_free_elems(F, zero, zero ? m->n_states : 0);
    return rc;
}

/* Stationary mass of phi (or, with w, the stationary mean of the weights
 * w, one per state of m) in one bottom SCC B: with pi_r = 1 for the first
 * state r of B, the other states satisfy pi_j = P(r,j) + sum_{i != r}
 * pi_i P(i,j) (the balance equations without r's), solved by the same
 * elimination on the transposed chain; then mass = sum_{phi} pi / sum pi
 * (sum pi w / sum pi). With tau (a CTMC's embedded chain: the mean sojourn
 * of each state) the denominator is sum pi tau: the long-run fraction of
 * time, a renewal-reward ratio. */
static int proper__exact_bscc_mass(const proper_dtmc *m, const proper__exact_field *F, const void *prob,
                                   const uint32_t *members, uint32_t n, const proper_bitset *phi, const void *w,
                                   const void *tau, const proper_exact_opts *opts, proper_exact_stats *stats,
                                   void *mass, proper_error *err) {
    proper_dtmc tm;
    uint32_t *local = NULL, i, r = members[0];
    uint64_t *cnt = NULL, k, nt = 0;
    void *tp = NULL, *b = NULL, *xs = NULL, *t = NULL, *tot = NULL;
    proper_bitset solve;
    int rc = PROPER_OK;
    proper_dtmc_init(&tm);
    proper_bitset_init(&solve);
    if (!(local = (uint32_t *)PROPER_MALLOC((size_t)m->n_states * sizeof *local)) ||
        !(cnt = (uint64_t *)proper_calloc((size_t)n + 1, sizeof *cnt)) || !(b = proper__exact_alloc_elems(F, n)) ||
        !(xs = proper__exact_alloc_elems(F, n)) || !(t = proper__exact_alloc_elems(F, 1)) ||
        !(tot = proper__exact_alloc_elems(F, 1))) {
        rc = PROPER_ENOMEM;
        goto done;
    }
    for (i = 0; i < m->n_states; i++) local[i] = UINT32_MAX;
    for (i = 0; i < n; i++) local[members[i]] = i;
    /* transposed edges i -> j become j <- i: count per destination row */
    for (i = 0; i < n; i++)
        for (k = m->row[members[i]]; k < m->row[members[i] + 1]; k++) {
            uint32_t j = local[m->col[k]];
            if (j == 0) { if (i) continue; } /* r's balance equation is dropped */
            if (i == 0) {
                if ((rc = F->copy(PROPER__EXACT_AT(F, b, j), PROPER__EXACT_AT(F, prob, k)))) goto done;
                continue;
            }
            cnt[j + 1]++;
            nt++;
        }
    tm.n_states = n;
    tm.n_trans = nt;
    if (!(tm.row = (uint64_t *)proper_calloc((size_t)n + 1, sizeof *tm.row)) ||
        !(tm.col = (uint32_t *)proper_calloc(nt ? nt : 1, sizeof *tm.col)) || !(tp = proper__exact_alloc_elems(F, nt))) {
        rc = PROPER_ENOMEM;
        goto done;
    }
    for (i = 0; i < n; i++) cnt[i + 1] += cnt[i];
    for (i = 0; i <= n; i++) tm.row[i] = cnt[i];
    for (i = 1; i < n; i++)
        for (k = m->row[members[i]]; k < m->row[members[i] + 1]; k++) {
            uint32_t j = local[m->col[k]];
            if (j == 0) continue;
            tm.col[cnt[j]] = i;
            if ((rc = F->copy(PROPER__EXACT_AT(F, tp, cnt[j]), PROPER__EXACT_AT(F, prob, k)))) goto done;
            cnt[j]++;
        }
    if ((rc = proper_bitset_create(&solve, n, err))) goto done;
    for (i = 1; i < n; i++) proper_bitset_set(&solve, i);
    if ((rc = F->set_int(PROPER__EXACT_AT(F, xs, 0), 1))) goto done;
    if ((rc = proper__exact_solve(&tm, F, tp, b, &solve, xs, opts, stats, err))) goto done;
    if ((rc = F->set_int(tot, 0)) || (rc = F->set_int(mass, 0))) goto done;
    for (i = 0; i < n && !rc; i++) {
        rc = tau ? proper__exact_fma(F, tot, PROPER__EXACT_AT(F, xs, i), PROPER__EXACT_AT(F, tau, members[i]), t)
                 : F->add(tot, tot, PROPER__EXACT_AT(F, xs, i));
        if (!rc && w) rc = proper__exact_fma(F, mass, PROPER__EXACT_AT(F, xs, i), PROPER__EXACT_AT(F, w, members[i]), t);
        else if (!rc && PROPER_BITSET_GET(phi, members[i])) rc = F->add(mass, mass, PROPER__EXACT_AT(F, xs, i));
    }
    if (!rc) rc = F->div(mass, mass, tot);
done:
    (void)r;
    if (rc && (!err || err->code != rc)) proper_error_set(err, rc, NULL, 0, 0, rc == PROPER_ENOMEM ? "out of memory" : "steady-state solve failed");
    proper__exact_free_elems(F, tp, tp ? nt : 0);
    PROPER_FREE(tm.row);
    PROPER_FREE(tm.col);
    PROPER_FREE(local);
    PROPER_FREE(cnt);
    proper__exact_free_elems(F, b, b ? n : 0);
    proper__exact_free_elems(F, xs, xs ? n : 0);
    proper__exact_free_elems(F, t, t ? 1 : 0);
    proper__exact_free_elems(F, tot, tot ? 1 : 0);
    proper_bitset_free(&solve);
    return rc;
}

/* S=? [ phi ] (w NULL) or the long-run average of the weights w. */
static int proper__exact_steady_weighted(const proper_dtmc *m, const proper_exact_dtmc *e, const proper_bitset *phi,
                                         const void *w, const void *tau, const proper_exact_opts *opts,
                                         proper_exact_vec *x, proper_exact_stats *stats, proper_error *err) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    const void *prob = proper__exact_probs(e);
    proper_exact_opts o = opts ? *opts : proper_exact_opts_default();
    uint32_t *bscc = NULL, *members = NULL, *start = NULL, nb = 0, s, c;
    proper_bitset transient;
    proper_exact_vec v;
    void *mass = NULL;
    int rc;
    if ((rc = proper__exact_fits(e, m, err)) || (!w && (rc = proper__exact_sets_fit(m, phi, NULL, err)))) return rc;
    proper__exact_stats_start(stats);
    proper_bitset_init(&transient);
    proper_exact_vec_init(&v);
    if (!(bscc = (uint32_t *)PROPER_MALLOC(((size_t)m->n_states + 1) * sizeof *bscc)) ||
        !(members = (uint32_t *)PROPER_MALLOC(((size_t)m->n_states + 1) * sizeof *members))) {
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    if ((rc = proper_dtmc_bscc(m, bscc, &nb, err))) goto done;
    if (!(start = (uint32_t *)proper_calloc((size_t)nb + 2, sizeof *start)) || !(mass = proper__exact_alloc_elems(F, nb)) ||
        proper__exact_vec_alloc(&v, m->n_states, e->n_params) || proper_bitset_create(&transient, m->n_states, err)) {
        rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
        goto done;
    }
    for (s = 0; s < m->n_states; s++) {
        if (bscc[s] == UINT32_MAX) proper_bitset_set(&transient, s);
        else start[bscc[s] + 1]++;
    }
    for (c = 0; c < nb; c++) start[c + 1] += start[c];
    for (s = 0; s < m->n_states; s++)
        if (bscc[s] != UINT32_MAX) members[start[bscc[s]]++] = s;
    for (c = nb; c > 0; c--) start[c] = start[c - 1];
    start[0] = 0;
    for (c = 0; c < nb && !rc; c++)
        rc = proper__exact_bscc_mass(m, F, prob, members + start[c], start[c + 1] - start[c], phi, w, tau, &o, NULL,
                                     PROPER__EXACT_AT(F, mass, c), err);
    for (s = 0; s < m->n_states && !rc; s++)
        if (bscc[s] != UINT32_MAX) rc = F->copy(PROPER__EXACT_AT(F, proper__exact_vec_data(&v), s), PROPER__EXACT_AT(F, mass, bscc[s]));
    if (rc) goto done;
    /* transient states: the BSCC masses weighted by the probabilities of reaching them */
    if ((rc = proper__exact_solve(m, F, prob, NULL, &transient, proper__exact_vec_data(&v), &o, stats, err))) goto done;
    proper__exact_vec_stats(&v, stats);
    proper_exact_vec_free(x);
    *x = v;
    proper_exact_vec_init(&v);
done:
    PROPER_FREE(bscc);
    PROPER_FREE(members);
    PROPER_FREE(start);
    proper__exact_free_elems(F, mass, mass ? nb : 0);
    proper_bitset_free(&transient);
    proper_exact_vec_free(&v);
    return rc;
}

/* A CTMC's S=? (r == SIZE_MAX, phi given) or R=? [ S ] (reward r, per
 * unit of time: the state reward rate plus the rates times the transition
 * rewards) on its embedded chain: per BSCC, sum pi w / sum pi tau with tau
 * the mean sojourns and w = tau on phi (S=?) or the embedded chain's step
 * reward, r(s) / E(s) + sum_t P(s,t) trans(s,t) (R=? [ S ]). */
static int proper__exact_ctmc_steady(const proper_dtmc *m, const proper_exact_dtmc *e, const proper_bitset *phi,
                                     size_t r, const proper_exact_opts *opts, proper_exact_vec *x,
                                     proper_exact_stats *stats, proper_error *err) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    proper_dtmc dm;
    proper_exact_dtmc de;
    void *tau = NULL, *w = NULL;
    uint32_t s;
    int rc;
    if ((rc = proper__exact_embed(m, e, &dm, &de, &tau, err))) return rc;
    if (phi) {
        if (!(w = proper__exact_alloc_elems(F, m->n_states))) rc = PROPER_ENOMEM;
        for (s = 0; s < m->n_states && !rc; s++)
            if (PROPER_BITSET_GET(phi, s)) rc = F->copy(PROPER__EXACT_AT(F, w, s), PROPER__EXACT_AT(F, tau, s));
    } else {
        rc = proper__exact_step_reward(&dm, &de, r, &w);
    }
    if (rc) rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    else rc = proper__exact_steady_weighted(&dm, &de, NULL, w, tau, opts, x, stats, err);
    proper__exact_free_elems(F, w, w ? m->n_states : 0);
    proper__exact_free_elems(F, tau, m->n_states);
    proper_dtmc_free(&dm);
    proper_exact_dtmc_free(&de);
    return rc;
}

PROPER_API int proper_exact_steady(const proper_dtmc *m, const proper_exact_dtmc *e, const proper_bitset *phi,
                                   const proper_exact_opts *opts, proper_exact_vec *x, proper_exact_stats *stats,
                                   proper_error *err) {
    int rc;
    if ((rc = proper__exact_fits(e, m, err)) || (rc = proper__exact_sets_fit(m, phi, NULL, err))) return rc;
    if (m->kind == PROPER_DTMC_KIND_CTMC) return proper__exact_ctmc_steady(m, e, phi, (size_t)-1, opts, x, stats, err);
    return proper__exact_steady_weighted(m, e, phi, NULL, NULL, opts, x, stats, err);
}

PROPER_API int proper_exact_reward_steady(const proper_dtmc *m, const proper_exact_dtmc *e, size_t r,
                                          const proper_exact_opts *opts, proper_exact_vec *x, proper_exact_stats *stats,
                                          proper_error *err) {
    const proper__exact_field *F = proper__exact_field_of(e->n_params);
    void *w = NULL;
    int rc;
    if ((rc = proper__exact_fits(e, m, err))) return rc;
    if (r >= e->n_rewards) return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no reward structure %lu", (unsigned long)r);
    if (m->kind == PROPER_DTMC_KIND_CTMC) return proper__exact_ctmc_steady(m, e, NULL, r, opts, x, stats, err);
    if (proper__exact_step_reward(m, e, r, &w)) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    rc = proper__exact_steady_weighted(m, e, NULL, w, NULL, opts, x, stats, err);
    proper__exact_free_elems(F, w, m->n_states);
    return rc;
}

#endif /* PROPER_EXACT_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
