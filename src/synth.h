/* synth.h — annotated C/Java source → parametric DTMC (PROPER, Algorithm 1).
 *
 * Implements the model synthesis of Stefanakos, Calinescu & Gerasimou,
 * "Probabilistic program performance analysis with confidence intervals"
 * (Information and Software Technology, 2023): one function of a brace
 * language becomes a parametric DTMC with
 *   - one state per statement (plus an absorbing `end` state),
 *   - one parameter per conditional and per loop, p1..pn in source order,
 *   - one reward structure per annotation name (`@time`, `@cost`, ...).
 *
 * SOURCE SUBSET
 *   Only the statement structure matters; expressions are skipped safely
 *   (strings, text blocks, chars, comments, nested parentheses, generics,
 *   lambdas and anonymous classes inside expressions).
 *     statement := block | if | while | for | do | switch | try
 *                | return ... ; | throw ... ; | break ; | continue ;
 *                | ';' | expression-or-declaration ;
 *   Accepted beyond the paper, each modelled exactly:
 *     break     jumps to the state after the innermost loop or switch;
 *     continue  jumps to the innermost loop's condition state;
 *     switch    `switch (e) { case a: ... default: ... }` is a chain of
 *               conditionals, one parameter per case label (the last label
 *               gets one too unless it is `default`), with C/Java fall-through;
 *     try       the try block runs, then `finally`; catch blocks are the
 *               exceptional path and are not modelled (like `throw`, which
 *               ends the run: exceptions are assumed not caught inside);
 *               annotations on a catch block's lines are ignored, each
 *               with a warning in m->warnings.
 *   Rejected with an error naming the line: goto, labelled statements
 *   (`outer: for ...`), `break label`, `continue label`.
 *     tail call `return f(...);` or `return this.f(...);` of the modelled
 *               function itself: a jump back to its first statement (the
 *               paper's construction for binarySearch, Fig. 14: exact for
 *               additive rewards, since nothing runs after the call returns);
 *               state "call".
 *   Rejected with an error at the call: any other call of the function
 *   itself (`return f(n-1) + f(n-2)`, `x = f(n)`, `return f(f(n))`): one
 *   activation's chain cannot model what runs after a call returns. Two
 *   definitions of the function in the file (overloads, #if alternatives)
 *   are an error naming both lines.
 *
 * STATES AND PARAMETERS
 *   if (c) A else B      state `if` --p--> A, --(1-p)--> B (or the next statement)
 *   while (c) A          state `while` --p--> A, --(1-p)--> next; A ends at `while`
 *   for (i; c; u) A      as while; the header state stands for init, test, update
 *   do A while (c);      state `do` --1--> A; A ends at state `while` --p--> A,
 *                        --(1-p)--> next
 *   return / throw       --1--> end
 *
 * ANNOTATIONS
 *   In a comment on a statement's line: `// @time=0.01`,
 *   `//@cost=0.25,@time=0.03`, a block comment holding `@energy=60`. The
 *   value is the reward of that statement's state each time it is visited.
 *   An annotation binds to the statement it is written in: the statement
 *   that starts on its line (the first one, so `if (c) x(); // @time=1`
 *   annotates the `if`), else the statement whose text continues onto its
 *   line (a continuation line of a multi-line statement; a compound
 *   statement's text is its header up to the `)`). A line that ends one
 *   statement and starts another is ambiguous: an error. A comment on a line
 *   with no statement text (a line of its own, or beside `}` or `else`)
 *   annotates the next statement of its block (documented extension); when
 *   none follows in its block (an annotation on a commented-out last line of
 *   a branch, as in the artifact's DevPerf) it is an error (with
 *   opts.lenient a warning, and ignored), never carried into the next block.
 *   Inside the function every `@word` in a comment must be a well-formed
 *   annotation `@name=number`: `@energy:67`, `@time=`, `@time=1ms` are
 *   errors at the '@' (warnings, and ignored, with opts.lenient; negative
 *   or infinite values are always errors). `{@link x}` and `a@b` are not
 *   @words; comments outside the function are not read.
 *
 * OUTPUT
 *   proper_synth_model: the source map (states with their lines, keywords
 *   and successors, which estimate.h's flow forms read; parameters with
 *   their constructs; reward names) and the model itself, m->dtmc, a
 *   proper_dtmc built with dtmc.h's builder: one state per statement (the
 *   same numbers), the parameters as parametric rows
 *   (proper_dtmc_set_param_rows: state `taken` with p_k, `next` with
 *   1 - p_k; stored at p_k = 1/2), one reward structure per annotation name
 *   whose state rewards are the annotation values (proper_synth_reward_at),
 *   label "end", initial state `initial`.
 *   Every solver of dtmc.h applies: proper_dtmc_param_instantiate gives the
 *   plain chain at a point (to solve, or export as DRN, PRISM explicit
 *   files or PRISM language) and proper_dtmc_param_reward_range the exact
 *   range of an expected reward over a box of parameters (estimate.h).
 *   proper_synth_write_prism writes the parametric model in the PRISM
 *   language, in the shape of the paper's Fig. 5 with `// line:N` comments.
 *   proper_synth_parse and proper_synth_read follow the output rule: the
 *   model is initialised (proper_synth_init) or holds an earlier model, which
 *   is replaced on success; on failure it is left unchanged.
 *
 * CONFIGURATION (define before including to override)
 *   PROPER_SYNTH_MAX_DEPTH     statement nesting limit (512): deeper input is
 *                              rejected with PROPER_ELIMIT, not a stack overflow
 *   PROPER_SYNTH_MAX_BRACKETS  bracket nesting limit inside one expression (4096)
 */
#ifndef PROPER_SYNTH_H
#define PROPER_SYNTH_H

#include "core.h"
#include "dtmc.h"
#include <stdio.h>

#ifndef PROPER_SYNTH_MAX_DEPTH
#define PROPER_SYNTH_MAX_DEPTH 512
#endif
#ifndef PROPER_SYNTH_MAX_BRACKETS
#define PROPER_SYNTH_MAX_BRACKETS 4096
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum proper_synth_kind {
    PROPER_SYNTH_STMT = 0,   /* plain statement: one successor with probability 1 */
    PROPER_SYNTH_BRANCH = 1, /* conditional (if, switch case): p to `taken`, 1-p to `next` */
    PROPER_SYNTH_LOOP = 2,   /* loop condition: p to `taken` (the body), 1-p to `next` */
    PROPER_SYNTH_END = 3     /* absorbing end state */
};

typedef struct proper_synth_state {
    int kind;          /* enum proper_synth_kind */
    int line;          /* source line of the statement (0 for end) */
    int last_line;     /* last line of the statement's own text: > line for a
                          statement continued over several lines (a compound
                          statement's text is its header, up to its ')') */
    int param;         /* parameter index (0-based) for BRANCH/LOOP, else -1 */
    size_t next;       /* successor (prob. 1, or 1-p for BRANCH/LOOP) */
    size_t taken;      /* successor with probability p (BRANCH/LOOP only) */
    char what[16];     /* statement keyword: "if", "while", "for", "do", "case",
                          "return", "throw", "break", "continue", "stmt", "end",
                          or "call" (a tail call of the function: next is the entry) */
} proper_synth_state;

typedef struct proper_synth_param {
    int line;          /* line of the construct */
    int is_loop;       /* 1 for while/for/do, 0 for if/case */
    size_t state;      /* the state the parameter sits at */
    size_t do_state;   /* do loops: the `do` state (its visits = loop entries);
                          (size_t)-1 otherwise */
    size_t body_first, body_end; /* loops: the body's states are
                          [body_first, body_end); 0, 0 for conditionals */
    char name[16];     /* "p1", "p2", ... */
} proper_synth_param;

typedef struct proper_synth_model {
    char function[128];
    size_t n_states;
    proper_synth_state *states; /* state 0 is the function's first statement */
    size_t initial, end;
    size_t n_params;
    proper_synth_param *params;
    size_t n_rewards;
    char (*reward_names)[32];   /* n_rewards names; the values per state are
                                   the chain's state rewards (proper_synth_reward_at) */
    char *warnings;             /* NULL, or one "file:line:col: message" line per
                                   annotation ignored: in a catch block, or
                                   malformed/misplaced under opts.lenient */
    proper_dtmc dtmc;           /* the parametric DTMC (see OUTPUT): state i of
                                   the source map is state i; reward structure r
                                   is reward_names[r]; parameter k is params[k] */
} proper_synth_model;

typedef struct proper_synth_opts {
    int lenient;  /* a malformed @annotation in the function (`@energy:67`,
                     `@time=`) is a warning in m->warnings and ignored, instead
                     of an error (negative or infinite values stay errors) */
} proper_synth_opts;

/* The defaults: strict (every malformed annotation is an error). */
PROPER_API proper_synth_opts proper_synth_opts_default(void);

/* The empty model (no states); allocates nothing. */
PROPER_API void proper_synth_init(proper_synth_model *m);
/* Parse `text` (C or Java), find function `function` (its definition: a
 * name followed by a parameter list and a body) and synthesise its model.
 * `file` names the source in errors. Output rule: see the manual. */
PROPER_API int proper_synth_parse(proper_synth_model *m, const char *text, size_t len,
                                  const char *file, const char *function, proper_error *err);
/* proper_synth_parse of the file at `path`. */
PROPER_API int proper_synth_read(proper_synth_model *m, const char *path,
                                 const char *function, proper_error *err);
/* The same with options (proper_synth_opts_default() for the plain ones). */
PROPER_API int proper_synth_parse_opts(proper_synth_model *m, const char *text, size_t len, const char *file,
                                       const char *function, proper_synth_opts opts, proper_error *err);
PROPER_API int proper_synth_read_opts(proper_synth_model *m, const char *path, const char *function,
                                      proper_synth_opts opts, proper_error *err);
/* Release; leaves m as after proper_synth_init. */
PROPER_API void proper_synth_free(proper_synth_model *m);

/* Index of a reward structure by name, or -1. */
PROPER_API int proper_synth_reward_index(const proper_synth_model *m, const char *name);
/* The annotation value of reward structure r at state s (0 without one):
 * m->dtmc.rewards[r].state[s]. */
PROPER_API double proper_synth_reward_at(const proper_synth_model *m, size_t r, size_t s);

/* Write the model in the PRISM language: undefined constants p1..pn, one
 * module with variable s, one command per state with a `// line:N` comment,
 * label "end", one rewards block per annotation. */
PROPER_API int proper_synth_write_prism(const proper_synth_model *m, FILE *out, proper_error *err);

/* Write the table state -> line -> statement -> parameter. */
PROPER_API int proper_synth_write_table(const proper_synth_model *m, FILE *out, proper_error *err);

/* Expected total reward `reward` accumulated until `end` from the initial
 * state, for parameter values `p` (n_params of them, each in [0,1]):
 * m->dtmc instantiated at p and solved by proper_dtmc_reward_reach (its
 * proven error bound in *stats when stats is not NULL); +infinity when
 * `end` is reached with probability < 1. */
PROPER_API int proper_synth_expected_reward(const proper_synth_model *m, int reward,
                                            const double *p, double *value, proper_error *err);
PROPER_API int proper_synth_expected_reward_stats(const proper_synth_model *m, int reward, const double *p,
                                                  double *value, proper_dtmc_solve_stats *stats,
                                                  proper_error *err);

/* Minimum and maximum of that expected reward over the box lo[i] <= p_i <=
 * hi[i] (argmin/argmax, may be NULL: the corners attaining them):
 * proper_dtmc_param_reward_range on m->dtmc with target "end". */
PROPER_API int proper_synth_reward_range(const proper_synth_model *m, int reward,
                                         const double *lo, const double *hi, double *min_value,
                                         double *max_value, double *argmin, double *argmax,
                                         proper_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_SYNTH_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_SYNTH_IMPLEMENTATION
#define PROPER_SYNTH_IMPLEMENTATION

#include <math.h>
#include <string.h>

/* ---- tokens ----
 * The tokenizer keeps identifiers, numbers, and single punctuation
 * characters; strings, chars and comments become one token each (comments
 * are only scanned for annotations). Positions are kept for errors. */

enum { PROPER__SYNTH_TK_EOF, PROPER__SYNTH_TK_IDENT, PROPER__SYNTH_TK_PUNCT, PROPER__SYNTH_TK_OTHER };

typedef struct proper__synth_tok {
    int type;
    const char *s; /* start in the source */
    size_t n;      /* length */
    int line, col;
} proper__synth_tok;

typedef struct proper__synth_annot {
    int line, col;     /* position of the '@' */
    char name[32];
    double value;
    int bad;           /* 0 well-formed; else the error code (PROPER_EPARSE: malformed,
                          PROPER_ERANGE: a value that is not a reward) */
    char msg[200];     /* what is wrong, when bad */
} proper__synth_annot;

typedef struct proper__synth_parser {
    const char *file;
    const char *function;         /* the function being modelled */
    proper__synth_tok *toks;
    size_t n_toks, cap_toks, pos;
    proper__synth_annot *annots;
    size_t n_annots, cap_annots;
    int (*unmodelled)[2];         /* line ranges [first, last] of catch blocks */
    size_t n_unmodelled, cap_unmodelled;
    int (*blocks)[4];             /* braces of every block and switch body: open line, col, close line, col */
    size_t n_blocks, cap_blocks;
    int lenient;                  /* malformed annotations: warnings, not errors */
    proper_strbuf warnings;
    proper_error *err;
} proper__synth_parser;

static int proper__synth_is_ident_start(char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '$';
}
static int proper__synth_is_ident_char(char ch) { return proper__synth_is_ident_start(ch) || (ch >= '0' && ch <= '9'); }

/* Scan a comment's text [s, end), which starts at line:col, for `@word`s.
 * Every `@word` (an '@' not inside a word, followed by a letter) is
 * recorded: a well-formed `@name=value` with its value, anything else
 * (`@energy:67`, `@time=`, `@time=1ms`) as bad with a message; which of
 * them matter is decided once the function's extent is known. `{@link x}`
 * (a documentation tag inside braces) is not an annotation. */
static int proper__synth_scan_annotations(proper__synth_parser *ps, const char *s, const char *end, int line, int col) {
    proper_cursor c;
    proper_cursor_init(&c, s, (size_t)(end - s), ps->file);
    c.line = line;
    c.col = col;
    while (c.p < c.end) {
        proper__synth_annot a;
        size_t n = 0;
        proper_error e;
        char prev = c.p > s ? c.p[-1] : ' ';
        if (*c.p != '@' || c.p + 1 >= c.end || !proper__synth_is_ident_start(c.p[1]) ||
            proper__synth_is_ident_char(prev) || prev == '{' || prev == '@') {
            proper_cursor_advance(&c);
            continue;
        }
        memset(&a, 0, sizeof a);
        a.line = c.line;
        a.col = c.col;
        proper_cursor_advance(&c);
        while (c.p < c.end && proper__synth_is_ident_char(*c.p)) {
            if (n + 1 < sizeof a.name) a.name[n++] = *c.p;
            proper_cursor_advance(&c);
        }
        a.name[n] = '\0';
        proper_cursor_skip_blanks(&c);
        if (c.p >= c.end || *c.p != '=') {
            a.bad = PROPER_EPARSE;
            if (c.p < c.end && *c.p != '\n' && *c.p != '\r')
                snprintf(a.msg, sizeof a.msg, "malformed annotation @%s: expected '=' after the name, found '%c' "
                         "(write @%s=VALUE)", a.name, *c.p, a.name);
            else
                snprintf(a.msg, sizeof a.msg, "malformed annotation @%s: expected '=' and a value (write @%s=VALUE)",
                         a.name, a.name);
        } else {
            proper_cursor_advance(&c);
            if (proper_parse_double(&c, &a.value, &e)) {
                a.bad = PROPER_EPARSE;
                snprintf(a.msg, sizeof a.msg, "malformed annotation @%s: expected a number after '='", a.name);
            } else if (!(a.value >= 0.0) || isinf(a.value)) {
                a.bad = PROPER_ERANGE;
                snprintf(a.msg, sizeof a.msg, "annotation @%s=%g: rewards must be finite and non-negative", a.name,
                         a.value);
            }
        }
        if (PROPER_PUSH(ps->annots, ps->n_annots, ps->cap_annots, a))
            return proper_error_set(ps->err, PROPER_ENOMEM, ps->file, a.line, a.col, "out of memory");
    }
    return PROPER_OK;
}

static int proper__synth_push_tok(proper__synth_parser *ps, int type, const char *s, size_t n, int line, int col) {
    proper__synth_tok t;
    t.type = type; t.s = s; t.n = n; t.line = line; t.col = col;
    if (PROPER_PUSH(ps->toks, ps->n_toks, ps->cap_toks, t))
        return proper_error_set(ps->err, PROPER_ENOMEM, ps->file, line, col, "out of memory");
    return PROPER_OK;
}

/* Skip a quoted literal starting at c->p (quote char q); errors if unterminated. */
static int proper__synth_skip_quoted(proper__synth_parser *ps, proper_cursor *c, char q) {
    proper_cursor start = *c;
    int text_block = q == '"' && c->end - c->p >= 3 && c->p[1] == '"' && c->p[2] == '"';
    if (text_block) { /* Java text block """ ... """ */
        proper_cursor_advance(c); proper_cursor_advance(c); proper_cursor_advance(c);
        while (c->p < c->end) {
            if (*c->p == '\\') { proper_cursor_advance(c); proper_cursor_advance(c); continue; }
            if (c->end - c->p >= 3 && c->p[0] == '"' && c->p[1] == '"' && c->p[2] == '"') {
                proper_cursor_advance(c); proper_cursor_advance(c); proper_cursor_advance(c);
                return PROPER_OK;
            }
            proper_cursor_advance(c);
        }
        return proper_cursor_error(&start, ps->err, PROPER_EPARSE, "unterminated text block");
    }
    proper_cursor_advance(c);
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\n') break;
        if (*c->p == '\\') proper_cursor_advance(c);
        proper_cursor_advance(c);
    }
    if (c->p >= c->end || *c->p != q)
        return proper_cursor_error(&start, ps->err, PROPER_EPARSE, "unterminated %s literal",
                                   q == '"' ? "string" : "character");
    proper_cursor_advance(c);
    return PROPER_OK;
}

static int proper__synth_tokenize(proper__synth_parser *ps, const char *text, size_t len) {
    proper_cursor c;
    int rc;
    proper_cursor_init(&c, text, len, ps->file);
    while (c.p < c.end) {
        const char *s = c.p;
        int line = c.line, col = c.col;
        char ch = *c.p;
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' || ch == '\v') {
            proper_cursor_advance(&c);
        } else if (ch == '/' && c.p + 1 < c.end && c.p[1] == '/') {
            while (c.p < c.end && *c.p != '\n') proper_cursor_advance(&c);
            if ((rc = proper__synth_scan_annotations(ps, s + 2, c.p, line, col + 2))) return rc;
        } else if (ch == '/' && c.p + 1 < c.end && c.p[1] == '*') {
            proper_cursor_advance(&c); proper_cursor_advance(&c);
            while (c.p < c.end && !(*c.p == '*' && c.p + 1 < c.end && c.p[1] == '/')) proper_cursor_advance(&c);
            if (c.p >= c.end) {
                proper_cursor start;
                proper_cursor_init(&start, text, len, ps->file);
                start.line = line; start.col = col;
                return proper_cursor_error(&start, ps->err, PROPER_EPARSE, "unterminated comment");
            }
            if ((rc = proper__synth_scan_annotations(ps, s + 2, c.p, line, col + 2))) return rc;
            proper_cursor_advance(&c); proper_cursor_advance(&c);
        } else if (ch == '#' ) { /* C preprocessor line: skipped, with continuations */
            while (c.p < c.end && *c.p != '\n') {
                if (*c.p == '\\' && c.p + 1 < c.end && c.p[1] == '\n') proper_cursor_advance(&c);
                proper_cursor_advance(&c);
            }
        } else if (ch == '"' || ch == '\'') {
            if ((rc = proper__synth_skip_quoted(ps, &c, ch))) return rc;
            if ((rc = proper__synth_push_tok(ps, PROPER__SYNTH_TK_OTHER, s, (size_t)(c.p - s), line, col))) return rc;
        } else if (proper__synth_is_ident_start(ch)) {
            while (c.p < c.end && proper__synth_is_ident_char(*c.p)) proper_cursor_advance(&c);
            if ((rc = proper__synth_push_tok(ps, PROPER__SYNTH_TK_IDENT, s, (size_t)(c.p - s), line, col))) return rc;
        } else if (ch >= '0' && ch <= '9') {
            while (c.p < c.end && (proper__synth_is_ident_char(*c.p) || *c.p == '.')) proper_cursor_advance(&c);
            if ((rc = proper__synth_push_tok(ps, PROPER__SYNTH_TK_OTHER, s, (size_t)(c.p - s), line, col))) return rc;
        } else {
            proper_cursor_advance(&c);
            if ((rc = proper__synth_push_tok(ps, PROPER__SYNTH_TK_PUNCT, s, 1, line, col))) return rc;
        }
    }
    return proper__synth_push_tok(ps, PROPER__SYNTH_TK_EOF, c.p, 0, c.line, c.col);
}

/* ---- statement tree ---- */

enum {
    PROPER__SYNTH_ST_BLOCK, PROPER__SYNTH_ST_SIMPLE, PROPER__SYNTH_ST_EMPTY, PROPER__SYNTH_ST_IF, PROPER__SYNTH_ST_WHILE,
    PROPER__SYNTH_ST_FOR, PROPER__SYNTH_ST_DO, PROPER__SYNTH_ST_SWITCH, PROPER__SYNTH_ST_RETURN, PROPER__SYNTH_ST_THROW,
    PROPER__SYNTH_ST_BREAK, PROPER__SYNTH_ST_CONTINUE, PROPER__SYNTH_ST_TRY, PROPER__SYNTH_ST_CASE
};

typedef struct proper__synth_stmt {
    int kind;
    int line;
    int do_while_line;            /* line of `while` closing a do loop */
    int last_line;                /* last line of the statement's own text (its header for
                                     compound statements); continuation lines belong to it */
    int do_while_last;            /* do loops: last line of `while (...);` */
    struct proper__synth_stmt *a, *b;   /* if: then/else; loops: body; try: block/finally */
    struct proper__synth_stmt **kids;   /* block and switch members */
    size_t n_kids, cap_kids;
    int is_default;               /* case label: `default` */
    int tail_call;                /* return: `return f(...);`, a tail call of the function itself */
    size_t state, state2;         /* own state; do loops: the condition state */
} proper__synth_stmt;

static void proper__synth_stmt_free(proper__synth_stmt *s) {
    size_t i;
    if (!s) return;
    proper__synth_stmt_free(s->a);
    proper__synth_stmt_free(s->b);
    for (i = 0; i < s->n_kids; i++) proper__synth_stmt_free(s->kids[i]);
    PROPER_FREE(s->kids);
    PROPER_FREE(s);
}

static proper__synth_tok *proper__synth_peek(proper__synth_parser *ps) { return &ps->toks[ps->pos]; }

static int proper__synth_tok_is(const proper__synth_tok *t, const char *word) {
    size_t n = strlen(word);
    return t->n == n && memcmp(t->s, word, n) == 0 && t->type != PROPER__SYNTH_TK_OTHER;
}

static int proper__synth_tok_error(proper__synth_parser *ps, const proper__synth_tok *t, int code, const char *what) {
    if (t->type == PROPER__SYNTH_TK_EOF)
        return proper_error_set(ps->err, code, ps->file, t->line, t->col, "%s, found end of file", what);
    return proper_error_set(ps->err, code, ps->file, t->line, t->col, "%s, found '%.*s'", what,
                            (int)(t->n > 40 ? 40 : t->n), t->s);
}

static int proper__synth_expect(proper__synth_parser *ps, const char *punct) {
    proper__synth_tok *t = proper__synth_peek(ps);
    char what[32];
    if (proper__synth_tok_is(t, punct)) { ps->pos++; return PROPER_OK; }
    snprintf(what, sizeof what, "expected '%s'", punct);
    return proper__synth_tok_error(ps, t, PROPER_EPARSE, what);
}

/* Bracket matching shared by the two skips below: tracks the open
 * brackets on a stack so that `(` closed by `}` is reported at the `(`. */
typedef struct proper__synth_brackets {
    const proper__synth_tok *open[PROPER_SYNTH_MAX_BRACKETS];
    int depth;
} proper__synth_brackets;

static char proper__synth_closer_of(const proper__synth_tok *t) {
    return proper__synth_tok_is(t, "(") ? ')' : proper__synth_tok_is(t, "[") ? ']' : '}';
}

/* Feed one token; returns an error status on a mismatch. */
static int proper__synth_bracket_step(proper__synth_parser *ps, proper__synth_brackets *br, const proper__synth_tok *t) {
    if (proper__synth_tok_is(t, "(") || proper__synth_tok_is(t, "[") || proper__synth_tok_is(t, "{")) {
        if (br->depth >= PROPER_SYNTH_MAX_BRACKETS)
            return proper_error_set(ps->err, PROPER_ELIMIT, ps->file, t->line, t->col, "brackets nested too deeply");
        br->open[br->depth++] = t;
    } else if (proper__synth_tok_is(t, ")") || proper__synth_tok_is(t, "]") || proper__synth_tok_is(t, "}")) {
        const proper__synth_tok *o;
        if (br->depth == 0) return proper__synth_tok_error(ps, t, PROPER_EPARSE, "unbalanced brackets: nothing to close");
        o = br->open[--br->depth];
        if (proper__synth_closer_of(o) != *t->s)
            return proper_error_set(ps->err, PROPER_EPARSE, ps->file, o->line, o->col,
                                    "unbalanced '%c': closed by '%c' at line %d", *o->s, *t->s, t->line);
    }
    return PROPER_OK;
}

static int proper__synth_unclosed(proper__synth_parser *ps, const proper__synth_brackets *br, const proper__synth_tok *start,
                            const char *what) {
    if (br->depth > 0) {
        const proper__synth_tok *o = br->open[br->depth - 1];
        return proper_error_set(ps->err, PROPER_EPARSE, ps->file, o->line, o->col, "unbalanced '%c': never closed", *o->s);
    }
    return proper_error_set(ps->err, PROPER_EPARSE, ps->file, start->line, start->col, "%s", what);
}

/* Skip a balanced (...) group starting at '('. */
static int proper__synth_skip_parens(proper__synth_parser *ps) {
    proper__synth_tok *open = proper__synth_peek(ps);
    proper__synth_brackets br;
    int rc;
    br.depth = 0;
    if (!proper__synth_tok_is(open, "(")) return proper__synth_tok_error(ps, open, PROPER_EPARSE, "expected '('");
    for (;;) {
        proper__synth_tok *t = proper__synth_peek(ps);
        if (t->type == PROPER__SYNTH_TK_EOF) return proper__synth_unclosed(ps, &br, open, "unbalanced '('");
        if ((rc = proper__synth_bracket_step(ps, &br, t))) return rc;
        ps->pos++;
        if (br.depth == 0) return PROPER_OK;
    }
}

/* Skip an expression up to (and including) the ';' at bracket depth 0. */
static int proper__synth_skip_to_semicolon(proper__synth_parser *ps, const proper__synth_tok *start) {
    proper__synth_brackets br;
    int rc;
    br.depth = 0;
    for (;;) {
        proper__synth_tok *t = proper__synth_peek(ps);
        if (t->type == PROPER__SYNTH_TK_EOF) return proper__synth_unclosed(ps, &br, start, "statement not terminated by ';'");
        if (br.depth == 0 && (proper__synth_tok_is(t, ")") || proper__synth_tok_is(t, "]") || proper__synth_tok_is(t, "}")))
            return proper__synth_tok_error(ps, t, PROPER_EPARSE, "expected ';' before this");
        if ((rc = proper__synth_bracket_step(ps, &br, t))) return rc;
        ps->pos++;
        if (br.depth == 0 && proper__synth_tok_is(t, ";")) return PROPER_OK;
    }
}

static proper__synth_stmt *proper__synth_new_stmt(proper__synth_parser *ps, int kind, int line) {
    proper__synth_stmt *s = (proper__synth_stmt *)proper_calloc(1, sizeof *s);
    if (!s) { proper_error_set(ps->err, PROPER_ENOMEM, ps->file, line, 0, "out of memory"); return NULL; }
    s->kind = kind;
    s->line = s->last_line = line;
    return s;
}

static int proper__synth_add_kid(proper__synth_parser *ps, proper__synth_stmt *parent, proper__synth_stmt *kid) {
    if (PROPER_PUSH(parent->kids, parent->n_kids, parent->cap_kids, kid)) {
        proper__synth_stmt_free(kid);
        return proper_error_set(ps->err, PROPER_ENOMEM, ps->file, parent->line, 0, "out of memory");
    }
    return PROPER_OK;
}

static int proper__synth_parse_stmt(proper__synth_parser *ps, proper__synth_stmt **out, int depth);

/* Remember a block's braces: a comment on a line of its own annotates the
 * next statement only within its block. */
static int proper__synth_record_block(proper__synth_parser *ps, const proper__synth_tok *open, const proper__synth_tok *close) {
    if (proper_reserve(&ps->blocks, &ps->cap_blocks, ps->n_blocks + 1, sizeof *ps->blocks))
        return proper_error_set(ps->err, PROPER_ENOMEM, ps->file, open->line, open->col, "out of memory");
    ps->blocks[ps->n_blocks][0] = open->line;
    ps->blocks[ps->n_blocks][1] = open->col;
    ps->blocks[ps->n_blocks][2] = close->line;
    ps->blocks[ps->n_blocks++][3] = close->col;
    return PROPER_OK;
}

static int proper__synth_parse_block(proper__synth_parser *ps, proper__synth_stmt **out, int depth) {
    proper__synth_tok *open = proper__synth_peek(ps);
    proper__synth_stmt *blk;
    int rc;
    if ((rc = proper__synth_expect(ps, "{"))) return rc;
    if (!(blk = proper__synth_new_stmt(ps, PROPER__SYNTH_ST_BLOCK, open->line))) return PROPER_ENOMEM;
    while (!proper__synth_tok_is(proper__synth_peek(ps), "}")) {
        proper__synth_stmt *kid;
        if (proper__synth_peek(ps)->type == PROPER__SYNTH_TK_EOF) {
            proper__synth_stmt_free(blk);
            return proper_error_set(ps->err, PROPER_EPARSE, ps->file, open->line, open->col,
                                    "unbalanced '{': no matching '}'");
        }
        if ((rc = proper__synth_parse_stmt(ps, &kid, depth + 1)) || (rc = proper__synth_add_kid(ps, blk, kid))) {
            proper__synth_stmt_free(blk);
            return rc;
        }
    }
    if ((rc = proper__synth_record_block(ps, open, proper__synth_peek(ps)))) {
        proper__synth_stmt_free(blk);
        return rc;
    }
    ps->pos++;
    *out = blk;
    return PROPER_OK;
}

static int proper__synth_parse_switch_body(proper__synth_parser *ps, proper__synth_stmt *sw, int depth) {
    proper__synth_tok *open = proper__synth_peek(ps);
    int rc;
    if ((rc = proper__synth_expect(ps, "{"))) return rc;
    for (;;) {
        proper__synth_tok *t = proper__synth_peek(ps);
        proper__synth_stmt *kid;
        if (proper__synth_tok_is(t, "}")) {
            if ((rc = proper__synth_record_block(ps, open, t))) return rc;
            ps->pos++;
            return PROPER_OK;
        }
        if (t->type == PROPER__SYNTH_TK_EOF)
            return proper_error_set(ps->err, PROPER_EPARSE, ps->file, open->line, open->col,
                                    "unbalanced '{' of switch: no matching '}'");
        if (proper__synth_tok_is(t, "case") || proper__synth_tok_is(t, "default")) {
            int depth_b = 0;
            if (!(kid = proper__synth_new_stmt(ps, PROPER__SYNTH_ST_CASE, t->line))) return PROPER_ENOMEM;
            kid->is_default = proper__synth_tok_is(t, "default");
            ps->pos++;
            /* skip the label expression to its ':' (or Java's '->', rejected) */
            for (;;) {
                proper__synth_tok *u = proper__synth_peek(ps);
                if (u->type == PROPER__SYNTH_TK_EOF) { proper__synth_stmt_free(kid); return proper__synth_tok_error(ps, u, PROPER_EPARSE, "expected ':' after case label"); }
                if (proper__synth_tok_is(u, "(") || proper__synth_tok_is(u, "[")) depth_b++;
                else if (proper__synth_tok_is(u, ")") || proper__synth_tok_is(u, "]")) depth_b--;
                else if (depth_b == 0 && proper__synth_tok_is(u, "-") && proper__synth_tok_is(u + 1, ">")) {
                    proper__synth_stmt_free(kid);
                    return proper__synth_tok_error(ps, u, PROPER_EUNSUPPORTED, "arrow-form switch cases are not supported");
                } else if (depth_b == 0 && proper__synth_tok_is(u, ":") && !proper__synth_tok_is(u + 1, ":")) {
                    kid->last_line = u->line;
                    ps->pos++;
                    break;
                }
                else if (depth_b == 0 && proper__synth_tok_is(u, ":")) ps->pos++; /* C++ '::' */
                ps->pos++;
            }
        } else if ((rc = proper__synth_parse_stmt(ps, &kid, depth + 1))) {
            return rc;
        } else if (sw->n_kids == 0) {
            proper__synth_stmt_free(kid);
            return proper__synth_tok_error(ps, t, PROPER_EPARSE, "statement in switch before any case label");
        }
        if ((rc = proper__synth_add_kid(ps, sw, kid))) return rc;
    }
}

/* Whether the `return` at token r is `return f(...);` or
 * `return this.f(...);` with f the modelled function: a tail call, which
 * the model turns into a jump back to the function's first statement (the
 * paper's construction for binarySearch, Fig. 14). */
static int proper__synth_tail_call_at(proper__synth_parser *ps, size_t r) {
    size_t i = r + 1;
    int depth = 0;
    if (!ps->function) return 0;
    if (proper__synth_tok_is(&ps->toks[i], "this") && proper__synth_tok_is(&ps->toks[i + 1], ".")) i += 2;
    if (ps->toks[i].type != PROPER__SYNTH_TK_IDENT || !proper__synth_tok_is(&ps->toks[i], ps->function) ||
        !proper__synth_tok_is(&ps->toks[i + 1], "("))
        return 0;
    for (i++; ps->toks[i].type != PROPER__SYNTH_TK_EOF; i++) {
        const proper__synth_tok *t = &ps->toks[i];
        if (proper__synth_tok_is(t, "(") || proper__synth_tok_is(t, "[") || proper__synth_tok_is(t, "{")) depth++;
        else if (proper__synth_tok_is(t, ")") || proper__synth_tok_is(t, "]") || proper__synth_tok_is(t, "}")) {
            if (--depth == 0) return proper__synth_tok_is(t + 1, ";");
            if (depth < 0) return 0;
        }
    }
    return 0;
}

/* Parses the part after a keyword that introduces a simple statement ending in ';'. */
static int proper__synth_parse_simple(proper__synth_parser *ps, proper__synth_stmt **out, int kind, proper__synth_tok *t) {
    int rc;
    proper__synth_stmt *s = proper__synth_new_stmt(ps, kind, t->line);
    if (!s) return PROPER_ENOMEM;
    if ((rc = proper__synth_skip_to_semicolon(ps, t))) { proper__synth_stmt_free(s); return rc; }
    s->last_line = ps->toks[ps->pos - 1].line;
    *out = s;
    return PROPER_OK;
}

static int proper__synth_parse_stmt(proper__synth_parser *ps, proper__synth_stmt **out, int depth) {
    proper__synth_tok *t = proper__synth_peek(ps);
    proper__synth_stmt *s = NULL;
    int rc;
    *out = NULL;
    if (depth > PROPER_SYNTH_MAX_DEPTH)
        return proper_error_set(ps->err, PROPER_ELIMIT, ps->file, t->line, t->col, "statements nested too deeply");
    if (proper__synth_tok_is(t, "{")) return proper__synth_parse_block(ps, out, depth);
    if (proper__synth_tok_is(t, ";")) {
        ps->pos++;
        if (!(s = proper__synth_new_stmt(ps, PROPER__SYNTH_ST_EMPTY, t->line))) return PROPER_ENOMEM;
        *out = s;
        return PROPER_OK;
    }
    if (t->type == PROPER__SYNTH_TK_EOF) return proper__synth_tok_error(ps, t, PROPER_EPARSE, "expected a statement");
    if (proper__synth_tok_is(t, "}")) return proper__synth_tok_error(ps, t, PROPER_EPARSE, "expected a statement");
    if (proper__synth_tok_is(t, "goto"))
        return proper__synth_tok_error(ps, t, PROPER_EUNSUPPORTED, "goto is not supported");
    if (t->type == PROPER__SYNTH_TK_IDENT && proper__synth_tok_is(t + 1, ":") && !proper__synth_tok_is(t + 2, ":") &&
        !proper__synth_tok_is(t, "default"))
        return proper_error_set(ps->err, PROPER_EUNSUPPORTED, ps->file, t->line, t->col,
                                "labelled statement '%.*s:' is not supported", (int)t->n, t->s);
    if (proper__synth_tok_is(t, "if")) {
        ps->pos++;
        if (!(s = proper__synth_new_stmt(ps, PROPER__SYNTH_ST_IF, t->line))) return PROPER_ENOMEM;
        if ((rc = proper__synth_skip_parens(ps))) goto fail;
        s->last_line = ps->toks[ps->pos - 1].line;
        if ((rc = proper__synth_parse_stmt(ps, &s->a, depth + 1))) goto fail;
        if (proper__synth_tok_is(proper__synth_peek(ps), "else")) {
            ps->pos++;
            if ((rc = proper__synth_parse_stmt(ps, &s->b, depth + 1))) goto fail;
        }
    } else if (proper__synth_tok_is(t, "while") || proper__synth_tok_is(t, "for")) {
        ps->pos++;
        if (!(s = proper__synth_new_stmt(ps, proper__synth_tok_is(t, "for") ? PROPER__SYNTH_ST_FOR : PROPER__SYNTH_ST_WHILE, t->line)))
            return PROPER_ENOMEM;
        if ((rc = proper__synth_skip_parens(ps))) goto fail;
        s->last_line = ps->toks[ps->pos - 1].line;
        if ((rc = proper__synth_parse_stmt(ps, &s->a, depth + 1))) goto fail;
    } else if (proper__synth_tok_is(t, "do")) {
        proper__synth_tok *w;
        ps->pos++;
        if (!(s = proper__synth_new_stmt(ps, PROPER__SYNTH_ST_DO, t->line))) return PROPER_ENOMEM;
        if ((rc = proper__synth_parse_stmt(ps, &s->a, depth + 1))) goto fail;
        w = proper__synth_peek(ps);
        if (!proper__synth_tok_is(w, "while")) { rc = proper__synth_tok_error(ps, w, PROPER_EPARSE, "expected 'while' after do body"); goto fail; }
        s->do_while_line = w->line;
        ps->pos++;
        if ((rc = proper__synth_skip_parens(ps)) || (rc = proper__synth_expect(ps, ";"))) goto fail;
        s->do_while_last = ps->toks[ps->pos - 1].line;
    } else if (proper__synth_tok_is(t, "switch")) {
        ps->pos++;
        if (!(s = proper__synth_new_stmt(ps, PROPER__SYNTH_ST_SWITCH, t->line))) return PROPER_ENOMEM;
        if ((rc = proper__synth_skip_parens(ps))) goto fail;
        s->last_line = ps->toks[ps->pos - 1].line;
        if ((rc = proper__synth_parse_switch_body(ps, s, depth))) goto fail;
    } else if (proper__synth_tok_is(t, "try")) {
        ps->pos++;
        if (!(s = proper__synth_new_stmt(ps, PROPER__SYNTH_ST_TRY, t->line))) return PROPER_ENOMEM;
        if (proper__synth_tok_is(proper__synth_peek(ps), "(") && (rc = proper__synth_skip_parens(ps))) goto fail; /* try-with-resources */
        if ((rc = proper__synth_parse_block(ps, &s->a, depth + 1))) goto fail;
        while (proper__synth_tok_is(proper__synth_peek(ps), "catch")) {
            proper__synth_stmt *handler = NULL;
            int range[2];
            range[0] = proper__synth_peek(ps)->line;
            ps->pos++;
            if ((rc = proper__synth_skip_parens(ps)) || (rc = proper__synth_parse_block(ps, &handler, depth + 1))) goto fail;
            proper__synth_stmt_free(handler); /* exceptional path: not modelled */
            range[1] = ps->toks[ps->pos - 1].line - 1; /* up to the line before its closing brace */
            if (range[1] >= range[0] &&
                proper_reserve(&ps->unmodelled, &ps->cap_unmodelled, ps->n_unmodelled + 1, sizeof *ps->unmodelled)) {
                rc = proper_error_set(ps->err, PROPER_ENOMEM, ps->file, t->line, t->col, "out of memory");
                goto fail;
            }
            if (range[1] >= range[0]) {
                ps->unmodelled[ps->n_unmodelled][0] = range[0];
                ps->unmodelled[ps->n_unmodelled++][1] = range[1];
            }
        }
        if (proper__synth_tok_is(proper__synth_peek(ps), "finally")) {
            ps->pos++;
            if ((rc = proper__synth_parse_block(ps, &s->b, depth + 1))) goto fail;
        }
    } else if (proper__synth_tok_is(t, "return") || proper__synth_tok_is(t, "throw")) {
        int tail = proper__synth_tok_is(t, "return") && proper__synth_tail_call_at(ps, ps->pos);
        ps->pos++;
        rc = proper__synth_parse_simple(ps, out, proper__synth_tok_is(t, "return") ? PROPER__SYNTH_ST_RETURN : PROPER__SYNTH_ST_THROW, t);
        if (!rc) (*out)->tail_call = tail;
        return rc;
    } else if (proper__synth_tok_is(t, "break") || proper__synth_tok_is(t, "continue")) {
        ps->pos++;
        if (!proper__synth_tok_is(proper__synth_peek(ps), ";"))
            return proper__synth_tok_error(ps, t, PROPER_EUNSUPPORTED, "labelled break/continue is not supported");
        ps->pos++;
        if (!(s = proper__synth_new_stmt(ps, proper__synth_tok_is(t, "break") ? PROPER__SYNTH_ST_BREAK : PROPER__SYNTH_ST_CONTINUE, t->line)))
            return PROPER_ENOMEM;
        s->last_line = ps->toks[ps->pos - 1].line;
    } else if (proper__synth_tok_is(t, "else") || proper__synth_tok_is(t, "case") || proper__synth_tok_is(t, "catch")) {
        return proper__synth_tok_error(ps, t, PROPER_EPARSE, "misplaced keyword");
    } else {
        return proper__synth_parse_simple(ps, out, PROPER__SYNTH_ST_SIMPLE, t);
    }
    *out = s;
    return PROPER_OK;
fail:
    proper__synth_stmt_free(s);
    return rc;
}

/* Whether `name ( ... ) [throws X, Y] {` starts at token i: then *open is
 * the index of its `{`. */
static int proper__synth_definition_at(proper__synth_parser *ps, size_t i, const char *name, size_t *open) {
    proper__synth_tok *t = &ps->toks[i];
    proper_error scratch, *keep = ps->err;
    int found = 0;
    if (t->type != PROPER__SYNTH_TK_IDENT || !proper__synth_tok_is(t, name) || !proper__synth_tok_is(t + 1, "(")) return 0;
    if (i > 0 && (proper__synth_tok_is(t - 1, "new") || proper__synth_tok_is(t - 1, "."))) return 0;
    ps->err = &scratch; /* an unbalanced '(' here is reported by the statement parser, if it matters */
    ps->pos = i + 1;
    if (proper__synth_skip_parens(ps) == PROPER_OK) {
        while (proper__synth_peek(ps)->type == PROPER__SYNTH_TK_IDENT || proper__synth_tok_is(proper__synth_peek(ps), ",") ||
               proper__synth_tok_is(proper__synth_peek(ps), "."))
            ps->pos++; /* throws clause, const, noexcept */
        if (proper__synth_tok_is(proper__synth_peek(ps), "{")) { found = 1; *open = ps->pos; }
    }
    ps->err = keep;
    return found;
}

/* Find the one definition `name ( ... ) [throws X, Y] {` at brace depth 0
 * or 1 (methods in a class) and leave ps->pos at its `{`. Returns
 * PROPER_EUNDEFINED when there is none (err not set) and an error naming
 * both lines when there are two (overloads or alternatives: which one is
 * meant cannot be told). */
static int proper__synth_find_function(proper__synth_parser *ps, const char *name) {
    size_t i, open = 0, first = 0, other;
    int depth = 0, n_found = 0;
    for (i = 0; ps->toks[i].type != PROPER__SYNTH_TK_EOF; i++) {
        proper__synth_tok *t = &ps->toks[i];
        if (proper__synth_tok_is(t, "{")) depth++;
        else if (proper__synth_tok_is(t, "}")) depth--;
        else if (depth <= 1 && proper__synth_definition_at(ps, i, name, &other)) {
            if (n_found++ == 0) { first = i; open = other; continue; }
            return proper_error_set(ps->err, PROPER_EPARSE, ps->file, t->line, t->col,
                                    "function '%s' is defined twice, at lines %d and %d: ambiguous (rename one, or "
                                    "keep the one to model in a file of its own)",
                                    name, ps->toks[first].line, t->line);
        }
    }
    if (!n_found) return PROPER_EUNDEFINED;
    ps->pos = open;
    return PROPER_OK;
}

/* A call of the function itself inside its body [from, to): `name(` not
 * after a '.' (or after `this.`) and not after `new`. Recursion cannot be
 * modelled by one activation's DTMC: refused with the call's position. */
static int proper__synth_check_recursion(proper__synth_parser *ps, const char *name, size_t from, size_t to) {
    size_t i;
    for (i = from; i < to; i++) {
        proper__synth_tok *t = &ps->toks[i];
        int self;
        if (t->type != PROPER__SYNTH_TK_IDENT || !proper__synth_tok_is(t, name) || !proper__synth_tok_is(t + 1, "(")) continue;
        self = !proper__synth_tok_is(t - 1, ".") && !proper__synth_tok_is(t - 1, "new");
        if (proper__synth_tok_is(t - 1, ".") && i >= 2 && proper__synth_tok_is(t - 2, "this")) self = 1;
        if (self && proper__synth_tok_is(t - 1, "return") && proper__synth_tail_call_at(ps, i - 1)) continue;
        if (self && i >= 3 && proper__synth_tok_is(t - 1, ".") && proper__synth_tok_is(t - 2, "this") &&
            proper__synth_tok_is(t - 3, "return") && proper__synth_tail_call_at(ps, i - 3))
            continue;
        if (self)
            return proper_error_set(ps->err, PROPER_EUNSUPPORTED, ps->file, t->line, t->col,
                                    "'%s' calls itself other than as `return %s(...);`: only tail calls can be "
                                    "modelled (a jump back to the first statement); rewrite it, or model an "
                                    "iterative version", name, name);
    }
    return PROPER_OK;
}

/* ---- graph construction ---- */

typedef struct proper__synth_builder {
    proper_synth_model *m;
    double *rewards;   /* the annotations while the chain is built: n_rewards x n_states */
    size_t cap_states, cap_params;
    proper_error *err;
    const char *file;
} proper__synth_builder;

#define PROPER__SYNTH_NONE ((size_t)-1)
#define PROPER__SYNTH_CALL ((size_t)-2) /* successor of a tail call until the entry is known */

static int proper__synth_new_state(proper__synth_builder *b, int kind, int line, int last, const char *what, size_t *id) {
    proper_synth_state st;
    proper_synth_model *m = b->m;
    memset(&st, 0, sizeof st);
    st.kind = kind;
    st.line = line;
    st.last_line = last > line ? last : line;
    st.param = -1;
    st.next = st.taken = PROPER__SYNTH_NONE;
    strncpy(st.what, what, sizeof st.what - 1);
    *id = m->n_states;
    if (PROPER_PUSH(m->states, m->n_states, b->cap_states, st))
        return proper_error_set(b->err, PROPER_ENOMEM, b->file, line, 0, "out of memory");
    return PROPER_OK;
}

static int proper__synth_new_param(proper__synth_builder *b, size_t state, int is_loop) {
    proper_synth_param p;
    proper_synth_model *m = b->m;
    p.line = m->states[state].line;
    p.is_loop = is_loop;
    p.state = state;
    p.do_state = PROPER__SYNTH_NONE;
    p.body_first = p.body_end = 0;
    snprintf(p.name, sizeof p.name, "p%u", (unsigned)(m->n_params + 1));
    m->states[state].param = (int)m->n_params;
    if (PROPER_PUSH(m->params, m->n_params, b->cap_params, p))
        return proper_error_set(b->err, PROPER_ENOMEM, b->file, p.line, 0, "out of memory");
    return PROPER_OK;
}

static int proper__synth_create_states(proper__synth_builder *b, proper__synth_stmt *s);

/* A loop body's states are created contiguously; remember their range. */
static int proper__synth_create_body(proper__synth_builder *b, proper__synth_stmt *body, size_t param) {
    int rc;
    b->m->params[param].body_first = b->m->n_states;
    rc = proper__synth_create_states(b, body);
    b->m->params[param].body_end = b->m->n_states;
    return rc;
}

/* Pass 1: create every statement's state in source order (so parameters are
 * numbered p1..pn in source order, as in the paper). */
static int proper__synth_create_states(proper__synth_builder *b, proper__synth_stmt *s) {
    size_t i;
    int rc;
    s->state = s->state2 = PROPER__SYNTH_NONE;
    switch (s->kind) {
    case PROPER__SYNTH_ST_BLOCK:
        for (i = 0; i < s->n_kids; i++)
            if ((rc = proper__synth_create_states(b, s->kids[i]))) return rc;
        return PROPER_OK;
    case PROPER__SYNTH_ST_EMPTY:
        return PROPER_OK;
    case PROPER__SYNTH_ST_TRY:
        if ((rc = proper__synth_create_states(b, s->a))) return rc;
        return s->b ? proper__synth_create_states(b, s->b) : PROPER_OK;
    case PROPER__SYNTH_ST_IF:
        if ((rc = proper__synth_new_state(b, PROPER_SYNTH_BRANCH, s->line, s->last_line, "if", &s->state)) ||
            (rc = proper__synth_new_param(b, s->state, 0)) || (rc = proper__synth_create_states(b, s->a)))
            return rc;
        return s->b ? proper__synth_create_states(b, s->b) : PROPER_OK;
    case PROPER__SYNTH_ST_WHILE:
    case PROPER__SYNTH_ST_FOR:
        if ((rc = proper__synth_new_state(b, PROPER_SYNTH_LOOP, s->line, s->last_line, s->kind == PROPER__SYNTH_ST_FOR ? "for" : "while", &s->state)) ||
            (rc = proper__synth_new_param(b, s->state, 1)))
            return rc;
        return proper__synth_create_body(b, s->a, b->m->n_params - 1);
    case PROPER__SYNTH_ST_DO:
        if ((rc = proper__synth_new_state(b, PROPER_SYNTH_STMT, s->line, s->line, "do", &s->state)) ||
            (rc = proper__synth_new_state(b, PROPER_SYNTH_LOOP, s->do_while_line, s->do_while_last, "while", &s->state2)) ||
            (rc = proper__synth_new_param(b, s->state2, 1)))
            return rc;
        b->m->params[b->m->n_params - 1].do_state = s->state;
        return proper__synth_create_body(b, s->a, b->m->n_params - 1);
    case PROPER__SYNTH_ST_SWITCH:
        if ((rc = proper__synth_new_state(b, PROPER_SYNTH_STMT, s->line, s->last_line, "switch", &s->state))) return rc;
        for (i = 0; i < s->n_kids; i++)
            if ((rc = proper__synth_create_states(b, s->kids[i]))) return rc;
        return PROPER_OK;
    case PROPER__SYNTH_ST_CASE:
        if (s->is_default) return PROPER_OK; /* the remainder of the chain: no test of its own */
        if ((rc = proper__synth_new_state(b, PROPER_SYNTH_BRANCH, s->line, s->last_line, "case", &s->state))) return rc;
        return proper__synth_new_param(b, s->state, 0);
    case PROPER__SYNTH_ST_RETURN:
        return proper__synth_new_state(b, PROPER_SYNTH_STMT, s->line, s->last_line, s->tail_call ? "call" : "return",
                                       &s->state);
    case PROPER__SYNTH_ST_THROW:
        return proper__synth_new_state(b, PROPER_SYNTH_STMT, s->line, s->last_line, "throw", &s->state);
    case PROPER__SYNTH_ST_BREAK:
        return proper__synth_new_state(b, PROPER_SYNTH_STMT, s->line, s->last_line, "break", &s->state);
    case PROPER__SYNTH_ST_CONTINUE:
        return proper__synth_new_state(b, PROPER_SYNTH_STMT, s->line, s->last_line, "continue", &s->state);
    default:
        return proper__synth_new_state(b, PROPER_SYNTH_STMT, s->line, s->last_line, "stmt", &s->state);
    }
}

/* Targets of `break` and `continue` in the innermost enclosing construct. */
typedef struct proper__synth_jumps {
    size_t break_to, continue_to;
} proper__synth_jumps;

static int proper__synth_wire(proper__synth_builder *b, proper__synth_stmt *s, size_t next, proper__synth_jumps j, size_t *entry);

/* Wires a block's statements; returns the entry of the first one that has
 * a state (or `next`). */
static int proper__synth_wire_seq(proper__synth_builder *b, proper__synth_stmt **kids, size_t n, size_t next,
                                  proper__synth_jumps j, size_t *entry) {
    int rc;
    while (n > 0) {
        size_t e;
        n--;
        if ((rc = proper__synth_wire(b, kids[n], next, j, &e))) return rc;
        next = e;
    }
    *entry = next;
    return PROPER_OK;
}

/* Switch: the header goes to the first case test; each test is taken to
 * the statements after its label (falling through the rest), else to the
 * next test; after the last test, to `default`'s statements or past the
 * switch. */
static int proper__synth_wire_switch(proper__synth_builder *b, proper__synth_stmt *s, size_t next, proper__synth_jumps j) {
    proper_synth_state *st = b->m->states;
    proper__synth_jumps inner = j;
    size_t i, entry = next, chain = next;
    int rc;
    inner.break_to = next;
    /* back to front: each label's statements start at the entry of what follows it */
    for (i = s->n_kids; i-- > 0;) {
        proper__synth_stmt *kid = s->kids[i];
        if (kid->kind != PROPER__SYNTH_ST_CASE) {
            if ((rc = proper__synth_wire(b, kid, entry, inner, &entry))) return rc;
        } else if (kid->is_default) {
            chain = entry; /* no case matched: default's statements */
        } else {
            st[kid->state].taken = entry;
        }
    }
    /* the tests chain in source order, the last one to `default` or past the switch */
    for (i = s->n_kids; i-- > 0;) {
        proper__synth_stmt *kid = s->kids[i];
        if (kid->kind != PROPER__SYNTH_ST_CASE || kid->is_default) continue;
        st[kid->state].next = chain;
        chain = kid->state;
    }
    st[s->state].next = chain;
    return PROPER_OK;
}

/* Pass 2: set successors. `next` is the state control reaches after `s`. */
static int proper__synth_wire(proper__synth_builder *b, proper__synth_stmt *s, size_t next, proper__synth_jumps j, size_t *entry) {
    proper_synth_state *st = b->m->states;
    proper__synth_jumps inner;
    size_t e;
    int rc;
    switch (s->kind) {
    case PROPER__SYNTH_ST_BLOCK:
        return proper__synth_wire_seq(b, s->kids, s->n_kids, next, j, entry);
    case PROPER__SYNTH_ST_EMPTY:
        *entry = next;
        return PROPER_OK;
    case PROPER__SYNTH_ST_TRY:
        if (s->b && (rc = proper__synth_wire(b, s->b, next, j, &next))) return rc;
        return proper__synth_wire(b, s->a, next, j, entry);
    case PROPER__SYNTH_ST_IF:
        if ((rc = proper__synth_wire(b, s->a, next, j, &e))) return rc;
        b->m->states[s->state].taken = e;
        e = next;
        if (s->b && (rc = proper__synth_wire(b, s->b, next, j, &e))) return rc;
        b->m->states[s->state].next = e;
        break;
    case PROPER__SYNTH_ST_WHILE:
    case PROPER__SYNTH_ST_FOR:
        inner.break_to = next;
        inner.continue_to = s->state;
        if ((rc = proper__synth_wire(b, s->a, s->state, inner, &e))) return rc;
        b->m->states[s->state].taken = e;
        b->m->states[s->state].next = next;
        break;
    case PROPER__SYNTH_ST_DO:
        inner.break_to = next;
        inner.continue_to = s->state2;
        if ((rc = proper__synth_wire(b, s->a, s->state2, inner, &e))) return rc;
        b->m->states[s->state].next = e;
        b->m->states[s->state2].taken = e;
        b->m->states[s->state2].next = next;
        break;
    case PROPER__SYNTH_ST_SWITCH:
        if ((rc = proper__synth_wire_switch(b, s, next, j))) return rc;
        break;
    case PROPER__SYNTH_ST_RETURN:
    case PROPER__SYNTH_ST_THROW:
        st[s->state].next = s->tail_call ? PROPER__SYNTH_CALL : b->m->end; /* a tail call: the entry, set in build */
        break;
    case PROPER__SYNTH_ST_BREAK:
    case PROPER__SYNTH_ST_CONTINUE: {
        size_t to = s->kind == PROPER__SYNTH_ST_BREAK ? j.break_to : j.continue_to;
        if (to == PROPER__SYNTH_NONE)
            return proper_error_set(b->err, PROPER_EPARSE, b->file, s->line, 0, "'%s' outside of %s",
                                    s->kind == PROPER__SYNTH_ST_BREAK ? "break" : "continue",
                                    s->kind == PROPER__SYNTH_ST_BREAK ? "a loop or switch" : "a loop");
        st[s->state].next = to;
        break;
    }
    default:
        st[s->state].next = next;
        break;
    }
    *entry = s->state;
    return PROPER_OK;
}

/* Attach each annotation inside the function's lines [first, last] to the
 * statement it is written in:
 *   - a statement whose text starts on the annotation's line (the first
 *     such, so `if (c) x(); // @time=1` annotates the `if`);
 *   - else a statement continued onto that line (a multi-line statement's
 *     continuation line, e.g. the last line of a three-line `throw`);
 *   - else (a comment on a line of its own, or beside only braces or
 *     `else`) the next statement (documented extension).
 * A line holding both the end of one statement and the start of another is
 * ambiguous and is an error. Malformed `@word`s inside the function are
 * errors, or warnings (and ignored) when ps->lenient. */
static int proper__synth_in_ranges(int line, int (*ranges)[2], size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        if (line >= ranges[i][0] && line <= ranges[i][1]) return 1;
    return 0;
}

static int proper__synth_attach_rewards(proper__synth_builder *b, proper__synth_parser *ps, int first, int last) {
    proper_synth_model *m = b->m;
    const proper__synth_annot *an = ps->annots;
    size_t i, k, cap_names = 0, n_an = ps->n_annots;
    for (i = 0; i < n_an; i++) {
        int r;
        size_t starts = PROPER__SYNTH_NONE, covers = PROPER__SYNTH_NONE, after = PROPER__SYNTH_NONE, best;
        if (an[i].line < first || an[i].line > last) continue;
        if (proper__synth_in_ranges(an[i].line, ps->unmodelled, ps->n_unmodelled)) { /* in a catch block */
            if (!an[i].bad)
                proper_strbuf_printf(&ps->warnings, "%s:%d:%d: annotation @%s is in a catch block, which the model "
                                     "does not include (exceptions are assumed not caught); ignored\n",
                                     b->file ? b->file : "", an[i].line, an[i].col, an[i].name);
            continue;
        }
        if (an[i].bad) {
            if (an[i].bad != PROPER_EPARSE || !ps->lenient)
                return proper_error_set(b->err, an[i].bad, b->file, an[i].line, an[i].col, "%s", an[i].msg);
            proper_strbuf_printf(&ps->warnings, "%s:%d:%d: %s; ignored (--lenient)\n", b->file ? b->file : "",
                                 an[i].line, an[i].col, an[i].msg);
            continue;
        }
        for (k = 0; k < m->n_states; k++) {
            const proper_synth_state *st = &m->states[k];
            if (st->kind == PROPER_SYNTH_END) continue;
            if (st->line == an[i].line && starts == PROPER__SYNTH_NONE) starts = k;
            else if (st->line < an[i].line && st->last_line >= an[i].line &&
                     (covers == PROPER__SYNTH_NONE || st->line > m->states[covers].line))
                covers = k;
            else if (st->line > an[i].line && (after == PROPER__SYNTH_NONE || st->line < m->states[after].line))
                after = k;
        }
        if (starts != PROPER__SYNTH_NONE && covers != PROPER__SYNTH_NONE)
            return proper_error_set(b->err, PROPER_EPARSE, b->file, an[i].line, an[i].col,
                                    "annotation @%s is ambiguous: its line holds the end of the statement that starts "
                                    "at line %d and the start of another; put it on a line of one statement only",
                                    an[i].name, m->states[covers].line);
        best = starts != PROPER__SYNTH_NONE ? starts : covers != PROPER__SYNTH_NONE ? covers : after;
        if (best == after) { /* only within the innermost block holding the comment */
            int (*in)[4] = NULL;
            size_t q;
            for (q = 0; q < ps->n_blocks; q++) {
                int (*bq)[4] = &ps->blocks[q];
                int opened = (*bq)[0] < an[i].line || ((*bq)[0] == an[i].line && (*bq)[1] < an[i].col);
                int open = (*bq)[2] > an[i].line || ((*bq)[2] == an[i].line && (*bq)[3] > an[i].col);
                if (opened && open && (!in || (*bq)[0] > (*in)[0] || ((*bq)[0] == (*in)[0] && (*bq)[1] > (*in)[1])))
                    in = bq;
            }
            if (in && (best == PROPER__SYNTH_NONE || m->states[best].line > (*in)[2])) {
                char msg[200];
                snprintf(msg, sizeof msg, "annotation @%s is on a line without a statement, and no statement follows "
                         "it in its block (closed at line %d): is it on a commented-out line?", an[i].name, (*in)[2]);
                if (!ps->lenient) return proper_error_set(b->err, PROPER_EPARSE, b->file, an[i].line, an[i].col, "%s", msg);
                proper_strbuf_printf(&ps->warnings, "%s:%d:%d: %s; ignored (--lenient)\n", b->file ? b->file : "",
                                     an[i].line, an[i].col, msg);
                continue;
            }
        }
        if (best == PROPER__SYNTH_NONE)
            return proper_error_set(b->err, PROPER_EPARSE, b->file, an[i].line, an[i].col,
                                    "annotation @%s is not on or before a statement of the function", an[i].name);
        r = proper_synth_reward_index(m, an[i].name);
        if (r < 0) {
            char name[32];
            double *grown;
            memset(name, 0, sizeof name);
            strncpy(name, an[i].name, sizeof name - 1);
            if (proper_reserve(&m->reward_names, &cap_names, m->n_rewards + 1, sizeof *m->reward_names))
                return proper_error_set(b->err, PROPER_ENOMEM, b->file, an[i].line, 0, "out of memory");
            memcpy(m->reward_names[m->n_rewards], name, sizeof name);
            grown = (double *)PROPER_REALLOC(b->rewards, (m->n_rewards + 1) * m->n_states * sizeof *grown);
            if (!grown) return proper_error_set(b->err, PROPER_ENOMEM, b->file, an[i].line, 0, "out of memory");
            b->rewards = grown;
            for (k = 0; k < m->n_states; k++) b->rewards[m->n_rewards * m->n_states + k] = 0.0;
            r = (int)m->n_rewards++;
        }
        if (b->rewards[(size_t)r * m->n_states + best] != 0.0)
            return proper_error_set(b->err, PROPER_EPARSE, b->file, an[i].line, an[i].col,
                                    "statement at line %d has two @%s annotations", m->states[best].line, an[i].name);
        b->rewards[(size_t)r * m->n_states + best] = an[i].value;
    }
    if (ps->warnings.failed) return proper_error_set(b->err, PROPER_ENOMEM, b->file, 0, 0, "out of memory");
    return PROPER_OK;
}

PROPER_API int proper_synth_reward_index(const proper_synth_model *m, const char *name) {
    size_t i;
    for (i = 0; i < m->n_rewards; i++)
        if (strcmp(m->reward_names[i], name) == 0) return (int)i;
    return -1;
}

PROPER_API double proper_synth_reward_at(const proper_synth_model *m, size_t r, size_t s) {
    return m->dtmc.rewards[r].state[s];
}

PROPER_API void proper_synth_init(proper_synth_model *m) { memset(m, 0, sizeof *m); }

PROPER_API void proper_synth_free(proper_synth_model *m) {
    PROPER_FREE(m->states);
    PROPER_FREE(m->params);
    PROPER_FREE(m->reward_names);
    PROPER_FREE(m->warnings);
    proper_dtmc_free(&m->dtmc);
    proper_synth_init(m);
}

/* The model's chain through dtmc.h's builder (see OUTPUT): a parametric
 * state's row is stored at p = 1/2, so that both its edges are present. */
static int proper__synth_build_chain(proper_synth_model *m, const double *rewards, proper_error *err) {
    proper_dtmc_builder b;
    proper_bitset end;
    size_t i, r;
    uint32_t *rows = NULL;
    const char **names = NULL;
    int rc = PROPER_OK;
    if (m->n_states >= PROPER_DTMC_MAX_STATES)
        return proper_error_set(err, PROPER_ELIMIT, NULL, 0, 0, "%zu statements are too many", m->n_states);
    proper_dtmc_builder_init(&b);
    b.init = (uint32_t)m->initial;
    for (i = 0; i < m->n_states && !rc; i++) {
        const proper_synth_state *st = &m->states[i];
        uint32_t dst[2];
        double half[2] = {0.5, 0.5}, one = 1.0;
        dst[0] = (uint32_t)st->taken;
        dst[1] = (uint32_t)st->next;
        if (st->kind == PROPER_SYNTH_BRANCH || st->kind == PROPER_SYNTH_LOOP)
            rc = proper_dtmc_builder_add_row(&b, dst, half, 2, err);
        else
            rc = proper_dtmc_builder_add_row(&b, dst + 1, &one, 1, err);
    }
    if (rc) { proper_dtmc_builder_free(&b); return rc; }
    if ((rc = proper_dtmc_builder_finish(&b, (uint32_t)m->n_states, &m->dtmc, err))) return rc;
    for (r = 0; r < m->n_rewards && !rc; r++) {
        size_t index;
        if ((rc = proper_dtmc_add_reward(&m->dtmc, m->reward_names[r], 1, 0, &index, err))) break;
        memcpy(m->dtmc.rewards[index].state, rewards + r * m->n_states, m->n_states * sizeof(double));
    }
    proper_bitset_init(&end);
    if (!rc && !(rc = proper_bitset_create(&end, m->n_states, err))) {
        proper_bitset_set(&end, m->end);
        rc = proper_dtmc_add_label(&m->dtmc, "end", &end, NULL, err);
    }
    proper_bitset_free(&end);
    if (rc) return rc;
    rows = (uint32_t *)proper_calloc(3 * m->n_params + 1, sizeof *rows);
    names = (const char **)proper_calloc(m->n_params + 1, sizeof *names);
    if (!rows || !names) rc = proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    for (i = 0; i < m->n_params && !rc; i++) {
        const proper_synth_state *st = &m->states[m->params[i].state];
        names[i] = m->params[i].name;
        rows[i] = (uint32_t)m->params[i].state;
        rows[m->n_params + i] = (uint32_t)st->taken;
        rows[2 * m->n_params + i] = (uint32_t)st->next;
    }
    if (!rc)
        rc = proper_dtmc_set_param_rows(&m->dtmc, m->n_params, names, rows, rows + m->n_params,
                                        rows + 2 * m->n_params, err);
    PROPER_FREE(rows);
    PROPER_FREE(names);
    return rc;
}

static int proper__synth_build(proper__synth_parser *ps, proper_synth_model *m, proper__synth_stmt *body,
                               int body_line, int close_line) {
    proper__synth_builder b;
    proper__synth_jumps none;
    size_t entry, i;
    int rc, empty;
    b.m = m; b.rewards = NULL; b.cap_states = 0; b.cap_params = 0; b.err = ps->err; b.file = ps->file;
    none.break_to = none.continue_to = PROPER__SYNTH_NONE;
    if ((rc = proper__synth_create_states(&b, body))) return rc;
    /* a function without statements still gets one (empty) state: its entry */
    empty = m->n_states == 0;
    if (empty && (rc = proper__synth_new_state(&b, PROPER_SYNTH_STMT, body_line, body_line, "stmt", &entry))) return rc;
    if ((rc = proper__synth_new_state(&b, PROPER_SYNTH_END, close_line, close_line, "end", &m->end))) return rc;
    m->states[m->end].next = m->end;
    if (empty) m->states[entry].next = m->end;
    else if ((rc = proper__synth_wire(&b, body, m->end, none, &entry))) return rc;
    m->initial = entry;
    for (i = 0; i < m->n_states; i++) {
        if (m->states[i].next == PROPER__SYNTH_CALL) m->states[i].next = entry;
        PROPER_ASSERT(m->states[i].next != PROPER__SYNTH_NONE);
    }
    if (!(rc = proper__synth_attach_rewards(&b, ps, body_line, close_line)))
        rc = proper__synth_build_chain(m, b.rewards, ps->err);
    PROPER_FREE(b.rewards);
    return rc;
}

PROPER_API proper_synth_opts proper_synth_opts_default(void) {
    proper_synth_opts o;
    memset(&o, 0, sizeof o);
    return o;
}

PROPER_API int proper_synth_parse_opts(proper_synth_model *out, const char *text, size_t len, const char *file,
                                       const char *function, proper_synth_opts opts, proper_error *err) {
    proper__synth_parser ps;
    proper__synth_stmt *body = NULL;
    proper_synth_model model, *m = &model;
    int rc, open_line;
    size_t open_tok;
    proper_synth_init(m);
    memset(&ps, 0, sizeof ps);
    ps.file = file;
    ps.err = err;
    ps.lenient = opts.lenient;
    ps.function = function;
    proper_strbuf_init(&ps.warnings);
    if (strlen(function) >= sizeof m->function)
        return proper_error_set(err, PROPER_EINVAL, file, 0, 0, "function name too long");
    strcpy(m->function, function);
    if ((rc = proper__synth_tokenize(&ps, text, len))) goto done;
    if ((rc = proper__synth_find_function(&ps, function))) {
        if (rc == PROPER_EUNDEFINED)
            proper_error_set(err, PROPER_EUNDEFINED, file, 0, 0, "no definition of function '%s' found", function);
        goto done;
    }
    open_tok = ps.pos;
    open_line = proper__synth_peek(&ps)->line;
    if ((rc = proper__synth_parse_block(&ps, &body, 0))) goto done;
    if ((rc = proper__synth_check_recursion(&ps, function, open_tok + 1, ps.pos))) goto done;
    rc = proper__synth_build(&ps, m, body, open_line, ps.toks[ps.pos - 1].line);
    if (!rc && ps.warnings.len) m->warnings = proper_strbuf_take(&ps.warnings);
done:
    proper__synth_stmt_free(body);
    proper_strbuf_free(&ps.warnings);
    PROPER_FREE(ps.toks);
    PROPER_FREE(ps.annots);
    PROPER_FREE(ps.unmodelled);
    PROPER_FREE(ps.blocks);
    if (rc) {
        proper_synth_free(m);
        return rc;
    }
    proper_synth_free(out);
    *out = model;
    return PROPER_OK;
}

PROPER_API int proper_synth_parse(proper_synth_model *out, const char *text, size_t len, const char *file,
                                  const char *function, proper_error *err) {
    return proper_synth_parse_opts(out, text, len, file, function, proper_synth_opts_default(), err);
}

PROPER_API int proper_synth_read_opts(proper_synth_model *m, const char *path, const char *function,
                                      proper_synth_opts opts, proper_error *err) {
    char *text;
    size_t len;
    int rc = proper_read_file(path, &text, &len, err);
    if (rc) return rc;
    rc = proper_synth_parse_opts(m, text, len, path, function, opts, err);
    PROPER_FREE(text);
    return rc;
}

PROPER_API int proper_synth_read(proper_synth_model *m, const char *path, const char *function, proper_error *err) {
    return proper_synth_read_opts(m, path, function, proper_synth_opts_default(), err);
}

/* ---- output ---- */

static int proper__synth_write_status(FILE *out, proper_error *err) {
    if (ferror(out)) return proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write error");
    return PROPER_OK;
}

PROPER_API int proper_synth_write_prism(const proper_synth_model *m, FILE *out, proper_error *err) {
    size_t i, r;
    fprintf(out, "// parametric DTMC of %s, synthesised by proper\ndtmc\n\n", m->function);
    for (i = 0; i < m->n_params; i++)
        fprintf(out, "const double %s; // line:%d %s\n", m->params[i].name, m->params[i].line,
                m->params[i].is_loop ? "loop" : "conditional");
    fprintf(out, "\nmodule %s\n  s : [0..%u] init %u;\n\n", m->function, (unsigned)(m->n_states - 1),
            (unsigned)m->initial);
    for (i = 0; i < m->n_states; i++) {
        const proper_synth_state *st = &m->states[i];
        if (st->kind == PROPER_SYNTH_BRANCH || st->kind == PROPER_SYNTH_LOOP) {
            const char *p = m->params[st->param].name;
            fprintf(out, "  [] s=%u -> %s:(s'=%u) + (1-%s):(s'=%u); // line:%d %s\n", (unsigned)i, p,
                    (unsigned)st->taken, p, (unsigned)st->next, st->line, st->what);
        } else {
            fprintf(out, "  [] s=%u -> 1:(s'=%u); // line:%d %s\n", (unsigned)i, (unsigned)st->next,
                    st->line, st->what);
        }
    }
    fprintf(out, "endmodule\n\nlabel \"end\" = s=%u;\n", (unsigned)m->end);
    for (r = 0; r < m->n_rewards; r++) {
        fprintf(out, "\nrewards \"%s\"\n", m->reward_names[r]);
        for (i = 0; i < m->n_states; i++) {
            double v = proper_synth_reward_at(m, r, i);
            char num[PROPER_DOUBLE_CHARS];
            if (v == 0.0) continue;
            proper_format_double(num, v);
            fprintf(out, "  s=%u : %s; // line:%d\n", (unsigned)i, num, m->states[i].line);
        }
        fprintf(out, "endrewards\n");
    }
    return proper__synth_write_status(out, err);
}

PROPER_API int proper_synth_write_table(const proper_synth_model *m, FILE *out, proper_error *err) {
    size_t i, r;
    fprintf(out, "%-6s %-6s %-9s %-6s", "state", "line", "statement", "param");
    for (r = 0; r < m->n_rewards; r++) fprintf(out, " %10s", m->reward_names[r]);
    fputc('\n', out);
    for (i = 0; i < m->n_states; i++) {
        const proper_synth_state *st = &m->states[i];
        fprintf(out, "%-6u %-6d %-9s %-6s", (unsigned)i, st->line, st->what,
                st->param >= 0 ? m->params[st->param].name : "-");
        for (r = 0; r < m->n_rewards; r++) fprintf(out, " %10g", proper_synth_reward_at(m, r, i));
        fputc('\n', out);
    }
    return proper__synth_write_status(out, err);
}

/* ---- solving (dtmc.h) ---- */

static int proper__synth_check_reward(const proper_synth_model *m, int reward, proper_error *err) {
    if (reward < 0 || (size_t)reward >= m->n_rewards)
        return proper_error_set(err, PROPER_EINVAL, NULL, 0, 0, "no reward structure %d", reward);
    return PROPER_OK;
}

PROPER_API int proper_synth_expected_reward_stats(const proper_synth_model *m, int reward, const double *p,
                                                  double *value, proper_dtmc_solve_stats *stats,
                                                  proper_error *err) {
    proper_dtmc chain;
    proper_bitset end;
    double *x;
    int rc;
    if ((rc = proper__synth_check_reward(m, reward, err))) return rc;
    proper_dtmc_init(&chain);
    proper_bitset_init(&end);
    x = (double *)proper_calloc(m->n_states + 1, sizeof *x);
    if (!x) return proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory");
    if (!(rc = proper_dtmc_param_instantiate(&m->dtmc, p, &chain, err)) &&
        !(rc = proper_dtmc_label_get(&chain, "end", &end, err)) &&
        !(rc = proper_dtmc_reward_reach(&chain, &chain.rewards[reward], &end, NULL, x, stats, err)))
        *value = x[m->initial];
    proper_bitset_free(&end);
    proper_dtmc_free(&chain);
    PROPER_FREE(x);
    return rc;
}

PROPER_API int proper_synth_expected_reward(const proper_synth_model *m, int reward, const double *p,
                                            double *value, proper_error *err) {
    return proper_synth_expected_reward_stats(m, reward, p, value, NULL, err);
}

PROPER_API int proper_synth_reward_range(const proper_synth_model *m, int reward, const double *lo,
                                         const double *hi, double *min_value, double *max_value,
                                         double *argmin, double *argmax, proper_error *err) {
    proper_bitset end;
    int rc;
    if ((rc = proper__synth_check_reward(m, reward, err))) return rc;
    proper_bitset_init(&end);
    if (!(rc = proper_dtmc_label_get(&m->dtmc, "end", &end, err)))
        rc = proper_dtmc_param_reward_range(&m->dtmc, (size_t)reward, &end, lo, hi, NULL, min_value, max_value,
                                            argmin, argmax, NULL, err);
    proper_bitset_free(&end);
    return rc;
}
#endif /* PROPER_SYNTH_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
